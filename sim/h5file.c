/*
 * h5file.c: the HDF5 result file of a run (h5file.h), the one place HDF5 is used
 * (STYLE rule 14; ENGINEERING section 4 for the conventions followed here).
 *
 * Every public function first switches off HDF5's automatic printing of its error
 * stack for the calling thread (the stack is per thread in thread-safe builds);
 * failures are instead reported once through OM_ERROR, with the file name and the
 * innermost message of the HDF5 error stack, captured right after the failing call
 * because the next HDF5 API call clears the stack. Those helpers, attributes and
 * the temporary-file protocol are shared with h5matrix.c through h5_int.h.
 */
#include "h5file.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5_int.h"

/*
 * Rows per chunk: 16384 one-byte rows are 16 KiB raw, well inside HDF5's default
 * 1 MiB chunk cache, and compress well with shuffle + deflate (ENGINEERING 4.2).
 */
#define OM_H5_CHUNK_ROWS 16384u

/* Deflate level: level 4 is the measured knee of size against time (ENGINEERING 4.2). */
#define OM_H5_DEFLATE_LEVEL 4u

/*
 * Rows gathered per H5Dwrite: a put of more rows is written in pieces, so the
 * scratch buffer is allocated once (64 KiB) whatever the callers' block size.
 */
#define OM_H5_SCRATCH_ROWS 65536u

/* Side keys of the per-side attributes ("points_a", "vp_lost_b"). */
static const char *const side_key[2] = {"a", "b"};

/* The type attribute of a field, by om_field_type. */
static const char *const field_type_names[] = {"count", "flag", "winner"};

struct om_h5_writer {
    char *path;         /* final path of the result file */
    char *tmp_path;     /* temporary file written until a successful close */
    hid_t file;         /* the open temporary file, or H5I_INVALID_HID */
    hid_t group;        /* the /trials group, or H5I_INVALID_HID */
    hid_t str_type;     /* variable-length UTF-8 string type for attributes */
    hid_t winner_type;  /* enumerated type of winner fields (file and memory) */
    om_layout layout;   /* the fields of a row (a copy) */
    hid_t dset[OM_LAYOUT_FIELDS_MAX]; /* per field: its dataset or H5I_INVALID_HID */
    uint64_t trials;    /* rows of every dataset */
    uint8_t *scratch;   /* one column of a put, gathered from the rows */
    size_t scratch_rows; /* capacity of scratch in rows */
    bool failed;        /* a put failed: close must not publish the file */
};

/* A field of a file being read, with the strings it owns. */
typedef struct reader_field {
    om_field field;    /* name, description, title, type (offset: its index) */
    hid_t dset;        /* its open dataset */
    bool by_name;      /* an enumerated winner dataset, read via winner_type */
} reader_field;

struct om_h5_reader {
    char *path;        /* path as given to om_h5_reader_open */
    hid_t file;        /* the open file */
    hid_t root;        /* its root group, which holds the provenance attributes */
    hid_t group;       /* the /trials group */
    hid_t winner_type; /* memory type of enumerated winner datasets (OM_WINNER_* codes) */
    uint64_t trials;   /* rows of every dataset, from the trials attribute */
    size_t n_fields;   /* fields of the file */
    reader_field fields[OM_LAYOUT_FIELDS_MAX]; /* in report order */
    char *points_rule; /* the points_rule attribute, or NULL */
    char *side_text[2][2]; /* per side: unit name, loss unit (owned strings) */
};

/* ---------------------------------------------------------------- helpers */

/*
 * The enumerated type of winner fields: uint8 values OM_WINNER_A.. named by
 * om_winner_names. Used as file type and as memory type, so no conversion
 * happens on write and a read converts by name. H5I_INVALID_HID on failure.
 */
static hid_t winner_type_create(void)
{
    hid_t t = H5Tenum_create(H5T_NATIVE_UINT8);
    if (t < 0)
        return H5I_INVALID_HID;
    for (uint8_t v = 0; v < OM_WINNER_CODES; v++) {
        if (H5Tenum_insert(t, om_winner_names[v], &v) < 0) {
            H5Tclose(t);
            return H5I_INVALID_HID;
        }
    }
    return t;
}

/* ----------------------------------------------------------------- writer */

/* Write a variable-length UTF-8 string attribute (NULL is written as ""). */
static om_status writer_attr_string(om_h5_writer *w, hid_t obj, const char *name,
                                    const char *value)
{
    return om_h5_attr_write_string(obj, w->path, name, w->str_type, value);
}

static om_status writer_attr_u64(om_h5_writer *w, const char *name, uint64_t value)
{
    return om_h5_attr_write(w->file, w->path, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, &value);
}

static om_status writer_attr_u32(om_h5_writer *w, const char *name, uint32_t value)
{
    return om_h5_attr_write(w->file, w->path, name, H5T_STD_U32LE, H5T_NATIVE_UINT32, &value);
}

/* How each side loses victory points (h5file.h), for the sides whose points
 * the layout knows. */
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
        snprintf(name, sizeof name, "loss_field_%s", side_key[s]);
        st = writer_attr_string(w, w->file, name, l->fields[sc->loss_field].name);
        snprintf(name, sizeof name, "loss_unit_%s", side_key[s]);
        if (st == OM_OK)
            st = writer_attr_string(w, w->file, name, sc->loss_unit);
        snprintf(name, sizeof name, "loss_start_%s", side_key[s]);
        if (st == OM_OK)
            st = writer_attr_u32(w, name, sc->loss_start);
        snprintf(name, sizeof name, "vp_lost_%s", side_key[s]);
        if (st == OM_OK)
            st = om_h5_attr_write_u32s(w->file, w->path, name, sc->vp_lost, sc->loss_start + 1);
    }
    if (st == OM_OK && any && l->points_rule != NULL)
        st = writer_attr_string(w, w->file, "points_rule", l->points_rule);
    return st;
}

/* The provenance attributes of the root group (h5file.h, ENGINEERING 4.2). */
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
    };
    om_status st = om_h5_attr_write_texts(w->file, w->path, w->str_type, texts,
                                          sizeof texts / sizeof texts[0]);
    if (st != OM_OK)
        return st;
    if ((st = writer_attr_u64(w, "seed", info->seed)) != OM_OK
        || (st = writer_attr_u64(w, "trials", info->trials)) != OM_OK
        || (st = writer_attr_u64(w, "block_size", info->block_size)) != OM_OK
        || (st = writer_attr_u32(w, "threads", info->threads)) != OM_OK
        || (st = writer_attr_u32(w, "points_a", info->layout->side[0].points)) != OM_OK
        || (st = writer_attr_u32(w, "points_b", info->layout->side[1].points)) != OM_OK)
        return st;
    return writer_points_attrs(w, info->layout);
}

/* Create the pre-sized, chunked, compressed dataset /trials/<f->name> of
 * field i, with its description, type and title. */
static om_status writer_dataset(om_h5_writer *w, size_t i)
{
    const om_field *f = &w->layout.fields[i];
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    hsize_t dims = w->trials;
    hsize_t chunk = w->trials < OM_H5_CHUNK_ROWS ? w->trials : OM_H5_CHUNK_ROWS;
    hid_t type = f->type == OM_FIELD_WINNER ? w->winner_type : H5T_STD_U8LE;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);

    if (space < 0 || dcpl < 0 || H5Pset_chunk(dcpl, 1, &chunk) < 0 || H5Pset_shuffle(dcpl) < 0
        || H5Pset_deflate(dcpl, OM_H5_DEFLATE_LEVEL) < 0
        || (w->dset[i] = H5Dcreate2(w->group, f->name, type, space, H5P_DEFAULT, dcpl,
                                    H5P_DEFAULT)) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot create dataset /trials/%s: %s", w->path, f->name,
                      om_h5_detail(why, sizeof why));
    om_h5_close_id(&dcpl);
    om_h5_close_id(&space);
    if (st == OM_OK)
        st = writer_attr_string(w, w->dset[i], "description", f->description);
    if (st == OM_OK)
        st = writer_attr_string(w, w->dset[i], "type", field_type_names[f->type]);
    if (st == OM_OK && f->type == OM_FIELD_WINNER)
        st = writer_attr_string(w, w->dset[i], "title", f->title);
    return st;
}

/* The fields attribute of /trials: the dataset names in report order. */
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

/* Close every HDF5 object of `w`; the first failure is raised and returned. */
static om_status writer_close_objects(om_h5_writer *w)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    for (size_t i = 0; i < w->layout.field_count; i++) {
        if (w->dset[i] >= 0 && H5Dclose(w->dset[i]) < 0 && st == OM_OK)
            st = OM_ERROR(OM_EHDF5, "%s: cannot close dataset /trials/%s: %s", w->path,
                          w->layout.fields[i].name, om_h5_detail(why, sizeof why));
        w->dset[i] = H5I_INVALID_HID;
    }
    om_h5_close_id(&w->group);
    om_h5_close_id(&w->winner_type);
    om_h5_close_id(&w->str_type);
    /* Closing the file flushes it: a full disk shows up here. */
    if (w->file >= 0 && H5Fclose(w->file) < 0 && st == OM_OK)
        st = OM_ERROR(OM_EHDF5, "%s: cannot write the file: %s", w->path,
                      om_h5_detail(why, sizeof why));
    w->file = H5I_INVALID_HID;
    return st;
}

static void writer_free(om_h5_writer *w)
{
    free(w->scratch);
    free(w->tmp_path);
    free(w->path);
    free(w);
}

om_status om_h5_writer_create(om_h5_writer **out, const char *path, const om_run_info *info)
{
    char why[OM_H5_DETAIL_MAX];
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
    om_h5_quiet();

    w = calloc(1, sizeof *w);
    if (w == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
    w->file = w->group = w->str_type = w->winner_type = H5I_INVALID_HID;
    w->layout = *info->layout;
    for (size_t i = 0; i < OM_LAYOUT_FIELDS_MAX; i++)
        w->dset[i] = H5I_INVALID_HID;
    w->trials = info->trials;
    w->scratch_rows = info->trials < OM_H5_SCRATCH_ROWS ? (size_t)info->trials
                                                         : OM_H5_SCRATCH_ROWS;
    w->path = strdup(path);
    w->scratch = malloc(w->scratch_rows);
    if (w->path == NULL || w->scratch == NULL) {
        writer_free(w);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
    }
    if ((st = om_h5_tmp_create(path, &w->tmp_path, &w->file)) != OM_OK) {
        writer_free(w);
        return st;
    }

    if ((w->str_type = om_h5_string_type()) < 0
        || (w->winner_type = winner_type_create()) < 0
        || (w->group = H5Gcreate2(w->file, "trials", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0) {
        st = OM_ERROR(OM_EHDF5, "%s: cannot create the /trials group: %s", path,
                      om_h5_detail(why, sizeof why));
        om_h5_writer_abort(w);
        return st;
    }
    if ((st = writer_root_attrs(w, info)) != OM_OK || (st = writer_field_list(w)) != OM_OK) {
        om_h5_writer_abort(w);
        return st;
    }
    for (size_t i = 0; i < w->layout.field_count; i++) {
        if ((st = writer_dataset(w, i)) != OM_OK) {
            om_h5_writer_abort(w);
            return st;
        }
    }
    *out = w;
    return OM_OK;
}

/* Write rows first..first+n-1 of dataset i from w->scratch. */
static om_status writer_put_column(om_h5_writer *w, size_t i, hsize_t first, hsize_t n)
{
    const om_field *f = &w->layout.fields[i];
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    hid_t mtype = f->type == OM_FIELD_WINNER ? w->winner_type : H5T_NATIVE_UINT8;
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

om_status om_h5_writer_put(om_h5_writer *w, uint64_t first_row, const uint8_t *rows,
                           size_t count)
{
    if (w == NULL || (rows == NULL && count > 0))
        return OM_ERROR(OM_EINVAL, "om_h5_writer_put: missing writer or rows");
    /* Written as a subtraction so first_row + count cannot overflow. */
    if (first_row > w->trials || count > w->trials - first_row)
        return OM_ERROR(OM_EINVAL, "%s: %zu rows from row %llu lie outside the %llu trials of "
                        "the file", w->path, count, (unsigned long long)first_row,
                        (unsigned long long)w->trials);
    om_h5_quiet();
    for (size_t done = 0; done < count;) {
        size_t n = count - done < w->scratch_rows ? count - done : w->scratch_rows;
        for (size_t i = 0; i < w->layout.field_count; i++) {
            const uint8_t *col = rows + done * w->layout.row_size + w->layout.fields[i].offset;
            om_status st;
            /* Gather one column: the game writes rows, the file is columns. */
            for (size_t j = 0; j < n; j++)
                w->scratch[j] = col[j * w->layout.row_size];
            st = writer_put_column(w, i, first_row + done, n);
            if (st != OM_OK) {
                w->failed = true;
                return st;
            }
        }
        done += n;
    }
    return OM_OK;
}

om_status om_h5_writer_close(om_h5_writer *w)
{
    om_status st = OM_OK, st2;
    if (w == NULL)
        return OM_ERROR(OM_EINVAL, "om_h5_writer_close: no writer");
    om_h5_quiet();
    if (w->failed)
        st = OM_ERROR(OM_EHDF5, "%s: not saved because an earlier write to it failed", w->path);
    st2 = writer_close_objects(w);
    st = om_h5_tmp_finish(w->path, w->tmp_path, st != OM_OK ? st : st2);
    writer_free(w);
    return st;
}

void om_h5_writer_abort(om_h5_writer *w)
{
    if (w == NULL)
        return;
    om_h5_quiet();
    /* A failure while closing does not matter: the file is removed anyway. */
    (void)writer_close_objects(w);
    remove(w->tmp_path);
    writer_free(w);
}

/* ----------------------------------------------------------------- reader */

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

/*
 * Open and check the dataset /trials/<name> of field k: a 1-D dataset of
 * one-byte integers or enumerations with exactly r->trials rows, with a type
 * attribute (count, flag or winner: a winner is an enumeration) and its
 * description and title.
 */
static om_status reader_open_field(om_h5_reader *r, size_t k, const char *name)
{
    char why[OM_H5_DETAIL_MAX];
    reader_field *rf = &r->fields[k];
    om_status st = OM_OK;
    hid_t space = H5I_INVALID_HID, type = H5I_INVALID_HID;
    hsize_t rows = 0;
    H5T_class_t cls = H5T_NO_CLASS;
    char *type_name = NULL;
    htri_t exists = H5Lexists(r->group, name, H5P_DEFAULT);

    rf->dset = H5I_INVALID_HID;
    if ((rf->field.name = strdup(name)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", r->path);
    rf->field.offset = k;
    if (exists <= 0)
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
             H5Tget_size(type) != 1)
        st = OM_ERROR(OM_EHDF5, "%s: dataset /trials/%s is not of a one-byte integer type",
                      r->path, name);
    om_h5_close_id(&type);
    om_h5_close_id(&space);
    if (st == OM_OK)
        st = om_h5_attr_read_string(rf->dset, r->path, "type", &type_name);
    if (st == OM_ENOTFOUND)
        st = OM_ERROR(OM_EHDF5, "%s: dataset /trials/%s has no type attribute", r->path, name);
    if (st == OM_OK) {
        size_t t = 0;
        while (t < 3 && strcmp(type_name, field_type_names[t]) != 0)
            t++;
        if (t == 3 || (t == OM_FIELD_WINNER) != (cls == H5T_ENUM))
            st = OM_ERROR(OM_EHDF5, "%s: dataset /trials/%s has type '%s', which does not "
                          "fit its data", r->path, name, type_name);
        rf->field.type = (om_field_type)(t < 3 ? t : 0);
        rf->by_name = cls == H5T_ENUM;
    }
    free(type_name);
    if (st == OM_OK)
        st = attr_string_opt(rf->dset, r->path, "description", (char **)&rf->field.description);
    if (st == OM_OK && rf->field.type == OM_FIELD_WINNER)
        st = attr_string_opt(rf->dset, r->path, "title", (char **)&rf->field.title);
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

/* The message for a file of another schema: an older program's, or not ours. */
static om_status reader_check_schema(om_h5_reader *r)
{
    char *schema = NULL;
    om_status st = om_h5_attr_read_string(r->root, r->path, "schema", &schema);
    if (st == OM_ENOTFOUND)
        return OM_ERROR(OM_EHDF5, "%s: no schema attribute (not an oddsmaster result file)",
                        r->path);
    if (st == OM_OK && strcmp(schema, OM_H5_SCHEMA) != 0) {
        if (strncmp(schema, "oddsmaster-results/", 19) == 0)
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
        || (r->winner_type = winner_type_create()) < 0)
        return OM_ERROR(OM_EHDF5, "%s: cannot open the root group: %s", r->path,
                        om_h5_detail(why, sizeof why));
    if ((st = reader_check_schema(r)) != OM_OK)
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
    return reader_open_trials(r);
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
    r->file = r->root = r->group = r->winner_type = H5I_INVALID_HID;
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
    snprintf(name, sizeof name, "unit_%s", side_key[side]);
    if (r->side_text[side][0] == NULL &&
        (st = attr_string_opt(r->root, r->path, name, &r->side_text[side][0])) != OM_OK)
        return st;
    out->name = r->side_text[side][0];
    snprintf(name, sizeof name, "points_%s", side_key[side]);
    if ((st = om_h5_reader_attr_u64(r, name, &v)) == OM_OK)
        out->points = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
    else if (st == OM_ENOTFOUND)
        om_error_clear();
    else
        return st;
    snprintf(name, sizeof name, "loss_field_%s", side_key[side]);
    if ((st = attr_string_opt(r->root, r->path, name, &field)) != OM_OK || field == NULL)
        return st;
    out->loss_field = (int)reader_field_index(r, field);
    free(field);
    snprintf(name, sizeof name, "loss_unit_%s", side_key[side]);
    if (r->side_text[side][1] == NULL &&
        (st = attr_string_opt(r->root, r->path, name, &r->side_text[side][1])) != OM_OK)
        return st;
    out->loss_unit = r->side_text[side][1];
    snprintf(name, sizeof name, "loss_start_%s", side_key[side]);
    if ((st = om_h5_reader_attr_u64(r, name, &v)) != OM_OK || v > 255)
        return st != OM_OK ? st : OM_ERROR(OM_EHDF5, "%s: %s is %llu (at most 255)", r->path,
                                           name, (unsigned long long)v);
    out->loss_start = (unsigned)v;
    snprintf(name, sizeof name, "vp_lost_%s", side_key[side]);
    if ((st = om_h5_attr_read_u32s(r->root, r->path, name, out->vp_lost, 256, &n)) != OM_OK)
        return st;
    if (n != out->loss_start + 1 || out->loss_field < 0)
        return OM_ERROR(OM_EHDF5, "%s: the victory points of side %s do not fit its fields",
                        r->path, side_key[side]);
    return OM_OK;
}

om_status om_h5_reader_read(om_h5_reader *r, const char *name, uint64_t first, size_t count,
                            uint8_t *buf)
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
        || H5Dread(r->fields[i].dset, r->fields[i].by_name ? r->winner_type : H5T_NATIVE_UINT8,
                   mspace, fspace, H5P_DEFAULT, buf) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot read rows %llu..%llu of /trials/%s: %s", r->path,
                      (unsigned long long)first, (unsigned long long)(first + count - 1), name,
                      om_h5_detail(why, sizeof why));
    om_h5_close_id(&mspace);
    om_h5_close_id(&fspace);
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
    for (int s = 0; s < 2; s++) {
        free(r->side_text[s][0]);
        free(r->side_text[s][1]);
    }
    om_h5_close_id(&r->winner_type);
    om_h5_close_id(&r->group);
    om_h5_close_id(&r->root);
    om_h5_close_id(&r->file);
    free(r->points_rule);
    free(r->path);
    free(r);
}
