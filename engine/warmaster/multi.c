/*
 * multi.c: engagements of several units a side (Warmaster Revolution,
 * Combat; MULTICOMBAT.md): the dice kit every engagement shares, preparing an
 * engagement described by its units, contacts and supports for the combat
 * engine without allocating, resolving one trial over states the caller
 * owns, and recording what it did to every unit. The rules themselves are
 * the combat engine's (combat.c), the same for two units as for sixteen.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "wm.h"
#include "wm_int.h"

/* Scores a test can have: to hit and to save, 0..7 (clamped). */
#define OM_WM_SCORES 8u

/* Most pairs of units that can fight each other in one engagement: every
 * unit of one side against every unit of the other, both ways (a units a
 * side and b the other, 2ab, largest when the sides are even). */
#define OM_WM_PAIRS_MAX (2u * (OM_WM_UNITS_MAX / 2) * (OM_WM_UNITS_MAX - OM_WM_UNITS_MAX / 2))

struct om_wm_dice_kit {
    om_binom_table *table[OM_WM_SCORES][OM_WM_SCORES]; /* [to_hit][save]; equal laws share */
    om_binom_table *owned[OM_WM_SCORES * OM_WM_SCORES]; /* the distinct tables */
    unsigned n_owned;
};

struct om_wm_multi_prepared {
    om_wm_engine g;                              /* the engagement for the engine */
    om_wm_side side[OM_WM_UNITS_MAX];            /* each unit as declared, with its
                                                    contacts' sums (om_wm_multi_side) */
    om_wm_side hurt[OM_WM_UNITS_MAX];            /* each unit once badly hurt */
    om_wm_unit_prep unit[OM_WM_UNITS_MAX];       /* the units for the engine */
    om_wm_contact_prep contact[OM_WM_CONTACTS_MAX]; /* the contacts for the engine */
    om_wm_support support[OM_WM_SUPPORTS_MAX];   /* the support links */
    om_wm_pair_tests tests[OM_WM_PAIRS_MAX];     /* the tests of the pairs in g.pair */
    unsigned n_pairs;                            /* pairs made */
    unsigned turn;                               /* the engagement's turn of the call */
};

void om_wm_dice_kit_free(om_wm_dice_kit *k)
{
    if (k == NULL)
        return;
    for (unsigned i = 0; i < k->n_owned; i++)
        om_binom_table_free(k->owned[i]);
    free(k);
}

om_status om_wm_dice_kit_alloc(om_wm_dice_kit **out)
{
    om_wm_dice_kit *k = calloc(1, sizeof *k);
    *out = NULL;
    if (k == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory building the dice kit");
    for (unsigned h = 0; h < OM_WM_SCORES; h++) {
        for (unsigned s = 0; s < OM_WM_SCORES; s++) {
            double p = om_dice_test_probability(h, s);
            om_status st;
            for (unsigned i = 0; i < k->n_owned && k->table[h][s] == NULL; i++)
                if (k->owned[i]->p == p)
                    k->table[h][s] = k->owned[i];
            if (k->table[h][s] != NULL)
                continue;
            st = om_binom_table_alloc(&k->owned[k->n_owned], p, OM_BINOM_N_MAX);
            if (st != OM_OK) {
                om_wm_dice_kit_free(k);
                return st;
            }
            k->table[h][s] = k->owned[k->n_owned++];
        }
    }
    *out = k;
    return OM_OK;
}

/* The kit's test of a to-hit and a save score. */
static void kit_test(const om_wm_dice_kit *k, unsigned to_hit, unsigned save, om_dice_test *t)
{
    const unsigned h = to_hit < OM_WM_SCORES ? to_hit : OM_WM_SCORES - 1u;
    const unsigned s = save < OM_WM_SCORES ? save : OM_WM_SCORES - 1u;
    t->to_hit = (uint8_t)to_hit;
    t->save = (uint8_t)save;
    t->pass = k->table[h][s];
}

void om_wm_dice_kit_test(const om_wm_dice_kit *kit, unsigned to_hit, unsigned save,
                         om_dice_test *t)
{
    kit_test(kit, to_hit, save, t);
}

om_status om_wm_multi_prepared_alloc(om_wm_multi_prepared **out)
{
    *out = calloc(1, sizeof **out);
    return *out != NULL ? OM_OK
                        : OM_ERROR(OM_ENOMEM, "out of memory for a prepared engagement");
}

void om_wm_multi_prepared_free(om_wm_multi_prepared *mp) { free(mp); }

void om_wm_multi_side(const om_wm_multi *m, unsigned u, om_wm_side *out)
{
    unsigned fighting = 0, flanked = 0, strikers = 0;
    *out = *m->unit[u].side;
    for (unsigned k = 0; k < m->n_contacts; k++) {
        const om_wm_contact *c = &m->contact[k];
        if (c->unit != u)
            continue;
        fighting += c->stands;
        flanked += c->flanked;
        strikers += c->side_strikers;
    }
    out->fighting = (uint8_t)(fighting < 255u ? fighting : 255u);
    out->flanked = (uint8_t)(flanked < 255u ? flanked : 255u);
    out->side_strikers = (uint8_t)(strikers < 255u ? strikers : 255u);
}

void om_wm_dice_kit_pair_tests(const om_wm_dice_kit *kit, const om_wm_ruleset *r,
                               const om_wm_side *me, const om_wm_side *foe,
                               om_wm_pair_tests *t)
{
    om_wm_pair_scores sc;
    memset(t, 0, sizeof *t);
    om_wm_pair_scores_of(r, me, foe, &sc);
    for (unsigned i = 0; i < sc.n; i++)
        kit_test(kit, sc.to_hit[i], sc.save[i], om_wm_pair_test_at(t, i));
}

/* The tests of unit u attacking and shooting at unit e, made once. */
static void add_pair(const om_wm_dice_kit *kit, om_wm_multi_prepared *mp, unsigned u, unsigned e)
{
    if (mp->g.pair[u][e] != OM_WM_NO_PAIR)
        return;
    assert(mp->n_pairs < OM_WM_PAIRS_MAX);
    om_wm_dice_kit_pair_tests(kit, mp->g.rules, &mp->side[u], &mp->side[e],
                              &mp->tests[mp->n_pairs]);
    mp->g.pair[u][e] = (uint16_t)mp->n_pairs++;
}

/* Unit u for the engine: its sides, Hits, side, pursuit target, last
 * contact and whether a contact joins it to an enemy. */
static void prepare_unit(const om_wm_multi *m, om_wm_multi_prepared *mp, unsigned u)
{
    om_wm_unit_prep *up = &mp->unit[u];
    const om_wm_side *me = &mp->side[u];
    const unsigned fortitude = me->magic == OM_WM_MAGIC_FORTITUDE;
    om_wm_side_hurt(me, &mp->hurt[u]);
    up->side = me;
    up->hurt = &mp->hurt[u];
    up->lost_at = up->left_at = NULL;
    up->army = m->unit[u].army;
    up->combat_hits = (uint8_t)(me->unit.hits + fortitude);
    up->hurt_hits = (uint8_t)(mp->hurt[u].unit.hits + fortitude);
    up->pursues = m->unit[u].pursues;
    up->last_contact = OM_WM_NO_CONTACT;
    up->touches = false;
    for (unsigned k = 0; k < m->n_contacts; k++) {
        if (m->contact[k].unit == u)
            up->last_contact = (uint16_t)k;
        up->touches |= m->contact[k].unit == u || m->contact[k].enemy == u;
    }
}

om_status om_wm_multi_prepare(const om_wm_dice_kit *kit, const om_wm_multi *m,
                              om_wm_multi_prepared *mp, om_wm_check_failure *why)
{
    om_status st = om_wm_multi_check(m, why);
    if (st != OM_OK)
        return st;
    om_wm_multi_build(kit, m, mp);
    return OM_OK;
}

void om_wm_multi_build(const om_wm_dice_kit *kit, const om_wm_multi *m, om_wm_multi_prepared *mp)
{
    om_wm_engine *g = &mp->g;
    assert(om_wm_multi_check(m, NULL) == OM_OK);
    /* Every field, and of its arrays the live part: an engagement of a few
     * units does not clear the room of one of a whole table. */
    g->army_units[0] = g->army_units[1] = 0;
    g->divisor[0] = g->divisor[1] = 0;
    g->later = NULL;
    g->after_shot = NULL;
    g->n_after_shot = 0;
    g->rules = m->rules;
    g->options = m->options;
    g->span = m->span;
    g->n_units = m->n_units;
    g->n_contacts = m->n_contacts;
    g->n_supports = m->n_supports;
    g->unit = mp->unit;
    g->contact = mp->contact;
    g->support = mp->support;
    g->tests = mp->tests;
    g->rounds_before = m->rounds_before;
    for (unsigned u = 0; u < m->n_units; u++)
        memset(g->pair[u], 0xff, m->n_units * sizeof g->pair[u][0]); /* OM_WM_NO_PAIR */
    mp->n_pairs = 0;
    mp->turn = m->turn > 0 ? m->turn : 1u;
    for (unsigned u = 0; u < m->n_units; u++) {
        const unsigned a = m->unit[u].army;
        om_wm_multi_side(m, u, &mp->side[u]);
        prepare_unit(m, mp, u);
        g->side[u] = &mp->side[u];
        g->army_unit[a][g->army_units[a]++] = (uint8_t)u;
    }
    /* The pairs that can fight: every contact, both ways (the unit struck
     * strikes back, also after a pursuit), and every declared pursuit. */
    for (unsigned k = 0; k < m->n_contacts; k++) {
        const om_wm_contact *c = &m->contact[k];
        add_pair(kit, mp, c->unit, c->enemy);
        add_pair(kit, mp, c->enemy, c->unit);
        mp->contact[k].c = *c;
        mp->contact[k].round1_dice = NULL;
    }
    for (unsigned u = 0; u < m->n_units; u++) {
        if (m->unit[u].pursues == OM_WM_NO_UNIT)
            continue;
        add_pair(kit, mp, u, m->unit[u].pursues);
        add_pair(kit, mp, m->unit[u].pursues, u);
    }
    for (unsigned k = 0; k < m->n_contacts; k++)
        mp->contact[k].tests = &mp->tests[g->pair[m->contact[k].unit][m->contact[k].enemy]];
    memcpy(mp->support, m->support, m->n_supports * sizeof m->support[0]);
    g->charger = om_wm_engine_charger(g);
    g->advancer = om_wm_engine_advancer(g);
    g->in_play = om_wm_engine_in_play(g);
    /* Within a turn the caller plays (span phase), the start of each side's
     * turn is the caller's: Daemonic Instability and aura rolls are not
     * rolled here. */
    if (m->span == OM_WM_SPAN_PHASE)
        g->in_play &= ~(uint32_t)OM_WM_PLAY_TURN_START;
}

void om_wm_multi_unit_state_start(const om_wm_multi *m, unsigned u, om_wm_unit_state *s)
{
    bool enemy_charges = false;
    for (unsigned k = 0; k < m->n_contacts; k++) {
        const om_wm_contact *c = &m->contact[k];
        if (c->unit == u && m->unit[c->enemy].side->charging)
            enemy_charges = true;
        if (c->enemy == u && m->unit[c->unit].side->charging)
            enemy_charges = true;
    }
    om_wm_unit_state_begin(m->rules, m->unit[u].side, enemy_charges, s);
}

/* Saturating sums of a side's units in a two-sided outcome field. */
static void add8(uint8_t *sum, unsigned v) { *sum = om_wm_sat8(*sum + v); }

/* What the engagement did to unit i, in its result and its side's totals;
 * its end states agree: a destroyed or routed unit is neither confused nor
 * badly hurt, nor engaged. */
static void record_unit(const om_wm_multi_prepared *mp, const om_wm_fighter *x, unsigned i,
                        bool unresolved, om_wm_multi_outcome *out)
{
    const om_wm_side *me = &mp->side[i];
    const int s = mp->unit[i].army;
    const bool alive = x->stands > 0;
    om_wm_unit_result *r = &out->unit[i];
    om_wm_outcome *o = &out->sides;
    r->stands_lost = (uint8_t)(x->first_stands > x->stands ? x->first_stands - x->stands : 0);
    r->carried = x->carried;
    r->hits_on = x->hits_on;
    r->shot_hits_on = x->shot_hits_on;
    r->retreated_cm = x->retreated_cm;
    r->fall_back_cm = x->fall_back_cm;
    r->pursued = x->pursued;
    r->followed_cm = x->followed_cm;
    r->followed = x->followed_cm > 0 ? x->followed : (uint8_t)OM_WM_NO_UNIT;
    r->confused = x->confused && alive && !me->unit.traits.never_confused;
    r->routed = x->routed;
    r->destroyed = !alive;
    r->hurt = x->hurt && alive;
    r->left_table = x->left_table && alive;
    r->engaged = unresolved && x->in_combat && alive && !x->left_table;
    r->foe = r->engaged ? x->foe : (uint8_t)OM_WM_NO_UNIT;
    add8(&o->hits_on[s], r->hits_on);
    add8(&o->shot_hits_on[s], r->shot_hits_on);
    add8(&o->stands_lost[s], r->stands_lost);
    o->retreated_cm[s] = r->retreated_cm > o->retreated_cm[s] ? r->retreated_cm
                                                              : o->retreated_cm[s];
    o->fall_back_cm[s] = r->fall_back_cm > o->fall_back_cm[s] ? r->fall_back_cm
                                                              : o->fall_back_cm[s];
    add8(&o->confused[s], r->confused);
    add8(&o->routed[s], r->routed);
    add8(&o->destroyed[s], r->destroyed);
    add8(&o->hurt[s], r->hurt);
}

void om_wm_multi_resolve(const om_wm_multi_prepared *mp, om_dice *d,
                         om_wm_unit_state *const *units, om_wm_multi_outcome *out)
{
    const om_wm_engine *g = &mp->g;
    om_wm_fighter u[OM_WM_UNITS_MAX];
    om_wm_fight f = {.u = u, .faded = false, .fresh = false, .round1 = NULL,
                     .retreats_marked = true, .round1_entry = -1, .turn = mp->turn};
    unsigned alive[2] = {0, 0};
    bool unresolved;
    for (unsigned i = 0; i < g->n_units; i++)
        om_wm_fighter_set(&u[i], units[i]);
    /* The outcome's live part: its units' entries, not a whole table's. */
    memset(out, 0, offsetof(om_wm_multi_outcome, unit));
    memset(out->unit, 0, g->n_units * sizeof out->unit[0]);
    om_wm_combat(g, d, &f, &out->sides, &unresolved);
    out->sides.turns = (uint8_t)(f.turn - mp->turn + 1u);
    out->unresolved = unresolved;
    for (unsigned i = 0; i < g->n_units; i++) {
        om_wm_unit_state *s = units[i];
        record_unit(mp, &u[i], i, unresolved, out);
        alive[mp->unit[i].army] += u[i].stands > 0;
        om_wm_fighter_get(&u[i], s);
        /* The engagement's own values end with it; an unresolved combat
         * keeps its pursuit bonuses and the last round's retreats
         * (Warmaster Revolution, Combat > Unresolved Combat). */
        s->shot = 0;
        if (!out->unit[i].engaged) {
            s->pursuit = 0;
            s->retreated = false;
        }
    }
    out->all_destroyed[0] = alive[0] == 0;
    out->all_destroyed[1] = alive[1] == 0;
}

om_status om_wm_multi_of_engagement(const om_wm_engagement *e, om_wm_multi *m)
{
    if (e->kind == OM_WM_KIND_VOLLEY)
        return OM_ERROR(OM_EINVAL, "a volley is no engagement of units in contact");
    memset(m, 0, sizeof *m);
    m->rules = e->rules;
    m->options = e->options;
    m->span = e->kind == OM_WM_KIND_ENGAGEMENT ? OM_WM_SPAN_END : OM_WM_SPAN_ROUND;
    m->n_units = 2;
    m->n_contacts = 2;
    for (int s = 0; s < 2; s++) {
        const om_wm_side *me = &e->side[s];
        m->unit[s].side = me;
        m->unit[s].army = (uint8_t)s;
        m->unit[s].pursues = OM_WM_NO_UNIT;
        m->contact[s].unit = (uint8_t)s;
        m->contact[s].enemy = (uint8_t)(1 - s);
        m->contact[s].stands = me->fighting;
        m->contact[s].flanked = me->flanked;
        m->contact[s].side_strikers = me->side_strikers;
    }
    return OM_OK;
}
