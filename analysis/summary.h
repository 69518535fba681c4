/*
 * summary.h: the summary of a result file: outcome probabilities, means,
 * distributions and "at least k" probabilities, each probability with a Wilson
 * interval, and its text, JSON and CSV forms (`oddsmaster summary`).
 *
 * The summary is computed from 256-bin histograms filled by streaming every
 * dataset of the file in chunks, so its memory does not grow with the number of
 * trials. Everything below is derived from those histograms.
 */
#ifndef OM_SUMMARY_H
#define OM_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "exact.h"
#include "h5file.h"
#include "h5matrix.h"
#include "layout.h"
#include "stats.h"
#include "status.h"
#include "tally.h"

/* Schema identifier of the JSON form ("schema" key). */
#define OM_SUMMARY_SCHEMA "oddsmaster-summary/1"

/* Confidence of the intervals unless the caller asks for another one. */
#define OM_SUMMARY_CONFIDENCE 0.95

/* Output forms of a summary. */
typedef enum om_summary_format {
    OM_SUMMARY_TEXT = 0, /* readable report (om_summary_print_text) */
    OM_SUMMARY_JSON,     /* one JSON object (om_summary_print_json) */
    OM_SUMMARY_CSV       /* one row per field and value (om_summary_print_csv) */
} om_summary_format;

/* A probability estimated from trials, with its Wilson interval, and its
 * exact value where the run recorded the law. */
typedef struct om_summary_prob {
    uint64_t count; /* trials in which the event happened */
    double p;       /* count / trials */
    double lo, hi;  /* Wilson interval at the summary's confidence */
    bool has_exact; /* the exact probability is known */
    double exact;   /* ...and is this */
} om_summary_prob;

/* Columns of om_summary.outcome[side]. */
enum { OM_SUMMARY_WIN = 0, OM_SUMMARY_DRAW = 1, OM_SUMMARY_LOSE = 2 };

/* One value a two-byte count field took, with its probabilities. */
typedef struct om_summary_value {
    unsigned value;           /* the value */
    double p_equal;           /* P(field = value) */
    om_summary_prob at_least; /* P(field >= value), with its interval */
} om_summary_value;

/* The summary of one count or flag field of the file. */
typedef struct om_summary_field {
    const om_field *field;              /* the field as the file describes it (owned by the
                                           summary) */
    uint64_t hist[OM_STATS_HIST_BINS];  /* hist[v]: trials in which the field was v (zero for
                                           a two-byte count field: see values) */
    unsigned max;                       /* largest value that occurred */
    double mean;                        /* mean over all trials */
    double sd;                          /* standard deviation (divisor: trials) */
    om_summary_prob at_least[OM_STATS_HIST_BINS]; /* [k]: P(value >= k), k = 0..max(max, 1)
                                           (one-byte fields only) */
    size_t n_values;                    /* a two-byte count field (victory points): the
                                           distinct values that occurred */
    om_summary_value *values;           /* ...each with P(=v) and P(>=v), increasing (owned;
                                           NULL for one-byte fields) */
    const double *exact;                /* its exact law, P(= v) for v = 0..255, as the run
                                           recorded it (in the summary's `exact`), or NULL */
    unsigned shown;                     /* the largest k of its table: the largest value that
                                           occurred or has a positive exact probability */
} om_summary_field;

/* One unit's results of one unit field (per-unit results, layout.h). */
typedef struct om_summary_unit_stat {
    const uint64_t *hist; /* hist[v]: trials in which the unit's value was v, v = 0..the
                             field's max (owned by the summary) */
    unsigned max;         /* largest value that occurred */
    double mean;          /* mean over all trials */
    double sd;            /* standard deviation (divisor: trials) */
    om_summary_prob p;    /* a flag: P(= 1); a count: P(>= 1); with its interval */
} om_summary_unit_stat;

/*
 * om_summary_unit_stat_of: the statistics of one unit's values of a unit
 * field from their histogram hist[0..bins) over `trials` trials (trials > 0),
 * with the interval at `confidence`: what the summary's per-unit section and
 * a chart of a unit field show. out->hist is set to hist (borrowed).
 * Thread-safe. Errors: OM_EINVAL (a bad confidence, no trials).
 */
om_status om_summary_unit_stat_of(const uint64_t *hist, unsigned bins, uint64_t trials,
                                  double confidence, om_summary_unit_stat *out);

/* The summary of one unit field: a row per unit. */
typedef struct om_summary_unit_field {
    const om_field *field;       /* name, description, type, max (owned by the summary) */
    om_summary_unit_stat *unit;  /* [om_summary.unit_count], in the units' order */
} om_summary_unit_field;

/* Most distinct victory-point losses a side's summary lists. */
#define OM_SUMMARY_VP_VALUES 8

/*
 * Victory points a side lost, as the file records how they follow from one of
 * its fields (the game's rule: for Warmaster, a destroyed unit gives its full
 * points, a unit of 3 or more stands reduced to 1 half of them).
 */
typedef struct om_summary_points {
    bool known;         /* the file records the side's points and how it loses them */
    unsigned start;     /* how many of loss_unit it had at the start (e.g. 3 stands) */
    const char *unit;   /* what it loses them by, plural ("stands"; owned by the summary) */
    const char *field;  /* the field deciding them ("stands_lost_b"; owned by the summary) */
    uint64_t points;    /* the side's points value */
    double mean;        /* expected victory points lost */
    size_t n_values;    /* distinct losses possible, in increasing order */
    unsigned value[OM_SUMMARY_VP_VALUES]; /* each loss, starting with 0 */
    double p[OM_SUMMARY_VP_VALUES];       /* its probability */
    bool has_exact;     /* the exact law of the loss field is known: */
    double exact_mean;  /* the exact expected loss */
    double exact_p[OM_SUMMARY_VP_VALUES]; /* the exact probability of each loss */
} om_summary_points;

/* Quantiles of the margin a summary gives (om_summary_margin_levels). */
#define OM_SUMMARY_MARGIN_QUANTILES 5

/* The levels of those quantiles: 5%, 25%, the median, 75%, 95%. */
extern const double om_summary_margin_levels[OM_SUMMARY_MARGIN_QUANTILES];

/*
 * The margin of a file whose layout declares each side's score field
 * (score_field_a, score_field_b: a battle's victory points): A's score less
 * B's, trial by trial, read from the rows.
 */
typedef struct om_summary_margin {
    bool known;          /* the file declares both fields and has its rows */
    char *field[2];      /* the score fields of A and B (owned), or NULL */
    double mean, sd;     /* mean margin and its standard deviation (divisor: trials) */
    double lo, hi;       /* interval of the mean: mean -+ z sd / sqrt(trials) */
    int quantile[OM_SUMMARY_MARGIN_QUANTILES]; /* the smallest margin m with
                            P(margin <= m) >= each level */
    om_summary_prob ahead[2]; /* P(A's margin > 0), P(B's > 0) with their intervals */
} om_summary_margin;

/*
 * What a unit's loss went with, for a file whose layout declares a unit
 * field of the unit lost (unit_lost_field): its side's P(win) in the trials
 * where it was kept less that in the trials where it was lost, with a
 * Newcombe (hybrid Wilson score) interval of the difference. A large
 * difference says the unit's fate went with the outcome: an association
 * over the file's trials, not a cause (a unit lost in a battle already lost
 * counts the same).
 */
typedef struct om_summary_decider {
    uint64_t lost, kept;          /* trials in which the unit was lost / kept */
    om_summary_prob win_lost;     /* P(its side won | it was lost) */
    om_summary_prob win_kept;     /* P(its side won | it was kept) */
    bool known;                   /* both happened: the difference is defined */
    double diff, lo, hi;          /* win_kept.p - win_lost.p and its interval */
} om_summary_decider;

/*
 * The victory points of one unit, for a file whose layout declares the unit
 * fields of the points each unit gave up and scored (unit_given_field,
 * unit_scored_field: a battle's): their means a trial with intervals (mean
 * -+ z sd / sqrt(trials)), read from the rows.
 */
typedef struct om_summary_unit_points {
    double mean[2], sd[2];  /* [0] given up, [1] scored: mean a trial, standard deviation */
    double lo[2], hi[2];    /* normal interval of each mean, its lower end no lower
                               than 0 */
    double per_100;         /* scored per 100 points of the unit's value (mean[1] * 100 /
                               points), or -1 when its points are unknown */
} om_summary_unit_points;

/* The summary of a result file. Strings are NULL when the file lacks the attribute. */
typedef struct om_summary {
    char *file;            /* path of the summarised file */
    char *title;           /* scenario title */
    char *ruleset;         /* rule set identifier */
    char *kind;            /* "combat", "engagement" or "volley" */
    char *program_version; /* version of the program that wrote the file */
    char *unit[2];         /* unit names of sides A and B */
    uint64_t points[2];    /* unit points of sides A and B (0: unknown) */
    bool has_seed;         /* the file records its seed */
    uint64_t seed;         /* master seed of the run */
    uint64_t trials;       /* trials in the file */
    uint64_t trials_requested; /* trials the run was asked for (at most, with a target) */
    bool complete;         /* false for an interrupted run's .partial file */
    char *stop_reason;     /* why the run ended, as the file says (or NULL) */
    double confidence;     /* confidence of every interval, e.g. 0.95 */
    bool has_outcome;      /* the file has a winner field (its "winner") */
    const char *outcome_title; /* heading of its table, e.g. "Outcome" */
    om_summary_prob outcome[2][3]; /* [side][OM_SUMMARY_WIN/DRAW/LOSE] */
    om_summary_prob none;  /* P(no winner): no contact, or unresolved at the turn limit */
    bool has_round1;       /* the file has a second winner field ("round1_winner") */
    const char *round1_title; /* heading of its table, e.g. "First round" */
    om_summary_prob round1[2][3]; /* first-round outcome, [side][WIN/DRAW/LOSE] */
    om_summary_prob round1_none;  /* P(no first round): the charge never made contact */
    om_summary_points lost[2];    /* victory points lost by sides A and B */
    char *points_rule;     /* how victory points are lost, as the file says (or NULL) */
    size_t field_count;    /* entries of fields[] */
    om_summary_field *fields; /* count and flag fields, in the file's order */
    om_field *defs;        /* the file's fields (owned copies), in its order */
    size_t def_count;      /* entries of defs */
    om_exact *exact;       /* the exact law of its fields as the run recorded it (/exact;
                              indexed as defs), or NULL: the file records none (an older
                              program's) */
    size_t unit_count;     /* units with per-unit results (0: none) */
    om_layout_unit *units; /* [unit_count]: id, name, army, side, points (owned) */
    size_t unit_field_count; /* entries of unit_fields */
    om_summary_unit_field *unit_fields; /* in the file's order */
    uint64_t *unit_hist;   /* the histograms every om_summary_unit_stat points into */
    om_summary_margin margin; /* the score margin, where the file declares the scores */
    char *unit_lost_field; /* the unit field of a unit lost, as the file declares it
                              (owned), or NULL */
    om_summary_decider *deciders; /* [unit_count] when unit_lost_field is known and the
                              file has rows, else NULL (owned) */
    char *unit_points_field[2]; /* the unit fields of the points given up and scored, as
                              the file declares them (owned), or NULL */
    om_summary_unit_points *unit_points; /* [unit_count] when both are declared and the
                              file has rows, else NULL (owned) */
    size_t n_warnings;     /* lines the scenario's provenance names as left out */
    char **warnings;       /* ...each (rules not modelled; owned), or NULL */
} om_summary;

/*
 * om_summary_unit_points_rank: the units of s in the order its victory points
 * of each unit are shown (summary text, the points chart): side A first, then
 * within a side the best scorers for their cost first (per_100 falling; a unit
 * of unknown points last), ties by index. `order` receives s->unit_count unit
 * indices. Requires s->unit_points (not NULL). Pure: thread-safe.
 */
void om_summary_unit_points_rank(const om_summary *s, size_t *order);

/* The statistics of unit `unit` (an index of s->units) of unit field `name`,
 * or NULL when the summary has no such unit field or unit. */
const om_summary_unit_stat *om_summary_unit(const om_summary *s, const char *name, size_t unit);

/*
 * om_summary_compute: summarise the open result file `r` with intervals at
 * `confidence` (0 < confidence < 1; OM_SUMMARY_CONFIDENCE is the usual 0.95),
 * from the tallies the run recorded (h5file.h): it reads no row; with the
 * exact law the run recorded (/exact), if any, beside every estimate. On success
 * *out is a new summary owned by the caller (om_summary_free). Not thread-safe
 * for one reader. Errors: OM_EINVAL (bad confidence), OM_ENOMEM, OM_EHDF5 (read
 * failure, tallies that do not add up, a winner value that is not a, b, draw
 * or none, or a damaged /exact).
 */
om_status om_summary_compute(om_h5_reader *r, double confidence, om_summary **out);

/*
 * om_summary_compute_rows: the same summary computed from the per-trial rows,
 * every row counted again (a file with rows only; om_h5_reader_check_rows),
 * the check that the tallies say what the rows say (`summary --from-rows`):
 * rows that do not give the tallies' counts, value by value, are an error
 * naming the field, the value and both counts (OM_EHDF5), as is a damaged
 * chunk of rows (its checksum), naming the dataset and its rows.
 */
om_status om_summary_compute_rows(om_h5_reader *r, double confidence, om_summary **out);

/* Free a summary and its strings (NULL allowed). */
void om_summary_free(om_summary *s);

/*
 * om_summary_print_text: a readable report: file, title, rule set, kind, units,
 * trials, seed, program version, and which fields have an exact law; then the
 * outcome table "side  P(win) [CI]  P(draw) [CI]  P(lose) [CI]", each side's
 * line followed by its exact values ("exact 0.853464" under each estimate)
 * where known; then per count field its description, mean and sd, and a table
 * of k, P(=k), P(>=k) and the interval of P(>=k), with the exact P(=k) and
 * P(>=k) and the exact mean and sd where known; then the flags with their
 * probabilities and intervals, and their exact probabilities; then, for a
 * file with per-unit results, "Per unit": for each unit field its
 * description and a table with a row per unit (id, name, side): a flag's
 * P(=1) with its interval, a count's mean, sd and P(>=1) with its interval.
 * Errors: OM_EIO if writing to `out` fails.
 */
om_status om_summary_print_text(const om_summary *s, FILE *out);

/*
 * om_summary_print_json: the summary as one JSON object, keys in this order:
 *   schema           OM_SUMMARY_SCHEMA
 *   file, title, ruleset, kind   strings (null if the file lacks them)
 *   trials           integer
 *   seed             integer; a seed above 2^63-1, which a jansson integer cannot
 *                    hold, is written as its decimal string; null if unknown
 *   program_version  string (null if unknown)
 *   units            {"a": {"name": .., "points": ..}, "b": {..}}
 *   outcome          {"a": {"win": P, "draw": P, "lose": P}, "b": {..}, "none": P},
 *                    each P {"p": .., "lo": .., "hi": .., "exact": .. or null};
 *                    "none" is the
 *                    probability of no winner (no contact, or unresolved at the
 *                    turn limit); null for a file without a winner field (a volley)
 *   round1_outcome   the same for the first round of an engagement run (the
 *                    round1_winner field); null for other runs
 *   points_lost      {"a": {"points", UNIT, "mean", "distribution":
 *                    {"<victory points>": P}}, "b": ..}: victory points each side
 *                    lost (om_summary_points), where UNIT is what it loses them
 *                    by ("stands": how many it had at the start), and "exact":
 *                    {"mean", "distribution"} or null; a side is null when the
 *                    file does not record its points and losses
 *   fields           {"<name>": {"description", "type": "count" or "flag",
 *                    "mean", "sd", "max", "distribution": {"<v>": P(=v), only
 *                    the non-zero ones}, "at_least": {"<k>": P, k = 1..max}}, ..}
 *                    in dataset order; a flag also has "p", "lo", "hi", the
 *                    probability that it is set; a two-byte count (victory
 *                    points) lists "at_least" only at the values that occurred;
 *                    each P of "at_least" has "exact" too, and each field
 *                    "exact": {"mean", "sd", "max", "distribution",
 *                    "at_least": {"<k>": P}} (a flag also "p") or null
 *   confidence       the confidence of every interval, e.g. 0.95
 *   run              {"complete": false for an interrupted run's .partial file,
 *                    "trials_requested": the trials asked for (the most, for a
 *                    run with a target precision), "stop_reason": why it ended}
 *   exact            {"method", "reason", "outcomes", "fields": [names]} of the
 *                    exact law the run recorded, or null
 *   per_unit         null for a file without per-unit results, else
 *                    {"units": [{"id", "name", "army", "side": "a" or "b",
 *                    "points"}, ..] in the file's order, "fields": {"<name>":
 *                    {"description", "type": "count" or "flag", "max" (its
 *                    declared largest value), "units": {"<id>": {"mean", "sd",
 *                    "max" (largest that occurred), "distribution": {"<v>":
 *                    P(=v), the non-zero ones}, and a flag "p" (P(=1)), a
 *                    count "at_least_1" (P(>=1)), each {"p", "lo", "hi"}}, ..}},
 *                    ..} in the file's order}
 * Reals are written with 15 significant digits.
 * Errors: OM_ENOMEM, OM_EIO.
 */
om_status om_summary_print_json(const om_summary *s, FILE *out);

/*
 * om_summary_print_csv: the summary as CSV with the header
 *   field,k,p_equal,p_at_least,lo,hi,exact_equal,exact_at_least
 * and one row per field and value k = 0..max of the field, or to its largest
 * value of positive exact probability (of a two-byte count field, each value
 * that occurred):
 *   field        dataset name, e.g. hits_on_b
 *   k            the value
 *   p_equal      P(field = k)
 *   p_at_least   P(field >= k)
 *   lo, hi       the Wilson interval of p_at_least (at k = 0 both are 1: certain)
 *   exact_equal, exact_at_least   the exact P(field = k) and P(field >= k),
 *                empty where the file records no exact law of the field
 * followed, for a file with a winner field, by the rows win_a, draw_a, lose_a,
 * win_b, draw_b, lose_b and none with k = 1: each outcome as a 0/1 indicator, so
 * p_equal = p_at_least = its probability and lo, hi its interval; and for an
 * engagement run the same for the first round: round1_win_a ... round1_lose_b;
 * then, for a file with per-unit results, the rows of each unit field and
 * unit, field "FIELD[UNIT]" (charged[knights]), k = 0..the field's declared
 * largest value, exact columns empty. Numbers are written with 10 significant digits. Errors: OM_EIO.
 */
om_status om_summary_print_csv(const om_summary *s, FILE *out);

/*
 * om_summary_print_file: open the result file `path`, summarise it at
 * `confidence` (from its tallies, or from its rows when from_rows) and print
 * the summary to `out` in `format`: the whole of
 * `oddsmaster summary`, also used by `oddsmaster run` to print its answer.
 * Errors: those of om_h5_reader_open, om_summary_compute and the printers
 * (OM_EIO, OM_EHDF5, OM_EINVAL, OM_ENOMEM).
 */
om_status om_summary_print_file(const char *path, om_summary_format format, double confidence,
                                bool from_rows, FILE *out);

/* What the report of an exact law says of its scenario (strings borrowed;
 * NULL prints as unknown). */
typedef struct om_summary_about {
    const char *source;  /* the scenario file, or the embedded default's name */
    const char *title;   /* its title */
    const char *ruleset; /* its rule set */
    const char *kind;    /* its kind */
} om_summary_about;

/*
 * om_summary_print_exact: the report of the exact law `x` of the fields of
 * layout `l`, with no run (`oddsmaster run --exact`): the scenario, how the
 * law was computed and which fields have none (and why); then, as a summary
 * shows them but every number exact (6 decimals), the outcome table of each
 * winner field, the victory points each side loses, every count field's
 * mean, sd and P(=k), P(>=k) up to its largest possible value, and each
 * flag's probability. Fields without an exact law are left out. Errors:
 * OM_EINVAL (a law of another layout), OM_EIO (writing to `out` failed).
 */
om_status om_summary_print_exact(const om_summary_about *about, const om_layout *l,
                                 const om_exact *x, FILE *out);

/* ------------------------------------------- a matrix of army lists */

/* Legs of each pairing of a list matrix (sim/matrix.h, OM_MATRIX_LEGS). */
#define OM_SUMMARY_LEGS 4

/* A statistic with its interval (lo and hi NAN when it has none). */
typedef struct om_summary_estimate {
    double value, lo, hi;
} om_summary_estimate;

/* One pairing of a list matrix: row list A against column list B. */
typedef struct om_summary_pairing {
    om_summary_estimate pooled[3];   /* P(A wins), P(draw), P(B wins), over the legs */
    om_summary_estimate margin;      /* the victory-point margin, A's less B's */
    om_summary_estimate first_p;     /* P(A wins) when A takes the first turn less when B
                                        does (the mean over both zones) */
    om_summary_estimate first_margin; /* the same of the margin */
    om_summary_estimate zone_p;      /* P(A wins) with A along the south edge less the north
                                        (the mean over both first sides) */
    om_summary_estimate zone_margin; /* the same of the margin */
    struct {
        uint64_t battles;            /* battles of the leg */
        double p[3];                 /* its P(A wins), P(draw), P(B wins) */
        double margin;               /* its mean margin */
    } leg[OM_SUMMARY_LEGS];          /* south-a-first, south-b-first, north-a-first,
                                        north-b-first */
    bool paired;                     /* the intervals from the battles paired over the legs
                                        (false: the legs taken as independent) */
} om_summary_pairing;

/*
 * om_summary_lists_legs: the situation index of each leg of the list matrix
 * m, in om_summary_pairing.leg's order. Errors: OM_EINVAL (not a matrix of
 * army lists), OM_EHDF5 (a leg missing).
 */
om_status om_summary_lists_legs(const om_matrix *m, size_t leg[OM_SUMMARY_LEGS]);

/*
 * om_summary_lists_pairing: the statistics of pairing (r, c) of the list
 * matrix m at `confidence`: with `o` (the file's battles, om_h5m_outcomes_open)
 * each paired battle by battle over the legs (the mean over the battle
 * indices of a function of the four legs' battle t, its interval normal from
 * their sample variance); with o NULL from the cells' sums, the legs taken as
 * independent. Probabilities' intervals are clipped to [0, 1] (effects to
 * [-1, 1]). Errors: OM_EINVAL (a bad confidence or pairing, not a list
 * matrix), those of reading the battles (OM_EHDF5: legs of different battle
 * counts, unreadable rows), OM_ENOMEM.
 */
om_status om_summary_lists_pairing(const om_matrix *m, om_h5m_outcomes *o, size_t r, size_t c,
                                   double confidence, om_summary_pairing *out);

/*
 * om_summary_lists_print: the text summary of the list matrix m (read from
 * its file, m->path, whose battles are read again where it keeps them) to
 * `out`: its provenance, and per pairing the pooled odds and margin with
 * intervals, each leg's, and the first-turn and zone effects with intervals.
 * Errors: those of om_summary_lists_pairing and of opening the battles,
 * OM_EIO (cannot write).
 */
om_status om_summary_lists_print(const om_matrix *m, double confidence, FILE *out);

#endif /* OM_SUMMARY_H */
