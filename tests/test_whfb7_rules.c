/*
 * test_whfb7_rules.c: every special rule and piece of equipment of the WHFB
 * 7th edition engine, each with a test whose exact value changes if the rule
 * is removed (WHFB 7th edition, Special Rules; Psychology; Weapons; Command
 * Groups; Characters; Combat Result Bonuses; Magic Items > Common Magic
 * Items; and the army-book readings of README.md).
 *
 * Most checks use one of three exact settings: the first striker's kills are
 * Binomial(blows, p) when nothing strikes before it; a combat between models
 * that cannot wound each other (S1 against T5) has a certain result, so break
 * tests and pursuits follow exact 2D6 sums; and per-trial identities of the
 * result. Rules that only change later rounds are also checked on the
 * prepared dice chains (white box, wh7_int.h).
 */
#include "test_whfb7.h"
#include "wh7_int.h"

/* A profile that can neither wound nor be wounded by its like (S1 vs T5). */
#define WEAK prof("Weakling", 4, 3, 3, 1, 5, 1, 3, 1, 7)

/* Attacker `att` (10 models, 5 wide, charging) against defender `def` (25
 * models, 5 wide) in one combat round. */
static om_wh7_combat first_strike(om_wh7_profile att, om_wh7_profile def)
{
    om_wh7_side a = side_of(unit_of(OM_WH7_INFANTRY, att, 10, 5));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, def, 25, 5));
    a.charging = true;
    return combat_of(OM_WH7_KIND_COMBAT, a, b);
}

/* The kills of side s, striking first with n blows of probability p each on
 * one-Wound models: Binomial(n, p) (fast dice; plain too when `plain`). */
static void expect_kills(const om_wh7_combat *c, int s, unsigned n, double p, const char *what)
{
    om_wh7_prepared *pr = prepare_or_die(c);
    tally t = run_trials(pr, TRIALS / 2, false, NULL, NULL);
    expect_mean(t.slain[1 - s], t.n, n * p, n * p * (1 - p), what);
    om_wh7_prepared_free(pr);
}

/* A combat of Weaklings with a certain result: A (a_models wide, one rank)
 * against B (b_models, 5 wide: its ranks count). */
static om_wh7_combat certain(unsigned a_models, unsigned a_files, unsigned b_models,
                             unsigned b_files)
{
    return combat_of(OM_WH7_KIND_COMBAT,
                     side_of(unit_of(OM_WH7_INFANTRY, WEAK, a_models, a_files)),
                     side_of(unit_of(OM_WH7_INFANTRY, WEAK, b_models, b_files)));
}

static tally run_fast(const om_wh7_combat *c, unsigned trials)
{
    om_wh7_prepared *p = prepare_or_die(c);
    tally t = run_trials(p, trials, false, NULL, NULL);
    om_wh7_prepared_free(p);
    return t;
}

/* P(a break test holds), written from the rules: a double 1, or roll + diff
 * <= ld, or (Stubborn) roll <= stubborn. */
static double hold_p(unsigned ld, unsigned diff, unsigned stubborn)
{
    double p = 0;
    for (unsigned r = 2; r <= 12; r++)
        if (r == 2 || r + diff <= ld || r <= stubborn)
            p += nd6_pmf(2, r);
    return p;
}

/* ---- Special Rules ---- */

Test(whfb7_rules, always_strikes_first_beats_the_charge, .timeout = 30)
{
    /* Elves (ASF) charged by Orcs still strike first: their kills are
     * Binomial(5, WS4 vs WS3 3+ * S3 vs T4 5+) whatever the Orcs do. */
    om_wh7_combat c = first_strike(ORC_BOY, HE_SPEARMAN);
    om_wh7_combat swapped;
    c.side[1].unit.traits.rules = OM_WH7_RULE_ASF;
    swapped = combat_of(OM_WH7_KIND_COMBAT, c.side[1], c.side[0]);
    swapped.side[1].charging = true;
    swapped.side[0].charging = false;
    expect_kills(&swapped, 0, 5, 4.0 / 6 * 2.0 / 6, "ASF against a charge");
}

Test(whfb7_rules, always_strikes_first_white_box)
{
    om_wh7_combat c = first_strike(ORC_BOY, HE_SPEARMAN);
    om_wh7_prepared *p;
    c.side[1].unit.traits.rules = OM_WH7_RULE_ASF;
    p = prepare_or_die(&c);
    /* The Elves' part comes first in the first round's order. */
    cr_expect_eq(p->order[WH7_PHASE_FIRST][0][0], 1 * WH7_PARTS + WH7_PART_RF);
    om_wh7_prepared_free(p);
}

Test(whfb7_rules, killing_blow_ignores_armour, .timeout = 30)
{
    /* KB WS5 S3 against heavy armour and shield with parry (3+): a 6 to wound
     * allows no armour save. 3+ to hit, 4+ to wound. */
    om_wh7_profile elf = prof("Witch Elf", 5, 5, 4, 3, 3, 1, 6, 1, 8);
    om_wh7_combat c = first_strike(elf, SPEARMAN);
    c.side[0].unit.traits.rules = OM_WH7_RULE_KILLING_BLOW;
    c.side[1].unit.equipment.armour = OM_WH7_ARMOUR_HEAVY;
    c.side[1].unit.equipment.shield = true;
    expect_kills(&c, 0, 5, 4.0 / 6 * (2.0 / 6 * 2.0 / 6 + 1.0 / 6), "killing blow");
}

/* Slain and wounds of a unit of W-Wound models hit by n blows that slay with
 * p_s and wound (once each) with p_w, slays first then pooled wounds, or
 * everything as single wounds (option A26). Exact by enumeration. */
typedef struct moments { double slain, slain2, wounds, wounds2; } moments;

static moments kb_multiwound_exact(unsigned n, double ps, double pw, unsigned w, bool one_wound)
{
    moments m = {0, 0, 0, 0};
    for (unsigned s = 0; s <= n; s++)
        for (unsigned k = 0; s + k <= n; k++) {
            /* multinomial(n; s, k, rest) */
            double pr = binom_pmf(s, n, ps) * binom_pmf(k, n - s, pw / (1 - ps));
            double sl = one_wound ? (double)((s + k) / w) : (double)(s + k / w);
            double wo = one_wound ? (double)(s + k) : (double)(w * s + k);
            m.slain += pr * sl;
            m.slain2 += pr * sl * sl;
            m.wounds += pr * wo;
            m.wounds2 += pr * wo * wo;
        }
    return m;
}

Test(whfb7_rules, killing_blow_slays_multi_wound_models, .timeout = 30)
{
    /* A Wight-like infantry model of 3 Wounds (unit strength 1) with no
     * save: WS4 S4 KB blows hit on 3+, wound on 4+; a 6 slays (digest A26). */
    om_wh7_profile wight = prof("Wight", 4, 3, 3, 3, 4, 3, 3, 1, 8);
    om_wh7_profile att = prof("Executioner", 5, 4, 4, 4, 3, 1, 5, 1, 8);
    om_wh7_combat c = first_strike(att, wight);
    om_wh7_prepared *p;
    tally t;
    moments m;
    c.side[0].unit.traits.rules = OM_WH7_RULE_KILLING_BLOW;
    for (int one = 0; one < 2; one++) {
        /* Option killing_blow_one_wound: a killing blow is one unsaveable wound. */
        c.options.killing_blow_one_wound = one;
        p = prepare_or_die(&c);
        t = run_trials(p, TRIALS / 2, false, NULL, NULL);
        m = kb_multiwound_exact(5, 4.0 / 6 / 6, 4.0 / 6 * 2 / 6, 3, one);
        expect_mean(t.slain[1], t.n, m.slain, m.slain2 - m.slain * m.slain, "KB slain");
        expect_mean(t.wounds[1], t.n, m.wounds, m.wounds2 - m.wounds * m.wounds, "KB wounds");
        om_wh7_prepared_free(p);
    }
}

Test(whfb7_rules, killing_blow_only_against_unit_strength_two_or_less, .timeout = 30)
{
    /* Against Ogres (unit strength 3) a 6 is just a wound: 5 blows, 3+ to
     * hit, 4+ to wound, one wound each, pooled on 3-Wound models. */
    om_wh7_profile att = prof("Executioner", 5, 4, 4, 4, 3, 1, 5, 1, 8);
    om_wh7_combat c = first_strike(att, OGRE_BULL);
    om_wh7_prepared *p;
    tally t;
    double q = 4.0 / 6 * 3.0 / 6;
    c.side[0].unit.traits.rules = OM_WH7_RULE_KILLING_BLOW;
    c.side[1].unit.troop = OM_WH7_MONSTROUS_INFANTRY;
    c.side[1].unit.models = 10;
    p = prepare_or_die(&c);
    cr_expect_float_eq(p->side[0].part[WH7_PART_RF].vs[WH7_TARGET_RF][0].p_slay, 0.0, EXACT);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    expect_mean(t.wounds[1], t.n, 5 * q, 5 * q * (1 - q), "wounds on Ogres");
    om_wh7_prepared_free(p);
}

Test(whfb7_rules, poisoned_attacks, .timeout = 30)
{
    /* WS3 vs WS3 4+, S3 vs T4 5+: a natural 6 to hit wounds: 1/6 + 2/6 * 2/6. */
    om_wh7_combat c = first_strike(ORC_BOY, ORC_BOY);
    c.side[0].unit.traits.rules = OM_WH7_RULE_POISON;
    expect_kills(&c, 0, 5, 1.0 / 6 + 2.0 / 6 * 2.0 / 6, "poison");
    /* Immune to poison: back to 1/2 * 2/6. */
    c.side[1].unit.traits.rules = OM_WH7_RULE_IMMUNE_POISON;
    expect_kills(&c, 0, 5, 1.0 / 2 * 2.0 / 6, "immune to poison");
}

Test(whfb7_rules, regeneration_and_flaming_attacks, .timeout = 30)
{
    /* Orcs on regenerating Orcs: 1/2 * 2/6 * 1/2; flaming blows deny it. */
    om_wh7_combat c = first_strike(ORC_BOY, ORC_BOY);
    c.side[1].unit.traits.rules = OM_WH7_RULE_REGENERATION;
    expect_kills(&c, 0, 5, 1.0 / 2 * 2.0 / 6 * 1.0 / 2, "regeneration");
    c.side[0].unit.traits.rules = OM_WH7_RULE_FLAMING;
    expect_kills(&c, 0, 5, 1.0 / 2 * 2.0 / 6, "no regeneration against flaming attacks");
}

Test(whfb7_rules, armour_piercing, .timeout = 30)
{
    /* Orcs on Orcs in heavy armour (5+): S3 allows it; armour piercing 6+. */
    om_wh7_combat c = first_strike(ORC_BOY, ORC_BOY);
    c.side[1].unit.equipment.armour = OM_WH7_ARMOUR_HEAVY;
    expect_kills(&c, 0, 5, 1.0 / 2 * 2.0 / 6 * 4.0 / 6, "S3 against 5+");
    c.side[0].unit.traits.rules = OM_WH7_RULE_ARMOUR_PIERCING;
    expect_kills(&c, 0, 5, 1.0 / 2 * 2.0 / 6 * 5.0 / 6, "armour piercing");
}

Test(whfb7_rules, flaming_against_flammable_doubles_wounds, .timeout = 30)
{
    /* Flammable models of 2 Wounds: each unsaved flaming wound is 2 wounds
     * and slays one; without flaming, two wounds slay one. S4 vs T4 4+,
     * WS3 vs WS3 4+: q = 1/4 per blow, 5 blows. */
    om_wh7_profile mummy = prof("Mummy", 4, 3, 0, 4, 4, 2, 3, 1, 8);
    om_wh7_profile att = prof("Burner", 4, 3, 3, 4, 3, 1, 3, 1, 7);
    om_wh7_combat c = first_strike(att, mummy);
    om_wh7_prepared *p;
    tally t;
    double q = 0.25;
    c.side[0].unit.traits.rules = OM_WH7_RULE_FLAMING;
    c.side[1].unit.traits.rules = OM_WH7_RULE_FLAMMABLE;
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    expect_mean(t.wounds[1], t.n, 2 * 5 * q, 4 * 5 * q * (1 - q), "doubled wounds");
    expect_mean(t.slain[1], t.n, 5 * q, 5 * q * (1 - q), "one model per flaming wound");
    om_wh7_prepared_free(p);
    c.side[1].unit.traits.rules = 0;
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    expect_mean(t.wounds[1], t.n, 5 * q, 5 * q * (1 - q), "not flammable");
    om_wh7_prepared_free(p);
}

/* Mean and variance of capped multiple wounds: X = min(D, cap) per unsaved
 * wound, K ~ Bin(n, q) unsaved wounds: E[S] = E[K]E[X], Var(S) = E[K]Var(X) +
 * Var(K)E[X]^2 (a compound sum). faces: 3 (D3) or 6 (D6). */
static void compound(unsigned n, double q, unsigned faces, unsigned cap, double *mean, double *var)
{
    double ex = 0, ex2 = 0;
    for (unsigned f = 1; f <= 6; f++) {
        unsigned x = faces == 3 ? (f + 1) / 2 : f;
        if (x > cap)
            x = cap;
        ex += x / 6.0;
        ex2 += (double)x * x / 6.0;
    }
    *mean = n * q * ex;
    *var = n * q * (ex2 - ex * ex) + n * q * (1 - q) * ex * ex;
}

typedef struct pool_ctx { unsigned bad; unsigned w; } pool_ctx;

static void pooled_identity(const om_wh7_outcome *o, void *vctx)
{
    pool_ctx *ctx = vctx;
    /* Multiple Wound Casualties (E14, E15): pooled wounds remove whole
     * models and leave the remainder recorded: slain = wounds / W. */
    if (o->slain[1] != o->wounds[1] / ctx->w)
        ctx->bad++;
}

Test(whfb7_rules, multiple_wounds_pooled_on_ogres, .timeout = 30)
{
    /* D6 wounds per unsaved wound, capped at the Ogres' 3: X in {1,2,3,3,3,3}.
     * S4 vs T4 4+, WS3 vs WS3 4+: q = 1/4, 5 blows. */
    om_wh7_profile att = prof("Cannoneer", 4, 3, 3, 4, 3, 1, 3, 1, 7);
    om_wh7_combat c = first_strike(att, OGRE_BULL);
    om_wh7_prepared *p;
    tally t;
    pool_ctx ctx = {0, 3};
    double mean, var;
    c.side[0].unit.traits.damage = OM_WH7_DAMAGE_D6;
    c.side[1].unit.troop = OM_WH7_MONSTROUS_INFANTRY;
    c.side[1].unit.models = 10;
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, pooled_identity, &ctx);
    compound(5, 0.25, 6, 3, &mean, &var);
    expect_mean(t.wounds[1], t.n, mean, var, "D6 capped at 3");
    cr_expect_eq(ctx.bad, 0u, "pooled casualties");
    om_wh7_prepared_free(p);
    c.side[0].unit.traits.damage = OM_WH7_DAMAGE_D3;
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    compound(5, 0.25, 3, 3, &mean, &var);
    expect_mean(t.wounds[1], t.n, mean, var, "D3");
    om_wh7_prepared_free(p);
}

/* Mean and variance of the wounds inflicted without pooling (option A5):
 * each wound's D6 damage is capped at the wounded model's remaining Wounds.
 * Exact by a walk over (damage on the current model, total so far). */
#define NP_MAX 64
static void no_pool_moments(unsigned n, double q, unsigned w, double *mean, double *var)
{
    double ex = 0, ex2 = 0;
    for (unsigned k = 0; k <= n; k++) {
        static double cur[8][NP_MAX], next[8][NP_MAX];
        double pk = binom_pmf(k, n, q);
        memset(cur, 0, sizeof cur);
        cur[0][0] = 1;
        for (unsigned i = 0; i < k; i++) {
            memset(next, 0, sizeof next);
            for (unsigned r = 0; r < w; r++)
                for (unsigned tot = 0; tot + 6 < NP_MAX; tot++)
                    for (unsigned f = 1; f <= 6 && cur[r][tot] > 0; f++) {
                        unsigned x = f > w ? w : f, room = w - r, dmg = x < room ? x : room;
                        next[(r + dmg) % w][tot + dmg] += cur[r][tot] / 6.0;
                    }
            memcpy(cur, next, sizeof cur);
        }
        for (unsigned r = 0; r < w; r++)
            for (unsigned tot = 0; tot < NP_MAX; tot++) {
                ex += pk * cur[r][tot] * tot;
                ex2 += pk * cur[r][tot] * tot * tot;
            }
    }
    *mean = ex;
    *var = ex2 - ex * ex;
}

Test(whfb7_rules, multiple_wounds_without_pooling_option, .timeout = 30)
{
    om_wh7_profile att = prof("Cannoneer", 4, 3, 3, 4, 3, 1, 3, 1, 7);
    om_wh7_combat c = first_strike(att, OGRE_BULL);
    om_wh7_prepared *p;
    tally t;
    double mean, var, pooled, pooled_var;
    c.side[0].unit.traits.damage = OM_WH7_DAMAGE_D6;
    c.side[1].unit.troop = OM_WH7_MONSTROUS_INFANTRY;
    c.side[1].unit.models = 10;
    c.options.multiwound_no_pool = true;
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    no_pool_moments(5, 0.25, 3, &mean, &var);
    compound(5, 0.25, 6, 3, &pooled, &pooled_var);
    expect_mean(t.wounds[1], t.n, mean, var, "no pool");
    cr_expect(mean < pooled - 0.05, "the readings differ: %g vs %g", mean, pooled);
    om_wh7_prepared_free(p);
}

/* ---- Psychology ---- */

Test(whfb7_rules, frenzy_adds_an_attack, .timeout = 30)
{
    om_wh7_combat c = first_strike(ORC_BOY, ORC_BOY);
    c.side[0].unit.traits.rules = OM_WH7_RULE_FRENZY;
    expect_kills(&c, 0, 10, 1.0 / 2 * 2.0 / 6, "frenzy: 2 attacks each");
}

Test(whfb7_rules, frenzy_is_lost_before_the_break_test, .timeout = 30)
{
    /* A frenzied unit (Ld10) charges 6 Fear-causers and loses by 1 (they
     * outnumber it). Frenzy goes first, then, no longer immune and
     * outnumbered by Fear-causers, it breaks unless a double 1 (Frenzy;
     * Defeated by Fear-causing Enemy). Still immune it would hold on 9. */
    om_wh7_combat c = certain(5, 5, 6, 6);
    tally t;
    c.side[0].unit.profile.ld = 10;
    c.side[0].unit.traits.rules = OM_WH7_RULE_FRENZY;
    c.side[0].charging = true;
    c.side[1].unit.traits.rules = OM_WH7_RULE_FEAR;
    t = run_fast(&c, TRIALS / 2);
    cr_expect_eq(t.feared[0], 0u, "frenzied: no fear test to charge");
    expect_frequency(t.broke[0], t.n, 35.0 / 36, "automatic break once frenzy is gone");
}

Test(whfb7_rules, frenzy_and_hatred_must_pursue, .timeout = 30)
{
    static const om_wh7_rules rules[2] = {OM_WH7_RULE_FRENZY, OM_WH7_RULE_HATRED};
    for (int i = 0; i < 2; i++) {
        om_wh7_combat c = certain(5, 5, 20, 5);
        tally t;
        c.side[1].unit.standard = true;
        c.side[1].pursue = OM_WH7_PURSUE_RESTRAIN;
        c.side[1].unit.traits.rules = rules[i];
        t = run_fast(&c, 20000);
        cr_expect_eq(t.pursued[1], t.broke[0], "rule %d: every break is pursued", i);
    }
}

Test(whfb7_rules, hatred_rerolls_misses_in_the_first_turn, .timeout = 30)
{
    om_wh7_combat c = first_strike(ORC_BOY, ORC_BOY);
    om_wh7_prepared *p;
    c.side[0].unit.traits.rules = OM_WH7_RULE_HATRED;
    expect_kills(&c, 0, 5, 3.0 / 4 * 2.0 / 6, "hatred");
    p = prepare_or_die(&c);
    cr_expect_eq(p->side[0].part[WH7_PART_RF].vs[WH7_TARGET_RF][WH7_ROUND_LATER].chain.reroll_hit,
                 OM_WH7_REROLL_NONE, "only the first turn");
    om_wh7_prepared_free(p);
}

Test(whfb7_rules, fear_flee_when_outnumbered, .timeout = 30)
{
    /* 10 Fear-causers charge 5 models (Ld7) from 4": a failed test (15/36)
     * with lower unit strength flees; caught if 4 + 2D6 <= the charge of 8".
     * A fight that does happen is a certain draw (outnumbering against high
     * ground), so no break test follows. */
    om_wh7_combat c = certain(10, 10, 5, 5);
    tally t;
    c.side[1].high_ground = true;
    c.side[0].unit.traits.rules = OM_WH7_RULE_FEAR;
    c.side[0].charging = true;
    c.side[1].gap_in = 4;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.feared[1], t.n, 15.0 / 36, "failed fear");
    expect_frequency(t.caught[1], t.n, 15.0 / 36 * 6 / 36, "caught fleeing");
    expect_frequency(t.fled[1], t.n, 15.0 / 36 * 30 / 36, "fled");
    expect_frequency(t.charged, t.n, 21.0 / 36, "charge made");
}

Test(whfb7_rules, fear_only_sixes_to_hit, .timeout = 30)
{
    /* Orcs (ASF, 25 of them) charged by 10 Fear-causing Skeletons: if the
     * Orcs fail (15/36) they hit only on 6s in the first turn. WS3 vs WS2
     * 3+, S3 vs T3 4+. */
    om_wh7_profile skel = prof("Skeleton", 4, 2, 2, 3, 3, 1, 2, 1, 3);
    om_wh7_combat c = first_strike(skel, ORC_BOY);
    om_wh7_prepared *p;
    tally t;
    double pf = 15.0 / 36, mean, ex2;
    c.side[0].unit.traits.rules = OM_WH7_RULE_FEAR;
    c.side[1].unit.traits.rules = OM_WH7_RULE_ASF;
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    /* A mixture of Bin(5, 1/3) and Bin(5, 1/12). */
    mean = (1 - pf) * 5 / 3.0 + pf * 5 / 12.0;
    ex2 = (1 - pf) * (5 / 3.0 * 2 / 3.0 + 25 / 9.0) + pf * (5 / 12.0 * 11 / 12.0 + 25 / 144.0);
    expect_mean(t.slain[0], t.n, mean, ex2 - mean * mean, "fearful first turn");
    om_wh7_prepared_free(p);
}

Test(whfb7_rules, fear_automatic_break_and_immunities, .timeout = 30)
{
    /* A (5 models, Ld10) loses by 1 to 6 Fear-causers: it breaks unless a
     * double 1; with the Battle Standard it re-rolls. Immune to psychology
     * or causing Fear itself, it tests normally (holds on 9). */
    om_wh7_combat c = certain(5, 5, 6, 6);
    tally t;
    c.side[0].unit.profile.ld = 10;
    c.side[1].unit.traits.rules = OM_WH7_RULE_FEAR;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.broke[0], t.n, 35.0 / 36, "automatic break");
    c.side[0].battle_standard_near = true;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.broke[0], t.n, 35.0 / 36 * 35 / 36, "with the re-roll");
    c.side[0].battle_standard_near = false;
    c.side[0].unit.traits.rules = OM_WH7_RULE_ITP;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.broke[0], t.n, 1 - hold_p(10, 1, 0), "immune to psychology");
    c.side[0].unit.traits.rules = OM_WH7_RULE_FEAR;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.broke[0], t.n, 1 - hold_p(10, 1, 0), "causes fear itself");
    /* Not outnumbered by the Fear-causers: a normal test. */
    c.side[0].unit.traits.rules = 0;
    c.side[0].unit.models = 6;
    c.side[0].unit.files = 6;
    c.side[0].high_ground = false;
    c.side[1].high_ground = true;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.broke[0], t.n, 1 - hold_p(10, 1, 0), "equal unit strength");
}

Test(whfb7_rules, fear_stops_a_charger, .timeout = 30)
{
    om_wh7_combat c = certain(10, 5, 10, 5);
    tally t;
    c.side[0].charging = true;
    c.side[1].unit.traits.rules = OM_WH7_RULE_FEAR;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.feared[0], t.n, 15.0 / 36, "charger's fear test");
    expect_frequency(t.winner[OM_WH7_NO_CONTEST], t.n, 15.0 / 36, "no charge");
    cr_expect_eq(t.fled[0], 0u, "fear does not make it flee");
}

Test(whfb7_rules, terror, .timeout = 30)
{
    /* Charged by a Terror-causer, a failed test flees whatever the unit
     * strength; wishing to charge one, a failed test flees. */
    om_wh7_combat c = certain(5, 5, 20, 5);
    tally t;
    c.side[0].unit.traits.rules = OM_WH7_RULE_TERROR;
    c.side[0].charging = true;
    c.side[1].gap_in = 20;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.feared[1], t.n, 15.0 / 36, "terror test");
    expect_frequency(t.fled[1], t.n, 15.0 / 36, "flees though bigger");
    c = certain(20, 5, 5, 5);
    c.side[0].charging = true;
    c.side[1].unit.traits.rules = OM_WH7_RULE_TERROR;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.fled[0], t.n, 15.0 / 36, "the would-be charger flees");
    /* A Terror-causer fears nothing. */
    c.side[0].unit.traits.rules = OM_WH7_RULE_TERROR;
    t = run_fast(&c, 10000);
    cr_expect_eq(t.feared[0], 0u);
}

Test(whfb7_rules, stubborn_unbreakable, .timeout = 30)
{
    /* A loses by 5 (B: 3 ranks, standard, outnumbering). */
    om_wh7_combat c = certain(5, 5, 20, 5);
    tally t;
    c.side[1].unit.standard = true;
    c.side[0].unit.profile.ld = 8;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.broke[0], t.n, 1 - hold_p(8, 5, 0), "Ld8 losing by 5");
    c.side[0].unit.traits.rules = OM_WH7_RULE_STUBBORN;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.broke[0], t.n, 10.0 / 36, "E21: Stubborn Ld8 breaks on 9+");
    /* E22: with the General's Ld10 nearby losing by 5 it still uses its 8;
     * a Stubborn character of Ld9 lets it hold on 9. */
    c.side[0].general_ld = 10;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.broke[0], t.n, 10.0 / 36, "E22");
    c.side[0].general_ld = 0;
    c.side[0].unit.traits.rules = OM_WH7_RULE_UNBREAKABLE;
    t = run_fast(&c, 20000);
    cr_expect_eq(t.broke[0], 0u, "unbreakable");
}

Test(whfb7_rules, stubborn_character_joins, .timeout = 30)
{
    om_wh7_combat c = certain(5, 5, 20, 5);
    tally t;
    c.side[1].unit.standard = true;
    c.side[0].unit.characters = 1;
    c.side[0].unit.files = 6;
    c.side[0].unit.character[0].profile = prof("Thane", 3, 6, 4, 1, 5, 2, 4, 3, 9);
    c.side[0].unit.character[0].traits.rules = OM_WH7_RULE_STUBBORN;
    t = run_fast(&c, TRIALS / 2);
    /* A now also has 6 models: B outnumbers 20 to 6 still; loses by 5. */
    expect_frequency(t.broke[0], t.n, 1 - hold_p(9, 5, 9), "Stubborn character Ld9");
}

Test(whfb7_rules, stupidity_stops_the_charge, .timeout = 30)
{
    om_wh7_combat c = certain(10, 5, 10, 5);
    tally t;
    c.side[0].charging = true;
    c.side[0].unit.traits.rules = OM_WH7_RULE_STUPIDITY;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.stupid[0], t.n, 15.0 / 36, "failed stupidity");
    expect_frequency(t.charged, t.n, 21.0 / 36, "charges");
}

/* ---- Formations and bonuses ---- */

Test(whfb7_rules, skirmishers_and_fast_cavalry_have_no_ranks, .timeout = 30)
{
    /* B: 3 ranks + standard + outnumbering = 5; as skirmishers (or fast
     * cavalry) only 2: A (Ld7) loses by 2 instead of 5. */
    static const om_wh7_rules rules[2] = {OM_WH7_RULE_SKIRMISHERS, OM_WH7_RULE_FAST_CAVALRY};
    for (int i = 0; i < 2; i++) {
        om_wh7_combat c = certain(5, 5, 20, 5);
        tally t;
        c.side[1].unit.standard = true;
        c.side[1].unit.traits.rules = rules[i];
        t = run_fast(&c, TRIALS / 2);
        expect_frequency(t.broke[0], t.n, 1 - hold_p(7, 2, 0), "no rank bonus");
    }
}

Test(whfb7_rules, flank_and_rear_attacks)
{
    /* A: 20 models, 3 ranks; B (10, one rank) fights A's flank: A loses its
     * ranks (B has unit strength 10) and B adds +1: 1 (outnumber) - 1: a
     * draw. From the rear +2: B wins by 1. Skirmishers never take ranks
     * away: A wins 4 - 1. */
    om_wh7_combat c = certain(20, 5, 10, 10);
    tally t;
    c.side[0].arc = OM_WH7_ARC_FLANK;
    c.side[0].contact = 4;
    t = run_fast(&c, 1000);
    cr_expect_eq(t.round1_winner[OM_WH7_DRAW], 1000u, "flank: draw");
    c.side[0].arc = OM_WH7_ARC_REAR;
    t = run_fast(&c, 1000);
    cr_expect_eq(t.round1_winner[OM_WH7_SIDE_B], 1000u, "rear: B wins");
    cr_expect_float_eq(t.result[1] / t.n, 2.0, EXACT);
    c.side[1].unit.traits.rules = OM_WH7_RULE_SKIRMISHERS;
    t = run_fast(&c, 1000);
    cr_expect_float_eq(t.result[0] / t.n, 4.0, EXACT, "skirmishers leave the ranks");
    /* Below unit strength 5, no flank bonus and no ranks lost. */
    c = certain(20, 5, 4, 4);
    c.side[0].arc = OM_WH7_ARC_FLANK;
    t = run_fast(&c, 1000);
    cr_expect_float_eq(t.result[0] / t.n, 4.0, EXACT);
    cr_expect_float_eq(t.result[1] / t.n, 0.0, EXACT);
}

Test(whfb7_rules, high_ground_musician_battle_standard_war_banner, .timeout = 30)
{
    /* Equal units, nobody can wound: a draw; each bonus wins by 1 (Ld7 of B
     * holds on 6 or less: breaks 21/36). */
    om_wh7_combat c = certain(10, 10, 10, 10);
    tally t = run_fast(&c, 1000);
    cr_expect_eq(t.round1_winner[OM_WH7_DRAW], 1000u);
    c.side[0].high_ground = true;
    t = run_fast(&c, TRIALS / 4);
    expect_frequency(t.broke[1], t.n, 21.0 / 36, "high ground");
    c.side[0].high_ground = false;
    c.side[0].unit.musician = true;
    t = run_fast(&c, TRIALS / 4);
    expect_frequency(t.broke[1], t.n, 21.0 / 36, "musician on a draw");
    c.side[1].unit.musician = true;
    t = run_fast(&c, 1000);
    cr_expect_eq(t.round1_winner[OM_WH7_DRAW], 1000u, "two musicians: a draw");
    c = certain(10, 10, 10, 10);
    c.side[0].unit.standard = true;
    c.side[0].unit.war_banner = true;
    t = run_fast(&c, 1000);
    cr_expect_float_eq(t.result[0] / t.n, 2.0, EXACT, "standard and War Banner");
    /* A Battle Standard Bearer (T5, cannot be wounded) fighting: +1, on top
     * of the standard; 11 models against 10 outnumber: 1 + 1 + 1. */
    c.side[0].unit.war_banner = false;
    c.side[0].unit.characters = 1;
    c.side[0].unit.files = 11;
    c.side[0].unit.character[0].profile = prof("Captain", 4, 5, 5, 1, 5, 2, 5, 3, 8);
    c.side[0].unit.character[0].battle_standard = true;
    t = run_fast(&c, 1000);
    cr_expect_float_eq(t.result[0] / t.n, 3.0, EXACT, "battle standard");
}

Test(whfb7_rules, characters_lend_leadership_and_general_nearby, .timeout = 30)
{
    om_wh7_combat c = certain(5, 5, 20, 5);
    tally t;
    c.side[1].unit.standard = true;
    c.side[0].unit.characters = 1;
    c.side[0].unit.files = 6;
    c.side[0].unit.character[0].profile = prof("Captain", 4, 5, 5, 1, 5, 2, 5, 3, 9);
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.broke[0], t.n, 1 - hold_p(9, 5, 0), "the character's Ld9");
    c.side[0].general_ld = 10;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.broke[0], t.n, 1 - hold_p(10, 5, 0), "the General's Ld10");
}

typedef struct char_ctx { unsigned bad, seen; } char_ctx;

static void characters_last(const om_wh7_outcome *o, void *vctx)
{
    char_ctx *ctx = vctx;
    /* Side A: 3 rank and file and a character; blows reach the character
     * only once the rank and file are gone (no challenge). */
    if (o->characters_slain[0] > 0) {
        ctx->seen++;
        if (o->slain[0] != 3 + o->characters_slain[0])
            ctx->bad++;
    }
}

Test(whfb7_rules, characters_struck_when_no_rank_and_file_are_left, .timeout = 30)
{
    om_wh7_profile champ = prof("Brute", 4, 6, 3, 6, 4, 1, 6, 4, 8);
    om_wh7_side a = side_of(unit_of(OM_WH7_INFANTRY, GOBLIN, 3, 4));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, champ, 10, 5));
    om_wh7_combat c;
    om_wh7_prepared *p;
    char_ctx ctx = {0, 0};
    a.unit.characters = 1;
    a.unit.character[0].profile = prof("Big Boss", 4, 4, 3, 3, 4, 1, 3, 2, 7);
    /* B's slower character strikes after its rank and file: at the enemy
     * character once they have slain the rank and file (blows struck at the
     * same instant are allocated together, before rolling). */
    b.unit.characters = 1;
    b.unit.files = 6;
    b.unit.character[0].profile = prof("Lummox", 4, 5, 3, 5, 4, 2, 1, 4, 7);
    b.charging = false;
    c = combat_of(OM_WH7_KIND_COMBAT, a, b);
    p = prepare_or_die(&c);
    run_trials(p, 20000, false, characters_last, &ctx);
    cr_expect_eq(ctx.bad, 0u);
    cr_expect_gt(ctx.seen, 100u);
    om_wh7_prepared_free(p);
}

Test(whfb7_rules, challenge_and_overkill, .timeout = 30)
{
    /* E29: a Lord (7 Attacks, WS10 S10) challenges a 1-Wound champion; his
     * wounds K ~ Bin(7, 3+ * 2+ = 20/36). Slain, the champion gives 1 + the
     * excess up to +5: CR = min(K, 6) for K >= 1. Nobody else can wound. A:
     * 5 Weaklings and the Lord (US 6); B: 6 Weaklings and the champion: B
     * outnumbers while the champion lives. */
    om_wh7_combat c = certain(5, 6, 7, 7);
    om_wh7_prepared *p;
    tally t;
    double q = 20.0 / 36, mean = 0, ex2 = 0, p6 = 0;
    c.challenge = true;
    c.side[0].unit.characters = 1;
    c.side[0].unit.character[0].profile = prof("Lord", 4, 10, 3, 10, 5, 3, 10, 7, 9);
    c.side[1].unit.champion = true;
    c.side[0].charging = true;
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    for (unsigned k = 0; k <= 7; k++) {
        double pk = binom_pmf(k, 7, q);
        unsigned cr = k == 0 ? 0 : k < 6 ? k : 6;
        mean += pk * cr;
        ex2 += pk * cr * cr;
        if (k >= 6)
            p6 += pk;
    }
    expect_mean(t.result[0], t.n, mean, ex2 - mean * mean, "overkill");
    expect_frequency(t.round1_winner[OM_WH7_SIDE_A], t.n, 1 - binom_pmf(0, 7, q), "A wins");
    cr_expect(p6 > 0.1, "the +5 cap matters here");
    cr_expect_eq(t.challenge, t.n, "a challenge every time");
    om_wh7_prepared_free(p);
    /* Without the challenge the Lord's blows go at the rank and file. */
    c.challenge = false;
    p = prepare_or_die(&c);
    t = run_trials(p, 20000, false, NULL, NULL);
    cr_expect_eq(t.challenge, 0u);
    cr_expect_gt(t.slain[1], 0.0);
    cr_expect_eq(t.chars_slain[1], 0u);
    om_wh7_prepared_free(p);
}

/* ---- Army-book readings ---- */

Test(whfb7_rules, ethereal_and_magical_attacks, .timeout = 30)
{
    om_wh7_combat c = first_strike(ORC_BOY, ORC_BOY);
    tally t;
    c.side[1].unit.traits.rules = OM_WH7_RULE_ETHEREAL;
    t = run_fast(&c, 20000);
    cr_expect_float_eq(t.slain[1], 0.0, EXACT, "mundane blows never harm it");
    c.side[0].unit.traits.rules = OM_WH7_RULE_MAGICAL_ATTACKS;
    expect_kills(&c, 0, 5, 1.0 / 2 * 2.0 / 6, "magical attacks do");
    c.side[0].unit.traits.rules = 0;
    c.side[0].unit.equipment.magic_weapon = OM_WH7_MAGIC_WEAPON_BITING_BLADE;
    expect_kills(&c, 0, 5, 1.0 / 2 * 2.0 / 6, "a magic weapon does");
}

typedef struct crumble_ctx { unsigned bad; } crumble_ctx;

static void crumble_identity(const om_wh7_outcome *o, void *vctx)
{
    crumble_ctx *ctx = vctx;
    /* A (10, one rank bonus) loses to B (20: 3 ranks, standard, outnumber)
     * by 5 - 1 = 4: 4 more wounds, no break test. */
    if (o->wounds[0] != 4 || o->slain[0] != 4 || o->broke[0] || o->fled[0])
        ctx->bad++;
}

Test(whfb7_rules, undead_and_swarms_crumble, .timeout = 30)
{
    static const om_wh7_rules rules[2] = {OM_WH7_RULE_UNDEAD, OM_WH7_RULE_SWARM};
    for (int i = 0; i < 2; i++) {
        om_wh7_combat c = certain(10, 5, 20, 5);
        om_wh7_prepared *p;
        crumble_ctx ctx = {0};
        c.side[1].unit.standard = true;
        c.side[0].unit.traits.rules = rules[i];
        p = prepare_or_die(&c);
        run_trials(p, 2000, false, crumble_identity, &ctx);
        cr_expect_eq(ctx.bad, 0u, "rule %d: E23, margin 4 -> 4 wounds", i);
        om_wh7_prepared_free(p);
    }
}

Test(whfb7_rules, flyers_flee_and_pursue_three_dice, .timeout = 30)
{
    om_wh7_combat c = certain(5, 5, 20, 5);
    tally t;
    c.side[1].unit.standard = true;
    c.side[1].unit.traits.rules = OM_WH7_RULE_FLYER;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.destroyed[0], t.n, 35.0 / 36 * catch_probability(3, 2), "3D6 pursuers");
}

/* ---- Weapons ---- */

Test(whfb7_rules, two_hand_weapons_e26, .timeout = 30)
{
    om_wh7_combat c = first_strike(ORC_BOY, ORC_BOY);
    c.side[0].unit.equipment.weapon = OM_WH7_WEAPON_TWO_HAND;
    expect_kills(&c, 0, 10, 1.0 / 2 * 2.0 / 6, "A1 fights with 2");
    c.side[0].unit.profile.a = 2;
    expect_kills(&c, 0, 15, 1.0 / 2 * 2.0 / 6, "A2 fights with 3");
}

Test(whfb7_rules, great_weapon_strength_and_strikes_last, .timeout = 60)
{
    /* Charging Greatswords strike first at S5: vs T4 3+, WS4 vs WS3 3+. */
    om_wh7_profile gs = prof("Greatsword", 4, 4, 3, 3, 3, 1, 3, 1, 8);
    om_wh7_combat c = first_strike(gs, ORC_BOY);
    om_wh7_prepared *p;
    ex_unit u[2];
    ex_result x;
    tally t;
    c.side[0].unit.equipment.weapon = OM_WH7_WEAPON_GREAT;
    expect_kills(&c, 0, 5, 4.0 / 6 * 4.0 / 6, "great weapon, charging");
    /* Not charging, against Goblins of lower Initiative: the Greatswords
     * strike last. */
    c = combat_of(OM_WH7_KIND_COMBAT, side_of(unit_of(OM_WH7_INFANTRY, gs, 10, 5)),
                  side_of(unit_of(OM_WH7_INFANTRY, GOBLIN, 10, 5)));
    c.side[0].unit.equipment.weapon = OM_WH7_WEAPON_GREAT;
    p = prepare_or_die(&c);
    u[0] = (ex_unit){10, 5, 5, 4.0 / 6 * 5.0 / 6, 8, false, 1, 2};
    u[1] = (ex_unit){10, 5, 5, 3.0 / 6 * 3.0 / 6, 6, false, 1, 2};
    x = exact_round(u, 1);
    t = run_trials(p, TRIALS, false, NULL, NULL);
    expect_round(&t, &x, "strikes last");
    om_wh7_prepared_free(p);
}

Test(whfb7_rules, flail_morning_star_halberd_e25, .timeout = 30)
{
    /* Orcs on Orcs: S3 vs T4 5+. Flail +2 (S5: 3+) and morning star +1 (S4:
     * 4+) in the first turn only; halberd +1 always (E25). */
    static const struct { om_wh7_weapon w; double first, later; } cases[] = {
        {OM_WH7_WEAPON_FLAIL, 4.0 / 6, 2.0 / 6},
        {OM_WH7_WEAPON_MORNING_STAR, 3.0 / 6, 2.0 / 6},
        {OM_WH7_WEAPON_HALBERD, 3.0 / 6, 3.0 / 6},
    };
    for (unsigned i = 0; i < 3; i++) {
        om_wh7_combat c = first_strike(ORC_BOY, ORC_BOY);
        om_wh7_prepared *p;
        double pw, ps;
        c.side[0].unit.equipment.weapon = cases[i].w;
        expect_kills(&c, 0, 5, 1.0 / 2 * cases[i].first, "first turn");
        p = prepare_or_die(&c);
        om_wh7_chain_probability(&p->side[0].part[WH7_PART_RF].vs[WH7_TARGET_RF][WH7_ROUND_LATER].chain,
                                 &pw, &ps);
        cr_expect_float_eq(pw, 1.0 / 2 * cases[i].later, EXACT, "weapon %u later", i);
        om_wh7_prepared_free(p);
    }
}

Test(whfb7_rules, spears_fight_in_two_ranks, .timeout = 60)
{
    /* Spearmen charged by Orcs fight with two ranks (5 + 5, less those
     * slain); charging, spearmen fight with one. */
    om_wh7_side orcs = side_of(unit_of(OM_WH7_INFANTRY, ORC_BOY, 10, 5));
    om_wh7_side spears = side_of(unit_of(OM_WH7_INFANTRY, SPEARMAN, 15, 5));
    om_wh7_combat c;
    om_wh7_prepared *p;
    ex_unit u[2];
    ex_result x;
    tally t;
    spears.unit.equipment.weapon = OM_WH7_WEAPON_SPEAR;
    orcs.charging = true;
    c = combat_of(OM_WH7_KIND_COMBAT, orcs, spears);
    p = prepare_or_die(&c);
    u[0] = (ex_unit){10, 5, 5, 1.0 / 2 * 3.0 / 6, 7, false, 1, 2};
    u[1] = (ex_unit){15, 5, 10, 1.0 / 2 * 2.0 / 6, 7, false, 1, 2};
    x = exact_round(u, 0);
    t = run_trials(p, TRIALS, false, NULL, NULL);
    expect_round(&t, &x, "two ranks of spears");
    om_wh7_prepared_free(p);
    c = first_strike(SPEARMAN, ORC_BOY);
    c.side[0].unit.equipment.weapon = OM_WH7_WEAPON_SPEAR;
    expect_kills(&c, 0, 5, 1.0 / 2 * 2.0 / 6, "charging spearmen: one rank");
}

Test(whfb7_rules, lances_and_mounted_spears_and_mounts, .timeout = 30)
{
    /* Knights (WS4, S3) charge Orcs (WS3 T4): with lances S5 3+; their
     * Warhorses (WS3 S3) strike separately: 4+ and 5+. Both first (charge). */
    om_wh7_combat c = first_strike(KNIGHT, ORC_BOY);
    om_wh7_prepared *p;
    tally t;
    double pr = 4.0 / 6 * 4.0 / 6, pm = 3.0 / 6 * 2.0 / 6;
    double pw, ps;
    c.side[0].unit.troop = OM_WH7_CAVALRY;
    c.side[0].unit.mount.profile = WARHORSE;
    c.side[0].unit.equipment.weapon = OM_WH7_WEAPON_LANCE;
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    expect_mean(t.slain[1], t.n, 5 * pr + 5 * pm, 5 * pr * (1 - pr) + 5 * pm * (1 - pm),
                "lances and horses");
    om_wh7_chain_probability(&p->side[0].part[WH7_PART_RF].vs[WH7_TARGET_RF][WH7_ROUND_LATER].chain,
                             &pw, &ps);
    cr_expect_float_eq(pw, 4.0 / 6 * 2.0 / 6, EXACT, "no lance bonus after the charge");
    om_wh7_prepared_free(p);
    c.side[0].unit.equipment.weapon = OM_WH7_WEAPON_SPEAR;
    p = prepare_or_die(&c);
    om_wh7_chain_probability(&p->side[0].part[WH7_PART_RF].vs[WH7_TARGET_RF][WH7_ROUND_FIRST].chain,
                             &pw, &ps);
    cr_expect_float_eq(pw, 4.0 / 6 * 3.0 / 6, EXACT, "mounted spear +1 charging");
    om_wh7_prepared_free(p);
    /* A defended obstacle takes the charge bonus away. */
    c.side[0].unit.equipment.weapon = OM_WH7_WEAPON_LANCE;
    c.side[1].defended_obstacle = true;
    p = prepare_or_die(&c);
    om_wh7_chain_probability(&p->side[0].part[WH7_PART_RF].vs[WH7_TARGET_RF][WH7_ROUND_FIRST].chain,
                             &pw, &ps);
    cr_expect_float_eq(pw, 4.0 / 6 * 2.0 / 6, EXACT, "no lance against a defended obstacle");
    om_wh7_prepared_free(p);
}

Test(whfb7_rules, barding_slows_the_charge, .timeout = 30)
{
    /* Knights on Warhorses (M8) charge from 8" a unit that flees 2D6: caught
     * if 8 + flee <= 16, so flee <= 8 (26/36); barded (M7) 14": flee <= 6
     * (15/36) (Movement > Barding; E4). */
    om_wh7_combat c = certain(5, 5, 10, 5);
    tally t;
    c.side[0].unit.troop = OM_WH7_CAVALRY;
    c.side[0].unit.mount.profile = prof("Warhorse", 8, 3, 0, 1, 3, 1, 3, 1, 5);
    c.side[0].charging = true;
    c.side[1].response = OM_WH7_RESPONSE_FLEE;
    c.side[1].gap_in = 8;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.caught[1], t.n, 26.0 / 36, "M8");
    c.side[0].unit.equipment.barding = true;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.caught[1], t.n, 15.0 / 36, "barded M7");
}

Test(whfb7_rules, champion_has_an_extra_attack, .timeout = 30)
{
    /* Four rank and file and the champion (2 Attacks) in contact: 6 blows. */
    om_wh7_combat c = first_strike(ORC_BOY, ORC_BOY);
    c.side[0].unit.champion = true;
    expect_kills(&c, 0, 6, 1.0 / 2 * 2.0 / 6, "champion");
}

/* ---- Common magic weapons ---- */

Test(whfb7_rules, magic_weapons_e44_e45)
{
    om_wh7_combat c = first_strike(SWORDSMAN, ORC_BOY);
    om_wh7_prepared *p;
    const om_wh7_chain *ch;
    /* E44: Sword of Striking where 3+ is needed: 2+. */
    c.side[0].unit.equipment.magic_weapon = OM_WH7_MAGIC_WEAPON_STRIKING;
    p = prepare_or_die(&c);
    ch = &p->side[0].part[WH7_PART_RF].vs[WH7_TARGET_RF][WH7_ROUND_FIRST].chain;
    cr_expect_eq(ch->hit, 2u);
    om_wh7_prepared_free(p);
    /* Sword of Battle +1 Attack; Sword of Might +1 S (S4 vs T4: 4+). */
    c.side[0].unit.equipment.magic_weapon = OM_WH7_MAGIC_WEAPON_BATTLE;
    p = prepare_or_die(&c);
    cr_expect_eq(p->side[0].part[WH7_PART_RF].attacks[WH7_ROUND_FIRST], 2u);
    om_wh7_prepared_free(p);
    c.side[0].unit.equipment.magic_weapon = OM_WH7_MAGIC_WEAPON_MIGHT;
    p = prepare_or_die(&c);
    cr_expect_eq(p->side[0].part[WH7_PART_RF].vs[WH7_TARGET_RF][WH7_ROUND_FIRST].chain.wound, 4u);
    om_wh7_prepared_free(p);
    /* E45: the Biting Blade at S3, S4, S5 gives -1, -2, -3: against a 3+
     * save (heavy armour, shield, parry) 4+, 5+, 6+. */
    c.side[1].unit.equipment.armour = OM_WH7_ARMOUR_HEAVY;
    c.side[1].unit.equipment.shield = true;
    c.side[0].unit.equipment.magic_weapon = OM_WH7_MAGIC_WEAPON_BITING_BLADE;
    for (unsigned s = 3; s <= 5; s++) {
        c.side[0].unit.profile.s = (uint8_t)s;
        p = prepare_or_die(&c);
        cr_expect_eq(p->side[0].part[WH7_PART_RF].vs[WH7_TARGET_RF][WH7_ROUND_FIRST].chain.armour,
                     3u + (s - 2u), "S%u", s);
        om_wh7_prepared_free(p);
    }
}

Test(whfb7_rules, ws_zero_is_hit_automatically, .timeout = 30)
{
    /* Characteristics of 0: blows against WS 0 hit automatically. */
    om_wh7_profile crew = prof("Machine", 0, 0, 0, 0, 3, 1, 1, 0, 0);
    om_wh7_combat c = first_strike(ORC_BOY, crew);
    expect_kills(&c, 0, 5, 3.0 / 6, "automatic hits, 4+ to wound");
}

Test(whfb7_rules, immunity_belongs_to_the_unit, .timeout = 30)
{
    /* Characters > Psychology > Immune to Psychology: an immune character
     * joining a unit that is not loses his immunity (the unit still tests
     * Fear to charge); a character joining an immune unit gains it. */
    om_wh7_combat c = certain(10, 6, 10, 5);
    tally t;
    c.side[0].charging = true;
    c.side[1].unit.traits.rules = OM_WH7_RULE_FEAR;
    c.side[0].unit.characters = 1;
    c.side[0].unit.character[0].profile = prof("Priest", 4, 4, 3, 1, 5, 2, 4, 2, 7);
    c.side[0].unit.character[0].traits.rules = OM_WH7_RULE_ITP;
    t = run_fast(&c, TRIALS / 2);
    expect_frequency(t.feared[0], t.n, 15.0 / 36, "the unit still fears");
    c.side[0].unit.character[0].traits.rules = 0;
    c.side[0].unit.traits.rules = OM_WH7_RULE_ITP;
    t = run_fast(&c, 10000);
    cr_expect_eq(t.feared[0], 0u, "an immune unit shields its character");
}
