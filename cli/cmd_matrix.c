/*
 * cmd_matrix.c: `oddsmaster matrix`: every unit of one list against every unit
 * of another, in one or more situations, into one HDF5 matrix file that
 * `oddsmaster efficiency` and `oddsmaster chart --kind heatmap` read.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
/* Most trials per cell. */
#define OM_MATRIX_MAX_CELL_TRIALS 1000000000ULL

static void list_situations(void)
{
    for (size_t i = 0; i < om_matrix_situation_count(); i++) {
        const om_matrix_situation_def *s = om_matrix_situation_at(i);
        printf("%-24s %s\n", s->name, s->description);
    }
}

/* The progress line (cli.h) counting cells. */
static void show_progress(void *ctx, size_t done, size_t total)
{
    om_cli_progress_update(ctx, done, total);
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

/* The arguments of `matrix`. */
typedef struct matrix_args {
    const char *output;     /* the matrix file */
    om_cli_texts situation; /* situations, in order */
    uint64_t trials;        /* fixed trials per cell */
    double halfwidth;       /* adaptive target */
    uint64_t max_trials;    /* adaptive cap */
    unsigned kind;          /* index in kind_names */
    uint64_t seed;          /* master seed */
    uint64_t threads;       /* OpenMP threads */
    const char *cells_dir;  /* where to write the cells' scenarios */
    bool quiet;             /* no progress line */
    bool list_situations;   /* list the situations and stop */
} matrix_args;

static const char *const kind_names[] = {"engagement", "combat", NULL};

/* Run the matrix described by the parsed arguments into a->output. */
static int run_matrix(const char *command_line, char **operands, const matrix_args *a,
                      const om_matrix_situation_def *const *sits, size_t n_sits, uint64_t trials)
{
    int rc;
    /* The cells directory is made if missing (its parent must exist). */
    if (a->cells_dir != NULL && mkdir(a->cells_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "oddsmaster matrix: error: cannot create %s: %s\n", a->cells_dir,
                strerror(errno));
        return OM_EXIT_IO;
    }

    const char *ruleset = operands[0];
    om_matrix_list *rows = NULL, *cols = NULL;
    om_h5m_writer *w = NULL;
    om_status st = om_matrix_list_alloc(ruleset, operands[1], &rows);
    if (st == OM_OK)
        st = om_matrix_list_alloc(ruleset, operands[2], &cols);
    if (st != OM_OK) {
        om_matrix_list_free(rows);
        return om_cli_fail(CMD, st);
    }

    om_matrix_spec spec = {.ruleset = ruleset, .rows = rows, .cols = cols,
                           .n_situations = n_sits, .situations = sits, .kind = kind_names[a->kind],
                           .seed = a->seed, .trials = trials, .halfwidth = a->halfwidth,
                           .max_trials = a->max_trials, .threads = (unsigned)a->threads};
    om_matrix_unit *ru = calloc(rows->count, sizeof *ru), *cu = calloc(cols->count, sizeof *cu);
    char (*rid)[132] = calloc(rows->count, sizeof *rid), (*cid)[132] = calloc(cols->count, sizeof *cid);
    om_matrix_situation msit[OM_MATRIX_MAX_SITUATIONS];
    char *stext[OM_MATRIX_MAX_SITUATIONS] = {NULL}, *cmdline = strdup(command_line);
    char data_version[160];
    const om_army_ruleset *ars = om_army_ruleset_find(ruleset);

    if (ru == NULL || cu == NULL || rid == NULL || cid == NULL || cmdline == NULL)
        st = OM_ERROR(OM_ENOMEM, "out of memory");
    for (size_t i = 0; st == OM_OK && i < n_sits; i++) {
        msit[i].name = sits[i]->name;
        msit[i].title = sits[i]->description;
        if ((stext[i] = situation_text(sits[i])) == NULL)
            st = OM_ERROR(OM_ENOMEM, "out of memory");
        msit[i].yaml = stext[i];
    }
    if (st == OM_OK) {
        om_army *army = NULL;
        /* The data version: the list version of the rows' army file. */
        snprintf(data_version, sizeof data_version, "%s lists", ruleset);
        if (om_army_load(ruleset, rows->members[0].army, &army) == OM_OK)
            snprintf(data_version, sizeof data_version, "%s lists %s (%s)", ruleset,
                     army->list_version, ars ? ars->id : ruleset);
        om_error_clear();
        om_army_free(army);
        axis(rows, ru, rid);
        axis(cols, cu, cid);
        om_matrix_info info = {
            .program_version = OM_VERSION, .command_line = cmdline, .ruleset = ruleset,
            .data_version = data_version, .row_list = rows->label, .col_list = cols->label,
            .rng_scheme = OM_RNG_SCHEME "; cell (s,r,c) seeded SplitMix64(seed, s, r, c)",
            .seed = a->seed, .trials_per_cell = trials, .target_halfwidth = a->halfwidth,
            .n_situations = n_sits, .n_rows = rows->count, .n_cols = cols->count,
            .situations = msit, .rows = ru, .cols = cu};
        st = om_h5m_writer_create(&w, a->output, &info);
    }
    if (st == OM_OK) {
        om_cli_progress progress;
        om_cli_progress_start(&progress, CMD, "cells", a->quiet);
        st = om_matrix_run(&spec, w, a->cells_dir,
                           show_progress, &progress);
        om_cli_progress_end(&progress);
        if (st == OM_OK)
            st = om_h5m_writer_close(w);
        else
            om_h5m_writer_abort(w);
    }
    rc = st == OM_OK ? OM_EXIT_OK : om_cli_fail(CMD, st);
    if (st == OM_OK && !a->quiet)
        printf("Matrix: %s (%zu situations x %zu rows x %zu columns). Next:\n"
               "  oddsmaster efficiency %s\n  oddsmaster chart %s --kind heatmap -o heat.png\n",
               a->output, n_sits, rows->count, cols->count, a->output, a->output);
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

static const om_cli_option matrix_options[] = {
    {.name = "output", .letter = 'o', .value = OM_CLI_TEXT, .offset = offsetof(matrix_args, output),
     .metavar = "FILE.h5", .help = "the matrix file (written only if the whole run succeeds)"},
    {.name = "situation", .value = OM_CLI_TEXTS, .offset = offsetof(matrix_args, situation),
     .metavar = "NAME",
     .help = "a situation (repeatable; default a-charges and\nb-charges); --list-situations shows them"},
    {.name = "trials", .letter = 'n', .value = OM_CLI_U64, .offset = offsetof(matrix_args, trials),
     .metavar = "N", .min = 1, .max = OM_MATRIX_MAX_CELL_TRIALS,
     .help = "trials per cell (default 20000)"},
    {.name = "halfwidth", .value = OM_CLI_REAL, .offset = offsetof(matrix_args, halfwidth),
     .metavar = "H", .lo = 0.0, .hi = 0.5,
     .help = "instead: run each cell in blocks of 16384 trials until\nthe 95% interval of "
             "P(row wins) is narrower than +-H"},
    {.name = "max-trials", .value = OM_CLI_U64, .offset = offsetof(matrix_args, max_trials),
     .metavar = "N", .min = 16384, .max = OM_MATRIX_MAX_CELL_TRIALS,
     .help = "cap of an adaptive cell (default 1000000)"},
    {.name = "kind", .value = OM_CLI_CHOICE, .offset = offsetof(matrix_args, kind),
     .metavar = "K", .choices = kind_names,
     .help = "engagement (the whole fight, default) or combat (round 1)"},
    {.name = "seed", .letter = 's', .value = OM_CLI_U64, .offset = offsetof(matrix_args, seed),
     .metavar = "S", .min = 0, .max = UINT64_MAX,
     .help = "master seed (default 1); cell (s,r,c) uses its own\nstream seed, so cells are "
             "independent"},
    {.name = "threads", .letter = 't', .value = OM_CLI_U64,
     .offset = offsetof(matrix_args, threads), .metavar = "T", .min = 0, .max = 1024,
     .help = "OpenMP threads, one cell each (default: all cores)"},
    {.name = "cells-dir", .value = OM_CLI_TEXT, .offset = offsetof(matrix_args, cells_dir),
     .metavar = "DIR",
     .help = "also write each cell's scenario, with its seed, as\nDIR/s<S>_r<R>_c<C>.yaml: "
             "`oddsmaster run` of it with\nthat seed and trial count reproduces the cell exactly"},
    {.name = "quiet", .letter = 'q', .value = OM_CLI_FLAG, .offset = offsetof(matrix_args, quiet),
     .help = "no progress line"},
    {.name = "list-situations", .value = OM_CLI_FLAG,
     .offset = offsetof(matrix_args, list_situations), .help = "list the situations and exit"},
};

static const matrix_args matrix_defaults = {.max_trials = OM_MATRIX_DEFAULT_MAX_TRIALS,
                                            .seed = 1};

/* The situations named by --situation (default a-charges and b-charges). */
static int find_situations(const om_cli_texts *names, const om_matrix_situation_def **sits,
                           size_t *n)
{
    *n = 0;
    if (names->count > OM_MATRIX_MAX_SITUATIONS)
        return om_cli_usage_error(CMD, "at most %d situations", OM_MATRIX_MAX_SITUATIONS);
    for (size_t i = 0; i < names->count; i++) {
        if ((sits[*n] = om_matrix_situation_find(names->value[i])) == NULL) {
            fprintf(stderr, "oddsmaster matrix: error: unknown situation '%s'; the "
                    "situations are:\n", names->value[i]);
            for (size_t k = 0; k < om_matrix_situation_count(); k++)
                fprintf(stderr, "  %s\n", om_matrix_situation_at(k)->name);
            return OM_EXIT_INPUT;
        }
        (*n)++;
    }
    if (*n == 0) {
        sits[(*n)++] = om_matrix_situation_find("a-charges");
        sits[(*n)++] = om_matrix_situation_find("b-charges");
    }
    return 0;
}

static int matrix_run(const om_cli_args *args)
{
    const matrix_args *a = args->values;
    const om_matrix_situation_def *sits[OM_MATRIX_MAX_SITUATIONS];
    uint64_t trials = a->trials;
    size_t n_sits = 0;
    int rc;

    if (a->list_situations) {
        list_situations();
        return OM_EXIT_OK;
    }
    if (args->n_operands != 3)
        return om_cli_usage_error(CMD, "give RULESET ROWS COLS (got %d operands)",
                                  args->n_operands);
    if (a->output == NULL)
        return om_cli_usage_error(CMD, "give the matrix file with -o FILE.h5");
    if (trials > 0 && a->halfwidth > 0)
        return om_cli_usage_error(CMD, "give --trials or --halfwidth, not both");
    if (a->halfwidth == 0 && trials == 0)
        trials = OM_MATRIX_DEFAULT_TRIALS;
    if ((rc = find_situations(&a->situation, sits, &n_sits)) != 0)
        return rc;
    return run_matrix(args->command_line, args->operands, a, sits, n_sits, trials);
}

const om_cli_command om_cli_matrix = {
    .name = "matrix",
    .summary = "run every unit of one list against every unit of another",
    .usage = "oddsmaster matrix RULESET ROWS COLS -o FILE.h5 [--situation NAME]...\n"
             "                         [--trials N | --halfwidth H [--max-trials N]]\n"
             "                         [--kind engagement|combat] [--seed S] [--threads T]\n"
             "                         [--cells-dir DIR] [--quiet]\n"
             "oddsmaster matrix --list-situations",
    .about =
        "Run every unit of ROWS (side A) against every unit of COLS (side B) of rule set\n"
        "RULESET, in each situation, and write one HDF5 matrix file with a dataset per\n"
        "statistic (trials, wins, draws, victory points lost) over [situation][row][col],\n"
        "labelled with the unit names, points and situations.\n\n"
        "ROWS and COLS: ARMY (all its troop units; no characters or upgrades) or\n"
        "ARMY/UNIT,UNIT,... (see oddsmaster list RULESET/ARMY).",
    .exits =
        "  2  unknown rule set, army, unit or situation\n"
        "  3  cannot write the file\n"
        "  4  internal error\n",
    .options = matrix_options,
    .n_options = sizeof matrix_options / sizeof matrix_options[0],
    .values_size = sizeof(matrix_args),
    .defaults = &matrix_defaults,
    .min_operands = 0,
    .max_operands = 3,
    .operands = "RULESET ROWS COLS",
    .run = matrix_run,
};
