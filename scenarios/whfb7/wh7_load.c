/*
 * wh7_load.c: load and validate WHFB 7th edition scenario files
 * (wh7_scenario.h) into the engine's om_wh7_combat. With yaml_util.c,
 * load.c, army.c and wh7_list.c this is the only code that uses libcyaml
 * and libyaml (STYLE rule 14).
 *
 * Loading runs in the steps of load.c (the Warmaster loader): a libyaml walk
 * checks the syntax, the single document and its schema; libcyaml maps it
 * onto a raw struct of strings with a strict schema (`options:`, whose names
 * are the engine's registry, is read by a second walk); the strings are
 * converted by hand, profiles looked up in the rulebook's table
 * (scenarios/armies/whfb7/profiles.yaml) and units in the list file
 * (wh7_list.c) with "did you mean" for near misses; om_wh7_check then
 * validates the whole combat. Every error is one message "FILE:LINE: field
 * 'PATH': REASON".
 *
 * SCENARIO FILE FORMAT (schema "oddsmaster-scenario/1", rule set whfb7; see
 * scenarios/examples/whfb7-*.yaml): the top keys (schema, title, ruleset,
 * kind, challenge, options), sides `a` and `b` (a unit, by `from:` a list
 * unit or by `profile:`, with its equipment, rules, mount and characters,
 * then the side's keys and `mods`), and `magic` for kind magic. Keys are the
 * engine's field names (engine/whfb7/wh7.h says what each does), so its check
 * names them. Every key, with its level, bounds, words, default and meaning,
 * is a row of the table of keys (wh7_keys.c): `oddsmaster list --keys`
 * prints it, docs/scenario-format.md documents it (a test checks that both
 * agree with this loader), and the bounds of signed values are read from it
 * here.
 *
 * Integers are decimal, booleans true or false (also yes/no, on/off), saves
 * "5+", 5 or none. Errors: OM_EIO (unreadable file), OM_EPARSE (malformed
 * YAML, an unknown, missing or duplicate key, a wrong type, an unknown word,
 * rule, spell or option), OM_ENOTFOUND (an unknown profile or list unit),
 * OM_EINVAL (an impossible value, by the loader or the engine's check),
 * OM_EUNSUPPORTED (a spell under `spells` with no effect on a unit's dice),
 * OM_ENOMEM. LINE is that of the offending key; for a value the file does not
 * write (from a profile or a list unit), that of the `profile:` or `from:`
 * key it came from, or of the mapping holding it.
 */
#include "wh7_scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "wh7_load_int.h"

/* Name for text loaded without a source name. */
#define SOURCE_UNNAMED "<text>"

/* Longest profile name (om_wh7_profile.name, with the NUL) and display name. */
#define PROFILE_NAME_MAX (sizeof(((om_wh7_profile *)0)->name) - 1)
#define DISPLAY_NAME_MAX (sizeof(((om_wh7_side_info *)0)->name) - 1)

/* The front rank's width when the file does not say (Units > Ranks & Files:
 * five wide is the width that earns rank bonuses, Combat Result Bonuses >
 * Extra Rank). */
#define DEFAULT_FILES 5u

/* ---------------------------------------------------------------------------
 * The raw document.
 */

typedef struct raw_mods {
    char *to_hit, *to_wound, *armour, *attacks, *strength, *toughness, *ws, *reroll_ones,
        *leadership, *halve_flee, *mounts_idle, *missile_ward, *soaked;
} raw_mods;

typedef struct raw_side {
    wh7_raw_unit unit;
    char *charging, *arc, *contact, *high_ground, *moved, *defended_obstacle, *general_ld,
        *battle_standard_near, *pursue, *response, *gap_in, *flee_blocked_in, *friend_ld,
        *shooters, *on_hill, *long_range, *multiple_shots, *cover, *target_in, *machine,
        *guess_in, *template_models, *template_partial, *base_width_mm, *base_depth_mm;
    char **spells;
    unsigned spells_count;
    raw_mods *mods;
} raw_side;

/* The caster's profile keys. */
typedef struct raw_caster {
    wh7_raw_prof p;
} raw_caster;

typedef struct raw_magic {
    char *spell, *casting_value, *level, *dice, *power_stone, *cast_bonus, *dispel_dice,
        *dispel_bonus, *dispel_scroll, *in_feature, *caster_ward, *caster_contacts;
    raw_caster *caster;
} raw_magic;

typedef struct raw_scenario {
    char *schema, *title, *ruleset, *kind, *challenge;
    raw_side a, b;
    raw_magic *magic;
} raw_scenario;

#define OPT (CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL)
#define STR(key, type, member) CYAML_FIELD_STRING_PTR(key, OPT, type, member, 0, CYAML_UNLIMITED)

static const cyaml_schema_value_t name_entry = {
    CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

/* The profile keys of a struct whose wh7_raw_prof member is `p`. */
#define PROFILE_FIELDS(type)                                                                    \
    STR("profile", type, p.profile), STR("name", type, p.name), STR("m", type, p.m),            \
        STR("ws", type, p.ws), STR("bs", type, p.bs), STR("s", type, p.s), STR("t", type, p.t), \
        STR("w", type, p.w), STR("i", type, p.i), STR("a", type, p.a), STR("ld", type, p.ld)

static const cyaml_schema_field_t caster_fields[] = {
    PROFILE_FIELDS(raw_caster),
    CYAML_FIELD_END
};

static const cyaml_schema_field_t equip_fields[] = {
    STR("weapon", wh7_raw_equip, weapon),
    STR("missile", wh7_raw_equip, missile),
    STR("armour", wh7_raw_equip, armour),
    STR("shield", wh7_raw_equip, shield),
    STR("enchanted_shield", wh7_raw_equip, enchanted_shield),
    STR("barding", wh7_raw_equip, barding),
    STR("scaly_skin", wh7_raw_equip, scaly_skin),
    STR("ward", wh7_raw_equip, ward),
    STR("save_bonus", wh7_raw_equip, save_bonus),
    STR("magic_weapon", wh7_raw_equip, magic_weapon),
    CYAML_FIELD_END
};

#define RULE_FIELDS(type)                                                                      \
    CYAML_FIELD_SEQUENCE("rules", OPT, type, rules, &name_entry, 0, CYAML_UNLIMITED),          \
        STR("damage", type, damage), STR("magic_resistance", type, magic_resistance)

static const cyaml_schema_field_t mount_fields[] = {
    PROFILE_FIELDS(wh7_raw_mount),
    RULE_FIELDS(wh7_raw_mount),
    CYAML_FIELD_END
};

static const cyaml_schema_field_t character_fields[] = {
    PROFILE_FIELDS(wh7_raw_character),
    CYAML_FIELD_MAPPING_PTR("equipment", OPT, wh7_raw_character, equipment, equip_fields),
    RULE_FIELDS(wh7_raw_character),
    CYAML_FIELD_MAPPING_PTR("mount", OPT, wh7_raw_character, mount, mount_fields),
    STR("unit_strength", wh7_raw_character, unit_strength),
    STR("wounds_lost", wh7_raw_character, wounds_lost),
    STR("general", wh7_raw_character, general),
    STR("battle_standard", wh7_raw_character, battle_standard),
    STR("wizard_level", wh7_raw_character, wizard_level),
    STR("points", wh7_raw_character, points),
    CYAML_FIELD_END
};

static const cyaml_schema_value_t character_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, wh7_raw_character, character_fields),
};

/* The unit keys, in the order "known keys" lists them. */
#define UNIT_FIELDS                                                                             \
    PROFILE_FIELDS(wh7_raw_unit), STR("troop", wh7_raw_unit, troop),                           \
        STR("models", wh7_raw_unit, models), STR("files", wh7_raw_unit, files),                 \
        STR("wounds_lost", wh7_raw_unit, wounds_lost), STR("champion", wh7_raw_unit, champion), \
        STR("standard", wh7_raw_unit, standard), STR("musician", wh7_raw_unit, musician),       \
        STR("war_banner", wh7_raw_unit, war_banner),                                           \
        STR("unit_strength", wh7_raw_unit, unit_strength), STR("points", wh7_raw_unit, points), \
        CYAML_FIELD_MAPPING_PTR("equipment", OPT, wh7_raw_unit, equipment, equip_fields),      \
        RULE_FIELDS(wh7_raw_unit),                                                             \
        CYAML_FIELD_MAPPING_PTR("mount", OPT, wh7_raw_unit, mount, mount_fields),              \
        CYAML_FIELD_SEQUENCE("characters", OPT, wh7_raw_unit, characters, &character_entry, 0, \
                             CYAML_UNLIMITED)

const cyaml_schema_field_t om_wh7_unit_fields_scenario[] = {
    STR("from", wh7_raw_unit, from),
    UNIT_FIELDS,
    CYAML_FIELD_END
};

const cyaml_schema_field_t om_wh7_unit_fields_list[] = {
    CYAML_FIELD_STRING_PTR("id", CYAML_FLAG_POINTER, wh7_raw_unit, id, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("machine", OPT, wh7_raw_unit, machine, 0, CYAML_UNLIMITED),
    UNIT_FIELDS,
    CYAML_FIELD_END
};

static const cyaml_schema_field_t mods_fields[] = {
    STR("to_hit", raw_mods, to_hit),
    STR("to_wound", raw_mods, to_wound),
    STR("armour", raw_mods, armour),
    STR("attacks", raw_mods, attacks),
    STR("strength", raw_mods, strength),
    STR("toughness", raw_mods, toughness),
    STR("ws", raw_mods, ws),
    STR("reroll_ones", raw_mods, reroll_ones),
    STR("leadership", raw_mods, leadership),
    STR("halve_flee", raw_mods, halve_flee),
    STR("mounts_idle", raw_mods, mounts_idle),
    STR("missile_ward", raw_mods, missile_ward),
    STR("soaked", raw_mods, soaked),
    CYAML_FIELD_END
};

static const cyaml_schema_field_t side_fields[] = {
    CYAML_FIELD_MAPPING("unit", CYAML_FLAG_DEFAULT, raw_side, unit, om_wh7_unit_fields_scenario),
    STR("charging", raw_side, charging),
    STR("arc", raw_side, arc),
    STR("contact", raw_side, contact),
    STR("high_ground", raw_side, high_ground),
    STR("moved", raw_side, moved),
    STR("defended_obstacle", raw_side, defended_obstacle),
    STR("general_ld", raw_side, general_ld),
    STR("battle_standard_near", raw_side, battle_standard_near),
    STR("pursue", raw_side, pursue),
    STR("response", raw_side, response),
    STR("gap_in", raw_side, gap_in),
    STR("flee_blocked_in", raw_side, flee_blocked_in),
    STR("friend_ld", raw_side, friend_ld),
    STR("shooters", raw_side, shooters),
    STR("on_hill", raw_side, on_hill),
    STR("long_range", raw_side, long_range),
    STR("multiple_shots", raw_side, multiple_shots),
    STR("cover", raw_side, cover),
    STR("target_in", raw_side, target_in),
    STR("machine", raw_side, machine),
    STR("guess_in", raw_side, guess_in),
    STR("template_models", raw_side, template_models),
    STR("template_partial", raw_side, template_partial),
    STR("base_width_mm", raw_side, base_width_mm),
    STR("base_depth_mm", raw_side, base_depth_mm),
    CYAML_FIELD_SEQUENCE("spells", OPT, raw_side, spells, &name_entry, 0, CYAML_UNLIMITED),
    CYAML_FIELD_MAPPING_PTR("mods", OPT, raw_side, mods, mods_fields),
    CYAML_FIELD_END
};

static const cyaml_schema_field_t magic_fields[] = {
    STR("spell", raw_magic, spell),
    STR("casting_value", raw_magic, casting_value),
    STR("level", raw_magic, level),
    STR("dice", raw_magic, dice),
    STR("power_stone", raw_magic, power_stone),
    STR("cast_bonus", raw_magic, cast_bonus),
    STR("dispel_dice", raw_magic, dispel_dice),
    STR("dispel_bonus", raw_magic, dispel_bonus),
    STR("dispel_scroll", raw_magic, dispel_scroll),
    STR("in_feature", raw_magic, in_feature),
    STR("caster_ward", raw_magic, caster_ward),
    STR("caster_contacts", raw_magic, caster_contacts),
    CYAML_FIELD_MAPPING_PTR("caster", OPT, raw_magic, caster, caster_fields),
    CYAML_FIELD_END
};

static const cyaml_schema_field_t top_fields[] = {
    CYAML_FIELD_STRING_PTR("schema", CYAML_FLAG_POINTER, raw_scenario, schema, 0,
                           CYAML_UNLIMITED),
    STR("title", raw_scenario, title),
    CYAML_FIELD_STRING_PTR("ruleset", CYAML_FLAG_POINTER, raw_scenario, ruleset, 0,
                           CYAML_UNLIMITED),
    STR("kind", raw_scenario, kind),
    STR("challenge", raw_scenario, challenge),
    /* Its names are the engine's option registry, read by conv_options. */
    CYAML_FIELD_IGNORE("options", CYAML_FLAG_OPTIONAL),
    CYAML_FIELD_MAPPING("a", CYAML_FLAG_DEFAULT, raw_scenario, a, side_fields),
    CYAML_FIELD_MAPPING("b", CYAML_FLAG_DEFAULT, raw_scenario, b, side_fields),
    CYAML_FIELD_MAPPING_PTR("magic", OPT, raw_scenario, magic, magic_fields),
    CYAML_FIELD_END
};

static const cyaml_schema_value_t top_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, raw_scenario, top_fields),
};

#undef STR
#undef OPT

/* The mappings of a scenario file and the levels of their keys (a mapping
 * with `profile` set reads the profile keys too). */
const wh7_schema_level om_wh7_schema_levels[] = {
    {"(top)", top_fields, OM_WH7_LEVEL_TOP, false},
    {"a.unit", om_wh7_unit_fields_scenario, OM_WH7_LEVEL_UNIT, true},
    {"a.unit.equipment", equip_fields, OM_WH7_LEVEL_EQUIPMENT, false},
    {"a.unit.mount", mount_fields, OM_WH7_LEVEL_MOUNT, true},
    {"a.unit.characters[0]", character_fields, OM_WH7_LEVEL_CHARACTER, true},
    {"a", side_fields, OM_WH7_LEVEL_SIDE, false},
    {"a.mods", mods_fields, OM_WH7_LEVEL_MODS, false},
    {"magic", magic_fields, OM_WH7_LEVEL_MAGIC, false},
    {"magic.caster", caster_fields, OM_WH7_LEVEL_PROFILE, false},
};
const size_t om_wh7_schema_level_count =
    sizeof om_wh7_schema_levels / sizeof om_wh7_schema_levels[0];

const char *const om_wh7_int_keys[] = {
    "m", "ws", "bs", "s", "t", "w", "i", "a", "ld", "models", "files", "wounds_lost",
    "unit_strength", "points", "save_bonus", "magic_resistance", "wizard_level", "contact",
    "general_ld", "gap_in", "flee_blocked_in", "friend_ld", "shooters", "target_in", "guess_in",
    "template_models", "template_partial", "base_width_mm", "base_depth_mm", "to_hit",
    "to_wound", "attacks", "strength", "toughness", "leadership", "casting_value", "level",
    "dice", "cast_bonus", "dispel_dice", "dispel_bonus", "caster_contacts", NULL
};

const char *const om_wh7_bool_keys[] = {
    "challenge", "champion", "standard", "musician", "war_banner", "shield", "enchanted_shield",
    "barding", "general", "battle_standard", "charging", "high_ground", "moved",
    "defended_obstacle", "battle_standard_near", "on_hill", "long_range", "multiple_shots",
    "reroll_ones", "halve_flee", "mounts_idle", "soaked", "power_stone", "dispel_scroll",
    "in_feature", NULL
};

static om_status unknown_key(const om_yaml_ctx *c, const char *path,
                             const cyaml_schema_field_t *fields, const char *key);

/* The registry whose switches go under `options:`. */
static const om_option_table *const option_registries[] = {&om_wh7_option_registry, NULL};

static const om_yaml_doc scenario_doc = {
    .schema = "oddsmaster-scenario/1",
    .what = "a scenario file",
    .keys = "schema, ruleset, a, b",
    .top = &top_schema,
    .int_keys = om_wh7_int_keys,
    .bool_keys = om_wh7_bool_keys,
    .list_expects = "a list of names, e.g. [fear]",
    .entry_expects = "a name",
    .unknown_key = unknown_key,
    .options = option_registries,
    .value_max = OM_YAML_SCALAR_MAX,
};

/* An unknown key: where it belongs if it is a key of another level (a side
 * key in a unit, a unit key in a side, equipment); OM_OK for any other (the
 * common messages follow, om_yaml_doc.unknown_key). */
static om_status unknown_key(const om_yaml_ctx *c, const char *path,
                             const cyaml_schema_field_t *fields, const char *key)
{
    if (fields == om_wh7_unit_fields_scenario && om_yaml_field_find(side_fields, key))
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, key,
                               "unknown key '%s' in a unit; it is a side key: move it up one "
                               "level, under '%c'", key, path[0]);
    if (fields == side_fields && om_yaml_field_find(om_wh7_unit_fields_scenario, key))
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, key,
                               "unknown key '%s' in a side; it is a unit key: move it under "
                               "'%s.unit'", key, path);
    if ((fields == om_wh7_unit_fields_scenario || fields == character_fields ||
         fields == mount_fields) && om_yaml_field_find(equip_fields, key))
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, key,
                               "unknown key '%s'; it is equipment: put it under '%s.equipment'",
                               key, path);
    return OM_OK;
}

/* ---------------------------------------------------------------------------
 * Conversion of single values.
 */

/* "a.unit" + ".equipment" into out (truncated to cap: paths of the schema
 * are far shorter than OM_YAML_PATH_MAX). */
static void path_join(char *out, size_t cap, const char *prefix, const char *name)
{
    if (snprintf(out, cap, "%s%s%s", prefix, prefix[0] ? "." : "", name) >= (int)cap)
        out[cap - 1] = '\0';
}

/* The word s (at prefix.key) among names[0..n) into *out, case-insensitive;
 * else OM_EPARSE with the nearest name or the list. `what` names the kind of
 * word ("troop type"), its last parenthesis, if any, where to look them up. */
static om_status conv_word(const om_yaml_ctx *c, const char *prefix, const char *key,
                           const char *what, const char *s, const char *const *names, size_t n,
                           unsigned *out)
{
    char known[OM_YAML_REASON_MAX / 2], kind[96];
    const char *best, *hint = strchr(what, '(');
    for (size_t i = 0; i < n; i++)
        if (names[i] && strcasecmp(s, names[i]) == 0) {
            *out = (unsigned)i;
            return OM_OK;
        }
    snprintf(kind, sizeof kind, "%.*s", hint ? (int)(hint - what - 1) : (int)strlen(what), what);
    best = om_suggest(s, names, n);
    if (best)
        return om_yaml_fail_at(c, OM_EPARSE, 0, prefix, key, "unknown %s '%s'; did you mean "
                               "'%s'?%s%s", kind, s, best, hint ? " " : "", hint ? hint : "");
    om_yaml_join_names(known, sizeof known, names, n);
    return om_yaml_fail_at(c, OM_EPARSE, 0, prefix, key, "unknown %s '%s'; expected one of: %s",
                           kind, s, known);
}

/* An optional boolean: *out keeps its value when s is NULL. */
static om_status opt_bool(const om_yaml_ctx *c, const char *prefix, const char *key,
                          const char *s, bool *out)
{
    return s ? om_yaml_conv_bool(c, prefix, key, s, out) : OM_OK;
}

/* An optional 0..255: *out keeps its value when s is NULL. */
static om_status opt_u8(const om_yaml_ctx *c, const char *prefix, const char *key,
                        const char *s, uint8_t *out)
{
    return om_yaml_conv_u8(c, prefix, key, s, *out, out);
}

/* An optional signed value in lo..hi: *out keeps its value when s is NULL. */
static om_status opt_signed(const om_yaml_ctx *c, const char *prefix, const char *key,
                            const char *s, int lo, int hi, int8_t *out)
{
    long long v = 0;
    int rc;
    if (!s)
        return OM_OK;
    if ((rc = om_yaml_parse_integer(s, &v)) == -1)
        return om_yaml_fail_at(c, OM_EPARSE, 0, prefix, key, "expected an integer, got '%s'",
                               s);
    if (rc == -2 || v < lo || v > hi)
        return om_yaml_fail_at(c, OM_EINVAL, 0, prefix, key, "must be %d to %d (got %s)", lo,
                               hi, s);
    *out = (int8_t)v;
    return OM_OK;
}

/* An optional signed key of `level` at prefix.key, in the bounds of its row
 * of the key table (wh7_keys.c, the engine's limits): *out keeps its value
 * when s is NULL. */
static om_status opt_signed_key(const om_yaml_ctx *c, om_wh7_key_level level,
                                const char *prefix, const char *key, const char *s,
                                int8_t *out)
{
    const om_wh7_key *k = om_wh7_key_find(level, key);
    if (NEVER(k == NULL || k->type != OM_WH7_KEY_INT))
        return OM_ERROR(OM_EINVAL, "%s: key '%s' is not an integer of the key table", c->source,
                        key);
    return opt_signed(c, prefix, key, s, k->lo, k->hi, out);
}

/*
 * An optional save at prefix.key: "5+" or 5 is a 5+ save; none, 0 or "-" no
 * save (0). *out keeps its value when s is NULL. A save outside 2+..6+ is
 * returned as it is, for the engine's check to refuse.
 */
static om_status opt_save(const om_yaml_ctx *c, const char *prefix, const char *key,
                          const char *s, uint8_t *out)
{
    char digits[8];
    size_t n;
    long long v = 0;
    if (!s)
        return OM_OK;
    if (strcmp(s, "none") == 0 || strcmp(s, "-") == 0 || strcmp(s, "0") == 0) {
        *out = 0;
        return OM_OK;
    }
    n = strlen(s);
    if (n > 0 && s[n - 1] == '+')
        n--;
    if (n == 0 || n >= sizeof digits || s[0] == '+' || s[0] == '-')
        goto bad;
    memcpy(digits, s, n);
    digits[n] = '\0';
    if (om_yaml_parse_integer(digits, &v) != 0)
        goto bad;
    if (v > UINT8_MAX)
        return om_yaml_fail_at(c, OM_EINVAL, 0, prefix, key, "save '%s' is out of range", s);
    *out = (uint8_t)v;
    return OM_OK;
bad:
    return om_yaml_fail_at(c, OM_EPARSE, 0, prefix, key,
                           "expected a save such as 5+ (or none), got '%s'", s);
}

/* A name of 1..max bytes at prefix.key into out. */
static om_status conv_text(const om_yaml_ctx *c, const char *prefix, const char *key,
                           const char *s, char *out, size_t max)
{
    size_t n = strlen(s);
    if (n == 0)
        return om_yaml_fail_at(c, OM_EINVAL, 0, prefix, key, "must not be empty");
    if (n > max)
        return om_yaml_fail_at(c, OM_EINVAL, 0, prefix, key,
                               "is %zu bytes long; at most %zu are allowed", n, max);
    memcpy(out, s, n + 1);
    return OM_OK;
}

/* Is prefix.key written in the document (an empty list counts)? */
static bool key_present(const om_yaml_ctx *c, const char *prefix, const char *key)
{
    om_yaml_walk w;
    om_yaml_walk_run(&w, c->text, c->len, prefix, key);
    return w.found;
}

/* ---------------------------------------------------------------------------
 * Profiles: the rulebook's (scenarios/armies/whfb7/profiles.yaml) by id, or
 * written out.
 */

/* The characteristic keys, in om_wh7_profile order, and their columns in the
 * profile table. */
static const char *const char_keys[9] = {"m", "ws", "bs", "s", "t", "w", "i", "a", "ld"};
static const char *const char_columns[9] = {"M", "WS", "BS", "S", "T", "W", "I", "A", "Ld"};

/* The raw values of r in char_keys order. */
static void raw_chars(const wh7_raw_prof *r, const char *v[9])
{
    v[0] = r->m, v[1] = r->ws, v[2] = r->bs, v[3] = r->s, v[4] = r->t;
    v[5] = r->w, v[6] = r->i, v[7] = r->a, v[8] = r->ld;
}

/* The characteristics of p in char_keys order. */
static uint8_t *profile_char(om_wh7_profile *p, size_t k)
{
    uint8_t *const at[9] = {&p->m, &p->ws, &p->bs, &p->s, &p->t, &p->w, &p->i, &p->a, &p->ld};
    return at[k];
}

/* The row of profile `id`, or -1. */
static long profile_row(const om_army_table *t, const char *id)
{
    for (size_t r = 0; r < t->nrows; r++)
        if (strcmp(om_army_table_cell(t, r, "id"), id) == 0)
            return (long)r;
    return -1;
}

/* Raise "unknown profile" at prefix.profile with the nearest id: a near miss,
 * else an id ending in "-<id>" (an army's profile named without its army). */
static om_status fail_unknown_profile(const wh7_conv *cv, const char *prefix, const char *id)
{
    const om_army_table *t = cv->profiles;
    const char **ids = calloc(t->nrows ? t->nrows : 1, sizeof *ids);
    const char *best = NULL;
    char tail[128];
    om_status st;
    if (!ids)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", cv->c->source);
    snprintf(tail, sizeof tail, "-%s", id);
    for (size_t r = 0; r < t->nrows; r++) {
        const char *cand = om_army_table_cell(t, r, "id");
        size_t n = strlen(cand), m = strlen(tail);
        ids[r] = cand;
        if (!best && n > m && strcmp(cand + n - m, tail) == 0)
            best = cand;
    }
    if (!best)
        best = om_suggest(id, ids, t->nrows);
    if (best)
        st = om_yaml_fail_at(cv->c, OM_ENOTFOUND, 0, prefix, "profile",
                             "unknown profile '%s'; did you mean '%s'? (oddsmaster list "
                             "whfb7/profiles)", id, best);
    else
        st = om_yaml_fail_at(cv->c, OM_ENOTFOUND, 0, prefix, "profile",
                             "unknown profile '%s' (oddsmaster list whfb7/profiles lists the "
                             "rulebook's %zu)", id, t->nrows);
    free(ids);
    return st;
}

/* A cell of the profile table as a characteristic: "-" or "" is 0 (Characteristics
 * of 0), digits their value; -1 for anything else ("as crew"). */
static int profile_cell_value(const char *cell)
{
    long long v = 0;
    if (cell[0] == '\0' || strcmp(cell, "-") == 0)
        return 0;
    if (om_yaml_parse_integer(cell, &v) != 0 || v < 0 || v > UINT8_MAX)
        return -1;
    return (int)v;
}

/*
 * Convert the profile keys `r` at prefix into *pr (which holds the profile it
 * starts from, or zeroes): a `profile:` id replaces it with the rulebook's;
 * each characteristic written overrides; `name` renames it. `required`: with
 * no profile to start from, the name and all nine must be written. The id
 * goes to id[0..id_cap) ("" when written out).
 */
static om_status conv_profile(const wh7_conv *cv, const char *prefix, const wh7_raw_prof *r,
                              bool required, om_wh7_profile *pr, char *id, size_t id_cap)
{
    const char *v[9];
    const char *unreadable[9] = {NULL};
    om_status st;

    raw_chars(r, v);
    if (r->profile) {
        long row = profile_row(cv->profiles, r->profile);
        if (row < 0)
            return fail_unknown_profile(cv, prefix, r->profile);
        memset(pr, 0, sizeof *pr);
        snprintf(pr->name, sizeof pr->name, "%s",
                 om_army_table_cell(cv->profiles, (size_t)row, "name"));
        for (size_t k = 0; k < 9; k++) {
            const char *cell = om_army_table_cell(cv->profiles, (size_t)row, char_columns[k]);
            int x = profile_cell_value(cell);
            if (x < 0)
                unreadable[k] = cell;
            else
                *profile_char(pr, k) = (uint8_t)x;
        }
        if (id)
            snprintf(id, id_cap, "%s", r->profile);
    } else if (required && pr->name[0] == '\0') {
        const char *missing = !r->name ? "name" : NULL;
        for (size_t k = 0; !missing && k < 9; k++)
            if (!v[k])
                missing = char_keys[k];
        if (missing)
            return om_yaml_fail_at(cv->c, OM_EPARSE, 0, prefix, missing,
                                   "required key '%s' is missing: name a rulebook profile with "
                                   "'profile: ID' (oddsmaster list whfb7/profiles), or write the "
                                   "name and all nine characteristics (m ws bs s t w i a ld)",
                                   missing);
        if (id)
            id[0] = '\0';
    }
    for (size_t k = 0; k < 9; k++) {
        if (!v[k] && unreadable[k])
            return om_yaml_fail_at(cv->c, OM_EINVAL, 0, prefix, "profile",
                                   "profile '%s' prints %s as '%s', not a number: give '%s:'",
                                   r->profile, char_columns[k], unreadable[k], char_keys[k]);
        if ((st = opt_u8(cv->c, prefix, char_keys[k], v[k], profile_char(pr, k))))
            return st;
    }
    if (r->name)
        return conv_text(cv->c, prefix, "name", r->name, pr->name, PROFILE_NAME_MAX);
    return OM_OK;
}

/* ---------------------------------------------------------------------------
 * Equipment, rules, mounts and characters.
 */

/* The ids of the weapon tables, for suggestions. */
static om_status conv_weapon(const om_yaml_ctx *c, const char *prefix, const char *s,
                             om_wh7_weapon *out)
{
    const char *ids[OM_WH7_WEAPON_COUNT];
    unsigned v = 0;
    om_status st;
    for (unsigned w = 0; w < OM_WH7_WEAPON_COUNT; w++)
        ids[w] = om_wh7_weapon_get((om_wh7_weapon)w)->id;
    if ((st = conv_word(c, prefix, "weapon", "close combat weapon (oddsmaster list "
                        "whfb7/weapons)", s, ids, OM_WH7_WEAPON_COUNT, &v)))
        return st;
    *out = (om_wh7_weapon)v;
    return OM_OK;
}

static om_status conv_missile(const om_yaml_ctx *c, const char *prefix, const char *s,
                              om_wh7_missile *out)
{
    const char *ids[OM_WH7_MISSILE_COUNT];
    unsigned v = 0;
    om_status st;
    for (unsigned m = 0; m < OM_WH7_MISSILE_COUNT; m++)
        ids[m] = om_wh7_missile_get((om_wh7_missile)m)->id;
    if ((st = conv_word(c, prefix, "missile", "missile weapon (oddsmaster list whfb7/missiles)",
                        s, ids, OM_WH7_MISSILE_COUNT, &v)))
        return st;
    *out = (om_wh7_missile)v;
    return OM_OK;
}

/* The equipment keys of `r` at prefix onto *e, key by key. */
static om_status conv_equipment(const om_yaml_ctx *c, const char *prefix,
                                const wh7_raw_equip *r, om_wh7_equipment *e)
{
    unsigned v = 0;
    om_status st;
    if (!r)
        return OM_OK;
    if (r->weapon && (st = conv_weapon(c, prefix, r->weapon, &e->weapon)))
        return st;
    if (r->missile && (st = conv_missile(c, prefix, r->missile, &e->missile)))
        return st;
    if (r->armour) {
        if ((st = conv_word(c, prefix, "armour", "armour", r->armour, om_wh7_armour_names,
                            OM_WH7_ARMOUR_COUNT, &v)))
            return st;
        e->armour = (om_wh7_armour)v;
    }
    if (r->magic_weapon) {
        if ((st = conv_word(c, prefix, "magic_weapon", "magic weapon", r->magic_weapon,
                            om_wh7_magic_weapon_names, OM_WH7_MAGIC_WEAPON_COUNT, &v)))
            return st;
        e->magic_weapon = (om_wh7_magic_weapon)v;
    }
    if ((st = opt_bool(c, prefix, "shield", r->shield, &e->shield)) ||
        (st = opt_bool(c, prefix, "enchanted_shield", r->enchanted_shield,
                       &e->enchanted_shield)) ||
        (st = opt_bool(c, prefix, "barding", r->barding, &e->barding)) ||
        (st = opt_save(c, prefix, "scaly_skin", r->scaly_skin, &e->scaly_skin)) ||
        (st = opt_save(c, prefix, "ward", r->ward, &e->ward)))
        return st;
    return opt_signed_key(c, OM_WH7_LEVEL_EQUIPMENT, prefix, "save_bonus", r->save_bonus,
                          &e->save_bonus);
}

/* Most ids of a registry offered as suggestions: more than the engine's
 * special rules (26) and spells (48). */
#define NAMES_MAX 64

/* The ids of the engine's spells (else its special rules) into names[0..
 * NAMES_MAX); returns how many. */
static size_t registry_ids(const char **names, bool spells)
{
    const size_t count = spells ? om_wh7_spell_count() : om_wh7_special_count();
    size_t n = 0;
    for (; n < count && n < NAMES_MAX; n++)
        names[n] = spells ? om_wh7_spell_at(n)->id : om_wh7_special_at(n)->id;
    return n;
}

/* Special rule ids[0..n) at prefix.rules into *out (replaced): an unknown id
 * is OM_EPARSE at its entry, with the nearest id. */
static om_status conv_rules(const om_yaml_ctx *c, const char *prefix, char *const *ids,
                            unsigned n, om_wh7_rules *out)
{
    char path[OM_YAML_PATH_MAX], idx[24], known[OM_YAML_REASON_MAX];
    const char *names[NAMES_MAX];
    size_t count;
    *out = 0;
    for (unsigned i = 0; i < n; i++) {
        const om_wh7_special *sp = om_wh7_special_find(ids[i]);
        const char *best;
        if (sp) {
            *out |= sp->flag;
            continue;
        }
        count = registry_ids(names, false);
        path_join(path, sizeof path, prefix, "rules");
        snprintf(idx, sizeof idx, "[%u]", i);
        best = om_suggest(ids[i], names, count);
        if (best)
            return om_yaml_fail_at(c, OM_EPARSE, om_yaml_locate(c, path, idx), path, NULL,
                                   "unknown special rule '%s'; did you mean '%s'? (oddsmaster "
                                   "list --rules whfb7)", ids[i], best);
        om_yaml_join_names(known, sizeof known, names, count);
        return om_yaml_fail_at(c, OM_EPARSE, om_yaml_locate(c, path, idx), path, NULL,
                               "unknown special rule '%s'; the rules are: %s", ids[i], known);
    }
    return OM_OK;
}

/* The rule keys (rules, damage, magic_resistance) at prefix onto *t; rules
 * replace the list's only when the key is written. */
static om_status conv_traits(const om_yaml_ctx *c, const char *prefix, char *const *rules,
                             unsigned rules_count, const char *damage, const char *mr,
                             om_wh7_traits *t)
{
    unsigned v = 0;
    om_status st;
    if (key_present(c, prefix, "rules") &&
        (st = conv_rules(c, prefix, rules, rules_count, &t->rules)))
        return st;
    if (damage) {
        if ((st = conv_word(c, prefix, "damage", "damage (wounds per unsaved wound)", damage,
                            om_wh7_damage_names, OM_WH7_DAMAGE_COUNT, &v)))
            return st;
        t->damage = (om_wh7_damage)v;
    }
    return opt_u8(c, prefix, "magic_resistance", mr, &t->magic_resistance);
}

/* The mount at prefix ("a.unit.mount") onto *m: a mount written anew needs a
 * profile. */
static om_status conv_mount(const wh7_conv *cv, const char *prefix, const wh7_raw_mount *r,
                            om_wh7_mount *m)
{
    om_status st;
    if (!r)
        return OM_OK;
    if ((st = conv_profile(cv, prefix, &r->p, true, &m->profile, NULL, 0)))
        return st;
    return conv_traits(cv->c, prefix, r->rules, r->rules_count, r->damage, r->magic_resistance,
                       &m->traits);
}

/* Character i at prefix ("a.unit.characters[0]") into *h (zeroed first); his
 * points are added to *points. */
static om_status conv_character(const wh7_conv *cv, const char *prefix,
                                const wh7_raw_character *r, om_wh7_character *h,
                                uint32_t *points)
{
    char path[OM_YAML_PATH_MAX];
    unsigned pts = 0;
    om_status st;
    memset(h, 0, sizeof *h);
    if ((st = conv_profile(cv, prefix, &r->p, true, &h->profile, NULL, 0)))
        return st;
    path_join(path, sizeof path, prefix, "equipment");
    if ((st = conv_equipment(cv->c, path, r->equipment, &h->equipment)) ||
        (st = conv_traits(cv->c, prefix, r->rules, r->rules_count, r->damage,
                          r->magic_resistance, &h->traits)))
        return st;
    path_join(path, sizeof path, prefix, "mount");
    if ((st = conv_mount(cv, path, r->mount, &h->mount)) ||
        (st = opt_u8(cv->c, prefix, "unit_strength", r->unit_strength, &h->unit_strength)) ||
        (st = opt_u8(cv->c, prefix, "wounds_lost", r->wounds_lost, &h->wounds_lost)) ||
        (st = opt_bool(cv->c, prefix, "general", r->general, &h->general)) ||
        (st = opt_bool(cv->c, prefix, "battle_standard", r->battle_standard,
                       &h->battle_standard)) ||
        (st = opt_u8(cv->c, prefix, "wizard_level", r->wizard_level, &h->wizard_level)) ||
        (st = om_yaml_conv_int(cv->c, prefix, "points", r->points, UINT16_MAX, 0, &pts)))
        return st;
    *points += pts;
    return OM_OK;
}

/* The characters of unit `r` at up, replacing u's when the key is written. */
static om_status conv_characters(const wh7_conv *cv, const char *up, const wh7_raw_unit *r,
                                 om_wh7_unit *u, uint32_t *points)
{
    char path[OM_YAML_PATH_MAX], entry[OM_YAML_PATH_MAX];
    om_status st;
    if (!key_present(cv->c, up, "characters"))
        return OM_OK;
    path_join(path, sizeof path, up, "characters");
    if (r->characters_count > OM_WH7_MAX_CHARACTERS)
        return om_yaml_fail_at(cv->c, OM_EINVAL, 0, path, NULL,
                               "%u characters: at most %u may join one unit", r->characters_count,
                               OM_WH7_MAX_CHARACTERS);
    *points = 0;
    u->characters = (uint8_t)r->characters_count;
    for (unsigned i = 0; i < r->characters_count; i++) {
        if (snprintf(entry, sizeof entry, "%s[%u]", path, i) >= (int)sizeof entry)
            entry[sizeof entry - 1] = '\0';
        if ((st = conv_character(cv, entry, &r->characters[i], &u->character[i], points)))
            return st;
    }
    return OM_OK;
}

om_status om_wh7_conv_unit(const wh7_conv *cv, const char *up, const wh7_raw_unit *r, bool based,
                        om_wh7_unit *u, om_wh7_side_info *info)
{
    const om_yaml_ctx *c = cv->c;
    const unsigned listed_models = u->models;
    char path[OM_YAML_PATH_MAX];
    unsigned v = 0, total;
    om_status st;

    if (!based && !r->models)
        return om_yaml_fail_at(c, OM_EPARSE, 0, up, "models",
                               "required key 'models' is missing (or name a unit of the list "
                               "file with 'from: army/unit', oddsmaster list whfb7/units)");
    if ((st = opt_u8(c, up, "models", r->models, &u->models)))
        return st;
    if ((st = conv_characters(cv, up, r, u, &info->character_points)))
        return st;
    if ((st = conv_profile(cv, up, &r->p, u->models > 0, &u->profile, info->profile,
                           sizeof info->profile)))
        return st;
    if (u->models == 0 && u->characters == 0)
        return om_yaml_fail_at(c, OM_EINVAL, 0, up, "models",
                               "the unit has no model: give models, or characters");
    if (r->p.name)
        snprintf(info->name, sizeof info->name, "%s", r->p.name);
    else if (!based)
        snprintf(info->name, sizeof info->name, "%s",
                 u->models > 0 ? u->profile.name : u->character[0].profile.name);

    path_join(path, sizeof path, up, "equipment");
    if ((st = conv_equipment(c, path, r->equipment, &u->equipment)) ||
        (st = conv_traits(c, up, r->rules, r->rules_count, r->damage, r->magic_resistance,
                          &u->traits)))
        return st;
    path_join(path, sizeof path, up, "mount");
    if ((st = conv_mount(cv, path, r->mount, &u->mount)))
        return st;
    u->troop = based ? u->troop : u->mount.profile.name[0] ? OM_WH7_CAVALRY : OM_WH7_INFANTRY;
    if (r->troop) {
        if ((st = conv_word(c, up, "troop", "troop type", r->troop, om_wh7_troop_names,
                            OM_WH7_TROOP_COUNT, &v)))
            return st;
        u->troop = (om_wh7_troop)v;
    }
    /* Five wide by default; a list unit keeps its width, no wider than the
     * models it is left with. */
    total = (unsigned)u->models + u->characters;
    if (!based)
        u->files = (uint8_t)(total < DEFAULT_FILES ? total : DEFAULT_FILES);
    else if (u->files > total)
        u->files = (uint8_t)total;
    if ((st = opt_u8(c, up, "files", r->files, &u->files)) ||
        (st = opt_u8(c, up, "wounds_lost", r->wounds_lost, &u->wounds_lost)) ||
        (st = opt_bool(c, up, "champion", r->champion, &u->champion)) ||
        (st = opt_bool(c, up, "standard", r->standard, &u->standard)) ||
        (st = opt_bool(c, up, "musician", r->musician, &u->musician)) ||
        (st = opt_bool(c, up, "war_banner", r->war_banner, &u->war_banner)) ||
        (st = opt_u8(c, up, "unit_strength", r->unit_strength, &u->unit_strength)))
        return st;
    /* A list's points are for the unit as listed; another number of models
     * costs proportionally (rounded to the nearest point, halves up). */
    if (based && listed_models > 0 && u->models != listed_models)
        u->points = (uint16_t)(((unsigned)u->points * u->models + listed_models / 2) /
                               listed_models);
    if ((st = om_yaml_conv_int(c, up, "points", r->points, UINT16_MAX, u->points, &v)))
        return st;
    u->points = (uint16_t)v;
    return OM_OK;
}

/* ---------------------------------------------------------------------------
 * Sides, the magic phase, options.
 */

/* The unit `ref` of the list file (`from:` at up): *u, what it fires if it
 * is a war machine, its name and origin. Loads the list once per scenario
 * (*list). */
static om_status conv_from(const wh7_conv *cv, const char *up, const char *ref,
                           om_wh7_list **list, om_wh7_unit *u, om_wh7_machine *machine,
                           om_wh7_side_info *info)
{
    const om_wh7_list_unit *e = NULL;
    om_status st;
    if (!*list && (st = om_wh7_list_load(list)))
        return st;
    if ((st = om_wh7_list_find(*list, ref, &e)))
        return om_yaml_fail_at(cv->c, st, 0, up, "from", "%s", om_error_message());
    *u = e->unit;
    *machine = e->machine;
    snprintf(info->name, sizeof info->name, "%s", e->name);
    snprintf(info->from, sizeof info->from, "%s", e->id);
    snprintf(info->profile, sizeof info->profile, "%s", e->profile);
    info->character_points = e->character_points;
    return OM_OK;
}

/* The spell ids[0..n) on side `side` (augments and hexes, om_wh7_spell_apply). */
static om_status conv_spells(const om_yaml_ctx *c, const char *side, char *const *ids,
                             unsigned n, om_wh7_side *s, om_wh7_side_info *info)
{
    char path[OM_YAML_PATH_MAX], idx[24];
    const char *names[NAMES_MAX];
    path_join(path, sizeof path, side, "spells");
    for (unsigned i = 0; i < n; i++) {
        const om_wh7_spell *sp = om_wh7_spell_find(ids[i]);
        size_t used = strlen(info->spells);
        snprintf(idx, sizeof idx, "[%u]", i);
        if (!sp) {
            const char *best = om_suggest(ids[i], names, registry_ids(names, true));
            return om_yaml_fail_at(c, OM_EPARSE, om_yaml_locate(c, path, idx), path, NULL,
                                   "unknown spell '%s'%s%s%s (oddsmaster list whfb7/spells)",
                                   ids[i], best ? "; did you mean '" : "", best ? best : "",
                                   best ? "'?" : "");
        }
        if (om_wh7_spell_apply(sp, s) != OM_OK)
            return om_yaml_fail_at(c, OM_EUNSUPPORTED, om_yaml_locate(c, path, idx), path, NULL,
                                   "'%s' has no effect on a unit's dice in a combat (%s)%s",
                                   sp->id, sp->effect,
                                   sp->kind == OM_WH7_SPELL_DAMAGE
                                       ? "; cast it with kind: magic" : "");
        snprintf(info->spells + used, sizeof info->spells - used, "%s%s", used ? "," : "",
                 sp->id);
    }
    return OM_OK;
}

/* The side's `mods:` mapping onto its modifiers. */
static om_status conv_mods(const om_yaml_ctx *c, const char *side, const raw_mods *r,
                           om_wh7_modifiers *m)
{
    char p[OM_YAML_PATH_MAX];
    om_status st;
    if (!r)
        return OM_OK;
    path_join(p, sizeof p, side, "mods");
    if ((st = opt_signed_key(c, OM_WH7_LEVEL_MODS, p, "to_hit", r->to_hit, &m->to_hit)) ||
        (st = opt_signed_key(c, OM_WH7_LEVEL_MODS, p, "to_wound", r->to_wound, &m->to_wound)) ||
        (st = opt_signed_key(c, OM_WH7_LEVEL_MODS, p, "armour", r->armour, &m->armour)) ||
        (st = opt_signed_key(c, OM_WH7_LEVEL_MODS, p, "attacks", r->attacks, &m->attacks)) ||
        (st = opt_signed_key(c, OM_WH7_LEVEL_MODS, p, "strength", r->strength, &m->strength)) ||
        (st = opt_signed_key(c, OM_WH7_LEVEL_MODS, p, "toughness", r->toughness,
                             &m->toughness)) ||
        (st = opt_signed_key(c, OM_WH7_LEVEL_MODS, p, "leadership", r->leadership,
                             &m->leadership)) ||
        (st = opt_u8(c, p, "ws", r->ws, &m->ws)) ||
        (st = opt_bool(c, p, "reroll_ones", r->reroll_ones, &m->reroll_ones)) ||
        (st = opt_bool(c, p, "halve_flee", r->halve_flee, &m->halve_flee)) ||
        (st = opt_bool(c, p, "mounts_idle", r->mounts_idle, &m->mounts_idle)) ||
        (st = opt_bool(c, p, "soaked", r->soaked, &m->soaked)))
        return st;
    return opt_save(c, p, "missile_ward", r->missile_ward, &m->missile_ward);
}

/* An enumeration side key: the word among names[0..n) into *out. */
static om_status side_word(const om_yaml_ctx *c, const char *side, const char *key,
                           const char *what, const char *s, const char *const *names, size_t n,
                           unsigned *out)
{
    return s ? conv_word(c, side, key, what, s, names, n, out) : OM_OK;
}

/* Side `name` ("a" or "b"): its unit, then what the geometry decided. */
static om_status conv_side(const wh7_conv *cv, const char *name, const raw_side *r,
                           om_wh7_list **list, om_wh7_side *s, om_wh7_side_info *info)
{
    const om_yaml_ctx *c = cv->c;
    char up[OM_YAML_PATH_MAX];
    unsigned arc = 0, pursue = 0, response = 0, cover = 0;
    om_status st;

    memset(s, 0, sizeof *s);
    path_join(up, sizeof up, name, "unit");
    if (r->unit.from &&
        (st = conv_from(cv, up, r->unit.from, list, &s->unit, &s->machine, info)))
        return st;
    if ((st = om_wh7_conv_unit(cv, up, &r->unit, r->unit.from != NULL, &s->unit, info)))
        return st;
    if ((st = side_word(c, name, "arc", "arc", r->arc, om_wh7_arc_names, OM_WH7_ARC_COUNT,
                        &arc)) ||
        (st = side_word(c, name, "pursue", "pursuit choice", r->pursue, om_wh7_pursue_names,
                        OM_WH7_PURSUE_COUNT, &pursue)) ||
        (st = side_word(c, name, "response", "charge response", r->response,
                        om_wh7_response_names, OM_WH7_RESPONSE_COUNT, &response)) ||
        (st = side_word(c, name, "cover", "cover", r->cover, om_wh7_cover_names,
                        OM_WH7_COVER_COUNT, &cover)))
        return st;
    s->arc = (om_wh7_arc)arc;
    s->pursue = (om_wh7_pursue)pursue;
    s->response = (om_wh7_response)response;
    s->cover = (om_wh7_cover)cover;
    if (r->machine) {
        const char *ids[OM_WH7_MACHINE_COUNT];
        unsigned m = 0;
        for (unsigned k = 0; k < OM_WH7_MACHINE_COUNT; k++)
            ids[k] = om_wh7_machine_get((om_wh7_machine)k)->id;
        if ((st = conv_word(c, name, "machine", "war machine", r->machine, ids,
                            OM_WH7_MACHINE_COUNT, &m)))
            return st;
        s->machine = (om_wh7_machine)m;
    }
    if ((st = opt_bool(c, name, "charging", r->charging, &s->charging)) ||
        (st = opt_u8(c, name, "contact", r->contact, &s->contact)) ||
        (st = opt_bool(c, name, "high_ground", r->high_ground, &s->high_ground)) ||
        (st = opt_bool(c, name, "moved", r->moved, &s->moved)) ||
        (st = opt_bool(c, name, "defended_obstacle", r->defended_obstacle,
                       &s->defended_obstacle)) ||
        (st = opt_u8(c, name, "general_ld", r->general_ld, &s->general_ld)) ||
        (st = opt_bool(c, name, "battle_standard_near", r->battle_standard_near,
                       &s->battle_standard_near)) ||
        (st = opt_u8(c, name, "gap_in", r->gap_in, &s->gap_in)) ||
        (st = opt_u8(c, name, "flee_blocked_in", r->flee_blocked_in, &s->flee_blocked_in)) ||
        (st = opt_u8(c, name, "friend_ld", r->friend_ld, &s->friend_ld)) ||
        (st = opt_u8(c, name, "shooters", r->shooters, &s->shooters)) ||
        (st = opt_bool(c, name, "on_hill", r->on_hill, &s->on_hill)) ||
        (st = opt_bool(c, name, "long_range", r->long_range, &s->long_range)) ||
        (st = opt_bool(c, name, "multiple_shots", r->multiple_shots, &s->multiple_shots)) ||
        (st = opt_u8(c, name, "target_in", r->target_in, &s->target_in)) ||
        (st = opt_u8(c, name, "guess_in", r->guess_in, &s->guess_in)) ||
        (st = opt_u8(c, name, "template_models", r->template_models, &s->template_models)) ||
        (st = opt_u8(c, name, "template_partial", r->template_partial,
                     &s->template_partial)) ||
        (st = opt_u8(c, name, "base_width_mm", r->base_width_mm, &s->base_width_mm)) ||
        (st = opt_u8(c, name, "base_depth_mm", r->base_depth_mm, &s->base_depth_mm)) ||
        (st = conv_mods(c, name, r->mods, &s->mods)))
        return st;
    return conv_spells(c, name, r->spells, r->spells_count, s, info);
}

/* The first wizard among side A's characters, or NULL. */
static const om_wh7_character *wizard_of(const om_wh7_unit *u)
{
    for (unsigned i = 0; i < u->characters; i++)
        if (u->character[i].wizard_level > 0)
            return &u->character[i];
    return NULL;
}

/* The magic kind's casting attempt from `magic:`. */
static om_status conv_magic(const wh7_conv *cv, const raw_magic *r, om_wh7_combat *cb,
                            char *spell_id, size_t id_cap)
{
    const om_yaml_ctx *c = cv->c;
    om_wh7_magic *m = &cb->magic;
    const om_wh7_character *wiz = wizard_of(&cb->side[0].unit);
    const om_wh7_spell *sp;
    om_status st;

    if (cb->kind != OM_WH7_KIND_MAGIC) {
        if (r)
            return om_yaml_fail_at(c, OM_EPARSE, 0, NULL, "magic",
                                   "'magic:' describes a casting attempt: only with "
                                   "'kind: magic' (the augments and hexes of a combat go "
                                   "under a side's 'spells:')");
        return OM_OK;
    }
    if (!r)
        return om_yaml_fail_at(c, OM_EPARSE, 0, NULL, "magic",
                               "required key 'magic' is missing: kind magic casts a spell, "
                               "e.g. 'magic: {spell: fireball, dice: 3}'");
    if (!r->spell)
        return om_yaml_fail_at(c, OM_EPARSE, 0, "magic", "spell",
                               "required key 'spell' is missing (oddsmaster list "
                               "whfb7/spells)");
    if (!r->dice)
        return om_yaml_fail_at(c, OM_EPARSE, 0, "magic", "dice",
                               "required key 'dice' is missing: the power dice the wizard "
                               "rolls is the player's choice");
    if (!(sp = om_wh7_spell_find(r->spell))) {
        const char *names[NAMES_MAX];
        const char *best = om_suggest(r->spell, names, registry_ids(names, true));
        return om_yaml_fail_at(c, OM_EPARSE, 0, "magic", "spell",
                               "unknown spell '%s'%s%s%s (oddsmaster list whfb7/spells)",
                               r->spell, best ? "; did you mean '" : "", best ? best : "",
                               best ? "'?" : "");
    }
    snprintf(spell_id, id_cap, "%s", sp->id);
    m->lore = sp->lore;
    m->spell = sp->number;
    if (wiz) {
        m->level = wiz->wizard_level;
        m->caster = wiz->profile;
        m->caster_ward = wiz->equipment.ward;
    }
    if (!r->level && !wiz)
        return om_yaml_fail_at(c, OM_EPARSE, 0, "magic", "level",
                               "required key 'level' is missing: side A has no wizard "
                               "character (wizard_level) to cast");
    if (r->caster &&
        (st = conv_profile(cv, "magic.caster", &r->caster->p, true, &m->caster, NULL, 0)))
        return st;
    if (!r->caster && !wiz)
        return om_yaml_fail_at(c, OM_EPARSE, 0, "magic", "caster",
                               "required key 'caster' is missing: side A has no wizard "
                               "character; give the caster's profile, e.g. 'caster: {profile: "
                               "empire-battle-wizard-w}'");
    if ((st = opt_u8(c, "magic", "level", r->level, &m->level)) ||
        (st = opt_u8(c, "magic", "dice", r->dice, &m->dice)) ||
        (st = opt_u8(c, "magic", "casting_value", r->casting_value, &m->casting_value)) ||
        (st = opt_bool(c, "magic", "power_stone", r->power_stone, &m->power_stone)) ||
        (st = opt_u8(c, "magic", "cast_bonus", r->cast_bonus, &m->cast_bonus)) ||
        (st = opt_u8(c, "magic", "dispel_dice", r->dispel_dice, &m->dispel_dice)) ||
        (st = opt_u8(c, "magic", "dispel_bonus", r->dispel_bonus, &m->dispel_bonus)) ||
        (st = opt_bool(c, "magic", "dispel_scroll", r->dispel_scroll, &m->dispel_scroll)) ||
        (st = opt_bool(c, "magic", "in_feature", r->in_feature, &m->in_feature)) ||
        (st = opt_save(c, "magic", "caster_ward", r->caster_ward, &m->caster_ward)))
        return st;
    return opt_u8(c, "magic", "caster_contacts", r->caster_contacts, &m->caster_contacts);
}

/* The top-level `options:` into *o, through the engine's registry. */
static om_status conv_options(const om_yaml_ctx *c, om_wh7_options *o)
{
    const om_yaml_option_set set = {&om_wh7_option_registry, o};
    return om_yaml_conv_options(c, "max_rounds: 3", &set, 1);
}

/* ---------------------------------------------------------------------------
 * The engine's check, mapped to the file.
 */

/* Is `name` one of the nine characteristic keys? */
static bool is_char_key(const char *name)
{
    for (size_t k = 0; k < 9; k++)
        if (strcmp(name, char_keys[k]) == 0)
            return true;
    return false;
}

om_status om_wh7_fail_check(const om_yaml_ctx *c, const om_wh7_check_failure *why)
{
    char path[OM_YAML_PATH_MAX], parent[OM_YAML_PATH_MAX];
    const char *in = why->field, *leaf;
    size_t n = 0, line = 0;
    const char *origin = NULL;

    /* "a.unit.profile.ws" is the unit's key "a.unit.ws"; likewise mounts,
     * characters and the caster. */
    while (*in && n + 1 < sizeof path) {
        if (strncmp(in, ".profile.", 9) == 0)
            in += 8;
        path[n++] = *in++;
    }
    path[n] = '\0';
    leaf = strrchr(path, '.');
    leaf = leaf ? leaf + 1 : path;
    snprintf(parent, sizeof parent, "%.*s", leaf > path ? (int)(leaf - path - 1) : 0, path);
    /* A value the file does not write came from the profile or the list. */
    if (!key_present(c, parent, leaf)) {
        if (is_char_key(leaf) && key_present(c, parent, "profile"))
            origin = "profile";
        else if (key_present(c, parent, "from"))
            origin = "from";
        else if (strncmp(parent, "a.unit", 6) == 0 || strncmp(parent, "b.unit", 6) == 0) {
            char side_unit[8];
            snprintf(side_unit, sizeof side_unit, "%.6s", parent);
            if (key_present(c, side_unit, "from")) {
                snprintf(parent, sizeof parent, "%s", side_unit);
                origin = "from";
            }
        }
        if (origin)
            line = om_yaml_locate(c, parent, origin);
    }
    return om_yaml_fail_at(c, OM_EINVAL, line, path, NULL, "%s%s%s%s",
                           why->reason[0] ? why->reason : "rejected by the rules check",
                           origin ? " (the value of its '" : "", origin ? origin : "",
                           origin ? "')" : "");
}

/* ---------------------------------------------------------------------------
 * The whole scenario.
 */

/* The combat from the raw document, then the engine's check. */
static om_status conv_combat(const wh7_conv *cv, const raw_scenario *r, om_wh7_scenario *s)
{
    const om_yaml_ctx *c = cv->c;
    om_wh7_combat *cb = &s->combat;
    om_wh7_list *list = NULL;
    om_wh7_check_failure why;
    unsigned v = 0;
    om_status st = OM_OK;

    memset(cb, 0, sizeof *cb);
    if (strcmp(r->ruleset, OM_WH7_RULESET) != 0)
        return om_yaml_fail_at(c, OM_ENOTFOUND, 0, NULL, "ruleset",
                               "the WHFB 7th edition loader reads rule set '%s', not '%s'",
                               OM_WH7_RULESET, r->ruleset);
    cb->kind = OM_WH7_KIND_COMBAT;
    if (r->kind) {
        if ((st = conv_word(c, NULL, "kind", "kind", r->kind, om_wh7_kind_names,
                            OM_WH7_KIND_COUNT, &v)))
            return st;
        cb->kind = (om_wh7_kind)v;
    }
    if ((st = opt_bool(c, NULL, "challenge", r->challenge, &cb->challenge)) ||
        (st = conv_options(c, &cb->options)) ||
        (st = conv_side(cv, "a", &r->a, &list, &cb->side[0], &s->side[0])) ||
        (st = conv_side(cv, "b", &r->b, &list, &cb->side[1], &s->side[1])) ||
        (st = conv_magic(cv, r->magic, cb, s->spell, sizeof s->spell))) {
        om_wh7_list_free(list);
        return st;
    }
    om_wh7_list_free(list);
    memset(&why, 0, sizeof why);
    if (om_wh7_check(cb, &why) != OM_OK)
        return om_wh7_fail_check(c, &why);
    return OM_OK;
}

/* The title: the file's, else "A vs B". */
static om_status set_title(om_wh7_scenario *s, const raw_scenario *r, const om_yaml_ctx *c)
{
    size_t n;
    if (r->title && r->title[0] == '\0')
        return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "title",
                               "must not be empty (leave the key out for the default)");
    if (r->title) {
        s->title = om_yaml_dup(r->title, strlen(r->title));
    } else {
        n = strlen(s->side[0].name) + strlen(s->side[1].name) + sizeof " vs ";
        if ((s->title = malloc(n)) != NULL)
            snprintf(s->title, n, "%s vs %s", s->side[0].name, s->side[1].name);
    }
    return s->title ? OM_OK : OM_ERROR(OM_ENOMEM, "%s: out of memory", c->source);
}

om_status om_wh7_scenario_load_text(const char *source, const char *text, size_t len,
                                    om_wh7_scenario **out)
{
    raw_scenario *raw = NULL;
    om_army_table *profiles = NULL;
    om_wh7_scenario *s;
    om_yaml_ctx c;
    wh7_conv cv;
    om_status st;

    if (!out)
        return OM_ERROR(OM_EINVAL, "om_wh7_scenario_load_text: out is NULL");
    *out = NULL;
    source = source ? source : SOURCE_UNNAMED;
    if (!text && len > 0)
        return OM_ERROR(OM_EINVAL, "%s: om_wh7_scenario_load_text: text is NULL", source);
    s = calloc(1, sizeof *s);
    if (!s || !(s->source = om_yaml_dup(source, strlen(source))) ||
        !(s->text = om_yaml_dup(text ? text : "", len))) {
        om_wh7_scenario_free(s);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", source);
    }
    c = (om_yaml_ctx){.source = source, .text = s->text, .len = len};
    cv = (wh7_conv){.c = &c};
    if ((st = om_yaml_load(&c, &scenario_doc, (void **)&raw)) == OM_OK &&
        (st = om_army_table_load(OM_ARMY_TABLE_PROFILES, &profiles)) == OM_OK) {
        cv.profiles = profiles;
        if ((st = conv_combat(&cv, raw, s)) == OM_OK)
            st = set_title(s, raw, &c);
    }
    om_army_table_free(profiles);
    om_yaml_free(&scenario_doc, raw);
    if (st != OM_OK) {
        om_wh7_scenario_free(s);
        return st;
    }
    *out = s;
    return OM_OK;
}

void om_wh7_scenario_free(om_wh7_scenario *s)
{
    if (!s)
        return;
    free(s->source);
    free(s->text);
    free(s->title);
    free(s);
}
