/*
 * rounds.c: whole rounds of blows tabulated for the fast dice.
 *
 * In the common combat of rank-and-file blocks (one-Wound models, no
 * characters, no challenge) the blows of a round depend on nothing but the
 * fighters of each side at its start: every part strikes in the prepared
 * order with its models less those already slain, each blow an independent
 * Bernoulli draw, and every unsaved wound slays a model. The joint
 * distribution of (models slain on A, models slain on B) is then computed
 * exactly here, by walking the strike order over every count of kills
 * (binomial convolution), for every pair of fighters, kind of round, order of
 * a tie and Frenzy state; the resolver draws a round from it with one alias
 * draw (combat.c) instead of one binomial draw a part. The rules are the
 * resolver's own (the parts, chains and orders prepare.c built); the plain
 * baseline still rolls every die. Guards at run time keep the table to rounds
 * it describes: both sides keep more rank and file than the enemy can slay in
 * the round (so no blow is wasted or turned on a champion).
 */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "wh7_int.h"

/* Largest tables a prepared combat builds: outcome slots over all keys, 8
 * bytes each (8 MB); bigger combats draw part by part. */
#define WH7_ROUND_SLOTS_MAX (1u << 20)

/* Models of a champion part that strike: the champion stands in the front
 * rank, in contact when the enemy is at the front (combat.c, who_fights). */
static unsigned single_models(const om_wh7_prepared *p, int s)
{
    return p->c.side[s].arc == OM_WH7_ARC_FRONT ? 1u : 0u;
}

/* The most kills a round can inflict on side s's enemy: every part of s at its
 * most models and Attacks. */
static unsigned most_kills(const om_wh7_prepared *p, int s, unsigned fighters, unsigned vset,
                           unsigned fz)
{
    unsigned total = 0;
    for (unsigned k = 0; k < WH7_PARTS; k++) {
        const wh7_part_info *pi = &p->side[s].part[k];
        unsigned v = om_wh7_rt_variant(vset, s), models;
        if (!pi->present)
            continue;
        models = k <= WH7_PART_RF_MOUNT ? fighters : single_models(p, s);
        total += models * (pi->attacks[v] + (pi->frenzy && (fz >> s & 1u) ? 1u : 0u));
    }
    return total;
}

unsigned om_wh7_rt_variant(unsigned vset, int s)
{
    switch (vset) {
    case WH7_RT_FIRST_A_FEARFUL:
        return s == 0 ? WH7_ROUND_FIRST_FEARFUL : WH7_ROUND_FIRST;
    case WH7_RT_FIRST_B_FEARFUL:
        return s == 1 ? WH7_ROUND_FIRST_FEARFUL : WH7_ROUND_FIRST;
    case WH7_RT_LATER:
        return WH7_ROUND_LATER;
    default:
        return WH7_ROUND_FIRST;
    }
}

/*
 * The joint pmf of kills (on A, on B) for fighters (fa, fb): dp[ka][kb] over
 * the strike order, each part adding Bin(models now x Attacks, p) kills on
 * the enemy. pmf has (ka_max + 1) x (kb_max + 1) entries.
 */
static void round_pmf(const om_wh7_prepared *p, const uint8_t *order, unsigned vset, unsigned fz,
                      const unsigned f[2], const unsigned kmax[2], double *pmf, double *next)
{
    unsigned cols = kmax[1] + 1u, cells = (kmax[0] + 1u) * cols;
    for (unsigned i = 0; i < cells; i++)
        pmf[i] = 0.0;
    pmf[0] = 1.0;
    for (unsigned i = 0; i < p->order_len; i++) {
        int s = order[i] / WH7_PARTS, e = 1 - s;
        unsigned k = order[i] % WH7_PARTS, v = om_wh7_rt_variant(vset, s);
        const wh7_part_info *pi = &p->side[s].part[k];
        const wh7_attack *at = &pi->vs[WH7_TARGET_RF][v];
        unsigned a = pi->attacks[v] + (pi->frenzy && (fz >> s & 1u) ? 1u : 0u);
        double q = at->p_wound + at->p_slay;
        for (unsigned c = 0; c < cells; c++)
            next[c] = 0.0;
        for (unsigned ka = 0; ka <= kmax[0]; ka++)
            for (unsigned kb = 0; kb <= kmax[1]; kb++) {
                double m = pmf[ka * cols + kb];
                unsigned killed = s == 0 ? ka : kb, models, n;
                if (m == 0.0)
                    continue;
                models = k <= WH7_PART_RF_MOUNT ? (f[s] > killed ? f[s] - killed : 0u)
                                                : single_models(p, s);
                n = models * a;
                for (unsigned j = 0; j <= n; j++) {
                    double pj = gsl_ran_binomial_pdf(j, q, n);
                    unsigned na = e == 0 ? ka + j : ka, nb = e == 1 ? kb + j : kb;
                    if (pj == 0.0)
                        continue;
                    assert(na <= kmax[0] && nb <= kmax[1]);
                    next[na * cols + nb] += m * pj;
                }
            }
        for (unsigned c = 0; c < cells; c++)
            pmf[c] = next[c];
    }
}

/* Whether the combat is of the kind the tables describe. */
static bool tabulable(const om_wh7_prepared *p)
{
    const om_wh7_combat *c = &p->c;
    if (c->kind != OM_WH7_KIND_COMBAT && c->kind != OM_WH7_KIND_ENGAGEMENT)
        return false;
    for (int s = 0; s < 2; s++) {
        const wh7_side_info *si = &p->side[s];
        if (si->characters > 0 || !si->target[WH7_TARGET_RF].present ||
            si->target[WH7_TARGET_RF].w != 1u || si->rf_start == 0)
            return false;
    }
    /* Champions would fight a challenge: not tabulated. */
    return !(c->challenge && p->side[0].target[WH7_TARGET_CHAMP].present &&
             p->side[1].target[WH7_TARGET_CHAMP].present);
}

/* Fighters a side can have at most at the start of a round. */
static unsigned fighters_max(const om_wh7_prepared *p, int s)
{
    unsigned f = (unsigned)p->side[s].contact * p->side[s].rank_depth;
    return f < p->side[s].rf_start ? f : p->side[s].rf_start;
}

om_status om_wh7_rounds_prepare(om_wh7_prepared *p)
{
    wh7_round_table *rt = &p->rounds;
    unsigned fmax[2], keys, nz[2];
    double *pmf = NULL, *next = NULL;
    size_t cells_max = 1, total = 0;
    om_status st = OM_OK;

    memset(rt, 0, sizeof *rt);
    if (!tabulable(p))
        return OM_OK;
    for (int s = 0; s < 2; s++) {
        fmax[s] = fighters_max(p, s);
        nz[s] = p->side[s].frenzied ? 2u : 1u;
    }
    keys = (fmax[0] + 1u) * (fmax[1] + 1u);
    /* Budget: the outcome slots of every table, at the most fighters. */
    for (unsigned vset = 0; vset < WH7_RT_VSETS; vset++)
        for (unsigned fz = 0; fz < 4; fz++) {
            size_t cells = (size_t)(most_kills(p, 1, fmax[1], vset, fz) + 1u) *
                           (most_kills(p, 0, fmax[0], vset, fz) + 1u);
            if (cells > cells_max)
                cells_max = cells;
            total += cells * keys * 2u;
        }
    if (total > WH7_ROUND_SLOTS_MAX)
        return OM_OK;
    rt->entry = calloc((size_t)WH7_RT_VSETS * 2u * 4u * keys, sizeof *rt->entry);
    pmf = malloc(cells_max * sizeof *pmf);
    next = malloc(cells_max * sizeof *next);
    if (rt->entry == NULL || pmf == NULL || next == NULL) {
        st = OM_ERROR(OM_ENOMEM, "out of memory for the round tables");
        goto done;
    }
    rt->fmax[0] = fmax[0];
    rt->fmax[1] = fmax[1];
    rt->keys = keys;
    for (unsigned vset = 0; vset < WH7_RT_VSETS; vset++)
        for (unsigned tie = 0; tie < 2; tie++)
            for (unsigned fz = 0; fz < 4; fz++) {
                unsigned phase = vset == WH7_RT_LATER ? WH7_PHASE_LATER : WH7_PHASE_FIRST;
                if (tie == 1 && !p->tie[phase])
                    continue;
                if (((fz & 1u) && nz[0] == 1u) || ((fz & 2u) && nz[1] == 1u))
                    continue;
                for (unsigned fa = 0; fa <= fmax[0]; fa++)
                    for (unsigned fb = 0; fb <= fmax[1]; fb++) {
                        wh7_rt_entry *en = &rt->entry[wh7_rt_index(rt, vset, tie, fz, fa, fb)];
                        unsigned f[2] = {fa, fb}, kmax[2], n;
                        kmax[0] = most_kills(p, 1, fb, vset, fz);
                        kmax[1] = most_kills(p, 0, fa, vset, fz);
                        n = (kmax[0] + 1u) * (kmax[1] + 1u);
                        /* Kills must fit their byte of the decoded outcome. */
                        if (n > cells_max || n > OM_ALIAS_N_MAX || kmax[0] > WH7_RT_KILL_MASK ||
                            kmax[1] > WH7_RT_KILL_MASK)
                            continue;
                        round_pmf(p, p->order[phase][tie], vset, fz, f, kmax, pmf, next);
                        if ((st = om_alias_alloc(&en->alias, pmf, n)) != OM_OK)
                            goto done;
                        en->kills = malloc(n * sizeof *en->kills);
                        if (en->kills == NULL) {
                            st = OM_ERROR(OM_ENOMEM, "out of memory for the round tables");
                            goto done;
                        }
                        for (unsigned i = 0; i < n; i++)
                            en->kills[i] = (uint16_t)((i / (kmax[1] + 1u)) << WH7_RT_KILL_BITS |
                                                      i % (kmax[1] + 1u));
                        en->kmax[0] = (uint16_t)kmax[0];
                        en->kmax[1] = (uint16_t)kmax[1];
                    }
            }
    rt->present = true;
done:
    free(pmf);
    free(next);
    if (st != OM_OK)
        om_wh7_rounds_release(p);
    return st;
}

void om_wh7_rounds_release(om_wh7_prepared *p)
{
    wh7_round_table *rt = &p->rounds;
    if (rt->entry != NULL)
        for (size_t i = 0; i < (size_t)WH7_RT_VSETS * 2u * 4u * rt->keys; i++) {
            om_alias_free(rt->entry[i].alias);
            free(rt->entry[i].kills);
        }
    free(rt->entry);
    memset(rt, 0, sizeof *rt);
}
