/*
 * wm_scenario.h: Warmaster scenario files, the human-written description of what to simulate.
 *
 * A scenario is a YAML file (docs/scenario-format.md) naming the rule set, the
 * two units and the situation. A unit is given by its values or taken from the
 * army lists (`from: empire/knights`, army.h), and a character of the lists may
 * join it (`character:`). Loading validates everything: an unknown key, a
 * malformed value, an unknown rule set, army or unit or an impossible value (0
 * stands, armour 1+, ...) is an error whose message names the file, the line
 * and the field. libcyaml is used only in scenarios/ (yaml_util.c, load.c,
 * army.c).
 */
#ifndef OM_WM_SCENARIO_H
#define OM_WM_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"
#include "wm.h"

/* Schema identifier the "schema" key of a scenario file must carry. */
#define OM_SCENARIO_SCHEMA "oddsmaster-scenario/1"

/* A whole turn (wm_turn_scenario.h), a battle (wm_battle.h). */
typedef struct om_wm_turn_scenario om_wm_turn_scenario;
typedef struct om_wm_battle_scenario om_wm_battle_scenario;

/* A loaded scenario. Owns its strings. */
typedef struct om_wm_scenario {
    char *source;          /* file path, or "<embedded default>" */
    char *text;            /* the file text verbatim (NUL-terminated) */
    char *title;           /* the scenario's title */
    om_wm_engagement engagement; /* the engagement to simulate (of a turn: its rule set) */
    om_wm_turn_scenario *turn; /* kind turn: the turn (owned, no pointer inside); else NULL */
    om_wm_battle_scenario *battle; /* kind battle: the battle (owned); else NULL */
} om_wm_scenario;

/*
 * om_wm_scenario_load_file: read and validate the scenario at `path`.
 * Errors: OM_EIO (cannot read), OM_EPARSE (malformed YAML, unknown or missing
 * key, unknown special rule), OM_EINVAL (impossible value, a character named
 * by from), OM_ENOTFOUND (unknown rule set, army, unit or mount, with a "did
 * you mean" suggestion for near misses), OM_EUNSUPPORTED (a list entry the
 * engine cannot fight with), each with a message "FILE:LINE: field 'F': what
 * is wrong" (load.c documents every case). Free with om_wm_scenario_free.
 */
om_status om_wm_scenario_load_file(const char *path, om_wm_scenario **out);

/*
 * om_wm_scenario_load_text: as om_wm_scenario_load_file for `len` bytes of YAML already
 * in memory; `source` names it in messages.
 */
om_status om_wm_scenario_load_text(const char *source, const char *text, size_t len,
                                om_wm_scenario **out);

/* Free a scenario (NULL allowed). */
void om_wm_scenario_free(om_wm_scenario *s);

/* The embedded default scenario's YAML text (scenarios/default.yaml). */
const char *om_scenario_default_text(void);

/* Name used for the embedded default in messages and result files. */
#define OM_SCENARIO_DEFAULT_NAME "<embedded default>"

#endif /* OM_WM_SCENARIO_H */
