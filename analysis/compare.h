/*
 * compare.h: two result files side by side (`oddsmaster compare A.h5 B.h5`):
 * two runs of one scenario, or two matrices of the same units, under a rule
 * changed between them. Every probability (each outcome of a winner field,
 * P(field >= k) of every count, P(flag)) of two runs, or P(the row unit wins)
 * of every cell and the fair points of every unit (efficiency.h) of two
 * matrices, in both files, their difference B - A and its interval.
 *
 * Pairing. Two files of the same seed, trial count and random streams drew
 * trial t of both from the same dice: their trials are pairs, and where the
 * change between them does not bite a pair is the same trial twice. The
 * difference of two probabilities is then estimated from the per-trial
 * differences d_t = [event in B's trial t] - [event in A's trial t], whose
 * mean is the difference and whose standard deviation is small when few
 * trials differ:
 *     diff = (only_b - only_a) / n,
 *     s^2  = (only_a + only_b - n diff^2) / (n - 1),
 *     interval diff -+ z s / sqrt(n),
 * only_a (only_b) the trials in which the event happened in A (B) alone, z
 * the normal quantile of the confidence (OM_COMPARE_PAIRED). When no trial
 * differs the interval is [0, 0]: the two files agree trial by trial. The
 * pairs need the per-trial rows of both files (a run's /trials, a matrix's
 * /trials/winner) and the same seed, trials, block size and stream scheme
 * (`rng`). With block streams (the default) a trial's dice follow those the
 * trials before it in its block rolled, so a change that alters how many
 * dice a trial rolls leaves the later trials of its block paired with other
 * dice: pairs that differ more, a wider interval, never a wrong one. With
 * trial streams (`run --trial-streams`, `matrix --trial-streams`) every pair
 * keeps its dice. Without pairs, the two files are independent samples and
 * the interval is Newcombe's hybrid score interval (method 10 of Newcombe,
 * Statistics in Medicine 17, 1998) built from the two Wilson intervals
 * [l_a, u_a], [l_b, u_b]:
 *     [diff - sqrt((p_b - l_b)^2 + (u_a - p_a)^2),
 *      diff + sqrt((u_b - p_b)^2 + (p_a - l_a)^2)]   (OM_COMPARE_INDEPENDENT).
 *
 * Fair points. A unit's fair points are a function of every cell of its
 * matrix (the Bradley-Terry fit and the price curve, efficiency.h). The
 * interval of their difference is a bootstrap over the trials of the cells:
 * each replicate redraws every cell's trials with replacement (a
 * multinomial draw of the cell's outcomes: the row unit wins, draw, the
 * column unit wins, no result) and recomputes both files' fair points; the
 * interval is the (1-C)/2 and (1+C)/2 percentiles of the replicates'
 * differences, given to a unit whose difference is defined in at least
 * OM_COMPARE_BOOT_MIN_SHARE of them. Paired, a replicate draws the same
 * trials in both files (a multinomial over the 16 joint outcomes of a
 * pair: OM_COMPARE_PAIRED_BOOTSTRAP); otherwise each file's on their own
 * (OM_COMPARE_INDEPENDENT_BOOTSTRAP). The interval holds the simulation's
 * error only: the units, cells and situations are those of the files, the
 * same in both, and the fair points those defined on them, so the
 * dispersion that widens efficiency's intervals (how far the matchups stray
 * from one strength per unit) is part of what both files define, not noise
 * in their difference. Replicate k draws from om_rng stream (seed, k).
 *
 * Files of different games, scenario kinds, units or layouts (fields, axes,
 * situations) are refused (OM_EINVAL), as is a run beside a matrix.
 * Thread-safety: pure functions of their arguments and files.
 */
#ifndef OM_COMPARE_H
#define OM_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "status.h"

/* Schema identifier of the JSON form. */
#define OM_COMPARE_SCHEMA "oddsmaster-compare/1"

/* Confidence of every interval unless asked otherwise. */
#define OM_COMPARE_CONFIDENCE 0.95

/*
 * Bootstrap replicates of the fair points unless asked otherwise: the Monte
 * Carlo error of a 2.5% percentile from 400 replicates is about
 * sqrt(.025 .975 / 400) = 0.8% in probability, small beside the interval.
 */
#define OM_COMPARE_REPLICATES 400u

/* Fewest and most replicates accepted. */
#define OM_COMPARE_MIN_REPLICATES 20u
#define OM_COMPARE_MAX_REPLICATES 100000u

/* A unit's difference of fair points needs a value in this share of the
 * replicates for an interval (as efficiency's bootstrap asks). */
#define OM_COMPARE_BOOT_MIN_SHARE 0.9

/* Output forms. */
typedef enum om_compare_format {
    OM_COMPARE_TEXT = 0, /* readable report */
    OM_COMPARE_CSV,      /* one row per measure, a header line first */
    OM_COMPARE_JSON,     /* one object, schema OM_COMPARE_SCHEMA */
    OM_COMPARE_MARKDOWN  /* tables for a post */
} om_compare_format;

/* What was compared. */
typedef enum om_compare_kind {
    OM_COMPARE_RUNS = 0,  /* two result files of `run` */
    OM_COMPARE_MATRICES   /* two matrix files of `matrix` */
} om_compare_kind;

/* The interval a difference has. */
typedef enum om_compare_method {
    OM_COMPARE_PAIRED = 0,            /* mean of the per-trial differences -+ z se */
    OM_COMPARE_INDEPENDENT,           /* Newcombe's hybrid score interval */
    OM_COMPARE_PAIRED_BOOTSTRAP,      /* percentiles, the same trials drawn in both files */
    OM_COMPARE_INDEPENDENT_BOOTSTRAP, /* percentiles, each file's trials drawn on their own */
    OM_COMPARE_NO_INTERVAL            /* none: the value is undefined in a file, or too few
                                         replicates define it */
} om_compare_method;

/* One measure of both files. NaN where undefined. */
typedef struct om_compare_row {
    char *section;      /* its table: "Outcome", "hits_on_b", "P(row wins), a-charges",
                           "Fair points" */
    char *label;        /* the measure: "P(A wins)", "P(>= 2)", "Knights vs Orc Warriors",
                           "Knights (Empire, row)" */
    char *key;          /* a stable name for scripts: "winner/a", "hits_on_b/ge/2",
                           "a-charges/empire/knights/orcs/orc-warriors", "fair/row/empire/knights" */
    double a, b;        /* the value in each file */
    double a_lo, a_hi;  /* A's own interval: Wilson's of a probability, efficiency's of fair
                           points */
    double b_lo, b_hi;  /* B's */
    double diff;        /* b - a */
    double lo, hi;      /* the interval of diff */
    om_compare_method method; /* which */
    uint64_t n_a, n_b;  /* trials behind each value (a unit: over its cells taking part) */
    uint64_t only_a, only_b; /* OM_COMPARE_PAIRED: trials where the event happened in A's
                           alone, in B's alone */
    unsigned replicates; /* bootstrap: replicates that defined the difference */
    char *note;         /* why a value is missing or what sets it apart, or NULL */
} om_compare_row;

/* What one file is. Strings owned by the comparison, "" when the file lacks them. */
typedef struct om_compare_file {
    char *path;            /* as given */
    char *game;            /* "warmaster" */
    char *ruleset;         /* "warmaster-revolution" */
    char *kind;            /* the scenario kind, "combat" */
    char *title;           /* a run: the scenario's title; a matrix: "ROWS x COLS" */
    char *program_version; /* the writer's version */
    char *rng;             /* its stream scheme */
    char *options;         /* a matrix: its --option settings ("" none) */
    uint64_t seed;         /* master seed */
    uint64_t trials;       /* trials (a matrix: over every cell) */
    uint64_t trials_per_cell; /* a matrix of a fixed count: per cell; else 0 */
    bool rows;             /* it keeps every trial (a run's rows, a matrix's winners) */
} om_compare_file;

/* What to compute. Zero values are the defaults. */
typedef struct om_compare_options {
    double confidence;   /* of every interval; 0: OM_COMPARE_CONFIDENCE */
    unsigned replicates; /* fair points' bootstrap; 0: OM_COMPARE_REPLICATES */
    uint64_t seed;       /* its streams (0 is a seed like any other) */
    bool independent;    /* take the files as independent samples even where their trials
                            pair: the intervals two separate runs would give */
} om_compare_options;

/* The comparison. */
typedef struct om_compare {
    om_compare_kind kind;     /* runs or matrices */
    om_compare_file file[2];  /* A, B */
    double confidence;        /* of every interval */
    bool paired;              /* the files' trials are pairs */
    char *pairing;            /* one sentence: why they are, or why not */
    char *differences;        /* what differs between the files' provenance, "; "-separated
                                 ("" none found) */
    unsigned replicates;      /* matrices: bootstrap replicates */
    uint64_t boot_seed;       /* matrices: their seed */
    size_t n_rows;            /* measures */
    om_compare_row *rows;     /* in report order, grouped by section */
} om_compare;

/*
 * om_compare_files: compare the result files `path_a` and `path_b` (two runs
 * or two matrices) with options `opt` (NULL: defaults). On success *out is
 * owned by the caller (om_compare_free). Errors: OM_EIO (a missing or
 * unreadable file), OM_EHDF5 (not HDF5, not an oddsmaster result or matrix
 * file, damaged), OM_EINVAL (a run beside a matrix; files of different
 * games, kinds, units, fields, axes or situations, naming what differs; a bad
 * confidence or replicate count), OM_ENOMEM.
 */
om_status om_compare_files(const char *path_a, const char *path_b, const om_compare_options *opt,
                           om_compare **out);

/* Free a comparison (NULL allowed). */
void om_compare_free(om_compare *c);

/*
 * om_compare_print: the comparison in `format`:
 *   text      the files (rule set, seed, trials, options), what differs, how
 *             the intervals are made; then per section a table of measure,
 *             A, B, B - A, its interval and the interval's kind
 *   csv       header section,measure,key,a,b,diff,lo,hi,interval,n_a,n_b,
 *             only_a,only_b,a_lo,a_hi,b_lo,b_hi,note, one row per measure
 *   json      {"schema", "kind", "files": [{...}, {...}], "confidence",
 *             "paired", "pairing", "differences", "bootstrap": {...} or null,
 *             "rows": [{...}]}, null where undefined
 *   markdown  a heading, the files, then per section a table
 * Errors: OM_EIO (write failure), OM_ENOMEM.
 */
om_status om_compare_print(const om_compare *c, om_compare_format format, FILE *out);

/* A short name of an interval's kind: "paired", "independent", ... */
const char *om_compare_method_name(om_compare_method m);

/*
 * om_compare_paired_interval: the paired interval of the difference of two
 * probabilities from n pairs of trials, only_a of which had the event in A's
 * trial alone and only_b in B's alone (definition above), at confidence
 * `confidence`: *diff = (only_b - only_a) / n and [*lo, *hi]. n < 2 leaves
 * the interval undefined (NaN). Errors: OM_EINVAL (only_a + only_b > n, a
 * bad confidence).
 */
om_status om_compare_paired_interval(uint64_t n, uint64_t only_a, uint64_t only_b,
                                     double confidence, double *diff, double *lo, double *hi);

/*
 * om_compare_newcombe: Newcombe's hybrid score interval [*lo, *hi] of
 * x_b/n_b - x_a/n_a from independent samples (definition above). A sample of
 * no trials leaves it undefined (NaN). Errors: OM_EINVAL (x > n, a bad
 * confidence).
 */
om_status om_compare_newcombe(uint64_t x_a, uint64_t n_a, uint64_t x_b, uint64_t n_b,
                              double confidence, double *lo, double *hi);

#endif /* OM_COMPARE_H */
