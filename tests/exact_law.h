/*
 * exact_law.h: the checks of a Monte Carlo frequency against an exact law,
 * shared by the test programs (test_command.c, test_turn.c, test_wm.c,
 * test_magic.c, test_magic_lasting.c, test_magic_phase.c, test_magic_devices.c,
 * test_exact.c). Header-only: each test program is one file.
 *
 * A frequency passes when it lies within SIGMAS standard errors of the exact
 * probability, the standard error of a binomial proportion at the exact p. A
 * probability of 0 or 1 admits no error: the count must be exactly 0 or n.
 */
#ifndef OM_TESTS_EXACT_LAW_H
#define OM_TESTS_EXACT_LAW_H

#include <math.h>

#include <criterion/criterion.h>

/* The tolerance of every statistical check, in standard errors. */
#ifndef SIGMAS
#define SIGMAS 5.0
#endif

/* Expect count/n to be p within SIGMAS standard errors (exactly, for p 0 or 1). */
static inline void expect_p(const char *what, unsigned long count, unsigned long n, double p)
{
    const double est = (double)count / (double)n;
    if (p <= 0 || p >= 1) {
        cr_expect_float_eq(est, p, 1e-12, "%s: %.6f, exactly %.6f", what, est, p);
        return;
    }
    const double se = sqrt(p * (1 - p) / (double)n);
    cr_expect(fabs(est - p) <= SIGMAS * se + 1e-12,
              "%s: estimate %.5f vs exact %.5f (|diff| %.5f > 5 se = %.5f)", what, est, p,
              fabs(est - p), SIGMAS * se);
}

/* C(n, k) p^k (1-p)^(n-k), computed apart from the engine's tables; 0 if k > n. */
static inline double binom_pmf(unsigned n, unsigned k, double p)
{
    double c = 1.0;
    if (k > n)
        return 0.0;
    for (unsigned i = 1; i <= k; i++)
        c = c * (n - k + i) / i;
    return c * pow(p, k) * pow(1.0 - p, n - k);
}

#endif
