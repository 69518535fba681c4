/*
 * turn_builder.h: the start of a Warmaster turn built by hand, shared by the
 * test programs that set up tables unit by unit (test_turn.c, test_turn_moves.c,
 * test_turn_characters.c, test_magic.c, test_magic_lasting.c, test_magic_phase.c,
 * test_magic_devices.c). Header-only: each test program is one file, and each
 * adds its own units, characters and spells to the turn begun here.
 */
#ifndef OM_TESTS_TURN_BUILDER_H
#define OM_TESTS_TURN_BUILDER_H

#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "command.h"
#include "rng.h"
#include "turn.h"

/* A point of the table (cm). */
static inline om_wm_vec at(double x, double y) { return (om_wm_vec){x, y}; }

/* Dice of the fast generator, stream `s` (block 0). */
static inline void seed(om_dice *d, uint64_t s)
{
    d->plain = NULL;
    om_rng_seed_block(&d->rng, s, 0);
}

/* An empty table of `ruleset` (180 x 120 cm), side 0 to move; every unit's
 * plan and every brigade's empty (no target, no order giver), each unit's
 * initiative `initiative`. The test fails if the rule set is unknown. */
static inline void turn_begin(om_wm_turn *t, const char *ruleset,
                              om_wm_initiative_policy initiative)
{
    memset(t, 0, sizeof *t);
    t->rules = om_wm_ruleset_find(ruleset);
    cr_assert_not_null(t->rules, "rule set %s", ruleset);
    om_wm_table_init(&t->table, t->rules->id, 0, 0);
    t->command.rules = t->rules->id;
    t->command.side = 0;
    for (unsigned u = 0; u < OM_WM_TABLE_MAX_UNITS; u++)
        t->command.plan[u] = (om_wm_plan){.target = -1, .by = -1, .initiative = initiative};
    for (unsigned k = 0; k < OM_WM_TABLE_MAX_BRIGADES; k++)
        t->command.brigade_plan[k] = (om_wm_plan){.target = -1, .by = -1};
}

#endif
