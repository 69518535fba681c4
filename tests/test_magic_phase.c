/*
 * test_magic_phase.c: spells that change a unit for a Combat phase
 * (engine/warmaster/magic.h, OM_WM_SPELL_COMBAT and om_wm_spell.phase) and
 * the lasting terror and immunity to terror (OM_WM_LASTING_TERROR,
 * OM_WM_LASTING_FEARLESS), with the table of spell effects in
 * scenarios/warmaster/wm_spells.c. Each is cast by a Wizard of side 0 in its
 * Shooting phase on a table set up by hand, two units touching from the
 * start, and its law in the Combat phase that follows is checked at a fixed
 * seed within 5 standard errors: the spell works with P(cast), and then the
 * first round's dice change.
 *
 *   - Word of Fear (Warmaster Revolution army lists, Chaos Dwarfs > Spells):
 *     a friendly unit causes terror for the Combat phase, so each enemy stand
 *     touching it fights at -1 Attack (Combat > Attack Modifiers > Terror);
 *   - Twilight Host (Revolution army lists, Wood Elves > Spells): the same,
 *     lasting until the caster's next turn;
 *   - Shield of the Old Ones (Revolution army lists, Lizardmen > Spells): a
 *     friendly unit's armour one better, at best 4+, for the Combat phase;
 *   - Tranquility of Heaven (Revolution army lists, Cathay > Spells): every
 *     friendly unit within 15cm of the Sorcerer is immune to terror, and so
 *     fights a terrifying enemy at its full Attacks;
 *   - Gerroff!!! (Revolution army lists, Orcs > Spells): an enemy unit driven
 *     back 5D6cm toward its own table edge as by shooting (any 6 confuses),
 *     never routed;
 *   - the armour rule's cases, the checks, and the table's rows (Monster
 *     Bear! causing terror and Ferocity of Tigers immunity to terror with
 *     their Attacks).
 * Layouts: x to the right, y up; side 0 faces +y, side 1 faces -y.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "magic.h"
#include "turn.h"
#include "wm.h"
#include "wm_spells.h"
#include "exact_law.h"
#include "turn_builder.h"

#define TRIALS 40000u
#define SIGMAS 5.0
#define P_CAST (5.0 / 6.0)

static void begin(om_wm_turn *t)
{
    turn_begin(t, "warmaster-revolution", OM_WM_INITIATIVE_NEVER);
}

/* Infantry in line, no special rule, no shooting, never pursuing (one round
 * is fought). */
static unsigned infantry(om_wm_turn *t, unsigned side, unsigned stands, unsigned attacks,
                         unsigned hits, unsigned armour, double x, double y)
{
    const unsigned i = turn_unit(t, side ? "Foes" : "Friends", side, OM_WM_INFANTRY, stands,
                                 attacks, hits, armour, x, y, side ? 270.0 : 90.0);
    t->unit[i].side.unit.points = 60;
    t->unit[i].side.pursue = OM_WM_PURSUE_NEVER;
    t->unit[i].shoot = OM_WM_SHOOT_HOLD;
    return i;
}

/* A Wizard of side 0 joined to unit u, knowing the side's spells. */
static void wizard(om_wm_turn *t, unsigned u)
{
    int c = om_wm_table_add_character(&t->table, "Wizard", 0, OM_WM_WIZARD, 7,
                                      t->table.unit[u].centre);
    cr_assert_geq(c, 0);
    t->table.character[c].joined = (int8_t)u;
    t->table.character[c].follow = (int8_t)u;
    t->magic.knows[c] = (uint8_t)((1u << t->magic.n[0]) - 1u);
}

/* A spell of side 0, cast on 2+ (P 5/6) at 30cm, seen or not. */
static void spell(om_wm_turn *t, om_wm_spell_effect effect, unsigned lasting, unsigned phase,
                  unsigned amount)
{
    om_wm_spell sp = {.cast = 2, .range_cm = 30, .effect = effect,
                      .lasting = (uint16_t)lasting, .phase = (uint16_t)phase,
                      .amount = (uint8_t)amount};
    snprintf(sp.id, sizeof sp.id, "spell");
    t->magic.spell[0][t->magic.n[0]++] = sp;
}

/* Trials in which unit u lost k stands in side 0's turn, k = 0..8. */
static void run(const om_wm_turn *t, unsigned u, uint64_t s, unsigned long lost[9])
{
    om_wm_turn_prepared *p = NULL;
    om_wm_turn_work *w = NULL;
    om_wm_check_failure why;
    om_wm_turn_result r;
    om_dice d;
    memset(&why, 0, sizeof why);
    memset(lost, 0, 9 * sizeof lost[0]);
    cr_assert_eq(om_wm_turn_prepare_alloc(t, &why, &p), OM_OK, "%s: %s", why.field, why.reason);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, s);
    for (unsigned long i = 0; i < TRIALS; i++) {
        om_wm_turn_resolve(p, w, &d, &r);
        lost[r.unit[u].stands_lost < 8 ? r.unit[u].stands_lost : 8]++;
    }
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

/* The law of stands lost: P_CAST x Bin(`dice_cast`, `p_cast`) + (1 - P_CAST)
 * x Bin(`dice`, `p`), one stand a hit. */
static void expect_mixture(const char *what, const unsigned long lost[9], unsigned dice_cast,
                           double p_cast, unsigned dice, double p)
{
    for (unsigned k = 0; k <= 6; k++) {
        char label[96];
        snprintf(label, sizeof label, "%s: %u stands lost", what, k);
        expect_p(label, lost[k], TRIALS,
                 P_CAST * binom_pmf(dice_cast, k, p_cast) + (1 - P_CAST) * binom_pmf(dice, k, p));
    }
}

/*
 * Friends (side 0, with the Wizard; six stands of 1 Hit, no Attacks) touch
 * Foes (three stands of 2 Attacks, 3 Hits) from the start: Foes strike six
 * dice at 4+, every unsaved hit a stand of Friends. Friends cause terror when
 * the spell works: three dice.
 */
static void terror_table(om_wm_turn *t, unsigned *friends, unsigned *foes)
{
    begin(t);
    *friends = infantry(t, 0, 6, 0, 1, 0, 90, 40);
    *foes = infantry(t, 1, 3, 2, 3, 0, 90, 42);
    cr_assert(om_wm_table_touching(&t->table, *friends, *foes));
}

Test(magic_phase, word_of_fear_makes_the_enemy_fight_at_one_attack_less_a_stand)
{
    om_wm_turn t;
    unsigned friends, foes;
    unsigned long lost[9];
    terror_table(&t, &friends, &foes);
    spell(&t, OM_WM_SPELL_COMBAT, 0, OM_WM_LASTING_TERROR, 0);
    wizard(&t, friends);
    run(&t, friends, 41, lost);
    expect_mixture("Word of Fear", lost, 3, 0.5, 6, 0.5);
}

Test(magic_phase, twilight_host_gives_lasting_terror_read_in_the_same_combat)
{
    om_wm_turn t;
    unsigned friends, foes;
    unsigned long lost[9];
    terror_table(&t, &friends, &foes);
    spell(&t, OM_WM_SPELL_LASTING, OM_WM_LASTING_TERROR, 0, 0);
    wizard(&t, friends);
    run(&t, friends, 42, lost);
    expect_mixture("Twilight Host", lost, 3, 0.5, 6, 0.5);
}

Test(magic_phase, shield_of_the_old_ones_makes_armour_one_better)
{
    om_wm_turn t;
    unsigned friends, foes;
    unsigned long lost[9];
    terror_table(&t, &friends, &foes);
    /* Friends' armour 5+ becomes 4+: an unsaved hit 1/2 x 1/2, not 1/2 x 2/3. */
    t.unit[friends].side.unit.armour = 5;
    spell(&t, OM_WM_SPELL_COMBAT, 0, OM_WM_LASTING_ARMOUR, 4);
    wizard(&t, friends);
    run(&t, friends, 43, lost);
    expect_mixture("Shield of the Old Ones", lost, 6, 0.25, 6, 1.0 / 3.0);
}

Test(magic_phase, tranquility_of_heaven_lets_a_unit_fight_a_terrifying_enemy_in_full)
{
    om_wm_turn t;
    unsigned friends, foes;
    unsigned long lost[9];
    begin(&t);
    /* Friends (three stands of 2 Attacks) touch terrifying Foes (six stands
     * of 1 Hit, no Attacks): six dice at 4+ when immune, three when not. */
    friends = infantry(&t, 0, 3, 2, 3, 0, 90, 40);
    foes = infantry(&t, 1, 6, 0, 1, 0, 90, 42);
    t.unit[foes].side.unit.traits.terror = true;
    cr_assert(om_wm_table_touching(&t.table, friends, foes));
    spell(&t, OM_WM_SPELL_LASTING, OM_WM_LASTING_FEARLESS, 0, 0);
    t.magic.spell[0][0].all_in_range = true;
    t.magic.spell[0][0].range_cm = 15;
    wizard(&t, friends);
    run(&t, foes, 44, lost);
    expect_mixture("Tranquility of Heaven", lost, 6, 0.5, 3, 0.5);
}

Test(magic_phase, immunity_is_not_cast_where_no_enemy_terrifies)
{
    om_wm_turn t;
    unsigned friends, foes;
    om_wm_turn_prepared *p = NULL;
    om_wm_turn_work *w = NULL;
    om_wm_check_failure why;
    om_wm_turn_result r;
    om_dice d;
    begin(&t);
    friends = infantry(&t, 0, 3, 2, 3, 0, 90, 40);
    foes = infantry(&t, 1, 6, 0, 1, 0, 90, 42);
    (void)foes;
    spell(&t, OM_WM_SPELL_LASTING, OM_WM_LASTING_FEARLESS, 0, 0);
    wizard(&t, friends);
    cr_assert_eq(om_wm_turn_prepare_alloc(&t, &why, &p), OM_OK, "%s: %s", why.field,
                 why.reason);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 45);
    om_wm_turn_resolve(p, w, &d, &r);
    cr_expect_eq(r.spells_cast, 0, "a spell that would change nothing is not cast");
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

/* ---- The rule's cases, the checks, the table ---- */

Test(magic_phase, the_armour_is_one_better_up_to_the_best)
{
    om_wm_magic_turn m;
    om_wm_side s;
    static const unsigned from[] = {0, 6, 5, 4, 3};
    static const unsigned to[] = {6, 5, 4, 4, 3};
    memset(&m, 0, sizeof m);
    om_wm_magic_turn_clear(&m, 1);
    m.phase[0] = OM_WM_LASTING_ARMOUR;
    m.phase_armour[0] = 4;
    for (unsigned i = 0; i < sizeof from / sizeof from[0]; i++) {
        memset(&s, 0, sizeof s);
        s.unit.armour = (uint8_t)from[i];
        om_wm_magic_combat_side(&m, 0, &s);
        cr_expect_eq(s.unit.armour, to[i], "armour %u+ becomes %u+, not %u+", from[i], to[i],
                     s.unit.armour);
    }
    /* "Or another bonus brings it to 4+": 5+ with one better in combat. */
    memset(&s, 0, sizeof s);
    s.unit.armour = 5;
    s.unit.traits.save_delta_melee = -1;
    om_wm_magic_combat_side(&m, 0, &s);
    cr_expect_eq(s.unit.armour, 5);
    /* Terror and immunity; a turn's clearing ends them. */
    m.phase[0] = OM_WM_LASTING_TERROR | OM_WM_LASTING_FEARLESS;
    memset(&s, 0, sizeof s);
    om_wm_magic_combat_side(&m, 0, &s);
    cr_expect(s.unit.traits.terror);
    cr_expect(s.unit.traits.ignores_terror);
    om_wm_magic_turn_clear(&m, 1);
    memset(&s, 0, sizeof s);
    om_wm_magic_combat_side(&m, 0, &s);
    cr_expect_not(s.unit.traits.terror, "the next turn's Combat phase is the spell's no more");
}

Test(magic_phase, checks_refuse_phase_kinds_out_of_place)
{
    om_wm_turn t;
    unsigned friends, foes;
    om_wm_check_failure why;
    terror_table(&t, &friends, &foes);
    (void)foes;
    spell(&t, OM_WM_SPELL_COMBAT, 0, OM_WM_LASTING_TERROR, 0);
    wizard(&t, friends);
    cr_expect_eq(om_wm_spellbook_check(&t.magic, &t.table, t.rules->id, &why), OM_OK);
    t.magic.spell[0][0].phase = 0;
    cr_expect_eq(om_wm_spellbook_check(&t.magic, &t.table, t.rules->id, &why), OM_EINVAL);
    cr_expect_str_eq(why.field, "magic.spells[0][0].phase");
    t.magic.spell[0][0].phase = OM_WM_LASTING_COMMAND;
    cr_expect_eq(om_wm_spellbook_check(&t.magic, &t.table, t.rules->id, &why), OM_EINVAL);
    t.magic.spell[0][0].phase = OM_WM_LASTING_ARMOUR;
    cr_expect_eq(om_wm_spellbook_check(&t.magic, &t.table, t.rules->id, &why), OM_EINVAL,
                 "armour needs its best score");
    cr_expect_str_eq(why.field, "magic.spells[0][0].amount");
    t.magic.spell[0][0].amount = 4;
    cr_expect_eq(om_wm_spellbook_check(&t.magic, &t.table, t.rules->id, &why), OM_OK);
    t.magic.spell[0][0].effect = OM_WM_SPELL_MISSILE;
    t.magic.spell[0][0].attacks = 3;
    cr_expect_eq(om_wm_spellbook_check(&t.magic, &t.table, t.rules->id, &why), OM_EINVAL,
                 "a missile sets no Combat phase kinds");
    /* Armour lasts a Combat phase only: never a lasting kind. */
    t.magic.spell[0][0] = (om_wm_spell){.id = "x", .cast = 2, .range_cm = 30,
                                        .effect = OM_WM_SPELL_LASTING,
                                        .lasting = OM_WM_LASTING_ARMOUR, .amount = 4};
    cr_expect_eq(om_wm_spellbook_check(&t.magic, &t.table, t.rules->id, &why), OM_EINVAL);
}

Test(magic_phase, the_table_of_spell_effects_plays_the_terror_and_armour_spells)
{
    const om_wm_spell_rule *r;
    r = om_wm_spell_rule_find("warmaster-revolution", "chaos-dwarfs", "word-of-fear");
    cr_assert_not_null(r);
    cr_expect_eq(r->effect, OM_WM_SPELL_COMBAT);
    cr_expect_eq(r->phase, OM_WM_LASTING_TERROR);
    r = om_wm_spell_rule_find("warmaster-revolution", "norse", "aspect-of-wulfen");
    cr_expect_eq(r->effect, OM_WM_SPELL_COMBAT);
    cr_expect_eq(r->phase, OM_WM_LASTING_TERROR);
    r = om_wm_spell_rule_find("warmaster-revolution", "wood-elves", "twilight-host");
    cr_expect_eq(r->effect, OM_WM_SPELL_LASTING);
    cr_expect_eq(r->lasting, OM_WM_LASTING_TERROR);
    r = om_wm_spell_rule_find("warmaster-revolution", "cathay", "tranquility-of-heaven");
    cr_expect_eq(r->effect, OM_WM_SPELL_LASTING);
    cr_expect_eq(r->lasting, OM_WM_LASTING_FEARLESS);
    cr_expect(r->all_in_range);
    for (int v = 0; v < 2; v++) {
        r = om_wm_spell_rule_find(v ? "warmaster-1.1" : "warmaster-revolution", "lizardmen",
                                  "shield-of-the-old-ones");
        cr_expect_eq(r->effect, OM_WM_SPELL_COMBAT);
        cr_expect_eq(r->phase, OM_WM_LASTING_ARMOUR);
        cr_expect_eq(r->amount, 4);
    }
    r = om_wm_spell_rule_find("warmaster-revolution", "kislev", "monster-bear");
    cr_expect_eq(r->phase, OM_WM_LASTING_TERROR);
    r = om_wm_spell_rule_find("warmaster-revolution", "cathay", "ferocity-of-tigers");
    cr_expect_eq(r->phase, OM_WM_LASTING_FEARLESS);
}

/* ---- A drive back by spell ---- */

/* P(5D6 <= n). */
static double five_d6_at_most(unsigned n)
{
    double ways[31] = {1.0};
    double p = 0.0;
    for (unsigned die = 0; die < 5; die++) {
        double next[31] = {0};
        for (unsigned s = 0; s <= 30; s++)
            for (unsigned f = 1; f <= 6 && s + f <= 30; f++)
                next[s + f] += ways[s] / 6.0;
        memcpy(ways, next, sizeof ways);
    }
    for (unsigned s = 0; s <= n && s <= 30; s++)
        p += ways[s];
    return p;
}

Test(magic_phase, gerroff_drives_an_enemy_unit_5d6_toward_its_own_edge)
{
    om_wm_turn t;
    unsigned friends, foes;
    om_wm_turn_prepared *p = NULL;
    om_wm_turn_work *w = NULL;
    om_wm_check_failure why;
    om_wm_turn_result r;
    om_dice d;
    unsigned long moved = 0, confused = 0, short_push = 0, routed = 0;
    begin(&t);
    /* Foes 30cm from Friends and 50cm from their own edge (y 120): nothing
     * stops a drive back of 30cm at most. */
    friends = infantry(&t, 0, 3, 2, 3, 0, 90, 40);
    foes = infantry(&t, 1, 3, 2, 3, 0, 90, 70);
    spell(&t, OM_WM_SPELL_PUSH, 0, 0, 0);
    t.magic.spell[0][0].attacks = 5;
    t.magic.spell[0][0].range_cm = 60;
    wizard(&t, friends);
    cr_assert_eq(om_wm_turn_prepare_alloc(&t, &why, &p), OM_OK, "%s: %s", why.field,
                 why.reason);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, 46);
    for (unsigned long i = 0; i < TRIALS; i++) {
        double dy, dx;
        om_wm_turn_resolve(p, w, &d, &r);
        dx = om_wm_turn_work_table(w)->unit[foes].centre.x - 90.0;
        dy = om_wm_turn_work_table(w)->unit[foes].centre.y - 70.0;
        cr_assert(fabs(dx) < 1e-9, "straight toward its edge");
        cr_assert(dy > -1e-9 && dy < 30.0 + 1e-9, "a drive back of %g cm", dy);
        moved += dy > 0.5;
        short_push += dy > 0.5 && dy < 17.5;
        confused += r.unit[foes].confused;
        routed += r.unit[foes].routed || r.unit[foes].destroyed;
    }
    expect_p("driven back", moved, TRIALS, P_CAST);
    expect_p("driven back 17cm or less", short_push, TRIALS, P_CAST * five_d6_at_most(17));
    expect_p("confused by a 6", confused, TRIALS, P_CAST * (1.0 - pow(5.0 / 6.0, 5)));
    cr_expect_eq(routed, 0, "never routed");
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

Test(magic_phase, the_table_plays_gerroff_as_a_drive_back)
{
    for (int v = 0; v < 2; v++) {
        const om_wm_spell_rule *r = om_wm_spell_rule_find(
            v ? "warmaster-1.1" : "warmaster-revolution", v ? "orc" : "orcs", "gerroff");
        cr_assert_not_null(r);
        cr_expect_eq(r->effect, OM_WM_SPELL_PUSH);
        cr_expect_eq(r->attacks, 5);
    }
}
