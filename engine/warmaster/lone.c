/*
 * lone.c: lone characters displaced or slain by an enemy unit moving through
 * them (lone.h; Warmaster Revolution, Generals, Wizards & Heroes > Enemy
 * Moving Through Characters; Warmaster Ancients, Commanders). Only the
 * table's geometry: whether a move's swept outline meets a character's base,
 * the friendly unit he reaches within 30cm, and his new place touching it.
 */
#include "lone.h"

#include <math.h>

/* A point character (radius 0) is in the way when the outline covers him:
 * closer than this to it. */
#define COVER_CM 1e-9

/* Whether character c's base overlaps unit un's outline shifted by `shift`. */
static bool overlaps(const om_wm_table_unit *un, const om_wm_table_character *ch,
                     om_wm_vec shift)
{
    const om_wm_vec p = {ch->at.x + shift.x, ch->at.y + shift.y};
    const om_wm_vec q = om_wm_table_closest_point(un, p);
    return hypot(q.x - p.x, q.y - p.y) < fmax(ch->radius_cm, COVER_CM);
}

/* Whether unit un, moved straight by `d` to where it stands, went into or
 * through character ch: his base meets the outline at some point of the path
 * (the outline as it ends, shifted back along the move by a fraction f of
 * it: he meets it there when he, shifted forward by f d, meets the outline
 * as it ends), or, for a flyer,
 * where it ends (Flying units "only displace characters if their move ends
 * on top of them"). */
static bool in_the_way(const om_wm_table_unit *un, const om_wm_table_character *ch,
                       om_wm_vec d)
{
    const double len = hypot(d.x, d.y);
    const unsigned steps = (unsigned)ceil(len / OM_WM_LONE_SAMPLE_CM);
    if (overlaps(un, ch, (om_wm_vec){0, 0}))
        return true;
    if (un->traits & OM_WM_TABLE_TRAIT_FLYER)
        return false;
    /* The start (k = steps) is left out: a unit that began touching him
     * and moved away did not move into him. */
    for (unsigned k = 1; k < steps; k++) {
        const double f = (double)k / steps;
        if (overlaps(un, ch, (om_wm_vec){d.x * f, d.y * f}))
            return true;
    }
    return false;
}

/* The friendly unit character c joins: his `follow` unit within reach, else
 * the closest within reach (ties to the lower index); -1: none. */
static int rescuer(const om_wm_table *t, unsigned c)
{
    const om_wm_table_character *ch = &t->character[c];
    double best = OM_WM_LONE_RESCUE_CM;
    int who = -1;
    if (ch->follow >= 0 && t->unit[ch->follow].present &&
        om_wm_table_character_distance(t, c, (unsigned)ch->follow) <= OM_WM_LONE_RESCUE_CM)
        return ch->follow;
    for (unsigned v = 0; v < t->units; v++) {
        double cm;
        if (t->unit[v].side != ch->side || !t->unit[v].present)
            continue;
        cm = om_wm_table_character_distance(t, c, v);
        if (cm < best || (who < 0 && cm <= best)) {
            best = cm;
            who = (int)v;
        }
    }
    return who;
}

/* Place character c touching unit v, on the side of v nearest him, and join
 * it (as a character's own move ends: command.c characters_step). */
static void join(om_wm_table *t, unsigned c, unsigned v)
{
    om_wm_table_character *ch = &t->character[c];
    const om_wm_vec q = om_wm_table_closest_point(&t->unit[v], ch->at);
    const double l = hypot(q.x - ch->at.x, q.y - ch->at.y);
    if (l > 1e-9) {
        ch->at.x = q.x - (q.x - ch->at.x) / l * ch->radius_cm;
        ch->at.y = q.y - (q.y - ch->at.y) / l * ch->radius_cm;
    }
    ch->joined = (int8_t)v;
}

unsigned om_wm_lone_moved(om_wm_table *t, unsigned u, om_wm_vec from, om_wm_trace *trace)
{
    const om_wm_table_unit *un = &t->unit[u];
    const om_wm_vec d = {un->centre.x - from.x, un->centre.y - from.y};
    unsigned n = 0;
    if (!un->present)
        return 0;
    for (unsigned c = 0; c < t->characters; c++) {
        om_wm_table_character *ch = &t->character[c];
        int v;
        if (ch->side == un->side || ch->joined >= 0 || ch->slain || !in_the_way(un, ch, d))
            continue;
        v = rescuer(t, c);
        if (v >= 0)
            join(t, c, (unsigned)v);
        else
            ch->slain = 1;
        n++;
        if (trace != NULL) {
            om_wm_event e = om_wm_event_make(trace, OM_WM_EV_DISPLACED, (int)u, (int)c);
            e.v[0] = (int16_t)v;
            om_wm_trace_put(trace, &e);
        }
    }
    return n;
}
