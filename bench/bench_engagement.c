/*
 * bench_engagement.c: engagements per second for a scenario (default: the
 * embedded Knights vs Spearmen), fast dice vs a plain baseline, at 1 and 2
 * threads, in the same process.
 *
 * The baseline runs the same rules through the same driver but rolls every die
 * individually with GSL's default generator (MT19937) and gsl_rng_uniform_int,
 * as a straightforward implementation would. Each figure is the best of
 * REPEATS runs (the least disturbed by other load); the ratios are what to
 * compare between machines. Results go to no file, so only dice and rules are
 * timed. Usage: bench_engagement [SCENARIO.yaml|-] [FAST_TRIALS] [PLAIN_TRIALS]
 * ("-" is the embedded default scenario).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_errno.h>

#include "run.h"
#include "wm_scenario.h"

/* Each configuration runs this many times; the fastest run is reported. */
#define REPEATS 3

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Best engagements per second over REPEATS runs; also returns the tally of the
 * last run so the two dice modes can be seen to agree. */
static double measure(const om_wm_prepared *p, uint64_t trials, unsigned threads, bool plain,
                      om_run_tally *tally)
{
    double best = 0;
    for (int rep = 0; rep < REPEATS; rep++) {
        om_run_config cfg = {.trials = trials, .seed = 42 + (uint64_t)rep,
                             .threads = threads, .plain_dice = plain};
        double t0 = now_s(), rate;
        if (om_run_simulate(p, &cfg, NULL, NULL, tally) != OM_OK) {
            fprintf(stderr, "bench: %s\n", om_error_message());
            exit(1);
        }
        rate = (double)trials / (now_s() - t0);
        if (rate > best)
            best = rate;
    }
    return best;
}

int main(int argc, char **argv)
{
    uint64_t fast_trials = argc > 2 ? strtoull(argv[2], NULL, 10) : 8000000u;
    uint64_t plain_trials = argc > 3 ? strtoull(argv[3], NULL, 10) : 800000u;
    om_wm_scenario *sc = NULL;
    om_wm_prepared *p = NULL;
    om_run_tally tf, tp;
    double f1, f2, p1, p2;
    om_status st;

    gsl_set_error_handler_off();
    st = argc > 1 && strcmp(argv[1], "-") != 0
             ? om_wm_scenario_load_file(argv[1], &sc)
                  : om_wm_scenario_load_text(OM_SCENARIO_DEFAULT_NAME, om_scenario_default_text(),
                                          strlen(om_scenario_default_text()), &sc);
    if (st == OM_OK)
        st = om_wm_prepare_alloc(&sc->engagement, &p);
    if (st != OM_OK) {
        fprintf(stderr, "bench: %s\n", om_error_message());
        return 1;
    }
    printf("scenario: %s (%s)\n", sc->title, sc->source);
    printf("trials: %llu fast, %llu plain; best of %d runs each\n\n",
           (unsigned long long)fast_trials, (unsigned long long)plain_trials, REPEATS);
    f1 = measure(p, fast_trials, 1, false, &tf);
    f2 = measure(p, fast_trials, 2, false, &tf);
    p1 = measure(p, plain_trials, 1, true, &tp);
    p2 = measure(p, plain_trials, 2, true, &tp);
    printf("%-34s %14s %14s\n", "engagements per second", "1 thread", "2 threads");
    printf("%-34s %14.3e %14.3e\n", "oddsmaster (PCG64-DXSM, binomial)", f1, f2);
    printf("%-34s %14.3e %14.3e\n", "plain baseline (MT19937 per die)", p1, p2);
    printf("\nspeed-up over baseline per thread: %.1fx (1 thread), %.1fx (2 threads)\n",
           f1 / p1, f2 / p2);
    printf("scaling 1 -> 2 threads: oddsmaster %.2fx, baseline %.2fx\n", f2 / f1, p2 / p1);
    printf("P(A wins) check: oddsmaster %.4f, baseline %.4f\n",
           (double)tf.winner[OM_WM_SIDE_A] / (double)tf.trials,
           (double)tp.winner[OM_WM_SIDE_A] / (double)tp.trials);
    om_wm_prepared_free(p);
    om_wm_scenario_free(sc);
    return 0;
}
