/*
 * run.h: the Monte Carlo driver. Trials are cut into blocks of block_size; block
 * b draws all its dice from the PCG stream seeded by (seed, b), so the outcomes
 * are a function of (engagement, seed, trials, block_size) alone, whatever the
 * thread count or schedule. OpenMP threads take blocks dynamically; each thread
 * fills its own buffer, and finished blocks go to the sink one at a time.
 */
#ifndef OM_RUN_H
#define OM_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"
#include "wm.h"

/* Trials per block: 16384 rows of uint8 per field is a 16 KiB HDF5 chunk per
 * field, and ~300 KiB of outcomes per thread buffer (ENGINEERING.md 4.2). */
#define OM_RUN_BLOCK_SIZE 16384u

/* What to run. */
typedef struct om_run_config {
    uint64_t trials;     /* number of trials (>= 1) */
    uint64_t seed;       /* master seed */
    uint64_t block_size; /* trials per block (0: OM_RUN_BLOCK_SIZE) */
    uint64_t first_block; /* index of the first block: a run continued in batches draws
                             exactly the streams of one longer run (0 for a fresh run) */
    unsigned threads;    /* OpenMP threads (0: the OpenMP default) */
    bool plain_dice;     /* roll every die with GSL's default generator (baseline) */
} om_run_config;

/* Counts kept while running, for a quick answer without reading the file. */
typedef struct om_run_tally {
    uint64_t trials;     /* trials run */
    uint64_t winner[4];  /* trials per winner code (OM_WM_SIDE_A ... OM_WM_NO_CONTEST) */
    uint64_t stands_lost[2]; /* total stands lost per side */
} om_run_tally;

/*
 * A sink receives each finished block: rows first..first+count-1. It is called
 * from one thread at a time (inside a critical section), in any block order.
 * Return OM_OK, or an error status (raised with OM_ERROR) to stop the run.
 */
typedef om_status (*om_run_sink)(void *ctx, uint64_t first, const om_wm_outcome *rows,
                                 size_t count);

/*
 * om_run_simulate: run cfg->trials trials of `p`, passing every block to `sink`
 * (NULL: none) and filling `tally` (NULL: none). Rows are numbered from
 * cfg->first_block * block_size. Errors: OM_EINVAL (0 trials),
 * OM_ENOMEM, or the sink's error, re-raised on the calling thread.
 */
om_status om_run_simulate(const om_wm_prepared *p, const om_run_config *cfg, om_run_sink sink,
                          void *ctx, om_run_tally *tally);

/* Threads a run with cfg->threads would use. */
unsigned om_run_threads(unsigned requested);

#endif /* OM_RUN_H */
