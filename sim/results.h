/*
 * results.h: the provenance of a run, written with its rows to the result file.
 * The rows themselves are described by the game's layout (game.h).
 */
#ifndef OM_RESULTS_H
#define OM_RESULTS_H

#include <stdbool.h>
#include <stdint.h>

#include "exact.h"
#include "layout.h"

/* Provenance of a run, written as attributes on the root group of the file. */
typedef struct om_run_info {
    const char *program_version; /* OM_VERSION */
    const char *command_line;    /* the command as typed */
    const char *game;            /* game family, e.g. "warmaster" */
    const char *scenario_name;   /* scenario file path or "<embedded default>" */
    const char *scenario_text;   /* the scenario file verbatim */
    const char *title;           /* scenario title */
    const char *ruleset;         /* rule set identifier */
    const char *kind;            /* the scenario's kind, e.g. "combat" */
    const char *options_json;    /* every value resolved, options and rules, as JSON */
    const char *rng_scheme;      /* OM_RNG_SCHEME */
    uint64_t seed;               /* master seed */
    uint64_t trials;             /* trials asked for (with a target precision, the most) */
    uint64_t block_size;         /* trials per random stream block, and rows per chunk */
    uint32_t threads;            /* threads used (results do not depend on it) */
    bool no_rows;                /* write the tallies only, no per-trial rows */
    double halfwidth;            /* target precision of the run, 0 if none */
    const char *target;          /* the field that precision is about (NULL: the winner) */
    const om_layout *layout;     /* the fields of a row and the sides' victory points */
    const om_exact *exact;       /* the exact law of those fields (/exact), or NULL: the
                                    file records none */
} om_run_info;

#endif /* OM_RESULTS_H */
