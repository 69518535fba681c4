/*
 * wm_keys.c: the table of Warmaster scenario keys (wm_keys.h): the side keys
 * of OM_WM_SIDE_KEYS with their members, names and defaults, and every key of
 * a file (top level, unit, side, and the levels of a whole turn) described
 * for `oddsmaster list --keys`.
 */
#include "wm_keys.h"

#include "wm_game_int.h"
#include "wm_turn_scenario.h"

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

#define SIDE_KEY_ROW(key, type, fallback, names, rule, help)                                     \
    {#key, OM_WM_KEY_##type, OM_WM_DEFAULT_##fallback, names, OM_WM_KEY_##rule,                  \
     offsetof(om_wm_side, key), sizeof(((om_wm_side *)0)->key), help},

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
    {"schema", "top", "text", NULL, 0, "required", "exactly oddsmaster-scenario/1"},
    {"title", "top", "text", NULL, 0, "\"<name A> vs <name B>\"", "a title for reports"},
    {"ruleset", "top", "name", om_wm_game_rulesets, OM_WM_GAME_RULESETS, "required",
     "the rule set"},
    {"kind", "top", "name", om_wm_game_kind_names, OM_WM_GAME_KINDS, "combat",
     "combat (stand and shoot, then round 1), volley (A shoots at B), engagement (the "
     "whole fight) or turn (a whole turn of one side over both armies: the turn keys)"},
    {"options", "top", "mapping", NULL, 0, "every recommended reading",
     "readings of ambiguous rules, NAME: VALUE (oddsmaster list --options)"},
    {"a", "top", "mapping", NULL, 0, "required", "side A (the attacker or shooter)"},
    {"b", "top", "mapping", NULL, 0, "required", "side B, the same keys as a"},
    {"from", "unit", "army/unit", NULL, 0, "none",
     "a unit of the army lists (oddsmaster list RULESET/ARMY): every value below, each key "
     "given overriding it"},
    {"name", "unit", "text", NULL, 0, "required without from", "1 to 63 bytes"},
    {"type", "unit", "name", om_wm_troop_names, OM_WM_TROOP_COUNT, "required without from",
     "the troop type"},
    {"stands", "unit", "0..255", NULL, 0, "required without from (from: its size)",
     "stands in the unit now"},
    {"attacks", "unit", "0..255", NULL, 0, "required without from",
     "close combat Attacks a stand"},
    {"hits", "unit", "0..255", NULL, 0, "required without from", "Hits a stand"},
    {"armour", "unit", "save", NULL, 0, "required without from",
     "4+ or 4; none, 0 or \"-\" for no save"},
    {"shots", "unit", "0..255", NULL, 0, "0", "shooting Attacks a stand"},
    {"range", "unit", "0..255", NULL, 0, "30 if it shoots, else 0", "cm"},
    {"pace", "unit", "0..255", NULL, 0, "its troop type's", "cm"},
    {"points", "unit", "0..65535", NULL, 0, "0 (from: the list's, scaled by size)",
     "its points value"},
    {"size", "unit", "0..255", NULL, 0, "stands (from: the list's unit size)",
     "stands at full strength"},
    {"chaos_or_undead", "unit", "true/false", NULL, 0, "false (from: its army)",
     "a unit of Chaos or the Undead, hated by Zealots"},
    {"rules", "unit", "list of names", NULL, 0, "none (from: the list's)",
     "special rule ids (oddsmaster list --rules)"},
    {"unit", "side", "mapping", NULL, 0, "required", "the unit's values (the unit keys)"},
    {"character", "side", "army/unit", NULL, 0, "none",
     "a general, hero or wizard of the army lists joining the unit"},
    {"mount", "side", "name", NULL, 0, "none", "the character's mount"},
    {"caractacus", "side", "true/false", NULL, 0, "false",
     "Britons Chariots of an army led by Caractacus (Ancients): terror"},
};

/* The keys of a file of kind turn (wm_turn_load.c reads them), by level:
 * the top level's own, an army (`a` and `b` of a turn), a unit placed on the
 * table (each entry of an army's `units`, beside the side keys the table does
 * not decide), a plan, a character, a brigade, a terrain piece, the table. */
static const char *const moving_names[] = {"a", "b"};
static const om_game_key turn_keys[] = {
    {"moving", "top", "name", moving_names, 2, "a",
     "kind turn: the side whose turn it is; only its units take orders, shoot and charge"},
    {"issue", "top", "name", om_wm_issue_names, OM_WM_ISSUE_COUNT, "general-last",
     "kind turn: the order in which the characters issue orders"},
    {"table", "top", "mapping", NULL, 0, "the rule set's table",
     "kind turn: the table's size (the table keys)"},
    {"terrain", "top", "list of mappings", NULL, 0, "none",
     "kind turn: at most 16 terrain pieces (the terrain keys)"},
    {"name", "army", "text", NULL, 0, "side A, side B", "the army's name"},
    {"units", "army", "list of mappings", NULL, 0, "required",
     "1 to 8 units on the table (the placement keys, and the side keys the table does not "
     "decide)"},
    {"characters", "army", "list of mappings", NULL, 0, "none",
     "its generals, heroes and wizards, at most 12 in all (the character keys)"},
    {"brigades", "army", "list of mappings", NULL, 0, "none",
     "brigades of 2 to 4 touching units, at most 8 in all (the brigade keys)"},
    {"id", "placement", "id", NULL, 0, "required",
     "a-z, 0-9 and _, at most 23, unique in the file: names its fields in the results"},
    {"at", "placement", "[x, y]", NULL, 0, "required", "the centre of its stands, cm"},
    {"facing", "placement", "-360..360", NULL, 0, "90 for side A, 270 for side B",
     "degrees: 0 faces +x, 90 faces +y"},
    {"formation", "placement", "name", om_wm_turn_formation_names, OM_WM_TURN_FORMATIONS,
     "line", "how its stands are drawn up"},
    {"files", "placement", "0..255", NULL, 0, "2",
     "an irregular formation's stands abreast (2 to its stands - 1)"},
    {"hits", "placement", "0..255", NULL, 0, "0",
     "hits it carries from an unresolved combat, fewer than its Hits"},
    {"initiative", "placement", "name", om_wm_initiative_names, OM_WM_INITIATIVE_COUNT, "auto",
     "what it does on initiative (auto: charge only the enemy its plan charges)"},
    {"shoot", "placement", "name", om_wm_shoot_policy_names, OM_WM_SHOOT_POLICY_COUNT,
     "closest", "closest (the closest visible enemy in range) or hold"},
    {"stand_and_shoot", "placement", "true/false", NULL, 0, "true",
     "it shoots at enemies charging it when the rules allow"},
    {"plan", "placement", "mapping", NULL, 0, "hold",
     "what it tries in its side's Command phase (the plan keys)"},
    {"kind", "plan", "name", om_wm_plan_names, OM_WM_PLAN_KIND_COUNT, "hold",
     "charge a target, advance toward a point or a unit, move into range to shoot, or hold"},
    {"target", "plan", "id", NULL, 0, "closest",
     "charge, shoot: an enemy unit's id or closest; advance: any unit's id"},
    {"goal", "plan", "[x, y]", NULL, 0, "none", "advance: the point to move toward, cm"},
    {"keep_cm", "plan", "0..1000", NULL, 0, "0",
     "advance toward a unit: the distance to keep from it, cm"},
    {"by", "plan", "id", NULL, 0, "none (no orders)",
     "the id of the character of its side who orders it"},
    {"orders", "plan", "0..3", NULL, 0, "0 (3)", "the most orders to give it (0: 3)"},
    {"priority", "plan", "0..255", NULL, 0, "0", "order of issue: lower goes first"},
    {"id", "character", "id", NULL, 0, "required",
     "as a unit's id, unique among units and characters"},
    {"from", "character", "army/unit", NULL, 0, "none",
     "a general, hero or wizard of the army lists: its name, kind and Command"},
    {"kind", "character", "name", om_wm_character_kind_names, OM_WM_CHARACTER_KIND_COUNT,
     "required without from, refused with it", "general, hero or wizard"},
    {"command", "character", "1..12", NULL, 0, "required without from (from: the list's)",
     "its Command value"},
    {"name", "character", "text", NULL, 0, "the list's, else its kind", "its name"},
    {"at", "character", "[x, y]", NULL, 0, "required unless joined, refused with it",
     "where it stands, cm"},
    {"joined", "character", "id", NULL, 0, "none",
     "a unit of its side it has joined (it stands at its centre)"},
    {"follow", "character", "id", NULL, 0, "none",
     "a unit it moves to join at the end of the Command phase"},
    {"flying", "character", "true/false", NULL, 0, "false", "it rides a flyer (moves 100cm)"},
    {"units", "brigade", "list of names", NULL, 0, "required",
     "the ids of 2 to 4 touching units of its side"},
    {"plan", "brigade", "mapping", NULL, 0, "none", "a plan the brigade follows as one"},
    {"kind", "terrain", "name", om_wm_terrain_names, OM_WM_TERRAIN_KIND_COUNT, "required",
     "the kind of terrain"},
    {"points", "terrain", "list of [x, y]", NULL, 0, "required",
     "2 opposite corners of a rectangle, or 3 to 8 corners of a convex polygon, cm"},
    {"width", "table", "1..1000", NULL, 0, "the rule set's", "cm"},
    {"depth", "table", "1..1000", NULL, 0, "the rule set's", "cm"},
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
