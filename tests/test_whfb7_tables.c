/*
 * test_whfb7_tables.c: the basic tables of the WHFB 7th edition engine
 * (engine/whfb7/tables.c, equipment.c, chain.c) against the rulebook.
 *
 * - The close combat To Hit chart and the To Wound chart, every cell, against
 *   the closed forms the digest verified against the rulebook (Close Combat >
 *   Hitting the Enemy; Shooting > Rolling to Wound), written here
 *   independently of the engine's charts.
 * - Ballistic Skill and the 7+ rule (Shooting > Rolling to Hit; the digest's
 *   derived probability D3), saves and their
 *   modifiers (E11, E12, E13, E27, E28, E46), Leadership tests (D1).
 * - Dice chains: exact per-attack probabilities for a grid of WS, S, T and
 *   saves against the product of the charts' probabilities, chains with
 *   re-rolls, poison and killing blow against a brute-force enumeration of
 *   every face, and Monte Carlo of the die-by-die roll (fast and plain dice)
 *   at 5 standard errors.
 */
#include <criterion/criterion.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

#include "wh7.h"

/* Doubles computed from small fractions agree to well under this. */
#define EXACT 1e-12
/* Monte Carlo tolerance in standard errors, and trials per check: 2e5 gives a
 * standard error under 0.0012 on any probability. */
#define SIGMAS 5.0
#define TRIALS 200000u
#define PLAIN_TRIALS 50000u

/* The digest's closed form of the To Hit chart (WHFB 7th edition, Close
 * Combat > Hitting the Enemy; verified there against the rulebook's chart):
 * A > D hits on 3+, D > 2A on 5+, otherwise 4+. */
static unsigned closed_cc_hit(unsigned a, unsigned d)
{
    if (a > d)
        return 3;
    if (d > 2 * a)
        return 5;
    return 4;
}

/* The digest's closed form of the To Wound chart (WHFB 7th edition, Shooting >
 * Rolling to Wound). */
static unsigned closed_wound(int s, int t)
{
    int d = s - t;
    if (d >= 2)
        return 2;
    if (d == 1)
        return 3;
    if (d == 0)
        return 4;
    if (d == -1)
        return 5;
    if (d >= -3)
        return 6;
    return 7;
}

Test(whfb7_tables, cc_to_hit_chart_every_cell)
{
    for (unsigned a = 1; a <= 10; a++)
        for (unsigned d = 1; d <= 10; d++)
            cr_expect_eq(om_wh7_cc_to_hit(a, d), closed_cc_hit(a, d), "WS %u vs WS %u", a, d);
    /* WHFB 7th edition, Characteristics > Characteristics of 0: blows on a
     * model of WS 0 hit automatically. */
    for (unsigned a = 1; a <= 10; a++)
        cr_expect_eq(om_wh7_cc_to_hit(a, 0), 1u);
    /* Rulebook examples: "normally models hit an enemy on a 4+" (equal WS),
     * 3+ with the better WS, 5+ when the enemy's WS is more than double. */
    cr_expect_eq(om_wh7_cc_to_hit(3, 3), 4u);
    cr_expect_eq(om_wh7_cc_to_hit(4, 3), 3u);
    cr_expect_eq(om_wh7_cc_to_hit(2, 5), 5u);
}

Test(whfb7_tables, to_wound_chart_every_cell)
{
    for (int s = 1; s <= 10; s++)
        for (int t = 1; t <= 10; t++)
            cr_expect_eq(om_wh7_to_wound((unsigned)s, (unsigned)t), closed_wound(s, t),
                         "S%d vs T%d", s, t);
    cr_expect_eq(om_wh7_to_wound(0, 3), OM_WH7_NEVER);
    /* E25: a halberd in the hands of an S3 model hits at S4: against T3, 3+. */
    cr_expect_eq(om_wh7_to_wound(3 + 1, 3), 3u);
}

Test(whfb7_tables, ballistic_skill_and_seven_plus)
{
    /* WHFB 7th edition, Shooting > Rolling to Hit: BS 1..10 need 6..-3. */
    for (unsigned bs = 1; bs <= 10; bs++)
        cr_expect_eq(om_wh7_bs_to_hit(bs), 7 - (int)bs);
    /* Digest 19, D3: by requirement r. */
    cr_expect_float_eq(om_wh7_shoot_hit_probability(-3), 5.0 / 6.0, EXACT);
    cr_expect_float_eq(om_wh7_shoot_hit_probability(2), 5.0 / 6.0, EXACT);
    cr_expect_float_eq(om_wh7_shoot_hit_probability(3), 4.0 / 6.0, EXACT);
    cr_expect_float_eq(om_wh7_shoot_hit_probability(4), 3.0 / 6.0, EXACT);
    cr_expect_float_eq(om_wh7_shoot_hit_probability(5), 2.0 / 6.0, EXACT);
    cr_expect_float_eq(om_wh7_shoot_hit_probability(6), 1.0 / 6.0, EXACT);
    cr_expect_float_eq(om_wh7_shoot_hit_probability(7), 1.0 / 12.0, EXACT);
    cr_expect_float_eq(om_wh7_shoot_hit_probability(8), 1.0 / 18.0, EXACT);
    cr_expect_float_eq(om_wh7_shoot_hit_probability(9), 1.0 / 36.0, EXACT);
    cr_expect_float_eq(om_wh7_shoot_hit_probability(10), 0.0, EXACT);
    cr_expect_float_eq(om_wh7_shoot_hit_probability(12), 0.0, EXACT);
    /* E7: 5 archers BS3 roll 1,2,2,4,6: need 4+, so 2 hits. */
    {
        const unsigned rolls[5] = {1, 2, 2, 4, 6};
        unsigned hits = 0;
        for (unsigned i = 0; i < 5; i++)
            hits += rolls[i] >= (unsigned)om_wh7_bs_to_hit(3);
        cr_expect_eq(hits, 2u);
    }
}

static om_wh7_save_case foot_shooting(void)
{
    om_wh7_save_case c;
    memset(&c, 0, sizeof c);
    return c;
}

Test(whfb7_tables, armour_saves_worked_examples)
{
    om_wh7_equipment e;
    om_wh7_save_case how = foot_shooting();
    memset(&e, 0, sizeof e);
    cr_expect_eq(om_wh7_armour_save(&e, &how), OM_WH7_NEVER, "no armour: no save");
    e.shield = true;
    cr_expect_eq(om_wh7_armour_save(&e, &how), 6u, "shield alone 6+");
    /* E11: light armour and shield, 5+ on foot and 4+ mounted. */
    e.armour = OM_WH7_ARMOUR_LIGHT;
    cr_expect_eq(om_wh7_armour_save(&e, &how), 5u);
    how.steed = true;
    how.mounted = true;
    cr_expect_eq(om_wh7_armour_save(&e, &how), 4u);
    /* Riders with shield and heavy armour on barded mounts: 2+. */
    e.armour = OM_WH7_ARMOUR_HEAVY;
    e.barding = true;
    cr_expect_eq(om_wh7_armour_save(&e, &how), 2u);
    /* Cavalry with no armour: 6+ (the table's cavalry column). */
    memset(&e, 0, sizeof e);
    cr_expect_eq(om_wh7_armour_save(&e, &how), 6u);
    /* E12: a crossbow (S4) against light armour and shield: 6+. */
    memset(&e, 0, sizeof e);
    e.armour = OM_WH7_ARMOUR_LIGHT;
    e.shield = true;
    how = foot_shooting();
    cr_expect_eq(om_wh7_save_need(om_wh7_armour_save(&e, &how),
                                  (int)om_wh7_strength_save_modifier(4)), 6u);
    /* E27: shield, light armour and a sword in close combat to the front: 4+;
     * not against the flank, and not with a spear. */
    how.close_combat = true;
    how.from_front = true;
    how.weapon = OM_WH7_WEAPON_HAND;
    cr_expect_eq(om_wh7_armour_save(&e, &how), 4u);
    how.from_front = false;
    cr_expect_eq(om_wh7_armour_save(&e, &how), 5u);
    how.from_front = true;
    how.weapon = OM_WH7_WEAPON_SPEAR;
    cr_expect_eq(om_wh7_armour_save(&e, &how), 5u);
    /* Digest A4: a great weapon slings the shield in close combat. */
    how.weapon = OM_WH7_WEAPON_GREAT;
    cr_expect_eq(om_wh7_armour_save(&e, &how), 6u);
    how.slung_shield_counts = true;
    cr_expect_eq(om_wh7_armour_save(&e, &how), 5u);
    /* E46: the Enchanted Shield with light armour 4+; with heavy armour,
     * mounted, 2+. */
    memset(&e, 0, sizeof e);
    e.enchanted_shield = true;
    e.armour = OM_WH7_ARMOUR_LIGHT;
    how = foot_shooting();
    cr_expect_eq(om_wh7_armour_save(&e, &how), 4u);
    e.armour = OM_WH7_ARMOUR_HEAVY;
    how.steed = true;
    how.mounted = true;
    cr_expect_eq(om_wh7_armour_save(&e, &how), 2u);
    /* Scaly skin 5+ and a shield: 4+ (Special Rules > Scaly Skin). */
    memset(&e, 0, sizeof e);
    e.scaly_skin = 5;
    e.shield = true;
    how = foot_shooting();
    cr_expect_eq(om_wh7_armour_save(&e, &how), 4u);
}

Test(whfb7_tables, save_modifiers)
{
    /* Armour Save Modifiers: S3 or less 0, S4 -1 ... S10 -7. */
    const unsigned mod[11] = {0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7};
    for (unsigned s = 0; s <= 10; s++)
        cr_expect_eq(om_wh7_strength_save_modifier(s), mod[s], "S%u", s);
    /* E13: a 2+ save against S4 needs 3+; a 1+ save 2+ (a natural 1 fails). */
    cr_expect_eq(om_wh7_save_need(2, 1), 3u);
    cr_expect_eq(om_wh7_save_need(1, 1), 2u);
    cr_expect_eq(om_wh7_save_need(1, 0), 2u);
    /* E28: armour piercing S4: -2 (a 4+ save needs 6+). */
    cr_expect_eq(om_wh7_save_need(4, (int)om_wh7_strength_save_modifier(4) + 1), 6u);
    /* A3: worse than 6+ is no save. */
    cr_expect_eq(om_wh7_save_need(6, 1), OM_WH7_NEVER);
    cr_expect_eq(om_wh7_save_need(OM_WH7_NEVER, -1), OM_WH7_NEVER);
    /* Every save against every Strength: max(2, save + max(0, S - 3)), none
     * past 6. */
    for (unsigned sv = 1; sv <= 6; sv++)
        for (unsigned s = 1; s <= 10; s++) {
            unsigned need = sv + (s > 3 ? s - 3 : 0);
            unsigned want = need > 6 ? OM_WH7_NEVER : need < 2 ? 2 : need;
            cr_expect_eq(om_wh7_save_need(sv, (int)om_wh7_strength_save_modifier(s)), want,
                         "%u+ against S%u", sv, s);
        }
}

Test(whfb7_tables, leadership_tests)
{
    /* Digest 1 table and 19 D1. */
    const unsigned ways[13] = {0, 0, 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36};
    for (int ld = 0; ld <= 12; ld++)
        cr_expect_float_eq(om_wh7_ld_pass_probability(ld), ways[ld] / 36.0, EXACT, "Ld %d", ld);
    cr_expect_float_eq(om_wh7_ld_pass_probability(7), 7.0 / 12.0, EXACT);
    cr_expect_float_eq(om_wh7_ld_pass_probability(8), 13.0 / 18.0, EXACT);
    cr_expect_float_eq(om_wh7_ld_pass_probability(9), 5.0 / 6.0, EXACT);
    cr_expect_float_eq(om_wh7_ld_pass_probability(10), 11.0 / 12.0, EXACT);
    cr_expect_eq(om_wh7_2d6_ways(7), 6u);
    cr_expect_eq(om_wh7_2d6_ways(13), 0u);
}

Test(whfb7_tables, rank_bonus_and_unit_strength)
{
    om_wh7_unit u;
    om_wh7_character c;
    /* Extra Rank: at least 5 wide, +1 per rank with 5 or more, at most +3. */
    cr_expect_eq(om_wh7_rank_bonus(20, 5), 3u);
    cr_expect_eq(om_wh7_rank_bonus(25, 5), 3u);
    cr_expect_eq(om_wh7_rank_bonus(14, 5), 1u, "a rear rank of 4 does not count");
    cr_expect_eq(om_wh7_rank_bonus(15, 5), 2u);
    cr_expect_eq(om_wh7_rank_bonus(16, 4), 0u, "4 wide");
    cr_expect_eq(om_wh7_rank_bonus(5, 5), 0u);
    cr_expect_eq(om_wh7_rank_bonus(17, 6), 2u, "6 wide, 11 behind: 6 then 5");
    cr_expect_eq(om_wh7_rank_bonus(16, 6), 1u);
    cr_expect_eq(om_wh7_rank_bonus(4, 5), 0u);
    /* Unit Strength Chart; E30: 3 Rat Ogres (3) + 3 Packmasters (1) = 12. */
    memset(&u, 0, sizeof u);
    u.troop = OM_WH7_MONSTROUS_INFANTRY;
    cr_expect_eq(3 * om_wh7_model_unit_strength(&u) + 3 * 1u, 12u);
    u.troop = OM_WH7_CAVALRY;
    cr_expect_eq(om_wh7_model_unit_strength(&u), 2u);
    u.troop = OM_WH7_MONSTER;
    u.profile.w = 6;
    cr_expect_eq(om_wh7_model_unit_strength(&u), 6u);
    memset(&c, 0, sizeof c);
    cr_expect_eq(om_wh7_character_unit_strength(&c), 1u);
    strcpy(c.mount.profile.name, "Warhorse");
    c.mount.profile.w = 1;
    cr_expect_eq(om_wh7_character_unit_strength(&c), 2u);
    strcpy(c.mount.profile.name, "Griffon");
    c.mount.profile.w = 4;
    cr_expect_eq(om_wh7_character_unit_strength(&c), 5u, "a ridden monster: W + 1");
    /* Flee & Pursue: 2D6 up to M6, 3D6 above; flyers 3D6. */
    cr_expect_eq(om_wh7_flee_dice(4, false), 2u);
    cr_expect_eq(om_wh7_flee_dice(6, false), 2u);
    cr_expect_eq(om_wh7_flee_dice(7, false), 3u);
    cr_expect_eq(om_wh7_flee_dice(4, true), 3u);
}

/* A chain with no re-roll, poison or killing blow. */
static om_wh7_chain plain_chain(unsigned hit, unsigned wound, unsigned armour, unsigned ward,
                                unsigned regen)
{
    om_wh7_chain c;
    memset(&c, 0, sizeof c);
    c.hit = (uint8_t)hit;
    c.wound = (uint8_t)wound;
    c.armour = (uint8_t)armour;
    c.ward = (uint8_t)ward;
    c.regen = (uint8_t)regen;
    return c;
}

/* P(D6 >= need) as the test computes it: faces need..6 of 6. */
static double at_least(unsigned need)
{
    return need <= 1 ? 1.0 : need >= 7 ? 0.0 : (7.0 - need) / 6.0;
}

Test(whfb7_tables, chain_grid_ws_s_t_saves)
{
    /* Every WS pair, every S against every T, every save 2+..6+ and none:
     * P(unsaved wound) = P(hit) P(wound) P(save fails), exactly. */
    for (unsigned a = 1; a <= 10; a++)
        for (unsigned d = 1; d <= 10; d++)
            for (unsigned s = 1; s <= 10; s++)
                for (unsigned t = 1; t <= 10; t += 3)
                    for (unsigned sv = 2; sv <= 7; sv++) {
                        unsigned hit = closed_cc_hit(a, d), w = closed_wound((int)s, (int)t);
                        unsigned need = om_wh7_save_need(sv, (int)om_wh7_strength_save_modifier(s));
                        om_wh7_chain c = plain_chain(om_wh7_cc_to_hit(a, d), om_wh7_to_wound(s, t),
                                                     need, 7, 7);
                        double pw, ps, want;
                        om_wh7_chain_probability(&c, &pw, &ps);
                        want = at_least(hit) * at_least(w) *
                               (1.0 - at_least(sv + (s > 3 ? s - 3 : 0) < 2 ? 2 : sv + (s > 3 ? s - 3 : 0)));
                        cr_assert_float_eq(pw, want, EXACT, "WS%u/WS%u S%u T%u %u+", a, d, s, t, sv);
                        cr_assert_float_eq(ps, 0.0, EXACT);
                    }
}

/*
 * Brute force: enumerate every face of every die the chain can roll (to hit,
 * its second die or re-roll, to wound and its re-roll, armour, ward,
 * regeneration), written from the rules independently of chain.c.
 */
static void brute_force(const om_wh7_chain *c, double *pw, double *ps)
{
    double wound = 0, slay = 0;
    const double die = 1.0 / 6.0;
    for (unsigned h1 = 1; h1 <= 6; h1++)
        for (unsigned h2 = 1; h2 <= 6; h2++)
            for (unsigned w1 = 1; w1 <= 6; w1++)
                for (unsigned w2 = 1; w2 <= 6; w2++)
                    for (unsigned sa = 1; sa <= 6; sa++)
                        for (unsigned sw = 1; sw <= 6; sw++)
                            for (unsigned sr = 1; sr <= 6; sr++) {
                                double pr = die * die * die * die * die * die * die;
                                unsigned face = h1;
                                bool hit, poison, kb = false, wounded;
                                /* to hit, with a re-roll of misses or ones (h2) */
                                hit = c->hit <= 1 || (face != 1 && face >= c->hit);
                                if (c->hit > 1 && ((c->reroll_hit == OM_WH7_REROLL_MISSES && !hit) ||
                                                   (c->reroll_hit == OM_WH7_REROLL_ONES && face == 1))) {
                                    face = h2;
                                    hit = face != 1 && face >= c->hit;
                                }
                                if (!hit)
                                    continue;
                                poison = c->poison && c->hit > 1 && face == 6;
                                if (poison) {
                                    wounded = true;
                                } else {
                                    unsigned wf = w1;
                                    if (c->wound <= 1) {
                                        wounded = true;
                                    } else {
                                        if (wf == 1 && c->reroll_wound == OM_WH7_REROLL_ONES)
                                            wf = w2;
                                        wounded = wf != 1 && wf >= c->wound && c->wound <= 6;
                                        kb = wounded && c->killing_blow && wf == 6;
                                    }
                                }
                                if (!wounded)
                                    continue;
                                if (kb) {
                                    if (!(c->ward <= 6 && sw >= c->ward))
                                        slay += pr;
                                    continue;
                                }
                                if (c->armour <= 6 && sa >= c->armour)
                                    continue;
                                if (c->ward <= 6 && sw >= c->ward)
                                    continue;
                                if (c->regen <= 6 && sr >= c->regen)
                                    continue;
                                wound += pr;
                            }
    *pw = wound;
    *ps = slay;
}

Test(whfb7_tables, chains_with_rerolls_poison_killing_blow, .timeout = 60)
{
    static const struct { unsigned hit, reroll, poison, wound, rw, kb, armour, ward, regen; } cases[] = {
        {4, OM_WH7_REROLL_MISSES, 0, 4, 0, 0, 5, 7, 7},  /* Hatred */
        {4, OM_WH7_REROLL_MISSES, 1, 5, 0, 0, 4, 7, 7},  /* Hatred and poison */
        {3, OM_WH7_REROLL_NONE, 1, 7, 0, 0, 6, 7, 7},    /* poison against "N" */
        {4, OM_WH7_REROLL_NONE, 0, 4, 0, 1, 3, 5, 4},    /* killing blow, ward, regeneration */
        {5, OM_WH7_REROLL_ONES, 0, 5, 1, 1, 4, 6, 7},    /* re-roll ones (Portent of Far) */
        {6, OM_WH7_REROLL_NONE, 1, 6, 0, 1, 2, 7, 4},
        {2, OM_WH7_REROLL_MISSES, 1, 2, 1, 1, 7, 4, 4},
        {1, OM_WH7_REROLL_NONE, 1, 3, 0, 0, 5, 7, 7},    /* automatic hits: no poison */
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        om_wh7_chain c = plain_chain(cases[i].hit, cases[i].wound, cases[i].armour, cases[i].ward,
                                     cases[i].regen);
        double pw, ps, bw, bs;
        c.reroll_hit = (uint8_t)cases[i].reroll;
        c.poison = cases[i].poison;
        c.reroll_wound = (uint8_t)cases[i].rw;
        c.killing_blow = cases[i].kb;
        om_wh7_chain_probability(&c, &pw, &ps);
        brute_force(&c, &bw, &bs);
        cr_expect_float_eq(pw, bw, EXACT, "case %u wound", i);
        cr_expect_float_eq(ps, bs, EXACT, "case %u slay", i);
    }
}

Test(whfb7_tables, worked_examples_e10_e37)
{
    om_wh7_chain c;
    double pw, ps;
    /* E10: Goblins BS3 stand & shoot at long range: 7 - 3 + 1 + 1 = 6 to hit;
     * S3 against T3 4+; Elf cavalry with light armour 5+: 1/18 per shot. */
    c = plain_chain((unsigned)(om_wh7_bs_to_hit(3) + 2), om_wh7_to_wound(3, 3), 5, 7, 7);
    om_wh7_chain_probability(&c, &pw, &ps);
    cr_expect_float_eq(pw, 1.0 / 18.0, EXACT);
    /* E37: a Vampire on a barded steed (5+), crossbow hit (S4): armour 6+, then
     * the Carstein Ring's 4+ ward, then regeneration 4+: survives 19/24. */
    c = plain_chain(1, 1, om_wh7_save_need(5, (int)om_wh7_strength_save_modifier(4)), 4, 4);
    om_wh7_chain_probability(&c, &pw, &ps);
    cr_expect_float_eq(1.0 - pw, 19.0 / 24.0, EXACT);
}

/* The Monte Carlo frequency of each blow along `c`, with fast or plain dice,
 * against the exact probabilities at SIGMAS standard errors. */
static void check_roll(const om_wh7_chain *c, bool plain, unsigned trials)
{
    om_dice d;
    unsigned wound = 0, slay = 0;
    double pw, ps;
    om_rng_seed_block(&d.rng, 2024, 7);
    d.plain = plain ? gsl_rng_alloc(gsl_rng_mt19937) : NULL;
    if (plain)
        gsl_rng_set(d.plain, 99);
    for (unsigned i = 0; i < trials; i++) {
        om_wh7_blow b = om_wh7_chain_roll(&d, c);
        wound += b == OM_WH7_BLOW_WOUND;
        slay += b == OM_WH7_BLOW_SLAY;
    }
    om_wh7_chain_probability(c, &pw, &ps);
    cr_expect(fabs((double)wound / trials - pw) <= SIGMAS * sqrt(pw * (1 - pw) / trials) + EXACT,
              "wound frequency %g vs %g (plain %d)", (double)wound / trials, pw, plain);
    cr_expect(fabs((double)slay / trials - ps) <= SIGMAS * sqrt(ps * (1 - ps) / trials) + EXACT,
              "slay frequency %g vs %g (plain %d)", (double)slay / trials, ps, plain);
    if (plain)
        gsl_rng_free(d.plain);
}

Test(whfb7_tables, chain_roll_matches_probability)
{
    om_wh7_chain c = plain_chain(4, 4, 5, 6, 4);
    c.reroll_hit = OM_WH7_REROLL_MISSES;
    c.poison = true;
    c.killing_blow = true;
    check_roll(&c, false, TRIALS);
    check_roll(&c, true, PLAIN_TRIALS);
    c = plain_chain(8, 3, 7, 7, 7); /* shooting 6 then 5+ */
    check_roll(&c, false, TRIALS);
}
