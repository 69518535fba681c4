/*
 * tables.c: the basic dice tables of WHFB 7th edition: close combat to hit
 * (Weapon Skill against Weapon Skill), shooting to hit (Ballistic Skill and the
 * 7+ rule), to wound (Strength against Toughness), armour saves and their
 * modifiers, and the 2D6 Leadership test. The charts are copied cell by cell
 * from the rulebook (WHFB 7th edition, Close Combat > Hitting the Enemy and
 * Wounding the Enemy; Shooting > Rolling to Hit, To Hit Modifiers, Armour Save
 * Modifiers, Maximum Save; Characteristics > Leadership Tests).
 */
#include "wh7_int.h"

/* The To Hit chart of close combat (WHFB 7th edition, Close Combat > Hitting
 * the Enemy): row = attacker's WS 1..10, column = defender's WS 1..10. */
static const uint8_t om_wh7_cc_hit_chart[10][10] = {
    {4, 4, 5, 5, 5, 5, 5, 5, 5, 5},
    {3, 4, 4, 4, 5, 5, 5, 5, 5, 5},
    {3, 3, 4, 4, 4, 4, 5, 5, 5, 5},
    {3, 3, 3, 4, 4, 4, 4, 4, 5, 5},
    {3, 3, 3, 3, 4, 4, 4, 4, 4, 4},
    {3, 3, 3, 3, 3, 4, 4, 4, 4, 4},
    {3, 3, 3, 3, 3, 3, 4, 4, 4, 4},
    {3, 3, 3, 3, 3, 3, 3, 4, 4, 4},
    {3, 3, 3, 3, 3, 3, 3, 3, 4, 4},
    {3, 3, 3, 3, 3, 3, 3, 3, 3, 4},
};

/* The To Wound chart (WHFB 7th edition, Shooting > Rolling to Wound; the same
 * chart in Close Combat > Wounding the Enemy): row = Strength 1..10, column =
 * Toughness 1..10; 7 stands for the chart's "N" (no effect). */
static const uint8_t om_wh7_wound_chart[10][10] = {
    {4, 5, 6, 6, 7, 7, 7, 7, 7, 7},
    {3, 4, 5, 6, 6, 7, 7, 7, 7, 7},
    {2, 3, 4, 5, 6, 6, 7, 7, 7, 7},
    {2, 2, 3, 4, 5, 6, 6, 7, 7, 7},
    {2, 2, 2, 3, 4, 5, 6, 6, 7, 7},
    {2, 2, 2, 2, 3, 4, 5, 6, 6, 7},
    {2, 2, 2, 2, 2, 3, 4, 5, 6, 6},
    {2, 2, 2, 2, 2, 2, 3, 4, 5, 6},
    {2, 2, 2, 2, 2, 2, 2, 3, 4, 5},
    {2, 2, 2, 2, 2, 2, 2, 2, 3, 4},
};

/* Faces of a D6, and the outcomes of 2D6. */
#define OM_WH7_FACES 6u
#define OM_WH7_2D6_OUTCOMES 36u

/* The first shooting requirement read as "a 6, then a second die" (the 7+
 * rule), and the first that cannot hit at all (WHFB 7th edition, Shooting >
 * To Hit Modifiers: 7 = 6 then 4+, 8 = 6 then 5+, 9 = 6 then 6, 10 impossible). */
#define OM_WH7_SHOOT_SECOND_DIE 7
#define OM_WH7_SHOOT_IMPOSSIBLE 10

/* The unmodified Strength whose hits do not worsen saves (Armour Save
 * Modifiers: S3 or less, 0; S4, -1; ... S10, -7). */
#define OM_WH7_SAVE_MOD_FREE_S 3u

static unsigned clamp_char(unsigned v)
{
    return v > OM_WH7_CHAR_MAX ? OM_WH7_CHAR_MAX : v;
}

unsigned om_wh7_cc_to_hit(unsigned ws_attacker, unsigned ws_defender)
{
    /* A model of WS 0 "cannot defend itself": every blow hits it. An attacker
     * of WS 0 (a war machine) reads the chart's first row. */
    if (ws_defender == 0)
        return 1;
    ws_attacker = clamp_char(ws_attacker);
    if (ws_attacker == 0)
        ws_attacker = 1;
    return om_wh7_cc_hit_chart[ws_attacker - 1][clamp_char(ws_defender) - 1];
}

unsigned om_wh7_to_wound(unsigned s, unsigned t)
{
    if (s == 0)
        return OM_WH7_NEVER;
    if (t == 0)
        t = 1;
    return om_wh7_wound_chart[clamp_char(s) - 1][clamp_char(t) - 1];
}

int om_wh7_bs_to_hit(unsigned bs)
{
    if (bs == 0)
        return OM_WH7_SHOOT_IMPOSSIBLE;
    return 7 - (int)clamp_char(bs);
}

double om_wh7_p_at_least(unsigned need)
{
    if (need <= 1)
        return 1.0;
    if (need >= 7)
        return 0.0;
    return (double)(7u - need) / (double)OM_WH7_FACES;
}

double om_wh7_shoot_hit_probability(int required)
{
    if (required >= OM_WH7_SHOOT_IMPOSSIBLE)
        return 0.0;
    if (required >= OM_WH7_SHOOT_SECOND_DIE) {
        /* A 6, then 4+ (7), 5+ (8) or 6 (9) on a second die. */
        unsigned second = (unsigned)(required - OM_WH7_SHOOT_SECOND_DIE) + 4u;
        return (double)(7u - second) / (double)(OM_WH7_FACES * OM_WH7_FACES);
    }
    /* A natural 1 always misses, so any requirement of 2 or less is a 2+. */
    return om_wh7_p_at_least(required < 2 ? 2u : (unsigned)required);
}

unsigned om_wh7_strength_save_modifier(unsigned s)
{
    return s > OM_WH7_SAVE_MOD_FREE_S ? s - OM_WH7_SAVE_MOD_FREE_S : 0u;
}

unsigned om_wh7_save_need(unsigned save, int worsen)
{
    int need;
    if (save == 0 || save >= OM_WH7_NEVER)
        return OM_WH7_NEVER;
    need = (int)save + worsen;
    if (need >= (int)OM_WH7_NEVER)
        return OM_WH7_NEVER;
    /* Saves of 1+ or better exist, but a natural 1 always fails. */
    return need < 2 ? 2u : (unsigned)need;
}

unsigned om_wh7_2d6_ways(int total)
{
    if (total < 2 || total > 12)
        return 0;
    return (unsigned)(total <= 7 ? total - 1 : 13 - total);
}

double om_wh7_ld_pass_probability(int ld)
{
    unsigned ways = 0;
    for (int t = 2; t <= ld && t <= 12; t++)
        ways += om_wh7_2d6_ways(t);
    return (double)ways / (double)OM_WH7_2D6_OUTCOMES;
}
