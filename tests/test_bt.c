/*
 * test_bt.c: Criterion tests of analysis/bt (Bradley-Terry maximum likelihood).
 *
 * Known strengths are recovered exactly from expected counts and within a few
 * standard errors from simulated ones (fixed seeds, om_rng); standard errors
 * match the analytic one-row-one-column case and the spread of estimates over
 * repeated simulations; degenerate matrices (unbeaten, winless, disconnected,
 * idle units) are reported rather than diverging; every error path is provoked.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>

#include "bt.h"
#include "rng.h"

static void quiet_gsl(void)
{
    gsl_set_error_handler_off();
}

TestSuite(bt, .init = quiet_gsl);

/* Tolerance of exact recoveries: far above the 1e-10 Newton tolerance's effect. */
#define EXACT_TOL 1e-8

#define R 6
#define C 5

/* True strengths, rows then columns, summing to zero (the fit's constraint). */
static const double truth[R + C] = {1.2, 0.7, 0.3, 0.0, -0.4, -0.9,
                                    0.8, 0.2, -0.3, -0.6, -1.0};

static double sigmoid(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

Test(bt, truth_sums_to_zero)
{
    double s = 0;
    for (int i = 0; i < R + C; i++)
        s += truth[i];
    cr_assert(fabs(s) < 1e-12, "sum %g", s);
}

/*
 * Expected counts with a draw rate `draw`: P(win) = p - draw/2, P(draw) = draw,
 * P(loss) = 1 - p - draw/2, so the expected score share (draws half) is p.
 */
static void expected_counts(double n, double draw, double *w, double *d, double *l)
{
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            double p = sigmoid(truth[r] - truth[R + c]);
            w[r * C + c] = n * (p - draw / 2);
            d[r * C + c] = n * draw;
            l[r * C + c] = n * (1 - p - draw / 2);
        }
}

static om_bt_fit *fit_ok(size_t rows, size_t cols, const double *w, const double *d,
                         const double *l)
{
    om_bt_fit *f = NULL;
    cr_assert_eq(om_bt_fit_alloc(rows, cols, w, d, l, &f), OM_OK, "%s", om_error_message());
    cr_assert_not_null(f);
    return f;
}

/* With expected (noise-free) counts the maximum is at the true strengths. */
Test(bt, recovers_exact_strengths_from_expected_counts)
{
    double w[R * C], d[R * C], l[R * C], sum = 0;
    om_bt_fit *f;
    expected_counts(1000.0, 0.1, w, d, l);
    f = fit_ok(R, C, w, d, l);
    cr_expect_eq(f->n_estimated, R + C);
    cr_expect_lt(f->iterations, 20, "Newton converges quickly: %u", f->iterations);
    for (int u = 0; u < R + C; u++) {
        cr_expect_eq(f->status[u], OM_BT_ESTIMATED);
        cr_expect(fabs(f->strength[u] - truth[u]) < EXACT_TOL, "unit %d: %.12f vs %.12f", u,
                  f->strength[u], truth[u]);
        sum += f->strength[u];
    }
    cr_expect(fabs(sum) < 1e-12, "sum-to-zero constraint: %g", sum);
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
            cr_expect(fabs(om_bt_predict(f, (size_t)r, (size_t)c)
                           - sigmoid(truth[r] - truth[R + c])) < EXACT_TOL);
    om_bt_fit_free(f);
}

/* One simulated matrix of n trials per cell with draw rate `draw`, from stream `block`. */
static void simulate(om_rng *rng, int n, double draw, double *w, double *d, double *l,
                     size_t rows, size_t cols)
{
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++) {
            double p = sigmoid(truth[r] - truth[R + c]);
            double cw = 0, cd = 0, cl = 0;
            for (int t = 0; t < n; t++) {
                double u = om_rng_uniform(rng);
                if (u < p - draw / 2)
                    cw++;
                else if (u < p + draw / 2)
                    cd++;
                else
                    cl++;
            }
            w[r * cols + c] = cw;
            d[r * cols + c] = cd;
            l[r * cols + c] = cl;
        }
}

/* A large simulated matrix: every strength within 4 standard errors of the truth. */
Test(bt, recovers_strengths_from_a_simulated_matrix)
{
    double w[R * C], d[R * C], l[R * C];
    om_rng rng;
    om_bt_fit *f;
    om_rng_seed_block(&rng, 20240501, 0);
    simulate(&rng, 20000, 0.08, w, d, l, R, C);
    f = fit_ok(R, C, w, d, l);
    cr_assert_eq(f->n_estimated, R + C);
    for (int u = 0; u < R + C; u++) {
        cr_expect(f->se[u] > 0.005 && f->se[u] < 0.02, "unit %d: se %g", u, f->se[u]);
        cr_expect(fabs(f->strength[u] - truth[u]) < 4 * f->se[u], "unit %d: %.4f vs %.4f (se %.4f)",
                  u, f->strength[u], truth[u], f->se[u]);
    }
    om_bt_fit_free(f);
}

/*
 * One row against one column, w wins and l losses: theta - phi = log(w/l), and
 * the information n p (1-p) on the difference gives Var(theta - phi) =
 * 1/(n p (1-p)), split under the sum-to-zero constraint as Var(theta) =
 * Var(phi) = -Cov = 1/(4 n p (1-p)).
 */
Test(bt, analytic_one_by_one)
{
    double w = 300, d = 0, l = 100, n = 400, p = 0.75, v = 1.0 / (n * p * (1 - p));
    om_bt_fit *f = fit_ok(1, 1, &w, &d, &l);
    cr_assert_eq(f->n_estimated, 2);
    cr_expect(fabs(f->strength[0] - 0.5 * log(3.0)) < EXACT_TOL, "%.12f", f->strength[0]);
    cr_expect(fabs(f->strength[1] + 0.5 * log(3.0)) < EXACT_TOL, "%.12f", f->strength[1]);
    cr_expect(fabs(f->se[0] - sqrt(v / 4)) < EXACT_TOL, "se %.12f vs %.12f", f->se[0],
              sqrt(v / 4));
    cr_expect(fabs(f->se[1] - sqrt(v / 4)) < EXACT_TOL);
    cr_expect(fabs(f->cov[1] + v / 4) < EXACT_TOL, "cov %.12f", f->cov[1]);
    cr_expect(fabs(f->cov[0] + f->cov[3] - 2 * f->cov[1] - v) < EXACT_TOL,
              "variance of the difference");
    /* The log-likelihood at the maximum: 300 log 0.75 + 100 log 0.25. */
    cr_expect(fabs(f->log_likelihood - (300 * log(0.75) + 100 * log(0.25))) < 1e-9);

    /* A draw counts as half a win: 250 wins, 100 draws, 50 losses score 300 of 400. */
    w = 250;
    d = 100;
    l = 50;
    om_bt_fit_free(f);
    f = fit_ok(1, 1, &w, &d, &l);
    cr_expect(fabs(f->strength[0] - f->strength[1] - log(3.0)) < EXACT_TOL);
    om_bt_fit_free(f);
}

/*
 * Standard errors against simulation: over 300 matrices (3 rows x 3 columns,
 * 2000 trials a cell) the standard deviation of each estimate matches the mean
 * reported standard error. The sample SD of 300 values has a relative error of
 * about 1/sqrt(600) = 4%, so 20% is a 5-sigma tolerance.
 */
Test(bt, standard_errors_match_simulation, .timeout = 60)
{
    enum { REPS = 300, RR = 3, CC = 3, N = 2000 };
    double w[RR * CC], d[RR * CC], l[RR * CC];
    double sum[RR + CC] = {0}, sum2[RR + CC] = {0}, se[RR + CC] = {0};
    double centre = 0;
    om_rng rng;
    /* The 3 x 3 sub-matrix's truth, re-centred to sum to zero. */
    for (int u = 0; u < RR; u++)
        centre += truth[u] + truth[R + u];
    centre /= RR + CC;
    for (int rep = 0; rep < REPS; rep++) {
        om_bt_fit *f;
        om_rng_seed_block(&rng, 7, (uint64_t)rep);
        simulate(&rng, N, 0.0, w, d, l, RR, CC);
        f = fit_ok(RR, CC, w, d, l);
        cr_assert_eq(f->n_estimated, RR + CC);
        for (int u = 0; u < RR + CC; u++) {
            sum[u] += f->strength[u];
            sum2[u] += f->strength[u] * f->strength[u];
            se[u] += f->se[u];
        }
        om_bt_fit_free(f);
    }
    for (int u = 0; u < RR + CC; u++) {
        double mean = sum[u] / REPS, sd = sqrt((sum2[u] - REPS * mean * mean) / (REPS - 1));
        double want = (u < RR ? truth[u] : truth[R + u - RR]) - centre;
        se[u] /= REPS;
        cr_expect(fabs(sd / se[u] - 1) < 0.2, "unit %d: simulated sd %.5f, reported se %.5f", u,
                  sd, se[u]);
        cr_expect(fabs(mean - want) < 5 * se[u] / sqrt(REPS), "unit %d: mean %.5f vs %.5f", u,
                  mean, want);
    }
}

/*
 * Degenerate data: row 0 wins every trial (unbeaten), column 4 never scores
 * (winless), row 5 plays nobody. The others are estimated, and as their counts
 * are the expected ones their strengths are the truth up to a common shift.
 */
Test(bt, unbeaten_winless_and_idle_units_are_reported)
{
    double w[R * C], d[R * C], l[R * C], shift;
    om_bt_fit *f;
    expected_counts(1000.0, 0.0, w, d, l);
    for (int c = 0; c < C; c++) {
        w[0 * C + c] += l[0 * C + c];
        l[0 * C + c] = 0;
        w[5 * C + c] = d[5 * C + c] = l[5 * C + c] = 0;
    }
    for (int r = 0; r < R; r++) {
        w[r * C + 4] += l[r * C + 4] + d[r * C + 4];
        l[r * C + 4] = d[r * C + 4] = 0;
    }
    f = fit_ok(R, C, w, d, l);
    cr_expect_eq(f->status[0], OM_BT_UNBEATEN);
    cr_expect_eq(f->status[5], OM_BT_NO_GAMES);
    cr_expect_eq(f->status[R + 4], OM_BT_WINLESS);
    cr_expect(isnan(f->strength[0]) && isnan(f->se[0]) && isnan(f->strength[R + 4]));
    cr_expect(isnan(om_bt_predict(f, 0, 1)) && isnan(om_bt_predict(f, 1, 4)));
    cr_expect_eq(f->n_estimated, 8);
    shift = f->strength[1] - truth[1];
    for (int u = 1; u < R + C; u++) {
        if (u == 5 || u == R + 4)
            continue;
        cr_expect_eq(f->status[u], OM_BT_ESTIMATED, "unit %d", u);
        cr_expect(fabs(f->strength[u] - truth[u] - shift) < EXACT_TOL, "unit %d", u);
        cr_expect(isfinite(f->se[u]) && f->se[u] > 0);
    }
    cr_expect(strstr(om_bt_status_name(OM_BT_UNBEATEN), "+inf") != NULL);
    om_bt_fit_free(f);
}

/* Two blocks with no games between them: the larger is estimated, the other is not. */
Test(bt, disconnected_blocks)
{
    /* 3 x 3: rows 0, 1 play columns 0, 1; row 2 plays only column 2. */
    double w[9] = {5, 3, 0, 4, 6, 0, 0, 0, 7}, d[9] = {0}, l[9] = {5, 7, 0, 6, 4, 0, 0, 0, 3};
    om_bt_fit *f = fit_ok(3, 3, w, d, l);
    cr_expect_eq(f->n_estimated, 4);
    cr_expect_eq(f->status[2], OM_BT_DISCONNECTED);
    cr_expect_eq(f->status[3 + 2], OM_BT_DISCONNECTED);
    for (int u = 0; u < 2; u++) {
        cr_expect_eq(f->status[u], OM_BT_ESTIMATED);
        cr_expect_eq(f->status[3 + u], OM_BT_ESTIMATED);
    }
    om_bt_fit_free(f);

    /* One row that beat one column every time: nothing can be estimated. */
    w[0] = 10;
    l[0] = 0;
    f = fit_ok(1, 1, w, d, l);
    cr_expect_eq(f->n_estimated, 0);
    cr_expect(isnan(f->strength[0]) && isnan(f->strength[1]));
    om_bt_fit_free(f);

    /* Nothing played at all. */
    memset(w, 0, sizeof w);
    memset(l, 0, sizeof l);
    f = fit_ok(3, 3, w, d, l);
    cr_expect_eq(f->n_estimated, 0);
    for (int u = 0; u < 6; u++)
        cr_expect_eq(f->status[u], OM_BT_NO_GAMES);
    om_bt_fit_free(f);
}

/*
 * Residuals show a rock-paper-scissors relation: from expected counts, move
 * 100 of 1000 results of row 2 against column 1 from wins to losses. The model
 * cannot follow one cell, so that cell's residual is clearly negative, and the
 * residuals are observed minus predicted everywhere.
 */
Test(bt, residuals_show_a_matchup_the_model_misses)
{
    double w[R * C], d[R * C], l[R * C], obs[R * C], pred[R * C], res[R * C];
    om_bt_fit *f;
    int worst = -1;
    expected_counts(1000.0, 0.0, w, d, l);
    w[2 * C + 1] -= 100;
    l[2 * C + 1] += 100;
    w[3 * C + 2] = d[3 * C + 2] = l[3 * C + 2] = 0;
    f = fit_ok(R, C, w, d, l);
    om_bt_residuals(f, w, d, l, obs, pred, res);
    for (int i = 0; i < R * C; i++) {
        if (i == 3 * C + 2) {
            cr_expect(isnan(obs[i]) && isnan(pred[i]) && isnan(res[i]), "unplayed cell");
            continue;
        }
        cr_expect(fabs(obs[i] - w[i] / (w[i] + d[i] + l[i])) < 1e-15);
        cr_expect(fabs(res[i] - (obs[i] - pred[i])) < 1e-15);
        if (worst < 0 || res[i] < res[worst])
            worst = i;
    }
    cr_expect_eq(worst, 2 * C + 1, "most negative residual at row 2, column 1");
    cr_expect_lt(res[2 * C + 1], -0.05, "%g", res[2 * C + 1]);
    om_bt_residuals(f, w, d, l, NULL, NULL, res);
    om_bt_fit_free(f);
}

Test(bt, errors)
{
    double w[4] = {1, 2, 3, 4}, d[4] = {0}, l[4] = {4, 3, 2, 1};
    om_bt_fit *f = (om_bt_fit *)&w;
    cr_expect_eq(om_bt_fit_alloc(0, 2, w, d, l, &f), OM_EINVAL);
    cr_expect_null(f);
    cr_expect_eq(om_bt_fit_alloc(2, 0, w, d, l, &f), OM_EINVAL);
    cr_expect_eq(om_bt_fit_alloc(2, 2, NULL, d, l, &f), OM_EINVAL);
    cr_expect_eq(om_bt_fit_alloc(2, 2, w, d, l, NULL), OM_EINVAL);
    w[3] = -1;
    cr_expect_eq(om_bt_fit_alloc(2, 2, w, d, l, &f), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "cell (1, 1)") != NULL, "%s", om_error_message());
    w[3] = NAN;
    cr_expect_eq(om_bt_fit_alloc(2, 2, w, d, l, &f), OM_EINVAL);
    w[3] = INFINITY;
    cr_expect_eq(om_bt_fit_alloc(2, 2, w, d, l, &f), OM_EINVAL);
    om_bt_fit_free(NULL);
}

/* ------------------------------------------------ a pool with terms */

/* Expected counts of four players meeting one another (each as side A and
 * side B, and one against itself) under two terms of +-1/2: the maximum
 * likelihood estimate of exact expectations is the truth itself, and its
 * errors shrink as 1/sqrt(n). */
Test(bt, pool_fit_recovers_strengths_and_terms)
{
    static const double theta[4] = {0.6, 0.1, -0.2, -0.5}, beta[2] = {-0.4, 0.15};
    om_bt_pair p[4 * 4 * 4];
    size_t n = 0;
    double est[6], se[6], se_big[6];
    for (size_t a = 0; a < 4; a++)
        for (size_t b = 0; b < 4; b++)
            for (int f = 0; f < 2; f++)
                for (int z = 0; z < 2; z++) {
                    const double x0 = f ? 0.5 : -0.5, x1 = z ? 0.5 : -0.5;
                    const double q = sigmoid(theta[a] - theta[b] + beta[0] * x0 + beta[1] * x1);
                    p[n++] = (om_bt_pair){.a = a, .b = b, .x = {x0, x1}, .score = 1000 * q,
                                          .n = 1000};
                }
    cr_assert_eq(om_bt_pool_fit(4, 2, p, n, est, se), OM_OK, "%s", om_error_message());
    for (size_t i = 0; i < 4; i++)
        cr_expect_float_eq(est[i], theta[i], 1e-8, "strength %zu: %g", i, est[i]);
    cr_expect_float_eq(est[4], beta[0], 1e-8);
    cr_expect_float_eq(est[5], beta[1], 1e-8);
    cr_expect_float_eq(est[0] + est[1] + est[2] + est[3], 0.0, 1e-10);
    {
        /* Two players, one cell: theta_0 - theta_1 = logit(0.6), whose variance is
         * 1 / (n q (1 - q)), each strength half the difference. */
        const om_bt_pair one = {.a = 0, .b = 1, .score = 240, .n = 400};
        double e2[2], s2[2];
        cr_assert_eq(om_bt_pool_fit(2, 0, &one, 1, e2, s2), OM_OK, "%s", om_error_message());
        cr_expect_float_eq(e2[0], 0.5 * log(1.5), 1e-9);
        cr_expect_float_eq(s2[0], 0.5 / sqrt(400 * 0.24), 1e-9);
    }
    for (size_t i = 0; i < n; i++) {
        p[i].score *= 100;
        p[i].n *= 100;
    }
    cr_assert_eq(om_bt_pool_fit(4, 2, p, n, est, se_big), OM_OK);
    for (size_t i = 0; i < 6; i++) {
        cr_expect_gt(se[i], 0.0);
        cr_expect_float_eq(se_big[i] * 10, se[i], 1e-4 * se[i], "error %zu: %g %g", i,
                           se_big[i], se[i]);
    }
}

/* A player that scores in every comparison has no estimate: refused. */
Test(bt, pool_fit_refuses_an_unbeaten_player)
{
    const om_bt_pair p[] = {{.a = 0, .b = 1, .x = {0.5}, .score = 10, .n = 10},
                            {.a = 1, .b = 0, .x = {0.5}, .score = 0, .n = 10},
                            {.a = 1, .b = 2, .x = {-0.5}, .score = 4, .n = 10},
                            {.a = 2, .b = 1, .x = {0.5}, .score = 5, .n = 10}};
    double est[4];
    cr_expect_eq(om_bt_pool_fit(3, 1, p, 4, est, NULL), OM_EINVAL);
    cr_expect_not_null(strstr(om_error_message(), "no estimate"), "%s", om_error_message());
    om_error_clear();
}
