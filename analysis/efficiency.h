/*
 * efficiency.h: points efficiency of the units of a matchup matrix (`oddsmaster
 * efficiency`): per unit, how often it wins against the field, how many enemy
 * points it destroys per 100 points it costs, how many of its own points it
 * loses, its Bradley-Terry strength (bt.h), a fair points value and the
 * difference to its printed cost; and the residual matrix of the strength model.
 *
 * Definitions (over the cells of the selected situations with trials > 0; "the
 * field" of a row unit is the column units, and the other way round):
 *   P(win)        the mean over those cells of wins / trials, every opponent and
 *                 situation weighing the same; its Wilson interval uses the
 *                 effective trials K^2 / sum(1/n_k) of the K cells, which is the
 *                 pooled count when every cell ran the same number of trials.
 *   destroyed     the mean over the cells of the enemy's points lost per trial;
 *   destroyed_per_100   100 * destroyed / printed points (n/a for 0 points).
 *   lost          the mean over the cells of the unit's own points lost per trial.
 *   strength      the Bradley-Terry strength fitted to the win matrix summed over
 *                 the selected situations, draws counting half (bt.h), with its
 *                 standard error; rows and columns share one scale.
 *   fair points   Strength is regressed by least squares on log(points) over
 *                 the units with a strength and a cost, with a common slope b and
 *                 one intercept per side (a_row, a_col):
 *                     strength = a_side + b * ln(points).
 *                 The fitted line is what a unit of the list "should" achieve at
 *                 a given cost; a unit's fair points value is the cost at which
 *                 the line reaches the unit's own strength,
 *                     fair = exp((strength - a_side) / b),
 *                 so a unit stronger than its price suggests gets fair > printed.
 *                 One intercept per side because a situation usually favours
 *                 one side (the charger) and, with rows only meeting columns,
 *                 that advantage cannot be told apart from the lists' overall
 *                 balance: fair values compare a unit with its own side. A side
 *                 with a single unit therefore has fair = printed. Undefined
 *                 (with a reason) when fewer than OM_EFFICIENCY_FAIR_MIN_UNITS
 *                 units qualify, when costs do not vary within a side, or when
 *                 b <= 0 (stronger units are not dearer: the costs do not
 *                 explain the results, so no cost can be "fair").
 *                 Why not scale the printed cost by (points destroyed per point)
 *                 / (field average)? That counts only the damage a unit deals,
 *                 not the damage it avoids or whether it wins; the strength uses
 *                 every result of the whole matrix, the fight's actual outcome.
 *   residual      observed minus predicted share of the row unit's score (win 1,
 *                 draw 1/2) in each cell: a large + / - pattern the single
 *                 strength cannot explain shows rock-paper-scissors relations.
 * Every output form carries the manifest (manifest.h).
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

/* Schema identifier of the JSON form. */
#define OM_EFFICIENCY_SCHEMA "oddsmaster-efficiency/1"

/* Situation index meaning "every situation, pooled". */
#define OM_EFFICIENCY_ALL SIZE_MAX

/*
 * Units needed for the fair-points line: two parameters of a line plus one
 * degree of freedom, so that a line through two points is not taken for a fit.
 */
#define OM_EFFICIENCY_FAIR_MIN_UNITS 3

/* Output forms. */
typedef enum om_efficiency_format {
    OM_EFFICIENCY_TEXT = 0, /* readable report */
    OM_EFFICIENCY_CSV,      /* the unit table, then the residual table */
    OM_EFFICIENCY_JSON,     /* one object, schema OM_EFFICIENCY_SCHEMA */
    OM_EFFICIENCY_MARKDOWN  /* tables for a blog post or README */
} om_efficiency_format;

/* Sides of a unit. */
enum { OM_EFFICIENCY_ROW = 0, OM_EFFICIENCY_COL = 1 };

/* One unit's line of the report. Reals are NaN where undefined. */
typedef struct om_efficiency_unit {
    int side;                 /* OM_EFFICIENCY_ROW or OM_EFFICIENCY_COL */
    size_t index;             /* index on its axis */
    const om_matrix_unit *unit; /* name, id, points (borrowed from the matrix) */
    size_t cells;             /* cells with trials > 0 */
    uint64_t trials;          /* trials over those cells */
    uint64_t wins, draws, losses; /* pooled outcomes from this unit's side */
    double p_win, p_win_lo, p_win_hi; /* P(win) against the field and its interval */
    double destroyed;         /* mean enemy points destroyed per trial */
    double destroyed_per_100; /* the same per 100 points of the unit's cost */
    double lost;              /* mean own points lost per trial */
    om_bt_status bt_status;   /* whether the strength was estimated */
    double strength, strength_se; /* Bradley-Terry strength and standard error */
    double fair_points;       /* fair points value */
    double fair_minus_points; /* fair_points - printed points */
} om_efficiency_unit;

/* The report. */
typedef struct om_efficiency {
    const om_matrix *m;       /* the matrix (borrowed; must outlive the report) */
    size_t situation;         /* the selected situation, or OM_EFFICIENCY_ALL */
    double confidence;        /* of the P(win) intervals */
    size_t n_units;           /* R + C */
    om_efficiency_unit *units; /* rows first, then columns */
    om_bt_fit *bt;            /* the strength model */
    double *trials;           /* [R*C] trials summed over the selected situations */
    double *wins, *draws, *losses; /* [R*C] outcomes of the row unit, summed likewise */
    double *observed, *predicted, *residual; /* [R*C] score shares (bt.h) */
    bool fair_defined;        /* the fair-points line exists */
    const char *fair_reason;  /* why not, when it does not (static text) */
    double fair_slope;        /* b */
    double fair_intercept[2]; /* a_row, a_col (NaN for a side without units) */
    double fair_r2;           /* share of the strengths' within-side variance explained */
    size_t fair_units;        /* units in the regression */
} om_efficiency;

/*
 * om_efficiency_situation_find: the index of the situation named `name` in `m`,
 * or OM_EFFICIENCY_ALL for "all" (or NULL). Errors: OM_ENOTFOUND, naming the
 * known situations.
 */
om_status om_efficiency_situation_find(const om_matrix *m, const char *name, size_t *index);

/*
 * om_efficiency_compute: the report of matrix `m` for situation `situation` (an
 * index or OM_EFFICIENCY_ALL) with intervals at `confidence`. On success *out is
 * owned by the caller (om_efficiency_free) and borrows from `m`.
 * Errors: OM_EINVAL (bad situation or confidence), OM_ENOMEM, and those of
 * om_bt_fit_alloc.
 */
om_status om_efficiency_compute(const om_matrix *m, size_t situation, double confidence,
                                om_efficiency **out);

/* Free a report (NULL allowed). */
void om_efficiency_free(om_efficiency *e);

/*
 * om_efficiency_print: write the report to `out` in `format`:
 *   text      manifest header, the unit table, the fair-points line, the
 *             residual matrix;
 *   csv       "# " comment lines with the manifest, the unit table with header
 *             side,unit,id,points,cells,trials,p_win,p_win_lo,p_win_hi,destroyed,
 *             destroyed_per_100,lost,strength,strength_se,status,fair_points,
 *             fair_minus_points; a blank line; a "# residuals" comment and the
 *             table row,col,games,observed,predicted,residual (undefined values
 *             are empty fields);
 *   json      {"schema", "file", "manifest": {line, program_version, ruleset,
 *             data_version, seed, trials, trials_per_cell, target_halfwidth,
 *             command_line}, "situations": [names], "confidence", "model":
 *             {...}, "fair_points": {...}, "units": [...], "residuals": {"rows",
 *             "cols", "observed", "predicted", "residual"}}; undefined values null;
 *   markdown  a heading, the unit table, the residual table, the manifest in
 *             italics.
 * Errors: OM_EIO (write failure), OM_ENOMEM.
 */
om_status om_efficiency_print(const om_efficiency *e, om_efficiency_format format, FILE *out);

#endif /* OM_EFFICIENCY_H */
