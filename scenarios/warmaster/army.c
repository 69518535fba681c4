/*
 * army.c: the army lists as data (army.h): the embedded data files, their
 * strict parsers (army lists, the special-rule registry, the WHFB7 tables),
 * lookups by "army/unit" with suggestions, and the mapping of a list entry
 * onto the engine's om_wm_unit. The data format is documented in
 * scenarios/armies/README.md; YAML is read with the helpers of yaml_int.h
 * (libcyaml onto structs of strings, then strict conversion by hand).
 *
 * Armour. A save prints as "-" (none) or "N+"; a few entries print two
 * values. Empire Skirmishers "-/6+" and Wood Elf Wardancers "-/5+" take the
 * Armour of the unit they join (either value); the Kislev War Wagon prints
 * "-/4+" in the original list and "4+/-" in Revolution for one unit whose
 * wagon stand has 4+ and whose team stand has none. No position in the print
 * means "combat" in both lists, so the engine takes the better save, which is
 * the War Wagon's fighting value in both prints; the printed text stays in
 * om_army_unit.armour, and a scenario can override it with `armour:`.
 */
#include "army.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yaml_int.h"

/* Generated at build time from every file of scenarios/armies by
 * embed_text.py (scenarios/meson.build, tools/embed_text.py). */
extern const om_army_file om_army_embedded[];
extern const size_t om_army_embedded_count;

/* Names of om_army_type values, as in the data. */
static const char *const type_names[OM_ARMY_TYPE_COUNT] = {
    "infantry", "cavalry", "chariot", "monster", "artillery", "machine",
    "general", "hero", "wizard", "mount", "special",
};
_Static_assert((int)OM_ARMY_INFANTRY == (int)OM_WM_INFANTRY &&
                   (int)OM_ARMY_CAVALRY == (int)OM_WM_CAVALRY &&
                   (int)OM_ARMY_CHARIOT == (int)OM_WM_CHARIOT &&
                   (int)OM_ARMY_MONSTER == (int)OM_WM_MONSTER &&
                   (int)OM_ARMY_ARTILLERY == (int)OM_WM_ARTILLERY &&
                   (int)OM_ARMY_MACHINE == (int)OM_WM_MACHINE &&
                   (int)OM_ARMY_GENERAL == (int)OM_WM_TROOP_COUNT,
               "the troop types come first, in the engine's order");

/* The rule sets with army lists, chronological (docs/manual.md, "Army data"). */
static const om_army_ruleset rulesets[] = {
    { "warmaster-1.1", "warmaster" },
    { "warmaster-revolution", "warmaster-revolution" },
    { "warmaster-ancients", "warmaster-ancients" },
};

/* Largest value of a stat-line field (stored in uint8_t by the engine), of a
 * points value (the dearest unit is 300; upgrades cost down to -20), and
 * longest army or unit id accepted in a reference. */
#define STAT_MAX 255u
#define POINTS_MAX 10000
#define REF_ID_MAX 96

const char *om_army_type_name(om_army_type type)
{
    return (unsigned)type < OM_ARMY_TYPE_COUNT ? type_names[type] : "unknown";
}

bool om_army_type_is_character(om_army_type type)
{
    return type == OM_ARMY_GENERAL || type == OM_ARMY_HERO || type == OM_ARMY_WIZARD;
}

om_wm_character_kind om_army_character_kind(om_army_type type, const char *source_type)
{
    if (type == OM_ARMY_GENERAL)
        return OM_WM_GENERAL;
    if (type == OM_ARMY_WIZARD || (source_type != NULL && strcmp(source_type, "Subordinate") == 0))
        return OM_WM_WIZARD;
    return OM_WM_HERO;
}

size_t om_army_ruleset_count(void) { return sizeof rulesets / sizeof rulesets[0]; }

const om_army_ruleset *om_army_ruleset_at(size_t i)
{
    return i < om_army_ruleset_count() ? &rulesets[i] : NULL;
}

const om_army_ruleset *om_army_ruleset_find(const char *id)
{
    for (size_t i = 0; id && i < om_army_ruleset_count(); i++)
        if (strcmp(rulesets[i].id, id) == 0)
            return &rulesets[i];
    return NULL;
}

size_t om_army_file_count(void) { return om_army_embedded_count; }

const om_army_file *om_army_file_at(size_t i)
{
    return i < om_army_embedded_count ? &om_army_embedded[i] : NULL;
}

const om_army_file *om_army_file_find(const char *path)
{
    for (size_t i = 0; path && i < om_army_embedded_count; i++)
        if (strcmp(om_army_embedded[i].path, path) == 0)
            return &om_army_embedded[i];
    return NULL;
}

size_t om_army_count(const om_army_ruleset *rs)
{
    size_t n = 0;
    for (size_t i = 0; rs && i < om_army_embedded_count; i++)
        n += strcmp(om_army_embedded[i].dir, rs->dir) == 0;
    return n;
}

const om_army_file *om_army_file_of(const om_army_ruleset *rs, size_t i)
{
    /* The table is sorted by path, so an army's index is its rank in id order. */
    for (size_t k = 0; rs && k < om_army_embedded_count; k++)
        if (strcmp(om_army_embedded[k].dir, rs->dir) == 0 && i-- == 0)
            return &om_army_embedded[k];
    return NULL;
}

/* ---------------------------------------------------------------------------
 * Raw documents: every scalar a string, converted below.
 */

typedef struct raw_entry {
    char *id, *name, *type, *source_type;         /* source_type NULL if absent */
    char *attacks, *shots, *range_cm, *hits, *armour, *command, *size, *points, *min, *max;
    char *army_min, *army_max;       /* NULL if absent */
    char **upgrades;                 /* NULL if absent */
    unsigned upgrades_count;
    char **magic_item_upgrades;      /* NULL if absent */
    unsigned magic_item_upgrades_count;
    char **rules;                    /* rule ids (may be empty) */
    unsigned rules_count;
    char *notes;                     /* NULL if absent */
} raw_entry;

typedef struct raw_spell {
    char *id, *name, *roll, *range_cm, *range, *text;
} raw_spell;

typedef struct raw_army {
    char *schema, *ruleset, *army, *name, *source, *list_version, *source_label, *magic_items;
    char *notes, *army_rules;        /* NULL if absent */
    raw_entry *units;
    unsigned units_count;
    raw_entry *upgrades;             /* NULL if absent */
    unsigned upgrades_count;
    raw_spell *spells;               /* NULL if absent */
    unsigned spells_count;
} raw_army;

typedef struct raw_variant {
    char **sources;
    unsigned sources_count;
    char *text;
} raw_variant;

typedef struct raw_rule {
    char *id, *name, *summary, *engine, *affects_engagement_dice, *text;
    char **ruleset;
    unsigned ruleset_count;
    char **derived_from;             /* NULL if absent */
    unsigned derived_from_count;
    char **used_by;
    unsigned used_by_count;
    char **text_sources;
    unsigned text_sources_count;
    raw_variant *variants;           /* NULL if absent */
    unsigned variants_count;
} raw_rule;

typedef struct raw_rules {
    char *schema;
    raw_rule *rules;
    unsigned rules_count;
} raw_rules;

/* Most columns a WHFB7 table has (profiles: 14). */
#define TABLE_COLUMNS_MAX 14

typedef struct raw_row {
    char *cell[TABLE_COLUMNS_MAX];   /* in the order of the kind's columns */
} raw_row;

typedef struct raw_table {
    char *schema, *ruleset, *source, *list_version;
    raw_row *rows;
    unsigned rows_count;
} raw_table;

#define REQ CYAML_FLAG_POINTER
#define OPT (CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL)
#define STR(key, flags, type, member) \
    CYAML_FIELD_STRING_PTR(key, flags, type, member, 0, CYAML_UNLIMITED)
#define SEQ(key, flags, type, member, entry) \
    CYAML_FIELD_SEQUENCE(key, flags, type, member, entry, 0, CYAML_UNLIMITED)

static const cyaml_schema_value_t string_entry = {
    CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

static const cyaml_schema_field_t entry_fields[] = {
    STR("id", REQ, raw_entry, id),
    STR("name", REQ, raw_entry, name),
    STR("type", REQ, raw_entry, type),
    STR("source_type", OPT, raw_entry, source_type),
    STR("attacks", REQ, raw_entry, attacks),
    STR("shots", REQ, raw_entry, shots),
    STR("range_cm", REQ, raw_entry, range_cm),
    STR("hits", REQ, raw_entry, hits),
    STR("armour", REQ, raw_entry, armour),
    STR("command", REQ, raw_entry, command),
    STR("size", REQ, raw_entry, size),
    STR("points", REQ, raw_entry, points),
    STR("min", REQ, raw_entry, min),
    STR("max", REQ, raw_entry, max),
    STR("army_min", OPT, raw_entry, army_min),
    STR("army_max", OPT, raw_entry, army_max),
    SEQ("upgrades", OPT, raw_entry, upgrades, &string_entry),
    SEQ("magic_item_upgrades", OPT, raw_entry, magic_item_upgrades, &string_entry),
    SEQ("rules", REQ, raw_entry, rules, &string_entry),
    STR("notes", OPT, raw_entry, notes),
    CYAML_FIELD_END
};
static const cyaml_schema_value_t entry_value = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, raw_entry, entry_fields),
};

static const cyaml_schema_field_t spell_fields[] = {
    STR("id", REQ, raw_spell, id),
    STR("name", REQ, raw_spell, name),
    STR("roll", REQ, raw_spell, roll),
    STR("range_cm", REQ, raw_spell, range_cm),
    STR("range", REQ, raw_spell, range),
    STR("text", REQ, raw_spell, text),
    CYAML_FIELD_END
};
static const cyaml_schema_value_t spell_value = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, raw_spell, spell_fields),
};

static const cyaml_schema_field_t army_fields[] = {
    STR("schema", REQ, raw_army, schema),
    STR("ruleset", REQ, raw_army, ruleset),
    STR("army", REQ, raw_army, army),
    STR("name", REQ, raw_army, name),
    STR("source", REQ, raw_army, source),
    STR("list_version", REQ, raw_army, list_version),
    STR("source_label", REQ, raw_army, source_label),
    STR("magic_items", REQ, raw_army, magic_items),
    STR("notes", OPT, raw_army, notes),
    STR("army_rules", OPT, raw_army, army_rules),
    SEQ("units", REQ, raw_army, units, &entry_value),
    SEQ("upgrades", OPT, raw_army, upgrades, &entry_value),
    SEQ("spells", OPT, raw_army, spells, &spell_value),
    CYAML_FIELD_END
};
static const cyaml_schema_value_t army_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, raw_army, army_fields),
};

static const cyaml_schema_field_t variant_fields[] = {
    SEQ("sources", REQ, raw_variant, sources, &string_entry),
    STR("text", REQ, raw_variant, text),
    CYAML_FIELD_END
};
static const cyaml_schema_value_t variant_value = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, raw_variant, variant_fields),
};

static const cyaml_schema_field_t rule_fields[] = {
    STR("id", REQ, raw_rule, id),
    STR("name", REQ, raw_rule, name),
    SEQ("ruleset", REQ, raw_rule, ruleset, &string_entry),
    STR("summary", REQ, raw_rule, summary),
    STR("engine", REQ, raw_rule, engine),
    STR("affects_engagement_dice", REQ, raw_rule, affects_engagement_dice),
    SEQ("derived_from", OPT, raw_rule, derived_from, &string_entry),
    SEQ("used_by", REQ, raw_rule, used_by, &string_entry),
    STR("text", REQ, raw_rule, text),
    SEQ("text_sources", REQ, raw_rule, text_sources, &string_entry),
    SEQ("variants", OPT, raw_rule, variants, &variant_value),
    CYAML_FIELD_END
};
static const cyaml_schema_value_t rule_value = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, raw_rule, rule_fields),
};

static const cyaml_schema_field_t rules_fields[] = {
    STR("schema", REQ, raw_rules, schema),
    SEQ("rules", REQ, raw_rules, rules, &rule_value),
    CYAML_FIELD_END
};
static const cyaml_schema_value_t rules_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, raw_rules, rules_fields),
};

/* The WHFB7 columns, in TSV order after id (the TSV has no id column). */
static const char *const profile_columns[] = {
    "id", "name", "army_or_section", "M", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "save",
    "notes",
};
static const char *const weapon_columns[] = {
    "id", "name", "category", "range", "strength", "special_rules", "source", "notes",
};
_Static_assert(sizeof profile_columns / sizeof profile_columns[0] <= TABLE_COLUMNS_MAX &&
                   sizeof weapon_columns / sizeof weapon_columns[0] <= TABLE_COLUMNS_MAX,
               "raw_row holds every column");

#define CELL(key, i) STR(key, REQ, raw_row, cell[i])

static const cyaml_schema_field_t profile_fields[] = {
    CELL("id", 0), CELL("name", 1), CELL("army_or_section", 2), CELL("M", 3), CELL("WS", 4),
    CELL("BS", 5), CELL("S", 6), CELL("T", 7), CELL("W", 8), CELL("I", 9), CELL("A", 10),
    CELL("Ld", 11), CELL("save", 12), CELL("notes", 13), CYAML_FIELD_END
};
static const cyaml_schema_field_t weapon_fields[] = {
    CELL("id", 0), CELL("name", 1), CELL("category", 2), CELL("range", 3), CELL("strength", 4),
    CELL("special_rules", 5), CELL("source", 6), CELL("notes", 7), CYAML_FIELD_END
};
static const cyaml_schema_value_t profile_value = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, raw_row, profile_fields),
};
static const cyaml_schema_value_t weapon_value = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, raw_row, weapon_fields),
};

#define TABLE_TOP(rows_key, entry)                                                  \
    {                                                                               \
        STR("schema", REQ, raw_table, schema), STR("ruleset", REQ, raw_table, ruleset), \
        STR("source", REQ, raw_table, source),                                      \
        STR("list_version", REQ, raw_table, list_version),                         \
        SEQ(rows_key, REQ, raw_table, rows, entry), CYAML_FIELD_END                 \
    }
static const cyaml_schema_field_t profiles_top[] = TABLE_TOP("profiles", &profile_value);
static const cyaml_schema_field_t weapons_top[] = TABLE_TOP("weapons", &weapon_value);
static const cyaml_schema_value_t table_schemas[OM_ARMY_TABLE_COUNT] = {
    { CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, raw_table, profiles_top) },
    { CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, raw_table, weapons_top) },
};

#undef CELL
#undef TABLE_TOP
#undef STR
#undef SEQ
#undef REQ
#undef OPT

/* Keys holding integers, for "expected an integer" messages. */
static const char *const int_keys[] = {
    "attacks", "shots", "range_cm", "hits", "command", "size", "points", "min", "max", "army_min",
    "army_max", "roll",
    NULL
};

static const om_yaml_doc army_doc = {
    .schema = OM_ARMY_SCHEMA,
    .what = "an army file",
    .keys = "schema, ruleset, army, name, units",
    .top = &army_schema,
    .int_keys = int_keys,
    .list_expects = "a list of ids, e.g. [terror]",
    .entry_expects = "an id",
};

static const om_yaml_doc rules_doc = {
    .schema = OM_ARMY_RULES_SCHEMA,
    .what = "the special-rule registry",
    .keys = "schema, rules",
    .top = &rules_schema,
    .list_expects = "a list of names",
    .entry_expects = "a name",
};

static const om_yaml_doc table_docs[OM_ARMY_TABLE_COUNT] = {
    { .schema = OM_ARMY_PROFILES_SCHEMA, .what = "a WHFB7 profile table",
      .keys = "schema, ruleset, source, list_version, profiles", .top = &table_schemas[0],
      .list_expects = "a list of rows", .entry_expects = "a row" },
    { .schema = OM_ARMY_WEAPONS_SCHEMA, .what = "a WHFB7 weapon table",
      .keys = "schema, ruleset, source, list_version, weapons", .top = &table_schemas[1],
      .list_expects = "a list of rows", .entry_expects = "a row" },
};

static const struct table_kind {
    const char *path;            /* below OM_ARMY_DATA_DIR */
    const char *rows_key;        /* key of the row list */
    const char *const *columns;  /* column names */
    size_t ncolumns;
} table_kinds[OM_ARMY_TABLE_COUNT] = {
    { "whfb7/profiles.yaml", "profiles", profile_columns,
      sizeof profile_columns / sizeof profile_columns[0] },
    { "whfb7/weapons.yaml", "weapons", weapon_columns,
      sizeof weapon_columns / sizeof weapon_columns[0] },
};

/* ---------------------------------------------------------------------------
 * Conversion helpers.
 */

/* A copy of s, or NULL for NULL; *oom is set if a copy failed. */
static char *dup_opt(const char *s, bool *oom)
{
    char *d;
    if (!s)
        return NULL;
    d = om_yaml_dup(s, strlen(s));
    if (!d)
        *oom = true;
    return d;
}

/* Copies of n strings (an array of n pointers, NULL when n is 0). */
static char **dup_list(char *const *src, size_t n, bool *oom)
{
    char **d;
    if (n == 0)
        return NULL;
    d = calloc(n, sizeof *d);
    if (!d) {
        *oom = true;
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        d[i] = dup_opt(src[i], oom);
    return d;
}

static void free_list(char **list, size_t n)
{
    for (size_t i = 0; list && i < n; i++)
        free(list[i]);
    free(list);
}

/*
 * Parse a printed save: "-" is none (0), "N+" with N 3..6 is N, and "X/Y" is
 * the better of the two (see the file comment). Returns 0 and *save, -1 if
 * the text is not a save, -2 if a value is out of 3+..6+.
 */
static int parse_save(const char *s, uint8_t *save)
{
    const char *slash = strchr(s, '/');
    if (slash) {
        char first[8];
        uint8_t a = 0, b = 0;
        size_t n = (size_t)(slash - s);
        int ra, rb;
        if (n == 0 || n >= sizeof first || strchr(slash + 1, '/'))
            return -1;
        memcpy(first, s, n);
        first[n] = '\0';
        if ((ra = parse_save(first, &a)) || (rb = parse_save(slash + 1, &b)))
            return ra ? ra : rb;
        *save = a == 0 ? b : b == 0 ? a : (a < b ? a : b);
        return 0;
    }
    if (strcmp(s, "-") == 0) {
        *save = 0;
        return 0;
    }
    if (strlen(s) != 2 || s[1] != '+' || s[0] < '0' || s[0] > '9')
        return -1;
    if (s[0] < '3' || s[0] > '6')
        return -2;
    *save = (uint8_t)(s[0] - '0');
    return 0;
}

/* Convert a points value: a signed integer of at most POINTS_MAX. */
static om_status conv_points(const om_yaml_ctx *c, const char *prefix, const char *s, int *out)
{
    long long v = 0;
    const int rc = om_yaml_parse_integer(s, &v);
    if (rc == -1)
        return om_yaml_fail_at(c, OM_EPARSE, 0, prefix, "points",
                               "expected an integer, got '%s'", s);
    if (rc == -2 || v > POINTS_MAX || v < -POINTS_MAX)
        return om_yaml_fail_at(c, OM_EINVAL, 0, prefix, "points",
                               "%s is out of range (-%d..%d)", s, POINTS_MAX, POINTS_MAX);
    *out = (int)v;
    return OM_OK;
}

/* Convert one entry of `section` ("units" or "upgrades") at index i. */
static om_status conv_entry(const om_yaml_ctx *c, const char *section, size_t i,
                            const raw_entry *r, om_army_unit *u)
{
    char prefix[OM_YAML_PATH_MAX], known[OM_YAML_REASON_MAX / 2];
    bool oom = false;
    unsigned t;
    om_status st;
    int sv;

    snprintf(prefix, sizeof prefix, "%s[%zu]", section, i);
    u->is_upgrade = strcmp(section, "upgrades") == 0;
    if (r->id[0] == '\0' || r->name[0] == '\0')
        return om_yaml_fail_at(c, OM_EINVAL, 0, prefix, r->id[0] ? "name" : "id",
                               "must not be empty");
    for (t = 0; t < OM_ARMY_TYPE_COUNT; t++)
        if (strcmp(r->type, type_names[t]) == 0)
            break;
    if (t == OM_ARMY_TYPE_COUNT) {
        om_yaml_join_names(known, sizeof known, type_names, OM_ARMY_TYPE_COUNT);
        return om_yaml_fail_at(c, OM_EPARSE, 0, prefix, "type",
                               "unknown type '%s'; expected one of: %s", r->type, known);
    }
    u->type = (om_army_type)t;
    if ((st = om_yaml_conv_int(c, prefix, "attacks", r->attacks, STAT_MAX, 0, &u->attacks)) ||
        (st = om_yaml_conv_int(c, prefix, "shots", r->shots, STAT_MAX, 0, &u->shots)) ||
        (st = om_yaml_conv_int(c, prefix, "range_cm", r->range_cm, STAT_MAX, 0, &u->range_cm)) ||
        (st = om_yaml_conv_int(c, prefix, "hits", r->hits, STAT_MAX, 0, &u->hits)) ||
        (st = om_yaml_conv_int(c, prefix, "command", r->command, STAT_MAX, 0, &u->command)) ||
        (st = om_yaml_conv_int(c, prefix, "size", r->size, STAT_MAX, 0, &u->size)) ||
        (st = conv_points(c, prefix, r->points, &u->points)) ||
        (st = om_yaml_conv_int(c, prefix, "min", r->min, STAT_MAX, 0, &u->min)) ||
        (st = om_yaml_conv_int(c, prefix, "max", r->max, STAT_MAX, 0, &u->max)) ||
        (st = om_yaml_conv_int(c, prefix, "army_min", r->army_min, STAT_MAX, 0, &u->army_min)) ||
        (st = om_yaml_conv_int(c, prefix, "army_max", r->army_max, STAT_MAX, 0, &u->army_max)))
        return st;
    if ((sv = parse_save(r->armour, &u->save)) != 0)
        return om_yaml_fail_at(c, sv == -1 ? OM_EPARSE : OM_EINVAL, 0, prefix, "armour",
                               sv == -1 ? "expected a save such as \"4+\", \"-\" or \"-/6+\", "
                                          "got '%s'"
                                        : "save '%s' is out of range (3+ to 6+)",
                               r->armour);
    u->id = dup_opt(r->id, &oom);
    u->name = dup_opt(r->name, &oom);
    u->source_type = dup_opt(r->source_type, &oom);
    u->armour = dup_opt(r->armour, &oom);
    u->notes = dup_opt(r->notes, &oom);
    u->upgrades = dup_list(r->upgrades, r->upgrades_count, &oom);
    u->upgrades_count = u->upgrades ? r->upgrades_count : 0;
    u->magic_item_upgrades = dup_list(r->magic_item_upgrades, r->magic_item_upgrades_count, &oom);
    u->magic_item_upgrades_count = u->magic_item_upgrades ? r->magic_item_upgrades_count : 0;
    u->rules = dup_list(r->rules, r->rules_count, &oom);
    u->rules_count = u->rules ? r->rules_count : 0;
    if (oom)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", c->source);
    return OM_OK;
}

static void free_entries(om_army_unit *u, size_t n)
{
    for (size_t i = 0; u && i < n; i++) {
        free(u[i].id);
        free(u[i].name);
        free(u[i].source_type);
        free(u[i].armour);
        free(u[i].notes);
        free_list(u[i].upgrades, u[i].upgrades_count);
        free_list(u[i].magic_item_upgrades, u[i].magic_item_upgrades_count);
        free_list(u[i].rules, u[i].rules_count);
    }
    free(u);
}

/* Convert a section's entries into a new array (*out, *count). Ids must be
 * unique within the section, as lookups rely on it. */
static om_status conv_section(const om_yaml_ctx *c, const char *section, const raw_entry *r,
                              size_t n, om_army_unit **out, size_t *count)
{
    om_status st;
    *out = NULL;
    *count = 0;
    if (n == 0)
        return OM_OK;
    *out = calloc(n, sizeof **out);
    if (!*out)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", c->source);
    for (size_t i = 0; i < n; i++) {
        *count = i + 1;
        if ((st = conv_entry(c, section, i, &r[i], &(*out)[i])))
            return st;
        for (size_t k = 0; k < i; k++) {
            if (strcmp(r[k].id, r[i].id) == 0) {
                char prefix[OM_YAML_PATH_MAX];
                snprintf(prefix, sizeof prefix, "%s[%zu]", section, i);
                return om_yaml_fail_at(c, OM_EINVAL, 0, prefix, "id",
                                       "duplicate id '%s' (also %s[%zu])", r[i].id, section, k);
            }
        }
    }
    return OM_OK;
}

/* Convert the spells. */
static om_status conv_spells(const om_yaml_ctx *c, const raw_army *r, om_army *a)
{
    bool oom = false;
    om_status st;
    if (r->spells_count == 0)
        return OM_OK;
    a->spells = calloc(r->spells_count, sizeof *a->spells);
    if (!a->spells)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", c->source);
    for (size_t i = 0; i < r->spells_count; i++) {
        const raw_spell *s = &r->spells[i];
        om_army_spell *d = &a->spells[i];
        char prefix[OM_YAML_PATH_MAX];
        a->spells_count = i + 1;
        snprintf(prefix, sizeof prefix, "spells[%zu]", i);
        if ((st = om_yaml_conv_int(c, prefix, "roll", s->roll, STAT_MAX, 0, &d->roll)) ||
            (st = om_yaml_conv_int(c, prefix, "range_cm", s->range_cm, STAT_MAX, 0,
                                   &d->range_cm)))
            return st;
        d->id = dup_opt(s->id, &oom);
        d->name = dup_opt(s->name, &oom);
        d->text = dup_opt(s->text, &oom);
        if (oom)
            return OM_ERROR(OM_ENOMEM, "%s: out of memory", c->source);
    }
    return OM_OK;
}

/* Convert a whole raw army. */
static om_status conv_army(const om_yaml_ctx *c, const raw_army *r, om_army *a)
{
    bool oom = false;
    om_status st;

    if (!om_army_ruleset_find(r->ruleset)) {
        const char *names[sizeof rulesets / sizeof rulesets[0]];
        char known[OM_YAML_REASON_MAX / 2];
        for (size_t i = 0; i < om_army_ruleset_count(); i++)
            names[i] = rulesets[i].id;
        om_yaml_join_names(known, sizeof known, names, om_army_ruleset_count());
        return om_yaml_fail_at(c, OM_EPARSE, 0, NULL, "ruleset",
                               "unknown rule set '%s'; army lists exist for: %s", r->ruleset,
                               known);
    }
    if (r->army[0] == '\0' || r->name[0] == '\0')
        return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, r->army[0] ? "name" : "army",
                               "must not be empty");
    a->ruleset = dup_opt(r->ruleset, &oom);
    a->id = dup_opt(r->army, &oom);
    a->name = dup_opt(r->name, &oom);
    a->origin = dup_opt(r->source, &oom);
    a->list_version = dup_opt(r->list_version, &oom);
    a->source_label = dup_opt(r->source_label, &oom);
    a->magic_items = dup_opt(r->magic_items, &oom);
    a->notes = dup_opt(r->notes, &oom);
    a->army_rules = dup_opt(r->army_rules, &oom);
    if (oom)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", c->source);
    if ((st = conv_section(c, "units", r->units, r->units_count, &a->units, &a->units_count)) ||
        (st = conv_section(c, "upgrades", r->upgrades, r->upgrades_count, &a->upgrades,
                           &a->upgrades_count)) ||
        (st = conv_spells(c, r, a)))
        return st;
    return OM_OK;
}

/*
 * om_army_parse: see army.h. Thread-safe.
 */
om_status om_army_parse(const char *source, const char *text, size_t len, om_army **out)
{
    om_yaml_ctx c = { .source = source ? source : "<army>", .text = text, .len = len };
    raw_army *raw = NULL;
    om_army *a;
    om_status st;

    if (!out || (!text && len > 0))
        return OM_ERROR(OM_EINVAL, "om_army_parse: NULL argument");
    *out = NULL;
    if (!text)
        c.text = "";
    a = calloc(1, sizeof *a);
    if (!a || !(a->source = om_yaml_dup(c.source, strlen(c.source)))) {
        free(a);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", c.source);
    }
    st = om_yaml_load(&c, &army_doc, (void **)&raw);
    if (st == OM_OK)
        st = conv_army(&c, raw, a);
    om_yaml_free(&army_doc, raw);
    if (st != OM_OK) {
        om_army_free(a);
        return st;
    }
    *out = a;
    return OM_OK;
}

void om_army_free(om_army *a)
{
    if (!a)
        return;
    free(a->source);
    free(a->ruleset);
    free(a->id);
    free(a->name);
    free(a->origin);
    free(a->list_version);
    free(a->source_label);
    free(a->magic_items);
    free(a->notes);
    free(a->army_rules);
    free_entries(a->units, a->units_count);
    free_entries(a->upgrades, a->upgrades_count);
    for (size_t i = 0; a->spells && i < a->spells_count; i++) {
        free(a->spells[i].id);
        free(a->spells[i].name);
        free(a->spells[i].text);
    }
    free(a->spells);
    free(a);
}

/* The name used for an embedded file in messages: its repository path. */
static void embedded_source(const om_army_file *f, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/%s", OM_ARMY_DATA_DIR, f->path);
}

/* Known rule-set names joined, for messages. */
static void ruleset_names(char *buf, size_t cap)
{
    const char *names[sizeof rulesets / sizeof rulesets[0]];
    for (size_t i = 0; i < om_army_ruleset_count(); i++)
        names[i] = rulesets[i].id;
    om_yaml_join_names(buf, cap, names, om_army_ruleset_count());
}

/* Raise "unknown RULESET army 'X'" with the best hint: a near id in this
 * rule set, else the list of its armies; and the rule sets where X exists. */
static om_status fail_unknown_army(const om_army_ruleset *rs, const char *army)
{
    const size_t n = om_army_count(rs);
    const char **ids = calloc(n ? n : 1, sizeof *ids);
    char known[OM_YAML_REASON_MAX / 2], also[OM_YAML_REASON_MAX / 4] = "";
    const char *best;
    om_status st;

    if (!ids)
        return OM_ERROR(OM_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        ids[i] = om_army_file_of(rs, i)->stem;
    for (size_t k = 0; k < om_army_ruleset_count(); k++) {
        char path[REF_ID_MAX + 64];
        size_t used = strlen(also);
        snprintf(path, sizeof path, "%s/%s.yaml", rulesets[k].dir, army);
        if (&rulesets[k] != rs && om_army_file_find(path))
            snprintf(also + used, sizeof also - used, "%s%s",
                     used ? ", " : " (an army of ", rulesets[k].id);
    }
    if (also[0])
        strncat(also, ")", sizeof also - strlen(also) - 1);
    best = om_suggest(army, ids, n);
    if (best) {
        st = OM_ERROR(OM_ENOTFOUND, "unknown %s army '%s'%s; did you mean '%s'?", rs->id, army,
                      also, best);
    } else {
        om_yaml_join_names(known, sizeof known, ids, n);
        st = OM_ERROR(OM_ENOTFOUND, "unknown %s army '%s'%s; its armies: %s", rs->id, army,
                      also, known);
    }
    free(ids);
    return st;
}

om_status om_army_load(const char *ruleset, const char *army, om_army **out)
{
    const om_army_ruleset *rs;
    const om_army_file *f;
    char path[REF_ID_MAX + 64], source[REF_ID_MAX + 96];
    om_status st;

    if (!out)
        return OM_ERROR(OM_EINVAL, "om_army_load: out is NULL");
    *out = NULL;
    if (!ruleset || !army)
        return OM_ERROR(OM_EINVAL, "om_army_load: NULL name");
    rs = om_army_ruleset_find(ruleset);
    if (!rs) {
        char known[OM_YAML_REASON_MAX / 2];
        ruleset_names(known, sizeof known);
        return OM_ERROR(OM_ENOTFOUND, "no army lists for rule set '%s'; they exist for: %s",
                        ruleset, known);
    }
    if (strlen(army) > REF_ID_MAX || strchr(army, '/'))
        return fail_unknown_army(rs, army);
    snprintf(path, sizeof path, "%s/%s.yaml", rs->dir, army);
    f = om_army_file_find(path);
    if (!f)
        return fail_unknown_army(rs, army);
    embedded_source(f, source, sizeof source);
    if ((st = om_army_parse(source, f->text, f->len, out)))
        return st;
    /* The file name is the army's key: it must name the army it holds. */
    if (strcmp((*out)->ruleset, rs->id) != 0 || strcmp((*out)->id, army) != 0) {
        om_yaml_ctx c = { .source = source, .text = f->text, .len = f->len };
        st = om_yaml_fail_at(&c, OM_EINVAL, 0, NULL, "army",
                             "the file of %s army '%s' holds %s army '%s'", rs->id, army,
                             (*out)->ruleset, (*out)->id);
        om_army_free(*out);
        *out = NULL;
    }
    return st;
}

const om_army_unit *om_army_unit_find(const om_army *a, const char *id)
{
    for (size_t i = 0; a && id && i < a->units_count; i++)
        if (strcmp(a->units[i].id, id) == 0)
            return &a->units[i];
    for (size_t i = 0; a && id && i < a->upgrades_count; i++)
        if (strcmp(a->upgrades[i].id, id) == 0)
            return &a->upgrades[i];
    return NULL;
}

om_status om_army_unit_lookup(const om_army *a, const char *id, const om_army_unit **out)
{
    const size_t n = a->units_count + a->upgrades_count;
    const char **ids;
    const char *best;
    char known[OM_YAML_REASON_MAX / 2];
    om_status st;

    *out = om_army_unit_find(a, id);
    if (*out)
        return OM_OK;
    ids = calloc(n ? n : 1, sizeof *ids);
    if (!ids)
        return OM_ERROR(OM_ENOMEM, "out of memory");
    for (size_t i = 0; i < a->units_count; i++)
        ids[i] = a->units[i].id;
    for (size_t i = 0; i < a->upgrades_count; i++)
        ids[a->units_count + i] = a->upgrades[i].id;
    best = om_suggest(id, ids, n);
    if (best) {
        st = OM_ERROR(OM_ENOTFOUND, "unknown unit '%s' in %s/%s; did you mean '%s'?", id,
                      a->ruleset, a->id, best);
    } else {
        om_yaml_join_names(known, sizeof known, ids, a->units_count);
        st = OM_ERROR(OM_ENOTFOUND, "unknown unit '%s' in %s/%s; its units: %s", id,
                      a->ruleset, a->id, known);
    }
    free(ids);
    return st;
}

om_status om_army_find(const char *ruleset, const char *ref, om_army **army,
                       const om_army_unit **unit)
{
    char army_id[REF_ID_MAX + 1];
    const char *slash;
    size_t n;
    om_status st;

    *army = NULL;
    *unit = NULL;
    slash = ref ? strchr(ref, '/') : NULL;
    n = slash ? (size_t)(slash - ref) : 0;
    if (!slash || n == 0 || slash[1] == '\0' || strchr(slash + 1, '/') || n > REF_ID_MAX)
        return OM_ERROR(OM_EPARSE, "expected army/unit (e.g. empire/knights), got '%s'",
                        ref ? ref : "");
    memcpy(army_id, ref, n);
    army_id[n] = '\0';
    if ((st = om_army_load(ruleset, army_id, army)))
        return st;
    if ((st = om_army_unit_lookup(*army, slash + 1, unit))) {
        om_army_free(*army);
        *army = NULL;
    }
    return st;
}

/* ---------------------------------------------------------------------------
 * The engine's view of a unit.
 */

om_status om_army_rules_to_wm(char *const *ids, size_t n, const om_wm_ruleset *rs,
                              om_wm_unit *u)
{
    om_status st;
    for (size_t i = 0; i < n; i++) {
        const om_wm_special *sp = om_wm_special_find(ids[i]);
        if ((st = sp ? om_wm_unit_add_rule(u, rs, sp) : om_wm_unit_add_unmodelled(u, ids[i])))
            return st;
    }
    return OM_OK;
}

om_status om_army_unit_to_wm(const om_army_unit *u, const om_wm_ruleset *rs, om_wm_unit *out)
{
    const size_t name_len = strlen(u->name);
    memset(out, 0, sizeof *out);
    if ((unsigned)u->type >= OM_WM_TROOP_COUNT)
        return OM_ERROR(OM_EUNSUPPORTED, "'%s' is %s %s, not a unit the engine can fight with",
                        u->id, om_army_type_is_character(u->type) ? "a character," : "an entry of type",
                        om_army_type_name(u->type));
    if (name_len >= sizeof out->name)
        return OM_ERROR(OM_EINVAL, "the name of '%s' is %zu bytes long; the engine keeps %zu",
                        u->id, name_len, sizeof out->name - 1);
    memcpy(out->name, u->name, name_len + 1);
    out->troop = (om_wm_troop)u->type;
    /* Parsing capped every stat at STAT_MAX, which fits the engine's uint8_t;
     * the engine's own check rejects values beyond its rules. */
    out->stands = (uint8_t)u->size;
    out->attacks = (uint8_t)u->attacks;
    out->shots = (uint8_t)u->shots;
    out->range_cm = (uint8_t)u->range_cm;
    out->hits = (uint8_t)u->hits;
    out->armour = u->save;
    out->pace_cm = (uint8_t)om_wm_troop_pace(out->troop);
    out->points = (uint16_t)(u->points > 0 ? u->points : 0);
    return om_army_rules_to_wm(u->rules, u->rules_count, rs, out);
}

/* ---------------------------------------------------------------------------
 * The special-rule registry.
 */

/* qsort comparator of rules by id. */
static int rule_cmp(const void *a, const void *b)
{
    return strcmp(((const om_army_rule *)a)->id, ((const om_army_rule *)b)->id);
}

/* Convert rule i of the registry. */
static om_status conv_rule(const om_yaml_ctx *c, size_t i, const raw_rule *r, om_army_rule *d)
{
    char prefix[OM_YAML_PATH_MAX];
    bool oom = false;

    snprintf(prefix, sizeof prefix, "rules[%zu]", i);
    if (strcmp(r->engine, "implemented") != 0 && strcmp(r->engine, "not-implemented") != 0)
        return om_yaml_fail_at(c, OM_EPARSE, 0, prefix, "engine",
                               "expected implemented or not-implemented, got '%s'", r->engine);
    if (strcmp(r->affects_engagement_dice, "yes") != 0 &&
        strcmp(r->affects_engagement_dice, "no") != 0)
        return om_yaml_fail_at(c, OM_EPARSE, 0, prefix, "affects_engagement_dice",
                               "expected yes or no, got '%s'", r->affects_engagement_dice);
    if (r->id[0] == '\0')
        return om_yaml_fail_at(c, OM_EINVAL, 0, prefix, "id", "must not be empty");
    d->implemented = strcmp(r->engine, "implemented") == 0;
    d->affects_dice = strcmp(r->affects_engagement_dice, "yes") == 0;
    d->id = dup_opt(r->id, &oom);
    d->name = dup_opt(r->name, &oom);
    d->summary = dup_opt(r->summary, &oom);
    d->text = dup_opt(r->text, &oom);
    d->rulesets = dup_list(r->ruleset, r->ruleset_count, &oom);
    d->rulesets_count = d->rulesets ? r->ruleset_count : 0;
    d->used_by = dup_list(r->used_by, r->used_by_count, &oom);
    d->used_by_count = d->used_by ? r->used_by_count : 0;
    if (oom)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", c->source);
    return OM_OK;
}

om_status om_army_rules_parse(const char *source, const char *text, size_t len,
                              om_army_rules **out)
{
    om_yaml_ctx c = { .source = source ? source : "<rules>", .text = text ? text : "",
                      .len = len };
    raw_rules *raw = NULL;
    om_army_rules *r;
    om_status st;

    if (!out || (!text && len > 0))
        return OM_ERROR(OM_EINVAL, "om_army_rules_parse: NULL argument");
    *out = NULL;
    r = calloc(1, sizeof *r);
    if (!r || !(r->source = om_yaml_dup(c.source, strlen(c.source)))) {
        free(r);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", c.source);
    }
    st = om_yaml_load(&c, &rules_doc, (void **)&raw);
    if (st == OM_OK && raw->rules_count > 0 &&
        !(r->rules = calloc(raw->rules_count, sizeof *r->rules)))
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", c.source);
    for (size_t i = 0; st == OM_OK && i < raw->rules_count; i++) {
        r->count = i + 1;
        st = conv_rule(&c, i, &raw->rules[i], &r->rules[i]);
        for (size_t k = 0; st == OM_OK && k < i; k++)
            if (strcmp(raw->rules[k].id, raw->rules[i].id) == 0) {
                char prefix[OM_YAML_PATH_MAX];
                snprintf(prefix, sizeof prefix, "rules[%zu]", i);
                st = om_yaml_fail_at(&c, OM_EINVAL, 0, prefix, "id",
                                     "duplicate id '%s' (also rules[%zu])", raw->rules[i].id, k);
            }
    }
    om_yaml_free(&rules_doc, raw);
    if (st != OM_OK) {
        om_army_rules_free(r);
        return st;
    }
    if (r->count > 1)
        qsort(r->rules, r->count, sizeof r->rules[0], rule_cmp);
    *out = r;
    return OM_OK;
}

om_status om_army_rules_load(om_army_rules **out)
{
    const om_army_file *f = om_army_file_find(OM_ARMY_RULES_FILE);
    char source[256];
    if (!out)
        return OM_ERROR(OM_EINVAL, "om_army_rules_load: out is NULL");
    *out = NULL;
    if (NEVER(!f))
        return OM_ERROR(OM_ENOTFOUND, "the special-rule registry is not embedded");
    embedded_source(f, source, sizeof source);
    return om_army_rules_parse(source, f->text, f->len, out);
}

void om_army_rules_free(om_army_rules *r)
{
    if (!r)
        return;
    for (size_t i = 0; r->rules && i < r->count; i++) {
        om_army_rule *d = &r->rules[i];
        free(d->id);
        free(d->name);
        free(d->summary);
        free(d->text);
        free_list(d->rulesets, d->rulesets_count);
        free_list(d->used_by, d->used_by_count);
    }
    free(r->rules);
    free(r->source);
    free(r);
}

const om_army_rule *om_army_rules_find(const om_army_rules *r, const char *id)
{
    om_army_rule key = { .id = (char *)id };
    if (!r || !id || r->count == 0)
        return NULL;
    return bsearch(&key, r->rules, r->count, sizeof r->rules[0], rule_cmp);
}

/* ---------------------------------------------------------------------------
 * The WHFB7 tables.
 */

const char *om_army_table_path(om_army_table_kind kind)
{
    return (unsigned)kind < OM_ARMY_TABLE_COUNT ? table_kinds[kind].path : NULL;
}

om_status om_army_table_parse(om_army_table_kind kind, const char *source, const char *text,
                              size_t len, om_army_table **out)
{
    om_yaml_ctx c = { .source = source ? source : "<table>", .text = text ? text : "",
                      .len = len };
    raw_table *raw = NULL;
    om_army_table *t;
    bool oom = false;
    om_status st;

    if (!out || (!text && len > 0) || (unsigned)kind >= OM_ARMY_TABLE_COUNT)
        return OM_ERROR(OM_EINVAL, "om_army_table_parse: bad argument");
    *out = NULL;
    t = calloc(1, sizeof *t);
    if (!t || !(t->source = om_yaml_dup(c.source, strlen(c.source)))) {
        free(t);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", c.source);
    }
    t->columns = table_kinds[kind].columns;
    t->ncolumns = table_kinds[kind].ncolumns;
    st = om_yaml_load(&c, &table_docs[kind], (void **)&raw);
    if (st == OM_OK) {
        t->ruleset = dup_opt(raw->ruleset, &oom);
        t->origin = dup_opt(raw->source, &oom);
        t->list_version = dup_opt(raw->list_version, &oom);
        t->cells = calloc(raw->rows_count * t->ncolumns + 1, sizeof *t->cells);
        if (!t->cells)
            oom = true;
        for (size_t i = 0; !oom && i < raw->rows_count; i++) {
            t->nrows = i + 1;
            for (size_t k = 0; k < t->ncolumns; k++)
                t->cells[i * t->ncolumns + k] = dup_opt(raw->rows[i].cell[k], &oom);
        }
        if (oom)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", c.source);
    }
    om_yaml_free(&table_docs[kind], raw);
    if (st != OM_OK) {
        om_army_table_free(t);
        return st;
    }
    *out = t;
    return OM_OK;
}

om_status om_army_table_load(om_army_table_kind kind, om_army_table **out)
{
    const om_army_file *f = om_army_file_find(om_army_table_path(kind));
    char source[256];
    if (!out || (unsigned)kind >= OM_ARMY_TABLE_COUNT)
        return OM_ERROR(OM_EINVAL, "om_army_table_load: bad argument");
    *out = NULL;
    if (NEVER(!f))
        return OM_ERROR(OM_ENOTFOUND, "%s is not embedded", om_army_table_path(kind));
    embedded_source(f, source, sizeof source);
    return om_army_table_parse(kind, source, f->text, f->len, out);
}

void om_army_table_free(om_army_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; t->cells && i < t->nrows * t->ncolumns; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t->source);
    free(t->ruleset);
    free(t->origin);
    free(t->list_version);
    free(t);
}

const char *om_army_table_cell(const om_army_table *t, size_t row, const char *column)
{
    if (!t || row >= t->nrows || !column)
        return NULL;
    for (size_t k = 0; k < t->ncolumns; k++)
        if (strcmp(t->columns[k], column) == 0)
            return t->cells[row * t->ncolumns + k];
    return NULL;
}

/* ---------------------------------------------------------------------------
 * Any file.
 */

om_status om_army_file_check(const om_army_file *f)
{
    char source[256];
    om_status st;

    if (!f)
        return OM_ERROR(OM_EINVAL, "om_army_file_check: file is NULL");
    embedded_source(f, source, sizeof source);
    if (strcmp(f->path, OM_ARMY_RULES_FILE) == 0) {
        om_army_rules *r = NULL;
        st = om_army_rules_parse(source, f->text, f->len, &r);
        om_army_rules_free(r);
        return st;
    }
    for (unsigned k = 0; k < OM_ARMY_TABLE_COUNT; k++) {
        if (strcmp(f->path, table_kinds[k].path) == 0) {
            om_army_table *t = NULL;
            st = om_army_table_parse((om_army_table_kind)k, source, f->text, f->len, &t);
            om_army_table_free(t);
            return st;
        }
    }
    for (size_t k = 0; k < om_army_ruleset_count(); k++) {
        if (strcmp(f->dir, rulesets[k].dir) == 0) {
            om_army *a = NULL;
            st = om_army_load(rulesets[k].id, f->stem, &a);
            om_army_free(a);
            return st;
        }
    }
    return OM_ERROR(OM_EINVAL, "%s: not a known kind of data file", source);
}
