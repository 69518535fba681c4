/*
 * combat.c: the Combat phase of the Warmaster family (Warmaster Revolution,
 * Combat; Warmaster Ancients, Combat) for an engagement of any number of
 * units a side: attack dice with their modifiers, hits against armour, each
 * side's combat result summed over its units with supports and the cap on
 * counted hits, casualties, the winner (a side loses outright only when every
 * unit engaged on it is destroyed), the losers' retreat divided among them
 * (blocked, off the table, into friends), the winners' pursuit with its bonus,
 * further rounds, and unresolved combats carried into the next turn, until
 * the engagement ends. Shooting before contact comes first: a volley in the
 * charged side's previous turn (Shooting > Driving Back Enemies) and shooting
 * at chargers (Shooting > Shooting at Charging Enemy). An engagement of two
 * units (om_wm_prepared) is the case of one unit a side, with its first round
 * drawn from a table when it can be (MULTICOMBAT.md). Sections cited are
 * Warmaster Revolution's unless another rulebook is named; "1.1" is the
 * Warmaster 1.1 rule set.
 *
 * Units are handled in index order wherever order matters, so one unit a
 * side rolls its dice in the order the two-unit engine always has. The hot
 * path of two units has no division: stand losses come from per-unit tables
 * built when the engagement is prepared (lost_at, left_at). Two units are
 * also the same code compiled for their shape (the `duel` argument), and
 * look up in tables made by this code what a trial would otherwise work out
 * again: first rounds from known states, the dice and pursuits of later
 * rounds (MULTICOMBAT.md, "Two units").
 */
#include <stdlib.h>
#include <string.h>

#include "wm.h"
#include "wm_int.h"

static unsigned floor0(int v) { return v > 0 ? (unsigned)v : 0u; }

/*
 * The attack dice of `me` against `foe` (Combat > Attack Modifiers and the
 * Warmaster Ancients special rules):
 * per stand Attacks + charge bonus (round 1, charging, foe in the open; +1 more
 * for heavy and scythed chariots) + shock on a long base (charging or pursuing)
 * + pursuit bonus (+1 more for a warband) - warband after retreating - terror
 * (not for terrifying units or fanatics) - confused - 1 on flanked stands; a
 * phalanx stand striking to a side or rear has base Attack 0. Each stand is
 * floored at 0 (A4); a joined character's bonus goes to the best stand (A39);
 * a unit with fighting stands rolls at least one die (A3); Hermann's units add
 * one die per unit when they charge.
 */
unsigned om_wm_attack_dice_case(const om_wm_ruleset *r, const om_wm_side *me,
                                const om_wm_side *foe, const om_wm_round_case *c)
{
    const om_wm_traits *t = &me->unit.traits;
    const bool charge_round = c->round == 1 && me->charging;
    unsigned strikers = 0, plain, total;
    int mods = 0, front, flank, side;
    if (c->fighting == 0)
        return 0;
    assert(c->flanked <= c->fighting);
    if (charge_round && om_wm_effective_position(foe) == OM_WM_OPEN &&
        !om_wm_pikes_hold(foe, me, c->round) && !t->no_charge_bonus)
        mods += r->charge_bonus[me->unit.troop] + t->charge_bonus_delta;
    if (foe->unit.troop == OM_WM_MONSTER)
        mods += t->attack_delta_vs_monsters;
    /* Grail Pilgrims +1 always; Zealots +1 in the first round against Chaos
     * or Undead, whoever charged (A-12, A-29); a Tomb King's or Oathstone's
     * +1 in the Combat phase it is used (A-27). */
    mods += t->attack_delta;
    if (c->round == 1 && t->hates_chaos_undead && foe->unit.chaos_or_undead)
        mods += 1;
    if (c->empowered)
        mods += 1;
    if (t->shock && me->long_base && (charge_round || c->pursuit > 0))
        mods += 1;
    mods += (int)c->pursuit;
    if (me->magic == OM_WM_MAGIC_BATTLE_BANNER)
        mods += 1;
    if (t->warband)
        mods += (c->pursuit > 0 ? 1 : 0) - (c->retreated_last ? 1 : 0);
    if (foe->unit.traits.terror && !t->terror && !t->ignores_terror && !c->fearless)
        mods -= 1;
    /* Stampeding elephants are not confused: none of its rules apply (army
     * list); the state only makes them pursue. */
    if (c->confused && !t->stampedes)
        mods -= 1;
    /* Stand classes: front-facing, flanked, and (phalanx) striking to a side. */
    if (t->phalanx)
        strikers = c->side_strikers < c->flanked ? c->side_strikers : c->flanked;
    front = (int)me->unit.attacks + mods;
    flank = front - 1;
    /* +1 for stands fighting to their front in the first round (Cold One
     * Knights, Wild Riders, Winged Lancers): the unflanked stands here. */
    if (c->round == 1)
        front += t->round1_front_attack_delta;
    side = mods - 1;
    /* Stand classes, best first: front-facing, flanked, striking to a side.
     * One-stand bonuses (a joined character's, then a Sword of Might's or of
     * Fate's) each go to the best stand still without one (A39); with fewer
     * stands than bonuses the last stand takes the rest. */
    {
        int base[3] = {front, flank, side};
        unsigned count[3], bonus[2], zero = 0;
        int stand_value[2]; /* value of each stand that received a bonus */
        size_t n_bonus = 0, n_bonused = 0;
        plain = c->fighting - c->flanked;
        count[0] = plain;
        count[1] = c->flanked - strikers;
        count[2] = strikers;
        total = count[0] * floor0(base[0]) + count[1] * floor0(base[1]) +
                count[2] * floor0(base[2]);
        /* The Oathstone's Hero gains +1 too (A-27). */
        if (me->attack_bonus > 0)
            bonus[n_bonus++] = me->attack_bonus +
                               (c->empowered && me->power == OM_WM_POWER_OATHSTONE ? 1u : 0u);
        if (me->magic == OM_WM_MAGIC_MIGHT || (me->magic == OM_WM_MAGIC_FATE && c->round == 1))
            bonus[n_bonus++] = 1;
        for (size_t b = 0; b < n_bonus; b++) {
            int k = count[0] > 0 ? 0 : count[1] > 0 ? 1 : count[2] > 0 ? 2 : -1;
            int before;
            if (k >= 0) {
                /* The best stand without a bonus takes it. */
                count[k]--;
                /* Ancients adds the commander's bonus after the stand's
                 * floor, so confusion and terror cannot eat it (A5). */
                stand_value[n_bonused++] = r->bonus_after_stand_floor ? (int)floor0(base[k]) : base[k];
            }
            /* Otherwise (fewer stands than bonuses) the last stand takes it too;
             * a unit with no stand fighting strikes no blow for it. */
            if (n_bonused == 0)
                continue;
            before = stand_value[n_bonused - 1];
            stand_value[n_bonused - 1] += (int)bonus[b];
            total += floor0(stand_value[n_bonused - 1]) - floor0(before);
        }
        if (me->unit.attacks == 0) {
            /* Machines with no Attacks of their own (Pump Wagon) never take
             * the last-ditch die; their bonus dice are all they roll. */
        } else if (c->last_ditch_per_stand) {
            /* Reading B of A3: every stand still at 0 or below rolls one die. */
            for (int k = 0; k < 3; k++)
                zero += base[k] <= 0 ? count[k] : 0u;
            for (size_t b = 0; b < n_bonused; b++)
                zero += stand_value[b] <= 0 ? 1u : 0u;
            total += zero;
        } else if (total == 0) {
            total = 1; /* "A unit always rolls one Attack dice regardless" (A3 reading A) */
        }
    }
    if (charge_round)
        total = floor0((int)total + t->charge_dice_delta);
    return total;
}

unsigned om_wm_attack_dice(const om_wm_ruleset *r, const om_wm_side *me, const om_wm_side *foe,
                           unsigned fighting, unsigned flanked, unsigned round)
{
    om_wm_round_case c = {.fighting = fighting, .flanked = flanked, .round = round,
                          .confused = me->confused, .side_strikers = me->side_strikers};
    assert(flanked <= fighting);
    return om_wm_attack_dice_case(r, me, foe, &c);
}

unsigned om_wm_retreat_cm(unsigned winner_result, unsigned loser_result, unsigned losing_units)
{
    unsigned diff = winner_result > loser_result ? winner_result - loser_result : 0u;
    unsigned cm;
    assert(losing_units > 0);
    cm = losing_units == 1 ? diff : (diff + losing_units - 1) / losing_units; /* halves up */
    return cm > 0 ? cm : 1u;
}

unsigned om_wm_pursuit_bonus(unsigned retreat_cm) { return 1u + retreat_cm / 3u; }

unsigned om_wm_victory_points(unsigned points, unsigned stands, unsigned lost)
{
    if (lost >= stands)
        return points;
    if (stands >= 3 && stands - lost == 1)
        return (points + 9u) / 10u * 5u; /* half, rounded up to the nearest 5 */
    return 0;
}

unsigned om_wm_victory_points_lost(unsigned points, unsigned size, unsigned stands,
                                   unsigned lost)
{
    unsigned before = size - stands;
    assert(stands <= size);
    return om_wm_victory_points(points, size, before + lost) -
           om_wm_victory_points(points, size, before);
}

/* ------------------------------------------------------------------------ */
/* The fight: units, their state and what they do.                          */
/* ------------------------------------------------------------------------ */

/* The engine and one trial's fight (wm_int.h). */
typedef om_wm_engine engine;
typedef om_wm_fight fight;

/* Rounds a Combat phase has at most: a round, and one more if a winner
 * pursues; a pursuit after the second leaves the combat unresolved (Combat >
 * Pursuit). */
#define OM_WM_PHASE_ROUNDS 2u

void om_wm_fighter_set(om_wm_fighter *u, const om_wm_unit_state *s)
{
    memset(u, 0, sizeof *u);
    assert(s->stands <= 255u && s->carried <= 255u);
    u->stands = (uint8_t)s->stands;
    u->carried = (uint8_t)s->carried;
    u->behind_cm = om_wm_sat8(s->behind_cm);
    u->pursuit = om_wm_sat8(s->pursuit);
    u->shot = om_wm_sat8(s->shot);
    u->confused = s->confused;
    u->in_open = s->in_open;
    u->retreated = s->retreated;
    u->regains_position = s->regains_position;
    u->left_table = s->left_table;
    u->hurt = s->hurt;
    u->fearless = s->fearless;
    u->reduced = s->reduced;
    u->first_stands = (uint8_t)s->stands;
    u->foe = OM_WM_NO_UNIT;
    u->in_combat = true;
}

void om_wm_fighter_get(const om_wm_fighter *u, om_wm_unit_state *s)
{
    s->stands = u->stands;
    s->carried = u->carried;
    s->behind_cm = u->behind_cm;
    s->pursuit = u->pursuit;
    s->shot = u->shot;
    s->confused = u->confused;
    s->in_open = u->in_open;
    s->retreated = u->retreated;
    s->regains_position = u->regains_position;
    s->left_table = u->left_table;
    s->hurt = u->hurt;
    s->fearless = u->fearless;
    s->reduced = u->reduced;
}

/*
 * The duel's specialisation. Every function a trial runs takes a last
 * argument `duel`: true when the engine is known to be a duel (om_wm_duel:
 * unit 0 side A's, unit 1 side B's, contact k unit k's stands on unit 1 - k,
 * no support links, no rounds before, a fixed retreat divisor). The two
 * entry points pass it as a constant (om_wm_combat false, the duel's fight
 * true), and the functions of a round are inlined into them, so the same
 * code is compiled twice: for any engagement, and for two units with every
 * loop over units, contacts and supports bounded by a constant and the
 * shape's lookups folded away. The engine's shape is read only through the
 * accessors below, which say what a duel's shape is.
 */
#if defined(__GNUC__)
#define SPECIALISED static inline __attribute__((always_inline))
#else
#define SPECIALISED static inline
#endif

/* Units in the engagement. */
static inline unsigned units_in(const engine *g, bool duel) { return duel ? 2u : g->n_units; }

/* Declared contacts. */
static inline unsigned contacts_in(const engine *g, bool duel)
{
    return duel ? 2u : g->n_contacts;
}

/* Support links between units of the engagement. */
static inline unsigned links_in(const engine *g, bool duel) { return duel ? 0u : g->n_supports; }

/* Units of side s. */
static inline unsigned side_units(const engine *g, int s, bool duel)
{
    return duel ? 1u : g->army_units[s];
}

/* The i-th unit of side s. */
static inline unsigned side_unit(const engine *g, int s, unsigned i, bool duel)
{
    return duel ? (unsigned)s : g->army_unit[s][i];
}

/* The side of unit u. */
static inline int army_of(const engine *g, unsigned u, bool duel)
{
    return duel ? (int)u : g->unit[u].army;
}

/* Rounds fought in earlier turns (none in a duel, whose trials start with
 * the charge). */
static inline unsigned rounds_before(const engine *g, bool duel)
{
    return duel ? 0u : g->rounds_before;
}

/* Unit u as declared. */
static const om_wm_side *declared(const engine *g, unsigned u) { return g->side[u]; }

/* Unit u as it fights now: its values halved once it is badly hurt. */
static const om_wm_side *side_now(const engine *g, const fight *f, unsigned u)
{
    return f->u[u].hurt ? g->unit[u].hurt : g->unit[u].side;
}

/* Unit u's Hits per stand in combat now. */
static unsigned hits_now(const engine *g, const fight *f, unsigned u)
{
    return f->u[u].hurt ? g->unit[u].hurt_hits : g->unit[u].combat_hits;
}

/* Whether unit u is in the fight with stands left. */
static bool stands_in_fight(const fight *f, unsigned u)
{
    return f->u[u].in_combat && f->u[u].stands > 0;
}

/* Whether one of the n units list[] is in the fight with stands left (and
 * still on the table, if `on_table`). */
static bool any_fights_on(const fight *f, const uint8_t *list, unsigned n, bool on_table)
{
    for (unsigned i = 0; i < n; i++) {
        const om_wm_fighter *x = &f->u[list[i]];
        if (x->in_combat && x->stands > 0 && !(on_table && x->left_table))
            return true;
    }
    return false;
}

/* Whether side s has a unit in the fight with stands left (and still on the
 * table, if `on_table`); one unit a side is looked at directly. */
static inline bool side_fights_on(const engine *g, const fight *f, int s, bool on_table,
                                  bool duel)
{
    if (side_units(g, s, duel) == 1) {
        const om_wm_fighter *x = &f->u[side_unit(g, s, 0, duel)];
        return x->in_combat && x->stands > 0 && !(on_table && x->left_table);
    }
    return any_fights_on(f, g->army_unit[s], g->army_units[s], on_table);
}

/* Whether side s still has a unit engaged that lives: one in the fight with
 * stands left, or the units its units' supports come from when the
 * engagement does not model them (support_units). "All the units engaged on
 * one side entirely destroyed" is the opposite (Warmaster Revolution, Combat
 * > Pursuit and destroyed enemy; supporting units are engaged, Combat >
 * Supporting Combat). */
static inline bool side_lives(const engine *g, const fight *f, int s, bool duel)
{
    for (unsigned i = 0; i < side_units(g, s, duel); i++) {
        unsigned u = side_unit(g, s, i, duel);
        const om_wm_side *me = declared(g, u);
        if (f->u[u].in_combat &&
            (f->u[u].stands > 0 || (me->support_units > 0 && me->supports > 0)))
            return true;
    }
    return false;
}

/* Stands of unit u fighting now, all contacts together: those declared, as
 * far as it has stands left; all of them if all its stands were declared
 * fighting (a stand regained by Daemonic Instability is placed beside the
 * others). Stands lost are first those not fighting (warriors press forward:
 * Combat > How to Calculate Damage > Casualties). */
static unsigned fighting_now(const om_wm_side *me, unsigned stands)
{
    if (me->fighting >= me->unit.stands)
        return stands;
    return me->fighting < stands ? me->fighting : stands;
}

/* The round of the engagement as unit u fights it: a unit that charged into
 * a combat fought in earlier turns fights its first round as the charge's
 * (A7 reading A: its charge bonus and first-round rules); any other, the
 * engagement's round. */
static inline unsigned unit_round(const engine *g, unsigned round, unsigned u, bool duel)
{
    if (rounds_before(g, duel) > 0 && round == g->rounds_before + 1u &&
        declared(g, u)->charging)
        return 1;
    return round;
}

/* A big monster with enough hits carried at the end of a phase becomes badly
 * hurt for the rest of the battle; the hits go (army lists). */
static inline void check_hurt(const engine *g, fight *f, unsigned u)
{
    unsigned from;
    om_wm_fighter *x = &f->u[u];
    if (!(g->in_play & OM_WM_PLAY_HURT))
        return;
    from = om_wm_hurt_from(&declared(g, u)->unit);
    if (from > 0 && !x->hurt && x->stands > 0 && x->carried >= from) {
        x->hurt = true;
        x->carried = 0;
    }
}

/* Make unit u confused, unless nothing confuses it (army lists). */
static void confuse(const engine *g, fight *f, unsigned u)
{
    if (!declared(g, u)->unit.traits.never_confused)
        f->u[u].confused = true;
}

/* The start of unit u's own turn, for what happens then: a roll for an Anvil
 * or Shrine struck in its Shooting phase, immune to terror on a 4+ until its
 * next turn (A-26); Daemonic Instability once it has lost a stand, a D6 (-1 at
 * one stand left, +1 with a Shugenja near): 0-1 loses a stand, 6 or more
 * regains one; the confusion of 2-3 and the recovery of 4-5 end or change
 * nothing before the unit's Command phase ends, when it recovers anyway
 * (Confusion > Confused Units). */
static void own_turn_starts(const engine *g, om_dice *d, fight *f, unsigned u)
{
    const om_wm_side *me = declared(g, u);
    om_wm_fighter *x = &f->u[u];
    if (me->aura == OM_WM_AURA_ROLL)
        x->fearless = om_dice_roll_d6(d) >= 4;
    if (me->unit.traits.daemonic_instability && x->stands > 0 &&
        x->stands < om_wm_unit_size(&me->unit)) {
        int roll = (int)om_dice_roll_d6(d) - (x->stands == 1 ? 1 : 0) + (me->shugenja ? 1 : 0);
        if (roll <= 1) {
            x->stands--;
            if (x->stands == 0)
                x->carried = 0;
        } else if (roll >= 6) {
            x->stands++;
        }
    }
}

/* The start of side `first`'s turn for all its units in the fight. */
SPECIALISED void side_turn_starts(const engine *g, om_dice *d, fight *f, int first, bool duel)
{
    for (unsigned i = 0; i < side_units(g, first, duel); i++)
        if (f->u[side_unit(g, first, i, duel)].in_combat)
            own_turn_starts(g, d, f, side_unit(g, first, i, duel));
}

/* The start of the engagement's first turn, side `first`'s: its units' turn
 * starts; the other side's Anvils or Shrines were struck in that side's turn
 * before and their rolls stand for this one (A-26). */
SPECIALISED void first_turn_starts(const engine *g, om_dice *d, fight *f, int first, bool duel)
{
    for (unsigned i = 0; i < side_units(g, 1 - first, duel); i++) {
        unsigned u = side_unit(g, 1 - first, i, duel);
        if (declared(g, u)->aura == OM_WM_AURA_ROLL)
            f->u[u].fearless = om_dice_roll_d6(d) >= 4;
    }
    side_turn_starts(g, d, f, first, duel);
}

/* Record `hits` on unit t: remove stands for every full Hits value (Shooting >
 * How to Calculate Casualties > Removing Casualties; Combat > How to Calculate
 * Damage > Casualties), through its prepared tables when it has them. Returns
 * the stands removed. */
static inline unsigned take_hits(const engine *g, fight *f, unsigned t, unsigned hits,
                                 bool duel)
{
    const om_wm_unit_prep *up = &g->unit[t];
    om_wm_fighter *x = &f->u[t];
    unsigned h = x->carried + hits, lost, left;
    if (h > 255u)
        h = 255u; /* beyond any unit's capacity (12 stands x 12 Hits = 144) */
    if (x->hurt) {
        lost = h / up->hurt_hits;
        left = h % up->hurt_hits;
    } else if (duel || up->lost_at != NULL) {
        lost = up->lost_at[h];
        left = up->left_at[h];
    } else {
        lost = h / up->combat_hits;
        left = h % up->combat_hits;
    }
    if (lost >= x->stands) {
        lost = x->stands;
        x->stands = 0;
        x->carried = 0;
        return lost;
    }
    x->stands = (uint8_t)(x->stands - lost);
    x->carried = (uint8_t)left;
    return lost;
}

/* Casualties of unit t at the end of a round (Combat > How to Calculate
 * Damage > Casualties) for the `hits` it suffered: stands removed; Trolls then
 * regenerate one outstanding hit after whole stands are removed, the War Hydra
 * one it suffered this round, if alive; it still counted in the result (army
 * lists). Returns the stands lost. */
static inline unsigned casualties(const engine *g, fight *f, unsigned t, unsigned hits,
                                  bool duel)
{
    const om_wm_traits *tr = &declared(g, t)->unit.traits;
    unsigned lost = take_hits(g, f, t, hits, duel);
    if (tr->regeneration == OM_WM_REGENERATES_CARRIED && f->u[t].carried > 0)
        f->u[t].carried--;
    if (tr->regeneration == OM_WM_REGENERATES_SUFFERED && hits > 0 && f->u[t].carried > 0)
        f->u[t].carried--;
    return lost;
}

/* ------------------------------------------------------------------------ */
/* One round: who fights whom, the dice, the result.                         */
/* ------------------------------------------------------------------------ */

/* One unit's stands fighting one enemy unit in a round. */
typedef struct blow {
    unsigned unit;                 /* the unit striking */
    unsigned enemy;                /* the enemy it strikes */
    unsigned fighting;             /* its stands fighting it */
    unsigned flanked;              /* of those, with the enemy's front on a side or rear */
    unsigned strikers;             /* of the flanked, striking to a side or rear (phalanx) */
    const om_wm_pair_tests *tests; /* unit attacking enemy */
    const uint8_t *round1_dice;    /* its prepared first-round dice, or NULL */
    bool struck;                   /* the blow is struck: always, but for a duel's slot of
                                      a unit that does not strike (no other field is set) */
} blow;

/* The blows of one round and each unit's part in it. */
typedef struct round_plan {
    unsigned n;                          /* blows (a duel: its two slots) */
    blow b[OM_WM_CONTACTS_MAX];          /* in order: declared contacts, or units; a
                                            duel's blow k is unit k's on unit 1 - k */
    unsigned fighting[OM_WM_UNITS_MAX];  /* stands each unit fights with */
    unsigned front[OM_WM_UNITS_MAX];     /* of those, with no enemy on their side or rear */
    bool fought[OM_WM_UNITS_MAX];        /* it strikes a blow this round */
} round_plan;

/* Where the rounds of an engagement stand. */
typedef struct bout {
    int charger;           /* the side that charged, or -1 (a fight already joined) */
    unsigned round;        /* rounds of the engagement fought, earlier turns included */
    unsigned phase_round;  /* rounds fought in the current Combat phase */
    uint32_t scythed_gone; /* bit u: unit u's scythed chariots fought their round */
    int winner;            /* the last round's winner, then the engagement's */
    bool declared;         /* this round is fought by the declared contacts (the call's
                              first); after a pursuit, pursuers and pursued face each
                              other, frontally (Combat > Pursuit) */
    bool unresolved;       /* the combat goes on in the next turn (span phase) */
} bout;

/* The index in g->tests of unit u attacking unit e (in a duel, unit u's own). */
static inline unsigned pair_of(const engine *g, unsigned u, unsigned e, bool duel)
{
    assert(g->pair[u][e] != OM_WM_NO_PAIR && (!duel || g->pair[u][e] == u));
    return duel ? u : g->pair[u][e];
}

/* Blows of plan rp: a duel has its two slots, struck or not. */
static inline unsigned blows_in(const round_plan *rp, bool duel) { return duel ? 2u : rp->n; }

/* Add the blow of unit u on enemy e with `fighting` stands to the plan, if
 * it is `struck` (a duel's slot is filled either way, so that its blows keep
 * their places). */
SPECIALISED void add_blow(const engine *g, round_plan *rp, unsigned u, unsigned e,
                          unsigned fighting, unsigned flanked, unsigned strikers,
                          const uint8_t *round1_dice, bool struck, bool duel)
{
    blow *k;
    if (!duel && !struck)
        return;
    k = &rp->b[duel ? u : rp->n++];
    k->struck = struck;
    if (!struck)
        return;
    k->unit = u;
    k->enemy = e;
    k->fighting = fighting;
    k->flanked = flanked < fighting ? flanked : fighting;
    k->strikers = strikers;
    k->tests = &g->tests[pair_of(g, u, e, duel)];
    k->round1_dice = round1_dice;
    rp->fighting[u] += fighting;
    rp->front[u] += fighting - k->flanked;
    rp->fought[u] = true;
}

/*
 * The blows of a round. The call's first round is fought by the declared
 * contacts: a unit's stands fighting now (fighting_now) go to its contacts in
 * order, each taking at most its declared stands and the last whatever is
 * left; flank and rear contacts count. After a pursuit, each pursuer fights
 * the unit it pursued and each pursued unit its first pursuer, frontally:
 * pursuers are placed against the retreaters' front (Combat > Pursuit). A blow
 * on a unit out of the fight or with no stands is not struck.
 */
SPECIALISED void plan_round(const engine *g, const fight *f, const bout *b, round_plan *rp,
                            bool duel)
{
    unsigned left[OM_WM_UNITS_MAX];
    rp->n = duel ? 2u : 0u;
    for (unsigned u = 0; u < units_in(g, duel); u++) {
        rp->fighting[u] = rp->front[u] = 0;
        rp->fought[u] = false;
        left[u] = stands_in_fight(f, u) ? fighting_now(declared(g, u), f->u[u].stands) : 0u;
    }
    if (b->declared) {
        for (unsigned k = 0; k < contacts_in(g, duel); k++) {
            const om_wm_contact_prep *cp = &g->contact[k];
            /* A duel's contact k is unit k's, its only one (so its last). */
            const unsigned u = duel ? k : cp->c.unit, e = duel ? 1u - k : cp->c.enemy;
            unsigned n = duel || g->unit[u].last_contact == k || cp->c.stands > left[u]
                             ? left[u] : cp->c.stands;
            left[u] -= n;
            add_blow(g, rp, u, e, n, cp->c.flanked, cp->c.side_strikers, cp->round1_dice,
                     n > 0 && stands_in_fight(f, e), duel);
        }
        return;
    }
    for (unsigned u = 0; u < units_in(g, duel); u++) {
        /* After a duel's pursuit each unit faces the other. */
        const unsigned e = duel ? 1u - u : f->u[u].foe;
        assert(!duel || f->u[u].foe == e);
        add_blow(g, rp, u, e, left[u], 0, 0, NULL,
                 left[u] > 0 && e != OM_WM_NO_UNIT && stands_in_fight(f, e), duel);
    }
}

/* Whether unit u is empowered in the fight's turn: its Tomb King's or
 * Oathstone's power is used in this turn (A-27). */
static inline bool empowered(const fight *f, const om_wm_side *me)
{
    return me->power != OM_WM_POWER_NONE && f->turn == me->power_turn;
}

/* The attack dice of blow k, worked out from the fight state (Combat >
 * Attack Modifiers). */
SPECIALISED unsigned compute_dice(const engine *g, const fight *f, unsigned round,
                                 const blow *k, bool duel)
{
    const unsigned u = k->unit;
    const om_wm_side *me = side_now(g, f, u);
    om_wm_round_case c;
    c.fighting = k->fighting;
    c.flanked = k->flanked;
    c.side_strikers = k->strikers;
    c.pursuit = f->u[u].pursuit;
    c.round = unit_round(g, round, u, duel);
    c.confused = f->u[u].confused;
    c.retreated_last = f->u[u].retreated;
    c.last_ditch_per_stand = g->options.last_ditch_per_stand;
    c.empowered = empowered(f, me);
    c.fearless = f->u[u].fearless || (c.empowered && me->power == OM_WM_POWER_OATHSTONE);
    return om_wm_attack_dice_case(g->rules, me, declared(g, k->enemy), &c);
}

/* The bits of unit u's state that index a duel's dice of later rounds
 * (OM_WM_LATER_*). */
static inline unsigned later_state(const engine *g, const fight *f, unsigned u)
{
    const om_wm_fighter *x = &f->u[u];
    return (x->hurt ? OM_WM_LATER_HURT : 0u) | (x->confused ? OM_WM_LATER_CONFUSED : 0u) |
           (x->retreated ? OM_WM_LATER_RETREATED : 0u) |
           (x->fearless ? OM_WM_LATER_FEARLESS : 0u) |
           (empowered(f, declared(g, u)) ? OM_WM_LATER_EMPOWERED : 0u);
}

/* The attack dice of blow k: in the first round of a trial from the
 * prepared start, looked up in the table om_wm_combat_prepare made with
 * compute_dice itself, since before round 1 only the stands left can vary
 * (a duel's declared blows carry it, unless aura rolls are in play);
 * in a duel's later rounds, from its table of them (om_wm_later) unless the
 * pursuit bonus is past it; otherwise worked out. */
SPECIALISED unsigned blow_dice(const engine *g, const fight *f, unsigned round, const blow *k,
                              bool duel)
{
    const unsigned u = k->unit;
    const om_wm_fighter *x = &f->u[u];
    if (k->round1_dice != NULL && f->fresh && !x->hurt &&
        x->confused == declared(g, u)->confused) {
        assert(round == 1 && !(g->in_play & OM_WM_PLAY_AURA_ROLL));
        return k->round1_dice[x->stands];
    }
    if (duel && round > 1 && x->pursuit < OM_WM_LATER_PURSUITS) {
        /* The table is compute_dice's (test_multicombat compares a duel with
         * the same engagement through om_wm_multi, which works them out). */
        assert(x->stands < OM_WM_STAND_COUNTS &&
               k->fighting == fighting_now(declared(g, u), x->stands) && k->flanked == 0);
        return g->later->dice[u][later_state(g, f, u)][x->pursuit][x->stands];
    }
    return compute_dice(g, f, round, k, duel);
}

/* Which prepared dice test blow k uses: against the enemy as declared, in the
 * open once it has lost its position, or against its shieldwall, which saves
 * one better in the first round when charged (Warmaster Ancients, Special
 * Rules > Shieldwall). */
SPECIALISED const om_dice_test *melee_test(const engine *g, const fight *f, unsigned round,
                                           const blow *k, bool duel)
{
    const om_wm_side *t = declared(g, k->enemy), *me = declared(g, k->unit);
    const unsigned r = unit_round(g, round, k->unit, duel);
    const om_wm_fighter *x = &f->u[k->enemy];
    bool better_save;
    if ((g->in_play & OM_WM_PLAY_SHIELDWALL) && r == 1 && t->unit.traits.shieldwall &&
        me->charging && t->position != OM_WM_FORTIFIED && !t->dense_terrain)
        return &k->tests->melee[2];
    /* A Banner of Shielding works until its unit loses a stand (Magic Items >
     * Magic Standards); Leonidas improves his unit's armour in every round
     * (Warmaster Ancients, Greek army list). */
    better_save = (t->magic == OM_WM_MAGIC_SHIELDING && om_wm_magic_intact(t, x->stands)) ||
                  t->unit.traits.save_delta_melee < 0;
    /* Pikemen count as defended in the first round against charging cavalry
     * or chariots (army list). */
    if (om_wm_pikes_hold(t, me, r))
        return &k->tests->melee[5 + better_save];
    if (better_save)
        return &k->tests->melee[3 + x->in_open];
    return &k->tests->melee[x->in_open];
}

/* Maniple (Warmaster Ancients, Special Rules > Maniple): after armour, one
 * D6 per stand supporting unit t from the rear out of another maniple unit
 * (those the engagement does not model, and its links from maniple units in
 * the fight); each 6 saves one hit. Returns the hits saved. */
static unsigned maniple_saves(const engine *g, om_dice *d, const fight *f, unsigned t,
                              unsigned hits, bool duel)
{
    const om_wm_side *me = declared(g, t);
    unsigned dice = 0, saved = 0;
    if (!(g->in_play & OM_WM_PLAY_MANIPLE) || !me->unit.traits.maniple || hits == 0)
        return 0;
    if (me->support_units > 0)
        dice += me->rear_supports;
    for (unsigned k = 0; k < links_in(g, duel); k++) {
        const om_wm_support *s = &g->support[k];
        if (s->supported == t && stands_in_fight(f, s->unit) &&
            declared(g, s->unit)->unit.traits.maniple)
            dice += s->rear;
    }
    for (unsigned i = 0; i < dice && saved < hits; i++)
        saved += om_dice_roll_d6(d) == 6;
    return saved;
}

/* Random extra attack dice of war machines (army lists): the Pump Wagon adds
 * D6 in a round where it charges or pursues and D3 otherwise; the Doom Wheel
 * adds D6 when it charges an enemy in the open (round 1). */
SPECIALISED unsigned bonus_dice(const engine *g, om_dice *d, const fight *f, unsigned round,
                               const blow *k, bool duel)
{
    const om_wm_side *me = declared(g, k->unit);
    bool charge = unit_round(g, round, k->unit, duel) == 1 && me->charging;
    if (me->unit.traits.bonus_dice == OM_WM_BONUS_D6_OR_D3) {
        unsigned die = om_dice_roll_d6(d);
        /* A D3 is a D6 halved, rounding up (Introducing Warmaster > Dice). */
        return charge || f->u[k->unit].pursuit > 0 ? die : (die + 1u) / 2u;
    }
    if (me->unit.traits.bonus_dice == OM_WM_BONUS_D6_CHARGING && charge &&
        om_wm_effective_position(declared(g, k->enemy)) == OM_WM_OPEN)
        return om_dice_roll_d6(d);
    return 0;
}

/*
 * Hits of a unit whose magic weapon re-rolls dice (Magic Items > Magic
 * Weapons), rolled stage by stage: to hit, re-rolling one miss (Sword of
 * Cleaving); then the saves, the enemy re-rolling one successful save (Sword
 * of Destruction).
 */
static unsigned staged_hits(om_dice *d, const om_dice_test *t, unsigned dice, om_wm_magic magic,
                            bool reroll_miss)
{
    unsigned hit = om_dice_roll_count(d, dice, t->to_hit), saved;
    if ((magic == OM_WM_MAGIC_CLEAVING || reroll_miss) && hit < dice &&
        om_dice_roll_d6(d) >= t->to_hit)
        hit++;
    saved = om_wm_saves(d, t, hit);
    if (magic == OM_WM_MAGIC_DESTRUCTION && saved > 0 && om_dice_roll_d6(d) < t->save)
        saved--;
    return hit - saved;
}

/* The unsaved hits of blow k (Combat > How to Calculate Damage): its attack
 * dice, with a machine's bonus dice on its unit's first blow, through its dice
 * test; staged when a re-roll is due. Ashurbanipal re-rolls one missed die
 * once a turn; the engine spends it in the turn's first round, on his unit's
 * first blow (Ancients, A27). */
SPECIALISED unsigned blow_hits(const engine *g, om_dice *d, const fight *f, const bout *b,
                              const blow *k, bool first_of_unit, bool duel)
{
    const om_wm_side *me = declared(g, k->unit);
    /* Bonus dice and re-rolls are staged rules (OM_WM_PLAY_STAGED). */
    const bool staged = (g->in_play & OM_WM_PLAY_STAGED) != 0;
    unsigned dice = blow_dice(g, f, b->round, k, duel) +
                    (staged && first_of_unit ? bonus_dice(g, d, f, b->round, k, duel) : 0u);
    const om_dice_test *test = melee_test(g, f, b->round, k, duel);
    bool reroll = staged && first_of_unit && b->phase_round == 1 &&
                  me->unit.traits.rerolls_a_miss;
    if (staged &&
        (me->magic == OM_WM_MAGIC_CLEAVING || me->magic == OM_WM_MAGIC_DESTRUCTION || reroll))
        return staged_hits(d, test, dice, me->magic, reroll);
    return om_dice_hits(d, test, dice);
}

/* The hits of every blow of a round (Combat > How to Calculate Damage),
 * hits[k] scored by blow k. Blows on one enemy are rolled together, enemies in
 * the order of their first blow, and its maniple dice are rolled once on their
 * total, the hits saved taken from its blows in order. In a duel each blow is
 * its unit's only one, on an enemy no other blow strikes. */
SPECIALISED void round_hits(const engine *g, om_dice *d, const fight *f, const bout *b,
                            const round_plan *rp, unsigned hits[], bool duel)
{
    bool done[OM_WM_CONTACTS_MAX], struck[OM_WM_UNITS_MAX];
    for (unsigned k = 0; k < rp->n && !duel; k++)
        done[k] = false;
    for (unsigned u = 0; u < units_in(g, duel) && !duel; u++)
        struck[u] = false;
    for (unsigned k = 0; k < blows_in(rp, duel); k++) {
        const unsigned t = rp->b[k].enemy;
        unsigned total = 0, saved;
        if (duel && !rp->b[k].struck) {
            hits[k] = 0;
            continue;
        }
        if (!duel && done[k])
            continue;
        /* In a duel the blow on t is blow k alone. */
        const unsigned last = duel ? k : rp->n - 1u;
        for (unsigned j = k; j <= last; j++) {
            if (rp->b[j].enemy != t)
                continue;
            hits[j] = blow_hits(g, d, f, b, &rp->b[j], duel || !struck[rp->b[j].unit], duel);
            if (!duel) {
                struck[rp->b[j].unit] = true;
                done[j] = true;
            }
            total += hits[j];
        }
        saved = (g->in_play & OM_WM_PLAY_MANIPLE) ? maniple_saves(g, d, f, t, total, duel)
                                                   : 0u;
        for (unsigned j = k; j < blows_in(rp, duel) && saved > 0; j++) {
            unsigned off = rp->b[j].enemy != t ? 0u : saved < hits[j] ? saved : hits[j];
            hits[j] -= off;
            saved -= off;
        }
    }
}

/* Bears (1.1): a unit that scores more hits than it suffers in the first
 * round strikes one more Attack per fighting stand, at the enemy of its first
 * blow, before the result is worked out (army list; A-10: unsaved melee hits,
 * uncapped). */
static void extra_strikes(const engine *g, om_dice *d, const fight *f, const bout *b,
                          const round_plan *rp, unsigned hits[], bool duel)
{
    unsigned scored[OM_WM_UNITS_MAX], suffered[OM_WM_UNITS_MAX];
    for (unsigned u = 0; u < units_in(g, duel); u++)
        scored[u] = suffered[u] = 0;
    for (unsigned k = 0; k < blows_in(rp, duel); k++) {
        if (!rp->b[k].struck)
            continue;
        scored[rp->b[k].unit] += hits[k];
        suffered[rp->b[k].enemy] += hits[k];
    }
    for (unsigned u = 0; u < units_in(g, duel); u++) {
        const om_wm_side *me = declared(g, u);
        unsigned k = 0;
        if (!me->unit.traits.extra_strike_round1 || !rp->fought[u] ||
            unit_round(g, b->round, u, duel) != 1 || scored[u] <= suffered[u])
            continue;
        while (rp->b[k].unit != u)
            k++;
        {
            unsigned extra = om_dice_hits(d, melee_test(g, f, b->round, &rp->b[k], duel),
                                          rp->fighting[u]);
            hits[k] += extra - maniple_saves(g, d, f, rp->b[k].enemy, extra, duel);
        }
    }
}

/* What decides supports in a round, unit by unit. */
typedef struct support_count {
    unsigned start[OM_WM_UNITS_MAX]; /* stands at the start of the round */
    unsigned lost[OM_WM_UNITS_MAX];  /* stands lost to the round's hits */
    unsigned spare[OM_WM_UNITS_MAX]; /* stands not fighting and not yet counted supporting */
} support_count;

/* Whether rear supports from `giver` to `taker` count: not for a phalanx or
 * pikemen supported, nor from skirmishers or pikemen (Warmaster Ancients,
 * Combat > Support: Phalanx and Skirmish Supports; Dogs of War list,
 * Pikemen). For a unit's own stands, its side_supports_only trait says it. */
static bool rear_support_counts(const om_wm_traits *giver, const om_wm_traits *taker)
{
    return !(taker->phalanx || taker->pikes || giver->skirmish || giver->pikes);
}

/* Supporting stands of unit t's own, or of the units the engagement does not
 * model (support_units), counted for it (Combat > Supporting Troops; D5):
 * infantry only (checked); none from the unit itself while it is confused
 * (Confusion > Confused Units; not in Ancients); none from behind for a
 * phalanx or skirmish infantry (Ancients). A unit's own supports are stands
 * that are not fighting, so no more than the stands it had at the start of the
 * round less those fighting (stands already shot or cut down support no one);
 * with supports counted after casualties (1.1), own rear stands are lost first
 * when the unit loses stands, since casualties come off the edge of the
 * formation, where they are, and no support counts for a unit destroyed (A33:
 * stands that fall cannot be supported). */
static inline unsigned own_supports(const engine *g, const fight *f, unsigned t, unsigned fighting,
                             support_count *sc)
{
    const om_wm_side *me = declared(g, t);
    const bool after = g->rules->supports_after_casualties;
    unsigned supports = me->supports, spare = sc->start[t] > fighting ? sc->start[t] - fighting
                                                                      : 0u;
    sc->spare[t] = spare;
    if (supports == 0)
        return 0;
    if (me->unit.traits.side_supports_only)
        supports -= me->rear_supports;
    if (me->support_units > 0)
        return after && f->u[t].stands == 0 ? 0u : supports;
    if (f->u[t].confused && !g->rules->confused_units_support)
        return 0;
    if (supports > spare)
        supports = spare;
    sc->spare[t] = spare - supports;
    if (!after)
        return supports;
    {
        unsigned off = supports < sc->lost[t] ? supports : sc->lost[t];
        sc->lost[t] -= off;
        return supports - off;
    }
}

/* Stands of link k counted for the unit it supports (Combat > Supporting
 * Troops; D5): the supporting unit in the fight and not confused (Confusion >
 * Confused Units; confused units still support in Ancients), the supported one
 * fighting this round; rear stands only where they count; no more than the
 * supporter's stands neither fighting nor already counted; with supports after
 * casualties (1.1) less the supporter's stands lost this round, and none for a
 * supported unit destroyed (A33). */
static unsigned link_supports(const engine *g, const fight *f, const round_plan *rp,
                              const om_wm_support *s, support_count *sc)
{
    const unsigned u = s->unit, t = s->supported;
    unsigned n;
    if (!f->u[u].in_combat || sc->start[u] == 0 || !rp->fought[t] ||
        (f->u[u].confused && !g->rules->confused_units_support))
        return 0;
    n = s->stands;
    if (!rear_support_counts(&declared(g, u)->unit.traits, &declared(g, t)->unit.traits))
        n -= s->rear;
    if (n > sc->spare[u])
        n = sc->spare[u];
    sc->spare[u] -= n;
    if (!g->rules->supports_after_casualties)
        return n;
    if (f->u[t].stands == 0)
        return 0;
    {
        unsigned off = n < sc->lost[u] ? n : sc->lost[u];
        sc->lost[u] -= off;
        return n - off;
    }
}

/* The winner of a round (Combat > Combat Results): a side none of whose units
 * engaged lives loses automatically, both such sides draw (A18); otherwise the
 * higher result wins and equal results draw. */
SPECIALISED int round_winner(const engine *g, const fight *f, const unsigned result[2],
                             bool duel)
{
    const bool a = side_lives(g, f, OM_WM_SIDE_A, duel), b = side_lives(g, f, OM_WM_SIDE_B, duel);
    if (!a || !b)
        return a == b ? OM_WM_DRAW : a ? OM_WM_SIDE_A : OM_WM_SIDE_B;
    if (result[0] == result[1])
        return OM_WM_DRAW;
    return result[0] > result[1] ? OM_WM_SIDE_A : OM_WM_SIDE_B;
}

/*
 * The rest of a combat round once the hits are known (Combat > How to
 * Calculate Damage; Combat Results), with no dice: each side's result is the
 * hits its units struck, counted on each enemy unit up to what it could absorb
 * (A21), plus supports and, in the first round, shooting at the charge and
 * legions; casualties are removed. Returns the winner and stores the results.
 */
SPECIALISED int apply_round(const engine *g, fight *f, const bout *b, const round_plan *rp,
                            const unsigned hits[], unsigned result[2], bool duel)
{
    unsigned suffered[OM_WM_UNITS_MAX];
    support_count sc;
    result[0] = result[1] = 0;
    for (unsigned t = 0; t < units_in(g, duel); t++)
        suffered[t] = 0;
    for (unsigned k = 0; k < blows_in(rp, duel); k++) /* a duel's blows not struck hit 0 */
        suffered[duel ? 1u - k : rp->b[k].enemy] += hits[k];
    for (unsigned t = 0; t < units_in(g, duel); t++) {
        om_wm_fighter *x = &f->u[t];
        unsigned capacity = x->stands * hits_now(g, f, t);
        sc.start[t] = x->stands;
        if (!g->options.result_cap_ignores_carried)
            capacity -= x->carried;
        result[1 - army_of(g, t, duel)] += suffered[t] < capacity ? suffered[t] : capacity;
        x->hits_on = om_wm_sum8(x->hits_on, suffered[t]);
    }
    /* Casualties at the end of the round (Combat > How to Calculate Damage >
     * Casualties); the removal order (loser first) does not change the
     * numbers. */
    for (unsigned t = 0; t < units_in(g, duel); t++)
        sc.lost[t] = f->u[t].in_combat ? casualties(g, f, t, suffered[t], duel) : 0u;
    for (unsigned t = 0; t < units_in(g, duel); t++) {
        const om_wm_side *me = declared(g, t);
        unsigned *r = &result[army_of(g, t, duel)];
        if (!f->u[t].in_combat)
            continue;
        if (g->in_play & OM_WM_PLAY_SUPPORTS)
            *r += own_supports(g, f, t, rp->fighting[t], &sc);
        /* Shooting at the charge counts in the first round (Shooting >
         * Shooting at Charging Enemy). */
        if (b->round == rounds_before(g, duel) + 1u)
            *r += f->u[t].shot;
        /* Legion: in the first round every stand fighting to its front with no
         * enemy on its side or rear counts as supported (Special Rules > Legion). */
        if ((g->in_play & OM_WM_PLAY_LEGION) && me->unit.traits.legion &&
            unit_round(g, b->round, t, duel) == 1)
            *r += rp->front[t];
    }
    for (unsigned k = 0; k < links_in(g, duel); k++)
        result[army_of(g, g->support[k].unit, duel)] +=
            link_supports(g, f, rp, &g->support[k], &sc);
    assert(g->n_supports == 0 || (g->in_play & OM_WM_PLAY_SUPPORTS));
    return round_winner(g, f, result, duel);
}

/* The state after a first round with a given pair of hit counts (om_wm_round1). */
typedef struct round1_entry {
    uint8_t stands[2];  /* stands left */
    uint8_t carried[2]; /* hits carried */
    uint8_t result[2];  /* the round's results */
    uint8_t hits[2];    /* hits scored by A and by B */
    uint8_t winner;     /* the round's winner */
} round1_entry;

/*
 * A first round of two units from a known state (the prepared start, or the
 * state a shooting at the charge left) is a function of the two hit counts
 * alone, which are independent binomials: Bin(dice_A, p_A) and Bin(dice_B,
 * p_B). So the round's consequences are looked up, computed when the
 * engagement is prepared by apply_round itself. From the start, with no
 * shooting before contact, the pair is drawn at once from an alias table of
 * their joint law (exact, as the binomial tables are); after the shooting,
 * the two blows are rolled as a rolled round rolls them, A's then B's, with
 * the same dice. The plain baseline keeps rolling every die.
 */
struct om_wm_round1 {
    om_alias *pairs;         /* law of the pair index ha * nb + hb, or NULL: rolled */
    unsigned nb;             /* outcomes of B's hits */
    round1_entry *entry;     /* the round for each pair (NULL: no table for this state) */
    om_wm_outcome *outcome;  /* span round: the whole trial's outcome after each pair,
                                or NULL */
    uint8_t *needs_dice;     /* span round: 1 where what follows the round rolls dice
                                (a retreat into friends, a rampage...): the trial goes
                                on from the entry */
    om_wm_fighter key[2];    /* after a shooting: the state it is the table of */
    const om_dice_test *test[2]; /* after a shooting: each unit's dice test and */
    unsigned dice[2];        /* attack dice in the round */
};

/* The entry of table t for this trial's first round, with its dice. */
static inline unsigned round1_draw(const struct om_wm_round1 *t, om_dice *d)
{
    unsigned ha;
    if (t->pairs != NULL)
        return om_alias_draw_select(t->pairs, &d->rng);
    ha = om_dice_hits(d, t->test[0], t->dice[0]); /* A's blow first, as rolled */
    return ha * t->nb + om_dice_hits(d, t->test[1], t->dice[1]);
}

/* The first-round table of the state the shooting at the charge left in
 * fight f, or NULL: none was made for it. */
static inline const struct om_wm_round1 *after_shot_table(const engine *g, const fight *f)
{
    const unsigned shot = f->u[1 - g->charger].shot;
    const struct om_wm_round1 *t = &g->after_shot[shot];
    if (shot >= g->n_after_shot || t->entry == NULL ||
        memcmp(f->u, t->key, sizeof t->key) != 0)
        return NULL;
    return t;
}

/* Most pairs a first-round table holds (about 1 MB with its alias slots). */
#define OM_WM_ROUND1_MAX_PAIRS 65536u

/* A combat round with its dice, one by one (plan_round, round_hits,
 * apply_round). */
SPECIALISED int round_rolled(const engine *g, om_dice *d, fight *f, const bout *b,
                             unsigned result[2], bool duel)
{
    round_plan rp;
    unsigned hits[OM_WM_CONTACTS_MAX];
    plan_round(g, f, b, &rp, duel);
    round_hits(g, d, f, b, &rp, hits, duel);
    if (g->in_play & OM_WM_PLAY_EXTRA_STRIKE)
        extra_strikes(g, d, f, b, &rp, hits, duel);
    return apply_round(g, f, b, &rp, hits, result, duel);
}

/* round_rolled for any engine and for a duel: out of line, so that the
 * first round drawn from its table, the hot path of two units, carries none
 * of its working storage. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int roll_round_any(const engine *g, om_dice *d, fight *f, const bout *b,
                          unsigned result[2])
{
    return round_rolled(g, d, f, b, result, false);
}

#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int roll_round_duel(const engine *g, om_dice *d, fight *f, const bout *b,
                           unsigned result[2])
{
    return round_rolled(g, d, f, b, result, true);
}

/* One combat round: the first round of two units from a known state drawn
 * from its table (the plain baseline keeps rolling every die), any other
 * rolled. */
SPECIALISED int fight_round(const engine *g, om_dice *d, fight *f, const bout *b,
                            unsigned result[2], bool duel)
{
    if (b->round == 1 && f->round1 != NULL && d->plain == NULL) {
        const struct om_wm_round1 *t = f->round1;
        const round1_entry *en = &t->entry[f->round1_entry >= 0 ? (unsigned)f->round1_entry
                                                                : round1_draw(t, d)];
        for (int s = 0; s < 2; s++) {
            om_wm_fighter *x = &f->u[s];
            x->stands = en->stands[s];
            x->carried = en->carried[s];
            result[s] = en->result[s];
            f->u[1 - s].hits_on = om_wm_sum8(f->u[1 - s].hits_on, en->hits[s]);
        }
        return en->winner;
    }
    return duel ? roll_round_duel(g, d, f, b, result) : roll_round_any(g, d, f, b, result);
}

/* ------------------------------------------------------------------------ */
/* After the round: retreats, fall backs, pursuits, turns.                   */
/* ------------------------------------------------------------------------ */

/*
 * Unit l retreats `cm` (Combat > Retreats) into what lies behind it once the
 * distance left behind runs out: blocked stands are destroyed without reducing
 * the hits carried, a unit leaving the table is destroyed, friends make way at
 * the risk of confusion. Artillery forced to retreat is destroyed.
 */
static void retreat(const engine *g, om_dice *d, fight *f, unsigned l, unsigned cm)
{
    const om_wm_side *me = declared(g, l);
    om_wm_fighter *x = &f->u[l];
    /* Artillery is destroyed if forced to retreat (Combat > Retreats >
     * Retreating artillery), and so is the Screaming Bell (army list). */
    /* A Revolution War Wagon column retreats instead (army list). */
    if ((me->unit.troop == OM_WM_ARTILLERY &&
         !(me->formation == OM_WM_FORMATION_COLUMN && g->rules->wagon_column_retreats)) ||
        me->unit.traits.destroyed_if_retreats) {
        x->stands = 0;
        return;
    }
    if (me->behind != OM_WM_BEHIND_OPEN && cm > x->behind_cm) {
        switch (me->behind) {
        case OM_WM_BEHIND_TABLE_EDGE:
            /* Leaving by a combat retreat destroys (Movement > Units Which
             * Move off the Table); in Ancients a D6 less the stands lost
             * decides, as for any move off (Warmaster Ancients, Movement >
             * Units Moving off Table).
             * A survivor is out of this engagement; its later return (and,
             * on a 1-2, the second roll) is battle-level, not modelled. */
            if (g->rules->retreat_off_table_rolls &&
                (int)om_dice_roll_d6(d) - (int)(om_wm_unit_size(&me->unit) - x->stands) > 0)
                x->left_table = true;
            else
                x->stands = 0;
            break;
        case OM_WM_BEHIND_FRIENDS:
            /* They make way; the retreater tests once (Confusion > When do
             * Units Become Confused? 6, Forcing friends to make way). */
            if (om_dice_roll_d6(d) == 6)
                confuse(g, f, l);
            break;
        default: {
            /* Blocked stands are destroyed, hits kept (Combat > Retreats >
             * Blocked retreats). */
            unsigned blocked = me->behind_stands < x->stands ? me->behind_stands : x->stands;
            x->stands = (uint8_t)(x->stands - blocked);
            if (x->stands == 0)
                x->carried = 0;
            x->behind_cm = 0;
            return;
        }
        }
        x->behind_cm = 0;
        return;
    }
    x->behind_cm = (uint8_t)(cm < x->behind_cm ? x->behind_cm - cm : 0u);
}

/*
 * After a draw both sides fall back (Combat > Combat Results > Hits Equal -
 * Draw!; Fall Backs): each side rolls 3D6 once for all its units falling
 * back, the most each may move; a defended or fortified unit may stand
 * instead, and does. A unit with something right behind it (behind_cm 0)
 * cannot end 1cm clear of the enemy and is confused (Confusion > When do Units
 * Become Confused? 5, Unable to fall back to 1cm from enemy or combat);
 * otherwise it moves the whole roll, or up to what lies behind.
 */
SPECIALISED void fall_back(const engine *g, om_dice *d, fight *f, bool duel)
{
    for (int s = 0; s < 2; s++) {
        unsigned roll = 0;
        bool rolled = false;
        for (unsigned i = 0; i < side_units(g, s, duel); i++) {
            const unsigned u = side_unit(g, s, i, duel);
            const om_wm_side *me = declared(g, u);
            om_wm_fighter *x = &f->u[u];
            unsigned cm;
            if (!stands_in_fight(f, u) || me->unit.traits.cover == OM_WM_COVER_ALWAYS_DEFENDED ||
                (!x->in_open && om_wm_effective_position(me) != OM_WM_OPEN) ||
                (me->unit.traits.immobile && !me->pushed))
                continue;
            if (!rolled)
                roll = om_dice_roll_sum(d, 3, NULL);
            rolled = true;
            cm = roll;
            if (me->behind != OM_WM_BEHIND_OPEN && x->behind_cm < cm)
                cm = x->behind_cm;
            if (cm == 0)
                confuse(g, f, u);
            x->fall_back_cm = (uint8_t)cm;
        }
    }
}

/* May unit w pursue unit l (Combat > Pursuit > Which units can pursue?)?
 * Artillery and fortified units never pursue; infantry never pursues cavalry
 * or chariots (A6 reading A, option). */
static bool may_pursue(const engine *g, const fight *f, unsigned w, unsigned l)
{
    const om_wm_side *me = declared(g, w), *foe = declared(g, l);
    if (me->unit.troop == OM_WM_ARTILLERY || (me->unit.traits.immobile && !me->pushed) ||
        me->no_pursue)
        return false;
    if (om_wm_effective_position(me) == OM_WM_FORTIFIED && !f->u[w].in_open)
        return false;
    if (me->unit.troop == OM_WM_INFANTRY &&
        (foe->unit.troop == OM_WM_CAVALRY || foe->unit.troop == OM_WM_CHARIOT) &&
        !g->options.infantry_pursues_cavalry &&
        me->unit.traits.pursuit == OM_WM_PURSUES_AS_ITS_TYPE)
        return false;
    /* Non-flyers cannot pursue retreating flyers (Which units can pursue? 5),
     * unless they may pursue "any type of retreating enemy" (Rangers,
     * Gorgers). */
    if (foe->unit.traits.flies && !foe->unit.traits.pursued_by_non_flyers &&
        !me->unit.traits.flies && me->unit.traits.pursuit != OM_WM_PURSUES_ANY)
        return false;
    /* Fanatics, Flagellants and the like must pursue whenever allowed
     * (Warmaster Ancients, Special Rules > Fanatics; army lists). */
    if (me->unit.traits.must_pursue || (me->unit.traits.stampedes && f->u[w].confused) ||
        (me->unit.traits.hates_chaos_undead && foe->unit.chaos_or_undead))
        return true;
    switch (me->pursue) {
    case OM_WM_PURSUE_NEVER: return false;
    case OM_WM_PURSUE_WHEN_AHEAD: return f->u[w].stands >= f->u[l].stands;
    case OM_WM_PURSUE_ALWAYS: break;
    }
    return true;
}

/* The bits of winner w's state against loser l that decide whether it may
 * pursue (OM_WM_PURSUE_*, may_pursue). */
static inline unsigned pursue_state(const fight *f, unsigned w, unsigned l)
{
    return (f->u[w].in_open ? OM_WM_PURSUE_IN_OPEN : 0u) |
           (f->u[w].confused ? OM_WM_PURSUE_CONFUSED : 0u) |
           (f->u[w].stands >= f->u[l].stands ? OM_WM_PURSUE_AHEAD : 0u);
}

/* What a shooting cost unit s itself (om_wm_fire_cost), and the Flame
 * Cannon's reduced Attacks from now on. */
static void shooter_pays(const engine *g, om_dice *d, fight *f, unsigned s, const om_wm_fire *r)
{
    unsigned stands = f->u[s].stands;
    bool confused = om_wm_fire_cost(d, &declared(g, s)->unit, r, &stands);
    f->u[s].stands = (uint8_t)stands;
    if (confused)
        confuse(g, f, s);
    f->u[s].reduced = r->reduced;
}

/* A volley of unit `shooter` at unit t, as it shoots now, in its own turn
 * before the charge (Shooting > Driving Back Enemies): the target keeps its
 * stand losses (odd hits go: Shooting at a Glance > Disregard Odd Hits) and
 * may be routed or driven off the table, a big monster may be badly hurt; then
 * what the shooting cost the shooter. The volley's result goes to *v. */
SPECIALISED void volley_before_contact(const engine *g, om_dice *d, fight *f, unsigned shooter,
                                  unsigned t, om_wm_outcome *o, om_wm_volley_result *v,
                                  bool duel)
{
    om_wm_fighter *x = &f->u[t];
    v->fire.reduced = f->u[shooter].reduced;
    om_wm_volley_at(g->rules, &g->tests[pair_of(g, shooter, t, duel)], declared(g, t), d,
                    side_now(g, f, shooter), f->u[shooter].stands, x->stands, v);
    x->hurt = v->hurt;
    x->shot_hits_on = om_wm_sat8(v->hits);
    x->hits_on = om_wm_sat8(v->hits);
    o->drive_back_cm = om_wm_drive_back_recorded(v);
    x->routed = v->routed;
    x->stands = (uint8_t)(x->stands - v->stands_lost);
    if (v->routed || v->off_table)
        x->stands = 0;
    shooter_pays(g, d, f, shooter, &v->fire);
}

/* The first charging (or advancing, Combat > Advance) enemy of unit t among
 * those it touches (its contacts' enemies, then the units whose contacts
 * strike it), or OM_WM_NO_UNIT. */
SPECIALISED unsigned charger_of_unit(const engine *g, unsigned t, bool duel)
{
    for (int pass = 0; pass < 2; pass++)
        for (unsigned k = 0; k < contacts_in(g, duel); k++) {
            const om_wm_contact *c = &g->contact[k].c;
            unsigned e = pass == 0 ? (c->unit == t ? c->enemy : OM_WM_NO_UNIT)
                                   : (c->enemy == t ? c->unit : OM_WM_NO_UNIT);
            if (e != OM_WM_NO_UNIT && (declared(g, e)->charging || declared(g, e)->advancing))
                return e;
        }
    return OM_WM_NO_UNIT;
}

/* What unit s's shooting `r` at the charge of unit c does (stand_and_shoot,
 * once its dice are rolled): the hits count for s in round 1 (after c's
 * Banner of Steadfastness), the shooting costs s what it costs, the 1.1 Warp
 * Lightning Cannon confuses c on a 6, and c takes the hits (unless s evades,
 * keeping them for the drive back). */
SPECIALISED void shot_lands(const engine *g, om_dice *d, fight *f, unsigned s, unsigned c,
                            const om_wm_fire *r, bool duel)
{
    const om_wm_side *me = declared(g, s);
    const unsigned hits = om_wm_steadfast(declared(g, c), f->u[c].stands, r->hits);
    f->u[s].shot = om_wm_sum8(f->u[s].shot, hits);
    shooter_pays(g, d, f, s, r);
    /* The 1.1 Warp Lightning Cannon confuses a unit it hurts on a 6. */
    if (me->unit.traits.shooter == OM_WM_SHOOTER_WARP_LIGHTNING && hits > 0 &&
        om_dice_roll_d6(d) == 6)
        confuse(g, f, c);
    f->u[c].shot_hits_on = om_wm_sum8(f->u[c].shot_hits_on, hits);
    f->u[c].hits_on = om_wm_sum8(f->u[c].hits_on, hits);
    if (!me->evade)
        (void)take_hits(g, f, c, hits, duel);
}

/* Unit s shoots at the charge of unit c (Shooting > Shooting at Charging
 * Enemy): stands lost are removed at once and do not fight; every hit counts
 * for the shooting side in round 1 (W7). This is part of the engagement, so a
 * charger's Banner of Fortitude already gives its +1 Hits here (Magic Items >
 * Magic Standards), unlike a volley of the turn before. Skirmishers who evade
 * keep their hits for the drive back. */
SPECIALISED void stand_and_shoot(const engine *g, om_dice *d, fight *f, unsigned s, unsigned c,
                                 bool duel)
{
    om_wm_fire r;
    r.reduced = f->u[s].reduced;
    om_wm_fire_at(&g->tests[pair_of(g, s, c, duel)], declared(g, c), d, side_now(g, f, s),
                  f->u[s].stands, true, f->u[c].stands, &r);
    shot_lands(g, d, f, s, c, &r, duel);
}

/* Skirmishers s evade the charge of unit c (Warmaster Ancients, Movement >
 * The Evade): the charger touches no enemy, so its move ends and the
 * shooting drives it back, the one case where a charger is: a die a hit, any
 * 6 confuses, more than its pace routs it. The hits also remove stands
 * (Warmaster Ancients, Shooting > Removing Casualties). No round is fought. */
static void evade(const engine *g, om_dice *d, fight *f, unsigned s, unsigned c,
                  om_wm_outcome *o, bool duel)
{
    const om_wm_side *ch = declared(g, c);
    om_wm_fighter *x = &f->u[c];
    unsigned sixes = 0, dice, cm;
    (void)take_hits(g, f, c, f->u[s].shot, duel);
    if (x->stands == 0)
        return;
    dice = om_wm_unit_drive_back_dice(g->rules, ch, f->u[s].shot,
                                      x->stands < om_wm_unit_size(&ch->unit));
    cm = om_dice_roll_sum(d, dice, &sixes);
    if (cm > ch->unit.pace_cm) {
        x->routed = true;
        x->stands = 0;
        o->drive_back_cm = OM_WM_LEFT_TABLE_CM;
    } else {
        o->drive_back_cm = om_wm_sat8(cm);
        if (sixes > 0)
            confuse(g, f, c);
    }
}

/* Shooting at chargers (Shooting > Shooting at Charging Enemy), unit by unit
 * of the side that side c charges or advances upon (Combat > Advance: "in
 * exactly the same way as a unit shooting at chargers"): each at the first
 * charging or advancing enemy it touches. Returns false if a side is shot
 * down, or blown up, before contact: no round is fought. */
SPECIALISED bool shoot_at_charge(const engine *g, om_dice *d, fight *f, int c, bool duel)
{
    const int s = 1 - c;
    for (unsigned i = 0; i < side_units(g, s, duel); i++) {
        const unsigned u = side_unit(g, s, i, duel);
        unsigned ch = declared(g, u)->stand_and_shoot ? charger_of_unit(g, u, duel)
                                                      : OM_WM_NO_UNIT;
        if (ch == OM_WM_NO_UNIT || f->u[u].stands == 0 || f->u[ch].stands == 0)
            continue;
        stand_and_shoot(g, d, f, u, ch, duel);
        if (!side_fights_on(g, f, c, false, duel) || !side_fights_on(g, f, s, false, duel))
            return false;
    }
    return true;
}

/* What happens before contact: volleys of the turns before (one unit a side,
 * checked), the start of the charger's turn (the charged side's Anvils or
 * Shrines were struck in its own turn before), then shooting at the charge.
 * Returns false if no round is fought after it. */
SPECIALISED bool before_contact(const engine *g, om_dice *d, fight *f, int c, om_wm_outcome *o,
                           bool duel)
{
    const int s = 1 - c;
    const unsigned uc = side_unit(g, c, 0, duel), us = side_unit(g, s, 0, duel);
    /* The charger shot at its target in its own previous turn (Shooting >
     * Driving Back Enemies): the target keeps its stand losses (odd hits are
     * discarded) and may have been routed; any confusion ended with the
     * target's own Command phase (Confusion > Confused Units), so the target
     * fights unconfused. */
    if (declared(g, uc)->shoots_first) {
        om_wm_volley_result v;
        volley_before_contact(g, d, f, uc, us, o, &v, duel);
        /* A charger whose machines exploded cannot charge; one confused by
         * its own shooting is still confused in its Command phase
         * (Confusion > Confused Units). */
        if (f->u[us].stands == 0 || f->u[uc].stands == 0 || f->u[uc].confused)
            return false;
    }
    /* A volley in the charged side's own previous turn (Shooting > Driving
     * Back Enemies): a charger confused then stays confused through its own
     * Command phase (Confusion > Confused Units) and cannot be ordered to
     * charge; a rout removes it. Odd hits go (Shooting at a Glance >
     * Disregard Odd Hits). */
    if (declared(g, us)->shoots_first) {
        om_wm_volley_result v;
        /* Confused by its own shooting in its own turn, the shooter stays
         * confused through the charger's turn (Confusion > Confused Units). */
        volley_before_contact(g, d, f, us, uc, o, &v, duel);
        if (f->u[uc].stands == 0 || v.confused || f->u[us].stands == 0) {
            if (v.confused && f->u[uc].stands > 0)
                confuse(g, f, uc);
            return false;
        }
    }
    if (g->in_play & OM_WM_PLAY_TURN_START) {
        first_turn_starts(g, d, f, c, duel);
        if (!side_fights_on(g, f, c, false, duel)) {
            f->faded = true; /* faded away before it could charge: nothing fought */
            return false;
        }
    }
    if (!shoot_at_charge(g, d, f, c, duel))
        return false;
    /* Skirmishers evade (one unit a side, checked). */
    if (declared(g, us)->evade) {
        evade(g, d, f, us, uc, o, duel);
        return false;
    }
    return true;
}

void om_wm_unit_state_begin(const om_wm_ruleset *r, const om_wm_side *me, bool enemy_charges,
                            om_wm_unit_state *u)
{
    u->stands = me->unit.stands;
    u->carried = 0;
    u->behind_cm = me->behind_cm;
    u->pursuit = 0;
    u->shot = 0;
    u->confused = me->confused;
    /* In the open unless defended or fortified, by its position or by its
     * kind (a laager; infantry beside one, in 1.1 only when charged). */
    u->in_open = om_wm_effective_position(me) == OM_WM_OPEN ||
                 (me->beside_laager && me->position == OM_WM_OPEN &&
                  r->laager_shelter_needs_charge && !enemy_charges);
    u->retreated = false;
    u->regains_position = false;
    u->left_table = false;
    u->hurt = false;
    u->fearless = me->aura == OM_WM_AURA_ALWAYS;
    u->reduced = false;
}

void om_wm_unit_state_start(const om_wm_engagement *e, int s, om_wm_unit_state *u)
{
    om_wm_unit_state_begin(e->rules, &e->side[s], e->side[1 - s].charging, u);
}

int om_wm_engine_charger(const om_wm_engine *g)
{
    for (int s = 0; s < 2; s++)
        for (unsigned i = 0; i < g->army_units[s]; i++)
            if (g->unit[g->army_unit[s][i]].side->charging)
                return s;
    return -1;
}

int om_wm_engine_advancer(const om_wm_engine *g)
{
    if (g->charger >= 0)
        return -1;
    for (int s = 0; s < 2; s++)
        for (unsigned i = 0; i < g->army_units[s]; i++)
            if (g->unit[g->army_unit[s][i]].side->advancing)
                return s;
    return -1;
}

uint32_t om_wm_engine_in_play(const om_wm_engine *g)
{
    uint32_t in_play = 0;
    if (g->n_supports > 0)
        in_play |= OM_WM_PLAY_SUPPORTS;
    for (unsigned u = 0; u < g->n_units; u++) {
        const om_wm_side *me = g->unit[u].side;
        const om_wm_traits *t = &me->unit.traits;
        bool maniple_links = false;
        for (unsigned k = 0; k < g->n_supports; k++)
            maniple_links |= g->support[k].supported == u && g->support[k].rear > 0;
        in_play |= t->shieldwall ? OM_WM_PLAY_SHIELDWALL : 0u;
        in_play |= t->maniple && (me->rear_supports > 0 || maniple_links) ? OM_WM_PLAY_MANIPLE
                                                                           : 0u;
        in_play |= t->legion ? OM_WM_PLAY_LEGION : 0u;
        in_play |= t->scythed ? OM_WM_PLAY_SCYTHED : 0u;
        in_play |= me->shoots_first || me->stand_and_shoot ? OM_WM_PLAY_SHOOTING : 0u;
        in_play |= me->magic == OM_WM_MAGIC_CLEAVING || me->magic == OM_WM_MAGIC_DESTRUCTION ||
                           t->rerolls_a_miss || t->bonus_dice != OM_WM_BONUS_DICE_NONE
                       ? OM_WM_PLAY_STAGED : 0u;
        in_play |= t->extra_strike_round1 ? OM_WM_PLAY_EXTRA_STRIKE : 0u;
        in_play |= me->aura == OM_WM_AURA_ROLL ? OM_WM_PLAY_AURA_ROLL : 0u;
        in_play |= me->evade ? OM_WM_PLAY_EVADE : 0u;
        in_play |= me->beside_laager ? OM_WM_PLAY_BESIDE_LAAGER : 0u;
        in_play |= t->rampage ? OM_WM_PLAY_RAMPAGE : 0u;
        in_play |= t->hurt != OM_WM_NEVER_HURT ? OM_WM_PLAY_HURT : 0u;
        in_play |= me->supports > 0 ? OM_WM_PLAY_SUPPORTS : 0u;
        in_play |= me->aura == OM_WM_AURA_ROLL || t->daemonic_instability
                       ? OM_WM_PLAY_TURN_START : 0u;
    }
    return in_play;
}

/* The outcome of a charge (or advance) of side c that came to no blows
 * (comes_to_blows): a side shot away before contact loses, both a draw; a
 * charger that faded away or skirmishers that evaded leave no contest. The
 * shooting side's hits are its result. */
SPECIALISED void no_blows(const engine *g, const fight *f, int c, om_wm_outcome *o, bool duel)
{
    const int s = 1 - c;
    unsigned shot = 0;
    bool evaded = false;
    const int winner = f->faded ? OM_WM_NO_CONTEST
                       : !side_fights_on(g, f, c, false, duel) &&
                               !side_fights_on(g, f, s, false, duel) ? OM_WM_DRAW
                       : !side_fights_on(g, f, c, false, duel) ? s
                       : !side_fights_on(g, f, s, false, duel) ? c
                                                               : OM_WM_NO_CONTEST;
    for (unsigned i = 0; i < side_units(g, s, duel); i++) {
        shot += f->u[side_unit(g, s, i, duel)].shot;
        evaded |= declared(g, side_unit(g, s, i, duel))->evade;
    }
    o->winner = o->round1_winner = (uint8_t)winner;
    o->result[s] = evaded ? 0u : om_wm_sat8(shot);
}

/* Whether the fight comes to blows: a charge may be stopped by the shooting
 * before contact, and either side may fade away at the start of its turn.
 * If not, the outcome's winner and result are recorded and false returned:
 * a side shot away before contact loses (Combat > Combat Results); a charger
 * confused by shooting first does not charge (no contest); skirmishers that
 * evaded fought no combat (no result), though a charger their shooting
 * destroyed still loses, as one shot down does. */
SPECIALISED bool comes_to_blows(const engine *g, om_dice *d, fight *f, int charger,
                                om_wm_outcome *o, bool duel)
{
    if (charger >= 0) {
        if (!(g->in_play & (OM_WM_PLAY_SHOOTING | OM_WM_PLAY_TURN_START | OM_WM_PLAY_EVADE)) ||
            before_contact(g, d, f, charger, o, duel))
            return true;
        no_blows(g, f, charger, o, duel);
        return false;
    }
    /* No charge: turn 1 is side A's, and it may fade away at its start. */
    if (g->in_play & OM_WM_PLAY_TURN_START) {
        first_turn_starts(g, d, f, OM_WM_SIDE_A, duel);
        if (!side_fights_on(g, f, OM_WM_SIDE_A, false, duel)) {
            o->winner = o->round1_winner = OM_WM_SIDE_B; /* the enemy is left alone */
            return false;
        }
    }
    /* An advance is a new charge without its bonus: the unit advanced upon
     * shoots at it as at a charger (Combat > Advance). Winners of both sides
     * may have advanced into the engagement: the units advanced upon by the
     * advancing side shoot first, then those of that side advanced upon. */
    if (g->advancer >= 0 && (g->in_play & OM_WM_PLAY_SHOOTING) &&
        (!shoot_at_charge(g, d, f, g->advancer, duel) ||
         !shoot_at_charge(g, d, f, 1 - g->advancer, duel))) {
        no_blows(g, f, g->advancer, o, duel);
        return false;
    }
    return true;
}

/* After the call's first round: its winner and results go to the outcome;
 * infantry beside a laager was defended in the first round only (a position
 * of its own it keeps). */
SPECIALISED void first_round_fought(const engine *g, fight *f, const bout *b,
                                    const unsigned result[2], om_wm_outcome *o, bool duel)
{
    if (g->in_play & OM_WM_PLAY_BESIDE_LAAGER)
        for (unsigned u = 0; u < units_in(g, duel); u++)
            f->u[u].in_open |= declared(g, u)->beside_laager &&
                               declared(g, u)->position == OM_WM_OPEN;
    o->round1_winner = (uint8_t)b->winner;
    o->result[0] = om_wm_sat8(result[0]);
    o->result[1] = om_wm_sat8(result[1]);
}

/* Scythed chariots fight one round and are then removed as destroyed; every
 * unit of the other side that retreats from them after suffering a hit is
 * confused (Warmaster Ancients, Special Rules > Scythed Chariots; Combat >
 * Retreats). */
static void scythed_chariots_strike(const engine *g, fight *f, bout *b, bool duel)
{
    for (unsigned s = 0; s < units_in(g, duel); s++) {
        const int side = army_of(g, s, duel);
        if (!declared(g, s)->unit.traits.scythed || !stands_in_fight(f, s))
            continue;
        for (unsigned i = 0; b->winner == side && i < side_units(g, 1 - side, duel); i++) {
            unsigned e = side_unit(g, 1 - side, i, duel);
            if (stands_in_fight(f, e) && f->u[e].hits_on > 0)
                confuse(g, f, e);
        }
        b->scythed_gone |= 1u << s;
    }
}

/* Whether unit u fought this round: a contact joins it to an enemy (the
 * declared ones in the call's first round, after it its foe). */
static bool fought(const engine *g, const fight *f, const bout *b, unsigned u)
{
    return b->declared ? g->unit[u].touches : f->u[u].foe != OM_WM_NO_UNIT;
}

/* Units dividing the retreat of losing side l (Combat > Retreats; D6/A10):
 * every unit of the side in the engagement this round, supporting units and
 * units destroyed in it included, with the units the engagement does not
 * model; in 1.1 only the units engaged, whose stands touch an enemy. */
SPECIALISED unsigned losing_units(const engine *g, const fight *f, const bout *b, int l,
                                  bool duel)
{
    const bool engaged_only = g->rules->retreat_divisor_engaged_only;
    unsigned n = 0;
    assert(!duel || g->divisor[l] > 0);
    if (duel || g->divisor[l] > 0)
        return g->divisor[l];
    for (unsigned i = 0; i < side_units(g, l, duel); i++) {
        unsigned u = side_unit(g, l, i, duel);
        if (!f->u[u].in_combat || (engaged_only && !fought(g, f, b, u)))
            continue;
        n += 1u + (engaged_only ? 0u : declared(g, u)->support_units);
    }
    return n > 0 ? n : 1u;
}

/* The losing side l retreats by the difference of the round's results divided
 * among its units (Combat > Retreats): each unit that lives retreats that far,
 * in index order; a laagered War Wagon holds instead, keeping its position
 * (army list). Returns the distance. */
SPECIALISED unsigned losers_retreat(const engine *g, om_dice *d, fight *f, const bout *b,
                                    const unsigned result[2], int l, om_wm_outcome *o,
                                    bool duel)
{
    const unsigned cm = om_wm_retreat_cm(result[1 - l], result[l],
                                         losing_units(g, f, b, l, duel));
    bool any = false;
    for (unsigned i = 0; i < side_units(g, l, duel); i++) {
        const unsigned u = side_unit(g, l, i, duel);
        if (!stands_in_fight(f, u) || declared(g, u)->formation == OM_WM_FORMATION_LAAGER)
            continue;
        f->u[u].retreated_cm = om_wm_sum8(f->u[u].retreated_cm, cm);
        retreat(g, d, f, u, cm);
        f->u[u].retreated = true; /* after retreat(), which may have removed it */
        f->retreats_marked = true;
        any = true;
    }
    if (b->round == rounds_before(g, duel) + 1u)
        o->retreat_cm = any ? om_wm_sat8(cm) : 0u;
    return cm;
}

/* Whether units u and e face each other this round: a contact joins them
 * (the declared ones in the call's first round, after it the pursuits). */
static bool touch(const engine *g, const fight *f, const bout *b, unsigned u, unsigned e,
                  bool duel)
{
    if (!b->declared)
        return f->u[u].foe == e || f->u[e].foe == u;
    for (unsigned k = 0; k < contacts_in(g, duel); k++) {
        const om_wm_contact *c = &g->contact[k].c;
        if ((c->unit == u && c->enemy == e) || (c->unit == e && c->enemy == u))
            return true;
    }
    return false;
}

/* Retreating elephants rampage through the enemies they touch: a 6 confuses
 * one, or destroys it if it was confused already; results stand (Warmaster
 * Ancients, Special Rules > Elephants). Returns whether side w, the round's
 * winner, has no unit left that lives: the engagement ends, won by the
 * elephants' side. */
static bool elephants_rampage(const engine *g, om_dice *d, fight *f, const bout *b, int l,
                              bool duel)
{
    const int w = 1 - l;
    bool killed = false;
    for (unsigned i = 0; i < side_units(g, l, duel); i++) {
        const unsigned u = side_unit(g, l, i, duel);
        if (!declared(g, u)->unit.traits.rampage || !stands_in_fight(f, u) ||
            f->u[u].left_table || declared(g, u)->formation == OM_WM_FORMATION_LAAGER)
            continue;
        for (unsigned j = 0; j < side_units(g, w, duel); j++) {
            const unsigned e = side_unit(g, w, j, duel);
            if (!stands_in_fight(f, e) || !touch(g, f, b, u, e, duel) || om_dice_roll_d6(d) != 6)
                continue;
            if (f->u[e].confused) {
                f->u[e].stands = 0;
                f->u[e].carried = 0;
                killed = true;
            } else {
                confuse(g, f, e);
            }
        }
    }
    return killed && !side_lives(g, f, w, duel);
}

/* A unit that retreated counts as in the open for the rest of the turn's
 * pursuit rounds (Combat > Defended & Fortified Troops); for good, unless
 * option A8 gives its position back at the turn's end. */
static void position_lost(const engine *g, fight *f, unsigned l)
{
    const om_wm_side *me = declared(g, l);
    om_wm_fighter *x = &f->u[l];
    x->regains_position = g->options.defended_after_retreat && me->position != OM_WM_OPEN &&
                          (!x->in_open || x->regains_position);
    x->in_open = true;
}

/* The winner w pursues the loser l, which retreated `cm`: pursuers count as in
 * the open (Combat > Defended & Fortified Troops; Warmaster Ancients, Combat >
 * Open, Defended & Fortified) and fight with the pursuit bonus (Combat >
 * Attack Modifiers); fighting on against a laager is a pursuit without
 * bonus. */
static void winner_pursues(const engine *g, fight *f, unsigned w, unsigned l, unsigned cm)
{
    om_wm_fighter *x = &f->u[w];
    x->in_open = true;
    x->regains_position = false;
    x->pursuit = declared(g, l)->formation == OM_WM_FORMATION_LAAGER
                     ? 0u : om_wm_sat8(om_wm_pursuit_bonus(cm));
    x->foe = (uint8_t)l;
    x->pursued++;
    /* The pursuer follows its enemy's retreat into contact (Combat > Pursuit >
     * Moving pursuers): the table moves it by this distance (turn.c). */
    x->followed_cm = om_wm_sum8(x->followed_cm, cm);
    x->followed = (uint8_t)l;
}

/* Whether unit l of the losing side can be pursued: it is in the fight, lives
 * and did not leave the table. */
static bool pursuable(const fight *f, unsigned l)
{
    return stands_in_fight(f, l) && !f->u[l].left_table;
}

/* The enemy unit w pursues, if any (Combat > Pursuit): its declared target if
 * that enemy can be pursued, else the first enemy it fought this round that
 * can; and it must be allowed to pursue it and want to. */
SPECIALISED unsigned pursuit_target(const engine *g, const fight *f, const bout *b,
                                    unsigned w, bool duel)
{
    unsigned t = duel ? OM_WM_NO_UNIT : g->unit[w].pursues;
    if (t == OM_WM_NO_UNIT || !pursuable(f, t)) {
        t = OM_WM_NO_UNIT;
        if (!b->declared) {
            if (f->u[w].foe != OM_WM_NO_UNIT && pursuable(f, f->u[w].foe))
                t = f->u[w].foe;
        } else {
            /* A duel's contact k is unit k's, on unit 1 - k. */
            for (unsigned k = 0; k < contacts_in(g, duel) && t == OM_WM_NO_UNIT; k++) {
                const unsigned u = duel ? k : g->contact[k].c.unit;
                const unsigned e = duel ? 1u - k : g->contact[k].c.enemy;
                if (u == w && pursuable(f, e))
                    t = e;
            }
        }
    }
    if (t == OM_WM_NO_UNIT)
        return t;
    if (duel) /* the table is may_pursue's (test_multicombat, as above) */
        return (g->later->pursues[w] >> pursue_state(f, w, t)) & 1u ? t : OM_WM_NO_UNIT;
    return may_pursue(g, f, w, t) ? t : OM_WM_NO_UNIT;
}

/*
 * The winners of side w pursue the losers of side l, which retreated `cm`
 * (Combat > Aftermath; Pursuit), unit by unit in index order: each unit that
 * fought and may pursue follows its target; units that only supported follow
 * the friends they support in a supporting pursuit; the others stand and leave
 * the combat. Each pursued unit fights its first pursuer next; losers not
 * pursued drop out unless they support a pursued friend (Pursuit and Combat
 * Dropouts). Returns whether any unit pursued.
 */
SPECIALISED bool winners_pursue(const engine *g, fight *f, const bout *b, int w, unsigned cm,
                                bool duel)
{
    const int l = 1 - w;
    unsigned first[OM_WM_UNITS_MAX];
    bool any = false;
    for (unsigned u = 0; u < units_in(g, duel); u++)
        first[u] = OM_WM_NO_UNIT;
    for (unsigned i = 0; i < side_units(g, w, duel); i++) {
        const unsigned u = side_unit(g, w, i, duel);
        unsigned t = stands_in_fight(f, u) && fought(g, f, b, u)
                         ? pursuit_target(g, f, b, u, duel) : OM_WM_NO_UNIT;
        if (t == OM_WM_NO_UNIT) {
            f->u[u].pursuit = 0;
            f->u[u].foe = OM_WM_NO_UNIT;
            continue;
        }
        winner_pursues(g, f, u, t, cm);
        if (first[t] == OM_WM_NO_UNIT)
            first[t] = u;
        any = true;
    }
    if (!any)
        return false;
    for (unsigned i = 0; i < side_units(g, l, duel); i++) {
        const unsigned u = side_unit(g, l, i, duel);
        f->u[u].pursuit = 0;
        f->u[u].foe = (uint8_t)first[u];
    }
    /* Who is in the next round: units facing an enemy, and those supporting
     * one that does. */
    for (unsigned u = 0; u < units_in(g, duel); u++) {
        bool in = f->u[u].foe != OM_WM_NO_UNIT;
        for (unsigned k = 0; k < links_in(g, duel) && !in; k++)
            in = g->support[k].unit == u && f->u[g->support[k].supported].foe != OM_WM_NO_UNIT;
        f->u[u].in_combat = f->u[u].in_combat && in && f->u[u].stands > 0;
    }
    return true;
}

/* Won the last round of a phase and pursued: the combat is unresolved and goes
 * on in the next turn, the opponent's (Combat > Pursuit; Unresolved Combat),
 * unless the turn limit is reached (no contest) or the side whose turn starts
 * fades away (the enemy wins). Confusion ends at the end of the unit's own
 * Command phase (Confusion > Confused Units); in the 1.1 lists a big monster
 * still engaged may be badly hurt at the end of the Combat phase (army lists);
 * a position regained under option A8 returns. Returns whether the engagement
 * goes on. */
SPECIALISED bool next_turn(const engine *g, om_dice *d, fight *f, bout *b, bool duel)
{
    const unsigned max_turns = g->options.max_turns ? g->options.max_turns
                                                    : OM_WM_DEFAULT_MAX_TURNS;
    int active;
    if (f->turn >= max_turns) {
        b->winner = OM_WM_NO_CONTEST;
        return false;
    }
    f->turn++;
    b->phase_round = 0;
    if (g->rules->badly_hurt_when_engaged)
        for (unsigned u = 0; u < units_in(g, duel); u++)
            check_hurt(g, f, u);
    /* Turn 1 is the charger's (side A's without a charge); turns alternate. */
    active = (b->charger == 1) == ((f->turn & 1u) == 1u) ? 1 : 0;
    for (unsigned i = 0; i < side_units(g, active, duel); i++)
        f->u[side_unit(g, active, i, duel)].confused = false;
    if (g->in_play & OM_WM_PLAY_TURN_START) {
        side_turn_starts(g, d, f, active, duel);
        if (!side_fights_on(g, f, active, false, duel)) {
            b->winner = 1 - active; /* faded away: the enemy is left alone */
            return false;
        }
    }
    for (unsigned u = 0; u < units_in(g, duel); u++) {
        if (f->u[u].regains_position)
            f->u[u].in_open = false;
        f->u[u].regains_position = false;
    }
    return true;
}

/*
 * One combat round and what follows it (Combat > How to Calculate Damage to
 * Unresolved Combat): a draw makes both sides fall back and ends the combat;
 * otherwise the losers retreat (or hold, or rampage), and the winners pursue
 * if they may and want to, into a next round or, after the second round of a
 * phase, a next turn (span end) or an unresolved combat (span phase). Only the
 * longer spans go on past the first round. Returns whether another round is
 * fought; b->winner is then the engagement's winner.
 */
SPECIALISED bool round_and_aftermath(const engine *g, om_dice *d, fight *f, bout *b,
                                     om_wm_outcome *o, bool duel)
{
    const bool whole = g->span != OM_WM_SPAN_ROUND;
    unsigned result[2], cm;
    int l;
    b->round++;
    b->phase_round++;
    /* Units destroyed before the round (shot at the charge) take no part in
     * it: they neither divide a retreat nor keep their side alive. One unit
     * a side never fights a round with a unit destroyed. */
    if (units_in(g, duel) > 2)
        for (unsigned u = 0; u < units_in(g, duel); u++)
            f->u[u].in_combat = f->u[u].in_combat && f->u[u].stands > 0;
    b->winner = fight_round(g, d, f, b, result, duel);
    if (b->round == rounds_before(g, duel) + 1u)
        first_round_fought(g, f, b, result, o, duel);
    /* Retreats of the round before are over (warband: -1 in the round
     * after retreating only). */
    if (f->retreats_marked) {
        for (unsigned u = 0; u < units_in(g, duel); u++)
            f->u[u].retreated = false;
        f->retreats_marked = false;
    }
    if (g->in_play & OM_WM_PLAY_SCYTHED)
        scythed_chariots_strike(g, f, b, duel);
    if (b->winner == OM_WM_DRAW) {
        /* Both fall back and the combat ends (Combat > Combat Results > Hits
         * Equal - Draw!). */
        if (whole)
            fall_back(g, d, f, duel);
        return false;
    }
    l = 1 - b->winner;
    if (!side_fights_on(g, f, l, false, duel))
        return false;
    cm = losers_retreat(g, d, f, b, result, l, o, duel);
    if ((g->in_play & OM_WM_PLAY_RAMPAGE) && elephants_rampage(g, d, f, b, l, duel)) {
        b->winner = l;
        return false;
    }
    if (!side_fights_on(g, f, l, true, duel) || !whole || b->scythed_gone)
        return false;
    for (unsigned i = 0; i < side_units(g, l, duel); i++) {
        const unsigned u = side_unit(g, l, i, duel);
        if (pursuable(f, u) && f->u[u].retreated)
            position_lost(g, f, u);
    }
    if (!winners_pursue(g, f, b, b->winner, cm, duel))
        return false;
    b->declared = false;
    if (b->phase_round < OM_WM_PHASE_ROUNDS)
        return true;
    if (g->span == OM_WM_SPAN_PHASE) {
        b->unresolved = true;
        return false;
    }
    return next_turn(g, d, f, b, duel);
}

/* The engagement is over, or stops unresolved: scythed chariots that fought
 * are removed; at the end of the last Combat phase a big monster with enough
 * hits is badly hurt, in Revolution only once no longer engaged (army
 * lists); the winner goes to the outcome (none while unresolved). */
SPECIALISED void engagement_ends(const engine *g, fight *f, bout *b, om_wm_outcome *o,
                                 bool duel)
{
    if (b->unresolved)
        b->winner = OM_WM_NO_CONTEST;
    if (b->scythed_gone)
        for (unsigned u = 0; u < units_in(g, duel); u++)
            if (b->scythed_gone & (1u << u))
                f->u[u].stands = 0;
    if (g->span != OM_WM_SPAN_ROUND &&
        (b->winner != OM_WM_NO_CONTEST || g->rules->badly_hurt_when_engaged))
        for (unsigned u = 0; u < units_in(g, duel); u++)
            check_hurt(g, f, u);
    o->winner = (uint8_t)b->winner;
}

/* The engagement (om_wm_combat), for any engine or for a duel. */
SPECIALISED void combat(const engine *g, om_dice *d, fight *f, om_wm_outcome *o,
                        bool *unresolved, bool duel)
{
    bout b = {.charger = g->charger, .round = rounds_before(g, duel),
              .winner = OM_WM_NO_CONTEST, .declared = true};
    if (comes_to_blows(g, d, f, b.charger, o, duel)) {
        /* The state the shooting at the charge left may have a table. */
        if (duel && g->n_after_shot > 0 && f->fresh && d->plain == NULL)
            f->round1 = after_shot_table(g, f);
        o->charged = b.charger >= 0;
        while (round_and_aftermath(g, d, f, &b, o, duel))
            ;
        engagement_ends(g, f, &b, o, duel);
    }
    o->rounds = (uint8_t)(b.round - rounds_before(g, duel));
    o->turns = (uint8_t)f->turn;
    *unresolved = b.unresolved;
}

void om_wm_combat(const om_wm_engine *g, om_dice *d, om_wm_fight *f, om_wm_outcome *o,
                  bool *unresolved)
{
    combat(g, d, f, o, unresolved, false);
}

/* The engagement of a duel's engine (om_wm_duel.g): om_wm_combat with the
 * duel's shape known when compiled. */
static void combat_duel(const engine *g, om_dice *d, fight *f, om_wm_outcome *o,
                        bool *unresolved)
{
    combat(g, d, f, o, unresolved, true);
}

/* ------------------------------------------------------------------------ */
/* Two units, one a side: om_wm_prepared's duel.                             */
/* ------------------------------------------------------------------------ */

/* Fill t->entry (allocated here) with the first round from state *start,
 * planned as rp, for every pair of hit counts of dice[2] attack dice, by
 * apply_round itself; t->nb set. Returns OM_ENOMEM, or OM_OK. */
static om_status round1_entries(struct om_wm_round1 *t, const engine *g, const fight *start,
                                const round_plan *rp, const unsigned dice[2])
{
    const bout b = {.charger = g->charger, .round = 1, .phase_round = 1,
                    .winner = OM_WM_NO_CONTEST, .declared = true};
    t->nb = dice[1] + 1u;
    t->entry = malloc((dice[0] + 1u) * t->nb * sizeof *t->entry);
    if (t->entry == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory preparing the first round");
    for (unsigned ha = 0; ha <= dice[0]; ha++) {
        for (unsigned hb = 0; hb <= dice[1]; hb++) {
            unsigned hits[2] = {ha, hb}, result[2];
            om_wm_fighter u[2] = {start->u[0], start->u[1]};
            fight f = *start;
            round1_entry *en = &t->entry[ha * t->nb + hb];
            int winner;
            f.u = u;
            winner = apply_round(g, &f, &b, rp, hits, result, true);
            for (int s = 0; s < 2; s++) {
                en->stands[s] = (uint8_t)u[s].stands;
                en->carried[s] = (uint8_t)u[s].carried;
                en->result[s] = om_wm_sat8(result[s]);
                en->hits[s] = (uint8_t)hits[s];
            }
            en->winner = (uint8_t)winner;
        }
    }
    return OM_OK;
}

/* The first round's plan from state *start, with each unit's attack dice
 * and dice test in it, as a rolled round works them out; false when a table
 * cannot stand for it: a unit does not strike, or there are too many pairs
 * of hit counts. */
static bool round1_plan(const engine *g, const fight *start, round_plan *rp, unsigned dice[2],
                        const om_dice_test *test[2])
{
    const bout b = {.charger = g->charger, .round = 1, .phase_round = 1,
                    .winner = OM_WM_NO_CONTEST, .declared = true};
    plan_round(g, start, &b, rp, true);
    if (!rp->b[0].struck || !rp->b[1].struck)
        return false; /* a side has no stands left to strike with */
    for (int s = 0; s < 2; s++) {
        dice[s] = blow_dice(g, start, 1, &rp->b[s], true);
        test[s] = melee_test(g, start, 1, &rp->b[s], true);
    }
    return (dice[0] + 1u) * (dice[1] + 1u) <= OM_WM_ROUND1_MAX_PAIRS;
}

/* What keeps any first round from being a function of its two hit counts:
 * maniple dice, staged re-rolls and bonus dice, extra strikes. */
#define ROUND1_ROLLED (OM_WM_PLAY_MANIPLE | OM_WM_PLAY_STAGED | OM_WM_PLAY_EXTRA_STRIKE)

/* Build p->round1 when the first round from the start is a function of the
 * two hit counts: no shooting before contact and nothing of ROUND1_ROLLED.
 * Returns OM_OK also when no table applies (p->round1 stays NULL). */
static om_status round1_prepare(om_wm_prepared *p, const engine *g, const fight *start)
{
    const om_dice_test *test[2];
    unsigned dice[2], n;
    double *pmf;
    struct om_wm_round1 *t;
    round_plan rp;
    om_status st;

    if ((g->in_play & (ROUND1_ROLLED | OM_WM_PLAY_SHOOTING | OM_WM_PLAY_TURN_START |
                       OM_WM_PLAY_EVADE)) ||
        !round1_plan(g, start, &rp, dice, test))
        return OM_OK;
    n = (dice[0] + 1u) * (dice[1] + 1u);
    t = calloc(1, sizeof *t);
    pmf = malloc(n * sizeof *pmf);
    if (t == NULL || pmf == NULL || round1_entries(t, g, start, &rp, dice) != OM_OK) {
        free(pmf);
        if (t != NULL)
            free(t->entry);
        free(t);
        return OM_ERROR(OM_ENOMEM, "out of memory preparing the first round");
    }
    for (unsigned ha = 0; ha <= dice[0]; ha++)
        for (unsigned hb = 0; hb <= dice[1]; hb++)
            pmf[ha * t->nb + hb] = om_dice_binomial_pmf(ha, test[0]->pass->p, dice[0]) *
                                   om_dice_binomial_pmf(hb, test[1]->pass->p, dice[1]);
    st = om_alias_alloc(&t->pairs, pmf, n);
    free(pmf);
    if (st != OM_OK) {
        free(t->entry);
        free(t);
        return st;
    }
    p->round1 = t;
    return OM_OK;
}

/* Whether dice source d has rolled since its generator was `before`. */
static bool rolled_since(const om_dice *d, const om_rng *before)
{
    return memcmp(&d->rng, before, sizeof *before) != 0;
}

/* Shooting at the charge leaves more states than the hits it scores (a
 * cannon blowing up, a Flame Cannon's Attacks reduced...); the tables are
 * made for these hit counts, each the state a shooting with no other
 * consequence leaves. */
#define OM_WM_AFTER_SHOT_TABLES 16u

/*
 * The first-round tables of a duel whose only dice before contact are the
 * charged unit's shooting at the charge (stand and shoot): for each number
 * of hits it can score, the state its landing leaves, when landing rolls no
 * dice and a round follows, and that round's table (round1_entries). A trial
 * whose state after the shooting is byte for byte one of them draws its
 * first round from it (with the dice a rolled round rolls); any other rolls
 * it. Returns OM_OK also when no table applies.
 */
static om_status after_shot_prepare(om_wm_duel *dl)
{
    engine *g = &dl->g;
    const int c = g->charger, s = 1 - c;
    struct om_wm_round1 *ts;
    if (c < 0 || !(g->in_play & OM_WM_PLAY_SHOOTING) ||
        (g->in_play & (ROUND1_ROLLED | OM_WM_PLAY_TURN_START | OM_WM_PLAY_EVADE |
                       OM_WM_PLAY_AURA_ROLL)) ||
        declared(g, 0)->shoots_first || declared(g, 1)->shoots_first ||
        !declared(g, (unsigned)s)->stand_and_shoot)
        return OM_OK;
    ts = calloc(OM_WM_AFTER_SHOT_TABLES, sizeof *ts);
    if (ts == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory preparing the first round");
    dl->after_shot = ts;
    g->after_shot = ts;
    g->n_after_shot = OM_WM_AFTER_SHOT_TABLES;
    for (unsigned h = 0; h < OM_WM_AFTER_SHOT_TABLES; h++) {
        om_wm_fighter u[2] = {dl->start[0], dl->start[1]};
        fight f = dl->start_fight;
        om_wm_fire r = {.hits = h, .reduced = u[s].reduced};
        om_dice probe = {.plain = NULL};
        om_rng before;
        round_plan rp;
        struct om_wm_round1 *t;
        f.u = u;
        om_rng_seed_block(&probe.rng, 0, 0);
        before = probe.rng;
        shot_lands(g, &probe, &f, (unsigned)s, (unsigned)c, &r, true);
        if (rolled_since(&probe, &before) || u[s].shot >= OM_WM_AFTER_SHOT_TABLES ||
            ts[u[s].shot].entry != NULL || !side_fights_on(g, &f, c, false, true) ||
            !side_fights_on(g, &f, s, false, true))
            continue; /* rolls dice, a state seen already, or no round */
        t = &ts[u[s].shot];
        if (!round1_plan(g, &f, &rp, t->dice, t->test))
            continue;
        t->key[0] = u[0];
        t->key[1] = u[1];
        if (round1_entries(t, g, &f, &rp, t->dice) != OM_OK)
            return OM_ENOMEM;
    }
    return OM_OK;
}

void om_wm_classes(const om_wm_prepared *p, const om_wm_outcome **outcomes, size_t *n)
{
    *n = p->duel != NULL ? p->duel->n_classes : 0u;
    *outcomes = *n > 0 ? p->round1->outcome : NULL;
}

void om_wm_combat_release(om_wm_prepared *p)
{
    if (p->duel != NULL && p->duel->after_shot != NULL) {
        for (unsigned h = 0; h < OM_WM_AFTER_SHOT_TABLES; h++)
            free(p->duel->after_shot[h].entry);
        free(p->duel->after_shot);
    }
    free(p->duel);
    p->duel = NULL;
    if (p->round1 == NULL)
        return;
    om_alias_free(p->round1->pairs);
    free(p->round1->entry);
    free(p->round1->outcome);
    free(p->round1->needs_dice);
    free(p->round1);
    p->round1 = NULL;
}

/* The engine of p's two units: unit 0 is side A's, unit 1 side B's; A's
 * stands fight B (contact 0) and B's fight A (contact 1). */
static void duel_engine(om_wm_prepared *p, om_wm_duel *dl)
{
    om_wm_engine *g = &dl->g;
    memset(dl, 0, sizeof *dl);
    g->rules = p->e.rules;
    g->options = p->e.options;
    g->span = p->e.kind == OM_WM_KIND_ENGAGEMENT ? OM_WM_SPAN_END : OM_WM_SPAN_ROUND;
    g->n_units = 2;
    g->n_contacts = 2;
    g->unit = dl->unit;
    g->contact = dl->contact;
    g->side[0] = &p->e.side[0];
    g->side[1] = &p->e.side[1];
    g->tests = p->tests;
    for (int s = 0; s < 2; s++)
        memset(g->pair[s], 0xff, 2 * sizeof g->pair[s][0]); /* OM_WM_NO_PAIR */
    for (int s = 0; s < 2; s++) {
        om_wm_unit_prep *up = &dl->unit[s];
        om_wm_contact_prep *cp = &dl->contact[s];
        g->army_units[s] = 1;
        g->army_unit[s][0] = (uint8_t)s;
        g->pair[s][1 - s] = (uint16_t)s;
        up->side = &p->e.side[s];
        up->hurt = &p->hurt[s];
        up->lost_at = p->lost_at[s];
        up->left_at = p->left_at[s];
        up->army = (uint8_t)s;
        up->combat_hits = p->combat_hits[s];
        up->hurt_hits = p->hurt_hits[s];
        up->pursues = OM_WM_NO_UNIT;
        up->last_contact = (uint16_t)s;
        up->touches = true;
        cp->c.unit = (uint8_t)s;
        cp->c.enemy = (uint8_t)(1 - s);
        cp->c.stands = p->e.side[s].fighting;
        cp->c.flanked = p->e.side[s].flanked;
        cp->c.side_strikers = p->e.side[s].side_strikers;
        cp->tests = &p->tests[s];
        cp->round1_dice = p->round1_dice[s];
    }
    g->charger = om_wm_engine_charger(g);
    g->advancer = om_wm_engine_advancer(g);
    g->in_play = om_wm_engine_in_play(g);
    /* Aura rolls before the charge can change the first round's dice. */
    if (g->in_play & OM_WM_PLAY_AURA_ROLL)
        dl->contact[0].round1_dice = dl->contact[1].round1_dice = NULL;
    /* One unit a side never leaves the combat before it loses: its side's
     * retreat divisor is fixed. */
    for (int s = 0; s < 2; s++)
        g->divisor[s] = 1u + (g->rules->retreat_divisor_engaged_only
                                  ? 0u : p->e.side[s].support_units);
}

void om_wm_duel_record(const om_wm_prepared *p, const om_wm_fighter u[2], om_wm_outcome *o)
{
    /* Read once: the outcome's bytes may alias anything. */
    const uint32_t play = p->duel->g.in_play;
    const bool whole = p->duel->g.span != OM_WM_SPAN_ROUND;
    for (int s = 0; s < 2; s++) {
        const om_wm_fighter *x = &u[s];
        const bool alive = x->stands > 0;
        o->hits_on[s] = x->hits_on;
        o->retreated_cm[s] = x->retreated_cm;
        o->stands_lost[s] = (uint8_t)(x->first_stands > x->stands ? x->first_stands - x->stands
                                                                  : 0);
        o->destroyed[s] = !alive;
        o->confused[s] = x->confused && alive && !p->e.side[s].unit.traits.never_confused;
        if (play & (OM_WM_PLAY_SHOOTING | OM_WM_PLAY_EVADE)) {
            o->shot_hits_on[s] = x->shot_hits_on;
            o->routed[s] = x->routed;
        }
        if (whole)
            o->fall_back_cm[s] = x->fall_back_cm;
        if (play & OM_WM_PLAY_HURT)
            o->hurt[s] = x->hurt && alive;
    }
}

/* The trial of p's two units from fighters u (the prepared start when
 * `fresh`; its first round then comes from its table, its entry already
 * drawn if entry >= 0), written to *out; the fighters are carried on. */
static void duel_fight_from(const om_wm_prepared *p, om_dice *d, om_wm_fighter u[2], bool fresh,
                            int entry, om_wm_outcome *out)
{
    om_wm_fight f = p->duel->start_fight;
    bool unresolved;
    f.u = u;
    f.round1_entry = entry;
    if (!fresh) {
        f.fresh = false;
        f.round1 = NULL;
    }
    memset(out, 0, sizeof *out);
    if (p->e.kind == OM_WM_KIND_VOLLEY) {
        om_wm_volley(p, d, &u[0], &u[1], out);
        return;
    }
    combat_duel(&p->duel->g, d, &f, out, &unresolved);
    om_wm_duel_record(p, u, out);
}

/* The rest of a trial whose first round is table entry `entry` (-1: not
 * drawn from the table): its class, its outcome looked up (written when
 * class_outcome) when nothing after the round rolls dice, else fought on
 * with d and written, of no class. */
static inline unsigned duel_after_entry(const om_wm_prepared *p, om_dice *d, int entry,
                                        om_wm_outcome *out, bool class_outcome)
{
    const om_wm_duel *dl = p->duel;
    const struct om_wm_round1 *t = dl->start_fight.round1;
    if (entry >= 0 && !t->needs_dice[entry]) {
        if (class_outcome)
            *out = t->outcome[entry];
        return (unsigned)entry < dl->n_classes ? (unsigned)entry : OM_WM_NO_CLASS;
    }
    {
        om_wm_fighter u[2] = {dl->start[0], dl->start[1]};
        duel_fight_from(p, d, u, true, entry, out);
    }
    return OM_WM_NO_CLASS;
}

/* Whether a trial's first round is drawn from its table, what follows it
 * looked up when it rolls no dice (round1_outcomes). */
static inline bool duel_from_table(const om_wm_prepared *p, const om_dice *d)
{
    const struct om_wm_round1 *t = p->duel->start_fight.round1;
    return t != NULL && t->outcome != NULL && d->plain == NULL;
}

inline unsigned om_wm_duel_resolve(const om_wm_prepared *p, om_dice *d, om_wm_outcome *out,
                                   bool class_outcome)
{
    int entry = -1;
    /* The first round drawn from its table: a trial of a class unless what
     * follows it rolls dice. */
    if (duel_from_table(p, d))
        entry = (int)om_alias_draw_select(p->duel->start_fight.round1->pairs, &d->rng);
    return duel_after_entry(p, d, entry, out, class_outcome);
}

/* The class of a trial whose first round is table entry `entry` and rolls no
 * dice after it (duel_after_entry), its outcome written when class_outcome. */
static inline uint16_t duel_class(const om_wm_duel *dl, unsigned entry, om_wm_outcome *out,
                                  bool class_outcome)
{
    if (class_outcome)
        *out = dl->start_fight.round1->outcome[entry];
    return (uint16_t)(entry < dl->n_classes ? entry : OM_WM_NO_CLASS);
}

/*
 * Trials from the first round's table, d's generator held in a local copy
 * while trials roll nothing after their round (outcomes and classes written
 * through pointers that could alias d would otherwise make each step wait
 * for the last one's store; a call would spill it): a trial that rolls dice
 * after its round goes on with d, outside that loop.
 */
static void duel_classes_from_table(const om_wm_prepared *p, om_dice *d, om_wm_outcome *out,
                                    uint16_t *cls, bool class_outcomes, size_t n)
{
    const om_wm_duel *dl = p->duel;
    const struct om_wm_round1 *t = dl->start_fight.round1;
    size_t i = 0;
    while (i < n) {
        om_rng r = d->rng;
        unsigned e = 0;
        for (; i < n; i++) {
            e = om_alias_draw_select(t->pairs, &r);
            if (t->needs_dice[e])
                break;
            cls[i] = duel_class(dl, e, &out[i], class_outcomes);
        }
        d->rng = r;
        if (i < n) {
            cls[i] = (uint16_t)duel_after_entry(p, d, (int)e, &out[i], class_outcomes);
            i++;
        }
    }
}

void om_wm_resolve_classes(const om_wm_prepared *p, om_dice *d, om_wm_outcome *out,
                           uint16_t *cls, bool class_outcomes, size_t n)
{
    if (p->duel != NULL && duel_from_table(p, d)) {
        duel_classes_from_table(p, d, out, cls, class_outcomes, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        cls[i] = (uint16_t)om_wm_duel_resolve(p, d, &out[i], class_outcomes);
}

/*
 * The first `both` trials of each of two streams from the first round's
 * table, trial i of each in turn: the two generators' steps, each a chain of
 * multiplications, overlap (held in local copies, as in
 * duel_classes_from_table). Inlined with class_outcomes a constant, so that
 * the loop that writes no outcome keeps both generators in registers.
 */
static inline void duel_classes2_from_table(const om_wm_prepared *p, om_dice *const d[2],
                                            om_wm_outcome *const out[2],
                                            uint16_t *const cls[2], bool class_outcomes,
                                            size_t both)
{
    const om_wm_duel *dl = p->duel;
    const struct om_wm_round1 *t = dl->start_fight.round1;
    size_t i = 0;
    while (i < both) {
        om_rng r0 = d[0]->rng, r1 = d[1]->rng;
        unsigned e0 = 0, e1 = 0;
        for (; i < both; i++) {
            e0 = om_alias_draw_select(t->pairs, &r0);
            e1 = om_alias_draw_select(t->pairs, &r1);
            if (t->needs_dice[e0] | t->needs_dice[e1])
                break;
            cls[0][i] = duel_class(dl, e0, &out[0][i], class_outcomes);
            cls[1][i] = duel_class(dl, e1, &out[1][i], class_outcomes);
        }
        d[0]->rng = r0;
        d[1]->rng = r1;
        if (i < both) {
            /* Dice rolled after the round: each stream goes on with its own
             * dice, in its own order. */
            cls[0][i] = (uint16_t)duel_after_entry(p, d[0], (int)e0, &out[0][i], class_outcomes);
            cls[1][i] = (uint16_t)duel_after_entry(p, d[1], (int)e1, &out[1][i], class_outcomes);
            i++;
        }
    }
}

void om_wm_resolve_classes2(const om_wm_prepared *p, om_dice *const d[2],
                            om_wm_outcome *const out[2], uint16_t *const cls[2],
                            bool class_outcomes, const size_t n[2])
{
    const size_t both = n[0] < n[1] ? n[0] : n[1];
    size_t i = 0;
    if (p->duel != NULL && duel_from_table(p, d[0]) && duel_from_table(p, d[1])) {
        if (class_outcomes)
            duel_classes2_from_table(p, d, out, cls, true, both);
        else
            duel_classes2_from_table(p, d, out, cls, false, both);
        i = both;
    }
    for (unsigned j = 0; j < 2; j++)
        om_wm_resolve_classes(p, d[j], out[j] + i, cls[j] + i, class_outcomes, n[j] - i);
}

void om_wm_duel_fight(const om_wm_prepared *p, om_dice *d, om_wm_fighter u[2],
                      om_wm_outcome *out)
{
    duel_fight_from(p, d, u, false, -1, out);
}

/*
 * The whole trial after each first round of the table, for an engagement
 * of the first round only (span round): what follows the round (the loser's
 * retreat, blocked or off the table, artillery destroyed, scythed chariots
 * removed) is worked out once per pair of hit counts by the engine itself,
 * from the entry, and the outcome kept; where it rolls dice (a retreat into
 * friends or off an Ancients table, a rampage), the entry is marked and
 * trials go on from it with their own dice. Either way a trial consumes the
 * same dice and ends in the same outcome as it would fighting on.
 */
static om_status round1_outcomes(om_wm_prepared *p, const om_wm_duel *dl)
{
    struct om_wm_round1 *t = p->round1;
    const unsigned n = t->pairs->n;
    t->outcome = malloc(n * sizeof *t->outcome);
    t->needs_dice = malloc(n);
    if (t->outcome == NULL || t->needs_dice == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory preparing the first round");
    for (unsigned i = 0; i < n; i++) {
        om_wm_fighter u[2] = {dl->start[0], dl->start[1]};
        om_wm_fight f = dl->start_fight;
        om_dice d = {.plain = NULL};
        om_rng before;
        bool unresolved;
        om_rng_seed_block(&d.rng, 0, 0);
        before = d.rng;
        f.u = u;
        f.round1_entry = (int)i;
        memset(&t->outcome[i], 0, sizeof t->outcome[i]);
        combat_duel(&dl->g, &d, &f, &t->outcome[i], &unresolved);
        om_wm_duel_record(p, u, &t->outcome[i]);
        t->needs_dice[i] = rolled_since(&d, &before);
    }
    return OM_OK;
}

/*
 * The tables of the duel's rounds after the first (om_wm_later), by the
 * functions a trial calls: each unit's attack dice for every state bit,
 * pursuit bonus and stand count, as compute_dice works them out for its
 * whole unit against the other, frontally; and whether each unit may pursue
 * the other for every bit of OM_WM_PURSUE_*, as may_pursue decides.
 */
static void later_prepare(om_wm_duel *dl)
{
    const engine *g = &dl->g;
    om_wm_later *t = &dl->later;
    for (unsigned u = 0; u < 2; u++) {
        const om_wm_side *me = declared(g, u);
        /* The bits that can change this unit's dice: the others give the
         * dice of the state without them, copied (a table costs about a
         * hundred instructions an entry to work out). */
        const unsigned can_change =
            OM_WM_LATER_CONFUSED |
            ((g->in_play & OM_WM_PLAY_HURT) ? OM_WM_LATER_HURT : 0u) |
            (me->unit.traits.warband ? OM_WM_LATER_RETREATED : 0u) |
            (declared(g, 1u - u)->unit.traits.terror ? OM_WM_LATER_FEARLESS : 0u) |
            (me->power != OM_WM_POWER_NONE ? OM_WM_LATER_EMPOWERED : 0u);
        for (unsigned bits = 0; bits < OM_WM_LATER_STATES; bits++) {
            if (bits & ~can_change) {
                memcpy(t->dice[u][bits], t->dice[u][bits & can_change], sizeof t->dice[u][bits]);
                continue;
            }
            for (unsigned pursuit = 0; pursuit < OM_WM_LATER_PURSUITS; pursuit++) {
                for (unsigned stands = 0; stands < OM_WM_STAND_COUNTS; stands++) {
                    om_wm_fighter x[2] = {dl->start[0], dl->start[1]};
                    fight f = dl->start_fight;
                    blow k = {.unit = u, .enemy = 1u - u, .struck = true};
                    unsigned dice;
                    f.u = x;
                    x[u].hurt = bits & OM_WM_LATER_HURT;
                    x[u].confused = bits & OM_WM_LATER_CONFUSED;
                    x[u].retreated = bits & OM_WM_LATER_RETREATED;
                    x[u].fearless = bits & OM_WM_LATER_FEARLESS;
                    /* A turn of the power, or one that is not. */
                    f.turn = (bits & OM_WM_LATER_EMPOWERED) ? me->power_turn
                                                            : me->power_turn == 1 ? 2u : 1u;
                    x[u].pursuit = (uint8_t)pursuit;
                    x[u].stands = (uint8_t)stands;
                    k.fighting = fighting_now(me, stands);
                    dice = compute_dice(g, &f, 2, &k, true);
                    t->dice[u][bits][pursuit][stands] = (uint8_t)(dice > 255u ? 255u : dice);
                }
            }
        }
        t->pursues[u] = 0;
        for (unsigned bits = 0; bits < 8; bits++) {
            om_wm_fighter x[2] = {dl->start[0], dl->start[1]};
            fight f = dl->start_fight;
            f.u = x;
            x[u].in_open = bits & OM_WM_PURSUE_IN_OPEN;
            x[u].confused = bits & OM_WM_PURSUE_CONFUSED;
            /* At least as many stands as the loser, or fewer. */
            x[u].stands = 2;
            x[1 - u].stands = (bits & OM_WM_PURSUE_AHEAD) ? 2 : 3;
            assert(pursue_state(&f, u, 1 - u) == bits);
            if (may_pursue(g, &f, u, 1 - u))
                t->pursues[u] |= (uint8_t)(1u << bits);
        }
    }
}

om_status om_wm_combat_prepare(om_wm_prepared *p)
{
    om_wm_duel *dl = malloc(sizeof *dl);
    fight *f;
    bout b = {.round = 1, .declared = true};
    if (dl == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory preparing the engagement");
    p->duel = dl;
    duel_engine(p, dl);
    /* Every trial starts from this state: copying it is cheaper than
     * working it out again (positions, auras). */
    for (int s = 0; s < 2; s++) {
        om_wm_unit_state u;
        om_wm_unit_state_start(&p->e, s, &u);
        om_wm_fighter_set(&dl->start[s], &u);
    }
    f = &dl->start_fight;
    f->u = dl->start;
    f->faded = false;
    f->fresh = true;
    f->round1 = NULL; /* until the table is made (round1_prepare) */
    f->round1_entry = -1;
    f->retreats_marked = false;
    f->turn = 1;
    _Static_assert(sizeof p->round1_dice[0] > 12, "one entry per possible stand count");
    for (int s = 0; s < 2; s++) {
        /* Up to full strength: Daemonic Instability can give stands back. */
        unsigned most = p->e.side[s].unit.stands;
        if (om_wm_unit_size(&p->e.side[s].unit) > most)
            most = om_wm_unit_size(&p->e.side[s].unit);
        memset(p->round1_dice[s], 0, sizeof p->round1_dice[s]);
        for (unsigned k = 0; k <= most; k++) {
            round_plan rp;
            unsigned dice = 0;
            dl->start[s].stands = (uint8_t)k;
            plan_round(&dl->g, f, &b, &rp, true);
            for (unsigned j = 0; j < rp.n; j++)
                if (rp.b[j].struck && rp.b[j].unit == (unsigned)s)
                    dice = compute_dice(&dl->g, f, 1, &rp.b[j], true);
            p->round1_dice[s][k] = (uint8_t)(dice > 255u ? 255u : dice);
        }
        dl->start[s].stands = p->e.side[s].unit.stands;
    }
    later_prepare(dl);
    dl->g.later = &dl->later;
    {
        /* A volley fights no round: no tables. */
        om_status st = p->e.kind == OM_WM_KIND_VOLLEY ? OM_OK : round1_prepare(p, &dl->g, f);
        f->round1 = p->round1;
        if (st == OM_OK && p->round1 != NULL && dl->g.span == OM_WM_SPAN_ROUND) {
            st = round1_outcomes(p, dl);
            /* Each entry is a class of trials, unless there are too many to
             * count a block by them (OM_WM_CLASSES_MAX). */
            if (st == OM_OK && p->round1->pairs->n <= OM_WM_CLASSES_MAX)
                dl->n_classes = p->round1->pairs->n;
        }
        if (st == OM_OK && p->round1 == NULL && p->e.kind != OM_WM_KIND_VOLLEY)
            st = after_shot_prepare(dl);
        f->u = NULL;
        return st;
    }
}
