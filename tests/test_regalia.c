/*
 * test_regalia.c: the Generals' devices of power in the Command phase
 * (engine/warmaster/regalia.h; Warmaster Revolution, Magic Items > Devices of
 * Power; the Warmaster 1.1 Rules Update, P77 – Orb of Majesty), each on a
 * hand-built table against its exact law at a fixed seed within 5 standard
 * errors, P(2D6 <= n) = (1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36)/36 for
 * n = 2..12, and each device's state kept on the table from one turn to the
 * next checked trial by trial:
 *
 *   - Crown of Command: the General's first order of each turn against an
 *     unmodified 10 (33/36, whatever the penalties), ceasing to work after an
 *     11 or 12 (the digests' W26), unused where the order already needs 10;
 *   - Helm of Dominion: +1 Command for the first turn whose plans give the
 *     General a charge, once a battle, never at Command 10;
 *   - Orb of Majesty: the General's first failed order re-rolled at Command 8
 *     with the same penalties, once a battle, not where it cannot pass;
 *   - Sceptre of Sovereignty: the first double 6 of any character's order
 *     (a Hero's blunder, the General's own 12) passes instead, once a battle;
 *   - the table check and the list ids a battle plays.
 * Every law checked differs from the law without the device by far more than
 * the tolerance, so that each check fails when the device is taken away.
 * Layouts: x to the right, y up; side 0 faces +y, side 1 faces -y.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "command.h"
#include "regalia.h"
#include "turn.h"
#include "wm.h"
#include "wm_spells.h"
#include "exact_law.h"
#include "turn_builder.h"

#define TRIALS 100000u
#define SIGMAS 5.0

/* P(2D6 <= n). */
static double p2d6(int n)
{
    static const int cum[13] = {0, 0, 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36};
    if (n < 2)
        return 0;
    if (n > 12)
        return 1;
    return cum[n] / 36.0;
}

/* A character of side `side` on the table of t; its index. */
static unsigned character(om_wm_turn *t, const char *name, unsigned side,
                          om_wm_character_kind kind, unsigned command, double x, double y)
{
    int c = om_wm_table_add_character(&t->table, name, side, kind, command, at(x, y));
    cr_assert_geq(c, 0, "add %s", name);
    return (unsigned)c;
}

/* Where the General stands, and the line U stands on. */
#define GENERAL_X 5.0
#define LINE_Y 60.0

/* Revolution, side 0 to move: the General of Command `command` at
 * (GENERAL_X, LINE_Y) carrying `regalia`; unit U (three stands of infantry
 * in line, facing right) with its centre `general_cm` to his right, a
 * distance chosen inside a band of the distance penalties; a far enemy at
 * (170, 112). U's plan: an advance of one order from him to the right.
 * Returns U (unit 0; the far enemy is unit 1); *g the General. */
static unsigned layout(om_wm_turn *t, unsigned command, double general_cm, unsigned regalia,
                       unsigned *g)
{
    turn_begin(t, "warmaster-revolution", OM_WM_INITIATIVE_NEVER);
    const unsigned u =
        turn_unit(t, "U", 0, OM_WM_INFANTRY, 3, 3, 3, 0, GENERAL_X + general_cm, LINE_Y, 0);
    turn_unit(t, "Enemy", 1, OM_WM_INFANTRY, 3, 3, 3, 0, 170, 112, 270);
    *g = character(t, "General", 0, OM_WM_GENERAL, command, GENERAL_X, LINE_Y);
    t->table.character[*g].regalia = (uint8_t)regalia;
    t->command.plan[u] = (om_wm_plan){.kind = OM_WM_PLAN_ADVANCE, .target = -1,
                                      .goal = {175, LINE_Y}, .by = (int8_t)*g, .orders = 1};
    return u;
}

/* An enemy unit within 20cm of U (Command > Command Penalties: -1), beside
 * it, out of its way. */
static void enemy_close(om_wm_turn *t, unsigned u)
{
    turn_unit(t, "Close", 1, OM_WM_INFANTRY, 3, 3, 3, 0, t->table.unit[u].centre.x,
              LINE_Y + 20, 270);
}

/* The table and setup checked as a turn's are. */
static void valid(const om_wm_turn *t)
{
    om_wm_check_failure why;
    memset(&why, 0, sizeof why);
    cr_assert_eq(om_wm_table_check(&t->table, t->rules->id, &why), OM_OK, "table %s: %s",
                 why.field, why.reason);
    cr_assert_eq(om_wm_command_check(&t->command, &t->table, &why), OM_OK, "setup %s: %s",
                 why.field, why.reason);
}

/* One Command phase of t's setup on a copy of `start` into *out. */
static void phase(const om_wm_turn *t, const om_wm_table *start, om_dice *d, om_wm_table *out,
                  om_wm_command_result *r)
{
    *out = *start;
    om_wm_command_phase(&t->command, out, d, r);
}

/* The number U's order needs without a device, as the Command phase works it out. */
static int plain_target(const om_wm_turn *t, unsigned g, unsigned u)
{
    om_wm_command_test test;
    om_wm_command_test_for(&t->command, &t->table, g, &u, 1, 1, &test);
    return test.target;
}

/* ---------- Crown of Command ---------- */

/* W26: the General with the Crown, his first order to a unit 70cm away with
 * an enemy within 20cm, passes on 10 or less (33/36) whatever the penalties
 * (Command 9 less 4 needs 5 without it: 10/36); an 11 or 12 ends the Crown
 * for the rest of the battle, so that the next turn's first order passes with
 * 33/36 if it still works and with the plain law if it ceased. */
Test(regalia, crown_first_order_against_10_until_it_fails)
{
    for (unsigned command = 7; command <= 9; command += 2) {
        om_wm_turn t;
        om_wm_table t1, t2;
        om_wm_command_result r;
        om_dice d;
        unsigned g, passed = 0, ceased = 0, again = 0, after_ceasing = 0;
        const unsigned u = layout(&t, command, 70, OM_WM_REGALIA_CROWN, &g);
        enemy_close(&t, u);
        valid(&t);
        const int plain = plain_target(&t, g, u);
        cr_assert_eq(plain, (int)command - 3 - 1, "70cm: -3, an enemy within 20cm: -1");
        seed(&d, 2900 + command);
        for (unsigned n = 0; n < TRIALS; n++) {
            om_wm_table second;
            phase(&t, &t.table, &d, &t1, &r);
            const bool ok = r.unit[u].orders == 1;
            passed += ok;
            cr_assert_eq(r.regalia, OM_WM_REGALIA_CROWN, "the Crown acted");
            cr_assert_eq(t1.character[g].regalia, ok ? OM_WM_REGALIA_CROWN : 0u,
                         "trial %u: the Crown ceases exactly when the order fails", n);
            ceased += !ok;
            /* The next turn: the same place, the Crown as the first left it. */
            second = t.table;
            second.character[g].regalia = t1.character[g].regalia;
            phase(&t, &second, &d, &t2, &r);
            if (ok)
                again += r.unit[u].orders == 1;
            else
                after_ceasing += r.unit[u].orders == 1;
        }
        expect_p("Crown: first order on 10", passed, TRIALS, 33 / 36.0);
        expect_p("Crown ceases on 11 or 12", ceased, TRIALS, 3 / 36.0);
        expect_p("Crown again next turn", again, passed, 33 / 36.0);
        expect_p("no Crown after it ceased", after_ceasing, ceased, p2d6(plain));
    }
}

/* The Crown acts on the General's first order only: his second order of the
 * phase has its plain law (Command 9, no penalties but the second order's
 * -1: 8, 26/36). */
Test(regalia, crown_first_order_only)
{
    om_wm_turn t;
    om_wm_table t1;
    om_wm_command_result r;
    om_dice d;
    unsigned g, second = 0, first = 0;
    /* U 30cm from him (-1); its first order moves it 20cm farther (-2)... */
    const unsigned u = layout(&t, 9, 30, OM_WM_REGALIA_CROWN, &g);
    t.command.plan[u].orders = 2;
    valid(&t);
    seed(&d, 2911);
    for (unsigned n = 0; n < TRIALS; n++) {
        phase(&t, &t.table, &d, &t1, &r);
        first += r.unit[u].orders >= 1;
        second += r.unit[u].orders == 2;
    }
    /* ...Crown 10, then 9 - 2 - 1 = 6. */
    expect_p("first order on the Crown's 10", first, TRIALS, 33 / 36.0);
    expect_p("second order plain", second, first, p2d6(6));
}

/* An order that already needs 10 gets nothing from the Crown: it is not
 * used, and an 11 or 12 leaves it working. */
Test(regalia, crown_kept_when_it_gives_nothing)
{
    om_wm_turn t;
    om_wm_table t1;
    om_wm_command_result r;
    om_dice d;
    unsigned g, passed = 0;
    const unsigned u = layout(&t, 10, 5, OM_WM_REGALIA_CROWN, &g);
    valid(&t);
    cr_assert_eq(plain_target(&t, g, u), 10);
    seed(&d, 2912);
    for (unsigned n = 0; n < TRIALS / 4; n++) {
        phase(&t, &t.table, &d, &t1, &r);
        passed += r.unit[u].orders == 1;
        cr_assert_eq(r.regalia, 0u);
        cr_assert_eq(t1.character[g].regalia, OM_WM_REGALIA_CROWN);
    }
    expect_p("Command 10", passed, TRIALS / 4, 33 / 36.0);
}

/* ---------- Helm of Dominion ---------- */

/* Command 8, no penalties: an advance (no charge to order) leaves the Helm
 * unused (26/36); a charge declares it, +1 (30/36), once a battle: the next
 * turn's charge has the plain law again. At Command 10 it is never worn. */
Test(regalia, helm_plus_one_for_the_first_charge)
{
    om_wm_turn t;
    om_wm_table t1, t2;
    om_wm_command_result r;
    om_dice d;
    unsigned g, advance = 0, helm = 0, after = 0;
    const unsigned u = layout(&t, 8, 5, OM_WM_REGALIA_HELM, &g);
    valid(&t);
    seed(&d, 2920);
    for (unsigned n = 0; n < TRIALS; n++) {
        phase(&t, &t.table, &d, &t1, &r);
        advance += r.unit[u].orders == 1;
        cr_assert_eq(r.regalia, 0u, "no charge, no Helm");
        cr_assert_eq(t1.character[g].regalia, OM_WM_REGALIA_HELM);
    }
    expect_p("advance, Helm kept", advance, TRIALS, p2d6(8));
    /* A charge at the far enemy: each order moves U toward it. */
    t.command.plan[u] = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE, .target = 1,
                                     .by = (int8_t)g, .orders = 1};
    valid(&t);
    for (unsigned n = 0; n < TRIALS; n++) {
        om_wm_table second = t.table;
        phase(&t, &t.table, &d, &t1, &r);
        helm += r.unit[u].orders == 1;
        cr_assert_eq(r.regalia, OM_WM_REGALIA_HELM);
        cr_assert_eq(t1.character[g].regalia, 0u, "worn once a battle");
        second.character[g].regalia = t1.character[g].regalia;
        phase(&t, &second, &d, &t2, &r);
        cr_assert_eq(r.regalia, 0u);
        after += r.unit[u].orders == 1;
    }
    expect_p("charge with the Helm", helm, TRIALS, p2d6(9));
    expect_p("next turn without it", after, TRIALS, p2d6(8));
    t.table.character[g].command = 10;
    for (unsigned n = 0; n < TRIALS / 10; n++) {
        phase(&t, &t.table, &d, &t1, &r);
        cr_assert_eq(r.regalia, 0u, "Command 10: nothing to gain");
        cr_assert_eq(t1.character[g].regalia, OM_WM_REGALIA_HELM);
    }
}

/* ---------- Orb of Majesty ---------- */

/* Command 8, the unit 30cm away (-1): 7, 21/36. The Orb re-rolls the first
 * failure at Command 8 with the same -1: P = 21/36 + 15/36 x 21/36; it is
 * spent exactly when the first roll failed (15/36), and the next turn has the
 * plain law after it was spent. */
Test(regalia, orb_rerolls_the_first_failure_at_8)
{
    om_wm_turn t;
    om_wm_table t1, t2;
    om_wm_command_result r;
    om_dice d;
    unsigned g, passed = 0, used = 0, after = 0;
    const unsigned u = layout(&t, 8, 30, OM_WM_REGALIA_ORB, &g);
    valid(&t);
    cr_assert_eq(plain_target(&t, g, u), 7);
    seed(&d, 2930);
    for (unsigned n = 0; n < TRIALS; n++) {
        phase(&t, &t.table, &d, &t1, &r);
        passed += r.unit[u].orders == 1;
        cr_assert_eq(r.unit[u].tests, 1, "one test, re-rolled");
        used += (r.regalia & OM_WM_REGALIA_ORB) != 0;
        cr_assert_eq(t1.character[g].regalia,
                     (r.regalia & OM_WM_REGALIA_ORB) ? 0u : OM_WM_REGALIA_ORB);
        if (r.regalia & OM_WM_REGALIA_ORB) {
            om_wm_table second = t.table;
            second.character[g].regalia = 0;
            phase(&t, &second, &d, &t2, &r);
            after += r.unit[u].orders == 1;
        }
    }
    expect_p("Orb: order passes", passed, TRIALS, p2d6(7) + (1 - p2d6(7)) * p2d6(7));
    expect_p("Orb used on the first failure", used, TRIALS, 1 - p2d6(7));
    expect_p("after the Orb", after, used, p2d6(7));
}

/* The Orb's re-roll at Command 8 keeps the penalties: Command 10 less 6
 * (110cm away: -5; an enemy within 20cm: -1) needs 4; the re-roll needs 2
 * (1/36). At 150cm with an enemy close (-7, -1) the re-roll would need 0: the
 * Orb is kept. */
Test(regalia, orb_keeps_the_penalties)
{
    om_wm_turn t;
    om_wm_table t1;
    om_wm_command_result r;
    om_dice d;
    unsigned g, passed = 0;
    unsigned u = layout(&t, 10, 110, OM_WM_REGALIA_ORB, &g);
    enemy_close(&t, u);
    valid(&t);
    cr_assert_eq(plain_target(&t, g, u), 4);
    seed(&d, 2931);
    for (unsigned n = 0; n < TRIALS; n++) {
        phase(&t, &t.table, &d, &t1, &r);
        passed += r.unit[u].orders == 1;
    }
    expect_p("re-roll at 8 - 6", passed, TRIALS, p2d6(4) + (1 - p2d6(4)) * p2d6(2));
    u = layout(&t, 10, 150, OM_WM_REGALIA_ORB, &g);
    enemy_close(&t, u);
    valid(&t);
    cr_assert_eq(plain_target(&t, g, u), 2, "Command 10 - 7 - 1");
    for (unsigned n = 0; n < TRIALS / 10; n++) {
        phase(&t, &t.table, &d, &t1, &r);
        cr_assert_eq(r.regalia & OM_WM_REGALIA_ORB, 0u, "a re-roll needing 0 is not tried");
        cr_assert_eq(t1.character[g].regalia, OM_WM_REGALIA_ORB);
    }
}

/* ---------- Sceptre of Sovereignty ---------- */

/* A Hero of Command 8 orders a unit beside him (26/36); his 12 blunders
 * (1/36). With the Sceptre carried by his General, the first 12 passes
 * instead (27/36) and no blunder happens; once spent (exactly when the Hero
 * rolled 12), the next turn's 12 blunders again. */
Test(regalia, sceptre_pardons_a_heros_blunder)
{
    om_wm_turn t;
    om_wm_table t1, t2;
    om_wm_command_result r;
    om_dice d;
    unsigned g, passed = 0, pardoned = 0, blunders_after = 0;
    const unsigned u = layout(&t, 9, 5, OM_WM_REGALIA_SCEPTRE, &g);
    t.table.character[g].at = at(GENERAL_X, 110);
    const unsigned h =
        character(&t, "Hero", 0, OM_WM_HERO, 8, t.table.unit[u].centre.x, LINE_Y);
    t.command.plan[u].by = (int8_t)h;
    valid(&t);
    seed(&d, 2940);
    for (unsigned n = 0; n < TRIALS; n++) {
        phase(&t, &t.table, &d, &t1, &r);
        passed += r.unit[u].orders == 1;
        cr_assert_eq(r.unit[u].blunder, OM_WM_BLUNDER_NONE, "trial %u: pardoned", n);
        pardoned += (r.regalia & OM_WM_REGALIA_SCEPTRE) != 0;
        cr_assert_eq(t1.character[g].regalia,
                     (r.regalia & OM_WM_REGALIA_SCEPTRE) ? 0u : OM_WM_REGALIA_SCEPTRE);
        if (r.regalia & OM_WM_REGALIA_SCEPTRE) {
            om_wm_table second = t.table;
            cr_assert_eq(r.unit[u].orders, 1, "the pardoned test passes");
            second.character[g].regalia = 0;
            phase(&t, &second, &d, &t2, &r);
            blunders_after += r.unit[u].blunder != OM_WM_BLUNDER_NONE;
        }
    }
    expect_p("Hero's order with the Sceptre", passed, TRIALS, p2d6(8) + 1 / 36.0);
    expect_p("Sceptre spent on the double 6", pardoned, TRIALS, 1 / 36.0);
    expect_p("blunders after it", blunders_after, pardoned, 1 / 36.0);
}

/* The General's own 12 (a failure, or with general_blunders a blunder: A1)
 * passes with his Sceptre: Command 10, no penalties: 34/36 rather than 33/36,
 * so over many phases the rate is checked on a sample large enough. */
Test(regalia, sceptre_pardons_the_generals_own_double_6)
{
    for (unsigned reading = 0; reading < 2; reading++) {
        om_wm_turn t;
        om_wm_table t1;
        om_wm_command_result r;
        om_dice d;
        unsigned g, passed = 0, spent = 0;
        const unsigned n_trials = 4 * TRIALS;
        const unsigned u = layout(&t, 10, 5, OM_WM_REGALIA_SCEPTRE, &g);
        t.command.options.general_blunders = reading == 1;
        valid(&t);
        seed(&d, 2941 + reading);
        for (unsigned n = 0; n < n_trials; n++) {
            phase(&t, &t.table, &d, &t1, &r);
            passed += r.unit[u].orders == 1;
            spent += t1.character[g].regalia == 0;
            cr_assert_eq(r.unit[u].blunder, OM_WM_BLUNDER_NONE);
            if (t1.character[g].regalia == 0)
                cr_assert_eq(r.unit[u].orders, 1);
        }
        expect_p("General's order with the Sceptre", passed, n_trials, 34 / 36.0);
        expect_p("spent on his 12", spent, n_trials, 1 / 36.0);
    }
}

/* ---------- A whole turn, the check, the list ids ---------- */

/* The Crown through whole turns (om_wm_turn_play): the table the turns pass
 * on keeps it working or not. Two turns of side 0 on one table, the unit's
 * plan a single order at 70cm with Command 9: the first turn's order passes
 * with 33/36; in trials where it failed (U halted where it was) the second's
 * has the plain law, 9 - 3 = 6. */
Test(regalia, crown_through_whole_turns)
{
    om_wm_turn t;
    om_wm_turn_work *w = NULL;
    om_wm_turn_result r;
    om_dice d;
    unsigned g, first = 0, ceased = 0, after = 0;
    const unsigned u = layout(&t, 9, 70, OM_WM_REGALIA_CROWN, &g);
    (void)u;
    om_wm_turn_prepared *p = turn_prepare(&t);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 2950);
    for (unsigned n = 0; n < TRIALS / 2; n++) {
        om_wm_turn_begin(p, w);
        om_wm_turn_play(p, &t.command, w, &d, &r);
        first += r.general_orders == 1;
        if (r.general_orders == 0) {
            ceased++;
            cr_assert_eq(om_wm_turn_work_table(w)->character[g].regalia, 0u);
            om_wm_turn_play(p, &t.command, w, &d, &r);
            after += r.general_orders == 1;
        }
    }
    expect_p("first turn with the Crown", first, TRIALS / 2, 33 / 36.0);
    expect_p("second turn, Crown gone", after, ceased, p2d6(9 - 3));
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

/* A device on a character who is not a General, two devices, or an unknown
 * bit: the table check names the field. */
Test(regalia, table_check)
{
    om_wm_turn t;
    om_wm_check_failure why;
    unsigned g;
    layout(&t, 9, 5, OM_WM_REGALIA_ORB, &g);
    const unsigned h = character(&t, "Hero", 0, OM_WM_HERO, 8, 30, 30);
    valid(&t);
    const uint8_t bad_general[] = {OM_WM_REGALIA_ORB | OM_WM_REGALIA_CROWN, 0x10};
    for (unsigned i = 0; i < sizeof bad_general; i++) {
        t.table.character[g].regalia = bad_general[i];
        memset(&why, 0, sizeof why);
        cr_expect_eq(om_wm_table_check(&t.table, t.rules->id, &why), OM_EINVAL);
        cr_expect(strstr(why.field, ".regalia") != NULL, "field %s", why.field);
    }
    t.table.character[g].regalia = 0;
    t.table.character[h].regalia = OM_WM_REGALIA_SCEPTRE;
    memset(&why, 0, sizeof why);
    cr_expect_eq(om_wm_table_check(&t.table, t.rules->id, &why), OM_EINVAL);
    cr_expect(strstr(why.field, ".regalia") != NULL, "field %s", why.field);
}

/* The list ids a battle plays as the Generals' devices, and its other items. */
Test(regalia, items_played_by_id)
{
    cr_expect_eq(om_wm_spells_regalia_of_item("crown-of-command"), OM_WM_REGALIA_CROWN);
    cr_expect_eq(om_wm_spells_regalia_of_item("helm-of-dominion"), OM_WM_REGALIA_HELM);
    cr_expect_eq(om_wm_spells_regalia_of_item("orb-of-majesty"), OM_WM_REGALIA_ORB);
    cr_expect_eq(om_wm_spells_regalia_of_item("sceptre-of-sovereignty"), OM_WM_REGALIA_SCEPTRE);
    cr_expect_eq(om_wm_spells_regalia_of_item("ring-of-magic"), 0u);
    cr_expect(om_wm_spells_character_item_played("orb-of-majesty"));
    cr_expect(om_wm_spells_character_item_played("wand-of-power"));
    cr_expect(!om_wm_spells_character_item_played("sword-of-might"));
    cr_expect_str_eq(om_wm_regalia_name(OM_WM_REGALIA_SCEPTRE), "Sceptre of Sovereignty");
}
