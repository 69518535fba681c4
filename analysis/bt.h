/*
 * bt.h: Bradley-Terry strengths fitted by maximum likelihood to a win matrix of
 * R row units against C column units (a bipartite comparison: rows only meet
 * columns), with standard errors, predicted probabilities and residuals.
 *
 * Model. Row unit r has strength theta_r, column unit c strength phi_c, and
 *
 *     P(r beats c) = 1 / (1 + exp(-(theta_r - phi_c))).
 *
 * Only differences theta_r - phi_c are identified, so the strengths are fixed by
 * the constraint sum(theta) + sum(phi) = 0 over the estimated units. A strength
 * of +1 means odds of e = 2.72 to 1 against a unit of strength 0. A unit that
 * appears in both lists gets two strengths, one per role, because the situation
 * treats the sides differently (the row side charges, say), and with rows only
 * ever meeting columns that role advantage cannot be separated from the two
 * lists' general strength: compare rows with rows and columns with columns.
 *
 * Draws count as half a win for each side: the likelihood of a cell with w
 * wins, d draws and l losses of the row unit is that of w + d/2 successes in
 * w + d + l trials, P^(w + d/2) (1 - P)^(l + d/2). This is the usual way of
 * scoring draws (as in chess ratings); it is a quasi-likelihood whose maximum
 * treats a draw as evidence of equal strength, and whose standard errors are
 * slightly conservative (a drawn trial varies less than a won-or-lost one).
 * Trials that neither side won nor drew (no contact, unresolved) carry no
 * information on who is stronger and are left out by the caller.
 *
 * Degenerate data. The maximum likelihood estimate exists exactly when the
 * directed graph "u scored (won or drew) against v at least once" is strongly
 * connected (Zermelo 1929; Ford 1957). A unit that won every trial would get
 * strength +infinity. Instead of adding a prior that would hide this, the fit
 * finds the largest strongly connected set of units, estimates those, and
 * reports every other unit as not estimable, saying why (OM_BT_UNBEATEN, ...).
 *
 * Fitting: Newton-Raphson on the concave log-likelihood from all strengths 0,
 * each step solving (I + 11^T) delta = gradient by Cholesky (gsl_linalg), where
 * I is the observed Fisher information, a weighted graph Laplacian whose null
 * space is the constant vector; adding 11^T makes it positive definite without
 * changing the step, which is orthogonal to 1 (the gradient is). Steps are
 * halved while the log-likelihood would fall. The covariance under the
 * constraint is the pseudo-inverse I^+ = (I + 11^T/k)^-1 - 11^T/k (k estimated
 * units); standard errors are the square roots of its diagonal.
 *
 * Thread-safety: pure functions of their arguments. GSL's error handler must be
 * off (main() does it; the fit reports failures through OM_ERROR).
 */
#ifndef OM_BT_H
#define OM_BT_H

#include <stddef.h>

#include "status.h"

/*
 * Newton-Raphson stops when no strength moves by more than this. Strengths are
 * log-odds of order 1 whose standard errors, even with 10^8 trials per cell, are
 * above 1e-5, so 1e-10 is far below any statistical meaning yet well above the
 * ~1e-15 rounding of the step.
 */
#define OM_BT_TOLERANCE 1e-10

/* Newton iterations before giving up; a fit converges quadratically in ~10. */
#define OM_BT_MAX_ITERATIONS 200

/* Why a unit has (or has no) strength. */
typedef enum om_bt_status {
    OM_BT_ESTIMATED = 0, /* strength and standard error estimated */
    OM_BT_UNBEATEN,      /* the estimated units never scored against it: +infinity */
    OM_BT_WINLESS,       /* it never scored against the estimated units: -infinity */
    OM_BT_DISCONNECTED,  /* no chain of results links it to the estimated units */
    OM_BT_NO_GAMES       /* no won, drawn or lost trial at all */
} om_bt_status;

/* A fitted model. Units are indexed rows first (0..R-1), then columns (R..R+C-1). */
typedef struct om_bt_fit {
    size_t n_rows;          /* R */
    size_t n_cols;          /* C */
    size_t n_units;         /* R + C */
    size_t n_estimated;     /* units with status OM_BT_ESTIMATED (0 or at least 2) */
    om_bt_status *status;   /* [n_units] */
    double *strength;       /* [n_units] theta then phi; NaN unless estimated */
    double *se;             /* [n_units] standard errors; NaN unless estimated */
    double *cov;            /* [n_units x n_units] covariance, row-major; NaN unless
                               both units are estimated */
    double log_likelihood;  /* at the estimate, over the estimated units' cells */
    unsigned iterations;    /* Newton steps taken */
} om_bt_fit;

/*
 * om_bt_fit_alloc: fit the model to the R x C matrices `wins`, `draws` and
 * `losses` (row-major, from the row unit's point of view: wins[r*C + c] is how
 * often row r beat column c). Counts may be any finite non-negative reals
 * (sums over situations, weights). On success *out is a new fit owned by the
 * caller (om_bt_fit_free). Fewer than two units linked by results give a fit
 * with n_estimated = 0, not an error.
 * Errors: OM_EINVAL (R or C zero, NULL arrays, a negative or non-finite count,
 * or no convergence, which the theory above rules out), OM_ENOMEM.
 */
om_status om_bt_fit_alloc(size_t n_rows, size_t n_cols, const double *wins, const double *draws,
                          const double *losses, om_bt_fit **out);

/* Free a fit (NULL allowed). */
void om_bt_fit_free(om_bt_fit *fit);

/*
 * om_bt_predict: the fitted probability that row r scores against column c,
 * 1 / (1 + exp(phi_c - theta_r)); NaN if either unit is not estimated.
 */
double om_bt_predict(const om_bt_fit *fit, size_t r, size_t c);

/*
 * om_bt_residuals: per cell, the observed score share (wins + draws/2) / (wins +
 * draws + losses), the predicted one (om_bt_predict) and observed minus
 * predicted, each into an R x C row-major array (any of the three may be NULL).
 * A cell without trials, or with a unit not estimated, gets NaN where undefined.
 * A residual pattern such as +0.2 for A vs B, -0.2 for A vs C where the strengths
 * predict both is a rock-paper-scissors relation the one-number model misses.
 */
void om_bt_residuals(const om_bt_fit *fit, const double *wins, const double *draws,
                     const double *losses, double *observed, double *predicted,
                     double *residual);

/* ------------------------------------------------ a pool with terms */

/*
 * A pool of K players each of whom may meet any other (army lists), with
 * terms of each comparison (who took the first turn, the zones):
 *
 *     logit P(a scores against b) = theta_a - theta_b + sum_k beta_k x_k,
 *
 * the strengths fixed by sum(theta) = 0, draws half a win as above. A player
 * met by itself (a list against itself) tells only of the terms.
 */

/* Most terms of a pool fit. */
#define OM_BT_TERMS_MAX 4

/* Strengths of a pool fit beyond this (odds of e^30) mean a player that never
 * lost or never scored: the estimate does not exist. */
#define OM_BT_POOL_DIVERGED 30.0

/* One cell of a pool fit: player a against player b under terms x, with
 * `score` (wins + draws / 2 of a) out of `n` comparisons. */
typedef struct om_bt_pair {
    size_t a, b;                  /* players, < K */
    double x[OM_BT_TERMS_MAX];    /* the terms' values (only n_terms read) */
    double score, n;              /* 0 <= score <= n */
} om_bt_pair;

/*
 * om_bt_pool_fit: the maximum likelihood strengths of K players and
 * coefficients of n_terms terms from the cells p[0..n_pairs), into
 * est[0..K) (theta, summing to 0) and est[K..K + n_terms) (beta), and their
 * standard errors into se (same layout; may be NULL). Newton-Raphson from 0
 * as om_bt_fit_alloc does, the constraint's null direction filled by 11^T.
 * Errors: OM_EINVAL (no cell, a count out of range, too many terms, or no
 * estimate: a player whose strength passes OM_BT_POOL_DIVERGED, because it
 * never lost or never scored, or players no result links, the message naming
 * the player's index), OM_ENOMEM. Thread-safe; GSL's error handler off.
 */
om_status om_bt_pool_fit(size_t k, size_t n_terms, const om_bt_pair *p, size_t n_pairs,
                         double *est, double *se);

/* A short phrase for a status: "estimated", "unbeaten (strength +inf)", ... */
const char *om_bt_status_name(om_bt_status status);

#endif /* OM_BT_H */
