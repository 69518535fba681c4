/*
 * stats.c: Wilson score intervals and histogram moments (stats.h).
 *
 * The Wilson interval (E. B. Wilson, "Probable inference, the law of succession,
 * and statistical inference", JASA 22, 1927) inverts the normal approximation of
 * the score test; Brown, Cai and DasGupta (Statistical Science 16, 2001) recommend
 * it over the Wald interval, which collapses to a point at 0/n and n/n.
 */
#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

om_status om_stats_wilson_real(double p, double n, double confidence, double *lo, double *hi)
{
    double z, z2, denom, centre, half;

    if (lo == NULL || hi == NULL)
        return OM_ERROR(OM_EINVAL, "om_stats_wilson: missing output");
    if (!(confidence > 0.0 && confidence < 1.0))
        return OM_ERROR(OM_EINVAL, "confidence must lie strictly between 0 and 1 (got %g)",
                        confidence);
    if (!(p >= 0.0 && p <= 1.0) || !(n > 0.0 && isfinite(n)))
        return OM_ERROR(OM_EINVAL, "a proportion %g from %g trials is impossible", p, n);

    /* Two-sided: the upper (1 + confidence) / 2 quantile of the standard normal. */
    z = gsl_cdf_ugaussian_Pinv(0.5 + 0.5 * confidence);
    z2 = z * z;
    denom = 1.0 + z2 / n;
    centre = (p + z2 / (2.0 * n)) / denom;
    half = z / denom * sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n));

    /*
     * At p = 0 and p = 1 the bounds are exactly 0 and 1 in exact arithmetic (centre
     * and half coincide); set them so rounding cannot leave -1e-17 or 1 + 1e-16.
     */
    *lo = p == 0.0 ? 0.0 : fmax(0.0, centre - half);
    *hi = p == 1.0 ? 1.0 : fmin(1.0, centre + half);
    return OM_OK;
}

om_status om_stats_wilson(uint64_t successes, uint64_t n, double confidence, double *lo,
                          double *hi)
{
    if (lo == NULL || hi == NULL)
        return OM_ERROR(OM_EINVAL, "om_stats_wilson: missing output");
    if (!(confidence > 0.0 && confidence < 1.0))
        return OM_ERROR(OM_EINVAL, "confidence must lie strictly between 0 and 1 (got %g)",
                        confidence);
    if (successes > n)
        return OM_ERROR(OM_EINVAL, "%llu successes out of %llu trials is impossible",
                        (unsigned long long)successes, (unsigned long long)n);
    if (n == 0) {
        *lo = 0.0;
        *hi = 1.0;
        return OM_OK;
    }
    /* successes == n gives exactly p = 1.0 in double: the edge cases carry over. */
    return om_stats_wilson_real((double)successes / (double)n, (double)n, confidence, lo, hi);
}

void om_stats_hist_add(uint64_t hist[OM_STATS_HIST_BINS], const uint8_t *values, size_t n)
{
    for (size_t i = 0; i < n; i++)
        hist[values[i]]++;
}

uint64_t om_stats_hist_total(const uint64_t hist[OM_STATS_HIST_BINS])
{
    uint64_t total = 0;
    for (unsigned v = 0; v < OM_STATS_HIST_BINS; v++)
        total += hist[v];
    return total;
}

om_status om_stats_hist_moments(const uint64_t hist[OM_STATS_HIST_BINS], double *mean,
                                double *sd)
{
    uint64_t total = om_stats_hist_total(hist);
    double m = 0.0, ss = 0.0;

    if (mean == NULL || sd == NULL)
        return OM_ERROR(OM_EINVAL, "om_stats_hist_moments: missing output");
    if (total == 0)
        return OM_ERROR(OM_EINVAL, "the mean of an empty histogram is undefined");
    for (unsigned v = 0; v < OM_STATS_HIST_BINS; v++)
        m += (double)v * (double)hist[v];
    m /= (double)total;
    /* Second pass about the mean: no cancellation between two large sums. */
    for (unsigned v = 0; v < OM_STATS_HIST_BINS; v++)
        ss += (double)hist[v] * ((double)v - m) * ((double)v - m);
    *mean = m;
    *sd = sqrt(ss / (double)total);
    return OM_OK;
}
