/*
 * bench_battle.c: whole battles a second on one thread, through the engine
 * alone (om_wm_battle_resolve): two mirror-image armies of N units (default
 * 24: Spearmen and Knights by turns, 1,860 points a side, Warmaster
 * Revolution), deployed in lines of battle with brigades of four, a General
 * each behind the middle of his line, both playing the default doctrine,
 * length by the D6 before the battle. Prints battles a second (best of 3
 * runs), turns per battle and the share of decided battles.
 *
 * Usage: bench_battle [BATTLES] [UNITS]   (default 2000 battles, 24 units)
 *
 * The armies are synthetic: army list files are not read here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "battle.h"
#include "rng.h"
#include "wm_doctrine.h"

#define RUNS 3

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* An army of n units, Spearmen and Knights by turns. */
static void army(om_wm_unit *v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        om_wm_troop troop = i % 2 ? OM_WM_CAVALRY : OM_WM_INFANTRY;
        memset(&v[i], 0, sizeof v[i]);
        snprintf(v[i].name, sizeof v[i].name, "%s", troop == OM_WM_CAVALRY ? "Knights"
                                                                          : "Spearmen");
        v[i].troop = troop;
        v[i].stands = v[i].size = 3;
        v[i].attacks = 3;
        v[i].hits = 3;
        v[i].armour = troop == OM_WM_CAVALRY ? 4 : 6;
        v[i].pace_cm = (uint8_t)om_wm_troop_pace(troop);
        v[i].points = troop == OM_WM_CAVALRY ? 110 : 45;
    }
}

int main(int argc, char **argv)
{
    unsigned battles = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 2000;
    unsigned units = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 24;
    static om_wm_turn t;
    static om_wm_unit v[OM_WM_TABLE_MAX_UNITS];
    om_wm_command_setup b;
    om_wm_battle_options o = {.first = -1};
    om_wm_battle_prepared *p = NULL;
    om_wm_doctrine_file dc;
    om_wm_turn_work *w = NULL;
    om_wm_check_failure why;
    unsigned first;
    double best = 0, t0;
    unsigned long turns = 0, decided = 0;

    if (battles == 0 || units == 0 || units > OM_WM_TURN_SIDE_UNITS_MAX) {
        fprintf(stderr, "usage: bench_battle [BATTLES] [UNITS 1..%d]\n",
                OM_WM_TURN_SIDE_UNITS_MAX);
        return 1;
    }
    memset(&t, 0, sizeof t);
    t.rules = om_wm_ruleset_find("warmaster-revolution");
    om_wm_table_init(&t.table, t.rules->id, 0, 0);
    t.command.rules = t.rules->id;
    for (unsigned u = 0; u < OM_WM_TABLE_MAX_UNITS; u++)
        t.command.plan[u] = (om_wm_plan){.target = -1, .by = -1};
    for (unsigned k = 0; k < OM_WM_TABLE_MAX_BRIGADES; k++)
        t.command.brigade_plan[k] = (om_wm_plan){.target = -1, .by = -1};
    b = t.command;
    b.side = 1;
    army(v, units);
    if (om_wm_battle_deploy_line(&t, 0, v, units, 4, &why, &first) != OM_OK ||
        om_wm_battle_deploy_line(&t, 1, v, units, 4, &why, &first) != OM_OK ||
        om_wm_table_add_character(&t.table, "General", 0, OM_WM_GENERAL, 9,
                                  (om_wm_vec){t.table.width_cm / 2, 17}) < 0 ||
        om_wm_table_add_character(&t.table, "General", 1, OM_WM_GENERAL, 9,
                                  (om_wm_vec){t.table.width_cm / 2,
                                              t.table.depth_cm - 17}) < 0) {
        fprintf(stderr, "bench_battle: %s: %s\n", why.field, why.reason);
        return 1;
    }
    o.length = om_wm_game_length_find("d6-6-7-8");
    if (om_wm_doctrine_named("default", &dc) != OM_OK) {
        fprintf(stderr, "bench_battle: %s\n", om_error_message());
        return 1;
    }
    o.doctrine[0] = o.doctrine[1] = &dc.doctrine;
    if (om_wm_battle_prepare_alloc(&t, &b, &o, &why, &p) != OM_OK ||
        om_wm_turn_work_alloc(&w) != OM_OK) {
        fprintf(stderr, "bench_battle: %s: %s\n", why.field, why.reason);
        return 1;
    }
    for (unsigned run = 0; run < RUNS; run++) {
        om_dice d = {.plain = NULL};
        om_rng_seed_block(&d.rng, 1, run);
        turns = decided = 0;
        t0 = now();
        for (unsigned i = 0; i < battles; i++) {
            om_wm_battle_result r;
            om_wm_battle_resolve(p, w, &d, &r);
            turns += r.turns;
            decided += r.verdict.winner != OM_WM_BATTLE_NO_WINNER;
        }
        double rate = battles / (now() - t0);
        if (rate > best)
            best = rate;
    }
    printf("battles of %u units a side (synthetic armies, default doctrines): %.4g a second "
           "(best of %d runs, 1 thread); %.2f turns a battle, %.1f%% decided\n",
           units, best, RUNS, (double)turns / battles, 100.0 * decided / battles);
    om_wm_turn_work_free(w);
    om_wm_battle_prepared_free(p);
    return 0;
}
