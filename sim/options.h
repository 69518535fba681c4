/*
 * options.h: the resolved options of a run as JSON (see options.c).
 */
#ifndef OM_OPTIONS_H
#define OM_OPTIONS_H

#include "status.h"
#include "wm.h"

/*
 * om_run_options_json: the engagement `e` with every value resolved (defaults
 * included) and its rule set's switches, as compact JSON with sorted keys.
 * *out is owned by the caller (free()). Errors: OM_ENOMEM.
 */
om_status om_run_options_json(const om_wm_engagement *e, char **out);

#endif /* OM_OPTIONS_H */
