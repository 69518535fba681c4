/*
 * test_h5matrix.c: Criterion tests of sim/h5matrix (the matchup matrix file).
 *
 * Matrices of synthetic cells, every number a known function of the cell's
 * indices, are written and read back exactly; the dimension scales are checked
 * with the HDF5 HL API as h5py would see them; every documented error of the
 * writer and the reader is provoked once, broken files being made with the HDF5
 * API directly (as in test_h5.c). Each test works in its own mkdtemp directory.
 */
#include <errno.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "h5_int.h"
#include "h5file.h"
#include "h5matrix.h"
#include "tmpdir.h"

/* ---------------------------------------------------------------- fixture */

static void dir_setup(void)
{
    tmpdir_create("om_test_h5m");
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

TestSuite(h5m_writer, .init = dir_setup, .fini = tmpdir_remove);
TestSuite(h5m_reader, .init = dir_setup, .fini = tmpdir_remove);

/* --------------------------------------------------------- synthetic data */

#define NS 2
#define NR 3
#define NC 4

static const om_matrix_situation sample_sits[NS] = {
    {"charge-open", "kind: combat\na: {charging: true}\n", "A charges B in the open"},
    {"charge-defended", "kind: combat\nb: {position: defended}\n", NULL},
};
static const om_matrix_unit sample_rows[NR] = {
    {"Knights", "empire/knights", 110, "Empire", "cavalry", OM_MATRIX_SHOOTS_NO},
    {"Halberdiers", "empire/halberdiers", 45, "Empire", "infantry", OM_MATRIX_SHOOTS_NO},
    {"Chevaliers du Graal \xe2\x9c\xa0", "bretonnia/grail", 4294967295u, "Bretonnia", NULL,
     OM_MATRIX_SHOOTS_UNKNOWN},
};
static const om_matrix_unit sample_cols[NC] = {
    {"Orc Warriors", "orcs/warriors", 60, "Orcs", "infantry", OM_MATRIX_SHOOTS_NO},
    {"Orc Boar Riders", "orcs/boar-riders", 110, "Orcs", "cavalry", OM_MATRIX_SHOOTS_NO},
    {"Trolls", "", 110, "", "infantry", OM_MATRIX_SHOOTS_NO},
    {"Giant", "orcs/giant", 0, "Orcs", "monster", OM_MATRIX_SHOOTS_YES},
};

static om_matrix_info sample_info(void)
{
    om_matrix_info info = {
        .program_version = "0.1.0-test",
        .command_line = "oddsmaster matrix empire.yaml orcs.yaml --trials 1000",
        .ruleset = "warmaster-revolution",
        .data_version = "warmaster-revolution lists 2.25",
        .row_list = "Empire",
        .col_list = "Orcs & Goblins",
        .rng_scheme = "pcg64-dxsm; stream=SplitMix64(seed,block)",
        .seed = UINT64_C(0xFFFFFFFFFFFFFFFF),
        .trials_per_cell = 0,
        .target_halfwidth = 0.0125,
        .n_situations = NS,
        .n_rows = NR,
        .n_cols = NC,
        .situations = sample_sits,
        .rows = sample_rows,
        .cols = sample_cols,
    };
    return info;
}

/* The cell (s, r, c): counts and sums that differ in every cell and field. */
static om_matrix_cell sample_cell(size_t s, size_t r, size_t c)
{
    uint64_t k = (uint64_t)((s * NR + r) * NC + c);
    om_matrix_cell cell = {
        .trials = 1000 + 7 * k,
        .wins_row = 300 + k,
        .draws = 100 + 2 * k,
        .wins_col = 500 + 3 * k,
        .points_lost_row_sum = 12345.5 + (double)k / 8.0,
        .points_lost_col_sum = 0.25 * (double)k,
        .inapplicable = (uint8_t)(k % 4),
    };
    return cell;
}

/* Write the sample matrix with every cell except (1, 2, 3), left unset. */
static void write_sample(const char *path)
{
    om_matrix_info info = sample_info();
    om_h5m_writer *w = NULL;
    cr_assert_eq(om_h5m_writer_create(&w, path, &info), OM_OK, "%s", om_error_message());
    for (size_t s = 0; s < NS; s++)
        for (size_t r = 0; r < NR; r++)
            for (size_t c = 0; c < NC; c++) {
                om_matrix_cell cell = sample_cell(s, r, c);
                if (s == 1 && r == 2 && c == 3)
                    continue;
                cr_assert_eq(om_h5m_writer_put_cell(w, s, r, c, &cell), OM_OK, "%s",
                             om_error_message());
            }
    cr_assert_eq(om_h5m_writer_close(w), OM_OK, "%s", om_error_message());
}

static om_matrix *read_ok(const char *path)
{
    om_matrix *m = NULL;
    cr_assert_eq(om_h5m_read(path, &m), OM_OK, "%s", om_error_message());
    cr_assert_not_null(m);
    return m;
}

/* ------------------------------------------------------------------ writer */

Test(h5m_writer, round_trip_exactly)
{
    char path[512];
    om_matrix *m;
    om_matrix_info want = sample_info();
    write_sample(tmpdir_path(path, sizeof path, "m.h5"));
    cr_expect_eq(tmpdir_entries(), 1, "only the final file remains");
    m = read_ok(path);

    cr_expect_str_eq(m->path, path);
    cr_expect_str_eq(m->info.program_version, want.program_version);
    cr_expect_str_eq(m->info.command_line, want.command_line);
    cr_expect_str_eq(m->info.ruleset, want.ruleset);
    cr_expect_str_eq(m->info.data_version, want.data_version);
    cr_expect_str_eq(m->info.row_list, want.row_list);
    cr_expect_str_eq(m->info.col_list, want.col_list);
    cr_expect_str_eq(m->info.rng_scheme, want.rng_scheme);
    cr_expect_eq(m->info.seed, want.seed);
    cr_expect_eq(m->info.trials_per_cell, 0);
    cr_expect_eq(m->info.target_halfwidth, 0.0125);
    cr_expect(strlen(m->created_utc) == 20 && m->created_utc[19] == 'Z', "%s",
              m->created_utc);
    cr_assert_eq(m->info.n_situations, NS);
    cr_assert_eq(m->info.n_rows, NR);
    cr_assert_eq(m->info.n_cols, NC);
    for (size_t s = 0; s < NS; s++) {
        cr_expect_str_eq(m->info.situations[s].name, sample_sits[s].name);
        cr_expect_str_eq(m->info.situations[s].yaml, sample_sits[s].yaml);
        cr_expect_str_eq(m->info.situations[s].title,
                         sample_sits[s].title != NULL ? sample_sits[s].title : "");
    }
    for (size_t i = 0; i < NR + NC; i++) {
        const om_matrix_unit *got = i < NR ? &m->info.rows[i] : &m->info.cols[i - NR];
        const om_matrix_unit *exp = i < NR ? &sample_rows[i] : &sample_cols[i - NR];
        cr_expect_str_eq(got->name, exp->name);
        cr_expect_str_eq(got->id, exp->id);
        cr_expect_eq(got->points, exp->points);
        cr_expect_str_eq(got->army, exp->army != NULL ? exp->army : "");
        cr_expect_str_eq(got->troop, exp->troop != NULL ? exp->troop : "");
        cr_expect_eq(got->can_shoot, exp->can_shoot, "unit %zu", i);
    }
    for (size_t s = 0; s < NS; s++)
        for (size_t r = 0; r < NR; r++)
            for (size_t c = 0; c < NC; c++) {
                const om_matrix_cell *got = om_matrix_at(m, s, r, c);
                om_matrix_cell exp = sample_cell(s, r, c);
                if (s == 1 && r == 2 && c == 3)
                    exp = (om_matrix_cell){0};
                cr_expect(got->trials == exp.trials && got->wins_row == exp.wins_row
                              && got->draws == exp.draws && got->wins_col == exp.wins_col
                              && got->points_lost_row_sum == exp.points_lost_row_sum
                              && got->points_lost_col_sum == exp.points_lost_col_sum
                              && got->inapplicable == exp.inapplicable,
                          "cell (%zu,%zu,%zu): %llu %llu %llu %llu %g %g", s, r, c,
                          (unsigned long long)got->trials, (unsigned long long)got->wins_row,
                          (unsigned long long)got->draws, (unsigned long long)got->wins_col,
                          got->points_lost_row_sum, got->points_lost_col_sum);
            }
    om_h5m_matrix_free(m);
}

/* The names of the scales attached to each axis of each cell dataset, as h5py shows them. */
Test(h5m_writer, labelled_axes)
{
    static const char *const datasets[] = {"trials", "wins_row", "draws", "wins_col",
                                           "points_lost_row_sum", "points_lost_col_sum"};
    static const char *const labels[3] = {"situation", "row", "col"};
    static const char *const scales[3] = {"situations/name", "rows/name", "cols/name"};
    char path[512], name[64];
    hid_t f;
    write_sample(tmpdir_path(path, sizeof path, "axes.h5"));
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    cr_assert_geq(f, 0);
    for (size_t i = 0; i < sizeof datasets / sizeof datasets[0]; i++) {
        hid_t d;
        snprintf(name, sizeof name, "cells/%s", datasets[i]);
        d = H5Dopen2(f, name, H5P_DEFAULT);
        cr_assert_geq(d, 0, "%s", name);
        cr_expect_gt(H5Aexists(d, "description"), 0, "%s has a description", name);
        for (unsigned axis = 0; axis < 3; axis++) {
            char label[32] = "";
            hid_t sc = H5Dopen2(f, scales[axis], H5P_DEFAULT);
            cr_assert_geq(sc, 0);
            cr_expect_eq(H5DSis_scale(sc), 1, "%s is a dimension scale", scales[axis]);
            cr_expect_eq(H5DSget_num_scales(d, axis), 1, "%s axis %u", name, axis);
            cr_expect_eq(H5DSis_attached(d, sc, axis), 1, "%s axis %u has %s", name, axis,
                         scales[axis]);
            cr_expect_gt(H5DSget_label(d, axis, label, sizeof label), 0);
            cr_expect_str_eq(label, labels[axis]);
            H5Dclose(sc);
        }
        H5Dclose(d);
    }
    H5Fclose(f);
}

Test(h5m_writer, create_errors)
{
    char path[512];
    om_matrix_info info = sample_info();
    om_matrix_unit unnamed[NR];
    om_h5m_writer *w = (om_h5m_writer *)(uintptr_t)1;
    tmpdir_path(path, sizeof path, "bad.h5");

    info.n_rows = 0;
    cr_expect_eq(om_h5m_writer_create(&w, path, &info), OM_EINVAL);
    cr_expect_null(w);
    info = sample_info();
    info.target_halfwidth = -0.1;
    cr_expect_eq(om_h5m_writer_create(&w, path, &info), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "target_halfwidth") != NULL, "%s",
              om_error_message());
    info = sample_info();
    memcpy(unnamed, sample_rows, sizeof unnamed);
    unnamed[1].name = "";
    info.rows = unnamed;
    cr_expect_eq(om_h5m_writer_create(&w, path, &info), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "row unit 1") != NULL, "%s", om_error_message());
    cr_expect_eq(om_h5m_writer_create(NULL, path, &info), OM_EINVAL);
    cr_expect_eq(om_h5m_writer_create(&w, "", &info), OM_EINVAL);
    cr_expect_eq(tmpdir_entries(), 0, "nothing written");

    info = sample_info();
    cr_expect_eq(om_h5m_writer_create(&w, tmpdir_path(path, sizeof path, "no/such/dir.h5"), &info),
                 OM_EIO);
    cr_expect(strstr(om_error_message(), "No such file") != NULL, "%s", om_error_message());
}

Test(h5m_writer, put_errors)
{
    char path[512];
    om_matrix_info info = sample_info();
    om_h5m_writer *w = NULL;
    om_matrix_cell cell = {.trials = 10, .wins_row = 4, .draws = 3, .wins_col = 3};
    cr_assert_eq(om_h5m_writer_create(&w, tmpdir_path(path, sizeof path, "p.h5"), &info), OM_OK);
    cr_expect_eq(om_h5m_writer_put_cell(w, NS, 0, 0, &cell), OM_EINVAL);
    cr_expect_eq(om_h5m_writer_put_cell(w, 0, NR, 0, &cell), OM_EINVAL);
    cr_expect_eq(om_h5m_writer_put_cell(w, 0, 0, NC, &cell), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "outside") != NULL, "%s", om_error_message());
    cr_expect_eq(om_h5m_writer_put_cell(w, 0, 0, 0, &cell), OM_OK);
    cell.wins_col = 4;
    cr_expect_eq(om_h5m_writer_put_cell(w, 0, 0, 0, &cell), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "exceed trials") != NULL, "%s", om_error_message());
    /* Huge counts cannot wrap the sum around. */
    cell = (om_matrix_cell){.trials = 10, .wins_row = UINT64_MAX, .draws = 2, .wins_col = 0};
    cr_expect_eq(om_h5m_writer_put_cell(w, 0, 0, 0, &cell), OM_EINVAL);
    cell = (om_matrix_cell){.trials = 10, .wins_row = 5, .draws = UINT64_MAX - 2, .wins_col = 4};
    cr_expect_eq(om_h5m_writer_put_cell(w, 0, 0, 0, &cell), OM_EINVAL);
    cell = (om_matrix_cell){.trials = 10, .points_lost_row_sum = -1.0};
    cr_expect_eq(om_h5m_writer_put_cell(w, 0, 0, 0, &cell), OM_EINVAL);
    cell = (om_matrix_cell){.trials = 10, .points_lost_col_sum = NAN};
    cr_expect_eq(om_h5m_writer_put_cell(w, 0, 0, 0, &cell), OM_EINVAL);
    cell = (om_matrix_cell){.trials = 10, .inapplicable = 4};
    cr_expect_eq(om_h5m_writer_put_cell(w, 0, 0, 0, &cell), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "inapplicable is 4") != NULL, "%s", om_error_message());
    cr_expect_eq(om_h5m_writer_put_cell(w, 0, 0, 0, NULL), OM_EINVAL);
    cr_expect_eq(om_h5m_writer_put_cell(NULL, 0, 0, 0, &cell), OM_EINVAL);
    cr_expect_eq(om_h5m_writer_close(w), OM_OK, "%s", om_error_message());
    cr_expect_eq(om_h5m_writer_close(NULL), OM_EINVAL);
}

Test(h5m_writer, abort_leaves_nothing_and_close_replaces)
{
    char path[512];
    om_matrix_info info = sample_info();
    om_h5m_writer *w = NULL;
    FILE *f;
    om_matrix *m;

    cr_assert_eq(om_h5m_writer_create(&w, tmpdir_path(path, sizeof path, "a.h5"), &info), OM_OK);
    cr_expect_eq(access(path, F_OK), -1, "nothing at the target before close");
    cr_expect_eq(tmpdir_entries(), 1, "only the temporary file");
    om_h5m_writer_abort(w);
    om_h5m_writer_abort(NULL);
    cr_expect_eq(tmpdir_entries(), 0);

    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("old contents\n", f);
    fclose(f);
    write_sample(path);
    m = read_ok(path);
    cr_expect_eq(m->info.n_rows, NR);
    om_h5m_matrix_free(m);
    cr_expect_eq(tmpdir_entries(), 1);
}

/* A file that cannot be written at the close (a full disk; here the process's
 * file size limit, past which writes fail with EFBIG): the close fails with
 * the system's reason, leaves no file, and the library stays sound (HDF5 1.10
 * keeps a file whose close failed half closed, and crashed when it closed it
 * again at H5close or at exit). */
Test(h5m_writer, a_failing_write_leaves_no_file_and_says_why)
{
    char path[512];
    om_matrix_info info = sample_info();
    om_h5m_writer *w = NULL;
    struct rlimit old, lim;
    om_status st;
    cr_assert_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
    cr_assert_neq(signal(SIGXFSZ, SIG_IGN), SIG_ERR);
    cr_assert_eq(om_h5m_writer_create(&w, tmpdir_path(path, sizeof path, "full.h5"), &info),
                 OM_OK, "%s", om_error_message());
    for (size_t s = 0; s < NS; s++)
        for (size_t r = 0; r < NR; r++)
            for (size_t c = 0; c < NC; c++) {
                om_matrix_cell cell = sample_cell(s, r, c);
                cr_assert_eq(om_h5m_writer_put_cell(w, s, r, c, &cell), OM_OK);
            }
    lim = (struct rlimit){.rlim_cur = 1024, .rlim_max = old.rlim_max};
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
    st = om_h5m_writer_close(w);
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
    cr_expect_eq(st, OM_EIO, "%s", om_error_message());
    cr_expect(strstr(om_error_message(), path) != NULL, "%s", om_error_message());
    cr_expect(strstr(om_error_message(), strerror(EFBIG)) != NULL, "%s", om_error_message());
    cr_expect_eq(tmpdir_entries(), 0, "no file left");
    cr_expect_eq(H5close(), 0, "the library closes");
    write_sample(path);
    cr_expect_eq(tmpdir_entries(), 1, "and the next file is written");
}

/* ------------------------------------------------------------------ reader */

/* Check the last error of om_h5m_read(path): its code, the file named, and a phrase. */
static void expect_read_error(const char *path, om_status code, const char *phrase)
{
    om_matrix *m = (om_matrix *)(uintptr_t)1;
    om_status st = om_h5m_read(path, &m);
    cr_expect_eq(st, code, "%s: got %d (%s), expected %d", path, st, om_error_message(), code);
    cr_expect_null(m);
    cr_expect(strstr(om_error_message(), path) != NULL, "message names the file: %s",
              om_error_message());
    cr_expect(strstr(om_error_message(), phrase) != NULL, "message says '%s': %s", phrase,
              om_error_message());
}

Test(h5m_reader, missing_directory_and_not_hdf5)
{
    char path[512];
    FILE *f;
    expect_read_error(tmpdir_path(path, sizeof path, "missing.h5"), OM_EIO, "cannot open");
    expect_read_error(tmpdir_name, OM_EIO, "cannot open");
    f = fopen(tmpdir_path(path, sizeof path, "text.h5"), "w");
    cr_assert_not_null(f);
    fputs("not hdf5\n", f);
    fclose(f);
    expect_read_error(path, OM_EHDF5, "is not an HDF5 file");
    cr_expect_eq(om_h5m_read(NULL, NULL), OM_EINVAL);
}

Test(h5m_reader, truncated_file)
{
    char path[512], cut[512], buf[4096];
    struct stat sb;
    FILE *in, *out;
    size_t n, left;
    write_sample(tmpdir_path(path, sizeof path, "whole.h5"));
    cr_assert_eq(stat(path, &sb), 0);
    in = fopen(path, "rb");
    out = fopen(tmpdir_path(cut, sizeof cut, "cut.h5"), "wb");
    cr_assert(in != NULL && out != NULL);
    for (left = (size_t)sb.st_size / 2; left > 0; left -= n) {
        n = fread(buf, 1, left < sizeof buf ? left : sizeof buf, in);
        cr_assert_gt(n, 0);
        fwrite(buf, 1, n, out);
    }
    fclose(in);
    fclose(out);
    expect_read_error(cut, OM_EHDF5, "cut.h5");
}

/* A run result file is not a matrix file: the schema says which it is. */
Test(h5m_reader, run_file_is_not_a_matrix)
{
    char path[512], *schema = NULL;
    /* A layout of one count field, enough for a run file. */
    om_layout layout = {.row_size = 1, .field_count = 1,
                        .fields = {{"hits", "Hits.", NULL, 0, OM_FIELD_COUNT}},
                        .side = {{.loss_field = -1}, {.loss_field = -1}}};
    om_run_info info = {.program_version = "t", .ruleset = "warmaster-revolution",
                        .kind = "combat", .trials = 10, .block_size = 10, .threads = 1,
                        .layout = &layout};
    uint8_t rows[10];
    om_h5_writer *w = NULL;
    memset(rows, 0, sizeof rows);
    cr_assert_eq(om_h5_writer_create(&w, tmpdir_path(path, sizeof path, "run.h5"), &info), OM_OK);
    cr_assert_eq(om_h5_writer_put(w, 0, rows, 10), OM_OK);
    cr_assert_eq(om_h5_writer_close(w), OM_OK);
    expect_read_error(path, OM_EHDF5, "'schema' attribute is '" OM_H5_SCHEMA "'");

    cr_assert_eq(om_h5m_file_schema(path, &schema), OM_OK, "%s", om_error_message());
    cr_expect_str_eq(schema, OM_H5_SCHEMA);
    free(schema);
    write_sample(tmpdir_path(path, sizeof path, "m.h5"));
    cr_assert_eq(om_h5m_file_schema(path, &schema), OM_OK, "%s", om_error_message());
    cr_expect_str_eq(schema, OM_H5M_SCHEMA);
    free(schema);
    cr_expect_eq(om_h5m_file_schema(tmpdir_path(path, sizeof path, "none.h5"), &schema), OM_EIO);
}

static hid_t open_rw(const char *path)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    cr_assert_geq(f, 0, "H5Fopen %s", path);
    return f;
}

Test(h5m_reader, missing_parts)
{
    static const struct {
        const char *file;   /* test file name */
        const char *attr;   /* root attribute to delete, or NULL */
        const char *link;   /* link to delete, or NULL */
        const char *phrase; /* expected in the message */
    } cases[] = {
        {"noschema.h5", "schema", NULL, "no 'schema' attribute"},
        {"noseed.h5", "seed", NULL, "'seed'"},
        {"nohw.h5", "target_halfwidth", NULL, "'target_halfwidth'"},
        {"nowins.h5", NULL, "cells/wins_col", "/cells/wins_col"},
        {"noids.h5", NULL, "cols/id", "/cols/id"},
        {"norows.h5", NULL, "rows", "/rows/name"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[512];
        hid_t f;
        write_sample(tmpdir_path(path, sizeof path, cases[i].file));
        f = open_rw(path);
        if (cases[i].attr != NULL)
            cr_assert_geq(H5Adelete(f, cases[i].attr), 0);
        if (cases[i].link != NULL)
            cr_assert_geq(H5Ldelete(f, cases[i].link, H5P_DEFAULT), 0);
        H5Fclose(f);
        expect_read_error(path, OM_EHDF5, cases[i].phrase);
    }
}

/* Replace dataset `name` by one of `rank` dims `dims` and type `type`, filled
 * with `data`, with the checksum every dataset of the file carries. */
static void replace_dataset(const char *path, const char *name, int rank, const hsize_t *dims,
                            hid_t type, const void *data)
{
    hid_t f = open_rw(path), s, d;
    cr_assert_geq(H5Ldelete(f, name, H5P_DEFAULT), 0);
    s = H5Screate_simple(rank, dims, NULL);
    cr_assert_eq(om_h5_dataset_create(f, name, type, s, NULL, 0, path, name, &d), OM_OK, "%s",
                 om_error_message());
    if (data != NULL)
        cr_assert_geq(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), 0);
    H5Dclose(d);
    H5Sclose(s);
    H5Fclose(f);
}

Test(h5m_reader, wrong_shapes_and_types)
{
    char path[512];
    hsize_t dims3[3] = {NS, NR, NC + 1}, dims1 = NR + 1;
    uint32_t points[NR + 1] = {1, 2, 3, 4};
    write_sample(tmpdir_path(path, sizeof path, "shape.h5"));
    replace_dataset(path, "cells/draws", 3, dims3, H5T_NATIVE_UINT64, NULL);
    expect_read_error(path, OM_EHDF5, "/cells/draws is 2 x 3 x 5, expected 2 x 3 x 4");

    write_sample(tmpdir_path(path, sizeof path, "rank.h5"));
    replace_dataset(path, "cells/trials", 1, &dims1, H5T_NATIVE_UINT64, NULL);
    expect_read_error(path, OM_EHDF5, "/cells/trials has 1 dimensions, expected 3");

    write_sample(tmpdir_path(path, sizeof path, "type.h5"));
    dims3[2] = NC;
    replace_dataset(path, "cells/points_lost_row_sum", 3, dims3, H5T_NATIVE_UINT64, NULL);
    expect_read_error(path, OM_EHDF5, "/cells/points_lost_row_sum is not of a floating-point");

    write_sample(tmpdir_path(path, sizeof path, "points.h5"));
    replace_dataset(path, "rows/points", 1, &dims1, H5T_NATIVE_UINT32, points);
    expect_read_error(path, OM_EHDF5, "/rows/points has 4 entries, expected 3");
}

Test(h5m_reader, inconsistent_cell)
{
    char path[512];
    uint64_t wins[NS][NR][NC];
    hsize_t dims[3] = {NS, NR, NC};
    for (size_t s = 0; s < NS; s++)
        for (size_t r = 0; r < NR; r++)
            for (size_t c = 0; c < NC; c++)
                wins[s][r][c] = sample_cell(s, r, c).wins_row;
    wins[1][2][1] = 5000;
    write_sample(tmpdir_path(path, sizeof path, "bad.h5"));
    replace_dataset(path, "cells/wins_row", 3, dims, H5T_NATIVE_UINT64, wins);
    expect_read_error(path, OM_EHDF5, "cell (situation charge-defended, row Chevaliers");
}

/* Fixed-length strings, as another tool may write them, are read too. */
Test(h5m_reader, fixed_length_strings)
{
    char path[512];
    const char names[NC][8] = {"A", "Bb", "Ccc", "Dddddd"};
    hsize_t n = NC;
    hid_t t = H5Tcopy(H5T_C_S1);
    om_matrix *m;
    H5Tset_size(t, 8);
    H5Tset_strpad(t, H5T_STR_NULLPAD);
    write_sample(tmpdir_path(path, sizeof path, "fixed.h5"));
    replace_dataset(path, "cols/name", 1, &n, t, names);
    H5Tclose(t);
    m = read_ok(path);
    for (size_t c = 0; c < NC; c++)
        cr_expect_str_eq(m->info.cols[c].name, names[c]);
    om_h5m_matrix_free(m);
}

/* A file of the first schema is refused, saying what to do, and naming the attribute. */
Test(h5m_reader, schema_1_is_refused)
{
    char path[512];
    hid_t f, type, space, attr;
    const char *v1 = OM_H5M_SCHEMA_V1;
    write_sample(tmpdir_path(path, sizeof path, "old.h5"));
    f = open_rw(path);
    cr_assert_geq(H5Adelete(f, "schema"), 0);
    type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    space = H5Screate(H5S_SCALAR);
    attr = H5Acreate2(f, "schema", type, space, H5P_DEFAULT, H5P_DEFAULT);
    cr_assert_geq(attr, 0);
    cr_assert_geq(H5Awrite(attr, type, &v1), 0);
    H5Aclose(attr);
    H5Sclose(space);
    H5Tclose(type);
    H5Fclose(f);
    expect_read_error(path, OM_EHDF5, "'schema' attribute is 'oddsmaster-matrix/1'");
    cr_expect(strstr(om_error_message(), "run 'oddsmaster matrix' again") != NULL, "%s",
              om_error_message());
}

/* The datasets schema 2 added are optional: without them every field takes its default. */
Test(h5m_reader, optional_fields_default)
{
    static const char *const optional[] = {"rows/army", "rows/troop", "rows/can_shoot",
                                           "cols/army", "cols/troop", "cols/can_shoot",
                                           "situations/title", "cells/inapplicable"};
    char path[512];
    hid_t f;
    om_matrix *m;
    write_sample(tmpdir_path(path, sizeof path, "lean.h5"));
    f = open_rw(path);
    for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++)
        cr_assert_geq(H5Ldelete(f, optional[i], H5P_DEFAULT), 0, "%s", optional[i]);
    H5Fclose(f);
    m = read_ok(path);
    for (size_t i = 0; i < NR + NC; i++) {
        const om_matrix_unit *u = i < NR ? &m->info.rows[i] : &m->info.cols[i - NR];
        cr_expect_str_eq(u->army, "");
        cr_expect_str_eq(u->troop, "");
        cr_expect_eq(u->can_shoot, OM_MATRIX_SHOOTS_UNKNOWN);
    }
    cr_expect_str_eq(m->info.situations[0].title, "");
    for (size_t k = 0; k < NS * NR * NC; k++)
        cr_expect_eq(m->cells[k].inapplicable, 0, "cell %zu applies", k);
    om_h5m_matrix_free(m);
}

/* /cells/inapplicable is written only when some cell is flagged, and its values are checked. */
Test(h5m_reader, inapplicable_only_when_flagged)
{
    char path[512];
    om_matrix_info info = sample_info();
    om_h5m_writer *w = NULL;
    om_matrix_cell cell = {.trials = 10, .wins_row = 5, .wins_col = 5};
    uint8_t flags[NS][NR][NC] = {{{0}}};
    hsize_t dims[3] = {NS, NR, NC};
    hid_t f;
    cr_assert_eq(om_h5m_writer_create(&w, tmpdir_path(path, sizeof path, "plain.h5"), &info),
                 OM_OK);
    cr_assert_eq(om_h5m_writer_put_cell(w, 0, 0, 0, &cell), OM_OK);
    cr_assert_eq(om_h5m_writer_close(w), OM_OK, "%s", om_error_message());
    f = open_rw(path);
    cr_expect_eq(H5Lexists(f, "cells/inapplicable", H5P_DEFAULT), 0);
    H5Fclose(f);

    write_sample(tmpdir_path(path, sizeof path, "badflag.h5"));
    flags[1][0][2] = 9;
    replace_dataset(path, "cells/inapplicable", 3, dims, H5T_NATIVE_UINT8, flags);
    expect_read_error(path, OM_EHDF5, "inapplicable is 9");

    write_sample(tmpdir_path(path, sizeof path, "badshoot.h5"));
    dims[0] = NR;
    replace_dataset(path, "rows/can_shoot", 1, dims, H5T_NATIVE_UINT8, (uint8_t[NR]){0, 3, 1});
    expect_read_error(path, OM_EHDF5, "/rows/can_shoot[1] is 3");
}
