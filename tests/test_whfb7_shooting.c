/*
 * test_whfb7_shooting.c: shooting and war machines of the WHFB 7th edition
 * engine (WHFB 7th edition, Shooting; Weapons > Missile Weapons; Movement >
 * Stand & Shoot; Psychology > Panic; Characters Inside Units; War Machines),
 * against exact values: the to-hit modifiers, volleys as Binomial(shots, p),
 * panic at 25% casualties, the E31 sharing of hits, stand & shoot and the
 * charger's panic, and the war machines' dice by enumeration (artillery and
 * scatter dice, the bolt thrower's ranks), with the digest's worked examples
 * E10, E33-E36 and D8, D9.
 */
#include "test_whfb7.h"
#include "wh7_int.h"

#define ARCHER prof("Archer", 4, 3, 3, 3, 3, 1, 3, 1, 7)
#define ELF_RIDER prof("Reaver", 5, 4, 4, 3, 3, 1, 5, 1, 8)

/* 10 models of `shooter` in two ranks of 5 shoot `weapon` at 20 Orcs. */
static om_wh7_combat volley(om_wh7_profile shooter, om_wh7_missile weapon)
{
    om_wh7_side a = side_of(unit_of(OM_WH7_INFANTRY, shooter, 10, 5));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, ORC_BOY, 20, 5));
    a.unit.equipment.missile = weapon;
    return combat_of(OM_WH7_KIND_VOLLEY, a, b);
}

static void expect_volley_kills(const om_wh7_combat *c, unsigned n, double p, bool plain,
                                const char *what)
{
    om_wh7_prepared *pr = prepare_or_die(c);
    tally t = run_trials(pr, plain ? PLAIN_TRIALS : TRIALS / 2, plain, NULL, NULL);
    expect_mean(t.slain[1], t.n, n * p, n * p * (1 - p), what);
    om_wh7_prepared_free(pr);
}

Test(whfb7_shooting, to_hit_modifiers)
{
    om_wh7_shot_case c;
    memset(&c, 0, sizeof c);
    c.bs = 3;
    cr_expect_eq(om_wh7_shoot_required(&c), 4);
    c.moved = true;
    cr_expect_eq(om_wh7_shoot_required(&c), 5, "moved -1");
    c.thrown_or_pistol = true;
    cr_expect_eq(om_wh7_shoot_required(&c), 4, "thrown weapons ignore moving");
    c.long_range = true;
    cr_expect_eq(om_wh7_shoot_required(&c), 4, "...and long range");
    c.thrown_or_pistol = false;
    cr_expect_eq(om_wh7_shoot_required(&c), 6);
    c.cover = OM_WH7_COVER_HARD;
    cr_expect_eq(om_wh7_shoot_required(&c), 8, "hard cover -2");
    c.large_target = true;
    cr_expect_eq(om_wh7_shoot_required(&c), 7, "large target +1");
    memset(&c, 0, sizeof c);
    c.bs = 4;
    c.cover = OM_WH7_COVER_SOFT;
    c.small_target = true;
    c.multiple = true;
    cr_expect_eq(om_wh7_shoot_required(&c), 6, "soft cover, small target, multiple shots");
    /* E10: Goblins BS3 stand & shoot at long range: 6s. */
    memset(&c, 0, sizeof c);
    c.bs = 3;
    c.stand_and_shoot = true;
    c.long_range = true;
    cr_expect_eq(om_wh7_shoot_required(&c), 6);
    cr_expect_float_eq(om_wh7_shoot_hit_probability(om_wh7_shoot_required(&c)), 1.0 / 6, EXACT);
}

Test(whfb7_shooting, volley_against_binomial, .timeout = 60)
{
    /* Five archers in the front rank: BS3 4+, S3 vs T4 5+, no armour: 1/6. */
    om_wh7_combat c = volley(ARCHER, OM_WH7_MISSILE_BOW);
    expect_volley_kills(&c, 5, 1.0 / 6, false, "bows");
    expect_volley_kills(&c, 5, 1.0 / 6, true, "bows, plain dice");
    /* On a hill one more rank shoots (Missile Fire from Hills). */
    c.side[0].on_hill = true;
    expect_volley_kills(&c, 10, 1.0 / 6, false, "from a hill");
    /* Long range and soft cover: 6s to hit. */
    c.side[0].on_hill = false;
    c.side[0].long_range = true;
    c.side[1].cover = OM_WH7_COVER_SOFT;
    expect_volley_kills(&c, 5, 1.0 / 6 / 3, false, "long range, cover");
    /* A large target: +1 (3+). */
    c.side[0].long_range = false;
    c.side[1].cover = OM_WH7_COVER_NONE;
    c.side[1].unit.traits.rules = OM_WH7_RULE_LARGE_TARGET;
    expect_volley_kills(&c, 5, 4.0 / 6 / 3, false, "large target");
}

Test(whfb7_shooting, weapons, .timeout = 60)
{
    om_wh7_combat c = volley(ARCHER, OM_WH7_MISSILE_HANDGUN);
    om_wh7_prepared *p;
    tally t;
    /* Handguns S4 armour piercing against Orcs in light armour and shield
     * (5+): S4 -1, AP -1: 7+, no save. 4+ to hit, 4+ to wound. */
    c.side[1].unit.equipment.armour = OM_WH7_ARMOUR_LIGHT;
    c.side[1].unit.equipment.shield = true;
    expect_volley_kills(&c, 5, 1.0 / 2 * 1.0 / 2, false, "handguns");
    /* A crossbow (S4, not AP): the 5+ save becomes 6+. */
    c.side[0].unit.equipment.missile = OM_WH7_MISSILE_CROSSBOW;
    expect_volley_kills(&c, 5, 1.0 / 2 * 1.0 / 2 * 5.0 / 6, false, "crossbows");
    /* Move-or-fire: no shot after moving. */
    c.side[0].moved = true;
    p = prepare_or_die(&c);
    t = run_trials(p, 2000, false, NULL, NULL);
    cr_expect_float_eq(t.slain[1], 0.0, EXACT);
    om_wh7_prepared_free(p);
    /* Repeater crossbows: 2 shots each at -1 (5+), or 1 at 4+. S3 vs T4 5+. */
    c = volley(ARCHER, OM_WH7_MISSILE_REPEATER_CROSSBOW);
    expect_volley_kills(&c, 5, 1.0 / 2 / 3, false, "one shot");
    c.side[0].multiple_shots = true;
    expect_volley_kills(&c, 10, 1.0 / 3 / 3, false, "multiple shots");
    /* Slings fire twice only within 9"; at 12" (long range for an 18"
     * sling) once at 5+. */
    c = volley(ARCHER, OM_WH7_MISSILE_SLING);
    c.side[0].multiple_shots = true;
    c.side[0].target_in = 12;
    expect_volley_kills(&c, 5, 1.0 / 3 / 3, false, "sling at 12\"");
    c.side[0].target_in = 8;
    expect_volley_kills(&c, 10, 1.0 / 3 / 3, false, "sling at 8\"");
    /* Throwing axes: the user's Strength + 1, no moving penalty. */
    c = volley(ARCHER, OM_WH7_MISSILE_THROWING_AXES);
    c.side[0].moved = true;
    expect_volley_kills(&c, 5, 1.0 / 2 * 1.0 / 2, false, "throwing axes S4");
}

Test(whfb7_shooting, poisoned_shots, .timeout = 60)
{
    /* Skinks BS3 with poisoned javelins... bows here: 4+, a 6 wounds; S3 vs
     * T4 5+: 1/6 + 2/6 * 1/3. At 7+ (a 6 then 4+) poison has no effect. */
    om_wh7_combat c = volley(ARCHER, OM_WH7_MISSILE_BOW);
    c.side[0].unit.traits.rules = OM_WH7_RULE_POISON_SHOTS;
    expect_volley_kills(&c, 5, 1.0 / 6 + 2.0 / 6 / 3, false, "poison");
    expect_volley_kills(&c, 5, 1.0 / 6 + 2.0 / 6 / 3, true, "poison, plain dice");
    c.side[0].long_range = true;
    c.side[1].cover = OM_WH7_COVER_HARD;
    expect_volley_kills(&c, 5, 1.0 / 12 / 3, false, "7+: no poison");
}

Test(whfb7_shooting, panic_at_a_quarter, .timeout = 60)
{
    /* 10 bows (5 shooting, 1/6 each... 20 shooters here) at 8 Orcs (Ld7):
     * losing 2 or more (25%) makes them test; failing (15/36) they flee. */
    om_wh7_combat c = volley(ARCHER, OM_WH7_MISSILE_BOW);
    om_wh7_prepared *p;
    tally t;
    double p2 = 0;
    c.side[0].unit.models = 20;
    c.side[0].shooters = 20;
    c.side[1].unit.models = 8;
    c.side[1].unit.files = 4;
    for (unsigned k = 2; k <= 20; k++)
        p2 += binom_pmf(k, 20, 1.0 / 6);
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    /* All 8 slain (a destroyed unit does not test) is negligible here. */
    expect_frequency(t.panicked[1], t.n, p2 * 15.0 / 36, "panic");
    expect_frequency(t.fled[1], t.n, p2 * 15.0 / 36, "fled");
    om_wh7_prepared_free(p);
    /* Immune to psychology: never. */
    c.side[1].unit.traits.rules = OM_WH7_RULE_ITP;
    p = prepare_or_die(&c);
    t = run_trials(p, 10000, false, NULL, NULL);
    cr_expect_eq(t.panicked[1], 0u);
    om_wh7_prepared_free(p);
}

Test(whfb7_shooting, hits_shared_with_characters_e31, .timeout = 60)
{
    /* 4 Orcs and a Big Boss (T4, no save, 1 Wound) take hits from 12
     * crossbows (BS3 4+): with fewer than 5 rank and file each of the 5
     * models gets hits/5, the rest one each to a random model (a D6,
     * re-rolling 6s: E31). The Boss is slain if any of his hits wounds (S4
     * vs T4: 1/2). Exact: sum over hits h of P(h) E[1 - (1/2)^(h/5 +
     * Bin(h mod 5, 1/5))]. */
    om_wh7_combat c = volley(ARCHER, OM_WH7_MISSILE_CROSSBOW);
    om_wh7_prepared *p;
    tally t;
    double exact = 0;
    c.side[0].unit.models = 12;
    c.side[0].shooters = 12;
    c.side[1].unit.models = 4;
    c.side[1].unit.files = 5;
    c.side[1].unit.characters = 1;
    c.side[1].unit.character[0].profile = prof("Big Boss", 4, 5, 3, 4, 4, 1, 4, 3, 8);
    for (unsigned h = 0; h <= 12; h++)
        for (unsigned j = 0; j <= h % 5; j++)
            exact += binom_pmf(h, 12, 0.5) * binom_pmf(j, h % 5, 0.2) * (1 - pow(0.5, h / 5 + j));
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    expect_frequency(t.chars_slain[1], t.n, exact, "a Boss among 4 Orcs");
    t = run_trials(p, PLAIN_TRIALS, true, NULL, NULL);
    expect_frequency(t.chars_slain[1], t.n, exact, "a Boss among 4 Orcs, plain dice");
    om_wh7_prepared_free(p);
    /* With 5 rank and file the character cannot be shot. */
    c.side[1].unit.models = 5;
    c.side[1].unit.files = 6;
    p = prepare_or_die(&c);
    t = run_trials(p, 20000, false, NULL, NULL);
    cr_expect_eq(t.chars_slain[1], 0u, "five rank and file shield the character");
    om_wh7_prepared_free(p);
}

/* E10's charge: 10 Goblins (BS3, short bows S3) stand & shoot at long range
 * at 5 Elf cavalry in light armour (5+ mounted): 1/18 a shot. */
static om_wh7_combat goblins_shoot_elves(void)
{
    om_wh7_side a = side_of(unit_of(OM_WH7_CAVALRY, ELF_RIDER, 5, 5));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, GOBLIN, 10, 10));
    a.unit.mount.profile = prof("Elven Steed", 9, 3, 0, 3, 3, 1, 4, 1, 5);
    a.unit.equipment.armour = OM_WH7_ARMOUR_LIGHT;
    a.charging = true;
    /* Goblins of no Attacks: the Elves' losses are the volley's alone. */
    b.unit.profile.a = 0;
    b.unit.equipment.missile = OM_WH7_MISSILE_SHORTBOW;
    b.response = OM_WH7_RESPONSE_STAND_AND_SHOOT;
    b.long_range = true;
    return combat_of(OM_WH7_KIND_COMBAT, a, b);
}

Test(whfb7_shooting, stand_and_shoot_e10, .timeout = 60)
{
    /* Losing 2 to 4 of the 5 (25% or more), the Elves (Ld8) test for panic
     * at once and, failing (10/36), flee before contact; all 5 slain, the
     * charge is over. */
    om_wh7_combat c = goblins_shoot_elves();
    om_wh7_prepared *p = prepare_or_die(&c);
    tally t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    double panic = 0, gone = 0;
    for (unsigned k = 2; k <= 4; k++)
        panic += binom_pmf(k, 10, 1.0 / 18) * 10.0 / 36;
    for (unsigned k = 5; k <= 10; k++)
        gone += binom_pmf(k, 10, 1.0 / 18);
    expect_mean(t.slain[0], t.n, 10.0 / 18, 10.0 / 18 * 17 / 18, "E10: 1/18 a shot");
    expect_mean(t.hits[0], t.n, 10.0 / 6, 10.0 / 6 * 5 / 6, "6s to hit");
    expect_frequency(t.panicked[0], t.n, panic, "the charger panics");
    expect_frequency(t.charged, t.n, 1 - panic - gone, "the charge goes in");
    om_wh7_prepared_free(p);
}

Test(whfb7_shooting, stand_and_shoot_options_a27_a28, .timeout = 60)
{
    /* A27: repeater crossbows at a charger fire twice each, at -1 -1 (6+),
     * or once with the option (5+). S3 vs T3 4+, 5+ save: 1/2 * 4/6. */
    om_wh7_combat c = goblins_shoot_elves();
    om_wh7_prepared *p;
    tally t;
    c.side[1].long_range = false;
    c.side[1].unit.equipment.missile = OM_WH7_MISSILE_REPEATER_CROSSBOW;
    c.side[1].multiple_shots = true;
    p = prepare_or_die(&c);
    cr_expect_eq(p->volley[1][WH7_VOLLEY_STAND].shots, 20u);
    cr_expect_eq(p->volley[1][WH7_VOLLEY_STAND].hit.hit, 6u);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    expect_mean(t.hits[0], t.n, 20.0 / 6, 20.0 / 6 * 5 / 6, "multiple shots at a charger, 6s");
    om_wh7_prepared_free(p);
    c.options.no_multiple_stand_and_shoot = true;
    p = prepare_or_die(&c);
    cr_expect_eq(p->volley[1][WH7_VOLLEY_STAND].shots, 10u);
    cr_expect_eq(p->volley[1][WH7_VOLLEY_STAND].hit.hit, 5u);
    om_wh7_prepared_free(p);
    /* A28: crossbows (move-or-fire) stand & shoot unless the option forbids. */
    c = goblins_shoot_elves();
    c.side[1].unit.equipment.missile = OM_WH7_MISSILE_CROSSBOW;
    p = prepare_or_die(&c);
    cr_expect(p->volley[1][WH7_VOLLEY_STAND].present);
    om_wh7_prepared_free(p);
    c.options.no_move_or_fire_stand_and_shoot = true;
    p = prepare_or_die(&c);
    cr_expect(!p->volley[1][WH7_VOLLEY_STAND].present);
    t = run_trials(p, 2000, false, NULL, NULL);
    cr_expect_eq(t.hits[0], 0u);
    om_wh7_prepared_free(p);
}

/* ---- War machines ---- */

Test(whfb7_shooting, artillery_die_and_cannon_path_e33_d9)
{
    /* D9: faces 2, 4, 6, 8, 10 and a misfire (1/6); the mean without a
     * misfire is 6". */
    unsigned sum = 0;
    for (unsigned f = 1; f <= 5; f++)
        sum += om_wh7_artillery_face(f);
    cr_expect_eq(sum, 30u);
    cr_expect_eq(om_wh7_artillery_face(6), 0u);
    /* E33: guess 12", artillery 4: the ball lands at 16" and bounces 8 to
     * 24": a column of ranks 1" deep from 16" to 26" loses ranks 16-24. */
    cr_expect_eq(om_wh7_cannon_ranks(16, 1, 10, 12 + 4, 8, false), 8u, "ranks 16-17 to 23-24");
    cr_expect_eq(om_wh7_cannon_ranks(20, 1, 4, 12 + 4, 8, false), 4u, "from 16 through 20-24");
    cr_expect_eq(om_wh7_cannon_ranks(20, 1, 4, 12 + 6, 4, false), 2u, "18 to 22: two ranks");
    cr_expect_eq(om_wh7_cannon_ranks(20, 1, 4, 12 + 2, 4, false), 0u, "14 to 18: short");
    cr_expect_eq(om_wh7_cannon_ranks(20, 1, 4, 22.5, 0, true), 1u, "stuck in the third rank");
    cr_expect_eq(om_wh7_cannon_ranks(20, 1, 4, 25, 0, true), 0u, "stuck behind");
}

Test(whfb7_shooting, cannon_against_enumeration, .timeout = 60)
{
    /* A Great Cannon (crew of 3) fires at 20 Orcs, 5 wide, 20mm deep ranks,
     * whose front is 20" away; guess 17". Every (landing, bounce) pair of
     * artillery dice is enumerated: each rank crossed loses a model (S10 vs
     * T4 2+, no armour save). */
    om_wh7_side a = side_of(unit_of(OM_WH7_WAR_MACHINE, prof("Crew", 4, 3, 3, 3, 3, 1, 3, 1, 7), 3, 3));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, ORC_BOY, 20, 5));
    om_wh7_combat c;
    om_wh7_prepared *p;
    tally t;
    double mean = 0, ex2 = 0, depth = 20 / 25.4;
    a.machine = OM_WH7_MACHINE_GREAT_CANNON;
    a.target_in = 20;
    a.guess_in = 17;
    c = combat_of(OM_WH7_KIND_VOLLEY, a, b);
    for (unsigned f = 1; f <= 5; f++)
        for (unsigned g = 1; g <= 6; g++) {
            unsigned hits = om_wh7_cannon_ranks(20, depth, 4, 17 + 2.0 * f,
                                                g == 6 ? 0 : 2.0 * g, g == 6);
            /* kills ~ Bin(hits, 5/6) */
            double m = hits * 5.0 / 6, v = hits * 5.0 / 36;
            mean += m / 36;
            ex2 += (v + m * m) / 36;
        }
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    expect_mean(t.slain[1], t.n, mean, ex2 - mean * mean, "cannon kills");
    expect_frequency(t.misfire[1], t.n, 1.0 / 36, "misfire chart 1: destroyed");
    expect_frequency(t.destroyed[0], t.n, 1.0 / 36, "the cannon blows up");
    t = run_trials(p, PLAIN_TRIALS, true, NULL, NULL);
    expect_mean(t.slain[1], t.n, mean, ex2 - mean * mean, "cannon kills, plain dice");
    om_wh7_prepared_free(p);
}

Test(whfb7_shooting, round_template_e35)
{
    /* E35 (Diagram 93.1): a 3" template centred on a model in a block of
     * 20mm bases: that model at double Strength, 4 wholly under it, 16
     * partly. */
    om_wh7_template_cover cov;
    double w = 20 / 25.4;
    /* 7 x 7 block, front at 10", centre on the middle model (rank 4). */
    om_wh7_round_template(49, 7, w, w, 10, 0, 10 + 3.5 * w, 1.5, &cov);
    cr_expect(cov.centre);
    cr_expect_eq(cov.full, 4u);
    cr_expect_eq(cov.partial, 16u);
    /* Off the unit: nothing. */
    om_wh7_round_template(49, 7, w, w, 10, 0, 2, 1.5, &cov);
    cr_expect(!cov.centre && cov.full == 0 && cov.partial == 0);
}

Test(whfb7_shooting, stone_thrower_d8_e34, .timeout = 60)
{
    /* D8: a stone thrower lands exactly where it aimed 5/18 of the time (no
     * misfire, then HIT on the scatter die); E34: then the template sits on
     * the aimed point. Aimed at the middle of a 7 x 7 block: the centre
     * model (S8 vs T4: 2+) and 4 wholly covered (S4: 4+) at least. */
    om_wh7_side a = side_of(unit_of(OM_WH7_WAR_MACHINE, prof("Crew", 4, 3, 3, 3, 3, 1, 3, 1, 7), 3, 3));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, ORC_BOY, 49, 7));
    om_wh7_combat c;
    om_wh7_prepared *p;
    tally t;
    a.machine = OM_WH7_MACHINE_STONE_THROWER;
    a.target_in = 30;
    a.guess_in = 32; /* the middle rank is 30 + 3.5 * 0.79 = 32.8: near */
    b.base_width_mm = 20;
    c = combat_of(OM_WH7_KIND_VOLLEY, a, b);
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    expect_frequency(t.on_target, t.n, 5.0 / 18, "D8");
    expect_frequency(t.misfire[2] + t.misfire[3], t.n, 2.0 / 36, "disabled");
    om_wh7_prepared_free(p);
}

Test(whfb7_shooting, bolt_thrower_through_ranks, .timeout = 60)
{
    /* A bolt thrower (crew BS3, 4+) at 20 Men (T3, 4 ranks): S6 2+, S5 2+,
     * S4 3+, S3 4+ while each is slain: E[kills] = 1/2 (5/6 + 5/6 5/6 + ...). */
    om_wh7_side a = side_of(unit_of(OM_WH7_WAR_MACHINE, prof("Crew", 4, 3, 3, 3, 3, 1, 3, 1, 7), 2, 2));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, SPEARMAN, 20, 5));
    om_wh7_combat c;
    om_wh7_prepared *p;
    tally t;
    double k[4] = {5.0 / 6, 5.0 / 6, 4.0 / 6, 3.0 / 6}, prod = 1, mean = 0, ex2 = 0;
    a.machine = OM_WH7_MACHINE_BOLT_THROWER;
    a.target_in = 20;
    c = combat_of(OM_WH7_KIND_VOLLEY, a, b);
    /* P(kills = j) for j = 0..4 given a hit */
    for (unsigned j = 0; j <= 4; j++) {
        double pj = prod * (j < 4 ? 1 - k[j] : 1);
        mean += 0.5 * pj * j;
        ex2 += 0.5 * pj * j * j;
        if (j < 4)
            prod *= k[j];
    }
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    expect_mean(t.slain[1], t.n, mean, ex2 - mean * mean, "bolt thrower");
    om_wh7_prepared_free(p);
}

Test(whfb7_shooting, grapeshot_e36, .timeout = 60)
{
    /* Grapeshot: E36's count of 4 models wholly and 11 partly under the
     * flame template: 4 + Bin(11, 1/2) hits when the artillery die is no
     * misfire. */
    om_wh7_side a = side_of(unit_of(OM_WH7_WAR_MACHINE, prof("Crew", 4, 3, 3, 3, 3, 1, 3, 1, 7), 3, 3));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, ORC_BOY, 20, 5));
    om_wh7_combat c;
    om_wh7_prepared *p;
    tally t;
    double mean = 5.0 / 6 * (4 + 5.5), ex2 = 5.0 / 6 * (11 * 0.25 + 9.5 * 9.5);
    a.machine = OM_WH7_MACHINE_GRAPESHOT;
    a.template_models = 4;
    a.template_partial = 11;
    c = combat_of(OM_WH7_KIND_VOLLEY, a, b);
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    expect_mean(t.hits[1], t.n, mean, ex2 - mean * mean, "grapeshot hits");
    expect_frequency(t.misfire[0] == t.n ? 0 : t.n - t.misfire[0], t.n, 1.0 / 6, "misfires");
    om_wh7_prepared_free(p);
}

Test(whfb7_shooting, small_targets_and_ethereal, .timeout = 60)
{
    /* Skirmishers of unit strength 1 models, or a single such model: -1 to
     * be hit (5+ for BS3); ethereal targets only fear magical shots. */
    om_wh7_combat c = volley(ARCHER, OM_WH7_MISSILE_BOW);
    om_wh7_prepared *p;
    tally t;
    c.side[1].unit.traits.rules = OM_WH7_RULE_SKIRMISHERS;
    expect_volley_kills(&c, 5, 1.0 / 3 / 3, false, "skirmishers");
    c.side[1].unit.traits.rules = 0;
    c.side[1].unit.models = 1;
    c.side[1].unit.files = 1;
    c.side[0].unit.models = 60;
    c.side[0].shooters = 60;
    {
        /* P(the single Orc survives 60 shots of 1/3 * 1/3). */
        p = prepare_or_die(&c);
        t = run_trials(p, TRIALS / 4, false, NULL, NULL);
        expect_frequency(t.destroyed[1], t.n, 1 - pow(1 - 1.0 / 9, 60), "a lone model");
        om_wh7_prepared_free(p);
    }
    c = volley(ARCHER, OM_WH7_MISSILE_BOW);
    c.side[1].unit.traits.rules = OM_WH7_RULE_ETHEREAL;
    p = prepare_or_die(&c);
    t = run_trials(p, 10000, false, NULL, NULL);
    cr_expect_float_eq(t.slain[1], 0.0, EXACT);
    om_wh7_prepared_free(p);
    c.side[0].unit.traits.rules = OM_WH7_RULE_MAGICAL_ATTACKS;
    expect_volley_kills(&c, 5, 1.0 / 6, false, "magical shots");
}

Test(whfb7_shooting, range_panic_and_victory_points_e8_e9_e24_e43, .timeout = 30)
{
    om_wh7_combat c = volley(ARCHER, OM_WH7_MISSILE_CROSSBOW);
    om_wh7_prepared *p;
    tally t;
    /* E9: a short bow (16"): short range to 8", long beyond, out past 16. */
    cr_expect_eq(om_wh7_range_of(16, 8), OM_WH7_RANGE_SHORT);
    cr_expect_eq(om_wh7_range_of(16, 9), OM_WH7_RANGE_LONG);
    cr_expect_eq(om_wh7_range_of(16, 16), OM_WH7_RANGE_LONG);
    cr_expect_eq(om_wh7_range_of(16, 17), OM_WH7_RANGE_OUT);
    /* E8: a crossbow (30") at a target 32" away misses automatically. */
    c.side[0].target_in = 32;
    p = prepare_or_die(&c);
    t = run_trials(p, 2000, false, NULL, NULL);
    cr_expect_float_eq(t.slain[1], 0.0, EXACT);
    om_wh7_prepared_free(p);
    /* ...at 20" it is long range: 5+ to hit, S4 vs T4 4+. */
    c.side[0].target_in = 20;
    expect_volley_kills(&c, 5, 1.0 / 3 / 2, false, "crossbows at long range");
    /* E24: 4 then 3 casualties of 20 in one phase: 7 of 20 is a quarter. */
    cr_expect(!om_wh7_quarter_lost(20, 4));
    cr_expect(om_wh7_quarter_lost(20, 4 + 3));
    cr_expect(om_wh7_quarter_lost(20, 5));
    cr_expect(om_wh7_quarter_lost(5, 2), "E10's Elves: 2 of 5");
    /* E43: a 400-point unit destroyed 400; a 325-point unit at half strength
     * 163; a 133-point character of 2 Wounds down 1: 67. */
    cr_expect_eq(om_wh7_victory_points(400, 20, 0, false), 400u);
    cr_expect_eq(om_wh7_victory_points(325, 20, 10, false), 163u);
    cr_expect_eq(om_wh7_victory_points(133, 2, 1, false), 67u);
    cr_expect_eq(om_wh7_victory_points(325, 20, 11, false), 0u);
    cr_expect_eq(om_wh7_victory_points(325, 20, 18, true), 325u, "fled counts as destroyed");
    cr_expect_eq(om_wh7_victory_points(0, 10, 0, false), 100u, "no points: 100");
}

Test(whfb7_shooting, attack_dice_e16)
{
    /* E16: ten Elves of 1 Attack roll 10 dice, four Ogres of 3 roll 12. */
    om_wh7_combat c = combat_of(OM_WH7_KIND_COMBAT,
                                side_of(unit_of(OM_WH7_INFANTRY, HE_SPEARMAN, 10, 10)),
                                side_of(unit_of(OM_WH7_MONSTROUS_INFANTRY, OGRE_BULL, 4, 4)));
    om_wh7_prepared *p;
    c.side[0].contact = 10;
    p = prepare_or_die(&c);
    cr_expect_eq(p->side[0].part[WH7_PART_RF].attacks[WH7_ROUND_FIRST] * p->side[0].contact, 10u);
    cr_expect_eq(p->side[1].part[WH7_PART_RF].attacks[WH7_ROUND_FIRST] * p->side[1].contact, 12u);
    om_wh7_prepared_free(p);
}
