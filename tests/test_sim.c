/*
 * test_sim.c: the Monte Carlo driver (sim/run.c) end to end with the HDF5 file.
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

#include "h5file.h"
#include "options.h"
#include "run.h"
#include "wm_scenario.h"

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

static om_status sink(void *ctx, uint64_t first, const om_wm_outcome *rows, size_t n)
{
    return om_h5_writer_put((om_h5_writer *)ctx, first, rows, n);
}

/* Run the default scenario into `path` with `threads` threads. */
static void run_to_file(const char *path, uint64_t seed, unsigned threads, om_run_tally *tally)
{
    om_wm_scenario *sc = NULL;
    om_wm_prepared *p = NULL;
    om_h5_writer *w = NULL;
    char *options = NULL;
    const char *text = om_scenario_default_text();
    cr_assert_eq(om_wm_scenario_load_text("default", text, strlen(text), &sc), OM_OK, "%s",
                 om_error_message());
    cr_assert_eq(om_wm_prepare_alloc(&sc->engagement, &p), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_run_options_json(&sc->engagement, &options), OM_OK);
    om_run_info info = {
        .program_version = "test", .command_line = "test_sim", .scenario_name = sc->source,
        .scenario_text = sc->text, .title = sc->title, .ruleset = sc->engagement.rules->name,
        .kind = "combat", .side_name = {"A", "B"}, .options_json = options,
        .rng_scheme = OM_RNG_SCHEME, .seed = seed, .trials = TRIALS, .block_size = BLOCK,
        .threads = threads, .kind_mask = OM_KIND_MASK_COMBAT,
    };
    om_run_config cfg = {.trials = TRIALS, .seed = seed, .block_size = BLOCK, .threads = threads};
    cr_assert_eq(om_h5_writer_create(&w, path, &info), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_run_simulate(p, &cfg, sink, w, tally), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_writer_close(w), OM_OK, "%s", om_error_message());
    free(options);
    om_wm_prepared_free(p);
    om_wm_scenario_free(sc);
}

/* Read every trial dataset of a file into one buffer (fields in table order). */
static uint8_t *read_all(const char *path, size_t *len)
{
    om_h5_reader *r = NULL;
    uint8_t *buf;
    size_t at = 0;
    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_reader_trials(r), TRIALS);
    buf = malloc(om_results_field_count * TRIALS);
    for (size_t f = 0; f < om_results_field_count; f++) {
        const char *name = om_results_fields[f].name;
        if (!om_h5_reader_has_field(r, name))
            continue;
        cr_assert_eq(om_h5_reader_read(r, name, 0, TRIALS, buf + at), OM_OK, "%s",
                     om_error_message());
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
    om_run_tally t1, t2, t3;
    snprintf(f1, sizeof f1, "%s/one.h5", tmpdir);
    snprintf(f2, sizeof f2, "%s/two.h5", tmpdir);
    snprintf(f3, sizeof f3, "%s/other_seed.h5", tmpdir);
    run_to_file(f1, 2026, 1, &t1);
    run_to_file(f2, 2026, 2, &t2);
    run_to_file(f3, 2027, 2, &t3);
    uint8_t *a = read_all(f1, &n1), *b = read_all(f2, &n2), *c = read_all(f3, &n3);
    cr_assert_eq(n1, n2);
    cr_assert_gt(n1, 0u);
    cr_expect_eq(memcmp(a, b, n1), 0, "1 and 2 threads must give identical datasets");
    cr_expect_neq(memcmp(a, c, n1), 0, "another seed must give other results");
    cr_expect_eq(memcmp(&t1, &t2, sizeof t1), 0, "tallies equal across thread counts");
    /* The tally counts what was written: winner column against it. */
    uint64_t wins = 0;
    for (size_t i = 0; i < TRIALS; i++)
        wins += a[i] == OM_WM_SIDE_A;
    cr_expect_eq(wins, t1.winner[OM_WM_SIDE_A]);
    free(a);
    free(b);
    free(c);
}

/* A sink that fails stops the run with its own message, from whichever thread. */
static om_status failing_sink(void *ctx, uint64_t first, const om_wm_outcome *rows, size_t n)
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
    om_wm_scenario *sc = NULL;
    om_wm_prepared *p = NULL;
    const char *text = om_scenario_default_text();
    om_run_config cfg = {.trials = TRIALS, .seed = 1, .block_size = BLOCK, .threads = 2};
    cr_assert_eq(om_wm_scenario_load_text("default", text, strlen(text), &sc), OM_OK);
    cr_assert_eq(om_wm_prepare_alloc(&sc->engagement, &p), OM_OK);
    cr_expect_eq(om_run_simulate(p, &cfg, failing_sink, NULL, NULL), OM_EIO);
    cr_expect(strstr(om_error_message(), "disk full") != NULL, "%s", om_error_message());
    cfg.trials = 0;
    cr_expect_eq(om_run_simulate(p, &cfg, NULL, NULL, NULL), OM_EINVAL);
    om_wm_prepared_free(p);
    om_wm_scenario_free(sc);
}
