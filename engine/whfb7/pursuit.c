/*
 * pursuit.c: fleeing and pursuing in one dimension (WHFB 7th edition, Close
 * Combat > Flee & Pursue, Remove Fleeing Units Caught, Move Surviving Fleeing
 * Troops; Movement > Flee, Caught!; Psychology > Panic). Distances are dice
 * compared with each other and with the declared gaps of the combat
 * description, never positions (README.md: digest ambiguities A8, A9).
 */
#include "wh7_int.h"

unsigned om_wh7_flee_roll(const om_wh7_prepared *p, om_dice *d, int s)
{
    unsigned roll = om_dice_roll_sum(d, p->side[s].flee_dice, NULL);
    /* Mistress of the Marsh: the roll is halved, rounded up (the rulebook's
     * rounding of distances, README.md). */
    return p->c.side[s].mods.halve_flee ? (roll + 1u) / 2u : roll;
}

/* Whether the winner w pursues (Declare Pursuit Intentions): it must unless
 * it tries to restrain; restraint is a Leadership test, automatic when it
 * defends an obstacle, impossible with Frenzy (while frenzied) or Hatred, its
 * characters' included. */
static bool pursues(const om_wh7_prepared *p, om_dice *d, const wh7_state *st, int w)
{
    const om_wh7_side *me = &p->c.side[w];
    bool must = st->u[w].frenzied || (p->side[w].rules & OM_WH7_RULE_HATRED);
    if (me->pursue == OM_WH7_PURSUE_ALWAYS || must)
        return true;
    if (me->defended_obstacle)
        return false;
    return !om_wh7_ld_test(d, om_wh7_leadership(p, st, w));
}

/* A fleeing unit that runs `flee` inches meets what its side declared behind
 * it (non-fleeing enemy of unit strength 5+, impassable terrain, the table
 * edge) if the run reaches it: destroyed (Move Surviving Fleeing Troops). */
static bool flight_blocked(const om_wh7_prepared *p, int s, unsigned flee)
{
    unsigned at = p->c.side[s].flee_blocked_in;
    return at > 0 && flee >= at;
}

/* Totals of a flee or pursuit roll: up to 3D6. */
#define WH7_ROLL_TOTALS 19u

/* P(a roll of n D6, halved rounded up if `half`, equals each total) into
 * pmf[0..18]. */
static void roll_pmf(unsigned n, bool half, double pmf[WH7_ROLL_TOTALS])
{
    unsigned combos = 1;
    for (unsigned t = 0; t < WH7_ROLL_TOTALS; t++)
        pmf[t] = 0;
    for (unsigned i = 0; i < n; i++)
        combos *= 6u;
    for (unsigned code = 0; code < combos; code++) {
        unsigned x = code, sum = 0;
        for (unsigned i = 0; i < n; i++) {
            sum += x % 6u + 1u;
            x /= 6u;
        }
        pmf[half ? (sum + 1u) / 2u : sum] += 1.0 / combos;
    }
}

void om_wh7_pursuit_prepare(om_wh7_prepared *p, int s)
{
    wh7_side_info *si = &p->side[s];
    double flee[WH7_ROLL_TOTALS], chase[WH7_ROLL_TOTALS], caught = 0, blocked = 0;
    unsigned at = p->c.side[s].flee_blocked_in;
    roll_pmf(si->flee_dice, p->c.side[s].mods.halve_flee, flee);
    roll_pmf(p->side[1 - s].flee_dice, p->c.side[1 - s].mods.halve_flee, chase);
    for (unsigned f = 0; f < WH7_ROLL_TOTALS; f++) {
        double reach = 0;
        for (unsigned q = f; q < WH7_ROLL_TOTALS; q++)
            reach += chase[q];
        caught += flee[f] * reach;
        if (at > 0 && f >= at)
            blocked += flee[f] * (1 - reach);
    }
    si->fate[1] = caught + blocked;
    si->fate32[1] = (uint64_t)(si->fate[1] * (double)WH7_P32_ONE + 0.5);
    blocked = 0;
    for (unsigned f = 0; f < WH7_ROLL_TOTALS; f++)
        if (at > 0 && f >= at)
            blocked += flee[f];
    si->fate[0] = blocked;
    si->fate32[0] = (uint64_t)(blocked * (double)WH7_P32_ONE + 0.5);
}

void om_wh7_flee_and_pursue(const om_wh7_prepared *p, om_dice *d, wh7_state *st, int loser,
                         om_wh7_outcome *o)
{
    int w = 1 - loser;
    unsigned flee;
    bool caught = false, chased = pursues(p, d, st, w);
    om_enum *e;

    o->pursued[w] = chased;
    /* Fast dice: the exact probability of being caught or blocked decides
     * with one draw; enumerated, the same two outcomes (exact.h). */
    if (d->plain == NULL || (e = om_enum_of(d)) != NULL) {
        caught = d->plain == NULL ? wh7_chance(&d->rng, p->side[loser].fate32[chased])
                                  : om_enum_chance(e, p->side[loser].fate[chased]);
        o->caught[loser] = caught;
        o->destroyed[loser] = caught;
        o->fled[loser] = !caught;
        return;
    }
    flee = om_wh7_flee_roll(p, d, loser);
    if (chased) {
        unsigned pursuit = om_wh7_flee_roll(p, d, w);
        /* A pursuit roll equal to or greater than the flee roll destroys the
         * fleeing unit (Remove Fleeing Units Caught; digest A9). */
        caught = pursuit >= flee;
    }
    if (!caught)
        caught = flight_blocked(p, loser, flee);
    o->caught[loser] = caught;
    o->destroyed[loser] = caught;
    o->fled[loser] = !caught;
}

bool om_wh7_flee_from_charge(const om_wh7_prepared *p, om_dice *d, int s, om_wh7_outcome *o)
{
    int charger = 1 - s;
    unsigned flee = om_wh7_flee_roll(p, d, s);
    bool caught = (unsigned)p->c.side[s].gap_in + flee <= p->side[charger].charge_in ||
                  flight_blocked(p, s, flee);
    o->caught[s] = caught;
    o->destroyed[s] = caught;
    o->fled[s] = !caught;
    return caught;
}
