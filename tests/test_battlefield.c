/*
 * test_battlefield.c: the battlefield before a battle (battlefield.h) and the
 * deployment methods (battle.h, om_wm_battle_deploy), against what can be
 * known exactly: the scouting points of each source's table, the exact law of
 * the scouting roll (2D6 + points, ties rolled again) and the simulated roll
 * against it, the number of pieces each terrain method lays out against the
 * law it implies (fixed seeds, five standard errors), every generated table
 * within the rules (on the table, out of the deployment zones, no piece over
 * another, the symmetrical one mirrored), the order of placements of each
 * deployment method, the placement policy's counter-deployment, and a battle
 * file's terrain and deployment through the real loader.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "battle.h"
#include "battlefield.h"
#include "rng.h"
#include "wm_battle.h"
#include "wm_scenario.h"

#define SIGMAS 5.0

static const om_wm_traits NO_TRAITS;

/* A unit of no special rule. */
static om_wm_unit unit(om_wm_troop troop, unsigned armour, unsigned shots)
{
    om_wm_unit v;
    memset(&v, 0, sizeof v);
    snprintf(v.name, sizeof v.name, "%s", om_wm_troop_names[troop]);
    v.troop = troop;
    v.stands = v.size = 3;
    v.attacks = 3;
    v.hits = 3;
    v.armour = (uint8_t)armour;
    v.shots = (uint8_t)shots;
    v.range_cm = shots > 0 ? 30 : 0;
    v.pace_cm = (uint8_t)om_wm_troop_pace(troop);
    v.traits = NO_TRAITS;
    v.points = 100;
    return v;
}

/* ---- Scouting points ---- */

Test(scouting, units_score_by_each_sources_table)
{
    om_wm_unit cav0 = unit(OM_WM_CAVALRY, 0, 0), cav6 = unit(OM_WM_CAVALRY, 6, 0),
               cav5 = unit(OM_WM_CAVALRY, 5, 0), cav4 = unit(OM_WM_CAVALRY, 4, 0),
               inf = unit(OM_WM_INFANTRY, 4, 0), shot0 = unit(OM_WM_INFANTRY, 0, 1),
               shot5 = unit(OM_WM_INFANTRY, 5, 1), flyer = unit(OM_WM_MONSTER, 5, 0);
    flyer.traits.flies = true;
    /* Warmaster Revolution, Optional Rules > Scouting (halves). */
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_REV, "harpies", &flyer), 6);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_REV, "waywatchers", &inf), 6);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_REV, "wolf-riders", &cav0), 4);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_REV, "pistoliers", &cav6), 4);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_REV, "outriders", &cav5), 2);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_REV, "knights", &cav4), 0);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_REV, "rangers", &inf), 4);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_REV, "glade-guard", &inf), 2);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_REV, "crossbowmen", &shot0), 1);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_REV, "crossbowmen", &shot5), 0);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_REV, "halberdiers", &inf), 0);
    /* Battlefields, Scouting: no piquets; cavalry of 0 or 5+ patrols. */
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_WM11, "harpies", &flyer), 6);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_WM11, "rangers", &inf), 6);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_WM11, "pistoliers", &cav6), 4);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_WM11, "skirmishers", &inf), 4);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_WM11, "wolf-riders", &cav0), 2);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_WM11, "outriders", &cav5), 2);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_WM11, "skinks", &inf), 2);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_WM11, "crossbowmen", &shot0), 0);
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_WM11, "knights", &cav4), 0);
    /* Warmaster Ancients has no scouting. */
    cr_expect_eq(om_wm_scouting_unit_halves(OM_WM_RULES_WMA, "cavalry", &cav0), 0);
}

Test(scouting, characters_score_by_each_sources_table)
{
    cr_expect_eq(om_wm_scouting_character_halves(OM_WM_RULES_REV, OM_WM_HERO, 8, true), 6);
    cr_expect_eq(om_wm_scouting_character_halves(OM_WM_RULES_REV, OM_WM_GENERAL, 10, false), 4);
    cr_expect_eq(om_wm_scouting_character_halves(OM_WM_RULES_REV, OM_WM_GENERAL, 9, false), 2);
    cr_expect_eq(om_wm_scouting_character_halves(OM_WM_RULES_REV, OM_WM_HERO, 8, false), 1);
    cr_expect_eq(om_wm_scouting_character_halves(OM_WM_RULES_REV, OM_WM_WIZARD, 7, false), 0);
    cr_expect_eq(om_wm_scouting_character_halves(OM_WM_RULES_WM11, OM_WM_WIZARD, 7, true), 6);
    cr_expect_eq(om_wm_scouting_character_halves(OM_WM_RULES_WM11, OM_WM_GENERAL, 9, false), 4);
    cr_expect_eq(om_wm_scouting_character_halves(OM_WM_RULES_WM11, OM_WM_HERO, 8, false), 2);
    cr_expect_eq(om_wm_scouting_character_halves(OM_WM_RULES_WM11, OM_WM_HERO, 9, false), 0);
    cr_expect_eq(om_wm_scouting_character_halves(OM_WM_RULES_WMA, OM_WM_GENERAL, 9, true), 0);
}

/* Revolution: "fractions rounded up". */
Test(scouting, fractions_round_up)
{
    cr_expect_eq(om_wm_scouting_points(0), 0);
    cr_expect_eq(om_wm_scouting_points(1), 1);
    cr_expect_eq(om_wm_scouting_points(6), 3);
    cr_expect_eq(om_wm_scouting_points(7), 4);
}

/* The exact law: equal points win half the time; one point more wins when
 * 2D6 - 2D6 >= 0 (1442 of 2592), ties (a difference of -1: 140 of 1296)
 * rolled again: 1442 / 2312. */
Test(scouting, roll_law_is_exact)
{
    const unsigned even[2] = {4, 4}, one_up[2] = {1, 0}, far[2] = {0, 11};
    cr_expect_float_eq(om_wm_scouting_win_probability(even), 0.5, 1e-12);
    cr_expect_float_eq(om_wm_scouting_win_probability(one_up), 1442.0 / 2312.0, 1e-12);
    cr_expect_float_eq(om_wm_scouting_win_probability(far), 0.0, 1e-12);
}

Test(scouting, simulated_roll_follows_the_law)
{
    static const unsigned cases[][2] = {{0, 0}, {3, 1}, {1, 5}, {7, 19}};
    const unsigned n = 40000;
    om_dice d = {.plain = NULL};
    om_rng_seed_block(&d.rng, 2025, 0);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        double p = om_wm_scouting_win_probability(cases[c]), se = sqrt(p * (1 - p) / n);
        unsigned wins = 0;
        for (unsigned i = 0; i < n; i++) {
            unsigned total[2];
            unsigned w = om_wm_scouting_roll(cases[c], &d, total);
            cr_assert_neq(total[0], total[1]);
            cr_assert_eq(w, total[0] > total[1] ? 0u : 1u);
            wins += w == 0;
        }
        cr_expect_leq(fabs((double)wins / n - p), SIGMAS * se + 1e-12,
                      "points %u, %u: %u of %u, exact %.5f", cases[c][0], cases[c][1], wins, n,
                      p);
    }
}

/* ---- Terrain ---- */

#define TABLES 3000u

/* Lay out one table by `m` and check it is within the rules. */
static unsigned lay_out(om_wm_terrain_method m, om_dice *d, om_wm_table *t)
{
    double zone;
    unsigned n;
    om_wm_table_init(t, OM_WM_RULES_REV, 0, 0);
    zone = om_wm_deploy_zone_cm(t, OM_WM_RULES_REV);
    n = om_wm_battlefield_generate(t, m, zone, d);
    cr_assert_eq(n, t->terrain_pieces);
    cr_assert_eq(om_wm_battlefield_check_terrain(t, NULL), OM_OK);
    cr_assert_eq(om_wm_table_check(t, OM_WM_RULES_REV, NULL), OM_OK);
    for (unsigned k = 0; k < n; k++) {
        for (unsigned j = 0; j < k; j++)
            cr_assert_geq(om_plane_distance(&t->terrain[k].shape, &t->terrain[j].shape),
                          OM_WM_TERRAIN_GAP_CM - 1e-9);
        for (unsigned i = 0; i < t->terrain[k].vertices; i++)
            cr_assert(t->terrain[k].v[i].y >= zone - 1e-9 &&
                          t->terrain[k].v[i].y <= 120 - zone + 1e-9,
                      "piece %u reaches into a deployment zone (y %g)", k,
                      t->terrain[k].v[i].y);
    }
    return n;
}

/* The counts of TABLES tables of method m against the law p[count - 6]. */
static void count_law(om_wm_terrain_method m, const double p[5], uint64_t seed)
{
    unsigned seen[OM_WM_TERRAIN_PIECES_MAX + 1] = {0};
    om_dice d = {.plain = NULL};
    om_wm_table *t = malloc(sizeof *t);
    cr_assert_not_null(t);
    om_rng_seed_block(&d.rng, seed, 0);
    for (unsigned i = 0; i < TABLES; i++) {
        unsigned n = lay_out(m, &d, t);
        cr_assert(n >= OM_WM_TERRAIN_PIECES_MIN && n <= OM_WM_TERRAIN_PIECES_MAX,
                  "%s: %u pieces", om_wm_terrain_methods[m].name, n);
        seen[n]++;
    }
    for (unsigned n = OM_WM_TERRAIN_PIECES_MIN; n <= OM_WM_TERRAIN_PIECES_MAX; n++) {
        double q = p[n - OM_WM_TERRAIN_PIECES_MIN], f = (double)seen[n] / TABLES;
        cr_expect_leq(fabs(f - q), SIGMAS * sqrt(q * (1 - q) / TABLES) + 1e-12,
                      "%s: %u pieces %.4f of tables, law %.4f", om_wm_terrain_methods[m].name,
                      n, f, q);
    }
    free(t);
}

Test(terrain, dice_for_edges_lays_6_to_10_pieces_evenly)
{
    const double p[5] = {0.2, 0.2, 0.2, 0.2, 0.2};
    count_law(OM_WM_TERRAIN_DICE_FOR_EDGES, p, 11);
}

Test(terrain, symmetrical_lays_6_8_or_10_pieces)
{
    const double p[5] = {1.0 / 3, 0, 1.0 / 3, 0, 1.0 / 3};
    count_law(OM_WM_TERRAIN_SYMMETRICAL, p, 12);
}

Test(terrain, random_set_up_ends_by_the_declared_end)
{
    const double p[5] = {0.5, 0.25, 0.125, 0.0625, 0.0625};
    count_law(OM_WM_TERRAIN_RANDOM, p, 13);
}

/* Each piece of a symmetrical table has its image through the centre next. */
Test(terrain, symmetrical_pieces_are_mirrored)
{
    om_dice d = {.plain = NULL};
    om_wm_table *t = malloc(sizeof *t);
    cr_assert_not_null(t);
    om_rng_seed_block(&d.rng, 5, 0);
    for (unsigned i = 0; i < 50; i++) {
        unsigned n = lay_out(OM_WM_TERRAIN_SYMMETRICAL, &d, t);
        for (unsigned k = 0; k + 1 < n; k += 2) {
            cr_assert_eq(t->terrain[k].kind, t->terrain[k + 1].kind);
            for (unsigned v = 0; v < t->terrain[k].vertices; v++) {
                cr_assert_float_eq(t->terrain[k + 1].v[v].x, 180 - t->terrain[k].v[v].x, 1e-9);
                cr_assert_float_eq(t->terrain[k + 1].v[v].y, 120 - t->terrain[k].v[v].y, 1e-9);
            }
            /* Side A's piece in its own half. */
            for (unsigned v = 0; v < t->terrain[k].vertices; v++)
                cr_assert_lt(t->terrain[k].v[v].y, 60);
        }
    }
    free(t);
}

Test(terrain, none_lays_nothing)
{
    om_dice d = {.plain = NULL};
    om_wm_table t;
    om_rng_seed_block(&d.rng, 5, 0);
    om_wm_table_init(&t, OM_WM_RULES_REV, 0, 0);
    cr_expect_eq(om_wm_battlefield_generate(&t, OM_WM_TERRAIN_NONE, 20, &d), 0);
    cr_expect_eq(t.terrain_pieces, 0);
}

Test(terrain, off_table_and_overlapping_pieces_are_refused)
{
    om_wm_table t;
    om_wm_check_failure why;
    om_wm_table_init(&t, OM_WM_RULES_REV, 0, 0);
    om_wm_table_add_rect_terrain(&t, OM_WM_TERRAIN_WOOD, (om_wm_vec){10, 40}, (om_wm_vec){30, 60});
    cr_expect_eq(om_wm_battlefield_check_terrain(&t, NULL), OM_OK);
    om_wm_table_add_rect_terrain(&t, OM_WM_TERRAIN_HILL, (om_wm_vec){25, 50}, (om_wm_vec){45, 70});
    cr_expect_eq(om_wm_battlefield_check_terrain(&t, &why), OM_EINVAL);
    cr_expect_str_eq(why.field, "terrain[1].points");
    om_error_clear();
    om_wm_table_init(&t, OM_WM_RULES_REV, 0, 0);
    om_wm_table_add_rect_terrain(&t, OM_WM_TERRAIN_WOOD, (om_wm_vec){170, 40},
                                 (om_wm_vec){190, 60});
    cr_expect_eq(om_wm_battlefield_check_terrain(&t, &why), OM_EINVAL);
    cr_expect_str_eq(why.field, "terrain[0].points");
    om_error_clear();
}

/* ---- Deployment ---- */

/* A turn with an empty Revolution table. */
static om_wm_turn *empty_turn(void)
{
    om_wm_turn *t = calloc(1, sizeof *t);
    cr_assert_not_null(t);
    t->rules = om_wm_ruleset_find("warmaster-revolution");
    om_wm_table_init(&t->table, t->rules->id, 0, 0);
    t->command.rules = t->rules->id;
    return t;
}

/* Deploy armies of na and nb spearmen by plan p; the result into r. */
static void deploy_counts(unsigned na, unsigned nb, const om_wm_deploy_plan *p,
                          om_wm_deploy_result *r, uint64_t seed)
{
    om_wm_unit va[8], vb[8];
    om_wm_turn *t = empty_turn();
    om_dice d = {.plain = NULL};
    om_wm_deploy_army army[2] = {{.values = va, .n = na}, {.values = vb, .n = nb}};
    om_rng_seed_block(&d.rng, seed, 0);
    for (unsigned i = 0; i < 8; i++)
        va[i] = vb[i] = unit(OM_WM_INFANTRY, 6, 0);
    cr_assert_eq(om_wm_battle_deploy(t, army, p, &d, r, NULL), OM_OK);
    cr_assert_eq(r->placements, na + nb);
    cr_assert_eq(t->table.units, na + nb);
    free(t);
}

Test(deployment, alternate_alternates_from_the_larger_army)
{
    om_wm_deploy_plan p = {.method = OM_WM_DEPLOY_ALTERNATE, .first = -1, .brigade = 4};
    om_wm_deploy_result r;
    const uint8_t want[8] = {1, 0, 1, 0, 1, 0, 1, 1};
    deploy_counts(3, 5, &p, &r, 1);
    cr_expect_eq(r.placed_first, 1);
    cr_expect_arr_eq(r.placed_by, want, sizeof want);
    cr_expect_eq(r.first_turn, -1);
}

/* Armies of equal size: a D6 decides, each side half the time. */
Test(deployment, alternate_between_equal_armies_rolls_who_starts)
{
    om_wm_deploy_plan p = {.method = OM_WM_DEPLOY_ALTERNATE, .first = -1, .brigade = 4};
    const unsigned n = 400;
    unsigned b = 0;
    for (unsigned i = 0; i < n; i++) {
        om_wm_deploy_result r;
        deploy_counts(2, 2, &p, &r, 100 + i);
        for (unsigned k = 0; k < 4; k++)
            cr_assert_eq(r.placed_by[k], (r.placed_first + k) % 2);
        b += r.placed_first;
    }
    cr_expect_leq(fabs((double)b / n - 0.5), SIGMAS * sqrt(0.25 / n));
}

Test(deployment, one_side_first_places_a_whole_army_then_the_other)
{
    om_wm_deploy_plan p = {.method = OM_WM_DEPLOY_ONE_SIDE_FIRST, .first = 0, .brigade = 4};
    om_wm_deploy_result r;
    const uint8_t want[6] = {0, 0, 0, 1, 1, 1};
    deploy_counts(3, 3, &p, &r, 2);
    cr_expect_arr_eq(r.placed_by, want, sizeof want);
    cr_expect_eq(r.first_turn, 0); /* the side that deployed first moves first */
}

Test(deployment, lines_keeps_each_lists_order)
{
    om_wm_deploy_plan p = {.method = OM_WM_DEPLOY_LINES, .first = -1, .brigade = 4};
    om_wm_deploy_result r;
    deploy_counts(3, 2, &p, &r, 3);
    for (unsigned k = 0; k < 3; k++)
        cr_expect_eq(r.order[0][k], k);
    cr_expect_eq(r.first[0], 0);
    cr_expect_eq(r.first[1], 3);
}

/* Scouting: the winner's scouts, then the loser's army, then the winner's
 * rest; under 1.1 the winner moves second. */
Test(deployment, scouting_places_scouts_then_the_loser_then_the_rest)
{
    om_wm_unit va[3], vb[3];
    const bool scouts_a[3] = {false, true, false};
    om_wm_deploy_army army[2] = {{.values = va, .n = 3, .scout = scouts_a},
                                 {.values = vb, .n = 3}};
    /* Side A far ahead in points: it wins the roll. */
    om_wm_deploy_plan p = {.method = OM_WM_DEPLOY_SCOUTING, .first = -1, .brigade = 4,
                           .scouting = {20, 0}};
    const uint8_t want[6] = {0, 1, 1, 1, 0, 0};
    om_wm_deploy_result r;
    om_dice d = {.plain = NULL};
    om_wm_turn *t = empty_turn();
    om_rng_seed_block(&d.rng, 4, 0);
    for (unsigned i = 0; i < 3; i++) {
        va[i] = unit(OM_WM_INFANTRY, 6, 0);
        vb[i] = unit(OM_WM_INFANTRY, 6, 0);
    }
    va[1] = unit(OM_WM_CAVALRY, 0, 0);
    cr_assert_eq(om_wm_battle_deploy(t, army, &p, &d, &r, NULL), OM_OK);
    cr_expect_eq(r.scouting_winner, 0);
    cr_expect_gt(r.scouting_total[0], r.scouting_total[1]);
    cr_expect_arr_eq(r.placed_by, want, sizeof want);
    cr_expect_eq(r.first_turn, -1); /* Revolution: the first turn is rolled */
    /* The scout is placed first: at side A's first place. */
    cr_expect_eq(r.order[0][0], 1);
    free(t);
    t = empty_turn();
    t->rules = om_wm_ruleset_find("warmaster-1.1");
    cr_assert_not_null(t->rules);
    om_wm_table_init(&t->table, t->rules->id, 0, 0);
    t->command.rules = t->rules->id;
    cr_assert_eq(om_wm_battle_deploy(t, army, &p, &d, &r, NULL), OM_OK);
    cr_expect_eq(r.first_turn, 1); /* Battlefields: the winner moves second */
    free(t);
}

/* The side deploying second sees the enemy: its knights go opposite the
 * enemy infantry they beat more surely than the enemy knights, though its
 * list puts them first (on its left, opposite the enemy's right). */
Test(deployment, the_side_that_sees_the_enemy_counters_it)
{
    om_wm_unit va[2], vb[2];
    om_wm_deploy_army army[2] = {{.values = va, .n = 2}, {.values = vb, .n = 2}};
    om_wm_deploy_plan p = {.method = OM_WM_DEPLOY_ONE_SIDE_FIRST, .first = 0, .brigade = 0};
    om_wm_deploy_result r;
    om_dice d = {.plain = NULL};
    om_wm_turn *t = empty_turn();
    int knights_b = -1, nearest = -1;
    double best = 1e9;
    om_rng_seed_block(&d.rng, 6, 0);
    va[0] = unit(OM_WM_INFANTRY, 0, 0); /* A's left: poor infantry */
    va[0].attacks = 1;
    va[1] = unit(OM_WM_CAVALRY, 4, 0);  /* A's right: knights */
    vb[0] = unit(OM_WM_CAVALRY, 4, 0);  /* B's list: knights first */
    vb[1] = unit(OM_WM_INFANTRY, 6, 0);
    cr_assert_eq(om_wm_battle_deploy(t, army, &p, &d, &r, NULL), OM_OK);
    for (unsigned u = r.first[1]; u < r.first[1] + 2; u++)
        if (t->table.unit[u].troop == OM_WM_CAVALRY)
            knights_b = (int)u;
    cr_assert_geq(knights_b, 0);
    for (unsigned u = r.first[0]; u < r.first[0] + 2; u++) {
        double gap = fabs(t->table.unit[u].centre.x - t->table.unit[knights_b].centre.x);
        if (gap < best) {
            best = gap;
            nearest = (int)u;
        }
    }
    cr_expect_eq(t->table.unit[nearest].troop, OM_WM_INFANTRY,
                 "side B's knights face side A's %s", om_wm_troop_names[t->table.unit[nearest].troop]);
    cr_expect_eq(r.order[1][0], 1); /* B's left: its infantry, moved from its list's place */
    free(t);
}

/* ---- Through the loader ---- */

static om_wm_scenario *load(const char *text)
{
    om_wm_scenario *s = NULL;
    om_status st = om_wm_battle_scenario_load_text("battle.yaml", text, strlen(text), &s);
    cr_assert_eq(st, OM_OK, "%s", om_error_message());
    cr_assert_not_null(s->battle);
    return s;
}

Test(loader, given_terrain_is_on_the_table)
{
    om_wm_scenario *s = load("schema: oddsmaster-scenario/1\nkind: battle\n"
                             "a: {list: revolution-empire-steel-and-shot}\n"
                             "b: {list: revolution-orcs-horde}\n"
                             "terrain:\n"
                             "  - {kind: wood, points: [[20, 50], [40, 70]]}\n"
                             "  - {kind: hill, points: [[100, 45], [130, 45], [115, 75]]}\n");
    const om_wm_table *t = &s->battle->turn.table;
    cr_expect_eq(s->battle->terrain, OM_WM_TERRAIN_GIVEN);
    cr_assert_eq(t->terrain_pieces, 2);
    cr_expect_eq(t->terrain[0].kind, OM_WM_TERRAIN_WOOD);
    cr_expect_eq(t->terrain[0].vertices, 4);
    cr_expect_eq(t->terrain[1].kind, OM_WM_TERRAIN_HILL);
    cr_expect_float_eq(t->terrain[1].v[2].x, 115, 1e-12);
    cr_expect_float_eq(t->terrain[1].v[2].y, 75, 1e-12);
    om_wm_scenario_free(s);
}

/* The same seed lays out the same table; a generated table between the zones. */
Test(loader, generated_terrain_follows_its_seed)
{
    const char *text = "schema: oddsmaster-scenario/1\nkind: battle\n"
                       "a: {list: revolution-empire-steel-and-shot}\n"
                       "b: {list: revolution-orcs-horde}\n"
                       "terrain_method: dice-for-edges\nterrain_per: run\nsetup_seed: 42\n";
    om_wm_scenario *s1 = load(text), *s2 = load(text);
    const om_wm_table *a = &s1->battle->turn.table, *b = &s2->battle->turn.table;
    cr_assert_geq(a->terrain_pieces, OM_WM_TERRAIN_PIECES_MIN);
    cr_assert_eq(a->terrain_pieces, b->terrain_pieces);
    for (unsigned k = 0; k < a->terrain_pieces; k++)
        cr_expect_eq(memcmp(a->terrain[k].v, b->terrain[k].v, sizeof a->terrain[k].v), 0);
    cr_expect_eq(s1->battle->setup_seed, 42);
    om_wm_scenario_free(s1);
    om_wm_scenario_free(s2);
}

/* Under 1.1 the scouting winner moves second: the first turn is the loser's. */
Test(loader, scouting_under_1_1_gives_the_loser_the_first_turn)
{
    om_wm_scenario *s = load("schema: oddsmaster-scenario/1\nkind: battle\n"
                             "a: {list: 1.1-empire-battle-line}\n"
                             "b: {list: 1.1-orcs-wolf-and-boar}\n"
                             "deployment: scouting\n");
    const om_wm_battle_scenario *b = s->battle;
    cr_expect_eq(b->deploy.method, OM_WM_DEPLOY_SCOUTING);
    cr_expect_eq(b->options.first, 1 - b->deployed.scouting_winner);
    cr_expect_eq(b->deployed.placed_first, b->deployed.scouting_winner);
    om_wm_scenario_free(s);
}

/* The result file's record of a battle names its terrain and its deployment. */
Test(loader, provenance_records_the_battlefield)
{
    om_wm_scenario *s = load("schema: oddsmaster-scenario/1\nkind: battle\n"
                             "a: {list: revolution-empire-steel-and-shot}\n"
                             "b: {list: revolution-orcs-horde}\n"
                             "terrain:\n"
                             "  - {kind: marsh, points: [[20, 50], [40, 70]]}\n"
                             "deployment: alternate\nsetup_seed: 3\n");
    char *json = NULL;
    cr_assert_eq(om_wm_battle_provenance_json(s->battle, &json), OM_OK);
    cr_expect_not_null(strstr(json, "\"terrain_method\":\"given\""), "%s", json);
    cr_expect_not_null(strstr(json, "\"kind\":\"marsh\""), "%s", json);
    cr_expect_not_null(strstr(json, "\"deployment\":\"alternate\""), "%s", json);
    cr_expect_not_null(strstr(json, "\"setup_seed\":3"), "%s", json);
    free(json);
    om_wm_scenario_free(s);
}

/* ---------- Terrain for each battle; the scouting winner's side ---------- */

/* The table battle number `n` of loaded scenario s starts on (its own
 * terrain), played on dice stream block 0 of seed 1000 + n, into *out. */
static void battle_start_table(const om_wm_battle_prepared *p, om_wm_turn_work *w, unsigned n,
                               om_wm_table *out)
{
    om_wm_trace tr = {.cap = 0, .table_at = out, .table_turn = 0};
    om_wm_battle_result r;
    om_dice d = {.plain = NULL};
    om_rng_seed_block(&d.rng, 1000u + n, 0);
    om_wm_turn_work_set_trace(w, &tr);
    om_wm_battle_resolve(p, w, &d, &r);
    om_wm_turn_work_set_trace(w, NULL);
    out->memo = NULL; /* the workspace's: queries on the copy work afresh */
}

static bool same_terrain(const om_wm_table *a, const om_wm_table *b)
{
    if (a->terrain_pieces != b->terrain_pieces)
        return false;
    for (unsigned k = 0; k < a->terrain_pieces; k++)
        if (a->terrain[k].kind != b->terrain[k].kind ||
            memcmp(a->terrain[k].v, b->terrain[k].v, sizeof a->terrain[k].v) != 0)
            return false;
    return true;
}

#define FIELD_BATTLES 40u

/* A generated terrain is laid out afresh for each battle by default, from
 * the battle's own dice: battles on different dice get different tables, the
 * same dice the same table, each of 6 to 10 pieces, and no deployed unit ever
 * stands in terrain closed to it; with terrain_per: run every battle has the
 * one table the set-up laid out. */
Test(loader, generated_terrain_is_laid_out_for_each_battle)
{
    static const char *const per[] = {"", "terrain_per: battle\n", "terrain_per: run\n"};
    for (unsigned m = 0; m < 3; m++) {
        char text[512];
        snprintf(text, sizeof text, "schema: oddsmaster-scenario/1\nkind: battle\n"
                 "a: {list: revolution-empire-steel-and-shot}\n"
                 "b: {list: revolution-orcs-horde}\n"
                 "terrain_method: dice-for-edges\n%slength: fixed\nturns: 1\n", per[m]);
        om_wm_scenario *s = load(text);
        om_wm_battle_scenario *b = s->battle;
        om_wm_battle_prepared *p = NULL;
        om_wm_turn_work *w = NULL;
        om_wm_check_failure why;
        om_wm_table *first = malloc(sizeof *first), *t = malloc(sizeof *t),
                    *again = malloc(sizeof *again);
        unsigned differ = 0;
        cr_assert(first != NULL && t != NULL && again != NULL);
        cr_expect_eq(b->terrain_each_battle, m < 2);
        cr_assert_eq(om_wm_battle_prepare_alloc(&b->turn, &b->plans_b, &b->options, &why, &p),
                     OM_OK, "%s", why.reason);
        cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
        battle_start_table(p, w, 0, first);
        for (unsigned n = 0; n < FIELD_BATTLES; n++) {
            battle_start_table(p, w, n, t);
            battle_start_table(p, w, n, again);
            cr_assert(same_terrain(t, again), "battle %u: the same dice, another table", n);
            cr_assert_geq(t->terrain_pieces, OM_WM_TERRAIN_PIECES_MIN);
            cr_assert_leq(t->terrain_pieces, OM_WM_TERRAIN_PIECES_MAX);
            memset(&why, 0, sizeof why);
            cr_assert_eq(om_wm_table_check(t, b->turn.rules->id, &why), OM_OK,
                         "battle %u: %s: %s", n, why.field, why.reason);
            if (m == 2)
                cr_assert(same_terrain(t, &b->turn.table), "battle %u: per run", n);
            differ += !same_terrain(t, first);
        }
        if (m < 2)
            cr_expect_geq(differ, FIELD_BATTLES - 2, "%u of %u tables differ from the first",
                          differ, FIELD_BATTLES);
        else
            cr_expect_eq(differ, 0u);
        om_wm_turn_work_free(w);
        om_wm_battle_prepared_free(p);
        free(first);
        free(t);
        free(again);
        om_wm_scenario_free(s);
    }
}

/* terrain_per goes with a generated terrain only, and the result file says
 * which. */
Test(loader, terrain_per_is_recorded_and_checked)
{
    om_wm_scenario *s = load("schema: oddsmaster-scenario/1\nkind: battle\n"
                             "a: {list: revolution-empire-steel-and-shot}\n"
                             "b: {list: revolution-orcs-horde}\n"
                             "terrain_method: random\n");
    char *json = NULL;
    om_wm_scenario *bad = NULL;
    static const char bad_text[] = "schema: oddsmaster-scenario/1\nkind: battle\n"
                                   "a: {list: revolution-empire-steel-and-shot}\n"
                                   "b: {list: revolution-orcs-horde}\n"
                                   "terrain_per: battle\n";
    cr_assert_eq(om_wm_battle_provenance_json(s->battle, &json), OM_OK);
    cr_expect_not_null(strstr(json, "\"terrain_per\":\"battle\""), "%s", json);
    free(json);
    om_wm_scenario_free(s);
    cr_expect_eq(om_wm_battle_scenario_load_text("battle.yaml", bad_text, strlen(bad_text),
                                                 &bad),
                 OM_EINVAL);
    om_error_clear();
    om_wm_scenario_free(bad);
}

/* ---------- Swapped deployment zones (zones: a-north) ---------- */

/* Table b's terrain is table a's turned round through the centre, piece by
 * piece (x, y to width - x, depth - y), and the units stand alike. */
static bool terrain_turned(const om_wm_table *a, const om_wm_table *b)
{
    om_wm_table *turned = malloc(sizeof *turned);
    bool same = true;
    cr_assert_not_null(turned);
    *turned = *a;
    om_wm_battlefield_turn_round(turned, 0);
    same = same_terrain(turned, b) && a->units == b->units;
    for (unsigned u = 0; same && u < a->units; u++)
        same = a->unit[u].side == b->unit[u].side &&
               fabs(a->unit[u].centre.x - b->unit[u].centre.x) < 1e-9 &&
               fabs(a->unit[u].centre.y - b->unit[u].centre.y) < 1e-9;
    free(turned);
    return same;
}

/* zones: a-north fights the battle of a-south with the armies on the other
 * edges of the same terrain: pieces given (or laid out once) are turned round
 * at load, a terrain laid out for each battle is turned by each battle, from
 * the same dice; the default is a-south, and the record names the zones. */
Test(loader, swapped_zones_turn_the_terrain_round)
{
    static const char head[] = "schema: oddsmaster-scenario/1\nkind: battle\n"
                               "a: {list: revolution-empire-steel-and-shot}\n"
                               "b: {list: revolution-orcs-horde}\nlength: fixed\nturns: 1\n";
    static const char *const terrain[] = {
        "terrain:\n  - {kind: wood, points: [[20, 45], [40, 70]]}\n"
        "  - {kind: hill, points: [[100, 50], [130, 65]]}\n",
        "terrain_method: dice-for-edges\nterrain_per: run\nsetup_seed: 9\n",
        "terrain_method: dice-for-edges\n"};
    for (unsigned m = 0; m < 3; m++) {
        char south_text[768], north_text[768], plain_text[768];
        snprintf(plain_text, sizeof plain_text, "%s%s", head, terrain[m]);
        snprintf(south_text, sizeof south_text, "%s%szones: a-south\n", head, terrain[m]);
        snprintf(north_text, sizeof north_text, "%s%szones: a-north\n", head, terrain[m]);
        om_wm_scenario *plain = load(plain_text), *south = load(south_text),
                       *north = load(north_text);
        const om_wm_battle_scenario *bs = south->battle, *bn = north->battle;
        char *json = NULL;
        cr_expect(!plain->battle->zones_swapped && !bs->zones_swapped && bn->zones_swapped);
        cr_expect(same_terrain(&plain->battle->turn.table, &bs->turn.table));
        cr_expect(terrain_turned(&bs->turn.table, &bn->turn.table), "terrain %u at load", m);
        if (m == 2) {
            om_wm_battle_prepared *ps = NULL, *pn = NULL;
            om_wm_turn_work *w = NULL;
            om_wm_check_failure why;
            om_wm_table *ts = malloc(sizeof *ts), *tn = malloc(sizeof *tn);
            cr_assert(ts != NULL && tn != NULL);
            cr_assert_eq(om_wm_battle_prepare_alloc(&bs->turn, &bs->plans_b, &bs->options, &why,
                                                    &ps), OM_OK, "%s", why.reason);
            cr_assert_eq(om_wm_battle_prepare_alloc(&bn->turn, &bn->plans_b, &bn->options, &why,
                                                    &pn), OM_OK, "%s", why.reason);
            cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
            for (unsigned n = 0; n < FIELD_BATTLES; n++) {
                battle_start_table(ps, w, n, ts);
                battle_start_table(pn, w, n, tn);
                cr_assert_geq(ts->terrain_pieces, OM_WM_TERRAIN_PIECES_MIN);
                cr_assert(terrain_turned(ts, tn), "battle %u: not the same terrain turned", n);
            }
            om_wm_turn_work_free(w);
            om_wm_battle_prepared_free(ps);
            om_wm_battle_prepared_free(pn);
            free(ts);
            free(tn);
        }
        cr_assert_eq(om_wm_battle_provenance_json(bn, &json), OM_OK);
        cr_expect_not_null(strstr(json, "\"zones\":\"a-north\""), "%s", json);
        free(json);
        cr_assert_eq(om_wm_battle_provenance_json(bs, &json), OM_OK);
        cr_expect_not_null(strstr(json, "\"zones\":\"a-south\""), "%s", json);
        free(json);
        om_wm_scenario_free(plain);
        om_wm_scenario_free(south);
        om_wm_scenario_free(north);
    }
}

/* A zones value the loader does not know is refused, naming the field. */
Test(loader, bad_zones_are_refused)
{
    static const char text[] = "schema: oddsmaster-scenario/1\nkind: battle\n"
                               "a: {list: revolution-empire-steel-and-shot}\n"
                               "b: {list: revolution-orcs-horde}\nzones: a-west\n";
    om_wm_scenario *s = NULL;
    om_status st = om_wm_battle_scenario_load_text("battle.yaml", text, strlen(text), &s);
    cr_expect_neq(st, OM_OK);
    cr_expect_null(s);
    cr_expect_not_null(strstr(om_error_message(), "zones"), "%s", om_error_message());
    cr_expect_not_null(strstr(om_error_message(), "battle.yaml"), "%s", om_error_message());
    om_error_clear();
}

/* The scouting winner's choice of side: the edge with less terrain closed to
 * its army in its own half. */
Test(scouting, winner_takes_the_more_open_side)
{
    om_wm_table t;
    unsigned weight[OM_WM_TERRAIN_KIND_COUNT] = {0};
    const om_wm_unit army[2] = {unit(OM_WM_CAVALRY, 5, 0), unit(OM_WM_INFANTRY, 5, 0)};
    om_wm_battlefield_closed_weights(OM_WM_RULES_REV, army, 2, weight);
    cr_expect_eq(weight[OM_WM_TERRAIN_WOOD], 1u); /* closed to the cavalry alone */
    om_wm_table_init(&t, OM_WM_RULES_REV, 0, 0);
    om_wm_table_add_rect_terrain(&t, OM_WM_TERRAIN_WOOD, (om_wm_vec){40, 30},
                                 (om_wm_vec){70, 50});
    cr_expect(om_wm_battlefield_prefers_turned(&t, 0, 20, weight));
    cr_expect_not(om_wm_battlefield_prefers_turned(&t, 1, 20, weight));
    /* A hill closes nothing: no reason to move. */
    t.terrain[0].kind = OM_WM_TERRAIN_HILL;
    cr_expect_not(om_wm_battlefield_prefers_turned(&t, 0, 20, weight));
    /* A piece in a deployment zone: the table is never turned. */
    t.terrain[0].kind = OM_WM_TERRAIN_WOOD;
    om_wm_table_add_rect_terrain(&t, OM_WM_TERRAIN_HILL, (om_wm_vec){100, 5},
                                 (om_wm_vec){120, 15});
    cr_expect_not(om_wm_battlefield_prefers_turned(&t, 0, 20, weight));
    /* Turned round, the wood is in side B's half. */
    t.terrain_pieces = 1;
    om_wm_battlefield_turn_round(&t, 0);
    cr_expect_float_eq(t.terrain[0].v[0].x, 180 - 40, 1e-12);
    cr_expect_float_eq(t.terrain[0].v[0].y, 120 - 30, 1e-12);
    cr_expect(om_wm_battlefield_prefers_turned(&t, 1, 20, weight));
}

/* Through the loader: whichever side wins the scouting roll, a wood given
 * in its half (in A's, then in B's) ends in the loser's, the provenance saying
 * so; across the set-up seeds the table is turned at least once. */
Test(loader, scouting_winner_chooses_its_side)
{
    static const char *const wood[2] = {"[[60, 30], [100, 55]]", "[[60, 65], [100, 90]]"};
    unsigned turned = 0;
    for (unsigned half = 0; half < 2; half++)
        for (unsigned seed = 1; seed <= 6; seed++) {
            char text[512], *json = NULL;
            snprintf(text, sizeof text, "schema: oddsmaster-scenario/1\nkind: battle\n"
                     "a: {list: 1.1-empire-battle-line}\n"
                     "b: {list: 1.1-orcs-wolf-and-boar}\n"
                     "terrain:\n  - {kind: wood, points: %s}\n"
                     "deployment: scouting\nsetup_seed: %u\n", wood[half], seed);
            om_wm_scenario *s = load(text);
            const om_wm_battle_scenario *b = s->battle;
            const unsigned w = b->deployed.scouting_winner;
            const double y = b->turn.table.terrain[0].v[0].y;
            turned += b->deployed.side_turned;
            cr_expect_eq(b->deployed.side_turned, w == half, "seed %u", seed);
            cr_expect(w == 0 ? y > 60 : y < 60, "seed %u: the wood at y %g, winner %u", seed,
                      y, w);
            cr_assert_eq(om_wm_battle_provenance_json(b, &json), OM_OK);
            cr_expect_not_null(strstr(json, w == half ? "\"side\":\"turned\""
                                                      : "\"side\":\"kept\""), "%s", json);
            free(json);
            om_wm_scenario_free(s);
        }
    cr_expect_gt(turned, 0u);
}

/* ---------- A deployment drawn for each battle ---------- */

#define DECIDE_DRAWS 4000u

/* The roll of each method that rolls, by its law: a D6 (alternate, equal
 * armies) and a roll-off (one-side-first) favour each side half the time, the
 * scouting roll side A by om_wm_scouting_win_probability. */
Test(deployment, decide_rolls_each_methods_die_by_its_law)
{
    const unsigned equal[2] = {3, 3};
    const om_wm_deploy_plan plans[3] = {
        {.method = OM_WM_DEPLOY_ALTERNATE, .first = -1},
        {.method = OM_WM_DEPLOY_ONE_SIDE_FIRST, .first = -1},
        {.method = OM_WM_DEPLOY_SCOUTING, .first = -1, .scouting = {4, 1}},
    };
    const unsigned pts[2] = {4, 1};
    const double want[3] = {0.5, 0.5, 1 - om_wm_scouting_win_probability(pts)};
    for (unsigned m = 0; m < 3; m++) {
        om_dice d = {.plain = NULL};
        unsigned b = 0;
        cr_assert(om_wm_deploy_rolls(&plans[m], equal));
        om_rng_seed_block(&d.rng, 77 + m, 0);
        for (unsigned i = 0; i < DECIDE_DRAWS; i++) {
            unsigned total[2];
            const unsigned s = om_wm_deploy_decide(&plans[m], equal, &d, total);
            cr_assert_leq(s, 1u);
            if (m == 2)
                cr_assert_eq(s, total[1] > total[0], "the higher total wins");
            b += s;
        }
        cr_expect_leq(fabs((double)b / DECIDE_DRAWS - want[m]),
                      SIGMAS * sqrt(want[m] * (1 - want[m]) / DECIDE_DRAWS), "method %u: %u", m,
                      b);
    }
}

/* Methods or plans that decide without a die roll none: lines, a side given,
 * armies of different sizes (the larger places first); a given outcome is
 * returned as it is, the dice untouched. */
Test(deployment, decide_without_a_roll_draws_no_die)
{
    const unsigned equal[2] = {3, 3}, unequal[2] = {2, 5};
    const om_wm_deploy_plan lines = {.method = OM_WM_DEPLOY_LINES, .first = -1};
    const om_wm_deploy_plan given = {.method = OM_WM_DEPLOY_ONE_SIDE_FIRST, .first = 1};
    const om_wm_deploy_plan alternate = {.method = OM_WM_DEPLOY_ALTERNATE, .first = -1};
    om_wm_deploy_plan forced = {.method = OM_WM_DEPLOY_SCOUTING, .first = -1,
                                .scouting = {30, 0}, .outcome = OM_WM_DEPLOY_OUTCOME(1)};
    om_dice d = {.plain = NULL};
    om_rng before;
    om_rng_seed_block(&d.rng, 5, 0);
    before = d.rng;
    cr_expect_not(om_wm_deploy_rolls(&lines, equal));
    cr_expect_not(om_wm_deploy_rolls(&given, equal));
    cr_expect_not(om_wm_deploy_rolls(&alternate, unequal));
    cr_expect_eq(om_wm_deploy_decide(&lines, equal, &d, NULL), 0u);
    cr_expect_eq(om_wm_deploy_decide(&given, equal, &d, NULL), 1u);
    cr_expect_eq(om_wm_deploy_decide(&alternate, unequal, &d, NULL), 1u);
    cr_expect_eq(om_wm_deploy_decide(&forced, equal, &d, NULL), 1u);
    cr_expect_eq(memcmp(&before, &d.rng, sizeof before), 0, "no die drawn");
    forced.outcome = OM_WM_DEPLOY_OUTCOME(0);
    cr_expect_eq(om_wm_deploy_decide(&forced, equal, &d, NULL), 0u);
}

/* A battle's start table (its deployment as drawn) and result, on dice stream
 * block 0 of seed 2000 + n. */
static void drawn_battle(const om_wm_battle_prepared *p, om_wm_turn_work *w, unsigned n,
                         om_wm_table *start, om_wm_battle_result *r)
{
    om_wm_trace tr = {.cap = 0, .table_at = start, .table_turn = 0};
    om_dice d = {.plain = NULL};
    om_rng_seed_block(&d.rng, 2000u + n, 0);
    om_wm_turn_work_set_trace(w, &tr);
    om_wm_battle_resolve(p, w, &d, r);
    om_wm_turn_work_set_trace(w, NULL);
    start->memo = NULL;
}

#define DRAWN_BATTLES 400u

/* deployment_per: battle (the default) with one-side-first: each battle rolls
 * off for who deploys first, from its own dice, and that side takes the first
 * turn: battles are fought on both deployments, each half the time, each on
 * the table of the outcome it drew, its units reported by the indices of the
 * first deployment. deployment_per: run rolls once: every battle has the
 * same first side and table. */
Test(loader, deployment_is_drawn_for_each_battle)
{
    static const char *const per[] = {"", "deployment_per: run\n"};
    for (unsigned m = 0; m < 2; m++) {
        char text[512];
        snprintf(text, sizeof text, "schema: oddsmaster-scenario/1\nkind: battle\n"
                 "a: {list: revolution-empire-steel-and-shot}\n"
                 "b: {list: revolution-orcs-horde}\n"
                 "deployment: one-side-first\n%slength: fixed\nturns: 1\n", per[m]);
        om_wm_scenario *s = load(text);
        const om_wm_battle_scenario *b = s->battle;
        om_wm_battle_prepared *p = NULL;
        om_wm_turn_work *w = NULL;
        om_wm_check_failure why;
        om_wm_table *start = malloc(sizeof *start);
        unsigned drew_b = 0, first_b = 0;
        cr_assert_not_null(start);
        cr_expect_eq(b->deploy_each_battle, m == 0);
        cr_expect_eq(b->drawn != NULL, m == 0);
        cr_assert_eq(om_wm_battle_scenario_prepare_alloc(b, &why, &p), OM_OK, "%s", why.reason);
        cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
        if (m == 0) {
            /* Both outcomes deployed: A first in one, B first in the other. */
            cr_expect_eq(b->deployed.placed_first, 0);
            cr_expect_eq(b->drawn->deployed.placed_first, 1);
            cr_expect_eq(b->options.first, 0);
            cr_expect_eq(b->drawn->options.first, 1);
        }
        for (unsigned n = 0; n < DRAWN_BATTLES; n++) {
            om_wm_battle_result r;
            const om_wm_table *want;
            drawn_battle(p, w, n, start, &r);
            want = &om_wm_battle_turn_deployed(p, r.deployment)->table;
            cr_assert_eq(r.first, m == 0 ? r.deployment : (unsigned)b->options.first,
                         "battle %u: the side deploying first moves first", n);
            cr_assert_eq(start->units, want->units);
            for (unsigned u = 0; u < want->units; u++)
                cr_assert(start->unit[u].centre.x == want->unit[u].centre.x &&
                              start->unit[u].centre.y == want->unit[u].centre.y,
                          "battle %u: unit %u not where its deployment put it", n, u);
            drew_b += r.deployment;
            first_b += r.first;
        }
        if (m == 0)
            cr_expect_leq(fabs((double)drew_b / DRAWN_BATTLES - 0.5),
                          SIGMAS * sqrt(0.25 / DRAWN_BATTLES), "%u of %u", drew_b,
                          DRAWN_BATTLES);
        else
            cr_expect(drew_b == 0 && (first_b == 0 || first_b == DRAWN_BATTLES),
                      "per run: %u, %u", drew_b, first_b);
        om_wm_turn_work_free(w);
        om_wm_battle_prepared_free(p);
        free(start);
        om_wm_scenario_free(s);
    }
}

/* A battle fought on the second deployment reports each unit's losses by the
 * first deployment's indices: the same unit of the same list. */
Test(loader, drawn_deployment_maps_each_unit_to_its_own)
{
    om_wm_scenario *s = load("schema: oddsmaster-scenario/1\nkind: battle\n"
                             "a: {list: revolution-empire-steel-and-shot}\n"
                             "b: {list: revolution-orcs-horde}\n"
                             "deployment: alternate\ndeploy_first: roll\n");
    const om_wm_battle_scenario *b = s->battle;
    const om_wm_table *a0, *a1;
    unsigned moved = 0;
    cr_assert_not_null(b->drawn, "equal armies roll for who places first");
    a0 = &b->turn.table;
    a1 = &b->drawn->turn.table;
    cr_assert_eq(a0->units, a1->units);
    for (unsigned u = 0; u < a1->units; u++) {
        const unsigned v = b->drawn->canon[u];
        cr_assert_lt(v, a0->units);
        cr_expect_str_eq(a0->unit[v].name, a1->unit[u].name);
        cr_expect_eq(a0->unit[v].side, a1->unit[u].side);
        cr_expect_eq(a0->unit[v].stands, a1->unit[u].stands);
        moved += v != u;
    }
    cr_expect_gt(moved, 0u, "the two deployments place units differently");
    om_wm_scenario_free(s);
}

/* The result file records how the deployment was drawn, and both outcomes'
 * deployments where each battle draws its own. */
Test(loader, provenance_records_both_drawn_deployments)
{
    om_wm_scenario *s = load("schema: oddsmaster-scenario/1\nkind: battle\n"
                             "a: {list: revolution-empire-steel-and-shot}\n"
                             "b: {list: revolution-orcs-horde}\n"
                             "deployment: scouting\n");
    char *json = NULL;
    cr_assert_eq(om_wm_battle_provenance_json(s->battle, &json), OM_OK);
    cr_expect_not_null(strstr(json, "\"deployment_per\":\"battle\""), "%s", json);
    cr_expect_not_null(strstr(json, "\"favours\":\"a\""), "%s", json);
    cr_expect_not_null(strstr(json, "\"favours\":\"b\""), "%s", json);
    free(json);
    om_wm_scenario_free(s);
}
