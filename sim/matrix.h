/*
 * matrix.h: matchup matrices: every unit of one list against every unit of
 * another, in one or more situations (`oddsmaster matrix`).
 *
 * Each cell is an ordinary scenario, written as YAML text from the two units'
 * references (`from: army/unit`) and the situation's keys, loaded by the
 * scenario loader and simulated by the run driver, so a cell means exactly
 * what `oddsmaster run` of that text means. Cell (s, r, c) draws from the
 * streams of seed om_matrix_cell_seed(seed, s, r, c): cells are independent, and
 * `oddsmaster run CELL.yaml --seed CELL_SEED` reproduces a cell exactly
 * (om_matrix_cell_scenario gives CELL.yaml; `matrix --cells-dir` writes them).
 */
#ifndef OM_MATRIX_H
#define OM_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "h5matrix.h"
#include "status.h"

/* A built-in situation: what the two sides do, as scenario keys. */
typedef struct om_matrix_situation_def {
    const char *name;        /* e.g. "a-charges" */
    const char *description; /* one sentence */
    const char *a_keys;      /* side keys for the row unit (A), YAML lines */
    const char *b_keys;      /* side keys for the column unit (B) */
    bool b_shoots;           /* B stands and shoots when it can shoot */
    bool b_shoots_first;     /* B shot at A in its previous turn when it can shoot */
    bool a_shoots_first;     /* A shot at B in its previous turn when it can shoot */
    bool b_defended;         /* B is defended (infantry and artillery only) */
} om_matrix_situation_def;

/* The built-in situations, and lookup by name (NULL if unknown). */
size_t om_matrix_situation_count(void);
const om_matrix_situation_def *om_matrix_situation_at(size_t i);
const om_matrix_situation_def *om_matrix_situation_find(const char *name);

/* One unit of a list: which army entry, with the values a cell needs. */
typedef struct om_matrix_member {
    char army[64];   /* army id */
    char unit[64];   /* unit id */
    char name[64];   /* display name */
    unsigned points; /* points value */
    unsigned shots;  /* shooting Attacks (0: cannot shoot) */
    bool can_be_defended; /* infantry or artillery */
} om_matrix_member;

/*
 * A list of units: "army" (every unit of that army in the rule set: troops only,
 * no characters, mounts or upgrades), or "army/unit1,unit2" (those units).
 */
typedef struct om_matrix_list {
    char label[96];            /* the list as given, e.g. "empire" */
    size_t count;              /* units */
    om_matrix_member *members; /* owned */
} om_matrix_list;

/*
 * om_matrix_list_alloc: parse `spec` in rule set `ruleset` into *out. Errors:
 * OM_ENOTFOUND (unknown army or unit, with suggestions), OM_EINVAL (no units),
 * OM_ENOMEM. Free with om_matrix_list_free.
 */
om_status om_matrix_list_alloc(const char *ruleset, const char *spec, om_matrix_list **out);
void om_matrix_list_free(om_matrix_list *l);

/* What to run. */
typedef struct om_matrix_spec {
    const char *ruleset;              /* rule set of both lists */
    const om_matrix_list *rows;       /* units as side A */
    const om_matrix_list *cols;       /* units as side B */
    size_t n_situations;              /* situations */
    const om_matrix_situation_def *const *situations;
    const char *kind;                 /* "engagement" (the whole fight) or "combat" */
    uint64_t seed;                    /* master seed */
    uint64_t trials;                  /* fixed trials per cell (0: adaptive) */
    double halfwidth;                 /* adaptive: stop at this 95% half-width of P(row wins) */
    uint64_t max_trials;              /* adaptive: most trials per cell */
    unsigned threads;                 /* OpenMP threads (0: all cores) */
} om_matrix_spec;

/* Seed of cell (s, r, c): SplitMix64 over the master seed and the cell. */
uint64_t om_matrix_cell_seed(uint64_t seed, size_t s, size_t r, size_t c);

/*
 * om_matrix_cell_scenario: the scenario text of cell (s, r, c), as a new string
 * (free()), or NULL when out of memory. The situation's keys that a unit cannot
 * use (shooting without shots, a defended cavalry unit) are left out, and said
 * so in a comment of the text.
 */
char *om_matrix_cell_scenario(const om_matrix_spec *spec, size_t s, size_t r, size_t c);

/* Progress of a run, for a status line (called in a critical section). */
typedef void (*om_matrix_progress)(void *ctx, size_t done, size_t total);

/*
 * om_matrix_run: simulate every cell and write it to `w` (created by the caller
 * with om_matrix_info_fill's information). Cells run in parallel, one thread
 * each; a cell's runs are reproducible (see above). If cells_dir is not NULL,
 * each cell's scenario is written there as s<S>_r<R>_c<C>.yaml with its seed.
 * Errors: those of loading a cell's scenario (with the cell named), running it,
 * and writing.
 */
om_status om_matrix_run(const om_matrix_spec *spec, om_h5m_writer *w, const char *cells_dir,
                        om_matrix_progress progress, void *ctx);

/*
 * om_matrix_simulate_cell: run one cell as om_matrix_run does and fill *cell
 * (with `threads` OpenMP threads). Exposed so a cell can be checked against a
 * separate run.
 */
om_status om_matrix_simulate_cell(const om_matrix_spec *spec, size_t s, size_t r, size_t c,
                                  unsigned threads, om_matrix_cell *cell);

#endif /* OM_MATRIX_H */
