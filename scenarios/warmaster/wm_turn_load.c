/*
 * wm_turn_load.c: load and validate scenario files of `kind: turn`, a whole
 * turn of one side (wm_turn_scenario.h; docs/manual.md, "Whole turns"). The steps are
 * load.c's: a libyaml walk checks the syntax and schema; libcyaml maps the
 * document onto raw strings with a strict schema, built here from the side
 * keys of load.c (a turn's unit is written with the keys of an engagement's
 * side) and the turn's own keys; the strings are converted by hand, each unit
 * by load.c's own conversion of a side (om_wm_load_side); the engine checks
 * the table, the Command phase and every unit (om_wm_turn_check), and its
 * failure's path ("plans[3].by") is turned back into the file's ("a.units[1].
 * plan.by") to name the line. Every error is one message "FILE:LINE: field
 * 'PATH': REASON".
 *
 * TURN FILE FORMAT (schema "oddsmaster-scenario/1", kind turn; see
 * scenarios/examples/turns/cavalry-wing.yaml)
 *
 *   schema: oddsmaster-scenario/1   required
 *   title: A cavalry wing charges   optional; default "<A> against <B>: a
 *                                   turn of <the moving side>"
 *   ruleset: warmaster-revolution   required (as for any scenario)
 *   kind: turn                      required here
 *   moving: a                       optional: the side whose turn it is, a
 *                                   (default) or b; only its units take
 *                                   orders, shoot and charge
 *   issue: general-last             optional: the order characters issue
 *                                   orders in: general-last (default),
 *                                   general-first or declared
 *   table: {width: 180, depth: 120} optional, cm: the rule set's table by
 *                                   default (Ancients 240 x 120)
 *   options:                        optional: the engine's options (as for
 *     general_blunders: true        any scenario) and the Command phase's:
 *                                   general_blunders, alternative_blunder,
 *                                   command_distance_per_full_20
 *                                   (oddsmaster list --options; the turn's
 *                                   own readings are fixed)
 *   terrain:                        optional, at most 16 pieces:
 *     - kind: wood                  wood, village, marsh, hill, steep-hill,
 *                                   stream, river, low-obstacle,
 *                                   high-obstacle, building
 *       points: [[80, 70], [100, 90]]  2 opposite corners of a rectangle, or
 *                                   3 to 8 corners of a convex polygon, cm
 *   a:                              required: side A (and b: side B)
 *     name: Empire                  optional: the army's name ("side A")
 *     units:                        required, 1 to 64 units a side, 128 in
 *                                   all (the table's):
 *       - id: knights               required: lower-case letters, digits and
 *                                   _, starting with a letter, at most 23;
 *                                   unique in the file; names the unit in
 *                                   the result file's table of units and
 *                                   its per-unit results (/units)
 *         unit: {from: empire/knights}  required: the unit's values, exactly
 *                                   the unit keys of any scenario
 *         character: empire/hero    optional, and every other side key of an
 *         position: open            engagement that the table does not
 *         confused: false           decide: mount, position, confused,
 *         ...                       dense_terrain, pursue, magic,
 *                                   attack_bonus, extra_shots, shooting,
 *                                   aura, power, power_turn, beside_laager,
 *                                   shugenja, pushed, long_base, line_stands.
 *                                   The table decides charging, fighting,
 *                                   flanked, supports, support_units,
 *                                   rear_supports, side_strikers, behind,
 *                                   behind_cm, behind_stands, shoots_first,
 *                                   evade, target_cm, blind_fire (and a War
 *                                   Wagon stays in column): those keys are
 *                                   errors here
 *         at: [90, 20]              required, cm: the centre of its stands
 *         facing: 90                optional, degrees (0 faces +x, 90 +y):
 *                                   default 90 for side A, 270 for side B
 *         formation: line           optional: line (default), column or
 *                                   irregular (with files: 2..stands-1)
 *         hits: 0                   optional: hits it carries (an unresolved
 *                                   combat's), fewer than its Hits
 *         initiative: auto          optional: auto (default: charge only the
 *                                   enemy its plan charges), charge, evade,
 *                                   never
 *         shoot: closest            optional: closest (default: the closest
 *                                   visible enemy in range) or hold
 *         stand_and_shoot: true     optional: shoots at enemies charging or
 *                                   advancing on it when the rules allow
 *                                   (default true)
 *         plan:                     optional: what it tries in its side's
 *           kind: charge            Command phase: hold (default), charge,
 *                                   advance, shoot
 *           target: spearmen        charge, shoot: an enemy unit's id or
 *                                   closest (default); advance: any unit's
 *                                   id (or goal)
 *           goal: [90, 60]          advance: a point to move toward
 *           keep_cm: 5              advance toward a unit: the distance to
 *                                   keep from it
 *           by: general             the id of the character of its side that
 *                                   orders it (none: it takes no orders)
 *           orders: 2               the most orders to give (0..3, 0: 3)
 *           priority: 0             lower goes first (0..255, default 0)
 *     characters:                   optional, at most 24 in all:
 *       - id: general               required, as a unit's id (unique among
 *                                   units and characters)
 *         from: empire/general      optional: a general, hero or wizard of
 *                                   the army lists: its name, kind and
 *                                   Command (an Ancients Subordinate orders
 *                                   as a Wizard, a Leader as a Hero)
 *         kind: general             without from (not with it): general,
 *                                   hero or wizard
 *         command: 9                without from, or to override: 1..12
 *         name: General             optional
 *         at: [90, 10]              required unless joined (not with it)
 *         joined: knights           optional: a unit of its side it has
 *                                   joined (it stands at its centre)
 *         follow: knights           optional: a unit it moves to join at the
 *                                   end of the Command phase
 *         flying: false             optional: rides a flyer (moves 100cm)
 *     brigades:                     optional, at most 16 in all:
 *       - units: [knights, riders]  2 to 4 touching units of the side
 *         plan: {kind: advance, goal: [90, 60], by: general}
 *                                   optional: ordered as one (as a unit's)
 * Errors and codes are load.c's: OM_EPARSE (syntax, unknown or missing key,
 * wrong type, unknown word, unknown unit or character id, with suggestions),
 * OM_EINVAL (an impossible value or layout: units overlapping or off the
 * table, a brigade that does not touch, a character that cannot reach the
 * unit it orders, more than 64 units a side; the engine's check names the
 * field), OM_ENOTFOUND (army lists), OM_EUNSUPPORTED, OM_ENOMEM.
 */
#include "wm_turn_scenario.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "army.h"
#include "wm_load_int.h"
#include "yaml_int.h"

const char *const om_wm_turn_formation_names[OM_WM_TURN_FORMATIONS] = {"line", "column",
                                                                      "irregular"};
_Static_assert(OM_WM_TABLE_LINE == 0 && OM_WM_TABLE_COLUMN == 1 &&
                   OM_WM_TABLE_IRREGULAR == 2 && OM_WM_TURN_FORMATIONS == 3,
               "the formations' names are in om_wm_table_formation order");

/* Name for text loaded without a source name. */
#define SOURCE_UNNAMED "<text>"

/* Most units a side, characters, brigades and terrain pieces a file may give
 * (the table's and the turn's capacities). */
#define UNITS_MAX OM_WM_TURN_SIDE_UNITS_MAX
#define CHARACTERS_MAX OM_WM_TABLE_MAX_CHARACTERS
#define BRIGADES_MAX OM_WM_TABLE_MAX_BRIGADES
#define TERRAIN_MAX OM_WM_TABLE_MAX_TERRAIN

/* Most entries under `options:`, as load.c. */

/* ---------------------------------------------------------------------------
 * The raw document.
 */

typedef struct raw_plan {
    char *kind;     /* hold, charge, advance, shoot */
    char *target;   /* a unit id or "closest" */
    char *goal[2];  /* a point (x, y) */
    char *keep_cm;  /* advance toward a unit: distance kept */
    char *by;       /* the ordering character's id */
    char *orders;   /* most orders */
    char *priority; /* order of issue */
} raw_plan;

typedef struct raw_turn_unit {
    om_wm_raw_side side;   /* first: the side keys (load.c's schema) are its */
    char *id;              /* required */
    char *at[2];           /* required: centre (x, y) */
    char *facing;          /* degrees */
    char *formation;       /* line, column, irregular */
    char *files;           /* irregular: stands abreast */
    char *hits;            /* hits carried */
    char *initiative;      /* auto, charge, evade, never */
    char *shoot;           /* closest, hold */
    char *stand_and_shoot; /* boolean */
    raw_plan *plan;        /* NULL: hold */
} raw_turn_unit;

typedef struct raw_character {
    char *id;      /* required */
    char *from;    /* army/unit */
    char *name;    /* display name */
    char *kind;    /* general, hero, wizard */
    char *command; /* Command value */
    char *at[2];   /* where it stands */
    char *joined;  /* a unit id */
    char *follow;  /* a unit id */
    char *flying;  /* boolean */
} raw_character;

typedef struct raw_brigade {
    char **units;         /* unit ids */
    unsigned units_count; /* entries of units */
    raw_plan *plan;       /* NULL: not ordered as one */
} raw_brigade;

typedef struct raw_army {
    char *name;                    /* the army's name */
    raw_turn_unit *units;          /* its units */
    unsigned units_count;
    raw_character *characters;     /* its characters */
    unsigned characters_count;
    raw_brigade *brigades;         /* its brigades */
    unsigned brigades_count;
} raw_army;

typedef struct raw_table {
    char *width; /* cm */
    char *depth; /* cm */
} raw_table;

typedef struct raw_turn {
    char *schema, *title, *ruleset, *kind, *moving, *issue;
    raw_table *table;
    raw_army a, b;
    om_wm_raw_terrain *terrain;
    unsigned terrain_count;
} raw_turn;

#define OPT (CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL)
#define STR(key, type, member) CYAML_FIELD_STRING_PTR(key, OPT, type, member, 0, CYAML_UNLIMITED)

static const cyaml_schema_value_t string_entry = {
    CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};
static const cyaml_schema_field_t plan_fields[] = {
    STR("kind", raw_plan, kind),
    STR("target", raw_plan, target),
    CYAML_FIELD_SEQUENCE_FIXED("goal", CYAML_FLAG_OPTIONAL, raw_plan, goal, &string_entry, 2),
    STR("keep_cm", raw_plan, keep_cm),
    STR("by", raw_plan, by),
    STR("orders", raw_plan, orders),
    STR("priority", raw_plan, priority),
    CYAML_FIELD_END
};

/* The turn's own keys of a unit (the side keys come first, from load.c). */
static const cyaml_schema_field_t unit_turn_fields[] = {
    STR("id", raw_turn_unit, id),
    CYAML_FIELD_SEQUENCE_FIXED("at", CYAML_FLAG_OPTIONAL, raw_turn_unit, at, &string_entry, 2),
    STR("facing", raw_turn_unit, facing),
    STR("formation", raw_turn_unit, formation),
    STR("files", raw_turn_unit, files),
    STR("hits", raw_turn_unit, hits),
    STR("initiative", raw_turn_unit, initiative),
    STR("shoot", raw_turn_unit, shoot),
    STR("stand_and_shoot", raw_turn_unit, stand_and_shoot),
    CYAML_FIELD_MAPPING_PTR("plan", OPT, raw_turn_unit, plan, plan_fields),
    CYAML_FIELD_END
};

/* Side keys the table decides in a turn: not accepted (unknown_key says why). */
static const char *const table_decides[] = {
    "charging", "advancing", "fighting", "flanked", "supports", "support_units", "rear_supports",
    "side_strikers", "behind", "behind_cm", "behind_stands", "shoots_first", "evade",
    "target_cm", "blind_fire", "caractacus", "stand_and_shoot", "formation", NULL};

static const cyaml_schema_field_t character_fields[] = {
    STR("id", raw_character, id),
    STR("from", raw_character, from),
    STR("name", raw_character, name),
    STR("kind", raw_character, kind),
    STR("command", raw_character, command),
    CYAML_FIELD_SEQUENCE_FIXED("at", CYAML_FLAG_OPTIONAL, raw_character, at, &string_entry, 2),
    STR("joined", raw_character, joined),
    STR("follow", raw_character, follow),
    STR("flying", raw_character, flying),
    CYAML_FIELD_END
};
static const cyaml_schema_value_t character_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, raw_character, character_fields),
};

static const cyaml_schema_field_t brigade_fields[] = {
    CYAML_FIELD_SEQUENCE("units", CYAML_FLAG_POINTER, raw_brigade, units, &string_entry, 0,
                         CYAML_UNLIMITED),
    CYAML_FIELD_MAPPING_PTR("plan", OPT, raw_brigade, plan, plan_fields),
    CYAML_FIELD_END
};
static const cyaml_schema_value_t brigade_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, raw_brigade, brigade_fields),
};

static const cyaml_schema_field_t table_fields[] = {
    STR("width", raw_table, width),
    STR("depth", raw_table, depth),
    CYAML_FIELD_END
};

/* Most side keys load.c has, with room to spare. */
#define SIDE_FIELDS_MAX 64

/* The schema of a turn file, built for each load: a unit's fields are load.c's
 * side keys (less those the table decides) and the turn's own. */
typedef struct turn_schema {
    cyaml_schema_field_t unit_fields[SIDE_FIELDS_MAX + 16];
    cyaml_schema_value_t unit_entry;
    cyaml_schema_field_t army_fields[5];
    cyaml_schema_field_t top_fields[12];
    cyaml_schema_value_t top;
    const char *int_keys[SIDE_FIELDS_MAX + 8];
    const char *bool_keys[SIDE_FIELDS_MAX + 8];
    om_yaml_doc doc;
} turn_schema;

static bool in_list(const char *const *list, const char *s)
{
    for (; *list; list++)
        if (strcmp(*list, s) == 0)
            return true;
    return false;
}

static om_status unknown_key(const om_yaml_ctx *c, const char *path,
                             const cyaml_schema_field_t *fields, const char *key);

/* The registries whose switches go under `options:`. */
static const om_option_table *const option_registries[] = {
    &om_wm_option_registry, &om_wm_command_option_registry, NULL};

/* Keys of the turn's own that hold integers and booleans. */
static const char *const turn_int_keys[] = {"files", "orders", "priority", "command", NULL};
static const char *const turn_bool_keys[] = {"flying", NULL};

/* Build the schema of a turn file into *s. */
static void build_schema(turn_schema *s)
{
    size_t n = 0, k = 0;
    memset(s, 0, sizeof *s);
    for (const cyaml_schema_field_t *f = om_wm_load_side_fields; f->key && n < SIDE_FIELDS_MAX;
         f++)
        if (!in_list(table_decides, f->key))
            s->unit_fields[n++] = *f;
    for (const cyaml_schema_field_t *f = unit_turn_fields; f->key; f++)
        s->unit_fields[n++] = *f;
    s->unit_entry = (cyaml_schema_value_t){
        CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, raw_turn_unit, s->unit_fields)};
    {
        const cyaml_schema_field_t army[] = {
            STR("name", raw_army, name),
            CYAML_FIELD_SEQUENCE("units", CYAML_FLAG_POINTER, raw_army, units, &s->unit_entry,
                                 0, CYAML_UNLIMITED),
            CYAML_FIELD_SEQUENCE("characters", OPT, raw_army, characters, &character_entry, 0,
                                 CYAML_UNLIMITED),
            CYAML_FIELD_SEQUENCE("brigades", OPT, raw_army, brigades, &brigade_entry, 0,
                                 CYAML_UNLIMITED),
            CYAML_FIELD_END};
        memcpy(s->army_fields, army, sizeof army);
    }
    {
        const cyaml_schema_field_t top[] = {
            CYAML_FIELD_STRING_PTR("schema", CYAML_FLAG_POINTER, raw_turn, schema, 0,
                                   CYAML_UNLIMITED),
            STR("title", raw_turn, title),
            CYAML_FIELD_STRING_PTR("ruleset", CYAML_FLAG_POINTER, raw_turn, ruleset, 0,
                                   CYAML_UNLIMITED),
            STR("kind", raw_turn, kind),
            STR("moving", raw_turn, moving),
            STR("issue", raw_turn, issue),
            CYAML_FIELD_MAPPING_PTR("table", OPT, raw_turn, table, table_fields),
            CYAML_FIELD_IGNORE("options", CYAML_FLAG_OPTIONAL),
            CYAML_FIELD_MAPPING("a", CYAML_FLAG_DEFAULT, raw_turn, a, s->army_fields),
            CYAML_FIELD_MAPPING("b", CYAML_FLAG_DEFAULT, raw_turn, b, s->army_fields),
            CYAML_FIELD_SEQUENCE("terrain", OPT, raw_turn, terrain, &om_wm_load_terrain_entry, 0,
                                 CYAML_UNLIMITED),
            CYAML_FIELD_END};
        memcpy(s->top_fields, top, sizeof top);
    }
    s->top = (cyaml_schema_value_t){
        CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, raw_turn, s->top_fields)};
    for (const char *const *p = om_wm_load_int_keys; *p; p++)
        s->int_keys[k++] = *p;
    for (const char *const *p = turn_int_keys; *p; p++)
        s->int_keys[k++] = *p;
    s->int_keys[k] = NULL;
    k = 0;
    for (const char *const *p = om_wm_load_bool_keys; *p; p++)
        s->bool_keys[k++] = *p;
    for (const char *const *p = turn_bool_keys; *p; p++)
        s->bool_keys[k++] = *p;
    s->bool_keys[k] = NULL;
    s->doc = (om_yaml_doc){
        .schema = OM_SCENARIO_SCHEMA,
        .what = "a scenario file of kind turn",
        .keys = "schema, ruleset, kind, a, b",
        .top = &s->top,
        .int_keys = s->int_keys,
        .bool_keys = s->bool_keys,
        .list_expects = "a list of names (a unit's rules, a brigade's unit ids)",
        .entry_expects = "a name",
        .unknown_key = unknown_key,
        .options = option_registries,
        .value_max = OM_YAML_SCALAR_MAX,
    };
}

/* An unknown key that is a side key the table decides: say so (OM_OK for
 * any other: the common messages follow, om_yaml_doc.unknown_key). */
static om_status unknown_key(const om_yaml_ctx *c, const char *path,
                             const cyaml_schema_field_t *fields, const char *key)
{
    (void)fields;
    if (in_list(table_decides, key) && om_yaml_field_find(om_wm_load_side_fields, key))
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, key,
                               "'%s' is decided by the table in a turn (charges, contacts, "
                               "supports, what lies behind, ranges); remove it", key);
    return OM_OK;
}

/* ---------------------------------------------------------------------------
 * Conversion.
 */

/* Everything a conversion needs: the document, the rule set, the turn being
 * filled, and where each table unit and character came from. */
typedef struct conv {
    const om_yaml_ctx *c;
    const om_wm_ruleset *rs;
    om_wm_turn_scenario *ts;
    unsigned first_unit[2];                     /* table index of each side's first unit */
    unsigned first_character[2];                /* ...of its first character */
    unsigned first_brigade[2];                  /* ...of its first brigade */
    char character_id[OM_WM_TABLE_MAX_CHARACTERS][OM_WM_TURN_ID_MAX];
} conv;

static const char *const side_keys[2] = {"a", "b"};

/* An id: a lower-case letter, then lower-case letters, digits and _. */
static om_status conv_id(const om_yaml_ctx *c, const char *path, const char *id, char *out)
{
    size_t n = id ? strlen(id) : 0;
    if (id == NULL)
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, "id", "required key 'id' is missing");
    if (n == 0 || n >= OM_WM_TURN_ID_MAX || id[0] < 'a' || id[0] > 'z' ||
        strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789_") != n)
        return om_yaml_fail_at(c, OM_EINVAL, 0, path, "id",
                               "'%s' is not an id: a lower-case letter, then lower-case "
                               "letters, digits or _, at most %d in all", id,
                               OM_WM_TURN_ID_MAX - 1);
    memcpy(out, id, n + 1);
    return OM_OK;
}

/* The table unit with id `id`, or -1. */
static int unit_of_id(const conv *v, const char *id)
{
    for (unsigned u = 0; u < v->ts->turn.table.units; u++)
        if (strcmp(v->ts->id[u], id) == 0)
            return (int)u;
    return -1;
}

static int character_of_id(const conv *v, const char *id)
{
    for (unsigned k = 0; k < v->ts->turn.table.characters; k++)
        if (strcmp(v->character_id[k], id) == 0)
            return (int)k;
    return -1;
}

/* Raise "unknown unit" (or character) `id` at prefix.key, suggesting the
 * nearest id of the file. */
static om_status fail_unknown_id(const conv *v, const char *prefix, const char *key,
                                 const char *id, bool character)
{
    const char *ids[OM_WM_TABLE_MAX_UNITS + OM_WM_TABLE_MAX_CHARACTERS] = {NULL};
    size_t n = 0;
    char known[OM_YAML_REASON_MAX / 2];
    const char *best;
    if (character)
        for (unsigned k = 0; k < v->ts->turn.table.characters; k++)
            ids[n++] = v->character_id[k];
    else
        for (unsigned u = 0; u < v->ts->turn.table.units; u++)
            ids[n++] = v->ts->id[u];
    best = om_suggest(id, ids, n);
    om_yaml_join_names(known, sizeof known, ids, n);
    if (best)
        return om_yaml_fail_at(v->c, OM_EPARSE, 0, prefix, key,
                               "unknown %s '%s'; did you mean '%s'?",
                               character ? "character" : "unit", id, best);
    return om_yaml_fail_at(v->c, OM_EPARSE, 0, prefix, key, "unknown %s '%s'; the %s are: %s",
                           character ? "character" : "unit", id,
                           character ? "characters" : "units", n ? known : "none");
}

/* The rules a unit carries (modelled and not) that the table model reads,
 * as its trait bits (table.h): army-list rule ids, Warmaster Ancients, Special
 * Rules and the army lists (the units that see all round, must charge on
 * initiative, are Slow or Unreliable, warbands, skirmishers, flyers). */
static const struct {
    const char *id;
    uint32_t traits;
} rule_traits[] = {
    {"slow", OM_WM_TABLE_TRAIT_SLOW},
    {"unreliable", OM_WM_TABLE_TRAIT_UNRELIABLE},
    {"warband", OM_WM_TABLE_TRAIT_WARBAND},
    {"skirmish", OM_WM_TABLE_TRAIT_SKIRMISH | OM_WM_TABLE_TRAIT_ALL_ROUND},
    /* "must charge on initiative" without a condition (those that must charge
     * only some enemies, Ogres and Zealots, choose as any unit). */
    {"berserkers", OM_WM_TABLE_TRAIT_MUST_CHARGE}, {"fanatics", OM_WM_TABLE_TRAIT_MUST_CHARGE},
    {"flagellants", OM_WM_TABLE_TRAIT_MUST_CHARGE}, {"knights", OM_WM_TABLE_TRAIT_MUST_CHARGE},
    {"mikata", OM_WM_TABLE_TRAIT_MUST_CHARGE}, {"minotaurs", OM_WM_TABLE_TRAIT_MUST_CHARGE},
    {"plague-monks", OM_WM_TABLE_TRAIT_MUST_CHARGE},
    {"troll-slayers", OM_WM_TABLE_TRAIT_MUST_CHARGE},
    {"valkyries", OM_WM_TABLE_TRAIT_MUST_CHARGE},
    {"witch-elves", OM_WM_TABLE_TRAIT_MUST_CHARGE},
    /* 360-degree vision (the lists' summaries). */
    {"centigors", OM_WM_TABLE_TRAIT_ALL_ROUND}, {"chaos-spawn", OM_WM_TABLE_TRAIT_ALL_ROUND},
    {"desert-riders", OM_WM_TABLE_TRAIT_ALL_ROUND}, {"gyrocopter", OM_WM_TABLE_TRAIT_ALL_ROUND},
    {"hobgoblins", OM_WM_TABLE_TRAIT_ALL_ROUND},
    {"horse-archers-cossacks", OM_WM_TABLE_TRAIT_ALL_ROUND},
    {"hu-cavalry", OM_WM_TABLE_TRAIT_ALL_ROUND}, {"light-cavalry", OM_WM_TABLE_TRAIT_ALL_ROUND},
    {"magic-carpets", OM_WM_TABLE_TRAIT_ALL_ROUND}, {"ninja", OM_WM_TABLE_TRAIT_ALL_ROUND},
    {"pistoliers", OM_WM_TABLE_TRAIT_ALL_ROUND}, {"skinks", OM_WM_TABLE_TRAIT_ALL_ROUND},
    {"steam-tank", OM_WM_TABLE_TRAIT_ALL_ROUND}, {"stegadon", OM_WM_TABLE_TRAIT_ALL_ROUND},
    {"terradons", OM_WM_TABLE_TRAIT_ALL_ROUND},
    {"warhawk-riders", OM_WM_TABLE_TRAIT_ALL_ROUND}, {"wolf-riders", OM_WM_TABLE_TRAIT_ALL_ROUND},
};

/* Whether unit u carries rule `id`, modelled or recorded as not modelled. */
static bool carries(const om_wm_unit *u, const char *id)
{
    const size_t n = strlen(id);
    for (unsigned i = 0; i < u->rule_count; i++)
        if (strcmp(om_wm_special_at(u->rule[i])->id, id) == 0)
            return true;
    for (const char *p = u->unmodelled; *p;) {
        size_t len = strcspn(p, ",");
        const char *q = p;
        while (*q == ' ')
            q++, len--;
        if (len == n && strncmp(q, id, n) == 0)
            return true;
        p += strcspn(p, ",");
        p += *p == ',';
    }
    return false;
}

static uint32_t table_traits(const om_wm_unit *u)
{
    uint32_t t = u->traits.flies ? OM_WM_TABLE_TRAIT_FLYER : 0u;
    for (size_t i = 0; i < sizeof rule_traits / sizeof rule_traits[0]; i++)
        if (carries(u, rule_traits[i].id))
            t |= rule_traits[i].traits;
    return t;
}

/* Unit k of side s: its values (load.c's conversion of a side) and its place
 * on the table. */
static om_status conv_unit(conv *v, unsigned s, unsigned k, const raw_turn_unit *r)
{
    const om_yaml_ctx *c = v->c;
    om_wm_turn *turn = &v->ts->turn;
    char path[OM_YAML_PATH_MAX];
    om_wm_turn_unit *tu;
    om_wm_table_unit *t;
    om_wm_vec centre;
    double facing = s == 0 ? 90 : 270;
    unsigned f = OM_WM_TABLE_LINE, word = 0;
    int i;
    om_status st;

    snprintf(path, sizeof path, "%s.units[%u]", side_keys[s], k);
    i = turn->table.units;
    if ((st = conv_id(c, path, r->id, v->ts->id[i])))
        return st;
    /* The units before this one: a duplicate is found, this one not yet. */
    if (unit_of_id(v, r->id) >= 0)
        return om_yaml_fail_at(c, OM_EINVAL, 0, path, "id", "unit id '%s' is given twice",
                               r->id);
    tu = &turn->unit[i];
    if ((st = om_wm_load_side(c, v->rs, path, &r->side, &tu->side)))
        return st;
    if (r->at[0] == NULL && r->at[1] == NULL)
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, "at",
                               "required key 'at' is missing: the centre of its stands, [x, y] "
                               "in cm");
    if ((st = om_wm_load_point(c, path, "at", r->at, &centre)) ||
        (r->facing && (st = om_wm_load_real(c, path, "facing", r->facing, -360, 360, &facing))))
        return st;
    if (r->formation) {
        if ((st = om_wm_load_name(c, path, "formation", "formation", r->formation,
                                  om_wm_turn_formation_names, OM_WM_TURN_FORMATIONS, &word)))
            return st;
        f = word;
    }
    if (om_wm_table_add_unit(&turn->table, v->rs->id, tu->side.unit.name, s, tu->side.unit.troop,
                             om_wm_unit_size(&tu->side.unit), (om_wm_table_formation)f, centre,
                             facing) != i)
        return om_yaml_fail_at(c, OM_EINVAL, 0, path, NULL, "the table cannot hold this unit "
                               "(at most %d units, %d stands a unit)", OM_WM_TABLE_MAX_UNITS,
                               OM_WM_TABLE_MAX_STANDS);
    t = &turn->table.unit[i];
    t->stands = tu->side.unit.stands;
    t->pace_cm = tu->side.unit.pace_cm;
    t->range_cm = tu->side.unit.range_cm;
    t->position = tu->side.position;
    t->dense = tu->side.dense_terrain;
    t->confused = tu->side.confused;
    t->traits = table_traits(&tu->side.unit);
    if ((st = om_yaml_conv_u8(c, path, "files", r->files, 2, &t->files)) ||
        (st = om_yaml_conv_u8(c, path, "hits", r->hits, 0, &t->hits)) ||
        (st = om_yaml_conv_bool(c, path, "stand_and_shoot", r->stand_and_shoot,
                                &tu->stand_and_shoot)))
        return st;
    if (r->files && f != OM_WM_TABLE_IRREGULAR)
        return om_yaml_fail_at(c, OM_EINVAL, 0, path, "files",
                               "files are for an irregular formation only");
    tu->stand_and_shoot = r->stand_and_shoot ? tu->stand_and_shoot : true;
    tu->shoot = OM_WM_SHOOT_CLOSEST;
    if (r->shoot) {
        if ((st = om_wm_load_name(c, path, "shoot", "shooting policy", r->shoot,
                                  om_wm_shoot_policy_names, OM_WM_SHOOT_POLICY_COUNT, &word)))
            return st;
        tu->shoot = (om_wm_shoot_policy)word;
    }
    return OM_OK;
}

/* A plan at `path` ("a.units[0].plan") for table unit `self` of side s (a
 * brigade: self -1) into *p; r NULL: hold. */
static om_status conv_plan(conv *v, unsigned s, const char *path, int self, const raw_plan *r,
                           om_wm_plan *p)
{
    const om_yaml_ctx *c = v->c;
    unsigned word = 0;
    int id;
    om_status st;
    *p = (om_wm_plan){.kind = OM_WM_PLAN_HOLD, .target = -1, .by = -1};
    if (r == NULL)
        return OM_OK;
    if (r->kind) {
        if ((st = om_wm_load_name(c, path, "kind", "plan", r->kind, om_wm_plan_names,
                                  OM_WM_PLAN_KIND_COUNT, &word)))
            return st;
        p->kind = (om_wm_plan_kind)word;
    }
    if (r->target && strcmp(r->target, "closest") != 0) {
        if ((id = unit_of_id(v, r->target)) < 0)
            return fail_unknown_id(v, path, "target", r->target, false);
        if (id == self)
            return om_yaml_fail_at(c, OM_EINVAL, 0, path, "target", "a unit cannot aim at "
                                   "itself");
        p->target = (int8_t)id;
    }
    if (r->goal[0] || r->goal[1]) {
        if ((st = om_wm_load_point(c, path, "goal", r->goal, &p->goal)))
            return st;
        if (p->kind != OM_WM_PLAN_ADVANCE || p->target >= 0)
            return om_yaml_fail_at(c, OM_EINVAL, 0, path, "goal", "a goal is for an advance "
                                   "without a target");
    } else if (p->kind == OM_WM_PLAN_ADVANCE && p->target < 0) {
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, "goal", "an advance needs a goal [x, y] "
                               "or a target unit");
    }
    if (r->keep_cm && (st = om_wm_load_real(c, path, "keep_cm", r->keep_cm, 0, OM_WM_LOAD_CM_MAX,
                                      &p->keep_cm)))
        return st;
    if (r->by) {
        if ((id = character_of_id(v, r->by)) < 0)
            return fail_unknown_id(v, path, "by", r->by, true);
        if (v->ts->turn.table.character[id].side != s)
            return om_yaml_fail_at(c, OM_EINVAL, 0, path, "by", "'%s' is a character of the "
                                   "other side", r->by);
        p->by = (int8_t)id;
    }
    if ((st = om_yaml_conv_u8(c, path, "orders", r->orders, 0, &p->orders)) ||
        (st = om_yaml_conv_u8(c, path, "priority", r->priority, 0, &p->priority)))
        return st;
    return OM_OK;
}


/* Character k of side s. */
static om_status conv_character(conv *v, unsigned s, unsigned k, const raw_character *r)
{
    const char *const *kinds = om_wm_character_kind_names;
    const om_yaml_ctx *c = v->c;
    om_wm_table *t = &v->ts->turn.table;
    char path[OM_YAML_PATH_MAX], name[32] = "";
    om_wm_character_kind kind = OM_WM_HERO;
    unsigned command = 0, word = 0;
    om_wm_vec where = {0, 0};
    int i = t->characters, joined = -1, follow = -1;
    bool flying = false;
    om_status st;

    snprintf(path, sizeof path, "%s.characters[%u]", side_keys[s], k);
    if ((st = conv_id(c, path, r->id, v->character_id[i])))
        return st;
    if (character_of_id(v, r->id) >= 0 || unit_of_id(v, r->id) >= 0)
        return om_yaml_fail_at(c, OM_EINVAL, 0, path, "id", "id '%s' is given twice", r->id);
    if (r->from && r->kind)
        return om_yaml_fail_at(c, OM_EINVAL, 0, path, "kind", "'%s' gives the kind; 'kind' is "
                               "for a character without 'from' (name a general, hero or wizard "
                               "of the lists)", r->from);
    if (r->from) {
        om_army *army = NULL;
        const om_army_unit *e = NULL;
        if ((st = om_army_find(v->rs->name, r->from, &army, &e)))
            return om_yaml_fail_at(c, st, 0, path, "from", "%s", om_error_message());
        if (!om_army_type_is_character(e->type)) {
            st = om_yaml_fail_at(c, OM_EINVAL, 0, path, "from", "'%s' is not a character but "
                                 "%s; a character is a general, hero or wizard", r->from,
                                 om_army_type_name(e->type));
        } else {
            kind = om_army_character_kind(e->type, e->source_type);
            command = e->command;
            snprintf(name, sizeof name, "%s", e->name);
        }
        om_army_free(army);
        if (st)
            return st;
    } else {
        if (!r->kind)
            return om_yaml_fail_at(c, OM_EPARSE, 0, path, "kind", "required key 'kind' is "
                                   "missing (general, hero or wizard), or name a character "
                                   "of the army lists with 'from: army/unit'");
        if ((st = om_wm_load_name(c, path, "kind", "kind of character", r->kind, kinds,
                                  OM_WM_CHARACTER_KIND_COUNT, &word)))
            return st;
        kind = (om_wm_character_kind)word;
        if (!r->command)
            return om_yaml_fail_at(c, OM_EPARSE, 0, path, "command", "required key 'command' "
                                   "is missing");
        snprintf(name, sizeof name, "%s", kinds[kind]);
    }
    if ((st = om_yaml_conv_int(c, path, "command", r->command, 12, command, &command)) ||
        (st = om_yaml_conv_bool(c, path, "flying", r->flying, &flying)))
        return st;
    if (r->name && strlen(r->name) >= sizeof name)
        return om_yaml_fail_at(c, OM_EINVAL, 0, path, "name", "is %zu bytes long; at most %zu "
                               "are allowed", strlen(r->name), sizeof name - 1);
    if (r->name)
        snprintf(name, sizeof name, "%s", r->name);
    if (r->joined) {
        if ((joined = unit_of_id(v, r->joined)) < 0)
            return fail_unknown_id(v, path, "joined", r->joined, false);
        where = t->unit[joined].centre;
    }
    if (r->follow && (follow = unit_of_id(v, r->follow)) < 0)
        return fail_unknown_id(v, path, "follow", r->follow, false);
    if ((r->at[0] || r->at[1]) && joined >= 0) {
        return om_yaml_fail_at(c, OM_EINVAL, 0, path, "at", "a character joined to a unit "
                               "stands at its centre: give 'at' or 'joined', not both");
    } else if (r->at[0] || r->at[1]) {
        if ((st = om_wm_load_point(c, path, "at", r->at, &where)))
            return st;
    } else if (joined < 0) {
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, "at", "required key 'at' is missing "
                               "(or 'joined: UNIT')");
    }
    if (om_wm_table_add_character(t, name, s, kind, command, where) != i)
        return om_yaml_fail_at(c, OM_EINVAL, 0, path, NULL, "the table holds at most %d "
                               "characters", OM_WM_TABLE_MAX_CHARACTERS);
    t->character[i].joined = (int8_t)joined;
    t->character[i].follow = (int8_t)follow;
    t->character[i].flying = flying;
    return OM_OK;
}

/* Brigade k of side s (its plan: conv_plans). */
static om_status conv_brigade(conv *v, unsigned s, unsigned k, const raw_brigade *r)
{
    char path[OM_YAML_PATH_MAX];
    unsigned u[OM_WM_BRIGADE_MAX_UNITS];
    snprintf(path, sizeof path, "%s.brigades[%u]", side_keys[s], k);
    if (r->units_count < 2 || r->units_count > OM_WM_BRIGADE_MAX_UNITS)
        return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, "units", "a brigade is 2 to %d units "
                               "(got %u)", OM_WM_BRIGADE_MAX_UNITS, r->units_count);
    for (unsigned i = 0; i < r->units_count; i++) {
        int id = unit_of_id(v, r->units[i]);
        char entry[OM_YAML_PATH_MAX + 32];
        if (id < 0) {
            snprintf(entry, sizeof entry, "%s.units[%u]", path, i);
            return fail_unknown_id(v, entry, NULL, r->units[i], false);
        }
        if (v->ts->turn.table.unit[id].side != s)
            return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, "units", "'%s' is a unit of the "
                                   "other side", r->units[i]);
        u[i] = (unsigned)id;
    }
    if (om_wm_table_add_brigade(&v->ts->turn.table, u, r->units_count) < 0)
        return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, NULL, "the table holds at most %d "
                               "brigades", OM_WM_TABLE_MAX_BRIGADES);
    return OM_OK;
}

/* Every unit's and brigade's plan and initiative, once every id is known. */
static om_status conv_plans(conv *v, const raw_army *army[2])
{
    om_wm_command_setup *cs = &v->ts->turn.command;
    unsigned word = 0;
    om_status st;
    for (unsigned s = 0; s < 2; s++) {
        for (unsigned k = 0; k < army[s]->units_count; k++) {
            const raw_turn_unit *r = &army[s]->units[k];
            const unsigned u = v->first_unit[s] + k;
            char path[OM_YAML_PATH_MAX], plan[OM_YAML_PATH_MAX + 8];
            snprintf(path, sizeof path, "%s.units[%u]", side_keys[s], k);
            snprintf(plan, sizeof plan, "%s.plan", path);
            if ((st = conv_plan(v, s, plan, (int)u, r->plan, &cs->plan[u])))
                return st;
            if (r->initiative) {
                if ((st = om_wm_load_name(v->c, path, "initiative", "initiative policy",
                                          r->initiative, om_wm_initiative_names,
                                          OM_WM_INITIATIVE_COUNT, &word)))
                    return st;
                cs->plan[u].initiative = (om_wm_initiative_policy)word;
            }
        }
        for (unsigned k = 0; k < army[s]->brigades_count; k++) {
            char plan[OM_YAML_PATH_MAX];
            snprintf(plan, sizeof plan, "%s.brigades[%u].plan", side_keys[s], k);
            if ((st = conv_plan(v, s, plan, -1, army[s]->brigades[k].plan,
                                &cs->brigade_plan[v->first_brigade[s] + k])))
                return st;
        }
    }
    return OM_OK;
}

/* `options:`: the Command phase's switches, the engagement's (load.c's
 * registry) and the turn's readings, which are all fixed. */
static om_status conv_options(conv *v)
{
    const om_yaml_option_set sets[] = {
        {&om_wm_command_option_registry, &v->ts->turn.command.options},
        {&om_wm_turn_option_registry, NULL},
        {&om_wm_option_registry, &v->ts->turn.options}};
    return om_yaml_conv_options(v->c, "general_blunders: true", sets,
                                sizeof sets / sizeof sets[0]);
}

/* The side and index in it of entry i of a list whose sides start at
 * first[0] and first[1]. */
static unsigned side_of_index(const unsigned *first, unsigned i, unsigned *k)
{
    const unsigned s = i >= first[1] ? 1u : 0u;
    *k = i - first[s];
    return s;
}

/* The file's keys of the engine's paths "units[i].KEY" (the table's check)
 * and "plans[i].KEY" (the Command phase's check); other keys are the same. */
static const struct {
    const char *engine, *file;
} unit_keys[] = {
    {".side", ""}, {".type", ".unit.type"}, {".troop", ".unit.type"}, {".size", ".unit.size"},
    {".stands", ".unit.stands"}, {".pace", ".unit.pace"}, {".stand", ""},
}, plan_keys[] = {
    {".initiative", ".initiative"}, {".keep", ".plan.keep_cm"},
};

static const char *file_key(const char *rest, bool plan)
{
    const size_t n = plan ? sizeof plan_keys / sizeof plan_keys[0]
                          : sizeof unit_keys / sizeof unit_keys[0];
    for (size_t i = 0; i < n; i++)
        if (strcmp(rest, (plan ? plan_keys : unit_keys)[i].engine) == 0)
            return (plan ? plan_keys : unit_keys)[i].file;
    return NULL;
}

/* The file's path of the engine's check failure path `f` ("plans[3].by" ->
 * "a.units[1].plan.by"). */
static void file_path(const conv *v, const char *f, char *out, size_t cap)
{
    static const char *const lists[] = {"units", "plans", "brigade_plans", "brigades",
                                        "characters", "terrain"};
    unsigned first_brigade[2] = {0, v->first_brigade[1]};
    snprintf(out, cap, "%s", strcmp(f, "side") == 0 ? "moving" : f);
    for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++) {
        const size_t n = strlen(lists[l]);
        unsigned i = 0, k = 0, s;
        int used = 0;
        const char *rest, *mapped;
        if (strncmp(f, lists[l], n) != 0 || f[n] != '[' || sscanf(f + n, "[%u]%n", &i, &used) != 1)
            continue;
        rest = f + n + used;
        if (l == 5) /* terrain: as it is */
            return;
        if (l <= 1) {
            s = side_of_index(v->first_unit, i, &k);
            if (l == 0 && strncmp(rest, ".side.", 6) == 0)
                snprintf(out, cap, "%s.units[%u].%s", side_keys[s], k, rest + 6);
            else if ((mapped = file_key(rest, l == 1)) != NULL)
                snprintf(out, cap, "%s.units[%u]%s", side_keys[s], k, mapped);
            else
                snprintf(out, cap, "%s.units[%u]%s%s", side_keys[s], k, l == 1 ? ".plan" : "",
                         rest);
        } else if (l <= 3) {
            s = side_of_index(first_brigade, i, &k);
            mapped = strcmp(rest, ".keep") == 0 ? ".keep_cm" : rest;
            snprintf(out, cap, "%s.brigades[%u]%s%s", side_keys[s], k, l == 2 ? ".plan" : "",
                     mapped);
        } else {
            s = side_of_index(v->first_character, i, &k);
            snprintf(out, cap, "%s.characters[%u]%s", side_keys[s], k,
                     strcmp(rest, ".radius") == 0 || strcmp(rest, ".side") == 0 ? "" : rest);
        }
        return;
    }
}

/* The engine's reason with its "units[i]" and "characters[i]" written as the
 * file's ids ("units[0] (Knights)" -> "knights (Knights)"). */
static void file_reason(const conv *v, const char *reason, char *out, size_t cap)
{
    size_t at = 0;
    while (*reason && at + 1 < cap) {
        unsigned i = 0;
        int used = 0;
        const char *id = NULL;
        if (sscanf(reason, "units[%u]%n", &i, &used) == 1 && used > 0 &&
            i < v->ts->turn.table.units)
            id = v->ts->id[i];
        else if (sscanf(reason, "characters[%u]%n", &i, &used) == 1 && used > 0 &&
                 i < v->ts->turn.table.characters)
            id = v->character_id[i];
        if (id != NULL) {
            at += (size_t)snprintf(out + at, cap - at, "%s", id);
            reason += used;
        } else {
            out[at++] = *reason++;
        }
    }
    out[at < cap ? at : cap - 1] = '\0';
}

/* Count the entries of side lists and refuse too many. */
static om_status check_counts(const om_yaml_ctx *c, const raw_turn *r)
{
    const raw_army *army[2] = {&r->a, &r->b};
    unsigned characters = 0, brigades = 0;
    for (unsigned s = 0; s < 2; s++) {
        if (army[s]->units_count < 1 || army[s]->units_count > UNITS_MAX)
            return om_yaml_fail_at(c, OM_EINVAL, 0, side_keys[s], "units", "1 to %d units a "
                                   "side (got %u): the table holds %d units in all",
                                   UNITS_MAX, army[s]->units_count, OM_WM_TABLE_MAX_UNITS);
        characters += army[s]->characters_count;
        brigades += army[s]->brigades_count;
        if (characters > CHARACTERS_MAX)
            return om_yaml_fail_at(c, OM_EINVAL, 0, side_keys[s], "characters", "at most %d "
                                   "characters in all", CHARACTERS_MAX);
        if (brigades > BRIGADES_MAX)
            return om_yaml_fail_at(c, OM_EINVAL, 0, side_keys[s], "brigades", "at most %d "
                                   "brigades in all", BRIGADES_MAX);
    }
    if (r->terrain_count > TERRAIN_MAX)
        return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "terrain", "at most %d terrain pieces "
                               "(got %u)", TERRAIN_MAX, r->terrain_count);
    return OM_OK;
}

/* The rule set, the moving side, the order of issue, the table's size. */
static om_status conv_head(conv *v, const raw_turn *r)
{
    const om_yaml_ctx *c = v->c;
    om_wm_turn *turn = &v->ts->turn;
    const char *names[OM_WM_RULES_COUNT];
    double width = 0, depth = 0;
    unsigned word = 0;
    om_status st;
    for (unsigned i = 0; i < OM_WM_RULES_COUNT; i++)
        names[i] = om_wm_ruleset_get((om_wm_ruleset_id)i)->name;
    if ((st = om_wm_load_name(c, NULL, "ruleset", "rule set", r->ruleset, names,
                              OM_WM_RULES_COUNT, &word)))
        return st;
    v->rs = turn->rules = om_wm_ruleset_get((om_wm_ruleset_id)word);
    turn->command.rules = v->rs->id;
    if (r->moving && (st = om_wm_load_name(c, NULL, "moving", "side", r->moving, side_keys, 2,
                                           &word)))
        return st;
    turn->command.side = (uint8_t)(r->moving ? word : 0);
    if (r->issue) {
        if ((st = om_wm_load_name(c, NULL, "issue", "order of issue", r->issue,
                                  om_wm_issue_names, OM_WM_ISSUE_COUNT, &word)))
            return st;
        turn->command.issue = (om_wm_issue_policy)word;
    }
    if (r->table && ((r->table->width && (st = om_wm_load_real(c, "table", "width", r->table->width, 1,
                                                         OM_WM_LOAD_CM_MAX, &width))) ||
                     (r->table->depth && (st = om_wm_load_real(c, "table", "depth", r->table->depth, 1,
                                                         OM_WM_LOAD_CM_MAX, &depth)))))
        return st;
    om_wm_table_init(&turn->table, v->rs->id, width, depth);
    for (unsigned u = 0; u < OM_WM_TABLE_MAX_UNITS; u++)
        turn->command.plan[u] = (om_wm_plan){.target = -1, .by = -1};
    for (unsigned b = 0; b < OM_WM_TABLE_MAX_BRIGADES; b++)
        turn->command.brigade_plan[b] = (om_wm_plan){.target = -1, .by = -1};
    return OM_OK;
}

/* Fill v->ts from the raw document, then the engine's check. */
static om_status conv_turn(conv *v, const raw_turn *r)
{
    const raw_army *army[2] = {&r->a, &r->b};
    om_wm_check_failure why;
    char path[OM_YAML_PATH_MAX];
    om_status st;
    if (r->kind == NULL || strcmp(r->kind, "turn") != 0)
        return om_yaml_fail_at(v->c, OM_EPARSE, 0, NULL, "kind", "this loader reads kind turn");
    if ((st = check_counts(v->c, r)) || (st = conv_head(v, r)) || (st = conv_options(v)))
        return st;
    for (unsigned s = 0; s < 2; s++) {
        v->first_unit[s] = v->ts->turn.table.units;
        for (unsigned k = 0; k < army[s]->units_count; k++)
            if ((st = conv_unit(v, s, k, &army[s]->units[k])))
                return st;
        if (army[s]->name && strlen(army[s]->name) >= sizeof v->ts->side_name[s])
            return om_yaml_fail_at(v->c, OM_EINVAL, 0, side_keys[s], "name", "is %zu bytes "
                                   "long; at most %zu are allowed", strlen(army[s]->name),
                                   sizeof v->ts->side_name[s] - 1);
        snprintf(v->ts->side_name[s], sizeof v->ts->side_name[s], "%s",
                 army[s]->name ? army[s]->name : s == 0 ? "side A" : "side B");
    }
    for (unsigned s = 0; s < 2; s++) {
        v->first_character[s] = v->ts->turn.table.characters;
        for (unsigned k = 0; k < army[s]->characters_count; k++)
            if ((st = conv_character(v, s, k, &army[s]->characters[k])))
                return st;
    }
    for (unsigned k = 0; k < r->terrain_count; k++)
        if ((st = om_wm_load_terrain(v->c, "terrain", k, &r->terrain[k], &v->ts->turn.table)))
            return st;
    for (unsigned s = 0; s < 2; s++) {
        v->first_brigade[s] = v->ts->turn.table.brigades;
        for (unsigned k = 0; k < army[s]->brigades_count; k++)
            if ((st = conv_brigade(v, s, k, &army[s]->brigades[k])))
                return st;
    }
    if ((st = conv_plans(v, army)))
        return st;
    memset(&why, 0, sizeof why);
    if (om_wm_turn_check(&v->ts->turn, &why) != OM_OK) {
        char reason[sizeof why.reason + 64];
        file_path(v, why.field, path, sizeof path);
        file_reason(v, why.reason[0] ? why.reason : "rejected by the rules check", reason,
                    sizeof reason);
        return om_yaml_fail_at(v->c, OM_EINVAL, 0, path, NULL, "%s", reason);
    }
    return OM_OK;
}

om_status om_wm_turn_scenario_load_text(const char *source, const char *text, size_t len,
                                        om_wm_scenario **out)
{
    turn_schema sch;
    raw_turn *raw = NULL;
    om_wm_scenario *s = NULL;
    om_yaml_ctx c;
    conv v;
    om_status st;

    if (!out)
        return OM_ERROR(OM_EINVAL, "om_wm_turn_scenario_load_text: out is NULL");
    *out = NULL;
    source = source ? source : SOURCE_UNNAMED;
    text = text ? text : "";
    s = calloc(1, sizeof *s);
    if (s == NULL || (s->turn = calloc(1, sizeof *s->turn)) == NULL ||
        (s->source = om_yaml_dup(source, strlen(source))) == NULL ||
        (s->text = om_yaml_dup(text, len)) == NULL) {
        om_wm_scenario_free(s);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", source);
    }
    c = (om_yaml_ctx){.source = source, .text = s->text, .len = len};
    build_schema(&sch);
    memset(&v, 0, sizeof v);
    v.c = &c;
    v.ts = s->turn;
    if ((st = om_yaml_load(&c, &sch.doc, (void **)&raw)) == OM_OK &&
        raw->title && raw->title[0] == '\0')
        st = om_yaml_fail_at(&c, OM_EINVAL, 0, NULL, "title",
                             "must not be empty (leave the key out for the default)");
    if (st == OM_OK)
        st = conv_turn(&v, raw);
    if (st == OM_OK) {
        char title[256];
        if (raw->title)
            snprintf(title, sizeof title, "%s", raw->title);
        else
            snprintf(title, sizeof title, "%s against %s: %s's turn", s->turn->side_name[0],
                     s->turn->side_name[1], s->turn->side_name[s->turn->turn.command.side]);
        s->engagement.rules = s->turn->turn.rules;
        if ((s->title = om_yaml_dup(title, strlen(title))) == NULL)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", source);
    }
    om_yaml_free(&sch.doc, raw);
    if (st != OM_OK) {
        om_wm_scenario_free(s);
        return st;
    }
    *out = s;
    return OM_OK;
}
