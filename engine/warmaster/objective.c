/*
 * objective.c: Take and Hold's objectives and Battle for the Tower's tower
 * (objective.h): who holds or controls them on a table as it stands, the
 * scenario points each side scores in either version, the fixed placement
 * policy of the objectives, and the verdict of the scenario points. Called
 * from inside a battle's trials: nothing here allocates or formats.
 */
#include "objective.h"

#include "battle.h"
#include "plane.h"

const char *const om_wm_scenario_names[OM_WM_SCENARIO_COUNT] = {
    [OM_WM_SCENARIO_NONE] = "none",
    [OM_WM_SCENARIO_TAKE_AND_HOLD] = "take-and-hold",
    [OM_WM_SCENARIO_TOWER] = "battle-for-the-tower",
};

const char *const om_wm_scenario_unmodelled[] = {"defending-the-village", "wagon-train", NULL};

const char *const om_wm_scenario_version_names[OM_WM_SCENARIO_VERSION_COUNT] = {
    [OM_WM_SCENARIO_REVOLUTION] = "revolution",
    [OM_WM_SCENARIO_BATTLEFIELDS] = "battlefields",
};

/* Points for an objective (Warmaster Revolution, Take and Hold > Victory
 * Points; Battlefields, Take and hold > Victory Points). */
#define REV_OWN_ZONE_VP 1u
#define REV_CENTRE_VP 2u
#define REV_ENEMY_ZONE_VP 3u
#define BF_OWN_HALF_VP 1u
#define BF_ENEMY_HALF_VP 2u
/* Points for controlling the tower, and for each bonus distance. */
#define REV_TOWER_VP 2u
#define BF_TOWER_VP 3u
#define TOWER_BONUS_VP 1u

/* Scenario points' differences at which a victory becomes major and a
 * massacre (Scenarios > Victory Points: 1-2 minor, 3-5 major, 6+ massacre). */
#define MAJOR_FROM_VP 3u
#define MASSACRE_FROM_VP 6u

/* Step, in cm, by which a blocked objective slides along its line. */
#define SLIDE_STEP_CM 1.0

/* The outline of unit u as a shape (the unit's own rectangle, worked out). */
static void unit_outline(const om_wm_table_unit *u, om_plane_shape *out)
{
    om_plane_poly p = {.n = 4};
    om_wm_table_unit_corners(u, p.v);
    om_plane_shape_of(out, &p);
}

int om_wm_objective_holder(const om_wm_table *t, om_wm_vec at)
{
    bool holds[2] = {false, false}, near[2] = {false, false};
    for (unsigned u = 0; u < t->units; u++) {
        const om_wm_table_unit *un = &t->unit[u];
        om_plane_shape s;
        if (!un->present)
            continue;
        unit_outline(un, &s);
        if (om_plane_point_distance(at, &s) > OM_WM_OBJECTIVE_HOLD_CM)
            continue;
        near[un->side] = true;
        /* Flyers cannot hold but contest; a confused unit does neither hold
         * nor, the sources being silent, lose its power to contest. */
        if (!un->confused && (un->traits & OM_WM_TABLE_TRAIT_FLYER) == 0)
            holds[un->side] = true;
    }
    for (unsigned s = 0; s < 2; s++)
        if (holds[s] && !near[1 - s])
            return (int)s;
    return -1;
}

int om_wm_tower_controller(const om_wm_table *t, unsigned tower)
{
    unsigned holders[2] = {0, 0};
    bool touching[2] = {false, false};
    const om_plane_shape *tw = &t->terrain[tower].shape;
    for (unsigned u = 0; u < t->units; u++) {
        const om_wm_table_unit *un = &t->unit[u];
        om_plane_shape s;
        if (!un->present)
            continue;
        unit_outline(un, &s);
        if (om_plane_distance(&s, tw) > OM_WM_TABLE_TOUCH_CM)
            continue;
        touching[un->side] = true;
        if (!un->confused && un->troop <= OM_WM_CHARIOT && !om_wm_table_engaged(t, u))
            holders[un->side]++;
    }
    for (unsigned s = 0; s < 2; s++)
        if (holders[s] >= OM_WM_TOWER_HOLDERS && !touching[1 - s])
            return (int)s;
    return -1;
}

/* Distance from `at` to side `side`'s own table edge. */
static double from_own_edge(const om_wm_table *t, om_wm_vec at, unsigned side)
{
    return side == 0 ? at.y : t->depth_cm - at.y;
}

unsigned om_wm_objective_worth(om_wm_scenario_version v, const om_wm_table *t, om_wm_vec at,
                               unsigned side)
{
    const double own = from_own_edge(t, at, side), half = t->depth_cm / 2;
    if (v == OM_WM_SCENARIO_BATTLEFIELDS)
        return own > half ? BF_ENEMY_HALF_VP : BF_OWN_HALF_VP;
    if (own >= half - OM_WM_OBJECTIVE_CENTRE_CM && own <= half + OM_WM_OBJECTIVE_CENTRE_CM)
        return REV_CENTRE_VP;
    return own < half ? REV_OWN_ZONE_VP : REV_ENEMY_ZONE_VP;
}

/* Whether a present unit of side `side` stands within `cm` of the tower. */
static bool side_within(const om_wm_table *t, const om_plane_shape *tw, unsigned side, double cm)
{
    for (unsigned u = 0; u < t->units; u++) {
        om_plane_shape s;
        if (!t->unit[u].present || t->unit[u].side != side)
            continue;
        unit_outline(&t->unit[u], &s);
        if (om_plane_distance(&s, tw) <= cm)
            return true;
    }
    return false;
}

unsigned om_wm_scenario_score(const om_wm_scenario_setup *s, const om_wm_table *t, unsigned side)
{
    unsigned vp = 0;
    if (s->kind == OM_WM_SCENARIO_TAKE_AND_HOLD) {
        for (unsigned k = 0; k < OM_WM_OBJECTIVES; k++)
            if (om_wm_objective_holder(t, s->objective[k]) == (int)side)
                vp += om_wm_objective_worth(s->version, t, s->objective[k], side);
    } else if (s->kind == OM_WM_SCENARIO_TOWER && s->tower >= 0) {
        const om_plane_shape *tw = &t->terrain[s->tower].shape;
        if (om_wm_tower_controller(t, (unsigned)s->tower) != (int)side)
            return 0;
        vp = s->version == OM_WM_SCENARIO_BATTLEFIELDS ? BF_TOWER_VP : REV_TOWER_VP;
        if (!side_within(t, tw, 1 - side, OM_WM_TOWER_NEAR_CM))
            vp += TOWER_BONUS_VP;
        if (!side_within(t, tw, 1 - side, OM_WM_TOWER_FAR_CM))
            vp += TOWER_BONUS_VP;
    }
    return vp;
}

/* Whether terrain kind k counts as dense for placing an objective, and
 * whether an objective may stand in it (not dense, not impassable: Movement >
 * Terrain, the kinds of table.h). */
static bool kind_dense(om_wm_terrain_kind k)
{
    return k == OM_WM_TERRAIN_WOOD || k == OM_WM_TERRAIN_VILLAGE || k == OM_WM_TERRAIN_MARSH ||
           k == OM_WM_TERRAIN_STEEP_HILL;
}

static bool kind_blocks(om_wm_terrain_kind k)
{
    return kind_dense(k) || k == OM_WM_TERRAIN_RIVER || k == OM_WM_TERRAIN_BUILDING ||
           k == OM_WM_TERRAIN_HIGH_OBSTACLE;
}

bool om_wm_objective_clear(const om_wm_table *t, om_wm_vec at, double dense_gap_cm)
{
    if (at.x < 0 || at.y < 0 || at.x > t->width_cm || at.y > t->depth_cm)
        return false;
    for (unsigned k = 0; k < t->terrain_pieces; k++) {
        const om_wm_terrain *p = &t->terrain[k];
        if (kind_blocks(p->kind) && om_plane_point_inside(at, &p->shape))
            return false;
        if (dense_gap_cm > 0 && kind_dense(p->kind) &&
            om_plane_point_distance(at, &p->shape) < dense_gap_cm)
            return false;
    }
    return true;
}

/* Whether `at` keeps OM_WM_OBJECTIVE_APART_CM from objectives [0, n). */
static bool apart(const om_wm_vec *placed, unsigned n, om_wm_vec at)
{
    for (unsigned k = 0; k < n; k++)
        if (om_plane_len(om_plane_sub(placed[k], at)) < OM_WM_OBJECTIVE_APART_CM)
            return false;
    return true;
}

void om_wm_objectives_place(om_wm_scenario_setup *s, const om_wm_table *t, double zone_cm)
{
    const bool bf = s->version == OM_WM_SCENARIO_BATTLEFIELDS;
    const double w = t->width_cm, mid = t->depth_cm / 2;
    const double outer = (zone_cm + (mid - OM_WM_OBJECTIVE_CENTRE_CM)) / 2;
    const om_wm_vec want[OM_WM_OBJECTIVES] = {
        {w / 3, mid}, {2 * w / 3, mid}, {w / 2, outer}, {w / 2, t->depth_cm - outer}};
    const double gap = bf ? OM_WM_OBJECTIVE_DENSE_GAP_CM : 0;
    for (unsigned k = 0; k < OM_WM_OBJECTIVES; k++) {
        om_wm_vec at = want[k];
        /* Slide along x, nearest first, right before left. */
        for (double dx = 0; dx <= w / 2; dx += SLIDE_STEP_CM) {
            const om_wm_vec c[2] = {{want[k].x + dx, want[k].y}, {want[k].x - dx, want[k].y}};
            bool found = false;
            for (unsigned j = 0; j < 2 && !found; j++)
                if (om_wm_objective_clear(t, c[j], gap) && (!bf || apart(s->objective, k, c[j]))) {
                    at = c[j];
                    found = true;
                }
            if (found)
                break;
        }
        s->objective[k] = at;
    }
}

void om_wm_scenario_judge_level(om_wm_scenario_version v, const uint32_t vp[2],
                                const bool withdrew[2], uint8_t *winner, unsigned *level)
{
    unsigned w, diff;
    if (vp[0] == vp[1]) {
        *winner = 2;
        *level = OM_WM_VICTORY_DRAW;
        return;
    }
    w = vp[0] > vp[1] ? 0u : 1u;
    diff = vp[w] - vp[1 - w];
    if (v == OM_WM_SCENARIO_BATTLEFIELDS && withdrew[w]) {
        *winner = 2;
        *level = OM_WM_VICTORY_DRAW;
        return;
    }
    *winner = (uint8_t)w;
    *level = diff >= MASSACRE_FROM_VP ? OM_WM_VICTORY_MASSACRE
             : diff >= MAJOR_FROM_VP  ? OM_WM_VICTORY_MAJOR
                                      : OM_WM_VICTORY_MINOR;
}

/* Whether unit u's brigade, if any, advances as one this turn (its units then
 * move by the brigade's orders, not their own). */
static bool brigade_moves(const om_wm_table *t, const om_wm_command_setup *setup, unsigned u)
{
    for (unsigned b = 0; b < t->brigades; b++)
        for (unsigned i = 0; i < t->brigade[b].count; i++)
            if (t->brigade[b].unit[i] == u)
                return setup->brigade_plan[b].kind != OM_WM_PLAN_HOLD;
    return false;
}

/* Whether unit u of side `side` may be sent to contest: present, free, able to
 * hold (`tower`: infantry, cavalry or chariots; else not a flyer), its plan a
 * hold or an advance, its brigade not advancing as one. */
static bool may_contest(const om_wm_table *t, const om_wm_command_setup *setup, unsigned side,
                        unsigned u, bool tower)
{
    const om_wm_table_unit *un = &t->unit[u];
    const om_wm_plan_kind k = setup->plan[u].kind;
    if (!un->present || un->side != side || un->confused || om_wm_table_engaged(t, u))
        return false;
    if (tower ? un->troop > OM_WM_CHARIOT : (un->traits & OM_WM_TABLE_TRAIT_FLYER) != 0)
        return false;
    return (k == OM_WM_PLAN_HOLD || k == OM_WM_PLAN_ADVANCE) && !brigade_moves(t, setup, u);
}

/* Distance from unit u's nearest edge to the point `at`. */
static double unit_gap(const om_wm_table *t, unsigned u, om_wm_vec at)
{
    om_plane_shape s;
    unit_outline(&t->unit[u], &s);
    return om_plane_point_distance(at, &s);
}

/* Room left between two units sent side by side to the tower's face, cm. */
#define TOWER_PAIR_GAP_CM 0.5
/* How far short of the tower's face a unit sent there aims to stand: within
 * the touch tolerance, so that it touches without its move meeting the
 * building (which a move would go round). */
#define TOWER_FACE_GAP_CM (OM_WM_TABLE_TOUCH_CM / 2)

/* Send the best unit of side `side` not yet used to `goal`, `worth` scenario
 * points away, `near` its distance to cover; returns whether one went. With
 * `beside` -1 or 1 (the tower), `goal` is the middle of the tower's face on
 * the side's own side: the chosen unit aims to stand with its front against
 * it (back from the face by half its depth), shifted that way by half its
 * width, so that two units sent to one face stand side by side, each over
 * the face. */
static bool send_one(const om_wm_doctrine *dc, const om_wm_table *t, unsigned side, bool tower,
                     om_wm_vec goal, const om_wm_vec *near, double worth, int beside,
                     bool *used, om_wm_command_setup *setup)
{
    int best = -1;
    double best_score = dc->hold;
    for (unsigned u = 0; u < t->units; u++) {
        double pace, score;
        if (used[u] || !may_contest(t, setup, side, u, tower))
            continue;
        pace = om_wm_table_move_pace(t, u);
        score = dc->contest * worth -
                dc->contest_distance * (pace > 0 ? unit_gap(t, u, *near) / pace : 0);
        if (score > best_score) {
            best_score = score;
            best = (int)u;
        }
    }
    if (best < 0)
        return false;
    used[best] = true;
    if (beside != 0) {
        const double back = om_wm_table_unit_depth(&t->unit[best]) / 2 + TOWER_FACE_GAP_CM;
        goal.x += beside * (om_wm_table_unit_width(&t->unit[best]) / 2 + TOWER_PAIR_GAP_CM);
        goal.y += side == 0 ? -back : back;
    }
    setup->plan[best] = (om_wm_plan){.kind = OM_WM_PLAN_ADVANCE, .target = -1, .goal = goal,
                                     .by = om_wm_doctrine_orderer(setup, t, (unsigned)best),
                                     .orders = (uint8_t)dc->orders, .priority = 0};
    return true;
}

/* A unit of side `side` that stays where it is, holding what it holds, unless
 * it charges. */
static void stay(const om_wm_table *t, unsigned u, bool *used, om_wm_command_setup *setup)
{
    used[u] = true;
    if (setup->plan[u].kind != OM_WM_PLAN_CHARGE && !om_wm_table_engaged(t, u))
        setup->plan[u] = (om_wm_plan){.kind = OM_WM_PLAN_HOLD, .target = -1, .by = -1};
}

/* Take and Hold: each objective, the side's most valuable first. */
static void contest_objectives(const om_wm_doctrine *dc, const om_wm_scenario_setup *sc,
                               const om_wm_table *t, unsigned side, bool *used,
                               om_wm_command_setup *setup)
{
    unsigned order[OM_WM_OBJECTIVES], worth[OM_WM_OBJECTIVES];
    for (unsigned k = 0; k < OM_WM_OBJECTIVES; k++) {
        unsigned j = k;
        worth[k] = om_wm_objective_worth(sc->version, t, sc->objective[k], side);
        /* Insertion by worth, most first; ties in the objectives' order. */
        while (j > 0 && worth[order[j - 1]] < worth[k]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
    /* The objectives held first: their keepers stay, and no other
     * objective draws them away. */
    bool held[OM_WM_OBJECTIVES] = {false};
    for (unsigned k = 0; k < OM_WM_OBJECTIVES; k++) {
        const om_wm_vec at = sc->objective[k];
        int keeper = -1;
        if (om_wm_objective_holder(t, at) != (int)side)
            continue;
        for (unsigned u = 0; u < t->units && keeper < 0; u++)
            if (!used[u] && t->unit[u].present && t->unit[u].side == side &&
                !t->unit[u].confused && (t->unit[u].traits & OM_WM_TABLE_TRAIT_FLYER) == 0 &&
                unit_gap(t, u, at) <= OM_WM_OBJECTIVE_HOLD_CM)
                keeper = (int)u;
        if (keeper >= 0) {
            stay(t, (unsigned)keeper, used, setup);
            held[k] = true;
        }
    }
    for (unsigned i = 0; i < OM_WM_OBJECTIVES; i++)
        if (!held[order[i]])
            (void)send_one(dc, t, side, false, sc->objective[order[i]], &sc->objective[order[i]],
                           worth[order[i]], 0, used, setup);
}

/* Battle for the Tower: two units to its face on the side's own side. */
static void contest_tower(const om_wm_doctrine *dc, const om_wm_scenario_setup *sc,
                          const om_wm_table *t, unsigned side, bool *used,
                          om_wm_command_setup *setup)
{
    const om_plane_shape *tw = &t->terrain[sc->tower].shape;
    const om_wm_vec mid = {(tw->box.x0 + tw->box.x1) / 2, (tw->box.y0 + tw->box.y1) / 2};
    const double worth = (sc->version == OM_WM_SCENARIO_BATTLEFIELDS ? BF_TOWER_VP
                                                                     : REV_TOWER_VP) /
                         (double)OM_WM_TOWER_HOLDERS;
    const double face = side == 0 ? tw->box.y0 : tw->box.y1;
    unsigned holding = 0;
    for (unsigned u = 0; u < t->units; u++) {
        om_plane_shape s;
        if (!t->unit[u].present || t->unit[u].side != side)
            continue;
        unit_outline(&t->unit[u], &s);
        if (om_plane_distance(&s, tw) <= OM_WM_TABLE_TOUCH_CM && holding < OM_WM_TOWER_HOLDERS) {
            stay(t, u, used, setup);
            holding++;
        }
    }
    /* The two side by side across the middle of the near face. */
    for (unsigned k = holding; k < OM_WM_TOWER_HOLDERS; k++) {
        const om_wm_vec near = {mid.x, face};
        if (!send_one(dc, t, side, true, near, &near, worth, k == 0 ? -1 : 1, used, setup))
            break;
    }
}

void om_wm_objective_contest(const om_wm_doctrine *dc, const om_wm_scenario_setup *sc,
                             const om_wm_table *t, unsigned side, om_wm_command_setup *setup)
{
    bool used[OM_WM_TABLE_MAX_UNITS] = {false};
    if (dc->contest <= 0)
        return;
    if (sc->kind == OM_WM_SCENARIO_TAKE_AND_HOLD)
        contest_objectives(dc, sc, t, side, used, setup);
    else if (sc->kind == OM_WM_SCENARIO_TOWER && sc->tower >= 0)
        contest_tower(dc, sc, t, side, used, setup);
}
