/*
 * test_whfb7_combat.c: the first round of close combat of the WHFB 7th
 * edition engine, its combat result, break test, flee and pursue (WHFB 7th
 * edition, Close Combat), against exact values.
 *
 * The exact values come from an enumeration written here from the rules,
 * independently of the engine: the first striker's kills are Binomial(its
 * fighters, p), the second striker fights with its fighters less those
 * killed, the combat result adds ranks counted at the start, outnumbering
 * after the blows and the standard; the loser breaks on 2D6 + difference >
 * Ld unless a double 1; a pursuer catches on a pursuit roll at least the flee
 * roll. Monte Carlo runs in both dice modes at 5 standard errors. The
 * digest's worked examples (E ids, each with its rulebook section) are
 * checked as per-trial identities.
 */
#include "test_whfb7.h"

/* Swordsmen with hand weapon, shield and light armour charge Orc Boyz with
 * hand weapons and no armour: two ranks of five each. */
static om_wh7_combat swordsmen_charge_orcs(void)
{
    om_wh7_side a = side_of(unit_of(OM_WH7_INFANTRY, SWORDSMAN, 10, 5));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, ORC_BOY, 10, 5));
    a.unit.equipment.shield = true;
    a.unit.equipment.armour = OM_WH7_ARMOUR_LIGHT;
    a.charging = true;
    return combat_of(OM_WH7_KIND_COMBAT, a, b);
}

static void swordsmen_orcs_exact(ex_unit u[2])
{
    /* Swordsmen WS4 vs WS3: 3+; S3 vs T4: 5+; no armour: 4/6 * 2/6. Orcs WS3
     * vs WS4: 4+; S3 vs T3: 4+; light armour, shield and parry to the front:
     * 4+ saves: 1/2 * 1/2 * 1/2. */
    u[0] = (ex_unit){10, 5, 5, 4.0 / 6 * 2.0 / 6, 7, false, 1, 2};
    u[1] = (ex_unit){10, 5, 5, 1.0 / 8, 7, false, 1, 2};
}

Test(whfb7_combat, first_round_against_exact, .timeout = 60)
{
    om_wh7_combat c = swordsmen_charge_orcs();
    om_wh7_prepared *p = prepare_or_die(&c);
    ex_unit u[2];
    ex_result x;
    tally t;
    swordsmen_orcs_exact(u);
    x = exact_round(u, 0);
    t = run_trials(p, TRIALS, false, NULL, NULL);
    expect_round(&t, &x, "fast");
    t = run_trials(p, PLAIN_TRIALS, true, NULL, NULL);
    expect_round(&t, &x, "plain");
    om_wh7_prepared_free(p);
}

Test(whfb7_combat, initiative_decides_without_a_charge, .timeout = 60)
{
    /* Who Strikes First?: without a charge the Swordsmen (I4) strike before
     * the Orcs (I2); when the Orcs charge, they strike first. */
    om_wh7_combat c = swordsmen_charge_orcs();
    om_wh7_prepared *p;
    ex_unit u[2];
    ex_result x;
    tally t;
    swordsmen_orcs_exact(u);
    c.side[0].charging = false;
    p = prepare_or_die(&c);
    x = exact_round(u, 0);
    t = run_trials(p, TRIALS, false, NULL, NULL);
    expect_round(&t, &x, "no charge");
    om_wh7_prepared_free(p);
    c.side[1].charging = true;
    p = prepare_or_die(&c);
    x = exact_round(u, 1);
    t = run_trials(p, TRIALS, false, NULL, NULL);
    expect_round(&t, &x, "orcs charge");
    om_wh7_prepared_free(p);
}

Test(whfb7_combat, equal_initiative_rolls_off, .timeout = 60)
{
    /* Orcs (I2) against Goblins (I2), nobody charging: a roll-off decides who
     * strikes first, so the exact result is the even mixture of both orders. */
    om_wh7_side a = side_of(unit_of(OM_WH7_INFANTRY, ORC_BOY, 10, 5));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, GOBLIN, 12, 6));
    om_wh7_combat c = combat_of(OM_WH7_KIND_COMBAT, a, b);
    om_wh7_prepared *p = prepare_or_die(&c);
    /* Orcs WS3 vs WS2: 3+, S3 vs T3 4+: 1/3. Goblins WS2 vs WS3: 4+, S3 vs
     * T4: 5+: 1/6. Goblins 6 wide: 5 of them touch the Orcs' 5 plus 2. */
    ex_unit u[2] = {{10, 5, 5, 4.0 / 6 * 3.0 / 6, 7, false, 1, 2},
                    {12, 6, 6, 3.0 / 6 * 2.0 / 6, 6, false, 1, 2}};
    ex_result x0 = exact_round(u, 0), x1 = exact_round(u, 1), x;
    tally t;
    for (int w = 0; w < 3; w++)
        x.win[w] = 0.5 * (x0.win[w] + x1.win[w]);
    for (int s = 0; s < 2; s++) {
        x.broke[s] = 0.5 * (x0.broke[s] + x1.broke[s]);
        x.destroyed[s] = 0.5 * (x0.destroyed[s] + x1.destroyed[s]);
        x.slain[s] = 0.5 * (x0.slain[s] + x1.slain[s]);
        x.slain_sq[s] = 0.5 * (x0.slain_sq[s] + x1.slain_sq[s]);
    }
    t = run_trials(p, TRIALS, false, NULL, NULL);
    expect_round(&t, &x, "roll-off");
    /* Removing the roll-off (always A first) would be detectably different. */
    cr_expect(fabs(x0.win[0] - x.win[0]) > 0.01, "the orders differ enough to tell");
    om_wh7_prepared_free(p);
}

/* Per-trial identities of the combat result. */
typedef struct e18_ctx {
    unsigned seen;      /* trials with the E18 casualties */
    unsigned bad;       /* trials breaking an identity */
} e18_ctx;

static void e18_check(const om_wh7_outcome *o, void *vctx)
{
    e18_ctx *ctx = vctx;
    /* Knights are side A (6 models, 5 wide: no rank bonus), Orcs side B (15,
     * 5 wide: 2 extra ranks). E18 (Diagram 37.1): Knights kill 3 Orcs, Orcs
     * kill 1 Knight: Orcs 1 + 2 + 1 (US 12 vs 10) = 4, Knights 3. */
    unsigned k = o->slain[1], l = o->slain[0];
    unsigned us_a = (6 - l) * 2, us_b = 15 - k;
    if (o->result[0] != k + (us_a > us_b) || o->result[1] != l + 2 + (us_b > us_a))
        ctx->bad++;
    if (k == 3 && l == 1) {
        ctx->seen++;
        if (o->result[0] != 3 || o->result[1] != 4 || o->round1_winner != OM_WH7_SIDE_B)
            ctx->bad++;
    }
}

Test(whfb7_combat, worked_example_e18_diagram_37_1)
{
    om_wh7_side a = side_of(unit_of(OM_WH7_CAVALRY, KNIGHT, 6, 5));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, ORC_BOY, 15, 5));
    om_wh7_combat c;
    om_wh7_prepared *p;
    e18_ctx ctx = {0, 0};
    a.unit.mount.profile = WARHORSE;
    a.unit.equipment.weapon = OM_WH7_WEAPON_LANCE;
    a.unit.equipment.armour = OM_WH7_ARMOUR_HEAVY;
    a.unit.equipment.shield = true;
    a.unit.equipment.barding = true;
    a.charging = true;
    c = combat_of(OM_WH7_KIND_COMBAT, a, b);
    p = prepare_or_die(&c);
    run_trials(p, 20000, false, e18_check, &ctx);
    cr_expect_eq(ctx.bad, 0u, "combat result identities");
    cr_expect_gt(ctx.seen, 100u, "the E18 casualties occur");
    om_wh7_prepared_free(p);
}

static void e17_check(const om_wh7_outcome *o, void *vctx)
{
    e18_ctx *ctx = vctx;
    /* E17: both sides cause 3 wounds and side A has a standard: 4 - 3. Units
     * in one rank: no rank bonus; equal losses: no outnumbering. */
    if (o->slain[0] == 3 && o->slain[1] == 3) {
        ctx->seen++;
        if (o->result[0] != 4 || o->result[1] != 3 || o->round1_winner != OM_WH7_SIDE_A)
            ctx->bad++;
    }
}

Test(whfb7_combat, worked_example_e17_standard)
{
    om_wh7_side a = side_of(unit_of(OM_WH7_INFANTRY, HALBERDIER, 8, 8));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, HALBERDIER, 8, 8));
    om_wh7_combat c;
    om_wh7_prepared *p;
    e18_ctx ctx = {0, 0};
    a.unit.standard = true;
    a.unit.equipment.weapon = b.unit.equipment.weapon = OM_WH7_WEAPON_HALBERD;
    c = combat_of(OM_WH7_KIND_COMBAT, a, b);
    c.side[0].unit.profile.i = 4; /* strike order fixed: A first */
    p = prepare_or_die(&c);
    run_trials(p, 40000, false, e17_check, &ctx);
    cr_expect_eq(ctx.bad, 0u);
    cr_expect_gt(ctx.seen, 100u);
    om_wh7_prepared_free(p);
}

Test(whfb7_combat, break_test_worked_examples)
{
    /* D2 / E19: Ld8 losing by 3 holds on 5 or less, or a double 1: 10/36 =
     * 5/18; with the Battle Standard's re-roll 155/324. */
    cr_expect_float_eq(om_wh7_break_pass_probability(8, 3, 0, false, false), 5.0 / 18, EXACT);
    cr_expect_float_eq(om_wh7_break_pass_probability(8, 3, 0, false, true), 155.0 / 324, EXACT);
    /* E19: the Elves roll 7: 7 + 3 = 10 > 8, they break. */
    cr_expect(!om_wh7_break_holds(7, 8, 3, 0, false));
    /* E20: Goblins Ld6 losing by 10: only a double 1 holds. */
    cr_expect_float_eq(om_wh7_break_pass_probability(6, 10, 0, false, false), 1.0 / 36, EXACT);
    cr_expect(om_wh7_break_holds(2, 6, 10, 0, false));
    /* E21: Stubborn Ld8 breaks only on 9 or more, whatever the difference. */
    for (unsigned diff = 0; diff <= 8; diff++)
        cr_expect_float_eq(om_wh7_break_pass_probability(8, diff, 8, false, false), 26.0 / 36,
                           EXACT, "diff %u", diff);
    /* E22: Stubborn Ld8 with the General's Ld10 nearby: losing by 1 tests on
     * 9, by 2 on 8, by 3 or more on its own 8. */
    cr_expect_float_eq(om_wh7_break_pass_probability(10, 1, 8, false, false), 30.0 / 36, EXACT);
    cr_expect_float_eq(om_wh7_break_pass_probability(10, 2, 8, false, false), 26.0 / 36, EXACT);
    cr_expect_float_eq(om_wh7_break_pass_probability(10, 5, 8, false, false), 26.0 / 36, EXACT);
    /* Insane Courage saves even an automatic break (Fear). */
    cr_expect_float_eq(om_wh7_break_pass_probability(10, 0, 0, true, false), 1.0 / 36, EXACT);
    cr_expect_float_eq(om_wh7_break_pass_probability(10, 0, 0, true, true),
                       1.0 / 36 + 35.0 / 36 / 36, EXACT);
}

/* A combat whose result is certain: nobody can wound (S1 against T5 is "N"),
 * side B has three extra ranks, a standard and outnumbers: A loses by 5. */
static om_wh7_combat certain_loss(void)
{
    om_wh7_profile weak = prof("Weakling", 4, 3, 3, 1, 5, 1, 3, 1, 7);
    om_wh7_side a = side_of(unit_of(OM_WH7_INFANTRY, weak, 5, 5));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, weak, 20, 5));
    b.unit.standard = true;
    return combat_of(OM_WH7_KIND_COMBAT, a, b);
}

Test(whfb7_combat, break_tests_with_general_and_battle_standard, .timeout = 60)
{
    static const struct { unsigned general; bool bsb; } cases[] = {
        {0, false}, {9, false}, {0, true}, {9, true}, {10, true}, {6, false},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        om_wh7_combat c = certain_loss();
        om_wh7_prepared *p;
        tally t;
        unsigned ld = cases[i].general > 7 ? cases[i].general : 7;
        double hold = ex_hold(ld, 5), pc = catch_probability(2, 2), brk;
        char what[64];
        c.side[0].general_ld = (uint8_t)cases[i].general;
        c.side[0].battle_standard_near = cases[i].bsb;
        if (cases[i].bsb)
            hold = hold + (1 - hold) * hold;
        brk = 1.0 - hold;
        p = prepare_or_die(&c);
        t = run_trials(p, TRIALS / 2, false, NULL, NULL);
        snprintf(what, sizeof what, "general %u bsb %d", cases[i].general, cases[i].bsb);
        expect_frequency(t.round1_winner[OM_WH7_SIDE_B], t.n, 1.0, what);
        expect_frequency(t.broke[0], t.n, brk, what);
        expect_frequency(t.destroyed[0], t.n, brk * pc, what);
        expect_frequency(t.fled[0], t.n, brk * (1 - pc), what);
        expect_frequency(t.pursued[1], t.n, brk, what);
        om_wh7_prepared_free(p);
    }
}

Test(whfb7_combat, restrained_pursuit_and_blocked_flight, .timeout = 60)
{
    om_wh7_combat c = certain_loss();
    om_wh7_prepared *p;
    tally t;
    double brk = 35.0 / 36, pc = catch_probability(2, 2), hold = ld_pass(7), blocked = 0;
    /* Declare Pursuit Intentions: restraint is a Leadership test (Ld7). */
    c.side[1].pursue = OM_WH7_PURSUE_RESTRAIN;
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    expect_frequency(t.pursued[1], t.n, brk * (1 - hold), "pursued after a failed restraint");
    expect_frequency(t.destroyed[0], t.n, brk * (1 - hold) * pc, "caught");
    om_wh7_prepared_free(p);
    /* ...automatically restrained when defending an obstacle. */
    c.side[1].defended_obstacle = true;
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 4, false, NULL, NULL);
    cr_expect_eq(t.pursued[1], 0u);
    cr_expect_eq(t.destroyed[0], 0u);
    om_wh7_prepared_free(p);
    /* A flight of 7" or more into impassable terrain destroys the unit
     * (Move Surviving Fleeing Troops): caught, or escaped but blocked. */
    c = certain_loss();
    c.side[0].flee_blocked_in = 7;
    for (unsigned f = 2; f <= 12; f++) {
        double not_caught = 0;
        for (unsigned q = 2; q < f; q++)
            not_caught += nd6_pmf(2, q);
        if (f >= 7)
            blocked += nd6_pmf(2, f) * not_caught;
    }
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    expect_frequency(t.destroyed[0], t.n, brk * (pc + blocked), "caught or blocked");
    expect_frequency(t.caught[0], t.n, brk * (pc + blocked), "destroyed fleeing");
    om_wh7_prepared_free(p);
}

Test(whfb7_combat, cavalry_pursue_with_three_dice, .timeout = 60)
{
    /* Flee & Pursue: a unit moving more than 6" rolls 3D6: cavalry on
     * Warhorses (M8) catch 2D6 infantry far more often. */
    om_wh7_combat c = certain_loss();
    om_wh7_prepared *p;
    tally t;
    /* A steed of Strength 1 keeps the result certain. */
    c.side[1].unit.mount.profile = prof("Steed", 8, 3, 0, 1, 3, 1, 3, 1, 5);
    c.side[1].unit.troop = OM_WH7_CAVALRY;
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    expect_frequency(t.destroyed[0], t.n, 35.0 / 36 * catch_probability(3, 2), "3D6 pursuers");
    om_wh7_prepared_free(p);
}
