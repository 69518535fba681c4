/*
 * wm_keys.c: the table of Warmaster scenario keys (wm_keys.h): the side keys
 * of OM_WM_SIDE_KEYS with their members, names and defaults, and every key of
 * a file (top level, unit, side, and the levels of a whole turn) described
 * for `oddsmaster list --keys`.
 */
#include "wm_keys.h"

#include "wm_game_int.h"
#include "wm_turn_scenario.h"
#include "battle.h"
#include "battlefield.h"
#include "objective.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

const om_wm_key_names om_wm_position_key_names = {"position", om_wm_position_names, 0,
                                                  OM_WM_POSITION_COUNT};
const om_wm_key_names om_wm_pursue_key_names = {"pursuit policy", om_wm_pursue_names, 0,
                                                OM_WM_PURSUE_COUNT};
const om_wm_key_names om_wm_behind_key_names = {"kind of ground behind", om_wm_behind_names, 0,
                                                OM_WM_BEHIND_COUNT};
/* "none" is the default of the next three and is not written. */
const om_wm_key_names om_wm_magic_key_names = {"magic item", om_wm_magic_names, 1,
                                               OM_WM_MAGIC_COUNT};
const om_wm_key_names om_wm_formation_key_names = {"formation", om_wm_formation_names, 1,
                                                   OM_WM_FORMATION_COUNT};
const om_wm_key_names om_wm_aura_key_names = {"aura", om_wm_aura_names, 0, OM_WM_AURA_COUNT};
const om_wm_key_names om_wm_power_key_names = {"once-a-battle power", om_wm_power_names, 0,
                                               OM_WM_POWER_COUNT};

#define SIDE_KEY_ROW(key, type_, fallback_, names_, rule_, help_)                                \
    {.name = #key, .type = OM_WM_KEY_##type_, .fallback = OM_WM_DEFAULT_##fallback_,             \
     .names = names_, .rule = OM_WM_KEY_##rule_, .offset = offsetof(om_wm_side, key),            \
     .size = sizeof(((om_wm_side *)0)->key), .help = help_},

const om_wm_side_key om_wm_side_keys[OM_WM_SIDE_KEY_COUNT] = {OM_WM_SIDE_KEYS(SIDE_KEY_ROW)};
const size_t om_wm_side_key_count = OM_WM_SIDE_KEY_COUNT;

/* Every member a key sets is a bool or uint8_t (one byte) or an enum (an int),
 * the two sizes om_wm_side_key_get and _set read and write. */
#define SIDE_KEY_SIZE(key, type, fallback, names, rule, help)                                    \
    _Static_assert(sizeof(((om_wm_side *)0)->key) == 1 ||                                       \
                       sizeof(((om_wm_side *)0)->key) == sizeof(int),                           \
                   "side key " #key " is one byte or an int");
OM_WM_SIDE_KEYS(SIDE_KEY_SIZE)

/* Members are bools, uint8_t counts or enums (int-sized): read and write them
 * by their size. */
unsigned om_wm_side_key_get(const om_wm_side *s, const om_wm_side_key *k)
{
    const unsigned char *p = (const unsigned char *)s + k->offset;
    if (k->size == sizeof(int)) {
        int v;
        memcpy(&v, p, sizeof v);
        return (unsigned)v;
    }
    return *p;
}

void om_wm_side_key_set(om_wm_side *s, const om_wm_side_key *k, unsigned v)
{
    unsigned char *p = (unsigned char *)s + k->offset;
    if (k->size == sizeof(int)) {
        const int i = (int)v;
        memcpy(p, &i, sizeof i);
    } else if (k->type == OM_WM_KEY_BOOL) {
        bool b = v != 0;
        memcpy(p, &b, sizeof b);
    } else {
        *p = (uint8_t)v;
    }
}

unsigned om_wm_side_key_default(const om_wm_side *s, const om_wm_side_key *k)
{
    switch (k->fallback) {
    case OM_WM_DEFAULT_ZERO: return 0;
    case OM_WM_DEFAULT_ONE: return 1;
    case OM_WM_DEFAULT_ACTIVE: return om_wm_active_stands_default(&s->unit);
    case OM_WM_DEFAULT_JOINED: return om_wm_side_key_get(s, k);
    case OM_WM_DEFAULT_POWER_TURN: return s->power != OM_WM_POWER_NONE ? 1u : 0u;
    case OM_WM_DEFAULT_BEHIND: return s->behind == OM_WM_BEHIND_OPEN ? 0u : s->unit.stands;
    case OM_WM_DEFAULT_FORMATION: return (unsigned)om_wm_formation_default(&s->unit);
    }
    return 0;
}

/* ----------------------------------------------------------- list --keys */

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Keys read by hand (not rows of OM_WM_SIDE_KEYS), in the documented order:
 * the top level, the unit, then the side keys that are not table rows. */
static const om_game_key fixed_keys[] = {
    {.name = "schema", .where = "top", .type = "text", .fallback = "required",
     .help = "exactly oddsmaster-scenario/1"},
    {.name = "title", .where = "top", .type = "text", .fallback = "\"<name A> vs <name B>\"",
     .help = "a title for reports"},
    {.name = "ruleset", .where = "top", .type = "name", .values = om_wm_game_rulesets,
     .n_values = OM_WM_GAME_RULESETS, .fallback = "required", .help = "the rule set"},
    {.name = "kind", .where = "top", .type = "name", .values = om_wm_game_kind_names,
     .n_values = OM_WM_GAME_KINDS, .fallback = "combat",
     .help = "combat (stand and shoot, then round 1), volley (A shoots at B), engagement (the "
             "whole fight) or turn (a whole turn of one side over both armies: the turn keys)"},
    {.name = "options", .where = "top", .type = "mapping", .fallback = "every recommended reading",
     .help = "readings of ambiguous rules, NAME: VALUE (oddsmaster list --options)"},
    {.name = "a", .where = "top", .type = "mapping", .fallback = "required",
     .help = "side A (the attacker or shooter)"},
    {.name = "b", .where = "top", .type = "mapping", .fallback = "required",
     .help = "side B, the same keys as a"},
    {.name = "from", .where = "unit", .type = "army/unit", .fallback = "none",
     .help = "a unit of the army lists (oddsmaster list RULESET/ARMY): every value below, each "
             "key given overriding it"},
    {.name = "name", .where = "unit", .type = "text", .fallback = "required without from",
     .help = "1 to 63 bytes"},
    {.name = "type", .where = "unit", .type = "name", .values = om_wm_troop_names,
     .n_values = OM_WM_TROOP_COUNT, .fallback = "required without from", .help = "the troop type"},
    {.name = "stands", .where = "unit", .type = "0..255",
     .fallback = "required without from (from: its size)", .help = "stands in the unit now"},
    {.name = "attacks", .where = "unit", .type = "0..255", .fallback = "required without from",
     .help = "close combat Attacks a stand"},
    {.name = "hits", .where = "unit", .type = "0..255", .fallback = "required without from",
     .help = "Hits a stand"},
    {.name = "armour", .where = "unit", .type = "save", .fallback = "required without from",
     .help = "4+ or 4; none, 0 or \"-\" for no save"},
    {.name = "shots", .where = "unit", .type = "0..255", .fallback = "0",
     .help = "shooting Attacks a stand"},
    {.name = "range", .where = "unit", .type = "0..255", .fallback = "30 if it shoots, else 0",
     .help = "cm"},
    {.name = "pace", .where = "unit", .type = "0..255", .fallback = "its troop type's",
     .help = "cm"},
    {.name = "points", .where = "unit", .type = "0..65535",
     .fallback = "0 (from: the list's, scaled by size)", .help = "its points value"},
    {.name = "size", .where = "unit", .type = "0..255",
     .fallback = "stands (from: the list's unit size)", .help = "stands at full strength"},
    {.name = "chaos_or_undead", .where = "unit", .type = "true/false",
     .fallback = "false (from: its army)",
     .help = "a unit of Chaos or the Undead, hated by Zealots"},
    {.name = "rules", .where = "unit", .type = "list of names",
     .fallback = "none (from: the list's)", .help = "special rule ids (oddsmaster list --rules)"},
    {.name = "unit", .where = "side", .type = "mapping", .fallback = "required",
     .help = "the unit's values (the unit keys)"},
    {.name = "character", .where = "side", .type = "army/unit", .fallback = "none",
     .help = "a general, hero or wizard of the army lists joining the unit"},
    {.name = "mount", .where = "side", .type = "name", .fallback = "none",
     .help = "the character's mount, an upgrade of its army (oddsmaster list RULESET/ARMY)"},
    {.name = "caractacus", .where = "side", .type = "true/false", .fallback = "false",
     .help = "Britons Chariots of an army led by Caractacus (Ancients): terror"},
};

/* The keys of a file of kind turn (wm_turn_load.c reads them), by level:
 * the top level's own, an army (`a` and `b` of a turn), a unit placed on the
 * table (each entry of an army's `units`, beside the side keys the table does
 * not decide), a plan, a character, a brigade, a terrain piece, the table. */
static const char *const moving_names[] = {"a", "b"};
/* A battle's names: its doctrines (the files compiled in, in their order)
 * and lengths (the engine's table, in its order; test_game.c checks both
 * agree) and its first sides. */
static const char *const doctrine_names[] = {"aggressive", "cautious", "default",
                                             "shoot-and-hold"};
static const char *const length_names[] = {"d6-6-7-8", "rolled-from-6", "d6-5-6-7",
                                           "rolled-from-5", "fixed"};
static const char *const first_names[] = {"roll", "a", "b"};
/* The deployment zones of kind battle (zones: wm_battle.c reads them). */
static const char *const zones_names[] = {"a-south", "a-north"};
static const char *const per_names[] = {"battle", "run"};
static const om_game_key turn_keys[] = {
    {.name = "moving", .where = "top", .type = "name", .values = moving_names, .n_values = 2,
     .fallback = "a",
     .help = "kind turn: the side whose turn it is; only its units take orders, shoot and charge"},
    {.name = "issue", .where = "top", .type = "name", .values = om_wm_issue_names,
     .n_values = OM_WM_ISSUE_COUNT, .fallback = "general-last",
     .help = "kind turn: the order in which the characters issue orders"},
    {.name = "table", .where = "top", .type = "mapping", .fallback = "the rule set's table",
     .help = "kind turn: the table's size (the table keys)"},
    {.name = "terrain", .where = "top", .type = "list of mappings", .fallback = "none",
     .help = "kinds turn and battle: at most 16 terrain pieces (the terrain keys); a battle's "
             "must lie on the table, none over another"},
    {.name = "name", .where = "army", .type = "text", .fallback = "side A, side B",
     .help = "the army's name"},
    {.name = "units", .where = "army", .type = "list of mappings", .fallback = "required",
     .help = "1 to 64 units, 128 on the table in all (the placement keys, and the side keys the table "
             "does not decide)"},
    {.name = "characters", .where = "army", .type = "list of mappings", .fallback = "none",
     .help = "its generals, heroes and wizards, at most 24 in all (the character keys)"},
    {.name = "brigades", .where = "army", .type = "list of mappings", .fallback = "none",
     .help = "brigades of 2 to 4 touching units, at most 16 in all (the brigade keys)"},
    {.name = "id", .where = "placement", .type = "id", .fallback = "required",
     .help = "a-z, 0-9 and _, at most 23, unique in the file: names its fields in the results"},
    {.name = "at", .where = "placement", .type = "[x, y]", .fallback = "required",
     .help = "the centre of its stands, cm"},
    {.name = "facing", .where = "placement", .type = "-360..360",
     .fallback = "90 for side A, 270 for side B", .help = "degrees: 0 faces +x, 90 faces +y"},
    {.name = "formation", .where = "placement", .type = "name",
     .values = om_wm_turn_formation_names, .n_values = OM_WM_TURN_FORMATIONS, .fallback = "line",
     .help = "how its stands are drawn up"},
    {.name = "files", .where = "placement", .type = "0..255", .fallback = "2",
     .help = "an irregular formation's stands abreast (2 to its stands - 1)"},
    {.name = "hits", .where = "placement", .type = "0..255", .fallback = "0",
     .help = "hits it carries from an unresolved combat, fewer than its Hits"},
    {.name = "initiative", .where = "placement", .type = "name", .values = om_wm_initiative_names,
     .n_values = OM_WM_INITIATIVE_COUNT, .fallback = "auto",
     .help = "what it does on initiative (auto: charge only the enemy its plan charges)"},
    {.name = "shoot", .where = "placement", .type = "name", .values = om_wm_shoot_policy_names,
     .n_values = OM_WM_SHOOT_POLICY_COUNT, .fallback = "closest",
     .help = "closest (the closest visible enemy in range) or hold"},
    {.name = "stand_and_shoot", .where = "placement", .type = "true/false", .fallback = "true",
     .help = "it shoots at enemies charging or advancing on it when the rules allow"},
    {.name = "plan", .where = "placement", .type = "mapping", .fallback = "hold",
     .help = "what it tries in its side's Command phase (the plan keys)"},
    {.name = "kind", .where = "plan", .type = "name", .values = om_wm_plan_names,
     .n_values = OM_WM_PLAN_KIND_COUNT, .fallback = "hold",
     .help = "charge a target, advance toward a point or a unit, move into range to shoot, "
             "or hold"},
    {.name = "target", .where = "plan", .type = "id", .fallback = "closest",
     .help = "charge, shoot: an enemy unit's id or closest; advance: any unit's id"},
    {.name = "goal", .where = "plan", .type = "[x, y]", .fallback = "none",
     .help = "advance: the point to move toward, cm"},
    {.name = "keep_cm", .where = "plan", .type = "0..1000", .fallback = "0",
     .help = "advance toward a unit: the distance to keep from it, cm"},
    {.name = "by", .where = "plan", .type = "id", .fallback = "none (no orders)",
     .help = "the id of the character of its side who orders it"},
    {.name = "orders", .where = "plan", .type = "0..3", .fallback = "0 (3)",
     .help = "the most orders to give it (0: 3)"},
    {.name = "priority", .where = "plan", .type = "0..255", .fallback = "0",
     .help = "order of issue: lower goes first"},
    {.name = "id", .where = "character", .type = "id", .fallback = "required",
     .help = "as a unit's id, unique among units and characters"},
    {.name = "from", .where = "character", .type = "army/unit", .fallback = "none",
     .help = "a general, hero or wizard of the army lists: its name, kind and Command"},
    {.name = "kind", .where = "character", .type = "name", .values = om_wm_character_kind_names,
     .n_values = OM_WM_CHARACTER_KIND_COUNT, .fallback = "required without from, refused with it",
     .help = "general, hero or wizard"},
    {.name = "command", .where = "character", .type = "1..12",
     .fallback = "required without from (from: the list's)", .help = "its Command value"},
    {.name = "name", .where = "character", .type = "text", .fallback = "the list's, else its kind",
     .help = "its name"},
    {.name = "at", .where = "character", .type = "[x, y]",
     .fallback = "required unless joined, refused with it", .help = "where it stands, cm"},
    {.name = "joined", .where = "character", .type = "id", .fallback = "none",
     .help = "a unit of its side it has joined (it stands at its centre)"},
    {.name = "follow", .where = "character", .type = "id", .fallback = "none",
     .help = "a unit it moves to join at the end of the Command phase"},
    {.name = "flying", .where = "character", .type = "true/false", .fallback = "false",
     .help = "it rides a flyer (moves 100cm)"},
    {.name = "units", .where = "brigade", .type = "list of names", .fallback = "required",
     .help = "the ids of 2 to 4 touching units of its side"},
    {.name = "plan", .where = "brigade", .type = "mapping", .fallback = "none",
     .help = "a plan the brigade follows as one"},
    {.name = "kind", .where = "terrain", .type = "name", .values = om_wm_terrain_names,
     .n_values = OM_WM_TERRAIN_KIND_COUNT, .fallback = "required", .help = "the kind of terrain"},
    {.name = "points", .where = "terrain", .type = "list of [x, y]", .fallback = "required",
     .help = "2 opposite corners of a rectangle, or 3 to 8 corners of a convex polygon, cm"},
    {.name = "width", .where = "table", .type = "1..1000", .fallback = "the rule set's",
     .help = "cm"},
    {.name = "depth", .where = "table", .type = "1..1000", .fallback = "the rule set's",
     .help = "cm"},
    /* Kind battle (wm_battle.c): an army is a list and a doctrine. */
    {.name = "list", .where = "army", .type = "name or path", .fallback = "required",
     .help = "kind battle: an example army list (a file of scenarios/lists/warmaster) or a list "
             "file, relative to the scenario's folder"},
    {.name = "doctrine", .where = "army", .type = "name", .values = doctrine_names,
     .n_values = N(doctrine_names), .fallback = "default",
     .help = "kind battle: how the army plays: a doctrine compiled in or a doctrine file's path "
             "(docs/scenario-format.md, \"Doctrine files\")"},
    {.name = "length", .where = "top", .type = "name", .values = length_names,
     .n_values = N(length_names), .fallback = "d6-6-7-8",
     .help = "kind battle: how long the battle lasts (End of the Battle; Battlefields)"},
    {.name = "turns", .where = "top", .type = "1..30", .fallback = "required with length: fixed",
     .help = "kind battle: the battle turns of a fixed length"},
    {.name = "first", .where = "top", .type = "name", .values = first_names,
     .n_values = N(first_names), .fallback = "roll",
     .help = "kind battle: who takes the first turn (roll: the dice of the rule set)"},
    {.name = "zones", .where = "top", .type = "name", .values = zones_names,
     .n_values = N(zones_names), .fallback = "a-south",
     .help = "kind battle: the deployment zones: side A along the near (south) edge and B the "
             "far, or swapped on the same table (the terrain seen from the other edges)"},
    {.name = "terrain_method", .where = "top", .type = "name",
     .values = om_wm_terrain_method_names, .n_values = OM_WM_TERRAIN_METHOD_COUNT,
     .fallback = "given with terrain, else none",
     .help = "kind battle: how the terrain is laid out (Battlefields, Setting up scenery; "
             "Warmaster Ancients, Random set-up)"},
    {.name = "terrain_per", .where = "top", .type = "name", .values = per_names,
     .n_values = N(per_names), .fallback = "battle",
     .help = "kind battle, with a generated terrain_method: laid out afresh for each battle "
             "from its own dice, or once per run from setup_seed"},
    {.name = "deployment", .where = "top", .type = "name", .values = om_wm_deployment_names,
     .n_values = OM_WM_DEPLOY_COUNT, .fallback = "lines",
     .help = "kind battle: how the armies set up (Battlefields, Setting up armies; Scouting)"},
    {.name = "deployment_per", .where = "top", .type = "name", .values = per_names,
     .n_values = N(per_names), .fallback = "battle (run with terrain_per: run)",
     .help = "kind battle: the deployment's roll (who places first, the roll-off, the "
             "scouting roll) drawn for each battle from its own dice, or once per run from "
             "setup_seed"},
    {.name = "deploy_first", .where = "top", .type = "name", .values = first_names,
     .n_values = N(first_names), .fallback = "roll",
     .help = "kind battle: with alternate or one-side-first, the side placing first (roll: "
             "as the method decides it)"},
    {.name = "scenario", .where = "top", .type = "name", .values = om_wm_scenario_names,
     .n_values = OM_WM_SCENARIO_COUNT, .fallback = "none",
     .help = "kind battle: the scenario fought (Warmaster Revolution, Scenarios; Battlefields): "
             "take-and-hold's four objectives or battle-for-the-tower's central tower, scored "
             "in scenario victory points, which decide the battle (defending-the-village and "
             "wagon-train are not modelled yet)"},
    {.name = "scenario_version", .where = "top", .type = "name",
     .values = om_wm_scenario_version_names, .n_values = OM_WM_SCENARIO_VERSION_COUNT,
     .fallback = "revolution",
     .help = "kind battle, with a scenario: revolution scores once at the battle's end; "
             "battlefields at the end of each player's own turn from his third, the battle "
             "ending at 10 points"},
    {.name = "objectives", .where = "top", .type = "four points [x, y]",
     .fallback = "placed by the fixed policy on each battle's table",
     .help = "kind battle, scenario take-and-hold: the four objectives, each on the table and "
             "in no dense or impassable terrain"},
    {.name = "setup_seed", .where = "top", .type = "0..4294967295", .fallback = "1",
     .help = "kind battle: the seed of the set-up's dice (the deployment's rolls with "
             "deployment_per: run, a terrain per run), once for the whole run"},
};

/* What a side key's default is, for people. */
static const char *fallback_text(const om_wm_side_key *k)
{
    switch (k->fallback) {
    case OM_WM_DEFAULT_ZERO:
        return k->type == OM_WM_KEY_BOOL    ? "false"
               : k->type == OM_WM_KEY_COUNT ? "0"
               : k->names->first == 0       ? k->names->names[0]
                                            : "none";
    case OM_WM_DEFAULT_ONE: return "1";
    case OM_WM_DEFAULT_ACTIVE: return "all its stands (a War Wagon: 1)";
    case OM_WM_DEFAULT_JOINED: return "its character's, else 0";
    case OM_WM_DEFAULT_POWER_TURN: return "1 with power, else 0";
    case OM_WM_DEFAULT_BEHIND: return "all its stands when behind is not open, else 0";
    case OM_WM_DEFAULT_FORMATION: return "column for a War Wagon, else none";
    }
    return "";
}

size_t om_wm_scenario_keys(om_game_key *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < N(fixed_keys); i++, n++)
        if (n < cap)
            out[n] = fixed_keys[i];
    for (size_t i = 0; i < om_wm_side_key_count; i++, n++) {
        const om_wm_side_key *k = &om_wm_side_keys[i];
        if (n >= cap)
            continue;
        out[n] = (om_game_key){
            .name = k->name, .where = "side",
            .type = k->type == OM_WM_KEY_BOOL    ? "true/false"
                    : k->type == OM_WM_KEY_COUNT ? "0..255"
                                                 : "name",
            .fallback = fallback_text(k), .help = k->help};
        if (k->names) {
            out[n].values = k->names->names + k->names->first;
            out[n].n_values = k->names->count - k->names->first;
        }
    }
    for (size_t i = 0; i < N(turn_keys); i++, n++)
        if (n < cap)
            out[n] = turn_keys[i];
    return n;
}
