/*
 * bench_battle.c: whole battles a second of two army lists, on one thread and
 * on two, through the engine alone: the battle `oddsmaster battle LIST_A
 * LIST_B` fights (its scenario text made and loaded as that command makes
 * and loads it, default doctrines, length and first turn), prepared once,
 * then its battles simulated and dropped by the run driver with no sink (no
 * tally, no file: what a battle costs, not what writing it costs). The
 * default lists are the two 2,000-point Warmaster Revolution example lists
 * of issue 21's measure, revolution-empire-steel-and-shot and
 * revolution-orcs-horde.
 *
 * Prints the preparation's time (once per run of `battle`: the doctrines'
 * first-round odds of every pair of units), then battles a second on 1 and
 * 2 threads, each the best of RUNS runs (the machine is shared and noisy),
 * and the scaling. Battles run in the blocks `battle` runs them in (1,024),
 * so two threads need at least two blocks to share.
 *
 * Usage: bench_battle [LIST_A LIST_B] [BATTLES]
 *        (example list names or list files; default 2048 battles)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_errno.h>

#include "game.h"
#include "run.h"

/* Each thread count runs this many times; the fastest run is reported. */
#define RUNS 3

/* Battles of a run by default: two blocks of 1,024, one a thread. */
#define DEFAULT_BATTLES 2048u

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The best battles a second of RUNS runs of `battles` battles of `t` on
 * `threads` threads, engine alone (no sink). Exits on an error. */
static double measure(const om_trials *t, uint64_t battles, unsigned threads)
{
    double best = 0;
    for (unsigned run = 0; run < RUNS; run++) {
        om_run_config cfg = {.trials = battles, .seed = 1 + run, .threads = threads,
                             .block_size = t->layout.block_trials};
        double t0 = now(), rate;
        if (om_run_simulate(t, &cfg, NULL, NULL) != OM_OK) {
            fprintf(stderr, "bench_battle: %s\n", om_error_message());
            exit(1);
        }
        rate = (double)battles / (now() - t0);
        if (rate > best)
            best = rate;
    }
    return best;
}

int main(int argc, char **argv)
{
    const char *list[2] = {"revolution-empire-steel-and-shot", "revolution-orcs-horde"};
    uint64_t battles = DEFAULT_BATTLES;
    om_game_battle_spec spec = {.list_word = {"LIST_A", "LIST_B"},
                                .doctrine_word = {"--doctrine-a", "--doctrine-b"}};
    om_scenario *sc = NULL;
    om_trials t = {0};
    char *text = NULL;
    double t0, prepare_s, r1, r2;
    om_status st;

    gsl_set_error_handler_off();
    if (argc == 3 || argc == 4) {
        list[0] = argv[1];
        list[1] = argv[2];
    }
    if (argc == 2 || argc == 4)
        battles = strtoull(argv[argc - 1], NULL, 10);
    if (argc > 4 || battles == 0) {
        fprintf(stderr, "usage: bench_battle [LIST_A LIST_B] [BATTLES >= 1]\n");
        return 1;
    }
    spec.list[0] = list[0];
    spec.list[1] = list[1];
    st = om_game_battle_text(&spec, &text);
    if (st == OM_OK)
        st = om_scenario_load_text("<battle>", text, strlen(text), &sc);
    free(text);
    t0 = now();
    if (st == OM_OK)
        st = om_trials_prepare(sc, &t);
    prepare_s = now() - t0;
    if (st != OM_OK) {
        fprintf(stderr, "bench_battle: %s\n", om_error_message());
        om_scenario_free(sc);
        return 1;
    }
    printf("battle: %s against %s, %llu battles a run, best of %d runs\n", list[0], list[1],
           (unsigned long long)battles, RUNS);
    printf("preparation (once per run): %.3f s\n", prepare_s);
    r1 = measure(&t, battles, 1);
    r2 = measure(&t, battles, 2);
    printf("%-32s %12s %12s %8s\n", "battles a second", "1 thread", "2 threads", "2 / 1");
    printf("%-32s %12.0f %12.0f %7.2fx\n", "engine alone (no file)", r1, r2, r2 / r1);
    om_trials_release(&t);
    om_scenario_free(sc);
    return 0;
}
