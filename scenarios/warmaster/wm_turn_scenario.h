/*
 * wm_turn_scenario.h: Warmaster scenario files of `kind: turn`, a whole turn
 * of one side over both armies' units on a table (docs/manual.md, "Whole turns";
 * the format is documented at the top of wm_turn_load.c). Loading validates
 * everything, through the engine's checks of the table, the Command phase
 * and each unit's values: every error names the file, the line and the field.
 */
#ifndef OM_WM_TURN_SCENARIO_H
#define OM_WM_TURN_SCENARIO_H

#include <stddef.h>

#include "status.h"
#include "turn.h"
#include "wm_scenario.h"

/* Longest unit id, with its NUL: ids name a unit's column in the result
 * file's per-unit results (/units/charged[knights] in reports), so they stay
 * short. */
#define OM_WM_TURN_ID_MAX 24

/* The formations a unit of a turn is drawn up in, in om_wm_table_formation
 * order: line, column, irregular. */
#define OM_WM_TURN_FORMATIONS 3
extern const char *const om_wm_turn_formation_names[OM_WM_TURN_FORMATIONS];

/* A loaded turn: the engine's description and the names the file gave. */
struct om_wm_turn_scenario {
    om_wm_turn turn;                                /* what to simulate */
    char id[OM_WM_TABLE_MAX_UNITS][OM_WM_TURN_ID_MAX]; /* each unit's id, by table index */
    char side_name[2][64];                          /* the armies' names ("side A" unless
                                                       the file names them) */
};

/*
 * om_wm_turn_scenario_load_text: load `len` bytes of scenario text of kind
 * turn; `source` names it in messages. *out is a scenario whose `turn` holds
 * the turn (its engagement only the rule set), owned by the caller
 * (om_wm_scenario_free). Errors: OM_EPARSE, OM_EINVAL, OM_ENOTFOUND,
 * OM_EUNSUPPORTED, OM_ENOMEM, each with a message "SOURCE:LINE: field 'PATH':
 * REASON" (wm_turn_load.c documents every case).
 */
om_status om_wm_turn_scenario_load_text(const char *source, const char *text, size_t len,
                                        om_wm_scenario **out);

#endif /* OM_WM_TURN_SCENARIO_H */
