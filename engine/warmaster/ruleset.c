/*
 * ruleset.c: the rule sets of the Warmaster family as data.
 *
 * Warmaster 1.1, Revolution and Ancients share one resolver; where they differ
 * the difference is a value in this table (the Warmaster 1.1 Rules Update and
 * the Warmaster Ancients rulebook against Warmaster Revolution, as the digests
 * compare them). Each entry cites its source: the rulebook section, and D5 or
 * A10 for the differences and ambiguities of the Warmaster digest, P18 and A-27
 * for the readings of docs/research/rule_effects_fantasy.md.
 */
#include <string.h>

#include "wm.h"

static const om_wm_ruleset om_wm_rulesets[OM_WM_RULES_COUNT] = {
    [OM_WM_RULES_WM11] = {
        .id = OM_WM_RULES_WM11,
        .name = "warmaster-1.1",
        .title = "Warmaster 1.1 (official Rules Update)",
        .short_title = "Warmaster 1.1",
        /* +1 charging in the open; monsters and chariots +1 more (Warmaster Revolution,
         * Combat > Attack Modifiers). */
        .charge_bonus = {[OM_WM_INFANTRY] = 1, [OM_WM_CAVALRY] = 1, [OM_WM_CHARIOT] = 2,
                         [OM_WM_MONSTER] = 2, [OM_WM_ARTILLERY] = 1, [OM_WM_MACHINE] = 1},
        /* 4+ open, 5+ defended, 6 fortified (Warmaster Revolution,
         * Shooting > Scores to Hit; Combat > How to Calculate Damage). */
        .to_hit = {[OM_WM_OPEN] = 4, [OM_WM_DEFENDED] = 5, [OM_WM_FORTIFIED] = 6},
        /* D5: "stands that fall casualty cannot support" (Warmaster 1.1 Rules
         * Update, P145 - Appendix 1, the worked example). */
        .supports_after_casualties = true,
        /* D6/A10: divide by engaged units only (Warmaster 1.1 Rules Update,
         * P145 - Appendix 1, the worked example). */
        .retreat_divisor_engaged_only = true,
        /* The 1.1 lists' badly hurt monsters have no "no longer engaged"
         * clause (rule_effects_fantasy P18; Combat > Combat Engagement). */
        .badly_hurt_when_engaged = true,
        /* The 1.1 Kislev list: infantry touching a laagered wagon counts as
         * defended against shooting, and in combat only when charged. */
        .laager_shelter_needs_charge = true,
        /* The Rules Update's Advance (P44) adds a paragraph to the rulebook's
         * and is silent on shooting; the rulebook's own text, which
         * Revolution keeps word for word, stands (fixed reading
         * advance_shooting). */
        .shoot_at_advancers = true,
        .magic_items = true,
        .characters_shoot = true,
        /* The Bone Thrower's bolt strikes 3 stands (Warmaster 1.1 Rules Update,
         * P69 - Undead Bone Thrower; D4). */
        .bolt_line_stands = 3,
        /* Fronts 80cm apart (Warmaster 1.1, Battlefields > Table Size and
         * Deployment Areas). */
        .deploy_apart_cm = 80,
    },
    [OM_WM_RULES_REV] = {
        .id = OM_WM_RULES_REV,
        .name = "warmaster-revolution",
        .title = "Warmaster Revolution",
        .short_title = "Warmaster Revolution",
        .charge_bonus = {[OM_WM_INFANTRY] = 1, [OM_WM_CAVALRY] = 1, [OM_WM_CHARIOT] = 2,
                         [OM_WM_MONSTER] = 2, [OM_WM_ARTILLERY] = 1, [OM_WM_MACHINE] = 1},
        .to_hit = {[OM_WM_OPEN] = 4, [OM_WM_DEFENDED] = 5, [OM_WM_FORTIFIED] = 6},
        /* Combat > Supporting Troops: count supports before removing casualties. */
        .supports_after_casualties = false,
        /* Combat > Retreats: all units of the losing side, supporters included. */
        .retreat_divisor_engaged_only = false,
        /* The Kislev list: "not destroyed if forced to retreat" (column). */
        .wagon_column_retreats = true,
        /* Combat > Advance: "An enemy unit that has been advanced upon can
         * shoot at the advancing unit in exactly the same way as a unit
         * shooting at chargers". */
        .shoot_at_advancers = true,
        .magic_items = true,
        .characters_shoot = true,
        /* The Revolution Dwarf list's Oathstone. */
        .oathstone = true,
        /* A Revolution bolt strikes up to 2 touching stands (Warmaster
         * Revolution, Artillery & Machines > Artillery > Bolt Thrower; D4). */
        .bolt_line_stands = 2,
        /* Fronts 80cm apart (Warmaster Revolution, Battlefields > Table Size
         * and Deployment Areas: "armies deploy along opposite table edges 80cm
         * apart"). */
        .deploy_apart_cm = 80,
    },
    [OM_WM_RULES_WMA] = {
        .id = OM_WM_RULES_WMA,
        .name = "warmaster-ancients",
        .title = "Warmaster Ancients (2005)",
        .short_title = "Warmaster Ancients",
        /* Warmaster Ancients, Combat > Attack Modifiers: the extra +1 belongs to
         * elephants and heavy or scythed chariots only (special rules), not to
         * light chariots; the chariot type therefore gets the basic +1 here. */
        .charge_bonus = {[OM_WM_INFANTRY] = 1, [OM_WM_CAVALRY] = 1, [OM_WM_CHARIOT] = 1,
                         [OM_WM_MONSTER] = 2, [OM_WM_ARTILLERY] = 1, [OM_WM_MACHINE] = 1},
        .to_hit = {[OM_WM_OPEN] = 4, [OM_WM_DEFENDED] = 5, [OM_WM_FORTIFIED] = 6},
        /* Warmaster Ancients, Combat > Support: counted after all attacks,
         * before casualties. */
        .supports_after_casualties = false,
        .retreat_divisor_engaged_only = false,
        /* The confused-unit effects (Warmaster Ancients, Confusion > Confused
         * Units) do not forbid support. */
        .confused_units_support = true,
        /* "If an infantry unit has one or more stands defended" (Warmaster
         * Ancients, Shooting > Driving Back Enemies). */
        .drive_back_discount_infantry_only = true,
        .bonus_after_stand_floor = true,
        .retreat_off_table_rolls = true,
        .impassable_halt_confuses = true,
        /* Warmaster Ancients, Combat > Advance: the unit advanced upon may
         * shoot at the advancing unit as at chargers. */
        .shoot_at_advancers = true,
        /* Ancients has no magic items, and its characters do not shoot. */
        .magic_items = false,
        .characters_shoot = false,
        /* Britons army list > Special Rules: Caractacus. */
        .caractacus = true,
        /* Light artillery: one die per stand in its line of flight, up to 3
         * (Special Rules > Light Artillery). */
        .bolt_line_stands = 3,
        /* Fronts at least 90cm apart, each army 45cm from the centre line
         * (Warmaster Ancients, The Battlefield > Deployment; its 80cm is the
         * speed variant of one side deploying first). */
        .deploy_apart_cm = 90,
    },
};

const om_wm_ruleset *om_wm_ruleset_find(const char *name)
{
    for (int i = 0; i < OM_WM_RULES_COUNT; i++)
        if (strcmp(om_wm_rulesets[i].name, name) == 0)
            return &om_wm_rulesets[i];
    return NULL;
}

const om_wm_ruleset *om_wm_ruleset_get(om_wm_ruleset_id id)
{
    return (unsigned)id < OM_WM_RULES_COUNT ? &om_wm_rulesets[id] : NULL;
}

/* Full pace by troop type (Warmaster Revolution, Movement > Movement Chart).
 * Machines vary by army list; 20cm is the common value and scenarios may
 * override it. */
static const uint8_t om_wm_pace_cm[OM_WM_TROOP_COUNT] = {
    [OM_WM_INFANTRY] = 20, [OM_WM_CAVALRY] = 30, [OM_WM_CHARIOT] = 30,
    [OM_WM_MONSTER] = 20,  [OM_WM_ARTILLERY] = 10, [OM_WM_MACHINE] = 20,
};

unsigned om_wm_troop_pace(om_wm_troop troop)
{
    return (unsigned)troop < OM_WM_TROOP_COUNT ? om_wm_pace_cm[troop] : 0;
}

const char *const om_wm_troop_names[OM_WM_TROOP_COUNT] = {
    "infantry", "cavalry", "chariot", "monster", "artillery", "machine",
};

const char *const om_wm_aura_names[OM_WM_AURA_COUNT] = {"none", "always", "roll"};
const char *const om_wm_formation_names[OM_WM_FORMATION_COUNT] = {"none", "column", "laager"};
const char *const om_wm_power_names[OM_WM_POWER_COUNT] = {"none", "tomb-king", "oathstone"};

const char *om_wm_troop_name(om_wm_troop troop)
{
    return (unsigned)troop < OM_WM_TROOP_COUNT ? om_wm_troop_names[troop] : "?";
}

const char *const om_wm_position_names[OM_WM_POSITION_COUNT] = {
    "open", "defended", "fortified",
};

const char *om_wm_position_name(om_wm_position position)
{
    return (unsigned)position < OM_WM_POSITION_COUNT ? om_wm_position_names[position] : "?";
}

/* Values of the scenario keys kind, pursue and behind (docs/scenario-format.md). */
const char *const om_wm_kind_names[OM_WM_KIND_COUNT] = {
    [OM_WM_KIND_COMBAT] = "combat", [OM_WM_KIND_VOLLEY] = "volley",
    [OM_WM_KIND_ENGAGEMENT] = "engagement",
};

const char *const om_wm_pursue_names[OM_WM_PURSUE_COUNT] = {
    [OM_WM_PURSUE_ALWAYS] = "always", [OM_WM_PURSUE_NEVER] = "never",
    [OM_WM_PURSUE_WHEN_AHEAD] = "when-ahead",
};
_Static_assert(OM_WM_PURSUE_WHEN_AHEAD + 1 == OM_WM_PURSUE_COUNT, "one name per policy");

const char *const om_wm_behind_names[OM_WM_BEHIND_COUNT] = {
    [OM_WM_BEHIND_OPEN] = "open",           [OM_WM_BEHIND_IMPASSABLE] = "impassable",
    [OM_WM_BEHIND_ENEMY] = "enemy",         [OM_WM_BEHIND_UNYIELDING] = "unyielding",
    [OM_WM_BEHIND_FRIENDS] = "friends",     [OM_WM_BEHIND_TABLE_EDGE] = "table-edge",
};

const char *const om_wm_magic_names[OM_WM_MAGIC_COUNT] = {
    [OM_WM_MAGIC_NONE] = "none",
    [OM_WM_MAGIC_BATTLE_BANNER] = "battle-banner",
    [OM_WM_MAGIC_SHIELDING] = "banner-of-shielding",
    [OM_WM_MAGIC_FORTITUDE] = "banner-of-fortitude",
    [OM_WM_MAGIC_STEADFASTNESS] = "banner-of-steadfastness",
    [OM_WM_MAGIC_DESTRUCTION] = "sword-of-destruction",
    [OM_WM_MAGIC_FATE] = "sword-of-fate",
    [OM_WM_MAGIC_CLEAVING] = "sword-of-cleaving",
    [OM_WM_MAGIC_MIGHT] = "sword-of-might",
};
