/*
 * cmd_compare.c: `oddsmaster compare`, two result files side by side (two
 * runs, or two matrices) with the difference of every probability or fair
 * points value and its interval, as text, CSV, JSON or Markdown
 * (analysis/compare.h).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "compare.h"

#define CMD "compare"

/* The arguments of `compare`. */
typedef struct compare_args {
    unsigned format;     /* om_compare_format */
    double confidence;   /* of every interval */
    uint64_t replicates; /* fair points' bootstrap replicates */
    uint64_t seed;       /* their seed */
    bool independent;    /* unpaired intervals even where the trials pair */
} compare_args;

/* In om_compare_format order. */
static const char *const format_names[] = {"text", "csv", "json", "markdown", NULL};

static const om_cli_option compare_options[] = {
    {.name = "format", .letter = 'f', .value = OM_CLI_CHOICE,
     .offset = offsetof(compare_args, format), .metavar = "FORMAT", .choices = format_names,
     .help = "text (default), csv (one row per measure), json\n(schema \"" OM_COMPARE_SCHEMA
             "\") or markdown"},
    {.name = "confidence", .letter = 'c', .value = OM_CLI_REAL,
     .offset = offsetof(compare_args, confidence), .metavar = "C", .lo = 0.0, .hi = 1.0,
     .help = "confidence of every interval, 0 < C < 1 (default 0.95)"},
    {.name = "replicates", .letter = 'B', .value = OM_CLI_U64,
     .offset = offsetof(compare_args, replicates), .metavar = "N",
     .min = OM_COMPARE_MIN_REPLICATES, .max = OM_COMPARE_MAX_REPLICATES,
     .help = "matrices: bootstrap replicates of the fair points'\ndifferences (default 400)"},
    {.name = "seed", .value = OM_CLI_U64, .offset = offsetof(compare_args, seed),
     .metavar = "S", .min = 0, .max = UINT64_MAX,
     .help = "matrices: seed of that bootstrap (default 1)"},
    {.name = "independent", .value = OM_CLI_FLAG, .offset = offsetof(compare_args, independent),
     .help = "take the files as independent samples even where\ntheir trials pair: the "
             "intervals two separate runs\nwould give, to see what pairing gains"},
};

static const compare_args compare_defaults = {.format = OM_COMPARE_TEXT,
                                              .confidence = OM_COMPARE_CONFIDENCE,
                                              .replicates = OM_COMPARE_REPLICATES, .seed = 1};

static int compare_run(const om_cli_args *args)
{
    const compare_args *a = args->values;
    const om_compare_options opt = {.confidence = a->confidence,
                                    .replicates = (unsigned)a->replicates, .seed = a->seed,
                                    .independent = a->independent};
    om_compare *c = NULL;
    om_status st;
    if (args->n_operands != 2)
        return om_cli_usage_error(CMD, "give two result files, A.h5 B.h5 (got %d)",
                                  args->n_operands);
    if ((st = om_compare_files(args->operands[0], args->operands[1], &opt, &c)) == OM_OK)
        st = om_compare_print(c, (om_compare_format)a->format, stdout);
    om_compare_free(c);
    return st == OM_OK ? OM_EXIT_OK : om_cli_fail(CMD, st);
}

const om_cli_command om_cli_compare = {
    .name = "compare",
    .summary = "two result files side by side: each difference with its interval",
    .usage = "oddsmaster compare A.h5 B.h5 [--format text|csv|json|markdown] [--confidence C]\n"
             "                          [--replicates N] [--seed S] [--independent]",
    .about =
        "Compare two runs of one scenario, or two matrices of the same units, that differ\n"
        "in a rule (an option, a rule set, a value of the scenario): every probability\n"
        "of both files (P(win), P(draw), P(lose) of each side, P(field >= k) of every\n"
        "count, each flag), or of two matrices every cell's P(row wins) and every unit's\n"
        "fair points, with the difference B - A and its interval.\n\n"
        "Two files of the same seed, trials and random streams that keep every trial\n"
        "(a run's rows, a matrix's winners) drew the same dice for each trial: the\n"
        "interval is then paired, from the per-trial differences, and much narrower\n"
        "than two separate intervals where the change bites rarely. Give both runs or\n"
        "matrices --trial-streams and the same seed for the tightest intervals; with\n"
        "the default block streams a change that alters how many dice a trial rolls\n"
        "unpairs the later trials of its block. Otherwise the interval is Newcombe's\n"
        "for independent samples, and the output says why.",
    .more =
        "Intervals (the kind column says which each number has):\n"
        "  paired        mean of the per-trial differences -+ z standard errors\n"
        "  independent   Newcombe's hybrid score interval of two Wilson intervals\n"
        "  paired bootstrap, independent bootstrap\n"
        "                fair points: percentiles of the differences over replicates\n"
        "                that redraw every cell's trials (the same trials in both\n"
        "                files when paired) and refit both matrices\n"
        "Files of different games, kinds, units, fields or situations are refused.",
    .exits =
        "  2  the files are not comparable: a run and a matrix, or files of different\n"
        "     games, kinds, units, fields or situations\n"
        "  3  a file cannot be read, is not HDF5, or is not a valid result or matrix\n"
        "     file; or the output cannot be written\n"
        "  4  out of memory or an unexpected failure\n",
    .options = compare_options,
    .n_options = sizeof compare_options / sizeof compare_options[0],
    .values_size = sizeof(compare_args),
    .defaults = &compare_defaults,
    .min_operands = 2,
    .max_operands = 2,
    .operands = "two result files (A.h5 B.h5)",
    .operand = {{OM_CLI_COMPLETE_FILE, "*.h5", NULL}},
    .run = compare_run,
};
