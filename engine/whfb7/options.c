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
    {.name = "cc_hit_unclamped", .ambiguity = "A1",
     .section = "WHFB 7th edition, Close Combat > Hitting the Enemy",
     .question = "Do modifiers to close combat rolls to hit stop at 2+ and 6+ (\"normally\" a 6 "
                 "always hits and a 1 always misses)?",
     .default_value = "false: clamped to 2+..6+",
     .other_value = "true: a score past 6 cannot hit, one below 2 always hits",
     .offset = SWITCH(cc_hit_unclamped)},
    {.name = "wound_mod_unclamped", .ambiguity = "A2",
     .section = "WHFB 7th edition, Shooting > Rolling to Wound",
     .question = "Do modifiers to rolls to wound stop at 2+ and 6+?",
     .default_value = "false: clamped to 2+..6+, N stays N",
     .other_value = "true: a score past 6 cannot wound", .offset = SWITCH(wound_mod_unclamped)},
    {.name = "shield_with_two_handed", .ambiguity = "A4",
     .section = "WHFB 7th edition, Weapons > Requires Two Hands",
     .question = "Does a shield slung for a two-handed weapon still count in close combat?",
     .default_value = "false: not in close combat (it does against shooting and magic)",
     .other_value = "true: its +1 counts in close combat too",
     .offset = SWITCH(shield_with_two_handed)},
    {.name = "multiwound_no_pool", .ambiguity = "A5",
     .section = "WHFB 7th edition, Shooting > Multiple Wound Casualties",
     .question = "Are multiple wounds on a unit of multi-Wound models pooled?",
     .default_value = "false: each capped at the profile Wounds, then pooled (the Ogre example)",
     .other_value = "true: each capped at the wounded model's remaining Wounds, no pooling",
     .offset = SWITCH(multiwound_no_pool)},
    {.name = "killing_blow_one_wound", .ambiguity = "A26",
     .section = "WHFB 7th edition, Special Rules > Killing Blow",
     .question = "Does a killing blow slay a multi-Wound model outright?",
     .default_value = "false: the model is slain (all its remaining Wounds)",
     .other_value = "true: it is one wound that no armour or regeneration saves",
     .offset = SWITCH(killing_blow_one_wound)},
    {.name = "rank_width_after_blows", .ambiguity = "A24",
     .section = "WHFB 7th edition, Combat Result Bonuses > Extra Rank",
     .question = "Is the five-wide requirement of the rank bonus judged at the start of the turn "
                 "or after the blows?",
     .default_value = "false: at the start of the turn, like the ranks",
     .other_value = "true: after the blows", .offset = SWITCH(rank_width_after_blows)},
    {.name = "no_multiple_stand_and_shoot", .ambiguity = "A27",
     .section = "WHFB 7th edition, Weapons > Multiple Shots",
     .question = "May a unit fire its multiple shots as a stand & shoot?",
     .default_value = "false: yes, with both penalties (-1 stand & shoot, -1 multiple shots)",
     .other_value = "true: a stand & shoot fires a single shot",
     .offset = SWITCH(no_multiple_stand_and_shoot)},
    {.name = "no_move_or_fire_stand_and_shoot", .ambiguity = "A28",
     .section = "WHFB 7th edition, Weapons > Move-or-Fire",
     .question = "May move-or-fire weapons (crossbows, handguns) stand & shoot?",
     .default_value = "false: yes, the unit has not moved in the enemy's turn",
     .other_value = "true: no (the response fires nothing)",
     .offset = SWITCH(no_move_or_fire_stand_and_shoot)},
    {.name = "max_rounds", .ambiguity = "-",
     .section = "WHFB 7th edition, Close Combat > Redress the Ranks",
     .question = "How many rounds does an engagement last at most before it counts as unresolved?",
     .default_value = "0: 6 rounds (three game turns)", .other_value = "1..100 rounds",
     .offset = SWITCH(max_rounds), .max = OM_WH7_MAX_ROUNDS_LIMIT},
    /* Fixed readings of the digest's ambiguities. */
    {.name = "save_worse_than_6", .ambiguity = "A3",
     .section = "WHFB 7th edition, Shooting > Armour Save Modifiers",
     .question = "What is a save modified past 6+?",
     .default_value = "fixed: no save; a natural 1 always fails", .other_value = "-",
     .offset = OM_WH7_OPTION_FIXED},
    {.name = "strike_tiers", .ambiguity = "A6",
     .section = "WHFB 7th edition, Close Combat > Who Strikes First?",
     .question = "How do always strikes first, charging, Initiative and strikes last combine?",
     .default_value = "fixed: ASF, then chargers, then Initiative, then strikes last; ASF and "
                      "strikes last on one model cancel; ties go to the last turn's winner, else "
                      "one roll-off a round",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "stand_and_shoot_threshold", .ambiguity = "A7",
     .section = "WHFB 7th edition, Movement > Declaring Charge Responses",
     .question = "When may a unit stand and shoot?",
     .default_value = "fixed: geometry is not modelled: the scenario declares the response",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "caught_fleeing_a_charge", .ambiguity = "A8",
     .section = "WHFB 7th edition, Movement > Caught!",
     .question = "When is a unit fleeing a charge caught?",
     .default_value = "fixed: when the charge move (twice M) reaches gap + flee roll (one "
                      "dimension)",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "pursuit_catch", .ambiguity = "A9",
     .section = "WHFB 7th edition, Close Combat > Remove Fleeing Units Caught",
     .question = "When do pursuers catch?",
     .default_value = "fixed: pursuit roll >= flee roll, nothing else", .other_value = "-",
     .offset = OM_WH7_OPTION_FIXED},
    {.name = "panic_counts_models", .ambiguity = "A10",
     .section = "WHFB 7th edition, Psychology > Panic",
     .question = "Do 25% casualties count models or wounds?",
     .default_value = "fixed: models against those at the start of the phase", .other_value = "-",
     .offset = OM_WH7_OPTION_FIXED},
    {.name = "fear_auto_break_per_unit", .ambiguity = "A11",
     .section = "WHFB 7th edition, Psychology > Defeated by Fear-causing Enemy",
     .question = "Who auto-breaks against Fear-causers?",
     .default_value = "fixed: a unit neither immune nor causing Fear, outnumbered in unit "
                      "strength by a winner whose fighting models cause Fear",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "dispel_beats", .ambiguity = "A12",
     .section = "WHFB 7th edition, The Magic Phase > Dispelling",
     .question = "Does a dispel or a free miscast spell need to equal or beat the value?",
     .default_value = "fixed: equal or better (>=); remains-in-play dispels later are not modelled",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "runelord_dispel_dice", .ambiguity = "A13",
     .section = "WHFB 7th edition, The Magic Phase > Dispel Dice",
     .question = "Does a Runelord give +2 or +1 dispel dice?",
     .default_value = "fixed: dispel dice are the scenario's count; +2 for level 3-4 wizards and "
                      "Runelords is the rule to count them by",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "miscast_twelve", .ambiguity = "A14",
     .section = "WHFB 7th edition, The Magic Phase > Miscast Table",
     .question = "What does a miscast total of 12 do?",
     .default_value = "fixed: the spell is cast with irresistible force (forgotten afterwards)",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "illegible_casting_values", .ambiguity = "A15",
     .section = "WHFB 7th edition, The Lores of Magic",
     .question = "Lore of Metal 1 and Lore of Light 6 have no legible casting value.",
     .default_value = "fixed: their casting value must be given by the scenario (0 in the spell "
                      "table)",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "comet_persists", .ambiguity = "A16",
     .section = "WHFB 7th edition, Lore of Heavens > The Comet of Casandora",
     .question = "Does the Comet end after it strikes?",
     .default_value = "fixed: not modelled (it strikes over several turns)", .other_value = "-",
     .offset = OM_WH7_OPTION_FIXED},
    {.name = "conflagration_loop", .ambiguity = "A17",
     .section = "WHFB 7th edition, Lore of Fire > Conflagration of Doom",
     .question = "Which die is added to the hits?",
     .default_value = "fixed: the caster's winning die, rolling again while the caster's roll is "
                      "higher",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "hatred_first_round", .ambiguity = "A18",
     .section = "WHFB 7th edition, Psychology > Hatred",
     .question = "Which is the first turn of a combat for Hatred?",
     .default_value = "fixed: the first round this unit fights this enemy", .other_value = "-",
     .offset = OM_WH7_OPTION_FIXED},
    {.name = "flaming_multiple_order", .ambiguity = "A19",
     .section = "WHFB 7th edition, Special Rules > Flammable",
     .question = "In which order do multiple wounds, Flammable doubling and the cap apply?",
     .default_value = "fixed: the multiplier, then doubling, then the cap at the Wounds",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "scatter_direction", .ambiguity = "A20",
     .section = "WHFB 7th edition, Dice > Artillery Dice & Scatter Dice",
     .question = "Which direction does a scatter arrow point?",
     .default_value = "fixed: a uniform angle", .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "army_specific_machines", .ambiguity = "A21",
     .section = "WHFB 7th edition, War Machines > Other War Machines",
     .question = "Fire throwers and army-specific machines.",
     .default_value = "fixed: not modelled", .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "chariot_upgrades", .ambiguity = "A22",
     .section = "WHFB 7th edition, Chariots > Chariot Upgrades",
     .question = "Names of the chariot upgrades.",
     .default_value = "fixed: chariots are not modelled", .other_value = "-",
     .offset = OM_WH7_OPTION_FIXED},
    {.name = "profile_conflicts", .ambiguity = "A23", .section = "WHFB 7th edition, Appendix",
     .question = "Profiles printed twice with different values.",
     .default_value = "fixed: the appendix row (both rows are in profiles.yaml)",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "result_timing", .ambiguity = "A25",
     .section = "WHFB 7th edition, Combat Result Bonuses",
     .question = "When are ranks, outnumbering and flank unit strength counted?",
     .default_value = "fixed: ranks at the start of the turn, the rest after the blows",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "insane_courage_scope", .ambiguity = "A29",
     .section = "WHFB 7th edition, Close Combat > Insane Courage!",
     .question = "Does a double 1 pass other Leadership tests?",
     .default_value = "fixed: break tests only; other tests pass on 2D6 <= Ld", .other_value = "-",
     .offset = OM_WH7_OPTION_FIXED},
    {.name = "panic_destroyed_fleeing", .ambiguity = "A30",
     .section = "WHFB 7th edition, Psychology > Panic",
     .question = "Does a unit destroyed fleeing make friends test?",
     .default_value = "fixed: yes, as any unit destroyed", .other_value = "-",
     .offset = OM_WH7_OPTION_FIXED},
    {.name = "initiative_test", .ambiguity = "A31",
     .section = "WHFB 7th edition, Characteristic Tests", .question = "Initiative tests.",
     .default_value = "fixed: D6 <= I, a 6 always fails", .other_value = "-",
     .offset = OM_WH7_OPTION_FIXED},
    {.name = "shots_on_characters", .ambiguity = "A32",
     .section = "WHFB 7th edition, Characters > Characters Inside Units",
     .question = "How are shooting hits shared when a unit has fewer than five rank and file?",
     .default_value = "fixed: as E31: evenly over every model, characters included, the "
                      "remainder each to a random model; poisoned hits are shared separately; "
                      "with five or more rank and file all hits strike them",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "great_cannon_damage", .ambiguity = "A33",
     .section = "WHFB 7th edition, War Machines > Cannons", .question = "Cannon D3 or D6 wounds?",
     .default_value = "fixed: the Cannon D3, the Great Cannon D6", .other_value = "-",
     .offset = OM_WH7_OPTION_FIXED},
    /* Fixed readings of the abstraction (README.md). */
    {.name = "contact_default", .ambiguity = "R1",
     .section = "WHFB 7th edition, Close Combat > Which Models Fight?",
     .question = "How many models touch the enemy when the scenario does not say?",
     .default_value = "fixed: min(its width on the touched face, the enemy's front width + 2): "
                      "equal bases, one more model at each corner",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "blows_at_characters", .ambiguity = "R2",
     .section = "WHFB 7th edition, Characters > Close Combat",
     .question = "Whom do the enemy's blows strike?",
     .default_value = "fixed: the rank and file while any are left, a challenged character in a "
                      "challenge, else the champion and characters",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "characters_in_front", .ambiguity = "R3",
     .section = "WHFB 7th edition, Command Groups > Position Within Unit",
     .question = "Who is in contact?",
     .default_value = "fixed: characters and the champion take the first places in contact to "
                      "the front; to a flank or the rear only rank and file fight",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "blows_at_riders", .ambiguity = "R4",
     .section = "WHFB 7th edition, Monsters > Monstrous Mounts in Combat",
     .question = "Are mounts ever struck?",
     .default_value = "fixed: no, blows at a mounted model strike the rider (the rulebook's "
                      "default)",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "command_removed_last", .ambiguity = "R5",
     .section = "WHFB 7th edition, Command Groups",
     .question = "When are the standard bearer and musician lost?",
     .default_value = "fixed: last: the standard while any rank and file stand, the musician "
                      "while enough stand to hold both",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "undead_crumble", .ambiguity = "R6",
     .section = "WHFB 7th edition, Psychology > Unbreakable Swarms; army books",
     .question = "What does Undead do (an army-book rule)?",
     .default_value = "fixed: immune to psychology, no break test, a defeat costs wounds with no "
                      "save equal to the margin, as swarms",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "ethereal", .ambiguity = "R7", .section = "army books",
     .question = "What does Ethereal do (an army-book rule)?",
     .default_value = "fixed: only magical attacks harm it", .other_value = "-",
     .offset = OM_WH7_OPTION_FIXED},
    {.name = "magic_weapon_parry", .ambiguity = "R8",
     .section = "WHFB 7th edition, Magic Items > Magic Weapons",
     .question = "Does a magic weapon parry with a shield?",
     .default_value = "fixed: yes, it is used as a hand weapon", .other_value = "-",
     .offset = OM_WH7_OPTION_FIXED},
    {.name = "fleeing_geometry", .ambiguity = "R9",
     .section = "WHFB 7th edition, Close Combat > Move Surviving Fleeing Troops",
     .question = "What destroys a fleeing unit besides pursuers?",
     .default_value = "fixed: a flight reaching the declared flee_blocked_in distance",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
    {.name = "victory_points_per_side", .ambiguity = "R10", .section = "WHFB 7th edition, Victory!",
     .question = "How many victory points does a side lose: a unit with characters joined (who "
                 "count as separate units in a battle)?",
     .default_value = "fixed: the side scores as one unit worth its points with its characters': "
                      "destroyed or fleeing at the end, all of them; at half strength or less "
                      "(half its starting models, characters counted; a lone model half its "
                      "Wounds), half rounded up; else none; without points 100 "
                      "(scenarios/whfb7/wh7_game.c)",
     .other_value = "-", .offset = OM_WH7_OPTION_FIXED},
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
