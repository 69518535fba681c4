/*
 * doctrine.h: how a side plays a battle, as data. Each turn a doctrine scores
 * the orders each of its units could be given (charge an enemy, advance on
 * the closest, shoot, hold) from considerations a player weighs: the odds of
 * winning the first round of the combat the charge would start (worked out
 * once, when the battle is prepared, by the engagement engine), the points
 * the fight puts at stake, and the distance to cover. Every unit's best order
 * becomes its plan, the best of them first, and the side's characters issue
 * them in that order until a command roll fails, as players do (the Command
 * phase of command.h does the issuing). A doctrine states what it maximises;
 * the scores weigh the odds accordingly.
 *
 * The named doctrines are a table of weights (om_wm_doctrines); a doctrine
 * file (scenarios/) may give others. Nothing here allocates: the odds are the
 * prepared battle's.
 */
#ifndef OM_WM_DOCTRINE_H
#define OM_WM_DOCTRINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "command.h"
#include "table.h"

/* What a doctrine's scores maximise. */
typedef enum om_wm_aim {
    OM_WM_AIM_WIN = 0,   /* the chance of winning each fight it starts */
    OM_WM_AIM_VP_MARGIN, /* victory points won less victory points put at risk */
    OM_WM_AIM_LOSSES,    /* its own losses kept low: a fight is worth its odds only
                            after the points it risks */
    OM_WM_AIM_COUNT
} om_wm_aim;

/* Names as doctrine files write them ("win", "vp-margin", "losses"). */
extern const char *const om_wm_aim_names[OM_WM_AIM_COUNT];

/* A doctrine: weights of the considerations. */
typedef struct om_wm_doctrine {
    char name[32];          /* its name in files and results */
    om_wm_aim aim;          /* what its scores maximise */
    double charge_min_odds; /* never charge at odds of winning the first round below */
    double charge;          /* weight of a charge's value (its aim's measure) */
    double distance;        /* cost of each full pace to cover before contact */
    double shoot;           /* value of a shooter's order to move into range and shoot */
    double advance;         /* value of closing on the closest enemy, for a unit with
                               no charge worth its cost (0: it holds instead) */
    double keep_cm;         /* an advance stops this far from the enemy */
} om_wm_doctrine;

/* The named doctrines (default first: "default", "aggressive", "cautious",
 * "shoot-and-hold"), and how many. */
extern const om_wm_doctrine om_wm_doctrines[];
extern const size_t om_wm_doctrine_count;

/* The named doctrine `name`, or NULL. */
const om_wm_doctrine *om_wm_doctrine_find(const char *name);

/* The odds a doctrine reads: for units u and v of opposite sides, the
 * probability that u charging v wins the first round ([u][v]; negative: u
 * cannot charge v), and each unit's points. */
typedef struct om_wm_doctrine_odds {
    float win[OM_WM_TABLE_MAX_UNITS][OM_WM_TABLE_MAX_UNITS];
    uint32_t points[OM_WM_TABLE_MAX_UNITS];
} om_wm_doctrine_odds;

/*
 * om_wm_doctrine_plans: side `side`'s plans for its turn on table `t` under
 * doctrine `dc`, into *setup (its rules, issue order and Command options
 * kept; side, plans and brigade plans written): for every unit of the side on
 * the table and not engaged, the best of its orders (a charge at the enemy of
 * best score among those within three paces, the most a turn's orders move
 * it; a shooter's move into range; an advance on the enemy whose centre is
 * closest, by brigade where its brigade advances; or hold), ordered by the
 * closest character of the side whose command reaches it (none: no orders,
 * initiative only), priorities best first. Pure; no
 * allocation; the plans are valid for the table (every target an enemy on
 * it), so that om_wm_command_check would pass them.
 */
void om_wm_doctrine_plans(const om_wm_doctrine *dc, const om_wm_doctrine_odds *odds,
                          const om_wm_table *t, unsigned side, om_wm_command_setup *setup);

#endif /* OM_WM_DOCTRINE_H */
