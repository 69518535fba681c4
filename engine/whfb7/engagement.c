/*
 * engagement.c: the combat and engagement kinds from the charge to the end
 * (WHFB 7th edition, Movement > Declaring Charge Responses; Psychology >
 * Fear, Terror; Close Combat > How to Resolve Combats: fight, combat result,
 * break tests, flee & pursue, further turns; Psychology > Unbreakable Swarms,
 * Frenzy; Panic). The combat kind stops after the first round's break test
 * and pursuit; the engagement kind fights on until a side breaks or is
 * destroyed, or the round limit.
 */
#include "wh7_int.h"

/* Unit strength from which a unit breaking or destroyed makes friends
 * within 6" test for panic (Psychology > Panic, cases 2 and 3). */
#define WH7_US_PANIC 5u

/* The charged side stands and shoots (Declaring Charge Responses > Stand &
 * Shoot): its volley at -1 just before contact. A charger that loses 25% of
 * its models tests for panic at once and, failing, flees before contact
 * (Panic, case 1b). Returns false if no combat follows. */
static bool stand_and_shoot(const om_wh7_prepared *p, om_dice *d, wh7_state *st, int target,
                            om_wh7_outcome *o)
{
    int charger = 1 - target;
    unsigned start = wh7_models_alive(&p->side[charger], &st->u[charger]);
    unsigned us = wh7_unit_strength(&p->side[charger], &st->u[charger]);
    o->hits[charger] =
        (uint16_t)om_wh7_fire(p, d, st, target, &p->volley[target][WH7_VOLLEY_STAND]);
    if (wh7_wiped_out(&p->side[charger], &st->u[charger])) {
        o->destroyed[charger] = 1;
        o->winner = (uint8_t)target;
        om_wh7_friends_panic(p, d, charger, us, o);
        return false;
    }
    om_wh7_casualty_panic(p, d, st, charger, start, o);
    if (o->panicked[charger]) {
        o->winner = OM_WH7_NO_CONTEST;
        return false;
    }
    return true;
}

/* What a side does on being charged or on wishing to charge, before any
 * blow (Fear; Terror; Declaring Charge Responses). Returns false if no
 * combat follows (the charge was not made, or the charged unit fled). */
static bool charge_phase(const om_wh7_prepared *p, om_dice *d, wh7_state *st, int charger,
                         om_wh7_outcome *o)
{
    int target = 1 - charger;
    om_wh7_response response = p->c.side[target].response;

    /* A Stupid charger tests at the start of its turn; failing, it cannot
     * declare a charge (Psychology > Stupidity; Immune to Psychology passes
     * Panic, Fear and Terror only). */
    if ((p->side[charger].rules & OM_WH7_RULE_STUPIDITY) &&
        !om_wh7_ld_test(d, om_wh7_leadership(p, st, charger))) {
        o->stupid[charger] = 1;
        o->winner = OM_WH7_NO_CONTEST;
        return false;
    }

    /* Wishing to charge a Fear-causer: a failed test means no charge; a
     * Terror-causer: a failed test means the would-be charger flees. */
    if (om_wh7_causes_fear(p, st, target)) {
        bool terror = om_wh7_causes_terror(p, st, target);
        if (om_wh7_fear_test(p, d, st, charger, terror)) {
            o->feared[charger] = 1;
            if (terror)
                o->fled[charger] = 1;
            o->winner = OM_WH7_NO_CONTEST;
            return false;
        }
    }
    /* Charged by a Fear- or Terror-causer: the test once in charge range. A
     * failed Terror test, or a failed Fear test by a unit of lower unit
     * strength, turns the response into a flight; a failed Fear test
     * otherwise leaves only natural 6s to hit in the first turn. */
    if (om_wh7_causes_fear(p, st, charger)) {
        bool terror = om_wh7_causes_terror(p, st, charger);
        if (om_wh7_fear_test(p, d, st, target, terror)) {
            o->feared[target] = 1;
            if (terror || wh7_unit_strength(&p->side[target], &st->u[target]) <
                              wh7_unit_strength(&p->side[charger], &st->u[charger]))
                response = OM_WH7_RESPONSE_FLEE;
            else
                st->u[target].fearful = true;
        }
    }
    if (response == OM_WH7_RESPONSE_FLEE) {
        bool caught = om_wh7_flee_from_charge(p, d, target, o);
        o->winner = caught ? (uint8_t)charger : OM_WH7_NO_CONTEST;
        return false;
    }
    if (response == OM_WH7_RESPONSE_STAND_AND_SHOOT)
        return stand_and_shoot(p, d, st, target, o);
    return true;
}

/* Side s broke or was destroyed: a friendly unit within 6" tests for panic if
 * s had unit strength 5 or more at the start of the round (Panic, cases 2
 * and 3: one test). */
void om_wh7_friends_panic(const om_wh7_prepared *p, om_dice *d, int s, unsigned us_at_start,
                       om_wh7_outcome *o)
{
    unsigned ld = p->c.side[s].friend_ld;
    if (ld > 0 && us_at_start >= WH7_US_PANIC)
        o->friend_panicked[s] = !om_wh7_ld_test(d, ld);
}

/* The loser of a round that is not wiped out: swarms and Undead take extra
 * wounds with no save, others lose Frenzy and test (Break Tests). Returns true
 * if the combat goes on. */
static bool after_loss(const om_wh7_prepared *p, om_dice *d, wh7_state *st, int loser,
                       unsigned diff, unsigned us_at_start, om_wh7_outcome *o)
{
    const wh7_side_info *si = &p->side[loser];
    if (si->rules & (OM_WH7_RULE_SWARM | OM_WH7_RULE_UNDEAD)) {
        om_wh7_unsaveable_wounds(p, st, loser, diff);
        if (wh7_wiped_out(si, &st->u[loser])) {
            o->destroyed[loser] = 1;
            om_wh7_friends_panic(p, d, loser, us_at_start, o);
            return false;
        }
        return true;
    }
    /* Frenzied troops defeated in combat lose their Frenzy before the test. */
    st->u[loser].frenzied = false;
    if (!om_wh7_break_test(p, d, st, loser, diff))
        return true;
    o->broke[loser] = 1;
    om_wh7_flee_and_pursue(p, d, st, loser, o);
    om_wh7_friends_panic(p, d, loser, us_at_start, o);
    return false;
}

void om_wh7_finish(const wh7_state *st, om_wh7_outcome *o)
{
    for (int s = 0; s < 2; s++) {
        o->wounds[s] = (uint16_t)(st->wounds[s] > 65535u ? 65535u : st->wounds[s]);
        o->slain[s] = wh7_sat8(st->slain[s]);
        o->characters_slain[s] = wh7_sat8(st->chars_slain[s]);
    }
}

void om_wh7_resolve_combat(const om_wh7_prepared *p, om_dice *d, om_wh7_outcome *o)
{
    wh7_state st;
    int charger = p->c.side[0].charging ? 0 : p->c.side[1].charging ? 1 : -1;
    int last = OM_WH7_DRAW;
    bool decided = false;

    om_wh7_state_init(p, &st);
    o->winner = OM_WH7_DRAW;
    if (charger >= 0 && !charge_phase(p, d, &st, charger, o)) {
        om_wh7_finish(&st, o);
        return;
    }
    o->charged = charger >= 0;
    for (unsigned round = 1; round <= p->max_rounds; round++) {
        const unsigned *us_start;
        wh7_round r;
        om_wh7_fight_round(p, d, &st, round, last, &r);
        us_start = r.us_start;
        o->rounds = (uint8_t)round;
        o->challenge |= r.duel;
        if (round == 1) {
            o->round1_winner = (uint8_t)r.winner;
            o->result[0] = wh7_sat8(r.result[0]);
            o->result[1] = wh7_sat8(r.result[1]);
        }
        last = r.winner;
        for (int s = 0; s < 2; s++)
            if (r.alive[s] == 0) {
                o->destroyed[s] = 1;
                om_wh7_friends_panic(p, d, s, us_start[s], o);
            }
        if (o->destroyed[0] || o->destroyed[1]) {
            decided = true;
            break;
        }
        if (r.winner == OM_WH7_DRAW)
            continue;
        if (!after_loss(p, d, &st, 1 - r.winner, r.diff, us_start[1 - r.winner], o)) {
            decided = true;
            break;
        }
    }
    /* The combat kind reports its one round's winner; the engagement the
     * side that broke or destroyed the other, or a draw when it lasted the
     * round limit. */
    o->winner = (uint8_t)(p->c.kind == OM_WH7_KIND_COMBAT ? o->round1_winner
                          : decided ? last : OM_WH7_DRAW);
    om_wh7_finish(&st, o);
}
