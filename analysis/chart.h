/*
 * chart.h: charts a blogger can post, drawn with cairo (`oddsmaster chart`):
 *
 *   odds      from a run file: horizontal bars of P(A wins), P(draw), P(B wins)
 *             (and P(no result) if any trial had none) with Wilson interval
 *             whiskers and a dashed 50% line;
 *   dist      from a run file: bars of P(= k) and a line of P(>= k) with its
 *             Wilson intervals for one count field (default stands_lost_b);
 *   heatmap   from a matrix file: P(row unit wins) per cell (pooled over the
 *             selected situations), on a diverging red-white-blue scale centred
 *             on 50%, the value in each cell, unit names with points, a legend.
 *
 * One drawing routine serves every format; the format follows the output file's
 * extension: .png (image surface), .svg (SVG surface; a <title> and <desc> with
 * the title and manifest are added), .pdf (PDF surface with title, creator and
 * manifest as document metadata). Sizes are in pixels for PNG and points for
 * SVG and PDF. Titles name the units, rule set, situation or kind and trials; a
 * footer carries the manifest (manifest.h), "oddsmaster VERSION · RULESET · ...
 * · seed S · N trials · FILE". Text uses DejaVu Sans through cairo's toy font
 * API (the fonts-dejavu-core package).
 *
 * Beside the image a CSV of exactly what was plotted is written (the output's
 * name with .csv in place of its extension), led by "# " lines with the title
 * and manifest:
 *   odds      outcome,label,p,lo,hi,count,trials
 *   dist      field,k,p_equal,p_at_least,lo,hi        (lo, hi bound p_at_least)
 *   heatmap   row,col,row_points,col_points,trials,wins_row,draws,wins_col,p_row_wins
 * Both files are written under temporary names and renamed when complete.
 * Not thread-safe with respect to one output path; otherwise reentrant.
 */
#ifndef OM_CHART_H
#define OM_CHART_H

#include "status.h"

/* Smallest and largest width or height accepted, in pixels or points. */
#define OM_CHART_MIN_SIZE 200u
#define OM_CHART_MAX_SIZE 10000u

/* The count field of a dist chart unless another is asked for. */
#define OM_CHART_DEFAULT_FIELD "stands_lost_b"

/* Chart kinds. */
typedef enum om_chart_kind {
    OM_CHART_ODDS = 0, /* win/draw/lose bars from a run file */
    OM_CHART_DIST,     /* distribution and "at least k" of a field from a run file */
    OM_CHART_HEATMAP   /* P(row wins) matrix from a matrix file */
} om_chart_kind;

/* Output formats. */
typedef enum om_chart_format {
    OM_CHART_PNG = 0,
    OM_CHART_SVG,
    OM_CHART_PDF
} om_chart_format;

/* What to draw. Zero values mean the defaults. */
typedef struct om_chart_options {
    om_chart_kind kind;    /* which chart */
    const char *field;     /* dist: the field (NULL: OM_CHART_DEFAULT_FIELD) */
    const char *situation; /* heatmap: a situation name, or NULL/"all" to pool them */
    unsigned width;        /* 0: the kind's default (om_chart_default_size) */
    unsigned height;       /* 0: the kind's default */
    double confidence;     /* of the intervals; 0: 0.95 */
} om_chart_options;

/* om_chart_kind_parse: "odds", "dist" or "heatmap". Errors: OM_EINVAL. */
om_status om_chart_kind_parse(const char *text, om_chart_kind *out);

/*
 * om_chart_format_from_path: the format named by the extension of `path`
 * (.png, .svg, .pdf, in any case). Errors: OM_EINVAL naming the extension.
 */
om_status om_chart_format_from_path(const char *path, om_chart_format *out);

/* The default size of a kind: odds 1200 x 600, dist 1200 x 700, heatmap 1200 x 1000. */
void om_chart_default_size(om_chart_kind kind, unsigned *width, unsigned *height);

/*
 * om_chart_csv_path: the path of the data CSV written beside `out_path`: its
 * extension replaced by .csv (a new string, caller frees). NULL if out of memory.
 */
char *om_chart_csv_path(const char *out_path);

/*
 * om_chart_file: draw chart `opt->kind` of the file `in_path` (a run file for
 * odds and dist, a matrix file for heatmap) to `out_path`, and its CSV beside it.
 * Errors: OM_EINVAL (unknown extension, size outside OM_CHART_MIN_SIZE..
 * OM_CHART_MAX_SIZE, odds of a run without a winner, dist of a field that is
 * not in the file, a bad confidence), OM_ENOTFOUND (no such situation),
 * OM_EIO (cannot read the input or write the outputs), OM_EHDF5 (not a valid run
 * or matrix file; the message says which the chart needs), OM_ENOMEM.
 */
om_status om_chart_file(const char *in_path, const char *out_path,
                        const om_chart_options *opt);

#endif /* OM_CHART_H */
