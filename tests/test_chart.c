/*
 * test_chart.c: Criterion tests of analysis/chart (odds, dist, heatmap and
 * fair charts). Rasterised text differs between machines, so no image is
 * compared byte for byte (font rasterisation varies); instead each test checks
 * structure:
 *   PNG  signature, the width and height cairo reads back, pixels of the bar
 *        colours present;
 *   SVG  XML header, <svg> of the requested size, the <title> and manifest
 *        <desc>, text kept as <text> elements, one shape per bar in its colour;
 *   PDF  header, title metadata;
 *   CSV  beside the image (OUT.csv appended): one table with a header line,
 *        exactly the numbers of the synthetic input, the manifest last.
 * Inputs are written with the run-file and matrix-file writers, with outcomes
 * chosen so that every probability is exact. Errors are provoked once each.
 */
#include <cairo.h>
#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>

#include "chart.h"
#include "chart_int.h"
#include "h5file.h"
#include "h5matrix.h"
#include "stats.h"
#include "test_layout.h"
#include "tmpdir.h"

/* ---------------------------------------------------------------- fixture */

static void dir_setup(void)
{
    tmpdir_create("om_test_chart");
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    gsl_set_error_handler_off();
}

TestSuite(chart, .init = dir_setup, .fini = tmpdir_remove);

/* The whole file `path` as a NUL-terminated string (caller frees). */
static char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    cr_assert_not_null(f, "%s: %s", path, strerror(errno));
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    cr_assert_not_null(buf);
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    if (size != NULL)
        *size = (size_t)n;
    return buf;
}

/* Occurrences of `needle` in `hay`. */
static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* The data CSV of chart `out`, into buf. */
static char *csv_path_of(const char *out, char *buf, size_t size)
{
    size_t n = strlen(out);
    cr_assert_lt(n + 5, size);
    memcpy(buf, out, n);
    memcpy(buf + n, ".csv", 5);
    return buf;
}

/* --------------------------------------------------------- synthetic data */

/*
 * A run of 10000 trials: winner a for i % 10 in 0..4, b for 5..7, draw for 8, and
 * for 9 a draw (combat) or no result (engagement); stands_lost_b = i % 4 and
 * hits_on_b = i % 5 (each value exactly equally often).
 */
#define RUN_TRIALS 10000u

static void write_run(const char *path, const char *kind)
{
    static om_layout layout;
    uint8_t *o;
    int winner, lost_b, hits_b;
    test_layout_of_kind(kind, &layout);
    winner = om_layout_find(&layout, "winner");
    lost_b = om_layout_find(&layout, "stands_lost_b");
    hits_b = om_layout_find(&layout, "hits_on_b");
    om_run_info info = {
        .program_version = "1.2.3-test",
        .command_line = "oddsmaster run knights.yaml",
        .scenario_name = "knights.yaml",
        .scenario_text = "",
        .title = "Knights charge Spearmen",
        .ruleset = "warmaster-revolution",
        .game = "warmaster",
        .kind = kind,
        .options_json = "{}",
        .rng_scheme = "synthetic",
        .seed = 77,
        .trials = RUN_TRIALS,
        .block_size = RUN_TRIALS,
        .threads = 1,
        .layout = &layout,
    };
    om_h5_writer *w = NULL;
    o = calloc(RUN_TRIALS, layout.row_size);
    cr_assert_not_null(o);
    for (unsigned i = 0; i < RUN_TRIALS; i++) {
        unsigned m = i % 10;
        uint8_t *row = o + i * layout.row_size;
        if (winner >= 0)
            row[layout.fields[winner].offset] =
                m < 5 ? OM_WINNER_A : m < 8 ? OM_WINNER_B : m == 9 && strcmp(kind, "engagement") == 0 ? OM_WINNER_NONE : OM_WINNER_DRAW;
        row[layout.fields[lost_b].offset] = (uint8_t)(i % 4);
        row[layout.fields[hits_b].offset] = (uint8_t)(i % 5);
    }
    cr_assert_eq(om_h5_writer_create(&w, path, &info), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_writer_put(w, 0, o, RUN_TRIALS), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_writer_close(w), OM_OK, "%s", om_error_message());
    free(o);
}

/* A 3 x 4 matrix in two situations: cell (s, r, c) is won by the row (10 r + c + 5 s) %. */
#define MR 3
#define MC 4
static const om_matrix_unit m_rows[MR] = {{"Knights", "e/k", 110, "Empire", "infantry", OM_MATRIX_SHOOTS_NO},
                                          {"Halberdiers", "e/h", 45, "Empire", "infantry", OM_MATRIX_SHOOTS_NO},
                                          {"Steam Tank", "e/s", 130, "Empire", "infantry", OM_MATRIX_SHOOTS_NO}};
static const om_matrix_unit m_cols[MC] = {{"Orc Warriors", "o/w", 60, "Orcs", "infantry", OM_MATRIX_SHOOTS_NO},
                                          {"Trolls", "o/t", 110, "Orcs", "infantry", OM_MATRIX_SHOOTS_NO},
                                          {"Giant", "o/g", 150, "Orcs", "infantry", OM_MATRIX_SHOOTS_NO},
                                          {"Goblins", "o/b", 30, "Orcs", "infantry", OM_MATRIX_SHOOTS_NO}};
static const om_matrix_situation m_sits[2] = {{"open", "", "In the open"},
                                                {"defended", "", "Defended"}};

static uint64_t m_wins(size_t s, size_t r, size_t c)
{
    return 10 * r + c + 5 * s + 30;
}

static void write_matrix(const char *path)
{
    om_matrix_info info = {
        .program_version = "1.2.3-test",
        .command_line = "oddsmaster matrix",
        .ruleset = "warmaster-revolution",
        .data_version = "lists 2.25",
        .row_list = "Empire",
        .col_list = "Orcs & Goblins",
        .seed = 99,
        .trials_per_cell = 100,
        .n_situations = 2,
        .n_rows = MR,
        .n_cols = MC,
        .situations = m_sits,
        .rows = m_rows,
        .cols = m_cols,
    };
    om_h5m_writer *w = NULL;
    cr_assert_eq(om_h5m_writer_create(&w, path, &info), OM_OK, "%s", om_error_message());
    for (size_t s = 0; s < 2; s++)
        for (size_t r = 0; r < MR; r++)
            for (size_t c = 0; c < MC; c++) {
                om_matrix_cell cell = {100, m_wins(s, r, c), 10, 90 - m_wins(s, r, c), 1, 1, 0, 0};
                /* Steam Tank vs Goblins was never run. */
                if (r == 2 && c == 3)
                    continue;
                cr_assert_eq(om_h5m_writer_put_cell(w, s, r, c, &cell), OM_OK);
            }
    cr_assert_eq(om_h5m_writer_close(w), OM_OK, "%s", om_error_message());
}

static void chart_ok(const char *in, const char *out, om_chart_kind kind, unsigned width,
                     unsigned height)
{
    om_chart_options opt = {.kind = kind, .width = width, .height = height};
    cr_assert_eq(om_chart_file(in, out, &opt), OM_OK, "%s", om_error_message());
}

/* ------------------------------------------------------------ file checks */

/* A PNG of the given size with at least `min_pixels` pixels of colour `rgb`. */
static void check_png(const char *path, int width, int height, uint32_t rgb, int min_pixels)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    size_t size;
    char *bytes = slurp(path, &size);
    cairo_surface_t *s;
    int found = 0;
    cr_expect(size > 1000, "%s: %zu bytes", path, size);
    cr_expect(memcmp(bytes, sig, sizeof sig) == 0, "%s: PNG signature", path);
    free(bytes);
    s = cairo_image_surface_create_from_png(path);
    cr_assert_eq(cairo_surface_status(s), CAIRO_STATUS_SUCCESS, "%s", path);
    cr_expect_eq(cairo_image_surface_get_width(s), width);
    cr_expect_eq(cairo_image_surface_get_height(s), height);
    cairo_surface_flush(s);
    {
        const unsigned char *data = cairo_image_surface_get_data(s);
        int stride = cairo_image_surface_get_stride(s);
        for (int y = 0; y < cairo_image_surface_get_height(s); y++)
            for (int x = 0; x < cairo_image_surface_get_width(s); x++) {
                uint32_t px = *(const uint32_t *)(const void *)(data + y * stride + 4 * x);
                found += (px & 0xffffffu) == rgb;
            }
    }
    cr_expect_geq(found, min_pixels, "%s: %d pixels of #%06x", path, found, rgb);
    cairo_surface_destroy(s);
}

/* The SVG writer's spelling of a fill colour: fill="#0072b2". */
static void svg_fill(char *buf, size_t size, uint32_t rgb)
{
    snprintf(buf, size, "fill=\"#%06x\"", rgb);
}

static char *check_svg(const char *path, const char *title)
{
    char *svg = slurp(path, NULL), want[512];
    cr_expect(strncmp(svg, "<?xml", 5) == 0, "%s: XML header", path);
    cr_expect(strstr(svg, "<svg") != NULL);
    snprintf(want, sizeof want, "<title>%s</title>", title);
    cr_expect(strstr(svg, want) != NULL, "%s: %s", path, want);
    cr_expect(strstr(svg, "<desc>") != NULL && strstr(svg, "seed") != NULL);
    /* Text stays text: the title is a <text> element, and no glyph is drawn as a path. */
    cr_expect(strstr(svg, "<text ") != NULL, "%s: <text> elements", path);
    cr_expect_eq(count(svg, "<path"), 0, "%s: no outlines", path);
    cr_expect_eq(count(svg, "<symbol"), 0, "%s: no glyph symbols", path);
    return svg;
}

/*
 * A PDF whose document title is `title`: cairo writes it as a literal string
 * "(...)" with parentheses escaped, or as UTF-16BE hex "<FEFF...>"; accept
 * either. The file may hold NUL bytes: search it as bytes.
 */
static bool pdf_has(const char *pdf, size_t size, const char *want)
{
    size_t n = strlen(want);
    for (size_t i = 0; i + n <= size; i++)
        if (memcmp(pdf + i, want, n) == 0)
            return true;
    return false;
}

static void check_pdf(const char *path, const char *title)
{
    size_t size, n = 0;
    char *pdf = slurp(path, &size), literal[512], hex[2048];
    cr_expect(strncmp(pdf, "%PDF-", 5) == 0, "%s: PDF header", path);
    cr_expect(size > 1000);
    n += (size_t)snprintf(literal, sizeof literal, "/Title (");
    for (const char *t = title; *t != '\0' && n + 3 < sizeof literal; t++) {
        if (*t == '(' || *t == ')' || *t == '\\')
            literal[n++] = '\\';
        literal[n++] = *t;
    }
    literal[n] = '\0';
    n = (size_t)snprintf(hex, sizeof hex, "/Title <FEFF");
    for (const char *t = title; *t != '\0' && n + 5 < sizeof hex; t++)
        n += (size_t)snprintf(hex + n, sizeof hex - n, "00%02X", (unsigned char)*t);
    cr_expect(pdf_has(pdf, size, literal) || pdf_has(pdf, size, hex), "%s: %s or %s", path,
              literal, hex);
    free(pdf);
}

/*
 * The data lines of a chart CSV: the header is its first line, no comment, and
 * every data line ends with the manifest.
 */
static char *csv_data(const char *path, const char *header)
{
    char *csv = slurp(path, NULL), *data;
    cr_assert(strncmp(csv, header, strlen(header)) == 0, "%s: header '%s' first in\n%s", path,
              header, csv);
    cr_expect(strchr(csv, '#') == NULL, "no comment lines: %s", csv);
    data = strdup(csv + strlen(header));
    cr_expect_eq(count(data, "oddsmaster 1.2.3-test"), count(data, "\n"),
                 "the manifest on every line: %s", data);
    free(csv);
    return data;
}

/* ----------------------------------------------------------------- tests */

/* The header of an odds chart's CSV (chart.h). */
#define ODDS_HEADER "file,series,outcome,label,p,lo,hi,count,trials,manifest\n"

Test(chart, odds_png_svg_pdf_and_csv)
{
    char run[512], out[512], csv[512], want[256], fill[128];
    double lo, hi;
    char *data, *svg;
    write_run(tmpdir_path(run, sizeof run, "run.h5"), "combat");

    chart_ok(run, tmpdir_path(out, sizeof out, "odds.png"), OM_CHART_ODDS, 900, 450);
    check_png(out, 900, 450, OM_CHART_COLOUR_A, 500);
    check_png(out, 900, 450, OM_CHART_COLOUR_B, 300);
    data = csv_data(tmpdir_path(csv, sizeof csv, "odds.png.csv"), ODDS_HEADER);
    cr_assert_eq(om_stats_wilson(5000, RUN_TRIALS, 0.95, &lo, &hi), OM_OK);
    snprintf(want, sizeof want, ",win_a,Knights (A) win,0.5,%.10g,%.10g,5000,10000,", lo, hi);
    cr_expect(strstr(data, want) != NULL, "got\n%s\nwant\n%s", data, want);
    cr_expect(strstr(data, ",draw,Draw,0.2,") != NULL, "%s", data);
    cr_expect(strstr(data, ",win_b,Spearmen (B) win,0.3,") != NULL, "%s", data);
    cr_expect_eq(count(data, "\n"), 3, "three bars:\n%s", data);
    free(data);

    chart_ok(run, tmpdir_path(out, sizeof out, "odds.svg"), OM_CHART_ODDS, 900, 450);
    svg = check_svg(out, "Knights (110 pts) vs Spearmen (45 pts): who wins?");
    cr_expect(strstr(svg, "width=\"900pt\" height=\"450pt\"") != NULL);
    svg_fill(fill, sizeof fill, OM_CHART_COLOUR_A);
    cr_expect_eq(count(svg, fill), 1, "one bar of %s", fill);
    svg_fill(fill, sizeof fill, OM_CHART_COLOUR_DRAW);
    cr_expect_eq(count(svg, fill), 1, "one bar of %s", fill);
    svg_fill(fill, sizeof fill, OM_CHART_COLOUR_NONE);
    cr_expect_eq(count(svg, fill), 0, "no 'no result' bar in a combat run");
    free(svg);

    chart_ok(run, tmpdir_path(out, sizeof out, "odds.pdf"), OM_CHART_ODDS, 0, 0);
    check_pdf(out, "Knights (110 pts) vs Spearmen (45 pts): who wins?");
    cr_expect_eq(tmpdir_entries(), 7, "run.h5, odds.png/.svg/.pdf and a CSV beside each");
}

/* An engagement with unresolved trials gets a fourth bar, "No result". */
Test(chart, odds_with_no_result)
{
    char run[512], out[512], csv[512];
    char *data;
    write_run(tmpdir_path(run, sizeof run, "eng.h5"), "engagement");
    chart_ok(run, tmpdir_path(out, sizeof out, "eng.png"), OM_CHART_ODDS, 600, 300);
    check_png(out, 600, 300, OM_CHART_COLOUR_NONE, 50);
    data = csv_data(tmpdir_path(csv, sizeof csv, "eng.png.csv"), ODDS_HEADER);
    cr_expect(strstr(data, ",draw,Draw,0.1,") != NULL, "%s", data);
    cr_expect(strstr(data, ",none,No result,0.1,") != NULL, "%s", data);
    cr_expect_eq(count(data, "\n"), 4);
    free(data);
}

Test(chart, dist_default_and_other_field)
{
    char run[512], out[512], csv[512], fill[128];
    char *data, *svg;
    write_run(tmpdir_path(run, sizeof run, "run.h5"), "combat");

    chart_ok(run, tmpdir_path(out, sizeof out, "dist.png"), OM_CHART_DIST, 0, 0);
    check_png(out, 1200, 700, 0x8fb3dfu, 1000);
    data = csv_data(tmpdir_path(csv, sizeof csv, "dist.png.csv"),
                    "field,k,p_equal,p_at_least,lo,hi,manifest\n");
    cr_expect(strncmp(data, "stands_lost_b,0,0.25,1,1,1,", 27) == 0, "%s", data);
    cr_expect(strstr(data, "\nstands_lost_b,1,0.25,0.75,") != NULL, "%s", data);
    cr_expect(strstr(data, "\nstands_lost_b,3,0.25,0.25,") != NULL, "%s", data);
    cr_expect_eq(count(data, "\n"), 4, "k = 0..3");
    free(data);

    {
        om_chart_options opt = {.kind = OM_CHART_DIST, .field = "hits_on_b", .width = 800,
                                .height = 500};
        cr_assert_eq(om_chart_file(run, tmpdir_path(out, sizeof out, "hits.svg"), &opt), OM_OK,
                     "%s", om_error_message());
    }
    svg = check_svg(out, "Hits suffered by Spearmen after armour saves");
    cr_expect(strstr(svg, ">P(= k): exactly k</text>") != NULL, "legend as text");
    /* Five bars of P(= k), plus the legend's swatch. */
    svg_fill(fill, sizeof fill, 0x8fb3dfu);
    cr_expect_eq(count(svg, fill), 5 + 1, "bars of %s", fill);
    free(svg);
    data = csv_data(tmpdir_path(csv, sizeof csv, "hits.svg.csv"),
                    "field,k,p_equal,p_at_least,lo,hi,manifest\n");
    cr_expect(strstr(data, "hits_on_b,4,0.2,0.2,") != NULL, "%s", data);
    free(data);
}

static void expect_chart_error(const char *in, const char *out, const om_chart_options *opt,
                               om_status code, const char *phrase);

#define HEAT_HEADER "row,col,row_points,col_points,trials,wins_row,draws,wins_col,score,manifest\n"

Test(chart, heatmap_pooled_and_one_situation)
{
    char mat[512], out[512], csv[512], fill[128];
    char *data, *svg;
    om_chart_options opt = {.kind = OM_CHART_HEATMAP, .situation = "defended", .width = 700,
                            .height = 600};
    write_matrix(tmpdir_path(mat, sizeof mat, "m.h5"));

    chart_ok(mat, tmpdir_path(out, sizeof out, "heat.png"), OM_CHART_HEATMAP, 0, 0);
    check_png(out, 1200, 1000, 0xeeeeeeu, 100);
    data = csv_data(tmpdir_path(csv, sizeof csv, "heat.png.csv"), HEAT_HEADER);
    /* Pooled: Knights vs Orc Warriors won 30 + 35 and drew 20 of 200: score 75/200. */
    cr_expect(strncmp(data, "Knights,Orc Warriors,110,60,200,65,20,115,0.375,", 48) == 0, "%s",
              data);
    cr_expect(strstr(data, "\nSteam Tank,Goblins,130,30,0,0,0,0,,") != NULL, "not run: %s",
              data);
    cr_expect_eq(count(data, "\n"), MR * MC);
    free(data);

    /* The title names the armies of the units, not the lists as typed. */
    cr_assert_eq(om_chart_file(mat, tmpdir_path(out, sizeof out, "def.svg"), &opt), OM_OK, "%s",
                 om_error_message());
    svg = check_svg(out, "Empire vs Orcs: expected score of the row unit");
    /* Situations by their titles, units by their names, every cell's score as text. */
    cr_expect(strstr(svg, ">Defended ") != NULL || strstr(svg, ">Defended<") != NULL,
              "situation title");
    cr_expect(strstr(svg, ">Halberdiers (45)</text>") != NULL, "unit label as text");
    cr_expect(strstr(svg, ">51%</text>") != NULL, "Halberdiers v Trolls: (46 + 5) / 100");
    /* The cell not run is the only one in the empty-cell grey, besides the swatch of
     * the key that says what it means. */
    svg_fill(fill, sizeof fill, 0xeeeeeeu);
    cr_expect_eq(count(svg, fill), 1 + 1, "%s", fill);
    cr_expect(strstr(svg, ">no score: the pair was not run</text>") != NULL,
              "the key of the blank cell");
    free(svg);
    data = csv_data(tmpdir_path(csv, sizeof csv, "def.svg.csv"), HEAT_HEADER);
    cr_expect(strstr(data, "\nHalberdiers,Trolls,45,110,100,46,10,44,0.51,") != NULL, "%s",
              data);
    free(data);

    opt.situation = NULL;
    cr_assert_eq(om_chart_file(mat, tmpdir_path(out, sizeof out, "heat.pdf"), &opt), OM_OK);
    check_pdf(out, "Empire vs Orcs: expected score of the row unit");
}

/* The heat map's scale gets lighter as the score rises: it reads in grey. */
Test(chart, heatmap_scale_reads_in_grey)
{
    double last = -1.0;
    for (int i = 0; i <= 100; i++) {
        uint32_t c = om_chart_score_colour(i / 100.0);
        double y = 0.2126 * ((c >> 16) & 0xff) + 0.7152 * ((c >> 8) & 0xff) + 0.0722 * (c & 0xff);
        cr_expect_gt(y, last, "luminance falls at %d%%: #%06x", i, c);
        last = y;
    }
    cr_expect_gt(last - 0.0, 200.0, "the top of the scale is light");
}

/*
 * A matrix whose costs follow strength (rows stronger as r rises, columns
 * weaker as c rises): the fair chart draws every unit with its interval.
 */
static void write_priced_matrix(const char *path)
{
    static const om_matrix_unit rows[MR] = {
        {.name = "Knights", .points = 50, .army = "Empire"},
        {.name = "Halberdiers", .points = 80, .army = "Empire"},
        {.name = "Steam Tank", .points = 120, .army = "Empire"}};
    static const om_matrix_unit cols[MC] = {
        {.name = "Orc Warriors", .points = 150, .army = "Orcs"},
        {.name = "Trolls", .points = 110, .army = "Orcs"},
        {.name = "Giant", .points = 70, .army = "Orcs"},
        {.name = "Goblins", .points = 30, .army = "Orcs"}};
    om_matrix_info info = {.program_version = "1.2.3-test", .ruleset = "warmaster-revolution",
                           .row_list = "Empire", .col_list = "Orcs", .seed = 99,
                           .trials_per_cell = 100, .n_situations = 2, .n_rows = MR,
                           .n_cols = MC, .situations = m_sits, .rows = rows, .cols = cols};
    om_h5m_writer *w = NULL;
    cr_assert_eq(om_h5m_writer_create(&w, path, &info), OM_OK, "%s", om_error_message());
    for (size_t s = 0; s < 2; s++)
        for (size_t r = 0; r < MR; r++)
            for (size_t c = 0; c < MC; c++) {
                uint64_t wins = 20 + 15 * r + 8 * c + 3 * ((r * c + s) % 3);
                om_matrix_cell cell = {.trials = 100, .wins_row = wins, .draws = 5,
                                       .wins_col = 95 - wins};
                cr_assert_eq(om_h5m_writer_put_cell(w, s, r, c, &cell), OM_OK);
            }
    cr_assert_eq(om_h5m_writer_close(w), OM_OK, "%s", om_error_message());
}

Test(chart, fair_points_against_cost)
{
    char mat[512], out[512], csv[512], fill[128];
    char *data, *svg;
    write_priced_matrix(tmpdir_path(mat, sizeof mat, "priced.h5"));
    chart_ok(mat, tmpdir_path(out, sizeof out, "fair.png"), OM_CHART_FAIR, 800, 600);
    check_png(out, 800, 600, 0x0072b2u, 50);
    check_png(out, 800, 600, 0xe69f00u, 50);
    data = csv_data(tmpdir_path(csv, sizeof csv, "fair.png.csv"),
                    "side,army,unit,points,fair_points,lo,hi,manifest\n");
    cr_expect_eq(count(data, "\n"), MR + MC, "%s", data);
    cr_expect(strncmp(data, "row,Empire,Knights,50,", 22) == 0, "%s", data);
    {
        /* Every fair value lies inside its interval. */
        double fair, lo, hi;
        for (const char *p = data; p != NULL && *p != '\0'; p = strchr(p, '\n') + 1) {
            const char *q = p;
            for (int commas = 0; commas < 4; q++)
                commas += *q == ',';
            cr_assert_eq(sscanf(q, "%lf,%lf,%lf", &fair, &lo, &hi), 3, "%s", p);
            cr_expect(lo < fair && fair < hi, "%.60s", p);
            if (strchr(p, '\n') == NULL)
                break;
        }
    }
    free(data);
    chart_ok(mat, tmpdir_path(out, sizeof out, "fair.svg"), OM_CHART_FAIR, 800, 600);
    svg = check_svg(out, "Fair points against cost: Empire vs Orcs");
    cr_expect_eq(count(svg, "<circle"), MR, "a circle per row unit");
    svg_fill(fill, sizeof fill, 0xe69f00u);
    cr_expect_eq(count(svg, fill), MC + 1, "a square per column unit, and the legend's");
    cr_expect(strstr(svg, ">Steam Tank</text>") != NULL, "names as text");
    free(svg);
}

/* Several run files are series of one odds chart, in the legend's order. */
Test(chart, odds_of_several_files)
{
    char a[512], b[512], out[512], csv[512], fill[128];
    const char *in[2] = {a, b};
    char notes[512] = "";
    om_chart_options opt = {.kind = OM_CHART_ODDS, .width = 900, .height = 600,
                            .notes = notes, .notes_size = sizeof notes};
    char *data, *svg;
    write_run(tmpdir_path(a, sizeof a, "combat.h5"), "combat");
    write_run(tmpdir_path(b, sizeof b, "engage.h5"), "engagement");
    cr_assert_eq(om_chart_files(in, 2, tmpdir_path(out, sizeof out, "cmp.svg"), &opt), OM_OK,
                 "%s", om_error_message());
    svg = check_svg(out, "Who wins? 2 matchups compared");
    /* Four outcomes (the engagement has no-result trials) of each series, and its legend. */
    svg_fill(fill, sizeof fill, om_chart_series_colour[0]);
    cr_expect_eq(count(svg, fill), 4 + 1, "series 1: %s", fill);
    svg_fill(fill, sizeof fill, om_chart_series_colour[1]);
    cr_expect_eq(count(svg, fill), 4 + 1, "series 2: %s", fill);
    /* The files differ only in their kind: the series are named by it, and the mix is
     * said in a note and a warning. */
    cr_expect(strstr(svg, ">combat</text>") != NULL && strstr(svg, ">engagement</text>"),
              "series named by what differs, in the legend");
    cr_expect(strstr(svg, "kinds differ") != NULL, "the subtitle does not claim one kind");
    cr_expect(strstr(svg, "Mixed kinds: combat") != NULL, "a note says the kinds are mixed");
    cr_expect(strstr(notes, "mix kinds (combat") != NULL, "a warning for the caller: %s", notes);
    cr_expect(strstr(svg, "seeds 77, 77") != NULL, "every seed in the manifest");
    free(svg);
    data = csv_data(tmpdir_path(csv, sizeof csv, "cmp.svg.csv"), ODDS_HEADER);
    cr_expect_eq(count(data, "\n"), 8, "%s", data);
    cr_expect(strstr(data, "engage.h5,engagement,none,No result,0.1,") != NULL, "%s", data);
    free(data);
    opt.kind = OM_CHART_DIST;
    cr_expect_eq(om_chart_files(in, 2, out, &opt), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "takes one file") != NULL, "%s", om_error_message());
}

/* The data CSV never replaces a file the user did not name, unless forced. */
Test(chart, side_file_refused_unless_forced)
{
    char run[512], out[512], csv[512];
    om_chart_options opt = {.kind = OM_CHART_ODDS};
    FILE *f;
    char *text;
    write_run(tmpdir_path(run, sizeof run, "run.h5"), "combat");
    /* The user's own x.csv beside x.png is never touched. */
    f = fopen(tmpdir_path(csv, sizeof csv, "x.csv"), "w");
    cr_assert_not_null(f);
    fputs("mine\n", f);
    fclose(f);
    chart_ok(run, tmpdir_path(out, sizeof out, "x.png"), OM_CHART_ODDS, 0, 0);
    text = slurp(csv, NULL);
    cr_expect_str_eq(text, "mine\n");
    free(text);
    /* Drawing again replaces the x.png.csv the first chart wrote, of any kind. */
    cr_expect_eq(om_chart_file(run, out, &opt), OM_OK, "%s", om_error_message());
    opt.kind = OM_CHART_DIST;
    cr_expect_eq(om_chart_file(run, out, &opt), OM_OK, "%s", om_error_message());
    cr_expect(om_chart_csv_is_ours(csv_path_of(out, csv, sizeof csv)));
    /* A file of that name that oddsmaster did not write is refused, nothing written:
     * the user's own text, a header without the manifest, a link to a chart's CSV. */
    {
        static const char *const theirs[] = {
            "mine\n", "field,k,p_equal,p_at_least,lo,hi,manifest\n",
            "field,k,p_equal,p_at_least,lo,hi,manifest\nx,0,1,1,1,1,my notes\n"};
        for (size_t i = 0; i < sizeof theirs / sizeof theirs[0]; i++) {
            f = fopen(csv, "w");
            cr_assert_not_null(f);
            fputs(theirs[i], f);
            fclose(f);
            remove(out);
            cr_expect(!om_chart_csv_is_ours(csv), "%s", theirs[i]);
            expect_chart_error(run, out, &opt, OM_EINVAL, "x.png.csv exists");
            cr_expect(strstr(om_error_message(), "--force") != NULL, "%s", om_error_message());
            cr_expect_eq(access(out, F_OK), -1, "no image either");
            text = slurp(csv, NULL);
            cr_expect_str_eq(text, theirs[i], "the user's file is untouched");
            free(text);
        }
    }
    opt.force = true;
    cr_expect_eq(om_chart_file(run, out, &opt), OM_OK, "%s", om_error_message());
    cr_expect_eq(tmpdir_entries(), 4, "run.h5, x.csv, x.png, x.png.csv");
    /* A link named x.png.csv is not taken for the chart's own file. */
    {
        char link[512];
        opt.force = false;
        cr_assert_eq(rename(csv, tmpdir_path(link, sizeof link, "real.csv")), 0);
        cr_assert_eq(symlink(link, csv), 0);
        cr_expect(!om_chart_csv_is_ours(csv));
        expect_chart_error(run, out, &opt, OM_EINVAL, "x.png.csv exists");
    }
}

/* A matrix file of the first schema is refused, naming the file and the attribute. */
Test(chart, old_matrix_file)
{
    char mat[512], out[512];
    om_chart_options opt = {.kind = OM_CHART_HEATMAP};
    const char *v1 = OM_H5M_SCHEMA_V1;
    hid_t f, type, space, attr;
    write_matrix(tmpdir_path(mat, sizeof mat, "old.h5"));
    f = H5Fopen(mat, H5F_ACC_RDWR, H5P_DEFAULT);
    cr_assert_geq(f, 0);
    cr_assert_geq(H5Adelete(f, "schema"), 0);
    type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    space = H5Screate(H5S_SCALAR);
    attr = H5Acreate2(f, "schema", type, space, H5P_DEFAULT, H5P_DEFAULT);
    cr_assert_geq(H5Awrite(attr, type, &v1), 0);
    H5Aclose(attr);
    H5Sclose(space);
    H5Tclose(type);
    H5Fclose(f);
    expect_chart_error(mat, tmpdir_path(out, sizeof out, "old.png"), &opt, OM_EHDF5,
                       "old.h5: the 'schema' attribute is 'oddsmaster-matrix/1'");
    cr_expect_eq(tmpdir_entries(), 1, "no output");
}

/* Check the last error: code, and a phrase in the message. */
static void expect_chart_error(const char *in, const char *out, const om_chart_options *opt,
                               om_status code, const char *phrase)
{
    om_status st = om_chart_file(in, out, opt);
    cr_expect_eq(st, code, "%s -> %s: got %d (%s), expected %d", in, out, st,
                 om_error_message(), code);
    cr_expect(strstr(om_error_message(), phrase) != NULL, "message says '%s': %s", phrase,
              om_error_message());
}

Test(chart, errors)
{
    char run[512], vol[512], mat[512], out[512];
    om_chart_options odds = {.kind = OM_CHART_ODDS};
    om_chart_options dist = {.kind = OM_CHART_DIST, .field = "no_such"};
    om_chart_options heat = {.kind = OM_CHART_HEATMAP, .situation = "flank"};
    om_chart_options tiny = {.kind = OM_CHART_ODDS, .width = 100};
    write_run(tmpdir_path(run, sizeof run, "run.h5"), "combat");
    write_run(tmpdir_path(vol, sizeof vol, "volley.h5"), "volley");
    write_matrix(tmpdir_path(mat, sizeof mat, "m.h5"));

    expect_chart_error(run, tmpdir_path(out, sizeof out, "x.jpg"), &odds, OM_EINVAL, ".png, .svg");
    expect_chart_error(run, tmpdir_path(out, sizeof out, "x.png"), &tiny, OM_EINVAL,
                       "200 to 10000");
    expect_chart_error(vol, out, &odds, OM_EINVAL, "no winner");
    expect_chart_error(run, out, &dist, OM_EINVAL, "no count field 'no_such'");
    expect_chart_error(mat, out, &heat, OM_ENOTFOUND, "open, defended");
    heat.situation = NULL;
    expect_chart_error(run, out, &heat, OM_EHDF5, "a matrix file");
    expect_chart_error(mat, out, &odds, OM_EHDF5, "a run file");
    expect_chart_error(tmpdir_path(run, sizeof run, "missing.h5"), out, &odds, OM_EIO,
                       "missing.h5");
    expect_chart_error(mat, tmpdir_path(out, sizeof out, "no/dir/x.png"), &heat, OM_EIO,
                       "no/dir' does not exist");
    expect_chart_error(mat, tmpdir_path(out, sizeof out, "no/dir/x.svg"), &heat, OM_EIO, "x.svg");
    cr_expect_eq(tmpdir_entries(), 3, "no output and no temporary file left behind");
    cr_expect_eq(om_chart_file(NULL, out, &odds), OM_EINVAL);
}

Test(chart, paths_formats_and_kinds)
{
    om_chart_format f;
    om_chart_kind k;
    unsigned w, h;
    char *p;
    cr_expect(om_chart_format_from_path("a/b.PNG", &f) == OM_OK && f == OM_CHART_PNG);
    cr_expect(om_chart_format_from_path("b.svg", &f) == OM_OK && f == OM_CHART_SVG);
    cr_expect(om_chart_format_from_path("b.pdf", &f) == OM_OK && f == OM_CHART_PDF);
    cr_expect_eq(om_chart_format_from_path("dir.png/b", &f), OM_EINVAL);
    cr_expect_eq(om_chart_format_from_path("png", &f), OM_EINVAL);
    cr_expect(om_chart_kind_parse("heatmap", &k) == OM_OK && k == OM_CHART_HEATMAP);
    cr_expect(om_chart_kind_parse("fair", &k) == OM_OK && k == OM_CHART_FAIR);
    cr_expect_eq(om_chart_kind_parse("pie", &k), OM_EINVAL);
    om_chart_default_size(OM_CHART_ODDS, &w, &h);
    cr_expect(w == 1200 && h == 600);
    p = om_chart_csv_path("out/odds.png");
    cr_expect_str_eq(p, "out/odds.png.csv");
    free(p);
    p = om_chart_csv_path("v1.2/chart");
    cr_expect_str_eq(p, "v1.2/chart.csv");
    free(p);
}

/* ------------------------------------------------------- label placement */

/* Whether two boxes overlap by more than a rounding error. */
static bool boxes_overlap(om_chart_box a, om_chart_box b)
{
    const double eps = 1e-9;
    return a.x0 < b.x1 - eps && b.x0 < a.x1 - eps && a.y0 < b.y1 - eps && b.y0 < a.y1 - eps;
}

/* The box a placed label covers (its short form's width if it took it). */
static om_chart_box label_box(const om_chart_label *l)
{
    return (om_chart_box){l->x0, l->y0, l->x0 + (l->alt ? l->w_alt : l->w), l->y0 + l->h};
}

/* Whether the segment from (x0, y0) to (x1, y1) enters the inside of b, by
 * sampling it finely (independent of the clipping the layout uses). */
static bool segment_enters(double x0, double y0, double x1, double y1, om_chart_box b)
{
    const double eps = 1e-6;
    for (int i = 0; i <= 4000; i++) {
        double t = i / 4000.0, x = x0 + t * (x1 - x0), y = y0 + t * (y1 - y0);
        if (x > b.x0 + eps && x < b.x1 - eps && y > b.y0 + eps && y < b.y1 - eps)
            return true;
    }
    return false;
}

/* Check every promise of om_chart_place_labels for one layout. */
static void check_layout(om_chart_box area, const om_chart_box *obs, size_t n_obs,
                         const om_chart_label *lab, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        om_chart_box a;
        if (!lab[i].placed)
            continue;
        a = label_box(&lab[i]);
        cr_expect(a.x0 >= area.x0 - 1e-9 && a.x1 <= area.x1 + 1e-9 && a.y0 >= area.y0 - 1e-9
                  && a.y1 <= area.y1 + 1e-9, "label %zu inside the plot", i);
        for (size_t k = 0; k < n_obs; k++)
            cr_expect(!boxes_overlap(a, obs[k]), "label %zu covers obstacle %zu", i, k);
        for (size_t j = 0; j < n; j++) {
            om_chart_box b;
            if (j == i || !lab[j].placed)
                continue;
            b = label_box(&lab[j]);
            cr_expect(!boxes_overlap(a, b), "labels %zu and %zu overlap: [%g %g %g %g] [%g %g "
                      "%g %g]", i, j, a.x0, a.y0, a.x1, a.y1, b.x0, b.y0, b.x1, b.y1);
            if (lab[j].leader) {
                double ex = fmin(fmax(lab[j].ax, b.x0), b.x1);
                double ey = fmin(fmax(lab[j].ay, b.y0), b.y1);
                cr_expect(!segment_enters(lab[j].ax, lab[j].ay, ex, ey, a),
                          "the leader line of label %zu crosses label %zu", j, i);
            }
        }
    }
}

/* Far apart markers: each name right beside its own, no leader line. */
Test(chart, labels_sparse_sit_beside_their_markers)
{
    om_chart_box area = {0, 0, 1000, 600};
    om_chart_label lab[3] = {{.ax = 100, .ay = 100, .w = 80, .h = 14},
                             {.ax = 500, .ay = 300, .w = 120, .h = 14},
                             {.ax = 800, .ay = 500, .w = 60, .h = 14}};
    cr_assert_eq(om_chart_place_labels(area, NULL, 0, lab, 3, 5.0, 40.0), OM_OK);
    for (size_t i = 0; i < 3; i++) {
        cr_expect(lab[i].placed && !lab[i].leader && !lab[i].alt, "label %zu", i);
        cr_expect_float_eq(lab[i].x0, lab[i].ax + 5.0, 1e-9, "label %zu to the right", i);
        cr_expect_float_eq(lab[i].y0, lab[i].ay - 7.0, 1e-9, "label %zu centred", i);
    }
}

/* A marker hemmed in on every side: its name goes further out with a leader
 * line, and never over the obstacles; with no room at all, it is left unplaced. */
Test(chart, labels_hemmed_in_take_a_leader_or_stay_unplaced)
{
    om_chart_box area = {0, 0, 400, 400};
    /* A ring of obstacles 30 units around (200, 200), open beyond. */
    om_chart_box ring[4] = {{150, 150, 250, 180}, {150, 220, 250, 250},
                            {150, 180, 190, 220}, {210, 180, 250, 220}};
    om_chart_label lab = {.ax = 200, .ay = 200, .w = 30, .h = 10};
    om_chart_box all = {0, 0, 400, 400};
    cr_assert_eq(om_chart_place_labels(area, ring, 4, &lab, 1, 3.0, 100.0), OM_OK);
    cr_expect(lab.placed && lab.leader, "placed beyond the ring with a leader line");
    check_layout(area, ring, 4, &lab, 1);
    cr_assert_eq(om_chart_place_labels(area, &all, 1, &lab, 1, 3.0, 100.0), OM_OK);
    cr_expect(!lab.placed, "no room anywhere: unplaced, for the caller to name in words");
}

/*
 * A crowded plot: 80 markers packed in a corner, each with an interval bar,
 * long names and a short form. Whatever is placed, no two label boxes
 * overlap, none covers a marker or a bar or leaves the plot, and no leader
 * line crosses another label; and the crowding really forces leader lines,
 * short forms and unplaced names, so that every branch is checked.
 */
Test(chart, labels_crowded_never_collide)
{
    enum { N = 80 };
    om_chart_box area = {0, 0, 600, 400}, obs[2 * N];
    om_chart_label lab[N];
    uint32_t x = 12345u;
    size_t leaders = 0, alts = 0, unplaced = 0;
    memset(lab, 0, sizeof lab);
    for (size_t i = 0; i < N; i++) {
        double ax, ay;
        /* A small linear congruential generator: the same layout on every machine. */
        x = x * 1664525u + 1013904223u;
        ax = 40.0 + (double)(x >> 8) / (double)(1u << 24) * 260.0;
        x = x * 1664525u + 1013904223u;
        ay = 60.0 + (double)(x >> 8) / (double)(1u << 24) * 280.0;
        lab[i] = (om_chart_label){.ax = ax, .ay = ay, .w = 50.0 + (double)(i % 7) * 12.0,
                                  .h = 11.0, .w_alt = 14.0};
        obs[2 * i] = (om_chart_box){ax - 4, ay - 4, ax + 4, ay + 4};
        obs[2 * i + 1] = (om_chart_box){ax - 3, ay - 30, ax + 3, ay + 20};
    }
    cr_assert_eq(om_chart_place_labels(area, obs, 2 * N, lab, N, 4.0, 60.0), OM_OK);
    check_layout(area, obs, 2 * N, lab, N);
    for (size_t i = 0; i < N; i++) {
        leaders += lab[i].placed && lab[i].leader;
        alts += lab[i].placed && lab[i].alt;
        unplaced += !lab[i].placed;
    }
    cr_expect_gt(leaders, 0, "some names need a leader line");
    cr_expect_gt(alts, 0, "some names need their short form");
    cr_expect_gt(unplaced, 0, "some find no room at all");
    cr_expect_gt(N - unplaced, N / 4, "most are placed (%zu unplaced)", unplaced);
}

/* ------------------------------------------------------------ flags drawing */

/*
 * The bar chart of yes/no items is drawn from a plain array, whatever made it:
 * every label whole as text, one bar per item in the bar colour with its
 * width in proportion to p, the values and intervals, the footnote; a chart's
 * default height grows with its bars.
 */
Test(chart, flags_drawn_from_an_array_of_items)
{
    static const char *const labels[3] = {
        "Knights charged", "The moving side shot at Wolf Riders in its Shooting phase",
        "Wolf Riders is confused at the end of the turn (never a destroyed unit)"};
    static const double p[3] = {0.5, 0.25, 0.001};
    om_chart_item items[3];
    om_chart_spec spec;
    char *buf = NULL, fill[128], want[256];
    size_t n = 0;
    FILE *f;
    memset(&spec, 0, sizeof spec);
    memset(items, 0, sizeof items);
    for (int i = 0; i < 3; i++) {
        snprintf(items[i].key, sizeof items[i].key, "f%d", i);
        snprintf(items[i].label, sizeof items[i].label, "%s", labels[i]);
        items[i].p = p[i];
        items[i].lo = p[i] * 0.9;
        items[i].hi = p[i] * 1.1;
    }
    spec.kind = OM_CHART_FLAGS;
    spec.width = 1200;
    spec.height = om_chart_flags_height(spec.width, 3);
    spec.confidence = 0.95;
    spec.items = items;
    spec.n_items = 3;
    snprintf(spec.title, sizeof spec.title, "A turn: how often each happens");
    snprintf(spec.note, sizeof spec.note, "Not drawn: 2 yes/no fields never set.");
    snprintf(spec.x_title, sizeof spec.x_title, "Probability");
    f = open_memstream(&buf, &n);
    cr_assert_not_null(f);
    cr_assert_eq(om_chart_render(&spec, OM_CHART_SVG, f), OM_OK, "%s", om_error_message());
    fclose(f);
    for (int i = 0; i < 3; i++) {
        snprintf(want, sizeof want, ">%s</text>", labels[i]);
        cr_expect(strstr(buf, want) != NULL, "label %d whole: %s", i, labels[i]);
    }
    svg_fill(fill, sizeof fill, OM_CHART_COLOUR_A);
    cr_expect_eq(count(buf, fill), 3, "one bar per item");
    {
        /* The bars' widths are in proportion to p: 0.5 : 0.25. */
        double w[2] = {0, 0};
        const char *at = buf;
        for (int i = 0; i < 2; i++) {
            const char *r = strstr(at, fill);
            const char *wp;
            cr_assert_not_null(r);
            /* Step back to the start of this <rect and read its width. */
            while (r > buf && strncmp(r, "<rect", 5) != 0)
                r--;
            wp = strstr(r, "width=\"");
            cr_assert_not_null(wp);
            w[i] = strtod(wp + 7, NULL);
            at = strstr(r, "/>") + 2;
        }
        cr_expect_float_eq(w[0], 2.0 * w[1], 0.02, "widths %g and %g", w[0], w[1]);
    }
    cr_expect(strstr(buf, ">50.0%</text>") != NULL && strstr(buf, ">25.0%</text>") != NULL,
              "the values");
    cr_expect(strstr(buf, ">Not drawn: 2 yes/no fields never set.</text>") != NULL,
              "the footnote");
    free(buf);
    /* The default height: at least half the width, then growing with the bars. */
    cr_expect_eq(om_chart_flags_height(1200, 1), 600u);
    cr_expect_gt(om_chart_flags_height(1200, 40), om_chart_flags_height(1200, 20));
    cr_expect_gt(om_chart_flags_height(1200, 40), 40u * 30u, "a bar of text height each");
}

/* ------------------------------------------------------------ battlefield */

/* A small battlefield of plain data: a 180 x 120 table, zones 20cm deep, a
 * wood, a unit a side facing the other (B's turned a quarter), one of B's
 * gone, a character of A. */
static void small_picture(om_picture *pic)
{
    memset(pic, 0, sizeof *pic);
    snprintf(pic->title, sizeof pic->title, "Battle 7, as deployed");
    snprintf(pic->side_name[0], sizeof pic->side_name[0], "Empire");
    snprintf(pic->side_name[1], sizeof pic->side_name[1], "Orcs");
    pic->width = 180;
    pic->depth = 120;
    pic->zone[0] = pic->zone[1] = 20;
    pic->n_units = 3;
    pic->unit[0] = (om_picture_unit){.x = 90, .y = 15, .dx = 0, .dy = 1, .width = 12,
                                     .depth = 4, .side = 0, .label = "Knights"};
    pic->unit[1] = (om_picture_unit){.x = 90, .y = 100, .dx = 1, .dy = 0, .width = 12,
                                     .depth = 4, .side = 1, .label = "Orc Warriors"};
    pic->unit[2] = (om_picture_unit){.x = 30, .y = 100, .dx = 0, .dy = -1, .width = 12,
                                     .depth = 4, .side = 1, .gone = true, .label = "Goblins"};
    pic->n_terrain = 1;
    pic->terrain[0] = (om_picture_terrain){.n = 4, .x = {40, 60, 60, 40}, .y = {50, 50, 70, 70},
                                           .label = "wood"};
    pic->n_characters = 1;
    pic->character[0] = (om_picture_character){.x = 90, .y = 12, .side = 0, .label = "General"};
}

/* The battlefield as PNG: a valid image of the width asked and the height of
 * the table's proportions, with each side's colour and the terrain's; as SVG,
 * the units' names (not the one gone) and the terrain's kind as text; bad
 * sizes and extensions refused, writing nothing. */
Test(chart, battlefield_png_and_svg)
{
    om_picture pic;
    char out[512];
    small_picture(&pic);
    const unsigned h = om_chart_picture_height(&pic, 900);
    cr_expect(h > 600 && h < 900, "a 3:2 table with room for its title and key: %u", h);
    cr_assert_eq(om_chart_picture_file(&pic, tmpdir_path(out, sizeof out, "t.png"), 900), OM_OK,
                 "%s", om_error_message());
    check_png(out, 900, (int)h, 0x0072b2u, 50);
    check_png(out, 900, (int)h, 0xd55e00u, 50);
    check_png(out, 900, (int)h, 0xb9c9a3u, 500);
    cr_assert_eq(om_chart_picture_file(&pic, tmpdir_path(out, sizeof out, "t.svg"), 900), OM_OK,
                 "%s", om_error_message());
    char *svg = slurp(out, NULL);
    cr_expect_not_null(strstr(svg, "<title>Battle 7, as deployed</title>"));
    cr_expect_not_null(strstr(svg, ">Knights</text>"));
    cr_expect_not_null(strstr(svg, ">Orc Warriors</text>"));
    cr_expect_null(strstr(svg, ">Goblins</text>"), "a unit gone is not drawn");
    cr_expect_not_null(strstr(svg, ">wood</text>"));
    cr_expect_eq(count(svg, "<polygon"), 3, "two units and a wood");
    free(svg);
    cr_expect_eq(om_chart_picture_file(&pic, tmpdir_path(out, sizeof out, "t.gif"), 900),
                 OM_EINVAL);
    cr_expect_eq(access(out, F_OK), -1, "no file");
    cr_expect_eq(om_chart_picture_file(&pic, tmpdir_path(out, sizeof out, "u.png"), 50),
                 OM_EINVAL);
    cr_expect_eq(access(out, F_OK), -1, "no file");
    pic.width = 0;
    cr_expect_eq(om_chart_picture_file(&pic, tmpdir_path(out, sizeof out, "v.png"), 900),
                 OM_EINVAL);
    cr_expect_eq(access(out, F_OK), -1, "no file");
}
