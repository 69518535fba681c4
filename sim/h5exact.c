/*
 * h5exact.c: the exact law of a run's fields in its result file (h5file.h,
 * engine/core/exact.h): the /exact group, written when the file is created
 * and read back by the summary.
 *
 *   /exact         attributes method (how the laws were computed, "" if no
 *                  field has one), reason (why the other fields have none, ""
 *                  if every field has one), outcomes (u64: outcomes of the
 *                  dice enumerated) and fields (the names of the fields with
 *                  an exact law, separated by spaces)
 *   /exact/<field> f64[]: P(field = v) for v = 0, 1, ... up to the largest
 *                  value of positive probability, one dataset per field of
 *                  `fields`, with the field's description and type
 *
 * A file without /exact (an older program's) simply has no exact law.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5_int.h"
#include "h5file.h"

/* The dataset /exact/<name> of `n` probabilities, with its checksum
 * (om_h5_dataset_create, as every dataset of the file). */
static om_status write_law(hid_t group, const char *path, const om_field *f, const double *p,
                           hsize_t n)
{
    char why[OM_H5_DETAIL_MAX], shown[OM_H5_NAME_MAX];
    om_status st = OM_OK;
    hid_t space = H5Screate_simple(1, &n, NULL), d = H5I_INVALID_HID;
    snprintf(shown, sizeof shown, "/exact/%s", f->name);
    if (space < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot write %s: %s", path, shown,
                      om_h5_detail(why, sizeof why));
    else if ((st = om_h5_dataset_create(group, f->name, H5T_IEEE_F64LE, space, NULL, 0, path,
                                        shown, &d)) == OM_OK &&
             H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, p) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot write %s: %s", path, shown,
                      om_h5_detail(why, sizeof why));
    if (st == OM_OK)
        st = om_h5_attr_write_string(d, path, "description", f->description);
    if (st == OM_OK)
        st = om_h5_attr_write_string(d, path, "type", om_h5_field_type_names[f->type]);
    om_h5_close_id(&d);
    om_h5_close_id(&space);
    return st;
}

om_status om_h5_exact_write(hid_t file, const char *path, const om_layout *l,
                            const om_exact *x)
{
    char why[OM_H5_DETAIL_MAX];
    size_t len = 1;
    char *names;
    om_status st;
    hid_t g;

    if (x->field_count != l->field_count)
        return OM_ERROR(OM_EINVAL, "%s: an exact law of %zu fields for a layout of %zu", path,
                        x->field_count, l->field_count);
    for (size_t k = 0; k < l->field_count; k++)
        len += x->known[k] ? strlen(l->fields[k].name) + 1 : 0;
    if ((names = malloc(len)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
    names[0] = '\0';
    for (size_t k = 0; k < l->field_count; k++)
        if (x->known[k]) {
            if (names[0] != '\0')
                strcat(names, " ");
            strcat(names, l->fields[k].name);
        }
    if ((g = H5Gcreate2(file, "exact", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0) {
        free(names);
        return OM_ERROR(OM_EHDF5, "%s: cannot create /exact: %s", path,
                        om_h5_detail(why, sizeof why));
    }
    st = om_h5_attr_write_string(g, path, "method", x->method);
    if (st == OM_OK)
        st = om_h5_attr_write_string(g, path, "reason", x->reason);
    if (st == OM_OK)
        st = om_h5_attr_write_string(g, path, "fields", names);
    if (st == OM_OK)
        st = om_h5_attr_write(g, path, "outcomes", H5T_STD_U64LE, H5T_NATIVE_UINT64,
                              &x->outcomes);
    for (size_t k = 0; st == OM_OK && k < l->field_count; k++)
        if (x->known[k])
            st = write_law(g, path, &l->fields[k], x->p + k * OM_EXACT_VALUES,
                           (hsize_t)om_exact_max(x, k) + 1);
    om_h5_close_id(&g);
    free(names);
    return st;
}

/* Read /exact/<name> into p[0..OM_EXACT_VALUES) (zeros past its length),
 * refusing a dataset without its checksum or whose checksum fails. */
static om_status read_law(hid_t group, const char *path, const char *name, double *p)
{
    char why[OM_H5_DETAIL_MAX], shown[OM_H5_NAME_MAX];
    om_status st = OM_OK;
    hsize_t len = 0;
    hid_t d = H5Dopen2(group, name, H5P_DEFAULT), space = H5I_INVALID_HID;
    memset(p, 0, OM_EXACT_VALUES * sizeof *p);
    snprintf(shown, sizeof shown, "/exact/%s", name);
    if (d < 0 || (space = H5Dget_space(d)) < 0 || H5Sget_simple_extent_ndims(space) != 1 ||
        H5Sget_simple_extent_dims(space, &len, NULL) != 1 || len == 0 ||
        len > OM_EXACT_VALUES)
        st = OM_ERROR(OM_EHDF5, "%s: %s is missing or is not a list of 1 to %u "
                      "probabilities: %s", path, shown, OM_EXACT_VALUES,
                      om_h5_detail(why, sizeof why));
    else if ((st = om_h5_dataset_checked(d, path, shown)) == OM_OK)
        st = om_h5_read_whole(d, H5T_NATIVE_DOUBLE, p, path, shown, "probabilities");
    om_h5_close_id(&space);
    om_h5_close_id(&d);
    return st;
}

om_status om_h5_reader_exact(om_h5_reader *r, om_exact **out)
{
    const char *path = om_h5_reader_path(r);
    const size_t n = om_h5_reader_field_count(r);
    hid_t file = om_h5_reader_file(r), g;
    char *text = NULL, *names = NULL;
    om_layout l = {.field_count = n};
    om_exact *x = NULL;
    om_status st;

    *out = NULL;
    om_h5_quiet();
    if (H5Lexists(file, "exact", H5P_DEFAULT) <= 0)
        return OM_ERROR(OM_ENOTFOUND, "%s: no /exact group (written by an older program)",
                        path);
    if ((g = H5Gopen2(file, "exact", H5P_DEFAULT)) < 0)
        return OM_ERROR(OM_EHDF5, "%s: cannot open /exact", path);
    for (size_t k = 0; k < n; k++)
        l.fields[k] = *om_h5_reader_field(r, k);
    if ((st = om_exact_alloc(n, &x)) == OM_OK &&
        (st = om_h5_attr_read_string(g, path, "method", &text)) == OM_OK) {
        snprintf(x->method, sizeof x->method, "%s", text);
        free(text);
        text = NULL;
        st = om_h5_attr_read_string(g, path, "reason", &text);
    }
    if (st == OM_OK) {
        snprintf(x->reason, sizeof x->reason, "%s", text);
        st = om_h5_attr_read_u64(g, path, "outcomes", &x->outcomes);
    }
    if (st == OM_OK)
        st = om_h5_attr_read_string(g, path, "fields", &names);
    /* Each name of `fields` is a field of the file, with its law. */
    for (char *save = NULL, *name = st == OM_OK ? strtok_r(names, " ", &save) : NULL;
         st == OM_OK && name != NULL; name = strtok_r(NULL, " ", &save)) {
        size_t k = 0;
        while (k < n && strcmp(l.fields[k].name, name) != 0)
            k++;
        if (k == n || l.fields[k].type == OM_FIELD_COUNT16)
            st = OM_ERROR(OM_EHDF5, "%s: /exact names '%s', which is not a one-byte field of "
                          "the file", path, name);
        else if ((st = read_law(g, path, name, x->p + k * OM_EXACT_VALUES)) == OM_OK)
            x->known[k] = true;
    }
    if (st == OM_OK && (st = om_exact_check(x, &l, "/exact")) != OM_OK)
        st = OM_ERROR(OM_EHDF5, "%s: %s", path, om_error_message());
    free(text);
    free(names);
    om_h5_close_id(&g);
    if (st != OM_OK) {
        om_exact_free(x);
        /* An attribute missing from /exact is damage, not an older file. */
        return st == OM_ENOTFOUND ? OM_ERROR(OM_EHDF5, "%s: /exact is damaged: %s", path,
                                             om_error_message())
                                  : st;
    }
    *out = x;
    return OM_OK;
}
