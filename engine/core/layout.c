/*
 * layout.c: the names of the winner codes, the field and unit lookups of a
 * layout and the check that a layout is well formed (layout.h).
 */
#include "layout.h"

#include <stdio.h>
#include <string.h>

const char *const om_winner_names[OM_WINNER_CODES] = {"a", "b", "draw", "none"};

int om_layout_find(const om_layout *layout, const char *name)
{
    for (size_t i = 0; i < layout->field_count; i++)
        if (strcmp(layout->fields[i].name, name) == 0)
            return (int)i;
    return -1;
}

size_t om_layout_wide_count(const om_layout *layout)
{
    size_t n = 0;
    for (size_t i = 0; i < layout->field_count; i++)
        n += layout->fields[i].type == OM_FIELD_COUNT16;
    return n;
}

int om_layout_unit_field_find(const om_layout *layout, const char *name)
{
    for (size_t i = 0; i < layout->unit_field_count; i++)
        if (strcmp(layout->unit_fields[i].name, name) == 0)
            return (int)i;
    return -1;
}

int om_layout_unit_find(const om_layout *layout, const char *id)
{
    for (size_t u = 0; u < layout->unit_count; u++)
        if (strcmp(layout->units[u].id, id) == 0)
            return (int)u;
    return -1;
}

size_t om_layout_unit_bins(const om_layout *layout)
{
    size_t n = 0;
    for (size_t f = 0; f < layout->unit_field_count; f++)
        n += layout->unit_count * ((size_t)layout->unit_fields[f].max + 1);
    return n;
}

/* The largest value a one-byte count takes. */
#define BYTE_MAX 255u

/* The unit fields and units of a layout (om_layout_check). */
static const char *check_units(const om_layout *l, char *buf, size_t size)
{
    if (l->unit_count > OM_LAYOUT_UNITS_MAX || l->unit_field_count > OM_LAYOUT_UNIT_FIELDS_MAX) {
        snprintf(buf, size, "%zu units and %zu unit fields (at most %d and %d)", l->unit_count,
                 l->unit_field_count, OM_LAYOUT_UNITS_MAX, OM_LAYOUT_UNIT_FIELDS_MAX);
        return buf;
    }
    if ((l->unit_count == 0) != (l->unit_field_count == 0))
        return "a layout with units and no unit fields, or unit fields and no units";
    if (l->unit_count == 0)
        return NULL;
    if (l->units == NULL || l->unit_stride == 0)
        return "a layout's units have no table or no stride";
    for (size_t u = 0; u < l->unit_count; u++) {
        const om_layout_unit *unit = &l->units[u];
        if (unit->id == NULL || unit->id[0] == '\0' || unit->name == NULL || unit->side > 1) {
            snprintf(buf, size, "unit %zu has no id, no name or a side other than 0 or 1", u);
            return buf;
        }
        for (size_t v = 0; v < u; v++)
            if (strcmp(l->units[v].id, unit->id) == 0) {
                snprintf(buf, size, "two units have the id '%s'", unit->id);
                return buf;
            }
    }
    for (size_t f = 0; f < l->unit_field_count; f++) {
        const om_field *uf = &l->unit_fields[f];
        if (uf->name == NULL || uf->name[0] == '\0' || strcmp(uf->name, "table") == 0 ||
            om_layout_unit_field_find(l, uf->name) != (int)f) {
            snprintf(buf, size, "unit field %zu has no name, a name used twice, or the name "
                     "'table' (the file's table of units)", f);
            return buf;
        }
        if ((uf->type != OM_FIELD_COUNT && uf->type != OM_FIELD_FLAG) ||
            (uf->type == OM_FIELD_FLAG && uf->max != 1) ||
            (uf->type == OM_FIELD_COUNT && (uf->max == 0 || uf->max > BYTE_MAX))) {
            snprintf(buf, size, "unit field '%s' is not a flag of max 1 or a count of max 1 "
                     "to %u", uf->name, BYTE_MAX);
            return buf;
        }
        if (om_layout_unit_offset(l, f, l->unit_count - 1) >= l->row_size) {
            snprintf(buf, size, "unit field '%s' of the last unit lies outside the row of %zu "
                     "bytes", uf->name, l->row_size);
            return buf;
        }
    }
    if (om_layout_unit_bins(l) > OM_LAYOUT_UNIT_BINS_MAX) {
        snprintf(buf, size, "the unit fields take %zu histogram bins (at most %d)",
                 om_layout_unit_bins(l), OM_LAYOUT_UNIT_BINS_MAX);
        return buf;
    }
    return NULL;
}

const char *om_layout_check(const om_layout *l, char *buf, size_t size)
{
    if (l->field_count == 0 || l->field_count > OM_LAYOUT_FIELDS_MAX) {
        snprintf(buf, size, "a layout of %zu fields (1 to %d)", l->field_count,
                 OM_LAYOUT_FIELDS_MAX);
        return buf;
    }
    for (size_t f = 0; f < l->field_count; f++)
        if (l->fields[f].name == NULL ||
            l->fields[f].offset + om_field_width(l->fields[f].type) > l->row_size) {
            snprintf(buf, size, "field %zu has no name or lies outside the row", f);
            return buf;
        }
    if (om_layout_wide_count(l) > OM_LAYOUT_WIDE_MAX) {
        snprintf(buf, size, "%zu two-byte count fields (at most %d)", om_layout_wide_count(l),
                 OM_LAYOUT_WIDE_MAX);
        return buf;
    }
    return check_units(l, buf, size);
}
