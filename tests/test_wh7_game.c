/*
 * test_wh7_game.c: Warhammer Fantasy Battles 7th edition as a game of the game
 * interface (scenarios/whfb7/wh7_*.c): the scenario loader (every key reaches its
 * field of the engine's om_wh7_combat; every error names its line and field),
 * the list file of sample units, the descriptor (the engine's outcome fields
 * by kind, the headline of each kind, the clamp of two-byte counts, victory
 * points by WHFB 7th edition, Victory!), matrix units and cells, the list and
 * option hooks, the provenance JSON, that a run through the driver is the
 * engine's om_wh7_resolve trial for trial (same seed, same block streams),
 * and the table of scenario keys (scenarios/whfb7/wh7_keys.h): the keys hook, the
 * table against the loader's schema, examples, bounds and defaults.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "game.h"
#include "rng.h"
#include "run.h"
#include "wh7.h"
#include "wh7_keys.h"
#include "wh7_load_int.h"
#include "wh7_scenario.h"

/* ---------------------------------------------------------------- helpers */

/* Load `text` through the game interface; fails the test on error. */
static om_scenario *load(const char *text)
{
    om_scenario *sc = NULL;
    cr_assert_eq(om_scenario_load_text("t.yaml", text, strlen(text), &sc), OM_OK, "%s\n%s",
                 om_error_message(), text);
    return sc;
}

static const om_wh7_scenario *wh7_of(const om_scenario *sc)
{
    cr_assert_str_eq(sc->game->identity.name, "whfb7");
    return sc->setup;
}

/* The scenario text of one case: a base with a key or two added. */
typedef struct parts {
    const char *top;    /* top-level lines */
    const char *unit_a; /* lines under a.unit (4 spaces) */
    const char *side_a; /* lines under a (2 spaces) */
    const char *side_b; /* lines under b (2 spaces) */
    const char *magic;  /* lines under magic (2 spaces), or NULL for no magic */
} parts;

static void compose(char *out, size_t cap, const parts *p)
{
    snprintf(out, cap,
             "schema: oddsmaster-scenario/1\nruleset: whfb7\n%s"
             "a:\n  unit:\n    from: empire/swordsmen\n%s%s"
             "b:\n  unit:\n    from: orcs-goblins/orc-boyz\n%s%s%s",
             p->top ? p->top : "", p->unit_a ? p->unit_a : "", p->side_a ? p->side_a : "",
             p->side_b ? p->side_b : "", p->magic ? "magic:\n" : "", p->magic ? p->magic : "");
}

/* ---------------------------------------------------------------- every key */

/* How a field of om_wh7_combat is read. */
typedef enum kind_of_field { U8 = 0, I8, BOOLEAN, ENUM, U16, RULES } kind_of_field;

typedef struct key_case {
    parts text;         /* the scenario, the key added */
    size_t offset;      /* the field in om_wh7_combat */
    kind_of_field type; /* how to read it */
    long long want;     /* its expected value */
} key_case;

#define AT(member) offsetof(om_wh7_combat, member)

static long long read_field(const om_wh7_combat *c, size_t at, kind_of_field k)
{
    const unsigned char *p = (const unsigned char *)c + at;
    uint8_t u8;
    int8_t i8;
    bool b;
    int e;
    uint16_t u16;
    om_wh7_rules r;
    switch (k) {
    case U8: memcpy(&u8, p, 1); return u8;
    case I8: memcpy(&i8, p, 1); return i8;
    case BOOLEAN: memcpy(&b, p, sizeof b); return b;
    case ENUM: memcpy(&e, p, sizeof e); return e;
    case U16: memcpy(&u16, p, 2); return u16;
    case RULES: memcpy(&r, p, sizeof r); return (long long)r;
    }
    return -1;
}

#define UNIT(k, v) {.unit_a = "    " k "\n"}
#define SIDE(k, v) {.side_a = "  " k "\n"}

static const key_case key_cases[] = {
    /* Profile keys override the list unit's profile. */
    {UNIT("m: 5", 0), AT(side[0].unit.profile.m), U8, 5},
    {UNIT("ws: 7", 0), AT(side[0].unit.profile.ws), U8, 7},
    {UNIT("bs: 6", 0), AT(side[0].unit.profile.bs), U8, 6},
    {UNIT("s: 5", 0), AT(side[0].unit.profile.s), U8, 5},
    {UNIT("t: 6", 0), AT(side[0].unit.profile.t), U8, 6},
    {UNIT("w: 2", 0), AT(side[0].unit.profile.w), U8, 2},
    {UNIT("i: 9", 0), AT(side[0].unit.profile.i), U8, 9},
    {UNIT("a: 3", 0), AT(side[0].unit.profile.a), U8, 3},
    {UNIT("ld: 10", 0), AT(side[0].unit.profile.ld), U8, 10},
    {UNIT("profile: empire-greatsword", 0), AT(side[0].unit.profile.ld), U8, 8},
    {UNIT("troop: monstrous-infantry", 0), AT(side[0].unit.troop), ENUM, OM_WH7_MONSTROUS_INFANTRY},
    {UNIT("models: 12", 0), AT(side[0].unit.models), U8, 12},
    {UNIT("models: 3", 0), AT(side[0].unit.files), U8, 3},
    {UNIT("files: 4", 0), AT(side[0].unit.files), U8, 4},
    {{.unit_a = "    w: 2\n    wounds_lost: 1\n"}, AT(side[0].unit.wounds_lost), U8, 1},
    {UNIT("champion: false", 0), AT(side[0].unit.champion), BOOLEAN, 0},
    {UNIT("standard: false", 0), AT(side[0].unit.standard), BOOLEAN, 0},
    {UNIT("musician: false", 0), AT(side[0].unit.musician), BOOLEAN, 0},
    {UNIT("war_banner: true", 0), AT(side[0].unit.war_banner), BOOLEAN, 1},
    {UNIT("unit_strength: 2", 0), AT(side[0].unit.unit_strength), U8, 2},
    {UNIT("points: 99", 0), AT(side[0].unit.points), U16, 99},
    /* Points scale with models: 135 for 20, 68 for 10 (67.5, halves up). */
    {UNIT("models: 10", 0), AT(side[0].unit.points), U16, 68},
    {UNIT("equipment: {weapon: great-weapon}", 0), AT(side[0].unit.equipment.weapon), ENUM,
     OM_WH7_WEAPON_GREAT},
    {UNIT("equipment: {missile: bow}", 0), AT(side[0].unit.equipment.missile), ENUM,
     OM_WH7_MISSILE_BOW},
    {UNIT("equipment: {armour: heavy}", 0), AT(side[0].unit.equipment.armour), ENUM,
     OM_WH7_ARMOUR_HEAVY},
    {UNIT("equipment: {shield: false}", 0), AT(side[0].unit.equipment.shield), BOOLEAN, 0},
    {UNIT("equipment: {shield: false, enchanted_shield: true}", 0),
     AT(side[0].unit.equipment.enchanted_shield), BOOLEAN, 1},
    {{.unit_a = "    mount: {profile: empire-warhorse}\n    equipment: {barding: true}\n"},
     AT(side[0].unit.equipment.barding), BOOLEAN, 1},
    {UNIT("equipment: {scaly_skin: 6+}", 0), AT(side[0].unit.equipment.scaly_skin), U8, 6},
    {UNIT("equipment: {ward: 5+}", 0), AT(side[0].unit.equipment.ward), U8, 5},
    {UNIT("equipment: {ward: 4}", 0), AT(side[0].unit.equipment.ward), U8, 4},
    {UNIT("equipment: {save_bonus: -2}", 0), AT(side[0].unit.equipment.save_bonus), I8, -2},
    {UNIT("equipment: {magic_weapon: biting-blade}", 0), AT(side[0].unit.equipment.magic_weapon),
     ENUM, OM_WH7_MAGIC_WEAPON_BITING_BLADE},
    {UNIT("rules: [hatred, fear]", 0), AT(side[0].unit.traits.rules), RULES,
     (long long)(OM_WH7_RULE_HATRED | OM_WH7_RULE_FEAR)},
    {UNIT("damage: D3", 0), AT(side[0].unit.traits.damage), ENUM, OM_WH7_DAMAGE_D3},
    {UNIT("damage: 2", 0), AT(side[0].unit.traits.damage), ENUM, OM_WH7_DAMAGE_TWO},
    {UNIT("magic_resistance: 2", 0), AT(side[0].unit.traits.magic_resistance), U8, 2},
    {UNIT("mount: {profile: empire-warhorse}", 0), AT(side[0].unit.mount.profile.m), U8, 8},
    {UNIT("mount: {profile: empire-warhorse, m: 7}", 0), AT(side[0].unit.mount.profile.m), U8, 7},
    {UNIT("mount: {profile: empire-warhorse, rules: [fear]}", 0),
     AT(side[0].unit.mount.traits.rules), RULES, (long long)OM_WH7_RULE_FEAR},
    {UNIT("mount: {profile: empire-warhorse, damage: D6}", 0), AT(side[0].unit.mount.traits.damage),
     ENUM, OM_WH7_DAMAGE_D6},
    {UNIT("mount: {profile: empire-warhorse, magic_resistance: 1}", 0),
     AT(side[0].unit.mount.traits.magic_resistance), U8, 1},
    {UNIT("mount: {name: Steed, m: 8, ws: 3, bs: 0, s: 3, t: 3, w: 1, i: 3, a: 1, ld: 5}", 0),
     AT(side[0].unit.mount.profile.s), U8, 3},
    {UNIT("characters: [{profile: empire-captain}]", 0), AT(side[0].unit.characters), U8, 1},
    {UNIT("characters: [{profile: empire-captain}]", 0), AT(side[0].unit.character[0].profile.ws),
     U8, 5},
    {UNIT("characters: [{profile: empire-captain, ws: 6}]", 0),
     AT(side[0].unit.character[0].profile.ws), U8, 6},
    {UNIT("characters: [{profile: empire-captain, equipment: {armour: heavy}}]", 0),
     AT(side[0].unit.character[0].equipment.armour), ENUM, OM_WH7_ARMOUR_HEAVY},
    {UNIT("characters: [{profile: empire-captain, rules: [hatred]}]", 0),
     AT(side[0].unit.character[0].traits.rules), RULES, (long long)OM_WH7_RULE_HATRED},
    {UNIT("characters: [{profile: empire-captain, damage: D3}]", 0),
     AT(side[0].unit.character[0].traits.damage), ENUM, OM_WH7_DAMAGE_D3},
    {UNIT("characters: [{profile: empire-captain, magic_resistance: 3}]", 0),
     AT(side[0].unit.character[0].traits.magic_resistance), U8, 3},
    {UNIT("characters: [{profile: empire-captain, mount: {profile: empire-warhorse}}]", 0),
     AT(side[0].unit.character[0].mount.profile.m), U8, 8},
    {UNIT("characters: [{profile: empire-captain, unit_strength: 2}]", 0),
     AT(side[0].unit.character[0].unit_strength), U8, 2},
    {UNIT("characters: [{profile: empire-captain, wounds_lost: 1}]", 0),
     AT(side[0].unit.character[0].wounds_lost), U8, 1},
    {UNIT("characters: [{profile: empire-captain, general: true}]", 0),
     AT(side[0].unit.character[0].general), BOOLEAN, 1},
    {UNIT("characters: [{profile: empire-captain, battle_standard: true}]", 0),
     AT(side[0].unit.character[0].battle_standard), BOOLEAN, 1},
    {UNIT("characters: [{profile: empire-battle-wizard-w, wizard_level: 2}]", 0),
     AT(side[0].unit.character[0].wizard_level), U8, 2},
    {UNIT("characters: [{profile: empire-captain}, {profile: empire-warrior-priest}]", 0),
     AT(side[0].unit.character[1].profile.a), U8, 2},
    /* Side keys. */
    {SIDE("charging: true", 0), AT(side[0].charging), BOOLEAN, 1},
    {SIDE("arc: flank", 0), AT(side[0].arc), ENUM, OM_WH7_ARC_FLANK},
    {SIDE("arc: rear", 0), AT(side[0].arc), ENUM, OM_WH7_ARC_REAR},
    {SIDE("contact: 5", 0), AT(side[0].contact), U8, 5},
    {SIDE("high_ground: true", 0), AT(side[0].high_ground), BOOLEAN, 1},
    {SIDE("moved: true", 0), AT(side[0].moved), BOOLEAN, 1},
    {SIDE("defended_obstacle: true", 0), AT(side[0].defended_obstacle), BOOLEAN, 1},
    {SIDE("general_ld: 9", 0), AT(side[0].general_ld), U8, 9},
    {SIDE("battle_standard_near: true", 0), AT(side[0].battle_standard_near), BOOLEAN, 1},
    {SIDE("pursue: restrain", 0), AT(side[0].pursue), ENUM, OM_WH7_PURSUE_RESTRAIN},
    {{.side_a = "  response: flee\n", .side_b = "  charging: true\n"}, AT(side[0].response),
     ENUM, OM_WH7_RESPONSE_FLEE},
    {SIDE("gap_in: 7", 0), AT(side[0].gap_in), U8, 7},
    {SIDE("flee_blocked_in: 6", 0), AT(side[0].flee_blocked_in), U8, 6},
    {SIDE("friend_ld: 8", 0), AT(side[0].friend_ld), U8, 8},
    {SIDE("shooters: 4", 0), AT(side[0].shooters), U8, 4},
    {SIDE("on_hill: true", 0), AT(side[0].on_hill), BOOLEAN, 1},
    {SIDE("long_range: true", 0), AT(side[0].long_range), BOOLEAN, 1},
    {SIDE("multiple_shots: true", 0), AT(side[0].multiple_shots), BOOLEAN, 1},
    {SIDE("cover: hard", 0), AT(side[0].cover), ENUM, OM_WH7_COVER_HARD},
    {SIDE("target_in: 20", 0), AT(side[0].target_in), U8, 20},
    {SIDE("machine: stone-thrower", 0), AT(side[0].machine), ENUM, OM_WH7_MACHINE_STONE_THROWER},
    {SIDE("guess_in: 18", 0), AT(side[0].guess_in), U8, 18},
    {SIDE("template_models: 3", 0), AT(side[0].template_models), U8, 3},
    {SIDE("template_partial: 2", 0), AT(side[0].template_partial), U8, 2},
    {SIDE("base_width_mm: 25", 0), AT(side[0].base_width_mm), U8, 25},
    {SIDE("base_depth_mm: 50", 0), AT(side[0].base_depth_mm), U8, 50},
    {SIDE("spells: [transmutation-of-lead]", 0), AT(side[0].mods.to_wound), I8, -1},
    {SIDE("spells: [portent-of-far]", 0), AT(side[0].mods.reroll_ones), BOOLEAN, 1},
    {SIDE("mods: {to_hit: -1}", 0), AT(side[0].mods.to_hit), I8, -1},
    {SIDE("mods: {to_wound: 1}", 0), AT(side[0].mods.to_wound), I8, 1},
    {SIDE("mods: {armour: 2}", 0), AT(side[0].mods.armour), I8, 2},
    {SIDE("mods: {attacks: 3}", 0), AT(side[0].mods.attacks), I8, 3},
    {SIDE("mods: {strength: -2}", 0), AT(side[0].mods.strength), I8, -2},
    {SIDE("mods: {toughness: 1}", 0), AT(side[0].mods.toughness), I8, 1},
    {SIDE("mods: {ws: 1}", 0), AT(side[0].mods.ws), U8, 1},
    {SIDE("mods: {reroll_ones: true}", 0), AT(side[0].mods.reroll_ones), BOOLEAN, 1},
    {SIDE("mods: {leadership: -3}", 0), AT(side[0].mods.leadership), I8, -3},
    {SIDE("mods: {halve_flee: true}", 0), AT(side[0].mods.halve_flee), BOOLEAN, 1},
    {SIDE("mods: {mounts_idle: true}", 0), AT(side[0].mods.mounts_idle), BOOLEAN, 1},
    {SIDE("mods: {missile_ward: 4+}", 0), AT(side[0].mods.missile_ward), U8, 4},
    {SIDE("mods: {soaked: true}", 0), AT(side[0].mods.soaked), BOOLEAN, 1},
    /* A spell adds to the side's own modifiers. */
    {SIDE("mods: {to_hit: -1}\n  spells: [transmutation-of-lead]", 0), AT(side[0].mods.to_hit),
     I8, -2},
    /* Top-level keys. */
    {{.top = "kind: engagement\n"}, AT(kind), ENUM, OM_WH7_KIND_ENGAGEMENT},
    {{.top = "challenge: true\n"}, AT(challenge), BOOLEAN, 1},
    {{.top = "options: {max_rounds: 3}\n"}, AT(options.max_rounds), U8, 3},
    /* Magic keys (kind magic, a wizard of side A). */
};

Test(wh7_load, every_key_reaches_its_field)
{
    for (size_t i = 0; i < sizeof key_cases / sizeof key_cases[0]; i++) {
        const key_case *k = &key_cases[i];
        char text[2048];
        om_scenario *sc;
        compose(text, sizeof text, &k->text);
        sc = load(text);
        cr_expect_eq(read_field(&wh7_of(sc)->combat, k->offset, k->type), k->want,
                     "case %zu: got %lld, want %lld\n%s", i,
                     read_field(&wh7_of(sc)->combat, k->offset, k->type), k->want, text);
        om_scenario_free(sc);
    }
}

/* Without them, every key of a case keeps the list unit's value, so each case
 * tests a change. */
Test(wh7_load, the_base_differs_from_every_case)
{
    char text[2048];
    const parts none = {0};
    om_scenario *sc;
    compose(text, sizeof text, &none);
    sc = load(text);
    for (size_t i = 0; i < sizeof key_cases / sizeof key_cases[0]; i++)
        cr_expect_neq(read_field(&wh7_of(sc)->combat, key_cases[i].offset, key_cases[i].type),
                      key_cases[i].want, "case %zu sets the base's value", i);
    om_scenario_free(sc);
}

/* Every switch of the engine's option registry is settable under options:,
 * and a fixed reading is refused. */
Test(wh7_load, every_option_is_settable)
{
    for (size_t i = 0; i < om_wh7_option_count(); i++) {
        const om_wh7_option *opt = om_wh7_option_at(i);
        const bool number = strcmp(opt->name, "max_rounds") == 0;
        char top[128], text[2048], buf[32];
        om_scenario *sc = NULL;
        om_status st;
        snprintf(top, sizeof top, "options:\n  %s: %s\n", opt->name, number ? "4" : "true");
        compose(text, sizeof text, &(parts){.top = top});
        st = om_scenario_load_text("t.yaml", text, strlen(text), &sc);
        if (opt->offset == OM_WH7_OPTION_FIXED) {
            cr_expect_eq(st, OM_EINVAL, "%s is fixed", opt->name);
            cr_expect(strstr(om_error_message(), "t.yaml:4: field 'options.") != NULL, "%s",
                      om_error_message());
            continue;
        }
        cr_assert_eq(st, OM_OK, "%s: %s", opt->name, om_error_message());
        cr_expect_str_eq(om_wh7_option_value(&wh7_of(sc)->combat.options, opt, buf, sizeof buf),
                         number ? "4" : "true", "%s", opt->name);
        om_scenario_free(sc);
    }
}

/* Names, origins and points of the sides. */
Test(wh7_load, names_origins_and_points)
{
    om_scenario *sc = load("schema: oddsmaster-scenario/1\nruleset: whfb7\n"
                           "a:\n  unit:\n    profile: empire-knight\n    models: 5\n"
                           "    mount: {profile: empire-warhorse}\n"
                           "    characters: [{profile: empire-captain, points: 80}]\n"
                           "b:\n  unit:\n    from: orcs-goblins/orc-boyz\n    name: Da Boyz\n");
    const om_wh7_scenario *ws = wh7_of(sc);
    cr_expect_str_eq(ws->side[0].name, "Knight");
    cr_expect_str_eq(ws->side[0].profile, "empire-knight");
    cr_expect_str_eq(ws->side[0].from, "");
    cr_expect_eq(ws->side[0].character_points, 80u);
    cr_expect_eq(ws->combat.side[0].unit.troop, OM_WH7_CAVALRY, "a mount makes cavalry");
    cr_expect_eq(ws->combat.side[0].unit.files, 5u, "five wide by default");
    cr_expect_eq(ws->combat.side[0].unit.points, 0u);
    cr_expect_str_eq(ws->side[1].name, "Da Boyz");
    cr_expect_str_eq(ws->side[1].from, "orcs-goblins/orc-boyz");
    cr_expect_str_eq(ws->combat.side[1].unit.profile.name, "Da Boyz");
    cr_expect_eq(ws->combat.side[1].unit.points, 135u);
    cr_expect_str_eq(sc->title, "Knight vs Da Boyz");
    cr_expect_str_eq(sc->kind, "combat");
    cr_expect_str_eq(sc->ruleset, "whfb7");
    om_scenario_free(sc);
}

/* A profile written out in full. */
Test(wh7_load, inline_profile)
{
    om_scenario *sc = load("schema: oddsmaster-scenario/1\nruleset: whfb7\ntitle: Militia\n"
                           "a:\n  unit: {name: Militia, m: 4, ws: 2, bs: 2, s: 3, t: 3, w: 1, "
                           "i: 3, a: 1, ld: 6, models: 15, files: 3}\n"
                           "b:\n  unit: {from: orcs-goblins/goblins}\n");
    const om_wh7_unit *u = &wh7_of(sc)->combat.side[0].unit;
    cr_expect_str_eq(u->profile.name, "Militia");
    cr_expect_eq(u->profile.ws, 2u);
    cr_expect_eq(u->profile.ld, 6u);
    cr_expect_eq(u->files, 3u);
    cr_expect_str_eq(wh7_of(sc)->side[0].profile, "");
    cr_expect_str_eq(sc->title, "Militia");
    om_scenario_free(sc);
}

/* The magic kind: every key of magic:, and the defaults from side A's wizard. */
Test(wh7_load, magic_keys)
{
    static const struct {
        const char *line;
        size_t offset;
        kind_of_field type;
        long long want;
    } cases[] = {
        {"  level: 1\n", AT(magic.level), U8, 1},
        {"  casting_value: 7\n", AT(magic.casting_value), U8, 7},
        {"  power_stone: true\n", AT(magic.power_stone), BOOLEAN, 1},
        {"  cast_bonus: 1\n", AT(magic.cast_bonus), U8, 1},
        {"  dispel_dice: 3\n", AT(magic.dispel_dice), U8, 3},
        {"  dispel_bonus: 1\n", AT(magic.dispel_bonus), U8, 1},
        {"  dispel_scroll: true\n", AT(magic.dispel_scroll), BOOLEAN, 1},
        {"  in_feature: true\n", AT(magic.in_feature), BOOLEAN, 1},
        {"  caster_ward: 5+\n", AT(magic.caster_ward), U8, 5},
        {"  caster_contacts: 4\n", AT(magic.caster_contacts), U8, 4},
        {"  caster: {profile: empire-captain}\n", AT(magic.caster.ws), U8, 5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[2048], magic[256];
        om_scenario *sc;
        snprintf(magic, sizeof magic, "  spell: fireball\n  dice: 2\n%s", cases[i].line);
        compose(text, sizeof text,
                &(parts){.top = "kind: magic\n",
                         .unit_a = "    characters: [{profile: empire-battle-wizard-w, "
                                   "wizard_level: 2, equipment: {ward: 6+}}]\n",
                         .magic = magic});
        sc = load(text);
        cr_expect_eq(read_field(&wh7_of(sc)->combat, cases[i].offset, cases[i].type),
                     cases[i].want, "%s", cases[i].line);
        om_scenario_free(sc);
    }
}

Test(wh7_load, magic_defaults_from_the_wizard)
{
    char text[2048];
    om_scenario *sc;
    compose(text, sizeof text,
            &(parts){.top = "kind: magic\n",
                     .unit_a = "    characters: [{profile: empire-battle-wizard-w, "
                               "wizard_level: 2, equipment: {ward: 6+}}]\n",
                     .magic = "  spell: the-crows-feast\n  dice: 3\n"});
    sc = load(text);
    const om_wh7_magic *m = &wh7_of(sc)->combat.magic;
    cr_expect_eq(m->lore, OM_WH7_LORE_BEASTS);
    cr_expect_eq(m->spell, 3u);
    cr_expect_eq(m->level, 2u);
    cr_expect_eq(m->dice, 3u);
    cr_expect_eq(m->caster_ward, 6u);
    cr_expect_str_eq(m->caster.name, "Battle Wizard (W)");
    cr_expect_str_eq(wh7_of(sc)->spell, "the-crows-feast");
    cr_expect_null(sc->warnings, "a damage spell is simulated whole");
    om_scenario_free(sc);
    /* A spell that is neither damage nor a combat augment is cast only: said. */
    compose(text, sizeof text,
            &(parts){.top = "kind: magic\n",
                     .unit_a = "    characters: [{profile: empire-battle-wizard-w, "
                               "wizard_level: 2}]\n",
                     .magic = "  spell: steed-of-shadows\n  dice: 2\n"});
    sc = load(text);
    cr_assert_not_null(sc->warnings);
    cr_expect(strstr(sc->warnings, "steed-of-shadows: only whether it takes effect") != NULL,
              "%s", sc->warnings);
    om_scenario_free(sc);
}

/* ---------------------------------------------------------------- every error */

typedef struct error_case {
    parts text;          /* the scenario */
    om_status status;    /* the error */
    const char *where;   /* "LINE: field 'PATH'" expected after "t.yaml:" */
    const char *reason;  /* a fragment of the reason */
} error_case;

/* Line numbers: schema 1, ruleset 2, top lines from 3; with no top lines a is
 * at 3, a.unit at 4, a.unit.from at 5, added unit lines from 6. */
static const error_case error_cases[] = {
    {{.unit_a = "    modles: 3\n"}, OM_EPARSE, "6: field 'a.unit.modles'", "did you mean 'models'"},
    {{.unit_a = "    charging: true\n"}, OM_EPARSE, "6: field 'a.unit.charging'", "side key"},
    {{.side_a = "  models: 3\n"}, OM_EPARSE, "6: field 'a.models'", "unit key"},
    {{.unit_a = "    shield: true\n"}, OM_EPARSE, "6: field 'a.unit.shield'", "equipment"},
    {{.side_a = "  max_rounds: 3\n"}, OM_EPARSE, "6: field 'a.max_rounds'", "is an option"},
    {{.unit_a = "    equipment: {wepon: spear}\n"}, OM_EPARSE,
     "6: field 'a.unit.equipment.wepon'", "did you mean 'weapon'"},
    {{.unit_a = "    rules: hatred\n"}, OM_EPARSE, "6: field 'a.unit.rules'", "expected a list"},
    {{.unit_a = "    models: [3]\n"}, OM_EPARSE, "6: field 'a.unit.models'", "expected an integer"},
    {{.unit_a = "    models: three\n"}, OM_EPARSE, "6: field 'a.unit.models'", "expected an integer"},
    {{.unit_a = "    models: -1\n"}, OM_EINVAL, "6: field 'a.unit.models'", "negative"},
    {{.unit_a = "    models: 300\n"}, OM_EINVAL, "6: field 'a.unit.models'", "too large"},
    {{.unit_a = "    models: 251\n"}, OM_EINVAL, "6: field 'a.unit.models'", "must be 0 to 250"},
    {{.unit_a = "    models: 0\n"}, OM_EINVAL, "6: field 'a.unit.models'", "no model"},
    {{.unit_a = "    champion: maybe\n"}, OM_EPARSE, "6: field 'a.unit.champion'", "true or false"},
    {{.unit_a = "    name: \"\"\n"}, OM_EINVAL, "6: field 'a.unit.name'", "must not be empty"},
    {{.unit_a = "    name: A name that is far too long to be the name of a profile\n"}, OM_EINVAL,
     "6: field 'a.unit.name'", "at most 47"},
    {{.unit_a = "    profile: empire-swordsmen\n"}, OM_ENOTFOUND, "6: field 'a.unit.profile'",
     "did you mean 'empire-swordsman'"},
    {{.unit_a = "    profile: greatsword\n"}, OM_ENOTFOUND, "6: field 'a.unit.profile'",
     "did you mean 'empire-greatsword'"},
    {{.unit_a = "    profile: rulebook-war-machines-bolt-thrower-typical\n"}, OM_EINVAL,
     "6: field 'a.unit.profile'", "prints M as 'as crew'"},
    {{.unit_a = "    troop: horde\n"}, OM_EPARSE, "6: field 'a.unit.troop'", "troop type"},
    {{.unit_a = "    equipment: {weapon: sword}\n"}, OM_EPARSE,
     "6: field 'a.unit.equipment.weapon'", "unknown close combat weapon 'sword'"},
    {{.unit_a = "    equipment: {missile: musket}\n"}, OM_EPARSE,
     "6: field 'a.unit.equipment.missile'", "unknown missile weapon 'musket'"},
    {{.unit_a = "    equipment: {armour: full-plate}\n"}, OM_EPARSE,
     "6: field 'a.unit.equipment.armour'", "unknown armour"},
    {{.unit_a = "    equipment: {magic_weapon: sword-of-striker}\n"}, OM_EPARSE,
     "6: field 'a.unit.equipment.magic_weapon'", "did you mean 'sword-of-striking'"},
    {{.unit_a = "    equipment: {ward: good}\n"}, OM_EPARSE, "6: field 'a.unit.equipment.ward'",
     "expected a save"},
    {{.unit_a = "    equipment: {ward: 300+}\n"}, OM_EINVAL, "6: field 'a.unit.equipment.ward'",
     "out of range"},
    {{.unit_a = "    equipment: {ward: 1+}\n"}, OM_EINVAL, "6: field 'a.unit.equipment.ward'",
     "must be 2 to 6"},
    {{.unit_a = "    equipment: {save_bonus: 7}\n"}, OM_EINVAL,
     "6: field 'a.unit.equipment.save_bonus'", "must be -6 to 6"},
    {{.unit_a = "    equipment: {save_bonus: x}\n"}, OM_EPARSE,
     "6: field 'a.unit.equipment.save_bonus'", "expected an integer"},
    {{.unit_a = "    equipment: {weapon: lance}\n"}, OM_EINVAL,
     "6: field 'a.unit.equipment.weapon'", "cannot fight with the lance"},
    {{.unit_a = "    equipment: {barding: true}\n"}, OM_EINVAL,
     "6: field 'a.unit.equipment.barding'", "needs a mount"},
    {{.unit_a = "    equipment: {enchanted_shield: true}\n"}, OM_EINVAL,
     "6: field 'a.unit.equipment.enchanted_shield'", "second one"},
    {{.unit_a = "    rules: [fearr]\n"}, OM_EPARSE, "6: field 'a.unit.rules'",
     "did you mean 'fear'"},
    {{.unit_a = "    damage: D4\n"}, OM_EPARSE, "6: field 'a.unit.damage'", "unknown damage"},
    {{.unit_a = "    magic_resistance: 4\n"}, OM_EINVAL, "6: field 'a.unit.magic_resistance'",
     "must be 0 to 3"},
    {{.unit_a = "    files: 25\n"}, OM_EINVAL, "6: field 'a.unit.files'", "must be 1 to 20"},
    {{.unit_a = "    ws: 11\n"}, OM_EINVAL, "6: field 'a.unit.ws'", "must be 0 to 10"},
    {{.unit_a = "    wounds_lost: 1\n"}, OM_EINVAL, "6: field 'a.unit.wounds_lost'",
     "must be 0 to 0"},
    {{.unit_a = "    standard: false\n    war_banner: true\n"}, OM_EINVAL,
     "7: field 'a.unit.war_banner'", "needs a standard"},
    {{.unit_a = "    mount: {m: 8}\n"}, OM_EPARSE, "6: field 'a.unit.mount.name'",
     "required key 'name' is missing"},
    {{.unit_a = "    mount: {profile: empire-warhorse, t: 0}\n"}, OM_EINVAL,
     "6: field 'a.unit.mount.t'", "must be 1 to 10"},
    {{.unit_a = "    characters: [{name: Hero}]\n"}, OM_EPARSE,
     "6: field 'a.unit.characters[0].m'", "required key 'm' is missing"},
    {{.unit_a = "    characters: [{profile: empire-captain}, {profile: empire-captain}, "
                "{profile: empire-captain}]\n"}, OM_EINVAL, "6: field 'a.unit.characters'",
     "at most 2"},
    {{.unit_a = "    characters: [{profile: empire-captain, wizard_level: 5}]\n"}, OM_EINVAL,
     "6: field 'a.unit.characters[0].wizard_level'", "must be 0 to 4"},
    {{.unit_a = "    characters: [{profile: empire-captain, rules: [unbreakable]}]\n"},
     OM_EINVAL, "6: field 'a.unit.characters[0].rules'", "cannot join"},
    {{.unit_a = "    characters: [{profile: empire-captain, points: x}]\n"}, OM_EPARSE,
     "6: field 'a.unit.characters[0].points'", "expected an integer"},
    {{.side_a = "  arc: side\n"}, OM_EPARSE, "6: field 'a.arc'", "unknown arc"},
    {{.side_a = "  pursue: never\n"}, OM_EPARSE, "6: field 'a.pursue'", "pursuit choice"},
    {{.side_a = "  response: charge\n"}, OM_EPARSE, "6: field 'a.response'", "charge response"},
    {{.side_a = "  response: flee\n"}, OM_EINVAL, "6: field 'a.response'",
     "needs the other side to charge"},
    {{.side_a = "  charging: true\n", .side_b = "  response: stand-and-shoot\n"}, OM_EINVAL,
     "10: field 'b.response'", "needs a missile weapon"},
    {{.side_a = "  charging: true\n", .side_b = "  charging: true\n"}, OM_EINVAL,
     "10: field 'b.charging'", "both sides cannot charge"},
    {{.side_a = "  cover: wall\n"}, OM_EPARSE, "6: field 'a.cover'", "unknown cover"},
    {{.side_a = "  machine: catapult\n"}, OM_EPARSE, "6: field 'a.machine'", "unknown war machine"},
    {{.side_a = "  contact: 30\n"}, OM_EINVAL, "6: field 'a.contact'", "must be 1 to 20"},
    {{.side_a = "  general_ld: 11\n"}, OM_EINVAL, "6: field 'a.general_ld'", "must be 0 to 10"},
    {{.side_a = "  spells: [fireball]\n"}, OM_EUNSUPPORTED, "6: field 'a.spells'",
     "cast it with kind: magic"},
    {{.side_a = "  spells: [the-oxen-stands]\n"}, OM_EUNSUPPORTED, "6: field 'a.spells'",
     "no effect on a unit's dice"},
    {{.side_a = "  spells: [iron-skin]\n"}, OM_EPARSE, "6: field 'a.spells'", "unknown spell"},
    {{.side_a = "  mods: {to_hit: 6}\n"}, OM_EINVAL, "6: field 'a.mods.to_hit'", "must be -5 to 5"},
    {{.side_a = "  mods: {ws: 11}\n"}, OM_EINVAL, "6: field 'a.mods.ws'", "must be 0 to 10"},
    {{.side_a = "  mods: {armor: 1}\n"}, OM_EPARSE, "6: field 'a.mods.armor'",
     "did you mean 'armour'"},
    {{.top = "kind: battle\n"}, OM_EPARSE, "3: field 'kind'", "unknown kind"},
    {{.top = "title: \"\"\n"}, OM_EINVAL, "3: field 'title'", "must not be empty"},
    {{.top = "challenge: often\n"}, OM_EPARSE, "3: field 'challenge'", "true or false"},
    {{.top = "options: [max_rounds]\n"}, OM_EPARSE, "3: field 'options'", "a mapping"},
    {{.top = "options: {max_round: 3}\n"}, OM_EPARSE, "3: field 'options.max_round'",
     "did you mean 'max_rounds'"},
    {{.top = "options: {frobnicate: 3}\n"}, OM_EPARSE, "3: field 'options.frobnicate'",
     "switches are"},
    {{.top = "options: {strike_tiers: true}\n"}, OM_EINVAL, "3: field 'options.strike_tiers'",
     "fixed reading"},
    {{.top = "options:\n  max_rounds: 3\n  max_rounds: 4\n"}, OM_EPARSE,
     "5: field 'options.max_rounds'", "duplicate option"},
    {{.top = "options: {cc_hit_unclamped: perhaps}\n"}, OM_EPARSE,
     "3: field 'options.cc_hit_unclamped'", "true or false"},
    {{.top = "options: {max_rounds: many}\n"}, OM_EPARSE, "3: field 'options.max_rounds'",
     "expected an integer"},
    {{.top = "options: {max_rounds: 101}\n"}, OM_EINVAL, "3: field 'options.max_rounds'",
     "0 to 100"},
    {{.magic = "  spell: fireball\n  dice: 2\n"}, OM_EPARSE, "9: field 'magic'",
     "only with 'kind: magic'"},
    {{.top = "kind: magic\n"}, OM_EPARSE, "1: field 'magic'", "required key 'magic'"},
    {{.top = "kind: magic\n", .magic = "  dice: 2\n"}, OM_EPARSE, "10: field 'magic.spell'",
     "required key 'spell'"},
    {{.top = "kind: magic\n", .magic = "  spell: fireball\n"}, OM_EPARSE,
     "10: field 'magic.dice'", "required key 'dice'"},
    {{.top = "kind: magic\n", .magic = "  spell: fireblast\n  dice: 2\n"}, OM_EPARSE,
     "11: field 'magic.spell'", "unknown spell"},
    {{.top = "kind: magic\n", .magic = "  spell: fireball\n  dice: 2\n"}, OM_EPARSE,
     "10: field 'magic.level'", "no wizard"},
    {{.top = "kind: magic\n", .magic = "  spell: fireball\n  dice: 2\n  level: 1\n"}, OM_EPARSE,
     "10: field 'magic.caster'", "no wizard"},
    {{.top = "kind: magic\n",
      .magic = "  spell: fireball\n  dice: 3\n  level: 1\n  caster: {profile: empire-captain}\n"},
     OM_EINVAL, "12: field 'magic.dice'", "rolls 1 to 2 power dice"},
    {{.top = "kind: magic\n",
      .magic = "  spell: rule-of-burning-iron\n  dice: 2\n  level: 1\n  caster: {profile: "
               "empire-captain}\n"},
     OM_EINVAL, "10: field 'magic.casting_value'", "illegible"},
    {{.top = "kind: volley\n"}, OM_EINVAL, "6: field 'a.unit.equipment.missile'",
     "(the value of its 'from')"},
    {{.top = "kind: volley\n", .side_a = "  machine: cannon\n"}, OM_EINVAL, "7: field 'a.machine'",
     "only a war-machine unit"},
};

/* `from:` errors, on a unit of its own. */
static const struct {
    const char *from;
    om_status status;
    const char *reason;
} from_cases[] = {
    {"empire/swordsman", OM_ENOTFOUND, "did you mean 'swordsmen'"},
    {"empir/swordsmen", OM_ENOTFOUND, "did you mean 'empire'"},
    {"swordsmen", OM_EINVAL, "not army/unit"},
    {"empire/swordsmen/x", OM_EINVAL, "not army/unit"},
};

Test(wh7_load, every_error_names_its_line_and_field)
{
    for (size_t i = 0; i < sizeof error_cases / sizeof error_cases[0]; i++) {
        const error_case *e = &error_cases[i];
        char text[2048], where[160];
        om_scenario *sc = NULL;
        om_status st;
        compose(text, sizeof text, &e->text);
        st = om_scenario_load_text("t.yaml", text, strlen(text), &sc);
        snprintf(where, sizeof where, "t.yaml:%s: ", e->where);
        cr_expect_eq(st, e->status, "case %zu: status %d, want %d: %s\n%s", i, (int)st,
                     (int)e->status, om_error_message(), text);
        cr_expect_null(sc);
        cr_expect(strstr(om_error_message(), where) != NULL, "case %zu: want '%s' in: %s\n%s", i,
                  where, om_error_message(), text);
        cr_expect(strstr(om_error_message(), e->reason) != NULL, "case %zu: want '%s' in: %s",
                  i, e->reason, om_error_message());
        om_scenario_free(sc);
    }
    for (size_t i = 0; i < sizeof from_cases / sizeof from_cases[0]; i++) {
        char text[512];
        om_scenario *sc = NULL;
        snprintf(text, sizeof text,
                 "schema: oddsmaster-scenario/1\nruleset: whfb7\na:\n  unit:\n    from: %s\n"
                 "b:\n  unit: {from: orcs-goblins/orc-boyz}\n", from_cases[i].from);
        cr_expect_eq(om_scenario_load_text("t.yaml", text, strlen(text), &sc),
                     from_cases[i].status, "%s: %s", from_cases[i].from, om_error_message());
        cr_expect(strstr(om_error_message(), "t.yaml:5: field 'a.unit.from': ") != NULL, "%s",
                  om_error_message());
        cr_expect(strstr(om_error_message(), from_cases[i].reason) != NULL, "%s",
                  om_error_message());
    }
}

/* A value the file does not write is reported where it came from. */
Test(wh7_load, a_profile_value_is_reported_at_its_profile)
{
    om_scenario *sc = NULL;
    const char text[] = "schema: oddsmaster-scenario/1\nruleset: whfb7\na:\n  unit:\n"
                        "    name: Warhawks\n    models: 3\n    profile: wood-elves-warhawk\n"
                        "b:\n  unit: {from: orcs-goblins/orc-boyz}\n";
    cr_expect_eq(om_scenario_load_text("t.yaml", text, strlen(text), &sc), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "t.yaml:7: field 'a.unit.w': must be 1 to 10 (got 0) "
                                         "(the value of its 'profile')") != NULL,
              "%s", om_error_message());
}

/* Malformed documents are the shared helpers' errors, for this game too. */
Test(wh7_load, malformed_documents)
{
    static const struct {
        const char *text, *where;
    } cases[] = {
        {"schema: oddsmaster-scenario/1\nruleset: whfb7\na: [\n", "t.yaml:"},
        {"schema: oddsmaster-scenario/2\nruleset: whfb7\na: {}\nb: {}\n", "t.yaml:1: field 'schema'"},
        {"schema: oddsmaster-scenario/1\nruleset: whfb7\nb:\n  unit: {from: empire/spearmen}\n",
         "field 'a'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        om_scenario *sc = NULL;
        cr_expect_eq(om_scenario_load_text("t.yaml", cases[i].text, strlen(cases[i].text), &sc),
                     OM_EPARSE, "%zu: %s", i, om_error_message());
        cr_expect(strstr(om_error_message(), cases[i].where) != NULL, "%zu: %s", i,
                  om_error_message());
    }
}

/* ---------------------------------------------------------------- the list file */

Test(wh7_list, the_sample_list)
{
    om_wh7_list *l = NULL;
    const om_wh7_list_unit *u = NULL;
    cr_assert_eq(om_wh7_list_load(&l), OM_OK, "%s", om_error_message());
    cr_expect_geq(l->n, 12u);
    cr_assert_eq(om_wh7_list_find(l, "empire/great-cannon", &u), OM_OK);
    cr_expect_eq(u->machine, OM_WH7_MACHINE_GREAT_CANNON);
    cr_expect_eq(u->unit.troop, OM_WH7_WAR_MACHINE);
    cr_assert_eq(om_wh7_list_find(l, "empire/knights", &u), OM_OK);
    cr_expect_eq(u->unit.troop, OM_WH7_CAVALRY);
    cr_expect_str_eq(u->unit.mount.profile.name, "Warhorse");
    cr_expect_eq(u->unit.equipment.weapon, OM_WH7_WEAPON_LANCE);
    cr_expect_str_eq(u->army_name, "Empire");
    for (size_t i = 0; i < l->n; i++) {
        om_wh7_combat c;
        om_wh7_check_failure why;
        memset(&c, 0, sizeof c);
        c.side[0].unit = c.side[1].unit = l->units[i].unit;
        cr_expect_eq(om_wh7_check(&c, &why), OM_OK, "%s: %s %s", l->units[i].id, why.field,
                     why.reason);
        cr_expect_gt(l->units[i].unit.points, 0u, "%s has points", l->units[i].id);
    }
    om_wh7_list_free(l);
}

Test(wh7_list, errors_name_the_line)
{
    static const struct {
        const char *units, *where, *reason;
    } cases[] = {
        {"      - {id: a, profile: empire-spearman, models: 5}\n"
         "      - {id: a, profile: empire-spearman, models: 5}\n",
         "l.yaml:10: field 'armies[0].units[1].id'", "given twice"},
        {"      - {id: Big Guns, profile: empire-spearman, models: 5}\n",
         "l.yaml:9: field 'armies[0].units[0].id'", "not an id"},
        {"      - {id: a, machine: ballista, troop: war-machine, profile: empire-spearman, "
         "models: 3}\n", "l.yaml:9: field 'armies[0].units[0].machine'", "unknown war machine"},
        {"      - {id: a, machine: cannon, profile: empire-spearman, models: 3}\n",
         "l.yaml:9: field 'armies[0].units[0].machine'", "troop war-machine"},
        {"      - {id: a, profile: empire-spearmen, models: 3}\n",
         "l.yaml:9: field 'armies[0].units[0].profile'", "did you mean"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        om_wh7_list *l = NULL;
        snprintf(text, sizeof text,
                 "schema: oddsmaster-whfb7-list/1\nruleset: whfb7\nname: T\nversion: \"1\"\n"
                 "armies:\n  - id: empire\n    name: Empire\n    units:\n%s", cases[i].units);
        cr_expect_neq(om_wh7_list_parse("l.yaml", text, strlen(text), &l), OM_OK, "%zu", i);
        cr_expect_null(l);
        cr_expect(strstr(om_error_message(), cases[i].where) != NULL, "%zu: %s", i,
                  om_error_message());
        cr_expect(strstr(om_error_message(), cases[i].reason) != NULL, "%zu: %s", i,
                  om_error_message());
    }
}

/* ---------------------------------------------------------------- the descriptor */

/* A scenario of each kind. */
static const char *const kind_texts[OM_WH7_KIND_COUNT] = {
    "schema: oddsmaster-scenario/1\nruleset: whfb7\nkind: combat\n"
    "a: {unit: {from: empire/swordsmen}, charging: true}\nb: {unit: {from: orcs-goblins/orc-boyz}}\n",
    "schema: oddsmaster-scenario/1\nruleset: whfb7\nkind: engagement\n"
    "a: {unit: {from: empire/swordsmen}, charging: true}\nb: {unit: {from: orcs-goblins/orc-boyz}}\n",
    "schema: oddsmaster-scenario/1\nruleset: whfb7\nkind: volley\n"
    "a: {unit: {from: empire/handgunners}}\nb: {unit: {from: orcs-goblins/orc-boyz}}\n",
    "schema: oddsmaster-scenario/1\nruleset: whfb7\nkind: magic\n"
    "a: {unit: {from: empire/halberdiers, characters: [{profile: empire-battle-wizard-w, "
    "wizard_level: 2}]}}\nb: {unit: {from: orcs-goblins/orc-boyz}}\n"
    "magic: {spell: fireball, dice: 3, dispel_dice: 2}\n",
};

/* Each kind's fields: the engine's (per side where it has two), only those it
 * produces, then lost_a and lost_b; every engine field appears in some kind. */
Test(wh7_game, fields_of_each_kind)
{
    static const struct {
        size_t fields;
        const char *title;
        bool round1;
        const char *has, *lacks;
    } want[OM_WH7_KIND_COUNT] = {
        {33, "Outcome of the first round", false, "challenge", "rounds"},
        {35, "Outcome of the engagement", true, "rounds", "misfire"},
        {21, "Outcome of the volley (win: the target destroyed or fleeing; draw: wounded, "
             "holding; lose: unharmed)", false, "on_target", "broke_a"},
        {26, "Outcome of the spell (win: the target destroyed or fleeing; draw: wounded, "
             "holding; lose: unharmed)", false, "cast_total", "charged"},
    };
    bool seen[64] = {false};
    for (int k = 0; k < OM_WH7_KIND_COUNT; k++) {
        om_scenario *sc = load(kind_texts[k]);
        om_trials t;
        int w;
        cr_assert_eq(om_trials_prepare(sc, &t), OM_OK, "%s", om_error_message());
        cr_expect_eq(t.layout.field_count, want[k].fields, "%s: %zu fields", sc->kind,
                     t.layout.field_count);
        w = om_layout_find(&t.layout, "winner");
        cr_assert_geq(w, 0);
        cr_expect_eq(t.layout.fields[w].type, OM_FIELD_WINNER);
        cr_expect_str_eq(t.layout.fields[w].title, want[k].title);
        cr_expect_eq(om_layout_find(&t.layout, "round1_winner") >= 0, want[k].round1);
        cr_expect_geq(om_layout_find(&t.layout, want[k].has), 0, "%s has %s", sc->kind,
                      want[k].has);
        cr_expect_eq(om_layout_find(&t.layout, want[k].lacks), -1, "%s lacks %s", sc->kind,
                     want[k].lacks);
        cr_expect_geq(om_layout_find(&t.layout, "lost_a"), 0);
        cr_expect_geq(om_layout_find(&t.layout, "lost_b"), 0);
        for (size_t f = 0; f < t.layout.field_count; f++) {
            cr_expect_lt(t.layout.fields[f].offset, t.layout.row_size);
            cr_expect_eq(t.layout.fields[f].type == OM_FIELD_WINNER,
                         t.layout.fields[f].title != NULL, "%s", t.layout.fields[f].name);
            cr_expect_gt(strlen(t.layout.fields[f].description), 10u);
        }
        for (size_t i = 0; i < om_wh7_outcome_field_count(); i++) {
            const om_wh7_outcome_field *ef = om_wh7_outcome_field_at(i);
            char name[48];
            snprintf(name, sizeof name, ef->count == 2 ? "%s_a" : "%s", ef->name);
            seen[i] |= om_layout_find(&t.layout, name) >= 0;
        }
        om_trials_release(&t);
        om_scenario_free(sc);
    }
    for (size_t i = 0; i < om_wh7_outcome_field_count(); i++)
        cr_expect(seen[i], "the engine's field %s is in some kind's layout",
                  om_wh7_outcome_field_at(i)->name);
}

/* Victory points (WHFB 7th edition, Victory!; the digest's worked example
 * E43): a 400-point unit destroyed is worth 400, a 325-point unit at half
 * strength 163, a 133-point W2 character down one wound 67; without points,
 * 100 a unit. */
Test(wh7_game, victory_points_rule)
{
    cr_expect_eq(om_wh7_victory_points(400, 20, 0, false), 400u);
    cr_expect_eq(om_wh7_victory_points(325, 20, 10, false), 163u);
    cr_expect_eq(om_wh7_victory_points(133, 2, 1, false), 67u);
    cr_expect_eq(om_wh7_victory_points(325, 20, 11, false), 0u);
    cr_expect_eq(om_wh7_victory_points(325, 20, 15, true), 325u);
    cr_expect_eq(om_wh7_victory_points(0, 20, 0, false), 100u);
}

/* The layout's victory points: by models lost, all of them for a unit
 * destroyed or fleeing; a lone multi-Wound model by wounds; characters' points
 * with their unit's; 100 without points. */
Test(wh7_game, victory_points_in_the_layout)
{
    om_scenario *sc = load("schema: oddsmaster-scenario/1\nruleset: whfb7\n"
                           "a:\n  unit:\n    from: empire/swordsmen\n"
                           "    characters: [{profile: empire-captain, points: 65}]\n"
                           "  charging: true\n"
                           "b:\n  unit: {name: Troll, profile: orcs-goblins-troll, models: 1, "
                           "troop: monstrous-infantry}\n");
    om_trials t;
    cr_assert_eq(om_trials_prepare(sc, &t), OM_OK, "%s", om_error_message());
    cr_expect_eq(t.layout.side[0].points, 200u, "135 and the Captain's 65");
    cr_expect_eq(t.layout.side[0].loss_start, 21u, "20 models and the Captain");
    cr_expect_str_eq(t.layout.side[0].loss_unit, "models");
    cr_expect_str_eq(t.layout.fields[t.layout.side[0].loss_field].name, "lost_a");
    cr_expect_eq(t.layout.side[0].vp_lost[10], 0u, "11 of 21 left: more than half");
    cr_expect_eq(t.layout.side[0].vp_lost[11], 100u, "10 of 21 left: half, rounded up");
    cr_expect_eq(t.layout.side[0].vp_lost[21], 200u);
    cr_expect_eq(t.layout.side[1].points, 100u, "no points: 100");
    cr_expect_str_eq(t.layout.side[1].loss_unit, "wounds");
    cr_expect_eq(t.layout.side[1].loss_start, 3u, "a lone Troll: its 3 Wounds");
    cr_expect_eq(t.layout.side[1].vp_lost[1], 0u);
    cr_expect_eq(t.layout.side[1].vp_lost[2], 50u);
    cr_expect_eq(t.layout.side[1].vp_lost[3], 100u);
    cr_expect_not_null(t.layout.points_rule);
    om_trials_release(&t);
    om_scenario_free(sc);
}

/* The value of field `name` in row r of layout l. */
static unsigned field_of(const om_layout *l, const uint8_t *row, const char *name)
{
    int f = om_layout_find(l, name);
    cr_assert_geq(f, 0, "%s", name);
    return row[l->fields[f].offset];
}

/* Run n trials of t into rows (block 0 of seed 11). */
static uint8_t *resolve_rows(const om_trials *t, size_t n)
{
    uint8_t *rows = malloc(n * t->layout.row_size);
    om_dice d;
    cr_assert_not_null(rows);
    memset(&d, 0, sizeof d);
    om_rng_seed_block(&d.rng, 11, 0);
    t->game->trials->resolve_block(t->prepared, NULL, &d, rows, n);
    return rows;
}

/* The headline and the victory-point losses follow their rules in every row:
 * of a volley and a damage spell (A: the target destroyed or fleeing, draw:
 * wounded, B: unharmed), of an augment (A: it takes effect), of a combat (the
 * engine's winner). */
Test(wh7_game, headline_and_losses_of_every_row)
{
    const char *augment =
        "schema: oddsmaster-scenario/1\nruleset: whfb7\nkind: magic\n"
        "a: {unit: {from: empire/halberdiers, characters: [{profile: empire-battle-wizard-w, "
        "wizard_level: 1}]}}\nb: {unit: {from: orcs-goblins/orc-boyz}}\n"
        "magic: {spell: portent-of-far, dice: 2, dispel_dice: 2}\n";
    const char *texts[5] = {kind_texts[0], kind_texts[1], kind_texts[2], kind_texts[3], augment};
    enum { N = 4000 };
    for (int k = 0; k < 5; k++) {
        om_scenario *sc = load(texts[k]);
        om_trials t;
        uint8_t *rows;
        unsigned counts[4] = {0};
        cr_assert_eq(om_trials_prepare(sc, &t), OM_OK, "%s", om_error_message());
        rows = resolve_rows(&t, N);
        for (size_t i = 0; i < N; i++) {
            const uint8_t *r = rows + i * t.layout.row_size;
            const unsigned w = field_of(&t.layout, r, "winner");
            counts[w & 3u]++;
            for (int s = 0; s < 2; s++) {
                const char *dn = s ? "destroyed_b" : "destroyed_a";
                const char *fn = s ? "fled_b" : "fled_a";
                const char *sl = s ? "slain_b" : "slain_a";
                const unsigned gone = field_of(&t.layout, r, dn) || field_of(&t.layout, r, fn);
                const unsigned start = t.layout.side[s].loss_start;
                const unsigned slain = field_of(&t.layout, r, sl);
                cr_assert_eq(field_of(&t.layout, r, s ? "lost_b" : "lost_a"),
                             gone ? start : (slain < start ? slain : start), "row %zu", i);
            }
            if (k == 2 || k == 3) {
                const unsigned harm = field_of(&t.layout, r, "destroyed_b") ||
                                      field_of(&t.layout, r, "fled_b");
                cr_assert_eq(w, harm ? OM_WINNER_A
                                : field_of(&t.layout, r, "wounds_b") ? OM_WINNER_DRAW
                                                                     : OM_WINNER_B,
                             "row %zu", i);
            } else if (k == 4) {
                cr_assert_eq(w, field_of(&t.layout, r, "cast") &&
                                        !field_of(&t.layout, r, "dispelled")
                                    ? OM_WINNER_A : OM_WINNER_B, "row %zu", i);
            }
        }
        /* Each rule's outcomes all occur (so a test of them can fail). */
        cr_expect_gt(counts[OM_WINNER_A], 0u, "%s: A wins sometimes", sc->kind);
        cr_expect_gt(counts[OM_WINNER_B], 0u, "%s: B wins sometimes", sc->kind);
        free(rows);
        om_trials_release(&t);
        om_scenario_free(sc);
    }
}

/* resolve_block writes the engine's outcome: every field of every row is the
 * engine's value of om_wh7_resolve with the same dice, clamped to 255 (the
 * Ogres below suffer more than 255 wounds: 100 of W3, Unbreakable, to the
 * death). */
Test(wh7_game, rows_are_the_engine_clamped)
{
    const char *ogres = "schema: oddsmaster-scenario/1\nruleset: whfb7\nkind: engagement\n"
                        "options: {max_rounds: 100}\n"
                        "a: {unit: {from: ogre-kingdoms/ogre-bulls, models: 100, files: 10, "
                        "rules: [unbreakable]}, charging: true}\n"
                        "b: {unit: {from: ogre-kingdoms/ironguts, models: 100, files: 10, "
                        "rules: [unbreakable]}}\n";
    const char *texts[5] = {kind_texts[0], kind_texts[1], kind_texts[2], kind_texts[3], ogres};
    enum { N = 300 };
    unsigned clamped = 0;
    for (int k = 0; k < 5; k++) {
        om_scenario *sc = load(texts[k]);
        const om_wh7_scenario *ws = wh7_of(sc);
        om_wh7_prepared *p = NULL;
        om_trials t;
        uint8_t *rows;
        om_dice d;
        cr_assert_eq(om_trials_prepare(sc, &t), OM_OK, "%s", om_error_message());
        cr_assert_eq(om_wh7_prepare_alloc(&ws->combat, &p), OM_OK);
        rows = resolve_rows(&t, N);
        memset(&d, 0, sizeof d);
        om_rng_seed_block(&d.rng, 11, 0);
        for (size_t i = 0; i < N; i++) {
            const uint8_t *r = rows + i * t.layout.row_size;
            om_wh7_outcome o;
            om_wh7_resolve(p, &d, &o);
            for (size_t f = 0; f < om_wh7_outcome_field_count(); f++) {
                const om_wh7_outcome_field *ef = om_wh7_outcome_field_at(f);
                for (unsigned j = 0; j < ef->count; j++) {
                    char name[48];
                    unsigned v = 0;
                    int lf;
                    memcpy(&v, (const uint8_t *)&o + ef->offset + j * ef->bytes, ef->bytes);
                    snprintf(name, sizeof name, ef->count == 2 ? "%s_%c" : "%s", ef->name,
                             'a' + (int)j);
                    if ((lf = om_layout_find(&t.layout, name)) < 0 ||
                        strcmp(ef->name, "winner") == 0)
                        continue;
                    clamped += v > 255u;
                    cr_assert_eq(r[t.layout.fields[lf].offset], v > 255u ? 255u : v,
                                 "kind %d row %zu field %s", k, i, name);
                }
            }
            if (k < 2 || k == 4)
                cr_assert_eq(field_of(&t.layout, r, "winner"), o.winner, "row %zu", i);
        }
        free(rows);
        om_wh7_prepared_free(p);
        om_trials_release(&t);
        om_scenario_free(sc);
    }
    cr_expect_gt(clamped, 0u, "some rows had more than 255 wounds");
}

/* ---------------------------------------------------------------- run = engine */

/* A sink keeping every row, in block order. */
typedef struct keep {
    uint8_t *rows;
    size_t row_size, n;
} keep;

static om_status keep_put(void *ctx, const om_block *b, bool *stop)
{
    keep *k = ctx;
    (void)stop;
    memcpy(k->rows + (size_t)b->first * k->row_size, b->rows, b->n * k->row_size);
    k->n += b->n;
    return OM_OK;
}

/* `run`'s driver on two threads gives, row for row, what om_wh7_resolve gives
 * with block b's stream of the seed: the same law, trial for trial. */
Test(wh7_game, run_is_the_engine_trial_for_trial)
{
    om_scenario *sc = load(kind_texts[OM_WH7_KIND_ENGAGEMENT]);
    om_wh7_prepared *p = NULL;
    om_trials t;
    const om_run_config cfg = {.trials = 3 * 1000 + 17, .seed = 20251124, .block_size = 1000,
                               .threads = 2};
    keep k = {0};
    om_run_sink sink = {.ctx = &k, .put = keep_put};
    uint64_t done = 0;
    cr_assert_eq(om_trials_prepare(sc, &t), OM_OK);
    cr_assert_eq(om_wh7_prepare_alloc(&wh7_of(sc)->combat, &p), OM_OK);
    k.row_size = t.layout.row_size;
    k.rows = calloc(cfg.trials, k.row_size);
    cr_assert_eq(om_run_simulate(&t, &cfg, &sink, &done), OM_OK, "%s", om_error_message());
    cr_assert_eq(done, cfg.trials);
    for (uint64_t b = 0; b * cfg.block_size < cfg.trials; b++) {
        om_dice d;
        memset(&d, 0, sizeof d);
        om_rng_seed_block(&d.rng, cfg.seed, b);
        for (uint64_t i = b * cfg.block_size; i < cfg.trials && i < (b + 1) * cfg.block_size;
             i++) {
            const uint8_t *r = k.rows + i * k.row_size;
            om_wh7_outcome o;
            om_wh7_resolve(p, &d, &o);
            cr_assert_eq(field_of(&t.layout, r, "winner"), o.winner, "trial %llu",
                         (unsigned long long)i);
            cr_assert_eq(field_of(&t.layout, r, "rounds"), o.rounds);
            cr_assert_eq(field_of(&t.layout, r, "slain_a"), o.slain[0]);
            cr_assert_eq(field_of(&t.layout, r, "slain_b"), o.slain[1]);
            cr_assert_eq(field_of(&t.layout, r, "broke_b"), o.broke[1]);
            cr_assert_eq(field_of(&t.layout, r, "result_a"), o.result[0]);
        }
    }
    free(k.rows);
    om_wh7_prepared_free(p);
    om_trials_release(&t);
    om_scenario_free(sc);
}

/* ---------------------------------------------------------------- matrices */

static const om_game *whfb7(void)
{
    const om_game *g = om_game_for_ruleset("whfb7");
    cr_assert_not_null(g);
    return g;
}

Test(wh7_matrix, units_of_a_list)
{
    const om_game *g = whfb7();
    om_game_unit *u = NULL;
    size_t n = 0;
    cr_assert_eq(g->matrix->units("whfb7", "empire/swordsmen,knights,great-cannon,ogre-kingdoms", &u, &n),
                 OM_OK, "%s", om_error_message());
    cr_assert_eq(n, 5u);
    cr_expect_str_eq(u[0].id, "empire/swordsmen");
    cr_expect_str_eq(u[0].name, "Swordsmen");
    cr_expect_str_eq(u[0].army, "Empire");
    cr_expect_str_eq(u[0].troop, "infantry");
    cr_expect_eq(u[0].points, 135u);
    cr_expect(!u[0].can_shoot);
    cr_expect_str_eq(u[1].troop, "cavalry");
    cr_expect_str_eq(u[2].troop, "war-machine");
    cr_expect(u[2].can_shoot, "a war machine shoots");
    cr_expect_str_eq(u[3].id, "ogre-kingdoms/ogre-bulls");
    cr_expect_str_eq(u[4].id, "ogre-kingdoms/ironguts");
    for (size_t i = 0; i < n; i++) {
        cr_expect_str_eq(u[i].left_out, "");
        cr_expect_not_null(u[i].data);
        cr_expect(strstr(u[i].data_version, "whfb7 Sample units") != NULL);
    }
    g->matrix->units_free(u, n);
}

Test(wh7_matrix, unknown_and_repeated_units)
{
    static const struct {
        const char *spec, *reason;
        om_status status;
    } cases[] = {
        {"empier", "did you mean 'empire'", OM_ENOTFOUND},
        {"empire/swordsman", "did you mean 'swordsmen'", OM_ENOTFOUND},
        {"empire/swordsmen,swordsmen", "listed twice", OM_EINVAL},
        {"all,empire", "listed twice", OM_EINVAL},
        {"", "empty list", OM_EINVAL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        om_game_unit *u = NULL;
        size_t n = 0;
        cr_expect_eq(whfb7()->matrix->units("whfb7", cases[i].spec, &u, &n), cases[i].status, "%s",
                     cases[i].spec);
        cr_expect(strstr(om_error_message(), cases[i].reason) != NULL, "%s: %s", cases[i].spec,
                  om_error_message());
        whfb7()->matrix->units_free(u, n);
    }
}

/* Each cell's combat is the one `run` of its text loads, and units that cannot
 * take part are flagged: a war machine in a charge, a unit without missiles
 * asked to stand and shoot. */
Test(wh7_matrix, cells_are_their_text)
{
    const om_game *g = whfb7();
    om_game_unit *u = NULL;
    size_t n = 0;
    cr_assert_eq(g->matrix->units("whfb7", "empire/handgunners,great-cannon,orcs-goblins/trolls", &u, &n),
                 OM_OK);
    for (size_t sit = 0; sit < g->matrix->n_situations; sit++)
        for (size_t r = 0; r < n; r++)
            for (size_t c = 0; c < n; c++) {
                om_scenario *cell = NULL, *again = NULL;
                unsigned cannot = 0, want = 0;
                cr_assert_eq(g->matrix->cell("whfb7", "engagement", sit, &u[r], &u[c], NULL, 0,
                                             7, &cell, &cannot),
                             OM_OK, "%s", om_error_message());
                again = load(cell->text);
                cr_expect_eq(memcmp(&wh7_of(cell)->combat, &wh7_of(again)->combat,
                                    sizeof(om_wh7_combat)), 0, "situation %zu %s vs %s:\n%s",
                             sit, u[r].id, u[c].id, cell->text);
                cr_expect_str_eq(cell->provenance_json, again->provenance_json);
                want |= r == 1 ? OM_GAME_ROW_CANNOT : 0u;
                want |= c == 1 || (strcmp(g->matrix->situations[sit].name, "a-charges-b-shoots") == 0 &&
                                   c == 2) ? OM_GAME_COL_CANNOT : 0u;
                cr_expect_eq(cannot, want, "situation %s %s vs %s", g->matrix->situations[sit].name,
                             u[r].id, u[c].id);
                om_scenario_free(again);
                om_scenario_free(cell);
            }
    g->matrix->units_free(u, n);
}

/* ---------------------------------------------------------------- list and options */

Test(wh7_game, options_through_the_interface)
{
    const om_game *g = whfb7();
    cr_assert_not_null(g->catalogue->option_tables);
    cr_expect_eq(g->catalogue->option_tables[0], &om_wh7_option_registry);
    cr_expect_null(g->catalogue->option_tables[1]);
    cr_expect_eq(g->catalogue->option_tables[0]->count, om_wh7_option_count());
    cr_expect_not_null(om_option_find(g->catalogue->option_tables[0], "max_rounds"));
    cr_expect_eq(om_option_find(g->catalogue->option_tables[0], "max_rounds")->max, 100u);
}

Test(wh7_game, list_tables)
{
    static const struct {
        const char *what, *key;
        size_t rows;
    } cases[] = {
        {NULL, "kinds", 4}, {"profiles", "profiles", 306}, {"profiles/empire-knight", "profiles", 1},
        {"weapons", "weapons", OM_WH7_WEAPON_COUNT}, {"missiles", "missiles", OM_WH7_MISSILE_COUNT - 1},
        {"machines", "machines", OM_WH7_MACHINE_COUNT - 1}, {"rules", "rules", 26},
        {"spells", "spells", 48}, {"units", "units", 19},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        om_game_listing *l = NULL;
        cr_assert_eq(whfb7()->catalogue->list("whfb7", cases[i].what, false, &l), OM_OK, "%s",
                     om_error_message());
        cr_assert_geq(l->ntables, 1u);
        cr_expect_str_eq(l->tables[0].key, cases[i].key);
        cr_expect_eq(l->tables[0].nrows, cases[i].rows, "%s: %zu rows",
                     cases[i].what ? cases[i].what : "(overview)", l->tables[0].nrows);
        om_game_listing_free(l);
    }
    {
        om_game_listing *l = NULL;
        cr_expect_eq(whfb7()->catalogue->list("whfb7", "spels", false, &l), OM_ENOTFOUND);
        cr_expect(strstr(om_error_message(), "did you mean 'spells'") != NULL, "%s",
                  om_error_message());
        cr_expect_eq(whfb7()->catalogue->list("whfb7", "weapons/spear", false, &l), OM_ENOTFOUND);
        cr_expect_eq(whfb7()->catalogue->list("whfb7", NULL, true, &l), OM_OK);
        cr_expect_str_eq(l->tables[0].key, "rules");
        om_game_listing_free(l);
    }
    /* It adds nothing to `oddsmaster list` and `list --rules` of every game. */
    for (int rules = 0; rules < 2; rules++) {
        om_game_listing *l = (om_game_listing *)&l;
        cr_expect_eq(whfb7()->catalogue->list(NULL, NULL, rules, &l), OM_OK);
        cr_expect_null(l);
    }
}

/* ---------------------------------------------------------------- provenance */

Test(wh7_game, provenance_records_every_value)
{
    om_scenario *sc = load("schema: oddsmaster-scenario/1\nruleset: whfb7\nkind: engagement\n"
                           "options: {max_rounds: 4, multiwound_no_pool: true}\n"
                           "a:\n  unit:\n    from: empire/knights\n    characters: "
                           "[{profile: empire-captain, general: true, points: 70}]\n"
                           "  charging: true\n  spells: [transmutation-of-lead]\n"
                           "b:\n  unit: {from: orcs-goblins/orc-boyz}\n  arc: flank\n");
    json_error_t err;
    json_t *j = json_loads(sc->provenance_json, 0, &err);
    cr_assert_not_null(j, "%s", err.text);
    cr_expect_str_eq(json_string_value(json_object_get(j, "kind")), "engagement");
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(j, "options"), "max_rounds")),
                 4);
    cr_expect(json_is_true(json_object_get(json_object_get(j, "options"), "multiwound_no_pool")));
    cr_expect_eq(json_object_size(json_object_get(j, "options")), om_wh7_option_count());
    json_t *a = json_object_get(j, "a");
    cr_expect_str_eq(json_string_value(json_object_get(a, "from")), "empire/knights");
    cr_expect_eq(json_integer_value(json_object_get(a, "character_points")), 70);
    json_t *unit = json_object_get(a, "unit");
    json_t *mount = json_object_get(unit, "mount");
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(mount, "profile"), "name")),
                     "Warhorse");
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(unit, "equipment"),
                                                       "weapon")), "lance");
    cr_expect(json_is_true(json_object_get(json_array_get(json_object_get(unit, "characters"), 0),
                                           "general")));
    cr_expect_str_eq(json_string_value(json_array_get(json_object_get(a, "spells"), 0)),
                     "transmutation-of-lead");
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(a, "mods"), "to_hit")), -1);
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(j, "b"), "arc")), "flank");
    cr_expect(json_is_null(json_object_get(j, "magic")));
    json_decref(j);
    om_scenario_free(sc);
}

/* ---------------------------------------------------------------- the key table */

/* A scenario text being written line by line, with the line of the key under
 * test. */
typedef struct text_buf {
    char *out;     /* the text */
    size_t cap;    /* bytes of out */
    size_t len;    /* bytes written */
    size_t lines;  /* lines written */
} text_buf;

static void put(text_buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(b->out + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    cr_assert(n >= 0 && (size_t)n < b->cap - b->len, "scenario text too long");
    b->len += (size_t)n;
    for (const char *p = b->out + b->len - (size_t)n; *p; p++)
        b->lines += *p == '\n';
}

/* An entry of a mapping of the tests' scenario: "key: value", or with value
 * NULL a block written after the line. */
typedef struct item {
    const char *key, *value;
} item;

/* A mapping of the tests' scenario at `indent` spaces: its base items, with
 * key `k` given `value` (NULL: left out) when `here` (replacing the base's
 * entry, else after them); `block` writes the blocks. The key's line goes to
 * *line. Returns whether the base has k. */
static bool put_map(text_buf *b, int indent, const item *base, size_t n, bool here,
                    const char *k, const char *value, size_t *line,
                    void (*block)(text_buf *, const char *key, void *), void *arg)
{
    bool replaced = false;
    for (size_t i = 0; i < n; i++) {
        const bool mine = here && strcmp(base[i].key, k) == 0;
        replaced = replaced || mine;
        if (mine && !value)
            continue;
        if (mine)
            *line = b->lines + 1;
        if (mine || base[i].value) {
            put(b, "%*s%s: %s\n", indent, "", base[i].key, mine ? value : base[i].value);
        } else {
            put(b, "%*s%s:\n", indent, "", base[i].key);
            block(b, base[i].key, arg);
        }
    }
    if (here && !replaced && value) {
        *line = b->lines + 1;
        put(b, "%*s%s: %s\n", indent, "", k, value);
    }
    return replaced;
}

/* What the tests' scenario writes for one key. */
typedef struct key_text {
    const om_wh7_key *k; /* the key */
    const char *value;   /* its value, NULL: left out */
    size_t line;         /* out: its line (0 if not written) */
} key_text;

static bool at(const key_text *t, om_wh7_key_level level)
{
    return t->k->level == level;
}

/* Kind magic is needed by the magic keys and by `magic:` itself. */
static bool needs_magic(const key_text *t)
{
    return at(t, OM_WH7_LEVEL_MAGIC) || (at(t, OM_WH7_LEVEL_TOP) && strcmp(t->k->name, "magic") == 0);
}

static void put_block(text_buf *b, const char *key, void *arg);

/* The tests' scenario of each level: side A a unit of 10 Knights on
 * warhorses (a character joins it for the character keys), side B 20
 * Swordsmen; kind magic, a level 2 wizard casting Fireball with 2 dice, for
 * the magic keys. Key t->k is written with t->value at its level (the
 * profile keys in a.unit). */
static void key_scenario(key_text *t, char *out, size_t cap)
{
    text_buf b = {out, cap, 0, 0};
    /* Without magic the base writes no kind: the key `kind` is then written
     * (or left out) on its own. */
    item top[6] = {{"schema", "oddsmaster-scenario/1"}, {"ruleset", "whfb7"}};
    size_t n = 2;
    if (needs_magic(t))
        top[n++] = (item){"kind", "magic"};
    top[n++] = (item){"a", NULL};
    top[n++] = (item){"b", "{unit: {profile: empire-swordsman, models: 20}}"};
    if (needs_magic(t))
        top[n++] = (item){"magic", NULL};
    t->line = 0;
    out[0] = '\0';
    put_map(&b, 0, top, n, at(t, OM_WH7_LEVEL_TOP), t->k->name, t->value, &t->line, put_block, t);
}

static void put_block(text_buf *b, const char *key, void *arg)
{
    key_text *t = arg;
    const char *k = t->k->name;
    if (strcmp(key, "a") == 0) {
        /* A mapping of the level is written only when the key is. */
        const item side[] = {{"unit", NULL}, {"mods", NULL}};
        put_map(b, 2, side, at(t, OM_WH7_LEVEL_MODS) && t->value ? 2 : 1,
                at(t, OM_WH7_LEVEL_SIDE), k, t->value, &t->line, put_block, t);
    } else if (strcmp(key, "unit") == 0) {
        item unit[4] = {{"profile", "empire-knight"}, {"models", "10"},
                        {"mount", at(t, OM_WH7_LEVEL_MOUNT) ? NULL : "{profile: empire-warhorse}"}};
        size_t n = 3;
        if (at(t, OM_WH7_LEVEL_EQUIPMENT) && t->value)
            unit[n++] = (item){"equipment", NULL};
        if (at(t, OM_WH7_LEVEL_CHARACTER))
            unit[n++] = (item){"characters", NULL};
        put_map(b, 4, unit, n, at(t, OM_WH7_LEVEL_UNIT) || at(t, OM_WH7_LEVEL_PROFILE), k,
                t->value, &t->line, put_block, t);
    } else if (strcmp(key, "mount") == 0) {
        const item mount[] = {{"profile", "empire-warhorse"}};
        put_map(b, 6, mount, 1, true, k, t->value, &t->line, put_block, t);
    } else if (strcmp(key, "equipment") == 0) {
        put_map(b, 6, NULL, 0, true, k, t->value, &t->line, put_block, t);
    } else if (strcmp(key, "characters") == 0) {
        put(b, "      - profile: empire-captain\n");
        put_map(b, 8, NULL, 0, true, k, t->value, &t->line, put_block, t);
    } else if (strcmp(key, "mods") == 0) {
        put_map(b, 4, NULL, 0, true, k, t->value, &t->line, put_block, t);
    } else if (strcmp(key, "magic") == 0) {
        const item magic[] = {{"spell", "fireball"}, {"dice", "2"}, {"level", "2"},
                              {"caster", "{profile: empire-battle-wizard-w}"}};
        put_map(b, 2, magic, 4, at(t, OM_WH7_LEVEL_MAGIC), k, t->value, &t->line, put_block, t);
    }
}

/* Load key k written as `value` in the tests' scenario: its status (the
 * scenario freed), the text and the key's line. */
static om_status load_key(const om_wh7_key *k, const char *value, char *text, size_t cap,
                          size_t *line, om_scenario **keep)
{
    key_text t = {k, value, 0};
    om_scenario *sc = NULL;
    om_status st;
    key_scenario(&t, text, cap);
    st = om_scenario_load_text("t.yaml", text, strlen(text), &sc);
    *line = t.line;
    if (keep)
        *keep = sc;
    else
        om_scenario_free(sc);
    return st;
}

/* The dotted path the tests' scenario writes key k at (the profile keys:
 * a.unit's). */
static void key_path(const om_wh7_key *k, char *out, size_t cap)
{
    static const char *const where[OM_WH7_LEVEL_COUNT] = {
        "", "a.unit.", "a.unit.", "a.unit.equipment.", "a.unit.mount.",
        "a.unit.characters[0].", "a.", "a.mods.", "magic."};
    snprintf(out, cap, "%s%s", where[k->level], k->name);
}

/* The game's keys hook lists the table, in its order, each key at its level
 * with the words of a name key. */
Test(wh7_keys, the_hook_lists_the_table)
{
    om_game_key keys[256];
    const size_t n = whfb7()->catalogue->keys(NULL, 0);
    cr_assert_eq(n, om_wh7_key_count);
    cr_assert_leq(n, sizeof keys / sizeof keys[0]);
    cr_assert_eq(whfb7()->catalogue->keys(keys, n), n);
    for (size_t i = 0; i < n; i++) {
        const om_wh7_key *k = &om_wh7_keys[i];
        cr_expect_str_eq(keys[i].name, k->name);
        cr_expect_str_eq(keys[i].where, om_wh7_key_level_names[k->level]);
        cr_expect(keys[i].type && keys[i].fallback && keys[i].help && keys[i].help[0], "%s",
                  k->name);
        cr_expect_eq(keys[i].values, k->names, "%s", k->name);
        if (k->type == OM_WH7_KEY_NAME && k->names) {
            cr_expect_eq(keys[i].n_values, k->n_names, "%s", k->name);
            for (size_t v = 0; v < k->n_names; v++)
                cr_expect_not_null(keys[i].values[v], "%s word %zu", k->name, v);
        }
        /* The default for people starts with the value a file writes (an
         * empty mapping or list is described as such). */
        if (k->dflt && k->dflt[0] != '{' && k->dflt[0] != '[')
            cr_expect_eq(strncmp(k->fallback, k->dflt, strlen(k->dflt)), 0, "%s: %s", k->name,
                         k->fallback);
        cr_expect_eq(om_wh7_key_find(k->level, k->name), k, "%s is listed once", k->name);
    }
    /* A smaller buffer gets the first keys and the count. */
    cr_expect_eq(whfb7()->catalogue->keys(keys, 3), n);
    cr_expect_str_eq(keys[0].name, "schema");
}

/* A range's text states its bounds: "lo..hi" for an integer, "lo+..hi+" for
 * a save. */
Test(wh7_keys, ranges_state_their_bounds)
{
    om_game_key keys[256];
    whfb7()->catalogue->keys(keys, sizeof keys / sizeof keys[0]);
    for (size_t i = 0; i < om_wh7_key_count; i++) {
        const om_wh7_key *k = &om_wh7_keys[i];
        int lo = 0, hi = 0;
        if (k->type == OM_WH7_KEY_INT) {
            cr_expect_eq(sscanf(k->range, "%d..%d", &lo, &hi), 2, "%s: %s", k->name, k->range);
            cr_expect(lo == k->lo && hi == k->hi, "%s: '%s' for %d..%d", k->name, k->range,
                      k->lo, k->hi);
            cr_expect_str_eq(keys[i].type, k->range);
        } else if (k->type == OM_WH7_KEY_SAVE) {
            cr_expect_eq(sscanf(keys[i].type, "%d+..%d+", &lo, &hi), 2, "%s", k->name);
            cr_expect(lo == k->lo && hi == k->hi, "%s: '%s'", k->name, keys[i].type);
        } else {
            cr_expect_null(k->range, "%s", k->name);
        }
    }
}

/* Every key the loader's schema reads is a key of the table at that level
 * (of the same shape: a mapping, a list or a scalar), and every key of the
 * table is read where its level says. */
Test(wh7_keys, the_table_is_the_loaders_schema)
{
    bool seen[512] = {false};
    cr_assert_leq(om_wh7_key_count, sizeof seen / sizeof seen[0]);
    for (size_t s = 0; s < om_wh7_schema_level_count; s++) {
        const wh7_schema_level *l = &om_wh7_schema_levels[s];
        size_t own = 0;
        for (const cyaml_schema_field_t *f = l->fields; f->key; f++) {
            const om_wh7_key *k = om_wh7_key_find(l->level, f->key);
            if (!k && l->profile)
                k = om_wh7_key_find(OM_WH7_LEVEL_PROFILE, f->key);
            cr_expect_not_null(k, "%s reads '%s', which the key table has not", l->path, f->key);
            if (!k)
                continue;
            seen[k - om_wh7_keys] = true;
            own += k->level == l->level;
            switch (k->type) {
            case OM_WH7_KEY_MAPPING:
                cr_expect(f->value.type == CYAML_MAPPING || f->value.type == CYAML_IGNORE,
                          "%s.%s is a mapping", l->path, f->key);
                break;
            case OM_WH7_KEY_NAMES:
            case OM_WH7_KEY_MAPPINGS:
                cr_expect_eq(f->value.type, CYAML_SEQUENCE, "%s.%s is a list", l->path, f->key);
                break;
            default:
                cr_expect_eq(f->value.type, CYAML_STRING, "%s.%s is a scalar", l->path, f->key);
            }
        }
        /* Each mapping reads all the keys of its level (and all the profile
         * keys when it has them). */
        for (size_t i = 0; i < om_wh7_key_count; i++) {
            const om_wh7_key *k = &om_wh7_keys[i];
            if (k->level == l->level || (l->profile && k->level == OM_WH7_LEVEL_PROFILE))
                cr_expect_not_null(om_yaml_field_find(l->fields, k->name),
                                   "%s does not read '%s' (%s)", l->path, k->name,
                                   om_wh7_key_level_names[k->level]);
        }
        cr_expect_gt(own, 0u, "%s", l->path);
    }
    for (size_t i = 0; i < om_wh7_key_count; i++)
        cr_expect(seen[i], "'%s' (%s) is read nowhere", om_wh7_keys[i].name,
                  om_wh7_key_level_names[om_wh7_keys[i].level]);
}

/* The loader's "expected an integer" and "true or false" messages know every
 * integer and boolean key of the table (a name that is an integer at one
 * level and a word at another, such as armour, is neither). */
Test(wh7_keys, integer_and_boolean_messages_know_every_key)
{
    for (size_t i = 0; i < om_wh7_key_count; i++) {
        const om_wh7_key *k = &om_wh7_keys[i];
        bool elsewhere_other = false, in_ints = false, in_bools = false;
        for (size_t j = 0; j < om_wh7_key_count; j++)
            elsewhere_other = elsewhere_other ||
                              (strcmp(om_wh7_keys[j].name, k->name) == 0 &&
                               om_wh7_keys[j].type != k->type);
        for (const char *const *p = om_wh7_int_keys; *p; p++)
            in_ints = in_ints || strcmp(*p, k->name) == 0;
        for (const char *const *p = om_wh7_bool_keys; *p; p++)
            in_bools = in_bools || strcmp(*p, k->name) == 0;
        if (elsewhere_other)
            continue;
        cr_expect_eq(in_ints, k->type == OM_WH7_KEY_INT, "'%s' and om_wh7_int_keys", k->name);
        cr_expect_eq(in_bools, k->type == OM_WH7_KEY_BOOL, "'%s' and om_wh7_bool_keys", k->name);
    }
}

/* Every key of the table loads with its example value, at its level of the
 * tests' scenario. */
Test(wh7_keys, every_key_loads_its_example)
{
    for (size_t i = 0; i < om_wh7_key_count; i++) {
        const om_wh7_key *k = &om_wh7_keys[i];
        char text[2048];
        size_t line = 0;
        cr_assert_not_null(k->example, "%s", k->name);
        cr_expect_eq(load_key(k, k->example, text, sizeof text, &line, NULL), OM_OK,
                     "%s: %s: %s\n%s", om_wh7_key_level_names[k->level], k->name,
                     om_error_message(), text);
        cr_expect_gt(line, 0u, "%s is written\n%s", k->name, text);
    }
}

/* A key written with its default value is the key left out: the same
 * combat, names and points. */
Test(wh7_keys, a_default_written_out_changes_nothing)
{
    size_t checked = 0;
    for (size_t i = 0; i < om_wh7_key_count; i++) {
        const om_wh7_key *k = &om_wh7_keys[i];
        char text[2048], plain[2048];
        size_t line = 0, none = 0;
        om_scenario *with = NULL, *without = NULL;
        if (!k->dflt)
            continue;
        cr_assert_eq(load_key(k, k->dflt, text, sizeof text, &line, &with), OM_OK,
                     "%s: %s\n%s", k->name, om_error_message(), text);
        cr_assert_eq(load_key(k, NULL, plain, sizeof plain, &none, &without), OM_OK, "%s: %s",
                     k->name, om_error_message());
        cr_expect_eq(none, 0u, "%s: the base writes no key that has a default", k->name);
        cr_expect_eq(memcmp(&wh7_of(with)->combat, &wh7_of(without)->combat,
                            sizeof(om_wh7_combat)), 0,
                     "%s: %s written is not the default\n%s", k->name, k->dflt, text);
        cr_expect_eq(memcmp(wh7_of(with)->side, wh7_of(without)->side,
                            sizeof wh7_of(with)->side), 0, "%s", k->name);
        om_scenario_free(with);
        om_scenario_free(without);
        checked++;
    }
    cr_expect_gt(checked, 70u, "%zu keys have a default a file can write", checked);
}

/* Each bound of the table is one the loader holds: one below the lowest and
 * one above the highest are refused, with the file, the key's line and its
 * field; a range stated bare ("0..10", no rule after it) holds in any
 * scenario, so both bounds load in the tests'. */
Test(wh7_keys, every_bound_is_enforced)
{
    size_t checked = 0, bare = 0;
    for (size_t i = 0; i < om_wh7_key_count; i++) {
        const om_wh7_key *k = &om_wh7_keys[i];
        const bool save = k->type == OM_WH7_KEY_SAVE;
        char path[128];
        if (k->type != OM_WH7_KEY_INT && !save)
            continue;
        key_path(k, path, sizeof path);
        if (save || strchr(k->range, ' ') == NULL) {
            for (int edge = 0; edge < 2; edge++) {
                char value[32], text[2048];
                size_t line = 0;
                snprintf(value, sizeof value, "%d%s", edge ? k->hi : k->lo, save ? "+" : "");
                cr_expect_eq(load_key(k, value, text, sizeof text, &line, NULL), OM_OK,
                             "%s: %s: %s\n%s", path, value, om_error_message(), text);
            }
            bare++;
        }
        for (int edge = 0; edge < 2; edge++) {
            char value[32], text[2048], where[192];
            size_t line = 0;
            om_status st;
            snprintf(value, sizeof value, "%d%s", edge ? k->hi + 1 : k->lo - 1, save ? "+" : "");
            st = load_key(k, value, text, sizeof text, &line, NULL);
            cr_expect(st == OM_EINVAL || st == OM_EPARSE, "%s: %s: %s: status %d\n%s", path,
                      value, om_error_message(), (int)st, text);
            snprintf(where, sizeof where, "t.yaml:%zu: field '%s': ", line, path);
            cr_expect(strstr(om_error_message(), where) != NULL, "%s: %s: want '%s' in: %s\n%s",
                      path, value, where, om_error_message(), text);
            checked++;
        }
    }
    cr_expect_gt(checked, 100u);
    cr_expect_gt(bare, 40u);
}

/* A key that is no key of its level is still refused, at every level, with
 * the file, its line and its field. */
Test(wh7_keys, an_unknown_key_is_refused_at_every_level)
{
    for (int level = 0; level < OM_WH7_LEVEL_COUNT; level++) {
        const om_wh7_key stray = {.name = "zzz_no_such_key", .level = (om_wh7_key_level)level};
        char text[2048], path[128], where[192];
        size_t line = 0;
        cr_expect_eq(load_key(&stray, "1", text, sizeof text, &line, NULL), OM_EPARSE, "%s: %s",
                     om_wh7_key_level_names[level], om_error_message());
        key_path(&stray, path, sizeof path);
        snprintf(where, sizeof where, "t.yaml:%zu: field '%s': unknown key 'zzz_no_such_key'",
                 line, path);
        cr_expect(strstr(om_error_message(), where) != NULL, "want '%s' in: %s\n%s", where,
                  om_error_message(), text);
    }
}
