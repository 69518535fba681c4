/*
 * wm_provenance.c: the resolved engagement and rule switches of a run as JSON, stored
 * in every result file (attribute options_json) so a file says exactly what was
 * simulated, defaults included: every value of both sides (the unit, and every
 * side key of the table in wm_keys.h), the kind, the rule
 * set's switches, and under "options" every entry of the engine's registry of
 * ambiguous rules (options.c of the engine; `oddsmaster list --options`), the
 * switches with their value and the fixed readings with their text.
 */
#include "wm_provenance.h"

#include "wm_keys.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* The name of value v of a table of n names, or "?" for a value the engine's
 * check would have refused (the JSON is written after it). */
static const char *name_of(const char *const *names, size_t n, unsigned v)
{
    return v < n ? names[v] : "?";
}

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

/* Traits as an object of the traits set: a flag as true, a modifier or score
 * as its number, an enumeration as its value's name. */
static json_t *traits_json(const om_wm_traits *t)
{
    json_t *j = json_object();
    for (size_t i = 0; j && i < om_wm_trait_count(); i++) {
        const om_wm_trait *d = om_wm_trait_at(i);
        const int v = om_wm_trait_get(t, d);
        const char *name = om_wm_trait_value_name(d, v);
        if (v == 0)
            continue;
        json_object_set_new(j, d->name, d->kind == OM_WM_TRAIT_FLAG ? json_true()
                                        : name                      ? json_string(name)
                                                                    : json_integer(v));
    }
    return j;
}

/* The modelled rules a unit carries, each once: its id, the traits it sets
 * under rule set rs (a joined character's or mount's: those it passes on,
 * om_wm_join_traits) and, for those, "joined": true. */
static json_t *rules_json(const om_wm_unit *u, const om_wm_ruleset *rs)
{
    json_t *a = json_array();
    for (unsigned i = 0; a && i < u->rule_count; i++) {
        const om_wm_special *sp = om_wm_special_at(u->rule[i]);
        const bool joined = (u->joined >> i) & 1u;
        om_wm_traits t = *om_wm_special_traits(sp, rs);
        json_t *r;
        if (joined)
            (void)om_wm_join_traits(sp, rs, &t);
        r = json_pack("{s:s, s:o}", "id", sp->id, "traits", traits_json(&t));
        if (r && joined)
            json_object_set_new(r, "joined", json_true());
        json_array_append_new(a, r);
    }
    return a;
}

/* A unit: its values; "rules", the modelled rules it carries with the traits
 * each sets under the run's rule set; "traits", all the traits the engine
 * uses (with those of side keys such as caractacus); and "unmodelled", the
 * rules of its army list the engine does not model, so that a result file
 * says what was left out. */
static json_t *unit_json(const om_wm_unit *u, const om_wm_ruleset *rs)
{
    return json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s:o, s:o}",
                     "name", u->name, "type", om_wm_troop_name(u->troop),
                     "stands", (int)u->stands,
                     "size", (int)om_wm_unit_size(u), "attacks", (int)u->attacks,
                     "shots", (int)u->shots, "range", (int)u->range_cm, "hits", (int)u->hits,
                     "armour", (int)u->armour, "pace", (int)u->pace_cm, "points", (int)u->points,
                     "rules", rules_json(u, rs), "traits", traits_json(&u->traits),
                     "unmodelled", id_list_json(u->unmodelled));
}

/* A side: its unit and every side key of the table (wm_keys.h) with the
 * value in force, defaults included: a switch as a boolean, a count as a
 * number, a name as its word. */
static json_t *side_json(const om_wm_side *s, const om_wm_ruleset *rs)
{
    json_t *j = json_pack("{s:o}", "unit", unit_json(&s->unit, rs));
    for (size_t i = 0; j && i < om_wm_side_key_count; i++) {
        const om_wm_side_key *k = &om_wm_side_keys[i];
        const unsigned v = om_wm_side_key_get(s, k);
        json_t *value = k->type == OM_WM_KEY_BOOL    ? json_boolean(v)
                        : k->type == OM_WM_KEY_COUNT ? json_integer(v)
                                                     : json_string(name_of(k->names->names,
                                                                           k->names->count, v));
        if (json_object_set_new(j, k->name, value) != 0) {
            json_decref(j);
            return NULL;
        }
    }
    return j;
}

/* Every entry of the engine's option registry: a switch as its value (a
 * boolean, or an integer: max_turns is recorded as the limit in force, the
 * engine's default of OM_WM_DEFAULT_MAX_TURNS when the scenario gives none),
 * a fixed reading as its text ("fixed: each stand is floored at 0"). */
static json_t *options_json(const om_wm_options *o)
{
    json_t *j = json_object();
    for (size_t i = 0; j && i < om_wm_option_count(); i++) {
        const om_wm_option *opt = om_wm_option_at(i);
        char buf[32];
        const char *v = om_wm_option_value(o, opt, buf, sizeof buf);
        json_t *value;
        if (opt->offset == OM_WM_OPTION_FIXED)
            value = json_string(opt->default_value);
        else if (strcmp(v, "true") == 0 || strcmp(v, "false") == 0)
            value = json_boolean(strcmp(v, "true") == 0);
        else if (strcmp(opt->name, "max_turns") == 0 && o->max_turns == 0)
            value = json_integer(OM_WM_DEFAULT_MAX_TURNS); /* the effective limit */
        else
            value = json_integer(strtoll(v, NULL, 10));
        if (json_object_set_new(j, opt->name, value) != 0) {
            json_decref(j);
            return NULL;
        }
    }
    return j;
}

om_status om_wm_provenance_json(const om_wm_engagement *e, char **out)
{
    const om_wm_ruleset *r = e->rules;
    json_t *charge = json_object(), *root;
    for (int t = 0; charge && t < OM_WM_TROOP_COUNT; t++)
        json_object_set_new(charge, om_wm_troop_name((om_wm_troop)t),
                            json_integer(r->charge_bonus[t]));
    root = json_pack("{s:s, s:s, s:{s:o, s:[i,i,i], s:b, s:b, s:b, s:b}, s:o, s:o, s:o}",
                     "ruleset", r->name,
                     "kind", name_of(om_wm_kind_names, OM_WM_KIND_COUNT,
                                     (unsigned)e->kind),
                     "rules", "charge_bonus", charge, "to_hit_open_defended_fortified",
                     (int)r->to_hit[0], (int)r->to_hit[1], (int)r->to_hit[2],
                     "supports_after_casualties", (int)r->supports_after_casualties,
                     "retreat_divisor_engaged_only", (int)r->retreat_divisor_engaged_only,
                     "confused_units_support", (int)r->confused_units_support,
                     "drive_back_discount_infantry_only",
                     (int)r->drive_back_discount_infantry_only,
                     "options", options_json(&e->options),
                     "a", side_json(&e->side[0], r), "b", side_json(&e->side[1], r));
    *out = root ? json_dumps(root, JSON_SORT_KEYS | JSON_COMPACT) : NULL;
    json_decref(root);
    if (*out == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory writing the run options as JSON");
    return OM_OK;
}

/* A point as [x, y]. */
static json_t *point_json(om_wm_vec p)
{
    return json_pack("[f,f]", p.x, p.y);
}

/* The id of table unit u, or "closest" for -1. */
static const char *target_id(const om_wm_turn_scenario *ts, int u)
{
    return u >= 0 ? ts->id[u] : "closest";
}

/* A plan, with the ids of its target and character. */
static json_t *plan_json(const om_wm_turn_scenario *ts, const om_wm_plan *p)
{
    const om_wm_table *t = &ts->turn.table;
    json_t *j = json_pack("{s:s, s:s, s:o, s:f, s:s?, s:i, s:i, s:s}",
                          "kind", name_of(om_wm_plan_names, OM_WM_PLAN_KIND_COUNT,
                                          (unsigned)p->kind),
                          "target", target_id(ts, p->target), "goal", point_json(p->goal),
                          "keep_cm", p->keep_cm,
                          "by", p->by >= 0 ? t->character[p->by].name : NULL,
                          "orders", (int)(p->orders ? p->orders : OM_WM_COMMAND_MAX_ORDERS),
                          "priority", (int)p->priority,
                          "initiative", name_of(om_wm_initiative_names, OM_WM_INITIATIVE_COUNT,
                                                (unsigned)p->initiative));
    return j;
}

/* A unit of a turn: its id, its side's values, where it stands, its policies. */
static json_t *turn_unit_json(const om_wm_turn_scenario *ts, unsigned u)
{
    static const char *const formations[] = {"line", "column", "irregular"};
    const om_wm_table_unit *tu = &ts->turn.table.unit[u];
    const om_wm_turn_unit *x = &ts->turn.unit[u];
    return json_pack("{s:s, s:s, s:o, s:o, s:f, s:s, s:i, s:i, s:i, s:i, s:o, s:s, s:b}",
                     "id", ts->id[u], "army", ts->side_name[tu->side],
                     "side", side_json(&x->side, ts->turn.rules), "at", point_json(tu->centre),
                     "facing", om_wm_table_facing_deg(tu->dir),
                     "formation", name_of(formations, 3, (unsigned)tu->formation),
                     "files", (int)tu->files, "hits", (int)tu->hits,
                     "table_traits", (int)tu->traits, "stands", (int)tu->stands,
                     "plan", plan_json(ts, &ts->turn.command.plan[u]),
                     "shoot", name_of(om_wm_shoot_policy_names, OM_WM_SHOOT_POLICY_COUNT,
                                      (unsigned)x->shoot),
                     "stand_and_shoot", (int)x->stand_and_shoot);
}

/* The Command options and the turn's fixed readings, added to `j`. */
static void turn_options_json(const om_wm_turn *t, json_t *j)
{
    for (size_t i = 0; j && i < om_wm_command_option_count(); i++) {
        const om_wm_option *opt = om_wm_command_option_at(i);
        const char *v = om_wm_command_option_value(&t->command.options, opt);
        json_object_set_new(j, opt->name, opt->offset == OM_WM_OPTION_FIXED
                                              ? json_string(opt->default_value)
                                              : json_boolean(strcmp(v, "true") == 0));
    }
    for (size_t i = 0; j && i < om_wm_turn_option_count(); i++)
        json_object_set_new(j, om_wm_turn_option_at(i)->name,
                            json_string(om_wm_turn_option_at(i)->default_value));
}

om_status om_wm_provenance_turn_json(const om_wm_turn_scenario *ts, char **out)
{
    const om_wm_turn *turn = &ts->turn;
    const om_wm_table *t = &turn->table;
    json_t *units = json_array(), *characters = json_array(), *brigades = json_array();
    json_t *terrain = json_array(), *options = options_json(&turn->options), *root;
    for (unsigned u = 0; units && u < t->units; u++)
        json_array_append_new(units, turn_unit_json(ts, u));
    for (unsigned c = 0; characters && c < t->characters; c++) {
        const om_wm_table_character *ch = &t->character[c];
        json_array_append_new(characters,
                              json_pack("{s:s, s:s, s:s, s:i, s:o, s:s?, s:s?, s:b}", "name",
                                        ch->name, "army", ts->side_name[ch->side], "kind",
                                        om_wm_character_kind_names[ch->kind], "command",
                                        (int)ch->command, "at", point_json(ch->at), "joined",
                                        ch->joined >= 0 ? ts->id[ch->joined] : NULL, "follow",
                                        ch->follow >= 0 ? ts->id[ch->follow] : NULL, "flying",
                                        (int)ch->flying));
    }
    for (unsigned b = 0; brigades && b < t->brigades; b++) {
        json_t *ids = json_array();
        for (unsigned i = 0; ids && i < t->brigade[b].count; i++)
            json_array_append_new(ids, json_string(ts->id[t->brigade[b].unit[i]]));
        json_array_append_new(brigades, json_pack("{s:o, s:o}", "units", ids, "plan",
                                                  plan_json(ts, &turn->command.brigade_plan[b])));
    }
    for (unsigned k = 0; terrain && k < t->terrain_pieces; k++) {
        json_t *pts = json_array();
        for (unsigned i = 0; pts && i < t->terrain[k].vertices; i++)
            json_array_append_new(pts, point_json(t->terrain[k].v[i]));
        json_array_append_new(terrain, json_pack("{s:s, s:o}", "kind",
                                                 om_wm_terrain_names[t->terrain[k].kind],
                                                 "points", pts));
    }
    turn_options_json(turn, options);
    root = json_pack("{s:s, s:s, s:s, s:s, s:{s:f, s:f}, s:o, s:o, s:o, s:o, s:o}",
                     "ruleset", turn->rules->name, "kind", "turn",
                     "moving", ts->side_name[turn->command.side],
                     "issue", name_of(om_wm_issue_names, OM_WM_ISSUE_COUNT,
                                      (unsigned)turn->command.issue),
                     "table", "width", t->width_cm, "depth", t->depth_cm, "units", units,
                     "characters", characters, "brigades", brigades, "terrain", terrain,
                     "options", options);
    *out = root ? json_dumps(root, JSON_SORT_KEYS | JSON_COMPACT) : NULL;
    json_decref(root);
    if (*out == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory writing the turn's options as JSON");
    return OM_OK;
}
