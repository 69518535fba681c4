/*
 * run.h: the Monte Carlo driver, the one function every simulation goes
 * through (`run`, each cell of `matrix`), and the run of a scenario into a
 * result file built on it.
 *
 * Trials are cut into blocks of block_size; block b draws all its dice from
 * the PCG stream seeded by (seed, b), so the rows are a function of
 * (scenario, seed, trials, block_size) alone, whatever the thread count or
 * schedule. With trial streams each trial t draws instead from the stream
 * seeded by (seed, t), so that a trial's dice do not depend on how many the
 * trials before it rolled: two runs of the same seed whose rules differ then
 * differ only in the trials where the difference bites (common random
 * numbers, for `oddsmaster compare`). OpenMP threads take blocks dynamically; each thread simulates a
 * block through the game's resolve_block, tallies it (tally.h) and lets the
 * sink prepare it (compress its rows, say) outside any lock; then the blocks
 * are handed to the sink one at a time and in block order, so everything the
 * sink accumulates, and any decision to stop, is the same for any number of
 * threads.
 */
#ifndef OM_RUN_H
#define OM_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "status.h"
#include "tally.h"

/* Trials per block: 16384 one-byte values per field is a 16 KiB chunk of each
 * dataset, and a few hundred KiB of rows per thread. */
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
    bool trial_streams;   /* each trial its own stream (OM_RNG_SCHEME_TRIALS), not each
                             block (OM_RNG_SCHEME); not with plain_dice */
} om_run_config;

/* One finished block, as the sink sees it. */
typedef struct om_block {
    uint64_t index;        /* its stream: block number first_block + k */
    uint64_t first;        /* its first row, index * block_size */
    size_t n;              /* its rows */
    const uint8_t *rows;   /* row i at rows + i * layout.row_size */
    const uint16_t *cls;   /* trial i's class (om_trials.class_rows), or OM_LAYOUT_NO_CLASS;
                              NULL when its trials have no classes */
    const om_tally *tally; /* the histograms of its rows */
    void *work;            /* the sink's workspace of the thread that ran it */
} om_block;

/* Most blocks a thread takes at once (and om_run_sink.after_put gets). */
#define OM_RUN_TAKEN_MAX 2

/*
 * Where blocks go. prepare (optional) runs on the thread that simulated the
 * block, outside any lock, in any order: the place for costly work such as
 * compressing rows into b->work. put runs in block order, one block at a
 * time; it returns OM_OK, an error (raised with OM_ERROR) to stop the run
 * with that error, or sets *stop to end the run after this block (a target
 * precision reached, a signal): later blocks are then not put. after_put
 * (optional) runs once blocks are put, on the thread that simulated them,
 * after the next block's put may have begun and before the thread's next
 * blocks: the place for costly work a put only scheduled, such as writing the
 * bytes it placed in a file (an error stops the run as put's do). It gets
 * the blocks b[0..n) the thread took at once and put one after the other
 * (1 <= n <= OM_RUN_TAKEN_MAX), so that such work can be done for them
 * together: those put, never one that was not (after a stop or an error, no
 * later block is put), and each once. work_alloc and work_free (optional)
 * make and free one workspace per thread.
 */
typedef struct om_run_sink {
    void *ctx;                                                   /* the sink's state */
    bool tally_only;  /* prepare and put read each block's tally, never its rows: the rows
                         of trials of a class (om_trials.class_rows) are not even written */
    bool by_class;    /* prepare and put take the row of a trial of a class from its
                         class (om_block.cls), never from om_block.rows: those rows are
                         not written either */
    om_status (*work_alloc)(void *ctx, void **work);             /* a thread's workspace */
    void (*work_free)(void *ctx, void *work);                    /* free it */
    om_status (*prepare)(void *ctx, om_block *b);                /* outside any lock */
    om_status (*put)(void *ctx, const om_block *b, bool *stop);  /* in block order */
    om_status (*after_put)(void *ctx, om_block *b, unsigned n); /* after the puts of
                                    b[0..n), on their thread, outside the turn (optional) */
} om_run_sink;

/*
 * om_run_simulate: run cfg->trials trials of the prepared scenario `t`,
 * handing every block to `sink` until the last, an error, or a stop; with no
 * sink (NULL) the blocks are simulated and dropped, not even tallied: the
 * engine alone, for benchmarks. *trials_done (may be NULL) receives the trials of the blocks put.
 * Errors: OM_EINVAL (0 trials; trial streams with plain dice), OM_ENOMEM, or
 * the sink's error, re-raised on the calling thread.
 */
om_status om_run_simulate(const om_trials *t, const om_run_config *cfg, const om_run_sink *sink,
                          uint64_t *trials_done);

/* Threads a run with cfg->threads would use. */
unsigned om_run_threads(unsigned requested);

/* Why a run into a file ended (om_run_report.stop). */
typedef enum om_run_stop {
    OM_RUN_DONE = 0,      /* every trial asked for was run */
    OM_RUN_PRECISE,       /* the target precision was reached first */
    OM_RUN_INTERRUPTED    /* a signal stopped it: the file is incomplete, resumable */
} om_run_stop;

/* What a run into a result file is asked for (`oddsmaster run`). */
typedef struct om_run_request {
    const char *path;         /* the result file: created only when the run succeeds */
    const char *command_line; /* the command as typed, for the file's provenance */
    uint64_t trials;          /* trials (>= 1); with a target precision, the most */
    uint64_t seed;            /* master seed */
    unsigned threads;         /* OpenMP threads (0: the OpenMP default) */
    bool plain_dice;          /* roll every die with GSL's default generator (baseline) */
    bool trial_streams;       /* each trial its own random stream (om_run_config) */
    bool no_rows;             /* write the tallies only, not the per-trial rows */
    double halfwidth;         /* stop once every 95% interval watched is narrower than
                                 this (0: run every trial) */
    const char *target;       /* the field whose intervals are watched (NULL: the winner's
                                 P(win), P(draw), P(lose) of both sides) */
    const atomic_int *interrupt; /* set by a signal handler: stop at the next block
                                 boundary and keep a resumable file (may be NULL); an atomic,
                                 lock-free int, which a handler may set and the threads of
                                 the run read (a volatile sig_atomic_t is only for the
                                 thread the handler interrupted) */
    void (*progress)(void *ctx, uint64_t done, uint64_t total); /* after each block put, in
                                 order (may be NULL) */
    void *progress_ctx;       /* its argument */
    /* Resuming: what the command named, which the interrupted run must match. */
    bool seed_given;          /* seed was given */
    bool trials_given;        /* trials was given */
    const char *scenario_text; /* a scenario was given: its text (NULL: none) */
} om_run_request;

/* What a run into a result file did. */
typedef struct om_run_report {
    om_run_stop stop;         /* why it ended */
    uint64_t trials;          /* trials in the file */
    char *path;               /* the file written: req->path, or its .partial name when
                                 interrupted (owned: free()) */
    char *notice;             /* what was done about leftovers of an earlier run at the
                                 same path (a stale temporary file removed), or NULL */
} om_run_report;

/*
 * om_run_file: check req->path (a regular file or a new name in an existing
 * directory), clean up what an earlier run killed on the same path left,
 * prepare the scenario `sc`, simulate it and write the rows (unless no_rows),
 * the tallies and the run's provenance to a new result file (h5file.h), under
 * a temporary name renamed only when the run ends: to req->path when it is
 * done (all trials, or the target precision reached), to req->path + ".partial"
 * when a signal interrupted it. Fills *report (om_run_report_release frees it).
 * Errors: OM_EINVAL (a bad output path or target field), those of preparing
 * the scenario (OM_EINVAL, OM_ENOMEM), of the driver and of the writer
 * (OM_EIO, OM_EHDF5).
 */
om_status om_run_file(const om_scenario *sc, const om_run_request *req, om_run_report *report);

/*
 * om_run_resume: continue the interrupted run in the .partial file `path`,
 * whose scenario, seed, trials and program version it checks first, against
 * the request and against the digest of the run the file wrote when the run
 * began, and whose every row it reads and counts against its tallies (a file
 * that is complete, edited, damaged, or of another version is refused,
 * unmodified),
 * until it is done, a target is reached or it is interrupted again. The
 * finished file is the one an uninterrupted run would have written, rows and
 * tallies bit for bit. req->path, trials, seed, halfwidth, target, no_rows and
 * the dice (plain_dice, trial_streams: the file's rng) are taken from the
 * file; threads, interrupt and progress from req. Errors:
 * OM_EINVAL (not resumable: complete, of another version; the message says
 * what differs), OM_EHDF5 (edited or damaged: the message names what), OM_EIO,
 * and those of om_run_file.
 */
om_status om_run_resume(const char *path, const om_run_request *req, om_run_report *report);

/* Free what a report owns (a zeroed report allowed). */
void om_run_report_release(om_run_report *report);

#endif /* OM_RUN_H */
