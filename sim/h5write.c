/*
 * h5write.c: writing a run's result file (h5file.h), one of the few places
 * HDF5 is used (h5_int.h lists the conventions).
 *
 * Every public function first switches off HDF5's automatic printing of its
 * error stack for the calling thread; failures are reported once through
 * OM_ERROR, with the file name and the innermost message of the HDF5 error
 * stack (h5_int.h). The datasets are created at the size asked for, one chunk
 * per block, and cut to the trials run when the run ends, which is also when
 * the tallies and the run's end are recorded and the temporary file renamed.
 */
#include "h5file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h5_int.h"

/*
 * Rows gathered per H5Dwrite by om_h5_writer_put: a put of more rows is
 * written in pieces, so the scratch buffer is allocated once (64 KiB).
 */
#define OM_H5_SCRATCH_ROWS 65536u

struct om_h5_writer {
    char *path;         /* the path the file is for */
    char *tmp_path;     /* temporary file written until the run ends */
    int lock;           /* a descriptor of it holding its lock (om_h5_tmp_claim), or -1 */
    hid_t file;         /* the open temporary file, or H5I_INVALID_HID */
    hid_t driver;       /* the buffered driver it is written through (h5vfd.c), registered
                           until it is closed, or H5I_INVALID_HID */
    hid_t group;        /* the /trials group, or H5I_INVALID_HID */
    hid_t winner_type;  /* enumerated type of winner fields (file and memory) */
    om_layout layout;   /* the fields of a row (a copy) */
    bool rows;          /* the file holds per-trial rows */
    hid_t dset[OM_LAYOUT_FIELDS_MAX]; /* per field: its dataset, or H5I_INVALID_HID */
    hid_t units;        /* the /units group of a layout with units, or H5I_INVALID_HID */
    hid_t udset[OM_LAYOUT_UNIT_FIELDS_MAX]; /* per unit field: its dataset /units/<name>
                                               (trials x units), or H5I_INVALID_HID */
    uint64_t trials;    /* trials asked for: the datasets' size until the end */
    uint64_t chunk_rows; /* rows per chunk (one block) */
    om_tally *tally;    /* the run's tally: every row put */
    uint8_t *scratch;   /* one column of a put, gathered from the rows (two bytes a row
                           for a two-byte count field) */
    size_t scratch_rows; /* capacity of scratch in rows */
    bool failed;        /* a put failed: the file must not be published */
};

/* ----------------------------------------------------------------- attributes */

/* Write a variable-length UTF-8 string attribute (NULL is written as ""). */
static om_status writer_attr_string(om_h5_writer *w, hid_t obj, const char *name,
                                    const char *value)
{
    return om_h5_attr_write_string(obj, w->path, name, value);
}

static om_status writer_attr_u64(om_h5_writer *w, const char *name, uint64_t value)
{
    return om_h5_attr_write(w->file, w->path, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, &value);
}

static om_status writer_attr_u32(om_h5_writer *w, const char *name, uint32_t value)
{
    return om_h5_attr_write(w->file, w->path, name, H5T_STD_U32LE, H5T_NATIVE_UINT32, &value);
}

static om_status writer_attr_double(om_h5_writer *w, const char *name, double value)
{
    return om_h5_attr_write(w->file, w->path, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

/* How each side loses victory points (h5file.h), for the sides whose points
 * the layout knows; the fields of each side's score and of a unit's loss,
 * where the layout declares them. */
static om_status writer_points_attrs(om_h5_writer *w, const om_layout *l)
{
    om_status st = OM_OK;
    bool any = false;
    for (int s = 0; s < 2 && st == OM_OK; s++) {
        const om_side_score *sc = &l->side[s];
        char name[32];
        if (sc->loss_field < 0)
            continue;
        any = true;
        snprintf(name, sizeof name, "loss_field_%s", om_h5_side_key[s]);
        st = writer_attr_string(w, w->file, name, l->fields[sc->loss_field].name);
        snprintf(name, sizeof name, "loss_unit_%s", om_h5_side_key[s]);
        if (st == OM_OK)
            st = writer_attr_string(w, w->file, name, sc->loss_unit);
        snprintf(name, sizeof name, "loss_start_%s", om_h5_side_key[s]);
        if (st == OM_OK)
            st = writer_attr_u32(w, name, sc->loss_start);
        snprintf(name, sizeof name, "vp_lost_%s", om_h5_side_key[s]);
        if (st == OM_OK)
            st = om_h5_attr_write_u32s(w->file, w->path, name, sc->vp_lost, sc->loss_start + 1);
    }
    if (st == OM_OK && any && l->points_rule != NULL)
        st = writer_attr_string(w, w->file, "points_rule", l->points_rule);
    for (int s = 0; s < 2 && st == OM_OK; s++) {
        char name[32];
        snprintf(name, sizeof name, "score_field_%s", om_h5_side_key[s]);
        if (l->score_field[s] != NULL)
            st = writer_attr_string(w, w->file, name, l->score_field[s]);
    }
    if (st == OM_OK && l->unit_lost_field != NULL)
        st = writer_attr_string(w, w->file, "unit_lost_field", l->unit_lost_field);
    if (st == OM_OK && l->unit_points_field[0] != NULL)
        st = writer_attr_string(w, w->file, "unit_given_field", l->unit_points_field[0]);
    if (st == OM_OK && l->unit_points_field[1] != NULL)
        st = writer_attr_string(w, w->file, "unit_scored_field", l->unit_points_field[1]);
    return st;
}

/* The provenance attributes of the root group (h5file.h). */
static om_status writer_root_attrs(om_h5_writer *w, const om_run_info *info)
{
    const om_h5_text texts[] = {
        {"schema", OM_H5_SCHEMA},
        {"game", info->game},
        {"program_version", info->program_version},
        {"command_line", info->command_line},
        {"scenario_name", info->scenario_name},
        {"scenario_yaml", info->scenario_text},
        {"title", info->title},
        {"ruleset", info->ruleset},
        {"kind", info->kind},
        {"unit_a", info->layout->side[0].name},
        {"unit_b", info->layout->side[1].name},
        {"options_json", info->options_json},
        {"rng", info->rng_scheme},
        {"target", info->target},
    };
    om_status st = om_h5_attr_write_texts(w->file, w->path, texts,
                                          sizeof texts / sizeof texts[0]);
    if (st != OM_OK)
        return st;
    if ((st = writer_attr_u64(w, "seed", info->seed)) != OM_OK
        || (st = writer_attr_u64(w, "trials_requested", info->trials)) != OM_OK
        || (st = writer_attr_u64(w, "block_size", info->block_size)) != OM_OK
        || (st = writer_attr_u32(w, "threads", info->threads)) != OM_OK
        || (st = writer_attr_u32(w, "rows", !info->no_rows)) != OM_OK
        || (st = writer_attr_double(w, "halfwidth", info->halfwidth)) != OM_OK
        || (st = writer_attr_u32(w, "points_a", info->layout->side[0].points)) != OM_OK
        || (st = writer_attr_u32(w, "points_b", info->layout->side[1].points)) != OM_OK)
        return st;
    return writer_points_attrs(w, info->layout);
}

/* ----------------------------------------------------------------- datasets */

/* The description, type and title of field i as attributes of `obj` (its rows'
 * dataset, and its tally, which a file without rows has alone). */
static om_status writer_field_attrs(om_h5_writer *w, hid_t obj, size_t i)
{
    const om_field *f = &w->layout.fields[i];
    om_status st = writer_attr_string(w, obj, "description", f->description);
    if (st == OM_OK)
        st = writer_attr_string(w, obj, "type", om_h5_field_type_names[f->type]);
    if (st == OM_OK && f->type == OM_FIELD_WINNER)
        st = writer_attr_string(w, obj, "title", f->title);
    return st;
}

/* The description, type and max of unit field i as attributes of `obj` (its
 * dataset and its tallies). */
static om_status writer_unit_field_attrs(om_h5_writer *w, hid_t obj, size_t i)
{
    const om_field *f = &w->layout.unit_fields[i];
    const uint32_t max = f->max;
    om_status st = writer_attr_string(w, obj, "description", f->description);
    if (st == OM_OK)
        st = writer_attr_string(w, obj, "type", om_h5_field_type_names[f->type]);
    if (st == OM_OK)
        st = om_h5_attr_write(obj, w->path, "max", H5T_STD_U32LE, H5T_NATIVE_UINT32, &max);
    return st;
}

/* The names of n strings (unit fields, or unit ids) separated by spaces, as
 * the attribute `name` of `obj`. */
static om_status writer_name_list(om_h5_writer *w, hid_t obj, const char *name,
                                  const char *(*nth)(const om_layout *, size_t), size_t n)
{
    size_t len = 1;
    char *list;
    om_status st;
    for (size_t i = 0; i < n; i++)
        len += strlen(nth(&w->layout, i)) + 1;
    if ((list = malloc(len)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", w->path);
    list[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            strcat(list, " ");
        strcat(list, nth(&w->layout, i));
    }
    st = writer_attr_string(w, obj, name, list);
    free(list);
    return st;
}

static const char *unit_field_name(const om_layout *l, size_t i)
{
    return l->unit_fields[i].name;
}

static const char *unit_id(const om_layout *l, size_t i)
{
    return l->units[i].id;
}

/* The table of units, /units/table: one record per unit (h5_int.h,
 * om_h5_unit_table_type), its strings as long as the longest of each. */
static om_status writer_unit_table(om_h5_writer *w)
{
    const om_layout *l = &w->layout;
    char why[OM_H5_DETAIL_MAX];
    size_t len[3] = {1, 1, 1}, offset[OM_H5_UNIT_MEMBERS], record = 0;
    hsize_t n = l->unit_count;
    om_status st = OM_OK;
    hid_t type, space = H5I_INVALID_HID, d = H5I_INVALID_HID;
    uint8_t *buf;
    for (size_t u = 0; u < l->unit_count; u++) {
        const char *text[3] = {l->units[u].id, l->units[u].name, l->units[u].army};
        for (int k = 0; k < 3; k++) {
            const size_t m = strlen(text[k] != NULL ? text[k] : "") + 1;
            len[k] = m > len[k] ? m : len[k];
        }
    }
    if ((type = om_h5_unit_table_type(len, false, offset, &record)) < 0)
        return OM_ERROR(OM_EHDF5, "%s: cannot make the type of /units/table: %s", w->path,
                        om_h5_detail(why, sizeof why));
    if ((buf = calloc(l->unit_count, record)) == NULL) {
        om_h5_close_id(&type);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", w->path);
    }
    for (size_t u = 0; u < l->unit_count; u++) {
        uint8_t *rec = buf + u * record;
        const char *text[3] = {l->units[u].id, l->units[u].name, l->units[u].army};
        const uint32_t points = l->units[u].points;
        for (int k = 0; k < 3; k++)
            memcpy(rec + offset[k], text[k] != NULL ? text[k] : "",
                   strlen(text[k] != NULL ? text[k] : ""));
        rec[offset[3]] = l->units[u].side;
        /* Little-endian, as the file's type says. */
        for (int b = 0; b < 4; b++)
            rec[offset[4] + (size_t)b] = (uint8_t)(points >> (8 * b));
    }
    if ((space = H5Screate_simple(1, &n, NULL)) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot create dataset /units/table", w->path);
    else if ((st = om_h5_dataset_create(w->units, "table", type, space, NULL, 0, w->path,
                                        "/units/table", &d)) == OM_OK &&
             H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot write /units/table: %s", w->path,
                      om_h5_detail(why, sizeof why));
    om_h5_close_id(&d);
    om_h5_close_id(&space);
    om_h5_close_id(&type);
    free(buf);
    return st;
}

/*
 * Create the dataset /units/<name> of unit field i: trials x units, growable
 * in trials as /trials's datasets, one chunk per block and unit (each chunk
 * one byte column of the rows, encoded as a field's), scale-offset and the
 * checksum.
 */
static om_status writer_unit_dataset(om_h5_writer *w, size_t i)
{
    const om_field *f = &w->layout.unit_fields[i];
    char shown[OM_H5_NAME_MAX];
    om_status st;
    hsize_t dims[2] = {w->trials, w->layout.unit_count};
    hsize_t maxdims[2] = {H5S_UNLIMITED, w->layout.unit_count}, chunk[2] = {w->chunk_rows, 1};
    hid_t space = H5Screate_simple(2, dims, maxdims);
    snprintf(shown, sizeof shown, "/units/%s", f->name);
    if (space < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot create dataset %s", w->path, shown);
    else
        st = om_h5_dataset_create(w->units, f->name, H5T_STD_U8LE, space, chunk,
                                  OM_H5_NO_FILL | OM_H5_SCALEOFFSET, w->path, shown,
                                  &w->udset[i]);
    om_h5_close_id(&space);
    return st == OM_OK ? writer_unit_field_attrs(w, w->udset[i], i) : st;
}

/* The /units group of a layout with units: its lists of unit fields and unit
 * ids, its table and, with rows, a dataset per unit field. */
static om_status writer_units(om_h5_writer *w)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st;
    if (w->layout.unit_count == 0)
        return OM_OK;
    if ((w->units = H5Gcreate2(w->file, "units", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        return OM_ERROR(OM_EHDF5, "%s: cannot create the /units group: %s", w->path,
                        om_h5_detail(why, sizeof why));
    if ((st = writer_name_list(w, w->units, "fields", unit_field_name,
                               w->layout.unit_field_count)) != OM_OK ||
        (st = writer_name_list(w, w->units, "units", unit_id, w->layout.unit_count)) != OM_OK ||
        (st = writer_unit_table(w)) != OM_OK)
        return st;
    for (size_t i = 0; w->rows && i < w->layout.unit_field_count && st == OM_OK; i++)
        st = writer_unit_dataset(w, i);
    return st;
}

/*
 * Create the dataset /trials/<name> of field i: the trials asked for, growable
 * (a run stopped early is cut at its end, a resumed one grows again), one
 * chunk per block, no fill value, and the checksum of every dataset
 * (om_h5_dataset_create). A count or flag uses HDF5's scale-offset filter for
 * integers with the library's choice of bits, which the missing fill value
 * spares a reserved code (h5chunk.c writes exactly what the filters would); a
 * winner keeps its enumerated type, which the filter does not take, and is
 * stored as it is, one byte a trial; a two-byte count is stored as it is too,
 * as 16-bit little-endian integers.
 */
static om_status writer_dataset(om_h5_writer *w, size_t i)
{
    const om_field *f = &w->layout.fields[i];
    char shown[OM_H5_NAME_MAX];
    om_status st = OM_OK;
    hsize_t dims = w->trials, maxdims = H5S_UNLIMITED, chunk = w->chunk_rows;
    const bool packed = f->type != OM_FIELD_WINNER && f->type != OM_FIELD_COUNT16;
    hid_t type = f->type == OM_FIELD_WINNER    ? w->winner_type
                 : f->type == OM_FIELD_COUNT16 ? H5T_STD_U16LE
                                               : H5T_STD_U8LE;
    hid_t space = H5Screate_simple(1, &dims, &maxdims);

    snprintf(shown, sizeof shown, "/trials/%s", f->name);
    if (space < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot create dataset %s", w->path, shown);
    else
        st = om_h5_dataset_create(w->group, f->name, type, space, &chunk,
                                  OM_H5_NO_FILL | (packed ? OM_H5_SCALEOFFSET : 0), w->path,
                                  shown, &w->dset[i]);
    om_h5_close_id(&space);
    return st == OM_OK ? writer_field_attrs(w, w->dset[i], i) : st;
}

/* The fields attribute of /trials: the field names in report order. */
static om_status writer_field_list(om_h5_writer *w)
{
    size_t len = 1;
    char *list;
    om_status st;
    for (size_t i = 0; i < w->layout.field_count; i++)
        len += strlen(w->layout.fields[i].name) + 1;
    if ((list = malloc(len)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", w->path);
    list[0] = '\0';
    for (size_t i = 0; i < w->layout.field_count; i++) {
        if (i > 0)
            strcat(list, " ");
        strcat(list, w->layout.fields[i].name);
    }
    st = writer_attr_string(w, w->group, "fields", list);
    free(list);
    return st;
}

/* The digest of the run as the file records it when it begins
 * (om_h5_provenance): the readers, and a resumption, check the run's
 * attributes against it. */
static om_status writer_provenance(om_h5_writer *w)
{
    char *text = NULL;
    om_status st = om_h5_provenance(w->file, w->path, &text);
    if (st == OM_OK)
        st = writer_attr_string(w, w->file, OM_H5_PROVENANCE_ATTR, text);
    free(text);
    return st;
}

/* Close every HDF5 object of `w`; the first failure is raised and returned.
 * A write that failed, before or while closing, is an OM_EIO with the
 * system's reason; the library's close then succeeds all the same
 * (om_h5_buffered_closing), so that nothing is left half closed. */
static om_status writer_close_objects(om_h5_writer *w)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    int failed = 0;
    if (w->file >= 0)
        om_h5_buffered_closing(w->file, &failed);
    for (size_t i = 0; i < w->layout.field_count; i++) {
        if (w->dset[i] >= 0 && H5Dclose(w->dset[i]) < 0 && st == OM_OK)
            st = OM_ERROR(OM_EHDF5, "%s: cannot close dataset /trials/%s: %s", w->path,
                          w->layout.fields[i].name, om_h5_detail(why, sizeof why));
        w->dset[i] = H5I_INVALID_HID;
    }
    for (size_t i = 0; i < w->layout.unit_field_count; i++)
        if (w->udset[i] >= 0 && H5Dclose(w->udset[i]) < 0 && st == OM_OK)
            st = OM_ERROR(OM_EHDF5, "%s: cannot close dataset /units/%s: %s", w->path,
                          w->layout.unit_fields[i].name, om_h5_detail(why, sizeof why));
    for (size_t i = 0; i < OM_LAYOUT_UNIT_FIELDS_MAX; i++)
        w->udset[i] = H5I_INVALID_HID;
    om_h5_close_id(&w->units);
    om_h5_close_id(&w->group);
    om_h5_close_id(&w->winner_type);
    /* Closing the file flushes it: a full disk shows up here. */
    if (w->file >= 0 && H5Fclose(w->file) < 0 && st == OM_OK)
        st = OM_ERROR(OM_EHDF5, "%s: cannot write the file: %s", w->path,
                      om_h5_detail(why, sizeof why));
    w->file = H5I_INVALID_HID;
    if (failed != 0 && st == OM_OK)
        st = OM_ERROR(OM_EIO, "%s: cannot write the file: %s", w->path, strerror(failed));
    om_h5_close_id(&w->driver);
    return st;
}

static void writer_free(om_h5_writer *w)
{
    free(w->tally);
    free(w->scratch);
    free(w->tmp_path);
    free(w->path);
    free(w);
}

/* A writer with nothing open yet for `path` and `layout`; NULL when out of memory. */
static om_h5_writer *writer_alloc(const char *path, const om_layout *layout)
{
    om_h5_writer *w = calloc(1, sizeof *w);
    if (w == NULL)
        return NULL;
    w->file = w->driver = w->group = w->winner_type = H5I_INVALID_HID;
    w->lock = -1;
    w->layout = *layout;
    for (size_t i = 0; i < OM_LAYOUT_FIELDS_MAX; i++)
        w->dset[i] = H5I_INVALID_HID;
    w->units = H5I_INVALID_HID;
    for (size_t i = 0; i < OM_LAYOUT_UNIT_FIELDS_MAX; i++)
        w->udset[i] = H5I_INVALID_HID;
    w->path = strdup(path);
    w->tally = malloc(sizeof *w->tally);
    if (w->path == NULL || w->tally == NULL) {
        writer_free(w);
        return NULL;
    }
    om_tally_clear_layout(w->tally, layout);
    return w;
}

om_status om_h5_writer_create(om_h5_writer **out, const char *path, const om_run_info *info)
{
    char why[OM_H5_DETAIL_MAX], bad[OM_H5_DETAIL_MAX];
    const char *wrong;
    om_h5_writer *w;
    om_status st;

    if (out == NULL || path == NULL || path[0] == '\0' || info == NULL || info->layout == NULL)
        return OM_ERROR(OM_EINVAL, "om_h5_writer_create: missing output, path or run info");
    *out = NULL;
    if (info->trials == 0)
        return OM_ERROR(OM_EINVAL, "%s: a result file needs at least one trial (trials = 0)",
                        path);
    if (info->layout->field_count == 0 || info->layout->field_count > OM_LAYOUT_FIELDS_MAX)
        return OM_ERROR(OM_EINVAL, "%s: a layout of %zu fields (1 to %d)", path,
                        info->layout->field_count, OM_LAYOUT_FIELDS_MAX);
    if (om_layout_wide_count(info->layout) > OM_LAYOUT_WIDE_MAX)
        return OM_ERROR(OM_EINVAL, "%s: a layout of %zu two-byte count fields (at most %d)",
                        path, om_layout_wide_count(info->layout), OM_LAYOUT_WIDE_MAX);
    if ((wrong = om_layout_check(info->layout, bad, sizeof bad)) != NULL)
        return OM_ERROR(OM_EINVAL, "%s: the layout of the results is not well formed: %s", path,
                        wrong);
    om_h5_quiet();
    if ((w = writer_alloc(path, info->layout)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
    w->rows = !info->no_rows;
    w->trials = info->trials;
    w->chunk_rows = info->block_size == 0 || info->trials < info->block_size ? info->trials
                                                                             : info->block_size;
    w->scratch_rows = info->trials < OM_H5_SCRATCH_ROWS ? (size_t)info->trials
                                                         : OM_H5_SCRATCH_ROWS;
    if ((w->scratch = malloc(2 * w->scratch_rows)) == NULL) {
        writer_free(w);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
    }
    if ((st = om_h5_tmp_create(path, &w->tmp_path, &w->lock, &w->file, &w->driver)) != OM_OK) {
        writer_free(w);
        return st;
    }
    if ((w->winner_type = om_h5_winner_type()) < 0 ||
        (w->group = H5Gcreate2(w->file, "trials", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0) {
        st = OM_ERROR(OM_EHDF5, "%s: cannot create the /trials group: %s", path,
                      om_h5_detail(why, sizeof why));
        om_h5_writer_abort(w);
        return st;
    }
    if ((st = writer_root_attrs(w, info)) != OM_OK || (st = writer_field_list(w)) != OM_OK ||
        (st = writer_provenance(w)) != OM_OK || (st = writer_units(w)) != OM_OK ||
        (info->exact != NULL &&
         (st = om_h5_exact_write(w->file, path, info->layout, info->exact)) != OM_OK)) {
        om_h5_writer_abort(w);
        return st;
    }
    for (size_t i = 0; w->rows && i < w->layout.field_count; i++) {
        if ((st = writer_dataset(w, i)) != OM_OK) {
            om_h5_writer_abort(w);
            return st;
        }
    }
    *out = w;
    return OM_OK;
}

/* ----------------------------------------------------------------- rows */

/* Write rows first..first+n-1 of dataset i from w->scratch. */
static om_status writer_put_column(om_h5_writer *w, size_t i, hsize_t first, hsize_t n)
{
    const om_field *f = &w->layout.fields[i];
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    hid_t mtype = f->type == OM_FIELD_WINNER    ? w->winner_type
                  : f->type == OM_FIELD_COUNT16 ? H5T_NATIVE_UINT16
                                                : H5T_NATIVE_UINT8;
    hid_t fspace = H5Dget_space(w->dset[i]);
    hid_t mspace = H5Screate_simple(1, &n, NULL);
    if (fspace < 0 || mspace < 0
        || H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &first, NULL, &n, NULL) < 0
        || H5Dwrite(w->dset[i], mtype, mspace, fspace, H5P_DEFAULT, w->scratch) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot write rows %llu..%llu of /trials/%s: %s", w->path,
                      (unsigned long long)first, (unsigned long long)(first + n - 1), f->name,
                      om_h5_detail(why, sizeof why));
    om_h5_close_id(&mspace);
    om_h5_close_id(&fspace);
    return st;
}

/* Write rows first..first+n-1 of unit field f's column of unit u from
 * w->scratch. */
static om_status writer_put_unit_column(om_h5_writer *w, size_t f, size_t u, hsize_t first,
                                        hsize_t n)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    const hsize_t start[2] = {first, u}, count[2] = {n, 1};
    hid_t fspace = H5Dget_space(w->udset[f]);
    hid_t mspace = H5Screate_simple(1, &n, NULL);
    if (fspace < 0 || mspace < 0 ||
        H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
        H5Dwrite(w->udset[f], H5T_NATIVE_UINT8, mspace, fspace, H5P_DEFAULT, w->scratch) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot write rows %llu..%llu of /units/%s[%s]: %s",
                      w->path, (unsigned long long)first, (unsigned long long)(first + n - 1),
                      w->layout.unit_fields[f].name, w->layout.units[u].id,
                      om_h5_detail(why, sizeof why));
    om_h5_close_id(&mspace);
    om_h5_close_id(&fspace);
    return st;
}

/* Gather unit field f of unit u of n rows into w->scratch and count them;
 * a value above the field's max is an error of the game's rows. */
static om_status gather_unit(om_h5_writer *w, size_t f, size_t u, const uint8_t *rows, size_t n)
{
    const om_layout *l = &w->layout;
    const uint8_t *col = rows + om_layout_unit_offset(l, f, u);
    uint64_t *hist = om_tally_unit(w->tally, f, u);
    for (size_t j = 0; j < n; j++) {
        w->scratch[j] = col[j * l->row_size];
        if (w->scratch[j] > l->unit_fields[f].max)
            return OM_ERROR(OM_EINVAL, "%s: a row gives unit field %s of unit %s the value %u, "
                            "above its largest, %u", w->path, l->unit_fields[f].name,
                            l->units[u].id, w->scratch[j], l->unit_fields[f].max);
        hist[w->scratch[j]]++;
    }
    return OM_OK;
}

/* Gather the two-byte count field i of n rows into w->scratch as native
 * 16-bit values, and count them in its wide histogram. */
static void gather_wide(om_h5_writer *w, size_t i, const uint8_t *rows, size_t n)
{
    const om_layout *l = &w->layout;
    uint64_t *hist = (uint64_t *)om_tally_wide(w->tally, i);
    for (size_t j = 0; j < n; j++) {
        uint16_t v = (uint16_t)om_field_value(&l->fields[i], rows + j * l->row_size);
        memcpy(w->scratch + 2 * j, &v, sizeof v);
        if (hist != NULL)
            hist[v]++;
    }
}

om_status om_h5_writer_put(om_h5_writer *w, uint64_t first_row, const uint8_t *rows,
                           size_t count)
{
    const om_layout *l;
    if (w == NULL || (rows == NULL && count > 0))
        return OM_ERROR(OM_EINVAL, "om_h5_writer_put: missing writer or rows");
    l = &w->layout;
    /* Written as a subtraction so first_row + count cannot overflow. */
    if (first_row > w->trials || count > w->trials - first_row)
        return OM_ERROR(OM_EINVAL, "%s: %zu rows from row %llu lie outside the %llu trials of "
                        "the file", w->path, count, (unsigned long long)first_row,
                        (unsigned long long)w->trials);
    if (!w->rows && count > 0)
        return OM_ERROR(OM_EINVAL, "%s: a file without rows takes blocks of tallies only",
                        w->path);
    om_h5_quiet();
    for (size_t done = 0; done < count;) {
        size_t n = count - done < w->scratch_rows ? count - done : w->scratch_rows;
        for (size_t i = 0; i < l->field_count; i++) {
            const uint8_t *col = rows + done * l->row_size + l->fields[i].offset;
            om_status st;
            /* Gather one column: the game writes rows, the file is columns. */
            if (l->fields[i].type == OM_FIELD_COUNT16)
                gather_wide(w, i, rows + done * l->row_size, n);
            else
                for (size_t j = 0; j < n; j++) {
                    w->scratch[j] = col[j * l->row_size];
                    w->tally->hist[i][w->scratch[j]]++;
                }
            st = writer_put_column(w, i, first_row + done, n);
            if (st != OM_OK) {
                w->failed = true;
                return st;
            }
        }
        for (size_t f = 0; f < l->unit_field_count; f++)
            for (size_t u = 0; u < l->unit_count; u++) {
                om_status st = gather_unit(w, f, u, rows + done * l->row_size, n);
                if (st == OM_OK)
                    st = writer_put_unit_column(w, f, u, first_row + done, n);
                if (st != OM_OK) {
                    w->failed = true;
                    return st;
                }
            }
        done += n;
    }
    w->tally->trials += count;
    return OM_OK;
}

om_status om_h5_writer_put_block(om_h5_writer *w, uint64_t first, size_t n,
                                 om_h5_chunks *chunks, const om_tally *tally)
{
    char why[OM_H5_DETAIL_MAX];
    hsize_t offset = first;
    if (w == NULL || tally == NULL || (w->rows && chunks == NULL))
        return OM_ERROR(OM_EINVAL, "om_h5_writer_put_block: missing writer, tally or chunks");
    if (first > w->trials || n > w->trials - first || first % w->chunk_rows != 0)
        return OM_ERROR(OM_EINVAL, "%s: a block of %zu rows from row %llu does not fit the "
                        "%llu trials of the file in chunks of %llu", w->path, n,
                        (unsigned long long)first, (unsigned long long)w->trials,
                        (unsigned long long)w->chunk_rows);
    if (tally->unit_over > 0) {
        w->failed = true;
        return OM_ERROR(OM_EINVAL, "%s: the block of rows from row %llu gives %llu unit values "
                        "above their field's largest (an error of the game's rows)", w->path,
                        (unsigned long long)first, (unsigned long long)tally->unit_over);
    }
    om_h5_quiet();
    /* Chunks that defer their writing: the library places them, and their
     * writes are listed in them (h5vfd.c). */
    if (w->rows && om_h5_chunks_deferred(chunks) &&
        om_h5_defer_raw(w->file, om_h5_chunks_writes(chunks)) != OM_OK) {
        w->failed = true;
        return OM_ERROR(OM_EHDF5, "%s: cannot defer the writes of a block", w->path);
    }
    for (size_t i = 0; w->rows && i < w->layout.field_count; i++) {
        if (H5Dwrite_chunk(w->dset[i], H5P_DEFAULT, 0, &offset, om_h5_chunks_size(chunks, i),
                           om_h5_chunks_data(chunks, i)) < 0) {
            /* The library's reason (before another call clears it), or the
             * system's when a write of the driver failed. */
            om_h5_detail(why, sizeof why);
            const int e = om_h5_buffered_errno(w->file);
            w->failed = true;
            if (om_h5_chunks_deferred(chunks)) {
                (void)om_h5_defer_raw(w->file, NULL);
                om_h5_chunks_writes(chunks)->n = 0; /* the file is not published */
            }
            return OM_ERROR(e != 0 ? OM_EIO : OM_EHDF5, "%s: cannot write the chunk of rows "
                            "%llu.. of /trials/%s: %s", w->path, (unsigned long long)first,
                            w->layout.fields[i].name, e != 0 ? strerror(e) : why);
        }
    }
    /* Each unit's column of each unit field: chunk (first, u) of /units/<f>. */
    for (size_t f = 0, j = w->layout.field_count; w->rows && f < w->layout.unit_field_count;
         f++)
        for (size_t u = 0; u < w->layout.unit_count; u++, j++) {
            const hsize_t at[2] = {first, u};
            if (H5Dwrite_chunk(w->udset[f], H5P_DEFAULT, 0, at, om_h5_chunks_size(chunks, j),
                               om_h5_chunks_data(chunks, j)) < 0) {
                om_h5_detail(why, sizeof why);
                const int e = om_h5_buffered_errno(w->file);
                w->failed = true;
                if (om_h5_chunks_deferred(chunks)) {
                    (void)om_h5_defer_raw(w->file, NULL);
                    om_h5_chunks_writes(chunks)->n = 0;
                }
                return OM_ERROR(e != 0 ? OM_EIO : OM_EHDF5, "%s: cannot write the chunk of rows "
                                "%llu.. of /units/%s[%s]: %s", w->path, (unsigned long long)first,
                                w->layout.unit_fields[f].name, w->layout.units[u].id,
                                e != 0 ? strerror(e) : why);
            }
        }
    if (w->rows && om_h5_chunks_deferred(chunks) && om_h5_defer_raw(w->file, NULL) != OM_OK) {
        w->failed = true;
        return OM_ERROR(OM_EHDF5, "%s: cannot defer the writes of a block", w->path);
    }
    om_tally_add(w->tally, tally);
    return OM_OK;
}

const om_tally *om_h5_writer_tally(const om_h5_writer *w)
{
    return w->tally;
}

/* ----------------------------------------------------------------- the end */

/* /tallies/units: per unit field, units x (max + 1) counts: how many trials
 * gave each unit each value (h5file.h). */
static om_status writer_unit_tallies(om_h5_writer *w, hid_t tallies)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    hid_t g = H5Gcreate2(tallies, "units", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0)
        return OM_ERROR(OM_EHDF5, "%s: cannot create /tallies/units: %s", w->path,
                        om_h5_detail(why, sizeof why));
    for (size_t f = 0; st == OM_OK && f < w->layout.unit_field_count; f++) {
        const om_field *uf = &w->layout.unit_fields[f];
        char shown[OM_H5_NAME_MAX];
        hsize_t dims[2] = {w->layout.unit_count, (hsize_t)uf->max + 1};
        hid_t space = H5Screate_simple(2, dims, NULL), d = H5I_INVALID_HID;
        snprintf(shown, sizeof shown, "/tallies/units/%s", uf->name);
        if (space < 0)
            st = OM_ERROR(OM_EHDF5, "%s: cannot create dataset %s", w->path, shown);
        else if ((st = om_h5_dataset_create(g, uf->name, H5T_STD_U64LE, space, NULL, 0, w->path,
                                            shown, &d)) == OM_OK &&
                 H5Dwrite(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                          om_tally_unit(w->tally, f, 0)) < 0)
            st = OM_ERROR(OM_EHDF5, "%s: cannot write %s: %s", w->path, shown,
                          om_h5_detail(why, sizeof why));
        if (st == OM_OK)
            st = writer_unit_field_attrs(w, d, f);
        om_h5_close_id(&d);
        om_h5_close_id(&space);
    }
    om_h5_close_id(&g);
    return st;
}

/* /tallies: per field the counts of its values 0..largest seen (h5file.h). */
static om_status writer_tallies(om_h5_writer *w)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    hid_t g;
    if (H5Lexists(w->file, "tallies", H5P_DEFAULT) > 0 &&
        H5Ldelete(w->file, "tallies", H5P_DEFAULT) < 0)
        return OM_ERROR(OM_EHDF5, "%s: cannot replace /tallies: %s", w->path,
                        om_h5_detail(why, sizeof why));
    if ((g = H5Gcreate2(w->file, "tallies", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        return OM_ERROR(OM_EHDF5, "%s: cannot create /tallies: %s", w->path,
                        om_h5_detail(why, sizeof why));
    st = om_h5_attr_write(g, w->path, "trials", H5T_STD_U64LE, H5T_NATIVE_UINT64,
                          &w->tally->trials);
    for (size_t f = 0; st == OM_OK && f < w->layout.field_count; f++) {
        char shown[OM_H5_NAME_MAX];
        uint8_t min, max;
        hsize_t len;
        hid_t space, d = H5I_INVALID_HID;
        const uint64_t *hist = om_tally_wide(w->tally, f);
        if (hist != NULL) {
            /* A two-byte count: its wide histogram up to its largest value. */
            len = OM_TALLY_WIDE_BINS;
            while (len > 1 && hist[len - 1] == 0)
                len--;
        } else {
            om_tally_range(w->tally, f, &min, &max);
            len = (hsize_t)max + 1;
            hist = w->tally->hist[f];
        }
        snprintf(shown, sizeof shown, "/tallies/%s", w->layout.fields[f].name);
        space = H5Screate_simple(1, &len, NULL);
        if (space < 0)
            st = OM_ERROR(OM_EHDF5, "%s: cannot create dataset %s", w->path, shown);
        else if ((st = om_h5_dataset_create(g, w->layout.fields[f].name, H5T_STD_U64LE, space,
                                            NULL, 0, w->path, shown, &d)) == OM_OK &&
                 H5Dwrite(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, hist) < 0)
            st = OM_ERROR(OM_EHDF5, "%s: cannot write %s: %s", w->path, shown,
                          om_h5_detail(why, sizeof why));
        if (st == OM_OK)
            st = writer_field_attrs(w, d, f);
        om_h5_close_id(&d);
        om_h5_close_id(&space);
    }
    if (st == OM_OK && w->layout.unit_count > 0)
        st = writer_unit_tallies(w, g);
    om_h5_close_id(&g);
    return st;
}

/* Cut every dataset to the trials run. */
static om_status writer_cut(om_h5_writer *w)
{
    char why[OM_H5_DETAIL_MAX];
    hsize_t rows = w->tally->trials;
    for (size_t i = 0; w->rows && i < w->layout.field_count; i++)
        if (H5Dset_extent(w->dset[i], &rows) < 0)
            return OM_ERROR(OM_EHDF5, "%s: cannot size /trials/%s to %llu rows: %s", w->path,
                            w->layout.fields[i].name, (unsigned long long)rows,
                            om_h5_detail(why, sizeof why));
    for (size_t f = 0; w->rows && f < w->layout.unit_field_count; f++) {
        const hsize_t dims[2] = {rows, w->layout.unit_count};
        if (H5Dset_extent(w->udset[f], dims) < 0)
            return OM_ERROR(OM_EHDF5, "%s: cannot size /units/%s to %llu rows: %s", w->path,
                            w->layout.unit_fields[f].name, (unsigned long long)rows,
                            om_h5_detail(why, sizeof why));
    }
    return OM_OK;
}

om_status om_h5_writer_finish(om_h5_writer *w, const char *final_path, const om_h5_end *end)
{
    om_status st = OM_OK, st2;
    if (w == NULL || final_path == NULL || end == NULL)
        return OM_ERROR(OM_EINVAL, "om_h5_writer_finish: no writer, path or end");
    om_h5_quiet();
    if (w->failed)
        st = OM_ERROR(OM_EHDF5, "%s: not saved because an earlier write to it failed", w->path);
    if (st == OM_OK && w->tally->trials == 0)
        st = OM_ERROR(OM_EINVAL, "%s: not saved: no trial was run", w->path);
    if (st == OM_OK) {
        /* The rows' last bytes on their way to the disk while the tallies
         * and the metadata are written. */
        om_h5_buffered_writeback(w->file);
        st = writer_cut(w);
    }
    if (st == OM_OK)
        st = writer_tallies(w);
    if (st == OM_OK && ((st = writer_attr_u64(w, "trials", w->tally->trials)) != OM_OK ||
                        (st = writer_attr_u64(w, "blocks_done", end->blocks_done)) != OM_OK ||
                        (st = writer_attr_u32(w, "complete", end->complete)) != OM_OK ||
                        (st = writer_attr_string(w, w->file, "stop_reason",
                                                 end->stop_reason)) != OM_OK))
        w->failed = true;
    /* A failure of the close (a write that failed, with the system's reason)
     * is the last error raised, and said rather than the library's account
     * of it. */
    st2 = writer_close_objects(w);
    st = om_h5_tmp_finish(final_path, &w->tmp_path, &w->lock, st2 != OM_OK ? st2 : st);
    writer_free(w);
    return st;
}

om_status om_h5_writer_close(om_h5_writer *w)
{
    om_h5_end end = {.complete = true, .stop_reason = "every trial asked for was run"};
    if (w == NULL)
        return OM_ERROR(OM_EINVAL, "om_h5_writer_close: no writer");
    end.blocks_done = (w->tally->trials + w->chunk_rows - 1) / w->chunk_rows;
    return om_h5_writer_finish(w, w->path, &end);
}

void om_h5_writer_abort(om_h5_writer *w)
{
    char msg[OM_ERROR_MSG_MAX];
    const om_status code = om_error_code();
    if (w == NULL)
        return;
    om_h5_quiet();
    /* A failure while closing does not matter: the file is removed anyway;
     * the error that made the caller abort stays the one to report. */
    snprintf(msg, sizeof msg, "%s", om_error_message());
    if (writer_close_objects(w) != OM_OK && code != OM_OK)
        (void)OM_ERROR(code, "%s", msg);
    om_h5_tmp_discard(&w->tmp_path, &w->lock);
    writer_free(w);
}

/* ----------------------------------------------------------------- resuming */

/* Read /tallies/units/<f> of the reopened file into w->tally, checking its
 * shape and that each unit's counts cover the trials. */
static om_status reopen_unit_tally(om_h5_writer *w, hid_t tallies, size_t f, uint64_t trials)
{
    char why[OM_H5_DETAIL_MAX], shown[OM_H5_NAME_MAX];
    const om_field *uf = &w->layout.unit_fields[f];
    hsize_t dims[2] = {0, 0};
    om_status st = OM_OK;
    hid_t d, space = H5I_INVALID_HID;
    snprintf(shown, sizeof shown, "/tallies/units/%s", uf->name);
    d = H5Lexists(tallies, "units", H5P_DEFAULT) > 0
            ? H5Dopen2(tallies, shown + strlen("/tallies/"), H5P_DEFAULT)
            : H5I_INVALID_HID;
    if (d < 0 || (space = H5Dget_space(d)) < 0 || H5Sget_simple_extent_ndims(space) != 2 ||
        H5Sget_simple_extent_dims(space, dims, NULL) != 2 || dims[0] != w->layout.unit_count ||
        dims[1] != (hsize_t)uf->max + 1)
        st = OM_ERROR(OM_EHDF5, "%s: %s is missing or is not %zu units x %u counts: %s",
                      w->path, shown, w->layout.unit_count, uf->max + 1,
                      om_h5_detail(why, sizeof why));
    else if ((st = om_h5_dataset_checked(d, w->path, shown)) == OM_OK)
        st = om_h5_read_whole(d, H5T_NATIVE_UINT64, om_tally_unit(w->tally, f, 0), w->path,
                              shown, "counts of values");
    for (size_t u = 0; st == OM_OK && u < w->layout.unit_count; u++) {
        const uint64_t *h = om_tally_unit(w->tally, f, u);
        uint64_t sum = 0;
        for (unsigned v = 0; v <= uf->max; v++)
            sum += h[v];
        if (sum != trials)
            st = OM_ERROR(OM_EHDF5, "%s: %s counts %llu trials for unit %s, the file %llu",
                          w->path, shown, (unsigned long long)sum, w->layout.units[u].id,
                          (unsigned long long)trials);
    }
    om_h5_close_id(&space);
    om_h5_close_id(&d);
    return st;
}

/* Read the tallies of the reopened file into w->tally, checking they cover its
 * trials. */
static om_status reopen_tallies(om_h5_writer *w, uint64_t trials)
{
    char why[OM_H5_DETAIL_MAX];
    hid_t g = H5Gopen2(w->file, "tallies", H5P_DEFAULT);
    om_status st = OM_OK;
    if (g < 0)
        return OM_ERROR(OM_EHDF5, "%s: no /tallies group", w->path);
    for (size_t f = 0; st == OM_OK && f < w->layout.field_count; f++) {
        hid_t d = H5Dopen2(g, w->layout.fields[f].name, H5P_DEFAULT), space = H5I_INVALID_HID;
        hsize_t len = 0;
        uint64_t sum = 0;
        uint64_t *hist = (uint64_t *)om_tally_wide(w->tally, f);
        const hsize_t bins = hist != NULL ? OM_TALLY_WIDE_BINS : OM_TALLY_BINS;
        char shown[OM_H5_NAME_MAX];
        if (hist == NULL)
            hist = w->tally->hist[f];
        snprintf(shown, sizeof shown, "/tallies/%s", w->layout.fields[f].name);
        if (d < 0 || (space = H5Dget_space(d)) < 0 ||
            H5Sget_simple_extent_dims(space, &len, NULL) != 1 || len == 0 || len > bins)
            st = OM_ERROR(OM_EHDF5, "%s: cannot read %s: %s", w->path, shown,
                          om_h5_detail(why, sizeof why));
        else if ((st = om_h5_dataset_checked(d, w->path, shown)) == OM_OK)
            st = om_h5_read_whole(d, H5T_NATIVE_UINT64, hist, w->path, shown,
                                  "counts of values");
        for (hsize_t v = 0; st == OM_OK && v < len; v++)
            sum += hist[v];
        if (st == OM_OK && sum != trials)
            st = OM_ERROR(OM_EHDF5, "%s: /tallies/%s counts %llu trials, the file %llu",
                          w->path, w->layout.fields[f].name, (unsigned long long)sum,
                          (unsigned long long)trials);
        om_h5_close_id(&space);
        om_h5_close_id(&d);
    }
    for (size_t f = 0; st == OM_OK && f < w->layout.unit_field_count; f++)
        st = reopen_unit_tally(w, g, f, trials);
    om_h5_close_id(&g);
    w->tally->trials = trials;
    return st;
}

/* The parts of om_h5_writer_reopen after the allocations. */
static om_status reopen(om_h5_writer *w, uint64_t *blocks_done)
{
    char why[OM_H5_DETAIL_MAX];
    uint64_t trials = 0, block_size = 0, rows = 0;
    om_status st;
    hid_t fapl = H5I_INVALID_HID;
    if (om_h5_buffered_fapl(&fapl, &w->driver) != OM_OK ||
        (w->file = H5Fopen(w->tmp_path, H5F_ACC_RDWR, fapl)) < 0) {
        om_h5_close_id(&fapl);
        return OM_ERROR(OM_EHDF5, "%s: cannot open it to continue: %s", w->path,
                        om_h5_detail(why, sizeof why));
    }
    om_h5_close_id(&fapl);
    if ((w->winner_type = om_h5_winner_type()) < 0 ||
        (w->group = H5Gopen2(w->file, "trials", H5P_DEFAULT)) < 0)
        return OM_ERROR(OM_EHDF5, "%s: no /trials group: %s", w->path,
                        om_h5_detail(why, sizeof why));
    if ((st = om_h5_attr_read_u64(w->file, w->path, "trials", &trials)) != OM_OK ||
        (st = om_h5_attr_read_u64(w->file, w->path, "trials_requested", &w->trials)) != OM_OK ||
        (st = om_h5_attr_read_u64(w->file, w->path, "block_size", &block_size)) != OM_OK ||
        (st = om_h5_attr_read_u64(w->file, w->path, "blocks_done", blocks_done)) != OM_OK ||
        (st = om_h5_attr_read_u64(w->file, w->path, "rows", &rows)) != OM_OK)
        return st;
    if (block_size == 0 || w->trials == 0)
        return OM_ERROR(OM_EHDF5, "%s: a block size or trial count of 0", w->path);
    w->rows = rows != 0;
    w->chunk_rows = w->trials < block_size ? w->trials : block_size;
    for (size_t i = 0; w->rows && i < w->layout.field_count; i++) {
        char shown[OM_H5_NAME_MAX];
        hsize_t size = w->trials;
        snprintf(shown, sizeof shown, "/trials/%s", w->layout.fields[i].name);
        if ((w->dset[i] = H5Dopen2(w->group, w->layout.fields[i].name, H5P_DEFAULT)) < 0 ||
            H5Dset_extent(w->dset[i], &size) < 0)
            return OM_ERROR(OM_EHDF5, "%s: cannot reopen %s: %s", w->path, shown,
                            om_h5_detail(why, sizeof why));
        if ((st = om_h5_dataset_checked(w->dset[i], w->path, shown)) != OM_OK)
            return st;
    }
    if (w->layout.unit_count > 0 &&
        (H5Lexists(w->file, "units", H5P_DEFAULT) <= 0 ||
         (w->units = H5Gopen2(w->file, "units", H5P_DEFAULT)) < 0))
        return OM_ERROR(OM_EHDF5, "%s: no /units group for the run's units", w->path);
    for (size_t i = 0; w->rows && i < w->layout.unit_field_count; i++) {
        char shown[OM_H5_NAME_MAX];
        const hsize_t size[2] = {w->trials, w->layout.unit_count};
        snprintf(shown, sizeof shown, "/units/%s", w->layout.unit_fields[i].name);
        if ((w->udset[i] = H5Dopen2(w->units, w->layout.unit_fields[i].name, H5P_DEFAULT)) < 0 ||
            H5Dset_extent(w->udset[i], size) < 0)
            return OM_ERROR(OM_EHDF5, "%s: cannot reopen %s: %s", w->path, shown,
                            om_h5_detail(why, sizeof why));
        if ((st = om_h5_dataset_checked(w->udset[i], w->path, shown)) != OM_OK)
            return st;
    }
    return reopen_tallies(w, trials);
}

/* Copy the file `from` into the open, empty file `fd` (named `to` in
 * messages). Errors: OM_EIO. */
static om_status copy_into(const char *from, int fd, const char *to)
{
    uint8_t buf[1 << 16];
    om_status st = OM_OK;
    ssize_t n;
    int in = open(from, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return OM_ERROR(OM_EIO, "cannot read %s: %s", from, strerror(errno));
    while (st == OM_OK && (n = read(in, buf, sizeof buf)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            st = OM_ERROR(OM_EIO, "cannot read %s: %s", from, strerror(errno));
        for (ssize_t done = 0; st == OM_OK && done < n;) {
            const ssize_t k = write(fd, buf + done, (size_t)(n - done));
            if (k >= 0)
                done += k;
            else if (errno != EINTR)
                st = OM_ERROR(OM_EIO, "cannot write %s: %s", to, strerror(errno));
        }
    }
    close(in);
    return st;
}

om_status om_h5_writer_reopen(om_h5_writer **out, const char *partial, const char *path,
                              const om_layout *layout, uint64_t *blocks_done)
{
    om_h5_writer *w;
    om_status st;
    *out = NULL;
    om_h5_quiet();
    if ((w = writer_alloc(path, layout)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
    w->scratch_rows = 1;
    /* The run goes on in a copy, so the .partial file stays as it was until
     * a new file replaces it. */
    if ((w->scratch = malloc(2)) == NULL)
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
    else if ((st = om_h5_tmp_claim(path, &w->tmp_path, &w->lock)) == OM_OK &&
             (st = copy_into(partial, w->lock, w->tmp_path)) == OM_OK)
        st = reopen(w, blocks_done);
    if (st != OM_OK) {
        om_h5_writer_abort(w);
        return st;
    }
    *out = w;
    return OM_OK;
}
