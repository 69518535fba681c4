/*
 * test_magic_lasting.c: spells whose effect lasts into the enemy's turn
 * (engine/warmaster/magic.h, OM_WM_SPELL_LASTING), and the second volley
 * (OM_WM_SPELL_VOLLEY), with the table of spell effects in
 * scenarios/warmaster/wm_spells.c. Each lasting mechanism is cast by a Wizard
 * of side 0 in its turn and read in side 1's turn after it (a volley in side
 * 0's own Shooting phase), on a table set up by hand, and its law is checked at a fixed seed within 5 standard errors: the
 * spell works with P(cast) (a D6 of its casting value or more, a 1 failing),
 * and then the rule reads the effect.
 *
 *   - Eerie Mist (Warmaster Revolution army lists, Bretonnia > Spells): the
 *     enemy unit's next order at -1 Command; no initiative;
 *   - Anger of the Gods (Revolution army lists, Chaos > Spells): -1 Command on
 *     orders to enemy units within 30cm of the Sorcerer, and none beyond;
 *   - Dominion (Revolution army lists, Dark Elves > Spells): no charge, by
 *     initiative or by order, and no pursuit;
 *   - Mists of Albion (Revolution army lists, Albion > Spells): a friendly
 *     infantry unit counts as defended: shooting hits it on 5+ not 4+;
 *   - Mork Save Uz! (Revolution army lists, Goblins > Spells): a 5+ save in
 *     place of a worse one;
 *   - Aerial Shield (Revolution army lists, Bretonnia > Spells): shooting at
 *     the unit at -1 to hit, never worse than 6+;
 *   - Tooth Cracker (Revolution army lists, Ogre Kingdoms > Spells): never
 *     driven back nor confused by shooting;
 *   - Weird Enchantment (Revolution army lists, Empire > Spells): half pace,
 *     a charge of 15cm out of an infantry unit's reach;
 *   - Traitor Kin (Revolution army lists, Beastmen > Spells): only on
 *     cavalry, chariots and monsters;
 *   - Voice of Command (Revolution army lists, Empire > Spells): a friendly
 *     unit moves as if ordered, by its plan, with no Command test, leaving
 *     its joined characters behind; Wings in the Jungle (Revolution army
 *     lists, Lizardmen > Spells): the Wizard's own unit, and he with it;
 *   - Heaven's Fire (Revolution army lists, High Elves > Spells): a friendly
 *     shooting unit of infantry or cavalry shoots a second volley at -1 to
 *     hit, in the caster's own Shooting phase;
 *   - the expiry: every effect ends as its caster's side starts its next turn
 *     (the Wizard then casts Dominion again: he never casts a spell on a unit
 *     it would not change).
 * Layouts: x to the right, y up; side 0 faces +y, side 1 faces -y.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "command.h"
#include "magic.h"
#include "table.h"
#include "turn.h"
#include "wm.h"
#include "wm_spells.h"
#include "exact_law.h"
#include "exact_law.h"
#include "turn_builder.h"

#define TRIALS 60000u
#define SIGMAS 5.0

static const om_wm_traits NO_TRAITS;

/* P(2D6 <= target). */
static double two_d6_at_most(int target)
{
    unsigned ways = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++)
            ways += a + b <= target;
    return ways / 36.0;
}

/* ---- A turn under construction: side 0 casts, side 1 then moves ---- */

typedef turn_two_sides build;

static void begin(build *b)
{
    turn_two_sides_begin(b, "warmaster-revolution", OM_WM_INITIATIVE_AUTO);
}

/* A unit of no special rule; `shots` shooting Attacks a stand at 30cm. */
static unsigned unit(build *b, unsigned side, om_wm_troop troop, unsigned stands,
                     unsigned hits, unsigned armour, unsigned shots, double x, double y)
{
    om_wm_unit v;
    int i = om_wm_table_add_unit(&b->t.table, b->t.rules->id, side ? "Foes" : "Friends", side,
                                 troop, stands, OM_WM_TABLE_LINE, at(x, y),
                                 side ? 270.0 : 90.0);
    cr_assert_geq(i, 0);
    memset(&v, 0, sizeof v);
    snprintf(v.name, sizeof v.name, "%s", side ? "Foes" : "Friends");
    v.troop = troop;
    v.stands = v.size = (uint8_t)stands;
    v.attacks = 3;
    v.hits = (uint8_t)hits;
    v.armour = (uint8_t)armour;
    v.shots = (uint8_t)shots;
    v.range_cm = shots ? 30 : 0;
    v.pace_cm = (uint8_t)om_wm_troop_pace(troop);
    v.traits = NO_TRAITS;
    v.points = 60;
    om_wm_side_init(&b->t.unit[i].side, &v);
    b->t.unit[i].shoot = OM_WM_SHOOT_CLOSEST;
    b->t.table.unit[i].range_cm = v.range_cm;
    return (unsigned)i;
}

/* A Wizard of side 0 joined to unit u, knowing every spell of his side. */
static unsigned wizard(build *b, unsigned u)
{
    int c = om_wm_table_add_character(&b->t.table, "Wizard", 0, OM_WM_WIZARD, 7,
                                      b->t.table.unit[u].centre);
    cr_assert_geq(c, 0);
    b->t.table.character[c].joined = (int8_t)u;
    b->t.table.character[c].follow = (int8_t)u;
    b->t.magic.knows[c] = (uint8_t)((1u << b->t.magic.n[0]) - 1u);
    return (unsigned)c;
}

/* Side 1's General, alone at (x, y). */
static unsigned general(build *b, double x, double y)
{
    int c = om_wm_table_add_character(&b->t.table, "General", 1, OM_WM_GENERAL, 8, at(x, y));
    cr_assert_geq(c, 0);
    b->t.table.character[c].joined = -1;
    b->t.table.character[c].follow = -1;
    return (unsigned)c;
}

/* A lasting spell of side 0, cast on 2+ (P 5/6) at 30cm, seen or not. */
static void lasting(build *b, const char *id, unsigned kinds, unsigned amount)
{
    om_wm_spell sp = {.cast = 2, .range_cm = 30, .effect = OM_WM_SPELL_LASTING,
                      .lasting = (uint16_t)kinds, .amount = (uint8_t)amount};
    snprintf(sp.id, sizeof sp.id, "%s", id);
    b->t.magic.spell[0][b->t.magic.n[0]++] = sp;
}

#define P_CAST (5.0 / 6.0)

/* What side 1's turn did, trial by trial. */
typedef struct seen {
    unsigned long orders[OM_WM_TABLE_MAX_UNITS];   /* trials it passed an order */
    unsigned long charged[OM_WM_TABLE_MAX_UNITS];  /* trials it charged */
    unsigned long confused[OM_WM_TABLE_MAX_UNITS]; /* trials it ended confused */
    unsigned long lost[OM_WM_TABLE_MAX_UNITS][9];  /* trials it lost k stands */
    unsigned long cast;                            /* side 0's spells tried */
} seen;

static void run(const build *b, unsigned long trials, uint64_t s, seen *out)
{
    om_wm_turn_prepared *p = NULL;
    om_wm_turn_work *w = NULL;
    om_wm_check_failure why;
    om_wm_turn_result first, r;
    om_dice d;
    memset(&why, 0, sizeof why);
    memset(out, 0, sizeof *out);
    cr_assert_eq(om_wm_turn_prepare_alloc(&b->t, &why, &p), OM_OK, "%s: %s", why.field,
                 why.reason);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, s);
    for (unsigned long i = 0; i < trials; i++) {
        om_wm_turn_begin(p, w);
        om_wm_turn_play(p, &b->t.command, w, &d, &first);
        out->cast += first.spells_cast;
        om_wm_turn_play(p, &b->second, w, &d, &r);
        for (unsigned u = 0; u < b->t.table.units; u++) {
            out->orders[u] += r.unit[u].orders > 0;
            out->charged[u] += r.unit[u].charged;
            out->confused[u] += r.unit[u].confused;
            out->lost[u][r.unit[u].stands_lost < 9 ? r.unit[u].stands_lost : 8]++;
        }
    }
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

/* The target of side 1's General's first order to unit u on the start table. */
static int order_target(const build *b, unsigned general_c, unsigned u)
{
    om_wm_command_test test;
    om_wm_command_test_for(&b->second, &b->t.table, general_c, &u, 1, 1, &test);
    cr_assert_eq(test.spell, 0);
    return test.target;
}

/* ---- Command ---- */

/* Side 0's Friends (with the Wizard) at y 40, side 1's Foes 25cm away at y
 * 65, planned to advance away by one order of the General at (90, 80) and
 * never to use initiative. */
static void command_table(build *b, unsigned *foes, unsigned *gen)
{
    unsigned friends;
    begin(b);
    friends = unit(b, 0, OM_WM_INFANTRY, 3, 3, 0, 0, 90, 40);
    *foes = unit(b, 1, OM_WM_INFANTRY, 3, 3, 0, 0, 90, 65);
    *gen = general(b, 90, 80);
    (void)friends;
    b->second.plan[*foes] = (om_wm_plan){.kind = OM_WM_PLAN_ADVANCE, .target = -1,
                                         .goal = at(90, 110), .by = (int8_t)*gen, .orders = 1,
                                         .initiative = OM_WM_INITIATIVE_NEVER};
}

Test(magic_lasting, eerie_mist_costs_the_enemy_unit_a_point_of_command_in_its_turn)
{
    build b;
    seen s;
    unsigned foes, gen;
    int target;
    double p;
    command_table(&b, &foes, &gen);
    lasting(&b, "eerie-mist", OM_WM_LASTING_COMMAND | OM_WM_LASTING_NO_INITIATIVE, 1);
    wizard(&b, 0);
    target = order_target(&b, gen, foes);
    run(&b, TRIALS, 21, &s);
    /* Cast: the order at target - 1; not cast: at target. */
    p = P_CAST * two_d6_at_most(target - 1) + (1 - P_CAST) * two_d6_at_most(target);
    cr_assert_gt(fabs(p - two_d6_at_most(target)), 10 * sqrt(0.25 / TRIALS),
                 "the spell must change the law measurably");
    expect_p("order passed under Eerie Mist", s.orders[foes], TRIALS, p);
}

Test(magic_lasting, anger_of_the_gods_reaches_enemy_units_within_range_of_the_sorcerer)
{
    build b;
    seen s;
    unsigned foes, far, gen;
    int target, far_target;
    double p;
    command_table(&b, &foes, &gen);
    /* A second enemy unit 60cm to the side: beyond the Sorcerer's 30cm. */
    far = unit(&b, 1, OM_WM_INFANTRY, 3, 3, 0, 0, 150, 65);
    b.second.plan[far] = b.second.plan[foes];
    b.second.plan[far].goal = at(150, 110);
    b.second.plan[far].priority = 1; /* ordered after Foes, whatever their result */
    b.second.take_over = false;
    lasting(&b, "anger-of-the-gods", OM_WM_LASTING_COMMAND, 1);
    b.t.magic.spell[0][0].aura = true;
    wizard(&b, 0);
    target = order_target(&b, gen, foes);
    far_target = order_target(&b, gen, far);
    run(&b, TRIALS, 22, &s);
    p = P_CAST * two_d6_at_most(target - 1) + (1 - P_CAST) * two_d6_at_most(target);
    expect_p("order to the unit near the Sorcerer", s.orders[foes], TRIALS, p);
    /* The far unit is ordered only when the General's first order passed
     * (a failed order stops him), and then at its own target. */
    expect_p("order to the unit beyond his reach", s.orders[far], TRIALS,
             p * two_d6_at_most(far_target));
}

Test(magic_lasting, the_command_penalty_is_the_units_own_plus_the_largest_aura)
{
    om_wm_table t;
    unsigned u[2];
    int c;
    om_wm_table_init(&t, OM_WM_RULES_REV, 0, 0);
    u[0] = (unsigned)om_wm_table_add_unit(&t, OM_WM_RULES_REV, "A", 1, OM_WM_INFANTRY, 3,
                                          OM_WM_TABLE_LINE, at(90, 60), 270);
    u[1] = (unsigned)om_wm_table_add_unit(&t, OM_WM_RULES_REV, "B", 1, OM_WM_INFANTRY, 3,
                                          OM_WM_TABLE_LINE, at(150, 60), 270);
    c = om_wm_table_add_character(&t, "Sorcerer", 0, OM_WM_WIZARD, 7, at(90, 35));
    cr_assert_geq(c, 0);
    t.character[c].joined = -1;
    cr_expect_eq(om_wm_lasting_command(&t, u, 2), 0u);
    t.character[c].aura = (om_wm_table_lasting){.kinds = OM_WM_LASTING_COMMAND, .command = 1,
                                                .aura_cm = 30};
    cr_expect_eq(om_wm_lasting_command(&t, &u[0], 1), 1u, "within 30cm");
    cr_expect_eq(om_wm_lasting_command(&t, &u[1], 1), 0u, "beyond 30cm");
    t.unit[u[1]].lasting = (om_wm_table_lasting){.kinds = OM_WM_LASTING_COMMAND, .command = 1};
    cr_expect_eq(om_wm_lasting_command(&t, u, 2), 1u, "a brigade: its worst unit");
    t.unit[u[0]].lasting = t.unit[u[1]].lasting;
    cr_expect_eq(om_wm_lasting_command(&t, u, 2), 2u, "its own and the aura");
    /* A friendly Sorcerer's aura does not fall on his own side. */
    t.character[c].side = 1;
    cr_expect_eq(om_wm_lasting_command(&t, &u[1], 1), 1u);
}

/* ---- Charges and pursuit ---- */

/* Foes 15cm from Friends, which they would charge by initiative. */
static void charge_table(build *b, unsigned *friends, unsigned *foes)
{
    begin(b);
    *friends = unit(b, 0, OM_WM_INFANTRY, 3, 3, 0, 0, 90, 40);
    *foes = unit(b, 1, OM_WM_INFANTRY, 3, 3, 0, 0, 90, 56);
    (void)general(b, 90, 100);
    b->second.plan[*foes] = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE, .target = (int8_t)*friends,
                                         .by = -1, .initiative = OM_WM_INITIATIVE_CHARGE};
}

Test(magic_lasting, dominion_stops_a_charge_by_initiative)
{
    build b;
    seen s, control;
    unsigned friends, foes;
    charge_table(&b, &friends, &foes);
    lasting(&b, "dominion", OM_WM_LASTING_NO_CHARGE, 0);
    wizard(&b, friends);
    run(&b, TRIALS, 23, &s);
    expect_p("charge under Dominion", s.charged[foes], TRIALS, 1 - P_CAST);
    /* Without the spell the charge always goes in. */
    b.t.magic.n[0] = 0;
    memset(b.t.magic.knows, 0, sizeof b.t.magic.knows);
    run(&b, 2000, 23, &control);
    cr_expect_eq(control.charged[foes], 2000);
}

Test(magic_lasting, eerie_mist_takes_away_the_initiative)
{
    build b;
    seen s;
    unsigned friends, foes;
    charge_table(&b, &friends, &foes);
    lasting(&b, "eerie-mist", OM_WM_LASTING_COMMAND | OM_WM_LASTING_NO_INITIATIVE, 1);
    wizard(&b, friends);
    run(&b, TRIALS, 31, &s);
    /* No order is planned: the charge is the initiative's alone. */
    expect_p("charge by initiative under Eerie Mist", s.charged[foes], TRIALS, 1 - P_CAST);
}

Test(magic_lasting, dominion_stops_a_charge_by_order)
{
    build b;
    seen s;
    unsigned friends, foes, gen;
    int target;
    charge_table(&b, &friends, &foes);
    gen = b.t.table.characters - 1;
    b.t.table.character[gen].at = at(90, 70);
    b.second.plan[foes].by = (int8_t)gen;
    b.second.plan[foes].initiative = OM_WM_INITIATIVE_NEVER;
    lasting(&b, "dominion", OM_WM_LASTING_NO_CHARGE, 0);
    wizard(&b, friends);
    target = order_target(&b, gen, foes);
    run(&b, TRIALS, 24, &s);
    expect_p("ordered charge under Dominion", s.charged[foes], TRIALS,
             (1 - P_CAST) * two_d6_at_most(target));
}

Test(magic_lasting, no_charge_also_forbids_pursuit_even_when_it_must)
{
    om_wm_table t;
    om_wm_side s;
    om_wm_unit v;
    int u;
    om_wm_table_init(&t, OM_WM_RULES_REV, 0, 0);
    u = om_wm_table_add_unit(&t, OM_WM_RULES_REV, "A", 1, OM_WM_INFANTRY, 3,
                             OM_WM_TABLE_LINE, at(90, 60), 270);
    cr_assert_geq(u, 0);
    memset(&v, 0, sizeof v);
    v.troop = OM_WM_INFANTRY;
    v.stands = v.size = 3;
    v.attacks = 3;
    v.hits = 3;
    v.traits.must_pursue = true;
    om_wm_side_init(&s, &v);
    om_wm_lasting_side(&t, (unsigned)u, &s);
    cr_expect(!s.no_pursue);
    t.unit[u].lasting.kinds = OM_WM_LASTING_NO_CHARGE;
    om_wm_lasting_side(&t, (unsigned)u, &s);
    cr_expect(s.no_pursue);
    cr_expect(!om_wm_lasting_may_charge(&t, (unsigned)u));
}

Test(magic_lasting, dominion_stops_the_pursuit_of_an_engaged_unit)
{
    build b;
    unsigned friends, foes, worked = 0, plain = 0, plain_unresolved = 0;
    om_wm_turn_prepared *p = NULL;
    om_wm_turn_work *w = NULL;
    om_wm_check_failure why;
    om_wm_turn_result r;
    om_dice d;
    begin(&b);
    /* Friends (4 stands of 8 Hits, no Attacks) touch Foes (3 stands of 6
     * Attacks), who win every round and, free to, pursue into a second one,
     * which leaves the combat unresolved (Combat > Pursuit; Unresolved
     * Combat). Under Dominion, cast on the engaged Foes in the Shooting
     * phase, they stand: the combat ends after one round. */
    friends = unit(&b, 0, OM_WM_INFANTRY, 4, 8, 0, 0, 90, 40);
    foes = unit(&b, 1, OM_WM_INFANTRY, 3, 3, 0, 0, 90, 42);
    b.t.unit[friends].side.unit.attacks = 0;
    b.t.unit[foes].side.unit.attacks = 6;
    (void)general(&b, 90, 100);
    lasting(&b, "dominion", OM_WM_LASTING_NO_CHARGE, 0);
    wizard(&b, friends);
    cr_assert(om_wm_table_touching(&b.t.table, friends, foes));
    cr_assert_eq(om_wm_turn_prepare_alloc(&b.t, &why, &p), OM_OK, "%s: %s", why.field,
                 why.reason);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 33);
    for (unsigned i = 0; i < 2000; i++) {
        om_wm_turn_resolve(p, w, &d, &r);
        if (r.spells_worked) {
            worked++;
            cr_assert_eq(r.unit[foes].unresolved, 0, "no pursuit under Dominion");
        } else {
            plain++;
            plain_unresolved += r.unit[foes].unresolved;
        }
    }
    cr_expect_gt(worked, 1500);
    cr_expect_gt(plain_unresolved, plain * 9 / 10, "%u of %u", plain_unresolved, plain);
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

Test(magic_lasting, weird_enchantment_halves_the_pace_of_a_charge)
{
    build b;
    seen s;
    unsigned friends, foes;
    charge_table(&b, &friends, &foes);
    /* Half an infantry pace (10cm) falls short of the 15cm gap. */
    lasting(&b, "weird-enchantment", OM_WM_LASTING_HALF_PACE, 0);
    wizard(&b, friends);
    run(&b, TRIALS, 25, &s);
    expect_p("charge at half pace", s.charged[foes], TRIALS, 1 - P_CAST);
}

/* ---- Shooting at the enchanted unit ---- */

/* Side 1's Shooters (3 stands, 1 shot each, hitting on 4+ in the open) 25cm
 * from side 0's Friends (4 stands of 1 Hit, save `armour`), who have the
 * Wizard. */
static unsigned shooting_table(build *b, unsigned armour, unsigned *shooters)
{
    unsigned friends;
    begin(b);
    friends = unit(b, 0, OM_WM_INFANTRY, 4, 1, armour, 0, 90, 40);
    *shooters = unit(b, 1, OM_WM_INFANTRY, 3, 3, 0, 1, 90, 66);
    (void)general(b, 90, 100);
    return friends;
}

/* Stands lost by Friends: 3 shots at p_spell per shot when the spell works,
 * p_plain when it does not. */
static void expect_losses(const seen *s, unsigned friends, double p_spell, double p_plain)
{
    for (unsigned k = 0; k <= 3; k++) {
        char what[48];
        snprintf(what, sizeof what, "%u stands lost", k);
        expect_p(what, s->lost[friends][k], TRIALS,
                 P_CAST * binom_pmf(3, k, p_spell) + (1 - P_CAST) * binom_pmf(3, k, p_plain));
    }
}

Test(magic_lasting, mists_of_albion_make_shooting_hit_on_5)
{
    build b;
    seen s;
    unsigned shooters, friends = shooting_table(&b, 0, &shooters);
    lasting(&b, "mists-of-albion", OM_WM_LASTING_DEFENDED, 0);
    b.t.magic.spell[0][0].troops = OM_WM_SPELL_TROOP(OM_WM_INFANTRY);
    wizard(&b, friends);
    run(&b, TRIALS, 26, &s);
    expect_losses(&s, friends, 1.0 / 3.0, 0.5);
}

Test(magic_lasting, mork_save_uz_gives_a_5_save_in_place_of_a_worse_one)
{
    build b;
    seen s;
    unsigned shooters, friends = shooting_table(&b, 6, &shooters);
    lasting(&b, "mork-save-uz", OM_WM_LASTING_SAVE, 5);
    wizard(&b, friends);
    run(&b, TRIALS, 27, &s);
    /* 4+ to hit; a 5+ save (4 in 6 fail) or the own 6+ (5 in 6 fail). */
    expect_losses(&s, friends, 0.5 * 4.0 / 6.0, 0.5 * 5.0 / 6.0);
}

Test(magic_lasting, aerial_shield_makes_shooters_need_one_more)
{
    build b;
    seen s;
    unsigned shooters, friends = shooting_table(&b, 0, &shooters);
    lasting(&b, "aerial-shield", OM_WM_LASTING_SHOT_AT, 0);
    wizard(&b, friends);
    run(&b, TRIALS, 28, &s);
    expect_losses(&s, friends, 1.0 / 3.0, 0.5);
}

Test(magic_lasting, aerial_shield_never_makes_a_hit_worse_than_6)
{
    om_wm_table t;
    int u;
    om_wm_table_init(&t, OM_WM_RULES_REV, 0, 0);
    u = om_wm_table_add_unit(&t, OM_WM_RULES_REV, "A", 0, OM_WM_INFANTRY, 3,
                             OM_WM_TABLE_LINE, at(90, 60), 90);
    cr_assert_geq(u, 0);
    cr_expect_eq(om_wm_lasting_to_hit(&t, (unsigned)u, 4), 4u);
    t.unit[u].lasting.kinds = OM_WM_LASTING_SHOT_AT;
    cr_expect_eq(om_wm_lasting_to_hit(&t, (unsigned)u, 4), 5u);
    cr_expect_eq(om_wm_lasting_to_hit(&t, (unsigned)u, 5), 6u);
    cr_expect_eq(om_wm_lasting_to_hit(&t, (unsigned)u, 6), 6u, "fortified: still 6+");
}

Test(magic_lasting, tooth_cracker_stops_drive_backs_and_their_confusion)
{
    build b;
    seen s;
    double p = 0;
    unsigned shooters, friends = shooting_table(&b, 0, &shooters);
    lasting(&b, "tooth-cracker", OM_WM_LASTING_STEADY, 0);
    wizard(&b, friends);
    run(&b, TRIALS, 29, &s);
    /* Not cast: h hits (Binomial(3, 1/2)) roll h drive-back dice, any 6
     * confusing (Shooting > Driving Back Enemies); cast: none. */
    for (unsigned h = 1; h <= 3; h++)
        p += binom_pmf(3, h, 0.5) * (1 - pow(5.0 / 6.0, h));
    expect_p("confused by the drive back", s.confused[friends], TRIALS, (1 - P_CAST) * p);
}

/* ---- A second volley ---- */

Test(magic_lasting, heavens_fire_adds_a_volley_at_one_worse_to_hit)
{
    build b;
    om_wm_turn_prepared *p = NULL;
    om_wm_turn_work *w = NULL;
    om_wm_check_failure why;
    om_wm_turn_result r;
    om_dice d;
    unsigned long lost[7] = {0};
    unsigned archers, foes;
    om_wm_spell sp = {.id = "heaven-s-fire", .cast = 2, .range_cm = 30,
                      .effect = OM_WM_SPELL_VOLLEY, .attacks = 1, .amount = 1,
                      .troops = OM_WM_SPELL_TROOP(OM_WM_INFANTRY) |
                                OM_WM_SPELL_TROOP(OM_WM_CAVALRY)};
    begin(&b);
    /* Archers (3 stands, 1 shot each, 4+ in the open) 24cm from Foes (6
     * stands of 1 Hit, no save, never driven back: every hit a stand). */
    archers = unit(&b, 0, OM_WM_INFANTRY, 3, 3, 0, 1, 90, 40);
    foes = unit(&b, 1, OM_WM_INFANTRY, 6, 1, 0, 0, 90, 66);
    b.t.unit[foes].side.unit.traits.no_drive_back = true;
    b.t.magic.spell[0][b.t.magic.n[0]++] = sp;
    wizard(&b, archers);
    cr_assert_eq(om_wm_turn_prepare_alloc(&b.t, &why, &p), OM_OK, "%s: %s", why.field,
                 why.reason);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 34);
    for (unsigned long i = 0; i < TRIALS; i++) {
        om_wm_turn_resolve(p, w, &d, &r);
        lost[r.unit[foes].stands_lost]++;
    }
    /* Cast: Binomial(3, 1/2) + Binomial(3, 1/3); not: Binomial(3, 1/2). */
    for (unsigned k = 0; k <= 6; k++) {
        char what[48];
        double twice = 0;
        for (unsigned a = 0; a <= 3 && a <= k; a++)
            if (k - a <= 3)
                twice += binom_pmf(3, a, 0.5) * binom_pmf(3, k - a, 1.0 / 3.0);
        snprintf(what, sizeof what, "%u stands lost", k);
        expect_p(what, lost[k], TRIALS,
                 P_CAST * twice + (1 - P_CAST) * (k <= 3 ? binom_pmf(3, k, 0.5) : 0.0));
    }
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

Test(magic_lasting, heavens_fire_needs_a_friendly_shooter_of_its_troop_types)
{
    build b;
    seen s;
    unsigned friends;
    om_wm_spell sp = {.id = "heaven-s-fire", .cast = 2, .range_cm = 30,
                      .effect = OM_WM_SPELL_VOLLEY, .attacks = 1, .amount = 1,
                      .troops = OM_WM_SPELL_TROOP(OM_WM_INFANTRY) |
                                OM_WM_SPELL_TROOP(OM_WM_CAVALRY)};
    begin(&b);
    friends = unit(&b, 0, OM_WM_INFANTRY, 3, 3, 0, 0, 90, 40); /* no shooting */
    (void)unit(&b, 1, OM_WM_INFANTRY, 3, 3, 0, 0, 90, 66);
    (void)general(&b, 90, 100);
    b.t.magic.spell[0][b.t.magic.n[0]++] = sp;
    wizard(&b, friends);
    run(&b, 100, 35, &s);
    cr_expect_eq(s.cast, 0, "no friendly shooter: no target");
    (void)unit(&b, 0, OM_WM_CHARIOT, 3, 3, 0, 1, 120, 40);
    run(&b, 100, 35, &s);
    cr_expect_eq(s.cast, 0, "chariots: not Heaven's Fire's");
    (void)unit(&b, 0, OM_WM_CAVALRY, 3, 3, 0, 1, 70, 40);
    run(&b, 100, 35, &s);
    cr_expect_eq(s.cast, 100, "a cavalry shooter with a target: cast every turn");
}

/* ---- A move as if ordered ---- */

/* Side 0's Knights (K) planned to charge Foes 14cm ahead but ordered by no
 * one, with a Hero joined; the Wizard's unit beside them. */
static void move_table(build *b, unsigned *knights, unsigned *foes, unsigned *hero)
{
    unsigned friends;
    int c;
    om_wm_spell sp = {.id = "voice-of-command", .cast = 2, .range_cm = 30,
                      .effect = OM_WM_SPELL_MOVE, .attacks = 1};
    begin(b);
    friends = unit(b, 0, OM_WM_INFANTRY, 3, 3, 0, 0, 65, 40);
    *knights = unit(b, 0, OM_WM_INFANTRY, 3, 3, 0, 0, 90, 40);
    *foes = unit(b, 1, OM_WM_INFANTRY, 3, 3, 0, 0, 90, 56);
    b->t.command.plan[*knights] = (om_wm_plan){.kind = OM_WM_PLAN_CHARGE,
                                               .target = (int8_t)*foes, .by = -1,
                                               .initiative = OM_WM_INITIATIVE_NEVER};
    b->t.magic.spell[0][b->t.magic.n[0]++] = sp;
    wizard(b, friends);
    c = om_wm_table_add_character(&b->t.table, "Hero", 0, OM_WM_HERO, 8,
                                  b->t.table.unit[*knights].centre);
    cr_assert_geq(c, 0);
    b->t.table.character[c].joined = (int8_t)*knights;
    b->t.table.character[c].follow = (int8_t)*knights;
    *hero = (unsigned)c;
}

Test(magic_lasting, voice_of_command_moves_a_unit_by_its_plan_without_an_order)
{
    build b;
    unsigned knights, foes, hero, charged = 0, worked = 0;
    om_wm_turn_prepared *p = NULL;
    om_wm_turn_work *w = NULL;
    om_wm_check_failure why;
    om_wm_turn_result r;
    om_dice d;
    move_table(&b, &knights, &foes, &hero);
    cr_assert_eq(om_wm_turn_prepare_alloc(&b.t, &why, &p), OM_OK, "%s: %s", why.field,
                 why.reason);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 36);
    for (unsigned long i = 0; i < TRIALS; i++) {
        om_wm_turn_resolve(p, w, &d, &r);
        charged += r.unit[knights].charged;
        worked += r.spells_worked;
        /* Charged only by the spell; the Hero stays behind and leaves them. */
        cr_assert_eq(r.unit[knights].charged, r.spells_worked);
        cr_assert_eq(om_wm_turn_work_table(w)->character[hero].joined,
                     r.spells_worked ? -1 : (int)knights);
    }
    expect_p("charge as if ordered", charged, TRIALS, P_CAST);
    cr_expect_eq(worked, charged);
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

Test(magic_lasting, wings_in_the_jungle_moves_the_wizards_unit_and_him_with_it)
{
    build b;
    unsigned knights, foes, hero, moved = 0;
    om_wm_turn_prepared *p = NULL;
    om_wm_turn_work *w = NULL;
    om_wm_check_failure why;
    om_wm_turn_result r;
    om_dice d;
    om_wm_vec wizard_at, knights_at;
    move_table(&b, &knights, &foes, &hero);
    /* An advance of 8cm that stops short of the Foes: no combat moves them
     * after the spell's. */
    b.t.command.plan[knights] = (om_wm_plan){.kind = OM_WM_PLAN_ADVANCE, .target = -1,
                                             .goal = at(90, 48), .by = -1,
                                             .initiative = OM_WM_INITIATIVE_NEVER};
    /* Wings in the Jungle (Revolution army lists, Lizardmen > Spells): the
     * Wizard (character 0) is with the Knights and moves with them. */
    b.t.magic.spell[0][0] = (om_wm_spell){.id = "wings-in-the-jungle", .cast = 2,
                                          .effect = OM_WM_SPELL_MOVE, .attacks = 1,
                                          .own_unit = true, .with_caster = true};
    b.t.table.character[0].joined = (int8_t)knights;
    b.t.table.character[0].follow = (int8_t)knights;
    b.t.table.character[0].at = b.t.table.unit[knights].centre;
    wizard_at = b.t.table.character[0].at;
    knights_at = b.t.table.unit[knights].centre;
    cr_assert_eq(om_wm_turn_prepare_alloc(&b.t, &why, &p), OM_OK, "%s: %s", why.field,
                 why.reason);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 38);
    for (unsigned long i = 0; i < TRIALS; i++) {
        const om_wm_table *t;
        om_wm_turn_resolve(p, w, &d, &r);
        t = om_wm_turn_work_table(w);
        moved += r.unit[knights].moved;
        cr_assert_eq(r.unit[knights].moved, r.spells_worked);
        cr_assert_eq(r.unit[knights].engaged, 0);
        /* The Wizard stays joined and goes as far as they did; the Hero
         * stays behind and leaves them. */
        cr_assert_eq(t->character[0].joined, (int)knights);
        cr_assert_eq(t->character[hero].joined, r.spells_worked ? -1 : (int)knights);
        if (r.spells_worked) {
            cr_assert_float_eq(t->character[0].at.y - wizard_at.y,
                               t->unit[knights].centre.y - knights_at.y, 1e-9);
            cr_assert_gt(t->unit[knights].centre.y - knights_at.y, 1.0);
        }
    }
    expect_p("his unit's advance as if ordered", moved, TRIALS, P_CAST);
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

Test(magic_lasting, a_move_as_if_ordered_needs_a_plan_that_moves)
{
    build b;
    seen s;
    unsigned knights, foes, hero;
    move_table(&b, &knights, &foes, &hero);
    b.t.command.plan[knights].kind = OM_WM_PLAN_HOLD;
    run(&b, 100, 37, &s);
    cr_expect_eq(s.cast, 0, "a unit planned to hold: no target");
}

/* ---- Targets and expiry ---- */

Test(magic_lasting, traitor_kin_falls_only_on_cavalry_chariots_and_monsters)
{
    build b;
    seen s;
    unsigned friends;
    begin(&b);
    friends = unit(&b, 0, OM_WM_INFANTRY, 3, 3, 0, 0, 90, 40);
    (void)unit(&b, 1, OM_WM_INFANTRY, 3, 3, 0, 0, 90, 60);
    (void)general(&b, 90, 100);
    lasting(&b, "traitor-kin", OM_WM_LASTING_COMMAND | OM_WM_LASTING_NO_INITIATIVE, 1);
    b.t.magic.spell[0][0].troops = OM_WM_SPELL_TROOP(OM_WM_CAVALRY) |
                                   OM_WM_SPELL_TROOP(OM_WM_CHARIOT) |
                                   OM_WM_SPELL_TROOP(OM_WM_MONSTER);
    wizard(&b, friends);
    run(&b, 200, 30, &s);
    cr_expect_eq(s.cast, 0, "no cavalry, chariots or monsters: no target");
    (void)unit(&b, 1, OM_WM_CAVALRY, 3, 3, 0, 0, 106, 60);
    run(&b, 200, 30, &s);
    cr_expect_eq(s.cast, 200, "a cavalry unit in range: cast every turn");
}

Test(magic_lasting, the_turn_ends_an_effect_as_its_caster_moves_again)
{
    build b;
    unsigned friends, foes, worked = 0;
    om_wm_turn_prepared *p = NULL;
    om_wm_turn_work *w = NULL;
    om_wm_check_failure why;
    om_wm_turn_result r;
    om_dice d;
    charge_table(&b, &friends, &foes);
    lasting(&b, "dominion", OM_WM_LASTING_NO_CHARGE, 0);
    wizard(&b, friends);
    cr_assert_eq(om_wm_turn_prepare_alloc(&b.t, &why, &p), OM_OK);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 32);
    for (unsigned i = 0; i < 200; i++) {
        om_wm_turn_begin(p, w);
        om_wm_turn_play(p, &b.t.command, w, &d, &r);
        if (r.spells_worked == 0)
            continue;
        worked++;
        cr_assert(om_wm_turn_work_table(w)->unit[foes].lasting.kinds & OM_WM_LASTING_NO_CHARGE);
        om_wm_turn_play(p, &b.second, w, &d, &r);
        cr_assert_eq(r.unit[foes].charged, 0, "Dominion lasts through the enemy's turn");
        /* Side 0's next turn: the effect is gone, so the Wizard casts it
         * again (he never casts a spell on a unit it would not change). */
        om_wm_turn_play(p, &b.t.command, w, &d, &r);
        cr_assert_eq(r.spells_cast, 1);
        cr_assert_eq(!!(om_wm_turn_work_table(w)->unit[foes].lasting.kinds &
                        OM_WM_LASTING_NO_CHARGE),
                     r.spells_worked);
    }
    cr_expect_gt(worked, 100);
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

Test(magic_lasting, every_effect_ends_as_its_casters_next_turn_starts)
{
    om_wm_table t;
    int a, e, c;
    om_wm_table_init(&t, OM_WM_RULES_REV, 0, 0);
    a = om_wm_table_add_unit(&t, OM_WM_RULES_REV, "A", 0, OM_WM_INFANTRY, 3,
                             OM_WM_TABLE_LINE, at(90, 30), 90);
    e = om_wm_table_add_unit(&t, OM_WM_RULES_REV, "E", 1, OM_WM_INFANTRY, 3,
                             OM_WM_TABLE_LINE, at(90, 80), 270);
    c = om_wm_table_add_character(&t, "Wizard", 0, OM_WM_WIZARD, 7, at(90, 30));
    cr_assert(a >= 0 && e >= 0 && c >= 0);
    /* Side 0's spells: a save on its own unit, Eerie Mist on the enemy's, an
     * aura; side 1's: Dominion on side 0's unit. */
    t.unit[a].lasting = (om_wm_table_lasting){
        .kinds = OM_WM_LASTING_SAVE | OM_WM_LASTING_NO_CHARGE, .save = 5};
    t.unit[e].lasting = (om_wm_table_lasting){
        .kinds = OM_WM_LASTING_COMMAND | OM_WM_LASTING_NO_INITIATIVE, .command = 1};
    t.character[c].aura = (om_wm_table_lasting){.kinds = OM_WM_LASTING_COMMAND, .command = 1,
                                                .aura_cm = 30};
    /* Side 1's turn starts: its Dominion on side 0's unit ends; side 0's
     * spells last through it. */
    om_wm_lasting_expire(&t, 1);
    cr_expect_eq(t.unit[a].lasting.kinds, OM_WM_LASTING_SAVE);
    cr_expect_eq(t.unit[e].lasting.kinds, OM_WM_LASTING_COMMAND | OM_WM_LASTING_NO_INITIATIVE);
    cr_expect_eq(t.character[c].aura.aura_cm, 30);
    /* Side 0's next turn: all of them end. */
    om_wm_lasting_expire(&t, 0);
    cr_expect_eq(t.unit[a].lasting.kinds, 0);
    cr_expect_eq(t.unit[a].lasting.save, 0);
    cr_expect_eq(t.unit[e].lasting.kinds, 0);
    cr_expect_eq(t.unit[e].lasting.command, 0);
    cr_expect_eq(t.character[c].aura.aura_cm, 0);
}

Test(magic_lasting, checks_refuse_mixed_or_empty_lasting_spells)
{
    build b;
    om_wm_check_failure why;
    unsigned friends;
    begin(&b);
    friends = unit(&b, 0, OM_WM_INFANTRY, 3, 3, 0, 0, 90, 40);
    lasting(&b, "mixed", OM_WM_LASTING_COMMAND | OM_WM_LASTING_DEFENDED, 1);
    wizard(&b, friends);
    cr_expect_eq(om_wm_turn_check(&b.t, &why), OM_EINVAL);
    cr_expect_str_eq(why.field, "magic.spells[0][0].lasting");
    b.t.magic.spell[0][0].lasting = 0;
    cr_expect_eq(om_wm_turn_check(&b.t, &why), OM_EINVAL);
    b.t.magic.spell[0][0].lasting = OM_WM_LASTING_SAVE;
    b.t.magic.spell[0][0].amount = 7;
    cr_expect_eq(om_wm_turn_check(&b.t, &why), OM_EINVAL);
    cr_expect_str_eq(why.field, "magic.spells[0][0].amount");
    b.t.magic.spell[0][0].amount = 5;
    cr_expect_eq(om_wm_turn_check(&b.t, &why), OM_OK, "%s: %s", why.field, why.reason);
    b.t.magic.spell[0][0].aura = true;
    cr_expect_eq(om_wm_turn_check(&b.t, &why), OM_EINVAL);
    cr_expect_str_eq(why.field, "magic.spells[0][0].aura");
}

Test(magic_lasting, the_table_of_spell_effects_plays_the_lasting_spells)
{
    static const char *const ids[] = {
        "anger-of-the-gods", "sand-storm", "downpour", "eerie-mist", "traitor-kin",
        "dominion", "mazdamundi-s-revenge", "doom-and-despair", "lion-dogs-attack",
        "mists-of-albion", "tree-singing", "sanctuary", "mork-save-uz", "tooth-cracker",
        "weird-enchantment", "divine-curse"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const om_wm_spell_rule *r = om_wm_spell_rule_find("warmaster-revolution", "any", ids[i]);
        cr_assert_not_null(r, "%s", ids[i]);
        cr_expect_eq(r->effect, OM_WM_SPELL_LASTING, "%s", ids[i]);
        cr_expect_neq(r->lasting, 0, "%s", ids[i]);
    }
    cr_expect_eq(
        om_wm_spell_rule_find("warmaster-revolution", "bretonnia", "aerial-shield")->effect,
        OM_WM_SPELL_LASTING);
    cr_expect_eq(om_wm_spell_rule_find("warmaster-1.1", "bretonnian", "aerial-shield")->effect,
                 OM_WM_SPELL_NOT_MODELLED, "1.1: re-rolled saves, not modelled");
}
