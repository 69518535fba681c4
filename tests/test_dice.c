/*
 * test_dice.c: Criterion tests of engine/core/dice (exact dice, batched dice,
 * binomial alias tables and the om_dice source).
 *
 * Every sampler is compared at a fixed seed with its exact distribution, computed
 * here from first principles (convolution of D6 faces, gsl_ran_binomial_pdf), by a
 * chi-square goodness-of-fit test; a test fails when the p-value is below the
 * two-sided 5-sigma tail. The derived rules tables of the Warmaster digest
 * (scenarios/armies/sources/rules/warmaster.md: command tests, drive backs) are
 * checked against exact convolution, and every error path of om_binom_table_alloc
 * that can be provoked portably is provoked.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <criterion/criterion.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "dice.h"
#include "rng.h"
#include "status.h"

/* A correct sampler fails a goodness-of-fit test with probability P_MIN: the
 * two-sided tail beyond 5 standard deviations of a normal, 2 (1 - Phi(5)) =
 * 5.733e-7, the same risk as the 5-sigma bounds on means of the other tests. */
#define P_MIN 5.7e-7
/* Tolerance of the mean and proportion checks, in standard errors. */
#define Z_TOL 5.0
/* Cochran's rule for the chi-square approximation: merge adjacent outcomes until
 * every bin expects at least 5 observations. */
#define MIN_EXPECTED 5.0
/* Largest number of outcomes the goodness-of-fit helper accepts. */
#define MAX_OUTCOMES 1024u
/* Largest number of dice whose sum distribution the tests build. */
#define MAX_DICE 64u
/* Samples per distribution. A relative bias of 5 % in an outcome of probability
 * 0.05, or of 1.5 % in one of probability 0.5, is then 5 standard errors, and
 * the whole program runs in about 2 s on the 2-core CI machine. */
#define SAMPLES 200000u

/* GSL must report errors through return values, never abort. */
static void gsl_quiet(void)
{
    gsl_set_error_handler_off();
}

TestSuite(d6, .init = gsl_quiet);
TestSuite(count_at_least, .init = gsl_quiet);
TestSuite(dice_sum, .init = gsl_quiet);
TestSuite(rules_tables, .init = gsl_quiet);
TestSuite(binom, .init = gsl_quiet);
TestSuite(binom_table, .init = gsl_quiet);
TestSuite(dice_source, .init = gsl_quiet);

/* A generator for one test, seeded as the simulator seeds block `block`. */
static om_rng test_rng(uint64_t block)
{
    om_rng r;
    om_rng_seed_block(&r, 0x5eed0dd5u, block);
    return r;
}

/*
 * Chi-square goodness of fit of `count[0..k-1]` (n observations in all) to the
 * exact probabilities prob[0..k-1]. Adjacent outcomes are merged until each bin
 * expects at least MIN_EXPECTED; a remainder at the end joins the last bin.
 * Expects p >= P_MIN, and no observation at all of an outcome of probability 0.
 * `what` names the case in failure messages.
 */
static void expect_fit(const char *what, const double *count, const double *prob,
                       size_t k, double n)
{
    double bin_obs[MAX_OUTCOMES], bin_exp[MAX_OUTCOMES];
    double acc_obs = 0.0, acc_exp = 0.0, total_prob = 0.0, stat = 0.0, p;
    size_t bins = 0;

    cr_assert(k <= MAX_OUTCOMES, "%s: %zu outcomes", what, k);
    for (size_t i = 0; i < k; i++) {
        cr_expect(prob[i] > 0.0 || count[i] == 0.0,
                  "%s: outcome %zu of probability 0 seen %.0f times", what, i, count[i]);
        total_prob += prob[i];
        acc_obs += count[i];
        acc_exp += prob[i] * n;
        if (acc_exp >= MIN_EXPECTED) {
            bin_obs[bins] = acc_obs;
            bin_exp[bins] = acc_exp;
            bins++;
            acc_obs = acc_exp = 0.0;
        }
    }
    cr_assert(fabs(total_prob - 1.0) < 1e-9, "%s: probabilities sum to %.15g",
              what, total_prob);
    if (bins == 0) {
        /* Fewer than MIN_EXPECTED expected in all: nothing to test statistically. */
        return;
    }
    bin_obs[bins - 1] += acc_obs;
    bin_exp[bins - 1] += acc_exp;
    for (size_t b = 0; b < bins; b++) {
        double d = bin_obs[b] - bin_exp[b];
        stat += d * d / bin_exp[b];
    }
    p = bins > 1 ? gsl_cdf_chisq_Q(stat, (double)(bins - 1)) : 1.0;
    cr_expect(p >= P_MIN, "%s: chi-square %.2f on %zu df, p = %.3g", what, stat,
              bins - 1, p);
}

/* Expects a sample proportion hits/n within Z_TOL standard errors of prob. */
static void expect_proportion(const char *what, double hits, double n, double prob)
{
    double se = sqrt(prob * (1.0 - prob) / n);
    if (se == 0.0) {
        cr_expect(hits == prob * n, "%s: %.0f of %.0f, expected exactly %.0f", what,
                  hits, n, prob * n);
        return;
    }
    double z = (hits / n - prob) / se;
    cr_expect(fabs(z) < Z_TOL, "%s: %.6f observed, %.6f exact, z = %.2f", what,
              hits / n, prob, z);
}

/* Exact pmf of the sum of n D6 by repeated convolution with the uniform
 * distribution on 1..6: pmf[s] = P(sum = s), s = 0..6n. */
static void sum_pmf(unsigned n, double *pmf)
{
    double next[6u * MAX_DICE + 1u];
    cr_assert(n <= MAX_DICE);
    memset(pmf, 0, (6u * n + 1u) * sizeof *pmf);
    pmf[0] = 1.0;
    for (unsigned d = 1; d <= n; d++) {
        memset(next, 0, sizeof next);
        for (unsigned s = 0; s <= 6u * (d - 1u); s++)
            for (unsigned f = 1; f <= 6u; f++)
                next[s + f] += pmf[s] / 6.0;
        memcpy(pmf, next, (6u * d + 1u) * sizeof *pmf);
    }
}

/* Exact joint pmf of (sum, number of sixes) of n D6, n <= 8:
 * joint[s * 9 + k] = P(sum = s, sixes = k), by the same convolution split by face. */
#define JOINT_SIXES 9u
static void sum_sixes_pmf(unsigned n, double *joint)
{
    double next[(6u * 8u + 1u) * JOINT_SIXES];
    const size_t size = (6u * 8u + 1u) * JOINT_SIXES;
    cr_assert(n <= 8u);
    memset(joint, 0, size * sizeof *joint);
    joint[0] = 1.0;
    for (unsigned d = 1; d <= n; d++) {
        memset(next, 0, sizeof next);
        for (unsigned s = 0; s <= 6u * (d - 1u); s++)
            for (unsigned k = 0; k < d; k++)
                for (unsigned f = 1; f <= 6u; f++)
                    next[(s + f) * JOINT_SIXES + k + (f == 6u)] +=
                        joint[s * JOINT_SIXES + k] / 6.0;
        memcpy(joint, next, size * sizeof *joint);
    }
}

/* ---------------------------------------------------------------- single D6 */

/* om_dice_d6: six faces, each with probability exactly 1/6. */
Test(d6, faces_uniform)
{
    static const double prob[6] = {1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6};
    double count[6] = {0};
    om_rng r = test_rng(1);
    for (unsigned i = 0; i < 1000000u; i++) {
        unsigned f = om_dice_d6(&r);
        cr_assert(f >= 1u && f <= 6u, "face %u", f);
        count[f - 1u] += 1.0;
    }
    expect_fit("om_dice_d6", count, prob, 6, 1e6);
}

/*
 * Deterministic checks of the rejection rules. A generator can be made to emit
 * any odd 64-bit word y next: DXSM outputs f(hi) * (lo | 1) where hi and lo are
 * the halves of the state and f(hi) = ((hi ^ hi >> 32) * M ^ ... >> 48); pick
 * hi with f(hi) odd and lo = y * f(hi)^-1 mod 2^64, which is odd when y is.
 * Then the tests below feed words on either side of each rejection threshold
 * 2^64 mod 6^k and predict the result from the generator's following word with
 * their own arithmetic: the faces of k dice are the base-6 digits of
 * hi(w * 6^k) (Brackett-Rozinsky & Lemire 2024), plus one.
 */
static uint64_t inverse_mod_2_64(uint64_t a)
{
    /* Newton's iteration x <- x (2 - a x) doubles the correct low bits; a is its
     * own inverse modulo 8, so five steps reach 3 * 2^5 = 96 >= 64 bits. */
    uint64_t x = a;
    for (int i = 0; i < 5; i++)
        x *= 2u - a * x;
    return x;
}

static om_rng rng_emitting(uint64_t y)
{
    om_rng r;
    uint64_t hi = 0x0123456789abcdefULL, f;
    cr_assert(y & 1u, "only odd words can be emitted");
    for (;; hi++) {
        f = hi ^ (hi >> 32);
        f *= OM_PCG_CHEAP_MULT;
        f ^= f >> 48;
        if (f & 1u)
            break;
    }
    om_pcg64_set_raw(&r, ((om_u128)hi << 64) | (y * inverse_mod_2_64(f)),
                     0x9e3779b97f4a7c15ULL);
    om_rng check = r;
    cr_assert_eq(om_pcg64_next(&check), y);
    return r;
}

/* A word w with lo(w * 6^k) = m * 2^k. Since 6^k = 2^k 3^k, lo(w * 6^k) is
 * 2^k (w 3^k mod 2^(64-k)), so w = m (3^k)^-1 mod 2^(64-k); w is odd when m is. */
static uint64_t word_with_low_product(unsigned k, uint64_t m)
{
    uint64_t three_k = 1;
    for (unsigned i = 0; i < k; i++)
        three_k *= 3u;
    return (m * inverse_mod_2_64(three_k)) & (~UINT64_C(0) >> k);
}

/* 6^k in 64-bit arithmetic, k <= 24. */
static uint64_t pow6(unsigned k)
{
    uint64_t x = 1;
    while (k-- > 0u)
        x *= 6u;
    return x;
}

/* Faces of k dice read from an accepted word, by base-6 digits of hi(w * 6^k). */
static unsigned faces_of_word(uint64_t w, unsigned k, unsigned *sixes)
{
    om_u128 pow = 1;
    for (unsigned i = 0; i < k; i++)
        pow *= 6u;
    uint64_t hi = (uint64_t)(((om_u128)w * pow) >> 64);
    unsigned sum = 0;
    *sixes = 0;
    for (unsigned i = 0; i < k; i++, hi /= 6u) {
        sum += (unsigned)(hi % 6u) + 1u;
        *sixes += hi % 6u == 5u;
    }
    return sum;
}

/* (2^64 mod 6^k) / 2^k for k = 1, 2, 3, 20, computed exactly with Python
 * integers; 2^64 mod 6^k itself is 4, 16, 160 and 1424743591837696 (the first
 * is dice.h's OM_DICE_D6_REJECT). A word is rejected exactly when
 * lo(w * 6^k) / 2^k is below this. */
struct reject_case {
    unsigned k;
    uint64_t limit;
};
static const struct reject_case reject_cases[] = {{1, 2}, {2, 4}, {3, 20}, {20, 1358741371}};

Test(d6, rejection_thresholds_exact)
{
    for (size_t c = 0; c < sizeof reject_cases / sizeof reject_cases[0]; c++) {
        unsigned k = reject_cases[c].k;
        /* The odd multiples just below the limit are rejected, those at or above
         * it accepted. 1 is always rejected. */
        const uint64_t ms[] = {1u, reject_cases[c].limit - 1u - (reject_cases[c].limit & 1u),
                               reject_cases[c].limit | 1u, (reject_cases[c].limit | 1u) + 2u};
        for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++) {
            uint64_t w = word_with_low_product(k, ms[i]);
            int rejected = ms[i] < reject_cases[c].limit;
            om_rng r = rng_emitting(w), peek = r;
            uint64_t used = om_pcg64_next(&peek);
            unsigned six_exp, six_got = 99u, got, expect;
            cr_assert_eq(used, w);
            if (rejected)
                used = om_pcg64_next(&peek);
            expect = faces_of_word(used, k, &six_exp);
            cr_assert_eq((w * pow6(k)) >> k, ms[i]);
            switch (k) {
            case 1: got = om_dice_d6(&r); six_got = got == 6u; break;
            case 2: got = om_dice_2d6(&r); six_got = six_exp; break;
            case 3: got = om_dice_3d6(&r); six_got = six_exp; break;
            default: got = om_dice_sum(&r, k, &six_got); break;
            }
            cr_expect_eq(got, expect, "k %u, lo/2^k = %llu (%s): got %u, expected %u", k,
                         (unsigned long long)ms[i], rejected ? "reject" : "accept", got,
                         expect);
            cr_expect_eq(six_got, six_exp, "k %u: sixes", k);
            /* Exactly one word, or two after a rejection, was consumed. */
            cr_expect(r.state == peek.state, "k %u, lo/2^k = %llu: words consumed", k,
                      (unsigned long long)ms[i]);
        }
    }
}

/* ------------------------------------------------------ count at threshold */

/*
 * om_dice_count_at_least(r, n, t) must be exactly Binomial(n, (7 - t) / 6) for
 * every n. The n tried cover one die, a few, one short of a 64-lane word, a full
 * word, one past it and two words plus a partial one (the masking paths), and
 * the switch between a bit-sliced rest (over 20 dice) and a batched-digit rest
 * (20 or fewer): 20, 21 and 84 = 64 + 20.
 */
static const unsigned count_ns[] = {1, 5, 20, 21, 63, 64, 65, 84, 130};

static void check_threshold(unsigned threshold)
{
    om_rng r = test_rng(100u + threshold);
    double p = threshold <= 1u ? 1.0 : threshold >= 7u ? 0.0 : (7.0 - threshold) / 6.0;

    for (size_t c = 0; c < sizeof count_ns / sizeof count_ns[0]; c++) {
        unsigned n = count_ns[c];
        double count[131] = {0}, prob[131];
        char what[96];
        for (unsigned i = 0; i < SAMPLES; i++) {
            unsigned hits = om_dice_count_at_least(&r, n, threshold);
            cr_assert(hits <= n, "threshold %u, n %u: %u hits", threshold, n, hits);
            count[hits] += 1.0;
        }
        for (unsigned k = 0; k <= n; k++)
            prob[k] = gsl_ran_binomial_pdf(k, p, n);
        snprintf(what, sizeof what, "count_at_least(n=%u, threshold=%u)", n, threshold);
        expect_fit(what, count, prob, n + 1u, SAMPLES);
    }
}

Test(count_at_least, threshold_1) { check_threshold(1); }
Test(count_at_least, threshold_2) { check_threshold(2); }
Test(count_at_least, threshold_3) { check_threshold(3); }
Test(count_at_least, threshold_4) { check_threshold(4); }
Test(count_at_least, threshold_5) { check_threshold(5); }
Test(count_at_least, threshold_6) { check_threshold(6); }
Test(count_at_least, threshold_7) { check_threshold(7); }

/* Thresholds that every die or no die meets are answered without drawing
 * (dice.h), and n = 0 gives 0. */
Test(count_at_least, trivial_thresholds_draw_nothing)
{
    om_rng r = test_rng(2), before = r;
    cr_expect_eq(om_dice_count_at_least(&r, 17u, 0u), 17u);
    cr_expect_eq(om_dice_count_at_least(&r, 17u, 1u), 17u);
    cr_expect_eq(om_dice_count_at_least(&r, 17u, 7u), 0u);
    cr_expect_eq(om_dice_count_at_least(&r, 17u, 100u), 0u);
    cr_expect(r.state == before.state, "a trivial threshold consumed random numbers");
    for (unsigned t = 2; t <= 6u; t++)
        cr_expect_eq(om_dice_count_at_least(&r, 0u, t), 0u);
}

/* Consecutive calls are independent: the joint distribution of two one-die
 * results is the product of the marginals, for every non-trivial threshold. */
Test(count_at_least, consecutive_calls_independent)
{
    om_rng r = test_rng(3);
    for (unsigned t = 2; t <= 6u; t++) {
        double count[4] = {0}, prob[4], p = (7.0 - t) / 6.0;
        char what[64];
        for (unsigned i = 0; i < SAMPLES; i++) {
            unsigned a = om_dice_count_at_least(&r, 1u, t);
            unsigned b = om_dice_count_at_least(&r, 1u, t);
            count[2u * a + b] += 1.0;
        }
        prob[0] = (1 - p) * (1 - p);
        prob[1] = prob[2] = p * (1 - p);
        prob[3] = p * p;
        snprintf(what, sizeof what, "pairs of one-die counts, threshold %u", t);
        expect_fit(what, count, prob, 4, SAMPLES);
    }
}

/* ----------------------------------------------------------------- D6 sums */

/* The sum of n D6, its count of sixes and their joint distribution, against exact
 * convolution and Binomial(n, 1/6). */
Test(dice_sum, small_n_exact_distribution)
{
    om_rng r = test_rng(4);
    for (unsigned n = 1; n <= 8u; n++) {
        static double joint_count[(6u * 8u + 1u) * JOINT_SIXES];
        static double joint_prob[(6u * 8u + 1u) * JOINT_SIXES];
        double sum_count[6u * 8u + 1u] = {0}, sum_prob[6u * 8u + 1u];
        double six_count[9] = {0}, six_prob[9];
        char what[64];

        memset(joint_count, 0, sizeof joint_count);
        for (unsigned i = 0; i < SAMPLES; i++) {
            unsigned sixes = 99u;
            unsigned s = om_dice_sum(&r, n, &sixes);
            cr_assert(s >= n && s <= 6u * n && sixes <= n, "n %u: sum %u, sixes %u",
                      n, s, sixes);
            sum_count[s] += 1.0;
            six_count[sixes] += 1.0;
            joint_count[s * JOINT_SIXES + sixes] += 1.0;
        }
        sum_pmf(n, sum_prob);
        sum_sixes_pmf(n, joint_prob);
        for (unsigned k = 0; k <= n; k++)
            six_prob[k] = gsl_ran_binomial_pdf(k, 1.0 / 6.0, n);

        snprintf(what, sizeof what, "sum of %u D6", n);
        expect_fit(what, sum_count, sum_prob, 6u * n + 1u, SAMPLES);
        snprintf(what, sizeof what, "sixes among %u D6", n);
        expect_fit(what, six_count, six_prob, n + 1u, SAMPLES);
        snprintf(what, sizeof what, "(sum, sixes) of %u D6", n);
        expect_fit(what, joint_count, joint_prob,
                   (6u * n + 1u) * JOINT_SIXES, SAMPLES);
    }
}

/* Sums that span several 20-dice words, or end exactly on a word boundary. */
Test(dice_sum, word_boundaries_exact_distribution)
{
    static const unsigned ns[] = {19, 20, 21, 40, 41, 64};
    om_rng r = test_rng(5);
    for (size_t c = 0; c < sizeof ns / sizeof ns[0]; c++) {
        unsigned n = ns[c];
        double count[6u * MAX_DICE + 1u] = {0}, prob[6u * MAX_DICE + 1u];
        double six_count[MAX_DICE + 1u] = {0}, six_prob[MAX_DICE + 1u];
        char what[64];
        for (unsigned i = 0; i < SAMPLES; i++) {
            unsigned sixes;
            unsigned s = om_dice_sum(&r, n, &sixes);
            cr_assert(s >= n && s <= 6u * n && sixes <= n);
            count[s] += 1.0;
            six_count[sixes] += 1.0;
        }
        sum_pmf(n, prob);
        for (unsigned k = 0; k <= n; k++)
            six_prob[k] = gsl_ran_binomial_pdf(k, 1.0 / 6.0, n);
        snprintf(what, sizeof what, "sum of %u D6", n);
        expect_fit(what, count, prob, 6u * n + 1u, SAMPLES);
        snprintf(what, sizeof what, "sixes among %u D6", n);
        expect_fit(what, six_count, six_prob, n + 1u, SAMPLES);
    }
}

/* n = 0 is an empty sum; `sixes` may be NULL. */
Test(dice_sum, empty_and_null_sixes)
{
    om_rng r = test_rng(6);
    unsigned sixes = 99u;
    cr_expect_eq(om_dice_sum(&r, 0u, &sixes), 0u);
    cr_expect_eq(sixes, 0u);
    unsigned s = om_dice_sum(&r, 3u, NULL);
    cr_expect(s >= 3u && s <= 18u);
}

/* om_dice_2d6 and om_dice_3d6 against the exact convolution. */
Test(dice_sum, two_and_three_d6)
{
    om_rng r = test_rng(7);
    double c2[13] = {0}, c3[19] = {0}, p2[13], p3[19];
    for (unsigned i = 0; i < 1000000u; i++) {
        unsigned a = om_dice_2d6(&r), b = om_dice_3d6(&r);
        cr_assert(a >= 2u && a <= 12u && b >= 3u && b <= 18u, "2D6 %u, 3D6 %u", a, b);
        c2[a] += 1.0;
        c3[b] += 1.0;
    }
    sum_pmf(2, p2);
    sum_pmf(3, p3);
    expect_fit("2D6", c2, p2, 13, 1e6);
    expect_fit("3D6", c3, p3, 19, 1e6);
}

/* ------------------------------------------------ rules tables (the digest's) */

/*
 * The command test of Warmaster Revolution (Command > Giving an Order: an order
 * is given on 2D6 of the Command value or less), as the table P(2D6 <= N) of
 * the Warmaster digest (scenarios/armies/sources/rules/warmaster.md, "Command
 * test, P(2D6 <= N) (derived)") gives it in 36ths: exact convolution must give
 * the same fractions, and om_dice_2d6 must hit them within 5 sigma.
 */
Test(rules_tables, command_test_2d6_at_most)
{
    static const unsigned table_36ths[] = {1, 3, 6, 10, 15, 21, 26, 30, 33, 35}; /* N = 2..11 */
    double pmf[13], cum = 0.0, count[13] = {0};
    om_rng r = test_rng(8);
    const unsigned n = 1000000u;

    sum_pmf(2, pmf);
    for (unsigned i = 0; i < n; i++)
        count[om_dice_2d6(&r)] += 1.0;
    double seen = 0.0;
    for (unsigned N = 2; N <= 11u; N++) {
        char what[48];
        cum += pmf[N];
        seen += count[N];
        cr_expect(fabs(cum * 36.0 - table_36ths[N - 2u]) < 1e-9,
                  "P(2D6 <= %u): exact %.6f/36, table %u/36", N, cum * 36.0,
                  table_36ths[N - 2u]);
        snprintf(what, sizeof what, "P(2D6 <= %u)", N);
        expect_proportion(what, seen, n, table_36ths[N - 2u] / 36.0);
    }
}

/*
 * The drive-back table of the Warmaster digest ("Drive-back helpers
 * (derived)", from Warmaster Revolution, Shooting > Driving Back Enemies):
 * P(sum > 10), P(sum > 20), P(sum > 30) and P(at least one 6) for n = 1..8
 * dice, printed to 4 decimals (the n = 8, > 10 entry to 3: "1.000"). Exact
 * convolution must round to the printed values.
 */
struct drive_back_row {
    double gt10, gt20, gt30, any6;
};
static const struct drive_back_row drive_back_table[8] = {
    {0, 0, 0, .1667},           {.0833, 0, 0, .3056},       {.5000, 0, 0, .4213},
    {.8410, .0270, 0, .5177},   {.9676, .2215, 0, .5981},   {.9955, .5464, .0099, .6651},
    {.9996, .8083, .0939, .7209}, {1.000, .9393, .3054, .7674},
};

/* P(sum of n D6 > t) from an exact pmf of the sum, pmf[0..6n]. */
static double tail(const double *pmf, unsigned n, unsigned t)
{
    double p = 0.0;
    for (unsigned s = t + 1u; s <= 6u * n; s++)
        p += pmf[s];
    return p;
}

Test(rules_tables, drive_back_table_values)
{
    for (unsigned n = 1; n <= 8u; n++) {
        double pmf[49];
        const struct drive_back_row *row = &drive_back_table[n - 1u];
        /* Half a unit of the last printed digit, plus rounding slack. */
        const double half4 = 0.5e-4 + 1e-12, half3 = 0.5e-3 + 1e-12;
        sum_pmf(n, pmf);
        cr_expect(fabs(tail(pmf, n, 10) - row->gt10) <= (n == 8u ? half3 : half4),
                  "n %u: P(sum>10) exact %.6f, table %.4f", n, tail(pmf, n, 10), row->gt10);
        cr_expect(fabs(tail(pmf, n, 20) - row->gt20) <= half4,
                  "n %u: P(sum>20) exact %.6f, table %.4f", n, tail(pmf, n, 20), row->gt20);
        cr_expect(fabs(tail(pmf, n, 30) - row->gt30) <= half4,
                  "n %u: P(sum>30) exact %.6f, table %.4f", n, tail(pmf, n, 30), row->gt30);
        cr_expect(fabs(1.0 - pow(5.0 / 6.0, n) - row->any6) <= half4,
                  "n %u: P(any 6) exact %.6f, table %.4f", n, 1.0 - pow(5.0 / 6.0, n),
                  row->any6);
    }
}

/*
 * A drive back needs two facts at once: whether the total exceeds the unit's
 * pace (rout) and whether any die shows 6 (confusion). For each pace 10, 20, 30
 * and n = 1..8, the four joint outcomes of om_dice_sum (rout and confused, rout
 * only, confused only, neither) must match the exact joint distribution, whose
 * "no six" half is the convolution of faces 1..5 alone.
 */
Test(rules_tables, drive_back_joint_events)
{
    static const unsigned paces[] = {10, 20, 30};
    om_rng r = test_rng(9);
    for (unsigned n = 1; n <= 8u; n++) {
        double joint[(6u * 8u + 1u) * JOINT_SIXES];
        double count[3][4] = {{0}};
        sum_sixes_pmf(n, joint);
        for (unsigned i = 0; i < SAMPLES; i++) {
            unsigned sixes;
            unsigned s = om_dice_sum(&r, n, &sixes);
            for (unsigned k = 0; k < 3u; k++)
                count[k][2u * (s > paces[k]) + (sixes > 0u)] += 1.0;
        }
        for (unsigned k = 0; k < 3u; k++) {
            double prob[4] = {0};
            char what[80];
            for (unsigned s = 0; s <= 6u * n; s++)
                for (unsigned x = 0; x <= n; x++)
                    prob[2u * (s > paces[k]) + (x > 0u)] += joint[s * JOINT_SIXES + x];
            /* Cross-check the no-six rout cell against a direct convolution of
             * faces 1..5, each with probability 1/6. */
            double five[49] = {1.0}, next[49];
            for (unsigned d = 1; d <= n; d++) {
                memset(next, 0, sizeof next);
                for (unsigned s = 0; s <= 5u * (d - 1u); s++)
                    for (unsigned f = 1; f <= 5u; f++)
                        next[s + f] += five[s] / 6.0;
                memcpy(five, next, sizeof next);
            }
            cr_expect(fabs(tail(five, n, paces[k]) - prob[2]) < 1e-12,
                      "n %u, pace %u: P(rout, no six) %.12f vs %.12f", n, paces[k],
                      tail(five, n, paces[k]), prob[2]);
            snprintf(what, sizeof what, "drive back n=%u pace %u (rout x confused)",
                     n, paces[k]);
            expect_fit(what, count[k], prob, 4, SAMPLES);
        }
    }
}

/* ----------------------------------------------------------- alias binomial */

/* Draws Bin(n, t->p) `SAMPLES` times and tests the fit to the exact pmf. */
static void check_binom(const om_binom_table *t, om_rng *r, unsigned n)
{
    double *count = calloc(n + 1u, sizeof *count);
    double *prob = malloc((n + 1u) * sizeof *prob);
    char what[96];
    cr_assert(count != NULL && prob != NULL);
    for (unsigned i = 0; i < SAMPLES; i++) {
        unsigned k = om_binom_draw(t, r, n);
        cr_assert(k <= n, "Bin(%u, %g) drew %u", n, t->p, k);
        count[k] += 1.0;
    }
    for (unsigned k = 0; k <= n; k++)
        prob[k] = gsl_ran_binomial_pdf(k, t->p, n);
    snprintf(what, sizeof what, "om_binom_draw Bin(%u, %.6g), n_max %u", n, t->p,
             t->n_max);
    expect_fit(what, count, prob, n + 1u, SAMPLES);
    free(count);
    free(prob);
}

/*
 * om_binom_draw against the exact binomial pmf for probabilities the rules
 * produce (5/12 = hit on 4+ then fail a 6+ save, 1/2 * 5/6; 1/4 = 4+ against a
 * 4+ save; 1/36 = 6+ against a 2+ save) and the extremes 0 and 1, for n inside
 * one table and above OM_BINOM_N_MAX, where the draw is a sum of independent
 * chunks.
 */
Test(binom, draw_matches_pmf)
{
    static const double ps[] = {5.0 / 12.0, 0.25, 1.0 / 36.0, 0.0, 1.0};
    static const unsigned ns[] = {0, 1, 7, 20, OM_BINOM_N_MAX, OM_BINOM_N_MAX + 1u, 130,
                                  200};
    om_rng r = test_rng(10);
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        om_binom_table *t = NULL;
        cr_assert_eq(om_binom_table_alloc(&t, ps[i], OM_BINOM_N_MAX), OM_OK);
        cr_assert_not_null(t);
        for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++)
            check_binom(t, &r, ns[j]);
        om_binom_table_free(t);
    }
}

/* p = 0 and p = 1 are deterministic, also across chunks. */
Test(binom, degenerate_p_exact)
{
    om_binom_table *zero = NULL, *one = NULL;
    om_rng r = test_rng(11);
    cr_assert_eq(om_binom_table_alloc(&zero, 0.0, OM_BINOM_N_MAX), OM_OK);
    cr_assert_eq(om_binom_table_alloc(&one, 1.0, OM_BINOM_N_MAX), OM_OK);
    for (unsigned n = 0; n <= 300u; n++) {
        cr_expect_eq(om_binom_draw(zero, &r, n), 0u, "Bin(%u, 0)", n);
        cr_expect_eq(om_binom_draw(one, &r, n), n, "Bin(%u, 1)", n);
    }
    om_binom_table_free(zero);
    om_binom_table_free(one);
}

/* Chunking with unusual table sizes: n_max = 1 (every die a separate Bernoulli
 * draw), 7 (chunks that do not divide n) and 255 (the largest table). */
Test(binom, chunked_tables)
{
    static const unsigned n_maxes[] = {1, 7, 255};
    static const unsigned ns[] = {10, 30, 255, 300};
    om_rng r = test_rng(12);
    for (size_t i = 0; i < sizeof n_maxes / sizeof n_maxes[0]; i++) {
        om_binom_table *t = NULL;
        cr_assert_eq(om_binom_table_alloc(&t, 1.0 / 3.0, n_maxes[i]), OM_OK);
        for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++)
            if (n_maxes[i] > 1u || ns[j] <= 30u) /* n_max 1 costs one word per die */
                check_binom(t, &r, ns[j]);
        om_binom_table_free(t);
    }
}

/* om_binom_draw_select returns what om_binom_draw returns from the same
 * generator state, word for word, for every n and table size (so it realises
 * the same exact distribution, checked below for om_binom_draw). */
Test(binom, select_matches_draw)
{
    static const unsigned n_maxes[] = {1, 7, 64, 255};
    static const double ps[] = {0.0, 1.0 / 36.0, 5.0 / 12.0, 0.5, 1.0};
    for (size_t i = 0; i < sizeof n_maxes / sizeof n_maxes[0]; i++)
        for (size_t j = 0; j < sizeof ps / sizeof ps[0]; j++) {
            om_binom_table *t = NULL;
            om_rng a = test_rng(13), b = test_rng(13);
            cr_assert_eq(om_binom_table_alloc(&t, ps[j], n_maxes[i]), OM_OK);
            for (unsigned n = 0; n <= 300u; n++)
                for (unsigned rep = 0; rep < 20u; rep++) {
                    unsigned x = om_binom_draw(t, &a, n), y = om_binom_draw_select(t, &b, n);
                    if (x != y)
                        cr_assert_fail("n_max %u p %g n %u: %u vs %u", n_maxes[i], ps[j], n,
                                       x, y);
                }
            cr_expect_eq(om_pcg64_next(&a), om_pcg64_next(&b), "the same words drawn");
            om_binom_table_free(t);
        }
}

/* om_alias_draw_select returns what om_alias_draw returns from the same
 * generator state, for tables of several sizes. */
Test(alias, select_matches_draw)
{
    static const unsigned sizes[] = {1, 2, 7, 36, 1000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        unsigned n = sizes[i];
        double *pmf = malloc(n * sizeof *pmf), total = 0;
        om_alias *a = NULL;
        om_rng x = test_rng(14), y = test_rng(14);
        cr_assert_not_null(pmf);
        for (unsigned k = 0; k < n; k++)
            total += pmf[k] = 1.0 + (k * 7u) % 5u;
        for (unsigned k = 0; k < n; k++)
            pmf[k] /= total;
        cr_assert_eq(om_alias_alloc(&a, pmf, n), OM_OK);
        for (unsigned rep = 0; rep < 20000u; rep++) {
            unsigned p = om_alias_draw(a, &x), q = om_alias_draw_select(a, &y);
            if (p != q)
                cr_assert_fail("n %u: %u vs %u", n, p, q);
        }
        om_alias_free(a);
        free(pmf);
    }
}

/*
 * The exact distribution that om_binom_draw realises from a table. The draw takes
 * slot i of Bin(k, p) for the x = u >> 32 with floor(x (k + 1) / 2^32) = i, that
 * is ceil((i + 1) 2^32 / (k + 1)) - ceil(i 2^32 / (k + 1)) of the 2^32 values,
 * then returns i when the low 32 bits are below cut[i] (cut[i] of 2^32 values)
 * and alias[i] otherwise. In units of 2^-64 every term is an exact integer.
 */
static void realised_pmf(const om_binom_table *t, unsigned k, double *pmf)
{
    const om_u128 two32 = (om_u128)1 << 32;
    om_u128 units[256] = {0};
    for (unsigned i = 0; i <= k; i++) {
        om_u128 lo = (i * two32 + k) / (k + 1u);          /* ceil(i 2^32 / (k+1)) */
        om_u128 hi = ((i + 1u) * two32 + k) / (k + 1u);
        om_u128 slot = hi - lo;
        const om_binom_slot *e = &t->slot[t->offset[k] + i];
        uint64_t cut = e->cut;
        units[i] += slot * cut;
        units[e->alias] += slot * (two32 - cut);
    }
    for (unsigned j = 0; j <= k; j++)
        pmf[j] = (double)units[j] * 0x1p-64;
}

/*
 * Table layout and accuracy, checked exactly rather than by sampling: for n_max
 * 255 and several p, offset[n] = n (n + 1) / 2, cut <= 2^32, aliases are outcomes
 * of their own distribution, and the distribution om_binom_draw realises differs
 * from gsl_ran_binomial_pdf by less than the 1e-8 that dice.h promises, for
 * every n <= 255. (Measured: at most 4.3e-10, about 2^-31, for these p; the
 * error comes from quantising the slot choice and the cuts to 2^-32.)
 */
Test(binom_table, layout_and_exact_accuracy)
{
    static const double ps[] = {5.0 / 12.0, 0.25, 1.0 / 36.0, 0.5, 1.0 / 6.0, 35.0 / 36.0,
                                0.0, 1.0};
    double worst = 0.0;
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        om_binom_table *t = NULL;
        cr_assert_eq(om_binom_table_alloc(&t, ps[i], 255u), OM_OK);
        cr_expect_eq(t->n_max, 255u);
        cr_expect(t->p == ps[i]);
        for (unsigned k = 0; k <= 255u; k++) {
            double pmf[256];
            cr_assert_eq(t->offset[k], k * (k + 1u) / 2u, "offset[%u]", k);
            for (unsigned s = 0; s <= k; s++) {
                const om_binom_slot *e = &t->slot[t->offset[k] + s];
                cr_assert(e->alias <= k);
            }
            realised_pmf(t, k, pmf);
            for (unsigned j = 0; j <= k; j++) {
                double err = fabs(pmf[j] - gsl_ran_binomial_pdf(j, ps[i], k));
                if (err > worst)
                    worst = err;
            }
        }
        om_binom_table_free(t);
    }
    cr_expect(worst < 1e-8, "largest error of a realised pmf: %.3g", worst);
}

/* Invalid arguments: p outside [0, 1] (and NaN), n_max above 255. Each returns
 * OM_EINVAL through OM_ERROR, leaves *out NULL and records a message. */
Test(binom_table, invalid_arguments)
{
    static const double bad_p[] = {-0.1, 1.5};
    om_binom_table *t = (om_binom_table *)&t; /* any non-NULL value */
    for (size_t i = 0; i < 2; i++) {
        om_error_clear();
        cr_expect_eq(om_binom_table_alloc(&t, bad_p[i], 10u), OM_EINVAL, "p = %g", bad_p[i]);
        cr_expect_null(t);
        cr_expect_eq(om_error_code(), OM_EINVAL);
        cr_expect(strstr(om_error_where(), "dice.c") != NULL, "where: %s", om_error_where());
        cr_expect(strlen(om_error_message()) > 0u);
        t = (om_binom_table *)&t;
    }
    cr_expect_eq(om_binom_table_alloc(&t, NAN, 10u), OM_EINVAL);
    cr_expect_null(t);
    om_error_clear();
    cr_expect_eq(om_binom_table_alloc(&t, 0.5, 256u), OM_EINVAL);
    cr_expect_null(t);
    cr_expect_eq(om_error_code(), OM_EINVAL);
    /* n_max = 0 could never draw n > 0 (om_binom_draw chunks n by n_max). */
    cr_expect_eq(om_binom_table_alloc(&t, 0.5, 0u), OM_EINVAL);
    cr_expect_null(t);
    om_binom_table_free(NULL);
}

/*
 * Out of memory: with the data segment limit (RLIMIT_DATA, which covers malloc's
 * mmap since Linux 4.7) set just above current use, the 263 kB slot arrays of an
 * n_max = 255 table cannot be allocated, so the call must fail with OM_ENOMEM
 * after the small header allocation succeeded, exercising the clean-up of a
 * partially built table. AddressSanitizer's allocator aborts instead of
 * returning NULL under such a limit, so the test is skipped there.
 */
#if defined(__SANITIZE_ADDRESS__)
#define OM_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OM_TEST_UNDER_ASAN 1
#endif
#endif

#ifndef OM_TEST_UNDER_ASAN
/* The process's current data segment size in bytes (VmData), or 0. */
static size_t vm_data_bytes(void)
{
    char line[256];
    size_t kb = 0;
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL)
        return 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "VmData: %zu kB", &kb) == 1)
            break;
    fclose(f);
    return kb * 1024u;
}
#endif

Test(binom_table, out_of_memory)
{
#ifdef OM_TEST_UNDER_ASAN
    cr_skip_test("RLIMIT_DATA makes AddressSanitizer's allocator abort");
#else
    struct rlimit old, tight;
    om_binom_table *t = (om_binom_table *)&t;
    size_t used = vm_data_bytes();
    om_status st;

    if (used == 0 || getrlimit(RLIMIT_DATA, &old) != 0)
        cr_skip_test("no /proc/self/status or getrlimit");
    /* 192 kB of headroom: room for the header and offsets of the table, not for
     * its 263 kB of cuts. */
    tight = old;
    tight.rlim_cur = used + 192u * 1024u;
    if (setrlimit(RLIMIT_DATA, &tight) != 0)
        cr_skip_test("setrlimit(RLIMIT_DATA) refused");
    om_error_clear();
    st = om_binom_table_alloc(&t, 0.5, 255u);
    setrlimit(RLIMIT_DATA, &old);
    if (st == OM_OK) {
        /* Kernels before 4.7 do not count mmap against RLIMIT_DATA. */
        om_binom_table_free(t);
        cr_skip_test("the data limit did not stop a 263 kB allocation");
    }
    cr_expect_eq(st, OM_ENOMEM, "status %d (%s)", (int)st, om_error_message());
    cr_expect_null(t);
    cr_expect_eq(om_error_code(), OM_ENOMEM);
    cr_expect(strstr(om_error_where(), "dice.c") != NULL, "where: %s", om_error_where());
#endif
}

/* ------------------------------------------------------- dice test and source */

/*
 * om_dice_test_probability = P(D6 >= to_hit) * P(D6 < save): hand-worked values
 * from the to-hit and save rules (Warmaster Revolution, Shooting > Scores to
 * Hit, Armour; Combat > How to Calculate Damage; 7 means no hit possible / no
 * save) and the full grid against (7 - h)(s - 1) / 36.
 */
Test(dice_source, test_probability_values)
{
    cr_expect(om_dice_test_probability(4, 4) == 0.25);        /* 1/2 * 1/2 */
    cr_expect(om_dice_test_probability(4, 7) == 0.5);         /* no save */
    cr_expect(om_dice_test_probability(4, 6) == 5.0 / 12.0);  /* 1/2 * 5/6 */
    cr_expect(om_dice_test_probability(5, 5) == 2.0 / 9.0);   /* 1/3 * 2/3 */
    cr_expect(om_dice_test_probability(6, 2) == 1.0 / 36.0);  /* 1/6 * 1/6 */
    cr_expect(om_dice_test_probability(3, 5) == 4.0 / 9.0);   /* 2/3 * 2/3 */
    cr_expect(om_dice_test_probability(2, 7) == 5.0 / 6.0);
    cr_expect(om_dice_test_probability(7, 7) == 0.0);         /* cannot hit */
    cr_expect(om_dice_test_probability(7, 2) == 0.0);
    for (unsigned h = 2; h <= 7u; h++)
        for (unsigned s = 2; s <= 7u; s++)
            cr_expect(om_dice_test_probability(h, s) == (double)((7u - h) * (s - 1u)) / 36.0,
                      "to_hit %u, save %u", h, s);
}

/* The combinations of to-hit and save checked through om_dice_hits. */
static const unsigned char hit_save[][2] = {{4, 4}, {3, 6}, {5, 7}, {6, 2}, {2, 7}, {7, 4}};
static const unsigned hits_ns[] = {1, 6, 30, 64, 100};

/* om_dice_hits in one mode against Binomial(n, om_dice_test_probability). */
static void check_hits(om_dice *d, const char *mode, unsigned samples)
{
    for (size_t c = 0; c < sizeof hit_save / sizeof hit_save[0]; c++) {
        double p = om_dice_test_probability(hit_save[c][0], hit_save[c][1]);
        om_binom_table *t = NULL;
        om_dice_test test;
        cr_assert_eq(om_binom_table_alloc(&t, p, OM_BINOM_N_MAX), OM_OK);
        test.to_hit = hit_save[c][0];
        test.save = hit_save[c][1];
        test.pass = t;
        for (size_t j = 0; j < sizeof hits_ns / sizeof hits_ns[0]; j++) {
            unsigned n = hits_ns[j];
            double count[101] = {0}, prob[101];
            char what[96];
            for (unsigned i = 0; i < samples; i++) {
                unsigned k = om_dice_hits(d, &test, n);
                cr_assert(k <= n);
                count[k] += 1.0;
            }
            for (unsigned k = 0; k <= n; k++)
                prob[k] = gsl_ran_binomial_pdf(k, p, n);
            snprintf(what, sizeof what, "%s om_dice_hits n=%u to_hit %u save %u", mode, n,
                     test.to_hit, test.save);
            expect_fit(what, count, prob, n + 1u, samples);
        }
        om_binom_table_free(t);
    }
}

Test(dice_source, hits_fast_mode)
{
    om_dice d = {.rng = test_rng(13), .plain = NULL};
    check_hits(&d, "fast", SAMPLES);
}

/* Plain mode rolls every die through GSL's default generator (mt19937 unless
 * GSL_RNG_TYPE says otherwise), about 15 ns a die, so it uses a tenth of the
 * samples: still ample to catch a comparison off by one face, which moves p by
 * a sixth of itself or more. */
Test(dice_source, hits_plain_mode)
{
    om_dice d = {.rng = test_rng(14), .plain = gsl_rng_alloc(gsl_rng_default)};
    cr_assert_not_null(d.plain);
    gsl_rng_set(d.plain, 20240614u);
    check_hits(&d, "plain", SAMPLES / 10u);
    gsl_rng_free(d.plain);
}

/* om_dice_roll_sum and om_dice_roll_d6 in both modes against exact distributions. */
static void check_roll(om_dice *d, const char *mode)
{
    double faces[6] = {0}, fprob[6];
    char what[64];
    for (unsigned i = 0; i < SAMPLES; i++) {
        unsigned f = om_dice_roll_d6(d);
        cr_assert(f >= 1u && f <= 6u);
        faces[f - 1u] += 1.0;
    }
    for (unsigned i = 0; i < 6u; i++)
        fprob[i] = 1.0 / 6.0;
    snprintf(what, sizeof what, "%s om_dice_roll_d6", mode);
    expect_fit(what, faces, fprob, 6, SAMPLES);

    for (unsigned n = 0; n <= 5u; n++) {
        double count[31] = {0}, prob[31], six_count[6] = {0}, six_prob[6];
        double joint_count[31u * JOINT_SIXES] = {0};
        double joint_prob[(6u * 8u + 1u) * JOINT_SIXES];
        for (unsigned i = 0; i < SAMPLES / 4u; i++) {
            unsigned sixes = 99u;
            unsigned s = om_dice_roll_sum(d, n, &sixes);
            cr_assert(s <= 6u * n && sixes <= n);
            count[s] += 1.0;
            six_count[sixes] += 1.0;
            joint_count[s * JOINT_SIXES + sixes] += 1.0;
        }
        sum_pmf(n, prob);
        sum_sixes_pmf(n, joint_prob);
        for (unsigned k = 0; k <= n; k++)
            six_prob[k] = gsl_ran_binomial_pdf(k, 1.0 / 6.0, n);
        snprintf(what, sizeof what, "%s om_dice_roll_sum n=%u", mode, n);
        expect_fit(what, count, prob, 6u * n + 1u, SAMPLES / 4u);
        snprintf(what, sizeof what, "%s om_dice_roll_sum sixes n=%u", mode, n);
        expect_fit(what, six_count, six_prob, n + 1u, SAMPLES / 4u);
        /* The joint law ties each six to a face of 6 (counting ones instead
         * would leave both marginals right). */
        snprintf(what, sizeof what, "%s om_dice_roll_sum (sum, sixes) n=%u", mode, n);
        expect_fit(what, joint_count, joint_prob, (6u * n + 1u) * JOINT_SIXES, SAMPLES / 4u);
    }
    cr_expect(om_dice_roll_sum(d, 2u, NULL) <= 12u);
}

Test(dice_source, roll_fast_mode)
{
    om_dice d = {.rng = test_rng(15), .plain = NULL};
    check_roll(&d, "fast");
}

Test(dice_source, roll_plain_mode)
{
    om_dice d = {.rng = test_rng(16), .plain = gsl_rng_alloc(gsl_rng_default)};
    om_rng before = d.rng;
    cr_assert_not_null(d.plain);
    gsl_rng_set(d.plain, 7u);
    check_roll(&d, "plain");
    /* Plain mode never touches the fast generator. */
    cr_expect(d.rng.state == before.state);
    gsl_rng_free(d.plain);
}

/* A general alias table (om_alias) reproduces an arbitrary distribution: the
 * joint law of two independent hit counts, Bin(12, 5/12) x Bin(9, 1/4), as the
 * engine uses it for first rounds (chi-square at a fixed seed). */
Test(alias, joint_binomials_fit)
{
    enum { NA = 13, NB = 10, N = NA * NB };
    static double pmf[N], count[N];
    om_alias *a = NULL;
    om_rng r;
    for (unsigned i = 0; i < NA; i++)
        for (unsigned j = 0; j < NB; j++)
            pmf[i * NB + j] = gsl_ran_binomial_pdf(i, 5.0 / 12.0, NA - 1) *
                              gsl_ran_binomial_pdf(j, 0.25, NB - 1);
    cr_assert_eq(om_alias_alloc(&a, pmf, N), OM_OK, "%s", om_error_message());
    om_rng_seed_block(&r, 77, 0);
    for (unsigned s = 0; s < 1000000u; s++)
        count[om_alias_draw(a, &r)] += 1;
    expect_fit("joint Bin(12,5/12) x Bin(9,1/4)", count, pmf, N, 1000000.0);
    om_alias_free(a);
}

/* Invalid inputs: no outcomes, a probability outside [0,1], a sum not 1. */
Test(alias, invalid_inputs)
{
    double bad[3] = {0.5, 0.6, -0.1}, short_sum[2] = {0.5, 0.4}, one[1] = {1.0};
    om_alias *a = (om_alias *)&a;
    cr_expect_eq(om_alias_alloc(&a, one, 0), OM_EINVAL);
    cr_expect_null(a);
    cr_expect_eq(om_alias_alloc(&a, bad, 3), OM_EINVAL);
    cr_expect_eq(om_alias_alloc(&a, short_sum, 2), OM_EINVAL);
    cr_expect_eq(om_alias_alloc(&a, one, 1), OM_OK);
    om_alias_free(a);
    om_alias_free(NULL);
}
