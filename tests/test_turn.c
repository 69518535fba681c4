/*
 * test_turn.c: whole Warmaster turns (engine/warmaster/turn.c, TURNS.md "A
 * whole turn"): the Command, Shooting and Combat phases over several units on
 * a table, through the engine's own mechanisms.
 *
 *   - a two-unit turn (Knights charging Spearmen on initiative) against the
 *     multi-unit engine fed by hand the contacts the table should give: the
 *     Command phase rolls no die, so trial by trial the same dice give the
 *     same outcome, and the laws agree;
 *   - three units (two charges, one into the flank) and a supporting unit,
 *     the same way: the geometry's contacts, flanks and supports;
 *   - a Command phase whose law is exact: P(the General's chain reaches
 *     order k), products of P(2D6 <= Command - penalties);
 *   - the Shooting phase: the closest visible enemy in range, not an engaged
 *     one, stands in range counted stand by stand, and the exact law of the
 *     drive back's confusion;
 *   - a rule-set difference seen at turn level (the Ancients exposed flank);
 *   - victory points, consistent end states, and the checks.
 * Monte Carlo checks: 5 standard errors of the estimate at a fixed seed,
 * sqrt(p(1-p)/n), or of a difference of two estimates. Layouts are drawn in
 * the comments: x to the right, y up the page, infantry stands 4cm wide and
 * 2cm deep, Revolution cavalry 2cm wide and 4cm deep.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "turn.h"
#include "wm.h"
#include "exact_law.h"
#include "turn_builder.h"

#define TRIALS 100000u
#define SIGMAS 5.0

static const om_wm_traits NO_TRAITS;

/* P(2D6 <= n). */
static double p2d6(int n)
{
    static const int cum[13] = {0, 0, 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36};
    return n < 2 ? 0 : n > 12 ? 1 : cum[n] / 36.0;
}

/* A turn under construction. */
typedef struct builder {
    om_wm_turn t;
} builder;

static void begin(builder *b, const char *ruleset, unsigned moving)
{
    memset(b, 0, sizeof *b);
    turn_begin(&b->t, ruleset, OM_WM_INITIATIVE_AUTO);
    b->t.command.side = (uint8_t)moving;
}

/* A unit of no special rule on the table and in the turn. */
static unsigned unit(builder *b, const char *name, unsigned side, om_wm_troop troop,
                     unsigned stands, unsigned attacks, unsigned hits, unsigned armour,
                     unsigned shots, om_wm_table_formation f, double x, double y, double facing)
{
    om_wm_unit v;
    int i = om_wm_table_add_unit(&b->t.table, b->t.rules->id, name, side, troop, stands, f,
                                 at(x, y), facing);
    cr_assert_geq(i, 0, "add %s", name);
    memset(&v, 0, sizeof v);
    snprintf(v.name, sizeof v.name, "%s", name);
    v.troop = troop;
    v.stands = v.size = (uint8_t)stands;
    v.attacks = (uint8_t)attacks;
    v.hits = (uint8_t)hits;
    v.armour = (uint8_t)armour;
    v.shots = (uint8_t)shots;
    v.range_cm = shots ? 30 : 0;
    v.pace_cm = (uint8_t)om_wm_troop_pace(troop);
    v.traits = NO_TRAITS;
    v.points = 50;
    om_wm_side_init(&b->t.unit[i].side, &v);
    b->t.unit[i].shoot = OM_WM_SHOOT_CLOSEST;
    b->t.unit[i].stand_and_shoot = true;
    b->t.table.unit[i].range_cm = v.range_cm;
    return (unsigned)i;
}

static unsigned general(builder *b, unsigned side, unsigned command, double x, double y)
{
    int c = om_wm_table_add_character(&b->t.table, "General", side, OM_WM_GENERAL, command,
                                      at(x, y));
    cr_assert_geq(c, 0);
    return (unsigned)c;
}

static om_wm_turn_prepared *prepare(const builder *b)
{
    om_wm_turn_prepared *p = NULL;
    om_wm_check_failure why;
    memset(&why, 0, sizeof why);
    cr_assert_eq(om_wm_turn_prepare_alloc(&b->t, &why, &p), OM_OK, "%s: %s", why.field,
                 why.reason);
    return p;
}

/* The end states of one trial agree (turn.h): a destroyed unit is neither
 * confused nor engaged after the phase, a routed one is destroyed. */
static void check_states(const om_wm_turn_result *r, unsigned units)
{
    for (unsigned u = 0; u < units; u++) {
        const om_wm_turn_unit_result *x = &r->unit[u];
        cr_assert(!(x->destroyed && (x->confused || x->unresolved)), "unit %u", u);
        cr_assert(!x->routed || x->destroyed, "unit %u", u);
    }
}

/* An engagement fed to the multi-unit engine by hand. */
typedef struct hand {
    om_wm_multi m;
    om_wm_side side[4];
} hand;

static void hand_unit(hand *h, const om_wm_turn *t, unsigned u, unsigned army, bool charging)
{
    h->side[h->m.n_units] = t->unit[u].side;
    h->side[h->m.n_units].charging = charging;
    h->m.unit[h->m.n_units] = (om_wm_multi_unit){&h->side[h->m.n_units], (uint8_t)army,
                                                 OM_WM_NO_UNIT};
    h->m.n_units++;
}

static void hand_contact(hand *h, unsigned u, unsigned e, unsigned stands, unsigned flanked)
{
    h->m.contact[h->m.n_contacts++] = (om_wm_contact){(uint8_t)u, (uint8_t)e, (uint8_t)stands,
                                                      (uint8_t)flanked, 0};
}

/*
 * Run the turn and the hand-made engagement with the same seed, trial by
 * trial: the Command phase of these turns rolls no die (initiative charges,
 * no order), nor does their Shooting phase (nobody shoots), so each trial's
 * engagement sees the dice the hand-made one sees. Every unit's stands lost,
 * destruction and confusion must be the same; map[k] is the table unit of
 * hand unit k.
 */
static void same_as_hand(const builder *b, hand *h, const unsigned *map)
{
    om_wm_turn_prepared *p = prepare(b);
    om_wm_turn_work *w = NULL;
    om_wm_dice_kit *kit = NULL;
    om_wm_multi_prepared *mp = NULL;
    om_wm_check_failure why;
    om_dice d1, d2;
    unsigned long lost_turn[4] = {0}, lost_hand[4] = {0};
    h->m.rules = b->t.rules;
    h->m.span = OM_WM_SPAN_PHASE;
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    cr_assert_eq(om_wm_dice_kit_alloc(&kit), OM_OK);
    cr_assert_eq(om_wm_multi_prepared_alloc(&mp), OM_OK);
    cr_assert_eq(om_wm_multi_prepare(kit, &h->m, mp, &why), OM_OK, "%s: %s", why.field,
                 why.reason);
    seed(&d1, 20261201u);
    seed(&d2, 20261201u);
    for (unsigned n = 0; n < TRIALS / 4; n++) {
        om_wm_turn_result r;
        om_wm_unit_state st[4], *sp[4];
        om_wm_multi_outcome o;
        om_wm_turn_resolve(p, w, &d1, &r);
        for (unsigned k = 0; k < h->m.n_units; k++) {
            om_wm_multi_unit_state_start(&h->m, k, &st[k]);
            sp[k] = &st[k];
        }
        om_wm_multi_resolve(mp, &d2, sp, &o);
        check_states(&r, b->t.table.units);
        cr_assert_eq(r.engagements, 1);
        for (unsigned k = 0; k < h->m.n_units; k++) {
            const om_wm_turn_unit_result *x = &r.unit[map[k]];
            cr_assert_eq(x->stands_lost, o.unit[k].stands_lost, "trial %u unit %u", n, k);
            cr_assert_eq(x->destroyed, o.unit[k].destroyed, "trial %u unit %u", n, k);
            cr_assert_eq(x->confused, o.unit[k].confused, "trial %u unit %u", n, k);
            cr_assert_eq(x->unresolved, o.unit[k].engaged, "trial %u unit %u", n, k);
            cr_assert(x->engaged && x->charged == h->side[k].charging, "trial %u unit %u", n, k);
            lost_turn[k] += x->stands_lost;
            lost_hand[k] += o.unit[k].stands_lost;
        }
    }
    for (unsigned k = 0; k < h->m.n_units; k++)
        cr_expect_eq(lost_turn[k], lost_hand[k]);
    om_wm_multi_prepared_free(mp);
    om_wm_dice_kit_free(kit);
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

/* ---------- The Combat phase against the multi-unit engine ---------- */

/*
 *   y=55 +-K-+        K: 3 Knights (cavalry, 2 wide, 4 deep) at (90,60) facing down,
 *   y=51 +SSS+           7cm from S: they charge on initiative (plan: charge S)
 *   y=49 +---+        S: 3 Spearmen (infantry) at (90,50) facing up, x 84..96
 * The charge centres K (6cm wide) on S's middle stand: x 87..93, touching all
 * three of S's stands along their front edges; every Knight touches S's front.
 * Warmaster Revolution, The Combat Phase > Attacks: every stand touching fights.
 */
Test(turn, two_units_are_the_engagement_engine)
{
    builder b;
    hand h;
    unsigned map[2];
    begin(&b, "warmaster-revolution", 0);
    unsigned k = unit(&b, "Knights", 0, OM_WM_CAVALRY, 3, 3, 3, 4, 0, OM_WM_TABLE_LINE, 90, 60,
                      270);
    unsigned s = unit(&b, "Spearmen", 1, OM_WM_INFANTRY, 3, 3, 3, 6, 0, OM_WM_TABLE_LINE, 90, 50,
                      90);
    b.t.command.plan[k] = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE, .target = (int8_t)s, .by = -1};
    memset(&h, 0, sizeof h);
    hand_unit(&h, &b.t, k, 0, true);
    hand_unit(&h, &b.t, s, 1, false);
    hand_contact(&h, 0, 1, 3, 0);
    hand_contact(&h, 1, 0, 3, 0);
    map[0] = k;
    map[1] = s;
    same_as_hand(&b, &h, map);
}

/*
 * Two Knights units charge Spearmen (S at (90,50) facing up, x 84..96, y 49..51):
 * K1 from the front (at (90,60) facing down), K2 into S's right flank (at
 * (106,50) facing left: its centre is in S's right zone, 8cm away):
 *
 *            +K1+
 *        +--+--+--+ +K2
 *        |S0|S1|S2|<|
 *        +--+--+--+ +
 * K2 (6cm wide, y 47..53) ends with its front on S's right edge (x 96), centred
 * on it: its middle stand along the edge, the other two at S's corners. Every
 * Knight fights S (corner contacts fight, Warmaster Revolution, Combat >
 * Attacks). S's stands all fight K1 (a front contact comes first, Combat >
 * Attacks); S2 has K2's front on its flank: -1 Attack (Combat > Attack
 * Modifiers).
 */
Test(turn, three_units_front_and_flank)
{
    builder b;
    hand h;
    unsigned map[3];
    begin(&b, "warmaster-revolution", 0);
    unsigned k1 = unit(&b, "Knights", 0, OM_WM_CAVALRY, 3, 3, 3, 4, 0, OM_WM_TABLE_LINE, 90, 60,
                       270);
    unsigned k2 = unit(&b, "Riders", 0, OM_WM_CAVALRY, 3, 3, 3, 5, 0, OM_WM_TABLE_LINE, 106, 50,
                       180);
    unsigned s = unit(&b, "Spearmen", 1, OM_WM_INFANTRY, 3, 3, 3, 6, 0, OM_WM_TABLE_LINE, 90, 50,
                      90);
    b.t.command.plan[k1] = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE, .target = (int8_t)s, .by = -1};
    b.t.command.plan[k2] = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE, .target = (int8_t)s, .by = -1};
    memset(&h, 0, sizeof h);
    hand_unit(&h, &b.t, k1, 0, true);
    hand_unit(&h, &b.t, k2, 0, true);
    hand_unit(&h, &b.t, s, 1, false);
    hand_contact(&h, 0, 2, 3, 0);
    hand_contact(&h, 1, 2, 3, 0);
    hand_contact(&h, 2, 0, 3, 1);
    map[0] = k1;
    map[1] = k2;
    map[2] = s;
    same_as_hand(&b, &h, map);
}

/*
 * A second Spearmen unit T exactly behind S (at (90,48), facing up) supports it
 * with all three stands from behind (Warmaster Revolution, Combat > Supporting
 * Troops): one engagement of three units, the support a link, against the
 * engine fed the same. Change the layout so T stands 2cm off line and the link
 * disappears (checked at the end).
 */
Test(turn, supporting_unit_behind)
{
    builder b;
    hand h;
    unsigned map[3];
    begin(&b, "warmaster-revolution", 0);
    unsigned k = unit(&b, "Knights", 0, OM_WM_CAVALRY, 3, 3, 3, 4, 0, OM_WM_TABLE_LINE, 90, 60,
                      270);
    unsigned s = unit(&b, "Spearmen", 1, OM_WM_INFANTRY, 3, 3, 3, 6, 0, OM_WM_TABLE_LINE, 90, 50,
                      90);
    unsigned t = unit(&b, "Reserve", 1, OM_WM_INFANTRY, 3, 3, 3, 6, 0, OM_WM_TABLE_LINE, 90, 48,
                      90);
    b.t.command.plan[k] = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE, .target = (int8_t)s, .by = -1};
    memset(&h, 0, sizeof h);
    hand_unit(&h, &b.t, k, 0, true);
    hand_unit(&h, &b.t, s, 1, false);
    hand_unit(&h, &b.t, t, 1, false);
    hand_contact(&h, 0, 1, 3, 0);
    hand_contact(&h, 1, 0, 3, 0);
    h.m.support[h.m.n_supports++] = (om_wm_support){2, 1, 3, 3};
    map[0] = k;
    map[1] = s;
    map[2] = t;
    same_as_hand(&b, &h, map);

    /* Off line by 2cm: no support, the reserve takes no part. The Knights
     * stand rather than advance on it should they destroy S (Combat >
     * Advance; a unit that never pursues does not advance). */
    b.t.table.unit[t].centre = at(92, 48);
    b.t.unit[k].side.pursue = OM_WM_PURSUE_NEVER;
    {
        om_wm_turn_prepared *p = prepare(&b);
        om_wm_turn_work *w = NULL;
        om_wm_turn_result r;
        om_dice d;
        cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
        seed(&d, 3);
        om_wm_turn_resolve(p, w, &d, &r);
        cr_expect(r.unit[s].engaged && !r.unit[t].engaged, "the reserve off line: no support");
        om_wm_turn_work_free(w);
        om_wm_turn_prepared_free(p);
    }
}

/* ---------- The Command phase: an exact chain ---------- */

/*
 * The General (Command 9, at (80,12); no enemy within 20cm of anyone) orders A
 * (at (60,20), 16cm from him) to a point 60cm ahead: three orders of its 20cm
 * pace. Its 2nd order is at -1 for the 2nd order and -1 for distance (A is then
 * 30cm away), its 3rd at -2 and -2 (49cm): 9, 7, 5 (Warmaster Revolution,
 * Command Penalties). Then B and C, 8cm and 16cm away, one order each at 9. A
 * failed General order ends all ordering, so the chain reaches order k with
 * probability the product of its first k tests:
 *   P(>=1) = 30/36, P(>=2) = * 21/36, P(>=3) = * 10/36, P(>=4), P(>=5) = * 30/36.
 */
Test(turn, general_chain_is_exact)
{
    builder b;
    const int targets[5] = {9, 7, 5, 9, 9};
    unsigned long reached[6] = {0}, a_ordered = 0;
    om_wm_turn_work *w = NULL;
    om_dice d;
    begin(&b, "warmaster-revolution", 0);
    unsigned a = unit(&b, "A", 0, OM_WM_INFANTRY, 3, 3, 3, 6, 0, OM_WM_TABLE_LINE, 60, 20, 90);
    unsigned bb = unit(&b, "B", 0, OM_WM_INFANTRY, 3, 3, 3, 6, 0, OM_WM_TABLE_LINE, 80, 20, 90);
    unsigned c = unit(&b, "C", 0, OM_WM_INFANTRY, 3, 3, 3, 6, 0, OM_WM_TABLE_LINE, 100, 20, 90);
    unit(&b, "Enemy", 1, OM_WM_INFANTRY, 3, 3, 3, 6, 0, OM_WM_TABLE_LINE, 160, 110, 270);
    unsigned g = general(&b, 0, 9, 80, 12);
    b.t.command.plan[a] = (om_wm_plan){.kind = OM_WM_PLAN_ADVANCE, .target = -1,
                                       .goal = {60, 80}, .by = (int8_t)g, .priority = 0};
    b.t.command.plan[bb] = (om_wm_plan){.kind = OM_WM_PLAN_ADVANCE, .target = -1,
                                        .goal = {80, 30}, .by = (int8_t)g, .priority = 1};
    b.t.command.plan[c] = (om_wm_plan){.kind = OM_WM_PLAN_ADVANCE, .target = -1,
                                       .goal = {100, 30}, .by = (int8_t)g, .priority = 2};
    om_wm_turn_prepared *p = prepare(&b);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 77);
    for (unsigned n = 0; n < TRIALS; n++) {
        om_wm_turn_result r;
        om_wm_turn_resolve(p, w, &d, &r);
        for (unsigned k = 0; k <= 5 && k <= r.general_orders; k++)
            reached[k]++;
        a_ordered += r.unit[a].orders > 0;
        cr_assert_eq(r.engagements, 0);
    }
    {
        double prod = 1;
        char what[32];
        for (unsigned k = 1; k <= 5; k++) {
            prod *= p2d6(targets[k - 1]);
            snprintf(what, sizeof what, "chain reaches order %u", k);
            expect_p(what, reached[k], TRIALS, prod);
        }
        expect_p("A ordered", a_ordered, TRIALS, p2d6(9));
    }
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

/* ---------- The Shooting phase ---------- */

/*
 * Crossbowmen X (3 stands, 1 shot each, 30cm; at (60,20) facing up, x 54..66)
 * shoot in their side's Shooting phase. Three enemies: E (at (76,26), x 70..82,
 * y 25..27), engaged with X's friend F just below it, the closest (5.7cm) but
 * no target (Warmaster Revolution, Shooting > Targets); N (at (60,38), y 37..39)
 * at 16cm, the target; R (at (90,44)) at 28cm, further. All three of X's
 * stands are within range of N, so N (no armour, 3 Hits) takes Binomial(3,
 * 1/2) hits; 3 hits remove a stand (P = 1/8); its drive back (one die per hit,
 * open ground) confuses it on any 6:
 *   P(N confused) = sum_h C(3,h)/8 (1 - (5/6)^h)
 * (a unit that loses a stand is still driven back by every hit, Warmaster
 * Revolution, Shooting > Driving Back Enemies).
 */
Test(turn, shooting_the_closest_visible_target)
{
    builder b;
    unsigned long confused = 0, shot_n = 0, shot_e = 0, shot_r = 0, lost = 0;
    om_wm_turn_work *w = NULL;
    om_dice d;
    double want = 0;
    begin(&b, "warmaster-revolution", 0);
    unsigned x = unit(&b, "Crossbowmen", 0, OM_WM_INFANTRY, 3, 3, 3, 0, 1, OM_WM_TABLE_LINE, 60,
                      20, 90);
    unsigned f = unit(&b, "Friend", 0, OM_WM_INFANTRY, 3, 3, 3, 0, 0, OM_WM_TABLE_LINE, 76, 24,
                      90);
    unsigned e = unit(&b, "Engaged", 1, OM_WM_INFANTRY, 3, 3, 3, 0, 0, OM_WM_TABLE_LINE, 76, 26,
                      270);
    unsigned n = unit(&b, "Near", 1, OM_WM_INFANTRY, 3, 3, 3, 0, 0, OM_WM_TABLE_LINE, 60, 38,
                      270);
    unsigned r = unit(&b, "Far", 1, OM_WM_INFANTRY, 3, 3, 3, 0, 0, OM_WM_TABLE_LINE, 90, 44,
                      270);
    (void)x;
    /* F and E stand rather than advance should one destroy the other
     * (Combat > Advance: an advance may start a fight that ends with X
     * advancing on N), so that N's losses are the Shooting phase's alone. */
    b.t.unit[f].side.pursue = OM_WM_PURSUE_NEVER;
    b.t.unit[e].side.pursue = OM_WM_PURSUE_NEVER;
    om_wm_turn_prepared *p = prepare(&b);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 5);
    for (unsigned k = 0; k < TRIALS; k++) {
        om_wm_turn_result res;
        om_wm_turn_resolve(p, w, &d, &res);
        check_states(&res, b.t.table.units);
        confused += res.unit[n].confused;
        shot_n += res.unit[n].shot_at;
        shot_e += res.unit[e].shot_at;
        shot_r += res.unit[r].shot_at;
        lost += res.unit[n].stands_lost;
    }
    for (unsigned h = 0; h <= 3; h++) {
        static const double c3[4] = {1, 3, 3, 1};
        want += c3[h] / 8 * (1 - pow(5.0 / 6.0, h));
    }
    cr_expect_eq(shot_n, TRIALS, "the closest eligible enemy is always the target");
    cr_expect_eq(shot_e, 0, "an engaged enemy is no target");
    cr_expect_eq(shot_r, 0, "a further enemy is no target");
    expect_p("N loses a stand (3 hits)", lost, TRIALS, 1.0 / 8.0);
    expect_p("N confused by its drive back", confused, TRIALS, want);
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

/*
 * Range stand by stand (Warmaster Revolution, Shooting > Range): X (at (70,20)
 * facing up: stands x 64..68, 68..72, 72..76, front edge y 21) shoots at T (at
 * (94,49) facing down: x 88..100, y 48..50). From each stand's front-right
 * corner to T's corner (88,48): (68,21) 20 across and 27 up, 33.6cm; (72,21)
 * 16 across, 31.4cm; (76,21) 12 across, 29.5cm: the only one in range.
 * One die at 4+: T (no armour) is hit with P 1/2 and confused by a 6 on its
 * drive-back die: P = 1/2 * 1/6.
 */
Test(turn, shooting_range_stand_by_stand)
{
    builder b;
    unsigned long confused = 0, shot = 0;
    om_wm_turn_work *w = NULL;
    om_dice d;
    begin(&b, "warmaster-revolution", 0);
    unit(&b, "Crossbowmen", 0, OM_WM_INFANTRY, 3, 3, 3, 0, 1, OM_WM_TABLE_LINE, 70, 20, 90);
    unsigned t = unit(&b, "Target", 1, OM_WM_INFANTRY, 3, 3, 3, 0, 0, OM_WM_TABLE_LINE, 94, 49,
                      270);
    om_wm_turn_prepared *p = prepare(&b);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 6);
    for (unsigned k = 0; k < TRIALS; k++) {
        om_wm_turn_result res;
        om_wm_turn_resolve(p, w, &d, &res);
        confused += res.unit[t].confused;
        shot += res.unit[t].shot_at;
    }
    cr_expect_eq(shot, TRIALS);
    expect_p("confused by one stand's shot", confused, TRIALS, 0.5 / 6.0);
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

/* ---------- Rule-set differences at turn level ---------- */

/*
 * The same layout under Warmaster Revolution and Warmaster Ancients: U (at
 * (60,20) facing up) has an enemy E within 20cm in its right zone (at (75,20)
 * facing left), no friend on that edge. The General (Command 8, 5cm away)
 * orders U forward once. Revolution: -1 for the enemy within 20cm, 2D6 <= 7;
 * Ancients adds -1 for the exposed flank (Warmaster Ancients, Command
 * Penalties 5): 2D6 <= 6.
 */
Test(turn, ancients_exposed_flank_at_turn_level)
{
    static const char *const sets[2] = {"warmaster-revolution", "warmaster-ancients"};
    static const int target[2] = {7, 6};
    for (int r = 0; r < 2; r++) {
        builder b;
        unsigned long ordered = 0;
        om_wm_turn_work *w = NULL;
        om_dice d;
        begin(&b, sets[r], 0);
        unsigned u = unit(&b, "Warriors", 0, OM_WM_INFANTRY, 3, 3, 3, 6, 0, OM_WM_TABLE_LINE, 60,
                          20, 90);
        unit(&b, "Enemy", 1, OM_WM_INFANTRY, 3, 3, 3, 6, 0, OM_WM_TABLE_COLUMN, 75, 20, 180);
        unsigned g = general(&b, 0, 8, 60, 14);
        b.t.command.plan[u] = (om_wm_plan){.kind = OM_WM_PLAN_ADVANCE, .target = -1,
                                           .goal = {60, 30}, .by = (int8_t)g, .orders = 1};
        om_wm_turn_prepared *p = prepare(&b);
        cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
        seed(&d, 11);
        for (unsigned k = 0; k < TRIALS; k++) {
            om_wm_turn_result res;
            om_wm_turn_resolve(p, w, &d, &res);
            ordered += res.unit[u].orders > 0;
        }
        expect_p(sets[r], ordered, TRIALS, p2d6(target[r]));
        om_wm_turn_work_free(w);
        om_wm_turn_prepared_free(p);
    }
}

/* ---------- Victory points and checks ---------- */

/* Victory points (Warmaster Revolution, Victory Points): a destroyed unit its
 * full points, a unit of 3 stands reduced to 1 half of them rounded up to 5;
 * each side's total is its units' sum, trial by trial: Knights (110 points)
 * charging Spearmen (45). */
Test(turn, victory_points_per_side)
{
    builder b;
    om_wm_turn_work *w = NULL;
    om_dice d;
    unsigned long destroyed = 0;
    begin(&b, "warmaster-revolution", 0);
    unsigned k = unit(&b, "Knights", 0, OM_WM_CAVALRY, 3, 3, 3, 4, 0, OM_WM_TABLE_LINE, 90, 60,
                      270);
    unsigned s = unit(&b, "Spearmen", 1, OM_WM_INFANTRY, 3, 3, 3, 6, 0, OM_WM_TABLE_LINE, 90, 50,
                      90);
    b.t.unit[s].side.unit.points = 45;
    b.t.unit[k].side.unit.points = 110;
    b.t.command.plan[k] = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE, .target = (int8_t)s, .by = -1};
    om_wm_turn_prepared *p = prepare(&b);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 9);
    for (unsigned n = 0; n < 20000; n++) {
        om_wm_turn_result r;
        unsigned want[2];
        om_wm_turn_resolve(p, w, &d, &r);
        want[0] = om_wm_victory_points_lost(110, 3, 3, r.unit[k].stands_lost);
        want[1] = om_wm_victory_points_lost(45, 3, 3, r.unit[s].stands_lost);
        cr_assert_eq(r.vp_lost[0], want[0]);
        cr_assert_eq(r.vp_lost[1], want[1]);
        if (r.unit[s].destroyed) {
            cr_assert_eq(r.vp_lost[1], 45);
            destroyed++;
        }
    }
    cr_expect_gt(destroyed, 0, "some trials destroy the Spearmen");
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

/* The checks name the field: a plan by a General too far (Ancients: 100cm), a
 * unit whose table stands exceed its values', more than 8 units a side. */
Test(turn, checks_name_the_field)
{
    builder b;
    om_wm_check_failure why;
    om_wm_turn_prepared *p = NULL;
    begin(&b, "warmaster-ancients", 0);
    unsigned u = unit(&b, "Warriors", 0, OM_WM_INFANTRY, 3, 3, 3, 6, 0, OM_WM_TABLE_LINE, 20, 20,
                      90);
    unsigned g = general(&b, 0, 8, 200, 110);
    b.t.command.plan[u] = (om_wm_plan){.kind = OM_WM_PLAN_ADVANCE, .target = -1,
                                       .goal = {20, 40}, .by = (int8_t)g};
    memset(&why, 0, sizeof why);
    cr_expect_eq(om_wm_turn_prepare_alloc(&b.t, &why, &p), OM_EINVAL);
    cr_expect_str_eq(why.field, "plans[0].by", "%s: %s", why.field, why.reason);
    cr_expect_null(p);

    begin(&b, "warmaster-revolution", 0);
    u = unit(&b, "Warriors", 0, OM_WM_INFANTRY, 3, 3, 3, 6, 0, OM_WM_TABLE_LINE, 20, 20, 90);
    b.t.unit[u].side.unit.armour = 1;
    cr_expect_eq(om_wm_turn_check(&b.t, &why), OM_EINVAL);
    cr_expect_str_eq(why.field, "units[0].side.unit.armour", "%s: %s", why.field, why.reason);

    /* A whole table of one side: the other has no unit left to fight. */
    begin(&b, "warmaster-revolution", 0);
    for (unsigned i = 0; i < OM_WM_TABLE_MAX_UNITS; i++)
        unit(&b, "Warriors", 0, OM_WM_INFANTRY, 1, 3, 3, 6, 0, OM_WM_TABLE_LINE,
             4 + 5.0 * (i % 32), 10 + 5.0 * (i / 32), 90);
    cr_expect_eq(om_wm_turn_check(&b.t, &why), OM_EINVAL);
    cr_expect_str_eq(why.field, "units[64]", "%s: %s", why.field, why.reason);
    cr_expect(strstr(why.reason, "more than 64 units") != NULL, "%s", why.reason);
}

/*
 * Shots by range band go by the distance to the target (army lists: repeating
 * crossbows shoot twice a stand within 15cm, once beyond): a one-stand unit
 * of repeaters (at (60,20) facing up, front edge y 21) 12cm from its target
 * (no armour, its edge at y 33) rolls 2 dice at 4+; the target is confused
 * by a 6 among its drive-back dice:
 *   P = C(2,1)/4 (1/6) + 1/4 (1 - (5/6)^2) = 0.15972...
 * (one die, at 20cm: 1/2 x 1/6).
 */
Test(turn, range_bands_by_the_distance)
{
    static const double y[2] = {34, 42}, want[2] = {2.0 / 4 / 6 + 0.25 * 11.0 / 36, 0.5 / 6};
    const om_wm_special *sp = om_wm_special_find("crossbowmen-and-dark-riders");
    cr_assert_not_null(sp);
    for (int k = 0; k < 2; k++) {
        builder b;
        unsigned long confused = 0;
        om_wm_turn_work *w = NULL;
        om_dice d;
        begin(&b, "warmaster-revolution", 0);
        unsigned x = unit(&b, "Repeaters", 0, OM_WM_INFANTRY, 1, 3, 3, 0, 1, OM_WM_TABLE_LINE, 60,
                          20, 90);
        unsigned t = unit(&b, "Target", 1, OM_WM_INFANTRY, 3, 3, 3, 0, 0, OM_WM_TABLE_LINE, 60,
                          y[k], 270);
        cr_assert_eq(om_wm_unit_add_rule(&b.t.unit[x].side.unit, b.t.rules, sp), OM_OK);
        om_wm_turn_prepared *p = prepare(&b);
        cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
        seed(&d, 21 + k);
        for (unsigned n = 0; n < TRIALS; n++) {
            om_wm_turn_result r;
            om_wm_turn_resolve(p, w, &d, &r);
            confused += r.unit[t].confused;
        }
        expect_p(k == 0 ? "12cm: two dice" : "20cm: one die", confused, TRIALS, want[k]);
        om_wm_turn_work_free(w);
        om_wm_turn_prepared_free(p);
    }
}

/*
 * A shooter its own misfire destroys still drives its target back from where
 * it shot (Shooting > Driving Back Enemies): a one-gun Helblaster (8 dice a
 * gun within 10cm, 4 or more 1s blow it up, army list) 8cm from an enemy.
 * In the trials it blows itself up it is destroyed and the target was shot
 * at; nothing divides by its 0 stands (it once did). 4 or more 1s of 8 dice:
 * sum over k >= 4 of C(8,k) (1/6)^k (5/6)^(8-k).
 */
Test(turn, shooter_destroyed_by_its_misfire)
{
    builder b;
    unsigned long blown = 0;
    double p = 0;
    om_wm_turn_work *w = NULL;
    om_dice d;
    begin(&b, "warmaster-revolution", 0);
    unsigned gun = unit(&b, "Helblaster", 0, OM_WM_ARTILLERY, 1, 1, 2, 0, 8, OM_WM_TABLE_LINE,
                        60, 20, 90);
    unsigned e = unit(&b, "Target", 1, OM_WM_INFANTRY, 3, 3, 3, 6, 0, OM_WM_TABLE_LINE, 60, 31,
                      270);
    b.t.unit[gun].side.unit.traits.shooter = OM_WM_SHOOTER_HELBLASTER;
    om_wm_turn_prepared *pt = prepare(&b);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 5);
    for (unsigned k = 0; k < TRIALS; k++) {
        om_wm_turn_result res;
        om_wm_turn_resolve(pt, w, &d, &res);
        cr_assert(res.unit[e].shot_at, "trial %u: the target is shot at", k);
        if (res.unit[gun].destroyed) {
            blown++;
            cr_assert_eq(res.unit[e].stands_lost, 0, "a gun that blew up hits nothing");
        }
    }
    for (unsigned k = 4; k <= 8; k++) {
        double c = 1;
        for (unsigned i = 0; i < k; i++)
            c = c * (8 - i) / (i + 1);
        p += c * pow(1 / 6.0, k) * pow(5 / 6.0, 8 - k);
    }
    expect_p("the gun blows up", blown, TRIALS, p);
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(pt);
}

/* A War Wagon never charges (Kislev lists): a charge plan is refused, with
 * its field; and nothing else makes it charge (the table marks it
 * OM_WM_TABLE_TRAIT_NO_CHARGE), so its engagements pass the engine's check.
 * Under Ancients rules artillery charges on initiative: a wagon that must
 * charge, 8cm from an enemy, does not, where the same unit in no formation
 * does. */
static unsigned wagon_charges(om_wm_formation formation, unsigned trials)
{
    builder b;
    unsigned charged = 0;
    om_wm_turn_prepared *pt;
    om_wm_turn_work *w = NULL;
    om_dice d;
    begin(&b, "warmaster-ancients", 0);
    unsigned wagon = unit(&b, "War Wagon", 0, OM_WM_ARTILLERY, 2, 3, 3, 0, 0, OM_WM_TABLE_COLUMN,
                          60, 20, 90);
    unit(&b, "Enemy", 1, OM_WM_INFANTRY, 3, 3, 3, 6, 0, OM_WM_TABLE_LINE, 60, 31, 270);
    b.t.unit[wagon].side.formation = formation;
    b.t.unit[wagon].side.shooting = b.t.unit[wagon].side.fighting = 1; /* the wagon stand */
    b.t.table.unit[wagon].traits |= OM_WM_TABLE_TRAIT_MUST_CHARGE;
    pt = prepare(&b);
    cr_assert_eq((om_wm_turn_of(pt)->table.unit[wagon].traits & OM_WM_TABLE_TRAIT_NO_CHARGE) != 0,
                 formation != OM_WM_FORMATION_NONE);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 9);
    for (unsigned k = 0; k < trials; k++) {
        om_wm_turn_result res;
        om_wm_turn_resolve(pt, w, &d, &res);
        charged += res.unit[wagon].charged;
    }
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(pt);
    return charged;
}

Test(turn, war_wagon_never_charges)
{
    builder b;
    om_wm_check_failure why;
    begin(&b, "warmaster-revolution", 0);
    unsigned wagon = unit(&b, "War Wagon", 0, OM_WM_ARTILLERY, 2, 3, 3, 0, 0, OM_WM_TABLE_COLUMN,
                          60, 20, 90);
    unsigned e = unit(&b, "Enemy", 1, OM_WM_INFANTRY, 3, 3, 3, 6, 0, OM_WM_TABLE_LINE, 60, 40,
                      270);
    unsigned g = general(&b, 0, 10, 60, 10);
    b.t.unit[wagon].side.formation = OM_WM_FORMATION_COLUMN;
    b.t.unit[wagon].side.shooting = b.t.unit[wagon].side.fighting = 1;
    b.t.command.plan[wagon] = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE, .target = (int8_t)e,
                                           .by = (int8_t)g};
    memset(&why, 0, sizeof why);
    cr_expect_eq(om_wm_turn_check(&b.t, &why), OM_EINVAL);
    cr_expect_str_eq(why.field, "plans[0].kind", "%s: %s", why.field, why.reason);
    cr_expect_eq(wagon_charges(OM_WM_FORMATION_COLUMN, 200), 0);
    cr_expect_eq(wagon_charges(OM_WM_FORMATION_NONE, 200), 200);
}

/* Turns one after the other on one table (om_wm_turn_begin, om_wm_turn_play),
 * as a battle plays them: the first, played from the start, is the prepared
 * turn's own trial; after the second, each unit's stands lost over both turns
 * are those the table shows gone, a unit destroyed in the first is neither
 * destroyed again nor loses stands in the second, and the victory points of
 * the two turns add up to those of the losses from the start (End of the
 * Battle > Victory Points). A combat left unresolved is fought on in the
 * enemy's turn (Combat > Unresolved Combat). */
Test(turn, turns_in_sequence)
{
    builder b;
    om_wm_turn_work *w = NULL, *w1 = NULL;
    om_dice d, d1;
    unsigned long fought_on = 0;
    begin(&b, "warmaster-revolution", 0);
    unsigned k = unit(&b, "Knights", 0, OM_WM_CAVALRY, 3, 3, 3, 4, 0, OM_WM_TABLE_LINE, 90, 60,
                      270);
    unsigned s = unit(&b, "Spearmen", 1, OM_WM_INFANTRY, 3, 3, 3, 6, 0, OM_WM_TABLE_LINE, 90, 50,
                      90);
    b.t.unit[s].side.unit.points = 45;
    b.t.unit[k].side.unit.points = 110;
    b.t.command.plan[k] = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE, .target = (int8_t)s, .by = -1};
    om_wm_turn_prepared *p = prepare(&b);
    om_wm_command_setup second = b.t.command;
    second.side = 1;
    for (unsigned u = 0; u < OM_WM_TABLE_MAX_UNITS; u++)
        second.plan[u] = (om_wm_plan){.target = -1, .by = -1};
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    cr_assert_eq(om_wm_turn_work_alloc(&w1), OM_OK);
    for (unsigned n = 0; n < 20000; n++) {
        om_wm_turn_result r1, r2, alone;
        const unsigned idx[2] = {k, s}, points[2] = {110, 45};
        seed(&d, 11 + n); /* the same dice for the first turn both ways */
        seed(&d1, 11 + n);
        om_wm_turn_resolve(p, w1, &d1, &alone);
        om_wm_turn_begin(p, w);
        om_wm_turn_play(p, &b.t.command, w, &d, &r1);
        cr_assert_eq(memcmp(&r1.unit, &alone.unit, 2 * sizeof r1.unit[0]), 0, "trial %u", n);
        cr_assert_eq(r1.vp_lost[0], alone.vp_lost[0]);
        cr_assert_eq(r1.vp_lost[1], alone.vp_lost[1]);
        om_wm_turn_play(p, &second, w, &d, &r2);
        check_states(&r2, 2);
        fought_on += r1.unresolved > 0 && r2.engagements > 0;
        for (unsigned i = 0; i < 2; i++) {
            const om_wm_table_unit *tu = &om_wm_turn_work_table(w)->unit[idx[i]];
            unsigned left = tu->present ? tu->stands : 0;
            unsigned lost = r1.unit[idx[i]].stands_lost + r2.unit[idx[i]].stands_lost;
            cr_assert_eq(lost, 3 - left, "trial %u unit %u", n, idx[i]);
            if (r1.unit[idx[i]].destroyed)
                cr_assert(!r2.unit[idx[i]].destroyed && r2.unit[idx[i]].stands_lost == 0);
            cr_assert_eq(r1.vp_lost[i] + r2.vp_lost[i],
                         om_wm_victory_points_lost(points[i], 3, 3, lost), "trial %u", n);
        }
    }
    cr_expect_gt(fought_on, 0, "some combats left unresolved are fought on in the next turn");
    om_wm_turn_work_free(w);
    om_wm_turn_work_free(w1);
    om_wm_turn_prepared_free(p);
}
