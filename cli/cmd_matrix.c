/*
 * cmd_matrix.c: `oddsmaster matrix`: every unit of one list against every unit
 * of another, in one or more situations, under chosen readings of ambiguous
 * rules, into one HDF5 matrix file that `oddsmaster efficiency`, `oddsmaster
 * chart --kind heatmap` and `oddsmaster compare` read (sim/matrix.h does the
 * work).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "game.h"
#include "matrix.h"

#define CMD "matrix"
/* Default fixed trials per cell: a 95% half-width of at most 0.007 on P(win). */
#define OM_MATRIX_DEFAULT_TRIALS 20000ULL
/* Default cap on an adaptive cell: the half-width of a 50% cell at 1e6 trials
 * is 0.001, the default precision of `run`. */
#define OM_MATRIX_DEFAULT_MAX_TRIALS 1000000ULL
/* Most trials per cell. */
#define OM_MATRIX_MAX_CELL_TRIALS 1000000000ULL
/* Default battles of each leg of a list matrix: 4,000 a pairing, a 95%
 * interval of at most +-0.016 on a pooled probability. */
#define OM_MATRIX_DEFAULT_BATTLES 1000ULL
/* Most battles of a leg: a list matrix holds them in memory (5 bytes each). */
#define OM_MATRIX_MAX_BATTLES 100000000ULL
/* Most turns of a fixed length; the game checks its own bound. */
#define OM_MATRIX_MAX_TURNS 255

/* The arguments of `matrix`. */
typedef struct matrix_args {
    const char *output;     /* the matrix file */
    om_cli_texts situation; /* situations, in order */
    uint64_t trials;        /* fixed trials per cell */
    double halfwidth;       /* adaptive target */
    uint64_t max_trials;    /* adaptive cap */
    const char *kind;       /* the kind of each cell (NULL: the game's first) */
    uint64_t seed;          /* master seed */
    uint64_t threads;       /* OpenMP threads */
    const char *cells_dir;  /* where to write the cells' scenarios */
    om_cli_texts option;    /* readings in force in every cell, KEY=VALUE */
    bool trial_streams;     /* each trial its own random stream */
    bool no_rows;           /* the cells' counts only, not each trial's winner */
    bool quiet;             /* no progress line or warnings */
    bool list_situations;   /* list the situations and stop */
    bool lists;             /* ROWS and COLS are army lists: whole battles in legs */
    uint64_t battles;       /* with lists: battles of each leg */
    const char *length;     /* with lists: the length method */
    uint64_t turns;         /* with lists: turns of a fixed length */
    const char *terrain;    /* with lists: how each battle's terrain is laid out */
    const char *deployment; /* with lists: how the armies set up */
} matrix_args;

static const om_cli_option matrix_options[] = {
    {.name = "output", .letter = 'o', .value = OM_CLI_TEXT, .offset = offsetof(matrix_args, output),
     .metavar = "FILE.h5", .complete = {OM_CLI_COMPLETE_FILE, "*.h5", NULL},
     .help = "the matrix file (written only if the whole run succeeds)"},
    {.name = "situation", .value = OM_CLI_TEXTS, .offset = offsetof(matrix_args, situation),
     .metavar = "NAME", .complete = {OM_CLI_COMPLETE_SITUATION, NULL, NULL},
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
    {.name = "option", .value = OM_CLI_TEXTS, .offset = offsetof(matrix_args, option),
     .metavar = "KEY=VALUE",
     .help = "a reading of an ambiguous rule in force in every\ncell, as in a scenario's "
             "options: (repeatable;\noddsmaster list --options lists the switches)"},
    {.name = "kind", .value = OM_CLI_TEXT, .offset = offsetof(matrix_args, kind),
     .metavar = "K", .complete = {OM_CLI_COMPLETE_KIND, NULL, NULL},
     .help = "engagement (the whole fight, default) or combat (round 1)"},
    {.name = "seed", .letter = 's', .value = OM_CLI_U64, .offset = offsetof(matrix_args, seed),
     .metavar = "S", .min = 0, .max = UINT64_MAX,
     .help = "master seed (default 1); cell (s,r,c) uses its own\nstream seed, so cells are "
             "independent"},
    {.name = "threads", .letter = 't', .value = OM_CLI_U64,
     .offset = offsetof(matrix_args, threads), .metavar = "T", .min = 0, .max = 1024,
     .help = "OpenMP threads, one cell each (default: all cores)"},
    {.name = "cells-dir", .value = OM_CLI_TEXT, .offset = offsetof(matrix_args, cells_dir),
     .metavar = "DIR", .complete = {OM_CLI_COMPLETE_DIR, NULL, NULL},
     .help = "also write each cell's scenario, with its seed, as\nDIR/s<S>_r<R>_c<C>.yaml: "
             "`oddsmaster run` of it with\nthat seed and trial count reproduces the cell exactly"},
    {.name = "trial-streams", .value = OM_CLI_FLAG,
     .offset = offsetof(matrix_args, trial_streams),
     .help = "give each trial of a cell its own random stream:\ntwo matrices of one seed then "
             "differ only in the\ntrials their readings change (oddsmaster compare)"},
    {.name = "no-rows", .value = OM_CLI_FLAG, .offset = offsetof(matrix_args, no_rows),
     .help = "keep the cells' counts only, not each trial's winner\n(a smaller file; compare "
             "then has no paired\nintervals)"},
    {.name = "quiet", .letter = 'q', .value = OM_CLI_FLAG, .offset = offsetof(matrix_args, quiet),
     .help = "no progress line or warnings on standard error (the\nunits left out are "
             "still named in the file)"},
    {.name = "list-situations", .value = OM_CLI_FLAG,
     .offset = offsetof(matrix_args, list_situations), .help = "list the situations and exit"},
    {.name = "lists", .value = OM_CLI_FLAG, .offset = offsetof(matrix_args, lists),
     .help = "ROWS and COLS are army lists (matrix --lists ROWS\nCOLS): whole battles, each "
             "pairing in four legs"},
    {.name = "battles", .value = OM_CLI_U64, .offset = offsetof(matrix_args, battles),
     .metavar = "N", .min = 1, .max = OM_MATRIX_MAX_BATTLES,
     .help = "with --lists: battles of each leg of each pairing\n(default 1000)"},
    {.name = "length", .value = OM_CLI_TEXT, .offset = offsetof(matrix_args, length),
     .metavar = "METHOD", .help = "with --lists: how long each battle lasts (as battle\n"
                                  "--length)"},
    {.name = "turns", .value = OM_CLI_U64, .offset = offsetof(matrix_args, turns),
     .metavar = "N", .min = 1, .max = OM_MATRIX_MAX_TURNS,
     .help = "with --lists: battles of N turns (--length fixed)"},
    {.name = "terrain", .value = OM_CLI_TEXT, .offset = offsetof(matrix_args, terrain),
     .metavar = "METHOD", .help = "with --lists: terrain laid out for each battle (as\n"
                                  "battle --terrain; default none)"},
    {.name = "deployment", .value = OM_CLI_TEXT, .offset = offsetof(matrix_args, deployment),
     .metavar = "METHOD", .help = "with --lists: how the armies set up (as battle\n"
                                  "--deployment)"},
};

static const matrix_args matrix_defaults = {.max_trials = OM_MATRIX_DEFAULT_MAX_TRIALS,
                                            .seed = 1};

/* Every game's situations, with what each means, under the game's title. */
static void list_situations(void)
{
    for (size_t g = 0; g < om_game_count; g++) {
        printf("%s%s:\n", g ? "\n" : "", om_games[g]->identity.title);
        for (size_t i = 0; i < om_games[g]->matrix->n_situations; i++)
            printf("  %-24s %s\n", om_games[g]->matrix->situations[i].name,
                   om_games[g]->matrix->situations[i].title);
    }
}

/* The progress line (cli.h) counting cells. */
static void show_progress(void *ctx, size_t done, size_t total)
{
    om_cli_progress_update(ctx, done, total);
}

/* The options of a unit matrix a list matrix refuses, and those only a
 * list matrix takes. */
static const char *const unit_only[] = {"situation", "trials", "halfwidth", "max-trials",
                                        "option", "kind", "cells-dir", "trial-streams"};
static const char *const lists_only[] = {"battles", "length", "turns", "terrain", "deployment"};

/* The option checks of a list matrix (matrix --lists ROWS COLS). */
static int check_lists_options(const om_cli_args *args, const matrix_args *a)
{
    for (size_t i = 0; i < sizeof unit_only / sizeof unit_only[0]; i++)
        if (om_cli_given(&om_cli_matrix, args, unit_only[i]))
            return om_cli_usage_error(CMD, "--%s is for a matrix of units; a matrix of lists "
                                      "(--lists) takes --battles, --length, --turns, "
                                      "--terrain, --deployment", unit_only[i]);
    if (args->n_operands != 2)
        return om_cli_usage_error(CMD, "with --lists give ROWS COLS, army lists (got %d "
                                  "operands)", args->n_operands);
    if (a->output == NULL)
        return om_cli_usage_error(CMD, "give the matrix file with -o FILE.h5");
    return om_cli_check_output(CMD, "-o/--output", a->output);
}

/* The option checks that need more than one option. */
static int check_options(const om_cli_args *args, const matrix_args *a)
{
    if (a->lists)
        return check_lists_options(args, a);
    for (size_t i = 0; i < sizeof lists_only / sizeof lists_only[0]; i++)
        if (om_cli_given(&om_cli_matrix, args, lists_only[i]))
            return om_cli_usage_error(CMD, "--%s goes with --lists (a matrix of army lists)",
                                      lists_only[i]);
    if (args->n_operands != 3)
        return om_cli_usage_error(CMD, "give RULESET ROWS COLS (got %d operands)",
                                  args->n_operands);
    if (a->output == NULL)
        return om_cli_usage_error(CMD, "give the matrix file with -o FILE.h5");
    if (a->trials > 0 && a->halfwidth > 0)
        return om_cli_usage_error(CMD, "give --trials or --halfwidth, not both");
    if (a->situation.count > OM_MATRIX_MAX_SITUATIONS)
        return om_cli_usage_error(CMD, "at most %d situations", OM_MATRIX_MAX_SITUATIONS);
    /* The shape of each reading is the command line's; its key and value are
     * the game's, checked when the matrix is planned (exit 2). */
    for (size_t i = 0; i < a->option.count; i++) {
        const char *text = a->option.value[i], *eq = strchr(text, '=');
        if (eq == NULL || eq == text || eq[1] == '\0')
            return om_cli_usage_error(CMD, "--option %s: give KEY=VALUE, e.g. --option "
                                      "max_turns=5 (oddsmaster list --options)", text);
    }
    return om_cli_check_output(CMD, "-o/--output", a->output);
}

/* The cells directory, made if missing (its parent must exist). */
static int make_cells_dir(const char *dir)
{
    if (dir != NULL && mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "oddsmaster %s: error: --cells-dir '%s': %s\n", CMD, dir, strerror(errno));
        return OM_EXIT_IO;
    }
    return 0;
}

/* `matrix --lists ROWS COLS`: army lists in whole battles. */
static int lists_run(const om_cli_args *args, const matrix_args *a)
{
    om_matrix_lists_plan *plan = NULL;
    om_cli_progress progress;
    om_status st;
    om_matrix_lists_spec spec = {
        .rows = args->operands[0], .cols = args->operands[1],
        .battles = a->battles > 0 ? a->battles : OM_MATRIX_DEFAULT_BATTLES, .seed = a->seed,
        .threads = (unsigned)a->threads, .length = a->length, .turns = (unsigned)a->turns,
        .terrain = a->terrain, .deployment = a->deployment, .no_outcomes = a->no_rows};
    int rc;
    if ((st = om_matrix_lists_plan_alloc(&spec, &plan)) != OM_OK)
        return om_cli_fail(CMD, st);
    om_cli_progress_start(&progress, CMD, "legs", a->quiet);
    st = om_matrix_lists_run_file(plan, a->output, args->command_line, show_progress,
                                  &progress);
    om_cli_progress_end(&progress);
    rc = st == OM_OK ? OM_EXIT_OK : om_cli_fail(CMD, st);
    if (st == OM_OK)
        printf("Matrix: %s (%zu lists x %zu lists, %d legs of %llu battles). Next:\n"
               "  oddsmaster summary %s\n", a->output, plan->n_rows, plan->n_cols,
               OM_MATRIX_LEGS, (unsigned long long)spec.battles, a->output);
    om_matrix_lists_plan_free(plan);
    return rc;
}

static int matrix_run(const om_cli_args *args)
{
    const matrix_args *a = args->values;
    om_matrix_plan *plan = NULL;
    om_cli_progress progress;
    om_status st;
    int rc;

    if (a->list_situations) {
        list_situations();
        return OM_EXIT_OK;
    }
    if ((rc = check_options(args, a)) != 0)
        return rc;
    if (a->lists)
        return lists_run(args, a);
    if ((rc = make_cells_dir(a->cells_dir)) != 0)
        return rc;
    om_matrix_spec spec = {
        .ruleset = args->operands[0], .rows = args->operands[1], .cols = args->operands[2],
        .situations = a->situation.value, .n_situations = a->situation.count, .kind = a->kind,
        .seed = a->seed, .halfwidth = a->halfwidth, .max_trials = a->max_trials,
        .threads = (unsigned)a->threads, .options = a->option.value,
        .n_options = a->option.count, .trial_streams = a->trial_streams,
        .no_outcomes = a->no_rows,
        .trials = a->halfwidth == 0 && a->trials == 0 ? OM_MATRIX_DEFAULT_TRIALS : a->trials};
    if ((st = om_matrix_plan_alloc(&spec, &plan)) != OM_OK)
        return om_cli_fail(CMD, st);
    for (const char *line = plan->left_out; !a->quiet && *line != '\0';) {
        const char *end = strchr(line, '\n');
        om_cli_warn(CMD, "left out %.*s", (int)(end - line), line);
        line = end + 1;
    }
    om_cli_progress_start(&progress, CMD, "cells", a->quiet);
    st = om_matrix_run_file(plan, a->output, args->command_line, a->cells_dir, show_progress,
                            &progress);
    om_cli_progress_end(&progress);
    rc = st == OM_OK ? OM_EXIT_OK : om_cli_fail(CMD, st);
    if (st == OM_OK)
        printf("Matrix: %s (%zu situations x %zu rows x %zu columns). Next:\n"
               "  oddsmaster efficiency %s\n  oddsmaster chart %s --kind heatmap -o heat.png\n",
               a->output, plan->n_sits, plan->n_rows, plan->n_cols, a->output, a->output);
    om_matrix_plan_free(plan);
    return rc;
}

const om_cli_command om_cli_matrix = {
    .name = "matrix",
    .summary = "run every unit of one list against every unit of another",
    .usage = "oddsmaster matrix RULESET ROWS COLS -o FILE.h5 [--situation NAME]...\n"
             "                         [--trials N | --halfwidth H [--max-trials N]]\n"
             "                         [--kind engagement|combat] [--option KEY=VALUE]...\n"
             "                         [--seed S] [--threads T] [--trial-streams]\n"
             "                         [--no-rows] [--cells-dir DIR] [--quiet]\n"
             "oddsmaster matrix --lists ROWS COLS -o FILE.h5 [--battles N] [--seed S]\n"
             "                         [--threads T] [--length METHOD] [--turns N]\n"
             "                         [--terrain METHOD] [--deployment METHOD]\n"
             "                         [--no-rows] [--quiet]\n"
             "oddsmaster matrix --list-situations",
    .about =
        "Run every unit of ROWS (side A) against every unit of COLS (side B) of rule set\n"
        "RULESET, in each situation, and write one HDF5 matrix file with a dataset per\n"
        "statistic (trials, wins, draws, victory points lost) over [situation][row][col],\n"
        "labelled with the unit names, armies, troop types, points and situations.\n\n"
        "ROWS and COLS: comma-separated items, each ARMY (all its troop units; no\n"
        "characters or upgrades), ARMY/UNIT, a UNIT after an ARMY/UNIT item (another unit\n"
        "of that army), or all (every army of the rule set): empire/knights,halberdiers,\n"
        "orcs,chaos or all (see oddsmaster list RULESET/ARMY). A unit listed twice is an\n"
        "error. Each army gets its share of the field in `oddsmaster efficiency`. A unit\n"
        "an ARMY or all item brings whose data give an impossible value is left out with\n"
        "a warning (and named in the file); one named ARMY/UNIT is an error.\n\n"
        "Cells a unit has no part in (artillery in a melee, a unit without missiles\n"
        "asked to shoot, cavalry asked to hold a defended position) are run and flagged\n"
        "in the file; the fair-points model leaves them out of the unit's rating.\n\n"
        "--option KEY=VALUE sets a reading of an ambiguous rule in every cell, as a\n"
        "scenario's `options:` would (each cell's scenario holds it); the file records\n"
        "them in its options attribute. The file also keeps each trial's winner\n"
        "(unless --no-rows), so that oddsmaster compare can pair two matrices of one\n"
        "seed trial by trial: run both with --trial-streams and the same seed to try a\n"
        "rule change.\n\n"
        "With --lists, ROWS and COLS are army lists: comma-separated items, each an\n"
        "example list (oddsmaster battle's), a list file, or a folder (every *.yaml\n"
        "in it, by name), all of one rule set. Each row list (side A) fights each\n"
        "column list (side B) in whole battles, in four legs (the file's situations):\n"
        "side A deploying along the south or the north edge (the scenario key zones)\n"
        "x side A or B taking the first turn. Every leg of a pairing draws battle t\n"
        "from the same dice (each battle its own stream, of one seed a pairing): the\n"
        "same terrain and deployment rolls, and the same dice as far as the legs'\n"
        "play allows, so the legs differ by zones and first turn, battle by battle.\n"
        "The file holds per pairing and leg the battles, wins of A, draws, wins of B,\n"
        "the victory-point margin's sum and sum of squares, and (unless --no-rows)\n"
        "each battle's winner and margin; the lists' names, armies and points.\n"
        "Without --terrain the table is bare and the zones make no difference.\n"
        "oddsmaster summary FILE.h5 prints each pairing's odds pooled over the legs\n"
        "and the first-turn and zone effects, paired battle by battle.",
    .exits =
        "  1  also: an --option that is not KEY=VALUE\n"
        "  2  unknown rule set, army, unit, situation or option; a character or a unit\n"
        "     listed twice; an army none of whose units takes part in the situations\n"
        "     chosen; an option of another game, a fixed reading, or a bad value;\n"
        "     with --lists: an unknown example list, a file (or a folder's *.yaml)\n"
        "     that is no list or breaks its army's rules (its file, line and field),\n"
        "     lists of two rule sets, an unknown length, terrain or deployment\n"
        "  3  cannot write the file or a --cells-dir file (with the system's reason;\n"
        "     a failed matrix leaves neither); a list file or folder unreadable\n"
        "  4  internal error\n",
    .options = matrix_options,
    .n_options = sizeof matrix_options / sizeof matrix_options[0],
    .values_size = sizeof(matrix_args),
    .defaults = &matrix_defaults,
    .min_operands = 0,
    .max_operands = 3,
    .operands = "RULESET ROWS COLS",
    .operand = {{OM_CLI_COMPLETE_RULESET, NULL, NULL},
                {OM_CLI_COMPLETE_UNITS, NULL, NULL},
                {OM_CLI_COMPLETE_UNITS, NULL, NULL}},
    .run = matrix_run,
};
