/*
 * test_whfb7_engagement.c: whole engagements of the WHFB 7th edition engine,
 * round after round until a unit breaks, is destroyed or the round limit
 * (WHFB 7th edition, Close Combat > How to Resolve Combats; Redress the
 * Ranks; Flee & Pursue; Psychology > Panic).
 *
 * The exact values come from a Markov chain written here over (models of A,
 * models of B, last round's winner): each round the first striker's kills are
 * binomial, the second strikes with what is left in contact, ranks count at
 * the start of the round and outnumbering after the blows, the loser holds or
 * breaks on 2D6, a broken unit is caught when the pursuit roll reaches its
 * flee roll, ties of Initiative go to last round's winner or a roll-off.
 * Monte Carlo runs in both dice modes at 5 standard errors.
 */
#include "test_whfb7.h"
#include "wh7_int.h"

#define MAXM 32

typedef struct mk_unit {
    unsigned models, files, contact;
    double p;             /* P(unsaved wound) per attack (one attack, one Wound) */
    unsigned ld, us, flee_dice, initiative;
    bool charging;
} mk_unit;

typedef struct mk_result {
    double win[3], destroyed[2], broke[2], rounds, rounds_sq;
} mk_result;

static unsigned mk_ranks(unsigned models, unsigned files)
{
    unsigned r;
    if (files < 5 || models < files)
        return 0;
    r = (models - files) / files + ((models - files) % files >= 5);
    return r > 3 ? 3 : r;
}

static double mk_hold(unsigned ld, unsigned diff)
{
    double p = 1.0 / 36.0;
    for (unsigned r = 3; r <= 12; r++)
        if (r + diff <= ld)
            p += nd6_pmf(2, r);
    return p;
}

/* One round from (alive[0], alive[1]) with `first` striking first: adds the
 * mass of every ending to r and of every continuation to next[][][]. */
static void mk_round(const mk_unit u[2], const unsigned alive[2], int first, double mass,
                     unsigned round, mk_result *r, double next[MAXM + 1][MAXM + 1][3])
{
    int second = 1 - first;
    unsigned f1 = u[first].contact < alive[first] ? u[first].contact : alive[first];
    for (unsigned k = 0; k <= f1; k++) {
        double pk = mass * binom_pmf(k, f1, u[first].p);
        unsigned kills1 = k < alive[second] ? k : alive[second];
        unsigned c2 = u[second].contact < alive[second] ? u[second].contact : alive[second];
        unsigned f2 = c2 > kills1 ? c2 - kills1 : 0;
        for (unsigned l = 0; l <= f2; l++) {
            double pl = pk * binom_pmf(l, f2, u[second].p);
            unsigned left[2], score[2];
            int winner;
            left[first] = alive[first] - (l < alive[first] ? l : alive[first]);
            left[second] = alive[second] - kills1;
            for (int s = 0; s < 2; s++)
                score[s] = (alive[1 - s] - left[1 - s]) + mk_ranks(alive[s], u[s].files);
            for (int s = 0; s < 2; s++)
                score[s] += left[s] * u[s].us > left[1 - s] * u[1 - s].us;
            if (left[0] == 0 || left[1] == 0) {
                winner = left[0] == 0 && left[1] == 0 ? 2 : left[0] == 0 ? 1 : 0;
                r->win[winner] += pl;
                for (int s = 0; s < 2; s++)
                    if (left[s] == 0)
                        r->destroyed[s] += pl;
                r->rounds += pl * round;
                r->rounds_sq += pl * round * round;
                continue;
            }
            winner = score[0] > score[1] ? 0 : score[1] > score[0] ? 1 : 2;
            if (winner == 2) {
                next[left[0]][left[1]][2] += pl;
                continue;
            }
            {
                int loser = 1 - winner;
                double hold = mk_hold(u[loser].ld, score[winner] - score[loser]);
                double brk = pl * (1.0 - hold);
                r->broke[loser] += brk;
                r->win[winner] += brk;
                r->destroyed[loser] += brk * catch_probability(u[winner].flee_dice,
                                                               u[loser].flee_dice);
                r->rounds += brk * round;
                r->rounds_sq += brk * round * round;
                next[left[0]][left[1]][winner] += pl * hold;
            }
        }
    }
}

/* The whole engagement to `max_rounds`: unresolved mass at the end is a draw. */
static mk_result mk_engagement(const mk_unit u[2], unsigned max_rounds)
{
    static double cur[MAXM + 1][MAXM + 1][3], next[MAXM + 1][MAXM + 1][3];
    mk_result r;
    memset(&r, 0, sizeof r);
    memset(cur, 0, sizeof cur);
    cur[u[0].models][u[1].models][2] = 1.0;
    for (unsigned round = 1; round <= max_rounds; round++) {
        memset(next, 0, sizeof next);
        for (unsigned a = 1; a <= u[0].models; a++)
            for (unsigned b = 1; b <= u[1].models; b++)
                for (int last = 0; last < 3; last++) {
                    double m = cur[a][b][last];
                    unsigned alive[2] = {a, b};
                    int first;
                    if (m == 0.0)
                        continue;
                    if (round == 1 && (u[0].charging || u[1].charging))
                        first = u[0].charging ? 0 : 1;
                    else if (u[0].initiative != u[1].initiative)
                        first = u[0].initiative > u[1].initiative ? 0 : 1;
                    else if (last < 2)
                        first = last;
                    else {
                        mk_round(u, alive, 0, m / 2, round, &r, next);
                        mk_round(u, alive, 1, m / 2, round, &r, next);
                        continue;
                    }
                    mk_round(u, alive, first, m, round, &r, next);
                }
        memcpy(cur, next, sizeof cur);
    }
    for (unsigned a = 0; a <= u[0].models; a++)
        for (unsigned b = 0; b <= u[1].models; b++)
            for (int last = 0; last < 3; last++) {
                r.win[2] += cur[a][b][last];
                r.rounds += cur[a][b][last] * max_rounds;
                r.rounds_sq += cur[a][b][last] * max_rounds * max_rounds;
            }
    return r;
}

static void expect_engagement(const tally *t, const mk_result *x, const char *what)
{
    char buf[128];
    for (int w = 0; w < 3; w++) {
        snprintf(buf, sizeof buf, "%s: winner %d", what, w);
        expect_frequency(t->winner[w], t->n, x->win[w], buf);
    }
    for (int s = 0; s < 2; s++) {
        snprintf(buf, sizeof buf, "%s: side %d broke", what, s);
        expect_frequency(t->broke[s], t->n, x->broke[s], buf);
        snprintf(buf, sizeof buf, "%s: side %d destroyed", what, s);
        expect_frequency(t->destroyed[s], t->n, x->destroyed[s], buf);
    }
    snprintf(buf, sizeof buf, "%s: rounds", what);
    expect_mean(t->rounds, t->n, x->rounds, x->rounds_sq - x->rounds * x->rounds, buf);
}

/* 20 Swordsmen (hand weapon, shield, light armour) charge 20 Orc Boyz (hand
 * weapon, shield): five wide, four ranks each, to a break or 6 rounds. */
static om_wh7_combat swordsmen_orcs(void)
{
    om_wh7_side a = side_of(unit_of(OM_WH7_INFANTRY, SWORDSMAN, 20, 5));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, ORC_BOY, 20, 5));
    a.unit.equipment.shield = true;
    a.unit.equipment.armour = OM_WH7_ARMOUR_LIGHT;
    b.unit.equipment.shield = true;
    a.charging = true;
    return combat_of(OM_WH7_KIND_ENGAGEMENT, a, b);
}

static void swordsmen_orcs_markov(mk_unit u[2])
{
    /* Swordsmen: 3+ to hit, 5+ to wound, Orcs save 5+ (shield 6+, parry
     * +1): 4/6 * 2/6 * 4/6. Orcs: 4+, 4+, Swordsmen save 4+: 1/8. */
    u[0] = (mk_unit){20, 5, 5, 4.0 / 6 * 2.0 / 6 * 4.0 / 6, 7, 1, 2, 4, true};
    u[1] = (mk_unit){20, 5, 5, 1.0 / 8, 7, 1, 2, 2, false};
}

Test(whfb7_engagement, to_the_end_against_markov_chain, .timeout = 120)
{
    om_wh7_combat c = swordsmen_orcs();
    om_wh7_prepared *p = prepare_or_die(&c);
    mk_unit u[2];
    mk_result x;
    tally t;
    swordsmen_orcs_markov(u);
    x = mk_engagement(u, 6);
    t = run_trials(p, TRIALS, false, NULL, NULL);
    expect_engagement(&t, &x, "fast");
    t = run_trials(p, PLAIN_TRIALS, true, NULL, NULL);
    expect_engagement(&t, &x, "plain");
    om_wh7_prepared_free(p);
}

Test(whfb7_engagement, equal_initiative_and_last_winner, .timeout = 120)
{
    /* Orcs against Orcs (I2 both), nobody charging: the first round is a
     * roll-off, later rounds go to the previous round's winner (Who Strikes
     * First?). Side B is 6 wide so the sides differ. */
    om_wh7_side a = side_of(unit_of(OM_WH7_INFANTRY, ORC_BOY, 15, 5));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, GOBLIN, 18, 6));
    om_wh7_combat c = combat_of(OM_WH7_KIND_ENGAGEMENT, a, b);
    om_wh7_prepared *p = prepare_or_die(&c);
    mk_unit u[2] = {{15, 5, 5, 4.0 / 6 * 3.0 / 6, 7, 1, 2, 2, false},
                    {18, 6, 6, 3.0 / 6 * 2.0 / 6, 6, 1, 2, 2, false}};
    mk_result x = mk_engagement(u, 6);
    tally t = run_trials(p, TRIALS, false, NULL, NULL);
    expect_engagement(&t, &x, "roll-offs");
    om_wh7_prepared_free(p);
}

Test(whfb7_engagement, round_limit_is_a_draw)
{
    /* Nobody can wound (S1 against T5) and the units are alike: every round
     * is a draw, so the engagement lasts the limit and ends a draw. */
    om_wh7_profile weak = prof("Weakling", 4, 3, 3, 1, 5, 1, 3, 1, 7);
    om_wh7_combat c = combat_of(OM_WH7_KIND_ENGAGEMENT,
                                side_of(unit_of(OM_WH7_INFANTRY, weak, 10, 5)),
                                side_of(unit_of(OM_WH7_INFANTRY, weak, 10, 5)));
    om_wh7_prepared *p;
    tally t;
    c.options.max_rounds = 4;
    p = prepare_or_die(&c);
    t = run_trials(p, 1000, false, NULL, NULL);
    cr_expect_eq(t.winner[OM_WH7_DRAW], 1000u);
    cr_expect_float_eq(t.rounds, 4000.0, EXACT);
    om_wh7_prepared_free(p);
    /* The default limit is 6 rounds. */
    c.options.max_rounds = 0;
    p = prepare_or_die(&c);
    t = run_trials(p, 100, false, NULL, NULL);
    cr_expect_float_eq(t.rounds, 600.0, EXACT);
    om_wh7_prepared_free(p);
}

Test(whfb7_engagement, friends_panic_when_a_unit_breaks, .timeout = 60)
{
    /* Psychology > Panic, case 3: a friendly unit of unit strength 5 or more
     * breaking within 6" makes the friend test. A loses by 5 (nobody can
     * wound; B has 3 ranks, a standard and outnumbers). */
    om_wh7_profile weak = prof("Weakling", 4, 3, 3, 1, 5, 1, 3, 1, 7);
    om_wh7_side a = side_of(unit_of(OM_WH7_INFANTRY, weak, 5, 5));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, weak, 20, 5));
    om_wh7_combat c;
    om_wh7_prepared *p;
    tally t;
    b.unit.standard = true;
    a.friend_ld = 6;
    c = combat_of(OM_WH7_KIND_COMBAT, a, b);
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    expect_frequency(t.friend_panicked[0], t.n, 35.0 / 36 * (1 - ld_pass(6)), "friend panics");
    cr_expect_eq(t.friend_panicked[1], 0u);
    om_wh7_prepared_free(p);
    /* Below unit strength 5 the break causes no panic. */
    c.side[0].unit.models = 4;
    c.side[0].unit.files = 4;
    p = prepare_or_die(&c);
    t = run_trials(p, 10000, false, NULL, NULL);
    cr_expect_gt(t.broke[0], 9000u);
    cr_expect_eq(t.friend_panicked[0], 0u);
    om_wh7_prepared_free(p);
}

/* The probability an alias table realises for outcome j: slot i is chosen
 * with probability 1/n and keeps i below cut (cut of 2^32), else its alias. */
static double realised(const om_alias *a, unsigned j)
{
    double p = 0;
    for (unsigned i = 0; i < a->n; i++) {
        double keep = a->slot[i].cut == UINT32_MAX && a->slot[i].alias == i
                          ? 1.0 : a->slot[i].cut * 0x1p-32;
        if (i == j)
            p += keep / a->n;
        if (a->slot[i].alias == j && !(a->slot[i].cut == UINT32_MAX && a->slot[i].alias == i))
            p += (1.0 - keep) / a->n;
    }
    return p;
}

Test(whfb7_engagement, round_table_entry_exact)
{
    /* Swordsmen charge Orcs (no command): the first round's table for 5
     * fighters each is Bin(5, pa) kills on the Orcs, then Bin(5 - kb, pb)
     * kills on the Swordsmen, written here from the rules. */
    om_wh7_combat c = swordsmen_orcs();
    om_wh7_prepared *p = prepare_or_die(&c);
    const wh7_round_table *rt = &p->rounds;
    const wh7_rt_entry *en;
    double pa = 4.0 / 6 * 2.0 / 6 * 4.0 / 6, pb = 1.0 / 8, total = 0;
    cr_assert(rt->present, "the combat is tabulated");
    en = &rt->entry[wh7_rt_index(rt, WH7_RT_FIRST, 0, 0, 5, 5)];
    cr_assert_not_null(en->alias);
    cr_assert_eq(en->kmax[0], 5u);
    cr_assert_eq(en->kmax[1], 5u);
    for (unsigned ka = 0; ka <= 5; ka++)
        for (unsigned kb = 0; kb <= 5; kb++) {
            double exact = binom_pmf(kb, 5, pa) * binom_pmf(ka, 5 - kb, pb);
            double got = realised(en->alias, ka * 6 + kb);
            cr_expect(fabs(got - exact) < 1e-8, "(%u, %u): %g vs %g", ka, kb, got, exact);
            total += got;
        }
    cr_expect(fabs(total - 1) < 1e-9);
    /* Later rounds: the Swordsmen (I4) first, no charge. */
    en = &rt->entry[wh7_rt_index(rt, WH7_RT_LATER, 0, 0, 3, 5)];
    for (unsigned kb = 0; kb <= 3; kb++)
        for (unsigned ka = 0; ka <= 5; ka++)
            cr_expect(fabs(realised(en->alias, ka * 4 + kb) -
                           binom_pmf(kb, 3, pa) * binom_pmf(ka, 5 - kb, pb)) < 1e-8);
    om_wh7_prepared_free(p);
}

Test(whfb7_engagement, round_tables_agree_with_part_by_part, .timeout = 120)
{
    /* The benchmark's combat (full command groups): the tabulated rounds and
     * the part-by-part draws (tables removed) give the same distribution
     * (two-sample comparison at 5 standard errors). */
    om_wh7_combat c = swordsmen_orcs();
    om_wh7_prepared *p, *q;
    tally a, b;
    for (int s = 0; s < 2; s++)
        c.side[s].unit.champion = c.side[s].unit.standard = c.side[s].unit.musician = true;
    p = prepare_or_die(&c);
    q = prepare_or_die(&c);
    cr_assert(p->rounds.present);
    om_wh7_rounds_release(q);
    cr_assert(!q->rounds.present);
    a = run_trials(p, TRIALS, false, NULL, NULL);
    b = run_trials(q, TRIALS, false, NULL, NULL);
    for (int w = 0; w < 3; w++) {
        double pa = (double)a.winner[w] / a.n, pb = (double)b.winner[w] / b.n, pp = (pa + pb) / 2;
        double se = sqrt(pp * (1 - pp) * (1.0 / a.n + 1.0 / b.n));
        cr_expect(fabs(pa - pb) <= SIGMAS * se + EXACT, "winner %d: %g vs %g", w, pa, pb);
    }
    {
        double ma = a.slain[1] / a.n, mb = b.slain[1] / b.n;
        double va = a.slain_sq[1] / a.n - ma * ma, vb = b.slain_sq[1] / b.n - mb * mb;
        cr_expect(fabs(ma - mb) <= SIGMAS * sqrt(va / a.n + vb / b.n), "slain %g vs %g", ma, mb);
    }
    om_wh7_prepared_free(p);
    om_wh7_prepared_free(q);
}

Test(whfb7_engagement, round_tables_only_where_they_apply)
{
    /* A character or a challenge of champions keeps the combat untabulated. */
    om_wh7_combat c = swordsmen_orcs();
    om_wh7_prepared *p;
    c.side[0].unit.characters = 1;
    c.side[0].unit.character[0].profile = CAPTAIN;
    c.side[0].unit.files = 5;
    p = prepare_or_die(&c);
    cr_expect(!p->rounds.present);
    om_wh7_prepared_free(p);
    c = swordsmen_orcs();
    c.side[0].unit.champion = c.side[1].unit.champion = true;
    c.challenge = true;
    p = prepare_or_die(&c);
    cr_expect(!p->rounds.present);
    om_wh7_prepared_free(p);
    c.challenge = false;
    p = prepare_or_die(&c);
    cr_expect(p->rounds.present);
    om_wh7_prepared_free(p);
}
