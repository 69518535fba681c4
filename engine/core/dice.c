/*
 * dice.c: exact dice primitives over om_rng (the contract is in dice.h).
 *
 * Implements bit-sliced success counting (64 dice per 64-bit word), batched D6
 * sums (Brackett-Rozinsky & Lemire 2024, up to 20 dice per word), Walker/Vose
 * alias tables of Binomial(n, p) for binomial thinning, and the om_dice source
 * that runs either the fast path or the plain per-die GSL baseline
 * (bench/bench_engagement compares the two).
 */
#include "dice.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>

#include "enumerate.h"

/* Faces of a die. */
#define OM_DICE_FACES 6u

/* Lanes of a bit-sliced word: bit i of every plane belongs to die i. */
#define OM_DICE_LANES 64u

/* Dice extracted from one 64-bit word by the batched method. 6^20 < 2^64, so a
 * word is rejected with probability (2^64 mod 6^20) / 2^64 = 7.7e-5, and 20 dice
 * use 51.7 of the 64 bits. k = 23 would fit 22.65 dice a word on average but
 * reject 1.5 % of words; 20 is the simple choice. */
#define OM_DICE_PER_WORD 20u

/* Largest n of an alias table: outcomes 0..n must fit the uint8_t alias[]. */
#define OM_BINOM_N_LIMIT 255u

/* The weight of one full slot: 2^32 units (a slot that always keeps its outcome). */
#define OM_BINOM_CUT_ONE (UINT64_C(1) << 32)

/* om_pow6[j] = 6^j for j = 0..20, the digit weights of the batched method. */
static const uint64_t om_pow6[OM_DICE_PER_WORD + 1u] = {
    UINT64_C(1),
    UINT64_C(6),
    UINT64_C(36),
    UINT64_C(216),
    UINT64_C(1296),
    UINT64_C(7776),
    UINT64_C(46656),
    UINT64_C(279936),
    UINT64_C(1679616),
    UINT64_C(10077696),
    UINT64_C(60466176),
    UINT64_C(362797056),
    UINT64_C(2176782336),
    UINT64_C(13060694016),
    UINT64_C(78364164096),
    UINT64_C(470184984576),
    UINT64_C(2821109907456),
    UINT64_C(16926659444736),
    UINT64_C(101559956668416),
    UINT64_C(609359740010496),
    UINT64_C(3656158440062976),
};

/* Number of set bits of x. GCC and Clang lower the builtin to one POPCNT where
 * the target has it; the fallback is the classic SWAR sum of bit fields. */
static inline unsigned om_dice_popcount(uint64_t x)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_popcountll(x);
#else
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

/* Mask of the low `lanes` bits, 1 <= lanes <= 64. */
static inline uint64_t om_dice_lane_mask(unsigned lanes)
{
    assert(lanes >= 1u && lanes <= OM_DICE_LANES);
    return lanes == OM_DICE_LANES ? ~UINT64_C(0) : (UINT64_C(1) << lanes) - 1u;
}

/*
 * Successes among the `live` lanes of one bit-sliced word of dice.
 *
 * Lane i holds one die with value v = a + 2b + 4c (face v + 1), its three bits
 * taken from bit i of the planes a, b and c. A die needs v in 0..5, so (b, c) must
 * be uniform on {00, 10, 01}: lanes showing b = c = 1 (v = 6 or 7) redraw both
 * bits until they do not. That is rejection sampling done independently in each
 * lane, so every accepted lane is exactly uniform, and each round redraws a lane
 * with probability 1/4. Whether a lane is rejected does not depend on its a bit,
 * so a needs no redraw at all and is drawn once, and only by the thresholds that
 * look at it. For 64 lanes the loop runs 3.9 rounds on average (the expected
 * maximum of 64 geometric counts with success 3/4), so 64 dice take 8 to 9
 * words.
 *
 * A die succeeds at threshold t when v + 1 >= t, that is v >= t - 1:
 *   2+: v >= 1  <=>  a | b | c   (it fails only on v = 0: P = 1 - 1/2 * 1/3 = 5/6)
 *   3+: v >= 2  <=>  b | c       (P = 2/3)
 *   5+: v >= 4  <=>  c           (P = 1/3)
 *   6+: v == 5  <=>  a & c       (P = 1/2 * 1/3 = 1/6)
 * Threshold 4 (p = 1/2) never gets here: one plain bit per die is enough.
 */
static inline uint64_t om_dice_sliced_successes(om_rng *r, uint64_t live,
                                                unsigned threshold)
{
    uint64_t b = om_pcg64_next(r);
    uint64_t c = om_pcg64_next(r);
    uint64_t bad = b & c & live;

    while (bad != 0) {
        uint64_t b2 = om_pcg64_next(r);
        uint64_t c2 = om_pcg64_next(r);
        /* Only the rejected lanes take new bits; accepted lanes keep theirs,
         * so they stay accepted and bad can only shrink towards zero. */
        b = (b & ~bad) | (b2 & bad);
        c = (c & ~bad) | (c2 & bad);
        bad = b & c & live;
    }
    switch (threshold) {
    case 2u:
        return (om_pcg64_next(r) | b | c) & live;
    case 3u:
        return (b | c) & live;
    case 5u:
        return c & live;
    default:
        assert(threshold == 6u);
        return om_pcg64_next(r) & c & live;
    }
}

/*
 * One 64-bit word from which k dice (1 <= k <= 20) can be read exactly.
 *
 * The method of Brackett-Rozinsky & Lemire, "Batched Ranged Random Integer
 * Generation" (Software: Practice and Experience, 2024). For a uniform word w,
 * hi(w * 6^k) = floor(w * 6^k / 2^64) is a number in [0, 6^k), and Lemire's
 * rejection rule makes it exactly uniform: reject the word when
 * lo(w * 6^k) < 2^64 mod 6^k. That threshold is below 6^k, so the slow test,
 * which needs a division, runs only when lo(w * 6^k) < 6^k (probability
 * 6^k / 2^64 <= 2e-4). The k base-6 digits of an exactly uniform number in
 * [0, 6^k) are k independent exact D6; om_dice_digit reads them.
 */
static inline uint64_t om_dice_batch_word(om_rng *r, unsigned k)
{
    const uint64_t range = om_pow6[k];

    assert(k >= 1u && k <= OM_DICE_PER_WORD);
    for (;;) {
        uint64_t w = om_pcg64_next(r);
        uint64_t lo = w * range;
        /* (0 - range) % range is 2^64 mod range in 64-bit arithmetic. */
        if (lo >= range || lo >= (0u - range) % range)
            return w;
    }
}

/*
 * Digit j (0-based, most significant first) of hi(w * 6^k) in base 6, a die
 * showing face digit + 1. Writing w * 6^j = H * 2^64 + L gives
 * w * 6^(j+1) = (6H + hi(6L)) * 2^64 + lo(6L), so each step appends the digit
 * hi(6L), where L = lo(w * 6^j) is a wrapping 64-bit product. The digits thus do
 * not depend on one another and their multiplies overlap.
 */
static inline unsigned om_dice_digit(uint64_t w, unsigned j)
{
    return (unsigned)(((om_u128)(w * om_pow6[j]) * OM_DICE_FACES) >> 64);
}

/* Roll k dice (1 <= k <= 20) from one accepted word: add their faces to *sum
 * and the number of sixes to *sixes. */
static inline void om_dice_sum_word(om_rng *r, unsigned k, unsigned *sum,
                                    unsigned *sixes)
{
    uint64_t w = om_dice_batch_word(r, k);
    unsigned s = 0, six = 0;

    for (unsigned j = 0; j < k; j++) {
        unsigned digit = om_dice_digit(w, j);
        s += digit;
        six += digit == OM_DICE_FACES - 1u;
    }
    /* A digit d is the face d + 1. */
    *sum += s + k;
    *sixes += six;
}

/* Successes among k dice (1 <= k <= 20) read from one accepted word: a die
 * scores threshold or more when its digit (face - 1) is threshold - 1 or more. */
static inline unsigned om_dice_count_word(om_rng *r, unsigned k, unsigned threshold)
{
    uint64_t w = om_dice_batch_word(r, k);
    unsigned hits = 0;

    for (unsigned j = 0; j < k; j++)
        hits += om_dice_digit(w, j) + 1u >= threshold;
    return hits;
}

/*
 * om_dice_count_at_least: the number of n D6 showing `threshold` or more.
 *
 * Inputs: a generator, the number of dice and the score needed. Output: the count
 * of successes, exactly Binomial(n, (7 - threshold) / 6) for thresholds 2..6.
 * threshold <= 1 returns n and threshold >= 7 returns 0, neither drawing anything.
 * Threshold 4 is p = 1/2, so each random bit is one die and popcount counts 64
 * dice at once; the final partial word is masked to the dice still wanted. Other
 * thresholds take 64 dice at a time from om_dice_sliced_successes; a rest of
 * 21..63 dice is sliced with a lane mask, and a rest of 1..20 dice is read as
 * the digits of one batched word (om_dice_count_word).
 * No allocation; thread-safe on distinct generators. No error codes.
 */
unsigned om_dice_count_at_least(om_rng *r, unsigned n, unsigned threshold)
{
    unsigned hits = 0;

    if (threshold <= 1u)
        return n;
    if (threshold >= 7u || n == 0u)
        return 0;
    if (threshold == 4u) {
        for (; n >= OM_DICE_LANES; n -= OM_DICE_LANES)
            hits += om_dice_popcount(om_pcg64_next(r));
        if (n > 0u)
            hits += om_dice_popcount(om_pcg64_next(r) & om_dice_lane_mask(n));
        return hits;
    }
    for (; n >= OM_DICE_LANES; n -= OM_DICE_LANES)
        hits += om_dice_popcount(om_dice_sliced_successes(r, ~UINT64_C(0), threshold));
    /* A rest that one batched word holds is cheaper read as digits: one word
     * and no redraw loop, whose unpredictable trip count costs more than the
     * digit multiplies for few dice (measured on the 2-core VM at -O2: one die
     * 18-20 ns sliced against 10 ns as a digit; 20 dice 23 ns against 19 ns). */
    if (n > OM_DICE_PER_WORD)
        hits += om_dice_popcount(om_dice_sliced_successes(r, om_dice_lane_mask(n), threshold));
    else if (n > 0u)
        hits += om_dice_count_word(r, n, threshold);
    return hits;
}

/*
 * om_dice_sum: the sum of n D6, and through `sixes` (if not NULL) how many of them
 * showed 6. Every die is an exact independent D6 (om_dice_sum_word); 20 dice
 * come from each accepted word. n = 0 gives 0 and no sixes. The sum fits an
 * unsigned for n below 7e8. No allocation; thread-safe on distinct generators.
 * No error codes.
 */
unsigned om_dice_sum(om_rng *r, unsigned n, unsigned *sixes)
{
    unsigned sum = 0, six = 0;

    for (; n >= OM_DICE_PER_WORD; n -= OM_DICE_PER_WORD)
        om_dice_sum_word(r, OM_DICE_PER_WORD, &sum, &six);
    if (n > 0u)
        om_dice_sum_word(r, n, &sum, &six);
    if (sixes != NULL)
        *sixes = six;
    return sum;
}

/*
 * om_dice_2d6: the sum of two D6 (2..12), exact, from one word in all but
 * 16 / 2^64 of cases. Thread-safe on distinct generators.
 */
unsigned om_dice_2d6(om_rng *r)
{
    unsigned sum = 0, six = 0;
    om_dice_sum_word(r, 2u, &sum, &six);
    return sum;
}

/*
 * om_dice_3d6: the sum of three D6 (3..18), exact, from one word in all but
 * 160 / 2^64 of cases. Thread-safe on distinct generators.
 */
unsigned om_dice_3d6(om_rng *r)
{
    unsigned sum = 0, six = 0;
    om_dice_sum_word(r, 3u, &sum, &six);
    return sum;
}

/*
 * Build the alias table of a distribution pmf[0..k] in slot[0..k], with scratch
 * arrays weight[], small[] and large[] of k + 1 entries each.
 *
 * A draw picks slot i with probability (almost exactly) 1 / (k + 1) and returns
 * i when the low 32 bits of the word are below slot[i].cut, slot[i].alias
 * otherwise. Scale every probability by (k + 1) * 2^32, so a slot holds exactly
 * 2^32 units; weight[j] = round(pmf(j) * (k + 1) * 2^32). Rounding leaves the
 * total within about (k + 1) / 2 units of (k + 1) * 2^32; the mode, which holds
 * at least 2^32 units because pmf(mode) >= 1 / (k + 1) (the largest of k + 1
 * probabilities is at least their mean), absorbs the difference, so the weights
 * sum to the slot capacity exactly. Every weight is then within half a unit of
 * exact and the mode within (k + 1) / 2 units, a probability error of at most
 * about (k + 1) 2^-33.
 * Vose's method, in integers: take any outcome s with weight below 2^32 and any l
 * with weight at or above it; slot s keeps s for weight[s] units and gives the
 * remaining 2^32 - weight[s] to l, whose weight drops by as much (to at least
 * weight[s] >= 0). Each pairing removes one slot and exactly 2^32 units, so what
 * remains always sums to 2^32 per slot: when the small outcomes run out, every
 * remaining large one holds exactly 2^32, and the small ones cannot outlast the
 * large ones. No floating point enters the pairing, so the table reproduces the
 * rounded weights exactly.
 */
static void om_alias_build(const double *pmf, unsigned k, om_binom_slot *slot, uint64_t *weight,
                           uint32_t *small, uint32_t *large)
{
    const uint64_t total = (uint64_t)(k + 1u) << 32;
    const double scale = (double)total;
    uint64_t sum = 0;
    unsigned mode = 0, n_small = 0, n_large = 0;

    for (unsigned j = 0; j <= k; j++) {
        weight[j] = (uint64_t)(pmf[j] * scale + 0.5);
        sum += weight[j];
        if (weight[j] > weight[mode])
            mode = j;
    }
    /* The mode can absorb the rounding difference without going negative. */
    assert(weight[mode] + total >= sum);
    weight[mode] = weight[mode] + total - sum;

    for (unsigned j = 0; j <= k; j++) {
        if (weight[j] < OM_BINOM_CUT_ONE)
            small[n_small++] = j;
        else
            large[n_large++] = j;
    }
    while (n_small > 0 && n_large > 0) {
        unsigned s = small[--n_small];
        unsigned l = large[n_large - 1u];
        slot[s].cut = (uint32_t)weight[s];
        slot[s].alias = l;
        weight[l] -= OM_BINOM_CUT_ONE - weight[s];
        if (weight[l] < OM_BINOM_CUT_ONE) {
            n_large--;
            small[n_small++] = l;
        }
    }
    while (n_large > 0) {
        unsigned l = large[--n_large];
        assert(weight[l] == OM_BINOM_CUT_ONE);
        slot[l].cut = UINT32_MAX; /* always l: see om_binom_slot */
        slot[l].alias = l;
    }
    /* Exact integer bookkeeping leaves no small outcome behind (see above). */
    while (NEVER(n_small > 0)) {
        unsigned s = small[--n_small];
        slot[s].cut = UINT32_MAX;
        slot[s].alias = s;
    }
}

double om_dice_binomial_pmf(unsigned k, double p, unsigned n)
{
    return gsl_ran_binomial_pdf(k, p, n);
}

/* The alias table of Bin(k, p) in slot[0..k] (om_alias_build). */
static void om_binom_alias_build(double p, unsigned k, om_binom_slot *slot)
{
    double pmf[OM_BINOM_N_LIMIT + 1u];
    uint64_t weight[OM_BINOM_N_LIMIT + 1u];
    uint32_t small[OM_BINOM_N_LIMIT + 1u], large[OM_BINOM_N_LIMIT + 1u];
    assert(k <= OM_BINOM_N_LIMIT);
    for (unsigned j = 0; j <= k; j++)
        pmf[j] = gsl_ran_binomial_pdf(j, p, k);
    om_alias_build(pmf, k, slot, weight, small, large);
}

/*
 * om_alias_alloc: see dice.h. The scratch arrays are allocated here, once per
 * table, never while drawing.
 */
om_status om_alias_alloc(om_alias **out, const double *pmf, unsigned n)
{
    om_alias *a;
    uint64_t *weight;
    uint32_t *small, *large;
    double total = 0;

    *out = NULL;
    if (n == 0 || n > OM_ALIAS_N_MAX)
        return OM_ERROR(OM_EINVAL, "alias table: %u outcomes (1 to %u allowed)", n,
                        OM_ALIAS_N_MAX);
    for (unsigned i = 0; i < n; i++) {
        if (!(pmf[i] >= 0.0 && pmf[i] <= 1.0))
            return OM_ERROR(OM_EINVAL, "alias table: probability %g of outcome %u is "
                            "outside [0, 1]", pmf[i], i);
        total += pmf[i];
    }
    /* The probabilities must sum to 1 up to rounding (OM_ALIAS_SUM_TOL). */
    if (fabs(total - 1.0) > OM_ALIAS_SUM_TOL)
        return OM_ERROR(OM_EINVAL, "alias table: probabilities sum to %.17g, not 1", total);
    a = calloc(1, sizeof *a);
    weight = malloc(n * sizeof *weight);
    small = malloc(n * sizeof *small);
    large = malloc(n * sizeof *large);
    if (a != NULL)
        a->slot = malloc(n * sizeof *a->slot);
    if (a == NULL || a->slot == NULL || weight == NULL || small == NULL || large == NULL) {
        om_alias_free(a);
        free(weight);
        free(small);
        free(large);
        return OM_ERROR(OM_ENOMEM, "alias table: out of memory for %u outcomes", n);
    }
    a->n = n;
    om_alias_build(pmf, n - 1u, a->slot, weight, small, large);
    free(weight);
    free(small);
    free(large);
    *out = a;
    return OM_OK;
}

void om_alias_free(om_alias *a)
{
    if (a == NULL)
        return;
    free(a->slot);
    free(a);
}

/*
 * om_binom_table_alloc: alias tables of Bin(n, p) for every n = 0..n_max.
 *
 * Inputs: p in [0, 1] and 1 <= n_max <= 255. On success *out owns a new table (free
 * it with om_binom_table_free) and OM_OK is returned. Errors: OM_EINVAL when p is
 * outside [0, 1] (NaN included) or n_max > 255, the largest outcome a uint8_t
 * alias entry can hold; OM_ENOMEM when an allocation fails. On error *out is NULL
 * and nothing is left allocated. Probabilities come from gsl_ran_binomial_pdf.
 * The table is read-only after this call, so threads may share it.
 * n_max = 0 is rejected: om_binom_draw splits n into chunks of n_max dice, so
 * such a table could never draw n > 0.
 */
om_status om_binom_table_alloc(om_binom_table **out, double p, unsigned n_max)
{
    om_binom_table *t;
    size_t slots, at = 0;

    assert(out != NULL);
    *out = NULL;
    if (!(p >= 0.0 && p <= 1.0))
        return OM_ERROR(OM_EINVAL,
                        "binomial table: success probability %g is outside [0, 1]", p);
    if (n_max == 0u)
        return OM_ERROR(OM_EINVAL, "binomial table: n_max must be at least 1");
    if (n_max > OM_BINOM_N_LIMIT)
        return OM_ERROR(OM_EINVAL,
                        "binomial table: n_max %u is above %u, the largest outcome "
                        "an alias entry can hold", n_max, OM_BINOM_N_LIMIT);

    /* Bin(n, p) takes n + 1 slots, so the tables need sum (n + 1) slots. */
    slots = (size_t)(n_max + 1u) * (n_max + 2u) / 2u;
    t = calloc(1, sizeof *t);
    if (t == NULL)
        return OM_ERROR(OM_ENOMEM, "binomial table: out of memory");
    t->n_max = n_max;
    t->p = p;
    t->offset = malloc((n_max + 1u) * sizeof *t->offset);
    t->slot = malloc(slots * sizeof *t->slot);
    if (t->offset == NULL || t->slot == NULL) {
        om_binom_table_free(t);
        return OM_ERROR(OM_ENOMEM,
                        "binomial table: out of memory for %zu slots", slots);
    }
    for (unsigned n = 0; n <= n_max; n++) {
        t->offset[n] = (uint32_t)at;
        om_binom_alias_build(p, n, t->slot + at);
        at += n + 1u;
    }
    assert(at == slots);
    *out = t;
    return OM_OK;
}

/*
 * om_binom_table_free: release a table from om_binom_table_alloc. NULL is
 * allowed. No thread may still be drawing from the table.
 */
void om_binom_table_free(om_binom_table *t)
{
    if (t == NULL)
        return;
    free(t->offset);
    free(t->slot);
    free(t);
}

/*
 * om_dice_test_probability: P(one die hits on to_hit+ and then fails a save on
 * save+) = P(D6 >= to_hit) * P(D6 < save) = (7 - to_hit)(save - 1) / 36.
 *
 * to_hit and save are 2..7; 7 means "cannot hit" for to_hit and "no save" for
 * save. Out-of-range values are clamped the same way as om_dice_count_at_least:
 * to_hit <= 1 always hits and save <= 1 always saves. The numerator is an integer
 * 0..36, so the result is the correctly rounded double of the exact fraction.
 * Pure function, thread-safe, no error codes.
 */
double om_dice_test_probability(unsigned to_hit, unsigned save)
{
    unsigned hit_faces = to_hit <= 1u ? OM_DICE_FACES
                       : to_hit >= 7u ? 0u : 7u - to_hit;
    unsigned fail_faces = save <= 1u ? 0u
                        : save >= 7u ? OM_DICE_FACES : save - 1u;
    return (double)(hit_faces * fail_faces) / (double)(OM_DICE_FACES * OM_DICE_FACES);
}

/* One D6 from the plain baseline generator: GSL's uniform integer in 0..5, plus 1. */
static inline unsigned om_dice_plain_d6(gsl_rng *g)
{
    return (unsigned)gsl_rng_uniform_int(g, OM_DICE_FACES) + 1u;
}

/*
 * om_dice_hits_plain: the plain baseline of om_dice_hits (dice.h): every to-hit
 * die, then one save die per hit, rolled with gsl_rng_uniform_int(d->plain, 6)
 * + 1. The fast path (binomial thinning) is inline in dice.h.
 */
unsigned om_dice_hits_plain(om_dice *d, const om_dice_test *test, unsigned n)
{
    unsigned hits = 0, unsaved = 0;
    om_enum *e;

    assert(d != NULL && d->plain != NULL && test != NULL);
    /* Enumerated: the count the fast path draws, Bin(n, P(hit and unsaved)). */
    if ((e = om_enum_of(d)) != NULL)
        return om_enum_binomial(e, test->pass->p, n);
    for (unsigned i = 0; i < n; i++)
        hits += om_dice_plain_d6(d->plain) >= test->to_hit;
    for (unsigned i = 0; i < hits; i++)
        unsaved += om_dice_plain_d6(d->plain) < test->save;
    return unsaved;
}

/*
 * om_dice_roll_sum: the sum of n D6 and, through `sixes` (if not NULL), the count
 * of sixes. Fast mode is om_dice_sum; plain mode rolls each die with
 * gsl_rng_uniform_int. Thread-safe on distinct om_dice. No error codes.
 */
unsigned om_dice_roll_sum(om_dice *d, unsigned n, unsigned *sixes)
{
    unsigned sum = 0, six = 0;
    om_enum *e;

    assert(d != NULL);
    if (d->plain == NULL)
        return om_dice_sum(&d->rng, n, sixes);
    if ((e = om_enum_of(d)) != NULL)
        return om_enum_sum(e, n, sixes);
    for (unsigned i = 0; i < n; i++) {
        unsigned face = om_dice_plain_d6(d->plain);
        sum += face;
        six += face == OM_DICE_FACES;
    }
    if (sixes != NULL)
        *sixes = six;
    return sum;
}

/*
 * om_dice_roll_d6: one D6 (1..6). Fast mode is om_dice_d6 (Lemire's
 * multiply-shift); plain mode is one gsl_rng_uniform_int. Thread-safe on distinct
 * om_dice. No error codes.
 */
unsigned om_dice_roll_d6(om_dice *d)
{
    om_enum *e;
    assert(d != NULL);
    if (d->plain == NULL)
        return om_dice_d6(&d->rng);
    if ((e = om_enum_of(d)) != NULL)
        return om_enum_d6(e);
    return om_dice_plain_d6(d->plain);
}

unsigned om_dice_roll_count(om_dice *d, unsigned n, unsigned threshold)
{
    unsigned count = 0;
    om_enum *e;
    assert(d != NULL);
    if (d->plain == NULL)
        return om_dice_count_at_least(&d->rng, n, threshold);
    /* Enumerated: Bin(n, P(D6 >= threshold)), as om_dice_count_at_least. */
    if ((e = om_enum_of(d)) != NULL)
        return om_enum_binomial(e, threshold <= 1u ? 1.0
                                   : threshold >= 7u ? 0.0
                                                     : (double)(7u - threshold) / OM_DICE_FACES,
                                n);
    for (unsigned i = 0; i < n; i++)
        count += om_dice_plain_d6(d->plain) >= threshold;
    return count;
}
