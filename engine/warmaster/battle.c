/*
 * battle.c: a whole Warmaster battle on one table (battle.h): the first-turn
 * roll and the length, both sides' turns in order through the whole-turn
 * engine (om_wm_turn_play), withdrawal at the break point or on the General's
 * death, and the verdict. What a battle needs of the table and the units is
 * worked out once, when it is prepared; a battle allocates, formats and
 * checks nothing.
 */
#include "battle.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "battlefield.h"
#include "check.h"
#include "enumerate.h"
#include "rng.h"
#include "wm_int.h"

struct om_wm_battle_prepared {
    om_wm_turn_prepared *turn;                 /* the table, units, side A's plans */
    om_wm_command_setup plans[2];              /* each side's standing plans */
    om_wm_battle_options options;              /* length, first side, points */
    om_wm_ruleset_id rules;                    /* rule set */
    unsigned units;                            /* units on the table */
    unsigned break_halves[2];                  /* each army's break point */
    int general[2];                            /* each side's General, or -1 */
    uint8_t start_stands[OM_WM_TABLE_MAX_UNITS]; /* stands as the battle starts */
    bool counts[OM_WM_TABLE_MAX_UNITS];        /* counts toward its army's break point */
    bool double_loss[OM_WM_TABLE_MAX_UNITS];   /* destroyed, counts as two units lost */
    om_wm_doctrine_odds odds;                  /* what the doctrines read */
    double zone_cm;                            /* depth of each deployment zone */
    unsigned closed_weight[2][OM_WM_TERRAIN_KIND_COUNT]; /* each army's units that
                                                  cannot enter each kind of terrain
                                                  (om_wm_battlefield_closed_weights) */
    om_wm_battle_prepared *drawn;              /* the deployment of the roll's outcome
                                                  favouring side B, or NULL: the battle
                                                  draws no deployment (owned) */
    om_wm_deploy_plan draw;                    /* with drawn: the roll */
    unsigned draw_n[2];                        /* with drawn: each army's units */
    uint8_t canon[OM_WM_TABLE_MAX_UNITS];      /* with drawn: each unit of drawn's table
                                                  by its index in this one */
};

/* The fixed seed of the trials behind the doctrines' odds where their law is
 * not enumerated: one stream for every pair, so that two pairs of the same
 * values get the same odds whatever their places on the table. */
#define ODDS_SEED 0x0dd5u

/* Most outcomes of a first round's dice enumerated for its exact odds. */
#define ODDS_RUNS_MAX (UINT64_C(1) << 16)

/* The probability that side A of engagement e (checked) wins its first
 * round, exactly, by enumerating every outcome of its dice (enumerate.h),
 * into *odds. Enumerated dice read only each dice test's probability, so the
 * engagement is prepared without the alias tables that trials would draw
 * from (om_wm_prepare_alloc_dice with one die: most of a full preparation's
 * cost); the law is the same. Errors: OM_ENOMEM, and any error of the
 * enumeration (more outcomes than ODDS_RUNS_MAX). */
static om_status enumerated_odds(const om_wm_engagement *e, float *odds)
{
    om_wm_prepared *pe = NULL;
    om_enum *en = NULL;
    om_dice d = {.plain = NULL};
    bool more = true;
    double p, win = 0;
    om_status st = om_wm_prepare_alloc_dice(e, 1, &pe);
    if (st == OM_OK)
        st = om_enum_alloc(ODDS_RUNS_MAX, &en);
    if (st == OM_OK) {
        om_enum_start(en, &d);
        while (more && st == OM_OK) {
            om_wm_outcome o;
            om_wm_resolve(pe, &d, &o);
            if ((st = om_enum_next(en, &d, &p, &more)) == OM_OK && o.winner == OM_WM_SIDE_A)
                win += p;
        }
    }
    om_enum_free(en);
    om_wm_prepared_free(pe);
    *odds = (float)win;
    return st;
}

/* The probability that side A of engagement e (checked) wins its first round:
 * exactly (enumerated_odds), or, with more outcomes than ODDS_RUNS_MAX, from
 * OM_WM_DOCTRINE_ODDS_TRIALS trials on the fixed stream, the engagement then
 * prepared in full for them. Either way a function of the two units' values
 * alone; -1 when the engagement cannot be prepared. */
static float first_round_odds(const om_wm_engagement *e)
{
    om_wm_prepared *pe = NULL;
    om_dice d = {.plain = NULL};
    unsigned wins = 0;
    float odds;
    if (enumerated_odds(e, &odds) == OM_OK)
        return odds;
    om_error_clear(); /* too many outcomes: the estimate below is the answer */
    if (om_wm_prepare_alloc(e, &pe) != OM_OK) {
        om_error_clear(); /* a refused charge is an answer, not an error */
        return -1;
    }
    om_rng_seed_block(&d.rng, ODDS_SEED, 0);
    for (unsigned i = 0; i < OM_WM_DOCTRINE_ODDS_TRIALS; i++) {
        om_wm_outcome o;
        om_wm_resolve(pe, &d, &o);
        wins += o.winner == OM_WM_SIDE_A;
    }
    om_wm_prepared_free(pe);
    return (float)wins / OM_WM_DOCTRINE_ODDS_TRIALS;
}

/* The odds that unit u of turn t, charging v, wins the first round (Combat),
 * from the engagement engine; -1 when it refuses the charge (a unit that
 * never charges, or that cannot fight v). */
static float charge_odds(const om_wm_turn *t, unsigned u, unsigned v)
{
    om_wm_engagement e = {.rules = t->rules, .kind = OM_WM_KIND_COMBAT,
                          .side = {t->unit[u].side, t->unit[v].side}, .options = t->options};
    if ((t->table.unit[u].traits & OM_WM_TABLE_TRAIT_NO_CHARGE) != 0)
        return -1;
    e.side[0].charging = true;
    e.side[1].charging = false;
    if (om_wm_engagement_check(&e, NULL) != OM_OK) {
        om_error_clear(); /* a refused charge is an answer, not an error */
        return -1;
    }
    return first_round_odds(&e);
}

/* Whether units u and k of turn t fight alike: the same values as the
 * engagement engine takes them and the same table traits (a unit that never
 * charges). Their sides differ or not: the odds are of the values. */
static bool same_values(const om_wm_turn *t, unsigned u, unsigned k)
{
    return memcmp(&t->unit[u].side, &t->unit[k].side, sizeof t->unit[u].side) == 0 &&
           t->table.unit[u].traits == t->table.unit[k].traits;
}

/* Whether unit u counts toward its army's break point: every unit, but for
 * Warmaster Ancients' skirmishers without Armour (End of the Battle: "core
 * units are all troop units except skirmishing units with no Armour value"). */
static bool counts_toward_break(const om_wm_turn *t, unsigned u)
{
    return !(t->command.rules == OM_WM_RULES_WMA &&
             (t->table.unit[u].traits & OM_WM_TABLE_TRAIT_SKIRMISH) != 0 &&
             t->unit[u].side.unit.armour == 0);
}

/* The unit side s's General has joined as the battle starts, when its doctrine
 * protects him; else -1. */
static int protected_unit(const om_wm_turn *t, const om_wm_battle_options *o, unsigned s)
{
    if (o->doctrine[s] == NULL || !o->doctrine[s]->protect_general)
        return -1;
    for (unsigned c = 0; c < t->table.characters; c++)
        if (t->table.character[c].side == s && t->table.character[c].kind == OM_WM_GENERAL)
            return t->table.character[c].joined;
    return -1;
}

/* Prepare turn t for the battle of options o: a side whose doctrine protects
 * its General never pursues nor advances with the General's unit (pursuit and
 * advance are the winner's choice: Combat > Pursuit; Advance; the unit's
 * `pursue` choice, which the fixed reading advance_choice reads for advances
 * too). Units obliged to pursue still do (may_pursue). Errors: those of
 * om_wm_turn_prepare_alloc, OM_ENOMEM. */
static om_status prepare_turn(const om_wm_turn *t, const om_wm_battle_options *o,
                              om_wm_check_failure *why, om_wm_turn_prepared **out)
{
    const int kept[2] = {protected_unit(t, o, 0), protected_unit(t, o, 1)};
    om_wm_turn *copy;
    om_status st;
    if (kept[0] < 0 && kept[1] < 0)
        return om_wm_turn_prepare_alloc(t, why, out);
    if ((copy = malloc(sizeof *copy)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a prepared battle");
    *copy = *t;
    for (unsigned s = 0; s < 2; s++)
        if (kept[s] >= 0)
            copy->unit[kept[s]].side.pursue = OM_WM_PURSUE_NEVER;
    st = om_wm_turn_prepare_alloc(copy, why, out);
    free(copy);
    return st;
}

/* Whether scenario sc may be fought on table t: a known kind and version;
 * the tower a building of the table; given objectives clear places on it
 * (om_wm_objective_clear). Errors: OM_EINVAL, `why` filled. */
static om_status scenario_check(const om_wm_scenario_setup *sc, const om_wm_table *t,
                                om_wm_check_failure *why)
{
    if ((unsigned)sc->kind >= OM_WM_SCENARIO_COUNT ||
        (unsigned)sc->version >= OM_WM_SCENARIO_VERSION_COUNT)
        return om_check_fail(why, "scenario", "an unknown scenario or version");
    if (sc->kind == OM_WM_SCENARIO_TOWER &&
        (sc->tower < 0 || sc->tower >= t->terrain_pieces ||
         t->terrain[sc->tower].kind != OM_WM_TERRAIN_BUILDING))
        return om_check_fail(why, "scenario", "the tower must be a building of the table");
    if (sc->kind == OM_WM_SCENARIO_TAKE_AND_HOLD && sc->objectives_given)
        for (unsigned k = 0; k < OM_WM_OBJECTIVES; k++)
            if (!om_wm_objective_clear(t, sc->objective[k], 0))
                return om_check_fail_item(why, "objectives", (int)k, "", "an objective must "
                                          "stand on the table, in no dense or impassable "
                                          "terrain");
    return OM_OK;
}

om_status om_wm_battle_prepare_alloc(const om_wm_turn *t, const om_wm_command_setup *plans_b,
                                     const om_wm_battle_options *o, om_wm_check_failure *why,
                                     om_wm_battle_prepared **out)
{
    om_wm_battle_prepared *p;
    unsigned counted[2] = {0, 0}, present[2] = {0, 0};
    om_status st;

    *out = NULL;
    if (t->command.side != 0)
        return om_check_fail(why, "a.plans", "side A's plans must be for side A");
    if (plans_b->side != 1 || plans_b->rules != t->command.rules)
        return om_check_fail(why, "b.plans", "side B's plans must be for side B, in the "
                             "battle's rule set");
    if (o->length == NULL)
        return om_check_fail(why, "length", "no method of game length");
    if (o->length->by_d6[0] == 0 && o->length->last == 0 &&
        (o->fixed_turns < 1 || o->fixed_turns > OM_WM_BATTLE_TURNS_MAX))
        return om_check_fail(why, "turns", "a fixed length is 1 to %u battle turns (got %u)",
                             OM_WM_BATTLE_TURNS_MAX, o->fixed_turns);
    if (o->first < -1 || o->first > 1)
        return om_check_fail(why, "first", "the first side is rolled (-1), A (0) or B (1)");
    if (o->terrain_each_battle == OM_WM_TERRAIN_GIVEN ||
        (unsigned)o->terrain_each_battle >= OM_WM_TERRAIN_METHOD_COUNT)
        return om_check_fail(why, "terrain_method", "terrain laid out for each battle is "
                             "generated: dice-for-edges, symmetrical or random");
    if (o->side_chooser < -1 || o->side_chooser > 1)
        return om_check_fail(why, "deployment", "the side choosing its edge is none (-1), "
                             "A (0) or B (1)");
    if ((st = scenario_check(&o->scenario, &t->table, why)) != OM_OK)
        return st;
    if ((st = om_wm_command_check(plans_b, &t->table, why)) != OM_OK)
        return st;
    for (unsigned u = 0; u < t->table.units; u++)
        if (t->table.unit[u].present) {
            present[t->table.unit[u].side]++;
            counted[t->table.unit[u].side] += counts_toward_break(t, u);
        }
    if (present[0] == 0 || present[1] == 0)
        return om_check_fail(why, present[0] == 0 ? "a.units" : "b.units",
                             "an army needs at least one unit on the table");

    if ((p = calloc(1, sizeof *p)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a prepared battle");
    if ((st = prepare_turn(t, o, why, &p->turn)) != OM_OK) {
        free(p);
        return st;
    }
    p->plans[0] = t->command;
    p->plans[1] = *plans_b;
    p->options = *o;
    p->rules = t->command.rules;
    p->units = t->table.units;
    for (unsigned s = 0; s < 2; s++) {
        p->break_halves[s] = om_wm_break_point_halves(counted[s], o->break_extra[s]);
        p->general[s] = -1;
    }
    for (unsigned c = 0; c < t->table.characters; c++) {
        const om_wm_table_character *ch = &t->table.character[c];
        if (ch->kind == OM_WM_GENERAL && p->general[ch->side] < 0)
            p->general[ch->side] = (int)c;
    }
    for (unsigned u = 0; u < t->table.units; u++) {
        p->start_stands[u] = t->table.unit[u].present ? t->table.unit[u].stands : 0;
        p->counts[u] = counts_toward_break(t, u);
        p->double_loss[u] = o->double_loss[u];
        p->odds.points[u] = t->unit[u].side.unit.points;
        p->odds.may_support[u] = t->unit[u].side.unit.troop == OM_WM_INFANTRY &&
                                 !t->unit[u].side.unit.traits.no_support;
        p->odds.may_join[u] = !t->unit[u].side.unit.traits.no_character;
    }
    for (unsigned u = 0; u < t->table.units; u++)
        for (unsigned v = 0; v < t->table.units; v++)
            p->odds.win[u][v] = -1;
    p->zone_cm = om_wm_deploy_zone_cm(&t->table, p->rules);
    for (unsigned s = 0; s < 2; s++) {
        om_wm_unit army[OM_WM_TABLE_MAX_UNITS];
        unsigned n = 0;
        for (unsigned u = 0; u < t->table.units; u++)
            if (t->table.unit[u].present && t->table.unit[u].side == s)
                army[n++] = t->unit[u].side.unit;
        om_wm_battlefield_closed_weights(p->rules, army, n, p->closed_weight[s]);
    }
    if (o->doctrine[0] != NULL || o->doctrine[1] != NULL) {
        /* Units of the same values have the same odds: each unit's first
         * twin (its own index when it has none) is worked out once. */
        unsigned twin[OM_WM_TABLE_MAX_UNITS];
        for (unsigned u = 0; u < t->table.units; u++) {
            twin[u] = u;
            for (unsigned k = 0; k < u && twin[u] == u; k++)
                if (twin[k] == k && same_values(t, k, u))
                    twin[u] = k;
        }
        /* cache[a][b]: the odds of a unit like a charging one like b, by
         * their twins (a pair of twins may stand on one side). */
        float (*cache)[OM_WM_TABLE_MAX_UNITS] = malloc(sizeof(float[OM_WM_TABLE_MAX_UNITS]
                                                                  [OM_WM_TABLE_MAX_UNITS]));
        const float unknown = -2;
        if (cache == NULL) {
            om_wm_battle_prepared_free(p);
            return OM_ERROR(OM_ENOMEM, "out of memory for a battle's odds");
        }
        for (unsigned a = 0; a < t->table.units; a++)
            for (unsigned b = 0; b < t->table.units; b++)
                cache[a][b] = unknown;
        for (unsigned u = 0; u < t->table.units; u++)
            for (unsigned v = 0; v < t->table.units; v++) {
                float *c = &cache[twin[u]][twin[v]];
                if (t->table.unit[u].side == t->table.unit[v].side)
                    continue;
                if (*c == unknown)
                    *c = charge_odds(t, u, v);
                p->odds.win[u][v] = *c;
            }
        free(cache);
    }
    *out = p;
    return OM_OK;
}

void om_wm_battle_prepared_free(om_wm_battle_prepared *p)
{
    if (p == NULL)
        return;
    om_wm_battle_prepared_free(p->drawn);
    om_wm_turn_prepared_free(p->turn);
    free(p);
}

om_status om_wm_battle_draw_deployment(om_wm_battle_prepared *p, const om_wm_deploy_plan *plan,
                                       const unsigned n[2], om_wm_battle_prepared *other,
                                       const uint8_t canon[OM_WM_TABLE_MAX_UNITS],
                                       om_wm_check_failure *why)
{
    const om_wm_table *a = &om_wm_battle_turn(p)->table, *b;
    bool seen[OM_WM_TABLE_MAX_UNITS] = {false};
    om_wm_battle_prepared_free(p->drawn);
    p->drawn = other;
    if (other == NULL || !om_wm_deploy_rolls(plan, n))
        return om_check_fail(why, "deployment", "a deployment drawn for each battle needs "
                             "both outcomes of a method that rolls");
    b = &om_wm_battle_turn(other)->table;
    if (b->units != a->units || p->units != other->units)
        return om_check_fail(why, "deployment", "the two deployments hold %u and %u units",
                             a->units, b->units);
    for (unsigned u = 0; u < b->units; u++) {
        const unsigned v = canon[u];
        if (v >= a->units || seen[v] || a->unit[v].side != b->unit[u].side ||
            strcmp(a->unit[v].name, b->unit[u].name) != 0)
            return om_check_fail(why, "deployment", "unit %u of the second deployment is "
                                 "not a unit of the first", u);
        seen[v] = true;
    }
    p->draw = *plan;
    p->draw.outcome = 0;
    p->draw_n[0] = n[0];
    p->draw_n[1] = n[1];
    memcpy(p->canon, canon, sizeof p->canon);
    return OM_OK;
}

const om_wm_turn *om_wm_battle_turn_deployed(const om_wm_battle_prepared *p, unsigned outcome)
{
    return outcome == 1 && p->drawn != NULL ? om_wm_battle_turn(p->drawn) : om_wm_battle_turn(p);
}

bool om_wm_battle_draws_deployment(const om_wm_battle_prepared *p)
{
    return p->drawn != NULL;
}

const om_wm_doctrine_odds *om_wm_battle_odds(const om_wm_battle_prepared *p)
{
    return &p->odds;
}

int om_wm_battle_general(const om_wm_battle_prepared *p, unsigned s)
{
    return p->general[s];
}

const om_wm_turn *om_wm_battle_turn(const om_wm_battle_prepared *p)
{
    return om_wm_turn_of(p->turn);
}

/* A character is slain with the unit it is with (Generals, Wizards & Heroes:
 * "slain if the unit it is with is destroyed"), or alone (lone.h). */
static bool character_slain(const om_wm_table *t, unsigned c)
{
    return om_wm_table_character_gone(t, c);
}

void om_wm_battle_losses(const om_wm_battle_prepared *p, const om_wm_table *t, unsigned lost[2])
{
    lost[0] = lost[1] = 0;
    for (unsigned u = 0; u < p->units; u++) {
        const om_wm_table_unit *tu = &t->unit[u];
        if (p->start_stands[u] == 0)
            continue;
        lost[tu->side] += om_wm_break_loss_halves(p->rules, p->start_stands[u],
                                                  tu->present ? tu->stands : 0,
                                                  p->double_loss[u], p->counts[u]);
    }
}

/* Which armies must withdraw at the end of a turn, and why the battle ends
 * (OM_WM_END_COUNT: it goes on); each army's losses into lost[]. The General
 * first: his death ends it whatever the losses. */
static unsigned withdrawals(const om_wm_battle_prepared *p, const om_wm_table *t, bool out[2],
                            unsigned lost[2])
{
    unsigned why = OM_WM_END_COUNT;
    om_wm_battle_losses(p, t, lost);
    for (unsigned s = 0; s < 2; s++) {
        bool general = p->general[s] >= 0 && character_slain(t, (unsigned)p->general[s]);
        out[s] = general || lost[s] >= p->break_halves[s];
        if (general)
            why = OM_WM_END_GENERAL;
        else if (out[s] && why == OM_WM_END_COUNT)
            why = OM_WM_END_BREAK;
    }
    return why;
}

/* Each unit's victory points given up (r->vp_given, filled by judge) shared
 * among the enemy units that removed its stands, by the ledger `credit`
 * (credit.h): into r->vp_scored, the points of a unit no enemy unit removed a
 * stand of into the enemy side's r->vp_unattributed. */
static void attribute(const om_wm_battle_prepared *p, const om_wm_table *t,
                      const om_wm_credit *credit, om_wm_battle_result *r)
{
    memset(r->vp_scored, 0, p->units * sizeof r->vp_scored[0]);
    r->vp_unattributed[0] = r->vp_unattributed[1] = 0;
    for (unsigned u = 0; u < p->units; u++)
        if (r->vp_given[u] > 0 &&
            !om_wm_credit_share(credit->by[u], p->units, r->vp_given[u], r->vp_scored))
            r->vp_unattributed[1 - t->unit[u].side] += r->vp_given[u];
}

/* The victory points, losses and verdict of the battle as the table ends it
 * (lost[]: each army's losses toward its break point, from withdrawals), and
 * each unit's share of the points by the ledger `credit`. */
static void judge(const om_wm_battle_prepared *p, const om_wm_table *t, const bool out[2],
                  const unsigned lost[2], const om_wm_credit *credit, om_wm_battle_result *r)
{
    const om_wm_turn *turn = om_wm_turn_of(p->turn);
    om_wm_battle_side side[2];
    r->vp[0] = r->vp[1] = 0;
    r->units_lost[0] = r->units_lost[1] = 0;
    for (unsigned u = 0; u < p->units; u++) {
        const om_wm_table_unit *tu = &t->unit[u];
        const om_wm_unit *v = &turn->unit[u].side.unit;
        unsigned left = tu->present ? tu->stands : 0;
        unsigned gone = p->start_stands[u] > left ? p->start_stands[u] - left : 0;
        r->stands_lost[u] = (uint8_t)gone;
        r->destroyed[u] = p->start_stands[u] > 0 && !tu->present;
        r->units_lost[tu->side] += r->destroyed[u];
        r->vp_given[u] = om_wm_victory_points_lost(v->points, om_wm_unit_size(v),
                                                   p->start_stands[u], gone);
        r->vp[1 - tu->side] += r->vp_given[u];
    }
    /* A character slain is slain with the unit he was with: his points are
     * that unit's to give up; one slain alone (lone.h), the unit's he was on
     * his way to (every character has one in a battle: his unit as
     * deployed). */
    for (unsigned c = 0; c < t->characters; c++)
        if (character_slain(t, c)) {
            const int u = t->character[c].slain ? t->character[c].follow : t->character[c].joined;
            r->vp[1 - t->character[c].side] += p->options.character_points[c];
            if (u >= 0)
                r->vp_given[u] += p->options.character_points[c];
        }
    attribute(p, t, credit, r);
    for (unsigned s = 0; s < 2; s++) {
        r->withdrew[s] = out[s];
        side[s] = (om_wm_battle_side){.vp_scored = r->vp[s], .lost_halves = lost[s],
                                      .break_halves = p->break_halves[s], .withdrew = out[s]};
    }
    r->verdict = om_wm_battle_judge(side);
}

/* The records of the withdrawal check at the end of a turn: each army's
 * losses, its break point, whether it withdraws and why. */
static void trace_withdrawals(const om_wm_battle_prepared *p, const om_wm_table *t,
                              const bool out[2], const unsigned lost[2], om_wm_trace *tr)
{
    for (unsigned s = 0; s < 2; s++) {
        om_wm_event e = om_wm_event_make(tr, OM_WM_EV_WITHDRAWAL, -1, -1);
        const unsigned brk = p->break_halves[s];
        e.side = (uint8_t)s;
        e.v[0] = (int16_t)(lost[s] < INT16_MAX ? lost[s] : INT16_MAX);
        e.v[1] = (int16_t)(brk < INT16_MAX ? brk : INT16_MAX);
        e.flags = (uint8_t)((out[s] ? OM_WM_EVF_WITHDRAWS : 0) |
                            (p->general[s] >= 0 && character_slain(t, (unsigned)p->general[s])
                                 ? OM_WM_EVF_GENERAL_SLAIN : 0));
        om_wm_trace_put(tr, &e);
    }
}

/* The scenario points of the end of side `side`'s turn `n` on table t
 * (objective.h), gone[] the armies withdrawing then, into svp[]; returns why
 * the battle ends, `why` unless Battlefields' points end it. Battlefields
 * scores each player's own turns from his third, and the withdrawal bonus at
 * once; Warmaster Revolution scores once, when the battle has ended (the
 * caller passes `final`). */
static unsigned scenario_turn(const om_wm_scenario_setup *sc, const om_wm_table *t,
                              unsigned side, unsigned n, const bool gone[2], bool final,
                              uint32_t svp[2], unsigned why)
{
    if (sc->version == OM_WM_SCENARIO_BATTLEFIELDS) {
        if (final)
            return why;
        if (n >= OM_WM_SCENARIO_FIRST_TURN)
            svp[side] += om_wm_scenario_score(sc, t, side);
        for (unsigned s = 0; s < 2; s++)
            if (gone[1 - s] && why != OM_WM_END_COUNT)
                svp[s] += OM_WM_SCENARIO_WITHDRAW_VP;
        if (why == OM_WM_END_COUNT && svp[side] >= OM_WM_SCENARIO_VP_END)
            return OM_WM_END_SCENARIO;
        return why;
    }
    if (final)
        for (unsigned s = 0; s < 2; s++)
            svp[s] = om_wm_scenario_score(sc, t, s) + (gone[1 - s] ? OM_WM_SCENARIO_WITHDRAW_VP : 0);
    return why;
}

/* The battle fought on prepared deployment p (om_wm_battle_resolve). */
static void fight(const om_wm_battle_prepared *p, om_wm_turn_work *w, om_dice *d,
                  om_wm_battle_result *out)
{
    const om_wm_battle_options *o = &p->options;
    om_wm_command_setup plans = p->plans[0];
    om_wm_turn_result turn;
    om_wm_trace *tr = om_wm_turn_work_trace(w);
    bool gone[2] = {false, false};
    unsigned first, limit, why = OM_WM_END_COUNT, n, lost[2] = {0, 0};
    om_wm_scenario_setup sc = o->scenario;
    uint32_t svp[2] = {0, 0};

    if (o->terrain_each_battle != OM_WM_TERRAIN_NONE) {
        /* The battle's own terrain, laid out on the deployed table in the
         * spare table, which the turns then start from. */
        om_wm_table *field = om_wm_turn_work_spare(w);
        const om_wm_table *start = &om_wm_battle_turn(p)->table;
        om_wm_table_copy(field, start, NULL);
        (void)om_wm_battlefield_generate(field, o->terrain_each_battle, p->zone_cm, d);
        /* Swapped zones: the same layout seen from the other edges, the
         * armies standing where they stand (a turn through the table's centre
         * is a symmetry of the game). */
        if (o->zones_swapped)
            om_wm_battlefield_turn_round(field, start->terrain_pieces);
        if (o->side_chooser >= 0 &&
            om_wm_battlefield_prefers_turned(field, (unsigned)o->side_chooser, p->zone_cm,
                                             p->closed_weight[o->side_chooser]))
            om_wm_battlefield_turn_round(field, start->terrain_pieces);
        om_wm_turn_begin_on(p->turn, w, field);
    } else {
        om_wm_turn_begin(p->turn, w);
    }
    if (sc.kind == OM_WM_SCENARIO_TAKE_AND_HOLD && !sc.objectives_given)
        om_wm_objectives_place(&sc, om_wm_turn_work_table(w), p->zone_cm);
    if (tr != NULL && tr->table_at != NULL && tr->table_turn == 0) {
        *tr->table_at = *om_wm_turn_work_table(w);
        tr->table_at->memo = NULL; /* the workspace's own, not the copy's */
    }
    out->spells_cast[0] = out->spells_cast[1] = out->spells_worked[0] = out->spells_worked[1] = 0;
    first = o->first >= 0 ? (unsigned)o->first : om_wm_battle_first_side(p->rules, d);
    limit = om_wm_game_length_start(o->length, o->fixed_turns, d);
    if (tr != NULL) {
        om_wm_event e;
        tr->turn = 0;
        tr->side = (uint8_t)first;
        e = om_wm_event_make(tr, OM_WM_EV_BATTLE_START, -1, -1);
        e.v[0] = (int16_t)limit;
        om_wm_trace_put(tr, &e);
        if (sc.kind != OM_WM_SCENARIO_NONE) {
            e = om_wm_event_make(tr, OM_WM_EV_SCENARIO, -1, -1);
            e.v[0] = e.v[1] = -1;
            e.v[2] = (int16_t)sc.kind;
            e.v[3] = (int16_t)sc.version;
            om_wm_trace_put(tr, &e);
        }
    }
    for (n = 1; why == OM_WM_END_COUNT; n++) {
        for (unsigned k = 0; k < 2 && why == OM_WM_END_COUNT; k++) {
            const unsigned side = first ^ k;
            const om_wm_command_setup *setup = &p->plans[side];
            if (tr != NULL) {
                om_wm_event e;
                tr->turn = (uint8_t)n;
                tr->side = (uint8_t)side;
                e = om_wm_event_make(tr, OM_WM_EV_TURN_START, -1, -1);
                om_wm_trace_put(tr, &e);
            }
            if (o->doctrine[side] != NULL) {
                om_wm_doctrine_plans(o->doctrine[side], &p->odds, om_wm_turn_work_table(w),
                                     side, &plans);
                if (sc.kind != OM_WM_SCENARIO_NONE)
                    om_wm_objective_contest(o->doctrine[side], &sc, om_wm_turn_work_table(w),
                                            side, &plans);
                setup = &plans;
            }
            om_wm_turn_play(p->turn, setup, w, d, &turn);
            out->spells_cast[side] = (uint16_t)(out->spells_cast[side] + turn.spells_cast);
            out->spells_worked[side] = (uint16_t)(out->spells_worked[side] + turn.spells_worked);
            why = withdrawals(p, om_wm_turn_work_table(w), gone, lost);
            if (sc.kind != OM_WM_SCENARIO_NONE)
                why = scenario_turn(&sc, om_wm_turn_work_table(w), side, n, gone, false, svp,
                                    why);
            if (tr != NULL)
                trace_withdrawals(p, om_wm_turn_work_table(w), gone, lost, tr);
        }
        if (tr != NULL && tr->table_at != NULL && n <= tr->table_turn)
            *tr->table_at = *om_wm_turn_work_table(w);
        if (why == OM_WM_END_COUNT && om_wm_game_length_over(o->length, limit, n, d))
            why = OM_WM_END_LENGTH;
    }
    out->first = (uint8_t)first;
    out->turns = (uint8_t)(n - 1);
    out->end = (uint8_t)why;
    judge(p, om_wm_turn_work_table(w), gone, lost, om_wm_turn_work_credit(w), out);
    out->scenario_vp[0] = out->scenario_vp[1] = 0;
    if (sc.kind != OM_WM_SCENARIO_NONE) {
        unsigned level;
        (void)scenario_turn(&sc, om_wm_turn_work_table(w), 0, n - 1, gone, true, svp, why);
        om_wm_scenario_judge_level(sc.version, svp, gone, &out->verdict.winner, &level);
        out->verdict.level = (om_wm_victory)level;
        out->scenario_vp[0] = svp[0];
        out->scenario_vp[1] = svp[1];
    }
    if (tr != NULL) {
        om_wm_event e = om_wm_event_make(tr, OM_WM_EV_END, -1, -1);
        e.side = out->verdict.winner;
        e.v[0] = (int16_t)out->verdict.level;
        e.v[1] = (int16_t)(out->vp[0] < INT16_MAX ? out->vp[0] : INT16_MAX);
        e.v[2] = (int16_t)(out->vp[1] < INT16_MAX ? out->vp[1] : INT16_MAX);
        e.v[3] = (int16_t)why;
        om_wm_trace_put(tr, &e);
        if (sc.kind != OM_WM_SCENARIO_NONE) {
            e = om_wm_event_make(tr, OM_WM_EV_SCENARIO, -1, -1);
            e.v[0] = (int16_t)svp[0];
            e.v[1] = (int16_t)svp[1];
            e.v[2] = (int16_t)sc.kind;
            e.v[3] = (int16_t)sc.version;
            om_wm_trace_put(tr, &e);
        }
    }
}

/* A battle fought on the deployment `drawn` reports its units by the indices
 * of the first deployment, canon[u] for drawn's unit u. */
static void to_canon(const uint8_t *canon, unsigned n, om_wm_battle_result *r)
{
    uint8_t stands[OM_WM_TABLE_MAX_UNITS], destroyed[OM_WM_TABLE_MAX_UNITS];
    uint32_t given[OM_WM_TABLE_MAX_UNITS], scored[OM_WM_TABLE_MAX_UNITS];
    for (unsigned u = 0; u < n; u++) {
        stands[canon[u]] = r->stands_lost[u];
        destroyed[canon[u]] = r->destroyed[u];
        given[canon[u]] = r->vp_given[u];
        scored[canon[u]] = r->vp_scored[u];
    }
    memcpy(r->stands_lost, stands, n * sizeof stands[0]);
    memcpy(r->destroyed, destroyed, n * sizeof destroyed[0]);
    memcpy(r->vp_given, given, n * sizeof given[0]);
    memcpy(r->vp_scored, scored, n * sizeof scored[0]);
}

void om_wm_battle_resolve(const om_wm_battle_prepared *p, om_wm_turn_work *w, om_dice *d,
                          om_wm_battle_result *out)
{
    unsigned outcome = 0, total[2] = {0, 0};
    om_wm_trace *tr = om_wm_turn_work_trace(w);
    if (p->drawn != NULL) {
        /* The deployment's roll, before the terrain: the battle's dice are
         * independent, so the order of the two draws changes no law. */
        outcome = om_wm_deploy_decide(&p->draw, p->draw_n, d, total);
        if (tr != NULL) {
            om_wm_event e;
            tr->turn = 0;
            tr->side = (uint8_t)outcome;
            e = om_wm_event_make(tr, OM_WM_EV_DEPLOYMENT, -1, -1);
            e.v[0] = (int16_t)p->draw.method;
            e.v[1] = (int16_t)total[0];
            e.v[2] = (int16_t)total[1];
            om_wm_trace_put(tr, &e);
        }
    }
    fight(outcome == 1 ? p->drawn : p, w, d, out);
    out->deployment = (uint8_t)outcome;
    if (outcome == 1)
        to_canon(p->canon, p->units, out);
}

/* ---- Deployment ---- */

/* Declare the brigade of units [from, to) of the table if it has two or more.
 * Returns false when the table has no room for another brigade (its units
 * would stand alone, unlike the deployment asked for). */
static bool declare_brigade(om_wm_table *t, unsigned from, unsigned to)
{
    unsigned u[OM_WM_BRIGADE_MAX_UNITS];
    if (to - from < 2 || to - from > OM_WM_BRIGADE_MAX_UNITS)
        return true;
    for (unsigned k = from; k < to; k++)
        u[k - from] = k;
    return om_wm_table_add_brigade(t, u, to - from) >= 0;
}

/* The failure of a brigade the table has no room for, at unit i of `who`. */
static om_status no_room_for_brigade(om_wm_check_failure *why, const char *who, unsigned i)
{
    return om_check_fail_item(why, who, (int)i, "", "the table holds at most %d brigades "
                              "(both armies'); deploy in larger brigades or fewer units",
                              OM_WM_TABLE_MAX_BRIGADES);
}

double om_wm_deploy_zone_cm(const om_wm_table *t, om_wm_ruleset_id rules)
{
    const om_wm_ruleset *rs = om_wm_ruleset_get(rules);
    return t->depth_cm / 2 - (rs != NULL ? rs->deploy_apart_cm : 0) / 2;
}

om_status om_wm_battle_deploy_line(om_wm_turn *t, unsigned side, const om_wm_unit *values,
                                   unsigned n, unsigned brigade, om_wm_check_failure *why,
                                   unsigned *first)
{
    om_wm_table *tab = &t->table;
    const om_wm_ruleset_id rules = t->command.rules;
    const char *who = side == 0 ? "a.units" : "b.units";
    const unsigned group = brigade >= 2 && brigade <= OM_WM_BRIGADE_MAX_UNITS ? brigade : 1;
    /* Distances from the side's own edge (y = 0 for A) and from its left. */
    const double zone = om_wm_deploy_zone_cm(tab, rules);
    double front = zone, x = 0, line_depth = 0;
    unsigned line_start = tab->units, group_start = tab->units;
    double line_width = 0;

    *first = tab->units;
    for (unsigned i = 0; i < n; i++) {
        const om_wm_unit *v = &values[i];
        int u = om_wm_table_add_unit(tab, rules, v->name, side, v->troop, v->stands,
                                     OM_WM_TABLE_LINE, (om_wm_vec){0, 0}, side == 0 ? 90 : 270);
        if (u < 0)
            return om_check_fail_item(why, who, (int)i, "", "the table holds at most %d units",
                                      OM_WM_TABLE_MAX_UNITS);
        om_wm_table_unit *tu = &tab->unit[u];
        double w = om_wm_table_unit_width(tu), d = om_wm_table_unit_depth(tu);
        tu->range_cm = v->range_cm;
        tu->pace_cm = v->pace_cm;
        /* A unit that starts a brigade (or stands alone) keeps a gap from the
         * last: the line is full when the gap and the unit pass the edge. */
        const double gap = x > 0 && (unsigned)u - group_start == group ? OM_WM_DEPLOY_GAP_CM : 0;
        if (x > 0 && x + gap + w > tab->width_cm) {
            /* A new line: centre the full one, then step back. */
            double shift = (tab->width_cm - line_width) / 2;
            for (unsigned k = line_start; k < (unsigned)u; k++)
                tab->unit[k].centre.x += shift;
            if (!declare_brigade(tab, group_start, (unsigned)u))
                return no_room_for_brigade(why, who, i);
            front -= line_depth + OM_WM_DEPLOY_LINE_GAP_CM;
            x = line_depth = line_width = 0;
            line_start = group_start = (unsigned)u;
        } else if ((unsigned)u - group_start == group) {
            if (!declare_brigade(tab, group_start, (unsigned)u))
                return no_room_for_brigade(why, who, i);
            group_start = (unsigned)u;
        }
        if (w > tab->width_cm || front - d < 0)
            return om_check_fail_item(why, who, (int)i, "", "%s does not fit in the deployment "
                                      "zone (%.0fcm deep behind a front %.0fcm from the "
                                      "table's middle)", v->name,
                                      zone, tab->depth_cm / 2 - zone);
        if (x > 0 && (unsigned)u == group_start)
            x += OM_WM_DEPLOY_GAP_CM;
        tu->centre = (om_wm_vec){x + w / 2, front - d / 2};
        x += w;
        line_width = x;
        if (d > line_depth)
            line_depth = d;
        om_wm_side_init(&t->unit[u].side, v);
        t->unit[u].shoot = OM_WM_SHOOT_CLOSEST;
        t->unit[u].stand_and_shoot = true;
    }
    if (n > 0 && !declare_brigade(tab, group_start, tab->units))
        return no_room_for_brigade(why, who, n - 1);
    {
        double shift = (tab->width_cm - line_width) / 2;
        for (unsigned k = line_start; k < tab->units; k++)
            tab->unit[k].centre.x += shift;
    }
    /* Side B stands mirrored: its left is A's right, its edge at the far side. */
    if (side == 1)
        for (unsigned k = *first; k < tab->units; k++)
            tab->unit[k].centre = (om_wm_vec){tab->width_cm - tab->unit[k].centre.x,
                                              tab->depth_cm - tab->unit[k].centre.y};
    om_wm_table_update(tab, OM_WM_TABLE_ALL);
    return OM_OK;
}

const char *const om_wm_deployment_names[OM_WM_DEPLOY_COUNT] = {
    [OM_WM_DEPLOY_LINES] = "lines",
    [OM_WM_DEPLOY_ALTERNATE] = "alternate",
    [OM_WM_DEPLOY_ONE_SIDE_FIRST] = "one-side-first",
    [OM_WM_DEPLOY_SCOUTING] = "scouting",
};

/* The odds a unit reads before no enemy (it never charges): below every
 * odds, so that it takes the places left over. */
#define NO_ODDS (-1.0f)
/* An odds not yet worked out. */
#define ODDS_UNKNOWN (-2.0f)

/* A deployment under way: the armies as they would stand in their lists'
 * order (the places of each line and who faces whom), the odds of each unit
 * charging each enemy, which units are placed where. */
typedef struct deploying {
    om_wm_turn *trial;                /* both armies in list order */
    unsigned first[2];                /* each side's first index in `trial` */
    unsigned n[2];                    /* each side's units */
    float (*odds)[OM_WM_TABLE_MAX_UNITS]; /* by `trial` index, worked out when asked */
    unsigned twin[OM_WM_TABLE_MAX_UNITS]; /* the first unit of the same values */
    int at[2][OM_WM_TABLE_MAX_UNITS];  /* at[s][k]: the unit placed at side s's place k, or -1 */
    bool placed[2][OM_WM_TABLE_MAX_UNITS]; /* by unit of the army */
    unsigned next[2];                 /* side s's next free place */
    om_wm_deploy_result *r;           /* where each placement is recorded */
} deploying;

/* The odds that unit i of side s wins the first round charging unit j of the
 * other side (engagement engine, first_round_odds), or NO_ODDS. */
static float deploy_odds(deploying *g, unsigned s, unsigned i, unsigned j)
{
    unsigned u = g->twin[g->first[s] + i], v = g->twin[g->first[1 - s] + j];
    if (g->odds[u][v] == ODDS_UNKNOWN)
        g->odds[u][v] = charge_odds(g->trial, u, v);
    return g->odds[u][v];
}

/* The enemy unit side s's place k faces: the placed enemy unit whose place
 * stands nearest it across the table (the lines as in their lists' order),
 * or -1 when no enemy stands yet. */
static int facing_enemy(const deploying *g, unsigned s, unsigned k)
{
    const om_wm_table *t = &g->trial->table;
    const unsigned e = 1 - s;
    double x = t->unit[g->first[s] + k].centre.x, best = 0;
    int who = -1;
    for (unsigned j = 0; j < g->n[e]; j++) {
        double gap;
        if (g->at[e][j] < 0)
            continue;
        gap = fabs(t->unit[g->first[e] + j].centre.x - x);
        if (who < 0 || gap < best) {
            best = gap;
            who = g->at[e][j];
        }
    }
    return who;
}

/* Side s places `m` units of those `pool` allows (NULL: any not placed), at
 * its next m places: with no enemy placed, in its list's order; else the
 * best pair of place and unit first (placement policy, om_wm_battle_deploy). */
static void place(deploying *g, unsigned s, unsigned m, const bool *pool)
{
    const unsigned k0 = g->next[s];
    for (unsigned done = 0; done < m; done++) {
        int best_k = -1, best_i = -1;
        float best = 0;
        for (unsigned k = k0; k < k0 + m; k++) {
            int e;
            if (g->at[s][k] >= 0)
                continue;
            e = facing_enemy(g, s, k);
            for (unsigned i = 0; i < g->n[s]; i++) {
                float o;
                if (g->placed[s][i] || (pool != NULL && !pool[i]))
                    continue;
                o = e < 0 ? NO_ODDS : deploy_odds(g, s, i, (unsigned)e);
                if (best_i < 0 || o > best) {
                    best = o;
                    best_k = (int)k;
                    best_i = (int)i;
                }
            }
            if (e < 0 && best_i >= 0)
                break; /* no enemy to face: the first free place, the first unit */
        }
        if (best_i < 0)
            return;
        g->at[s][best_k] = best_i;
        g->placed[s][best_i] = true;
        if (g->r->placements < OM_WM_TABLE_MAX_UNITS)
            g->r->placed_by[g->r->placements++] = (uint8_t)s;
    }
    g->next[s] = k0 + m;
}

/* How many units of side s not yet placed `pool` allows (NULL: any). */
static unsigned count_pool(const deploying *g, unsigned s, const bool *pool)
{
    unsigned c = 0;
    for (unsigned i = 0; i < g->n[s]; i++)
        c += !g->placed[s][i] && (pool == NULL || pool[i]);
    return c;
}

/* A D6 roll-off: the side with the higher die, ties rolled again. */
static unsigned roll_off(om_dice *d)
{
    unsigned a, b;
    do {
        a = om_dice_roll_d6(d);
        b = om_dice_roll_d6(d);
    } while (a == b);
    return a > b ? 0u : 1u;
}

bool om_wm_deploy_rolls(const om_wm_deploy_plan *p, const unsigned n[2])
{
    switch (p->method) {
    case OM_WM_DEPLOY_ALTERNATE:
        return p->first < 0 && n[0] == n[1];
    case OM_WM_DEPLOY_ONE_SIDE_FIRST:
        return p->first < 0;
    case OM_WM_DEPLOY_SCOUTING:
        return true;
    default:
        return false;
    }
}

unsigned om_wm_deploy_decide(const om_wm_deploy_plan *p, const unsigned n[2], om_dice *d,
                             unsigned total[2])
{
    unsigned scratch[2];
    if (total == NULL)
        total = scratch;
    total[0] = total[1] = 0;
    if (p->outcome != 0)
        return (p->outcome - 1u) & 1u;
    switch (p->method) {
    case OM_WM_DEPLOY_ALTERNATE:
        /* Battlefields, Setting up armies > One unit at a time: the side with
         * the most units starts, a die decides between equal armies. */
        return p->first >= 0 ? (unsigned)p->first
               : n[0] != n[1] ? (n[1] > n[0])
                              : (om_dice_roll_d6(d) >= 4);
    case OM_WM_DEPLOY_ONE_SIDE_FIRST:
        /* The roll-off's winner chooses to deploy second, seeing the enemy. */
        return p->first >= 0 ? (unsigned)p->first : 1 - roll_off(d);
    case OM_WM_DEPLOY_SCOUTING:
        return om_wm_scouting_roll(p->scouting, d, total);
    default:
        return 0;
    }
}

/* Decide the order of each side's line by the method: into r->order. */
static void deploy_order(deploying *g, const om_wm_deploy_army army[2],
                         const om_wm_deploy_plan *p, om_wm_ruleset_id rules, om_dice *d,
                         om_wm_deploy_result *r)
{
    const unsigned s0 = om_wm_deploy_decide(p, g->n, d, r->scouting_total);
    switch (p->method) {
    case OM_WM_DEPLOY_ALTERNATE: {
        unsigned s = s0;
        r->placed_first = (uint8_t)s;
        while (g->next[0] < g->n[0] || g->next[1] < g->n[1]) {
            if (g->next[s] < g->n[s])
                place(g, s, 1, NULL);
            s ^= 1u;
        }
        break;
    }
    case OM_WM_DEPLOY_ONE_SIDE_FIRST: {
        const unsigned s = s0;
        r->placed_first = (uint8_t)s;
        r->first_turn = (int8_t)s;
        place(g, s, g->n[s], NULL);
        place(g, 1 - s, g->n[1 - s], NULL);
        break;
    }
    case OM_WM_DEPLOY_SCOUTING: {
        const unsigned w = s0;
        unsigned scouts;
        r->scouting_winner = (uint8_t)w;
        r->placed_first = (uint8_t)w;
        if (rules == OM_WM_RULES_WM11)
            r->first_turn = (int8_t)(1 - w); /* Battlefields: the winner moves second */
        scouts = army[w].scout != NULL ? count_pool(g, w, army[w].scout) : 0;
        if (scouts > 0)
            place(g, w, scouts, army[w].scout);
        place(g, 1 - w, g->n[1 - w], NULL);
        place(g, w, g->n[w] - g->next[w], NULL);
        break;
    }
    default:
        break;
    }
    for (unsigned s = 0; s < 2; s++)
        for (unsigned k = 0; k < g->n[s]; k++)
            r->order[s][k] = (uint8_t)(g->at[s][k] >= 0 ? g->at[s][k] : (int)k);
}

om_status om_wm_battle_deploy(om_wm_turn *t, const om_wm_deploy_army army[2],
                              const om_wm_deploy_plan *p, om_dice *d, om_wm_deploy_result *r,
                              om_wm_check_failure *why)
{
    om_wm_unit values[OM_WM_TABLE_MAX_UNITS];
    deploying g = {.trial = NULL, .r = r};
    om_status st = OM_OK;

    memset(r, 0, sizeof *r);
    r->first_turn = -1;
    for (unsigned s = 0; s < 2; s++)
        for (unsigned k = 0; k < army[s].n && k < OM_WM_TABLE_MAX_UNITS; k++)
            r->order[s][k] = (uint8_t)k;
    if (p->method == OM_WM_DEPLOY_LINES)
        for (unsigned s = 0; s < 2; s++)
            for (unsigned k = 0; k < army[s].n && r->placements < OM_WM_TABLE_MAX_UNITS; k++)
                r->placed_by[r->placements++] = (uint8_t)s;
    if (p->method != OM_WM_DEPLOY_LINES) {
        if ((g.trial = malloc(sizeof *g.trial)) == NULL ||
            (g.odds = malloc(sizeof(float[OM_WM_TABLE_MAX_UNITS][OM_WM_TABLE_MAX_UNITS]))) ==
                NULL) {
            free(g.trial);
            return OM_ERROR(OM_ENOMEM, "out of memory for a deployment");
        }
        *g.trial = *t;
        for (unsigned s = 0; s < 2 && st == OM_OK; s++) {
            g.n[s] = army[s].n;
            st = om_wm_battle_deploy_line(g.trial, s, army[s].values, army[s].n, p->brigade,
                                          why, &g.first[s]);
        }
        if (st == OM_OK) {
            const unsigned units = g.trial->table.units;
            for (unsigned u = 0; u < units; u++) {
                g.twin[u] = u;
                for (unsigned k = 0; k < u && g.twin[u] == u; k++)
                    if (g.twin[k] == k && same_values(g.trial, k, u))
                        g.twin[u] = k;
                for (unsigned v = 0; v < OM_WM_TABLE_MAX_UNITS; v++)
                    g.odds[u][v] = ODDS_UNKNOWN;
            }
            memset(g.at, -1, sizeof g.at);
            deploy_order(&g, army, p, t->command.rules, d, r);
        }
        free(g.odds);
        free(g.trial);
        if (st != OM_OK)
            return st;
    }
    if (p->method == OM_WM_DEPLOY_SCOUTING) {
        /* The winner chooses the table side before any unit is placed. */
        const unsigned w = r->scouting_winner;
        unsigned weight[OM_WM_TERRAIN_KIND_COUNT];
        om_wm_battlefield_closed_weights(t->command.rules, army[w].values, army[w].n, weight);
        if (om_wm_battlefield_prefers_turned(&t->table, w,
                                             om_wm_deploy_zone_cm(&t->table, t->command.rules),
                                             weight)) {
            om_wm_battlefield_turn_round(&t->table, 0);
            r->side_turned = true;
        }
    }
    for (unsigned s = 0; s < 2; s++) {
        for (unsigned k = 0; k < army[s].n && k < OM_WM_TABLE_MAX_UNITS; k++)
            values[k] = army[s].values[r->order[s][k]];
        if ((st = om_wm_battle_deploy_line(t, s, values, army[s].n, p->brigade, why,
                                           &r->first[s])) != OM_OK)
            return st;
    }
    return OM_OK;
}
