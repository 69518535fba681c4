/*
 * wh7_scenario.h: Warhammer Fantasy Battles 7th edition scenario files and
 * the list file of sample units (rule set `whfb7`), loaded into the engine's
 * om_wh7_combat (engine/whfb7/wh7.h).
 *
 * A scenario names two units (side A and side B) as models in ranks and
 * files: a profile of the rulebook by id (scenarios/armies/whfb7/profiles.yaml,
 * `oddsmaster list whfb7/profiles`) or written out, equipment from the weapon
 * tables, command group, joined characters, mounts, special rules, points;
 * or a unit of the list file by `from: army/unit`, with any key overriding
 * it. wh7_load.c documents the format key by key. Every error names the
 * file, the line and the field ("FILE:LINE: field 'PATH': REASON"), the
 * engine's check (om_wh7_check) included. libcyaml is used only in
 * scenarios/.
 */
#ifndef OM_WH7_SCENARIO_H
#define OM_WH7_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"
#include "wh7.h"

/* The rule set name of WHFB 7th edition in scenario files. */
#define OM_WH7_RULESET "whfb7"

/* Schema identifier of the list file of units. */
#define OM_WH7_LIST_SCHEMA "oddsmaster-whfb7-list/1"

/* Path of the embedded list file of sample units, for messages. */
#define OM_WH7_LIST_PATH "scenarios/lists/whfb7-sample.yaml"

/* What a side's unit is beyond the engine's description of it. */
typedef struct om_wh7_side_info {
    char name[64];              /* the unit's display name */
    char from[96];              /* the list unit it was taken from ("army/unit"), or "" */
    char profile[96];           /* the rulebook profile id of its rank and file, or "" */
    uint32_t character_points;  /* the points of its joined characters */
    char spells[160];           /* spells on it (side key `spells`), comma-separated */
} om_wh7_side_info;

/* A loaded scenario. Owns its strings. */
typedef struct om_wh7_scenario {
    char *source;             /* file path, or a name for text */
    char *text;               /* the file text verbatim (NUL-terminated) */
    char *title;              /* the scenario's title */
    om_wh7_combat combat;     /* what to simulate, checked by om_wh7_check */
    om_wh7_side_info side[2]; /* names, origins and points of the two sides */
    char spell[48];           /* the magic kind's spell id, or "" */
} om_wh7_scenario;

/*
 * om_wh7_scenario_load_text: read and validate `len` bytes of scenario text;
 * `source` names it in messages. On success *out is the caller's
 * (om_wh7_scenario_free). Errors, each "SOURCE:LINE: field 'PATH': REASON":
 * OM_EPARSE (malformed YAML, an unknown or missing key, a value of the wrong
 * type, an unknown word, rule, option or spell, with "did you mean"),
 * OM_ENOTFOUND (an unknown profile or list unit, with "did you mean"),
 * OM_EINVAL (an impossible value: the engine's check, a fixed reading given
 * as an option), OM_EUNSUPPORTED (a spell with no effect on a unit's dice
 * under `spells`), OM_ENOMEM. Thread-safe.
 */
om_status om_wh7_scenario_load_text(const char *source, const char *text, size_t len,
                                    om_wh7_scenario **out);

/* Free a scenario (NULL allowed). */
void om_wh7_scenario_free(om_wh7_scenario *s);

/* One unit of a list file, ready to fight. */
typedef struct om_wh7_list_unit {
    char id[96];              /* "army/unit", e.g. "empire/swordsmen" */
    char army[48];            /* its army's id, e.g. "empire" */
    char army_name[64];       /* its army's name, e.g. "Empire" */
    char name[64];            /* the unit's name, e.g. "Swordsmen" */
    char profile[96];         /* the profile id of its rank and file */
    om_wh7_unit unit;         /* the unit (points included) */
    om_wh7_machine machine;   /* what it fires, if it is a war machine (a side's
                                 `machine:` for it) */
    uint32_t character_points; /* the points of its characters */
    size_t line;              /* the line of its entry in the list file */
} om_wh7_list_unit;

/* A list file of units, by army. Owns everything. */
typedef struct om_wh7_list {
    char *source;             /* the file, for messages */
    char *name;               /* the list's name */
    char *version;            /* the list's version */
    char *note;               /* where its points come from */
    size_t n;                 /* units */
    om_wh7_list_unit *units;  /* the units, in file order */
} om_wh7_list;

/*
 * om_wh7_list_parse: parse a list file (schema OM_WH7_LIST_SCHEMA, format in
 * wh7_list.c) of `len` bytes named `source`; om_wh7_list_load: the embedded
 * sample list (OM_WH7_LIST_PATH). Free with om_wh7_list_free. Errors as
 * om_wh7_scenario_load_text, plus OM_EINVAL for an id given twice.
 */
om_status om_wh7_list_parse(const char *source, const char *text, size_t len, om_wh7_list **out);
om_status om_wh7_list_load(om_wh7_list **out);

/* Free a list (NULL allowed). */
void om_wh7_list_free(om_wh7_list *l);

/*
 * om_wh7_list_find: the unit `id` ("army/unit") of `l` into *out. Errors:
 * OM_ENOTFOUND (no such army or unit, with "did you mean" when one is close),
 * OM_EINVAL (not of the form army/unit).
 */
om_status om_wh7_list_find(const om_wh7_list *l, const char *id, const om_wh7_list_unit **out);

#endif /* OM_WH7_SCENARIO_H */
