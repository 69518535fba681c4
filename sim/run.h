/*
 * run.h: the Monte Carlo driver, the one function every simulation goes
 * through (`run`, each cell of `matrix`). Trials are cut into blocks of
 * block_size; block b draws all its dice from the PCG stream seeded by
 * (seed, b), so the rows are a function of (scenario, seed, trials,
 * block_size) alone, whatever the thread count or schedule. OpenMP threads
 * take blocks dynamically; each thread fills its own buffer through the
 * game's resolve_block, and finished blocks go to the sink one at a time.
 */
#ifndef OM_RUN_H
#define OM_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "status.h"

/* Trials per block: 16384 rows of uint8 per field is a 16 KiB HDF5 chunk per
 * field, and a few hundred KiB of rows per thread buffer. */
#define OM_RUN_BLOCK_SIZE 16384u

/* What to run. */
typedef struct om_run_config {
    uint64_t trials;      /* number of trials (>= 1) */
    uint64_t seed;        /* master seed */
    uint64_t block_size;  /* trials per block (0: OM_RUN_BLOCK_SIZE) */
    uint64_t first_block; /* index of the first block: a run continued in batches draws
                             exactly the streams of one longer run (0 for a fresh run) */
    unsigned threads;     /* OpenMP threads (0: the OpenMP default) */
    bool plain_dice;      /* roll every die with GSL's default generator (baseline) */
} om_run_config;

/*
 * A sink receives each finished block: rows first..first+count-1, row i at
 * rows + i * layout->row_size. It is called from one thread at a time (inside
 * a critical section), in any block order. Return OM_OK, or an error status
 * (raised with OM_ERROR) to stop the run.
 */
typedef om_status (*om_run_sink)(void *ctx, uint64_t first, const uint8_t *rows, size_t count);

/*
 * om_run_simulate: run cfg->trials trials of the prepared scenario `t`,
 * passing every block to `sink` (NULL: none). Rows are numbered from
 * cfg->first_block * block_size. Errors: OM_EINVAL (0 trials), OM_ENOMEM,
 * or the sink's error, re-raised on the calling thread.
 */
om_status om_run_simulate(const om_trials *t, const om_run_config *cfg, om_run_sink sink,
                          void *ctx);

/* Threads a run with cfg->threads would use. */
unsigned om_run_threads(unsigned requested);

/* What a run into a result file is asked for (`oddsmaster run`). */
typedef struct om_run_request {
    const char *path;         /* the result file: replaced only when the run succeeds */
    const char *command_line; /* the command as typed, for the file's provenance */
    uint64_t trials;          /* number of trials (>= 1) */
    uint64_t seed;            /* master seed */
    unsigned threads;         /* OpenMP threads (0: the OpenMP default) */
    bool plain_dice;          /* roll every die with GSL's default generator (baseline) */
} om_run_request;

/*
 * om_run_file: prepare the scenario `sc`, simulate req->trials trials of it
 * and write every row, with the run's provenance, to a new result file at
 * req->path (h5file.h), under a temporary name renamed only when everything
 * succeeded. Errors: those of preparing the scenario (OM_EINVAL, OM_ENOMEM),
 * of the driver and of the writer (OM_EIO, OM_EHDF5).
 */
om_status om_run_file(const om_scenario *sc, const om_run_request *req);

#endif /* OM_RUN_H */
