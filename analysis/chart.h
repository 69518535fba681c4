/*
 * chart.h: charts ready to post (`oddsmaster chart`):
 *
 *   odds      from one or more run files: horizontal bars of P(A wins),
 *             P(draw), P(B wins) (and P(no result) if any trial had none) with
 *             Wilson interval whiskers and a dashed 50% line; several files are
 *             series, side by side in each outcome, for sweeps and "which unit
 *             should I take" comparisons;
 *   dist      from a run file: bars of P(= k) and a line of P(>= k) with its
 *             Wilson intervals for one count field (default:
 *             om_chart_dist_default); a two-byte count (a turn's victory
 *             points) at the values that occurred;
 *   flags     from a run file: one horizontal bar per yes/no field, its
 *             probability with its Wilson interval, labelled by the field's
 *             whole description, in file order or the order asked for (drawn
 *             from a plain array of items, chart_int.h, so that any yes/no
 *             quantity can be drawn alike);
 *   heatmap   from a matrix file: the row unit's expected score (wins + draws/2
 *             over decided trials) per cell, pooled over the selected
 *             situations, on the cividis scale (readable in grey and by every
 *             kind of colour vision), the score and "win·draw·lose" percentages
 *             in each cell, unit names with points, situation titles;
 *   fair      from a matrix file: each unit's fair points (efficiency.h) against
 *             its printed cost, with interval bars and the line fair = cost;
 *             names placed where they cover no other name, marker or bar, and
 *             a footnote naming the units not drawn and why;
 *   points    from a battle file: one row per unit, two bars, the victory
 *             points it scored and gave up a battle (means with their normal
 *             intervals, summary.h, no lower than 0), side A's units first,
 *             within a side the best scorers for their cost first
 *             (om_summary_unit_points_rank).
 *
 * Several run files in one odds chart are series, each labelled by what
 * differs between the files' provenance (rule set, kind, units, the resolved
 * scenario's values, else title, seed, trials, scenario, file); files that mix
 * games or kinds are drawn with a note, and a warning for the caller
 * (om_chart_options.notes).
 *
 * One drawing routine serves every format, on a canvas with two backends: PNG
 * and PDF through cairo, SVG written by hand so that text stays text (<text>
 * elements with a <title> and a <desc> holding the manifest); PDF carries the
 * title and manifest as metadata. The format follows the output's extension.
 * Sizes are in pixels for PNG and points for SVG and PDF. Titles say what was
 * simulated (units, rule set, situation or kind, trials); a footer carries the
 * manifest (manifest.h), "oddsmaster VERSION · RULESET · ... · seed S · N
 * trials · FILE". Text uses DejaVu Sans (fonts-dejavu-core).
 *
 * Beside the image a CSV of exactly what was plotted is written, named after
 * the image with ".csv" appended (chart.png -> chart.png.csv), so it never
 * takes the name of a file the user keeps beside it; one table with a header
 * line, the manifest as its last column:
 *   odds      file,series,outcome,label,p,lo,hi,count,trials,manifest
 *   dist      field,k,p_equal,p_at_least,lo,hi,manifest   (lo, hi bound p_at_least)
 *   heatmap   row,col,row_points,col_points,trials,wins_row,draws,wins_col,score,manifest
 *   fair      side,army,unit,points,fair_points,lo,hi,manifest
 *   flags     field,label,p,lo,hi,count,trials,manifest
 *   points    unit,name,side,points,scored,scored_lo,scored_hi,given,given_lo,given_hi,
 *             per_100,manifest
 * An existing CSV of that name is replaced if it is a chart's data that
 * oddsmaster wrote (om_chart_csv_is_ours), and refused otherwise unless `force`
 * is set. Both files
 * are written under temporary names and renamed when complete; on failure
 * neither is left behind. Not thread-safe with respect to one output path.
 */
#ifndef OM_CHART_H
#define OM_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "picture.h"
#include "status.h"

/* Smallest and largest width or height accepted, in pixels or points. */
#define OM_CHART_MIN_SIZE 200u
#define OM_CHART_MAX_SIZE 10000u


/* Chart kinds. */
typedef enum om_chart_kind {
    OM_CHART_ODDS = 0, /* win/draw/lose bars from a run file */
    OM_CHART_DIST,     /* distribution and "at least k" of a field from a run file */
    OM_CHART_HEATMAP,  /* expected-score matrix from a matrix file */
    OM_CHART_FAIR,     /* fair points against cost from a matrix file */
    OM_CHART_FLAGS,    /* probabilities of the yes/no fields of a run file */
    OM_CHART_POINTS    /* victory points each unit scored and gave up, from a battle file */
} om_chart_kind;

/* Number of chart kinds. */
#define OM_CHART_KINDS 6

/* Output formats. */
typedef enum om_chart_format {
    OM_CHART_PNG = 0,
    OM_CHART_SVG,
    OM_CHART_PDF
} om_chart_format;

/* What to draw. Zero values mean the defaults. */
typedef struct om_chart_options {
    om_chart_kind kind;    /* which chart */
    const char *field;     /* dist: the field (NULL: om_chart_dist_default) */
    const char *const *fields; /* flags: the yes/no fields to draw, top to bottom in this
                              order, each a name or a shell pattern ("knights_*") whose
                              matches come in file order; NULL: every one that was set in
                              at least one trial, in file order */
    size_t n_fields;       /* entries of fields */
    const char *situation; /* heatmap: a situation name, or NULL/"all" to pool them */
    unsigned width;        /* 0: the kind's default (om_chart_default_size) */
    unsigned height;       /* 0: the kind's default */
    double confidence;     /* of the intervals; 0: 0.95 */
    bool force;            /* replace an existing CSV beside the image that oddsmaster did
                              not write (om_chart_csv_is_ours) */
    char *notes;           /* if not NULL: receives a warning for the user, or "" (odds of
                              files that mix games or kinds); the caller prints it */
    size_t notes_size;     /* bytes at notes */
} om_chart_options;

/* om_chart_kind_parse: "odds", "dist", "heatmap", "fair", "flags" or "points".
 * Errors: OM_EINVAL. */
om_status om_chart_kind_parse(const char *text, om_chart_kind *out);

/*
 * om_chart_format_from_path: the format named by the extension of `path`
 * (.png, .svg, .pdf, in any case). Errors: OM_EINVAL naming the extension.
 */
om_status om_chart_format_from_path(const char *path, om_chart_format *out);

/* Bars of a typical flags chart (the default size om_chart_default_size gives). */
#define OM_CHART_FLAGS_TYPICAL 12u

/* The default size of a kind: odds 1200 x 600, dist 1200 x 700, heatmap 1200 x 1000,
 * fair 1200 x 900, flags and points 1200 wide and as high as their rows need
 * (om_chart_flags_height; for OM_CHART_FLAGS_TYPICAL rows here). */
void om_chart_default_size(om_chart_kind kind, unsigned *width, unsigned *height);

/* om_chart_flags_height: the height a flags chart `width` wide needs for n bars,
 * each bar a little taller than a line of text (at least width / 2). */
unsigned om_chart_flags_height(unsigned width, size_t n);

/*
 * om_chart_kind_default: the kind drawn from `path` when none is asked for:
 * heatmap of a matrix file; of a run file, odds if it has a winner, else dist
 * if it records how side B loses victory points (a volley), else flags if it
 * has a yes/no field (a whole turn), else dist. Errors: those of reading the file
 * (OM_EIO, OM_EHDF5: not an oddsmaster file), OM_ENOMEM.
 */
om_status om_chart_kind_default(const char *path, om_chart_kind *out);

/*
 * om_chart_dist_default: the field a dist chart of the summary's file draws
 * unless told: the field deciding side B's victory points when the file
 * records it (stands_lost_b, lost_b); else side B's victory points themselves,
 * the layout's last two-byte count (vp_lost_b of a whole turn); else its first
 * count field; NULL if it has none. The name points into the summary.
 */
struct om_summary;
const char *om_chart_dist_default(const struct om_summary *s);

/*
 * om_chart_csv_is_ours: whether the existing file `csv_path` is a chart's data
 * that oddsmaster wrote, which a new chart may replace without `force`: a
 * regular file (not a link) whose first line is the header of a chart's CSV
 * and whose next line ends with the manifest ("oddsmaster VERSION · ...").
 * Any other file, or one that cannot be read, is not.
 */
bool om_chart_csv_is_ours(const char *csv_path);

/*
 * om_chart_csv_path: the path of the data CSV written beside `out_path`:
 * `out_path` with ".csv" appended (a new string, caller frees). NULL if out of
 * memory.
 */
char *om_chart_csv_path(const char *out_path);

/*
 * om_chart_files: draw chart `opt->kind` of the `n_in` files `in_paths` (one or
 * more run files for odds, at most OM_CHART_MAX_SERIES; one run file for dist;
 * one matrix file for heatmap and fair; one run file for dist and flags; one
 * battle file for points) to `out_path`, and its CSV beside it; a flags or
 * points chart without a height is as high as its rows need
 * (om_chart_flags_height). Writes opt->notes, if given.
 * Errors: OM_EINVAL (unknown extension, size outside OM_CHART_MIN_SIZE..
 * OM_CHART_MAX_SIZE, odds of a run without a winner, dist of a field that is
 * not in the file or not a count, flags of names that match no yes/no field
 * or of a file with none set, points of a file without each unit's victory
 * points (not a battle), a bad confidence, the wrong number of inputs,
 * an existing CSV that oddsmaster did not write, without `force`), OM_ENOTFOUND
 * (no such situation), OM_EIO (cannot read
 * an input or write an output: the message names the file and the reason),
 * OM_EHDF5 (not a valid run or matrix file; the message says which the chart
 * needs), OM_ENOMEM, and those of om_efficiency_compute (heatmap, fair).
 */
om_status om_chart_files(const char *const *in_paths, size_t n_in, const char *out_path,
                         const om_chart_options *opt);

/* om_chart_file: om_chart_files of the one file `in_path`. */
om_status om_chart_file(const char *in_path, const char *out_path,
                        const om_chart_options *opt);

/* ---- A battlefield (picture.h: plain data a game fills from its table) ---- */

/* The default width of a battlefield chart; its height follows the table's
 * proportions (om_chart_picture_height). */
#define OM_CHART_PICTURE_WIDTH 1400u

/* The height of the chart of `pic` drawn `width` wide: the table at its
 * proportions, and room for the title and the key. */
unsigned om_chart_picture_height(const om_picture *pic, unsigned width);

/*
 * om_chart_picture_render: draw the battlefield `pic` `width` wide in
 * `format` to `out`: the table with each side's deployment zone tinted,
 * terrain pieces with their kinds, every unit still on the table as a
 * rectangle of its side's colour at its place and facing (its front edge
 * dark, dashed white when confused) with its name, each character not slain
 * as a dot of its side's colour, and a key. Errors:
 * OM_EINVAL (a table without size), OM_EIO (the write failed), OM_ENOMEM.
 */
om_status om_chart_picture_render(const om_picture *pic, om_chart_format format, unsigned width,
                                  FILE *out);

/*
 * om_chart_picture_file: om_chart_picture_render to the file `out_path`
 * (.png, .svg or .pdf), written whole or not at all (a temporary file
 * renamed). Errors: OM_EINVAL (an unknown extension, a width outside
 * OM_CHART_MIN_SIZE..OM_CHART_MAX_SIZE), OM_EIO naming the file, OM_ENOMEM.
 */
om_status om_chart_picture_file(const om_picture *pic, const char *out_path, unsigned width);

#endif /* OM_CHART_H */
