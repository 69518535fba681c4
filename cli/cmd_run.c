/*
 * cmd_run.c: `oddsmaster run`: load a scenario, simulate it N times with OpenMP,
 * stream every trial's outcome to an HDF5 file, then print the answer (the text
 * summary of the file just written).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "game.h"
#include "run.h"
#include "summary.h"

#define CMD "run"
/* Default trial count: a 95% interval half-width of at most 0.001 on any
 * probability (1.96 * sqrt(0.25 / 1e6) = 0.00098). */
#define OM_RUN_DEFAULT_TRIALS 1000000ULL
/* Default master seed: runs are reproducible unless a seed is chosen. */
#define OM_RUN_DEFAULT_SEED 1ULL
/* Largest trial count accepted (the HDF5 datasets hold up to 2^63 rows, but a
 * run of this size already takes days). */
#define OM_RUN_MAX_TRIALS 100000000000ULL
/* Most OpenMP threads a run may ask for. */
#define OM_RUN_MAX_THREADS 1024

/* Default output name: the scenario's file name with .h5 in place of .yaml. */
static char *default_output(const char *scenario_path)
{
    const char *base, *dot;
    char *out;
    size_t stem;
    if (scenario_path == NULL)
        return strdup("default.h5");
    base = strrchr(scenario_path, '/');
    base = base ? base + 1 : scenario_path;
    dot = strrchr(base, '.');
    stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    out = malloc(stem + 4);
    if (out) {
        memcpy(out, base, stem);
        strcpy(out + stem, ".h5");
    }
    return out;
}

/* The scenario's warnings (rules not modelled), one "oddsmaster run: warning:"
 * line each: the odds leave those rules out, and the user should know before
 * reading them. */
static void print_warnings(const om_scenario *sc)
{
    for (const char *line = sc->warnings; line && *line;) {
        size_t n = strcspn(line, "\n");
        fprintf(stderr, "oddsmaster %s: warning: %.*s\n", CMD, (int)n, line);
        line += n + (line[n] == '\n');
    }
}

/* The arguments of `run`. */
typedef struct run_args {
    const char *output; /* result file */
    uint64_t trials;    /* trials */
    uint64_t seed;      /* master seed */
    uint64_t threads;   /* OpenMP threads (0: all cores) */
    bool plain;         /* baseline dice */
    bool quiet;         /* print nothing but errors */
} run_args;

static const om_cli_option run_options[] = {
    {.name = "output", .letter = 'o', .value = OM_CLI_TEXT, .offset = offsetof(run_args, output),
     .metavar = "FILE.h5",
     .help = "result file (default: SCENARIO name with .h5, or\ndefault.h5 for the embedded "
             "scenario); replaced only\nwhen the run succeeds"},
    {.name = "trials", .letter = 'n', .value = OM_CLI_U64, .offset = offsetof(run_args, trials),
     .metavar = "N", .min = 1, .max = OM_RUN_MAX_TRIALS,
     .help = "number of trials (default 1000000)"},
    {.name = "seed", .letter = 's', .value = OM_CLI_U64, .offset = offsetof(run_args, seed),
     .metavar = "S", .min = 0, .max = UINT64_MAX,
     .help = "master seed, 0 to 2^64-1 (default 1). The same seed\ngives bit-identical "
             "results with any thread count"},
    {.name = "threads", .letter = 't', .value = OM_CLI_U64, .offset = offsetof(run_args, threads),
     .metavar = "T", .min = 0, .max = OM_RUN_MAX_THREADS,
     .help = "OpenMP threads (default: all cores)"},
    {.name = "plain-dice", .value = OM_CLI_FLAG, .offset = offsetof(run_args, plain),
     .help = "roll every die with GSL's default generator (the\nbenchmark baseline; slower, "
             "same distribution)"},
    {.name = "quiet", .letter = 'q', .value = OM_CLI_FLAG, .offset = offsetof(run_args, quiet),
     .help = "print nothing but errors (no warnings either)"},
};

static const run_args run_defaults = {.trials = OM_RUN_DEFAULT_TRIALS,
                                      .seed = OM_RUN_DEFAULT_SEED};

static int run_run(const om_cli_args *args)
{
    const run_args *a = args->values;
    const char *scenario_path = args->n_operands ? args->operands[0] : NULL;
    char *out_path = NULL;
    om_scenario *sc = NULL;
    om_run_request req = {.command_line = args->command_line, .trials = a->trials,
                          .seed = a->seed, .threads = (unsigned)a->threads,
                          .plain_dice = a->plain, .path = a->output};
    om_status st;
    int rc;

    st = scenario_path ? om_scenario_load_file(scenario_path, &sc) : om_scenario_load_default(&sc);
    if (st == OM_OK && !a->quiet)
        print_warnings(sc);
    if (st == OM_OK && req.path == NULL && (req.path = out_path = default_output(scenario_path)) == NULL)
        st = OM_ERROR(OM_ENOMEM, "out of memory");
    if (st == OM_OK)
        st = om_run_file(sc, &req);
    if (st == OM_OK && !a->quiet)
        st = om_summary_print_file(req.path, OM_SUMMARY_TEXT, OM_SUMMARY_CONFIDENCE, stdout);
    rc = st == OM_OK ? OM_EXIT_OK : om_cli_fail(CMD, st);
    if (st == OM_OK && !a->quiet)
        printf("\nResults: %s (oddsmaster summary %s --format json)\n", req.path, req.path);
    free(out_path);
    om_scenario_free(sc);
    return rc;
}

const om_cli_command om_cli_run = {
    .name = "run",
    .summary = "simulate a scenario many times and write an HDF5 result file",
    .usage = "oddsmaster run [SCENARIO.yaml] [-o FILE.h5] [--trials N] [--seed S]\n"
             "                      [--threads T] [--plain-dice] [--quiet]",
    .about =
        "Simulate the engagement described by SCENARIO.yaml (without it, the embedded\n"
        "default: Knights charging Spearmen in the open, Warmaster Revolution) N times,\n"
        "write one row per trial to an HDF5 file, and print the odds.",
    .more =
        "The file holds /trials/<field> datasets (winner, result_a, hits_on_b,\n"
        "stands_lost_a, retreat_cm, ...) and root attributes recording the scenario\n"
        "text, seed, trials, threads, rule set and program version. See the README.\n\n"
        "A unit taken from the army lists (from: army/unit) may carry special rules the\n"
        "engine does not model yet; run then prints one warning per unit naming them\n"
        "(oddsmaster list --rules shows which rules are modelled).",
    .exits =
        "  2  bad scenario file\n"
        "  3  cannot write the result file\n"
        "  4  internal error\n",
    .options = run_options,
    .n_options = sizeof run_options / sizeof run_options[0],
    .values_size = sizeof(run_args),
    .defaults = &run_defaults,
    .min_operands = 0,
    .max_operands = 1,
    .operands = "the scenario",
    .run = run_run,
};
