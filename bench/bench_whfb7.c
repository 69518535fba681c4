/*
 * bench_whfb7.c: whole WHFB 7th edition combats per second, fast dice against
 * a plain baseline, at 1 and 2 threads, in the same process.
 *
 * The combat: 20 Empire Swordsmen (hand weapon, shield, light armour; full
 * command) charge 20 Orc Boyz (hand weapon, shield, light armour; full
 * command), five wide, fought to a break or 6 rounds (the engagement kind).
 * The baseline runs the same rules through the same resolver but rolls every
 * die individually with GSL's default generator (MT19937) and
 * gsl_rng_uniform_int, as a straightforward implementation would; the fast
 * dice draw each part's blows as one binomial from an alias table. Blocks of
 * trials use the PCG stream of their index, so results do not depend on the
 * thread count. Each figure is the best of REPEATS runs; the ratios are what
 * to compare between machines. The same fight is also timed through the game
 * interface (scenarios/game.h: the scenario loaded from the list file's
 * units, each trial's row built from the engine's outcome), in this process,
 * so the interface's cost is a ratio too. Usage: bench_whfb7 [FAST_TRIALS]
 * [PLAIN_TRIALS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <omp.h>

#include "game.h"
#include "wh7.h"

/* Each configuration runs this many times; the fastest run is reported. */
#define REPEATS 3
/* Trials per block of one PCG stream (the drivers' block size). */
#define BLOCK 16384u
/* Default trial counts: the baseline is slower, so it runs fewer. */
#define FAST_TRIALS 4000000ull
#define PLAIN_TRIALS 400000ull

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Appendix profiles (WHFB 7th edition, Appendix > Basic Characteristics). */
static om_wh7_profile profile(const char *name, unsigned ws, unsigned t, unsigned i)
{
    om_wh7_profile p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "%s", name);
    p.m = 4;
    p.ws = (uint8_t)ws;
    p.bs = 3;
    p.s = 3;
    p.t = (uint8_t)t;
    p.w = 1;
    p.i = (uint8_t)i;
    p.a = 1;
    p.ld = 7;
    return p;
}

static om_wh7_side block_of_twenty(om_wh7_profile p)
{
    om_wh7_side s;
    memset(&s, 0, sizeof s);
    s.unit.troop = OM_WH7_INFANTRY;
    s.unit.profile = p;
    s.unit.models = 20;
    s.unit.files = 5;
    s.unit.champion = s.unit.standard = s.unit.musician = true;
    s.unit.equipment.shield = true;
    s.unit.equipment.armour = OM_WH7_ARMOUR_LIGHT;
    return s;
}

/* Tally of one run: wins of each side, to show the two dice modes agree. */
typedef struct tally {
    unsigned long long trials, winner[4], rounds;
} tally;

/* Best trials per second over REPEATS runs of `trials` at `threads`. */
static double measure(const om_wh7_prepared *p, unsigned long long trials, int threads,
                      bool plain, tally *out)
{
    double best = 0;
    for (int rep = 0; rep < REPEATS; rep++) {
        unsigned long long blocks = (trials + BLOCK - 1) / BLOCK;
        tally t;
        double t0 = now_s(), rate;
        memset(&t, 0, sizeof t);
#pragma omp parallel num_threads(threads)
        {
            gsl_rng *g = plain ? gsl_rng_alloc(gsl_rng_default) : NULL;
            om_wh7_outcome *rows = malloc(BLOCK * sizeof *rows);
            tally mine;
            memset(&mine, 0, sizeof mine);
#pragma omp for schedule(dynamic, 1)
            for (unsigned long long b = 0; b < blocks; b++) {
                size_t n = b + 1 < blocks ? BLOCK : (size_t)(trials - b * BLOCK);
                om_dice d;
                om_rng_seed_block(&d.rng, 42u + (uint64_t)rep, b);
                d.plain = g;
                if (g)
                    gsl_rng_set(g, (unsigned long)(b + 1));
                om_wh7_resolve_block(p, &d, rows, n);
                for (size_t i = 0; i < n; i++) {
                    mine.winner[rows[i].winner & 3u]++;
                    mine.rounds += rows[i].rounds;
                }
                mine.trials += n;
            }
#pragma omp critical(bench_tally)
            {
                t.trials += mine.trials;
                t.rounds += mine.rounds;
                for (int w = 0; w < 4; w++)
                    t.winner[w] += mine.winner[w];
            }
            free(rows);
            if (g)
                gsl_rng_free(g);
        }
        rate = (double)trials / (now_s() - t0);
        if (rate > best)
            best = rate;
        *out = t;
    }
    return best;
}

/* The same fight as a scenario of the game interface: the list file's
 * Swordsmen and Orc Boyz are the units block_of_twenty builds. */
static const char game_scenario[] =
    "schema: oddsmaster-scenario/1\nruleset: whfb7\nkind: engagement\n"
    "a: {unit: {from: empire/swordsmen}, charging: true}\n"
    "b: {unit: {from: orcs-goblins/orc-boyz}}\n";

/* Best trials per second over REPEATS runs of the game's resolve_block,
 * writing rows as `run` does (results go to no file). */
static double measure_game(const om_trials *t, unsigned long long trials, int threads,
                           tally *out)
{
    const int w = om_layout_find(&t->layout, "winner");
    const size_t at = t->layout.fields[w].offset, size = t->layout.row_size;
    double best = 0;
    for (int rep = 0; rep < REPEATS; rep++) {
        unsigned long long blocks = (trials + BLOCK - 1) / BLOCK;
        tally tt;
        double t0 = now_s(), rate;
        memset(&tt, 0, sizeof tt);
#pragma omp parallel num_threads(threads)
        {
            uint8_t *rows = malloc(BLOCK * size);
            tally mine;
            memset(&mine, 0, sizeof mine);
#pragma omp for schedule(dynamic, 1)
            for (unsigned long long b = 0; b < blocks; b++) {
                size_t n = b + 1 < blocks ? BLOCK : (size_t)(trials - b * BLOCK);
                om_dice d;
                om_rng_seed_block(&d.rng, 42u + (uint64_t)rep, b);
                d.plain = NULL;
                t->game->trials->resolve_block(t->prepared, NULL, &d, rows, n);
                for (size_t i = 0; i < n; i++)
                    mine.winner[rows[i * size + at] & 3u]++;
                mine.trials += n;
            }
#pragma omp critical(bench_tally)
            {
                tt.trials += mine.trials;
                for (int k = 0; k < 4; k++)
                    tt.winner[k] += mine.winner[k];
            }
            free(rows);
        }
        rate = (double)trials / (now_s() - t0);
        if (rate > best)
            best = rate;
        *out = tt;
    }
    return best;
}

int main(int argc, char **argv)
{
    unsigned long long fast = argc > 1 ? strtoull(argv[1], NULL, 10) : FAST_TRIALS;
    unsigned long long slow = argc > 2 ? strtoull(argv[2], NULL, 10) : PLAIN_TRIALS;
    om_wh7_combat c;
    om_wh7_prepared *p = NULL;
    tally tf, tp, tg;
    double f1, f2, p1, p2, g1, g2;
    om_scenario *sc = NULL;
    om_trials t;

    gsl_set_error_handler_off();
    memset(&c, 0, sizeof c);
    c.kind = OM_WH7_KIND_ENGAGEMENT;
    c.side[0] = block_of_twenty(profile("Swordsman", 4, 3, 4));
    c.side[1] = block_of_twenty(profile("Orc Boy", 3, 4, 2));
    c.side[0].charging = true;
    if (om_wh7_prepare_alloc(&c, &p) != OM_OK ||
        om_scenario_load_text("<bench_whfb7>", game_scenario, strlen(game_scenario), &sc) !=
            OM_OK ||
        om_trials_prepare(sc, &t) != OM_OK) {
        fprintf(stderr, "bench_whfb7: %s\n", om_error_message());
        return 1;
    }
    printf("combat: 20 Empire Swordsmen charge 20 Orc Boyz (full command, 5 wide), to a break "
           "or 6 rounds\n");
    printf("trials: %llu fast, %llu plain; best of %d runs each\n\n", fast, slow, REPEATS);
    f1 = measure(p, fast, 1, false, &tf);
    f2 = measure(p, fast, 2, false, &tf);
    p1 = measure(p, slow, 1, true, &tp);
    p2 = measure(p, slow, 2, true, &tp);
    g1 = measure_game(&t, fast, 1, &tg);
    g2 = measure_game(&t, fast, 2, &tg);
    printf("%-34s %14s %14s\n", "combats per second", "1 thread", "2 threads");
    printf("%-34s %14.3e %14.3e\n", "oddsmaster (PCG64-DXSM, binomial)", f1, f2);
    printf("%-34s %14.3e %14.3e\n", "plain baseline (MT19937 per die)", p1, p2);
    printf("%-34s %14.3e %14.3e\n", "through the game interface", g1, g2);
    printf("\nspeed-up over baseline per thread: %.1fx (1 thread), %.1fx (2 threads)\n",
           f1 / p1, f2 / p2);
    printf("scaling 1 -> 2 threads: oddsmaster %.2fx, baseline %.2fx\n", f2 / f1, p2 / p1);
    printf("P(Swordsmen win) check: oddsmaster %.4f, baseline %.4f\n",
           (double)tf.winner[OM_WH7_SIDE_A] / (double)tf.trials,
           (double)tp.winner[OM_WH7_SIDE_A] / (double)tp.trials);
    printf("mean rounds: oddsmaster %.3f, baseline %.3f\n", (double)tf.rounds / (double)tf.trials,
           (double)tp.rounds / (double)tp.trials);
    printf("game interface: %.2fx the engine's rate (1 thread), %.2fx (2 threads); "
           "%.1fx the baseline; P(Swordsmen win) %.4f\n", g1 / f1, g2 / f2, g1 / p1,
           (double)tg.winner[OM_WH7_SIDE_A] / (double)tg.trials);
    om_trials_release(&t);
    om_scenario_free(sc);
    om_wh7_prepared_free(p);
    return 0;
}
