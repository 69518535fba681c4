/*
 * wm_battle.h: scenario files of kind battle: two army list files (army
 * lists, wm_armylist.h) fought against each other on the table of their rule
 * set, each side deployed in lines of battle and playing a doctrine, for a
 * length of game chosen by method (engine/warmaster/battle.h). The keys are
 * in docs/scenario-format.md ("Battles") and the key table (wm_keys.c).
 */
#ifndef OM_WM_BATTLE_SCENARIO_H
#define OM_WM_BATTLE_SCENARIO_H

#include <stddef.h>

#include "battle.h"
#include "battlefield.h"
#include "status.h"
#include "wm_armylist.h"
#include "wm_doctrine.h"
#include "wm_scenario.h"

/* The deployment of the other outcome of a deployment's roll, when each
 * battle draws its own (deployment_per: battle): the table as deployed, the
 * options it decides (first side, the side choosing its edge, the points and
 * losses of the characters and units by their places), what it decided, and
 * each unit's index in the scenario's own table (canon). */
typedef struct om_wm_battle_deployment {
    om_wm_turn turn;
    om_wm_battle_options options;
    om_wm_deploy_result deployed;
    uint8_t canon[OM_WM_TABLE_MAX_UNITS];
} om_wm_battle_deployment;

/* A battle as loaded: the deployed table, the units' values, both sides'
 * settings, and the two lists with their texts (for the result's record). */
typedef struct om_wm_battle_scenario {
    om_wm_turn turn;                  /* the table both armies stand on, their values,
                                         side A's base Command setup */
    om_wm_command_setup plans_b;      /* side B's base Command setup */
    om_wm_battle_options options;     /* length, first side, doctrines, points */
    om_wm_armylist *list[2];          /* each side's list (owned) */
    char *list_name[2];               /* each list as the file names it (owned) */
    char *list_text[2];               /* each list's text (owned) */
    om_wm_doctrine_file doctrine[2];  /* each side's doctrine (options.doctrine points
                                         at these) */
    char *doctrine_source[2];         /* a doctrine file's path, or NULL for one
                                         compiled in (owned) */
    char *doctrine_text[2];           /* that file's text, for the result's record,
                                         or NULL (owned) */
    char id[OM_WM_TABLE_MAX_UNITS][OM_WM_ARMYLIST_ID_MAX + 8]; /* each unit's id on the
                                         table: its list id, numbered when repeated */
    om_wm_terrain_method terrain;     /* how the terrain was laid out */
    bool terrain_each_battle;         /* a generated terrain laid out afresh for each
                                         battle (terrain_per: battle), not once */
    uint64_t setup_seed;              /* the dice of the set-up (terrain, deployment) */
    om_wm_deploy_plan deploy;         /* how the armies deployed */
    om_wm_deploy_result deployed;     /* what the deployment decided */
    bool deploy_each_battle;          /* the deployment's roll drawn for each battle
                                         (deployment_per: battle), not once */
    om_wm_battle_deployment *drawn;   /* with deploy_each_battle and a method that
                                         rolls: the deployment when the roll favours
                                         side B, `turn` and `deployed` holding side A's;
                                         else NULL (owned) */
    bool first_given;                 /* the file gave `first` */
    bool zones_swapped;               /* zones: a-north (side A along the far edge) */
} om_wm_battle_scenario;

/*
 * om_wm_battle_scenario_load_text: load `len` bytes of a scenario of kind
 * battle named `source` into a scenario whose `battle` holds it (owned by the
 * caller, om_wm_scenario_free). A list is the name of an example list (the
 * stem of a file of scenarios/lists/warmaster, compiled in) or a path,
 * relative to the scenario file's directory. Errors,
 * each "SOURCE:LINE: field 'PATH': REASON" (or the list file's own): OM_EPARSE,
 * OM_ENOTFOUND (an unknown list, doctrine or length method, with "did you
 * mean"), OM_EINVAL (lists of different rule sets, an army too big for its
 * zone, a fixed length out of range), OM_EIO (a list file unreadable),
 * OM_ENOMEM.
 */
om_status om_wm_battle_scenario_load_text(const char *source, const char *text, size_t len,
                                          om_wm_scenario **out);

/* om_wm_battle_provenance_json: what the battle's result file records of it
 * as JSON (*out, malloc'd): the rule set, each side's list (its name and
 * whole text), doctrine (its name; a doctrine file's path and whole text too)
 * and units as deployed (id, name, points, where they
 * stand), the length method and turns, the first side. Errors: OM_ENOMEM. */
om_status om_wm_battle_provenance_json(const om_wm_battle_scenario *b, char **out);

/*
 * om_wm_battle_scenario_prepare_alloc: prepare loaded battle b for its trials
 * (om_wm_battle_prepare_alloc on its table, plans and options), and, where
 * each battle draws its deployment (b->drawn), the other outcome too
 * (om_wm_battle_draw_deployment). Free with om_wm_battle_prepared_free.
 * Errors: those two functions' (`why` filled for OM_EINVAL), OM_ENOMEM.
 */
om_status om_wm_battle_scenario_prepare_alloc(const om_wm_battle_scenario *b,
                                              om_wm_check_failure *why,
                                              om_wm_battle_prepared **out);

/* Free a battle (NULL allowed). */
void om_wm_battle_scenario_free(om_wm_battle_scenario *b);

/*
 * om_wm_battle_character_rule_played: whether a battle plays special rule
 * `id` when a character of an army list carries it (its own, its mount's or
 * an upgrade's): a flying mount's move, a Chariot's, Griffon's or Wyvern's
 * Attacks (the terror of the monsters is a rule of its own, named while not
 * modelled), a Runesmith's or Shugenja's anti-magic, Pyrrhus's later
 * withdrawal. A battle names every other rule of
 * its characters as not modelled. Pure; thread-safe.
 */
bool om_wm_battle_character_rule_played(const char *id);

/*
 * om_wm_battle_unit_rule_played: whether a battle plays special rule `id` of
 * a unit that the engagement engine records as not modelled: the Triarii's
 * double loss toward the break point (Warmaster Ancients, Romans), shooting
 * at 15cm all round (Pistoliers, Wolf Riders and the like: the stat line's
 * range and the turn engine's all-round vision), the Goblins' bows (the stat
 * line), the Ancients' Slow and Unreliable command penalties. A battle names
 * every other such rule as not modelled. Pure; thread-safe.
 */
bool om_wm_battle_unit_rule_played(const char *id);

/* Number of example lists compiled into the program, and the stem of the
 * i-th ("revolution-empire-steel-and-shot"), NULL past the end. */
size_t om_wm_battle_example_count(void);
const char *om_wm_battle_example_at(size_t i);

#endif /* OM_WM_BATTLE_SCENARIO_H */
