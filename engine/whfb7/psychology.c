/*
 * psychology.c: Leadership and the tests built on it (WHFB 7th edition,
 * Characteristics > Leadership Tests; Psychology: Panic, Fear, Terror,
 * Frenzy, Immune to Psychology, Stubborn, Unbreakable; Close Combat > Break
 * Tests, Insane Courage!; Characters > Psychology; Generals & Battle
 * Standards). Every test rolls 2D6 through the dice source.
 */
#include "wh7_int.h"

/* The 2D6 total that is a natural double 1 (Insane Courage!). */
#define WH7_DOUBLE_ONE 2u

/* P(2D6 <= ld), counted over the 36 rolls. */
static double two_dice_at_most(unsigned ld)
{
    unsigned ways = 0;
    for (unsigned a = 1; a <= 6u; a++)
        for (unsigned b = 1; b <= 6u; b++)
            ways += a + b <= ld;
    return ways / 36.0;
}

bool om_wh7_ld_test(om_dice *d, unsigned ld)
{
    om_enum *e = om_enum_of(d);
    /* Enumerated: passed or failed, P(2D6 <= ld), rather than the 11 totals. */
    if (e != NULL)
        return om_enum_chance(e, two_dice_at_most(ld));
    return om_dice_roll_sum(d, 2, NULL) <= ld;
}

unsigned om_wh7_leadership(const om_wh7_prepared *p, const wh7_state *st, int s)
{
    const om_wh7_side *me = &p->c.side[s];
    const wh7_unit_state *u = &st->u[s];
    unsigned ld = me->general_ld;
    if ((u->rf > 0 || u->champ_w > 0) && me->unit.profile.ld > ld)
        ld = me->unit.profile.ld;
    for (unsigned i = 0; i < me->unit.characters; i++)
        if (u->char_w[i] > 0 && me->unit.character[i].profile.ld > ld)
            ld = me->unit.character[i].profile.ld;
    /* Doom & Darkness: Leadership tests at -3, not for units immune to
     * psychology. */
    if (me->mods.leadership != 0 && !om_wh7_psychology_immune(p, st, s)) {
        int v = (int)ld + me->mods.leadership;
        ld = v < 0 ? 0u : (unsigned)v;
    }
    return ld;
}

/* The Leadership a Stubborn unit breaks on unmodified: its own if it is
 * Stubborn, a living Stubborn character's (Characters > Psychology >
 * Stubborn); 0 if none. */
static unsigned stubborn_leadership(const om_wh7_prepared *p, const wh7_state *st, int s)
{
    const om_wh7_unit *un = &p->c.side[s].unit;
    const wh7_unit_state *u = &st->u[s];
    unsigned ld = 0;
    if ((un->traits.rules | un->mount.traits.rules) & OM_WH7_RULE_STUBBORN &&
        (u->rf > 0 || u->champ_w > 0))
        ld = un->profile.ld;
    for (unsigned i = 0; i < un->characters; i++) {
        const om_wh7_character *h = &un->character[i];
        if (u->char_w[i] > 0 && ((h->traits.rules | h->mount.traits.rules) & OM_WH7_RULE_STUBBORN) &&
            h->profile.ld > ld)
            ld = h->profile.ld;
    }
    return ld;
}

bool om_wh7_psychology_immune(const om_wh7_prepared *p, const wh7_state *st, int s)
{
    /* The unit's own rules decide: an immune character joining a unit that
     * is not loses his immunity, a character joining an immune unit gains it
     * (Characters > Psychology > Immune to Psychology); Frenzy gives it while
     * the rank and file are frenzied. */
    om_wh7_rules r = p->side[s].unit_rules;
    if (p->c.side[s].unit.models == 0)
        r = p->side[s].rules;
    return (r & (OM_WH7_RULE_ITP | OM_WH7_RULE_UNBREAKABLE | OM_WH7_RULE_UNDEAD)) ||
           (st->u[s].frenzied && (r & OM_WH7_RULE_FRENZY));
}

/* Whether the models of side s that fight cause `what` (Fear or Terror): the
 * rank and file (or champion) while any are left, else a living character. */
static bool unit_causes(const om_wh7_prepared *p, const wh7_state *st, int s, om_wh7_rules what)
{
    const om_wh7_unit *un = &p->c.side[s].unit;
    const wh7_unit_state *u = &st->u[s];
    if (u->rf > 0 || u->champ_w > 0 || un->characters == 0)
        return ((un->traits.rules | un->mount.traits.rules) & what) != 0;
    for (unsigned i = 0; i < un->characters; i++)
        if (u->char_w[i] > 0 &&
            ((un->character[i].traits.rules | un->character[i].mount.traits.rules) & what))
            return true;
    return false;
}

bool om_wh7_causes_terror(const om_wh7_prepared *p, const wh7_state *st, int s)
{
    return unit_causes(p, st, s, OM_WH7_RULE_TERROR);
}

bool om_wh7_causes_fear(const om_wh7_prepared *p, const wh7_state *st, int s)
{
    return unit_causes(p, st, s, OM_WH7_RULE_FEAR | OM_WH7_RULE_TERROR);
}

bool om_wh7_panic_test(const om_wh7_prepared *p, om_dice *d, const wh7_state *st, int s)
{
    if (om_wh7_psychology_immune(p, st, s))
        return false;
    return !om_wh7_ld_test(d, om_wh7_leadership(p, st, s));
}

bool om_wh7_fear_test(const om_wh7_prepared *p, om_dice *d, const wh7_state *st, int s, bool terror)
{
    /* A Fear-causer ignores Fear and takes Terror as Fear; a Terror-causer
     * ignores both; so does anything immune to psychology. A unit led by a
     * Fear- or Terror-causing character shares his immunity. */
    om_wh7_rules all = p->side[s].rules;
    if (om_wh7_psychology_immune(p, st, s) || (all & OM_WH7_RULE_TERROR))
        return false;
    if (!terror && (all & OM_WH7_RULE_FEAR))
        return false;
    return !om_wh7_ld_test(d, om_wh7_leadership(p, st, s));
}

/* Whether the loser fails its break test automatically (Defeated by
 * Fear-causing Enemy; digest A11): it fears the winner (it neither causes
 * Fear nor is immune to psychology) and its unit strength is below the
 * winner's. */
static bool fear_auto_break(const om_wh7_prepared *p, const wh7_state *st, int loser)
{
    int winner = 1 - loser;
    if (om_wh7_psychology_immune(p, st, loser) ||
        (p->side[loser].rules & (OM_WH7_RULE_FEAR | OM_WH7_RULE_TERROR)))
        return false;
    if (!om_wh7_causes_fear(p, st, winner))
        return false;
    return wh7_unit_strength(&p->side[loser], &st->u[loser]) <
           wh7_unit_strength(&p->side[winner], &st->u[winner]);
}

bool om_wh7_break_holds(unsigned roll, unsigned ld, unsigned diff, unsigned stubborn_ld,
                        bool automatic)
{
    /* Insane Courage: a natural double 1 always holds, even an automatic
     * break. Stubborn: hold on the unmodified Leadership, or on the best
     * Leadership minus the difference if that is better. */
    if (roll == WH7_DOUBLE_ONE)
        return true;
    return !automatic && (roll + diff <= ld || roll <= stubborn_ld);
}

double om_wh7_break_pass_probability(unsigned ld, unsigned diff, unsigned stubborn_ld,
                                     bool automatic, bool reroll)
{
    unsigned ways = 0;
    double p;
    for (unsigned a = 1; a <= 6u; a++)
        for (unsigned b = 1; b <= 6u; b++)
            ways += om_wh7_break_holds(a + b, ld, diff, stubborn_ld, automatic);
    p = ways / 36.0;
    return reroll ? p + (1.0 - p) * p : p;
}

/* Whether side s re-rolls failed break tests now: the Battle Standard Bearer
 * fights in it alive, or stands within 12" (Generals & Battle Standards). */
static bool bsb_reroll(const om_wh7_prepared *p, const wh7_state *st, int s)
{
    const om_wh7_side *me = &p->c.side[s];
    if (me->battle_standard_near)
        return true;
    for (unsigned i = 0; i < me->unit.characters; i++)
        if (me->unit.character[i].battle_standard && st->u[s].char_w[i] > 0)
            return true;
    return false;
}

void om_wh7_psychology_prepare(om_wh7_prepared *p, int s)
{
    wh7_side_info *si = &p->side[s];
    for (unsigned a = 0; a < 2; a++)
        for (unsigned r = 0; r < 2; r++)
            for (unsigned diff = 0; diff < WH7_DIFFS; diff++) {
                double hold = om_wh7_break_pass_probability(si->ld, diff, si->stubborn_ld, a, r);
                si->hold32[a][r][diff] = (uint64_t)(hold * (double)WH7_P32_ONE + 0.5);
            }
}

bool om_wh7_break_test(const om_wh7_prepared *p, om_dice *d, const wh7_state *st, int loser,
                    unsigned diff)
{
    const wh7_side_info *si = &p->side[loser];
    unsigned ld, stubborn;
    bool automatic, reroll;

    if (si->rules & (OM_WH7_RULE_UNBREAKABLE | OM_WH7_RULE_SWARM | OM_WH7_RULE_UNDEAD))
        return false;
    /* Without characters or spells on Leadership, the figures are the
     * prepared ones (the unit's or the General's). */
    if (si->characters == 0 && p->c.side[loser].mods.leadership == 0) {
        ld = si->ld;
        stubborn = si->stubborn_ld;
        reroll = p->c.side[loser].battle_standard_near;
    } else {
        ld = om_wh7_leadership(p, st, loser);
        stubborn = stubborn_leadership(p, st, loser);
        reroll = bsb_reroll(p, st, loser);
    }
    automatic = (p->side[1 - loser].rules & (OM_WH7_RULE_FEAR | OM_WH7_RULE_TERROR)) &&
                fear_auto_break(p, st, loser);
    /* Fast dice: the exact probability of holding (om_wh7_break_holds over
     * the 36 rolls, with the re-roll) decides with one draw, where it is
     * tabulated for this Leadership. */
    if (d->plain == NULL && ld == si->ld && stubborn == si->stubborn_ld && diff < WH7_DIFFS)
        return !wh7_chance(&d->rng, si->hold32[automatic][reroll][diff]);
    /* Enumerated: held or broke, with the same exact probability (exact.h). */
    if (om_enum_of(d) != NULL)
        return !om_enum_chance(om_enum_of(d), om_wh7_break_pass_probability(ld, diff, stubborn,
                                                                            automatic, reroll));
    /* The Battle Standard re-rolls a failed test once (no die twice). */
    for (unsigned t = 0; t < (reroll ? 2u : 1u); t++)
        if (om_wh7_break_holds(om_dice_roll_sum(d, 2, NULL), ld, diff, stubborn, automatic))
            return false;
    return true;
}
