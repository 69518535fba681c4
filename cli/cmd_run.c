/*
 * cmd_run.c: `oddsmaster run`: load a scenario, simulate it N times with OpenMP,
 * stream every trial's outcome to an HDF5 file, then print the answer (the text
 * summary of the file just written, each estimate beside its exact value where
 * the game knows the law); or, with --exact, print the exact law alone without
 * simulating. The part after loading (the progress line, signals, the run or
 * its resumption, the answer) is om_cli_run_scenario, which `battle` shares.
 */
#include <signal.h>
#include <stdatomic.h>
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

/* Default output name: the scenario's file name with .h5 in place of .yaml;
 * default.h5 for the embedded scenario, stdin.h5 for standard input. */
static char *default_output(const char *scenario_path)
{
    const char *base, *dot;
    char *out;
    size_t stem;
    if (scenario_path == NULL)
        return strdup("default.h5");
    if (strcmp(scenario_path, OM_SCENARIO_STDIN_PATH) == 0)
        return strdup("stdin.h5");
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
    bool trial_streams; /* each trial its own random stream */
    bool quiet;         /* no progress line, warnings or notes: errors and the odds only */
    bool no_rows;       /* tallies only */
    double halfwidth;   /* target precision (0: none) */
    const char *target; /* its field */
    const char *resume; /* an interrupted run's .partial file */
    bool exact;         /* print the exact law, no simulation */
} run_args;

static const om_cli_option run_options[] = {
    {.name = "output", .letter = 'o', .value = OM_CLI_TEXT, .offset = offsetof(run_args, output),
     .metavar = "FILE.h5", .complete = {OM_CLI_COMPLETE_FILE, "*.h5", NULL},
     .help = "result file (default: SCENARIO name with .h5,\ndefault.h5 for the embedded "
             "scenario, stdin.h5\nfor -); created only when the run ends"},
    {.name = "trials", .letter = 'n', .value = OM_CLI_U64, .offset = offsetof(run_args, trials),
     .metavar = "N", .min = 1, .max = OM_RUN_MAX_TRIALS,
     .help = "number of trials (default 1000000; with --halfwidth,\nthe most)"},
    {.name = "seed", .letter = 's', .value = OM_CLI_U64, .offset = offsetof(run_args, seed),
     .metavar = "S", .min = 0, .max = UINT64_MAX,
     .help = "master seed, 0 to 2^64-1 (default 1). The same seed\ngives bit-identical "
             "results with any thread count"},
    {.name = "threads", .letter = 't', .value = OM_CLI_U64, .offset = offsetof(run_args, threads),
     .metavar = "T", .min = 0, .max = OM_RUN_MAX_THREADS,
     .help = "OpenMP threads (default: all cores)"},
    {.name = "no-rows", .value = OM_CLI_FLAG, .offset = offsetof(run_args, no_rows),
     .help = "write the tallies only, not one row per trial: the\nsummary and charts need "
             "nothing more, and very long\nruns stay small"},
    {.name = "halfwidth", .value = OM_CLI_REAL, .offset = offsetof(run_args, halfwidth),
     .metavar = "H", .lo = 0.0, .hi = 0.5,
     .help = "stop, at the end of a block of 16384 trials, once\nthe 95% interval of every "
             "P(win), P(draw), P(lose)\nis narrower than +-H (--trials is then the most)"},
    {.name = "target", .value = OM_CLI_TEXT, .offset = offsetof(run_args, target),
     .metavar = "FIELD", .complete = {OM_CLI_COMPLETE_FIELD, NULL, NULL},
     .help = "with --halfwidth: watch this field's probabilities\ninstead (P(FIELD >= k) for "
             "every k; oddsmaster\nsummary lists the fields); a field of each unit\nas "
             "FIELD@UNIT (charged@knights)"},
    {.name = "resume", .value = OM_CLI_TEXT, .offset = offsetof(run_args, resume),
     .metavar = "FILE.h5.partial", .complete = {OM_CLI_COMPLETE_FILE, "*.partial", NULL},
     .help = "continue a run a signal interrupted, from its\n.partial file; the finished file "
             "is the one the\nwhole run would have written"},
    {.name = "plain-dice", .value = OM_CLI_FLAG, .offset = offsetof(run_args, plain),
     .help = "roll every die with GSL's default generator (the\nbenchmark baseline; slower, "
             "same distribution)"},
    {.name = "trial-streams", .value = OM_CLI_FLAG, .offset = offsetof(run_args, trial_streams),
     .help = "give each trial its own random stream, not each\nblock of 16384: two runs of one "
             "seed then differ\nonly in the trials their difference bites, and\noddsmaster "
             "compare gives tight paired intervals"},
    {.name = "quiet", .letter = 'q', .value = OM_CLI_FLAG, .offset = offsetof(run_args, quiet),
     .help = "no progress line, warnings or notes on standard\nerror; the odds still go to "
             "standard output\n(> /dev/null for none)"},
    {.name = "exact", .value = OM_CLI_FLAG, .offset = offsetof(run_args, exact),
     .help = "print the scenario's exact law instead, computed\nfrom the rules' probabilities "
             "without simulating\nor writing a file (exit 2 where it is not known)"},
};

static const run_args run_defaults = {.trials = OM_RUN_DEFAULT_TRIALS,
                                      .seed = OM_RUN_DEFAULT_SEED};

/* Set by SIGINT and SIGTERM while a run goes on: it stops at the next block.
 * An atomic (lock-free, so a handler may set it): the run's threads read it. */
static atomic_int interrupted;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "a signal handler sets an atomic int only if lock-free");

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* Catch SIGINT and SIGTERM (old handlers saved), or restore them. */
static void catch_signals(bool on, struct sigaction old[2])
{
    static const int sigs[2] = {SIGINT, SIGTERM};
    for (int i = 0; i < 2; i++) {
        if (on) {
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = on_signal;
            sigemptyset(&sa.sa_mask);
            sigaction(sigs[i], &sa, &old[i]);
        } else {
            sigaction(sigs[i], &old[i], NULL);
        }
    }
}

/* What the run did: notices (unless quiet), the interruption, the answer
 * (quiet or not: the odds are what a run is for). */
static int report_run(const char *cmd, const char *what, bool quiet, const om_run_report *rep)
{
    om_status st = OM_OK;
    for (const char *line = rep->notice; line && *line && !quiet;) {
        size_t n = strcspn(line, "\n");
        fprintf(stderr, "oddsmaster %s: note: %.*s\n", cmd, (int)n, line);
        line += n + (line[n] == '\n');
    }
    if (rep->stop == OM_RUN_INTERRUPTED) {
        fprintf(stderr, "oddsmaster %s: interrupted after %llu %s; the run so far is in %s: "
                "continue it with 'oddsmaster %s --resume %s'\n", cmd,
                (unsigned long long)rep->trials, what, rep->path, cmd, rep->path);
        return OM_EXIT_INTERRUPTED;
    }
    st = om_summary_print_file(rep->path, OM_SUMMARY_TEXT, OM_SUMMARY_CONFIDENCE, false, stdout);
    if (st != OM_OK)
        return om_cli_fail(cmd, st);
    printf("\nResults: %s (oddsmaster summary %s --format json)\n", rep->path, rep->path);
    return OM_EXIT_OK;
}

int om_cli_run_scenario(const char *cmd, const char *what, const om_scenario *sc,
                        const char *resume, om_run_request *req, bool quiet)
{
    om_run_report rep = {0};
    om_cli_progress progress;
    struct sigaction old[2];
    om_status st;
    int rc;

    req->scenario_text = sc ? sc->text : NULL;
    req->interrupt = &interrupted;
    req->progress = om_cli_progress_update;
    req->progress_ctx = &progress;
    om_cli_progress_start(&progress, cmd, what, quiet);
    interrupted = 0;
    catch_signals(true, old);
    st = resume ? om_run_resume(resume, req, &rep) : om_run_file(sc, req, &rep);
    catch_signals(false, old);
    om_cli_progress_end(&progress);
    rc = st == OM_OK ? report_run(cmd, what, quiet, &rep) : om_cli_fail(cmd, st);
    om_run_report_release(&rep);
    return rc;
}

/* The option checks that need more than one option. */
static int check_options(const om_cli_args *args, const run_args *a)
{
    /* --exact takes the scenario alone: every other option is about a run. */
    for (size_t i = 0; a->exact && i < om_cli_run.n_options; i++)
        if (args->given[i] && strcmp(om_cli_run.options[i].name, "exact") != 0)
            return om_cli_usage_error(CMD, "--exact prints the exact law without simulating: "
                                      "give it no --%s", om_cli_run.options[i].name);
    if (a->target != NULL && a->halfwidth == 0.0)
        return om_cli_usage_error(CMD, "--target FIELD goes with --halfwidth H");
    if (a->resume != NULL &&
        (a->output || a->no_rows || a->halfwidth > 0.0 || a->target || a->plain ||
         a->trial_streams))
        return om_cli_usage_error(CMD, "--resume continues the run as it was asked for: give no "
                                  "-o, --no-rows, --halfwidth, --target, --plain-dice or "
                                  "--trial-streams with it");
    if (a->plain && a->trial_streams)
        return om_cli_usage_error(CMD, "--plain-dice rolls one stream a block: give it or "
                                  "--trial-streams, not both");
    if (a->resume == NULL && a->output != NULL)
        return om_cli_check_output(CMD, "-o/--output", a->output);
    (void)args;
    return 0;
}

/*
 * `run --exact`: the scenario's exact law as its game computes it (no trial,
 * no file), or exit 2 with the reason where it is not known.
 */
static int run_exact(const om_scenario *sc)
{
    om_trials t;
    om_exact *x = NULL;
    om_status st = om_trials_prepare(sc, &t);
    if (st == OM_OK && (st = om_trials_exact(&t, &x)) == OM_OK) {
        const om_summary_about about = {.source = sc->source, .title = sc->title,
                                        .ruleset = sc->ruleset, .kind = sc->kind};
        st = om_summary_print_exact(&about, &t.layout, x, stdout);
    } else if (st == OM_EUNSUPPORTED && x != NULL) {
        st = OM_ERROR(OM_EUNSUPPORTED, "%s: no exact law is known for this scenario: %s",
                      sc->source, x->reason);
    }
    om_exact_free(x);
    om_trials_release(&t);
    return st == OM_OK ? OM_EXIT_OK : om_cli_fail(CMD, st);
}

static int run_run(const om_cli_args *args)
{
    const run_args *a = args->values;
    const char *scenario_path = args->n_operands ? args->operands[0] : NULL;
    char *out_path = NULL;
    om_scenario *sc = NULL;
    om_run_request req = {.command_line = args->command_line, .trials = a->trials,
                          .seed = a->seed, .threads = (unsigned)a->threads,
                          .plain_dice = a->plain, .trial_streams = a->trial_streams,
                          .path = a->output, .no_rows = a->no_rows,
                          .halfwidth = a->halfwidth, .target = a->target,
                          .seed_given = om_cli_given(&om_cli_run, args, "seed"),
                          .trials_given = om_cli_given(&om_cli_run, args, "trials")};
    om_status st;
    int rc;

    if ((rc = check_options(args, a)) != 0)
        return rc;
    if (a->resume == NULL || scenario_path != NULL)
        st = scenario_path ? om_scenario_load_file(scenario_path, &sc)
                           : om_scenario_load_default(&sc);
    else
        st = OM_OK;
    if (st == OM_OK && !a->quiet && a->resume == NULL)
        print_warnings(sc);
    if (st == OM_OK && a->exact) {
        rc = run_exact(sc);
        om_scenario_free(sc);
        return rc;
    }
    if (st == OM_OK && a->resume == NULL && req.path == NULL) {
        if ((req.path = out_path = default_output(scenario_path)) == NULL)
            st = OM_ERROR(OM_ENOMEM, "out of memory");
        else if ((rc = om_cli_check_output(CMD, "-o/--output", req.path)) != 0) {
            free(out_path);
            om_scenario_free(sc);
            return rc;
        }
    }
    rc = st == OM_OK ? om_cli_run_scenario(CMD, "trials", sc, a->resume, &req, a->quiet)
                     : om_cli_fail(CMD, st);
    free(out_path);
    om_scenario_free(sc);
    return rc;
}

const om_cli_command om_cli_run = {
    .name = "run",
    .summary = "simulate a scenario many times and write an HDF5 result file",
    .usage = "oddsmaster run [SCENARIO.yaml] [-o FILE.h5] [--trials N] [--seed S]\n"
             "                      [--threads T] [--no-rows] [--halfwidth H [--target FIELD]]\n"
             "                      [--plain-dice | --trial-streams] [--quiet]\n"
             "oddsmaster run --resume FILE.h5.partial [--threads T] [--quiet]\n"
             "oddsmaster run [SCENARIO.yaml] --exact",
    .about =
        "Simulate the engagement described by SCENARIO.yaml (without it, the embedded\n"
        "default: Knights charging Spearmen in the open, Warmaster Revolution; '-' reads\n"
        "it from standard input, named <stdin>) N times, write one row per trial and the\n"
        "tallies of every field to an HDF5 file, and print the odds, each beside its\n"
        "exact value where the law is known.",
    .more =
        "The file holds /trials/<field> datasets (winner, result_a, hits_on_b,\n"
        "stands_lost_a, retreat_cm, ...), /tallies/<field> (how many trials had each\n"
        "value), for a whole turn /units (trials x units datasets of its per-unit\n"
        "results beside /units/table, the units) and root attributes recording the\n"
        "scenario text, seed, trials, threads, rule set and program version, with a\n"
        "digest of them written when the run begins; every dataset carries a\n"
        "checksum that HDF5 (and h5py, h5dump) verify on every read (the manual,\n"
        "docs/manual.md, \"Result files\", says what each holds).\n\n"
        "Ctrl-C (SIGINT) or SIGTERM stops the run at the end of the block of trials\n"
        "under way and keeps what was done as FILE.h5.partial (exit status 5); run\n"
        "--resume FILE.h5.partial finishes it, once it has checked the file: the\n"
        "digest of the run written when it began, every chunk's checksum, every row\n"
        "counted against the tallies. A run killed outright leaves a temporary\n"
        "FILE.h5.tmp-PID, which the next run on FILE.h5 removes: a run holds a lock\n"
        "on its temporary file while it writes it, and a file no run holds is a\n"
        "leftover, whatever process now has its id. On a terminal a progress line\n"
        "shows the trials done, the rate and the time left.\n\n"
        "A unit taken from the army lists (from: army/unit) may carry special rules the\n"
        "engine does not model yet; run then prints one warning per unit naming them\n"
        "(oddsmaster list --rules shows which rules are modelled).\n\n"
        "Where the engine holds the law of a trial (a Warmaster combat or volley, a\n"
        "WHFB7 combat, volley of missile weapons or spell; an engagement's first\n"
        "round), its exact value is computed first, by enumerating every outcome of\n"
        "the dice, recorded in the file (/exact) and printed under each estimate.\n"
        "--exact prints it alone, without simulating.",
    .exits =
        "  2  bad scenario file; an unknown --target; a .partial file to resume\n"
        "     that is complete, of another version, scenario, seed or trials;\n"
        "     --exact for a scenario whose exact law is not known\n"
        "  3  cannot write the result file, or read the file to resume: damaged (a\n"
        "     checksum that does not match, rows that disagree with the tallies) or\n"
        "     edited since the run began (its seed, scenario, options, version or\n"
        "     trials, named)\n"
        "  4  internal error\n"
        "  5  interrupted by a signal: FILE.h5.partial holds the trials done\n",
    .options = run_options,
    .n_options = sizeof run_options / sizeof run_options[0],
    .values_size = sizeof(run_args),
    .defaults = &run_defaults,
    .min_operands = 0,
    .max_operands = 1,
    .operands = "the scenario",
    .operand = {{OM_CLI_COMPLETE_FILE, "*.yaml|*.yml", "-"}},
    .run = run_run,
};
