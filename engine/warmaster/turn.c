/*
 * turn.c: a whole Warmaster turn (turn.h): the moving side's Command phase,
 * its Shooting phase and the Combat phase over the units on a table
 * (Warmaster Revolution, Game Sequence; Command; Shooting; Combat; Confusion;
 * Warmaster Ancients, Game Sequence to Confusion). Sections cited are Warmaster
 * Revolution's unless another rulebook is named.
 *
 * Each phase calls the engine's own mechanism: om_wm_command_phase; the
 * shooting of shooting.c (om_wm_fire_at for each shooter, om_wm_drive_back_at
 * once per target with every shooter's hits, Shooting > Driving Back Enemies;
 * The Role of Missile Troops); and for each engagement om_wm_multi_prepare and
 * om_wm_multi_resolve over one Combat phase (MULTICOMBAT.md). What this file
 * adds is what the table decides:
 * targets, stands in range, the direction and length of drive backs,
 * engagements, contacts, supports, what lies behind a unit. Its readings of
 * rules the geometry leaves open are fixed readings, in the registry at the
 * end and in TURNS.md ("A whole turn").
 */
#include "turn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wm_int.h"

/* A unit "moved" when its centre moved at least this far: the distance under
 * which the Command phase counts a move as getting nowhere (TURNS.md C1). */
#define MOVED_MIN_CM 0.1
/* How far behind a unit the table is searched for what its drive back or
 * retreat runs into: further than any distance a unit that stays is moved
 * (the drive-back and retreat distances are counts of a byte). */
#define BEHIND_REACH_CM 255.0
/* A drive back halts this far from enemies ("halts 1cm away": Confusion > When
 * do Units Become Confused? (4); Shooting > Driving Back Enemies). */
#define DRIVE_BACK_ENEMY_GAP_CM 1.0
/* The most a stand moves in an advance, whatever its pace or formation
 * (Combat > Advance: "no stand may move further than 20cm"). */
#define ADVANCE_CM 20.0
/* No friend: a unit that supports none (support_of). */
#define NO_FRIEND UINT8_MAX

const char *const om_wm_shoot_policy_names[OM_WM_SHOOT_POLICY_COUNT] = {"closest", "hold"};

struct om_wm_turn_prepared {
    om_wm_turn turn;                          /* the turn (a copy) */
    om_wm_dice_kit *kit;                      /* the dice tables of every test */
    bool engaged_at_start[OM_WM_TABLE_MAX_UNITS]; /* touching an enemy as the turn starts */
    uint32_t vp_lost[OM_WM_TABLE_MAX_UNITS][OM_WM_TABLE_MAX_STANDS + 1]; /* [u][l]: victory
                                                     points unit u loses losing l of the
                                                     stands it starts with */
    uint8_t own_bonus[OM_WM_TABLE_MAX_UNITS]; /* unit u's bonus Attacks not a character's:
                                                 its side's, unless characters with a
                                                 bonus of their own join it as the turn
                                                 starts (their bonus then goes with them) */
};

/* How the stands of the table touch, as the Combat phase reads it. */
typedef struct contacts {
    uint8_t stands[OM_WM_TABLE_MAX_UNITS][OM_WM_TABLE_MAX_UNITS];  /* [u][v]: u's stands
                                                                      striking enemy v */
    uint8_t flanked[OM_WM_TABLE_MAX_UNITS][OM_WM_TABLE_MAX_UNITS]; /* of those, with v's
                                                                      front on their flank */
    uint8_t side_strikers[OM_WM_TABLE_MAX_UNITS][OM_WM_TABLE_MAX_UNITS]; /* of the flanked,
                                                                      striking to a side */
    uint8_t own_supports[OM_WM_TABLE_MAX_UNITS];  /* u's stands supporting u */
    uint8_t own_rear[OM_WM_TABLE_MAX_UNITS];      /* of those, from behind */
    uint8_t link[OM_WM_TABLE_MAX_UNITS][OM_WM_TABLE_MAX_UNITS];      /* [s][f]: s's stands
                                                                      supporting friend f */
    uint8_t link_rear[OM_WM_TABLE_MAX_UNITS][OM_WM_TABLE_MAX_UNITS]; /* of those, behind */
    om_wm_unit_set touches[OM_WM_TABLE_MAX_UNITS]; /* v in [u]: u touches enemy unit v */
    om_wm_unit_set links[OM_WM_TABLE_MAX_UNITS];   /* f in [s]: link[s][f] was counted */
    unsigned rows;                            /* the rows of the pass that filled it: of
                                                 stands, flanked, side_strikers, link and
                                                 link_rear only the entries touches and
                                                 links name are not zero (contacts_clear) */
    uint16_t touching[OM_WM_TABLE_MAX_UNITS]; /* bit i: stand i touches an enemy */
    uint16_t front[OM_WM_TABLE_MAX_UNITS];    /* bit i: stand i fights to its front */
    uint16_t charged_front[OM_WM_TABLE_MAX_UNITS]; /* bit i: a charger touches stand i's
                                                      front edge */
} contacts;

struct om_wm_turn_work {
    om_wm_table t;                            /* the trial's table */
    om_wm_table spare;                        /* a start table its caller builds
                                                 (om_wm_turn_work_spare) */
    om_wm_table_memo *memo;                   /* what its queries worked out, kept from
                                                 trial to trial */
    om_wm_command_result command;             /* its Command phase */
    contacts c;                               /* who touches whom in its Combat phase */
    om_wm_multi_prepared *mp;                 /* the engagement being fought */
    om_wm_multi m;                            /* ...as described to the engine */
    om_wm_side side[OM_WM_UNITS_MAX];         /* its units' sides as the table decided */
    uint8_t index[OM_WM_UNITS_MAX];           /* their table indices */
    om_wm_unit_state state[OM_WM_UNITS_MAX];  /* their states */
    om_wm_multi_outcome outcome;              /* what it did */
    uint8_t start_stands[OM_WM_TABLE_MAX_UNITS]; /* stands as the turn started */
    bool hurt[OM_WM_TABLE_MAX_UNITS];         /* a big monster badly hurt this turn */
    uint8_t back_cm[OM_WM_TABLE_MAX_UNITS];   /* how far the unit moves back after its
                                                 engagement: its retreats and fall back */
    uint8_t follow_cm[OM_WM_TABLE_MAX_UNITS]; /* how far it follows the enemy it
                                                 pursued (moves_after_combat) */
    uint8_t follow_of[OM_WM_TABLE_MAX_UNITS]; /* ...that enemy's table index */
    uint8_t support_of[OM_WM_TABLE_MAX_UNITS]; /* the friend a winning supporter moves
                                                 with, or NO_FRIEND */
    bool advancer[OM_WM_TABLE_MAX_UNITS];     /* its side's engagement destroyed every
                                                 enemy: it may advance (Combat > Advance) */
    bool advanced[OM_WM_TABLE_MAX_UNITS];     /* it advanced in this Combat phase */
    bool advancing[OM_WM_TABLE_MAX_UNITS];    /* it advanced into an engagement still to
                                                 be fought in this phase */
    bool advanced_upon[OM_WM_TABLE_MAX_UNITS]; /* an enemy advanced on it, engaged with
                                                 no other before, into an engagement
                                                 still to be fought in this phase: it
                                                 may shoot at the advancer (Combat >
                                                 Advance) */
    bool fought[OM_WM_TABLE_MAX_UNITS];       /* it fought in this Combat phase */
    bool unresolved[OM_WM_TABLE_MAX_UNITS];   /* in a combat of this phase that goes on
                                                 next turn */
    const om_wm_command_setup *setup;         /* the turn being played: its moving
                                                 side and plans */
    bool engaged_at_start[OM_WM_TABLE_MAX_UNITS]; /* touching an enemy as it started */
    bool from_start;                          /* it started from the prepared table, so
                                                 the prepared tables of victory points
                                                 apply */
    om_wm_trace *trace;                       /* where its events go (trace.h), or NULL:
                                                 in a run, NULL */
    om_wm_magic_turn magic;                   /* what its spells did (magic.h) */
    int8_t aim[OM_WM_TABLE_MAX_UNITS];        /* in its Shooting phase: the unit each
                                                 unit shot at, or -1 */
    uint16_t aim_hits[OM_WM_TABLE_MAX_UNITS]; /* ...and its unsaved hits */
    om_wm_vec pose_centre[OM_WM_TABLE_MAX_UNITS]; /* where each unit stood after the last
                                                 move its characters do not make with it
                                                 (the Command phase's), and... */
    om_wm_vec pose_dir[OM_WM_TABLE_MAX_UNITS]; /* ...its facing then (carry_characters) */
    om_wm_credit credit;                      /* who removed whose stands since
                                                 om_wm_turn_begin (credit.h) */
};

/* ---- Small helpers ---- */

static bool moving_unit(const om_wm_turn_work *w, unsigned u)
{
    return w->t.unit[u].present && w->t.unit[u].side == w->setup->side;
}

/* A gap on the table in whole centimetres, as the combat engine takes it (a
 * retreat longer than the gap is blocked), at most 255: rounded down, but a
 * gap within OM_PLANE_TIE_CM of a whole number is that number, so that the
 * same gap measured by either army (whose coordinates round differently)
 * gives the same centimetres. */
static uint8_t whole_cm(double cm)
{
    return (uint8_t)(cm < UINT8_MAX ? floor(cm + OM_PLANE_TIE_CM) : UINT8_MAX);
}

/* Stands abreast in unit u's front rank (its files). */
static unsigned front_files(const om_wm_table_unit *u)
{
    unsigned files = (unsigned)lround(om_wm_table_unit_width(u) / u->stand_w);
    return files < 1 ? 1 : files;
}

static bool sees_all_round(const om_wm_table_unit *u)
{
    return (u->traits & (OM_WM_TABLE_TRAIT_ALL_ROUND | OM_WM_TABLE_TRAIT_SKIRMISH)) != 0;
}

/* The unit vector from a to b, or `fallback` when they coincide. */
static om_wm_vec unit_vector(om_wm_vec a, om_wm_vec b, om_wm_vec fallback)
{
    double dx = b.x - a.x, dy = b.y - a.y, l = sqrt(dx * dx + dy * dy);
    return l > 1e-9 ? (om_wm_vec){dx / l, dy / l} : fallback;
}

/* ---- Shooting phase (Shooting; Warmaster Ancients, Shooting) ---- */

/* What the Shooting phase does to one target before its drive back. */
typedef struct target_fire {
    unsigned hits;    /* unsaved hits of every shooter (Driving Back Enemies) */
    unsigned quiet;   /* unsaved hits of spells that drive no unit back (magic.h) */
    int driver;       /* the closest unit that shot at it (the driving unit), or -1 */
    double driver_cm; /* its distance */
} target_fire;

/* Unit `me` as it shoots or is shot at: its values, halved if badly hurt. */
static const om_wm_side *side_now(const om_wm_turn *turn, const om_wm_turn_work *w, unsigned u,
                                  om_wm_side *buf)
{
    const om_wm_side *s = &turn->unit[u].side;
    if (!w->hurt[u])
        return s;
    om_wm_side_hurt(s, buf);
    return buf;
}

/* The stands of shooter u that shoot at `target`: its front rank (stands of
 * its own unit block the sight of those behind, Shooting > Targets), every
 * stand for all-round shooters, each within range of the target (range is
 * measured stand by stand). */
static unsigned stands_in_range(const om_wm_table *t, unsigned u, unsigned target, double range)
{
    const om_wm_table_unit *un = &t->unit[u];
    const unsigned files = sees_all_round(un) ? un->stands : front_files(un);
    unsigned n = 0;
    for (unsigned i = 0; i < un->stands && i < files; i++)
        n += om_wm_table_stand_within(t, u, i, target, range + OM_WM_TABLE_TOUCH_CM);
    return n;
}

/* The best score to hit a D6 may need: spells never make it worse (army
 * lists, Aerial Shield: "may never get worse than 6+"). */
#define WORST_TO_HIT 6u

/* The tests of `shooter` at unit `target` under spells (magic.h): each score
 * to hit one worse under Aerial Shield (OM_WM_LASTING_SHOT_AT) and `worse`
 * more in a volley a spell added (Heaven's Fire), never worse than 6. */
static void spell_tests(const om_wm_turn_prepared *p, const om_wm_side *shooter,
                        const om_wm_side *target_side, const om_wm_table *t, unsigned target,
                        unsigned worse, om_wm_pair_tests *tests)
{
    om_wm_pair_scores sc;
    om_wm_pair_scores_of(p->turn.rules, shooter, target_side, &sc);
    for (unsigned i = 0; i < sc.n; i++) {
        unsigned to_hit = om_wm_lasting_to_hit(t, target, sc.to_hit[i]) + worse;
        om_wm_dice_kit_test(p->kit, to_hit < WORST_TO_HIT ? to_hit : WORST_TO_HIT, sc.save[i],
                            om_wm_pair_test_at(tests, i));
    }
}

/* Shooter u fires at its target, if it has one (`worse`: a volley a spell
 * added, that much worse to hit): hits added to the target's,
 * the cost of its shooting to itself (machines that blow up). */
static void shoot_one(const om_wm_turn_prepared *p, om_wm_turn_work *w, om_dice *d, unsigned u,
                      target_fire *fire, om_wm_turn_result *out, unsigned worse)
{
    const om_wm_turn *turn = &p->turn;
    const om_wm_turn_unit *tu = &turn->unit[u];
    om_wm_table *t = &w->t;
    om_wm_side me_buf, target_side, shooter;
    const om_wm_side *me = side_now(turn, w, u, &me_buf);
    const double range = me->unit.range_cm;
    om_wm_pair_tests tests;
    om_wm_fire f = {.reduced = false};
    unsigned stands, left = t->unit[u].stands;
    double cm;
    int target;

    if (tu->shoot == OM_WM_SHOOT_HOLD || range <= 0 ||
        (!om_wm_unit_shoots(&me->unit) && me->extra_shots == 0) || me->shooting == 0 ||
        om_wm_table_engaged(t, u))
        return;
    target = om_wm_table_closest_visible_enemy(t, turn->command.rules, u,
                                               sees_all_round(&t->unit[u]), range,
                                               OM_WM_TABLE_SKIP_ENGAGED, &cm);
    if (target < 0 || (stands = stands_in_range(t, u, (unsigned)target, range)) == 0)
        return;
    /* The target as it stands now: terrain may give it cover (Shooting > Scores to
     * Hit; Combat > Defended & Fortified Troops). */
    target_side = turn->unit[target].side;
    target_side.position = om_wm_table_position(t, (unsigned)target);
    target_side.dense_terrain = om_wm_table_in_dense(t, (unsigned)target);
    om_wm_lasting_side(t, (unsigned)target, &target_side);
    /* Shots by range band (repeating crossbows, the Helblaster) go by the
     * distance to the target, to the next whole cm (army lists). */
    shooter = *me;
    shooter.target_cm = (uint8_t)(cm < 255 ? ceil(cm - OM_WM_TABLE_TOUCH_CM) : 255);
    om_wm_dice_kit_pair_tests(p->kit, turn->rules, &shooter, &target_side, &tests);
    if ((t->unit[target].lasting.kinds & OM_WM_LASTING_SHOT_AT) || worse > 0)
        spell_tests(p, &shooter, &target_side, t, (unsigned)target, worse, &tests);
    om_wm_fire_at(&tests, &target_side, d, &shooter, stands, false, t->unit[target].stands, &f);
    if (w->trace != NULL) {
        om_wm_event e = om_wm_event_make(w->trace, OM_WM_EV_SHOOT, (int)u, target);
        e.v[0] = (int16_t)stands;
        e.v[1] = (int16_t)f.hits;
        om_wm_trace_put(w->trace, &e);
    }
    fire[target].hits += f.hits;
    /* A second volley at the same target adds to the first's credit; at
     * another, the credit follows the last (credit.h). */
    w->aim_hits[u] = (uint16_t)(f.hits + (w->aim[u] == target ? w->aim_hits[u] : 0u));
    w->aim[u] = (int8_t)target;
    if (fire[target].driver < 0 || cm < fire[target].driver_cm - 1e-9) {
        fire[target].driver = (int)u;
        fire[target].driver_cm = cm;
    }
    out->unit[target].shot_at = 1;
    /* What its shooting cost it (army lists: misfires). */
    if (om_wm_fire_cost(d, &shooter.unit, &f, &left)) {
        t->unit[u].confused = true;
        if (w->trace != NULL) {
            om_wm_event e = om_wm_event_make(w->trace, OM_WM_EV_CONFUSED, (int)u, -1);
            e.v[0] = OM_WM_CONFUSED_MISFIRE;
            om_wm_trace_put(w->trace, &e);
        }
    }
    t->unit[u].stands = (uint8_t)left;
    if (left == 0)
        t->unit[u].present = false;
    om_wm_table_update(t, u);
}

/* The record of what the Shooting phase did to `target`, which had `stands`. */
static void trace_shot(om_wm_trace *tr, unsigned target, const om_wm_volley_result *v,
                       unsigned stands)
{
    om_wm_event e = om_wm_event_make(tr, OM_WM_EV_SHOT_RESULT, (int)target, -1);
    const bool gone = v->routed || v->off_table || v->stands_lost >= stands;
    e.v[0] = (int16_t)v->hits;
    e.v[1] = (int16_t)(gone ? stands : v->stands_lost);
    e.v[2] = (int16_t)(gone ? 0 : v->drive_back_cm);
    e.flags = (uint8_t)((gone ? OM_WM_EVF_DESTROYED : 0) | (v->confused && !gone ? OM_WM_EVF_CONFUSED : 0));
    om_wm_trace_put(tr, &e);
}

/* The end of the Shooting phase for `target` (Shooting > Driving Back Enemies;
 * Shooting at a Glance > Disregard Odd Hits): stands removed by every hit, then
 * one drive back directly away from its driver, which moves it on the table up
 * to what lies that way. */
static void drive_back(const om_wm_turn_prepared *p, om_wm_turn_work *w, om_dice *d,
                       unsigned target, const target_fire *fire, om_wm_turn_result *out)
{
    const om_wm_turn *turn = &p->turn;
    om_wm_table *t = &w->t;
    om_wm_table_unit *un = &t->unit[target];
    om_wm_side side = turn->unit[target].side, driver_buf;
    const om_wm_side *driver = side_now(turn, w, (unsigned)fire->driver, &driver_buf);
    const unsigned stands = un->stands;
    unsigned left = stands, carried = 0;
    om_wm_volley_result v;
    om_wm_table_behind behind;
    om_wm_vec pa, pb, away;
    om_wm_table_move_rule rule = {.enemy_gap_cm = DRIVE_BACK_ENEMY_GAP_CM, .target = -1};

    side.position = om_wm_table_position(t, target);
    side.dense_terrain = om_wm_table_in_dense(t, target);
    om_wm_lasting_side(t, target, &side);
    /* Directly away from the closest stand that shot at it (Driving Back Enemies). */
    om_wm_table_closest_points(t, (unsigned)fire->driver, target, &pa, &pb);
    away = unit_vector(pa, pb, (om_wm_vec){-un->dir.x, -un->dir.y});
    om_wm_table_behind_along(t, turn->command.rules, target, away, BEHIND_REACH_CM, &behind);
    side.behind = behind.kind;
    side.behind_cm = whole_cm(behind.cm);
    side.behind_stands = behind.stands;
    /* Every hit removes stands; only those of shooting and of spells that
     * drive back roll drive-back dice (magic.h). */
    v.hits = om_wm_steadfast(&side, stands, fire->hits + fire->quiet);
    v.stands_lost = om_wm_record_hits(&left, &carried, side.unit.hits, v.hits);
    v.hits = v.hits < fire->hits ? v.hits : fire->hits;
    om_wm_drive_back_at(turn->rules, d, &side, &driver->unit.traits, stands, left, carried, &v);
    if (w->trace != NULL)
        trace_shot(w->trace, target, &v, stands);
    if (v.routed || v.off_table || v.stands_lost >= stands) {
        out->unit[target].routed |= v.routed;
        un->stands = 0;
        un->present = false;
        om_wm_table_update(t, target);
        return;
    }
    un->stands = (uint8_t)(stands - v.stands_lost);
    om_wm_table_update(t, target);
    un->hits = 0; /* odd hits go at the end of the phase (Disregard Odd Hits) */
    un->confused |= v.confused;
    w->hurt[target] |= v.hurt;
    if (v.drive_back_cm > 0 && !side.unit.traits.no_drive_back &&
        side.unit.traits.static_machine == OM_WM_NOT_STATIC &&
        side.formation != OM_WM_FORMATION_LAAGER) {
        om_wm_vec goal = {un->centre.x + away.x * v.drive_back_cm,
                          un->centre.y + away.y * v.drive_back_cm};
        (void)om_wm_table_move(t, turn->command.rules, target, goal, v.drive_back_cm, &rule,
                               NULL);
        om_wm_lasting_moved(t, target);
    }
}

/* The end of the Shooting phase for `target` hit only by spells that drive no
 * unit back: its stands removed, its odd hits gone (Disregard Odd Hits). */
static void remove_hit_stands(const om_wm_turn_prepared *p, om_wm_turn_work *w, unsigned target,
                              const target_fire *fire)
{
    om_wm_table_unit *un = &w->t.unit[target];
    const om_wm_side *side = &p->turn.unit[target].side;
    unsigned left = un->stands, carried = 0;
    (void)om_wm_record_hits(&left, &carried, side->unit.hits,
                            om_wm_steadfast(side, un->stands, fire->quiet));
    un->stands = (uint8_t)left;
    un->present = left > 0;
    un->hits = 0;
    om_wm_table_update(&w->t, target);
}

/* Unit u moves as if ordered by a spell (magic.h, OM_WM_SPELL_MOVE): its
 * joined characters stay where they are and leave it, to rejoin it as their
 * policy says in the next Command phase, but the Wizard a spell moves with it
 * (Wings in the Jungle) stays joined and is carried with it. */
static void spell_move(om_wm_turn_work *w, unsigned u, om_wm_turn_result *out)
{
    const double before = w->command.unit[u].moved_cm;
    if (!om_wm_command_move_as_ordered(w->setup, &w->t, u, &w->command) ||
        w->command.unit[u].moved_cm < before + MOVED_MIN_CM)
        return;
    out->unit[u].moved = 1;
    if (w->command.unit[u].charged && !out->unit[u].charged) {
        out->unit[u].charged = 1;
        if (w->trace != NULL) {
            om_wm_event e = om_wm_event_make(w->trace, OM_WM_EV_CHARGE, (int)u,
                                             w->command.unit[u].charge_target);
            om_wm_trace_put(w->trace, &e);
        }
    }
    /* The casting Wizard stays joined: carry_characters moves him with the
     * unit at the end of the turn, as it does after every move outside the
     * Command phase; the unit's other characters are left behind. */
    for (unsigned c = 0; c < w->t.characters; c++) {
        om_wm_table_character *ch = &w->t.character[c];
        if (ch->joined == (int)u && w->magic.mover[u] != (int)c)
            ch->joined = -1;
    }
}

/* The moving side's Wizards cast their spells (magic.h): hits join the
 * phase's, the Wizard's unit driving back; Attacks wait for the Combat phase. */
static void cast_spells(const om_wm_turn_prepared *p, om_wm_turn_work *w, om_dice *d,
                        target_fire *fire, om_wm_turn_result *out)
{
    const om_wm_magic_turn *m = &w->magic;
    w->magic.setup = w->setup;
    om_wm_magic_phase(&p->turn, p->kit, &w->t, w->setup->side, d, &w->magic, w->trace);
    /* Units a spell moves as if ordered, in index order (magic.h). */
    for (unsigned u = 0; u < w->t.units; u++)
        if (om_wm_unit_set_has(&m->moves, u))
            spell_move(w, u, out);
    for (unsigned u = 0; u < w->t.units; u++) {
        fire[u].hits += m->hits[u];
        fire[u].quiet += m->quiet_hits[u];
        if (m->driver[u] >= 0) {
            fire[u].driver = m->driver[u];
            fire[u].driver_cm = om_wm_table_distance(&w->t, (unsigned)m->driver[u], u);
        }
    }
    out->spells_cast = m->cast;
    out->spells_worked = m->worked;
}

/* Whether a Wizard of side `side` is with unit u. */
static bool wizard_with(const om_wm_table *t, unsigned side, unsigned u)
{
    for (unsigned c = 0; c < t->characters; c++)
        if (t->character[c].side == side && t->character[c].kind == OM_WM_WIZARD &&
            t->character[c].joined == (int)u)
            return true;
    return false;
}

/* Credit the stands the Shooting phase removed from the moving side's enemies
 * (before[u]: stands as it began) to the units that hit them (credit.h): each
 * shooter by its unsaved hits, the unit of the Wizard whose spell drove the
 * target back by the spells' hits; a loss no hit of a known unit explains
 * (a shattered stand, a spell cast from no unit's ranks) to the units the
 * moving side's Wizards are with. */
static void credit_shooting(om_wm_turn_work *w, const uint8_t *before)
{
    const om_wm_table *t = &w->t;
    const om_wm_magic_turn *m = &w->magic;
    const unsigned side = w->setup->side;
    float weight[OM_WM_TABLE_MAX_UNITS];
    for (unsigned v = 0; v < t->units; v++) {
        const unsigned now = t->unit[v].present ? t->unit[v].stands : 0;
        float total = 0;
        if (t->unit[v].side == side || before[v] <= now)
            continue;
        for (unsigned a = 0; a < t->units; a++)
            total += weight[a] = w->aim[a] == (int)v ? (float)w->aim_hits[a] : 0;
        if (m->driver[v] >= 0) {
            weight[(unsigned)m->driver[v]] += (float)(m->hits[v] + m->quiet_hits[v]);
            total += (float)(m->hits[v] + m->quiet_hits[v]);
        }
        for (unsigned a = 0; total <= 0 && a < t->units; a++)
            weight[a] = t->unit[a].present && wizard_with(t, side, a) ? 1.0f : 0.0f;
        om_wm_credit_add(&w->credit, v, before[v] - now, weight, t->units);
    }
}

/* The moving side's Shooting phase: its Wizards' spells, its units' shooting
 * in index order, then every target's drive back in index order (the
 * owner's choice, Driving Back Enemies). */
static void shooting_phase(const om_wm_turn_prepared *p, om_wm_turn_work *w, om_dice *d,
                           om_wm_turn_result *out)
{
    target_fire fire[OM_WM_TABLE_MAX_UNITS];
    uint8_t before[OM_WM_TABLE_MAX_UNITS];
    bool engaged[OM_WM_TABLE_MAX_UNITS];
    for (unsigned u = 0; u < w->t.units; u++) {
        fire[u] = (target_fire){0, 0, -1, 0};
        before[u] = w->t.unit[u].present ? w->t.unit[u].stands : 0;
        w->aim[u] = -1;
    }
    /* Whether each unit is engaged, asked at once (the table keeps the
     * answers): the Wizards' targets, the shooters and their targets ask it
     * unit by unit, of a table the Command phase has moved. Again after the
     * spells, which may move units (and cost nothing when none did). */
    om_wm_table_engaged_all(&w->t, engaged);
    if (om_wm_spellbook_active(&p->turn.magic, &w->t, w->setup->side)) {
        cast_spells(p, w, d, fire, out);
        om_wm_table_engaged_all(&w->t, engaged);
    }
    for (unsigned u = 0; u < w->t.units; u++)
        if (moving_unit(w, u))
            shoot_one(p, w, d, u, fire, out, 0);
    /* Volleys its Wizards' spells added (magic.h, Heaven's Fire), after every
     * unit's own, in index order. */
    for (unsigned u = 0; u < w->t.units; u++)
        for (unsigned v = 0; v < w->magic.volleys[u] && moving_unit(w, u); v++)
            shoot_one(p, w, d, u, fire, out, w->magic.volley_penalty[u]);
    for (unsigned u = 0; u < w->t.units; u++) {
        if (fire[u].driver >= 0 && w->t.unit[u].present)
            drive_back(p, w, d, u, &fire[u], out);
        else if (fire[u].quiet > 0 && w->t.unit[u].present)
            remove_hit_stands(p, w, u, &fire[u]);
    }
    credit_shooting(w, before);
}

/* ---- Combat phase: who touches whom (Combat > Combat Engagement to Supporting
 * Troops) ---- */

/* The enemy stand i of unit u strikes (Combat > Attacks): one touching its front
 * edge, else its side or rear, else a corner, the lowest index among equals
 * (the player's choice); -1 if it touches none. touch->flanked says whether any
 * enemy has its front on the stand's flank or rear: its -1 (Attack Modifiers)
 * goes with whichever enemy it strikes (fixed reading strike_ties). */
static int strike_target(const om_wm_table *t, const contacts *c, unsigned u, unsigned i,
                         om_wm_table_touch *touch)
{
    const uint8_t front = 1u << OM_WM_TABLE_FRONT;
    int best = -1, best_rank = 3;
    bool flanked = false;
    for (unsigned v = 0; v < t->units; v++) {
        om_wm_table_touch tc;
        int rank;
        if (!om_wm_unit_set_has(&c->touches[u], v))
            continue;
        om_wm_table_stand_touch(t, u, i, v, &tc);
        if (!tc.touches)
            continue;
        flanked |= tc.flanked;
        rank = (tc.edges & front) ? 0 : tc.edges ? 1 : 2;
        if (rank < best_rank) {
            best_rank = rank;
            best = (int)v;
            *touch = tc;
        }
    }
    touch->flanked = flanked;
    return best;
}

/* Clear c for the table's n units: the pairs' counts only where the last
 * pass counted (a row's touches and links name every entry it wrote, and the
 * work starts all zero), the units' own counts and stand masks whole. The
 * Combat phase reads the pairs' counts of the n units' rows and columns, and
 * a whole clear of the rows cost more than the pass's reading of them. */
static void contacts_clear(contacts *c, unsigned n)
{
    for (unsigned u = 0; u < c->rows; u++) {
        if (om_wm_unit_set_empty(&c->touches[u]) && om_wm_unit_set_empty(&c->links[u]))
            continue;
        for (unsigned v = 0; v < c->rows; v++) {
            if (om_wm_unit_set_has(&c->touches[u], v))
                c->stands[u][v] = c->flanked[u][v] = c->side_strikers[u][v] = 0;
            if (om_wm_unit_set_has(&c->links[u], v))
                c->link[u][v] = c->link_rear[u][v] = 0;
        }
        c->touches[u] = (om_wm_unit_set){0};
        c->links[u] = (om_wm_unit_set){0};
    }
    c->rows = n;
    memset(c->own_supports, 0, n);
    memset(c->own_rear, 0, n);
    memset(c->touching, 0, n * sizeof c->touching[0]);
    memset(c->front, 0, n * sizeof c->front[0]);
    memset(c->charged_front, 0, n * sizeof c->charged_front[0]);
#ifndef NDEBUG
    /* What the Combat phase reads is all zero, as a whole clear leaves it. */
    for (unsigned u = 0; u < n; u++)
        for (unsigned v = 0; v < n; v++)
            assert(c->stands[u][v] == 0 && c->flanked[u][v] == 0 &&
                   c->side_strikers[u][v] == 0 && c->link[u][v] == 0 &&
                   c->link_rear[u][v] == 0);
#endif
}

/* Every stand's contacts: the stands each unit strikes each enemy with, which
 * of them are flanked, which fight to their front, which a charger touches
 * (`advancing` NULL: the Command phase's chargers, cmd; else the units it
 * marks, which advanced, Combat > Advance). Returns whether any unit touches
 * an enemy. */
static bool find_contacts(const om_wm_table *t, const om_wm_command_result *cmd,
                          const bool *advancing, contacts *c)
{
    const uint8_t front = 1u << OM_WM_TABLE_FRONT;
    contacts_clear(c, t->units);
    /* Nobody touches an enemy: no contact, no support, no engagement. */
    if (!om_wm_table_contacts(t, c->touches))
        return false;
    for (unsigned u = 0; u < t->units; u++) {
        if (om_wm_unit_set_empty(&c->touches[u]))
            continue;
        for (unsigned i = 0; i < t->unit[u].stands; i++) {
            om_wm_table_touch tc;
            int v = strike_target(t, c, u, i, &tc);
            if (v < 0)
                continue;
            c->touching[u] |= (uint16_t)(1u << i);
            c->stands[u][v]++;
            c->flanked[u][v] += tc.flanked;
            c->side_strikers[u][v] += tc.flanked && !(tc.edges & front);
            if (tc.edges & front) {
                c->front[u] |= (uint16_t)(1u << i);
                if (advancing != NULL ? advancing[v] : cmd->unit[v].charged)
                    c->charged_front[u] |= (uint16_t)(1u << i);
            }
        }
    }
    return true;
}

/* Whether unit u may support or be supported (Combat > Supporting Troops):
 * infantry whose rules allow it; a supporter also not confused (Confusion >
 * Confused Units; Ancients: confused units support). */
static bool may_support(const om_wm_turn *turn, const om_wm_table *t, unsigned u, bool giving)
{
    const om_wm_side *s = &turn->unit[u].side;
    return t->unit[u].present && s->unit.troop == OM_WM_INFANTRY && !s->unit.traits.no_support &&
           (!giving || !t->unit[u].confused || turn->rules->confused_units_support);
}

/* Stand i of unit s supports a stand of a friend fighting to its front, if
 * any: its own unit first, then the others in index order; each supporting
 * stand counts once (Combat > Supporting Troops). friend[0..n_friends) are
 * the units s's stands may support, in that order (find_supports). */
static void support_of_stand(const om_wm_table *t, contacts *c, unsigned s, unsigned i,
                             const uint8_t *friend, unsigned n_friends)
{
    for (unsigned k = 0; k < n_friends; k++) {
        const unsigned f = friend[k];
        for (unsigned j = 0; j < t->unit[f].stands; j++) {
            om_wm_table_support how;
            if (!(c->front[f] >> j & 1u))
                continue;
            how = om_wm_table_stand_support(t, s, i, f, j);
            if (how == OM_WM_TABLE_NO_SUPPORT)
                continue;
            if (f == s) {
                c->own_supports[s]++;
                c->own_rear[s] += how == OM_WM_TABLE_SUPPORT_REAR;
            } else {
                c->link[s][f]++;
                c->link_rear[s][f] += how == OM_WM_TABLE_SUPPORT_REAR;
                om_wm_unit_set_add(&c->links[s], f);
            }
            return;
        }
    }
}

/* Every supporting stand: not touching an enemy, of a unit that may support.
 * The units a stand may support are those of its side fighting to their
 * front that may be supported; of those, each supporter's stands ask only
 * the ones the table does not rule out whole (om_wm_table_may_support: no
 * stand of theirs would support any of the other's), its own unit first. */
static void find_supports(const om_wm_turn *turn, const om_wm_table *t, contacts *c)
{
    uint8_t supported[OM_WM_TABLE_MAX_UNITS], friend[OM_WM_TABLE_MAX_UNITS];
    unsigned n_supported = 0;
    for (unsigned f = 0; f < t->units; f++)
        if (c->front[f] != 0 && may_support(turn, t, f, false))
            supported[n_supported++] = (uint8_t)f;
    /* Only stands fighting to their front are supported: none, no support. */
    if (n_supported == 0)
        return;
    for (unsigned s = 0; s < t->units; s++) {
        unsigned n_friends = 0;
        if (!may_support(turn, t, s, true) || c->touching[s] == (1u << t->unit[s].stands) - 1u)
            continue;
        for (unsigned k = 0; k < n_supported; k++)
            if (supported[k] == s && om_wm_table_may_support(t, s, s))
                friend[n_friends++] = (uint8_t)s;
        for (unsigned k = 0; k < n_supported; k++) {
            const unsigned f = supported[k];
            if (f != s && t->unit[f].side == t->unit[s].side && om_wm_table_may_support(t, s, f))
                friend[n_friends++] = (uint8_t)f;
        }
        if (n_friends == 0)
            continue;
        for (unsigned i = 0; i < t->unit[s].stands; i++)
            if (!(c->touching[s] >> i & 1u))
                support_of_stand(t, c, s, i, friend, n_friends);
    }
}

/* Union-find over units linked by contacts and supports: engagements (Combat >
 * Combat Engagement; Supporting Troops). */
static unsigned find_root(uint8_t *parent, unsigned u)
{
    while (parent[u] != u)
        u = parent[u] = parent[parent[u]];
    return u;
}

static void join(uint8_t *parent, unsigned a, unsigned b)
{
    unsigned ra = find_root(parent, a), rb = find_root(parent, b);
    if (ra != rb)
        parent[ra > rb ? ra : rb] = (uint8_t)(ra < rb ? ra : rb);
}

static void group_engagements(const om_wm_table *t, const contacts *c, uint8_t *parent,
                              bool *in_fight)
{
    const unsigned n = t->units < OM_WM_TABLE_MAX_UNITS ? t->units : OM_WM_TABLE_MAX_UNITS;
    for (unsigned u = 0; u < n; u++) {
        parent[u] = (uint8_t)u;
        in_fight[u] = false;
    }
    for (unsigned u = 0; u < t->units; u++) {
        /* A row neither touching nor linking counts nothing (contacts_clear). */
        if (om_wm_unit_set_empty(&c->touches[u]) && om_wm_unit_set_empty(&c->links[u]))
            continue;
        for (unsigned v = 0; v < t->units; v++)
            if (c->stands[u][v] > 0 || c->link[u][v] > 0) {
                join(parent, u, v);
                in_fight[u] = in_fight[v] = true;
            }
    }
}

/* ---- Combat phase: one engagement through the multi-unit engine ---- */

/* Unit u's side in this engagement, as the table decides it. */
static void engaged_side(const om_wm_turn_prepared *p, const om_wm_turn_work *w, unsigned u,
                         bool first_pass, om_wm_side *s)
{
    const om_wm_turn *turn = &p->turn;
    const om_wm_table *t = &w->t;
    const contacts *c = &w->c;
    *s = turn->unit[u].side;
    /* The charges are the Command phase's: no charge bonus of any kind
     * applies to an advance, nor to an engagement it starts (Combat >
     * Advance). */
    s->charging = first_pass && w->command.unit[u].charged;
    s->advancing = !first_pass && w->advancing[u];
    s->confused = t->unit[u].confused;
    s->dense_terrain = om_wm_table_in_dense(t, u);
    /* A charger or an advancer counts as in the open (Combat > Defended &
     * Fortified Troops); pikemen are never defended in dense terrain (army
     * list). */
    s->position = s->charging || w->advanced[u] ? OM_WM_OPEN : om_wm_table_position(t, u);
    if (s->unit.traits.pikes && (s->dense_terrain || s->position == OM_WM_FORTIFIED))
        s->position = OM_WM_OPEN;
    /* Lasting spells on it (magic.h), cast this turn or in the enemy's last:
     * cover, saves, pursuit, drive backs, terror; then this Combat phase's
     * own (terror, armour). */
    om_wm_lasting_side(t, u, s);
    om_wm_magic_combat_side(&w->magic, u, s);
    s->supports = c->own_supports[u];
    s->rear_supports = c->own_rear[u];
    s->support_units = 0;
    /* Stand and shoot (Shooting > Shooting at Charging Enemy): a shooter not
     * engaged before the charges, charged to its front (it sees the charger
     * come), when its policy says so; in an engagement an advance starts, a
     * shooter advanced upon to its front, engaged with no other enemy before,
     * where the rule set lets it shoot at the advancer "in exactly the same
     * way" (Combat > Advance; fixed reading advance_shooting). */
    s->stand_and_shoot = turn->unit[u].stand_and_shoot && !s->charging && !s->advancing &&
                         (first_pass ? !w->engaged_at_start[u]
                                     : w->advanced_upon[u] && turn->rules->shoot_at_advancers) &&
                         c->charged_front[u] != 0 &&
                         (om_wm_unit_shoots(&s->unit) || s->extra_shots > 0) &&
                         !s->unit.traits.no_stand_and_shoot &&
                         (s->shooting > 0 || s->extra_shots > 0);
    s->shoots_first = false;
    s->evade = false;
    /* A unit that charges out of a laager's shelter is no longer beside it
     * (Kislev lists: "not while it charges"). */
    s->beside_laager = s->beside_laager && !s->charging;
    /* This turn's spells (magic.h): Attacks added to or taken from every
     * stand, or added to the unit as a character's bonus is. */
    if (w->magic.stand_attacks[u] != 0) {
        const int a = (int)s->unit.attacks + w->magic.stand_attacks[u];
        s->unit.attacks = (uint8_t)(a < 0 ? 0 : a > UINT8_MAX ? UINT8_MAX : a);
    }
    /* A character's bonus goes with him (Generals, Wizards & Heroes >
     * Characters in Combat: the highest of the characters with the unit): a
     * unit he has left fights without it. */
    if (!s->unit.traits.no_character) {
        unsigned bonus = p->own_bonus[u];
        for (unsigned c = 0; c < t->characters; c++)
            if (t->character[c].joined == (int)u && t->character[c].attack_bonus > bonus)
                bonus = t->character[c].attack_bonus;
        s->attack_bonus = (uint8_t)(bonus < OM_WM_MAX_BONUS ? bonus : OM_WM_MAX_BONUS);
    }
    /* The characters' bonus and a spell's together, up to the most the
     * engine takes (a unit no character joins takes none). */
    if (w->magic.unit_attacks[u] != 0 && !s->unit.traits.no_character) {
        const unsigned bonus = (unsigned)s->attack_bonus + w->magic.unit_attacks[u];
        s->attack_bonus = (uint8_t)(bonus < OM_WM_MAX_BONUS ? bonus : OM_WM_MAX_BONUS);
    }
}

/* What lies behind engagement unit k, straight back along its facing (fixed
 * reading retreat_direction). Its friends in the engagement are not in the
 * way: a losing side's units all retreat (a supporting unit with the one it
 * supports, Combat > Retreats; Supporting Troops), so they are lifted off the
 * table while it looks. */
static void set_behind(const om_wm_turn_prepared *p, om_wm_turn_work *w, unsigned k)
{
    om_wm_table *t = &w->t;
    const om_wm_multi *m = &w->m;
    const unsigned u = w->index[k];
    om_wm_side *s = &w->side[k];
    om_wm_table_behind behind;
    for (unsigned j = 0; j < m->n_units; j++)
        if (j != k && m->unit[j].army == m->unit[k].army) {
            t->unit[w->index[j]].present = false;
            om_wm_table_update(t, w->index[j]);
        }
    om_wm_table_behind_of(t, p->turn.command.rules, u, BEHIND_REACH_CM, &behind);
    for (unsigned j = 0; j < m->n_units; j++)
        if (j != k && m->unit[j].army == m->unit[k].army) {
            t->unit[w->index[j]].present = true;
            om_wm_table_update(t, w->index[j]);
        }
    s->behind = behind.kind;
    s->behind_cm = whole_cm(behind.cm);
    s->behind_stands = behind.stands < t->unit[u].stands ? behind.stands : t->unit[u].stands;
}

/* A contact of `stands` stands of engagement unit k on enemy e; a War Wagon
 * fights with its wagon stand alone (Kislev lists). */
static void add_contact(om_wm_multi *m, const om_wm_side *s, unsigned k, unsigned e,
                        unsigned stands, unsigned flanked, unsigned strikers, unsigned *fighting)
{
    om_wm_contact *x;
    unsigned cap = s->formation != OM_WM_FORMATION_NONE ? 1u : OM_WM_TABLE_MAX_STANDS;
    if (stands == 0 || *fighting >= cap || NEVER(m->n_contacts >= OM_WM_CONTACTS_MAX))
        return;
    if (stands > cap - *fighting)
        stands = cap - *fighting;
    *fighting += stands;
    x = &m->contact[m->n_contacts++];
    x->unit = (uint8_t)k;
    x->enemy = (uint8_t)e;
    x->stands = (uint8_t)stands;
    x->flanked = (uint8_t)(flanked < stands ? flanked : stands);
    x->side_strikers = (uint8_t)(strikers < x->flanked ? strikers : x->flanked);
}

/* Describe the engagement whose units have root `root` to the engine:
 * side A's units first, in table order, then side B's. */
static void build_engagement(const om_wm_turn_prepared *p, om_wm_turn_work *w,
                             const uint8_t *parent, const bool *in_fight, unsigned root,
                             bool first_pass)
{
    const om_wm_table *t = &w->t;
    const contacts *c = &w->c;
    om_wm_multi *m = &w->m;
    uint8_t at[OM_WM_TABLE_MAX_UNITS];
    bool continued = false;
    /* The header and the counts: the arrays are filled up to them (an
     * engagement of a few units does not clear the room of a whole table's). */
    m->n_units = 0;
    m->n_contacts = 0;
    m->n_supports = 0;
    m->rules = p->turn.rules;
    m->options = p->turn.options;
    m->span = OM_WM_SPAN_PHASE;
    for (unsigned army = 0; army < 2; army++)
        for (unsigned u = 0; u < t->units; u++) {
            if (!in_fight[u] || t->unit[u].side != army ||
                find_root((uint8_t *)parent, u) != root ||
                NEVER(m->n_units >= OM_WM_UNITS_MAX))
                continue;
            at[u] = m->n_units;
            w->index[m->n_units] = (uint8_t)u;
            engaged_side(p, w, u, first_pass, &w->side[m->n_units]);
            m->unit[m->n_units] = (om_wm_multi_unit){&w->side[m->n_units], (uint8_t)army,
                                                     OM_WM_NO_UNIT};
            /* An engagement an advance starts is new (Combat > Advance). */
            continued |= first_pass && w->engaged_at_start[u];
            m->n_units++;
        }
    for (unsigned k = 0; k < m->n_units; k++) {
        const unsigned u = w->index[k];
        unsigned fighting = 0;
        set_behind(p, w, k);
        for (unsigned v = 0; v < t->units; v++)
            if (c->stands[u][v] > 0)
                add_contact(m, &w->side[k], k, at[v], c->stands[u][v], c->flanked[u][v],
                            c->side_strikers[u][v], &fighting);
        for (unsigned v = 0; v < t->units; v++) {
            om_wm_support *x;
            if (c->link[u][v] == 0 || NEVER(m->n_supports >= OM_WM_SUPPORTS_MAX))
                continue;
            x = &m->support[m->n_supports++];
            *x = (om_wm_support){(uint8_t)k, at[v], c->link[u][v], c->link_rear[u][v]};
        }
    }
    /* A combat fought in an earlier turn goes on (Combat > Unresolved Combat):
     * units charging into it fight its round as their charge's (A7). */
    m->rounds_before = continued ? 1 : 0;
    m->turn = 1;
}

/* The records of the engagement just fought in w: the engagement, then each
 * of its units. */
static void trace_engagement(const om_wm_turn_work *w)
{
    const om_wm_outcome *o = &w->outcome.sides;
    om_wm_event e = om_wm_event_make(w->trace, OM_WM_EV_COMBAT, w->index[0], -1);
    e.v[0] = o->hits_on[0];
    e.v[1] = o->hits_on[1];
    e.v[2] = w->outcome.unresolved ? OM_WM_NO_CONTEST : o->winner;
    e.v[3] = o->rounds;
    e.flags = w->outcome.unresolved ? OM_WM_EVF_UNRESOLVED : 0;
    om_wm_trace_put(w->trace, &e);
    for (unsigned k = 0; k < w->m.n_units; k++) {
        const om_wm_unit_result *r = &w->outcome.unit[k];
        om_wm_event x = om_wm_event_make(w->trace, OM_WM_EV_COMBAT_UNIT, w->index[k], -1);
        x.v[0] = r->stands_lost;
        x.v[1] = r->retreated_cm;
        x.v[2] = r->fall_back_cm;
        x.v[3] = r->pursued;
        x.flags = (uint8_t)((r->confused ? OM_WM_EVF_CONFUSED : 0) |
                            (r->destroyed || r->left_table ? OM_WM_EVF_DESTROYED : 0) |
                            (r->engaged ? OM_WM_EVF_UNRESOLVED : 0));
        om_wm_trace_put(w->trace, &x);
    }
}

/* The stands unit a of an engagement's enemies has fighting units of side
 * `side` of the engagement in w->m. */
static unsigned fighting_side(const om_wm_turn_work *w, unsigned a, unsigned side)
{
    unsigned n = 0;
    for (unsigned j = 0; j < w->m.n_units; j++)
        if (w->t.unit[w->index[j]].side == side)
            n += w->c.stands[a][w->index[j]];
    return n;
}

/* Credit the stands the engagement in w->m removed (start[k]: stands of its
 * unit k as it began) to the enemy units of the engagement (credit.h): by
 * the stands each had fighting the unit; none fighting it (it supported), by
 * the stands each had fighting its side; none at all, in equal shares. */
static void credit_engagement(om_wm_turn_work *w, const uint8_t *start)
{
    const om_wm_table *t = &w->t;
    float weight[OM_WM_TABLE_MAX_UNITS];
    for (unsigned k = 0; k < w->m.n_units; k++) {
        const unsigned v = w->index[k], side = t->unit[v].side;
        const unsigned now = t->unit[v].present ? t->unit[v].stands : 0;
        float total = 0;
        if (start[k] <= now)
            continue;
        memset(weight, 0, t->units * sizeof weight[0]);
        for (unsigned pass = 0; pass < 3 && total <= 0; pass++)
            for (unsigned j = 0; j < w->m.n_units; j++) {
                const unsigned a = w->index[j];
                if (t->unit[a].side == side)
                    continue;
                weight[a] = pass == 0   ? (float)w->c.stands[a][v]
                            : pass == 1 ? (float)fighting_side(w, a, side)
                                        : 1.0f;
                total += weight[a];
            }
        om_wm_credit_add(&w->credit, v, start[k] - now, weight, t->units);
    }
}

/* What engagement unit k's combat moves it by on the table (fixed reading
 * moves_after_combat): back by its retreats and fall back; forward after the
 * enemy it pursued, as far as that enemy retreated while pursued (Combat >
 * Pursuit); a winning unit that supported follows the friend it supports
 * (Supporting Pursuits); a winner whose side destroyed every enemy may
 * advance (Combat > Advance). */
static void record_moves(om_wm_turn_work *w, unsigned k)
{
    const om_wm_unit_result *r = &w->outcome.unit[k];
    const unsigned u = w->index[k], army = w->m.unit[k].army;
    const unsigned back = (unsigned)r->retreated_cm + r->fall_back_cm;
    w->back_cm[u] = (uint8_t)(back < UINT8_MAX ? back : UINT8_MAX);
    w->follow_cm[u] = r->followed_cm;
    w->follow_of[u] = r->followed != OM_WM_NO_UNIT ? w->index[r->followed] : (uint8_t)NO_FRIEND;
    w->support_of[u] = NO_FRIEND;
    for (unsigned j = 0; j < w->m.n_units && back == 0 && r->followed_cm == 0; j++)
        if (w->c.link[u][w->index[j]] > 0) {
            w->support_of[u] = w->index[j];
            break;
        }
    w->advancer[u] = w->outcome.all_destroyed[1 - army] && !w->outcome.all_destroyed[army] &&
                     !r->destroyed && !r->left_table;
}

/* Fight the engagement in w->m and carry its units' states back to the table. */
static void fight_engagement(const om_wm_turn_prepared *p, om_wm_turn_work *w, om_dice *d,
                             om_wm_turn_result *out)
{
    om_wm_table *t = &w->t;
    om_wm_unit_state *states[OM_WM_UNITS_MAX];
    uint8_t start[OM_WM_UNITS_MAX];
    /* Valid by construction: every unit's values were checked when the turn
     * was prepared, and its contacts, supports and table state come from the
     * table (debug builds assert the engagement's check). */
    om_wm_multi_build(p->kit, &w->m, w->mp);
    for (unsigned k = 0; k < w->m.n_units; k++) {
        const unsigned u = w->index[k];
        om_wm_multi_unit_state_start(&w->m, k, &w->state[k]);
        w->state[k].stands = t->unit[u].stands;
        w->state[k].carried = t->unit[u].hits;
        w->state[k].hurt = w->hurt[u];
        states[k] = &w->state[k];
        start[k] = t->unit[u].stands;
    }
    om_wm_multi_resolve(w->mp, d, states, &w->outcome);
    if (w->trace != NULL)
        trace_engagement(w);
    out->engagements++;
    out->unresolved += w->outcome.unresolved;
    for (unsigned k = 0; k < w->m.n_units; k++) {
        const unsigned u = w->index[k];
        const om_wm_unit_result *r = &w->outcome.unit[k];
        om_wm_table_unit *un = &t->unit[u];
        out->unit[u].engaged = 1;
        out->unit[u].unresolved = r->engaged;
        out->unit[u].routed |= r->routed;
        w->hurt[u] |= r->hurt;
        un->stands = (uint8_t)w->state[k].stands;
        /* Hits carry into an engagement the unit advances into; odd hits go
         * at the end of the phase from units no longer engaged (Combat >
         * Advance; Remove Odd Hits). */
        un->hits = (uint8_t)w->state[k].carried;
        un->confused = r->confused;
        if (r->destroyed || r->left_table || un->stands == 0)
            un->present = false;
        w->fought[u] = true;
        w->advancing[u] = false;
        w->advanced_upon[u] = false;
        w->unresolved[u] = r->engaged;
        record_moves(w, k);
        om_wm_table_update(t, u);
    }
    credit_engagement(w, start);
}

/* Move unit u by `delta` on the table, stopped by what lies in its way as any
 * move is; returns how far it moved. The move ends the unit's spell effects
 * that last until it moves (om_wm_lasting_moved). */
static om_wm_vec move_by(const om_wm_turn_prepared *p, om_wm_turn_work *w, unsigned u,
                         om_wm_vec delta)
{
    om_wm_table_unit *un = &w->t.unit[u];
    const om_wm_table_move_rule rule = {.target = -1};
    const om_wm_vec from = un->centre;
    const double cm = sqrt(delta.x * delta.x + delta.y * delta.y);
    om_wm_lasting_moved(&w->t, u);
    (void)om_wm_table_move(&w->t, p->turn.command.rules, u,
                           (om_wm_vec){from.x + delta.x, from.y + delta.y}, cm, &rule, NULL);
    return (om_wm_vec){un->centre.x - from.x, un->centre.y - from.y};
}

/* The moves of the engagements just fought, on the table (fixed reading
 * moves_after_combat), in three sweeps of table order: first every unit that
 * retreated or fell back (Combat > Retreats; Fall Backs) moves that far
 * straight back along its facing (fixed reading retreat_direction); then each
 * pursuer follows the enemy it pursued the way that enemy retreated, as far as
 * it retreated while pursued, into contact where its retreat ended (Combat >
 * Pursuit > Moving pursuers); then a winning unit that supported a pursuer
 * moves as that friend moved (Supporting Pursuits). Every move is stopped by
 * what lies in its way, as any move is, so that a blocked pursuer ends short
 * of its enemy and the combat ends. A combat that goes on (Combat >
 * Unresolved Combat) is moved the same way and stays in contact. */
static void move_after_combat(const om_wm_turn_prepared *p, om_wm_turn_work *w)
{
    om_wm_table *t = &w->t;
    om_wm_vec moved[OM_WM_TABLE_MAX_UNITS];
    bool self[OM_WM_TABLE_MAX_UNITS];
    for (unsigned u = 0; u < t->units; u++) {
        om_wm_table_unit *un = &t->unit[u];
        const double cm = w->back_cm[u];
        moved[u] = (om_wm_vec){0, 0};
        self[u] = cm > 0;
        w->back_cm[u] = 0;
        if (cm > 0 && un->present)
            (void)move_by(p, w, u, (om_wm_vec){-un->dir.x * cm, -un->dir.y * cm});
    }
    for (unsigned u = 0; u < t->units; u++) {
        const double cm = w->follow_cm[u];
        w->follow_cm[u] = 0;
        if (cm <= 0 || w->follow_of[u] == NO_FRIEND)
            continue;
        self[u] = true;
        if (t->unit[u].present) {
            /* Retreats run straight back along the retreater's facing. */
            const om_wm_table_unit *foe = &t->unit[w->follow_of[u]];
            moved[u] = move_by(p, w, u, (om_wm_vec){-foe->dir.x * cm, -foe->dir.y * cm});
        }
    }
    for (unsigned u = 0; u < t->units; u++) {
        const unsigned f = w->support_of[u];
        w->support_of[u] = NO_FRIEND;
        if (f == NO_FRIEND || self[u] || !t->unit[u].present ||
            (moved[f].x == 0 && moved[f].y == 0))
            continue;
        (void)move_by(p, w, u, moved[f]);
    }
}

/* Whether unit u may advance now that its engagement destroyed every enemy
 * (Combat > Advance): it lives, stands clear of the enemy, has not advanced in
 * this phase, and is free to: not artillery, fortified, immobile, a static
 * machine, confused, a unit that never charges or one a spell forbids to
 * (om_wm_lasting_may_charge: cannot charge, pursue or advance); and its player advances
 * with it (its `pursue` choice: a unit that never pursues stands instead,
 * fixed reading advance_choice). */
static bool may_advance(const om_wm_turn_prepared *p, const om_wm_turn_work *w, unsigned u)
{
    const om_wm_table_unit *un = &w->t.unit[u];
    const om_wm_side *s = &p->turn.unit[u].side;
    return un->present && !w->advanced[u] && !w->unresolved[u] && !un->confused &&
           s->pursue != OM_WM_PURSUE_NEVER && s->unit.troop != OM_WM_ARTILLERY &&
           !s->unit.traits.immobile && s->unit.traits.static_machine == OM_WM_NOT_STATIC &&
           !(un->traits & OM_WM_TABLE_TRAIT_NO_CHARGE) && om_wm_lasting_may_charge(&w->t, u) &&
           om_wm_table_position(&w->t, u) != OM_WM_FORTIFIED && !om_wm_table_engaged(&w->t, u);
}

/* The advances of the winners whose engagements destroyed every enemy
 * (Combat > Advance), in table order: each may charge the closest enemy it
 * sees within 20cm, no stand moving further (om_wm_table_charge_plan at that
 * pace), and no other; none in sight and reach, it stands. An advance into an
 * engagement fought in this phase and going on waits for the next turn's
 * Combat phase; into a new or unfought one, it is fought in this phase.
 * Returns whether any advance is to be fought in this phase. */
static bool advance(const om_wm_turn_prepared *p, om_wm_turn_work *w)
{
    om_wm_table *t = &w->t;
    const om_wm_ruleset_id rules = p->turn.command.rules;
    bool fight_now = false;
    for (unsigned u = 0; u < t->units; u++) {
        om_wm_table_charge ch;
        int target;
        if (!w->advancer[u])
            continue;
        w->advancer[u] = false;
        if (!may_advance(p, w, u))
            continue;
        target = om_wm_table_closest_visible_enemy(t, rules, u, sees_all_round(&t->unit[u]),
                                                   ADVANCE_CM, 0, NULL);
        if (target < 0)
            continue;
        om_wm_table_charge_plan(t, rules, u, (unsigned)target, ADVANCE_CM, &ch);
        if (!ch.possible || !ch.reaches)
            continue;
        /* Engaged with no enemy before this advance, its target may shoot
         * at it (Combat > Advance; Shooting at Charging Enemy: "not already
         * engaged"); one an earlier advance of the pass engaged has shot,
         * if at all, at that one (fixed reading several_chargers_shot). */
        if (!w->unresolved[target] && !om_wm_table_engaged(t, (unsigned)target))
            w->advanced_upon[target] = true;
        t->unit[u].centre = ch.centre;
        t->unit[u].dir = ch.dir;
        om_wm_table_update(t, u);
        w->advanced[u] = true;
        w->advancing[u] = !w->unresolved[target];
        fight_now |= w->advancing[u];
        if (w->trace != NULL) {
            om_wm_event e = om_wm_event_make(w->trace, OM_WM_EV_CHARGE, (int)u, target);
            e.v[0] = OM_WM_CHARGE_ADVANCE;
            om_wm_trace_put(w->trace, &e);
        }
    }
    return fight_now;
}

/* Whether the engagement of root `root` is fought in this pass: in the
 * phase's first pass every one is; afterwards those an advance joined that no
 * unit of which fights on from an engagement of this phase (Combat > Advance). */
static bool fought_in_pass(const om_wm_turn_work *w, uint8_t *parent, const bool *in_fight,
                           unsigned root)
{
    bool advancer = false;
    for (unsigned u = 0; u < w->t.units; u++) {
        if (!in_fight[u] || find_root(parent, u) != root)
            continue;
        if (w->unresolved[u])
            return false;
        advancer |= w->advancing[u];
    }
    return advancer;
}

/* The Combat phase: every engagement in the order of its lowest unit index
 * (the moving player's choice; Combat: each engagement is worked out before
 * the next), over one Combat phase each; then the moves the engagements made
 * (move_after_combat) and the advances (advance). Engagements that advances
 * start or join are fought next, in the same order, and so on until no unit
 * advances into a fight of this phase (each advances once at most). The moves
 * follow every engagement of a pass, so that no engagement of one pass sees
 * another's. */
static void combat_phase(const om_wm_turn_prepared *p, om_wm_turn_work *w, om_dice *d,
                         om_wm_turn_result *out)
{
    uint8_t parent[OM_WM_TABLE_MAX_UNITS];
    bool in_fight[OM_WM_TABLE_MAX_UNITS];
    const unsigned n = w->t.units;
    bool first = true;
    memset(w->fought, 0, n * sizeof w->fought[0]);
    memset(w->advanced, 0, n * sizeof w->advanced[0]);
    memset(w->advancing, 0, n * sizeof w->advancing[0]);
    memset(w->advanced_upon, 0, n * sizeof w->advanced_upon[0]);
    memset(w->advancer, 0, n * sizeof w->advancer[0]);
    memset(w->unresolved, 0, n * sizeof w->unresolved[0]);
    do {
        if (!find_contacts(&w->t, &w->command, first ? NULL : w->advancing, &w->c))
            break;
        find_supports(&p->turn, &w->t, &w->c);
        group_engagements(&w->t, &w->c, parent, in_fight);
        for (unsigned u = 0; u < n; u++) {
            if (!in_fight[u] || find_root(parent, u) != u ||
                (!first && !fought_in_pass(w, parent, in_fight, u)))
                continue;
            build_engagement(p, w, parent, in_fight, u, first);
            fight_engagement(p, w, d, out);
        }
        move_after_combat(p, w);
        first = false;
    } while (advance(p, w));
    /* Odd hits go from units no longer engaged (Combat > Remove Odd Hits). */
    for (unsigned u = 0; u < n; u++)
        if (w->fought[u] && !w->unresolved[u] && w->t.unit[u].hits != 0) {
            w->t.unit[u].hits = 0;
            om_wm_table_update(&w->t, u);
        }
}

/* ---- The turn ---- */

/* What the turn did, from the table at its end (end states agree: a
 * destroyed unit is neither confused nor engaged), and the victory points. */
static void record_turn(const om_wm_turn_prepared *p, const om_wm_turn_work *w,
                        om_wm_turn_result *out)
{
    const om_wm_table *t = &w->t;
    unsigned vp[2] = {0, 0};
    for (unsigned u = 0; u < t->units; u++) {
        const om_wm_table_unit *un = &t->unit[u];
        om_wm_turn_unit_result *r = &out->unit[u];
        const unsigned start = w->start_stands[u], left = un->present ? un->stands : 0;
        r->destroyed = !un->present && start > 0;
        r->stands_lost = (uint8_t)(start > left ? start - left : 0);
        r->confused = un->present && un->confused;
        r->unresolved &= un->present;
        r->routed &= r->destroyed;
        if (w->from_start)
            vp[un->side] += p->vp_lost[u][r->stands_lost];
        else
            vp[un->side] += om_wm_victory_points_lost(p->turn.unit[u].side.unit.points,
                                                      om_wm_unit_size(&p->turn.unit[u].side.unit),
                                                      start, r->stands_lost);
    }
    for (int s = 0; s < 2; s++)
        out->vp_lost[s] = (uint16_t)(vp[s] < UINT16_MAX ? vp[s] : UINT16_MAX);
}

/* Each unit's place and facing now, from which carry_characters moves its
 * characters. */
static void note_poses(om_wm_turn_work *w)
{
    for (unsigned u = 0; u < w->t.units; u++) {
        w->pose_centre[u] = w->t.unit[u].centre;
        w->pose_dir[u] = w->t.unit[u].dir;
    }
}

/* Characters move with the unit they have joined in every phase but the
 * Command phase: drive backs, retreats, pursuits, fall backs and advances
 * (Generals, Wizards & Heroes > Character Movement; Warmaster Ancients,
 * Commanders: "always move in company with units they have joined in other
 * phases"). Each joined character of a unit still on the table keeps his place
 * beside it: the unit's move since note_poses (a turn and a shift) moves him
 * alike. */
static void carry_characters(om_wm_turn_work *w)
{
    om_wm_table *t = &w->t;
    for (unsigned c = 0; c < t->characters; c++) {
        om_wm_table_character *ch = &t->character[c];
        const int j = ch->joined;
        if (j < 0 || !t->unit[j].present)
            continue;
        const om_wm_vec o = w->pose_centre[j], d = w->pose_dir[j];
        const om_wm_vec n = t->unit[j].centre, e = t->unit[j].dir;
        if (o.x == n.x && o.y == n.y && d.x == e.x && d.y == e.y)
            continue;
        /* His place in the unit's frame: along its facing and across it. */
        const double along = (ch->at.x - o.x) * d.x + (ch->at.y - o.y) * d.y;
        const double across = -(ch->at.x - o.x) * d.y + (ch->at.y - o.y) * d.x;
        ch->at = (om_wm_vec){n.x + along * e.x - across * e.y, n.y + along * e.y + across * e.x};
    }
}

/* One turn of `setup`'s side on the workspace's table as it stands: the
 * three phases, then what they did. The engaged units and the victory points'
 * base are the caller's (w->engaged_at_start, w->from_start). */
static void play(const om_wm_turn_prepared *p, const om_wm_command_setup *setup,
                 om_wm_turn_work *w, om_dice *d, om_wm_turn_result *out)
{
    /* The live part only, as everything a trial copies or clears. */
    memset(out->unit, 0, w->t.units * sizeof out->unit[0]);
    out->vp_lost[0] = out->vp_lost[1] = 0;
    out->general_orders = out->engagements = out->unresolved = 0;
    out->spells_cast = out->spells_worked = 0;
    w->setup = setup;
    om_wm_magic_turn_clear(&w->magic, w->t.units);
    /* The moving side's spells of its last turn end (magic.h). */
    om_wm_lasting_expire(&w->t, setup->side);
    for (unsigned u = 0; u < w->t.units; u++) {
        w->t.unit[u].charged = false;
        /* A unit gone in an earlier turn starts with none: it loses none and
         * is not destroyed again. */
        w->start_stands[u] = w->t.unit[u].present ? w->t.unit[u].stands : 0;
        w->hurt[u] = false;
    }
    om_wm_command_phase_traced(setup, &w->t, d, &w->command, w->trace);
    for (unsigned u = 0; u < w->t.units; u++) {
        const om_wm_command_unit *cu = &w->command.unit[u];
        out->unit[u].orders = cu->orders;
        out->unit[u].moved = cu->moved_cm >= MOVED_MIN_CM;
        out->unit[u].charged = cu->charged;
        if (w->trace != NULL && cu->charged) {
            om_wm_event e = om_wm_event_make(w->trace, OM_WM_EV_CHARGE, (int)u,
                                             cu->charge_target);
            om_wm_trace_put(w->trace, &e);
        }
    }
    out->general_orders = w->command.general_passed;
    note_poses(w);
    shooting_phase(p, w, d, out);
    combat_phase(p, w, d, out);
    carry_characters(w);
    record_turn(p, w, out);
    for (unsigned u = 0; w->trace != NULL && u < w->t.units; u++)
        if (out->unit[u].destroyed) {
            om_wm_event e = om_wm_event_make(w->trace, OM_WM_EV_DESTROYED, (int)u, -1);
            om_wm_trace_put(w->trace, &e);
        }
}

void om_wm_turn_resolve(const om_wm_turn_prepared *p, om_wm_turn_work *w, om_dice *d,
                        om_wm_turn_result *out)
{
    om_wm_turn_begin(p, w);
    memcpy(w->engaged_at_start, p->engaged_at_start,
           p->turn.table.units * sizeof w->engaged_at_start[0]);
    w->from_start = true;
    play(p, &p->turn.command, w, d, out);
}

void om_wm_turn_begin(const om_wm_turn_prepared *p, om_wm_turn_work *w)
{
    om_wm_turn_begin_on(p, w, &p->turn.table);
}

void om_wm_turn_begin_on(const om_wm_turn_prepared *p, om_wm_turn_work *w,
                         const om_wm_table *start)
{
    om_wm_table_copy(&w->t, start, w->memo);
    om_wm_credit_clear(&w->credit, p->turn.table.units);
}

om_wm_table *om_wm_turn_work_spare(om_wm_turn_work *w) { return &w->spare; }

void om_wm_turn_play(const om_wm_turn_prepared *p, const om_wm_command_setup *setup,
                     om_wm_turn_work *w, om_dice *d, om_wm_turn_result *out)
{
    om_wm_table_engaged_all(&w->t, w->engaged_at_start);
    w->from_start = false;
    play(p, setup, w, d, out);
}

const om_wm_table *om_wm_turn_work_table(const om_wm_turn_work *w)
{
    return &w->t;
}

void om_wm_turn_work_set_trace(om_wm_turn_work *w, om_wm_trace *trace)
{
    w->trace = trace;
}

om_wm_trace *om_wm_turn_work_trace(const om_wm_turn_work *w)
{
    return w->trace;
}

const om_wm_credit *om_wm_turn_work_credit(const om_wm_turn_work *w)
{
    return &w->credit;
}

/* ---- Preparing ---- */

om_status om_wm_turn_work_alloc(om_wm_turn_work **out)
{
    om_wm_turn_work *w = calloc(1, sizeof *w);
    om_status st;
    *out = NULL;
    if (w == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a turn's workspace");
    if ((st = om_wm_multi_prepared_alloc(&w->mp)) != OM_OK ||
        (st = om_wm_table_memo_alloc(&w->memo)) != OM_OK) {
        om_wm_turn_work_free(w);
        return st;
    }
    *out = w;
    return OM_OK;
}

void om_wm_turn_work_free(om_wm_turn_work *w)
{
    if (w == NULL)
        return;
    om_wm_multi_prepared_free(w->mp);
    om_wm_table_memo_free(w->memo);
    free(w);
}

om_status om_wm_turn_prepare_alloc(const om_wm_turn *t, om_wm_check_failure *why,
                                   om_wm_turn_prepared **out)
{
    om_wm_turn_prepared *p;
    om_status st;
    *out = NULL;
    if ((st = om_wm_turn_check(t, why)) != OM_OK)
        return st;
    if ((p = calloc(1, sizeof *p)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a prepared turn");
    p->turn = *t;
    p->turn.table.memo = NULL;
    /* A War Wagon never charges (Kislev lists): the Command phase reads it
     * from the table. */
    for (unsigned u = 0; u < t->table.units; u++)
        if (t->unit[u].side.formation != OM_WM_FORMATION_NONE)
            p->turn.table.unit[u].traits |= OM_WM_TABLE_TRAIT_NO_CHARGE;
    om_wm_table_update(&p->turn.table, OM_WM_TABLE_ALL);
    if ((st = om_wm_dice_kit_alloc(&p->kit)) != OM_OK) {
        free(p);
        return st;
    }
    for (unsigned u = 0; u < t->table.units; u++) {
        unsigned joined = 0;
        for (unsigned c = 0; c < t->table.characters; c++)
            if (t->table.character[c].joined == (int)u &&
                t->table.character[c].attack_bonus > joined)
                joined = t->table.character[c].attack_bonus;
        p->own_bonus[u] = joined > 0 ? 0 : t->unit[u].side.attack_bonus;
    }
    for (unsigned u = 0; u < t->table.units; u++) {
        const om_wm_unit *values = &t->unit[u].side.unit;
        const unsigned start = t->table.unit[u].stands;
        p->engaged_at_start[u] = t->table.unit[u].present && om_wm_table_engaged(&t->table, u);
        for (unsigned lost = 0; lost <= start && lost <= OM_WM_TABLE_MAX_STANDS; lost++)
            p->vp_lost[u][lost] = om_wm_victory_points_lost(values->points,
                                                            om_wm_unit_size(values), start, lost);
    }
    *out = p;
    return OM_OK;
}

void om_wm_turn_prepared_free(om_wm_turn_prepared *p)
{
    if (p == NULL)
        return;
    om_wm_dice_kit_free(p->kit);
    free(p);
}

const om_wm_turn *om_wm_turn_of(const om_wm_turn_prepared *p)
{
    return &p->turn;
}

/* ---- Check ---- */

/* Raise "field 'PATH': REASON" for `path` (with the index i when not
 * negative: "units[i]KEY"). */
static om_status fail(om_wm_check_failure *why, const char *list, int i, const char *key,
                      const char *reason)
{
    om_wm_check_failure local;
    if (why == NULL)
        why = &local;
    if (i < 0)
        snprintf(why->field, sizeof why->field, "%s", list);
    else
        snprintf(why->field, sizeof why->field, "%s[%d]%s", list, i, key);
    snprintf(why->reason, sizeof why->reason, "%s", reason);
    return OM_ERROR(OM_EINVAL, "field '%s': %s", why->field, why->reason);
}

/* Unit u's values as an engagement checks them, paths "units[u].side.PATH". */
static om_status check_values(const om_wm_turn *t, unsigned u, om_wm_check_failure *why)
{
    om_wm_engagement e;
    om_wm_check_failure inner;
    char key[64];
    memset(&e, 0, sizeof e);
    e.rules = t->rules;
    e.kind = OM_WM_KIND_COMBAT;
    e.options = t->options;
    e.side[0] = e.side[1] = t->unit[u].side;
    memset(&inner, 0, sizeof inner);
    if (om_wm_engagement_check(&e, &inner) == OM_OK)
        return OM_OK;
    /* "a.unit.armour" -> "units[u].side.unit.armour" */
    snprintf(key, sizeof key, ".side%s", strchr(inner.field, '.') ? strchr(inner.field, '.') : "");
    return fail(why, "units", (int)u, key, inner.reason);
}

/* The table unit u agrees with unit u's values. */
static om_status check_agrees(const om_wm_turn *t, unsigned u, om_wm_check_failure *why)
{
    const om_wm_table_unit *tu = &t->table.unit[u];
    const om_wm_unit *v = &t->unit[u].side.unit;
    char reason[160];
    if (tu->troop != v->troop)
        return fail(why, "units", (int)u, ".troop", "the table unit's troop type is not its "
                    "values'");
    if (tu->stands > v->stands || tu->size != om_wm_unit_size(v)) {
        snprintf(reason, sizeof reason, "the table unit has %u of %u stands, its values %u of %u",
                 tu->stands, tu->size, v->stands, om_wm_unit_size(v));
        return fail(why, "units", (int)u, ".stands", reason);
    }
    if (tu->hits >= v->hits && v->hits > 0) {
        snprintf(reason, sizeof reason, "%u hits carried: fewer than its Hits (%u), or it would "
                 "have lost a stand", tu->hits, v->hits);
        return fail(why, "units", (int)u, ".hits", reason);
    }
    return OM_OK;
}

om_status om_wm_turn_check(const om_wm_turn *t, om_wm_check_failure *why)
{
    unsigned per_side[2] = {0, 0};
    om_status st;
    if (t->rules == NULL || t->rules->id != t->command.rules)
        return fail(why, "ruleset", -1, "", "the turn's rule set and its Command phase's differ");
    if ((st = om_wm_table_check(&t->table, t->command.rules, why)) != OM_OK ||
        (st = om_wm_command_check(&t->command, &t->table, why)) != OM_OK ||
        (st = om_wm_spellbook_check(&t->magic, &t->table, t->command.rules, why)) != OM_OK)
        return st;
    for (unsigned u = 0; u < t->table.units; u++) {
        char reason[96];
        if (++per_side[t->table.unit[u].side] > OM_WM_TURN_SIDE_UNITS_MAX) {
            snprintf(reason, sizeof reason, "a side has more than %d units (half of the "
                     "%d a table holds)", OM_WM_TURN_SIDE_UNITS_MAX, OM_WM_TABLE_MAX_UNITS);
            return fail(why, "units", (int)u, "", reason);
        }
        if ((unsigned)t->unit[u].shoot >= OM_WM_SHOOT_POLICY_COUNT)
            return fail(why, "units", (int)u, ".shoot", "unknown shooting policy");
        if (t->unit[u].side.formation != OM_WM_FORMATION_NONE &&
            t->table.unit[u].side == t->command.side &&
            t->command.plan[u].kind == OM_WM_PLAN_CHARGE)
            return fail(why, "plans", (int)u, ".kind", "a War Wagon cannot charge (Kislev "
                        "lists); advance it or let it hold");
        if ((st = check_agrees(t, u, why)) != OM_OK || (st = check_values(t, u, why)) != OM_OK)
            return st;
    }
    return OM_OK;
}

/* ---- Fixed readings ---- */

static const om_wm_option turn_option_table[] = {
    {"shooting_stands", "-", "Warmaster Revolution, Shooting > Targets; Range",
     "Which stands of a unit shoot at its target?",
     "fixed: its front rank (its own stands block the others' sight; every stand of an "
     "all-round shooter) within range of the target, stand by stand; sight is the "
     "unit's (T6)", "-", OM_WM_OPTION_FIXED, 0},
    {"shooting_blind", "-",
     "Warmaster Revolution, Artillery & Machines > Artillery > Stone Throwers",
     "Does artillery shoot blind at an enemy it cannot see in a turn?",
     "fixed: no, every shooter shoots at the closest visible enemy or not at all", "-",
     OM_WM_OPTION_FIXED, 0},
    {"drive_back_driver", "-", "Warmaster Revolution, Shooting > Driving Back Enemies",
     "Several units shot at one target: whose drive-back rules apply (Warp Lightning "
     "Cannon, Skull Chukka), and from where?",
     "fixed: the closest unit that shot at it (the driving unit); directly away from its "
     "closest point", "-", OM_WM_OPTION_FIXED, 0},
    {"drive_back_order", "-", "Warmaster Revolution, Shooting > Driving Back Enemies",
     "In which order are several drive backs resolved (the owner chooses)?",
     "fixed: targets in table order, after every unit has shot", "-", OM_WM_OPTION_FIXED, 0},
    {"drive_back_into_friends", "-",
     "Warmaster Revolution, Shooting > Driving Back Enemies; Confusion > Making Way",
     "A unit driven back into unengaged friends who make way: where does it end?",
     "fixed: it halts touching them (they are not moved aside); it tests for confusion "
     "once, on a 6", "-", OM_WM_OPTION_FIXED, 0},
    {"steadfast_phase", "-",
     "Warmaster Revolution, Magic > Magic Items > The Banner of Steadfastness",
     "The Banner of Steadfastness against several shooters in one phase",
     "fixed: one hit of the phase's total is ignored", "-", OM_WM_OPTION_FIXED, 0},
    {"stand_and_shoot_sight", "-",
     "Warmaster Revolution, Shooting > Shooting at Charging Enemy",
     "When does a charged unit see its charger \"at some point during the charge\"?",
     "fixed: when a charger touches the front edge of one of its stands", "-",
     OM_WM_OPTION_FIXED, 0},
    {"strike_ties", "-", "Warmaster Revolution, Combat > Attacks",
     "A stand touching several enemies with the same priority (the player chooses)",
     "fixed: the enemy of lowest table index", "-", OM_WM_OPTION_FIXED, 0},
    {"support_alignment", "-", "Warmaster Revolution, Combat > Supporting Troops",
     "How exactly must a supporting stand be behind or beside a fighting one?",
     "fixed: edges touching, off line by at most 1cm along them, facing the same way",
     "-", OM_WM_OPTION_FIXED, 0},
    {"engagement_order", "-", "Warmaster Revolution, Combat; Combat > Combat Engagement",
     "In which order are engagements fought (the moving player chooses)?",
     "fixed: by the lowest table index of their units", "-", OM_WM_OPTION_FIXED, 0},
    {"retreat_direction", "-", "Warmaster Revolution, Combat > Retreats",
     "Which way does a losing unit retreat, for what lies behind it?",
     "fixed: straight back along its facing", "-", OM_WM_OPTION_FIXED, 0},
    {"spell_choice", "-", "Warmaster Revolution, Magic > Casting Spells",
     "Which spell does a Wizard cast, and on which unit (the player chooses)?",
     "fixed: the spell and target of the best chance to cast times the stands' worth of "
     "damage expected (magic.c); ties: the earlier spell, then the lower unit index", "-",
     OM_WM_OPTION_FIXED, 0},
    {"spell_path", "-", "Warmaster Revolution army lists, Ball of Flame; Gotcha!",
     "Which units does a spell drawn as a 30cm line hit?",
     "fixed: only the unengaged enemy unit the Wizard aims at, not every unit under the "
     "line", "-", OM_WM_OPTION_FIXED, 0},
    {"spell_driver", "-", "Warmaster Revolution, Shooting > Driving Back Enemies",
     "From where does a spell's drive back run?",
     "fixed: from the unit the Wizard has joined, as from the closest shooter", "-",
     OM_WM_OPTION_FIXED, 0},
    {"moves_after_combat", "-",
     "Warmaster Revolution, Combat > Retreats; Pursuit; Advance; Fall Backs; Unresolved "
     "Combat",
     "Where do retreats, pursuits, fall backs and advances leave the units?",
     "fixed: once the Combat phase's engagements are fought, each unit that retreated or "
     "fell back moves straight back along its facing that far; each pursuer follows the "
     "enemy it pursued the way it retreated, as far as it retreated while pursued, into "
     "contact where that retreat ended; a winning unit that supported a pursuer moves with "
     "it; every move stops at what lies in its way. An unresolved combat is moved so and "
     "goes on next turn from there; a winner that pursued no one holds where it fought",
     "-", OM_WM_OPTION_FIXED, 0},
    {"advance_choice", "-", "Warmaster Revolution, Combat > Aftermath; Advance",
     "Which winners advance when their engagement destroyed every enemy (the player "
     "chooses), on whom, and when is the new fight fought?",
     "fixed: every unit whose pursue choice is not `never` and that may (not artillery, "
     "fortified, immobile, confused, engaged, or advanced already in the phase) advances "
     "on the closest enemy it sees within 20cm if a charge of 20cm reaches it, else "
     "stands; no charge bonus (the unit advanced upon may shoot at it: advance_shooting). "
     "A new or unfought engagement it makes is fought in the same Combat phase, after the "
     "engagements before it; one fought this phase and going on, in the next turn's",
     "-", OM_WM_OPTION_FIXED, 0},
    {"advance_shooting", "-",
     "Warmaster Revolution, Combat > Advance; Warmaster Ancients, Combat > Advance; Warmaster "
     "1.1 Rules Update, P44 - Advance",
     "May a unit advanced upon shoot at the advancing unit, and when?",
     "fixed: yes, in every rule set (\"in exactly the same way as a unit shooting at "
     "chargers\"; the 1.1 Rules Update adds a paragraph to the rulebook's Advance and leaves "
     "the rest standing): a unit whose policy stands and shoots, advanced upon to its front "
     "into an engagement fought in this phase, shoots at the advancer before the first round "
     "if no enemy touched it before the advance (\"not already engaged\"), also when it shot "
     "at chargers or advancers earlier in the turn; the advancer has no charge bonus. An "
     "advance into a combat going on is fought next turn, unshot",
     "-", OM_WM_OPTION_FIXED, 0},
};

const om_option_table om_wm_turn_option_registry = {
    "whole turns", turn_option_table, sizeof turn_option_table / sizeof turn_option_table[0]};

size_t om_wm_turn_option_count(void) { return om_wm_turn_option_registry.count; }

const om_wm_option *om_wm_turn_option_at(size_t i)
{
    return i < om_wm_turn_option_registry.count ? &turn_option_table[i] : NULL;
}

const om_wm_option *om_wm_turn_option_find(const char *name)
{
    return om_option_find(&om_wm_turn_option_registry, name);
}
