/*
 * command.c: the Warmaster Command phase (Warmaster Revolution, Command;
 * Generals, Wizards & Heroes; the Warmaster 1.1 Rules Update, P17 to P23;
 * Warmaster Ancients, Command; Commanders): initiative, orders, penalties,
 * brigades, blunders, evades and recovery, as pure functions over the table.
 * Sections cited are Warmaster Revolution's unless another rulebook is named.
 *
 * The phase runs in named steps: initiative moves, then each character's
 * orders in the declared order of issue, then characters' moves, then the
 * recovery of confused units. Every decision a player would make is read from
 * the plans (command.h). Rule-set differences are the table `command_rules_of`
 * below, keyed by om_wm_ruleset_id (the phase's differences stay with the
 * phase, as the table model's do in table.c, rather than in om_wm_ruleset);
 * ambiguities are the options registry at the end. Policies and
 * simplifications are listed in TURNS.md:
 *  C1 A unit stops taking orders when its plan is done (charged, at its goal,
 *     in range) or when a move gets it nowhere (under 0.1cm).
 *  C2 A brigade is ordered as one body for all its orders; units whose plan is
 *     a charge peel off when they can reach, the rest move as one body at the
 *     slowest unit's pace; a unit cut off from the body by a peeling charger
 *     halts. Brigades are never split into separately ordered groups.
 *  C3 Brigade members with a brigade plan do not use initiative (unless they
 *     must charge).
 *  C4 Ordered moves go straight toward the plan's goal (table.c T2), stopping
 *     1cm short of enemies; evades go straight away from the closest visible
 *     enemy along the line of the closest points, at full pace, stopping at the
 *     clearance the rule set demands from enemies.
 *  C7 A unit ordered to support a friend turns in place to the friend's facing
 *     (when the turned unit stands clear) and moves straight, without turning
 *     again, toward the place behind the friend where a stand of its front edge
 *     lies exactly behind a stand of the friend's rear edge (Combat >
 *     Supporting Troops); when it could not stand there (a unit or closed
 *     terrain in the place, or an enemy touching it) and the friend fights,
 *     toward the place exactly beside the end stand of the friend's front row,
 *     level with it, on its right or else its left, where it could stand
 *     touching no enemy ("exactly behind or exactly beside"); the place is
 *     worked out afresh for each order, the friend being where it is then.
 */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "command.h"
#include "command_int.h"
#include "lone.h"
#include "magic.h"
#include "regalia.h"

/* Initiative reach: "units within 20cm of the enemy" (Command > Initiative
 * Movement; Movement > Moving by Initiative). */
#define INITIATIVE_CM 20.0

/* Rounding allowed for above a charge's pace when ruling one out early
 * (om_wm_table_charge_plan allows 1e-9cm). */
#define CHARGE_REACH_SLACK_CM 1e-6
/* Rounding allowed for when the boxes' gap rules an enemy out of a reach (the
 * closest visible enemy within a reach allows 1e-9cm). */
#define BOX_REACH_SLACK_CM 1e-6
/* "Closest enemy unit within 20cm" (Command > Command Penalties) and the
 * exposed flank's reach (Warmaster Ancients, Command > Command Penalties). */
#define ENEMY_CLOSE_CM 20.0
/* The best Command value there is; Ancients' warband bonus stops at it
 * (Warmaster Ancients, Command > Brigade Orders; Special Rules > Warband). */
#define MAX_COMMAND 10
/* Ordered moves stop this far short of enemies (C4, table.c T3). */
#define ORDER_ENEMY_GAP_CM 1.0
/* A move shorter than this got nowhere (C1). */
#define STUCK_CM 0.1
/* A unit this close to its goal point has reached it (C1). */
#define GOAL_REACHED_CM 0.5
/* Units face the same way when their facings' cosine is at least this (the
 * table's reading of "facing the same direction" for supports: a tenth of a
 * degree, table.c stand_support). */
#define SAME_FACING 0.9999985
/* Stands whose centres lie within this of each other along the unit's facing
 * stand in one row (rows are a stand's depth, 1cm or more, apart). */
#define SAME_ROW_CM 0.01
/* A shooter stops this much inside its range, so "within range" holds after
 * rounding. */
#define RANGE_MARGIN_CM 0.1
/* Evades move at least 1cm (Movement > Moving by Initiative > The path of
 * evaders; Warmaster Ancients, Movement > The Evade). */
#define EVADE_MIN_CM 1.0
/* A D6 of 6 confuses in the Ancients skirmishers' evade tests (Warmaster
 * Ancients, Movement > The Evade; Confusion). */
#define CONFUSION_ROLL 6
/* The roll that blunders: a 12, a double 6 (Generals, Wizards & Heroes >
 * Blunders). */
#define BLUNDER_ROLL 12

/* Rule-set differences of the Command phase. */
typedef struct command_rules {
    double range_cm[OM_WM_CHARACTER_KIND_COUNT]; /* General, Hero, Wizard (INFINITY: all) */
    double flyer_range_cm;          /* flyers are ordered only from this close
                                       (Flying Units > Orders) */
    bool general_never_blunders;    /* "Generals never blunder" (Warmaster
                                       Ancients, Commanders > Commanders and
                                       Orders > Blunders) */
    uint8_t blunder_bonus[OM_WM_CHARACTER_KIND_COUNT]; /* Ancients Subordinate +1 */
    om_wm_blunder table[8];         /* blunder result by modified die 1..7 */
    bool blunder_charge_needs_sight; /* Ancients 6-7: nearest *visible* enemy; none
                                        visible: move as for a successful order */
    bool fall_back_halts_if_unable; /* Revolution 2-3: "if unable to comply, a unit
                                       halts"; Ancients: as far as it can */
    bool exposed_flank;             /* penalty 5 of Warmaster Ancients, Command >
                                       Command Penalties */
    bool traits_count;              /* Slow, Unreliable, Warband (Warmaster Ancients,
                                       Command > Command Penalties; Brigade Orders) */
    bool initiative_ignores_fortified; /* Revolution and 1.1 may ignore fortified
                                          infantry and artillery (Movement >
                                          Moving by Initiative) */
    bool artillery_initiative_charge;  /* Ancients lists no artillery exception */
    bool evade_burst_through;       /* Revolution: evaders burst through friends, which
                                       are confused (The path of evaders); Warmaster
                                       Ancients: skirmishers only, with tests
                                       (Movement > The Evade) */
    double evade_clearance_cm;      /* end an evade this far from enemies and engaged
                                       units: 5cm (Revolution), 1cm (Ancients) */
    bool skirmish_charges_all_round; /* Ancients skirmishers charge to any side
                                        (Warmaster Ancients, Special Rules >
                                        Skirmish) */
} command_rules;

/* The 1.1 Rules Update does not reprint the Command rules it leaves unchanged,
 * and the 1.0 rulebook it corrects is not among the sources: where the Update
 * is silent (the blunder trigger and table, the evade clearance) 1.1 follows
 * the Revolution text, a fixed reading. */
static const command_rules command_rules_of[OM_WM_RULES_COUNT] = {
    [OM_WM_RULES_WM11] = {
        .range_cm = {INFINITY, 60, 20}, .flyer_range_cm = 20,
        .table = {OM_WM_BLUNDER_NONE, OM_WM_BLUNDER_HALT, OM_WM_BLUNDER_FALL_BACK,
                  OM_WM_BLUNDER_FALL_BACK, OM_WM_BLUNDER_HALF_PACE, OM_WM_BLUNDER_HALF_PACE,
                  OM_WM_BLUNDER_CHARGE, OM_WM_BLUNDER_CHARGE},
        .fall_back_halts_if_unable = true, .initiative_ignores_fortified = true,
        .evade_burst_through = true, .evade_clearance_cm = 5,
    },
    [OM_WM_RULES_REV] = {
        .range_cm = {INFINITY, 60, 20}, .flyer_range_cm = 20,
        .table = {OM_WM_BLUNDER_NONE, OM_WM_BLUNDER_HALT, OM_WM_BLUNDER_FALL_BACK,
                  OM_WM_BLUNDER_FALL_BACK, OM_WM_BLUNDER_HALF_PACE, OM_WM_BLUNDER_HALF_PACE,
                  OM_WM_BLUNDER_CHARGE, OM_WM_BLUNDER_CHARGE},
        .fall_back_halts_if_unable = true, .initiative_ignores_fortified = true,
        .evade_burst_through = true, .evade_clearance_cm = 5,
    },
    [OM_WM_RULES_WMA] = {
        .range_cm = {100, 60, 20}, .flyer_range_cm = 20, .general_never_blunders = true,
        .blunder_bonus = {0, 0, 1},
        .table = {OM_WM_BLUNDER_NONE, OM_WM_BLUNDER_HALT, OM_WM_BLUNDER_FALL_BACK,
                  OM_WM_BLUNDER_FALL_BACK, OM_WM_BLUNDER_HALF_PACE, OM_WM_BLUNDER_HALF_PACE,
                  OM_WM_BLUNDER_CHARGE, OM_WM_BLUNDER_CHARGE},
        .blunder_charge_needs_sight = true, .exposed_flank = true, .traits_count = true,
        .artillery_initiative_charge = true, .evade_clearance_cm = 1,
        .skirmish_charges_all_round = true,
    },
};

static const command_rules *rules_of(om_wm_ruleset_id id)
{
    return &command_rules_of[(unsigned)id < OM_WM_RULES_COUNT ? id : OM_WM_RULES_REV];
}

const char *const om_wm_plan_names[OM_WM_PLAN_KIND_COUNT] = {"hold", "charge", "advance",
                                                             "shoot", "support"};
const char *const om_wm_initiative_names[OM_WM_INITIATIVE_COUNT] = {"auto", "charge", "evade",
                                                                    "never"};
const char *const om_wm_issue_names[OM_WM_ISSUE_COUNT] = {"general-last", "general-first",
                                                          "declared"};
const char *const om_wm_blunder_names[OM_WM_BLUNDER_COUNT] = {
    "none", "halt", "fall-back", "half-pace", "charge", "ends-phase"};

/* ---- Arithmetic ---- */

unsigned om_wm_command_distance_penalty(double cm, bool per_full_20)
{
    const double band = 20.0; /* Command > Command Penalties: per 20cm, none up to 20cm */
    if (cm <= band)
        return 0;
    if (per_full_20)
        return (unsigned)floor(cm / band);
    return (unsigned)ceil(cm / band) - 1u;
}

double om_wm_command_range_cm(om_wm_ruleset_id rules, om_wm_character_kind kind)
{
    return rules_of(rules)->range_cm[(unsigned)kind < OM_WM_CHARACTER_KIND_COUNT ? kind : 0];
}

bool om_wm_command_in_range(om_wm_ruleset_id rules, om_wm_character_kind kind, bool flyer,
                            double cm)
{
    double range = om_wm_command_range_cm(rules, kind);
    if (flyer)
        range = fmin(range, rules_of(rules)->flyer_range_cm);
    return cm <= range + 1e-9;
}

bool om_wm_command_is_blunder(om_wm_ruleset_id rules, const om_wm_command_options *o,
                              om_wm_character_kind kind, unsigned roll)
{
    if (roll != BLUNDER_ROLL)
        return false;
    if (kind != OM_WM_GENERAL)
        return true;
    return o->general_blunders && !rules_of(rules)->general_never_blunders;
}

om_wm_blunder om_wm_command_blunder_of(om_wm_ruleset_id rules, unsigned die)
{
    return die >= 1 && die <= 7 ? rules_of(rules)->table[die] : OM_WM_BLUNDER_NONE;
}

om_wm_blunder om_wm_command_roll_blunder(om_wm_ruleset_id rules, om_wm_character_kind kind,
                                         om_dice *d, unsigned *die)
{
    unsigned k = (unsigned)kind < OM_WM_CHARACTER_KIND_COUNT ? (unsigned)kind : 0;
    unsigned roll = om_dice_roll_d6(d) + rules_of(rules)->blunder_bonus[k];
    if (die)
        *die = roll;
    return om_wm_command_blunder_of(rules, roll);
}

/* Whether an enemy within 20cm lies in a side or rear zone of unit u with no
 * friend touching that edge (Warmaster Ancients, Command > Command Penalties,
 * penalty 5; the enemy's centre decides its zone, as for charges, table.c T5). */
static bool exposed_flank(const om_wm_table *t, unsigned u)
{
    for (unsigned k = 0; k < t->units; k++) {
        om_wm_table_face z;
        if (!t->unit[k].present || t->unit[k].side == t->unit[u].side ||
            om_wm_table_distance(t, u, k) > ENEMY_CLOSE_CM + 1e-9)
            continue;
        z = om_wm_table_zone(&t->unit[u], t->unit[k].centre);
        if (z != OM_WM_TABLE_FRONT && !om_wm_table_face_covered(t, u, z))
            return true;
    }
    return false;
}

/* Whether an enemy's box lies within `cm` (and a rounding's slack) of unit
 * u's: the gap between two boxes is a lower bound of the distance between
 * what they bound, so when none does, no enemy is within `cm` and the
 * closest visible enemy within that reach is none, without asking. */
static bool enemy_box_within(const om_wm_table *t, unsigned u, double cm)
{
    const om_wm_table_unit *un = &t->unit[u];
    const om_plane_box *a = &un->geom.shape.box;
    const double reach = cm + BOX_REACH_SLACK_CM;
    for (unsigned k = 0; k < t->units; k++) {
        const om_plane_box *b = &t->unit[k].geom.shape.box;
        bool within;
        if (!t->unit[k].present || t->unit[k].side == un->side)
            continue;
        /* om_plane_box_gap(*a, *b) <= reach: each of the four gaps whose
         * greatest it is within the reach. */
        within = a->x0 - b->x1 <= reach && b->x0 - a->x1 <= reach && a->y0 - b->y1 <= reach &&
                 b->y0 - a->y1 <= reach;
        assert(within == (om_plane_box_gap(*a, *b) <= reach));
        if (within)
            return true;
    }
    return false;
}

/* Kinds of the answers the Command phase keeps in the table's memo. */
enum { RECALL_TEST = 1 };

static void test_for(const om_wm_command_setup *s, const om_wm_table *t, unsigned c,
                     const unsigned *u, unsigned n, unsigned order, om_wm_command_test *out);
static void spell_penalty(const om_wm_table *t, const unsigned *u, unsigned n,
                          om_wm_command_test *out);

void om_wm_command_test_for(const om_wm_command_setup *s, const om_wm_table *t, unsigned c,
                            const unsigned *u, unsigned n, unsigned order,
                            om_wm_command_test *out)
{
    /* The test reads the units on the table and, besides them, what the key
     * holds: the character (its place, base, Command and kind), the units
     * ordered, the order, their sizes and blunder penalties, the rule set and
     * the distance option. */
    const om_wm_table_character *ch = &t->character[c];
    uint64_t key[OM_WM_TABLE_RECALL_KEYS] = {0};
    memset(out, 0, sizeof *out);
    if (t->memo != NULL && n <= OM_WM_BRIGADE_MAX_UNITS && c < 256 && order < 16) {
        uint64_t penalties = 0;
        key[0] = c | (uint64_t)n << 8 | (uint64_t)order << 12;
        for (unsigned i = 0; i < n; i++) {
            const om_wm_table_unit *un = &t->unit[u[i]];
            key[0] |= (uint64_t)(u[i] & 0xffu) << (16 + 8 * i);
            penalties |= ((uint64_t)un->blunder_penalty | (uint64_t)(un->size & 0xfu) << 8)
                         << (12 * i);
        }
        memcpy(&key[1], &ch->at.x, sizeof key[1]);
        memcpy(&key[2], &ch->at.y, sizeof key[2]);
        memcpy(&key[3], &ch->radius_cm, sizeof key[3]);
        key[4] = penalties | (uint64_t)ch->command << 48 | (uint64_t)(ch->kind & 0x3) << 56 |
                 (uint64_t)(s->options.distance_per_full_20 ? 1 : 0) << 58 |
                 (uint64_t)(s->rules & 0x3) << 59;
        if (!om_wm_table_recall(t, RECALL_TEST, key, out, sizeof *out)) {
            test_for(s, t, c, u, n, order, out);
            om_wm_table_remember(t, RECALL_TEST, key, out, sizeof *out);
        }
        spell_penalty(t, u, n, out);
        return;
    }
    test_for(s, t, c, u, n, order, out);
    spell_penalty(t, u, n, out);
}

/* The test of an order, worked out. */
static void test_for(const om_wm_command_setup *s, const om_wm_table *t, unsigned c,
                     const unsigned *u, unsigned n, unsigned order, om_wm_command_test *out)
{
    const command_rules *r = rules_of(s->rules);
    const om_wm_table_character *ch = &t->character[c];
    double far_cm = 0;
    unsigned warbands = 0;
    bool slow = false;
    int command = ch->command;
    memset(out, 0, sizeof *out);
    for (unsigned i = 0; i < n; i++) {
        const om_wm_table_unit *un = &t->unit[u[i]];
        unsigned lost = un->size > un->stands ? (unsigned)(un->size - un->stands) : 0u;
        /* Brigades: the most distant unit; every other penalty once; the unit
         * that lost the most stands (Command > Command Penalties; Brigades);
         * the largest permanent penalty. */
        far_cm = fmax(far_cm, om_wm_table_character_distance(t, c, u[i]));
        /* Once one unit has an enemy close, the others' cannot add to it;
         * with no enemy's box that close, no enemy is (enemy_box_within). */
        if (!out->enemy_close && enemy_box_within(t, u[i], ENEMY_CLOSE_CM) &&
            om_wm_table_enemy_within(t, u[i], ENEMY_CLOSE_CM))
            out->enemy_close = 1;
        assert(out->enemy_close || !om_wm_table_enemy_within(t, u[i], ENEMY_CLOSE_CM));
        if (om_wm_table_in_dense(t, u[i]))
            out->dense = 1;
        if (lost > out->casualties)
            out->casualties = (uint8_t)lost;
        if (un->blunder_penalty > out->blunders)
            out->blunders = un->blunder_penalty;
        if (r->exposed_flank && exposed_flank(t, u[i]))
            out->exposed = 1;
        if (r->traits_count) {
            slow = slow || (un->traits & OM_WM_TABLE_TRAIT_SLOW);
            if (un->traits & OM_WM_TABLE_TRAIT_UNRELIABLE)
                out->unreliable = 1;
            if (un->traits & OM_WM_TABLE_TRAIT_WARBAND)
                warbands++;
        }
    }
    out->distance = (uint8_t)om_wm_command_distance_penalty(far_cm, s->options.distance_per_full_20);
    out->successive = (uint8_t)(order > 1 ? order - 1 + (slow ? 1 : 0) : 0);
    /* A brigade made entirely of 3 or 4 warbands: +1, to at most 10. */
    if (n >= 3 && warbands == n && command < MAX_COMMAND) {
        out->bonus = 1;
        command += 1;
    }
    out->target = command - out->distance - out->successive - out->enemy_close - out->exposed -
                  out->dense - out->casualties - out->blunders - out->unreliable;
}

/* The penalty of lasting spells (magic.h), outside the memo: it changes
 * from turn to turn where the table does not. */
static void spell_penalty(const om_wm_table *t, const unsigned *u, unsigned n,
                          om_wm_command_test *out)
{
    const unsigned spell = om_wm_lasting_command(t, u, n);
    out->spell = (uint8_t)spell;
    out->target -= (int)spell;
}

/* ---- The phase's working state ---- */

/* One unit or a brigade receiving orders together. */
typedef struct group {
    unsigned n;
    unsigned u[OM_WM_BRIGADE_MAX_UNITS];
} group;

typedef struct phase {
    const om_wm_command_setup *s;
    const command_rules *r;
    om_wm_table *t;
    om_dice *d;
    om_wm_command_result *out;
    om_wm_trace *trace; /* where its events go, or NULL (a run) */
    bool over; /* no more orders: the General failed, or a blunder ended the phase */
    /* The units of brigades with a brigade plan (C3), found once: the plans
     * and the brigades stay as they are through the phase. */
    om_wm_unit_set brigaded;
} phase;

static bool is_skirmish(const om_wm_table_unit *u)
{
    return (u->traits & OM_WM_TABLE_TRAIT_SKIRMISH) != 0;
}

static bool is_flyer(const om_wm_table_unit *u)
{
    return (u->traits & OM_WM_TABLE_TRAIT_FLYER) != 0;
}

/* Whether unit u sees all round (for evades and shooting: 360-degree vision or
 * Ancients skirmishers). */
static bool sees_all_round(const om_wm_table_unit *u)
{
    return (u->traits & (OM_WM_TABLE_TRAIT_ALL_ROUND | OM_WM_TABLE_TRAIT_SKIRMISH)) != 0;
}

/* Whether unit u may charge something beside or behind it: only Ancients
 * skirmishers (Revolution: "even a unit that can see all round cannot use its
 * initiative to charge an enemy unless..." its front edge sees it, Movement >
 * Moving by Initiative). */
static bool charges_all_round(const phase *p, const om_wm_table_unit *u)
{
    return p->r->skirmish_charges_all_round && is_skirmish(u);
}

/* Whether unit u may still move in this phase: on the table, not confused,
 * not engaged, not already charged. */
static bool free_to_move(const phase *p, unsigned u)
{
    const om_wm_table_unit *un = &p->t->unit[u];
    return un->present && !un->confused && !un->charged && !om_wm_table_engaged(p->t, u);
}

static void add_moved(phase *p, unsigned u, om_wm_vec from)
{
    om_wm_vec to = p->t->unit[u].centre;
    p->out->unit[u].moved_cm += hypot(to.x - from.x, to.y - from.y);
    /* Lone enemy characters in its way are displaced or slain (lone.c). */
    om_wm_lone_moved(p->t, u, from, p->trace);
}

/* A non-charging move of unit u toward `goal`, at most `max_cm` (C4). */
static double move_toward(phase *p, unsigned u, om_wm_vec goal, double max_cm, int keep_from,
                          double keep_cm)
{
    om_wm_table_move_rule rule = {.enemy_gap_cm = ORDER_ENEMY_GAP_CM, .target = keep_from,
                                  .keep_cm = keep_cm, .turn = true, .round = true};
    om_wm_vec from = p->t->unit[u].centre;
    double moved = om_wm_table_move(p->t, p->s->rules, u, goal, max_cm, &rule, NULL);
    add_moved(p, u, from);
    return moved;
}

/* Charge unit u into `target` if it sees it and can reach it (Command > Charge!;
 * Combat > Moving Chargers). */
static bool try_charge(phase *p, unsigned u, int target)
{
    om_wm_table *t = p->t;
    om_wm_table_charge ch;
    om_wm_vec from = t->unit[u].centre;
    if (target < 0 || !t->unit[target].present || t->unit[target].side == t->unit[u].side ||
        (t->unit[u].traits & OM_WM_TABLE_TRAIT_NO_CHARGE) || !om_wm_lasting_may_charge(t, u))
        return false;
    /* A charge's farthest-moving corner moves at least the gap between the
     * two units' boxes: beyond a pace of it, no charge reaches (the answer
     * om_wm_table_charge_plan would give, without its cost). */
    if (om_plane_box_gap(t->unit[u].geom.shape.box, t->unit[target].geom.shape.box) >
        om_wm_table_charge_pace(t, p->s->rules, u) + CHARGE_REACH_SLACK_CM)
        return false;
    if (!om_wm_table_sees(t, p->s->rules, u, (unsigned)target, charges_all_round(p, &t->unit[u])))
        return false;
    om_wm_table_charge_plan(t, p->s->rules, u, (unsigned)target,
                            om_wm_table_charge_pace(t, p->s->rules, u), &ch);
    if (!ch.possible || !ch.reaches)
        return false;
    t->unit[u].centre = ch.centre;
    t->unit[u].dir = ch.dir;
    om_wm_table_update(t, u);
    t->unit[u].charged = true;
    add_moved(p, u, from);
    p->out->unit[u].charged = 1;
    p->out->unit[u].charge_target = (int8_t)target;
    p->out->unit[u].charge_face = (uint8_t)ch.face;
    p->out->charges++;
    return true;
}

/* The enemy a plan aims at: its target, or the closest visible enemy. */
static int plan_target(const phase *p, unsigned u, const om_wm_plan *plan)
{
    const om_wm_table_unit *un = &p->t->unit[u];
    bool round = plan->kind == OM_WM_PLAN_CHARGE ? charges_all_round(p, un) : sees_all_round(un);
    if (plan->target >= 0)
        return p->t->unit[plan->target].present ? plan->target : -1;
    return om_wm_table_closest_visible_enemy(p->t, p->s->rules, u, round, 0, 0, NULL);
}

/* Distance kept from an ADVANCE plan's target unit. */
static double advance_keep(const phase *p, unsigned u, const om_wm_plan *plan)
{
    if (plan->keep_cm > 0)
        return plan->keep_cm;
    return p->t->unit[plan->target].side != p->t->unit[u].side ? ORDER_ENEMY_GAP_CM : 0;
}

/* Stand i of unit `un`: its centre's offsets from the unit's centre, along
 * the unit's facing (*fwd) and to its right (*right). */
static void stand_offset(const om_wm_table_unit *un, unsigned i, double *fwd, double *right)
{
    om_wm_vec c[4];
    double x, y;
    om_wm_table_stand_corners(un, i, c);
    x = (c[0].x + c[2].x) / 2 - un->centre.x;
    y = (c[0].y + c[2].y) / 2 - un->centre.y;
    *fwd = x * un->dir.x + y * un->dir.y;
    *right = x * un->dir.y - y * un->dir.x;
}

/* Of unit un's stands, the one farthest forward (rear: farthest back) and,
 * among those level with it, the nearest the unit's middle; its offsets. */
static void edge_stand(const om_wm_table_unit *un, bool rear, double *fwd, double *right)
{
    double best_f = 0, best_r = 0;
    for (unsigned i = 0; i < un->stands; i++) {
        double f, r;
        stand_offset(un, i, &f, &r);
        if (rear)
            f = -f;
        if (i == 0 || f > best_f + SAME_ROW_CM ||
            (f >= best_f - SAME_ROW_CM && fabs(r) < fabs(best_r))) {
            best_f = f;
            best_r = r;
        }
    }
    *fwd = rear ? -best_f : best_f;
    *right = best_r;
}

void om_wm_command_edge_stand(const om_wm_table_unit *un, bool rear, double *fwd, double *right)
{
    edge_stand(un, rear, fwd, right);
}

om_wm_vec om_wm_command_support_spot_of(const om_wm_table *t, unsigned u, unsigned f,
                                        const om_wm_edge_stands *eu,
                                        const om_wm_edge_stands *ef)
{
    const om_wm_table_unit *me = &t->unit[u], *fr = &t->unit[f];
    /* In the friend's frame: u's front stand's centre half a stand's depth
     * behind the friend's rear stand's rear edge, level with it across. */
    const double back = -ef->rear_fwd + (fr->stand_d + me->stand_d) / 2 + eu->front_fwd;
    const double right = ef->rear_right - eu->front_right;
    return (om_wm_vec){fr->centre.x - fr->dir.x * back + fr->dir.y * right,
                       fr->centre.y - fr->dir.y * back - fr->dir.x * right};
}

om_wm_vec om_wm_command_support_spot(const om_wm_table *t, unsigned u, unsigned f)
{
    om_wm_edge_stands eu, ef;
    edge_stand(&t->unit[f], true, &ef.rear_fwd, &ef.rear_right);
    edge_stand(&t->unit[u], false, &eu.front_fwd, &eu.front_right);
    return om_wm_command_support_spot_of(t, u, f, &eu, &ef);
}

/* Of unit un's front row, the stand at its right end (`right`) or its left;
 * its offsets. */
static void row_end(const om_wm_table_unit *un, bool right, double *fwd, double *across)
{
    double best_f = 0, best_r = 0;
    for (unsigned i = 0; i < un->stands; i++) {
        double f, r;
        stand_offset(un, i, &f, &r);
        if (!right)
            r = -r;
        if (i == 0 || f > best_f + SAME_ROW_CM || (f >= best_f - SAME_ROW_CM && r > best_r)) {
            best_f = f;
            best_r = r;
        }
    }
    *fwd = best_f;
    *across = right ? best_r : -best_r;
}

om_wm_vec om_wm_command_support_place(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u,
                                      unsigned f)
{
    const om_wm_table_unit *me = &t->unit[u], *fr = &t->unit[f];
    const om_wm_vec behind = om_wm_command_support_spot(t, u, f);
    if (om_wm_table_place_clear(t, rules, u, behind, fr->dir, true) || !om_wm_table_engaged(t, f))
        return behind;
    for (unsigned k = 0; k < 2; k++) {
        /* Right (k = 0): u's left end stand beside f's right end stand. */
        const bool right = k == 0;
        double f_fwd, f_across, u_fwd, u_across, fwd, across;
        om_wm_vec spot;
        row_end(fr, right, &f_fwd, &f_across);
        row_end(me, !right, &u_fwd, &u_across);
        fwd = f_fwd - u_fwd;
        across = f_across - u_across + (right ? 1 : -1) * (fr->stand_w + me->stand_w) / 2;
        spot = (om_wm_vec){fr->centre.x + fr->dir.x * fwd + fr->dir.y * across,
                           fr->centre.y + fr->dir.y * fwd - fr->dir.x * across};
        if (om_wm_table_place_clear(t, rules, u, spot, fr->dir, true))
            return spot;
    }
    return behind;
}

/* Whether a group's plan needs no more orders (C1). */
static bool plan_done(const phase *p, const group *g, const om_wm_plan *plan)
{
    const om_wm_table *t = p->t;
    unsigned lead;
    if (g->n == 0)
        return true;
    lead = g->u[0];
    switch (plan->kind) {
    case OM_WM_PLAN_CHARGE:
        return plan_target(p, lead, plan) < 0; /* nothing (left) to charge */
    case OM_WM_PLAN_ADVANCE: {
        double keep;
        if (plan->target < 0)
            return hypot(t->unit[lead].centre.x - plan->goal.x,
                         t->unit[lead].centre.y - plan->goal.y) <= GOAL_REACHED_CM;
        if (!t->unit[plan->target].present)
            return true;
        keep = advance_keep(p, lead, plan) + GOAL_REACHED_CM;
        /* Boxes farther apart than the distance kept hold units farther
         * apart (the boxes' gap bounds the distance from below). */
        if (om_plane_box_gap(t->unit[lead].geom.shape.box,
                             t->unit[plan->target].geom.shape.box) > keep + BOX_REACH_SLACK_CM) {
            assert(om_wm_table_distance(t, lead, (unsigned)plan->target) > keep);
            return false;
        }
        return om_wm_table_distance(t, lead, (unsigned)plan->target) <= keep;
    }
    case OM_WM_PLAN_SUPPORT: {
        om_wm_vec spot;
        const om_wm_table_unit *f = &t->unit[plan->target];
        if (!f->present || f->side != t->unit[lead].side)
            return true;
        spot = om_wm_command_support_place(t, p->s->rules, lead, (unsigned)plan->target);
        return hypot(t->unit[lead].centre.x - spot.x, t->unit[lead].centre.y - spot.y) <=
                   GOAL_REACHED_CM &&
               t->unit[lead].dir.x * f->dir.x + t->unit[lead].dir.y * f->dir.y >= SAME_FACING;
    }
    case OM_WM_PLAN_SHOOT: {
        int tgt = plan_target(p, lead, plan);
        if (tgt < 0)
            return true;
        for (unsigned i = 0; i < g->n; i++)
            if (om_wm_table_distance(t, g->u[i], (unsigned)tgt) > t->unit[g->u[i]].range_cm)
                return false;
        return true;
    }
    default:
        return true;
    }
}

/* Drop the units of g that charged, and keep only those still touching the
 * first one left (C2): a unit cut off halts. */
static void regroup(phase *p, group *g)
{
    group left = {0};
    bool reached[OM_WM_BRIGADE_MAX_UNITS] = {false}, grew = true;
    for (unsigned i = 0; i < g->n; i++)
        if (!p->t->unit[g->u[i]].charged)
            left.u[left.n++] = g->u[i];
    if (left.n > 1) {
        reached[0] = true;
        while (grew) {
            grew = false;
            for (unsigned i = 0; i < left.n; i++)
                for (unsigned j = 0; j < left.n; j++)
                    if (reached[i] && !reached[j] &&
                        om_wm_table_touching(p->t, left.u[i], left.u[j]))
                        reached[j] = grew = true;
        }
        g->n = 0;
        for (unsigned i = 0; i < left.n; i++)
            if (reached[i])
                g->u[g->n++] = left.u[i];
        return;
    }
    *g = left;
}

/* One order's move of unit u toward its place behind the friend its SUPPORT
 * plan names (C7), at most `max_cm`. Returns the distance moved. */
static double move_to_support(phase *p, unsigned u, const om_wm_plan *plan, double max_cm)
{
    om_wm_table *t = p->t;
    const om_wm_table_unit *f = &t->unit[plan->target];
    om_wm_table_unit *me = &t->unit[u];
    om_wm_table_move_rule rule = {.enemy_gap_cm = ORDER_ENEMY_GAP_CM, .target = -1};
    om_wm_vec from = me->centre, spot, aside;
    double moved, across;
    if (!f->present)
        return 0;
    (void)om_wm_table_turn(t, p->s->rules, u, f->dir);
    spot = om_wm_command_support_place(t, p->s->rules, u, (unsigned)plan->target);
    moved = om_wm_table_move(t, p->s->rules, u, spot, max_cm, &rule, NULL);
    /* Stopped short by a unit in the way: across the friend's facing until
     * level with the place, then straight up to it, with what is left. */
    if (max_cm - moved >= STUCK_CM &&
        hypot(me->centre.x - spot.x, me->centre.y - spot.y) > GOAL_REACHED_CM) {
        across = (spot.x - me->centre.x) * f->dir.y - (spot.y - me->centre.y) * f->dir.x;
        aside = (om_wm_vec){me->centre.x + across * f->dir.y, me->centre.y - across * f->dir.x};
        moved += om_wm_table_move(t, p->s->rules, u, aside, max_cm - moved, &rule, NULL);
        moved += om_wm_table_move(t, p->s->rules, u, spot, max_cm - moved, &rule, NULL);
    }
    add_moved(p, u, from);
    return moved;
}

/* The slowest pace among a group's units (a brigade moves at it, Command >
 * Brigades). */
static double group_pace(const phase *p, const group *g, bool half)
{
    double pace = INFINITY;
    for (unsigned i = 0; i < g->n; i++) {
        const om_wm_table_unit *un = &p->t->unit[g->u[i]];
        /* 4-5: half pace; Ancients skirmishers full pace (Warmaster Ancients,
         * Commanders > Blunder Table). */
        double v = half ? (is_skirmish(un) ? un->pace_cm : un->pace_cm / 2.0)
                        : om_wm_table_move_pace(p->t, g->u[i]);
        pace = fmin(pace, v);
    }
    return pace;
}

/* Move the group (what is left after chargers peeled off) one move toward its
 * plan's goal; `half` for the 4-5 blunder. Returns the distance moved. */
static double move_group(phase *p, group *g, const om_wm_plan *plan, bool half)
{
    om_wm_table *t = p->t;
    int tgt = -1;
    double keep = 0, pace = group_pace(p, g, half), moved;
    om_wm_vec goal = plan->goal, from[OM_WM_BRIGADE_MAX_UNITS];
    om_wm_table_move_rule rule = {.enemy_gap_cm = ORDER_ENEMY_GAP_CM, .target = -1,
                                  .round = true};
    if (g->n == 0)
        return 0;
    if (plan->kind == OM_WM_PLAN_SUPPORT)
        return g->n == 1 ? move_to_support(p, g->u[0], plan, pace) : 0;
    switch (plan->kind) {
    case OM_WM_PLAN_ADVANCE:
        if (plan->target >= 0) {
            tgt = plan->target;
            keep = advance_keep(p, g->u[0], plan);
        }
        break;
    case OM_WM_PLAN_SHOOT:
        tgt = plan_target(p, g->u[0], plan);
        keep = INFINITY;
        for (unsigned i = 0; i < g->n; i++)
            keep = fmin(keep, t->unit[g->u[i]].range_cm - RANGE_MARGIN_CM);
        if (keep < ORDER_ENEMY_GAP_CM) keep = ORDER_ENEMY_GAP_CM;
        break;
    default:
        tgt = plan_target(p, g->u[0], plan);
        break;
    }
    if (tgt >= 0)
        goal = t->unit[tgt].centre;
    else if (plan->kind != OM_WM_PLAN_ADVANCE)
        return 0; /* nothing to move toward */
    if (g->n == 1)
        return move_toward(p, g->u[0], goal, pace, keep > 0 ? tgt : -1, keep);
    for (unsigned i = 0; i < g->n; i++)
        from[i] = t->unit[g->u[i]].centre;
    rule.target = keep > 0 ? tgt : -1;
    rule.keep_cm = keep;
    moved = om_wm_table_move_group(t, p->s->rules, g->u, g->n, goal, pace, &rule);
    for (unsigned i = 0; i < g->n; i++)
        add_moved(p, g->u[i], from[i]);
    return moved;
}

/* The charge target of a group member: its own charge plan, else the group's. */
static int member_charge_target(const phase *p, unsigned u, const om_wm_plan *plan)
{
    const om_wm_plan *own = &p->s->plan[u];
    if (own->kind == OM_WM_PLAN_CHARGE)
        return plan_target(p, u, own);
    if (plan->kind == OM_WM_PLAN_CHARGE)
        return plan_target(p, u, plan);
    return -1;
}

/* One move after a passed order: members that can charge do (Command >
 * Brigades: "any units in a brigade that wish to charge ... individually"), the
 * rest move. Returns false when nothing happened (C1). */
static bool execute_order(phase *p, group *g, const om_wm_plan *plan)
{
    unsigned charged = 0;
    double moved;
    for (unsigned i = 0; i < g->n; i++) {
        int tgt = g->n == 1 && plan->kind == OM_WM_PLAN_CHARGE
                      ? plan_target(p, g->u[i], plan)
                      : member_charge_target(p, g->u[i], plan);
        if (try_charge(p, g->u[i], tgt))
            charged++;
    }
    regroup(p, g);
    moved = move_group(p, g, plan, false);
    return charged > 0 || moved >= STUCK_CM;
}

bool om_wm_command_may_move_as_ordered(const om_wm_command_setup *s, const om_wm_table *t,
                                       unsigned u)
{
    /* The phase's questions only read the table here. */
    phase p = {.s = s, .r = rules_of(s->rules), .t = (om_wm_table *)t};
    group g = {.n = 1, .u = {u}};
    const om_wm_plan *plan = &s->plan[u];
    return u < t->units && t->unit[u].side == s->side && plan->kind != OM_WM_PLAN_HOLD &&
           free_to_move(&p, u) && !plan_done(&p, &g, plan);
}

bool om_wm_command_move_as_ordered(const om_wm_command_setup *s, om_wm_table *t, unsigned u,
                                   om_wm_command_result *out)
{
    phase p = {.s = s, .r = rules_of(s->rules), .t = t, .out = out};
    group g = {.n = 1, .u = {u}};
    if (!om_wm_command_may_move_as_ordered(s, t, u))
        return false;
    return execute_order(&p, &g, &s->plan[u]);
}

/* ---- Blunders ---- */

/* Move unit u directly away from enemy e by `cm` (C4). */
static void move_away(phase *p, unsigned u, unsigned e, double cm, double gap)
{
    om_wm_vec pu, pe, c = p->t->unit[u].centre, way;
    om_wm_table_move_rule rule = {.enemy_gap_cm = gap, .target = -1};
    double l;
    om_wm_table_closest_points(p->t, u, e, &pu, &pe);
    way = (om_wm_vec){pu.x - pe.x, pu.y - pe.y};
    l = hypot(way.x, way.y);
    if (l < 1e-9)
        return;
    om_wm_table_move(p->t, p->s->rules, u, (om_wm_vec){c.x + way.x / l * cm, c.y + way.y / l * cm},
                     cm, &rule, NULL);
    add_moved(p, u, c);
}

/* 2-3: units with a visible enemy within a full pace move away until a full pace
 * from it; a brigade uses its slowest unit's pace (A23). If none is that close,
 * they halt. Revolution: a unit unable to comply halts where it was; Ancients:
 * it goes as far as it can. */
static void blunder_fall_back(phase *p, const unsigned *u, unsigned n)
{
    om_wm_table *t = p->t;
    double pace = INFINITY;
    for (unsigned i = 0; i < n; i++)
        pace = fmin(pace, t->unit[u[i]].pace_cm);
    for (unsigned i = 0; i < n; i++) {
        double d;
        int e = om_wm_table_closest_visible_enemy(t, p->s->rules, u[i],
                                                  sees_all_round(&t->unit[u[i]]), pace, 0, &d);
        om_wm_vec c = t->unit[u[i]].centre, dir = t->unit[u[i]].dir;
        double moved_before = p->out->unit[u[i]].moved_cm;
        if (e < 0)
            continue;
        move_away(p, u[i], (unsigned)e, pace - d, ORDER_ENEMY_GAP_CM);
        e = om_wm_table_closest_visible_enemy(t, p->s->rules, u[i],
                                              sees_all_round(&t->unit[u[i]]), 0, 0, &d);
        if (p->r->fall_back_halts_if_unable && e >= 0 && d < pace - 1e-6) {
            p->out->unit[u[i]].moved_cm = moved_before; /* it halts instead */
            t->unit[u[i]].centre = c;
            t->unit[u[i]].dir = dir;
            om_wm_table_update(t, u[i]);
        }
    }
}

/* 6 (Ancients 6-7): each unit in turn moves at the nearest enemy at full pace
 * and charges it if it can. Ancients: the nearest visible enemy; with none in
 * sight it moves as for a successful order. */
static void blunder_charge(phase *p, const unsigned *u, unsigned n, const om_wm_plan *plan)
{
    om_wm_table *t = p->t;
    for (unsigned i = 0; i < n; i++) {
        unsigned m = u[i];
        int e = p->r->blunder_charge_needs_sight
                    ? om_wm_table_closest_visible_enemy(t, p->s->rules, m,
                                                        charges_all_round(p, &t->unit[m]), 0, 0,
                                                        NULL)
                    : om_wm_table_closest_enemy(t, m, NULL);
        if (e < 0) {
            group one = {.n = 1, .u = {m}};
            if (p->r->blunder_charge_needs_sight)
                execute_order(p, &one, plan);
            continue;
        }
        if (!try_charge(p, m, e))
            move_toward(p, m, t->unit[e].centre, om_wm_table_move_pace(t, m), -1, 0);
    }
}

void om_wm_command_apply_blunder(const om_wm_command_setup *s, om_wm_table *t, om_dice *d,
                                 const unsigned *u, unsigned n, const om_wm_plan *plan,
                                 om_wm_blunder b, om_wm_command_result *out)
{
    phase p = {.s = s, .r = rules_of(s->rules), .t = t, .d = d, .out = out};
    group g = {.n = n};
    memcpy(g.u, u, n * sizeof u[0]);
    for (unsigned i = 0; i < n; i++)
        out->unit[u[i]].blunder = (uint8_t)b;
    switch (b) {
    case OM_WM_BLUNDER_HALT:
        /* A brigade's penalty goes to one unit: its first listed (a fixed
         * reading of "the player can choose which"). */
        if (t->unit[u[0]].blunder_penalty < UINT8_MAX)
            t->unit[u[0]].blunder_penalty++;
        break;
    case OM_WM_BLUNDER_FALL_BACK:
        blunder_fall_back(&p, u, n);
        break;
    case OM_WM_BLUNDER_HALF_PACE:
        move_group(&p, &g, plan, true);
        break;
    case OM_WM_BLUNDER_CHARGE:
        blunder_charge(&p, u, n, plan);
        break;
    default:
        break;
    }
}

/* ---- Initiative ---- */

/* The record of unit u becoming confused for `why` (OM_WM_CONFUSED_*). */
static void trace_confused(phase *p, unsigned u, int why)
{
    if (p->trace != NULL) {
        om_wm_event e = om_wm_event_make(p->trace, OM_WM_EV_CONFUSED, (int)u, -1);
        e.v[0] = (int16_t)why;
        om_wm_trace_put(p->trace, &e);
    }
}

/* The evade (Movement > Moving by Initiative > The path of evaders; Warmaster
 * Ancients, Movement > The Evade): straight away from enemy e at full pace;
 * bursting through friends in Revolution and 1.1 (confused), Ancients
 * skirmishers through friends with D6 tests; it must end clear of enemies and
 * engaged units, or it cannot evade (A31) and stays put. */
static bool evade(phase *p, unsigned u, unsigned e)
{
    om_wm_table *t = p->t;
    om_wm_table_unit *un = &t->unit[u];
    bool through = p->r->evade_burst_through || is_skirmish(un);
    om_wm_table_move_rule rule = {.enemy_gap_cm = p->r->evade_clearance_cm, .target = -1,
                                  .through_friends = through};
    om_wm_vec pu, pe, c = un->centre, dir = un->dir, way;
    om_wm_unit_set burst = {0};
    double l, moved;
    om_wm_table_closest_points(t, u, e, &pu, &pe);
    way = (om_wm_vec){pu.x - pe.x, pu.y - pe.y};
    l = hypot(way.x, way.y);
    if (l < 1e-9)
        return false;
    moved = om_wm_table_move(t, p->s->rules, u,
                             (om_wm_vec){c.x + way.x / l * un->pace_cm,
                                         c.y + way.y / l * un->pace_cm},
                             un->pace_cm, &rule, &burst);
    for (unsigned k = 0; k < t->units && moved >= EVADE_MIN_CM; k++) {
        bool engaged = k != u && t->unit[k].present && om_wm_table_engaged(t, k);
        if (k == u || !t->unit[k].present || (t->unit[k].side == un->side && !engaged))
            continue;
        if (om_wm_table_distance(t, u, k) < p->r->evade_clearance_cm - 1e-6)
            moved = 0;
    }
    if (moved < EVADE_MIN_CM) {
        un->centre = c;
        un->dir = dir;
        om_wm_table_update(t, u);
        return false;
    }
    add_moved(p, u, c);
    /* Friends passed through: confused (Revolution), or tests (Ancients). */
    for (unsigned k = 0, passed = 0; k < t->units; k++) {
        if (!om_wm_unit_set_has(&burst, k))
            continue;
        if (p->r->evade_burst_through) {
            t->unit[k].confused = true;
            p->out->unit[k].burst = 1;
            trace_confused(p, k, OM_WM_CONFUSED_BURST);
        } else if (!(passed == 0 && is_skirmish(&t->unit[k]))) {
            if (om_dice_roll_d6(p->d) >= CONFUSION_ROLL) {
                t->unit[k].confused = true;
                p->out->unit[k].burst = 1;
                trace_confused(p, k, OM_WM_CONFUSED_BURST);
            }
            if (om_dice_roll_d6(p->d) >= CONFUSION_ROLL) {
                un->confused = true;
                trace_confused(p, u, OM_WM_CONFUSED_EVADED);
            }
        }
        passed++;
    }
    return true;
}

/* The units of the brigades that have a brigade plan (C3). */
static om_wm_unit_set active_brigades(const om_wm_command_setup *s, const om_wm_table *t)
{
    om_wm_unit_set in = {0};
    for (unsigned b = 0; b < t->brigades; b++) {
        const om_wm_plan *bp = &s->brigade_plan[b];
        if (bp->kind == OM_WM_PLAN_HOLD || bp->by < 0)
            continue;
        for (unsigned i = 0; i < t->brigade[b].count; i++)
            om_wm_unit_set_add(&in, t->brigade[b].unit[i]);
    }
    return in;
}

/* Whether unit u belongs to a brigade that has a brigade plan (C3). */
static bool in_active_brigade(const phase *p, unsigned u)
{
    return om_wm_unit_set_has(&p->brigaded, u);
}

/* The initiative move of one unit, if it makes one (Movement > Moving by
 * Initiative; Warmaster Ancients, Command > Initiative). */
static void initiative_of(phase *p, unsigned u)
{
    om_wm_table *t = p->t;
    const om_wm_table_unit *un = &t->unit[u];
    const om_wm_plan *plan = &p->s->plan[u];
    bool must = (un->traits & OM_WM_TABLE_TRAIT_MUST_CHARGE) != 0;
    om_wm_initiative_policy pol = plan->initiative;
    unsigned filter = p->r->initiative_ignores_fortified ? OM_WM_TABLE_SKIP_FORTIFIED : 0;
    int ref;
    /* The cheap questions first: all are pure, so their order changes nothing. */
    if ((!must && (pol == OM_WM_INITIATIVE_NEVER || in_active_brigade(p, u))) ||
        !free_to_move(p, u) || !om_wm_lasting_initiative(t, u))
        return;
    if (!enemy_box_within(t, u, INITIATIVE_CM)) {
        assert(om_wm_table_closest_visible_enemy(t, p->s->rules, u, sees_all_round(un),
                                                 INITIATIVE_CM, filter, NULL) < 0);
        return;
    }
    ref = om_wm_table_closest_visible_enemy(t, p->s->rules, u, sees_all_round(un), INITIATIVE_CM,
                                            filter, NULL);
    if (ref < 0)
        return;
    if (must || pol == OM_WM_INITIATIVE_CHARGE ||
        (pol == OM_WM_INITIATIVE_AUTO && plan->kind == OM_WM_PLAN_CHARGE &&
         (plan->target < 0 || plan->target == ref))) {
        if (un->troop == OM_WM_ARTILLERY && !p->r->artillery_initiative_charge)
            return; /* artillery cannot charge on initiative (Moving by Initiative) */
        if (try_charge(p, u, ref))
            p->out->unit[u].initiative = OM_WM_MOVED_CHARGE;
    } else if (pol == OM_WM_INITIATIVE_EVADE && !is_flyer(un) && evade(p, u, (unsigned)ref)) {
        p->out->unit[u].initiative = OM_WM_MOVED_EVADE;
    }
    if (p->trace != NULL && p->out->unit[u].initiative != OM_WM_MOVED_NO_INITIATIVE) {
        om_wm_event e = om_wm_event_make(p->trace, OM_WM_EV_INITIATIVE, (int)u, ref);
        e.v[0] = p->out->unit[u].initiative;
        om_wm_trace_put(p->trace, &e);
    }
}

/* Units of the moving side in initiative order: those that must charge first
 * ("before any other unit moves", Warmaster Ancients, Special Rules > Fanatics),
 * then by plan priority, then index. */
static unsigned initiative_order(const phase *p, unsigned *order)
{
    unsigned keys[OM_WM_TABLE_MAX_UNITS], n = 0;
    for (unsigned u = 0; u < p->t->units; u++) {
        const om_wm_table_unit *un = &p->t->unit[u];
        bool must = (un->traits & OM_WM_TABLE_TRAIT_MUST_CHARGE) != 0;
        if (un->side == p->s->side)
            keys[n++] = (must ? 0u : 65536u) + p->s->plan[u].priority * 256u + u;
    }
    for (unsigned i = 1; i < n; i++)
        for (unsigned j = i; j > 0 && keys[j - 1] > keys[j]; j--) {
            unsigned k = keys[j];
            keys[j] = keys[j - 1];
            keys[j - 1] = k;
        }
    for (unsigned i = 0; i < n; i++)
        order[i] = keys[i] % 256u;
    return n;
}

static void initiative_step(phase *p)
{
    unsigned order[OM_WM_TABLE_MAX_UNITS];
    unsigned n = initiative_order(p, order);
    for (unsigned i = 0; i < n; i++)
        initiative_of(p, order[i]);
}

/* ---- Orders ---- */

/* Whether character c may order every unit of g from where they stand. */
static bool group_in_range(const phase *p, unsigned c, const group *g)
{
    const om_wm_table_character *ch = &p->t->character[c];
    for (unsigned i = 0; i < g->n; i++)
        if (!om_wm_command_in_range(p->s->rules, ch->kind, is_flyer(&p->t->unit[g->u[i]]),
                                    om_wm_table_character_distance(p->t, c, g->u[i])))
            return false;
    return true;
}

/* Whether unit u may be ordered now: free to move, no initiative move, not
 * ordered by anyone yet (Command > Giving an Order; Charge!; Confusion >
 * Confused Units). */
static bool orderable(const phase *p, unsigned u)
{
    return p->t->unit[u].side == p->s->side &&
           p->out->unit[u].initiative == OM_WM_MOVED_NO_INITIATIVE && p->out->unit[u].by < 0 &&
           free_to_move(p, u);
}

/* The units of brigade b that may be ordered and touch its first such unit. */
static group brigade_group(phase *p, unsigned b)
{
    group g = {0};
    const om_wm_table_brigade *br = &p->t->brigade[b];
    for (unsigned i = 0; i < br->count; i++)
        if (orderable(p, br->unit[i]))
            g.u[g.n++] = br->unit[i];
    /* Keep the touching group of the first unit (units that used initiative
     * may have left a gap); the others hold. */
    if (g.n > 1)
        regroup(p, &g);
    return g;
}

/* Record an order test for every unit of g. */
static void record_test(phase *p, unsigned c, const group *g, bool passed)
{
    om_wm_command_character *oc = &p->out->character[c];
    oc->tests++;
    oc->passed += passed;
    if ((int)c == p->out->general) {
        p->out->general_tests++;
        p->out->general_passed += passed;
    }
    for (unsigned i = 0; i < g->n; i++) {
        om_wm_command_unit *ou = &p->out->unit[g->u[i]];
        ou->tests++;
        ou->orders += passed;
        ou->by = (int8_t)c;
    }
}

/* A failed order: the unit or brigade halts; a blunder rolls on the table (or
 * ends the phase); the character stops; a failed General ends the phase. */
static void order_failed(phase *p, unsigned c, const group *g, const om_wm_plan *plan,
                         unsigned roll)
{
    const om_wm_table_character *ch = &p->t->character[c];
    om_wm_command_character *oc = &p->out->character[c];
    oc->stop = OM_WM_STOP_FAILED;
    if (om_wm_command_is_blunder(p->s->rules, &p->s->options, ch->kind, roll)) {
        oc->stop = OM_WM_STOP_BLUNDERED;
        if (p->s->options.alternative_blunder) {
            for (unsigned i = 0; i < g->n; i++)
                p->out->unit[g->u[i]].blunder = OM_WM_BLUNDER_ENDS_PHASE;
            p->over = true;
            p->out->ended = OM_WM_PHASE_BLUNDER;
        } else {
            unsigned die;
            om_wm_blunder b = om_wm_command_roll_blunder(p->s->rules, ch->kind, p->d, &die);
            if (p->trace != NULL) {
                om_wm_event e = om_wm_event_make(p->trace, OM_WM_EV_BLUNDER, (int)g->u[0],
                                                 (int)c);
                e.v[0] = (int16_t)b;
                e.dice[0] = (uint8_t)die;
                om_wm_trace_put(p->trace, &e);
            }
            om_wm_command_apply_blunder(p->s, p->t, p->d, g->u, g->n, plan, b, p->out);
            for (unsigned i = 0; i < g->n; i++)
                p->out->unit[g->u[i]].blunder_die = (uint8_t)die;
        }
    }
    if (ch->kind == OM_WM_GENERAL && !p->over) {
        p->over = true;
        p->out->ended = OM_WM_PHASE_GENERAL_FAILED;
    }
}

/* The record of an order test from character c to group g: its number k,
 * the score needed and the two dice. */
static void trace_order(phase *p, unsigned c, const group *g, unsigned k,
                        const om_wm_command_test *test, unsigned d1, unsigned d2)
{
    const unsigned roll = d1 + d2;
    om_wm_event e = om_wm_event_make(p->trace, OM_WM_EV_ORDER, (int)g->u[0], (int)c);
    e.v[0] = (int16_t)k;
    e.v[1] = (int16_t)test->target;
    e.v[2] = (int16_t)g->n;
    e.dice[0] = (uint8_t)d1;
    e.dice[1] = (uint8_t)d2;
    if ((int)roll <= test->target)
        e.flags |= OM_WM_EVF_PASSED;
    else if (om_wm_command_is_blunder(p->s->rules, &p->s->options, p->t->character[c].kind, roll))
        e.flags |= OM_WM_EVF_BLUNDER;
    om_wm_trace_put(p->trace, &e);
}

/* Give group g up to its plan's orders from character c. Returns false when
 * the character must stop (an order failed). */
static bool order_group(phase *p, unsigned c, group *g, const om_wm_plan *plan)
{
    unsigned want = plan->orders ? plan->orders : OM_WM_COMMAND_MAX_ORDERS;
    if (want > OM_WM_COMMAND_MAX_ORDERS)
        want = OM_WM_COMMAND_MAX_ORDERS;
    for (unsigned k = 1; k <= want && g->n > 0; k++) {
        om_wm_command_test test;
        unsigned roll, device;
        bool passed;
        /* Both questions only read the table: the cheap one first. */
        if (!group_in_range(p, c, g) || plan_done(p, g, plan))
            break;
        om_wm_command_test_for(p->s, p->t, c, g->u, g->n, k, &test);
        /* The General's Crown or Helm (regalia.c). */
        device = om_wm_regalia_before_test(p->s, p->t, c, g->u[0], p->out, &test, p->trace);
        if (p->trace != NULL) {
            /* The same two dice, in the same order, kept one by one. */
            const unsigned d1 = om_dice_roll_d6(p->d), d2 = om_dice_roll_d6(p->d);
            roll = d1 + d2;
            trace_order(p, c, g, k, &test, d1, d2);
        } else {
            roll = om_dice_roll_d6(p->d) + om_dice_roll_d6(p->d);
        }
        /* A failure the Crown ends with it, the Sceptre pardons or the Orb
         * re-rolls (regalia.c). */
        passed = (int)roll <= test.target ||
                 om_wm_regalia_after_failure(p->s, p->t, p->d, c, g->u, g->n, device, &test,
                                             &roll, p->out, p->trace);
        record_test(p, c, g, passed);
        if (!passed) {
            order_failed(p, c, g, plan, roll);
            return false;
        }
        if (!execute_order(p, g, plan))
            break;
    }
    return true;
}

/* Whether character c gives a plan naming character `by`: his own, or, with
 * take_over, one whose character stopped before c's turn to issue (`stopped`,
 * by character index). */
static bool gives(const phase *p, unsigned c, int by, const bool *stopped)
{
    return by == (int)c || (p->s->take_over && by >= 0 && stopped[by]);
}

/* One character's orders: its units and brigades by priority (Command > Giving
 * an Order), and with take_over those of the characters who stopped before
 * him (`stopped`). */
static void character_orders(phase *p, unsigned c, const bool *stopped)
{
    const om_wm_command_setup *s = p->s;
    unsigned keys[OM_WM_TABLE_MAX_UNITS + OM_WM_TABLE_MAX_BRIGADES], n = 0;
    /* Key: priority, then units before brigades, then index. */
    for (unsigned u = 0; u < p->t->units; u++)
        if (p->t->unit[u].side == s->side && gives(p, c, s->plan[u].by, stopped) &&
            s->plan[u].kind != OM_WM_PLAN_HOLD && !in_active_brigade(p, u))
            keys[n++] = s->plan[u].priority * 1024u + u;
    for (unsigned b = 0; b < p->t->brigades; b++)
        if (gives(p, c, s->brigade_plan[b].by, stopped) &&
            s->brigade_plan[b].kind != OM_WM_PLAN_HOLD)
            keys[n++] = s->brigade_plan[b].priority * 1024u + 512u + b;
    for (unsigned i = 1; i < n; i++)
        for (unsigned j = i; j > 0 && keys[j - 1] > keys[j]; j--) {
            unsigned k = keys[j];
            keys[j] = keys[j - 1];
            keys[j - 1] = k;
        }
    for (unsigned i = 0; i < n && !p->over; i++) {
        unsigned idx = keys[i] % 512u;
        bool brigade = keys[i] % 1024u >= 512u;
        const om_wm_plan *plan = brigade ? &s->brigade_plan[idx] : &s->plan[idx];
        group g = brigade ? brigade_group(p, idx) : (group){.n = 1, .u = {idx}};
        if (!brigade && !orderable(p, idx))
            continue;
        if (g.n == 0)
            continue;
        if (!order_group(p, c, &g, plan))
            return;
    }
}

/* Characters of the moving side in the order of issue. */
static unsigned issue_order(const phase *p, unsigned *order)
{
    unsigned n = 0;
    for (unsigned pass = 0; pass < 2; pass++)
        for (unsigned c = 0; c < p->t->characters; c++) {
            const om_wm_table_character *ch = &p->t->character[c];
            bool general = ch->kind == OM_WM_GENERAL;
            bool first;
            if (ch->side != p->s->side || ch->slain)
                continue;
            switch (p->s->issue) {
            case OM_WM_ISSUE_GENERAL_FIRST: first = general; break;
            case OM_WM_ISSUE_DECLARED: first = true; break;
            default: first = !general; break;
            }
            if (first == (pass == 0))
                order[n++] = c;
        }
    return n;
}

static void orders_step(phase *p)
{
    unsigned order[OM_WM_TABLE_MAX_CHARACTERS];
    bool stopped[OM_WM_TABLE_MAX_CHARACTERS] = {false};
    unsigned n = issue_order(p, order);
    for (unsigned i = 0; i < n; i++) {
        if (p->over) {
            p->out->character[order[i]].stop = OM_WM_STOP_PHASE_ENDED;
            continue;
        }
        character_orders(p, order[i], stopped);
        stopped[order[i]] = p->out->character[order[i]].stop != OM_WM_STOP_DONE;
    }
}

/* ---- Characters and recovery ---- */

/* A character with a unit to follow moves toward it and joins it when it
 * reaches it (Movement > Character Movement; Generals, Wizards & Heroes >
 * Joining a Unit). */
static void characters_step(phase *p)
{
    om_wm_table *t = p->t;
    for (unsigned c = 0; c < t->characters; c++) {
        om_wm_table_character *ch = &t->character[c];
        om_wm_vec q;
        double dist, reach = ch->flying ? OM_WM_CHARACTER_FLY_CM : OM_WM_CHARACTER_MOVE_CM;
        if (ch->side != p->s->side || ch->slain)
            continue;
        /* The plan may send him to another unit (the doctrine's heroes_cover). */
        if (p->s->refollow[c] > 0)
            ch->follow = (int8_t)(p->s->refollow[c] - 1);
        if (ch->follow < 0 || !t->unit[ch->follow].present)
            continue;
        q = om_wm_table_closest_point(&t->unit[ch->follow], ch->at);
        dist = hypot(q.x - ch->at.x, q.y - ch->at.y) - ch->radius_cm;
        if (dist <= reach) {
            double l = hypot(q.x - ch->at.x, q.y - ch->at.y);
            if (l > 1e-9) {
                ch->at.x = q.x - (q.x - ch->at.x) / l * ch->radius_cm;
                ch->at.y = q.y - (q.y - ch->at.y) / l * ch->radius_cm;
            }
            ch->joined = ch->follow;
        } else {
            /* Out of reach, he is with no unit until he reaches it again (a
             * character joins a unit by ending his move touching it). */
            double l = dist + ch->radius_cm;
            ch->at.x += (q.x - ch->at.x) / l * reach;
            ch->at.y += (q.y - ch->at.y) / l * reach;
            ch->joined = -1;
        }
    }
}

/* The moving side's confused units recover at the end of its Command phase,
 * those confused in this phase too (Confusion > Confused Units; Warmaster
 * Ancients, Confusion > Confused Units). */
static void recovery_step(phase *p)
{
    for (unsigned u = 0; u < p->t->units; u++) {
        om_wm_table_unit *un = &p->t->unit[u];
        if (un->side == p->s->side && un->present && un->confused) {
            un->confused = false;
            p->out->unit[u].recovered = 1;
            if (p->trace != NULL) {
                om_wm_event e = om_wm_event_make(p->trace, OM_WM_EV_RECOVERED, (int)u, -1);
                om_wm_trace_put(p->trace, &e);
            }
        }
    }
}

void om_wm_command_phase(const om_wm_command_setup *s, om_wm_table *t, om_dice *d,
                         om_wm_command_result *out)
{
    om_wm_command_phase_traced(s, t, d, out, NULL);
}

void om_wm_command_phase_traced(const om_wm_command_setup *s, om_wm_table *t, om_dice *d,
                                om_wm_command_result *out, om_wm_trace *trace)
{
    phase p = {.s = s, .r = rules_of(s->rules), .t = t, .d = d, .out = out, .trace = trace,
               .brigaded = active_brigades(s, t)};
    /* Only the table's units and characters: the rest of the arrays is never
     * read (a trial clears what it uses, not the room of a full table). */
    memset(out->unit, 0, t->units * sizeof out->unit[0]);
    memset(out->character, 0, t->characters * sizeof out->character[0]);
    out->general = -1;
    out->general_tests = out->general_passed = out->ended = out->charges = 0;
    for (unsigned u = 0; u < t->units; u++) {
        out->unit[u].by = -1;
        out->unit[u].charge_target = -1;
    }
    for (unsigned c = 0; c < t->characters; c++)
        if (t->character[c].side == s->side && t->character[c].kind == OM_WM_GENERAL)
            out->general = (int8_t)c;
    om_wm_regalia_phase_start(s, t, out, trace);
    initiative_step(&p);
    orders_step(&p);
    characters_step(&p);
    recovery_step(&p);
}

/* ---- Check ---- */

static const char *const kind_words[OM_WM_CHARACTER_KIND_COUNT] = {"General", "Hero", "Wizard"};

/* Whether character c reaches unit u from where both stand. */
static om_status check_reach(const om_wm_command_setup *s, const om_wm_table *t,
                             const char *list, int index, unsigned c, unsigned u,
                             om_wm_check_failure *why)
{
    const om_wm_table_character *ch = &t->character[c];
    bool flyer = is_flyer(&t->unit[u]);
    double cm = om_wm_table_character_distance(t, c, u);
    double range = om_wm_command_range_cm(s->rules, ch->kind);
    if (om_wm_command_in_range(s->rules, ch->kind, flyer, cm))
        return OM_OK;
    if (flyer && cm > rules_of(s->rules)->flyer_range_cm)
        range = fmin(range, rules_of(s->rules)->flyer_range_cm);
    return om_check_fail_item(why, list, index, ".by", "the %s (characters[%u], %s) is %.1fcm from units[%u] "
                "(%s), beyond the %.0fcm from which %s", kind_words[ch->kind], c, ch->name, cm,
                u, t->unit[u].name, range,
                flyer ? "a flyer takes orders" : "he can order it");
}

static om_status check_plan_fields(const om_wm_command_setup *s, const om_wm_table *t,
                                   const om_wm_plan *pl, const char *list, int index, int self,
                                   om_wm_check_failure *why)
{
    if ((unsigned)pl->kind >= OM_WM_PLAN_KIND_COUNT)
        return om_check_fail_item(why, list, index, ".kind", "unknown plan %d", (int)pl->kind);
    if ((unsigned)pl->initiative >= OM_WM_INITIATIVE_COUNT)
        return om_check_fail_item(why, list, index, ".initiative", "unknown initiative policy %d",
                    (int)pl->initiative);
    if (pl->orders > OM_WM_COMMAND_MAX_ORDERS)
        return om_check_fail_item(why, list, index, ".orders", "a unit takes at most %d orders a phase "
                    "(got %u)", OM_WM_COMMAND_MAX_ORDERS, pl->orders);
    if (pl->target >= (int)t->units || pl->target < -1 ||
        (pl->target >= 0 && !t->unit[pl->target].present))
        return om_check_fail_item(why, list, index, ".target", "no unit %d on the table", pl->target);
    if (pl->target >= 0 && pl->target == self)
        return om_check_fail_item(why, list, index, ".target", "a unit cannot aim at itself");
    if (pl->target >= 0 && (pl->kind == OM_WM_PLAN_CHARGE || pl->kind == OM_WM_PLAN_SHOOT) &&
        t->unit[pl->target].side == s->side)
        return om_check_fail_item(why, list, index, ".target", "units[%d] (%s) is a friend: only enemies "
                    "are charged or shot", pl->target, t->unit[pl->target].name);
    if (pl->kind == OM_WM_PLAN_SUPPORT && self < 0)
        return om_check_fail_item(why, list, index, ".kind", "a brigade is not ordered to "
                    "support: each unit supports a friend of its own");
    if (pl->kind == OM_WM_PLAN_SUPPORT && pl->target < 0)
        return om_check_fail_item(why, list, index, ".target", "a support names the friend "
                    "it supports");
    if (pl->kind == OM_WM_PLAN_SUPPORT && t->unit[pl->target].side != s->side)
        return om_check_fail_item(why, list, index, ".target", "units[%d] (%s) is an enemy: "
                    "only friends are supported", pl->target, t->unit[pl->target].name);
    if (pl->kind == OM_WM_PLAN_SHOOT && self >= 0 && t->unit[self].range_cm == 0)
        return om_check_fail_item(why, list, index, ".kind", "units[%d] (%s) has no shooting range",
                    self, t->unit[self].name);
    if (pl->kind == OM_WM_PLAN_ADVANCE && pl->target < 0 &&
        (!(pl->goal.x >= 0) || !(pl->goal.y >= 0) || pl->goal.x > t->width_cm ||
         pl->goal.y > t->depth_cm))
        return om_check_fail_item(why, list, index, ".goal", "the goal (%.1f,%.1f) is off the table",
                    pl->goal.x, pl->goal.y);
    if (!(pl->keep_cm >= 0) || pl->keep_cm > t->width_cm + t->depth_cm)
        return om_check_fail_item(why, list, index, ".keep", "must be 0 or more cm (got %g)", pl->keep_cm);
    if (pl->by >= (int)t->characters || pl->by < -1 ||
        (pl->by >= 0 && t->character[pl->by].side != s->side))
        return om_check_fail_item(why, list, index, ".by", "must name a character of side %u", s->side);
    return OM_OK;
}

static om_status check_brigade_plans(const om_wm_command_setup *s, const om_wm_table *t,
                                     om_wm_check_failure *why)
{
    om_status st;
    for (unsigned b = 0; b < OM_WM_TABLE_MAX_BRIGADES; b++) {
        const om_wm_plan *pl = &s->brigade_plan[b];
        if (pl->kind == OM_WM_PLAN_HOLD)
            continue;
        if (b >= t->brigades)
            return om_check_fail_item(why, "brigade_plans", (int)b, "", "there is no brigade %u", b);
        if (t->unit[t->brigade[b].unit[0]].side != s->side)
            continue; /* the other side's brigade: its own turn checks it */
        if ((st = check_plan_fields(s, t, pl, "brigade_plans", (int)b, -1, why)))
            return st;
        for (unsigned i = 0; pl->by >= 0 && i < t->brigade[b].count; i++)
            if ((st = check_reach(s, t, "brigade_plans", (int)b, (unsigned)pl->by,
                                  t->brigade[b].unit[i], why)))
                return st;
    }
    return OM_OK;
}

om_status om_wm_command_check(const om_wm_command_setup *s, const om_wm_table *t,
                              om_wm_check_failure *why)
{
    om_status st;
    if ((unsigned)s->rules >= OM_WM_RULES_COUNT)
        return om_check_fail_item(why, "ruleset", -1, "", "unknown rule set %d", (int)s->rules);
    if (s->side > 1)
        return om_check_fail_item(why, "side", -1, "", "the moving side must be 0 or 1 (got %u)", s->side);
    if ((unsigned)s->issue >= OM_WM_ISSUE_COUNT)
        return om_check_fail_item(why, "issue", -1, "", "unknown order of issue %d", (int)s->issue);
    if (s->options.general_blunders && rules_of(s->rules)->general_never_blunders)
        return om_check_fail_item(why, "options.general_blunders", -1, "", "Warmaster Ancients Generals "
                    "never blunder (Commanders > Blunders)");
    for (unsigned u = 0; u < t->units; u++) {
        const om_wm_plan *pl = &s->plan[u];
        if (t->unit[u].side != s->side || !t->unit[u].present)
            continue;
        if ((st = check_plan_fields(s, t, pl, "plans", (int)u, (int)u, why)))
            return st;
        if (pl->kind != OM_WM_PLAN_HOLD && pl->by >= 0 &&
            (st = check_reach(s, t, "plans", (int)u, (unsigned)pl->by, u, why)))
            return st;
    }
    return check_brigade_plans(s, t, why);
}

/* ---- Options registry ---- */

static const om_wm_option command_option_table[] = {
    {.name = "general_blunders", .ambiguity = "A1",
     .section = "Warmaster Revolution, Generals, Wizards & Heroes > Blunders",
     .question = "Is a General's failed order on a 12 also a blunder?",
     .default_value = "false: only Heroes and Wizards blunder; a General's 12 just fails (and "
                      "ends the phase)",
     .other_value = "true: it rolls on the Blunder table too (never in Ancients)",
     .offset = offsetof(om_wm_command_options, general_blunders)},
    {.name = "alternative_blunder", .ambiguity = "-",
     .section = "Warmaster Revolution, Generals, Wizards & Heroes > Blunders > Alternative "
                "Blunder Rule",
     .question = "Optional rule: does a blunder end the whole Command phase instead of rolling "
                 "on the table?",
     .default_value = "false: roll on the Blunder table",
     .other_value = "true: the phase ends like a failed General order",
     .offset = offsetof(om_wm_command_options, alternative_blunder)},
    {.name = "command_distance_per_full_20", .ambiguity = "A2 / WMA A1",
     .section = "Warmaster Revolution and Ancients, Command > Command Penalties",
     .question = "Distance penalty at exact multiples of 20cm: the chart or \"per full 20cm\"?",
     .default_value = "false: the chart, ceil(d/20) - 1 (40cm is -1)",
     .other_value = "true: per full 20cm, floor(d/20) (40cm is -2)",
     .offset = offsetof(om_wm_command_options, distance_per_full_20)},
    /* Fixed readings (offset OM_WM_OPTION_FIXED). */
    {.name = "enemy_close_ignorable", .ambiguity = "A40",
     .section = "Warmaster Revolution, Command > Command Penalties",
     .question = "Does the -1 for an enemy within 20cm count an enemy initiative may ignore?",
     .default_value = "fixed: yes, the closest enemy unit counts whatever it is",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "brigade_blunder_penalty", .ambiguity = "-",
     .section = "Warmaster Revolution, Command > Command Penalties; Generals, Wizards & Heroes > "
                "Blunders",
     .question = "A brigade with several units under permanent blunder penalties: how much?",
     .default_value = "fixed: the largest of them, once (like casualties)", .other_value = "-",
     .offset = OM_WM_OPTION_FIXED},
    {.name = "brigade_crazy_unit", .ambiguity = "-",
     .section = "Warmaster Revolution, Generals, Wizards & Heroes > Blunders",
     .question = "\"You must be crazy!\" on a brigade: which unit takes the -1 (the player picks)?",
     .default_value = "fixed: the brigade's first listed unit", .other_value = "-",
     .offset = OM_WM_OPTION_FIXED},
    {.name = "blunder_brigades", .ambiguity = "A23",
     .section = "Warmaster Revolution, Generals, Wizards & Heroes > Blunders",
     .question = "Blunders 2-3 and 6 on brigades",
     .default_value = "fixed: units one at a time; 2-3 away from the closest visible enemy to "
                      "the slowest unit's full pace",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "evade_blocked", .ambiguity = "A31",
     .section = "Warmaster Revolution, Movement > Moving by Initiative > The path of evaders",
     .question = "An evader that cannot end clear of enemies and engaged units",
     .default_value = "fixed: it cannot evade and stays put (it may still take orders)",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "initiative_ties", .ambiguity = "-",
     .section = "Warmaster Revolution, Movement > Moving by Initiative",
     .question = "Enemies equally close for initiative (the player picks)",
     .default_value = "fixed: the lower unit index", .other_value = "-",
     .offset = OM_WM_OPTION_FIXED},
    {.name = "zone_tie", .ambiguity = "-",
     .section = "Warmaster Revolution, Combat > Moving Chargers > Zones",
     .question = "A charger exactly split between two zones (a D6 in the rules)",
     .default_value = "fixed: the front", .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "wm11_command_text", .ambiguity = "-",
     .section = "Warmaster 1.1 Rules Update (it reprints only the passages it changes)",
     .question = "1.1's blunder trigger and table and evade clearance (not in the Rules Update)",
     .default_value = "fixed: as Revolution", .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "commander_12cm_text", .ambiguity = "WMA A4",
     .section = "Warmaster Ancients, Commanders > Commanders as Game Pieces",
     .question = "The \"12cm\" commander text",
     .default_value = "fixed: ignored; commanders never trigger initiative or the enemy-close "
                      "penalty",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
    {.name = "general_range", .ambiguity = "WMA A2",
     .section = "Warmaster Ancients, Commanders > Commanders and Orders",
     .question = "Orders from an Ancients General to units beyond 100cm",
     .default_value = "fixed: not allowed (Revolution and 1.1: the whole battlefield)",
     .other_value = "-", .offset = OM_WM_OPTION_FIXED},
};

const om_option_table om_wm_command_option_registry = {
    "the Command phase", command_option_table,
    sizeof command_option_table / sizeof command_option_table[0]};

size_t om_wm_command_option_count(void) { return om_wm_command_option_registry.count; }

const om_wm_option *om_wm_command_option_at(size_t i)
{
    return i < om_wm_command_option_registry.count ? &command_option_table[i] : NULL;
}

const om_wm_option *om_wm_command_option_find(const char *name)
{
    return om_option_find(&om_wm_command_option_registry, name);
}

om_status om_wm_command_option_set(om_wm_command_options *o, const char *name,
                                   const char *value)
{
    return om_option_set(&om_wm_command_option_registry, o, name, value);
}

const char *om_wm_command_option_value(const om_wm_command_options *o, const om_wm_option *opt)
{
    return om_option_value(opt, o, NULL, 0);
}
