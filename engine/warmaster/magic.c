/*
 * magic.c: Warmaster magic in the Shooting phase (magic.h): the casting roll,
 * anti-magic, the same-spell limit, the casting policy and the spells'
 * mechanisms (Warmaster Revolution, Magic > Spells; Casting Spells; the
 * Warmaster 1.1 Rules Update, P72 – Casting Spells; the army lists' spells).
 *
 * The mechanisms reuse the Shooting phase's own parts: the usual score to hit
 * (om_wm_to_hit_score, the target's position as the table decides it), the
 * usual save (om_wm_save_score, none for spells that ignore armour) and the
 * dice kit's test of that pair, so a magic missile is exactly that many
 * shooting Attacks; its hits join the phase's other hits and are removed and
 * driven back at the phase's end by the turn (turn.c). What the model leaves
 * out (path spells hit only their chosen target; no hits carried into a
 * combat) is in docs/rules-coverage.md,
 * "Magic (Warmaster)". A lasting spell sets its kinds on the table (the
 * target unit's `lasting`, or the Wizard's `aura`); the functions at the end
 * of this file are the rules' one way to read them, and to end them. A spell
 * that adds volleys leaves their count in the turn's magic state for the
 * Shooting phase (turn.c) to shoot, and one that moves a unit as if ordered
 * the unit, for the turn to move by its plan once every Wizard has cast.
 *
 * The casting policy (a player's choice the rules leave open): each Wizard
 * weighs every spell he knows on every eligible target by the chance to cast
 * it times the stands' worth of damage it is expected to do, and casts the
 * best (ties: the earlier spell, then the lower unit index). Damage by
 * shooting Attacks is the expected unsaved hits over the target's Hits; by
 * Attacks in combat the same at 4+ to hit, no save, against 3 Hits (a
 * typical infantry stand); a shattered stand is one stand; a lasting effect
 * is worth a fixed share of a stand per kind (policy_lasting_worth); an added
 * volley the stands it is expected to take. The Wizards' once-a-battle
 * devices are spent as POLICY_DEVICE_CAST and POLICY_SCROLL_WORTH say.
 */
#include "magic.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "turn.h"
#include "wm_int.h"

const char *const om_wm_spell_effect_names[OM_WM_SPELL_EFFECT_COUNT] = {
    [OM_WM_SPELL_NOT_MODELLED] = "not-modelled",
    [OM_WM_SPELL_MISSILE] = "missile",
    [OM_WM_SPELL_BURST] = "burst",
    [OM_WM_SPELL_BOOST] = "boost",
    [OM_WM_SPELL_WEAKEN] = "weaken",
    [OM_WM_SPELL_SHATTER] = "shatter",
    [OM_WM_SPELL_LASTING] = "lasting",
    [OM_WM_SPELL_VOLLEY] = "volley",
    [OM_WM_SPELL_MOVE] = "move",
    [OM_WM_SPELL_COMBAT] = "combat",
    [OM_WM_SPELL_PUSH] = "push",
};

/* The Hits of the stand the policy assumes Attacks in combat fall on, and the
 * chance such an Attack hits (4+, Combat > How to Calculate Damage). */
#define POLICY_COMBAT_HITS 3.0
#define POLICY_COMBAT_HIT_CHANCE 0.5
/* The policy's worth of a lasting effect, in stands, by OM_WM_LASTING_* bit
 * (its index): what a player weighs a -1 Command, a barred charge or a
 * defended unit at against a magic missile's expected stand. It counts only
 * on a unit with an enemy within POLICY_LASTING_REACH_CM, which the effect
 * may change in the enemy's turn, and only for kinds not in force on it. */
static const double policy_lasting_worth[] = {
    0.25, /* COMMAND */
    0.15, /* NO_INITIATIVE */
    0.5,  /* NO_CHARGE */
    0.3,  /* HALF_PACE */
    0.4,  /* DEFENDED */
    0.4,  /* FORTIFIED */
    0.4,  /* SAVE */
    0.3,  /* SHOT_AT */
    0.2,  /* STEADY */
    0.5,  /* TERROR */
    0.3,  /* FEARLESS */
    0.3,  /* ARMOUR */
};
#define POLICY_LASTING_KINDS (sizeof policy_lasting_worth / sizeof policy_lasting_worth[0])
#define POLICY_LASTING_REACH_CM 60.0
/* The policy's worth of a move as if ordered, in stands: a second order to a
 * unit its plan still moves (Voice of Command). */
#define POLICY_MOVE_WORTH 0.3
/* The once-a-battle devices (magic.h, om_wm_device): a Wizard spends his Ring
 * of Magic or Wand of Power on the first spell he casts that needs this score
 * or more (where a 5+ or 6+ would most often fail); a side reads its Scroll
 * of Dispelling on the first enemy spell that works and is worth this many
 * stands or more; a Rod of Repetition is used on the first roll that works
 * when another spell has a target. */
#define POLICY_DEVICE_CAST 5u
#define POLICY_SCROLL_WORTH 0.5
/* The policy's worth of a drive back by spell, in stands (Gerroff!!!: 5D6cm,
 * confused six times in ten), on a unit with an enemy within
 * POLICY_LASTING_REACH_CM. */
#define POLICY_PUSH_WORTH 0.5
/* How far behind a unit a spell's drive back looks for what it runs into:
 * further than any drive back (a byte of cm). */
#define PUSH_REACH_CM 255.0
/* A drive back halts this far from enemies ("halts 1cm away": Shooting >
 * Driving Back Enemies). */
#define PUSH_ENEMY_GAP_CM 1.0
_Static_assert(1u << (POLICY_LASTING_KINDS - 1) == OM_WM_LASTING_ARMOUR,
               "a worth for every lasting kind");
/* The best score a D6 may need: nothing hits or saves on worse (Shooting >
 * Scores to Hit: "never worse than 6+", Aerial Shield). */
#define D6_BEST_WORST 6u
/* The mean of a D3, and the faces of a D6. */
#define D3_MEAN 2.0
#define D6_FACES 6u

double om_wm_spell_cast_chance(unsigned cast)
{
    /* The faces that work: those from `cast` up, but never the 1 and always the 6. */
    const unsigned faces = cast >= D6_FACES ? 1u : cast <= 2u ? D6_FACES - 1u
                                                               : D6_FACES + 1u - cast;
    return (double)faces / D6_FACES;
}

bool om_wm_spell_casts(unsigned face, unsigned cast)
{
    return om_wm_spell_casts_modified(face, cast, 0);
}

bool om_wm_spell_casts_modified(unsigned face, unsigned cast, int modifier)
{
    return face != 1u && (face == D6_FACES || (int)face + modifier >= (int)cast);
}


/* ---- Check ---- */

static om_status fail(om_wm_check_failure *why, const char *field, const char *reason)
{
    om_wm_check_failure local;
    if (why == NULL)
        why = &local;
    snprintf(why->field, sizeof why->field, "%s", field);
    snprintf(why->reason, sizeof why->reason, "%s", reason);
    return OM_ERROR(OM_EINVAL, "field '%s': %s", why->field, why->reason);
}

om_status om_wm_spellbook_check(const om_wm_spellbook *b, const om_wm_table *t,
                                om_wm_ruleset_id rules, om_wm_check_failure *why)
{
    char path[64];
    for (unsigned s = 0; s < 2; s++) {
        if (b->n[s] > OM_WM_SPELLS_MAX) {
            snprintf(path, sizeof path, "magic.spells[%u]", s);
            return fail(why, path, "too many spells for one army");
        }
        if (b->n[s] > 0 && rules == OM_WM_RULES_WMA) {
            snprintf(path, sizeof path, "magic.spells[%u]", s);
            return fail(why, path, "Warmaster Ancients has no magic");
        }
        for (unsigned k = 0; k < b->n[s]; k++) {
            const om_wm_spell *sp = &b->spell[s][k];
            const char *bad = NULL, *key = "";
            if (sp->cast < 2 || sp->cast > 6)
                bad = "the casting value is a D6 score, 2 to 6", key = ".cast";
            else if ((unsigned)sp->effect >= OM_WM_SPELL_EFFECT_COUNT)
                bad = "unknown mechanism", key = ".effect";
            else if (sp->range_cm == 0 && !sp->own_unit && sp->effect != OM_WM_SPELL_NOT_MODELLED)
                bad = "a range of 1cm or more", key = ".range_cm";
            else if (sp->attacks > OM_WM_SPELL_ATTACKS_MAX)
                bad = "too many Attacks", key = ".attacks";
            else if (sp->effect != OM_WM_SPELL_NOT_MODELLED && sp->effect != OM_WM_SPELL_LASTING &&
                     sp->effect != OM_WM_SPELL_COMBAT && sp->attacks == 0)
                bad = "a modelled spell gives at least one Attack", key = ".attacks";
            else if (sp->effect == OM_WM_SPELL_LASTING &&
                     (sp->lasting == 0 ||
                      ((sp->lasting & OM_WM_LASTING_HOSTILE) != 0 &&
                       (sp->lasting & OM_WM_LASTING_FRIENDLY) != 0) ||
                      (sp->lasting & ~(unsigned)(OM_WM_LASTING_HOSTILE | OM_WM_LASTING_FRIENDLY))))
                bad = "lasting kinds all hostile or all friendly, at least one", key = ".lasting";
            else if (sp->effect == OM_WM_SPELL_LASTING && (sp->lasting & OM_WM_LASTING_SAVE) &&
                     (sp->amount < 2 || sp->amount > D6_FACES))
                bad = "a save is a D6 score, 2 to 6", key = ".amount";
            else if (sp->effect == OM_WM_SPELL_LASTING && (sp->lasting & OM_WM_LASTING_COMMAND) &&
                     sp->amount == 0)
                bad = "a Command penalty of 1 or more", key = ".amount";
            else if (sp->aura && (sp->effect != OM_WM_SPELL_LASTING ||
                                  sp->lasting != OM_WM_LASTING_COMMAND || sp->own_unit))
                bad = "an aura is a lasting Command penalty around the Wizard", key = ".aura";
            else if ((sp->phase & ~(unsigned)OM_WM_LASTING_PHASE) != 0 ||
                     (sp->phase != 0 && sp->effect != OM_WM_SPELL_COMBAT &&
                      sp->effect != OM_WM_SPELL_BOOST) ||
                     (sp->effect == OM_WM_SPELL_COMBAT && sp->phase == 0))
                bad = "Combat phase kinds (terror, immune to terror, armour), with a combat or "
                      "boost spell", key = ".phase";
            else if ((sp->phase & OM_WM_LASTING_ARMOUR) && (sp->amount < 2 || sp->amount > D6_FACES))
                bad = "the best armour is a D6 score, 2 to 6", key = ".amount";
            else if (sp->with_caster && (sp->effect != OM_WM_SPELL_MOVE || !sp->own_unit))
                bad = "the Wizard moves with his own unit's move", key = ".with_caster";
            else if (sp->troops >> OM_WM_TROOP_COUNT)
                bad = "unknown troop type", key = ".troops";
            else if (memchr(sp->id, '\0', sizeof sp->id) == NULL || sp->id[0] == '\0')
                bad = "an id is needed", key = ".id";
            if (bad != NULL) {
                snprintf(path, sizeof path, "magic.spells[%u][%u]%s", s, k, key);
                return fail(why, path, bad);
            }
        }
    }
    for (unsigned c = 0; c < OM_WM_TABLE_MAX_CHARACTERS; c++) {
        const bool here = c < t->characters;
        const unsigned side = here ? t->character[c].side : 0;
        const bool wizard = here && t->character[c].kind == OM_WM_WIZARD;
        snprintf(path, sizeof path, "magic.devices[%u]", c);
        if ((b->devices[c] & ~(unsigned)OM_WM_DEVICES_ALL) != 0)
            return fail(why, path, "unknown magic device");
        if ((b->devices[c] & OM_WM_DEVICES_WIZARD) != 0 && !wizard)
            return fail(why, path, "a Ring of Magic, Wand of Power or Rod of Repetition is "
                                   "carried by a Wizard");
        if (b->devices[c] != 0 && !wizard && !(here && b->anti_magic[c]))
            return fail(why, path, "a Scroll of Dispelling or Staff of Spellbinding is carried "
                                   "by a Wizard or a Runesmith");
        snprintf(path, sizeof path, "magic.knows[%u]", c);
        if (b->knows[c] != 0 && (!here || t->character[c].kind != OM_WM_WIZARD))
            return fail(why, path, "only a Wizard casts spells");
        if (here && side < 2 && (b->knows[c] >> b->n[side]) != 0)
            return fail(why, path, "a spell beyond his army's list");
        if (b->anti_magic[c] && !here) {
            snprintf(path, sizeof path, "magic.anti_magic[%u]", c);
            return fail(why, path, "no such character");
        }
    }
    return OM_OK;
}

/* Whether character c is on the table: joined to a unit still there, or alone
 * and not slain. */
static bool character_present(const om_wm_table *t, unsigned c)
{
    return !om_wm_table_character_gone(t, c);
}

bool om_wm_spellbook_active(const om_wm_spellbook *b, const om_wm_table *t, unsigned side)
{
    for (unsigned c = 0; c < t->characters; c++) {
        if (t->character[c].side != side || b->knows[c] == 0)
            continue;
        for (unsigned k = 0; k < b->n[side]; k++)
            if ((b->knows[c] >> k & 1u) && b->spell[side][k].effect != OM_WM_SPELL_NOT_MODELLED)
                return true;
    }
    return false;
}

void om_wm_magic_turn_clear(om_wm_magic_turn *m, unsigned units)
{
    memset(m->affected, 0, sizeof m->affected);
    memset(m->stand_attacks, 0, units * sizeof m->stand_attacks[0]);
    memset(m->unit_attacks, 0, units * sizeof m->unit_attacks[0]);
    memset(m->hits, 0, units * sizeof m->hits[0]);
    memset(m->quiet_hits, 0, units * sizeof m->quiet_hits[0]);
    memset(m->volleys, 0, units * sizeof m->volleys[0]);
    memset(m->volley_penalty, 0, units * sizeof m->volley_penalty[0]);
    m->moves = (om_wm_unit_set){0};
    m->setup = NULL;
    memset(m->driver, -1, units * sizeof m->driver[0]);
    memset(m->phase, 0, units * sizeof m->phase[0]);
    memset(m->mover, -1, units * sizeof m->mover[0]);
    memset(m->phase_armour, 0, units * sizeof m->phase_armour[0]);
    m->cast = m->worked = m->dispelled = 0;
}

/* ---- Targets ---- */

/* Unit u as a spell's shooting Attacks find it: its values, its position and
 * dense terrain as the table decides them (Shooting > Scores to Hit). */
static void target_side(const om_wm_turn *turn, const om_wm_table *t, unsigned u, om_wm_side *s)
{
    *s = turn->unit[u].side;
    s->position = om_wm_table_position(t, u);
    s->dense_terrain = om_wm_table_in_dense(t, u);
    om_wm_lasting_side(t, u, s);
}

/* The to-hit and save of a spell's shooting Attacks at unit u. */
static void spell_scores(const om_wm_turn *turn, const om_wm_table *t, const om_wm_spell *sp,
                         unsigned u, unsigned *to_hit, unsigned *save)
{
    om_wm_side s;
    target_side(turn, t, u, &s);
    *to_hit = om_wm_lasting_to_hit(t, u, om_wm_to_hit_score(turn->rules, &s));
    *save = om_wm_save_score(&s.unit, !sp->no_save);
}

/* Whether unit u may be a target of spell `sp` of Wizard c, sight aside
 * (seen_by). */
static bool eligible_unseen(const om_wm_turn *turn, const om_wm_table *t, om_wm_magic_turn *m,
                            unsigned c, unsigned k, const om_wm_spell *sp, unsigned u)
{
    const om_wm_table_character *ch = &t->character[c];
    const om_wm_table_unit *un = &t->unit[u];
    const bool enemy = un->side != ch->side;
    /* Whom the mechanism falls on: an enemy or a friend, engaged or not (a
     * lasting effect: either, unless the spell says unengaged). */
    const bool lasting = sp->effect == OM_WM_SPELL_LASTING;
    const bool wants_enemy = lasting ? (sp->lasting & OM_WM_LASTING_HOSTILE) != 0
                                     : sp->effect != OM_WM_SPELL_BOOST &&
                                           sp->effect != OM_WM_SPELL_VOLLEY &&
                                           sp->effect != OM_WM_SPELL_MOVE &&
                                           sp->effect != OM_WM_SPELL_COMBAT;
    const bool wants_engaged = sp->effect == OM_WM_SPELL_BOOST ||
                               sp->effect == OM_WM_SPELL_WEAKEN || sp->effect == OM_WM_SPELL_COMBAT;
    if (!un->present || enemy != wants_enemy || om_wm_unit_set_has(&m->affected[k], u) ||
        om_wm_unit_set_has(&turn->magic.barred[ch->side][k], u) ||
        (sp->troops != 0 && !(sp->troops & OM_WM_SPELL_TROOP(un->troop))))
        return false;
    /* A second volley only for a unit that shoots and does not hold its fire. */
    if (sp->effect == OM_WM_SPELL_VOLLEY &&
        (un->range_cm == 0 || turn->unit[u].shoot == OM_WM_SHOOT_HOLD ||
         turn->unit[u].side.shooting == 0 || !om_wm_unit_shoots(&turn->unit[u].side.unit)))
        return false;
    if (sp->own_unit ? ch->joined != (int)u
                     : !om_wm_table_character_within(t, c, u, sp->range_cm + OM_WM_TABLE_TOUCH_CM))
        return false;
    if (lasting && !sp->unengaged)
        return true;
    /* A move as if ordered: a unit planned to move, not confused, not charged
     * and not moved by a spell already this turn (whether its plan is done,
     * the costly part, is asked with sight, seen_by). */
    if (sp->effect == OM_WM_SPELL_MOVE &&
        (m->setup == NULL || m->setup->plan[u].kind == OM_WM_PLAN_HOLD || un->confused ||
         un->charged || om_wm_unit_set_has(&m->moves, u)))
        return false;
    if (m->engaged[u] < 0)
        m->engaged[u] = (int8_t)om_wm_table_engaged(t, u);
    return (m->engaged[u] != 0) == wants_engaged;
}

/* Whether Wizard c sees unit u as spell `sp` needs: he sees all round from
 * the unit he has joined; stands and terrain block (Casting Spells); a
 * Wizard alone sees nothing here (a simplification: in a battle every
 * character stands with a unit). With it, the other costly test: whether a
 * unit a spell moves as if ordered has a plan that still moves it. */
static bool seen_by(const om_wm_turn *turn, const om_wm_table *t, const om_wm_magic_turn *m,
                    unsigned c, const om_wm_spell *sp, unsigned u)
{
    const int j = t->character[c].joined;
    if (sp->effect == OM_WM_SPELL_MOVE && !om_wm_command_may_move_as_ordered(m->setup, t, u))
        return false;
    return !sp->sight ||
           (j >= 0 && om_wm_table_sees(t, turn->command.rules, (unsigned)j, u, true));
}

/* Whether unit u is a target spell `sp` of Wizard c may be cast on. */
static bool eligible(const om_wm_turn *turn, const om_wm_table *t, om_wm_magic_turn *m,
                     unsigned c, unsigned k, const om_wm_spell *sp, unsigned u)
{
    return eligible_unseen(turn, t, m, c, k, sp, u) && seen_by(turn, t, m, c, sp, u);
}

/* The policy's worth of lasting spell `sp` on unit u: the worth of each kind
 * it sets that is not in force on u already and would change it, when an
 * enemy of u stands within POLICY_LASTING_REACH_CM. */
/* Whether an enemy of unit u that causes terror, by its rules or a spell,
 * stands within POLICY_LASTING_REACH_CM of it. */
static bool terror_near(const om_wm_turn *turn, const om_wm_table *t, unsigned u)
{
    for (unsigned e = 0; e < t->units; e++)
        if (t->unit[e].present && t->unit[e].side != t->unit[u].side &&
            (turn->unit[e].side.unit.traits.terror ||
             (t->unit[e].lasting.kinds & OM_WM_LASTING_TERROR)) &&
            om_wm_table_distance(t, u, e) <= POLICY_LASTING_REACH_CM)
            return true;
    return false;
}

/* Of the kinds `kinds` a spell would set on unit u, those that would change
 * it: not a save, or armour, no better than its own; not terror for a unit
 * that causes it already; not immunity to terror for a unit immune already
 * or with no terrifying enemy near. */
static unsigned kinds_that_change(const om_wm_turn *turn, const om_wm_table *t,
                                  const om_wm_spell *sp, unsigned u, unsigned kinds)
{
    const om_wm_unit *v = &turn->unit[u].side.unit;
    if ((kinds & OM_WM_LASTING_SAVE) && v->armour != 0 && v->armour <= sp->amount)
        kinds &= ~(unsigned)OM_WM_LASTING_SAVE;
    if ((kinds & OM_WM_LASTING_ARMOUR) && v->armour != 0 &&
        (int)v->armour + v->traits.save_delta_melee <= (int)sp->amount)
        kinds &= ~(unsigned)OM_WM_LASTING_ARMOUR;
    if ((kinds & OM_WM_LASTING_TERROR) && v->traits.terror)
        kinds &= ~(unsigned)OM_WM_LASTING_TERROR;
    if ((kinds & OM_WM_LASTING_FEARLESS) &&
        (v->traits.ignores_terror || !terror_near(turn, t, u)))
        kinds &= ~(unsigned)OM_WM_LASTING_FEARLESS;
    return kinds;
}

/* The policy's worth of the lasting or Combat phase kinds `kinds`. */
static double kinds_worth(unsigned kinds)
{
    double worth = 0.0;
    for (unsigned i = 0; i < POLICY_LASTING_KINDS; i++)
        if (kinds >> i & 1u)
            worth += policy_lasting_worth[i];
    return worth;
}

static double lasting_worth(const om_wm_turn *turn, const om_wm_table *t, const om_wm_spell *sp,
                            unsigned u)
{
    const om_wm_table_unit *un = &t->unit[u];
    unsigned kinds = sp->lasting & ~(unsigned)un->lasting.kinds;
    if (sp->aura)
        kinds = sp->lasting; /* an aura is the Wizard's, not the unit's */
    kinds = kinds_that_change(turn, t, sp, u, kinds);
    if (kinds == 0 || !om_wm_table_enemy_within(t, u, POLICY_LASTING_REACH_CM))
        return 0.0;
    return kinds_worth(kinds);
}

/* The policy's worth of a spell's Combat phase kinds on unit u (engaged: the
 * mechanisms that set them want it so), those not set on it already this
 * turn and that would change it. */
static double phase_worth(const om_wm_turn *turn, const om_wm_table *t,
                          const om_wm_magic_turn *m, const om_wm_spell *sp, unsigned u)
{
    unsigned kinds = sp->phase & ~(unsigned)m->phase[u];
    if (kinds == 0)
        return 0.0;
    /* A lasting spell already in force on it gives the same. */
    kinds &= ~(unsigned)t->unit[u].lasting.kinds;
    return kinds_worth(kinds_that_change(turn, t, sp, u, kinds));
}

/* The policy's worth of more volleys by friendly unit u: the expected stands
 * its front rank takes from the closest enemy it sees in range, its shots at
 * the usual score `amount` worse and the usual save, per added volley. */
static double volley_worth(const om_wm_turn *turn, const om_wm_table *t, const om_wm_spell *sp,
                           unsigned u)
{
    const om_wm_table_unit *un = &t->unit[u];
    const om_wm_unit *me = &turn->unit[u].side.unit;
    const bool all_round =
        (un->traits & (OM_WM_TABLE_TRAIT_ALL_ROUND | OM_WM_TABLE_TRAIT_SKIRMISH)) != 0;
    unsigned to_hit, save;
    double cm;
    om_wm_side s;
    const int e = om_wm_table_closest_visible_enemy(t, turn->command.rules, u, all_round,
                                                    un->range_cm, OM_WM_TABLE_SKIP_ENGAGED, &cm);
    if (e < 0)
        return 0.0;
    target_side(turn, t, (unsigned)e, &s);
    to_hit = om_wm_lasting_to_hit(t, (unsigned)e, om_wm_to_hit_score(turn->rules, &s)) + sp->amount;
    save = om_wm_save_score(&s.unit, true);
    if (to_hit > D6_BEST_WORST)
        to_hit = D6_BEST_WORST;
    return (double)sp->attacks * un->stands * me->shots * om_dice_test_probability(to_hit, save) /
           (s.unit.hits > 0 ? s.unit.hits : 1.0);
}

/* Expected stands' worth of damage of spell `sp` on unit u (the policy). */
static double damage_of(const om_wm_turn *turn, const om_wm_table *t,
                        const om_wm_magic_turn *m, const om_wm_spell *sp, unsigned u)
{
    const om_wm_unit *v = &turn->unit[u].side.unit;
    const double attacks = sp->d3 ? sp->attacks * D3_MEAN : sp->attacks;
    const double hits = v->hits > 0 ? v->hits : 1.0;
    unsigned to_hit, save;
    switch (sp->effect) {
    case OM_WM_SPELL_MISSILE:
    case OM_WM_SPELL_BURST:
        spell_scores(turn, t, sp, u, &to_hit, &save);
        return attacks * om_dice_test_probability(to_hit, save) / hits;
    case OM_WM_SPELL_BOOST:
    case OM_WM_SPELL_WEAKEN:
        return attacks * (sp->per_stand ? t->unit[u].stands : 1u) * POLICY_COMBAT_HIT_CHANCE /
                   POLICY_COMBAT_HITS +
               phase_worth(turn, t, m, sp, u);
    case OM_WM_SPELL_COMBAT:
        return phase_worth(turn, t, m, sp, u);
    case OM_WM_SPELL_PUSH:
        return om_wm_table_enemy_within(t, u, POLICY_LASTING_REACH_CM) ? POLICY_PUSH_WORTH
                                                                       : 0.0;
    case OM_WM_SPELL_SHATTER:
        return v->hits >= D6_FACES ? 0.0 : (double)(D6_FACES - v->hits) / D6_FACES;
    case OM_WM_SPELL_LASTING:
        return lasting_worth(turn, t, sp, u);
    case OM_WM_SPELL_VOLLEY:
        return volley_worth(turn, t, sp, u);
    case OM_WM_SPELL_MOVE:
        return POLICY_MOVE_WORTH;
    default:
        return 0.0;
    }
}

/* Whether a spell falls on every eligible unit in range, not one. */
static bool area_spell(const om_wm_spell *sp)
{
    return sp->effect == OM_WM_SPELL_BURST || sp->aura ||
           ((sp->effect == OM_WM_SPELL_BOOST || sp->effect == OM_WM_SPELL_LASTING) &&
            sp->all_in_range);
}

/* ---- Effects ---- */

/* The Combat phase kinds of spell `sp` on unit u (om_wm_magic_combat_side):
 * of two armour spells, the better best. */
static void set_phase(const om_wm_spell *sp, unsigned u, om_wm_magic_turn *m)
{
    m->phase[u] |= sp->phase;
    if ((sp->phase & OM_WM_LASTING_ARMOUR) &&
        (m->phase_armour[u] == 0 || sp->amount < m->phase_armour[u]))
        m->phase_armour[u] = sp->amount;
}

/* Unit u driven back by spell `sp` (OM_WM_SPELL_PUSH; Orc lists, Gerroff!!!:
 * "driven back 5 x D6cm towards its own table edge. This is treated in the
 * same way as a drive back from shooting, except that the direction is
 * established by determining the shortest route to the table edge. A unit
 * cannot be routed"): the dice of that many hits less the defended discount,
 * any 6 confusing, into what lies that way (stands lost where it is blocked,
 * the off-table roll at the edge), at once; units never driven back by
 * shooting stay. No hits: no stand is lost to the spell itself. */
static void push(const om_wm_turn *turn, om_wm_table *t, const om_wm_spell *sp, unsigned u,
                 om_dice *d, om_wm_magic_turn *m)
{
    static const om_wm_traits plain_driver;
    om_wm_table_unit *un = &t->unit[u];
    const om_wm_vec home = {0.0, un->side == 0 ? -1.0 : 1.0};
    const unsigned stands = un->stands;
    om_wm_table_move_rule rule = {.enemy_gap_cm = PUSH_ENEMY_GAP_CM, .target = -1};
    om_wm_table_behind behind;
    om_wm_volley_result v;
    om_wm_side side;
    target_side(turn, t, u, &side);
    om_wm_table_behind_along(t, turn->command.rules, u, home, PUSH_REACH_CM, &behind);
    side.behind = behind.kind;
    side.behind_cm = (uint8_t)(behind.cm < UINT8_MAX ? behind.cm : UINT8_MAX);
    side.behind_stands = behind.stands;
    /* Never routed: no drive back of these dice exceeds this pace. */
    side.unit.pace_cm = UINT8_MAX;
    memset(&v, 0, sizeof v);
    v.hits = sp->attacks;
    om_wm_drive_back_at(turn->rules, d, &side, &plain_driver, stands, stands, 0, &v);
    v.hurt = false;
    if (v.off_table || v.stands_lost >= stands) {
        un->stands = 0;
        un->present = false;
        memset(m->engaged, -1, t->units * sizeof m->engaged[0]);
        om_wm_table_update(t, u);
        return;
    }
    un->stands = (uint8_t)(stands - v.stands_lost);
    un->confused |= v.confused;
    om_wm_table_update(t, u);
    if (v.drive_back_cm > 0 && !side.unit.traits.no_drive_back &&
        side.unit.traits.static_machine == OM_WM_NOT_STATIC &&
        side.formation != OM_WM_FORMATION_LAAGER) {
        const om_wm_vec goal = {un->centre.x + home.x * v.drive_back_cm,
                                un->centre.y + home.y * v.drive_back_cm};
        (void)om_wm_table_move(t, turn->command.rules, u, goal, v.drive_back_cm, &rule, NULL);
        om_wm_lasting_moved(t, u);
        memset(m->engaged, -1, t->units * sizeof m->engaged[0]);
    }
}

/* Spell `sp` of Wizard c takes effect on unit u. */
static void resolve_on(const om_wm_turn *turn, const om_wm_dice_kit *kit, om_wm_table *t,
                       unsigned c, const om_wm_spell *sp, unsigned u, om_dice *d,
                       om_wm_magic_turn *m)
{
    om_wm_table_unit *un = &t->unit[u];
    unsigned n = sp->attacks, to_hit, save, hits;
    om_dice_test test;
    switch (sp->effect) {
    case OM_WM_SPELL_MISSILE:
    case OM_WM_SPELL_BURST:
        if (sp->d3) {
            n = 0;
            for (unsigned i = 0; i < sp->attacks; i++)
                n += (om_dice_roll_d6(d) + 1u) / 2u;
        }
        spell_scores(turn, t, sp, u, &to_hit, &save);
        om_wm_dice_kit_test(kit, to_hit, save, &test);
        hits = om_dice_hits(d, &test, n);
        if (sp->drive_back && t->character[c].joined >= 0) {
            /* The Wizard's unit drives it back: the closest Wizard's, as for
             * the closest shooter (Driving Back Enemies). */
            const unsigned j = (unsigned)t->character[c].joined;
            m->hits[u] = om_wm_sat8(m->hits[u] + hits);
            if (m->driver[u] < 0 ||
                om_wm_table_distance(t, j, u) < om_wm_table_distance(t, (unsigned)m->driver[u], u))
                m->driver[u] = (int8_t)j;
        } else {
            m->quiet_hits[u] = om_wm_sat8(m->quiet_hits[u] + hits);
        }
        break;
    case OM_WM_SPELL_BOOST:
    case OM_WM_SPELL_WEAKEN: {
        const int sign = sp->effect == OM_WM_SPELL_BOOST ? 1 : -1;
        if (sp->per_stand) {
            const int a = m->stand_attacks[u] + sign * (int)sp->attacks;
            m->stand_attacks[u] = (int8_t)(a > INT8_MAX ? INT8_MAX : a < INT8_MIN ? INT8_MIN : a);
        } else {
            m->unit_attacks[u] = om_wm_sat8(m->unit_attacks[u] + sp->attacks);
        }
        /* "Every stand, including characters that have joined the unit": a
         * joined character's bonus grows as a stand's Attacks do. */
        for (unsigned j = 0; sign > 0 && sp->with_characters && j < t->characters; j++)
            if (t->character[j].joined == (int)u)
                m->unit_attacks[u] = om_wm_sat8(m->unit_attacks[u] + sp->attacks);
        set_phase(sp, u, m);
        break;
    }
    case OM_WM_SPELL_COMBAT:
        /* Read as the unit's side is built for this Combat phase
         * (om_wm_magic_combat_side). */
        set_phase(sp, u, m);
        break;
    case OM_WM_SPELL_PUSH:
        push(turn, t, sp, u, d, m);
        break;
    case OM_WM_SPELL_MOVE:
        /* Moved by the turn once every Wizard has cast (turn.c), with the
         * Wizard when the spell says so. */
        om_wm_unit_set_add(&m->moves, u);
        if (sp->with_caster)
            m->mover[u] = (int8_t)c;
        break;
    case OM_WM_SPELL_VOLLEY:
        /* Shot by the turn after the unit's own volley (turn.c). */
        m->volleys[u] = om_wm_sat8(m->volleys[u] + sp->attacks);
        m->volley_penalty[u] = sp->amount;
        break;
    case OM_WM_SPELL_LASTING:
        /* Set on the unit until the caster's next turn (om_wm_lasting_expire). */
        un->lasting.kinds |= sp->lasting;
        if ((sp->lasting & OM_WM_LASTING_COMMAND) && sp->amount > un->lasting.command)
            un->lasting.command = sp->amount;
        if ((sp->lasting & OM_WM_LASTING_SAVE) &&
            (un->lasting.save == 0 || sp->amount < un->lasting.save))
            un->lasting.save = sp->amount;
        break;
    case OM_WM_SPELL_SHATTER:
        /* Roll a D6: above the target's Hits, one stand is destroyed and removed
         * (Kislev lists, Freeze); never driven back. */
        if (om_dice_roll_d6(d) > turn->unit[u].side.unit.hits && un->stands > 0) {
            un->stands--;
            if (un->stands == 0) {
                /* Gone: its enemies may no longer be engaged. */
                un->present = false;
                memset(m->engaged, -1, t->units * sizeof m->engaged[0]);
            }
            om_wm_table_update(t, u);
        }
        break;
    default:
        break;
    }
}

/* Whether an enemy anti-magic character within reach of Wizard c dispels his
 * spell: one attempt per spell, whoever makes it (Dwarf lists, Runesmith). */
static bool anti_magicked(const om_wm_spellbook *b, const om_wm_table *t, unsigned c, om_dice *d)
{
    const om_wm_table_character *ch = &t->character[c];
    for (unsigned r = 0; r < t->characters; r++) {
        const om_wm_table_character *rs = &t->character[r];
        double dx, dy;
        if (!b->anti_magic[r] || rs->side == ch->side || !character_present(t, r))
            continue;
        dx = rs->at.x - ch->at.x;
        dy = rs->at.y - ch->at.y;
        if (sqrt(dx * dx + dy * dy) - rs->radius_cm - ch->radius_cm >
            OM_WM_ANTI_MAGIC_CM + OM_WM_TABLE_TOUCH_CM)
            continue;
        return om_dice_roll_d6(d) >= OM_WM_ANTI_MAGIC_SCORE;
    }
    return false;
}

/* Wizard c chooses his spell and its target (-1: every eligible unit); the
 * spell's index, or -1 when none has an eligible target. *worth is the
 * chosen spell's expected worth in stands, should it work. The chance to
 * cast counts his spellbinding (a -1 is one more to roll). */
static int choose(const om_wm_turn *turn, const om_wm_table *t, om_wm_magic_turn *m,
                  unsigned c, int *target, double *worth)
{
    const om_wm_spellbook *b = &turn->magic;
    const unsigned side = t->character[c].side;
    double best = 0.0;
    int best_k = -1;
    for (unsigned k = 0; k < b->n[side]; k++) {
        const om_wm_spell *sp = &b->spell[side][k];
        const double p = om_wm_spell_cast_chance(sp->cast + t->character[c].spellbound);
        double area = 0.0;
        int one = -1;
        double one_value = 0.0;
        if (!(b->knows[c] >> k & 1u) || sp->effect == OM_WM_SPELL_NOT_MODELLED)
            continue;
        for (unsigned u = 0; u < t->units; u++) {
            double v;
            if (!eligible_unseen(turn, t, m, c, k, sp, u))
                continue;
            v = damage_of(turn, t, m, sp, u);
            /* Sight, the costly test, only for a target that would count. */
            if (area_spell(sp) ? !seen_by(turn, t, m, c, sp, u)
                               : v <= one_value || !seen_by(turn, t, m, c, sp, u))
                continue;
            area += v;
            if (v > one_value) {
                one_value = v;
                one = (int)u;
            }
        }
        if (area_spell(sp) ? p * area > best : p * one_value > best) {
            best = area_spell(sp) ? p * area : p * one_value;
            best_k = (int)k;
            *target = area_spell(sp) ? -1 : one;
            *worth = area_spell(sp) ? area : one_value;
        }
    }
    return best_k;
}

/* An enemy Staff of Spellbinding after Wizard c failed his casting roll: the
 * first enemy character (index order) on the table whose Staff is not spent
 * rolls a D6, spellbinding him on OM_WM_SPELLBIND_SCORE or more, the Staff
 * then spent (Magic Items > Staff of Spellbinding: "only one enemy Wizard can
 * be spellbound"); a Wizard spellbound already is left alone. Returns
 * whether he was spellbound now. */
static bool spellbind(const om_wm_spellbook *b, om_wm_table *t, unsigned c, om_dice *d)
{
    om_wm_table_character *ch = &t->character[c];
    if (ch->spellbound != 0)
        return false;
    for (unsigned r = 0; r < t->characters; r++) {
        om_wm_table_character *holder = &t->character[r];
        if (holder->side == ch->side || !(b->devices[r] & ~holder->spent & OM_WM_DEVICE_STAFF) ||
            !character_present(t, r))
            continue;
        if (om_dice_roll_d6(d) < OM_WM_SPELLBIND_SCORE)
            return false;
        ch->spellbound = 1;
        holder->spent |= OM_WM_DEVICE_STAFF;
        return true;
    }
    return false;
}

/* An enemy Scroll of Dispelling read against Wizard c's spell that works:
 * the first enemy character (index order) on the table whose Scroll is not
 * spent reads it, and it is spent (Magic Items > Scroll of Dispelling).
 * Returns whether a Scroll was read. */
static bool scroll_read(const om_wm_spellbook *b, om_wm_table *t, unsigned c)
{
    for (unsigned r = 0; r < t->characters; r++) {
        om_wm_table_character *holder = &t->character[r];
        if (holder->side == t->character[c].side ||
            !(b->devices[r] & ~holder->spent & OM_WM_DEVICE_SCROLL) || !character_present(t, r))
            continue;
        holder->spent |= OM_WM_DEVICE_SCROLL;
        return true;
    }
    return false;
}

/* The device Wizard c spends on casting spell `sp`, by the policy: his Ring
 * of Magic, else his Wand of Power, on the first spell he casts that needs
 * POLICY_DEVICE_CAST or more (his spellbinding counted); else none. */
static unsigned device_for(const om_wm_spellbook *b, const om_wm_table *t, unsigned c,
                           const om_wm_spell *sp)
{
    const unsigned ready = b->devices[c] & ~(unsigned)t->character[c].spent;
    if (sp->cast + t->character[c].spellbound < POLICY_DEVICE_CAST)
        return 0u;
    return (ready & OM_WM_DEVICE_RING) ? (unsigned)OM_WM_DEVICE_RING
                                        : ready & (unsigned)OM_WM_DEVICE_WAND;
}

void om_wm_magic_phase(const om_wm_turn *turn, const om_wm_dice_kit *kit, om_wm_table *t,
                       unsigned side, om_dice *d, om_wm_magic_turn *m, om_wm_trace *trace)
{
    const om_wm_spellbook *b = &turn->magic;
    memset(m->engaged, -1, t->units * sizeof m->engaged[0]);
    for (unsigned c = 0; c < t->characters; c++) {
        om_wm_table_character *ch = &t->character[c];
        /* A second cast only by a Rod of Repetition, after a roll that worked. */
        bool again = true;
        if (ch->side != side || b->knows[c] == 0 || !character_present(t, c))
            continue;
        for (unsigned pass = 0; again && pass < 2; pass++) {
            const om_wm_spell *sp;
            int k, target = -1;
            double worth = 0.0;
            unsigned used;
            again = false;
            if ((k = choose(turn, t, m, c, &target, &worth)) < 0)
                break;
            sp = &b->spell[side][k];
            /* A Rod earned is spent when its second spell is chosen: a Wizard
             * with nothing left to cast on keeps it. */
            used = device_for(b, t, c, sp) | (pass > 0 ? (unsigned)OM_WM_DEVICE_ROD : 0u);
            m->cast++;
            {
                /* The casting roll (none with the Ring of Magic), its die kept
                 * for the trace; the Wand's +1 and a spellbinding's -1. */
                const unsigned penalty = ch->spellbound;
                const unsigned face = (used & OM_WM_DEVICE_RING) ? 0u : om_dice_roll_d6(d);
                const bool rolled = face != 0u &&
                                    om_wm_spell_casts_modified(
                                        face, sp->cast,
                                        ((used & OM_WM_DEVICE_WAND) ? 1 : 0) - (int)penalty);
                const bool cast = rolled || (used & OM_WM_DEVICE_RING);
                bool dispelled = cast && anti_magicked(b, t, c, d);
                ch->spent |= (uint8_t)used;
                if (!cast && spellbind(b, t, c, d))
                    used |= OM_WM_DEVICE_STAFF;
                /* The Scroll against a spell worth reading it on (the policy). */
                if (cast && !dispelled && worth >= POLICY_SCROLL_WORTH && scroll_read(b, t, c)) {
                    dispelled = true;
                    used |= OM_WM_DEVICE_SCROLL;
                }
                /* "So long as the required dice score is rolled", dispelled or
                 * not: the Rod's second spell, once the first is resolved. */
                again = rolled && pass == 0 && (b->devices[c] & ~ch->spent & OM_WM_DEVICE_ROD);
                if (trace != NULL) {
                    om_wm_event e = om_wm_event_make(trace, OM_WM_EV_SPELL, target, (int)c);
                    e.v[0] = (int16_t)k;
                    e.v[1] = (int16_t)sp->cast;
                    e.v[2] = dispelled;
                    e.v[3] = (int16_t)used;
                    e.dice[0] = (uint8_t)face;
                    e.dice[1] = (uint8_t)penalty;
                    e.flags = cast ? OM_WM_EVF_PASSED : 0;
                    om_wm_trace_put(trace, &e);
                }
                if (!cast)
                    continue;
                if (dispelled) {
                    m->dispelled++;
                    continue;
                }
            }
            m->worked++;
            /* A unit is affected by the same spell once a turn (Casting Spells). */
            if (target >= 0) {
                om_wm_unit_set_add(&m->affected[k], (unsigned)target);
                resolve_on(turn, kit, t, c, sp, (unsigned)target, d, m);
                continue;
            }
            if (sp->aura) {
                /* Cast on the Wizard himself: his aura reaches enemy units as
                 * each order is given to them (om_wm_lasting_command). */
                om_wm_table_lasting *a = &ch->aura;
                a->kinds |= sp->lasting;
                a->command = sp->amount > a->command ? sp->amount : a->command;
                a->aura_cm = sp->range_cm > a->aura_cm ? sp->range_cm : a->aura_cm;
                continue;
            }
            for (unsigned u = 0; u < t->units; u++) {
                if (!eligible(turn, t, m, c, (unsigned)k, sp, u))
                    continue;
                om_wm_unit_set_add(&m->affected[k], u);
                resolve_on(turn, kit, t, c, sp, u, d, m);
            }
        }
    }
}

/* ---- Lasting effects ---- */

void om_wm_lasting_expire(om_wm_table *t, unsigned side)
{
    for (unsigned u = 0; u < t->units; u++) {
        om_wm_table_lasting *l = &t->unit[u].lasting;
        if (l->kinds == 0)
            continue;
        l->kinds &= (uint16_t)~(t->unit[u].side == side ? (unsigned)OM_WM_LASTING_FRIENDLY
                                                        : (unsigned)OM_WM_LASTING_HOSTILE);
        if (!(l->kinds & OM_WM_LASTING_COMMAND))
            l->command = 0;
        if (!(l->kinds & OM_WM_LASTING_SAVE))
            l->save = 0;
    }
    for (unsigned c = 0; c < t->characters; c++)
        if (t->character[c].side == side)
            t->character[c].aura = (om_wm_table_lasting){0};
}

unsigned om_wm_lasting_command(const om_wm_table *t, const unsigned *u, unsigned n)
{
    unsigned worst = 0;
    for (unsigned i = 0; i < n; i++) {
        const om_wm_table_unit *un = &t->unit[u[i]];
        const unsigned own =
            (un->lasting.kinds & OM_WM_LASTING_COMMAND) ? un->lasting.command : 0u;
        unsigned aura = 0;
        for (unsigned c = 0; c < t->characters; c++) {
            const om_wm_table_character *ch = &t->character[c];
            if (ch->aura.aura_cm == 0 || ch->side == un->side || ch->aura.command <= aura ||
                !character_present(t, c) ||
                !om_wm_table_character_within(t, c, u[i],
                                              ch->aura.aura_cm + OM_WM_TABLE_TOUCH_CM))
                continue;
            aura = ch->aura.command;
        }
        if (own + aura > worst)
            worst = own + aura;
    }
    return worst;
}

bool om_wm_lasting_initiative(const om_wm_table *t, unsigned u)
{
    return !(t->unit[u].lasting.kinds & OM_WM_LASTING_NO_INITIATIVE);
}

bool om_wm_lasting_may_charge(const om_wm_table *t, unsigned u)
{
    return !(t->unit[u].lasting.kinds & OM_WM_LASTING_NO_CHARGE);
}

void om_wm_lasting_side(const om_wm_table *t, unsigned u, om_wm_side *s)
{
    const om_wm_table_lasting *l = &t->unit[u].lasting;
    if (l->kinds == 0)
        return;
    /* "Counts as Defended, even if it is in open terrain"; Sanctuary: "If the
     * unit is already defended, it counts as fortified". */
    if (l->kinds & OM_WM_LASTING_DEFENDED) {
        if (s->position == OM_WM_DEFENDED && (l->kinds & OM_WM_LASTING_FORTIFIED))
            s->position = OM_WM_FORTIFIED;
        else if (s->position == OM_WM_OPEN)
            s->position = OM_WM_DEFENDED;
    }
    /* "If the unit already has a saving roll then it can choose which one to
     * make": the better. */
    if ((l->kinds & OM_WM_LASTING_SAVE) && (s->unit.armour == 0 || s->unit.armour > l->save))
        s->unit.armour = l->save;
    if (l->kinds & OM_WM_LASTING_NO_CHARGE)
        s->no_pursue = true;
    if (l->kinds & OM_WM_LASTING_STEADY) {
        s->unit.traits.no_drive_back = true;
        s->unit.traits.never_confused = true;
    }
    if (l->kinds & OM_WM_LASTING_TERROR)
        s->unit.traits.terror = true;
    if (l->kinds & OM_WM_LASTING_FEARLESS)
        s->unit.traits.ignores_terror = true;
}

void om_wm_magic_combat_side(const om_wm_magic_turn *m, unsigned u, om_wm_side *s)
{
    const unsigned kinds = m->phase[u];
    if (kinds == 0)
        return;
    if (kinds & OM_WM_LASTING_TERROR)
        s->unit.traits.terror = true;
    if (kinds & OM_WM_LASTING_FEARLESS)
        s->unit.traits.ignores_terror = true;
    /* "0 counts as 6+, 6+ as 5+ and 5+ as 4+. If the unit's Armour value is
     * already 4+, or another bonus brings it to 4+, this spell has no
     * effect" (Shield of the Old Ones): its armour in combat, with the
     * combat bonus of its rules, at the best already is left as it is. */
    if (kinds & OM_WM_LASTING_ARMOUR) {
        const unsigned a = s->unit.armour;
        if (a == 0)
            s->unit.armour = D6_FACES;
        else if ((int)a + s->unit.traits.save_delta_melee > (int)m->phase_armour[u])
            s->unit.armour = (uint8_t)(a - 1u);
    }
}

unsigned om_wm_lasting_to_hit(const om_wm_table *t, unsigned u, unsigned to_hit)
{
    if (!(t->unit[u].lasting.kinds & OM_WM_LASTING_SHOT_AT) || to_hit >= D6_BEST_WORST)
        return to_hit;
    return to_hit + 1u;
}

void om_wm_lasting_moved(om_wm_table *t, unsigned u)
{
    t->unit[u].lasting.kinds &=
        (uint16_t)~(unsigned)(OM_WM_LASTING_DEFENDED | OM_WM_LASTING_FORTIFIED);
}
