/*
 * turn.h: a whole Warmaster turn of one side, over several units on a table:
 * its Command phase (command.h: initiative, orders, brigades, blunders,
 * recovery), its Shooting phase (its Wizards' spells, magic.h; every shooting
 * unit of the moving side at
 * the closest visible enemy in range, the hits of all its shooters summed
 * before one drive back per target, which moves the unit on the table) and
 * its Combat phase (the units touching enemies grouped into engagements,
 * contacts and supports read from the table, each engagement one Combat
 * phase of the multi-unit engine, MULTICOMBAT.md). Players' decisions are
 * policies: plans for the Command phase, a shooting policy and stand and
 * shoot per unit, the pursuit policy of each unit's side.
 *
 * The mechanisms are the engine's own: om_wm_command_phase, the shooting of
 * shooting.c (om_wm_fire_at, om_wm_fire_cost, om_wm_drive_back_at) and
 * om_wm_multi_prepare/om_wm_multi_resolve; this module only reads the table
 * and calls them. A trial copies the prepared table and allocates nothing:
 * a thread's workspace (om_wm_turn_work) holds the engagement being fought.
 * The model's simplifications are in TURNS.md ("A whole turn"), each next to
 * the rule it bends, and its fixed readings in the registry below (`oddsmaster
 * list --options`). Sections cited are Warmaster Revolution's (Command;
 * Shooting; Combat; Confusion) unless another rulebook is named.
 */
#ifndef OM_WM_TURN_H
#define OM_WM_TURN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "command.h"
#include "credit.h"
#include "magic.h"
#include "table.h"
#include "wm.h"

/* Most units a side of a turn may have: half a table's, so that two armies of
 * as many fit on it (and any engagement their charges form holds no more
 * units a side than the combat engine takes). */
#define OM_WM_TURN_SIDE_UNITS_MAX (OM_WM_TABLE_MAX_UNITS / 2)
_Static_assert(OM_WM_TURN_SIDE_UNITS_MAX <= OM_WM_SIDE_UNITS_MAX,
               "an engagement takes a side's units");

/* What a unit of the moving side does in its Shooting phase (Shooting >
 * Targets: the target is the closest visible enemy; the player may hold fire). */
typedef enum om_wm_shoot_policy {
    OM_WM_SHOOT_CLOSEST = 0, /* the closest visible enemy in range that is not engaged */
    OM_WM_SHOOT_HOLD,        /* holds its fire */
    OM_WM_SHOOT_POLICY_COUNT
} om_wm_shoot_policy;

/* Names as scenario files write them: "closest", "hold". */
extern const char *const om_wm_shoot_policy_names[OM_WM_SHOOT_POLICY_COUNT];

/* One unit of a turn: its values and policies. Where it stands, its stands
 * left, hits carried and confusion are its table unit's. */
typedef struct om_wm_turn_unit {
    om_wm_side side;          /* its values and settings as for an engagement (a joined
                                 character's bonus, magic, pursuit policy, declared
                                 position...). What the table decides is set in each
                                 trial: charging, position from terrain, dense terrain,
                                 confusion, contacts, supports, what lies behind it and
                                 whether it stands and shoots */
    om_wm_shoot_policy shoot; /* its Shooting phase, if its side moves */
    bool stand_and_shoot;     /* shoots at enemies charging it when the rules allow
                                 (Shooting > Shooting at Charging Enemy) */
} om_wm_turn_unit;

/* A turn to simulate: the table at its start, the moving side's Command
 * phase, and every unit's values. */
typedef struct om_wm_turn {
    const om_wm_ruleset *rules;  /* rule set (static storage); command.rules is its id */
    om_wm_options options;       /* readings of the combat rules */
    om_wm_table table;           /* where everything stands as the turn starts */
    om_wm_command_setup command; /* the moving side (command.side), its plans, the order
                                    of issue and the Command options */
    om_wm_turn_unit unit[OM_WM_TABLE_MAX_UNITS]; /* by table index */
    om_wm_spellbook magic;       /* each side's spells and its Wizards' (magic.h); all
                                    zero: no magic, the Shooting phase as before */
} om_wm_turn;

/* What one turn did to one unit. Flags are 0 or 1. */
typedef struct om_wm_turn_unit_result {
    uint8_t orders;      /* orders it passed (a brigade's count for each of its units) */
    uint8_t moved;       /* it moved in the Command phase (0.1cm or more) */
    uint8_t charged;     /* it charged */
    uint8_t shot_at;     /* an enemy shot at it in the Shooting phase */
    uint8_t engaged;     /* it fought (or supported) in the Combat phase */
    uint8_t unresolved;  /* it is still engaged after it: an unresolved combat
                            (Combat > Unresolved Combat) */
    uint8_t stands_lost; /* stands it lost in the turn (all it had if destroyed) */
    uint8_t confused;    /* confused at the end of the turn (never a destroyed unit) */
    uint8_t routed;      /* routed by a drive back (then destroyed too) */
    uint8_t destroyed;   /* destroyed or gone off the table for good */
} om_wm_turn_unit_result;

/* What one turn did. */
typedef struct om_wm_turn_result {
    om_wm_turn_unit_result unit[OM_WM_TABLE_MAX_UNITS]; /* by table index */
    uint16_t vp_lost[2];    /* victory points each side lost (End of the Battle >
                               Victory Points) */
    uint8_t general_orders; /* orders the moving side's General passed: his chain reached
                               order k when this is k or more */
    uint8_t engagements;    /* engagements fought in the Combat phase */
    uint8_t unresolved;     /* of those, left unresolved */
    uint8_t spells_cast;    /* spells the moving side's Wizards tried to cast (magic.h) */
    uint8_t spells_worked;  /* of those, cast and not anti-magicked */
} om_wm_turn_result;

/*
 * om_wm_turn_check: validate a turn: the table (om_wm_table_check, paths
 * "units[i].at", "brigades[i].units", ...), the Command setup against it
 * (om_wm_command_check, "plans[i].by", ...), the spellbook
 * (om_wm_spellbook_check, "magic.spells[s][k].cast", ...), at most
 * OM_WM_TURN_SIDE_UNITS_MAX units a side, each table unit agreeing with its
 * values (troop type, stands, size, range), and each unit's values as an
 * engagement checks them ("units[i].side.unit.armour", ...). Returns OM_OK,
 * or OM_EINVAL after filling `why` (if not NULL) with the dotted path and the
 * reason, raising "field 'PATH': REASON". Pure apart from the error slot.
 */
om_status om_wm_turn_check(const om_wm_turn *t, om_wm_check_failure *why);

/* A turn prepared for its trials (opaque): shared read-only by every thread. */
typedef struct om_wm_turn_prepared om_wm_turn_prepared;

/*
 * om_wm_turn_prepare_alloc: check `t` and prepare it: a copy, and the dice
 * tables every test draws from. Free with om_wm_turn_prepared_free (NULL
 * allowed). Errors: OM_EINVAL (as om_wm_turn_check), OM_ENOMEM.
 */
om_status om_wm_turn_prepare_alloc(const om_wm_turn *t, om_wm_check_failure *why,
                                   om_wm_turn_prepared **out);
void om_wm_turn_prepared_free(om_wm_turn_prepared *p);

/* The turn a prepared turn was made from (owned by it). */
const om_wm_turn *om_wm_turn_of(const om_wm_turn_prepared *p);

/* One thread's workspace (opaque, about 1.2 megabytes, allocated once): the
 * trial's table, the engagement being fought and the table's memo (table.h),
 * which keeps what the table's questions worked out from trial to trial. */
typedef struct om_wm_turn_work om_wm_turn_work;

/* om_wm_turn_work_alloc: a workspace; free with om_wm_turn_work_free (NULL
 * allowed). Errors: OM_ENOMEM. */
om_status om_wm_turn_work_alloc(om_wm_turn_work **out);
void om_wm_turn_work_free(om_wm_turn_work *w);

/*
 * om_wm_turn_resolve: one trial of the prepared turn with dice `d` in
 * workspace `w`, written to *out (its entries for the table's units; the rest
 * of its array is left as it was). The three phases in order on a copy of the
 * start table; no allocation. Pure apart from advancing `d` and using `w`;
 * thread-safe for distinct `d`, `w` and `out`.
 */
void om_wm_turn_resolve(const om_wm_turn_prepared *p, om_wm_turn_work *w, om_dice *d,
                        om_wm_turn_result *out);

/*
 * Turns one after the other on one table, as a battle plays them:
 * om_wm_turn_begin puts the prepared turn's start table into workspace `w`;
 * each om_wm_turn_play then plays one turn of `setup`'s side (its moving side
 * and plans; its rules the prepared turn's) on the table as the turns before
 * left it: units destroyed stay gone, combats left unresolved are fought on,
 * confusion and carried hits stay until the rules clear them. The result is
 * that turn's alone: stands lost and victory points from the stands each unit
 * had as it began. `setup` must be valid for the table as it stands
 * (om_wm_command_check): the caller builds it so; nothing is checked here.
 * om_wm_turn_resolve is om_wm_turn_begin and one turn of the prepared setup.
 * No allocation; thread-safety as om_wm_turn_resolve.
 */
void om_wm_turn_begin(const om_wm_turn_prepared *p, om_wm_turn_work *w);

/*
 * om_wm_turn_begin_on: om_wm_turn_begin from table `start` rather than the
 * prepared turn's own: a table with the prepared turn's units, characters and
 * brigades, as they stand there, on other terrain (a battle whose terrain is
 * laid out afresh for each battle, battle.h). `start` may be the workspace's
 * spare table (om_wm_turn_work_spare). No allocation.
 */
void om_wm_turn_begin_on(const om_wm_turn_prepared *p, om_wm_turn_work *w,
                         const om_wm_table *start);

/* om_wm_turn_work_spare: a table owned by workspace `w` that its turns never
 * touch, for the caller to build a start table in (om_wm_turn_begin_on). */
om_wm_table *om_wm_turn_work_spare(om_wm_turn_work *w);
void om_wm_turn_play(const om_wm_turn_prepared *p, const om_wm_command_setup *setup,
                     om_wm_turn_work *w, om_dice *d, om_wm_turn_result *out);

/* The table as the last trial in `w` left it (for tests and tools). */
const om_wm_table *om_wm_turn_work_table(const om_wm_turn_work *w);

/* om_wm_turn_work_set_trace: send the events of the turns and battles played
 * in `w` to `trace` (trace.h; owned by the caller, which must keep it until
 * it sets another), or to none with NULL, as a new workspace starts. Tracing
 * changes no die drawn and no result. om_wm_turn_work_trace: the sink set. */
void om_wm_turn_work_set_trace(om_wm_turn_work *w, om_wm_trace *trace);
om_wm_trace *om_wm_turn_work_trace(const om_wm_turn_work *w);

/* om_wm_turn_work_credit: which enemy units removed the stands of each unit
 * since om_wm_turn_begin, over the turns played in `w` (credit.h). */
const om_wm_credit *om_wm_turn_work_credit(const om_wm_turn_work *w);

/* ---- The turn's fixed readings (registry shaped like options.c) ---- */

/* The registry of the fixed readings of whole turns (turn.c; options.h). */
extern const om_option_table om_wm_turn_option_registry;

/* Number of the turn's fixed readings, the i-th, lookup by name. */
size_t om_wm_turn_option_count(void);
const om_wm_option *om_wm_turn_option_at(size_t i);
const om_wm_option *om_wm_turn_option_find(const char *name);

#endif /* OM_WM_TURN_H */
