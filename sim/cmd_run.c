/*
 * cmd_run.c: `oddsmaster run`: load a scenario, simulate it N times with OpenMP,
 * stream every trial's outcome to an HDF5 file, then print the answer (the text
 * summary of the file just written).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "h5file.h"
#include "om_version.h"
#include "options.h"
#include "rng.h"
#include "run.h"
#include "scenario.h"
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

static void print_help(void)
{
    printf(
        "Usage: oddsmaster run [SCENARIO.yaml] [-o FILE.h5] [--trials N] [--seed S]\n"
        "                      [--threads T] [--plain-dice] [--quiet]\n\n"
        "Simulate the engagement described by SCENARIO.yaml (without it, the embedded\n"
        "default: Knights charging Spearmen in the open, Warmaster Revolution) N times,\n"
        "write one row per trial to an HDF5 file, and print the odds.\n\n"
        "Options:\n"
        "  -o, --output FILE.h5   result file (default: SCENARIO name with .h5, or\n"
        "                         default.h5 for the embedded scenario); replaced only\n"
        "                         when the run succeeds\n"
        "  -n, --trials N         number of trials (default 1000000)\n"
        "  -s, --seed S           master seed, 0 to 2^64-1 (default 1). The same seed\n"
        "                         gives bit-identical results with any thread count\n"
        "  -t, --threads T        OpenMP threads (default: all cores)\n"
        "      --plain-dice       roll every die with GSL's default generator (the\n"
        "                         benchmark baseline; slower, same distribution)\n"
        "  -q, --quiet            print nothing but errors (no warnings either)\n"
        "  -h, --help             show this help\n\n"
        "The file holds /trials/<field> datasets (winner, result_a, hits_on_b,\n"
        "stands_lost_a, retreat_cm, ...) and root attributes recording the scenario\n"
        "text, seed, trials, threads, rule set and program version. See the README.\n\n"
        "A unit taken from the army lists (from: army/unit) may carry special rules the\n"
        "engine does not model yet; run then prints one warning per unit naming them\n"
        "(oddsmaster list --rules shows which rules are modelled).\n\n"
        "Exit codes: 0 success, 1 bad command line, 2 bad scenario, 3 cannot write the\n"
        "file, 4 internal error.\n");
}

/* The sink of the driver: each finished block goes to the HDF5 writer. */
static om_status write_block(void *ctx, uint64_t first, const om_wm_outcome *rows, size_t n)
{
    return om_h5_writer_put((om_h5_writer *)ctx, first, rows, n);
}


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

/* One warning line per unit that carries special rules the engine does not
 * model yet (from its army list or its joined character): the odds leave
 * them out, and the user should know before reading them. */
static void warn_unmodelled(const om_wm_engagement *e)
{
    for (int i = 0; i < 2; i++)
        if (e->side[i].unit.unmodelled[0])
            fprintf(stderr, "oddsmaster %s: warning: %s: special rules not modelled yet: %s\n",
                    CMD, e->side[i].unit.name, e->side[i].unit.unmodelled);
}

int om_cmd_run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"trials", required_argument, NULL, 'n'},
        {"seed", required_argument, NULL, 's'},   {"threads", required_argument, NULL, 't'},
        {"plain-dice", no_argument, NULL, 'P'},   {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};
    unsigned long long trials = OM_RUN_DEFAULT_TRIALS, seed = OM_RUN_DEFAULT_SEED, threads = 0;
    const char *output = NULL, *scenario_path = NULL;
    bool quiet = false, plain = false;
    om_scenario *sc = NULL;
    om_wm_prepared *prep = NULL;
    om_h5_writer *writer = NULL;
    char *options = NULL, *cmdline = NULL, *out_path = NULL;
    om_status st;
    int c, rc;

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:n:s:t:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case 'n':
            if ((rc = om_cli_parse_u64(CMD, "--trials", optarg, &trials)))
                return rc;
            break;
        case 's':
            if ((rc = om_cli_parse_u64(CMD, "--seed", optarg, &seed)))
                return rc;
            break;
        case 't':
            if ((rc = om_cli_parse_u64(CMD, "--threads", optarg, &threads)))
                return rc;
            break;
        case 'P': plain = true; break;
        case 'q': quiet = true; break;
        case 'h': print_help(); return OM_EXIT_OK;
        case ':': return om_cli_usage_error(CMD, "option '%s' needs a value", argv[optind - 1]);
        default: return om_cli_usage_error(CMD, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        scenario_path = argv[optind++];
    if (optind < argc)
        return om_cli_usage_error(CMD, "unexpected argument '%s' (one scenario at a time)",
                                  argv[optind]);
    if (trials == 0 || trials > OM_RUN_MAX_TRIALS)
        return om_cli_usage_error(CMD, "--trials must be 1 to %llu (got %llu)",
                                  OM_RUN_MAX_TRIALS, trials);
    if (threads > 1024)
        return om_cli_usage_error(CMD, "--threads must be 0 to 1024 (got %llu)", threads);

    st = scenario_path ? om_scenario_load_file(scenario_path, &sc)
                       : om_scenario_load_text(OM_SCENARIO_DEFAULT_NAME,
                                               om_scenario_default_text(),
                                               strlen(om_scenario_default_text()), &sc);
    if (st == OM_OK && !quiet)
        warn_unmodelled(&sc->engagement);
    if (st == OM_OK)
        st = om_wm_prepare_alloc(&sc->engagement, &prep);
    if (st == OM_OK)
        st = om_run_options_json(&sc->engagement, &options);
    if (st == OM_OK && (cmdline = om_cli_command_line(argc, argv)) == NULL)
        st = OM_ERROR(OM_ENOMEM, "out of memory");
    if (st == OM_OK && output == NULL && (output = out_path = default_output(scenario_path)) == NULL)
        st = OM_ERROR(OM_ENOMEM, "out of memory");
    if (st == OM_OK) {
        const om_wm_engagement *e = &sc->engagement;
        om_run_info info = {
            .program_version = OM_VERSION,
            .command_line = cmdline,
            .scenario_name = sc->source,
            .scenario_text = sc->text,
            .title = sc->title,
            .ruleset = e->rules->name,
            .kind = om_wm_kind_names[e->kind],
            .side_name = {e->side[0].unit.name, e->side[1].unit.name},
            .options_json = options,
            .rng_scheme = plain ? "gsl default generator (plain baseline dice); block b seeded "
                                  "from pcg64-dxsm SplitMix64(seed, b)" : OM_RNG_SCHEME,
            .seed = seed,
            .trials = trials,
            .block_size = OM_RUN_BLOCK_SIZE,
            .threads = om_run_threads((unsigned)threads),
            .points = {e->side[0].unit.points, e->side[1].unit.points},
            .kind_mask = 1u << e->kind,
        };
        om_run_config cfg = {.trials = trials, .seed = seed, .block_size = OM_RUN_BLOCK_SIZE,
                             .threads = (unsigned)threads, .plain_dice = plain};
        st = om_h5_writer_create(&writer, output, &info);
        if (st == OM_OK) {
            st = om_run_simulate(prep, &cfg, write_block, writer, NULL);
            if (st == OM_OK)
                st = om_h5_writer_close(writer);
            else
                om_h5_writer_abort(writer);
        }
    }
    if (st == OM_OK && !quiet)
        st = om_summary_print_file(output, OM_SUMMARY_TEXT, 0.95, stdout);
    rc = st == OM_OK ? OM_EXIT_OK : om_cli_fail(CMD, st);
    if (st == OM_OK && !quiet)
        printf("\nResults: %s (oddsmaster summary %s --format json)\n", output, output);
    free(out_path);
    free(cmdline);
    free(options);
    om_wm_prepared_free(prep);
    om_scenario_free(sc);
    return rc;
}
