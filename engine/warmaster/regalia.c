/*
 * regalia.c: the Generals' devices of power acting in the Command phase
 * (Warmaster Revolution, Magic Items > Devices of Power; the Warmaster 1.1
 * Rules Update, P77 – Orb of Majesty). What a device does is its rulebook
 * text; when a player would use it is the fixed policy stated in regalia.h
 * and docs/rules-coverage.md, so that a trial needs no decision. The state is
 * the table's (om_wm_table_character.regalia: what the General can still
 * use), the effect on one phase the result's (om_wm_command_result.regalia);
 * the Command phase calls the hooks where an order is tested (command.c).
 */
#include "regalia.h"

#include <stddef.h>

/* The Command value the Crown tests against, and the most any Command value
 * reaches with the Helm: "an unmodified Command value of 10", "up to a
 * maximum value of 10" (Magic Items > Crown of Command; Helm of Dominion). */
#define REGALIA_COMMAND_MAX 10
/* The Command value of the Orb's re-roll (Magic Items > Orb of Majesty). */
#define ORB_COMMAND 8
/* The least roll of 2D6: a re-roll needing less can never pass. */
#define ROLL_MIN 2
/* A double 6, the roll that blunders (Generals, Wizards & Heroes >
 * Blunders; Magic Items > Sceptre of Sovereignty). */
#define DOUBLE_SIX 12

const char *om_wm_regalia_name(unsigned bit)
{
    switch (bit) {
    case OM_WM_REGALIA_CROWN: return "Crown of Command";
    case OM_WM_REGALIA_HELM: return "Helm of Dominion";
    case OM_WM_REGALIA_ORB: return "Orb of Majesty";
    case OM_WM_REGALIA_SCEPTRE: return "Sceptre of Sovereignty";
    default: return "";
    }
}

/* Whether character c, the moving side's General, still carries device
 * `bit` and is on the table (his unit not destroyed). */
static bool general_has(const om_wm_command_setup *s, const om_wm_table *t, int c, unsigned bit)
{
    const om_wm_table_character *ch;
    if (c < 0 || (unsigned)c >= t->characters)
        return false;
    ch = &t->character[c];
    return ch->side == s->side && ch->kind == OM_WM_GENERAL && (ch->regalia & bit) != 0 &&
           !om_wm_table_character_gone(t, (unsigned)c);
}

/* Record device `bit` of General g acting for character c's order to unit u. */
static void trace_regalia(om_wm_trace *trace, unsigned bit, int g, int c, int u, unsigned flags,
                          int16_t target, unsigned d1, unsigned d2, bool ceases)
{
    om_wm_event e;
    if (trace == NULL)
        return;
    e = om_wm_event_make(trace, OM_WM_EV_REGALIA, u, g);
    e.v[0] = (int16_t)bit;
    e.v[1] = (int16_t)c;
    e.v[2] = target;
    e.v[3] = ceases ? 1 : 0;
    e.dice[0] = (uint8_t)d1;
    e.dice[1] = (uint8_t)d2;
    e.flags = (uint8_t)flags;
    om_wm_trace_put(trace, &e);
}

/* Whether the plans give General g a charge to order this phase: a unit's
 * or a brigade's plan of kind CHARGE naming him (Helm policy, regalia.h). */
static bool general_charges(const om_wm_command_setup *s, const om_wm_table *t, unsigned g)
{
    for (unsigned u = 0; u < t->units; u++)
        if (t->unit[u].side == s->side && t->unit[u].present &&
            s->plan[u].kind == OM_WM_PLAN_CHARGE && s->plan[u].by == (int)g)
            return true;
    for (unsigned b = 0; b < t->brigades; b++)
        if (s->brigade_plan[b].kind == OM_WM_PLAN_CHARGE && s->brigade_plan[b].by == (int)g)
            return true;
    return false;
}

void om_wm_regalia_phase_start(const om_wm_command_setup *s, om_wm_table *t,
                               om_wm_command_result *out, om_wm_trace *trace)
{
    const int g = out->general;
    out->regalia = 0;
    /* "The player must specify at the start of the turn if he wishes to
     * employ its powers" (Magic Items > Helm of Dominion). */
    if (general_has(s, t, g, OM_WM_REGALIA_HELM) &&
        t->character[g].command < REGALIA_COMMAND_MAX && general_charges(s, t, (unsigned)g)) {
        t->character[g].regalia &= (uint8_t)~OM_WM_REGALIA_HELM;
        out->regalia |= OM_WM_REGALIA_HELM;
        trace_regalia(trace, OM_WM_REGALIA_HELM, g, g, -1, 0, 0, 0, 0, false);
    }
}

unsigned om_wm_regalia_before_test(const om_wm_command_setup *s, const om_wm_table *t,
                                   unsigned c, unsigned u, om_wm_command_result *out,
                                   om_wm_command_test *test, om_wm_trace *trace)
{
    if ((int)c != out->general)
        return 0;
    /* "His first order of each turn against an unmodified Command value of
     * 10. No command penalties apply" (Magic Items > Crown of Command). */
    if (out->general_tests == 0 && test->target < REGALIA_COMMAND_MAX &&
        general_has(s, t, (int)c, OM_WM_REGALIA_CROWN)) {
        test->target = REGALIA_COMMAND_MAX;
        out->regalia |= OM_WM_REGALIA_CROWN;
        trace_regalia(trace, OM_WM_REGALIA_CROWN, (int)c, (int)c, (int)u, 0,
                      REGALIA_COMMAND_MAX, 0, 0, false);
        return OM_WM_REGALIA_CROWN;
    }
    /* "The General's Command value is increased by +1 up to a maximum value
     * of 10" (Magic Items > Helm of Dominion): the penalties stay. */
    if ((out->regalia & OM_WM_REGALIA_HELM) && t->character[c].command < REGALIA_COMMAND_MAX) {
        test->target += 1;
        return OM_WM_REGALIA_HELM;
    }
    return 0;
}

bool om_wm_regalia_after_failure(const om_wm_command_setup *s, om_wm_table *t, om_dice *d,
                                 unsigned c, const unsigned *u, unsigned n, unsigned used,
                                 const om_wm_command_test *test, unsigned *roll,
                                 om_wm_command_result *out, om_wm_trace *trace)
{
    const int g = out->general, first = n > 0 ? (int)u[0] : -1;
    /* "Should the General fail to issue his first order, by rolling an 11 or
     * 12, then the Crown of Command ceases to work" (A26: for the rest of the
     * battle). */
    if (used == OM_WM_REGALIA_CROWN) {
        t->character[c].regalia &= (uint8_t)~OM_WM_REGALIA_CROWN;
        out->regalia |= OM_WM_REGALIA_CROWN;
        trace_regalia(trace, OM_WM_REGALIA_CROWN, g, (int)c, first, 0, 0, 0, 0, true);
        return false;
    }
    /* "He may ignore one blundered 'double 6' roll for an order made by
     * either himself or any of the army's other characters ... the Command
     * test is passed" (Magic Items > Sceptre of Sovereignty; A1: the
     * General's own 12 too, whether or not it counts as a blunder). */
    if (*roll == DOUBLE_SIX &&
        ((int)c == g || om_wm_command_is_blunder(s->rules, &s->options, t->character[c].kind,
                                                 *roll)) &&
        general_has(s, t, g, OM_WM_REGALIA_SCEPTRE)) {
        t->character[g].regalia &= (uint8_t)~OM_WM_REGALIA_SCEPTRE;
        out->regalia |= OM_WM_REGALIA_SCEPTRE;
        trace_regalia(trace, OM_WM_REGALIA_SCEPTRE, g, (int)c, first, OM_WM_EVF_PASSED, 0, 0, 0,
                      false);
        return true;
    }
    /* "He may disregard a single failed Command test and roll it again as if
     * he had a Command value of 8. The usual adjustments are made for Command
     * penalties" (Magic Items > Orb of Majesty; the 1.1 Rules Update, P77). */
    if ((int)c == g && general_has(s, t, g, OM_WM_REGALIA_ORB)) {
        const int target = test->target - (int)t->character[c].command + ORB_COMMAND;
        unsigned d1, d2;
        if (target < ROLL_MIN)
            return false;
        t->character[c].regalia &= (uint8_t)~OM_WM_REGALIA_ORB;
        out->regalia |= OM_WM_REGALIA_ORB;
        d1 = om_dice_roll_d6(d);
        d2 = om_dice_roll_d6(d);
        *roll = d1 + d2;
        trace_regalia(trace, OM_WM_REGALIA_ORB, g, (int)c, first,
                      (int)*roll <= target ? OM_WM_EVF_PASSED : 0u, (int16_t)target, d1, d2,
                      false);
        return (int)*roll <= target;
    }
    return false;
}
