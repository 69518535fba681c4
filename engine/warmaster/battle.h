/*
 * battle.h: how a Warmaster battle ends and who won it, for the three rule
 * sets: the length of the game (fixed, a D6 rolled before the battle, or dice
 * rolled during play, as each source gives it), who takes the first turn, the
 * break point at which an army withdraws, and the verdict (winner and level of
 * victory) from the victory points each side scored and which armies
 * withdrew. Victory points of one unit are om_wm_victory_points (wm.h).
 *
 * These are the rules a battle is judged by, pure functions over small
 * structs, exact and separately tested; the battle itself (deployment, both
 * sides' turns) plays its turns with the whole-turn engine (turn.h) and asks
 * these functions when to stop. Sections cited are Warmaster Revolution's
 * (End of the Battle) unless another rulebook is named.
 */
#ifndef OM_WM_BATTLE_H
#define OM_WM_BATTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dice.h"
#include "wm.h"

/* ------------------------------------------------------------ game length */

/*
 * A way to decide how long a battle lasts, in battle turns (both sides have
 * taken a turn). The sources disagree (Warmaster Revolution, End of the Battle
 * > Turns Complete, and How Long Does the Battle Last?; Battlefields, How long
 * does the battle last?; Warmaster Ancients, The Battlefield), so each is a
 * named method:
 *   - `by_d6` nonzero: a D6 rolled before the battle gives the turns
 *     (by_d6[score - 1]);
 *   - `roll_from` nonzero: a D6 is rolled at the end of every battle turn from
 *     `roll_from` on and the battle ends on `ends_on` or more;
 *   - `last`: the battle always ends after this turn (with neither of the
 *     above: a fixed length, given per battle when `last` is 0).
 */
typedef struct om_wm_game_length {
    const char *name;    /* the method's name in files and options */
    const char *source;  /* rulebook and section */
    const char *summary; /* one phrase for listings */
    uint8_t by_d6[6];    /* turns for a D6 of 1..6 rolled before the battle, or all 0 */
    uint8_t roll_from;   /* first battle turn at whose end a die may end it, or 0 */
    uint8_t ends_on;     /* the score that ends it, with roll_from */
    uint8_t last;        /* the battle always ends after this turn (0: the fixed length given) */
} om_wm_game_length;

/* The methods, and how many; the first is the recommended one. */
extern const om_wm_game_length om_wm_game_lengths[];
extern const size_t om_wm_game_length_count;

/* The method named `name`, or NULL (the caller suggests a near name from
 * om_wm_game_lengths). */
const om_wm_game_length *om_wm_game_length_find(const char *name);

/*
 * om_wm_game_length_start: the battle turns after which the battle ends at the
 * latest, decided before it starts: the D6 of a `by_d6` method (one die from
 * d), `last` of a rolled one, `fixed_turns` (1..255, checked by the caller)
 * of a fixed one. Pure but for the dice.
 */
unsigned om_wm_game_length_start(const om_wm_game_length *g, unsigned fixed_turns, om_dice *d);

/*
 * om_wm_game_length_over: whether the battle ends after battle turn `turn`
 * (1-based, both sides have played it), given `limit` from
 * om_wm_game_length_start: always at the limit; before it, for a rolled
 * method from `roll_from` on, when one D6 from d scores `ends_on` or more (no
 * die is rolled otherwise).
 */
bool om_wm_game_length_over(const om_wm_game_length *g, unsigned limit, unsigned turn, om_dice *d);

/* ------------------------------------------------------------ first turn */

/*
 * om_wm_battle_first_side: which side (0: A, 1: B) takes the first turn. Each
 * rolls a D6 and the higher goes first, ties rolled again (Warmaster
 * Revolution, Game Sequence; the same in 1.1), or one D6 of 1-3 gives side A
 * and 4-6 side B (Warmaster Ancients, The First Turn). Either way
 * each side has one chance in two; the dice drawn differ.
 */
unsigned om_wm_battle_first_side(om_wm_ruleset_id rules, om_dice *d);

/* ------------------------------------------------------------ break point */

/*
 * What a unit counts toward its army's break point, in half units, from the
 * stands it started the battle with and has now (0: destroyed): a destroyed
 * unit 2 (4 with `double_loss`: Warmaster Ancients, Army Lists > Romans,
 * Triarii), a unit of 3 or more stands reduced to 1 a half unit (1) where the
 * rule set counts half units (Withdraw > Casualties: "units reduced from 3
 * stands to 1 count as half a unit lost"; ambiguity A16, reading B: a 4-stand
 * unit too, as the victory points rule says "three or four"; not in Warmaster
 * Ancients, whose break point counts whole units), otherwise 0. A unit that
 * does not count toward the break point (`counts` false: Warmaster Ancients'
 * skirmishers without Armour, End of the Battle) adds 0. Characters are never
 * units here.
 */
unsigned om_wm_break_loss_halves(om_wm_ruleset_id rules, unsigned start_stands,
                                 unsigned stands_now, bool double_loss, bool counts);

/*
 * om_wm_break_point_halves: the losses, in half units, at which an army of
 * `units` units that count toward the break point must withdraw: half of them
 * rounded up (Withdraw > Casualties: 15 units break at 8 lost, 14 at 7; W24;
 * Warmaster Ancients, End of the Battle: "half or more", the same for whole
 * units), plus `extra` units (Warmaster Ancients, Successors: Pyrrhus, one more).
 * An army with no unit that counts has no break point: UINT_MAX.
 */
unsigned om_wm_break_point_halves(unsigned units, unsigned extra);

/* ------------------------------------------------------------ verdict */

/* How decisive a battle was for its winner (Warmaster Revolution, Campaigns of
 * Conquest > Earning Empire Points, whose five results are the only levels the
 * sources define for a battle fought for victory points). */
typedef enum om_wm_victory {
    OM_WM_VICTORY_DRAW = 0, /* equal victory points, or a withdrawing army's
                               points at least its enemy's, or both withdrew */
    OM_WM_VICTORY_POINTS,   /* more victory points, no army withdrew (the
                               campaign scores it as a draw) */
    OM_WM_VICTORY_MINOR,    /* forced the enemy to withdraw, and more points */
    OM_WM_VICTORY_MAJOR,    /* ... losing no more than half its own break point */
    OM_WM_VICTORY_MASSACRE, /* ... losing no more than a quarter of it */
    OM_WM_VICTORY_COUNT
} om_wm_victory;

/* Names of the levels ("draw", "points", "minor", "major", "massacre"). */
extern const char *const om_wm_victory_names[OM_WM_VICTORY_COUNT];

/* Each side at the end of a battle. */
typedef struct om_wm_battle_side {
    uint32_t vp_scored;   /* victory points scored off the enemy */
    uint32_t lost_halves; /* its losses toward its break point (om_wm_break_loss_halves) */
    uint32_t break_halves;/* its break point (om_wm_break_point_halves) */
    bool withdrew;        /* it withdrew: break point reached, General slain or gone */
} om_wm_battle_side;

/* The verdict: the winner (0: A, 1: B, 2: none) and the level. */
typedef struct om_wm_battle_verdict {
    uint8_t winner;
    om_wm_victory level;
} om_wm_battle_verdict;

/* The side index meaning "no winner". */
#define OM_WM_BATTLE_NO_WINNER 2u

/*
 * om_wm_battle_judge: the verdict of a battle from its two sides (End of the
 * Battle > Victory Points: the most victory points wins; Withdraw: a
 * withdrawing army cannot score more than its enemy, so at best draws; both
 * withdrawing in the same phase is a draw, as Warmaster Ancients says; the
 * level as Campaigns of Conquest gives it, see om_wm_victory).
 */
om_wm_battle_verdict om_wm_battle_judge(const om_wm_battle_side side[2]);

#endif /* OM_WM_BATTLE_H */
