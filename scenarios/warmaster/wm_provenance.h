/*
 * wm_provenance.h: what a Warmaster run simulated, every value resolved, as
 * JSON for the result file (see wm_provenance.c).
 */
#ifndef OM_WM_PROVENANCE_H
#define OM_WM_PROVENANCE_H

#include "status.h"
#include "wm.h"
#include "wm_turn_scenario.h"

/*
 * om_wm_provenance_json: the engagement `e` with every value resolved (defaults
 * included) and its rule set's switches, as compact JSON with sorted keys.
 * *out is owned by the caller (free()). Errors: OM_ENOMEM.
 */
om_status om_wm_provenance_json(const om_wm_engagement *e, char **out);

/*
 * om_wm_provenance_turn_json: the turn `ts` with every value resolved: the
 * rule set, the moving side, the table, every unit (its id, its side's
 * values as an engagement records them, where it stands, its plan and
 * policies), characters, brigades, terrain, and under "options" every
 * engine option, every Command option and every fixed reading of the turn.
 * Compact JSON with sorted keys; *out owned by the caller (free()). Errors:
 * OM_ENOMEM.
 */
om_status om_wm_provenance_turn_json(const om_wm_turn_scenario *ts, char **out);

#endif /* OM_WM_PROVENANCE_H */
