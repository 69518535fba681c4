/*
 * test_whfb7.h: helpers shared by the WHFB 7th edition engine tests: building
 * profiles, units and combats, running a prepared combat many times with fast
 * or plain (per-die GSL) dice, and checking a frequency against an exact
 * probability at 5 standard errors. Profiles are the rulebook appendix's
 * (WHFB 7th edition, Appendix > Basic Characteristics), as
 * scenarios/armies/whfb7/profiles.yaml holds them.
 */
#ifndef OM_TEST_WHFB7_H
#define OM_TEST_WHFB7_H

#include <criterion/criterion.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wh7.h"

/* Tolerance of every Monte Carlo check, in standard errors. */
#define SIGMAS 5.0
/* Trials per check: 2e5 (fast dice) keeps the standard error of a probability
 * under 0.0012; the plain baseline rolls every die and is slower. */
#define TRIALS 200000u
#define PLAIN_TRIALS 40000u
/* Doubles computed from small fractions agree to well under this. */
#define EXACT 1e-12

static inline om_wh7_profile prof(const char *name, unsigned m, unsigned ws, unsigned bs,
                                  unsigned s, unsigned t, unsigned w, unsigned i, unsigned a,
                                  unsigned ld)
{
    om_wh7_profile p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "%s", name);
    p.m = (uint8_t)m;
    p.ws = (uint8_t)ws;
    p.bs = (uint8_t)bs;
    p.s = (uint8_t)s;
    p.t = (uint8_t)t;
    p.w = (uint8_t)w;
    p.i = (uint8_t)i;
    p.a = (uint8_t)a;
    p.ld = (uint8_t)ld;
    return p;
}

/* Appendix profiles used by the tests. */
#define SWORDSMAN prof("Swordsman", 4, 4, 3, 3, 3, 1, 4, 1, 7)
#define ORC_BOY prof("Orc Boy", 4, 3, 3, 3, 4, 1, 2, 1, 7)
#define HALBERDIER prof("Halberdier", 4, 3, 3, 3, 3, 1, 3, 1, 7)
#define SPEARMAN prof("Spearman", 4, 3, 3, 3, 3, 1, 3, 1, 7)
#define KNIGHT prof("Knight", 4, 4, 3, 3, 3, 1, 3, 1, 8)
#define WARHORSE prof("Warhorse", 8, 3, 0, 3, 3, 1, 3, 1, 5)
#define GOBLIN prof("Goblin", 4, 2, 3, 3, 3, 1, 2, 1, 6)
#define OGRE_BULL prof("Ogre Bull", 6, 3, 2, 4, 4, 3, 2, 3, 7)
#define CAPTAIN prof("Captain", 4, 5, 5, 4, 4, 2, 5, 3, 8)
#define HE_SPEARMAN prof("Spearman", 5, 4, 4, 3, 3, 1, 5, 1, 8)

static inline om_wh7_unit unit_of(om_wh7_troop troop, om_wh7_profile p, unsigned models,
                                  unsigned files)
{
    om_wh7_unit u;
    memset(&u, 0, sizeof u);
    u.troop = troop;
    u.profile = p;
    u.models = (uint8_t)models;
    u.files = (uint8_t)files;
    return u;
}

static inline om_wh7_side side_of(om_wh7_unit u)
{
    om_wh7_side s;
    memset(&s, 0, sizeof s);
    s.unit = u;
    return s;
}

static inline om_wh7_combat combat_of(om_wh7_kind kind, om_wh7_side a, om_wh7_side b)
{
    om_wh7_combat c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.side[0] = a;
    c.side[1] = b;
    return c;
}

/* What many trials did: counts of each outcome. */
typedef struct tally {
    unsigned n;
    unsigned winner[4], round1_winner[4];
    unsigned broke[2], fled[2], destroyed[2], caught[2], panicked[2], feared[2], pursued[2];
    unsigned stupid[2], chars_slain[2], misfire[7], on_target, challenge;
    unsigned friend_panicked[2], charged;
    double slain[2], wounds[2], result[2], rounds;
    double slain_sq[2], hits[2];
} tally;

static inline void tally_add(tally *t, const om_wh7_outcome *o)
{
    t->n++;
    t->winner[o->winner & 3u]++;
    t->round1_winner[o->round1_winner & 3u]++;
    t->charged += o->charged;
    t->misfire[o->misfire % 7u]++;
    t->on_target += o->on_target;
    t->challenge += o->challenge;
    t->rounds += o->rounds;
    for (int s = 0; s < 2; s++) {
        t->broke[s] += o->broke[s];
        t->fled[s] += o->fled[s];
        t->destroyed[s] += o->destroyed[s];
        t->caught[s] += o->caught[s];
        t->panicked[s] += o->panicked[s];
        t->feared[s] += o->feared[s];
        t->stupid[s] += o->stupid[s];
        t->chars_slain[s] += o->characters_slain[s];
        t->pursued[s] += o->pursued[s];
        t->friend_panicked[s] += o->friend_panicked[s];
        t->slain[s] += o->slain[s];
        t->slain_sq[s] += (double)o->slain[s] * o->slain[s];
        t->wounds[s] += o->wounds[s];
        t->result[s] += o->result[s];
        t->hits[s] += o->hits[s];
    }
}

/* Run `trials` trials of a prepared combat with fast or plain dice. If `each`
 * is not NULL it sees every outcome (for per-trial identities). */
static inline tally run_trials(const om_wh7_prepared *p, unsigned trials, bool plain,
                               void (*each)(const om_wh7_outcome *, void *), void *ctx)
{
    tally t;
    om_dice d;
    memset(&t, 0, sizeof t);
    om_rng_seed_block(&d.rng, 20240607u, plain ? 2u : 1u);
    d.plain = plain ? gsl_rng_alloc(gsl_rng_mt19937) : NULL;
    if (plain)
        gsl_rng_set(d.plain, 4242u);
    for (unsigned i = 0; i < trials; i++) {
        om_wh7_outcome o;
        om_wh7_resolve(p, &d, &o);
        tally_add(&t, &o);
        if (each)
            each(&o, ctx);
    }
    if (plain)
        gsl_rng_free(d.plain);
    return t;
}

/* Prepare `c` or fail the test with the engine's message. */
static inline om_wh7_prepared *prepare_or_die(const om_wh7_combat *c)
{
    om_wh7_prepared *p = NULL;
    om_status st = om_wh7_prepare_alloc(c, &p);
    cr_assert_eq(st, OM_OK, "prepare: %s", om_error_message());
    return p;
}

/* |count/n - p| within SIGMAS standard errors of a Bernoulli(p) mean. */
static inline void expect_frequency(unsigned count, unsigned n, double p, const char *what)
{
    double f = (double)count / n, se = sqrt(p * (1.0 - p) / n);
    cr_expect(fabs(f - p) <= SIGMAS * se + EXACT, "%s: frequency %.5f, exact %.5f (5 se = %.5f)",
              what, f, p, SIGMAS * se);
}

/* |sum/n - mean| within SIGMAS standard errors, given the exact variance. */
static inline void expect_mean(double sum, unsigned n, double mean, double var, const char *what)
{
    double m = sum / n, se = sqrt(var / n);
    cr_expect(fabs(m - mean) <= SIGMAS * se + EXACT, "%s: mean %.5f, exact %.5f (5 se = %.5f)",
              what, m, mean, SIGMAS * se);
}

/* Binomial pmf, written here from its definition. */
static inline double binom_pmf(unsigned k, unsigned n, double p)
{
    double c = 1.0;
    if (k > n)
        return 0.0;
    for (unsigned i = 0; i < k; i++)
        c = c * (n - i) / (i + 1);
    return c * pow(p, k) * pow(1.0 - p, n - k);
}

/* P(sum of n D6 = s), n <= 4, by enumeration. */
static inline double nd6_pmf(unsigned n, unsigned s)
{
    unsigned ways = 0, total = 1;
    for (unsigned i = 0; i < n; i++)
        total *= 6;
    for (unsigned code = 0; code < total; code++) {
        unsigned x = code, sum = 0;
        for (unsigned i = 0; i < n; i++) {
            sum += x % 6 + 1;
            x /= 6;
        }
        ways += sum == s;
    }
    return (double)ways / total;
}

/* P(a roll of `pn` D6 >= a roll of `fn` D6): a pursuer catching a fleer. */
static inline double catch_probability(unsigned pn, unsigned fn)
{
    double p = 0.0;
    for (unsigned f = fn; f <= 6 * fn; f++)
        for (unsigned q = f; q <= 6 * pn; q++)
            p += nd6_pmf(fn, f) * nd6_pmf(pn, q);
    return p;
}

/* P(2D6 <= ld). */
static inline double ld_pass(int ld)
{
    double p = 0.0;
    for (int s = 2; s <= ld && s <= 12; s++)
        p += nd6_pmf(2, (unsigned)s);
    return p;
}

/* One side of the exact model: one-Wound models with one attack each. */
typedef struct ex_unit {
    unsigned models, files, contact;
    double p;        /* P(an unsaved wound) per attack */
    unsigned ld;     /* Leadership of its break test */
    bool standard;   /* a standard bearer: +1 */
    unsigned us;     /* unit strength per model */
    unsigned flee_dice;
} ex_unit;

typedef struct ex_result {
    double win[3];       /* A, B, draw */
    double broke[2], destroyed[2], slain[2], slain_sq[2];
} ex_result;

/* Rank bonus written from Combat Result Bonuses > Extra Rank. */
static inline unsigned ex_ranks(unsigned models, unsigned files)
{
    unsigned r;
    if (files < 5 || models < files)
        return 0;
    r = (models - files) / files + ((models - files) % files >= 5);
    return r > 3 ? 3 : r;
}

/* P(a break test holds) at a difference, Ld ld: a double 1, or 2D6 + diff <= ld. */
static inline double ex_hold(unsigned ld, unsigned diff)
{
    double p = 1.0 / 36.0;
    for (unsigned r = 3; r <= 12; r++)
        if (r + diff <= ld)
            p += nd6_pmf(2, r);
    return p;
}

/* One round between u[0] (A) and u[1] (B), `first` striking first; the loser
 * tests and the winner pursues. */
static inline ex_result exact_round(const ex_unit u[2], int first)
{
    ex_result r;
    int second = 1 - first;
    unsigned f1 = u[first].contact < u[first].models ? u[first].contact : u[first].models;
    memset(&r, 0, sizeof r);
    for (unsigned k = 0; k <= f1; k++) {
        double pk = binom_pmf(k, f1, u[first].p);
        unsigned kills1 = k < u[second].models ? k : u[second].models;
        unsigned c2 = u[second].contact < u[second].models ? u[second].contact : u[second].models;
        unsigned f2 = c2 > kills1 ? c2 - kills1 : 0;
        for (unsigned l = 0; l <= f2; l++) {
            double pl = pk * binom_pmf(l, f2, u[second].p);
            unsigned kills2 = l < u[first].models ? l : u[first].models;
            unsigned lost[2], left[2], score[2];
            int winner;
            lost[first] = kills2;
            lost[second] = kills1;
            for (int s = 0; s < 2; s++) {
                left[s] = u[s].models - lost[s];
                score[s] = lost[1 - s] + ex_ranks(u[s].models, u[s].files) +
                           (u[s].standard && left[s] > 0);
            }
            for (int s = 0; s < 2; s++)
                score[s] += left[s] * u[s].us > left[1 - s] * u[1 - s].us;
            for (int s = 0; s < 2; s++) {
                r.slain[s] += pl * lost[s];
                r.slain_sq[s] += pl * lost[s] * lost[s];
            }
            if (left[0] == 0 || left[1] == 0) {
                winner = left[0] == 0 && left[1] == 0 ? 2 : left[0] == 0 ? 1 : 0;
                r.win[winner] += pl;
                if (winner < 2)
                    r.destroyed[1 - winner] += pl;
                continue;
            }
            winner = score[0] > score[1] ? 0 : score[1] > score[0] ? 1 : 2;
            r.win[winner] += pl;
            if (winner < 2) {
                int loser = 1 - winner;
                double brk = 1.0 - ex_hold(u[loser].ld, score[winner] - score[loser]);
                r.broke[loser] += pl * brk;
                r.destroyed[loser] +=
                    pl * brk * catch_probability(u[winner].flee_dice, u[loser].flee_dice);
            }
        }
    }
    return r;
}

/* Check a tally against an exact round. */
static inline void expect_round(const tally *t, const ex_result *x, const char *what)
{
    char buf[128];
    const char *names[3] = {"A wins", "B wins", "draw"};
    for (int w = 0; w < 3; w++) {
        snprintf(buf, sizeof buf, "%s: %s", what, names[w]);
        expect_frequency(t->winner[w], t->n, x->win[w], buf);
    }
    for (int s = 0; s < 2; s++) {
        snprintf(buf, sizeof buf, "%s: side %d broke", what, s);
        expect_frequency(t->broke[s], t->n, x->broke[s], buf);
        snprintf(buf, sizeof buf, "%s: side %d destroyed", what, s);
        expect_frequency(t->destroyed[s], t->n, x->destroyed[s], buf);
        snprintf(buf, sizeof buf, "%s: side %d slain", what, s);
        expect_mean(t->slain[s], t->n, x->slain[s], x->slain_sq[s] - x->slain[s] * x->slain[s],
                    buf);
    }
}

#endif /* OM_TEST_WHFB7_H */
