/*
 * chart_int.h: private to the chart module. chart_data.c turns a run or matrix
 * file into an om_chart_spec (what to draw, already in words and numbers) and
 * writes its CSV; chart.c, the only cairo user (STYLE rule 14), draws a spec.
 */
#ifndef OM_CHART_INT_H
#define OM_CHART_INT_H

#include <stddef.h>
#include <stdint.h>

#include "chart.h"
#include "manifest.h"

/* Longest title, subtitle and axis text a spec holds (cut short beyond). */
#define OM_CHART_TEXT_MAX 512

/* Most bars of an odds chart: A wins, draw, B wins, no result. */
#define OM_CHART_MAX_BARS 4

/* One bar of an odds chart. */
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

    /* odds */
    size_t n_bars;                         /* bars used */
    om_chart_bar bars[OM_CHART_MAX_BARS];  /* top to bottom */

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
    double *value;       /* [rows * cols] P(row wins); NaN for a cell not run */
    char row_title[OM_CHART_TEXT_MAX]; /* the rows' list, down the left side */
    char col_title[OM_CHART_TEXT_MAX]; /* the columns' list, above the grid */
} om_chart_spec;

/* Free the arrays of a spec (the struct itself is the caller's). */
void om_chart_spec_clear(om_chart_spec *spec);

/*
 * om_chart_render: draw `spec` to `path` in `format` (chart.c). The file is
 * written directly; the caller handles temporary names. The subtitle and the
 * footer (manifest) also go into the SVG <desc> and the PDF metadata.
 * Errors: OM_EIO (cairo could not create or write the surface), OM_ENOMEM; the
 * message gives only the reason, for the caller to prefix with the file the
 * user named.
 */
om_status om_chart_render(const om_chart_spec *spec, om_chart_format format, const char *path);

/* The colours of the odds bars (0xRRGGBB). */
#define OM_CHART_COLOUR_A 0x2b6cb0u    /* side A wins: blue */
#define OM_CHART_COLOUR_DRAW 0x9aa3adu /* draws: grey */
#define OM_CHART_COLOUR_B 0xc0392bu    /* side B wins: red */
#define OM_CHART_COLOUR_NONE 0xd5d8dcu /* no result: light grey */

#endif /* OM_CHART_INT_H */
