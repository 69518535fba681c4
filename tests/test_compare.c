/*
 * test_compare.c: Criterion tests of analysis/compare (two result files side
 * by side, with paired or independent intervals of each difference).
 *
 * The statistics are checked against exact values: the paired interval of
 * hand-counted discordant pairs, Newcombe's worked example, two identical
 * files (every difference 0, every paired interval of zero width), and a
 * known shift (k trials of one file changed: the difference is exactly
 * -k/n, the discordant pairs exactly k, the interval the formula's). Files
 * are written with synthetic rows through the sim writers, so every count
 * is known; files that cannot be compared are refused with what differs.
 * Each test works in its own mkdtemp directory, removed afterwards.
 */
#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "compare.h"
#include "h5file.h"
#include "h5matrix.h"
#include "test_layout.h"
#include "tmpdir.h"

static void dir_setup(void)
{
    tmpdir_create("om_test_compare");
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

TestSuite(interval);
TestSuite(runs, .init = dir_setup, .fini = tmpdir_remove);
TestSuite(matrices, .init = dir_setup, .fini = tmpdir_remove);

/* The normal quantile of 95% two-sided, to the digits GSL gives. */
#define Z95 1.959963984540054

/* --------------------------------------------------------------- intervals */

Test(interval, paired_exact_values)
{
    double d, lo, hi;
    /* 100 pairs, 10 where only B had the event: d = 0.1, sum of squared
     * deviations 10 - 100 * 0.01 = 9, se = sqrt(9 / 99 / 100). */
    cr_assert_eq(om_compare_paired_interval(100, 0, 10, 0.95, &d, &lo, &hi), OM_OK);
    const double half = Z95 * sqrt(9.0 / 99.0 / 100.0);
    cr_expect_float_eq(d, 0.1, 1e-15);
    cr_expect_float_eq(lo, 0.1 - half, 1e-12);
    cr_expect_float_eq(hi, 0.1 + half, 1e-12);
    /* Both directions: 7 only in A, 3 only in B of 50: d = -0.08,
     * ss = 10 - 50 * 0.0064 = 9.68, se = sqrt(9.68 / 49 / 50). */
    cr_assert_eq(om_compare_paired_interval(50, 7, 3, 0.95, &d, &lo, &hi), OM_OK);
    cr_expect_float_eq(d, -0.08, 1e-15);
    cr_expect_float_eq(hi - lo, 2 * Z95 * sqrt(9.68 / 49.0 / 50.0), 1e-12);
    /* No discordant pair: the files agree trial by trial, the interval is [0, 0]. */
    cr_assert_eq(om_compare_paired_interval(20000, 0, 0, 0.95, &d, &lo, &hi), OM_OK);
    cr_expect(d == 0.0 && lo == 0.0 && hi == 0.0, "%g [%g, %g]", d, lo, hi);
    /* Every pair discordant the same way: a certain difference of 1. */
    cr_assert_eq(om_compare_paired_interval(40, 0, 40, 0.95, &d, &lo, &hi), OM_OK);
    cr_expect(d == 1.0 && lo == 1.0 && hi == 1.0, "%g [%g, %g]", d, lo, hi);
    /* Too few pairs for a variance: no interval. */
    cr_assert_eq(om_compare_paired_interval(1, 0, 1, 0.95, &d, &lo, &hi), OM_OK);
    cr_expect(d == 1.0 && isnan(lo) && isnan(hi));
    /* More discordant pairs than pairs, or a confidence outside (0, 1). */
    cr_expect_eq(om_compare_paired_interval(10, 6, 5, 0.95, &d, &lo, &hi), OM_EINVAL);
    cr_expect_eq(om_compare_paired_interval(10, 1, 1, 1.0, &d, &lo, &hi), OM_EINVAL);
}

Test(interval, newcombe_worked_example)
{
    /* Newcombe (1998), Table II, example (a): 56/70 against 48/80, method 10
     * gives 0.0524 to 0.3339 for the difference 0.2. */
    double lo, hi;
    cr_assert_eq(om_compare_newcombe(48, 80, 56, 70, 0.95, &lo, &hi), OM_OK);
    cr_expect_float_eq(lo, 0.0524, 5e-5, "%.5f", lo);
    cr_expect_float_eq(hi, 0.3339, 5e-5, "%.5f", hi);
    /* The other way round, the interval mirrored. */
    cr_assert_eq(om_compare_newcombe(56, 70, 48, 80, 0.95, &lo, &hi), OM_OK);
    cr_expect_float_eq(lo, -0.3339, 5e-5);
    cr_expect_float_eq(hi, -0.0524, 5e-5);
    /* An empty sample has no interval; a count above its trials is refused. */
    cr_assert_eq(om_compare_newcombe(0, 0, 5, 10, 0.95, &lo, &hi), OM_OK);
    cr_expect(isnan(lo) && isnan(hi));
    cr_expect_eq(om_compare_newcombe(11, 10, 5, 10, 0.95, &lo, &hi), OM_EINVAL);
}

/* ------------------------------------------------------------------- runs */

/* Trials of the synthetic runs: more than one block of the writer's chunks. */
#define RUN_TRIALS 20000u

/* SplitMix64's finaliser: a fixed scramble of a trial number. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* The layout of a combat run, loaded once. */
static const om_layout *combat_layout(void)
{
    static om_layout l;
    static bool loaded;
    if (!loaded) {
        test_layout_of_kind("combat", &l);
        loaded = true;
    }
    return &l;
}

/* The winner code of trial t of the base run: a, b, draw or none. */
static uint8_t base_winner(uint64_t t)
{
    return (uint8_t)(mix(t) % OM_WINNER_CODES);
}

/* Write a combat run of RUN_TRIALS trials at `name` with seed `seed`: every
 * field 0 but the winner, base_winner(t) except that the first `shift`
 * trials the base run gave to A go to B instead. */
static void write_run(const char *name, uint64_t seed, uint64_t shift)
{
    const om_layout *l = combat_layout();
    char path[512];
    om_h5_writer *w = NULL;
    uint8_t *buf = calloc(RUN_TRIALS, l->row_size);
    int winner = om_layout_find(l, "winner");
    uint64_t moved = 0;
    om_run_info info = {
        .program_version = "0.1.0-test", .command_line = "test_compare", .game = "warmaster",
        .scenario_name = "test", .scenario_text = "title: test\n", .title = "test",
        .ruleset = "warmaster-revolution", .kind = "combat", .options_json = "{\"rounds\":1}",
        .rng_scheme = "pcg64-dxsm; trial t seeded by SplitMix64(seed, t)", .seed = seed,
        .trials = RUN_TRIALS, .block_size = 16384, .threads = 1, .layout = l};
    cr_assert_not_null(buf);
    cr_assert_geq(winner, 0);
    for (uint64_t t = 0; t < RUN_TRIALS; t++) {
        uint8_t code = base_winner(t);
        if (code == OM_WINNER_A && moved < shift) {
            code = OM_WINNER_B;
            moved++;
        }
        buf[t * l->row_size + l->fields[winner].offset] = code;
    }
    cr_assert_eq(moved, shift);
    tmpdir_path(path, sizeof path, name);
    cr_assert_eq(om_h5_writer_create(&w, path, &info), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_writer_put(w, 0, buf, RUN_TRIALS), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_writer_close(w), OM_OK, "%s", om_error_message());
    free(buf);
}

/* Compare files `a` and `b` of the temporary directory. */
static om_status compare(const char *a, const char *b, const om_compare_options *opt,
                         om_compare **out)
{
    char pa[512], pb[512];
    tmpdir_path(pa, sizeof pa, a);
    tmpdir_path(pb, sizeof pb, b);
    return om_compare_files(pa, pb, opt, out);
}

/* The row of key `key`, or a failed test. */
static const om_compare_row *row_of(const om_compare *c, const char *key)
{
    for (size_t i = 0; i < c->n_rows; i++)
        if (strcmp(c->rows[i].key, key) == 0)
            return &c->rows[i];
    cr_assert_fail("no row %s", key);
    return NULL;
}

/* How many trials of the base run A won. */
static uint64_t base_wins_a(void)
{
    uint64_t n = 0;
    for (uint64_t t = 0; t < RUN_TRIALS; t++)
        n += base_winner(t) == OM_WINNER_A;
    return n;
}

Test(runs, identical_files_differ_by_zero_with_zero_width)
{
    om_compare *c = NULL;
    write_run("a.h5", 7, 0);
    write_run("b.h5", 7, 0);
    cr_assert_eq(compare("a.h5", "b.h5", NULL, &c), OM_OK, "%s", om_error_message());
    cr_expect_eq(c->kind, OM_COMPARE_RUNS);
    cr_expect(c->paired, "%s", c->pairing);
    cr_assert_gt(c->n_rows, 0);
    for (size_t i = 0; i < c->n_rows; i++) {
        const om_compare_row *r = &c->rows[i];
        cr_expect_eq(r->method, OM_COMPARE_PAIRED, "%s", r->key);
        cr_expect(r->diff == 0.0 && r->lo == 0.0 && r->hi == 0.0, "%s: %g [%g, %g]", r->key,
                  r->diff, r->lo, r->hi);
        cr_expect(r->only_a == 0 && r->only_b == 0, "%s", r->key);
    }
    cr_expect_str_eq(c->differences, "");
    om_compare_free(c);
}

Test(runs, a_known_shift_is_found_exactly)
{
    const uint64_t k = 500, n = RUN_TRIALS, wins = base_wins_a();
    om_compare *c = NULL;
    write_run("a.h5", 7, 0);
    write_run("b.h5", 7, k);
    cr_assert_eq(compare("a.h5", "b.h5", NULL, &c), OM_OK, "%s", om_error_message());
    cr_assert(c->paired, "%s", c->pairing);
    const om_compare_row *ra = row_of(c, "winner/a"), *rb = row_of(c, "winner/b");
    const om_compare_row *rd = row_of(c, "winner/draw");
    const double d = (double)k / (double)n;
    const double half = Z95 * sqrt(((double)k - (double)n * d * d) / (double)(n - 1) / (double)n);
    cr_expect_float_eq(ra->a, (double)wins / (double)n, 1e-15);
    cr_expect_float_eq(ra->b, (double)(wins - k) / (double)n, 1e-15);
    cr_expect_float_eq(ra->diff, -d, 1e-15);
    cr_expect_eq(ra->only_a, k);
    cr_expect_eq(ra->only_b, 0);
    cr_expect_float_eq(ra->lo, -d - half, 1e-12);
    cr_expect_float_eq(ra->hi, -d + half, 1e-12);
    cr_expect_float_eq(rb->diff, d, 1e-15);
    cr_expect_eq(rb->only_b, k);
    cr_expect_float_eq(rb->lo, d - half, 1e-12);
    /* The draws did not move: a difference of 0, and no width. */
    cr_expect(rd->diff == 0.0 && rd->lo == 0.0 && rd->hi == 0.0);
    /* Paired, the interval is much narrower than the independent one. */
    om_compare *ind = NULL;
    om_compare_options opt = {.independent = true};
    cr_assert_eq(compare("a.h5", "b.h5", &opt, &ind), OM_OK, "%s", om_error_message());
    cr_expect(!ind->paired);
    const om_compare_row *ia = row_of(ind, "winner/a");
    cr_expect_eq(ia->method, OM_COMPARE_INDEPENDENT);
    cr_expect_lt(ra->hi - ra->lo, (ia->hi - ia->lo) / 3, "paired %g, independent %g",
                 ra->hi - ra->lo, ia->hi - ia->lo);
    om_compare_free(ind);
    om_compare_free(c);
}

Test(runs, other_seeds_are_independent)
{
    om_compare *c = NULL;
    double lo, hi;
    write_run("a.h5", 7, 0);
    write_run("b.h5", 8, 300);
    cr_assert_eq(compare("a.h5", "b.h5", NULL, &c), OM_OK, "%s", om_error_message());
    cr_expect(!c->paired);
    cr_expect(strstr(c->pairing, "the seeds differ") != NULL, "%s", c->pairing);
    cr_expect(strstr(c->differences, "seed: 7 -> 8") != NULL, "%s", c->differences);
    const om_compare_row *r = row_of(c, "winner/a");
    const uint64_t wins = base_wins_a();
    cr_assert_eq(om_compare_newcombe(wins, RUN_TRIALS, wins - 300, RUN_TRIALS, 0.95, &lo, &hi),
                 OM_OK);
    cr_expect_eq(r->method, OM_COMPARE_INDEPENDENT);
    cr_expect(r->lo == lo && r->hi == hi);
    om_compare_free(c);
}

Test(runs, files_that_do_not_compare_are_refused)
{
    char path[512];
    om_compare *c = NULL;
    FILE *f;
    write_run("a.h5", 7, 0);
    /* Not HDF5 at all. */
    tmpdir_path(path, sizeof path, "text.h5");
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("not a result file\n", f);
    fclose(f);
    om_status st = compare("a.h5", "text.h5", NULL, &c);
    cr_expect(st == OM_EIO || st == OM_EHDF5, "%s", om_status_name(st));
    cr_expect_null(c);
    /* A missing file. */
    cr_expect_eq(compare("a.h5", "missing.h5", NULL, &c), OM_EIO);
    /* A bad confidence. */
    om_compare_options opt = {.confidence = 1.5};
    cr_expect_eq(compare("a.h5", "a.h5", &opt, &c), OM_EINVAL);
}

/* --------------------------------------------------------------- matrices */

#define MS 1
#define MR 3
#define MC 3
#define CELL_TRIALS 4000u

static const om_matrix_situation msits[MS] = {
    {"a-charges", "a: {charging: true}\n", "A charges B in the open"},
};
/* Three units a side whose strength rises with their cost, so that the
 * fair-points model has a price curve for each side. */
static const om_matrix_unit mrows[MR] = {
    {"Halberdiers", "empire/halberdiers", 45, "Empire", "infantry", OM_MATRIX_SHOOTS_NO},
    {"Handgunners", "empire/handgunners", 65, "Empire", "infantry", OM_MATRIX_SHOOTS_NO},
    {"Knights", "empire/knights", 110, "Empire", "cavalry", OM_MATRIX_SHOOTS_NO},
};
static const om_matrix_unit mcols[MC] = {
    {"Goblins", "orcs/goblins", 30, "Orcs", "infantry", OM_MATRIX_SHOOTS_NO},
    {"Orc Warriors", "orcs/orc-warriors", 60, "Orcs", "infantry", OM_MATRIX_SHOOTS_NO},
    {"Boar Riders", "orcs/boar-riders", 110, "Orcs", "cavalry", OM_MATRIX_SHOOTS_NO},
};

/* The winner of trial t of cell k (row r, column c) in the base matrix: the
 * row unit wins with chance 0.45 + 0.15 (r - c), a draw with chance 0.1. */
static uint8_t cell_winner(size_t k, uint64_t t)
{
    const uint64_t h = mix(k * 1000003u + t) % 100;
    const uint64_t row = 45 + 15 * (k / MC % MR) - 15 * (k % MC);
    return h < row ? OM_WINNER_A : h < row + 10 ? OM_WINNER_DRAW : OM_WINNER_B;
}

/* Write a matrix at `name`: the base matrix, but for the first `shift`
 * trials of cell (0, 0, 0) the row unit won, which go to the column unit;
 * `cols` (NULL: mcols) its columns, `game` its game attribute. */
static void write_matrix(const char *name, uint64_t shift, const om_matrix_unit *cols,
                         const char *game, const char *options)
{
    char path[512];
    om_h5m_writer *w = NULL;
    uint8_t codes[CELL_TRIALS];
    om_matrix_info info = {
        .program_version = "0.1.0-test", .command_line = "test_compare",
        .ruleset = "warmaster-revolution", .data_version = "test", .row_list = "empire",
        .col_list = "orcs", .rng_scheme = "pcg64-dxsm; trial t seeded by SplitMix64(seed, t)",
        .game = game, .kind = "engagement", .options = options, .seed = 7,
        .trials_per_cell = CELL_TRIALS, .outcome_trials = CELL_TRIALS, .n_situations = MS,
        .n_rows = MR, .n_cols = MC, .situations = msits, .rows = mrows,
        .cols = cols != NULL ? cols : mcols};
    tmpdir_path(path, sizeof path, name);
    cr_assert_eq(om_h5m_writer_create(&w, path, &info), OM_OK, "%s", om_error_message());
    for (size_t k = 0; k < MS * MR * MC; k++) {
        om_matrix_cell cell = {.trials = CELL_TRIALS};
        uint64_t moved = 0;
        for (uint64_t t = 0; t < CELL_TRIALS; t++) {
            codes[t] = cell_winner(k, t);
            if (k == 0 && codes[t] == OM_WINNER_A && moved < shift) {
                codes[t] = OM_WINNER_B;
                moved++;
            }
            cell.wins_row += codes[t] == OM_WINNER_A;
            cell.draws += codes[t] == OM_WINNER_DRAW;
            cell.wins_col += codes[t] == OM_WINNER_B;
        }
        cell.points_lost_row_sum = 20.0 * (double)cell.wins_col;
        cell.points_lost_col_sum = 20.0 * (double)cell.wins_row;
        const size_t s = k / (MR * MC), r = k / MC % MR, c = k % MC;
        cr_assert_eq(om_h5m_writer_put_cell(w, s, r, c, &cell), OM_OK, "%s",
                     om_error_message());
        cr_assert_eq(om_h5m_writer_put_outcomes(w, s, r, c, codes, CELL_TRIALS), OM_OK, "%s",
                     om_error_message());
    }
    cr_assert_eq(om_h5m_writer_close(w), OM_OK, "%s", om_error_message());
}

Test(matrices, identical_files_differ_by_zero_with_zero_width)
{
    om_compare *c = NULL;
    write_matrix("a.h5", 0, NULL, "warmaster", "");
    write_matrix("b.h5", 0, NULL, "warmaster", "");
    cr_assert_eq(compare("a.h5", "b.h5", NULL, &c), OM_OK, "%s", om_error_message());
    cr_expect_eq(c->kind, OM_COMPARE_MATRICES);
    cr_expect(c->paired, "%s", c->pairing);
    cr_assert_eq(c->n_rows, MS * MR * MC + MR + MC);
    for (size_t i = 0; i < c->n_rows; i++) {
        const om_compare_row *r = &c->rows[i];
        cr_expect(r->diff == 0.0 && r->lo == 0.0 && r->hi == 0.0, "%s: %g [%g, %g] (%s)",
                  r->key, r->diff, r->lo, r->hi, r->note ? r->note : "");
    }
    cr_expect_eq(row_of(c, "fair/row/empire/knights")->method, OM_COMPARE_PAIRED_BOOTSTRAP);
    om_compare_free(c);
}

Test(matrices, a_known_shift_is_found_exactly)
{
    const uint64_t k = 200, n = CELL_TRIALS;
    om_compare *c = NULL;
    write_matrix("a.h5", 0, NULL, "warmaster", "");
    write_matrix("b.h5", k, NULL, "warmaster", "max_turns=1");
    cr_assert_eq(compare("a.h5", "b.h5", NULL, &c), OM_OK, "%s", om_error_message());
    cr_assert(c->paired, "%s", c->pairing);
    cr_expect(strstr(c->differences, "options: (none) -> max_turns=1") != NULL, "%s",
              c->differences);
    const om_compare_row *r = row_of(c, "a-charges/empire/halberdiers/orcs/goblins");
    const double d = (double)k / (double)n;
    const double half = Z95 * sqrt(((double)k - (double)n * d * d) / (double)(n - 1) / (double)n);
    cr_expect_float_eq(r->diff, -d, 1e-15);
    cr_expect_eq(r->only_a, k);
    cr_expect_eq(r->only_b, 0);
    cr_expect_float_eq(r->lo, -d - half, 1e-12);
    cr_expect_float_eq(r->hi, -d + half, 1e-12);
    /* The other cells did not move. */
    const om_compare_row *o = row_of(c, "a-charges/empire/knights/orcs/boar-riders");
    cr_expect(o->diff == 0.0 && o->lo == 0.0 && o->hi == 0.0);
    /* Halberdiers lost ground against the Goblins: their fair points fall,
     * and the paired bootstrap's interval excludes 0. */
    const om_compare_row *f = row_of(c, "fair/row/empire/halberdiers");
    cr_expect_lt(f->diff, 0.0);
    cr_expect(f->lo <= f->diff && f->diff <= f->hi && f->hi < 0.0, "%g [%g, %g]", f->diff,
              f->lo, f->hi);
    om_compare_free(c);
}

Test(matrices, other_units_games_or_a_run_are_refused)
{
    static const om_matrix_unit other[MC] = {
        {"Goblins", "orcs/goblins", 30, "Orcs", "infantry", OM_MATRIX_SHOOTS_NO},
        {"Trolls", "orcs/trolls", 110, "Orcs", "monster", OM_MATRIX_SHOOTS_NO},
        {"Boar Riders", "orcs/boar-riders", 110, "Orcs", "cavalry", OM_MATRIX_SHOOTS_NO},
    };
    om_compare *c = NULL;
    write_matrix("a.h5", 0, NULL, "warmaster", "");
    write_matrix("u.h5", 0, other, "warmaster", "");
    write_matrix("g.h5", 0, NULL, "whfb7", "");
    write_run("r.h5", 7, 0);
    cr_expect_eq(compare("a.h5", "u.h5", NULL, &c), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "column unit 1") != NULL, "%s", om_error_message());
    cr_expect_eq(compare("a.h5", "g.h5", NULL, &c), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "one game") != NULL, "%s", om_error_message());
    cr_expect_eq(compare("a.h5", "r.h5", NULL, &c), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "two runs or two matrices") != NULL, "%s",
              om_error_message());
    cr_expect_null(c);
}

Test(matrices, winners_that_do_not_count_the_cell_are_refused)
{
    char path[512];
    om_h5m_writer *w = NULL;
    uint8_t codes[8] = {OM_WINNER_A, OM_WINNER_A, OM_WINNER_B, OM_WINNER_B,
                        OM_WINNER_DRAW, OM_WINNER_NONE, OM_WINNER_A, OM_WINNER_B};
    om_matrix_info info = {
        .program_version = "0.1.0-test", .command_line = "test_compare",
        .ruleset = "warmaster-revolution", .data_version = "test", .row_list = "empire",
        .col_list = "orcs", .rng_scheme = "test", .seed = 7, .trials_per_cell = 8,
        .outcome_trials = 8, .n_situations = 1, .n_rows = 1, .n_cols = 1,
        .situations = msits, .rows = mrows, .cols = mcols};
    om_matrix_cell cell = {.trials = 8, .wins_row = 2, .draws = 1, .wins_col = 3};
    tmpdir_path(path, sizeof path, "bad.h5");
    cr_assert_eq(om_h5m_writer_create(&w, path, &info), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5m_writer_put_cell(w, 0, 0, 0, &cell), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5m_writer_put_outcomes(w, 0, 0, 0, codes, 8), OM_OK, "%s",
                 om_error_message());
    cr_expect_eq(om_h5m_writer_close(w), OM_EINVAL, "3 row wins put, the cell says 2");
    cr_expect(access(path, F_OK) != 0, "no file is left");
}
