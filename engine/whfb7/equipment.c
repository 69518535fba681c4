/*
 * equipment.c: what weapons and armour do, as const tables (WHFB 7th edition,
 * Weapons > Special Weapon Rules, List of Weapons; Shooting > Taking Armour
 * Saves; Magic Items > Common Magic Items), plus the armour save arithmetic
 * and the unit strength chart. The resolver reads these rows; no weapon has
 * code of its own.
 */
#include <string.h>

#include "wh7_int.h"

/* Shorthands for the rows below: a weapon used as a plain hand weapon. */
#define PLAIN {0, 0, 0, 0, 1, false, false, true}

/* The close combat weapon table. Columns of om_wh7_weapon_rules: Strength
 * always, when charging, in the first turn; extra Attacks; ranks fighting;
 * strikes last; parry with a shield; allowed. */
static const om_wh7_weapon_entry om_wh7_weapon_table[OM_WH7_WEAPON_COUNT] = {
    [OM_WH7_WEAPON_HAND] = {"hand-weapon", "Hand weapon", false,
        {0, 0, 0, 0, 1, false, true, true}, PLAIN,
        "Weapons > Hand Weapons"},
    /* Two hand weapons give +1 Attack on foot only; a mounted model cannot
     * fight with them (Hand Weapons: "these rules only apply to warriors
     * fighting on foot"), so the mounted row is not allowed (check.c). */
    [OM_WH7_WEAPON_TWO_HAND] = {"additional-hand-weapon", "Additional hand weapon", false,
        {0, 0, 0, 1, 1, false, false, true}, {0, 0, 0, 0, 1, false, false, false},
        "Weapons > Hand Weapons > Fighting with two hand weapons"},
    [OM_WH7_WEAPON_GREAT] = {"great-weapon", "Great weapon", true,
        {2, 0, 0, 0, 1, true, false, true}, {1, 0, 0, 0, 1, true, false, true},
        "Weapons > Great Weapons (Infantry), Great Weapons (Mounted)"},
    [OM_WH7_WEAPON_FLAIL] = {"flail", "Flail", true,
        {0, 0, 2, 0, 1, false, false, true}, {0, 0, 2, 0, 1, false, false, true},
        "Weapons > Flails"},
    [OM_WH7_WEAPON_MORNING_STAR] = {"morning-star", "Morning star", false,
        {0, 0, 1, 0, 1, false, false, true}, {0, 0, 1, 0, 1, false, false, true},
        "Weapons > Morning Stars"},
    [OM_WH7_WEAPON_HALBERD] = {"halberd", "Halberd", true,
        {1, 0, 0, 0, 1, false, false, true}, {1, 0, 0, 0, 1, false, false, true},
        "Weapons > Halberds"},
    [OM_WH7_WEAPON_SPEAR] = {"spear", "Spear", false,
        {0, 0, 0, 0, 2, false, false, true}, {0, 1, 0, 0, 1, false, false, true},
        "Weapons > Spears (Infantry), Spears (Mounted); Special Weapon Rules > Fight in Ranks"},
    [OM_WH7_WEAPON_LANCE] = {"lance", "Lance", false,
        {0, 0, 0, 0, 1, false, false, false}, {0, 2, 0, 0, 1, false, false, true},
        "Weapons > Lances (Mounted Only)"},
    [OM_WH7_WEAPON_PISTOL] = {"pistol", "Pistol (hand-to-hand)", false,
        {0, 0, 0, 0, 1, false, true, true}, PLAIN,
        "Weapons > Pistol (Hand-to-Hand)"},
    [OM_WH7_WEAPON_BRACE_OF_PISTOLS] = {"brace-of-pistols", "Brace of pistols (hand-to-hand)",
        false, {0, 0, 0, 1, 1, false, false, true}, PLAIN,
        "Weapons > Pistol (Hand-to-Hand): a brace counts as two hand weapons"},
};

/* The missile weapon table (WHFB 7th edition, Weapons > Missile Weapons).
 * Columns: range, Strength (0: the user's), bonus to the user's Strength,
 * shots, multiple shots only within, armour piercing, move-or-fire, no long
 * range or moving penalty, always stand & shoot. */
static const om_wh7_missile_entry om_wh7_missile_table[OM_WH7_MISSILE_COUNT] = {
    [OM_WH7_MISSILE_NONE] = {"none", "None", 0, 0, 0, 0, 0, false, false, false, false, "-"},
    [OM_WH7_MISSILE_SHORTBOW] = {"shortbow", "Shortbow", 16, 3, 0, 1, 0, false, false, false,
        false, "Missile Weapons > Shortbows"},
    [OM_WH7_MISSILE_BOW] = {"bow", "Bow", 24, 3, 0, 1, 0, false, false, false, false,
        "Missile Weapons > Bows"},
    [OM_WH7_MISSILE_LONGBOW] = {"longbow", "Longbow", 30, 3, 0, 1, 0, false, false, false,
        false, "Missile Weapons > Longbows"},
    [OM_WH7_MISSILE_CROSSBOW] = {"crossbow", "Crossbow", 30, 4, 0, 1, 0, false, true, false,
        false, "Missile Weapons > Crossbows"},
    [OM_WH7_MISSILE_REPEATER_CROSSBOW] = {"repeater-crossbow", "Repeater crossbow", 24, 3, 0,
        2, 0, false, false, false, false, "Missile Weapons > Repeater Crossbows"},
    [OM_WH7_MISSILE_SLING] = {"sling", "Sling", 18, 3, 0, 2, 9, false, false, false, false,
        "Missile Weapons > Slings"},
    [OM_WH7_MISSILE_JAVELIN] = {"javelin", "Javelin", 8, 0, 0, 1, 0, false, false, true,
        false, "Missile Weapons > Javelins"},
    [OM_WH7_MISSILE_THROWING_STARS] = {"throwing-stars", "Throwing stars/knives", 6, 0, 0, 1,
        0, false, false, true, false, "Missile Weapons > Throwing Stars/Knives"},
    [OM_WH7_MISSILE_THROWING_AXES] = {"throwing-axes", "Throwing axes", 6, 0, 1, 1, 0, false,
        false, true, false, "Missile Weapons > Throwing Axes"},
    [OM_WH7_MISSILE_HANDGUN] = {"handgun", "Handgun", 24, 4, 0, 1, 0, true, true, false,
        false, "Missile Weapons > Handguns"},
    [OM_WH7_MISSILE_PISTOL] = {"pistol", "Pistol", 8, 4, 0, 1, 0, true, false, true, true,
        "Missile Weapons > Pistols (Shooting)"},
    [OM_WH7_MISSILE_BRACE_OF_PISTOLS] = {"brace-of-pistols", "Brace of pistols", 8, 4, 0, 2,
        0, true, false, true, true, "Missile Weapons > Pistols (Shooting)"},
};

const char *const om_wh7_troop_names[OM_WH7_TROOP_COUNT] = {
    "infantry", "monstrous-infantry", "cavalry", "monster", "war-machine"};
const char *const om_wh7_armour_names[OM_WH7_ARMOUR_COUNT] = {"none", "light", "heavy"};
const char *const om_wh7_magic_weapon_names[OM_WH7_MAGIC_WEAPON_COUNT] = {
    "none", "sword-of-striking", "sword-of-battle", "sword-of-might", "biting-blade"};
const char *const om_wh7_damage_names[OM_WH7_DAMAGE_COUNT] = {"1", "D3", "D6", "2", "3"};

/* Unit strength per model by troop type (WHFB 7th edition, Unit Strength >
 * Unit Strength Chart); 0 marks the types counted otherwise: a monster is its
 * starting Wounds, a war machine its crew (the models of the unit). */
static const uint8_t om_wh7_troop_unit_strength[OM_WH7_TROOP_COUNT] = {
    [OM_WH7_INFANTRY] = 1, [OM_WH7_MONSTROUS_INFANTRY] = 3, [OM_WH7_CAVALRY] = 2,
    [OM_WH7_MONSTER] = 0, [OM_WH7_WAR_MACHINE] = 1,
};

/* Armour saves (WHFB 7th edition, Shooting > Taking Armour Saves; Reference >
 * Armour): the save of the body armour alone, 7 for none. */
static const uint8_t om_wh7_armour_save_table[OM_WH7_ARMOUR_COUNT] = {
    [OM_WH7_ARMOUR_NONE] = 7, [OM_WH7_ARMOUR_LIGHT] = 6, [OM_WH7_ARMOUR_HEAVY] = 5,
};

/* Unit strength on a steed, and the bonus of riding a monstrous mount over
 * its Wounds (Unit Strength Chart: cavalry 2; ridden monsters +1). */
#define OM_WH7_US_ON_STEED 2u
#define OM_WH7_US_RIDDEN_BONUS 1u

/* Ranks behind the first that count for the bonus, and the width needed
 * (Combat Result Bonuses > Extra Rank). */
#define OM_WH7_RANK_BONUS_MAX 3u
#define OM_WH7_RANK_MIN_MODELS 5u

/* Movement above which a unit flees and pursues with 3D6 (Flee & Pursue). */
#define OM_WH7_FLEE_SLOW_MAX_M 6u

const om_wh7_weapon_entry *om_wh7_weapon_get(om_wh7_weapon w)
{
    return (unsigned)w < OM_WH7_WEAPON_COUNT ? &om_wh7_weapon_table[w] : NULL;
}

const om_wh7_weapon_entry *om_wh7_weapon_find(const char *id)
{
    for (unsigned w = 0; w < OM_WH7_WEAPON_COUNT; w++)
        if (strcmp(om_wh7_weapon_table[w].id, id) == 0)
            return &om_wh7_weapon_table[w];
    return NULL;
}

const om_wh7_missile_entry *om_wh7_missile_get(om_wh7_missile m)
{
    return (unsigned)m < OM_WH7_MISSILE_COUNT ? &om_wh7_missile_table[m] : NULL;
}

const om_wh7_missile_entry *om_wh7_missile_find(const char *id)
{
    for (unsigned m = 0; m < OM_WH7_MISSILE_COUNT; m++)
        if (strcmp(om_wh7_missile_table[m].id, id) == 0)
            return &om_wh7_missile_table[m];
    return NULL;
}

/* Whether the shield counts for this save: always against shooting and magic;
 * in close combat not while a two-handed weapon is used, unless the option
 * reads the slung shield as still counting (digest A4). */
static bool shield_counts(const om_wh7_equipment *e, const om_wh7_save_case *how)
{
    const om_wh7_weapon_entry *w = om_wh7_weapon_get(how->weapon);
    if (!e->shield && !e->enchanted_shield)
        return false;
    if (!how->close_combat || w == NULL || !w->two_handed)
        return true;
    return how->slung_shield_counts;
}

unsigned om_wh7_armour_save(const om_wh7_equipment *e, const om_wh7_save_case *how)
{
    const om_wh7_weapon_entry *w = om_wh7_weapon_get(how->weapon);
    int save = om_wh7_armour_save_table[e->armour < OM_WH7_ARMOUR_COUNT ? e->armour : 0];
    int improve = 0;

    /* Scaly skin "acts exactly like armour" and stacks with it: alone it is
     * the save; with armour it improves it by as many steps as it is better
     * than no save (Special Rules > Scaly Skin: 5+ skin and a shield is 4+). */
    if (e->scaly_skin >= 1 && e->scaly_skin <= 6)
        save = save >= (int)OM_WH7_NEVER ? e->scaly_skin
                                         : save - ((int)OM_WH7_NEVER - e->scaly_skin);
    if (shield_counts(e, how)) {
        /* The table's shield row gives 6+ alone; on top of armour it is +1. The
         * Enchanted Shield saves one better than a shield (5+ alone). */
        improve += e->enchanted_shield ? 2 : 1;
        if (how->close_combat && how->from_front && !how->mounted && w != NULL &&
            w->foot.parry)
            improve += 1;
    }
    if (how->steed)
        improve += 1;
    if (e->barding && how->steed)
        improve += 1;
    improve += e->save_bonus;
    /* With no armour the improvements count from "7+": a shield alone is 6+. */
    save -= improve;
    if (save >= (int)OM_WH7_NEVER)
        return OM_WH7_NEVER;
    return save < 1 ? 1u : (unsigned)save;
}

unsigned om_wh7_model_unit_strength(const om_wh7_unit *u)
{
    if (u->unit_strength > 0)
        return u->unit_strength;
    if (u->troop == OM_WH7_MONSTER)
        return u->profile.w > 0 ? u->profile.w : 1u;
    return om_wh7_troop_unit_strength[u->troop < OM_WH7_TROOP_COUNT ? u->troop : 0];
}

unsigned om_wh7_character_unit_strength(const om_wh7_character *c)
{
    if (c->unit_strength > 0)
        return c->unit_strength;
    if (c->mount.profile.name[0] == '\0')
        return 1;
    if (c->mount.profile.w >= 2)
        return c->mount.profile.w + OM_WH7_US_RIDDEN_BONUS;
    return OM_WH7_US_ON_STEED;
}

unsigned om_wh7_rank_bonus(unsigned models, unsigned files)
{
    unsigned ranks;
    if (files < OM_WH7_RANK_MIN_MODELS || models < files)
        return 0;
    ranks = (models - files) / files;
    /* An incomplete rear rank counts if it holds at least five models. */
    if ((models - files) % files >= OM_WH7_RANK_MIN_MODELS)
        ranks++;
    return ranks > OM_WH7_RANK_BONUS_MAX ? OM_WH7_RANK_BONUS_MAX : ranks;
}

unsigned om_wh7_flee_dice(unsigned m, bool flyer)
{
    return flyer || m > OM_WH7_FLEE_SLOW_MAX_M ? 3u : 2u;
}
