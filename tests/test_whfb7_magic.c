/*
 * test_whfb7_magic.c: the magic phase of the WHFB 7th edition engine (WHFB
 * 7th edition, The Magic Phase; The Lores of Magic): the digest's derived
 * casting probabilities D4-D7 and worked examples E38-E40, casting against
 * dispels and the miscast table by Monte Carlo against enumerations, the
 * spells' damage (Fireball, Conflagration of Doom, Pit of Shades, Burning
 * Iron, Steal Soul, The Hunter's Spear, The Burning Head) and the augments
 * and hexes applied to combats as data.
 */
#include "test_whfb7.h"
#include "wh7_int.h"

#define WIZARD prof("Battle Wizard", 4, 3, 3, 3, 3, 2, 3, 1, 7)

Test(whfb7_magic, casting_probabilities_d4_to_d7)
{
    double p[4];
    /* D4: 2 dice against 7. */
    om_wh7_cast_probabilities(2, 0, 7, p);
    cr_expect_float_eq(p[OM_WH7_CAST_CAST], 5.0 / 9, EXACT);
    cr_expect_float_eq(p[OM_WH7_CAST_IRRESISTIBLE], 1.0 / 36, EXACT);
    cr_expect_float_eq(p[OM_WH7_CAST_MISCAST], 1.0 / 36, EXACT);
    cr_expect_float_eq(p[OM_WH7_CAST_FAIL], 7.0 / 18, EXACT);
    /* D5: 3 dice against 8. */
    om_wh7_cast_probabilities(3, 0, 8, p);
    cr_expect_float_eq(p[OM_WH7_CAST_CAST], 3.0 / 4, EXACT);
    cr_expect_float_eq(p[OM_WH7_CAST_IRRESISTIBLE], 2.0 / 27, EXACT);
    cr_expect_float_eq(p[OM_WH7_CAST_MISCAST], 2.0 / 27, EXACT);
    cr_expect_float_eq(p[OM_WH7_CAST_FAIL], 11.0 / 108, EXACT);
    /* D6: 4 dice against 12; two 1s and two 6s is a miscast. */
    om_wh7_cast_probabilities(4, 0, 12, p);
    cr_expect_float_eq(p[OM_WH7_CAST_CAST], 785.0 / 1296, EXACT);
    cr_expect_float_eq(p[OM_WH7_CAST_IRRESISTIBLE], 55.0 / 432, EXACT);
    cr_expect_float_eq(p[OM_WH7_CAST_MISCAST], 19.0 / 144, EXACT);
    {
        unsigned f[4] = {1, 1, 6, 6};
        cr_expect_eq(om_wh7_cast_result(f, 4, 0, 12), OM_WH7_CAST_MISCAST);
    }
    /* D7: 1 die against 5: 1/3, no irresistible force or miscast. */
    om_wh7_cast_probabilities(1, 0, 5, p);
    cr_expect_float_eq(p[OM_WH7_CAST_CAST], 1.0 / 3, EXACT);
    cr_expect_float_eq(p[OM_WH7_CAST_IRRESISTIBLE] + p[OM_WH7_CAST_MISCAST], 0.0, EXACT);
    /* A total of 1 or 2 always fails, whatever the bonus. */
    {
        unsigned f[1] = {2};
        cr_expect_eq(om_wh7_cast_result(f, 1, 0, 1), OM_WH7_CAST_FAIL);
        cr_expect_eq(om_wh7_cast_result(f, 1, 1, 3), OM_WH7_CAST_CAST);
    }
}

Test(whfb7_magic, worked_examples_e38_e39)
{
    unsigned a[1] = {4}, b[2] = {4, 6}, c[3] = {3, 5, 6};
    unsigned dispel19[4] = {5, 5, 5, 4}, dispel20[4] = {5, 5, 5, 5}, e39[5] = {1, 1, 4, 6, 6};
    unsigned sixes[3] = {6, 6, 1};
    /* E38: casting results 4, 10, 14; a 20 needs a dispel of 20 or more. */
    cr_expect_eq(om_wh7_cast_result(a, 1, 0, 4), OM_WH7_CAST_CAST);
    cr_expect_eq(om_wh7_cast_result(a, 1, 0, 5), OM_WH7_CAST_FAIL);
    cr_expect_eq(om_wh7_cast_result(b, 2, 0, 10), OM_WH7_CAST_CAST);
    cr_expect_eq(om_wh7_cast_result(c, 3, 0, 14), OM_WH7_CAST_CAST);
    cr_expect_eq(om_wh7_cast_result(c, 3, 0, 15), OM_WH7_CAST_FAIL);
    cr_expect(!om_wh7_dispel_holds(dispel19, 4, 0, 20));
    cr_expect(om_wh7_dispel_holds(dispel20, 4, 0, 20));
    cr_expect(om_wh7_dispel_holds(dispel19, 4, 1, 20), "Staff of Sorcery +1");
    /* E39: 1, 1, 4, 6, 6 fails: the 1s take precedence. */
    cr_expect(!om_wh7_dispel_holds(e39, 5, 0, 5));
    cr_expect(om_wh7_dispel_holds(sixes, 3, 0, 30), "two 6s dispel anything");
}

/* Side A (a wizard's unit) casts at 20 Orcs. */
static om_wh7_combat cast_at_orcs(om_wh7_lore lore, unsigned spell, unsigned dice)
{
    om_wh7_combat c = combat_of(OM_WH7_KIND_MAGIC,
                                side_of(unit_of(OM_WH7_INFANTRY, SPEARMAN, 10, 5)),
                                side_of(unit_of(OM_WH7_INFANTRY, ORC_BOY, 20, 5)));
    c.magic.lore = lore;
    c.magic.spell = (uint8_t)spell;
    c.magic.level = 2;
    c.magic.dice = (uint8_t)dice;
    c.magic.caster = WIZARD;
    return c;
}

Test(whfb7_magic, power_dice_limit_e40)
{
    om_wh7_combat c = cast_at_orcs(OM_WH7_LORE_FIRE, 1, 3);
    om_wh7_check_failure why;
    cr_expect_eq(om_wh7_check(&c, &why), OM_OK);
    c.magic.dice = 5;
    cr_expect_eq(om_wh7_check(&c, &why), OM_EINVAL);
    cr_expect_str_eq(why.field, "magic.dice");
    /* E40: a level 2 wizard with a Power Stone rolls up to 5. */
    c.magic.power_stone = true;
    cr_expect_eq(om_wh7_check(&c, &why), OM_OK);
    c.magic.dice = 6;
    cr_expect_eq(om_wh7_check(&c, &why), OM_EINVAL);
    /* A15: an illegible casting value must be given. */
    c = cast_at_orcs(OM_WH7_LORE_METAL, 1, 2);
    cr_expect_eq(om_wh7_check(&c, &why), OM_EINVAL);
    cr_expect_str_eq(why.field, "magic.casting_value");
    c.magic.casting_value = 6;
    cr_expect_eq(om_wh7_check(&c, &why), OM_OK);
    c.magic.lore = (om_wh7_lore)9;
    cr_expect_eq(om_wh7_check(&c, &why), OM_EINVAL);
    cr_expect_str_eq(why.field, "magic.lore");
}

/* Exact odds of a casting with n dice against cv and a dispel of m dice:
 * P(cast), P(irresistible), P(dispelled), by enumerating both rolls. */
static void exact_cast_dispel(unsigned n, unsigned cv, unsigned m, double *cast, double *irr,
                              double *dispelled)
{
    unsigned f[8], g[8], combos = 1, dcombos = 1;
    *cast = *irr = *dispelled = 0;
    for (unsigned i = 0; i < n; i++)
        combos *= 6;
    for (unsigned i = 0; i < m; i++)
        dcombos *= 6;
    for (unsigned code = 0; code < combos; code++) {
        unsigned x = code, total = 0;
        om_wh7_cast r;
        for (unsigned i = 0; i < n; i++) {
            f[i] = x % 6 + 1;
            x /= 6;
            total += f[i];
        }
        r = om_wh7_cast_result(f, n, 0, cv);
        if (r == OM_WH7_CAST_MISCAST)
            continue; /* a miscast casts only on 12 (1/36): counted apart */
        if (r == OM_WH7_CAST_IRRESISTIBLE) {
            *cast += 1.0 / combos;
            *irr += 1.0 / combos;
        } else if (r == OM_WH7_CAST_CAST) {
            *cast += 1.0 / combos;
            for (unsigned dc = 0; dc < dcombos; dc++) {
                unsigned y = dc;
                for (unsigned i = 0; i < m; i++) {
                    g[i] = y % 6 + 1;
                    y /= 6;
                }
                if (om_wh7_dispel_holds(g, m, 0, total))
                    *dispelled += 1.0 / combos / dcombos;
            }
        }
    }
}

Test(whfb7_magic, cast_against_dispel, .timeout = 60)
{
    /* Fiery Blast (8+) with 3 dice against 2 dispel dice. A miscast (2/27)
     * casts with irresistible force on a 12 of the table (1/36). */
    om_wh7_combat c = cast_at_orcs(OM_WH7_LORE_FIRE, 4, 3);
    om_wh7_prepared *p;
    tally t;
    double cast, irr, dispelled, pm = 2.0 / 27;
    unsigned n_cast = 0, n_irr = 0, n_disp = 0, n_mis = 0;
    om_dice d;
    c.magic.dispel_dice = 2;
    exact_cast_dispel(3, 8, 2, &cast, &irr, &dispelled);
    p = prepare_or_die(&c);
    om_rng_seed_block(&d.rng, 5, 5);
    d.plain = NULL;
    for (unsigned i = 0; i < TRIALS; i++) {
        om_wh7_outcome o;
        om_wh7_resolve(p, &d, &o);
        n_cast += o.cast;
        n_irr += o.irresistible;
        n_disp += o.dispelled;
        n_mis += o.miscast != 0;
    }
    expect_frequency(n_cast, TRIALS, cast + pm / 36, "cast");
    expect_frequency(n_irr, TRIALS, irr + pm / 36, "irresistible");
    expect_frequency(n_disp, TRIALS, dispelled, "dispelled");
    expect_frequency(n_mis, TRIALS, pm, "miscast");
    /* A Dispel Scroll stops everything but irresistible force. */
    om_wh7_prepared_free(p);
    c.magic.dispel_scroll = true;
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    {
        /* Given the effect: H ~ 2D6 hits (mean 7, variance 35/6), kills
         * Bin(H, 1/2): E[K] = 3.5, E[K^2] = E[H]/4 + E[H^2]/4. */
        double q = irr + pm / 36, ek2 = 7.0 / 4 + (35.0 / 6 + 49) / 4;
        expect_mean(t.slain[1], t.n, q * 3.5, q * ek2 - q * q * 3.5 * 3.5,
                    "only irresistible blasts land: 2D6 hits, S4 vs T4");
    }
    om_wh7_prepared_free(p);
}

Test(whfb7_magic, miscast_table, .timeout = 60)
{
    /* 3 dice: a miscast 2/27; the table's 2D6 then. The wizard (T3, 2 W)
     * takes: 2 removed; 3-4 S6 (2+); 7 S2 (5+); 8-9 S4 (3+); 10-11 S8 (2+):
     * one wound each. */
    om_wh7_combat c = cast_at_orcs(OM_WH7_LORE_FIRE, 4, 3);
    om_wh7_prepared *p = prepare_or_die(&c);
    unsigned counts[13] = {0}, wounds = 0, slain = 0;
    double pm = 2.0 / 27, ew;
    om_dice d;
    om_rng_seed_block(&d.rng, 6, 6);
    d.plain = NULL;
    for (unsigned i = 0; i < TRIALS; i++) {
        om_wh7_outcome o;
        om_wh7_resolve(p, &d, &o);
        counts[o.miscast]++;
        wounds += o.caster_wounds;
        slain += o.caster_slain;
    }
    for (unsigned k = 2; k <= 12; k++)
        expect_frequency(counts[k], TRIALS, pm * nd6_pmf(2, k), "miscast table roll");
    ew = pm * (nd6_pmf(2, 3) * 5 / 6 + nd6_pmf(2, 4) * 5 / 6 + nd6_pmf(2, 7) * 2 / 6 +
               nd6_pmf(2, 8) * 4 / 6 + nd6_pmf(2, 9) * 4 / 6 + nd6_pmf(2, 10) * 5 / 6 +
               nd6_pmf(2, 11) * 5 / 6);
    expect_frequency(wounds, TRIALS, ew, "a wound on the wizard");
    expect_frequency(slain, TRIALS, pm * nd6_pmf(2, 2), "removed (2 Wounds: only a 2)");
    om_wh7_prepared_free(p);
}

/* Mean and variance of slain over trials where the spell took effect. */
typedef struct effect_ctx { double n, slain, slain2, hits, hits2; } effect_ctx;

static void effect_sum(const om_wh7_outcome *o, void *vctx)
{
    effect_ctx *c = vctx;
    if (!o->cast || o->dispelled)
        return;
    c->n++;
    c->slain += o->slain[1];
    c->slain2 += (double)o->slain[1] * o->slain[1];
    c->hits += o->hits[1];
    c->hits2 += (double)o->hits[1] * o->hits[1];
}

static effect_ctx run_effect(const om_wh7_combat *c, unsigned trials)
{
    om_wh7_prepared *p = prepare_or_die(c);
    effect_ctx e = {0, 0, 0, 0, 0};
    run_trials(p, trials, false, effect_sum, &e);
    om_wh7_prepared_free(p);
    return e;
}

Test(whfb7_magic, fireball_and_conflagration, .timeout = 60)
{
    /* Fireball: D6 S4 hits on T4 Orcs (no armour): slain given the effect
     * has mean 3.5 / 2 and variance E[K] Var(B) + Var(K) E[B]^2. */
    om_wh7_combat c = cast_at_orcs(OM_WH7_LORE_FIRE, 1, 3);
    effect_ctx e = run_effect(&c, TRIALS / 2);
    double var = 3.5 * 0.25 + 35.0 / 12 * 0.25;
    expect_mean(e.slain, (unsigned)e.n, 1.75, var, "fireball");
    /* Conflagration of Doom (11+, 5 dice for a level 4): D6 + extra hits,
     * extra = the caster's dice while they beat the opponent's (A17): mean
     * 10/3 (a geometric count, mean 5/7, of dice of mean 14/3). */
    c = cast_at_orcs(OM_WH7_LORE_FIRE, 5, 5);
    c.magic.level = 4;
    e = run_effect(&c, TRIALS / 2);
    {
        double en = 5.0 / 7, vn = 540.0 / 441, ec = 14.0 / 3, vc = 14.0 / 9;
        double vextra = en * vc + vn * ec * ec;
        expect_mean(e.hits, (unsigned)e.n, 3.5 + 10.0 / 3, 35.0 / 12 + vextra, "conflagration");
    }
}

Test(whfb7_magic, special_damage_spells, .timeout = 60)
{
    om_wh7_combat c;
    effect_ctx e;
    /* Pit of Shades: the 3" template on the middle of 20 Orcs (5 x 4, 20mm):
     * every model under it (wholly, or partly on 4+) passes an Initiative
     * test (I2: 1-2) or is removed: 4/6. */
    {
        om_wh7_template_cover cov;
        double w = 20 / 25.4, under;
        om_wh7_round_template(20, 5, w, w, 0, 0, 2 * w, 1.5, &cov);
        under = cov.full + (cov.centre ? 1 : 0);
        c = cast_at_orcs(OM_WH7_LORE_SHADOW, 6, 3);
        c.magic.level = 3;
        c.magic.dice = 4;
        e = run_effect(&c, TRIALS / 2);
        expect_mean(e.slain, (unsigned)e.n, (under + cov.partial / 2.0) * 4 / 6,
                    under * 4.0 / 6 * 2 / 6 + cov.partial * (1.0 / 3) * (2.0 / 3), "pit");
    }
    /* Rule of Burning Iron (CV given: A15): one hit, Strength by the save:
     * Orcs with light armour and shield (5+) take S3 (vs T4: 5+), flaming,
     * no armour save. */
    c = cast_at_orcs(OM_WH7_LORE_METAL, 1, 3);
    c.magic.casting_value = 6;
    c.side[1].unit.equipment.armour = OM_WH7_ARMOUR_LIGHT;
    c.side[1].unit.equipment.shield = true;
    e = run_effect(&c, TRIALS / 2);
    expect_mean(e.slain, (unsigned)e.n, 1.0 / 3, 2.0 / 9, "burning iron");
    /* Steal Soul: one model loses a wound, no armour save: an Orc dies. */
    c = cast_at_orcs(OM_WH7_LORE_DEATH, 2, 3);
    c.side[1].unit.equipment.armour = OM_WH7_ARMOUR_HEAVY;
    e = run_effect(&c, 20000);
    cr_expect_float_eq(e.slain, e.n, EXACT, "steal soul");
    /* The Hunter's Spear: S6 no armour through 4 ranks of Orcs (T4): 2+,
     * 3+ (S5), 4+ (S4), 5+ (S3) while each is slain. */
    c = cast_at_orcs(OM_WH7_LORE_BEASTS, 5, 3);
    e = run_effect(&c, TRIALS / 2);
    {
        double k[4] = {5.0 / 6, 4.0 / 6, 3.0 / 6, 2.0 / 6}, prod = 1, mean = 0, ex2 = 0;
        for (unsigned j = 0; j <= 4; j++) {
            double pj = prod * (j < 4 ? 1 - k[j] : 1);
            mean += pj * j;
            ex2 += pj * j * j;
            if (j < 4)
                prod *= k[j];
        }
        expect_mean(e.slain, (unsigned)e.n, mean, ex2 - mean * mean, "hunter's spear");
    }
    /* The Burning Head: an S4 flaming hit on each of the 4 ranks. */
    c = cast_at_orcs(OM_WH7_LORE_FIRE, 3, 3);
    e = run_effect(&c, TRIALS / 2);
    expect_mean(e.hits, (unsigned)e.n, 4, 0, "burning head hits");
    expect_mean(e.slain, (unsigned)e.n, 2, 1, "burning head kills");
}

Test(whfb7_magic, panic_after_spells, .timeout = 60)
{
    /* Wind of Death (2D6 S4) at 8 Orcs (Ld7): 2 or more slain (25%) makes
     * them test; exact over the 2D6 hits and their Bin(h, 1/2) kills. */
    om_wh7_combat c = cast_at_orcs(OM_WH7_LORE_DEATH, 3, 3);
    om_wh7_prepared *p;
    unsigned panicked = 0, effect = 0;
    double p2 = 0;
    om_dice d;
    c.side[1].unit.models = 8;
    c.side[1].unit.files = 4;
    for (unsigned h = 2; h <= 12; h++)
        for (unsigned k = 2; k <= h && k < 8; k++)
            p2 += nd6_pmf(2, h) * binom_pmf(k, h, 0.5);
    p = prepare_or_die(&c);
    om_rng_seed_block(&d.rng, 9, 9);
    d.plain = NULL;
    for (unsigned i = 0; i < TRIALS; i++) {
        om_wh7_outcome o;
        om_wh7_resolve(p, &d, &o);
        if (o.cast && !o.dispelled && !o.destroyed[1]) {
            effect++;
            panicked += o.panicked[1];
        }
    }
    /* Given an effect that left some alive: P(panic) = P(2..7 slain) * 15/36
     * over P(fewer than 8 slain). */
    {
        double all = 0;
        for (unsigned h = 8; h <= 12; h++)
            for (unsigned k = 8; k <= h; k++)
                all += nd6_pmf(2, h) * binom_pmf(k, h, 0.5);
        expect_frequency(panicked, effect, p2 / (1 - all) * 15.0 / 36, "panic at a quarter");
    }
    om_wh7_prepared_free(p);
}

Test(whfb7_magic, lores_as_data)
{
    om_wh7_side s = side_of(unit_of(OM_WH7_INFANTRY, ORC_BOY, 20, 5));
    unsigned per_lore[OM_WH7_LORE_COUNT] = {0};
    cr_assert_eq(om_wh7_spell_count(), 48u);
    cr_expect_null(om_wh7_spell_at(48));
    for (size_t i = 0; i < om_wh7_spell_count(); i++) {
        const om_wh7_spell *sp = om_wh7_spell_at(i);
        per_lore[sp->lore]++;
        cr_expect_eq(om_wh7_spell_get(sp->lore, sp->number), sp, "%s", sp->id);
        cr_expect_eq(om_wh7_spell_find(sp->id), sp, "%s", sp->id);
        cr_expect(sp->casting_value == 0 || (sp->casting_value >= 4 && sp->casting_value <= 12),
                  "%s CV %u", sp->id, sp->casting_value);
        if (sp->kind == OM_WH7_SPELL_DAMAGE)
            cr_expect(sp->hit_dice + sp->hits_fixed > 0 || sp->special != OM_WH7_SPECIAL_NONE,
                      "%s has hits", sp->id);
    }
    for (unsigned l = 0; l < OM_WH7_LORE_COUNT; l++)
        cr_expect_eq(per_lore[l], 6u);
    /* A15: the two illegible casting values are 0 in the table. */
    cr_expect_eq(om_wh7_spell_get(OM_WH7_LORE_METAL, 1)->casting_value, 0u);
    cr_expect_eq(om_wh7_spell_get(OM_WH7_LORE_LIGHT, 6)->casting_value, 0u);
    /* Applying augments and hexes. */
    cr_expect_eq(om_wh7_spell_apply(om_wh7_spell_find("transmutation-of-lead"), &s), OM_OK);
    cr_expect(s.mods.to_hit == -1 && s.mods.to_wound == -1 && s.mods.armour == 1);
    cr_expect_eq(om_wh7_spell_apply(om_wh7_spell_find("shades-of-death"), &s), OM_OK);
    cr_expect(s.unit.traits.rules & OM_WH7_RULE_FEAR);
    cr_expect_eq(om_wh7_spell_apply(om_wh7_spell_find("walking-death"), &s), OM_OK);
    cr_expect(s.unit.traits.rules & OM_WH7_RULE_TERROR, "Fear upgraded to Terror");
    cr_expect_eq(om_wh7_spell_apply(om_wh7_spell_find("fireball"), &s), OM_EUNSUPPORTED);
    cr_expect_eq(om_wh7_spell_apply(om_wh7_spell_find("the-comet-of-casandora"), &s),
                 OM_EUNSUPPORTED);
}

Test(whfb7_magic, hexes_and_augments_change_the_dice, .timeout = 60)
{
    om_wh7_combat c;
    om_wh7_prepared *p;
    tally t;
    /* Doom & Darkness: A loses by 5 and tests on Ld7 - 3; not if immune. */
    {
        om_wh7_profile weak = prof("Weakling", 4, 3, 3, 1, 5, 1, 3, 1, 7);
        c = combat_of(OM_WH7_KIND_COMBAT, side_of(unit_of(OM_WH7_INFANTRY, weak, 5, 5)),
                      side_of(unit_of(OM_WH7_INFANTRY, weak, 20, 5)));
        c.side[1].unit.standard = true;
        c.side[0].general_ld = 10;
        om_wh7_spell_apply(om_wh7_spell_find("doom-and-darkness"), &c.side[0]);
        p = prepare_or_die(&c);
        t = run_trials(p, TRIALS / 2, false, NULL, NULL);
        /* Ld 10 - 3 = 7, losing by 5: holds on a double 1 only. */
        expect_frequency(t.broke[0], t.n, 35.0 / 36, "Doom & Darkness");
        om_wh7_prepared_free(p);
        /* Mistress of the Marsh on the loser: flee roll halved (rounded up):
         * caught far more often. */
        memset(&c.side[0].mods, 0, sizeof c.side[0].mods);
        c.side[0].general_ld = 0;
        om_wh7_spell_apply(om_wh7_spell_find("mistress-of-the-marsh"), &c.side[0]);
        p = prepare_or_die(&c);
        t = run_trials(p, TRIALS / 2, false, NULL, NULL);
        {
            double caught = 0;
            for (unsigned f = 2; f <= 12; f++)
                for (unsigned q = (f + 1) / 2; q <= 12; q++)
                    caught += nd6_pmf(2, f) * nd6_pmf(2, q);
            expect_frequency(t.destroyed[0], t.n, 35.0 / 36 * caught, "halved flight");
        }
        om_wh7_prepared_free(p);
    }
    /* The Beast Cowers on charging Knights: their horses do not attack;
     * riders with lances S5 vs T4 3+, WS4 vs WS3 3+. */
    c = combat_of(OM_WH7_KIND_COMBAT, side_of(unit_of(OM_WH7_CAVALRY, KNIGHT, 10, 5)),
                  side_of(unit_of(OM_WH7_INFANTRY, ORC_BOY, 25, 5)));
    c.side[0].unit.mount.profile = WARHORSE;
    c.side[0].unit.equipment.weapon = OM_WH7_WEAPON_LANCE;
    c.side[0].charging = true;
    om_wh7_spell_apply(om_wh7_spell_find("the-beast-cowers"), &c.side[0]);
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    expect_mean(t.slain[1], t.n, 5 * 4.0 / 9, 5 * 4.0 / 9 * 5 / 9, "riders only");
    om_wh7_prepared_free(p);
    /* Celestial Shield on the target of bows: a 4+ ward against missiles. */
    c = combat_of(OM_WH7_KIND_VOLLEY,
                  side_of(unit_of(OM_WH7_INFANTRY, prof("Archer", 4, 3, 3, 3, 3, 1, 3, 1, 7), 10, 5)),
                  side_of(unit_of(OM_WH7_INFANTRY, ORC_BOY, 20, 5)));
    c.side[0].unit.equipment.missile = OM_WH7_MISSILE_BOW;
    om_wh7_spell_apply(om_wh7_spell_find("celestial-shield"), &c.side[1]);
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    expect_mean(t.slain[1], t.n, 5.0 / 12, 5.0 / 12 * 11 / 12, "4+ ward against arrows");
    om_wh7_prepared_free(p);
    /* The Rain Lord on the archers: -1 to hit (5+). */
    memset(&c.side[1].mods, 0, sizeof c.side[1].mods);
    om_wh7_spell_apply(om_wh7_spell_find("the-rain-lord"), &c.side[0]);
    p = prepare_or_die(&c);
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    expect_mean(t.slain[1], t.n, 5.0 / 9, 5.0 / 9 * 8 / 9, "soaked archers");
    om_wh7_prepared_free(p);
}
