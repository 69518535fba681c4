/*
 * run.c: the OpenMP Monte Carlo driver (see run.h for the reproducibility
 * contract). Blocks are simulated, tallied and prepared in parallel (two at
 * once where the game can, game.h resolve_classes2), then put to the sink
 * one at a time in block order: a thread holds the blocks it simulated until
 * their turn, taking more meanwhile while it has room, and sleeps until its
 * oldest one's turn when it has none (put_turn). The only shared mutable data
 * are the error record, the stop flag and the turn, written under the turn's
 * lock.
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

/* Blocks a thread takes at once, at most: two blocks whose trials come with
 * classes are simulated together (game.h resolve_classes2). Put one after
 * the other, their chunks follow one another in the file and are written
 * together (om_run_sink.after_put): measured, one write of two blocks'
 * chunks costs the kernel about a quarter less than two writes of one
 * (larger writes, larger pages of its cache). */
#define SLOTS OM_RUN_TAKEN_MAX

/* One block's buffers in a thread: its rows (with the slack om_tally_block
 * reads past the last one), classes, tally, sink workspace and dice. */
typedef struct slot {
    uint8_t *rows;        /* block_size rows */
    uint16_t *cls;        /* [block_size] each trial's class, when the trials have classes
                             (om_trials.n_classes), or NULL */
    om_tally *tally;      /* the tally of its current block */
    void *sink_work;      /* the sink's workspace */
    om_dice dice;         /* its dice */
} slot;

/* Sets of slots a thread holds: the blocks it simulates, and up to SETS - 1
 * sets it simulated before, waiting for their turn to be put
 * (om_run_simulate). */
#define SETS 4

/* One thread's buffers: a slot per block it holds, and what its blocks
 * share. */
typedef struct worker {
    slot s[SETS * SLOTS]; /* the blocks it holds: set q is s[q * SLOTS ..] */
    unsigned slots;       /* how many blocks it takes at once: SLOTS when two blocks of
                             trials with classes are simulated together, else 1 */
    om_tally_work *tw;    /* the distinct-row counter */
    void *game_work;      /* the game's workspace (game.h work_alloc), or NULL */
    gsl_rng *plain;       /* the baseline generator, or NULL */
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

/* Whether it is loop index k's turn. */
static bool turn_is(put_turn *t, uint64_t k)
{
    bool is;
    mtx_lock(&t->lock);
    is = t->next == k;
    mtx_unlock(&t->lock);
    return is;
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

/* Blocks of trials with classes are simulated in pairs: the game can, the
 * trials are counted by class, and the dice are the fast ones, one stream a
 * block. */
static unsigned slots_for(const om_trials *t, const om_run_config *cfg, const om_run_sink *sink)
{
    return sink != NULL && t->n_classes > 0 && t->game->trials->resolve_classes != NULL &&
                   t->game->trials->resolve_classes2 != NULL && !cfg->plain_dice &&
                   !cfg->trial_streams
               ? SLOTS
               : 1u;
}

static om_status slot_init(slot *s, const om_trials *t, const om_run_sink *sink,
                           uint64_t block_size)
{
    s->rows = malloc(block_size * t->layout.row_size + OM_TALLY_ROW_SLACK);
    s->tally = malloc(sizeof *s->tally);
    s->dice.plain = NULL;
    if (s->rows == NULL || s->tally == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a block of %llu trials",
                        (unsigned long long)block_size);
    memset(s->rows + block_size * t->layout.row_size, 0, OM_TALLY_ROW_SLACK);
    if (sink != NULL && t->n_classes > 0 && t->game->trials->resolve_classes != NULL &&
        (s->cls = malloc(block_size * sizeof *s->cls)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a block of %llu trials",
                        (unsigned long long)block_size);
    if (sink != NULL && sink->work_alloc != NULL)
        return sink->work_alloc(sink->ctx, &s->sink_work);
    return OM_OK;
}

static om_status worker_init(worker *w, const om_trials *t, const om_run_config *cfg,
                             const om_run_sink *sink, uint64_t block_size)
{
    memset(w, 0, sizeof *w);
    w->slots = slots_for(t, cfg, sink);
    for (unsigned q = 0; q < SETS; q++)
        for (unsigned j = 0; j < w->slots; j++) {
            om_status st = slot_init(&w->s[q * SLOTS + j], t, sink, block_size);
            if (st != OM_OK)
                return st;
        }
    if (cfg->plain_dice && (w->plain = gsl_rng_alloc(gsl_rng_default)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for the baseline generator");
    if (t->game->trials->work_alloc != NULL) {
        om_status st = t->game->trials->work_alloc(t->prepared, &w->game_work);
        if (st != OM_OK)
            return st;
    }
    return om_tally_work_alloc(&t->layout, &w->tw);
}

static void worker_free(worker *w, const om_trials *t, const om_run_sink *sink)
{
    if (t->game->trials->work_free != NULL)
        t->game->trials->work_free(w->game_work);
    for (unsigned j = 0; j < SETS * SLOTS; j++) {
        slot *s = &w->s[j];
        if (sink != NULL && sink->work_free != NULL && s->sink_work != NULL)
            sink->work_free(sink->ctx, s->sink_work);
        free(s->tally);
        free(s->cls);
        free(s->rows);
    }
    om_tally_work_free(w->tw);
    if (w->plain)
        gsl_rng_free(w->plain);
}

/* Slot s's dice at the start of block b's stream. */
static void slot_seed(worker *w, slot *s, const om_run_config *cfg, const om_block *b)
{
    om_rng_seed_block(&s->dice.rng, cfg->seed, b->index);
    s->dice.plain = w->plain;
    if (w->plain)
        seed_plain(w->plain, cfg->seed, b->index);
}

/* Tally the block in slot s, simulated, and let the sink prepare it. */
static om_status slot_finish(worker *w, slot *s, const om_trials *t, const om_run_sink *sink,
                             om_block *b)
{
    if (s->cls != NULL) {
        om_status st = om_tally_block_classes(w->tw, s->rows, s->cls, t->class_rows,
                                              t->n_classes, b->n, s->tally);
        if (st != OM_OK)
            return st;
    } else {
        om_tally_block(w->tw, s->rows, b->n, s->tally);
    }
    b->rows = sink->tally_only ? NULL : s->rows;
    b->cls = s->cls;
    b->tally = s->tally;
    b->work = s->sink_work;
    return sink->prepare != NULL ? sink->prepare(sink->ctx, b) : OM_OK;
}

/* Simulate the trials of block b in slot s one at a time, trial t (its
 * number in the run) from the stream seeded by (seed, t): the game's resolve
 * methods take any number of trials, so one trial a call is the same rules on
 * its own dice. */
static void resolve_by_trial(worker *w, slot *s, const om_trials *t, const om_run_config *cfg,
                             const om_block *b, bool class_rows)
{
    const size_t row_size = t->layout.row_size;
    for (size_t i = 0; i < b->n; i++) {
        om_rng_seed_block(&s->dice.rng, cfg->seed, b->first + i);
        if (s->cls != NULL)
            t->game->trials->resolve_classes(t->prepared, w->game_work, &s->dice,
                                             s->rows + i * row_size, s->cls + i, class_rows, 1);
        else
            t->game->trials->resolve_block(t->prepared, w->game_work, &s->dice,
                                           s->rows + i * row_size, 1);
    }
}

/* Simulate, tally and prepare the m blocks b[0..m) (m <= w->slots), block j
 * in slot s[j] of a set; st[j] becomes block j's status. Trials with classes
 * are counted by class; a sink that reads no rows, or takes those of trials
 * of a class from their class, does not even get them. */
static void worker_blocks(worker *w, slot *set, const om_trials *t, const om_run_config *cfg,
                          const om_run_sink *sink, om_block *b, unsigned m, om_status *st)
{
    const bool class_rows = sink != NULL && !sink->tally_only && !sink->by_class;
    for (unsigned j = 0; j < m; j++)
        st[j] = OM_OK;
    if (m == SLOTS && set[0].cls != NULL) {
        om_dice *const d[SLOTS] = {&set[0].dice, &set[1].dice};
        uint8_t *const rows[SLOTS] = {set[0].rows, set[1].rows};
        uint16_t *const cls[SLOTS] = {set[0].cls, set[1].cls};
        const size_t n[SLOTS] = {b[0].n, b[1].n};
        slot_seed(w, &set[0], cfg, &b[0]);
        slot_seed(w, &set[1], cfg, &b[1]);
        t->game->trials->resolve_classes2(t->prepared, w->game_work, d, rows, cls, class_rows, n);
    } else {
        for (unsigned j = 0; j < m; j++) {
            slot *s = &set[j];
            if (cfg->trial_streams) {
                s->dice.plain = NULL;
                resolve_by_trial(w, s, t, cfg, &b[j], class_rows);
                continue;
            }
            slot_seed(w, s, cfg, &b[j]);
            /* Without a sink nobody reads the tally (the engine-only benchmark). */
            if (s->cls != NULL)
                t->game->trials->resolve_classes(t->prepared, w->game_work, &s->dice, s->rows, s->cls,
                                         class_rows, b[j].n);
            else
                t->game->trials->resolve_block(t->prepared, w->game_work, &s->dice, s->rows, b[j].n);
        }
    }
    for (unsigned j = 0; sink != NULL && j < m; j++)
        st[j] = slot_finish(w, &set[j], t, sink, &b[j]);
}

/* Blocks a thread took at once (loop indices k .. k + m - 1), simulated (or
 * skipped: not ready), waiting to be put. */
typedef struct taken {
    uint64_t k;             /* the loop index of the first */
    unsigned m;             /* how many: 1 .. SLOTS */
    bool ready;             /* simulated (not after a stop, nor on a thread that failed
                               to start) */
    om_block b[SLOTS];      /* the blocks */
    om_status st[SLOTS];    /* how their simulation went */
} taken;

/* Block b's turn (loop index k): put it unless the run stopped or failed. */
static void put_block(run_state *rs, put_turn *turn, const om_run_sink *sink, uint64_t k,
                      const om_block *b, om_status st, bool ready, bool *put)
{
    bool stopped, stop = false;
    *put = false;
    turn_wait(turn, k);
#pragma omp atomic read
    stopped = rs->stopped;
    if (st != OM_OK) {
        record_failure(rs, st);
    } else if (!stopped && ready) {
        st = sink != NULL && sink->put != NULL ? sink->put(sink->ctx, b, &stop) : OM_OK;
        if (st != OM_OK) {
            record_failure(rs, st);
        } else {
            *put = true;
            rs->trials_done += b->n;
            if (stop) {
#pragma omp atomic write
                rs->stopped = true;
            }
        }
    }
    turn_pass(turn, k);
}

/* Put the blocks taken, each in its turn, then do what the puts left to this
 * thread (in parallel with the next put), for the blocks put together (a
 * block is not put once an earlier one was not: those put come first). */
static void put_taken(run_state *rs, put_turn *turn, const om_run_sink *sink, taken *tk)
{
    bool put = true;
    unsigned n_put = 0;
    om_status after;
    for (unsigned j = 0; j < tk->m; j++) {
        put_block(rs, turn, sink, tk->k + j, &tk->b[j], tk->st[j], tk->ready, &put);
        n_put += put && n_put == j;
    }
    if (n_put > 0 && sink != NULL && sink->after_put != NULL &&
        (after = sink->after_put(sink->ctx, tk->b, n_put)) != OM_OK)
        record_failure(rs, after);
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
    if (cfg->trial_streams && cfg->plain_dice)
        return OM_ERROR(OM_EINVAL, "the plain baseline dice have one stream a block, not one "
                        "a trial");
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

        /* Blocks in parallel, puts in block order. A thread takes the next
         * blocks (so every earlier one is already some thread's), simulates
         * them and holds them until their turn: it puts every set it holds
         * whose turn has come, oldest first, and takes more rather than wait
         * while it has a free set (a thread slowed down, by the kernel say,
         * holds up the others' puts, not their work); with none free, it
         * waits for its oldest. The earliest block held is always the next
         * to put, and its thread never waits for a later one: every turn
         * comes. */
        taken tk[SETS];
        unsigned head = 0, held = 0; /* tk[head] is the oldest of `held` sets */
        for (;;) {
            taken *cur;
            bool skip;
            const unsigned slots = init == OM_OK ? w.slots : 1u;
            while (held > 0 && (held == SETS || turn_is(&turn, tk[head].k))) {
                put_taken(&rs, &turn, sink, &tk[head]);
                head = (head + 1) % SETS;
                held--;
            }
            cur = &tk[(head + held) % SETS];
#pragma omp atomic capture
            {
                cur->k = rs.next_block;
                rs.next_block += slots;
            }
            if (cur->k >= n_blocks)
                break;
            cur->m = n_blocks - cur->k < slots ? (unsigned)(n_blocks - cur->k) : slots;
            for (unsigned j = 0; j < cur->m; j++) {
                const uint64_t kj = cur->k + j, left = cfg->trials - kj * block_size;
                cur->b[j] = (om_block){.index = cfg->first_block + kj};
                cur->b[j].first = cur->b[j].index * block_size;
                cur->b[j].n = (size_t)(left < block_size ? left : block_size);
                cur->st[j] = OM_OK;
            }
            /* Blocks after a stop or an error are not simulated. */
#pragma omp atomic read
            skip = rs.stopped;
            cur->ready = !skip && init == OM_OK;
            if (cur->ready)
                worker_blocks(&w, &w.s[((head + held) % SETS) * SLOTS], t, cfg, sink, cur->b,
                              cur->m, cur->st);
            held++;
        }
        /* The sets still held, each in its turn. */
        for (; held > 0; held--, head = (head + 1) % SETS)
            put_taken(&rs, &turn, sink, &tk[head]);
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
