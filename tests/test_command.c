/*
 * test_command.c: the Warmaster Command phase, engine/warmaster/command.c.
 *
 * Three kinds of tests:
 *   - rule arithmetic checked exactly: penalties, ranges, the blunder table, and
 *     the rulebooks' worked examples, by the mechanics digests' ids (W1, W2 of
 *     Warmaster Revolution; WE-1, WE-2, WE-3, WE-35 of Warmaster Ancients);
 *   - Monte Carlo probabilities of order chains against exact values computed
 *     here from 2D6 sums, P(2D6 <= n) = (1, 3, 6, 10, 15, 21, 26, 30, 33, 35,
 *     36)/36 for n = 2..12, multiplied along the chain (each order's dice are
 *     independent). Tolerance: 5 standard errors of the estimate,
 *     sqrt(p(1-p)/N), at a fixed seed; an exact 0 or 1 is checked exactly;
 *   - drawn layouts (x right, y up the page) for initiative, evades, charges,
 *     blunder results and the rule-set differences, checked exactly.
 * Rulebook sections are cited as "Warmaster Revolution, The Command Phase >
 * Command Penalties" and so on.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "command.h"
#include "command_int.h"
#include "exact_law.h"

/* Trials per Monte Carlo check: the standard error of any probability is then
 * under 0.0016, and a check runs in well under a second. */
#define TRIALS 100000u
#define SIGMAS 5.0
#define EPS 1e-6
/* "Closest enemy unit within 20cm" (Command > Command Penalties). */
#define ENEMY_CLOSE 20.0

static const om_wm_ruleset_id REV = OM_WM_RULES_REV;
static const om_wm_ruleset_id WM11 = OM_WM_RULES_WM11;
static const om_wm_ruleset_id WMA = OM_WM_RULES_WMA;

/* P(2D6 <= n): the number of the 36 outcomes summing to n or less. */
static double p2d6(int n)
{
    static const int cum[13] = {0, 0, 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36};
    if (n < 2) return 0;
    if (n > 12) return 1;
    return cum[n] / 36.0;
}

static om_wm_vec at(double x, double y) { return (om_wm_vec){x, y}; }

static unsigned add(om_wm_table *t, const char *name, unsigned side, om_wm_troop troop,
                    unsigned stands, om_wm_table_formation f, double x, double y, double facing)
{
    int i = om_wm_table_add_unit(t, REV, name, side, troop, stands, f, at(x, y), facing);
    cr_assert_geq(i, 0, "add %s", name);
    return (unsigned)i;
}

static unsigned character(om_wm_table *t, const char *name, unsigned side,
                          om_wm_character_kind kind, unsigned command, double x, double y)
{
    int c = om_wm_table_add_character(t, name, side, kind, command, at(x, y));
    cr_assert_geq(c, 0, "add %s", name);
    return (unsigned)c;
}

static void setup_init(om_wm_command_setup *s, om_wm_ruleset_id rules)
{
    memset(s, 0, sizeof *s);
    s->rules = rules;
    for (unsigned u = 0; u < OM_WM_TABLE_MAX_UNITS; u++) {
        s->plan[u].target = -1;
        s->plan[u].by = -1;
    }
    for (unsigned b = 0; b < OM_WM_TABLE_MAX_BRIGADES; b++) {
        s->brigade_plan[b].target = -1;
        s->brigade_plan[b].by = -1;
    }
}

static om_wm_plan advance(unsigned by, double x, double y, unsigned orders)
{
    om_wm_plan p = {.kind = OM_WM_PLAN_ADVANCE, .target = -1, .goal = {x, y}, .by = (int8_t)by,
                    .orders = (uint8_t)orders};
    return p;
}

static om_wm_plan charge(unsigned by, int target)
{
    om_wm_plan p = {.kind = OM_WM_PLAN_CHARGE, .target = (int8_t)target, .by = (int8_t)by};
    return p;
}

static void valid(const om_wm_command_setup *s, const om_wm_table *t)
{
    om_wm_check_failure why;
    memset(&why, 0, sizeof why);
    cr_assert_eq(om_wm_table_check(t, s->rules, &why), OM_OK, "table %s: %s", why.field,
                 why.reason);
    cr_assert_eq(om_wm_command_check(s, t, &why), OM_OK, "setup %s: %s", why.field, why.reason);
}

/* One Command phase on a copy of `start`. */
static void play(const om_wm_command_setup *s, const om_wm_table *start, om_dice *d,
                 om_wm_table *t, om_wm_command_result *r)
{
    *t = *start;
    om_wm_command_phase(s, t, d, r);
}

static void seed(om_dice *d, uint64_t block)
{
    d->plain = NULL;
    om_rng_seed_block(&d->rng, 20261124u, block);
}

/* ---------- Rule arithmetic ---------- */

/* Warmaster Revolution, The Command Phase > Command Penalties 1: none up to 20cm,
 * -1 up to 40, -2 up to 60, -3 up to 80, a further -1 per 20cm; ambiguity A2 at
 * exact multiples (the chart by default, "per full 20cm" as an option). */
Test(command, distance_penalty_chart_and_per_full_20)
{
    const double cm[] = {0, 10, 20, 20.5, 39.9, 40, 40.5, 60, 65, 80, 100, 150};
    const unsigned chart[] = {0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 7};
    const unsigned full[] = {0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 5, 7};
    for (unsigned i = 0; i < sizeof cm / sizeof cm[0]; i++) {
        cr_expect_eq(om_wm_command_distance_penalty(cm[i], false), chart[i], "%g chart", cm[i]);
        cr_expect_eq(om_wm_command_distance_penalty(cm[i], true), full[i], "%g full", cm[i]);
    }
}

/* Command ranges (Revolution, Generals, Wizards & Heroes > Command range; Ancients,
 * Commanders > Commanders and Orders; flyers: Flying Units > Orders). */
Test(command, command_ranges_by_rule_set)
{
    cr_expect(isinf(om_wm_command_range_cm(REV, OM_WM_GENERAL)));
    cr_expect(isinf(om_wm_command_range_cm(WM11, OM_WM_GENERAL)));
    cr_expect_float_eq(om_wm_command_range_cm(WMA, OM_WM_GENERAL), 100.0, EPS);
    cr_expect_float_eq(om_wm_command_range_cm(REV, OM_WM_HERO), 60.0, EPS);
    cr_expect_float_eq(om_wm_command_range_cm(WMA, OM_WM_HERO), 60.0, EPS);
    cr_expect_float_eq(om_wm_command_range_cm(REV, OM_WM_WIZARD), 20.0, EPS);
    cr_expect(om_wm_command_in_range(REV, OM_WM_GENERAL, false, 500));
    cr_expect_not(om_wm_command_in_range(WMA, OM_WM_GENERAL, false, 100.5));
    cr_expect(om_wm_command_in_range(REV, OM_WM_HERO, false, 60));
    cr_expect_not(om_wm_command_in_range(REV, OM_WM_HERO, false, 60.5));
    cr_expect_not(om_wm_command_in_range(REV, OM_WM_GENERAL, true, 20.5));
    cr_expect(om_wm_command_in_range(REV, OM_WM_GENERAL, true, 20));
}

/*
 * W1 (Revolution, Command Penalties, first example): a General of Command 9
 * orders infantry 25cm away (-1) in a wood (-1): 7 or less.
 *   ####+--U--+####    U in a wood, y 39..41
 *        25cm
 *          G           General at (90,14)
 */
Test(command, worked_example_w1)
{
    om_wm_table t;
    om_wm_command_setup s;
    om_wm_command_test test;
    setup_init(&s, REV);
    om_wm_table_init(&t, REV, 0, 0);
    unsigned u = add(&t, "Infantry", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 40, 90);
    add(&t, "Enemy", 1, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 170, 110, 270);
    om_wm_table_add_rect_terrain(&t, OM_WM_TERRAIN_WOOD, at(80, 35), at(100, 45));
    unsigned g = character(&t, "General", 0, OM_WM_GENERAL, 9, 90, 14);
    s.plan[u] = advance(g, 90, 100, 0);
    valid(&s, &t);
    om_wm_command_test_for(&s, &t, g, &u, 1, 1, &test);
    cr_expect_eq(test.distance, 1);
    cr_expect_eq(test.dense, 1);
    cr_expect_eq(test.successive + test.enemy_close + test.casualties + test.blunders, 0);
    cr_expect_eq(test.target, 7);
}

/*
 * W2 (Revolution, Command Penalties, Example; Ancients WE-1, WE-2): a General of
 * Command 9 gives cavalry 65cm away a second order (-3, -1): 5 or less. Then
 * infantry 10cm away: 9 or less; a failure there ends all orders.
 * Here the cavalry C's first order is at 65cm too (6 or less), it moves 30cm
 * sideways staying 60-80cm away, and its second is the example's 5 or less;
 * then the infantry I at 10cm. The General orders C first, then I.
 *
 *       C ----> (moves along y=72)     C at (90,72): y 70..74
 *
 *       I                              I at (90,16): y 15..17
 *       G                              General at (90,5)
 *
 * Exact: P(C passes 1) = 15/36, P(C passes 2) = 15/36 * 10/36, P(I is tested)
 * = P(C passes both) (a failed General order ends the phase), P(I passes) =
 * that * 30/36.
 */
Test(command, worked_example_w2_general_failure_ends_the_phase)
{
    om_wm_table t, start;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_wm_command_test test;
    om_dice d;
    unsigned c1 = 0, c2 = 0, itested = 0, ipassed = 0, ended = 0;
    setup_init(&s, REV);
    om_wm_table_init(&start, REV, 0, 0);
    unsigned c = add(&start, "Cavalry", 0, OM_WM_CAVALRY, 3, OM_WM_TABLE_LINE, 90, 72, 90);
    unsigned i = add(&start, "Infantry", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 16, 90);
    add(&start, "Enemy", 1, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 170, 112, 270);
    unsigned g = character(&start, "General", 0, OM_WM_GENERAL, 9, 90, 5);
    s.plan[c] = advance(g, 170, 72, 2);
    s.plan[i] = advance(g, 40, 16, 1);
    s.plan[i].priority = 1;
    valid(&s, &start);
    om_wm_command_test_for(&s, &start, g, &c, 1, 2, &test);
    cr_expect_eq(test.distance, 3);
    cr_expect_eq(test.target, 5);
    om_wm_command_test_for(&s, &start, g, &i, 1, 1, &test);
    cr_expect_eq(test.target, 9);
    seed(&d, 1);
    for (unsigned n = 0; n < TRIALS; n++) {
        play(&s, &start, &d, &t, &r);
        c1 += r.unit[c].orders >= 1;
        c2 += r.unit[c].orders >= 2;
        itested += r.unit[i].tests;
        ipassed += r.unit[i].orders;
        ended += r.ended == OM_WM_PHASE_GENERAL_FAILED;
        /* Whenever the cavalry failed, the infantry was never tried. */
        if (r.unit[c].orders < r.unit[c].tests)
            cr_assert_eq(r.unit[i].tests, 0);
    }
    expect_p("cavalry 1st", c1, TRIALS, 15 / 36.0);
    expect_p("cavalry 2nd", c2, TRIALS, 15 / 36.0 * 10 / 36.0);
    expect_p("infantry tested", itested, TRIALS, 15 / 36.0 * 10 / 36.0);
    expect_p("infantry passed", ipassed, TRIALS, 15 / 36.0 * 10 / 36.0 * 30 / 36.0);
    expect_p("phase ended by a failure", ended, TRIALS, 1 - 15 / 36.0 * 10 / 36.0 * 30 / 36.0);
}

/* ---------- Order chains ---------- */

/*
 * P(first k orders succeed) for Command 6 to 10, with and without penalties.
 * U (a line at (90,20), y 19..21) is ordered straight away from the General at
 * (90,5): it is 14, 34 and 54cm away at its 1st, 2nd and 3rd orders (distance
 * penalties 0, 1, 2), and its successive-order penalties are 0, 1, 2, so order
 * k needs 2D6 <= C - P - 2(k-1), P being its lost stands (0, or 2 of 3). The
 * cap: it never takes a 4th order.
 *          U ^ ^ ^  (20cm a move)
 *          G
 */
Test(command, order_chains_command_6_to_10)
{
    for (unsigned command = 6; command <= 10; command++)
        for (unsigned lost = 0; lost <= 2; lost += 2) {
            om_wm_table t, start;
            om_wm_command_setup s;
            om_wm_command_result r;
            om_dice d;
            unsigned reach[4] = {0}, tests3 = 0;
            setup_init(&s, REV);
            om_wm_table_init(&start, REV, 0, 0);
            unsigned u = add(&start, "U", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
            start.unit[u].stands = (uint8_t)(3 - lost);
            add(&start, "Enemy", 1, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 170, 112, 270);
            unsigned g = character(&start, "General", 0, OM_WM_GENERAL, command, 90, 5);
            s.plan[u] = advance(g, 90, 115, 0);
            valid(&s, &start);
            seed(&d, command * 10 + lost);
            for (unsigned n = 0; n < TRIALS; n++) {
                play(&s, &start, &d, &t, &r);
                cr_assert_leq(r.unit[u].tests, OM_WM_COMMAND_MAX_ORDERS);
                cr_assert_float_eq(r.unit[u].moved_cm, 20.0 * r.unit[u].orders, 1e-6);
                for (unsigned k = 1; k <= 3; k++)
                    reach[k] += r.unit[u].orders >= k;
                tests3 += r.unit[u].tests == 3;
            }
            double p = 1;
            for (unsigned k = 1; k <= 3; k++) {
                char what[64];
                p *= p2d6((int)command - (int)lost - 2 * (int)(k - 1));
                snprintf(what, sizeof what, "Command %u, %u lost: first %u orders", command,
                         lost, k);
                expect_p(what, reach[k], TRIALS, p);
            }
            expect_p("3rd order tried", tests3, TRIALS,
                     p2d6((int)command - (int)lost) * p2d6((int)command - (int)lost - 2));
        }
}

/* A plan asking for fewer orders gets no more (and the check refuses 4). */
Test(command, orders_cap)
{
    om_wm_table t, start;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_wm_check_failure why;
    om_dice d;
    unsigned passed = 0;
    setup_init(&s, REV);
    om_wm_table_init(&start, REV, 0, 0);
    unsigned u = add(&start, "U", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned g = character(&start, "General", 0, OM_WM_GENERAL, 10, 90, 5);
    s.plan[u] = advance(g, 90, 115, 1);
    valid(&s, &start);
    seed(&d, 2);
    for (unsigned n = 0; n < TRIALS / 10; n++) {
        play(&s, &start, &d, &t, &r);
        cr_assert_eq(r.unit[u].tests, 1);
        passed += r.unit[u].orders;
    }
    expect_p("one order at 10", passed, TRIALS / 10, p2d6(10));
    s.plan[u].orders = 4;
    cr_expect_eq(om_wm_command_check(&s, &start, &why), OM_EINVAL);
    cr_expect_str_eq(why.field, "plans[0].orders");
}

/*
 * Heroes stop, the General goes on (Revolution, Generals, Wizards & Heroes >
 * Failed orders): a Hero (Command 8) orders H1 then H2, the General (9) orders
 * G1 then G2, each unit three times moving away from its character (targets C,
 * C-2, C-4 as in the chains above; H2 and G2 start 19.8cm away, then 36.8 and
 * 55.8: the same penalties).
 *   H1  H2            G1  G2        units at y 19..21
 *   Hero              General       at y=5
 * Heroes first (the default): H2 is tried only if H1's chain passed all three
 * (26.15.6/36^3); the General always gets his turn; G2 only if G1 passed all
 * (30.21.10/36^3). General first: the Hero gets a turn only if the General
 * never failed: (30.21.10/36^3)^2.
 */
static void chain_layout(om_wm_table *t, om_wm_command_setup *s, unsigned *h1, unsigned *h2,
                         unsigned *g1, unsigned *g2, unsigned *hero, unsigned *general)
{
    setup_init(s, REV);
    om_wm_table_init(t, REV, 0, 0);
    *h1 = add(t, "H1", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 40, 20, 90);
    *h2 = add(t, "H2", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 60, 20, 90);
    *g1 = add(t, "G1", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 130, 20, 90);
    *g2 = add(t, "G2", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 150, 20, 90);
    add(t, "Enemy", 1, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 100, 112, 270);
    *hero = character(t, "Hero", 0, OM_WM_HERO, 8, 40, 5);
    *general = character(t, "General", 0, OM_WM_GENERAL, 9, 130, 5);
    s->plan[*h1] = advance(*hero, 40, 115, 0);
    s->plan[*h2] = advance(*hero, 60, 115, 0);
    s->plan[*h2].priority = 1;
    s->plan[*g1] = advance(*general, 130, 115, 0);
    s->plan[*g2] = advance(*general, 150, 115, 0);
    s->plan[*g2].priority = 1;
}

Test(command, heroes_stop_the_general_ends)
{
    om_wm_table t, start;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_dice d;
    unsigned h1, h2, g1, g2, hero, general;
    unsigned h2_tried = 0, g1_tried = 0, g2_tried = 0, h1_blunder = 0, hero_first = 0;
    chain_layout(&start, &s, &h1, &h2, &g1, &g2, &hero, &general);
    valid(&s, &start);
    seed(&d, 3);
    for (unsigned n = 0; n < TRIALS; n++) {
        play(&s, &start, &d, &t, &r);
        h2_tried += r.unit[h2].tests > 0;
        g1_tried += r.unit[g1].tests > 0;
        g2_tried += r.unit[g2].tests > 0;
        h1_blunder += r.unit[h1].blunder != OM_WM_BLUNDER_NONE;
        cr_assert_eq(r.general_tests, r.unit[g1].tests + r.unit[g2].tests);
        cr_assert_eq(r.character[hero].tests, r.unit[h1].tests + r.unit[h2].tests);
    }
    const double hero3 = p2d6(8) * p2d6(6) * p2d6(4), gen3 = p2d6(9) * p2d6(7) * p2d6(5);
    expect_p("H2 tried (Hero stops at a failure)", h2_tried, TRIALS, hero3);
    expect_p("G1 tried (a Hero's failure does not stop the General)", g1_tried, TRIALS, 1.0);
    expect_p("G2 tried", g2_tried, TRIALS, gen3);
    /* A Hero's 12 blunders: on H1's 1st order, or its 2nd after a pass, or 3rd. */
    expect_p("H1 blundered", h1_blunder, TRIALS, (1 + p2d6(8) + p2d6(8) * p2d6(6)) / 36.0);

    s.issue = OM_WM_ISSUE_GENERAL_FIRST;
    seed(&d, 4);
    for (unsigned n = 0; n < TRIALS; n++) {
        play(&s, &start, &d, &t, &r);
        hero_first += r.unit[h1].tests > 0;
        if (r.unit[h1].tests == 0)
            cr_assert_eq(r.character[hero].stop, OM_WM_STOP_PHASE_ENDED);
    }
    expect_p("Hero tried after the General", hero_first, TRIALS, gen3 * gen3);
}

/*
 * Taking over the orders of a character who stopped (om_wm_command_setup
 * take_over; Warmaster Revolution, The Command Phase > Orders: any character
 * may order a unit within his range, a unit that failed an order may not be
 * ordered again that phase). The layout of heroes_stop_the_general_ends: the
 * Hero issues first (H1 then H2, up to three orders each), the General last
 * (G1, then H2 when the Hero left it, then G2: priorities 0, 1, 1). H2 is
 * tried by the Hero after three passes to H1, or else by the General after
 * three passes to G1; H1, which failed an order whenever the Hero stopped on
 * it, is never ordered by the General.
 */
Test(command, take_over_the_orders_of_a_stopped_character)
{
    om_wm_table t, start;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_dice d;
    unsigned h1, h2, g1, g2, hero, general, h2_tried = 0, h2_by_general = 0;
    chain_layout(&start, &s, &h1, &h2, &g1, &g2, &hero, &general);
    s.take_over = true;
    valid(&s, &start);
    seed(&d, 5);
    for (unsigned n = 0; n < TRIALS; n++) {
        play(&s, &start, &d, &t, &r);
        h2_tried += r.unit[h2].tests > 0;
        h2_by_general += r.unit[h2].tests > 0 && r.unit[h2].by == (int)general;
        if (r.unit[h1].tests > 0)
            cr_assert_eq(r.unit[h1].by, (int)hero, "H1 failed an order: no other may order it");
        if (r.unit[h2].by == (int)general)
            cr_assert_neq(r.character[hero].stop, OM_WM_STOP_DONE,
                          "the General takes over only after the Hero stopped");
    }
    const double hero3 = p2d6(8) * p2d6(6) * p2d6(4), gen3 = p2d6(9) * p2d6(7) * p2d6(5);
    expect_p("H2 tried, by the Hero or the General", h2_tried, TRIALS, hero3 + (1 - hero3) * gen3);
    expect_p("H2 tried by the General", h2_by_general, TRIALS, (1 - hero3) * gen3);
}

/* ---------- Brigades ---------- */

/*
 * Revolution, The Command Phase > Brigades: measure to the most distant unit,
 * each penalty once, casualties of the unit that lost the most. A (2 stands,
 * x 76..84), B (x 84..96) and C (1 stand, x 96..100) touch; A and C are in a
 * wood; the General is at (30,5).
 *      ########################
 *      #  A   ][   B   ][C    #      y 19..21
 *      ########################
 *   G
 * To C (the most distant, nearest corner (96,19)): sqrt(66^2 + 14^2) = 67.5cm,
 * -3; dense once -1; casualties max(1, 2) = -2: Command 10 needs 4. A alone:
 * 48.1cm -2, dense -1, casualties -1: needs 6.
 * Ordered twice as a brigade (straight up 20cm, out of the wood; C then 74.2cm
 * away, still -3): the second order needs 10 - 3 - 1 - 2 = 4. One test moves
 * all three 20cm as one body; a failure stops all three.
 */
Test(command, brigade_penalties_once_and_one_test)
{
    om_wm_table t, start;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_wm_command_test test;
    om_dice d;
    unsigned one = 0, two = 0;
    setup_init(&s, REV);
    om_wm_table_init(&start, REV, 0, 0);
    unsigned a = add(&start, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 80, 20, 90);
    unsigned b = add(&start, "B", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned c = add(&start, "C", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 98, 20, 90);
    start.unit[a].stands = 2;
    start.unit[c].stands = 1;
    add(&start, "Enemy", 1, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 170, 112, 270);
    om_wm_table_add_rect_terrain(&start, OM_WM_TERRAIN_WOOD, at(70, 15), at(110, 25));
    unsigned g = character(&start, "General", 0, OM_WM_GENERAL, 10, 30, 5);
    unsigned units[3] = {a, b, c};
    om_wm_table_add_brigade(&start, units, 3);
    s.brigade_plan[0] = advance(g, 80, 115, 2); /* straight up from A's centre */
    valid(&s, &start);
    om_wm_command_test_for(&s, &start, g, units, 3, 1, &test);
    cr_expect_eq(test.distance, 3);
    cr_expect_eq(test.dense, 1);
    cr_expect_eq(test.casualties, 2);
    cr_expect_eq(test.target, 4);
    om_wm_command_test_for(&s, &start, g, &a, 1, 1, &test);
    cr_expect_eq(test.distance, 2);
    cr_expect_eq(test.target, 6);
    seed(&d, 5);
    for (unsigned n = 0; n < TRIALS; n++) {
        play(&s, &start, &d, &t, &r);
        cr_assert_eq(r.unit[a].tests, r.unit[b].tests);
        cr_assert_eq(r.unit[a].tests, r.unit[c].tests);
        cr_assert_eq(r.unit[a].orders, r.unit[c].orders);
        cr_assert_eq(r.general_tests, r.unit[a].tests);
        cr_assert_float_eq(r.unit[b].moved_cm, 20.0 * r.unit[b].orders, 1e-6);
        cr_assert_float_eq(r.unit[c].moved_cm, r.unit[a].moved_cm, 1e-9);
        cr_assert(om_wm_table_touching(&t, a, b) && om_wm_table_touching(&t, b, c));
        one += r.unit[a].orders >= 1;
        two += r.unit[a].orders >= 2;
    }
    expect_p("brigade 1st order", one, TRIALS, p2d6(4));
    expect_p("brigade 2nd order", two, TRIALS, p2d6(4) * p2d6(4));
}

/* A brigade plan needs every unit in range: a Hero at (20,5) is 53.9cm from
 * A's nearest corner (72,19) but 65.5cm from B's (84,19), beyond his 60cm.
 *   [  A  ][  B  ]
 *  H */
Test(command, brigade_range_is_the_most_distant_unit)
{
    om_wm_table t;
    om_wm_command_setup s;
    om_wm_check_failure why;
    setup_init(&s, REV);
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 78, 20, 90);
    unsigned b = add(&t, "B", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned units[2] = {a, b};
    om_wm_table_add_brigade(&t, units, 2);
    unsigned h = character(&t, "Hero", 0, OM_WM_HERO, 8, 20, 5);
    s.brigade_plan[0] = advance(h, 90, 115, 0);
    cr_expect_eq(om_wm_command_check(&s, &t, &why), OM_EINVAL);
    cr_expect_str_eq(why.field, "brigade_plans[0].by");
    t.character[h].at = at(60, 5); /* 18.4 and 27.8cm: both within 60 */
    valid(&s, &t);
}

/* ---------- Blunders ---------- */

/* The Blunder table (Revolution, Generals, Wizards & Heroes > D6 Blunder;
 * Ancients, Commanders > Blunder Table with the Subordinate's +1). */
Test(command, blunder_table_entries)
{
    const om_wm_blunder rev[8] = {OM_WM_BLUNDER_NONE,      OM_WM_BLUNDER_HALT,
                                  OM_WM_BLUNDER_FALL_BACK, OM_WM_BLUNDER_FALL_BACK,
                                  OM_WM_BLUNDER_HALF_PACE, OM_WM_BLUNDER_HALF_PACE,
                                  OM_WM_BLUNDER_CHARGE,    OM_WM_BLUNDER_CHARGE};
    for (unsigned die = 0; die <= 7; die++) {
        cr_expect_eq(om_wm_command_blunder_of(REV, die), rev[die], "die %u", die);
        cr_expect_eq(om_wm_command_blunder_of(WM11, die), rev[die], "die %u", die);
        cr_expect_eq(om_wm_command_blunder_of(WMA, die), rev[die], "die %u", die);
    }
    cr_expect_eq(om_wm_command_blunder_of(REV, 8), OM_WM_BLUNDER_NONE);
    om_wm_command_options o = {0};
    cr_expect(om_wm_command_is_blunder(REV, &o, OM_WM_HERO, 12));
    cr_expect(om_wm_command_is_blunder(REV, &o, OM_WM_WIZARD, 12));
    cr_expect_not(om_wm_command_is_blunder(REV, &o, OM_WM_HERO, 11));
    cr_expect_not(om_wm_command_is_blunder(REV, &o, OM_WM_GENERAL, 12)); /* A1 */
    o.general_blunders = true;
    cr_expect(om_wm_command_is_blunder(REV, &o, OM_WM_GENERAL, 12));
    cr_expect_not(om_wm_command_is_blunder(WMA, &o, OM_WM_GENERAL, 12)); /* never */
    cr_expect_str_eq(om_wm_blunder_names[OM_WM_BLUNDER_FALL_BACK], "fall-back");
}

/*
 * Blunder die frequencies: each face 1/6 at 5 sigma, so the results come out
 * 1/6, 2/6, 2/6, 1/6 (Revolution; an Ancients Leader likewise); an Ancients
 * Subordinate rolls 2-7 (WE-35: a 6 becomes 7, "The gods are with us!"), so
 * never "The gods forbid!" and 2/6 for each other result.
 */
Test(command, blunder_die_frequencies)
{
    const unsigned n = 600000;
    struct {
        om_wm_ruleset_id rules;
        om_wm_character_kind kind;
        unsigned lo;
        double p[OM_WM_BLUNDER_COUNT];
    } cases[] = {
        {REV, OM_WM_HERO, 1, {0, 1 / 6.0, 2 / 6.0, 2 / 6.0, 1 / 6.0, 0}},
        {WMA, OM_WM_HERO, 1, {0, 1 / 6.0, 2 / 6.0, 2 / 6.0, 1 / 6.0, 0}},
        {WMA, OM_WM_WIZARD, 2, {0, 0, 2 / 6.0, 2 / 6.0, 2 / 6.0, 0}},
    };
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        om_dice d;
        unsigned face[9] = {0}, result[OM_WM_BLUNDER_COUNT] = {0};
        seed(&d, 10 + k);
        for (unsigned i = 0; i < n; i++) {
            unsigned die;
            om_wm_blunder b = om_wm_command_roll_blunder(cases[k].rules, cases[k].kind, &d, &die);
            cr_assert(die >= cases[k].lo && die <= cases[k].lo + 5, "die %u", die);
            face[die]++;
            result[b]++;
        }
        for (unsigned f = cases[k].lo; f <= cases[k].lo + 5; f++)
            expect_p("blunder face", face[f], n, 1 / 6.0);
        for (unsigned b = 0; b < OM_WM_BLUNDER_COUNT; b++)
            expect_p(om_wm_blunder_names[b], result[b], n, cases[k].p[b]);
    }
}

/*
 * Blunders in play: a Hero's single order to U (Command 8, 14cm) blunders on a
 * 12 (1/36), and each result is a sixth of that; "You must be crazy!" leaves a
 * permanent -1 (1/216). With the alternative rule (Revolution, Blunders >
 * Alternative Blunder Rule) a blunder ends the phase instead: the General,
 * ordering after the Hero, is then never tried.
 */
Test(command, blunders_in_play_and_the_alternative_rule)
{
    om_wm_table t, start;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_dice d;
    unsigned blunders = 0, crazy = 0, ends = 0, general_idle = 0;
    setup_init(&s, REV);
    om_wm_table_init(&start, REV, 0, 0);
    unsigned u = add(&start, "U", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 40, 20, 90);
    unsigned v = add(&start, "V", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 130, 20, 90);
    add(&start, "Enemy", 1, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 170, 112, 270);
    unsigned h = character(&start, "Hero", 0, OM_WM_HERO, 8, 40, 5);
    unsigned g = character(&start, "General", 0, OM_WM_GENERAL, 9, 130, 5);
    s.plan[u] = advance(h, 40, 115, 1);
    s.plan[v] = advance(g, 130, 115, 1);
    valid(&s, &start);
    seed(&d, 6);
    for (unsigned n = 0; n < TRIALS; n++) {
        play(&s, &start, &d, &t, &r);
        blunders += r.unit[u].blunder != OM_WM_BLUNDER_NONE;
        crazy += t.unit[u].blunder_penalty == 1;
        cr_assert_eq(r.unit[v].tests, 1); /* the General always goes */
        if (r.unit[u].blunder != OM_WM_BLUNDER_NONE)
            cr_assert_eq(r.character[h].stop, OM_WM_STOP_BLUNDERED);
    }
    expect_p("Hero blunders", blunders, TRIALS, 1 / 36.0);
    expect_p("You must be crazy!", crazy, TRIALS, 1 / 216.0);
    s.options.alternative_blunder = true;
    seed(&d, 7);
    for (unsigned n = 0; n < TRIALS; n++) {
        play(&s, &start, &d, &t, &r);
        ends += r.ended == OM_WM_PHASE_BLUNDER;
        general_idle += r.unit[v].tests == 0;
        cr_assert_eq(t.unit[u].blunder_penalty, 0); /* no table roll */
        if (r.ended == OM_WM_PHASE_BLUNDER)
            cr_assert_eq(r.unit[u].blunder, OM_WM_BLUNDER_ENDS_PHASE);
    }
    expect_p("blunder ends the phase", ends, TRIALS, 1 / 36.0);
    expect_p("General never tried", general_idle, TRIALS, 1 / 36.0);
}

/* A1: a General's 12 is no blunder by default; with general_blunders it is
 * (1/36 of single orders), and the phase still ends. Ancients refuses it. */
Test(command, general_blunders_option)
{
    om_wm_table t, start;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_wm_check_failure why;
    om_dice d;
    unsigned blunders = 0;
    setup_init(&s, REV);
    om_wm_table_init(&start, REV, 0, 0);
    unsigned u = add(&start, "U", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned g = character(&start, "General", 0, OM_WM_GENERAL, 9, 90, 5);
    s.plan[u] = advance(g, 90, 115, 1);
    valid(&s, &start);
    seed(&d, 8);
    for (unsigned n = 0; n < TRIALS / 4; n++) {
        play(&s, &start, &d, &t, &r);
        cr_assert_eq(r.unit[u].blunder, OM_WM_BLUNDER_NONE);
    }
    s.options.general_blunders = true;
    seed(&d, 9);
    for (unsigned n = 0; n < TRIALS; n++) {
        play(&s, &start, &d, &t, &r);
        blunders += r.unit[u].blunder != OM_WM_BLUNDER_NONE;
        if (r.unit[u].blunder != OM_WM_BLUNDER_NONE)
            cr_assert_eq(r.ended, OM_WM_PHASE_GENERAL_FAILED);
    }
    expect_p("General blunders (A1 reading B)", blunders, TRIALS, 1 / 36.0);
    s.rules = WMA;
    cr_expect_eq(om_wm_command_check(&s, &start, &why), OM_EINVAL);
    cr_expect_str_eq(why.field, "options.general_blunders");
}

/* A table with U (infantry line at (90,20), facing up) and enemy E ahead. */
static void blunder_layout(om_wm_table *t, om_wm_command_setup *s, om_wm_ruleset_id rules,
                           double enemy_y, unsigned *u, unsigned *e)
{
    setup_init(s, rules);
    om_wm_table_init(t, REV, 0, 0);
    *u = add(t, "U", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    *e = add(t, "E", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, enemy_y, 270);
}

/*
 * "You must be crazy!": a permanent -1, cumulative, on the brigade's first
 * unit; it then counts in every order that includes it.
 */
Test(command, blunder_halt_permanent_penalty)
{
    om_wm_table t;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_wm_command_test test;
    om_dice d;
    unsigned u, e;
    blunder_layout(&t, &s, REV, 60, &u, &e);
    unsigned f = add(&t, "F", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 102, 20, 90);
    unsigned g = character(&t, "General", 0, OM_WM_GENERAL, 9, 90, 5);
    unsigned both[2] = {u, f};
    seed(&d, 11);
    memset(&r, 0, sizeof r);
    om_wm_command_apply_blunder(&s, &t, &d, both, 2, &s.plan[u], OM_WM_BLUNDER_HALT, &r);
    om_wm_command_apply_blunder(&s, &t, &d, &u, 1, &s.plan[u], OM_WM_BLUNDER_HALT, &r);
    cr_expect_eq(t.unit[u].blunder_penalty, 2);
    cr_expect_eq(t.unit[f].blunder_penalty, 0);
    cr_expect_float_eq(t.unit[u].centre.y, 20.0, EPS);
    om_wm_command_test_for(&s, &t, g, both, 2, 1, &test);
    cr_expect_eq(test.blunders, 2);
    om_wm_command_test_for(&s, &t, g, &f, 1, 1, &test);
    cr_expect_eq(test.blunders, 0);
}

/*
 * "Blimey Sir!": E is 10cm away and seen, within U's 20cm full pace: U moves
 * straight back 10cm, to a full pace from it. E 25cm away: U just halts.
 *    +--E--+   y 31..33
 *    +--U--+   y 19..21  -> y 9..11
 * A river 1cm behind U: Revolution (and 1.1, which follows its text here)
 * halts it where it was ("if unable to comply, a unit halts instead");
 * Ancients moves it as far as it can (1cm).
 */
Test(command, blunder_fall_back)
{
    om_wm_table t;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_dice d;
    unsigned u, e;
    seed(&d, 12);
    blunder_layout(&t, &s, REV, 32, &u, &e);
    memset(&r, 0, sizeof r);
    om_wm_command_apply_blunder(&s, &t, &d, &u, 1, &s.plan[u], OM_WM_BLUNDER_FALL_BACK, &r);
    cr_expect_float_eq(t.unit[u].centre.y, 10.0, 1e-6);
    cr_expect_float_eq(om_wm_table_distance(&t, u, e), 20.0, 1e-6);
    cr_expect_eq(r.unit[u].blunder, OM_WM_BLUNDER_FALL_BACK);
    blunder_layout(&t, &s, REV, 47, &u, &e);
    om_wm_command_apply_blunder(&s, &t, &d, &u, 1, &s.plan[u], OM_WM_BLUNDER_FALL_BACK, &r);
    cr_expect_float_eq(t.unit[u].centre.y, 20.0, EPS);
    const om_wm_ruleset_id sets[3] = {REV, WM11, WMA};
    const double end_y[3] = {20.0, 20.0, 19.0};
    for (unsigned k = 0; k < 3; k++) {
        blunder_layout(&t, &s, sets[k], 32, &u, &e);
        om_wm_table_add_rect_terrain(&t, OM_WM_TERRAIN_RIVER, at(0, 10), at(180, 18));
        memset(&r, 0, sizeof r);
        om_wm_command_apply_blunder(&s, &t, &d, &u, 1, &s.plan[u], OM_WM_BLUNDER_FALL_BACK, &r);
        cr_expect_float_eq(t.unit[u].centre.y, end_y[k], 1e-6, "rule set %u", k);
    }
}

/*
 * "No sense in getting killed sir!": U's plan is to charge E 15cm away (in reach
 * of its 20cm pace); it moves only half pace (10cm) and may not charge.
 */
Test(command, blunder_half_pace_no_charge)
{
    om_wm_table t;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_dice d;
    unsigned u, e;
    seed(&d, 13);
    blunder_layout(&t, &s, REV, 37, &u, &e);
    s.plan[u] = charge(0, (int)e);
    memset(&r, 0, sizeof r);
    om_wm_command_apply_blunder(&s, &t, &d, &u, 1, &s.plan[u], OM_WM_BLUNDER_HALF_PACE, &r);
    cr_expect_float_eq(t.unit[u].centre.y, 30.0, 1e-6);
    cr_expect_not(t.unit[u].charged);
    cr_expect_eq(r.charges, 0);
}

/*
 * "Up and 'at 'em!" (Revolution: the nearest enemy unit) against "The gods are
 * with us!" (Ancients: the nearest *visible* enemy). U is one stand (x 88..92);
 * E1, one stand 10cm away, is nearest but hidden behind a building; E2 is seen,
 * 14.4cm away, and reachable (its front stand at x 76..80: a move of
 * sqrt(12^2 + 12^2) = 17cm):
 *                [E1]        y 31..33 (x 91..95)
 *    +--E2--+   ######       building y 26..29 (x 88..100)
 *               [U]          y 19..21
 * Revolution: U heads for E1, which it cannot see, so it cannot charge; Ancients:
 * it charges E2. With nothing in sight at all, an Ancients unit moves as for a
 * successful order.
 */
Test(command, blunder_charge_nearest_rule_sets)
{
    om_wm_table t, start;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_dice d;
    seed(&d, 14);
    setup_init(&s, REV);
    om_wm_table_init(&start, REV, 0, 0);
    unsigned u = add(&start, "U", 0, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned e1 = add(&start, "E1", 1, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 93, 32, 270);
    unsigned e2 = add(&start, "E2", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 74, 34, 270);
    om_wm_table_add_rect_terrain(&start, OM_WM_TERRAIN_BUILDING, at(88, 26), at(100, 29));
    valid(&s, &start);
    cr_assert_eq(om_wm_table_closest_enemy(&start, u, NULL), (int)e1);
    cr_assert_not(om_wm_table_sees(&start, REV, u, e1, false));
    cr_assert(om_wm_table_sees(&start, REV, u, e2, false));
    t = start;
    memset(&r, 0, sizeof r);
    om_wm_command_apply_blunder(&s, &t, &d, &u, 1, &s.plan[u], OM_WM_BLUNDER_CHARGE, &r);
    cr_expect_not(t.unit[u].charged);
    s.rules = WMA;
    t = start;
    memset(&r, 0, sizeof r);
    om_wm_command_apply_blunder(&s, &t, &d, &u, 1, &s.plan[u], OM_WM_BLUNDER_CHARGE, &r);
    cr_expect(t.unit[u].charged);
    cr_expect_eq(r.unit[u].charge_target, (int)e2);
    cr_expect_float_eq(r.unit[u].moved_cm, sqrt(288.0), 1e-6);
    /* Nothing in sight (both enemies gone, another beyond 60cm): Ancients
     * follows the plan once. */
    t = start;
    t.unit[e1].present = t.unit[e2].present = false;
    add(&t, "Far", 1, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 20, 110, 0);
    s.plan[u] = advance(0, 30, 20, 0);
    memset(&r, 0, sizeof r);
    om_wm_command_apply_blunder(&s, &t, &d, &u, 1, &s.plan[u], OM_WM_BLUNDER_CHARGE, &r);
    cr_expect_not(t.unit[u].charged);
    cr_expect_float_eq(r.unit[u].moved_cm, 20.0, 1e-6);
}

/* ---------- Initiative ---------- */

/*
 * A charge on initiative (Revolution, Movement > Moving by Initiative): cavalry C
 * 12cm from E, which it sees, with a plan to charge E, charges at once in every
 * trial and takes no order.
 *    +--E--+   y 59..61
 *     +-C-+    y 43..47
 */
Test(command, initiative_charge)
{
    om_wm_table t, start;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_dice d;
    setup_init(&s, REV);
    om_wm_table_init(&start, REV, 0, 0);
    unsigned e = add(&start, "E", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 60, 270);
    unsigned c = add(&start, "C", 0, OM_WM_CAVALRY, 3, OM_WM_TABLE_LINE, 90, 45, 90);
    unsigned g = character(&start, "General", 0, OM_WM_GENERAL, 9, 90, 30);
    s.plan[c] = charge(g, (int)e);
    valid(&s, &start);
    seed(&d, 15);
    for (unsigned n = 0; n < 100; n++) {
        play(&s, &start, &d, &t, &r);
        cr_assert_eq(r.unit[c].initiative, OM_WM_MOVED_CHARGE);
        cr_assert(r.unit[c].charged && t.unit[c].charged);
        cr_assert_eq(r.unit[c].charge_target, (int)e);
        cr_assert_eq(r.unit[c].charge_face, OM_WM_TABLE_FRONT);
        cr_assert_eq(r.unit[c].tests, 0);
        cr_assert_eq(r.general_tests, 0);
        cr_assert(om_wm_table_engaged(&t, c));
    }
    /* Artillery cannot charge on initiative in Revolution; in Ancients it may. */
    start.unit[c].troop = OM_WM_ARTILLERY;
    start.unit[c].pace_cm = 30;
    s.plan[c].initiative = OM_WM_INITIATIVE_CHARGE;
    s.plan[c].by = -1;
    play(&s, &start, &d, &t, &r);
    cr_expect_eq(r.unit[c].initiative, OM_WM_MOVED_NO_INITIATIVE);
    s.rules = WMA;
    play(&s, &start, &d, &t, &r);
    cr_expect_eq(r.unit[c].initiative, OM_WM_MOVED_CHARGE);
    /* Confused units cannot use initiative, nor take orders; they recover. */
    s.rules = REV;
    start.unit[c].troop = OM_WM_CAVALRY;
    start.unit[c].confused = true;
    s.plan[c] = charge(g, (int)e);
    play(&s, &start, &d, &t, &r);
    cr_expect_eq(r.unit[c].initiative, OM_WM_MOVED_NO_INITIATIVE);
    cr_expect_eq(r.unit[c].tests, 0);
    cr_expect_eq(r.unit[c].recovered, 1);
    cr_expect_not(t.unit[c].confused);
    /* A unit that must charge does so whatever its policy. */
    start.unit[c].confused = false;
    start.unit[c].traits = OM_WM_TABLE_TRAIT_MUST_CHARGE;
    s.plan[c] = advance(g, 20, 20, 0);
    s.plan[c].initiative = OM_WM_INITIATIVE_NEVER;
    play(&s, &start, &d, &t, &r);
    cr_expect_eq(r.unit[c].initiative, OM_WM_MOVED_CHARGE);
}

/*
 * AUTO charges only its plan's target when that is the closest visible enemy:
 * here N (one stand ahead-right, 10.4cm) is closer than the target E (12cm), so
 * C waits for orders; the General's first order then charges E.
 *    +--E--+
 *             [N]
 *     +-C-+
 */
Test(command, initiative_auto_only_at_the_closest)
{
    om_wm_table t, start;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_dice d;
    unsigned passed = 0;
    setup_init(&s, REV);
    om_wm_table_init(&start, REV, 0, 0);
    unsigned e = add(&start, "E", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 60, 270);
    unsigned n = add(&start, "N", 1, OM_WM_INFANTRY, 1, OM_WM_TABLE_LINE, 104, 52, 180);
    unsigned c = add(&start, "C", 0, OM_WM_CAVALRY, 3, OM_WM_TABLE_LINE, 90, 45, 90);
    unsigned g = character(&start, "General", 0, OM_WM_GENERAL, 9, 90, 40);
    s.plan[c] = charge(g, (int)e);
    valid(&s, &start);
    cr_assert_float_eq(om_wm_table_distance(&start, c, n), sqrt(109.0), 1e-6);
    cr_assert(om_wm_table_sees(&start, REV, c, n, false));
    seed(&d, 16);
    for (unsigned k = 0; k < TRIALS / 10; k++) {
        play(&s, &start, &d, &t, &r);
        cr_assert_eq(r.unit[c].initiative, OM_WM_MOVED_NO_INITIATIVE);
        cr_assert_eq(r.unit[c].tests, 1); /* one order: charged, or failed */
        passed += r.unit[c].charged;
        if (r.unit[c].charged)
            cr_assert_eq(r.unit[c].charge_target, (int)e);
    }
    /* General 3cm from C: no distance penalty; N within 20cm: -1; needs 8. */
    expect_p("ordered charge", passed, TRIALS / 10, p2d6(8));
}

/*
 * Fortified enemies may be ignored for initiative in Revolution and 1.1 (Moving
 * by Initiative; Warmaster 1.1 Rules Update, P22 – Moving by Initiative), not
 * in Ancients. F (fortified, 10cm) is closer than E (19.1cm, seen past F's
 * right): Revolution charges E, Ancients sees F as the closest and its plan's
 * target is E, so it waits.
 *    +--F--+  (fortified)     +--E--+
 *     +-C-+
 */
Test(command, initiative_fortified_enemies_rule_sets)
{
    om_wm_table t, start;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_dice d;
    setup_init(&s, REV);
    om_wm_table_init(&start, REV, 0, 0);
    unsigned f = add(&start, "F", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 58, 270);
    unsigned e = add(&start, "E", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 112, 62, 270);
    unsigned c = add(&start, "C", 0, OM_WM_CAVALRY, 3, OM_WM_TABLE_LINE, 90, 45, 90);
    start.unit[f].position = OM_WM_FORTIFIED;
    s.plan[c] = charge(0, (int)e);
    s.plan[c].by = -1;
    valid(&s, &start);
    seed(&d, 17);
    play(&s, &start, &d, &t, &r);
    cr_expect_eq(r.unit[c].initiative, OM_WM_MOVED_CHARGE);
    cr_expect_eq(r.unit[c].charge_target, (int)e);
    s.rules = WM11;
    play(&s, &start, &d, &t, &r);
    cr_expect_eq(r.unit[c].initiative, OM_WM_MOVED_CHARGE);
    s.rules = WMA;
    play(&s, &start, &d, &t, &r);
    cr_expect_eq(r.unit[c].initiative, OM_WM_MOVED_NO_INITIATIVE);
}

/*
 * Evading (Revolution, The path of evaders): U evades E (10cm ahead) straight
 * back at full pace (20cm), ending 30cm from it; it bursts through friend F
 * (confused, so F takes no order, and recovers at the end of the phase); at the
 * table edge it stops (moved 19cm: its rear edge starts 19cm from the edge).
 * Having used its initiative, U takes no order although its plan asks for one.
 *    +--E--+   y 31..33
 *    +--U--+   y 19..21   v
 *    +--F--+   y 9..11
 * Ancients: only skirmishers pass through friends; U stops touching F (8cm).
 */
Test(command, initiative_evade_and_burst_through)
{
    om_wm_table t, start;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_dice d;
    setup_init(&s, REV);
    om_wm_table_init(&start, REV, 0, 0);
    unsigned u = add(&start, "U", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned e = add(&start, "E", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 32, 270);
    unsigned f = add(&start, "F", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 10, 90);
    unsigned g = character(&start, "General", 0, OM_WM_GENERAL, 9, 40, 5);
    s.plan[u] = advance(g, 90, 60, 0);
    s.plan[u].initiative = OM_WM_INITIATIVE_EVADE;
    s.plan[f] = advance(g, 40, 40, 0);
    valid(&s, &start);
    seed(&d, 18);
    play(&s, &start, &d, &t, &r);
    cr_expect_eq(r.unit[u].initiative, OM_WM_MOVED_EVADE);
    cr_expect_eq(r.unit[u].tests, 0); /* moved by initiative: no orders (Moving by
                                         Initiative) */
    cr_expect_float_eq(r.unit[u].moved_cm, 19.0, 1e-6);
    cr_expect_float_eq(om_wm_table_distance(&t, u, e), 29.0, 1e-6);
    cr_expect_eq(r.unit[f].burst, 1);
    cr_expect_eq(r.unit[f].tests, 0);
    cr_expect_eq(r.unit[f].recovered, 1);
    cr_expect_not(t.unit[f].confused);
    s.rules = WMA;
    play(&s, &start, &d, &t, &r);
    cr_expect_eq(r.unit[u].initiative, OM_WM_MOVED_EVADE);
    cr_expect_float_eq(r.unit[u].moved_cm, 8.0, 1e-6);
    cr_expect_eq(r.unit[f].burst, 0);
    (void)g;
}

/*
 * Evade clearance: Revolution evaders end at least 5cm from every enemy,
 * Ancients 1cm (Revolution, The path of evaders; Ancients, Movement > The
 * Evade). E2 stands behind U's right: U's full 20cm would end 4.2cm from it.
 * Revolution stops U 5cm short of E2 (8cm moved); Ancients goes the full 20cm. An enemy 3cm straight behind leaves no legal evade at all
 * (A31: the unit stays put and may still take orders).
 *    +--E--+            y 51..53
 *    +--U--+            y 39..41
 *            +--E2--+   y 24..26 (x 99..111)
 */
Test(command, evade_clearance_rule_sets)
{
    om_wm_table t, start;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_dice d;
    setup_init(&s, REV);
    om_wm_table_init(&start, REV, 0, 0);
    unsigned u = add(&start, "U", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 40, 90);
    add(&start, "E", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 52, 270);
    unsigned e2 = add(&start, "E2", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 105, 25, 90);
    s.plan[u].initiative = OM_WM_INITIATIVE_EVADE;
    valid(&s, &start);
    seed(&d, 19);
    play(&s, &start, &d, &t, &r);
    cr_expect_eq(r.unit[u].initiative, OM_WM_MOVED_EVADE);
    cr_expect_float_eq(r.unit[u].moved_cm, 8.0, 1e-6);
    cr_expect_geq(om_wm_table_distance(&t, u, e2), 5.0 - 1e-6);
    s.rules = WMA;
    play(&s, &start, &d, &t, &r);
    cr_expect_float_eq(r.unit[u].moved_cm, 20.0, 1e-6);
    cr_expect_float_eq(om_wm_table_distance(&t, u, e2), sqrt(18.0), 1e-6);
    /* An enemy 3cm straight behind: no legal evade. */
    s.rules = REV;
    start.unit[e2].centre = at(90, 35);
    play(&s, &start, &d, &t, &r);
    cr_expect_eq(r.unit[u].initiative, OM_WM_MOVED_NO_INITIATIVE);
    cr_expect_float_eq(t.unit[u].centre.y, 40.0, EPS);
}

/* ---------- Charges by order ---------- */

/*
 * A charge needs pace to reach (Revolution, Charge!): cavalry C is 35cm from E
 * (more than its 30cm): the first order moves it 30cm (to 5cm), the second
 * charges. The General stands just behind C (2cm) so C's first order needs 9;
 * its second needs 9 - 1 (second order) - 1 (now 32cm away) - 1 (E within
 * 20cm) = 6: P(charge) = 30/36 * 15/36. With E at 25cm one order suffices:
 * P = 30/36.
 *    +--E--+   y 82..84 (or 72..74)
 *     +-C-+    y 43..47
 *       G      (90,41)
 */
Test(command, ordered_charge_needs_reach)
{
    for (unsigned k = 0; k < 2; k++) {
        om_wm_table t, start;
        om_wm_command_setup s;
        om_wm_command_result r;
        om_dice d;
        unsigned charged = 0;
        setup_init(&s, REV);
        om_wm_table_init(&start, REV, 0, 0);
        unsigned e = add(&start, "E", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, k ? 73 : 83,
                         270);
        unsigned c = add(&start, "C", 0, OM_WM_CAVALRY, 3, OM_WM_TABLE_LINE, 90, 45, 90);
        unsigned g = character(&start, "General", 0, OM_WM_GENERAL, 9, 90, 41);
        s.plan[c] = charge(g, (int)e);
        valid(&s, &start);
        seed(&d, 20 + k);
        for (unsigned n = 0; n < TRIALS; n++) {
            play(&s, &start, &d, &t, &r);
            charged += r.unit[c].charged;
            if (r.unit[c].charged) {
                cr_assert_eq(r.unit[c].charge_face, OM_WM_TABLE_FRONT);
                cr_assert_eq(r.unit[c].tests, r.unit[c].orders);
                cr_assert(om_wm_table_touching(&t, c, e));
            }
        }
        expect_p("ordered charge", charged, TRIALS, k ? p2d6(9) : p2d6(9) * p2d6(6));
    }
}

/*
 * A shooting plan moves a shooter until its target is in range, then holds:
 * archers A (range 30cm) 45cm from E need one move (15cm of their 20); from
 * 24cm, none.
 *    +--E--+   y 66..68
 *    +--A--+   y 19..21 -> 34..36
 */
Test(command, shoot_plan_moves_into_range)
{
    om_wm_table t, start;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_wm_check_failure why;
    om_dice d;
    unsigned passed = 0;
    setup_init(&s, REV);
    om_wm_table_init(&start, REV, 0, 0);
    unsigned a = add(&start, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned e = add(&start, "E", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 67, 270);
    unsigned g = character(&start, "General", 0, OM_WM_GENERAL, 9, 90, 5);
    s.plan[a] = (om_wm_plan){.kind = OM_WM_PLAN_SHOOT, .target = -1, .by = (int8_t)g};
    cr_expect_eq(om_wm_command_check(&s, &start, &why), OM_EINVAL); /* no range yet */
    cr_expect_str_eq(why.field, "plans[0].kind");
    start.unit[a].range_cm = 30;
    valid(&s, &start);
    seed(&d, 25);
    for (unsigned n = 0; n < TRIALS / 10; n++) {
        play(&s, &start, &d, &t, &r);
        cr_assert_eq(r.unit[a].tests, 1);
        passed += r.unit[a].orders;
        if (r.unit[a].orders) { /* it stops once just inside its range */
            double cm = om_wm_table_distance(&t, a, e);
            cr_assert(cm <= 30.0 && cm > 29.0, "%g", cm);
        }
    }
    expect_p("one order to get in range", passed, TRIALS / 10, p2d6(9));
    start.unit[e].centre.y = 46; /* 24cm: in range already */
    play(&s, &start, &d, &t, &r);
    cr_expect_eq(r.unit[a].tests, 0);
}

/* ---------- Ranges, recovery, characters ---------- */

/*
 * A Hero orders units within 60cm only (Generals, Wizards & Heroes > Command
 * range): U starts exactly 60cm away (-2: needs 6) and, once moved 20cm on,
 * is 80cm away: no second order.
 */
Test(command, hero_range_limits_later_orders)
{
    om_wm_table t, start;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_dice d;
    unsigned passed = 0;
    setup_init(&s, REV);
    om_wm_table_init(&start, REV, 0, 0);
    unsigned u = add(&start, "U", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 66, 90);
    unsigned h = character(&start, "Hero", 0, OM_WM_HERO, 8, 90, 5);
    s.plan[u] = advance(h, 90, 115, 0);
    valid(&s, &start);
    seed(&d, 22);
    for (unsigned n = 0; n < TRIALS / 10; n++) {
        play(&s, &start, &d, &t, &r);
        cr_assert_eq(r.unit[u].tests, 1);
        passed += r.unit[u].orders;
    }
    expect_p("Hero at 60cm", passed, TRIALS / 10, p2d6(6));
}

/* A character following a unit joins it when within his 60cm move, else
 * moves 60cm toward it (Revolution, Generals, Wizards & Heroes > Joining). */
Test(command, characters_move_and_join)
{
    om_wm_table t;
    om_wm_command_setup s;
    om_wm_command_result r;
    om_dice d;
    setup_init(&s, REV);
    om_wm_table_init(&t, REV, 0, 0);
    unsigned u = add(&t, "U", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 60, 90);
    unsigned h = character(&t, "Hero", 0, OM_WM_HERO, 8, 90, 9);
    unsigned w = character(&t, "Wizard", 0, OM_WM_WIZARD, 7, 90, 110);
    t.character[h].follow = (int8_t)u;
    t.character[w].follow = (int8_t)u;
    t.character[w].at = at(170, 61);
    valid(&s, &t);
    seed(&d, 23);
    om_wm_command_phase(&s, &t, &d, &r);
    /* Hero: 50cm from U's rear edge: joins, touching it. */
    cr_expect_eq(t.character[h].joined, (int)u);
    cr_expect_float_eq(om_wm_table_character_distance(&t, h, u), 0.0, 1e-6);
    /* Wizard: 74cm from U's right edge (x=96): moves 60, 14 short. */
    cr_expect_eq(t.character[w].joined, -1);
    cr_expect_float_eq(om_wm_table_character_distance(&t, w, u), 14.0, 1e-6);
}

/* ---------- Ancients penalties ---------- */

/*
 * Warmaster Ancients, The Command Phase > Command Penalties 5 (exposed flank or
 * rear): E within 20cm of U's right edge, nothing touching it: -1 in Ancients,
 * not in Revolution (where only "enemy within 20cm" applies). A friend F
 * touching that edge covers it.
 *    +--U--+  +--E--+        E 8cm from U's right edge
 */
Test(command, ancients_exposed_flank)
{
    om_wm_table t;
    om_wm_command_setup s;
    om_wm_command_test test;
    setup_init(&s, WMA);
    om_wm_table_init(&t, REV, 0, 0);
    unsigned u = add(&t, "U", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned e = add(&t, "E", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 110, 20, 90);
    unsigned g = character(&t, "General", 0, OM_WM_GENERAL, 9, 90, 5);
    om_wm_command_test_for(&s, &t, g, &u, 1, 1, &test);
    cr_expect_eq(test.enemy_close, 1);
    cr_expect_eq(test.exposed, 1);
    cr_expect_eq(test.target, 7);
    s.rules = REV;
    om_wm_command_test_for(&s, &t, g, &u, 1, 1, &test);
    cr_expect_eq(test.exposed, 0);
    cr_expect_eq(test.target, 8);
    /* Covered: F touches U's right edge; E moved beyond F, 20cm from U. */
    s.rules = WMA;
    add(&t, "F", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 102, 20, 90);
    t.unit[e].centre.x = 122;
    om_wm_command_test_for(&s, &t, g, &u, 1, 1, &test);
    cr_expect_eq(test.enemy_close, 1);
    cr_expect_eq(test.exposed, 0);
    /* An enemy ahead is not on a flank. */
    t.unit[e].centre = at(90, 32);
    t.unit[e].dir = om_wm_table_dir(270);
    om_wm_command_test_for(&s, &t, g, &u, 1, 1, &test);
    cr_expect_eq(test.exposed, 0);
}

/*
 * Ancients WE-3 (Slow: orders 1, 2, 3 at 0, -2, -3), Unreliable (-1), and the
 * Warband brigade bonus (+1 to at most 10) (Special Rules > Slow, Unreliable,
 * Warband). Revolution has none of them.
 */
Test(command, ancients_slow_unreliable_warband)
{
    om_wm_table t;
    om_wm_command_setup s;
    om_wm_command_test test;
    setup_init(&s, WMA);
    om_wm_table_init(&t, REV, 0, 0);
    unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 78, 20, 90);
    unsigned b = add(&t, "B", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    unsigned c = add(&t, "C", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 102, 20, 90);
    unsigned g = character(&t, "General", 0, OM_WM_GENERAL, 9, 90, 5);
    unsigned all[3] = {a, b, c};
    t.unit[a].traits = OM_WM_TABLE_TRAIT_SLOW;
    const unsigned slow[3] = {0, 2, 3};
    for (unsigned k = 1; k <= 3; k++) {
        om_wm_command_test_for(&s, &t, g, &a, 1, k, &test);
        cr_expect_eq(test.successive, slow[k - 1], "slow order %u", k);
    }
    s.rules = REV;
    om_wm_command_test_for(&s, &t, g, &a, 1, 2, &test);
    cr_expect_eq(test.successive, 1);
    s.rules = WMA;
    t.unit[a].traits = OM_WM_TABLE_TRAIT_UNRELIABLE;
    om_wm_command_test_for(&s, &t, g, all, 3, 1, &test);
    cr_expect_eq(test.unreliable, 1);
    for (unsigned i = 0; i < 3; i++)
        t.unit[all[i]].traits = OM_WM_TABLE_TRAIT_WARBAND;
    om_wm_command_test_for(&s, &t, g, all, 3, 1, &test);
    cr_expect_eq(test.bonus, 1);
    cr_expect_eq(test.target, 10);
    om_wm_command_test_for(&s, &t, g, all, 2, 1, &test);
    cr_expect_eq(test.bonus, 0); /* two warbands are not enough */
    t.character[g].command = 10;
    om_wm_command_test_for(&s, &t, g, all, 3, 1, &test);
    cr_expect_eq(test.target, 10); /* never above 10 */
    s.rules = REV;
    t.character[g].command = 9;
    om_wm_command_test_for(&s, &t, g, all, 3, 1, &test);
    cr_expect_eq(test.target, 9);
}

/* ---------- Reproducibility ---------- */

/* The same seed gives the same phase, unit by unit. */
Test(command, same_seed_same_phase)
{
    om_wm_table start, t1, t2;
    om_wm_command_setup s;
    om_wm_command_result r1, r2;
    om_dice d1, d2;
    unsigned h1, h2, g1, g2, hero, general;
    chain_layout(&start, &s, &h1, &h2, &g1, &g2, &hero, &general);
    seed(&d1, 24);
    seed(&d2, 24);
    for (unsigned n = 0; n < 1000; n++) {
        play(&s, &start, &d1, &t1, &r1);
        play(&s, &start, &d2, &t2, &r2);
        cr_assert_eq(memcmp(&r1, &r2, sizeof r1), 0);
        cr_assert_eq(memcmp(&t1, &t2, sizeof t1), 0);
    }
}

/* ---------- The check: every error path once ---------- */

static void base_setup(om_wm_table *t, om_wm_command_setup *s)
{
    unsigned u[2] = {0, 1};
    setup_init(s, REV);
    om_wm_table_init(t, REV, 0, 0);
    add(t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 90, 20, 90);
    add(t, "B", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 102, 20, 90);
    add(t, "E", 1, OM_WM_CAVALRY, 3, OM_WM_TABLE_LINE, 90, 80, 270);
    add(t, "C", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 30, 20, 90);
    character(t, "General", 0, OM_WM_GENERAL, 9, 90, 5);
    character(t, "Hero", 0, OM_WM_HERO, 8, 60, 5);
    character(t, "Enemy General", 1, OM_WM_GENERAL, 9, 90, 110);
    om_wm_table_add_brigade(t, u, 2);
    s->plan[3] = charge(1, 2);
    s->brigade_plan[0] = advance(0, 90, 60, 0);
}

static void break_setup(om_wm_table *t, om_wm_command_setup *s, unsigned k)
{
    switch (k) {
    case 0: s->rules = OM_WM_RULES_COUNT; break;
    case 1: s->side = 2; break;
    case 2: s->issue = OM_WM_ISSUE_COUNT; break;
    case 3: s->rules = WMA; s->options.general_blunders = true; break;
    case 4: s->plan[3].kind = OM_WM_PLAN_KIND_COUNT; break;
    case 5: s->plan[3].initiative = OM_WM_INITIATIVE_COUNT; break;
    case 6: s->plan[3].orders = 4; break;
    case 7: s->plan[3].target = 9; break;
    case 8: s->plan[3] = advance(1, 0, 0, 0); s->plan[3].target = 3; break;
    case 9: s->plan[3].target = 0; break;
    case 10: s->plan[3] = advance(1, 200, 20, 0); break;
    case 11: s->plan[3].keep_cm = -1; break;
    case 12: s->plan[3].by = 2; break;
    case 13: t->character[1].at = at(30, 85); break; /* Hero 64cm from C */
    case 14: s->plan[3].by = 0; t->unit[3].traits = OM_WM_TABLE_TRAIT_FLYER; break;
    case 15: s->brigade_plan[3] = advance(0, 90, 60, 0); break;
    case 16: s->brigade_plan[0].by = 1; t->character[1].at = at(20, 20); break; /* 64cm from A */
    case 17: s->brigade_plan[0].kind = OM_WM_PLAN_KIND_COUNT; break;
    default: break;
    }
}

static const char *const bad_fields[] = {
    "ruleset", "side", "issue", "options.general_blunders", "plans[3].kind",
    "plans[3].initiative", "plans[3].orders", "plans[3].target", "plans[3].target",
    "plans[3].target", "plans[3].goal", "plans[3].keep", "plans[3].by", "plans[3].by",
    "plans[3].by", "brigade_plans[3]", "brigade_plans[0].by", "brigade_plans[0].kind",
};

Test(command, check_rejects_bad_plans)
{
    om_wm_table t;
    om_wm_command_setup s;
    base_setup(&t, &s);
    valid(&s, &t);
    for (unsigned k = 0; k < sizeof bad_fields / sizeof bad_fields[0]; k++) {
        om_wm_check_failure why;
        memset(&why, 0, sizeof why);
        base_setup(&t, &s);
        break_setup(&t, &s, k);
        cr_expect_eq(om_wm_command_check(&s, &t, &why), OM_EINVAL, "case %u accepted", k);
        cr_expect_str_eq(why.field, bad_fields[k], "case %u: %s (%s)", k, why.field, why.reason);
        cr_expect_neq(why.reason[0], '\0');
        cr_expect(strstr(om_error_message(), why.field) != NULL);
    }
    /* The Wizard's 20cm, and Ancients Generals' 100cm. */
    base_setup(&t, &s);
    t.character[1].kind = OM_WM_WIZARD;
    t.character[1].at = at(30, 42); /* 21cm from C */
    cr_expect_eq(om_wm_command_check(&s, &t, NULL), OM_EINVAL);
    t.character[1].at = at(30, 41);
    cr_expect_eq(om_wm_command_check(&s, &t, NULL), OM_OK);
    base_setup(&t, &s);
    s.plan[3].by = 0;
    t.character[0].at = at(150, 115); /* 147.8cm from C */
    cr_expect_eq(om_wm_command_check(&s, &t, NULL), OM_OK);
    s.rules = WMA;
    cr_expect_eq(om_wm_command_check(&s, &t, NULL), OM_EINVAL);
}

/* ---------- Options registry ---------- */

Test(command, options_registry)
{
    om_wm_command_options o = {0};
    size_t n = om_wm_command_option_count(), switches = 0;
    cr_expect_geq(n, 3);
    for (size_t i = 0; i < n; i++) {
        const om_wm_option *opt = om_wm_command_option_at(i);
        cr_assert_not_null(opt);
        cr_expect_eq(om_wm_command_option_find(opt->name), opt);
        cr_expect(opt->question[0] && opt->default_value[0] && opt->section[0]);
        switches += opt->offset != OM_WM_OPTION_FIXED;
    }
    cr_expect_eq(switches, 3);
    cr_expect_null(om_wm_command_option_at(n));
    cr_expect_eq(om_wm_command_option_set(&o, "alternative_blunder", "true"), OM_OK);
    cr_expect(o.alternative_blunder);
    cr_expect_str_eq(om_wm_command_option_value(&o, om_wm_command_option_find("alternative_blunder")),
                     "true");
    cr_expect_eq(om_wm_command_option_set(&o, "command_distance_per_full_20", "true"), OM_OK);
    cr_expect(o.distance_per_full_20);
    cr_expect_eq(om_wm_command_option_set(&o, "general_blunders", "false"), OM_OK);
    cr_expect_str_eq(om_wm_command_option_value(&o, om_wm_command_option_find("general_blunders")),
                     "false");
    cr_expect_eq(om_wm_command_option_set(&o, "no_such_option", "true"), OM_ENOTFOUND);
    cr_expect_eq(om_wm_command_option_set(&o, "evade_blocked", "true"), OM_EINVAL);
    cr_expect_str_eq(om_wm_command_option_value(&o, om_wm_command_option_find("evade_blocked")),
                     "fixed");
    cr_expect_eq(om_wm_command_option_set(&o, "general_blunders", "yes"), OM_EINVAL);
}

/* The penalty for an enemy within 20cm (Command > Command Penalties) is
 * asked of the table only when a bound on the distances says an enemy could
 * be that close; the answer must be the plain one, the closest enemy
 * measured exactly, wherever the enemy stands: swept across the 20cm line
 * square on, at angles, and corner to corner along the diagonal of the
 * units' rectangles (where the bound is tight), with a far enemy too, for a
 * unit alone and for the second unit of a brigade. */
Test(command, enemy_close_penalty_is_the_closest_enemy_measured)
{
    /* Placements: 0-3 square on and at angles, 4-7 corner to corner. */
    const double facings[] = {270, 225, 300, 180, 90, 270, 90, 270};
    unsigned checked = 0, close = 0;
    for (size_t f = 0; f < sizeof facings / sizeof facings[0]; f++)
        for (double gap = 10; gap <= 30; gap += 0.125) {
            om_wm_table t;
            om_wm_command_setup s;
            om_wm_command_test test;
            double cm, x, y;
            setup_init(&s, REV);
            om_wm_table_init(&t, REV, 0, 0);
            unsigned a = add(&t, "A", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 80, 40, 90);
            unsigned b = add(&t, "B", 0, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, 92, 40, 90);
            const double w = om_wm_table_unit_width(&t.unit[b]);
            const double d = om_wm_table_unit_depth(&t.unit[b]);
            const double r = hypot(w, d); /* both radii: the units are alike */
            add(&t, "Far", 1, OM_WM_CAVALRY, 3, OM_WM_TABLE_LINE, 20, 110, 270);
            if (f < 4) {
                x = 92 + gap / 3;
                y = 40 + 2 + gap;
            } else {
                /* Along one diagonal or the other, whichever way the facing
                 * lays the rectangles. */
                const double dx = f < 6 ? w : d, dy = f < 6 ? d : w;
                x = 92 + dx / r * (r + gap);
                y = 40 + dy / r * (r + gap);
            }
            add(&t, "Near", 1, OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, x, y, facings[f]);
            unsigned g = character(&t, "General", 0, OM_WM_GENERAL, 9, 85, 5);
            unsigned pair[2] = {a, b};
            om_wm_table_update(&t, OM_WM_TABLE_ALL);
            const bool expect_b = om_wm_table_closest_enemy(&t, b, &cm) >= 0 &&
                                  cm <= ENEMY_CLOSE + 1e-9;
            const bool expect_a = om_wm_table_closest_enemy(&t, a, &cm) >= 0 &&
                                  cm <= ENEMY_CLOSE + 1e-9;
            om_wm_command_test_for(&s, &t, g, &b, 1, 1, &test);
            cr_assert_eq(test.enemy_close, expect_b, "placement %zu, gap %g: B alone", f, gap);
            om_wm_command_test_for(&s, &t, g, pair, 2, 1, &test);
            cr_assert_eq(test.enemy_close, expect_a || expect_b, "placement %zu, gap %g: brigade",
                         f, gap);
            checked++;
            close += expect_b;
        }
    /* The sweep crosses the line: some placements are close, some are not. */
    cr_assert(close > 0 && close < checked, "%u of %u close", close, checked);
}
