/*
 * test_rng.c: Criterion tests of engine/core/rng (PCG generators, streams, GSL
 * wrappers).
 *
 * Known-answer tests pin pcg32, PCG64-DXSM, its numpy-compatible seeding, its
 * jump-ahead and SplitMix64 to published or independently computed vectors (the
 * source of each is cited next to it). Statistical checks use a fixed seed and a
 * 5-sigma tolerance on a mean, so a correct generator fails one of them with
 * probability about 6e-7.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "rng.h"

/* Tolerance of the statistical checks, in standard errors. */
#define Z_TOL 5.0

/* Builds a 128-bit constant from its high and low 64-bit halves. */
static om_u128 u128(uint64_t hi, uint64_t lo)
{
    return ((om_u128)hi << 64) | lo;
}

static uint64_t hi64(om_u128 x) { return (uint64_t)(x >> 64); }
static uint64_t lo64(om_u128 x) { return (uint64_t)x; }

/* The numpy PCG64DXSM(12345) generator state (generated with numpy 1.24.2):
 * the raw 128-bit LCG state and increment. */
static om_u128 numpy_12345_state(void)
{
    return u128(0x1905e0335aae9634ULL, 0x9199b0d09775add5ULL);
}

static om_u128 numpy_12345_inc(void)
{
    return u128(0xc9c7353e6e2b1f28ULL, 0x7d761f2d4027fae7ULL);
}

/* GSL must report errors through return values in library code, never abort. */
static void gsl_quiet(void)
{
    gsl_set_error_handler_off();
}

TestSuite(pcg32, .init = gsl_quiet);
TestSuite(pcg64, .init = gsl_quiet);
TestSuite(streams, .init = gsl_quiet);
TestSuite(gsl_wrap, .init = gsl_quiet);

/*
 * pcg32_srandom_r(42, 54) followed by six pcg32_random_r: the published vector of
 * imneme/pcg-c, test-high/expected/check-pcg32.out ("Round 1: 32bit:
 * 0xa15c02b7 0x7b47f409 0xba1d3330 0x83d2f293 0xbfa4784b 0xcbed606e").
 */
Test(pcg32, known_answer_seed_42_54)
{
    static const uint32_t expect[] = {0xa15c02b7u, 0x7b47f409u, 0xba1d3330u,
                                      0x83d2f293u, 0xbfa4784bu, 0xcbed606eu};
    om_pcg32 r;
    om_pcg32_seed(&r, 42u, 54u);
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        uint32_t got = om_pcg32_next(&r);
        cr_expect_eq(got, expect[i], "pcg32 output %zu: got 0x%08x, expected 0x%08x",
                     i, got, expect[i]);
    }
}

/*
 * Raw state and increment of numpy PCG64DXSM(12345), first three random_raw()
 * outputs; generated with numpy 1.24.2 (Debian python3-numpy) and
 * recomputed independently from the DXSM definition in numpy's pcg64.h.
 */
Test(pcg64, known_answer_numpy_12345_raw_state)
{
    static const uint64_t expect[] = {0xee9ce7d91fd0146fULL, 0x5666c45f046a0883ULL,
                                      0x378c2161cf28e2bdULL};
    om_pcg64 r;
    om_pcg64_set_raw(&r, numpy_12345_state(), numpy_12345_inc());
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        uint64_t got = om_pcg64_next(&r);
        cr_expect_eq(got, expect[i], "pcg64 output %zu: got 0x%016llx, expected 0x%016llx",
                     i, (unsigned long long)got, (unsigned long long)expect[i]);
    }
}

/*
 * om_pcg64_seed must reproduce numpy's seeding (rng.h: "Matches numpy PCG64DXSM
 * given the same pair"). numpy's PCG64DXSM(12345) takes (initstate, initseq) from
 * SeedSequence(12345).generate_state(4) = 0xb5ae6482a03d837c 0xbbe2996ffa1f7a2f
 * 0x64e39a9f37158f94 0x3ebb0f96a013fd73 (high word first), computed by a Python
 * transcription of numpy/random/bit_generator.pyx's SeedSequence. Seeded with
 * pcg_setseq_128_srandom_r as numpy does, that pair gives exactly the state and
 * increment numpy 1.24.2 printed (the test above); a 128-bit match
 * does not happen by chance, which confirms both halves of the computation.
 */
Test(pcg64, seed_matches_numpy_12345)
{
    om_pcg64 r;
    om_pcg64_seed(&r, u128(0xb5ae6482a03d837cULL, 0xbbe2996ffa1f7a2fULL),
                  u128(0x64e39a9f37158f94ULL, 0x3ebb0f96a013fd73ULL));
    cr_expect(r.state == numpy_12345_state(), "state 0x%016llx%016llx",
              (unsigned long long)hi64(r.state), (unsigned long long)lo64(r.state));
    cr_expect(r.inc == numpy_12345_inc(), "inc 0x%016llx%016llx",
              (unsigned long long)hi64(r.inc), (unsigned long long)lo64(r.inc));
    cr_expect_eq(om_pcg64_next(&r), 0xee9ce7d91fd0146fULL);
}

/* The increment is always odd, whatever the caller passes (a full-period LCG). */
Test(pcg64, set_raw_forces_odd_increment)
{
    om_pcg64 r;
    om_pcg64_set_raw(&r, 1u, 2u);
    cr_expect(r.inc == 3u);
    om_pcg64_seed(&r, 0u, 0u);
    cr_expect((r.inc & 1u) == 1u);
}

/* advance(k) must land on the state that k single steps reach, for small and
 * moderately large k (stepped explicitly) and for k = 0. */
Test(pcg64, advance_equals_stepping)
{
    static const uint64_t ks[] = {0, 1, 2, 3, 7, 64, 1000, 65537, 1000003};
    om_pcg64 base;
    om_rng_seed_block(&base, 20240601u, 3u);
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        om_pcg64 stepped = base, jumped = base;
        for (uint64_t s = 0; s < ks[i]; s++)
            (void)om_pcg64_next(&stepped);
        om_pcg64_advance(&jumped, ks[i]);
        cr_expect(jumped.state == stepped.state, "advance(%llu) state differs",
                  (unsigned long long)ks[i]);
        cr_expect(jumped.inc == stepped.inc);
        cr_expect_eq(om_pcg64_next(&jumped), om_pcg64_next(&stepped),
                     "advance(%llu): next output differs", (unsigned long long)ks[i]);
    }
}

/* Large jumps, where stepping is impossible: composition (advance(a) then
 * advance(b) is advance(a + b) mod 2^128) and the full period (advance(2^128 - 1)
 * then one step returns to the start, since the LCG has period 2^128). */
Test(pcg64, advance_large_composition_and_period)
{
    const om_u128 a = u128(0x0123456789abcdefULL, 0xfedcba9876543210ULL);
    const om_u128 b = u128(0xf00dfeedcafebeefULL, 0x0000000100000001ULL);
    om_pcg64 base, x, y;
    om_rng_seed_block(&base, 7u, 11u);

    x = base;
    om_pcg64_advance(&x, a);
    om_pcg64_advance(&x, b);
    y = base;
    om_pcg64_advance(&y, a + b);
    cr_expect(x.state == y.state, "advance(a) + advance(b) != advance(a + b)");

    x = base;
    om_pcg64_advance(&x, ~(om_u128)0);
    (void)om_pcg64_next(&x);
    cr_expect(x.state == base.state, "period is not 2^128");

    x = base;
    om_pcg64_advance(&x, (om_u128)1 << 127);
    om_pcg64_advance(&x, (om_u128)1 << 127);
    cr_expect(x.state == base.state, "2 * 2^127 steps is not the identity");
}

/*
 * numpy's PCG64DXSM(12345).jumped(1) advances by 0x9e3779b97f4a7c15f39cc0605cedc835
 * steps (numpy/random/_pcg64.pyx jump_inplace) and has state
 * 0xda564979927a0ac34c3235df117faf54: measured with numpy 1.24.2 and
 * recomputed with Brown's algorithm in Python.
 */
Test(pcg64, advance_known_answer_numpy_jumped)
{
    om_pcg64 r;
    om_pcg64_set_raw(&r, numpy_12345_state(), numpy_12345_inc());
    om_pcg64_advance(&r, u128(0x9e3779b97f4a7c15ULL, 0xf39cc0605cedc835ULL));
    cr_expect(r.state == u128(0xda564979927a0ac3ULL, 0x4c3235df117faf54ULL),
              "jumped state 0x%016llx%016llx", (unsigned long long)hi64(r.state),
              (unsigned long long)lo64(r.state));
}

/* Uniform doubles from om_rng_uniform lie in [0, 1) and average 1/2 within
 * 5 standard errors (variance of U(0,1) is 1/12). */
Test(pcg64, uniform_double_range_and_mean)
{
    const unsigned n = 1000000;
    double sum = 0.0;
    om_rng r;
    om_rng_seed_block(&r, 99u, 0u);
    for (unsigned i = 0; i < n; i++) {
        double u = om_rng_uniform(&r);
        cr_assert(u >= 0.0 && u < 1.0, "uniform %.17g outside [0,1)", u);
        sum += u;
    }
    double z = (sum / n - 0.5) / sqrt(1.0 / 12.0 / n);
    cr_expect(fabs(z) < Z_TOL, "mean %.6f is %.2f standard errors from 1/2", sum / n, z);
}

/* SplitMix64 from 1234567: the first five outputs published by Rosetta Code,
 * "Pseudo-random numbers/Splitmix64" (task statement). */
Test(streams, splitmix64_known_answer)
{
    static const uint64_t expect[] = {6457827717110365317ULL, 3203168211198807973ULL,
                                      9817491932198370423ULL, 4593380528125082431ULL,
                                      16408922859458223821ULL};
    uint64_t x = 1234567u;
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
        cr_expect_eq(om_rng_splitmix64(&x), expect[i], "splitmix64 output %zu", i);
}

/* The same (seed, block) always gives the same stream. */
Test(streams, seed_block_deterministic)
{
    om_rng a, b;
    om_rng_seed_block(&a, 12345u, 17u);
    om_rng_seed_block(&b, 12345u, 17u);
    cr_expect(a.state == b.state && a.inc == b.inc);
    for (int i = 0; i < 64; i++)
        cr_expect_eq(om_pcg64_next(&a), om_pcg64_next(&b), "output %d", i);
}

/*
 * Distinct (seed, block) pairs give distinct generators: over a grid of typical
 * and extreme seeds and blocks, every pair has its own state, its own increment
 * (a different stream, not just a different position) and its own first two
 * outputs. Neighbouring blocks of one seed are the common case in a run.
 */
Test(streams, seed_block_distinct)
{
    static const uint64_t seeds[] = {0, 1, 2, 42, 12345, 0x8000000000000000ULL,
                                     UINT64_MAX};
    static const uint64_t blocks[] = {0, 1, 2, 3, 4, 1000, 1001, 0xffffffffULL,
                                      0x100000000ULL, UINT64_MAX};
    enum { NS = sizeof seeds / sizeof seeds[0], NB = sizeof blocks / sizeof blocks[0],
           N = NS * NB };
    om_u128 state[N], inc[N];
    uint64_t out[N][2];

    for (size_t i = 0; i < NS; i++) {
        for (size_t j = 0; j < NB; j++) {
            om_rng r;
            size_t k = i * NB + j;
            om_rng_seed_block(&r, seeds[i], blocks[j]);
            state[k] = r.state;
            inc[k] = r.inc;
            out[k][0] = om_pcg64_next(&r);
            out[k][1] = om_pcg64_next(&r);
        }
    }
    for (size_t k = 0; k < N; k++) {
        for (size_t m = k + 1; m < N; m++) {
            cr_expect(state[k] != state[m], "pairs %zu and %zu share a state", k, m);
            cr_expect(inc[k] != inc[m], "pairs %zu and %zu share a stream", k, m);
            cr_expect(out[k][0] != out[m][0] || out[k][1] != out[m][1],
                      "pairs %zu and %zu share their first outputs", k, m);
        }
    }
}

/* The type records: names, ranges and state sizes as GSL needs them. */
Test(gsl_wrap, type_records)
{
    cr_expect_str_eq(om_rng_gsl_pcg64->name, "om-pcg64-dxsm");
    cr_expect_eq(om_rng_gsl_pcg64->min, 0ul);
    cr_expect_eq(om_rng_gsl_pcg64->max, 0xfffffffffffffffful);
    cr_expect_eq(om_rng_gsl_pcg64->size, sizeof(om_pcg64));
    cr_expect_str_eq(om_rng_gsl_pcg32->name, "om-pcg32");
    cr_expect_eq(om_rng_gsl_pcg32->min, 0ul);
    cr_expect_eq(om_rng_gsl_pcg32->max, 0xfffffffful);
    cr_expect_eq(om_rng_gsl_pcg32->size, sizeof(om_pcg32));
}

/* om_rng_gsl_alloc(seed, block) is the stream of om_rng_seed_block(seed, block),
 * seen through gsl_rng_get; gsl_rng_set(g, s) is block 0 of seed s. */
Test(gsl_wrap, pcg64_alloc_matches_seed_block)
{
    gsl_rng *g = om_rng_gsl_alloc(2024u, 5u);
    om_rng r;
    cr_assert_not_null(g);
    om_rng_seed_block(&r, 2024u, 5u);
    for (int i = 0; i < 16; i++)
        cr_expect_eq(gsl_rng_get(g), (unsigned long)om_pcg64_next(&r), "output %d", i);
    gsl_rng_set(g, 77u);
    om_rng_seed_block(&r, 77u, 0u);
    cr_expect_eq(gsl_rng_get(g), (unsigned long)om_pcg64_next(&r));
    gsl_rng_free(g);
}

/* The pcg32 wrapper seeds stream 54, so gsl_rng_set(g, 42) reproduces the
 * published pcg-c vector (test-high/expected/check-pcg32.out). */
Test(gsl_wrap, pcg32_set_is_pcg_c_vector)
{
    gsl_rng *g = gsl_rng_alloc(om_rng_gsl_pcg32);
    cr_assert_not_null(g);
    gsl_rng_set(g, 42u);
    cr_expect_eq(gsl_rng_get(g), 0xa15c02b7ul);
    cr_expect_eq(gsl_rng_get(g), 0x7b47f409ul);
    cr_expect_eq(gsl_rng_get(g), 0xba1d3330ul);
    gsl_rng_free(g);
}

/* get_double of a wrapper lies in [0, 1) and averages 1/2 within 5 sigma. */
static void check_uniform(gsl_rng *g)
{
    const unsigned n = 1000000;
    double sum = 0.0;
    for (unsigned i = 0; i < n; i++) {
        double u = gsl_rng_uniform(g);
        cr_assert(u >= 0.0 && u < 1.0, "%s: uniform %.17g outside [0,1)",
                  gsl_rng_name(g), u);
        sum += u;
    }
    double z = (sum / n - 0.5) / sqrt(1.0 / 12.0 / n);
    cr_expect(fabs(z) < Z_TOL, "%s: mean %.6f is %.2f standard errors from 1/2",
              gsl_rng_name(g), sum / n, z);
}

Test(gsl_wrap, uniform_double_pcg64)
{
    gsl_rng *g = om_rng_gsl_alloc(31337u, 0u);
    cr_assert_not_null(g);
    check_uniform(g);
    gsl_rng_free(g);
}

Test(gsl_wrap, uniform_double_pcg32)
{
    gsl_rng *g = gsl_rng_alloc(om_rng_gsl_pcg32);
    cr_assert_not_null(g);
    gsl_rng_set(g, 31337u);
    check_uniform(g);
    gsl_rng_free(g);
}

/*
 * gsl_ran_binomial through a wrapper: the sample mean of Bin(n, p) is within
 * 5 standard errors sqrt(n p (1 - p) / draws) of n p. GSL uses inversion when
 * n p < 14 and BTPE above (randist/binomial_tpe.c, SMALL_MEAN), so both
 * algorithms are covered by (20, 1/2) and (100, 0.3).
 */
static void check_binomial_mean(gsl_rng *g, unsigned n, double p)
{
    const unsigned draws = 400000;
    double sum = 0.0;
    for (unsigned i = 0; i < draws; i++) {
        unsigned k = gsl_ran_binomial(g, p, n);
        cr_assert(k <= n);
        sum += k;
    }
    double se = sqrt(n * p * (1.0 - p) / draws);
    double z = (sum / draws - n * p) / se;
    cr_expect(fabs(z) < Z_TOL, "%s Bin(%u, %g): mean %.5f is %.2f standard errors from %g",
              gsl_rng_name(g), n, p, sum / draws, z, n * p);
}

Test(gsl_wrap, binomial_mean_pcg64)
{
    gsl_rng *g = om_rng_gsl_alloc(4242u, 1u);
    cr_assert_not_null(g);
    check_binomial_mean(g, 20u, 0.5);
    check_binomial_mean(g, 100u, 0.3);
    gsl_rng_free(g);
}

Test(gsl_wrap, binomial_mean_pcg32)
{
    gsl_rng *g = gsl_rng_alloc(om_rng_gsl_pcg32);
    cr_assert_not_null(g);
    gsl_rng_set(g, 4242u);
    check_binomial_mean(g, 20u, 0.5);
    check_binomial_mean(g, 100u, 0.3);
    gsl_rng_free(g);
}
