/*
 * cmd_summary.c: `oddsmaster summary`, the report of a result file as text,
 * JSON or CSV (analysis/summary.h).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "summary.h"

/* The arguments of `summary`. */
typedef struct summary_args {
    unsigned format;   /* om_summary_format: text, json, csv */
    double confidence; /* confidence of every interval */
    bool from_rows;    /* from the rows, not the tallies */
} summary_args;

static const char *const format_names[] = {"text", "json", "csv", NULL};

static const om_cli_option summary_options[] = {
    {.name = "format", .letter = 'f', .value = OM_CLI_CHOICE,
     .offset = offsetof(summary_args, format), .metavar = "FORMAT", .choices = format_names,
     .help = "text (default): a readable report;\n"
             "json: one object, schema \"" OM_SUMMARY_SCHEMA "\";\n"
             "csv: one row per field and value"},
    {.name = "confidence", .letter = 'c', .value = OM_CLI_REAL,
     .offset = offsetof(summary_args, confidence), .metavar = "C", .lo = 0.0, .hi = 1.0,
     .help = "confidence of the intervals, 0 < C < 1 (default 0.95)"},
    {.name = "from-rows", .value = OM_CLI_FLAG, .offset = offsetof(summary_args, from_rows),
     .help = "count every per-trial row again (each chunk's\nchecksum verified) and compare "
             "the counts with\nthe tallies the run kept, value by value: a check\nof the "
             "whole file (slower)"},
};

static const summary_args summary_defaults = {
    .format = OM_SUMMARY_TEXT, .confidence = OM_SUMMARY_CONFIDENCE};

static int summary_run(const om_cli_args *args)
{
    const summary_args *a = args->values;
    char *schema = NULL;
    om_status st;
    /* A matrix of army lists has a summary of its own (text only). */
    if (om_h5m_file_schema(args->operands[0], &schema) == OM_OK &&
        strcmp(schema, OM_H5M_SCHEMA) == 0) {
        om_matrix *m = NULL;
        free(schema);
        if ((st = om_h5m_read(args->operands[0], &m)) == OM_OK && !m->info.battle_margins)
            st = OM_ERROR(OM_EINVAL, "%s: a matrix of units: read it with oddsmaster "
                          "efficiency (summary reads result files and matrices of army "
                          "lists)", args->operands[0]);
        if (st == OM_OK && (a->format != OM_SUMMARY_TEXT || a->from_rows)) {
            om_h5m_matrix_free(m);
            return om_cli_usage_error("summary", "a matrix of army lists has a text summary "
                                      "only: give no --format or --from-rows");
        }
        if (st == OM_OK)
            st = om_summary_lists_print(m, a->confidence, stdout);
        om_h5m_matrix_free(m);
        return st == OM_OK ? OM_EXIT_OK : om_cli_fail("summary", st);
    }
    free(schema);
    om_error_clear();
    st = om_summary_print_file(args->operands[0], (om_summary_format)a->format, a->confidence,
                               a->from_rows, stdout);
    return st == OM_OK ? OM_EXIT_OK : om_cli_fail("summary", st);
}

const om_cli_command om_cli_summary = {
    .name = "summary",
    .summary = "print win/draw/lose odds and distributions from a result file",
    .usage = "oddsmaster summary FILE.h5 [--format text|json|csv] [--confidence C]\n"
             "                          [--from-rows]",
    .about =
        "Summarise a result file written by 'oddsmaster run': the chance that each\n"
        "side wins, draws or loses, and for every per-trial field its mean, standard\n"
        "deviation, full distribution and the chance of at least k, each probability\n"
        "with a Wilson score interval. The numbers come from the tallies the run kept\n"
        "of every field, so no row is read: a file of a billion trials is summarised\n"
        "at once. Where the run recorded the exact law (a combat's first round, a\n"
        "volley, ...), each exact value is printed beside its estimate.\n\n"
        "Of a matrix of army lists (oddsmaster matrix --lists), the text summary of\n"
        "each pairing: P(A wins), P(draw), P(B wins) and the victory-point margin\n"
        "pooled over the four legs, each leg's, and the effect of taking the first\n"
        "turn and of the deployment zones, with intervals paired battle by battle\n"
        "over the legs (the legs taken as independent in a file of --no-rows).",
    .more =
        "Output:\n"
        "  header     file, title, rule set, kind, units and points, trials, seed,\n"
        "             program version\n"
        "  outcome    per side P(win), P(draw), P(lose) with intervals (combat runs),\n"
        "             and of the first round for an engagement\n"
        "  points     the victory points each side lost: mean and distribution\n"
        "  fields     per count field (hits_on_b, stands_lost_a, retreat_cm, ...):\n"
        "             mean, sd (of the simulated values), P(=k) and P(>=k) for each k\n"
        "             up to the largest value seen (or possible, by the exact law),\n"
        "             with the interval of P(>=k)\n"
        "  flags      destroyed_b, confused_b, routed_b, ...: P(set) with interval\n"
        "  exact      with each of the above, its exact value where the file records\n"
        "             the law; the header says which fields have one, and how\n"
        "  per unit   a whole turn's per-unit results (charged, stands_lost, ...): a\n"
        "             table per field with a row per unit (id, name, side): a flag's\n"
        "             P(=1), a count's mean, sd and P(>=1), with intervals\n"
        "  battles    the margin of victory points (A's less B's): mean with its\n"
        "             interval, quantiles; which units decided battles: each unit's\n"
        "             side's P(win) when it was not destroyed less when it was, with\n"
        "             an interval; each unit's mean victory points scored and given\n"
        "             up with intervals, and scored per 100 points of its value; the\n"
        "             special rules and items not modelled (from the rows, for files\n"
        "             whose layout declares them)\n"
        "  JSON keys  schema, file, title, ruleset, kind, trials, seed (a string if\n"
        "             above 2^63-1), program_version, units, outcome, round1_outcome,\n"
        "             points_lost, fields, confidence, run, exact (each probability\n"
        "             has an \"exact\" too, null where unknown), per_unit (null\n"
        "             without per-unit results), margin, decided_by and unit_points\n"
        "             (null but for a battle), not_modelled (lines; [] when none)\n"
        "  CSV        columns field,k,p_equal,p_at_least,lo,hi,exact_equal,\n"
        "             exact_at_least where lo,hi bound p_at_least; rows win_a,\n"
        "             draw_a, lose_a, win_b, draw_b, lose_b, none and, for an\n"
        "             engagement, round1_win_a ... round1_lose_b (k = 1) hold the\n"
        "             outcome probabilities; per-unit results as rows FIELD[UNIT]",
    .exits =
        "  3  the file cannot be read, is not HDF5, or is not a valid result file:\n"
        "     damaged (a chunk whose checksum does not match, named with its rows;\n"
        "     with --from-rows, rows that do not count up to the tallies), its run's\n"
        "     attributes edited since it began, or of an older schema; or the\n"
        "     output cannot be written\n"
        "  4  out of memory or an unexpected failure\n",
    .options = summary_options,
    .n_options = sizeof summary_options / sizeof summary_options[0],
    .values_size = sizeof(summary_args),
    .defaults = &summary_defaults,
    .min_operands = 1,
    .max_operands = 1,
    .operands = "the result file (FILE.h5)",
    .operand = {{OM_CLI_COMPLETE_FILE, "*.h5|*.partial", NULL}},
    .run = summary_run,
};
