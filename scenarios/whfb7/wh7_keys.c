/*
 * wh7_keys.c: the table of WHFB 7th edition scenario keys (wh7_keys.h), each
 * read by wh7_load.c: its level, type, bounds (the engine's limits of wh7.h,
 * which its check holds), words (the engine's name tables), default and help,
 * and the same keys described for `oddsmaster list --keys`.
 */
#include "wh7_keys.h"

#include <stdint.h>
#include <string.h>

#include "wh7.h"
#include "wh7_scenario.h"

const char *const om_wh7_key_level_names[OM_WH7_LEVEL_COUNT] = {
    "top", "unit", "profile", "equipment", "mount", "character", "side", "mods", "magic"};

/* The rule set of the game's files. */
static const char *const ruleset_names[] = {OM_WH7_RULESET};

/* A default: D(v) the value v; DF(v, text) the value v, described as text;
 * NO_DEFAULT(text) none that a file could write (required, or taken from
 * the profile, the list or other keys), described as text. Each gives the
 * members dflt and fallback of a row. */
#define D(v) .dflt = v, .fallback = v
#define DF(v, text) .dflt = v, .fallback = text
#define NO_DEFAULT(text) .dflt = NULL, .fallback = text

#define BOOL_KEY(name_, lv, dflt, ex, help_)                                                    \
    {.name = name_, .level = OM_WH7_LEVEL_##lv, .type = OM_WH7_KEY_BOOL, dflt, .example = ex,   \
     .help = help_}
#define INT_KEY(name_, lv, lo_, hi_, range_, dflt, ex, help_)                                   \
    {.name = name_, .level = OM_WH7_LEVEL_##lv, .type = OM_WH7_KEY_INT, .lo = lo_, .hi = hi_,   \
     .range = range_, dflt, .example = ex, .help = help_}
#define SAVE_KEY(name_, lv, dflt, ex, help_)                                                    \
    {.name = name_, .level = OM_WH7_LEVEL_##lv, .type = OM_WH7_KEY_SAVE,                       \
     .lo = OM_WH7_SAVE_BEST, .hi = OM_WH7_SAVE_WORST, dflt, .example = ex, .help = help_}
/* A word of an engine table names[0..count). */
#define NAME_KEY(name_, lv, names_, count, dflt, ex, help_)                                     \
    {.name = name_, .level = OM_WH7_LEVEL_##lv, .type = OM_WH7_KEY_NAME, .names = names_,       \
     .n_names = count, dflt, .example = ex, .help = help_}
/* A word of a registry (weapons, spells, ...) that its help names. */
#define REGISTRY_KEY(name_, lv, dflt, ex, help_)                                                \
    {.name = name_, .level = OM_WH7_LEVEL_##lv, .type = OM_WH7_KEY_NAME, dflt, .example = ex,   \
     .help = help_}
#define OTHER_KEY(name_, lv, type_, dflt, ex, help_)                                            \
    {.name = name_, .level = OM_WH7_LEVEL_##lv, .type = OM_WH7_KEY_##type_, dflt,              \
     .example = ex, .help = help_}

/* The nine characteristics of a profile (WHFB 7th edition, Characteristics:
 * 0 to 10; Toughness and Wounds at least 1, Characteristics of 0). */
#define CHARACTERISTIC(name, lo, range, ex, help)                                               \
    INT_KEY(name, PROFILE, lo, OM_WH7_CHAR_MAX, range,                                          \
            NO_DEFAULT("the profile's"), ex, help)

/* The most models and characters a unit has, hence its widest front rank and
 * most models in contact. */
#define MAX_UNIT_MODELS ((int)(OM_WH7_MAX_MODELS + OM_WH7_MAX_CHARACTERS))
/* The most power dice a wizard rolls: his highest level + 1, and a Power
 * Stone's (The Magic Phase > Power Dice). */
#define MAX_POWER_DICE ((int)(OM_WH7_MAX_WIZARD_LEVEL + 1u + OM_WH7_POWER_STONE_DICE))

const om_wh7_key om_wh7_keys[] = {
    /* The top level. */
    OTHER_KEY("schema", TOP, TEXT, NO_DEFAULT("required"), "oddsmaster-scenario/1",
              "exactly oddsmaster-scenario/1"),
    OTHER_KEY("title", TOP, TEXT, NO_DEFAULT("\"<name A> vs <name B>\""), "Knights and Swordsmen",
              "a title for reports; not empty"),
    NAME_KEY("ruleset", TOP, ruleset_names, 1, NO_DEFAULT("required"), "whfb7",
             "the rule set: whfb7 for this game"),
    NAME_KEY("kind", TOP, om_wh7_kind_names, OM_WH7_KIND_COUNT, D("combat"), "engagement",
             "combat (the charge, the first round, its break test, flight and pursuit), "
             "engagement (rounds to a break or max_rounds), volley (A shoots at B) or magic "
             "(A's wizard casts at B)"),
    BOOL_KEY("challenge", TOP, D("false"), "true",
             "a challenge is fought whenever both sides have a character or champion in "
             "contact"),
    OTHER_KEY("options", TOP, MAPPING, DF("{}", "every recommended reading"), "{max_rounds: 3}",
              "readings of ambiguous rules, NAME: VALUE (oddsmaster list --options): "
              "true/false for a switch, 0..100 for max_rounds"),
    OTHER_KEY("a", TOP, MAPPING, NO_DEFAULT("required"),
              "{unit: {profile: empire-knight, models: 5, mount: {profile: empire-warhorse}}}",
              "side A, the charger, shooter or caster (the side keys)"),
    OTHER_KEY("b", TOP, MAPPING, NO_DEFAULT("required"), "{unit: {from: orcs-goblins/orc-boyz}}",
              "side B, the same keys as a"),
    OTHER_KEY("magic", TOP, MAPPING, NO_DEFAULT("required for kind magic, refused otherwise"),
              "{spell: fireball, dice: 2, level: 1, caster: {profile: empire-battle-wizard-w}}",
              "the casting attempt of kind magic (the magic keys)"),

    /* A unit (a.unit, b.unit), with the profile keys of its rank and file. */
    OTHER_KEY("from", UNIT, UNIT_REF, NO_DEFAULT("none"), "empire/knights",
              "a unit of the list file (oddsmaster list whfb7/units): every value below, each "
              "key given overriding it (equipment and mount key by key, rules and characters "
              "whole)"),
    NAME_KEY("troop", UNIT, om_wh7_troop_names, OM_WH7_TROOP_COUNT,
             NO_DEFAULT("cavalry with a mount, else infantry (from: the list's)"), "cavalry",
             "the troop type"),
    INT_KEY("models", UNIT, 0, (int)OM_WH7_MAX_MODELS, "0..250 (0: its characters alone)",
            NO_DEFAULT("required without from (from: the list's)"), "5",
            "rank-and-file models, command included"),
    INT_KEY("files", UNIT, 1, MAX_UNIT_MODELS, "1..252 (at most its models and characters)",
            NO_DEFAULT("5, or all its models and characters if fewer (from: the list's)"), "4",
            "the front rank's width"),
    INT_KEY("wounds_lost", UNIT, 0, (int)OM_WH7_CHAR_MAX - 1, "0..9 (less than its W)",
            DF("0", "0 (from: the list's)"), "0", "wounds one model of a multi-Wound unit has lost"),
    BOOL_KEY("champion", UNIT, DF("false", "false (from: the list's)"), "true",
             "one model is a champion: +1 Attack"),
    BOOL_KEY("standard", UNIT, DF("false", "false (from: the list's)"), "true",
             "one model is a standard bearer"),
    BOOL_KEY("musician", UNIT, DF("false", "false (from: the list's)"), "true",
             "one model is a musician"),
    BOOL_KEY("war_banner", UNIT, DF("false", "false (from: the list's)"), "false",
             "the standard is a War Banner: +1 combat result (needs standard)"),
    INT_KEY("unit_strength", UNIT, 0, (int)OM_WH7_MAX_MODEL_US, "0..20",
            DF("0", "0: by troop type (from: the list's)"), "2", "unit strength of one model"),
    INT_KEY("points", UNIT, 0, UINT16_MAX, "0..65535",
            DF("0", "0: unknown, 100 by Victory! (from: the list's, scaled by models)"), "230",
            "the unit's points, its characters' own added"),
    OTHER_KEY("equipment", UNIT, MAPPING, DF("{}", "a hand weapon, nothing else (from: the "
                                                   "list's)"),
              "{armour: heavy, shield: true}", "what the rank and file carry (the equipment keys)"),
    OTHER_KEY("rules", UNIT, NAMES, DF("[]", "none (from: the list's)"), "[fear]",
              "special rules (oddsmaster list --rules whfb7); a list given replaces the list "
              "unit's"),
    NAME_KEY("damage", UNIT, om_wh7_damage_names, OM_WH7_DAMAGE_COUNT,
             DF("1", "1 (from: the list's)"), "D3", "wounds per unsaved wound of its blows"),
    INT_KEY("magic_resistance", UNIT, 0, (int)OM_WH7_MAX_MAGIC_RESISTANCE, "0..3",
            DF("0", "0 (from: the list's)"), "1", "extra dispel dice against spells at it"),
    OTHER_KEY("mount", UNIT, MAPPING, NO_DEFAULT("none (from: the list's)"),
              "{profile: empire-warhorse}", "the mount of cavalry (the mount keys)"),
    OTHER_KEY("characters", UNIT, MAPPINGS, DF("[]", "none (from: the list's)"),
              "[{profile: empire-captain}]",
              "at most 2 characters joining the unit (the character keys)"),

    /* A profile: of a unit's rank and file, a mount, a character, the caster. */
    REGISTRY_KEY("profile", PROFILE,
                 NO_DEFAULT("required unless name and the nine characteristics are written "
                            "(a unit: or from, or models 0)"),
                 "empire-knight", "a profile of the rulebook (oddsmaster list whfb7/profiles)"),
    OTHER_KEY("name", PROFILE, TEXT,
              NO_DEFAULT("the profile's (a unit: the list's, else the profile's)"), "Knights",
              "its name, 1 to 47 bytes"),
    CHARACTERISTIC("m", 0, "0..10", "4", "Movement, in inches"),
    CHARACTERISTIC("ws", 0, "0..10", "4", "Weapon Skill"),
    CHARACTERISTIC("bs", 0, "0..10", "3", "Ballistic Skill"),
    CHARACTERISTIC("s", 0, "0..10", "4", "Strength"),
    CHARACTERISTIC("t", 1, "1..10", "3", "Toughness"),
    CHARACTERISTIC("w", 1, "1..10", "1", "Wounds"),
    CHARACTERISTIC("i", 0, "0..10", "3", "Initiative"),
    CHARACTERISTIC("a", 0, "0..10", "1", "Attacks"),
    CHARACTERISTIC("ld", 0, "0..10", "8", "Leadership"),

    /* Equipment, of a unit's rank and file or of a character. */
    REGISTRY_KEY("weapon", EQUIPMENT, D("hand-weapon"), "lance",
                 "the close combat weapon (oddsmaster list whfb7/weapons)"),
    REGISTRY_KEY("missile", EQUIPMENT, D("none"), "pistol",
                 "the missile weapon (oddsmaster list whfb7/missiles)"),
    NAME_KEY("armour", EQUIPMENT, om_wh7_armour_names, OM_WH7_ARMOUR_COUNT, D("none"), "heavy",
             "body armour: light 6+, heavy 5+"),
    BOOL_KEY("shield", EQUIPMENT, D("false"), "true",
             "a shield: +1 save (one more on foot, to the front, with a hand weapon)"),
    BOOL_KEY("enchanted_shield", EQUIPMENT, D("false"), "true",
             "the Enchanted Shield: a shield saving one better (not with shield)"),
    BOOL_KEY("barding", EQUIPMENT, D("false"), "true",
             "the mount is barded: +1 save, -1 Movement (needs a mount)"),
    SAVE_KEY("scaly_skin", EQUIPMENT, D("none"), "6+", "a scaly skin save, stacking with armour"),
    SAVE_KEY("ward", EQUIPMENT, D("none"), "5+", "a ward save (Talisman of Protection: 6+)"),
    INT_KEY("save_bonus", EQUIPMENT, -OM_WH7_MAX_SAVE_BONUS, OM_WH7_MAX_SAVE_BONUS, "-6..6",
            D("0"), "-1", "further armour save improvement (magic armour)"),
    NAME_KEY("magic_weapon", EQUIPMENT, om_wh7_magic_weapon_names, OM_WH7_MAGIC_WEAPON_COUNT,
             D("none"), "sword-of-might",
             "a common magic weapon, replacing its close combat weapon"),

    /* A mount, with the profile keys. */
    OTHER_KEY("rules", MOUNT, NAMES, DF("[]", "none"), "[fear]",
              "the mount's special rules (oddsmaster list --rules whfb7)"),
    NAME_KEY("damage", MOUNT, om_wh7_damage_names, OM_WH7_DAMAGE_COUNT, D("1"), "D3",
             "wounds per unsaved wound of its blows"),
    INT_KEY("magic_resistance", MOUNT, 0, (int)OM_WH7_MAX_MAGIC_RESISTANCE, "0..3", D("0"), "1",
            "extra dispel dice against spells at it"),

    /* A character joining the unit, with the profile keys. */
    OTHER_KEY("equipment", CHARACTER, MAPPING, DF("{}", "a hand weapon, nothing else"),
              "{armour: heavy}", "what he carries (the equipment keys)"),
    OTHER_KEY("rules", CHARACTER, NAMES, DF("[]", "none"), "[hatred]",
              "his special rules (oddsmaster list --rules whfb7)"),
    NAME_KEY("damage", CHARACTER, om_wh7_damage_names, OM_WH7_DAMAGE_COUNT, D("1"), "D3",
             "wounds per unsaved wound of his blows"),
    INT_KEY("magic_resistance", CHARACTER, 0, (int)OM_WH7_MAX_MAGIC_RESISTANCE, "0..3", D("0"),
            "2", "extra dispel dice against spells at him"),
    OTHER_KEY("mount", CHARACTER, MAPPING, NO_DEFAULT("none"), "{profile: empire-warhorse}",
              "his steed or monstrous mount (the mount keys)"),
    INT_KEY("unit_strength", CHARACTER, 0, (int)OM_WH7_MAX_MODEL_US, "0..20",
            DF("0", "0: 1 on foot, 2 on a steed, the mount's W + 1 on a monstrous mount"), "2",
            "his unit strength"),
    INT_KEY("wounds_lost", CHARACTER, 0, (int)OM_WH7_CHAR_MAX - 1, "0..9 (less than his W)",
            D("0"), "1", "wounds he has lost"),
    BOOL_KEY("general", CHARACTER, D("false"), "true", "the army General: the unit uses his Ld"),
    BOOL_KEY("battle_standard", CHARACTER, D("false"), "true", "the Battle Standard Bearer"),
    INT_KEY("wizard_level", CHARACTER, 0, (int)OM_WH7_MAX_WIZARD_LEVEL, "0..4", DF("0", "0: not "
                                                                                 "a wizard"),
            "1", "his wizard level; the first wizard of side A casts for kind magic"),
    INT_KEY("points", CHARACTER, 0, UINT16_MAX, "0..65535", D("0"), "50",
            "his points, added to the unit's"),

    /* A side (a, b): its unit and what the table decided. */
    OTHER_KEY("unit", SIDE, MAPPING, NO_DEFAULT("required"),
              "{profile: empire-knight, models: 5, mount: {profile: empire-warhorse}}",
              "the unit (the unit keys)"),
    BOOL_KEY("charging", SIDE, D("false"), "true", "it charged this turn"),
    NAME_KEY("arc", SIDE, om_wh7_arc_names, OM_WH7_ARC_COUNT, D("front"), "flank",
             "the face of the unit the enemy touches"),
    INT_KEY("contact", SIDE, 0, MAX_UNIT_MODELS, "0..252 (at most its models and characters)",
            DF("0", "0: its width on that face, at most the enemy's front width + 2"), "5",
            "models in base contact with the enemy"),
    BOOL_KEY("high_ground", SIDE, D("false"), "true", "it fights from higher ground: +1 result"),
    BOOL_KEY("moved", SIDE, D("false"), "true",
             "it moved this turn without charging: spears fight one rank fewer, shooting -1"),
    BOOL_KEY("defended_obstacle", SIDE, D("false"), "true",
             "it defends an obstacle: its charger gets no charge bonus"),
    INT_KEY("general_ld", SIDE, 0, (int)OM_WH7_CHAR_MAX, "0..10", DF("0", "0: none"), "9",
            "Ld of the army General within 12\" and not in the unit"),
    BOOL_KEY("battle_standard_near", SIDE, D("false"), "true",
             "the Battle Standard Bearer is within 12\", not in the unit: failed break tests "
             "are re-rolled"),
    NAME_KEY("pursue", SIDE, om_wh7_pursue_names, OM_WH7_PURSUE_COUNT, D("always"), "restrain",
             "when the enemy breaks: pursue, or restrain (a Leadership test)"),
    NAME_KEY("response", SIDE, om_wh7_response_names, OM_WH7_RESPONSE_COUNT, D("hold"), "hold",
             "its charge response when the other side charges"),
    INT_KEY("gap_in", SIDE, 0, UINT8_MAX, "0..255", D("0"), "8",
            "inches between the units when the charge was declared"),
    INT_KEY("flee_blocked_in", SIDE, 0, UINT8_MAX, "0..255", DF("0", "0: open ground"), "10",
            "a flight of this many inches or more is blocked: the unit is destroyed"),
    INT_KEY("friend_ld", SIDE, 0, (int)OM_WH7_CHAR_MAX, "0..10", DF("0", "0: none"), "8",
            "Ld of a friendly unit within 6\" that tests for panic when this one breaks"),
    INT_KEY("shooters", SIDE, 0, UINT8_MAX, "0..255",
            DF("0", "0: the front rank, one more rank on a hill"), "5", "models that shoot"),
    BOOL_KEY("on_hill", SIDE, D("false"), "true", "it shoots from a hill: one more rank shoots"),
    BOOL_KEY("long_range", SIDE, D("false"), "true",
             "its target is beyond half its weapon's range"),
    BOOL_KEY("multiple_shots", SIDE, D("false"), "true",
             "it fires all its multiple shots, each at -1"),
    NAME_KEY("cover", SIDE, om_wh7_cover_names, OM_WH7_COVER_COUNT, D("none"), "soft",
             "its cover against shots: soft -1 to hit, hard -2"),
    INT_KEY("target_in", SIDE, 0, UINT8_MAX, "0..255", D("0"), "12",
            "inches to its target's front (war machines; the sling's 9\")"),
    REGISTRY_KEY("machine", SIDE, DF("none", "none (from: the list's)"), "none",
                 "what a war-machine unit fires (oddsmaster list whfb7/machines)"),
    INT_KEY("guess_in", SIDE, 0, UINT8_MAX, "0..255", D("0"), "24",
            "a cannon's or stone thrower's guessed range, in inches"),
    INT_KEY("template_models", SIDE, 0, UINT8_MAX, "0..255", D("0"), "3",
            "models wholly under its flame template (grapeshot)"),
    INT_KEY("template_partial", SIDE, 0, UINT8_MAX, "0..255", D("0"), "2",
            "models partly under it (hit on a 4+)"),
    INT_KEY("base_width_mm", SIDE, 0, UINT8_MAX, "0..255", DF("0", "0: by troop type"), "25",
            "its models' base width, in mm"),
    INT_KEY("base_depth_mm", SIDE, 0, UINT8_MAX, "0..255", DF("0", "0: by troop type"), "50",
            "its models' base depth, in mm"),
    OTHER_KEY("spells", SIDE, NAMES, DF("[]", "none"), "[transmutation-of-lead]",
              "augments and hexes on the unit for this combat (oddsmaster list whfb7/spells)"),
    OTHER_KEY("mods", SIDE, MAPPING, DF("{}", "none"), "{to_hit: 1}",
              "modifiers of its own, added to its spells' (the mods keys)"),

    /* Modifiers (a.mods, b.mods), as spells give them (WHFB 7th edition, The
     * Lores of Magic). */
    INT_KEY("to_hit", MODS, -OM_WH7_MAX_MOD, OM_WH7_MAX_MOD, "-5..5", D("0"), "-1",
            "added to its close combat rolls to hit"),
    INT_KEY("to_wound", MODS, -OM_WH7_MAX_MOD, OM_WH7_MAX_MOD, "-5..5", D("0"), "1",
            "added to its rolls to wound"),
    INT_KEY("armour", MODS, -OM_WH7_MAX_MOD, OM_WH7_MAX_MOD, "-5..5", D("0"), "1",
            "added to its armour save's score: +1 is one worse"),
    INT_KEY("attacks", MODS, -OM_WH7_MAX_MOD, OM_WH7_MAX_MOD, "-5..5", D("0"), "2",
            "added to its Attacks"),
    INT_KEY("strength", MODS, -OM_WH7_MAX_MOD, OM_WH7_MAX_MOD, "-5..5", D("0"), "1",
            "added to its Strength"),
    INT_KEY("toughness", MODS, -OM_WH7_MAX_MOD, OM_WH7_MAX_MOD, "-5..5", D("0"), "-1",
            "added to its Toughness"),
    INT_KEY("ws", MODS, 0, (int)OM_WH7_CHAR_MAX, "0..10", DF("0", "0: unchanged"), "1",
            "its Weapon Skill becomes this"),
    BOOL_KEY("reroll_ones", MODS, D("false"), "true", "it re-rolls 1s to hit and to wound"),
    INT_KEY("leadership", MODS, -OM_WH7_MAX_MOD, OM_WH7_MAX_MOD, "-5..5", D("0"), "-3",
            "added to its Leadership for tests (not if immune to psychology)"),
    BOOL_KEY("halve_flee", MODS, D("false"), "true", "its flee and pursuit rolls are halved"),
    BOOL_KEY("mounts_idle", MODS, D("false"), "true",
             "its creatures do not attack: mounts, monsters and swarms"),
    SAVE_KEY("missile_ward", MODS, D("none"), "4+",
             "a ward save against missiles, normal and magic"),
    BOOL_KEY("soaked", MODS, D("false"), "true",
             "it shoots at -1, -2 with armour piercing weapons"),

    /* The casting attempt of kind magic (magic). */
    REGISTRY_KEY("spell", MAGIC, NO_DEFAULT("required"), "fireball",
                 "the spell, of the eight lores (oddsmaster list whfb7/spells)"),
    INT_KEY("casting_value", MAGIC, 0, (int)OM_WH7_MAX_CV, "0..15 (0, or 3 to 15)",
            DF("0", "0: the spell's; required where that is illegible"), "6",
            "the casting value"),
    INT_KEY("level", MAGIC, 1, (int)OM_WH7_MAX_WIZARD_LEVEL, "1..4",
            NO_DEFAULT("the first wizard character's of side A, else required"), "2",
            "the caster's wizard level"),
    INT_KEY("dice", MAGIC, 1, MAX_POWER_DICE, "1..7 (at most level + 1, 2 more with "
                                              "power_stone)",
            NO_DEFAULT("required"), "3", "power dice rolled"),
    BOOL_KEY("power_stone", MAGIC, D("false"), "true", "a Power Stone is used: 2 more dice"),
    INT_KEY("cast_bonus", MAGIC, 0, (int)OM_WH7_MAX_MAGIC_BONUS, "0..10", D("0"), "1",
            "added to the casting result"),
    INT_KEY("dispel_dice", MAGIC, 0, (int)OM_WH7_MAX_MAGIC_DICE, "0..20",
            DF("0", "0: no dispel attempt"), "2", "dice the opponent rolls to dispel"),
    INT_KEY("dispel_bonus", MAGIC, 0, (int)OM_WH7_MAX_MAGIC_BONUS, "0..10", D("0"), "1",
            "added to the dispel result"),
    BOOL_KEY("dispel_scroll", MAGIC, D("false"), "true", "the opponent reads a Dispel Scroll"),
    BOOL_KEY("in_feature", MAGIC, D("false"), "true",
             "the target is in the wood, hill or ruin the spell names: +1 Strength"),
    SAVE_KEY("caster_ward", MAGIC, NO_DEFAULT("that wizard character's ward, else none"), "5+",
             "the caster's ward save against his miscast"),
    INT_KEY("caster_contacts", MAGIC, 0, (int)OM_WH7_MAX_MODELS,
            "0..250 (at most side A's models)", D("0"), "2",
            "models of side A in base contact with him, hit by his miscast"),
    OTHER_KEY("caster", MAGIC, MAPPING,
              NO_DEFAULT("that wizard character's profile, else required"),
              "{profile: empire-battle-wizard-w}", "the caster's profile (the profile keys)"),
};

const size_t om_wh7_key_count = sizeof om_wh7_keys / sizeof om_wh7_keys[0];

const om_wh7_key *om_wh7_key_find(om_wh7_key_level level, const char *name)
{
    for (size_t i = 0; i < om_wh7_key_count; i++)
        if (om_wh7_keys[i].level == level && strcmp(om_wh7_keys[i].name, name) == 0)
            return &om_wh7_keys[i];
    return NULL;
}

/* What a key's value is, for people. */
static const char *type_text(const om_wh7_key *k)
{
    switch (k->type) {
    case OM_WH7_KEY_BOOL: return "true/false";
    case OM_WH7_KEY_INT: return k->range;
    case OM_WH7_KEY_SAVE: return "2+..6+, or none";
    case OM_WH7_KEY_NAME: return "name";
    case OM_WH7_KEY_TEXT: return "text";
    case OM_WH7_KEY_NAMES: return "list of names";
    case OM_WH7_KEY_MAPPING: return "mapping";
    case OM_WH7_KEY_MAPPINGS: return "list of mappings";
    case OM_WH7_KEY_UNIT_REF: return "army/unit";
    }
    return "";
}

size_t om_wh7_scenario_keys(om_game_key *out, size_t cap)
{
    for (size_t i = 0; i < om_wh7_key_count && i < cap; i++) {
        const om_wh7_key *k = &om_wh7_keys[i];
        out[i] = (om_game_key){.name = k->name, .where = om_wh7_key_level_names[k->level],
                               .type = type_text(k), .values = k->names,
                               .n_values = k->names ? k->n_names : 0, .fallback = k->fallback,
                               .help = k->help};
    }
    return om_wh7_key_count;
}
