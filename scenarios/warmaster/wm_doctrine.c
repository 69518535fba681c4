/*
 * wm_doctrine.c: the loader of doctrine files (wm_doctrine.h):
 *
 *     schema: oddsmaster-doctrine/1
 *     name: default
 *     summary: Advance the line by brigades, charge the fights worth taking.
 *     aim: vp-margin                   # win | vp-margin | losses
 *     orders:
 *       charge:  {weight: 1.0, min_odds: 0.5, distance: 0.1, initiative: 0.5}
 *       advance: {weight: 0.3, threat: 0.2, keep_cm: 0, orders: 2,
 *                 brigades: true, engage_paces: 3}
 *       shoot:   {weight: 0.4}
 *       support: {weight: 0.6, distance: 0.1}
 *       contest: {weight: 1.0, distance: 0.1}  # a scenario's objectives
 *       hold:    {weight: 0}
 *       protect_general: {min_odds: 0.9, keep_cm: 40}
 *       reserve: {share: 0}
 *       take_over: true                # a character gives the orders of those
 *                                      # who stopped before him
 *       heroes_cover: true             # a Hero moves to where his orders
 *                                      # reach the most of the plans
 *
 * Every key but schema and name may be left out: an absent order is never
 * scored (weight 0), an absent protect_general or reserve is not kept, an
 * absent take_over or heroes_cover is false. The
 * named doctrines are the files of scenarios/doctrines/warmaster, compiled in
 * (scenarios/meson.build) and read through this same loader, so that their
 * weights are written once. Numbers are decimal and checked against the
 * bounds of doctrine.h; the messages name the file, line and field.
 */
#include "wm_doctrine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "army.h"
#include "suggest.h"
#include "yaml_int.h"

/* The named doctrines, compiled in (scenarios/meson.build). */
extern const om_army_file om_wm_doctrine_embedded[];
extern const size_t om_wm_doctrine_embedded_count;

/* ---- Schema ---- */

typedef struct raw_charge {
    char *weight, *min_odds, *distance, *initiative;
} raw_charge;

typedef struct raw_advance {
    char *weight, *threat, *keep_cm, *orders, *brigades, *engage_paces;
} raw_advance;

typedef struct raw_weight {
    char *weight;
} raw_weight;

typedef struct raw_support {
    char *weight, *distance;
} raw_support;

typedef struct raw_protect {
    char *min_odds, *keep_cm;
} raw_protect;

typedef struct raw_reserve {
    char *share;
} raw_reserve;

typedef struct raw_orders {
    raw_charge *charge;
    raw_advance *advance;
    raw_weight *shoot, *hold;
    raw_support *support, *contest;
    raw_protect *protect;
    raw_reserve *reserve;
    char *take_over;
    char *heroes_cover;
} raw_orders;

typedef struct raw_doctrine {
    char *schema, *name, *summary, *aim;
    raw_orders *orders;
} raw_doctrine;

#define REQ CYAML_FLAG_POINTER
#define OPT (CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL)
#define STR(key, flags, type, member) \
    CYAML_FIELD_STRING_PTR(key, flags, type, member, 0, CYAML_UNLIMITED)

static const cyaml_schema_field_t charge_fields[] = {
    STR("weight", OPT, raw_charge, weight),
    STR("min_odds", OPT, raw_charge, min_odds),
    STR("distance", OPT, raw_charge, distance),
    STR("initiative", OPT, raw_charge, initiative),
    CYAML_FIELD_END
};

static const cyaml_schema_field_t advance_fields[] = {
    STR("weight", OPT, raw_advance, weight),
    STR("threat", OPT, raw_advance, threat),
    STR("keep_cm", OPT, raw_advance, keep_cm),
    STR("orders", OPT, raw_advance, orders),
    STR("brigades", OPT, raw_advance, brigades),
    STR("engage_paces", OPT, raw_advance, engage_paces),
    CYAML_FIELD_END
};

static const cyaml_schema_field_t weight_fields[] = {
    STR("weight", OPT, raw_weight, weight),
    CYAML_FIELD_END
};

static const cyaml_schema_field_t support_fields[] = {
    STR("weight", OPT, raw_support, weight),
    STR("distance", OPT, raw_support, distance),
    CYAML_FIELD_END
};

static const cyaml_schema_field_t protect_fields[] = {
    STR("min_odds", OPT, raw_protect, min_odds),
    STR("keep_cm", OPT, raw_protect, keep_cm),
    CYAML_FIELD_END
};

static const cyaml_schema_field_t reserve_fields[] = {
    STR("share", OPT, raw_reserve, share),
    CYAML_FIELD_END
};

static const cyaml_schema_field_t orders_fields[] = {
    CYAML_FIELD_MAPPING_PTR("charge", OPT, raw_orders, charge, charge_fields),
    CYAML_FIELD_MAPPING_PTR("advance", OPT, raw_orders, advance, advance_fields),
    CYAML_FIELD_MAPPING_PTR("shoot", OPT, raw_orders, shoot, weight_fields),
    CYAML_FIELD_MAPPING_PTR("hold", OPT, raw_orders, hold, weight_fields),
    CYAML_FIELD_MAPPING_PTR("support", OPT, raw_orders, support, support_fields),
    CYAML_FIELD_MAPPING_PTR("contest", OPT, raw_orders, contest, support_fields),
    CYAML_FIELD_MAPPING_PTR("protect_general", OPT, raw_orders, protect, protect_fields),
    CYAML_FIELD_MAPPING_PTR("reserve", OPT, raw_orders, reserve, reserve_fields),
    STR("take_over", OPT, raw_orders, take_over),
    STR("heroes_cover", OPT, raw_orders, heroes_cover),
    CYAML_FIELD_END
};

static const cyaml_schema_field_t top_fields[] = {
    STR("schema", REQ, raw_doctrine, schema),
    STR("name", REQ, raw_doctrine, name),
    STR("summary", OPT, raw_doctrine, summary),
    STR("aim", OPT, raw_doctrine, aim),
    CYAML_FIELD_MAPPING_PTR("orders", OPT, raw_doctrine, orders, orders_fields),
    CYAML_FIELD_END
};

static const cyaml_schema_value_t top_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, raw_doctrine, top_fields),
};

#undef STR
#undef REQ
#undef OPT

static const char *const int_keys[] = {"orders", NULL};
static const char *const bool_keys[] = {"brigades", "take_over", "heroes_cover", NULL};

static const om_yaml_doc doctrine_doc = {
    .schema = OM_WM_DOCTRINE_SCHEMA,
    .what = "a doctrine file",
    .keys = "schema, name",
    .top = &top_schema,
    .int_keys = int_keys,
    .bool_keys = bool_keys,
    .list_expects = "a number",
    .entry_expects = "a number",
    .value_max = OM_YAML_SCALAR_MAX,
};

/* ---- Conversion ---- */

/* Most a weight may be: the scores are sums of a few weighted terms of order
 * one, so a weight of ten already outweighs every other consideration. */
#define WEIGHT_MAX 10.0

/* Most a distance kept may be: the longest table's width (Warmaster
 * Ancients, 240cm) has no use for more than this. */
#define KEEP_CM_MAX 200.0

/* Most of a side a reserve may hold back: some units must fight. */
#define RESERVE_MAX 0.9

/* The number at path.key (s; NULL when absent: *out keeps its default), in
 * [lo, hi]: decimal, finite. */
static om_status conv_real(const om_yaml_ctx *c, const char *path, const char *key,
                           const char *s, double lo, double hi, double *out)
{
    char *end = NULL;
    double v;
    if (s == NULL)
        return OM_OK;
    v = strtod(s, &end);
    if (s[0] == '\0' || end == s || *end != '\0' || !isfinite(v))
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, key, "expected a number, got '%s'", s);
    if (v < lo || v > hi)
        return om_yaml_fail_at(c, OM_EINVAL, 0, path, key, "%g is out of range (%g to %g)", v,
                               lo, hi);
    *out = v;
    return OM_OK;
}

/* The aim named s (absent: vp-margin), with did-you-mean. */
static om_status conv_aim(const om_yaml_ctx *c, const char *s, om_wm_aim *out)
{
    const char *best;
    char known[OM_YAML_REASON_MAX / 2];
    *out = OM_WM_AIM_VP_MARGIN;
    if (s == NULL)
        return OM_OK;
    for (unsigned a = 0; a < OM_WM_AIM_COUNT; a++)
        if (strcmp(s, om_wm_aim_names[a]) == 0) {
            *out = (om_wm_aim)a;
            return OM_OK;
        }
    best = om_suggest(s, om_wm_aim_names, OM_WM_AIM_COUNT);
    om_yaml_join_names(known, sizeof known, om_wm_aim_names, OM_WM_AIM_COUNT);
    return om_yaml_fail_at(c, OM_ENOTFOUND, 0, NULL, "aim", "unknown aim '%s'; %s%s%sexpected "
                           "one of: %s", s, best ? "did you mean '" : "", best ? best : "",
                           best ? "'? " : "", known);
}

/* A name: lower-case letters, digits and '-', starting with a letter, short
 * enough for the engine's field. */
static om_status conv_name(const om_yaml_ctx *c, const char *s, char *out, size_t cap)
{
    size_t n = strlen(s);
    bool ok = n > 0 && n < cap && s[0] >= 'a' && s[0] <= 'z';
    for (size_t i = 0; ok && i < n; i++)
        ok = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-';
    if (!ok)
        return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "name", "'%s' is not a doctrine name: "
                               "lower-case letters, digits and '-', starting with a letter, at "
                               "most %zu characters", s, cap - 1);
    memcpy(out, s, n + 1);
    return OM_OK;
}

static om_status convert(const om_yaml_ctx *c, const raw_doctrine *r, om_wm_doctrine_file *f)
{
    om_wm_doctrine *d = &f->doctrine;
    const raw_orders *o = r->orders;
    om_status st;

    /* Every order unscored, no brigades, nothing protected or held back,
     * until the file says otherwise. */
    *f = (om_wm_doctrine_file){.doctrine = {.aim = OM_WM_AIM_VP_MARGIN}};
    if ((st = conv_name(c, r->name, d->name, sizeof d->name)) != OM_OK ||
        (st = conv_aim(c, r->aim, &d->aim)) != OM_OK)
        return st;
    if (r->summary != NULL)
        snprintf(f->summary, sizeof f->summary, "%s", r->summary);
    if (o == NULL)
        return OM_OK;
    if (o->charge != NULL) {
        const raw_charge *k = o->charge;
        if ((st = conv_real(c, "orders.charge", "weight", k->weight, 0, WEIGHT_MAX,
                            &d->charge)) != OM_OK ||
            (st = conv_real(c, "orders.charge", "min_odds", k->min_odds, 0, 1,
                            &d->charge_min_odds)) != OM_OK ||
            (st = conv_real(c, "orders.charge", "distance", k->distance, 0, WEIGHT_MAX,
                            &d->distance)) != OM_OK ||
            (st = conv_real(c, "orders.charge", "initiative", k->initiative, 0, WEIGHT_MAX,
                            &d->initiative)) != OM_OK)
            return st;
    }
    if (o->advance != NULL) {
        const raw_advance *k = o->advance;
        if ((st = conv_real(c, "orders.advance", "weight", k->weight, 0, WEIGHT_MAX,
                            &d->advance)) != OM_OK ||
            (st = conv_real(c, "orders.advance", "threat", k->threat, 0, WEIGHT_MAX,
                            &d->threat)) != OM_OK ||
            (st = conv_real(c, "orders.advance", "keep_cm", k->keep_cm, 0, KEEP_CM_MAX,
                            &d->keep_cm)) != OM_OK ||
            (st = conv_real(c, "orders.advance", "engage_paces", k->engage_paces, 0, WEIGHT_MAX,
                            &d->engage_paces)) != OM_OK ||
            (st = om_yaml_conv_int(c, "orders.advance", "orders", k->orders,
                                   OM_WM_COMMAND_MAX_ORDERS, 0, &d->orders)) != OM_OK ||
            (st = om_yaml_conv_bool(c, "orders.advance", "brigades", k->brigades,
                                    &d->brigades)) != OM_OK)
            return st;
    }
    if (o->shoot != NULL &&
        (st = conv_real(c, "orders.shoot", "weight", o->shoot->weight, 0, WEIGHT_MAX,
                        &d->shoot)) != OM_OK)
        return st;
    if (o->support != NULL &&
        ((st = conv_real(c, "orders.support", "weight", o->support->weight, 0, WEIGHT_MAX,
                         &d->support)) != OM_OK ||
         (st = conv_real(c, "orders.support", "distance", o->support->distance, 0, WEIGHT_MAX,
                         &d->support_distance)) != OM_OK))
        return st;
    if (o->contest != NULL &&
        ((st = conv_real(c, "orders.contest", "weight", o->contest->weight, 0, WEIGHT_MAX,
                         &d->contest)) != OM_OK ||
         (st = conv_real(c, "orders.contest", "distance", o->contest->distance, 0, WEIGHT_MAX,
                         &d->contest_distance)) != OM_OK))
        return st;
    if (o->hold != NULL &&
        (st = conv_real(c, "orders.hold", "weight", o->hold->weight, 0, WEIGHT_MAX,
                        &d->hold)) != OM_OK)
        return st;
    if (o->protect != NULL) {
        d->protect_general = true;
        if ((st = conv_real(c, "orders.protect_general", "min_odds", o->protect->min_odds, 0, 1,
                            &d->general_min_odds)) != OM_OK ||
            (st = conv_real(c, "orders.protect_general", "keep_cm", o->protect->keep_cm, 0,
                            KEEP_CM_MAX, &d->general_keep_cm)) != OM_OK)
            return st;
    }
    if (o->reserve != NULL &&
        (st = conv_real(c, "orders.reserve", "share", o->reserve->share, 0, RESERVE_MAX,
                        &d->reserve)) != OM_OK)
        return st;
    if ((st = om_yaml_conv_bool(c, "orders", "take_over", o->take_over, &d->take_over)) != OM_OK)
        return st;
    return om_yaml_conv_bool(c, "orders", "heroes_cover", o->heroes_cover, &d->heroes_cover);
}

om_status om_wm_doctrine_parse(const char *source, const char *text, size_t len,
                               om_wm_doctrine_file *out)
{
    const om_yaml_ctx c = {.source = source, .text = text, .len = len};
    raw_doctrine *r = NULL;
    om_status st;
    if ((st = om_yaml_load(&c, &doctrine_doc, (void **)&r)) != OM_OK)
        return st;
    st = convert(&c, r, out);
    om_yaml_free(&doctrine_doc, r);
    return st;
}

size_t om_wm_doctrine_named_count(void) { return om_wm_doctrine_embedded_count; }

const char *om_wm_doctrine_named_at(size_t i)
{
    return i < om_wm_doctrine_embedded_count ? om_wm_doctrine_embedded[i].stem : NULL;
}

om_status om_wm_doctrine_named(const char *name, om_wm_doctrine_file *out)
{
    const char *names[OM_WM_DOCTRINE_NAMED_MAX];
    const char *best;
    size_t n = 0;
    for (size_t i = 0; i < om_wm_doctrine_embedded_count; i++) {
        const om_army_file *f = &om_wm_doctrine_embedded[i];
        if (strcmp(f->stem, name) == 0)
            return om_wm_doctrine_parse(f->path, f->text, f->len, out);
        if (n < OM_WM_DOCTRINE_NAMED_MAX)
            names[n++] = f->stem;
    }
    best = om_suggest(name, names, n);
    return OM_ERROR(OM_ENOTFOUND, "no doctrine '%s'%s%s%s", name, best ? "; did you mean '" : "",
                    best ? best : "", best ? "'?" : "");
}
