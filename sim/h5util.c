/*
 * h5util.c: the HDF5 helpers shared by the result file (h5file.c) and the
 * matchup matrix file (h5matrix.c): quiet error handling with the innermost
 * HDF5 message, identifier closing, attributes, and the temporary-file protocol
 * (h5_int.h). Moved here from h5file.c so both files follow one set of
 * conventions (listed in h5_int.h).
 */
#include "h5_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sha256.h"

void om_h5_quiet(void)
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

const char *om_h5_detail(char *buf, size_t size)
{
    h5_detail_ctx ctx = {buf, size};
    buf[0] = '\0';
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, h5_detail_walk, &ctx);
    if (buf[0] == '\0')
        snprintf(buf, size, "unknown HDF5 error");
    return buf;
}

void om_h5_close_id(hid_t *id)
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
        case H5I_VFL: H5FDunregister(*id); break;
        default: H5Idec_ref(*id); break;
        }
    }
    *id = H5I_INVALID_HID;
}

om_status om_h5_dataset_create(hid_t loc, const char *name, hid_t type, hid_t space,
                               const hsize_t *chunk, unsigned flags, const char *path,
                               const char *shown, hid_t *out)
{
    char why[OM_H5_DETAIL_MAX];
    hsize_t whole[H5S_MAX_RANK];
    const int rank = H5Sget_simple_extent_ndims(space);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    om_status st = OM_OK;

    *out = H5I_INVALID_HID;
    /* One chunk of the whole dataset: its dimensions (a chunk has at least
     * one element a side). */
    if (chunk == NULL && rank > 0 && H5Sget_simple_extent_dims(space, whole, NULL) == rank) {
        for (int d = 0; d < rank; d++)
            whole[d] = whole[d] > 0 ? whole[d] : 1;
        chunk = whole;
    }
    if (dcpl < 0 || rank <= 0 || chunk == NULL || H5Pset_chunk(dcpl, rank, chunk) < 0 ||
        ((flags & OM_H5_NO_FILL) && H5Pset_fill_value(dcpl, type, NULL) < 0) ||
        ((flags & OM_H5_SCALEOFFSET) &&
         H5Pset_scaleoffset(dcpl, H5Z_SO_INT, H5Z_SO_INT_MINBITS_DEFAULT) < 0) ||
        H5Pset_fletcher32(dcpl) < 0 ||
        (*out = H5Dcreate2(loc, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT)) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot create dataset %s: %s", path, shown,
                      om_h5_detail(why, sizeof why));
    om_h5_close_id(&dcpl);
    return st;
}

om_status om_h5_dataset_checked(hid_t dset, const char *path, const char *shown)
{
    char why[OM_H5_DETAIL_MAX];
    unsigned flags = 0, config = 0;
    size_t n = 0;
    hid_t dcpl = H5Dget_create_plist(dset);
    om_status st = OM_OK;
    if (dcpl < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot read how %s is stored: %s", path, shown,
                      om_h5_detail(why, sizeof why));
    else if (H5Pget_filter_by_id2(dcpl, H5Z_FILTER_FLETCHER32, &flags, &n, NULL, 0, NULL,
                                  &config) < 0) {
        /* A missing filter leaves an error on the stack: not ours to report. */
        H5Eclear2(H5E_DEFAULT);
        st = OM_ERROR(OM_EHDF5, "%s: %s carries no checksum (every dataset of an oddsmaster "
                      "file does): it was not written by this program", path, shown);
    }
    om_h5_close_id(&dcpl);
    return st;
}

/* The stored checksum of a raw chunk (its last 4 bytes, least significant
 * first) matches its other bytes, as HDF5's Fletcher-32 filter checks it
 * (which accepts, for files of HDF5 before 1.6.3, the sum's bytes swapped
 * in pairs too). */
static bool chunk_sound(const uint8_t *raw, size_t size)
{
    uint32_t stored, sum, swapped;
    if (size < 4)
        return false;
    stored = (uint32_t)raw[size - 4] | (uint32_t)raw[size - 3] << 8 |
             (uint32_t)raw[size - 2] << 16 | (uint32_t)raw[size - 1] << 24;
    sum = om_h5_fletcher32(raw, size - 4);
    swapped = (sum & 0x00FF00FFu) << 8 | (sum & 0xFF00FF00u) >> 8;
    return stored == sum || stored == swapped;
}

bool om_h5_chunk_damaged(hid_t dset, hsize_t *first, hsize_t *last)
{
    hsize_t dims[H5S_MAX_RANK], chunk[H5S_MAX_RANK], at[H5S_MAX_RANK] = {0};
    hid_t space = H5Dget_space(dset), dcpl = H5Dget_create_plist(dset);
    int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    uint8_t *raw = NULL;
    size_t cap = 0;
    bool found = false, more = true;

    if (rank <= 0 || dcpl < 0 || H5Sget_simple_extent_dims(space, dims, NULL) != rank ||
        H5Pget_layout(dcpl) != H5D_CHUNKED || H5Pget_chunk(dcpl, rank, chunk) != rank)
        more = false;
    for (int d = 0; more && d < rank; d++)
        more = dims[d] > 0 && chunk[d] > 0;
    /* Each chunk in turn, by its first element, the last dimension fastest. */
    while (more && !found) {
        hsize_t bytes = 0;
        uint32_t mask = 0;
        if (H5Dget_chunk_storage_size(dset, at, &bytes) < 0) {
            found = true; /* its place in the file is unreadable */
        } else if (bytes > 0) {
            if (bytes > cap) {
                uint8_t *grown = realloc(raw, (size_t)bytes);
                if (grown == NULL)
                    break;
                raw = grown;
                cap = (size_t)bytes;
            }
            found = H5Dread_chunk(dset, H5P_DEFAULT, at, &mask, raw) < 0 ||
                    !chunk_sound(raw, (size_t)bytes);
        }
        if (found)
            for (int d = 0; d < rank; d++) {
                first[d] = at[d];
                last[d] = (at[d] + chunk[d] < dims[d] ? at[d] + chunk[d] : dims[d]) - 1;
            }
        for (int d = rank - 1; d >= 0; d--) {
            if ((at[d] += chunk[d]) < dims[d])
                break;
            at[d] = 0;
            more = d > 0;
        }
    }
    H5Eclear2(H5E_DEFAULT);
    free(raw);
    om_h5_close_id(&dcpl);
    om_h5_close_id(&space);
    return found;
}

om_status om_h5_read_whole(hid_t dset, hid_t mtype, void *buf, const char *path,
                           const char *shown, const char *unit)
{
    char why[OM_H5_DETAIL_MAX], where[256] = "";
    hsize_t first[H5S_MAX_RANK], last[H5S_MAX_RANK];
    hid_t space;
    int rank;
    size_t at = 0;
    if (H5Dread(dset, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0)
        return OM_OK;
    om_h5_detail(why, sizeof why);
    space = H5Dget_space(dset);
    rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    om_h5_close_id(&space);
    if (rank < 1 || !om_h5_chunk_damaged(dset, first, last))
        return OM_ERROR(OM_EHDF5, "%s: cannot read %s: %s", path, shown, why);
    for (int d = 0; d < rank && at < sizeof where; d++)
        at += (size_t)snprintf(where + at, sizeof where - at, rank == 1 ? "%llu..%llu"
                                                                       : "[%llu..%llu]",
                               (unsigned long long)first[d], (unsigned long long)last[d]);
    return OM_ERROR(OM_EHDF5, "%s: %s, %s %s: " OM_H5_DAMAGED, path, shown, unit, where);
}

void om_h5_utc_now(char buf[OM_H5_UTC_MAX])
{
    time_t now = time(NULL);
    struct tm utc;
    if (gmtime_r(&now, &utc) == NULL
        || strftime(buf, OM_H5_UTC_MAX, "%Y-%m-%dT%H:%M:%SZ", &utc) == 0)
        snprintf(buf, OM_H5_UTC_MAX, "unknown");
}

/* ------------------------------------------------------------- attributes */

om_status om_h5_attr_write(hid_t obj, const char *path, const char *name, hid_t ftype,
                           hid_t mtype, const void *value)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t attr = H5I_INVALID_HID;
    /* An attribute written again (a run's trials, at its end) replaces the old one. */
    if (H5Aexists(obj, name) > 0)
        H5Adelete(obj, name);
    if (space < 0 || (attr = H5Acreate2(obj, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT)) < 0
        || H5Awrite(attr, mtype, value) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot write attribute '%s': %s", path, name,
                      om_h5_detail(why, sizeof why));
    om_h5_close_id(&attr);
    om_h5_close_id(&space);
    return st;
}

const char *const om_h5_side_key[2] = {"a", "b"};
const char *const om_h5_field_type_names[OM_FIELD_TYPES] = {"count", "flag", "winner",
                                                              "count16"};

hid_t om_h5_winner_type(void)
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

om_status om_h5_attr_write_u32s(hid_t obj, const char *path, const char *name,
                                const uint32_t *values, size_t n)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    hsize_t dims = n;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    hid_t attr = H5I_INVALID_HID;
    if (H5Aexists(obj, name) > 0)
        H5Adelete(obj, name);
    if (space < 0 ||
        (attr = H5Acreate2(obj, name, H5T_STD_U32LE, space, H5P_DEFAULT, H5P_DEFAULT)) < 0 ||
        H5Awrite(attr, H5T_NATIVE_UINT32, values) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot write attribute '%s': %s", path, name,
                      om_h5_detail(why, sizeof why));
    om_h5_close_id(&attr);
    om_h5_close_id(&space);
    return st;
}

om_status om_h5_attr_read_u32s(hid_t obj, const char *path, const char *name, uint32_t *values,
                               size_t cap, size_t *n)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    hid_t attr = H5I_INVALID_HID, type = H5I_INVALID_HID, space = H5I_INVALID_HID;
    hssize_t count;
    htri_t exists = H5Aexists(obj, name);

    *n = 0;
    if (exists < 0)
        return OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", path, name,
                        om_h5_detail(why, sizeof why));
    if (exists == 0)
        return OM_ERROR(OM_ENOTFOUND, "%s: no attribute '%s'", path, name);
    if ((attr = H5Aopen(obj, name, H5P_DEFAULT)) < 0 || (type = H5Aget_type(attr)) < 0 ||
        (space = H5Aget_space(attr)) < 0 || (count = H5Sget_simple_extent_npoints(space)) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", path, name,
                      om_h5_detail(why, sizeof why));
    else if (H5Tget_class(type) != H5T_INTEGER || (size_t)count > cap || count == 0)
        st = OM_ERROR(OM_EHDF5, "%s: attribute '%s' is not a list of 1 to %zu integers", path,
                      name, cap);
    else if (H5Aread(attr, H5T_NATIVE_UINT32, values) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", path, name,
                      om_h5_detail(why, sizeof why));
    else
        *n = (size_t)count;
    om_h5_close_id(&space);
    om_h5_close_id(&type);
    om_h5_close_id(&attr);
    return st;
}

om_status om_h5_attr_write_string(hid_t obj, const char *path, const char *name,
                                  const char *value)
{
    char why[OM_H5_DETAIL_MAX];
    const char *v = value != NULL ? value : "";
    hid_t type = H5Tcopy(H5T_C_S1);
    om_status st;
    if (type < 0 || H5Tset_size(type, strlen(v) + 1) < 0 ||
        H5Tset_cset(type, H5T_CSET_UTF8) < 0 || H5Tset_strpad(type, H5T_STR_NULLTERM) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot write attribute '%s': %s", path, name,
                      om_h5_detail(why, sizeof why));
    else
        st = om_h5_attr_write(obj, path, name, type, type, v);
    om_h5_close_id(&type);
    return st;
}

om_status om_h5_attr_write_texts(hid_t obj, const char *path, const om_h5_text *texts,
                                 size_t n)
{
    char created[OM_H5_UTC_MAX];
    om_status st;
    for (size_t i = 0; i < n; i++)
        if ((st = om_h5_attr_write_string(obj, path, texts[i].name, texts[i].value)) != OM_OK)
            return st;
    om_h5_utc_now(created);
    return om_h5_attr_write_string(obj, path, "created_utc", created);
}

/*
 * Open attribute `name` of `obj` and check that it holds one value of class `cls`
 * (`what` names the class in messages). On success *attr, *type are open; on
 * failure they are closed and the error raised.
 */
static om_status attr_open(hid_t obj, const char *path, const char *name, H5T_class_t cls,
                           const char *what, hid_t *attr, hid_t *type)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    hid_t space = H5I_INVALID_HID;
    htri_t exists = H5Aexists(obj, name);

    *attr = *type = H5I_INVALID_HID;
    if (exists < 0)
        return OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", path, name,
                        om_h5_detail(why, sizeof why));
    if (exists == 0)
        return OM_ERROR(OM_ENOTFOUND, "%s: no attribute '%s'", path, name);
    if ((*attr = H5Aopen(obj, name, H5P_DEFAULT)) < 0 || (*type = H5Aget_type(*attr)) < 0
        || (space = H5Aget_space(*attr)) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", path, name,
                      om_h5_detail(why, sizeof why));
    else if (H5Tget_class(*type) != cls || H5Sget_simple_extent_npoints(space) != 1)
        st = OM_ERROR(OM_EHDF5, "%s: attribute '%s' is not a single %s", path, name, what);
    om_h5_close_id(&space);
    if (st != OM_OK) {
        om_h5_close_id(type);
        om_h5_close_id(attr);
    }
    return st;
}

om_status om_h5_attr_read_string(hid_t obj, const char *path, const char *name, char **out)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    hid_t attr, ftype, mtype = H5I_INVALID_HID;

    *out = NULL;
    if ((st = attr_open(obj, path, name, H5T_STRING, "string", &attr, &ftype)) != OM_OK)
        return st;

    if (H5Tis_variable_str(ftype) > 0) {
        char *s = NULL;
        if ((mtype = H5Tcopy(H5T_C_S1)) < 0 || H5Tset_size(mtype, H5T_VARIABLE) < 0
            || H5Tset_cset(mtype, H5Tget_cset(ftype)) < 0 || H5Aread(attr, mtype, &s) < 0)
            st = OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", path, name,
                          om_h5_detail(why, sizeof why));
        else if ((*out = strdup(s != NULL ? s : "")) == NULL)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
        /* HDF5 allocated the string: HDF5 frees it. */
        if (s != NULL)
            H5free_memory(s);
    } else {
        /* A fixed-length string (another tool's file): read it NUL-terminated. */
        size_t n = H5Tget_size(ftype);
        char *s = malloc(n + 1);
        if (s == NULL) {
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
        } else if ((mtype = H5Tcopy(ftype)) < 0 || H5Tset_size(mtype, n + 1) < 0
                   || H5Tset_strpad(mtype, H5T_STR_NULLTERM) < 0
                   || H5Aread(attr, mtype, s) < 0) {
            st = OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", path, name,
                          om_h5_detail(why, sizeof why));
            free(s);
        } else {
            s[n] = '\0';
            *out = s;
        }
    }
    om_h5_close_id(&mtype);
    om_h5_close_id(&ftype);
    om_h5_close_id(&attr);
    return st;
}

om_status om_h5_attr_read_u64(hid_t obj, const char *path, const char *name, uint64_t *out)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    hid_t attr, ftype;

    if ((st = attr_open(obj, path, name, H5T_INTEGER, "integer", &attr, &ftype)) != OM_OK)
        return st;
    if (H5Tget_sign(ftype) == H5T_SGN_2) {
        /* A signed attribute (another tool's file) is accepted when not negative. */
        int64_t v = 0;
        if (H5Aread(attr, H5T_NATIVE_INT64, &v) < 0)
            st = OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", path, name,
                          om_h5_detail(why, sizeof why));
        else if (v < 0)
            st = OM_ERROR(OM_EHDF5, "%s: attribute '%s' is negative (%lld)", path, name,
                          (long long)v);
        else
            *out = (uint64_t)v;
    } else if (H5Aread(attr, H5T_NATIVE_UINT64, out) < 0) {
        st = OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", path, name,
                      om_h5_detail(why, sizeof why));
    }
    om_h5_close_id(&ftype);
    om_h5_close_id(&attr);
    return st;
}

om_status om_h5_attr_read_double(hid_t obj, const char *path, const char *name, double *out)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st;
    hid_t attr, ftype;

    if ((st = attr_open(obj, path, name, H5T_FLOAT, "real number", &attr, &ftype)) != OM_OK)
        return st;
    if (H5Aread(attr, H5T_NATIVE_DOUBLE, out) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", path, name,
                      om_h5_detail(why, sizeof why));
    om_h5_close_id(&ftype);
    om_h5_close_id(&attr);
    return st;
}

om_status om_h5_check_schema(hid_t obj, const char *path, const char *expected,
                             const char *what)
{
    char *schema = NULL;
    om_status st = om_h5_attr_read_string(obj, path, "schema", &schema);
    if (st == OM_ENOTFOUND)
        return OM_ERROR(OM_EHDF5, "%s: no schema attribute (not an oddsmaster %s)", path, what);
    if (st != OM_OK)
        return st;
    if (strcmp(schema, expected) != 0)
        st = OM_ERROR(OM_EHDF5, "%s: schema is '%s', expected '%s'", path, schema, expected);
    free(schema);
    return st;
}

/* ------------------------------------------------------------ provenance */

/*
 * A result file's provenance digest: the attribute provenance_sha256, written
 * when the run begins, holds one line "all HEX" (the SHA-256 of the
 * serialisation of every item below, in order), then one line "ITEM HEX" per
 * item (the SHA-256 of its record alone), so that a reader tells which item
 * no longer matches. An item is an attribute of the root group, or of the
 * group its name starts with ("trials/fields"); its record is
 * "NAME:KIND:LENGTH:VALUE\n", KIND s for a string (its bytes), i for
 * integers (in decimal, separated by commas), f for a real (its IEEE 754 bits
 * in hexadecimal), - for an attribute the file lacks (no length or value).
 */
const char *const om_h5_provenance_items[] = {
    "game", "program_version", "scenario_name", "scenario_yaml", "title", "ruleset", "kind",
    "unit_a", "unit_b", "points_a", "points_b", "options_json", "rng", "seed",
    "trials_requested", "block_size", "rows", "halfwidth", "target", "points_rule",
    "loss_field_a", "loss_unit_a", "loss_start_a", "vp_lost_a", "loss_field_b", "loss_unit_b",
    "loss_start_b", "vp_lost_b", "trials/fields", "score_field_a", "score_field_b",
    "unit_lost_field"};
const size_t om_h5_provenance_count =
    sizeof om_h5_provenance_items / sizeof om_h5_provenance_items[0];

/* Most integers an item may hold (vp_lost: one per value of a one-byte field). */
#define PROVENANCE_INTS 256

/* The value of attribute `name` of `obj` in its canonical form: *kind and a
 * new string *value (NULL for an absent attribute). */
static om_status provenance_value(hid_t obj, const char *path, const char *name, char *kind,
                                  char **value)
{
    char why[OM_H5_DETAIL_MAX];
    const htri_t exists = H5Aexists(obj, name);
    hid_t attr = H5I_INVALID_HID, type = H5I_INVALID_HID, space = H5I_INVALID_HID;
    H5T_class_t cls = H5T_NO_CLASS;
    hssize_t count = 0;
    om_status st = OM_OK;

    *value = NULL;
    *kind = '-';
    if (exists == 0)
        return OM_OK;
    if (exists < 0 || (attr = H5Aopen(obj, name, H5P_DEFAULT)) < 0 ||
        (type = H5Aget_type(attr)) < 0 || (space = H5Aget_space(attr)) < 0 ||
        (count = H5Sget_simple_extent_npoints(space)) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", path, name,
                      om_h5_detail(why, sizeof why));
    else if ((cls = H5Tget_class(type)) == H5T_STRING) {
        *kind = 's';
        st = om_h5_attr_read_string(obj, path, name, value);
    } else if (cls == H5T_INTEGER && count >= 1 && count <= PROVENANCE_INTS) {
        uint64_t v[PROVENANCE_INTS];
        *kind = 'i';
        if (H5Aread(attr, H5T_NATIVE_UINT64, v) < 0)
            st = OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", path, name,
                          om_h5_detail(why, sizeof why));
        else if ((*value = malloc((size_t)count * 21 + 1)) == NULL)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
        for (size_t i = 0, at = 0; st == OM_OK && i < (size_t)count; i++)
            at += (size_t)sprintf(*value + at, "%s%llu", i > 0 ? "," : "",
                                  (unsigned long long)v[i]);
    } else if (cls == H5T_FLOAT && count == 1) {
        double d = 0;
        uint64_t bits;
        *kind = 'f';
        if (H5Aread(attr, H5T_NATIVE_DOUBLE, &d) < 0)
            st = OM_ERROR(OM_EHDF5, "%s: cannot read attribute '%s': %s", path, name,
                          om_h5_detail(why, sizeof why));
        else if ((*value = malloc(17)) == NULL)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
        if (st == OM_OK) {
            memcpy(&bits, &d, sizeof bits);
            snprintf(*value, 17, "%016llx", (unsigned long long)bits);
        }
    } else {
        st = OM_ERROR(OM_EHDF5, "%s: attribute '%s' is not of the kind it should be", path,
                      name);
    }
    om_h5_close_id(&space);
    om_h5_close_id(&type);
    om_h5_close_id(&attr);
    return st;
}

/* Item `item`'s record into both digests, its own as hex at `hex`. */
static om_status provenance_item(hid_t file, const char *path, const char *item, om_sha256 *all,
                                 char hex[OM_SHA256_HEX])
{
    const char *slash = strrchr(item, '/');
    char group[64], head[96], kind;
    char *value = NULL;
    om_sha256 one;
    uint8_t d[OM_SHA256_BYTES];
    hid_t obj = file;
    om_status st;

    if (slash != NULL) {
        snprintf(group, sizeof group, "%.*s", (int)(slash - item), item);
        if (H5Lexists(file, group, H5P_DEFAULT) <= 0 ||
            (obj = H5Oopen(file, group, H5P_DEFAULT)) < 0)
            return OM_ERROR(OM_EHDF5, "%s: no /%s group", path, group);
    }
    st = provenance_value(obj, path, slash != NULL ? slash + 1 : item, &kind, &value);
    if (obj != file)
        H5Oclose(obj);
    if (st != OM_OK)
        return st;
    if (value != NULL)
        snprintf(head, sizeof head, "%s:%c:%zu:", item, kind, strlen(value));
    else
        snprintf(head, sizeof head, "%s:-", item);
    om_sha256_init(&one);
    om_sha256_update(&one, head, strlen(head));
    om_sha256_update(all, head, strlen(head));
    if (value != NULL) {
        om_sha256_update(&one, value, strlen(value));
        om_sha256_update(all, value, strlen(value));
    }
    om_sha256_update(&one, "\n", 1);
    om_sha256_update(all, "\n", 1);
    om_sha256_final(&one, d);
    for (unsigned i = 0; i < OM_SHA256_BYTES; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
    free(value);
    return OM_OK;
}

/* Characters of a line "NAME HEX\n" of the digest at most. */
#define PROVENANCE_LINE 128

om_status om_h5_provenance(hid_t file, const char *path, char **text)
{
    char hex[OM_SHA256_HEX];
    const size_t size = (om_h5_provenance_count + 1) * PROVENANCE_LINE;
    char *lines = malloc(size), *out = malloc(size);
    om_sha256 all;
    uint8_t d[OM_SHA256_BYTES];
    size_t at = 0;
    om_status st = OM_OK;

    *text = NULL;
    if (lines == NULL || out == NULL) {
        free(lines);
        free(out);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
    }
    om_sha256_init(&all);
    for (size_t i = 0; i < om_h5_provenance_count && st == OM_OK; i++)
        if ((st = provenance_item(file, path, om_h5_provenance_items[i], &all, hex)) == OM_OK)
            at += (size_t)snprintf(lines + at, size - at, "%s %s\n", om_h5_provenance_items[i],
                                   hex);
    if (st != OM_OK) {
        free(lines);
        free(out);
        return st;
    }
    om_sha256_final(&all, d);
    for (unsigned i = 0; i < OM_SHA256_BYTES; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
    snprintf(out, size, "all %s\n%s", hex, lines);
    free(lines);
    *text = out;
    return OM_OK;
}

/* The digest of item `name` in the digest text `text` (its line "NAME HEX"),
 * or NULL. */
static const char *provenance_line(const char *text, const char *name)
{
    const size_t n = strlen(name);
    for (const char *line = text; line != NULL && *line != '\0';) {
        if (strncmp(line, name, n) == 0 && line[n] == ' ')
            return line + n + 1;
        line = strchr(line, '\n');
        line = line != NULL ? line + 1 : NULL;
    }
    return NULL;
}

om_status om_h5_provenance_check(hid_t file, const char *path)
{
    char *stored = NULL, *now = NULL, changed[512] = "";
    size_t n_changed = 0, at = 0;
    om_status st = om_h5_attr_read_string(file, path, OM_H5_PROVENANCE_ATTR, &stored);
    if (st == OM_ENOTFOUND)
        return OM_ERROR(OM_EHDF5, "%s: no %s attribute: the digest of its run is missing, so "
                        "the file cannot be checked", path, OM_H5_PROVENANCE_ATTR);
    if (st != OM_OK || (st = om_h5_provenance(file, path, &now)) != OM_OK) {
        free(stored);
        return st;
    }
    if (strcmp(stored, now) == 0) {
        free(stored);
        free(now);
        return OM_OK;
    }
    /* Which items differ from the digest written when the run began. */
    for (size_t i = 0; i < om_h5_provenance_count; i++) {
        const char *name = om_h5_provenance_items[i];
        const char *was = provenance_line(stored, name), *is = provenance_line(now, name);
        if (was != NULL && is != NULL && strncmp(was, is, OM_SHA256_HEX - 1) == 0)
            continue;
        n_changed++;
        if (at < sizeof changed)
            at += (size_t)snprintf(changed + at, sizeof changed - at, "%s%s",
                                   n_changed > 1 ? ", " : "", name);
    }
    if (n_changed > 0)
        st = OM_ERROR(OM_EHDF5, "%s: %s %s not what %s when the run began (the file was "
                      "edited or is damaged): it cannot be trusted", path, changed,
                      n_changed > 1 ? "are" : "is",
                      "the digest of the run (" OM_H5_PROVENANCE_ATTR ") recorded");
    else
        st = OM_ERROR(OM_EHDF5, "%s: the digest of the run (%s) is damaged: the file cannot "
                      "be trusted", path, OM_H5_PROVENANCE_ATTR);
    free(stored);
    free(now);
    return st;
}

/* ---------------------------------------------------------------- files */

/*
 * A file is written as "PATH.tmp-PID" (the writer's process id, for people
 * and messages) and renamed to PATH when complete. The writer holds an
 * exclusive flock(2) lock on it from its creation until it is renamed or
 * removed: the lock, not the process id, says that the file is being
 * written. A lock belongs to the open file, not to a process id: the kernel
 * drops it when the writer ends, however it ends (killed outright too), so
 * a process that reuses the id later holds no lock, and a leftover of a
 * killed run is told from a live run whatever process now has its id
 * (om_h5_tmp_clean). A file system without flock(2) locks leaves the file
 * unlocked: there a leftover is judged by its process, which must be alive
 * and have started before the file was last written (its start time, from
 * /proc, against the file's modification time), so that a reused id, whose
 * process started later, does not pass for the writer.
 */

/* Whether flock(2) failed for want of locks on the file system (not because
 * another holds the lock). */
static bool no_locks(int err)
{
    return err == ENOLCK || err == EOPNOTSUPP || err == EINVAL || err == ENOSYS;
}

om_status om_h5_tmp_claim(const char *path, char **tmp_path, int *lock)
{
    /* "PATH.tmp-PID": room for the suffix and any pid. */
    const size_t size = strlen(path) + 32;
    char *tmp = malloc(size);
    struct stat held, named;
    int fd;

    *tmp_path = NULL;
    *lock = -1;
    if (tmp == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
    snprintf(tmp, size, "%s.tmp-%ld", path, (long)getpid());
    fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        om_status st = OM_ERROR(OM_EIO, "cannot create %s: %s", path, strerror(errno));
        free(tmp);
        return st;
    }
    /* Locked, and still the file of that name: a run that cleaned leftovers
     * at the moment it was created, before it was locked, may have removed
     * it (the name is this process's: nothing else creates it again). */
    if ((flock(fd, LOCK_EX | LOCK_NB) != 0 && !no_locks(errno)) || fstat(fd, &held) != 0 ||
        stat(tmp, &named) != 0) {
        om_status st = OM_ERROR(OM_EIO, "cannot create %s: %s (%s)", path, strerror(errno), tmp);
        close(fd);
        free(tmp);
        return st;
    }
    if (held.st_dev != named.st_dev || held.st_ino != named.st_ino) {
        om_status st = OM_ERROR(OM_EIO, "cannot create %s: %s was replaced as it was created",
                                path, tmp);
        close(fd);
        free(tmp);
        return st;
    }
    *tmp_path = tmp;
    *lock = fd;
    return OM_OK;
}

om_status om_h5_tmp_create(const char *path, char **tmp_path, int *lock, hid_t *file,
                           hid_t *driver)
{
    char why[OM_H5_DETAIL_MAX];
    hid_t fapl = H5I_INVALID_HID;
    om_status st;

    *file = H5I_INVALID_HID;
    /* The name created with open(2) first, so a missing directory or a
     * permission problem is reported with the system's reason. */
    if ((st = om_h5_tmp_claim(path, tmp_path, lock)) != OM_OK)
        return st;
    /* Strong close degree: closing the file closes anything left open by an
     * abort. */
    if (om_h5_buffered_fapl(&fapl, driver) != OM_OK ||
        (*file = H5Fcreate(*tmp_path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl)) < 0) {
        st = OM_ERROR(OM_EIO, "cannot create %s: %s", path, om_h5_detail(why, sizeof why));
        om_h5_close_id(&fapl);
        om_h5_close_id(driver);
        om_h5_tmp_discard(tmp_path, lock);
        *file = H5I_INVALID_HID;
        return st;
    }
    om_h5_close_id(&fapl);
    return OM_OK;
}

void om_h5_tmp_discard(char **tmp_path, int *lock)
{
    if (*tmp_path != NULL)
        remove(*tmp_path);
    if (*lock >= 0)
        close(*lock);
    free(*tmp_path);
    *tmp_path = NULL;
    *lock = -1;
}

/* Flush the temporary file (its lock's descriptor, or opened) to the disk
 * and rename it to `path`. */
static om_status tmp_publish(const char *path, const char *tmp_path, int lock)
{
    int fd = lock >= 0 ? lock : open(tmp_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fsync(fd) != 0) {
        om_status st = OM_ERROR(OM_EIO, "cannot write %s: %s", path, strerror(errno));
        if (fd >= 0 && fd != lock)
            close(fd);
        return st;
    }
    if (fd != lock)
        close(fd);
    if (rename(tmp_path, path) != 0)
        return OM_ERROR(OM_EIO, "cannot write %s: rename from %s failed: %s", path, tmp_path,
                        strerror(errno));
    return OM_OK;
}

om_status om_h5_tmp_finish(const char *path, char **tmp_path, int *lock, om_status st)
{
    if (st == OM_OK && (st = tmp_publish(path, *tmp_path, *lock)) == OM_OK) {
        /* Renamed: nothing to remove, the lock released last. */
        free(*tmp_path);
        *tmp_path = NULL;
    }
    om_h5_tmp_discard(tmp_path, lock);
    return st;
}

/* Whether process `pid` still runs. */
static bool alive(long pid)
{
    return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno != ESRCH);
}

/* When process `pid` started, in seconds since the epoch (its start in
 * clock ticks after the boot, field 22 of /proc/PID/stat, plus the boot's
 * time, btime of /proc/stat), or -1 if the system does not say. */
static double process_start(long pid)
{
    char name[64], line[1024];
    const char *after;
    unsigned long long ticks = 0, boot = 0;
    const long hz = sysconf(_SC_CLK_TCK);
    size_t n;
    FILE *f;
    snprintf(name, sizeof name, "/proc/%ld/stat", pid);
    if ((f = fopen(name, "r")) == NULL)
        return -1;
    n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = '\0';
    /* Fields 3 on follow the command's name, which ends at the last ')':
     * the start is the 20th of them. */
    if ((after = strrchr(line, ')')) == NULL ||
        sscanf(after + 1, " %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
                          "%*s %*s %*s %llu", &ticks) != 1 ||
        (f = fopen("/proc/stat", "r")) == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL && sscanf(line, "btime %llu", &boot) != 1)
        ;
    fclose(f);
    return boot > 0 && hz > 0 ? (double)boot + (double)ticks / (double)hz : -1;
}

/* Slack of the start-time test (process_start has a boot time in whole
 * seconds): a process that started this long after the file's last write
 * cannot have written it. */
#define START_SLACK_S 2.0

/*
 * Whether the temporary file `full` (open as fd), named after process pid,
 * is being written: its lock is held by another; or, where the file system
 * has no locks, its process is alive and did not start after the file's
 * last write. When it is not, fd holds the lock (or none can be had) and
 * the file may be removed.
 */
static bool tmp_in_use(int fd, long pid)
{
    struct stat sb;
    double start;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        return false;
    if (!no_locks(errno))
        return true;
    if (!alive(pid))
        return false;
    start = process_start(pid);
    return start < 0 || fstat(fd, &sb) != 0 ||
           start <= (double)sb.st_mtim.tv_sec + START_SLACK_S;
}

/* Append one line to the growing text *notice (dropped when out of memory). */
static void notice_add(char **notice, const char *line)
{
    const size_t old = *notice != NULL ? strlen(*notice) : 0, n = strlen(line);
    char *grown = realloc(*notice, old + n + 1);
    if (grown != NULL) {
        memcpy(grown + old, line, n + 1);
        *notice = grown;
    }
}

om_status om_h5_tmp_clean(const char *path, char **notice)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    const char *base = slash ? slash + 1 : path;
    const size_t base_len = strlen(base);
    DIR *d;
    struct dirent *e;
    om_status st = OM_OK;

    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
             slash ? path : ".");
    if ((d = opendir(dir)) == NULL)
        return OM_OK;
    while (st == OM_OK && (e = readdir(d)) != NULL) {
        char *end = NULL, full[8192], line[8400];
        long pid;
        int fd;
        if (strncmp(e->d_name, base, base_len) != 0 || strncmp(e->d_name + base_len, ".tmp-", 5))
            continue;
        pid = strtol(e->d_name + base_len + 5, &end, 10);
        if (end == NULL || *end != '\0' || pid == (long)getpid())
            continue;
        snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
        if ((fd = open(full, O_RDONLY | O_CLOEXEC)) < 0)
            continue; /* gone meanwhile, or not ours to judge */
        if (tmp_in_use(fd, pid)) {
            st = OM_ERROR(OM_EINVAL, "%s: another run (process %ld) is writing it now (%s)",
                          path, pid, full);
        } else if (remove(full) == 0) {
            snprintf(line, sizeof line, "removed %s, left by a run that was killed before it "
                     "ended (process %ld)\n", full, pid);
            notice_add(notice, line);
        }
        close(fd);
    }
    closedir(d);
    return st;
}

/* Check that `path` is a readable regular file, with the system's reason if not. */
static om_status check_readable(const char *path)
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

om_status om_h5_open_read(const char *path, hid_t *file)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st;
    hid_t fapl;

    *file = H5I_INVALID_HID;
    if ((st = check_readable(path)) != OM_OK)
        return st;
    if (H5Fis_hdf5(path) <= 0)
        return OM_ERROR(OM_EHDF5, "%s is not an HDF5 file", path);
    fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0 || H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0
        || (*file = H5Fopen(path, H5F_ACC_RDONLY, fapl)) < 0) {
        st = OM_ERROR(OM_EHDF5, "%s: cannot open the HDF5 file (damaged or truncated?): %s",
                      path, om_h5_detail(why, sizeof why));
        *file = H5I_INVALID_HID;
    }
    om_h5_close_id(&fapl);
    return st;
}

/* The names of a unit table's members, in its order (h5_int.h). */
static const char *const unit_member[OM_H5_UNIT_MEMBERS] = {"id", "name", "army", "side",
                                                             "points"};

hid_t om_h5_unit_table_type(const size_t len[3], bool memory, size_t offset[OM_H5_UNIT_MEMBERS],
                            size_t *record)
{
    hid_t member[OM_H5_UNIT_MEMBERS] = {H5I_INVALID_HID, H5I_INVALID_HID, H5I_INVALID_HID,
                                        H5I_INVALID_HID, H5I_INVALID_HID};
    hid_t type = H5I_INVALID_HID;
    uint8_t side;
    size_t at = 0;
    bool ok = true;
    for (int k = 0; k < 3 && ok; k++)
        ok = (member[k] = H5Tcopy(H5T_C_S1)) >= 0 && H5Tset_size(member[k], len[k]) >= 0 &&
             H5Tset_strpad(member[k], H5T_STR_NULLTERM) >= 0 &&
             H5Tset_cset(member[k], H5T_CSET_UTF8) >= 0;
    if (ok && (member[3] = H5Tenum_create(H5T_NATIVE_UINT8)) >= 0) {
        side = 0;
        ok = H5Tenum_insert(member[3], "a", &side) >= 0;
        side = 1;
        ok = ok && H5Tenum_insert(member[3], "b", &side) >= 0;
    } else {
        ok = false;
    }
    ok = ok && (member[4] = H5Tcopy(memory ? H5T_NATIVE_UINT32 : H5T_STD_U32LE)) >= 0;
    for (int k = 0; k < OM_H5_UNIT_MEMBERS && ok; k++) {
        offset[k] = at;
        at += H5Tget_size(member[k]);
    }
    *record = at;
    ok = ok && (type = H5Tcreate(H5T_COMPOUND, at)) >= 0;
    for (int k = 0; k < OM_H5_UNIT_MEMBERS && ok; k++)
        ok = H5Tinsert(type, unit_member[k], offset[k], member[k]) >= 0;
    for (int k = 0; k < OM_H5_UNIT_MEMBERS; k++)
        om_h5_close_id(&member[k]);
    if (!ok)
        om_h5_close_id(&type);
    return type;
}
