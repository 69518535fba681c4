/*
 * pursuit.c: fleeing and pursuing in one dimension (WHFB 7th edition, Close
 * Combat > Flee & Pursue, Remove Fleeing Units Caught, Move Surviving Fleeing
 * Troops; Movement > Flee, Caught!; Psychology > Panic). Distances are dice
 * compared with each other and with the declared gaps of the combat
 * description, never positions (README.md: digest ambiguities A8, A9).
 */
#include "wh7_int.h"

unsigned wh7_flee_roll(const om_wh7_prepared *p, om_dice *d, int s)
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
    return !wh7_ld_test(d, wh7_leadership(p, st, w));
}

/* A fleeing unit that runs `flee` inches meets what its side declared behind
 * it (non-fleeing enemy of unit strength 5+, impassable terrain, the table
 * edge) if the run reaches it: destroyed (Move Surviving Fleeing Troops). */
static bool flight_blocked(const om_wh7_prepared *p, int s, unsigned flee)
{
    unsigned at = p->c.side[s].flee_blocked_in;
    return at > 0 && flee >= at;
}

void wh7_flee_and_pursue(const om_wh7_prepared *p, om_dice *d, wh7_state *st, int loser,
                         om_wh7_outcome *o)
{
    int w = 1 - loser;
    unsigned flee = wh7_flee_roll(p, d, loser);
    bool caught = false;

    if (pursues(p, d, st, w)) {
        unsigned pursuit = wh7_flee_roll(p, d, w);
        o->pursued[w] = 1;
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

bool wh7_flee_from_charge(const om_wh7_prepared *p, om_dice *d, int s, om_wh7_outcome *o)
{
    int charger = 1 - s;
    unsigned flee = wh7_flee_roll(p, d, s);
    bool caught = (unsigned)p->c.side[s].gap_in + flee <= p->side[charger].charge_in ||
                  flight_blocked(p, s, flee);
    o->caught[s] = caught;
    o->destroyed[s] = caught;
    o->fled[s] = !caught;
    return caught;
}
