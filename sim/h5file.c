/*
 * h5file.c: the HDF5 result file of a run (h5file.h), the one place HDF5 is used
 * (STYLE rule 14; ENGINEERING section 4 for the conventions followed here).
 *
 * Every public function first switches off HDF5's automatic printing of its error
 * stack for the calling thread (the stack is per thread in thread-safe builds);
 * failures are instead reported once through OM_ERROR, with the file name and the
 * innermost message of the HDF5 error stack, captured right after the failing call
 * because the next HDF5 API call clears the stack.
 */
#include "h5file.h"

#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

/* Size of the buffer that receives the innermost HDF5 error message. */
#define OM_H5_DETAIL_MAX 512

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

/* Make HDF5 quiet for the calling thread: errors are reported through OM_ERROR. */
static void h5_quiet(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

typedef struct h5_detail_ctx {
    char *buf;   /* destination */
    size_t size; /* its size */
} h5_detail_ctx;

/* H5Ewalk2 callback: keep the description of the last (innermost) entry. */
static herr_t h5_detail_walk(unsigned n, const H5E_error2_t *err, void *data)
{
    h5_detail_ctx *ctx = data;
    (void)n;
    if (err->desc != NULL && err->desc[0] != '\0')
        snprintf(ctx->buf, ctx->size, "%s", err->desc);
    else if (err->func_name != NULL)
        snprintf(ctx->buf, ctx->size, "failure in %s", err->func_name);
    return 0;
}

/*
 * The innermost message of the calling thread's HDF5 error stack, which names the
 * cause ("truncated file: eof = ..."), in `buf`. Call it straight after the
 * failing HDF5 call: the next API call clears the stack.
 */
static const char *h5_detail(char *buf, size_t size)
{
    h5_detail_ctx ctx = {buf, size};
    buf[0] = '\0';
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, h5_detail_walk, &ctx);
    if (buf[0] == '\0')
        snprintf(buf, size, "unknown HDF5 error");
    return buf;
}

/* Close an identifier of any kind if it is valid, and invalidate it. */
static void h5_close_id(hid_t *id)
{
    if (*id >= 0) {
        switch (H5Iget_type(*id)) {
        case H5I_FILE: H5Fclose(*id); break;
        case H5I_GROUP: H5Gclose(*id); break;
        case H5I_DATATYPE: H5Tclose(*id); break;
        case H5I_DATASPACE: H5Sclose(*id); break;
        case H5I_DATASET: H5Dclose(*id); break;
        case H5I_ATTR: H5Aclose(*id); break;
        case H5I_GENPROP_LST: H5Pclose(*id); break;
        default: H5Idec_ref(*id); break;
        }
    }
    *id = H5I_INVALID_HID;
}

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

/* Write a scalar attribute `name` of file type `ftype` from `value` in memory type `mtype`. */
static om_status writer_attr(om_h5_writer *w, hid_t obj, const char *name, hid_t ftype,
                             hid_t mtype, const void *value)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t attr = H5I_INVALID_HID;
    if (space < 0 || (attr = H5Acreate2(obj, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT)) < 0
        || H5Awrite(attr, mtype, value) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot write attribute '%s': %s", w->path, name,
                      h5_detail(why, sizeof why));
    h5_close_id(&attr);
    h5_close_id(&space);
    return st;
}

/* Write a variable-length UTF-8 string attribute (NULL is written as ""). */
static om_status writer_attr_string(om_h5_writer *w, hid_t obj, const char *name,
                                    const char *value)
{
    const char *v = value != NULL ? value : "";
    return writer_attr(w, obj, name, w->str_type, w->str_type, &v);
}

static om_status writer_attr_u64(om_h5_writer *w, const char *name, uint64_t value)
{
    return writer_attr(w, w->file, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, &value);
}

static om_status writer_attr_u32(om_h5_writer *w, const char *name, uint32_t value)
{
    return writer_attr(w, w->file, name, H5T_STD_U32LE, H5T_NATIVE_UINT32, &value);
}

/* The provenance attributes of the root group (h5file.h, ENGINEERING 4.2). */
static om_status writer_root_attrs(om_h5_writer *w, const om_run_info *info)
{
    char created[32];
    time_t now = time(NULL);
    struct tm utc;
    om_status st;

    if (gmtime_r(&now, &utc) == NULL
        || strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &utc) == 0)
        snprintf(created, sizeof created, "unknown");

    const struct {
        const char *name;  /* attribute name */
        const char *value; /* its text */
    } strings[] = {
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
        {"created_utc", created},
    };
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++)
        if ((st = writer_attr_string(w, w->file, strings[i].name, strings[i].value)) != OM_OK)
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
                      h5_detail(why, sizeof why));
    h5_close_id(&dcpl);
    h5_close_id(&space);
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
                              om_results_fields[i].name, h5_detail(why, sizeof why));
    if (w->dset != NULL)
        for (size_t i = 0; i < om_results_field_count; i++)
            w->dset[i] = H5I_INVALID_HID;
    h5_close_id(&w->group);
    h5_close_id(&w->winner_type);
    h5_close_id(&w->str_type);
    /* Closing the file flushes it: a full disk shows up here. */
    if (w->file >= 0 && H5Fclose(w->file) < 0 && st == OM_OK)
        st = OM_ERROR(OM_EHDF5, "%s: cannot write the file: %s", w->path,
                      h5_detail(why, sizeof why));
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

/*
 * Create the temporary file with open(2) first, so a missing directory or a
 * permission problem is reported with the system's reason rather than HDF5's stack.
 */
static om_status writer_touch_tmp(const om_h5_writer *w)
{
    int fd = open(w->tmp_path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0)
        return OM_ERROR(OM_EIO, "cannot create %s: %s", w->path, strerror(errno));
    close(fd);
    return OM_OK;
}

om_status om_h5_writer_create(om_h5_writer **out, const char *path, const om_run_info *info)
{
    char why[OM_H5_DETAIL_MAX];
    om_h5_writer *w;
    om_status st;
    size_t selected = 0;
    hid_t fapl;

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
    h5_quiet();

    w = calloc(1, sizeof *w);
    if (w == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
    w->file = w->group = w->str_type = w->winner_type = H5I_INVALID_HID;
    w->trials = info->trials;
    w->scratch_rows = info->trials < OM_H5_SCRATCH_ROWS ? (size_t)info->trials
                                                         : OM_H5_SCRATCH_ROWS;
    /* "PATH.tmp-PID": beside the target, so the final rename() stays in one file system. */
    size_t tmp_size = strlen(path) + 32;
    w->path = strdup(path);
    w->tmp_path = malloc(tmp_size);
    w->dset = ids_alloc();
    w->scratch = malloc(w->scratch_rows);
    if (w->path == NULL || w->tmp_path == NULL || w->dset == NULL || w->scratch == NULL) {
        writer_free(w);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
    }
    snprintf(w->tmp_path, tmp_size, "%s.tmp-%ld", path, (long)getpid());

    if ((st = writer_touch_tmp(w)) != OM_OK) {
        writer_free(w);
        return st;
    }

    /* Strong close degree: closing the file closes anything left open by an abort. */
    fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0 || H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0
        || (w->file = H5Fcreate(w->tmp_path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl)) < 0) {
        st = OM_ERROR(OM_EIO, "cannot create %s: %s", path, h5_detail(why, sizeof why));
        h5_close_id(&fapl);
        om_h5_writer_abort(w);
        return st;
    }
    h5_close_id(&fapl);

    w->str_type = H5Tcopy(H5T_C_S1);
    if (w->str_type < 0 || H5Tset_size(w->str_type, H5T_VARIABLE) < 0
        || H5Tset_cset(w->str_type, H5T_CSET_UTF8) < 0
        || (w->winner_type = winner_type_create()) < 0
        || (w->group = H5Gcreate2(w->file, "trials", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0) {
        st = OM_ERROR(OM_EHDF5, "%s: cannot create the /trials group: %s", path,
                      h5_detail(why, sizeof why));
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
                      h5_detail(why, sizeof why));
    h5_close_id(&mspace);
    h5_close_id(&fspace);
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
    h5_quiet();
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

/* Flush the temporary file's data to the disk before it replaces the target. */
static om_status writer_sync(const om_h5_writer *w)
{
    int fd = open(w->tmp_path, O_RDONLY);
    if (fd < 0 || fsync(fd) != 0) {
        om_status st = OM_ERROR(OM_EIO, "cannot write %s: %s", w->path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return st;
    }
    close(fd);
    return OM_OK;
}

om_status om_h5_writer_close(om_h5_writer *w)
{
    om_status st = OM_OK, st2;
    if (w == NULL)
        return OM_ERROR(OM_EINVAL, "om_h5_writer_close: no writer");
    h5_quiet();
    if (w->failed)
        st = OM_ERROR(OM_EHDF5, "%s: not saved because an earlier write to it failed", w->path);
    st2 = writer_close_objects(w);
    if (st == OM_OK)
        st = st2;
    if (st == OM_OK)
        st = writer_sync(w);
    if (st == OM_OK && rename(w->tmp_path, w->path) != 0)
        st = OM_ERROR(OM_EIO, "cannot write %s: rename from %s failed: %s", w->path, w->tmp_path,
                      strerror(errno));
    if (st != OM_OK)
        remove(w->tmp_path);
    writer_free(w);
    return st;
}

void om_h5_writer_abort(om_h5_writer *w)
{
    if (w == NULL)
        return;
    h5_quiet();
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
                        h5_detail(why, sizeof why));
    if (H5Iget_type(obj) != H5I_DATASET) {
        h5_close_id(&obj);
        return OM_OK;
    }
    if ((space = H5Dget_space(obj)) < 0 || (type = H5Dget_type(obj)) < 0) {
        st = OM_ERROR(OM_EHDF5, "%s: cannot read the shape of /trials/%s: %s", r->path, name,
                      h5_detail(why, sizeof why));
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
    h5_close_id(&type);
    h5_close_id(&space);
    h5_close_id(&obj);
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
                        h5_detail(why, sizeof why));
    for (hsize_t k = 0; k < ginfo.nlinks; k++) {
        char name[256];
        om_status st;
        ssize_t len = H5Lget_name_by_idx(r->group, ".", H5_INDEX_NAME, H5_ITER_INC, k, name,
                                         sizeof name, H5P_DEFAULT);
        if (len < 0)
            return OM_ERROR(OM_EHDF5, "%s: cannot list /trials: %s", r->path,
                            h5_detail(why, sizeof why));
        /* No field name is this long; a longer one is a foreign member: skip it. */
        if ((size_t)len >= sizeof name)
            continue;
        if ((st = reader_check_member(r, name)) != OM_OK)
            return st;
    }
    return OM_OK;
}

/* Check that `path` is a readable regular file, with the system's reason if not. */
static om_status reader_check_file(const char *path)
{
    struct stat sb;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return OM_ERROR(OM_EIO, "cannot open %s: %s", path, strerror(errno));
    if (fstat(fd, &sb) != 0) {
        om_status st = OM_ERROR(OM_EIO, "cannot open %s: %s", path, strerror(errno));
        close(fd);
        return st;
    }
    close(fd);
    if (S_ISDIR(sb.st_mode))
        return OM_ERROR(OM_EIO, "cannot open %s: %s", path, strerror(EISDIR));
    return OM_OK;
}

/* The part of om_h5_reader_open after the allocations; `r` is freed by the caller on error. */
static om_status reader_open(om_h5_reader *r)
{
    char why[OM_H5_DETAIL_MAX];
    char *schema = NULL;
    om_status st;
    htri_t is_h5;
    hid_t fapl;

    if ((st = reader_check_file(r->path)) != OM_OK)
        return st;
    is_h5 = H5Fis_hdf5(r->path);
    if (is_h5 <= 0)
        return OM_ERROR(OM_EHDF5, "%s is not an HDF5 file", r->path);
    fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0 || H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0
        || (r->file = H5Fopen(r->path, H5F_ACC_RDONLY, fapl)) < 0) {
        st = OM_ERROR(OM_EHDF5, "%s: cannot open the HDF5 file (damaged or truncated?): %s",
                      r->path, h5_detail(why, sizeof why));
        h5_close_id(&fapl);
        return st;
    }
    h5_close_id(&fapl);
    if ((r->root = H5Gopen2(r->file, "/", H5P_DEFAULT)) < 0
        || (r->winner_type = winner_type_create()) < 0)
        return OM_ERROR(OM_EHDF5, "%s: cannot open the root group: %s", r->path,
                        h5_detail(why, sizeof why));

    st = om_h5_reader_attr_string(r, "schema", &schema);
    if (st == OM_ENOTFOUND)
        return OM_ERROR(OM_EHDF5, "%s: no schema attribute (not an oddsmaster result file)",
                        r->path);
    if (st != OM_OK)
        return st;
    if (strcmp(schema, OM_H5_SCHEMA) != 0) {
        st = OM_ERROR(OM_EHDF5, "%s: schema is '%s', expected '%s'", r->path, schema,
                      OM_H5_SCHEMA);
        free(schema);
        return st;
    }
    free(schema);

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
    h5_quiet();
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
    h5_quiet();
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
                      h5_detail(why, sizeof why));
    h5_close_id(&mspace);
    h5_close_id(&fspace);
    return st;
}

/*
 * Open root attribute `name` and check that it holds one value of class `cls`.
 * On success *attr, *type are open; on failure they are closed and the error raised.
 */
static om_status reader_attr_open(om_h5_reader *r, const char *name, H5T_class_t cls,
                                  const char *what, hid_t *attr, hid_t *type)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    hid_t space = H5I_INVALID_HID;
    htri_t exists = H5Aexists(r->root, name);

    *attr = *type = H5I_INVALID_HID;
    if (exists < 0)
        return OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", r->path, name,
                        h5_detail(why, sizeof why));
    if (exists == 0)
        return OM_ERROR(OM_ENOTFOUND, "%s: no attribute '%s'", r->path, name);
    if ((*attr = H5Aopen(r->root, name, H5P_DEFAULT)) < 0 || (*type = H5Aget_type(*attr)) < 0
        || (space = H5Aget_space(*attr)) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", r->path, name,
                      h5_detail(why, sizeof why));
    else if (H5Tget_class(*type) != cls || H5Sget_simple_extent_npoints(space) != 1)
        st = OM_ERROR(OM_EHDF5, "%s: attribute '%s' is not a single %s", r->path, name, what);
    h5_close_id(&space);
    if (st != OM_OK) {
        h5_close_id(type);
        h5_close_id(attr);
    }
    return st;
}

om_status om_h5_reader_attr_string(om_h5_reader *r, const char *name, char **out)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    hid_t attr, ftype, mtype = H5I_INVALID_HID;

    if (r == NULL || name == NULL || out == NULL)
        return OM_ERROR(OM_EINVAL, "om_h5_reader_attr_string: missing reader, name or output");
    *out = NULL;
    h5_quiet();
    if ((st = reader_attr_open(r, name, H5T_STRING, "string", &attr, &ftype)) != OM_OK)
        return st;

    if (H5Tis_variable_str(ftype) > 0) {
        char *s = NULL;
        if ((mtype = H5Tcopy(H5T_C_S1)) < 0 || H5Tset_size(mtype, H5T_VARIABLE) < 0
            || H5Tset_cset(mtype, H5Tget_cset(ftype)) < 0 || H5Aread(attr, mtype, &s) < 0)
            st = OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", r->path, name,
                          h5_detail(why, sizeof why));
        else if ((*out = strdup(s != NULL ? s : "")) == NULL)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", r->path);
        /* HDF5 allocated the string: HDF5 frees it. */
        if (s != NULL)
            H5free_memory(s);
    } else {
        /* A fixed-length string (another tool's file): read it NUL-terminated. */
        size_t n = H5Tget_size(ftype);
        char *s = malloc(n + 1);
        if (s == NULL) {
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", r->path);
        } else if ((mtype = H5Tcopy(ftype)) < 0 || H5Tset_size(mtype, n + 1) < 0
                   || H5Tset_strpad(mtype, H5T_STR_NULLTERM) < 0
                   || H5Aread(attr, mtype, s) < 0) {
            st = OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", r->path, name,
                          h5_detail(why, sizeof why));
            free(s);
        } else {
            s[n] = '\0';
            *out = s;
        }
    }
    h5_close_id(&mtype);
    h5_close_id(&ftype);
    h5_close_id(&attr);
    return st;
}

om_status om_h5_reader_attr_u64(om_h5_reader *r, const char *name, uint64_t *out)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    hid_t attr, ftype;

    if (r == NULL || name == NULL || out == NULL)
        return OM_ERROR(OM_EINVAL, "om_h5_reader_attr_u64: missing reader, name or output");
    h5_quiet();
    if ((st = reader_attr_open(r, name, H5T_INTEGER, "integer", &attr, &ftype)) != OM_OK)
        return st;
    if (H5Tget_sign(ftype) == H5T_SGN_2) {
        /* A signed attribute (another tool's file) is accepted when not negative. */
        int64_t v = 0;
        if (H5Aread(attr, H5T_NATIVE_INT64, &v) < 0)
            st = OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", r->path, name,
                          h5_detail(why, sizeof why));
        else if (v < 0)
            st = OM_ERROR(OM_EHDF5, "%s: attribute '%s' is negative (%lld)", r->path, name,
                          (long long)v);
        else
            *out = (uint64_t)v;
    } else if (H5Aread(attr, H5T_NATIVE_UINT64, out) < 0) {
        st = OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", r->path, name,
                      h5_detail(why, sizeof why));
    }
    h5_close_id(&ftype);
    h5_close_id(&attr);
    return st;
}

void om_h5_reader_close(om_h5_reader *r)
{
    if (r == NULL)
        return;
    h5_quiet();
    if (r->dset != NULL)
        for (size_t i = 0; i < om_results_field_count; i++)
            h5_close_id(&r->dset[i]);
    h5_close_id(&r->winner_type);
    h5_close_id(&r->group);
    h5_close_id(&r->root);
    h5_close_id(&r->file);
    free(r->by_name);
    free(r->dset);
    free(r->path);
    free(r);
}
