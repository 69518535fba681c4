/*
 * objective.h: the Battlefields scenarios Take and Hold and Battle for the
 * Tower (Warmaster Revolution, Scenarios > Take and Hold, Battle for the
 * Tower; Battlefields, Take and hold, Battle for the tower): where the
 * objectives stand, who holds an objective or controls the tower on a table
 * as it stands, the scenario victory points each side scores in either
 * version of the rules, and the verdict those points give.
 *
 * The two versions differ in when they score: Warmaster Revolution once, at
 * the end of the battle; Battlefields at the end of each of a player's own
 * turns from his third on, cumulatively, the battle ending when a player has
 * OM_WM_SCENARIO_VP_END points. Pure functions over the table; nothing here
 * allocates, formats or checks its inputs (a scenario is checked when it is
 * loaded), so a battle calls them inside its trials.
 */
#ifndef OM_WM_OBJECTIVE_H
#define OM_WM_OBJECTIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "command.h"
#include "doctrine.h"
#include "table.h"

/* The scenarios a battle may be fought as. */
typedef enum om_wm_scenario_kind {
    OM_WM_SCENARIO_NONE = 0,      /* a pitched battle for the units' points */
    OM_WM_SCENARIO_TAKE_AND_HOLD, /* four objectives to hold */
    OM_WM_SCENARIO_TOWER,         /* a tower in the middle to control */
    OM_WM_SCENARIO_COUNT
} om_wm_scenario_kind;

/* Names in files ("none", "take-and-hold", "battle-for-the-tower"). */
extern const char *const om_wm_scenario_names[OM_WM_SCENARIO_COUNT];

/* The sources' scenarios not modelled, by name ("defending-the-village",
 * "wagon-train"), NULL-terminated: a loader refuses them by name. */
extern const char *const om_wm_scenario_unmodelled[];

/* The version of a scenario's rules (ambiguity A36): when it scores. */
typedef enum om_wm_scenario_version {
    OM_WM_SCENARIO_REVOLUTION = 0, /* once, at the end of the battle (recommended) */
    OM_WM_SCENARIO_BATTLEFIELDS,   /* each own turn from the 3rd, first to 10 */
    OM_WM_SCENARIO_VERSION_COUNT
} om_wm_scenario_version;

/* Names in files ("revolution", "battlefields"). */
extern const char *const om_wm_scenario_version_names[OM_WM_SCENARIO_VERSION_COUNT];

/* Objectives of Take and Hold: two in the centre zone, one in each outer zone. */
#define OM_WM_OBJECTIVES 4u
/* An objective is held by a unit within this distance, and contested by an
 * enemy within it. */
#define OM_WM_OBJECTIVE_HOLD_CM 5.0
/* Half the depth of Take and Hold's central objective zone B about the centre
 * line ("15cm within the central table line"). */
#define OM_WM_OBJECTIVE_CENTRE_CM 15.0
/* Battlefields' placement: objectives this far from dense terrain, and this
 * far from one another. */
#define OM_WM_OBJECTIVE_DENSE_GAP_CM 5.0
#define OM_WM_OBJECTIVE_APART_CM 30.0
/* The tower's side, a square in the middle of the table (the sources give no
 * size: a building-sized piece). */
#define OM_WM_TOWER_CM 8.0
/* Fewest units of one side touching the tower that control it. */
#define OM_WM_TOWER_HOLDERS 2u
/* The tower's bonus distances: no enemy within 10cm, within 20cm. */
#define OM_WM_TOWER_NEAR_CM 10.0
#define OM_WM_TOWER_FAR_CM 20.0
/* Battlefields: the battle ends when a player has this many scenario points,
 * and a player scores from his own turn of this number on. */
#define OM_WM_SCENARIO_VP_END 10u
#define OM_WM_SCENARIO_FIRST_TURN 3u

/* A scenario as a battle plays it. Zero is "no scenario". */
typedef struct om_wm_scenario_setup {
    om_wm_scenario_kind kind;
    om_wm_scenario_version version;
    bool objectives_given;        /* Take and Hold: `objective` given by the file;
                                     false: placed by om_wm_objectives_place on
                                     each battle's table */
    om_wm_vec objective[OM_WM_OBJECTIVES]; /* Take and Hold's objectives */
    int8_t tower;                 /* Battle for the Tower: the tower's terrain index */
} om_wm_scenario_setup;

/*
 * om_wm_objective_holder: the side (0 or 1) holding the objective at `at` on
 * table t, or -1: a present unit of that side that is not confused and not a
 * flyer is within OM_WM_OBJECTIVE_HOLD_CM of it (its nearest edge), and no
 * present unit of the other side, flyer or not, confused or not, is within
 * that distance (it contests). Pure; thread-safe.
 */
int om_wm_objective_holder(const om_wm_table *t, om_wm_vec at);

/*
 * om_wm_tower_controller: the side (0 or 1) controlling the tower, terrain
 * piece `tower` of table t, or -1: at least OM_WM_TOWER_HOLDERS present
 * units of that side that are infantry, cavalry or chariots, not confused
 * and not in combat (touching no enemy unit) touch it, and no present unit of
 * the other side touches it. Pure; thread-safe.
 */
int om_wm_tower_controller(const om_wm_table *t, unsigned tower);

/*
 * om_wm_objective_worth: the scenario points side `side` scores for holding
 * an objective at `at` on table t, in version v. Revolution by zone: 2 in the
 * centre zone (within OM_WM_OBJECTIVE_CENTRE_CM of the centre line), else 1
 * on the side's own half (the outer zone next to its deployment), 3 on the
 * enemy's. Battlefields by half: 1 on the side's own half, 2 on the
 * enemy's; an objective on the centre line lies on neither half and counts
 * as the holder's own (1). Side A's edge is y = 0. Pure.
 */
unsigned om_wm_objective_worth(om_wm_scenario_version v, const om_wm_table *t, om_wm_vec at,
                               unsigned side);

/*
 * om_wm_scenario_score: the scenario points side `side` scores on table t as
 * it stands, for scenario s, besides the points for forcing the enemy to
 * withdraw (om_wm_scenario_withdraw_points): Take and Hold, the worth of
 * every objective it holds; the Tower, when it controls it, 2 (Revolution)
 * or 3 (Battlefields), 1 more with no enemy unit within OM_WM_TOWER_NEAR_CM
 * and 1 more with none within OM_WM_TOWER_FAR_CM. 0 with no scenario. Pure.
 */
unsigned om_wm_scenario_score(const om_wm_scenario_setup *s, const om_wm_table *t, unsigned side);

/* The scenario points for forcing the enemy to withdraw (2 in both
 * scenarios and versions). */
#define OM_WM_SCENARIO_WITHDRAW_VP 2u

/*
 * om_wm_objectives_place: place Take and Hold's four objectives on table t
 * whose deployment zones are `zone_cm` deep, by a fixed policy (the sources
 * let the players place them in turn, with no die): the two central ones on
 * the centre line at a third and two thirds of the width, the outer ones
 * midway across each outer zone (between a deployment zone and the centre
 * zone), in the middle of the width. An objective whose place lies in dense
 * or impassable terrain, or (Battlefields) within
 * OM_WM_OBJECTIVE_DENSE_GAP_CM of dense terrain, slides along its line to the
 * nearest place in 1cm steps that is clear and (Battlefields)
 * OM_WM_OBJECTIVE_APART_CM from the objectives already placed; with none,
 * it stays. Into s->objective. Pure.
 */
void om_wm_objectives_place(om_wm_scenario_setup *s, const om_wm_table *t, double zone_cm);

/*
 * om_wm_objective_clear: whether `at` on table t is a place for an objective:
 * on the table, in no dense or impassable terrain piece, and with
 * `dense_gap_cm` > 0 that far from every dense one. Pure.
 */
bool om_wm_objective_clear(const om_wm_table *t, om_wm_vec at, double dense_gap_cm);

/*
 * om_wm_scenario_judge_level: the winner (0, 1, or 2: none) and level
 * (om_wm_victory's values, battle.h: draw, minor, major, massacre) of a
 * scenario battle with scenario points vp[2] (Scenarios > Victory Points: a
 * difference of 1-2 a minor victory, 3-5 major, 6 or more a massacre; equal a
 * draw). In Battlefields a side that withdrew cannot win: its winning margin
 * is a draw. Pure.
 */
void om_wm_scenario_judge_level(om_wm_scenario_version v, const uint32_t vp[2],
                                const bool withdrew[2], uint8_t *winner, unsigned *level);

/*
 * om_wm_objective_contest: the doctrine's order "contest an objective" added
 * to side `side`'s plans `setup` for its turn on table t, after
 * om_wm_doctrine_plans wrote them: for each objective (Take and Hold, the
 * side's most valuable first) or for the tower (Battle for the Tower, two
 * units), a unit of the side that already holds it stays (its plan becomes
 * hold unless it charges); else the free unit (present, not in combat, able
 * to hold: not a flyer; infantry, cavalry or chariots for the tower) whose
 * plan is to hold or advance and whose brigade does not advance as one, of
 * best score dc->contest x the scenario points it would hold less
 * dc->contest_distance x the paces to cover, moves to it (an advance toward
 * the objective's point, or to stand against the tower's near face, two side
 * by side), when that score beats dc->hold; each unit contests one
 * objective. These plans are issued first (priority 0). Nothing with
 * dc->contest 0 or no scenario. Pure; no allocation; thread-safe.
 */
void om_wm_objective_contest(const om_wm_doctrine *dc, const om_wm_scenario_setup *sc,
                             const om_wm_table *t, unsigned side, om_wm_command_setup *setup);

#endif /* OM_WM_OBJECTIVE_H */
