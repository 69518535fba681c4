/*
 * battle_end.c: the rules that end and judge a Warmaster battle (battle.h):
 * the named methods of game length as data, the first-turn roll, the break
 * point in half units, and the verdict. Nothing here allocates, formats or
 * checks its inputs: a battle is checked when it is prepared, and these are
 * called from inside its trials.
 */
#include "battle.h"

#include <limits.h>
#include <string.h>

/* The D6 score from which a rolled length ends the battle (4+ in every source). */
#define ENDS_ON_FOUR_UP 4

/* The sources' methods, recommended first (Warmaster Revolution's own table).
 * A method with no die and no `last` is the fixed length given per battle. */
const om_wm_game_length om_wm_game_lengths[] = {
    {.name = "d6-6-7-8",
     .source = "Warmaster Revolution, End of the Battle > Turns Complete; Warmaster "
               "Ancients, The Battlefield > How Long Does the Battle Last?",
     .summary = "a D6 before the battle: 1-2 six turns, 3-4 seven, 5-6 eight",
     .by_d6 = {6, 6, 7, 7, 8, 8}},
    {.name = "rolled-from-6",
     .source = "Warmaster Revolution, End of the Battle > Turns Complete",
     .summary = "a D6 at the end of turns 6 and 7 ends it on 4+; it always ends after turn 8",
     .roll_from = 6, .ends_on = ENDS_ON_FOUR_UP, .last = 8},
    {.name = "d6-5-6-7",
     .source = "Battlefields, How long does the battle last?",
     .summary = "a D6 before the battle: 1-2 five turns, 3-4 six, 5-6 seven",
     .by_d6 = {5, 5, 6, 6, 7, 7}},
    {.name = "rolled-from-5",
     .source = "Battlefields, How long does the battle last?",
     .summary = "a D6 at the end of turns 5 to 7 ends it on 4+; it always ends after turn 8",
     .roll_from = 5, .ends_on = ENDS_ON_FOUR_UP, .last = 8},
    {.name = "fixed",
     .source = "Warmaster Revolution, End of the Battle > Turns Complete (agreed in advance)",
     .summary = "the number of turns agreed"},
};
const size_t om_wm_game_length_count = sizeof om_wm_game_lengths / sizeof om_wm_game_lengths[0];

const om_wm_game_length *om_wm_game_length_find(const char *name)
{
    for (size_t i = 0; i < om_wm_game_length_count; i++)
        if (strcmp(om_wm_game_lengths[i].name, name) == 0)
            return &om_wm_game_lengths[i];
    return NULL;
}

unsigned om_wm_game_length_start(const om_wm_game_length *g, unsigned fixed_turns, om_dice *d)
{
    if (g->by_d6[0] != 0)
        return g->by_d6[om_dice_roll_d6(d) - 1];
    return g->last != 0 ? g->last : fixed_turns;
}

bool om_wm_game_length_over(const om_wm_game_length *g, unsigned limit, unsigned turn, om_dice *d)
{
    if (turn >= limit)
        return true;
    return g->roll_from != 0 && turn >= g->roll_from && om_dice_roll_d6(d) >= g->ends_on;
}

unsigned om_wm_battle_first_side(om_wm_ruleset_id rules, om_dice *d)
{
    if (rules == OM_WM_RULES_WMA)
        return om_dice_roll_d6(d) >= 4 ? 1u : 0u;
    for (;;) {
        unsigned a = om_dice_roll_d6(d), b = om_dice_roll_d6(d);
        if (a != b)
            return a > b ? 0u : 1u;
    }
}

/* Whether a rule set counts a unit of 3 or more stands reduced to 1 as half a
 * unit lost toward the break point: Warmaster Revolution says so (Withdraw >
 * Casualties); the 1.1 Rules Update does not change the 1.0 rule it keeps;
 * Warmaster Ancients counts only destroyed units (End of the Battle). */
static bool counts_half_units(om_wm_ruleset_id rules)
{
    return rules != OM_WM_RULES_WMA;
}

/* The fewest stands a unit must have started with for its reduction to one
 * stand to count (victory points and, where counted, the break point). */
#define HALF_UNIT_FROM_STANDS 3

unsigned om_wm_break_loss_halves(om_wm_ruleset_id rules, unsigned start_stands,
                                 unsigned stands_now, bool double_loss, bool counts)
{
    if (!counts)
        return 0;
    if (stands_now == 0)
        return double_loss ? 4u : 2u;
    if (stands_now == 1 && start_stands >= HALF_UNIT_FROM_STANDS && counts_half_units(rules))
        return 1;
    return 0;
}

unsigned om_wm_break_point_halves(unsigned units, unsigned extra)
{
    if (units == 0)
        return UINT_MAX;
    return 2 * ((units + 1) / 2 + extra);
}

const char *const om_wm_victory_names[OM_WM_VICTORY_COUNT] = {
    [OM_WM_VICTORY_DRAW] = "draw",
    [OM_WM_VICTORY_POINTS] = "points",
    [OM_WM_VICTORY_MINOR] = "minor",
    [OM_WM_VICTORY_MAJOR] = "major",
    [OM_WM_VICTORY_MASSACRE] = "massacre",
};

const char *const om_wm_battle_end_names[OM_WM_END_COUNT] = {
    [OM_WM_END_LENGTH] = "length",
    [OM_WM_END_BREAK] = "break-point",
    [OM_WM_END_GENERAL] = "general-slain",
    [OM_WM_END_SCENARIO] = "scenario-points",
};

/* The level of a victory won by forcing the enemy to withdraw, from the
 * winner's own losses against its break point (Campaigns of Conquest > Earning
 * Empire Points: a major victory loses no more units than half of its break
 * point, a massacre no more than 25% of it). */
static om_wm_victory forced_level(const om_wm_battle_side *winner)
{
    uint64_t lost = winner->lost_halves, bp = winner->break_halves;
    if (4 * lost <= bp)
        return OM_WM_VICTORY_MASSACRE;
    if (2 * lost <= bp)
        return OM_WM_VICTORY_MAJOR;
    return OM_WM_VICTORY_MINOR;
}

om_wm_battle_verdict om_wm_battle_judge(const om_wm_battle_side side[2])
{
    om_wm_battle_verdict draw = {.winner = OM_WM_BATTLE_NO_WINNER, .level = OM_WM_VICTORY_DRAW};
    uint32_t a = side[0].vp_scored, b = side[1].vp_scored;

    if (side[0].withdrew && side[1].withdrew)
        return draw;
    for (unsigned s = 0; s < 2; s++) {
        if (!side[s].withdrew)
            continue;
        /* The withdrawing side's points count at most its enemy's. */
        uint32_t own = side[s].vp_scored, enemy = side[1 - s].vp_scored;
        if (own >= enemy)
            return draw;
        return (om_wm_battle_verdict){.winner = (uint8_t)(1 - s),
                                      .level = forced_level(&side[1 - s])};
    }
    if (a == b)
        return draw;
    return (om_wm_battle_verdict){.winner = a > b ? 0 : 1, .level = OM_WM_VICTORY_POINTS};
}
