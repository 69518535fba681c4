/*
 * cmd_efficiency.c: `oddsmaster efficiency`, the points efficiency of the units
 * of a matchup matrix file as text, CSV, JSON or Markdown (analysis/efficiency.h).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "efficiency.h"
#include "h5matrix.h"

/* The arguments of `efficiency`. */
typedef struct efficiency_args {
    const char *situation; /* one situation of the file, or NULL/"all" for all */
    unsigned format;       /* om_efficiency_format */
    unsigned table;        /* om_efficiency_table (csv) */
    double confidence;     /* confidence of every interval */
    unsigned interval;     /* om_efficiency_interval */
    uint64_t replicates;   /* bootstrap replicates */
    uint64_t seed;         /* bootstrap seed */
    om_cli_texts field;    /* armies of the reference field */
} efficiency_args;

/* In om_efficiency_format, om_efficiency_table and om_efficiency_interval order. */
static const char *const format_names[] = {"text", "csv", "json", "markdown", NULL};
static const char *const table_names[] = {"units", "model", "residuals", NULL};
static const char *const interval_names[] = {"covariance", "bootstrap", NULL};

static const om_cli_option efficiency_options[] = {
    {.name = "situation", .letter = 's', .value = OM_CLI_TEXT,
     .offset = offsetof(efficiency_args, situation), .metavar = "NAME",
     .complete = {OM_CLI_COMPLETE_SITUATION, NULL, "all"},
     .help = "rate in one situation of the file; 'all' (default)\npools every situation"},
    {.name = "field", .letter = 'F', .value = OM_CLI_TEXTS,
     .offset = offsetof(efficiency_args, field), .metavar = "ARMY",
     .complete = {OM_CLI_COMPLETE_ARMY, NULL, NULL},
     .help = "the reference field: the units of ARMY on the other\naxis, ARMY its id "
             "(orcs-goblins) or its name in\nany case ('Orcs & Goblins'); repeatable; default:\n"
             "every unit of the other axis"},
    {.name = "interval", .letter = 'i', .value = OM_CLI_CHOICE,
     .offset = offsetof(efficiency_args, interval), .metavar = "METHOD",
     .choices = interval_names,
     .help = "covariance (default: delta method on the fit's\ncovariance times the "
             "dispersion) or bootstrap\n(percentiles of refits on resampled cells)"},
    {.name = "replicates", .letter = 'B', .value = OM_CLI_U64,
     .offset = offsetof(efficiency_args, replicates), .metavar = "N", .min = 20,
     .max = OM_EFFICIENCY_MAX_REPLICATES,
     .help = "bootstrap replicates (default 400)"},
    {.name = "seed", .value = OM_CLI_U64, .offset = offsetof(efficiency_args, seed),
     .metavar = "S", .min = 0, .max = UINT64_MAX,
     .help = "seed of the bootstrap's resampling (default 1)"},
    {.name = "format", .letter = 'f', .value = OM_CLI_CHOICE,
     .offset = offsetof(efficiency_args, format), .metavar = "FORMAT", .choices = format_names,
     .help = "text (default), csv, json (schema\n\"" OM_EFFICIENCY_SCHEMA "\") or markdown"},
    {.name = "table", .letter = 't', .value = OM_CLI_CHOICE,
     .offset = offsetof(efficiency_args, table), .metavar = "TABLE", .choices = table_names,
     .help = "csv: which table, one per file: units (default),\nmodel or residuals"},
    {.name = "confidence", .letter = 'c', .value = OM_CLI_REAL,
     .offset = offsetof(efficiency_args, confidence), .metavar = "C", .lo = 0.0, .hi = 1.0,
     .help = "confidence of every interval, 0 < C < 1\n(default 0.95)"},
};

static const efficiency_args efficiency_defaults = {
    .format = OM_EFFICIENCY_TEXT, .confidence = OM_EFFICIENCY_CONFIDENCE,
    .interval = OM_EFFICIENCY_COVARIANCE, .replicates = OM_EFFICIENCY_REPLICATES, .seed = 1};

/* `efficiency` of a matrix of army lists (matrix --lists): the lists'
 * ratings, by the bootstrap over battles unless --interval covariance. */
static int lists_run(const om_cli_args *args, const efficiency_args *a, om_matrix *m)
{
    static const char *const unit_only[] = {"situation", "field", "table", "format"};
    const bool normal = om_cli_given(&om_cli_efficiency, args, "interval") &&
                        a->interval == OM_EFFICIENCY_COVARIANCE;
    om_efficiency_lists *e = NULL;
    om_status st;
    for (size_t i = 0; i < sizeof unit_only / sizeof unit_only[0]; i++)
        if (om_cli_given(&om_cli_efficiency, args, unit_only[i]))
            return om_cli_usage_error("efficiency", "--%s is for a matrix of units; the "
                                      "ratings of a matrix of army lists are text, with "
                                      "--interval, --replicates, --seed and --confidence",
                                      unit_only[i]);
    if (normal && (om_cli_given(&om_cli_efficiency, args, "replicates") ||
                   om_cli_given(&om_cli_efficiency, args, "seed")))
        return om_cli_usage_error("efficiency", "--replicates and --seed apply to "
                                  "--interval bootstrap only");
    if ((st = om_efficiency_lists_rate(m, a->confidence, normal ? 0 : a->replicates, a->seed,
                                       &e)) == OM_OK)
        st = om_efficiency_lists_print(e, m, stdout);
    om_efficiency_lists_free(e);
    return st == OM_OK ? OM_EXIT_OK : om_cli_fail("efficiency", st);
}

static int efficiency_run(const om_cli_args *args)
{
    const efficiency_args *a = args->values;
    om_efficiency_options opt = {.confidence = a->confidence,
                                 .interval = (om_efficiency_interval)a->interval,
                                 .replicates = (unsigned)a->replicates, .seed = a->seed,
                                 .field = a->field.count > 0 ? a->field.value : NULL,
                                 .n_field = a->field.count};
    om_matrix *m = NULL;
    om_efficiency *e = NULL;
    om_status st;
    if (om_cli_given(&om_cli_efficiency, args, "table") && a->format != OM_EFFICIENCY_CSV)
        return om_cli_usage_error("efficiency", "--table applies to --format csv only");
    if ((st = om_h5m_read(args->operands[0], &m)) != OM_OK)
        return om_cli_fail("efficiency", st);
    if (m->info.battle_margins) {
        int rc = lists_run(args, a, m);
        om_h5m_matrix_free(m);
        return rc;
    }
    if ((om_cli_given(&om_cli_efficiency, args, "replicates")
         || om_cli_given(&om_cli_efficiency, args, "seed"))
        && a->interval != OM_EFFICIENCY_BOOTSTRAP) {
        om_h5m_matrix_free(m);
        return om_cli_usage_error("efficiency", "--replicates and --seed apply to "
                                  "--interval bootstrap only");
    }
    if ((st = om_efficiency_situation_find(m, a->situation, &opt.situation)) == OM_OK &&
        (st = om_efficiency_compute(m, &opt, &e)) == OM_OK)
        st = om_efficiency_print(e, (om_efficiency_format)a->format,
                                 (om_efficiency_table)a->table, stdout);
    om_efficiency_free(e);
    om_h5m_matrix_free(m);
    return st == OM_OK ? OM_EXIT_OK : om_cli_fail("efficiency", st);
}

const om_cli_command om_cli_efficiency = {
    .name = "efficiency",
    .summary = "fair points of the units of a matrix file, with intervals",
    .usage = "oddsmaster efficiency FILE.h5 [--situation NAME|all] [--field ARMY]...\n"
             "                             [--interval covariance|bootstrap] [--replicates N]\n"
             "                             [--seed S] [--format text|csv|json|markdown]\n"
             "                             [--table units|model|residuals] [--confidence C]",
    .about =
        "Rate every unit of a matchup matrix file (written by 'oddsmaster matrix': the\n"
        "units of some armies against the units of others) for value for points.\n\n"
        "Of a matrix of army lists (oddsmaster matrix --lists): one Bradley-Terry\n"
        "strength per list of the pool (log-odds, draws half a win, a list named on\n"
        "both axes one list), fitted on every pairing and leg with the first turn and\n"
        "the deployment zones as terms; intervals by the bootstrap (--replicates,\n"
        "--seed) resampling battles within each pairing, the four legs of a battle\n"
        "together as they share dice and terrain (--interval covariance, or a file of\n"
        "--no-rows: the fit's normal intervals); a warning names every two lists the\n"
        "matrix cannot tell apart (their difference's interval holds 0). Text only.",
    .more =
        "Per unit, against its field (the units of the other axis, or of --field ARMY):\n"
        "  score       expected score, wins + draws/2, averaged over its cells\n"
        "  strength    Bradley-Terry strength fitted to the whole matrix\n"
        "  fair        fair points: the cost at which it would score 50% against the\n"
        "              field at equal points, through the field's price curve\n"
        "              strength = a(army) + b ln(points):\n"
        "                mean over field v of sigma(s_u - s_v - b ln(fair/points_v)) = 1/2\n"
        "  diff        fair minus printed points (positive: under-costed)\n"
        "  kill/100    enemy points destroyed per 100 points: descriptive only\n"
        "Every value has an interval (--interval). Cells where a unit cannot do what the\n"
        "situation asks of it (flagged in the file) are left out. The fit diagnostic\n"
        "says how much of the matchups one strength per unit explains, with a warning\n"
        "when it is little; then the same per opposing army, and the residuals.\n"
        "CSV is one long table per file (--table), a header line first and the\n"
        "manifest (version, rule set, seed, trials, file) as its last column.",
    .exits =
        "  2  no situation or field army of that name in the file, a unit without\n"
        "     trials, or an army none of whose units can take part\n"
        "  3  the file cannot be read, is not HDF5, or is not a valid matrix file\n"
        "     (damaged: a checksum that does not match; of an older schema); or\n"
        "     the output cannot be written\n"
        "  4  out of memory or an unexpected failure\n",
    .options = efficiency_options,
    .n_options = sizeof efficiency_options / sizeof efficiency_options[0],
    .values_size = sizeof(efficiency_args),
    .defaults = &efficiency_defaults,
    .min_operands = 1,
    .max_operands = 1,
    .operands = "the matrix file (FILE.h5)",
    .operand = {{OM_CLI_COMPLETE_FILE, "*.h5", NULL}},
    .run = efficiency_run,
};
