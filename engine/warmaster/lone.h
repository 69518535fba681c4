/*
 * lone.h: a lone character in the way of an enemy unit's move (Warmaster
 * Revolution, Generals, Wizards & Heroes > Enemy Moving Through Characters;
 * Warmaster Ancients, Commanders: a commander "moved into or over by enemy
 * units" is displaced; the Warmaster 1.1 Rules Update leaves the rule as the
 * Revolution text gives it). A character not joined to a unit whom an enemy
 * unit moves into or through must at once move up to 30cm (a flyer too) to
 * join a friendly unit, or he is slain; a flying unit displaces him only if
 * its move ends on top of him. A joined character is never displaced: he
 * shuffles round his unit.
 *
 * The moves that displace are the Command phase's (initiative, orders,
 * blunders, evades: command.c calls the hook after each); the path of a move
 * is the unit's outline as it ends, swept straight back to where its centre
 * started (a charge's turn is not swept), sampled every
 * OM_WM_LONE_SAMPLE_CM. The friend he joins is a fixed policy (the rules
 * leave it to the player): the unit he is on his way to (his `follow`) when it
 * is within 30cm, else the closest friendly unit within 30cm (ties to the
 * lower index); he is placed touching it. Moves of the Shooting and Combat
 * phases (drive backs, retreats, pursuits, advances) do not displace.
 */
#ifndef OM_WM_LONE_H
#define OM_WM_LONE_H

#include "table.h"
#include "trace.h"

/* How far a lone character is moved to join a friend: "up to 30cm", flying
 * or not (Generals, Wizards & Heroes > Enemy Moving Through Characters;
 * Flying Characters). */
#define OM_WM_LONE_RESCUE_CM 30.0
/* The step at which a move's path is sampled. */
#define OM_WM_LONE_SAMPLE_CM 0.5

/*
 * om_wm_lone_moved: unit u of `t` has just moved in a straight line from
 * centre `from` to where it stands. Every lone character of the other side
 * (not joined, not slain) in its way is displaced: joined to a friendly unit
 * within OM_WM_LONE_RESCUE_CM (the policy above) and placed touching it, or
 * else marked slain. Each is recorded in `trace` unless it is NULL
 * (OM_WM_EV_DISPLACED). Returns how many were displaced or slain. Pure apart
 * from `t` and `trace`; no dice, no allocation; thread-safe on distinct
 * tables.
 */
unsigned om_wm_lone_moved(om_wm_table *t, unsigned u, om_wm_vec from, om_wm_trace *trace);

#endif /* OM_WM_LONE_H */
