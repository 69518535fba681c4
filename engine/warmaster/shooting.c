/*
 * shooting.c: the Shooting phase of the Warmaster family (digest warmaster.md
 * section 5): scores to hit and to save, recording hits and removing stands,
 * drive backs with confusion and rout, and shooting at chargers (5.7).
 */
#include "wm.h"
#include "wm_int.h"

unsigned om_wm_to_hit_score(const om_wm_ruleset *r, const om_wm_side *target)
{
    /* Cavalry, chariots, monsters and machines are never defended or fortified
     * (5.2); the check rejects such positions, and this guards the table. */
    if (target->unit.troop != OM_WM_INFANTRY && target->unit.troop != OM_WM_ARTILLERY)
        return r->to_hit[OM_WM_OPEN];
    return r->to_hit[target->position];
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

unsigned om_wm_shoot(const om_wm_prepared *p, om_dice *d, int shooter)
{
    const om_wm_side *me = &p->e.side[shooter];
    return om_dice_hits(d, &p->shoot[shooter], (unsigned)me->shooting * me->unit.shots);
}

void om_wm_volley(const om_wm_prepared *p, om_dice *d, om_wm_outcome *o)
{
    const om_wm_side *target = &p->e.side[OM_WM_SIDE_B];
    unsigned stands = target->unit.stands, carried = 0, hits, dice, sum, sixes = 0;

    hits = om_wm_shoot(p, d, OM_WM_SIDE_A);
    o->winner = OM_WM_NO_CONTEST;
    o->hits_on[1] = om_wm_sat8(hits);
    o->shot_hits_on[1] = o->hits_on[1];
    o->stands_lost[1] = (uint8_t)om_wm_record_hits(&stands, &carried, target->unit.hits, hits);
    if (stands == 0) {
        o->destroyed[1] = 1;
        return;
    }
    /* Drive back (5.5): every hit suffered this phase, including those that
     * removed stands, less the defended/fortified discount; the sum is the
     * distance, any 6 confuses, a sum above full pace routs the unit. Only dice
     * actually rolled can confuse (A24). Odd hits are then discarded (5.6). */
    dice = om_wm_drive_back_dice(hits, target->position);
    sum = om_dice_roll_sum(d, dice, &sixes);
    o->drive_back_cm = om_wm_sat8(sum);
    o->confused[1] = sixes > 0;
    if (sum > target->unit.pace_cm) {
        o->routed[1] = 1;
        o->destroyed[1] = 1;
        o->stands_lost[1] = target->unit.stands;
    }
}
