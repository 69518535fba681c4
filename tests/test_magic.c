/*
 * test_magic.c: Warmaster magic in the Shooting phase (engine/warmaster/magic.c,
 * scenarios/warmaster/wm_spells.c): each mechanism against its exact law at a
 * fixed seed, within 5 standard errors (sqrt(p(1-p)/n) for each probability).
 *
 *   - the casting roll: a D6 against the casting value, a 1 always failing and
 *     a 6 always working (Warmaster Revolution, Magic > Casting Spells): 5+
 *     works one time in three;
 *   - a magic missile (Death Bolt's mechanism, Revolution army lists: three
 *     shooting Attacks) cast on a unit of 1 Hit a stand: stands lost follow
 *     P(cast) x Binomial(3, P(hit) x P(not saved)), with the usual save or, for
 *     a spell that ignores armour, none;
 *   - the same-spell limit ("a unit can only ever be affected by the same
 *     spell once in any turn", Casting Spells): two Wizards, one target;
 *   - a burst (Storm of Stone, 1.1 High Elf list: D3 Attacks at every enemy
 *     unit in range): the convolution of the D3 and the binomial, unit by unit;
 *   - a shattering spell (Freeze, Kislev lists: a D6 above the Hits destroys a
 *     stand);
 *   - Attacks added in this turn's Combat phase (Waaagh!, Orc lists; Light of
 *     Battle, High Elf lists) and taken (Chill), the barred units of a spell;
 *   - anti-magic (Dwarf lists, Runesmith: an enemy Wizard within 50cm, 4+);
 *   - the checks, the table of spell effects against every army's spells, a
 *     battle of two example lists in which both sides' Wizards cast (and the
 *     Orcs' Waaagh! barred from Trolls, Ogres and the Giant), and a Dwarf
 *     list's Runesmith given anti-magic.
 * Layouts: x to the right, y up; side 0 faces +y, side 1 faces -y.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "army.h"
#include "battle.h"
#include "magic.h"
#include "turn.h"
#include "wm.h"
#include "wm_battle.h"
#include "wm_scenario.h"
#include "wm_spells.h"
#include "exact_law.h"
#include "turn_builder.h"

#define TRIALS 60000u
#define SIGMAS 5.0


/* ---- A turn under construction ---- */

static void begin(om_wm_turn *t, const char *ruleset)
{
    turn_begin(t, ruleset, OM_WM_INITIATIVE_AUTO);
}

/* Infantry in line, no special rule, no shooting. */
static unsigned infantry(om_wm_turn *t, unsigned side, unsigned stands, unsigned hits,
                         unsigned armour, double x, double y)
{
    const unsigned i = turn_unit(t, side ? "Foes" : "Friends", side, OM_WM_INFANTRY, stands, 3,
                                 hits, armour, x, y, side ? 270.0 : 90.0);
    t->unit[i].side.unit.points = 60;
    return i;
}

/* A Wizard of `side` joined to unit u, knowing all his side's spells. */
static unsigned wizard(om_wm_turn *t, unsigned side, unsigned u)
{
    int c = om_wm_table_add_character(&t->table, "Wizard", side, OM_WM_WIZARD, 7,
                                      t->table.unit[u].centre);
    cr_assert_geq(c, 0);
    t->table.character[c].joined = (int8_t)u;
    t->table.character[c].follow = (int8_t)u;
    t->magic.knows[c] = (uint8_t)((1u << t->magic.n[side]) - 1u);
    return (unsigned)c;
}

static void spell(om_wm_turn *t, unsigned side, om_wm_spell sp)
{
    t->magic.spell[side][t->magic.n[side]++] = sp;
}

static om_wm_spell missile(unsigned cast, unsigned attacks, bool no_save)
{
    return (om_wm_spell){.id = "bolt", .cast = (uint8_t)cast, .range_cm = 30,
                         .effect = OM_WM_SPELL_MISSILE, .attacks = (uint8_t)attacks,
                         .no_save = no_save, .sight = true};
}

/* Run `trials` turns; count[u][k]: trials in which unit u lost k stands. */
typedef struct tally {
    unsigned long lost[4][13];
    unsigned long cast, worked;
} tally;

static void run(const om_wm_turn *t, unsigned long trials, uint64_t s, tally *out)
{
    om_wm_turn_prepared *p = NULL;
    om_wm_turn_work *w = NULL;
    om_wm_check_failure why;
    om_wm_turn_result r;
    om_dice d;
    memset(&why, 0, sizeof why);
    memset(out, 0, sizeof *out);
    cr_assert_eq(om_wm_turn_prepare_alloc(t, &why, &p), OM_OK, "%s: %s", why.field, why.reason);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, s);
    for (unsigned long i = 0; i < trials; i++) {
        om_wm_turn_resolve(p, w, &d, &r);
        for (unsigned u = 0; u < t->table.units && u < 4; u++)
            out->lost[u][r.unit[u].stands_lost]++;
        out->cast += r.spells_cast;
        out->worked += r.spells_worked;
    }
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

/* ---- The casting roll ---- */

Test(magic, casting_roll_is_a_d6_with_1_failing_and_6_working)
{
    om_dice d;
    seed(&d, 11);
    for (unsigned cast = 2; cast <= 6; cast++) {
        unsigned long ok = 0;
        char what[48];
        for (unsigned long i = 0; i < TRIALS; i++)
            ok += om_wm_spell_casts(om_dice_roll_d6(&d), cast);
        snprintf(what, sizeof what, "cast on %u+", cast);
        expect_p(what, ok, TRIALS, (7.0 - cast) / 6.0);
        cr_expect_float_eq(om_wm_spell_cast_chance(cast), (7.0 - cast) / 6.0, 1e-12);
    }
    /* Whatever the value, a 1 fails and a 6 works. */
    cr_expect_not(om_wm_spell_casts(1, 1));
    cr_expect(om_wm_spell_casts(6, 9));
    cr_expect_float_eq(om_wm_spell_cast_chance(1), 5.0 / 6.0, 1e-12);
    cr_expect_float_eq(om_wm_spell_cast_chance(9), 1.0 / 6.0, 1e-12);
    cr_expect_float_eq(om_wm_spell_cast_chance(5), 1.0 / 3.0, 1e-12);
}

/* ---- Magic missiles ---- */

/*
 * A Wizard with Friends at (90, 40) casts three shooting Attacks at Foes, six
 * stands of 1 Hit (each hit a stand) with armour 5+, at (90, 65): 25cm away,
 * beyond initiative's 20cm, within the spell's 30cm, in the open (4+ to hit).
 * The spell here drives no unit back, so stands lost are the hits alone.
 */
static void missile_law(bool no_save, unsigned cast)
{
    om_wm_turn t;
    tally tl;
    const double p_cast = (7.0 - cast) / 6.0;
    const double p = 0.5 * (no_save ? 1.0 : 2.0 / 3.0);
    unsigned foes;
    begin(&t, "warmaster-revolution");
    spell(&t, 0, missile(cast, 3, no_save));
    (void)wizard(&t, 0, infantry(&t, 0, 3, 3, 0, 90, 40));
    foes = infantry(&t, 1, 6, 1, 5, 90, 65);
    run(&t, TRIALS, 21 + cast, &tl);
    for (unsigned k = 0; k <= 3; k++) {
        char what[64];
        const double exact = (k == 0 ? 1 - p_cast : 0.0) + p_cast * binom_pmf(3, k, p);
        snprintf(what, sizeof what, "P(%u stands lost), %s", k, no_save ? "no save" : "5+ save");
        expect_p(what, tl.lost[foes][k], TRIALS, exact);
    }
    cr_expect_eq(tl.cast, TRIALS, "one Wizard, one spell a turn: %lu", tl.cast);
    expect_p("spells worked", tl.worked, TRIALS, p_cast);
}

Test(magic, missile_with_saves_follows_the_binomial_law) { missile_law(false, 5); }
Test(magic, missile_ignoring_armour_follows_the_binomial_law) { missile_law(true, 4); }

/* Out of range (40cm) or out of sight (behind another unit), no spell is cast. */
Test(magic, missile_needs_range_and_sight)
{
    om_wm_turn t;
    tally tl;
    begin(&t, "warmaster-revolution");
    spell(&t, 0, missile(2, 3, true));
    (void)wizard(&t, 0, infantry(&t, 0, 3, 3, 0, 90, 40));
    (void)infantry(&t, 1, 3, 1, 0, 90, 82);
    run(&t, 200, 3, &tl);
    cr_expect_eq(tl.cast, 0, "40cm away: %lu casts", tl.cast);
}

/* ---- The same-spell limit ---- */

/*
 * Two Wizards with Friends, one target: the first casts (2+: 5/6); if it
 * works, Foes are affected and the second Wizard has no eligible target for
 * the same spell, else he casts it too. So the target is hit by exactly one
 * missile with chance 35/36 and stands lost are 35/36 x Bin(3, 1/2). Without
 * the limit a second missile would follow the first: this law fails.
 */
Test(magic, a_unit_is_affected_by_the_same_spell_once_a_turn)
{
    om_wm_turn t;
    tally tl;
    const double p_cast = 5.0 / 6.0, p_one = 1 - (1 - p_cast) * (1 - p_cast);
    unsigned friends, foes;
    begin(&t, "warmaster-revolution");
    spell(&t, 0, missile(2, 3, true));
    friends = infantry(&t, 0, 3, 3, 0, 90, 40);
    (void)wizard(&t, 0, friends);
    (void)wizard(&t, 0, friends);
    foes = infantry(&t, 1, 8, 1, 0, 90, 65);
    run(&t, TRIALS, 5, &tl);
    for (unsigned k = 0; k <= 6; k++) {
        char what[48];
        const double exact =
            (k == 0 ? 1 - p_one : 0.0) + p_one * (k <= 3 ? binom_pmf(3, k, 0.5) : 0);
        snprintf(what, sizeof what, "P(%u stands lost)", k);
        expect_p(what, tl.lost[foes][k], TRIALS, exact);
    }
    /* Mean casts a turn: 1 + P(the first fails). */
    cr_expect(fabs((double)tl.cast / TRIALS - (2.0 - p_cast)) <=
                  SIGMAS * sqrt(p_cast * (1 - p_cast) / TRIALS),
              "casts a turn %.4f vs %.4f", (double)tl.cast / TRIALS, 2.0 - p_cast);
}

/* A different spell may affect the same unit: two spells, two missiles. */
Test(magic, different_spells_may_affect_one_unit)
{
    om_wm_turn t;
    tally tl;
    om_wm_spell second = missile(2, 3, true);
    unsigned friends, foes;
    begin(&t, "warmaster-revolution");
    snprintf(second.id, sizeof second.id, "%s", "other-bolt");
    spell(&t, 0, missile(2, 3, true));
    spell(&t, 0, second);
    friends = infantry(&t, 0, 3, 3, 0, 90, 40);
    (void)wizard(&t, 0, friends);
    (void)wizard(&t, 0, friends);
    foes = infantry(&t, 1, 8, 1, 0, 90, 65);
    run(&t, TRIALS, 6, &tl);
    cr_expect_eq(tl.cast, 2 * TRIALS);
    /* Six stands lost only when both work and all six Attacks hit. */
    expect_p("P(6 stands lost)", tl.lost[foes][6], TRIALS, pow(5.0 / 6.0, 2) * pow(0.5, 6));
}

/* ---- Bursts ---- */

/* Storm of Stone (1.1): D3 Attacks at each of two enemy units within 30cm,
 * armour 0, 4+ to hit: P(k lost) = sum over D3 of Bin(n, 1/2). */
Test(magic, burst_hits_every_enemy_unit_in_range_with_d3_attacks)
{
    om_wm_turn t;
    tally tl;
    const om_wm_spell storm = {.id = "storm", .cast = 2, .range_cm = 30,
                               .effect = OM_WM_SPELL_BURST, .attacks = 1, .d3 = true};
    unsigned a, b;
    begin(&t, "warmaster-1.1");
    spell(&t, 0, storm);
    (void)wizard(&t, 0, infantry(&t, 0, 3, 3, 0, 90, 40));
    a = infantry(&t, 1, 4, 1, 0, 70, 65);
    b = infantry(&t, 1, 4, 1, 0, 110, 65);
    run(&t, TRIALS, 7, &tl);
    for (unsigned k = 0; k <= 3; k++) {
        double exact = k == 0 ? 1.0 / 6.0 : 0.0;
        char what[48];
        for (unsigned n = 1; n <= 3; n++)
            exact += 5.0 / 6.0 / 3.0 * (k <= n ? binom_pmf(n, k, 0.5) : 0.0);
        snprintf(what, sizeof what, "unit a: P(%u lost)", k);
        expect_p(what, tl.lost[a][k], TRIALS, exact);
        snprintf(what, sizeof what, "unit b: P(%u lost)", k);
        expect_p(what, tl.lost[b][k], TRIALS, exact);
    }
}

/* ---- Shatter ---- */

/* Freeze: a D6 above the target's 3 Hits (4, 5, 6) destroys one stand. */
Test(magic, shatter_destroys_a_stand_on_a_d6_above_the_hits)
{
    om_wm_turn t;
    tally tl;
    const om_wm_spell freeze = {.id = "freeze", .cast = 6, .range_cm = 60,
                                .effect = OM_WM_SPELL_SHATTER, .attacks = 1};
    unsigned foes;
    begin(&t, "warmaster-revolution");
    spell(&t, 0, freeze);
    (void)wizard(&t, 0, infantry(&t, 0, 3, 3, 0, 90, 40));
    foes = infantry(&t, 1, 3, 3, 4, 90, 65);
    run(&t, TRIALS, 8, &tl);
    expect_p("P(1 stand lost)", tl.lost[foes][1], TRIALS, 1.0 / 6.0 * 0.5);
    cr_expect_eq(tl.lost[foes][2] + tl.lost[foes][3], 0);
}

/* ---- Attacks in combat ---- */

/* Friends and Foes touching front to front: engaged. */
static void engaged_pair(om_wm_turn *t, unsigned *friends, unsigned *foes)
{
    *friends = infantry(t, 0, 3, 3, 0, 90, 40);
    *foes = infantry(t, 1, 3, 3, 0, 90, 42);
}

static void magic_counts(const om_wm_turn *t, unsigned long trials, unsigned unit,
                         unsigned long *stand, unsigned long *whole)
{
    om_wm_turn tt = *t;
    om_wm_magic_turn m;
    om_wm_dice_kit *kit = NULL;
    om_dice d;
    cr_assert_eq(om_wm_dice_kit_alloc(&kit), OM_OK);
    om_wm_table_update(&tt.table, OM_WM_TABLE_ALL);
    seed(&d, 9);
    *stand = *whole = 0;
    for (unsigned long i = 0; i < trials; i++) {
        om_wm_magic_turn_clear(&m, tt.table.units);
        om_wm_magic_phase(&tt, kit, &tt.table, 0, &d, &m, NULL);
        *stand += (unsigned long)(m.stand_attacks[unit] != 0);
        *whole += m.unit_attacks[unit];
        cr_assert(m.stand_attacks[unit] == 0 || abs(m.stand_attacks[unit]) == 1);
    }
    om_wm_dice_kit_free(kit);
}

/* Waaagh! (4+): +1 Attack to every stand of an engaged friend, and +1 to the
 * Shaman joined to it ("including characters"), with chance 1/2. */
Test(magic, boost_adds_attacks_to_every_stand_and_joined_character)
{
    om_wm_turn t;
    const om_wm_spell waaagh = {.id = "waaagh", .cast = 4, .range_cm = 30,
                                .effect = OM_WM_SPELL_BOOST, .attacks = 1, .per_stand = true,
                                .with_characters = true};
    unsigned friends, foes;
    unsigned long stand, whole;
    begin(&t, "warmaster-revolution");
    spell(&t, 0, waaagh);
    engaged_pair(&t, &friends, &foes);
    (void)wizard(&t, 0, friends);
    magic_counts(&t, TRIALS, friends, &stand, &whole);
    expect_p("+1 a stand", stand, TRIALS, 0.5);
    cr_expect_eq(stand, whole, "the joined Shaman gains with his unit");
}

/* A unit barred from the spell (Waaagh!: no Trolls) is never its target. */
Test(magic, a_barred_unit_is_never_a_target)
{
    om_wm_turn t;
    const om_wm_spell waaagh = {.id = "waaagh", .cast = 2, .range_cm = 30,
                                .effect = OM_WM_SPELL_BOOST, .attacks = 1, .per_stand = true};
    unsigned friends, foes;
    unsigned long stand, whole;
    begin(&t, "warmaster-revolution");
    spell(&t, 0, waaagh);
    engaged_pair(&t, &friends, &foes);
    (void)wizard(&t, 0, friends);
    om_wm_unit_set_add(&t.magic.barred[0][0], friends);
    magic_counts(&t, 1000, friends, &stand, &whole);
    cr_expect_eq(stand, 0);
}

/* Chill (4+): -1 Attack to every stand of an engaged enemy. */
Test(magic, weaken_takes_attacks_from_an_engaged_enemy)
{
    om_wm_turn t;
    const om_wm_spell chill = {.id = "chill", .cast = 4, .range_cm = 30,
                               .effect = OM_WM_SPELL_WEAKEN, .attacks = 1, .per_stand = true};
    unsigned friends, foes;
    unsigned long stand, whole;
    begin(&t, "warmaster-revolution");
    spell(&t, 0, chill);
    engaged_pair(&t, &friends, &foes);
    (void)wizard(&t, 0, friends);
    magic_counts(&t, TRIALS, foes, &stand, &whole);
    expect_p("-1 a stand", stand, TRIALS, 0.5);
    cr_expect_eq(whole, 0);
}

/* Light of Battle (5+): +1 Attack to every engaged friend in range, not one. */
Test(magic, boost_in_range_reaches_every_engaged_friend)
{
    om_wm_turn t;
    const om_wm_spell light = {.id = "light", .cast = 5, .range_cm = 30,
                               .effect = OM_WM_SPELL_BOOST, .attacks = 1, .all_in_range = true};
    unsigned f1, e1, f2, e2;
    unsigned long s1, w1, s2, w2;
    begin(&t, "warmaster-revolution");
    spell(&t, 0, light);
    engaged_pair(&t, &f1, &e1);
    f2 = infantry(&t, 0, 3, 3, 0, 115, 40);
    e2 = infantry(&t, 1, 3, 3, 0, 115, 42);
    (void)e2;
    (void)wizard(&t, 0, f1);
    magic_counts(&t, TRIALS, f1, &s1, &w1);
    magic_counts(&t, TRIALS, f2, &s2, &w2);
    expect_p("unit 1 +1", w1, TRIALS, 1.0 / 3.0);
    cr_expect_eq(w1, w2, "the same casts reach both units");
    cr_expect_eq(s1 + s2, 0);
}

/* The Attacks reach the Combat phase: Friends with Waaagh! at 2+ inflict
 * more stands lost on Foes than without (means, 5 standard errors of the
 * difference). */
Test(magic, boost_reaches_the_combat_phase)
{
    om_wm_turn t, plain;
    tally with, without;
    const om_wm_spell waaagh = {.id = "waaagh", .cast = 2, .range_cm = 30,
                                .effect = OM_WM_SPELL_BOOST, .attacks = 2, .per_stand = true};
    unsigned friends, foes;
    double m1 = 0, m0 = 0, v1 = 0, v0 = 0;
    begin(&t, "warmaster-revolution");
    spell(&t, 0, waaagh);
    engaged_pair(&t, &friends, &foes);
    (void)wizard(&t, 0, friends);
    plain = t;
    memset(&plain.magic, 0, sizeof plain.magic);
    run(&t, 20000, 10, &with);
    run(&plain, 20000, 10, &without);
    for (unsigned k = 0; k <= 3; k++) {
        m1 += k * (double)with.lost[foes][k] / 20000;
        m0 += k * (double)without.lost[foes][k] / 20000;
        v1 += k * k * (double)with.lost[foes][k] / 20000;
        v0 += k * k * (double)without.lost[foes][k] / 20000;
    }
    v1 -= m1 * m1;
    v0 -= m0 * m0;
    cr_expect(m1 - m0 > SIGMAS * sqrt((v1 + v0) / 20000), "%.3f vs %.3f", m1, m0);
}

/* ---- Anti-magic ---- */

/* A Runesmith within 50cm of the Wizard dispels on a 4+; farther, never. */
Test(magic, anti_magic_within_50cm_dispels_on_a_4)
{
    om_wm_turn t;
    tally near, far;
    unsigned rune_unit;
    int r;
    begin(&t, "warmaster-revolution");
    spell(&t, 0, missile(2, 3, true));
    (void)wizard(&t, 0, infantry(&t, 0, 3, 3, 0, 90, 40));
    rune_unit = infantry(&t, 1, 6, 1, 0, 90, 65);
    r = om_wm_table_add_character(&t.table, "Runesmith", 1, OM_WM_HERO, 8,
                                  t.table.unit[rune_unit].centre);
    t.table.character[r].joined = (int8_t)rune_unit;
    t.table.character[r].follow = (int8_t)rune_unit;
    t.magic.anti_magic[r] = true;
    run(&t, TRIALS, 12, &near);
    expect_p("worked past the Runesmith", near.worked, TRIALS, 5.0 / 6.0 * 0.5);
    t.table.character[r].at = at(170, 110);
    t.table.character[r].joined = -1;
    t.table.character[r].follow = -1;
    run(&t, TRIALS, 12, &far);
    expect_p("worked, Runesmith far", far.worked, TRIALS, 5.0 / 6.0);
}

/* ---- Checks ---- */

Test(magic, checks_refuse_bad_spellbooks)
{
    om_wm_turn t;
    om_wm_check_failure why;
    om_wm_turn_prepared *p = NULL;
    unsigned friends;
    begin(&t, "warmaster-revolution");
    spell(&t, 0, missile(7, 3, true));
    friends = infantry(&t, 0, 3, 3, 0, 90, 40);
    (void)wizard(&t, 0, friends);
    (void)infantry(&t, 1, 3, 3, 0, 90, 65);
    cr_expect_eq(om_wm_turn_prepare_alloc(&t, &why, &p), OM_EINVAL);
    cr_expect_str_eq(why.field, "magic.spells[0][0].cast");
    t.magic.spell[0][0].cast = 5;
    t.magic.knows[1] = 1; /* no such character */
    cr_expect_eq(om_wm_turn_prepare_alloc(&t, &why, &p), OM_EINVAL);
    cr_expect_str_eq(why.field, "magic.knows[1]");
    t.magic.knows[1] = 0;
    t.magic.knows[0] = 2; /* a spell beyond the list */
    cr_expect_eq(om_wm_turn_prepare_alloc(&t, &why, &p), OM_EINVAL);
    cr_expect_str_eq(why.field, "magic.knows[0]");
    t.magic.knows[0] = 1;
    cr_expect_eq(om_wm_turn_prepare_alloc(&t, &why, &p), OM_OK);
    om_wm_turn_prepared_free(p);
}

Test(magic, ancients_has_no_magic)
{
    om_wm_turn t;
    om_wm_check_failure why;
    om_wm_turn_prepared *p = NULL;
    begin(&t, "warmaster-ancients");
    spell(&t, 0, missile(5, 3, true));
    (void)infantry(&t, 0, 3, 3, 0, 120, 40);
    (void)infantry(&t, 1, 3, 3, 0, 120, 65);
    cr_expect_eq(om_wm_turn_prepare_alloc(&t, &why, &p), OM_EINVAL);
    cr_expect_str_eq(why.field, "magic.spells[0]");
}

/* ---- The table of spell effects ---- */

/* Every spell of every 1.1 and Revolution army has a row; Ancients armies
 * have no spells; every modelled row passes the engine's check. */
Test(magic, every_army_spell_has_a_row)
{
    unsigned spells = 0, modelled = 0;
    for (size_t r = 0; r < om_army_ruleset_count(); r++) {
        const om_army_ruleset *rs = om_army_ruleset_at(r);
        for (size_t i = 0;; i++) {
            const om_army_file *f = om_army_file_at(i);
            om_army *a = NULL;
            if (f == NULL)
                break;
            if (strcmp(f->dir, rs->dir) != 0 || strstr(f->path, ".yaml") == NULL ||
                strcmp(rs->id, "whfb7") == 0)
                continue;
            if (om_army_load(rs->id, f->stem, &a) != OM_OK)
                continue;
            if (strcmp(rs->id, "warmaster-ancients") == 0)
                cr_expect_eq(a->spells_count, 0, "%s has spells", f->path);
            cr_expect_leq(a->spells_count, OM_WM_SPELLS_MAX);
            for (size_t k = 0; k < a->spells_count; k++) {
                const om_wm_spell_rule *row = om_wm_spell_rule_find(rs->id, a->id,
                                                                    a->spells[k].id);
                spells++;
                cr_expect_not_null(row, "%s: spell %s has no row", f->path, a->spells[k].id);
                if (row == NULL)
                    continue;
                cr_expect(row->model != NULL && row->model[0] != '\0');
                cr_expect(a->spells[k].roll >= 2 && a->spells[k].roll <= 6, "%s %s",
                          f->path, a->spells[k].id);
                if (row->effect != OM_WM_SPELL_NOT_MODELLED) {
                    modelled++;
                    cr_expect(row->own_unit || a->spells[k].range_cm > 0, "%s %s has no range",
                              f->path, a->spells[k].id);
                }
            }
            om_army_free(a);
        }
    }
    cr_expect_eq(spells, 144, "spells in the 1.1 and Revolution lists: %u", spells);
    cr_expect_gt(modelled, 0);
}

/* Storm of Stone differs: D3 Attacks in 1.1, three in Revolution. */
Test(magic, the_rule_set_chooses_where_they_differ)
{
    const om_wm_spell_rule *a = om_wm_spell_rule_find("warmaster-1.1", "high-elf",
                                                      "storm-of-stone");
    const om_wm_spell_rule *b = om_wm_spell_rule_find("warmaster-revolution", "high-elves",
                                                      "storm-of-stone");
    cr_assert_not_null(a);
    cr_assert_not_null(b);
    cr_expect(a->d3 && a->attacks == 1);
    cr_expect(!b->d3 && b->attacks == 3);
}

/* ---- A battle ---- */

/* Empire (a Wizard) against Orcs (two Shamans): both sides cast spells. */
Test(magic, wizards_cast_in_a_battle)
{
    static const char text[] = "schema: oddsmaster-scenario/1\n"
                               "kind: battle\n"
                               "a: {list: revolution-empire-steel-and-shot}\n"
                               "b: {list: revolution-orcs-horde}\n"
                               "length: fixed\n"
                               "turns: 4\n";
    om_wm_scenario *s = NULL;
    om_wm_battle_prepared *p = NULL;
    om_wm_turn_work *w = NULL;
    om_wm_check_failure why;
    om_wm_battle_result r;
    unsigned long cast[2] = {0, 0}, worked[2] = {0, 0};
    om_dice d;
    cr_assert_eq(om_wm_battle_scenario_load_text("battle.yaml", text, sizeof text - 1, &s), OM_OK,
                 "%s", om_error_message());
    cr_assert_not_null(s->battle);
    cr_assert_eq(om_wm_battle_prepare_alloc(&s->battle->turn, &s->battle->plans_b,
                                            &s->battle->options, &why, &p),
                 OM_OK, "%s: %s", why.field, why.reason);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 13);
    for (unsigned i = 0; i < 40; i++) {
        om_wm_battle_resolve(p, w, &d, &r);
        for (unsigned k = 0; k < 2; k++) {
            cast[k] += r.spells_cast[k];
            worked[k] += r.spells_worked[k];
            cr_assert_leq(r.spells_worked[k], r.spells_cast[k]);
        }
    }
    cr_expect_gt(cast[0], 0);
    cr_expect_gt(cast[1], 0);
    cr_expect_gt(worked[0] + worked[1], 0);
    /* The Orcs' Waaagh! (their fourth spell) never falls on their Trolls or
     * Giant, nor Ogres ("not Trolls, Ogres, Giants or other non-greenskins"). */
    cr_assert_str_eq(s->battle->turn.magic.spell[1][3].id, "waaagh");
    for (unsigned u = 0; u < s->battle->turn.table.units; u++)
        cr_expect_eq(om_wm_unit_set_has(&s->battle->turn.magic.barred[1][3], u),
                     strstr(s->battle->id[u], "b_trolls") != NULL ||
                         strstr(s->battle->id[u], "b_ogres") != NULL ||
                         strcmp(s->battle->id[u], "b_giant") == 0,
                     "%s", s->battle->id[u]);
    om_wm_turn_work_free(w);
    om_wm_battle_prepared_free(p);
    om_wm_scenario_free(s);
}

/* A Dwarf list: no spells, its Runesmith anti-magics (Dwarf lists, Runesmith). */
Test(magic, a_runesmith_anti_magics)
{
    static const char text[] = "schema: oddsmaster-scenario/1\n"
                               "kind: battle\n"
                               "a: {list: " OM_TEST_DATA "/lists/warmaster/good/every-key.yaml}\n"
                               "b: {list: revolution-empire-steel-and-shot}\n"
                               "length: fixed\n"
                               "turns: 1\n";
    om_wm_scenario *s = NULL;
    unsigned runesmiths = 0, wizards = 0;
    cr_assert_eq(om_wm_battle_scenario_load_text("battle.yaml", text, sizeof text - 1, &s), OM_OK,
                 "%s", om_error_message());
    cr_expect_eq(s->battle->turn.magic.n[0], 0);
    cr_expect_eq(s->battle->turn.magic.n[1], 4);
    for (unsigned c = 0; c < s->battle->turn.table.characters; c++) {
        const om_wm_table_character *ch = &s->battle->turn.table.character[c];
        runesmiths += s->battle->turn.magic.anti_magic[c];
        cr_expect(!s->battle->turn.magic.anti_magic[c] || ch->side == 0);
        wizards += ch->kind == OM_WM_WIZARD && s->battle->turn.magic.knows[c] == 0xF;
    }
    cr_expect_eq(runesmiths, 1);
    cr_expect_eq(wizards, 1);
    om_wm_scenario_free(s);
}
