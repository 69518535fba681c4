/*
 * credit.h: who caused whose losses over a battle, and the victory points
 * each unit scored from them (kill attribution). The turn engine records,
 * as stands are removed, which enemy units removed them (om_wm_credit_add);
 * at the end of a battle the victory points each unit gave up (End of the
 * Battle > Victory Points, om_wm_victory_points) are shared among the enemy
 * units that removed its stands, in proportion to the stands each removed,
 * in whole points whose sum is exactly what was shared (om_wm_credit_share).
 *
 * The attribution rule (docs/rules-coverage.md, "Victory points of each
 * unit"): a stand lost in a Shooting phase goes to the units that hit the
 * unit in that phase, in proportion to their unsaved hits (a spell's hits to
 * the unit of the Wizard who cast it; a spell's loss with no Wizard's unit
 * known, such as a shattered stand, to the units the moving side's Wizards
 * are with); a stand lost in a Combat phase goes to the enemy units of its
 * engagement, in proportion to the stands each had fighting the unit (none
 * fighting it: the stands each had fighting in the engagement; none at all:
 * equal shares). A loss the unit caused itself (a machine that blows up)
 * goes to no enemy. Nothing here allocates, formats or checks: it runs
 * inside a battle.
 */
#ifndef OM_WM_CREDIT_H
#define OM_WM_CREDIT_H

#include <stdbool.h>
#include <stdint.h>

#include "table.h"

/* Stands of each unit credited to each enemy unit, over a battle. */
typedef struct om_wm_credit {
    float by[OM_WM_TABLE_MAX_UNITS][OM_WM_TABLE_MAX_UNITS]; /* [victim][enemy] */
} om_wm_credit;

/* om_wm_credit_clear: no stand credited among the first `units` units (the
 * rest of c is never read for a table of that many). */
void om_wm_credit_clear(om_wm_credit *c, unsigned units);

/*
 * om_wm_credit_add: credit `lost` stands of unit `victim` to the units of
 * the table's first `units` in proportion to weight[0..units-1] (0 for a unit
 * that had no part; negative weights are not allowed). All weights 0: no
 * stand is credited (the loss is nobody's). Pure apart from *c.
 */
void om_wm_credit_add(om_wm_credit *c, unsigned victim, unsigned lost, const float *weight,
                      unsigned units);

/*
 * om_wm_credit_share: share `amount` whole points among `n` units in
 * proportion to weight[0..n-1] (none negative), adding each unit's share to
 * out[i]: each gets the floor of its exact share, and the points left over go
 * one each to the largest remainders, the lowest index first among equal
 * ones, so that the shares sum to `amount` exactly. Returns false, adding
 * nothing, when every weight is 0. Pure apart from out.
 */
bool om_wm_credit_share(const float *weight, unsigned n, uint32_t amount, uint32_t *out);

#endif /* OM_WM_CREDIT_H */
