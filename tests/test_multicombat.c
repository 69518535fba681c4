/*
 * test_multicombat.c: the Combat phase with several units a side (Warmaster
 * Revolution, Combat; engine/warmaster/MULTICOMBAT.md): the engine of several
 * units against the two-unit engine trial by trial, a three-unit combat
 * against its exact law worked by hand, retreats divided among the losing
 * units, the automatic loss only when every unit engaged on a side is
 * destroyed, the rule-set differences of supports and retreat divisors,
 * pursuits into a new enemy, unresolved combats carried to the next turn,
 * consistent end states, and every error of om_wm_multi_check.
 *
 * Monte Carlo checks compare with exact values at 5 standard errors and fixed
 * seeds; per-trial invariants are asserted on every trial.
 */
#include <criterion/criterion.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <string.h>

#include "test_wm_units.h"
#include "wm.h"
#include "wm_int.h"

/* An engagement of several units under construction. */
static void multi_begin(om_wm_multi *m, const char *ruleset, om_wm_span span)
{
    memset(m, 0, sizeof *m);
    m->rules = rules(ruleset);
    m->span = span;
}

static unsigned add_unit(om_wm_multi *m, const om_wm_side *side, unsigned army)
{
    m->unit[m->n_units].side = side;
    m->unit[m->n_units].army = (uint8_t)army;
    m->unit[m->n_units].pursues = OM_WM_NO_UNIT;
    return m->n_units++;
}

static void add_contact(om_wm_multi *m, unsigned u, unsigned e, unsigned stands, unsigned flanked)
{
    om_wm_contact *c = &m->contact[m->n_contacts++];
    c->unit = (uint8_t)u;
    c->enemy = (uint8_t)e;
    c->stands = (uint8_t)stands;
    c->flanked = (uint8_t)flanked;
}

static void add_support(om_wm_multi *m, unsigned u, unsigned t, unsigned stands, unsigned rear)
{
    om_wm_support *s = &m->support[m->n_supports++];
    s->unit = (uint8_t)u;
    s->supported = (uint8_t)t;
    s->stands = (uint8_t)stands;
    s->rear = (uint8_t)rear;
}

/* A prepared engagement of several units and the kit behind it. */
typedef struct runner {
    om_wm_dice_kit *kit;
    om_wm_multi_prepared *mp;
    const om_wm_multi *m;
    om_dice d;
    om_wm_unit_state state[OM_WM_UNITS_MAX];
    om_wm_unit_state *ptr[OM_WM_UNITS_MAX];
} runner;

static void runner_open(runner *r, const om_wm_multi *m, uint64_t seed)
{
    om_wm_check_failure why;
    memset(r, 0, sizeof *r);
    cr_assert_eq(om_wm_dice_kit_alloc(&r->kit), OM_OK);
    cr_assert_eq(om_wm_multi_prepared_alloc(&r->mp), OM_OK);
    cr_assert_eq(om_wm_multi_prepare(r->kit, m, r->mp, &why), OM_OK, "%s: %s", why.field,
                 why.reason);
    r->m = m;
    om_rng_seed_block(&r->d.rng, seed, 0);
    for (unsigned u = 0; u < OM_WM_UNITS_MAX; u++)
        r->ptr[u] = &r->state[u];
}

/* One trial from the units' start states. */
static void runner_trial(runner *r, om_wm_multi_outcome *o)
{
    for (unsigned u = 0; u < r->m->n_units; u++)
        om_wm_multi_unit_state_start(r->m, u, &r->state[u]);
    om_wm_multi_resolve(r->mp, &r->d, r->ptr, o);
}

static void runner_close(runner *r)
{
    om_wm_multi_prepared_free(r->mp);
    om_wm_dice_kit_free(r->kit);
}

/* The end states of every unit agree with each other and with its state. */
static void expect_consistent(const om_wm_multi *m, const runner *r, const om_wm_multi_outcome *o)
{
    for (unsigned u = 0; u < m->n_units; u++) {
        const om_wm_unit_result *x = &o->unit[u];
        const om_wm_unit_state *s = &r->state[u];
        cr_assert_eq(x->destroyed, s->stands == 0, "unit %u", u);
        cr_assert_eq(x->carried, s->carried, "unit %u", u);
        cr_assert_eq(x->stands_lost + s->stands, m->unit[u].side->unit.stands, "unit %u", u);
        cr_assert(!(x->destroyed && (x->confused || x->hurt || x->engaged)), "unit %u", u);
        cr_assert(!x->routed || x->destroyed, "unit %u", u);
        cr_assert(!x->engaged || o->unresolved, "unit %u", u);
        cr_assert(x->engaged || (s->pursuit == 0 && !s->retreated), "unit %u", u);
        cr_assert_eq(s->shot, 0u, "unit %u", u);
    }
    cr_assert(!o->unresolved || o->sides.winner == OM_WM_NO_CONTEST);
}

/* ---------- One unit a side is the two-unit engine ---------- */

/* The engagements compared: every kind of rule the two-unit engine knows. */
static unsigned two_unit_cases(om_wm_engagement *out)
{
    unsigned n = 0;
    om_wm_side kn = side_of("Knights", OM_WM_CAVALRY, 3, 3, 3, 4, NO_TRAITS);
    om_wm_side sp = side_of("Spearmen", OM_WM_INFANTRY, 3, 3, 3, 6, NO_TRAITS);
    om_wm_side a, b;
    kn.charging = true;
    out[n++] = make("warmaster-revolution", OM_WM_KIND_COMBAT, kn, sp);
    out[n++] = make("warmaster-revolution", OM_WM_KIND_ENGAGEMENT, kn, sp);
    /* Supports of its own and of units not modelled; friends behind; 1.1. */
    b = sp;
    b.fighting = 2;
    b.supports = 1;
    b.behind = OM_WM_BEHIND_FRIENDS;
    b.behind_cm = 2;
    out[n++] = make("warmaster-revolution", OM_WM_KIND_ENGAGEMENT, kn, b);
    b = sp;
    b.supports = 2;
    b.support_units = 1;
    b.position = OM_WM_DEFENDED;
    a = side_of("Orcs", OM_WM_INFANTRY, 3, 3, 3, 6, NO_TRAITS);
    a.charging = true;
    out[n++] = make("warmaster-1.1", OM_WM_KIND_ENGAGEMENT, a, b);
    /* Stand and shoot, blocked retreats. */
    b = side_of("Crossbowmen", OM_WM_INFANTRY, 3, 3, 3, 0, NO_TRAITS);
    b.unit.shots = 1;
    b.unit.range_cm = 30;
    b.stand_and_shoot = true;
    b.behind = OM_WM_BEHIND_IMPASSABLE;
    b.behind_stands = 1;
    out[n++] = make("warmaster-revolution", OM_WM_KIND_ENGAGEMENT, kn, b);
    /* Ancients: warband against a legion, elephants rampaging. */
    a = side_of("Warriors", OM_WM_INFANTRY, 3, 3, 3, 0,
                traits_of("warband", "warmaster-ancients"));
    a.charging = true;
    b = side_of("Legion", OM_WM_INFANTRY, 4, 3, 3, 5, traits_of("legion", "warmaster-ancients"));
    b.fighting = 3;
    b.supports = 1;
    out[n++] = make("warmaster-ancients", OM_WM_KIND_ENGAGEMENT, a, b);
    a = side_of("Elephants", OM_WM_MONSTER, 2, 4, 4, 5,
                traits_of("elephants", "warmaster-ancients"));
    a.charging = true;
    b = side_of("Warriors", OM_WM_INFANTRY, 3, 3, 3, 0,
                traits_of("warband", "warmaster-ancients"));
    out[n++] = make("warmaster-ancients", OM_WM_KIND_ENGAGEMENT, a, b);
    /* Flanked stands, a character, terror. */
    a = kn;
    a.flanked = 0;
    a.attack_bonus = 2;
    a.unit.traits.terror = true;
    b = sp;
    b.flanked = 2;
    out[n++] = make("warmaster-revolution", OM_WM_KIND_ENGAGEMENT, a, b);
    /* A 1.1 Dragon Rider, badly hurt from half its Hits, charging a
     * Helblaster that stands and shoots (its misfires blow it up). */
    a = side_of("Dragon", OM_WM_MONSTER, 1, 6, 6, 4, traits_of("dragons", "warmaster-1.1"));
    a.charging = true;
    b = side_of("Helblaster", OM_WM_ARTILLERY, 1, 1, 2, 0,
                traits_of("helblaster", "warmaster-1.1"));
    b.unit.shots = 8;
    b.unit.range_cm = 30;
    b.stand_and_shoot = true;
    out[n++] = make("warmaster-1.1", OM_WM_KIND_ENGAGEMENT, a, b);
    /* ... and fighting on, badly hurt, against a larger unit (1.1: hurt
     * while engaged). */
    b = side_of("Halberdiers", OM_WM_INFANTRY, 4, 3, 3, 5, NO_TRAITS);
    b.pursue = OM_WM_PURSUE_WHEN_AHEAD;
    out[n++] = make("warmaster-1.1", OM_WM_KIND_ENGAGEMENT, a, b);
    /* A winner that pursues only while it has as many stands as the loser. */
    a.pursue = OM_WM_PURSUE_WHEN_AHEAD;
    out[n++] = make("warmaster-1.1", OM_WM_KIND_ENGAGEMENT, a, b);
    /* A Tomb King's power in the second turn; an aura rolled each turn
     * against terror; Daemonic Instability giving stands back. */
    a = kn;
    a.power = OM_WM_POWER_TOMB_KING;
    a.power_turn = 2;
    b = sp;
    b.aura = OM_WM_AURA_ROLL;
    a.unit.traits.terror = true;
    out[n++] = make("warmaster-revolution", OM_WM_KIND_ENGAGEMENT, a, b);
    a = side_of("Daemons", OM_WM_INFANTRY, 3, 3, 3, 5,
                traits_of("temple-daemons", "warmaster-revolution"));
    a.charging = true;
    out[n++] = make("warmaster-revolution", OM_WM_KIND_ENGAGEMENT, a, sp);
    /* The 1.1 Warp Lightning Cannon standing and shooting: hurting itself,
     * confusing its target on a 6. */
    b = side_of("Warp Lightning", OM_WM_ARTILLERY, 1, 1, 2, 0,
                traits_of("warp-lightning-cannon", "warmaster-1.1"));
    b.unit.shots = 1;
    b.unit.range_cm = 40;
    b.stand_and_shoot = true;
    out[n++] = make("warmaster-1.1", OM_WM_KIND_ENGAGEMENT, kn, b);
    return n;
}

/* The multi-unit engine with one unit a side gives the two-unit engine's
 * outcome trial by trial with the same dice: om_wm_resolve_units (fast dice;
 * the dice kit holds the same binomial tables as the prepared engagement)
 * and om_wm_resolve with plain dice (no first-round table), the outcome's
 * two sides equal byte for byte and the states too. */
Test(one_a_side, equals_the_two_unit_engine_trial_by_trial)
{
    om_wm_engagement cases[16];
    unsigned n = two_unit_cases(cases);
    om_wm_dice_kit *kit = NULL;
    om_wm_multi_prepared *mp = NULL;
    cr_assert_eq(om_wm_dice_kit_alloc(&kit), OM_OK);
    cr_assert_eq(om_wm_multi_prepared_alloc(&mp), OM_OK);
    for (unsigned c = 0; c < n; c++) {
        const om_wm_engagement *e = &cases[c];
        om_wm_prepared *p = NULL;
        om_wm_multi m;
        om_wm_check_failure why;
        om_dice d1 = {.plain = NULL}, d2 = {.plain = NULL};
        om_dice q1 = {.plain = gsl_rng_alloc(gsl_rng_default)};
        om_dice q2 = {.plain = gsl_rng_alloc(gsl_rng_default)};
        cr_assert_eq(om_wm_prepare_alloc(e, &p), OM_OK, "case %u: %s", c, om_error_message());
        cr_assert_eq(om_wm_multi_of_engagement(e, &m), OM_OK);
        cr_assert_eq(om_wm_multi_prepare(kit, &m, mp, &why), OM_OK, "case %u: %s: %s", c,
                     why.field, why.reason);
        om_rng_seed_block(&d1.rng, 31 + c, 0);
        om_rng_seed_block(&d2.rng, 31 + c, 0);
        gsl_rng_set(q1.plain, 41 + c);
        gsl_rng_set(q2.plain, 41 + c);
        for (unsigned i = 0; i < 20000; i++) {
            om_wm_unit_state two[2], many[2], *ptr[2] = {&many[0], &many[1]};
            om_wm_outcome o1;
            om_wm_multi_outcome o2;
            for (int s = 0; s < 2; s++) {
                om_wm_unit_state_start(e, s, &two[s]);
                om_wm_multi_unit_state_start(&m, (unsigned)s, &many[s]);
                cr_assert(memcmp(&two[s], &many[s], sizeof two[s]) == 0);
            }
            om_wm_resolve_units(p, &d1, &two[0], &two[1], &o1);
            om_wm_multi_resolve(mp, &d2, ptr, &o2);
            cr_assert(memcmp(&o1, &o2.sides, sizeof o1) == 0, "case %u trial %u differs", c, i);
            for (int s = 0; s < 2; s++) {
                cr_assert_eq(two[s].stands, many[s].stands, "case %u trial %u", c, i);
                cr_assert_eq(two[s].carried, many[s].carried, "case %u trial %u", c, i);
                cr_assert_eq(two[s].confused, many[s].confused, "case %u trial %u", c, i);
                cr_assert_eq(two[s].hurt, many[s].hurt, "case %u trial %u", c, i);
            }
            if (i < 5000) {
                om_wm_resolve(p, &q1, &o1);
                for (int s = 0; s < 2; s++)
                    om_wm_multi_unit_state_start(&m, (unsigned)s, &many[s]);
                om_wm_multi_resolve(mp, &q2, ptr, &o2);
                cr_assert(memcmp(&o1, &o2.sides, sizeof o1) == 0, "case %u plain trial %u", c,
                          i);
            }
        }
        gsl_rng_free(q1.plain);
        gsl_rng_free(q2.plain);
        om_wm_prepared_free(p);
    }
    om_wm_multi_prepared_free(mp);
    om_wm_dice_kit_free(kit);
}

/* A duel whose charged unit stands and shoots draws its first round from the
 * table of the state the shooting left (combat.c, after_shot_prepare) when
 * that state has one: the same dice, so om_wm_resolve gives, trial by trial,
 * the outcome the same units started by om_wm_resolve_units give (which rolls
 * every round), for a first round alone and to the end, a shooting that can
 * only hit (Crossbowmen), one that can blow its machine up (a Helblaster) and
 * ones whose landing rolls dice or confuses (the Warp Lightning Cannons). */
Test(after_shot_table, equals_the_rolled_round_trial_by_trial)
{
    om_wm_engagement cases[8];
    unsigned n = 0;
    om_wm_side kn = side_of("Knights", OM_WM_CAVALRY, 3, 3, 3, 4, NO_TRAITS);
    om_wm_side xb = side_of("Crossbowmen", OM_WM_INFANTRY, 3, 3, 3, 0, NO_TRAITS);
    om_wm_side dr = side_of("Dragon", OM_WM_MONSTER, 1, 6, 6, 4,
                            traits_of("dragons", "warmaster-1.1"));
    om_wm_side hb = side_of("Helblaster", OM_WM_ARTILLERY, 1, 1, 2, 0,
                            traits_of("helblaster", "warmaster-1.1"));
    om_wm_side wl = side_of("Warp Lightning", OM_WM_ARTILLERY, 1, 1, 2, 0,
                            traits_of("warp-lightning-cannon", "warmaster-1.1"));
    kn.charging = dr.charging = true;
    xb.unit.shots = 1;
    xb.unit.range_cm = 30;
    hb.unit.shots = 8;
    hb.unit.range_cm = 30;
    wl.unit.shots = 1;
    wl.unit.range_cm = 40;
    xb.stand_and_shoot = hb.stand_and_shoot = wl.stand_and_shoot = true;
    cases[n++] = make("warmaster-revolution", OM_WM_KIND_COMBAT, kn, xb);
    cases[n++] = make("warmaster-revolution", OM_WM_KIND_ENGAGEMENT, kn, xb);
    cases[n++] = make("warmaster-1.1", OM_WM_KIND_COMBAT, dr, hb);
    cases[n++] = make("warmaster-1.1", OM_WM_KIND_ENGAGEMENT, dr, hb);
    cases[n++] = make("warmaster-1.1", OM_WM_KIND_ENGAGEMENT, kn, wl);
    wl.unit.traits = traits_of("warp-lightning-cannon", "warmaster-revolution");
    cases[n++] = make("warmaster-revolution", OM_WM_KIND_COMBAT, kn, wl);
    for (unsigned c = 0; c < n; c++) {
        om_wm_prepared *p = NULL;
        om_dice d1 = {.plain = NULL}, d2 = {.plain = NULL};
        cr_assert_eq(om_wm_prepare_alloc(&cases[c], &p), OM_OK, "case %u: %s", c,
                     om_error_message());
        cr_assert_null(p->round1, "case %u: no table of the start (shooting first)", c);
        cr_assert_not_null(p->duel->after_shot, "case %u: tables after the shooting", c);
        om_rng_seed_block(&d1.rng, 61 + c, 0);
        om_rng_seed_block(&d2.rng, 61 + c, 0);
        for (unsigned i = 0; i < 20000; i++) {
            om_wm_unit_state u[2];
            om_wm_outcome o1, o2;
            om_wm_resolve(p, &d1, &o1);
            om_wm_unit_state_start(&cases[c], 0, &u[0]);
            om_wm_unit_state_start(&cases[c], 1, &u[1]);
            om_wm_resolve_units(p, &d2, &u[0], &u[1], &o2);
            cr_assert(memcmp(&o1, &o2, sizeof o1) == 0, "case %u trial %u differs", c, i);
        }
        om_wm_prepared_free(p);
    }
}

/* ---------- Three units: two chargers on one target ---------- */

/*
 * Two units of Riders (cavalry, 1 stand, Attacks 3, Hits 3, Armour 4+) charge
 * one unit of Spearmen (infantry, 2 stands, Attacks 3, Hits 3, no armour) in
 * the open, one spearman stand against each rider (Warmaster Revolution,
 * first round). Worked by hand:
 *   - each rider rolls 3 + 1 (charge) = 4 dice hitting on 4+, no save: the
 *     spearmen suffer H ~ Bin(8, 1/2) in all; they can absorb 6 (2 x 3), so
 *     side A's result is min(H, 6), and H >= 6 destroys them;
 *   - each spearman stand rolls 3 dice at 4+ against a 4+ save, p = 1/4:
 *     X1, X2 ~ Bin(3, 1/4) independent, each capped at its rider's 3 Hits
 *     (never reached above 3), so side B's result is X1 + X2, and a rider
 *     with 3 hits is destroyed;
 *   - side A loses outright only when both riders are destroyed (X1 = X2 =
 *     3), side B when H >= 6; both at once is a draw (A18); otherwise the
 *     higher result wins.
 * The losers' retreat: B alone, the whole difference; A's two units share
 * it: ceil(diff / 2) each, the divisor counting a rider destroyed in the
 * round (Revolution, Combat > Retreats).
 */
typedef struct three_law {
    double win[3]; /* P(A wins), P(B wins), P(draw) */
} three_law;

static three_law three_exact(void)
{
    three_law law = {{0, 0, 0}};
    for (unsigned h = 0; h <= 8; h++)
        for (unsigned x1 = 0; x1 <= 3; x1++)
            for (unsigned x2 = 0; x2 <= 3; x2++) {
                double p = gsl_ran_binomial_pdf(h, 0.5, 8) * gsl_ran_binomial_pdf(x1, 0.25, 3) *
                           gsl_ran_binomial_pdf(x2, 0.25, 3);
                bool a_lives = !(x1 == 3 && x2 == 3), b_lives = h < 6;
                unsigned ra = h < 6 ? h : 6, rb = x1 + x2;
                int w = !a_lives && !b_lives ? 2
                        : !a_lives            ? 1
                        : !b_lives            ? 0
                        : ra == rb            ? 2
                        : ra > rb             ? 0
                                              : 1;
                law.win[w] += p;
            }
    return law;
}

static void build_three(om_wm_multi *m, om_wm_side *riders, om_wm_side *spears, const char *rs)
{
    *riders = side_of("Riders", OM_WM_CAVALRY, 1, 3, 3, 4, NO_TRAITS);
    riders->charging = true;
    *spears = side_of("Spearmen", OM_WM_INFANTRY, 2, 3, 3, 0, NO_TRAITS);
    multi_begin(m, rs, OM_WM_SPAN_ROUND);
    add_unit(m, riders, OM_WM_SIDE_A);
    add_unit(m, riders, OM_WM_SIDE_A);
    add_unit(m, spears, OM_WM_SIDE_B);
    add_contact(m, 0, 2, 1, 0);
    add_contact(m, 1, 2, 1, 0);
    add_contact(m, 2, 0, 1, 0);
    add_contact(m, 2, 1, 1, 0);
}

Test(three_units, two_chargers_on_one_target_exact)
{
    om_wm_side riders, spears;
    om_wm_multi m;
    runner r;
    three_law law = three_exact();
    unsigned long win[4] = {0, 0, 0, 0}, a_retreats = 0;
    build_three(&m, &riders, &spears, "warmaster-revolution");
    runner_open(&r, &m, 101);
    for (unsigned i = 0; i < TRIALS; i++) {
        om_wm_multi_outcome o;
        unsigned ra, rb;
        runner_trial(&r, &o);
        expect_consistent(&m, &r, &o);
        win[o.sides.winner]++;
        ra = o.sides.result[0];
        rb = o.sides.result[1];
        /* Each side's result is its hits counted: A's on the spearmen up to
         * 6, B's on the riders. */
        cr_assert_eq(ra, o.unit[2].hits_on < 6 ? o.unit[2].hits_on : 6u);
        cr_assert_eq(rb, o.unit[0].hits_on + o.unit[1].hits_on);
        /* The losers' retreat, divided among the losing units. */
        if (o.sides.winner == OM_WM_SIDE_A && !o.unit[2].destroyed)
            cr_assert_eq(o.unit[2].retreated_cm, ra - rb);
        if (o.sides.winner == OM_WM_SIDE_B) {
            unsigned cm = (rb - ra + 1u) / 2u;
            cm = cm > 0 ? cm : 1u;
            for (unsigned u = 0; u < 2; u++)
                if (!o.unit[u].destroyed) {
                    cr_assert_eq(o.unit[u].retreated_cm, cm, "diff %u", rb - ra);
                    a_retreats++;
                }
        }
    }
    expect_p("P(A wins)", win[OM_WM_SIDE_A], TRIALS, law.win[0]);
    expect_p("P(B wins)", win[OM_WM_SIDE_B], TRIALS, law.win[1]);
    expect_p("P(draw)", win[OM_WM_DRAW], TRIALS, law.win[2]);
    cr_expect_gt(a_retreats, 100u);
    runner_close(&r);
}

/* ---------- The automatic loss (Revolution, Combat > Combat Results) ------ */

/*
 * Skirmishers (infantry, 1 stand, Attack 1, Hits 1, no armour), supported by
 * two stands of another unit, fight Ogres (1 stand, Attacks 4, Hits 4, no
 * armour), neither charging. Skirmishers' hits hA ~ Bin(1, 1/2); Ogres' hB ~
 * Bin(4, 1/2), counted up to the Skirmishers' 1 Hit; any hit destroys them
 * (P 15/16), but the supporting unit lives, so the side does not lose
 * outright:
 *   - Revolution and Ancients count supports before casualties: A's result
 *     hA + 2 >= 2 beats B's min(hB, 1) <= 1 every time: P(A wins) = 1 (the
 *     old rule, a wiped-out unit losing outright, gave P(B wins) = 15/16);
 *   - 1.1 counts supports after casualties, and a destroyed unit has none
 *     (A33): destroyed (15/16), hA against 1 draws on a hit (1/2) and loses
 *     otherwise; alive (1/16), hA + 2 > 0 wins: P(A) = 1/16, P(draw) = 15/32,
 *     P(B) = 15/32.
 * The supporting unit is modelled (a unit of the engagement, om_wm_multi) or
 * not (support_units of a two-unit engagement): the same law.
 */
static void supported_sides(om_wm_side *a, om_wm_side *b)
{
    *a = side_of("Skirmishers", OM_WM_INFANTRY, 1, 1, 1, 0, NO_TRAITS);
    *b = side_of("Ogres", OM_WM_INFANTRY, 1, 4, 4, 0, NO_TRAITS);
}

static void expect_supported_law(const char *rs, const unsigned long win[4], unsigned long n)
{
    if (strcmp(rs, "warmaster-1.1") == 0) {
        expect_p("1.1 P(A wins)", win[OM_WM_SIDE_A], n, 1.0 / 16.0);
        expect_p("1.1 P(draw)", win[OM_WM_DRAW], n, 15.0 / 32.0);
        expect_p("1.1 P(B wins)", win[OM_WM_SIDE_B], n, 15.0 / 32.0);
    } else {
        cr_expect_eq(win[OM_WM_SIDE_A], n, "%s: the supported side wins every round (%lu of %lu)",
                     rs, win[OM_WM_SIDE_A], n);
    }
}

Test(automatic_loss, only_when_every_unit_engaged_is_destroyed_two_units)
{
    const char *rs[] = {"warmaster-revolution", "warmaster-ancients", "warmaster-1.1"};
    for (size_t k = 0; k < 3; k++) {
        om_wm_side a, b;
        om_wm_prepared *p = NULL;
        om_dice d = {.plain = NULL};
        unsigned long win[4] = {0, 0, 0, 0}, wiped = 0;
        supported_sides(&a, &b);
        a.supports = 2;
        a.support_units = 1;
        om_wm_engagement e = make(rs[k], OM_WM_KIND_COMBAT, a, b);
        cr_assert_eq(om_wm_prepare_alloc(&e, &p), OM_OK, "%s", om_error_message());
        om_rng_seed_block(&d.rng, 61, k);
        for (unsigned i = 0; i < TRIALS; i++) {
            om_wm_outcome o;
            om_wm_resolve(p, &d, &o);
            win[o.round1_winner]++;
            wiped += o.destroyed[0];
            cr_assert_eq(o.winner, o.round1_winner);
        }
        expect_p("P(wiped out)", wiped, TRIALS, 15.0 / 16.0);
        expect_supported_law(rs[k], win, TRIALS);
        om_wm_prepared_free(p);
    }
}

Test(automatic_loss, only_when_every_unit_engaged_is_destroyed_modelled_supporter)
{
    const char *rs[] = {"warmaster-revolution", "warmaster-ancients", "warmaster-1.1"};
    for (size_t k = 0; k < 3; k++) {
        om_wm_side a, b, behind = side_of("Spearmen", OM_WM_INFANTRY, 2, 3, 3, 0, NO_TRAITS);
        om_wm_multi m;
        runner r;
        unsigned long win[4] = {0, 0, 0, 0};
        supported_sides(&a, &b);
        multi_begin(&m, rs[k], OM_WM_SPAN_ROUND);
        add_unit(&m, &a, OM_WM_SIDE_A);
        add_unit(&m, &behind, OM_WM_SIDE_A);
        add_unit(&m, &b, OM_WM_SIDE_B);
        add_contact(&m, 0, 2, 1, 0);
        add_contact(&m, 2, 0, 1, 0);
        add_support(&m, 1, 0, 2, 2);
        runner_open(&r, &m, 71 + k);
        for (unsigned i = 0; i < TRIALS; i++) {
            om_wm_multi_outcome o;
            runner_trial(&r, &o);
            expect_consistent(&m, &r, &o);
            win[o.sides.winner]++;
            /* The supporting unit shares the loss: it retreats with the
             * losers, by the difference divided between the two units
             * (Revolution, Combat > Retreats) in Revolution and Ancients,
             * whole in 1.1. */
            if (o.sides.winner == OM_WM_SIDE_B)
                cr_assert_gt(o.unit[1].retreated_cm, 0u);
        }
        expect_supported_law(rs[k], win, TRIALS);
        runner_close(&r);
    }
}

/* A side with every unit destroyed loses outright, and both such sides draw
 * (A18): riders that kill the spearmen while both die are a draw. */
Test(automatic_loss, whole_side_destroyed)
{
    om_wm_side riders, spears;
    om_wm_multi m;
    runner r;
    unsigned long seen = 0;
    build_three(&m, &riders, &spears, "warmaster-revolution");
    runner_open(&r, &m, 103);
    for (unsigned i = 0; i < TRIALS; i++) {
        om_wm_multi_outcome o;
        runner_trial(&r, &o);
        if (o.all_destroyed[0] || o.all_destroyed[1]) {
            int w = o.all_destroyed[0] && o.all_destroyed[1] ? OM_WM_DRAW
                    : o.all_destroyed[0]                     ? OM_WM_SIDE_B
                                                             : OM_WM_SIDE_A;
            cr_assert_eq(o.sides.winner, w);
            seen++;
        }
    }
    cr_expect_gt(seen, 1000u);
    runner_close(&r);
}

/* ---------- Rule sets: retreat divisors and supports ---------- */

/*
 * Swordsmen (infantry, 3 stands, Attacks 2, Hits 3, no armour) fight Ogres
 * that win most rounds; a second unit (Archers, 2 stands) supports the
 * Swordsmen from the side with 2 stands and touches no enemy. When the
 * Ogres win by d, each losing unit retreats ceil(d / units): Revolution and
 * Ancients count the supporting unit (2 units), 1.1 only the units engaged,
 * whose stands touch an enemy (D6/A10: 1 unit). The supports count in the
 * result: A's result is its hits counted plus 2.
 */
Test(rule_sets, retreat_divisor_and_supports)
{
    const char *rs[] = {"warmaster-revolution", "warmaster-ancients", "warmaster-1.1"};
    const unsigned divisor[] = {2, 2, 1};
    for (size_t k = 0; k < 3; k++) {
        om_wm_side sw = side_of("Swordsmen", OM_WM_INFANTRY, 3, 2, 3, 0, NO_TRAITS);
        om_wm_side ar = side_of("Archers", OM_WM_INFANTRY, 2, 1, 3, 0, NO_TRAITS);
        om_wm_side og = side_of("Ogres", OM_WM_INFANTRY, 3, 4, 4, 5, NO_TRAITS);
        om_wm_multi m;
        runner r;
        unsigned long checked = 0, split = 0;
        og.charging = true;
        multi_begin(&m, rs[k], OM_WM_SPAN_ROUND);
        add_unit(&m, &sw, OM_WM_SIDE_A);
        add_unit(&m, &ar, OM_WM_SIDE_A);
        add_unit(&m, &og, OM_WM_SIDE_B);
        add_contact(&m, 0, 2, 3, 0);
        add_contact(&m, 2, 0, 3, 0);
        add_support(&m, 1, 0, 2, 0);
        runner_open(&r, &m, 81 + k);
        for (unsigned i = 0; i < TRIALS / 4; i++) {
            om_wm_multi_outcome o;
            unsigned ra, rb, cm, counted;
            runner_trial(&r, &o);
            expect_consistent(&m, &r, &o);
            ra = o.sides.result[0];
            rb = o.sides.result[1];
            counted = o.unit[2].hits_on < 12 ? o.unit[2].hits_on : 12u;
            /* Supports from the side count in every rule set, before or after
             * the Swordsmen's casualties (the Archers lose none), unless the
             * Swordsmen are destroyed in 1.1 (A33). */
            cr_assert_eq(ra, counted + (k == 2 && o.unit[0].destroyed ? 0u : 2u), "%s", rs[k]);
            if (o.sides.winner != OM_WM_SIDE_B || o.unit[1].destroyed)
                continue;
            cm = (rb - ra + divisor[k] - 1u) / divisor[k];
            cm = cm > 0 ? cm : 1u;
            cr_assert_eq(o.unit[1].retreated_cm, cm, "%s: d %u", rs[k], rb - ra);
            if (!o.unit[0].destroyed)
                cr_assert_eq(o.unit[0].retreated_cm, cm, "%s: d %u", rs[k], rb - ra);
            checked++;
            split += (rb - ra + 1u) / 2u != rb - ra;
        }
        cr_expect_gt(checked, 1000u, "%s", rs[k]);
        cr_expect_gt(split, 100u, "%s: differences where the divisor matters", rs[k]);
        runner_close(&r);
    }
}

/* Confused units support in Ancients, not in Revolution (Revolution,
 * Confusion > Confused Units; Warmaster Ancients, Confusion > Confused
 * Units): the supporting unit is refused there by the check, and counts here.
 * Rear supports of a phalanx do not count (Warmaster Ancients, Combat >
 * Phalanx Supports). */
Test(rule_sets, confused_and_phalanx_supports)
{
    om_wm_side sw = side_of("Hoplites", OM_WM_INFANTRY, 3, 2, 3, 5, NO_TRAITS);
    om_wm_side ar = side_of("Peltasts", OM_WM_INFANTRY, 2, 1, 3, 0, NO_TRAITS);
    om_wm_side og = side_of("Warriors", OM_WM_INFANTRY, 3, 3, 3, 0, NO_TRAITS);
    om_wm_multi m;
    om_wm_check_failure why;
    runner r;
    ar.confused = true;
    multi_begin(&m, "warmaster-revolution", OM_WM_SPAN_ROUND);
    add_unit(&m, &sw, OM_WM_SIDE_A);
    add_unit(&m, &ar, OM_WM_SIDE_A);
    add_unit(&m, &og, OM_WM_SIDE_B);
    add_contact(&m, 0, 2, 3, 0);
    add_contact(&m, 2, 0, 3, 0);
    add_support(&m, 1, 0, 2, 1);
    cr_expect_eq(om_wm_multi_check(&m, &why), OM_EINVAL);
    cr_expect_str_eq(why.field, "support.0.unit");
    m.rules = rules("warmaster-ancients");
    sw.unit.traits = traits_of("phalanx", "warmaster-ancients");
    runner_open(&r, &m, 91);
    for (unsigned i = 0; i < 20000; i++) {
        om_wm_multi_outcome o;
        runner_trial(&r, &o);
        /* 2 supporting stands, 1 from behind a phalanx: 1 counts. */
        cr_assert_eq(o.sides.result[0], (o.unit[2].hits_on < 9 ? o.unit[2].hits_on : 9u) + 1u);
    }
    runner_close(&r);
}

/* ---------- Pursuit, unresolved combats ---------- */

/*
 * Knights charge Spearmen supported from behind by Bowmen, and are told to
 * pursue the Bowmen (a new enemy: a unit they did not fight, which retreats
 * with the losers). In the second round the Knights fight the Bowmen only:
 * the Bowmen suffer hits only in trials with a second round, the Spearmen
 * (not pursued, and supporting nobody) drop out of the combat and suffer no
 * more hits than in the first round's result.
 */
Test(pursuit, into_a_new_enemy)
{
    om_wm_side kn = side_of("Knights", OM_WM_CAVALRY, 3, 3, 3, 4, NO_TRAITS);
    om_wm_side sp = side_of("Spearmen", OM_WM_INFANTRY, 3, 3, 3, 6, NO_TRAITS);
    om_wm_side bw = side_of("Bowmen", OM_WM_INFANTRY, 3, 2, 3, 0, NO_TRAITS);
    om_wm_multi m;
    runner r;
    unsigned long second = 0, bowmen_hit = 0;
    kn.charging = true;
    multi_begin(&m, "warmaster-revolution", OM_WM_SPAN_PHASE);
    add_unit(&m, &kn, OM_WM_SIDE_A);
    add_unit(&m, &sp, OM_WM_SIDE_B);
    add_unit(&m, &bw, OM_WM_SIDE_B);
    add_contact(&m, 0, 1, 3, 0);
    add_contact(&m, 1, 0, 3, 0);
    add_support(&m, 2, 1, 3, 3);
    m.unit[0].pursues = 2;
    runner_open(&r, &m, 111);
    for (unsigned i = 0; i < TRIALS / 4; i++) {
        om_wm_multi_outcome o;
        runner_trial(&r, &o);
        expect_consistent(&m, &r, &o);
        if (o.sides.rounds == 1) {
            cr_assert_eq(o.unit[2].hits_on, 0u);
            continue;
        }
        second++;
        bowmen_hit += o.unit[2].hits_on > 0;
        cr_assert_geq(o.unit[0].pursued, 1u);
        if (o.unresolved) {
            /* Unresolved after the second round, which the Knights won and
             * pursued: they face the Bowmen and keep their pursuit bonus (at
             * least +1) for the next turn; the Spearmen dropped out. */
            cr_assert_eq(o.unit[0].pursued, 2u);
            cr_assert(o.unit[0].engaged && o.unit[0].foe == 2);
            cr_assert(o.unit[2].engaged && o.unit[2].foe == 0);
            cr_assert(!o.unit[1].engaged);
            cr_assert_geq(r.state[0].pursuit, 1u);
            cr_assert(r.state[2].retreated);
        }
    }
    cr_expect_gt(second, 1000u);
    cr_expect_gt(bowmen_hit, 100u);
    runner_close(&r);
}

/*
 * An unresolved combat is carried to the next turn (Revolution, Combat >
 * Unresolved Combat): a call of span phase stops after the second round won
 * and pursued, with the winner none, the units engaged, the pursuer's bonus
 * and the loser's retreat in their states; the caller's next turn calls again
 * with the rounds fought, and the pursuit bonus counts in its first round:
 * Knights (3 stands, Attacks 3) pursuing after a retreat of d cm roll
 * 3 x (3 + 1 + d/3) dice, which the Spearmen's hits (each die hits on 4+,
 * saved on 6+: 5/12) show on average:
 * E[hits in round 3] = 3 (4 + floor(d/3)) x 5/12, the round's own numbers
 * recorded against the state's bonus trial by trial.
 */
Test(unresolved, carried_to_the_next_turn)
{
    om_wm_side kn = side_of("Knights", OM_WM_CAVALRY, 3, 3, 3, 4, NO_TRAITS);
    om_wm_side sp = side_of("Spearmen", OM_WM_INFANTRY, 3, 3, 3, 6, NO_TRAITS);
    om_wm_multi m;
    runner r;
    unsigned long carried = 0;
    double expected = 0, seen = 0;
    kn.charging = true;
    sp.unit.hits = 6; /* the Spearmen last three rounds */
    multi_begin(&m, "warmaster-revolution", OM_WM_SPAN_PHASE);
    add_unit(&m, &kn, OM_WM_SIDE_A);
    add_unit(&m, &sp, OM_WM_SIDE_B);
    add_contact(&m, 0, 1, 3, 0);
    add_contact(&m, 1, 0, 3, 0);
    runner_open(&r, &m, 121);
    for (unsigned i = 0; i < TRIALS / 4; i++) {
        om_wm_multi_outcome o;
        unsigned bonus, before;
        runner_trial(&r, &o);
        expect_consistent(&m, &r, &o);
        if (!o.unresolved)
            continue;
        cr_assert_eq(o.sides.winner, OM_WM_NO_CONTEST);
        cr_assert_eq(o.sides.rounds, 2u);
        bonus = r.state[0].pursuit;
        cr_assert_geq(bonus, 1u);
        cr_assert_eq(r.state[1].pursuit, 0u);
        /* The next turn: no charge, the rounds fought so far, the states as
         * the call left them (the caller's Command phase would recover the
         * Spearmen from confusion; here they were not confused). */
        if (r.state[0].confused || r.state[0].stands < 3)
            continue;
        {
            om_wm_multi next = m;
            om_wm_side kn2 = kn;
            om_wm_multi_outcome o2;
            om_wm_check_failure why;
            om_wm_multi_prepared *mp2 = NULL;
            kn2.charging = false;
            next.unit[0].side = &kn2;
            next.rounds_before = 2;
            next.turn = 2;
            next.span = OM_WM_SPAN_ROUND;
            cr_assert_eq(om_wm_multi_prepared_alloc(&mp2), OM_OK);
            cr_assert_eq(om_wm_multi_prepare(r.kit, &next, mp2, &why), OM_OK, "%s", why.reason);
            before = r.state[1].carried;
            om_wm_multi_resolve(mp2, &r.d, r.ptr, &o2);
            om_wm_multi_prepared_free(mp2);
            cr_assert_eq(o2.sides.rounds, 1u);
            cr_assert_eq(o2.sides.turns, 1u);
            expected += 3.0 * (3.0 + bonus) * 5.0 / 12.0;
            seen += o2.unit[1].hits_on;
            carried++;
            (void)before;
        }
    }
    cr_assert_gt(carried, 2000u);
    /* Bin(n, 5/12) per trial: variance n x 5/12 x 7/12 summed. */
    {
        double var = expected * 7.0 / 12.0;
        cr_expect(fabs(seen - expected) <= SIGMAS * sqrt(var), "hits %.0f vs %.1f (5 se %.1f)",
                  seen, expected, SIGMAS * sqrt(var));
    }
    runner_close(&r);
}

/* ---------- End states (volleys and combats) ---------- */

/* A volley's target driven off the table is routed or destroyed, never
 * confused, and its drive back records OM_WM_LEFT_TABLE_CM; a unit still on
 * the table records its roll. Bowmen (8 stands, 2 shots) at Spearmen with the
 * table edge 2cm behind them. */
Test(end_states, routed_never_confused)
{
    om_wm_side a = side_of("Bowmen", OM_WM_INFANTRY, 8, 2, 3, 0, NO_TRAITS);
    om_wm_side b = side_of("Spearmen", OM_WM_INFANTRY, 3, 3, 3, 0, NO_TRAITS);
    om_wm_prepared *p = NULL;
    om_dice d = {.plain = NULL};
    unsigned long routed = 0, off = 0, stayed_confused = 0;
    a.unit.shots = 2;
    a.unit.range_cm = 30;
    b.behind = OM_WM_BEHIND_TABLE_EDGE;
    b.behind_cm = 2;
    om_wm_engagement e = make("warmaster-revolution", OM_WM_KIND_VOLLEY, a, b);
    cr_assert_eq(om_wm_prepare_alloc(&e, &p), OM_OK, "%s", om_error_message());
    om_rng_seed_block(&d.rng, 131, 0);
    for (unsigned i = 0; i < TRIALS / 4; i++) {
        om_wm_outcome o;
        om_wm_resolve(p, &d, &o);
        cr_assert(!(o.destroyed[1] && o.confused[1]), "a removed unit is not confused");
        cr_assert(!o.routed[1] || o.destroyed[1]);
        if (o.routed[1] || (o.destroyed[1] && o.drive_back_cm > 0)) {
            cr_assert_eq(o.drive_back_cm, OM_WM_LEFT_TABLE_CM);
            routed += o.routed[1];
            off += !o.routed[1];
        } else {
            cr_assert_leq(o.drive_back_cm, om_wm_troop_pace(OM_WM_INFANTRY));
            stayed_confused += o.confused[1];
        }
    }
    cr_expect_gt(routed, 100u);
    cr_expect_gt(off, 100u);
    cr_expect_gt(stayed_confused, 100u);
    om_wm_prepared_free(p);
}

/* ---------- om_wm_multi_check: every error, with its field ---------- */

/* A valid engagement of four units to break one way per case: A's Riders (0)
 * and Swordsmen (1) against B's Spearmen (2) supported by Bowmen (3). */
typedef struct check_case {
    const char *field;  /* the dotted path expected */
    const char *reason; /* words the reason holds */
} check_case;

typedef struct check_fixture {
    om_wm_side riders, swords, spears, bows;
    om_wm_multi m;
} check_fixture;

static void fixture(check_fixture *x)
{
    x->riders = side_of("Riders", OM_WM_CAVALRY, 3, 3, 3, 4, NO_TRAITS);
    x->riders.charging = true;
    x->swords = side_of("Swordsmen", OM_WM_INFANTRY, 3, 3, 3, 5, NO_TRAITS);
    x->swords.charging = true;
    x->spears = side_of("Spearmen", OM_WM_INFANTRY, 3, 3, 3, 6, NO_TRAITS);
    x->bows = side_of("Bowmen", OM_WM_INFANTRY, 3, 2, 3, 0, NO_TRAITS);
    multi_begin(&x->m, "warmaster-revolution", OM_WM_SPAN_PHASE);
    add_unit(&x->m, &x->riders, OM_WM_SIDE_A);
    add_unit(&x->m, &x->swords, OM_WM_SIDE_A);
    add_unit(&x->m, &x->spears, OM_WM_SIDE_B);
    add_unit(&x->m, &x->bows, OM_WM_SIDE_B);
    add_contact(&x->m, 0, 2, 2, 0);
    add_contact(&x->m, 1, 2, 1, 1);
    add_contact(&x->m, 2, 0, 2, 0);
    add_contact(&x->m, 2, 1, 1, 0);
    add_support(&x->m, 3, 2, 2, 2);
}

/* Break the fixture the way case k says; returns the expected failure. */
static check_case break_case(check_fixture *x, unsigned k)
{
    om_wm_multi *m = &x->m;
    switch (k) {
    case 0: m->rules = NULL; return (check_case){"ruleset", "no rule set"};
    case 1: m->span = OM_WM_SPAN_COUNT; return (check_case){"span", "round, phase or end"};
    case 2: m->options.max_turns = 101; return (check_case){"options.max_turns", "0 (the default"};
    case 3: m->n_units = 1; return (check_case){"units", "2 to 128 units"};
    case 4: m->n_contacts = 0; return (check_case){"contacts", "1 to 1536 contacts"};
    case 5:
        m->n_supports = OM_WM_SUPPORTS_MAX + 1;
        return (check_case){"supports", "0 to 1536 support links"};
    case 6: m->unit[1].side = NULL; return (check_case){"unit.1.side", "no side given"};
    case 7: m->unit[1].army = 2; return (check_case){"unit.1.army", "side A (0) or B (1)"};
    case 8: /* a whole engagement of side B: more than all but one */
        for (unsigned u = 0; u < m->n_units; u++)
            m->unit[u].army = OM_WM_SIDE_B;
        while (m->n_units < OM_WM_UNITS_MAX)
            add_unit(m, &x->bows, OM_WM_SIDE_B);
        return (check_case){"unit.127.army", "more than 127 units"};
    case 9:
        m->unit[2].army = OM_WM_SIDE_A;
        m->unit[3].army = OM_WM_SIDE_A;
        return (check_case){"units", "side B has no unit"};
    case 10: m->rounds_before = 201; return (check_case){"rounds_before", "0 to 200"};
    case 11: m->turn = 101; return (check_case){"turn", "0 to 100"};
    case 12: m->contact[1].unit = 7; return (check_case){"contact.1.unit", "not in the engagement"};
    case 13: m->contact[1].enemy = 9; return (check_case){"contact.1.enemy", "not in the engagement"};
    case 14: m->contact[1].enemy = 0; return (check_case){"contact.1.enemy", "is a friend"};
    case 15: m->contact[1].unit = 0; return (check_case){"contact.1.enemy", "already fights"};
    case 16: m->contact[1].stands = 0; return (check_case){"contact.1.stands", "1 to 12"};
    case 17: m->contact[0].flanked = 3; return (check_case){"contact.0.flanked", "0 to 2"};
    case 18: m->contact[0].side_strikers = 1; return (check_case){"contact.0.side_strikers", "0 to 0"};
    case 19: m->contact[3].stands = 2; return (check_case){"contact.3.stands", "fights with 4 stands"};
    case 20:
        x->spears.position = OM_WM_FORTIFIED;
        return (check_case){"contact.0.enemy", "infantry and flyers can charge fortified"};
    case 21: m->support[0].unit = 5; return (check_case){"support.0.unit", "not in the engagement"};
    case 22: m->support[0].supported = 5;
        return (check_case){"support.0.supported", "not in the engagement"};
    case 23: m->support[0].supported = 3; return (check_case){"support.0.supported", "its own stands"};
    case 24: m->support[0].supported = 0; return (check_case){"support.0.supported", "an enemy"};
    case 25:
        add_support(m, 3, 2, 1, 0);
        return (check_case){"support.1.supported", "already supports"};
    case 26:
        m->support[0].unit = 2;
        m->support[0].supported = 3;
        return (check_case){"support.0.supported", "does not fight"};
    case 27: m->support[0].stands = 0; return (check_case){"support.0.stands", "1 to 12"};
    case 28: m->support[0].rear = 3; return (check_case){"support.0.rear", "0 to 2"};
    case 29: x->bows.unit.troop = OM_WM_CAVALRY;
        return (check_case){"support.0.unit", "only infantry supports"};
    case 30: x->bows.unit.traits.no_support = true;
        return (check_case){"support.0.unit", "neither support nor be supported"};
    case 31: x->bows.confused = true; return (check_case){"support.0.unit", "is confused"};
    case 32:
        m->support[0].stands = 3;
        add_contact(m, 3, 1, 1, 0);
        return (check_case){"support.0.stands", "3 stands, but 1 fight"};
    case 33:
        m->n_supports = 0;
        return (check_case){"unit.3", "takes no part"};
    case 34: m->unit[0].pursues = 1; return (check_case){"unit.0.pursues", "an enemy unit"};
    case 35:
        x->bows.supports = 1;
        return (check_case){"unit.3.supports", "none fight"};
    case 36:
        x->spears.unit.shots = 1;
        x->spears.unit.range_cm = 30;
        x->spears.shoots_first = true;
        return (check_case){"unit.2.shoots_first", "one unit a side"};
    case 37: x->bows.unit.hits = 0; return (check_case){"unit.3.unit.hits", "1 to 12"};
    case 38:
        x->bows.charging = true;
        return (check_case){"unit.3.charging", "both sides cannot charge"};
    default: return (check_case){NULL, NULL};
    }
}

Test(check, every_error_names_its_field)
{
    check_fixture x;
    om_wm_check_failure why;
    fixture(&x);
    cr_assert_eq(om_wm_multi_check(&x.m, &why), OM_OK, "the fixture: %s: %s", why.field,
                 why.reason);
    for (unsigned k = 0;; k++) {
        check_case c;
        fixture(&x);
        c = break_case(&x, k);
        if (c.field == NULL)
            break;
        memset(&why, 0, sizeof why);
        cr_expect_eq(om_wm_multi_check(&x.m, &why), OM_EINVAL, "case %u (%s) passed", k, c.field);
        cr_expect_str_eq(why.field, c.field, "case %u: %s", k, why.reason);
        cr_expect(strstr(why.reason, c.reason) != NULL, "case %u: '%s' lacks '%s'", k,
                  why.reason, c.reason);
    }
    /* A volley is no engagement of units in contact. */
    {
        om_wm_engagement e = make("warmaster-revolution", OM_WM_KIND_VOLLEY, x.bows, x.spears);
        cr_expect_eq(om_wm_multi_of_engagement(&e, &x.m), OM_EINVAL);
    }
}

/* ---------- The first round's table carries the whole trial ---------- */

/* Counts of a two-sided outcome that the law comparison below reads. */
typedef struct law_counts {
    unsigned long n, win[4], confused_b, destroyed_b, retreat_cm;
} law_counts;

static void count_law(law_counts *c, const om_wm_outcome *o)
{
    c->n++;
    c->win[o->winner]++;
    c->confused_b += o->confused[1];
    c->destroyed_b += o->destroyed[1];
    c->retreat_cm += o->retreat_cm;
}

/* Whether two estimates of one probability agree within 5 standard errors
 * of their difference. */
static void expect_same_p(const char *what, unsigned long x, unsigned long nx, unsigned long y,
                          unsigned long ny)
{
    double px = (double)x / (double)nx, py = (double)y / (double)ny, p = (double)(x + y) /
                                                                         (double)(nx + ny);
    double se = sqrt(fmax(p * (1 - p), 1e-12) * (1.0 / (double)nx + 1.0 / (double)ny));
    cr_expect(fabs(px - py) <= SIGMAS * se + 1e-12, "%s: %.5f vs %.5f (5 se = %.5f)", what, px,
              py, SIGMAS * se);
}

/* A first-round engagement (kind combat) drawn from its table, with what
 * follows the round looked up or, for a retreat into friends 3cm behind
 * (a die for confusion when the loser retreats beyond them), rolled on from
 * the entry, has the law of the same engagement fought die by die by the
 * engine of several units (no table). */
Test(first_round_table, whole_trial_has_the_law_of_the_rolled_fight)
{
    om_wm_side kn = side_of("Knights", OM_WM_CAVALRY, 3, 3, 3, 4, NO_TRAITS);
    om_wm_side sp = side_of("Spearmen", OM_WM_INFANTRY, 3, 3, 3, 6, NO_TRAITS);
    om_wm_prepared *p = NULL;
    om_wm_multi m;
    runner r;
    om_dice d = {.plain = NULL};
    law_counts table = {0}, rolled = {0};
    kn.charging = true;
    sp.behind = OM_WM_BEHIND_FRIENDS;
    sp.behind_cm = 3;
    om_wm_engagement e = make("warmaster-revolution", OM_WM_KIND_COMBAT, kn, sp);
    cr_assert_eq(om_wm_prepare_alloc(&e, &p), OM_OK, "%s", om_error_message());
    cr_assert_not_null(p->round1, "the first round is tabulated");
    cr_assert_eq(om_wm_multi_of_engagement(&e, &m), OM_OK);
    runner_open(&r, &m, 141);
    om_rng_seed_block(&d.rng, 143, 0);
    for (unsigned i = 0; i < TRIALS; i++) {
        om_wm_outcome o;
        om_wm_multi_outcome mo;
        om_wm_resolve(p, &d, &o);
        count_law(&table, &o);
        runner_trial(&r, &mo);
        count_law(&rolled, &mo.sides);
    }
    for (int w = 0; w < 3; w++)
        expect_same_p("P(winner)", table.win[w], table.n, rolled.win[w], rolled.n);
    expect_same_p("P(B confused)", table.confused_b, table.n, rolled.confused_b, rolled.n);
    expect_same_p("P(B destroyed)", table.destroyed_b, table.n, rolled.destroyed_b, rolled.n);
    cr_expect_gt(table.confused_b, 1000u, "retreats into the friends roll their die");
    runner_close(&r);
    om_wm_prepared_free(p);
}
