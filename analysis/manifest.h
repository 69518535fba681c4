/*
 * manifest.h: the reproducibility manifest every table and chart carries: the
 * program version that wrote the data, rule set, army data version, seed,
 * trials and file, as one line
 *
 *   oddsmaster 0.1.0 · warmaster-revolution · data lists 2.25 · seed 1 · 10,000 trials · k.h5
 *
 * so that a posted chart or table can be regenerated exactly (rerun the same
 * version with the same seed and trials). Pure functions; thread-safe.
 */
#ifndef OM_MANIFEST_H
#define OM_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "h5matrix.h"

/* Room for any manifest line with a file name of ordinary length. */
#define OM_MANIFEST_MAX 1024

/* Room for a count with thousands separators ("18,446,744,073,709,551,615"). */
#define OM_MANIFEST_COUNT_MAX 32

/* Where a result came from. Strings may be NULL or "" when unknown. */
typedef struct om_manifest {
    const char *program_version; /* version of oddsmaster that wrote the file */
    const char *ruleset;         /* rule set identifier */
    const char *data_version;    /* version of the army data */
    bool has_seed;               /* the file records its seed */
    uint64_t seed;               /* master seed */
    uint64_t trials;             /* trials in total */
    bool per_cell;               /* a matrix: trials are per cell */
    uint64_t trials_per_cell;    /* matrix with a fixed count: trials per cell; else 0 */
    double target_halfwidth;     /* adaptive matrix: target half-width; else 0 */
    const char *file;            /* the result file */
} om_manifest;

/* The manifest of a matrix file (strings borrowed from `m`; trials summed over all cells). */
void om_manifest_from_matrix(const om_matrix *m, om_manifest *out);

/* `n` with thousands separators: 1234567 -> "1,234,567". */
void om_manifest_count(uint64_t n, char buf[OM_MANIFEST_COUNT_MAX]);

/*
 * om_manifest_trials: how many trials, in words: "1,000,000 trials",
 * "10,000 trials per cell", or "adaptive to ±0.01 per cell, 123,456 trials".
 */
void om_manifest_trials(const om_manifest *mf, char *buf, size_t size);

/*
 * om_manifest_line: the one-line manifest, fields separated by " · " (U+00B7);
 * unknown fields are left out, except the seed, written "seed unknown".
 */
void om_manifest_line(const om_manifest *mf, char *buf, size_t size);

#endif /* OM_MANIFEST_H */
