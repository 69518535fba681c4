/*
 * combat.c: the Combat phase of the Warmaster family (digest warmaster.md
 * section 6): attack dice with their modifiers, hits against armour, the combat
 * result with supports and the cap on counted hits, casualties, the winner, the
 * loser's retreat (blocked, off the table, into friends), the winner's pursuit
 * with its bonus, further rounds, and unresolved combats carried into the next
 * turn, until the engagement ends. Shooting before contact comes first: a volley
 * in the charged side's previous turn (5.5) and shooting at chargers (5.7).
 *
 * The hot path has no division: stand losses come from per-side tables built
 * when the engagement is prepared (lost_at, left_at).
 */
#include <stdlib.h>

#include "wm.h"
#include "wm_int.h"

static unsigned floor0(int v) { return v > 0 ? (unsigned)v : 0u; }

/*
 * The attack dice of `me` against `foe` (6.4 and the Ancients special rules):
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
     * or Undead, whoever charged; a Tomb King's or Oathstone's
     * +1 in the Combat phase it is used. */
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
        strikers = me->side_strikers < c->flanked ? me->side_strikers : c->flanked;
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
        /* The Oathstone's Hero gains +1 too. */
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
            /* Otherwise (fewer stands than bonuses) the last stand takes it too. */
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
                   .confused = me->confused};
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

/* Stands of `me` fighting now: those declared, as far as it has stands left;
 * all of them if all its stands were declared fighting (a stand regained by
 * Daemonic Instability is placed beside the others). */
static unsigned fighting_now(const om_wm_side *me, unsigned stands)
{
    if (me->fighting >= me->unit.stands)
        return stands;
    return me->fighting < stands ? me->fighting : stands;
}

/* The fight state of one trial (wm_int.h). */
typedef om_wm_fight fight;

/* Side s as it fights now: its values halved once it is badly hurt. */
static const om_wm_side *side_now(const om_wm_prepared *p, const fight *f, int s)
{
    return f->hurt[s] ? &p->hurt[s] : &p->e.side[s];
}

/* Side s's Hits per stand in combat now. */
static unsigned hits_now(const om_wm_prepared *p, const fight *f, int s)
{
    return f->hurt[s] ? p->hurt_hits[s] : p->combat_hits[s];
}

/* A big monster with enough hits carried at the end of a phase becomes badly
 * hurt for the rest of the battle; the hits go (army lists). */
static void check_hurt(const om_wm_prepared *p, fight *f, int s)
{
    unsigned from = om_wm_hurt_from(&p->e.side[s].unit);
    if (from > 0 && !f->hurt[s] && f->stands[s] > 0 && f->carried[s] >= from) {
        f->hurt[s] = true;
        f->carried[s] = 0;
    }
}

/* The start of side s's own turn, for what happens then: a roll for an Anvil
 * or Shrine struck in its Shooting phase, immune to terror on a 4+ until its
 * next turn; Daemonic Instability once it has lost a stand, a D6 (-1 at
 * one stand left, +1 with a Shugenja near): 0-1 loses a stand, 6 or more
 * regains one; the confusion of 2-3 and
 * the recovery of 4-5 end or change nothing before the unit's Command phase
 * ends, when it recovers anyway (7.2). */
static void own_turn_starts(const om_wm_prepared *p, om_dice *d, fight *f, int s)
{
    const om_wm_side *me = &p->e.side[s];
    if (me->aura == OM_WM_AURA_ROLL)
        f->fearless[s] = om_dice_roll_d6(d) >= 4;
    if (me->unit.traits.daemonic_instability && f->stands[s] > 0 &&
        f->stands[s] < om_wm_unit_size(&me->unit)) {
        int roll = (int)om_dice_roll_d6(d) - (f->stands[s] == 1 ? 1 : 0) + (me->shugenja ? 1 : 0);
        if (roll <= 1) {
            f->stands[s]--;
            if (f->stands[s] == 0)
                f->carried[s] = 0;
        } else if (roll >= 6) {
            f->stands[s]++;
        }
    }
}

/* The start of the engagement's first turn, side `first`'s: its own turn
 * starts; the other side's Anvil or Shrine was struck in that side's turn
 * before and its roll stands for this one. */
static void first_turn_starts(const om_wm_prepared *p, om_dice *d, fight *f, int first)
{
    if (p->e.side[1 - first].aura == OM_WM_AURA_ROLL)
        f->fearless[1 - first] = om_dice_roll_d6(d) >= 4;
    own_turn_starts(p, d, f, first);
}

/* Make side s confused, unless nothing confuses it (army lists). */
static void confuse(const om_wm_prepared *p, fight *f, int s)
{
    if (!p->e.side[s].unit.traits.never_confused)
        f->confused[s] = true;
}

/* Record `hits` on side t: remove stands through the prepared tables (5.4, 6.5). */
static unsigned take_hits(const om_wm_prepared *p, fight *f, int t, unsigned hits)
{
    unsigned h = f->carried[t] + hits, lost;
    if (h > 255u)
        h = 255u; /* beyond any unit's capacity (12 stands x 12 Hits = 144) */
    lost = f->hurt[t] ? h / p->hurt_hits[t] : p->lost_at[t][h];
    if (lost >= f->stands[t]) {
        lost = f->stands[t];
        f->stands[t] = 0;
        f->carried[t] = 0;
        return lost;
    }
    f->stands[t] -= lost;
    f->carried[t] = f->hurt[t] ? h % p->hurt_hits[t] : p->left_at[t][h];
    return lost;
}

/* Supporting stands counted for side s (6.7, D5): infantry only (checked); none
 * from the unit itself while it is confused (7.2; not in Ancients); none from
 * behind for a phalanx or skirmish infantry (Ancients). A unit's own supports
 * are stands that are not fighting, so no more than the stands it had at the
 * start of the round less those fighting (stands already shot or cut down
 * support no one); with supports counted after casualties (WM11), own rear
 * stands are lost first when the unit loses stands, since casualties come off
 * the edge of the formation, where they are. */
static unsigned supports_counted(const om_wm_prepared *p, const fight *f, int s, unsigned start,
                                 unsigned fighting, unsigned lost)
{
    const om_wm_side *me = &p->e.side[s];
    unsigned supports = me->supports, spare;
    if (supports == 0)
        return 0;
    if (me->unit.traits.side_supports_only)
        supports -= me->rear_supports;
    if (me->support_units > 0)
        return supports;
    if (f->confused[s] && !p->e.rules->confused_units_support)
        return 0;
    spare = start > fighting ? start - fighting : 0u;
    if (supports > spare)
        supports = spare;
    if (!p->e.rules->supports_after_casualties)
        return supports;
    return supports > lost ? supports - lost : 0u;
}

static unsigned compute_dice(const om_wm_prepared *p, const fight *f, int s, unsigned round);

/* The attack dice of side s in `round` of the engagement, from the fight state
 * (6.4). Round 1 of a trial from the prepared start is looked up in the table
 * om_wm_combat_prepare made with this same function, since before round 1
 * only the stands left can vary. */
static unsigned round_dice(const om_wm_prepared *p, const fight *f, int s, unsigned round)
{
    if (round == 1 && f->fresh && !f->hurt[s] && !(p->in_play & OM_WM_PLAY_AURA_ROLL) &&
        f->confused[s] == p->e.side[s].confused)
        return p->round1_dice[s][f->stands[s]];
    return compute_dice(p, f, s, round);
}

/* The attack dice of side s in `round`, computed from the fight state. */
static unsigned compute_dice(const om_wm_prepared *p, const fight *f, int s, unsigned round)
{
    const om_wm_engagement *e = &p->e;
    const om_wm_side *me = side_now(p, f, s);
    om_wm_round_case c;
    c.fighting = fighting_now(me, f->stands[s]);
    /* Flank and rear contacts are those of the charge: after a retreat the
     * pursuers are placed to the retreaters' front (6.11), so later rounds are
     * fought frontally. */
    c.flanked = round == 1 ? (me->flanked < c.fighting ? me->flanked : c.fighting) : 0u;
    c.pursuit = f->pursuit[s];
    c.round = round;
    c.confused = f->confused[s];
    c.retreated_last = f->retreated[s];
    c.last_ditch_per_stand = e->options.last_ditch_per_stand;
    c.empowered = me->power != OM_WM_POWER_NONE && f->turn == me->power_turn;
    c.fearless = f->fearless[s] || (c.empowered && me->power == OM_WM_POWER_OATHSTONE);
    return om_wm_attack_dice_case(e->rules, me, &e->side[1 - s], &c);
}

/* Which prepared dice test side s uses against side t this round: as declared,
 * in the open once t has lost its position, or against t's shieldwall, which
 * saves one better in the first round when charged (Warmaster Ancients,
 * Special Rules > Shieldwall). */
static const om_dice_test *melee_test(const om_wm_prepared *p, const fight *f, int s,
                                      unsigned round)
{
    const om_wm_side *t = &p->e.side[1 - s];
    if ((p->in_play & OM_WM_PLAY_SHIELDWALL) && round == 1 &&
        t->unit.traits.shieldwall && p->e.side[s].charging &&
        t->position != OM_WM_FORTIFIED && !t->dense_terrain)
        return &p->melee[s][2];
    /* A Banner of Shielding works until its unit loses a stand (10.3);
     * Leonidas improves his unit's armour in every round (Ancients). */
    bool better_save = (t->magic == OM_WM_MAGIC_SHIELDING &&
                        om_wm_magic_intact(t, f->stands[1 - s])) ||
                       t->unit.traits.save_delta_melee < 0;
    /* Pikemen count as defended in the first round against charging cavalry
     * or chariots (army list). */
    if (om_wm_pikes_hold(t, &p->e.side[s], round))
        return &p->melee[s][5 + better_save];
    if (better_save)
        return &p->melee[s][3 + f->in_open[1 - s]];
    return &p->melee[s][f->in_open[1 - s]];
}

/* Maniple (Warmaster Ancients, Special Rules > Maniple): after armour, one
 * D6 per stand supporting side t from the rear out of another maniple unit;
 * each 6 saves one hit. */
static unsigned maniple_saves(const om_wm_prepared *p, om_dice *d, int t, unsigned hits)
{
    const om_wm_side *me = &p->e.side[t];
    unsigned saved = 0;
    if (!(p->in_play & OM_WM_PLAY_MANIPLE) || !me->unit.traits.maniple ||
        me->support_units == 0 || hits == 0)
        return hits;
    for (unsigned i = 0; i < me->rear_supports && saved < hits; i++)
        saved += om_dice_roll_d6(d) == 6;
    return hits - saved;
}

/* The hits each side scores in a round (6.5): its attack dice through the
 * dice test against the enemy, less maniple saves. hits[s] are scored by s. */
/* Random extra attack dice of war machines (army lists): the Pump Wagon adds
 * D6 in a round where it charges or pursues and D3 otherwise; the Doom Wheel
 * adds D6 when it charges an enemy in the open (round 1). */
static unsigned bonus_dice(const om_wm_prepared *p, om_dice *d, const fight *f, int s,
                           unsigned round)
{
    const om_wm_side *me = &p->e.side[s];
    bool charge = round == 1 && me->charging;
    if (me->unit.traits.bonus_dice == OM_WM_BONUS_D6_OR_D3) {
        unsigned die = om_dice_roll_d6(d);
        return charge || f->pursuit[s] > 0 ? die : (die + 1u) / 2u; /* D3 (0.1) */
    }
    if (me->unit.traits.bonus_dice == OM_WM_BONUS_D6_CHARGING && charge &&
        om_wm_effective_position(&p->e.side[1 - s]) == OM_WM_OPEN)
        return om_dice_roll_d6(d);
    return 0;
}

/*
 * Hits of a side whose magic weapon re-rolls dice (10.3), rolled stage by
 * stage: to hit, re-rolling one miss (Sword of Cleaving); then the saves, the
 * enemy re-rolling one successful save (Sword of Destruction).
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

static void round_hits(const om_wm_prepared *p, om_dice *d, const fight *f, unsigned round,
                       bool first_of_turn, unsigned hits[2])
{
    for (int s = 0; s < 2; s++) {
        unsigned dice = round_dice(p, f, s, round) + bonus_dice(p, d, f, s, round);
        om_wm_magic magic = p->e.side[s].magic;
        const om_dice_test *test = melee_test(p, f, s, round);
        /* Ashurbanipal: once a turn, one missed attack die re-rolled; the
         * engine spends it in the turn's first round (Ancients, A27). */
        bool reroll = first_of_turn && p->e.side[s].unit.traits.rerolls_a_miss;
        unsigned h = (magic == OM_WM_MAGIC_CLEAVING || magic == OM_WM_MAGIC_DESTRUCTION || reroll)
                         ? staged_hits(d, test, dice, magic, reroll)
                         : om_dice_hits(d, test, dice);
        hits[s] = maniple_saves(p, d, 1 - s, h);
    }
    /* Bears (1.1): a side that scores more hits than it suffers in the first
     * round strikes one more Attack per fighting stand before the result is
     * worked out (army list; A-10: unsaved melee hits, uncapped). */
    if (round == 1 && (p->in_play & OM_WM_PLAY_EXTRA_STRIKE)) {
        unsigned before[2] = {hits[0], hits[1]};
        for (int s = 0; s < 2; s++) {
            const om_wm_side *me = &p->e.side[s];
            if (me->unit.traits.extra_strike_round1 && before[s] > before[1 - s])
                hits[s] += maniple_saves(p, d, 1 - s,
                                         om_dice_hits(d, melee_test(p, f, s, 1),
                                                      fighting_now(me, f->stands[s])));
        }
    }
}

/*
 * The rest of a combat round once the hits are known (6.5-6.6), with no dice:
 * hits are counted up to what the target could absorb (A21), supports added,
 * casualties removed. Returns the winner and stores the results.
 */
static int apply_round(const om_wm_prepared *p, fight *f, unsigned round, const unsigned hits[2],
                       unsigned result[2], unsigned hits_on[2])
{
    const om_wm_engagement *e = &p->e;
    unsigned counted[2], lost[2], front[2], start[2], fighting[2];
    for (int s = 0; s < 2; s++) {
        int t = 1 - s;
        unsigned capacity = f->stands[t] * hits_now(p, f, t);
        start[s] = f->stands[s];
        fighting[s] = fighting_now(&e->side[s], f->stands[s]);
        front[s] = fighting[s] > e->side[s].flanked ? fighting[s] - e->side[s].flanked : 0u;
        if (!e->options.result_cap_ignores_carried)
            capacity -= f->carried[t];
        counted[s] = hits[s] < capacity ? hits[s] : capacity;
        hits_on[t] += hits[s];
    }
    /* Casualties at the end of the round (6.5 step 5); the removal order
     * (loser first) does not change the numbers of a two-unit engagement. */
    for (int t = 0; t < 2; t++) {
        lost[t] = take_hits(p, f, t, hits[1 - t]);
        /* Trolls regenerate one outstanding hit after whole stands are removed;
         * it still counted in the result (army list). */
        if (e->side[t].unit.traits.regeneration == OM_WM_REGENERATES_CARRIED &&
            f->carried[t] > 0)
            f->carried[t]--;
        /* The War Hydra regenerates one hit it suffered this round, if alive. */
        if (e->side[t].unit.traits.regeneration == OM_WM_REGENERATES_SUFFERED &&
            hits[1 - t] > 0 &&
            f->carried[t] > 0)
            f->carried[t]--;
    }
    for (int s = 0; s < 2; s++) {
        result[s] = counted[s] + supports_counted(p, f, s, start[s], fighting[s], lost[s]);
        if (round == 1) {
            const om_wm_side *me = &e->side[s];
            result[s] += f->shot[s];
            /* Legion: in the first round every stand fighting to its front with no
             * enemy on its side or rear counts as supported (Special Rules > Legion). */
            if ((p->in_play & OM_WM_PLAY_LEGION) && me->unit.traits.legion)
                result[s] += front[s];
        }
    }
    /* A side wiped out loses automatically; both wiped out is a draw (6.6, A18). */
    if (f->stands[0] == 0 || f->stands[1] == 0)
        return f->stands[0] == f->stands[1] ? OM_WM_DRAW
               : f->stands[0] == 0           ? OM_WM_SIDE_B
                                             : OM_WM_SIDE_A;
    if (result[0] == result[1])
        return OM_WM_DRAW;
    return result[0] > result[1] ? OM_WM_SIDE_A : OM_WM_SIDE_B;
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
 * A first round without shooting before contact is a function of the two hit
 * counts alone, which are independent binomials: Bin(dice_A, p_A) and
 * Bin(dice_B, p_B). So the pair is drawn at once from an alias table of their
 * joint law (exact, as the binomial tables are), and the round's consequences
 * are looked up, computed when the engagement is prepared by apply_round
 * itself. The plain baseline keeps rolling every die.
 */
struct om_wm_round1 {
    om_alias *pairs;     /* law of the pair index ha * nb + hb */
    unsigned nb;         /* outcomes of B's hits */
    round1_entry *entry; /* the round for each pair */
};

/* Most pairs a first-round table holds (about 1 MB with its alias slots). */
#define OM_WM_ROUND1_MAX_PAIRS 65536u

/* One combat round with its dice (round_hits, then apply_round). */
static int fight_round(const om_wm_prepared *p, om_dice *d, fight *f, unsigned round,
                       bool first_of_turn, unsigned result[2], unsigned hits_on[2])
{
    unsigned hits[2];
    if (round == 1 && f->round1_drawn && d->plain == NULL) {
        const struct om_wm_round1 *t = p->round1;
        const round1_entry *en = &t->entry[om_alias_draw(t->pairs, &d->rng)];
        for (int s = 0; s < 2; s++) {
            f->stands[s] = en->stands[s];
            f->carried[s] = en->carried[s];
            result[s] = en->result[s];
            hits_on[1 - s] += en->hits[s];
        }
        return en->winner;
    }
    round_hits(p, d, f, round, first_of_turn, hits);
    return apply_round(p, f, round, hits, result, hits_on);
}

/*
 * The loser l retreats `cm` (6.9) into what lies behind it once the distance
 * left behind runs out: blocked stands are destroyed without reducing the hits
 * carried, a unit leaving the table is destroyed, friends make way at the risk
 * of confusion. Artillery forced to retreat is destroyed.
 */
static void retreat(const om_wm_prepared *p, om_dice *d, fight *f, int l, unsigned cm)
{
    const om_wm_side *me = &p->e.side[l];
    /* Artillery is destroyed if forced to retreat (6.9), and so is the
     * Screaming Bell (army list). */
    /* A Revolution War Wagon column retreats instead (army list). */
    if ((me->unit.troop == OM_WM_ARTILLERY &&
         !(me->formation == OM_WM_FORMATION_COLUMN && p->e.rules->wagon_column_retreats)) ||
        me->unit.traits.destroyed_if_retreats) {
        f->stands[l] = 0;
        return;
    }
    if (me->behind != OM_WM_BEHIND_OPEN && cm > f->behind_cm[l]) {
        switch (me->behind) {
        case OM_WM_BEHIND_TABLE_EDGE:
            /* Leaving by a combat retreat destroys (3.8); in Ancients a D6
             * less the stands lost decides, as for any move off (WMA 5.5).
             * A survivor is out of this engagement; its later return (and,
             * on a 1-2, the second roll) is battle-level, not modelled. */
            if (p->e.rules->retreat_off_table_rolls &&
                (int)om_dice_roll_d6(d) - (int)(om_wm_unit_size(&me->unit) - f->stands[l]) > 0)
                f->left_table[l] = true;
            else
                f->stands[l] = 0;
            break;
        case OM_WM_BEHIND_FRIENDS:    /* they make way; the retreater tests once (7.1 #6) */
            if (om_dice_roll_d6(d) == 6)
                confuse(p, f, l);
            break;
        default: {                    /* blocked stands are destroyed, hits kept (6.9) */
            unsigned blocked = me->behind_stands < f->stands[l] ? me->behind_stands
                                                                : f->stands[l];
            f->stands[l] -= blocked;
            if (f->stands[l] == 0)
                f->carried[l] = 0;
            f->behind_cm[l] = 0;
            return;
        }
        }
        f->behind_cm[l] = 0;
        return;
    }
    f->behind_cm[l] -= cm < f->behind_cm[l] ? cm : f->behind_cm[l];
}

/*
 * After a draw both sides fall back (6.8, 6.13): each rolls 3D6, the most it
 * may move; a defended or fortified unit may stand instead, and does. A unit
 * with something right behind it (behind_cm 0) cannot end 1cm clear of the
 * enemy and is confused (7.1 #5); otherwise it moves the whole roll, or up to
 * what lies behind.
 */
static void fall_back(const om_wm_prepared *p, om_dice *d, fight *f, om_wm_outcome *o)
{
    for (int s = 0; s < 2; s++) {
        const om_wm_side *me = &p->e.side[s];
        unsigned roll, cm;
        if (f->stands[s] == 0 || me->unit.traits.cover == OM_WM_COVER_ALWAYS_DEFENDED ||
            (!f->in_open[s] && om_wm_effective_position(me) != OM_WM_OPEN) ||
            (me->unit.traits.immobile && !me->pushed))
            continue;
        roll = om_dice_roll_sum(d, 3, NULL);
        cm = roll;
        if (me->behind != OM_WM_BEHIND_OPEN && f->behind_cm[s] < cm)
            cm = f->behind_cm[s];
        if (cm == 0)
            confuse(p, f, s);
        o->fall_back_cm[s] = (uint8_t)cm;
    }
}

/* May w pursue l (6.11)? Artillery and fortified units never pursue; infantry
 * never pursues cavalry or chariots (A6 reading A, option). */
static bool may_pursue(const om_wm_prepared *p, const fight *f, int w, int l)
{
    const om_wm_engagement *e = &p->e;
    const om_wm_side *me = &e->side[w];
    om_wm_troop foe = e->side[l].unit.troop;
    if (me->unit.troop == OM_WM_ARTILLERY || (me->unit.traits.immobile && !me->pushed))
        return false;
    if (om_wm_effective_position(me) == OM_WM_FORTIFIED && !f->in_open[w])
        return false;
    if (me->unit.troop == OM_WM_INFANTRY && (foe == OM_WM_CAVALRY || foe == OM_WM_CHARIOT) &&
        !e->options.infantry_pursues_cavalry &&
        me->unit.traits.pursuit == OM_WM_PURSUES_AS_ITS_TYPE)
        return false;
    /* Non-flyers cannot pursue retreating flyers (6.11 #5), unless they may
     * pursue "any type of retreating enemy" (Rangers, Gorgers). */
    if (e->side[l].unit.traits.flies && !e->side[l].unit.traits.pursued_by_non_flyers &&
        !me->unit.traits.flies && me->unit.traits.pursuit != OM_WM_PURSUES_ANY)
        return false;
    /* Fanatics, Flagellants and the like must pursue whenever allowed
     * (Warmaster Ancients, Special Rules > Fanatics; army lists). */
    if (me->unit.traits.must_pursue || (me->unit.traits.stampedes && f->confused[w]) ||
        (me->unit.traits.hates_chaos_undead && e->side[l].unit.chaos_or_undead))
        return true;
    switch (me->pursue) {
    case OM_WM_PURSUE_NEVER: return false;
    case OM_WM_PURSUE_WHEN_AHEAD: return f->stands[w] >= f->stands[l];
    case OM_WM_PURSUE_ALWAYS: break;
    }
    return true;
}

/* What a shooting cost side s itself (om_wm_fire_cost), and the Flame
 * Cannon's reduced Attacks from now on. */
static void shooter_pays(const om_wm_prepared *p, om_dice *d, fight *f, int s,
                         const om_wm_fire *r)
{
    if (om_wm_fire_cost(d, &p->e.side[s].unit, r, &f->stands[s]))
        confuse(p, f, s);
    f->reduced[s] = r->reduced;
}

/* A volley of side `shooter`, as it shoots now, in its own turn before the
 * charge (5.5): the target keeps its stand losses (odd hits go, 5.6) and may
 * be routed or driven off the table, a big monster may be badly hurt; then
 * what the shooting cost the shooter. The volley's result goes to *v. */
static void volley_before_contact(const om_wm_prepared *p, om_dice *d, fight *f, int shooter,
                                  om_wm_outcome *o, om_wm_volley_result *v)
{
    int t = 1 - shooter;
    v->fire.reduced = f->reduced[shooter];
    om_wm_volley_at(p, d, shooter, side_now(p, f, shooter), f->stands[shooter], f->stands[t], v);
    f->hurt[t] = v->hurt;
    o->shot_hits_on[t] = om_wm_sat8(v->hits);
    o->hits_on[t] = om_wm_sat8(v->hits);
    o->drive_back_cm = om_wm_sat8(v->drive_back_cm);
    o->routed[t] = v->routed;
    f->stands[t] -= v->stands_lost;
    if (v->routed || v->off_table)
        f->stands[t] = 0;
    shooter_pays(p, d, f, shooter, &v->fire);
}

/* What happens before contact: volleys of the turns before, the start of the
 * charger's turn (the charged side's Anvil or Shrine was struck in its own
 * turn before), then shooting at the charge. Returns false if no charge
 * happens after it. */
static bool before_contact(const om_wm_prepared *p, om_dice *d, fight *f, int c,
                           om_wm_outcome *o)
{
    const om_wm_engagement *e = &p->e;
    int s = 1 - c;
    /* The charger shot at its target in its own previous turn (5.5): the
     * target keeps its stand losses (odd hits are discarded) and may have been
     * routed; any confusion ended with the target's own Command phase (7.2), so
     * the target fights unconfused. */
    if (e->side[c].shoots_first) {
        om_wm_volley_result v;
        volley_before_contact(p, d, f, c, o, &v);
        /* A charger whose machines exploded cannot charge; one confused by
         * its own shooting is still confused in its Command phase (7.2). */
        if (f->stands[s] == 0 || f->stands[c] == 0 || f->confused[c])
            return false;
    }
    /* A volley in the charged side's own previous turn (5.5): a charger
     * confused then stays confused through its own Command phase (7.2) and
     * cannot be ordered to charge; a rout removes it. Odd hits go (5.6). */
    if (e->side[s].shoots_first) {
        om_wm_volley_result v;
        /* Confused by its own shooting in its own turn, the shooter stays
         * confused through the charger's turn (7.2). */
        volley_before_contact(p, d, f, s, o, &v);
        if (f->stands[c] == 0 || v.confused || f->stands[s] == 0) {
            o->confused[c] = v.confused && f->stands[c] > 0;
            return false;
        }
    }
    if (p->in_play & OM_WM_PLAY_TURN_START) {
        first_turn_starts(p, d, f, c);
        if (f->stands[c] == 0) {
            f->faded = true; /* faded away before it could charge: nothing fought */
            return false;
        }
    }
    /* Shooting at chargers (5.7): stands lost are removed at once and do not
     * fight; every hit counts for the shooting side in round 1 (W7). This is
     * part of the engagement, so a charger's Banner of Fortitude already
     * gives its +1 Hits here (10.3), unlike a volley of the turn before. */
    if (e->side[s].stand_and_shoot) {
        om_wm_fire r;
        r.reduced = f->reduced[s];
        om_wm_fire_at(p, d, s, side_now(p, f, s), f->stands[s], true, f->stands[c], &r);
        f->shot[s] = om_wm_steadfast(&e->side[c], f->stands[c], r.hits);
        shooter_pays(p, d, f, s, &r);
        /* The 1.1 Warp Lightning Cannon confuses a unit it hurts on a 6. */
        if (e->side[s].unit.traits.shooter == OM_WM_SHOOTER_WARP_LIGHTNING && f->shot[s] > 0 &&
            om_dice_roll_d6(d) == 6)
            confuse(p, f, c);
        o->shot_hits_on[c] = om_wm_sat8(o->shot_hits_on[c] + f->shot[s]);
        o->hits_on[c] = om_wm_sat8(o->hits_on[c] + f->shot[s]);
        if (!e->side[s].evade)
            (void)take_hits(p, f, c, f->shot[s]);
        if (f->stands[c] == 0 || f->stands[s] == 0)
            return false; /* shot down, or blown up, before contact: no round */
    }
    /* Skirmishers evade (Warmaster Ancients, Movement > The Evade): the charger touches
     * no enemy, so its move ends and the shooting drives it back, the one
     * case where a charger is: a die a hit, any 6 confuses, more than its
     * pace routs it. The hits also remove stands (5.4). No round is fought. */
    if (e->side[s].evade) {
        unsigned sixes = 0, dice, cm;
        (void)take_hits(p, f, c, f->shot[s]);
        if (f->stands[c] == 0)
            return false;
        dice = om_wm_unit_drive_back_dice(e->rules, &e->side[c], f->shot[s],
                                          f->stands[c] < om_wm_unit_size(&e->side[c].unit));
        cm = om_dice_roll_sum(d, dice, &sixes);
        o->drive_back_cm = om_wm_sat8(cm);
        if (cm > e->side[c].unit.pace_cm) {
            o->routed[c] = 1;
            f->stands[c] = 0;
        } else if (sixes > 0) {
            confuse(p, f, c);
        }
        return false;
    }
    return true;
}

void om_wm_unit_state_start(const om_wm_engagement *e, int s, om_wm_unit_state *u)
{
    const om_wm_side *me = &e->side[s];
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
                  e->rules->laager_shelter_needs_charge && !e->side[1 - s].charging);
    u->retreated = false;
    u->regains_position = false;
    u->left_table = false;
    u->hurt = false;
    u->fearless = me->aura == OM_WM_AURA_ALWAYS;
    u->reduced = false;
}

/* Initial fight state of an engagement: both units as prepared. */
static void fight_start(const om_wm_engagement *e, fight *f)
{
    for (int s = 0; s < 2; s++) {
        om_wm_unit_state u;
        om_wm_unit_state_start(e, s, &u);
        om_wm_fight_set_unit(f, s, &u);
    }
    f->faded = false;
    f->fresh = true;
    f->round1_drawn = false; /* until the table is made (round1_prepare) */
    f->turn = 1;
}

/* Build p->round1 when the first round is a function of the two hit counts:
 * no shooting before contact and no maniple dice. Returns OM_OK also when no
 * table applies (p->round1 stays NULL). */
static om_status round1_prepare(om_wm_prepared *p, const fight *start)
{
    const om_dice_test *test[2];
    unsigned dice[2], n;
    double *pmf;
    struct om_wm_round1 *t;
    om_status st;

    if (p->in_play & (OM_WM_PLAY_SHOOTING | OM_WM_PLAY_MANIPLE | OM_WM_PLAY_STAGED |
                      OM_WM_PLAY_EXTRA_STRIKE | OM_WM_PLAY_TURN_START | OM_WM_PLAY_EVADE))
        return OM_OK;
    for (int s = 0; s < 2; s++) {
        dice[s] = p->round1_dice[s][start->stands[s]];
        test[s] = melee_test(p, start, s, 1);
    }
    n = (dice[0] + 1u) * (dice[1] + 1u);
    if (n > OM_WM_ROUND1_MAX_PAIRS)
        return OM_OK;
    t = calloc(1, sizeof *t);
    pmf = malloc(n * sizeof *pmf);
    if (t != NULL)
        t->entry = malloc(n * sizeof *t->entry);
    if (t == NULL || pmf == NULL || t->entry == NULL) {
        free(pmf);
        if (t != NULL)
            free(t->entry);
        free(t);
        return OM_ERROR(OM_ENOMEM, "out of memory preparing the first round");
    }
    t->nb = dice[1] + 1u;
    for (unsigned ha = 0; ha <= dice[0]; ha++) {
        for (unsigned hb = 0; hb <= dice[1]; hb++) {
            unsigned i = ha * t->nb + hb, hits[2] = {ha, hb}, result[2], hits_on[2] = {0, 0};
            fight f = *start;
            round1_entry *en = &t->entry[i];
            int winner = apply_round(p, &f, 1, hits, result, hits_on);
            pmf[i] = om_dice_binomial_pmf(ha, test[0]->pass->p, dice[0]) *
                     om_dice_binomial_pmf(hb, test[1]->pass->p, dice[1]);
            for (int s = 0; s < 2; s++) {
                en->stands[s] = (uint8_t)f.stands[s];
                en->carried[s] = (uint8_t)f.carried[s];
                en->result[s] = om_wm_sat8(result[s]);
                en->hits[s] = (uint8_t)hits[s];
            }
            en->winner = (uint8_t)winner;
        }
    }
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

void om_wm_combat_release(om_wm_prepared *p)
{
    free(p->start);
    p->start = NULL;
    if (p->round1 == NULL)
        return;
    om_alias_free(p->round1->pairs);
    free(p->round1->entry);
    free(p->round1);
    p->round1 = NULL;
}

om_status om_wm_combat_prepare(om_wm_prepared *p)
{
    fight f;
    om_status st;
    p->in_play = 0;
    for (int s = 0; s < 2; s++) {
        const om_wm_side *me = &p->e.side[s];
        const om_wm_traits *t = &me->unit.traits;
        p->in_play |= t->shieldwall ? OM_WM_PLAY_SHIELDWALL : 0u;
        p->in_play |= t->maniple && me->rear_supports > 0 ? OM_WM_PLAY_MANIPLE : 0u;
        p->in_play |= t->legion ? OM_WM_PLAY_LEGION : 0u;
        p->in_play |= t->scythed ? OM_WM_PLAY_SCYTHED : 0u;
        p->in_play |= me->shoots_first || me->stand_and_shoot ? OM_WM_PLAY_SHOOTING : 0u;
        p->in_play |= me->magic == OM_WM_MAGIC_CLEAVING || me->magic == OM_WM_MAGIC_DESTRUCTION ||
                              t->rerolls_a_miss || t->bonus_dice != OM_WM_BONUS_DICE_NONE
                          ? OM_WM_PLAY_STAGED : 0u;
        p->in_play |= t->extra_strike_round1 ? OM_WM_PLAY_EXTRA_STRIKE : 0u;
        p->in_play |= me->aura == OM_WM_AURA_ROLL ? OM_WM_PLAY_AURA_ROLL : 0u;
        p->in_play |= me->evade ? OM_WM_PLAY_EVADE : 0u;
        p->in_play |= me->beside_laager ? OM_WM_PLAY_BESIDE_LAAGER : 0u;
        p->in_play |= me->aura == OM_WM_AURA_ROLL || t->daemonic_instability
                          ? OM_WM_PLAY_TURN_START : 0u;
    }
    _Static_assert(sizeof p->round1_dice[0] > 12, "one entry per possible stand count");
    fight_start(&p->e, &f);
    for (int s = 0; s < 2; s++) {
        /* Up to full strength: Daemonic Instability can give stands back. */
        unsigned most = p->e.side[s].unit.stands;
        if (om_wm_unit_size(&p->e.side[s].unit) > most)
            most = om_wm_unit_size(&p->e.side[s].unit);
        for (unsigned k = 0; k <= most; k++) {
            unsigned dice;
            f.stands[s] = k;
            dice = compute_dice(p, &f, s, 1);
            p->round1_dice[s][k] = (uint8_t)(dice > 255u ? 255u : dice);
        }
        f.stands[s] = p->e.side[s].unit.stands;
    }
    /* Every trial starts from this state: copying it is cheaper than
     * working it out again (positions, auras). */
    p->start = malloc(sizeof *p->start);
    if (p->start == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory preparing the engagement");
    *p->start = f;
    st = round1_prepare(p, &f);
    p->start->round1_drawn = p->round1 != NULL;
    return st;
}

/* Where the rounds of an engagement stand. */
typedef struct bout {
    int charger;           /* the side that charged, or -1 (a fight already joined) */
    unsigned round;        /* rounds fought */
    unsigned phase_round;  /* rounds fought in the current Combat phase */
    unsigned hits_on[2];   /* hits each side suffered, all sources */
    unsigned scythed_gone; /* bit s: side s's scythed chariots fought their round */
    int winner;            /* the last round's winner, then the engagement's */
} bout;

/* The side that charges, or -1 for a fight already joined. */
static int charger_of(const om_wm_engagement *e)
{
    return e->side[0].charging ? 0 : e->side[1].charging ? 1 : -1;
}

/* Whether the fight comes to blows: a charge may be stopped by the shooting
 * before contact, and either side may fade away at the start of its turn.
 * If not, the outcome's winner and result are recorded and false returned:
 * a side shot away before contact loses (6.6); a charger confused by
 * shooting first does not charge (no contest); skirmishers that evaded
 * fought no combat (no result), though a charger their shooting destroyed
 * still loses, as one shot down does. */
static bool comes_to_blows(const om_wm_prepared *p, om_dice *d, fight *f, int charger,
                           om_wm_outcome *o)
{
    const om_wm_engagement *e = &p->e;
    if (charger >= 0) {
        int winner;
        if (!(p->in_play & (OM_WM_PLAY_SHOOTING | OM_WM_PLAY_TURN_START | OM_WM_PLAY_EVADE)) ||
            before_contact(p, d, f, charger, o))
            return true;
        winner = f->faded                                                  ? OM_WM_NO_CONTEST
                 : f->stands[charger] == 0 && f->stands[1 - charger] == 0 ? OM_WM_DRAW
                 : f->stands[charger] == 0                               ? 1 - charger
                 : f->stands[1 - charger] == 0                           ? charger
                                                                           : OM_WM_NO_CONTEST;
        o->winner = o->round1_winner = (uint8_t)winner;
        o->result[1 - charger] = e->side[1 - charger].evade
                                     ? 0u : om_wm_sat8(f->shot[1 - charger]);
        return false;
    }
    /* No charge: turn 1 is side A's, and it may fade away at its start. */
    if (p->in_play & OM_WM_PLAY_TURN_START) {
        first_turn_starts(p, d, f, 0);
        if (f->stands[0] == 0) {
            o->winner = o->round1_winner = OM_WM_SIDE_B; /* the enemy is left alone */
            return false;
        }
    }
    return true;
}

/* After the first round: its winner and results go to the outcome; infantry
 * beside a laager was defended in the first round only (a position of its
 * own it keeps). */
static void first_round_fought(const om_wm_prepared *p, fight *f, const bout *b,
                               const unsigned result[2], om_wm_outcome *o)
{
    const om_wm_engagement *e = &p->e;
    if (p->in_play & OM_WM_PLAY_BESIDE_LAAGER)
        for (int s = 0; s < 2; s++)
            f->in_open[s] |= e->side[s].beside_laager && e->side[s].position == OM_WM_OPEN;
    o->round1_winner = (uint8_t)b->winner;
    o->result[0] = om_wm_sat8(result[0]);
    o->result[1] = om_wm_sat8(result[1]);
}

/* Scythed chariots fight one round and are then removed as destroyed; a unit
 * that retreats from them after suffering a hit is confused (Warmaster
 * Ancients, Special Rules > Scythed Chariots). */
static void scythed_chariots_strike(const om_wm_prepared *p, fight *f, bout *b)
{
    for (int s = 0; s < 2; s++) {
        if (!p->e.side[s].unit.traits.scythed || f->stands[s] == 0)
            continue;
        if (b->winner == s && f->stands[1 - s] > 0 && b->hits_on[1 - s] > 0)
            confuse(p, f, 1 - s);
        b->scythed_gone |= 1u << s;
    }
}

/* The loser l retreats by the difference of the round's results divided
 * among the losing side's units (6.9): Revolution counts supporting units,
 * 1.1 only units in contact. A laagered War Wagon holds instead, keeping its
 * position (army list): *holds. Returns the distance. */
static unsigned loser_retreats(const om_wm_prepared *p, om_dice *d, fight *f, const bout *b,
                               const unsigned result[2], int l, bool *holds, om_wm_outcome *o)
{
    const om_wm_engagement *e = &p->e;
    const int w = 1 - l;
    unsigned cm;
    *holds = e->side[l].formation == OM_WM_FORMATION_LAAGER;
    cm = *holds ? 0u
                : om_wm_retreat_cm(result[w], result[l],
                                   1u + (e->rules->retreat_divisor_engaged_only
                                             ? 0u : e->side[l].support_units));
    if (b->round == 1)
        o->retreat_cm = om_wm_sat8(cm);
    o->retreated_cm[l] = om_wm_sat8(o->retreated_cm[l] + cm);
    if (!*holds) {
        retreat(p, d, f, l, cm);
        f->retreated[l] = true; /* after retreat(), which may have removed it */
    }
    return cm;
}

/* Retreating elephants rampage through the enemy they touch: a 6 confuses
 * it, or destroys it if it was confused already; results stand (Warmaster
 * Ancients, Special Rules > Elephants). Returns whether the winner w was
 * destroyed: the engagement ends, won by the elephants. */
static bool elephants_rampage(const om_wm_prepared *p, om_dice *d, fight *f, int l, int w)
{
    if (!p->e.side[l].unit.traits.rampage || f->stands[l] == 0 || f->left_table[l] ||
        om_dice_roll_d6(d) != 6)
        return false;
    if (f->confused[w]) {
        f->stands[w] = 0;
        f->carried[w] = 0;
        return true;
    }
    confuse(p, f, w);
    return false;
}

/* A unit that retreated counts as in the open for the rest of the turn's
 * pursuit rounds (6.9, 6.15); for good, unless option A8 gives its position
 * back at the turn's end. */
static void position_lost(const om_wm_prepared *p, fight *f, int l)
{
    const om_wm_engagement *e = &p->e;
    f->regains_position[l] = e->options.defended_after_retreat &&
                               e->side[l].position != OM_WM_OPEN &&
                               (!f->in_open[l] || f->regains_position[l]);
    f->in_open[l] = true;
}

/* The winner w pursues the loser l, which retreated `cm`: pursuers count as
 * in the open (6.15; Ancients 7.4) and fight with the pursuit bonus (6.4);
 * fighting on against a laager is a pursuit without bonus. */
static void winner_pursues(fight *f, int w, int l, unsigned cm, bool holds)
{
    f->in_open[w] = true;
    f->regains_position[w] = false;
    f->pursuit[w] = holds ? 0u : om_wm_pursuit_bonus(cm);
    f->pursuit[l] = 0;
}

/* Won round 2 of a phase and pursued: the combat is unresolved and goes on
 * in the next turn, the opponent's (6.11, 6.14), unless the turn limit is
 * reached (no contest) or the side whose turn starts fades away (the enemy
 * wins). Confusion ends at the end of the unit's own Command phase (7.2); in
 * the 1.1 lists a big monster still engaged may be badly hurt at the end of
 * the Combat phase (army lists); a position regained under option A8
 * returns. Returns whether the engagement goes on. */
static bool next_turn(const om_wm_prepared *p, om_dice *d, fight *f, bout *b)
{
    const om_wm_engagement *e = &p->e;
    const unsigned max_turns = e->options.max_turns ? e->options.max_turns
                                                    : OM_WM_DEFAULT_MAX_TURNS;
    int active;
    if (f->turn >= max_turns) {
        b->winner = OM_WM_NO_CONTEST;
        return false;
    }
    f->turn++;
    b->phase_round = 0;
    if (e->rules->badly_hurt_when_engaged) {
        check_hurt(p, f, 0);
        check_hurt(p, f, 1);
    }
    /* Turn 1 is the charger's (side A's without a charge); turns alternate. */
    active = (b->charger == 1) == ((f->turn & 1u) == 1u) ? 1 : 0;
    f->confused[active] = false;
    if (p->in_play & OM_WM_PLAY_TURN_START) {
        own_turn_starts(p, d, f, active);
        if (f->stands[active] == 0) {
            b->winner = 1 - active; /* faded away: the enemy is left alone */
            return false;
        }
    }
    for (int s = 0; s < 2; s++) {
        if (f->regains_position[s])
            f->in_open[s] = false;
        f->regains_position[s] = false;
    }
    return true;
}

/*
 * One combat round and what follows it (6.5-6.14): a draw makes both sides
 * fall back and ends the combat; otherwise the loser retreats (or holds, or
 * rampages), and the winner pursues if it may and wants to, into a next
 * round or, after the second round of a phase, a next turn. Only a whole
 * engagement goes on past the first round. Returns whether another round is
 * fought; b->winner is then the engagement's winner.
 */
static bool round_and_aftermath(const om_wm_prepared *p, om_dice *d, fight *f, bout *b,
                                om_wm_outcome *o)
{
    const bool whole = p->e.kind == OM_WM_KIND_ENGAGEMENT;
    unsigned result[2], cm;
    bool holds;
    int l, w;
    b->round++;
    b->phase_round++;
    b->winner = fight_round(p, d, f, b->round, b->phase_round == 1, result, b->hits_on);
    if (b->round == 1)
        first_round_fought(p, f, b, result, o);
    f->retreated[0] = f->retreated[1] = false;
    if (p->in_play & OM_WM_PLAY_SCYTHED)
        scythed_chariots_strike(p, f, b);
    if (b->winner == OM_WM_DRAW) {
        if (whole)
            fall_back(p, d, f, o); /* both fall back and the combat ends (6.8) */
        return false;
    }
    w = b->winner;
    l = 1 - w;
    if (f->stands[l] == 0)
        return false;
    cm = loser_retreats(p, d, f, b, result, l, &holds, o);
    if (!holds && elephants_rampage(p, d, f, l, w)) {
        b->winner = l;
        return false;
    }
    if (f->stands[l] == 0 || !whole || b->scythed_gone || f->left_table[l])
        return false;
    if (!holds)
        position_lost(p, f, l);
    if (!may_pursue(p, f, w, l))
        return false;
    winner_pursues(f, w, l, cm, holds);
    return b->phase_round != 2 || next_turn(p, d, f, b);
}

/* The engagement is over: scythed chariots that fought are removed; at the
 * end of the last Combat phase a big monster with enough hits is badly hurt,
 * in Revolution only once no longer engaged (army lists); the winner and the
 * hits go to the outcome. */
static void engagement_ends(const om_wm_prepared *p, fight *f, const bout *b, om_wm_outcome *o)
{
    const om_wm_engagement *e = &p->e;
    for (int s = 0; s < 2 && b->scythed_gone; s++)
        if (b->scythed_gone & (1u << s))
            f->stands[s] = 0;
    if (e->kind == OM_WM_KIND_ENGAGEMENT &&
        (b->winner != OM_WM_NO_CONTEST || e->rules->badly_hurt_when_engaged)) {
        check_hurt(p, f, 0);
        check_hurt(p, f, 1);
    }
    o->winner = (uint8_t)b->winner;
    for (int s = 0; s < 2; s++)
        o->hits_on[s] = om_wm_sat8(b->hits_on[s]);
}

/* What the fight left of both units, in the outcome: rounds and turns, the
 * stands lost since `first` (none for a unit that regained stands by
 * Daemonic Instability), destroyed, badly hurt and confused units. */
static void record_units(const om_wm_prepared *p, const fight *f, const unsigned first[2],
                         unsigned rounds, om_wm_outcome *o)
{
    o->rounds = (uint8_t)rounds;
    o->turns = (uint8_t)f->turn;
    for (int s = 0; s < 2; s++) {
        o->stands_lost[s] = (uint8_t)(first[s] > f->stands[s] ? first[s] - f->stands[s] : 0u);
        o->destroyed[s] = f->stands[s] == 0;
        o->hurt[s] = f->hurt[s] && f->stands[s] > 0;
        if (p->e.side[s].unit.traits.never_confused)
            o->confused[s] = 0;
        else if (o->confused[s] == 0)
            o->confused[s] = f->confused[s] && f->stands[s] > 0;
    }
}

void om_wm_combat(const om_wm_prepared *p, om_dice *d, fight *f, om_wm_outcome *o)
{
    const unsigned first[2] = {f->stands[0], f->stands[1]};
    bout b = {.charger = charger_of(&p->e), .winner = OM_WM_NO_CONTEST};
    if (comes_to_blows(p, d, f, b.charger, o)) {
        o->charged = b.charger >= 0;
        b.hits_on[0] = o->hits_on[0];
        b.hits_on[1] = o->hits_on[1];
        while (round_and_aftermath(p, d, f, &b, o))
            ;
        engagement_ends(p, f, &b, o);
    }
    record_units(p, f, first, b.round, o);
}
