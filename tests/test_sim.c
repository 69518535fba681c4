/*
 * test_sim.c: the Monte Carlo driver (sim/run.c) and the library run into a
 * result file (sim/run_file.c), end to end through the game interface.
 *
 * The reproducibility contract (run.h): the same seed gives bit-identical
 * per-trial results whatever the thread count, because block b always draws
 * from stream (seed, b). Checked by writing result files with 1 and 2 threads
 * and comparing every dataset byte for byte; a different seed must differ.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game.h"
#include "h5file.h"
#include "rng.h"
#include "run.h"

/* Enough trials for several blocks of a small block size, so that two threads
 * really interleave blocks, and a partial last block. */
#define TRIALS 100000u
#define BLOCK 4096u

static char tmpdir[64];

static void make_tmpdir(void)
{
    strcpy(tmpdir, "/tmp/om_test_sim_XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
}

static void remove_tmpdir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    cr_assert_eq(system(cmd), 0);
}

/* What the test sink does with each block: write it, and count side A's wins. */
typedef struct test_sink {
    om_h5_writer *writer; /* where the rows go */
    size_t winner;        /* offset of the winner field */
    size_t row_size;      /* bytes per row */
    uint64_t wins_a;      /* trials side A won */
} test_sink;

static om_status sink(void *ctx, uint64_t first, const uint8_t *rows, size_t n)
{
    test_sink *ts = ctx;
    for (size_t i = 0; i < n; i++)
        ts->wins_a += rows[i * ts->row_size + ts->winner] == OM_WINNER_A;
    return om_h5_writer_put(ts->writer, first, rows, n);
}

/* Run the default scenario into `path` with `threads` threads; side A's wins. */
static uint64_t run_to_file(const char *path, uint64_t seed, unsigned threads)
{
    om_scenario *sc = NULL;
    om_trials t;
    test_sink ts = {0};
    cr_assert_eq(om_scenario_load_default(&sc), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_trials_prepare(sc, &t), OM_OK, "%s", om_error_message());
    om_run_info info = {
        .program_version = "test", .command_line = "test_sim", .game = sc->game->name,
        .scenario_name = sc->source, .scenario_text = sc->text, .title = sc->title,
        .ruleset = sc->ruleset, .kind = sc->kind, .options_json = sc->provenance_json,
        .rng_scheme = OM_RNG_SCHEME, .seed = seed, .trials = TRIALS, .block_size = BLOCK,
        .threads = threads, .layout = &t.layout,
    };
    om_run_config cfg = {.trials = TRIALS, .seed = seed, .block_size = BLOCK, .threads = threads};
    ts.winner = t.layout.fields[om_layout_find(&t.layout, "winner")].offset;
    ts.row_size = t.layout.row_size;
    cr_assert_eq(om_h5_writer_create(&ts.writer, path, &info), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_run_simulate(&t, &cfg, sink, &ts), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_writer_close(ts.writer), OM_OK, "%s", om_error_message());
    om_trials_release(&t);
    om_scenario_free(sc);
    return ts.wins_a;
}

/* Read every trial dataset of a file into one buffer (fields in the file's order). */
static uint8_t *read_all(const char *path, size_t *len)
{
    om_h5_reader *r = NULL;
    uint8_t *buf;
    size_t at = 0, n;
    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_reader_trials(r), TRIALS);
    n = om_h5_reader_field_count(r);
    cr_assert_gt(n, 0u);
    buf = malloc(n * TRIALS);
    for (size_t f = 0; f < n; f++) {
        cr_assert_eq(om_h5_reader_read(r, om_h5_reader_field(r, f)->name, 0, TRIALS, buf + at),
                     OM_OK, "%s", om_error_message());
        at += TRIALS;
    }
    om_h5_reader_close(r);
    *len = at;
    return buf;
}

Test(reproducibility, same_seed_same_results_on_1_and_2_threads,
     .init = make_tmpdir, .fini = remove_tmpdir)
{
    char f1[128], f2[128], f3[128];
    size_t n1, n2, n3;
    uint64_t w1, w2;
    snprintf(f1, sizeof f1, "%s/one.h5", tmpdir);
    snprintf(f2, sizeof f2, "%s/two.h5", tmpdir);
    snprintf(f3, sizeof f3, "%s/other_seed.h5", tmpdir);
    w1 = run_to_file(f1, 2026, 1);
    w2 = run_to_file(f2, 2026, 2);
    run_to_file(f3, 2027, 2);
    uint8_t *a = read_all(f1, &n1), *b = read_all(f2, &n2), *c = read_all(f3, &n3);
    cr_assert_eq(n1, n2);
    cr_assert_gt(n1, 0u);
    cr_expect_eq(memcmp(a, b, n1), 0, "1 and 2 threads must give identical datasets");
    cr_expect_neq(memcmp(a, c, n1), 0, "another seed must give other results");
    cr_expect_eq(w1, w2, "the sink saw the same wins on 1 and 2 threads");
    /* The sink saw what was written: the winner column (the file's first field). */
    uint64_t wins = 0;
    for (size_t i = 0; i < TRIALS; i++)
        wins += a[i] == OM_WINNER_A;
    cr_expect_eq(wins, w1);
    free(a);
    free(b);
    free(c);
}

/* The library run (om_run_file) writes what the driver and the writer write
 * when called by hand with the same seed, and the scenario's provenance. */
Test(run_file, same_rows_as_the_driver, .init = make_tmpdir, .fini = remove_tmpdir)
{
    char by_hand[128], by_lib[128], *attr = NULL;
    size_t n1, n2;
    om_scenario *sc = NULL;
    om_h5_reader *r = NULL;
    snprintf(by_hand, sizeof by_hand, "%s/hand.h5", tmpdir);
    snprintf(by_lib, sizeof by_lib, "%s/lib.h5", tmpdir);
    cr_assert_eq(om_scenario_load_default(&sc), OM_OK, "%s", om_error_message());
    om_run_request req = {.path = by_lib, .command_line = "test", .trials = TRIALS,
                          .seed = 2026, .threads = 2};
    cr_assert_eq(om_run_file(sc, &req), OM_OK, "%s", om_error_message());
    /* The library uses the standard block size; so must the comparison. */
    {
        om_trials t;
        test_sink ts = {0};
        cr_assert_eq(om_trials_prepare(sc, &t), OM_OK);
        om_run_info info = {.program_version = "t", .game = "warmaster", .kind = sc->kind,
                            .trials = TRIALS, .block_size = OM_RUN_BLOCK_SIZE, .threads = 1,
                            .layout = &t.layout};
        om_run_config cfg = {.trials = TRIALS, .seed = 2026, .threads = 1};
        ts.winner = t.layout.fields[om_layout_find(&t.layout, "winner")].offset;
        ts.row_size = t.layout.row_size;
        cr_assert_eq(om_h5_writer_create(&ts.writer, by_hand, &info), OM_OK);
        cr_assert_eq(om_run_simulate(&t, &cfg, sink, &ts), OM_OK);
        cr_assert_eq(om_h5_writer_close(ts.writer), OM_OK);
        om_trials_release(&t);
    }
    uint8_t *a = read_all(by_hand, &n1), *b = read_all(by_lib, &n2);
    cr_assert_eq(n1, n2);
    cr_expect_eq(memcmp(a, b, n1), 0, "the library run writes the driver's rows");
    cr_assert_eq(om_h5_reader_open(&r, by_lib), OM_OK);
    cr_assert_eq(om_h5_reader_attr_string(r, "options_json", &attr), OM_OK);
    cr_expect_str_eq(attr, sc->provenance_json);
    free(attr);
    cr_assert_eq(om_h5_reader_attr_string(r, "game", &attr), OM_OK);
    cr_expect_str_eq(attr, "warmaster");
    free(attr);
    om_h5_reader_close(r);
    om_scenario_free(sc);
    free(a);
    free(b);
}

/* A sink that fails stops the run with its own message, from whichever thread. */
static om_status failing_sink(void *ctx, uint64_t first, const uint8_t *rows, size_t n)
{
    (void)ctx;
    (void)rows;
    (void)n;
    if (first > 0)
        return OM_ERROR(OM_EIO, "disk full at row %llu", (unsigned long long)first);
    return OM_OK;
}

Test(driver, sink_errors_and_zero_trials)
{
    om_scenario *sc = NULL;
    om_trials t;
    om_run_config cfg = {.trials = TRIALS, .seed = 1, .block_size = BLOCK, .threads = 2};
    cr_assert_eq(om_scenario_load_default(&sc), OM_OK);
    cr_assert_eq(om_trials_prepare(sc, &t), OM_OK);
    cr_expect_eq(om_run_simulate(&t, &cfg, failing_sink, NULL), OM_EIO);
    cr_expect(strstr(om_error_message(), "disk full") != NULL, "%s", om_error_message());
    cfg.trials = 0;
    cr_expect_eq(om_run_simulate(&t, &cfg, NULL, NULL), OM_EINVAL);
    om_trials_release(&t);
    om_scenario_free(sc);
}
