/*
 * cmd_matrix.c: `oddsmaster matrix`: every unit of one list against every unit
 * of another, in one or more situations, into one HDF5 matrix file that
 * `oddsmaster efficiency` and `oddsmaster chart --kind heatmap` read.
 */
#include <errno.h>
#include <getopt.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "army.h"
#include "cli.h"
#include "h5matrix.h"
#include "matrix.h"
#include "om_version.h"
#include "rng.h"

#define CMD "matrix"
/* Default fixed trials per cell: a 95% half-width of at most 0.007 on P(win). */
#define OM_MATRIX_DEFAULT_TRIALS 20000ULL
/* Default cap on an adaptive cell: the half-width of a 50% cell at 1e6 trials
 * is 0.001, the default precision of `run`. */
#define OM_MATRIX_DEFAULT_MAX_TRIALS 1000000ULL
/* Most situations one matrix may hold. */
#define OM_MATRIX_MAX_SITUATIONS 16

static void print_help(void)
{
    printf(
        "Usage: oddsmaster matrix RULESET ROWS COLS -o FILE.h5 [--situation NAME]...\n"
        "                         [--trials N | --halfwidth H [--max-trials N]]\n"
        "                         [--kind engagement|combat] [--seed S] [--threads T]\n"
        "                         [--cells-dir DIR] [--quiet]\n"
        "       oddsmaster matrix --list-situations\n\n"
        "Run every unit of ROWS (side A) against every unit of COLS (side B) of rule set\n"
        "RULESET, in each situation, and write one HDF5 matrix file with a dataset per\n"
        "statistic (trials, wins, draws, victory points lost) over [situation][row][col],\n"
        "labelled with the unit names, points and situations.\n\n"
        "ROWS and COLS: ARMY (all its troop units; no characters or upgrades) or\n"
        "ARMY/UNIT,UNIT,... (see oddsmaster list RULESET/ARMY).\n\n"
        "Options:\n"
        "  -o, --output FILE.h5   the matrix file (written only if the whole run succeeds)\n"
        "  --situation NAME       a situation (repeatable; default a-charges and\n"
        "                         b-charges); --list-situations shows them\n"
        "  -n, --trials N         trials per cell (default 20000)\n"
        "  --halfwidth H          instead: run each cell in blocks of 16384 trials until\n"
        "                         the 95%% interval of P(row wins) is narrower than +-H\n"
        "  --max-trials N         cap of an adaptive cell (default 1000000)\n"
        "  --kind K               engagement (the whole fight, default) or combat (round 1)\n"
        "  -s, --seed S           master seed (default 1); cell (s,r,c) uses its own\n"
        "                         stream seed, so cells are independent\n"
        "  -t, --threads T        OpenMP threads, one cell each (default: all cores)\n"
        "  --cells-dir DIR        also write each cell's scenario, with its seed, as\n"
        "                         DIR/s<S>_r<R>_c<C>.yaml: `oddsmaster run` of it with\n"
        "                         that seed and trial count reproduces the cell exactly\n"
        "  -q, --quiet            no progress line\n"
        "  -h, --help             this help\n\n"
        "Exit codes: 0 success, 1 bad command line, 2 unknown rule set, army, unit or\n"
        "situation, 3 cannot write the file, 4 internal error.\n");
}

static void list_situations(void)
{
    for (size_t i = 0; i < om_matrix_situation_count(); i++) {
        const om_matrix_situation_def *s = om_matrix_situation_at(i);
        printf("%-24s %s\n", s->name, s->description);
    }
}

/* A progress line on a terminal, redrawn at most once per percent. */
static void show_progress(void *ctx, size_t done, size_t total)
{
    size_t *shown = ctx;
    if (done * 100 / total == *shown && done != total)
        return;
    *shown = done * 100 / total;
    fprintf(stderr, "\roddsmaster matrix: %zu of %zu cells", done, total);
    if (done == total)
        fprintf(stderr, "\n");
}

/* The situation text stored in the file: its name, description and keys. */
static char *situation_text(const om_matrix_situation_def *d)
{
    size_t n = strlen(d->a_keys) + strlen(d->b_keys) + strlen(d->description) + 256;
    char *t = malloc(n);
    if (t != NULL)
        snprintf(t, n, "# %s: %s\na:\n%sb:\n%s%s%s%s%s", d->name, d->description, d->a_keys,
                 d->b_keys, d->b_shoots ? "  stand_and_shoot: true  # if it can shoot\n" : "",
                 d->b_shoots_first ? "  shoots_first: true  # if it can shoot\n" : "",
                 d->a_shoots_first ? "# a: shoots_first: true  (if it can shoot)\n" : "",
                 d->b_defended ? "  position: defended  # infantry and artillery\n" : "");
    return t;
}


/* Copy one list onto a matrix axis; ids are "army/unit" strings kept in `ids`. */
static bool axis(const om_matrix_list *l, om_matrix_unit *units, char (*ids)[132])
{
    for (size_t i = 0; i < l->count; i++) {
        snprintf(ids[i], sizeof ids[i], "%s/%s", l->members[i].army, l->members[i].unit);
        units[i].name = l->members[i].name;
        units[i].id = ids[i];
        units[i].points = l->members[i].points;
    }
    return true;
}

int om_cmd_matrix(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},   {"situation", required_argument, NULL, 'S'},
        {"trials", required_argument, NULL, 'n'},   {"halfwidth", required_argument, NULL, 'H'},
        {"max-trials", required_argument, NULL, 'M'}, {"kind", required_argument, NULL, 'k'},
        {"seed", required_argument, NULL, 's'},     {"threads", required_argument, NULL, 't'},
        {"cells-dir", required_argument, NULL, 'D'}, {"quiet", no_argument, NULL, 'q'},
        {"list-situations", no_argument, NULL, 'L'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const om_matrix_situation_def *sits[OM_MATRIX_MAX_SITUATIONS];
    unsigned long long trials = 0, seed = 1, threads = 0, max_trials = OM_MATRIX_DEFAULT_MAX_TRIALS;
    double halfwidth = 0.0;
    const char *output = NULL, *kind = "engagement", *cells_dir = NULL;
    bool quiet = false;
    size_t n_sits = 0;
    int c, rc;

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:n:s:t:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case 'S':
            if (n_sits == OM_MATRIX_MAX_SITUATIONS)
                return om_cli_usage_error(CMD, "at most %d situations", OM_MATRIX_MAX_SITUATIONS);
            if ((sits[n_sits] = om_matrix_situation_find(optarg)) == NULL) {
                fprintf(stderr, "oddsmaster matrix: error: unknown situation '%s'; the "
                        "situations are:\n", optarg);
                for (size_t i = 0; i < om_matrix_situation_count(); i++)
                    fprintf(stderr, "  %s\n", om_matrix_situation_at(i)->name);
                return OM_EXIT_INPUT;
            }
            n_sits++;
            break;
        case 'n':
            if ((rc = om_cli_parse_u64(CMD, "--trials", optarg, &trials)))
                return rc;
            break;
        case 'H': {
            char *end = NULL;
            halfwidth = strtod(optarg, &end);
            if (end == optarg || *end != '\0' || !(halfwidth > 0.0 && halfwidth < 0.5))
                return om_cli_usage_error(CMD, "--halfwidth needs a number between 0 and 0.5, "
                                          "got '%s'", optarg);
            break;
        }
        case 'M':
            if ((rc = om_cli_parse_u64(CMD, "--max-trials", optarg, &max_trials)))
                return rc;
            break;
        case 'k':
            if (strcmp(optarg, "engagement") != 0 && strcmp(optarg, "combat") != 0)
                return om_cli_usage_error(CMD, "--kind is engagement or combat, got '%s'",
                                          optarg);
            kind = optarg;
            break;
        case 's':
            if ((rc = om_cli_parse_u64(CMD, "--seed", optarg, &seed)))
                return rc;
            break;
        case 't':
            if ((rc = om_cli_parse_u64(CMD, "--threads", optarg, &threads)))
                return rc;
            break;
        case 'D': cells_dir = optarg; break;
        case 'q': quiet = true; break;
        case 'L': list_situations(); return OM_EXIT_OK;
        case 'h': print_help(); return OM_EXIT_OK;
        default: return om_cli_getopt_error(CMD, c, argv);
        }
    }
    if (argc - optind != 3)
        return om_cli_usage_error(CMD, "give RULESET ROWS COLS (got %d operands)", argc - optind);
    if (output == NULL)
        return om_cli_usage_error(CMD, "give the matrix file with -o FILE.h5");
    if (trials > 0 && halfwidth > 0)
        return om_cli_usage_error(CMD, "give --trials or --halfwidth, not both");
    if (halfwidth == 0 && trials == 0)
        trials = OM_MATRIX_DEFAULT_TRIALS;
    if (max_trials < 16384 || threads > 1024)
        return om_cli_usage_error(CMD, "--max-trials must be at least 16384 and --threads at "
                                  "most 1024");
    if (n_sits == 0) {
        sits[n_sits++] = om_matrix_situation_find("a-charges");
        sits[n_sits++] = om_matrix_situation_find("b-charges");
    }

    /* The cells directory is made if missing (its parent must exist). */
    if (cells_dir != NULL && mkdir(cells_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "oddsmaster matrix: error: cannot create %s: %s\n", cells_dir,
                strerror(errno));
        return OM_EXIT_IO;
    }

    const char *ruleset = argv[optind];
    om_matrix_list *rows = NULL, *cols = NULL;
    om_h5m_writer *w = NULL;
    om_status st = om_matrix_list_alloc(ruleset, argv[optind + 1], &rows);
    if (st == OM_OK)
        st = om_matrix_list_alloc(ruleset, argv[optind + 2], &cols);
    if (st != OM_OK) {
        om_matrix_list_free(rows);
        return om_cli_fail(CMD, st);
    }

    om_matrix_spec spec = {.ruleset = ruleset, .rows = rows, .cols = cols,
                           .n_situations = n_sits, .situations = sits, .kind = kind,
                           .seed = seed, .trials = trials, .halfwidth = halfwidth,
                           .max_trials = max_trials, .threads = (unsigned)threads};
    om_matrix_unit *ru = calloc(rows->count, sizeof *ru), *cu = calloc(cols->count, sizeof *cu);
    char (*rid)[132] = calloc(rows->count, sizeof *rid), (*cid)[132] = calloc(cols->count, sizeof *cid);
    om_matrix_situation msit[OM_MATRIX_MAX_SITUATIONS];
    char *stext[OM_MATRIX_MAX_SITUATIONS] = {NULL}, *cmdline = om_cli_command_line(argc, argv);
    char data_version[160];
    const om_army_ruleset *ars = om_army_ruleset_find(ruleset);

    if (ru == NULL || cu == NULL || rid == NULL || cid == NULL || cmdline == NULL)
        st = OM_ERROR(OM_ENOMEM, "out of memory");
    for (size_t i = 0; st == OM_OK && i < n_sits; i++) {
        msit[i].name = sits[i]->name;
        if ((stext[i] = situation_text(sits[i])) == NULL)
            st = OM_ERROR(OM_ENOMEM, "out of memory");
        msit[i].yaml = stext[i];
    }
    if (st == OM_OK) {
        om_army *a = NULL;
        /* The data version: the list version of the rows' army file. */
        snprintf(data_version, sizeof data_version, "%s lists", ruleset);
        if (om_army_load(ruleset, rows->members[0].army, &a) == OM_OK)
            snprintf(data_version, sizeof data_version, "%s lists %s (%s)", ruleset,
                     a->list_version, ars ? ars->id : ruleset);
        om_error_clear();
        om_army_free(a);
        axis(rows, ru, rid);
        axis(cols, cu, cid);
        om_matrix_info info = {
            .program_version = OM_VERSION, .command_line = cmdline, .ruleset = ruleset,
            .data_version = data_version, .row_list = rows->label, .col_list = cols->label,
            .rng_scheme = OM_RNG_SCHEME "; cell (s,r,c) seeded SplitMix64(seed, s, r, c)",
            .seed = seed, .trials_per_cell = trials, .target_halfwidth = halfwidth,
            .n_situations = n_sits, .n_rows = rows->count, .n_cols = cols->count,
            .situations = msit, .rows = ru, .cols = cu};
        st = om_h5m_writer_create(&w, output, &info);
    }
    if (st == OM_OK) {
        size_t shown = (size_t)-1;
        st = om_matrix_run(&spec, w, cells_dir,
                           quiet || !isatty(STDERR_FILENO) ? NULL : show_progress, &shown);
        if (st == OM_OK)
            st = om_h5m_writer_close(w);
        else
            om_h5m_writer_abort(w);
    }
    rc = st == OM_OK ? OM_EXIT_OK : om_cli_fail(CMD, st);
    if (st == OM_OK && !quiet)
        printf("Matrix: %s (%zu situations x %zu rows x %zu columns). Next:\n"
               "  oddsmaster efficiency %s\n  oddsmaster chart %s --kind heatmap -o heat.png\n",
               output, n_sits, rows->count, cols->count, output, output);
    for (size_t i = 0; i < n_sits; i++)
        free(stext[i]);
    free(cmdline);
    free(ru);
    free(cu);
    free(rid);
    free(cid);
    om_matrix_list_free(rows);
    om_matrix_list_free(cols);
    return rc;
}
