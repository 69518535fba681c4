/*
 * run.c: the OpenMP Monte Carlo driver (see run.h for the reproducibility
 * contract). Blocks are simulated, tallied and prepared in parallel, then put
 * to the sink inside an OpenMP ordered region, so in block order. The only
 * shared mutable data are the error record and the stop flag, written in that
 * region.
 */
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "dice.h"
#include "rng.h"

unsigned om_run_threads(unsigned requested)
{
    return requested > 0 ? requested : (unsigned)omp_get_max_threads();
}

/* Seed the plain baseline generator of block b from the block's own stream, so
 * the baseline is as reproducible as the fast path. */
static void seed_plain(gsl_rng *g, uint64_t seed, uint64_t block)
{
    om_rng r;
    om_rng_seed_block(&r, seed, block);
    gsl_rng_set(g, (unsigned long)om_pcg64_next(&r));
}

/* One thread's buffers: its rows (with the slack om_tally_block reads past
 * the last one), its block's tally and workspace, its dice. */
typedef struct worker {
    uint8_t *rows;        /* block_size rows */
    om_tally *tally;      /* the tally of its current block */
    om_tally_work *tw;    /* the distinct-row counter */
    void *sink_work;      /* the sink's workspace */
    void *game_work;      /* the game's workspace (game.h work_alloc), or NULL */
    gsl_rng *plain;       /* the baseline generator, or NULL */
    om_dice dice;         /* its dice */
} worker;

/* The run's shared state. */
typedef struct run_state {
    om_status failed;             /* the first error, or OM_OK (under om_run_state) */
    char failed_msg[OM_ERROR_MSG_MAX]; /* its message */
    bool stopped;                 /* an error, or the sink asked to stop: put no later
                                     block (atomic) */
    uint64_t trials_done;         /* trials of the blocks put (ordered region only) */
} run_state;

/* Record the first error and stop the run. Threads record errors at any time
 * (one failing to start, another in the ordered region), so under one lock. */
static void record_failure(run_state *rs, om_status st)
{
#pragma omp critical(om_run_state)
    {
        if (rs->failed == OM_OK) {
            snprintf(rs->failed_msg, sizeof rs->failed_msg, "%s", om_error_message());
            rs->failed = st;
        }
    }
#pragma omp atomic write
    rs->stopped = true;
}

static om_status worker_init(worker *w, const om_trials *t, const om_run_config *cfg,
                             const om_run_sink *sink, uint64_t block_size)
{
    memset(w, 0, sizeof *w);
    w->rows = malloc(block_size * t->layout.row_size + OM_TALLY_ROW_SLACK);
    w->tally = malloc(sizeof *w->tally);
    if (w->rows == NULL || w->tally == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a block of %llu trials",
                        (unsigned long long)block_size);
    memset(w->rows + block_size * t->layout.row_size, 0, OM_TALLY_ROW_SLACK);
    if (cfg->plain_dice && (w->plain = gsl_rng_alloc(gsl_rng_default)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for the baseline generator");
    if (sink != NULL && sink->work_alloc != NULL) {
        om_status st = sink->work_alloc(sink->ctx, &w->sink_work);
        if (st != OM_OK)
            return st;
    }
    if (t->game->work_alloc != NULL) {
        om_status st = t->game->work_alloc(t->prepared, &w->game_work);
        if (st != OM_OK)
            return st;
    }
    return om_tally_work_alloc(&t->layout, &w->tw);
}

static void worker_free(worker *w, const om_trials *t, const om_run_sink *sink)
{
    if (t->game->work_free != NULL)
        t->game->work_free(w->game_work);
    if (sink != NULL && sink->work_free != NULL && w->sink_work != NULL)
        sink->work_free(sink->ctx, w->sink_work);
    om_tally_work_free(w->tw);
    if (w->plain)
        gsl_rng_free(w->plain);
    free(w->tally);
    free(w->rows);
}

/* Simulate, tally and prepare block `index` of n rows in worker w. */
static om_status worker_block(worker *w, const om_trials *t, const om_run_config *cfg,
                              const om_run_sink *sink, om_block *b)
{
    om_rng_seed_block(&w->dice.rng, cfg->seed, b->index);
    w->dice.plain = w->plain;
    if (w->plain)
        seed_plain(w->plain, cfg->seed, b->index);
    t->game->resolve_block(t->prepared, w->game_work, &w->dice, w->rows, b->n);
    /* Without a sink nobody reads the tally (the engine-only benchmark). */
    if (sink == NULL)
        return OM_OK;
    om_tally_block(w->tw, w->rows, b->n, w->tally);
    b->rows = w->rows;
    b->tally = w->tally;
    b->work = w->sink_work;
    return sink != NULL && sink->prepare != NULL ? sink->prepare(sink->ctx, b) : OM_OK;
}

om_status om_run_simulate(const om_trials *t, const om_run_config *cfg, const om_run_sink *sink,
                          uint64_t *trials_done)
{
    const uint64_t block_size = cfg->block_size ? cfg->block_size : OM_RUN_BLOCK_SIZE;
    const uint64_t n_blocks = cfg->trials == 0 ? 0 : (cfg->trials - 1) / block_size + 1;
    const int threads = (int)om_run_threads(cfg->threads);
    run_state rs = {.failed = OM_OK};

    if (trials_done)
        *trials_done = 0;
    if (cfg->trials == 0)
        return OM_ERROR(OM_EINVAL, "the number of trials must be at least 1");

#pragma omp parallel num_threads(threads)
    {
        worker w;
        om_status init = worker_init(&w, t, cfg, sink, block_size);
        if (init != OM_OK)
            record_failure(&rs, init);

        /* Blocks in parallel, puts in block order: a thread that finishes a
         * block early waits for the earlier ones at the ordered region. */
#pragma omp for ordered schedule(dynamic, 1)
        for (uint64_t k = 0; k < n_blocks; k++) {
            om_block b = {.index = cfg->first_block + k};
            bool skip, stop = false;
            om_status st = OM_OK;
            b.first = b.index * block_size;
            b.n = (size_t)(cfg->trials - k * block_size < block_size ? cfg->trials - k * block_size
                                                                      : block_size);
            /* A block after a stop or an error is not simulated. */
#pragma omp atomic read
            skip = rs.stopped;
            if (!skip && init == OM_OK)
                st = worker_block(&w, t, cfg, sink, &b);
#pragma omp ordered
            {
                bool stopped;
#pragma omp atomic read
                stopped = rs.stopped;
                if (st != OM_OK) {
                    record_failure(&rs, st);
                } else if (!stopped && init == OM_OK) {
                    st = sink != NULL && sink->put != NULL ? sink->put(sink->ctx, &b, &stop)
                                                           : OM_OK;
                    if (st != OM_OK) {
                        record_failure(&rs, st);
                    } else {
                        rs.trials_done += b.n;
                        if (stop) {
#pragma omp atomic write
                            rs.stopped = true;
                        }
                    }
                }
            }
        }
        worker_free(&w, t, sink);
    }
    if (trials_done)
        *trials_done = rs.trials_done;
    if (rs.failed != OM_OK)
        return OM_ERROR(rs.failed, "%s", rs.failed_msg);
    return OM_OK;
}
