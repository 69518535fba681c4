/*
 * h5read.c: reading a run's result file (h5file.h): its provenance, its
 * fields as the file describes them, each side's victory points, its tallies
 * and its rows. Errors name the file and what is wrong with it (h5_int.h for
 * the conventions shared with the writer).
 */
#include "h5file.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5_int.h"

/* A field of a file being read, with the strings it owns. */
typedef struct reader_field {
    om_field field;    /* name, description, title, type (offset: its index) */
    hid_t dset;        /* its open dataset, or H5I_INVALID_HID without rows */
    bool by_name;      /* an enumerated winner dataset, read via winner_type */
} reader_field;

struct om_h5_reader {
    char *path;        /* path as given to om_h5_reader_open */
    hid_t file;        /* the open file */
    hid_t root;        /* its root group, which holds the provenance attributes */
    hid_t group;       /* the /trials group */
    hid_t tallies;     /* the /tallies group, or H5I_INVALID_HID */
    hid_t winner_type; /* memory type of enumerated winner datasets (OM_WINNER_* codes) */
    uint64_t trials;   /* trials in the file, from the trials attribute */
    bool rows;         /* the file holds the per-trial rows */
    size_t n_fields;   /* fields of the file */
    reader_field fields[OM_LAYOUT_FIELDS_MAX]; /* in report order */
    char *points_rule; /* the points_rule attribute, or NULL */
    hid_t units;       /* the /units group, or H5I_INVALID_HID (no per-unit results) */
    size_t n_units;    /* units of the table */
    om_layout_unit unit[OM_LAYOUT_UNITS_MAX]; /* the table of units (owned strings) */
    size_t n_unit_fields; /* unit fields */
    reader_field unit_fields[OM_LAYOUT_UNIT_FIELDS_MAX]; /* offset: its index; max set */
    char *side_text[2][2]; /* per side: unit name, loss unit (owned strings) */
};

/* ----------------------------------------------------------------- reader */

static void reader_layout(const om_h5_reader *r, om_layout *l);

/* An optional string attribute of `obj`: NULL when absent. */
static om_status attr_string_opt(hid_t obj, const char *path, const char *name, char **out)
{
    om_status st = om_h5_attr_read_string(obj, path, name, out);
    if (st == OM_ENOTFOUND) {
        om_error_clear();
        *out = NULL;
        return OM_OK;
    }
    return st;
}

/* The type of field rf from the type attribute of `obj` ("count", "flag",
 * "winner", "count16"), which must fit the class and the width in bytes of
 * its data (a winner is an enumeration, a count16 two bytes wide;
 * H5T_NO_CLASS: no data to fit). */
static om_status field_type(om_h5_reader *r, reader_field *rf, hid_t obj, const char *where,
                            H5T_class_t cls, size_t width)
{
    char *type_name = NULL;
    om_status st = om_h5_attr_read_string(obj, r->path, "type", &type_name);
    if (st == OM_ENOTFOUND)
        return OM_ERROR(OM_EHDF5, "%s: dataset %s/%s has no type attribute", r->path, where,
                        rf->field.name);
    if (st == OM_OK) {
        size_t t = 0;
        while (t < OM_FIELD_TYPES && strcmp(type_name, om_h5_field_type_names[t]) != 0)
            t++;
        if (t == OM_FIELD_TYPES ||
            (cls != H5T_NO_CLASS && ((t == OM_FIELD_WINNER) != (cls == H5T_ENUM) ||
                                     om_field_width((om_field_type)t) != width)))
            st = OM_ERROR(OM_EHDF5, "%s: dataset %s/%s has type '%s', which does not fit its "
                          "data", r->path, where, rf->field.name, type_name);
        rf->field.type = (om_field_type)(t < OM_FIELD_TYPES ? t : 0);
        rf->by_name = cls == H5T_ENUM;
    }
    free(type_name);
    if (st == OM_OK)
        st = attr_string_opt(obj, r->path, "description", (char **)&rf->field.description);
    if (st == OM_OK && rf->field.type == OM_FIELD_WINNER)
        st = attr_string_opt(obj, r->path, "title", (char **)&rf->field.title);
    return st;
}

/*
 * Open and check the rows of field rf, the dataset /trials/<name>: 1-D, of
 * one-byte integers or enumerations (two-byte integers for a two-byte count),
 * with exactly r->trials rows, with its type, description and title.
 */
static om_status reader_open_rows(om_h5_reader *r, reader_field *rf)
{
    char why[OM_H5_DETAIL_MAX];
    const char *name = rf->field.name;
    om_status st = OM_OK;
    hid_t space = H5I_INVALID_HID, type = H5I_INVALID_HID;
    hsize_t rows = 0;
    H5T_class_t cls = H5T_NO_CLASS;
    size_t width = 0;

    if (H5Lexists(r->group, name, H5P_DEFAULT) <= 0)
        return OM_ERROR(OM_EHDF5, "%s: the fields attribute of /trials names '%s', which is "
                        "not a dataset of it", r->path, name);
    if ((rf->dset = H5Dopen2(r->group, name, H5P_DEFAULT)) < 0)
        return OM_ERROR(OM_EHDF5, "%s: cannot open /trials/%s: %s", r->path, name,
                        om_h5_detail(why, sizeof why));
    if ((space = H5Dget_space(rf->dset)) < 0 || (type = H5Dget_type(rf->dset)) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot read the shape of /trials/%s: %s", r->path, name,
                      om_h5_detail(why, sizeof why));
    else if (H5Sget_simple_extent_ndims(space) != 1)
        st = OM_ERROR(OM_EHDF5, "%s: dataset /trials/%s is not one-dimensional", r->path, name);
    else if (H5Sget_simple_extent_dims(space, &rows, NULL) != 1 || rows != r->trials)
        st = OM_ERROR(OM_EHDF5, "%s: dataset /trials/%s has %llu rows, expected %llu", r->path,
                      name, (unsigned long long)rows, (unsigned long long)r->trials);
    else if (((cls = H5Tget_class(type)) != H5T_INTEGER && cls != H5T_ENUM) ||
             ((width = H5Tget_size(type)) != 1 && (width != 2 || cls != H5T_INTEGER)))
        st = OM_ERROR(OM_EHDF5, "%s: dataset /trials/%s is not of a one-byte (or two-byte) "
                      "integer type", r->path, name);
    else {
        char shown[OM_H5_NAME_MAX];
        snprintf(shown, sizeof shown, "/trials/%s", name);
        st = om_h5_dataset_checked(rf->dset, r->path, shown);
    }
    om_h5_close_id(&type);
    om_h5_close_id(&space);
    return st == OM_OK ? field_type(r, rf, rf->dset, "/trials", cls, width) : st;
}

/* Field k, named `name`: its rows if the file has them, else its tally's
 * description. */
static om_status reader_open_field(om_h5_reader *r, size_t k, const char *name)
{
    char why[OM_H5_DETAIL_MAX];
    reader_field *rf = &r->fields[k];
    om_status st;
    hid_t d;

    rf->dset = H5I_INVALID_HID;
    if ((rf->field.name = strdup(name)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", r->path);
    rf->field.offset = k;
    if (r->rows)
        return reader_open_rows(r, rf);
    if (r->tallies < 0 || (d = H5Dopen2(r->tallies, name, H5P_DEFAULT)) < 0)
        return OM_ERROR(OM_EHDF5, "%s: no /tallies/%s for a field of the file: %s", r->path,
                        name, om_h5_detail(why, sizeof why));
    st = field_type(r, rf, d, "/tallies", H5T_NO_CLASS, 0);
    om_h5_close_id(&d);
    return st;
}

/* Open /trials and the datasets its fields attribute lists, in that order. */
static om_status reader_open_trials(om_h5_reader *r)
{
    htri_t exists = H5Lexists(r->file, "trials", H5P_DEFAULT);
    char *list = NULL, *save = NULL;
    om_status st;

    if (exists <= 0 || (r->group = H5Gopen2(r->file, "trials", H5P_DEFAULT)) < 0)
        return OM_ERROR(OM_EHDF5, "%s: no /trials group (not an oddsmaster result file?)",
                        r->path);
    st = om_h5_attr_read_string(r->group, r->path, "fields", &list);
    if (st == OM_ENOTFOUND)
        return OM_ERROR(OM_EHDF5, "%s: /trials has no fields attribute", r->path);
    for (char *name = st == OM_OK ? strtok_r(list, " ", &save) : NULL; name && st == OM_OK;
         name = strtok_r(NULL, " ", &save)) {
        if (r->n_fields == OM_LAYOUT_FIELDS_MAX)
            st = OM_ERROR(OM_EHDF5, "%s: more than %d fields", r->path, OM_LAYOUT_FIELDS_MAX);
        else
            st = reader_open_field(r, r->n_fields++, name);
    }
    free(list);
    return st;
}

/* The table of units, /units/table, into r->unit: as many records as the
 * units attribute lists, their ids in its order. */
static om_status reader_unit_table(om_h5_reader *r)
{
    char why[OM_H5_DETAIL_MAX];
    const size_t len[3] = {OM_H5_UNIT_TEXT_MAX, OM_H5_UNIT_TEXT_MAX, OM_H5_UNIT_TEXT_MAX};
    size_t offset[OM_H5_UNIT_MEMBERS], record = 0;
    hsize_t n = 0;
    om_status st = OM_OK;
    hid_t type, d = H5I_INVALID_HID, space = H5I_INVALID_HID;
    uint8_t *buf = NULL;
    if ((type = om_h5_unit_table_type(len, true, offset, &record)) < 0)
        return OM_ERROR(OM_EHDF5, "%s: cannot make the type of /units/table: %s", r->path,
                        om_h5_detail(why, sizeof why));
    if ((d = H5Dopen2(r->units, "table", H5P_DEFAULT)) < 0 || (space = H5Dget_space(d)) < 0 ||
        H5Sget_simple_extent_ndims(space) != 1 || H5Sget_simple_extent_dims(space, &n, NULL) != 1 ||
        n != r->n_units)
        st = OM_ERROR(OM_EHDF5, "%s: /units/table is missing or does not list the %zu units of "
                      "the units attribute of /units", r->path, r->n_units);
    else if ((st = om_h5_dataset_checked(d, r->path, "/units/table")) == OM_OK &&
             (buf = calloc(r->n_units, record)) == NULL)
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", r->path);
    else if (st == OM_OK)
        st = om_h5_read_whole(d, type, buf, r->path, "/units/table", "units");
    for (size_t u = 0; st == OM_OK && u < r->n_units; u++) {
        const uint8_t *rec = buf + u * record;
        om_layout_unit *unit = &r->unit[u];
        uint32_t points;
        /* The strings may fill their fixed length: cut them there. */
        char *name = strndup((const char *)rec + offset[1], OM_H5_UNIT_TEXT_MAX - 1);
        char *army = strndup((const char *)rec + offset[2], OM_H5_UNIT_TEXT_MAX - 1);
        memcpy(&points, rec + offset[4], sizeof points);
        unit->name = name;
        unit->army = army;
        unit->side = rec[offset[3]];
        unit->points = points;
        if (name == NULL || army == NULL)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", r->path);
        else if (strncmp((const char *)rec + offset[0], unit->id, OM_H5_UNIT_TEXT_MAX) != 0 ||
                 unit->side > 1)
            st = OM_ERROR(OM_EHDF5, "%s: /units/table, unit %zu: its id or side does not fit "
                          "the units attribute of /units", r->path, u);
    }
    free(buf);
    om_h5_close_id(&space);
    om_h5_close_id(&d);
    om_h5_close_id(&type);
    return st;
}

/* The max attribute of a unit field's dataset (1 to 255, 1 for a flag). */
static om_status unit_field_max(om_h5_reader *r, reader_field *rf, hid_t obj, const char *shown)
{
    uint64_t max = 0;
    om_status st = om_h5_attr_read_u64(obj, r->path, "max", &max);
    if (st == OM_ENOTFOUND || (st == OM_OK && (max == 0 || max > 255 ||
                                               (rf->field.type == OM_FIELD_FLAG && max != 1) ||
                                               (rf->field.type != OM_FIELD_FLAG &&
                                                rf->field.type != OM_FIELD_COUNT))))
        return OM_ERROR(OM_EHDF5, "%s: %s has no max attribute, or one that does not fit its "
                        "type", r->path, shown);
    rf->field.max = (unsigned)max;
    return st;
}

/* Unit field k, named `name`: its dataset /units/<name> (trials x units of
 * one-byte integers, with its checksum) if the file has rows, else its
 * tally's description; its type, description and max. */
static om_status reader_open_unit_field(om_h5_reader *r, size_t k, const char *name)
{
    char why[OM_H5_DETAIL_MAX], shown[OM_H5_NAME_MAX];
    reader_field *rf = &r->unit_fields[k];
    om_status st = OM_OK;
    hid_t d = H5I_INVALID_HID, space = H5I_INVALID_HID, type = H5I_INVALID_HID;
    hsize_t dims[2] = {0, 0};
    rf->dset = H5I_INVALID_HID;
    if ((rf->field.name = strdup(name)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", r->path);
    rf->field.offset = k;
    snprintf(shown, sizeof shown, r->rows ? "/units/%s" : "/tallies/units/%s", name);
    if (r->rows) {
        if (H5Lexists(r->units, name, H5P_DEFAULT) <= 0 ||
            (rf->dset = H5Dopen2(r->units, name, H5P_DEFAULT)) < 0)
            return OM_ERROR(OM_EHDF5, "%s: the fields attribute of /units names '%s', which is "
                            "not a dataset of it", r->path, name);
        if ((space = H5Dget_space(rf->dset)) < 0 || (type = H5Dget_type(rf->dset)) < 0 ||
            H5Sget_simple_extent_ndims(space) != 2 ||
            H5Sget_simple_extent_dims(space, dims, NULL) != 2 || dims[0] != r->trials ||
            dims[1] != r->n_units || H5Tget_class(type) != H5T_INTEGER || H5Tget_size(type) != 1)
            st = OM_ERROR(OM_EHDF5, "%s: %s is not %llu trials x %zu units of one-byte "
                          "integers", r->path, shown, (unsigned long long)r->trials, r->n_units);
        else
            st = om_h5_dataset_checked(rf->dset, r->path, shown);
        om_h5_close_id(&type);
        om_h5_close_id(&space);
        if (st == OM_OK)
            st = field_type(r, rf, rf->dset, "/units", H5T_INTEGER, 1);
        if (st == OM_OK)
            st = unit_field_max(r, rf, rf->dset, shown);
        return st;
    }
    if (r->tallies < 0 || (d = H5Dopen2(r->tallies, shown + strlen("/tallies/"),
                                        H5P_DEFAULT)) < 0)
        return OM_ERROR(OM_EHDF5, "%s: no %s for a unit field of the file: %s", r->path, shown,
                        om_h5_detail(why, sizeof why));
    st = field_type(r, rf, d, "/tallies/units", H5T_NO_CLASS, 0);
    if (st == OM_OK)
        st = unit_field_max(r, rf, d, shown);
    om_h5_close_id(&d);
    return st;
}

/* The /units group, if the file has one: its units (the units attribute, then
 * the table) and its unit fields (the fields attribute), in their order. */
static om_status reader_open_units(om_h5_reader *r)
{
    char *list = NULL, *save = NULL;
    om_status st;
    if (H5Lexists(r->file, "units", H5P_DEFAULT) <= 0)
        return OM_OK;
    if ((r->units = H5Gopen2(r->file, "units", H5P_DEFAULT)) < 0)
        return OM_ERROR(OM_EHDF5, "%s: cannot open the /units group", r->path);
    st = om_h5_attr_read_string(r->units, r->path, "units", &list);
    for (char *id = st == OM_OK ? strtok_r(list, " ", &save) : NULL; id && st == OM_OK;
         id = strtok_r(NULL, " ", &save)) {
        if (r->n_units == OM_LAYOUT_UNITS_MAX)
            st = OM_ERROR(OM_EHDF5, "%s: more than %d units", r->path, OM_LAYOUT_UNITS_MAX);
        else if ((r->unit[r->n_units++].id = strdup(id)) == NULL)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", r->path);
    }
    free(list);
    list = NULL;
    if (st == OM_OK && r->n_units == 0)
        st = OM_ERROR(OM_EHDF5, "%s: /units lists no units", r->path);
    if (st == OM_OK)
        st = reader_unit_table(r);
    if (st == OM_OK)
        st = om_h5_attr_read_string(r->units, r->path, "fields", &list);
    for (char *name = st == OM_OK ? strtok_r(list, " ", &save) : NULL; name && st == OM_OK;
         name = strtok_r(NULL, " ", &save)) {
        if (r->n_unit_fields == OM_LAYOUT_UNIT_FIELDS_MAX)
            st = OM_ERROR(OM_EHDF5, "%s: more than %d unit fields", r->path,
                          OM_LAYOUT_UNIT_FIELDS_MAX);
        else
            st = reader_open_unit_field(r, r->n_unit_fields++, name);
    }
    free(list);
    if (st == OM_OK && r->n_unit_fields == 0)
        st = OM_ERROR(OM_EHDF5, "%s: /units lists no unit fields", r->path);
    if (st == OM_OK) {
        /* The tallies of so many units and values must fit a tally. */
        om_layout l;
        reader_layout(r, &l);
        if (om_layout_unit_bins(&l) > OM_LAYOUT_UNIT_BINS_MAX)
            st = OM_ERROR(OM_EHDF5, "%s: /units has %zu units and %zu unit fields whose "
                          "values take %zu histogram bins (at most %d)", r->path, r->n_units,
                          r->n_unit_fields, om_layout_unit_bins(&l), OM_LAYOUT_UNIT_BINS_MAX);
    }
    return st;
}

/* The message for a file of another schema: an older program's, or not ours. */
static om_status reader_check_schema(om_h5_reader *r)
{
    char *schema = NULL;
    om_status st = om_h5_attr_read_string(r->root, r->path, "schema", &schema);
    if (st == OM_ENOTFOUND)
        return OM_ERROR(OM_EHDF5, "%s: no schema attribute (not an oddsmaster result file)",
                        r->path);
    if (st == OM_OK && strcmp(schema, OM_H5_SCHEMA) != 0) {
        if (strcmp(schema, OM_H5_SCHEMA_V2) == 0)
            st = OM_ERROR(OM_EHDF5, "%s: written by an older oddsmaster (schema '%s'), whose "
                          "files carry no checksums, so damage in it could not be told from "
                          "data (this version reads '%s'): run its scenario again", r->path,
                          schema, OM_H5_SCHEMA);
        else if (strncmp(schema, "oddsmaster-results/", 19) == 0)
            st = OM_ERROR(OM_EHDF5, "%s: written by another version of oddsmaster (schema "
                          "'%s'; this version reads '%s'): run its scenario again", r->path,
                          schema, OM_H5_SCHEMA);
        else
            st = OM_ERROR(OM_EHDF5, "%s: schema is '%s', expected '%s'", r->path, schema,
                          OM_H5_SCHEMA);
    }
    free(schema);
    return st;
}

/* The part of om_h5_reader_open after the allocations; `r` is freed by the caller on error. */
static om_status reader_open(om_h5_reader *r)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st;

    if ((st = om_h5_open_read(r->path, &r->file)) != OM_OK)
        return st;
    if ((r->root = H5Gopen2(r->file, "/", H5P_DEFAULT)) < 0
        || (r->winner_type = om_h5_winner_type()) < 0)
        return OM_ERROR(OM_EHDF5, "%s: cannot open the root group: %s", r->path,
                        om_h5_detail(why, sizeof why));
    if ((st = reader_check_schema(r)) != OM_OK || (st = om_h5_provenance_check(r->file, r->path))
                                                      != OM_OK)
        return st;
    st = om_h5_reader_attr_u64(r, "trials", &r->trials);
    if (st == OM_ENOTFOUND)
        return OM_ERROR(OM_EHDF5, "%s: no trials attribute", r->path);
    if (st != OM_OK)
        return st;
    if (r->trials == 0)
        return OM_ERROR(OM_EHDF5, "%s: the trials attribute is 0", r->path);
    if ((st = attr_string_opt(r->root, r->path, "points_rule", &r->points_rule)) != OM_OK)
        return st;
    {
        uint64_t rows = 1;
        st = om_h5_reader_attr_u64(r, "rows", &rows);
        if (st == OM_ENOTFOUND)
            return OM_ERROR(OM_EHDF5, "%s: no rows attribute", r->path);
        if (st != OM_OK)
            return st;
        r->rows = rows != 0;
    }
    if (H5Lexists(r->file, "tallies", H5P_DEFAULT) <= 0 ||
        (r->tallies = H5Gopen2(r->file, "tallies", H5P_DEFAULT)) < 0)
        return OM_ERROR(OM_EHDF5, "%s: no /tallies group (the run did not end?)", r->path);
    if ((st = reader_open_trials(r)) != OM_OK)
        return st;
    return reader_open_units(r);
}

bool om_h5_reader_has_rows(const om_h5_reader *r)
{
    return r->rows;
}

/* The fields, unit fields and units of the file as a layout (offsets: the
 * indices; unit_stride 1), for the tallies. */
static void reader_layout(const om_h5_reader *r, om_layout *l)
{
    memset(l, 0, sizeof *l);
    l->field_count = r->n_fields;
    for (size_t f = 0; f < r->n_fields; f++)
        l->fields[f] = r->fields[f].field;
    l->unit_count = r->n_units;
    l->units = r->unit;
    l->unit_field_count = r->n_unit_fields;
    for (size_t f = 0; f < r->n_unit_fields; f++)
        l->unit_fields[f] = r->unit_fields[f].field;
    l->unit_stride = 1;
    l->side[0].loss_field = l->side[1].loss_field = -1;
}

void om_h5_reader_layout(const om_h5_reader *r, om_layout *out)
{
    reader_layout(r, out);
}

size_t om_h5_reader_unit_count(const om_h5_reader *r)
{
    return r->n_units;
}

const om_layout_unit *om_h5_reader_unit(const om_h5_reader *r, size_t i)
{
    return i < r->n_units ? &r->unit[i] : NULL;
}

size_t om_h5_reader_unit_field_count(const om_h5_reader *r)
{
    return r->n_unit_fields;
}

const om_field *om_h5_reader_unit_field(const om_h5_reader *r, size_t i)
{
    return i < r->n_unit_fields ? &r->unit_fields[i].field : NULL;
}

/* /tallies/units/<f> into out's histograms of unit field f: units x (max + 1)
 * counts, each unit's adding up to the trials. */
static om_status reader_unit_tally(om_h5_reader *r, size_t f, om_tally *out)
{
    char why[OM_H5_DETAIL_MAX], shown[OM_H5_NAME_MAX];
    const om_field *uf = &r->unit_fields[f].field;
    hsize_t dims[2] = {0, 0};
    om_status st = OM_OK;
    hid_t d = H5I_INVALID_HID, space = H5I_INVALID_HID;
    snprintf(shown, sizeof shown, "/tallies/units/%s", uf->name);
    if (H5Lexists(r->tallies, "units", H5P_DEFAULT) <= 0 ||
        (d = H5Dopen2(r->tallies, shown + strlen("/tallies/"), H5P_DEFAULT)) < 0 ||
        (space = H5Dget_space(d)) < 0 || H5Sget_simple_extent_ndims(space) != 2 ||
        H5Sget_simple_extent_dims(space, dims, NULL) != 2 || dims[0] != r->n_units ||
        dims[1] != (hsize_t)uf->max + 1)
        st = OM_ERROR(OM_EHDF5, "%s: %s is missing or is not %zu units x %u counts: %s",
                      r->path, shown, r->n_units, uf->max + 1, om_h5_detail(why, sizeof why));
    else if ((st = om_h5_dataset_checked(d, r->path, shown)) == OM_OK)
        st = om_h5_read_whole(d, H5T_NATIVE_UINT64, om_tally_unit(out, f, 0), r->path, shown,
                              "counts of values");
    for (size_t u = 0; st == OM_OK && u < r->n_units; u++) {
        const uint64_t *h = om_tally_unit(out, f, u);
        uint64_t sum = 0;
        for (unsigned v = 0; v <= uf->max; v++)
            sum += h[v];
        if (sum != r->trials)
            st = OM_ERROR(OM_EHDF5, "%s: %s counts %llu trials for unit %s, the file has %llu",
                          r->path, shown, (unsigned long long)sum, r->unit[u].id,
                          (unsigned long long)r->trials);
    }
    om_h5_close_id(&space);
    om_h5_close_id(&d);
    return st;
}

om_status om_h5_reader_tally(om_h5_reader *r, om_tally *out)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    om_layout fields;
    reader_layout(r, &fields);
    if (om_layout_wide_count(&fields) > OM_LAYOUT_WIDE_MAX)
        return OM_ERROR(OM_EHDF5, "%s: more than %d two-byte count fields", r->path,
                        OM_LAYOUT_WIDE_MAX);
    om_tally_clear_layout(out, &fields);
    out->trials = r->trials;
    om_h5_quiet();
    for (size_t f = 0; st == OM_OK && f < r->n_fields; f++) {
        const char *name = r->fields[f].field.name;
        hid_t d = H5Dopen2(r->tallies, name, H5P_DEFAULT), space = H5I_INVALID_HID;
        hsize_t len = 0;
        uint64_t sum = 0;
        uint64_t *hist = (uint64_t *)om_tally_wide(out, f);
        const hsize_t bins = hist != NULL ? OM_TALLY_WIDE_BINS : OM_TALLY_BINS;
        if (hist == NULL)
            hist = out->hist[f];
        char shown[OM_H5_NAME_MAX];
        snprintf(shown, sizeof shown, "/tallies/%s", name);
        if (d < 0 || (space = H5Dget_space(d)) < 0 ||
            H5Sget_simple_extent_ndims(space) != 1 ||
            H5Sget_simple_extent_dims(space, &len, NULL) != 1 || len == 0 || len > bins)
            st = OM_ERROR(OM_EHDF5, "%s: %s is missing or is not a list of 1 to %llu counts: "
                          "%s", r->path, shown, (unsigned long long)bins,
                          om_h5_detail(why, sizeof why));
        else if ((st = om_h5_dataset_checked(d, r->path, shown)) == OM_OK)
            st = om_h5_read_whole(d, H5T_NATIVE_UINT64, hist, r->path, shown, "counts of values");
        for (hsize_t v = 0; st == OM_OK && v < len; v++)
            sum += hist[v];
        if (st == OM_OK && sum != r->trials)
            st = OM_ERROR(OM_EHDF5, "%s: /tallies/%s counts %llu trials, the file has %llu",
                          r->path, name, (unsigned long long)sum,
                          (unsigned long long)r->trials);
        om_h5_close_id(&space);
        om_h5_close_id(&d);
    }
    for (size_t f = 0; st == OM_OK && f < r->n_unit_fields; f++)
        st = reader_unit_tally(r, f, out);
    return st;
}

om_status om_h5_reader_open(om_h5_reader **out, const char *path)
{
    om_h5_reader *r;
    om_status st;
    if (out == NULL || path == NULL)
        return OM_ERROR(OM_EINVAL, "om_h5_reader_open: missing output or path");
    *out = NULL;
    om_h5_quiet();
    r = calloc(1, sizeof *r);
    if (r == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
    r->file = r->root = r->group = r->tallies = r->winner_type = H5I_INVALID_HID;
    r->units = H5I_INVALID_HID;
    if ((r->path = strdup(path)) == NULL) {
        om_h5_reader_close(r);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
    }
    if ((st = reader_open(r)) != OM_OK) {
        om_h5_reader_close(r);
        return st;
    }
    *out = r;
    return OM_OK;
}

hid_t om_h5_reader_file(const om_h5_reader *r)
{
    return r->file;
}

uint64_t om_h5_reader_trials(const om_h5_reader *r)
{
    return r->trials;
}

const char *om_h5_reader_path(const om_h5_reader *r)
{
    return r->path;
}

size_t om_h5_reader_field_count(const om_h5_reader *r)
{
    return r->n_fields;
}

const om_field *om_h5_reader_field(const om_h5_reader *r, size_t i)
{
    return i < r->n_fields ? &r->fields[i].field : NULL;
}

const char *om_h5_reader_points_rule(const om_h5_reader *r)
{
    return r->points_rule;
}

/* Index of the field `name`, or -1. */
static long reader_field_index(const om_h5_reader *r, const char *name)
{
    for (size_t i = 0; name != NULL && i < r->n_fields; i++)
        if (strcmp(r->fields[i].field.name, name) == 0)
            return (long)i;
    return -1;
}

int om_h5_reader_has_field(const om_h5_reader *r, const char *name)
{
    return reader_field_index(r, name) >= 0;
}

om_status om_h5_reader_side(om_h5_reader *r, int side, om_side_score *out)
{
    char name[32], *field = NULL;
    uint64_t v = 0;
    size_t n = 0;
    om_status st;

    memset(out, 0, sizeof *out);
    out->loss_field = -1;
    snprintf(name, sizeof name, "unit_%s", om_h5_side_key[side]);
    if (r->side_text[side][0] == NULL &&
        (st = attr_string_opt(r->root, r->path, name, &r->side_text[side][0])) != OM_OK)
        return st;
    out->name = r->side_text[side][0];
    snprintf(name, sizeof name, "points_%s", om_h5_side_key[side]);
    if ((st = om_h5_reader_attr_u64(r, name, &v)) == OM_OK)
        out->points = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
    else if (st == OM_ENOTFOUND)
        om_error_clear();
    else
        return st;
    snprintf(name, sizeof name, "loss_field_%s", om_h5_side_key[side]);
    if ((st = attr_string_opt(r->root, r->path, name, &field)) != OM_OK || field == NULL)
        return st;
    out->loss_field = (int)reader_field_index(r, field);
    free(field);
    snprintf(name, sizeof name, "loss_unit_%s", om_h5_side_key[side]);
    if (r->side_text[side][1] == NULL &&
        (st = attr_string_opt(r->root, r->path, name, &r->side_text[side][1])) != OM_OK)
        return st;
    out->loss_unit = r->side_text[side][1];
    snprintf(name, sizeof name, "loss_start_%s", om_h5_side_key[side]);
    if ((st = om_h5_reader_attr_u64(r, name, &v)) != OM_OK || v > 255)
        return st != OM_OK ? st : OM_ERROR(OM_EHDF5, "%s: %s is %llu (at most 255)", r->path,
                                           name, (unsigned long long)v);
    out->loss_start = (unsigned)v;
    snprintf(name, sizeof name, "vp_lost_%s", om_h5_side_key[side]);
    if ((st = om_h5_attr_read_u32s(r->root, r->path, name, out->vp_lost, 256, &n)) != OM_OK)
        return st;
    if (n != out->loss_start + 1 || out->loss_field < 0)
        return OM_ERROR(OM_EHDF5, "%s: the victory points of side %s do not fit its fields",
                        r->path, om_h5_side_key[side]);
    return OM_OK;
}

/* Rows first..first+count-1 of /trials/<name> into buf, as `wide` (two-byte)
 * values or one-byte ones (om_h5_reader_read and om_h5_reader_read16). */
static om_status read_rows(om_h5_reader *r, const char *name, uint64_t first, size_t count,
                           void *buf, bool wide)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    long i;
    hsize_t start = first, n = count;
    hid_t fspace, mspace;

    if (r == NULL || name == NULL || (buf == NULL && count > 0))
        return OM_ERROR(OM_EINVAL, "om_h5_reader_read: missing reader, name or buffer");
    if ((i = reader_field_index(r, name)) < 0)
        return OM_ERROR(OM_EINVAL, "%s: no dataset /trials/%s", r->path, name);
    if (!wide && r->fields[i].field.type == OM_FIELD_COUNT16)
        return OM_ERROR(OM_EINVAL, "%s: /trials/%s holds two-byte values: read it with "
                        "om_h5_reader_read16", r->path, name);
    if (!r->rows)
        return OM_ERROR(OM_EINVAL, "%s: the run wrote no rows (--no-rows); its tallies hold "
                        "the distributions of every field", r->path);
    if (first > r->trials || count > r->trials - first)
        return OM_ERROR(OM_EINVAL, "%s: %zu rows from row %llu of /trials/%s lie outside its "
                        "%llu rows", r->path, count, (unsigned long long)first, name,
                        (unsigned long long)r->trials);
    if (count == 0)
        return OM_OK;
    om_h5_quiet();
    fspace = H5Dget_space(r->fields[i].dset);
    mspace = H5Screate_simple(1, &n, NULL);
    /*
     * An enumerated winner dataset is read through our own enumeration over uint8
     * rather than as a plain uint8: HDF5 then maps the file's values by name, so a
     * file that numbers a, b, draw, none differently still reads as OM_WINNER_*
     * codes (a value without a name we know reads as 255).
     */
    if (fspace < 0 || mspace < 0
        || H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &start, NULL, &n, NULL) < 0
        || H5Dread(r->fields[i].dset,
                   wide                    ? H5T_NATIVE_UINT16
                   : r->fields[i].by_name ? r->winner_type
                                          : H5T_NATIVE_UINT8,
                   mspace, fspace, H5P_DEFAULT, buf) < 0) {
        hsize_t bad_first, bad_last;
        om_h5_detail(why, sizeof why);
        if (om_h5_chunk_damaged(r->fields[i].dset, &bad_first, &bad_last))
            st = OM_ERROR(OM_EHDF5, "%s: /trials/%s, rows %llu..%llu: " OM_H5_DAMAGED, r->path,
                          name, (unsigned long long)bad_first, (unsigned long long)bad_last);
        else
            st = OM_ERROR(OM_EHDF5, "%s: cannot read rows %llu..%llu of /trials/%s: %s",
                          r->path, (unsigned long long)first,
                          (unsigned long long)(first + count - 1), name, why);
    }
    om_h5_close_id(&mspace);
    om_h5_close_id(&fspace);
    return st;
}

om_status om_h5_reader_read(om_h5_reader *r, const char *name, uint64_t first, size_t count,
                            uint8_t *buf)
{
    return read_rows(r, name, first, count, buf, false);
}

om_status om_h5_reader_read16(om_h5_reader *r, const char *name, uint64_t first, size_t count,
                              uint16_t *buf)
{
    return read_rows(r, name, first, count, buf, true);
}

om_status om_h5_reader_read_unit(om_h5_reader *r, size_t field, size_t unit, uint64_t first,
                                 size_t count, uint8_t *buf)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    hid_t fspace, mspace;
    if (r == NULL || (buf == NULL && count > 0) || field >= r->n_unit_fields ||
        unit >= r->n_units)
        return OM_ERROR(OM_EINVAL, "om_h5_reader_read_unit: no reader, buffer, unit field or "
                        "unit");
    const char *name = r->unit_fields[field].field.name, *id = r->unit[unit].id;
    const hsize_t start[2] = {first, unit}, n[2] = {count, 1};
    if (!r->rows)
        return OM_ERROR(OM_EINVAL, "%s: the run wrote no rows (--no-rows); its tallies hold "
                        "the distributions of every field", r->path);
    if (first > r->trials || count > r->trials - first)
        return OM_ERROR(OM_EINVAL, "%s: %zu rows from row %llu of /units/%s[%s] lie outside "
                        "its %llu rows", r->path, count, (unsigned long long)first, name, id,
                        (unsigned long long)r->trials);
    if (count == 0)
        return OM_OK;
    om_h5_quiet();
    fspace = H5Dget_space(r->unit_fields[field].dset);
    mspace = H5Screate_simple(1, n, NULL);
    if (fspace < 0 || mspace < 0 ||
        H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, n, NULL) < 0 ||
        H5Dread(r->unit_fields[field].dset, H5T_NATIVE_UINT8, mspace, fspace, H5P_DEFAULT,
                buf) < 0) {
        hsize_t bad_first[2], bad_last[2];
        om_h5_detail(why, sizeof why);
        if (om_h5_chunk_damaged(r->unit_fields[field].dset, bad_first, bad_last))
            st = OM_ERROR(OM_EHDF5, "%s: /units/%s, rows %llu..%llu of unit %s: " OM_H5_DAMAGED,
                          r->path, name, (unsigned long long)bad_first[0],
                          (unsigned long long)bad_last[0],
                          r->unit[bad_first[1] < r->n_units ? bad_first[1] : unit].id);
        else
            st = OM_ERROR(OM_EHDF5, "%s: cannot read rows %llu..%llu of /units/%s[%s]: %s",
                          r->path, (unsigned long long)first,
                          (unsigned long long)(first + count - 1), name, id, why);
    }
    om_h5_close_id(&mspace);
    om_h5_close_id(&fspace);
    return st;
}

/* Rows read at a time when every row is counted again (a few chunks). */
#define CHECK_ROWS ((size_t)1 << 16)

/* Differences between the rows and the tallies listed in a message at most. */
#define CHECK_LISTED 6

/* The tally of every row of the file, into `out` (cleared for its fields). */
static om_status rows_tally(om_h5_reader *r, om_tally *out)
{
    om_layout fields;
    uint16_t *buf = malloc(CHECK_ROWS * sizeof *buf);
    om_status st = OM_OK;
    if (buf == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", r->path);
    reader_layout(r, &fields);
    om_tally_clear_layout(out, &fields);
    out->trials = r->trials;
    for (size_t f = 0; f < r->n_fields && st == OM_OK; f++) {
        uint64_t *wide = (uint64_t *)om_tally_wide(out, f);
        for (uint64_t first = 0; first < r->trials && st == OM_OK; first += CHECK_ROWS) {
            const size_t n = r->trials - first < CHECK_ROWS ? (size_t)(r->trials - first)
                                                            : CHECK_ROWS;
            if (wide != NULL) {
                if ((st = read_rows(r, r->fields[f].field.name, first, n, buf, true)) == OM_OK)
                    for (size_t k = 0; k < n; k++)
                        wide[buf[k]]++;
            } else {
                uint8_t *b = (uint8_t *)buf;
                if ((st = read_rows(r, r->fields[f].field.name, first, n, b, false)) == OM_OK)
                    for (size_t k = 0; k < n; k++)
                        out->hist[f][b[k]]++;
            }
        }
    }
    /* Each unit's column of each unit field; a value above the field's max
     * is a difference of its own (the tallies have no bin for it). */
    for (size_t f = 0; f < r->n_unit_fields && st == OM_OK; f++)
        for (size_t u = 0; u < r->n_units && st == OM_OK; u++) {
            uint64_t *h = om_tally_unit(out, f, u);
            for (uint64_t first = 0; first < r->trials && st == OM_OK; first += CHECK_ROWS) {
                const size_t n = r->trials - first < CHECK_ROWS ? (size_t)(r->trials - first)
                                                                : CHECK_ROWS;
                uint8_t *b = (uint8_t *)buf;
                if ((st = om_h5_reader_read_unit(r, f, u, first, n, b)) == OM_OK)
                    for (size_t k = 0; k < n; k++) {
                        if (b[k] <= r->unit_fields[f].field.max)
                            h[b[k]]++;
                        else
                            out->unit_over++;
                    }
            }
        }
    free(buf);
    return st;
}

om_status om_h5_reader_check_rows(om_h5_reader *r, om_tally *out)
{
    om_tally *rows = malloc(sizeof *rows), *tallies = malloc(sizeof *tallies);
    char list[OM_ERROR_MSG_MAX / 2] = "";
    size_t listed = 0, differ = 0, at = 0;
    om_status st = OM_OK;
    if (r == NULL)
        st = OM_ERROR(OM_EINVAL, "om_h5_reader_check_rows: no reader");
    else if (rows == NULL || tallies == NULL)
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", r->path);
    else if (!r->rows)
        st = OM_ERROR(OM_EINVAL, "%s: the run wrote no rows (--no-rows): there are none to "
                      "count", r->path);
    if (st == OM_OK && (st = om_h5_reader_tally(r, tallies)) == OM_OK)
        st = rows_tally(r, rows);
    /* Every value of every field: the counts of the rows against the tallies. */
    for (size_t f = 0; st == OM_OK && f < r->n_fields; f++) {
        const uint64_t *a = om_tally_wide(rows, f), *b = om_tally_wide(tallies, f);
        const size_t bins = a != NULL ? OM_TALLY_WIDE_BINS : OM_TALLY_BINS;
        if (a == NULL) {
            a = rows->hist[f];
            b = tallies->hist[f];
        }
        for (size_t v = 0; v < bins; v++) {
            if (a[v] == b[v])
                continue;
            if (listed++ < CHECK_LISTED && at < sizeof list)
                at += (size_t)snprintf(list + at, sizeof list - at, "%s%s = %zu: %llu rows, "
                                       "the tally %llu", differ > 0 ? "; " : "",
                                       r->fields[f].field.name, v, (unsigned long long)a[v],
                                       (unsigned long long)b[v]);
            differ++;
        }
    }
    for (size_t f = 0; st == OM_OK && f < r->n_unit_fields; f++)
        for (size_t u = 0; u < r->n_units; u++) {
            const uint64_t *a = om_tally_unit(rows, f, u), *b = om_tally_unit(tallies, f, u);
            for (size_t v = 0; v <= r->unit_fields[f].field.max; v++) {
                if (a[v] == b[v])
                    continue;
                if (listed++ < CHECK_LISTED && at < sizeof list)
                    at += (size_t)snprintf(list + at, sizeof list - at, "%s%s[%s] = %zu: %llu "
                                           "rows, the tally %llu", differ > 0 ? "; " : "",
                                           r->unit_fields[f].field.name, r->unit[u].id, v,
                                           (unsigned long long)a[v], (unsigned long long)b[v]);
                differ++;
            }
        }
    if (st == OM_OK && rows->unit_over > 0) {
        if (listed++ < CHECK_LISTED && at < sizeof list)
            at += (size_t)snprintf(list + at, sizeof list - at, "%s%llu unit values above "
                                   "their field's max", differ > 0 ? "; " : "",
                                   (unsigned long long)rows->unit_over);
        differ++;
    }
    if (st == OM_OK && differ > 0)
        st = OM_ERROR(OM_EHDF5, "%s: the rows and the tallies differ (the file is damaged): "
                      "%s%s%zu difference%s in all", r->path, list,
                      differ > CHECK_LISTED ? "; ... " : "; ", differ, differ > 1 ? "s" : "");
    if (st == OM_OK && out != NULL)
        *out = *rows;
    free(rows);
    free(tallies);
    return st;
}

om_status om_h5_reader_attr_string(om_h5_reader *r, const char *name, char **out)
{
    if (r == NULL || name == NULL || out == NULL)
        return OM_ERROR(OM_EINVAL, "om_h5_reader_attr_string: missing reader, name or output");
    om_h5_quiet();
    return om_h5_attr_read_string(r->root, r->path, name, out);
}

om_status om_h5_reader_attr_u64(om_h5_reader *r, const char *name, uint64_t *out)
{
    if (r == NULL || name == NULL || out == NULL)
        return OM_ERROR(OM_EINVAL, "om_h5_reader_attr_u64: missing reader, name or output");
    om_h5_quiet();
    return om_h5_attr_read_u64(r->root, r->path, name, out);
}

om_status om_h5_reader_attr_double(om_h5_reader *r, const char *name, double *out)
{
    if (r == NULL || name == NULL || out == NULL)
        return OM_ERROR(OM_EINVAL, "om_h5_reader_attr_double: missing reader, name or output");
    om_h5_quiet();
    return om_h5_attr_read_double(r->root, r->path, name, out);
}

void om_h5_reader_close(om_h5_reader *r)
{
    if (r == NULL)
        return;
    om_h5_quiet();
    for (size_t i = 0; i < r->n_fields; i++) {
        om_h5_close_id(&r->fields[i].dset);
        free((char *)r->fields[i].field.name);
        free((char *)r->fields[i].field.description);
        free((char *)r->fields[i].field.title);
    }
    for (size_t i = 0; i < r->n_unit_fields; i++) {
        om_h5_close_id(&r->unit_fields[i].dset);
        free((char *)r->unit_fields[i].field.name);
        free((char *)r->unit_fields[i].field.description);
    }
    for (size_t u = 0; u < r->n_units; u++) {
        free((char *)r->unit[u].id);
        free((char *)r->unit[u].name);
        free((char *)r->unit[u].army);
    }
    om_h5_close_id(&r->units);
    for (int s = 0; s < 2; s++) {
        free(r->side_text[s][0]);
        free(r->side_text[s][1]);
    }
    om_h5_close_id(&r->winner_type);
    om_h5_close_id(&r->tallies);
    om_h5_close_id(&r->group);
    om_h5_close_id(&r->root);
    om_h5_close_id(&r->file);
    free(r->points_rule);
    free(r->path);
    free(r);
}
