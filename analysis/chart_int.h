/*
 * chart_int.h: private to the chart module. chart_data.c turns a run or matrix
 * file into an om_chart_spec (what to draw, already in words and numbers) and
 * writes its CSV; chart.c, the only cairo user, draws a spec.
 */
#ifndef OM_CHART_INT_H
#define OM_CHART_INT_H

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

    /* heatmap */
    size_t rows, cols;   /* matrix shape */
    char **row_labels;   /* [rows] "Knights (110)" */
    char **col_labels;   /* [cols] */
    double *value;       /* [rows * cols] expected score of the row unit; NaN: not run */
    double *p_win, *p_draw, *p_lose; /* [rows * cols] the row unit's outcomes, over decided trials */
    char row_title[OM_CHART_TEXT_MAX]; /* the rows' list, down the left side */
    char col_title[OM_CHART_TEXT_MAX]; /* the columns' list, above the grid */

    /* fair: one point per unit with a fair value */
    size_t n_points;     /* units drawn */
    char **point_labels; /* [n_points] unit names */
    double *px, *py;     /* [n_points] printed points, fair points */
    double *py_lo, *py_hi; /* [n_points] interval of the fair points */
    int *group;          /* [n_points] 0 row units, 1 column units */
    char groups[2][OM_CHART_TEXT_MAX]; /* legend text of the two groups */
} om_chart_spec;

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
