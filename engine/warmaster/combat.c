/*
 * combat.c: the Combat phase of the Warmaster family (digest warmaster.md
 * section 6): attack dice with their modifiers, hits against armour, the combat
 * result with supports and the cap on counted hits, casualties, the winner and
 * the loser's retreat distance. Shooting at chargers (5.7) comes first.
 */
#include "wm.h"
#include "wm_int.h"

static unsigned floor0(int v) { return v > 0 ? (unsigned)v : 0u; }

unsigned om_wm_attack_dice(const om_wm_ruleset *r, const om_wm_side *me, const om_wm_side *foe,
                           unsigned fighting, unsigned flanked, unsigned round)
{
    int per_stand = me->unit.attacks;
    unsigned plain, total;
    assert(flanked <= fighting);
    if (fighting == 0)
        return 0;
    /* Charge bonus: first round only, not against a defended or fortified enemy;
     * monsters and chariots get +1 more in the rule sets that say so (6.4). */
    if (round == 1 && me->charging && foe->position == OM_WM_OPEN)
        per_stand += r->charge_bonus[me->unit.troop];
    /* Terror does not affect a unit that is itself terrifying (6.4). */
    if ((foe->unit.rules & OM_WM_RULE_TERROR) && !(me->unit.rules & OM_WM_RULE_TERROR))
        per_stand -= 1;
    if (me->confused)
        per_stand -= 1;
    /* A stand with an enemy front edge on its side or rear fights at -1; each
     * stand is floored at 0 on its own (A4). */
    plain = fighting - flanked;
    total = plain * floor0(per_stand) + flanked * floor0(per_stand - 1);
    /* The character bonus is added to one stand before that stand's modifiers;
     * the owner picks the best stand, an unflanked one if any (A39). */
    if (me->attack_bonus > 0) {
        int base = plain > 0 ? per_stand : per_stand - 1;
        total += floor0(base + me->attack_bonus) - floor0(base);
    }
    /* "A unit always rolls one Attack dice regardless" (last-ditch die, A3). */
    return total > 0 ? total : 1u;
}

unsigned om_wm_retreat_cm(unsigned winner_result, unsigned loser_result, unsigned losing_units)
{
    unsigned diff = winner_result > loser_result ? winner_result - loser_result : 0u;
    unsigned cm;
    assert(losing_units > 0);
    cm = (diff + losing_units - 1) / losing_units; /* halves round up (RU P145) */
    return cm > 0 ? cm : 1u;
}

unsigned om_wm_pursuit_bonus(unsigned retreat_cm) { return 1u + retreat_cm / 3u; }

/* Supporting stands that count in the result of side `s` (6.7; D5). With supports
 * counted after casualties (WM11), supports drawn from the unit's own rear stands
 * are lost first when the unit loses stands, since casualties come off the edge
 * of the formation, which is where those stands stand. */
static unsigned supports_counted(const om_wm_ruleset *r, const om_wm_side *me, unsigned lost)
{
    if (!r->supports_after_casualties || me->support_units > 0)
        return me->supports;
    return me->supports > lost ? me->supports - lost : 0u;
}

void om_wm_combat(const om_wm_prepared *p, om_dice *d, om_wm_outcome *o)
{
    const om_wm_engagement *e = &p->e;
    const om_wm_ruleset *r = e->rules;
    unsigned stands[2], carried[2] = {0, 0}, shot[2] = {0, 0}, hits[2], counted[2], lost[2];
    unsigned result[2];
    int winner;

    for (int s = 0; s < 2; s++)
        stands[s] = e->side[s].unit.stands;

    /* Shooting at chargers (5.7): stands lost are removed at once and do not
     * fight; every hit, including those that removed stands, counts for the
     * shooting side in round 1 (W7). The charger is never driven back. */
    for (int s = 0; s < 2; s++) {
        int c = 1 - s;
        if (!e->side[s].stand_and_shoot)
            continue;
        shot[s] = om_wm_shoot(p, d, s);
        o->shot_hits_on[c] = om_wm_sat8(shot[s]);
        o->hits_on[c] = om_wm_sat8(shot[s]);
        (void)om_wm_record_hits(&stands[c], &carried[c], e->side[c].unit.hits, shot[s]);
    }
    for (int s = 0; s < 2; s++) {
        if (stands[s] == 0) {
            /* The charge was shot down before contact: the survivor wins (6.6). */
            o->winner = (uint8_t)(1 - s);
            o->result[1 - s] = om_wm_sat8(shot[1 - s]);
            o->stands_lost[s] = e->side[s].unit.stands;
            o->destroyed[s] = 1;
            return;
        }
    }

    /* Round 1: both sides strike simultaneously (6.1, 6.5). */
    for (int s = 0; s < 2; s++) {
        const om_wm_side *me = &e->side[s];
        unsigned fighting = me->fighting < stands[s] ? me->fighting : stands[s];
        unsigned flanked = me->flanked < fighting ? me->flanked : fighting;
        unsigned dice = om_wm_attack_dice(r, me, &e->side[1 - s], fighting, flanked, 1);
        hits[s] = om_dice_hits(d, &p->melee[s], dice);
    }
    for (int s = 0; s < 2; s++) {
        int t = 1 - s;
        /* Only the hits the target could still absorb count (A21, W15). */
        unsigned capacity = stands[t] * e->side[t].unit.hits - carried[t];
        counted[s] = hits[s] < capacity ? hits[s] : capacity;
        o->hits_on[t] = om_wm_sat8(o->hits_on[t] + hits[s]);
    }
    /* Casualties at the end of the round (6.5 step 5); the removal order
     * (loser first) does not change the numbers in a two-unit engagement. */
    for (int t = 0; t < 2; t++)
        lost[t] = om_wm_record_hits(&stands[t], &carried[t], e->side[t].unit.hits, hits[1 - t]);
    for (int s = 0; s < 2; s++)
        result[s] = counted[s] + shot[s] + supports_counted(r, &e->side[s], lost[s]);

    /* The winner (6.6): a side wiped out loses automatically; both wiped out is
     * a draw (A18); otherwise the higher result wins. */
    if (stands[0] == 0 && stands[1] == 0)
        winner = OM_WM_DRAW;
    else if (stands[0] == 0)
        winner = OM_WM_SIDE_B;
    else if (stands[1] == 0)
        winner = OM_WM_SIDE_A;
    else if (result[0] == result[1])
        winner = OM_WM_DRAW;
    else
        winner = result[0] > result[1] ? OM_WM_SIDE_A : OM_WM_SIDE_B;

    /* The loser retreats by the difference divided among the losing side's
     * units (6.9): in REV those include supporting units, in WM11 only units in
     * contact (D6). Artillery forced to retreat is destroyed (6.9). */
    if (winner == OM_WM_SIDE_A || winner == OM_WM_SIDE_B) {
        int l = 1 - winner;
        if (stands[l] > 0) {
            unsigned units = 1u + (r->retreat_divisor_engaged_only ? 0u : e->side[l].support_units);
            o->retreat_cm = om_wm_sat8(om_wm_retreat_cm(result[winner], result[l], units));
            if (e->side[l].unit.troop == OM_WM_ARTILLERY)
                stands[l] = 0;
        }
    }
    o->winner = (uint8_t)winner;
    for (int s = 0; s < 2; s++) {
        o->result[s] = om_wm_sat8(result[s]);
        o->stands_lost[s] = (uint8_t)(e->side[s].unit.stands - stands[s]);
        o->destroyed[s] = stands[s] == 0;
    }
}
