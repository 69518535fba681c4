/*
 * wh7_load_int.h: private interface between the WHFB 7th edition scenario
 * loader (wh7_load.c) and the list file loader (wh7_list.c), which read
 * units with the same keys: the raw document structs libcyaml fills, their
 * schemas, and the conversion of a raw unit into the engine's om_wh7_unit.
 * Not part of any public interface.
 */
#ifndef OM_WH7_LOAD_INT_H
#define OM_WH7_LOAD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "army.h"
#include "wh7.h"
#include "wh7_keys.h"
#include "wh7_scenario.h"
#include "yaml_int.h"

/* Every scalar of the raw document is kept as a string (NULL when absent)
 * and converted by hand (libcyaml's own number parsing is too lax). */

/* A profile: a rulebook profile's id and the characteristics written out or
 * overriding it. */
typedef struct wh7_raw_prof {
    char *profile; /* id of a rulebook profile, NULL if absent */
    char *name;    /* display name */
    char *m, *ws, *bs, *s, *t, *w, *i, *a, *ld; /* the nine characteristics */
} wh7_raw_prof;

/* What a model carries. */
typedef struct wh7_raw_equip {
    char *weapon, *missile, *armour, *shield, *enchanted_shield, *barding, *scaly_skin, *ward,
        *save_bonus, *magic_weapon;
} wh7_raw_equip;

/* A mount. */
typedef struct wh7_raw_mount {
    wh7_raw_prof p;        /* its profile */
    char **rules;          /* its special rules */
    unsigned rules_count;  /* entries of rules */
    char *damage;          /* wounds per unsaved wound of its blows */
    char *magic_resistance; /* 0..3 */
} wh7_raw_mount;

/* A character joining the unit. */
typedef struct wh7_raw_character {
    wh7_raw_prof p;           /* his profile */
    wh7_raw_equip *equipment; /* what he carries */
    char **rules;             /* his special rules */
    unsigned rules_count;     /* entries of rules */
    char *damage, *magic_resistance;
    wh7_raw_mount *mount;     /* his mount */
    char *unit_strength, *wounds_lost, *general, *battle_standard, *wizard_level, *points;
} wh7_raw_character;

/* A unit (a scenario side's `unit:`, or an entry of a list file). */
typedef struct wh7_raw_unit {
    char *id;                 /* list files only: the unit's id in its army */
    char *from;               /* scenarios only: "army/unit" of the list file */
    char *machine;            /* list files only: what a war-machine unit fires */
    wh7_raw_prof p;           /* the rank and file's profile (cavalry: the rider) */
    char *troop, *models, *files, *wounds_lost, *champion, *standard, *musician, *war_banner,
        *unit_strength, *points;
    wh7_raw_equip *equipment; /* what the rank and file carry */
    char **rules;             /* their special rules */
    unsigned rules_count;     /* entries of rules */
    char *damage, *magic_resistance;
    wh7_raw_mount *mount;     /* the mount of cavalry */
    wh7_raw_character *characters; /* joined characters */
    unsigned characters_count;     /* entries of characters */
} wh7_raw_unit;

/* The unit keys shared by scenarios and list files, without `from` and `id`
 * (wh7_load.c). */
extern const cyaml_schema_field_t om_wh7_unit_fields_list[];
extern const cyaml_schema_field_t om_wh7_unit_fields_scenario[];

/* Where the scenario schema reads keys: the mappings libcyaml reads, each
 * with the level of the key table (wh7_keys.h) its keys belong to. The test
 * of the key table holds the two to each other (tests/test_wh7_game.c). */
typedef struct wh7_schema_level {
    const char *path;                   /* where the mapping is, e.g. "a.unit" */
    const cyaml_schema_field_t *fields; /* the keys read there */
    om_wh7_key_level level;             /* the level of its keys */
    bool profile;                       /* the profile keys are read there too */
} wh7_schema_level;

/* Every mapping of a scenario file (wh7_load.c). */
extern const wh7_schema_level om_wh7_schema_levels[];
extern const size_t om_wh7_schema_level_count;

/* Keys holding integers and booleans, for "expected ..." messages. */
extern const char *const om_wh7_int_keys[];
extern const char *const om_wh7_bool_keys[];

/* What a conversion reads besides its document. */
typedef struct wh7_conv {
    const om_yaml_ctx *c;          /* the document, for messages */
    const om_army_table *profiles; /* the rulebook's profiles */
} wh7_conv;

/*
 * om_wh7_conv_unit: convert the raw unit `r` at path `up` ("a.unit", or
 * "armies[0].units[2]" in a list file) onto *u, which holds the unit it
 * starts from (a list unit for `from:`, else zeroes): every key given
 * replaces its value (equipment and mount key by key, rules and characters
 * whole), then the defaults of what is still unset (troop, files). Writes
 * the display name, the profile id and the characters' points to *info.
 * `based`: *u is a unit already (from a list). Errors as
 * om_wh7_scenario_load_text, each at its key's line.
 */
om_status om_wh7_conv_unit(const wh7_conv *cv, const char *up, const wh7_raw_unit *r, bool based,
                        om_wh7_unit *u, om_wh7_side_info *info);

/*
 * om_wh7_fail_check: raise the engine's check failure `why` as "SOURCE:LINE:
 * field 'PATH': REASON", the engine's dotted path turned into the key it
 * comes from (a characteristic of a profile is a key of the unit, mount,
 * character or caster; a value the file does not write is reported at the
 * key it came from: the profile, or `from`). Returns OM_EINVAL.
 */
om_status om_wh7_fail_check(const om_yaml_ctx *c, const om_wh7_check_failure *why);

#endif /* OM_WH7_LOAD_INT_H */
