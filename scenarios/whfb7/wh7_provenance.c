/*
 * wh7_provenance.c: a WHFB 7th edition scenario as resolved, as JSON, stored
 * in every result file (attribute options_json) so a file says exactly what
 * was simulated, defaults included: the kind, both sides with their units
 * (profiles, equipment, rules, mounts, characters) and what the geometry
 * decided, the casting attempt, and under "options" every entry of the
 * engine's registry of ambiguous rules (engine/whfb7/options.c; `oddsmaster
 * list --options`): the switches with their values, the fixed readings with
 * their text.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "wh7.h"
#include "wh7_game_int.h"
#include "wh7_scenario.h"

/* The name of value v of a table of n names, or "?" (the JSON is written
 * after the engine's check, which refuses such values). */
static const char *name_of(const char *const *names, size_t n, unsigned v)
{
    return v < n ? names[v] : "?";
}

static json_t *profile_json(const om_wh7_profile *p)
{
    return json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "name", p->name, "m",
                     p->m, "ws", p->ws, "bs", p->bs, "s", p->s, "t", p->t, "w", p->w, "i", p->i,
                     "a", p->a, "ld", p->ld);
}

/* The ids of the rule bits set, in the registry's order. */
static json_t *rules_json(om_wh7_rules rules)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < om_wh7_special_count(); i++)
        if (rules & om_wh7_special_at(i)->flag)
            json_array_append_new(a, json_string(om_wh7_special_at(i)->id));
    return a;
}

static json_t *traits_json(json_t *o, const om_wh7_traits *t)
{
    if (o) {
        json_object_set_new(o, "rules", rules_json(t->rules));
        json_object_set_new(o, "damage",
                            json_string(name_of(om_wh7_damage_names, OM_WH7_DAMAGE_COUNT,
                                                t->damage)));
        json_object_set_new(o, "magic_resistance", json_integer(t->magic_resistance));
    }
    return o;
}

static json_t *equipment_json(const om_wh7_equipment *e)
{
    const om_wh7_weapon_entry *w = om_wh7_weapon_get(e->weapon);
    const om_wh7_missile_entry *m = om_wh7_missile_get(e->missile);
    return json_pack("{s:s, s:s, s:s, s:b, s:b, s:b, s:i, s:i, s:i, s:s}", "weapon",
                     w ? w->id : "?", "missile", m ? m->id : "?", "armour",
                     name_of(om_wh7_armour_names, OM_WH7_ARMOUR_COUNT, e->armour), "shield",
                     e->shield, "enchanted_shield", e->enchanted_shield, "barding", e->barding,
                     "scaly_skin", e->scaly_skin, "ward", e->ward, "save_bonus", e->save_bonus,
                     "magic_weapon",
                     name_of(om_wh7_magic_weapon_names, OM_WH7_MAGIC_WEAPON_COUNT,
                             e->magic_weapon));
}

/* A mount, or null. */
static json_t *mount_json(const om_wh7_mount *m)
{
    if (m->profile.name[0] == '\0')
        return json_null();
    return traits_json(json_pack("{s:o}", "profile", profile_json(&m->profile)), &m->traits);
}

static json_t *character_json(const om_wh7_character *h)
{
    json_t *o = json_pack("{s:o, s:o, s:o, s:i, s:i, s:b, s:b, s:i}", "profile",
                          profile_json(&h->profile), "equipment", equipment_json(&h->equipment),
                          "mount", mount_json(&h->mount), "unit_strength", h->unit_strength,
                          "wounds_lost", h->wounds_lost, "general", h->general,
                          "battle_standard", h->battle_standard, "wizard_level",
                          h->wizard_level);
    return traits_json(o, &h->traits);
}

static json_t *unit_json(const om_wh7_unit *u)
{
    json_t *chars = json_array();
    json_t *o;
    for (unsigned i = 0; chars && i < u->characters; i++)
        json_array_append_new(chars, character_json(&u->character[i]));
    o = json_pack("{s:o, s:s, s:i, s:i, s:i, s:b, s:b, s:b, s:b, s:i, s:i, s:o, s:o, s:o}",
                  "profile", profile_json(&u->profile), "troop",
                  name_of(om_wh7_troop_names, OM_WH7_TROOP_COUNT, u->troop), "models",
                  u->models, "files", u->files, "wounds_lost", u->wounds_lost, "champion",
                  u->champion, "standard", u->standard, "musician", u->musician, "war_banner",
                  u->war_banner, "unit_strength", u->unit_strength, "points", u->points,
                  "equipment", equipment_json(&u->equipment), "mount", mount_json(&u->mount),
                  "characters", chars);
    return traits_json(o, &u->traits);
}

static json_t *mods_json(const om_wh7_modifiers *m)
{
    return json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:b, s:i, s:b, s:b, s:i, s:b}",
                     "to_hit", m->to_hit, "to_wound", m->to_wound, "armour", m->armour,
                     "attacks", m->attacks, "strength", m->strength, "toughness", m->toughness,
                     "ws", m->ws, "reroll_ones", m->reroll_ones, "leadership", m->leadership,
                     "halve_flee", m->halve_flee, "mounts_idle", m->mounts_idle,
                     "missile_ward", m->missile_ward, "soaked", m->soaked);
}

/* The spells of a side (comma-separated ids) as an array. */
static json_t *spells_json(const char *list)
{
    json_t *a = json_array();
    for (const char *p = list; a && *p;) {
        size_t n = strcspn(p, ",");
        json_array_append_new(a, json_stringn(p, n));
        p += n + (p[n] == ',');
    }
    return a;
}

static json_t *side_json(const om_wh7_side *s, const om_wh7_side_info *info)
{
    const om_wh7_machine_entry *m = om_wh7_machine_get(s->machine);
    json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:o, s:b, s:s, s:i, s:b, s:b, s:b, s:i, s:b}",
                          "name", info->name, "from", info->from, "profile_id", info->profile,
                          "character_points", (int)info->character_points, "unit",
                          unit_json(&s->unit), "charging", s->charging, "arc",
                          name_of(om_wh7_arc_names, OM_WH7_ARC_COUNT, s->arc), "contact",
                          s->contact, "high_ground", s->high_ground, "moved", s->moved,
                          "defended_obstacle", s->defended_obstacle, "general_ld", s->general_ld,
                          "battle_standard_near", s->battle_standard_near);
    json_t *more = json_pack(
        "{s:s, s:s, s:i, s:i, s:i, s:i, s:b, s:b, s:b, s:s, s:i, s:s, s:i, s:i, s:i, s:i, s:i}",
        "pursue", name_of(om_wh7_pursue_names, OM_WH7_PURSUE_COUNT, s->pursue), "response",
        name_of(om_wh7_response_names, OM_WH7_RESPONSE_COUNT, s->response), "gap_in", s->gap_in,
        "flee_blocked_in", s->flee_blocked_in, "friend_ld", s->friend_ld, "shooters",
        s->shooters, "on_hill", s->on_hill, "long_range", s->long_range, "multiple_shots",
        s->multiple_shots, "cover", name_of(om_wh7_cover_names, OM_WH7_COVER_COUNT, s->cover),
        "target_in", s->target_in, "machine", m ? m->id : "?", "guess_in", s->guess_in,
        "template_models", s->template_models, "template_partial", s->template_partial,
        "base_width_mm", s->base_width_mm, "base_depth_mm", s->base_depth_mm);
    if (o == NULL || more == NULL || json_object_update(o, more) != 0) {
        json_decref(o);
        json_decref(more);
        return NULL;
    }
    json_decref(more);
    json_object_set_new(o, "spells", spells_json(info->spells));
    json_object_set_new(o, "mods", mods_json(&s->mods));
    return o;
}

static json_t *magic_json(const om_wh7_scenario *s)
{
    const om_wh7_magic *m = &s->combat.magic;
    if (s->combat.kind != OM_WH7_KIND_MAGIC)
        return json_null();
    return json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:b, s:i, s:i, s:i, s:b, s:b, s:o, s:i, "
                     "s:i}",
                     "spell", s->spell, "lore",
                     name_of(om_wh7_lore_names, OM_WH7_LORE_COUNT, m->lore), "number", m->spell,
                     "casting_value", m->casting_value, "level", m->level, "dice", m->dice,
                     "power_stone", m->power_stone, "cast_bonus", m->cast_bonus, "dispel_dice",
                     m->dispel_dice, "dispel_bonus", m->dispel_bonus, "dispel_scroll",
                     m->dispel_scroll, "in_feature", m->in_feature, "caster",
                     profile_json(&m->caster), "caster_ward", m->caster_ward, "caster_contacts",
                     m->caster_contacts);
}

/* Every reading of the registry: a switch as its value (true/false or a
 * number), a fixed reading as its text. */
static json_t *options_json(const om_wh7_options *o)
{
    json_t *j = json_object();
    for (size_t i = 0; j && i < om_wh7_option_count(); i++) {
        const om_wh7_option *opt = om_wh7_option_at(i);
        char buf[32];
        const char *v = om_wh7_option_value(o, opt, buf, sizeof buf);
        json_t *val = opt->offset == OM_WH7_OPTION_FIXED ? json_string(opt->default_value)
                      : strcmp(v, "true") == 0           ? json_true()
                      : strcmp(v, "false") == 0          ? json_false()
                                                         : json_integer(strtol(v, NULL, 10));
        json_object_set_new(j, opt->name, val);
    }
    return j;
}

om_status om_wh7_provenance_json(const om_wh7_scenario *s, char **out)
{
    const om_wh7_combat *c = &s->combat;
    json_t *root = json_pack("{s:s, s:s, s:s, s:b, s:o, s:o, s:o, s:o}", "game", "whfb7",
                             "ruleset", OM_WH7_RULESET, "kind",
                             name_of(om_wh7_kind_names, OM_WH7_KIND_COUNT, c->kind), "challenge",
                             c->challenge, "a", side_json(&c->side[0], &s->side[0]), "b",
                             side_json(&c->side[1], &s->side[1]), "magic", magic_json(s),
                             "options", options_json(&c->options));
    *out = root ? json_dumps(root, JSON_COMPACT) : NULL;
    json_decref(root);
    if (*out == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory writing the run options as JSON");
    return OM_OK;
}
