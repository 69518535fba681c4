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
#include <stdlib.h>
#include <string.h>

#include "check.h"

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
};

const char *const om_wm_battle_end_names[OM_WM_END_COUNT] = {
    [OM_WM_END_LENGTH] = "length",
    [OM_WM_END_BREAK] = "break-point",
    [OM_WM_END_GENERAL] = "general-slain",
};

/* Whether unit u counts toward its army's break point: every unit, but for
 * Warmaster Ancients' skirmishers without Armour (End of the Battle: "core
 * units are all troop units except skirmishing units with no Armour value"). */
static bool counts_toward_break(const om_wm_turn *t, unsigned u)
{
    return !(t->command.rules == OM_WM_RULES_WMA &&
             (t->table.unit[u].traits & OM_WM_TABLE_TRAIT_SKIRMISH) != 0 &&
             t->unit[u].side.unit.armour == 0);
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
    if ((st = om_wm_turn_prepare_alloc(t, why, &p->turn)) != OM_OK) {
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
    }
    *out = p;
    return OM_OK;
}

void om_wm_battle_prepared_free(om_wm_battle_prepared *p)
{
    if (p == NULL)
        return;
    om_wm_turn_prepared_free(p->turn);
    free(p);
}

/* A character is slain with the unit it is with (Generals, Wizards & Heroes:
 * "slain if the unit it is with is destroyed"). */
static bool character_slain(const om_wm_table *t, unsigned c)
{
    int u = t->character[c].joined;
    return u >= 0 && !t->unit[u].present;
}

/* Each army's losses toward its break point, from the table as it stands. */
static void losses(const om_wm_battle_prepared *p, const om_wm_table *t, unsigned lost[2])
{
    lost[0] = lost[1] = 0;
    for (unsigned u = 0; u < p->units; u++) {
        const om_wm_table_unit *tu = &t->unit[u];
        if (p->start_stands[u] == 0)
            continue;
        lost[tu->side] += om_wm_break_loss_halves(p->rules, p->start_stands[u],
                                                  tu->present ? tu->stands : 0, false,
                                                  p->counts[u]);
    }
}

/* Which armies must withdraw at the end of a turn, and why the battle ends
 * (OM_WM_END_COUNT: it goes on). The General first: his death ends it
 * whatever the losses. */
static unsigned withdrawals(const om_wm_battle_prepared *p, const om_wm_table *t, bool out[2])
{
    unsigned lost[2], why = OM_WM_END_COUNT;
    losses(p, t, lost);
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

/* The victory points, losses and verdict of the battle as the table ends it. */
static void judge(const om_wm_battle_prepared *p, const om_wm_table *t, const bool out[2],
                  om_wm_battle_result *r)
{
    const om_wm_turn *turn = om_wm_turn_of(p->turn);
    om_wm_battle_side side[2];
    unsigned lost[2];
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
        r->vp[1 - tu->side] += om_wm_victory_points_lost(v->points, om_wm_unit_size(v),
                                                         p->start_stands[u], gone);
    }
    for (unsigned c = 0; c < t->characters; c++)
        if (character_slain(t, c))
            r->vp[1 - t->character[c].side] += p->options.character_points[c];
    losses(p, t, lost);
    for (unsigned s = 0; s < 2; s++) {
        r->withdrew[s] = out[s];
        side[s] = (om_wm_battle_side){.vp_scored = r->vp[s], .lost_halves = lost[s],
                                      .break_halves = p->break_halves[s], .withdrew = out[s]};
    }
    r->verdict = om_wm_battle_judge(side);
}

void om_wm_battle_resolve(const om_wm_battle_prepared *p, om_wm_turn_work *w, om_dice *d,
                          om_wm_battle_result *out)
{
    const om_wm_battle_options *o = &p->options;
    om_wm_turn_result turn;
    bool gone[2] = {false, false};
    unsigned first, limit, why = OM_WM_END_COUNT, n;

    om_wm_turn_begin(p->turn, w);
    first = o->first >= 0 ? (unsigned)o->first : om_wm_battle_first_side(p->rules, d);
    limit = om_wm_game_length_start(o->length, o->fixed_turns, d);
    for (n = 1; why == OM_WM_END_COUNT; n++) {
        for (unsigned k = 0; k < 2 && why == OM_WM_END_COUNT; k++) {
            om_wm_turn_play(p->turn, &p->plans[first ^ k], w, d, &turn);
            why = withdrawals(p, om_wm_turn_work_table(w), gone);
        }
        if (why == OM_WM_END_COUNT && om_wm_game_length_over(o->length, limit, n, d))
            why = OM_WM_END_LENGTH;
    }
    out->first = (uint8_t)first;
    out->turns = (uint8_t)(n - 1);
    out->end = (uint8_t)why;
    judge(p, om_wm_turn_work_table(w), gone, out);
}

/* ---- Deployment ---- */

om_status om_wm_battle_deploy_line(om_wm_turn *t, unsigned side, const om_wm_unit *values,
                                   unsigned n, om_wm_check_failure *why, unsigned *first)
{
    om_wm_table *tab = &t->table;
    const om_wm_ruleset_id rules = t->command.rules;
    const char *who = side == 0 ? "a.units" : "b.units";
    /* Distances from the side's own edge (y = 0 for A) and from its left. */
    double front = tab->depth_cm / 2 - OM_WM_DEPLOY_APART_CM / 2, x = 0, line_depth = 0;
    unsigned line_start = tab->units;
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
        if (x > 0 && x + w > tab->width_cm) {
            /* A new line: centre the full one, then step back. */
            double shift = (tab->width_cm - line_width) / 2;
            for (unsigned k = line_start; k < (unsigned)u; k++)
                tab->unit[k].centre.x += shift;
            front -= line_depth + OM_WM_DEPLOY_LINE_GAP_CM;
            x = line_depth = line_width = 0;
            line_start = (unsigned)u;
        }
        if (w > tab->width_cm || front - d < 0)
            return om_check_fail_item(why, who, (int)i, "", "%s does not fit in the deployment "
                                      "zone (%.0fcm deep behind a front %.0fcm from the "
                                      "table's middle)", v->name,
                                      tab->depth_cm / 2 - OM_WM_DEPLOY_APART_CM / 2,
                                      OM_WM_DEPLOY_APART_CM / 2);
        tu->centre = (om_wm_vec){x + w / 2, front - d / 2};
        x += w + OM_WM_DEPLOY_GAP_CM;
        line_width = x - OM_WM_DEPLOY_GAP_CM;
        if (d > line_depth)
            line_depth = d;
        om_wm_side_init(&t->unit[u].side, v);
        t->unit[u].shoot = OM_WM_SHOOT_CLOSEST;
        t->unit[u].stand_and_shoot = true;
    }
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
