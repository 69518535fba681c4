/*
 * traits.c: the special rules the engine implements, by name: the universal
 * rules of the rulebook (WHFB 7th edition, Special Rules; Psychology; Weapons
 * > Special Weapon Rules; Shooting > To Hit Modifiers; Skirmishers; Fast
 * Cavalry; Flyers) and two army-book rules players ask for (Ethereal,
 * Undead), each read as README.md says. Scenario loaders turn names into the
 * OM_WH7_RULE_* bits of om_wh7_traits; the resolver reads only the bits.
 */
#include <string.h>

#include "wh7_int.h"

static const om_wh7_special om_wh7_special_table[] = {
    {"always-strikes-first", OM_WH7_RULE_ASF,
     "strikes before chargers and by Initiative among such models; cancels strikes last",
     "Special Rules > Always Strikes First"},
    {"killing-blow", OM_WH7_RULE_KILLING_BLOW,
     "a natural 6 to wound in close combat slays a model of unit strength 2 or less: "
     "ward saves only", "Special Rules > Killing Blow"},
    {"poisoned-attacks", OM_WH7_RULE_POISON,
     "a natural 6 to hit in close combat wounds automatically", "Special Rules > Poisoned Attacks"},
    {"poisoned-shots", OM_WH7_RULE_POISON_SHOTS,
     "a natural 6 to hit when shooting wounds automatically (not with the 7+ rule)",
     "Special Rules > Poisoned Attacks"},
    {"regeneration", OM_WH7_RULE_REGENERATION,
     "a 4+ save after armour and ward saves; not against flaming attacks or killing blows",
     "Special Rules > Regeneration"},
    {"armour-piercing", OM_WH7_RULE_ARMOUR_PIERCING,
     "its close combat blows worsen armour saves by 1 more", "Weapons > Armour Piercing"},
    {"flaming-attacks", OM_WH7_RULE_FLAMING,
     "its attacks are flaming: double wounds on Flammable models, no regeneration",
     "Special Rules > Flaming Attacks"},
    {"frenzy", OM_WH7_RULE_FRENZY,
     "+1 Attack and immune to psychology while frenzied; must pursue; lost when defeated",
     "Psychology > Frenzy"},
    {"hatred", OM_WH7_RULE_HATRED,
     "re-rolls missed blows in the first turn of the combat; must pursue",
     "Psychology > Hatred"},
    {"fear", OM_WH7_RULE_FEAR,
     "causes Fear: tests when charging or charged, only 6s to hit, automatic breaks",
     "Psychology > Fear"},
    {"terror", OM_WH7_RULE_TERROR,
     "causes Terror (and Fear): a failed test flees", "Psychology > Terror"},
    {"stubborn", OM_WH7_RULE_STUBBORN,
     "break tests on its unmodified Leadership if better", "Psychology > Stubborn"},
    {"unbreakable", OM_WH7_RULE_UNBREAKABLE,
     "immune to psychology; passes every break test", "Psychology > Unbreakable"},
    {"immune-to-psychology", OM_WH7_RULE_ITP,
     "passes Panic, Fear and Terror; never fears an automatic break; cannot flee a charge",
     "Psychology > Immune to Psychology"},
    {"stupidity", OM_WH7_RULE_STUPIDITY,
     "a charger that fails its Stupidity test does not charge", "Psychology > Stupidity"},
    {"skirmishers", OM_WH7_RULE_SKIRMISHERS,
     "no rank bonus, never takes away ranks; -1 to be shot if unit strength 1 a model",
     "Skirmishers"},
    {"large-target", OM_WH7_RULE_LARGE_TARGET, "+1 to be hit by shooting",
     "Shooting > To Hit Modifiers"},
    {"flammable", OM_WH7_RULE_FLAMMABLE, "takes double wounds from flaming attacks",
     "Special Rules > Flammable"},
    {"ethereal", OM_WH7_RULE_ETHEREAL,
     "harmed only by magical attacks (army-book rule, README.md)", "Warhammer Armies books"},
    {"undead", OM_WH7_RULE_UNDEAD,
     "immune to psychology; takes no break test but crumbles: wounds with no save equal "
     "to the margin of defeat (army-book rule read as Unbreakable Swarms, README.md)",
     "Psychology > Unbreakable Swarms; Warhammer Armies books"},
    {"swarm", OM_WH7_RULE_SWARM,
     "unbreakable; a defeat costs wounds with no save equal to the margin",
     "Psychology > Unbreakable Swarms"},
    {"magical-attacks", OM_WH7_RULE_MAGICAL_ATTACKS,
     "its attacks are magical (they harm ethereal models)", "Magic Items > Magic Weapons"},
    {"fast-cavalry", OM_WH7_RULE_FAST_CAVALRY, "no rank bonus", "Fast Cavalry > Rank Bonus"},
    {"flyer", OM_WH7_RULE_FLYER,
     "flees and pursues 3D6; keeps its charge bonuses against defended obstacles",
     "Flyers"},
    {"scouts", OM_WH7_RULE_SCOUTS, "deployment only: no effect on the dice of a combat",
     "Special Rules > Scouts"},
    {"immune-to-poison", OM_WH7_RULE_IMMUNE_POISON,
     "poisoned attacks must roll to wound (war machines)", "Special Rules > Poisoned Attacks"},
};

#define WH7_SPECIAL_COUNT (sizeof om_wh7_special_table / sizeof om_wh7_special_table[0])

const om_wh7_special *om_wh7_special_find(const char *id)
{
    for (size_t i = 0; i < WH7_SPECIAL_COUNT; i++)
        if (strcmp(om_wh7_special_table[i].id, id) == 0)
            return &om_wh7_special_table[i];
    return NULL;
}

size_t om_wh7_special_count(void) { return WH7_SPECIAL_COUNT; }

const om_wh7_special *om_wh7_special_at(size_t i)
{
    return i < WH7_SPECIAL_COUNT ? &om_wh7_special_table[i] : NULL;
}
