/*
 * run.c: the OpenMP Monte Carlo driver (see run.h for the reproducibility
 * contract). Blocks are simulated, tallied and prepared in parallel, then put
 * to the sink one at a time in block order: a thread whose block is not next
 * sleeps until it is (put_turn). The only shared mutable data are the error
 * record, the stop flag and the turn, written under the turn's lock.
 */
#include "run.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>
#include <threads.h>

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
    uint16_t *cls;        /* [block_size] each trial's class, when the trials have classes
                             (om_trials.n_classes), or NULL */
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
    uint64_t trials_done;         /* trials of the blocks put (in the put turn only) */
    uint64_t next_block;          /* the next loop index a thread takes (atomic) */
} run_state;

/*
 * Whose turn it is to put a block: blocks are put in block order, each by the
 * thread that simulated it. A thread whose block is not next sleeps on the
 * condition until it is. OpenMP's ordered region would do the same, but its
 * waiting threads spin, and on a machine shared with other work (or with
 * more threads than processors) the spinning takes the processor from the
 * thread it waits for (measured: a run with rows on 2 threads of a busy
 * 2-core machine five times slower than on 1).
 */
typedef struct put_turn {
    mtx_t lock;     /* guards next */
    cnd_t moved;    /* next changed */
    uint64_t next;  /* the loop index whose block is put next */
} put_turn;

/* Wait until loop index k's turn. */
static void turn_wait(put_turn *t, uint64_t k)
{
    mtx_lock(&t->lock);
    while (t->next != k)
        cnd_wait(&t->moved, &t->lock);
    mtx_unlock(&t->lock);
}

/* Loop index k's turn is over: the next one's begins. */
static void turn_pass(put_turn *t, uint64_t k)
{
    mtx_lock(&t->lock);
    assert(t->next == k);
    t->next = k + 1;
    cnd_broadcast(&t->moved);
    mtx_unlock(&t->lock);
}

/* Record the first error and stop the run. Threads record errors at any time
 * (one failing to start, another in its put turn), so under one lock. */
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
    if (sink != NULL && t->n_classes > 0 && t->game->resolve_classes != NULL &&
        (w->cls = malloc(block_size * sizeof *w->cls)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a block of %llu trials",
                        (unsigned long long)block_size);
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
    free(w->cls);
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
    /* Without a sink nobody reads the tally (the engine-only benchmark). */
    if (sink == NULL) {
        t->game->resolve_block(t->prepared, w->game_work, &w->dice, w->rows, b->n);
        return OM_OK;
    }
    if (w->cls != NULL) {
        /* Trials with classes: counted by class; a sink that reads no rows,
         * or takes those of trials of a class from their class, does not
         * even get them. */
        om_status st;
        t->game->resolve_classes(t->prepared, w->game_work, &w->dice, w->rows, w->cls,
                                 !sink->tally_only && !sink->by_class, b->n);
        st = om_tally_block_classes(w->tw, w->rows, w->cls, t->class_rows, t->n_classes, b->n,
                                    w->tally);
        if (st != OM_OK)
            return st;
    } else {
        t->game->resolve_block(t->prepared, w->game_work, &w->dice, w->rows, b->n);
        om_tally_block(w->tw, w->rows, b->n, w->tally);
    }
    b->rows = sink->tally_only ? NULL : w->rows;
    b->cls = w->cls;
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
    put_turn turn = {.next = 0};

    if (trials_done)
        *trials_done = 0;
    if (cfg->trials == 0)
        return OM_ERROR(OM_EINVAL, "the number of trials must be at least 1");
    if (mtx_init(&turn.lock, mtx_plain) != thrd_success)
        return OM_ERROR(OM_ENOMEM, "cannot make the lock of the blocks' turn");
    if (cnd_init(&turn.moved) != thrd_success) {
        mtx_destroy(&turn.lock);
        return OM_ERROR(OM_ENOMEM, "cannot make the condition of the blocks' turn");
    }

#pragma omp parallel num_threads(threads)
    {
        worker w;
        om_status init = worker_init(&w, t, cfg, sink, block_size);
        if (init != OM_OK)
            record_failure(&rs, init);

        /* Blocks in parallel, puts in block order: a thread takes the next
         * block (so every earlier one is already some thread's) and, once
         * it is simulated, waits (asleep) for the earlier ones to be put. */
        for (;;) {
            uint64_t k;
            om_block b;
            bool skip, stop = false, put = false;
            om_status st = OM_OK;
#pragma omp atomic capture
            k = rs.next_block++;
            if (k >= n_blocks)
                break;
            b = (om_block){.index = cfg->first_block + k};
            b.first = b.index * block_size;
            b.n = (size_t)(cfg->trials - k * block_size < block_size ? cfg->trials - k * block_size
                                                                      : block_size);
            /* A block after a stop or an error is not simulated. */
#pragma omp atomic read
            skip = rs.stopped;
            if (!skip && init == OM_OK)
                st = worker_block(&w, t, cfg, sink, &b);
            turn_wait(&turn, k);
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
                        put = true;
                        rs.trials_done += b.n;
                        if (stop) {
#pragma omp atomic write
                            rs.stopped = true;
                        }
                    }
                }
            }
            turn_pass(&turn, k);
            /* What the put left to this thread, in parallel with the next put. */
            if (put && sink != NULL && sink->after_put != NULL &&
                (st = sink->after_put(sink->ctx, &b)) != OM_OK)
                record_failure(&rs, st);
        }
        worker_free(&w, t, sink);
    }
    cnd_destroy(&turn.moved);
    mtx_destroy(&turn.lock);
    if (trials_done)
        *trials_done = rs.trials_done;
    if (rs.failed != OM_OK)
        return OM_ERROR(rs.failed, "%s", rs.failed_msg);
    return OM_OK;
}
