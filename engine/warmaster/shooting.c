/*
 * shooting.c: the Shooting phase of the Warmaster family (digest warmaster.md
 * section 5): scores to hit and to save, recording hits and removing stands,
 * drive backs with confusion and rout, and shooting at chargers (5.7).
 */
#include "wm.h"
#include "wm_int.h"

om_wm_position om_wm_effective_position(const om_wm_side *target)
{
    /* A Steam Tank always counts as defended (army list). */
    if ((target->unit.rules & OM_WM_RULE_COUNTS_DEFENDED) && target->position == OM_WM_OPEN)
        return OM_WM_DEFENDED;
    /* Bears (Revolution) are never defended outside dense terrain. */
    if ((target->unit.rules & OM_WM_RULE_DEFENDED_ONLY_IN_DENSE) && !target->dense_terrain)
        return OM_WM_OPEN;
    /* Cavalry, chariots, monsters and machines are never defended or fortified
     * (5.2); the check rejects such positions, and this guards the table. */
    if (target->unit.troop != OM_WM_INFANTRY && target->unit.troop != OM_WM_ARTILLERY &&
        !(target->unit.rules & OM_WM_RULE_COUNTS_DEFENDED))
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
     * first two" (5.5 step 2; RU P27 identical). */
    unsigned discount = position == OM_WM_FORTIFIED ? 2u : position == OM_WM_DEFENDED ? 1u : 0u;
    return hits > discount ? hits - discount : 0u;
}

unsigned om_wm_unit_drive_back_dice(const om_wm_ruleset *r, const om_wm_side *target,
                                    unsigned hits, bool lost_any)
{
    om_wm_position position = target->position;
    unsigned dice;
    /* Fanatics, Flagellants, Steam Tanks... are never driven back by shooting
     * (seed 001 l.1385; army lists). */
    if (target->unit.rules & OM_WM_RULE_NO_DRIVE_BACK)
        return 0;
    if (r->drive_back_discount_infantry_only && target->unit.troop != OM_WM_INFANTRY)
        position = OM_WM_OPEN;
    dice = om_wm_drive_back_dice(hits, position);
    /* A warband that has lost no stand ignores one more hit; one that has
     * lost any adds one (seed 001 l.4638). */
    if (target->unit.rules & OM_WM_RULE_WARBAND) {
        if (lost_any)
            dice = hits > 0 ? om_wm_drive_back_dice(hits + 1u, position) : 0u;
        else
            dice -= dice > 0 ? 1u : 0u;
    }
    /* Bushido: one die fewer (Nippon list). */
    if ((target->unit.rules & OM_WM_RULE_DRIVE_BACK_MINUS1) && dice > 0)
        dice--;
    return dice;
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

unsigned om_wm_shots(const om_wm_side *me, unsigned stands, bool at_charger)
{
    unsigned per_stand = me->unit.shots;
    unsigned shooting = me->shooting < stands ? me->shooting : stands;
    /* Grapeshot: a cannon charged fires 2 Attacks, without bounce (5.10). */
    if (at_charger && (me->unit.rules & OM_WM_RULE_CANNON))
        return 2u * shooting;
    /* Bounce and skewer: +1 Attack per further stand of the target in the line
     * (5.10: cannon "+1 for each additional stand", bolt thrower "+1 for an
     * additional stand", Bone Thrower "1 attack per stand"). */
    if ((me->unit.rules & OM_WM_RULE_LINE_FIRE) && me->line_stands > 1)
        per_stand += me->line_stands - 1u;
    return per_stand * shooting;
}

unsigned om_wm_hurt_from(const om_wm_unit *u)
{
    if (!(u->rules & OM_WM_RULE_BADLY_HURT))
        return 0;
    return u->hits / 2u + ((u->rules & OM_WM_RULE_HURT_FROM_HALF) ? 0u : 1u);
}

unsigned om_wm_shoot(const om_wm_prepared *p, om_dice *d, int shooter, unsigned shots)
{
    unsigned breath = p->e.side[shooter].extra_shots;
    unsigned hits = om_dice_hits(d, &p->shoot[shooter], shots);
    return breath ? hits + om_dice_hits(d, &p->breath[shooter][0], breath) : hits;
}

unsigned om_wm_shoot_charger(const om_wm_prepared *p, om_dice *d, int shooter, unsigned shots,
                             unsigned target_stands)
{
    const om_wm_side *target = &p->e.side[1 - shooter];
    const om_dice_test *t = &p->shoot_charger[shooter];
    unsigned breath = p->e.side[shooter].extra_shots, hits;
    bool worn = target->magic == OM_WM_MAGIC_SHIELDING &&
                !om_wm_magic_intact(target, target_stands);
    if (worn)
        t = &p->shoot_charger_worn[shooter];
    hits = om_dice_hits(d, t, shots);
    /* A joined character breathes at chargers too: the unit is not yet
     * engaged. */
    return breath ? hits + om_dice_hits(d, &p->breath[shooter][1 + worn], breath) : hits;
}

/*
 * A drive back that reaches what lies behind the unit (5.5 step 7, 7.1, 3.8):
 * impassable terrain halts it at the edge, confused on a D6 of 6 (always in
 * Ancients); an enemy, an
 * engaged unit or unyielding friends halt it 1cm away, confused; friends make
 * way and the unit tests once, confused on a 6; the table edge takes it off,
 * and a D6 less the stands it has lost decides: 0 or less, destroyed (the unit
 * does not come back); otherwise it stays in play (returning later).
 */
static void drive_back_into(const om_wm_ruleset *r, om_dice *d, const om_wm_side *target,
                            om_wm_volley_result *v, unsigned lost)
{
    switch (target->behind) {
    case OM_WM_BEHIND_IMPASSABLE:
        /* Ancients: halted by impassable terrain is always confused (WMA 9.1 #2). */
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

void om_wm_volley_at(const om_wm_prepared *p, om_dice *d, int shooter, unsigned shots,
                     unsigned stands, om_wm_volley_result *v)
{
    const om_wm_side *target = &p->e.side[1 - shooter];
    unsigned carried = 0, left = stands, dice, sixes = 0, hurt_from;
    const unsigned size = om_wm_unit_size(&target->unit);

    v->hits = om_wm_steadfast(target, stands, om_wm_shoot(p, d, shooter, shots));
    /* The unit's own Hits: a Banner of Fortitude works in combat only (10.3). */
    v->stands_lost = om_wm_record_hits(&left, &carried, target->unit.hits, v->hits);
    v->drive_back_cm = 0;
    v->confused = v->routed = v->off_table = v->hurt = false;
    if (left == 0)
        return;
    /* A big monster left with enough hits at the end of the phase is badly
     * hurt before its odd hits go (army lists; whether it is driven back
     * does not matter). */
    hurt_from = om_wm_hurt_from(&target->unit);
    v->hurt = hurt_from > 0 && carried >= hurt_from;
    /* Drive back (5.5): every hit suffered this phase, including those that
     * removed stands, less the defended/fortified discount; the sum is the
     * distance, any 6 confuses, a sum above full pace routs the unit. Only dice
     * actually rolled can confuse (A24). Odd hits are then discarded (5.6). */
    dice = om_wm_unit_drive_back_dice(p->e.rules, target, v->hits, left < size);
    if (p->e.side[shooter].unit.rules & OM_WM_RULE_DRIVE_BACK_CONFUSE_4) {
        /* The Skull Chukka's drive backs confuse on a 4+: each die read. */
        unsigned high = 0;
        v->drive_back_cm = 0;
        for (unsigned i = 0; i < dice; i++) {
            unsigned face = om_dice_roll_d6(d);
            v->drive_back_cm += face;
            high += face >= 4;
        }
        v->confused = high > 0;
    } else {
        v->drive_back_cm = om_dice_roll_sum(d, dice, &sixes);
        v->confused = sixes > 0;
    }
    v->routed = v->drive_back_cm > target->unit.pace_cm;
    if (!v->routed && target->behind != OM_WM_BEHIND_OPEN &&
        v->drive_back_cm > target->behind_cm)
        drive_back_into(p->e.rules, d, target, v, size - left); /* all stands lost (3.8) */
    if (target->unit.rules & OM_WM_RULE_NEVER_CONFUSED)
        v->confused = false;
}

void om_wm_volley(const om_wm_prepared *p, om_dice *d, om_wm_outcome *o)
{
    const om_wm_side *target = &p->e.side[OM_WM_SIDE_B];
    om_wm_volley_result v;

    om_wm_volley_at(p, d, OM_WM_SIDE_A,
                    om_wm_shots(&p->e.side[OM_WM_SIDE_A], p->e.side[OM_WM_SIDE_A].unit.stands,
                                false),
                    target->unit.stands, &v);
    o->winner = o->round1_winner = OM_WM_NO_CONTEST;
    o->hits_on[1] = om_wm_sat8(v.hits);
    o->shot_hits_on[1] = o->hits_on[1];
    o->stands_lost[1] = (uint8_t)v.stands_lost;
    o->drive_back_cm = om_wm_sat8(v.drive_back_cm);
    o->confused[1] = v.confused;
    o->routed[1] = v.routed;
    o->destroyed[1] = v.routed || v.off_table || v.stands_lost == target->unit.stands;
    o->hurt[1] = v.hurt && !o->destroyed[1];
    if (v.routed || v.off_table)
        o->stands_lost[1] = target->unit.stands;
}
