/*
 * test_efficiency.c: Criterion tests of analysis/efficiency (points efficiency
 * of a matchup matrix) on tiny matrices whose every number is worked out by
 * hand below: P(win) against the field with its interval, points destroyed per
 * 100 points, points lost, Bradley-Terry strengths that are exact logarithms,
 * and the fair-points arithmetic; then the undefined cases of the fair line,
 * situation selection, and the manifest in every output form.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>

#include "efficiency.h"
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
static const om_matrix_unit tiny_rows[2] = {{"A", "x/a", 100, "Army", "infantry", OM_MATRIX_SHOOTS_NO}, {"B", "x/b", 50, "Army", "infantry", OM_MATRIX_SHOOTS_NO}};
static const om_matrix_unit tiny_cols[2] = {{"X", "y/x", 50, "Army", "infantry", OM_MATRIX_SHOOTS_NO}, {"Y", "y/y", 200, "Army", "infantry", OM_MATRIX_SHOOTS_NO}};
static const om_matrix_situation tiny_sits[2] = {{"open", "kind: combat\n", "Open"},
                                                 {"defended", "kind: combat\n", "Defended"}};
static om_matrix_cell tiny_cells[2 * 2 * 2] = {
    {100, 80, 0, 20, 1000, 6000, 0}, {100, 40, 20, 40, 3000, 5000, 0},
    {100, 50, 0, 50, 2000, 2000, 0}, {110, 20, 0, 80, 4400, 1100, 0},
    {200, 80, 0, 120, 3000, 8000, 0}, {200, 40, 40, 120, 5000, 9000, 0},
    {200, 50, 0, 150, 3000, 3000, 0}, {200, 20, 0, 180, 8000, 1000, 0},
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

static om_efficiency *compute(const om_matrix *m, size_t situation)
{
    om_efficiency *e = NULL;
    cr_assert_eq(om_efficiency_compute(m, situation, 0.95, &e), OM_OK, "%s",
                 om_error_message());
    cr_assert_not_null(e);
    return e;
}

static void expect_close(double got, double want, const char *what)
{
    cr_expect(fabs(got - want) <= TOL * fmax(1.0, fabs(want)), "%s: got %.12g, want %.12g",
              what, got, want);
}

/* The interval of a mean of proportions from cells of n1 and n2 trials. */
static void expect_interval(const om_efficiency_unit *u, double p, double n1, double n2)
{
    double lo, hi;
    cr_assert_eq(om_stats_wilson_real(p, 4.0 / (1.0 / n1 + 1.0 / n2), 0.95, &lo, &hi), OM_OK);
    expect_close(u->p_win_lo, lo, "lo");
    expect_close(u->p_win_hi, hi, "hi");
}

Test(efficiency, hand_computed_units)
{
    om_matrix m = tiny();
    om_efficiency *e = compute(&m, 0);
    const om_efficiency_unit *A = &e->units[0], *B = &e->units[1];
    const om_efficiency_unit *X = &e->units[2], *Y = &e->units[3];
    double lo, hi;

    cr_assert_eq(e->n_units, 4);
    cr_expect(A->side == OM_EFFICIENCY_ROW && X->side == OM_EFFICIENCY_COL && Y->index == 1);
    cr_expect_str_eq(Y->unit->name, "Y");

    /* A: P(win) (0.8 + 0.4)/2 = 0.6; equal trials, so the pooled 120 of 200. */
    expect_close(A->p_win, 0.6, "A p_win");
    cr_assert_eq(om_stats_wilson(120, 200, 0.95, &lo, &hi), OM_OK);
    expect_close(A->p_win_lo, lo, "A lo");
    expect_close(A->p_win_hi, hi, "A hi");
    cr_expect(A->cells == 2 && A->trials == 200 && A->wins == 120 && A->draws == 20
              && A->losses == 60);
    /* Destroyed (60 + 50)/2 = 55 per trial; per 100 of 100 points: 55. Lost (10 + 30)/2. */
    expect_close(A->destroyed, 55, "A destroyed");
    expect_close(A->destroyed_per_100, 55, "A per 100");
    expect_close(A->lost, 20, "A lost");

    /* B: (50/100 + 20/110)/2; unequal trials: effective n = 4 / (1/100 + 1/110). */
    expect_close(B->p_win, (0.5 + 20.0 / 110.0) / 2, "B p_win");
    expect_interval(B, (0.5 + 20.0 / 110.0) / 2, 100, 110);
    expect_close(B->destroyed, 15, "B destroyed");
    expect_close(B->destroyed_per_100, 30, "B per 100 (50 points)");
    expect_close(B->lost, 30, "B lost");

    /* X: wins 20 of 100 and 50 of 100; destroyed is the rows' loss (10 + 20)/2. */
    expect_close(X->p_win, 0.35, "X p_win");
    expect_close(X->destroyed, 15, "X destroyed");
    expect_close(X->destroyed_per_100, 30, "X per 100");
    expect_close(X->lost, 40, "X lost");

    /* Y: (40/100 + 80/110)/2; destroyed (30 + 40)/2 = 35 of 200 points: 17.5 per 100. */
    expect_close(Y->p_win, (0.4 + 80.0 / 110.0) / 2, "Y p_win");
    expect_interval(Y, (0.4 + 80.0 / 110.0) / 2, 100, 110);
    expect_close(Y->destroyed_per_100, 17.5, "Y per 100");
    expect_close(Y->lost, 30, "Y lost");
    om_efficiency_free(e);
}

/*
 * Strengths are exact: theta_A = ln 2 = phi_Y, theta_B = phi_X = -ln 2.
 * Fair line, within-side deviations from the side means:
 *   rows: x = ln 100, ln 50 (dx = +-ln2/2), strength dy = +-ln 2;
 *   cols: x = ln 50, ln 200 (dx = -+ln 2), dy = -+ln 2 ... both rising.
 *   Sxy = 2(ln2/2)(ln2) + 2(ln2)(ln2) = 3 ln^2 2, Sxx = 2(ln2/2)^2 + 2 ln^2 2 = 2.5 ln^2 2,
 *   so b = 1.2; a_row = 0 - 1.2 ln(sqrt(5000)), a_col = 0 - 1.2 ln(100).
 *   fair_A = exp((ln 2 - a_row)/1.2) = 2^(1/1.2) sqrt(5000), fair_B = 2^(-1/1.2) sqrt(5000),
 *   fair_X = 2^(-1/1.2) 100, fair_Y = 2^(1/1.2) 100.
 */
Test(efficiency, strengths_and_fair_points)
{
    om_matrix m = tiny();
    om_efficiency *e = compute(&m, 0);
    double up = pow(2.0, 1 / 1.2), down = pow(2.0, -1 / 1.2), s5000 = sqrt(5000.0);
    const double strength[4] = {log(2.0), -log(2.0), -log(2.0), log(2.0)};
    const double fair[4] = {up * s5000, down * s5000, down * 100, up * 100};
    const double points[4] = {100, 50, 50, 200};

    for (int i = 0; i < 4; i++) {
        cr_expect_eq(e->units[i].bt_status, OM_BT_ESTIMATED);
        cr_expect(fabs(e->units[i].strength - strength[i]) < 1e-8, "unit %d strength %.12f", i,
                  e->units[i].strength);
        cr_expect(e->units[i].strength_se > 0);
    }
    cr_assert(e->fair_defined, "%s", e->fair_reason != NULL ? e->fair_reason : "");
    cr_expect_eq(e->fair_units, 4);
    cr_expect(fabs(e->fair_slope - 1.2) < 1e-8, "b %.12f", e->fair_slope);
    cr_expect(fabs(e->fair_intercept[0] + 1.2 * log(s5000)) < 1e-7);
    cr_expect(fabs(e->fair_intercept[1] + 1.2 * log(100.0)) < 1e-7);
    for (int i = 0; i < 4; i++) {
        cr_expect(fabs(e->units[i].fair_points - fair[i]) < 1e-6 * fair[i],
                  "unit %d fair %.9f, want %.9f", i, e->units[i].fair_points, fair[i]);
        expect_close(e->units[i].fair_minus_points, e->units[i].fair_points - points[i],
                     "fair minus printed");
    }
    /* Residuals of an exact Bradley-Terry matrix are zero; observed shares as given. */
    for (int i = 0; i < 4; i++)
        cr_expect(fabs(e->residual[i]) < 1e-8, "residual %d: %g", i, e->residual[i]);
    expect_close(e->observed[1], 0.5, "A-Y score share with draws as half");
    om_efficiency_free(e);
}

/* Pooling: each unit's P(win) is the mean over its four cells of both situations. */
Test(efficiency, all_situations_pooled)
{
    om_matrix m = tiny();
    om_efficiency *e = compute(&m, OM_EFFICIENCY_ALL);
    double want_a = (0.8 + 0.4 + 80.0 / 200 + 40.0 / 200) / 4;
    expect_close(e->units[0].p_win, want_a, "A pooled p_win");
    cr_expect_eq(e->units[0].cells, 4);
    cr_expect_eq(e->units[0].trials, 600);
    /* The Bradley-Terry input is the sum of the two situations. */
    expect_close(e->wins[0], 160, "A-X wins summed");
    expect_close(e->losses[3], 260, "B-Y losses summed");
    expect_close(e->trials[3], 310, "B-Y trials summed");
    om_efficiency_free(e);

    e = compute(&m, 1);
    expect_close(e->units[0].p_win, (80.0 / 200 + 40.0 / 200) / 2, "A defended");
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
    cr_expect_eq(index, OM_EFFICIENCY_ALL);
    cr_expect_eq(om_efficiency_situation_find(&m, "flank", &index), OM_ENOTFOUND);
    cr_expect(strstr(om_error_message(), "open, defended") != NULL, "%s", om_error_message());
}

Test(efficiency, errors)
{
    om_matrix m = tiny();
    om_efficiency *e = (om_efficiency *)&m;
    cr_expect_eq(om_efficiency_compute(&m, 2, 0.95, &e), OM_EINVAL);
    cr_expect_null(e);
    cr_expect_eq(om_efficiency_compute(&m, 0, 1.0, &e), OM_EINVAL);
    cr_expect_eq(om_efficiency_compute(NULL, 0, 0.95, &e), OM_EINVAL);
    cr_expect_eq(om_efficiency_print(NULL, OM_EFFICIENCY_TEXT, stdout), OM_EINVAL);
    om_efficiency_free(NULL);
}

/* When the fair line does not exist, every fair value is undefined and the reason says why. */
Test(efficiency, fair_points_undefined)
{
    om_matrix m = tiny();
    om_matrix_unit rows[2], cols[2];
    om_efficiency *e;

    /* The dearer unit of each side is the weaker one: slope below zero. */
    memcpy(rows, tiny_rows, sizeof rows);
    memcpy(cols, tiny_cols, sizeof cols);
    rows[0].points = 50;
    rows[1].points = 100;
    cols[0].points = 200;
    cols[1].points = 50;
    m.info.rows = rows;
    m.info.cols = cols;
    e = compute(&m, 0);
    cr_expect(!e->fair_defined);
    cr_expect(strstr(e->fair_reason, "slope") != NULL, "%s", e->fair_reason);
    for (int i = 0; i < 4; i++)
        cr_expect(isnan(e->units[i].fair_points) && isnan(e->units[i].fair_minus_points));
    om_efficiency_free(e);

    /* Equal costs within each side. */
    rows[0].points = rows[1].points = 70;
    cols[0].points = cols[1].points = 80;
    e = compute(&m, 0);
    cr_expect(!e->fair_defined);
    cr_expect(strstr(e->fair_reason, "do not vary") != NULL, "%s", e->fair_reason);
    om_efficiency_free(e);

    /* Too few units with a cost (0 = unknown): per-100 undefined there too. */
    rows[0].points = 0;
    cols[0].points = 0;
    e = compute(&m, 0);
    cr_expect(!e->fair_defined);
    cr_expect(strstr(e->fair_reason, "fewer than 3") != NULL, "%s", e->fair_reason);
    cr_expect(isnan(e->units[0].destroyed_per_100));
    om_efficiency_free(e);
}

/* A unit that won every trial has no strength and no fair value, but its P(win). */
Test(efficiency, unbeaten_unit)
{
    om_matrix m = tiny();
    om_matrix_cell cells[8];
    om_efficiency *e;
    memcpy(cells, tiny_cells, sizeof cells);
    cells[0] = (om_matrix_cell){100, 100, 0, 0, 0, 7000, 0};
    cells[1] = (om_matrix_cell){100, 100, 0, 0, 0, 9000, 0};
    m.cells = cells;
    e = compute(&m, 0);
    cr_expect_eq(e->units[0].bt_status, OM_BT_UNBEATEN);
    cr_expect(isnan(e->units[0].strength) && isnan(e->units[0].fair_points));
    expect_close(e->units[0].p_win, 1.0, "unbeaten P(win)");
    expect_close(e->units[0].p_win_hi, 1.0, "upper bound");
    cr_expect(isnan(e->residual[0]));
    om_efficiency_free(e);
}

/* Print `e` in `format` into a string (caller frees). */
static char *print_to_string(const om_efficiency *e, om_efficiency_format format)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    cr_assert_not_null(f);
    cr_assert_eq(om_efficiency_print(e, format, f), OM_OK, "%s", om_error_message());
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

Test(efficiency, outputs_carry_the_manifest)
{
    om_matrix m = tiny();
    om_efficiency *e = compute(&m, 0);
    char *text = print_to_string(e, OM_EFFICIENCY_TEXT);
    char *csv = print_to_string(e, OM_EFFICIENCY_CSV);
    char *md = print_to_string(e, OM_EFFICIENCY_MARKDOWN);
    char *js = print_to_string(e, OM_EFFICIENCY_JSON);
    json_error_t err;
    json_t *root, *units, *u0;

    expect_manifest(text, "text");
    expect_manifest(csv, "csv");
    expect_manifest(md, "markdown");
    expect_manifest(js, "json");
    cr_expect(strstr(text, "Residuals") != NULL);
    cr_expect(strstr(md, "|---|") != NULL);

    /* CSV: manifest comment, the unit header, 4 units; a blank line, residual rows. */
    cr_expect(strncmp(csv, "# oddsmaster", 12) == 0, "%s", csv);
    cr_expect(strstr(csv, "\nside,unit,id,points,cells,trials,p_win,p_win_lo,p_win_hi,destroyed,"
                          "destroyed_per_100,lost,strength,strength_se,status,fair_points,"
                          "fair_minus_points\nrow,A,x/a,100,2,200,0.6,") != NULL, "%s", csv);
    cr_expect(strstr(csv, "\ncol,Y,y/y,200,2,210,") != NULL, "%s", csv);
    cr_expect(strstr(csv, "\n\n# residuals") != NULL);
    cr_expect(strstr(csv, "row,col,games,observed,predicted,residual\nA,X,100,0.8,") != NULL,
              "%s", csv);

    /* JSON: documented keys and values. */
    root = json_loads(js, 0, &err);
    cr_assert_not_null(root, "%s: %s", err.text, js);
    cr_expect_str_eq(json_string_value(json_object_get(root, "schema")), OM_EFFICIENCY_SCHEMA);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(root, "manifest"), "seed")),
                 4242);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(root, "manifest"),
                                                    "trials")), 1210);
    units = json_object_get(root, "units");
    cr_assert_eq(json_array_size(units), 4);
    u0 = json_array_get(units, 0);
    cr_expect_str_eq(json_string_value(json_object_get(u0, "name")), "A");
    cr_expect(fabs(json_real_value(json_object_get(json_object_get(u0, "p_win"), "p")) - 0.6)
              < 1e-12);
    cr_expect(fabs(json_real_value(json_object_get(u0, "destroyed_per_100")) - 55) < 1e-9);
    cr_expect_str_eq(json_string_value(json_object_get(u0, "status")), "estimated");
    cr_expect(json_is_true(json_object_get(json_object_get(root, "fair_points"), "defined")));
    cr_expect_eq(json_array_size(json_object_get(json_object_get(root, "residuals"),
                                                 "residual")), 2);
    json_decref(root);
    free(js);
    free(md);
    free(csv);
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
    cr_expect_eq(om_efficiency_print(e, OM_EFFICIENCY_TEXT, f), OM_EIO);
    cr_expect_eq(om_efficiency_print(e, OM_EFFICIENCY_CSV, f), OM_EIO);
    fclose(f);
    om_efficiency_free(e);
}
