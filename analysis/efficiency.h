/*
 * efficiency.h: fair points of the units of a matchup matrix (`oddsmaster
 * efficiency`): per unit, its expected score against the field, a
 * Bradley-Terry strength, and the points cost at which it would be an even
 * match for a declared reference field, each with a 95% interval; per opposing
 * army the same; a fit diagnostic and the residual matrix. docs/manual.md
 * ("Fair points") gives the model for readers; this header is its exact
 * definition.
 *
 * Cells. A cell (situation s, row r, column c) takes part when s is selected,
 * it has trials, and neither unit is flagged as unable to do what s asks of it
 * (om_matrix_cell.inapplicable: artillery asked to charge, a unit without
 * missiles asked to shoot). A flagged cell is left out for both units: it is
 * not a fight that happens in a game, and a unit's rating comes only from
 * situations its troop type can take part in. A unit without such a cell is
 * "not rated" (OM_EFFICIENCY_NOT_TAKING_PART). Trials without a winner (no
 * contact, unresolved) are left out; a draw counts half for each side.
 *
 * Measures of unit u over its cells k (each cell weighing the same):
 *   score       expected score, the mean of y_k = (wins + draws/2) / decided
 *               trials; its interval is Wilson's on the effective trials
 *               K^2 / sum(1/n_k) (analysis/stats.h);
 *   p_win, p_draw   the same means of wins/trials and draws/trials;
 *   destroyed   mean enemy victory points destroyed per trial, and per 100
 *               points of the unit's cost (destroyed_per_100): what it kills,
 *               not whether it wins, so it is descriptive, not a rating;
 *   lost        mean own victory points lost per trial;
 *   strength    s_u of the Bradley-Terry model (bt.h) fitted to the scores
 *               pooled over the selected situations:
 *                   P(u scores against v) = 1 / (1 + exp(-(s_u - s_v))).
 *
 * Price curve of a field. Over the units of a field that have a strength and
 * a cost, strength is regressed on ln(points) with one common slope b and one
 * intercept per army: s = a_army + b ln(points). b is the field's exchange
 * rate between points and strength: the log-odds one of its units gains when
 * its cost is multiplied by e. It is the field's own rate, so units of the
 * other axis (the ones being rated) do not move it: adding or removing units
 * beside a unit leaves its fair value alone. When the field cannot carry a
 * curve (fewer units than armies + 2, no spread of costs within an army, or
 * b <= 0), the pooled curve over every rated unit of both axes (one intercept
 * per side and army) stands in, and the report says so. The form is checked
 * on every fit: a quadratic term in ln(points) is added and its t statistic
 * reported (|t| < 2: no curvature the log-linear form misses), and the R^2 of
 * the same fit on points instead of ln(points) is reported for comparison.
 *
 * Fair points. The reference field F of unit u is the rated units with a cost
 * on the other side (of the armies given by om_efficiency_options.field, all
 * by default). Had u cost P, its expected score against F, each field unit v
 * counted once and scaled to equal points through the field's price curve,
 * would be
 *     E_u(P) = (1/|F|) sum_{v in F} sigma(s_u - s_v - b (ln P - ln P_v)),
 * with sigma(z) = 1 / (1 + exp(-z)). The fair points value is the P with
 *     E_u(P) = 1/2,
 * found by bisection on ln P (E_u falls as P rises when b > 0). A unit
 * stronger than its cost gets fair > printed. Only strength differences
 * s_u - s_v and the field's b enter, so the value does not depend on the other
 * units of u's own side, and two units with the same results get the same
 * value. The situation decides who charges: with only "row charges" selected,
 * rows score more than columns of the same strength, and fair values are
 * those of that situation, as declared. The per-army ratings use each army as
 * the field, with that army's own curve.
 *
 * Intervals (OM_EFFICIENCY_COVARIANCE, the default): ln(fair) is a function of
 * the strengths (b is linear in them), so its variance is g' V g with g the
 * gradient by the implicit function theorem and V the strengths' covariance
 * (bt.h) times the dispersion phi = max(1, X^2 / df), X^2 Pearson's statistic
 * over the pooled cells and df = cells - (rated units - 1): when matchups vary
 * more than binomially around the model (rock-paper-scissors), intervals widen
 * accordingly (quasi-likelihood, McCullagh and Nelder 1989, section 4.5). The
 * interval of fair is exp(ln fair -+ z se); b's variance is the larger of the
 * OLS variance from the field units' scatter around the curve and the variance
 * propagated from the strengths, and is added as independent of the
 * strengths. OM_EFFICIENCY_BOOTSTRAP instead
 * refits everything on `replicates` resamples of the cells (drawn with
 * replacement, om_rng stream `seed`), the price curve each time on its units
 * drawn with replacement too (so that the curve's scatter varies b, as the
 * OLS variance does above), and takes percentiles; a unit rated in fewer
 * than OM_EFFICIENCY_BOOT_MIN_SHARE of them gets no bootstrap interval.
 *
 * Diagnostics. r2: 1 - sum n (y - yhat)^2 / sum n (y - ybar)^2 over the pooled
 * cells, the share of the matchups' variation that one strength per unit
 * explains; below OM_EFFICIENCY_WEAK_FIT a warning says that fair values are
 * averages over a field in which who meets whom matters more than strength.
 * A curve's r2, the share of its units' within-army variation of strength that
 * ln(points) explains: below OM_EFFICIENCY_WEAK_FIT a warning says that the
 * costs follow strength loosely, so b and every fair value are uncertain.
 *
 * Thread-safety: pure functions of their arguments (GSL's error handler off).
 */
#ifndef OM_EFFICIENCY_H
#define OM_EFFICIENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bt.h"
#include "h5matrix.h"
#include "status.h"
#include "summary.h"

/* Schema identifier of the JSON form. */
#define OM_EFFICIENCY_SCHEMA "oddsmaster-efficiency/2"

/* Situation index meaning "every situation, pooled". */
#define OM_EFFICIENCY_ALL SIZE_MAX

/* Confidence of every interval unless asked otherwise. */
#define OM_EFFICIENCY_CONFIDENCE 0.95

/*
 * Below this r2 the strengths explain less than half of the matchups'
 * variation around their mean (or the costs less than half of the strengths'
 * variation): a warning is printed with the table.
 */
#define OM_EFFICIENCY_WEAK_FIT 0.5

/*
 * Bootstrap replicates unless asked otherwise: the Monte Carlo error of a 2.5%
 * percentile from 400 replicates is about sqrt(.025 .975 / 400) = 0.8% in
 * probability, small beside the interval itself.
 */
#define OM_EFFICIENCY_REPLICATES 400u

/* Most bootstrap replicates accepted. */
#define OM_EFFICIENCY_MAX_REPLICATES 100000u

/* A unit needs a fair value in this share of replicates for a bootstrap interval. */
#define OM_EFFICIENCY_BOOT_MIN_SHARE 0.9

/* Most armies on one axis (the per-army breakdown). */
#define OM_EFFICIENCY_MAX_ARMIES 64

/* How intervals are computed. */
typedef enum om_efficiency_interval {
    OM_EFFICIENCY_COVARIANCE = 0, /* delta method on the fit's covariance (default) */
    OM_EFFICIENCY_BOOTSTRAP       /* percentiles of a bootstrap over cells */
} om_efficiency_interval;

/* Output forms. */
typedef enum om_efficiency_format {
    OM_EFFICIENCY_TEXT = 0, /* readable report */
    OM_EFFICIENCY_CSV,      /* one long table (om_efficiency_table) */
    OM_EFFICIENCY_JSON,     /* one object, schema OM_EFFICIENCY_SCHEMA */
    OM_EFFICIENCY_MARKDOWN  /* tables for a blog post or README */
} om_efficiency_format;

/* Which table a CSV holds (one table per file). */
typedef enum om_efficiency_table {
    OM_EFFICIENCY_TABLE_UNITS = 0, /* side,army,unit,id,points,troop,field,measure,value,lo,hi,status,manifest */
    OM_EFFICIENCY_TABLE_MODEL,     /* measure,value,lo,hi,manifest */
    OM_EFFICIENCY_TABLE_RESIDUALS  /* row,col,games,observed,predicted,residual,manifest */
} om_efficiency_table;

/* What to compute. Zero values are the defaults. */
typedef struct om_efficiency_options {
    size_t situation;            /* a situation index, or OM_EFFICIENCY_ALL */
    double confidence;           /* of every interval; 0: OM_EFFICIENCY_CONFIDENCE */
    om_efficiency_interval interval; /* covariance (default) or bootstrap */
    unsigned replicates;         /* bootstrap replicates; 0: OM_EFFICIENCY_REPLICATES */
    uint64_t seed;               /* bootstrap stream seed */
    const char *const *field;    /* armies of the reference field; NULL: all */
    size_t n_field;              /* entries of field */
} om_efficiency_options;

/* Sides of a unit. */
enum { OM_EFFICIENCY_ROW = 0, OM_EFFICIENCY_COL = 1 };

/* Why a unit has (or lacks) a fair value. */
typedef enum om_efficiency_status {
    OM_EFFICIENCY_RATED = 0,        /* fair value and interval */
    OM_EFFICIENCY_NOT_TAKING_PART,  /* no cell its troop type can take part in */
    OM_EFFICIENCY_NO_STRENGTH,      /* strength not estimable (bt_status says why) */
    OM_EFFICIENCY_NO_COST,          /* its points cost is unknown (0) */
    OM_EFFICIENCY_NO_CURVE,         /* no price curve for its field (model.curve[side].reason) */
    OM_EFFICIENCY_NO_FIELD          /* no rated unit with a cost in its reference field */
} om_efficiency_status;

/* A value with its interval (NaN where undefined). */
typedef struct om_efficiency_value {
    double value, lo, hi;
} om_efficiency_value;

/* A unit against one field: the whole reference field or one opposing army. */
typedef struct om_efficiency_rating {
    size_t cells;              /* cells taking part against that field */
    om_efficiency_value score; /* observed expected score, Wilson interval */
    om_efficiency_value fair;  /* fair points against that field */
    double ln_fair_se;         /* standard error of ln(fair) (covariance method) */
    double slope;              /* b of the curve that priced that field */
} om_efficiency_rating;

/* One unit's line of the report. */
typedef struct om_efficiency_unit {
    int side;                   /* OM_EFFICIENCY_ROW or OM_EFFICIENCY_COL */
    size_t index;               /* index on its axis */
    const om_matrix_unit *unit; /* name, id, points, army (borrowed from the matrix) */
    size_t army;                /* index into om_efficiency.armies[side] */
    size_t cells;               /* cells taking part */
    size_t cells_excluded;      /* cells with trials left out as inapplicable */
    uint64_t trials;            /* trials over the cells taking part */
    double p_win, p_draw;       /* means of the cells' shares */
    double destroyed, destroyed_per_100, lost; /* victory points per trial */
    om_efficiency_status status; /* whether it has a fair value */
    om_bt_status bt_status;     /* whether the strength was estimated */
    om_efficiency_value strength; /* Bradley-Terry strength and interval */
    double strength_se;         /* its standard error, dispersion included */
    om_efficiency_rating overall; /* against the reference field */
    om_efficiency_rating *by_army; /* [n_armies of the other side] */
    double fair_minus_points;   /* overall.fair.value - printed points */
    unsigned boot_ok;           /* bootstrap: replicates in which it had a fair value */
} om_efficiency_unit;

/* A price curve: the strengths of some units against ln(points). */
typedef struct om_efficiency_curve {
    bool defined;             /* a slope b > 0 exists */
    const char *reason;       /* why not (static text) */
    bool pooled;              /* the pooled curve stands in for the field's */
    size_t units;             /* units in the curve */
    size_t groups;            /* its intercepts (armies; sides and armies when pooled) */
    om_efficiency_value slope; /* b with its interval */
    double slope_se;          /* its standard error */
    double r2;                /* within-group R^2 of strength on ln(points) */
    double r2_linear;         /* the same on points, for comparison */
    double quadratic_t;       /* t of a (ln points)^2 term added to the curve */
    bool weak;                /* r2 < OM_EFFICIENCY_WEAK_FIT */
} om_efficiency_curve;

/* The curves and the diagnostics of the fit. */
typedef struct om_efficiency_model {
    size_t rated;             /* units with a strength */
    size_t cells;             /* pooled cells between rated units */
    double r2;                /* matchups explained by the strengths */
    double dispersion;        /* phi = max(1, X^2 / df) */
    double pearson_x2;        /* X^2 */
    double df;                /* its degrees of freedom */
    bool weak;                /* r2 < OM_EFFICIENCY_WEAK_FIT */
    /* curve[side]: the curve pricing the reference field of the units of `side`
     * (the other axis's units), the pooled one standing in if need be. */
    om_efficiency_curve curve[2];
    om_efficiency_curve pooled; /* over every rated unit with a cost, both axes */
} om_efficiency_model;

/* The report. */
typedef struct om_efficiency {
    const om_matrix *m;       /* the matrix (borrowed; must outlive the report) */
    om_efficiency_options opt; /* as given, defaults filled in (field borrowed) */
    size_t n_units;           /* R + C */
    om_efficiency_unit *units; /* rows first, then columns */
    size_t n_armies[2];       /* armies on each side ("" counts as one army) */
    const char *armies[2][OM_EFFICIENCY_MAX_ARMIES]; /* their names (borrowed) */
    bool in_field[2][OM_EFFICIENCY_MAX_ARMIES]; /* army is in the reference field */
    om_bt_fit *bt;            /* the strength model */
    double *trials;           /* [R*C] trials of the cells taking part, pooled */
    double *wins, *draws, *losses; /* [R*C] outcomes of the row unit, pooled likewise */
    double *observed, *predicted, *residual; /* [R*C] score shares (bt.h) */
    om_efficiency_model model; /* price curve and diagnostics */
} om_efficiency;

/*
 * om_efficiency_situation_find: the index of the situation named `name` in `m`,
 * or OM_EFFICIENCY_ALL for "all" (or NULL). Errors: OM_ENOTFOUND, naming the
 * known situations.
 */
om_status om_efficiency_situation_find(const om_matrix *m, const char *name, size_t *index);

/*
 * om_efficiency_compute: the report of matrix `m` with options `opt` (NULL:
 * defaults). On success *out is owned by the caller (om_efficiency_free) and
 * borrows from `m` and opt->field. Errors (the message names the file):
 * OM_EINVAL (bad situation, confidence or replicates; a unit without any trial
 * in the selected situations, naming it and /cells/trials; an army none of
 * whose units can take part, naming it and /cells/inapplicable; a field army
 * that is not in the matrix; more than OM_EFFICIENCY_MAX_ARMIES armies on an
 * axis), OM_ENOMEM, and those of om_bt_fit_alloc.
 */
om_status om_efficiency_compute(const om_matrix *m, const om_efficiency_options *opt,
                                om_efficiency **out);

/* Free a report (NULL allowed). */
void om_efficiency_free(om_efficiency *e);

/* A short phrase for a unit's status ("rated", "does not take part ..."). */
const char *om_efficiency_status_name(const om_efficiency_unit *u);

/* The display name of army `a` of `side` ("(unknown army)" for ""). */
const char *om_efficiency_army_name(const om_efficiency *e, int side, size_t a);

/*
 * om_efficiency_print: write the report to `out` in `format`:
 *   text      manifest header, the unit table (score, strength, fair points,
 *             each with its interval), the fit diagnostic and any warning, the
 *             per-army table, the residual matrix;
 *   csv       the one table `table` (om_efficiency_table), long form: one row
 *             per unit, field and measure, a header line first, no comments;
 *             the manifest line is the last column of every row;
 *   json      {"schema", "file", "manifest": {...}, "situations", "confidence",
 *             "interval": {"method", "replicates", "seed"}, "field", "model":
 *             {...}, "warnings": [...], "units": [{..., "overall": {...},
 *             "by_army": {"ARMY": {...}}}], "residuals": {...}}; null where
 *             undefined;
 *   markdown  a heading, the unit table, the diagnostic, the manifest.
 * `table` matters for csv only. Errors: OM_EIO (write failure), OM_ENOMEM.
 */
om_status om_efficiency_print(const om_efficiency *e, om_efficiency_format format,
                              om_efficiency_table table, FILE *out);

/* ------------------------------------------- ratings of army lists */

/* The ratings of the lists of a matrix of army lists (`matrix --lists`). */
typedef struct om_efficiency_lists {
    size_t n_players;                /* lists in the pool (rows and columns, each once) */
    const om_matrix_unit **player;   /* [n_players] each list (borrowed from the matrix) */
    om_summary_estimate *strength;   /* [n_players] Bradley-Terry strengths (log-odds,
                                        summing to 0) with intervals */
    om_summary_estimate term[2];     /* log-odds of A scoring: A first less B first; A
                                        south less A north */
    om_summary_estimate *apart;      /* [n_players^2] the difference of strengths i - j,
                                        with its interval */
    double confidence;               /* of every interval */
    bool bootstrap;                  /* intervals by the bootstrap over battles (false:
                                        normal, from the fit: a file of --no-rows) */
    size_t replicates;               /* bootstrap replicates fitted */
    size_t replicates_failed;        /* replicates without an estimate, left out */
} om_efficiency_lists;

/*
 * om_efficiency_lists_rate: rate the lists of the list matrix m: one
 * Bradley-Terry strength per list of the pool (a list named alike on both
 * axes is one), with the first turn and the zones as terms, fitted on every
 * pairing and leg (om_bt_pool_fit, draws half a win); with the file's
 * battles, intervals by `replicates` bootstrap replicates (seeded by `seed`)
 * that resample battle indices within each pairing, the four legs of a
 * battle together (they share dice and terrain), percentiles at
 * `confidence`; without them (or with 0 replicates) the fit's normal
 * intervals. Free with om_efficiency_lists_free. Errors: OM_EINVAL (not a
 * list matrix, one list only, a bad confidence, no estimate: a list that won
 * or lost every battle), OM_EHDF5 (legs of different sizes, unreadable
 * battles), OM_ENOMEM.
 */
om_status om_efficiency_lists_rate(const om_matrix *m, double confidence, uint64_t replicates,
                                   uint64_t seed, om_efficiency_lists **out);
void om_efficiency_lists_free(om_efficiency_lists *e);

/*
 * om_efficiency_lists_print: the ratings as text: each list's strength and
 * the chance it beats a list of strength 0, the two terms, and a warning for
 * every two lists whose difference's interval holds 0 (the matrix cannot
 * tell them apart). Errors: OM_EIO (cannot write).
 */
om_status om_efficiency_lists_print(const om_efficiency_lists *e, const om_matrix *m,
                                    FILE *out);

#endif /* OM_EFFICIENCY_H */
