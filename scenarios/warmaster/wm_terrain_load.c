/*
 * wm_terrain_load.c: what the loaders of whole turns (wm_turn_load.c) and of
 * battles (wm_battle.c) read alike: a number of cm, a point [x, y], and a
 * list of terrain pieces (kind and corners), each converted by hand from the
 * strings libcyaml leaves, with errors naming the file, line and field.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "wm_load_int.h"

static const cyaml_schema_value_t string_entry = {
    CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};
/* A point [x, y] as an entry of a list of points. A pointer: libcyaml 1.3.1
 * frees a list of fixed-length lists stored inline at the wrong stride
 * (om_yaml_load). */
static const cyaml_schema_value_t point_entry = {
    CYAML_VALUE_SEQUENCE_FIXED(CYAML_FLAG_POINTER, char *, &string_entry, 2),
};
const cyaml_schema_value_t om_wm_load_point_entry = {
    CYAML_VALUE_SEQUENCE_FIXED(CYAML_FLAG_POINTER, char *, &string_entry, 2),
};

static const cyaml_schema_field_t terrain_fields[] = {
    CYAML_FIELD_STRING_PTR("kind", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, om_wm_raw_terrain,
                           kind, 0, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("points", CYAML_FLAG_POINTER, om_wm_raw_terrain, points, &point_entry,
                         0, CYAML_UNLIMITED),
    CYAML_FIELD_END
};

const cyaml_schema_value_t om_wm_load_terrain_entry = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, om_wm_raw_terrain, terrain_fields),
};

om_status om_wm_load_real(const om_yaml_ctx *c, const char *prefix, const char *key,
                          const char *s, double lo, double hi, double *out)
{
    char *end = NULL;
    double v;
    if (s == NULL || s[0] == '\0')
        return om_yaml_fail_at(c, OM_EPARSE, 0, prefix, key, "expected a number");
    v = strtod(s, &end);
    if (end == s || *end != '\0' || !isfinite(v))
        return om_yaml_fail_at(c, OM_EPARSE, 0, prefix, key, "expected a number, got '%s'", s);
    if (v < lo || v > hi)
        return om_yaml_fail_at(c, OM_EINVAL, 0, prefix, key, "%g is out of range (%g to %g)", v,
                               lo, hi);
    *out = v;
    return OM_OK;
}

om_status om_wm_load_point(const om_yaml_ctx *c, const char *prefix, const char *key,
                           char *const xy[2], om_wm_vec *out)
{
    om_status st;
    if (xy[0] == NULL || xy[1] == NULL)
        return om_yaml_fail_at(c, OM_EPARSE, 0, prefix, key, "expected a point [x, y] in cm");
    if ((st = om_wm_load_real(c, prefix, key, xy[0], -OM_WM_LOAD_CM_MAX, OM_WM_LOAD_CM_MAX,
                              &out->x)) ||
        (st = om_wm_load_real(c, prefix, key, xy[1], -OM_WM_LOAD_CM_MAX, OM_WM_LOAD_CM_MAX,
                              &out->y)))
        return st;
    return OM_OK;
}

om_status om_wm_load_terrain(const om_yaml_ctx *c, const char *list, unsigned k,
                             const om_wm_raw_terrain *r, om_wm_table *t)
{
    char path[OM_YAML_PATH_MAX];
    om_wm_vec pt[OM_WM_TABLE_MAX_VERTICES];
    unsigned kind = 0;
    om_status st;
    snprintf(path, sizeof path, "%s[%u]", list, k);
    if (!r->kind)
        return om_yaml_fail_at(c, OM_EPARSE, 0, path, "kind", "required key 'kind' is "
                               "missing");
    if ((st = om_wm_load_name(c, path, "kind", "kind of terrain", r->kind,
                              om_wm_terrain_names, OM_WM_TERRAIN_KIND_COUNT, &kind)))
        return st;
    if (r->points_count < 2 || r->points_count > OM_WM_TABLE_MAX_VERTICES)
        return om_yaml_fail_at(c, OM_EINVAL, 0, path, "points", "2 opposite corners, or 3 to "
                               "%d corners of a convex polygon (got %u)",
                               OM_WM_TABLE_MAX_VERTICES, r->points_count);
    for (unsigned i = 0; i < r->points_count; i++)
        if ((st = om_wm_load_point(c, path, "points", *r->points[i], &pt[i])))
            return st;
    if (r->points_count == 2) {
        om_wm_vec lo = {fmin(pt[0].x, pt[1].x), fmin(pt[0].y, pt[1].y)};
        om_wm_vec hi = {fmax(pt[0].x, pt[1].x), fmax(pt[0].y, pt[1].y)};
        if (om_wm_table_add_rect_terrain(t, (om_wm_terrain_kind)kind, lo, hi) < 0)
            return om_yaml_fail_at(c, OM_EINVAL, 0, path, NULL, "the table holds at most %d "
                                   "terrain pieces", OM_WM_TABLE_MAX_TERRAIN);
    } else if (om_wm_table_add_terrain(t, (om_wm_terrain_kind)kind, pt, r->points_count) < 0) {
        return om_yaml_fail_at(c, OM_EINVAL, 0, path, NULL, "the table holds at most %d "
                               "terrain pieces", OM_WM_TABLE_MAX_TERRAIN);
    }
    return OM_OK;
}
