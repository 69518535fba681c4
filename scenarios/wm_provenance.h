/*
 * wm_provenance.h: what a Warmaster run simulated, every value resolved, as
 * JSON for the result file (see wm_provenance.c).
 */
#ifndef OM_WM_PROVENANCE_H
#define OM_WM_PROVENANCE_H

#include "status.h"
#include "wm.h"

/*
 * om_wm_provenance_json: the engagement `e` with every value resolved (defaults
 * included) and its rule set's switches, as compact JSON with sorted keys.
 * *out is owned by the caller (free()). Errors: OM_ENOMEM.
 */
om_status om_wm_provenance_json(const om_wm_engagement *e, char **out);

#endif /* OM_WM_PROVENANCE_H */
