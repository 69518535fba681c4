/*
 * test_wm.c: the Warmaster engine (engine/warmaster) against the rules.
 *
 * Three kinds of tests:
 *   - the worked examples of the rulebooks (W-numbers: their ids in the digest
 *     scenarios/armies/sources/rules/warmaster.md) and rule arithmetic, checked
 *     exactly;
 *   - Monte Carlo outcome probabilities checked against exact values computed
 *     here by enumerating the independent binomial hit counts (binomial
 *     convolution), written from the rules text independently of the engine.
 *     Tolerance: 5 standard errors of the estimate, sqrt(p(1-p)/N), at a fixed
 *     seed, in both the fast and the plain (per-die GSL) dice modes;
 *   - the special rules as typed traits: the trait descriptors, the registry's
 *     rows per rule set, and what the army lists' rules make of a unit (its
 *     rules recorded once, a character joining, Caractacus, Zealots' enemies).
 *
 * Rules are cited by Warmaster Revolution section unless another rulebook is
 * named; A21 is an ambiguity of the Warmaster digest, A-14 a reading of
 * docs/research/rule_effects_fantasy.md.
 */
#include <criterion/criterion.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <string.h>

#include "wm.h"
#include "exact_law.h"

/* Trials per Monte Carlo check: 2e5 gives a standard error under 0.0012 on any
 * probability while keeping each test well under a second. */
#define TRIALS 200000u
/* Plain (per-die GSL) mode is ~10x slower; fewer trials, same 5-sigma rule. */
#define PLAIN_TRIALS 40000u
#define SIGMAS 5.0

static om_wm_unit unit(const char *name, om_wm_troop t, unsigned stands, unsigned attacks,
                       unsigned hits, unsigned armour)
{
    om_wm_unit u;
    memset(&u, 0, sizeof u);
    snprintf(u.name, sizeof u.name, "%s", name);
    u.troop = t;
    u.stands = (uint8_t)stands;
    u.attacks = (uint8_t)attacks;
    u.hits = (uint8_t)hits;
    u.armour = (uint8_t)armour;
    u.pace_cm = (uint8_t)om_wm_troop_pace(t);
    return u;
}

static om_wm_side side_of(om_wm_unit u)
{
    om_wm_side s;
    memset(&s, 0, sizeof s);
    s.unit = u;
    s.fighting = u.stands;
    s.shooting = u.stands;
    return s;
}

static om_wm_engagement combat(const char *ruleset, om_wm_side a, om_wm_side b)
{
    om_wm_engagement e;
    memset(&e, 0, sizeof e);
    e.rules = om_wm_ruleset_find(ruleset);
    cr_assert_not_null(e.rules, "rule set %s", ruleset);
    e.kind = OM_WM_KIND_COMBAT;
    e.side[0] = a;
    e.side[1] = b;
    return e;
}

/* ---------- Exact oracle for stand and shoot + round 1 ---------- */

typedef struct oracle_side {
    unsigned stands, hits, supports, losing_units;
    unsigned dice[13];   /* attack dice by number of fighting stands */
    double p;            /* P(one attack die scores an unsaved hit) */
    bool artillery;
} oracle_side;

typedef struct oracle {
    double win[3];          /* P(A wins), P(B wins), P(draw) */
    double lost_a[13], lost_b[13]; /* distribution of stands lost */
    double retreat[64];     /* distribution of retreat_cm */
} oracle;


/*
 * Exact outcome distribution of: B shoots `shots` dice (P = p_shoot each) at the
 * charging A (stands removed at once, all hits count for B), then one round in
 * which both roll their dice. Rules: Shooting > Removing Casualties, Shooting at
 * Charging Enemy; Combat > How to Calculate Damage to Retreats; ambiguities
 * A18, A21.
 */
static oracle exact_round(const oracle_side *a, const oracle_side *b, unsigned shots,
                          double p_shoot)
{
    oracle o;
    memset(&o, 0, sizeof o);
    for (unsigned hs = 0; hs <= shots; hs++) {
        double ps = shots ? binom_pmf(shots, hs, p_shoot) : 1.0;
        unsigned lost_s = hs / a->hits, sa, carried_a;
        if (lost_s >= a->stands) {
            o.win[1] += ps;
            o.lost_a[a->stands] += ps;
            o.lost_b[0] += ps;
            o.retreat[0] += ps;
            continue;
        }
        sa = a->stands - lost_s;
        carried_a = hs % a->hits;
        unsigned da = a->dice[sa], db = b->dice[b->stands];
        for (unsigned ha = 0; ha <= da; ha++) {
            double pa = binom_pmf(da, ha, a->p);
            for (unsigned hb = 0; hb <= db; hb++) {
                double pr = ps * pa * binom_pmf(db, hb, b->p);
                unsigned cap_b = b->stands * b->hits, cap_a = sa * a->hits - carried_a;
                unsigned ra = (ha < cap_b ? ha : cap_b) + a->supports;
                unsigned rb = (hb < cap_a ? hb : cap_a) + hs + b->supports;
                unsigned lb = ha / b->hits, la = (carried_a + hb) / a->hits;
                unsigned left_a, left_b, retreat = 0;
                int w;
                if (lb > b->stands) lb = b->stands;
                if (la > sa) la = sa;
                left_a = sa - la;
                left_b = b->stands - lb;
                if (left_a == 0 && left_b == 0) w = 2;
                else if (left_a == 0) w = 1;
                else if (left_b == 0) w = 0;
                else w = ra == rb ? 2 : ra > rb ? 0 : 1;
                if (w != 2) {
                    const oracle_side *loser = w == 0 ? b : a;
                    unsigned left = w == 0 ? left_b : left_a;
                    if (left > 0) {
                        unsigned diff = w == 0 ? ra - rb : rb - ra;
                        retreat = (diff + loser->losing_units - 1) / loser->losing_units;
                        if (retreat == 0) retreat = 1;
                        if (loser->artillery) {
                            if (w == 0) lb = b->stands; else la = sa;
                        }
                    }
                }
                o.win[w] += pr;
                o.lost_a[lost_s + la] += pr;
                o.lost_b[lb] += pr;
                o.retreat[retreat < 63 ? retreat : 63] += pr;
            }
        }
    }
    return o;
}

/* Run the engine and compare every probability the oracle gives. */
static void compare(const om_wm_engagement *e, const oracle *ex, bool plain)
{
    om_wm_prepared *p = NULL;
    om_dice d;
    unsigned n = plain ? PLAIN_TRIALS : TRIALS;
    unsigned long win[4] = {0}, lost_a[13] = {0}, lost_b[13] = {0}, retreat[64] = {0};
    cr_assert_eq(om_wm_prepare_alloc(e, &p), OM_OK, "%s", om_error_message());
    om_rng_seed_block(&d.rng, 20261121u, 0);
    d.plain = plain ? gsl_rng_alloc(gsl_rng_default) : NULL;
    if (d.plain)
        gsl_rng_set(d.plain, 12345);
    for (unsigned i = 0; i < n; i++) {
        om_wm_outcome o;
        om_wm_resolve(p, &d, &o);
        win[o.winner]++;
        lost_a[o.stands_lost[0]]++;
        lost_b[o.stands_lost[1]]++;
        retreat[o.retreat_cm < 63 ? o.retreat_cm : 63]++;
    }
    expect_p("P(A wins)", win[OM_WM_SIDE_A], n, ex->win[0]);
    expect_p("P(B wins)", win[OM_WM_SIDE_B], n, ex->win[1]);
    expect_p("P(draw)", win[OM_WM_DRAW], n, ex->win[2]);
    for (unsigned k = 0; k < 13; k++) {
        char what[64];
        snprintf(what, sizeof what, "P(A loses %u stands)", k);
        expect_p(what, lost_a[k], n, ex->lost_a[k]);
        snprintf(what, sizeof what, "P(B loses %u stands)", k);
        expect_p(what, lost_b[k], n, ex->lost_b[k]);
    }
    for (unsigned k = 0; k < 64; k++) {
        char what[64];
        snprintf(what, sizeof what, "P(retreat %u cm)", k);
        expect_p(what, retreat[k], n, ex->retreat[k]);
    }
    if (d.plain)
        gsl_rng_free(d.plain);
    om_wm_prepared_free(p);
}

static void dice_per_stand(oracle_side *o, unsigned per_stand, unsigned stands)
{
    for (unsigned k = 0; k <= stands; k++)
        o->dice[k] = k * per_stand > 0 ? k * per_stand : 1;
    o->dice[0] = 0;
}

/* Cavalry charging infantry, one round (Combat > Attack Modifiers to Combat
 * Results): 12 dice hitting on 4+ against no armour (3 charging cavalry
 * stands, Attacks 3 + 1) vs 9 dice against 4+ armour. */
static void check_twelve_vs_nine(bool plain)
{
    om_wm_side a = side_of(unit("Riders", OM_WM_CAVALRY, 3, 3, 3, 4));
    om_wm_side b = side_of(unit("Warband", OM_WM_INFANTRY, 3, 3, 3, 0));
    /* A rolls 12 dice hitting on 4+ with no armour to save: p = 1/2. B rolls 9
     * dice hitting on 4+ against A's 4+ armour: p = 1/2 * 1/2. */
    oracle_side oa = {.stands = 3, .hits = 3, .losing_units = 1, .p = 0.5};
    oracle_side ob = {.stands = 3, .hits = 3, .losing_units = 1, .p = 0.25};
    om_wm_engagement e;
    oracle ex;
    a.charging = true;
    e = combat("warmaster-revolution", a, b);
    dice_per_stand(&oa, 4, 3);
    dice_per_stand(&ob, 3, 3);
    ex = exact_round(&oa, &ob, 0, 0);
    compare(&e, &ex, plain);
}

Test(combat, twelve_dice_vs_nine_exact) { check_twelve_vs_nine(false); }
Test(combat, twelve_dice_vs_nine_exact_plain_dice) { check_twelve_vs_nine(true); }

/* The embedded default: Knights (3/3/4+) charge Spearmen (3/3/6+) in the open. */
Test(combat, knights_charge_spearmen_exact)
{
    om_wm_side a = side_of(unit("Knights", OM_WM_CAVALRY, 3, 3, 3, 4));
    om_wm_side b = side_of(unit("Spearmen", OM_WM_INFANTRY, 3, 3, 3, 6));
    oracle_side oa = {.stands = 3, .hits = 3, .losing_units = 1, .p = 0.5 * 5.0 / 6.0};
    oracle_side ob = {.stands = 3, .hits = 3, .losing_units = 1, .p = 0.5 * 3.0 / 6.0};
    a.charging = true;
    dice_per_stand(&oa, 4, 3);
    dice_per_stand(&ob, 3, 3);
    om_wm_engagement e = combat("warmaster-revolution", a, b);
    oracle ex = exact_round(&oa, &ob, 0, 0);
    compare(&e, &ex, false);
}

/* Stand and shoot (Shooting > Shooting at Charging Enemy, W7) with supports
 * and a supporting unit (Combat > Supporting Troops, Retreats): Crossbowmen
 * (3/1, 3 stands) shoot at charging Knights, then fight with 2 supporting
 * stands of another unit; REV divides the retreat by 2 units. */
static void check_stand_and_shoot(const char *ruleset, unsigned losing_units_b)
{
    om_wm_side a = side_of(unit("Knights", OM_WM_CAVALRY, 3, 3, 3, 4));
    om_wm_side b = side_of(unit("Crossbowmen", OM_WM_INFANTRY, 3, 3, 3, 0));
    oracle_side oa = {.stands = 3, .hits = 3, .losing_units = 1, .p = 0.5};
    oracle_side ob = {.stands = 3, .hits = 3, .supports = 2, .losing_units = losing_units_b,
                      .p = 0.5 * 0.5};
    a.charging = true;
    b.unit.shots = 1;
    b.unit.range_cm = 30;
    b.stand_and_shoot = true;
    b.supports = 2;
    b.support_units = 1;
    dice_per_stand(&oa, 4, 3);
    dice_per_stand(&ob, 3, 3);
    om_wm_engagement e = combat(ruleset, a, b);
    /* Shots hit on 4+ (chargers are never defended) and Knights save on 4+. */
    oracle ex = exact_round(&oa, &ob, 3, 0.25);
    compare(&e, &ex, false);
}

Test(combat, stand_and_shoot_supports_revolution) { check_stand_and_shoot("warmaster-revolution", 2); }

/* D6/A10: Warmaster 1.1 divides the retreat by engaged units only. The supports
 * come from another unit, so D5's timing does not change them. */
Test(combat, stand_and_shoot_supports_wm11_divisor) { check_stand_and_shoot("warmaster-1.1", 1); }

/* Defended infantry (Combat > Defended & Fortified Troops): hit on 5+, no
 * charge bonus against it; artillery forced to retreat is destroyed
 * (Combat > Retreats). */
Test(combat, defended_infantry_and_retreating_artillery)
{
    om_wm_side a = side_of(unit("Swordsmen", OM_WM_INFANTRY, 3, 3, 3, 5));
    om_wm_side b = side_of(unit("Cannon", OM_WM_ARTILLERY, 2, 1, 2, 0));
    oracle_side oa = {.stands = 3, .hits = 3, .losing_units = 1, .p = (2.0 / 6.0)};
    oracle_side ob = {.stands = 2, .hits = 2, .losing_units = 1, .p = 0.5 * 4.0 / 6.0,
                      .artillery = true};
    a.charging = true;
    b.position = OM_WM_DEFENDED;
    dice_per_stand(&oa, 3, 3); /* no charge bonus against a defended enemy */
    dice_per_stand(&ob, 1, 2);
    om_wm_engagement e = combat("warmaster-revolution", a, b);
    oracle ex = exact_round(&oa, &ob, 0, 0);
    compare(&e, &ex, false);
}

/* ---------- Attack dice modifiers (Combat > Attack Modifiers) ---------- */

Test(modifiers, charge_bonus_by_troop_and_ruleset)
{
    const om_wm_ruleset *rev = om_wm_ruleset_find("warmaster-revolution");
    const om_wm_ruleset *wma = om_wm_ruleset_find("warmaster-ancients");
    om_wm_side ch = side_of(unit("Chariots", OM_WM_CHARIOT, 3, 3, 3, 5));
    om_wm_side foe = side_of(unit("Foot", OM_WM_INFANTRY, 3, 3, 3, 0));
    ch.charging = true;
    /* W13: a chariot stand charging in the open gets +2; vs defended +0. */
    cr_expect_eq(om_wm_attack_dice(rev, &ch, &foe, 1, 0, 1), 5u);
    cr_expect_eq(om_wm_attack_dice(rev, &ch, &foe, 3, 0, 1), 15u);
    foe.position = OM_WM_DEFENDED;
    cr_expect_eq(om_wm_attack_dice(rev, &ch, &foe, 3, 0, 1), 9u);
    foe.position = OM_WM_OPEN;
    /* No charge bonus after the first round. */
    cr_expect_eq(om_wm_attack_dice(rev, &ch, &foe, 3, 0, 2), 9u);
    /* Ancients: light chariots get only the basic +1 (Warmaster Ancients,
     * Combat > Attack Modifiers). */
    cr_expect_eq(om_wm_attack_dice(wma, &ch, &foe, 3, 0, 1), 12u);
}

Test(modifiers, terror_confusion_flank_floor_and_last_ditch)
{
    const om_wm_ruleset *rev = om_wm_ruleset_find("warmaster-revolution");
    om_wm_side me = side_of(unit("Goblins", OM_WM_INFANTRY, 3, 2, 3, 0));
    om_wm_side foe = side_of(unit("Dragon", OM_WM_MONSTER, 3, 6, 6, 4));
    cr_expect_eq(om_wm_attack_dice(rev, &me, &foe, 3, 0, 1), 6u);
    foe.unit.traits.terror = true;      /* -1 against a terrifying enemy */
    cr_expect_eq(om_wm_attack_dice(rev, &me, &foe, 3, 0, 1), 3u);
    me.unit.traits.terror = true;       /* ...unless terrifying itself */
    cr_expect_eq(om_wm_attack_dice(rev, &me, &foe, 3, 0, 1), 6u);
    me.unit.traits.terror = false;
    me.confused = true;                 /* terror and confused: 2-1-1 = 0 */
    cr_expect_eq(om_wm_attack_dice(rev, &me, &foe, 3, 2, 1), 1u,
                 "every stand at 0 or below: one last-ditch die (A3)");
    me.confused = false;
    /* Flanked stands fight at -1, floored per stand (A4): 2-1 = 1 unflanked,
     * 2-1-1 = 0 on the two flanked stands. */
    cr_expect_eq(om_wm_attack_dice(rev, &me, &foe, 3, 2, 1), 1u);
    /* A character's +2 goes to the unflanked stand (A39): 1+2 = 3. */
    me.attack_bonus = 2;
    cr_expect_eq(om_wm_attack_dice(rev, &me, &foe, 3, 2, 1), 3u);
    /* All stands flanked: the bonus stand is flanked too: max(0, 2-2+2) = 2. */
    cr_expect_eq(om_wm_attack_dice(rev, &me, &foe, 2, 2, 1), 2u);
}

/* ---------- Worked examples of the rulebook (the digest's W-numbers) ---------- */

/* Count the faces at or above a score: how the rules read the dice. */
static unsigned count_at(const unsigned *faces, unsigned n, unsigned score)
{
    unsigned c = 0;
    for (unsigned i = 0; i < n; i++)
        c += faces[i] >= score;
    return c;
}

Test(worked_examples, w3_w4_w8_scores)
{
    const om_wm_ruleset *rev = om_wm_ruleset_find("warmaster-revolution");
    om_wm_side target = side_of(unit("Knights", OM_WM_CAVALRY, 3, 3, 3, 4));
    unsigned w3[] = {1, 4, 6}, w4[] = {2, 4, 5, 6}, w8[] = {1, 2, 2, 3, 4, 4, 6, 6};
    /* W3: shooting rolls 1,4,6 at an open target -> 2 hits. */
    cr_expect_eq(count_at(w3, 3, om_wm_to_hit_score(rev, &target)), 2u);
    /* W4: 4 hits on Knights (4+), saves 2,4,5,6 -> 3 saved, 1 hit. */
    cr_expect_eq(4u - count_at(w4, 4, om_wm_save_score(&target.unit, true)), 1u);
    /* W8: combat rolls 1,2,2,3,4,4,6,6 -> 4 hits. */
    cr_expect_eq(count_at(w8, 8, om_wm_to_hit_score(rev, &target)), 4u);
    /* Cavalry is never defended, whatever the scenario says (Shooting > Scores
     * to Hit). */
    target.position = OM_WM_DEFENDED;
    cr_expect_eq(om_wm_to_hit_score(rev, &target), 4u);
    target.unit.troop = OM_WM_INFANTRY;
    cr_expect_eq(om_wm_to_hit_score(rev, &target), 5u);
    target.position = OM_WM_FORTIFIED;
    cr_expect_eq(om_wm_to_hit_score(rev, &target), 6u);
    cr_expect_eq(om_wm_save_score(&target.unit, false), 7u, "no save allowed");
}

Test(worked_examples, w6_drive_back_dice)
{
    /* Defended: 1/2/3 hits -> 0/1/2 dice. Fortified: 1-2/3/4 hits -> 0/1/2. */
    cr_expect_eq(om_wm_drive_back_dice(1, OM_WM_DEFENDED), 0u);
    cr_expect_eq(om_wm_drive_back_dice(2, OM_WM_DEFENDED), 1u);
    cr_expect_eq(om_wm_drive_back_dice(3, OM_WM_DEFENDED), 2u);
    cr_expect_eq(om_wm_drive_back_dice(1, OM_WM_FORTIFIED), 0u);
    cr_expect_eq(om_wm_drive_back_dice(2, OM_WM_FORTIFIED), 0u);
    cr_expect_eq(om_wm_drive_back_dice(3, OM_WM_FORTIFIED), 1u);
    cr_expect_eq(om_wm_drive_back_dice(4, OM_WM_FORTIFIED), 2u);
    cr_expect_eq(om_wm_drive_back_dice(2, OM_WM_OPEN), 2u);
}

Test(worked_examples, w7_stand_and_shoot_stand_removal)
{
    /* W7: Knights (Hits 3) with 2 hits keep them; with 3 hits lose a stand. */
    unsigned stands = 3, carried = 0;
    cr_expect_eq(om_wm_record_hits(&stands, &carried, 3, 2), 0u);
    cr_expect_eq(stands, 3u);
    cr_expect_eq(carried, 2u);
    stands = 3;
    carried = 0;
    cr_expect_eq(om_wm_record_hits(&stands, &carried, 3, 3), 1u);
    cr_expect_eq(stands, 2u);
    cr_expect_eq(carried, 0u);
    /* Excess hits beyond the unit are not kept: 12 hits on 3x3 destroy it. */
    stands = 3;
    carried = 0;
    cr_expect_eq(om_wm_record_hits(&stands, &carried, 3, 12), 3u);
    cr_expect_eq(stands, 0u);
    cr_expect_eq(carried, 0u);
}

Test(worked_examples, w10_w11_retreat_and_w12_pursuit)
{
    cr_expect_eq(om_wm_retreat_cm(3, 1, 1), 2u);  /* W10 */
    cr_expect_eq(om_wm_retreat_cm(4, 1, 1), 3u);  /* W10 */
    cr_expect_eq(om_wm_retreat_cm(7, 1, 3), 2u);  /* W10: difference 6, 3 units */
    cr_expect_eq(om_wm_retreat_cm(13, 4, 2), 5u); /* W11: 9/2 = 4.5 -> 5 */
    cr_expect_eq(om_wm_retreat_cm(2, 1, 3), 1u);  /* minimum 1 */
    cr_expect_eq(om_wm_pursuit_bonus(6), 3u);     /* W12 */
    cr_expect_eq(om_wm_pursuit_bonus(2), 1u);
    cr_expect_eq(om_wm_pursuit_bonus(3), 2u);
    cr_expect_eq(om_wm_pursuit_bonus(5), 2u);
    cr_expect_eq(om_wm_pursuit_bonus(9), 4u);
}

/* W9 and W15 (Combat > Combat Results, A21): supports add to the result; hits
 * beyond what the unit can absorb do not count. Deterministic here: 12 attacks
 * against a unit with no armour hitting on 2+... is not a Warmaster score, so
 * instead a Hits-1 unit of 1 stand absorbs at most 1 hit: result = min(hits, 1)
 * + supports. */
Test(worked_examples, w9_w15_result_counts_supports_and_capacity)
{
    om_wm_side a = side_of(unit("Giants", OM_WM_INFANTRY, 3, 8, 8, 0));
    om_wm_side b = side_of(unit("Snotlings", OM_WM_INFANTRY, 1, 1, 1, 0));
    om_wm_prepared *p = NULL;
    om_dice d = {.plain = NULL};
    a.supports = 3;
    a.support_units = 1; /* three stands of another unit behind */
    om_wm_engagement e = combat("warmaster-revolution", a, b);
    cr_assert_eq(om_wm_prepare_alloc(&e, &p), OM_OK, "%s", om_error_message());
    om_rng_seed_block(&d.rng, 7, 0);
    for (int i = 0; i < 2000; i++) {
        om_wm_outcome o;
        om_wm_resolve(p, &d, &o);
        unsigned counted = o.hits_on[1] < 1 ? o.hits_on[1] : 1;
        cr_assert_eq(o.result[0], counted + 3, "result %u, hits %u", o.result[0], o.hits_on[1]);
        if (o.hits_on[1] > 0)
            cr_assert_eq(o.winner, OM_WM_SIDE_A, "the survivor wins automatically (Combat > Combat Results)");
    }
    om_wm_prepared_free(p);
}

/* ---------- Shooting volley with drive backs (Shooting > Driving Back Enemies) ---------- */

/* Distribution of the sum of `dice` dice with faces 1..`faces`, each face of
 * probability 1/6 (faces 5: the dice that show no 6), by repeated
 * convolution, in out[0..199]. */
static void dice_sum(unsigned dice, unsigned faces, double out[200])
{
    double sum_dist[2][200];
    memset(sum_dist, 0, sizeof sum_dist);
    sum_dist[0][0] = 1;
    for (unsigned k = 0; k < dice; k++) {
        double *from = sum_dist[k & 1], *to = sum_dist[(k + 1) & 1];
        memset(to, 0, sizeof sum_dist[0]);
        for (unsigned s = 0; s + 6 < 200; s++)
            for (unsigned f = 1; f <= faces; f++)
                to[s + f] += from[s] / 6.0;
    }
    memcpy(out, sum_dist[dice & 1], sizeof sum_dist[0]);
}

/* Exact P(routed) and P(confused) of a volley of n dice at probability p on a
 * unit (hits h per stand, s stands) at `position`, by convolution of the
 * drive-back dice. A routed unit is destroyed, never confused (wm.h): P(a 6
 * and a sum within pace) = P(sum <= pace) - P(no 6 and sum <= pace). */
static void exact_volley(unsigned n, double p, unsigned stands, unsigned hits,
                         om_wm_position position, unsigned pace, double *routed,
                         double *confused, double *destroyed)
{
    double all[200], no_six[200];
    *routed = *confused = *destroyed = 0;
    for (unsigned h = 0; h <= n; h++) {
        double ph = binom_pmf(n, h, p), p_stay = 0, p_stay_no_six = 0;
        unsigned dice = om_wm_drive_back_dice(h, position);
        if (h / hits >= stands) {
            *destroyed += ph;
            continue;
        }
        dice_sum(dice, 6, all);
        dice_sum(dice, 5, no_six);
        for (unsigned s = 0; s <= pace; s++) {
            p_stay += all[s];
            p_stay_no_six += no_six[s];
        }
        *routed += ph * (1.0 - p_stay);
        *destroyed += ph * (1.0 - p_stay);
        *confused += ph * (p_stay - p_stay_no_six);
    }
}

static void check_volley(om_wm_position position, unsigned shooters, bool plain)
{
    om_wm_side a = side_of(unit("Bowmen", OM_WM_INFANTRY, shooters, 3, 3, 0));
    om_wm_side b = side_of(unit("Spearmen", OM_WM_INFANTRY, 3, 3, 3, 5));
    om_wm_engagement e;
    om_wm_prepared *p = NULL;
    om_dice d;
    unsigned n = plain ? PLAIN_TRIALS : TRIALS;
    unsigned long routed = 0, confused = 0, destroyed = 0;
    double p_hit = position == OM_WM_OPEN ? 0.5 : position == OM_WM_DEFENDED ? 1.0 / 3 : 1.0 / 6;
    double ex_r, ex_c, ex_d;
    a.unit.shots = 2; /* two shots per stand so drive backs reach rout totals */
    a.unit.range_cm = 30;
    b.position = position;
    memset(&e, 0, sizeof e);
    e.rules = om_wm_ruleset_find("warmaster-revolution");
    e.kind = OM_WM_KIND_VOLLEY;
    e.side[0] = a;
    e.side[1] = b;
    cr_assert_eq(om_wm_prepare_alloc(&e, &p), OM_OK, "%s", om_error_message());
    om_rng_seed_block(&d.rng, 99, 3);
    d.plain = plain ? gsl_rng_alloc(gsl_rng_default) : NULL;
    for (unsigned i = 0; i < n; i++) {
        om_wm_outcome o;
        om_wm_resolve(p, &d, &o);
        routed += o.routed[1];
        confused += o.confused[1];
        destroyed += o.destroyed[1];
        cr_assert(!o.routed[1] || o.drive_back_cm == OM_WM_LEFT_TABLE_CM,
                  "a routed unit's drive back records that it left the table");
        cr_assert(!o.routed[1] || !o.confused[1], "a routed unit is not confused");
    }
    /* Armour 5+ saves a third of the hits: P(unsaved hit) = p_hit * 2/3. */
    exact_volley(shooters * 2, p_hit * 4.0 / 6.0, 3, 3, position, 20, &ex_r, &ex_c, &ex_d);
    expect_p("P(routed)", routed, n, ex_r);
    expect_p("P(confused)", confused, n, ex_c);
    expect_p("P(destroyed)", destroyed, n, ex_d);
    if (d.plain)
        gsl_rng_free(d.plain);
    om_wm_prepared_free(p);
}

Test(volley, drive_back_rout_confusion_open) { check_volley(OM_WM_OPEN, 6, false); }
Test(volley, drive_back_rout_confusion_defended) { check_volley(OM_WM_DEFENDED, 6, false); }
Test(volley, drive_back_rout_confusion_fortified) { check_volley(OM_WM_FORTIFIED, 6, false); }
Test(volley, drive_back_plain_dice) { check_volley(OM_WM_OPEN, 6, true); }

/* ---------- Validation ---------- */

Test(check, impossible_engagements_name_the_field)
{
    om_wm_side a = side_of(unit("Knights", OM_WM_CAVALRY, 3, 3, 3, 4));
    om_wm_side b = side_of(unit("Spearmen", OM_WM_INFANTRY, 3, 3, 3, 6));
    struct { const char *field; om_wm_engagement e; } cases[12];
    int n = 0;
    om_wm_check_failure why;
    a.charging = true;
    om_wm_engagement ok = combat("warmaster-revolution", a, b);
    cr_assert_eq(om_wm_engagement_check(&ok, &why), OM_OK, "%s", om_error_message());
#define CASE(path, stmt) do { cases[n].field = path; cases[n].e = ok; { om_wm_engagement *e = &cases[n].e; stmt; } n++; } while (0)
    CASE("a.unit.stands", e->side[0].unit.stands = 0);
    CASE("b.unit.armour", e->side[1].unit.armour = 1);
    CASE("b.unit.armour", e->side[1].unit.armour = 2);
    CASE("a.unit.hits", e->side[0].unit.hits = 0);
    CASE("a.fighting", e->side[0].fighting = 4);
    CASE("b.flanked", e->side[1].flanked = 4);
    CASE("a.supports", e->side[0].supports = 2);        /* cavalry cannot be supported */
    CASE("a.position", e->side[0].position = OM_WM_DEFENDED);
    CASE("a.charging", e->side[1].charging = true);     /* both charge: named at a */
    CASE("b.stand_and_shoot", e->side[1].stand_and_shoot = true); /* no shots */
    CASE("a.charging", e->side[1].position = OM_WM_FORTIFIED);    /* cavalry vs fortified */
    CASE("ruleset", e->rules = NULL);
#undef CASE
    for (int i = 0; i < n; i++) {
        cr_expect_eq(om_wm_engagement_check(&cases[i].e, &why), OM_EINVAL, "case %d", i);
        cr_expect_str_eq(why.field, cases[i].field, "case %d: %s", i, why.reason);
        cr_expect(strstr(om_error_message(), cases[i].field) != NULL, "message: %s",
                  om_error_message());
    }
}

/* ---------- Traits and the registry of special rules ---------- */

/* Every byte of om_wm_traits is described once, by a unique name; each
 * enumeration names all its values. */
Test(traits, descriptors_cover_the_struct)
{
    unsigned char seen[sizeof(om_wm_traits)] = {0};
    cr_assert_eq(om_wm_trait_count(), sizeof(om_wm_traits));
    for (size_t i = 0; i < om_wm_trait_count(); i++) {
        const om_wm_trait *d = om_wm_trait_at(i);
        cr_assert_lt(d->offset, sizeof(om_wm_traits), "%s", d->name);
        cr_expect_eq(seen[d->offset]++, 0, "%s shares a byte", d->name);
        cr_expect_eq(om_wm_trait_find(d->name), d, "%s: a unique name", d->name);
        cr_expect(d->meaning[0], "%s", d->name);
        for (unsigned v = 0; d->kind == OM_WM_TRAIT_ENUM && v < d->n_values; v++)
            cr_expect_not_null(om_wm_trait_value_name(d, (int)v), "%s value %u", d->name, v);
    }
    cr_expect_null(om_wm_trait_at(om_wm_trait_count()));
    cr_expect_null(om_wm_trait_find("rule_flags"));
    {
        /* The check refuses a kind the engine does not know. */
        om_wm_side a = side_of(unit("Guns", OM_WM_ARTILLERY, 2, 1, 2, 0));
        om_wm_side b = side_of(unit("Foot", OM_WM_INFANTRY, 3, 3, 3, 0));
        om_wm_engagement e = combat("warmaster-revolution", a, b);
        om_wm_check_failure why;
        e.side[0].unit.traits.shooter = OM_WM_SHOOTER_COUNT;
        cr_expect_eq(om_wm_engagement_check(&e, &why), OM_EINVAL);
        cr_expect_str_eq(why.field, "a.unit.rules");
        cr_expect(strstr(why.reason, "unknown shooter") != NULL, "%s", why.reason);
    }
}

/* Merging: flags or-ed, the larger modifier (no stacking), one-of-several
 * traits that must agree; a disagreement names the trait and changes
 * nothing. */
Test(traits, merge_compare_and_format)
{
    om_wm_traits t = {.terror = true, .charge_bonus_delta = +1};
    const om_wm_traits more = {.must_pursue = true, .charge_bonus_delta = +1,
                               .shooter = OM_WM_SHOOTER_CANNON};
    const om_wm_traits helblaster = {.shooter = OM_WM_SHOOTER_HELBLASTER};
    const om_wm_traits want = {.terror = true, .charge_bonus_delta = +1, .must_pursue = true,
                               .shooter = OM_WM_SHOOTER_CANNON};
    const om_wm_trait *conflict = NULL;
    char text[256];
    cr_assert(om_wm_traits_merge(&t, &more, &conflict));
    cr_expect(om_wm_traits_equal(&t, &want), "a repeated +1 does not stack");
    cr_expect_not(om_wm_traits_merge(&t, &helblaster, &conflict));
    cr_assert_not_null(conflict);
    cr_expect_str_eq(conflict->name, "shooter");
    cr_expect(om_wm_traits_equal(&t, &want), "unchanged after a disagreement");
    cr_expect(om_wm_traits_merge(&t, &(om_wm_traits){.drive_back_dice_delta = -1}, NULL));
    cr_expect_eq(t.drive_back_dice_delta, -1);
    om_wm_traits_format(&t, text, sizeof text);
    cr_expect_str_eq(text, "terror, charge_bonus_delta +1, shooter cannon, "
                           "drive_back_dice_delta -1, must_pursue");
    cr_expect(om_wm_traits_empty(&(om_wm_traits){0}));
    om_wm_traits_format(&(om_wm_traits){0}, text, sizeof text);
    cr_expect_str_eq(text, "none");
    cr_expect_eq(om_wm_traits_format(&want, text, 8), strlen("terror, charge_bonus_delta +1, "
                                                             "shooter cannon, must_pursue"),
                 "the length the whole text needs");
    cr_expect_str_eq(text, "terror,");
}

/* A row of its own for a rule set is there because that rule set's list
 * words the rule otherwise: it differs from the common traits. */
Test(traits, per_rule_set_rows_differ)
{
    size_t rows = 0;
    for (size_t i = 0; i < om_wm_special_count(); i++) {
        const om_wm_special *sp = om_wm_special_at(i);
        for (int r = 0; r < OM_WM_RULES_COUNT; r++) {
            const om_wm_ruleset *rs = om_wm_ruleset_get((om_wm_ruleset_id)r);
            if (sp->in[r] == NULL) {
                cr_expect_eq(om_wm_special_traits(sp, rs), &sp->traits);
                continue;
            }
            rows++;
            cr_expect_not(om_wm_traits_equal(sp->in[r], &sp->traits), "%s in %s", sp->id,
                          rs->name);
            cr_expect_eq(om_wm_special_traits(sp, rs), sp->in[r]);
        }
        cr_expect_eq(om_wm_special_traits(sp, NULL), &sp->traits);
    }
    cr_expect_eq(rows, 11u, "chaos-spawn, bears (2), dragons, greater-daemon, sphinx, "
                            "warp-lightning-cannon (2), trebuchet (2), salamanders");
    /* Two of them, worked: the 1.1 Warp Lightning Cannon rolls its Attacks,
     * Revolution's is confused by two 1s; Revolution's dragons are badly hurt
     * from one hit more. */
    cr_expect_eq(om_wm_special_traits(om_wm_special_find("warp-lightning-cannon"),
                                      om_wm_ruleset_find("warmaster-1.1"))->shooter,
                 OM_WM_SHOOTER_WARP_LIGHTNING);
    cr_expect(om_wm_special_traits(om_wm_special_find("warp-lightning-cannon"),
                                   om_wm_ruleset_find("warmaster-revolution"))
                  ->double_ones_confuse);
    cr_expect_eq(om_wm_special_traits(om_wm_special_find("dragons"),
                                      om_wm_ruleset_find("warmaster-revolution"))->hurt,
                 OM_WM_HURT_ABOVE_HALF);
}

/* A unit records each modelled rule once; a rule that disagrees with its
 * others, or one too many, is an error that leaves the unit as it was. */
Test(traits, unit_rules_are_recorded_once)
{
    const om_wm_ruleset *rev = om_wm_ruleset_find("warmaster-revolution");
    om_wm_unit u = unit("Guns", OM_WM_ARTILLERY, 2, 1, 2, 0);
    om_wm_unit before;
    cr_assert_eq(om_wm_unit_add_rule(&u, rev, om_wm_special_find("cannon")), OM_OK);
    cr_assert_eq(om_wm_unit_add_rule(&u, rev, om_wm_special_find("cannon")), OM_OK);
    cr_assert_eq(om_wm_unit_add_rule(&u, rev, om_wm_special_find("terror")), OM_OK);
    cr_expect_eq(u.rule_count, 2);
    cr_expect_eq(om_wm_special_at(u.rule[0]), om_wm_special_find("cannon"));
    cr_expect_eq(u.joined, 0);
    cr_expect(u.traits.terror && u.traits.line_fire && u.traits.shots_cover_one_lower);
    before = u;
    cr_expect_eq(om_wm_unit_add_rule(&u, rev, om_wm_special_find("helblaster")), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "'helblaster' disagrees") != NULL, "%s",
              om_error_message());
    cr_expect(strstr(om_error_message(), "shooter: helblaster against cannon") != NULL);
    cr_expect(memcmp(&u, &before, sizeof u) == 0);
    u = unit("Everything", OM_WM_INFANTRY, 3, 3, 3, 0);
    for (size_t i = 0, added = 0; i < om_wm_special_count(); i++) {
        const om_wm_special *sp = om_wm_special_at(i);
        om_wm_traits t = u.traits;
        if (!om_wm_traits_merge(&t, om_wm_special_traits(sp, rev), NULL))
            continue;
        if (added++ == OM_WM_UNIT_RULES_MAX) {
            cr_expect_eq(om_wm_unit_add_rule(&u, rev, sp), OM_EINVAL, "%s", sp->id);
            cr_expect(strstr(om_error_message(), "too many special rules") != NULL);
            break;
        }
        cr_assert_eq(om_wm_unit_add_rule(&u, rev, sp), OM_OK, "%s", om_error_message());
    }
    cr_expect_eq(u.rule_count, OM_WM_UNIT_RULES_MAX);
}

/* A character and its mount join a unit (Generals, Wizards & Heroes > Joining a
 * Unit; ): their
 * Attacks add up; terror, Hermann's die, Leonidas's armour and Ashurbanipal's
 * re-roll pass on; a Dragon's badly hurt stays with the monster; Dragon fire
 * or a Djinn shoot with the unit (the most Attacks); rules modelled through
 * side keys change nothing; any other rule is recorded as not modelled. */
Test(traits, a_character_joins)
{
    const om_wm_ruleset *wm11 = om_wm_ruleset_find("warmaster-1.1");
    const om_wm_ruleset *wma = om_wm_ruleset_find("warmaster-ancients");
    char *wizard[] = {"djinn"}, *dragon[] = {"dragons", "fly"}, *general[] = {"tomb-king"};
    char *hermann[] = {"hermann"}, *priest[] = {"flagellants"};
    om_wm_side s = side_of(unit("Knights", OM_WM_CAVALRY, 3, 3, 3, 4));
    cr_assert_eq(om_wm_side_join(&s, wm11, 2, wizard, 1), OM_OK);
    cr_expect_eq(s.attack_bonus, 2);
    cr_expect_eq(s.extra_shots, 2);
    cr_expect_eq(s.extra_range_cm, 30);
    cr_expect(s.unit.traits.terror);
    cr_assert_eq(om_wm_side_join(&s, wm11, 3, dragon, 2), OM_OK);
    cr_expect_eq(s.attack_bonus, 5);
    cr_expect_eq(s.extra_shots, 3, "Dragon fire, the most Attacks");
    cr_expect_eq(s.extra_range_cm, 20);
    cr_expect(om_wm_traits_equal(&s.unit.traits, &(om_wm_traits){.terror = true}),
              "terror only: a rider is never badly hurt");
    cr_expect_str_eq(s.unit.unmodelled, "fly");
    cr_expect_eq(s.unit.rule_count, 2);
    cr_expect_eq(s.unit.joined, 3u, "both recorded as joined");
    cr_assert_eq(om_wm_side_join(&s, wm11, 0, general, 1), OM_OK);
    cr_expect_eq(s.unit.rule_count, 2, "a power is declared with side keys");
    cr_expect_str_eq(s.unit.unmodelled, "fly");
    cr_assert_eq(om_wm_side_join(&s, wm11, 0, priest, 1), OM_OK);
    cr_expect_str_eq(s.unit.unmodelled, "fly, flagellants", "a unit's rule, not a leader's");
    cr_expect_not(s.unit.traits.must_pursue);
    s = side_of(unit("Warriors", OM_WM_INFANTRY, 3, 3, 3, 0));
    cr_assert_eq(om_wm_side_join(&s, wma, 2, hermann, 1), OM_OK);
    cr_expect_eq(s.unit.traits.charge_dice_delta, +1);
    cr_expect_eq(s.attack_bonus, 2);
    {
        om_wm_traits t;
        cr_expect_not(om_wm_join_traits(om_wm_special_find("flagellants"), wma, &t));
        cr_expect(om_wm_traits_empty(&t));
        cr_expect(om_wm_join_traits(om_wm_special_find("leonidas"), wma, &t));
        cr_expect_eq(t.save_delta_melee, -1);
        cr_expect(om_wm_join_traits(om_wm_special_find("ashurbanipal"), wma, &t));
        cr_expect(t.rerolls_a_miss);
    }
}

/* Caractacus (Warmaster Ancients, Britons army list > Special Rules; A29):
 * Britons Chariots cause terror in armies without Chariots; the enemy's army
 * has them if its unit is chariots or its list has a chariot unit. Only
 * Ancients has him, and he leads chariots. */
Test(traits, caractacus)
{
    const om_wm_ruleset *wma = om_wm_ruleset_find("warmaster-ancients");
    om_wm_side ch = side_of(unit("Chariots", OM_WM_CHARIOT, 3, 3, 3, 5));
    om_wm_side foot = side_of(unit("Warriors", OM_WM_INFANTRY, 3, 3, 3, 0));
    om_wm_side enemy_chariots = ch;
    cr_assert_eq(om_wm_side_caractacus(&ch, &foot, wma, true), OM_OK);
    cr_expect_not(ch.unit.traits.terror, "the enemy's list has chariots");
    cr_assert_eq(om_wm_side_caractacus(&ch, &enemy_chariots, wma, false), OM_OK);
    cr_expect_not(ch.unit.traits.terror, "the enemy is chariots");
    cr_assert_eq(om_wm_side_caractacus(&ch, &foot, wma, false), OM_OK);
    cr_expect(ch.unit.traits.terror);
    cr_expect_eq(om_wm_side_caractacus(&foot, &ch, wma, false), OM_EINVAL);
    cr_expect_str_eq(om_error_message(), "Caractacus leads Britons Chariots in Warmaster "
                                         "Ancients (this unit is infantry in "
                                         "warmaster-ancients)");
    ch.unit.traits.terror = false;
    cr_expect_eq(om_wm_side_caractacus(&ch, &foot, om_wm_ruleset_find("warmaster-revolution"),
                                       false), OM_EINVAL);
    cr_expect_not(ch.unit.traits.terror);
}

/* The army lists Witch Hunter Zealots hate as Chaos or Undead, and a
 * War Wagon's formation and fighting stands (Kislev lists). */
Test(traits, zealots_enemies_and_the_war_wagon)
{
    static const char *const hated[] = {"chaos", "daemons", "beastmen", "chaos-dwarfs",
                                        "skaven", "tomb-kings", "vampire-counts"};
    static const char *const others[] = {"empire", "dwarfs", "high-elves", "orcs", "lizardmen",
                                         "witch-hunter", "kislev", "araby"};
    om_wm_unit wagon = unit("War Wagon", OM_WM_ARTILLERY, 2, 4, 3, 4);
    for (size_t i = 0; i < sizeof hated / sizeof hated[0]; i++)
        cr_expect(om_wm_army_chaos_or_undead(hated[i]), "%s", hated[i]);
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        cr_expect_not(om_wm_army_chaos_or_undead(others[i]), "%s", others[i]);
    cr_expect_eq(om_wm_formation_default(&wagon), OM_WM_FORMATION_NONE);
    cr_expect_eq(om_wm_active_stands_default(&wagon), 2u);
    cr_assert_eq(om_wm_unit_add_rule(&wagon, NULL, om_wm_special_find("war-wagon")), OM_OK);
    cr_expect_eq(om_wm_formation_default(&wagon), OM_WM_FORMATION_COLUMN);
    cr_expect_eq(om_wm_active_stands_default(&wagon), 1u, "only the wagon stand");
    cr_expect_eq(wagon.traits.shots_save_delta, +1);
    wagon.troop = OM_WM_MACHINE;
    cr_expect_eq(om_wm_formation_default(&wagon), OM_WM_FORMATION_NONE);
}
