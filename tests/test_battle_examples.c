/*
 * test_battle_examples.c: the rulebooks' worked examples that a whole battle
 * can show, played as battles (engine/warmaster/battle.h,
 * om_wm_battle_resolve) and checked on the battle's own outputs: its result
 * (victory points, units destroyed, stands lost, who withdrew and why) and
 * its event trace (trace.h: each order test with the score it needed and its
 * dice, each shooting's hits and drive back, each withdrawal check with the
 * losses and break point), never by calling again the pure function that
 * engine-level tests already check. Example ids are those of the mechanics
 * digests (W1..W27 for Warmaster Revolution and 1.1, WE-1..WE-40 for Warmaster
 * Ancients); docs/rules-coverage.md ("Worked examples") lists every one with
 * the test that checks it, engine level or battle level, or why no battle can
 * show it. Where the outcome is random, its exact law is checked on fixed
 * seeds within five standard errors; where it is not, exactly, battle by
 * battle.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "battle.h"
#include "battle_builder.h"
#include "game.h"
#include "rng.h"
#include "tmpdir.h"
#include "trace.h"
#include "wm_battle.h"
#include "wm_scenario.h"


/* Room for the events of one of the small battles here (a few hundred). */
#define EVENTS_MAX 8192u

static const om_wm_traits NO_TRAITS;

/* The values of a unit of no special rule. */
typedef struct values {
    om_wm_troop troop;
    unsigned stands, attacks, hits, armour, shots, points;
} values;

/* Knights: 3 stands, Attacks 3, Hits 3, Armour 4+. */
static const values KNIGHTS = {OM_WM_CAVALRY, 3, 3, 3, 4, 0, 50};
/* A weak unit of infantry: 3 stands, Attacks 1, Hits 3, no Armour. */
static const values LEVY = {OM_WM_INFANTRY, 3, 1, 3, 0, 0, 50};
/* Spearmen: 3 stands, Attacks 3, Hits 3, Armour 5+ (a match for Knights). */
static const values SPEARMEN = {OM_WM_INFANTRY, 3, 3, 3, 5, 0, 50};
/* Archers: 3 stands, Attacks 3, shooting Attack 1 at 30cm, Hits 3, no Armour. */
static const values ARCHERS = {OM_WM_INFANTRY, 3, 3, 3, 0, 1, 50};

/* Facings of the two sides: A at small y facing up the table, B facing down. */
#define FACING_A 90.0
#define FACING_B 270.0

/* An empty battle of rule set `ruleset` (battle_builder.h) of one battle
 * turn, side A first. */
static void begin_one_turn(builder *x, const char *ruleset)
{
    begin(x, ruleset);
    x->o.fixed_turns = 1;
    x->o.first = 0;
}

/* A unit of values `v` for side `side`, in line, centred at (px, py) facing
 * its side's way, holding (no plan), shooting the closest enemy. */
static unsigned put(builder *x, unsigned side, const char *name, values v, double px, double py)
{
    om_wm_unit u;
    int i = om_wm_table_add_unit(&x->t.table, x->t.rules->id, name, side, v.troop, v.stands,
                                 OM_WM_TABLE_LINE, (om_wm_vec){px, py},
                                 side == 0 ? FACING_A : FACING_B);
    cr_assert_geq(i, 0, "add %s", name);
    memset(&u, 0, sizeof u);
    snprintf(u.name, sizeof u.name, "%s", name);
    u.troop = v.troop;
    u.stands = u.size = (uint8_t)v.stands;
    u.attacks = (uint8_t)v.attacks;
    u.hits = (uint8_t)v.hits;
    u.armour = (uint8_t)v.armour;
    u.shots = (uint8_t)v.shots;
    u.range_cm = v.shots ? 30 : 0;
    u.pace_cm = (uint8_t)om_wm_troop_pace(v.troop);
    u.traits = NO_TRAITS;
    u.points = (uint16_t)v.points;
    om_wm_side_init(&x->t.unit[i].side, &u);
    x->t.unit[i].shoot = OM_WM_SHOOT_CLOSEST;
    x->t.unit[i].stand_and_shoot = true;
    x->t.table.unit[i].range_cm = u.range_cm;
    return (unsigned)i;
}

/* The plans of unit u's side. */
static om_wm_plan *plan(builder *x, unsigned u)
{
    return x->t.table.unit[u].side == 0 ? &x->t.command.plan[u] : &x->b.plan[u];
}

/* Unit u charges the closest enemy, on initiative when it can. */
static void charges(builder *x, unsigned u)
{
    *plan(x, u) = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE, .target = -1, .by = -1,
                               .initiative = OM_WM_INITIATIVE_CHARGE};
}

/* Unit u advances toward (gx, gy), ordered by character `by`, at most
 * `orders` orders a phase, `priority` its place in the character's orders. */
static void advances(builder *x, unsigned u, unsigned by, double gx, double gy, unsigned orders,
                     unsigned priority)
{
    *plan(x, u) = (om_wm_plan){.kind = OM_WM_PLAN_ADVANCE, .target = -1, .goal = {gx, gy},
                               .by = (int8_t)by, .orders = (uint8_t)orders,
                               .priority = (uint8_t)priority};
}

static unsigned character(builder *x, const char *name, unsigned side,
                          om_wm_character_kind kind, unsigned command, double px, double py)
{
    int c = om_wm_table_add_character(&x->t.table, name, side, kind, command,
                                      (om_wm_vec){px, py});
    cr_assert_geq(c, 0, "add %s", name);
    return (unsigned)c;
}

/* P(2D6 <= n). */
static double p2d6(int n)
{
    static const int cum[13] = {0, 0, 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36};
    return n < 2 ? 0 : n > 12 ? 1 : cum[n] / 36.0;
}

/* A battle played with its events kept in `tr` (emptied first). */
static void traced(const om_wm_battle_prepared *p, om_wm_turn_work *w, om_dice *d,
                   om_wm_trace *tr, om_wm_battle_result *r)
{
    tr->n = tr->dropped = 0;
    om_wm_turn_work_set_trace(w, tr);
    om_wm_battle_resolve(p, w, d, r);
    om_wm_turn_work_set_trace(w, NULL);
    cr_assert_eq(tr->dropped, 0u, "the trace holds the whole battle");
}

/* ------------------------------------------------------------ Command */

/* The order tests of side `side` in battle turn 1, in the order rolled. */
static unsigned orders_of(const om_wm_trace *tr, unsigned side, const om_wm_event **out,
                          unsigned cap)
{
    unsigned n = 0;
    for (size_t i = 0; i < tr->n; i++)
        if (tr->ev[i].kind == OM_WM_EV_ORDER && tr->ev[i].side == side && tr->ev[i].turn == 1 &&
            n < cap)
            out[n++] = &tr->ev[i];
    return n;
}

static bool passed(const om_wm_event *e) { return (e->flags & OM_WM_EVF_PASSED) != 0; }

/*
 * W1 (Warmaster Revolution, The Command Phase > Command Penalties, first
 * example): a General of Command 9 orders infantry 25cm away (-1) that stands
 * in a wood (-1): it needs 7 or less. In a battle: the one order test of the
 * General's turn needs 7, passes exactly when its dice total 7 or less, and
 * passes 21 times in 36.
 *   ####+--U--+####    U in a wood, y 39..41; enemy far away
 *        25cm
 *          G           General at (90,14)
 */
Test(examples, w1_command_penalties_in_a_battle)
{
    builder x;
    om_wm_turn_work *w = NULL;
    om_wm_event *ev = malloc(EVENTS_MAX * sizeof *ev);
    om_wm_trace tr = {.ev = ev, .cap = EVENTS_MAX};
    const unsigned battles = 20000;
    unsigned long pass = 0;
    om_dice d;
    cr_assert_not_null(ev);
    begin_one_turn(&x, "warmaster-revolution");
    unsigned u = put(&x, 0, "Infantry", LEVY, 90, 40);
    put(&x, 1, "Enemy", LEVY, 150, 110);
    cr_assert_geq(om_wm_table_add_rect_terrain(&x.t.table, OM_WM_TERRAIN_WOOD,
                                               (om_wm_vec){80, 35}, (om_wm_vec){100, 45}), 0);
    unsigned g = character(&x, "General", 0, OM_WM_GENERAL, 9, 90, 14);
    advances(&x, u, g, 90, 100, 1, 0);
    om_wm_battle_prepared *p = prepare(&x);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 101);
    for (unsigned n = 0; n < battles; n++) {
        om_wm_battle_result r;
        const om_wm_event *o[4];
        traced(p, w, &d, &tr, &r);
        cr_assert_eq(orders_of(&tr, 0, o, 4), 1u, "one order test");
        cr_assert_eq(o[0]->unit, (int)u);
        cr_assert_eq(o[0]->target, (int)g);
        cr_assert_eq(o[0]->v[0], 1, "the first order");
        cr_assert_eq(o[0]->v[1], 7, "W1: 9 - 1 (25cm) - 1 (wood) = 7");
        cr_assert_eq(passed(o[0]), o[0]->dice[0] + o[0]->dice[1] <= 7);
        pass += passed(o[0]);
    }
    expect_p("W1: the order passes", pass, battles, p2d6(7));
    om_wm_turn_work_free(w);
    om_wm_battle_prepared_free(p);
    free(ev);
}

/*
 * W2 (Warmaster Revolution, Command Penalties, Example) and WE-1, WE-2
 * (Warmaster Ancients, Command Penalties, the same example): a General of
 * Command 9 gives cavalry 65cm away a second order (-1, and -3 for the
 * distance): 5 or less. Then infantry 10cm away, its first order: 9 or less;
 * when the General fails, no one gives another order that phase. In a
 * battle, as test_command's worked_example_w2 sets it (the cavalry's first
 * order at 65cm too: 6 or less; it moves 30cm sideways, staying 60 to 80cm
 * away), with a Hero of Command 8 beside a third unit, the General issuing
 * first: the order tests come in that order with those scores, each passes
 * exactly on its dice, none follows a failed one (the Hero's included), and
 * the frequencies are the products of 2D6 chances.
 *
 *       C ----> (moves along y=72)      C at (90,72)
 *       I                     H  U      I at (90,16); U at (150,20), Hero at (150,10)
 *       G                               General at (90,5)
 */
static void w2_general_failure(const char *ruleset, uint64_t s)
{
    builder x;
    om_wm_turn_work *w = NULL;
    om_wm_event *ev = malloc(EVENTS_MAX * sizeof *ev);
    om_wm_trace tr = {.ev = ev, .cap = EVENTS_MAX};
    const unsigned battles = 20000;
    unsigned long c1 = 0, c2 = 0, itested = 0, ipassed = 0, htested = 0;
    om_dice d;
    cr_assert_not_null(ev);
    begin_one_turn(&x, ruleset);
    unsigned c = put(&x, 0, "Cavalry", KNIGHTS, 90, 72);
    unsigned i = put(&x, 0, "Infantry", LEVY, 90, 16);
    unsigned h = put(&x, 0, "Reserve", LEVY, 150, 20);
    put(&x, 1, "Enemy", LEVY, 160, 110);
    unsigned g = character(&x, "General", 0, OM_WM_GENERAL, 9, 90, 5);
    unsigned hero = character(&x, "Hero", 0, OM_WM_HERO, 8, 150, 10);
    advances(&x, c, g, 170, 72, 2, 0);
    advances(&x, i, g, 40, 16, 1, 1);
    advances(&x, h, hero, 150, 40, 1, 0);
    x.t.command.issue = OM_WM_ISSUE_GENERAL_FIRST;
    om_wm_battle_prepared *p = prepare(&x);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, s);
    for (unsigned n = 0; n < battles; n++) {
        om_wm_battle_result r;
        const om_wm_event *o[8];
        /* What each order test is, in the order the General and then the
         * Hero give them: unit, its order's number, the score it needs. */
        const int want[4][3] = {{(int)c, 1, 6}, {(int)c, 2, 5}, {(int)i, 1, 9}, {(int)h, 1, 8}};
        traced(p, w, &d, &tr, &r);
        unsigned k = orders_of(&tr, 0, o, 8);
        cr_assert_geq(k, 1u);
        cr_assert_leq(k, 4u);
        for (unsigned j = 0; j < k; j++) {
            cr_assert_eq(o[j]->unit, want[j][0], "%s: order test %u", ruleset, j);
            cr_assert_eq(o[j]->v[0], want[j][1], "%s: order test %u's number", ruleset, j);
            cr_assert_eq(o[j]->v[1], want[j][2], "%s: order test %u needs %d", ruleset, j,
                         want[j][2]);
            cr_assert_eq(passed(o[j]), o[j]->dice[0] + o[j]->dice[1] <= o[j]->v[1]);
            cr_assert_eq(o[j]->target, j < 3 ? (int)g : (int)hero);
            if (j + 1 < k)
                cr_assert(passed(o[j]), "%s: an order after the General failed one", ruleset);
        }
        /* A General's failure ends the sub-phase; the Hero only ever
         * orders once. So fewer than four tests means the last failed. */
        if (k < 4)
            cr_assert_not(passed(o[k - 1]), "%s: the orders stopped without a failure",
                          ruleset);
        c1 += k >= 2;
        c2 += k >= 3;
        itested += k >= 3;
        ipassed += k >= 4;
        htested += k >= 4;
    }
    const double pc1 = p2d6(6), pc2 = p2d6(5), pi = p2d6(9);
    expect_p("cavalry's first order passes", c1, battles, pc1);
    expect_p("W2/WE-1: cavalry's second order (5 or less) passes", c2, battles, pc1 * pc2);
    expect_p("infantry tested", itested, battles, pc1 * pc2);
    expect_p("WE-2: infantry's order (9 or less) passes", ipassed, battles, pc1 * pc2 * pi);
    expect_p("the Hero orders only when the General never failed", htested, battles,
             pc1 * pc2 * pi);
    om_wm_turn_work_free(w);
    om_wm_battle_prepared_free(p);
    free(ev);
}

Test(examples, w2_general_failure_ends_the_orders_revolution)
{
    w2_general_failure("warmaster-revolution", 102);
}

Test(examples, we1_we2_general_failure_ends_the_orders_ancients)
{
    w2_general_failure("warmaster-ancients", 103);
}

/*
 * WE-38 (Warmaster Ancients, Orders > Multiple Moves; Warmaster Revolution,
 * The Command Phase, the same sentence): "a cavalry unit that receives three
 * orders could potentially move up to 90cm". In a battle: cavalry ordered
 * straight up the table by its General, up to three orders, the enemy far
 * off. At the end of the battle turn it stands 30cm from where it started
 * for every order it passed, never more than 90cm; each order's score is the
 * same in every battle (the geometry is), and the law of the orders passed is
 * the product of those scores' chances, three orders included.
 */
static void three_orders(const char *ruleset, double enemy_x, uint64_t s)
{
    builder x;
    om_wm_turn_work *w = NULL;
    om_wm_event *ev = malloc(EVENTS_MAX * sizeof *ev);
    om_wm_table end;
    om_wm_trace tr = {.ev = ev, .cap = EVENTS_MAX, .table_at = &end, .table_turn = 1};
    const unsigned battles = 20000;
    unsigned long got[4] = {0};
    int need[3] = {0, 0, 0};
    om_dice d;
    cr_assert_not_null(ev);
    begin_one_turn(&x, ruleset);
    unsigned c = put(&x, 0, "Cavalry", KNIGHTS, 100, 12);
    put(&x, 1, "Enemy", LEVY, enemy_x, 112);
    unsigned g = character(&x, "General", 0, OM_WM_GENERAL, 10, 100, 8);
    advances(&x, c, g, 100, 118, 3, 0);
    om_wm_battle_prepared *p = prepare(&x);
    const om_wm_vec start = om_wm_battle_turn(p)->table.unit[c].centre;
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, s);
    for (unsigned n = 0; n < battles; n++) {
        om_wm_battle_result r;
        const om_wm_event *o[4];
        unsigned k = 0, tests;
        traced(p, w, &d, &tr, &r);
        tests = orders_of(&tr, 0, o, 4);
        cr_assert_geq(tests, 1u);
        cr_assert_leq(tests, 3u, "at most three orders");
        for (unsigned j = 0; j < tests; j++) {
            cr_assert_eq(o[j]->v[0], (int)j + 1);
            if (need[j] == 0)
                need[j] = o[j]->v[1];
            cr_assert_eq(o[j]->v[1], need[j], "order %u needs the same score every battle", j);
            k += passed(o[j]);
        }
        cr_assert(k == tests || !passed(o[tests - 1]));
        const om_wm_vec at = end.unit[c].centre;
        const double moved = hypot(at.x - start.x, at.y - start.y);
        cr_assert_float_eq(moved, 30.0 * k, 1e-6, "%s: %u orders, moved %.3fcm", ruleset, k,
                           moved);
        cr_assert_leq(moved, 90.0 + 1e-6);
        got[k]++;
    }
    cr_assert(need[2] > 0, "a third order was tried");
    const double q1 = p2d6(need[0]), q2 = p2d6(need[1]), q3 = p2d6(need[2]);
    expect_p("no order", got[0], battles, 1 - q1);
    expect_p("one order (30cm)", got[1], battles, q1 * (1 - q2));
    expect_p("two orders (60cm)", got[2], battles, q1 * q2 * (1 - q3));
    expect_p("three orders (90cm)", got[3], battles, q1 * q2 * q3);
    om_wm_turn_work_free(w);
    om_wm_battle_prepared_free(p);
    free(ev);
}

Test(examples, we38_cavalry_three_orders_90cm_ancients) { three_orders("warmaster-ancients", 230, 104); }

Test(examples, cavalry_three_orders_90cm_revolution) { three_orders("warmaster-revolution", 170, 105); }

/*
 * WE-35 (Warmaster Ancients, Commanders > Blunders: a Subordinate adds 1 to
 * the blunder die, so a 6 becomes 7, "The gods are with us!"). In a battle an
 * Ancients Subordinate of Command 8 orders one unit once a turn: an order
 * test blunders exactly when its dice are a double 6 (1 in 36), each blunder
 * is followed by its record, whose die runs 2 to 7, never the 1 of "The gods
 * forbid!", and whose result is, a third each, the fall back of 2-3, the half
 * pace of 4-5 and the charge of 6-7.
 */
Test(examples, we35_subordinate_blunders_in_a_battle)
{
    builder x;
    om_wm_turn_work *w = NULL;
    om_wm_event *ev = malloc(EVENTS_MAX * sizeof *ev);
    om_wm_trace tr = {.ev = ev, .cap = EVENTS_MAX};
    const unsigned battles = 40000;
    unsigned long tests = 0, blunders = 0, result[OM_WM_BLUNDER_COUNT] = {0}, sevens = 0;
    om_dice d;
    cr_assert_not_null(ev);
    begin_one_turn(&x, "warmaster-ancients");
    unsigned u = put(&x, 0, "Warriors", LEVY, 90, 20);
    put(&x, 1, "Enemy", LEVY, 200, 110);
    unsigned sub = character(&x, "Subordinate", 0, OM_WM_WIZARD, 8, 90, 10);
    advances(&x, u, sub, 90, 40, 1, 0);
    om_wm_battle_prepared *p = prepare(&x);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 128);
    for (unsigned n = 0; n < battles; n++) {
        om_wm_battle_result r;
        traced(p, w, &d, &tr, &r);
        for (size_t i = 0; i < tr.n; i++) {
            const om_wm_event *e = &tr.ev[i];
            if (e->kind != OM_WM_EV_ORDER)
                continue;
            const bool twelve = e->dice[0] == 6 && e->dice[1] == 6;
            tests++;
            cr_assert_eq((e->flags & OM_WM_EVF_BLUNDER) != 0, twelve, "dice %u and %u",
                         e->dice[0], e->dice[1]);
            if (!twelve)
                continue;
            cr_assert_lt(i + 1, tr.n);
            const om_wm_event *b = &tr.ev[i + 1];
            cr_assert_eq(b->kind, OM_WM_EV_BLUNDER, "a blunder's record follows its order");
            cr_assert_eq(b->unit, (int)u);
            cr_assert(b->dice[0] >= 2 && b->dice[0] <= 7, "a Subordinate's die %u",
                      b->dice[0]);
            cr_assert(b->v[0] > OM_WM_BLUNDER_NONE && b->v[0] < OM_WM_BLUNDER_COUNT);
            if (b->dice[0] == 7)
                cr_assert_eq(b->v[0], OM_WM_BLUNDER_CHARGE, "7: The gods are with us!");
            result[b->v[0]]++;
            sevens += b->dice[0] == 7;
            blunders++;
        }
    }
    expect_p("an order test blunders on a double 6", blunders, tests, 1 / 36.0);
    expect_p("never The gods forbid!", result[OM_WM_BLUNDER_HALT], blunders, 0.0);
    expect_p("2-3: fall back", result[OM_WM_BLUNDER_FALL_BACK], blunders, 2 / 6.0);
    expect_p("4-5: half pace", result[OM_WM_BLUNDER_HALF_PACE], blunders, 2 / 6.0);
    expect_p("6-7: The gods are with us!", result[OM_WM_BLUNDER_CHARGE], blunders, 2 / 6.0);
    expect_p("a die of 7 (a 6 and the Subordinate's 1)", sevens, blunders, 1 / 6.0);
    om_wm_turn_work_free(w);
    om_wm_battle_prepared_free(p);
    free(ev);
}

/* ------------------------------------------------------------ victory points */

/* Victory points a unit of `points` and 3 stands gives up (the rule as the
 * examples state it): destroyed, all of them; reduced to 1 stand, half
 * rounded up to the next 5; otherwise none. */
static unsigned vp_given(unsigned points, unsigned lost, bool destroyed)
{
    if (destroyed)
        return points;
    return lost == 2 ? (points + 9) / 10 * 5 : 0;
}

/*
 * W23 (Warmaster Revolution, End of the Battle > Victory Points: a 110-point
 * unit reduced from 3 stands to 1 gives 55, a 65-point one 35) and WE-32
 * (Warmaster Ancients, Victory Points, rule 2: 115, 125, 75 and 35 points
 * give 60, 65, 40 and 20). In a battle of one turn, four units of archers
 * shoot one unit of cavalry of those points (no Armour; its pace of 30cm
 * makes a rout rarer than the loss of two stands); the victory points side A
 * scored are, battle by battle, those of the cavalry's fate, and enough
 * battles leave it at one stand, or destroy it, for each value to be seen.
 */
static void half_points(const char *ruleset, unsigned points, unsigned half, uint64_t s)
{
    builder x;
    om_wm_turn_work *w = NULL;
    const unsigned battles = 4000;
    unsigned long reduced = 0, destroyed = 0;
    om_dice d;
    const values target = {.troop = OM_WM_CAVALRY, .stands = 3, .attacks = 1, .hits = 3,
                           .armour = 0, .shots = 0, .points = points};
    begin_one_turn(&x, ruleset);
    unsigned t = put(&x, 1, "Target", target, 90, 60);
    for (unsigned i = 0; i < 4; i++)
        put(&x, 0, "Archers", ARCHERS, 69 + 14.0 * i, 42);
    cr_assert_eq(vp_given(points, 2, false), half, "the example's own value");
    om_wm_battle_prepared *p = prepare(&x);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, s);
    for (unsigned n = 0; n < battles; n++) {
        om_wm_battle_result r;
        om_wm_battle_resolve(p, w, &d, &r);
        cr_assert_eq(r.vp[0], vp_given(points, r.stands_lost[t], r.destroyed[t]),
                     "%u points, %u stands lost, destroyed %u", points, r.stands_lost[t],
                     r.destroyed[t]);
        cr_assert_eq(r.vp[1], 0u, "the archers lose nothing");
        reduced += !r.destroyed[t] && r.stands_lost[t] == 2;
        destroyed += r.destroyed[t];
    }
    cr_expect_gt(reduced, battles / 20, "%u points: battles leaving it at one stand", points);
    cr_expect_gt(destroyed, battles / 20, "%u points: battles destroying it", points);
    om_wm_turn_work_free(w);
    om_wm_battle_prepared_free(p);
}

Test(examples, w23_half_victory_points_revolution)
{
    half_points("warmaster-revolution", 110, 55, 106);
    half_points("warmaster-revolution", 65, 35, 107);
}

Test(examples, we32_half_victory_points_ancients)
{
    half_points("warmaster-ancients", 115, 60, 108);
    half_points("warmaster-ancients", 125, 65, 109);
    half_points("warmaster-ancients", 75, 40, 110);
    half_points("warmaster-ancients", 35, 20, 111);
}

/* ------------------------------------------------------------ break point */

/* Pairs of Knights and Spearmen fighting, one pair every PAIR_CM across the
 * table; the rest of each army stands far back, holding. */
#define PAIRS 9u

/*
 * An army's break point in a battle: side A has PAIRS Knights charging as
 * many Spearmen of side B, B has `b_reserve` more units far back, A enough to
 * make 15. Every battle's withdrawals are checked exactly against the losses
 * the battle reports: an army withdraws if and only if its losses, in half
 * units, reach `break_halves` (a destroyed unit 2; a unit reduced from 3
 * stands to 1 one where `half_units`, else 0), and a battle in which no army
 * withdrew ends for its length. The trace's withdrawal checks state that break
 * point and those losses. The cases that show the rule are counted: losses
 * less than a whole unit short of the break point with no withdrawal (so
 * half of 15 units is not rounded down, and Pyrrhus's army stands at 8
 * lost), and (with
 * `half_units`) a withdrawal with fewer whole units destroyed than the break
 * point, reached through a half unit.
 */
static void break_point(const char *ruleset, double pair_cm, unsigned b_reserve,
                        unsigned extra, unsigned break_halves, bool half_units, uint64_t s)
{
    builder x;
    om_wm_turn_work *w = NULL;
    om_wm_event *ev = malloc(EVENTS_MAX * sizeof *ev);
    om_wm_trace tr = {.ev = ev, .cap = EVENTS_MAX};
    const unsigned battles = 3000, traced_battles = 300;
    unsigned long withdrew = 0, short_of_it = 0, by_halves = 0, checks = 0;
    om_dice d;
    cr_assert_not_null(ev);
    begin_one_turn(&x, ruleset);
    for (unsigned i = 0; i < PAIRS; i++) {
        unsigned k = put(&x, 0, "Knights", KNIGHTS, pair_cm * (i + 0.5), 50);
        put(&x, 1, "Spearmen", SPEARMEN, pair_cm * (i + 0.5), 60);
        charges(&x, k);
    }
    for (unsigned i = 0; i < b_reserve; i++)
        put(&x, 1, "Reserve", LEVY, pair_cm * (i + 0.5), 112);
    for (unsigned i = 0; i + PAIRS < 15; i++)
        put(&x, 0, "Reserve", LEVY, pair_cm * (i + 0.5), 8);
    x.o.fixed_turns = 4;
    x.o.break_extra[1] = (uint8_t)extra;
    om_wm_battle_prepared *p = prepare(&x);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, s);
    for (unsigned n = 0; n < battles; n++) {
        om_wm_battle_result r;
        unsigned halves[2] = {0, 0}, whole[2] = {0, 0};
        if (n < traced_battles)
            traced(p, w, &d, &tr, &r);
        else
            om_wm_battle_resolve(p, w, &d, &r);
        for (unsigned u = 0; u < x.t.table.units; u++) {
            const unsigned side = x.t.table.unit[u].side;
            halves[side] += r.destroyed[u] ? 2u : (half_units && r.stands_lost[u] == 2);
            whole[side] += r.destroyed[u];
        }
        const unsigned brk[2] = {16, break_halves};
        for (unsigned side = 0; side < 2; side++)
            cr_assert_eq(r.withdrew[side], halves[side] >= brk[side],
                         "%s, side %u: losses of %u half units against a break point of %u, "
                         "withdrew %u", ruleset, side, halves[side], brk[side], r.withdrew[side]);
        cr_assert_eq(r.end, r.withdrew[0] || r.withdrew[1] ? OM_WM_END_BREAK : OM_WM_END_LENGTH);
        withdrew += r.withdrew[1];
        short_of_it += !r.withdrew[1] && halves[1] + 2 >= break_halves;
        by_halves += r.withdrew[1] && 2 * whole[1] < break_halves;
        for (size_t i = 0; n < traced_battles && i < tr.n; i++) {
            const om_wm_event *e = &tr.ev[i];
            if (e->kind != OM_WM_EV_WITHDRAWAL)
                continue;
            checks++;
            cr_assert_eq(e->v[1], (int)brk[e->side], "the break point the battle checks");
            cr_assert_eq((e->flags & OM_WM_EVF_WITHDRAWS) != 0, e->v[0] >= e->v[1]);
        }
    }
    cr_expect_gt(checks, 0u);
    cr_expect_gt(withdrew, battles / 20, "%s: battles in which B withdrew", ruleset);
    cr_expect_gt(short_of_it, 0u, "%s: losses half a unit short, no withdrawal", ruleset);
    if (half_units)
        cr_expect_gt(by_halves, 0u, "%s: a withdrawal reached through a half unit", ruleset);
    else
        cr_expect_eq(by_halves, 0u);
    om_wm_turn_work_free(w);
    om_wm_battle_prepared_free(p);
    free(ev);
}

/* W24 (Warmaster Revolution, Withdraw > Casualties): an army of 15 units
 * withdraws at 8 lost (16 half units), a unit reduced from 3 stands to 1
 * counting half; one of 14 at 7. */
Test(examples, w24_break_point_15_units, .timeout = 300)
{
    break_point("warmaster-revolution", 20, 15 - PAIRS, 0, 16, true, 112);
}

Test(examples, w24_break_point_14_units, .timeout = 300)
{
    break_point("warmaster-revolution", 20, 14 - PAIRS, 0, 14, true, 113);
}

/* WE-26 (Warmaster Ancients, Army Lists > The Successors, note 8, and End of
 * the Battle): an army of 16 units withdraws at 8 destroyed, with Pyrrhus as
 * its General at 9; Ancients counts destroyed units only, so a unit reduced
 * to one stand counts nothing. */
Test(examples, we26_break_point_16_units, .timeout = 300)
{
    break_point("warmaster-ancients", 26, 16 - PAIRS, 0, 16, false, 114);
}

Test(examples, we26_break_point_with_pyrrhus, .timeout = 300)
{
    break_point("warmaster-ancients", 26, 16 - PAIRS, 1, 18, false, 115);
}

/* ------------------------------------------------------------ shooting */

/*
 * W3 (Warmaster Revolution, Shooting > How to Calculate Casualties: 3 stands
 * of shooting Attack 1 roll 3 dice, 4+ hits) and WE-4 (Warmaster Ancients,
 * the same), W4 and WE-5 (Shooting > Armour: Armour 4+ saves half the hits,
 * 5+ a third) and WE-36 (Diagram 54: a 3-Hits unit taking 6 hits loses 2
 * stands). In a battle one unit of archers shoots a unit in the open: the
 * hits the trace records for its Shooting phase follow Binomial(3, p) with p
 * = 1/2 less its save (Armour 0: 1/2; 5+: 1/3; 4+: 1/4), and the stands
 * removed are its hits divided by 3, rounded down.
 */
static void shooting_hits(const char *ruleset, unsigned armour, uint64_t s)
{
    builder x;
    om_wm_turn_work *w = NULL;
    om_wm_event *ev = malloc(EVENTS_MAX * sizeof *ev);
    om_wm_trace tr = {.ev = ev, .cap = EVENTS_MAX};
    const unsigned battles = 12000;
    unsigned long law[4] = {0}, results = 0;
    om_dice d;
    values target = LEVY;
    target.armour = armour;
    cr_assert_not_null(ev);
    begin_one_turn(&x, ruleset);
    unsigned t = put(&x, 1, "Target", target, 90, 60);
    put(&x, 0, "Archers", ARCHERS, 90, 42);
    om_wm_battle_prepared *p = prepare(&x);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, s);
    for (unsigned n = 0; n < battles; n++) {
        om_wm_battle_result r;
        traced(p, w, &d, &tr, &r);
        for (size_t i = 0; i < tr.n; i++) {
            const om_wm_event *e = &tr.ev[i];
            if (e->kind != OM_WM_EV_SHOT_RESULT || e->unit != (int)t)
                continue;
            cr_assert_leq(e->v[0], 3, "three dice hit at most three times");
            if ((e->flags & OM_WM_EVF_DESTROYED) == 0)
                cr_assert_eq(e->v[1], e->v[0] / 3, "stands removed by %d hits", e->v[0]);
            law[e->v[0]]++;
            results++;
        }
    }
    const double p1 = 0.5 * (armour ? (armour - 1) / 6.0 : 1.0);
    const double binom[4] = {(1 - p1) * (1 - p1) * (1 - p1), 3 * p1 * (1 - p1) * (1 - p1),
                             3 * p1 * p1 * (1 - p1), p1 * p1 * p1};
    cr_expect_gt(results, battles / 2, "the archers shoot");
    for (unsigned h = 0; h <= 3; h++) {
        char what[80];
        snprintf(what, sizeof what, "Armour %u: %u hits of 3 dice", armour, h);
        expect_p(what, law[h], results, binom[h]);
    }
    om_wm_turn_work_free(w);
    om_wm_battle_prepared_free(p);
    free(ev);
}

Test(examples, w3_w4_shooting_hits_and_saves_revolution)
{
    shooting_hits("warmaster-revolution", 0, 120);
    shooting_hits("warmaster-revolution", 4, 121);
}

Test(examples, we4_we5_shooting_hits_and_saves_ancients)
{
    shooting_hits("warmaster-ancients", 0, 122);
    shooting_hits("warmaster-ancients", 5, 123);
}

/* ------------------------------------------------------------ drive backs */

/* P(the sum of h D6 is at least `at_least`), exactly. */
static double p_sum_at_least(unsigned h, unsigned at_least)
{
    double law[6 * 12 + 1] = {1.0};
    double p = 0;
    cr_assert_leq(h, 12u);
    for (unsigned k = 0; k < h; k++) {
        double next[6 * 12 + 1] = {0};
        for (unsigned s = 0; s <= 6 * k; s++)
            for (unsigned f = 1; f <= 6; f++)
                next[s + f] += law[s] / 6;
        memcpy(law, next, sizeof law);
    }
    for (unsigned s = at_least; s <= 6 * h; s++)
        p += law[s];
    return p;
}

/* Most hits the drive-back law is checked for. */
#define HITS_MAX 12u

/* What the Shooting phase did to one target, by its hits. */
typedef struct shot_counts {
    unsigned long n[HITS_MAX + 1];        /* results with that many hits */
    unsigned long routed[HITS_MAX + 1];   /* of those, destroyed with stands left */
    unsigned long confused[HITS_MAX + 1]; /* of those, confused */
    unsigned long cm[HITS_MAX + 1][6 * HITS_MAX + 1]; /* of those, driven back k cm */
} shot_counts;

/*
 * W5 (Warmaster Revolution, Shooting > Driving Back Enemies: 2 hits, dice 3
 * and 4, driven back 7cm, no 6 so not confused), WE-6 and WE-37 (Warmaster
 * Ancients, the same example; the Indian archery caption: 6cm, below full
 * pace, confused only on a 6) and WE-10 (Warmaster Ancients, Units routed by
 * drive backs: infantry of full pace 20cm driven back 21cm is routed and
 * destroyed). In a battle, archers shoot one unit of infantry in the open
 * with nothing behind it; each Shooting phase's result in the trace gives its
 * hits, stands removed, drive back and confusion. By the hits h suffered
 * (fewer than remove the whole unit): a unit left standing was never driven
 * back beyond its pace (20cm); the chance it is destroyed is P(h D6 >= 21);
 * with one hit the drive back is one die, uniform, and confuses exactly on a
 * 6; with two, 7cm (the example's 3 and 4) comes 6 times in 36 and
 * confusion (any 6) 11 times in 36.
 */
static void drive_backs(const char *ruleset, unsigned shooters, uint64_t s, shot_counts *c)
{
    builder x;
    om_wm_turn_work *w = NULL;
    om_wm_event *ev = malloc(EVENTS_MAX * sizeof *ev);
    om_wm_trace tr = {.ev = ev, .cap = EVENTS_MAX};
    const unsigned battles = 12000;
    om_dice d;
    cr_assert_not_null(ev);
    begin_one_turn(&x, ruleset);
    unsigned t = put(&x, 1, "Target", LEVY, 90, 60);
    for (unsigned i = 0; i < shooters; i++)
        put(&x, 0, "Archers", ARCHERS, 90 + 14.0 * i - 7.0 * (shooters - 1), 42);
    om_wm_battle_prepared *p = prepare(&x);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, s);
    for (unsigned n = 0; n < battles; n++) {
        om_wm_battle_result r;
        unsigned results = 0;
        traced(p, w, &d, &tr, &r);
        for (size_t i = 0; i < tr.n; i++) {
            const om_wm_event *e = &tr.ev[i];
            if (e->kind != OM_WM_EV_SHOT_RESULT || e->unit != (int)t)
                continue;
            const unsigned h = (unsigned)e->v[0], gone = (e->flags & OM_WM_EVF_DESTROYED) != 0;
            results++;
            cr_assert_leq(h, HITS_MAX);
            if (h / LEVY.hits >= LEVY.stands)
                continue; /* destroyed by its hits alone */
            c->n[h]++;
            c->routed[h] += gone;
            if (gone)
                continue;
            cr_assert_leq(e->v[2], 20, "WE-10: left standing after a drive back of %dcm",
                          e->v[2]);
            cr_assert_eq(e->v[1], (int)(h / LEVY.hits), "stands removed by %u hits", h);
            c->cm[h][e->v[2]]++;
            c->confused[h] += (e->flags & OM_WM_EVF_CONFUSED) != 0;
            if (h == 1)
                cr_assert_eq((e->flags & OM_WM_EVF_CONFUSED) != 0, e->v[2] == 6,
                             "one die of %d: confused only on a 6", e->v[2]);
        }
        cr_assert_leq(results, 1u, "one Shooting phase at the target");
    }
    om_wm_turn_work_free(w);
    om_wm_battle_prepared_free(p);
    free(ev);
}

static void drive_back_laws(const char *ruleset, uint64_t s)
{
    shot_counts *c = calloc(1, sizeof *c);
    cr_assert_not_null(c);
    drive_backs(ruleset, 1, s, c);
    drive_backs(ruleset, 4, s + 1, c);
    for (unsigned f = 1; f <= 6; f++)
        expect_p("one hit: each distance 1..6", c->cm[1][f], c->n[1] - c->routed[1], 1 / 6.0);
    expect_p("W5: two hits, 7cm", c->cm[2][7], c->n[2] - c->routed[2], 6 / 36.0);
    expect_p("W5: two hits, confused (a 6 among two dice)", c->confused[2],
             c->n[2] - c->routed[2], 11 / 36.0);
    for (unsigned h = 1; h <= 8; h++) {
        char what[64];
        if (c->n[h] < 200)
            continue;
        snprintf(what, sizeof what, "WE-10: %u hits rout (%u D6 of 21 or more)", h, h);
        expect_p(what, c->routed[h], c->n[h], p_sum_at_least(h, 21));
    }
    cr_expect_gt(c->n[1], 1000u);
    cr_expect_gt(c->n[2], 1000u);
    cr_expect_gt(c->routed[6] + c->routed[7] + c->routed[8], 500u, "routs seen");
    free(c);
}

Test(examples, w5_drive_backs_and_routs_revolution, .timeout = 300)
{
    drive_back_laws("warmaster-revolution", 116);
}

Test(examples, we6_we10_we37_drive_backs_ancients, .timeout = 300)
{
    drive_back_laws("warmaster-ancients", 118);
}

/*
 * W6 (Warmaster Revolution, Shooting > Driving Back Enemies: a defended
 * target's first hit, a fortified one's first two, roll no drive-back die)
 * and WE-7, WE-8 (Warmaster Ancients, the same), with the scores to hit of
 * Shooting > Scores to Hit (defended 5+, fortified 6+). In a battle, four
 * units of archers (12 dice) shoot infantry declared defended or fortified
 * (behind a hedge, on a wall): its hits follow Binomial(12, p), p 1/3 or
 * 1/6; with no more hits than the discount it is neither driven back nor
 * confused; with one more, one die: uniform, confusing exactly on a 6; with
 * two more, two dice: 7cm 6 times in 36.
 */
static void drive_backs_in_cover(const char *ruleset, om_wm_position pos, uint64_t s)
{
    builder x;
    om_wm_turn_work *w = NULL;
    om_wm_event *ev = malloc(EVENTS_MAX * sizeof *ev);
    om_wm_trace tr = {.ev = ev, .cap = EVENTS_MAX};
    const unsigned battles = 12000, discount = pos == OM_WM_FORTIFIED ? 2 : 1;
    const double p = pos == OM_WM_FORTIFIED ? 1 / 6.0 : 1 / 3.0;
    unsigned long law[HITS_MAX + 1] = {0}, results = 0, one_die[7] = {0}, ones = 0;
    unsigned long twos = 0, seven = 0;
    om_dice d;
    cr_assert_not_null(ev);
    begin_one_turn(&x, ruleset);
    unsigned t = put(&x, 1, "Target", LEVY, 90, 60);
    x.t.table.unit[t].position = pos;
    for (unsigned i = 0; i < 4; i++)
        put(&x, 0, "Archers", ARCHERS, 69 + 14.0 * i, 42);
    om_wm_battle_prepared *prep = prepare(&x);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, s);
    for (unsigned n = 0; n < battles; n++) {
        om_wm_battle_result r;
        traced(prep, w, &d, &tr, &r);
        for (size_t i = 0; i < tr.n; i++) {
            const om_wm_event *e = &tr.ev[i];
            if (e->kind != OM_WM_EV_SHOT_RESULT || e->unit != (int)t)
                continue;
            const unsigned h = (unsigned)e->v[0];
            const bool confused = (e->flags & OM_WM_EVF_CONFUSED) != 0;
            cr_assert_leq(h, HITS_MAX);
            law[h]++;
            results++;
            if (e->flags & OM_WM_EVF_DESTROYED)
                continue;
            if (h <= discount) {
                cr_assert_eq(e->v[2], 0, "%u hits on a target in cover: no drive back", h);
                cr_assert_not(confused);
            } else if (h == discount + 1) {
                cr_assert(e->v[2] >= 1 && e->v[2] <= 6);
                cr_assert_eq(confused, e->v[2] == 6, "one die of %d", e->v[2]);
                one_die[e->v[2]]++;
                ones++;
            } else if (h == discount + 2) {
                cr_assert(e->v[2] >= 2 && e->v[2] <= 12);
                seven += e->v[2] == 7;
                twos++;
            }
        }
    }
    cr_expect_gt(results, battles / 2, "the archers shoot");
    for (unsigned h = 0; h <= 4; h++) {
        char what[80];
        double q = 1;
        for (unsigned k = 0; k < h; k++)
            q *= (double)(12 - k) / (k + 1) * p;
        q *= pow(1 - p, 12 - h);
        snprintf(what, sizeof what, "%s: %u hits of 12 dice", om_wm_position_names[pos], h);
        expect_p(what, law[h], results, q);
    }
    for (unsigned f = 1; f <= 6; f++)
        expect_p("one drive-back die: each distance", one_die[f], ones, 1 / 6.0);
    expect_p("two drive-back dice: 7cm", seven, twos, 6 / 36.0);
    om_wm_turn_work_free(w);
    om_wm_battle_prepared_free(prep);
    free(ev);
}

Test(examples, w6_drive_backs_in_cover_revolution, .timeout = 300)
{
    drive_backs_in_cover("warmaster-revolution", OM_WM_DEFENDED, 124);
    drive_backs_in_cover("warmaster-revolution", OM_WM_FORTIFIED, 125);
}

Test(examples, we7_we8_drive_backs_in_cover_ancients, .timeout = 300)
{
    drive_backs_in_cover("warmaster-ancients", OM_WM_DEFENDED, 126);
    drive_backs_in_cover("warmaster-ancients", OM_WM_FORTIFIED, 127);
}

/* ------------------------------------------------------------ deployment */

/*
 * WE-33 (Warmaster Ancients, The Battlefield > Deployment): armies deploy
 * "at least 90cm apart", no closer than 45cm to the middle of the table; on a
 * table 120cm deep that leaves 15cm to deploy into. A battle's line of
 * battle on the Ancients table: each side's front edge 45cm from the middle,
 * so 15cm from its own edge (the rule set's deploy_apart_cm).
 */
Test(examples, we33_ancients_deployment_depth)
{
    builder x;
    om_wm_unit v[4];
    om_wm_check_failure why;
    unsigned first;
    begin_one_turn(&x, "warmaster-ancients");
    for (unsigned i = 0; i < 4; i++) {
        memset(&v[i], 0, sizeof v[i]);
        snprintf(v[i].name, sizeof v[i].name, "Unit %u", i);
        v[i].troop = OM_WM_INFANTRY;
        v[i].stands = v[i].size = 3;
        v[i].attacks = v[i].hits = 3;
        v[i].pace_cm = 20;
        v[i].points = 50;
    }
    for (unsigned side = 0; side < 2; side++) {
        memset(&why, 0, sizeof why);
        cr_assert_eq(om_wm_battle_deploy_line(&x.t, side, v, 4, 0, &why, &first), OM_OK,
                     "%s: %s", why.field, why.reason);
    }
    const double depth = x.t.table.depth_cm;
    cr_assert_float_eq(depth, 120.0, 1e-9, "the Ancients table is 120cm deep");
    double front[2] = {-1, -1};
    for (unsigned u = 0; u < x.t.table.units; u++) {
        const om_wm_table_unit *tu = &x.t.table.unit[u];
        /* The front edge: the centre moved half a stand's depth forward. */
        const double y = tu->centre.y + tu->dir.y * tu->stand_d / 2;
        const double from_edge = tu->side == 0 ? y : depth - y;
        if (front[tu->side] < 0 || from_edge > front[tu->side])
            front[tu->side] = from_edge;
    }
    for (unsigned side = 0; side < 2; side++)
        cr_expect_float_eq(front[side], 15.0, 1e-6,
                           "side %u: front line %.2fcm from its edge, 15 expected (90cm apart)",
                           side, front[side]);
    cr_expect_float_eq(depth - front[0] - front[1], 90.0, 1e-6, "the armies 90cm apart");
}
