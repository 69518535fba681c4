/*
 * engagement.c: preparing an engagement for simulation (its dice tables) and
 * resolving one trial. Preparation runs once per run; resolution runs per trial
 * on every thread and only reads the prepared data.
 */
#include <stdlib.h>
#include <string.h>

#include "wm.h"
#include "wm_int.h"

/* A save one better: none becomes 6+ (A27), never better than 3+ (1.1). */
static unsigned one_better(unsigned save)
{
    return save >= 7u ? 6u : save > 3u ? save - 1u : save;
}

/* A save score moved by `delta` (positive: worse), from 3+ to none (7): one
 * worse makes 6+ none (army lists' piercing shots). */
static unsigned save_shifted(unsigned save, int delta)
{
    int v = (int)save + delta;
    return v >= 7 ? 7u : v <= 3 ? 3u : (unsigned)v;
}

/* A to-hit score moved by `delta` (negative: easier), never below 2+ nor
 * above 6+ (army lists' sharpshooters: +1 to hit). */
static unsigned hit_shifted(unsigned score, int delta)
{
    int v = (int)score + delta;
    return v <= 2 ? 2u : v >= 6 ? 6u : (unsigned)v;
}

/* Build the dice test of a to-hit and a save score, sharing a table with an
 * earlier test of the same probability. */
static om_status make_test(om_wm_prepared *p, unsigned *n_tables, om_dice_test *t,
                           unsigned to_hit, unsigned save)
{
    double prob = om_dice_test_probability(to_hit, save);
    om_status st;
    t->to_hit = (uint8_t)to_hit;
    t->save = (uint8_t)save;
    for (unsigned i = 0; i < *n_tables; i++) {
        if (p->tables[i]->p == prob) {
            t->pass = p->tables[i];
            return OM_OK;
        }
    }
    if (NEVER(*n_tables >= sizeof p->tables / sizeof p->tables[0]))
        return OM_ERROR(OM_EINVAL, "too many dice tables for one engagement");
    st = om_binom_table_alloc(&p->tables[*n_tables], prob, OM_BINOM_N_MAX);
    if (st != OM_OK)
        return st;
    t->pass = p->tables[(*n_tables)++];
    return OM_OK;
}

om_status om_wm_prepare_alloc(const om_wm_engagement *e, om_wm_prepared **out)
{
    om_wm_prepared *p;
    unsigned n_tables = 0;
    om_status st = OM_OK;

    *out = NULL;
    if ((st = om_wm_engagement_check(e, NULL)) != OM_OK)
        return st;
    p = calloc(1, sizeof *p);
    if (p == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory preparing the engagement");
    p->e = *e;
    /* A Banner of Fortitude gives every stand +1 Hits for the engagement,
     * not against shooting of the turn before (10.3). */
    for (int s = 0; s < 2; s++) {
        om_wm_unit *hurt = &p->hurt[s].unit;
        p->combat_hits[s] = (uint8_t)(e->side[s].unit.hits +
                                      (e->side[s].magic == OM_WM_MAGIC_FORTITUDE));
        /* Badly hurt, a monster fights on with half its Hits and Attacks and
         * shoots with half its Shots, rounded up (army lists: Dragon Riders
         * 6/3 -> 3/2, Stegadon 10/3 -> 5/2). */
        p->hurt[s] = e->side[s];
        hurt->hits = (uint8_t)(hurt->hits / 2u > 0 ? hurt->hits / 2u : 1u);
        hurt->attacks = (uint8_t)(hurt->attacks / 2u);
        hurt->shots = (uint8_t)((hurt->shots + 1u) / 2u);
        p->hurt_hits[s] = (uint8_t)(hurt->hits + (e->side[s].magic == OM_WM_MAGIC_FORTITUDE));
    }
    e = &p->e;
    for (int s = 0; s < 2 && st == OM_OK; s++) {
        const om_wm_side *me = &e->side[s], *foe = &e->side[1 - s];
        om_wm_side foe_in_open = *foe;
        const om_wm_traits *t = &me->unit.traits;
        /* Rockets are stone throwers whose hits are saved at -1 (army lists). */
        bool shots_saved = !t->shots_no_save || t->shooter == OM_WM_SHOOTER_ROCKET;
        unsigned save = om_wm_save_score(&foe->unit, true);
        unsigned hit = om_wm_to_hit_score(e->rules, foe), hit_open;
        unsigned volley_hit = hit, volley_save = om_wm_save_score(&foe->unit, shots_saved);
        unsigned charger_save, shielded = save;
        /* The charger's save once its Banner of Shielding has stopped working
         * (a stand lost to a volley of the turn before, 10.3). */
        unsigned worn_save = volley_save;
        foe_in_open.position = OM_WM_OPEN;
        foe_in_open.beside_laager = false; /* defended in the first round only */
        hit_open = om_wm_to_hit_score(e->rules, &foe_in_open);
        /* The Ethereal Host hits on 4+ whatever the cover (army list). */
        if (t->melee_hit_score != 0)
            hit = hit_open = t->melee_hit_score;
        /* Melee against the enemy as declared, and in the open once it has
         * retreated and lost its position (6.15). */
        st = make_test(p, &n_tables, &p->melee[s][0], hit, save);
        if (st == OM_OK)
            st = make_test(p, &n_tables, &p->melee[s][1], hit_open, save);
        /* The enemy's shieldwall: its save one better, none becoming 6+
         * (Warmaster Ancients, Special Rules > Shieldwall). Built for every
         * pairing; used only when it applies. */
        if (st == OM_OK)
            st = make_test(p, &n_tables, &p->melee[s][2], hit, one_better(save));
        /* The enemy's Banner of Shielding: its save one better, none becoming
         * 6+ (A27), while it has lost no stand (10.3). */
        if (st == OM_OK)
            st = make_test(p, &n_tables, &p->melee[s][3], hit, one_better(save));
        if (st == OM_OK)
            st = make_test(p, &n_tables, &p->melee[s][4], hit_open, one_better(save));
        /* Pikemen holding a charge count as defended (army list). */
        if (st == OM_OK)
            st = make_test(p, &n_tables, &p->melee[s][5],
                           t->melee_hit_score != 0 ? t->melee_hit_score
                                                   : e->rules->to_hit[OM_WM_DEFENDED],
                           save);
        if (st == OM_OK)
            st = make_test(p, &n_tables, &p->melee[s][6], p->melee[s][5].to_hit,
                           one_better(save));
        /* Shooting comes before any combat loss, so a target's working Banner
         * of Shielding improves its armour first (10.3, A27); then +1 to hit
         * for the list's sharpshooters, and armour one worse against piercing
         * shots, 6+ becoming no save (army lists). A cannon's volley allows no
         * save and counts cover one step lower; its grapeshot at chargers
         * allows saves (5.10). */
        if (foe->magic == OM_WM_MAGIC_SHIELDING && om_wm_magic_intact(foe, foe->unit.stands)) {
            shielded = one_better(save);
            if (shots_saved)
                volley_save = shielded;
        }
        volley_hit = hit_shifted(volley_hit, t->shots_to_hit_delta);
        volley_save = save_shifted(volley_save, t->shots_save_delta);
        worn_save = save_shifted(worn_save, t->shots_save_delta);
        charger_save = volley_save;
        if (t->shooter == OM_WM_SHOOTER_CANNON) {
            volley_save = 7;
            charger_save = shielded;
            worn_save = save;
        }
        /* Cannon and the Revolution Trebuchet count cover one step lower
         * (5.10, A-11); shooting blind hits on 6s only, whatever the cover
         * (5.10), except the 1.1 Trebuchet's, which rolls its 6 first. */
        if (t->shots_cover_one_lower) {
            om_wm_position pos = om_wm_effective_position(foe);
            volley_hit = e->rules->to_hit[pos == OM_WM_FORTIFIED ? OM_WM_DEFENDED : OM_WM_OPEN];
        }
        if (me->blind_fire && !t->blind_fire_needs_six)
            volley_hit = 6;
        if (st == OM_OK)
            st = make_test(p, &n_tables, &p->shoot[s], volley_hit, volley_save);
        /* Chargers are never defended (5.7): the score against them is the open one. */
        if (st == OM_OK)
            st = make_test(p, &n_tables, &p->shoot_charger[s],
                           hit_shifted(hit_open, t->shots_to_hit_delta),
                           charger_save);
        if (st == OM_OK)
            st = make_test(p, &n_tables, &p->shoot_charger_worn[s],
                           p->shoot_charger[s].to_hit, worn_save);
        /* A joined character's breath is worked out in the usual way: no
         * sharpshooting, piercing or cannon rules of the unit. Built
         * only when there is one: each table costs time to prepare. */
        if (st == OM_OK && me->extra_shots > 0)
            st = make_test(p, &n_tables, &p->breath[s][0], hit, shielded);
        if (st == OM_OK && me->extra_shots > 0)
            st = make_test(p, &n_tables, &p->breath[s][1], hit_open, shielded);
        if (st == OM_OK && me->extra_shots > 0)
            st = make_test(p, &n_tables, &p->breath[s][2], hit_open, save);
        /* Stand losses by carried hits, so trials never divide (5.4). */
        for (unsigned h = 0; h < 256; h++) {
            unsigned lost = h / p->combat_hits[s];
            p->lost_at[s][h] = (uint8_t)(lost > 255u ? 255u : lost);
            p->left_at[s][h] = (uint8_t)(h % p->combat_hits[s]);
        }
    }
    if (st != OM_OK) {
        om_wm_prepared_free(p);
        return st;
    }
    if ((st = om_wm_combat_prepare(p)) != OM_OK) {
        om_wm_prepared_free(p);
        return st;
    }
    *out = p;
    return OM_OK;
}

void om_wm_prepared_free(om_wm_prepared *p)
{
    if (p == NULL)
        return;
    for (size_t i = 0; i < sizeof p->tables / sizeof p->tables[0]; i++)
        om_binom_table_free(p->tables[i]);
    om_wm_combat_release(p);
    free(p);
}

void om_wm_resolve(const om_wm_prepared *p, om_dice *d, om_wm_outcome *out)
{
    /* Every trial starts from the prepared state of both units. */
    om_wm_fight f = *p->start;
    memset(out, 0, sizeof *out);
    if (p->e.kind == OM_WM_KIND_VOLLEY)
        om_wm_volley(p, d, &f, out);
    else
        om_wm_combat(p, d, &f, out);
}

void om_wm_fight_of_units(const om_wm_unit_state *a, const om_wm_unit_state *b, om_wm_fight *f)
{
    om_wm_fight_set_unit(f, 0, a);
    om_wm_fight_set_unit(f, 1, b);
    for (int s = 0; s < 2; s++) {
        f->pursuit[s] = 0;
        f->shot[s] = 0;
        f->retreated[s] = false;
    }
    f->faded = false;
    f->fresh = false;
    f->round1_drawn = false;
    f->turn = 1;
}

void om_wm_resolve_units(const om_wm_prepared *p, om_dice *d, om_wm_unit_state *a,
                         om_wm_unit_state *b, om_wm_outcome *out)
{
    om_wm_fight f;
    om_wm_fight_of_units(a, b, &f);
    memset(out, 0, sizeof *out);
    if (p->e.kind == OM_WM_KIND_VOLLEY)
        om_wm_volley(p, d, &f, out);
    else
        om_wm_combat(p, d, &f, out);
    om_wm_fight_get_unit(&f, 0, a);
    om_wm_fight_get_unit(&f, 1, b);
}
