/*
 * cmd_efficiency.c: `oddsmaster efficiency`, the points efficiency of the units
 * of a matchup matrix file as text, CSV, JSON or Markdown (analysis/efficiency.h).
 */
#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "efficiency.h"
#include "h5matrix.h"
#include "summary.h"

/* The arguments of `efficiency`. */
typedef struct efficiency_args {
    const char *situation; /* one situation of the file, or NULL/"all" for all */
    unsigned format;       /* om_efficiency_format */
    double confidence;     /* confidence of the P(win) intervals */
} efficiency_args;

/* In om_efficiency_format order. */
static const char *const format_names[] = {"text", "csv", "json", "markdown", NULL};

static const om_cli_option efficiency_options[] = {
    {.name = "situation", .letter = 's', .value = OM_CLI_TEXT,
     .offset = offsetof(efficiency_args, situation), .metavar = "NAME",
     .help = "analyse one situation of the file; 'all' (default)\npools every situation"},
    {.name = "format", .letter = 'f', .value = OM_CLI_CHOICE,
     .offset = offsetof(efficiency_args, format), .metavar = "FORMAT", .choices = format_names,
     .help = "text (default), csv, json (schema\n\"" OM_EFFICIENCY_SCHEMA "\") or markdown"},
    {.name = "confidence", .letter = 'c', .value = OM_CLI_REAL,
     .offset = offsetof(efficiency_args, confidence), .metavar = "C", .lo = 0.0, .hi = 1.0,
     .help = "confidence of the P(win) intervals, 0 < C < 1\n(default 0.95)"},
};

static const efficiency_args efficiency_defaults = {
    .format = OM_EFFICIENCY_TEXT, .confidence = OM_SUMMARY_CONFIDENCE};

static int efficiency_run(const om_cli_args *args)
{
    const efficiency_args *a = args->values;
    om_matrix *m = NULL;
    om_efficiency *e = NULL;
    size_t index;
    om_status st;
    if ((st = om_h5m_read(args->operands[0], &m)) == OM_OK &&
        (st = om_efficiency_situation_find(m, a->situation, &index)) == OM_OK &&
        (st = om_efficiency_compute(m, index, a->confidence, &e)) == OM_OK)
        st = om_efficiency_print(e, (om_efficiency_format)a->format, stdout);
    om_efficiency_free(e);
    om_h5m_matrix_free(m);
    return st == OM_OK ? OM_EXIT_OK : om_cli_fail("efficiency", st);
}

const om_cli_command om_cli_efficiency = {
    .name = "efficiency",
    .summary = "rate the units of a matrix file: P(win), points, strength",
    .usage = "oddsmaster efficiency FILE.h5 [--situation NAME|all]\n"
             "                             [--format text|csv|json|markdown] [--confidence C]",
    .about =
        "Rate every unit of a matchup matrix file (written by 'oddsmaster matrix':\n"
        "each unit of one list against each unit of another) for value for points.",
    .more =
        "Per unit (rows and columns alike; the field of a row unit is the columns):\n"
        "  P(win)      mean over opponents and situations of the chance of winning,\n"
        "              with a Wilson interval on the pooled trials\n"
        "  kill/100    expected enemy points destroyed per 100 points of its cost\n"
        "  lost        expected own points lost\n"
        "  strength    Bradley-Terry strength (log-odds scale, with standard error)\n"
        "              fitted by maximum likelihood to the whole win matrix; a draw\n"
        "              counts as half a win. A unit that won or lost everything is\n"
        "              reported as not estimable\n"
        "  fair        fair points value: strength is regressed on ln(points) with\n"
        "              one intercept per side, strength = a + b ln(points); the fair\n"
        "              value is the cost at which that line reaches the unit's own\n"
        "              strength, exp((strength - a) / b). Not defined when fewer than\n"
        "              3 units qualify, costs do not vary, or b <= 0\n"
        "  diff        fair value minus printed cost (positive: under-costed)\n"
        "Then the residual matrix, observed minus predicted share of the row unit's\n"
        "score: a cell far from 0 is a matchup the single strength does not explain\n"
        "(rock-paper-scissors). Every form starts or ends with the manifest: program\n"
        "version, rule set, data version, seed and trials, to regenerate the numbers.",
    .exits =
        "  2  no situation of that name in the file\n"
        "  3  the file cannot be read, is not HDF5, or is not a valid matrix file;\n"
        "     or the output cannot be written\n"
        "  4  out of memory or an unexpected failure\n",
    .options = efficiency_options,
    .n_options = sizeof efficiency_options / sizeof efficiency_options[0],
    .values_size = sizeof(efficiency_args),
    .defaults = &efficiency_defaults,
    .min_operands = 1,
    .max_operands = 1,
    .operands = "the matrix file (FILE.h5)",
    .run = efficiency_run,
};
