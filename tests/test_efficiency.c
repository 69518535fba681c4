/*
 * test_efficiency.c: Criterion tests of analysis/efficiency (fair points of a
 * matchup matrix). A tiny matrix whose every number is worked out by hand
 * checks the means, the exact strengths and the fair-points equation; then the
 * model's promises are tested on synthetic matrices drawn from known
 * strengths (fixed seeds, 5 standard errors): known strengths and fair values
 * come back within their intervals, a unit entered twice gets one value,
 * adding unrelated units moves a value by less than its interval; then
 * inapplicable cells, the weak-fit warning, the field, the bootstrap, the
 * long CSV and JSON, and every error.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>

#include <gsl/gsl_randist.h>

#include "efficiency.h"
#include "rng.h"
#include "stats.h"

static void quiet_gsl(void)
{
    gsl_set_error_handler_off();
}

TestSuite(efficiency, .init = quiet_gsl);

/* Agreement of hand-computed and computed reals (both from a few double operations). */
#define TOL 1e-9

/*
 * The tiny matrix: rows A (100 points) and B (50), columns X (50) and Y (200).
 * Situation "open" (index 0):
 *   cell   trials  wins  draws  losses  row lost (mean)  col lost (mean)
 *   A-X    100     80    0      20      1000 (10)        6000 (60)
 *   A-Y    100     40    20     40      3000 (30)        5000 (50)
 *   B-X    100     50    0      50      2000 (20)        2000 (20)
 *   B-Y    110     20    0      80      4400 (40)        1100 (10)   (10 trials no result)
 * The score odds (draws half) are 4, 1, 1, 1/4: exactly Bradley-Terry with
 * theta_A = ln 2, theta_B = -ln 2, phi_X = -ln 2, phi_Y = ln 2 (sum zero).
 * Situation "defended" (index 1) has every row win count halved, the rest in
 * the losses, and 200 trials a cell (for pooling and unequal trials).
 */
static char tiny_path[] = "tiny.h5";
static const om_matrix_unit tiny_rows[2] = {
    {"A", "x/a", 100, "Rowland", "infantry", OM_MATRIX_SHOOTS_NO},
    {"B", "x/b", 50, "Rowland", "cavalry", OM_MATRIX_SHOOTS_NO}};
static const om_matrix_unit tiny_cols[2] = {
    {"X", "y/x", 50, "Colonia", "infantry", OM_MATRIX_SHOOTS_NO},
    {"Y", "y/y", 200, "Colonia", "monster", OM_MATRIX_SHOOTS_YES}};
static const om_matrix_situation tiny_sits[2] = {{"open", "kind: combat\n", "Open"},
                                                 {"defended", "kind: combat\n", "Defended"}};
static om_matrix_cell tiny_cells[2 * 2 * 2] = {
    {100, 80, 0, 20, 1000, 6000, 0, 0}, {100, 40, 20, 40, 3000, 5000, 0, 0},
    {100, 50, 0, 50, 2000, 2000, 0, 0}, {110, 20, 0, 80, 4400, 1100, 0, 0},
    {200, 80, 0, 120, 3000, 8000, 0, 0}, {200, 40, 40, 120, 5000, 9000, 0, 0},
    {200, 50, 0, 150, 3000, 3000, 0, 0}, {200, 20, 0, 180, 8000, 1000, 0, 0},
};

static om_matrix tiny(void)
{
    om_matrix m = {
        .path = tiny_path,
        .info = {
            .program_version = "9.8.7-test",
            .command_line = "oddsmaster matrix a.yaml b.yaml",
            .ruleset = "warmaster-revolution",
            .data_version = "lists 2.25",
            .row_list = "Rowland",
            .col_list = "Colonia",
            .rng_scheme = "pcg64-dxsm",
            .seed = 4242,
            .trials_per_cell = 0,
            .target_halfwidth = 0.02,
            .n_situations = 2,
            .n_rows = 2,
            .n_cols = 2,
            .situations = tiny_sits,
            .rows = tiny_rows,
            .cols = tiny_cols,
        },
        .cells = tiny_cells,
    };
    return m;
}


static om_efficiency *compute_opt(const om_matrix *m, const om_efficiency_options *opt)
{
    om_efficiency *e = NULL;
    cr_assert_eq(om_efficiency_compute(m, opt, &e), OM_OK, "%s", om_error_message());
    cr_assert_not_null(e);
    return e;
}

static om_efficiency *compute(const om_matrix *m, size_t situation)
{
    om_efficiency_options opt = {.situation = situation};
    return compute_opt(m, &opt);
}

static void expect_close(double got, double want, const char *what)
{
    cr_expect(fabs(got - want) <= TOL * fmax(1.0, fabs(want)), "%s: got %.12g, want %.12g",
              what, got, want);
}

static double sigmoid(double z)
{
    return 1.0 / (1.0 + exp(-z));
}

/* ----------------------------------------------------------- hand-computed */

Test(efficiency, hand_computed_units)
{
    om_matrix m = tiny();
    om_efficiency *e = compute(&m, 0);
    const om_efficiency_unit *A = &e->units[0], *B = &e->units[1];
    const om_efficiency_unit *X = &e->units[2], *Y = &e->units[3];
    double lo, hi;

    cr_assert_eq(e->n_units, 4);
    cr_expect(A->side == OM_EFFICIENCY_ROW && X->side == OM_EFFICIENCY_COL && Y->index == 1);
    cr_expect_str_eq(om_efficiency_army_name(e, OM_EFFICIENCY_COL, Y->army), "Colonia");
    /* A: P(win) (0.8 + 0.4)/2; score (0.8 + (40 + 10)/100)/2 = 0.65 on 200 trials. */
    expect_close(A->p_win, 0.6, "A p_win");
    expect_close(A->p_draw, 0.1, "A p_draw");
    expect_close(A->overall.score.value, 0.65, "A score");
    cr_assert_eq(om_stats_wilson_real(0.65, 200, 0.95, &lo, &hi), OM_OK);
    expect_close(A->overall.score.lo, lo, "A score lo");
    expect_close(A->overall.score.hi, hi, "A score hi");
    cr_expect(A->cells == 2 && A->trials == 200);
    expect_close(A->destroyed, 55, "A destroyed");
    expect_close(A->destroyed_per_100, 55, "A per 100");
    expect_close(A->lost, 20, "A lost");
    /* B-Y: 10 of 110 trials had no result, so the score is 20 of the 100 decided. */
    expect_close(B->overall.score.value, (0.5 + 0.2) / 2, "B score over decided trials");
    cr_assert_eq(om_stats_wilson_real(0.35, 4.0 / (1.0 / 100 + 1.0 / 100), 0.95, &lo, &hi),
                 OM_OK);
    expect_close(B->overall.score.lo, lo, "B score lo");
    expect_close(B->p_win, (0.5 + 20.0 / 110.0) / 2, "B p_win over all trials");
    expect_close(B->destroyed_per_100, 30, "B per 100 (50 points)");
    expect_close(X->destroyed, 15, "X destroyed");
    expect_close(Y->destroyed_per_100, 17.5, "Y per 100");
    /* One army per side: the per-army rating is the overall one. */
    cr_expect_eq(e->n_armies[1], 1);
    expect_close(A->by_army[0].score.value, A->overall.score.value, "A vs Colonia");
    expect_close(A->by_army[0].fair.value, A->overall.fair.value, "A fair vs Colonia");
    om_efficiency_free(e);
}

/*
 * Strengths are exact: s_A = ln 2 = s_Y, s_B = s_X = -ln 2. Each field has two
 * units, too few for a curve of its own (an army needs 3), so the pooled curve
 * stands in, within sides: rows dx = +-ln2/2, dy = +-ln2; columns dx = -+ln2,
 * dy = -+ln2: Sxy = 3 ln^2 2, Sxx = 2.5 ln^2 2, b = 1.2.
 * Fair value of A against X (50) and Y (200): by symmetry the two terms
 * sigma(z_X) + sigma(z_Y) = 1 when z_X = -z_Y:
 *   2 ln2 - 1.2 (x - ln 50) = 1.2 (x - ln 200)  =>  x = ln2 / 1.2 + ln 100,
 * so fair_A = 2^(1/1.2) 100, fair_B = 2^(-1/1.2) 100, and for the columns
 * against A (100) and B (50): fair_X = 2^(-1/1.2) sqrt(5000), fair_Y = 2^(1/1.2)
 * sqrt(5000).
 */
Test(efficiency, strengths_and_fair_points)
{
    om_matrix m = tiny();
    om_efficiency *e = compute(&m, 0);
    double up = pow(2.0, 1 / 1.2), down = pow(2.0, -1 / 1.2), s5000 = sqrt(5000.0);
    const double strength[4] = {log(2.0), -log(2.0), -log(2.0), log(2.0)};
    const double fair[4] = {up * 100, down * 100, down * s5000, up * s5000};
    const double points[4] = {100, 50, 50, 200};

    for (int i = 0; i < 4; i++) {
        cr_expect_eq(e->units[i].status, OM_EFFICIENCY_RATED, "unit %d", i);
        cr_expect(fabs(e->units[i].strength.value - strength[i]) < 1e-8, "unit %d strength %.12f",
                  i, e->units[i].strength.value);
        cr_expect(e->units[i].strength_se > 0 && e->units[i].strength.lo < strength[i]
                  && e->units[i].strength.hi > strength[i]);
    }
    for (int side = 0; side < 2; side++) {
        const om_efficiency_curve *c = &e->model.curve[side];
        cr_assert(c->defined, "%s", c->reason);
        cr_expect(c->pooled, "a field of 2 units has no curve of its own");
        cr_expect_eq(c->units, 4);
        cr_expect_eq(c->groups, 2);
        cr_expect(fabs(c->slope.value - 1.2) < 1e-8, "b %.12f", c->slope.value);
    }
    for (int i = 0; i < 4; i++) {
        const om_efficiency_value *f = &e->units[i].overall.fair;
        cr_expect(fabs(f->value - fair[i]) < 1e-6 * fair[i], "unit %d fair %.9f, want %.9f", i,
                  f->value, fair[i]);
        cr_expect(f->lo < f->value && f->hi > f->value, "unit %d interval", i);
        expect_close(e->units[i].fair_minus_points, f->value - points[i], "fair minus printed");
    }
    /* An exact model: residuals zero, r2 one, dispersion one (no excess variation). */
    for (int i = 0; i < 4; i++)
        cr_expect(fabs(e->residual[i]) < 1e-8, "residual %d: %g", i, e->residual[i]);
    cr_expect(fabs(e->model.r2 - 1.0) < 1e-8, "r2 %g", e->model.r2);
    expect_close(e->model.dispersion, 1.0, "dispersion");
    cr_expect(!e->model.weak);
    om_efficiency_free(e);
}

/* Pooling: each unit's means run over its four cells of both situations. */
Test(efficiency, all_situations_pooled)
{
    om_matrix m = tiny();
    om_efficiency *e = compute(&m, OM_EFFICIENCY_ALL);
    double want_a = (0.8 + 0.4 + 80.0 / 200 + 40.0 / 200) / 4;
    expect_close(e->units[0].p_win, want_a, "A pooled p_win");
    cr_expect_eq(e->units[0].cells, 4);
    cr_expect_eq(e->units[0].trials, 600);
    expect_close(e->wins[0], 160, "A-X wins summed");
    expect_close(e->losses[3], 260, "B-Y losses summed");
    expect_close(e->trials[3], 310, "B-Y trials summed");
    om_efficiency_free(e);
}

Test(efficiency, situation_names)
{
    om_matrix m = tiny();
    size_t index = 99;
    cr_expect_eq(om_efficiency_situation_find(&m, "defended", &index), OM_OK);
    cr_expect_eq(index, 1);
    cr_expect_eq(om_efficiency_situation_find(&m, "all", &index), OM_OK);
    cr_expect_eq(index, OM_EFFICIENCY_ALL);
    cr_expect_eq(om_efficiency_situation_find(&m, NULL, &index), OM_OK);
    cr_expect_eq(om_efficiency_situation_find(&m, "flank", &index), OM_ENOTFOUND);
    cr_expect(strstr(om_error_message(), "open, defended") != NULL, "%s", om_error_message());
}

/* When the price curve does not exist, no unit has a fair value, and the reason says why. */
Test(efficiency, fair_points_undefined)
{
    om_matrix m = tiny();
    om_matrix_unit rows[2], cols[2];
    om_efficiency *e;

    memcpy(rows, tiny_rows, sizeof rows);
    memcpy(cols, tiny_cols, sizeof cols);
    /* The dearer unit of each side is the weaker one: slope below zero. */
    rows[0].points = 50;
    rows[1].points = 100;
    cols[0].points = 200;
    cols[1].points = 50;
    m.info.rows = rows;
    m.info.cols = cols;
    e = compute(&m, 0);
    cr_expect(!e->model.curve[0].defined && !e->model.curve[1].defined);
    cr_expect(strstr(e->model.curve[0].reason, "slope") != NULL, "%s", e->model.curve[0].reason);
    for (int i = 0; i < 4; i++)
        cr_expect(isnan(e->units[i].overall.fair.value) && isnan(e->units[i].fair_minus_points)
                  && e->units[i].status == OM_EFFICIENCY_NO_CURVE);
    om_efficiency_free(e);
    /* Equal costs within each side. */
    rows[0].points = rows[1].points = 70;
    cols[0].points = cols[1].points = 80;
    e = compute(&m, 0);
    cr_expect(strstr(e->model.curve[0].reason, "do not vary") != NULL, "%s",
              e->model.curve[0].reason);
    om_efficiency_free(e);
    /* Too few units with a cost (0 = unknown). */
    rows[0].points = 0;
    cols[0].points = 0;
    e = compute(&m, 0);
    cr_expect(strstr(e->model.curve[1].reason, "too few") != NULL, "%s",
              e->model.curve[1].reason);
    cr_expect_eq(e->units[0].status, OM_EFFICIENCY_NO_COST);
    cr_expect(isnan(e->units[0].destroyed_per_100));
    om_efficiency_free(e);
}

/* A unit that won every trial has no strength and no fair value, but its score. */
Test(efficiency, unbeaten_unit)
{
    om_matrix m = tiny();
    om_matrix_cell cells[8];
    om_efficiency *e;
    memcpy(cells, tiny_cells, sizeof cells);
    cells[0] = (om_matrix_cell){.trials = 100, .wins_row = 100, .points_lost_col_sum = 7000};
    cells[1] = (om_matrix_cell){.trials = 100, .wins_row = 100, .points_lost_col_sum = 9000};
    m.cells = cells;
    e = compute(&m, 0);
    cr_expect_eq(e->units[0].bt_status, OM_BT_UNBEATEN);
    cr_expect_eq(e->units[0].status, OM_EFFICIENCY_NO_STRENGTH);
    cr_expect(isnan(e->units[0].strength.value) && isnan(e->units[0].overall.fair.value));
    expect_close(e->units[0].overall.score.value, 1.0, "unbeaten score");
    cr_expect(isnan(e->residual[0]));
    om_efficiency_free(e);
}

/* --------------------------------------------------------------- synthetic */

/*
 * Synthetic matrices from known strengths. Unit k of a pool has points
 * P_k = 30 + 15 k and true strength s_k = side_offset + B ln(P_k / 60) + dev_k,
 * dev_k a fixed scatter around the price curve. Cell (s, r, c) of `trials`
 * trials draws wins, draws and losses from the multinomial with
 * P(score) = sigma(s_r - s_c): P(draw) = 0.4 p (1 - p), P(win) = p - draw/2.
 * Each cell's generator is seeded by the global ids of its two units and the
 * situation, so a cell shared by two matrices has the same counts in both.
 */
#define SYN_MAX 24
#define SYN_B 1.5
#define SYN_TRIALS 400
#define SYN_SEED 20240611u

/*
 * Fixed scatter of each pool unit around the price curve (sd about 0.25),
 * except ids 21 and 23: units far weaker than their cost.
 */
static const double syn_dev[SYN_MAX] = {0.21, -0.33, 0.05, 0.28, -0.12, -0.25, 0.4, 0.0,
                                        -0.18, 0.15, -0.4, 0.3, 0.1, -0.05, 0.22, -0.3,
                                        0.12, -0.2, 0.33, -0.1, 0.06, -2.0, 0.18, -2.5};

typedef struct synth {
    om_matrix m;
    size_t n_rows, n_cols;
    int row_id[SYN_MAX], col_id[SYN_MAX]; /* pool ids of the units */
    double truth[2 * SYN_MAX];            /* true strengths, rows then columns */
    om_matrix_unit rows[SYN_MAX], cols[SYN_MAX];
    char names[2 * SYN_MAX][32];
    om_matrix_situation sits[2];
    om_matrix_cell *cells;
} synth;

static double syn_strength(int id, int side)
{
    /* Columns are a little stronger for their cost (a side advantage). */
    return (side == 0 ? 0.0 : 0.3) + SYN_B * log((30.0 + 15.0 * id) / 60.0) + syn_dev[id];
}

/* Build a synthetic matrix of rows row_id[0..nr-1] and columns col_id (pool ids). */
static void syn_build(synth *sy, const int *row_id, size_t nr, const int *col_id, size_t nc,
                      const char *col_army_split)
{
    static char path[] = "synthetic.h5";
    memset(sy, 0, sizeof *sy);
    sy->n_rows = nr;
    sy->n_cols = nc;
    for (size_t i = 0; i < nr + nc; i++) {
        bool row = i < nr;
        int id = row ? row_id[i] : col_id[i - nr];
        om_matrix_unit *u = row ? &sy->rows[i] : &sy->cols[i - nr];
        snprintf(sy->names[i], sizeof sy->names[i], "%s%d", row ? "R" : "C", id);
        u->name = sy->names[i];
        u->id = sy->names[i];
        u->points = (uint32_t)(30 + 15 * id);
        u->army = row ? "Rowland" : (col_army_split != NULL && (i - nr) % 2 == 1)
                                        ? col_army_split : "Colonia";
        u->troop = "infantry";
        if (row)
            sy->row_id[i] = id;
        else
            sy->col_id[i - nr] = id;
        sy->truth[row ? i : SYN_MAX + (i - nr)] = syn_strength(id, row ? 0 : 1);
    }
    sy->sits[0] = (om_matrix_situation){"one", "", "One"};
    sy->sits[1] = (om_matrix_situation){"two", "", "Two"};
    sy->cells = calloc(2 * nr * nc, sizeof *sy->cells);
    cr_assert_not_null(sy->cells);
    for (size_t s = 0; s < 2; s++)
        for (size_t r = 0; r < nr; r++)
            for (size_t c = 0; c < nc; c++) {
                double p = sigmoid(sy->truth[r] - sy->truth[SYN_MAX + c]), pd = 0.4 * p * (1 - p);
                double prob[3] = {p - pd / 2, pd, 1 - p - pd / 2};
                unsigned n[3];
                gsl_rng *g = om_rng_gsl_alloc(SYN_SEED, (uint64_t)(s * 10000 + (size_t)row_id[r] * 100
                                                                   + (size_t)col_id[c]));
                cr_assert_not_null(g);
                gsl_ran_multinomial(g, 3, SYN_TRIALS, prob, n);
                gsl_rng_free(g);
                sy->cells[(s * nr + r) * nc + c] = (om_matrix_cell){
                    .trials = SYN_TRIALS, .wins_row = n[0], .draws = n[1], .wins_col = n[2]};
            }
    sy->m = (om_matrix){
        .path = path,
        .info = {.program_version = "t", .ruleset = "synthetic", .data_version = "",
                 .row_list = "Rowland", .col_list = "Colonia", .rng_scheme = "", .seed = 1,
                 .trials_per_cell = SYN_TRIALS, .n_situations = 2, .n_rows = nr,
                 .n_cols = nc, .situations = sy->sits, .rows = sy->rows, .cols = sy->cols},
        .cells = sy->cells,
    };
}

/* The true strength of unit u (rows first) of a synthetic matrix. */
static double syn_truth(const synth *sy, size_t u)
{
    return u < sy->n_rows ? sy->truth[u] : sy->truth[SYN_MAX + u - sy->n_rows];
}

/*
 * The fair value the model defines, from the true strengths: the OLS slope of
 * the field's (the other axis's, one army) true strengths on ln(points), then
 * E_u(P) = 1/2 by bisection.
 */
static double syn_true_fair(const synth *sy, size_t u)
{
    double sxx = 0, sxy = 0, b, lo = -10, hi = 20;
    size_t R = sy->n_rows, K = R + sy->n_cols;
    for (int side = u < R ? 1 : 0; side == (u < R ? 1 : 0); side++) {
        double mx = 0, my = 0, n = 0;
        for (size_t v = 0; v < K; v++)
            if ((v < R) == (side == 0)) {
                const om_matrix_unit *x = v < R ? &sy->rows[v] : &sy->cols[v - R];
                mx += log(x->points);
                my += syn_truth(sy, v);
                n++;
            }
        mx /= n;
        my /= n;
        for (size_t v = 0; v < K; v++)
            if ((v < R) == (side == 0)) {
                const om_matrix_unit *x = v < R ? &sy->rows[v] : &sy->cols[v - R];
                sxx += (log(x->points) - mx) * (log(x->points) - mx);
                sxy += (log(x->points) - mx) * (syn_truth(sy, v) - my);
            }
    }
    b = sxy / sxx;
    for (int it = 0; it < 100; it++) {
        double mid = (lo + hi) / 2, sum = 0, n = 0;
        for (size_t v = 0; v < K; v++)
            if ((v < R) != (u < R)) {
                const om_matrix_unit *x = v < R ? &sy->rows[v] : &sy->cols[v - R];
                sum += sigmoid(syn_truth(sy, u) - syn_truth(sy, v) - b * (mid - log(x->points)));
                n++;
            }
        if (sum / n > 0.5)
            lo = mid;
        else
            hi = mid;
    }
    return exp((lo + hi) / 2);
}

static const int syn_rows8[8] = {0, 2, 4, 6, 8, 10, 12, 14};
static const int syn_cols8[8] = {1, 3, 5, 7, 9, 11, 13, 15};

/* Known strengths and fair values come back within 5 standard errors. */
Test(efficiency, synthetic_recovers_known_values)
{
    synth sy;
    om_efficiency *e;
    double mean_hat = 0, mean_true = 0;
    syn_build(&sy, syn_rows8, 8, syn_cols8, 8, NULL);
    e = compute(&sy.m, OM_EFFICIENCY_ALL);
    cr_assert(e->model.curve[0].defined && !e->model.curve[0].pooled, "%s",
              e->model.curve[0].reason);
    /* Strengths are fixed up to a constant: compare deviations from the mean. */
    for (size_t u = 0; u < 16; u++) {
        mean_hat += e->units[u].strength.value / 16;
        mean_true += syn_truth(&sy, u) / 16;
    }
    for (size_t u = 0; u < 16; u++) {
        double got = e->units[u].strength.value - mean_hat, want = syn_truth(&sy, u) - mean_true;
        cr_expect(fabs(got - want) < 5 * e->units[u].strength_se, "%s strength %.4f, true %.4f, "
                  "se %.4f", e->units[u].unit->name, got, want, e->units[u].strength_se);
    }
    for (size_t u = 0; u < 16; u++) {
        const om_efficiency_rating *o = &e->units[u].overall;
        double want = syn_true_fair(&sy, u);
        cr_expect_eq(e->units[u].status, OM_EFFICIENCY_RATED);
        cr_expect(fabs(log(o->fair.value) - log(want)) < 5 * o->ln_fair_se,
                  "%s fair %.2f, true %.2f (ln se %.4f)", e->units[u].unit->name, o->fair.value,
                  want, o->ln_fair_se);
    }
    for (int side = 0; side < 2; side++)
        cr_expect(fabs(e->model.curve[side].slope.value - SYN_B) < 5 * e->model.curve[side].slope_se,
                  "b %.3f se %.3f", e->model.curve[side].slope.value,
                  e->model.curve[side].slope_se);
    /* Drawn from the model itself: no excess variation, no warning, no curvature. */
    cr_expect(e->model.dispersion < 2.0, "dispersion %.2f", e->model.dispersion);
    cr_expect(!e->model.weak, "r2 %.3f", e->model.r2);
    cr_expect(isfinite(e->model.curve[0].quadratic_t));
    om_efficiency_free(e);
    free(sy.cells);
}

/* A unit entered twice under two names gets the same fair value, the one it had alone. */
Test(efficiency, duplicate_unit_same_value)
{
    static const int rows_dup[9] = {0, 2, 4, 6, 8, 10, 12, 14, 6};
    synth alone, dup;
    om_efficiency *ea, *ed;
    const om_efficiency_rating *a, *d1, *d2;
    syn_build(&alone, syn_rows8, 8, syn_cols8, 8, NULL);
    syn_build(&dup, rows_dup, 9, syn_cols8, 8, NULL);
    snprintf(dup.names[8], sizeof dup.names[8], "R6 again");
    ea = compute(&alone.m, OM_EFFICIENCY_ALL);
    ed = compute(&dup.m, OM_EFFICIENCY_ALL);
    a = &ea->units[3].overall;
    d1 = &ed->units[3].overall;
    d2 = &ed->units[8].overall;
    cr_expect_str_eq(ed->units[8].unit->name, "R6 again");
    cr_expect(fabs(d1->fair.value - d2->fair.value) < 1e-9 * d1->fair.value,
              "twins: %.12f and %.12f", d1->fair.value, d2->fair.value);
    cr_expect(fabs(d1->ln_fair_se - d2->ln_fair_se) < 1e-9);
    cr_expect(fabs(log(d1->fair.value) - log(a->fair.value)) < 1.959964 * a->ln_fair_se,
              "with a twin %.3f, alone %.3f (ln se %.4f)", d1->fair.value, a->fair.value,
              a->ln_fair_se);
    om_efficiency_free(ea);
    om_efficiency_free(ed);
    free(alone.cells);
    free(dup.cells);
}

/*
 * Adding or removing units that are not in a unit's field (more rows, for a
 * row unit) moves its fair value by less than its 95% interval's half-width;
 * two of the six added rows are far weaker than their cost (pool ids 21 and
 * 23, 2.0 and 2.5 below the price curve, like artillery judged in melee),
 * which dragged the old own-side line: the field's own curve does not move.
 */
Test(efficiency, unrelated_units_do_not_move_values)
{
    static const int rows_more[14] = {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 21, 23};
    static const int rows_few[4] = {2, 6, 10, 14};
    synth base, more, few;
    om_efficiency *eb, *em, *ef;
    syn_build(&base, syn_rows8, 8, syn_cols8, 8, NULL);
    syn_build(&more, rows_more, 14, syn_cols8, 8, NULL);
    syn_build(&few, rows_few, 4, syn_cols8, 8, NULL);
    eb = compute(&base.m, OM_EFFICIENCY_ALL);
    em = compute(&more.m, OM_EFFICIENCY_ALL);
    ef = compute(&few.m, OM_EFFICIENCY_ALL);
    for (size_t r = 0; r < 8; r++) {
        const om_efficiency_rating *b = &eb->units[r].overall, *m = &em->units[r].overall;
        double half = 1.959964 * b->ln_fair_se;
        cr_expect(fabs(log(m->fair.value) - log(b->fair.value)) < half,
                  "%s: %.2f with 6 more rows, %.2f before (ln half-width %.4f)",
                  eb->units[r].unit->name, m->fair.value, b->fair.value, half);
        if (r % 2 == 1) {
            const om_efficiency_rating *f = &ef->units[r / 2].overall;
            cr_expect(fabs(log(f->fair.value) - log(b->fair.value)) < half,
                      "%s: %.2f with 4 rows removed, %.2f before", eb->units[r].unit->name,
                      f->fair.value, b->fair.value);
        }
    }
    om_efficiency_free(eb);
    om_efficiency_free(em);
    om_efficiency_free(ef);
    free(base.cells);
    free(more.cells);
    free(few.cells);
}

/* ------------------------------------------------------------ inapplicable */

/*
 * Cells flagged inapplicable are left out for both units, exactly as if they
 * had not been run; a unit with every cell flagged is not rated; an army with
 * no unit taking part, and a unit without trials, are errors naming the field.
 */
Test(efficiency, inapplicable_cells_are_left_out)
{
    synth sy, blank;
    om_efficiency *e, *eb;
    syn_build(&sy, syn_rows8, 8, syn_cols8, 8, NULL);
    syn_build(&blank, syn_rows8, 8, syn_cols8, 8, NULL);
    /* Row 2 cannot do what situation "one" asks: its cells there say it loses everything. */
    for (size_t c = 0; c < 8; c++) {
        om_matrix_cell *x = &sy.cells[2 * 8 + c], *y = &blank.cells[2 * 8 + c];
        *x = (om_matrix_cell){.trials = SYN_TRIALS, .wins_col = SYN_TRIALS,
                              .inapplicable = OM_MATRIX_ROW_CANNOT};
        *y = (om_matrix_cell){0};
    }
    e = compute(&sy.m, OM_EFFICIENCY_ALL);
    eb = compute(&blank.m, OM_EFFICIENCY_ALL);
    cr_expect_eq(e->units[2].cells, 8);
    cr_expect_eq(e->units[2].cells_excluded, 8);
    cr_expect_eq(e->units[8].cells_excluded, 1, "each column lost one cell too");
    for (size_t u = 0; u < 16; u++)
        cr_expect(fabs(e->units[u].overall.fair.value - eb->units[u].overall.fair.value) < 1e-9,
                  "unit %zu: flagged as if not run", u);
    om_efficiency_free(eb);

    /* Every cell of row 2 flagged: not rated, and said so; the others still are. */
    for (size_t c = 0; c < 8; c++)
        sy.cells[(8 + 2) * 8 + c].inapplicable = OM_MATRIX_ROW_CANNOT;
    om_efficiency_free(e);
    e = compute(&sy.m, OM_EFFICIENCY_ALL);
    cr_expect_eq(e->units[2].status, OM_EFFICIENCY_NOT_TAKING_PART);
    cr_expect(strstr(om_efficiency_status_name(&e->units[2]), "cannot take part") != NULL);
    cr_expect_eq(e->units[3].status, OM_EFFICIENCY_RATED);
    om_efficiency_free(e);

    /* No row can take part anywhere: an error naming the army and the dataset. */
    for (size_t k = 0; k < 2 * 8 * 8; k++)
        sy.cells[k].inapplicable = OM_MATRIX_ROW_CANNOT;
    e = (om_efficiency *)&sy;
    cr_expect_eq(om_efficiency_compute(&sy.m, NULL, &e), OM_EINVAL);
    cr_expect_null(e);
    cr_expect(strstr(om_error_message(), "synthetic.h5") != NULL
                  && strstr(om_error_message(), "'Rowland'") != NULL
                  && strstr(om_error_message(), "/cells/inapplicable") != NULL,
              "%s", om_error_message());

    /* A column without trials: an error naming it and /cells/trials. */
    for (size_t k = 0; k < 2 * 8 * 8; k++) {
        blank.cells[k].inapplicable = 0;
        if (k % 8 == 5)
            blank.cells[k] = (om_matrix_cell){0};
    }
    cr_expect_eq(om_efficiency_compute(&blank.m, NULL, &e), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "column unit 'C11'") != NULL
                  && strstr(om_error_message(), "/cells/trials") != NULL,
              "%s", om_error_message());
    free(sy.cells);
    free(blank.cells);
}

/* ------------------------------------------------------- fit and warnings */

/*
 * Rock-paper-scissors: rows R0..R2 and columns C0..C2 where row i beats column i
 * and loses to column i+1 (mod 3), 90 to 10: one strength per unit explains
 * nothing, and the report says so.
 */
Test(efficiency, weak_fit_is_flagged)
{
    om_matrix m = tiny();
    om_matrix_unit rows[3], cols[3];
    om_matrix_cell cells[9];
    om_efficiency *e;
    char *buf = NULL;
    size_t size = 0;
    FILE *f;
    for (int i = 0; i < 3; i++) {
        rows[i] = (om_matrix_unit){.name = i == 0 ? "Rock" : i == 1 ? "Paper" : "Scissors",
                                   .points = (uint32_t)(50 + 25 * i)};
        cols[i] = (om_matrix_unit){.name = i == 0 ? "Rock'" : i == 1 ? "Paper'" : "Scissors'",
                                   .points = (uint32_t)(50 + 25 * i)};
    }
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            uint64_t w = c == r ? 90 : c == (r + 1) % 3 ? 10 : 50;
            cells[r * 3 + c] = (om_matrix_cell){.trials = 100, .wins_row = w, .wins_col = 100 - w};
        }
    m.info.n_rows = m.info.n_cols = 3;
    m.info.n_situations = 1;
    m.info.rows = rows;
    m.info.cols = cols;
    m.cells = cells;
    e = compute(&m, OM_EFFICIENCY_ALL);
    cr_expect(e->model.r2 < OM_EFFICIENCY_WEAK_FIT, "r2 %g", e->model.r2);
    cr_expect(e->model.weak);
    cr_expect(e->model.dispersion > 10, "dispersion %g", e->model.dispersion);
    f = open_memstream(&buf, &size);
    cr_assert_eq(om_efficiency_print(e, OM_EFFICIENCY_TEXT, 0, f), OM_OK);
    fclose(f);
    cr_expect(strstr(buf, "WARNING: the strengths explain only") != NULL, "%s", buf);
    free(buf);
    om_efficiency_free(e);
}

/* The interval of a fair value widens with the dispersion (quasi-likelihood). */
Test(efficiency, dispersion_widens_intervals)
{
    synth sy;
    om_efficiency *e1, *e2;
    syn_build(&sy, syn_rows8, 8, syn_cols8, 8, NULL);
    e1 = compute(&sy.m, OM_EFFICIENCY_ALL);
    /* Swap two rows' results against half the columns: a matchup pattern beyond strength. */
    for (size_t s = 0; s < 2; s++)
        for (size_t c = 0; c < 4; c++) {
            om_matrix_cell t = sy.cells[(s * 8 + 0) * 8 + c];
            sy.cells[(s * 8 + 0) * 8 + c] = sy.cells[(s * 8 + 7) * 8 + c];
            sy.cells[(s * 8 + 7) * 8 + c] = t;
        }
    e2 = compute(&sy.m, OM_EFFICIENCY_ALL);
    cr_expect(e2->model.dispersion > 3 * e1->model.dispersion, "%g vs %g", e2->model.dispersion,
              e1->model.dispersion);
    cr_expect(e2->units[3].strength_se > 1.5 * e1->units[3].strength_se);
    om_efficiency_free(e1);
    om_efficiency_free(e2);
    free(sy.cells);
}

/* ---------------------------------------------------------- field, armies */

/*
 * Two armies on the column axis: every row unit gets a rating against each;
 * --field restricts the reference field to one army, which then gives exactly
 * that army's rating; an unknown field army is an error.
 */
Test(efficiency, field_and_per_army_breakdown)
{
    synth sy;
    om_efficiency *e, *eo;
    const char *only[1] = {"Orcs"}, *bad[1] = {"Elves"};
    om_efficiency_options opt = {.situation = OM_EFFICIENCY_ALL, .field = only, .n_field = 1};
    syn_build(&sy, syn_rows8, 8, syn_cols8, 8, "Orcs");
    e = compute(&sy.m, OM_EFFICIENCY_ALL);
    cr_assert_eq(e->n_armies[OM_EFFICIENCY_COL], 2);
    cr_expect_str_eq(om_efficiency_army_name(e, OM_EFFICIENCY_COL, 1), "Orcs");
    for (size_t r = 0; r < 8; r++) {
        const om_efficiency_unit *u = &e->units[r];
        cr_expect_eq(u->by_army[0].cells, 8);
        cr_expect_eq(u->by_army[1].cells, 8);
        cr_expect(isfinite(u->by_army[1].fair.value) && u->by_army[1].fair.lo < u->by_army[1].fair.value);
    }
    /* A column unit's field is the rows: one army, its rating is the overall one. */
    expect_close(e->units[9].by_army[0].fair.value, e->units[9].overall.fair.value, "col");
    eo = compute_opt(&sy.m, &opt);
    for (size_t r = 0; r < 8; r++) {
        expect_close(eo->units[r].overall.fair.value, e->units[r].by_army[1].fair.value,
                     "field Orcs = the Orcs breakdown");
        expect_close(eo->units[r].overall.score.value, e->units[r].by_army[1].score.value,
                     "score against Orcs");
        cr_expect_eq(eo->units[r].overall.cells, 8);
    }
    om_efficiency_free(eo);
    om_efficiency_free(e);
    opt.field = bad;
    e = (om_efficiency *)&sy;
    cr_expect_eq(om_efficiency_compute(&sy.m, &opt, &e), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "'Elves' is not in the matrix") != NULL, "%s",
              om_error_message());
    free(sy.cells);
}

/* ---------------------------------------------------------------- bootstrap */

/*
 * The bootstrap over cells: reproducible for a seed, different for another,
 * an interval around every fair value, of the order of the covariance one.
 */
Test(efficiency, bootstrap_intervals)
{
    synth sy;
    om_efficiency *e1, *e2, *e3, *ec;
    om_efficiency_options opt = {.situation = OM_EFFICIENCY_ALL,
                                 .interval = OM_EFFICIENCY_BOOTSTRAP, .replicates = 200,
                                 .seed = 7};
    syn_build(&sy, syn_rows8, 8, syn_cols8, 8, NULL);
    e1 = compute_opt(&sy.m, &opt);
    e2 = compute_opt(&sy.m, &opt);
    opt.seed = 8;
    e3 = compute_opt(&sy.m, &opt);
    ec = compute(&sy.m, OM_EFFICIENCY_ALL);
    for (size_t u = 0; u < 16; u++) {
        const om_efficiency_value *f = &e1->units[u].overall.fair, *c = &ec->units[u].overall.fair;
        double wb = log(f->hi / f->lo), wc = log(c->hi / c->lo);
        cr_expect_eq(e1->units[u].boot_ok, 200, "unit %zu rated in every replicate", u);
        expect_close(f->value, c->value, "the estimate is the same");
        cr_expect(f->lo < f->value && f->value < f->hi, "unit %zu: %g [%g, %g]", u, f->value,
                  f->lo, f->hi);
        cr_expect_eq(f->lo, e2->units[u].overall.fair.lo, "same seed, same interval");
        cr_expect(wb > wc / 4 && wb < wc * 4, "unit %zu widths: bootstrap %g, covariance %g", u,
                  wb, wc);
        cr_expect(e1->units[u].strength.lo < e1->units[u].strength.value
                  && e1->units[u].strength.hi > e1->units[u].strength.value);
    }
    cr_expect(e3->units[0].overall.fair.lo != e1->units[0].overall.fair.lo, "another seed");
    om_efficiency_free(e1);
    om_efficiency_free(e2);
    om_efficiency_free(e3);
    om_efficiency_free(ec);
    free(sy.cells);
}

/* ------------------------------------------------------------------ errors */

Test(efficiency, errors)
{
    om_matrix m = tiny();
    om_efficiency *e = (om_efficiency *)&m;
    om_efficiency_options opt = {.situation = 2};
    cr_expect_eq(om_efficiency_compute(&m, &opt, &e), OM_EINVAL);
    cr_expect_null(e);
    opt = (om_efficiency_options){.situation = 0, .confidence = 1.0};
    cr_expect_eq(om_efficiency_compute(&m, &opt, &e), OM_EINVAL);
    opt = (om_efficiency_options){.situation = 0, .replicates = OM_EFFICIENCY_MAX_REPLICATES + 1};
    cr_expect_eq(om_efficiency_compute(&m, &opt, &e), OM_EINVAL);
    cr_expect_eq(om_efficiency_compute(NULL, NULL, &e), OM_EINVAL);
    cr_expect_eq(om_efficiency_print(NULL, OM_EFFICIENCY_TEXT, 0, stdout), OM_EINVAL);
    om_efficiency_free(NULL);
}

/* ----------------------------------------------------------------- outputs */

/* Print `e` in `format` (and `table`) into a string (caller frees). */
static char *print_to_string(const om_efficiency *e, om_efficiency_format format,
                             om_efficiency_table table)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    cr_assert_not_null(f);
    cr_assert_eq(om_efficiency_print(e, format, table, f), OM_OK, "%s", om_error_message());
    fclose(f);
    return buf;
}

/* Every form carries the manifest: version, rule set, data version, seed, trials, file. */
static void expect_manifest(const char *text, const char *form)
{
    static const char *const parts[] = {"oddsmaster 9.8.7-test", "warmaster-revolution",
                                        "data lists 2.25", "seed 4242",
                                        "adaptive to \xc2\xb1" "0.02 per cell, 1,210 trials",
                                        "tiny.h5"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        cr_expect(strstr(text, parts[i]) != NULL, "%s lacks '%s':\n%s", form, parts[i], text);
}

/* Fields of one CSV line (RFC 4180 quotes respected); `line` ends at '\n' or NUL. */
static size_t csv_fields(const char *line)
{
    size_t n = 1;
    bool quoted = false;
    for (const char *p = line; *p != '\0' && (quoted || *p != '\n'); p++) {
        if (*p == '"')
            quoted = !quoted;
        else if (*p == ',' && !quoted)
            n++;
    }
    return n;
}

/* One table: a header line, then lines of as many fields, no comment and no blank line. */
static size_t expect_one_table(const char *csv, const char *header)
{
    size_t want = csv_fields(csv), lines = 0;
    cr_expect(strncmp(csv, header, strlen(header)) == 0, "header:\n%.200s", csv);
    for (const char *p = csv; *p != '\0'; p = strchr(p, '\n') + 1) {
        cr_expect(*p != '#' && *p != '\n', "line %zu is a comment or blank", lines);
        cr_expect_eq(csv_fields(p), want, "line %zu: %.120s", lines, p);
        lines++;
        if (strchr(p, '\n') == NULL)
            break;
    }
    return lines;
}

Test(efficiency, outputs_tidy_and_carry_the_manifest)
{
    om_matrix m = tiny();
    om_efficiency *e = compute(&m, 0);
    char *text = print_to_string(e, OM_EFFICIENCY_TEXT, 0);
    char *units = print_to_string(e, OM_EFFICIENCY_CSV, OM_EFFICIENCY_TABLE_UNITS);
    char *model = print_to_string(e, OM_EFFICIENCY_CSV, OM_EFFICIENCY_TABLE_MODEL);
    char *resid = print_to_string(e, OM_EFFICIENCY_CSV, OM_EFFICIENCY_TABLE_RESIDUALS);
    char *md = print_to_string(e, OM_EFFICIENCY_MARKDOWN, 0);
    char *js = print_to_string(e, OM_EFFICIENCY_JSON, 0);
    char want[256];
    json_error_t err;
    json_t *root, *u0;

    expect_manifest(text, "text");
    expect_manifest(units, "csv");
    expect_manifest(md, "markdown");
    expect_manifest(js, "json");
    cr_expect(strstr(text, "Price curve") != NULL && strstr(text, "R^2") != NULL);
    cr_expect(strstr(text, "Open (open)") != NULL, "situation titles: %s", text);
    /* 4 units x (15 measures + 3 per opposing army), plus the header. */
    cr_expect_eq(expect_one_table(units, "side,army,unit,id,points,troop,field,measure,value,lo,"
                                         "hi,status,manifest\n"), 1 + 4 * (15 + 3));
    snprintf(want, sizeof want, "\nrow,Rowland,A,x/a,100,infantry,all,fair_points,%.10g,",
             e->units[0].overall.fair.value);
    cr_expect(strstr(units, want) != NULL, "%s in\n%s", want, units);
    cr_expect(strstr(units, "\ncol,Colonia,Y,y/y,200,monster,Rowland,score,") != NULL);
    cr_expect(expect_one_table(model, "measure,value,lo,hi,manifest\n") > 10);
    cr_expect(strstr(model, "\ncurve_cols.slope,1.2,") != NULL, "%s", model);
    cr_expect_eq(expect_one_table(resid, "row,col,games,observed,predicted,residual,manifest\n"), 5);
    cr_expect(strstr(resid, "\nA,X,100,0.8,") != NULL, "%s", resid);

    root = json_loads(js, 0, &err);
    cr_assert_not_null(root, "%s: %s", err.text, js);
    cr_expect_str_eq(json_string_value(json_object_get(root, "schema")), OM_EFFICIENCY_SCHEMA);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(root, "manifest"), "seed")),
                 4242);
    u0 = json_array_get(json_object_get(root, "units"), 0);
    cr_expect_str_eq(json_string_value(json_object_get(u0, "name")), "A");
    cr_expect_str_eq(json_string_value(json_object_get(u0, "army")), "Rowland");
    cr_expect(fabs(json_real_value(json_object_get(json_object_get(json_object_get(u0, "overall"),
                                                                   "fair_points"), "value"))
                   - e->units[0].overall.fair.value) < 1e-9);
    cr_expect(json_is_object(json_object_get(json_object_get(u0, "by_army"), "Colonia")));
    cr_expect(fabs(json_real_value(json_object_get(json_object_get(json_object_get(
                       json_object_get(json_object_get(root, "model"), "curves"),
                       "row_units_field"), "slope"), "value")) - 1.2) < 1e-9);
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(root, "interval"),
                                                       "method")), "covariance");
    cr_expect(json_is_array(json_object_get(root, "warnings")));
    json_decref(root);
    free(js);
    free(md);
    free(resid);
    free(model);
    free(units);
    free(text);
    om_efficiency_free(e);
}

Test(efficiency, write_error)
{
    om_matrix m = tiny();
    om_efficiency *e = compute(&m, 0);
    FILE *f = fopen("/dev/full", "w");
    if (f == NULL) {
        om_efficiency_free(e);
        cr_skip_test("no /dev/full");
    }
    cr_expect_eq(om_efficiency_print(e, OM_EFFICIENCY_TEXT, 0, f), OM_EIO);
    cr_expect_eq(om_efficiency_print(e, OM_EFFICIENCY_CSV, 0, f), OM_EIO);
    fclose(f);
    om_efficiency_free(e);
}
