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

#include "game.h"
#include "run.h"

/* Each configuration runs this many times; the fastest run is reported. */
#define REPEATS 3

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Side A's wins, so the two dice modes can be seen to agree (counted from the
 * tallies of a run that is not timed). */
typedef struct win_count {
    size_t winner;         /* the winner field */
    uint64_t wins, trials; /* side A's wins in the trials seen */
} win_count;

static om_status count_wins(void *ctx, const om_block *b, bool *stop)
{
    win_count *c = ctx;
    (void)stop;
    c->wins += b->tally->hist[c->winner][OM_WINNER_A];
    c->trials += b->n;
    return OM_OK;
}

/* Side A's wins in `trials` trials of `t` with the fast or the plain dice. */
static void count(const om_trials *t, uint64_t trials, bool plain, win_count *c)
{
    om_run_sink sink = {.ctx = c, .tally_only = true, .put = count_wins};
    om_run_config cfg = {.trials = trials, .seed = 42, .plain_dice = plain};
    c->wins = c->trials = 0;
    if (om_run_simulate(t, &cfg, &sink, NULL) != OM_OK) {
        fprintf(stderr, "bench: %s\n", om_error_message());
        exit(1);
    }
}

/* Best engagements per second over REPEATS runs of the engine alone (no
 * sink: rows simulated and dropped). */
static double measure(const om_trials *t, uint64_t trials, unsigned threads, bool plain)
{
    double best = 0;
    for (int rep = 0; rep < REPEATS; rep++) {
        om_run_config cfg = {.trials = trials, .seed = 42 + (uint64_t)rep,
                             .threads = threads, .plain_dice = plain};
        double t0 = now_s(), rate;
        if (om_run_simulate(t, &cfg, NULL, NULL) != OM_OK) {
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
    om_scenario *sc = NULL;
    om_trials t = {0};
    win_count tf = {0}, tp;
    double f1, f2, p1, p2;
    int winner = -1;
    om_status st;

    gsl_set_error_handler_off();
    st = argc > 1 && strcmp(argv[1], "-") != 0 ? om_scenario_load_file(argv[1], &sc)
                                               : om_scenario_load_default(&sc);
    if (st == OM_OK)
        st = om_trials_prepare(sc, &t);
    if (st == OM_OK && (winner = om_layout_find(&t.layout, "winner")) < 0)
        st = OM_ERROR(OM_EINVAL, "%s: the scenario's trials have no winner", sc->source);
    if (st != OM_OK) {
        fprintf(stderr, "bench: %s\n", om_error_message());
        return 1;
    }
    tf.winner = (size_t)winner;
    tp = tf;
    printf("scenario: %s (%s)\n", sc->title, sc->source);
    printf("trials: %llu fast, %llu plain; best of %d runs each\n\n",
           (unsigned long long)fast_trials, (unsigned long long)plain_trials, REPEATS);
    f1 = measure(&t, fast_trials, 1, false);
    f2 = measure(&t, fast_trials, 2, false);
    p1 = measure(&t, plain_trials, 1, true);
    p2 = measure(&t, plain_trials, 2, true);
    count(&t, fast_trials, false, &tf);
    count(&t, plain_trials, true, &tp);
    printf("%-34s %14s %14s\n", "engagements per second", "1 thread", "2 threads");
    printf("%-34s %14.3e %14.3e\n", "oddsmaster (PCG64-DXSM, binomial)", f1, f2);
    printf("%-34s %14.3e %14.3e\n", "plain baseline (MT19937 per die)", p1, p2);
    printf("\nspeed-up over baseline per thread: %.1fx (1 thread), %.1fx (2 threads)\n",
           f1 / p1, f2 / p2);
    printf("scaling 1 -> 2 threads: oddsmaster %.2fx, baseline %.2fx\n", f2 / f1, p2 / p1);
    printf("P(A wins) check: oddsmaster %.4f, baseline %.4f\n",
           (double)tf.wins / (double)tf.trials, (double)tp.wins / (double)tp.trials);
    om_trials_release(&t);
    om_scenario_free(sc);
    return 0;
}
