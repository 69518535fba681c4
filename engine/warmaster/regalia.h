/*
 * regalia.h: the Generals' devices of power in the Command phase (Warmaster
 * Revolution, Magic Items > Devices of Power: Crown of Command, Helm of
 * Dominion, Orb of Majesty, Sceptre of Sovereignty; the Warmaster 1.1 Rules
 * Update, P77 – Orb of Majesty, whose new text Revolution prints word for
 * word). Warmaster Ancients has no magic items.
 *
 * A device is a bit of om_wm_table_character.regalia: what the General
 * carries and can still use. The table is the trial's own copy, so a device
 * used up (the Helm's turn, the Orb's re-roll, the Sceptre's pardon) or
 * ceasing to work (the Crown after a failed first order) is cleared from it
 * and stays cleared for the rest of the battle, as a Wizard's spent devices
 * stay marked (magic.h). When to use a device is a fixed policy, the same in
 * every trial (docs/rules-coverage.md states it):
 *  - Crown of Command: on the General's first order of every turn whose test
 *    would otherwise need less than 10 (at 10 it gives nothing and a failure
 *    would still end it), until it fails;
 *  - Helm of Dominion: in the first turn whose plans give the General a
 *    charge to order, when his Command is below 10;
 *  - Orb of Majesty: on the General's first failed order whose re-roll (at
 *    Command 8 with that order's penalties) can pass;
 *  - Sceptre of Sovereignty: on the first double 6 of an order from any
 *    character of its army, the General's own included (a blunder of a Hero
 *    or Wizard, or the General's failure), whatever the blunder would be: the
 *    blunder table is not rolled.
 * The Command phase (command.c) calls the three hooks below where an order is
 * tested; they draw dice only for the Orb's re-roll.
 */
#ifndef OM_WM_REGALIA_H
#define OM_WM_REGALIA_H

#include <stdbool.h>

#include "command.h"
#include "dice.h"
#include "table.h"
#include "trace.h"

/* The Generals' devices, bits of om_wm_table_character.regalia and of
 * om_wm_command_result.regalia. */
typedef enum om_wm_regalia {
    OM_WM_REGALIA_CROWN = 1u << 0,   /* Crown of Command: the first order of each turn
                                        against an unmodified 10, until it fails */
    OM_WM_REGALIA_HELM = 1u << 1,    /* Helm of Dominion: +1 Command (to at most 10) for
                                        one turn of the battle */
    OM_WM_REGALIA_ORB = 1u << 2,     /* Orb of Majesty: once a battle, a failed General's
                                        order re-rolled as if his Command were 8 */
    OM_WM_REGALIA_SCEPTRE = 1u << 3, /* Sceptre of Sovereignty: once a battle, a double 6
                                        of any character of the army ignored, the test
                                        passed */
} om_wm_regalia;
#define OM_WM_REGALIA_ALL 0x0fu

/*
 * om_wm_regalia_phase_start: at the start of the moving side's Command phase
 * (`out->general` already set), clear out->regalia and declare the Helm of
 * Dominion when the policy says so (it is then spent from the table and
 * marked in out->regalia for this phase, and recorded in `trace` unless it
 * is NULL: OM_WM_EV_REGALIA). Pure apart from `t`, `out` and `trace`; no
 * dice, no allocation.
 */
void om_wm_regalia_phase_start(const om_wm_command_setup *s, om_wm_table *t,
                               om_wm_command_result *out, om_wm_trace *trace);

/*
 * om_wm_regalia_before_test: character c is about to test an order whose
 * test (penalties and target) is `test`; a device of the moving side's
 * General that acts on the number to roll changes test->target: the Crown
 * (the General's first test of the phase: 10, no penalties) or the Helm
 * declared this phase (+1 to a Command below 10). Returns the device that
 * acted (OM_WM_REGALIA_CROWN or OM_WM_REGALIA_HELM) or 0, the Crown's use
 * marked in out->regalia and recorded in `trace` unless it is NULL. Reads
 * out->general_tests, so it is called before the test is recorded; `u` is
 * the first unit ordered (for the record). Pure apart from `out` and
 * `trace`; no dice.
 */
unsigned om_wm_regalia_before_test(const om_wm_command_setup *s, const om_wm_table *t,
                                   unsigned c, unsigned u, om_wm_command_result *out,
                                   om_wm_command_test *test, om_wm_trace *trace);

/*
 * om_wm_regalia_after_failure: character c's order to the units u[0..n-1]
 * failed with `*roll` against test->target, `used` being what
 * om_wm_regalia_before_test returned. A Crown that was used ceases to work;
 * the Sceptre pardons a double 6; the Orb re-rolls a General's failure (2D6
 * from `d`, against 8 less the same penalties), *roll then being the re-roll.
 * Returns whether the order now passes; the device used is cleared from the
 * table, marked in out->regalia and, with `trace`, recorded
 * (OM_WM_EV_REGALIA). Pure apart from `t`, `d`, `out` and `trace`.
 */
bool om_wm_regalia_after_failure(const om_wm_command_setup *s, om_wm_table *t, om_dice *d,
                                 unsigned c, const unsigned *u, unsigned n, unsigned used,
                                 const om_wm_command_test *test, unsigned *roll,
                                 om_wm_command_result *out, om_wm_trace *trace);

/* The device's name as its rulebook prints it ("Crown of Command"), by a
 * single OM_WM_REGALIA_* bit; "" for anything else. */
const char *om_wm_regalia_name(unsigned bit);

#endif /* OM_WM_REGALIA_H */
