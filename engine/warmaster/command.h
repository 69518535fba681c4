/*
 * command.h: the Warmaster Command phase as pure functions over the table.
 *
 * One call plays the moving side's Command phase of one trial on a caller-owned
 * table (table.h): initiative charges and evades, then orders from each
 * character in a declared order of issue (2D6 against Command less penalties,
 * up to three orders a unit, a failed Hero or Wizard order stops that
 * character, a failed General order ends the phase), brigades, blunders, and
 * confused units recovering at the end. Players' decisions are policies: each
 * unit (or brigade) has a plan naming what it tries to do and which character
 * orders it, so no human decision is needed. Rule-set differences are tables in
 * command.c keyed by om_wm_ruleset_id; ambiguities are named options (the
 * registry below). Sections cited are Warmaster Revolution's (Command;
 * Movement > Moving by Initiative; Generals, Wizards & Heroes) unless another
 * rulebook is named (Warmaster Ancients, Command; Commanders). TURNS.md
 * documents the policies and simplifications.
 */
#ifndef OM_WM_COMMAND_H
#define OM_WM_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "table.h"
#include "trace.h"
#include "wm.h"

/* Most orders one unit or brigade takes in a Command phase: "a unit can be given
 * up to a maximum of three orders" (Command > Giving an Order; Warmaster
 * Ancients, Command > Orders; the 1.1 Rules Update leaves the rule unchanged). */
#define OM_WM_COMMAND_MAX_ORDERS 3

/* What a unit (or brigade) tries to do with its orders. */
typedef enum om_wm_plan_kind {
    OM_WM_PLAN_HOLD = 0, /* no orders */
    OM_WM_PLAN_CHARGE,   /* charge `target` (-1: the closest visible enemy): each order
                            charges it if it is seen and in reach, else moves toward it */
    OM_WM_PLAN_ADVANCE,  /* move toward the point `goal`, or toward unit `target`
                            stopping `keep_cm` from it */
    OM_WM_PLAN_SHOOT,    /* move toward `target` (-1: the closest visible enemy) until
                            it is within shooting range, then hold */
    OM_WM_PLAN_SUPPORT,  /* stand behind the friend `target`, facing as it does, a
                            stand of its front edge on a stand of the friend's rear
                            edge, so that it supports the friend's fight (Combat >
                            Supporting Troops): each order turns it to the friend's
                            facing and moves it straight toward that place */
    OM_WM_PLAN_KIND_COUNT
} om_wm_plan_kind;

/* What a unit does with its initiative (Movement > Moving by Initiative;
 * Warmaster Ancients, Command > Initiative). */
typedef enum om_wm_initiative_policy {
    OM_WM_INITIATIVE_AUTO = 0, /* charge when its plan is a charge at the closest
                                  visible enemy (or at whatever is closest); else wait
                                  for orders */
    OM_WM_INITIATIVE_CHARGE,   /* charge the closest visible enemy within 20cm if it can */
    OM_WM_INITIATIVE_EVADE,    /* evade from it */
    OM_WM_INITIATIVE_NEVER,    /* always wait for orders (unless it must charge) */
    OM_WM_INITIATIVE_COUNT
} om_wm_initiative_policy;

/* A unit's or a brigade's plan: a policy read by the Command phase. */
typedef struct om_wm_plan {
    om_wm_plan_kind kind;               /* what it tries */
    int8_t target;                      /* enemy unit (CHARGE, SHOOT; -1 the closest visible)
                                           or any unit to advance toward (-1: `goal`) */
    om_wm_vec goal;                     /* ADVANCE toward this point when target < 0 */
    double keep_cm;                     /* ADVANCE toward a unit: stop this far from it
                                           (0: the 1cm kept from enemies) */
    int8_t by;                          /* character that orders it (-1: no orders) */
    uint8_t orders;                     /* most orders to give (0: the rules' 3) */
    uint8_t priority;                   /* lower goes first: order of issue within its
                                           character, and order of initiative moves;
                                           ties by unit (then brigade) index */
    om_wm_initiative_policy initiative; /* a unit's initiative (ignored for brigades) */
} om_wm_plan;

/* The order in which characters issue their orders (Generals, Wizards & Heroes >
 * Orders from Wizards & Heroes: "preferable for Heroes and Wizards to issue
 * orders first and the General last, although this is not mandatory"). */
typedef enum om_wm_issue_policy {
    OM_WM_ISSUE_GENERAL_LAST = 0, /* Heroes and Wizards first, in index order; the General last */
    OM_WM_ISSUE_GENERAL_FIRST,    /* the General first, then the others in index order */
    OM_WM_ISSUE_DECLARED,         /* every character in index order */
    OM_WM_ISSUE_COUNT
} om_wm_issue_policy;

/* Interpretations of ambiguous Command rules and the optional rules that change
 * them (registry below). Zero-initialised values are the defaults. */
typedef struct om_wm_command_options {
    bool general_blunders;      /* A1 reading B: a General's 12 is also a blunder (never in
                                   Ancients, whose text says Generals never blunder) */
    bool alternative_blunder;   /* Revolution optional rule: a blunder ends the whole
                                   Command phase, with no table roll */
    bool distance_per_full_20;  /* A2 reading A: -1 per full 20cm (40cm -> -2) instead of
                                   the chart (40cm -> -1) */
} om_wm_command_options;

/* Everything the Command phase of one side needs besides the table. */
/* How far a character moves in the Command phase, on foot or flying
 * (Movement > Character Movement: "up to 60cm, or 100cm if flying"). */
#define OM_WM_CHARACTER_MOVE_CM 60.0
#define OM_WM_CHARACTER_FLY_CM 100.0

typedef struct om_wm_command_setup {
    om_wm_ruleset_id rules;                            /* rule set */
    uint8_t side;                                      /* the moving side, 0 or 1 */
    om_wm_issue_policy issue;                          /* characters' order of issue */
    om_wm_command_options options;                     /* readings of ambiguities */
    om_wm_plan plan[OM_WM_TABLE_MAX_UNITS];            /* by unit index */
    om_wm_plan brigade_plan[OM_WM_TABLE_MAX_BRIGADES]; /* by brigade index; a brigade
                                                          with a plan of kind HOLD or no
                                                          character is not ordered as one
                                                          (its units follow their own) */
    bool take_over;  /* a character also gives, best first, the plans of the characters
                        who stopped before his turn to issue (their units not yet
                        ordered, within his command's reach), as a player may: any
                        character may order any unit in his range, and only a unit
                        that failed an order is barred from another (Command >
                        Orders); false: each character gives only the plans naming
                        him */
    uint8_t refollow[OM_WM_TABLE_MAX_CHARACTERS]; /* by character: 0 keeps the unit he
                        follows; k + 1 makes him follow unit k from this phase on, so
                        that he moves to join it at the end of the Command phase
                        (Movement > Character Movement) */
} om_wm_command_setup;

/* A blunder's result (Generals, Wizards & Heroes > Blunders; Warmaster Ancients,
 * Commanders > Blunder Table). */
typedef enum om_wm_blunder {
    OM_WM_BLUNDER_NONE = 0,
    OM_WM_BLUNDER_HALT,       /* 1 "You must be crazy!" / "The gods forbid!": halts, -1
                                 Command for the rest of the battle */
    OM_WM_BLUNDER_FALL_BACK,  /* 2-3 "Blimey Sir!" / "Our foe is upon us!": moves a full
                                 pace away from visible enemies within a full pace */
    OM_WM_BLUNDER_HALF_PACE,  /* 4-5 "No sense in getting killed" / "Our foe is mighty":
                                 half pace, no charge */
    OM_WM_BLUNDER_CHARGE,     /* 6 "Up and 'at 'em" / 6-7 "The gods are with us": full pace
                                 at the nearest enemy, charging it if possible */
    OM_WM_BLUNDER_ENDS_PHASE, /* the optional alternative rule: the phase ends */
    OM_WM_BLUNDER_COUNT
} om_wm_blunder;

/* How a unit used its initiative. */
typedef enum om_wm_initiative_move {
    OM_WM_MOVED_NO_INITIATIVE = 0,
    OM_WM_MOVED_CHARGE,
    OM_WM_MOVED_EVADE,
} om_wm_initiative_move;

/* Why a character stopped issuing orders. */
typedef enum om_wm_stop {
    OM_WM_STOP_DONE = 0,    /* it gave every order its plans asked for */
    OM_WM_STOP_FAILED,      /* an order failed */
    OM_WM_STOP_BLUNDERED,   /* an order failed with a blunder */
    OM_WM_STOP_PHASE_ENDED, /* the General failed (or a blunder ended the phase) first */
} om_wm_stop;

/* How the ordering ended. */
typedef enum om_wm_phase_end {
    OM_WM_PHASE_COMPLETE = 0, /* every character went through its plans */
    OM_WM_PHASE_GENERAL_FAILED,
    OM_WM_PHASE_BLUNDER,      /* the alternative blunder rule */
} om_wm_phase_end;

/* What happened to one unit in the phase. */
typedef struct om_wm_command_unit {
    uint8_t tests;        /* order tests taken for it (a brigade's test counts for each) */
    uint8_t orders;       /* of those, passed */
    int8_t by;            /* character that ordered it, or -1 */
    uint8_t initiative;   /* om_wm_initiative_move */
    uint8_t charged;      /* 1 if it charged (initiative, order or blunder) */
    int8_t charge_target; /* the unit it charged, or -1 */
    uint8_t charge_face;  /* om_wm_table_face it contacted */
    uint8_t blunder;      /* om_wm_blunder that befell it */
    uint8_t blunder_die;  /* the blunder die with any Subordinate's +1 (0: none rolled) */
    uint8_t burst;        /* 1 if an evader burst through it (confused, The path of
                             evaders) */
    uint8_t recovered;    /* 1 if it was confused and recovered at the end of the phase */
    double moved_cm;      /* distance its centre moved in the phase */
} om_wm_command_unit;

/* What one character did. */
typedef struct om_wm_command_character {
    uint8_t tests;  /* order tests it took */
    uint8_t passed; /* of those, passed */
    uint8_t stop;   /* om_wm_stop */
} om_wm_command_character;

/* The outcome of one Command phase. */
typedef struct om_wm_command_result {
    om_wm_command_unit unit[OM_WM_TABLE_MAX_UNITS];
    om_wm_command_character character[OM_WM_TABLE_MAX_CHARACTERS];
    int8_t general;          /* the moving side's General, or -1 */
    uint8_t general_tests;   /* orders the General tried */
    uint8_t general_passed;  /* of those, passed: how far his chain got */
    uint8_t ended;           /* om_wm_phase_end */
    uint8_t charges;         /* units that charged */
    uint8_t regalia;         /* the General's devices of power that acted in the phase
                                (OM_WM_REGALIA_* bits, regalia.h) */
} om_wm_command_result;

/*
 * om_wm_command_check: validate the setup against a table that has passed
 * om_wm_table_check: the side and policies, every plan of the moving side (a
 * known kind, a target that is an enemy on the table for CHARGE and SHOOT, at
 * most 3 orders, a character of that side able to reach the unit, or every unit
 * of a brigade, from where it stands: Heroes 60cm, Wizards 20cm, Ancients
 * Generals 100cm, flyers only from 20cm), and the options (general_blunders
 * is refused under Ancients). Returns OM_OK or OM_EINVAL after filling `why`
 * (if not NULL) with the dotted path ("plans[3].by", "brigade_plans[0].by",
 * "side", ...) and the reason, raising "field 'PATH': REASON". Pure.
 */
om_status om_wm_command_check(const om_wm_command_setup *s, const om_wm_table *t,
                              om_wm_check_failure *why);

/*
 * om_wm_command_phase: play the moving side's Command phase on `t` with dice
 * `d`: initiative moves, ordered moves, characters' moves (a character with a
 * `follow` unit moves up to 60cm, 100 flying, to join it), and recovery of the
 * side's confused units. Updates units' positions, confusion, charged flags and
 * permanent blunder penalties in `t`; writes what happened to `out` (its
 * entries for the table's units and characters; the rest of its arrays is
 * left as it was). `s` and `t` must have passed their checks. No allocation; pure apart from advancing
 * `d` and writing `t` and `out`; thread-safe on distinct tables and dice.
 */
void om_wm_command_phase(const om_wm_command_setup *s, om_wm_table *t, om_dice *d,
                         om_wm_command_result *out);

/*
 * om_wm_command_move_as_ordered: unit u of `s`'s moving side moves once as if
 * it had passed an order in the Command phase (a spell: Voice of Command), by
 * its own plan in `s` (a charge, an advance, a move into range), alone (never
 * with its brigade), with no Command test; its move and charge are added to
 * `out` as the phase's. Returns whether it moved or charged.
 * om_wm_command_may_move_as_ordered: whether it may: a unit of the moving
 * side, planned to do more than hold, its plan not done, free to move (not
 * engaged, confused or charged already). Both pure apart from `t` and `out`;
 * no allocation, no dice.
 */
bool om_wm_command_may_move_as_ordered(const om_wm_command_setup *s, const om_wm_table *t,
                                       unsigned u);
bool om_wm_command_move_as_ordered(const om_wm_command_setup *s, om_wm_table *t, unsigned u,
                                   om_wm_command_result *out);

/* om_wm_command_phase with its events (initiative moves, order tests with
 * their dice, blunders, recoveries) appended to `trace` (trace.h), or none
 * when it is NULL: the same dice drawn in the same order, the same table and
 * result. */
void om_wm_command_phase_traced(const om_wm_command_setup *s, om_wm_table *t, om_dice *d,
                                om_wm_command_result *out, om_wm_trace *trace);

/* ---- Rule arithmetic, exposed for tests and for the orchestrator ---- */

/* The Command penalties of one order test, and the number to roll. */
typedef struct om_wm_command_test {
    uint8_t distance;    /* per full 20cm (the chart, A2), to the most distant unit */
    uint8_t successive;  /* 2nd order -1, 3rd -2; Ancients Slow one more */
    uint8_t enemy_close; /* the closest enemy unit within 20cm, seen or not */
    uint8_t exposed;     /* Ancients: an enemy within 20cm in a side or rear zone with no
                            friend touching that edge */
    uint8_t dense;       /* any stand in dense terrain */
    uint8_t casualties;  /* stands lost (the unit that lost the most) */
    uint8_t blunders;    /* permanent blunder penalties (the largest) */
    uint8_t unreliable;  /* Ancients Unreliable */
    uint8_t bonus;       /* Ancients: +1 for a brigade of 3-4 warbands (to at most 10) */
    uint8_t spell;       /* spells lasting from the enemy's turn (magic.h: Eerie Mist on
                            a unit, Anger of the Gods around its Sorcerer) */
    int target;          /* Command + bonus - penalties: the order passes on 2D6 <= target */
} om_wm_command_test;

/*
 * om_wm_command_test_for: the penalties and target of an order from character
 * `c` to the `n` units `u` (one unit, or a brigade) as its `order`-th order
 * this phase (1-3), with the table as it stands (Command > Command Penalties;
 * Brigades; Warmaster Ancients, Command > Command Penalties; Brigade Orders).
 * Pure.
 */
void om_wm_command_test_for(const om_wm_command_setup *s, const om_wm_table *t, unsigned c,
                            const unsigned *u, unsigned n, unsigned order,
                            om_wm_command_test *out);

/* The distance penalty for `cm` between character and unit: none up to 20cm,
 * then -1 per 20cm band of the chart (ceil(cm/20) - 1), or per full 20cm
 * (floor(cm/20)) with the A2 option. */
unsigned om_wm_command_distance_penalty(double cm, bool per_full_20);

/* A character kind's command range in cm under a rule set (INFINITY: the whole
 * battlefield), and whether it may order a unit `cm` away (a flyer: 20cm). */
double om_wm_command_range_cm(om_wm_ruleset_id rules, om_wm_character_kind kind);
bool om_wm_command_in_range(om_wm_ruleset_id rules, om_wm_character_kind kind, bool flyer,
                            double cm);

/* Whether a failed order by a character of `kind` rolling `roll` on 2D6 is a
 * blunder (12 by a Hero or Wizard; a General's only with general_blunders, and
 * never in Ancients). */
bool om_wm_command_is_blunder(om_wm_ruleset_id rules, const om_wm_command_options *o,
                              om_wm_character_kind kind, unsigned roll);

/* The blunder table: the result of a die already modified by the Subordinate's
 * +1 (1-7). */
om_wm_blunder om_wm_command_blunder_of(om_wm_ruleset_id rules, unsigned die);

/* Roll the blunder die for a character of `kind` (Ancients Subordinates add 1)
 * and return the result; the modified die goes to *die if not NULL. */
om_wm_blunder om_wm_command_roll_blunder(om_wm_ruleset_id rules, om_wm_character_kind kind,
                                         om_dice *d, unsigned *die);

/*
 * om_wm_command_support_spot: where unit u's centre stands, facing as friend
 * f faces, to support f from behind (Combat > Supporting Troops): the middle
 * stand of u's front row edge to edge with, and exactly behind, the middle
 * stand of f's rear row (C7 of command.c). Only geometry: whether u may
 * support f, and whether the place is clear, are the caller's. Pure;
 * thread-safe.
 */
om_wm_vec om_wm_command_support_spot(const om_wm_table *t, unsigned u, unsigned f);

/* The offsets from a unit's centre, along its facing and to its right, of the
 * stands om_wm_command_support_spot places by: its front row's middle stand
 * (front_*) and its rear row's (rear_*). */
typedef struct om_wm_edge_stands {
    double front_fwd, front_right, rear_fwd, rear_right;
} om_wm_edge_stands;

/*
 * om_wm_command_edge_stand: unit un's front (rear false) or rear edge stand's
 * offsets (om_wm_edge_stands), into *fwd and *right.
 * om_wm_command_support_spot_of: om_wm_command_support_spot from u's front
 * edge stand (eu->front_*) and f's rear one (ef->rear_*), worked out
 * beforehand for them as they stand: bit for bit the same spot; a caller
 * asking for many pairs works each unit's out once. Pure; thread-safe.
 */
void om_wm_command_edge_stand(const om_wm_table_unit *un, bool rear, double *fwd, double *right);
om_wm_vec om_wm_command_support_spot_of(const om_wm_table *t, unsigned u, unsigned f,
                                        const om_wm_edge_stands *eu,
                                        const om_wm_edge_stands *ef);

/*
 * om_wm_command_support_place: where unit u goes to support friend f (C7 of
 * command.c): behind f (om_wm_command_support_spot) when u could stand there
 * (om_wm_table_place_clear, touching no enemy) or when f fights no enemy;
 * else beside f (Combat > Supporting Troops: a stand "exactly beside" a stand
 * that fights to its front): the end stand of u's front row side edge to side
 * edge with the end stand of f's front row, level with it, facing as f faces,
 * on f's right, else its left, the first where u could stand touching no
 * enemy; neither: behind, as before. Pure; thread-safe.
 */
om_wm_vec om_wm_command_support_place(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u,
                                      unsigned f);

/* Names as scenario files write them, by enumeration. */
extern const char *const om_wm_plan_names[];       /* "hold", "charge", "advance", "shoot",
                                                      "support" */
extern const char *const om_wm_initiative_names[]; /* "auto", "charge", "evade", "never" */
extern const char *const om_wm_issue_names[];      /* "general-last", "general-first",
                                                      "declared" */
extern const char *const om_wm_blunder_names[];    /* "none", "halt", "fall-back", ... */

/* ---- The Command options registry (shaped like options.c) ---- */

/* The registry of the Command phase's readings (command.c; options.h). */
extern const om_option_table om_wm_command_option_registry;

/* Number of Command options and fixed readings, the i-th, lookup by name. */
size_t om_wm_command_option_count(void);
const om_wm_option *om_wm_command_option_at(size_t i);
const om_wm_option *om_wm_command_option_find(const char *name);

/* Set option `name` from "true"/"false". Errors: OM_ENOTFOUND (unknown),
 * OM_EINVAL (a fixed reading, or a value other than true or false). */
om_status om_wm_command_option_set(om_wm_command_options *o, const char *name,
                                   const char *value);

/* The value of `opt` in `o` as text: "true", "false" or "fixed". */
const char *om_wm_command_option_value(const om_wm_command_options *o, const om_wm_option *opt);

#endif /* OM_WM_COMMAND_H */
