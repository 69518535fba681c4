/*
 * shooting.c: the Shooting phase of the Warmaster family (Warmaster Revolution,
 * Shooting; sections cited are Revolution's unless another rulebook is named):
 * scores to hit and to save, recording hits and removing stands, drive backs
 * with confusion and rout, and shooting at chargers. A-21 and the like are the
 * readings of the army-list rules in docs/research/rule_effects_fantasy.md.
 */
#include "enumerate.h"
#include "wm.h"
#include "wm_int.h"

/* The drive back that destroys a Revolution Trebuchet, which drive backs do
 * not move: more than 10cm (army list, A-21). */
#define OM_WM_STATIC_DRIVE_BACK_CM 10u

om_wm_position om_wm_effective_position(const om_wm_side *target)
{
    /* A Steam Tank always counts as defended (army list). */
    const om_wm_cover cover = (om_wm_cover)target->unit.traits.cover;
    if (cover == OM_WM_COVER_ALWAYS_DEFENDED && target->position == OM_WM_OPEN)
        return OM_WM_DEFENDED;
    /* A laagered War Wagon counts as defended; so do Kislev infantry touching
     * it, against shooting and in the first round (army lists). */
    if ((target->formation == OM_WM_FORMATION_LAAGER || target->beside_laager) &&
        target->position == OM_WM_OPEN)
        return OM_WM_DEFENDED;
    /* Bears (Revolution) are never defended outside dense terrain. */
    if (cover == OM_WM_COVER_ONLY_IN_DENSE && !target->dense_terrain)
        return OM_WM_OPEN;
    /* Cavalry, chariots, monsters and machines are never defended or fortified
     * (Shooting > Scores to Hit); the check rejects such positions, and this
     * guards the table. */
    if (target->unit.troop != OM_WM_INFANTRY && target->unit.troop != OM_WM_ARTILLERY &&
        cover != OM_WM_COVER_ALWAYS_DEFENDED)
        return OM_WM_OPEN;
    return target->position;
}

unsigned om_wm_to_hit_score(const om_wm_ruleset *r, const om_wm_side *target)
{
    return r->to_hit[om_wm_effective_position(target)];
}

unsigned om_wm_save_score(const om_wm_unit *target, bool save_allowed)
{
    return (save_allowed && target->armour != 0) ? target->armour : 7u;
}

unsigned om_wm_drive_back_dice(unsigned hits, om_wm_position position)
{
    /* "If at least one stand is defended ignore the first hit; if fortified the
     * first two" (Shooting > Driving Back Enemies; the same in the Warmaster 1.1
     * Rules Update, P27). */
    unsigned discount = position == OM_WM_FORTIFIED ? 2u : position == OM_WM_DEFENDED ? 1u : 0u;
    return hits > discount ? hits - discount : 0u;
}

unsigned om_wm_unit_drive_back_dice(const om_wm_ruleset *r, const om_wm_side *target,
                                    unsigned hits, bool lost_any)
{
    om_wm_position position = om_wm_effective_position(target);
    unsigned dice;
    int delta;
    /* Fanatics, Flagellants, Steam Tanks... are never driven back by shooting
     * (Warmaster Ancients, Shooting > Driving Back Enemies; army lists). */
    if (target->unit.traits.no_drive_back)
        return 0;
    if (r->drive_back_discount_infantry_only && target->unit.troop != OM_WM_INFANTRY)
        position = OM_WM_OPEN;
    dice = om_wm_drive_back_dice(hits, position);
    /* A warband that has lost no stand ignores one more hit; one that has
     * lost any adds one (Warmaster Ancients, Special Rules > Warband). */
    if (target->unit.traits.warband) {
        if (lost_any)
            dice = hits > 0 ? om_wm_drive_back_dice(hits + 1u, position) : 0u;
        else
            dice -= dice > 0 ? 1u : 0u;
    }
    /* Bushido: one die fewer (Nippon list). */
    delta = (int)dice + target->unit.traits.drive_back_dice_delta;
    return delta > 0 ? (unsigned)delta : 0u;
}

unsigned om_wm_record_hits(unsigned *stands, unsigned *carried, unsigned hits_per_stand,
                           unsigned hits)
{
    unsigned lost;
    assert(hits_per_stand > 0);
    *carried += hits;
    lost = *carried / hits_per_stand;
    if (lost >= *stands) {
        lost = *stands;
        *stands = 0;
        *carried = 0;
        return lost;
    }
    *stands -= lost;
    *carried -= lost * hits_per_stand;
    return lost;
}

/* Shots a stand by range band, closest first: the band that holds the
 * target, the longest one when no distance is given (army lists). */
static unsigned band_shots(const unsigned (*bands)[2], size_t n, unsigned target_cm)
{
    for (size_t i = 0; i < n; i++)
        if (target_cm != 0 && target_cm <= bands[i][0])
            return bands[i][1];
    return bands[n - 1][1];
}

/* Repeating crossbows: twice within 15cm, once to 30cm; Helblaster: 8, 4, 2
 * Attacks within 10, 20, 30cm (army lists). */
static const unsigned repeater_bands[][2] = {{15, 2}, {30, 1}};
static const unsigned helblaster_bands[][2] = {{10, 8}, {20, 4}, {30, 2}};

unsigned om_wm_shots(const om_wm_side *me, unsigned stands, bool at_charger)
{
    unsigned per_stand = me->unit.shots;
    unsigned shooting = me->shooting < stands ? me->shooting : stands;
    const om_wm_traits *t = &me->unit.traits;
    switch ((om_wm_shooter)t->shooter) {
    /* At chargers crossbows shoot once a stand; the Helblaster's crew fire
     * at the shortest range (army lists). */
    case OM_WM_SHOOTER_REPEATER:
        return shooting * (at_charger ? 1u : band_shots(repeater_bands, 2, me->target_cm));
    case OM_WM_SHOOTER_HELBLASTER:
        return shooting * (at_charger ? helblaster_bands[0][1]
                                      : band_shots(helblaster_bands, 3, me->target_cm));
    case OM_WM_SHOOTER_ROCKET:
    case OM_WM_SHOOTER_FLAME_CANNON:
    case OM_WM_SHOOTER_WARP_LIGHTNING:
        return 0; /* rolled when it shoots (om_wm_fire_at) */
    case OM_WM_SHOOTER_CANNON:
        /* Grapeshot: a cannon charged fires 2 Attacks, without bounce
         * (Artillery & Machines > Artillery). */
        if (at_charger)
            return 2u * shooting;
        break;
    default:
        break;
    }
    /* Bounce and skewer: +1 Attack per further stand of the target in the line
     * (Artillery & Machines > Artillery: cannon "+1 for each additional
     * stand", bolt thrower "+1 for an additional stand", Bone Thrower "1
     * attack per stand"). */
    if (t->line_fire && me->line_stands > 1)
        per_stand += me->line_stands - 1u;
    /* A Salamander stand shoots 2 where its Skinks shoot 1, and is the last
     * stand its owner removes; in 1.1 it shoots once at chargers (army lists). */
    if (t->shooter == OM_WM_SHOOTER_SALAMANDER && shooting > 0 && per_stand < 2 &&
        (!at_charger || t->salamander_shoots_chargers))
        return per_stand * shooting + (2u - per_stand);
    return per_stand * shooting;
}

unsigned om_wm_hurt_from(const om_wm_unit *u)
{
    switch ((om_wm_hurt)u->traits.hurt) {
    case OM_WM_HURT_FROM_HALF: return u->hits / 2u;
    case OM_WM_HURT_ABOVE_HALF: return u->hits / 2u + 1u;
    default: return 0;
    }
}

/* Attacks a machine of random shots rolls this shooting (army lists):
 * rockets D6, a 1 rolling on the misfire chart (A-24: the Whoosh hits a unit
 * beyond the target, so none here); the Flame Cannon 2D6, a double rolling
 * on its chart, 1D6 and no more misfires after result 3; the 1.1 Warp
 * Lightning Cannon D6, a 1 turning D6 Attacks on itself (4+, no save, A-22). */
static unsigned machine_attacks(om_dice *d, om_wm_shooter shooter, om_wm_fire *r)
{
    unsigned a = om_dice_roll_d6(d), b;
    if (shooter == OM_WM_SHOOTER_ROCKET) {
        if (a != 1)
            return a;
        switch (om_dice_roll_d6(d)) {
        case 1: r->exploded++; return 0;          /* KABOOM! */
        case 2: case 3: return 1;                 /* Dud */
        case 4: case 5: return 0;                 /* Whoosh: past the target */
        default: return om_dice_roll_sum(d, 2, NULL); /* Big badaboom: 2D6 */
        }
    }
    if (shooter == OM_WM_SHOOTER_FLAME_CANNON) {
        if (r->reduced)
            return a;
        b = om_dice_roll_d6(d);
        if (a != b)
            return a + b;
        switch (a) {
        case 1: r->exploded++; return 0;
        case 2: r->exploded++; return 4u + om_dice_roll_sum(d, 2, NULL);
        case 3: r->reduced = true; return 6;
        case 4: return 0;
        case 5: return 10;
        default: return 12u + om_dice_roll_d6(d);
        }
    }
    /* The 1.1 Warp Lightning Cannon. */
    if (a == 1) {
        r->self_hits += om_dice_roll_count(d, om_dice_roll_d6(d), 4);
        return 0;
    }
    return a;
}

void om_wm_fire_at(const om_wm_pair_tests *tests, const om_wm_side *target, om_dice *d,
                   const om_wm_side *me, unsigned stands, bool at_charger,
                   unsigned target_stands, om_wm_fire *r)
{
    const om_wm_traits *traits = &me->unit.traits;
    const bool helblaster = traits->shooter == OM_WM_SHOOTER_HELBLASTER;
    bool worn = at_charger && target->magic == OM_WM_MAGIC_SHIELDING &&
                !om_wm_magic_intact(target, target_stands);
    const om_dice_test *t = !at_charger ? &tests->shoot
                            : worn      ? &tests->shoot_charger_worn
                                        : &tests->shoot_charger;
    unsigned dice = om_wm_shots(me, stands, at_charger);

    r->hits = r->self_hits = r->exploded = 0;
    r->confused = false;
    if (om_wm_shooter_rolls_attacks(traits)) {
        unsigned shooting = me->shooting < stands ? me->shooting : stands;
        for (unsigned i = 0; i < shooting; i++)
            dice += machine_attacks(d, (om_wm_shooter)traits->shooter, r);
    }
    if (helblaster || traits->double_ones_confuse) {
        /* Dice read one by one: the 1s among them decide (army lists), each
         * Helblaster's own, the Warp Lightning Cannon's over the shooting. */
        unsigned guns = helblaster && dice > 0
                            ? (me->shooting < stands ? me->shooting : stands) : 1u;
        unsigned hit = 0, ones = 0;
        for (unsigned g = 0; g < guns; g++) {
            unsigned gun_hit = 0, gun_ones = 0, n = dice / guns;
            om_enum *e = om_enum_of(d);
            if (e != NULL) {
                /* Enumerated: the 1s, then the hits among the other dice,
                 * whose faces 2..6 are equally likely: the same law as the
                 * faces one by one, in far fewer outcomes. */
                const unsigned lo = t->to_hit > 2u ? t->to_hit : 2u;
                gun_ones = om_enum_binomial(e, 1.0 / 6.0, n);
                gun_hit = om_enum_binomial(e, lo > 6u ? 0.0 : (7u - lo) / 5.0, n - gun_ones) +
                          (t->to_hit <= 1u ? gun_ones : 0u);
            }
            for (unsigned i = 0; e == NULL && i < n; i++) {
                unsigned face = om_dice_roll_d6(d);
                gun_hit += face >= t->to_hit;
                gun_ones += face == 1;
            }
            if (helblaster && gun_ones >= 3) {
                gun_hit = 0;              /* Misfire: no hits this turn */
                if (gun_ones >= 4) {      /* Ka-boom! */
                    r->exploded++;
                    gun_hit = at_charger ? 6u : 0u; /* 6 automatic hits on a charger */
                }
            }
            hit += gun_hit;
            ones += gun_ones;
        }
        if (traits->double_ones_confuse)
            r->confused = ones >= 2; /* two or more 1s */
        r->hits = hit - om_wm_saves(d, t, hit);
    } else {
        r->hits = om_dice_hits(d, t, dice);
    }
    /* A joined character's breath: the usual to-hit and save, at chargers
     * too, as the unit is not yet engaged. */
    if (me->extra_shots > 0 &&
        (at_charger || me->extra_range_cm == 0 || me->target_cm <= me->extra_range_cm))
        r->hits += om_dice_hits(d, &tests->breath[at_charger ? 1 + worn : 0], me->extra_shots);
}

bool om_wm_fire_cost(om_dice *d, const om_wm_unit *me, const om_wm_fire *r, unsigned *stands)
{
    unsigned odd = 0;
    bool confused = r->confused;
    *stands -= r->exploded < *stands ? r->exploded : *stands;
    if (r->self_hits > 0 && *stands > 0) {
        (void)om_wm_record_hits(stands, &odd, me->hits, r->self_hits);
        if (*stands > 0 && om_dice_roll_d6(d) == 6)
            confused = true;
    }
    return confused && *stands > 0 && !me->traits.never_confused;
}

/*
 * A drive back that reaches what lies behind the unit (Shooting > Driving Back
 * Enemies; Confusion > When do Units Become Confused?, Movement > Units
 * Which Move off the Table): impassable terrain halts it at the edge, confused
 * on a D6 of 6 (always in Ancients); an enemy, an engaged unit or unyielding
 * friends halt it 1cm away, confused; friends make way and the unit tests
 * once, confused on a 6; the table edge takes it off, and a D6 less the stands
 * it has lost decides: 0 or less, destroyed (the unit does not come back);
 * otherwise it stays in play (returning later).
 */
static void drive_back_into(const om_wm_ruleset *r, om_dice *d, const om_wm_side *target,
                            om_wm_volley_result *v, unsigned lost)
{
    switch (target->behind) {
    case OM_WM_BEHIND_IMPASSABLE:
        /* Ancients: halted by impassable terrain is always confused (Warmaster
         * Ancients, Confusion > When do Units Become Confused? (2)). */
        if (r->impassable_halt_confuses || om_dice_roll_d6(d) == 6)
            v->confused = true;
        break;
    case OM_WM_BEHIND_FRIENDS:
        if (om_dice_roll_d6(d) == 6)
            v->confused = true;
        break;
    case OM_WM_BEHIND_ENEMY:
    case OM_WM_BEHIND_UNYIELDING:
        v->confused = true;
        break;
    case OM_WM_BEHIND_TABLE_EDGE:
        if ((int)om_dice_roll_d6(d) - (int)lost <= 0)
            v->off_table = true;
        break;
    default:
        break;
    }
}

void om_wm_volley_at(const om_wm_ruleset *rules, const om_wm_pair_tests *tests,
                     const om_wm_side *target, om_dice *d, const om_wm_side *me,
                     unsigned shooters, unsigned stands, om_wm_volley_result *v)
{
    unsigned carried = 0, left = stands;

    /* Shooting blind (Artillery & Machines > Artillery): the 1.1 Trebuchet
     * first needs a 6 on a D6. */
    if (me->blind_fire && me->unit.traits.blind_fire_needs_six && om_dice_roll_d6(d) < 6) {
        v->fire.hits = v->fire.self_hits = v->fire.exploded = 0;
        v->fire.confused = false;
    } else {
        om_wm_fire_at(tests, target, d, me, shooters, false, stands, &v->fire);
    }
    v->hits = om_wm_steadfast(target, stands, v->fire.hits);
    /* The unit's own Hits: a Banner of Fortitude works in combat only
     * (Magic > Magic Items). */
    v->stands_lost = om_wm_record_hits(&left, &carried, target->unit.hits, v->hits);
    om_wm_drive_back_at(rules, d, target, &me->unit.traits, stands, left, carried, v);
}

void om_wm_drive_back_at(const om_wm_ruleset *rules, om_dice *d, const om_wm_side *target,
                         const om_wm_traits *driver, unsigned stands, unsigned left,
                         unsigned carried, om_wm_volley_result *v)
{
    unsigned dice, sixes = 0, hurt_from;
    const unsigned size = om_wm_unit_size(&target->unit);

    v->drive_back_cm = 0;
    v->confused = v->routed = v->off_table = v->hurt = false;
    if (left == 0)
        return;
    /* A big monster left with enough hits at the end of the phase is badly
     * hurt before its odd hits go (army lists; whether it is driven back
     * does not matter). */
    hurt_from = om_wm_hurt_from(&target->unit);
    v->hurt = hurt_from > 0 && carried >= hurt_from;
    /* Drive back (Shooting > Driving Back Enemies): every hit suffered this
     * phase, including those that removed stands, less the defended/fortified
     * discount; the sum is the distance, any 6 confuses, a sum above full pace
     * routs the unit. Only dice actually rolled can confuse (A24). Odd hits are
     * then discarded (Shooting at a Glance > Disregard Odd Hits). */
    dice = om_wm_unit_drive_back_dice(rules, target, v->hits, left < size);
    if (driver->shooter == OM_WM_SHOOTER_WARP_LIGHTNING) {
        /* The 1.1 Warp Lightning Cannon drives nobody back; a unit that
         * suffers a casualty (an unsaved hit, A-22) is confused on a 6. */
        v->confused = v->hits > 0 && om_dice_roll_d6(d) == 6;
    } else if (target->formation == OM_WM_FORMATION_LAAGER) {
        /* A laager cannot be driven back or routed: its (defended) drive-back
         * dice are rolled only for confusion, on a 6 (army list). */
        (void)om_dice_roll_sum(d, dice, &sixes);
        v->confused = sixes > 0;
    } else if (target->unit.traits.static_machine != OM_WM_NOT_STATIC) {
        /* The Trebuchet does not move: destroyed by any 6 (1.1), or by a
         * drive back of more than 10cm (Revolution, A-21), never confused. */
        unsigned sum = om_dice_roll_sum(d, dice, &sixes);
        if (target->unit.traits.static_machine == OM_WM_STATIC_LOST_ON_A_SIX
                ? sixes > 0
                : sum > OM_WM_STATIC_DRIVE_BACK_CM) {
            v->stands_lost = stands;
            v->hurt = false;
        }
        return;
    } else if (driver->drive_back_confuses_on != 0) {
        /* The Skull Chukka's drive backs confuse on a 4+: each die read. */
        unsigned high = 0;
        v->drive_back_cm = 0;
        for (unsigned i = 0; i < dice; i++) {
            unsigned face = om_dice_roll_d6(d);
            v->drive_back_cm += face;
            high += face >= driver->drive_back_confuses_on;
        }
        v->confused = high > 0;
    } else {
        v->drive_back_cm = om_dice_roll_sum(d, dice, &sixes);
        v->confused = sixes > 0;
    }
    v->routed = v->drive_back_cm > target->unit.pace_cm;
    if (!v->routed && target->behind != OM_WM_BEHIND_OPEN &&
        v->drive_back_cm > target->behind_cm)
        /* all stands lost (Movement > Units Which Move off the Table) */
        drive_back_into(rules, d, target, v, size - left);
    if (target->unit.traits.never_confused)
        v->confused = false;
}

void om_wm_volley(const om_wm_prepared *p, om_dice *d, om_wm_fighter *a, om_wm_fighter *b,
                  om_wm_outcome *o)
{
    const int sa = OM_WM_SIDE_A, sb = OM_WM_SIDE_B;
    const unsigned shooters = a->stands, stands = b->stands;
    const om_wm_side *me = a->hurt ? &p->hurt[sa] : &p->e.side[sa];
    const om_wm_side *target = &p->e.side[sb];
    unsigned left = shooters;
    om_wm_volley_result v;

    v.fire.reduced = a->reduced;
    om_wm_volley_at(p->e.rules, &p->tests[sa], target, d, me, shooters, stands, &v);
    o->winner = o->round1_winner = OM_WM_NO_CONTEST;
    o->hits_on[sb] = om_wm_sat8(v.hits);
    o->shot_hits_on[sb] = o->hits_on[sb];
    o->stands_lost[sb] = (uint8_t)v.stands_lost;
    /* End states agree (wm.h): a unit the drive back took off the table
     * records OM_WM_LEFT_TABLE_CM and is routed or destroyed, never confused
     * nor badly hurt. */
    o->drive_back_cm = om_wm_drive_back_recorded(&v);
    o->routed[sb] = v.routed;
    o->destroyed[sb] = v.routed || v.off_table || v.stands_lost == stands;
    o->confused[sb] = v.confused && !o->destroyed[sb];
    o->hurt[sb] = v.hurt && !o->destroyed[sb];
    /* What the shooting cost the shooter (army lists). */
    o->confused[sa] = om_wm_fire_cost(d, &me->unit, &v.fire, &left);
    o->stands_lost[sa] = (uint8_t)(shooters - left);
    o->destroyed[sa] = left == 0;
    if (v.routed || v.off_table)
        o->stands_lost[sb] = (uint8_t)stands;
    /* The units after the Shooting phase: odd hits are discarded
     * (Shooting at a Glance > Disregard Odd Hits). */
    b->stands = o->destroyed[sb] ? 0u : stands - v.stands_lost;
    b->carried = 0;
    b->confused |= o->confused[sb];
    b->hurt |= o->hurt[sb];
    a->stands = left;
    a->confused |= o->confused[sa];
    a->reduced = v.fire.reduced;
}
