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

/* Number of winner codes in the enumerated type (om_results_winner_names). */
#define OM_H5_WINNER_CODES 4u

struct om_h5_writer {
    char *path;         /* final path of the result file */
    char *tmp_path;     /* temporary file written until a successful close */
    hid_t file;         /* the open temporary file, or H5I_INVALID_HID */
    hid_t group;        /* the /trials group, or H5I_INVALID_HID */
    hid_t str_type;     /* variable-length UTF-8 string type for attributes */
    hid_t winner_type;  /* enumerated type of the winner field (file and memory) */
    hid_t *dset;        /* per om_results_fields entry: its dataset or H5I_INVALID_HID */
    uint64_t trials;    /* rows of every dataset */
    uint8_t *scratch;   /* one column of a put, gathered from the outcome structs */
    size_t scratch_rows; /* capacity of scratch in rows */
    bool failed;        /* a put failed: close must not publish the file */
};

struct om_h5_reader {
    char *path;        /* path as given to om_h5_reader_open */
    hid_t file;        /* the open file */
    hid_t root;        /* its root group, which holds the provenance attributes */
    hid_t group;       /* the /trials group */
    hid_t winner_type; /* memory type of enumerated winner datasets (OM_WM_SIDE_A... codes) */
    hid_t *dset;       /* per om_results_fields entry: its dataset or H5I_INVALID_HID */
    bool *by_name;     /* per entry: an enumerated winner dataset, read via winner_type */
    uint64_t trials;   /* rows of every dataset, from the trials attribute */
};

/* ---------------------------------------------------------------- helpers */

/*
 * The enumerated type of the winner field: uint8 values OM_WM_SIDE_A.. named by
 * om_results_winner_names. Used as file type and as memory type, so no conversion
 * happens on write and a read converts by name. H5I_INVALID_HID on failure.
 */
static hid_t winner_type_create(void)
{
    hid_t t = H5Tenum_create(H5T_NATIVE_UINT8);
    if (t < 0)
        return H5I_INVALID_HID;
    for (uint8_t v = 0; v < OM_H5_WINNER_CODES; v++) {
        if (H5Tenum_insert(t, om_results_winner_names[v], &v) < 0) {
            H5Tclose(t);
            return H5I_INVALID_HID;
        }
    }
    return t;
}

/* Allocate a per-field table of identifiers, all invalid. NULL when out of memory. */
static hid_t *ids_alloc(void)
{
    hid_t *ids = malloc(om_results_field_count * sizeof *ids);
    if (ids != NULL)
        for (size_t i = 0; i < om_results_field_count; i++)
            ids[i] = H5I_INVALID_HID;
    return ids;
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

/* The provenance attributes of the root group (h5file.h, ENGINEERING 4.2). */
static om_status writer_root_attrs(om_h5_writer *w, const om_run_info *info)
{
    const om_h5_text texts[] = {
        {"schema", OM_H5_SCHEMA},
        {"program_version", info->program_version},
        {"command_line", info->command_line},
        {"scenario_name", info->scenario_name},
        {"scenario_yaml", info->scenario_text},
        {"title", info->title},
        {"ruleset", info->ruleset},
        {"kind", info->kind},
        {"unit_a", info->side_name[0]},
        {"unit_b", info->side_name[1]},
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
        || (st = writer_attr_u32(w, "points_a", info->points[0])) != OM_OK
        || (st = writer_attr_u32(w, "points_b", info->points[1])) != OM_OK)
        return st;
    return OM_OK;
}

/* Create the pre-sized, chunked, compressed dataset /trials/<f->name>. */
static om_status writer_dataset(om_h5_writer *w, size_t i)
{
    const om_field *f = &om_results_fields[i];
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
    return st;
}

/* Close every HDF5 object of `w`; the first failure is raised and returned. */
static om_status writer_close_objects(om_h5_writer *w)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    if (w->dset != NULL)
        for (size_t i = 0; i < om_results_field_count; i++)
            if (w->dset[i] >= 0 && H5Dclose(w->dset[i]) < 0 && st == OM_OK)
                st = OM_ERROR(OM_EHDF5, "%s: cannot close dataset /trials/%s: %s", w->path,
                              om_results_fields[i].name, om_h5_detail(why, sizeof why));
    if (w->dset != NULL)
        for (size_t i = 0; i < om_results_field_count; i++)
            w->dset[i] = H5I_INVALID_HID;
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
    free(w->dset);
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
    size_t selected = 0;

    if (out == NULL || path == NULL || path[0] == '\0' || info == NULL)
        return OM_ERROR(OM_EINVAL, "om_h5_writer_create: missing output, path or run info");
    *out = NULL;
    if (info->trials == 0)
        return OM_ERROR(OM_EINVAL, "%s: a result file needs at least one trial (trials = 0)",
                        path);
    for (size_t i = 0; i < om_results_field_count; i++)
        selected += (om_results_fields[i].kinds & info->kind_mask) != 0;
    if (selected == 0)
        return OM_ERROR(OM_EINVAL, "%s: kind mask 0x%x selects no result fields", path,
                        (unsigned)info->kind_mask);
    om_h5_quiet();

    w = calloc(1, sizeof *w);
    if (w == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
    w->file = w->group = w->str_type = w->winner_type = H5I_INVALID_HID;
    w->trials = info->trials;
    w->scratch_rows = info->trials < OM_H5_SCRATCH_ROWS ? (size_t)info->trials
                                                         : OM_H5_SCRATCH_ROWS;
    w->path = strdup(path);
    w->dset = ids_alloc();
    w->scratch = malloc(w->scratch_rows);
    if (w->path == NULL || w->dset == NULL || w->scratch == NULL) {
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
    if ((st = writer_root_attrs(w, info)) != OM_OK) {
        om_h5_writer_abort(w);
        return st;
    }
    for (size_t i = 0; i < om_results_field_count; i++) {
        if ((om_results_fields[i].kinds & info->kind_mask) == 0)
            continue;
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
    const om_field *f = &om_results_fields[i];
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

om_status om_h5_writer_put(om_h5_writer *w, uint64_t first_row, const om_wm_outcome *rows,
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
        for (size_t i = 0; i < om_results_field_count; i++) {
            const om_field *f = &om_results_fields[i];
            om_status st;
            if (w->dset[i] < 0)
                continue;
            /* Gather one column: the outcome structs are rows, the file is columns. */
            for (size_t j = 0; j < n; j++)
                w->scratch[j] = om_results_get(f, &rows[done + j]);
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

/*
 * Open and check the member /trials/<name>: it must be a 1-D dataset
 * of one-byte integers or enumerations with exactly r->trials rows. Members that
 * are not datasets are ignored; datasets not in om_results_fields are checked and
 * closed.
 */
static om_status reader_check_member(om_h5_reader *r, const char *name)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    const om_field *f = om_results_field_find(name);
    hid_t obj = H5Oopen(r->group, name, H5P_DEFAULT);
    hid_t space = H5I_INVALID_HID, type = H5I_INVALID_HID;
    hsize_t rows = 0;
    H5T_class_t cls;

    if (obj < 0)
        return OM_ERROR(OM_EHDF5, "%s: cannot open /trials/%s: %s", r->path, name,
                        om_h5_detail(why, sizeof why));
    if (H5Iget_type(obj) != H5I_DATASET) {
        om_h5_close_id(&obj);
        return OM_OK;
    }
    if ((space = H5Dget_space(obj)) < 0 || (type = H5Dget_type(obj)) < 0) {
        st = OM_ERROR(OM_EHDF5, "%s: cannot read the shape of /trials/%s: %s", r->path, name,
                      om_h5_detail(why, sizeof why));
    } else if (H5Sget_simple_extent_ndims(space) != 1) {
        st = OM_ERROR(OM_EHDF5, "%s: dataset /trials/%s is not one-dimensional", r->path, name);
    } else if (H5Sget_simple_extent_dims(space, &rows, NULL) != 1 || rows != r->trials) {
        st = OM_ERROR(OM_EHDF5, "%s: dataset /trials/%s has %llu rows, expected %llu", r->path,
                      name, (unsigned long long)rows, (unsigned long long)r->trials);
    } else if (((cls = H5Tget_class(type)) != H5T_INTEGER && cls != H5T_ENUM)
               || H5Tget_size(type) != 1) {
        st = OM_ERROR(OM_EHDF5, "%s: dataset /trials/%s is not of a one-byte integer type",
                      r->path, name);
    } else if (f != NULL) {
        size_t i = (size_t)(f - om_results_fields);
        r->dset[i] = obj;
        r->by_name[i] = cls == H5T_ENUM && f->type == OM_FIELD_WINNER;
        obj = H5I_INVALID_HID;
    }
    om_h5_close_id(&type);
    om_h5_close_id(&space);
    om_h5_close_id(&obj);
    return st;
}

/* Open /trials and check every dataset in it. */
static om_status reader_open_trials(om_h5_reader *r)
{
    char why[OM_H5_DETAIL_MAX];
    H5G_info_t ginfo;
    htri_t exists = H5Lexists(r->file, "trials", H5P_DEFAULT);
    if (exists <= 0 || (r->group = H5Gopen2(r->file, "trials", H5P_DEFAULT)) < 0)
        return OM_ERROR(OM_EHDF5, "%s: no /trials group (not an oddsmaster result file?)",
                        r->path);
    if (H5Gget_info(r->group, &ginfo) < 0)
        return OM_ERROR(OM_EHDF5, "%s: cannot list /trials: %s", r->path,
                        om_h5_detail(why, sizeof why));
    for (hsize_t k = 0; k < ginfo.nlinks; k++) {
        char name[256];
        om_status st;
        ssize_t len = H5Lget_name_by_idx(r->group, ".", H5_INDEX_NAME, H5_ITER_INC, k, name,
                                         sizeof name, H5P_DEFAULT);
        if (len < 0)
            return OM_ERROR(OM_EHDF5, "%s: cannot list /trials: %s", r->path,
                            om_h5_detail(why, sizeof why));
        /* No field name is this long; a longer one is a foreign member: skip it. */
        if ((size_t)len >= sizeof name)
            continue;
        if ((st = reader_check_member(r, name)) != OM_OK)
            return st;
    }
    return OM_OK;
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

    if ((st = om_h5_check_schema(r->root, r->path, OM_H5_SCHEMA, "result file")) != OM_OK)
        return st;

    st = om_h5_reader_attr_u64(r, "trials", &r->trials);
    if (st == OM_ENOTFOUND)
        return OM_ERROR(OM_EHDF5, "%s: no trials attribute", r->path);
    if (st != OM_OK)
        return st;
    if (r->trials == 0)
        return OM_ERROR(OM_EHDF5, "%s: the trials attribute is 0", r->path);
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
    r->path = strdup(path);
    r->dset = ids_alloc();
    r->by_name = calloc(om_results_field_count, sizeof *r->by_name);
    if (r->path == NULL || r->dset == NULL || r->by_name == NULL) {
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

/* Index of the open dataset of field `name`, or -1. */
static long reader_field_index(const om_h5_reader *r, const char *name)
{
    const om_field *f = name != NULL ? om_results_field_find(name) : NULL;
    size_t i;
    if (f == NULL)
        return -1;
    i = (size_t)(f - om_results_fields);
    return r->dset[i] >= 0 ? (long)i : -1;
}

int om_h5_reader_has_field(const om_h5_reader *r, const char *name)
{
    return reader_field_index(r, name) >= 0;
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
    fspace = H5Dget_space(r->dset[i]);
    mspace = H5Screate_simple(1, &n, NULL);
    /*
     * An enumerated winner dataset is read through our own enumeration over uint8
     * rather than as a plain uint8: HDF5 then maps the file's values by name, so a
     * file that numbers a, b, draw, none differently still reads as OM_WM_SIDE_A...
     * codes (a value without a name we know reads as 255).
     */
    if (fspace < 0 || mspace < 0
        || H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &start, NULL, &n, NULL) < 0
        || H5Dread(r->dset[i], r->by_name[i] ? r->winner_type : H5T_NATIVE_UINT8, mspace, fspace,
                   H5P_DEFAULT, buf) < 0)
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
    if (r->dset != NULL)
        for (size_t i = 0; i < om_results_field_count; i++)
            om_h5_close_id(&r->dset[i]);
    om_h5_close_id(&r->winner_type);
    om_h5_close_id(&r->group);
    om_h5_close_id(&r->root);
    om_h5_close_id(&r->file);
    free(r->by_name);
    free(r->dset);
    free(r->path);
    free(r);
}
