/*
 * options.c: the interpretations of ambiguous rules, as named options.
 *
 * The digests list ambiguities with a recommended reading (ids such as A3 of
 * the Warmaster digest or WMA A24 of the Ancients one). Each one that changes
 * an engagement is here, with the rulebook section it concerns: the switchable
 * ones are fields of om_wm_options (scenario key `options:`), the others are
 * fixed readings the engine implements, listed so that every choice is visible
 * in `oddsmaster list --options` and recorded with every run.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wm.h"

/* Switchable options first, in om_wm_options order; then fixed readings. */
static const om_wm_option om_wm_option_table[] = {
    {.name = "last_ditch_per_stand", .ambiguity = "A3",
     .section = "Warmaster Revolution, Combat > Attack Modifiers > The Last Ditch Dice",
     .question = "When modifiers reduce attacks to 0, does the unit roll one die, or each stand?",
     .default_value = "false: the unit rolls one die if its total is 0 (\"a unit always rolls "
                      "one Attack dice\")",
     .other_value = "true: every stand at 0 rolls one die",
     .offset = offsetof(om_wm_options, last_ditch_per_stand)},
    {.name = "infantry_pursues_cavalry", .ambiguity = "A6",
     .section = "Warmaster Revolution, Combat > Pursuit > Which units can pursue?",
     .question = "May infantry pursue retreating cavalry or chariots?",
     .default_value = "false: never (the at-a-glance rule; the abstraction cannot tell front "
                      "edges)",
     .other_value = "true: yes (reading B: only front-edge contact is barred)",
     .offset = offsetof(om_wm_options, infantry_pursues_cavalry)},
    {.name = "defended_after_retreat", .ambiguity = "A8",
     .section = "Warmaster Revolution, Combat > Defended & Fortified Troops",
     .question = "Does a unit that retreated keep its defended or fortified position?",
     .default_value = "false: it is lost for good (\"always loses the advantage of its position\")",
     .other_value = "true: it regains it from the next turn (in the open for the rest of the turn)",
     .offset = offsetof(om_wm_options, defended_after_retreat)},
    {.name = "result_cap_ignores_carried", .ambiguity = "A21",
     .section = "Warmaster Revolution, Combat > Combat Results",
     .question = "Is the cap on hits counted in the result the remaining capacity or the full one?",
     .default_value = "false: remaining capacity (stands x Hits - hits already carried)",
     .other_value = "true: full capacity, ignoring carried hits",
     .offset = offsetof(om_wm_options, result_cap_ignores_carried)},
    {.name = "max_turns", .ambiguity = "-",
     .section = "Warmaster Revolution, Combat > Unresolved Combat",
     .question = "How many turns may an unresolved engagement go on before it is called off?",
     .default_value = "0: 10 turns", .other_value = "1..100 turns",
     .offset = offsetof(om_wm_options, max_turns), .max = OM_WM_MAX_TURNS_LIMIT},
    /* Fixed readings (offset OM_WM_OPTION_FIXED). */
    {.name = "stand_floor", .ambiguity = "A4",
     .section = "Warmaster Revolution, Combat > Attack Modifiers",
     .question = "Are negative stands subtracted from the unit total?",
     .default_value = "fixed: each stand is floored at 0", .other_value = "-",
     .offset = OM_WM_OPTION_FIXED},
    {.name = "charge_into_unresolved", .ambiguity = "A7",
     .section = "Warmaster Revolution, Combat > Attack Modifiers",
     .question = "Does a unit charging into an unresolved engagement get the charge bonus?",
     .default_value = "fixed: yes (reading A): in an engagement of several units going on from "
                      "earlier turns (rounds_before), a unit charging fights the call's first "
                      "round as the charge's, its charge bonus and first-round rules with it",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "mixed_cover", .ambiguity = "A9",
     .section = "Warmaster Revolution, Combat > Defended & Fortified Troops",
     .question = "Mixed defended and open stands in combat",
     .default_value = "fixed: one position per unit", .other_value = "-",
     .offset = OM_WM_OPTION_FIXED},
    {.name = "retreat_divisor", .ambiguity = "A10/D6",
     .section = "Warmaster Revolution, Combat > Retreats; Warmaster 1.1 Rules Update, P145 "
                "(Appendix 1)",
     .question = "Which units divide the retreat distance?",
     .default_value = "fixed per rule set: all losing units (Revolution, Ancients), engaged ones "
                      "(1.1)",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "both_destroyed", .ambiguity = "A18",
     .section = "Warmaster Revolution, Combat > Combat Results",
     .question = "Both sides destroyed in the same round", .default_value = "fixed: a draw",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "side_destroyed", .ambiguity = "-",
     .section = "Warmaster Revolution, Combat > Combat Results; Pursuit",
     .question = "When does a side lose a round outright, whatever the results?",
     .default_value = "fixed: only when every unit engaged on it is destroyed, supporting units "
                      "included (\"all the units engaged on one side ... entirely destroyed\"); "
                      "a fighting unit wiped out while other units support it leaves the results "
                      "to decide, and those units, which a two-unit engagement does not model, "
                      "fight no further",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "survivor_wins", .ambiguity = "A19",
     .section = "Warmaster Revolution, Combat > Combat Results",
     .question = "One side destroyed although it scored more",
     .default_value = "fixed: the survivor wins", .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "drive_back_dice_confuse", .ambiguity = "A24",
     .section = "Warmaster Revolution, Shooting > Driving Back Enemies",
     .question = "Which dice can confuse in a drive back?",
     .default_value = "fixed: only the dice rolled after the defended/fortified discount",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "draw_fall_back", .ambiguity = "A32",
     .section = "Warmaster Revolution, Combat > Fall Backs",
     .question = "Fallers still touching after a draw: fight on now or next turn?",
     .default_value = "fixed: the engagement ends in a draw (fall-back geometry is not modelled)",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "support_timing", .ambiguity = "A33/D5",
     .section = "Warmaster Revolution, Combat > Supporting Troops; Warmaster 1.1 Rules Update, "
                "P145 (Appendix 1)",
     .question = "Do supports count before or after casualties?",
     .default_value = "fixed per rule set: before (Revolution, Ancients), after (1.1: a unit "
                      "destroyed in the round has no support counted, its own or other units')",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "pursuit_target", .ambiguity = "-",
     .section = "Warmaster Revolution, Combat > Aftermath; Pursuit",
     .question = "Several units: which retreating enemy does a winning unit pursue?",
     .default_value = "fixed: the one its engagement names (pursues: a new enemy it did not "
                      "fight, such as a supporting unit of the losers), else the first enemy it "
                      "fought that can be pursued; units that only supported follow the friend "
                      "they support (supporting pursuit) or stand",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "pursued_by_several", .ambiguity = "-",
     .section = "Warmaster Revolution, Combat > Pursuit",
     .question = "Several units: whom does a unit pursued by several winners fight next?",
     .default_value = "fixed: its first pursuer (in unit order), with all its fighting stands, "
                      "frontally; the pursuers each fight the unit they pursued",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "stands_to_contacts", .ambiguity = "-",
     .section = "Warmaster Revolution, Combat > Attacks",
     .question = "Several units: which enemy do a unit's stands fight once it has lost some?",
     .default_value = "fixed: stands not fighting go first (Combat > How to Calculate Damage); "
                      "the stands left fight its contacts in the order given, each up to its "
                      "declared stands, the last taking the rest",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "rear_supports_between_units", .ambiguity = "-",
     .section = "Warmaster Ancients, Combat > Support; army lists",
     .question = "Several units: which rear supports count between a phalanx, pikemen or "
                 "skirmishers and another unit?",
     .default_value = "fixed: none to a phalanx or to pikemen, none from skirmishers or from "
                      "pikemen",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "maniple_attackers", .ambiguity = "-",
     .section = "Warmaster Ancients, Special Rules > Maniple",
     .question = "Several units attack a maniple unit: how often are its maniple dice rolled?",
     .default_value = "fixed: once a round, on the hits of all its attackers together",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "several_chargers_shot", .ambiguity = "-",
     .section = "Warmaster Revolution, Shooting > Shooting at Charging Enemy",
     .question = "Several units charge one unit that stands and shoots: at which does it shoot?",
     .default_value = "fixed: the first charging enemy it touches (its contacts first)",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "unit_special_targets", .ambiguity = "-",
     .section = "army lists; Warmaster Ancients, Special Rules",
     .question = "Several units: at whom do a machine's bonus dice, a Bear's extra strike, "
                 "Ashurbanipal's re-roll, a rampage and scythed chariots' confusion go?",
     .default_value = "fixed: bonus dice, extra strike and re-roll with the unit's first blow; "
                      "elephants rampage through every enemy unit they touch; scythed chariots "
                      "confuse every unit of the other side that retreats after suffering a hit",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "pursuit_bonus_short", .ambiguity = "A37",
     .section = "Warmaster Revolution, Combat > Attack Modifiers > Pursuit attack per full 3cm",
     .question = "Pursuit bonus when the enemy retreated under 3cm",
     .default_value = "fixed: +1 + floor(cm/3)", .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "supporter_retreat", .ambiguity = "A38",
     .section = "Warmaster Revolution, Combat > Retreats",
     .question = "Retreat distance of supporting units",
     .default_value = "fixed: the same as the unit they support", .other_value = "-",
     .offset = OM_WM_OPTION_FIXED},
    {.name = "character_bonus_stand", .ambiguity = "A39",
     .section = "Warmaster Revolution, Combat > Attack Modifiers; Generals, Wizards & Heroes > "
                "Characters in Combat",
     .question = "Which stand gets a character's bonus?",
     .default_value = "fixed: the best stand (unflanked if any), before that stand's modifiers",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "shock_vs_defended", .ambiguity = "WMA A24",
     .section = "Warmaster Ancients, Special Rules > Shock",
     .question = "Does long-based shock cavalry get its +1 against defended enemies?",
     .default_value = "fixed: yes (only the ordinary charge bonus is denied)", .other_value = "-",
     .offset = OM_WM_OPTION_FIXED},
    {.name = "maniple_same_unit", .ambiguity = "WMA A9",
     .section = "Warmaster Ancients, Special Rules > Maniple",
     .question = "Do a maniple unit's own rear stands give maniple dice?",
     .default_value = "fixed: no, only stands of another maniple unit (support_units > 0)",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    /* Army-list rules: the ambiguity ids are the readings of the research note
     * docs/research/rule_effects_fantasy.md (its section 6). */
    {.name = "zero_attack_stands", .ambiguity = "lists A-8", .section = "army lists",
     .question = "War Wagon, Screaming Bell, Pump Wagon: does a unit whose stands all have base "
                 "Attacks 0 roll the last-ditch die?",
     .default_value = "fixed: no", .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "first_round_bonus", .ambiguity = "lists A-12", .section = "army lists",
     .question = "Wild Riders, Winged Lancers, Zealots: is \"the first round of combat\" that of "
                 "the engagement or of every turn?",
     .default_value = "fixed: round 1 of the engagement only", .other_value = "-",
     .offset = OM_WM_OPTION_FIXED},
    {.name = "dragon_fire", .ambiguity = "lists A-14", .section = "army lists",
     .question = "Dragons, Chaos/Zombie/Forest Dragon: how does a rider's Dragon fire shoot?",
     .default_value = "fixed: at the usual to-hit and save (no unit bonus), 20cm, at chargers too",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "djinn_range", .ambiguity = "lists A-15", .section = "army lists",
     .question = "Djinn: the Djinn's range, which the list omits", .default_value = "fixed: 30cm",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "stegadon_fear", .ambiguity = "lists A-18", .section = "army lists",
     .question = "1.1 Stegadon: the 1.1 Stegadon \"causes fear\"", .default_value = "fixed: terror",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "giant", .ambiguity = "lists A-20", .section = "army lists",
     .question = "Giant: the Giant's rule has no text in the sources",
     .default_value = "fixed: it fights by its stat line", .other_value = "-",
     .offset = OM_WM_OPTION_FIXED},
    {.name = "trebuchet_drive_back", .ambiguity = "lists A-21", .section = "army lists",
     .question = "Revolution Trebuchet: is a drive back of exactly 10cm ignored or destroying?",
     .default_value = "fixed: ignored (more than 10cm destroys); never confused",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "warp_lightning", .ambiguity = "lists A-22", .section = "army lists",
     .question = "Warp Lightning Cannon: double 1s; 1.1 casualties; 1.1 attacks on itself",
     .default_value = "fixed: two or more 1s in one shooting; an unsaved hit; 4+ with no save",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "flame_cannon_reduced", .ambiguity = "lists A-23", .section = "army lists",
     .question = "Flame Cannon: after misfire 3, can the 1D6 shots misfire again?",
     .default_value = "fixed: no", .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "rocket_whoosh", .ambiguity = "lists A-24", .section = "army lists",
     .question = "Death Rocket, Rocket Launcher: what does a Whoosh do to the target?",
     .default_value = "fixed: nothing (its D6 Attacks hit the unit beyond)", .other_value = "-",
     .offset = OM_WM_OPTION_FIXED},
    {.name = "anvil_duration", .ambiguity = "lists A-26", .section = "army lists",
     .question = "Anvil, Shrine: how long does a struck Anvil or Shrine last?",
     .default_value = "fixed: the owner's Combat phase and the enemy's after it (aura: roll, a "
                      "4+ each own turn)",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "oathstone_hero", .ambiguity = "lists A-27", .section = "army lists",
     .question = "Oathstone, Tomb King: does the Oathstone's Hero gain +1 too; how long do the "
                 "powers last?",
     .default_value = "fixed: yes; one Combat phase (power_turn)", .other_value = "-",
     .offset = OM_WM_OPTION_FIXED},
    {.name = "zealot_enemies", .ambiguity = "lists A-29", .section = "army lists",
     .question = "Zealots: who are Chaos and Undead to Zealots?",
     .default_value = "fixed: the Chaos, Daemons, Beastmen, Chaos Dwarfs, Skaven, Tomb Kings and "
                      "Vampire Counts lists",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "badly_hurt_engaged", .ambiguity = "lists A-34", .section = "army lists",
     .question = "Dragons, Greater Daemon, Sphinx, Stegadon: can a 1.1 monster still engaged "
                 "become badly hurt?",
     .default_value = "fixed: yes in 1.1 (its lists say nothing of engagement), no in Revolution",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
};

const om_option_table om_wm_option_registry = {
    "engagements", om_wm_option_table, sizeof om_wm_option_table / sizeof om_wm_option_table[0]};

size_t om_wm_option_count(void) { return om_wm_option_registry.count; }

const om_wm_option *om_wm_option_at(size_t i)
{
    return i < om_wm_option_registry.count ? &om_wm_option_table[i] : NULL;
}

const om_wm_option *om_wm_option_find(const char *name)
{
    return om_option_find(&om_wm_option_registry, name);
}

om_status om_wm_option_set(om_wm_options *o, const char *name, const char *value)
{
    return om_option_set(&om_wm_option_registry, o, name, value);
}

const char *om_wm_option_value(const om_wm_options *o, const om_wm_option *opt, char *buf,
                               size_t size)
{
    return om_option_value(opt, o, buf, size);
}
