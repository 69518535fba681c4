/*
 * wh7_list.c: list files of WHFB 7th edition units (wh7_scenario.h): units
 * with a default equipment, size and points, by army, for `from: army/unit`
 * in scenarios and for matchup matrices (`oddsmaster matrix whfb7 ...`). The
 * rulebook prints no points (WHFB 7th edition, Victory!: "use 100 VP per
 * unit" without them; the digest's section 21), so points come from a list:
 * scenarios/lists/whfb7-sample.yaml is the sample one, compiled into the
 * program.
 *
 * LIST FILE FORMAT (schema "oddsmaster-whfb7-list/1"):
 *
 *   schema: oddsmaster-whfb7-list/1
 *   ruleset: whfb7
 *   name: Sample units              the list's name
 *   version: "1"                    its version
 *   note: ...                       optional: where its points come from
 *   armies:
 *     - id: empire                  the army's id (lower case, dashes)
 *       name: Empire                its name
 *       units:
 *         - id: swordsmen           the unit's id in its army
 *           machine: great-cannon   optional: what a war-machine unit fires
 *           profile: ...            then every key of a scenario's unit
 *                                   (wh7_load.c) but `from`; `models` and
 *                                   a profile (or all nine values) required
 *
 * Errors are those of a scenario, at the list file's lines, plus OM_EINVAL
 * for a unit or army id given twice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wh7_load_int.h"
#include "wh7_scenario.h"

/* Generated at build time from lists/whfb7-sample.yaml by embed_text.py. */
extern const char om_wh7_list_sample_yaml[];

typedef struct raw_army {
    char *id, *name;
    wh7_raw_unit *units;
    unsigned units_count;
} raw_army;

typedef struct raw_list {
    char *schema, *ruleset, *name, *version, *note;
    raw_army *armies;
    unsigned armies_count;
} raw_list;

#define REQ CYAML_FLAG_POINTER
#define OPT (CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL)

static const cyaml_schema_value_t unit_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, wh7_raw_unit, om_wh7_unit_fields_list),
};

static const cyaml_schema_field_t army_fields[] = {
    CYAML_FIELD_STRING_PTR("id", REQ, raw_army, id, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("name", REQ, raw_army, name, 0, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("units", CYAML_FLAG_POINTER, raw_army, units, &unit_entry, 1,
                         CYAML_UNLIMITED),
    CYAML_FIELD_END
};

static const cyaml_schema_value_t army_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, raw_army, army_fields),
};

static const cyaml_schema_field_t list_fields[] = {
    CYAML_FIELD_STRING_PTR("schema", REQ, raw_list, schema, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("ruleset", REQ, raw_list, ruleset, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("name", REQ, raw_list, name, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("version", REQ, raw_list, version, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("note", OPT, raw_list, note, 0, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("armies", CYAML_FLAG_POINTER, raw_list, armies, &army_entry, 1,
                         CYAML_UNLIMITED),
    CYAML_FIELD_END
};

static const cyaml_schema_value_t list_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, raw_list, list_fields),
};

#undef REQ
#undef OPT

static const om_yaml_doc list_doc = {
    .schema = OM_WH7_LIST_SCHEMA,
    .what = "a WHFB 7th edition list file",
    .keys = "schema, ruleset, name, version, armies",
    .top = &list_schema,
    .int_keys = om_wh7_int_keys,
    .bool_keys = om_wh7_bool_keys,
    .list_expects = "a list",
    .entry_expects = "a name",
};

/* An id of letters, digits and dashes, 1..max bytes, at prefix.id. */
static om_status conv_id(const om_yaml_ctx *c, const char *prefix, const char *id, size_t max)
{
    size_t n = strlen(id);
    if (n == 0 || n > max || strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789-") != n)
        return om_yaml_fail_at(c, OM_EINVAL, 0, prefix, "id",
                               "'%s' is not an id: 1 to %zu lower-case letters, digits or "
                               "dashes", id, max);
    return OM_OK;
}

/* Unit u of army a (at armies[ai].units[ui]) into *e. */
static om_status conv_entry(const wh7_conv *cv, const raw_army *a, unsigned ai, unsigned ui,
                            om_wh7_list_unit *e)
{
    const wh7_raw_unit *r = &a->units[ui];
    char up[OM_YAML_PATH_MAX];
    om_wh7_side_info info;
    om_status st;

    snprintf(up, sizeof up, "armies[%u].units[%u]", ai, ui);
    memset(e, 0, sizeof *e);
    memset(&info, 0, sizeof info);
    if ((st = conv_id(cv->c, up, r->id, sizeof e->id - sizeof e->army - 1)) ||
        (st = om_wh7_conv_unit(cv, up, r, false, &e->unit, &info)))
        return st;
    if (r->machine) {
        for (unsigned k = 0; k < OM_WH7_MACHINE_COUNT; k++)
            if (strcmp(om_wh7_machine_get((om_wh7_machine)k)->id, r->machine) == 0)
                e->machine = (om_wh7_machine)k;
        if (e->machine == OM_WH7_MACHINE_NONE)
            return om_yaml_fail_at(cv->c, OM_EINVAL, 0, up, "machine",
                                   "unknown war machine '%s' (oddsmaster list whfb7/machines)",
                                   r->machine);
        if (e->unit.troop != OM_WH7_WAR_MACHINE)
            return om_yaml_fail_at(cv->c, OM_EINVAL, 0, up, "machine",
                                   "only a unit of troop war-machine fires a %s", r->machine);
    }
    snprintf(e->id, sizeof e->id, "%s/%s", a->id, r->id);
    snprintf(e->army, sizeof e->army, "%s", a->id);
    snprintf(e->army_name, sizeof e->army_name, "%s", a->name);
    snprintf(e->name, sizeof e->name, "%s", info.name);
    snprintf(e->profile, sizeof e->profile, "%s", info.profile);
    e->character_points = info.character_points;
    e->line = om_yaml_locate(cv->c, up, "id");
    return OM_OK;
}

/* Every unit of the raw list into l, checking ids are given once. */
static om_status conv_list(const wh7_conv *cv, const raw_list *r, om_wh7_list *l)
{
    size_t total = 0;
    om_status st;
    char prefix[OM_YAML_PATH_MAX];

    if (strcmp(r->ruleset, OM_WH7_RULESET) != 0)
        return om_yaml_fail_at(cv->c, OM_EINVAL, 0, NULL, "ruleset",
                               "a WHFB 7th edition list is of rule set '%s', not '%s'",
                               OM_WH7_RULESET, r->ruleset);
    for (unsigned a = 0; a < r->armies_count; a++)
        total += r->armies[a].units_count;
    if ((l->units = calloc(total, sizeof *l->units)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", cv->c->source);
    for (unsigned a = 0; a < r->armies_count; a++) {
        const raw_army *ra = &r->armies[a];
        snprintf(prefix, sizeof prefix, "armies[%u]", a);
        if ((st = conv_id(cv->c, prefix, ra->id, sizeof l->units[0].army - 1)))
            return st;
        for (unsigned k = 0; k < a; k++)
            if (strcmp(r->armies[k].id, ra->id) == 0)
                return om_yaml_fail_at(cv->c, OM_EINVAL, 0, prefix, "id",
                                       "army '%s' is given twice", ra->id);
        for (unsigned u = 0; u < ra->units_count; u++) {
            om_wh7_list_unit *e = &l->units[l->n];
            if ((st = conv_entry(cv, ra, a, u, e)))
                return st;
            for (size_t k = 0; k < l->n; k++)
                if (strcmp(l->units[k].id, e->id) == 0) {
                    snprintf(prefix, sizeof prefix, "armies[%u].units[%u]", a, u);
                    return om_yaml_fail_at(cv->c, OM_EINVAL, 0, prefix, "id",
                                           "unit '%s' is given twice", e->id);
                }
            l->n++;
        }
    }
    return OM_OK;
}

om_status om_wh7_list_parse(const char *source, const char *text, size_t len, om_wh7_list **out)
{
    om_yaml_ctx c = {.source = source ? source : "<list>", .text = text ? text : "",
                     .len = text ? len : 0};
    om_army_table *profiles = NULL;
    raw_list *raw = NULL;
    om_wh7_list *l;
    om_status st;

    *out = NULL;
    if ((l = calloc(1, sizeof *l)) == NULL || (l->source = strdup(c.source)) == NULL) {
        free(l);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", c.source);
    }
    if ((st = om_yaml_load(&c, &list_doc, (void **)&raw)) == OM_OK &&
        (st = om_army_table_load(OM_ARMY_TABLE_PROFILES, &profiles)) == OM_OK) {
        wh7_conv cv = {.c = &c, .profiles = profiles};
        if ((l->name = strdup(raw->name)) == NULL || (l->version = strdup(raw->version)) == NULL ||
            (raw->note && (l->note = strdup(raw->note)) == NULL))
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", c.source);
        else
            st = conv_list(&cv, raw, l);
    }
    om_army_table_free(profiles);
    om_yaml_free(&list_doc, raw);
    if (st != OM_OK) {
        om_wh7_list_free(l);
        return st;
    }
    *out = l;
    return OM_OK;
}

om_status om_wh7_list_load(om_wh7_list **out)
{
    return om_wh7_list_parse(OM_WH7_LIST_PATH, om_wh7_list_sample_yaml,
                             strlen(om_wh7_list_sample_yaml), out);
}

void om_wh7_list_free(om_wh7_list *l)
{
    if (!l)
        return;
    free(l->units);
    free(l->source);
    free(l->name);
    free(l->version);
    free(l->note);
    free(l);
}

/* "did you mean" for an unknown army or unit of `l`. */
static om_status fail_unknown(const om_wh7_list *l, const char *army, const char *unit,
                              bool army_known)
{
    const char **names = calloc(l->n ? l->n : 1, sizeof *names);
    const char *best = NULL;
    size_t n = 0;
    om_status st;
    if (!names)
        return OM_ERROR(OM_ENOMEM, "out of memory");
    for (size_t i = 0; i < l->n; i++) {
        bool dup = false;
        if (army_known && strcmp(l->units[i].army, army) != 0)
            continue;
        for (size_t k = 0; !army_known && k < n; k++)
            dup = dup || strcmp(names[k], l->units[i].army) == 0;
        if (!dup)
            names[n++] = army_known ? l->units[i].id + strlen(army) + 1 : l->units[i].army;
    }
    best = om_suggest(army_known ? unit : army, names, n);
    if (army_known)
        st = OM_ERROR(OM_ENOTFOUND, "unknown unit '%s' of %s in %s%s%s%s (oddsmaster list "
                      "whfb7/units)", unit, army, l->source, best ? "; did you mean '" : "",
                      best ? best : "", best ? "'?" : "");
    else
        st = OM_ERROR(OM_ENOTFOUND, "unknown army '%s' in %s%s%s%s (oddsmaster list "
                      "whfb7/units)", army, l->source, best ? "; did you mean '" : "",
                      best ? best : "", best ? "'?" : "");
    free(names);
    return st;
}

om_status om_wh7_list_find(const om_wh7_list *l, const char *id, const om_wh7_list_unit **out)
{
    const char *slash = strchr(id, '/');
    char army[sizeof l->units[0].army];
    bool army_known = false;
    *out = NULL;
    if (!slash || slash == id || slash[1] == '\0' || strchr(slash + 1, '/') ||
        (size_t)(slash - id) >= sizeof army)
        return OM_ERROR(OM_EINVAL, "'%s' is not army/unit (oddsmaster list whfb7/units)", id);
    snprintf(army, sizeof army, "%.*s", (int)(slash - id), id);
    for (size_t i = 0; i < l->n; i++) {
        if (strcmp(l->units[i].id, id) == 0) {
            *out = &l->units[i];
            return OM_OK;
        }
        army_known = army_known || strcmp(l->units[i].army, army) == 0;
    }
    return fail_unknown(l, army, slash + 1, army_known);
}
