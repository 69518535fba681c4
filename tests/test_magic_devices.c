/*
 * test_magic_devices.c: the Wizards' magic devices that act on casting and
 * dispelling (engine/warmaster/magic.h, om_wm_device; Warmaster Revolution,
 * Magic Items > Devices of Power; the Warmaster 1.1 Rules Update, P77), each
 * against its exact law at a fixed seed within 5 standard errors, over three
 * turns: side 0 casts, side 1 moves, side 0 casts again (a device spent in the
 * first turn is gone in the third).
 *
 *   - Ring of Magic: once a battle a spell is cast without its roll; the
 *     Wizard spends it on his first spell needing 5+ or more;
 *   - Wand of Power: once a battle +1 to a casting roll (a 5+ spell on 4+);
 *   - Rod of Repetition: once a battle another spell after a roll that works;
 *   - Scroll of Dispelling: once a battle an enemy spell that works is made
 *     to fail;
 *   - Staff of Spellbinding: an enemy Wizard failing his roll is spellbound on
 *     a 4+, -1 to his casting rolls for the rest of the battle;
 *   - the modified casting roll (a 1 always fails, a 6 always works), the
 *     checks, and the items the battle plays by id.
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

#define TRIALS 60000u
#define SIGMAS 5.0

static const om_wm_traits NO_TRAITS;

/* ---- Three turns on one table ---- */

typedef turn_two_sides build;

static void begin(build *b)
{
    turn_two_sides_begin(b, "warmaster-revolution", OM_WM_INITIATIVE_NEVER);
}

/* Infantry in line, no special rule, no shooting: four stands of 4 Hits, so
 * that no spell of these tests ever destroys it (odd hits go at the end of
 * each Shooting phase). */
static unsigned infantry(build *b, unsigned side, double x, double y)
{
    om_wm_unit v;
    int i = om_wm_table_add_unit(&b->t.table, b->t.rules->id, side ? "Foes" : "Friends", side,
                                 OM_WM_INFANTRY, 4, OM_WM_TABLE_LINE, at(x, y),
                                 side ? 270.0 : 90.0);
    cr_assert_geq(i, 0);
    memset(&v, 0, sizeof v);
    snprintf(v.name, sizeof v.name, "%s", side ? "Foes" : "Friends");
    v.troop = OM_WM_INFANTRY;
    v.stands = v.size = 4;
    v.attacks = 3;
    v.hits = 4;
    v.pace_cm = (uint8_t)om_wm_troop_pace(OM_WM_INFANTRY);
    v.traits = NO_TRAITS;
    v.points = 60;
    om_wm_side_init(&b->t.unit[i].side, &v);
    b->t.unit[i].shoot = OM_WM_SHOOT_HOLD;
    return (unsigned)i;
}

/* A Wizard of `side` joined to unit u, knowing all his side's spells, with
 * `devices`. */
static unsigned wizard(build *b, unsigned side, unsigned u, unsigned devices)
{
    int c = om_wm_table_add_character(&b->t.table, "Wizard", side, OM_WM_WIZARD, 7,
                                      b->t.table.unit[u].centre);
    cr_assert_geq(c, 0);
    b->t.table.character[c].joined = (int8_t)u;
    b->t.table.character[c].follow = (int8_t)u;
    b->t.magic.knows[c] = (uint8_t)((1u << b->t.magic.n[side]) - 1u);
    b->t.magic.devices[c] = (uint8_t)devices;
    return (unsigned)c;
}

/* A magic missile of side 0: `attacks` shooting Attacks, no drive back,
 * seen or not, 30cm, cast on `cast`+. */
static void missile(build *b, unsigned cast, unsigned attacks)
{
    b->t.magic.spell[0][b->t.magic.n[0]++] =
        (om_wm_spell){.id = "bolt", .cast = (uint8_t)cast, .range_cm = 30,
                      .effect = OM_WM_SPELL_MISSILE, .attacks = (uint8_t)attacks};
}

/* Side 0's Friends at (90, 40), side 1's Foes 25cm away at (90, 65). */
static void table(build *b, unsigned *friends, unsigned *foes)
{
    begin(b);
    *friends = infantry(b, 0, 90, 40);
    *foes = infantry(b, 1, 90, 65);
}

/* What side 0's two turns cast, trial by trial. */
typedef struct seen {
    unsigned long worked[2];  /* trials its spells worked in its first, second turn */
    unsigned long two[2];     /* trials it cast two spells in a turn */
    unsigned long cast[2];    /* spells tried */
} seen;

static void run(const build *b, unsigned long trials, uint64_t s, seen *out)
{
    om_wm_turn_prepared *p = NULL;
    om_wm_turn_work *w = NULL;
    om_wm_check_failure why;
    om_wm_turn_result r[3];
    om_dice d;
    memset(&why, 0, sizeof why);
    memset(out, 0, sizeof *out);
    cr_assert_eq(om_wm_turn_prepare_alloc(&b->t, &why, &p), OM_OK, "%s: %s", why.field,
                 why.reason);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    seed(&d, s);
    for (unsigned long i = 0; i < trials; i++) {
        om_wm_turn_begin(p, w);
        om_wm_turn_play(p, &b->t.command, w, &d, &r[0]);
        om_wm_turn_play(p, &b->second, w, &d, &r[1]);
        om_wm_turn_play(p, &b->t.command, w, &d, &r[2]);
        for (unsigned k = 0; k < 2; k++) {
            out->worked[k] += r[2 * k].spells_worked > 0;
            out->two[k] += r[2 * k].spells_cast == 2;
            out->cast[k] += r[2 * k].spells_cast;
        }
    }
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(p);
}

/* ---- The casting roll with a modifier ---- */

Test(magic_devices, a_modified_roll_still_fails_on_1_and_works_on_6)
{
    cr_expect(om_wm_spell_casts_modified(4, 5, 1), "the Wand: 4 + 1 casts a 5+ spell");
    cr_expect_not(om_wm_spell_casts_modified(3, 5, 1));
    cr_expect_not(om_wm_spell_casts_modified(1, 2, 1), "a 1 always fails");
    cr_expect(om_wm_spell_casts_modified(6, 6, -1), "a 6 always works");
    cr_expect_not(om_wm_spell_casts_modified(4, 4, -1), "spellbound: 4 - 1 fails a 4+ spell");
    cr_expect(om_wm_spell_casts_modified(5, 4, -1));
}

/* ---- Ring of Magic ---- */

Test(magic_devices, the_ring_of_magic_casts_a_6_spell_once_without_a_roll)
{
    build b;
    seen s;
    unsigned friends, foes;
    table(&b, &friends, &foes);
    missile(&b, 6, 3);
    wizard(&b, 0, friends, OM_WM_DEVICE_RING);
    run(&b, TRIALS, 31, &s);
    cr_expect_eq(s.worked[0], TRIALS, "the first spell always works: %lu of %u", s.worked[0],
                 TRIALS);
    expect_p("the second turn's spell, the Ring spent", s.worked[1], TRIALS, 1.0 / 6.0);
}

Test(magic_devices, the_ring_is_kept_for_a_spell_of_5_or_more)
{
    build b;
    seen s;
    unsigned friends, foes;
    table(&b, &friends, &foes);
    missile(&b, 4, 3);
    wizard(&b, 0, friends, OM_WM_DEVICE_RING);
    run(&b, TRIALS, 32, &s);
    expect_p("a 4+ spell rolled for", s.worked[0], TRIALS, 0.5);
    expect_p("and again", s.worked[1], TRIALS, 0.5);
}

/* ---- Wand of Power ---- */

Test(magic_devices, the_wand_of_power_adds_one_to_one_casting_roll)
{
    build b;
    seen s;
    unsigned friends, foes;
    table(&b, &friends, &foes);
    missile(&b, 5, 3);
    wizard(&b, 0, friends, OM_WM_DEVICE_WAND);
    run(&b, TRIALS, 33, &s);
    expect_p("a 5+ spell on 4+ with the Wand", s.worked[0], TRIALS, 0.5);
    expect_p("then on 5+", s.worked[1], TRIALS, 1.0 / 3.0);
}

/* ---- Rod of Repetition ---- */

Test(magic_devices, the_rod_of_repetition_casts_another_spell_after_a_roll_that_works)
{
    build b;
    seen s;
    unsigned friends, foes;
    table(&b, &friends, &foes);
    /* A second enemy unit in range, for the second spell (the same spell
     * affects a unit once a turn). */
    (void)infantry(&b, 1, 110, 65);
    missile(&b, 3, 3);
    wizard(&b, 0, friends, OM_WM_DEVICE_ROD);
    run(&b, TRIALS, 34, &s);
    expect_p("two spells in the first turn: its roll worked", s.two[0], TRIALS, 2.0 / 3.0);
    /* The Rod is left for the third turn only when the first roll failed. */
    expect_p("two spells in the third turn", s.two[1], TRIALS, (1.0 / 3.0) * (2.0 / 3.0));
}

/* ---- Scroll of Dispelling ---- */

Test(magic_devices, the_scroll_of_dispelling_makes_one_enemy_spell_fail)
{
    build b;
    seen s;
    unsigned friends, foes;
    table(&b, &friends, &foes);
    /* Six Attacks at 4+ on 4 Hits: 0.75 of a stand, worth the Scroll. */
    missile(&b, 2, 6);
    wizard(&b, 0, friends, 0);
    wizard(&b, 1, foes, OM_WM_DEVICE_SCROLL);
    run(&b, TRIALS, 35, &s);
    cr_expect_eq(s.worked[0], 0, "the Scroll reads against the first spell that works");
    /* Spent in the first turn when that spell was cast. */
    expect_p("the third turn's spell", s.worked[1], TRIALS, (5.0 / 6.0) * (5.0 / 6.0));
}

/* ---- Staff of Spellbinding ---- */

Test(magic_devices, the_staff_of_spellbinding_binds_a_wizard_who_fails)
{
    build b;
    seen s;
    unsigned friends, foes;
    table(&b, &friends, &foes);
    missile(&b, 4, 3);
    wizard(&b, 0, friends, 0);
    wizard(&b, 1, foes, OM_WM_DEVICE_STAFF);
    run(&b, TRIALS, 36, &s);
    expect_p("the first spell on 4+", s.worked[0], TRIALS, 0.5);
    /* Failed (1/2) and bound (4+, 1/2): the second on 5+, else on 4+. */
    expect_p("the second spell", s.worked[1], TRIALS, 0.25 * (1.0 / 3.0) + 0.75 * 0.5);
}

/* ---- Checks and data ---- */

Test(magic_devices, checks_refuse_devices_on_the_wrong_bearer)
{
    build b;
    unsigned friends, foes, c;
    int g;
    om_wm_check_failure why;
    table(&b, &friends, &foes);
    missile(&b, 4, 3);
    c = wizard(&b, 0, friends, OM_WM_DEVICE_RING | OM_WM_DEVICE_SCROLL);
    cr_expect_eq(om_wm_spellbook_check(&b.t.magic, &b.t.table, b.t.rules->id, &why), OM_OK);
    b.t.magic.devices[c] = 1u << 7;
    cr_expect_eq(om_wm_spellbook_check(&b.t.magic, &b.t.table, b.t.rules->id, &why),
                 OM_EINVAL);
    cr_expect_str_eq(why.field, "magic.devices[0]");
    b.t.magic.devices[c] = 0;
    g = om_wm_table_add_character(&b.t.table, "General", 1, OM_WM_GENERAL, 8, at(90, 90));
    cr_assert_geq(g, 0);
    b.t.magic.devices[g] = OM_WM_DEVICE_WAND;
    cr_expect_eq(om_wm_spellbook_check(&b.t.magic, &b.t.table, b.t.rules->id, &why),
                 OM_EINVAL, "a Wand is a Wizard's");
    b.t.magic.devices[g] = OM_WM_DEVICE_SCROLL;
    cr_expect_eq(om_wm_spellbook_check(&b.t.magic, &b.t.table, b.t.rules->id, &why),
                 OM_EINVAL, "a Scroll is a Wizard's or a Runesmith's");
    b.t.magic.anti_magic[g] = true;
    cr_expect_eq(om_wm_spellbook_check(&b.t.magic, &b.t.table, b.t.rules->id, &why), OM_OK,
                 "an anti-magic character may carry the Scroll");
}

Test(magic_devices, the_battle_plays_the_wizards_devices_by_item_id)
{
    cr_expect_eq(om_wm_spells_device_of_item("ring-of-magic"), OM_WM_DEVICE_RING);
    cr_expect_eq(om_wm_spells_device_of_item("wand-of-power"), OM_WM_DEVICE_WAND);
    cr_expect_eq(om_wm_spells_device_of_item("rod-of-repetition"), OM_WM_DEVICE_ROD);
    cr_expect_eq(om_wm_spells_device_of_item("scroll-of-dispelling"), OM_WM_DEVICE_SCROLL);
    cr_expect_eq(om_wm_spells_device_of_item("staff-of-spellbinding"), OM_WM_DEVICE_STAFF);
    cr_expect_eq(om_wm_spells_device_of_item("orb-of-majesty"), 0u);
    cr_expect_eq(om_wm_spells_device_of_item(""), 0u);
}
