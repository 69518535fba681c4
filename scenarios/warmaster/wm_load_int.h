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
#include "table.h"
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

/* ---- What the turn and battle loaders read alike (wm_terrain_load.c) ---- */

/* Largest table side and coordinate accepted (cm): far beyond any table. */
#define OM_WM_LOAD_CM_MAX 1000.0

/* A terrain piece as written: its kind and 2 corners of a rectangle or 3 to
 * OM_WM_TABLE_MAX_VERTICES of a convex polygon, each [x, y] allocated alone
 * (om_wm_load_terrain_entry says why). */
typedef char *om_wm_raw_point[2];
typedef struct om_wm_raw_terrain {
    char *kind;
    om_wm_raw_point **points;
    unsigned points_count;
} om_wm_raw_terrain;

/* The schema of one point [x, y] of a list of points (om_wm_raw_point, allocated
 * alone as om_wm_load_terrain_entry's are). */
extern const cyaml_schema_value_t om_wm_load_point_entry;

/* The schema of one entry of a list of terrain pieces (om_wm_raw_terrain). */
extern const cyaml_schema_value_t om_wm_load_terrain_entry;

/* om_wm_load_real: the number `s` at prefix.key, within lo..hi, into *out;
 * OM_EPARSE (not a number) or OM_EINVAL (out of range) naming the field. */
om_status om_wm_load_real(const om_yaml_ctx *c, const char *prefix, const char *key,
                          const char *s, double lo, double hi, double *out);

/* om_wm_load_point: a point [x, y] in cm at prefix.key, both entries given,
 * each within +-OM_WM_LOAD_CM_MAX. */
om_status om_wm_load_point(const om_yaml_ctx *c, const char *prefix, const char *key,
                           char *const xy[2], om_wm_vec *out);

/* om_wm_load_terrain: piece `k` of the list at key `list` ("terrain") onto
 * table t. Whether it lies on the table and clear of others is the caller's
 * (om_wm_table_check, om_wm_battlefield_check_terrain). Errors naming
 * "LIST[k].kind" or ".points": OM_EPARSE, OM_EINVAL (a full table too). */
om_status om_wm_load_terrain(const om_yaml_ctx *c, const char *list, unsigned k,
                             const om_wm_raw_terrain *r, om_wm_table *t);

#endif /* OM_WM_LOAD_INT_H */
