/*
 * command_int.h: internals of the Command phase (command.c) opened to its
 * tests: applying a blunder's result to a unit or brigade, so that each result
 * can be checked on a drawn layout without waiting for a double 6.
 */
#ifndef OM_WM_COMMAND_INT_H
#define OM_WM_COMMAND_INT_H

#include "command.h"

/*
 * om_wm_command_apply_blunder: apply blunder result `b` to the `n` units `u`
 * (a unit, or a brigade's units in order) whose plan is `plan`, as the Command
 * phase does after a blundered order (Warmaster Revolution, Generals, Wizards &
 * Heroes > Blunders; Warmaster Ancients, Commanders > Blunder Table). Moves
 * units in `t`, records what happened in `out`, rolls dice only for the
 * confusion tests of Ancients skirmishers evading (none here) and charges'
 * placement ties (none). Pure apart from `t`, `out` and `d`.
 */
void om_wm_command_apply_blunder(const om_wm_command_setup *s, om_wm_table *t, om_dice *d,
                                 const unsigned *u, unsigned n, const om_wm_plan *plan,
                                 om_wm_blunder b, om_wm_command_result *out);

#endif /* OM_WM_COMMAND_INT_H */
