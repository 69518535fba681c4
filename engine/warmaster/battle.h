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

#include "battlefield.h"
#include "command.h"
#include "dice.h"
#include "doctrine.h"
#include "objective.h"
#include "table.h"
#include "turn.h"
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

/* ------------------------------------------------------------ deployment */

/*
 * om_wm_deploy_zone_cm: the depth of each side's deployment zone on table `t`
 * under rule set `rules`: from its own table edge to its front, half the rule
 * set's gap between the armies (om_wm_ruleset.deploy_apart_cm: 80cm in
 * Warmaster, 90cm in Warmaster Ancients) short of the middle. 20cm on a
 * 120cm-deep Warmaster table, 15cm on Ancients' (WE-33). Pure.
 */
double om_wm_deploy_zone_cm(const om_wm_table *t, om_wm_ruleset_id rules);

/* Gaps of a line of battle: between neighbouring units, and between a line and
 * the one behind it (room for a second line to support the first, Combat >
 * Supporting Troops, without touching it). */
#define OM_WM_DEPLOY_GAP_CM 2.0
#define OM_WM_DEPLOY_LINE_GAP_CM 4.0

/*
 * om_wm_battle_deploy_line: deploy `n` units of side `side` (values[i], each
 * at the strength it starts with) on the table of turn `t` as a line of
 * battle, the first as the side sees it on the left: each unit in line
 * formation facing the enemy's edge, a line centred across the table, its
 * front edge at the depth of its zone (om_wm_deploy_zone_cm) from its own
 * edge; a unit that would pass the table's side edge starts a new line behind. With `brigade`
 * of 2 to 4, neighbours of one line stand side by side in brigades of up to
 * that many touching units (Command > Brigades), declared on the table,
 * brigades OM_WM_DEPLOY_GAP_CM apart; with 0 or 1 every
 * unit stands alone, OM_WM_DEPLOY_GAP_CM from the next. The units are appended to the table and to t->unit with
 * `side` and values set (shooting closest, standing and shooting), their
 * table indices from *first on. Errors (OM_EINVAL, `why` filled with the
 * field "SIDE.units[i]"): the table is full of units or of brigades
 * (OM_WM_TABLE_MAX_BRIGADES, both armies' together), or a line would stand
 * behind the side's own table edge (the army does not fit its deployment zone).
 */
om_status om_wm_battle_deploy_line(om_wm_turn *t, unsigned side, const om_wm_unit *values,
                                   unsigned n, unsigned brigade, om_wm_check_failure *why,
                                   unsigned *first);

/* How the armies are set up (Battlefields, Setting up armies; Warmaster
 * Revolution, Optional Rules > Scouting; Warmaster Ancients, The Battlefield
 * > Deployment and Alternative Deployments). */
typedef enum om_wm_deployment {
    OM_WM_DEPLOY_LINES = 0,      /* each army in its list's order, neither seeing
                                    the other (as with maps or screens) */
    OM_WM_DEPLOY_ALTERNATE,      /* one unit at a time, sides alternating, the
                                    side with more units first (ties: a D6) */
    OM_WM_DEPLOY_ONE_SIDE_FIRST, /* one whole army, then the other */
    OM_WM_DEPLOY_SCOUTING,       /* the scouting roll's winner places its scouts,
                                    the loser its army, the winner the rest */
    OM_WM_DEPLOY_COUNT
} om_wm_deployment;

/* Names of the methods in files ("lines", "alternate", "one-side-first",
 * "scouting"). */
extern const char *const om_wm_deployment_names[OM_WM_DEPLOY_COUNT];

/* One army to deploy: its units' values at the strength each starts with, in
 * its list's order, and which are committed to scouting (NULL: none). */
typedef struct om_wm_deploy_army {
    const om_wm_unit *values;
    unsigned n;
    const bool *scout;
} om_wm_deploy_army;

/* How to deploy. */
typedef struct om_wm_deploy_plan {
    om_wm_deployment method;
    int8_t first;        /* alternate: the side placing first, one-side-first: the
                            side deploying first; -1: as the method decides it */
    unsigned brigade;    /* brigades of up to this many units (om_wm_battle_deploy_line) */
    unsigned scouting[2];/* each side's scouting points (om_wm_scouting_points) */
    uint8_t outcome;     /* the method's roll (om_wm_deploy_decide): 0 rolled with the
                            dice; OM_WM_DEPLOY_OUTCOME(s) given, side s favoured and no
                            die rolled (a battle that draws its deployment prepares
                            each outcome beforehand) */
} om_wm_deploy_plan;

/* A plan's `outcome` favouring side s (0: A, 1: B). */
#define OM_WM_DEPLOY_OUTCOME(s) ((uint8_t)(1u + (s)))

/* Outcomes of a deployment's roll: the side it favours, A or B. */
#define OM_WM_DEPLOY_OUTCOMES 2u

/*
 * om_wm_deploy_rolls: whether deploying armies of n[0] and n[1] units by plan
 * p rolls a die before any unit is placed: alternate with armies of equal
 * size and no side given (Battlefields, Setting up armies > One unit at a
 * time: "roll a dice to decide"), one-side-first with no side given (the
 * roll-off), scouting (the scouting roll). Lines never roll. Pure.
 */
bool om_wm_deploy_rolls(const om_wm_deploy_plan *p, const unsigned n[2]);

/*
 * om_wm_deploy_decide: the side (0: A, 1: B) deployment plan p favours for
 * armies of n[0] and n[1] units: with alternate the side placing first (the
 * side given, else the one with more units, else a D6: 1-3 A, 4-6 B); with
 * one-side-first the side deploying first (the side given, else the loser of
 * a D6 roll-off, ties rolled again, whose winner chooses to deploy second,
 * seeing the enemy); with scouting the scouting roll's winner
 * (om_wm_scouting_roll on p->scouting, each side's total into total[2] when
 * not NULL; zeros when the outcome is given); with lines side A. A given
 * p->outcome is returned and no die rolled. The dice come from d (not read
 * when nothing is rolled: NULL allowed then). Pure but for the dice;
 * allocates nothing (a battle calls it, om_wm_battle_resolve).
 */
unsigned om_wm_deploy_decide(const om_wm_deploy_plan *p, const unsigned n[2], om_dice *d,
                             unsigned total[2]);

/* What a deployment decided. */
typedef struct om_wm_deploy_result {
    unsigned first[2];   /* each side's first table index */
    uint8_t order[2][OM_WM_TABLE_MAX_UNITS]; /* order[s][k]: which unit of side s's
                            army (its index in values) stands at table index
                            first[s] + k */
    uint8_t placed_first;/* the side that placed the first unit */
    uint8_t scouting_winner;       /* with scouting: the roll's winner */
    unsigned scouting_total[2];    /* with scouting: each side's 2D6 + points */
    bool side_turned;              /* with scouting: the winner chose the other table
                                      edge, and the terrain was turned round
                                      (om_wm_battlefield_prefers_turned) */
    int8_t first_turn;   /* the side the method gives the first turn, or -1: rolled as
                            usual */
    unsigned placements; /* units placed, both sides */
    uint8_t placed_by[OM_WM_TABLE_MAX_UNITS]; /* the side of each placement in turn
                            (with `lines`: side A's, then side B's) */
} om_wm_deploy_result;

/*
 * om_wm_battle_deploy: deploy both armies on the table of turn `t` (empty of
 * units) by plan `p`, each as a line of battle (om_wm_battle_deploy_line),
 * side A's units first on the table, with dice `d` for the method's rolls.
 * The method decides the order in which units are placed; where it lets a
 * side place units after seeing enemy ones, the side counters them (the
 * placement policy, docs/rules-coverage.md "The battlefield"): each of its
 * places in the line, taken from its left, faces the enemy unit already
 * placed nearest across the table, and of the units it may place there, the
 * one with the best odds of winning the first round charging that enemy
 * (the engagement engine's, as the doctrines read them) goes there, the best
 * pair of place and unit first; a side that sees no enemy places its units in
 * its list's order. `lines` is exactly two calls of
 * om_wm_battle_deploy_line. One-side-first: the side deploying first is
 * `first`, or the loser of a D6 roll-off (ties rolled again), whose winner
 * chooses to deploy second, seeing the enemy; the side that deployed first
 * takes the first turn (Warmaster Ancients; in Battlefields it chooses, and
 * takes it). Scouting: om_wm_scouting_roll on p->scouting; the winner
 * chooses its table side (om_wm_battlefield_prefers_turned: the terrain of t
 * turned round when it takes the other edge); under 1.1 the winner moves
 * second (Battlefields). Units keep their values; the
 * deployment's decisions into *r. Errors: those of om_wm_battle_deploy_line
 * (OM_EINVAL, `why` filled), OM_ENOMEM. Not for a trial: it allocates.
 */
om_status om_wm_battle_deploy(om_wm_turn *t, const om_wm_deploy_army army[2],
                              const om_wm_deploy_plan *p, om_dice *d, om_wm_deploy_result *r,
                              om_wm_check_failure *why);

/* ------------------------------------------------------------ a battle */

/* Trials of the engagement engine behind an odds a doctrine reads when its
 * exact law has too many outcomes: a standard error of at most 0.025. */
#define OM_WM_DOCTRINE_ODDS_TRIALS 400u

/* Most battle turns a fixed length may ask for. */
#define OM_WM_BATTLE_TURNS_MAX 30u

/* Why a battle ended. */
typedef enum om_wm_battle_end {
    OM_WM_END_LENGTH = 0, /* its length: the turns decided, or a die during play */
    OM_WM_END_BREAK,      /* an army reached its break point (Withdraw > Casualties) */
    OM_WM_END_GENERAL,    /* an army's General was slain (Withdraw > General Slain) */
    OM_WM_END_SCENARIO,   /* a player reached OM_WM_SCENARIO_VP_END scenario points
                             (Battlefields' scenarios) */
    OM_WM_END_COUNT
} om_wm_battle_end;

/* Names of the ends ("length", "break-point", "general-slain",
 * "scenario-points"). */
extern const char *const om_wm_battle_end_names[OM_WM_END_COUNT];

/* How a battle is fought, besides its table, units and plans. */
typedef struct om_wm_battle_options {
    const om_wm_game_length *length; /* how long it lasts (om_wm_game_lengths) */
    uint8_t fixed_turns;             /* with the `fixed` method: 1..OM_WM_BATTLE_TURNS_MAX */
    int8_t first;                    /* the side with the first turn: -1 rolled
                                        (om_wm_battle_first_side), 0 A, 1 B */
    uint8_t break_extra[2];          /* losses each army takes beyond half its units
                                        before it withdraws (Pyrrhus: 1) */
    bool double_loss[OM_WM_TABLE_MAX_UNITS]; /* by table index: the unit destroyed
                                        counts as two units lost toward its army's
                                        break point (Warmaster Ancients, Romans >
                                        Triarii) */
    uint32_t character_points[OM_WM_TABLE_MAX_CHARACTERS]; /* victory points of each
                                        character slain, mount and items included */
    const om_wm_doctrine *doctrine[2]; /* each side's doctrine, which writes its plans
                                        every turn (doctrine.h); NULL: the side
                                        follows its standing plans */
    om_wm_terrain_method terrain_each_battle; /* a generated method (dice-for-edges,
                                        symmetrical, random): terrain laid out afresh
                                        for each battle, from the battle's own dice,
                                        besides the table's own pieces; NONE: the
                                        table's own pieces alone, every battle */
    int8_t side_chooser;             /* with terrain_each_battle: the side that chooses
                                        its table edge once the terrain is laid out
                                        (the scouting winner,
                                        om_wm_battlefield_prefers_turned), or -1 */
    om_wm_scenario_setup scenario;   /* the scenario fought (objective.h); zero: none,
                                        a battle for the units' points */
    bool zones_swapped;              /* with terrain_each_battle: each battle's terrain
                                        turned round once laid out (before the side
                                        chooser's choice), so that the armies fight from
                                        the other edges of the layout its dice drew: side
                                        A from the far (north) edge, B from the near */
} om_wm_battle_options;

/* What one battle did. */
typedef struct om_wm_battle_result {
    om_wm_battle_verdict verdict;  /* winner and level (om_wm_battle_judge) */
    uint8_t first;                 /* the side that took the first turn */
    uint8_t turns;                 /* battle turns begun; a withdrawal may cut the
                                      last one short */
    uint8_t end;                   /* om_wm_battle_end */
    uint8_t withdrew[2];           /* each army withdrew (0 or 1) */
    uint32_t vp[2];                /* victory points each side scored off the other */
    uint8_t units_lost[2];         /* each side's units destroyed */
    uint8_t stands_lost[OM_WM_TABLE_MAX_UNITS]; /* by table index, over the battle */
    uint8_t destroyed[OM_WM_TABLE_MAX_UNITS];   /* by table index: 0 or 1 */
    uint16_t spells_cast[2];       /* spells each side's Wizards tried to cast (magic.h) */
    uint16_t spells_worked[2];     /* of those, cast and not anti-magicked */
    uint32_t vp_given[OM_WM_TABLE_MAX_UNITS];  /* by table index: the victory points the
                                      enemy scored for the unit (its own, as vp[] counts
                                      them, those of the characters slain with it, and
                                      those of a character slain alone on his way to it,
                                      lone.h) */
    uint32_t vp_scored[OM_WM_TABLE_MAX_UNITS]; /* by table index: its share of the victory
                                      points given up by the enemy units whose stands it
                                      removed (credit.h, om_wm_credit_share) */
    uint32_t vp_unattributed[2];   /* of vp[s], the points of enemy units whose losses no
                                      unit of side s caused (a machine that blew itself
                                      up): vp[s] is side s's units' vp_scored plus this */
    uint8_t deployment;            /* the outcome of the deployment's roll the battle
                                      drew (om_wm_battle_draw_deployment): the side it
                                      favoured, 0 A or 1 B; 0 when it draws none */
    uint32_t scenario_vp[2];       /* with a scenario: each side's scenario points,
                                      which decide the verdict (om_wm_scenario_judge_level);
                                      0 without */
} om_wm_battle_result;

/* A battle prepared for its trials (opaque): shared read-only by every thread. */
typedef struct om_wm_battle_prepared om_wm_battle_prepared;

/*
 * om_wm_battle_prepare_alloc: check and prepare a battle: the table with both
 * armies, their values and side A's plans in `t` (t->command.side 0, checked
 * as om_wm_turn_check does), side B's plans in `plans_b` (side 1, checked as
 * om_wm_command_check does, paths "b.plans[i]..."), and `o`: a length method,
 * a fixed length within bounds, a first side of -1, 0 or 1, units on both
 * sides. Each army's break point counts its units at the start, but for
 * Warmaster Ancients' skirmishers without Armour. With a doctrine on either
 * side, the odds it reads are worked out here: for every unit and enemy, the
 * chance that the one charging the other wins the first round, exactly (every
 * outcome of the engagement engine's dice enumerated) or, where the outcomes
 * are too many, from OM_WM_DOCTRINE_ODDS_TRIALS trials on one fixed stream:
 * a function of the two units' values, never of the run's seed or of where
 * they stand in the table. Free with
 * om_wm_battle_prepared_free (NULL allowed). Errors: OM_EINVAL after filling
 * `why` (if not NULL), OM_ENOMEM.
 */
om_status om_wm_battle_prepare_alloc(const om_wm_turn *t, const om_wm_command_setup *plans_b,
                                     const om_wm_battle_options *o, om_wm_check_failure *why,
                                     om_wm_battle_prepared **out);
void om_wm_battle_prepared_free(om_wm_battle_prepared *p);

/* The odds the doctrines of prepared battle p read (owned by p; all -1
 * without a doctrine), and the General of side s (a character index, or -1). */
const om_wm_doctrine_odds *om_wm_battle_odds(const om_wm_battle_prepared *p);
int om_wm_battle_general(const om_wm_battle_prepared *p, unsigned s);

/*
 * om_wm_battle_draw_deployment: make prepared battle p draw its deployment
 * for each battle (deployment_per: battle). p is the battle as deployed when
 * the deployment's roll favours side A (plan->outcome given as
 * OM_WM_DEPLOY_OUTCOME(0)), `other` the same battle prepared from the
 * deployment of the outcome favouring side B; each battle then rolls `plan`'s
 * roll (om_wm_deploy_decide with plan->outcome 0, armies of n[0] and n[1]
 * units) from its own dice, before anything else, and is fought on the
 * deployment it drew, which its result records (deployment). Everything a
 * deployment decides (where each unit stands, the units its characters
 * join, the side taking the first turn where the method gives it, the side
 * choosing its table edge) is worked out here, before any trial, so that a
 * battle drawing its deployment allocates nothing. canon[u] is the table
 * index in p of the unit standing at table index u of `other` (the same unit
 * of the same list): a battle fought on `other` reports its units by p's
 * indices, so that every battle's rows name the same units. p takes `other`
 * whatever the outcome (freed with p). Errors: OM_EINVAL, `why` filled (if
 * not NULL), when the two tables do not hold the same units (their count,
 * sides and names, canon not a permutation within each side) or plan rolls
 * nothing (om_wm_deploy_rolls).
 */
om_status om_wm_battle_draw_deployment(om_wm_battle_prepared *p, const om_wm_deploy_plan *plan,
                                       const unsigned n[2], om_wm_battle_prepared *other,
                                       const uint8_t canon[OM_WM_TABLE_MAX_UNITS],
                                       om_wm_check_failure *why);

/* The turn prepared battle p starts from when its deployment's roll favours
 * side `outcome` (0: A, 1: B; the result's `deployment`): om_wm_battle_turn
 * for 0 or for a battle that draws no deployment. */
const om_wm_turn *om_wm_battle_turn_deployed(const om_wm_battle_prepared *p, unsigned outcome);

/* Whether prepared battle p draws its deployment for each battle
 * (om_wm_battle_draw_deployment was given it): its results' `deployment`
 * then tells which outcome each battle drew. Pure. */
bool om_wm_battle_draws_deployment(const om_wm_battle_prepared *p);

/*
 * om_wm_battle_losses: each army's losses toward its break point, in half
 * units (om_wm_break_loss_halves), on table t of prepared battle p as it
 * stands: by the stands each unit started with and has now, a Triarii unit
 * destroyed (double_loss) counting two. Pure; thread-safe.
 */
void om_wm_battle_losses(const om_wm_battle_prepared *p, const om_wm_table *t, unsigned lost[2]);

/* The turn prepared battle p starts from: its table as deployed, its units'
 * values and side A's plans (owned by p). */
const om_wm_turn *om_wm_battle_turn(const om_wm_battle_prepared *p);

/*
 * om_wm_battle_resolve: one battle, in workspace `w` (om_wm_turn_work_alloc)
 * with dice `d`: with a deployment drawn for each battle
 * (om_wm_battle_draw_deployment), its roll first, the battle then fought on
 * the deployment it drew (its units reported by the indices of the first);
 * with o->terrain_each_battle, its terrain next
 * (om_wm_battlefield_generate on the deployed table, in the workspace's spare
 * table: every piece lies between the deployment zones, so none lands on a
 * deployed unit; then the side chooser's choice of edge, the terrain turned
 * round when it takes the other), the first-turn roll, the length decided before it, then
 * battle turns, each side's turn in order (om_wm_turn_play with its plans),
 * an army withdrawing when at the end of a turn its General is slain (his unit
 * destroyed) or its losses reach its break point, and the battle ending at
 * the end of a battle turn when its length says so. Then the victory points
 * and the verdict; each unit's victory points given up and scored (the
 * attribution of credit.h). No allocation; thread-safe for distinct w, d and out.
 * Simplifications (docs/rules-coverage.md, "The end of a battle"): withdrawal
 * is checked at the end of each side's turn, not each phase; a lone General is
 * slain only by an enemy moving through him in the Command phase (lone.h).
 */
void om_wm_battle_resolve(const om_wm_battle_prepared *p, om_wm_turn_work *w, om_dice *d,
                          om_wm_battle_result *out);

#endif /* OM_WM_BATTLE_H */
