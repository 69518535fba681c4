/*
 * test_battle_end.c: the rules that end and judge a Warmaster battle
 * (engine/warmaster/battle.h), each against the rulebooks' own numbers.
 *
 * Game lengths are checked twice: their exact laws by enumerating every
 * outcome of their dice (enumerate.h), and a seeded simulation through the
 * fast dice within five standard errors of those laws. The first-turn roll is
 * simulated (its ties are rolled again without end, which no enumeration
 * finishes) against one chance in two. Break points, losses in half units and
 * verdicts are exact functions, checked case by case with the sources'
 * examples; each special rule has a case that fails without it.
 */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include <criterion/criterion.h>

#include "battle.h"
#include "enumerate.h"
#include "rng.h"

#define TOL 1e-12
#define SIGMAS 5.0
#define MC_SEED 20261127u
#define MC_TRIALS 400000u
#define TURNS_MAX 16u

/* The battle turns a method plays: decided before, then the end of each
 * battle turn asked in order, as a battle asks. */
static unsigned turns_played(const om_wm_game_length *g, unsigned fixed, om_dice *d)
{
    unsigned limit = om_wm_game_length_start(g, fixed, d);
    for (unsigned turn = 1;; turn++)
        if (om_wm_game_length_over(g, limit, turn, d))
            return turn;
}

/* The exact law of the turns a method plays, by enumeration. */
static void exact_turns(const om_wm_game_length *g, unsigned fixed, double law[TURNS_MAX + 1])
{
    om_enum *e;
    om_dice d;
    bool more = true;
    double p, total = 0;
    for (unsigned t = 0; t <= TURNS_MAX; t++)
        law[t] = 0;
    cr_assert_eq(om_enum_alloc(1000, &e), OM_OK);
    om_enum_start(e, &d);
    while (more) {
        unsigned t = turns_played(g, fixed, &d);
        cr_assert_eq(om_enum_next(e, &d, &p, &more), OM_OK);
        cr_assert_leq(t, TURNS_MAX);
        law[t] += p;
        total += p;
    }
    om_enum_free(e);
    cr_assert_float_eq(total, 1.0, TOL);
}

/* A seeded simulation of the turns played, each value within five standard
 * errors of `law`. */
static void simulated_turns_agree(const om_wm_game_length *g, unsigned fixed,
                                  const double law[TURNS_MAX + 1])
{
    unsigned long count[TURNS_MAX + 1] = {0};
    om_dice d = {.plain = NULL};
    om_rng_seed_block(&d.rng, MC_SEED, 0);
    for (unsigned i = 0; i < MC_TRIALS; i++)
        count[turns_played(g, fixed, &d)]++;
    for (unsigned t = 0; t <= TURNS_MAX; t++) {
        double p = law[t], se = sqrt(p * (1 - p) / MC_TRIALS);
        double est = (double)count[t] / MC_TRIALS;
        cr_expect_leq(fabs(est - p), SIGMAS * se + 1e-15, "%s: P(%u turns) = %.5f, exact %.5f",
                      g->name, t, est, p);
    }
}

static const om_wm_game_length *method(const char *name)
{
    const om_wm_game_length *g = om_wm_game_length_find(name);
    cr_assert_not_null(g, "no method %s", name);
    return g;
}

/* Warmaster Revolution, End of the Battle > Turns Complete: "1-2 = 6 turns,
 * 3-4 = 7 turns, 5-6 = 8 turns"; Warmaster Ancients, the same table. */
Test(game_length, dice_before_the_battle)
{
    double law[TURNS_MAX + 1];
    const om_wm_game_length *g = method("d6-6-7-8");
    exact_turns(g, 0, law);
    for (unsigned t = 0; t <= TURNS_MAX; t++)
        cr_expect_float_eq(law[t], t >= 6 && t <= 8 ? 1.0 / 3 : 0.0, TOL, "P(%u)", t);
    simulated_turns_agree(g, 0, law);
}

/* Warmaster Revolution, Turns Complete: "Roll a dice at the end of 6th and
 * 7th turn. On roll 4+ the battle ends. Battle definitively ends at the end of
 * 8th turn": 6 turns 1/2, 7 turns 1/4, 8 turns 1/4. */
Test(game_length, rolled_from_the_sixth)
{
    double law[TURNS_MAX + 1];
    const om_wm_game_length *g = method("rolled-from-6");
    exact_turns(g, 0, law);
    cr_expect_float_eq(law[6], 0.5, TOL);
    cr_expect_float_eq(law[7], 0.25, TOL);
    cr_expect_float_eq(law[8], 0.25, TOL);
    cr_expect_float_eq(law[5] + law[9], 0.0, TOL);
    simulated_turns_agree(g, 0, law);
}

/* Battlefields, How long does the battle last?: 1-2 five turns, 3-4 six, 5-6
 * seven; or from the end of the 5th turn a 4+ ends it, always after the 8th:
 * 5 turns 1/2, 6 1/4, 7 1/8, 8 1/8. */
Test(game_length, battlefields)
{
    double law[TURNS_MAX + 1];
    const om_wm_game_length *g = method("d6-5-6-7");
    exact_turns(g, 0, law);
    for (unsigned t = 5; t <= 7; t++)
        cr_expect_float_eq(law[t], 1.0 / 3, TOL, "P(%u)", t);
    simulated_turns_agree(g, 0, law);

    g = method("rolled-from-5");
    exact_turns(g, 0, law);
    cr_expect_float_eq(law[5], 0.5, TOL);
    cr_expect_float_eq(law[6], 0.25, TOL);
    cr_expect_float_eq(law[7], 0.125, TOL);
    cr_expect_float_eq(law[8], 0.125, TOL);
    simulated_turns_agree(g, 0, law);
}

/* A fixed length rolls no die and plays the turns agreed. */
Test(game_length, fixed)
{
    double law[TURNS_MAX + 1];
    const om_wm_game_length *g = method("fixed");
    exact_turns(g, 7, law);
    cr_expect_float_eq(law[7], 1.0, TOL);
    cr_expect_null(om_wm_game_length_find("d6-6-7-9"));
    cr_expect_eq(g, &om_wm_game_lengths[om_wm_game_length_count - 1]);
}

/* Warmaster Revolution, Game Sequence (the higher D6, ties rolled again) and
 * Warmaster Ancients, The First Turn (1-3 one side, 4-6 the other): one
 * chance in two for each side, within five standard errors. */
Test(first_turn, even_chances)
{
    static const om_wm_ruleset_id sets[] = {OM_WM_RULES_WM11, OM_WM_RULES_REV, OM_WM_RULES_WMA};
    for (unsigned s = 0; s < 3; s++) {
        om_dice d = {.plain = NULL};
        unsigned long b = 0;
        om_rng_seed_block(&d.rng, MC_SEED, s + 1);
        for (unsigned i = 0; i < MC_TRIALS; i++)
            b += om_wm_battle_first_side(sets[s], &d);
        double est = (double)b / MC_TRIALS, se = sqrt(0.25 / MC_TRIALS);
        cr_expect_leq(fabs(est - 0.5), SIGMAS * se, "rule set %u: P(B first) = %.5f", s, est);
    }
}

/* Warmaster Revolution, Withdraw > Casualties, W24: 15 units break at 8 lost,
 * 14 at 7; Warmaster Ancients, End of the Battle, "half or more": the same
 * for whole units; Successors' Pyrrhus: one more (16 units: 9). */
Test(break_point, half_rounded_up)
{
    cr_expect_eq(om_wm_break_point_halves(15, 0), 16u);
    cr_expect_eq(om_wm_break_point_halves(14, 0), 14u);
    cr_expect_eq(om_wm_break_point_halves(1, 0), 2u);
    cr_expect_eq(om_wm_break_point_halves(16, 1), 18u);
    cr_expect_eq(om_wm_break_point_halves(0, 0), UINT_MAX);
}

/* Withdraw > Casualties: "units reduced from 3 stands to 1 count as half a
 * unit lost", A16 reading B: a 4-stand unit too; a unit of 1 or 2 stands
 * counts only when destroyed. Warmaster Ancients counts whole units only. */
Test(break_point, half_units)
{
    cr_expect_eq(om_wm_break_loss_halves(OM_WM_RULES_REV, 3, 0, false, true), 2u);
    cr_expect_eq(om_wm_break_loss_halves(OM_WM_RULES_REV, 3, 1, false, true), 1u);
    cr_expect_eq(om_wm_break_loss_halves(OM_WM_RULES_WM11, 3, 1, false, true), 1u);
    cr_expect_eq(om_wm_break_loss_halves(OM_WM_RULES_REV, 4, 1, false, true), 1u);
    cr_expect_eq(om_wm_break_loss_halves(OM_WM_RULES_REV, 2, 1, false, true), 0u);
    cr_expect_eq(om_wm_break_loss_halves(OM_WM_RULES_REV, 3, 2, false, true), 0u);
    cr_expect_eq(om_wm_break_loss_halves(OM_WM_RULES_WMA, 3, 1, false, true), 0u);
    cr_expect_eq(om_wm_break_loss_halves(OM_WM_RULES_WMA, 3, 0, false, true), 2u);

    /* 15 units: 7 destroyed and one reduced to a stand is 7.5, below 8. */
    unsigned lost = 7 * om_wm_break_loss_halves(OM_WM_RULES_REV, 3, 0, false, true) +
                    om_wm_break_loss_halves(OM_WM_RULES_REV, 3, 1, false, true);
    cr_expect_lt(lost, om_wm_break_point_halves(15, 0));
    cr_expect_geq(lost + 1, om_wm_break_point_halves(15, 0));
}

/* Warmaster Ancients, Romans: a destroyed Triarii unit counts as two lost
 * ("an army that would withdraw after 5 ordinary losses also withdraws after 3
 * ordinary losses plus 1 Triarii"); skirmishers without Armour are not core
 * units and count nothing (End of the Battle). */
Test(break_point, ancients_units)
{
    unsigned bp = om_wm_break_point_halves(10, 0);
    unsigned ordinary = om_wm_break_loss_halves(OM_WM_RULES_WMA, 4, 0, false, true);
    unsigned triarii = om_wm_break_loss_halves(OM_WM_RULES_WMA, 4, 0, true, true);
    cr_expect_geq(5 * ordinary, bp);
    cr_expect_lt(4 * ordinary, bp);
    cr_expect_geq(3 * ordinary + triarii, bp);
    cr_expect_lt(2 * ordinary + triarii, bp);
    cr_expect_eq(om_wm_break_loss_halves(OM_WM_RULES_WMA, 4, 0, false, false), 0u);
}

static om_wm_battle_verdict judge(uint32_t vp_a, bool out_a, uint32_t vp_b, bool out_b,
                                  uint32_t lost_a, uint32_t lost_b)
{
    om_wm_battle_side s[2] = {
        {.vp_scored = vp_a, .withdrew = out_a, .lost_halves = lost_a, .break_halves = 16},
        {.vp_scored = vp_b, .withdrew = out_b, .lost_halves = lost_b, .break_halves = 16},
    };
    return om_wm_battle_judge(s);
}

/* End of the Battle > Victory Points: the most points wins; equal points
 * draw. */
Test(verdict, points)
{
    om_wm_battle_verdict v = judge(300, false, 250, false, 6, 4);
    cr_expect_eq(v.winner, 0u);
    cr_expect_eq(v.level, OM_WM_VICTORY_POINTS);
    v = judge(250, false, 300, false, 4, 6);
    cr_expect_eq(v.winner, 1u);
    v = judge(300, false, 300, false, 4, 6);
    cr_expect_eq(v.winner, OM_WM_BATTLE_NO_WINNER);
    cr_expect_eq(v.level, OM_WM_VICTORY_DRAW);
}

/* Withdraw: "the withdrawing side cannot score higher than its enemy": with
 * more points (or as many) it draws; both withdrawing is a draw (Warmaster
 * Ancients, End of the Battle). */
Test(verdict, withdrawal_caps_points)
{
    om_wm_battle_verdict v = judge(900, true, 300, false, 16, 2);
    cr_expect_eq(v.winner, OM_WM_BATTLE_NO_WINNER);
    cr_expect_eq(v.level, OM_WM_VICTORY_DRAW);
    v = judge(300, true, 300, false, 16, 2);
    cr_expect_eq(v.winner, OM_WM_BATTLE_NO_WINNER);
    v = judge(100, true, 900, true, 16, 16);
    cr_expect_eq(v.winner, OM_WM_BATTLE_NO_WINNER);
    cr_expect_eq(v.level, OM_WM_VICTORY_DRAW);
}

/* Campaigns of Conquest > Earning Empire Points: forcing a withdrawal with
 * more points is a minor victory, a major one losing no more than half of
 * one's own break point, a massacre no more than 25% of it (break point 8
 * units, 16 half units here). */
Test(verdict, levels_of_a_forced_withdrawal)
{
    static const struct {
        uint32_t lost_b;
        om_wm_victory level;
    } cases[] = {
        {0, OM_WM_VICTORY_MASSACRE},  {4, OM_WM_VICTORY_MASSACRE}, {5, OM_WM_VICTORY_MAJOR},
        {8, OM_WM_VICTORY_MAJOR},     {9, OM_WM_VICTORY_MINOR},    {15, OM_WM_VICTORY_MINOR},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        om_wm_battle_verdict v = judge(100, true, 500, false, 16, cases[i].lost_b);
        cr_expect_eq(v.winner, 1u);
        cr_expect_eq(v.level, cases[i].level, "B lost %u half units: %s, expected %s",
                     cases[i].lost_b, om_wm_victory_names[v.level],
                     om_wm_victory_names[cases[i].level]);
    }
    cr_expect_str_eq(om_wm_victory_names[OM_WM_VICTORY_MASSACRE], "massacre");
}

/* Every way a battle ends and every level has its name, as files and
 * listings write them. */
Test(verdict, names)
{
    cr_expect_str_eq(om_wm_battle_end_names[OM_WM_END_LENGTH], "length");
    cr_expect_str_eq(om_wm_battle_end_names[OM_WM_END_BREAK], "break-point");
    cr_expect_str_eq(om_wm_battle_end_names[OM_WM_END_GENERAL], "general-slain");
    for (unsigned v = 0; v < OM_WM_VICTORY_COUNT; v++)
        cr_expect_not_null(om_wm_victory_names[v], "level %u", v);
}
