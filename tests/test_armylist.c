/*
 * test_armylist.c: army list files of Warmaster (scenarios/warmaster/
 * wm_armylist.c): what a loaded list holds (units with their stat lines,
 * characters with mounts and items, points), and each check of the rules for
 * choosing an army, one test per rule that fails when the check is removed:
 * the points limit, min/max per full 1,000 points (and its scaling, and
 * below 1,000 points by rule set), the whole-army limits (one General, one
 * War Altar), magic items (who may carry which, one per entry, each once per
 * army, none in Warmaster Ancients), upgrades and mounts the list offers,
 * unknown names with "did you mean". Every example list of
 * scenarios/lists/warmaster/ loads within its limit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "wm_armylist.h"

#define EXAMPLES OM_SOURCE_ROOT "/scenarios/lists/warmaster"

/* A Revolution Orc list of `points` with `goblins` units of Goblins (min 2
 * per 1,000), four of Orc Warriors (min 2), the General, then `units` and
 * `characters` (YAML list entries). */
static char *orcs_with(unsigned points, unsigned goblins, const char *units,
                       const char *characters)
{
    static char text[4096];
    snprintf(text, sizeof text,
             "schema: oddsmaster-wm-list/1\n"
             "ruleset: warmaster-revolution\n"
             "army: orcs\n"
             "name: Test\n"
             "points: %u\n"
             "units:\n"
             "  - {unit: orc-warriors, count: 4}\n"
             "  - {unit: goblins, count: %u}\n"
             "%s"
             "characters:\n"
             "  - {character: orc-general}\n"
             "%s",
             points, goblins, units, characters);
    return text;
}

/* The same with the four Goblins a 2,000-point army needs. */
static char *orcs(unsigned points, const char *units, const char *characters)
{
    return orcs_with(points, 4, units, characters);
}

/* Parse text that must load; the caller frees. */
static om_wm_armylist *accepted(const char *text)
{
    om_wm_armylist *l = NULL;
    om_status st = om_wm_armylist_parse("t.yaml", text, strlen(text), &l);
    cr_assert_eq(st, OM_OK, "%s", om_error_message());
    return l;
}

/* Text that must be refused with `code`, a message naming file, line and
 * field (`field`), and containing `fragment`. */
static void refused(const char *text, om_status code, const char *field, const char *fragment)
{
    om_wm_armylist *l = NULL;
    om_status st = om_wm_armylist_parse("t.yaml", text, strlen(text), &l);
    const char *msg = om_error_message();
    char want[128];
    cr_expect_null(l);
    cr_expect_eq(st, code, "status %d, not %d: %s", st, code, msg);
    snprintf(want, sizeof want, ": field '%s': ", field);
    cr_expect(strncmp(msg, "t.yaml:", 7) == 0 && strstr(msg, want) != NULL,
              "the message\n  %s\ndoes not name t.yaml, a line and field '%s'", msg, field);
    cr_expect(strstr(msg, fragment) != NULL, "the message\n  %s\ndoes not say\n  %s", msg,
              fragment);
    om_wm_armylist_free(l);
}

/* ------------------------------------------------------------- loading */

Test(armylist, a_list_gives_units_with_stat_lines_and_points)
{
    om_wm_armylist *l = NULL;
    const om_wm_armylist_unit *banner = NULL, *tank = NULL;
    cr_assert_eq(om_wm_armylist_load_file(EXAMPLES "/revolution-empire-steel-and-shot.yaml", &l),
                 OM_OK, "%s", om_error_message());
    cr_expect_str_eq(l->ruleset, "warmaster-revolution");
    cr_expect_str_eq(l->army, "empire");
    cr_expect_eq(l->limit, 2000u);
    cr_expect_eq(l->thousands, 2u);
    cr_expect_eq(l->points, 2000u);
    cr_expect_eq(l->n_units, 21u, "count: 4 gives four units");
    cr_expect_eq(l->n_characters, 4u);
    cr_expect_str_eq(l->units[0].id, "halberdiers");
    cr_expect_str_eq(l->units[3].id, "halberdiers");
    cr_expect_str_eq(l->units[4].id, "crossbowmen");
    cr_expect_eq(l->units[0].unit.attacks, 3);
    cr_expect_eq(l->units[0].unit.hits, 3);
    cr_expect_eq(l->units[0].unit.armour, 6);
    cr_expect_eq(l->units[0].unit.stands, 3);
    cr_expect_eq(l->units[0].unit.troop, OM_WM_INFANTRY);
    cr_expect_eq(l->units[0].points, 45u);
    cr_expect_eq(l->units[0].unit.points, 45);
    for (size_t i = 0; i < l->n_units; i++) {
        if (l->units[i].item[0])
            banner = &l->units[i];
        if (strcmp(l->units[i].id, "steam-tank") == 0)
            tank = &l->units[i];
    }
    cr_assert_not_null(banner);
    cr_expect_str_eq(banner->item, "banner-of-shielding");
    cr_expect_eq(banner->magic, OM_WM_MAGIC_SHIELDING);
    cr_expect_eq(banner->points, 160u, "Knights 110 and the banner 50");
    cr_assert_not_null(tank);
    cr_expect_eq(tank->unit.troop, OM_WM_MACHINE);
    cr_expect_eq(tank->unit.armour, 3);
    cr_expect_eq(l->characters[0].kind, OM_WM_GENERAL);
    cr_expect_eq(l->characters[0].command, 9u);
    cr_expect_eq(l->characters[3].kind, OM_WM_WIZARD);
    cr_expect_eq(l->characters[3].points, 75u, "Wizard 45 and the Ring of Magic 30");
    om_wm_armylist_free(l);
}

Test(armylist, a_mount_adds_attacks_points_and_flight)
{
    om_wm_armylist *l = NULL;
    cr_assert_eq(om_wm_armylist_load_file(EXAMPLES "/revolution-empire-knightly-host.yaml", &l),
                 OM_OK, "%s", om_error_message());
    cr_expect_str_eq(l->characters[0].mount, "griffon");
    cr_expect_eq(l->characters[0].attacks, 4u, "+2 and the Griffon's +2");
    cr_expect(l->characters[0].flying, "a Griffon flies");
    cr_expect_eq(l->characters[0].points, 305u, "125, Griffon 80, Crown of Command 100");
    cr_expect_str_eq(l->characters[3].mount, "war-altar");
    cr_expect_not(l->characters[3].flying);
    cr_expect_eq(l->characters[3].attacks, 1u);
    om_wm_armylist_free(l);
}

Test(armylist, an_upgrade_with_a_stat_line_gives_its_values)
{
    om_wm_armylist *l = accepted(
        "schema: oddsmaster-wm-list/1\nruleset: warmaster-revolution\narmy: dwarfs\n"
        "name: T\npoints: 1000\nunits:\n  - unit: warriors\n    count: 2\n"
        "  - unit: warriors\n    upgrades: [handgunners]\n"
        "characters:\n  - character: general\n");
    cr_assert_eq(l->n_units, 3u);
    cr_expect_eq(l->units[0].unit.shots, 0);
    cr_expect_eq(l->units[0].unit.armour, 4);
    cr_expect_eq(l->units[2].unit.shots, 1, "Handgunners shoot");
    cr_expect_eq(l->units[2].unit.range_cm, 30);
    cr_expect_eq(l->units[2].unit.armour, 6);
    cr_expect_eq(l->units[2].points, 90u, "Warriors 110, Handgunners -20");
    cr_expect_str_eq(l->units[2].upgrades[0], "handgunners");
    cr_expect_eq(l->points, 110u * 3 - 20 + 155);
    om_wm_armylist_free(l);
}

/* Every example list loads within its limit; the examples hold two
 * 2,000-point lists each of Empire and Orcs under Revolution and 1.1, and
 * two Ancients armies at the Medium battle's 2,000 points. */
Test(armylist, every_example_loads_within_its_limit)
{
    static const struct {
        const char *ruleset, *army;
    } wanted[] = {{"warmaster-revolution", "empire"}, {"warmaster-revolution", "orcs"},
                  {"warmaster-1.1", "empire"},        {"warmaster-1.1", "orc"},
                  {"warmaster-ancients", NULL}};
    unsigned found[sizeof wanted / sizeof wanted[0]] = {0};
    static const char *const files[] = {
        "revolution-empire-steel-and-shot.yaml", "revolution-empire-knightly-host.yaml",
        "revolution-orcs-horde.yaml",            "revolution-orcs-riders.yaml",
        "1.1-empire-battle-line.yaml",           "1.1-empire-knights.yaml",
        "1.1-orcs-waaagh.yaml",                  "1.1-orcs-wolf-and-boar.yaml",
        "ancients-republican-roman.yaml",        "ancients-greek.yaml"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512];
        om_wm_armylist *l = NULL;
        snprintf(path, sizeof path, "%s/%s", EXAMPLES, files[i]);
        cr_assert_eq(om_wm_armylist_load_file(path, &l), OM_OK, "%s", om_error_message());
        cr_expect_eq(l->limit, 2000u, "%s", path);
        cr_expect_leq(l->points, l->limit, "%s", path);
        cr_expect_geq(l->points, 1900u, "%s: a 2,000-point army spends most of it", path);
        for (size_t w = 0; w < sizeof wanted / sizeof wanted[0]; w++)
            if (strcmp(l->ruleset, wanted[w].ruleset) == 0 &&
                (wanted[w].army == NULL || strcmp(l->army, wanted[w].army) == 0))
                found[w]++;
        om_wm_armylist_free(l);
    }
    for (size_t w = 0; w < sizeof wanted / sizeof wanted[0]; w++)
        cr_expect_geq(found[w], 2u, "%s %s: %u lists", wanted[w].ruleset,
                      wanted[w].army ? wanted[w].army : "", found[w]);
}

/* --------------------------------------------------------- the points */

Test(armylist, points_over_the_limit_are_refused)
{
    /* 4 x 60 + 4 x 30 + 95 = 455. */
    om_wm_armylist_free(accepted(orcs(455, "", "")));
    refused(orcs(450, "", ""), OM_EINVAL, "points", "455 points, 5 over the limit of 450");
}

/* -------------------------------------------------------- min and max */

Test(armylist, minimums_scale_with_full_thousands)
{
    /* Goblins are min 2 per 1,000: 4 at 2,000, 2 at 1,000 to 1,999. */
    refused(orcs_with(2000, 3, "", ""), OM_EINVAL, "units",
            "3 Goblins: fewer than Orcs needs (min 2 per 1,000 points, no max: at least 4 in a "
            "2000-point army");
    om_wm_armylist_free(accepted(orcs_with(2000, 4, "", "")));
    om_wm_armylist_free(accepted(orcs_with(1999, 2, "", "")));
    refused(orcs_with(1999, 1, "", ""), OM_EINVAL, "units", "at least 2 in a 1999-point army");
}

Test(armylist, maximums_scale_with_full_thousands)
{
    /* Black Orcs are max 1 per 1,000. */
    om_wm_armylist_free(accepted(orcs(2000, "  - {unit: black-orcs, count: 2}\n", "")));
    refused(orcs(2000, "  - {unit: black-orcs, count: 3}\n", ""), OM_EINVAL, "units[2].count",
            "3 Black Orcs: more than Orcs allows (min/max 0/1 per 1,000 points: 0 to 2 in a "
            "2000-point army");
    refused(orcs(1500, "  - {unit: black-orcs}\n  - {unit: black-orcs}\n", ""), OM_EINVAL,
            "units[3].unit", "0 to 1 in a 1500-point army");
}

Test(armylist, characters_have_maximums_too)
{
    /* Orc Heroes are max 2 per 1,000. */
    static const char four[] = "  - {character: orc-hero}\n  - {character: orc-hero}\n"
                               "  - {character: orc-hero}\n  - {character: orc-hero}\n";
    om_wm_armylist_free(accepted(orcs(2000, "", four)));
    refused(orcs(1000, "", four), OM_EINVAL, "characters[3].character",
            "3 Orc Hero: more than Orcs allows");
}

/* Below 1,000 points Warmaster Ancients ignores the minimums (The Armies >
 * Picking the Army); the Rules Update keeps the standard Min/Max. */
Test(armylist, below_a_thousand_points_by_rule_set)
{
    static const char roman[] = "schema: oddsmaster-wm-list/1\nruleset: warmaster-ancients\n"
                                "army: republican-roman\nname: T\npoints: 500\nunits:\n"
                                "  - {unit: legion, count: 2}\ncharacters:\n"
                                "  - {character: general}\n";
    om_wm_armylist_free(accepted(roman));
    refused(orcs_with(999, 1, "", ""), OM_EINVAL, "units", "at least 2 in a 999-point army");
}

/* ------------------------------------------------- whole-army limits */

Test(armylist, one_general_exactly)
{
    refused(orcs(2000, "", "  - {character: orc-general}\n"), OM_EINVAL,
            "characters[1].character", "2 Orc General: more than Orcs allows (exactly 1 in any "
            "army");
    refused("schema: oddsmaster-wm-list/1\nruleset: warmaster-revolution\narmy: orcs\n"
            "name: T\npoints: 1000\nunits:\n  - {unit: orc-warriors, count: 2}\n"
            "  - {unit: goblins, count: 2}\n",
            OM_EINVAL, "characters", "0 Orc General: fewer than Orcs needs (exactly 1 in any army");
}

/* An Ancients General is min/max 1 whatever the army's size: a 2,000-point
 * army has one, not two. */
Test(armylist, an_ancients_general_is_one_at_any_size)
{
    om_wm_armylist *l = NULL;
    cr_assert_eq(om_wm_armylist_load_file(EXAMPLES "/ancients-greek.yaml", &l), OM_OK, "%s",
                 om_error_message());
    cr_expect_eq(l->characters[0].type, OM_ARMY_GENERAL);
    cr_expect_str_eq(l->characters[0].upgrades[0], "leonidas");
    /* Leonidas fights with his own +3, not the General's +2. */
    cr_expect_eq(l->characters[0].attacks, 3);
    om_wm_armylist_free(l);
}

Test(armylist, an_upgrade_limited_per_army)
{
    static const char empire[] =
        "schema: oddsmaster-wm-list/1\nruleset: warmaster-revolution\narmy: empire\nname: T\n"
        "points: 3000\nunits:\n  - {unit: halberdiers, count: 6}\n"
        "  - {unit: crossbowmen, count: 6}\ncharacters:\n  - {character: general}\n"
        "  - {character: wizard, mount: war-altar}\n%s";
    char text[1024];
    snprintf(text, sizeof text, empire, "");
    om_wm_armylist_free(accepted(text));
    snprintf(text, sizeof text, empire, "  - {character: wizard, mount: war-altar}\n");
    refused(text, OM_EINVAL, "characters[2].mount",
            "2 War Altar: more than Empire allows (at most 1 in any army");
}

/* -------------------------------------------------------- magic items */

Test(armylist, each_item_once_per_army)
{
    refused(orcs(2000, "",
                 "  - {character: orc-hero, magic_item: sword-of-might}\n"
                 "  - {character: orc-hero, magic_item: sword-of-might}\n"),
            OM_EINVAL, "characters[2].magic_item",
            "the Sword of Might is already taken by characters[1] (line ");
    refused(orcs(2000, "  - {unit: boar-riders, magic_item: sword-of-might}\n",
                 "  - {character: orc-hero, magic_item: sword-of-might}\n"),
            OM_EINVAL, "characters[1].magic_item", "already taken by units[2]");
}

Test(armylist, one_item_for_one_unit)
{
    refused(orcs(2000, "  - {unit: boar-riders, count: 2, magic_item: battle-banner}\n", ""),
            OM_EINVAL, "units[2].magic_item", "2 units cannot all have the Battle Banner");
    refused(orcs(2000, "", "  - {character: orc-hero, magic_item: [sword-of-might, "
                           "sword-of-fate]}\n"),
            OM_EPARSE, "characters[1].magic_item", "expected a single value");
}

Test(armylist, who_may_carry_an_item)
{
    om_wm_armylist *l = accepted(orcs(2000, "  - {unit: boar-riders, magic_item: battle-banner}\n",
                                      "  - {character: orc-shaman, magic_item: ring-of-magic}\n"
                                      "  - {character: orc-hero, magic_item: sword-of-fate}\n"));
    cr_expect_eq(l->points, 455u + 110 + 50 + 45 + 30 + 80 + 5);
    om_wm_armylist_free(l);
    refused(orcs(2000, "  - {unit: giant, magic_item: battle-banner}\n", ""), OM_EINVAL,
            "units[2].magic_item", "Giant (monster) cannot have the Battle Banner");
    refused(orcs(2000, "  - {unit: rock-lobber, magic_item: sword-of-might}\n", ""), OM_EINVAL,
            "units[2].magic_item", "Rock Lobber (artillery) cannot have the Sword of Might");
    refused(orcs(2000, "", "  - {character: orc-hero, magic_item: battle-banner}\n"),
            OM_EINVAL, "characters[1].magic_item", "it is for a unit of infantry, cavalry or "
            "chariots only");
    refused(orcs(2000, "", "  - {character: orc-hero, magic_item: crown-of-command}\n"),
            OM_EINVAL, "characters[1].magic_item", "it is for the General only");
    refused(orcs(2000, "", "  - {character: orc-hero, magic_item: ring-of-magic}\n"),
            OM_EINVAL, "characters[1].magic_item", "it is for a Wizard only");
    refused(orcs(2000, "  - {unit: orc-warriors, magic_item: crown-of-command}\n", ""),
            OM_EINVAL, "units[2].magic_item", "it is for the General only");
}

/* A Dwarf Runesmith is a Hero whose list allows him the Staff of
 * Spellbinding (magic_item_upgrades); a plain Hero is not allowed it. */
Test(armylist, the_list_may_allow_an_item_beyond_the_type)
{
    static const char dwarfs[] =
        "schema: oddsmaster-wm-list/1\nruleset: warmaster-revolution\narmy: dwarfs\nname: T\n"
        "points: 1000\nunits:\n  - {unit: warriors, count: 2}\ncharacters:\n"
        "  - {character: general}\n  - {character: %s, magic_item: staff-of-spellbinding}\n";
    char text[1024];
    snprintf(text, sizeof text, dwarfs, "runesmith");
    om_wm_armylist_free(accepted(text));
    snprintf(text, sizeof text, dwarfs, "hero");
    refused(text, OM_EINVAL, "characters[1].magic_item", "it is for a Wizard or a Dwarf Runesmith");
}

Test(armylist, ancients_has_no_magic_items)
{
    refused("schema: oddsmaster-wm-list/1\nruleset: warmaster-ancients\narmy: greek\nname: T\n"
            "points: 1000\nunits:\n  - {unit: hoplites, count: 8, magic_item: battle-banner}\n"
            "characters:\n  - {character: general}\n",
            OM_EINVAL, "units[0].magic_item", "the Greek army of warmaster-ancients has no magic "
            "items");
}

/* The items the engine models carry its names; the table holds them all. */
Test(armylist, the_item_table_and_the_engine_agree)
{
    size_t modelled = 0;
    for (size_t i = 0; i < om_wm_item_count(); i++) {
        const om_wm_item *it = om_wm_item_at(i);
        cr_expect_eq(om_wm_item_find(it->id), it);
        if (it->magic != OM_WM_MAGIC_NONE) {
            cr_expect_str_eq(om_wm_magic_names[it->magic], it->id);
            modelled++;
        }
    }
    cr_expect_eq(modelled, (size_t)OM_WM_MAGIC_COUNT - 1);
    cr_expect_eq(om_wm_item_count(), 18u, "5 standards, 4 weapons, 9 devices");
    cr_expect_null(om_wm_item_at(om_wm_item_count()));
}

/* ------------------------------------------------ upgrades and mounts */

Test(armylist, only_the_upgrades_the_list_offers)
{
    static const char empire[] =
        "schema: oddsmaster-wm-list/1\nruleset: warmaster-revolution\narmy: empire\nname: T\n"
        "points: 1000\nunits:\n  - {unit: halberdiers, count: 2}\n"
        "  - {unit: crossbowmen, count: 2}\n"
        "  - {unit: %s, upgrades: [handgunners]}\ncharacters:\n"
        "  - {character: general, mount: %s}\n";
    char text[1024];
    snprintf(text, sizeof text, empire, "crossbowmen", "griffon");
    om_wm_armylist_free(accepted(text));
    snprintf(text, sizeof text, empire, "pistoliers", "griffon");
    refused(text, OM_EINVAL, "units[2].upgrades", "Pistoliers cannot take the upgrade "
            "Handgunners (its upgrades: none)");
    snprintf(text, sizeof text, empire, "crossbowmen", "war-altar");
    refused(text, OM_EINVAL, "characters[0].mount", "General cannot ride a War Altar");
    snprintf(text, sizeof text, empire, "crossbowmen", "pegasus");
    refused(text, OM_ENOTFOUND, "characters[0].mount", "unknown mount 'pegasus'");
}

/* An Ancients army links no upgrade to a unit: a General's upgrade goes to
 * the General only, a unit's to a unit of its type. */
Test(armylist, ancients_upgrades_by_type)
{
    static const char greek[] =
        "schema: oddsmaster-wm-list/1\nruleset: warmaster-ancients\narmy: greek\nname: T\n"
        "points: 1000\nunits:\n  - {unit: hoplites, count: 8}\n  - {unit: %s, upgrades: [%s]}\n"
        "characters:\n  - {character: general}\n";
    char text[1024];
    snprintf(text, sizeof text, greek, "sacred-band", "spartan-bodyguard");
    om_wm_armylist_free(accepted(text));
    snprintf(text, sizeof text, greek, "sacred-band", "leonidas");
    refused(text, OM_EINVAL, "units[1].upgrades", "cannot take the upgrade Leonidas");
    snprintf(text, sizeof text, greek, "noble-cavalry", "spartan-bodyguard");
    refused(text, OM_EINVAL, "units[1].upgrades", "cannot take the upgrade Spartan Bodyguard");
}

/* ------------------------------------------------------ unknown names */

Test(armylist, unknown_names_get_did_you_mean)
{
    refused(orcs(2000, "  - {unit: trols}\n", ""), OM_ENOTFOUND, "units[2].unit",
            "unknown unit 'trols' of warmaster-revolution/orcs; did you mean 'trolls'?");
    refused(orcs(2000, "", "  - {character: orc-shamen}\n"), OM_ENOTFOUND,
            "characters[1].character", "did you mean 'orc-shaman'?");
    refused(orcs(2000, "", "  - {character: orc-hero, magic_item: sword-of-migt}\n"),
            OM_ENOTFOUND, "characters[1].magic_item", "did you mean 'sword-of-might'?");
    refused(orcs(2000, "  - {unit: orc-hero}\n", ""), OM_EINVAL, "units[2].unit",
            "'orc-hero' is a character of Orcs, not a unit: list it under 'characters'");
    refused("schema: oddsmaster-wm-list/1\nruleset: warmaster-revolution\narmy: orks\nname: T\n"
            "points: 1000\nunits:\n  - {unit: goblins}\n",
            OM_ENOTFOUND, "army", "did you mean 'orcs'?");
    refused("schema: oddsmaster-wm-list/1\nruleset: warmaster-revolusion\narmy: orcs\nname: T\n"
            "points: 1000\nunits:\n  - {unit: goblins}\n",
            OM_ENOTFOUND, "ruleset", "did you mean 'warmaster-revolution'?");
}

Test(armylist, malformed_text_and_wrong_schema)
{
    refused("schema: oddsmaster-wm-list/1\nruleset: [warmaster\n", OM_EPARSE, "ruleset",
            "invalid YAML");
    refused("schema: oddsmaster-scenario/1\nruleset: warmaster-revolution\n", OM_EPARSE,
            "schema", "this version reads 'oddsmaster-wm-list/1'");
    refused(orcs(2000, "  - {unit: giant, count: 0}\n", ""), OM_EINVAL, "units[2].count",
            "must be at least 1");
}

/* The army data's whole-army limits are read (army.c): the Empire General
 * is exactly one per army, Ancients Generals too. */
Test(armylist, the_army_data_holds_whole_army_limits)
{
    om_army *a = NULL;
    const om_army_unit *g;
    cr_assert_eq(om_army_load("warmaster-revolution", "empire", &a), OM_OK);
    g = om_army_unit_find(a, "general");
    cr_expect_eq(g->army_min, 1u);
    cr_expect_eq(g->army_max, 1u);
    cr_expect_eq(om_army_unit_find(a, "war-altar")->army_max, 1u);
    cr_expect_eq(om_army_unit_find(a, "halberdiers")->army_max, 0u);
    om_army_free(a);
    cr_assert_eq(om_army_load("warmaster-ancients", "late-achaemenid-persian", &a), OM_OK);
    g = om_army_unit_find(a, "general");
    cr_expect_eq(g->army_min, 1u);
    cr_expect_eq(g->army_max, 1u);
    om_army_free(a);
}
