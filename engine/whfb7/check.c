/*
 * check.c: validation of a combat description before it is prepared.
 *
 * Every impossible value is rejected here, once, with the dotted field path a
 * scenario file would use ("a.unit.files", "b.unit.characters[0].profile.t")
 * and the reason, so that loaders can add the file and line and the resolver
 * can rely on its invariants. Limits come from the rules (WHFB 7th edition,
 * Characteristics; Units > Ranks & Files; Weapons; Characters > Joining and
 * Leaving Units; Psychology > Immune to Psychology) or from storage types.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wh7_int.h"

/* Every OM_WH7_RULE_* bit the engine knows (traits.c lists them by name). */
#define WH7_KNOWN_RULES ((OM_WH7_RULE_IMMUNE_POISON << 1) - 1u)
/* A stone thrower's nearest guess (War Machines > Stone Throwers: 12" to the
 * maximum). The other limits are wh7.h's (OM_WH7_MAX_*), which scenario files
 * document (scenarios/whfb7/wh7_keys.c). */
#define WH7_STONE_MIN_RANGE 12u
/* Room for a dotted field path. */
#define WH7_PATH 96

/* out = prefix + "." + name (truncated to WH7_PATH if it must be). */
static void join(char out[WH7_PATH], const char *prefix, const char *name)
{
    if (snprintf(out, WH7_PATH, "%s.%s", prefix, name) >= WH7_PATH)
        out[WH7_PATH - 1] = '\0';
}

/* Check value against [lo, hi]; the path is prefix + "." + name. */
static om_status range(om_wh7_check_failure *why, const char *prefix, const char *name,
                       unsigned value, unsigned lo, unsigned hi)
{
    char path[WH7_PATH];
    join(path, prefix, name);
    return om_check_range(why, path, value, lo, hi);
}

/* A profile: a name and nine characteristics of 0..10, Toughness and Wounds at
 * least 1 (Characteristics; Characteristics of 0: S, T or W of 0 is a dead
 * model). */
static om_status check_profile(om_wh7_check_failure *why, const char *prefix,
                               const om_wh7_profile *pr)
{
    char path[WH7_PATH];
    om_status st;
    if (pr->name[0] == '\0') {
        join(path, prefix, "name");
        return om_check_fail(why, path, "must name the profile");
    }
    if ((st = range(why, prefix, "m", pr->m, 0, OM_WH7_CHAR_MAX)) ||
        (st = range(why, prefix, "ws", pr->ws, 0, OM_WH7_CHAR_MAX)) ||
        (st = range(why, prefix, "bs", pr->bs, 0, OM_WH7_CHAR_MAX)) ||
        (st = range(why, prefix, "s", pr->s, 0, OM_WH7_CHAR_MAX)) ||
        (st = range(why, prefix, "t", pr->t, 1, OM_WH7_CHAR_MAX)) ||
        (st = range(why, prefix, "w", pr->w, 1, OM_WH7_CHAR_MAX)) ||
        (st = range(why, prefix, "i", pr->i, 0, OM_WH7_CHAR_MAX)) ||
        (st = range(why, prefix, "a", pr->a, 0, OM_WH7_CHAR_MAX)) ||
        (st = range(why, prefix, "ld", pr->ld, 0, OM_WH7_CHAR_MAX)))
        return st;
    return OM_OK;
}

static om_status check_traits(om_wh7_check_failure *why, const char *prefix,
                              const om_wh7_traits *t)
{
    char path[WH7_PATH];
    if (t->rules & ~(om_wh7_rules)WH7_KNOWN_RULES) {
        join(path, prefix, "rules");
        return om_check_fail(why, path, "has rule bits the engine does not know (0x%llx)",
                    (unsigned long long)(t->rules & ~(om_wh7_rules)WH7_KNOWN_RULES));
    }
    if ((unsigned)t->damage >= OM_WH7_DAMAGE_COUNT) {
        join(path, prefix, "damage");
        return om_check_fail(why, path, "unknown damage %d (1, D3, D6, 2 or 3)", (int)t->damage);
    }
    return range(why, prefix, "magic_resistance", t->magic_resistance, 0,
                 OM_WH7_MAX_MAGIC_RESISTANCE);
}

/* Equipment a model can use together (Weapons: lances are for mounted models
 * only; two hand weapons and the shield's parry are for models on foot;
 * barding needs a mount; one shield). */
static om_status check_equipment(om_wh7_check_failure *why, const char *prefix,
                                 const om_wh7_equipment *e, bool mounted)
{
    char path[WH7_PATH];
    const om_wh7_weapon_entry *w = om_wh7_weapon_get(e->weapon);
    om_status st;
    if (w == NULL) {
        join(path, prefix, "weapon");
        return om_check_fail(why, path, "unknown close combat weapon %d", (int)e->weapon);
    }
    if (!(mounted ? w->mounted.allowed : w->foot.allowed)) {
        join(path, prefix, "weapon");
        return om_check_fail(why, path, "a model %s cannot fight with the %s (%s)",
                    mounted ? "on a mount" : "on foot", w->id, w->section);
    }
    if (om_wh7_missile_get(e->missile) == NULL) {
        join(path, prefix, "missile");
        return om_check_fail(why, path, "unknown missile weapon %d", (int)e->missile);
    }
    if ((unsigned)e->armour >= OM_WH7_ARMOUR_COUNT) {
        join(path, prefix, "armour");
        return om_check_fail(why, path, "unknown armour %d (none, light or heavy)", (int)e->armour);
    }
    if (e->shield && e->enchanted_shield) {
        join(path, prefix, "enchanted_shield");
        return om_check_fail(why, path, "the Enchanted Shield is the model's shield: it cannot "
                    "carry a second one");
    }
    if (e->barding && !mounted) {
        join(path, prefix, "barding");
        return om_check_fail(why, path, "barding needs a mount (Movement > Barding)");
    }
    if ((unsigned)e->magic_weapon >= OM_WH7_MAGIC_WEAPON_COUNT) {
        join(path, prefix, "magic_weapon");
        return om_check_fail(why, path, "unknown magic weapon %d", (int)e->magic_weapon);
    }
    if (e->scaly_skin != 0 && (st = range(why, prefix, "scaly_skin", e->scaly_skin,
                                          OM_WH7_SAVE_BEST, OM_WH7_SAVE_WORST)))
        return st;
    if (e->ward != 0 &&
        (st = range(why, prefix, "ward", e->ward, OM_WH7_SAVE_BEST, OM_WH7_SAVE_WORST)))
        return st;
    if (e->save_bonus < -OM_WH7_MAX_SAVE_BONUS || e->save_bonus > OM_WH7_MAX_SAVE_BONUS) {
        join(path, prefix, "save_bonus");
        return om_check_fail(why, path, "must be -%d to %d (got %d)", OM_WH7_MAX_SAVE_BONUS,
                    OM_WH7_MAX_SAVE_BONUS, e->save_bonus);
    }
    return OM_OK;
}

static bool mounted(const om_wh7_mount *m) { return m->profile.name[0] != '\0'; }

static om_status check_mount(om_wh7_check_failure *why, const char *prefix,
                             const om_wh7_mount *m)
{
    char path[WH7_PATH];
    om_status st;
    if (!mounted(m))
        return OM_OK;
    join(path, prefix, "mount.profile");
    if ((st = check_profile(why, path, &m->profile)) != OM_OK)
        return st;
    join(path, prefix, "mount");
    return check_traits(why, path, &m->traits);
}

static om_status check_character(om_wh7_check_failure *why, const char *prefix,
                                 const om_wh7_character *h, const om_wh7_unit *u)
{
    char path[WH7_PATH];
    om_status st;
    om_wh7_rules mine = h->traits.rules | h->mount.traits.rules;
    om_wh7_rules unit = u->traits.rules | u->mount.traits.rules;
    join(path, prefix, "profile");
    if ((st = check_profile(why, path, &h->profile)) != OM_OK)
        return st;
    if ((st = range(why, prefix, "wounds_lost", h->wounds_lost, 0, h->profile.w - 1u)) ||
        (st = range(why, prefix, "wizard_level", h->wizard_level, 0, OM_WH7_MAX_WIZARD_LEVEL)) ||
        (st = range(why, prefix, "unit_strength", h->unit_strength, 0, OM_WH7_MAX_MODEL_US)))
        return st;
    join(path, prefix, "equipment");
    if ((st = check_equipment(why, path, &h->equipment, mounted(&h->mount))) != OM_OK)
        return st;
    if ((st = check_traits(why, prefix, &h->traits)) != OM_OK ||
        (st = check_mount(why, prefix, &h->mount)) != OM_OK)
        return st;
    /* Unbreakable and other models never join each other (Characters >
     * Psychology > Unbreakable); a unit with no rank and file is the
     * character alone and has no such rule to differ from. */
    if (u->models > 0 && ((mine ^ unit) & OM_WH7_RULE_UNBREAKABLE)) {
        join(path, prefix, "rules");
        return om_check_fail(why, path, "an %s character cannot join a%s unit (Characters > "
                    "Psychology > Unbreakable)",
                    (mine & OM_WH7_RULE_UNBREAKABLE) ? "Unbreakable" : "non-Unbreakable",
                    (unit & OM_WH7_RULE_UNBREAKABLE) ? "n Unbreakable" : " non-Unbreakable");
    }
    return OM_OK;
}

/* Whether a unit's or a mount's rules make it fly. */
static bool flies(om_wh7_rules rules) { return (rules & OM_WH7_RULE_FLYER) != 0; }

/*
 * The characters of a unit as the rules allow them: each army has one General
 * and one Battle Standard Bearer (Generals & Battle Standards > The General,
 * The Battle Standard), so one unit holds at most one of each; a character
 * joins infantry, cavalry, chariots or a war machine's crew, never a monster
 * or a unit of flyers, and a character on a flying mount joins no unit
 * (Characters > Characters Joining Units; Flyers).
 */
static om_status check_joined(om_wh7_check_failure *why, const char *prefix, const om_wh7_unit *u)
{
    char path[WH7_PATH], index[48];
    int general = -1, bsb = -1;
    for (unsigned i = 0; i < u->characters; i++) {
        const om_wh7_character *h = &u->character[i];
        snprintf(index, sizeof index, "characters[%u].%s", i,
                 h->general && general >= 0 ? "general" : "battle_standard");
        join(path, prefix, index);
        if (h->general && general >= 0)
            return om_check_fail(why, path, "an army has one General, and characters[%d] of "
                                 "this unit is the General already (Generals & Battle "
                                 "Standards > The General)", general);
        if (h->battle_standard && bsb >= 0)
            return om_check_fail(why, path, "an army has one Battle Standard Bearer, and "
                                 "characters[%d] of this unit already carries the battle "
                                 "standard (Generals & Battle Standards > The Battle Standard)",
                                 bsb);
        if (h->general)
            general = (int)i;
        if (h->battle_standard)
            bsb = (int)i;
        if (u->models == 0)
            continue;
        if (u->troop == OM_WH7_MONSTER) {
            snprintf(index, sizeof index, "characters[%u]", i);
            join(path, prefix, index);
            return om_check_fail(why, path, "a character never joins a monster (Characters > "
                                 "Characters Joining Units; Monsters)");
        }
        if (flies(u->traits.rules | u->mount.traits.rules)) {
            snprintf(index, sizeof index, "characters[%u]", i);
            join(path, prefix, index);
            return om_check_fail(why, path, "characters can never join units of flyers "
                                 "(Flyers; Characters > Characters Joining Units)");
        }
        if (flies(h->mount.traits.rules)) {
            snprintf(index, sizeof index, "characters[%u].mount", i);
            join(path, prefix, index);
            return om_check_fail(why, path, "a character on a flying mount cannot join a "
                                 "unit (Characters > Characters Joining Units)");
        }
    }
    return OM_OK;
}

/* The unit: profile, size, formation, command group, equipment, characters. */
static om_status check_unit(om_wh7_check_failure *why, const char *side, const om_wh7_unit *u)
{
    char prefix[WH7_PATH], path[WH7_PATH];
    unsigned command = (u->champion ? 1u : 0u) + (u->standard ? 1u : 0u) +
                       (u->musician ? 1u : 0u);
    unsigned total;
    om_status st;

    join(prefix, side, "unit");
    if ((unsigned)u->troop >= OM_WH7_TROOP_COUNT) {
        join(path, prefix, "troop");
        return om_check_fail(why, path, "unknown troop type %d", (int)u->troop);
    }
    if ((st = range(why, prefix, "models", u->models, 0, OM_WH7_MAX_MODELS)) ||
        (st = range(why, prefix, "characters", u->characters, 0, OM_WH7_MAX_CHARACTERS)))
        return st;
    total = (unsigned)u->models + u->characters;
    if (total == 0) {
        join(path, prefix, "models");
        return om_check_fail(why, path, "the unit has no model (no rank and file, no character)");
    }
    if (u->models > 0) {
        join(path, prefix, "profile");
        if ((st = check_profile(why, path, &u->profile)) != OM_OK)
            return st;
        if ((st = range(why, prefix, "wounds_lost", u->wounds_lost, 0, u->profile.w - 1u)))
            return st;
    }
    /* Ranks & Files: the front rank cannot be wider than the unit. */
    if ((st = range(why, prefix, "files", u->files, 1, total)) != OM_OK)
        return st;
    if (command > u->models) {
        join(path, prefix, "models");
        return om_check_fail(why, path, "%u rank-and-file models cannot include a command group of %u",
                    u->models, command);
    }
    if (u->war_banner && !u->standard) {
        join(path, prefix, "war_banner");
        return om_check_fail(why, path, "a War Banner needs a standard bearer");
    }
    if ((st = range(why, prefix, "unit_strength", u->unit_strength, 0, OM_WH7_MAX_MODEL_US)))
        return st;
    join(path, prefix, "equipment");
    if ((st = check_equipment(why, path, &u->equipment, mounted(&u->mount))) != OM_OK)
        return st;
    if ((st = check_traits(why, prefix, &u->traits)) != OM_OK ||
        (st = check_mount(why, prefix, &u->mount)) != OM_OK)
        return st;
    for (unsigned i = 0; i < u->characters; i++) {
        char index[24];
        snprintf(index, sizeof index, "characters[%u]", i);
        join(path, prefix, index);
        if ((st = check_character(why, path, &u->character[i], u)) != OM_OK)
            return st;
    }
    return check_joined(why, prefix, u);
}

/* Whether a character of the unit is the General (else the Battle Standard
 * Bearer, when `general` is false). */
static bool has_character(const om_wh7_unit *u, bool general)
{
    for (unsigned i = 0; i < u->characters; i++)
        if (general ? u->character[i].general : u->character[i].battle_standard)
            return true;
    return false;
}

/* Spell modifiers: small signed steps, a Weapon Skill of at most 10, a ward
 * against missiles of 2+ to 6+ (0: none). */
static om_status check_mods(om_wh7_check_failure *why, const char *side,
                            const om_wh7_modifiers *m)
{
    static const char *const names[6] = {"to_hit", "to_wound", "armour", "attacks", "strength",
                                         "toughness"};
    const int8_t v[6] = {m->to_hit, m->to_wound, m->armour, m->attacks, m->strength,
                         m->toughness};
    char prefix[WH7_PATH], path[WH7_PATH];
    om_status st;
    join(prefix, side, "mods");
    for (int i = 0; i < 6; i++)
        if (v[i] < -OM_WH7_MAX_MOD || v[i] > OM_WH7_MAX_MOD) {
            join(path, prefix, names[i]);
            return om_check_fail(why, path, "must be -%d to %d (got %d)", OM_WH7_MAX_MOD,
                                 OM_WH7_MAX_MOD, v[i]);
        }
    if (m->missile_ward != 0 && (st = range(why, prefix, "missile_ward", m->missile_ward,
                                            OM_WH7_SAVE_BEST, OM_WH7_SAVE_WORST)))
        return st;
    return range(why, prefix, "ws", m->ws, 0, OM_WH7_CHAR_MAX);
}

static om_status check_side(om_wh7_check_failure *why, const char *name, const om_wh7_side *s)
{
    const om_wh7_unit *u = &s->unit;
    char path[WH7_PATH];
    om_status st;
    if ((st = check_unit(why, name, u)) != OM_OK)
        return st;
    if ((unsigned)s->arc >= OM_WH7_ARC_COUNT) {
        join(path, name, "arc");
        return om_check_fail(why, path, "unknown arc %d (front, flank or rear)", (int)s->arc);
    }
    if ((unsigned)s->pursue >= OM_WH7_PURSUE_COUNT) {
        join(path, name, "pursue");
        return om_check_fail(why, path, "unknown pursuit choice %d", (int)s->pursue);
    }
    if ((unsigned)s->response >= OM_WH7_RESPONSE_COUNT) {
        join(path, name, "response");
        return om_check_fail(why, path, "unknown charge response %d", (int)s->response);
    }
    if (s->contact > 0 &&
        (st = range(why, name, "contact", s->contact, 1, (unsigned)u->models + u->characters)))
        return st;
    if ((st = range(why, name, "general_ld", s->general_ld, 0, OM_WH7_CHAR_MAX)) ||
        (st = range(why, name, "friend_ld", s->friend_ld, 0, OM_WH7_CHAR_MAX)))
        return st;
    /* The General and the Battle Standard Bearer nearby are the army's own,
     * not in the unit: one of each to an army. */
    if (s->general_ld > 0 && has_character(u, true)) {
        join(path, name, "general_ld");
        return om_check_fail(why, path, "the army's General is in this unit, so no other "
                             "General is within 12\" (an army has one: Generals & Battle "
                             "Standards > The General)");
    }
    if (s->battle_standard_near && has_character(u, false)) {
        join(path, name, "battle_standard_near");
        return om_check_fail(why, path, "the army's Battle Standard Bearer is in this unit, so "
                             "no other is within 12\" (an army has one: Generals & Battle "
                             "Standards > The Battle Standard)");
    }
    /* The crew move their machine as skirmishers but never charge. */
    if (s->charging && u->troop == OM_WH7_WAR_MACHINE) {
        join(path, name, "charging");
        return om_check_fail(why, path, "a war machine and its crew cannot charge, not even if "
                             "frenzied (War Machines > Movement)");
    }
    /* A charge is the unit's move (Movement > Charge!): `moved` is a move
     * without one, and the side that defends an obstacle is the charged. */
    if (s->charging && s->moved) {
        join(path, name, "moved");
        return om_check_fail(why, path, "the unit charged: its charge is its move, and moved "
                             "is for a unit that moved without charging (Movement)");
    }
    if (s->charging && s->defended_obstacle) {
        join(path, name, "defended_obstacle");
        return om_check_fail(why, path, "the unit charged, so it does not defend an obstacle: "
                             "the charged unit does (Close Combat > Defended Obstacles)");
    }
    return check_mods(why, name, &s->mods);
}

/* The volley kind: side A shoots with a missile weapon or a war machine
 * (War Machines: a machine that moved cannot fire; guesses within range,
 * 12" at least for a stone thrower). */
static om_status check_volley(om_wh7_check_failure *why, const om_wh7_combat *c)
{
    const om_wh7_side *a = &c->side[0];
    const om_wh7_machine_entry *m = om_wh7_machine_get(a->machine);
    om_status st;
    if (m == NULL)
        return om_check_fail(why, "a.machine", "unknown war machine %d", (int)a->machine);
    if (a->machine == OM_WH7_MACHINE_NONE) {
        if (a->unit.equipment.missile == OM_WH7_MISSILE_NONE)
            return om_check_fail(why, "a.unit.equipment.missile", "a volley needs a missile weapon or "
                        "a war machine");
        return OM_OK;
    }
    if (a->unit.troop != OM_WH7_WAR_MACHINE)
        return om_check_fail(why, "a.machine", "only a war-machine unit fires a %s", m->id);
    if (a->moved)
        return om_check_fail(why, "a.moved", "a war machine cannot fire after moving (War Machines)");
    if (a->machine == OM_WH7_MACHINE_GRAPESHOT)
        return range(why, "a", "template_models", a->template_models, 0,
                     c->side[1].unit.models);
    if ((st = range(why, "a", "target_in", a->target_in, 1, m->range_in)) != OM_OK)
        return st;
    if (a->machine == OM_WH7_MACHINE_BOLT_THROWER)
        return OM_OK;
    return range(why, "a", "guess_in", a->guess_in,
                 a->machine == OM_WH7_MACHINE_STONE_THROWER ? WH7_STONE_MIN_RANGE : 1u,
                 m->range_in);
}

/* The magic kind (The Magic Phase: levels 1-4, at most level + 1 power dice,
 * two more with a Power Stone; casting values 3 to 15). */
static om_status check_magic(om_wh7_check_failure *why, const om_wh7_combat *c)
{
    const om_wh7_magic *m = &c->magic;
    const om_wh7_spell *sp;
    om_status st;
    if ((unsigned)m->lore >= OM_WH7_LORE_COUNT)
        return om_check_fail(why, "magic.lore", "unknown lore %d", (int)m->lore);
    if ((st = range(why, "magic", "spell", m->spell, 1, OM_WH7_SPELLS_PER_LORE)) ||
        (st = range(why, "magic", "level", m->level, 1, OM_WH7_MAX_WIZARD_LEVEL)))
        return st;
    if (m->dice < 1 || m->dice > m->level + 1u + (m->power_stone ? OM_WH7_POWER_STONE_DICE : 0u))
        return om_check_fail(why, "magic.dice", "a level %u wizard rolls 1 to %u power dice%s (got %u)",
                    m->level, m->level + 1u + (m->power_stone ? OM_WH7_POWER_STONE_DICE : 0u),
                    m->power_stone ? " with a Power Stone" : "", m->dice);
    sp = om_wh7_spell_get(m->lore, m->spell);
    if (sp->casting_value == 0 && m->casting_value == 0)
        return om_check_fail(why, "magic.casting_value", "the casting value of '%s' is illegible in the "
                    "rulebook (digest A15): the scenario must give it", sp->id);
    if (m->casting_value != 0 &&
        (st = range(why, "magic", "casting_value", m->casting_value, OM_WH7_MIN_CV, OM_WH7_MAX_CV)))
        return st;
    if ((st = check_profile(why, "magic.caster", &m->caster)) ||
        (st = range(why, "magic", "dispel_dice", m->dispel_dice, 0, OM_WH7_MAX_MAGIC_DICE)) ||
        (st = range(why, "magic", "cast_bonus", m->cast_bonus, 0, OM_WH7_MAX_MAGIC_BONUS)) ||
        (st = range(why, "magic", "dispel_bonus", m->dispel_bonus, 0, OM_WH7_MAX_MAGIC_BONUS)) ||
        (st = range(why, "magic", "caster_contacts", m->caster_contacts, 0,
                    c->side[0].unit.models)))
        return st;
    if (m->caster_ward != 0)
        return range(why, "magic", "caster_ward", m->caster_ward, OM_WH7_SAVE_BEST,
                     OM_WH7_SAVE_WORST);
    return OM_OK;
}

/* Whether a side can flee as a charge response: not if immune to psychology
 * (Psychology > Immune to Psychology), frenzied or unbreakable. The unit's own
 * rules decide (a joined character's immunity does not pass to it); a lone
 * character's are his. */
static bool may_flee(const om_wh7_side *s)
{
    om_wh7_rules r = s->unit.traits.rules | s->unit.mount.traits.rules;
    if (s->unit.models == 0)
        for (unsigned i = 0; i < s->unit.characters; i++)
            r |= s->unit.character[i].traits.rules | s->unit.character[i].mount.traits.rules;
    return !(r & (OM_WH7_RULE_ITP | OM_WH7_RULE_UNBREAKABLE | OM_WH7_RULE_UNDEAD |
                  OM_WH7_RULE_FRENZY));
}

om_status om_wh7_check(const om_wh7_combat *c, om_wh7_check_failure *why)
{
    static const char *const names[2] = {"a", "b"};
    om_status st;
    if ((unsigned)c->kind >= OM_WH7_KIND_COUNT)
        return om_check_fail(why, "kind", "unknown kind %d", (int)c->kind);
    for (int s = 0; s < 2; s++)
        if ((st = check_side(why, names[s], &c->side[s])) != OM_OK)
            return st;
    if (c->side[0].charging && c->side[1].charging)
        return om_check_fail(why, "b.charging", "both sides cannot charge each other");
    if (c->side[0].high_ground && c->side[1].high_ground)
        return om_check_fail(why, "b.high_ground", "only one side can fight from higher ground");
    for (int s = 0; s < 2; s++) {
        const om_wh7_side *me = &c->side[s];
        char path[WH7_PATH];
        if (me->response == OM_WH7_RESPONSE_HOLD)
            continue;
        join(path, names[s], "response");
        if (!c->side[1 - s].charging)
            return om_check_fail(why, path, "a charge response needs the other side to charge");
        if (me->response == OM_WH7_RESPONSE_FLEE && !may_flee(me))
            return om_check_fail(why, path, "a unit immune to psychology never flees as a charge "
                        "response (Psychology > Immune to Psychology)");
        if (me->response == OM_WH7_RESPONSE_STAND_AND_SHOOT &&
            me->unit.equipment.missile == OM_WH7_MISSILE_NONE)
            return om_check_fail(why, path, "stand and shoot needs a missile weapon (a war machine's "
                        "crew shoots with its own weapons only)");
    }
    if (c->kind == OM_WH7_KIND_VOLLEY && (st = check_volley(why, c)) != OM_OK)
        return st;
    if (c->kind == OM_WH7_KIND_MAGIC && (st = check_magic(why, c)) != OM_OK)
        return st;
    return range(why, "options", "max_rounds", c->options.max_rounds, 0, OM_WH7_MAX_ROUNDS_LIMIT);
}
