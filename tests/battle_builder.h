/*
 * battle_builder.h: a whole Warmaster battle built by hand for a test
 * (engine/warmaster/battle.h), shared by test_battle.c and
 * test_battle_examples.c. Header-only, as tmpdir.h: each test program is one
 * file. A builder holds the turn (the table, the units' values and side A's
 * plans), side B's plans and the battle's options; begin() gives an empty
 * table of a rule set, plans that hold, a fixed length of 8 battle turns and
 * the first side rolled (a test changes what it needs); prepare() checks and
 * prepares it (the test fails if it does not pass).
 */
#ifndef OM_TESTS_BATTLE_BUILDER_H
#define OM_TESTS_BATTLE_BUILDER_H

#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "battle.h"
#include "rng.h"

/* Tolerance of the Monte Carlo checks, in standard errors. */
#define SIGMAS 5.0

/* A battle under construction: the turn holds the table, the units' values
 * and side A's plans; side B's plans apart. */
typedef struct builder {
    om_wm_turn t;
    om_wm_command_setup b;
    om_wm_battle_options o;
} builder;

static inline void begin(builder *x, const char *ruleset)
{
    memset(x, 0, sizeof *x);
    x->t.rules = om_wm_ruleset_find(ruleset);
    cr_assert_not_null(x->t.rules);
    om_wm_table_init(&x->t.table, x->t.rules->id, 0, 0);
    x->t.command.rules = x->t.rules->id;
    x->t.command.side = 0;
    for (unsigned u = 0; u < OM_WM_TABLE_MAX_UNITS; u++)
        x->t.command.plan[u] = (om_wm_plan){.target = -1, .by = -1};
    for (unsigned k = 0; k < OM_WM_TABLE_MAX_BRIGADES; k++)
        x->t.command.brigade_plan[k] = (om_wm_plan){.target = -1, .by = -1};
    x->b = x->t.command;
    x->b.side = 1;
    x->o.length = om_wm_game_length_find("fixed");
    x->o.fixed_turns = 8;
    x->o.first = -1;
}

static inline om_wm_battle_prepared *prepare(builder *x)
{
    om_wm_battle_prepared *p = NULL;
    om_wm_check_failure why;
    memset(&why, 0, sizeof why);
    x->b.rules = x->t.command.rules;
    cr_assert_eq(om_wm_battle_prepare_alloc(&x->t, &x->b, &x->o, &why, &p), OM_OK, "%s: %s",
                 why.field, why.reason);
    return p;
}

/* Dice on stream block 0 of seed s. */
static inline void seed(om_dice *d, uint64_t s)
{
    d->plain = NULL;
    om_rng_seed_block(&d->rng, s, 0);
}

/* A proportion, count of n, against its exact value p within SIGMAS
 * standard errors. */
static inline void expect_p(const char *what, unsigned long count, unsigned long n, double p)
{
    double est, se;
    cr_assert_gt(n, 0u, "%s: no case", what);
    est = (double)count / n;
    se = sqrt(p * (1 - p) / n);
    cr_expect_leq(fabs(est - p), SIGMAS * se + 1e-12, "%s: %.5f of %lu, expected %.5f (5 se %.5f)",
                  what, est, n, p, SIGMAS * se);
}

#endif /* OM_TESTS_BATTLE_BUILDER_H */
