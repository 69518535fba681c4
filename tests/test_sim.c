/*
 * test_sim.c: the Monte Carlo driver (sim/run.c), the tallies (sim/tally.c) and
 * the run of a scenario into a result file (sim/run_file.c), end to end
 * through the game interface.
 *
 * The reproducibility contract (run.h): the same seed gives bit-identical rows
 * and tallies whatever the thread count, because block b always draws from
 * stream (seed, b) and blocks reach the sink in order. Checked by writing
 * files with 1 and 2 threads and comparing every dataset byte for byte; by
 * stopping at a target precision on 1 and 2 threads; and by interrupting a run
 * and resuming it, which must give the file of the uninterrupted run.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game.h"
#include "h5file.h"
#include "om_version.h"
#include "replay.h"
#include "rng.h"
#include "run.h"
#include "tally.h"
#include "tmpdir.h"

/* Enough trials for several blocks, and a partial last block. */
#define TRIALS 100000u
#define BLOCK 4096u

/* Room for a path in the test's directory (tmpdir.h: up to 255 bytes). */
#define PATH_BYTES 320

/* Each test's own directory under $TMPDIR (tmpdir.h). */
static void make_tmpdir(void)
{
    tmpdir_create("om_test_sim");
}

TestSuite(driver, .init = make_tmpdir, .fini = tmpdir_remove);
TestSuite(run_file, .init = make_tmpdir, .fini = tmpdir_remove);
TestSuite(tally);

/* The default scenario, loaded and prepared. */
static om_scenario *default_scenario(om_trials *t)
{
    om_scenario *sc = NULL;
    cr_assert_eq(om_scenario_load_default(&sc), OM_OK, "%s", om_error_message());
    if (t != NULL)
        cr_assert_eq(om_trials_prepare(sc, t), OM_OK, "%s", om_error_message());
    return sc;
}

/* Read every row dataset and every tally of a file into one buffer (fields in
 * the file's order), for byte-for-byte comparisons. */
static uint8_t *read_all(const char *path, uint64_t trials, size_t *len)
{
    om_h5_reader *r = NULL;
    om_tally *t = malloc(sizeof *t);
    size_t n, at = 0;
    uint8_t *buf;
    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_reader_trials(r), trials);
    n = om_h5_reader_field_count(r);
    cr_assert_gt(n, 0u);
    buf = malloc(2 * n * trials + sizeof t->hist);
    for (size_t f = 0; om_h5_reader_has_rows(r) && f < n; f++) {
        const om_field *fd = om_h5_reader_field(r, f);
        if (fd->type == OM_FIELD_COUNT16) {
            /* Two bytes a value (a turn's victory points). */
            cr_assert_eq(om_h5_reader_read16(r, fd->name, 0, trials, (uint16_t *)(buf + at)),
                         OM_OK, "%s", om_error_message());
            at += 2 * trials;
            continue;
        }
        cr_assert_eq(om_h5_reader_read(r, fd->name, 0, trials, buf + at), OM_OK, "%s",
                     om_error_message());
        at += trials;
    }
    cr_assert_eq(om_h5_reader_tally(r, t), OM_OK, "%s", om_error_message());
    memcpy(buf + at, t->hist, n * sizeof t->hist[0]);
    at += n * sizeof t->hist[0];
    om_h5_reader_close(r);
    free(t);
    *len = at;
    return buf;
}

/* om_run_file of the default scenario into `path`; the report's stop. */
static om_run_stop run_into(const char *path, uint64_t trials, uint64_t seed, unsigned threads,
                            const om_run_request *extra)
{
    om_scenario *sc = default_scenario(NULL);
    om_run_request req = extra ? *extra : (om_run_request){0};
    om_run_report rep;
    req.path = path;
    req.command_line = "test_sim";
    req.trials = trials;
    req.seed = seed;
    req.threads = threads;
    cr_assert_eq(om_run_file(sc, &req, &rep), OM_OK, "%s", om_error_message());
    om_run_stop stop = rep.stop;
    om_run_report_release(&rep);
    om_scenario_free(sc);
    return stop;
}

/* ----------------------------------------------------------- the driver */

/* What a recording sink saw. */
typedef struct record {
    uint64_t next;      /* the index the next block must have */
    uint64_t blocks;    /* blocks put */
    uint64_t stop_after; /* ask to stop after this many blocks (0: never) */
    bool out_of_order;  /* a block came early or late */
    uint64_t wins_a;    /* side A's wins, from the tallies */
    size_t winner;      /* the winner field */
} record;

static om_status record_put(void *ctx, const om_block *b, bool *stop)
{
    record *r = ctx;
    r->out_of_order |= b->index != r->next;
    r->next = b->index + 1;
    r->blocks++;
    r->wins_a += b->tally->hist[r->winner][OM_WINNER_A];
    if (r->stop_after && r->blocks == r->stop_after)
        *stop = true;
    return OM_OK;
}

/* Blocks reach the sink in order on 2 threads (and on 5, more than the
 * processors, where threads hold several sets of blocks waiting for their
 * turn), and a stop ends the run after that block: later blocks are not put
 * and the trials done are counted; the same wins whatever the threads. */
Test(driver, blocks_in_order_and_stop)
{
    om_trials t;
    om_scenario *sc = default_scenario(&t);
    const size_t winner = (size_t)om_layout_find(&t.layout, "winner");
    uint64_t wins[2] = {0, 0};
    for (unsigned r = 0; r < 2; r++) {
        record rec = {.winner = winner};
        om_run_sink sink = {.ctx = &rec, .put = record_put};
        om_run_config cfg = {.trials = TRIALS, .seed = 3, .block_size = BLOCK,
                             .threads = r == 0 ? 2 : 5, .first_block = 5};
        uint64_t done = 0;
        rec.next = 5;
        cr_assert_eq(om_run_simulate(&t, &cfg, &sink, &done), OM_OK, "%s", om_error_message());
        cr_expect_not(rec.out_of_order, "blocks put in order");
        cr_expect_eq(rec.blocks, (TRIALS + BLOCK - 1) / BLOCK);
        cr_expect_eq(done, TRIALS);
        wins[r] = rec.wins_a;

        rec = (record){.winner = winner, .next = 5, .stop_after = 7};
        cr_assert_eq(om_run_simulate(&t, &cfg, &sink, &done), OM_OK);
        cr_expect_eq(rec.blocks, 7u, "nothing put after the stop");
        cr_expect_eq(done, 7u * BLOCK);
        cr_expect_not(rec.out_of_order);
    }
    cr_expect_eq(wins[0], wins[1], "the same trials on 2 and 5 threads");
    om_trials_release(&t);
    om_scenario_free(sc);
}

/* What a sink saw of each block, by block: a fingerprint of its tally, and
 * the trials put. */
typedef struct fingerprints {
    uint64_t first_block; /* the run's first block */
    uint64_t next;        /* the index the next block must have */
    uint64_t blocks;      /* blocks put */
    uint64_t trials;      /* their trials */
    uint64_t stop_after;  /* ask to stop after this many blocks (0: never) */
    bool out_of_order;    /* a block came early or late */
    uint64_t print[16];   /* block first_block + k's fingerprint */
} fingerprints;

/* FNV-1a of a block's histograms. */
static uint64_t tally_print(const om_tally *t)
{
    const uint8_t *p = (const uint8_t *)t->hist;
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < t->field_count * sizeof t->hist[0]; i++)
        h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}

static om_status print_put(void *ctx, const om_block *b, bool *stop)
{
    fingerprints *r = ctx;
    r->out_of_order |= b->index != r->next;
    r->next = b->index + 1;
    if (b->index - r->first_block < 16)
        r->print[b->index - r->first_block] = tally_print(b->tally);
    r->blocks++;
    r->trials += b->n;
    if (r->stop_after && r->blocks == r->stop_after)
        *stop = true;
    return OM_OK;
}

/* A stop (a target reached, a signal) ends a run at the same block on 1, 2,
 * 3 and 5 threads, whatever the number of blocks (1, 2, 3, 7, 9, a short last
 * one: threads take two blocks at once and hold up to four sets, so odd
 * counts and counts that are no multiple of either leave sets part full),
 * with every block before it put once, in order, with the same trials as on
 * 1 thread, and the trials done counted. */
Test(driver, stop_at_the_same_block_on_any_threads)
{
    static const uint64_t blocks[] = {1, 2, 3, 7, 9};
    static const uint64_t stops[] = {0, 1, 2, 5};
    static const unsigned threads[] = {1, 2, 3, 5};
    om_trials t;
    om_scenario *sc = default_scenario(&t);
    cr_assert_gt(t.n_classes, 0u, "the default scenario's trials have classes: two blocks "
                 "are simulated at once");
    for (size_t nb = 0; nb < sizeof blocks / sizeof blocks[0]; nb++)
        for (size_t ns = 0; ns < sizeof stops / sizeof stops[0]; ns++) {
            const uint64_t trials = (blocks[nb] - 1) * BLOCK + 1000;
            const uint64_t put = stops[ns] && stops[ns] < blocks[nb] ? stops[ns] : blocks[nb];
            uint64_t one[16] = {0};
            for (size_t nt = 0; nt < sizeof threads / sizeof threads[0]; nt++) {
                fingerprints rec = {.first_block = 3, .next = 3, .stop_after = stops[ns]};
                om_run_sink sink = {.ctx = &rec, .put = print_put};
                om_run_config cfg = {.trials = trials, .seed = 9, .block_size = BLOCK,
                                     .threads = threads[nt], .first_block = 3};
                uint64_t done = 0;
                cr_assert_eq(om_run_simulate(&t, &cfg, &sink, &done), OM_OK, "%s",
                             om_error_message());
                cr_expect_not(rec.out_of_order, "%llu blocks, %u threads",
                              (unsigned long long)blocks[nb], threads[nt]);
                cr_expect_eq(rec.blocks, put, "%llu blocks, stop after %llu, %u threads: %llu "
                             "put", (unsigned long long)blocks[nb],
                             (unsigned long long)stops[ns], threads[nt],
                             (unsigned long long)rec.blocks);
                cr_expect_eq(done, rec.trials, "the trials of the blocks put");
                cr_expect_eq(done, put == blocks[nb] ? trials : put * BLOCK);
                if (nt == 0)
                    memcpy(one, rec.print, sizeof one);
                cr_expect_eq(memcmp(one, rec.print, sizeof one), 0,
                             "%llu blocks, %u threads: the blocks of 1 thread",
                             (unsigned long long)blocks[nb], threads[nt]);
            }
        }
    om_trials_release(&t);
    om_scenario_free(sc);
}

/* A sink workspace that cannot be made on one thread (its ninth: a thread
 * makes one for each of the 8 blocks it may hold). */
typedef struct flaky_alloc {
    unsigned calls; /* work_alloc calls so far (atomic) */
    unsigned made;  /* workspaces made and not freed (atomic) */
} flaky_alloc;

static om_status flaky_work_alloc(void *ctx, void **work)
{
    flaky_alloc *f = *(flaky_alloc **)ctx;
    *work = NULL;
    if (__atomic_add_fetch(&f->calls, 1, __ATOMIC_SEQ_CST) == 9)
        return OM_ERROR(OM_ENOMEM, "out of memory for a test workspace");
    if ((*work = malloc(1)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory");
    __atomic_add_fetch(&f->made, 1, __ATOMIC_SEQ_CST);
    return OM_OK;
}

static void flaky_work_free(void *ctx, void *work)
{
    flaky_alloc *f = *(flaky_alloc **)ctx;
    free(work);
    __atomic_sub_fetch(&f->made, 1, __ATOMIC_SEQ_CST);
}

/* The sink's context: the allocator first, then the record of the puts. */
typedef struct flaky_sink {
    flaky_alloc *alloc;
    fingerprints rec;
} flaky_sink;

static om_status flaky_put(void *ctx, const om_block *b, bool *stop)
{
    return print_put(&((flaky_sink *)ctx)->rec, b, stop);
}

/* A thread that cannot start (out of memory for its blocks) fails the run with
 * its error, on 2 and 3 threads: the others neither wait for it forever nor
 * put blocks past a gap (whatever was put is in order, counted in the trials
 * done), and every workspace made is freed. */
Test(driver, a_thread_that_cannot_start_fails_the_run)
{
    om_trials t;
    om_scenario *sc = default_scenario(&t);
    for (unsigned threads = 2; threads <= 3; threads++) {
        flaky_alloc alloc = {0};
        flaky_sink fs = {.alloc = &alloc};
        om_run_sink sink = {.ctx = &fs, .work_alloc = flaky_work_alloc,
                            .work_free = flaky_work_free, .put = flaky_put};
        om_run_config cfg = {.trials = TRIALS, .seed = 2, .block_size = BLOCK,
                             .threads = threads};
        uint64_t done = 0;
        cr_expect_eq(om_run_simulate(&t, &cfg, &sink, &done), OM_ENOMEM);
        cr_expect(strstr(om_error_message(), "test workspace") != NULL, "%s",
                  om_error_message());
        cr_expect_not(fs.rec.out_of_order);
        cr_expect_eq(done, fs.rec.trials);
        cr_expect_eq(alloc.made, 0u, "every workspace freed");
    }
    om_trials_release(&t);
    om_scenario_free(sc);
}

/* What a sink saw of its blocks' puts and of after_put (run.h). */
typedef struct after_record {
    uint64_t stop_after;         /* ask to stop after this many blocks put (0: never) */
    uint64_t fail_at;            /* the put of this block (from 0) fails (UINT64_MAX: none) */
    uint64_t puts;               /* blocks put (in the put turn) */
    bool put[16];                /* block k was put */
    unsigned after[16];          /* after_put's calls that had block k (atomic) */
    unsigned calls_of[OM_RUN_TAKEN_MAX + 1]; /* its calls of n blocks (atomic) */
    unsigned bad;                /* its calls whose blocks were not ones put, one after
                                    the other (atomic) */
} after_record;

static om_status after_record_put(void *ctx, const om_block *b, bool *stop)
{
    after_record *r = ctx;
    if (b->index == r->fail_at)
        return OM_ERROR(OM_EIO, "the put of block %llu fails", (unsigned long long)b->index);
    r->put[b->index] = true;
    if (++r->puts == r->stop_after)
        *stop = true;
    return OM_OK;
}

/* On the thread that put the blocks, which wrote their put[] itself. */
static om_status after_record_after(void *ctx, om_block *b, unsigned n)
{
    after_record *r = ctx;
    bool bad = n < 1 || n > OM_RUN_TAKEN_MAX;
    for (unsigned j = 0; !bad && j < n; j++) {
        bad = b[j].index != b[0].index + j || !r->put[b[j].index];
        __atomic_add_fetch(&r->after[b[j].index], 1, __ATOMIC_SEQ_CST);
    }
    if (bad)
        __atomic_add_fetch(&r->bad, 1, __ATOMIC_SEQ_CST);
    else
        __atomic_add_fetch(&r->calls_of[n], 1, __ATOMIC_SEQ_CST);
    return OM_OK;
}

/*
 * after_put gets the blocks a thread took at once and put one after the other
 * (two: the default scenario's trials have classes), each block put once, and
 * no block that was not put: after a stop the sink asked for at the first
 * block of a pair or at the second, and after a put that failed at the first
 * or at the second (the run then fails with its error); on 1, 2 and 3
 * threads, 9 blocks.
 */
Test(driver, after_put_gets_the_blocks_put_together)
{
    static const uint64_t stops[] = {0, 1, 2, 3, 6};
    static const uint64_t fails[] = {0, 1, 4, 5};
    const uint64_t blocks = 9;
    om_trials t;
    om_scenario *sc = default_scenario(&t);
    cr_assert_gt(t.n_classes, 0u, "two blocks are taken at once");
    for (unsigned threads = 1; threads <= 3; threads++)
        for (size_t c = 0; c < sizeof stops / sizeof stops[0] + sizeof fails / sizeof fails[0];
             c++) {
            const bool failing = c >= sizeof stops / sizeof stops[0];
            after_record rec = {.fail_at = UINT64_MAX};
            om_run_sink sink = {.ctx = &rec, .put = after_record_put,
                                .after_put = after_record_after};
            om_run_config cfg = {.trials = blocks * BLOCK, .seed = 4, .block_size = BLOCK,
                                 .threads = threads};
            uint64_t put;
            om_status st;
            if (failing)
                rec.fail_at = fails[c - sizeof stops / sizeof stops[0]];
            else
                rec.stop_after = stops[c];
            put = failing ? rec.fail_at : rec.stop_after ? rec.stop_after : blocks;
            st = om_run_simulate(&t, &cfg, &sink, NULL);
            cr_expect_eq(st, failing ? OM_EIO : OM_OK, "%u threads, case %zu: %s", threads, c,
                         om_error_message());
            cr_expect_eq(rec.puts, put, "%u threads, case %zu", threads, c);
            cr_expect_eq(rec.bad, 0u, "%u threads, case %zu: blocks put, in order", threads, c);
            for (uint64_t k = 0; k < blocks; k++)
                cr_expect_eq(rec.after[k], k < put ? 1u : 0u,
                             "%u threads, case %zu: block %llu", threads, c,
                             (unsigned long long)k);
            /* Blocks put in pairs (loop indices 0-1, 2-3, ...) come together. */
            cr_expect_eq(rec.calls_of[2], put / 2, "%u threads, case %zu", threads, c);
            cr_expect_eq(rec.calls_of[1], put % 2, "%u threads, case %zu", threads, c);
        }
    om_trials_release(&t);
    om_scenario_free(sc);
}

/* A sink that fails stops the run with its own message, from whichever thread. */
static om_status failing_put(void *ctx, const om_block *b, bool *stop)
{
    (void)ctx;
    (void)stop;
    if (b->first > 0)
        return OM_ERROR(OM_EIO, "disk full at row %llu", (unsigned long long)b->first);
    return OM_OK;
}

Test(driver, sink_errors_and_zero_trials)
{
    om_trials t;
    om_scenario *sc = default_scenario(&t);
    om_run_sink sink = {.put = failing_put};
    om_run_config cfg = {.trials = TRIALS, .seed = 1, .block_size = BLOCK, .threads = 2};
    cr_expect_eq(om_run_simulate(&t, &cfg, &sink, NULL), OM_EIO);
    cr_expect(strstr(om_error_message(), "disk full") != NULL, "%s", om_error_message());
    cfg.trials = 0;
    cr_expect_eq(om_run_simulate(&t, &cfg, NULL, NULL), OM_EINVAL);
    om_trials_release(&t);
    om_scenario_free(sc);
}

/* ----------------------------------------------------------- the tallies */

/* A block's tally is the histogram of its rows, field by field, whether the
 * rows take few values (the distinct-row table) or very many (the row-by-row
 * fallback past the table's fill). */
Test(tally, equals_the_histograms_of_the_rows)
{
    om_layout l = {.row_size = 13, .field_count = 3,
                   .fields = {{"a", "", NULL, 0, OM_FIELD_COUNT},
                              {"b", "", NULL, 7, OM_FIELD_COUNT},
                              {"c", "", NULL, 12, OM_FIELD_FLAG}}};
    const size_t n = 20000;
    uint8_t *rows = calloc(n * l.row_size + OM_TALLY_ROW_SLACK, 1);
    om_tally *got = malloc(sizeof *got), *want = malloc(sizeof *want);
    om_tally_work *w = NULL;
    om_rng rng;
    cr_assert_eq(om_tally_work_alloc(&l, &w), OM_OK);
    for (int pass = 0; pass < 2; pass++) {
        /* Pass 0: 3 x 4 x 2 distinct rows; pass 1: thousands, with noise in the
         * bytes no field reads (they must not split rows). */
        om_rng_seed_block(&rng, 99, (uint64_t)pass);
        om_tally_clear(want, 3);
        for (size_t i = 0; i < n; i++) {
            uint8_t *row = rows + i * l.row_size;
            uint64_t x = om_pcg64_next(&rng);
            row[0] = (uint8_t)(pass ? x % 200 : x % 3);
            row[7] = (uint8_t)(pass ? (x >> 8) % 100 : (x >> 8) % 4);
            row[12] = (uint8_t)((x >> 16) & 1);
            row[3] = (uint8_t)(x >> 24);
            for (size_t f = 0; f < 3; f++)
                want->hist[f][row[l.fields[f].offset]]++;
        }
        want->trials = n;
        om_tally_block(w, rows, n, got);
        cr_expect_eq(got->trials, n);
        for (size_t f = 0; f < 3; f++)
            cr_expect_eq(memcmp(got->hist[f], want->hist[f], sizeof got->hist[f]), 0,
                         "pass %d field %zu", pass, f);
    }
    om_tally_work_free(w);
    free(rows);
    free(got);
    free(want);
}

/* A block counted by class (om_tally_block_classes) has the tally of its rows:
 * trials of 5 classes, whose own rows are left unwritten, mixed with trials of
 * no class (1 in 7, then all, then none) whose rows are varied enough to fill
 * the distinct-row table; a block of 1 trial; and a second block through the
 * same workspace (the class counts emptied between blocks). */
Test(tally, classes_give_the_tally_of_the_rows)
{
    om_layout l = {.row_size = 13, .field_count = 3,
                   .fields = {{"a", "", NULL, 0, OM_FIELD_COUNT},
                              {"b", "", NULL, 7, OM_FIELD_COUNT},
                              {"c", "", NULL, 12, OM_FIELD_FLAG}}};
    const size_t n = 20000, n_classes = 5;
    uint8_t *rows = calloc(n * l.row_size + OM_TALLY_ROW_SLACK, 1);
    uint8_t *full = calloc(n * l.row_size + OM_TALLY_ROW_SLACK, 1);
    uint8_t class_rows[5 * 13] = {0};
    uint16_t *cls = malloc(n * sizeof *cls);
    om_tally *got = malloc(sizeof *got), *want = malloc(sizeof *want);
    om_tally_work *w = NULL, *w2 = NULL;
    om_rng rng;
    cr_assert_eq(om_tally_work_alloc(&l, &w), OM_OK);
    cr_assert_eq(om_tally_work_alloc(&l, &w2), OM_OK);
    for (size_t c = 0; c < n_classes; c++) {
        class_rows[c * 13 + 0] = (uint8_t)(10 + c);
        class_rows[c * 13 + 7] = (uint8_t)(c % 2);
        class_rows[c * 13 + 12] = (uint8_t)(c == 3);
    }
    for (int pass = 0; pass < 4; pass++) {
        const size_t m = pass == 3 ? 1 : n;
        om_rng_seed_block(&rng, 77, (uint64_t)pass);
        memset(rows, 0xAB, n * l.row_size); /* rows of classes unwritten */
        for (size_t i = 0; i < m; i++) {
            uint64_t x = om_pcg64_next(&rng);
            bool none = pass == 1 || (pass != 2 && x % 7 == 0);
            uint8_t *row = full + i * l.row_size;
            if (none) {
                cls[i] = OM_LAYOUT_NO_CLASS;
                row[0] = (uint8_t)((x >> 8) % 250);
                row[7] = (uint8_t)((x >> 16) % 100);
                row[12] = (uint8_t)((x >> 24) & 1);
                memcpy(rows + i * l.row_size, row, l.row_size);
            } else {
                cls[i] = (uint16_t)((x >> 32) % n_classes);
                memcpy(row, class_rows + cls[i] * l.row_size, l.row_size);
            }
        }
        om_tally_block(w2, full, m, want);
        cr_assert_eq(om_tally_block_classes(w, rows, cls, class_rows, n_classes, m, got), OM_OK);
        cr_expect_eq(got->trials, m);
        for (size_t f = 0; f < 3; f++)
            cr_expect_eq(memcmp(got->hist[f], want->hist[f], sizeof got->hist[f]), 0,
                         "pass %d field %zu", pass, f);
    }
    om_tally_work_free(w);
    om_tally_work_free(w2);
    free(rows);
    free(full);
    free(cls);
    free(got);
    free(want);
}

/* The Wilson half-width against its formula at hand-worked points: 50% of 100
 * gives 0.0962 (Newcombe 1998, Table 1 method 3: 0.404 to 0.596). */
Test(tally, wilson_halfwidth)
{
    cr_expect(fabs(om_tally_halfwidth95(50, 100) - 0.0961) < 5e-4, "%g",
              om_tally_halfwidth95(50, 100));
    cr_expect_lt(om_tally_halfwidth95(500000, 1000000), 0.001);
    cr_expect_gt(om_tally_halfwidth95(0, 10), 0.0);
}

/* ----------------------------------------------------------- run into a file */

Test(run_file, same_rows_and_tallies_on_1_and_2_threads)
{
    char f1[PATH_BYTES], f2[PATH_BYTES], f3[PATH_BYTES];
    size_t n1, n2, n3;
    run_into(tmpdir_path(f1, sizeof f1, "one.h5"), TRIALS, 2026, 1, NULL);
    run_into(tmpdir_path(f2, sizeof f2, "two.h5"), TRIALS, 2026, 2, NULL);
    run_into(tmpdir_path(f3, sizeof f3, "other.h5"), TRIALS, 2027, 2, NULL);
    uint8_t *a = read_all(f1, TRIALS, &n1), *b = read_all(f2, TRIALS, &n2),
            *c = read_all(f3, TRIALS, &n3);
    cr_assert_eq(n1, n2);
    cr_expect_eq(memcmp(a, b, n1), 0, "1 and 2 threads: identical rows and tallies");
    cr_expect_neq(memcmp(a, c, n1), 0, "another seed gives other results");
    free(a);
    free(b);
    free(c);
}

/* The tallies written are the histograms of the rows written. */
Test(run_file, tallies_count_the_rows)
{
    char path[PATH_BYTES];
    om_h5_reader *r = NULL;
    om_tally *t = malloc(sizeof *t);
    uint8_t *col = malloc(TRIALS);
    run_into(tmpdir_path(path, sizeof path, "t.h5"), TRIALS, 5, 2, NULL);
    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK);
    cr_assert_eq(om_h5_reader_tally(r, t), OM_OK, "%s", om_error_message());
    cr_expect_eq(t->trials, TRIALS);
    for (size_t f = 0; f < om_h5_reader_field_count(r); f++) {
        uint64_t hist[OM_TALLY_BINS] = {0};
        cr_assert_eq(om_h5_reader_read(r, om_h5_reader_field(r, f)->name, 0, TRIALS, col), OM_OK);
        for (size_t i = 0; i < TRIALS; i++)
            hist[col[i]]++;
        cr_expect_eq(memcmp(hist, t->hist[f], sizeof hist), 0, "%s",
                     om_h5_reader_field(r, f)->name);
    }
    om_h5_reader_close(r);
    free(t);
    free(col);
}

/* Without rows: the same tallies, no /trials datasets, a small file. */
Test(run_file, no_rows_keeps_the_tallies)
{
    char with[PATH_BYTES], without[PATH_BYTES];
    om_run_request nr = {.no_rows = true};
    om_h5_reader *r = NULL;
    om_tally *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    uint8_t byte;
    run_into(tmpdir_path(with, sizeof with, "rows.h5"), TRIALS, 8, 2, NULL);
    run_into(tmpdir_path(without, sizeof without, "norows.h5"), TRIALS, 8, 1, &nr);
    cr_assert_eq(om_h5_reader_open(&r, with), OM_OK);
    cr_assert_eq(om_h5_reader_tally(r, a), OM_OK);
    om_h5_reader_close(r);
    cr_assert_eq(om_h5_reader_open(&r, without), OM_OK, "%s", om_error_message());
    cr_expect_not(om_h5_reader_has_rows(r));
    cr_assert_eq(om_h5_reader_tally(r, b), OM_OK);
    cr_expect_eq(om_h5_reader_read(r, "winner", 0, 1, &byte), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "no rows") != NULL, "%s", om_error_message());
    cr_expect_eq(om_h5_reader_field_count(r), a->field_count);
    om_h5_reader_close(r);
    cr_expect_eq(memcmp(a->hist, b->hist, a->field_count * sizeof a->hist[0]), 0);
    free(a);
    free(b);
}

/* Stopping at a target precision: on 1, 2, 3 and 5 threads at the same block, with
 * every interval of the winner narrower than the target there and not one
 * block earlier; the file says why it stopped. */
Test(run_file, target_precision_stops_at_the_same_block)
{
    char p1[PATH_BYTES], p2[PATH_BYTES], *why = NULL;
    const double target = 0.004;
    om_run_request req = {.halfwidth = target};
    om_h5_reader *r = NULL;
    om_tally *t = malloc(sizeof *t);
    size_t n1, n2;
    uint64_t trials;
    cr_expect_eq(run_into(tmpdir_path(p1, sizeof p1, "h1.h5"), 10000000, 1, 1, &req), OM_RUN_PRECISE);
    cr_expect_eq(run_into(tmpdir_path(p2, sizeof p2, "h2.h5"), 10000000, 1, 2, &req), OM_RUN_PRECISE);
    cr_assert_eq(om_h5_reader_open(&r, p1), OM_OK);
    trials = om_h5_reader_trials(r);
    cr_assert_eq(om_h5_reader_tally(r, t), OM_OK);
    cr_assert_eq(om_h5_reader_attr_string(r, "stop_reason", &why), OM_OK);
    cr_expect(strstr(why, "target precision reached") != NULL, "%s", why);
    free(why);
    om_h5_reader_close(r);
    cr_expect_eq(trials % OM_RUN_BLOCK_SIZE, 0u, "a block boundary");
    cr_expect_lt(trials, 10000000u);
    for (unsigned v = 0; v < OM_WINNER_CODES; v++)
        cr_expect_leq(om_tally_halfwidth95(t->hist[0][v], trials), target, "code %u", v);
    /* One block earlier the widest interval, that of P(A wins) (near 0.85 and
     * 0.08 the others are narrower), was still too wide: the run stopped at
     * the first block that met the target (its width falls with the trials). */
    cr_expect_gt(om_tally_halfwidth95((uint64_t)((double)t->hist[0][OM_WINNER_A] *
                                                 (double)(trials - OM_RUN_BLOCK_SIZE) /
                                                 (double)trials),
                                      trials - OM_RUN_BLOCK_SIZE),
                 target - 1e-4);
    uint8_t *a = read_all(p1, trials, &n1), *b = read_all(p2, trials, &n2);
    cr_assert_eq(n1, n2);
    cr_expect_eq(memcmp(a, b, n1), 0, "the same file on 1 and 2 threads");
    free(b);
    for (unsigned threads = 3; threads <= 5; threads += 2) {
        char pn[PATH_BYTES], name[16];
        snprintf(name, sizeof name, "h%u.h5", threads);
        cr_expect_eq(run_into(tmpdir_path(pn, sizeof pn, name), 10000000, 1, threads, &req),
                     OM_RUN_PRECISE);
        b = read_all(pn, trials, &n2);
        cr_expect(n1 == n2 && memcmp(a, b, n1) == 0, "the same file on 1 and %u threads",
                  threads);
        free(b);
    }
    free(a);
    free(t);
}

/* A run of fewer trials than a block (its one chunk as long as the run) on 1
 * and 3 threads holds the first trials of a longer run: block 0's stream. */
Test(run_file, fewer_trials_than_a_block_start_a_longer_run)
{
    char longer[PATH_BYTES], path[PATH_BYTES];
    om_h5_reader *r = NULL;
    uint8_t *want = malloc(TRIALS), *got = malloc(1000);
    run_into(tmpdir_path(longer, sizeof longer, "longer.h5"), TRIALS, 21, 2, NULL);
    for (unsigned threads = 1; threads <= 3; threads += 2) {
        run_into(tmpdir_path(path, sizeof path, "short.h5"), 1000, 21, threads, NULL);
        cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
        cr_expect_eq(om_h5_reader_trials(r), 1000u);
        om_h5_reader *l = NULL;
        cr_assert_eq(om_h5_reader_open(&l, longer), OM_OK, "%s", om_error_message());
        for (size_t f = 0; f < om_h5_reader_field_count(r); f++) {
            const char *name = om_h5_reader_field(r, f)->name;
            cr_assert_eq(om_h5_reader_read(r, name, 0, 1000, got), OM_OK, "%s",
                         om_error_message());
            cr_assert_eq(om_h5_reader_read(l, name, 0, 1000, want), OM_OK, "%s",
                         om_error_message());
            cr_expect_eq(memcmp(got, want, 1000), 0, "%s on %u threads", name, threads);
        }
        om_h5_reader_close(l);
        om_h5_reader_close(r);
        remove(path);
    }
    free(want);
    free(got);
}

/* An interrupt flag raised by the progress callback after a few blocks, as a
 * signal handler would. */
typedef struct interrupter {
    atomic_int flag;            /* the flag the run watches */
    uint64_t at;                /* raise it once this many trials are done */
} interrupter;

static void interrupt_at(void *ctx, uint64_t done, uint64_t total)
{
    interrupter *it = ctx;
    (void)total;
    if (done >= it->at)
        it->flag = 1;
}

/* A run of trial streams: the same on 1 and 2 threads, other numbers than
 * one stream a block (the same seed), and, interrupted and resumed (the
 * resume told nothing of its streams: the file says them), the file an
 * uninterrupted run of trial streams writes. */
Test(run_file, trial_streams_are_reproducible_and_resume)
{
    char f1[PATH_BYTES], f2[PATH_BYTES], fb[PATH_BYTES], part[PATH_BYTES], partial[PATH_BYTES + 32];
    interrupter it = {.at = 2 * OM_RUN_BLOCK_SIZE};
    om_run_request ts = {.trial_streams = true};
    om_run_request req = {.trial_streams = true, .interrupt = &it.flag, .progress = interrupt_at,
                          .progress_ctx = &it};
    om_run_request resume = {.threads = 2};
    om_run_report rep;
    size_t n1, n2, nb, np;
    const uint64_t trials = 5 * OM_RUN_BLOCK_SIZE;

    run_into(tmpdir_path(f1, sizeof f1, "ts1.h5"), trials, 5, 1, &ts);
    run_into(tmpdir_path(f2, sizeof f2, "ts2.h5"), trials, 5, 2, &ts);
    run_into(tmpdir_path(fb, sizeof fb, "blocks.h5"), trials, 5, 2, NULL);
    cr_expect_eq(run_into(tmpdir_path(part, sizeof part, "tsp.h5"), trials, 5, 2, &req),
                 OM_RUN_INTERRUPTED);
    snprintf(partial, sizeof partial, "%s.partial", part);
    cr_assert_eq(om_run_resume(partial, &resume, &rep), OM_OK, "%s", om_error_message());
    cr_expect_eq(rep.stop, OM_RUN_DONE);
    om_run_report_release(&rep);
    uint8_t *a = read_all(f1, trials, &n1), *b = read_all(f2, trials, &n2),
            *c = read_all(fb, trials, &nb), *d = read_all(part, trials, &np);
    cr_assert(n1 == n2 && n1 == nb && n1 == np);
    cr_expect_eq(memcmp(a, b, n1), 0, "1 and 2 threads: identical rows and tallies");
    cr_expect_neq(memcmp(a, c, n1), 0, "trial streams roll other dice than block streams");
    cr_expect_eq(memcmp(a, d, n1), 0, "interrupted and resumed = uninterrupted");
    free(a);
    free(b);
    free(c);
    free(d);
    /* The baseline dice have one stream a block only. */
    om_scenario *sc = default_scenario(NULL);
    om_run_request both = {.path = f1, .command_line = "test_sim", .trials = 10, .seed = 1,
                           .plain_dice = true, .trial_streams = true};
    cr_expect_eq(om_run_file(sc, &both, &rep), OM_EINVAL);
    om_scenario_free(sc);
}

/* Interrupted, the run leaves PATH.partial, marked incomplete; resumed, it
 * becomes the file an uninterrupted run writes, rows and tallies bit for bit,
 * and the .partial file is gone. */
Test(run_file, interrupt_then_resume_gives_the_whole_run)
{
    char whole[PATH_BYTES], part[PATH_BYTES], partial[PATH_BYTES + 32];
    interrupter it = {.at = 3 * OM_RUN_BLOCK_SIZE};
    om_run_request req = {.interrupt = &it.flag, .progress = interrupt_at, .progress_ctx = &it};
    om_run_request resume = {.threads = 2};
    om_run_report rep;
    om_h5_reader *r = NULL;
    uint64_t complete = 1;
    size_t n1, n2;
    const uint64_t trials = 200000;

    run_into(tmpdir_path(whole, sizeof whole, "whole.h5"), trials, 11, 2, NULL);
    cr_expect_eq(run_into(tmpdir_path(part, sizeof part, "part.h5"), trials, 11, 1, &req),
                 OM_RUN_INTERRUPTED);
    snprintf(partial, sizeof partial, "%s.partial", part);
    cr_expect_neq(access(part, F_OK), 0, "no file under the finished name");
    cr_assert_eq(om_h5_reader_open(&r, partial), OM_OK, "%s", om_error_message());
    cr_expect_eq(om_h5_reader_trials(r), 3u * OM_RUN_BLOCK_SIZE);
    cr_assert_eq(om_h5_reader_attr_u64(r, "complete", &complete), OM_OK);
    cr_expect_eq(complete, 0u);
    om_h5_reader_close(r);

    cr_assert_eq(om_run_resume(partial, &resume, &rep), OM_OK, "%s", om_error_message());
    cr_expect_eq(rep.stop, OM_RUN_DONE);
    cr_expect_str_eq(rep.path, part);
    om_run_report_release(&rep);
    cr_expect_neq(access(partial, F_OK), 0, "the .partial file is gone");
    uint8_t *a = read_all(whole, trials, &n1), *b = read_all(part, trials, &n2);
    cr_assert_eq(n1, n2);
    cr_expect_eq(memcmp(a, b, n1), 0, "interrupted and resumed = uninterrupted");
    free(b);

    /* Interrupted on 3 threads after 5 blocks, resumed on 1 and interrupted
     * again after 8, resumed on 2: the same file again. */
    remove(part);
    it.at = 5 * OM_RUN_BLOCK_SIZE;
    it.flag = 0;
    cr_expect_eq(run_into(part, trials, 11, 3, &req), OM_RUN_INTERRUPTED);
    it.at = 8 * OM_RUN_BLOCK_SIZE;
    it.flag = 0;
    resume = (om_run_request){.threads = 1, .interrupt = &it.flag, .progress = interrupt_at,
                              .progress_ctx = &it};
    cr_assert_eq(om_run_resume(partial, &resume, &rep), OM_OK, "%s", om_error_message());
    cr_expect_eq(rep.stop, OM_RUN_INTERRUPTED);
    cr_expect_eq(rep.trials, 8u * OM_RUN_BLOCK_SIZE);
    om_run_report_release(&rep);
    resume = (om_run_request){.threads = 2};
    cr_assert_eq(om_run_resume(partial, &resume, &rep), OM_OK, "%s", om_error_message());
    cr_expect_eq(rep.stop, OM_RUN_DONE);
    om_run_report_release(&rep);
    b = read_all(part, trials, &n2);
    cr_expect(n1 == n2 && memcmp(a, b, n1) == 0, "interrupted twice = uninterrupted");
    free(a);
    free(b);
}

/* A signal during the last block: every trial asked for is run, so the run
 * is done, not interrupted: the finished file under its name, complete, and
 * no .partial file (one holding every trial could never be resumed). A run of
 * fewer trials than a block, and one whose last block is full. */
Test(run_file, interrupt_in_the_last_block_finishes_the_run)
{
    const uint64_t trials[2] = {1000, 2 * OM_RUN_BLOCK_SIZE};
    for (unsigned k = 0; k < 2; k++) {
        char path[PATH_BYTES], partial[PATH_BYTES + 32], name[32];
        interrupter it = {.at = trials[k]};
        om_run_request req = {.interrupt = &it.flag, .progress = interrupt_at,
                              .progress_ctx = &it};
        om_h5_reader *r = NULL;
        uint64_t complete = 0;
        snprintf(name, sizeof name, "last%u.h5", k);
        tmpdir_path(path, sizeof path, name);
        snprintf(partial, sizeof partial, "%s.partial", path);
        cr_expect_eq(run_into(path, trials[k], 3, 2, &req), OM_RUN_DONE, "%llu trials",
                     (unsigned long long)trials[k]);
        cr_expect_eq(it.flag, 1, "the flag was raised");
        cr_expect_neq(access(partial, F_OK), 0, "no .partial file");
        cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
        cr_expect_eq(om_h5_reader_trials(r), trials[k]);
        cr_assert_eq(om_h5_reader_attr_u64(r, "complete", &complete), OM_OK);
        cr_expect_eq(complete, 1u);
        om_h5_reader_close(r);
    }
}

/* A file that cannot be written (a full disk; here the process's file size
 * limit, past which writes fail with EFBIG): the run fails with the system's
 * reason and the file's name, leaves no file behind (no result, no .partial,
 * no temporary file), and the library stays sound (HDF5 1.10 keeps a file
 * whose close failed half closed, and crashed when it closed it again at
 * H5close or at exit). Failing while the blocks' chunks are written (rows, 2
 * threads), and at the close (tallies only, 1 thread). */
Test(run_file, a_failing_write_leaves_no_file_and_says_why)
{
    const struct {
        const char *name;
        rlim_t limit;
        bool no_rows;
        unsigned threads;
    } cases[2] = {{"rows.h5", 1u << 20, false, 2}, {"norows.h5", 8u << 10, true, 1}};
    struct rlimit old;
    cr_assert_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
    cr_assert_neq(signal(SIGXFSZ, SIG_IGN), SIG_ERR);
    for (unsigned k = 0; k < 2; k++) {
        char path[PATH_BYTES];
        om_scenario *sc = default_scenario(NULL);
        om_run_request req = {.path = tmpdir_path(path, sizeof path, cases[k].name),
                              .command_line = "test_sim", .trials = 2000000, .seed = 1,
                              .threads = cases[k].threads, .no_rows = cases[k].no_rows};
        struct rlimit lim = {.rlim_cur = cases[k].limit, .rlim_max = old.rlim_max};
        om_run_report rep;
        om_status st;
        cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
        st = om_run_file(sc, &req, &rep);
        cr_assert_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
        cr_expect(st == OM_EIO, "%s: %s (%s)", cases[k].name, om_status_name(st),
                  om_error_message());
        cr_expect(strstr(om_error_message(), path) != NULL, "%s", om_error_message());
        cr_expect(strstr(om_error_message(), strerror(EFBIG)) != NULL, "%s",
                  om_error_message());
        cr_expect_eq(tmpdir_entries(), 0, "%s: no file left", cases[k].name);
        om_run_report_release(&rep);
        om_scenario_free(sc);
        cr_expect_eq(H5close(), 0, "the library closes");
    }
    /* And a run after them writes its file. */
    char path[PATH_BYTES];
    run_into(tmpdir_path(path, sizeof path, "after.h5"), 50000, 1, 2, NULL);
    cr_expect_eq(access(path, F_OK), 0);
}

/* The bytes of a file, to see that a refused resume left it as it was. */
static uint8_t *file_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    cr_assert_not_null(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n);
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Resuming what cannot be resumed: a clear error naming the file and what
 * differs, and the file untouched. */
Test(run_file, resume_refusals)
{
    char done[PATH_BYTES], part[PATH_BYTES], partial[PATH_BYTES + 32], other[PATH_BYTES + 32];
    interrupter it = {.at = 1};
    om_run_request req = {.interrupt = &it.flag, .progress = interrupt_at, .progress_ctx = &it};
    om_run_request ask = {0};
    om_run_report rep;
    size_t n0, n1;
    uint8_t *before, *after;

    run_into(tmpdir_path(done, sizeof done, "done.h5"), 50000, 1, 1, NULL);
    cr_expect_eq(om_run_resume(done, &ask, &rep), OM_EINVAL, "not a .partial name");
    snprintf(other, sizeof other, "%s.partial", done);
    cr_assert_eq(rename(done, other), 0);
    cr_expect_eq(om_run_resume(other, &ask, &rep), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "complete") != NULL, "%s", om_error_message());

    run_into(tmpdir_path(part, sizeof part, "p.h5"), 100000, 4, 1, &req);
    snprintf(partial, sizeof partial, "%s.partial", part);
    before = file_bytes(partial, &n0);
    ask = (om_run_request){.seed = 5, .seed_given = true};
    cr_expect_eq(om_run_resume(partial, &ask, &rep), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "seed is 4, not 5") != NULL, "%s", om_error_message());
    ask = (om_run_request){.trials = 7, .trials_given = true};
    cr_expect_eq(om_run_resume(partial, &ask, &rep), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "100000 trials, not 7") != NULL, "%s",
              om_error_message());
    ask = (om_run_request){.scenario_text = "schema: other\n"};
    cr_expect_eq(om_run_resume(partial, &ask, &rep), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "another scenario") != NULL, "%s", om_error_message());
    after = file_bytes(partial, &n1);
    cr_expect(n0 == n1 && memcmp(before, after, n0) == 0, "the .partial file is untouched");
    cr_expect_neq(access(part, F_OK), 0, "and nothing else was written");
    free(before);
    free(after);

    /* A new run on the same output refuses to leave the .partial file stale. */
    om_scenario *sc = default_scenario(NULL);
    om_run_request again = {.path = part, .trials = 1000, .seed = 1};
    cr_expect_eq(om_run_file(sc, &again, &rep), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "--resume") != NULL, "%s", om_error_message());
    om_scenario_free(sc);
}

/*
 * A temporary file is being written while its lock is held, whatever its
 * process id says: "k.h5.tmp-1" (process 1, init, alive but not a run) that
 * another open file holds the lock of blocks a run on k.h5, which names the
 * process; once the lock is released (the writer killed, say) the file is a
 * leftover, and the next run removes it and says so: a reused process id does
 * not block.
 */
Test(run_file, a_temporary_file_is_judged_by_its_lock)
{
    char path[PATH_BYTES], tmp[PATH_BYTES + 32];
    om_scenario *sc = default_scenario(NULL);
    om_run_request req = {.trials = 1000, .seed = 1};
    om_run_report rep;
    int fd;
    tmpdir_path(path, sizeof path, "k.h5");
    snprintf(tmp, sizeof tmp, "%s.tmp-1", path);
    fd = open(tmp, O_RDWR | O_CREAT, 0666);
    cr_assert_geq(fd, 0);
    cr_assert_eq(flock(fd, LOCK_EX | LOCK_NB), 0, "%s", strerror(errno));
    req.path = path;
    cr_expect_eq(om_run_file(sc, &req, &rep), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "another run (process 1) is writing it now") != NULL,
              "%s", om_error_message());
    cr_expect_eq(access(tmp, F_OK), 0, "a file being written is left alone");
    cr_expect_neq(access(path, F_OK), 0, "and the run wrote nothing");
    om_run_report_release(&rep);
    close(fd);
    cr_assert_eq(om_run_file(sc, &req, &rep), OM_OK, "%s", om_error_message());
    cr_expect_neq(access(tmp, F_OK), 0, "the unlocked file of a live process id is removed");
    cr_assert_not_null(rep.notice);
    cr_expect(strstr(rep.notice, tmp) != NULL, "%s", rep.notice);
    om_run_report_release(&rep);
    om_scenario_free(sc);
}

/* A killed run's temporary file (its process gone) is removed by the next run
 * on the same output, which says so; a damaged .partial file is refused. */
Test(run_file, leftovers_of_a_killed_run)
{
    char path[PATH_BYTES], tmp[PATH_BYTES + 32], partial[PATH_BYTES + 32];
    om_scenario *sc = default_scenario(NULL);
    om_run_request req = {.trials = 1000, .seed = 1};
    om_run_report rep;
    FILE *f;
    tmpdir_path(path, sizeof path, "k.h5");
    /* pid_max is at most 2^22 on Linux: this process cannot exist. */
    snprintf(tmp, sizeof tmp, "%s.tmp-%d", path, 99999999);
    f = fopen(tmp, "w");
    cr_assert_not_null(f);
    fputs("half a file\n", f);
    fclose(f);
    req.path = path;
    cr_assert_eq(om_run_file(sc, &req, &rep), OM_OK, "%s", om_error_message());
    cr_expect_neq(access(tmp, F_OK), 0, "the stale temporary file is gone");
    cr_assert_not_null(rep.notice);
    cr_expect(strstr(rep.notice, tmp) != NULL && strstr(rep.notice, "killed") != NULL, "%s",
              rep.notice);
    om_run_report_release(&rep);

    snprintf(partial, sizeof partial, "%s.partial", path);
    f = fopen(partial, "w");
    cr_assert_not_null(f);
    fputs("not hdf5\n", f);
    fclose(f);
    cr_expect_eq(om_run_resume(partial, &req, &rep), OM_EHDF5);
    cr_expect(strstr(om_error_message(), partial) != NULL, "%s", om_error_message());
    om_scenario_free(sc);
}

/* ------------------------------------------------------ per-unit results */

/* Every unit's column of every unit field of a file, then its unit tallies,
 * in one buffer for byte-for-byte comparisons (with read_all's trial fields
 * before them). */
static uint8_t *read_all_units(const char *path, uint64_t trials, size_t *len)
{
    size_t n0;
    uint8_t *trial = read_all(path, trials, &n0);
    om_h5_reader *r = NULL;
    om_tally *t = malloc(sizeof *t);
    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    const size_t nf = om_h5_reader_unit_field_count(r), nu = om_h5_reader_unit_count(r);
    cr_assert_gt(nf * nu, 0u, "the file has per-unit results");
    cr_assert_eq(om_h5_reader_tally(r, t), OM_OK, "%s", om_error_message());
    uint8_t *buf = malloc(n0 + nf * nu * trials + t->unit_total * sizeof t->unit_hist[0]);
    size_t at = n0;
    memcpy(buf, trial, n0);
    for (size_t f = 0; f < nf; f++)
        for (size_t u = 0; u < nu; u++, at += trials)
            cr_assert_eq(om_h5_reader_read_unit(r, f, u, 0, trials, buf + at), OM_OK, "%s",
                         om_error_message());
    memcpy(buf + at, t->unit_hist, t->unit_total * sizeof t->unit_hist[0]);
    at += t->unit_total * sizeof t->unit_hist[0];
    cr_expect_eq(om_h5_reader_check_rows(r, NULL), OM_OK, "%s", om_error_message());
    om_h5_reader_close(r);
    free(trial);
    free(t);
    *len = at;
    return buf;
}

/* om_run_file of a whole turn (cavalry-wing.yaml: five units with per-unit
 * results) into `path`; the report's stop. */
static om_run_stop run_turn_into(const char *path, uint64_t trials, unsigned threads,
                                 const om_run_request *extra)
{
    om_scenario *sc = NULL;
    om_run_request req = extra ? *extra : (om_run_request){0};
    om_run_report rep;
    cr_assert_eq(om_scenario_load_file(OM_SOURCE_ROOT "/scenarios/examples/turns/"
                                       "cavalry-wing.yaml", &sc),
                 OM_OK, "%s", om_error_message());
    req.path = path;
    req.command_line = "test_sim";
    req.trials = trials;
    req.seed = 5;
    req.threads = threads;
    cr_assert_eq(om_run_file(sc, &req, &rep), OM_OK, "%s", om_error_message());
    om_run_stop stop = rep.stop;
    om_run_report_release(&rep);
    om_scenario_free(sc);
    return stop;
}

/* A turn's per-unit results, rows and tallies, are the same bit for bit on 1
 * and 2 threads, and interrupted on 1 thread and resumed on 2 they are the
 * uninterrupted run's (the unit tallies taken up from the .partial file). */
Test(run_file, unit_fields_same_on_1_and_2_threads_and_resumed)
{
    char f1[PATH_BYTES], f2[PATH_BYTES], part[PATH_BYTES], partial[PATH_BYTES + 32];
    const uint64_t trials = 3 * OM_RUN_BLOCK_SIZE + 1000;
    interrupter it = {.at = 2 * OM_RUN_BLOCK_SIZE};
    om_run_request req = {.interrupt = &it.flag, .progress = interrupt_at, .progress_ctx = &it};
    om_run_request resume = {.threads = 2};
    om_run_report rep;
    size_t n1, n2, n3;
    run_turn_into(tmpdir_path(f1, sizeof f1, "turn1.h5"), trials, 1, NULL);
    run_turn_into(tmpdir_path(f2, sizeof f2, "turn2.h5"), trials, 2, NULL);
    uint8_t *a = read_all_units(f1, trials, &n1), *b = read_all_units(f2, trials, &n2);
    cr_assert_eq(n1, n2);
    cr_expect_eq(memcmp(a, b, n1), 0, "1 and 2 threads: identical per-unit rows and tallies");
    free(b);

    cr_expect_eq(run_turn_into(tmpdir_path(part, sizeof part, "turnp.h5"), trials, 1, &req),
                 OM_RUN_INTERRUPTED);
    snprintf(partial, sizeof partial, "%s.partial", part);
    cr_assert_eq(om_run_resume(partial, &resume, &rep), OM_OK, "%s", om_error_message());
    cr_expect_eq(rep.stop, OM_RUN_DONE);
    om_run_report_release(&rep);
    uint8_t *c = read_all_units(part, trials, &n3);
    cr_expect(n1 == n3 && memcmp(a, c, n1) == 0, "interrupted and resumed = uninterrupted");
    free(a);
    free(c);
}

/* --target FIELD@UNIT watches one unit's field; a unit field without its
 * unit, an unknown unit or unit field is refused with what to write. */
Test(run_file, target_a_unit_field)
{
    char path[PATH_BYTES];
    om_scenario *sc = NULL;
    om_run_request req = {.command_line = "test_sim", .trials = 1000000, .seed = 1,
                          .threads = 2, .halfwidth = 0.02};
    om_run_report rep;
    cr_assert_eq(om_scenario_load_file(OM_SOURCE_ROOT "/scenarios/examples/turns/"
                                       "cavalry-wing.yaml", &sc),
                 OM_OK, "%s", om_error_message());
    req.path = tmpdir_path(path, sizeof path, "target.h5");
    req.target = "charged";
    cr_expect_eq(om_run_file(sc, &req, &rep), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "FIELD@UNIT (charged@knights)") != NULL, "%s",
              om_error_message());
    req.target = "charged@knight";
    cr_expect_eq(om_run_file(sc, &req, &rep), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "did you mean 'knights'?") != NULL, "%s",
              om_error_message());
    req.target = "chargd@knights";
    cr_expect_eq(om_run_file(sc, &req, &rep), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "did you mean 'charged'?") != NULL, "%s",
              om_error_message());
    cr_expect_neq(access(path, F_OK), 0, "a refused target writes no file");
    req.target = "charged@knights";
    cr_assert_eq(om_run_file(sc, &req, &rep), OM_OK, "%s", om_error_message());
    cr_expect_eq(rep.stop, OM_RUN_PRECISE);
    /* P(knights charged) is about 0.35: +-0.02 takes about 2,200 trials, a
     * block or two, far fewer than asked for. */
    cr_expect_lt(rep.trials, 100000u);
    om_run_report_release(&rep);
    om_scenario_free(sc);
}

/* ---- Replaying one trial (sim/replay.c) ---- */

TestSuite(replay);

/* A small battle: two example lists, two battle turns. */
static const char battle_text[] = "schema: oddsmaster-scenario/1\n"
                                  "kind: battle\n"
                                  "a: {list: revolution-empire-steel-and-shot}\n"
                                  "b: {list: revolution-orcs-horde}\n"
                                  "length: fixed\n"
                                  "turns: 2\n";

/* Battles in the run, blocks of them: several blocks, the last one short. */
#define REPLAY_TRIALS 40u
#define REPLAY_BLOCK 16u

/* Every row of a run, by trial. */
typedef struct rows_kept {
    uint8_t *rows;
    size_t row_size;
} rows_kept;

static om_status keep_rows(void *ctx, const om_block *b, bool *stop)
{
    rows_kept *k = ctx;
    (void)stop;
    memcpy(k->rows + b->first * k->row_size, b->rows, b->n * k->row_size);
    return OM_OK;
}

/* The trial replayed gives the row the run wrote for it, whatever the run's
 * threads, for trials at the start, middle and end of blocks, with block
 * streams and with trial streams; the story ends with the verdict. */
Test(replay, gives_the_row_of_the_run)
{
    om_scenario *sc = NULL;
    om_trials t = {0};
    const uint64_t ks[] = {0, 1, 15, 16, 17, 31, 39};
    cr_assert_eq(om_scenario_load_text("battle.yaml", battle_text, strlen(battle_text), &sc),
                 OM_OK, "%s", om_error_message());
    cr_assert_eq(om_trials_prepare(sc, &t), OM_OK, "%s", om_error_message());
    const size_t rs = t.layout.row_size;
    uint8_t *row = malloc(rs);
    rows_kept kept = {.rows = malloc(REPLAY_TRIALS * rs), .row_size = rs};
    cr_assert(row != NULL && kept.rows != NULL);
    for (unsigned streams = 0; streams < 2; streams++)
        for (unsigned threads = 1; threads <= 2; threads++) {
            om_run_sink sink = {.ctx = &kept, .put = keep_rows};
            om_run_config cfg = {.trials = REPLAY_TRIALS, .seed = 11, .block_size = REPLAY_BLOCK,
                                 .threads = threads, .trial_streams = streams == 1};
            memset(kept.rows, 0xee, REPLAY_TRIALS * rs);
            cr_assert_eq(om_run_simulate(&t, &cfg, &sink, NULL), OM_OK, "%s",
                         om_error_message());
            for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
                char *story = NULL;
                size_t len = 0;
                FILE *out = open_memstream(&story, &len);
                cr_assert_not_null(out);
                memset(row, 0xee, rs);
                cr_assert_eq(om_run_replay_trial(&t, &cfg, ks[i], row, out, 0, NULL), OM_OK,
                             "%s", om_error_message());
                fclose(out);
                cr_expect_eq(memcmp(row, kept.rows + ks[i] * rs, rs), 0,
                             "trial %llu (%u threads, %s streams) replays as the run had it",
                             (unsigned long long)ks[i], threads, streams ? "trial" : "block");
                cr_expect_not_null(strstr(story, "The battle ends"), "%s", story);
                free(story);
            }
        }
    free(kept.rows);
    free(row);
    om_trials_release(&t);
    om_scenario_free(sc);
}

/* What a replay refuses: a scenario that is not a battle, the plain dice. */
Test(replay, refusals)
{
    om_trials t;
    om_scenario *sc = default_scenario(&t);
    uint8_t row[256];
    om_run_config cfg = {.trials = 10, .seed = 1};
    FILE *out = fopen("/dev/null", "w");
    cr_assert_not_null(out);
    cr_assert_leq(t.layout.row_size, sizeof row);
    cr_expect_eq(om_run_replay_trial(&t, &cfg, 3, row, out, 0, NULL), OM_EUNSUPPORTED);
    cr_expect_not_null(strstr(om_error_message(), "only battles"), "%s", om_error_message());
    om_trials_release(&t);
    om_scenario_free(sc);
    cr_assert_eq(om_scenario_load_text("battle.yaml", battle_text, strlen(battle_text), &sc),
                 OM_OK);
    cr_assert_eq(om_trials_prepare(sc, &t), OM_OK);
    cfg.plain_dice = true;
    cr_expect_eq(om_run_replay_trial(&t, &cfg, 3, row, out, 0, NULL), OM_EUNSUPPORTED);
    cr_expect_not_null(strstr(om_error_message(), "plain"), "%s", om_error_message());
    fclose(out);
    om_trials_release(&t);
    om_scenario_free(sc);
}

/* The typical trial: the lower median of the margins, ties to the lowest
 * index. */
Test(replay, typical_is_the_median)
{
    const int32_t odd[] = {5, -3, 2, 9, 2};      /* sorted -3 2 2 5 9: median 2 */
    const int32_t even[] = {4, 1, 3, 2};         /* sorted 1 2 3 4: lower median 2 */
    const int32_t same[] = {7, 7, 7};
    const int32_t one[] = {-40};
    cr_expect_eq(om_replay_typical(odd, 5), 2u);
    cr_expect_eq(om_replay_typical(even, 4), 3u);
    cr_expect_eq(om_replay_typical(same, 3), 0u);
    cr_expect_eq(om_replay_typical(one, 1), 0u);
}
