/*
 * test_objective.c: the scenarios Take and Hold and Battle for the Tower
 * (engine/warmaster/objective.h) on tables built by hand: who holds an
 * objective (a unit within 5cm, no enemy within 5cm, flyers and confused
 * units cannot hold), who controls the tower (two infantry, cavalry or
 * chariot units touching it, not confused, not in combat, no enemy touching),
 * what each objective and the tower are worth in either version, where the
 * objectives are placed, the verdict of scenario points, and whole battles
 * scored at their end (Warmaster Revolution) or each turn from the third,
 * first to 10 (Battlefields). Each test fails when the rule it names is
 * removed.
 */
#include <criterion/criterion.h>

#include "battle_builder.h"
#include "objective.h"

/* A table of Warmaster Revolution, 180 x 120 cm. */
static void table(om_wm_table *t)
{
    om_wm_table_init(t, OM_WM_RULES_REV, 0, 0);
}

/* A 3-stand unit in line, centred at (x, y), facing +y (side 0) or -y (1). */
static unsigned put(om_wm_table *t, unsigned side, om_wm_troop troop, double x, double y)
{
    int u = om_wm_table_add_unit(t, OM_WM_RULES_REV, "Unit", side, troop, 3,
                                 OM_WM_TABLE_LINE, (om_wm_vec){x, y}, side == 0 ? 90 : 270);
    cr_assert_geq(u, 0);
    return (unsigned)u;
}

/* The objective at (90, 55): a unit facing +y centred at (90, 50) has its front
 * edge 1cm ahead, 4cm from it. */
static const om_wm_vec OBJ = {90, 55};

Test(objective, held_within_5cm)
{
    om_wm_table t;
    table(&t);
    cr_expect_eq(om_wm_objective_holder(&t, OBJ), -1, "nobody near");
    put(&t, 0, OM_WM_INFANTRY, 90, 50);
    cr_expect_eq(om_wm_objective_holder(&t, OBJ), 0, "4cm away holds");
    cr_expect_eq(om_wm_objective_holder(&t, (om_wm_vec){90, 56.5}), -1, "5.5cm away does not");
}

Test(objective, enemy_within_5cm_contests)
{
    om_wm_table t;
    table(&t);
    put(&t, 0, OM_WM_INFANTRY, 90, 50);
    unsigned b = put(&t, 1, OM_WM_INFANTRY, 90, 60); /* front edge at y 59, 4cm away */
    cr_expect_eq(om_wm_objective_holder(&t, OBJ), -1);
    t.unit[b].present = false;
    cr_expect_eq(om_wm_objective_holder(&t, OBJ), 0, "a destroyed enemy contests nothing");
}

Test(objective, flyers_contest_but_cannot_hold)
{
    om_wm_table t;
    table(&t);
    unsigned a = put(&t, 0, OM_WM_INFANTRY, 90, 50);
    unsigned b = put(&t, 1, OM_WM_MONSTER, 90, 60);
    t.unit[b].traits |= OM_WM_TABLE_TRAIT_FLYER;
    cr_expect_eq(om_wm_objective_holder(&t, OBJ), -1, "a flyer contests");
    t.unit[a].present = false;
    cr_expect_eq(om_wm_objective_holder(&t, OBJ), -1, "a flyer alone does not hold");
    t.unit[b].traits &= ~OM_WM_TABLE_TRAIT_FLYER;
    cr_expect_eq(om_wm_objective_holder(&t, OBJ), 1, "the same unit not flying holds");
}

Test(objective, confused_cannot_hold)
{
    om_wm_table t;
    table(&t);
    unsigned a = put(&t, 0, OM_WM_INFANTRY, 90, 50);
    t.unit[a].confused = true;
    cr_expect_eq(om_wm_objective_holder(&t, OBJ), -1);
}

/* The tower: an 8cm building from (86, 56) to (94, 64). */
static unsigned tower(om_wm_table *t)
{
    int k = om_wm_table_add_rect_terrain(t, OM_WM_TERRAIN_BUILDING, (om_wm_vec){86, 56},
                                         (om_wm_vec){94, 64});
    cr_assert_geq(k, 0);
    return (unsigned)k;
}

Test(objective, tower_needs_two_units)
{
    om_wm_table t;
    table(&t);
    unsigned k = tower(&t);
    put(&t, 0, OM_WM_INFANTRY, 84, 55); /* front edge y 56, x 78..90 */
    cr_expect_eq(om_wm_tower_controller(&t, k), -1, "one unit does not control");
    unsigned a2 = put(&t, 0, OM_WM_INFANTRY, 96, 55); /* x 90..102 */
    t.unit[a2].troop = OM_WM_CAVALRY; /* its outline kept: the troop type alone counts */
    cr_expect_eq(om_wm_tower_controller(&t, k), 0, "infantry and cavalry control");
    t.unit[a2].troop = OM_WM_ARTILLERY;
    cr_expect_eq(om_wm_tower_controller(&t, k), -1, "artillery does not count");
    t.unit[a2].troop = OM_WM_CHARIOT;
    cr_expect_eq(om_wm_tower_controller(&t, k), 0, "a chariot does");
    t.unit[a2].confused = true;
    cr_expect_eq(om_wm_tower_controller(&t, k), -1, "a confused unit does not");
}

Test(objective, tower_contested_and_combat)
{
    om_wm_table t;
    table(&t);
    unsigned k = tower(&t);
    unsigned a1 = put(&t, 0, OM_WM_INFANTRY, 84, 55);
    put(&t, 0, OM_WM_INFANTRY, 96, 55);
    cr_assert_eq(om_wm_tower_controller(&t, k), 0);
    unsigned b = put(&t, 1, OM_WM_INFANTRY, 90, 65); /* front edge y 64: touches the top */
    cr_expect_eq(om_wm_tower_controller(&t, k), -1, "an enemy touching denies it");
    t.unit[b].present = false;
    /* An enemy touching a1's rear (a1 spans y 54..56), away from the tower. */
    put(&t, 1, OM_WM_INFANTRY, 84, 53);
    cr_assert(om_wm_table_engaged(&t, a1));
    cr_expect_eq(om_wm_tower_controller(&t, k), -1, "a unit in combat does not count");
}

Test(objective, tower_points_and_bonuses)
{
    om_wm_table t;
    om_wm_scenario_setup rev = {.kind = OM_WM_SCENARIO_TOWER, .version = OM_WM_SCENARIO_REVOLUTION};
    om_wm_scenario_setup bf = rev;
    bf.version = OM_WM_SCENARIO_BATTLEFIELDS;
    table(&t);
    rev.tower = bf.tower = (int8_t)tower(&t);
    put(&t, 0, OM_WM_INFANTRY, 84, 55);
    put(&t, 0, OM_WM_INFANTRY, 96, 55);
    unsigned b = put(&t, 1, OM_WM_INFANTRY, 90, 80); /* front edge y 79: 15cm off */
    cr_expect_eq(om_wm_scenario_score(&rev, &t, 0), 2u + 1u);
    cr_expect_eq(om_wm_scenario_score(&bf, &t, 0), 3u + 1u);
    cr_expect_eq(om_wm_scenario_score(&rev, &t, 1), 0u);
    t.unit[b].centre.y = 90; /* 25cm off */
    om_wm_table_update(&t, b);
    cr_expect_eq(om_wm_scenario_score(&rev, &t, 0), 2u + 2u);
    cr_expect_eq(om_wm_scenario_score(&bf, &t, 0), 3u + 2u);
    t.unit[b].centre.y = 70; /* 5cm off */
    om_wm_table_update(&t, b);
    cr_expect_eq(om_wm_scenario_score(&rev, &t, 0), 2u);
    cr_expect_eq(om_wm_scenario_score(&bf, &t, 0), 3u);
}

Test(objective, worth_by_zone_and_half)
{
    om_wm_table t;
    table(&t);
    const om_wm_vec centre = {60, 60}, central_a = {60, 50}, near_a = {90, 32.5},
                    near_b = {90, 87.5};
    for (unsigned s = 0; s < 2; s++) {
        cr_expect_eq(om_wm_objective_worth(OM_WM_SCENARIO_REVOLUTION, &t, centre, s), 2u);
        cr_expect_eq(om_wm_objective_worth(OM_WM_SCENARIO_REVOLUTION, &t, central_a, s), 2u);
        cr_expect_eq(om_wm_objective_worth(OM_WM_SCENARIO_BATTLEFIELDS, &t, centre, s), 1u);
    }
    cr_expect_eq(om_wm_objective_worth(OM_WM_SCENARIO_REVOLUTION, &t, near_a, 0), 1u);
    cr_expect_eq(om_wm_objective_worth(OM_WM_SCENARIO_REVOLUTION, &t, near_a, 1), 3u);
    cr_expect_eq(om_wm_objective_worth(OM_WM_SCENARIO_REVOLUTION, &t, near_b, 0), 3u);
    cr_expect_eq(om_wm_objective_worth(OM_WM_SCENARIO_BATTLEFIELDS, &t, near_a, 0), 1u);
    cr_expect_eq(om_wm_objective_worth(OM_WM_SCENARIO_BATTLEFIELDS, &t, near_a, 1), 2u);
    cr_expect_eq(om_wm_objective_worth(OM_WM_SCENARIO_BATTLEFIELDS, &t, central_a, 0), 1u);
    cr_expect_eq(om_wm_objective_worth(OM_WM_SCENARIO_BATTLEFIELDS, &t, central_a, 1), 2u);
}

Test(objective, placement_policy)
{
    om_wm_table t;
    om_wm_scenario_setup s = {.kind = OM_WM_SCENARIO_TAKE_AND_HOLD,
                              .version = OM_WM_SCENARIO_REVOLUTION};
    table(&t);
    om_wm_objectives_place(&s, &t, 20);
    cr_expect_float_eq(s.objective[0].x, 60, 1e-9);
    cr_expect_float_eq(s.objective[0].y, 60, 1e-9);
    cr_expect_float_eq(s.objective[1].x, 120, 1e-9);
    cr_expect_float_eq(s.objective[2].y, 32.5, 1e-9);
    cr_expect_float_eq(s.objective[3].y, 87.5, 1e-9);
    /* A wood over the first: out of it (Revolution), 5cm clear of it
     * (Battlefields). */
    cr_assert_geq(om_wm_table_add_rect_terrain(&t, OM_WM_TERRAIN_WOOD, (om_wm_vec){55, 55},
                                               (om_wm_vec){65, 65}), 0);
    om_wm_objectives_place(&s, &t, 20);
    cr_expect(s.objective[0].x > 65 && s.objective[0].x <= 66, "x %g", s.objective[0].x);
    s.version = OM_WM_SCENARIO_BATTLEFIELDS;
    om_wm_objectives_place(&s, &t, 20);
    cr_expect_float_eq(s.objective[0].x, 70, 1e-9);
    for (unsigned i = 0; i < OM_WM_OBJECTIVES; i++)
        for (unsigned j = 0; j < i; j++)
            cr_expect_geq(om_plane_len(om_plane_sub(s.objective[i], s.objective[j])),
                          OM_WM_OBJECTIVE_APART_CM);
}

Test(objective, placement_keeps_30cm_apart)
{
    om_wm_table t;
    om_wm_scenario_setup s = {.kind = OM_WM_SCENARIO_TAKE_AND_HOLD,
                              .version = OM_WM_SCENARIO_BATTLEFIELDS};
    /* A narrow table: the central ones 20cm apart at a third and two thirds. */
    om_wm_table_init(&t, OM_WM_RULES_REV, 60, 120);
    om_wm_objectives_place(&s, &t, 20);
    cr_expect_geq(om_plane_len(om_plane_sub(s.objective[1], s.objective[0])),
                  OM_WM_OBJECTIVE_APART_CM);
}

Test(objective, verdict_of_scenario_points)
{
    const bool none[2] = {false, false}, a_out[2] = {true, false};
    static const struct {
        uint32_t vp[2];
        unsigned winner, level;
    } cases[] = {
        {{0, 0}, 2, OM_WM_VICTORY_DRAW},     {{2, 1}, 0, OM_WM_VICTORY_MINOR},
        {{0, 2}, 1, OM_WM_VICTORY_MINOR},    {{3, 0}, 0, OM_WM_VICTORY_MAJOR},
        {{1, 6}, 1, OM_WM_VICTORY_MAJOR},    {{6, 0}, 0, OM_WM_VICTORY_MASSACRE},
        {{2, 12}, 1, OM_WM_VICTORY_MASSACRE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t w;
        unsigned level;
        om_wm_scenario_judge_level(OM_WM_SCENARIO_REVOLUTION, cases[i].vp, none, &w, &level);
        cr_expect_eq(w, cases[i].winner, "case %zu", i);
        cr_expect_eq(level, cases[i].level, "case %zu", i);
    }
    /* A withdrawn army at best draws in Battlefields; Revolution scores it
     * on the points (its scenarios score "no matter whether the army was
     * broken or not"). */
    uint8_t w;
    unsigned level;
    const uint32_t vp[2] = {5, 2};
    om_wm_scenario_judge_level(OM_WM_SCENARIO_BATTLEFIELDS, vp, a_out, &w, &level);
    cr_expect_eq(w, 2u);
    cr_expect_eq(level, OM_WM_VICTORY_DRAW);
    om_wm_scenario_judge_level(OM_WM_SCENARIO_REVOLUTION, vp, a_out, &w, &level);
    cr_expect_eq(w, 0u);
    cr_expect_eq(level, OM_WM_VICTORY_MAJOR);
}

/* A whole battle of one infantry unit a side that never moves: side A's on an
 * objective in side B's outer zone (30, 100), side B's far from every
 * objective; side A moves first, 8 battle turns. */
static void still_battle(om_wm_scenario_version v, om_wm_battle_result *r)
{
    builder x;
    om_wm_turn_work *w = NULL;
    om_dice d;
    static const om_wm_traits none;
    begin(&x, "warmaster-revolution");
    for (unsigned s = 0; s < 2; s++) {
        om_wm_unit u;
        int i = om_wm_table_add_unit(&x.t.table, x.t.rules->id, "Spearmen", s, OM_WM_INFANTRY,
                                     3, OM_WM_TABLE_LINE,
                                     s == 0 ? (om_wm_vec){30, 97} : (om_wm_vec){170, 10},
                                     s == 0 ? 90 : 270);
        cr_assert_geq(i, 0);
        memset(&u, 0, sizeof u);
        snprintf(u.name, sizeof u.name, "Spearmen");
        u.troop = OM_WM_INFANTRY;
        u.stands = u.size = 3;
        u.attacks = u.hits = 3;
        u.pace_cm = (uint8_t)om_wm_troop_pace(OM_WM_INFANTRY);
        u.traits = none;
        u.points = 50;
        om_wm_side_init(&x.t.unit[i].side, &u);
    }
    x.o.first = 0;
    x.o.scenario = (om_wm_scenario_setup){
        .kind = OM_WM_SCENARIO_TAKE_AND_HOLD, .version = v, .objectives_given = true,
        .objective = {{30, 100}, {90, 60}, {150, 60}, {90, 35}}};
    om_wm_battle_prepared *p = prepare(&x);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 3);
    om_wm_battle_resolve(p, w, &d, r);
    om_wm_turn_work_free(w);
    om_wm_battle_prepared_free(p);
}

Test(objective, revolution_scores_at_the_end)
{
    om_wm_battle_result r;
    still_battle(OM_WM_SCENARIO_REVOLUTION, &r);
    cr_expect_eq(r.turns, 8u);
    cr_expect_eq(r.end, OM_WM_END_LENGTH);
    cr_expect_eq(r.scenario_vp[0], 3u, "the objective next to the enemy's zone");
    cr_expect_eq(r.scenario_vp[1], 0u);
    cr_expect_eq(r.vp[0] + r.vp[1], 0u, "no unit's points");
    cr_expect_eq(r.verdict.winner, 0u);
    cr_expect_eq(r.verdict.level, OM_WM_VICTORY_MAJOR);
}

Test(objective, battlefields_scores_each_turn_from_the_third_to_ten)
{
    om_wm_battle_result r;
    still_battle(OM_WM_SCENARIO_BATTLEFIELDS, &r);
    /* 2 a turn (the enemy's half) at the end of A's turns 3 to 7: 10. */
    cr_expect_eq(r.scenario_vp[0], 10u);
    cr_expect_eq(r.scenario_vp[1], 0u);
    cr_expect_eq(r.turns, 7u);
    cr_expect_eq(r.end, OM_WM_END_SCENARIO);
    cr_expect_eq(r.verdict.winner, 0u);
    cr_expect_eq(r.verdict.level, OM_WM_VICTORY_MASSACRE);
}

Test(objective, no_scenario_no_points)
{
    om_wm_table t;
    om_wm_scenario_setup none = {0};
    table(&t);
    put(&t, 0, OM_WM_INFANTRY, 90, 50);
    cr_expect_eq(om_wm_scenario_score(&none, &t, 0), 0u);
}

/* Side A's plans, every unit holding with no orderer. */
static void holding_plans(om_wm_command_setup *setup)
{
    memset(setup, 0, sizeof *setup);
    setup->side = 0;
    for (unsigned u = 0; u < OM_WM_TABLE_MAX_UNITS; u++)
        setup->plan[u] = (om_wm_plan){.kind = OM_WM_PLAN_HOLD, .target = -1, .by = -1};
    for (unsigned b = 0; b < OM_WM_TABLE_MAX_BRIGADES; b++)
        setup->brigade_plan[b] = (om_wm_plan){.kind = OM_WM_PLAN_HOLD, .target = -1, .by = -1};
}

Test(objective, doctrine_contests_the_most_valuable_objective)
{
    om_wm_table t;
    om_wm_command_setup setup;
    om_wm_doctrine dc = {.contest = 1.0, .contest_distance = 0.1, .hold = 0};
    /* Objectives: one in B's outer zone (3 points to A), one in the centre
     * (2), two far off the table's side A would reach. */
    om_wm_scenario_setup sc = {.kind = OM_WM_SCENARIO_TAKE_AND_HOLD,
                               .version = OM_WM_SCENARIO_REVOLUTION,
                               .objective = {{30, 60}, {90, 90}, {150, 30}, {170, 60}}};
    table(&t);
    unsigned a = put(&t, 0, OM_WM_INFANTRY, 90, 20);
    holding_plans(&setup);
    om_wm_objective_contest(&dc, &sc, &t, 0, &setup);
    cr_expect_eq(setup.plan[a].kind, OM_WM_PLAN_ADVANCE, "sent to contest");
    cr_expect_eq(setup.plan[a].target, -1);
    cr_expect_float_eq(setup.plan[a].goal.x, 90, 1e-9, "to the objective worth 3");
    cr_expect_float_eq(setup.plan[a].goal.y, 90, 1e-9);
    /* No weight: the plans as the doctrine wrote them. */
    dc.contest = 0;
    holding_plans(&setup);
    om_wm_objective_contest(&dc, &sc, &t, 0, &setup);
    cr_expect_eq(setup.plan[a].kind, OM_WM_PLAN_HOLD);
    /* A score below the hold's: no contest. */
    dc.contest = 1.0;
    dc.hold = 5;
    om_wm_objective_contest(&dc, &sc, &t, 0, &setup);
    cr_expect_eq(setup.plan[a].kind, OM_WM_PLAN_HOLD);
}

Test(objective, doctrine_holder_stays_and_flyers_are_not_sent)
{
    om_wm_table t;
    om_wm_command_setup setup;
    const om_wm_doctrine dc = {.contest = 1.0, .contest_distance = 0.1};
    om_wm_scenario_setup sc = {.kind = OM_WM_SCENARIO_TAKE_AND_HOLD,
                               .version = OM_WM_SCENARIO_BATTLEFIELDS,
                               .objective = {{90, 55}, {10, 110}, {170, 110}, {170, 10}}};
    table(&t);
    unsigned a = put(&t, 0, OM_WM_INFANTRY, 90, 50); /* holds the first objective */
    unsigned f = put(&t, 0, OM_WM_MONSTER, 30, 20);
    t.unit[f].traits |= OM_WM_TABLE_TRAIT_FLYER;
    holding_plans(&setup);
    setup.plan[a] = (om_wm_plan){.kind = OM_WM_PLAN_ADVANCE, .target = -1, .goal = {90, 110},
                                 .by = -1};
    om_wm_objective_contest(&dc, &sc, &t, 0, &setup);
    cr_expect_eq(setup.plan[a].kind, OM_WM_PLAN_HOLD, "the holder stays");
    cr_expect_eq(setup.plan[f].kind, OM_WM_PLAN_HOLD, "a flyer cannot hold: not sent");
}

Test(objective, doctrine_sends_two_to_the_tower)
{
    om_wm_table t;
    om_wm_command_setup setup;
    const om_wm_doctrine dc = {.contest = 1.0, .contest_distance = 0.1};
    om_wm_scenario_setup sc = {.kind = OM_WM_SCENARIO_TOWER,
                               .version = OM_WM_SCENARIO_REVOLUTION};
    table(&t);
    sc.tower = (int8_t)tower(&t);
    unsigned a1 = put(&t, 0, OM_WM_INFANTRY, 60, 20);
    unsigned art = put(&t, 0, OM_WM_ARTILLERY, 90, 30);
    unsigned a2 = put(&t, 0, OM_WM_CAVALRY, 120, 20);
    holding_plans(&setup);
    om_wm_objective_contest(&dc, &sc, &t, 0, &setup);
    cr_expect_eq(setup.plan[a1].kind, OM_WM_PLAN_ADVANCE);
    cr_expect_eq(setup.plan[a2].kind, OM_WM_PLAN_ADVANCE);
    cr_expect_eq(setup.plan[art].kind, OM_WM_PLAN_HOLD, "artillery cannot control the tower");
    cr_expect_neq(setup.plan[a1].goal.x, setup.plan[a2].goal.x, "each to a half of its face");
}
