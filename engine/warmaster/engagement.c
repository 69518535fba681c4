/*
 * engagement.c: preparing an engagement of two units for simulation (its dice
 * tables: the scores of each unit attacking and shooting at the other, shared
 * with engagements of several units, multi.c) and resolving one trial through
 * the combat engine as the engagement of one unit a side. Preparation runs
 * once per run; resolution runs per trial on every thread and only reads the
 * prepared data. Rules are cited by Warmaster Revolution section unless another
 * rulebook is named; A27 is an ambiguity of the Warmaster digest, A-14 a
 * reading of docs/research/rule_effects_fantasy.md.
 */
#include <stdlib.h>
#include <string.h>

#include "wm.h"
#include "wm_int.h"

/* A save one better: none becomes 6+ (A27), never better than 3+ (Game Values). */
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
 * earlier test of the same probability; its alias tables hold Bin(n,p) for n
 * up to n_max dice. */
static om_status make_test(om_wm_prepared *p, unsigned *n_tables, om_dice_test *t,
                           unsigned to_hit, unsigned save, unsigned n_max)
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
    st = om_binom_table_alloc(&p->tables[*n_tables], prob, n_max);
    if (st != OM_OK)
        return st;
    t->pass = p->tables[(*n_tables)++];
    return OM_OK;
}

om_dice_test *om_wm_pair_test_at(om_wm_pair_tests *t, unsigned i)
{
    assert(i < OM_WM_PAIR_TESTS);
    if (i < 7)
        return &t->melee[i];
    switch (i) {
    case 7: return &t->shoot;
    case 8: return &t->shoot_charger;
    case 9: return &t->shoot_charger_worn;
    default: return &t->breath[i - 10];
    }
}

/* Record score pair i of *sc. */
static void set_scores(om_wm_pair_scores *sc, unsigned i, unsigned to_hit, unsigned save)
{
    sc->to_hit[i] = (uint8_t)to_hit;
    sc->save[i] = (uint8_t)save;
}

void om_wm_pair_scores_of(const om_wm_ruleset *r, const om_wm_side *me, const om_wm_side *foe,
                          om_wm_pair_scores *sc)
{
    om_wm_side foe_in_open = *foe;
    const om_wm_traits *t = &me->unit.traits;
    /* Rockets are stone throwers whose hits are saved at -1 (army lists). */
    bool shots_saved = !t->shots_no_save || t->shooter == OM_WM_SHOOTER_ROCKET;
    unsigned save = om_wm_save_score(&foe->unit, true);
    unsigned hit = om_wm_to_hit_score(r, foe), hit_open;
    unsigned volley_hit = hit, volley_save = om_wm_save_score(&foe->unit, shots_saved);
    unsigned charger_save, shielded = save;
    /* The charger's save once its Banner of Shielding has stopped working
     * (a stand lost to a volley of the turn before; Magic > Magic Items). */
    unsigned worn_save = volley_save;
    foe_in_open.position = OM_WM_OPEN;
    foe_in_open.beside_laager = false; /* defended in the first round only */
    hit_open = om_wm_to_hit_score(r, &foe_in_open);
    /* The Ethereal Host hits on 4+ whatever the cover (army list). */
    if (t->melee_hit_score != 0)
        hit = hit_open = t->melee_hit_score;
    /* Melee against the enemy as declared, and in the open once it has
     * retreated and lost its position (Combat > Defended & Fortified
     * Troops). */
    set_scores(sc, 0, hit, save);
    set_scores(sc, 1, hit_open, save);
    /* The enemy's shieldwall: its save one better, none becoming 6+
     * (Warmaster Ancients, Special Rules > Shieldwall). Built for every
     * pairing; used only when it applies. */
    set_scores(sc, 2, hit, one_better(save));
    /* The enemy's Banner of Shielding: its save one better, none becoming
     * 6+ (A27), while it has lost no stand (Magic > Magic Items). */
    set_scores(sc, 3, hit, one_better(save));
    set_scores(sc, 4, hit_open, one_better(save));
    /* Pikemen holding a charge count as defended (army list). */
    set_scores(sc, 5, t->melee_hit_score != 0 ? t->melee_hit_score : r->to_hit[OM_WM_DEFENDED],
               save);
    set_scores(sc, 6, sc->to_hit[5], one_better(save));
    /* Shooting comes before any combat loss, so a target's working Banner of
     * Shielding improves its armour first (Magic > Magic Items, A27); then +1
     * to hit for the list's sharpshooters, and armour one worse against
     * piercing shots, 6+ becoming no save (army lists). A cannon's volley
     * allows no save and counts cover one step lower; its grapeshot at
     * chargers allows saves (Artillery & Machines > Artillery). */
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
     * (Artillery & Machines > Artillery; rule_effects_fantasy A-11); shooting
     * blind hits on 6s only, whatever the cover, except the 1.1 Trebuchet's,
     * which rolls its 6 first. */
    if (t->shots_cover_one_lower) {
        om_wm_position pos = om_wm_effective_position(foe);
        volley_hit = r->to_hit[pos == OM_WM_FORTIFIED ? OM_WM_DEFENDED : OM_WM_OPEN];
    }
    if (me->blind_fire && !t->blind_fire_needs_six)
        volley_hit = 6;
    set_scores(sc, 7, volley_hit, volley_save);
    /* Chargers are never defended (Shooting > Shooting at Charging Enemy): the
     * score against them is the open one. */
    set_scores(sc, 8, hit_shifted(hit_open, t->shots_to_hit_delta), charger_save);
    set_scores(sc, 9, sc->to_hit[8], worn_save);
    /* A joined character's breath is worked out in the usual way: no
     * sharpshooting, piercing or cannon rules of the unit. Made only
     * when there is one: each table costs time to prepare. */
    set_scores(sc, 10, hit, shielded);
    set_scores(sc, 11, hit_open, shielded);
    set_scores(sc, 12, hit_open, save);
    sc->n = me->extra_shots > 0 ? OM_WM_PAIR_TESTS : OM_WM_PAIR_TESTS - 3u;
}

/* Side s's Hits per stand in combat, as declared and once badly hurt, its
 * values halved, and its stand losses by hits carried (Shooting > Removing
 * Casualties; Magic > Magic Items). */
static void prepare_unit(om_wm_prepared *p, int s)
{
    const om_wm_side *me = &p->e.side[s];
    om_wm_unit *hurt = &p->hurt[s].unit;
    /* A Banner of Fortitude gives every stand +1 Hits for the engagement,
     * not against shooting of the turn before (Magic > Magic Items). */
    p->combat_hits[s] = (uint8_t)(me->unit.hits + (me->magic == OM_WM_MAGIC_FORTITUDE));
    om_wm_side_hurt(me, &p->hurt[s]);
    p->hurt_hits[s] = (uint8_t)(hurt->hits + (me->magic == OM_WM_MAGIC_FORTITUDE));
    /* Stand losses by carried hits, so trials never divide
     * (Shooting > Removing Casualties). */
    for (unsigned h = 0; h < 256; h++) {
        unsigned lost = h / p->combat_hits[s];
        p->lost_at[s][h] = (uint8_t)(lost > 255u ? 255u : lost);
        p->left_at[s][h] = (uint8_t)(h % p->combat_hits[s]);
    }
}

void om_wm_side_hurt(const om_wm_side *me, om_wm_side *hurt)
{
    /* Badly hurt, a monster fights on with half its Hits and Attacks and
     * shoots with half its Shots, rounded up (army lists: Dragon Riders
     * 6/3 -> 3/2, Stegadon 10/3 -> 5/2). */
    *hurt = *me;
    hurt->unit.hits = (uint8_t)(hurt->unit.hits / 2u > 0 ? hurt->unit.hits / 2u : 1u);
    hurt->unit.attacks = (uint8_t)(hurt->unit.attacks / 2u);
    hurt->unit.shots = (uint8_t)((hurt->unit.shots + 1u) / 2u);
}

om_status om_wm_prepare_alloc(const om_wm_engagement *e, om_wm_prepared **out)
{
    return om_wm_prepare_alloc_dice(e, OM_BINOM_N_MAX, out);
}

om_status om_wm_prepare_alloc_dice(const om_wm_engagement *e, unsigned n_max,
                                   om_wm_prepared **out)
{
    om_wm_prepared *p;
    unsigned n_tables = 0;
    om_status st = OM_OK;

    *out = NULL;
    if (n_max == 0 || n_max > OM_BINOM_N_MAX)
        return OM_ERROR(OM_EINVAL, "dice tables of %u dice: from 1 to %u", n_max,
                        OM_BINOM_N_MAX);
    if ((st = om_wm_engagement_check(e, NULL)) != OM_OK)
        return st;
    p = calloc(1, sizeof *p);
    if (p == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory preparing the engagement");
    p->e = *e;
    e = &p->e;
    for (int s = 0; s < 2 && st == OM_OK; s++) {
        om_wm_pair_scores sc;
        prepare_unit(p, s);
        om_wm_pair_scores_of(e->rules, &e->side[s], &e->side[1 - s], &sc);
        for (unsigned i = 0; i < sc.n && st == OM_OK; i++)
            st = make_test(p, &n_tables, om_wm_pair_test_at(&p->tests[s], i), sc.to_hit[i],
                           sc.save[i], n_max);
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
    (void)om_wm_duel_resolve(p, d, out, true);
}

void om_wm_resolve_units(const om_wm_prepared *p, om_dice *d, om_wm_unit_state *a,
                         om_wm_unit_state *b, om_wm_outcome *out)
{
    om_wm_fighter u[2];
    om_wm_fighter_set(&u[0], a);
    om_wm_fighter_set(&u[1], b);
    /* The engagement's own values start at 0 (wm.h). */
    for (int s = 0; s < 2; s++) {
        u[s].pursuit = 0;
        u[s].shot = 0;
        u[s].retreated = false;
    }
    om_wm_duel_fight(p, d, u, out);
    om_wm_fighter_get(&u[0], a);
    om_wm_fighter_get(&u[1], b);
}
