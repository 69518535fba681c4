/*
 * chain.c: one attack's dice, from the roll to hit to the last save (WHFB 7th
 * edition, Close Combat > Hitting the Enemy, Wounding the Enemy, Taking Saving
 * Throws; Shooting > Rolling to Hit, To Hit Modifiers, Ward Saves; Special
 * Rules > Poisoned Attacks, Killing Blow, Regeneration; Dice > Re-rolls).
 *
 * The same chain is read two ways: its exact probabilities (by enumerating
 * the faces of every die) feed the binomial alias tables of the fast path, and
 * om_wh7_chain_roll rolls it die by die for the plain baseline and for the
 * rules that need faces. Writing the rule once keeps the two in step.
 */
#include "wh7_int.h"

/* First requirement read as "a 6, then a second die" and the first that can
 * never hit (WHFB 7th edition, Shooting > To Hit Modifiers). */
#define WH7_HIT_SECOND_DIE 7u
#define WH7_HIT_NEVER 10u
/* The second die's score of the 7+ rule is the requirement minus this
 * (7 -> 4+, 8 -> 5+, 9 -> 6). */
#define WH7_SECOND_DIE_OFFSET 3u
/* The face that triggers poison (to hit) and killing blow (to wound). */
#define WH7_SIX 6u

/* The outcomes of the to-hit step of one die (om_wh7_hit). */
#define HIT_MISS OM_WH7_HIT_MISS
#define HIT_HIT OM_WH7_HIT_HIT
#define HIT_POISON OM_WH7_HIT_POISON

/* Whether a single face f (and, for the 7+ rule, a second die g) hits, and
 * how: a hit on a natural 6 with poison wounds automatically, unless the 7+
 * rule was needed (Poisoned Attacks). */
static unsigned hit_face(const om_wh7_chain *c, unsigned f, unsigned g)
{
    if (c->hit >= WH7_HIT_NEVER)
        return HIT_MISS;
    if (c->hit >= WH7_HIT_SECOND_DIE)
        return f == WH7_SIX && g >= c->hit - WH7_SECOND_DIE_OFFSET ? HIT_HIT : HIT_MISS;
    /* A natural 1 always misses. */
    if (f == 1u || f < c->hit)
        return HIT_MISS;
    return c->poison && f == WH7_SIX ? HIT_POISON : HIT_HIT;
}

/* Whether a to-hit result is re-rolled: misses (Hatred) or ones. A 7+ shot
 * re-rolls only its first die's miss. */
static bool hit_rerolled(const om_wh7_chain *c, unsigned f, unsigned result)
{
    if (c->reroll_hit == OM_WH7_REROLL_MISSES)
        return result == HIT_MISS;
    if (c->reroll_hit == OM_WH7_REROLL_ONES)
        return f == 1u;
    return false;
}

/* P(each to-hit result) of one roll, without re-rolls; *p_one gets the share
 * of it coming from a natural 1 (for re-rolls of ones). */
static void hit_distribution(const om_wh7_chain *c, double p[3])
{
    const double die = 1.0 / 6.0;
    p[HIT_MISS] = p[HIT_HIT] = p[HIT_POISON] = 0.0;
    if (c->hit <= 1u) {
        /* Automatic hits roll no die, so poison cannot trigger. */
        p[HIT_HIT] = 1.0;
        return;
    }
    for (unsigned f = 1; f <= 6u; f++) {
        if (c->hit >= WH7_HIT_SECOND_DIE && c->hit < WH7_HIT_NEVER && f == WH7_SIX) {
            for (unsigned g = 1; g <= 6u; g++)
                p[hit_face(c, f, g)] += die * die;
        } else {
            p[hit_face(c, f, 1u)] += die;
        }
    }
}

/* The to-hit distribution with re-rolls: a re-rolled die's result is the
 * second roll's, whatever it is. */
void om_wh7_hit_probability(const om_wh7_chain *c, double out[3])
{
    const double die = 1.0 / 6.0;
    double fresh[3];
    hit_distribution(c, fresh);
    out[HIT_MISS] = out[HIT_HIT] = out[HIT_POISON] = 0.0;
    if (c->hit <= 1u || c->reroll_hit == OM_WH7_REROLL_NONE) {
        for (unsigned k = 0; k < 3u; k++)
            out[k] = fresh[k];
        return;
    }
    for (unsigned f = 1; f <= 6u; f++) {
        if (c->hit >= WH7_HIT_SECOND_DIE && c->hit < WH7_HIT_NEVER && f == WH7_SIX) {
            for (unsigned g = 1; g <= 6u; g++) {
                unsigned r = hit_face(c, f, g);
                if (hit_rerolled(c, f, r))
                    for (unsigned k = 0; k < 3u; k++)
                        out[k] += die * die * fresh[k];
                else
                    out[r] += die * die;
            }
            continue;
        }
        unsigned r = hit_face(c, f, 1u);
        if (hit_rerolled(c, f, r))
            for (unsigned k = 0; k < 3u; k++)
                out[k] += die * fresh[k];
        else
            out[r] += die;
    }
}

/* P(wound by a plain success) and P(wound by a natural 6 that is a killing
 * blow), with a re-roll of ones to wound. */
static void wound_probabilities(const om_wh7_chain *c, double *p_plain, double *p_kb)
{
    const double die = 1.0 / 6.0;
    double plain = 0.0, kb = 0.0;
    if (c->wound <= 1u) {
        *p_plain = 1.0;
        *p_kb = 0.0;
        return;
    }
    if (c->wound >= OM_WH7_NEVER) {
        *p_plain = *p_kb = 0.0;
        return;
    }
    for (unsigned f = 2; f <= 6u; f++) {
        if (f < c->wound)
            continue;
        if (c->killing_blow && f == WH7_SIX)
            kb += die;
        else
            plain += die;
    }
    if (c->reroll_wound == OM_WH7_REROLL_ONES) {
        /* A 1 is rolled again: the same distribution once more. */
        double again = 1.0 + die;
        plain *= again;
        kb *= again;
    }
    *p_plain = plain;
    *p_kb = kb;
}

void om_wh7_chain_probability(const om_wh7_chain *c, double *p_wound, double *p_slay)
{
    double hit[3], w_plain, w_kb;
    double unsaved = (1.0 - om_wh7_p_at_least(c->armour)) * (1.0 - om_wh7_p_at_least(c->ward)) *
                     (1.0 - om_wh7_p_at_least(c->regen));
    double ward_fails = 1.0 - om_wh7_p_at_least(c->ward);

    om_wh7_hit_probability(c, hit);
    wound_probabilities(c, &w_plain, &w_kb);
    /* A poisoned hit wounds without a wound roll, so it is never a killing
     * blow; armour, ward and regeneration are then taken normally. */
    *p_wound = (hit[HIT_POISON] + hit[HIT_HIT] * w_plain) * unsaved;
    /* A killing blow allows no armour and no regeneration, only a ward. */
    *p_slay = hit[HIT_HIT] * w_kb * ward_fails;
}

om_wh7_hit om_wh7_hit_roll(om_dice *d, const om_wh7_chain *c)
{
    unsigned f, g = 1u, r;
    if (c->hit <= 1u)
        return HIT_HIT;
    for (unsigned attempt = 0;; attempt++) {
        f = om_dice_roll_d6(d);
        if (c->hit >= WH7_HIT_SECOND_DIE && c->hit < WH7_HIT_NEVER && f == WH7_SIX)
            g = om_dice_roll_d6(d);
        r = hit_face(c, f, g);
        if (attempt > 0 || !hit_rerolled(c, f, r))
            return (om_wh7_hit)r;
    }
}

/* One save die: whether it saves at score `need` (7: no save, no die). */
static bool roll_save(om_dice *d, unsigned need)
{
    return need < OM_WH7_NEVER && om_dice_roll_d6(d) >= need;
}

om_wh7_blow om_wh7_chain_roll(om_dice *d, const om_wh7_chain *c)
{
    unsigned hit = om_wh7_hit_roll(d, c);
    bool slay = false;

    if (hit == HIT_MISS)
        return OM_WH7_BLOW_NONE;
    if (hit == HIT_HIT && c->wound > 1u) {
        unsigned f;
        if (c->wound >= OM_WH7_NEVER)
            return OM_WH7_BLOW_NONE;
        f = om_dice_roll_d6(d);
        if (f == 1u && c->reroll_wound == OM_WH7_REROLL_ONES)
            f = om_dice_roll_d6(d);
        if (f == 1u || f < c->wound)
            return OM_WH7_BLOW_NONE;
        slay = c->killing_blow && f == WH7_SIX;
    }
    if (slay)
        return roll_save(d, c->ward) ? OM_WH7_BLOW_NONE : OM_WH7_BLOW_SLAY;
    if (roll_save(d, c->armour) || roll_save(d, c->ward) || roll_save(d, c->regen))
        return OM_WH7_BLOW_NONE;
    return OM_WH7_BLOW_WOUND;
}
