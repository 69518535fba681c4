/*
 * stats.h: small statistics for result analysis: Wilson score intervals for
 * binomial proportions, and the moments of a histogram of uint8 values.
 *
 * Pure functions of their arguments; thread-safe. GSL is used here only for
 * the normal quantile (bt.c uses its linear algebra).
 */
#ifndef OM_STATS_H
#define OM_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

/* Bins of a histogram of uint8 values: one per value 0..255. */
#define OM_STATS_HIST_BINS 256

/*
 * om_stats_wilson: the Wilson score interval [*lo, *hi] for a binomial proportion
 * with `successes` out of `n` trials at two-sided confidence `confidence` (e.g.
 * 0.95), with z = Phi^-1(1 - (1 - confidence) / 2):
 *
 *   centre = (p + z^2/(2n)) / (1 + z^2/n),
 *   half   = z / (1 + z^2/n) * sqrt(p(1-p)/n + z^2/(4n^2)),   p = successes / n.
 *
 * Unlike the normal (Wald) interval it stays inside [0, 1] and is not empty at
 * 0/n or n/n: for 0 successes lo is exactly 0, for n successes hi is exactly 1
 * (e.g. 0/10 at 95% gives [0, 0.2775]). With n = 0 nothing is known and the
 * interval is [0, 1]. Errors: OM_EINVAL if successes > n, confidence is not in
 * (0, 1), or lo/hi is NULL (then *lo and *hi are not written).
 */
om_status om_stats_wilson(uint64_t successes, uint64_t n, double confidence, double *lo,
                          double *hi);

/*
 * om_stats_wilson_real: the same interval for a proportion `p` in [0, 1] known
 * from an effective number of trials `n` > 0 that need not be an integer, e.g.
 * the mean of K proportions from n_1..n_K trials, whose variance is that of
 * one proportion from n = K^2 / sum(1/n_k) trials (exactly the pooled count
 * when every n_k is equal). om_stats_wilson(x, n) is om_stats_wilson_real(x/n, n).
 * Errors: OM_EINVAL for p outside [0, 1], n not positive and finite, a bad
 * confidence or a NULL output (outputs then untouched).
 */
om_status om_stats_wilson_real(double p, double n, double confidence, double *lo, double *hi);

/*
 * om_stats_hist_add: count the `n` values of `values` into `hist` (which the
 * caller zeroes once before the first call). Adds without allocating, so a whole
 * column can be streamed through it in chunks.
 */
void om_stats_hist_add(uint64_t hist[OM_STATS_HIST_BINS], const uint8_t *values, size_t n);

/*
 * om_stats_hist_total: the number of values counted in `hist`.
 */
uint64_t om_stats_hist_total(const uint64_t hist[OM_STATS_HIST_BINS]);

/*
 * om_stats_hist_moments: the mean and the standard deviation of the values
 * counted in `hist` (hist[v] = how many times v occurred). The standard deviation
 * is that of the counted values themselves (divisor n, not n - 1), so mean and sd
 * are exactly the moments of the empirical distribution a summary reports; with
 * the millions of trials of a run the two divisors agree to many digits.
 * Computed in two passes for accuracy. Errors: OM_EINVAL for an empty histogram
 * or a NULL output (outputs then untouched).
 */
om_status om_stats_hist_moments(const uint64_t hist[OM_STATS_HIST_BINS], double *mean,
                                double *sd);

#endif /* OM_STATS_H */
