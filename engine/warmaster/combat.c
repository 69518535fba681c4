/*
 * combat.c: the Combat phase of the Warmaster family (digest warmaster.md
 * section 6): attack dice with their modifiers, hits against armour, the combat
 * result with supports and the cap on counted hits, casualties, the winner, the
 * loser's retreat (blocked, off the table, into friends), the winner's pursuit
 * with its bonus, further rounds, and unresolved combats carried into the next
 * turn, until the engagement ends. Shooting before contact comes first: a volley
 * in the charged side's previous turn (5.5) and shooting at chargers (5.7).
 *
 * The hot path has no division: stand losses come from per-side tables built
 * when the engagement is prepared (lost_at, left_at).
 */
#include "wm.h"
#include "wm_int.h"

/* Turns an unresolved engagement may last when the options do not say: long
 * enough that no simulated fight in the tests reaches it (an unresolved fight
 * needs a pursuing winner every second round). */
#define OM_WM_DEFAULT_MAX_TURNS 10u

static unsigned floor0(int v) { return v > 0 ? (unsigned)v : 0u; }

/* The dice of a side whose stands all attack at `per_stand`, `flanked` of them
 * at one less, with a character's bonus on the best stand (A39), each stand
 * floored at 0 (A4), and the last-ditch die (A3, option last_ditch_per_stand). */
static unsigned stand_dice(int per_stand, unsigned fighting, unsigned flanked, unsigned bonus,
                           bool per_stand_last_ditch)
{
    unsigned plain = fighting - flanked, total;
    if (fighting == 0)
        return 0;
    total = plain * floor0(per_stand) + flanked * floor0(per_stand - 1);
    if (bonus > 0) {
        int base = plain > 0 ? per_stand : per_stand - 1;
        total += floor0(base + (int)bonus) - floor0(base);
    }
    if (per_stand_last_ditch) {
        /* Reading B of A3: every stand reduced to 0 still rolls one die. */
        unsigned zero = (per_stand <= 0 ? plain : 0u) + (per_stand - 1 <= 0 ? flanked : 0u);
        if (bonus > 0 && zero > 0 && (plain > 0 ? per_stand : per_stand - 1) + (int)bonus > 0)
            zero--;
        return total + zero;
    }
    /* "A unit always rolls one Attack dice regardless" (A3 reading A). */
    return total > 0 ? total : 1u;
}

unsigned om_wm_attack_dice(const om_wm_ruleset *r, const om_wm_side *me, const om_wm_side *foe,
                           unsigned fighting, unsigned flanked, unsigned round)
{
    int per_stand = me->unit.attacks;
    assert(flanked <= fighting);
    /* Charge bonus: first round only, not against a defended or fortified enemy;
     * monsters and chariots get +1 more in the rule sets that say so (6.4). */
    if (round == 1 && me->charging && foe->position == OM_WM_OPEN)
        per_stand += r->charge_bonus[me->unit.troop];
    /* Terror does not affect a unit that is itself terrifying (6.4). */
    if ((foe->unit.rules & OM_WM_RULE_TERROR) && !(me->unit.rules & OM_WM_RULE_TERROR))
        per_stand -= 1;
    if (me->confused)
        per_stand -= 1;
    return stand_dice(per_stand, fighting, flanked, me->attack_bonus, false);
}

unsigned om_wm_retreat_cm(unsigned winner_result, unsigned loser_result, unsigned losing_units)
{
    unsigned diff = winner_result > loser_result ? winner_result - loser_result : 0u;
    unsigned cm;
    assert(losing_units > 0);
    cm = losing_units == 1 ? diff : (diff + losing_units - 1) / losing_units; /* halves up */
    return cm > 0 ? cm : 1u;
}

unsigned om_wm_pursuit_bonus(unsigned retreat_cm) { return 1u + retreat_cm / 3u; }

/* The state of one trial's fight. */
typedef struct fight {
    unsigned stands[2];    /* stands left */
    unsigned carried[2];   /* hits carried (fewer than Hits) */
    unsigned behind_cm[2]; /* distance left to what is behind each unit */
    unsigned pursuit[2];   /* pursuit bonus per stand in the coming round (0: none) */
    unsigned shot[2];      /* hits a side scored by shooting, counted in round 1 (5.7) */
    bool confused[2];      /* confused now */
    bool in_open[2];       /* lost its defended/fortified position (6.15, A8) */
} fight;

/* Record `hits` on side t: remove stands through the prepared tables (5.4, 6.5). */
static unsigned take_hits(const om_wm_prepared *p, fight *f, int t, unsigned hits)
{
    unsigned h = f->carried[t] + hits, lost;
    if (h > 255u)
        h = 255u; /* beyond any unit's capacity (12 stands x 12 Hits = 144) */
    lost = p->lost_at[t][h];
    if (lost >= f->stands[t]) {
        lost = f->stands[t];
        f->stands[t] = 0;
        f->carried[t] = 0;
        return lost;
    }
    f->stands[t] -= lost;
    f->carried[t] = p->left_at[t][h];
    return lost;
}

/* Supporting stands counted for side s (6.7, D5): infantry only (checked); none
 * from the unit itself while it is confused (7.2); with supports counted after
 * casualties (WM11), own rear stands are lost first when the unit loses stands,
 * since casualties come off the edge of the formation, where those stands are. */
static unsigned supports_counted(const om_wm_prepared *p, const fight *f, int s, unsigned lost)
{
    const om_wm_side *me = &p->e.side[s];
    if (me->supports == 0)
        return 0;
    if (me->support_units == 0 && f->confused[s])
        return 0;
    if (!p->e.rules->supports_after_casualties || me->support_units > 0)
        return me->supports;
    return me->supports > lost ? me->supports - lost : 0u;
}

static unsigned compute_dice(const om_wm_prepared *p, const fight *f, int s, unsigned round);

/* The attack dice of side s in `round` of the engagement, from the fight state
 * (6.4). Round 1 is looked up in the table om_wm_combat_prepare made with this
 * same function, since before round 1 only the stands left can vary. */
static unsigned round_dice(const om_wm_prepared *p, const fight *f, int s, unsigned round)
{
    if (round == 1)
        return p->round1_dice[s][f->stands[s]];
    return compute_dice(p, f, s, round);
}

/* The attack dice of side s in `round`, computed from the modifiers. */
static unsigned compute_dice(const om_wm_prepared *p, const fight *f, int s, unsigned round)
{
    const om_wm_engagement *e = &p->e;
    const om_wm_side *me = &e->side[s], *foe = &e->side[1 - s];
    unsigned fighting = me->fighting < f->stands[s] ? me->fighting : f->stands[s];
    /* Flank and rear contacts are those of the charge: after a retreat the
     * pursuers are placed to the retreaters' front (6.11), so later rounds are
     * fought frontally. */
    unsigned flanked = round == 1 ? (me->flanked < fighting ? me->flanked : fighting) : 0u;
    int per_stand = me->unit.attacks;
    if (round == 1 && me->charging && foe->position == OM_WM_OPEN)
        per_stand += e->rules->charge_bonus[me->unit.troop];
    per_stand += (int)f->pursuit[s];
    if ((foe->unit.rules & OM_WM_RULE_TERROR) && !(me->unit.rules & OM_WM_RULE_TERROR))
        per_stand -= 1;
    if (f->confused[s])
        per_stand -= 1;
    return stand_dice(per_stand, fighting, flanked, me->attack_bonus,
                      e->options.last_ditch_per_stand);
}

/*
 * One combat round (6.5-6.6): both sides strike, hits are counted up to what the
 * target could absorb (A21), supports added, casualties removed. Returns the
 * winner and stores the results.
 */
static int fight_round(const om_wm_prepared *p, om_dice *d, fight *f, unsigned round,
                       unsigned result[2], unsigned hits_on[2])
{
    const om_wm_engagement *e = &p->e;
    unsigned hits[2], counted[2], lost[2];
    for (int s = 0; s < 2; s++) {
        int t = 1 - s;
        unsigned dice = round_dice(p, f, s, round);
        hits[s] = om_dice_hits(d, &p->melee[s][f->in_open[t]], dice);
    }
    for (int s = 0; s < 2; s++) {
        int t = 1 - s;
        unsigned capacity = f->stands[t] * e->side[t].unit.hits;
        if (!e->options.result_cap_ignores_carried)
            capacity -= f->carried[t];
        counted[s] = hits[s] < capacity ? hits[s] : capacity;
        hits_on[t] += hits[s];
    }
    /* Casualties at the end of the round (6.5 step 5); the removal order
     * (loser first) does not change the numbers of a two-unit engagement. */
    for (int t = 0; t < 2; t++)
        lost[t] = take_hits(p, f, t, hits[1 - t]);
    for (int s = 0; s < 2; s++)
        result[s] = counted[s] + (round == 1 ? f->shot[s] : 0u) +
                    supports_counted(p, f, s, lost[s]);
    /* A side wiped out loses automatically; both wiped out is a draw (6.6, A18). */
    if (f->stands[0] == 0 || f->stands[1] == 0)
        return f->stands[0] == f->stands[1] ? OM_WM_DRAW
               : f->stands[0] == 0           ? OM_WM_SIDE_B
                                             : OM_WM_SIDE_A;
    if (result[0] == result[1])
        return OM_WM_DRAW;
    return result[0] > result[1] ? OM_WM_SIDE_A : OM_WM_SIDE_B;
}

/*
 * The loser l retreats `cm` (6.9) into what lies behind it once the distance
 * left behind runs out: blocked stands are destroyed without reducing the hits
 * carried, a unit leaving the table is destroyed, friends make way at the risk
 * of confusion. Artillery forced to retreat is destroyed.
 */
static void retreat(const om_wm_prepared *p, om_dice *d, fight *f, int l, unsigned cm)
{
    const om_wm_side *me = &p->e.side[l];
    if (me->unit.troop == OM_WM_ARTILLERY) { /* destroyed if forced to retreat (6.9) */
        f->stands[l] = 0;
        return;
    }
    if (me->behind != OM_WM_BEHIND_OPEN && cm > f->behind_cm[l]) {
        switch (me->behind) {
        case OM_WM_BEHIND_TABLE_EDGE: /* leaving by a combat retreat destroys (3.8) */
            f->stands[l] = 0;
            break;
        case OM_WM_BEHIND_FRIENDS:    /* they make way; the retreater tests once (7.1 #6) */
            if (om_dice_roll_d6(d) == 6)
                f->confused[l] = true;
            break;
        default: {                    /* blocked stands are destroyed, hits kept (6.9) */
            unsigned blocked = me->behind_stands < f->stands[l] ? me->behind_stands
                                                                : f->stands[l];
            f->stands[l] -= blocked;
            if (f->stands[l] == 0)
                f->carried[l] = 0;
            f->behind_cm[l] = 0;
            return;
        }
        }
        f->behind_cm[l] = 0;
        return;
    }
    f->behind_cm[l] -= cm < f->behind_cm[l] ? cm : f->behind_cm[l];
}

/* May w pursue l (6.11)? Artillery and fortified units never pursue; infantry
 * never pursues cavalry or chariots (A6 reading A, option). */
static bool may_pursue(const om_wm_prepared *p, const fight *f, int w, int l)
{
    const om_wm_engagement *e = &p->e;
    const om_wm_side *me = &e->side[w];
    om_wm_troop foe = e->side[l].unit.troop;
    if (me->unit.troop == OM_WM_ARTILLERY)
        return false;
    if (me->position == OM_WM_FORTIFIED && !f->in_open[w])
        return false;
    if (me->unit.troop == OM_WM_INFANTRY && (foe == OM_WM_CAVALRY || foe == OM_WM_CHARIOT) &&
        !e->options.infantry_pursues_cavalry)
        return false;
    switch (me->pursue) {
    case OM_WM_PURSUE_NEVER: return false;
    case OM_WM_PURSUE_WHEN_AHEAD: return f->stands[w] >= f->stands[l];
    case OM_WM_PURSUE_ALWAYS: break;
    }
    return true;
}

/* Shooting before contact. Returns false if no charge happens after it. */
static bool shoot_before_contact(const om_wm_prepared *p, om_dice *d, fight *f, int c,
                                 om_wm_outcome *o)
{
    const om_wm_engagement *e = &p->e;
    int s = 1 - c;
    /* A volley in the charged side's own previous turn (5.5): a charger
     * confused then stays confused through its own Command phase (7.2) and
     * cannot be ordered to charge; a rout removes it. Odd hits go (5.6). */
    if (e->side[s].shoots_first) {
        om_wm_volley_result v;
        om_wm_volley_at(p, d, s, f->stands[c], &v);
        o->shot_hits_on[c] = om_wm_sat8(v.hits);
        o->hits_on[c] = om_wm_sat8(v.hits);
        o->drive_back_cm = om_wm_sat8(v.drive_back_cm);
        o->routed[c] = v.routed;
        f->stands[c] -= v.stands_lost;
        if (v.routed)
            f->stands[c] = 0;
        if (f->stands[c] == 0 || v.confused) {
            o->confused[c] = v.confused && f->stands[c] > 0;
            return false;
        }
    }
    /* Shooting at chargers (5.7): stands lost are removed at once and do not
     * fight; every hit counts for the shooting side in round 1 (W7). */
    if (e->side[s].stand_and_shoot) {
        f->shot[s] = om_wm_shoot(p, d, s);
        o->shot_hits_on[c] = om_wm_sat8(o->shot_hits_on[c] + f->shot[s]);
        o->hits_on[c] = om_wm_sat8(o->hits_on[c] + f->shot[s]);
        (void)take_hits(p, f, c, f->shot[s]);
    }
    return true;
}

/* Initial fight state of an engagement. */
static void fight_start(const om_wm_engagement *e, fight *f)
{
    for (int s = 0; s < 2; s++) {
        f->stands[s] = e->side[s].unit.stands;
        f->carried[s] = 0;
        f->behind_cm[s] = e->side[s].behind_cm;
        f->pursuit[s] = 0;
        f->shot[s] = 0;
        f->confused[s] = e->side[s].confused;
        f->in_open[s] = e->side[s].position == OM_WM_OPEN;
    }
}

void om_wm_combat_prepare(om_wm_prepared *p)
{
    fight f;
    _Static_assert(sizeof p->round1_dice[0] > 12, "one entry per possible stand count");
    fight_start(&p->e, &f);
    for (int s = 0; s < 2; s++) {
        for (unsigned k = 0; k <= p->e.side[s].unit.stands; k++) {
            unsigned dice;
            f.stands[s] = k;
            dice = compute_dice(p, &f, s, 1);
            p->round1_dice[s][k] = (uint8_t)(dice > 255u ? 255u : dice);
        }
        f.stands[s] = p->e.side[s].unit.stands;
    }
}

void om_wm_combat(const om_wm_prepared *p, om_dice *d, om_wm_outcome *o)
{
    const om_wm_engagement *e = &p->e;
    const bool whole = e->kind == OM_WM_KIND_ENGAGEMENT;
    const unsigned max_turns = e->options.max_turns ? e->options.max_turns
                                                    : OM_WM_DEFAULT_MAX_TURNS;
    int charger = e->side[0].charging ? 0 : e->side[1].charging ? 1 : -1;
    unsigned hits_on[2] = {0, 0}, result[2], round = 0, phase_round = 0, turn = 1;
    int winner = OM_WM_NO_CONTEST;
    fight f;

    fight_start(e, &f);
    if (charger >= 0 && !shoot_before_contact(p, d, &f, charger, o)) {
        /* No contact: a shot-down charge is won by the shooters (6.6). */
        winner = f.stands[charger] == 0 ? 1 - charger : OM_WM_NO_CONTEST;
        o->winner = o->round1_winner = (uint8_t)winner;
        o->result[1 - charger] = om_wm_sat8(f.shot[1 - charger]);
        goto done;
    }
    o->charged = charger >= 0;
    hits_on[0] = o->hits_on[0];
    hits_on[1] = o->hits_on[1];

    for (;;) {
        int l;
        unsigned cm;
        round++;
        phase_round++;
        winner = fight_round(p, d, &f, round, result, hits_on);
        if (round == 1) {
            o->round1_winner = (uint8_t)winner;
            o->result[0] = om_wm_sat8(result[0]);
            o->result[1] = om_wm_sat8(result[1]);
        }
        /* A draw: both fall back and the combat ends (6.8). */
        if (winner == OM_WM_DRAW)
            break;
        l = 1 - winner;
        if (f.stands[l] == 0)
            break;
        /* The loser retreats by the difference divided among the losing side's
         * units (6.9): REV counts supporting units, WM11 only units in contact. */
        cm = om_wm_retreat_cm(result[winner], result[l],
                              1u + (e->rules->retreat_divisor_engaged_only
                                        ? 0u : e->side[l].support_units));
        if (round == 1)
            o->retreat_cm = om_wm_sat8(cm);
        o->retreated_cm[l] = om_wm_sat8(o->retreated_cm[l] + cm);
        retreat(p, d, &f, l, cm);
        if (f.stands[l] == 0 || !whole)
            break;
        /* A unit that retreated has lost its position for good (6.15, A8). */
        if (!e->options.defended_after_retreat)
            f.in_open[l] = true;
        if (!may_pursue(p, &f, winner, l))
            break;
        f.pursuit[winner] = om_wm_pursuit_bonus(cm);
        f.pursuit[l] = 0;
        /* Win round 2 of a phase and pursue: the combat is unresolved and goes
         * on in the next turn, the opponent's (6.11, 6.14). Confusion ends at
         * the end of the unit's own Command phase (7.2). */
        if (phase_round == 2) {
            int active;
            if (turn >= max_turns) {
                winner = OM_WM_NO_CONTEST;
                break;
            }
            turn++;
            phase_round = 0;
            /* Turn 1 is the charger's (side A's without a charge); turns alternate. */
            active = (charger == 1) == ((turn & 1u) == 1u) ? 1 : 0;
            f.confused[active] = false;
        }
    }
    o->winner = (uint8_t)winner;
    for (int s = 0; s < 2; s++)
        o->hits_on[s] = om_wm_sat8(hits_on[s]);
done:
    o->rounds = (uint8_t)round;
    o->turns = (uint8_t)turn;
    for (int s = 0; s < 2; s++) {
        o->stands_lost[s] = (uint8_t)(e->side[s].unit.stands - f.stands[s]);
        o->destroyed[s] = f.stands[s] == 0;
        if (o->confused[s] == 0)
            o->confused[s] = f.confused[s] && f.stands[s] > 0;
    }
}
