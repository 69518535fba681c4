/*
 * warmachine.c: war machines with their geometry abstracted (WHFB 7th
 * edition, War Machines > Cannons, Grapeshot, Bolt Throwers, Stone Throwers,
 * the Misfire charts; Dice > Artillery Dice & Scatter Dice; Templates).
 *
 * The target is a block of bases, ranks behind its front at the declared
 * distance target_in on the machine's line of fire, which runs through the
 * block's middle file (README.md):
 *   - a cannon's ball lands at guess + artillery die and bounces another
 *     artillery die; every rank (a file from the flank) it crosses loses the
 *     model on the line;
 *   - a stone thrower's 3" template is placed at the guess on that line,
 *     scattered by the artillery die's inches at a uniform angle unless the
 *     scatter die shows HIT (digest A20); bases wholly under it are hit,
 *     bases partly under it on a 4+, the base under the centre at double S;
 *   - a bolt thrower rolls to hit with the crew's BS and goes through the
 *     ranks while it slays, one Strength less each rank;
 *   - grapeshot's flame template covers the models the scenario counts.
 */
#include <math.h>
#include <string.h>

#include "wh7_int.h"

/* The war machine table (War Machines: the profiles of Cannons, Bolt
 * Throwers and Stone Throwers; Grapeshot). Columns: range, S, centre S,
 * damage, no armour save, armour piercing, misfire chart. */
static const om_wh7_machine_entry om_wh7_machine_table[OM_WH7_MACHINE_COUNT] = {
    [OM_WH7_MACHINE_NONE] = {"none", "None", 0, 0, 0, OM_WH7_DAMAGE_ONE, false, false, 0, "-"},
    [OM_WH7_MACHINE_CANNON] = {"cannon", "Cannon", 48, 10, 0, OM_WH7_DAMAGE_D3, true, false, 0,
        "War Machines > Cannons"},
    [OM_WH7_MACHINE_GREAT_CANNON] = {"great-cannon", "Great Cannon", 60, 10, 0,
        OM_WH7_DAMAGE_D6, true, false, 0, "War Machines > Cannons (digest A33)"},
    [OM_WH7_MACHINE_GRAPESHOT] = {"grapeshot", "Grapeshot", 8, 0, 0, OM_WH7_DAMAGE_D3, false,
        true, 0, "War Machines > Cannons > Grapeshot"},
    [OM_WH7_MACHINE_STONE_THROWER] = {"stone-thrower", "Stone Thrower", 60, 4, 8,
        OM_WH7_DAMAGE_D6, true, false, 1, "War Machines > Stone Throwers"},
    [OM_WH7_MACHINE_BOLT_THROWER] = {"bolt-thrower", "Bolt Thrower", 48, 6, 0, OM_WH7_DAMAGE_D3,
        true, false, 0, "War Machines > Bolt Throwers"},
};

/* Misfire charts by D6 (Cannon and Stone Thrower Misfire charts): 1 destroyed;
 * 2-3 malfunction (the stone thrower also loses a crewman); 4-6 no shot. */
#define WH7_MISFIRE_DESTROYED 1u
#define WH7_MISFIRE_MALFUNCTION_MAX 3u
/* The artillery die's misfire face, and its inches per face (2, 4 ... 10). */
#define WH7_ARTILLERY_MISFIRE 6u
#define WH7_ARTILLERY_STEP 2u
/* The scatter die: faces 1-2 are HIT (P = 1/3), 3-6 arrows. */
#define WH7_SCATTER_HIT_MAX 2u
/* The small round template: 3" across (Templates). */
#define WH7_SMALL_TEMPLATE_RADIUS_IN 1.5
/* A model partly under a template is hit on a 4+ (Templates). */
#define WH7_PARTIAL_HIT 4u
/* A full turn in radians. */
#define WH7_TWO_PI 6.283185307179586
/* Millimetres per inch. */
#define WH7_MM_PER_IN 25.4
/* The bolt thrower loses this much Strength per rank it goes through. */
#define WH7_BOLT_STEP 1u

/* Base sizes by troop type in mm, width then depth (Units > Unit Types:
 * 20/25mm infantry, 40/50mm Ogre-sized, 25x50mm cavalry; monsters and
 * machines on 50mm squares). */
static const uint8_t om_wh7_base_mm[OM_WH7_TROOP_COUNT][2] = {
    [OM_WH7_INFANTRY] = {20, 20}, [OM_WH7_MONSTROUS_INFANTRY] = {40, 40},
    [OM_WH7_CAVALRY] = {25, 50}, [OM_WH7_MONSTER] = {50, 50}, [OM_WH7_WAR_MACHINE] = {50, 50},
};

const om_wh7_machine_entry *om_wh7_machine_get(om_wh7_machine m)
{
    return (unsigned)m < OM_WH7_MACHINE_COUNT ? &om_wh7_machine_table[m] : NULL;
}

const om_wh7_machine_entry *om_wh7_machine_find(const char *id)
{
    for (unsigned m = 0; m < OM_WH7_MACHINE_COUNT; m++)
        if (strcmp(om_wh7_machine_table[m].id, id) == 0)
            return &om_wh7_machine_table[m];
    return NULL;
}

unsigned om_wh7_artillery_face(unsigned d6)
{
    return d6 >= WH7_ARTILLERY_MISFIRE ? 0u : WH7_ARTILLERY_STEP * d6;
}

unsigned om_wh7_cannon_ranks(double front_in, double rank_depth_in, unsigned ranks,
                             double first_in, double bounce_in, bool stuck)
{
    unsigned hit = 0;
    double end = first_in + bounce_in;
    for (unsigned k = 0; k < ranks; k++) {
        double a = front_in + k * rank_depth_in, b = a + rank_depth_in;
        if (stuck ? (first_in >= a && first_in < b) : (first_in < b && end > a))
            hit++;
    }
    return hit;
}

/* Whether a base [x0,x1] x [y0,y1] lies wholly within the circle. */
static bool base_inside(double x0, double x1, double y0, double y1, double cx, double cy,
                        double r)
{
    double fx = fmax(fabs(x0 - cx), fabs(x1 - cx)), fy = fmax(fabs(y0 - cy), fabs(y1 - cy));
    return fx * fx + fy * fy <= r * r;
}

/* Whether a base touches the circle's inside. */
static bool base_touched(double x0, double x1, double y0, double y1, double cx, double cy,
                         double r)
{
    double nx = fmin(fmax(cx, x0), x1) - cx, ny = fmin(fmax(cy, y0), y1) - cy;
    return nx * nx + ny * ny < r * r;
}

void om_wh7_round_template(unsigned models, unsigned files, double base_w_in, double base_d_in,
                           double front_in, double cx, double cy, double radius_in,
                           om_wh7_template_cover *out)
{
    unsigned ranks = files ? (models + files - 1u) / files : 0u;
    memset(out, 0, sizeof *out);
    for (unsigned j = 0; j < ranks; j++) {
        unsigned in_rank = j + 1u < ranks ? files : models - j * files;
        /* An incomplete rear rank stands in the middle (Units > Ranks & Files). */
        double left = -0.5 * in_rank * base_w_in;
        double y0 = front_in + j * base_d_in, y1 = y0 + base_d_in;
        if (y1 <= cy - radius_in || y0 >= cy + radius_in)
            continue;
        for (unsigned i = 0; i < in_rank; i++) {
            double x0 = left + i * base_w_in, x1 = x0 + base_w_in;
            if (!base_touched(x0, x1, y0, y1, cx, cy, radius_in))
                continue;
            if (cx >= x0 && cx < x1 && cy >= y0 && cy < y1)
                out->centre = true;
            else if (base_inside(x0, x1, y0, y1, cx, cy, radius_in))
                out->full++;
            else
                out->partial++;
        }
    }
}

void om_wh7_base_in(const om_wh7_prepared *p, int e, double *w, double *d)
{
    const om_wh7_side *t = &p->c.side[e];
    *w = (t->base_width_mm ? t->base_width_mm : om_wh7_base_mm[t->unit.troop][0]) / WH7_MM_PER_IN;
    *d = (t->base_depth_mm ? t->base_depth_mm : om_wh7_base_mm[t->unit.troop][1]) / WH7_MM_PER_IN;
}

/* The target's bases and ranks along the line of fire: from the flank files
 * count as ranks (Cannons; Bolt Throwers). */
static void target_geometry(const om_wh7_prepared *p, int e, wh7_machine *m)
{
    const om_wh7_side *t = &p->c.side[e];
    unsigned total = (unsigned)t->unit.models + t->unit.characters;
    double w, dd;
    om_wh7_base_in(p, e, &w, &dd);
    if (t->arc == OM_WH7_ARC_FLANK) {
        m->ranks = t->unit.files;
        m->rank_depth_in = w;
        m->base_w_in = dd;
        m->base_d_in = w;
    } else {
        m->ranks = (total + t->unit.files - 1u) / t->unit.files;
        m->rank_depth_in = dd;
        m->base_w_in = w;
        m->base_d_in = dd;
    }
}

om_status om_wh7_machine_prepare(om_wh7_prepared *p, int s)
{
    const om_wh7_side *me = &p->c.side[s], *foe = &p->c.side[1 - s];
    const om_wh7_machine_entry *e = om_wh7_machine_get(me->machine);
    wh7_machine *m = &p->machine[s];
    unsigned n_max = (unsigned)foe->unit.models + foe->unit.characters;
    om_status st;

    m->present = true;
    target_geometry(p, 1 - s, m);
    for (unsigned str = 1; str < WH7_MACHINE_STRENGTHS; str++) {
        wh7_attack *at = &m->at[str];
        at->chain = om_wh7_hit_chain(p, s, WH7_TARGET_RF, str, e->no_armour_save,
                                  e->armour_piercing ? 1u : 0u, false, false, true);
        at->damage = (uint8_t)e->damage;
        if ((st = om_wh7_attack_tables(p, at, p->side[1 - s].target[WH7_TARGET_RF].w, n_max)))
            return st;
    }
    /* A bolt thrower rolls to hit with the crew's BS and the usual modifiers,
     * but no penalty for its own pivot (Bolt Throwers). */
    if (me->machine == OM_WH7_MACHINE_BOLT_THROWER) {
        om_wh7_shot_case sc;
        int req;
        memset(&sc, 0, sizeof sc);
        sc.bs = me->unit.profile.bs;
        sc.long_range = me->long_range;
        sc.cover = foe->cover;
        sc.large_target = (p->side[1 - s].rules & OM_WH7_RULE_LARGE_TARGET) != 0;
        req = om_wh7_shoot_required(&sc);
        m->aim.hit = (uint8_t)(req >= 10 ? 10 : req < 2 ? 2 : req);
        m->aim.wound = 1;
    }
    return OM_OK;
}

/* A uniform double in [0, 1) from the dice source (GSL's in the plain
 * baseline), for the scatter angle. */
static double uniform01(om_dice *d)
{
    return d->plain != NULL ? gsl_rng_uniform(d->plain) : om_rng_uniform(&d->rng);
}

/* A misfire: the chart's D6, recorded; a roll of 1 destroys the machine and
 * its crew, 2-3 on a stone thrower slays a crewman. */
static void misfire(const om_wh7_prepared *p, om_dice *d, wh7_state *st, int s,
                    om_wh7_outcome *o)
{
    const om_wh7_machine_entry *e = om_wh7_machine_get(p->c.side[s].machine);
    unsigned roll = om_dice_roll_d6(d);
    o->misfire = (uint8_t)roll;
    if (roll == WH7_MISFIRE_DESTROYED) {
        st->slain[s] += st->u[s].rf;
        st->u[s].rf = 0;
        o->destroyed[s] = 1;
    } else if (roll <= WH7_MISFIRE_MALFUNCTION_MAX && e->misfire_chart == 1 && st->u[s].rf > 0) {
        st->u[s].rf--;
        st->slain[s]++;
    }
}

/* The rank and file of the target alive now, for the geometry. */
static unsigned target_models(const om_wh7_prepared *p, const wh7_state *st, int e)
{
    return wh7_models_alive(&p->side[e], &st->u[e]);
}

static unsigned fire_cannon(const om_wh7_prepared *p, om_dice *d, wh7_state *st, int s,
                            om_wh7_outcome *o)
{
    const om_wh7_side *me = &p->c.side[s];
    const wh7_machine *m = &p->machine[s];
    unsigned first = om_wh7_artillery_face(om_dice_roll_d6(d)), bounce, ranks, hits;
    unsigned total = target_models(p, st, 1 - s), files = p->c.side[1 - s].unit.files;
    unsigned kills, excess;
    if (first == 0) {
        misfire(p, d, st, s, o);
        return 0;
    }
    /* The bounce: a misfire sticks the ball where it landed (Firing a Cannon). */
    bounce = om_wh7_artillery_face(om_dice_roll_d6(d));
    ranks = p->c.side[1 - s].arc == OM_WH7_ARC_FLANK ? files : (total + files - 1u) / files;
    if (ranks > m->ranks)
        ranks = m->ranks;
    hits = om_wh7_cannon_ranks(me->target_in, m->rank_depth_in, ranks,
                               (double)me->guess_in + first, bounce, bounce == 0);
    if (hits > 0)
        om_wh7_land(p, d, st, 1 - s, WH7_TARGET_RF, &m->at[10], hits, &kills, &excess);
    return hits;
}

static unsigned fire_grapeshot(const om_wh7_prepared *p, om_dice *d, wh7_state *st, int s,
                               om_wh7_outcome *o)
{
    const om_wh7_side *me = &p->c.side[s];
    unsigned str = om_wh7_artillery_face(om_dice_roll_d6(d)), hits, kills, excess;
    if (str == 0) {
        misfire(p, d, st, s, o);
        return 0;
    }
    hits = me->template_models + om_dice_roll_count(d, me->template_partial, WH7_PARTIAL_HIT);
    if (hits > 0)
        om_wh7_land(p, d, st, 1 - s, WH7_TARGET_RF, &p->machine[s].at[str], hits, &kills, &excess);
    return hits;
}

static unsigned fire_stone(const om_wh7_prepared *p, om_dice *d, wh7_state *st, int s,
                           om_wh7_outcome *o)
{
    const om_wh7_side *me = &p->c.side[s], *foe = &p->c.side[1 - s];
    const om_wh7_machine_entry *e = om_wh7_machine_get(me->machine);
    const wh7_machine *m = &p->machine[s];
    unsigned face = om_wh7_artillery_face(om_dice_roll_d6(d)), scatter = om_dice_roll_d6(d);
    double cx = 0.0, cy = me->guess_in;
    unsigned files = foe->arc == OM_WH7_ARC_FLANK ? m->ranks : foe->unit.files;
    unsigned hits, kills, excess;
    om_wh7_template_cover cover;

    /* A misfire cancels the shot whatever the scatter die shows. */
    if (face == 0) {
        misfire(p, d, st, s, o);
        return 0;
    }
    if (scatter <= WH7_SCATTER_HIT_MAX) {
        o->on_target = 1;
    } else {
        double angle = WH7_TWO_PI * uniform01(d);
        cx += face * cos(angle);
        cy += face * sin(angle);
    }
    om_wh7_round_template(target_models(p, st, 1 - s), files, m->base_w_in, m->base_d_in,
                          me->target_in, cx, cy, WH7_SMALL_TEMPLATE_RADIUS_IN, &cover);
    hits = cover.full + om_dice_roll_count(d, cover.partial, WH7_PARTIAL_HIT);
    /* The model under the centre hole takes one hit at double Strength
     * instead of the normal one. */
    if (cover.centre)
        om_wh7_land(p, d, st, 1 - s, WH7_TARGET_RF, &m->at[e->centre_strength], 1, &kills, &excess);
    if (hits > 0)
        om_wh7_land(p, d, st, 1 - s, WH7_TARGET_RF, &m->at[e->strength], hits, &kills, &excess);
    return hits + (cover.centre ? 1u : 0u);
}

static unsigned fire_bolt(const om_wh7_prepared *p, om_dice *d, wh7_state *st, int s)
{
    const wh7_machine *m = &p->machine[s];
    const om_wh7_machine_entry *e = om_wh7_machine_get(p->c.side[s].machine);
    unsigned str = e->strength, hits = 0, kills, excess;
    if (om_wh7_hit_roll(d, &m->aim) == OM_WH7_HIT_MISS)
        return 0;
    /* The first rank's model, then the one behind while each is slain, one
     * Strength less each rank (Bolt Throwers). */
    for (unsigned rank = 0; rank < m->ranks && str >= 1 && st->u[1 - s].rf > 0; rank++) {
        hits++;
        om_wh7_land(p, d, st, 1 - s, WH7_TARGET_RF, &m->at[str], 1, &kills, &excess);
        if (kills == 0)
            break;
        str -= WH7_BOLT_STEP;
    }
    return hits;
}

unsigned om_wh7_machine_fire(const om_wh7_prepared *p, om_dice *d, wh7_state *st, int s,
                          om_wh7_outcome *o)
{
    if (st->u[s].rf == 0 || st->u[1 - s].rf == 0)
        return 0;
    switch (p->c.side[s].machine) {
    case OM_WH7_MACHINE_CANNON:
    case OM_WH7_MACHINE_GREAT_CANNON:
        return fire_cannon(p, d, st, s, o);
    case OM_WH7_MACHINE_GRAPESHOT:
        return fire_grapeshot(p, d, st, s, o);
    case OM_WH7_MACHINE_STONE_THROWER:
        return fire_stone(p, d, st, s, o);
    case OM_WH7_MACHINE_BOLT_THROWER:
        return fire_bolt(p, d, st, s);
    default:
        return 0;
    }
}
