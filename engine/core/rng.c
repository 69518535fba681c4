/*
 * rng.c: seeding, jump-ahead and the GSL wrappers of the PCG generators.
 *
 * The step and output functions are inline in rng.h. Algorithms follow O'Neill,
 * "PCG: A Family of Simple Fast Space-Efficient Statistically Good Algorithms for
 * Random Number Generation" (2014) and the DXSM output adopted by numpy 1.21;
 * jump-ahead follows Brown, "Random Number Generation with Arbitrary Stride" (1994).
 */
#include "rng.h"

#include <stddef.h>

/* pcg-c's PCG_DEFAULT_MULTIPLIER_128 (2549297995355413924 * 2^64 +
 * 4865540595714422341). numpy seeds PCG64DXSM with pcg_setseq_128_srandom_r,
 * whose two steps use this multiplier, not the cheap one that steps the
 * generator afterwards (numpy/random/_pcg64.pyx calls pcg64_set_seed, and
 * pcg64.h defines pcg64_srandom_r as pcg_setseq_128_srandom_r). */
#define OM_PCG64_SEED_MULT \
    (((om_u128)0x2360ed051fc65da4ULL << 64) | 0x4385df649fccf645ULL)

void om_pcg64_seed(om_pcg64 *r, om_u128 initstate, om_u128 initseq)
{
    r->state = 0;
    r->inc = (initseq << 1) | 1u;
    r->state = r->state * OM_PCG64_SEED_MULT + r->inc;
    r->state += initstate;
    r->state = r->state * OM_PCG64_SEED_MULT + r->inc;
}

void om_pcg32_seed(om_pcg32 *r, uint64_t initstate, uint64_t initseq)
{
    r->state = 0;
    r->inc = (initseq << 1) | 1u;
    (void)om_pcg32_next(r);
    r->state += initstate;
    (void)om_pcg32_next(r);
}

void om_pcg64_set_raw(om_pcg64 *r, om_u128 state, om_u128 inc)
{
    r->state = state;
    r->inc = inc | 1u;
}

/* Brown's algorithm: compose the affine map x -> m*x + c with itself, picking the
 * powers that make up delta, so advancing costs O(log delta) multiplications. */
void om_pcg64_advance(om_pcg64 *r, om_u128 delta)
{
    om_u128 cur_mult = OM_PCG_CHEAP_MULT, cur_plus = r->inc;
    om_u128 acc_mult = 1, acc_plus = 0;
    while (delta > 0) {
        if (delta & 1u) {
            acc_mult *= cur_mult;
            acc_plus = acc_plus * cur_mult + cur_plus;
        }
        cur_plus = (cur_mult + 1) * cur_plus;
        cur_mult *= cur_mult;
        delta >>= 1;
    }
    r->state = acc_mult * r->state + acc_plus;
}

uint64_t om_rng_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void om_rng_seed_block(om_rng *r, uint64_t seed, uint64_t block)
{
    /* Mix the block index into the SplitMix64 start so that (seed, block) pairs
     * map to unrelated sequences; four outputs fill a 128-bit state and increment. */
    uint64_t hashed = seed, x;
    om_u128 s, q;
    /* Hash the seed before mixing in the block, so that no simple relation
     * between two seeds (such as an XOR) maps one seed's blocks onto another's. */
    hashed = om_rng_splitmix64(&hashed);
    x = hashed ^ (block * 0xd1342543de82ef95ULL + 0x2545f4914f6cdd1dULL);
    (void)om_rng_splitmix64(&x);
    s = ((om_u128)om_rng_splitmix64(&x) << 64) | om_rng_splitmix64(&x);
    q = ((om_u128)om_rng_splitmix64(&x) << 64) | om_rng_splitmix64(&x);
    om_pcg64_seed(r, s, q);
}

/* --- GSL wrappers (rng/taus.c is the template). --- */

static void gsl_pcg64_set(void *vstate, unsigned long seed)
{
    om_rng_seed_block((om_pcg64 *)vstate, (uint64_t)seed, 0);
}

static unsigned long gsl_pcg64_get(void *vstate)
{
    return (unsigned long)om_pcg64_next((om_pcg64 *)vstate);
}

static double gsl_pcg64_get_double(void *vstate)
{
    return (double)(om_pcg64_next((om_pcg64 *)vstate) >> 11) * 0x1p-53;
}

static void gsl_pcg32_set(void *vstate, unsigned long seed)
{
    om_pcg32_seed((om_pcg32 *)vstate, (uint64_t)seed, 54u);
}

static unsigned long gsl_pcg32_get(void *vstate)
{
    return (unsigned long)om_pcg32_next((om_pcg32 *)vstate);
}

static double gsl_pcg32_get_double(void *vstate)
{
    return (double)om_pcg32_next((om_pcg32 *)vstate) * 0x1p-32;
}

_Static_assert(sizeof(unsigned long) == 8, "the 64-bit GSL wrapper needs LP64");

static const gsl_rng_type gsl_pcg64_type = {
    "om-pcg64-dxsm", 0xffffffffffffffffUL, 0, sizeof(om_pcg64),
    gsl_pcg64_set, gsl_pcg64_get, gsl_pcg64_get_double};

static const gsl_rng_type gsl_pcg32_type = {
    "om-pcg32", 0xffffffffUL, 0, sizeof(om_pcg32),
    gsl_pcg32_set, gsl_pcg32_get, gsl_pcg32_get_double};

const gsl_rng_type *om_rng_gsl_pcg64 = &gsl_pcg64_type;
const gsl_rng_type *om_rng_gsl_pcg32 = &gsl_pcg32_type;

gsl_rng *om_rng_gsl_alloc(uint64_t seed, uint64_t block)
{
    gsl_rng *g = gsl_rng_alloc(om_rng_gsl_pcg64);
    if (g == NULL)
        return NULL;
    om_rng_seed_block((om_pcg64 *)g->state, seed, block);
    return g;
}
