/*
 * doctrine.h: how a side plays a battle, as data. Each turn a doctrine scores
 * the candidate orders of each of its free units (charge an enemy, advance on
 * the closest, shoot, hold; keep the General's unit back, hold a reserve)
 * from considerations a player weighs: the odds of winning the first round of
 * the combat a charge would start (worked out once, when the battle is
 * prepared, by the engagement engine), the points the fight puts at stake,
 * the distance to cover, the threat of the enemies that could charge the
 * unit. Every unit's best order becomes its plan; brigades advance as one
 * until the enemy is within reach; the plans are ordered best first (of equal
 * worth, the likeliest to pass first) and the side's characters issue them
 * in that order until a command roll fails, as players do (the Command phase
 * of command.h does the issuing). A doctrine states what it maximises; the
 * scores weigh the odds accordingly. A unit of infantry may also be sent
 * to stand behind a friend of infantry that fights, is about to charge or
 * stands where an enemy may charge it, so that it supports the fight (Combat
 * > Supporting Troops), worth the friend's points at risk. A Hero may move to
 * where his orders are worth most (heroes_cover). In a battle fought as a
 * scenario, a unit may also be sent to contest an objective (move to it and
 * hold it), worth the scenario points it holds (objective.h,
 * om_wm_objective_contest, weighed by `contest`); a battle without a scenario
 * has no objective to contest.
 *
 * A doctrine is a struct of weights; its values come from a doctrine file
 * (scenarios/warmaster/wm_doctrine.h, schema oddsmaster-doctrine/1), the
 * named ones compiled into the program, so that no weight is written twice.
 * Nothing here allocates: the odds are the prepared battle's.
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

/*
 * A doctrine: what it maximises and the weights of its considerations. Every
 * field is a plain number so that a doctrine file (scenarios/, schema
 * oddsmaster-doctrine/1) is the only place the named doctrines' values are
 * written; the bounds below are the ones a file's loader enforces.
 */
typedef struct om_wm_doctrine {
    char name[32];          /* its name in files and results */
    om_wm_aim aim;          /* what its scores maximise */
    /* charge: */
    double charge_min_odds; /* never charge at odds of winning the first round below
                               (0..1) */
    double charge;          /* weight of a charge's value, its aim's measure (0..10) */
    double distance;        /* cost of each full pace to cover before contact (0..10) */
    double initiative;      /* worth added to a charge at the closest enemy within
                               initiative range (Movement > Moving by Initiative: 20cm),
                               which needs no order (0..10) */
    /* shoot: */
    double shoot;           /* value of a shooter's order to move into range (0..10) */
    /* advance: */
    double advance;         /* value of closing on the closest enemy, for a unit with no
                               charge worth more (0: it holds instead) (0..10) */
    double threat;          /* an advance is worth this much less for each unit of the
                               best odds an enemy within a turn's reach of the unit would
                               have charging it (0..10) */
    double keep_cm;         /* an advance stops this far from the enemy (0..200) */
    unsigned orders;        /* most orders an advance or a shooter's move is given in a
                               turn (1..3; 0: the rules' three): a character stops at his
                               first failed order, so a second and third order to one
                               unit, at -1 and -2, can cost every order after them */
    bool brigades;          /* advance by brigades while no enemy is within reach */
    double engage_paces;    /* a brigade advances as one until an enemy is within this
                               many of a member's paces; then its units act alone, on
                               their initiative or their own orders (0..10) */
    /* support: */
    double support;         /* worth of standing behind a friend of infantry that is
                               engaged or charges this turn (in units of the supporter's
                               points: the friend's points times this), or that holds
                               where an enemy could charge it (times the best odds of
                               such a charge too); 0: no supports (0..10) */
    double support_distance; /* cost of each pace a supporter must cover to its place
                                (0..10) */
    /* contest (a scenario battle's objectives, objective.h): */
    double contest;         /* worth of each scenario point a unit holds by moving to an
                               objective or the tower and staying (0: never) (0..10) */
    double contest_distance; /* cost of each pace it must cover to get there (0..10) */
    /* hold: */
    double hold;            /* the score every other order must beat to be issued
                               (0..10) */
    /* protect the General: */
    bool protect_general;   /* the General's unit fights only at good odds, advances
                               (or moves to shoot) no nearer the enemy than
                               general_keep_cm, is never carried forward by its
                               brigade's orders, and neither pursues nor advances
                               after a combat it wins (om_wm_battle_prepare_alloc) */
    double general_min_odds; /* with protect_general: its charges need these odds (0..1) */
    double general_keep_cm; /* with protect_general: how far from the enemy its advance
                               stops (0..200) */
    /* reserve: */
    double reserve;         /* share of the side's free units, those farthest from the
                               enemy, that hold unless a charge is worth it (0..0.9) */
    /* the characters: */
    bool take_over;         /* a character who issues after another has stopped gives
                               that one's plans to the units his command reaches
                               (om_wm_command_setup.take_over) */
    bool heroes_cover;      /* at the end of each Command phase a Hero whose unit is
                               neither fighting nor charging moves to the unit, within
                               his move, from which his command reaches the most of
                               what the side's plans are worth (om_wm_doctrine_plans) */
} om_wm_doctrine;

/* The odds a doctrine reads: for units u and v of opposite sides, the
 * probability that u charging v wins the first round ([u][v]; negative: u
 * cannot charge v), each unit's points, and whether it may support and be
 * supported (infantry whose special rules allow it: Combat > Supporting
 * Troops). */
typedef struct om_wm_doctrine_odds {
    float win[OM_WM_TABLE_MAX_UNITS][OM_WM_TABLE_MAX_UNITS];
    uint32_t points[OM_WM_TABLE_MAX_UNITS];
    bool may_support[OM_WM_TABLE_MAX_UNITS];
    bool may_join[OM_WM_TABLE_MAX_UNITS]; /* a character may join it (not Gnoblars) */
} om_wm_doctrine_odds;

/*
 * om_wm_doctrine_plans: side `side`'s plans for its turn on table `t` under
 * doctrine `dc`, into *setup (its rules, issue order and Command options
 * kept; side, plans and brigade plans written): for every unit of the side on
 * the table and not engaged, the best of its orders: a charge at the enemy of
 * best score among those within three of its paces (the most a turn's orders
 * move it) and no more than a pace behind the enemy closest to it (at whichever
 * enemy it sees closest when that is the one, within 20cm: its initiative); a
 * shooter's move into range; an advance on the enemy whose centre is closest
 * (stopping keep_cm short, general_keep_cm for the General's unit); or hold.
 * A brigade of the side advances as one, on its best charger's target or the
 * enemy closest to its first free unit, while no enemy is within engage_paces
 * of its units, none is in reserve and, under protect_general, none is the
 * General's (a brigade's orders would carry his unit forward, into the
 * enemy's range, whatever distance his own plan keeps). A shooter's move into
 * range is the General's unit's plan only when its range reaches
 * general_keep_cm. A free unit of infantry whose best order
 * is not a charge supports instead a friend of infantry (engaged, charging this
 * turn, or holding under threat) when that scores more, one supporter a
 * friend, best pairs first; supports are issued after every other plan, so
 * that a friend's charge is made before its supporter moves. Each plan is ordered by the closest
 * character of the side whose command reaches its unit (none: no orders,
 * initiative only), priorities best first. Pure; no allocation; the plans
 * are valid for the table (every target an enemy on it), so that
 * om_wm_command_check would pass them. Thread-safe.
 */
void om_wm_doctrine_plans(const om_wm_doctrine *dc, const om_wm_doctrine_odds *odds,
                          const om_wm_table *t, unsigned side, om_wm_command_setup *setup);

/* The character of side setup->side that would order unit u on table t, as
 * om_wm_doctrine_plans chooses him (the closest whose command reaches it), or
 * -1. Pure; thread-safe. */
int8_t om_wm_doctrine_orderer(const om_wm_command_setup *setup, const om_wm_table *t, unsigned u);

#endif /* OM_WM_DOCTRINE_H */
