/*
 * options.c: the resolved engagement and rule switches of a run as JSON, stored
 * in every result file (attribute options_json) so a file says exactly what was
 * simulated, defaults included.
 */
#include "options.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* The ids of a comma-separated list ("flagellants, fly") as a JSON array. */
static json_t *id_list_json(const char *list)
{
    json_t *a = json_array();
    for (const char *p = list; a && *p;) {
        size_t n = strcspn(p, ",");
        const char *next = p + n + (p[n] == ',');
        while (n > 0 && p[n - 1] == ' ')
            n--;
        if (n > 0)
            json_array_append_new(a, json_stringn(p, n));
        p = next;
        while (*p == ' ')
            p++;
    }
    return a;
}

/* A unit: its values; the engine rules it carries as "rule_flags" (the exact
 * OM_WM_RULE_* mask) and "rules" (every id of the engine's registry whose
 * effects the unit has: ids sharing an effect, such as shots-no-save and
 * light-artillery, all appear); and "unmodelled", the rules of its army list
 * the engine does not model, so that a result file says what was left out. */
static json_t *unit_json(const om_wm_unit *u)
{
    json_t *rules = json_array();
    for (size_t i = 0; rules && i < om_wm_special_count(); i++) {
        const uint32_t flag = om_wm_special_at(i)->flag;
        if (flag != 0 && (u->rules & flag) == flag)
            json_array_append_new(rules, json_string(om_wm_special_at(i)->id));
    }
    return json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s:I, s:o}",
                     "name", u->name, "type", om_wm_troop_name(u->troop),
                     "stands", (int)u->stands, "attacks", (int)u->attacks,
                     "shots", (int)u->shots, "range", (int)u->range_cm, "hits", (int)u->hits,
                     "armour", (int)u->armour, "pace", (int)u->pace_cm, "points", (int)u->points,
                     "rules", rules, "rule_flags", (json_int_t)u->rules,
                     "unmodelled", id_list_json(u->unmodelled));
}

static json_t *side_json(const om_wm_side *s)
{
    return json_pack("{s:o, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:b, s:b, s:b}",
                     "unit", unit_json(&s->unit), "position", om_wm_position_name(s->position),
                     "fighting", (int)s->fighting, "flanked", (int)s->flanked,
                     "supports", (int)s->supports, "support_units", (int)s->support_units,
                     "attack_bonus", (int)s->attack_bonus, "shooting", (int)s->shooting,
                     "charging", (int)s->charging, "confused", (int)s->confused,
                     "stand_and_shoot", (int)s->stand_and_shoot);
}

om_status om_run_options_json(const om_wm_engagement *e, char **out)
{
    const om_wm_ruleset *r = e->rules;
    json_t *charge = json_object(), *root;
    for (int t = 0; t < OM_WM_TROOP_COUNT; t++)
        json_object_set_new(charge, om_wm_troop_name((om_wm_troop)t),
                            json_integer(r->charge_bonus[t]));
    root = json_pack("{s:s, s:s, s:{s:o, s:[i,i,i], s:b, s:b}, s:o, s:o}",
                     "ruleset", r->name, "kind", e->kind == OM_WM_KIND_VOLLEY ? "volley" : "combat",
                     "rules", "charge_bonus", charge, "to_hit_open_defended_fortified",
                     (int)r->to_hit[0], (int)r->to_hit[1], (int)r->to_hit[2],
                     "supports_after_casualties", (int)r->supports_after_casualties,
                     "retreat_divisor_engaged_only", (int)r->retreat_divisor_engaged_only,
                     "a", side_json(&e->side[0]), "b", side_json(&e->side[1]));
    *out = root ? json_dumps(root, JSON_SORT_KEYS | JSON_COMPACT) : NULL;
    json_decref(root);
    if (*out == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory writing the run options as JSON");
    return OM_OK;
}
