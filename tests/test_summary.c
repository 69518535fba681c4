/*
 * test_summary.c: Criterion tests of analysis/ (Wilson intervals, histogram
 * moments, the summary of a result file and its text, JSON and CSV forms).
 *
 * Wilson intervals are checked against the formula evaluated here independently
 * (with z typed in, not computed by GSL) and against published values. Summaries
 * are computed from synthetic files whose counts are known exactly, with more
 * trials than one read chunk so the streaming is exercised. Files live in a
 * mkdtemp directory removed after each test.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <hdf5.h>
#include <jansson.h>

#include "h5file.h"
#include "stats.h"
#include "summary.h"
#include "test_layout.h"
#include "tmpdir.h"

/* Agreement expected between two evaluations of the same closed formula. */
#define FORMULA_TOL 1e-12

/* Half a unit in the last place of a value published to 4 decimals. */
#define PUBLISHED_4DP_TOL 5e-5

/* Phi^-1(0.975), to 16 digits (any normal table; R qnorm(0.975)). */
#define Z_975 1.959963984540054

/* ---------------------------------------------------------------- fixture */

/* The layout of a run of `kind` ("combat", "volley"), loaded once per test. */
static const om_layout *layout_of(const char *kind)
{
    static om_layout layouts[2];
    int k = strcmp(kind, "volley") == 0;
    if (layouts[k].field_count == 0)
        test_layout_of_kind(kind, &layouts[k]);
    return &layouts[k];
}

/* Count and flag fields (not winner-coded ones) that a run of `kind` has: the
 * summary reports each of them. */
static size_t fields_of_kind(const char *kind)
{
    const om_layout *l = layout_of(kind);
    size_t n = 0;
    for (size_t i = 0; i < l->field_count; i++)
        n += l->fields[i].type != OM_FIELD_WINNER;
    return n;
}

/* Set field `name` of a row of layout l (the field must exist). */
static void set_field(const om_layout *l, uint8_t *row, const char *name, uint8_t v)
{
    int i = om_layout_find(l, name);
    cr_assert_geq(i, 0, "no field %s", name);
    row[l->fields[i].offset] = v;
}

static void dir_setup(void) { tmpdir_create("om_test_summary"); }

TestSuite(wilson);
TestSuite(moments);
TestSuite(summary, .init = dir_setup, .fini = tmpdir_remove);

/* ----------------------------------------------------------------- wilson */

/* The Wilson interval evaluated directly from its definition, for comparison. */
static void wilson_reference(double k, double n, double z, double *lo, double *hi)
{
    double p = k / n;
    double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
    double half = z / (1 + z * z / n) * sqrt(p * (1 - p) / n + z * z / (4 * n * n));
    *lo = centre - half;
    *hi = centre + half;
}

Test(wilson, matches_the_formula)
{
    const uint64_t cases[][2] = {{93, 100}, {1, 2}, {1, 1000000}, {500000, 1000000}, {7, 9}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double lo, hi, rlo, rhi;
        cr_assert_eq(om_stats_wilson(cases[i][0], cases[i][1], 0.95, &lo, &hi), OM_OK);
        wilson_reference((double)cases[i][0], (double)cases[i][1], Z_975, &rlo, &rhi);
        cr_expect(fabs(lo - rlo) < FORMULA_TOL && fabs(hi - rhi) < FORMULA_TOL,
                  "%llu/%llu: [%.15f, %.15f], reference [%.15f, %.15f]",
                  (unsigned long long)cases[i][0], (unsigned long long)cases[i][1], lo, hi, rlo,
                  rhi);
    }
}

/*
 * Published 95% Wilson intervals: 0/10 = [0, 0.2775] and 10/10 = [0.7225, 1]
 * (at k = 0 the upper bound is z^2 / (n + z^2) = 3.8415 / 13.8415 = 0.27753), and
 * 93/100 = [0.8625, 0.9657] computed by hand (centre 0.914093, half 0.051588).
 */
Test(wilson, published_values)
{
    double lo, hi;
    cr_assert_eq(om_stats_wilson(0, 10, 0.95, &lo, &hi), OM_OK);
    cr_expect_eq(lo, 0.0, "0/10: lo exactly 0, got %.17g", lo);
    cr_expect(fabs(hi - 0.2775) < PUBLISHED_4DP_TOL, "0/10: hi %.6f", hi);

    cr_assert_eq(om_stats_wilson(10, 10, 0.95, &lo, &hi), OM_OK);
    cr_expect(fabs(lo - 0.7225) < PUBLISHED_4DP_TOL, "10/10: lo %.6f", lo);
    cr_expect_eq(hi, 1.0, "10/10: hi exactly 1, got %.17g", hi);

    cr_assert_eq(om_stats_wilson(93, 100, 0.95, &lo, &hi), OM_OK);
    cr_expect(fabs(lo - 0.8625) < PUBLISHED_4DP_TOL && fabs(hi - 0.9657) < PUBLISHED_4DP_TOL,
              "93/100: [%.6f, %.6f]", lo, hi);
}

Test(wilson, edges_and_confidence)
{
    double lo = -1, hi = -1, lo99, hi99;
    cr_assert_eq(om_stats_wilson(0, 0, 0.95, &lo, &hi), OM_OK);
    cr_expect(lo == 0.0 && hi == 1.0, "n = 0: [%g, %g]", lo, hi);
    /* k = 0 and k = n at a huge n: still exactly 0 and 1. */
    cr_assert_eq(om_stats_wilson(0, UINT64_C(10000000000), 0.95, &lo, &hi), OM_OK);
    cr_expect(lo == 0.0 && hi > 0.0 && hi < 1e-9, "[%g, %g]", lo, hi);
    cr_assert_eq(om_stats_wilson(UINT64_C(10000000000), UINT64_C(10000000000), 0.95, &lo, &hi),
                 OM_OK);
    cr_expect(hi == 1.0 && lo < 1.0 && lo > 1.0 - 1e-9, "[%.17g, %g]", lo, hi);
    /* Higher confidence, wider interval. */
    cr_assert_eq(om_stats_wilson(30, 100, 0.95, &lo, &hi), OM_OK);
    cr_assert_eq(om_stats_wilson(30, 100, 0.99, &lo99, &hi99), OM_OK);
    cr_expect(lo99 < lo && hi99 > hi);
}

Test(wilson, errors)
{
    double lo = 0.5, hi = 0.5;
    cr_expect_eq(om_stats_wilson(11, 10, 0.95, &lo, &hi), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "11") != NULL, "%s", om_error_message());
    cr_expect_eq(om_stats_wilson(1, 10, 0.0, &lo, &hi), OM_EINVAL);
    cr_expect_eq(om_stats_wilson(1, 10, 1.0, &lo, &hi), OM_EINVAL);
    cr_expect_eq(om_stats_wilson(1, 10, NAN, &lo, &hi), OM_EINVAL);
    cr_expect_eq(om_stats_wilson(1, 10, 0.95, NULL, &hi), OM_EINVAL);
    cr_expect(lo == 0.5 && hi == 0.5, "outputs untouched on error");
}

/* ---------------------------------------------------------------- moments */

Test(moments, known_histogram)
{
    uint64_t hist[OM_STATS_HIST_BINS] = {0};
    const uint8_t values[] = {0, 0, 1, 5, 255};
    double mean, sd;
    om_stats_hist_add(hist, values, 4);
    cr_expect_eq(om_stats_hist_total(hist), 4);
    cr_assert_eq(om_stats_hist_moments(hist, &mean, &sd), OM_OK);
    /* {0, 0, 1, 5}: mean 6/4; squared deviations 2.25 + 2.25 + 0.25 + 12.25 = 17. */
    cr_expect(fabs(mean - 1.5) < FORMULA_TOL, "mean %g", mean);
    cr_expect(fabs(sd - sqrt(17.0 / 4.0)) < FORMULA_TOL, "sd %g", sd);
    /* The top bin counts too. */
    om_stats_hist_add(hist, values + 4, 1);
    cr_expect_eq(hist[255], 1);
    cr_assert_eq(om_stats_hist_moments(hist, &mean, &sd), OM_OK);
    cr_expect(fabs(mean - 261.0 / 5.0) < FORMULA_TOL, "mean %g", mean);
}

Test(moments, empty_histogram)
{
    uint64_t hist[OM_STATS_HIST_BINS] = {0};
    double mean = 7, sd = 7;
    cr_expect_eq(om_stats_hist_moments(hist, &mean, &sd), OM_EINVAL);
    cr_expect(mean == 7 && sd == 7);
}

/* ---------------------------------------------------------------- summary */

/*
 * The synthetic run: 140000 trials (more than two read chunks), row i has
 *   winner       a for i % 10 in 0..4, b for 5..7, draw for 8..9 (50/30/20 %)
 *   hits_on_b    i % 4 (0..3, 25 % each: mean 1.5, sd sqrt(1.25))
 *   destroyed_b  1 when i % 8 == 0 (12.5 %)
 *   stands_lost_b  3 (destroyed) when i % 8 == 0, 2 when i % 8 == 1, else 0
 *   every other field 0.
 * 140000 is a multiple of 40, so every proportion is exact.
 */
#define SYN_TRIALS 140000u

static uint8_t syn_winner(uint64_t i)
{
    unsigned m = (unsigned)(i % 10);
    return m < 5 ? OM_WINNER_A : m < 8 ? OM_WINNER_B : OM_WINNER_DRAW;
}

static void write_synthetic(const char *path, const char *kind, uint64_t seed,
                            uint8_t bad_winner)
{
    const om_layout *l = layout_of(kind);
    const bool volley = strcmp(kind, "volley") == 0;
    om_run_info info = {
        .program_version = "0.1.0-test",
        .command_line = "test_summary",
        .scenario_name = "synthetic",
        .scenario_text = "",
        .title = "Knights charge spearmen",
        .ruleset = "warmaster-revolution",
        .game = "warmaster",
        .kind = kind,
        .options_json = "{}",
        .rng_scheme = "synthetic",
        .seed = seed,
        .trials = SYN_TRIALS,
        .block_size = 10000,
        .threads = 1,
        .layout = l,
    };
    const size_t block = 10000;
    uint8_t *o = calloc(block, l->row_size);
    om_h5_writer *w = NULL;
    cr_assert_not_null(o);
    cr_assert_eq(om_h5_writer_create(&w, path, &info), OM_OK, "%s", om_error_message());
    for (uint64_t first = 0; first < SYN_TRIALS; first += block) {
        for (size_t j = 0; j < block; j++) {
            uint64_t i = first + j;
            uint8_t *row = o + j * l->row_size;
            if (!volley)
                set_field(l, row, "winner", syn_winner(i));
            set_field(l, row, "hits_on_b", (uint8_t)(i % 4));
            set_field(l, row, "destroyed_b", i % 8 == 0);
            set_field(l, row, "stands_lost_b", i % 8 == 0 ? 3 : i % 8 == 1 ? 2 : 0);
        }
        if (first == 0 && bad_winner != 0)
            set_field(l, o + 17 * l->row_size, "winner", bad_winner);
        cr_assert_eq(om_h5_writer_put(w, first, o, block), OM_OK, "%s", om_error_message());
    }
    cr_assert_eq(om_h5_writer_close(w), OM_OK, "%s", om_error_message());
    free(o);
}

/* Open `path` and summarise it at 95 %. */
static om_summary *summarise(const char *path)
{
    om_h5_reader *r = NULL;
    om_summary *s = NULL;
    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_summary_compute(r, OM_SUMMARY_CONFIDENCE, &s), OM_OK, "%s",
                 om_error_message());
    om_h5_reader_close(r);
    return s;
}

static const om_summary_field *find_field(const om_summary *s, const char *name)
{
    for (size_t i = 0; i < s->field_count; i++)
        if (strcmp(s->fields[i].field->name, name) == 0)
            return &s->fields[i];
    cr_assert_fail("field %s not in the summary", name);
    return NULL;
}

/* p is exact; lo, hi is the Wilson interval of count / trials. */
static void expect_prob(const om_summary_prob *p, double want, const char *what)
{
    double lo, hi;
    cr_expect_eq(p->p, want, "%s: p = %.17g, want %g", what, p->p, want);
    cr_expect_eq(p->count, (uint64_t)llround(want * SYN_TRIALS), "%s: count", what);
    cr_assert_eq(om_stats_wilson(p->count, SYN_TRIALS, 0.95, &lo, &hi), OM_OK);
    cr_expect(p->lo == lo && p->hi == hi, "%s: interval [%g, %g]", what, p->lo, p->hi);
    cr_expect(want == 0.0 ? p->lo == 0.0 : p->lo < want, "%s: lo %g", what, p->lo);
    cr_expect(p->hi > want || want == 1.0, "%s: hi %g", what, p->hi);
}


Test(summary, exact_values_of_a_synthetic_run)
{
    char path[512];
    om_summary *s;
    const om_summary_field *hits, *destroyed, *lost;
    write_synthetic(tmpdir_path(path, sizeof path, "syn.h5"), "combat", 42, 0);
    s = summarise(path);

    cr_expect_str_eq(s->file, path);
    cr_expect_str_eq(s->title, "Knights charge spearmen");
    cr_expect_str_eq(s->ruleset, "warmaster-revolution");
    cr_expect_str_eq(s->kind, "combat");
    cr_expect_str_eq(s->unit[0], "Knights");
    cr_expect_str_eq(s->unit[1], "Spearmen");
    cr_expect(s->points[0] == 110 && s->points[1] == 45);
    cr_expect(s->has_seed && s->seed == 42);
    cr_expect_eq(s->trials, SYN_TRIALS);
    cr_expect_eq(s->confidence, 0.95);

    cr_assert(s->has_outcome);
    expect_prob(&s->outcome[0][OM_SUMMARY_WIN], 0.5, "A wins");
    expect_prob(&s->outcome[0][OM_SUMMARY_DRAW], 0.2, "A draws");
    expect_prob(&s->outcome[0][OM_SUMMARY_LOSE], 0.3, "A loses");
    expect_prob(&s->outcome[1][OM_SUMMARY_WIN], 0.3, "B wins");
    expect_prob(&s->outcome[1][OM_SUMMARY_DRAW], 0.2, "B draws");
    expect_prob(&s->outcome[1][OM_SUMMARY_LOSE], 0.5, "B loses");

    hits = find_field(s, "hits_on_b");
    cr_expect_eq(hits->max, 3);
    cr_expect_eq(hits->mean, 1.5, "mean %.17g", hits->mean);
    cr_expect(fabs(hits->sd - sqrt(1.25)) < FORMULA_TOL, "sd %.17g", hits->sd);
    for (unsigned v = 0; v < 4; v++)
        cr_expect_eq(hits->hist[v], SYN_TRIALS / 4, "hist[%u]", v);
    expect_prob(&hits->at_least[1], 0.75, "hits >= 1");
    expect_prob(&hits->at_least[2], 0.5, "hits >= 2");
    expect_prob(&hits->at_least[3], 0.25, "hits >= 3");
    cr_expect(hits->at_least[0].p == 1.0 && hits->at_least[0].lo == 1.0
              && hits->at_least[0].hi == 1.0);

    destroyed = find_field(s, "destroyed_b");
    cr_expect_eq(destroyed->field->type, OM_FIELD_FLAG);
    expect_prob(&destroyed->at_least[1], 0.125, "destroyed_b");
    cr_expect_eq(destroyed->mean, 0.125);

    lost = find_field(s, "stands_lost_a");
    cr_expect(lost->max == 0 && lost->mean == 0.0 && lost->sd == 0.0);
    expect_prob(&lost->at_least[1], 0.0, "stands_lost_a >= 1");

    /* The winner is the outcome, not a field; volley-only fields are absent. */
    cr_expect_eq(s->field_count, fields_of_kind("combat"));
    om_summary_free(s);
}

Test(summary, volley_has_no_outcome)
{
    char path[512];
    om_summary *s;
    write_synthetic(tmpdir_path(path, sizeof path, "volley.h5"), "volley", 1, 0);
    s = summarise(path);
    cr_expect_not(s->has_outcome);
    cr_expect_str_eq(find_field(s, "drive_back_cm")->field->name, "drive_back_cm");
    cr_expect_eq(find_field(s, "hits_on_b")->mean, 1.5);
    om_summary_free(s);
}

Test(summary, invalid_winner_and_confidence)
{
    char path[512];
    om_h5_reader *r = NULL;
    om_summary *s = NULL;
    write_synthetic(tmpdir_path(path, sizeof path, "bad.h5"), "combat", 1, 9);
    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    cr_expect_eq(om_summary_compute(r, 0.95, &s), OM_EHDF5);
    cr_expect_null(s);
    cr_expect(strstr(om_error_message(), "bad.h5") != NULL
                  && strstr(om_error_message(), "winner") != NULL,
              "%s", om_error_message());
    cr_expect_eq(om_summary_compute(r, 1.5, &s), OM_EINVAL);
    cr_expect_eq(om_summary_compute(r, 0.0, &s), OM_EINVAL);
    om_h5_reader_close(r);
    om_summary_free(NULL);
}

/* The output of `print` for `s` as a NUL-terminated string (caller frees). */
static char *capture(om_status (*print)(const om_summary *, FILE *), const om_summary *s)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    cr_assert_not_null(f);
    cr_assert_eq(print(s, f), OM_OK, "%s", om_error_message());
    fclose(f);
    return text;
}

static double json_num(json_t *root, const char *a, const char *b, const char *c,
                        const char *d)
{
    json_t *v = json_object_get(root, a);
    if (b != NULL)
        v = json_object_get(v, b);
    if (c != NULL)
        v = json_object_get(v, c);
    if (d != NULL)
        v = json_object_get(v, d);
    cr_assert(json_is_number(v), "%s.%s.%s.%s is not a number", a, b ? b : "", c ? c : "",
              d ? d : "");
    return json_number_value(v);
}

Test(summary, json_parses_with_documented_keys)
{
    static const char *const keys[] = {"schema", "file", "title", "ruleset", "kind", "trials",
                                       "seed", "program_version", "units", "outcome",
                                       "round1_outcome", "points_lost", "fields", "confidence", "run",
                                       "exact", "per_unit", "margin", "decided_by",
                                       "unit_points", "not_modelled"};
    char path[512], *text;
    om_summary *s;
    json_error_t err;
    json_t *root, *hits, *seed;
    const char *key;
    size_t i = 0;
    json_t *value;

    write_synthetic(tmpdir_path(path, sizeof path, "j.h5"), "combat",
                    UINT64_C(0xFFFFFFFFFFFFFFFF), 0);
    s = summarise(path);
    text = capture(om_summary_print_json, s);
    root = json_loads(text, 0, &err);
    cr_assert_not_null(root, "JSON does not parse: %s (line %d): %.200s", err.text, err.line,
                       text);

    /* Exactly the documented keys, in the documented order. */
    cr_expect_eq(json_object_size(root), sizeof keys / sizeof keys[0]);
    json_object_foreach(root, key, value)
    {
        (void)value;
        cr_expect_str_eq(key, keys[i], "key %zu", i);
        i++;
    }
    cr_expect_str_eq(json_string_value(json_object_get(root, "schema")), OM_SUMMARY_SCHEMA);
    cr_expect_str_eq(json_string_value(json_object_get(root, "file")), path);
    cr_expect_str_eq(json_string_value(json_object_get(root, "kind")), "combat");
    cr_expect(json_is_integer(json_object_get(root, "trials")));
    cr_expect_eq(json_integer_value(json_object_get(root, "trials")), SYN_TRIALS);
    /* A seed above 2^63-1 is a decimal string. */
    seed = json_object_get(root, "seed");
    cr_expect(json_is_string(seed) && strcmp(json_string_value(seed), "18446744073709551615") == 0);
    cr_expect_str_eq(
        json_string_value(json_object_get(json_object_get(json_object_get(root, "units"), "a"),
                                          "name")),
        "Knights");
    cr_expect_eq(json_num(root, "units", "b", "points", NULL), 45);
    cr_expect_eq(json_num(root, "outcome", "a", "win", "p"), 0.5);
    cr_expect_eq(json_num(root, "outcome", "b", "lose", "p"), 0.5);
    cr_expect_eq(json_num(root, "outcome", "a", "draw", "p"), 0.2);
    cr_expect(json_num(root, "outcome", "a", "win", "lo") < 0.5
              && json_num(root, "outcome", "a", "win", "hi") > 0.5);
    cr_expect_eq(json_num(root, "confidence", NULL, NULL, NULL), 0.95);

    hits = json_object_get(json_object_get(root, "fields"), "hits_on_b");
    cr_assert(json_is_object(hits));
    cr_expect_str_eq(json_string_value(json_object_get(hits, "type")), "count");
    cr_expect(json_is_string(json_object_get(hits, "description")));
    cr_expect_eq(json_num(hits, "mean", NULL, NULL, NULL), 1.5);
    cr_expect_eq(json_num(hits, "distribution", "0", NULL, NULL), 0.25);
    cr_expect_eq(json_object_size(json_object_get(hits, "distribution")), 4);
    cr_expect_eq(json_num(hits, "at_least", "3", "p", NULL), 0.25);
    cr_expect_null(json_object_get(json_object_get(hits, "at_least"), "0"));
    cr_expect_null(json_object_get(json_object_get(hits, "at_least"), "4"));
    /* A field that is always 0: distribution {"0": 1}, no "at least". */
    cr_expect_eq(json_num(root, "fields", "stands_lost_a", "distribution", "0"), 1.0);
    cr_expect_eq(json_object_size(json_object_get(
                     json_object_get(json_object_get(root, "fields"), "stands_lost_a"),
                     "at_least")),
                 0);
    /* A flag carries its probability. */
    cr_expect_str_eq(json_string_value(json_object_get(
                         json_object_get(json_object_get(root, "fields"), "destroyed_b"),
                         "type")),
                     "flag");
    cr_expect_eq(json_num(root, "fields", "destroyed_b", "p", NULL), 0.125);
    cr_expect_null(json_object_get(json_object_get(root, "fields"), "winner"));
    /* A file without an exact law: "exact" is null throughout. */
    cr_expect(json_is_null(json_object_get(root, "exact")));
    {
        json_t *fields = json_object_get(root, "fields");
        json_t *a = json_object_get(json_object_get(root, "outcome"), "a");
        cr_expect(json_is_null(json_object_get(json_object_get(fields, "destroyed_b"), "exact")));
        cr_expect(json_is_null(json_object_get(json_object_get(a, "win"), "exact")));
    }

    json_decref(root);
    free(text);
    om_summary_free(s);
}

Test(summary, json_seed_integer_and_null_outcome)
{
    char path[512], *text;
    om_summary *s;
    json_t *root;
    write_synthetic(tmpdir_path(path, sizeof path, "v.h5"), "volley",
                    UINT64_C(9223372036854775807), 0);
    s = summarise(path);
    text = capture(om_summary_print_json, s);
    root = json_loads(text, 0, NULL);
    cr_assert_not_null(root);
    cr_expect(json_is_integer(json_object_get(root, "seed")));
    cr_expect_eq(json_integer_value(json_object_get(root, "seed")), INT64_MAX);
    cr_expect(json_is_null(json_object_get(root, "outcome")));
    json_decref(root);
    free(text);
    om_summary_free(s);
}

Test(summary, csv_rows)
{
    char path[512], *text, *line, *save = NULL;
    om_summary *s;
    int rows = 0, header = 0, hits2 = 0, win_a = 0, zero_row = 0;
    write_synthetic(tmpdir_path(path, sizeof path, "c.h5"), "combat", 3, 0);
    s = summarise(path);
    text = capture(om_summary_print_csv, s);
    const char *head = "field,k,p_equal,p_at_least,lo,hi,exact_equal,exact_at_least\n";
    cr_expect_eq(strncmp(text, head, strlen(head)), 0, "%.60s", text);
    for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
        int commas = 0;
        for (const char *c = line; *c; c++)
            commas += *c == ',';
        cr_expect_eq(commas, 7, "row '%s'", line);
        rows++;
        header += strcmp(line, "field,k,p_equal,p_at_least,lo,hi,exact_equal,exact_at_least") ==
                  0;
        hits2 += strncmp(line, "hits_on_b,2,0.25,0.5,", 21) == 0;
        win_a += strncmp(line, "win_a,1,0.5,0.5,", 16) == 0;
        /* A file without an exact law leaves the exact columns empty. */
        zero_row += strcmp(line, "hits_on_b,0,0.25,1,1,1,,") == 0;
    }
    cr_expect_eq(header, 1);
    cr_expect_eq(hits2, 1);
    cr_expect_eq(win_a, 1);
    cr_expect_eq(zero_row, 1);
    /* 1 header + hits_on_b 0..3 + destroyed_b 0..1 + stands_lost_b 0..3 + one
     * row for each other (always 0) field of the kind + 6 outcome rows + the
     * "none" row. */
    cr_expect_eq(rows, (int)(1 + 4 + 2 + 4 + (fields_of_kind("combat") - 3) + 7),
                 "%d rows", rows);
    free(text);
    om_summary_free(s);
}

Test(summary, text_report)
{
    char path[512], *text;
    om_summary *s;
    const char *want[] = {"Knights charge spearmen", "warmaster-revolution", "140000",
                          "A = Knights (110 points)", "B = Spearmen (45 points)",
                          "P(win) [95% CI]", "P(draw) [95% CI]", "P(lose) [95% CI]",
                          "0.5000 [", "hits_on_b: Hits suffered", "mean 1.5000",
                          "P(>=k)", "destroyed_b", "0.1250 ["};
    write_synthetic(tmpdir_path(path, sizeof path, "t.h5"), "combat", 5, 0);
    s = summarise(path);
    text = capture(om_summary_print_text, s);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect(strstr(text, want[i]) != NULL, "no '%s' in:\n%s", want[i], text);
    free(text);
    om_summary_free(s);
}

/* Writing to a full device is an I/O error, not a silent truncation. */
Test(summary, write_error)
{
    char path[512];
    om_summary *s;
    FILE *full = fopen("/dev/full", "w");
    if (full == NULL)
        cr_skip_test("no /dev/full");
    write_synthetic(tmpdir_path(path, sizeof path, "w.h5"), "combat", 5, 0);
    s = summarise(path);
    cr_expect_eq(om_summary_print_text(s, full), OM_EIO);
    cr_expect_eq(om_summary_print_csv(s, full), OM_EIO);
    cr_expect_eq(om_summary_print_json(s, full), OM_EIO);
    fclose(full);
    om_summary_free(s);
}

/* Victory points lost, from the table the file records for each side (the
 * Spearmen, 45 points in 3 stands: 25 when reduced to 1 stand, 45 destroyed;
 * Warmaster Revolution, Victory Points) and the distribution of its field. */
Test(summary, victory_points_lost_from_the_recorded_table)
{
    char path[512], *text;
    om_summary *s;
    const om_summary_points *a, *b;
    write_synthetic(tmpdir_path(path, sizeof path, "vp.h5"), "combat", 1, 0);
    s = summarise(path);
    a = &s->lost[0];
    b = &s->lost[1];
    cr_assert(a->known && b->known);
    /* The Knights never lose a stand: every possible loss is listed, at 0. */
    cr_assert_eq(a->n_values, 3u);
    cr_expect(a->value[0] == 0 && a->value[1] == 55 && a->value[2] == 110);
    cr_expect(a->p[0] == 1.0 && a->p[1] == 0.0 && a->p[2] == 0.0 && a->mean == 0.0);
    cr_expect_str_eq(b->unit, "stands");
    cr_expect_eq(b->start, 3u);
    cr_expect_eq(b->points, 45u);
    cr_assert_eq(b->n_values, 3u);
    cr_expect(b->value[0] == 0 && b->value[1] == 25 && b->value[2] == 45);
    cr_expect(fabs(b->p[0] - 0.75) < FORMULA_TOL, "P(0) %.17g", b->p[0]);
    cr_expect(fabs(b->p[1] - 0.125) < FORMULA_TOL, "P(25) %.17g", b->p[1]);
    cr_expect(fabs(b->p[2] - 0.125) < FORMULA_TOL, "P(45) %.17g", b->p[2]);
    cr_expect(fabs(b->mean - (25 + 45) / 8.0) < FORMULA_TOL, "mean %.17g", b->mean);
    text = capture(om_summary_print_text, s);
    cr_expect(strstr(text, "B Spearmen (45 points, 3 stands): mean 8.75; P(0) 0.7500, "
                           "P(25) 0.1250, P(45) 0.1250") != NULL, "%s", text);
    free(text);
    om_summary_free(s);
}

/*
 * A two-byte count field (a whole turn's victory points): its summary from the
 * tallies and from the rows is the same, with the exact distribution of the
 * synthetic values (0, 55, 300 and 1210 points in 40%, 30%, 20%, 10% of the
 * trials), listed only at the values that occurred in text, JSON and CSV.
 */
Test(summary, two_byte_count_field)
{
    static const unsigned value[10] = {0, 0, 0, 0, 55, 55, 55, 300, 300, 1210};
    om_layout l = {.row_size = 3, .field_count = 2};
    om_run_info info = {
        .program_version = "0.1.0-test", .command_line = "test_summary",
        .scenario_name = "synthetic", .scenario_text = "", .title = "A turn",
        .ruleset = "warmaster-revolution", .game = "warmaster", .kind = "turn",
        .options_json = "{}", .rng_scheme = "synthetic", .seed = 7, .trials = SYN_TRIALS,
        .block_size = 10000, .threads = 1, .layout = &l,
    };
    uint8_t *rows = calloc(SYN_TRIALS, l.row_size);
    om_h5_writer *w = NULL;
    om_h5_reader *r = NULL;
    om_summary *s[2] = {NULL, NULL};
    char path[512], *text, *csv;
    json_t *root;

    l.fields[0] = (om_field){"vp_lost_a", "Victory points side A lost.", NULL, 0,
                             OM_FIELD_COUNT16, 0};
    l.fields[1] = (om_field){"a_long_flag_name_of_a_unit", "A flag.", NULL, 2, OM_FIELD_FLAG, 0};
    l.side[0].loss_field = l.side[1].loss_field = -1;
    for (size_t i = 0; i < SYN_TRIALS; i++) {
        rows[i * 3] = (uint8_t)(value[i % 10] & 0xff);
        rows[i * 3 + 1] = (uint8_t)(value[i % 10] >> 8);
        rows[i * 3 + 2] = i % 4 == 0;
    }
    cr_assert_eq(om_h5_writer_create(&w, tmpdir_path(path, sizeof path, "wide.h5"), &info),
                 OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_writer_put(w, 0, rows, SYN_TRIALS), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_writer_close(w), OM_OK, "%s", om_error_message());
    free(rows);
    for (int from_rows = 0; from_rows < 2; from_rows++) {
        const om_summary_field *vp;
        cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
        cr_assert_eq((from_rows ? om_summary_compute_rows : om_summary_compute)(
                         r, OM_SUMMARY_CONFIDENCE, &s[from_rows]),
                     OM_OK, "%s", om_error_message());
        om_h5_reader_close(r);
        vp = find_field(s[from_rows], "vp_lost_a");
        cr_assert_eq(vp->n_values, 4);
        cr_expect_eq(vp->max, 1210);
        cr_expect(fabs(vp->mean - (0.3 * 55 + 0.2 * 300 + 0.1 * 1210)) < FORMULA_TOL,
                  "mean %.17g", vp->mean);
        cr_expect_eq(vp->values[2].value, 300);
        expect_prob(&vp->values[2].at_least, 0.3, "vp >= 300");
        expect_prob(&vp->values[3].at_least, 0.1, "vp >= 1210");
        cr_expect_eq(vp->values[1].p_equal, 0.3);
    }
    text = capture(om_summary_print_text, s[0]);
    cr_expect(strstr(text, "   1210  0.1000    0.1000    [") != NULL, "%s", text);
    cr_expect(strstr(text, "\n      1  ") == NULL, "only the values that occurred: %s", text);
    cr_expect(strstr(text, "  a_long_flag_name_of_a_unit 0.2500 [") != NULL, "%s", text);
    csv = capture(om_summary_print_csv, s[0]);
    cr_expect(strstr(csv, "vp_lost_a,300,0.2,0.3,") != NULL, "%s", csv);
    cr_expect(strstr(csv, "vp_lost_a,1,") == NULL, "%s", csv);
    free(csv);
    free(text);
    text = capture(om_summary_print_json, s[0]);
    root = json_loads(text, 0, NULL);
    cr_assert_not_null(root, "%s", text);
    cr_expect_eq(json_object_size(json_object_get(
                     json_object_get(json_object_get(root, "fields"), "vp_lost_a"),
                     "at_least")),
                 3, "at least 55, 300 and 1210");
    cr_expect_eq(json_num(root, "fields", "vp_lost_a", "max", NULL), 1210);
    json_decref(root);
    free(text);
    om_summary_free(s[0]);
    om_summary_free(s[1]);
}

/*
 * The per-unit section of a file with per-unit results: two units, a flag
 * set in a quarter of the trials for unit "k" and never for "o", a count of
 * 0..3 cycling for "k" (mean 1.5) and always 2 for "o"; exact values from
 * the tallies and from the rows, in text, JSON and CSV, and through
 * om_summary_unit (what a chart of a unit field reads). A damaged tally of a
 * unit is told apart by --from-rows, naming the unit field, unit and value.
 */
Test(summary, per_unit_section)
{
    static const om_layout_unit units[2] = {
        {.id = "k", .name = "Knights", .army = "Empire", .side = 0, .points = 110},
        {.id = "o", .name = "Orc Warriors", .army = "Orcs", .side = 1, .points = 60}};
    om_layout l = {.row_size = 5, .field_count = 1};
    om_run_info info = {
        .program_version = "0.1.0-test", .command_line = "test_summary",
        .scenario_name = "synthetic", .scenario_text = "", .title = "A turn",
        .ruleset = "warmaster-revolution", .game = "warmaster", .kind = "turn",
        .options_json = "{}", .rng_scheme = "synthetic", .seed = 7, .trials = SYN_TRIALS,
        .block_size = 10000, .threads = 1, .layout = &l,
    };
    uint8_t *rows = calloc(SYN_TRIALS, l.row_size);
    om_h5_writer *w = NULL;
    om_h5_reader *r = NULL;
    om_summary *s[2] = {NULL, NULL};
    char path[512], *text, *csv;
    json_t *root;

    l.fields[0] = (om_field){"engagements", "Engagements.", NULL, 0, OM_FIELD_COUNT, 0};
    l.unit_count = 2;
    l.units = units;
    l.unit_field_count = 2;
    l.unit_fields[0] = (om_field){"charged", "1 if the unit charged.", NULL, 1, OM_FIELD_FLAG, 1};
    l.unit_fields[1] = (om_field){"stands_lost", "Stands the unit lost.", NULL, 3,
                                  OM_FIELD_COUNT, 4};
    l.unit_stride = 1;
    l.side[0].loss_field = l.side[1].loss_field = -1;
    for (size_t i = 0; i < SYN_TRIALS; i++) {
        uint8_t *row = rows + i * l.row_size;
        row[1] = i % 4 == 0; /* charged[k] */
        row[3] = (uint8_t)(i % 4); /* stands_lost[k] */
        row[4] = 2; /* stands_lost[o] */
    }
    cr_assert_eq(om_h5_writer_create(&w, tmpdir_path(path, sizeof path, "units.h5"), &info),
                 OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_writer_put(w, 0, rows, SYN_TRIALS), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_writer_close(w), OM_OK, "%s", om_error_message());
    free(rows);
    for (int from_rows = 0; from_rows < 2; from_rows++) {
        cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
        cr_assert_eq((from_rows ? om_summary_compute_rows : om_summary_compute)(
                         r, OM_SUMMARY_CONFIDENCE, &s[from_rows]),
                     OM_OK, "%s", om_error_message());
        om_h5_reader_close(r);
        const om_summary *x = s[from_rows];
        cr_assert_eq(x->unit_count, 2);
        cr_assert_eq(x->unit_field_count, 2);
        cr_expect_str_eq(x->units[1].name, "Orc Warriors");
        expect_prob(&om_summary_unit(x, "charged", 0)->p, 0.25, "charged[k]");
        expect_prob(&om_summary_unit(x, "charged", 1)->p, 0.0, "charged[o]");
        const om_summary_unit_stat *k = om_summary_unit(x, "stands_lost", 0);
        cr_expect(fabs(k->mean - 1.5) < FORMULA_TOL, "mean %.17g", k->mean);
        cr_expect(fabs(k->sd - sqrt(1.25)) < FORMULA_TOL, "sd %.17g", k->sd);
        cr_expect_eq(k->max, 3);
        expect_prob(&k->p, 0.75, "stands_lost[k] >= 1");
        cr_expect_eq(om_summary_unit(x, "stands_lost", 1)->mean, 2.0);
        cr_expect_null(om_summary_unit(x, "stands_lost", 2));
        cr_expect_null(om_summary_unit(x, "lost", 0));
    }
    text = capture(om_summary_print_text, s[0]);
    cr_expect(strstr(text, "Per unit: ") != NULL, "%s", text);
    cr_expect(strstr(text, "  k     Knights       A     0.2500 [") != NULL, "%s", text);
    cr_expect(strstr(text, "  k     Knights       A     1.5000  1.1180  0.7500 [") != NULL, "%s",
              text);
    csv = capture(om_summary_print_csv, s[0]);
    cr_expect(strstr(csv, "\ncharged[k],1,0.25,0.25,") != NULL, "%s", csv);
    cr_expect(strstr(csv, "\nstands_lost[o],2,1,1,") != NULL, "%s", csv);
    cr_expect(strstr(csv, "\nstands_lost[o],4,0,0,") != NULL, "up to the declared max: %s", csv);
    free(csv);
    free(text);
    text = capture(om_summary_print_json, s[1]);
    root = json_loads(text, 0, NULL);
    cr_assert_not_null(root, "%s", text);
    json_t *pu = json_object_get(root, "per_unit");
    cr_expect_str_eq(json_string_value(json_object_get(
                         json_array_get(json_object_get(pu, "units"), 1), "side")),
                     "b");
    json_t *sl = json_object_get(json_object_get(pu, "fields"), "stands_lost");
    cr_expect_eq(json_integer_value(json_object_get(sl, "max")), 4);
    cr_expect_eq(json_real_value(json_object_get(
                     json_object_get(json_object_get(json_object_get(sl, "units"), "k"),
                                     "distribution"), "3")),
                 0.25);
    cr_expect(fabs(json_real_value(json_object_get(json_object_get(
                  json_object_get(json_object_get(json_object_get(json_object_get(
                      pu, "fields"), "charged"), "units"), "k"), "p"), "p")) - 0.25) < 1e-12);
    json_decref(root);
    free(text);
    om_summary_free(s[0]);
    om_summary_free(s[1]);

    /* A tally of a unit changed (its checksum made again, as an edit would):
     * the rows tell it apart. */
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/tallies/units/stands_lost", H5P_DEFAULT);
    uint64_t hist[2][5];
    cr_assert_geq(H5Dread(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, hist), 0);
    hist[1][2]--;
    hist[1][1]++;
    cr_assert_geq(H5Dwrite(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, hist), 0);
    H5Dclose(d);
    H5Fclose(f);
    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    cr_expect_eq(om_summary_compute(r, OM_SUMMARY_CONFIDENCE, &s[0]), OM_OK, "%s",
                 om_error_message());
    om_summary_free(s[0]);
    cr_expect_eq(om_summary_compute_rows(r, OM_SUMMARY_CONFIDENCE, &s[1]), OM_EHDF5);
    cr_expect(strstr(om_error_message(), "stands_lost[o] = 1: 0 rows, the tally 1") != NULL,
              "%s", om_error_message());
    om_h5_reader_close(r);
}

/* ------------------------------------------- what a layout declares: a battle */

/* Trials of the declared-fields file: enough rows for every quantile to
 * fall on a distinct rank. */
#define DECL_TRIALS 1000u

/* The row of the declared-fields file: a winner, two two-byte scores, then
 * each unit's flag of its loss. */
enum { DECL_WINNER = 0, DECL_SA = 1, DECL_SB = 3, DECL_UNITS = 5, DECL_ROW = 7 };

static uint8_t decl_winner(uint64_t i)
{
    return i % 3 == 0 ? OM_WINNER_A : i % 3 == 1 ? OM_WINNER_B : OM_WINNER_DRAW;
}
static unsigned decl_sa(uint64_t i) { return (unsigned)(i % 7) * 55u + (i % 3 == 0) * 300u; }
static unsigned decl_sb(uint64_t i) { return (unsigned)(i % 11) * 25u; }
static bool decl_lost(uint64_t i, size_t u) { return u == 0 ? i % 5 == 0 : i % 3 == 0; }

/* A file whose layout declares each side's score (sa, sb) and a unit's loss
 * (gone), with `options_json` as its provenance. */
static void write_declared(const char *path, const char *options_json)
{
    static const om_layout_unit units[2] = {
        {.id = "a_knights", .name = "Knights", .army = "A", .side = 0, .points = 110},
        {.id = "b_orcs", .name = "Orcs", .army = "B", .side = 1, .points = 60}};
    om_layout l = {.row_size = DECL_ROW, .field_count = 3,
                   .fields = {{.name = "winner", .description = "who won", .title = "Outcome",
                               .offset = DECL_WINNER, .type = OM_FIELD_WINNER},
                              {.name = "sa", .description = "A's score", .offset = DECL_SA,
                               .type = OM_FIELD_COUNT16},
                              {.name = "sb", .description = "B's score", .offset = DECL_SB,
                               .type = OM_FIELD_COUNT16}},
                   .side = {{.name = "A", .loss_field = -1}, {.name = "B", .loss_field = -1}},
                   .unit_count = 2, .units = units, .unit_field_count = 1,
                   .unit_fields = {{.name = "gone", .description = "the unit was lost",
                                    .offset = DECL_UNITS, .type = OM_FIELD_FLAG, .max = 1}},
                   .unit_stride = 1, .score_field = {"sa", "sb"}, .unit_lost_field = "gone"};
    om_run_info info = {.program_version = "0.1.0-test", .command_line = "test_summary",
                        .scenario_name = "declared", .scenario_text = "", .title = "Battle",
                        .ruleset = "warmaster-revolution", .game = "warmaster",
                        .kind = "battle", .options_json = options_json,
                        .rng_scheme = "synthetic", .seed = 1, .trials = DECL_TRIALS,
                        .block_size = DECL_TRIALS, .threads = 1, .layout = &l};
    uint8_t *rows = calloc(DECL_TRIALS, DECL_ROW);
    om_h5_writer *w = NULL;
    cr_assert_not_null(rows);
    for (uint64_t i = 0; i < DECL_TRIALS; i++) {
        uint8_t *row = rows + i * DECL_ROW;
        row[DECL_WINNER] = decl_winner(i);
        row[DECL_SA] = (uint8_t)(decl_sa(i) & 0xffu);
        row[DECL_SA + 1] = (uint8_t)(decl_sa(i) >> 8);
        row[DECL_SB] = (uint8_t)(decl_sb(i) & 0xffu);
        row[DECL_SB + 1] = (uint8_t)(decl_sb(i) >> 8);
        for (size_t u = 0; u < 2; u++)
            row[DECL_UNITS + u] = decl_lost(i, u);
    }
    cr_assert_eq(om_h5_writer_create(&w, path, &info), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_writer_put(w, 0, rows, DECL_TRIALS), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_writer_close(w), OM_OK, "%s", om_error_message());
    free(rows);
}

static int cmp_int(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/*
 * The margin and the units that decided, against the same quantities
 * counted here from the rows the file was written from: the mean and its
 * interval, each quantile (the smallest margin whose share of trials at or
 * below it reaches the level), P(ahead), and each unit's side's P(win) when
 * it was lost and kept with Newcombe's interval of their difference; and the
 * provenance's warnings, line by line.
 */
Test(summary, margin_and_deciders_from_the_declared_fields)
{
    char path[512];
    int margin[DECL_TRIALS];
    double sum = 0.0, sq = 0.0;
    uint64_t ahead_a = 0;
    om_summary *s;

    tmpdir_path(path, sizeof path, "declared.h5");
    write_declared(path, "{\"warnings\": [\"Knights (a_knights): not modelled: lance\"]}");
    s = summarise(path);
    cr_assert(s->margin.known, "the margin is known");
    cr_expect_str_eq(s->margin.field[0], "sa");
    cr_expect_str_eq(s->margin.field[1], "sb");
    for (uint64_t i = 0; i < DECL_TRIALS; i++) {
        margin[i] = (int)decl_sa(i) - (int)decl_sb(i);
        sum += margin[i];
        sq += (double)margin[i] * margin[i];
        ahead_a += margin[i] > 0;
    }
    const double mean = sum / DECL_TRIALS, sd = sqrt(sq / DECL_TRIALS - mean * mean);
    cr_expect_float_eq(s->margin.mean, mean, 1e-9);
    cr_expect_float_eq(s->margin.sd, sd, 1e-9);
    cr_expect_float_eq(s->margin.lo, mean - Z_975 * sd / sqrt(DECL_TRIALS), 1e-9);
    cr_expect_float_eq(s->margin.hi, mean + Z_975 * sd / sqrt(DECL_TRIALS), 1e-9);
    qsort(margin, DECL_TRIALS, sizeof margin[0], cmp_int);
    for (size_t q = 0; q < OM_SUMMARY_MARGIN_QUANTILES; q++) {
        const size_t rank = (size_t)ceil(om_summary_margin_levels[q] * DECL_TRIALS - 1e-9);
        cr_expect_eq(s->margin.quantile[q], margin[rank - 1], "quantile %g: %d, not %d",
                     om_summary_margin_levels[q], s->margin.quantile[q], margin[rank - 1]);
    }
    cr_expect_eq(s->margin.ahead[0].count, ahead_a);

    cr_assert_not_null(s->deciders, "the units that decided are known");
    cr_expect_str_eq(s->unit_lost_field, "gone");
    for (size_t u = 0; u < 2; u++) {
        const om_summary_decider *d = &s->deciders[u];
        const uint8_t side = u == 0 ? OM_WINNER_A : OM_WINNER_B;
        uint64_t lost = 0, kept = 0, won_lost = 0, won_kept = 0;
        double l1, h1, l2, h2;
        for (uint64_t i = 0; i < DECL_TRIALS; i++) {
            const bool gone = decl_lost(i, u), won = decl_winner(i) == side;
            lost += gone;
            kept += !gone;
            won_lost += gone && won;
            won_kept += !gone && won;
        }
        cr_expect_eq(d->lost, lost, "unit %zu lost", u);
        cr_expect_eq(d->kept, kept, "unit %zu kept", u);
        cr_expect_eq(d->win_lost.count, won_lost, "unit %zu won when lost", u);
        cr_expect_eq(d->win_kept.count, won_kept, "unit %zu won when kept", u);
        cr_assert(d->known);
        cr_assert_eq(om_stats_wilson(won_kept, kept, 0.95, &l1, &h1), OM_OK);
        cr_assert_eq(om_stats_wilson(won_lost, lost, 0.95, &l2, &h2), OM_OK);
        const double p1 = (double)won_kept / kept, p2 = (double)won_lost / lost;
        cr_expect_float_eq(d->diff, p1 - p2, 1e-12);
        cr_expect_float_eq(d->lo, p1 - p2 - sqrt((p1 - l1) * (p1 - l1) + (h2 - p2) * (h2 - p2)),
                           1e-12);
        cr_expect_float_eq(d->hi, p1 - p2 + sqrt((h1 - p1) * (h1 - p1) + (p2 - l2) * (p2 - l2)),
                           1e-12);
    }
    /* Unit 1 (side B) is lost exactly when A wins: it never wins then. */
    cr_expect_eq(s->deciders[1].win_lost.count, 0);
    cr_assert_eq(s->n_warnings, 1);
    cr_expect_str_eq(s->warnings[0], "Knights (a_knights): not modelled: lance");
    om_summary_free(s);
}

/* A layout that declares nothing: no margin, no units that decided, no
 * warnings, whatever its fields. */
Test(summary, nothing_declared_nothing_reported)
{
    char path[512];
    om_summary *s;
    tmpdir_path(path, sizeof path, "plain.h5");
    write_synthetic(path, "combat", 1, 0);
    s = summarise(path);
    cr_expect(!s->margin.known);
    cr_expect_null(s->margin.field[0]);
    cr_expect_null(s->deciders);
    cr_expect_eq(s->n_warnings, 0);
    om_summary_free(s);
}

/* ------------------------------------------- a matrix of army lists */

#define LEG_BATTLES 4u

/* Four legs of four battles of one pairing: each battle's winner and margin. */
static const uint8_t leg_w[OM_SUMMARY_LEGS][LEG_BATTLES] = {
    {OM_WINNER_A, OM_WINNER_A, OM_WINNER_B, OM_WINNER_DRAW},
    {OM_WINNER_A, OM_WINNER_B, OM_WINNER_B, OM_WINNER_A},
    {OM_WINNER_A, OM_WINNER_A, OM_WINNER_A, OM_WINNER_B},
    {OM_WINNER_B, OM_WINNER_B, OM_WINNER_DRAW, OM_WINNER_A},
};
static const int32_t leg_m[OM_SUMMARY_LEGS][LEG_BATTLES] = {
    {10, 20, -30, 0}, {5, -10, -20, 15}, {30, 10, 5, -5}, {-15, -25, 0, 10}};

/* The list matrix above written to `path` (with its battles, or not). */
static void write_list_matrix(const char *path, bool rows)
{
    static const char *const names[OM_SUMMARY_LEGS] = {"south-a-first", "south-b-first",
                                                       "north-a-first", "north-b-first"};
    om_matrix_situation sits[OM_SUMMARY_LEGS];
    const om_matrix_unit a = {"Steel", "steel", 2000, "empire", "list", 0},
                         b = {"Horde", "horde", 1995, "orcs", "list", 0};
    for (size_t l = 0; l < OM_SUMMARY_LEGS; l++)
        sits[l] = (om_matrix_situation){names[l], "zones: a-south\n", names[l]};
    om_matrix_info info = {.program_version = "test", .command_line = "test",
                           .ruleset = "warmaster-revolution", .data_version = "",
                           .row_list = "steel", .col_list = "horde", .rng_scheme = "test",
                           .game = "warmaster", .kind = "battle", .options = "",
                           .seed = 1, .trials_per_cell = LEG_BATTLES,
                           .outcome_trials = rows ? LEG_BATTLES : 0, .battle_margins = true,
                           .n_situations = OM_SUMMARY_LEGS, .n_rows = 1, .n_cols = 1,
                           .situations = sits, .rows = &a, .cols = &b};
    om_h5m_writer *w = NULL;
    cr_assert_eq(om_h5m_writer_create(&w, path, &info), OM_OK, "%s", om_error_message());
    for (size_t l = 0; l < OM_SUMMARY_LEGS; l++) {
        om_matrix_cell cell = {.trials = LEG_BATTLES, .points_lost_row_sum = 100};
        double sum = 0;
        for (size_t t = 0; t < LEG_BATTLES; t++) {
            cell.wins_row += leg_w[l][t] == OM_WINNER_A;
            cell.draws += leg_w[l][t] == OM_WINNER_DRAW;
            cell.wins_col += leg_w[l][t] == OM_WINNER_B;
            sum += leg_m[l][t];
            cell.margin_sq_sum += (double)leg_m[l][t] * leg_m[l][t];
        }
        cell.points_lost_col_sum = 100 + sum;
        cr_assert_eq(om_h5m_writer_put_cell(w, l, 0, 0, &cell), OM_OK, "%s", om_error_message());
        if (rows) {
            cr_assert_eq(om_h5m_writer_put_outcomes(w, l, 0, 0, leg_w[l], LEG_BATTLES), OM_OK);
            cr_assert_eq(om_h5m_writer_put_margins(w, l, 0, 0, leg_m[l], LEG_BATTLES), OM_OK,
                         "%s", om_error_message());
        }
    }
    cr_assert_eq(om_h5m_writer_close(w), OM_OK, "%s", om_error_message());
}

/* The pooled odds and the effects, battle by battle over the legs: worked
 * out by hand from the table above (a first-turn effect on P(A wins) of
 * +0.25: battle by battle +0.5, +1, +0.5, -1; a zone effect of 0; of the
 * margin: +10 and a pooled mean of 0), with the normal interval of the mean
 * of the four paired values; from the sums alone the same estimates. */
Test(summary, list_matrix_pairs_the_legs_battle_by_battle)
{
    char path[512];
    om_matrix *m = NULL;
    om_h5m_outcomes *o = NULL;
    om_summary_pairing p;
    const double z = 1.959963984540054;
    tmpdir_path(path, sizeof path, "lists.h5");
    write_list_matrix(path, true);
    cr_assert_eq(om_h5m_read(path, &m), OM_OK, "%s", om_error_message());
    cr_expect(m->info.battle_margins);
    cr_assert_eq(om_h5m_outcomes_open(m, &o), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_summary_lists_pairing(m, o, 0, 0, 0.95, &p), OM_OK, "%s",
                 om_error_message());
    cr_expect(p.paired);
    cr_expect_float_eq(p.pooled[0].value, 0.5, 1e-12);
    cr_expect_float_eq(p.pooled[1].value, 2.0 / 16, 1e-12);
    cr_expect_float_eq(p.pooled[2].value, 6.0 / 16, 1e-12);
    /* y_t = 3/4, 1/2, 1/4, 1/2: sample variance 0.125 / 3. */
    cr_expect_float_eq(p.pooled[0].lo, 0.5 - z * sqrt(0.125 / 3 / 4), 1e-12);
    cr_expect_float_eq(p.first_p.value, 0.25, 1e-12);
    cr_expect_float_eq(p.first_p.lo, 0.25 - z * sqrt(2.25 / 3 / 4), 1e-12);
    cr_expect_float_eq(p.first_p.hi, 1.0, 1e-12); /* clipped */
    cr_expect_float_eq(p.zone_p.value, 0.0, 1e-12);
    cr_expect_float_eq(p.margin.value, 0.0, 1e-12);
    cr_expect_float_eq(p.first_margin.value, 10.0, 1e-12);
    cr_expect_float_eq(p.leg[1].p[0], 0.5, 1e-12);
    cr_expect_float_eq(p.leg[0].margin, 0.0, 1e-12);
    cr_expect_float_eq(p.leg[2].margin, 10.0, 1e-12);
    om_h5m_outcomes_close(o);

    /* Without the battles: the same estimates, the legs independent. */
    cr_assert_eq(om_summary_lists_pairing(m, NULL, 0, 0, 0.95, &p), OM_OK);
    cr_expect(!p.paired);
    cr_expect_float_eq(p.pooled[0].value, 0.5, 1e-12);
    cr_expect_float_eq(p.first_p.value, 0.25, 1e-12);
    cr_expect_float_eq(p.first_margin.value, 10.0, 1e-12);
    /* P(A wins) of the legs 1/2, 1/2, 3/4, 1/4, each of 4 battles. */
    cr_expect_float_eq(p.pooled[0].hi,
                       0.5 + z * sqrt((0.25 + 0.25 + 0.1875 + 0.1875) / 4 / 16), 1e-12);
    om_h5m_matrix_free(m);

    /* A matrix of units is not one of lists. */
    write_list_matrix(path, false);
    cr_assert_eq(om_h5m_read(path, &m), OM_OK, "%s", om_error_message());
    m->info.battle_margins = false;
    cr_expect_eq(om_summary_lists_pairing(m, NULL, 0, 0, 0.95, &p), OM_EINVAL);
    om_error_clear();
    om_h5m_matrix_free(m);
}
