/*
 * dice.h: unbiased dice and fast batched dice primitives over om_rng.
 *
 * Three levels, fastest last:
 *   1. om_dice_d6: one unbiased D6 by Lemire's multiply-shift with rejection
 *      (Lemire, "Fast Random Integer Generation in an Interval", TOMACS 2019).
 *   2. Batches: om_dice_count_at_least (successes of n dice at a threshold) and
 *      om_dice_sum (the sum of n D6 and how many showed 6), which extract many
 *      dice from each 64-bit word (Brackett-Rozinsky & Lemire 2024) or count
 *      successes bit-sliced, 64 dice per word.
 *   3. om_binom_draw: the number of dice passing independent stages (to hit, then
 *      failing the save) is exactly Binomial(n, p1*p2) (binomial thinning), drawn
 *      in O(1) from a precomputed Walker alias table.
 * om_dice wraps a generator together with an optional plain baseline that rolls
 * every die with GSL's default generator and gsl_rng_uniform_int; the engine
 * calls the om_dice_* rule primitives so one rules implementation runs on either.
 */
#ifndef OM_DICE_H
#define OM_DICE_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "rng.h"
#include "status.h"

/* 2^64 mod 6: Lemire's method rejects a 64-bit draw whose low product word is
 * below this, which removes the modulo bias exactly. */
#define OM_DICE_D6_REJECT 4u

/* One unbiased D6 (1..6). */
static inline unsigned om_dice_d6(om_rng *r)
{
    for (;;) {
        om_u128 m = (om_u128)om_pcg64_next(r) * 6u;
        if ((uint64_t)m >= OM_DICE_D6_REJECT)
            return (unsigned)(m >> 64) + 1u;
    }
}

/*
 * om_dice_count_at_least: roll n D6 and return how many show `threshold` or more.
 * threshold <= 1 returns n; threshold >= 7 returns 0 without drawing. Every die is
 * an independent exact Bernoulli((7-threshold)/6). Thread-safe on distinct r.
 */
unsigned om_dice_count_at_least(om_rng *r, unsigned n, unsigned threshold);

/*
 * om_dice_sum: roll n D6 and return their sum; if `sixes` is not NULL store how
 * many dice showed 6 (drive backs: any 6 confuses). Exact and unbiased.
 */
unsigned om_dice_sum(om_rng *r, unsigned n, unsigned *sixes);

/* 2D6 and 3D6 sums (command tests, fall backs). */
unsigned om_dice_2d6(om_rng *r);
unsigned om_dice_3d6(om_rng *r);

/* Largest n for which a binomial table stores Bin(n,p) directly; larger n are
 * drawn as a sum of independent chunks, which is exact (Bin(a,p)+Bin(b,p) =
 * Bin(a+b,p)). 64 covers every Warmaster unit-round seen in the army lists. */
#define OM_BINOM_N_MAX 64u

/* One slot of an alias table: keep the slot's own outcome when the low 32 bits
 * of the draw are below `cut`, else return `alias`. A slot that always keeps its
 * outcome has cut = 2^32 - 1 and alias = itself, so the one draw equal to
 * 2^32 - 1 also returns it: 32 bits are exact. Packed so a draw reads one entry. */
typedef struct om_binom_slot {
    uint32_t cut;   /* acceptance threshold on the low 32 bits of the draw */
    uint32_t alias; /* outcome when the draw is at or above the threshold */
} om_binom_slot;

/*
 * Walker alias tables of Binomial(n, p) for n = 0..n_max, built once and shared
 * read-only between threads. Probabilities are quantised to 2^-32 and the slot
 * index to (n+1)/2^32, a bias below 1e-8 (far under the Monte Carlo error of any
 * run this program makes).
 */
typedef struct om_binom_table {
    unsigned n_max;       /* largest n stored */
    double p;             /* success probability of one die */
    uint32_t *offset;     /* offset[n]: index of Bin(n,p)'s first slot, n_max+1 entries */
    om_binom_slot *slot;  /* the slots of every Bin(n,p), n+1 each */
} om_binom_table;

/*
 * om_binom_table_alloc: build tables of Bin(n,p), n = 0..n_max (1 <= n_max <= 255).
 * Returns OM_EINVAL for p outside [0,1], n_max = 0 or n_max > 255, OM_ENOMEM on allocation
 * failure. The result is owned by the caller; free with om_binom_table_free.
 */
om_status om_binom_table_alloc(om_binom_table **out, double p, unsigned n_max);

/* Free a table from om_binom_table_alloc (NULL is allowed). */
void om_binom_table_free(om_binom_table *t);

/* Draw Bin(n, t->p) with one 64-bit random word per n_max-chunk. */
static inline unsigned om_binom_draw(const om_binom_table *t, om_rng *r, unsigned n)
{
    unsigned total = 0;
    while (n > 0) {
        unsigned k = n < t->n_max ? n : t->n_max;
        uint64_t u = om_pcg64_next(r);
        uint32_t slot = (uint32_t)(((u >> 32) * (uint64_t)(k + 1u)) >> 32);
        const om_binom_slot *e = &t->slot[t->offset[k] + slot];
        total += ((uint32_t)u < e->cut) ? slot : e->alias;
        n -= k;
    }
    return total;
}

/*
 * om_binom_draw_select: the same draw as om_binom_draw, word for word (equal
 * results from equal generator states), choosing between a slot's outcome
 * and its alias with a mask instead of a branch. The choice is a coin flip
 * the branch predictor cannot learn, so in loops that draw once per step
 * (the WHFB7 engine's blows) this avoids a misprediction a draw.
 */
static inline unsigned om_binom_draw_select(const om_binom_table *t, om_rng *r, unsigned n)
{
    unsigned total = 0;
    while (n > 0) {
        unsigned k = n < t->n_max ? n : t->n_max;
        uint64_t u = om_pcg64_next(r);
        uint32_t slot = (uint32_t)(((u >> 32) * (uint64_t)(k + 1u)) >> 32);
        const om_binom_slot *e = &t->slot[t->offset[k] + slot];
        uint32_t keep = 0u - (uint32_t)((uint32_t)u < e->cut);
        total += (slot & keep) | (e->alias & ~keep);
        n -= k;
    }
    return total;
}

/* P(k successes among n dice of success probability p): the binomial pmf the
 * alias tables are built from (exact in double precision). */
double om_dice_binomial_pmf(unsigned k, double p, unsigned n);

/* Most outcomes of a general alias table (om_alias). */
#define OM_ALIAS_N_MAX 65536u
/* How far the probabilities given to om_alias_alloc may sum from 1: products of
 * binomial probabilities sum to 1 within a few ulps per term. */
#define OM_ALIAS_SUM_TOL 1e-9

/*
 * A Walker alias table of any distribution over 0..n-1 (the same slots and the
 * same exactness as a binomial row: probabilities quantised to 2^-32, the slot
 * choice to n/2^32). Built once, shared read-only between threads.
 */
typedef struct om_alias {
    unsigned n;          /* number of outcomes */
    om_binom_slot *slot; /* n slots */
} om_alias;

/*
 * om_alias_alloc: the alias table of pmf[0..n-1] (1 <= n <= OM_ALIAS_N_MAX; each
 * in [0,1], summing to 1 within OM_ALIAS_SUM_TOL). Errors: OM_EINVAL, OM_ENOMEM.
 * Free with om_alias_free (NULL allowed).
 */
om_status om_alias_alloc(om_alias **out, const double *pmf, unsigned n);
void om_alias_free(om_alias *a);

/* Draw an outcome 0..n-1 with one 64-bit random word. */
static inline unsigned om_alias_draw(const om_alias *a, om_rng *r)
{
    uint64_t u = om_pcg64_next(r);
    uint32_t slot = (uint32_t)(((u >> 32) * (uint64_t)a->n) >> 32);
    const om_binom_slot *e = &a->slot[slot];
    return ((uint32_t)u < e->cut) ? slot : e->alias;
}

/* om_alias_draw_select: the same draw as om_alias_draw, word for word,
 * choosing between a slot's outcome and its alias with a mask instead of a
 * branch (see om_binom_draw_select). */
static inline unsigned om_alias_draw_select(const om_alias *a, om_rng *r)
{
    uint64_t u = om_pcg64_next(r);
    uint32_t slot = (uint32_t)(((u >> 32) * (uint64_t)a->n) >> 32);
    const om_binom_slot *e = &a->slot[slot];
    uint32_t keep = 0u - (uint32_t)((uint32_t)u < e->cut);
    return (slot & keep) | (e->alias & ~keep);
}

/*
 * A dice source for the rules engine. `rng` is always used in fast mode; when
 * `plain` is not NULL every die is rolled individually with
 * gsl_rng_uniform_int(plain, 6) instead (the benchmark baseline and a
 * cross-check of the fast path), or, when `plain` is an enumerator's
 * generator (enumerate.h), every primitive answers with each of its outcomes
 * in turn, for the exact law of a trial. The branch is taken once per
 * primitive call, never per die in fast mode.
 */
typedef struct om_dice {
    om_rng rng;     /* fast generator for this block */
    gsl_rng *plain; /* baseline generator (GSL default type), an enumerator's, or NULL */
} om_dice;

/*
 * One dice test of the rules: roll to hit needing `to_hit`+, then the target's
 * save needing `save`+ (7 = no save possible). `pass` is the alias table of
 * Bin(., P(hit) * P(save fails)), built from the same two numbers.
 */
typedef struct om_dice_test {
    uint8_t to_hit;             /* D6 score needed to hit (2..7; 7 never hits) */
    uint8_t save;               /* D6 score that saves (2..7; 7 = no save) */
    const om_binom_table *pass; /* Bin(n, p_hit * p_unsaved) */
} om_dice_test;

/* Probability that one die hits at to_hit+ and is then not saved at save+. */
double om_dice_test_probability(unsigned to_hit, unsigned save);

/* The plain baseline of om_dice_hits: every die rolled with GSL (dice.c). */
unsigned om_dice_hits_plain(om_dice *d, const om_dice_test *test, unsigned n);

/*
 * om_dice_hits: roll n dice through `test` and return the hits that are not saved.
 * Fast mode: each die passes both stages independently with p = P(hit) * P(no
 * save), so the count is exactly Binomial(n, p) (binomial thinning), one alias
 * draw per chunk (om_binom_draw_select). Plain mode rolls each to-hit die and
 * each save. Inline so the fast path costs no call; the mode branch is taken
 * once per call, not per die.
 */
static inline unsigned om_dice_hits(om_dice *d, const om_dice_test *test, unsigned n)
{
    if (d->plain != NULL)
        return om_dice_hits_plain(d, test, n);
    /* Branchless: a unit's hits are a coin flip to the branch predictor. */
    return om_binom_draw_select(test->pass, &d->rng, n);
}

/* om_dice_roll_sum: nD6 sum and count of sixes through the dice source. */
unsigned om_dice_roll_sum(om_dice *d, unsigned n, unsigned *sixes);

/* om_dice_roll_d6: one D6 through the dice source. */
unsigned om_dice_roll_d6(om_dice *d);

/* om_dice_roll_count: roll n D6 through the dice source and return how many show
 * `threshold` or more (fast: om_dice_count_at_least; plain: one GSL call per die).
 * For rules that must know each stage's count, such as re-rolls. */
unsigned om_dice_roll_count(om_dice *d, unsigned n, unsigned threshold);

#endif /* OM_DICE_H */
