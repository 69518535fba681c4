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
    {.name = "terror", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, terror),
     .meaning = "enemy stands in contact fight at -1 Attack unless they cause terror or ignore it"},
    {.name = "ignores_terror", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, ignores_terror),
     .meaning = "enemy terror does not affect it"},
    {.name = "no_charge_bonus", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, no_charge_bonus), .meaning = "never gets the charge bonus"},
    {.name = "charge_bonus_delta", .kind = OM_WM_TRAIT_DELTA,
     .offset = offsetof(om_wm_traits, charge_bonus_delta),
     .meaning = "added to its charge bonus against an enemy in the open"},
    {.name = "attack_delta", .kind = OM_WM_TRAIT_DELTA,
     .offset = offsetof(om_wm_traits, attack_delta), .meaning = "Attacks per stand in every round"},
    {.name = "attack_delta_vs_monsters", .kind = OM_WM_TRAIT_DELTA,
     .offset = offsetof(om_wm_traits, attack_delta_vs_monsters),
     .meaning = "Attacks per stand against monsters"},
    {.name = "round1_front_attack_delta", .kind = OM_WM_TRAIT_DELTA,
     .offset = offsetof(om_wm_traits, round1_front_attack_delta),
     .meaning = "Attacks per stand fighting to its front in the first round"},
    {.name = "charge_dice_delta", .kind = OM_WM_TRAIT_DELTA,
     .offset = offsetof(om_wm_traits, charge_dice_delta),
     .meaning = "attack dice of the unit in the first round when it charges"},
    {.name = "bonus_dice", .kind = OM_WM_TRAIT_ENUM, .offset = offsetof(om_wm_traits, bonus_dice),
     .values = bonus_dice_names, .n_values = N_OF(bonus_dice_names),
     .meaning = "random attack dice a war machine adds"},
    {.name = "hates_chaos_undead", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, hates_chaos_undead),
     .meaning = "against Chaos or Undead: +1 Attack per stand in the first round, must pursue"},
    {.name = "rerolls_a_miss", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, rerolls_a_miss),
     .meaning = "re-rolls one missed attack die in the first round of each turn"},
    {.name = "extra_strike_round1", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, extra_strike_round1),
     .meaning = "more hits than suffered in round 1: one more Attack per fighting stand"},
    {.name = "melee_hit_score", .kind = OM_WM_TRAIT_SCORE,
     .offset = offsetof(om_wm_traits, melee_hit_score),
     .meaning = "its attacks hit on this score whatever the cover"},
    {.name = "save_delta_melee", .kind = OM_WM_TRAIT_DELTA,
     .offset = offsetof(om_wm_traits, save_delta_melee),
     .meaning = "added to its save score in combat (negative: better)"},
    {.name = "regeneration", .kind = OM_WM_TRAIT_ENUM,
     .offset = offsetof(om_wm_traits, regeneration), .values = regeneration_names,
     .n_values = N_OF(regeneration_names), .meaning = "hits it regenerates in each combat round"},
    {.name = "cover", .kind = OM_WM_TRAIT_ENUM, .offset = offsetof(om_wm_traits, cover),
     .values = cover_names, .n_values = N_OF(cover_names),
     .meaning = "the position it counts as having besides the declared one"},
    {.name = "no_support", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, no_support),
     .meaning = "can neither support nor be supported"},
    {.name = "side_supports_only", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, side_supports_only),
     .meaning = "its rear supports do not count"},
    {.name = "shooter", .kind = OM_WM_TRAIT_ENUM, .offset = offsetof(om_wm_traits, shooter),
     .values = shooter_names, .n_values = N_OF(shooter_names),
     .meaning = "where its shooting dice come from"},
    {.name = "shots_no_save", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, shots_no_save),
     .meaning = "its shooting allows no armour save"},
    {.name = "shots_save_delta", .kind = OM_WM_TRAIT_DELTA,
     .offset = offsetof(om_wm_traits, shots_save_delta),
     .meaning = "added to the target's save score against its shots (positive: worse)"},
    {.name = "shots_to_hit_delta", .kind = OM_WM_TRAIT_DELTA,
     .offset = offsetof(om_wm_traits, shots_to_hit_delta),
     .meaning = "added to its to-hit score when shooting (negative: easier)"},
    {.name = "shots_cover_one_lower", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, shots_cover_one_lower),
     .meaning = "its volleys count fortified as defended and defended as open"},
    {.name = "line_fire", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, line_fire),
     .meaning = "+1 Attack per further target stand in its line of fire (line_stands)"},
    {.name = "no_stand_and_shoot", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, no_stand_and_shoot), .meaning = "cannot shoot at chargers"},
    {.name = "blind_fire_needs_six", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, blind_fire_needs_six),
     .meaning = "shooting blind, it needs a D6 of 6 before rolling to hit"},
    {.name = "double_ones_confuse", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, double_ones_confuse),
     .meaning = "two 1s to hit in one shooting confuse it"},
    {.name = "salamander_shoots_chargers", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, salamander_shoots_chargers),
     .meaning = "its Salamander's extra shot counts at chargers too"},
    {.name = "no_drive_back", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, no_drive_back), .meaning = "never driven back by shooting"},
    {.name = "drive_back_dice_delta", .kind = OM_WM_TRAIT_DELTA,
     .offset = offsetof(om_wm_traits, drive_back_dice_delta),
     .meaning = "added to its drive-back dice"},
    {.name = "drive_back_confuses_on", .kind = OM_WM_TRAIT_SCORE,
     .offset = offsetof(om_wm_traits, drive_back_confuses_on),
     .meaning = "the drive backs of its shots confuse on this score or more"},
    {.name = "static_machine", .kind = OM_WM_TRAIT_ENUM,
     .offset = offsetof(om_wm_traits, static_machine), .values = static_machine_names,
     .n_values = N_OF(static_machine_names),
     .meaning = "not moved by drive backs; what destroys it instead"},
    {.name = "never_confused", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, never_confused), .meaning = "cannot become confused"},
    {.name = "stampedes", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, stampedes),
     .meaning = "stampedes instead of being confused: no -1, must pursue"},
    {.name = "must_pursue", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, must_pursue),
     .meaning = "pursues whenever the rules allow"},
    {.name = "pursuit", .kind = OM_WM_TRAIT_ENUM, .offset = offsetof(om_wm_traits, pursuit),
     .values = pursuit_names, .n_values = N_OF(pursuit_names),
     .meaning = "which retreating enemies it may pursue"},
    {.name = "flies", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, flies),
     .meaning = "a flyer: non-flyers cannot pursue it"},
    {.name = "pursued_by_non_flyers", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, pursued_by_non_flyers),
     .meaning = "a flyer that non-flyers may still pursue"},
    {.name = "immobile", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, immobile),
     .meaning = "neither pursues nor falls back unless pushed"},
    {.name = "destroyed_if_retreats", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, destroyed_if_retreats),
     .meaning = "destroyed when forced to retreat"},
    {.name = "rampage", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, rampage),
     .meaning = "retreating, it confuses the enemy in contact on a 6, destroys it if confused"},
    {.name = "warband", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, warband),
     .meaning = "+1 Attack pursuing, -1 after retreating; drive-back dice by its losses"},
    {.name = "shock", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, shock),
     .meaning = "on a long base: +1 Attack per stand charging or pursuing"},
    {.name = "scythed", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, scythed),
     .meaning = "fights one round and is removed; a loser it hit is confused"},
    {.name = "shieldwall", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, shieldwall),
     .meaning = "armour one better in the first round when charged"},
    {.name = "phalanx", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, phalanx),
     .meaning = "stands striking to a side or rear have base Attack 0"},
    {.name = "legion", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, legion),
     .meaning = "first round: +1 result per stand fighting to its front"},
    {.name = "maniple", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, maniple),
     .meaning = "a D6 per rear-supporting maniple stand; each 6 saves a hit"},
    {.name = "skirmish", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, skirmish),
     .meaning = "skirmishers: may evade a charge after shooting"},
    {.name = "pikes", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, pikes),
     .meaning = "defended in the first round against charging cavalry or chariots"},
    {.name = "no_character", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, no_character),
     .meaning = "no character joins it and it takes no magic item"},
    {.name = "hurt", .kind = OM_WM_TRAIT_ENUM, .offset = offsetof(om_wm_traits, hurt),
     .values = hurt_names, .n_values = N_OF(hurt_names),
     .meaning = "the hits from which a big monster is badly hurt"},
    {.name = "daemonic_instability", .kind = OM_WM_TRAIT_FLAG,
     .offset = offsetof(om_wm_traits, daemonic_instability),
     .meaning = "a D6 at the start of its own turns once it has lost a stand"},
    {.name = "war_wagon", .kind = OM_WM_TRAIT_FLAG, .offset = offsetof(om_wm_traits, war_wagon),
     .meaning = "a War Wagon: column or laager, only its wagon stand fights and shoots"},
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
