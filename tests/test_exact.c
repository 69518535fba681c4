/*
 * test_exact.c: exact laws (engine/core/enumerate.h, engine/core/exact.h and
 * the exact group of the game interface, scenarios/game.h).
 *
 * The enumerator against laws computed here by hand: one D6, sums of dice
 * with and without their sixes, counts at a threshold, a unit's hits, dice
 * whose number is itself rolled; and every way it refuses a trial it cannot
 * enumerate. Then each game's exact law against the rulebooks' worked
 * examples (the rules digests' W and E vectors), computed here from the
 * rules' probabilities; and, on every example scenario and the embedded
 * default, the exact law against a simulation with a fixed seed: every
 * P(field = v) within 5 standard errors, and no value the law says is
 * impossible ever drawn.
 */
#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "enumerate.h"
#include "exact.h"
#include "game.h"
#include "rng.h"
#include "exact_law.h"

/* How close an exact probability computed two ways must be: both are sums
 * of at most a few thousand products of doubles. */
#define TOL 1e-12

/* Trials of the simulation each example's exact law is checked against:
 * a standard error of at most 0.0011 on any probability, in well under a
 * second a scenario. */
#define AGREE_TRIALS 200000u

/* Trials per block of that simulation, as the driver cuts them. */
#define AGREE_BLOCK 16384u

/* The tolerance of the agreement, in standard errors (house rule). */
#define AGREE_SE 5.0

/* ------------------------------------------------------------ helpers */

/* The ways n D6 sum to s, over 6^n: by convolution, one die at a time. */
static double dice_sum(unsigned n, unsigned s)
{
    double law[6 * 8 + 1] = {1.0}, next[6 * 8 + 1];
    cr_assert_leq(n, 8u);
    for (unsigned m = 0; m < n; m++) {
        memset(next, 0, sizeof next);
        for (unsigned t = 0; t <= 6 * m; t++)
            for (unsigned f = 1; f <= 6; f++)
                next[t + f] += law[t] / 6.0;
        memcpy(law, next, sizeof law);
    }
    return s <= 6 * n ? law[s] : 0.0;
}

/* A layout of one-byte count fields named f0, f1, ... at offsets 0, 1, ... */
static void counts_layout(om_layout *l, size_t n)
{
    static const char *const names[] = {"f0", "f1", "f2", "f3"};
    memset(l, 0, sizeof *l);
    cr_assert_leq(n, 4u);
    l->row_size = n;
    l->field_count = n;
    for (size_t k = 0; k < n; k++)
        l->fields[k] = (om_field){.name = names[k], .description = names[k], .offset = k,
                                  .type = OM_FIELD_COUNT};
}

/* The exact law of `trial`, whose rows have n one-byte fields; fails the
 * test unless it is OM_OK. */
static om_exact *law_of(om_exact_trial trial, const void *ctx, size_t n)
{
    om_layout l;
    om_exact *x = NULL;
    counts_layout(&l, n);
    cr_assert_eq(om_exact_alloc(n, &x), OM_OK);
    cr_assert_eq(om_exact_enumerate(trial, ctx, &l, NULL, OM_EXACT_RUNS_MAX, x), OM_OK, "%s",
                 om_error_message());
    return x;
}

/* The status of enumerating `trial` with at most max_runs outcomes; the law
 * must be left unknown on failure. */
static om_status enumerate_status(om_exact_trial trial, const void *ctx, uint64_t max_runs)
{
    om_layout l;
    om_exact *x = NULL;
    om_status st;
    counts_layout(&l, 1);
    cr_assert_eq(om_exact_alloc(1, &x), OM_OK);
    st = om_exact_enumerate(trial, ctx, &l, NULL, max_runs, x);
    if (st != OM_OK)
        cr_expect(!x->known[0] && x->outcomes == 0, "a failed enumeration leaves no law");
    om_exact_free(x);
    return st;
}

/* ------------------------------------------------------- the enumerator */

static void one_d6(const void *ctx, om_dice *d, uint8_t *row)
{
    (void)ctx;
    row[0] = (uint8_t)om_dice_roll_d6(d);
}

Test(enumerate, one_die)
{
    om_exact *x = law_of(one_d6, NULL, 1);
    cr_expect_eq(x->outcomes, 6u);
    cr_expect_eq(om_exact_p(x, 0, 0), 0.0);
    for (unsigned f = 1; f <= 6; f++)
        cr_expect_float_eq(om_exact_p(x, 0, f), 1.0 / 6.0, TOL);
    cr_expect_float_eq(om_exact_mean(x, 0), 3.5, TOL);
    cr_expect_float_eq(om_exact_sd(x, 0), sqrt(35.0 / 12.0), TOL);
    cr_expect_eq(om_exact_max(x, 0), 6u);
    cr_expect_str_eq(x->method, "enumerating every outcome of the dice (6 outcomes)");
    om_exact_free(x);
}

/* ctx: the dice of one sum, and whether its sixes are counted. */
typedef struct sum_case {
    unsigned n;
    bool sixes;
} sum_case;

static void dice_sum_trial(const void *ctx, om_dice *d, uint8_t *row)
{
    const sum_case *c = ctx;
    unsigned sixes = 0;
    row[0] = (uint8_t)om_dice_roll_sum(d, c->n, c->sixes ? &sixes : NULL);
    row[1] = (uint8_t)sixes;
}

/* Sums of 2 and 3 D6 (command tests, fall backs: Warmaster Revolution,
 * Command > Command Penalties, Combat > Fall Backs; the digest's P(2D6 <= N)
 * table), and with their sixes the joint law a drive back reads (any 6
 * confuses: Shooting > Driving Back Enemies). */
Test(enumerate, sums_of_dice)
{
    const sum_case two = {2, false}, three = {3, false}, joint = {2, true}, four = {4, true};
    om_exact *x = law_of(dice_sum_trial, &two, 2);
    cr_expect_eq(x->outcomes, 11u, "2D6 answered as its 11 totals");
    for (unsigned s = 2; s <= 12; s++)
        cr_expect_float_eq(om_exact_p(x, 0, s), (6.0 - fabs(7.0 - s)) / 36.0, TOL, "2D6 = %u",
                           s);
    /* The digest's command table: P(2D6 <= 7) = 21/36, P(2D6 <= 9) = 30/36. */
    cr_expect_float_eq(1.0 - om_exact_at_least(x, 0, 8), 21.0 / 36.0, TOL);
    cr_expect_float_eq(1.0 - om_exact_at_least(x, 0, 10), 30.0 / 36.0, TOL);
    om_exact_free(x);

    x = law_of(dice_sum_trial, &three, 2);
    for (unsigned s = 3; s <= 18; s++)
        cr_expect_float_eq(om_exact_p(x, 0, s), dice_sum(3, s), TOL, "3D6 = %u", s);
    cr_expect_float_eq(om_exact_p(x, 0, 10), 27.0 / 216.0, TOL);
    om_exact_free(x);

    /* (sum, sixes) of 2D6: 7 is 1+6, 6+1 (one six) or 2+5, 5+2, 3+4, 4+3. */
    x = law_of(dice_sum_trial, &joint, 2);
    /* No six: 2..10; one: 7..11; two: 12. */
    cr_expect_eq(x->outcomes, 9u + 5u + 1u, "the (sum, sixes) pairs of 2D6");
    cr_expect_float_eq(om_exact_p(x, 1, 2), 1.0 / 36.0, TOL);
    cr_expect_float_eq(om_exact_p(x, 1, 1), 10.0 / 36.0, TOL);
    om_exact_free(x);

    /* W5 (Shooting > Driving Back Enemies): no 6 among the drive-back dice,
     * no confusion: P(at least one 6 among 4 dice) = 1 - (5/6)^4 = .5177. */
    x = law_of(dice_sum_trial, &four, 2);
    cr_expect_float_eq(om_exact_at_least(x, 1, 1), 1.0 - pow(5.0 / 6.0, 4), TOL);
    for (unsigned s = 4; s <= 24; s++)
        cr_expect_float_eq(om_exact_p(x, 0, s), dice_sum(4, s), TOL, "4D6 = %u", s);
    om_exact_free(x);
}

/* ctx: dice and the score they need. */
typedef struct count_case {
    unsigned n, threshold;
} count_case;

static void count_trial(const void *ctx, om_dice *d, uint8_t *row)
{
    const count_case *c = ctx;
    row[0] = (uint8_t)om_dice_roll_count(d, c->n, c->threshold);
}

/* W3 (Shooting > How to Calculate Casualties) and W8 (Combat > How to
 * Calculate Damage): 3 dice and 9 dice at 4+ in the open. */
Test(enumerate, counts_at_a_threshold)
{
    const count_case w3 = {3, 4}, w8 = {9, 4}, always = {5, 1}, never = {5, 7};
    om_exact *x = law_of(count_trial, &w3, 1);
    for (unsigned k = 0; k <= 3; k++)
        cr_expect_float_eq(om_exact_p(x, 0, k), binom_pmf(3, k, 0.5), TOL);
    om_exact_free(x);
    x = law_of(count_trial, &w8, 1);
    cr_expect_float_eq(om_exact_p(x, 0, 4), 126.0 / 512.0, TOL, "W8: 4 hits of 9 dice");
    for (unsigned k = 0; k <= 9; k++)
        cr_expect_float_eq(om_exact_p(x, 0, k), binom_pmf(9, k, 0.5), TOL);
    om_exact_free(x);
    x = law_of(count_trial, &always, 1);
    cr_expect_float_eq(om_exact_p(x, 0, 5), 1.0, TOL);
    om_exact_free(x);
    x = law_of(count_trial, &never, 1);
    cr_expect_float_eq(om_exact_p(x, 0, 0), 1.0, TOL);
    om_exact_free(x);
}

static void hits_trial(const void *ctx, om_dice *d, uint8_t *row)
{
    row[0] = (uint8_t)om_dice_hits(d, ctx, 8);
}

/* A unit's unsaved hits: W4 (Shooting > Armour): Knights' 4+ save; hit on
 * 4+, not saved on 4+: each die 1/2 x 1/2. The count is one answer, not one
 * per die. */
Test(enumerate, unsaved_hits)
{
    om_binom_table *table = NULL;
    om_dice_test t = {.to_hit = 4, .save = 4};
    om_exact *x;
    cr_assert_eq(om_binom_table_alloc(&table, om_dice_test_probability(4, 4), 8), OM_OK);
    t.pass = table;
    x = law_of(hits_trial, &t, 1);
    cr_expect_eq(x->outcomes, 9u);
    for (unsigned k = 0; k <= 8; k++)
        cr_expect_float_eq(om_exact_p(x, 0, k), binom_pmf(8, k, 0.25), TOL);
    om_exact_free(x);
    om_binom_table_free(table);
}

static void rolled_dice_trial(const void *ctx, om_dice *d, uint8_t *row)
{
    (void)ctx;
    row[0] = (uint8_t)om_dice_roll_d6(d);
    row[1] = (uint8_t)om_dice_roll_sum(d, row[0], NULL);
}

/* Dice whose number is itself rolled (a Flame Cannon's, a Pump Wagon's):
 * D6 dice of D6, whose total law is the mixture of the sums. */
Test(enumerate, dice_of_rolled_number)
{
    om_exact *x = law_of(rolled_dice_trial, NULL, 2);
    double total = 0.0;
    for (unsigned s = 1; s <= 36; s++) {
        double p = 0.0;
        for (unsigned n = 1; n <= 6; n++)
            p += dice_sum(n, s) / 6.0;
        cr_expect_float_eq(om_exact_p(x, 1, s), p, TOL, "total %u", s);
        total += om_exact_p(x, 1, s);
    }
    cr_expect_float_eq(total, 1.0, TOL);
    cr_expect_eq(x->outcomes, 6u + 11u + 16u + 21u + 26u + 31u);
    om_exact_free(x);
}

/* The answers an engine asks for directly. */
static void direct_trial(const void *ctx, om_dice *d, uint8_t *row)
{
    om_enum *e = om_enum_of(d);
    (void)ctx;
    cr_assert_not_null(e, "an enumerating dice source is one");
    row[0] = (uint8_t)om_enum_binomial(e, 0.3, 4);
    row[1] = om_enum_chance(e, 0.25);
    row[2] = (uint8_t)om_enum_uniform(e, 7);
    row[3] = (uint8_t)om_enum_chance(e, 1.0);
}

Test(enumerate, direct_answers)
{
    om_exact *x = law_of(direct_trial, NULL, 4);
    for (unsigned k = 0; k <= 4; k++)
        cr_expect_float_eq(om_exact_p(x, 0, k), binom_pmf(4, k, 0.3), TOL);
    cr_expect_float_eq(om_exact_p(x, 1, 1), 0.25, TOL);
    for (unsigned k = 0; k < 7; k++)
        cr_expect_float_eq(om_exact_p(x, 2, k), 1.0 / 7.0, TOL);
    cr_expect_float_eq(om_exact_p(x, 3, 1), 1.0, TOL, "an outcome of probability 0 never is");
    cr_expect_eq(x->outcomes, 5u * 2u * 7u);
    om_exact_free(x);
    {
        om_dice d = {.plain = NULL};
        cr_expect_null(om_enum_of(&d), "fast dice are not an enumerator");
    }
}

/* The refusals: every trial the enumerator cannot take is an error, never a
 * wrong law. */
static void fast_draw_trial(const void *ctx, om_dice *d, uint8_t *row)
{
    (void)ctx;
    row[0] = (uint8_t)om_dice_d6(&d->rng);
}

static void gsl_draw_trial(const void *ctx, om_dice *d, uint8_t *row)
{
    (void)ctx;
    row[0] = gsl_rng_uniform(d->plain) < 0.5;
}

static void until_six_trial(const void *ctx, om_dice *d, uint8_t *row)
{
    unsigned rolls = 1;
    (void)ctx;
    while (om_dice_roll_d6(d) != 6 && rolls < 10000)
        rolls++;
    row[0] = (uint8_t)(rolls > 255 ? 255 : rolls);
}

static void many_dice_trial(const void *ctx, om_dice *d, uint8_t *row)
{
    (void)ctx;
    row[0] = (uint8_t)(om_dice_roll_sum(d, OM_ENUM_DICE_MAX + 1u, NULL) & 0xffu);
}

/* A trial that is not a function of its dice: it asks for a die only on its
 * first run (ctx counts the runs). */
static void forgetful_trial(const void *ctx, om_dice *d, uint8_t *row)
{
    unsigned *runs = (unsigned *)(uintptr_t)ctx;
    row[0] = (*runs)++ == 0 ? (uint8_t)om_dice_roll_d6(d) : 0u;
}

Test(enumerate, refusals)
{
    unsigned runs = 0;
    om_enum *e = NULL;
    cr_expect_eq(enumerate_status(fast_draw_trial, NULL, OM_EXACT_RUNS_MAX), OM_EUNSUPPORTED);
    cr_expect(strstr(om_error_message(), "not a die the enumeration answers") != NULL, "%s",
              om_error_message());
    cr_expect_eq(enumerate_status(gsl_draw_trial, NULL, OM_EXACT_RUNS_MAX), OM_EUNSUPPORTED);
    cr_expect(strstr(om_error_message(), "continuous") != NULL, "%s", om_error_message());
    cr_expect_eq(enumerate_status(until_six_trial, NULL, OM_EXACT_RUNS_MAX), OM_EUNSUPPORTED);
    cr_expect(strstr(om_error_message(), "rolls dice more than") != NULL, "%s",
              om_error_message());
    cr_expect_eq(enumerate_status(many_dice_trial, NULL, OM_EXACT_RUNS_MAX), OM_EUNSUPPORTED);
    cr_expect(strstr(om_error_message(), "sums more than") != NULL, "%s", om_error_message());
    cr_expect_eq(enumerate_status(one_d6, NULL, 5), OM_EUNSUPPORTED);
    cr_expect(strstr(om_error_message(), "more than 5 outcomes") != NULL, "%s",
              om_error_message());
    cr_expect_eq(enumerate_status(one_d6, NULL, 6), OM_OK, "exactly as many runs as allowed");
    cr_expect_eq(enumerate_status(forgetful_trial, (void *)(uintptr_t)&runs, 100),
                 OM_EUNSUPPORTED);
    cr_expect(strstr(om_error_message(), "not a function of its dice") != NULL, "%s",
              om_error_message());
    cr_expect_eq(om_enum_alloc(0, &e), OM_EINVAL);
    cr_expect_null(e);
}

/* Only the fields asked for become known; a law that does not sum to 1 is
 * refused by the check. */
Test(exact, fields_and_check)
{
    om_layout l;
    om_exact *x = NULL;
    const sum_case two = {2, true};
    bool fields[OM_LAYOUT_FIELDS_MAX] = {false, true};
    counts_layout(&l, 2);
    cr_assert_eq(om_exact_alloc(2, &x), OM_OK);
    cr_assert_eq(om_exact_enumerate(dice_sum_trial, &two, &l, fields, OM_EXACT_RUNS_MAX, x),
                 OM_OK);
    cr_expect(!x->known[0] && x->known[1]);
    cr_expect_eq(om_exact_known_count(x), 1u);
    cr_expect_float_eq(om_exact_p(x, 1, 0), 25.0 / 36.0, TOL);
    cr_expect_eq(om_exact_p(x, 0, 7), 0.0, "an unknown field stays zero");
    cr_expect_eq(om_exact_check(x, &l, "law"), OM_OK);
    x->p[1 * OM_EXACT_VALUES + 0] = 0.5;
    cr_expect_eq(om_exact_check(x, &l, "law"), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "law: the probabilities of f1 sum to") != NULL, "%s",
              om_error_message());
    om_exact_free(x);
    cr_expect_eq(om_exact_alloc(OM_LAYOUT_FIELDS_MAX + 1, &x), OM_EINVAL);
}

/* --------------------------------------------------- the games' laws */

/* A scenario, prepared, and its exact law (status in *st). */
typedef struct prepared_law {
    om_scenario *sc;
    om_trials t;
    om_exact *x;
    om_status st;
} prepared_law;

static void prepare_law(prepared_law *pl, const char *source, const char *text)
{
    memset(pl, 0, sizeof *pl);
    cr_assert_eq(om_scenario_load_text(source, text, strlen(text), &pl->sc), OM_OK, "%s: %s",
                 source, om_error_message());
    cr_assert_eq(om_trials_prepare(pl->sc, &pl->t), OM_OK, "%s: %s", source,
                 om_error_message());
    pl->st = om_trials_exact(&pl->t, &pl->x);
    cr_assert_not_null(pl->x, "%s: a law, known or not, on %s", source,
                       om_status_name(pl->st));
}

static void release_law(prepared_law *pl)
{
    om_exact_free(pl->x);
    om_trials_release(&pl->t);
    om_scenario_free(pl->sc);
}

/* The field `name` of the law's layout (fails the test if absent). */
static size_t field(const prepared_law *pl, const char *name)
{
    int k = om_layout_find(&pl->t.layout, name);
    cr_assert_geq(k, 0, "no field %s", name);
    return (size_t)k;
}

/* P(field name = v) of the law (the field must be known). */
static double law_p(const prepared_law *pl, const char *name, unsigned v)
{
    size_t k = field(pl, name);
    cr_assert(pl->x->known[k], "%s has an exact law", name);
    return om_exact_p(pl->x, k, v);
}

/*
 * Warmaster Revolution, Combat > How to Calculate Damage (W8: 3 stands of
 * Attack 3 roll 9 dice, 4+ in the open) and Combat > Supporting Troops (W9:
 * each supporting stand adds 1 to the result, the hits stay the hits): two
 * units of 3 stands of Attack 3, no armour, neither charging; B has 3
 * supporting stands. Each side's hits are Bin(9, 1/2); B's result is its
 * hits + 3; A wins when its hits exceed B's by more than 3, draws when by 3.
 */
Test(warmaster, combat_damage_and_supports)
{
    static const char text[] = "schema: oddsmaster-scenario/1\n"
                               "ruleset: warmaster-revolution\n"
                               "kind: combat\n"
                               "a:\n"
                               "  unit: {name: Swordsmen, type: infantry, stands: 3, attacks: 3,"
                               " hits: 4, armour: none}\n"
                               "b:\n"
                               "  unit: {name: Spearmen, type: infantry, stands: 3, attacks: 3,"
                               " hits: 4, armour: none}\n"
                               "  supports: 3\n"
                               "  support_units: 1\n";
    prepared_law pl;
    double win = 0.0, draw = 0.0;
    prepare_law(&pl, "w8.yaml", text);
    cr_assert_eq(pl.st, OM_OK, "%s", om_error_message());
    cr_expect_eq(om_exact_known_count(pl.x), pl.t.layout.field_count, "every field of a combat");
    cr_expect_str_eq(pl.x->reason, "");
    cr_expect_float_eq(law_p(&pl, "hits_on_b", 4), 126.0 / 512.0, TOL, "W8: 4 hits of 9 dice");
    for (unsigned k = 0; k <= 9; k++) {
        cr_expect_float_eq(law_p(&pl, "hits_on_a", k), binom_pmf(9, k, 0.5), TOL);
        cr_expect_float_eq(law_p(&pl, "hits_on_b", k), binom_pmf(9, k, 0.5), TOL);
        cr_expect_float_eq(law_p(&pl, "result_a", k), binom_pmf(9, k, 0.5), TOL);
        cr_expect_float_eq(law_p(&pl, "result_b", k + 3), binom_pmf(9, k, 0.5), TOL,
                           "W9: result %u = %u hits + 3 supports", k + 3, k);
    }
    for (unsigned ha = 0; ha <= 9; ha++)
        for (unsigned hb = 0; hb <= 9; hb++) {
            const double p = binom_pmf(9, ha, 0.5) * binom_pmf(9, hb, 0.5);
            win += ha > hb + 3 ? p : 0.0;
            draw += ha == hb + 3 ? p : 0.0;
        }
    cr_expect_float_eq(law_p(&pl, "winner", OM_WINNER_A), win, TOL);
    cr_expect_float_eq(law_p(&pl, "winner", OM_WINNER_DRAW), draw, TOL);
    cr_expect_float_eq(law_p(&pl, "winner", OM_WINNER_B), 1.0 - win - draw, TOL);
    release_law(&pl);
}

/*
 * Warmaster Revolution, Shooting: 3 stands of Bowmen shoot 3 dice, 4+ to hit
 * (W3, How to Calculate Casualties); Knights save on 4+ (W4, Armour); each hit
 * is a drive-back die, and any 6 confuses (W5, Driving Back Enemies). So the
 * hits are Bin(3, 1/4); h hits drive the Knights back hD6 cm (their 30cm pace
 * is beyond 18: never routed) and confuse them with 1 - (5/6)^h; 3 hits (their
 * Hits) remove a stand.
 */
Test(warmaster, volley_hits_drive_backs_and_confusion)
{
    static const char text[] = "schema: oddsmaster-scenario/1\n"
                               "ruleset: warmaster-revolution\n"
                               "kind: volley\n"
                               "a:\n"
                               "  unit: {name: Bowmen, type: infantry, stands: 3, attacks: 3,"
                               " shots: 1, range: 30, hits: 3, armour: none}\n"
                               "b:\n"
                               "  unit: {name: Knights, type: cavalry, stands: 3, attacks: 3,"
                               " hits: 3, armour: 4+}\n";
    prepared_law pl;
    double confused = 0.0;
    prepare_law(&pl, "w4.yaml", text);
    cr_assert_eq(pl.st, OM_OK, "%s", om_error_message());
    cr_expect_eq(om_exact_known_count(pl.x), pl.t.layout.field_count, "every field of a volley");
    for (unsigned h = 0; h <= 3; h++) {
        cr_expect_float_eq(law_p(&pl, "hits_on_b", h), binom_pmf(3, h, 0.25), TOL);
        confused += binom_pmf(3, h, 0.25) * (1.0 - pow(5.0 / 6.0, h));
    }
    /* W5: 2 hits, 3 and 4 on the dice, 7cm: P(drive back = 7) over the hits. */
    cr_expect_float_eq(law_p(&pl, "drive_back_cm", 7),
                       binom_pmf(3, 2, 0.25) * dice_sum(2, 7) +
                           binom_pmf(3, 3, 0.25) * dice_sum(3, 7),
                       TOL);
    for (unsigned cm = 1; cm <= 18; cm++) {
        double p = 0.0;
        for (unsigned h = 1; h <= 3; h++)
            p += binom_pmf(3, h, 0.25) * dice_sum(h, cm);
        cr_expect_float_eq(law_p(&pl, "drive_back_cm", cm), p, TOL, "driven back %u cm", cm);
    }
    cr_expect_float_eq(law_p(&pl, "drive_back_cm", 0), pow(0.75, 3), TOL);
    cr_expect_float_eq(law_p(&pl, "confused_b", 1), confused, TOL);
    cr_expect_float_eq(law_p(&pl, "routed_b", 0), 1.0, TOL);
    cr_expect_float_eq(law_p(&pl, "stands_lost_b", 1), 1.0 / 64.0, TOL);
    release_law(&pl);
}

/* An engagement's law is its first round's only, and a turn has none. */
Test(warmaster, engagement_first_round_and_turn)
{
    static const char engagement[] = "schema: oddsmaster-scenario/1\n"
                                     "ruleset: warmaster-revolution\n"
                                     "kind: engagement\n"
                                     "a:\n"
                                     "  unit: {name: Swordsmen, type: infantry, stands: 3,"
                                     " attacks: 3, hits: 4, armour: none}\n"
                                     "b:\n"
                                     "  unit: {name: Spearmen, type: infantry, stands: 3,"
                                     " attacks: 3, hits: 4, armour: none}\n";
    const om_game *wm = om_game_for_ruleset("warmaster-revolution");
    prepared_law pl;
    double win = 0.0;
    prepare_law(&pl, "engagement.yaml", engagement);
    cr_assert_eq(pl.st, OM_OK, "%s", om_error_message());
    cr_expect_eq(om_exact_known_count(pl.x), 4u);
    cr_expect(pl.x->known[field(&pl, "round1_winner")] && pl.x->known[field(&pl, "result_a")] &&
              pl.x->known[field(&pl, "result_b")] && pl.x->known[field(&pl, "charged")]);
    cr_expect(!pl.x->known[field(&pl, "winner")] && !pl.x->known[field(&pl, "rounds")]);
    cr_expect(strstr(pl.x->reason, "rounds and turns after the first") != NULL, "%s",
              pl.x->reason);
    for (unsigned ha = 0; ha <= 9; ha++)
        for (unsigned hb = 0; hb < ha; hb++)
            win += binom_pmf(9, ha, 0.5) * binom_pmf(9, hb, 0.5);
    cr_expect_float_eq(law_p(&pl, "round1_winner", OM_WINNER_A), win, TOL);
    release_law(&pl);

    for (size_t k = 0; k < wm->identity.n_kinds; k++)
        if (strcmp(wm->identity.kinds[k].name, "turn") == 0) {
            prepare_law(&pl, "turn.yaml", wm->identity.kinds[k].sample);
            cr_expect_eq(pl.st, OM_EUNSUPPORTED);
            cr_expect_eq(om_exact_known_count(pl.x), 0u);
            cr_expect(strstr(pl.x->reason, "whole turn") != NULL, "%s", pl.x->reason);
            cr_expect_str_eq(pl.x->method, "");
            release_law(&pl);
        }
}

/* P(2D6 <= n), counted over the 36 rolls. */
static double two_d6_at_most(int n)
{
    unsigned ways = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++)
            ways += a + b <= n;
    return ways / 36.0;
}

/*
 * WHFB 7th edition, Close Combat: five models against five, one rank each,
 * WS3 S3 T3 A1 and no armour: every blow hits on 4+ and wounds on 4+
 * (1/4 a blow, E16: one die a model). A charged, so it strikes first (Who
 * Strikes First?): it slays K_A ~ Bin(5, 1/4), and B's survivors strike
 * back, K_B ~ Bin(5 - K_A, 1/4). Combat Result (E17, E18): the wounds, and
 * +1 for outnumbering (neither has a second rank): the side that slew more
 * wins by the difference plus one; equal kills draw. Break Tests (E19): the
 * loser breaks on 2D6 + difference above its Ld 7, but never on a double 1
 * (Insane Courage!, E20). Flee! and Pursue: the winner pursues; both roll
 * 2D6 and a pursuit at least the flight catches (digest A9).
 */
Test(whfb7, first_round_break_test_and_pursuit)
{
    static const char text[] = "schema: oddsmaster-scenario/1\n"
                               "ruleset: whfb7\n"
                               "kind: combat\n"
                               "a:\n"
                               "  unit: {name: Left, models: 5, m: 4, ws: 3, bs: 3, s: 3, t: 3,"
                               " w: 1, i: 3, a: 1, ld: 7}\n"
                               "  charging: true\n"
                               "b:\n"
                               "  unit: {name: Right, models: 5, m: 4, ws: 3, bs: 3, s: 3, t: 3,"
                               " w: 1, i: 3, a: 1, ld: 7}\n";
    prepared_law pl;
    double win = 0.0, draw = 0.0, broke[2] = {0.0, 0.0}, equal = 0.0;
    double result_a[12] = {0.0};
    prepare_law(&pl, "wh7-combat.yaml", text);
    cr_assert_eq(pl.st, OM_OK, "%s", om_error_message());
    cr_expect_eq(om_exact_known_count(pl.x), pl.t.layout.field_count, "every field of a combat");
    for (unsigned ka = 0; ka <= 5; ka++)
        for (unsigned kb = 0; kb <= 5 - ka; kb++) {
            const double p = binom_pmf(5, ka, 0.25) * binom_pmf(5 - ka, kb, 0.25);
            /* A side wiped out loses without a test (its foe needs no one
             * left to break). */
            const double hold = two_d6_at_most(7 - (int)(ka > kb ? ka + 1 - kb : kb + 1 - ka));
            const double insane = 1.0 / 36.0;
            result_a[ka + (ka > kb)] += p;
            if (ka > kb) {
                win += p;
                if (ka < 5)
                    broke[1] += p * (1.0 - (hold > insane ? hold : insane));
            } else if (ka == kb) {
                draw += p;
            } else if (kb < 5) {
                broke[0] += p * (1.0 - (hold > insane ? hold : insane));
            }
        }
    cr_expect_float_eq(law_p(&pl, "winner", OM_WINNER_A), win, TOL);
    cr_expect_float_eq(law_p(&pl, "winner", OM_WINNER_DRAW), draw, TOL);
    cr_expect_float_eq(law_p(&pl, "winner", OM_WINNER_B), 1.0 - win - draw, TOL);
    for (unsigned r = 0; r <= 6; r++)
        cr_expect_float_eq(law_p(&pl, "result_a", r), result_a[r], TOL, "result_a = %u", r);
    cr_expect_float_eq(law_p(&pl, "broke_a", 1), broke[0], TOL);
    cr_expect_float_eq(law_p(&pl, "broke_b", 1), broke[1], TOL);
    /* Caught: P(pursuit 2D6 >= flight 2D6) = (1 + P(equal)) / 2. */
    for (unsigned s = 2; s <= 12; s++)
        equal += dice_sum(2, s) * dice_sum(2, s);
    cr_expect_float_eq(equal, 146.0 / 1296.0, TOL);
    cr_expect_float_eq(law_p(&pl, "caught_b", 1), broke[1] * (1.0 + equal) / 2.0, TOL);
    cr_expect_float_eq(law_p(&pl, "fled_b", 1), broke[1] * (1.0 - equal) / 2.0, TOL);
    cr_expect_float_eq(law_p(&pl, "destroyed_b", 1),
                       binom_pmf(5, 5, 0.25) + broke[1] * (1.0 + equal) / 2.0, TOL,
                       "wiped out in the round, or caught");
    release_law(&pl);
}

/*
 * WHFB 7th edition, Shooting: five archers BS3 hit on 4+ (E7, Rolling to
 * Hit), a bow's S3 wounds T3 on 4+ (E10's chain, Rolling to Wound), no
 * armour: Bin(5, 1/2) hits and Bin(5, 1/4) slain. Panic > 25% Casualties
 * (E24): 5 of 20 Goblins slain makes them test Ld 6, failing on 7+ (21/36),
 * and flee. The volley's headline: A wins when the target flees, draws when
 * it is wounded and holds, loses when it is unharmed.
 */
Test(whfb7, volley_and_panic)
{
    static const char text[] = "schema: oddsmaster-scenario/1\n"
                               "ruleset: whfb7\n"
                               "kind: volley\n"
                               "a:\n"
                               "  unit: {name: Archers, models: 5, m: 4, ws: 3, bs: 3, s: 3,"
                               " t: 3, w: 1, i: 3, a: 1, ld: 7, equipment: {missile: bow}}\n"
                               "b:\n"
                               "  unit: {name: Goblins, models: 20, m: 4, ws: 2, bs: 3, s: 3,"
                               " t: 3, w: 1, i: 2, a: 1, ld: 6}\n";
    const double panic = binom_pmf(5, 5, 0.25) * (1.0 - two_d6_at_most(6));
    prepared_law pl;
    prepare_law(&pl, "wh7-volley.yaml", text);
    cr_assert_eq(pl.st, OM_OK, "%s", om_error_message());
    for (unsigned k = 0; k <= 5; k++) {
        cr_expect_float_eq(law_p(&pl, "hits_b", k), binom_pmf(5, k, 0.5), TOL);
        cr_expect_float_eq(law_p(&pl, "slain_b", k), binom_pmf(5, k, 0.25), TOL);
    }
    cr_expect_float_eq(panic, 21.0 / 36.0 / 1024.0, TOL);
    cr_expect_float_eq(law_p(&pl, "panicked_b", 1), panic, TOL);
    cr_expect_float_eq(law_p(&pl, "fled_b", 1), panic, TOL);
    cr_expect_float_eq(law_p(&pl, "winner", OM_WINNER_A), panic, TOL);
    cr_expect_float_eq(law_p(&pl, "winner", OM_WINNER_B), pow(0.75, 5), TOL);
    cr_expect_float_eq(law_p(&pl, "winner", OM_WINNER_DRAW), 1.0 - pow(0.75, 5) - panic, TOL);
    release_law(&pl);
}

/* A war machine's guess and scatter are continuous draws: no law, and why. */
Test(whfb7, stone_thrower_has_no_law)
{
    static const char text[] = "schema: oddsmaster-scenario/1\n"
                               "ruleset: whfb7\n"
                               "kind: volley\n"
                               "a:\n"
                               "  unit: {profile: rulebook-example-characteristics-man,"
                               " troop: war-machine, models: 3}\n"
                               "  machine: stone-thrower\n"
                               "  target_in: 32\n"
                               "  guess_in: 30\n"
                               "b:\n"
                               "  unit: {from: ogre-kingdoms/ogre-bulls}\n";
    prepared_law pl;
    prepare_law(&pl, "lobber.yaml", text);
    cr_expect_eq(pl.st, OM_EUNSUPPORTED);
    cr_expect_eq(om_exact_known_count(pl.x), 0u);
    cr_expect(strstr(pl.x->reason, "continuous") != NULL, "%s", pl.x->reason);
    release_law(&pl);
}

/* ------------------------------------- exact against simulated, 5 SE */

/*
 * Simulate AGREE_TRIALS trials of pl's scenario with seed 1, as the driver
 * draws them, and check every value of every field with an exact law: its
 * count within 5 standard errors of the exact expectation (plus one trial,
 * for values so rare that a single trial is many standard errors), and
 * none drawn at a value the law says is impossible. Returns the fields
 * checked.
 */
static size_t agree(const char *name, const prepared_law *pl)
{
    const om_layout *l = &pl->t.layout;
    const om_game_trial_methods *m = pl->t.game->trials;
    uint8_t *rows = malloc((size_t)AGREE_BLOCK * l->row_size);
    uint64_t (*count)[OM_EXACT_VALUES] = calloc(l->field_count, sizeof *count);
    void *work = NULL;
    size_t checked = 0;
    cr_assert(rows != NULL && count != NULL);
    if (m->work_alloc != NULL)
        cr_assert_eq(m->work_alloc(pl->t.prepared, &work), OM_OK);
    for (uint64_t b = 0; b * AGREE_BLOCK < AGREE_TRIALS; b++) {
        const size_t n = AGREE_TRIALS - b * AGREE_BLOCK < AGREE_BLOCK
                             ? (size_t)(AGREE_TRIALS - b * AGREE_BLOCK) : AGREE_BLOCK;
        om_dice d = {.plain = NULL};
        om_rng_seed_block(&d.rng, 1, b);
        m->resolve_block(pl->t.prepared, work, &d, rows, n);
        for (size_t i = 0; i < n; i++)
            for (size_t k = 0; k < l->field_count; k++)
                if (pl->x->known[k])
                    count[k][rows[i * l->row_size + l->fields[k].offset]]++;
    }
    for (size_t k = 0; k < l->field_count; k++) {
        if (!pl->x->known[k])
            continue;
        checked++;
        for (unsigned v = 0; v < OM_EXACT_VALUES; v++) {
            const double p = om_exact_p(pl->x, k, v), n = AGREE_TRIALS;
            /* A certain value's p may sum to 1 + an ulp. */
            const double se = sqrt(n * p * fmax(0.0, 1.0 - p));
            if (p == 0.0)
                cr_expect_eq(count[k][v], 0u, "%s: %s = %u drawn %llu times, impossible by "
                             "its exact law", name, l->fields[k].name, v,
                             (unsigned long long)count[k][v]);
            else
                cr_expect_leq(fabs((double)count[k][v] - n * p), AGREE_SE * se + 1.0,
                              "%s: %s = %u drawn %llu times in %u, exact P %.9f (%.1f SE)",
                              name, l->fields[k].name, v, (unsigned long long)count[k][v],
                              AGREE_TRIALS, p, fabs((double)count[k][v] - n * p) / se);
        }
    }
    if (m->work_free != NULL)
        m->work_free(work);
    free(count);
    free(rows);
    return checked;
}

/* Read a whole file; fails the test if it cannot. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text;
    long n;
    cr_assert_not_null(f, "%s", path);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = malloc((size_t)n + 1);
    cr_assert_not_null(text);
    cr_assert_eq(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* A scenario's exact law, which every example that is not a whole turn has,
 * agrees with its simulation: of every one-byte field for a combat, a
 * volley or a spell, of the first round's four for an engagement. */
static void check_example(const char *name, const char *text)
{
    prepared_law pl;
    size_t one_byte = 0;
    prepare_law(&pl, name, text);
    for (size_t k = 0; k < pl.t.layout.field_count; k++)
        one_byte += pl.t.layout.fields[k].type != OM_FIELD_COUNT16;
    if (strcmp(pl.sc->kind, "turn") == 0) {
        cr_expect_eq(pl.st, OM_EUNSUPPORTED, "%s", name);
    } else {
        cr_expect_eq(pl.st, OM_OK, "%s: %s", name, pl.x->reason);
        cr_expect_eq(agree(name, &pl),
                     strcmp(pl.sc->kind, "engagement") == 0 ? 4u : one_byte, "%s: fields", name);
    }
    release_law(&pl);
}

Test(agreement, embedded_default)
{
    om_scenario *sc = NULL;
    cr_assert_eq(om_scenario_load_default(&sc), OM_OK);
    check_example(OM_SCENARIO_DEFAULT_NAME, sc->text);
    om_scenario_free(sc);
}

Test(agreement, every_example, .timeout = 600)
{
    const char *dir = OM_SOURCE_ROOT "/scenarios/examples";
    DIR *d = opendir(dir);
    struct dirent *e;
    unsigned examples = 0;
    cr_assert_not_null(d, "%s", dir);
    while ((e = readdir(d)) != NULL) {
        char path[1024];
        char *text;
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".yaml") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        text = read_text(path);
        check_example(e->d_name, text);
        free(text);
        examples++;
    }
    closedir(d);
    cr_expect_geq(examples, 10u, "the examples of both games");
}
