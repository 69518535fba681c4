/*
 * load.c: load and validate scenario files (scenario.h). With yaml_util.c and
 * army.c this is the only code that uses libcyaml and libyaml (STYLE rule 14;
 * ENGINEERING section 7).
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
 * SCENARIO FILE FORMAT (schema "oddsmaster-scenario/1"; see default.yaml and
 * scenarios/examples/)
 *
 *   schema: oddsmaster-scenario/1   required, exactly this text
 *   title: Knights charge Spearmen  optional, not empty; default
 *                                   "<name A> vs <name B>"
 *   ruleset: warmaster-revolution   required: warmaster-1.1,
 *                                   warmaster-revolution or warmaster-ancients
 *   kind: combat                    optional: combat (default: stand and
 *                                   shoot, then the first round), volley
 *                                   (side A shoots at side B) or engagement
 *                                   (the whole fight: rounds, pursuits and
 *                                   turns until it ends); a file of kind turn
 *                                   is read by wm_turn_load.c instead
 *   options:                        optional: interpretations of ambiguous
 *     max_turns: 5                  rules, name: value, set through the
 *     last_ditch_per_stand: true    engine's registry (oddsmaster list
 *                                   --options lists every name, its question
 *                                   and readings); true/false for a switch,
 *                                   an integer for max_turns (0..100, 0: 10
 *                                   turns); left out, the recommended
 *                                   reading. A fixed reading named here is
 *                                   an error (it cannot be switched)
 *   a:                              required: side A (the attacker or shooter)
 *     unit:                         required: the unit's values
 *       from: empire/knights        optional: army/unit of the rule set's army
 *                                   lists (oddsmaster list RULESET/ARMY); it
 *                                   gives every value below, and each key
 *                                   given with it overrides that value
 *       name: Knights               required without from, 1..63 bytes
 *       type: cavalry               required without from: infantry, cavalry,
 *                                   chariot, monster, artillery or machine
 *       stands: 3                   required without from (from: the size)
 *       attacks: 3                  required without from: close combat
 *                                   Attacks per stand
 *       hits: 3                     required without from
 *       armour: 4+                  required without from: 4+ or 4; none, 0
 *                                   or "-" for no save ("-" must be quoted in
 *                                   YAML); the engine accepts saves 3+ to 6+
 *       shots: 0                    optional: shooting Attacks per stand (0)
 *       range: 30                   optional, cm: 30 if shots > 0, else 0
 *       pace: 30                    optional, cm: the troop type's pace
 *       points: 110                 optional: the unit's points value (0;
 *                                   from: the list's points, scaled by
 *                                   size / the list's unit size and
 *                                   rounded when the sizes differ)
 *       size: 3                     optional: stands at full strength, at
 *                                   least stands (default: stands; with
 *                                   from, the list's unit size, so that
 *                                   "stands: 2" of a 3-stand unit means one
 *                                   stand lost already, or stands if more);
 *                                   a warband's drive backs depend on it
 *       chaos_or_undead: false      optional: a unit of Chaos or the Undead,
 *                                   hated by Zealots (with from: its army)
 *       rules: [terror]             optional list of special rule ids; with
 *                                   from it replaces the list's rules. Ids
 *                                   the engine implements (terror,
 *                                   shots-no-save, the Ancients rules such
 *                                   as warband; oddsmaster list --rules)
 *                                   set their effect; other ids of the army
 *                                   lists' registry are recorded as not
 *                                   modelled and reported
 *     character: empire/general     optional: a general, hero or wizard of the
 *                                   army lists joining the unit: its Attacks
 *                                   bonus becomes attack_bonus, its terror
 *                                   and Hermann's extra charge die (Ancients,
 *                                   german/hermann) the unit's; its other
 *                                   rules are recorded as not modelled
 *     mount: griffon                optional, with character: a mount of the
 *                                   character's army (and, if the list names
 *                                   the character's mounts, one of those)
 *                                   adding its bonus and rules
 *     charging: true                optional: charged this turn (false)
 *     position: open                optional: open, defended or fortified
 *     fighting: 3                   optional: stands in contact (all stands)
 *     flanked: 0                    optional: fighting stands hit in flank (0)
 *     supports: 0                   optional: supporting stands (0)
 *     support_units: 0              optional: units giving those supports (0)
 *     attack_bonus: 0               optional: a character's bonus Attacks (0;
 *                                   with character: its bonus)
 *     extra_shots: 0                optional: a joined character's shooting
 *                                   Attacks, e.g. Dragon fire 3 (0; with
 *                                   character: its mount's or its own)
 *     aura: none                    optional: immunity to terror from outside
 *                                   the unit: none, always (touching the
 *                                   Screaming Bell, or the Anvil or Shrine
 *                                   struck), roll (struck on a 4+ each turn)
 *     power: none                   optional: a once-a-battle power used in
 *                                   this engagement: tomb-king, oathstone
 *     power_turn: 1                 optional: the engagement's turn it is
 *                                   used in (1, the charge's, with power)
 *     target_cm: 0                  optional: distance to the target of its
 *                                   volleys, for shots by range (crossbows,
 *                                   Helblaster; 0: the longest range band)
 *     blind_fire: false             optional: a stone thrower or trebuchet
 *                                   shoots blind at a target out of sight
 *     formation: column             optional, War Wagons only: column or
 *                                   laager (column); only the wagon stand
 *                                   fights and shoots (fighting, shooting 1)
 *     beside_laager: false          optional: Kislev infantry touching a
 *                                   laagered wagon: defended against
 *                                   shooting and in the first round
 *     shugenja: false               optional: a Shugenja within 20cm of
 *                                   Daemons: +1 to their Instability rolls
 *     evade: false                  optional: skirmishers charged evade
 *                                   after shooting (Ancients): no round
 *     caractacus: false             optional: Britons Chariots of an army led
 *                                   by Caractacus, no chariot unit lost yet:
 *                                   terror, unless the enemy's army list
 *                                   (from:) has chariots (Ancients)
 *     pushed: false                 optional: a Screaming Bell touching the
 *                                   Skaven infantry that push it may pursue
 *                                   and fall back (false)
 *     shooting: 3                   optional: stands that shoot (all stands)
 *     confused: false               optional (false)
 *     stand_and_shoot: false        optional (false): shoots at the enemy's
 *                                   charge before round 1
 *     shoots_first: false           optional (false): it shot at the enemy
 *                                   in its own previous turn (a volley with
 *                                   drive back): the charged side at the
 *                                   charger (confusing or routing it stops
 *                                   the charge), or the charger at its
 *                                   target; needs a charge and shooting
 *     pursue: always                optional: after winning a round, always
 *                                   (default: whenever the rules allow),
 *                                   never, or when-ahead (while it has at
 *                                   least as many stands as the loser)
 *     behind: open                  optional: what its retreats run into:
 *                                   open (default: nothing), impassable,
 *                                   enemy, unyielding (blocked stands are
 *                                   destroyed), friends (they make way, the
 *                                   retreater may be confused) or
 *                                   table-edge (leaving it destroys the unit)
 *     behind_cm: 0                  optional, cm: how far behind it is (0)
 *     behind_stands: 3              optional: stands whose retreat it blocks
 *                                   (all the unit's stands when behind is
 *                                   not open, else 0)
 *     rear_supports: 0              optional: of the supports, those from
 *                                   behind (0): a phalanx or skirmishers do
 *                                   not count them, a maniple rolls for them
 *     side_strikers: 0              optional: of the flanked stands, those
 *                                   striking to a side or rear edge (0;
 *                                   phalanx)
 *     long_base: false              optional (false): shock cavalry based on
 *                                   its long edge (needs the shock rule)
 *     dense_terrain: false          optional (false): in woods, a village,
 *                                   marsh or steep hills (no shieldwall)
 *     line_stands: 1                optional (1): enemy stands in the line of
 *                                   fire of a cannon's bounce or a bolt
 *                                   thrower's skewer (1 to 3)
 *     magic: battle-banner          optional: the unit's magic item with a dice
 *                                   effect (battle-banner, banner-of-shielding,
 *                                   banner-of-fortitude, banner-of-steadfastness,
 *                                   sword-of-destruction, sword-of-fate,
 *                                   sword-of-cleaving, sword-of-might); 1.1 and
 *                                   Revolution only
 *   b:                              required: side B, same keys as a
 *
 * Integers are decimal ("010" is ten), optionally signed; booleans are true
 * or false (also yes/no and on/off; lower case, Capitalised or UPPER). Keys
 * and names are case-sensitive; tabs are not allowed (YAML forbids them for
 * indentation); a file holds one YAML document. The value limits (1..12
 * stands, rear_supports <= supports, side_strikers <= flanked, long_base
 * only with shock, shoots_first only with a charge, ...) are the
 * engine's (engine/warmaster/check.c). Side keys that matter only after
 * the first round (pursue, behind...) are accepted by every kind.
 * Errors and their status codes:
 *   OM_EIO        the file cannot be read ("FILE: cannot read: REASON");
 *   OM_EPARSE     invalid YAML, an empty file, a document that is not a
 *                 mapping, a wrong or missing schema, an unknown, missing or
 *                 duplicate key or option, a value of the wrong type
 *                 ("three" for an integer, a list for a name), an unknown
 *                 troop type, position, kind, pursue or behind word,
 *                 special rule name or option name (with a "did you mean"
 *                 suggestion), a from or character that is not of the form
 *                 army/unit, a mount without a character;
 *   OM_EINVAL     an impossible value: negative, too large for its field, an
 *                 empty or over-long name, rejected by the engine's check
 *                 (0 stands, armour 1+, fighting > stands, supports on
 *                 cavalry, rear_supports > supports, ...) or by its option
 *                 registry (max_turns 101), a fixed reading given as an
 *                 option, a character or upgrade named by from, a
 *                 character that is not one, a mount the character cannot
 *                 ride;
 *   OM_ENOTFOUND  an unknown rule set, army, unit or mount (with a "did you
 *                 mean" suggestion when a name is close);
 *   OM_EUNSUPPORTED a list entry of a type the engine cannot fight with;
 *   OM_ENOMEM     out of memory.
 * LINE is that of the offending key (of the list entry, for a rule name; of
 * the name under options:, whose PATH is "options.NAME"); for a key that is
 * missing, or was left out and defaulted, it is the line of the key holding
 * its mapping ("unit:", "a:"), or of the first top-level key. For
 * invalid YAML it is where libyaml stopped, and PATH is the innermost key
 * being read there. A PATH of "(document)" means the file as a whole.
 */
#include "wm_scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "army.h"
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

static const cyaml_schema_field_t side_fields[] = {
    CYAML_FIELD_MAPPING("unit", CYAML_FLAG_DEFAULT, raw_side, unit, unit_fields),
    CYAML_FIELD_STRING_PTR("character", OPT, raw_side, character, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("mount", OPT, raw_side, mount, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("charging", OPT, raw_side, charging, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("position", OPT, raw_side, position, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("fighting", OPT, raw_side, fighting, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("flanked", OPT, raw_side, flanked, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("supports", OPT, raw_side, supports, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("support_units", OPT, raw_side, support_units, 0,
                           CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("extra_shots", OPT, raw_side, extra_shots, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("pushed", OPT, raw_side, pushed, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("target_cm", OPT, raw_side, target_cm, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("blind_fire", OPT, raw_side, blind_fire, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("evade", OPT, raw_side, evade, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("formation", OPT, raw_side, formation, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("beside_laager", OPT, raw_side, beside_laager, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("shugenja", OPT, raw_side, shugenja, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("caractacus", OPT, raw_side, caractacus, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("aura", OPT, raw_side, aura, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("power", OPT, raw_side, power, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("power_turn", OPT, raw_side, power_turn, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("attack_bonus", OPT, raw_side, attack_bonus, 0,
                           CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("shooting", OPT, raw_side, shooting, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("confused", OPT, raw_side, confused, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("stand_and_shoot", OPT, raw_side, stand_and_shoot, 0,
                           CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("shoots_first", OPT, raw_side, shoots_first, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("pursue", OPT, raw_side, pursue, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("behind", OPT, raw_side, behind, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("behind_cm", OPT, raw_side, behind_cm, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("behind_stands", OPT, raw_side, behind_stands, 0,
                           CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("rear_supports", OPT, raw_side, rear_supports, 0,
                           CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("side_strikers", OPT, raw_side, side_strikers, 0,
                           CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("long_base", OPT, raw_side, long_base, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("dense_terrain", OPT, raw_side, dense_terrain, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("line_stands", OPT, raw_side, line_stands, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("magic", OPT, raw_side, magic, 0, CYAML_UNLIMITED),
    CYAML_FIELD_END
};

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
static const char *const int_keys[] = {
    "stands", "attacks", "hits", "shots", "range", "pace", "points", "size", "fighting",
    "flanked", "supports", "support_units", "attack_bonus", "extra_shots", "power_turn", "target_cm",
    "shooting", "behind_cm", "behind_stands", "rear_supports", "side_strikers", "line_stands", NULL
};
static const char *const bool_keys[] = {
    "charging", "confused", "stand_and_shoot", "shoots_first", "long_base", "dense_terrain",
    "pushed", "blind_fire", "chaos_or_undead", "evade", "caractacus", "beside_laager",
    "shugenja", NULL
};

/* The unit keys required when there is no `from`, in the order checked. */
static const char *const required_unit_keys[] = {
    "name", "type", "stands", "attacks", "hits", "armour",
};

/* Most entries read under `options:`: more than the registry holds, so that
 * a file naming every option, or one twice, reaches the per-name checks. */
#define OPTIONS_MAX 64

static om_status unknown_key(const om_yaml_ctx *c, const char *path,
                             const cyaml_schema_field_t *fields, const char *key);

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
};

/* Report an unknown key `key` in the mapping at `path` whose schema is
 * `fields`: say where it belongs if it is a key of another level, else
 * suggest the nearest known key, else list the known keys. */
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
    /* An option of the engine's registry written outside `options:`. */
    if (om_wm_option_find(key))
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, key,
                               "unknown key '%s'%s%s; it is an option: put it under the "
                               "top-level 'options:'", key, path[0] ? " in " : "", path);
    return om_yaml_fail_unknown_key(c, path, fields, key);
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
    best = om_yaml_suggest(name, ids, n);
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
    /* Range defaults to the common bow range, 30 cm (digest 5.2), for a unit
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
        const char *best = om_yaml_suggest(id, mounts, n);
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

/* Convert one side ("a" or "b"). */
static om_status conv_side(const om_yaml_ctx *c, const om_wm_ruleset *rs, const char *side,
                           const raw_side *r, om_wm_side *s)
{
    const char *pos_names[OM_WM_POSITION_COUNT];
    char up[OM_YAML_PATH_MAX];
    unsigned v = 0;
    om_status st;

    snprintf(up, sizeof up, "%s.unit", side);
    if ((st = conv_unit(c, rs, up, &r->unit, &s->unit)) ||
        (st = conv_character(c, rs, side, r, s)) ||
        (st = om_yaml_conv_bool(c, side, "charging", r->charging, &s->charging)))
        return st;
    /* The formation unless the file names one (a War Wagon's column). */
    s->formation = om_wm_formation_default(&s->unit);
    if (r->formation) {
        if (!s->unit.traits.war_wagon)
            return om_yaml_fail_at(c, OM_EINVAL, 0, side, "formation",
                                   "only a War Wagon (rule war-wagon) has a formation");
        if ((st = conv_name(c, side, "formation", "formation", r->formation,
                            om_wm_formation_names + 1, OM_WM_FORMATION_COUNT - 1, &v)))
            return st;
        s->formation = (om_wm_formation)(v + 1);
    }
    s->position = OM_WM_OPEN;
    if (r->position) {
        for (unsigned i = 0; i < OM_WM_POSITION_COUNT; i++)
            pos_names[i] = om_wm_position_name((om_wm_position)i);
        if ((st = conv_name(c, side, "position", "position", r->position, pos_names,
                            OM_WM_POSITION_COUNT, &v)))
            return st;
        s->position = (om_wm_position)v;
    }
    /* The stands that fight and shoot unless the file says (all, or a War
     * Wagon's wagon stand); a character's bonus and shots apply unless
     * attack_bonus or extra_shots say otherwise. */
    if ((st = om_yaml_conv_u8(c, side, "fighting", r->fighting,
                              om_wm_active_stands_default(&s->unit), &s->fighting)) ||
        (st = om_yaml_conv_u8(c, side, "flanked", r->flanked, 0, &s->flanked)) ||
        (st = om_yaml_conv_u8(c, side, "supports", r->supports, 0, &s->supports)) ||
        (st = om_yaml_conv_u8(c, side, "support_units", r->support_units, 0,
                              &s->support_units)) ||
        (st = om_yaml_conv_u8(c, side, "attack_bonus", r->attack_bonus, s->attack_bonus,
                              &s->attack_bonus)) ||
        (st = om_yaml_conv_u8(c, side, "extra_shots", r->extra_shots, s->extra_shots,
                              &s->extra_shots)) ||
        (st = om_yaml_conv_u8(c, side, "shooting", r->shooting,
                              om_wm_active_stands_default(&s->unit), &s->shooting)) ||
        (st = om_yaml_conv_bool(c, side, "beside_laager", r->beside_laager,
                                &s->beside_laager)) ||
        (st = om_yaml_conv_bool(c, side, "shugenja", r->shugenja, &s->shugenja)) ||
        (st = om_yaml_conv_bool(c, side, "confused", r->confused, &s->confused)) ||
        (st = om_yaml_conv_bool(c, side, "stand_and_shoot", r->stand_and_shoot,
                                &s->stand_and_shoot)) ||
        (st = om_yaml_conv_bool(c, side, "shoots_first", r->shoots_first, &s->shoots_first)) ||
        (st = om_yaml_conv_bool(c, side, "pushed", r->pushed, &s->pushed)) ||
        (st = om_yaml_conv_bool(c, side, "blind_fire", r->blind_fire, &s->blind_fire)) ||
        (st = om_yaml_conv_bool(c, side, "evade", r->evade, &s->evade)) ||
        (st = om_yaml_conv_u8(c, side, "target_cm", r->target_cm, 0, &s->target_cm)) ||
        (st = om_yaml_conv_u8(c, side, "power_turn", r->power_turn, r->power ? 1u : 0u,
                              &s->power_turn)))
        return st;
    s->aura = OM_WM_AURA_NONE;
    if (r->aura) {
        if ((st = conv_name(c, side, "aura", "aura", r->aura, om_wm_aura_names,
                            OM_WM_AURA_COUNT, &v)))
            return st;
        s->aura = (om_wm_aura)v;
    }
    s->power = OM_WM_POWER_NONE;
    if (r->power) {
        if ((st = conv_name(c, side, "power", "once-a-battle power", r->power,
                            om_wm_power_names, OM_WM_POWER_COUNT, &v)))
            return st;
        s->power = (om_wm_power)v;
    }

    /* What a won round and a lost one lead to (engagements): the winner
     * pursues whenever allowed, and nothing stops a retreat, unless the file
     * says otherwise; what lies behind blocks every stand's path unless
     * behind_stands says fewer. */
    s->pursue = OM_WM_PURSUE_ALWAYS;
    if (r->pursue) {
        if ((st = conv_name(c, side, "pursue", "pursuit policy", r->pursue, om_wm_pursue_names,
                            OM_WM_PURSUE_COUNT, &v)))
            return st;
        s->pursue = (om_wm_pursue)v;
    }
    s->behind = OM_WM_BEHIND_OPEN;
    if (r->behind) {
        if ((st = conv_name(c, side, "behind", "kind of ground behind", r->behind,
                            om_wm_behind_names, OM_WM_BEHIND_COUNT, &v)))
            return st;
        s->behind = (om_wm_behind)v;
    }
    s->magic = OM_WM_MAGIC_NONE;
    if (r->magic) {
        /* Banner of Fortune's once-a-game re-roll is a player's decision, which
         * the engine does not make (README "What is simulated"). */
        if (strcmp(r->magic, "banner-of-fortune") == 0)
            return om_yaml_fail_at(c, OM_EUNSUPPORTED, 0, side, "magic",
                                   "banner-of-fortune is not modelled: when to use its "
                                   "once-a-game re-roll is the player's decision");
        if ((st = conv_name(c, side, "magic", "magic item", r->magic, om_wm_magic_names + 1,
                            OM_WM_MAGIC_COUNT - 1, &v)))
            return st;
        s->magic = (om_wm_magic)(v + 1);
    }
    if ((st = om_yaml_conv_u8(c, side, "behind_cm", r->behind_cm, 0, &s->behind_cm)) ||
        (st = om_yaml_conv_u8(c, side, "behind_stands", r->behind_stands,
                              s->behind == OM_WM_BEHIND_OPEN ? 0u : s->unit.stands,
                              &s->behind_stands)) ||
        (st = om_yaml_conv_u8(c, side, "rear_supports", r->rear_supports, 0,
                              &s->rear_supports)) ||
        (st = om_yaml_conv_u8(c, side, "side_strikers", r->side_strikers, 0,
                              &s->side_strikers)) ||
        (st = om_yaml_conv_bool(c, side, "long_base", r->long_base, &s->long_base)) ||
        (st = om_yaml_conv_bool(c, side, "dense_terrain", r->dense_terrain,
                                &s->dense_terrain)) ||
        (st = om_yaml_conv_u8(c, side, "line_stands", r->line_stands, 1, &s->line_stands)))
        return st;
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

/* Raise "unknown option" for the entry `p` of `options:`, suggesting the
 * nearest name of the engine's registry, else listing the switches. */
static om_status fail_unknown_option(const om_yaml_ctx *c, const om_yaml_pair *p)
{
    const char *names[OPTIONS_MAX], *switches[OPTIONS_MAX], *best;
    size_t n = 0, n_switches = 0;
    char known[OM_YAML_REASON_MAX / 2];

    for (size_t i = 0; i < om_wm_option_count() && n < OPTIONS_MAX; i++) {
        const om_wm_option *opt = om_wm_option_at(i);
        names[n++] = opt->name;
        if (opt->offset != OM_WM_OPTION_FIXED)
            switches[n_switches++] = opt->name;
    }
    best = om_yaml_suggest(p->key, names, n);
    if (best)
        return om_yaml_fail_at(c, OM_EPARSE, p->line, "options", p->key,
                               "unknown option '%s'; did you mean '%s'? (oddsmaster list "
                               "--options)", p->key, best);
    om_yaml_join_names(known, sizeof known, switches, n_switches);
    return om_yaml_fail_at(c, OM_EPARSE, p->line, "options", p->key,
                           "unknown option '%s'; the options are: %s (oddsmaster list "
                           "--options)", p->key, known);
}

/*
 * Convert the top-level `options:` (option name -> value) into *o through the
 * engine's registry (om_wm_option_set), which is the only list of names: an
 * option whose default reads "true" or "false" takes a boolean (spelt as
 * anywhere in the file), any other an integer. Errors at options.NAME:
 * OM_EPARSE for an unknown name (with a suggestion), a duplicate, or a value
 * of the wrong type; OM_EINVAL for a fixed reading, which cannot be switched,
 * or a value the engine rejects (max_turns above 100).
 */
static om_status conv_options(const om_yaml_ctx *c, om_wm_options *o)
{
    om_yaml_pair pairs[OPTIONS_MAX];
    size_t n = 0;
    om_status st;

    st = om_yaml_scalar_map(c, "options", "a mapping of option names to values, e.g. "
                            "'options: {max_turns: 5}' (oddsmaster list --options)",
                            pairs, OPTIONS_MAX, &n);
    for (size_t i = 0; st == OM_OK && i < n; i++) {
        for (size_t k = 0; k < i; k++)
            if (strcmp(pairs[k].key, pairs[i].key) == 0)
                st = om_yaml_fail_at(c, OM_EPARSE, pairs[i].line, "options", pairs[i].key,
                                     "duplicate option '%s' (first given at line %zu)",
                                     pairs[i].key, pairs[k].line);
        if (st == OM_OK)
            st = om_wm_load_option(c, &pairs[i], o);
    }
    return st;
}

om_status om_wm_load_option(const om_yaml_ctx *c, const om_yaml_pair *p, om_wm_options *o)
{
    const om_wm_options defaults = { 0 };
    const om_wm_option *opt = om_wm_option_find(p->key);
    const char *fixed, *dflt;
    char text[OM_YAML_PAIR_MAX], buf[32];
    long long v = 0;
    bool b = false;
    om_status st;
    int rc;

    if (!opt)
        return fail_unknown_option(c, p);
    if (opt->offset == OM_WM_OPTION_FIXED) {
        fixed = strncmp(opt->default_value, "fixed: ", 7) == 0 ? opt->default_value + 7
                                                             : opt->default_value;
        return om_yaml_fail_at(c, OM_EINVAL, p->line, "options", p->key,
                               "'%s' is a fixed reading, not a switch: %s (%s, digest %s); "
                               "remove it (oddsmaster list --options)", p->key, fixed,
                               opt->ambiguity, opt->section);
    }
    /* The default's text tells a boolean switch from a number. */
    dflt = om_wm_option_value(&defaults, opt, buf, sizeof buf);
    if (strcmp(dflt, "true") == 0 || strcmp(dflt, "false") == 0) {
        if ((st = om_yaml_conv_bool(c, "options", p->key, p->value, &b)))
            return st;
        snprintf(text, sizeof text, "%s", b ? "true" : "false");
    } else if ((rc = om_yaml_parse_integer(p->value, &v)) == -1) {
        return om_yaml_fail_at(c, OM_EPARSE, p->line, "options", p->key,
                               "expected an integer, got '%s'", p->value);
    } else if (rc == 0) {
        snprintf(text, sizeof text, "%lld", v);
    } else {
        /* Beyond any long long: the engine's range check says so. */
        snprintf(text, sizeof text, "%s", p->value);
    }
    if (om_wm_option_set(o, p->key, text) != OM_OK)
        return om_yaml_fail_at(c, om_error_code(), p->line, "options", p->key, "%s",
                               om_error_message());
    return OM_OK;
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
        best = om_yaml_suggest(r->ruleset, names, OM_WM_RULES_COUNT);
        return om_yaml_fail_at(c, OM_ENOTFOUND, 0, NULL, "ruleset",
                               "unknown rule set '%s'; %s%s%sknown rule sets: %s", r->ruleset,
                               best ? "did you mean '" : "", best ? best : "",
                               best ? "'? " : "", known);
    }
    e->kind = OM_WM_KIND_COMBAT;
    if (r->kind) {
        if ((st = conv_name(c, NULL, "kind", "kind", r->kind, om_wm_kind_names,
                            OM_WM_KIND_COUNT, &v)))
            return st;
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
