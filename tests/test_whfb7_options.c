/*
 * test_whfb7_options.c: the readings of ambiguous rules (the digest's section
 * 20) as named options of the WHFB 7th edition engine: the registry (every
 * ambiguity listed with its id, section, question, default and other
 * reading), setting and printing values, every error path, and one test per
 * switch showing the engine follows it. Also the spell modifiers the
 * switches act on, the outcome field table and the check function's errors.
 */
#include "test_whfb7.h"
#include "wh7_int.h"

/* The ambiguity ids of the WHFB7 digest the registry must list. */
static const char *const ambiguities[] = {
    "A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10", "A11", "A12", "A13",
    "A14", "A15", "A16", "A17", "A18", "A19", "A20", "A21", "A22", "A23", "A24", "A25",
    "A26", "A27", "A28", "A29", "A30", "A31", "A32", "A33",
};

Test(whfb7_options, registry_lists_every_ambiguity)
{
    size_t n = om_wh7_option_count();
    cr_assert_gt(n, 30u);
    cr_expect_null(om_wh7_option_at(n));
    for (size_t a = 0; a < sizeof ambiguities / sizeof ambiguities[0]; a++) {
        bool found = false;
        for (size_t i = 0; i < n; i++)
            if (strcmp(om_wh7_option_at(i)->ambiguity, ambiguities[a]) == 0)
                found = true;
        cr_expect(found, "ambiguity %s is listed", ambiguities[a]);
    }
    for (size_t i = 0; i < n; i++) {
        const om_wh7_option *o = om_wh7_option_at(i);
        cr_expect_neq(o->question[0], '\0', "%s has a question", o->name);
        cr_expect_neq(o->section[0], '\0', "%s has a section", o->name);
        cr_expect_neq(o->default_value[0], '\0', "%s has a default", o->name);
        cr_expect_eq(om_wh7_option_find(o->name), o, "%s is found by name", o->name);
        for (size_t j = i + 1; j < n; j++)
            cr_expect_neq(strcmp(o->name, om_wh7_option_at(j)->name), 0, "unique %s", o->name);
        if (o->offset != OM_WH7_OPTION_FIXED) {
            cr_expect_lt(o->offset, sizeof(om_wh7_options), "%s offset", o->name);
            cr_expect_neq(strcmp(o->other_value, "-"), 0, "a switch has another reading");
        }
    }
    cr_expect_null(om_wh7_option_find("no_such_option"));
}

Test(whfb7_options, set_and_print)
{
    om_wh7_options o;
    char buf[16];
    const om_wh7_option *opt;
    memset(&o, 0, sizeof o);
    for (size_t i = 0; i < om_wh7_option_count(); i++) {
        opt = om_wh7_option_at(i);
        if (opt->offset == OM_WH7_OPTION_FIXED)
            cr_expect_str_eq(om_wh7_option_value(&o, opt, buf, sizeof buf), "fixed");
        else if (strcmp(opt->name, "max_rounds") != 0) {
            cr_expect_str_eq(om_wh7_option_value(&o, opt, buf, sizeof buf), "false",
                             "%s defaults to false", opt->name);
            cr_expect_eq(om_wh7_option_set(&o, opt->name, "true"), OM_OK);
            cr_expect_str_eq(om_wh7_option_value(&o, opt, buf, sizeof buf), "true");
        }
    }
    cr_expect(o.cc_hit_unclamped && o.wound_mod_unclamped && o.shield_with_two_handed &&
              o.multiwound_no_pool && o.killing_blow_one_wound && o.rank_width_after_blows &&
              o.no_multiple_stand_and_shoot && o.no_move_or_fire_stand_and_shoot);
    opt = om_wh7_option_find("max_rounds");
    cr_expect_str_eq(om_wh7_option_value(&o, opt, buf, sizeof buf), "0");
    cr_expect_eq(om_wh7_option_set(&o, "max_rounds", "12"), OM_OK);
    cr_expect_eq(o.max_rounds, 12u);
    cr_expect_str_eq(om_wh7_option_value(&o, opt, buf, sizeof buf), "12");
    /* Every error path. */
    cr_expect_eq(om_wh7_option_set(&o, "nonsense", "true"), OM_ENOTFOUND);
    cr_expect_eq(om_wh7_option_set(&o, "strike_tiers", "true"), OM_EINVAL);
    cr_expect_eq(om_wh7_option_set(&o, "cc_hit_unclamped", "yes"), OM_EINVAL);
    cr_expect_eq(om_wh7_option_set(&o, "max_rounds", "101"), OM_EINVAL);
    cr_expect_eq(om_wh7_option_set(&o, "max_rounds", "6x"), OM_EINVAL);
    cr_expect_eq(om_wh7_option_set(&o, "max_rounds", "-1"), OM_EINVAL);
}

/* Goblins (WS2) strike first at Elves (WS5: 5+) with a -2 modifier: 7. */
static om_wh7_combat modified(void)
{
    om_wh7_profile elf = prof("Swordmaster", 5, 5, 4, 3, 3, 1, 5, 1, 8);
    om_wh7_side a = side_of(unit_of(OM_WH7_INFANTRY, GOBLIN, 10, 5));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, elf, 25, 5));
    a.charging = true;
    a.mods.to_hit = -2;
    return combat_of(OM_WH7_KIND_COMBAT, a, b);
}

static const om_wh7_chain *rf_chain(const om_wh7_prepared *p, int s)
{
    return &p->side[s].part[WH7_PART_RF].vs[WH7_TARGET_RF][WH7_ROUND_FIRST].chain;
}

Test(whfb7_options, a1_cc_hit_clamp, .timeout = 30)
{
    om_wh7_combat c = modified();
    om_wh7_prepared *p = prepare_or_die(&c);
    tally t;
    cr_expect_eq(rf_chain(p, 0)->hit, 6u, "clamped: a 6 always hits");
    t = run_trials(p, TRIALS / 2, false, NULL, NULL);
    /* 6s to hit, S3 vs T3 4+: 5 blows of 1/12. */
    expect_mean(t.slain[1], t.n, 5.0 / 12, 5.0 / 12 * 11 / 12, "clamped");
    om_wh7_prepared_free(p);
    c.options.cc_hit_unclamped = true;
    p = prepare_or_die(&c);
    cr_expect_eq(rf_chain(p, 0)->hit, 10u, "unclamped: 7+ cannot hit");
    t = run_trials(p, 10000, false, NULL, NULL);
    cr_expect_float_eq(t.slain[1], 0.0, EXACT);
    om_wh7_prepared_free(p);
}

Test(whfb7_options, a2_wound_clamp)
{
    om_wh7_combat c = modified();
    om_wh7_prepared *p;
    c.side[0].mods.to_hit = 0;
    c.side[0].mods.to_wound = -1;
    c.side[1].unit.profile.t = 5; /* S3 vs T5: 6+, then 7 */
    p = prepare_or_die(&c);
    cr_expect_eq(rf_chain(p, 0)->wound, 6u);
    om_wh7_prepared_free(p);
    c.options.wound_mod_unclamped = true;
    p = prepare_or_die(&c);
    cr_expect_eq(rf_chain(p, 0)->wound, OM_WH7_NEVER);
    om_wh7_prepared_free(p);
    /* "N" stays "N" whatever the modifier. */
    c.options.wound_mod_unclamped = false;
    c.side[0].mods.to_wound = 2;
    c.side[1].unit.profile.t = 8;
    p = prepare_or_die(&c);
    cr_expect_eq(rf_chain(p, 0)->wound, OM_WH7_NEVER);
    om_wh7_prepared_free(p);
}

Test(whfb7_options, a4_shield_with_two_handed_weapon)
{
    /* Halberdiers with light armour and shields: in close combat their shield
     * is slung (6+ save) unless the option counts it (5+). */
    om_wh7_combat c = modified();
    om_wh7_prepared *p;
    c.side[0].mods.to_hit = 0;
    c.side[1].unit.equipment.weapon = OM_WH7_WEAPON_HALBERD;
    c.side[1].unit.equipment.shield = true;
    c.side[1].unit.equipment.armour = OM_WH7_ARMOUR_LIGHT;
    p = prepare_or_die(&c);
    cr_expect_eq(rf_chain(p, 0)->armour, 6u);
    om_wh7_prepared_free(p);
    c.options.shield_with_two_handed = true;
    p = prepare_or_die(&c);
    cr_expect_eq(rf_chain(p, 0)->armour, 5u);
    om_wh7_prepared_free(p);
}

/* Option A5 and A26 have their engine tests in test_whfb7_rules.c
 * (multiple_wounds_without_pooling_option, killing_blow_slays_multi_wound_
 * models); max_rounds in test_whfb7_engagement.c (round_limit_is_a_draw). */

typedef struct width_ctx { unsigned bad, narrow; bool after; } width_ctx;

static void width_identity(const om_wh7_outcome *o, void *vctx)
{
    width_ctx *ctx = vctx;
    /* A: 10 Goblins 5 wide (+1 rank at the start), nobody else scores for
     * A but its kills. After the blows it may be under 5 models wide. */
    unsigned left = 10 - o->slain[0], ranks = 1;
    if (left < 5) {
        ctx->narrow++;
        if (ctx->after)
            ranks = 0;
    }
    if (o->result[0] != o->slain[1] + ranks + (left > 12u - o->slain[1]))
        ctx->bad++;
}

Test(whfb7_options, a24_rank_width_after_blows, .timeout = 30)
{
    /* Ogre-strong models (WS5 S6 A3) charge 10 Goblins; the Goblins' rank
     * bonus counts at the start, unless the option judges the width after
     * the blows. */
    om_wh7_profile brute = prof("Brute", 6, 5, 3, 6, 4, 1, 4, 3, 7);
    om_wh7_side a = side_of(unit_of(OM_WH7_INFANTRY, GOBLIN, 10, 5));
    om_wh7_side b = side_of(unit_of(OM_WH7_INFANTRY, brute, 12, 12));
    om_wh7_combat c;
    om_wh7_prepared *p;
    width_ctx ctx = {0, 0, false};
    b.charging = true;
    b.contact = 7;
    c = combat_of(OM_WH7_KIND_COMBAT, a, b);
    for (int after = 0; after < 2; after++) {
        c.options.rank_width_after_blows = after;
        ctx.after = after;
        ctx.bad = ctx.narrow = 0;
        p = prepare_or_die(&c);
        run_trials(p, 20000, false, width_identity, &ctx);
        cr_expect_eq(ctx.bad, 0u, "after %d", after);
        cr_expect_gt(ctx.narrow, 100u);
        om_wh7_prepared_free(p);
    }
}

Test(whfb7_options, spell_modifiers, .timeout = 30)
{
    /* Transmutation of Lead on the Goblins (-1 to hit, -1 to wound, saves one
     * worse) and Dazzling Brightness (WS1) on the Elves, as modifiers. */
    om_wh7_combat c = modified();
    om_wh7_prepared *p;
    c.side[0].mods.to_hit = -1;
    c.side[0].mods.to_wound = -1;
    c.side[0].mods.armour = 1;
    c.side[0].unit.equipment.armour = OM_WH7_ARMOUR_HEAVY;
    p = prepare_or_die(&c);
    cr_expect_eq(rf_chain(p, 0)->hit, 6u);
    cr_expect_eq(rf_chain(p, 0)->wound, 5u);
    cr_expect_eq(rf_chain(p, 1)->armour, 6u, "heavy armour 5+ one worse");
    om_wh7_prepared_free(p);
    c = modified();
    c.side[0].mods.to_hit = 0;
    c.side[1].mods.ws = 1;
    c.side[0].mods.reroll_ones = true;
    c.side[0].mods.strength = 1;
    c.side[0].mods.attacks = 1;
    c.side[1].mods.toughness = 1;
    p = prepare_or_die(&c);
    cr_expect_eq(rf_chain(p, 0)->hit, 3u, "WS2 against WS1");
    cr_expect_eq(rf_chain(p, 1)->hit, 4u, "the Elves at WS1 against WS2");
    cr_expect_eq(rf_chain(p, 0)->reroll_hit, OM_WH7_REROLL_ONES);
    cr_expect_eq(rf_chain(p, 0)->reroll_wound, OM_WH7_REROLL_ONES);
    cr_expect_eq(rf_chain(p, 0)->wound, 4u, "S4 against T3+1");
    cr_expect_eq(p->side[0].part[WH7_PART_RF].attacks[WH7_ROUND_FIRST], 2u);
    om_wh7_prepared_free(p);
}

Test(whfb7_options, outcome_field_table)
{
    size_t n = om_wh7_outcome_field_count(), bytes = 0;
    cr_assert_gt(n, 10u);
    cr_expect_null(om_wh7_outcome_field_at(n));
    for (size_t i = 0; i < n; i++) {
        const om_wh7_outcome_field *f = om_wh7_outcome_field_at(i);
        cr_expect(f->bytes == 1 || f->bytes == 2, "%s", f->name);
        cr_expect(f->count == 1 || f->count == 2, "%s", f->name);
        cr_expect_leq(f->offset + f->bytes * f->count, sizeof(om_wh7_outcome), "%s", f->name);
        cr_expect_eq(f->offset % f->bytes, 0u, "%s aligned", f->name);
        bytes += (size_t)f->bytes * f->count;
        for (size_t j = i + 1; j < n; j++)
            cr_expect_neq(strcmp(f->name, om_wh7_outcome_field_at(j)->name), 0);
    }
    /* Every byte of the outcome is a field (no field forgotten). */
    cr_expect_eq(bytes, sizeof(om_wh7_outcome));
}

/* A valid combat to break, field by field. */
static om_wh7_combat valid(void)
{
    om_wh7_combat c = combat_of(OM_WH7_KIND_ENGAGEMENT,
                                side_of(unit_of(OM_WH7_INFANTRY, SWORDSMAN, 20, 5)),
                                side_of(unit_of(OM_WH7_INFANTRY, ORC_BOY, 20, 5)));
    c.side[0].charging = true;
    return c;
}

static void expect_bad(const om_wh7_combat *c, const char *field, const char *reason_part)
{
    om_wh7_check_failure why;
    om_wh7_prepared *p = NULL;
    memset(&why, 0, sizeof why);
    cr_expect_eq(om_wh7_check(c, &why), OM_EINVAL, "%s rejected", field);
    cr_expect_str_eq(why.field, field);
    cr_expect(strstr(why.reason, reason_part) != NULL, "reason '%s' has '%s'", why.reason,
              reason_part);
    cr_expect(strstr(om_error_message(), field) != NULL, "error names the field");
    cr_expect_eq(om_wh7_prepare_alloc(c, &p), OM_EINVAL);
    cr_expect_null(p);
}

Test(whfb7_options, check_rejects_bad_input)
{
    om_wh7_combat c = valid();
    om_wh7_check_failure why;
    cr_expect_eq(om_wh7_check(&c, &why), OM_OK);
    c.side[0].unit.profile.ws = 11;
    expect_bad(&c, "a.unit.profile.ws", "0 to 10");
    c = valid();
    c.side[1].unit.profile.t = 0;
    expect_bad(&c, "b.unit.profile.t", "1 to 10");
    c = valid();
    c.side[0].unit.profile.name[0] = '\0';
    expect_bad(&c, "a.unit.profile.name", "name");
    c = valid();
    c.side[0].unit.files = 21;
    expect_bad(&c, "a.unit.files", "1 to 20");
    c = valid();
    c.side[0].unit.models = 0;
    c.side[0].unit.files = 1;
    expect_bad(&c, "a.unit.models", "no model");
    c = valid();
    c.side[0].unit.equipment.weapon = OM_WH7_WEAPON_LANCE;
    expect_bad(&c, "a.unit.equipment.weapon", "lance");
    c = valid();
    c.side[0].unit.mount.profile = WARHORSE;
    c.side[0].unit.equipment.weapon = OM_WH7_WEAPON_TWO_HAND;
    expect_bad(&c, "a.unit.equipment.weapon", "on a mount");
    c = valid();
    c.side[0].unit.equipment.barding = true;
    expect_bad(&c, "a.unit.equipment.barding", "mount");
    c = valid();
    c.side[0].unit.equipment.shield = c.side[0].unit.equipment.enchanted_shield = true;
    expect_bad(&c, "a.unit.equipment.enchanted_shield", "second");
    c = valid();
    c.side[0].unit.equipment.ward = 1;
    expect_bad(&c, "a.unit.equipment.ward", "2 to 6");
    c = valid();
    c.side[0].unit.champion = c.side[0].unit.standard = c.side[0].unit.musician = true;
    c.side[0].unit.models = 2;
    c.side[0].unit.files = 2;
    expect_bad(&c, "a.unit.models", "command group");
    c = valid();
    c.side[0].unit.war_banner = true;
    expect_bad(&c, "a.unit.war_banner", "standard");
    c = valid();
    c.side[1].unit.characters = 1;
    c.side[1].unit.character[0].profile = CAPTAIN;
    c.side[1].unit.character[0].profile.w = 0;
    expect_bad(&c, "b.unit.characters[0].profile.w", "1 to 10");
    c = valid();
    c.side[1].unit.characters = 1;
    c.side[1].unit.character[0].profile = CAPTAIN;
    c.side[1].unit.character[0].traits.rules = OM_WH7_RULE_UNBREAKABLE;
    expect_bad(&c, "b.unit.characters[0].rules", "Unbreakable");
    c = valid();
    c.side[1].unit.characters = 3;
    expect_bad(&c, "b.unit.characters", "0 to 2");
    c = valid();
    c.side[1].charging = true;
    expect_bad(&c, "b.charging", "both");
    c = valid();
    c.side[1].unit.traits.rules = OM_WH7_RULE_ITP;
    c.side[1].response = OM_WH7_RESPONSE_FLEE;
    expect_bad(&c, "b.response", "never flees");
    c = valid();
    c.side[0].response = OM_WH7_RESPONSE_FLEE;
    expect_bad(&c, "a.response", "other side to charge");
    c = valid();
    c.side[0].contact = 30;
    expect_bad(&c, "a.contact", "1 to 20");
    c = valid();
    c.side[0].mods.to_hit = 9;
    expect_bad(&c, "a.mods.to_hit", "-5 to 5");
    /* A ward against missiles is a save like any other: 1+ would be ignored
     * (a natural 1 always fails) and 7+ is no save. */
    c = valid();
    c.side[1].mods.missile_ward = 1;
    expect_bad(&c, "b.mods.missile_ward", "2 to 6");
    c.side[1].mods.missile_ward = 7;
    expect_bad(&c, "b.mods.missile_ward", "2 to 6");
    c.side[1].mods.missile_ward = 4;
    cr_expect_eq(om_wh7_check(&c, NULL), OM_OK);
    c = valid();
    c.side[0].unit.traits.damage = (om_wh7_damage)9;
    expect_bad(&c, "a.unit.damage", "unknown damage");
    c = valid();
    c.side[0].unit.traits.rules = UINT64_C(1) << 60;
    expect_bad(&c, "a.unit.rules", "does not know");
    c = valid();
    c.options.max_rounds = 200;
    expect_bad(&c, "options.max_rounds", "0 to 100");
    c = valid();
    c.kind = (om_wh7_kind)77;
    expect_bad(&c, "kind", "unknown kind");
    /* Shooting. */
    c = valid();
    c.side[1].response = OM_WH7_RESPONSE_STAND_AND_SHOOT;
    expect_bad(&c, "b.response", "missile weapon");
    c = valid();
    c.kind = OM_WH7_KIND_VOLLEY;
    /* A shoots: it does not charge (a war machine never does). */
    c.side[0].charging = false;
    expect_bad(&c, "a.unit.equipment.missile", "missile weapon or a war machine");
    c.side[0].machine = OM_WH7_MACHINE_CANNON;
    expect_bad(&c, "a.machine", "war-machine unit");
    c.side[0].unit.troop = OM_WH7_WAR_MACHINE;
    c.side[0].target_in = 30;
    c.side[0].guess_in = 50;
    expect_bad(&c, "a.guess_in", "1 to 48");
    c.side[0].machine = OM_WH7_MACHINE_STONE_THROWER;
    c.side[0].guess_in = 10;
    expect_bad(&c, "a.guess_in", "12 to 60");
    c.side[0].guess_in = 30;
    c.side[0].moved = true;
    expect_bad(&c, "a.moved", "after moving");
    c.side[0].moved = false;
    c.side[0].target_in = 0;
    expect_bad(&c, "a.target_in", "1 to 60");
    c.side[0].target_in = 30;
    cr_expect_eq(om_wh7_check(&c, NULL), OM_OK);
}
