/*
 * turn_builder.h: the start of a Warmaster turn built by hand, shared by the
 * test programs that set up tables unit by unit (test_turn.c, test_turn_moves.c,
 * test_turn_characters.c, test_magic.c, test_magic_lasting.c, test_magic_phase.c,
 * test_magic_devices.c): the turn begun on an empty table (for one side, or
 * for both in turn), a plain unit, the turn prepared. Header-only: each test
 * program is one file, and each adds its own characters and spells.
 */
#ifndef OM_TESTS_TURN_BUILDER_H
#define OM_TESTS_TURN_BUILDER_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "command.h"
#include "rng.h"
#include "turn.h"
#include "wm.h"

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

/* A turn whose side 0 moves first and side 1 then: the table and side 0's
 * setup in t, side 1's setup in second. */
typedef struct turn_two_sides {
    om_wm_turn t;
    om_wm_command_setup second; /* side 1's turn */
} turn_two_sides;

/* turn_begin of b->t, and side 1's setup the same but for its side. */
static inline void turn_two_sides_begin(turn_two_sides *b, const char *ruleset,
                                        om_wm_initiative_policy initiative)
{
    memset(b, 0, sizeof *b);
    turn_begin(&b->t, ruleset, initiative);
    b->second = b->t.command;
    b->second.side = 1;
}

/* A unit of no special rule in line, on the table and in the turn, 50 points,
 * shooting at the closest enemy; its index. The test fails if the table is full. */
static inline unsigned turn_unit(om_wm_turn *t, const char *name, unsigned side,
                                 om_wm_troop troop, unsigned stands, unsigned attacks,
                                 unsigned hits, unsigned armour, double x, double y,
                                 double facing)
{
    om_wm_unit v;
    int i = om_wm_table_add_unit(&t->table, t->rules->id, name, side, troop, stands,
                                 OM_WM_TABLE_LINE, at(x, y), facing);
    cr_assert_geq(i, 0, "add %s", name);
    memset(&v, 0, sizeof v);
    snprintf(v.name, sizeof v.name, "%s", name);
    v.troop = troop;
    v.stands = v.size = (uint8_t)stands;
    v.attacks = (uint8_t)attacks;
    v.hits = (uint8_t)hits;
    v.armour = (uint8_t)armour;
    v.pace_cm = (uint8_t)om_wm_troop_pace(troop);
    v.points = 50;
    om_wm_side_init(&t->unit[i].side, &v);
    t->unit[i].shoot = OM_WM_SHOOT_CLOSEST;
    return (unsigned)i;
}

/* The turn prepared; the test fails, naming the field, if its check does. */
static inline om_wm_turn_prepared *turn_prepare(const om_wm_turn *t)
{
    om_wm_turn_prepared *p = NULL;
    om_wm_check_failure why;
    memset(&why, 0, sizeof why);
    cr_assert_eq(om_wm_turn_prepare_alloc(t, &why, &p), OM_OK, "%s: %s", why.field, why.reason);
    return p;
}

#endif
