/*
 * h5matrix.c: the HDF5 matchup matrix file (h5matrix.h), written by `oddsmaster
 * matrix` and read by the analysers. One of the two places HDF5 is used (the
 * other is h5file.c, with which it shares h5_int.h).
 *
 * The cells are held in memory and written at close as six 3-D datasets; the
 * axes are 1-D string datasets made HDF5 dimension scales (the H5DS part of
 * the HL library, linked by meson's hdf5 dependency), so generic tools show the
 * situation, row and column names along the axes of every cell dataset. Each
 * trial's winner, where the file keeps it, is written a cell at a time as the
 * cells end (a whole matrix of them would not fit in memory), into a 4-D
 * dataset whose chunks are cells.
 */
#include "h5matrix.h"

#include <hdf5_hl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5_int.h"
#include "layout.h"

/* The axes of a cell dataset, in dataset order, and the scale datasets naming them. */
enum { AXIS_SITUATION = 0, AXIS_ROW = 1, AXIS_COL = 2, AXIS_COUNT = 3 };
static const char *const axis_label[AXIS_COUNT] = {"situation", "row", "col"};
static const char *const axis_group[AXIS_COUNT] = {"situations", "rows", "cols"};

/* One dataset of /cells: a u64 or double member of om_matrix_cell. */
typedef struct cell_field {
    const char *name;        /* dataset name under /cells */
    const char *description; /* its "description" attribute */
    size_t offset;           /* offset of the member in om_matrix_cell */
    bool real;               /* double (true) or uint64_t (false) */
    bool margins;            /* only in a matrix of army lists (om_matrix_info.battle_margins) */
} cell_field;

static const cell_field cell_fields[] = {
    {"trials", "Trials run in the cell (0: the cell was not run).",
     offsetof(om_matrix_cell, trials), false, false},
    {"wins_row", "Trials won by the row unit.", offsetof(om_matrix_cell, wins_row), false,
     false},
    {"draws", "Drawn trials.", offsetof(om_matrix_cell, draws), false, false},
    {"wins_col", "Trials won by the column unit.", offsetof(om_matrix_cell, wins_col), false,
     false},
    {"points_lost_row_sum", "Sum over the trials of the victory points lost by the row unit "
     "(mean = sum / trials).", offsetof(om_matrix_cell, points_lost_row_sum), true, false},
    {"points_lost_col_sum", "Sum over the trials of the victory points lost by the column "
     "unit (mean = sum / trials).", offsetof(om_matrix_cell, points_lost_col_sum), true, false},
    {"margin_sq_sum", "Sum over the battles of the square of the victory-point margin, the row "
     "list's points scored less the column list's (its sum is points_lost_col_sum - "
     "points_lost_row_sum).", offsetof(om_matrix_cell, margin_sq_sum), true, true},
};
#define CELL_FIELD_COUNT (sizeof cell_fields / sizeof cell_fields[0])

/* Both numeric types of a cell are 8 bytes, so one gather buffer serves them. */
_Static_assert(sizeof(double) == sizeof(uint64_t), "double and uint64_t differ in size");

struct om_h5m_writer {
    char *path;            /* final path of the matrix file */
    char *tmp_path;        /* temporary file written until a successful close */
    int lock;              /* a descriptor of it holding its lock (om_h5_tmp_claim), or -1 */
    hid_t file;            /* the open temporary file, or H5I_INVALID_HID */
    hid_t driver;          /* the buffered driver it is written through (h5vfd.c, for a
                              close that fails cleanly), registered until it is closed, or
                              H5I_INVALID_HID */
    size_t dims[AXIS_COUNT]; /* S, R, C */
    om_matrix_cell *cells; /* [S][R][C] */
    uint64_t outcome_trials; /* T of /trials/winner, or 0: no winners kept */
    hid_t outcomes;        /* /trials/winner, open while writing, or H5I_INVALID_HID */
    hid_t winner_type;     /* its enumerated type, or H5I_INVALID_HID */
    uint64_t (*outcome_counts)[OM_WINNER_CODES + 1]; /* [S*R*C]: each cell's winners put,
                                                        by code, then in all */
    bool margins;          /* a matrix of army lists (om_matrix_info.battle_margins) */
    hid_t margin_dset;     /* /trials/margin, open while writing, or H5I_INVALID_HID */
    double (*margin_sums)[3]; /* [S*R*C]: each cell's margins put: their sum, the sum of
                                 their squares, their number */
};

/* ----------------------------------------------------------------- helpers */

/* Number of cells of a matrix with these axes. */
static size_t cell_count(const size_t dims[AXIS_COUNT])
{
    return dims[AXIS_SITUATION] * dims[AXIS_ROW] * dims[AXIS_COL];
}

/* The uint64_t or double member `f` of cell `c`, as 8 raw bytes copied to `dst`. */
static void cell_get(const cell_field *f, const om_matrix_cell *c, void *dst)
{
    memcpy(dst, (const char *)c + f->offset, sizeof(uint64_t));
}

static void cell_set(const cell_field *f, om_matrix_cell *c, const void *src)
{
    memcpy((char *)c + f->offset, src, sizeof(uint64_t));
}

/*
 * Check one cell: the outcomes fit in the trials (written as subtractions so no
 * sum can overflow) and the points sums are finite and not negative. On failure
 * `why` holds the reason and false is returned.
 */
static bool cell_valid(const om_matrix_cell *c, char *why, size_t size)
{
    if (c->wins_row > c->trials || c->draws > c->trials - c->wins_row
        || c->wins_col > c->trials - c->wins_row - c->draws) {
        snprintf(why, size, "wins_row %llu + draws %llu + wins_col %llu exceed trials %llu",
                 (unsigned long long)c->wins_row, (unsigned long long)c->draws,
                 (unsigned long long)c->wins_col, (unsigned long long)c->trials);
        return false;
    }
    if (!isfinite(c->points_lost_row_sum) || c->points_lost_row_sum < 0.0
        || !isfinite(c->points_lost_col_sum) || c->points_lost_col_sum < 0.0
        || !isfinite(c->margin_sq_sum) || c->margin_sq_sum < 0.0) {
        snprintf(why, size, "points lost sums %g, %g (margin squares %g) are not finite and "
                 "non-negative", c->points_lost_row_sum, c->points_lost_col_sum,
                 c->margin_sq_sum);
        return false;
    }
    if ((c->inapplicable & ~(OM_MATRIX_ROW_CANNOT | OM_MATRIX_COL_CANNOT)) != 0) {
        snprintf(why, size, "inapplicable is %u; only the bits 1 (row) and 2 (column) exist",
                 (unsigned)c->inapplicable);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------ writer */

static void writer_free(om_h5m_writer *w)
{
    free(w->margin_sums);
    free(w->outcome_counts);
    free(w->cells);
    free(w->tmp_path);
    free(w->path);
    free(w);
}

/* Check the axes and provenance of `info` before anything is created. */
static om_status info_check(const char *path, const om_matrix_info *info)
{
    if (info->n_situations == 0 || info->n_rows == 0 || info->n_cols == 0)
        return OM_ERROR(OM_EINVAL, "%s: a matrix needs at least one situation, row and column "
                        "(got %zu, %zu, %zu)", path, info->n_situations, info->n_rows,
                        info->n_cols);
    if (info->situations == NULL || info->rows == NULL || info->cols == NULL)
        return OM_ERROR(OM_EINVAL, "%s: missing situations, rows or columns", path);
    if (!isfinite(info->target_halfwidth) || info->target_halfwidth < 0.0)
        return OM_ERROR(OM_EINVAL, "%s: target_halfwidth must be finite and not negative "
                        "(got %g)", path, info->target_halfwidth);
    for (size_t s = 0; s < info->n_situations; s++)
        if (info->situations[s].name == NULL || info->situations[s].name[0] == '\0')
            return OM_ERROR(OM_EINVAL, "%s: situation %zu has no name", path, s);
    for (size_t r = 0; r < info->n_rows; r++)
        if (info->rows[r].name == NULL || info->rows[r].name[0] == '\0')
            return OM_ERROR(OM_EINVAL, "%s: row unit %zu has no name", path, r);
    for (size_t c = 0; c < info->n_cols; c++)
        if (info->cols[c].name == NULL || info->cols[c].name[0] == '\0')
            return OM_ERROR(OM_EINVAL, "%s: column unit %zu has no name", path, c);
    return OM_OK;
}

/* The root attributes (h5matrix.h layout). */
static om_status writer_root_attrs(om_h5m_writer *w, const om_matrix_info *info)
{
    const om_h5_text texts[] = {
        {"schema", OM_H5M_SCHEMA},
        {"program_version", info->program_version},
        {"command_line", info->command_line},
        {"ruleset", info->ruleset},
        {"data_version", info->data_version},
        {"row_list", info->row_list},
        {"col_list", info->col_list},
        {"units_left_out", info->units_left_out ? info->units_left_out : ""},
        {"rng", info->rng_scheme},
        {"game", info->game},
        {"kind", info->kind},
        {"options", info->options},
    };
    om_status st = om_h5_attr_write_texts(w->file, w->path, texts,
                                          sizeof texts / sizeof texts[0]);
    if (st != OM_OK)
        return st;
    if ((st = om_h5_attr_write(w->file, w->path, "seed", H5T_STD_U64LE, H5T_NATIVE_UINT64,
                               &info->seed)) != OM_OK
        || (st = om_h5_attr_write(w->file, w->path, "trials_per_cell", H5T_STD_U64LE,
                                  H5T_NATIVE_UINT64, &info->trials_per_cell)) != OM_OK
        || (st = om_h5_attr_write(w->file, w->path, "target_halfwidth", H5T_IEEE_F64LE,
                                  H5T_NATIVE_DOUBLE, &info->target_halfwidth)) != OM_OK)
        return st;
    return OM_OK;
}

/*
 * Create the 1-D dataset `group`/`name` of `n` elements of file type `ftype`,
 * write `data` (memory type `mtype`) and give it a description. The dataset is
 * left open in *dset when dset is not NULL (for making it a dimension scale).
 */
static om_status write_1d(om_h5m_writer *w, hid_t group, const char *gname, const char *name,
                          hid_t ftype, hid_t mtype, size_t n, const void *data,
                          const char *description, hid_t *dset)
{
    char why[OM_H5_DETAIL_MAX], shown[OM_H5_NAME_MAX];
    om_status st = OM_OK;
    hsize_t dims = n;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    hid_t d = H5I_INVALID_HID;
    snprintf(shown, sizeof shown, "/%s/%s", gname, name);
    if (space < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot create dataset %s", w->path, shown);
    else if ((st = om_h5_dataset_create(group, name, ftype, space, NULL, 0, w->path, shown,
                                        &d)) == OM_OK &&
             H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot write %s: %s", w->path, shown,
                      om_h5_detail(why, sizeof why));
    om_h5_close_id(&space);
    if (st == OM_OK)
        st = om_h5_attr_write_string(d, w->path, "description", description);
    if (st == OM_OK && dset != NULL)
        *dset = d;
    else
        om_h5_close_id(&d);
    return st;
}

/*
 * Write the 1-D dataset `group`/`name` of the `n` strings texts[] as
 * write_1d does: as fixed-length UTF-8 strings, NUL-terminated, as long as
 * the longest and its NUL. Fixed, not variable-length: HDF5 stores the
 * characters of variable-length strings outside the dataset, where no filter
 * applies (nor may one be set on such a dataset), so only fixed-length
 * strings carry the checksum of every dataset.
 */
static om_status write_texts(om_h5m_writer *w, hid_t group, const char *gname,
                             const char *name, size_t n, const char *const *texts,
                             const char *description, hid_t *dset)
{
    char why[OM_H5_DETAIL_MAX];
    size_t width = 1;
    char *buf;
    hid_t type = H5I_INVALID_HID;
    om_status st;
    for (size_t i = 0; i < n; i++)
        width = strlen(texts[i]) + 1 > width ? strlen(texts[i]) + 1 : width;
    if ((buf = calloc(n ? n : 1, width)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", w->path);
    for (size_t i = 0; i < n; i++)
        memcpy(buf + i * width, texts[i], strlen(texts[i]));
    if ((type = H5Tcopy(H5T_C_S1)) < 0 || H5Tset_size(type, width) < 0 ||
        H5Tset_cset(type, H5T_CSET_UTF8) < 0 || H5Tset_strpad(type, H5T_STR_NULLTERM) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot make the string type of /%s/%s: %s", w->path,
                      gname, name, om_h5_detail(why, sizeof why));
    else
        st = write_1d(w, group, gname, name, type, type, n, buf, description, dset);
    om_h5_close_id(&type);
    free(buf);
    return st;
}

/*
 * Write the axis group /rows or /cols: name, id (strings) and points (u32) of
 * `n` units. /GROUP/name becomes the dimension scale of axis `axis`.
 */
static om_status write_unit_axis(om_h5m_writer *w, int axis, const om_matrix_unit *units,
                                 size_t n, const char *what)
{
    char why[OM_H5_DETAIL_MAX], desc[6][200];
    const char *gname = axis_group[axis];
    const char **names = malloc(n * sizeof *names);
    const char **ids = malloc(n * sizeof *ids);
    const char **armies = malloc(n * sizeof *armies);
    const char **troops = malloc(n * sizeof *troops);
    uint32_t *points = malloc(n * sizeof *points);
    uint8_t *shoots = malloc(n * sizeof *shoots);
    hid_t group = H5I_INVALID_HID, scale = H5I_INVALID_HID;
    om_status st = OM_OK;

    if (names == NULL || ids == NULL || points == NULL || armies == NULL || troops == NULL
        || shoots == NULL) {
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", w->path);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        names[i] = units[i].name;
        ids[i] = units[i].id != NULL ? units[i].id : "";
        points[i] = units[i].points;
        armies[i] = units[i].army != NULL ? units[i].army : "";
        troops[i] = units[i].troop != NULL ? units[i].troop : "";
        shoots[i] = units[i].can_shoot;
    }
    snprintf(desc[0], sizeof desc[0], "Display name of each %s unit.", what);
    snprintf(desc[1], sizeof desc[1], "Identifier of each %s unit in the army data.", what);
    snprintf(desc[2], sizeof desc[2], "Printed points cost of each %s unit (0: unknown).",
             what);
    snprintf(desc[3], sizeof desc[3], "Army of each %s unit, its display name (empty: unknown).",
             what);
    snprintf(desc[4], sizeof desc[4], "Troop type of each %s unit, e.g. infantry, cavalry, "
             "artillery (empty: unknown).", what);
    snprintf(desc[5], sizeof desc[5], "Whether each %s unit can shoot: 0 unknown, 1 no, 2 yes.",
             what);
    if ((group = H5Gcreate2(w->file, gname, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0) {
        st = OM_ERROR(OM_EHDF5, "%s: cannot create /%s: %s", w->path, gname,
                      om_h5_detail(why, sizeof why));
        goto done;
    }
    if ((st = write_texts(w, group, gname, "name", n, names, desc[0], &scale)) != OM_OK
        || (st = write_texts(w, group, gname, "id", n, ids, desc[1], NULL)) != OM_OK
        || (st = write_1d(w, group, gname, "points", H5T_STD_U32LE, H5T_NATIVE_UINT32, n,
                          points, desc[2], NULL)) != OM_OK
        || (st = write_texts(w, group, gname, "army", n, armies, desc[3], NULL)) != OM_OK
        || (st = write_texts(w, group, gname, "troop", n, troops, desc[4], NULL)) != OM_OK
        || (st = write_1d(w, group, gname, "can_shoot", H5T_STD_U8LE, H5T_NATIVE_UINT8, n,
                          shoots, desc[5], NULL)) != OM_OK)
        goto done;
    if (H5DSset_scale(scale, axis_label[axis]) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot make /%s/name a dimension scale: %s", w->path,
                      gname, om_h5_detail(why, sizeof why));
done:
    om_h5_close_id(&scale);
    om_h5_close_id(&group);
    free(shoots);
    free(troops);
    free(armies);
    free(points);
    free(ids);
    free(names);
    return st;
}

/* Write /situations/name (the scale of axis 0) and /situations/yaml. */
static om_status write_situation_axis(om_h5m_writer *w, const om_matrix_info *info)
{
    char why[OM_H5_DETAIL_MAX];
    size_t n = info->n_situations;
    const char **names = malloc(n * sizeof *names);
    const char **texts = malloc(n * sizeof *texts);
    const char **titles = malloc(n * sizeof *titles);
    hid_t group = H5I_INVALID_HID, scale = H5I_INVALID_HID;
    om_status st = OM_OK;

    if (names == NULL || texts == NULL || titles == NULL) {
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", w->path);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        names[i] = info->situations[i].name;
        texts[i] = info->situations[i].yaml != NULL ? info->situations[i].yaml : "";
        titles[i] = info->situations[i].title != NULL ? info->situations[i].title : "";
    }
    if ((group = H5Gcreate2(w->file, "situations", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0) {
        st = OM_ERROR(OM_EHDF5, "%s: cannot create /situations: %s", w->path,
                      om_h5_detail(why, sizeof why));
        goto done;
    }
    if ((st = write_texts(w, group, "situations", "name", n, names,
                          "Short name of each situation.", &scale)) != OM_OK
        || (st = write_texts(w, group, "situations", "yaml", n, texts,
                             "The text of each situation, verbatim.", NULL)) != OM_OK
        || (st = write_texts(w, group, "situations", "title", n, titles,
                             "Title of each situation for people (empty: use the name).",
                             NULL)) != OM_OK)
        goto done;
    if (H5DSset_scale(scale, axis_label[AXIS_SITUATION]) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot make /situations/name a dimension scale: %s",
                      w->path, om_h5_detail(why, sizeof why));
done:
    om_h5_close_id(&scale);
    om_h5_close_id(&group);
    free(titles);
    free(texts);
    free(names);
    return st;
}

/* ---------------------------------------------------- each trial's winner */

/*
 * Create /trials/winner, [S][R][C][T] of the winner type, one cell's trials
 * (at most OM_H5M_OUTCOME_CHUNK) a chunk, through om_h5_dataset_create like
 * every dataset of the file (so with its checksum); its fill value is the
 * type's first code, a, but every position below a cell's /cells/trials is
 * written and the rest is no trial. The axis scales are attached, and the
 * counts its puts are checked by made. The one place the file's per-trial
 * dataset is made.
 */
static om_status create_outcomes(om_h5m_writer *w)
{
    static const char name[] = "/trials/winner";
    char why[OM_H5_DETAIL_MAX];
    const hsize_t dims[AXIS_COUNT + 1] = {w->dims[0], w->dims[1], w->dims[2], w->outcome_trials};
    const hsize_t chunk[AXIS_COUNT + 1] = {
        1, 1, 1, w->outcome_trials < OM_H5M_OUTCOME_CHUNK ? w->outcome_trials
                                                          : OM_H5M_OUTCOME_CHUNK};
    hid_t group = H5I_INVALID_HID, space = H5I_INVALID_HID;
    om_status st = OM_OK;

    if ((w->outcome_counts = calloc(cell_count(w->dims), sizeof *w->outcome_counts)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", w->path);
    if ((w->winner_type = om_h5_winner_type()) < 0
        || (group = H5Gcreate2(w->file, "trials", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0
        || (space = H5Screate_simple(AXIS_COUNT + 1, dims, NULL)) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot create %s: %s", w->path, name,
                      om_h5_detail(why, sizeof why));
    else
        st = om_h5_dataset_create(group, "winner", w->winner_type, space, chunk, 0, w->path,
                                  name, &w->outcomes);
    if (st == OM_OK)
        st = om_h5_attr_write_string(w->outcomes, w->path, "description",
                                     "Each trial's winner: a, the row unit; b, the column unit; "
                                     "draw; none (no contact, unresolved). Trial t of cell "
                                     "(s, r, c) at [s][r][c][t], for t below /cells/trials; the "
                                     "rest is no trial.");
    for (int axis = 0; axis < AXIS_COUNT && st == OM_OK; axis++) {
        char scale_path[32];
        hid_t scale;
        snprintf(scale_path, sizeof scale_path, "%s/name", axis_group[axis]);
        scale = H5Dopen2(w->file, scale_path, H5P_DEFAULT);
        if (scale < 0 || H5DSattach_scale(w->outcomes, scale, (unsigned)axis) < 0
            || H5DSset_label(w->outcomes, (unsigned)axis, axis_label[axis]) < 0)
            st = OM_ERROR(OM_EHDF5, "%s: cannot label axis %d of %s: %s", w->path, axis, name,
                          om_h5_detail(why, sizeof why));
        om_h5_close_id(&scale);
    }
    if (st == OM_OK && H5DSset_label(w->outcomes, AXIS_COUNT, "trial") < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot label the trials of %s: %s", w->path, name,
                      om_h5_detail(why, sizeof why));
    /* A matrix of army lists keeps each battle's margin beside its winner,
     * chunked alike. */
    if (st == OM_OK && w->margins) {
        if ((w->margin_sums = calloc(cell_count(w->dims), sizeof *w->margin_sums)) == NULL)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", w->path);
        else
            st = om_h5_dataset_create(group, "margin", H5T_STD_I32LE, space, chunk, 0, w->path,
                                      "/trials/margin", &w->margin_dset);
        if (st == OM_OK)
            st = om_h5_attr_write_string(w->margin_dset, w->path, "description",
                                         "Each battle's victory-point margin: the row list's "
                                         "points scored less the column list's. Battle t of "
                                         "cell (s, r, c) at [s][r][c][t], for t below "
                                         "/cells/trials; the legs (situations) of one pairing "
                                         "draw battle t from the same dice.");
    }
    om_h5_close_id(&space);
    om_h5_close_id(&group);
    return st;
}

om_status om_h5m_writer_put_margins(om_h5m_writer *w, size_t s, size_t r, size_t c,
                                    const int32_t *margins, uint64_t n)
{
    char why[OM_H5_DETAIL_MAX];
    hsize_t start[AXIS_COUNT + 1] = {s, r, c, 0}, count[AXIS_COUNT + 1] = {1, 1, 1, n};
    hsize_t mem = n;
    hid_t fspace = H5I_INVALID_HID, mspace = H5I_INVALID_HID;
    double sum = 0, sq = 0;
    om_status st = OM_OK;

    if (w == NULL || (margins == NULL && n > 0))
        return OM_ERROR(OM_EINVAL, "om_h5m_writer_put_margins: missing writer or margins");
    if (w->margin_dset < 0)
        return OM_ERROR(OM_EINVAL, "%s: this matrix file keeps no battle's margin", w->path);
    if (s >= w->dims[AXIS_SITUATION] || r >= w->dims[AXIS_ROW] || c >= w->dims[AXIS_COL]
        || n > w->outcome_trials)
        return OM_ERROR(OM_EINVAL, "%s: the margins of %llu battles of cell (%zu, %zu, %zu) "
                        "lie outside /trials/margin", w->path, (unsigned long long)n, s, r, c);
    for (uint64_t t = 0; t < n; t++) {
        sum += margins[t];
        sq += (double)margins[t] * margins[t];
    }
    om_h5_quiet();
    if (n > 0
        && ((fspace = H5Dget_space(w->margin_dset)) < 0
            || H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL) < 0
            || (mspace = H5Screate_simple(1, &mem, NULL)) < 0
            || H5Dwrite(w->margin_dset, H5T_NATIVE_INT32, mspace, fspace, H5P_DEFAULT,
                        margins) < 0))
        st = OM_ERROR(OM_EHDF5, "%s: cannot write the margins of cell (%zu, %zu, %zu): %s",
                      w->path, s, r, c, om_h5_detail(why, sizeof why));
    om_h5_close_id(&mspace);
    om_h5_close_id(&fspace);
    if (st == OM_OK) {
        double *m = w->margin_sums[(s * w->dims[AXIS_ROW] + r) * w->dims[AXIS_COL] + c];
        m[0] = sum;
        m[1] = sq;
        m[2] = (double)n;
    }
    return st;
}

om_status om_h5m_writer_put_outcomes(om_h5m_writer *w, size_t s, size_t r, size_t c,
                                     const uint8_t *codes, uint64_t n)
{
    char why[OM_H5_DETAIL_MAX];
    uint64_t counts[OM_WINNER_CODES + 1] = {0};
    hsize_t start[AXIS_COUNT + 1] = {s, r, c, 0}, count[AXIS_COUNT + 1] = {1, 1, 1, n};
    hsize_t mem = n;
    hid_t fspace = H5I_INVALID_HID, mspace = H5I_INVALID_HID;
    om_status st = OM_OK;

    if (w == NULL || (codes == NULL && n > 0))
        return OM_ERROR(OM_EINVAL, "om_h5m_writer_put_outcomes: missing writer or codes");
    if (w->outcomes < 0)
        return OM_ERROR(OM_EINVAL, "%s: this matrix file keeps no trial's winner", w->path);
    if (s >= w->dims[AXIS_SITUATION] || r >= w->dims[AXIS_ROW] || c >= w->dims[AXIS_COL]
        || n > w->outcome_trials)
        return OM_ERROR(OM_EINVAL, "%s: the winners of %llu trials of cell (%zu, %zu, %zu) lie "
                        "outside the %zu x %zu x %zu x %llu of /trials/winner", w->path,
                        (unsigned long long)n, s, r, c, w->dims[0], w->dims[1], w->dims[2],
                        (unsigned long long)w->outcome_trials);
    for (uint64_t t = 0; t < n; t++) {
        if (codes[t] >= OM_WINNER_CODES)
            return OM_ERROR(OM_EINVAL, "%s: cell (%zu, %zu, %zu), trial %llu: winner code %u "
                            "is none of a, b, draw, none", w->path, s, r, c,
                            (unsigned long long)t, (unsigned)codes[t]);
        counts[codes[t]]++;
    }
    counts[OM_WINNER_CODES] = n;
    om_h5_quiet();
    if (n > 0
        && ((fspace = H5Dget_space(w->outcomes)) < 0
            || H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL) < 0
            || (mspace = H5Screate_simple(1, &mem, NULL)) < 0
            || H5Dwrite(w->outcomes, w->winner_type, mspace, fspace, H5P_DEFAULT, codes) < 0))
        st = OM_ERROR(OM_EHDF5, "%s: cannot write the winners of cell (%zu, %zu, %zu): %s",
                      w->path, s, r, c, om_h5_detail(why, sizeof why));
    om_h5_close_id(&mspace);
    om_h5_close_id(&fspace);
    if (st == OM_OK)
        memcpy(w->outcome_counts[(s * w->dims[AXIS_ROW] + r) * w->dims[AXIS_COL] + c], counts,
               sizeof counts);
    return st;
}

/* Every cell's winners were put and count what the cell does: wins of the
 * row unit, of the column unit, draws, and the rest. */
static om_status check_outcomes(const om_h5m_writer *w)
{
    for (size_t k = 0; w->outcomes >= 0 && k < cell_count(w->dims); k++) {
        const om_matrix_cell *cell = &w->cells[k];
        const uint64_t *n = w->outcome_counts[k];
        const size_t c = k % w->dims[2], r = k / w->dims[2] % w->dims[1],
                     s = k / w->dims[2] / w->dims[1];
        if (n[OM_WINNER_CODES] != cell->trials || n[OM_WINNER_A] != cell->wins_row
            || n[OM_WINNER_B] != cell->wins_col || n[OM_WINNER_DRAW] != cell->draws)
            return OM_ERROR(OM_EINVAL, "%s: the winners put for cell (%zu, %zu, %zu) (%llu "
                            "trials: %llu, %llu, %llu won by the row, drawn, won by the column) "
                            "are not its counts (%llu trials: %llu, %llu, %llu)", w->path, s, r,
                            c, (unsigned long long)n[OM_WINNER_CODES],
                            (unsigned long long)n[OM_WINNER_A],
                            (unsigned long long)n[OM_WINNER_DRAW],
                            (unsigned long long)n[OM_WINNER_B],
                            (unsigned long long)cell->trials,
                            (unsigned long long)cell->wins_row, (unsigned long long)cell->draws,
                            (unsigned long long)cell->wins_col);
    }
    /* The margins put, where kept, add up to the cell's sums (integers well
     * below 2^53: exact in doubles). */
    for (size_t k = 0; w->margin_dset >= 0 && k < cell_count(w->dims); k++) {
        const om_matrix_cell *cell = &w->cells[k];
        const double *m = w->margin_sums[k];
        if (m[2] != (double)cell->trials ||
            m[0] != cell->points_lost_col_sum - cell->points_lost_row_sum ||
            m[1] != cell->margin_sq_sum)
            return OM_ERROR(OM_EINVAL, "%s: the margins put for cell %zu (%g battles, sum %g, "
                            "squares %g) are not its sums (%llu battles, sum %g, squares %g)",
                            w->path, k, m[2], m[0], m[1], (unsigned long long)cell->trials,
                            cell->points_lost_col_sum - cell->points_lost_row_sum,
                            cell->margin_sq_sum);
    }
    return OM_OK;
}

om_status om_h5m_writer_create(om_h5m_writer **out, const char *path,
                               const om_matrix_info *info)
{
    om_h5m_writer *w;
    om_status st;

    if (out == NULL || path == NULL || path[0] == '\0' || info == NULL)
        return OM_ERROR(OM_EINVAL, "om_h5m_writer_create: missing output, path or info");
    *out = NULL;
    if ((st = info_check(path, info)) != OM_OK)
        return st;
    om_h5_quiet();

    w = calloc(1, sizeof *w);
    if (w == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
    w->file = w->driver = w->outcomes = w->winner_type = w->margin_dset = H5I_INVALID_HID;
    w->outcome_trials = info->outcome_trials;
    w->margins = info->battle_margins;
    w->lock = -1;
    w->dims[AXIS_SITUATION] = info->n_situations;
    w->dims[AXIS_ROW] = info->n_rows;
    w->dims[AXIS_COL] = info->n_cols;
    /* Catch size_t overflow of S * R * C before allocating. */
    if (info->n_rows > SIZE_MAX / info->n_cols
        || info->n_situations > SIZE_MAX / sizeof(om_matrix_cell) / (info->n_rows * info->n_cols)) {
        writer_free(w);
        return OM_ERROR(OM_EINVAL, "%s: %zu x %zu x %zu cells is too many", path,
                        info->n_situations, info->n_rows, info->n_cols);
    }
    w->path = strdup(path);
    w->cells = calloc(cell_count(w->dims), sizeof *w->cells);
    if (w->path == NULL || w->cells == NULL) {
        writer_free(w);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
    }
    if ((st = om_h5_tmp_create(path, &w->tmp_path, &w->lock, &w->file, &w->driver)) != OM_OK) {
        writer_free(w);
        return st;
    }
    if ((st = writer_root_attrs(w, info)) != OM_OK
        || (st = write_situation_axis(w, info)) != OM_OK
        || (st = write_unit_axis(w, AXIS_ROW, info->rows, info->n_rows, "row")) != OM_OK
        || (st = write_unit_axis(w, AXIS_COL, info->cols, info->n_cols, "column")) != OM_OK
        || (w->outcome_trials > 0 && (st = create_outcomes(w)) != OM_OK)) {
        om_h5m_writer_abort(w);
        return st;
    }
    *out = w;
    return OM_OK;
}

om_status om_h5m_writer_put_cell(om_h5m_writer *w, size_t s, size_t r, size_t c,
                                 const om_matrix_cell *cell)
{
    char why[256];
    if (w == NULL || cell == NULL)
        return OM_ERROR(OM_EINVAL, "om_h5m_writer_put_cell: missing writer or cell");
    if (s >= w->dims[AXIS_SITUATION] || r >= w->dims[AXIS_ROW] || c >= w->dims[AXIS_COL])
        return OM_ERROR(OM_EINVAL, "%s: cell (%zu, %zu, %zu) lies outside the %zu x %zu x %zu "
                        "matrix", w->path, s, r, c, w->dims[AXIS_SITUATION], w->dims[AXIS_ROW],
                        w->dims[AXIS_COL]);
    if (!cell_valid(cell, why, sizeof why))
        return OM_ERROR(OM_EINVAL, "%s: cell (%zu, %zu, %zu): %s", w->path, s, r, c, why);
    w->cells[(s * w->dims[AXIS_ROW] + r) * w->dims[AXIS_COL] + c] = *cell;
    return OM_OK;
}

/* Attach the three axis scales to the cell dataset `d` and label its axes. */
static om_status attach_scales(om_h5m_writer *w, hid_t d, const char *name)
{
    char why[OM_H5_DETAIL_MAX], scale_path[32];
    om_status st = OM_OK;
    for (int axis = 0; axis < AXIS_COUNT && st == OM_OK; axis++) {
        hid_t scale;
        snprintf(scale_path, sizeof scale_path, "%s/name", axis_group[axis]);
        scale = H5Dopen2(w->file, scale_path, H5P_DEFAULT);
        if (scale < 0 || H5DSattach_scale(d, scale, (unsigned)axis) < 0
            || H5DSset_label(d, (unsigned)axis, axis_label[axis]) < 0)
            st = OM_ERROR(OM_EHDF5, "%s: cannot label axis %d of /cells/%s: %s", w->path, axis,
                          name, om_h5_detail(why, sizeof why));
        om_h5_close_id(&scale);
    }
    return st;
}

/*
 * Write /cells/inapplicable ([S][R][C] u8, scales attached) when some cell is
 * flagged; a file without it has every situation apply to every pair.
 */
static om_status write_inapplicable(om_h5m_writer *w, hid_t group, hid_t space,
                                    const hsize_t *chunk)
{
    static const char name[] = "inapplicable";
    char why[OM_H5_DETAIL_MAX];
    size_t n = cell_count(w->dims), flagged = 0;
    uint8_t *flags;
    hid_t d = H5I_INVALID_HID;
    om_status st = OM_OK;

    for (size_t k = 0; k < n; k++)
        flagged += w->cells[k].inapplicable != 0;
    if (flagged == 0)
        return OM_OK;
    if ((flags = malloc(n)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", w->path);
    for (size_t k = 0; k < n; k++)
        flags[k] = w->cells[k].inapplicable;
    if ((st = om_h5_dataset_create(group, name, H5T_STD_U8LE, space, chunk, 0, w->path,
                                   "/cells/inapplicable", &d)) == OM_OK &&
        H5Dwrite(d, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, flags) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot write /cells/%s: %s", w->path, name,
                      om_h5_detail(why, sizeof why));
    if (st == OM_OK)
        st = om_h5_attr_write_string(d, w->path, "description",
                                     "1: the row unit cannot do what the situation asks of "
                                     "it, 2: the column unit cannot, 3: neither (0: the "
                                     "situation applies); flagged cells are left out of "
                                     "the ratings.");
    if (st == OM_OK)
        st = attach_scales(w, d, name);
    om_h5_close_id(&d);
    free(flags);
    return st;
}

/* Write /cells: one [S][R][C] dataset per cell_fields entry, with scales
 * attached, in chunks of one situation (OM_H5M_CHUNK), each with its
 * checksum. */
static om_status write_cells(om_h5m_writer *w)
{
    char why[OM_H5_DETAIL_MAX], shown[OM_H5_NAME_MAX];
    size_t n = cell_count(w->dims);
    hsize_t dims[AXIS_COUNT] = {w->dims[0], w->dims[1], w->dims[2]};
    const hsize_t chunk[AXIS_COUNT] = {1, w->dims[1], w->dims[2]};
    uint64_t *buf = malloc(n * sizeof *buf);
    hid_t group = H5I_INVALID_HID, space = H5I_INVALID_HID;
    om_status st = OM_OK;

    if (buf == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", w->path);
    if ((group = H5Gcreate2(w->file, "cells", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0
        || (space = H5Screate_simple(AXIS_COUNT, dims, NULL)) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot create /cells: %s", w->path,
                      om_h5_detail(why, sizeof why));
    for (size_t i = 0; i < CELL_FIELD_COUNT && st == OM_OK; i++) {
        const cell_field *f = &cell_fields[i];
        hid_t ftype = f->real ? H5T_IEEE_F64LE : H5T_STD_U64LE;
        hid_t mtype = f->real ? H5T_NATIVE_DOUBLE : H5T_NATIVE_UINT64;
        hid_t d = H5I_INVALID_HID;
        if (f->margins && !w->margins)
            continue;
        for (size_t k = 0; k < n; k++)
            cell_get(f, &w->cells[k], &buf[k]);
        snprintf(shown, sizeof shown, "/cells/%s", f->name);
        if ((st = om_h5_dataset_create(group, f->name, ftype, space, chunk, 0, w->path, shown,
                                       &d)) == OM_OK &&
            H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
            st = OM_ERROR(OM_EHDF5, "%s: cannot write /cells/%s: %s", w->path, f->name,
                          om_h5_detail(why, sizeof why));
        if (st == OM_OK)
            st = om_h5_attr_write_string(d, w->path, "description",
                                         f->description);
        if (st == OM_OK)
            st = attach_scales(w, d, f->name);
        om_h5_close_id(&d);
    }
    if (st == OM_OK)
        st = write_inapplicable(w, group, space, chunk);
    om_h5_close_id(&space);
    om_h5_close_id(&group);
    free(buf);
    return st;
}

/* Close the string type and the file; the first failure is raised and
 * returned. A write that failed is an OM_EIO with the system's reason, and
 * the library's close succeeds all the same (om_h5_buffered_closing: HDF5
 * 1.10 crashed at exit on a file whose close failed). */
static om_status writer_close_objects(om_h5m_writer *w)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    int failed = 0;
    om_h5_close_id(&w->outcomes);
    om_h5_close_id(&w->margin_dset);
    om_h5_close_id(&w->winner_type);
    if (w->file >= 0)
        om_h5_buffered_closing(w->file, &failed);
    /* Closing the file flushes it: a full disk shows up here. */
    if (w->file >= 0 && H5Fclose(w->file) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot write the file: %s", w->path,
                      om_h5_detail(why, sizeof why));
    w->file = H5I_INVALID_HID;
    om_h5_close_id(&w->driver);
    if (failed != 0 && st == OM_OK)
        st = OM_ERROR(OM_EIO, "%s: cannot write the file: %s", w->path, strerror(failed));
    return st;
}

om_status om_h5m_writer_close(om_h5m_writer *w)
{
    om_status st, st2;
    if (w == NULL)
        return OM_ERROR(OM_EINVAL, "om_h5m_writer_close: no writer");
    om_h5_quiet();
    st = check_outcomes(w);
    if (st == OM_OK)
        st = write_cells(w);
    /* A failure of the close (a write that failed, with the system's reason)
     * is the last error raised. */
    st2 = writer_close_objects(w);
    st = om_h5_tmp_finish(w->path, &w->tmp_path, &w->lock, st2 != OM_OK ? st2 : st);
    writer_free(w);
    return st;
}

void om_h5m_writer_abort(om_h5m_writer *w)
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

/* ------------------------------------------------------------------ reader */

/* Reading state: the open file and the matrix being filled. */
typedef struct reader {
    const char *path; /* file name for messages */
    hid_t file;       /* the open file */
    om_matrix *m;     /* the matrix being built */
    size_t cap;       /* capacity of m->strings */
} reader;

/* Hand the string `s` (malloc'd, may be NULL on ENOMEM) to the matrix; return it. */
static om_status own_string(reader *rd, char *s, const char **dst)
{
    om_matrix *m = rd->m;
    if (s == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", rd->path);
    if (m->n_strings == rd->cap) {
        size_t cap = rd->cap > 0 ? 2 * rd->cap : 32;
        char **p = realloc(m->strings, cap * sizeof *p);
        if (p == NULL) {
            free(s);
            return OM_ERROR(OM_ENOMEM, "%s: out of memory", rd->path);
        }
        m->strings = p;
        rd->cap = cap;
    }
    m->strings[m->n_strings++] = s;
    *dst = s;
    return OM_OK;
}

/* An optional root string attribute: "" when absent (a file from another tool). */
static om_status read_attr_string(reader *rd, const char *name, const char **dst)
{
    char *s = NULL;
    om_status st = om_h5_attr_read_string(rd->file, rd->path, name, &s);
    if (st == OM_ENOTFOUND) {
        om_error_clear();
        s = strdup("");
    } else if (st != OM_OK) {
        return st;
    }
    return own_string(rd, s, dst);
}

/* A required root number attribute: its absence makes the file invalid. */
static om_status required(reader *rd, om_status st, const char *name)
{
    if (st == OM_ENOTFOUND)
        return OM_ERROR(OM_EHDF5, "%s: no '%s' attribute (not a complete matrix file)",
                        rd->path, name);
    return st;
}

/*
 * The schema: a /1 file (from an older oddsmaster) is refused with what to do
 * about it; anything else not /2 is "not a matrix file".
 */
static om_status check_schema(reader *rd)
{
    char *schema = NULL;
    om_status st = om_h5_attr_read_string(rd->file, rd->path, "schema", &schema);
    if (st == OM_ENOTFOUND)
        return OM_ERROR(OM_EHDF5, "%s: no 'schema' attribute (not an oddsmaster matrix file)",
                        rd->path);
    if (st != OM_OK)
        return st;
    if (strcmp(schema, OM_H5M_SCHEMA_V1) == 0)
        st = OM_ERROR(OM_EHDF5, "%s: the 'schema' attribute is '%s', a matrix file from an "
                      "older oddsmaster whose units lack the army, troop type and shooting "
                      "that ratings need; run 'oddsmaster matrix' again to get '%s'",
                      rd->path, schema, OM_H5M_SCHEMA);
    else if (strcmp(schema, OM_H5M_SCHEMA_V2) == 0)
        st = OM_ERROR(OM_EHDF5, "%s: the 'schema' attribute is '%s', a matrix file from an "
                      "older oddsmaster whose datasets carry no checksums, so damage in it "
                      "could not be told from data; run 'oddsmaster matrix' again to get '%s'",
                      rd->path, schema, OM_H5M_SCHEMA);
    else if (strcmp(schema, OM_H5M_SCHEMA) != 0)
        st = OM_ERROR(OM_EHDF5, "%s: the 'schema' attribute is '%s', expected '%s' (not an "
                      "oddsmaster matrix file)", rd->path, schema, OM_H5M_SCHEMA);
    free(schema);
    return st;
}

static om_status read_root(reader *rd)
{
    om_matrix_info *info = &rd->m->info;
    om_status st;
    if ((st = check_schema(rd)) != OM_OK
        || (st = read_attr_string(rd, "program_version", &info->program_version)) != OM_OK
        || (st = read_attr_string(rd, "command_line", &info->command_line)) != OM_OK
        || (st = read_attr_string(rd, "ruleset", &info->ruleset)) != OM_OK
        || (st = read_attr_string(rd, "data_version", &info->data_version)) != OM_OK
        || (st = read_attr_string(rd, "row_list", &info->row_list)) != OM_OK
        || (st = read_attr_string(rd, "col_list", &info->col_list)) != OM_OK
        || (st = read_attr_string(rd, "units_left_out", &info->units_left_out)) != OM_OK
        || (st = read_attr_string(rd, "rng", &info->rng_scheme)) != OM_OK
        || (st = read_attr_string(rd, "game", &info->game)) != OM_OK
        || (st = read_attr_string(rd, "kind", &info->kind)) != OM_OK
        || (st = read_attr_string(rd, "options", &info->options)) != OM_OK
        || (st = read_attr_string(rd, "created_utc", &rd->m->created_utc)) != OM_OK)
        return st;
    if ((st = required(rd, om_h5_attr_read_u64(rd->file, rd->path, "seed", &info->seed),
                       "seed")) != OM_OK
        || (st = required(rd, om_h5_attr_read_u64(rd->file, rd->path, "trials_per_cell",
                                                  &info->trials_per_cell),
                          "trials_per_cell")) != OM_OK
        || (st = required(rd, om_h5_attr_read_double(rd->file, rd->path, "target_halfwidth",
                                                     &info->target_halfwidth),
                          "target_halfwidth")) != OM_OK)
        return st;
    if (!isfinite(info->target_halfwidth) || info->target_halfwidth < 0.0)
        return OM_ERROR(OM_EHDF5, "%s: target_halfwidth %g is not a half-width", rd->path,
                        info->target_halfwidth);
    return OM_OK;
}

/*
 * Open dataset `name` and check that it has rank `rank` and type class `cls`;
 * its dimensions go to dims[0..rank-1]. On failure nothing stays open.
 */
static om_status open_dataset(reader *rd, const char *name, int rank, H5T_class_t cls,
                              hsize_t *dims, hid_t *dset, hid_t *type)
{
    char why[OM_H5_DETAIL_MAX];
    om_status st = OM_OK;
    hid_t space = H5I_INVALID_HID;
    htri_t exists = H5Lexists(rd->file, name, H5P_DEFAULT);
    static const char *const class_name[] = {[H5T_INTEGER] = "integer",
                                             [H5T_FLOAT] = "floating-point",
                                             [H5T_STRING] = "string",
                                             [H5T_ENUM] = "enumerated"};

    *dset = *type = H5I_INVALID_HID;
    if (exists <= 0)
        return OM_ERROR(OM_EHDF5, "%s: no dataset %s (not a complete matrix file)", rd->path,
                        name);
    if ((*dset = H5Dopen2(rd->file, name, H5P_DEFAULT)) < 0 || (*type = H5Dget_type(*dset)) < 0
        || (space = H5Dget_space(*dset)) < 0)
        st = OM_ERROR(OM_EHDF5, "%s: cannot open %s: %s", rd->path, name,
                      om_h5_detail(why, sizeof why));
    else if (H5Sget_simple_extent_ndims(space) != rank)
        st = OM_ERROR(OM_EHDF5, "%s: %s has %d dimensions, expected %d", rd->path, name,
                      H5Sget_simple_extent_ndims(space), rank);
    else if (H5Tget_class(*type) != cls)
        st = OM_ERROR(OM_EHDF5, "%s: %s is not of a%s %s type", rd->path, name,
                      cls == H5T_INTEGER || cls == H5T_ENUM ? "n" : "", class_name[cls]);
    else if (H5Sget_simple_extent_dims(space, dims, NULL) != rank)
        st = OM_ERROR(OM_EHDF5, "%s: cannot read the shape of %s: %s", rd->path, name,
                      om_h5_detail(why, sizeof why));
    else
        st = om_h5_dataset_checked(*dset, rd->path, name);
    om_h5_close_id(&space);
    if (st != OM_OK) {
        om_h5_close_id(type);
        om_h5_close_id(dset);
    }
    return st;
}

/*
 * Read the whole dataset `d` (`name`) into buf, in memory type mtype: a
 * chunk whose checksum does not match is named by its place, for a cell
 * dataset by its situation (each is a chunk), once the axes are read.
 */
static om_status read_whole(reader *rd, hid_t d, const char *name, hid_t mtype, void *buf)
{
    char why[OM_H5_DETAIL_MAX];
    hsize_t first[AXIS_COUNT], last[AXIS_COUNT];
    const om_matrix_info *info = &rd->m->info;
    if (strncmp(name, "/cells/", 7) != 0 || info->situations == NULL)
        return om_h5_read_whole(d, mtype, buf, rd->path, name, "entries");
    if (H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0)
        return OM_OK;
    om_h5_detail(why, sizeof why);
    if (!om_h5_chunk_damaged(d, first, last) || first[0] >= info->n_situations)
        return OM_ERROR(OM_EHDF5, "%s: cannot read %s: %s", rd->path, name, why);
    return OM_ERROR(OM_EHDF5, "%s: %s, the cells of situation %s [%llu][%llu..%llu][%llu..%llu]: "
                    OM_H5_DAMAGED, rd->path, name, info->situations[first[0]].name,
                    (unsigned long long)first[0], (unsigned long long)first[1],
                    (unsigned long long)last[1], (unsigned long long)first[2],
                    (unsigned long long)last[2]);
}

/*
 * Read the 1-D string dataset `name`, which must have `n` entries, into
 * dst[0..n-1] (strings owned by the matrix).
 */
static om_status read_strings(reader *rd, const char *name, size_t n, const char **dst)
{
    char why[OM_H5_DETAIL_MAX];
    hsize_t len = 0;
    hid_t d, ftype, mtype = H5I_INVALID_HID;
    om_status st = open_dataset(rd, name, 1, H5T_STRING, &len, &d, &ftype);
    char **v = NULL;
    char *fixed = NULL;

    if (st != OM_OK)
        return st;
    if (len != n) {
        st = OM_ERROR(OM_EHDF5, "%s: %s has %llu entries, expected %zu", rd->path, name,
                      (unsigned long long)len, n);
    } else if (H5Tis_variable_str(ftype) > 0) {
        if ((v = calloc(n, sizeof *v)) == NULL)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", rd->path);
        else if ((mtype = H5Tcopy(H5T_C_S1)) < 0 || H5Tset_size(mtype, H5T_VARIABLE) < 0
                 || H5Tset_cset(mtype, H5Tget_cset(ftype)) < 0)
            st = OM_ERROR(OM_EHDF5, "%s: cannot read %s: %s", rd->path, name,
                          om_h5_detail(why, sizeof why));
        else
            st = read_whole(rd, d, name, mtype, v);
        for (size_t i = 0; i < n && st == OM_OK; i++)
            st = own_string(rd, strdup(v[i] != NULL ? v[i] : ""), &dst[i]);
        /* HDF5 allocated the strings: HDF5 frees them. */
        for (size_t i = 0; v != NULL && i < n; i++)
            if (v[i] != NULL)
                H5free_memory(v[i]);
    } else {
        /* Fixed-length strings (another tool's file): read each NUL-terminated. */
        size_t size = H5Tget_size(ftype) + 1;
        if ((fixed = malloc(size * n)) == NULL)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", rd->path);
        else if ((mtype = H5Tcopy(ftype)) < 0 || H5Tset_size(mtype, size) < 0
                 || H5Tset_strpad(mtype, H5T_STR_NULLTERM) < 0)
            st = OM_ERROR(OM_EHDF5, "%s: cannot read %s: %s", rd->path, name,
                          om_h5_detail(why, sizeof why));
        else
            st = read_whole(rd, d, name, mtype, fixed);
        for (size_t i = 0; i < n && st == OM_OK; i++) {
            fixed[i * size + size - 1] = '\0';
            st = own_string(rd, strdup(&fixed[i * size]), &dst[i]);
        }
    }
    free(fixed);
    free(v);
    om_h5_close_id(&mtype);
    om_h5_close_id(&ftype);
    om_h5_close_id(&d);
    return st;
}

/* The length of the 1-D string dataset `name`, at least 1. */
static om_status axis_length(reader *rd, const char *name, size_t *n)
{
    hsize_t len = 0;
    hid_t d, type;
    om_status st = open_dataset(rd, name, 1, H5T_STRING, &len, &d, &type);
    if (st != OM_OK)
        return st;
    om_h5_close_id(&type);
    om_h5_close_id(&d);
    if (len == 0)
        return OM_ERROR(OM_EHDF5, "%s: %s is empty", rd->path, name);
    *n = (size_t)len;
    return OM_OK;
}

/* Read the 1-D integer dataset `name` of `n` entries into p[], converted by
 * HDF5 to the memory type `mem` (H5T_NATIVE_UINT32, H5T_NATIVE_UINT8). */
static om_status read_ints(reader *rd, const char *name, size_t n, hid_t mem, void *p)
{
    hsize_t len = 0;
    hid_t d, type;
    om_status st = open_dataset(rd, name, 1, H5T_INTEGER, &len, &d, &type);
    if (st != OM_OK)
        return st;
    if (len != n)
        st = OM_ERROR(OM_EHDF5, "%s: %s has %llu entries, expected %zu", rd->path, name,
                      (unsigned long long)len, n);
    else
        st = read_whole(rd, d, name, mem, p);
    om_h5_close_id(&type);
    om_h5_close_id(&d);
    return st;
}

/* Read the 1-D integer dataset `name` of `n` entries into p[] as uint32. */
static om_status read_u32(reader *rd, const char *name, size_t n, uint32_t *p)
{
    return read_ints(rd, name, n, H5T_NATIVE_UINT32, p);
}

/* Whether the optional dataset `name` is in the file. */
static bool has_dataset(reader *rd, const char *name)
{
    return H5Lexists(rd->file, name, H5P_DEFAULT) > 0;
}

/* Read the 1-D integer dataset `name` of `n` entries into p[] as uint8. */
static om_status read_u8(reader *rd, const char *name, size_t n, uint8_t *p)
{
    return read_ints(rd, name, n, H5T_NATIVE_UINT8, p);
}

/*
 * The optional string dataset `name` into dst[0..n-1], or "" for each entry
 * when the file lacks it.
 */
static om_status read_optional_strings(reader *rd, const char *name, size_t n,
                                       const char **dst)
{
    if (has_dataset(rd, name))
        return read_strings(rd, name, n, dst);
    for (size_t i = 0; i < n; i++)
        dst[i] = "";
    return OM_OK;
}

/* The optional units' army, troop and can_shoot of /GROUP (defaults when absent). */
static om_status read_unit_extras(reader *rd, const char *group, om_matrix_unit *units,
                                  size_t n, const char **tmp, uint8_t *flags)
{
    char name[32];
    om_status st;
    snprintf(name, sizeof name, "/%s/army", group);
    if ((st = read_optional_strings(rd, name, n, tmp)) != OM_OK)
        return st;
    for (size_t i = 0; i < n; i++)
        units[i].army = tmp[i];
    snprintf(name, sizeof name, "/%s/troop", group);
    if ((st = read_optional_strings(rd, name, n, tmp)) != OM_OK)
        return st;
    for (size_t i = 0; i < n; i++)
        units[i].troop = tmp[i];
    snprintf(name, sizeof name, "/%s/can_shoot", group);
    memset(flags, OM_MATRIX_SHOOTS_UNKNOWN, n);
    if (has_dataset(rd, name) && (st = read_u8(rd, name, n, flags)) != OM_OK)
        return st;
    for (size_t i = 0; i < n; i++) {
        if (flags[i] > OM_MATRIX_SHOOTS_YES)
            return OM_ERROR(OM_EHDF5, "%s: %s[%zu] is %u; 0 (unknown), 1 (no) or 2 (yes) "
                            "expected", rd->path, name, i, (unsigned)flags[i]);
        units[i].can_shoot = flags[i];
    }
    return OM_OK;
}

/* Read /GROUP/name, id and points of `n` units into units[]; `tmp` holds n pointers. */
static om_status read_units(reader *rd, const char *group, om_matrix_unit *units, size_t n,
                            const char **tmp, uint32_t *points)
{
    char name[32];
    om_status st;
    snprintf(name, sizeof name, "/%s/name", group);
    if ((st = read_strings(rd, name, n, tmp)) != OM_OK)
        return st;
    for (size_t i = 0; i < n; i++)
        units[i].name = tmp[i];
    snprintf(name, sizeof name, "/%s/id", group);
    if ((st = read_strings(rd, name, n, tmp)) != OM_OK)
        return st;
    for (size_t i = 0; i < n; i++)
        units[i].id = tmp[i];
    snprintf(name, sizeof name, "/%s/points", group);
    if ((st = read_u32(rd, name, n, points)) != OM_OK)
        return st;
    for (size_t i = 0; i < n; i++)
        units[i].points = points[i];
    return OM_OK;
}

/* Read the axes: situations, rows, columns. */
static om_status read_axes(reader *rd)
{
    om_matrix *m = rd->m;
    om_matrix_info *info = &m->info;
    const char **tmp = NULL;
    uint32_t *points = NULL;
    uint8_t *flags = NULL;
    size_t most;
    om_status st;

    if ((st = axis_length(rd, "/situations/name", &info->n_situations)) != OM_OK
        || (st = axis_length(rd, "/rows/name", &info->n_rows)) != OM_OK
        || (st = axis_length(rd, "/cols/name", &info->n_cols)) != OM_OK)
        return st;
    most = info->n_situations;
    most = info->n_rows > most ? info->n_rows : most;
    most = info->n_cols > most ? info->n_cols : most;
    m->units = calloc(info->n_rows + info->n_cols, sizeof *m->units);
    m->sits = calloc(info->n_situations, sizeof *m->sits);
    tmp = calloc(most, sizeof *tmp);
    points = calloc(most, sizeof *points);
    flags = calloc(most, sizeof *flags);
    if (m->units == NULL || m->sits == NULL || tmp == NULL || points == NULL || flags == NULL) {
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", rd->path);
        goto done;
    }
    info->rows = m->units;
    info->cols = m->units + info->n_rows;
    info->situations = m->sits;
    if ((st = read_strings(rd, "/situations/name", info->n_situations, tmp)) != OM_OK)
        goto done;
    for (size_t i = 0; i < info->n_situations; i++)
        m->sits[i].name = tmp[i];
    if ((st = read_strings(rd, "/situations/yaml", info->n_situations, tmp)) != OM_OK)
        goto done;
    for (size_t i = 0; i < info->n_situations; i++)
        m->sits[i].yaml = tmp[i];
    if ((st = read_optional_strings(rd, "/situations/title", info->n_situations, tmp)) != OM_OK)
        goto done;
    for (size_t i = 0; i < info->n_situations; i++)
        m->sits[i].title = tmp[i];
    if ((st = read_units(rd, "rows", m->units, info->n_rows, tmp, points)) != OM_OK
        || (st = read_unit_extras(rd, "rows", m->units, info->n_rows, tmp, flags)) != OM_OK
        || (st = read_units(rd, "cols", m->units + info->n_rows, info->n_cols, tmp, points))
               != OM_OK)
        goto done;
    st = read_unit_extras(rd, "cols", m->units + info->n_rows, info->n_cols, tmp, flags);
done:
    free(flags);
    free(points);
    free(tmp);
    return st;
}

/* Read the optional /cells/inapplicable ([S][R][C] u8) into the cells. */
static om_status read_inapplicable(reader *rd, const size_t dims[AXIS_COUNT], size_t n)
{
    static const char name[] = "/cells/inapplicable";
    hsize_t got[AXIS_COUNT] = {0, 0, 0};
    uint8_t *flags = malloc(n);
    hid_t d, type;
    om_status st;

    if (flags == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", rd->path);
    if ((st = open_dataset(rd, name, AXIS_COUNT, H5T_INTEGER, got, &d, &type)) != OM_OK) {
        free(flags);
        return st;
    }
    if (got[0] != dims[0] || got[1] != dims[1] || got[2] != dims[2])
        st = OM_ERROR(OM_EHDF5, "%s: %s is %llu x %llu x %llu, expected %zu x %zu x %zu "
                      "(situations x rows x columns)", rd->path, name,
                      (unsigned long long)got[0], (unsigned long long)got[1],
                      (unsigned long long)got[2], dims[0], dims[1], dims[2]);
    else
        st = read_whole(rd, d, name, H5T_NATIVE_UINT8, flags);
    for (size_t k = 0; k < n && st == OM_OK; k++)
        rd->m->cells[k].inapplicable = flags[k];
    om_h5_close_id(&type);
    om_h5_close_id(&d);
    free(flags);
    return st;
}

/* Read every /cells dataset into m->cells, checking its shape, then each cell. */
static om_status read_cells(reader *rd)
{
    om_matrix *m = rd->m;
    size_t dims[AXIS_COUNT] = {m->info.n_situations, m->info.n_rows, m->info.n_cols};
    size_t n;
    uint64_t *buf;
    om_status st = OM_OK;

    if (dims[1] > SIZE_MAX / dims[2]
        || dims[0] > SIZE_MAX / sizeof(om_matrix_cell) / (dims[1] * dims[2]))
        return OM_ERROR(OM_EHDF5, "%s: %zu x %zu x %zu cells is too many", rd->path, dims[0],
                        dims[1], dims[2]);
    n = cell_count(dims);
    m->cells = calloc(n, sizeof *m->cells);
    buf = malloc(n * sizeof *buf);
    if (m->cells == NULL || buf == NULL) {
        free(buf);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", rd->path);
    }
    for (size_t i = 0; i < CELL_FIELD_COUNT && st == OM_OK; i++) {
        const cell_field *f = &cell_fields[i];
        char name[64];
        hsize_t got[AXIS_COUNT] = {0, 0, 0};
        hid_t d, type;
        snprintf(name, sizeof name, "/cells/%s", f->name);
        if (f->margins && !(m->info.battle_margins = has_dataset(rd, name)))
            continue;
        st = open_dataset(rd, name, AXIS_COUNT, f->real ? H5T_FLOAT : H5T_INTEGER, got, &d,
                          &type);
        if (st != OM_OK)
            break;
        if (got[0] != dims[0] || got[1] != dims[1] || got[2] != dims[2])
            st = OM_ERROR(OM_EHDF5, "%s: %s is %llu x %llu x %llu, expected %zu x %zu x %zu "
                          "(situations x rows x columns)", rd->path, name,
                          (unsigned long long)got[0], (unsigned long long)got[1],
                          (unsigned long long)got[2], dims[0], dims[1], dims[2]);
        else
            st = read_whole(rd, d, name, f->real ? H5T_NATIVE_DOUBLE : H5T_NATIVE_UINT64, buf);
        for (size_t k = 0; k < n && st == OM_OK; k++)
            cell_set(f, &m->cells[k], &buf[k]);
        om_h5_close_id(&type);
        om_h5_close_id(&d);
    }
    free(buf);
    if (st == OM_OK && has_dataset(rd, "/cells/inapplicable"))
        st = read_inapplicable(rd, dims, n);
    for (size_t k = 0; k < n && st == OM_OK; k++) {
        char reason[256];
        if (!cell_valid(&m->cells[k], reason, sizeof reason)) {
            size_t c = k % dims[2], r = k / dims[2] % dims[1], s = k / dims[2] / dims[1];
            st = OM_ERROR(OM_EHDF5, "%s: cell (situation %s, row %s, column %s): %s", rd->path,
                          m->info.situations[s].name, m->info.rows[r].name,
                          m->info.cols[c].name, reason);
        }
    }
    return st;
}

/* The shape of the optional /trials/winner into info.outcome_trials (0 when
 * absent): [S][R][C][T], T at least every cell's trials, of integers. */
static om_status read_outcome_shape(reader *rd)
{
    static const char name[] = "/trials/winner";
    const om_matrix *m = rd->m;
    hsize_t got[AXIS_COUNT + 1] = {0, 0, 0, 0};
    hid_t d, type;
    om_status st;
    if (!has_dataset(rd, name))
        return OM_OK;
    if ((st = open_dataset(rd, name, AXIS_COUNT + 1, H5T_ENUM, got, &d, &type)) != OM_OK)
        return st;
    om_h5_close_id(&type);
    om_h5_close_id(&d);
    if (got[0] != m->info.n_situations || got[1] != m->info.n_rows || got[2] != m->info.n_cols)
        return OM_ERROR(OM_EHDF5, "%s: %s is %llu x %llu x %llu x %llu, expected %zu x %zu x "
                        "%zu x trials (situations x rows x columns x trials)", rd->path, name,
                        (unsigned long long)got[0], (unsigned long long)got[1],
                        (unsigned long long)got[2], (unsigned long long)got[3],
                        m->info.n_situations, m->info.n_rows, m->info.n_cols);
    for (size_t k = 0; k < m->info.n_situations * m->info.n_rows * m->info.n_cols; k++)
        if (m->cells[k].trials > got[3])
            return OM_ERROR(OM_EHDF5, "%s: %s holds %llu trials a cell, and a cell has %llu "
                            "(/cells/trials)", rd->path, name, (unsigned long long)got[3],
                            (unsigned long long)m->cells[k].trials);
    rd->m->info.outcome_trials = got[3];
    return OM_OK;
}

om_status om_h5m_read(const char *path, om_matrix **out)
{
    reader rd = {path, H5I_INVALID_HID, NULL, 0};
    om_status st;

    if (out == NULL || path == NULL)
        return OM_ERROR(OM_EINVAL, "om_h5m_read: missing output or path");
    *out = NULL;
    om_h5_quiet();
    rd.m = calloc(1, sizeof *rd.m);
    if (rd.m == NULL || (rd.m->path = strdup(path)) == NULL) {
        free(rd.m);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", path);
    }
    if ((st = om_h5_open_read(path, &rd.file)) == OM_OK && (st = read_root(&rd)) == OM_OK
        && (st = read_axes(&rd)) == OM_OK && (st = read_cells(&rd)) == OM_OK)
        st = read_outcome_shape(&rd);
    om_h5_close_id(&rd.file);
    if (st != OM_OK) {
        om_h5m_matrix_free(rd.m);
        return st;
    }
    *out = rd.m;
    return OM_OK;
}

void om_h5m_matrix_free(om_matrix *m)
{
    if (m == NULL)
        return;
    for (size_t i = 0; i < m->n_strings; i++)
        free(m->strings[i]);
    free(m->strings);
    free(m->units);
    free(m->sits);
    free(m->cells);
    free(m->path);
    free(m);
}

/* ------------------------------------------------- each trial's winner, read */

struct om_h5m_outcomes {
    const om_matrix *m; /* the matrix read from the file (borrowed) */
    hid_t file;         /* its file, open */
    hid_t dset;         /* /trials/winner */
    hid_t margin_dset;  /* /trials/margin, opened at its first read, or H5I_INVALID_HID */
    hid_t mem_type;     /* the winner type: a read converts by name */
};

void om_h5m_outcomes_close(om_h5m_outcomes *o)
{
    if (o == NULL)
        return;
    om_h5_close_id(&o->mem_type);
    om_h5_close_id(&o->margin_dset);
    om_h5_close_id(&o->dset);
    om_h5_close_id(&o->file);
    free(o);
}

om_status om_h5m_outcomes_open(const om_matrix *m, om_h5m_outcomes **out)
{
    char why[OM_H5_DETAIL_MAX];
    om_h5m_outcomes *o;
    om_status st;
    *out = NULL;
    if (m->info.outcome_trials == 0)
        return OM_ERROR(OM_EINVAL, "%s: the file keeps no trial's winner (/trials/winner)",
                        m->path);
    if ((o = calloc(1, sizeof *o)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", m->path);
    o->m = m;
    o->file = o->dset = o->mem_type = o->margin_dset = H5I_INVALID_HID;
    om_h5_quiet();
    if ((st = om_h5_open_read(m->path, &o->file)) == OM_OK
        && ((o->dset = H5Dopen2(o->file, "/trials/winner", H5P_DEFAULT)) < 0
            || (o->mem_type = om_h5_winner_type()) < 0))
        st = OM_ERROR(OM_EHDF5, "%s: cannot open /trials/winner: %s", m->path,
                      om_h5_detail(why, sizeof why));
    if (st != OM_OK) {
        om_h5m_outcomes_close(o);
        return st;
    }
    *out = o;
    return OM_OK;
}

om_status om_h5m_outcomes_read(om_h5m_outcomes *o, size_t s, size_t r, size_t c,
                               uint8_t *codes)
{
    char why[OM_H5_DETAIL_MAX];
    const om_matrix *m = o->m;
    const om_matrix_cell *cell;
    uint64_t counts[OM_WINNER_CODES] = {0};
    hsize_t start[AXIS_COUNT + 1] = {s, r, c, 0}, count[AXIS_COUNT + 1] = {1, 1, 1, 0}, mem;
    hid_t fspace = H5I_INVALID_HID, mspace = H5I_INVALID_HID;
    om_status st = OM_OK;

    if (s >= m->info.n_situations || r >= m->info.n_rows || c >= m->info.n_cols)
        return OM_ERROR(OM_EINVAL, "%s: no cell (%zu, %zu, %zu)", m->path, s, r, c);
    cell = om_matrix_at(m, s, r, c);
    if (cell->trials == 0)
        return OM_OK;
    count[AXIS_COUNT] = mem = cell->trials;
    om_h5_quiet();
    if ((fspace = H5Dget_space(o->dset)) < 0
        || H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL) < 0
        || (mspace = H5Screate_simple(1, &mem, NULL)) < 0
        || H5Dread(o->dset, o->mem_type, mspace, fspace, H5P_DEFAULT, codes) < 0) {
        hsize_t first[AXIS_COUNT + 1], last[AXIS_COUNT + 1];
        om_h5_detail(why, sizeof why);
        if (om_h5_chunk_damaged(o->dset, first, last))
            st = OM_ERROR(OM_EHDF5, "%s: /trials/winner, the winners of cell (situation %s, "
                          "row %s, column %s), trials %llu..%llu: " OM_H5_DAMAGED, m->path,
                          m->info.situations[first[0]].name, m->info.rows[first[1]].name,
                          m->info.cols[first[2]].name, (unsigned long long)first[3],
                          (unsigned long long)last[3]);
        else
            st = OM_ERROR(OM_EHDF5, "%s: cannot read the winners of cell (situation %s, row "
                          "%s, column %s) in /trials/winner: %s", m->path,
                          m->info.situations[s].name, m->info.rows[r].name,
                          m->info.cols[c].name, why);
    }
    om_h5_close_id(&mspace);
    om_h5_close_id(&fspace);
    for (uint64_t t = 0; st == OM_OK && t < cell->trials; t++) {
        if (codes[t] >= OM_WINNER_CODES)
            return OM_ERROR(OM_EHDF5, "%s: /trials/winner of cell (situation %s, row %s, column "
                            "%s), trial %llu, is no winner code", m->path,
                            m->info.situations[s].name, m->info.rows[r].name,
                            m->info.cols[c].name, (unsigned long long)t);
        counts[codes[t]]++;
    }
    if (st == OM_OK && (counts[OM_WINNER_A] != cell->wins_row
                        || counts[OM_WINNER_B] != cell->wins_col
                        || counts[OM_WINNER_DRAW] != cell->draws))
        st = OM_ERROR(OM_EHDF5, "%s: /trials/winner of cell (situation %s, row %s, column %s) "
                      "counts %llu, %llu, %llu wins of the row, draws, wins of the column; "
                      "/cells says %llu, %llu, %llu", m->path, m->info.situations[s].name,
                      m->info.rows[r].name, m->info.cols[c].name,
                      (unsigned long long)counts[OM_WINNER_A],
                      (unsigned long long)counts[OM_WINNER_DRAW],
                      (unsigned long long)counts[OM_WINNER_B],
                      (unsigned long long)cell->wins_row, (unsigned long long)cell->draws,
                      (unsigned long long)cell->wins_col);
    return st;
}

om_status om_h5m_margins_read(om_h5m_outcomes *o, size_t s, size_t r, size_t c,
                              int32_t *margins)
{
    char why[OM_H5_DETAIL_MAX];
    const om_matrix *m = o->m;
    const om_matrix_cell *cell;
    hsize_t start[AXIS_COUNT + 1] = {s, r, c, 0}, count[AXIS_COUNT + 1] = {1, 1, 1, 0}, mem;
    hid_t fspace = H5I_INVALID_HID, mspace = H5I_INVALID_HID;
    double sum = 0, sq = 0;

    if (s >= m->info.n_situations || r >= m->info.n_rows || c >= m->info.n_cols)
        return OM_ERROR(OM_EINVAL, "%s: no cell (%zu, %zu, %zu)", m->path, s, r, c);
    if (!m->info.battle_margins)
        return OM_ERROR(OM_EINVAL, "%s: the file keeps no battle's margin", m->path);
    cell = om_matrix_at(m, s, r, c);
    if (cell->trials == 0)
        return OM_OK;
    count[AXIS_COUNT] = mem = cell->trials;
    om_h5_quiet();
    if ((o->margin_dset < 0 &&
         (o->margin_dset = H5Dopen2(o->file, "/trials/margin", H5P_DEFAULT)) < 0)
        || (fspace = H5Dget_space(o->margin_dset)) < 0
        || H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL) < 0
        || (mspace = H5Screate_simple(1, &mem, NULL)) < 0
        || H5Dread(o->margin_dset, H5T_NATIVE_INT32, mspace, fspace, H5P_DEFAULT, margins) < 0) {
        om_h5_detail(why, sizeof why);
        om_h5_close_id(&mspace);
        om_h5_close_id(&fspace);
        return OM_ERROR(OM_EHDF5, "%s: cannot read the margins of cell (situation %s, row %s, "
                        "column %s) in /trials/margin: %s", m->path,
                        m->info.situations[s].name, m->info.rows[r].name,
                        m->info.cols[c].name, why);
    }
    om_h5_close_id(&mspace);
    om_h5_close_id(&fspace);
    for (uint64_t t = 0; t < cell->trials; t++) {
        sum += margins[t];
        sq += (double)margins[t] * margins[t];
    }
    if (sum != cell->points_lost_col_sum - cell->points_lost_row_sum ||
        sq != cell->margin_sq_sum)
        return OM_ERROR(OM_EHDF5, "%s: /trials/margin of cell (situation %s, row %s, column %s) "
                        "adds up to %g (squares %g); /cells says %g (%g)", m->path,
                        m->info.situations[s].name, m->info.rows[r].name, m->info.cols[c].name,
                        sum, sq, cell->points_lost_col_sum - cell->points_lost_row_sum,
                        cell->margin_sq_sum);
    return OM_OK;
}

om_status om_h5m_file_schema(const char *path, char **out)
{
    hid_t file;
    om_status st;
    if (out == NULL || path == NULL)
        return OM_ERROR(OM_EINVAL, "om_h5m_file_schema: missing output or path");
    *out = NULL;
    om_h5_quiet();
    if ((st = om_h5_open_read(path, &file)) != OM_OK)
        return st;
    st = om_h5_attr_read_string(file, path, "schema", out);
    om_h5_close_id(&file);
    return st;
}
