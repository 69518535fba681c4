/*
 * wm_load_int.h: what the Warmaster scenario loader (load.c) shares with the
 * loader of whole turns (wm_turn_load.c): the raw unit and side as libcyaml
 * reads them (every scalar a string, converted by hand), the side keys'
 * schema, and the conversions of a side, a word and an option. A turn's unit
 * is written with the same keys as a side of an engagement, so both loaders
 * convert it with the same code. Private to scenarios/.
 */
#ifndef OM_WM_LOAD_INT_H
#define OM_WM_LOAD_INT_H

#include <cyaml/cyaml.h>

#include "status.h"
#include "wm.h"
#include "wm_keys.h"
#include "yaml_int.h"

/* The raw document of a side: every scalar kept as a string. An optional key
 * that is absent leaves its pointer NULL, which is how the defaults are
 * applied. */
typedef struct om_wm_raw_unit {
    char *from;          /* unit.from ("army/unit"), NULL if absent */
    char *name;          /* unit.name (required without from) */
    char *type;          /* unit.type (required without from) */
    char *stands;        /* unit.stands (required without from) */
    char *attacks;       /* unit.attacks (required without from) */
    char *hits;          /* unit.hits (required without from) */
    char *armour;        /* unit.armour (required without from) */
    char *shots;         /* unit.shots, NULL if absent */
    char *range;         /* unit.range, NULL if absent */
    char *pace;          /* unit.pace, NULL if absent */
    char *points;        /* unit.points, NULL if absent */
    char *size;          /* unit.size, NULL if absent */
    char *chaos_or_undead; /* unit.chaos_or_undead, NULL if absent */
    char **rules;        /* unit.rules entries, NULL if absent or empty */
    unsigned rules_count; /* number of entries in rules */
} om_wm_raw_unit;

/* One member per side key of the table (wm_keys.h), plus the keys read by
 * hand. */
#define RAW_SIDE_MEMBER(key, type, fallback, names, rule, help) char *key;
typedef struct om_wm_raw_side {
    om_wm_raw_unit unit;   /* side.unit (required) */
    char *character;       /* side.character ("army/unit"), NULL if absent */
    char *mount;           /* side.mount, NULL if absent */
    char *caractacus;      /* side.caractacus, NULL if absent */
    OM_WM_SIDE_KEYS(RAW_SIDE_MEMBER) /* side.KEY, NULL if absent */
} om_wm_raw_side;
#undef RAW_SIDE_MEMBER

/* The schema of a side's keys (ending in CYAML_FIELD_END): the fields of
 * om_wm_raw_side. A struct whose first member is an om_wm_raw_side may use
 * them as its own. */
extern const cyaml_schema_field_t *const om_wm_load_side_fields;

/* The keys of a side and a unit that hold integers and booleans
 * (NULL-terminated), for messages about a value of the wrong type. */
extern const char *const *const om_wm_load_int_keys;
extern const char *const *const om_wm_load_bool_keys;

/*
 * om_wm_load_side: convert the raw side `r` at path `side` ("a", or a turn's
 * "a.units[2]") under rule set `rs` into *s: its unit (from the army lists
 * with `from:`, or written out), a joined character and mount, and every
 * side key with its default. Errors: as load.c documents for a side, each
 * "SOURCE:LINE: field 'PATH': REASON".
 */
om_status om_wm_load_side(const om_yaml_ctx *c, const om_wm_ruleset *rs, const char *side,
                          const om_wm_raw_side *r, om_wm_side *s);

/* om_wm_load_name: the index of word `s` among names[0..n) into *out, the
 * value of prefix.key; OM_EPARSE naming the `what` and listing the words. */
om_status om_wm_load_name(const om_yaml_ctx *c, const char *prefix, const char *key,
                          const char *what, const char *s, const char *const *names, size_t n,
                          unsigned *out);

#endif /* OM_WM_LOAD_INT_H */
