/*
 * options.c: the readings of ambiguous WHFB 7th edition rules, as named
 * options (the ambiguities A1-A33 of the WHFB7 mechanics digest), plus the
 * fixed readings the engine's abstraction makes (R-ids). Switchable readings
 * are fields of om_wh7_options whose zero value is the digest's recommended
 * default; the others are listed so that every choice is visible in
 * `oddsmaster list --options` and recorded with every run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wh7_int.h"

/* Longest engagement a scenario may ask for (outcome counters are uint8). */

#define SWITCH(field) offsetof(om_wh7_options, field)

/* Switches first, in om_wh7_options order; then fixed readings. */
static const om_wh7_option om_wh7_option_table[] = {
    {"cc_hit_unclamped", "A1", "WHFB 7th edition, Close Combat > Hitting the Enemy",
     "Do modifiers to close combat rolls to hit stop at 2+ and 6+ (\"normally\" a 6 always "
     "hits and a 1 always misses)?",
     "false: clamped to 2+..6+", "true: a score past 6 cannot hit, one below 2 always hits",
     SWITCH(cc_hit_unclamped), 0},
    {"wound_mod_unclamped", "A2", "WHFB 7th edition, Shooting > Rolling to Wound",
     "Do modifiers to rolls to wound stop at 2+ and 6+?",
     "false: clamped to 2+..6+, N stays N", "true: a score past 6 cannot wound",
     SWITCH(wound_mod_unclamped), 0},
    {"shield_with_two_handed", "A4", "WHFB 7th edition, Weapons > Requires Two Hands",
     "Does a shield slung for a two-handed weapon still count in close combat?",
     "false: not in close combat (it does against shooting and magic)",
     "true: its +1 counts in close combat too", SWITCH(shield_with_two_handed), 0},
    {"multiwound_no_pool", "A5", "WHFB 7th edition, Shooting > Multiple Wound Casualties",
     "Are multiple wounds on a unit of multi-Wound models pooled?",
     "false: each capped at the profile Wounds, then pooled (the Ogre example)",
     "true: each capped at the wounded model's remaining Wounds, no pooling",
     SWITCH(multiwound_no_pool), 0},
    {"killing_blow_one_wound", "A26", "WHFB 7th edition, Special Rules > Killing Blow",
     "Does a killing blow slay a multi-Wound model outright?",
     "false: the model is slain (all its remaining Wounds)",
     "true: it is one wound that no armour or regeneration saves", SWITCH(killing_blow_one_wound), 0},
    {"rank_width_after_blows", "A24", "WHFB 7th edition, Combat Result Bonuses > Extra Rank",
     "Is the five-wide requirement of the rank bonus judged at the start of the turn or "
     "after the blows?",
     "false: at the start of the turn, like the ranks", "true: after the blows",
     SWITCH(rank_width_after_blows), 0},
    {"no_multiple_stand_and_shoot", "A27", "WHFB 7th edition, Weapons > Multiple Shots",
     "May a unit fire its multiple shots as a stand & shoot?",
     "false: yes, with both penalties (-1 stand & shoot, -1 multiple shots)",
     "true: a stand & shoot fires a single shot", SWITCH(no_multiple_stand_and_shoot), 0},
    {"no_move_or_fire_stand_and_shoot", "A28", "WHFB 7th edition, Weapons > Move-or-Fire",
     "May move-or-fire weapons (crossbows, handguns) stand & shoot?",
     "false: yes, the unit has not moved in the enemy's turn",
     "true: no (the response fires nothing)", SWITCH(no_move_or_fire_stand_and_shoot), 0},
    {"max_rounds", "-", "WHFB 7th edition, Close Combat > Redress the Ranks",
     "How many rounds does an engagement last at most before it counts as unresolved?",
     "0: 6 rounds (three game turns)", "1..100 rounds", SWITCH(max_rounds), OM_WH7_MAX_ROUNDS_LIMIT},
    /* Fixed readings of the digest's ambiguities. */
    {"save_worse_than_6", "A3", "WHFB 7th edition, Shooting > Armour Save Modifiers",
     "What is a save modified past 6+?", "fixed: no save; a natural 1 always fails", "-",
     OM_WH7_OPTION_FIXED, 0},
    {"strike_tiers", "A6", "WHFB 7th edition, Close Combat > Who Strikes First?",
     "How do always strikes first, charging, Initiative and strikes last combine?",
     "fixed: ASF, then chargers, then Initiative, then strikes last; ASF and strikes last "
     "on one model cancel; ties go to the last turn's winner, else one roll-off a round",
     "-", OM_WH7_OPTION_FIXED, 0},
    {"stand_and_shoot_threshold", "A7", "WHFB 7th edition, Movement > Declaring Charge Responses",
     "When may a unit stand and shoot?",
     "fixed: geometry is not modelled: the scenario declares the response", "-",
     OM_WH7_OPTION_FIXED, 0},
    {"caught_fleeing_a_charge", "A8", "WHFB 7th edition, Movement > Caught!",
     "When is a unit fleeing a charge caught?",
     "fixed: when the charge move (twice M) reaches gap + flee roll (one dimension)", "-",
     OM_WH7_OPTION_FIXED, 0},
    {"pursuit_catch", "A9", "WHFB 7th edition, Close Combat > Remove Fleeing Units Caught",
     "When do pursuers catch?", "fixed: pursuit roll >= flee roll, nothing else", "-",
     OM_WH7_OPTION_FIXED, 0},
    {"panic_counts_models", "A10", "WHFB 7th edition, Psychology > Panic",
     "Do 25% casualties count models or wounds?",
     "fixed: models against those at the start of the phase", "-", OM_WH7_OPTION_FIXED, 0},
    {"fear_auto_break_per_unit", "A11", "WHFB 7th edition, Psychology > Defeated by Fear-causing Enemy",
     "Who auto-breaks against Fear-causers?",
     "fixed: a unit neither immune nor causing Fear, outnumbered in unit strength by a "
     "winner whose fighting models cause Fear", "-", OM_WH7_OPTION_FIXED, 0},
    {"dispel_beats", "A12", "WHFB 7th edition, The Magic Phase > Dispelling",
     "Does a dispel or a free miscast spell need to equal or beat the value?",
     "fixed: equal or better (>=); remains-in-play dispels later are not modelled", "-",
     OM_WH7_OPTION_FIXED, 0},
    {"runelord_dispel_dice", "A13", "WHFB 7th edition, The Magic Phase > Dispel Dice",
     "Does a Runelord give +2 or +1 dispel dice?",
     "fixed: dispel dice are the scenario's count; +2 for level 3-4 wizards and Runelords "
     "is the rule to count them by", "-", OM_WH7_OPTION_FIXED, 0},
    {"miscast_twelve", "A14", "WHFB 7th edition, The Magic Phase > Miscast Table",
     "What does a miscast total of 12 do?",
     "fixed: the spell is cast with irresistible force (forgotten afterwards)", "-",
     OM_WH7_OPTION_FIXED, 0},
    {"illegible_casting_values", "A15", "WHFB 7th edition, The Lores of Magic",
     "Lore of Metal 1 and Lore of Light 6 have no legible casting value.",
     "fixed: their casting value must be given by the scenario (0 in the spell table)", "-",
     OM_WH7_OPTION_FIXED, 0},
    {"comet_persists", "A16", "WHFB 7th edition, Lore of Heavens > The Comet of Casandora",
     "Does the Comet end after it strikes?",
     "fixed: not modelled (it strikes over several turns)", "-", OM_WH7_OPTION_FIXED, 0},
    {"conflagration_loop", "A17", "WHFB 7th edition, Lore of Fire > Conflagration of Doom",
     "Which die is added to the hits?",
     "fixed: the caster's winning die, rolling again while the caster's roll is higher", "-",
     OM_WH7_OPTION_FIXED, 0},
    {"hatred_first_round", "A18", "WHFB 7th edition, Psychology > Hatred",
     "Which is the first turn of a combat for Hatred?",
     "fixed: the first round this unit fights this enemy", "-", OM_WH7_OPTION_FIXED, 0},
    {"flaming_multiple_order", "A19", "WHFB 7th edition, Special Rules > Flammable",
     "In which order do multiple wounds, Flammable doubling and the cap apply?",
     "fixed: the multiplier, then doubling, then the cap at the Wounds", "-",
     OM_WH7_OPTION_FIXED, 0},
    {"scatter_direction", "A20", "WHFB 7th edition, Dice > Artillery Dice & Scatter Dice",
     "Which direction does a scatter arrow point?", "fixed: a uniform angle", "-",
     OM_WH7_OPTION_FIXED, 0},
    {"army_specific_machines", "A21", "WHFB 7th edition, War Machines > Other War Machines",
     "Fire throwers and army-specific machines.", "fixed: not modelled", "-",
     OM_WH7_OPTION_FIXED, 0},
    {"chariot_upgrades", "A22", "WHFB 7th edition, Chariots > Chariot Upgrades",
     "Names of the chariot upgrades.", "fixed: chariots are not modelled", "-",
     OM_WH7_OPTION_FIXED, 0},
    {"profile_conflicts", "A23", "WHFB 7th edition, Appendix",
     "Profiles printed twice with different values.",
     "fixed: the appendix row (both rows are in profiles.yaml)", "-", OM_WH7_OPTION_FIXED, 0},
    {"result_timing", "A25", "WHFB 7th edition, Combat Result Bonuses",
     "When are ranks, outnumbering and flank unit strength counted?",
     "fixed: ranks at the start of the turn, the rest after the blows", "-",
     OM_WH7_OPTION_FIXED, 0},
    {"insane_courage_scope", "A29", "WHFB 7th edition, Close Combat > Insane Courage!",
     "Does a double 1 pass other Leadership tests?",
     "fixed: break tests only; other tests pass on 2D6 <= Ld", "-", OM_WH7_OPTION_FIXED, 0},
    {"panic_destroyed_fleeing", "A30", "WHFB 7th edition, Psychology > Panic",
     "Does a unit destroyed fleeing make friends test?",
     "fixed: yes, as any unit destroyed", "-", OM_WH7_OPTION_FIXED, 0},
    {"initiative_test", "A31", "WHFB 7th edition, Characteristic Tests",
     "Initiative tests.", "fixed: D6 <= I, a 6 always fails", "-", OM_WH7_OPTION_FIXED, 0},
    {"shots_on_characters", "A32", "WHFB 7th edition, Characters > Characters Inside Units",
     "How are shooting hits shared when a unit has fewer than five rank and file?",
     "fixed: as E31: evenly over every model, characters included, the remainder each to a "
     "random model; poisoned hits are shared separately; with five or more rank and file "
     "all hits strike them", "-", OM_WH7_OPTION_FIXED, 0},
    {"great_cannon_damage", "A33", "WHFB 7th edition, War Machines > Cannons",
     "Cannon D3 or D6 wounds?", "fixed: the Cannon D3, the Great Cannon D6", "-",
     OM_WH7_OPTION_FIXED, 0},
    /* Fixed readings of the abstraction (README.md). */
    {"contact_default", "R1", "WHFB 7th edition, Close Combat > Which Models Fight?",
     "How many models touch the enemy when the scenario does not say?",
     "fixed: min(its width on the touched face, the enemy's front width + 2): equal bases, "
     "one more model at each corner", "-", OM_WH7_OPTION_FIXED, 0},
    {"blows_at_characters", "R2", "WHFB 7th edition, Characters > Close Combat",
     "Whom do the enemy's blows strike?",
     "fixed: the rank and file while any are left, a challenged character in a challenge, "
     "else the champion and characters", "-", OM_WH7_OPTION_FIXED, 0},
    {"characters_in_front", "R3", "WHFB 7th edition, Command Groups > Position Within Unit",
     "Who is in contact?",
     "fixed: characters and the champion take the first places in contact to the front; "
     "to a flank or the rear only rank and file fight", "-", OM_WH7_OPTION_FIXED, 0},
    {"blows_at_riders", "R4", "WHFB 7th edition, Monsters > Monstrous Mounts in Combat",
     "Are mounts ever struck?",
     "fixed: no, blows at a mounted model strike the rider (the rulebook's default)", "-",
     OM_WH7_OPTION_FIXED, 0},
    {"command_removed_last", "R5", "WHFB 7th edition, Command Groups",
     "When are the standard bearer and musician lost?",
     "fixed: last: the standard while any rank and file stand, the musician while enough "
     "stand to hold both", "-", OM_WH7_OPTION_FIXED, 0},
    {"undead_crumble", "R6", "WHFB 7th edition, Psychology > Unbreakable Swarms; army books",
     "What does Undead do (an army-book rule)?",
     "fixed: immune to psychology, no break test, a defeat costs wounds with no save equal "
     "to the margin, as swarms", "-", OM_WH7_OPTION_FIXED, 0},
    {"ethereal", "R7", "army books", "What does Ethereal do (an army-book rule)?",
     "fixed: only magical attacks harm it", "-", OM_WH7_OPTION_FIXED, 0},
    {"magic_weapon_parry", "R8", "WHFB 7th edition, Magic Items > Magic Weapons",
     "Does a magic weapon parry with a shield?",
     "fixed: yes, it is used as a hand weapon", "-", OM_WH7_OPTION_FIXED, 0},
    {"fleeing_geometry", "R9", "WHFB 7th edition, Close Combat > Move Surviving Fleeing Troops",
     "What destroys a fleeing unit besides pursuers?",
     "fixed: a flight reaching the declared flee_blocked_in distance", "-",
     OM_WH7_OPTION_FIXED, 0},
    {"victory_points_per_side", "R10", "WHFB 7th edition, Victory!",
     "How many victory points does a side lose: a unit with characters joined (who count "
     "as separate units in a battle)?",
     "fixed: the side scores as one unit worth its points with its characters': destroyed "
     "or fleeing at the end, all of them; at half strength or less (half its starting "
     "models, characters counted; a lone model half its Wounds), half rounded up; else "
     "none; without points 100 (scenarios/whfb7/wh7_game.c)", "-", OM_WH7_OPTION_FIXED, 0},
};

const om_option_table om_wh7_option_registry = {
    "Warhammer Fantasy Battles 7th edition", om_wh7_option_table,
    sizeof om_wh7_option_table / sizeof om_wh7_option_table[0]};

size_t om_wh7_option_count(void) { return om_wh7_option_registry.count; }

const om_wh7_option *om_wh7_option_at(size_t i)
{
    return i < om_wh7_option_registry.count ? &om_wh7_option_table[i] : NULL;
}

const om_wh7_option *om_wh7_option_find(const char *name)
{
    return om_option_find(&om_wh7_option_registry, name);
}

om_status om_wh7_option_set(om_wh7_options *o, const char *name, const char *value)
{
    return om_option_set(&om_wh7_option_registry, o, name, value);
}

const char *om_wh7_option_value(const om_wh7_options *o, const om_wh7_option *opt, char *buf,
                                size_t size)
{
    return om_option_value(opt, o, buf, size);
}
