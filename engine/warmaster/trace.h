/*
 * trace.h: the events of one Warmaster battle or turn, as typed records in a
 * caller-owned array, so that a tool can tell one battle turn by turn (the
 * orders and their rolls, charges, shooting, combats and their results, units
 * lost, withdrawal checks, the end) while the engine stays pure: it formats
 * nothing, allocates nothing and writes no file. A workspace carries a sink
 * (om_wm_turn_work_set_trace); in a run the sink is NULL and every hook costs
 * one predictable branch. The records are plain numbers: the words are the
 * narrator's (scenarios/warmaster/wm_narrate.c).
 */
#ifndef OM_WM_TRACE_H
#define OM_WM_TRACE_H

#include <stddef.h>
#include <stdint.h>

/* What happened. The meaning of each record's fields is given per kind;
 * fields a kind does not name are 0 (unit and target -1). */
typedef enum om_wm_event_kind {
    OM_WM_EV_BATTLE_START = 0, /* side: the first side; v[0]: the turns the battle lasts at
                                  most (its length decided before it starts) */
    OM_WM_EV_TURN_START,       /* side: the side whose turn begins */
    OM_WM_EV_INITIATIVE,       /* unit moved on initiative toward or away from target;
                                  v[0]: om_wm_initiative_move (charge 1, evade 2) */
    OM_WM_EV_ORDER,            /* an order test: unit (the first of its group), v[2] the
                                  units of the group, target: the character, v[0] the
                                  order's number (1-3) this phase for the group, v[1]
                                  the highest score that passes, dice[0..1] the 2D6,
                                  flags OM_WM_EVF_PASSED, OM_WM_EVF_BLUNDER */
    OM_WM_EV_BLUNDER,          /* unit blundered: v[0] om_wm_blunder, dice[0] the die */
    OM_WM_EV_CHARGE,           /* unit charged target (by order, initiative or blunder),
                                  or v[0] OM_WM_CHARGE_ADVANCE: advanced on it in the
                                  Combat phase (Combat > Advance) */
    OM_WM_EV_SHOOT,            /* unit shot at target: v[0] stands shooting, v[1] unsaved
                                  hits */
    OM_WM_EV_SHOT_RESULT,      /* unit, shot at, after its Shooting phase: v[0] hits,
                                  v[1] stands removed, v[2] cm driven back, flags
                                  OM_WM_EVF_CONFUSED, OM_WM_EVF_DESTROYED (routed or
                                  all stands gone) */
    OM_WM_EV_COMBAT,           /* an engagement fought: unit its first unit, v[0] and
                                  v[1] hits each side (A, B) suffered, v[2] the winner
                                  (OM_WM_SIDE_A, OM_WM_SIDE_B, OM_WM_DRAW,
                                  OM_WM_NO_CONTEST: unresolved), v[3] rounds; flags
                                  OM_WM_EVF_UNRESOLVED */
    OM_WM_EV_COMBAT_UNIT,      /* a unit of that engagement: v[0] stands lost, v[1] cm
                                  retreated, v[2] cm fallen back, v[3] rounds after which
                                  it pursued; flags OM_WM_EVF_CONFUSED,
                                  OM_WM_EVF_DESTROYED, OM_WM_EVF_UNRESOLVED (still
                                  engaged) */
    OM_WM_EV_RECOVERED,        /* unit recovered from confusion (end of Command) */
    OM_WM_EV_CONFUSED,         /* unit became confused outside shooting's drive backs and
                                  combat (whose records flag it): v[0] OM_WM_CONFUSED_* */
    OM_WM_EV_DESTROYED,        /* unit destroyed or gone from the table this turn */
    OM_WM_EV_WITHDRAWAL,       /* the check at the end of a turn, one per army: side,
                                  v[0] its losses and v[1] its break point (half units),
                                  flags OM_WM_EVF_WITHDRAWS, OM_WM_EVF_GENERAL_SLAIN */
    OM_WM_EV_END,              /* the battle ended: side the winner (2: none), v[0] the
                                  level (om_wm_victory), v[1] and v[2] victory points of
                                  A and B, v[3] om_wm_battle_end */
    OM_WM_EV_SPELL,            /* a Wizard cast: target the character, unit the unit aimed
                                  at (-1: every eligible unit), v[0] the spell's index in
                                  its side's spellbook, v[1] the casting value, dice[0] the
                                  die (0: none, a Ring of Magic), dice[1] his spellbound
                                  penalty; PASSED if cast, v[2] 1 if then dispelled; v[3]
                                  the OM_WM_DEVICE_* at play (magic.h): his Ring, Wand or
                                  Rod (a second spell), an enemy Scroll that dispelled it,
                                  an enemy Staff that spellbound him as it failed */
    OM_WM_EV_DEPLOYMENT,       /* a battle drawing its deployment rolled for it: side the
                                  side the roll favoured (om_wm_deploy_decide), v[0] the
                                  method (om_wm_deployment), v[1] and v[2] the scouting
                                  totals of A and B (scouting; else 0) */
    OM_WM_EV_REGALIA,          /* a General's device of power acted (regalia.h): target
                                  the General, unit the first unit ordered (-1: the
                                  Helm, declared for the turn), v[0] the
                                  OM_WM_REGALIA_* bit, v[1] the character whose order it
                                  served, v[2] the number to roll (the Crown's 10, the
                                  Orb's re-roll) and dice the Orb's re-roll, v[3] 1 when
                                  the Crown ceases to work; PASSED when the Sceptre or
                                  the Orb's re-roll passed the order */
    OM_WM_EV_DISPLACED,        /* unit moved into or through the lone enemy character
                                  target (lone.h): v[0] the unit of his side he joined,
                                  or -1: he is slain */
    OM_WM_EV_SCENARIO,         /* a scenario battle, after OM_WM_EV_BATTLE_START (v[0] and
                                  v[1] -1) and after OM_WM_EV_END (v[0] and v[1] the
                                  scenario points of A and B); v[2] the scenario
                                  (om_wm_scenario_kind), v[3] its version */
    OM_WM_EV_KIND_COUNT
} om_wm_event_kind;

/* Flags of a record. */
enum {
    OM_WM_EVF_PASSED = 1u << 0,
    OM_WM_EVF_BLUNDER = 1u << 1,
    OM_WM_EVF_CONFUSED = 1u << 2,
    OM_WM_EVF_DESTROYED = 1u << 3,
    OM_WM_EVF_UNRESOLVED = 1u << 4,
    OM_WM_EVF_WITHDRAWS = 1u << 5,
    OM_WM_EVF_GENERAL_SLAIN = 1u << 6
};

/* An OM_WM_EV_CHARGE record's v[0] for an advance (0: a charge). */
#define OM_WM_CHARGE_ADVANCE 1

/* Why a unit became confused (OM_WM_EV_CONFUSED). */
enum {
    OM_WM_CONFUSED_BURST = 0, /* an evading unit burst through it (Movement > Moving by
                                 Initiative > The path of evaders) */
    OM_WM_CONFUSED_MISFIRE,   /* its own shooting misfired (army lists) */
    OM_WM_CONFUSED_EVADED     /* it evaded through friends and failed its test
                                 (Warmaster Ancients, Movement > The Evade) */
};

/* Values a record carries besides its unit and target. */
#define OM_WM_EVENT_VALUES 4

/* One event. */
typedef struct om_wm_event {
    uint8_t kind;                   /* om_wm_event_kind */
    uint8_t turn;                   /* battle turn (1-based; 0 before the first) */
    uint8_t side;                   /* the side whose turn it is, or the kind's side */
    uint8_t flags;                  /* OM_WM_EVF_* */
    int8_t unit;                    /* a table index, or -1 */
    int8_t target;                  /* a table or character index, or -1 */
    uint8_t dice[2];                /* dice rolled, where the kind says */
    int16_t v[OM_WM_EVENT_VALUES];  /* numbers, as the kind says */
} om_wm_event;

struct om_wm_table;

/*
 * A sink: `cap` records at `ev` (owned by the caller), `n` written, `dropped`
 * that did not fit. `turn` and `side` are the engine's bookkeeping for the
 * records it writes (the battle sets them as turns begin). With `table_at`
 * set, a battle copies its table there at the end of every battle turn up to
 * `table_turn`: after the battle it holds the table at the end of that turn,
 * or of the last turn played if the battle ended sooner; with `table_turn` 0,
 * the table as the battle started (its own terrain on the deployed table).
 */
typedef struct om_wm_trace {
    om_wm_event *ev;              /* room for cap records */
    size_t cap;                   /* records ev holds */
    size_t n;                     /* records written */
    size_t dropped;               /* records that found no room */
    uint8_t turn;                 /* the battle turn being played */
    uint8_t side;                 /* the side whose turn it is */
    struct om_wm_table *table_at; /* the table at the end of table_turn, or NULL */
    uint8_t table_turn;           /* the battle turn whose end table_at keeps */
} om_wm_trace;

/* A record of kind `kind` for unit and target, its values zero, stamped with
 * the sink's turn and side. */
static inline om_wm_event om_wm_event_make(const om_wm_trace *tr, om_wm_event_kind kind,
                                           int unit, int target)
{
    om_wm_event e = {.kind = (uint8_t)kind, .turn = tr->turn, .side = tr->side,
                     .unit = (int8_t)unit, .target = (int8_t)target};
    return e;
}

/* Append e to tr (counted in `dropped` when full). */
static inline void om_wm_trace_put(om_wm_trace *tr, const om_wm_event *e)
{
    if (tr->n < tr->cap)
        tr->ev[tr->n++] = *e;
    else
        tr->dropped++;
}

#endif /* OM_WM_TRACE_H */
