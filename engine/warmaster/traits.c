/*
 * traits.c: the description of every field of om_wm_traits (wm_traits.h), and
 * what is done with traits as data: reading one by name, merging the traits
 * of several rules into a unit's, comparing, and printing them.
 *
 * The table below is the only list of traits outside the struct itself; a
 * static assertion ties its length to the struct's size (one byte a trait),
 * so a trait added to the struct without a row here does not compile.
 */
#include <stdio.h>
#include <string.h>

#include "wm_traits.h"

static const char *const shooter_names[OM_WM_SHOOTER_COUNT] = {
    [OM_WM_SHOOTER_PLAIN] = "plain",
    [OM_WM_SHOOTER_CANNON] = "cannon",
    [OM_WM_SHOOTER_REPEATER] = "repeater",
    [OM_WM_SHOOTER_HELBLASTER] = "helblaster",
    [OM_WM_SHOOTER_ROCKET] = "rocket",
    [OM_WM_SHOOTER_FLAME_CANNON] = "flame-cannon",
    [OM_WM_SHOOTER_WARP_LIGHTNING] = "warp-lightning",
    [OM_WM_SHOOTER_SALAMANDER] = "salamander",
};

static const char *const bonus_dice_names[OM_WM_BONUS_DICE_COUNT] = {
    [OM_WM_BONUS_DICE_NONE] = "none",
    [OM_WM_BONUS_D6_OR_D3] = "d6-charging-or-pursuing-else-d3",
    [OM_WM_BONUS_D6_CHARGING] = "d6-charging-in-the-open",
};

static const char *const hurt_names[OM_WM_HURT_COUNT] = {
    [OM_WM_NEVER_HURT] = "never",
    [OM_WM_HURT_ABOVE_HALF] = "above-half-its-hits",
    [OM_WM_HURT_FROM_HALF] = "from-half-its-hits",
};

static const char *const pursuit_names[OM_WM_PURSUIT_COUNT] = {
    [OM_WM_PURSUES_AS_ITS_TYPE] = "as-its-type",
    [OM_WM_PURSUES_MOUNTED] = "mounted",
    [OM_WM_PURSUES_ANY] = "any",
};

static const char *const regeneration_names[OM_WM_REGENERATION_COUNT] = {
    [OM_WM_NO_REGENERATION] = "none",
    [OM_WM_REGENERATES_CARRIED] = "one-carried-hit",
    [OM_WM_REGENERATES_SUFFERED] = "one-hit-suffered",
};

static const char *const cover_names[OM_WM_COVER_COUNT] = {
    [OM_WM_COVER_AS_DECLARED] = "as-declared",
    [OM_WM_COVER_ALWAYS_DEFENDED] = "always-defended",
    [OM_WM_COVER_ONLY_IN_DENSE] = "only-in-dense-terrain",
};

static const char *const static_machine_names[OM_WM_STATIC_MACHINE_COUNT] = {
    [OM_WM_NOT_STATIC] = "no",
    [OM_WM_STATIC_LOST_PAST_10CM] = "lost-past-10cm",
    [OM_WM_STATIC_LOST_ON_A_SIX] = "lost-on-a-six",
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const om_wm_trait om_wm_traits_table[] = {
    {"terror", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, terror), NULL, 0,
     "enemy stands in contact fight at -1 Attack unless they cause terror or ignore it"},
    {"ignores_terror", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, ignores_terror), NULL, 0,
     "enemy terror does not affect it"},
    {"no_charge_bonus", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, no_charge_bonus), NULL, 0,
     "never gets the charge bonus"},
    {"charge_bonus_delta", OM_WM_TRAIT_DELTA, offsetof(om_wm_traits, charge_bonus_delta), NULL,
     0, "added to its charge bonus against an enemy in the open"},
    {"attack_delta", OM_WM_TRAIT_DELTA, offsetof(om_wm_traits, attack_delta), NULL, 0,
     "Attacks per stand in every round"},
    {"attack_delta_vs_monsters", OM_WM_TRAIT_DELTA,
     offsetof(om_wm_traits, attack_delta_vs_monsters), NULL, 0,
     "Attacks per stand against monsters"},
    {"round1_front_attack_delta", OM_WM_TRAIT_DELTA,
     offsetof(om_wm_traits, round1_front_attack_delta), NULL, 0,
     "Attacks per stand fighting to its front in the first round"},
    {"charge_dice_delta", OM_WM_TRAIT_DELTA, offsetof(om_wm_traits, charge_dice_delta), NULL, 0,
     "attack dice of the unit in the first round when it charges"},
    {"bonus_dice", OM_WM_TRAIT_ENUM, offsetof(om_wm_traits, bonus_dice), bonus_dice_names,
     N_OF(bonus_dice_names), "random attack dice a war machine adds"},
    {"hates_chaos_undead", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, hates_chaos_undead), NULL, 0,
     "against Chaos or Undead: +1 Attack per stand in the first round, must pursue"},
    {"rerolls_a_miss", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, rerolls_a_miss), NULL, 0,
     "re-rolls one missed attack die in the first round of each turn"},
    {"extra_strike_round1", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, extra_strike_round1), NULL,
     0, "more hits than suffered in round 1: one more Attack per fighting stand"},
    {"melee_hit_score", OM_WM_TRAIT_SCORE, offsetof(om_wm_traits, melee_hit_score), NULL, 0,
     "its attacks hit on this score whatever the cover"},
    {"save_delta_melee", OM_WM_TRAIT_DELTA, offsetof(om_wm_traits, save_delta_melee), NULL, 0,
     "added to its save score in combat (negative: better)"},
    {"regeneration", OM_WM_TRAIT_ENUM, offsetof(om_wm_traits, regeneration), regeneration_names,
     N_OF(regeneration_names), "hits it regenerates in each combat round"},
    {"cover", OM_WM_TRAIT_ENUM, offsetof(om_wm_traits, cover), cover_names, N_OF(cover_names),
     "the position it counts as having besides the declared one"},
    {"no_support", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, no_support), NULL, 0,
     "can neither support nor be supported"},
    {"side_supports_only", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, side_supports_only), NULL,
     0, "its rear supports do not count"},
    {"shooter", OM_WM_TRAIT_ENUM, offsetof(om_wm_traits, shooter), shooter_names,
     N_OF(shooter_names), "where its shooting dice come from"},
    {"shots_no_save", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, shots_no_save), NULL, 0,
     "its shooting allows no armour save"},
    {"shots_save_delta", OM_WM_TRAIT_DELTA, offsetof(om_wm_traits, shots_save_delta), NULL, 0,
     "added to the target's save score against its shots (positive: worse)"},
    {"shots_to_hit_delta", OM_WM_TRAIT_DELTA, offsetof(om_wm_traits, shots_to_hit_delta), NULL,
     0, "added to its to-hit score when shooting (negative: easier)"},
    {"shots_cover_one_lower", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, shots_cover_one_lower),
     NULL, 0, "its volleys count fortified as defended and defended as open"},
    {"line_fire", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, line_fire), NULL, 0,
     "+1 Attack per further target stand in its line of fire (line_stands)"},
    {"no_stand_and_shoot", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, no_stand_and_shoot), NULL, 0,
     "cannot shoot at chargers"},
    {"blind_fire_needs_six", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, blind_fire_needs_six),
     NULL, 0, "shooting blind, it needs a D6 of 6 before rolling to hit"},
    {"double_ones_confuse", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, double_ones_confuse), NULL,
     0, "two 1s to hit in one shooting confuse it"},
    {"salamander_shoots_chargers", OM_WM_TRAIT_FLAG,
     offsetof(om_wm_traits, salamander_shoots_chargers), NULL, 0,
     "its Salamander's extra shot counts at chargers too"},
    {"no_drive_back", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, no_drive_back), NULL, 0,
     "never driven back by shooting"},
    {"drive_back_dice_delta", OM_WM_TRAIT_DELTA, offsetof(om_wm_traits, drive_back_dice_delta),
     NULL, 0, "added to its drive-back dice"},
    {"drive_back_confuses_on", OM_WM_TRAIT_SCORE,
     offsetof(om_wm_traits, drive_back_confuses_on), NULL, 0,
     "the drive backs of its shots confuse on this score or more"},
    {"static_machine", OM_WM_TRAIT_ENUM, offsetof(om_wm_traits, static_machine),
     static_machine_names, N_OF(static_machine_names),
     "not moved by drive backs; what destroys it instead"},
    {"never_confused", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, never_confused), NULL, 0,
     "cannot become confused"},
    {"stampedes", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, stampedes), NULL, 0,
     "stampedes instead of being confused: no -1, must pursue"},
    {"must_pursue", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, must_pursue), NULL, 0,
     "pursues whenever the rules allow"},
    {"pursuit", OM_WM_TRAIT_ENUM, offsetof(om_wm_traits, pursuit), pursuit_names,
     N_OF(pursuit_names), "which retreating enemies it may pursue"},
    {"flies", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, flies), NULL, 0,
     "a flyer: non-flyers cannot pursue it"},
    {"pursued_by_non_flyers", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, pursued_by_non_flyers),
     NULL, 0, "a flyer that non-flyers may still pursue"},
    {"immobile", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, immobile), NULL, 0,
     "neither pursues nor falls back unless pushed"},
    {"destroyed_if_retreats", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, destroyed_if_retreats),
     NULL, 0, "destroyed when forced to retreat"},
    {"rampage", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, rampage), NULL, 0,
     "retreating, it confuses the enemy in contact on a 6, destroys it if confused"},
    {"warband", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, warband), NULL, 0,
     "+1 Attack pursuing, -1 after retreating; drive-back dice by its losses"},
    {"shock", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, shock), NULL, 0,
     "on a long base: +1 Attack per stand charging or pursuing"},
    {"scythed", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, scythed), NULL, 0,
     "fights one round and is removed; a loser it hit is confused"},
    {"shieldwall", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, shieldwall), NULL, 0,
     "armour one better in the first round when charged"},
    {"phalanx", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, phalanx), NULL, 0,
     "stands striking to a side or rear have base Attack 0"},
    {"legion", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, legion), NULL, 0,
     "first round: +1 result per stand fighting to its front"},
    {"maniple", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, maniple), NULL, 0,
     "a D6 per rear-supporting maniple stand; each 6 saves a hit"},
    {"skirmish", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, skirmish), NULL, 0,
     "skirmishers: may evade a charge after shooting"},
    {"pikes", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, pikes), NULL, 0,
     "defended in the first round against charging cavalry or chariots"},
    {"no_character", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, no_character), NULL, 0,
     "no character joins it and it takes no magic item"},
    {"hurt", OM_WM_TRAIT_ENUM, offsetof(om_wm_traits, hurt), hurt_names, N_OF(hurt_names),
     "the hits from which a big monster is badly hurt"},
    {"daemonic_instability", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, daemonic_instability),
     NULL, 0, "a D6 at the start of its own turns once it has lost a stand"},
    {"war_wagon", OM_WM_TRAIT_FLAG, offsetof(om_wm_traits, war_wagon), NULL, 0,
     "a War Wagon: column or laager, only its wagon stand fights and shoots"},
};

/* One byte a trait and no padding: the table describes every byte. */
_Static_assert(sizeof(om_wm_traits) == N_OF(om_wm_traits_table), "one table row per trait");
_Static_assert(sizeof(bool) == 1, "flags are one byte");

size_t om_wm_trait_count(void) { return N_OF(om_wm_traits_table); }

const om_wm_trait *om_wm_trait_at(size_t i)
{
    return i < N_OF(om_wm_traits_table) ? &om_wm_traits_table[i] : NULL;
}

const om_wm_trait *om_wm_trait_find(const char *name)
{
    for (size_t i = 0; i < N_OF(om_wm_traits_table); i++)
        if (strcmp(om_wm_traits_table[i].name, name) == 0)
            return &om_wm_traits_table[i];
    return NULL;
}

int om_wm_trait_get(const om_wm_traits *t, const om_wm_trait *d)
{
    const unsigned char *byte = (const unsigned char *)t + d->offset;
    switch (d->kind) {
    case OM_WM_TRAIT_FLAG: return *(const bool *)byte ? 1 : 0;
    case OM_WM_TRAIT_DELTA: return *(const int8_t *)byte;
    case OM_WM_TRAIT_SCORE:
    case OM_WM_TRAIT_ENUM: return *byte;
    }
    return 0;
}

/* Store value v of trait d in t (v in the trait's range). */
static void trait_set(om_wm_traits *t, const om_wm_trait *d, int v)
{
    unsigned char *byte = (unsigned char *)t + d->offset;
    switch (d->kind) {
    case OM_WM_TRAIT_FLAG: *(bool *)byte = v != 0; break;
    case OM_WM_TRAIT_DELTA: *(int8_t *)byte = (int8_t)v; break;
    case OM_WM_TRAIT_SCORE:
    case OM_WM_TRAIT_ENUM: *byte = (unsigned char)v; break;
    }
}

const char *om_wm_trait_value_name(const om_wm_trait *d, int v)
{
    if (d->kind != OM_WM_TRAIT_ENUM || v < 0 || (unsigned)v >= d->n_values)
        return NULL;
    return d->values[v];
}

bool om_wm_traits_empty(const om_wm_traits *t)
{
    for (size_t i = 0; i < N_OF(om_wm_traits_table); i++)
        if (om_wm_trait_get(t, &om_wm_traits_table[i]) != 0)
            return false;
    return true;
}

bool om_wm_traits_equal(const om_wm_traits *a, const om_wm_traits *b)
{
    for (size_t i = 0; i < N_OF(om_wm_traits_table); i++) {
        const om_wm_trait *d = &om_wm_traits_table[i];
        if (om_wm_trait_get(a, d) != om_wm_trait_get(b, d))
            return false;
    }
    return true;
}

/* The merged value of one trait of two rules, or false if they disagree. */
static bool merge_one(const om_wm_trait *d, int have, int add, int *out)
{
    switch (d->kind) {
    case OM_WM_TRAIT_FLAG:
        *out = have || add;
        return true;
    case OM_WM_TRAIT_DELTA:
        /* The same modifier from two rules does not stack: the larger counts. */
        *out = (add < 0 ? -add : add) > (have < 0 ? -have : have) ? add : have;
        return true;
    case OM_WM_TRAIT_SCORE:
    case OM_WM_TRAIT_ENUM:
        *out = have != 0 ? have : add;
        return have == 0 || add == 0 || have == add;
    }
    return false;
}

bool om_wm_traits_merge(om_wm_traits *into, const om_wm_traits *add,
                        const om_wm_trait **conflict)
{
    om_wm_traits merged = *into;
    for (size_t i = 0; i < N_OF(om_wm_traits_table); i++) {
        const om_wm_trait *d = &om_wm_traits_table[i];
        int v;
        if (!merge_one(d, om_wm_trait_get(into, d), om_wm_trait_get(add, d), &v)) {
            if (conflict != NULL)
                *conflict = d;
            return false;
        }
        trait_set(&merged, d, v);
    }
    *into = merged;
    return true;
}

size_t om_wm_traits_format(const om_wm_traits *t, char *buf, size_t cap)
{
    size_t len = 0;
    for (size_t i = 0; i < N_OF(om_wm_traits_table); i++) {
        const om_wm_trait *d = &om_wm_traits_table[i];
        const int v = om_wm_trait_get(t, d);
        const char *sep = len > 0 ? ", " : "";
        char *at = len < cap ? buf + len : NULL;
        size_t room = len < cap ? cap - len : 0;
        int n;
        if (v == 0)
            continue;
        switch (d->kind) {
        case OM_WM_TRAIT_FLAG: n = snprintf(at, room, "%s%s", sep, d->name); break;
        case OM_WM_TRAIT_DELTA: n = snprintf(at, room, "%s%s %+d", sep, d->name, v); break;
        case OM_WM_TRAIT_SCORE: n = snprintf(at, room, "%s%s %d+", sep, d->name, v); break;
        default: {
            const char *name = om_wm_trait_value_name(d, v);
            n = name ? snprintf(at, room, "%s%s %s", sep, d->name, name)
                     : snprintf(at, room, "%s%s %d", sep, d->name, v);
            break;
        }
        }
        len += n > 0 ? (size_t)n : 0u;
    }
    if (len == 0)
        return (size_t)snprintf(buf, cap, "none");
    return len;
}
