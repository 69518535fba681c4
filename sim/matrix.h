/*
 * matrix.h: matchup matrices: every unit of one list against every unit of
 * another, in one or more situations (`oddsmaster matrix`), for any game.
 *
 * A matrix is planned once (om_matrix_plan_alloc): the game reads the units of
 * both lists from its data, once, and names the cells a unit has no part in;
 * then each cell's scenario is built from those units (the game's cell
 * function, no scenario text parsed) and run through the driver (run.h). Cell
 * (s, r, c) draws from the streams of seed om_matrix_cell_seed(seed, s, r, c):
 * cells are independent, and `oddsmaster run CELL.yaml --seed CELL_SEED`
 * reproduces a cell exactly (om_matrix_cell_scenario gives its text;
 * `matrix --cells-dir` writes them). Readings of ambiguous rules given for
 * the matrix (`matrix --option KEY=VALUE`) are in force in every cell and in
 * its text. Unless asked not to, the file keeps each trial's winner, so that
 * two matrices of one seed can be compared trial by trial (analysis/compare.h).
 */
#ifndef OM_MATRIX_H
#define OM_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "h5matrix.h"
#include "status.h"

/* Most situations one matrix may hold. */
#define OM_MATRIX_MAX_SITUATIONS 16

/* What to run. */
typedef struct om_matrix_spec {
    const char *ruleset;        /* rule set of both lists */
    const char *rows;           /* the row units (side A), in the game's list grammar */
    const char *cols;           /* the column units (side B) */
    const char *const *situations; /* situation names (n_situations of them) */
    size_t n_situations;        /* 0: the game's default set */
    const char *kind;           /* a kind the game's matrices run (NULL: its first) */
    uint64_t seed;              /* master seed */
    uint64_t trials;            /* fixed trials per cell (0: adaptive) */
    double halfwidth;           /* adaptive: stop at this 95% half-width of P(row wins) */
    uint64_t max_trials;        /* adaptive: most trials per cell */
    unsigned threads;           /* OpenMP threads (0: all cores) */
    const char *const *options; /* readings in force in every cell, "KEY=VALUE" each
                                   (n_options of them; om_game_settings_parse) */
    size_t n_options;           /* 0: every reading at its default */
    bool trial_streams;         /* each trial of a cell its own stream (run.h) */
    bool no_outcomes;           /* keep the cells' counts only, not each trial's winner */
} om_matrix_spec;

/* A matrix ready to run. */
typedef struct om_matrix_plan {
    const om_game *game;        /* the game of the rule set */
    om_matrix_spec spec;        /* what was asked (strings copied below) */
    char *ruleset, *kind, *row_spec, *col_spec; /* owned copies */
    om_game_unit *rows, *cols;  /* the units, read once (owned) */
    size_t n_rows, n_cols;      /* R, C */
    char *left_out;             /* units an ARMY or `all` item left out, and why, one per
                                   line ("" none; owned) */
    size_t n_sits;              /* S */
    size_t sit[OM_MATRIX_MAX_SITUATIONS]; /* each situation's index in game->situations */
    uint8_t *cannot;            /* [S][R][C] OM_GAME_*_CANNOT bits of each cell */
    om_game_setting settings[OM_GAME_SETTINGS_MAX]; /* the readings spec.options sets,
                                   checked and normalised */
    size_t n_settings;          /* entries of settings */
    char *options_text;         /* the settings as the file records them: "KEY=VALUE"
                                   each, separated by spaces ("" none; owned) */
    uint64_t outcome_trials;    /* trials each cell's row of winners holds room for (its
                                   trials fixed, or the adaptive cap in whole blocks); 0
                                   with spec.no_outcomes */
} om_matrix_plan;

/*
 * om_matrix_plan_alloc: plan the matrix `spec`: its game, its units and
 * situations, its readings, and the cells a unit has no part in. Errors:
 * OM_ENOTFOUND (unknown rule set, army, unit, situation or option, with
 * suggestions), OM_EINVAL (a unit listed twice, a character, a kind the
 * game's matrices do not run, too many situations, an army none of whose
 * units takes part in any situation, a unit named ARMY/UNIT whose data the
 * engine cannot fight with, an option that is no switch of the game or that
 * its cells do not read, or a bad value: om_game_settings_parse), OM_ENOMEM. A
 * unit an ARMY or `all` item brings whose data the engine cannot fight with is
 * left out, and named in p->left_out with the reason. Free with om_matrix_plan_free.
 */
om_status om_matrix_plan_alloc(const om_matrix_spec *spec, om_matrix_plan **out);
void om_matrix_plan_free(om_matrix_plan *p);

/* Seed of cell (s, r, c): SplitMix64 over the master seed and the cell. */
uint64_t om_matrix_cell_seed(uint64_t seed, size_t s, size_t r, size_t c);

/*
 * om_matrix_cell_scenario: the scenario of cell (s, r, c), built from the
 * plan's units; its text is the file `matrix --cells-dir` writes. Errors:
 * those of the game's cell. Free with om_scenario_free.
 */
om_status om_matrix_cell_scenario(const om_matrix_plan *p, size_t s, size_t r, size_t c,
                                  om_scenario **out);

/*
 * om_matrix_simulate_cell: run cell (s, r, c) with `threads` OpenMP threads
 * and fill *cell (trials, wins, draws, victory points, whether a unit has no
 * part in it) and, if `outcomes` is not NULL (room for p->outcome_trials
 * codes), each trial's winner code (OM_WINNER_A: the row unit won, ...) in
 * trial order. Errors: those of building and running it.
 */
om_status om_matrix_simulate_cell(const om_matrix_plan *p, size_t s, size_t r, size_t c,
                                  unsigned threads, om_matrix_cell *cell, uint8_t *outcomes);

/* Progress of a run, for a status line (called in a critical section). */
typedef void (*om_matrix_progress)(void *ctx, size_t done, size_t total);

/*
 * om_matrix_run_file: simulate every cell (in parallel, one thread each) and
 * write the matrix file at `path` (h5matrix.h) with the plan's axes,
 * situations, readings and (unless spec.no_outcomes) each trial's winner, and
 * `command_line` as provenance; if cells_dir is not NULL, also each cell's
 * scenario as cells_dir/s<S>_r<R>_c<C>.yaml (each written whole under a
 * temporary name, then renamed; those written are removed again if the run
 * fails). Errors: those of a cell, of creating cells_dir's files (OM_EIO,
 * with the system's reason), and of writing (OM_EIO, OM_EHDF5).
 */
om_status om_matrix_run_file(const om_matrix_plan *p, const char *path, const char *command_line,
                             const char *cells_dir, om_matrix_progress progress, void *ctx);

/* ------------------------------------------------ matrices of army lists */

/* Legs of each pairing of a list matrix: the deployment zones (side A along
 * the south edge, or the north) x the side taking the first turn (A, B). */
#define OM_MATRIX_LEGS 4

/* What a list matrix runs (`oddsmaster matrix --lists`). */
typedef struct om_matrix_lists_spec {
    const char *rows;           /* the row lists (side A): comma-separated items, each an
                                   example list, a list file, or a folder (every *.yaml in
                                   it, in the order of their names) */
    const char *cols;           /* the column lists (side B), alike */
    uint64_t battles;           /* battles of each leg of each pairing (>= 1) */
    uint64_t seed;              /* master seed */
    unsigned threads;           /* OpenMP threads (0: all cores) */
    const char *length;         /* the battles' length method, or NULL: the game's */
    unsigned turns;             /* turns of a fixed length (0: none) */
    const char *terrain;        /* how each battle's terrain is laid out, or NULL: none */
    const char *deployment;     /* how the armies set up, or NULL: the game's default */
    bool no_outcomes;           /* keep each cell's sums only, not each battle's winner and
                                   margin */
} om_matrix_lists_spec;

/* A list matrix ready to run: its lists, each pairing checked. */
typedef struct om_matrix_lists_plan {
    om_matrix_lists_spec spec;  /* what was asked (rows and cols: row_spec, col_spec) */
    char *row_spec, *col_spec;  /* owned copies of the operands */
    char **rows, **cols;        /* each list as the battle names it (an example's name, a
                                   file's path), folders expanded (owned) */
    size_t n_rows, n_cols;      /* R, C */
} om_matrix_lists_plan;

/*
 * om_matrix_lists_plan_alloc: plan the list matrix `spec`: its lists, a
 * folder's every *.yaml file, and the battle of every pairing built (the
 * game's battle from the command line, om_game_battle_text), so that every
 * list is checked (a file whose army's rules hold, or an example), all of one
 * rule set, with the length, terrain and deployment given. Errors: those of
 * om_game_battle_text, naming the list's file (OM_ENOTFOUND: an unknown
 * example; OM_EINVAL: lists of two rule sets, a rule broken; OM_EPARSE: a
 * file that is not a list; OM_EIO: unreadable), OM_EINVAL (no list, a folder
 * without a *.yaml file, no battles), OM_EIO (a folder unreadable), OM_ENOMEM.
 * Free with om_matrix_lists_plan_free.
 */
om_status om_matrix_lists_plan_alloc(const om_matrix_lists_spec *spec,
                                     om_matrix_lists_plan **out);
void om_matrix_lists_plan_free(om_matrix_lists_plan *p);

/*
 * om_matrix_lists_run_file: fight spec.battles battles of each of the
 * OM_MATRIX_LEGS legs of every pairing (row list r as side A against column
 * list c as side B), each leg on spec.threads threads, and write the matrix
 * file at `path` (h5matrix.h: situations the legs, rows and columns the
 * lists, battle_margins; unless spec.no_outcomes each battle's winner and
 * margin). Every leg of pairing (r, c) runs on seed om_matrix_cell_seed(seed,
 * 0, r, c) with each battle's own stream (trial streams), so that battle t of
 * each leg draws from the same dice; the file is the same on any number of
 * threads. The battles are held in memory until all are fought (a byte and
 * four a battle); the file is written only then (nothing on an error).
 * progress (may be NULL) is called after each leg. Errors: those of loading
 * and running the battles, of writing (OM_EIO, OM_EHDF5), OM_ENOMEM.
 */
om_status om_matrix_lists_run_file(const om_matrix_lists_plan *p, const char *path,
                                   const char *command_line, om_matrix_progress progress,
                                   void *ctx);

#endif /* OM_MATRIX_H */
