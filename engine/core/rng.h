/*
 * rng.h: PCG random number generators (O'Neill 2014), written from the published
 * algorithm, with reproducible per-block streams for parallel Monte Carlo.
 *
 * Two members of the family are provided:
 *   - om_pcg64: PCG64-DXSM, a 128-bit LCG with the "cheap multiplier" and the
 *     DXSM output (numpy's PCG64DXSM). This is the generator of every simulation:
 *     its streams must be close in both state and increment to correlate.
 *   - om_pcg32: PCG-XSH-RR 64/32 (pcg-c's pcg32), kept for its published
 *     known-answer vectors and as a light generator for tests.
 * Streams: block b of a run seeded with S uses om_rng_seed_block(S, b), which
 * derives (initstate, initseq) with SplitMix64, so results never depend on which
 * thread runs a block. The hot step functions are static inline (no dispatch);
 * a gsl_rng_type wraps om_pcg64 for GSL's distributions, outside hot loops.
 */
#ifndef OM_RNG_H
#define OM_RNG_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

/* The DXSM cheap multiplier, also used in the output function (numpy pcg64.h). */
#define OM_PCG_CHEAP_MULT 0xda942042e4dd58b5ULL
/* pcg32's 64-bit LCG multiplier (pcg-c PCG_DEFAULT_MULTIPLIER_64). */
#define OM_PCG32_MULT 6364136223846793005ULL

/* __uint128_t is a GCC/Clang builtin that passes -Wpedantic (checked with the
 * project's -Wall -Wextra -Wpedantic -Werror build). */
typedef __uint128_t om_u128;

/* PCG64-DXSM state: 128-bit LCG state and odd increment (stream selector). */
typedef struct om_pcg64 {
    om_u128 state; /* LCG state, advanced once per output */
    om_u128 inc;   /* odd increment; distinct increments are distinct streams */
} om_pcg64;

/* pcg32 (XSH-RR 64/32) state. */
typedef struct om_pcg32 {
    uint64_t state; /* LCG state */
    uint64_t inc;   /* odd increment */
} om_pcg32;

/* The simulation generator. A value type: copy it to fork nothing, pass pointers. */
typedef om_pcg64 om_rng;

/* Advance pcg64 and return 64 bits from the pre-step state (DXSM output). */
static inline uint64_t om_pcg64_next(om_pcg64 *r)
{
    om_u128 old = r->state;
    uint64_t hi = (uint64_t)(old >> 64);
    uint64_t lo = (uint64_t)old | 1u;
    r->state = old * OM_PCG_CHEAP_MULT + r->inc;
    hi ^= hi >> 32;
    hi *= OM_PCG_CHEAP_MULT;
    hi ^= hi >> 48;
    hi *= lo;
    return hi;
}

/* Advance pcg32 and return 32 bits computed from the old state (XSH-RR). */
static inline uint32_t om_pcg32_next(om_pcg32 *r)
{
    uint64_t old = r->state;
    uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
    uint32_t rot = (uint32_t)(old >> 59);
    r->state = old * OM_PCG32_MULT + r->inc;
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

/* Seed pcg64 with the published setseq procedure: state=0; inc=2*seq+1; step;
 * state+=initstate; step. Matches numpy PCG64DXSM given the same pair. */
void om_pcg64_seed(om_pcg64 *r, om_u128 initstate, om_u128 initseq);

/* Seed pcg32 as pcg-c's pcg32_srandom_r(initstate, initseq). */
void om_pcg32_seed(om_pcg32 *r, uint64_t initstate, uint64_t initseq);

/* Set pcg64's raw state and increment (for known-answer tests). */
void om_pcg64_set_raw(om_pcg64 *r, om_u128 state, om_u128 inc);

/* Advance pcg64 by `delta` steps in O(log delta) (Brown 1994). */
void om_pcg64_advance(om_pcg64 *r, om_u128 delta);

/* SplitMix64 (Steele, Lea, Flood 2014): step *x and return a mixed value. */
uint64_t om_rng_splitmix64(uint64_t *x);

/*
 * om_rng_seed_block: seed `r` for work block `block` of a run with master seed
 * `seed`. Both the state and the increment are drawn from SplitMix64 over
 * (seed, block), so neighbouring blocks differ in state and increment. This is the
 * only way simulations seed generators: results are a function of (seed, block).
 */
void om_rng_seed_block(om_rng *r, uint64_t seed, uint64_t block);

/* Uniform double in [0,1) with 53 random bits. */
static inline double om_rng_uniform(om_rng *r)
{
    return (double)(om_pcg64_next(r) >> 11) * 0x1p-53;
}

/* Name recorded in result files for the generator and stream scheme. */
#define OM_RNG_SCHEME "pcg64-dxsm; block b seeded by SplitMix64(seed, b)"

/* The same for a run whose every trial has its own stream (om_run_config's
 * trial_streams): trial t is seeded as block t would be. */
#define OM_RNG_SCHEME_TRIALS "pcg64-dxsm; trial t seeded by SplitMix64(seed, t)"

/* GSL type wrapping om_pcg64 ("om-pcg64-dxsm", 64-bit output on LP64). */
extern const gsl_rng_type *om_rng_gsl_pcg64;

/* GSL type wrapping om_pcg32 ("om-pcg32", 32-bit output). */
extern const gsl_rng_type *om_rng_gsl_pcg32;

/*
 * om_rng_gsl_alloc: a GSL generator of type om_rng_gsl_pcg64 seeded for
 * (seed, block) exactly as om_rng_seed_block. Free with gsl_rng_free. Returns NULL
 * on allocation failure (GSL's error handler must be off; see main()).
 */
gsl_rng *om_rng_gsl_alloc(uint64_t seed, uint64_t block);

#endif /* OM_RNG_H */
