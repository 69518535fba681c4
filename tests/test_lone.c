/*
 * test_lone.c: a lone character in the way of an enemy unit's move
 * (engine/warmaster/lone.h; Warmaster Revolution, Generals, Wizards & Heroes >
 * Enemy Moving Through Characters; Warmaster Ancients, Commanders), on
 * hand-built tables, checked exactly (no dice):
 *
 *   - a unit moving through a lone enemy Hero makes him join a friendly unit
 *     within 30cm, placed touching it; with none within 30cm he is slain, and
 *     a slain character is gone (om_wm_table_character_gone);
 *   - a move that passes beside him, or a joined character, displaces no one;
 *   - a flyer displaces him only where its move ends on top of him;
 *   - his own unit (his `follow`) is joined before a closer friend;
 *   - the Command phase's moves call it: an order moving a unit through him.
 * Layouts: x to the right, y up; U (side 0) moves right along y = 60.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "command.h"
#include "lone.h"
#include "turn.h"
#include "wm.h"
#include "turn_builder.h"

#define EXACT_CM 1e-9
/* The line U moves along, and where it starts. */
#define LINE_Y 60.0
#define U_X 60.0

/* U: side 0's infantry in line at (U_X, LINE_Y) facing right; the lone Hero
 * of side 1 at `hero`; side 1's unit F in line at `friend` facing down.
 * Returns U (unit 0; F is unit 1); *h the Hero. */
static unsigned layout(om_wm_turn *t, om_wm_vec hero, om_wm_vec friend, unsigned *h)
{
    turn_begin(t, "warmaster-revolution", OM_WM_INITIATIVE_NEVER);
    const unsigned u = turn_unit(t, "U", 0, OM_WM_INFANTRY, 3, 3, 3, 0, U_X, LINE_Y, 0);
    turn_unit(t, "F", 1, OM_WM_INFANTRY, 3, 3, 3, 0, friend.x, friend.y, 270);
    const int c = om_wm_table_add_character(&t->table, "Hero", 1, OM_WM_HERO, 8, hero);
    cr_assert_geq(c, 0);
    *h = (unsigned)c;
    return u;
}

/* Move U straight right by `cm` and tell the rule where it came from. */
static unsigned move_u(om_wm_table *t, unsigned u, double cm)
{
    const om_wm_vec from = t->unit[u].centre;
    t->unit[u].centre.x += cm;
    om_wm_table_update(t, u);
    return om_wm_lone_moved(t, u, from, NULL);
}

/* Through him, F 19cm away: he joins F, touching its nearest edge. */
Test(lone, joins_a_friend_within_30cm)
{
    om_wm_turn t;
    unsigned h;
    const unsigned u = layout(&t, at(75, LINE_Y), at(75, 80), &h);
    const double reach = om_wm_table_character_distance(&t.table, h, 1);
    cr_assert(reach > 15 && reach < 30, "F %.2fcm from him", reach);
    cr_assert_eq(move_u(&t.table, u, 20), 1u);
    const om_wm_table_character *ch = &t.table.character[h];
    cr_expect_eq(ch->joined, 1);
    cr_expect_eq(ch->slain, 0);
    cr_expect_float_eq(om_wm_table_character_distance(&t.table, h, 1), 0, EXACT_CM,
                       "placed touching F");
    cr_expect_float_eq(ch->at.x, 75, EXACT_CM, "straight toward F's nearest edge");
    cr_expect(!om_wm_table_character_gone(&t.table, h));
}

/* Through him, F 39cm away: he is slain, and gone from the battle. */
Test(lone, slain_without_a_friend_within_30cm)
{
    om_wm_turn t;
    unsigned h;
    const unsigned u = layout(&t, at(75, LINE_Y), at(75, 100), &h);
    cr_assert_gt(om_wm_table_character_distance(&t.table, h, 1), 30);
    cr_assert_eq(move_u(&t.table, u, 20), 1u);
    cr_expect_eq(t.table.character[h].joined, -1);
    cr_expect_eq(t.table.character[h].slain, 1);
    cr_expect(om_wm_table_character_gone(&t.table, h));
    /* Slain once: a later move through the place does nothing more. */
    cr_expect_eq(move_u(&t.table, u, -20), 0u);
}

/* A move that ends short of him, or passes beside him, displaces no one; a
 * joined character is never displaced. */
Test(lone, only_those_in_the_way)
{
    om_wm_turn t;
    unsigned h;
    unsigned u = layout(&t, at(75, LINE_Y + 10), at(75, 80), &h);
    cr_expect_eq(move_u(&t.table, u, 20), 0u, "beside the path (U spans y 54 to 66)");
    cr_expect_eq(t.table.character[h].joined, -1);
    u = layout(&t, at(95, LINE_Y), at(75, 80), &h);
    cr_expect_eq(move_u(&t.table, u, 20), 0u, "short of him");
    cr_expect_eq(t.table.character[h].joined, -1);
    u = layout(&t, at(75, LINE_Y), at(75, 80), &h);
    t.table.character[h].joined = 1;
    cr_expect_eq(move_u(&t.table, u, 20), 0u, "joined to F");
    cr_expect_eq(t.table.character[h].slain, 0);
}

/* A flyer flying over him displaces him only if it ends on top of him. */
Test(lone, flyers_only_where_they_end)
{
    om_wm_turn t;
    unsigned h;
    unsigned u = layout(&t, at(75, LINE_Y), at(75, 80), &h);
    t.table.unit[u].traits |= OM_WM_TABLE_TRAIT_FLYER;
    cr_expect_eq(move_u(&t.table, u, 40), 0u, "flown over");
    cr_expect_eq(t.table.character[h].joined, -1);
    u = layout(&t, at(75, LINE_Y), at(75, 80), &h);
    t.table.unit[u].traits |= OM_WM_TABLE_TRAIT_FLYER;
    cr_expect_eq(move_u(&t.table, u, 15), 1u, "landed on him");
    cr_expect_eq(t.table.character[h].joined, 1);
}

/* He joins the unit he is on his way to when it is within 30cm, though
 * another friend is closer. */
Test(lone, his_own_unit_first)
{
    om_wm_turn t;
    unsigned h;
    const unsigned u = layout(&t, at(75, LINE_Y), at(75, 80), &h);
    turn_unit(&t, "G", 1, OM_WM_INFANTRY, 3, 3, 3, 0, 75, 42, 270);
    t.table.character[h].follow = 1;
    cr_assert_lt(om_wm_table_character_distance(&t.table, h, 2),
                 om_wm_table_character_distance(&t.table, h, 1));
    cr_assert_eq(move_u(&t.table, u, 20), 1u);
    cr_expect_eq(t.table.character[h].joined, 1);
}

/* In the Command phase: an order moving U 20cm through him (its move as if
 * ordered: no dice) makes him join F. */
Test(lone, command_phase_moves)
{
    om_wm_turn t;
    om_wm_command_result r;
    unsigned h;
    const unsigned u = layout(&t, at(75, LINE_Y), at(75, 80), &h);
    const unsigned g = (unsigned)om_wm_table_add_character(&t.table, "General", 0,
                                                           OM_WM_GENERAL, 9, at(U_X, 40));
    t.command.plan[u] = (om_wm_plan){.kind = OM_WM_PLAN_ADVANCE, .target = -1,
                                     .goal = {175, LINE_Y}, .by = (int8_t)g};
    memset(&r, 0, sizeof r);
    for (unsigned k = 0; k < t.table.units; k++)
        r.unit[k].by = r.unit[k].charge_target = -1;
    cr_assert(om_wm_command_may_move_as_ordered(&t.command, &t.table, u));
    cr_assert(om_wm_command_move_as_ordered(&t.command, &t.table, u, &r));
    cr_assert_float_eq(t.table.unit[u].centre.x, U_X + 20, EXACT_CM);
    cr_expect_eq(t.table.character[h].joined, 1, "displaced by the ordered move");
}
