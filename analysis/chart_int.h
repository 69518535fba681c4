/*
 * chart_int.h: private to the chart module. chart_data.c turns a run or matrix
 * file into an om_chart_spec (what to draw, already in words and numbers) and
 * writes its CSV; chart.c, the only cairo user, draws a spec.
 */
#ifndef OM_CHART_INT_H
#define OM_CHART_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "chart.h"
#include "manifest.h"

/* Longest title, subtitle and axis text a spec holds (cut short beyond). */
#define OM_CHART_TEXT_MAX 512

/* Most result files an odds chart compares. */
#define OM_CHART_MAX_SERIES 8

/* Most bars of an odds chart's series: A wins, draw, B wins, no result. */
#define OM_CHART_MAX_BARS 4

/* One bar of an odds chart (one outcome of one series). */
typedef struct om_chart_bar {
    const char *key;             /* CSV key: win_a, draw, win_b, none */
    char label[OM_CHART_TEXT_MAX]; /* "Knights win" */
    double p, lo, hi;            /* probability and its interval */
    uint64_t count;              /* trials with this outcome */
    uint32_t colour;             /* 0xRRGGBB */
} om_chart_bar;

/*
 * One bar of a flags chart: a yes/no event with its probability. The chart
 * is drawn from a plain array of these, whatever made them: the adapter of
 * chart_data.c collects the flag fields of a run file's layout into it, and
 * another adapter may collect any other yes/no quantities the same way.
 */
typedef struct om_chart_item {
    char key[OM_CHART_TEXT_MAX];   /* CSV key: the field's dataset name */
    char label[OM_CHART_TEXT_MAX]; /* the full label drawn: "Knights charged" */
    double p, lo, hi;              /* probability and its interval */
    uint64_t count;                /* trials in which it happened */
} om_chart_item;

/* One row of a points chart: a unit's victory points a battle, [0] scored and
 * [1] given up, with their intervals. */
typedef struct om_chart_unit_points {
    char key[OM_CHART_TEXT_MAX];   /* CSV key: the unit's id */
    char name[OM_CHART_TEXT_MAX];  /* its name */
    char label[OM_CHART_TEXT_MAX]; /* the label drawn: "Knights (A, 110 pts)" */
    unsigned side;                 /* 0 side A, 1 side B */
    unsigned points;               /* its value (0: unknown) */
    double mean[2], lo[2], hi[2];  /* [0] scored, [1] given up: mean a battle, interval */
    double per_100;                /* scored per 100 points of its value, or -1 */
} om_chart_unit_points;

/* Everything a chart shows. Arrays belong to the spec (om_chart_spec_clear). */
typedef struct om_chart_spec {
    om_chart_kind kind;          /* which drawing */
    unsigned width, height;      /* size in pixels or points */
    char title[OM_CHART_TEXT_MAX];    /* bold first line */
    char subtitle[OM_CHART_TEXT_MAX]; /* what was simulated: " · "-separated parts */
    char footer[OM_MANIFEST_MAX];     /* the manifest line */
    char x_title[OM_CHART_TEXT_MAX];  /* axis title under the plot */
    double confidence;           /* of the intervals, for the legend */
    uint64_t trials;             /* trials behind each probability (odds, dist) */

    /* odds: one series per result file, the same outcomes in each */
    size_t n_bars;                         /* outcomes shown (3, or 4 with no result) */
    size_t n_series;                       /* result files compared */
    om_chart_bar bars[OM_CHART_MAX_SERIES][OM_CHART_MAX_BARS]; /* [series][outcome] */
    char series[OM_CHART_MAX_SERIES][OM_CHART_TEXT_MAX]; /* "Knights vs Spearmen" */
    char outcome[OM_CHART_MAX_BARS][OM_CHART_TEXT_MAX];  /* "A wins", with names if one series */

    /* dist: values k = 0..n_k-1 */
    const char *field; /* the field's dataset name */
    size_t n_k;        /* number of values */
    double *p_equal;   /* [n_k] P(= k) */
    double *p_least;   /* [n_k] P(>= k) */
    double *lo, *hi;   /* [n_k] interval of P(>= k) */

    unsigned *k_values; /* [n_k] the values drawn (a two-byte count: only those that
                           occurred), or NULL: 0..n_k-1 */

    /* flags: one bar per item, top to bottom in array order */
    size_t n_items;        /* bars */
    om_chart_item *items;  /* [n_items] */
    char note[OM_CHART_TEXT_MAX]; /* flags: what was left out; fair: units not drawn and why
                                     (a footnote above the manifest; "" for none) */

    /* points: one row per unit, top to bottom in array order */
    size_t n_units;                     /* rows */
    om_chart_unit_points *unit_points;  /* [n_units] */

    /* heatmap */
    size_t rows, cols;   /* matrix shape */
    char **row_labels;   /* [rows] "Knights (110)" */
    char **col_labels;   /* [cols] */
    double *value;       /* [rows * cols] expected score of the row unit; NaN: not run */
    double *p_win, *p_draw, *p_lose; /* [rows * cols] the row unit's outcomes, over decided trials */
    char row_title[OM_CHART_TEXT_MAX]; /* the rows' list, down the left side */
    char blank_key[OM_CHART_TEXT_MAX]; /* what a blank ("-") cell means, beside a blank
                                          swatch under the grid; "" when no cell is blank */
    char col_title[OM_CHART_TEXT_MAX]; /* the columns' list, above the grid */

    /* fair: one point per unit with a fair value */
    size_t n_points;     /* units drawn */
    char **point_labels; /* [n_points] unit names */
    double *px, *py;     /* [n_points] printed points, fair points */
    double *py_lo, *py_hi; /* [n_points] interval of the fair points */
    int *group;          /* [n_points] 0 row units, 1 column units */
    char groups[2][OM_CHART_TEXT_MAX]; /* legend text of the two groups */
} om_chart_spec;

/* A label to place beside its marker (om_chart_place_labels). */
typedef struct om_chart_label {
    double ax, ay;   /* the marker's centre */
    double w, h;     /* the label's box: its text's advance and its font's height */
    double w_alt;    /* the width of its short form (a number with a key), tried once
                        every label has been tried at its own; 0: none */
    bool placed;     /* out: a free place was found */
    bool alt;        /* out: ...for the short form */
    double x0, y0;   /* out: the box's top-left corner when placed */
    bool leader;     /* out: the box is away from its marker, joined to it by a line from
                        (ax, ay) to the box's closest edge point */
} om_chart_label;

/* A rectangle: left, top, right, bottom (y grows downwards). */
typedef struct om_chart_box {
    double x0, y0, x1, y1;
} om_chart_box;

/*
 * om_chart_place_labels: place each of the n labels, in order, inside `area`
 * so that no two placed label boxes overlap, no label box overlaps one of the
 * n_obstacles boxes `obstacles` (markers, interval bars, text already drawn),
 * and no leader line crosses a placed label: first at the eight places around
 * its marker at distance `gap`, then at growing distances (up to `reach`,
 * stepping by a label's height) joined to the marker by a leader line; the
 * labels in order at their own width w, then those left in their short form
 * (w_alt, if any). A label for which no such place exists is left unplaced
 * (placed false): the caller says so in words. Allocates only scratch arrays
 * of n boxes and n lines (OM_ENOMEM if that fails, nothing placed). Pure:
 * thread-safe.
 */
om_status om_chart_place_labels(om_chart_box area, const om_chart_box *obstacles,
                                size_t n_obstacles, om_chart_label *labels, size_t n,
                                double gap, double reach);

/* Free the arrays of a spec (the struct itself is the caller's). */
void om_chart_spec_clear(om_chart_spec *spec);

/*
 * om_chart_render: draw `spec` in `format` to the open stream `out` (chart.c);
 * the caller opens and closes it (chart_data.c: a stream in memory, written
 * to the file whole, so that a failed write has the system's reason). The
 * title, subtitle
 * and footer (manifest) also go into the SVG <title> and <desc> and the PDF
 * metadata. Errors: OM_EIO (a write failed), OM_ENOMEM; the message gives only
 * the reason, for the caller to prefix with the file the user named.
 */
om_status om_chart_render(const om_chart_spec *spec, om_chart_format format, FILE *out);

/*
 * The colours of the odds bars (0xRRGGBB) of a single file: blue and orange of
 * the Okabe-Ito palette, told apart by every kind of colour vision and of
 * different lightness in grey.
 */
#define OM_CHART_COLOUR_A 0x0072b2u    /* side A wins: blue */
#define OM_CHART_COLOUR_DRAW 0x9aa3adu /* draws: grey */
#define OM_CHART_COLOUR_B 0xe69f00u    /* side B wins: orange */
#define OM_CHART_COLOUR_NONE 0xd5d8dcu /* no result: light grey */

/* The heat map's colour of an expected score p in [0, 1] (cividis, chart.c). */
uint32_t om_chart_score_colour(double p);

/* Series colours of an odds chart of several files (Okabe-Ito, then black). */
extern const uint32_t om_chart_series_colour[OM_CHART_MAX_SERIES];

#endif /* OM_CHART_INT_H */
