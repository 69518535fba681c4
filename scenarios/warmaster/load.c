/*
 * load.c: load and validate scenario files (scenario.h). With yaml_util.c and
 * army.c this is the only code that uses libcyaml and libyaml: one place reads
 * YAML, so its quirks (below) are handled once.
 *
 * Loading runs in four steps, and the first failure wins:
 *   1. a libyaml event walk checks the syntax, that there is exactly one
 *      document, that it is a mapping and that it declares the right schema;
 *   2. libcyaml maps the document onto a "raw" struct of strings with a strict
 *      schema (unknown and duplicate keys, a list or a mapping where a single
 *      value belongs); its log messages are captured, not printed. The
 *      names under `options:` are the engine's option registry, not a fixed
 *      schema, so libcyaml skips that key and a second event walk reads it;
 *   3. the strings are converted by hand (libcyaml 1.3.1 reads "2.7" as 2,
 *      "010" as 8 and any word as a true boolean, which is too lax), units
 *      named with `from:` are read from the army lists (army.h), and values
 *      are range checked and defaulted into an om_wm_engagement;
 *   4. om_wm_engagement_check validates the rules-level consistency.
 * Every error becomes one message "FILE:LINE: field 'PATH': REASON"; LINE is
 * found by walking the document again along PATH (yaml_util.c).
 *
 * The file format, every key and every error status are documented in
 * docs/scenario-format.md. The side keys are rows of one table (wm_keys.h):
 * their raw strings, libcyaml schema fields, value types, defaults and checks
 * all come from it, and so do the provenance (wm_provenance.c) and
 * `oddsmaster list --keys`. The unit keys and the side keys unit, character,
 * mount and caractacus are converted by hand below. A file of kind turn is
 * read by wm_turn_load.c, which converts each of its units as a side here
 * (wm_load_int.h).
 */
#include "wm_battle.h"
#include "wm_scenario.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "army.h"
#include "wm_game_int.h"
#include "wm_keys.h"
#include "wm_load_int.h"
#include "yaml_int.h"

/* Generated at build time from default.yaml by embed_text.py (meson.build). */
extern const char om_scenario_default_yaml[];

/* Name for text loaded without a source name. */
#define SOURCE_UNNAMED "<text>"

/* Longest unit name, from om_wm_unit.name (64 bytes with the NUL). */
#define NAME_MAX_LEN (sizeof(((om_wm_unit *)0)->name) - 1)

/* ---------------------------------------------------------------------------
 * The raw document: every scalar is kept as a string and converted by hand.
 * An optional key that is absent leaves its pointer NULL, which is how the
 * defaults are applied.
 */

/* The raw unit and side (wm_load_int.h), shared with the loader of turns. */
typedef om_wm_raw_unit raw_unit;
typedef om_wm_raw_side raw_side;

typedef struct raw_scenario {
    char *schema;   /* schema (required) */
    char *title;    /* title, NULL if absent */
    char *ruleset;  /* ruleset (required) */
    char *kind;     /* kind, NULL if absent */
    raw_side a;     /* side A (required) */
    raw_side b;     /* side B (required) */
} raw_scenario;

#define REQ CYAML_FLAG_POINTER
#define OPT (CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL)

static const cyaml_schema_value_t rule_entry_schema = {
    CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

/* The unit keys, in the order "known keys" lists them. */
static const cyaml_schema_field_t unit_fields[] = {
    CYAML_FIELD_STRING_PTR("name", OPT, raw_unit, name, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("type", OPT, raw_unit, type, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("stands", OPT, raw_unit, stands, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("attacks", OPT, raw_unit, attacks, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("hits", OPT, raw_unit, hits, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("armour", OPT, raw_unit, armour, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("shots", OPT, raw_unit, shots, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("range", OPT, raw_unit, range, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("pace", OPT, raw_unit, pace, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("points", OPT, raw_unit, points, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("size", OPT, raw_unit, size, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("chaos_or_undead", OPT, raw_unit, chaos_or_undead, 0,
                           CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("rules", OPT, raw_unit, rules, &rule_entry_schema,
                         0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("from", OPT, raw_unit, from, 0, CYAML_UNLIMITED),
    CYAML_FIELD_END
};

#define SIDE_FIELD(key, type, fallback, names, rule, help)                                       \
    CYAML_FIELD_STRING_PTR(#key, OPT, raw_side, key, 0, CYAML_UNLIMITED),
static const cyaml_schema_field_t side_fields[] = {
    CYAML_FIELD_MAPPING("unit", CYAML_FLAG_DEFAULT, raw_side, unit, unit_fields),
    CYAML_FIELD_STRING_PTR("character", OPT, raw_side, character, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("mount", OPT, raw_side, mount, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("caractacus", OPT, raw_side, caractacus, 0, CYAML_UNLIMITED),
    OM_WM_SIDE_KEYS(SIDE_FIELD)
    CYAML_FIELD_END
};
#undef SIDE_FIELD

/* Each side key's raw string, in the order of om_wm_side_keys. */
#define RAW_OFFSET(key, type, fallback, names, rule, help) offsetof(raw_side, key),
static const size_t raw_side_offset[] = {OM_WM_SIDE_KEYS(RAW_OFFSET)};
#undef RAW_OFFSET

static const cyaml_schema_field_t top_fields[] = {
    CYAML_FIELD_STRING_PTR("schema", REQ, raw_scenario, schema, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("title", OPT, raw_scenario, title, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("ruleset", REQ, raw_scenario, ruleset, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("kind", OPT, raw_scenario, kind, 0, CYAML_UNLIMITED),
    /* Its names are the engine's option registry, read by conv_options. */
    CYAML_FIELD_IGNORE("options", CYAML_FLAG_OPTIONAL),
    CYAML_FIELD_MAPPING("a", CYAML_FLAG_DEFAULT, raw_scenario, a, side_fields),
    CYAML_FIELD_MAPPING("b", CYAML_FLAG_DEFAULT, raw_scenario, b, side_fields),
    CYAML_FIELD_END
};

static const cyaml_schema_value_t top_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, raw_scenario, top_fields),
};

#undef REQ
#undef OPT

/* Keys whose values are integers or booleans; every other scalar key holds a
 * name or a word. Used to say what a key expected when its value is wrong. */
/* Only the keys of `type` (BOOL, COUNT or NAME) of OM_WM_SIDE_KEYS. */
#define KEY_IF_BOOL_BOOL(key) #key,
#define KEY_IF_BOOL_COUNT(key)
#define KEY_IF_BOOL_NAME(key)
#define KEY_IF_COUNT_BOOL(key)
#define KEY_IF_COUNT_COUNT(key) #key,
#define KEY_IF_COUNT_NAME(key)
#define BOOL_KEY(key, type, fallback, names, rule, help) KEY_IF_BOOL_##type(key)
#define COUNT_KEY(key, type, fallback, names, rule, help) KEY_IF_COUNT_##type(key)
static const char *const int_keys[] = {
    "stands", "attacks", "hits", "shots", "range", "pace", "points", "size",
    OM_WM_SIDE_KEYS(COUNT_KEY) NULL
};
static const char *const bool_keys[] = {
    "chaos_or_undead", "caractacus", OM_WM_SIDE_KEYS(BOOL_KEY) NULL
};

/* The unit keys required when there is no `from`, in the order checked. */
static const char *const required_unit_keys[] = {
    "name", "type", "stands", "attacks", "hits", "armour",
};

static om_status unknown_key(const om_yaml_ctx *c, const char *path,
                             const cyaml_schema_field_t *fields, const char *key);

/* The registry whose switches go under `options:`. */
static const om_option_table *const option_registries[] = {&om_wm_option_registry, NULL};

static const om_yaml_doc scenario_doc = {
    .schema = OM_SCENARIO_SCHEMA,
    .what = "a scenario file",
    .keys = "schema, ruleset, a, b",
    .top = &top_schema,
    .int_keys = int_keys,
    .bool_keys = bool_keys,
    .list_expects = "a list of rule names, e.g. [terror]",
    .entry_expects = "a rule name",
    .unknown_key = unknown_key,
    .options = option_registries,
    .value_max = OM_YAML_SCALAR_MAX,
};

/* An unknown key `key` in the mapping at `path` whose schema is `fields`:
 * say where it belongs if it is a key of another level (OM_OK for any other:
 * the common messages follow, om_yaml_doc.unknown_key). */
static om_status unknown_key(const om_yaml_ctx *c, const char *path,
                             const cyaml_schema_field_t *fields, const char *key)
{
    /* A key of another level first: it is an exact match, so a better hint
     * than a near one. A side key inside a unit, a unit key directly under a
     * side, or either at the top. */
    if (fields == unit_fields && om_yaml_field_find(side_fields, key)) {
        const char side_name[2] = { path[0], '\0' };
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, key,
                               "unknown key '%s' in a unit; it is a side key: move it up "
                               "one level, under '%s'", key, side_name);
    }
    if (fields == side_fields && om_yaml_field_find(unit_fields, key))
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, key,
                               "unknown key '%s' in a side; it is a unit key: move it "
                               "under '%s.unit'", key, path);
    if (fields == top_fields &&
        (om_yaml_field_find(side_fields, key) || om_yaml_field_find(unit_fields, key)))
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, key,
                               "unknown top-level key '%s'; it belongs to a side: put it "
                               "under 'a' or 'b'%s", key,
                               om_yaml_field_find(unit_fields, key) ? " (in 'unit')" : "");
    if (fields != top_fields && om_yaml_field_find(top_fields, key))
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, key,
                               "unknown key '%s' in '%s'; it is a top-level key: unindent "
                               "it, outside 'a' and 'b'", key, path);
    return OM_OK;
}

/* ---------------------------------------------------------------------------
 * Conversion of the raw strings.
 */

/* Find the name s in names[0..n) (the value of prefix.key); error OM_EPARSE
 * listing the names. */
static om_status conv_name(const om_yaml_ctx *c, const char *prefix, const char *key,
                           const char *what, const char *s, const char *const *names,
                           size_t n, unsigned *out)
{
    char known[OM_YAML_REASON_MAX / 2];
    *out = 0;
    for (size_t i = 0; i < n; i++) {
        if (names[i] && strcmp(s, names[i]) == 0) {
            *out = (unsigned)i;
            return OM_OK;
        }
    }
    om_yaml_join_names(known, sizeof known, names, n);
    return om_yaml_fail_at(c, OM_EPARSE, 0, prefix, key,
                           "unknown %s '%s'; expected one of: %s", what, s, known);
}

/*
 * Convert the armour save at prefix.key: "4+" or "4" is a save of 4; "none",
 * "-" and "0" mean no save (0). Out-of-range saves such as "1+" are returned
 * as parsed so that the engine's check rejects them with its own reason.
 */
static om_status conv_armour(const om_yaml_ctx *c, const char *prefix, const char *key,
                             const char *s, uint8_t *out)
{
    long long v = 0;
    size_t n = strlen(s);
    char digits[24];

    *out = 0;
    if (strcmp(s, "none") == 0 || strcmp(s, "-") == 0 || strcmp(s, "0") == 0)
        return OM_OK;
    if (n > 0 && s[n - 1] == '+')
        n--;
    if (n == 0 || n >= sizeof digits || s[0] == '+' || s[0] == '-')
        goto bad;
    memcpy(digits, s, n);
    digits[n] = '\0';
    if (om_yaml_parse_integer(digits, &v) != 0)
        goto bad;
    if (v == 0)
        return om_yaml_fail_at(c, OM_EINVAL, 0, prefix, key,
                               "'%s' is not a save; write none for no save", s);
    if (v > UINT8_MAX)
        return om_yaml_fail_at(c, OM_EINVAL, 0, prefix, key, "save '%s' is out of range", s);
    *out = (uint8_t)v;
    return OM_OK;
bad:
    return om_yaml_fail_at(c, OM_EPARSE, 0, prefix, key,
                           "expected a save such as 4+ (or none, 0 or \"-\" for no save), "
                           "got '%s'", s);
}

/* Is the key prefix.key written in the document (an empty list counts)? */
static bool key_present(const om_yaml_ctx *c, const char *prefix, const char *key)
{
    om_yaml_walk w;
    om_yaml_walk_run(&w, c->text, c->len, prefix, key);
    return w.found;
}

/* Raise "unknown special rule" for entry i of the unit's rules, suggesting
 * the nearest engine or army-list rule id. */
static om_status fail_unknown_rule(const om_yaml_ctx *c, const char *up, unsigned i,
                                   const char *name, const om_army_rules *reg)
{
    const size_t n_engine = om_wm_special_count(), n = n_engine + (reg ? reg->count : 0);
    const char **ids = calloc(n ? n : 1, sizeof *ids);
    char path[OM_YAML_PATH_MAX + sizeof ".rules"], idx[24], known[OM_YAML_REASON_MAX / 2];
    const char *best;
    om_status st;

    if (!ids)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", c->source);
    for (size_t k = 0; k < n_engine; k++)
        ids[k] = om_wm_special_at(k)->id;
    for (size_t k = n_engine; k < n; k++)
        ids[k] = reg->rules[k - n_engine].id;
    best = om_suggest(name, ids, n);
    om_yaml_join_names(known, sizeof known, ids, n_engine);
    snprintf(path, sizeof path, "%s.rules", up);
    snprintf(idx, sizeof idx, "[%u]", i);
    if (best)
        st = om_yaml_fail_at(c, OM_EPARSE, om_yaml_locate(c, path, idx), path, NULL,
                             "unknown special rule '%s'; did you mean '%s'?", name, best);
    else
        st = om_yaml_fail_at(c, OM_EPARSE, om_yaml_locate(c, path, idx), path, NULL,
                             "unknown special rule '%s'; known rules: %s (modelled), or any "
                             "rule of the army lists (oddsmaster list --rules)", name, known);
    free(ids);
    return st;
}

/*
 * Convert the special rule ids of the unit at `up` into the unit's traits,
 * the rules it records and its list of rules not modelled (all reset first).
 * An id the engine implements adds its traits (om_wm_unit_add_rule); an id of
 * the army lists' registry is recorded as not modelled; anything else is an
 * error (OM_EPARSE) with a suggestion. A repeated id is harmless.
 */
static om_status conv_rules(const om_yaml_ctx *c, const om_wm_ruleset *rs, const char *up,
                            const raw_unit *r, om_wm_unit *u)
{
    om_army_rules *reg = NULL;
    om_status st = OM_OK;

    memset(&u->traits, 0, sizeof u->traits);
    u->rule_count = 0;
    u->joined = 0;
    u->unmodelled[0] = '\0';
    for (unsigned i = 0; st == OM_OK && i < r->rules_count; i++) {
        const om_wm_special *sp = om_wm_special_find(r->rules[i]);
        bool known = sp != NULL;
        /* The registry is read only when a rule is not the engine's. */
        if (!known && !reg && (st = om_army_rules_load(&reg)))
            break;
        if (known || om_army_rules_find(reg, r->rules[i])) {
            st = known ? om_wm_unit_add_rule(u, rs, sp)
                       : om_wm_unit_add_unmodelled(u, r->rules[i]);
            if (st) {
                char path[OM_YAML_PATH_MAX + sizeof ".rules"];
                snprintf(path, sizeof path, "%s.rules", up);
                st = om_yaml_fail_at(c, st, 0, path, NULL, "%s", om_error_message());
            }
        } else {
            st = fail_unknown_rule(c, up, i, r->rules[i], reg);
        }
    }
    om_army_rules_free(reg);
    return st;
}

/* The side `side` of the unit at `up`: "a" of "a.unit", "a.units[2]" of
 * "a.units[2].unit" (a turn's unit). */
static void side_of(const char *up, char *side, size_t cap)
{
    const char *dot = strrchr(up, '.');
    snprintf(side, cap, "%.*s", (int)(dot ? (size_t)(dot - up) : strlen(up)), up);
}

/*
 * Fill *u from the army-list entry `ref` ("army/unit") named by from at `up`,
 * and return the list's unit size in *size. The entry must be a unit the
 * engine can fight with; a unit size or Hits value the list does not print
 * must be given (the caller passes which keys are). Errors: as the lookup
 * (OM_EPARSE, OM_ENOTFOUND), OM_EINVAL for a character, mount or upgrade,
 * OM_EUNSUPPORTED for another type, all at up.from.
 */
static om_status conv_from(const om_yaml_ctx *c, const om_wm_ruleset *rs, const char *up,
                           const raw_unit *r, om_wm_unit *u, unsigned *size, bool *unholy)
{
    om_army *army = NULL;
    const om_army_unit *e = NULL;
    char side[OM_YAML_PATH_MAX];
    om_status st;

    side_of(up, side, sizeof side);
    if ((st = om_army_find(rs->name, r->from, &army, &e)))
        return om_yaml_fail_at(c, st, 0, up, "from", "%s", om_error_message());
    if (om_army_type_is_character(e->type))
        st = om_yaml_fail_at(c, OM_EINVAL, 0, up, "from",
                             "'%s' is a character (%s), which cannot fight as a unit; join it "
                             "to the unit with the side key 'character: %s' under '%s'",
                             r->from, om_army_type_name(e->type), r->from, side);
    else if (e->type == OM_ARMY_MOUNT)
        st = om_yaml_fail_at(c, OM_EINVAL, 0, up, "from",
                             "'%s' is a mount, which cannot fight as a unit; give it with "
                             "the side key 'mount: %s' next to 'character:'", r->from, e->id);
    else if (e->is_upgrade)
        st = om_yaml_fail_at(c, OM_EINVAL, 0, up, "from",
                             "'%s' is an upgrade (costing %+d points on top of a unit), not a "
                             "unit; name a unit of %s/%s and override its values", r->from,
                             e->points, army->ruleset, army->id);
    else if ((st = om_army_unit_to_wm(e, rs, u)))
        st = om_yaml_fail_at(c, st, 0, up, "from", "%s", om_error_message());
    else if (e->size == 0 && !r->stands)
        st = om_yaml_fail_at(c, OM_EINVAL, 0, up, "from",
                             "'%s' has no unit size in its list; give 'stands:'", r->from);
    else if (e->hits == 0 && !r->hits)
        st = om_yaml_fail_at(c, OM_EINVAL, 0, up, "from",
                             "'%s' has no Hits value in its list; give 'hits:'", r->from);
    *size = e->size;
    *unholy = om_wm_army_chaos_or_undead(army->id);
    om_army_free(army);
    return st;
}

/* Convert one unit (`up` is its path, "a.unit" or "b.unit") under rule set
 * `rs`: the list's values if it has `from`, then every key given. */
static om_status conv_unit(const om_yaml_ctx *c, const om_wm_ruleset *rs, const char *up,
                           const raw_unit *r, om_wm_unit *u)
{
    const char *const given[] = { r->name, r->type, r->stands, r->attacks, r->hits, r->armour };
    const char *troop_names[OM_WM_TROOP_COUNT];
    unsigned v = 0, size = 0;
    bool unholy = false;
    om_status st;

    _Static_assert(sizeof given / sizeof given[0] ==
                       sizeof required_unit_keys / sizeof required_unit_keys[0],
                   "one raw field per required key");
    memset(u, 0, sizeof *u);
    if (r->from) {
        if ((st = conv_from(c, rs, up, r, u, &size, &unholy)))
            return st;
    } else {
        for (size_t i = 0; i < sizeof given / sizeof given[0]; i++)
            if (!given[i])
                return om_yaml_fail_at(c, OM_EPARSE, 0, up, required_unit_keys[i],
                                       "required key '%s' is missing (or name a unit of the "
                                       "army lists with 'from: army/unit')",
                                       required_unit_keys[i]);
    }

    if (r->name) {
        const size_t name_len = strlen(r->name);
        if (name_len == 0)
            return om_yaml_fail_at(c, OM_EINVAL, 0, up, "name", "must not be empty");
        if (name_len > NAME_MAX_LEN)
            return om_yaml_fail_at(c, OM_EINVAL, 0, up, "name",
                                   "is %zu bytes long; at most %zu are allowed", name_len,
                                   NAME_MAX_LEN);
        memcpy(u->name, r->name, name_len + 1);
    }
    if (r->type) {
        for (unsigned t = 0; t < OM_WM_TROOP_COUNT; t++)
            troop_names[t] = om_wm_troop_name((om_wm_troop)t);
        if ((st = conv_name(c, up, "type", "troop type", r->type, troop_names,
                            OM_WM_TROOP_COUNT, &v)))
            return st;
        u->troop = (om_wm_troop)v;
    }

    /* The unit at full strength: from a list, the list's unit size, so that
     * fewer stands are a unit that has lost some (which matters to a
     * warband's drive backs); a unit larger than the list's, or one written
     * out, is at full strength. */
    if ((st = om_yaml_conv_u8(c, up, "stands", r->stands, u->stands, &u->stands)) ||
        (st = om_yaml_conv_u8(c, up, "size", r->size,
                              r->from && size > u->stands ? size : u->stands, &u->size)) ||
        (st = om_yaml_conv_u8(c, up, "attacks", r->attacks, u->attacks, &u->attacks)) ||
        (st = om_yaml_conv_u8(c, up, "hits", r->hits, u->hits, &u->hits)) ||
        (r->armour && (st = conv_armour(c, up, "armour", r->armour, &u->armour))) ||
        (st = om_yaml_conv_u8(c, up, "shots", r->shots, u->shots, &u->shots)))
        return st;
    /* Range defaults to the common bow range, 30 cm (Shooting > Range), for a unit
     * that shoots and has none from its list; a unit that cannot shoot has
     * none. */
    if ((st = om_yaml_conv_u8(c, up, "range", r->range,
                              u->range_cm ? u->range_cm : u->shots > 0 ? OM_WM_DEFAULT_RANGE_CM : 0u,
                              &u->range_cm)) ||
        (st = om_yaml_conv_u8(c, up, "pace", r->pace, om_wm_troop_pace(u->troop),
                              &u->pace_cm)))
        return st;
    /* A list's points are for a unit of its size; a unit of another size at
     * full strength costs proportionally (rounded to the nearest point, halves
     * up). Stands already lost do not change what the unit is worth, which is
     * what victory points count. */
    if (r->from && size > 0 && u->size != size)
        u->points = (uint16_t)(((unsigned)u->points * u->size + size / 2) / size);
    if ((st = om_yaml_conv_int(c, up, "points", r->points, UINT16_MAX, u->points, &v)))
        return st;
    u->points = (uint16_t)v;
    if (!r->from || key_present(c, up, "rules")) {
        if ((st = conv_rules(c, rs, up, r, u)))
            return st;
    }
    /* The army it comes from, not a rule: rules: [] leaves it; an inline
     * unit says so itself. */
    if (r->chaos_or_undead)
        return om_yaml_conv_bool(c, up, "chaos_or_undead", r->chaos_or_undead,
                                 &u->chaos_or_undead);
    u->chaos_or_undead = unholy;
    return OM_OK;
}

/* The mount `id` (or "army/id" of the character's army) of the character's
 * army; error at side.mount. */
static om_status find_mount(const om_yaml_ctx *c, const char *side, const om_army *army,
                            const om_army_unit *ch, const char *ref, const om_army_unit **out)
{
    const size_t alen = strlen(army->id);
    const char *id = ref;
    const char *mounts[64];
    size_t n = 0;
    char known[OM_YAML_REASON_MAX / 2];

    if (strncmp(ref, army->id, alen) == 0 && ref[alen] == '/')
        id = ref + alen + 1;
    for (size_t i = 0; i < army->upgrades_count && n < sizeof mounts / sizeof mounts[0]; i++)
        if (army->upgrades[i].type == OM_ARMY_MOUNT)
            mounts[n++] = army->upgrades[i].id;
    *out = om_army_unit_find(army, id);
    if (!*out) {
        const char *best = om_suggest(id, mounts, n);
        om_yaml_join_names(known, sizeof known, mounts, n);
        if (best)
            return om_yaml_fail_at(c, OM_ENOTFOUND, 0, side, "mount",
                                   "unknown mount '%s' in %s/%s; did you mean '%s'?", ref,
                                   army->ruleset, army->id, best);
        return om_yaml_fail_at(c, OM_ENOTFOUND, 0, side, "mount",
                               "unknown mount '%s' in %s/%s; its mounts: %s", ref,
                               army->ruleset, army->id, n ? known : "none");
    }
    if ((*out)->type != OM_ARMY_MOUNT)
        return om_yaml_fail_at(c, OM_EINVAL, 0, side, "mount",
                               "'%s' is not a mount (it is %s %s)", ref,
                               (*out)->is_upgrade ? "an upgrade of type" : "a unit of type",
                               om_army_type_name((*out)->type));
    if (ch->upgrades_count > 0) {
        for (size_t i = 0; i < ch->upgrades_count; i++)
            if (strcmp(ch->upgrades[i], id) == 0)
                return OM_OK;
        om_yaml_join_names(known, sizeof known, (const char *const *)ch->upgrades,
                           ch->upgrades_count);
        return om_yaml_fail_at(c, OM_EINVAL, 0, side, "mount",
                               "%s/%s '%s' cannot ride '%s' (its list allows: %s)", army->id,
                               ch->id, ch->name, id, known);
    }
    return OM_OK;
}

/* Apply side.character (and side.mount) to the side: the engine joins their
 * Attacks bonus and rules to it (om_wm_side_join). */
static om_status conv_character(const om_yaml_ctx *c, const om_wm_ruleset *rs, const char *side,
                                const raw_side *r, om_wm_side *s)
{
    om_army *army = NULL;
    const om_army_unit *ch = NULL, *mount = NULL;
    om_status st;

    if (!r->character) {
        if (r->mount)
            return om_yaml_fail_at(c, OM_EPARSE, 0, side, "mount",
                                   "a mount needs a rider: add 'character: army/unit'");
        return OM_OK;
    }
    if ((st = om_army_find(rs->name, r->character, &army, &ch)))
        return om_yaml_fail_at(c, st, 0, side, "character", "%s", om_error_message());
    if (!om_army_type_is_character(ch->type))
        st = om_yaml_fail_at(c, OM_EINVAL, 0, side, "character",
                             "'%s' is not a character but %s %s%s; character: takes a "
                             "general, hero or wizard", r->character,
                             ch->type == OM_ARMY_INFANTRY || ch->type == OM_ARMY_ARTILLERY
                                 ? "an"
                                 : "a",
                             om_army_type_name(ch->type),
                             (unsigned)ch->type < OM_WM_TROOP_COUNT ? " unit" : "");
    if (st == OM_OK && r->mount)
        st = find_mount(c, side, army, ch, r->mount, &mount);
    if (st == OM_OK && (st = om_wm_side_join(s, rs, ch->attacks, ch->rules, ch->rules_count)))
        st = om_yaml_fail_at(c, st, 0, side, "character", "%s", om_error_message());
    if (st == OM_OK && mount &&
        (st = om_wm_side_join(s, rs, mount->attacks, mount->rules, mount->rules_count)))
        st = om_yaml_fail_at(c, st, 0, side, "mount", "%s", om_error_message());
    om_army_free(army);
    return st;
}

/* Whether the army list of unit reference `ref` ("army/unit") has a chariot
 * unit; false if it cannot be read (the side's own conversion reported that). */
static bool army_has_chariots(const om_wm_ruleset *rs, const char *ref)
{
    om_army *army = NULL;
    const om_army_unit *e = NULL;
    bool found = false;
    if (om_army_find(rs->name, ref, &army, &e) != OM_OK)
        return false;
    for (size_t i = 0; i < army->units_count && !found; i++)
        found = army->units[i].type == OM_ARMY_CHARIOT;
    om_army_free(army);
    return found;
}

/* Caractacus (om_wm_side_caractacus): the enemy's army has Chariots if its
 * unit's list (from:) has any; an enemy written out inline is judged by its
 * unit alone. */
static om_status conv_caractacus(const om_yaml_ctx *c, const om_wm_ruleset *rs, const char *side,
                                 const raw_side *r, const raw_side *foe, om_wm_side *s,
                                 const om_wm_side *enemy)
{
    bool on = false;
    om_status st = om_yaml_conv_bool(c, side, "caractacus", r->caractacus, &on);
    if (st != OM_OK || !on)
        return st;
    if (om_wm_side_caractacus(s, enemy, rs,
                              foe->unit.from && army_has_chariots(rs, foe->unit.from)))
        return om_yaml_fail_at(c, OM_EINVAL, 0, side, "caractacus", "%s", om_error_message());
    return OM_OK;
}

/* What a side key needs beyond its type (om_wm_key_rule), at side.key. */
static om_status check_key_rule(const om_yaml_ctx *c, const char *side, const om_wm_side_key *k,
                                const char *text, const om_wm_side *s)
{
    switch (k->rule) {
    case OM_WM_KEY_ANY: return OM_OK;
    case OM_WM_KEY_WAR_WAGON:
        if (!s->unit.traits.war_wagon)
            return om_yaml_fail_at(c, OM_EINVAL, 0, side, k->name,
                                   "only a War Wagon (rule war-wagon) has a %s", k->name);
        return OM_OK;
    case OM_WM_KEY_MODELLED_ITEM:
        /* Banner of Fortune's once-a-game re-roll is a player's decision, which
         * the engine does not make (docs/rules-coverage.md, "Warmaster: simplifications and what is not modelled"). */
        if (strcmp(text, "banner-of-fortune") == 0)
            return om_yaml_fail_at(c, OM_EUNSUPPORTED, 0, side, k->name,
                                   "banner-of-fortune is not modelled: when to use its "
                                   "once-a-game re-roll is the player's decision");
        return OM_OK;
    }
    return OM_OK;
}

/* Side key k at side.KEY from its text (NULL: its default). */
static om_status conv_side_key(const om_yaml_ctx *c, const char *side, const om_wm_side_key *k,
                               const char *text, om_wm_side *s)
{
    const unsigned fallback = om_wm_side_key_default(s, k);
    unsigned v = fallback;
    uint8_t u8 = 0;
    bool b = false;
    om_status st = OM_OK;
    if (text != NULL && (st = check_key_rule(c, side, k, text, s)) != OM_OK)
        return st;
    switch (k->type) {
    case OM_WM_KEY_BOOL:
        st = om_yaml_conv_bool(c, side, k->name, text, &b);
        v = text ? b : fallback;
        break;
    case OM_WM_KEY_COUNT:
        st = om_yaml_conv_u8(c, side, k->name, text, (uint8_t)fallback, &u8);
        v = u8;
        break;
    case OM_WM_KEY_NAME:
        if (text != NULL &&
            (st = conv_name(c, side, k->name, k->names->what, text,
                            k->names->names + k->names->first,
                            k->names->count - k->names->first, &v)) == OM_OK)
            v += k->names->first;
        break;
    }
    if (st == OM_OK)
        om_wm_side_key_set(s, k, v);
    return st;
}

/* Convert one side ("a" or "b"): its unit, its character, then every key of
 * the table in order. */
static om_status conv_side(const om_yaml_ctx *c, const om_wm_ruleset *rs, const char *side,
                           const raw_side *r, om_wm_side *s)
{
    char up[OM_YAML_PATH_MAX];
    om_status st;

    _Static_assert(sizeof raw_side_offset / sizeof raw_side_offset[0] == OM_WM_SIDE_KEY_COUNT,
                   "one raw string per side key");
    snprintf(up, sizeof up, "%s.unit", side);
    if ((st = conv_unit(c, rs, up, &r->unit, &s->unit)) ||
        (st = conv_character(c, rs, side, r, s)))
        return st;
    for (size_t i = 0; i < om_wm_side_key_count; i++) {
        const char *text = *(char *const *)((const char *)r + raw_side_offset[i]);
        if ((st = conv_side_key(c, side, &om_wm_side_keys[i], text, s)) != OM_OK)
            return st;
    }
    return OM_OK;
}

om_status om_wm_load_side(const om_yaml_ctx *c, const om_wm_ruleset *rs, const char *side,
                          const om_wm_raw_side *r, om_wm_side *s)
{
    return conv_side(c, rs, side, r, s);
}

om_status om_wm_load_name(const om_yaml_ctx *c, const char *prefix, const char *key,
                          const char *what, const char *s, const char *const *names, size_t n,
                          unsigned *out)
{
    return conv_name(c, prefix, key, what, s, names, n, out);
}

const cyaml_schema_field_t *const om_wm_load_side_fields = side_fields;
const char *const *const om_wm_load_int_keys = int_keys;
const char *const *const om_wm_load_bool_keys = bool_keys;

/* The top-level `options:` into *o, through the engine's registry. */
static om_status conv_options(const om_yaml_ctx *c, om_wm_options *o)
{
    const om_yaml_option_set set = {&om_wm_option_registry, o};
    return om_yaml_conv_options(c, "max_turns: 5", &set, 1);
}

/* Fill the engagement from the raw document, then run the engine's check. */
static om_status conv_engagement(const om_yaml_ctx *c, const raw_scenario *r,
                                 om_wm_engagement *e)
{
    om_wm_check_failure why;
    unsigned v = 0;
    om_status st;

    memset(e, 0, sizeof *e);
    e->rules = om_wm_ruleset_find(r->ruleset);
    if (!e->rules) {
        const char *names[OM_WM_RULES_COUNT];
        char known[OM_YAML_REASON_MAX / 2];
        const char *best;
        for (unsigned i = 0; i < OM_WM_RULES_COUNT; i++)
            names[i] = om_wm_ruleset_get((om_wm_ruleset_id)i)->name;
        om_yaml_join_names(known, sizeof known, names, OM_WM_RULES_COUNT);
        best = om_suggest(r->ruleset, names, OM_WM_RULES_COUNT);
        return om_yaml_fail_at(c, OM_ENOTFOUND, 0, NULL, "ruleset",
                               "unknown rule set '%s'; %s%s%sknown rule sets: %s", r->ruleset,
                               best ? "did you mean '" : "", best ? best : "",
                               best ? "'? " : "", known);
    }
    e->kind = OM_WM_KIND_COMBAT;
    if (r->kind) {
        /* The game's kinds, so that the message lists them all; the first
         * are the engine's, in its order. */
        if ((st = conv_name(c, NULL, "kind", "kind", r->kind, om_wm_game_kind_names,
                            OM_WM_GAME_KINDS, &v)))
            return st;
        if (v >= OM_WM_KIND_COUNT)
            return om_yaml_fail_at(c, OM_EUNSUPPORTED, 0, NULL, "kind",
                                   "a file of kind %s is read by the loader of whole turns "
                                   "(load it through the game interface)", r->kind);
        e->kind = (om_wm_kind)v;
    }
    if ((st = conv_options(c, &e->options)) ||
        (st = conv_side(c, e->rules, "a", &r->a, &e->side[OM_WM_SIDE_A])) ||
        (st = conv_side(c, e->rules, "b", &r->b, &e->side[OM_WM_SIDE_B])) ||
        (st = conv_caractacus(c, e->rules, "a", &r->a, &r->b, &e->side[OM_WM_SIDE_A],
                              &e->side[OM_WM_SIDE_B])) ||
        (st = conv_caractacus(c, e->rules, "b", &r->b, &r->a, &e->side[OM_WM_SIDE_B],
                              &e->side[OM_WM_SIDE_A])))
        return st;

    memset(&why, 0, sizeof why);
    if (om_wm_engagement_check(e, &why) != OM_OK)
        return om_yaml_fail_at(c, OM_EINVAL, 0, why.field, NULL, "%s",
                               why.reason[0] ? why.reason : "rejected by the rules check");
    return OM_OK;
}

/*
 * om_wm_scenario_load_text: see scenario.h. The text is copied (s->text), so the
 * caller keeps ownership of `text`. Thread-safe: all state is on the stack
 * (libcyaml's log context included) and errors go to the per-thread slot.
 * Errors: OM_EINVAL (NULL argument, impossible value), OM_EPARSE, OM_ENOTFOUND,
 * OM_EUNSUPPORTED, OM_ENOMEM, each with a "SOURCE:LINE: field 'PATH': REASON"
 * message.
 */
om_status om_wm_scenario_load_text(const char *source, const char *text, size_t len,
                                om_wm_scenario **out)
{
    raw_scenario *raw = NULL;
    om_wm_scenario *s = NULL;
    om_yaml_ctx c;
    om_status st;

    if (!out)
        return OM_ERROR(OM_EINVAL, "om_wm_scenario_load_text: out is NULL");
    *out = NULL;
    if (!source)
        source = SOURCE_UNNAMED;
    if (!text && len > 0)
        return OM_ERROR(OM_EINVAL, "%s: om_wm_scenario_load_text: text is NULL", source);
    if (!text)
        text = "";

    s = calloc(1, sizeof *s);
    if (!s)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", source);
    s->source = om_yaml_dup(source, strlen(source));
    s->text = om_yaml_dup(text, len);
    if (!s->source || !s->text) {
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", source);
        goto fail;
    }
    c = (om_yaml_ctx){ .source = source, .text = s->text, .len = len };

    if ((st = om_yaml_load(&c, &scenario_doc, (void **)&raw)))
        goto fail;
    if (raw->title && raw->title[0] == '\0') {
        st = om_yaml_fail_at(&c, OM_EINVAL, 0, NULL, "title",
                             "must not be empty (leave the key out for the default)");
        goto fail;
    }
    if ((st = conv_engagement(&c, raw, &s->engagement)))
        goto fail;
    if (raw->title) {
        s->title = om_yaml_dup(raw->title, strlen(raw->title));
    } else {
        size_t n = strlen(s->engagement.side[0].unit.name) +
                   strlen(s->engagement.side[1].unit.name) + sizeof " vs ";
        s->title = malloc(n);
        if (s->title)
            snprintf(s->title, n, "%s vs %s", s->engagement.side[0].unit.name,
                     s->engagement.side[1].unit.name);
    }
    if (!s->title) {
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", source);
        goto fail;
    }
    om_yaml_free(&scenario_doc, raw);
    *out = s;
    return OM_OK;

fail:
    om_yaml_free(&scenario_doc, raw);
    om_wm_scenario_free(s);
    return st;
}

/*
 * om_wm_scenario_load_file: see scenario.h. Reads the whole file, then loads it
 * as om_wm_scenario_load_text with `path` as the source name. Errors: OM_EIO
 * ("PATH: cannot read: strerror"), plus those of om_wm_scenario_load_text.
 */
om_status om_wm_scenario_load_file(const char *path, om_wm_scenario **out)
{
    char *buf = NULL;
    size_t len = 0;
    om_status st;

    if (!out)
        return OM_ERROR(OM_EINVAL, "om_wm_scenario_load_file: out is NULL");
    *out = NULL;
    if (!path)
        return OM_ERROR(OM_EINVAL, "om_wm_scenario_load_file: path is NULL");
    if ((st = om_yaml_read_file(path, &buf, &len)))
        return st;
    st = om_wm_scenario_load_text(path, buf, len, out);
    free(buf);
    return st;
}

/*
 * om_wm_scenario_free: free a scenario and the strings it owns. NULL is allowed.
 */
void om_wm_scenario_free(om_wm_scenario *s)
{
    if (!s)
        return;
    free(s->source);
    free(s->text);
    free(s->title);
    free(s->turn);
    om_wm_battle_scenario_free(s->battle);
    free(s);
}

/*
 * om_scenario_default_text: the embedded default scenario (default.yaml),
 * NUL-terminated, in static storage. Load it with
 * om_wm_scenario_load_text(OM_SCENARIO_DEFAULT_NAME, t, strlen(t), &s).
 */
const char *om_scenario_default_text(void)
{
    return om_scenario_default_yaml;
}
