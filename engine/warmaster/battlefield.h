/*
 * battlefield.h: the table a Warmaster battle is fought on, before its first
 * turn: terrain laid out by the named methods of the rulebooks, and the
 * scouting of Warmaster Revolution's Optional Rules and of Battlefields
 * (scouting points by each source's table, the 2D6 roll). How the armies then
 * deploy on it is battle.h's (om_wm_battle_deploy).
 *
 * A terrain given or laid out per run, and a deployment per run, are decided
 * once, when a battle scenario is loaded, with the dice of the battle's set-up
 * (a stream of its own, not a trial's); a terrain and a deployment's roll per
 * battle (the scouting roll among them) are drawn by each battle from its own
 * dice (om_wm_battle_resolve). Nothing here allocates.
 */
#ifndef OM_WM_BATTLEFIELD_H
#define OM_WM_BATTLEFIELD_H

#include <stdbool.h>
#include <stddef.h>

#include "dice.h"
#include "table.h"
#include "wm.h"

/* ------------------------------------------------------------ terrain */

/* How a battle's terrain is laid out. */
typedef enum om_wm_terrain_method {
    OM_WM_TERRAIN_NONE = 0,        /* an open table */
    OM_WM_TERRAIN_GIVEN,           /* the pieces a file gives */
    OM_WM_TERRAIN_DICE_FOR_EDGES,  /* Battlefields, Setting up scenery > Dice for Edges */
    OM_WM_TERRAIN_SYMMETRICAL,     /* Battlefields, Setting up scenery > Symmetrical set up */
    OM_WM_TERRAIN_RANDOM,          /* Warmaster Ancients, The Battlefield > Random set-up */
    OM_WM_TERRAIN_METHOD_COUNT
} om_wm_terrain_method;

/* A method's name in files ("none", "given", "dice-for-edges", "symmetrical",
 * "random"), source and one-phrase summary. */
typedef struct om_wm_terrain_method_info {
    const char *name;
    const char *source;
    const char *summary;
} om_wm_terrain_method_info;

extern const om_wm_terrain_method_info om_wm_terrain_methods[OM_WM_TERRAIN_METHOD_COUNT];

/* The methods' names alone, in the same order (for lists of names). */
extern const char *const om_wm_terrain_method_names[OM_WM_TERRAIN_METHOD_COUNT];

/* Least room between two generated pieces, in cm: twice a stand's frontage,
 * so that a unit in column passes between any two. The sources give none for
 * laying out a table (Warmaster Revolution's General's trait Survey the
 * Battlefield keeps one moved piece 12cm from the others, which ten pieces
 * of up to 50cm do not leave room for between the deployment zones). */
#define OM_WM_TERRAIN_GAP_CM 8.0

/* The smallest area feature worth a piece (Warmaster Ancients, Random Terrain
 * Charts > High Ground: "in the order of 12cm across"). */
#define OM_WM_TERRAIN_MIN_CM 12.0

/* Fewest and most pieces a generated table has (Battlefields, Setting up
 * scenery: "between 6 and 10 significant scenery pieces"). */
#define OM_WM_TERRAIN_PIECES_MIN 6u
#define OM_WM_TERRAIN_PIECES_MAX 10u

/* Width of a generated stream or river, cm (the sources give none). */
#define OM_WM_TERRAIN_RIVER_WIDTH_CM 8.0

/*
 * om_wm_battlefield_generate: lay out the terrain of `method` (one of the
 * generated ones; NONE and GIVEN add nothing) on table t, whose armies
 * deploy `zone_cm` deep along the edges y = 0 and y = t->depth_cm, with dice
 * from `d` (its fast generator). Every piece lies wholly between the two
 * deployment zones, OM_WM_TERRAIN_GAP_CM from every other. The kind and size
 * of each piece come from Warmaster Ancients' Random Terrain Charts (a 2D6
 * for the type, a 2D6 for the item: battlefield.c's table says how each
 * item becomes a piece); the count and placement are the method's:
 *   - dice-for-edges: 6 to 10 pieces, each count 1/5 (a D6, a 6 rolled
 *     again, plus 5), placed at random across the table; then a D6 of 4+
 *     turns the table round (each army fights from the other edge);
 *   - symmetrical: 3, 4 or 5 pieces (a D3 + 2) in side A's half, each with its
 *     mirror image through the table's centre in side B's: 6, 8 or 10, each
 *     1/3;
 *   - random: the players take turns (a D6 decides who starts), each placing
 *     a piece in its own half, a hill free to straddle the middle line;
 *     after the fifth piece and each one after it, the player whose turn
 *     comes declares the end on a D6 of 4+ and the other places one piece
 *     more (6 pieces 1/2, 7 1/4, 8 1/8, 9 1/16, 10 1/16); after the ninth
 *     the end is always declared.
 * A piece that finds no room after OM_WM_TERRAIN_TRIES tries shrinks; one
 * that finds none at the least size is dropped (the count falls short: only
 * on tables too small for the zone). Returns the pieces added. Pure but for
 * the dice.
 */
#define OM_WM_TERRAIN_TRIES 256u
unsigned om_wm_battlefield_generate(om_wm_table *t, om_wm_terrain_method method, double zone_cm,
                                    om_dice *d);

/*
 * om_wm_battlefield_turn_round: turn terrain pieces `from` onward of table t
 * round through the table's centre (x, y to width - x, depth - y): the
 * layout as seen from the other edge, which is how a battle changes the edge
 * each army fights from once the armies are set up (Dice for Edges; the
 * scouting winner's choice of side). Pure.
 */
void om_wm_battlefield_turn_round(om_wm_table *t, unsigned from);

/*
 * om_wm_battlefield_closed_weights: for each terrain kind, how many of the
 * `n` units `values` (an army) cannot enter it under `rules`
 * (om_wm_table_terrain_closed by troop type; a flyer, which passes over
 * terrain, none), into weight[OM_WM_TERRAIN_KIND_COUNT]. Pure.
 */
void om_wm_battlefield_closed_weights(om_wm_ruleset_id rules, const om_wm_unit *values,
                                      unsigned n, unsigned weight[OM_WM_TERRAIN_KIND_COUNT]);

/*
 * om_wm_battlefield_prefers_turned: the scouting winner's choice of table side
 * (Warmaster Revolution, Optional Rules > Scouting; Battlefields, Scouting:
 * "The player with the higher total chooses the table side"), as a placement
 * policy: side `side` (0 deploys along y = 0, 1 along y = depth) wants the
 * edge with the more open ground ahead of its army, so it chooses the other
 * edge (true) when the terrain closed to its army in its own half of table t
 * (each piece's area times weight[kind], from
 * om_wm_battlefield_closed_weights; a piece in the half its centroid lies in)
 * is more than in the other half; equal: it keeps its edge. Only a table
 * whose every piece lies wholly between the deployment zones (`zone_cm` deep)
 * is ever turned, so that turning it round never puts a piece under a
 * deployed unit. Pure.
 */
bool om_wm_battlefield_prefers_turned(const om_wm_table *t, unsigned side, double zone_cm,
                                      const unsigned weight[OM_WM_TERRAIN_KIND_COUNT]);

/*
 * om_wm_battlefield_check_terrain: whether the pieces of table t are each
 * wholly on the table and none overlaps another (Battlefields, Setting up
 * scenery: pieces are set out on the table, one beside another). OM_OK, or
 * OM_EINVAL with `why` naming "terrain[k].points".
 */
om_status om_wm_battlefield_check_terrain(const om_wm_table *t, om_wm_check_failure *why);

/* ------------------------------------------------------------ scouting */

/*
 * om_wm_scouting_unit_halves: the scouting points of a unit committed to
 * scouting, in half points, under `rules` (Warmaster Revolution, Optional
 * Rules > Scouting, for Revolution; Battlefields, Scouting, for 1.1; 0 under
 * Ancients, which has no scouting): by its list id (`id`: "rangers",
 * "gutter-runners", ...), its troop type, armour and whether it flies or
 * shoots. REV: a flyer or Waywatchers 6; cavalry of armour 0 or 6+, Rangers,
 * Gutter Runners, Ethereal Hosts, Dryads, Centigors, Yhetees 4; cavalry of
 * armour 5+, Glade Guard 2; shooting infantry of armour 0 or 6+ 1. BF: a
 * flyer, Rangers, Gutter Runners, Gorgers, Waywatchers 6; cavalry of armour
 * 6+, Ethereal Hosts, Centigors, Warhounds, Huntsmen, Skirmishers 4; cavalry
 * of armour 0 or 5+, Rat Swarms, Skinks 2.
 */
unsigned om_wm_scouting_unit_halves(om_wm_ruleset_id rules, const char *id,
                                    const om_wm_unit *u);

/*
 * om_wm_scouting_character_halves: the same for a character of `kind` and
 * `command`, flying or not. REV: flying 6, Command 10 4, Command 9 2,
 * Command 8 1. BF: flying 6, a General 4, Command 8 2.
 */
unsigned om_wm_scouting_character_halves(om_wm_ruleset_id rules, om_wm_character_kind kind,
                                         unsigned command, bool flying);

/*
 * om_wm_scouting_points: a side's scouting points from its total in half
 * points: rounded up under Revolution ("fractions rounded up"), where halves
 * arise; halves do not arise under Battlefields.
 */
unsigned om_wm_scouting_points(unsigned halves);

/*
 * om_wm_scouting_roll: which side (0: A, 1: B) wins the scouting roll, each
 * side's 2D6 added to its points (Scouting: "The player with the higher
 * total"), a tie rolled again (the sources say nothing of ties). Each side's
 * total into total[2] when not NULL (the deciding roll's). Pure but for the
 * dice.
 */
unsigned om_wm_scouting_roll(const unsigned points[2], om_dice *d, unsigned total[2]);

/*
 * om_wm_scouting_win_probability: the exact probability that side A wins
 * om_wm_scouting_roll with these points (the law of 2D6 - 2D6 with ties rolled
 * again).
 */
double om_wm_scouting_win_probability(const unsigned points[2]);

#endif /* OM_WM_BATTLEFIELD_H */
