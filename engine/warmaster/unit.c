/*
 * unit.c: what the army lists' rules make of a unit before it fights: its
 * special rules as traits (each recorded once, for provenance), the rules a
 * joining character and its mount pass on (Warmaster Revolution, Generals,
 * Wizards & Heroes > Joining a Unit; rule_effects_fantasy, the
 * readings of docs/research/rule_effects_fantasy.md), the army lists Witch
 * Hunter Zealots hate, Caractacus's terrifying Chariots (Warmaster
 * Ancients, Britons army list > Special Rules) and a War Wagon's formation
 * (Kislev lists). Scenario loaders read names and numbers and call these; no
 * game rule is decided outside the engine.
 */
#include <stdio.h>
#include <string.h>

#include "wm.h"

/* The separator of the ids in om_wm_unit.unmodelled. */
#define UNMODELLED_SEP ", "

/* The index of registry row sp (om_wm_special_at). */
static size_t special_index(const om_wm_special *sp)
{
    size_t i = 0;
    while (i < om_wm_special_count() && om_wm_special_at(i) != sp)
        i++;
    return i;
}

/* Record registry row `index` on u, once; `joined` marks a row a joined
 * character or mount brought. */
static om_status record_rule(om_wm_unit *u, size_t index, bool joined)
{
    for (unsigned i = 0; i < u->rule_count; i++)
        if (u->rule[i] == index)
            return OM_OK;
    if (u->rule_count >= OM_WM_UNIT_RULES_MAX)
        return OM_ERROR(OM_EINVAL, "too many special rules: a unit records at most %d modelled "
                        "rules ('%s' is one more)", OM_WM_UNIT_RULES_MAX,
                        om_wm_special_at(index)->id);
    if (joined)
        u->joined |= (uint16_t)(1u << u->rule_count);
    u->rule[u->rule_count++] = (uint16_t)index;
    return OM_OK;
}

/* Merge traits `t` of rule `sp` into u and record the rule. */
static om_status add_traits(om_wm_unit *u, const om_wm_special *sp, const om_wm_traits *t,
                            bool joined)
{
    const size_t index = special_index(sp);
    om_wm_traits merged = u->traits;
    const om_wm_trait *d = NULL;
    om_status st;
    if (NEVER(index >= om_wm_special_count()))
        return OM_ERROR(OM_EINVAL, "special rule '%s' is not a row of the registry", sp->id);
    if (!om_wm_traits_merge(&merged, t, &d)) {
        const char *mine = om_wm_trait_value_name(d, om_wm_trait_get(t, d));
        const char *theirs = om_wm_trait_value_name(d, om_wm_trait_get(&u->traits, d));
        char a[16], b[16];
        snprintf(a, sizeof a, "%d", om_wm_trait_get(t, d));
        snprintf(b, sizeof b, "%d", om_wm_trait_get(&u->traits, d));
        return OM_ERROR(OM_EINVAL, "special rule '%s' disagrees with the unit's other rules on "
                        "%s: %s against %s", sp->id, d->name, mine ? mine : a,
                        theirs ? theirs : b);
    }
    if ((st = record_rule(u, index, joined)) != OM_OK)
        return st;
    u->traits = merged;
    return OM_OK;
}

om_status om_wm_unit_add_rule(om_wm_unit *u, const om_wm_ruleset *rs, const om_wm_special *sp)
{
    return add_traits(u, sp, om_wm_special_traits(sp, rs), false);
}

/* Is `id` one of the ids of the ", "-separated list? */
static bool list_has(const char *list, const char *id)
{
    const size_t n = strlen(id);
    for (const char *p = list; p && *p;) {
        const char *end = strstr(p, UNMODELLED_SEP);
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, id, n) == 0)
            return true;
        p = end ? end + strlen(UNMODELLED_SEP) : NULL;
    }
    return false;
}

bool om_wm_unit_unmodelled_has(const om_wm_unit *u, const char *id)
{
    return list_has(u->unmodelled, id);
}

om_status om_wm_unit_add_unmodelled(om_wm_unit *u, const char *id)
{
    const size_t cap = sizeof u->unmodelled, used = strlen(u->unmodelled);
    const size_t sep = used ? strlen(UNMODELLED_SEP) : 0, len = strlen(id);
    if (list_has(u->unmodelled, id))
        return OM_OK;
    if (used + sep + len + 1 > cap)
        return OM_ERROR(OM_EINVAL,
                        "too many special rules to record as not modelled ('%s' does not "
                        "fit after '%s')", id, u->unmodelled);
    /* Measured to fit above: the separator, then the id and its NUL. */
    memcpy(u->unmodelled + used, UNMODELLED_SEP, sep);
    memcpy(u->unmodelled + used + sep, id, len + 1);
    return OM_OK;
}

bool om_wm_join_traits(const om_wm_special *sp, const om_wm_ruleset *rs, om_wm_traits *out)
{
    om_wm_traits all = *om_wm_special_traits(sp, rs);
    memset(out, 0, sizeof *out);
    /* A big monster is badly hurt, not a character riding it: the rider has
     * no Hits of its own (army lists). */
    all.hurt = OM_WM_NEVER_HURT;
    /* What a leader gives the unit he fights with: a terrifying mount's terror
     * (Generals, Wizards & Heroes > Character Mounts), Hermann's extra die in
     * the charge (the German list gives it to the units he leads), Leonidas's
     * armour in combat and Ashurbanipal's re-roll (Ancients army lists). */
    out->terror = all.terror;
    out->charge_dice_delta = all.charge_dice_delta;
    out->save_delta_melee = all.save_delta_melee;
    out->rerolls_a_miss = all.rerolls_a_miss;
    if (om_wm_traits_empty(out) || !om_wm_traits_equal(out, &all)) {
        memset(out, 0, sizeof *out);
        return false;
    }
    return true;
}

om_status om_wm_side_join(om_wm_side *s, const om_wm_ruleset *rs, unsigned attacks,
                          char *const *ids, size_t n)
{
    unsigned bonus = s->attack_bonus + attacks;
    om_status st;
    s->attack_bonus = (uint8_t)(bonus < UINT8_MAX ? bonus : UINT8_MAX);
    for (size_t i = 0; i < n; i++) {
        const om_wm_special *sp = om_wm_special_find(ids[i]);
        om_wm_traits t;
        if (sp == NULL) {
            if ((st = om_wm_unit_add_unmodelled(&s->unit, ids[i])) != OM_OK)
                return st;
            continue;
        }
        /* Dragon fire and the Djinn's shots join the unit's shooting. */
        if (sp->joined_shots > s->extra_shots) {
            s->extra_shots = sp->joined_shots;
            s->extra_range_cm = sp->joined_range_cm;
        }
        /* Rules the engine models by default or through side keys (the Tomb
         * King's power: power; the Anvil: aura). */
        if (sp->how != OM_WM_BY_TRAITS)
            continue;
        st = om_wm_join_traits(sp, rs, &t) ? add_traits(&s->unit, sp, &t, true)
                                           : om_wm_unit_add_unmodelled(&s->unit, ids[i]);
        if (st != OM_OK)
            return st;
    }
    return OM_OK;
}

/* Army lists whose troops are Chaos or Undead to Witch Hunter Zealots
 * (rule_effects_fantasy A-29; Zealots exist in Revolution only). */
static const char *const chaos_or_undead_armies[] = {
    "chaos", "daemons", "beastmen", "chaos-dwarfs", "skaven", "tomb-kings", "vampire-counts",
};

bool om_wm_army_chaos_or_undead(const char *army_id)
{
    for (size_t i = 0; i < sizeof chaos_or_undead_armies / sizeof chaos_or_undead_armies[0]; i++)
        if (strcmp(chaos_or_undead_armies[i], army_id) == 0)
            return true;
    return false;
}

om_status om_wm_side_caractacus(om_wm_side *s, const om_wm_side *enemy, const om_wm_ruleset *rs,
                                bool enemy_army_has_chariots)
{
    if (!rs->caractacus || s->unit.troop != OM_WM_CHARIOT)
        return OM_ERROR(OM_EINVAL, "Caractacus leads Britons Chariots in Warmaster Ancients (this "
                        "unit is %s in %s)", om_wm_troop_name(s->unit.troop), rs->name);
    /* "All Chariots cause terror in armies that do not include Chariots" (A29). */
    if (enemy->unit.troop != OM_WM_CHARIOT && !enemy_army_has_chariots)
        s->unit.traits.terror = true;
    return OM_OK;
}

om_wm_formation om_wm_formation_default(const om_wm_unit *u)
{
    return u->traits.war_wagon && u->troop == OM_WM_ARTILLERY ? OM_WM_FORMATION_COLUMN
                                                               : OM_WM_FORMATION_NONE;
}

unsigned om_wm_active_stands_default(const om_wm_unit *u)
{
    return u->traits.war_wagon ? 1u : u->stands;
}

void om_wm_side_init(om_wm_side *s, const om_wm_unit *u)
{
    memset(s, 0, sizeof *s);
    s->unit = *u;
    s->position = OM_WM_OPEN;
    s->formation = om_wm_formation_default(u);
    s->fighting = s->shooting = (uint8_t)om_wm_active_stands_default(u);
    s->pursue = OM_WM_PURSUE_ALWAYS;
    s->behind = OM_WM_BEHIND_OPEN;
    s->magic = OM_WM_MAGIC_NONE;
    s->aura = OM_WM_AURA_NONE;
    s->power = OM_WM_POWER_NONE;
    s->line_stands = 1;
}
