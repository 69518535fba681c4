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
    {"last_ditch_per_stand", "A3",
     "Warmaster Revolution, Combat > Attack Modifiers > The Last Ditch Dice",
     "When modifiers reduce attacks to 0, does the unit roll one die, or each stand?",
     "false: the unit rolls one die if its total is 0 (\"a unit always rolls one Attack "
     "dice\")", "true: every stand at 0 rolls one die",
     offsetof(om_wm_options, last_ditch_per_stand), 0},
    {"infantry_pursues_cavalry", "A6",
     "Warmaster Revolution, Combat > Pursuit > Which units can pursue?",
     "May infantry pursue retreating cavalry or chariots?",
     "false: never (the at-a-glance rule; the abstraction cannot tell front edges)",
     "true: yes (reading B: only front-edge contact is barred)",
     offsetof(om_wm_options, infantry_pursues_cavalry), 0},
    {"defended_after_retreat", "A8", "Warmaster Revolution, Combat > Defended & Fortified Troops",
     "Does a unit that retreated keep its defended or fortified position?",
     "false: it is lost for good (\"always loses the advantage of its position\")",
     "true: it regains it from the next turn (in the open for the rest of the turn)",
     offsetof(om_wm_options, defended_after_retreat), 0},
    {"result_cap_ignores_carried", "A21", "Warmaster Revolution, Combat > Combat Results",
     "Is the cap on hits counted in the result the remaining capacity or the full one?",
     "false: remaining capacity (stands x Hits - hits already carried)",
     "true: full capacity, ignoring carried hits",
     offsetof(om_wm_options, result_cap_ignores_carried), 0},
    {"max_turns", "-", "Warmaster Revolution, Combat > Unresolved Combat",
     "How many turns may an unresolved engagement go on before it is called off?",
     "0: 10 turns", "1..100 turns", offsetof(om_wm_options, max_turns), OM_WM_MAX_TURNS_LIMIT},
    /* Fixed readings (offset OM_WM_OPTION_FIXED). */
    {"stand_floor", "A4", "Warmaster Revolution, Combat > Attack Modifiers",
     "Are negative stands subtracted from the unit total?",
     "fixed: each stand is floored at 0", "-", OM_WM_OPTION_FIXED, 0},
    {"charge_into_unresolved", "A7", "Warmaster Revolution, Combat > Attack Modifiers",
     "Does a unit charging into an unresolved engagement get the charge bonus?",
     "fixed: yes (reading A): in an engagement of several units going on from earlier turns "
     "(rounds_before), a unit charging fights the call's first round as the charge's, its "
     "charge bonus and first-round rules with it", "-", OM_WM_OPTION_FIXED, 0},
    {"mixed_cover", "A9", "Warmaster Revolution, Combat > Defended & Fortified Troops",
     "Mixed defended and open stands in combat",
     "fixed: one position per unit", "-", OM_WM_OPTION_FIXED, 0},
    {"retreat_divisor", "A10/D6",
     "Warmaster Revolution, Combat > Retreats; Warmaster 1.1 Rules Update, P145 (Appendix 1)",
     "Which units divide the retreat distance?",
     "fixed per rule set: all losing units (Revolution, Ancients), engaged ones (1.1)", "-",
     OM_WM_OPTION_FIXED, 0},
    {"both_destroyed", "A18", "Warmaster Revolution, Combat > Combat Results",
     "Both sides destroyed in the same round",
     "fixed: a draw", "-", OM_WM_OPTION_FIXED, 0},
    {"side_destroyed", "-", "Warmaster Revolution, Combat > Combat Results; Pursuit",
     "When does a side lose a round outright, whatever the results?",
     "fixed: only when every unit engaged on it is destroyed, supporting units included "
     "(\"all the units engaged on one side ... entirely destroyed\"); a fighting unit wiped "
     "out while other units support it leaves the results to decide, and those units, "
     "which a two-unit engagement does not model, fight no further", "-",
     OM_WM_OPTION_FIXED, 0},
    {"survivor_wins", "A19", "Warmaster Revolution, Combat > Combat Results",
     "One side destroyed although it scored more",
     "fixed: the survivor wins", "-", OM_WM_OPTION_FIXED, 0},
    {"drive_back_dice_confuse", "A24", "Warmaster Revolution, Shooting > Driving Back Enemies",
     "Which dice can confuse in a drive back?",
     "fixed: only the dice rolled after the defended/fortified discount", "-",
     OM_WM_OPTION_FIXED, 0},
    {"draw_fall_back", "A32", "Warmaster Revolution, Combat > Fall Backs",
     "Fallers still touching after a draw: fight on now or next turn?",
     "fixed: the engagement ends in a draw (fall-back geometry is not modelled)", "-",
     OM_WM_OPTION_FIXED, 0},
    {"support_timing", "A33/D5",
     "Warmaster Revolution, Combat > Supporting Troops; Warmaster 1.1 Rules Update, P145 "
     "(Appendix 1)",
     "Do supports count before or after casualties?",
     "fixed per rule set: before (Revolution, Ancients), after (1.1: a unit destroyed in the "
     "round has no support counted, its own or other units')", "-",
     OM_WM_OPTION_FIXED, 0},
    {"pursuit_target", "-", "Warmaster Revolution, Combat > Aftermath; Pursuit",
     "Several units: which retreating enemy does a winning unit pursue?",
     "fixed: the one its engagement names (pursues: a new enemy it did not fight, such as a "
     "supporting unit of the losers), else the first enemy it fought that can be pursued; "
     "units that only supported follow the friend they support (supporting pursuit) or "
     "stand", "-", OM_WM_OPTION_FIXED, 0},
    {"pursued_by_several", "-", "Warmaster Revolution, Combat > Pursuit",
     "Several units: whom does a unit pursued by several winners fight next?",
     "fixed: its first pursuer (in unit order), with all its fighting stands, frontally; the "
     "pursuers each fight the unit they pursued", "-", OM_WM_OPTION_FIXED, 0},
    {"stands_to_contacts", "-", "Warmaster Revolution, Combat > Attacks",
     "Several units: which enemy do a unit's stands fight once it has lost some?",
     "fixed: stands not fighting go first (Combat > How to Calculate Damage); the stands left "
     "fight its contacts in the order given, each up to its declared stands, the last taking "
     "the rest", "-",
     OM_WM_OPTION_FIXED, 0},
    {"rear_supports_between_units", "-", "Warmaster Ancients, Combat > Support; army lists",
     "Several units: which rear supports count between a phalanx, pikemen or skirmishers "
     "and another unit?",
     "fixed: none to a phalanx or to pikemen, none from skirmishers or from pikemen", "-",
     OM_WM_OPTION_FIXED, 0},
    {"maniple_attackers", "-", "Warmaster Ancients, Special Rules > Maniple",
     "Several units attack a maniple unit: how often are its maniple dice rolled?",
     "fixed: once a round, on the hits of all its attackers together", "-",
     OM_WM_OPTION_FIXED, 0},
    {"several_chargers_shot", "-", "Warmaster Revolution, Shooting > Shooting at Charging Enemy",
     "Several units charge one unit that stands and shoots: at which does it shoot?",
     "fixed: the first charging enemy it touches (its contacts first)", "-",
     OM_WM_OPTION_FIXED, 0},
    {"unit_special_targets", "-", "army lists; Warmaster Ancients, Special Rules",
     "Several units: at whom do a machine's bonus dice, a Bear's extra strike, Ashurbanipal's "
     "re-roll, a rampage and scythed chariots' confusion go?",
     "fixed: bonus dice, extra strike and re-roll with the unit's first blow; elephants "
     "rampage through every enemy unit they touch; scythed chariots confuse every unit of "
     "the other side that retreats after suffering a hit", "-", OM_WM_OPTION_FIXED, 0},
    {"pursuit_bonus_short", "A37",
     "Warmaster Revolution, Combat > Attack Modifiers > Pursuit attack per full 3cm",
     "Pursuit bonus when the enemy retreated under 3cm",
     "fixed: +1 + floor(cm/3)", "-", OM_WM_OPTION_FIXED, 0},
    {"supporter_retreat", "A38", "Warmaster Revolution, Combat > Retreats",
     "Retreat distance of supporting units",
     "fixed: the same as the unit they support", "-", OM_WM_OPTION_FIXED, 0},
    {"character_bonus_stand", "A39",
     "Warmaster Revolution, Combat > Attack Modifiers; Generals, Wizards & Heroes > Characters "
     "in Combat",
     "Which stand gets a character's bonus?",
     "fixed: the best stand (unflanked if any), before that stand's modifiers", "-",
     OM_WM_OPTION_FIXED, 0},
    {"shock_vs_defended", "WMA A24", "Warmaster Ancients, Special Rules > Shock",
     "Does long-based shock cavalry get its +1 against defended enemies?",
     "fixed: yes (only the ordinary charge bonus is denied)", "-", OM_WM_OPTION_FIXED, 0},
    {"maniple_same_unit", "WMA A9", "Warmaster Ancients, Special Rules > Maniple",
     "Do a maniple unit's own rear stands give maniple dice?",
     "fixed: no, only stands of another maniple unit (support_units > 0)", "-",
     OM_WM_OPTION_FIXED, 0},
    /* Army-list rules: the ambiguity ids are the readings of the research note
     * docs/research/rule_effects_fantasy.md (its section 6). */
    {"zero_attack_stands", "lists A-8", "army lists",
     "War Wagon, Screaming Bell, Pump Wagon: does a unit whose stands all have base "
     "Attacks 0 roll the last-ditch die?",
     "fixed: no", "-", OM_WM_OPTION_FIXED, 0},
    {"first_round_bonus", "lists A-12", "army lists",
     "Wild Riders, Winged Lancers, Zealots: is \"the first round of combat\" that of "
     "the engagement or of every turn?",
     "fixed: round 1 of the engagement only", "-", OM_WM_OPTION_FIXED, 0},
    {"dragon_fire", "lists A-14", "army lists",
     "Dragons, Chaos/Zombie/Forest Dragon: how does a rider's Dragon fire shoot?",
     "fixed: at the usual to-hit and save (no unit bonus), 20cm, at chargers too", "-",
     OM_WM_OPTION_FIXED, 0},
    {"djinn_range", "lists A-15", "army lists",
     "Djinn: the Djinn's range, which the list omits",
     "fixed: 30cm", "-", OM_WM_OPTION_FIXED, 0},
    {"stegadon_fear", "lists A-18", "army lists",
     "1.1 Stegadon: the 1.1 Stegadon \"causes fear\"",
     "fixed: terror", "-", OM_WM_OPTION_FIXED, 0},
    {"giant", "lists A-20", "army lists",
     "Giant: the Giant's rule has no text in the sources",
     "fixed: it fights by its stat line", "-", OM_WM_OPTION_FIXED, 0},
    {"trebuchet_drive_back", "lists A-21", "army lists",
     "Revolution Trebuchet: is a drive back of exactly 10cm ignored or destroying?",
     "fixed: ignored (more than 10cm destroys); never confused", "-", OM_WM_OPTION_FIXED, 0},
    {"warp_lightning", "lists A-22", "army lists",
     "Warp Lightning Cannon: double 1s; 1.1 casualties; 1.1 attacks on itself",
     "fixed: two or more 1s in one shooting; an unsaved hit; 4+ with no save", "-",
     OM_WM_OPTION_FIXED, 0},
    {"flame_cannon_reduced", "lists A-23", "army lists",
     "Flame Cannon: after misfire 3, can the 1D6 shots misfire again?", "fixed: no", "-",
     OM_WM_OPTION_FIXED, 0},
    {"rocket_whoosh", "lists A-24", "army lists",
     "Death Rocket, Rocket Launcher: what does a Whoosh do to the target?",
     "fixed: nothing (its D6 Attacks hit the unit beyond)", "-", OM_WM_OPTION_FIXED, 0},
    {"anvil_duration", "lists A-26", "army lists",
     "Anvil, Shrine: how long does a struck Anvil or Shrine last?",
     "fixed: the owner's Combat phase and the enemy's after it (aura: roll, a 4+ each "
     "own turn)", "-", OM_WM_OPTION_FIXED, 0},
    {"oathstone_hero", "lists A-27", "army lists",
     "Oathstone, Tomb King: does the Oathstone's Hero gain +1 too; how long do the "
     "powers last?",
     "fixed: yes; one Combat phase (power_turn)", "-", OM_WM_OPTION_FIXED, 0},
    {"zealot_enemies", "lists A-29", "army lists",
     "Zealots: who are Chaos and Undead to Zealots?",
     "fixed: the Chaos, Daemons, Beastmen, Chaos Dwarfs, Skaven, Tomb Kings and Vampire "
     "Counts lists", "-", OM_WM_OPTION_FIXED, 0},
    {"badly_hurt_engaged", "lists A-34", "army lists",
     "Dragons, Greater Daemon, Sphinx, Stegadon: can a 1.1 monster still engaged become "
     "badly hurt?",
     "fixed: yes in 1.1 (its lists say nothing of engagement), no in Revolution", "-",
     OM_WM_OPTION_FIXED, 0},
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
