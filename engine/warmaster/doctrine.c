/*
 * doctrine.c: a side's plans for its turn from a doctrine's weights
 * (doctrine.h): every unit's orders scored, the best kept, the side's plans
 * ordered best first. The named doctrines are the table below, one row each.
 */
#include "doctrine.h"

#include <string.h>

const char *const om_wm_aim_names[OM_WM_AIM_COUNT] = {
    [OM_WM_AIM_WIN] = "win",
    [OM_WM_AIM_VP_MARGIN] = "vp-margin",
    [OM_WM_AIM_LOSSES] = "losses",
};

/* The named doctrines. `default` charges what it is likelier than not to beat
 * and closes on the enemy otherwise; `aggressive` charges at even odds and
 * counts distance little; `cautious` charges only at good odds, weighs its own
 * losses and holds rather than advance; `shoot-and-hold` shoots with what can
 * and holds the rest, charging only a fight it is sure of. */
const om_wm_doctrine om_wm_doctrines[] = {
    {.name = "default", .aim = OM_WM_AIM_VP_MARGIN, .charge_min_odds = 0.5, .charge = 1.0,
     .distance = 0.15, .shoot = 0.3, .advance = 0.1, .keep_cm = 0},
    {.name = "aggressive", .aim = OM_WM_AIM_WIN, .charge_min_odds = 0.35, .charge = 1.0,
     .distance = 0.05, .shoot = 0.2, .advance = 0.3, .keep_cm = 0},
    {.name = "cautious", .aim = OM_WM_AIM_LOSSES, .charge_min_odds = 0.65, .charge = 1.0,
     .distance = 0.25, .shoot = 0.3, .advance = 0, .keep_cm = 0},
    {.name = "shoot-and-hold", .aim = OM_WM_AIM_LOSSES, .charge_min_odds = 0.8, .charge = 1.0,
     .distance = 0.3, .shoot = 1.0, .advance = 0, .keep_cm = 0},
};
const size_t om_wm_doctrine_count = sizeof om_wm_doctrines / sizeof om_wm_doctrines[0];

const om_wm_doctrine *om_wm_doctrine_find(const char *name)
{
    for (size_t i = 0; i < om_wm_doctrine_count; i++)
        if (strcmp(om_wm_doctrines[i].name, name) == 0)
            return &om_wm_doctrines[i];
    return NULL;
}

/* What a charge of u at v is worth under the doctrine's aim, from p, the odds
 * of winning its first round: the odds themselves; the victory points won
 * less those put at risk, in units of u's own points; or the odds after the
 * risk to u (a fight lost costs as much as one won gains). */
static double charge_value(const om_wm_doctrine *dc, const om_wm_doctrine_odds *odds,
                           unsigned u, unsigned v, double p)
{
    double own = odds->points[u] > 0 ? (double)odds->points[u] : 1.0;
    switch (dc->aim) {
    case OM_WM_AIM_VP_MARGIN:
        return (p * odds->points[v] - (1 - p) * odds->points[u]) / own;
    case OM_WM_AIM_LOSSES:
        return 2 * p - 1;
    case OM_WM_AIM_WIN:
    case OM_WM_AIM_COUNT:
        break;
    }
    return p;
}

/* The character of unit u's side who orders it: the closest of those on the
 * table whose command reaches it (General, Heroes and Wizards all give
 * orders: Generals, Wizards & Heroes), or -1. */
static int8_t orderer(const om_wm_command_setup *setup, const om_wm_table *t, unsigned u)
{
    const bool flyer = (t->unit[u].traits & OM_WM_TABLE_TRAIT_FLYER) != 0;
    double best = 0;
    int8_t who = -1;
    for (unsigned c = 0; c < t->characters; c++) {
        const om_wm_table_character *ch = &t->character[c];
        double cm;
        if (ch->side != t->unit[u].side ||
            (ch->joined >= 0 && !t->unit[ch->joined].present))
            continue;
        cm = om_wm_table_character_distance(t, c, u);
        if (om_wm_command_in_range(setup->rules, ch->kind, flyer, cm) && (who < 0 || cm < best)) {
            who = (int8_t)c;
            best = cm;
        }
    }
    return who;
}

/* The square of the distance between the centres of units u and v. */
static double centres2(const om_wm_table *t, unsigned u, unsigned v)
{
    double dx = t->unit[u].centre.x - t->unit[v].centre.x;
    double dy = t->unit[u].centre.y - t->unit[v].centre.y;
    return dx * dx + dy * dy;
}

/* The enemy of unit u whose centre is closest to u's, or -1: the unit to
 * advance on (a policy; the Command phase measures the move exactly). */
static int closest_enemy(const om_wm_table *t, unsigned u)
{
    double best = 0;
    int closest = -1;
    for (unsigned v = 0; v < t->units; v++)
        if (t->unit[v].side != t->unit[u].side && t->unit[v].present) {
            double d2 = centres2(t, u, v);
            if (closest < 0 || d2 < best) {
                closest = (int)v;
                best = d2;
            }
        }
    return closest;
}

/* The most orders a unit can be given in one Command phase (Command > Orders:
 * three), so the farthest a charge this turn can come from, in paces. */
#define REACH_PACES 3.0

/* A plan to issue: a unit's (brigade < 0) or a brigade's, with its score. */
typedef struct issue {
    double score;
    int unit, brigade;
} issue;

/* Insert e into list[0..*n) by score, best first; ties keep arrival order. */
static void insert(issue *list, unsigned *n, issue e)
{
    unsigned k = (*n)++;
    while (k > 0 && list[k - 1].score < e.score) {
        list[k] = list[k - 1];
        k--;
    }
    list[k] = e;
}


void om_wm_doctrine_plans(const om_wm_doctrine *dc, const om_wm_doctrine_odds *odds,
                          const om_wm_table *t, unsigned side, om_wm_command_setup *setup)
{
    issue list[OM_WM_TABLE_MAX_UNITS + OM_WM_TABLE_MAX_BRIGADES];
    bool brigaded[OM_WM_TABLE_MAX_BRIGADES] = {false};
    bool engaged[OM_WM_TABLE_MAX_UNITS];
    int8_t brigade[OM_WM_TABLE_MAX_UNITS];
    unsigned n = 0;

    /* Each unit's engagement asked once: the pairs below ask it n^2 times. */
    for (unsigned u = 0; u < t->units; u++) {
        engaged[u] = t->unit[u].present && om_wm_table_engaged(t, u);
        brigade[u] = -1;
    }
    for (unsigned b = 0; b < t->brigades; b++)
        for (unsigned i = 0; i < t->brigade[b].count; i++)
            brigade[t->brigade[b].unit[i]] = (int8_t)b;

    setup->side = (uint8_t)side;
    for (unsigned b = 0; b < OM_WM_TABLE_MAX_BRIGADES; b++)
        setup->brigade_plan[b] = (om_wm_plan){.kind = OM_WM_PLAN_HOLD, .target = -1, .by = -1};
    /* A brigade advances as one on the enemy closest to its first free unit:
     * one order moves them all (Command > Brigades), so it goes before any
     * unit's advance. */
    for (unsigned b = 0; b < t->brigades && dc->advance > 0; b++) {
        const om_wm_table_brigade *br = &t->brigade[b];
        int lead = -1, target;
        if (t->unit[br->unit[0]].side != side)
            continue;
        for (unsigned i = 0; i < br->count && lead < 0; i++)
            if (t->unit[br->unit[i]].present && !engaged[br->unit[i]])
                lead = br->unit[i];
        int8_t by;
        if (lead < 0 || (target = closest_enemy(t, (unsigned)lead)) < 0 ||
            (by = orderer(setup, t, (unsigned)lead)) < 0)
            continue;
        setup->brigade_plan[b] = (om_wm_plan){.kind = OM_WM_PLAN_ADVANCE, .target = (int8_t)target,
                                              .keep_cm = dc->keep_cm, .by = by};
        brigaded[b] = true;
        insert(list, &n, (issue){dc->advance * 2, -1, (int)b});
    }
    for (unsigned u = 0; u < t->units; u++) {
        const om_wm_table_unit *me = &t->unit[u];
        om_wm_plan best = {.kind = OM_WM_PLAN_HOLD, .target = -1, .by = -1};
        double best_score = 0;
        int closest, b;
        setup->plan[u] = best;
        if (me->side != side || !me->present || engaged[u])
            continue;
        const double pace = me->pace_cm > 0 ? me->pace_cm : 1;
        for (unsigned v = 0; v < t->units; v++) {
            if (t->unit[v].side == side || !t->unit[v].present || engaged[v])
                continue;
            double p = odds->win[u][v], cm;
            if (p < 0 || p < dc->charge_min_odds)
                continue;
            /* The gap between their boxes is the distance a policy weighs: exact
             * for units square to each other, less for others (the Command
             * phase measures the move itself exactly). */
            cm = om_plane_box_gap(me->geom.shape.box, t->unit[v].geom.shape.box);
            if (cm < 0)
                cm = 0;
            else if (cm > REACH_PACES * pace)
                continue; /* beyond a turn's reach: no charge this turn */
            double s = dc->charge * charge_value(dc, odds, u, v, p) - dc->distance * cm / pace;
            if (s > best_score) {
                best_score = s;
                best = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE, .target = (int8_t)v, .by = -1};
            }
        }
        if (me->range_cm > 0 && dc->shoot > best_score) {
            best_score = dc->shoot;
            best = (om_wm_plan){.kind = OM_WM_PLAN_SHOOT, .target = -1, .by = -1};
        }
        /* A unit of an advancing brigade advances with it, not alone. */
        b = brigade[u];
        if (dc->advance > best_score && !(b >= 0 && brigaded[b]) &&
            (closest = closest_enemy(t, u)) >= 0) {
            best_score = dc->advance;
            best = (om_wm_plan){.kind = OM_WM_PLAN_ADVANCE, .target = (int8_t)closest,
                                .keep_cm = dc->keep_cm, .by = -1};
        }
        if (best.kind == OM_WM_PLAN_HOLD)
            continue;
        best.by = orderer(setup, t, u);
        setup->plan[u] = best;
        insert(list, &n, (issue){best_score, (int)u, -1});
    }
    for (unsigned k = 0; k < n; k++) {
        uint8_t rank = (uint8_t)(k < UINT8_MAX ? k : UINT8_MAX);
        if (list[k].brigade >= 0)
            setup->brigade_plan[list[k].brigade].priority = rank;
        else
            setup->plan[list[k].unit].priority = rank;
    }
}
