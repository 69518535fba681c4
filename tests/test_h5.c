/*
 * test_h5.c: Criterion tests of sim/h5file (the HDF5 result file).
 *
 * Files are written with synthetic rows of a real game's layout (test_layout.h),
 * whose every byte is a known function of the row and field, in blocks written
 * out of order, and read back exactly.
 * Every documented error of the writer and the reader is provoked once; broken
 * files are made with the HDF5 API directly (the one place outside h5file.c that
 * uses it, because the writer cannot produce them). Each test works in its own
 * mkdtemp directory, removed afterwards.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
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
#include "results.h"
#include "sha256.h"
#include "test_layout.h"
#include "tmpdir.h"

/* ---------------------------------------------------------------- fixture */

static void dir_setup(void)
{
    tmpdir_create("om_test_h5");
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

TestSuite(writer, .init = dir_setup, .fini = tmpdir_remove);
TestSuite(reader, .init = dir_setup, .fini = tmpdir_remove);


/* --------------------------------------------------------- synthetic data */

/* SplitMix64's finaliser: a fixed scramble, so neighbouring rows differ in every field. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* The layout of a run of `kind` ("combat", "volley", "engagement"), loaded
 * once per test process. */
static const om_layout *layout_of(const char *kind)
{
    static om_layout layouts[3];
    static const char *kinds[3];
    for (int i = 0; i < 3; i++) {
        if (kinds[i] != NULL && strcmp(kinds[i], kind) == 0)
            return &layouts[i];
        if (kinds[i] == NULL) {
            test_layout_of_kind(kind, &layouts[i]);
            kinds[i] = kind;
            return &layouts[i];
        }
    }
    cr_assert_fail("more than three layouts");
    return NULL;
}

/* The value of field i of layout l in row `row`: a, b, draw or none; 0/1; or 0..39. */
static uint8_t expected_value(const om_layout *l, size_t i, uint64_t row)
{
    uint64_t h = mix(row * 64 + i);
    switch (l->fields[i].type) {
    case OM_FIELD_WINNER: return (uint8_t)(h % 4);
    case OM_FIELD_FLAG: return (uint8_t)(h & 1);
    case OM_FIELD_COUNT:
    case OM_FIELD_COUNT16: break;
    }
    return (uint8_t)(h % 40);
}

/* Rows first..first+n-1 of layout l in `rows`, every field set. */
static void fill_rows(const om_layout *l, uint8_t *rows, uint64_t first, size_t n)
{
    memset(rows, 0, n * l->row_size);
    for (size_t r = 0; r < n; r++)
        for (size_t i = 0; i < l->field_count; i++)
            rows[r * l->row_size + l->fields[i].offset] = expected_value(l, i, first + r);
}

/* A run description with distinctive values in every attribute. */
static om_run_info sample_info(uint64_t trials, const char *kind)
{
    om_run_info info = {
        .program_version = "0.1.0-test",
        .command_line = "oddsmaster run --trials 150001 --seed 18446744073709551615",
        .game = "warmaster",
        .scenario_name = "tests/data/knights.yaml",
        .scenario_text = "title: Knights charge\nruleset: warmaster-revolution\n",
        .title = "Chevaliers du Graal \xe2\x80\x93 charge \xe2\x9c\xa0",
        .ruleset = "warmaster-revolution",
        .kind = kind,
        .options_json = "{\"rounds\":1}",
        .rng_scheme = "pcg64-dxsm; stream=SplitMix64(seed,block)",
        .seed = UINT64_C(0xFFFFFFFFFFFFFFFF),
        .trials = trials,
        .block_size = 8000,
        .threads = 2,
        .layout = layout_of(kind),
    };
    return info;
}

/*
 * Write a file of `trials` rows: rows 80000.. (if any) in one put larger than the
 * writer's scratch buffer, then blocks of 8000 rows in the order 0, 3, 6, 9, 2, ...
 * (3 is coprime to 10), the last block possibly short.
 */
static void write_file(const char *path, uint64_t trials, const char *kind)
{
    om_run_info info = sample_info(trials, kind);
    const om_layout *l = info.layout;
    om_h5_writer *w = NULL;
    const uint64_t block = 8000, split = trials > 80000 ? 80000 : trials;
    uint64_t nblocks = (split + block - 1) / block;
    uint8_t *buf;

    cr_assert_eq(om_h5_writer_create(&w, path, &info), OM_OK, "%s", om_error_message());
    if (trials > split) {
        size_t n = (size_t)(trials - split);
        buf = malloc(n * l->row_size);
        cr_assert_not_null(buf);
        fill_rows(l, buf, split, n);
        cr_assert_eq(om_h5_writer_put(w, split, buf, n), OM_OK, "%s", om_error_message());
        free(buf);
    }
    buf = malloc(block * l->row_size);
    cr_assert_not_null(buf);
    for (uint64_t k = 0; k < nblocks; k++) {
        /* With 10 blocks (the main test) this visits them as 0, 3, 6, 9, 2, 5, ... */
        uint64_t b = nblocks == 10 ? (k * 3) % 10 : nblocks - 1 - k;
        uint64_t first = b * block;
        size_t n = (size_t)(split - first < block ? split - first : block);
        fill_rows(l, buf, first, n);
        cr_assert_eq(om_h5_writer_put(w, first, buf, n), OM_OK, "%s", om_error_message());
    }
    free(buf);
    cr_assert_eq(om_h5_writer_close(w), OM_OK, "%s", om_error_message());
}

/* ------------------------------------------------------------------ tests */

Test(writer, rows_round_trip_exactly)
{
    char path[512];
    const uint64_t trials = 150001;
    om_h5_reader *r = NULL;
    uint8_t *got = malloc(trials);
    const om_layout *l = layout_of("combat");
    tmpdir_path(path, sizeof path, "run.h5");
    write_file(path, trials, "combat");
    cr_assert_eq(tmpdir_entries(), 1, "only the result file is left, no temporary file");

    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_reader_trials(r), trials);
    cr_assert_str_eq(om_h5_reader_path(r), path);
    cr_assert_eq(om_h5_reader_field_count(r), l->field_count);
    for (size_t i = 0; i < l->field_count; i++) {
        const om_field *f = &l->fields[i], *got_f = om_h5_reader_field(r, i);
        cr_assert(om_h5_reader_has_field(r, f->name), "%s missing", f->name);
        cr_expect_str_eq(got_f->name, f->name, "the file keeps the layout's order");
        cr_expect_str_eq(got_f->description, f->description);
        cr_expect_eq(got_f->type, f->type, "%s", f->name);
        if (f->type == OM_FIELD_WINNER)
            cr_expect_str_eq(got_f->title, f->title);
        /* In uneven chunks, to cross chunk and block boundaries anywhere. */
        for (uint64_t first = 0; first < trials; first += 40009) {
            size_t n = (size_t)(trials - first < 40009 ? trials - first : 40009);
            cr_assert_eq(om_h5_reader_read(r, f->name, first, n, got + first), OM_OK, "%s",
                         om_error_message());
        }
        for (uint64_t row = 0; row < trials; row++)
            if (got[row] != expected_value(l, i, row))
                cr_assert_fail("%s row %llu: got %u, wrote %u", f->name,
                               (unsigned long long)row, got[row], expected_value(l, i, row));
    }
    /* Reads at the very end and of zero rows are fine; past the end is not. */
    cr_assert_eq(om_h5_reader_read(r, "hits_on_b", trials - 1, 1, got), OM_OK);
    cr_assert_eq(om_h5_reader_read(r, "hits_on_b", trials, 0, got), OM_OK);
    cr_assert_eq(om_h5_reader_read(r, "hits_on_b", trials - 1, 2, got), OM_EINVAL);
    cr_assert_eq(om_h5_reader_read(r, "no_such_field", 0, 1, got), OM_EINVAL);
    cr_assert(strstr(om_error_message(), "no_such_field") != NULL, "%s", om_error_message());
    om_h5_reader_close(r);
    free(got);
}

Test(writer, attributes_round_trip)
{
    char path[512], *s = NULL;
    om_run_info info = sample_info(10, "combat");
    om_h5_reader *r = NULL;
    om_side_score side;
    uint64_t v = 0;
    struct {
        const char *name;
        const char *value;
    } strings[] = {
        {"schema", OM_H5_SCHEMA},
        {"game", info.game},
        {"program_version", info.program_version},
        {"command_line", info.command_line},
        {"scenario_name", info.scenario_name},
        {"scenario_yaml", info.scenario_text},
        {"title", info.title},
        {"ruleset", info.ruleset},
        {"kind", info.kind},
        {"unit_a", "Knights"},
        {"unit_b", "Spearmen"},
        {"loss_field_a", "stands_lost_a"},
        {"loss_unit_b", "stands"},
        {"options_json", info.options_json},
        {"rng", info.rng_scheme},
    };
    struct {
        const char *name;
        uint64_t value;
    } ints[] = {
        {"seed", UINT64_C(0xFFFFFFFFFFFFFFFF)},
        {"trials", 10},
        {"block_size", 8000},
        {"threads", 2},
        {"points_a", 110},
        {"points_b", 45},
        {"loss_start_a", 3},
    };

    write_file(tmpdir_path(path, sizeof path, "attrs.h5"), 10, "combat");
    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        cr_assert_eq(om_h5_reader_attr_string(r, strings[i].name, &s), OM_OK, "%s: %s",
                     strings[i].name, om_error_message());
        cr_expect_str_eq(s, strings[i].value, "attribute %s", strings[i].name);
        free(s);
    }
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        cr_assert_eq(om_h5_reader_attr_u64(r, ints[i].name, &v), OM_OK, "%s: %s", ints[i].name,
                     om_error_message());
        cr_expect_eq(v, ints[i].value, "attribute %s: %llu", ints[i].name,
                     (unsigned long long)v);
    }
    /* Each side's victory points, as the layout gave them. */
    for (int k = 0; k < 2; k++) {
        const om_side_score *want = &info.layout->side[k];
        cr_assert_eq(om_h5_reader_side(r, k, &side), OM_OK, "%s", om_error_message());
        cr_expect_str_eq(side.name, want->name);
        cr_expect_eq(side.points, want->points);
        cr_expect_str_eq(om_h5_reader_field(r, (size_t)side.loss_field)->name,
                         info.layout->fields[want->loss_field].name);
        cr_expect_eq(side.loss_start, want->loss_start);
        for (unsigned j = 0; j <= side.loss_start; j++)
            cr_expect_eq(side.vp_lost[j], want->vp_lost[j], "side %d, %u lost", k, j);
    }
    cr_expect_eq(side.vp_lost[3], 45u, "Spearmen destroyed: their 45 points");
    cr_expect_eq(side.vp_lost[2], 25u, "Spearmen down to 1 stand: half, rounded up to 5");
    cr_expect_str_eq(om_h5_reader_points_rule(r), info.layout->points_rule);

    /* created_utc: ISO 8601, "2024-05-01T12:34:56Z". */
    cr_assert_eq(om_h5_reader_attr_string(r, "created_utc", &s), OM_OK);
    cr_expect_eq(strlen(s), 20, "created_utc '%s'", s);
    cr_expect(s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':'
                  && s[19] == 'Z',
              "created_utc '%s'", s);
    free(s);

    /* Absent and mistyped attributes. */
    cr_expect_eq(om_h5_reader_attr_string(r, "no_such_attr", &s), OM_ENOTFOUND);
    cr_expect_null(s);
    cr_expect_eq(om_h5_reader_attr_u64(r, "no_such_attr", &v), OM_ENOTFOUND);
    cr_expect_eq(om_h5_reader_attr_string(r, "seed", &s), OM_EHDF5);
    cr_expect(strstr(om_error_message(), "seed") != NULL, "%s", om_error_message());
    cr_expect_eq(om_h5_reader_attr_u64(r, "title", &v), OM_EHDF5);
    om_h5_reader_close(r);
}

Test(writer, layout_selects_datasets)
{
    char path[512];
    om_h5_reader *r = NULL;
    const char *const kinds[2] = {"combat", "volley"};
    for (int m = 0; m < 2; m++) {
        const om_layout *l = layout_of(kinds[m]);
        tmpdir_path(path, sizeof path, m == 0 ? "combat.h5" : "volley.h5");
        write_file(path, 1000, kinds[m]);
        cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
        cr_expect_eq(om_h5_reader_field_count(r), l->field_count, "%s", kinds[m]);
        for (size_t i = 0; i < l->field_count; i++)
            cr_expect(om_h5_reader_has_field(r, l->fields[i].name), "%s in a %s file",
                      l->fields[i].name, kinds[m]);
        om_h5_reader_close(r);
    }
    /* Spelled out: a volley has no winner, a combat no drive back. */
    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK);
    cr_expect_not(om_h5_reader_has_field(r, "winner"));
    cr_expect(om_h5_reader_has_field(r, "drive_back_cm"));
    cr_expect(om_h5_reader_has_field(r, "hits_on_b"));
    om_h5_reader_close(r);
}

/* One row less than a chunk, one more, and a single row: chunking adapts. */
Test(writer, small_and_odd_trial_counts)
{
    const uint64_t counts[] = {1, 16383, 16385};
    char path[512];
    uint8_t *got = malloc(16385);
    for (size_t c = 0; c < 3; c++) {
        om_h5_reader *r = NULL;
        const om_layout *l = layout_of("combat");
        size_t winner = (size_t)om_layout_find(l, "winner");
        tmpdir_path(path, sizeof path, "small.h5");
        write_file(path, counts[c], "combat");
        cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
        cr_assert_eq(om_h5_reader_read(r, "winner", 0, (size_t)counts[c], got), OM_OK);
        for (uint64_t row = 0; row < counts[c]; row++)
            cr_assert_eq(got[row], expected_value(l, winner, row), "trials %llu row %llu",
                         (unsigned long long)counts[c], (unsigned long long)row);
        om_h5_reader_close(r);
    }
    free(got);
}

Test(writer, zero_trials_rejected)
{
    char path[512];
    om_run_info info = sample_info(0, "combat");
    om_layout empty = {0};
    om_h5_writer *w = (om_h5_writer *)(uintptr_t)1; /* must be reset to NULL */
    cr_assert_eq(om_h5_writer_create(&w, tmpdir_path(path, sizeof path, "zero.h5"), &info),
                 OM_EINVAL);
    cr_expect_null(w);
    cr_expect(strstr(om_error_message(), "zero.h5") != NULL, "%s", om_error_message());
    cr_expect_eq(tmpdir_entries(), 0, "no file and no temporary file");

    info = sample_info(10, "combat");
    info.layout = &empty;
    cr_expect_eq(om_h5_writer_create(&w, path, &info), OM_EINVAL, "a layout without fields");
    cr_expect_eq(tmpdir_entries(), 0);
}

Test(writer, out_of_range_put_rejected)
{
    char path[512];
    om_run_info info = sample_info(100, "combat");
    uint8_t rows[10 * 64];
    om_h5_writer *w = NULL;
    cr_assert_leq(info.layout->row_size, 64u);
    fill_rows(info.layout, rows, 0, 10);
    cr_assert_eq(om_h5_writer_create(&w, tmpdir_path(path, sizeof path, "r.h5"), &info), OM_OK);
    cr_expect_eq(om_h5_writer_put(w, 95, rows, 10), OM_EINVAL);
    cr_expect_eq(om_h5_writer_put(w, UINT64_MAX, rows, 10), OM_EINVAL, "no overflow");
    cr_expect(strstr(om_error_message(), "r.h5") != NULL, "%s", om_error_message());
    cr_expect_eq(om_h5_writer_put(w, 90, rows, 10), OM_OK, "the last rows fit");
    cr_expect_eq(om_h5_writer_put(w, 100, rows, 0), OM_OK, "an empty put at the end");
    cr_expect_eq(om_h5_writer_close(w), OM_OK);
}

Test(writer, nothing_visible_until_close_and_abort_leaves_nothing)
{
    char path[512];
    om_run_info info = sample_info(100, "combat");
    uint8_t rows[50 * 64];
    om_h5_writer *w = NULL;
    tmpdir_path(path, sizeof path, "aborted.h5");
    cr_assert_leq(info.layout->row_size, 64u);
    fill_rows(info.layout, rows, 0, 50);
    cr_assert_eq(om_h5_writer_create(&w, path, &info), OM_OK);
    cr_assert_eq(om_h5_writer_put(w, 0, rows, 50), OM_OK);
    cr_expect_neq(access(path, F_OK), 0, "the target does not exist before close");
    cr_expect_eq(tmpdir_entries(), 1, "only the temporary file exists");
    om_h5_writer_abort(w);
    cr_expect_eq(tmpdir_entries(), 0, "abort leaves no file and no temporary file");
    om_h5_writer_abort(NULL);
}

/* A failing close (the target is a directory, so rename fails) removes the
 * temporary file; so does closing a file no trial was put in. */
Test(writer, failed_close_leaves_no_temporary_file)
{
    char path[512];
    om_run_info info = sample_info(100, "combat");
    uint8_t rows[100 * 64];
    om_h5_writer *w = NULL;
    tmpdir_path(path, sizeof path, "target_is_a_dir.h5");
    cr_assert_eq(mkdir(path, 0700), 0);
    fill_rows(info.layout, rows, 0, 100);
    cr_assert_eq(om_h5_writer_create(&w, path, &info), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_writer_put(w, 0, rows, 100), OM_OK, "%s", om_error_message());
    cr_expect_eq(om_h5_writer_close(w), OM_EIO);
    cr_expect(strstr(om_error_message(), "target_is_a_dir.h5") != NULL, "%s",
              om_error_message());
    cr_expect_eq(tmpdir_entries(), 1, "only the directory is left");

    tmpdir_path(path, sizeof path, "empty.h5");
    cr_assert_eq(om_h5_writer_create(&w, path, &info), OM_OK);
    cr_expect_eq(om_h5_writer_close(w), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "no trial was run") != NULL, "%s", om_error_message());
    cr_expect_eq(tmpdir_entries(), 1, "no empty file is published");
}

Test(writer, unwritable_directory)
{
    char path[512];
    om_run_info info = sample_info(100, "combat");
    om_h5_writer *w = NULL;
    tmpdir_path(path, sizeof path, "no/such/dir/x.h5");
    cr_assert_eq(om_h5_writer_create(&w, path, &info), OM_EIO);
    cr_expect_null(w);
    cr_expect(strstr(om_error_message(), path) != NULL, "%s", om_error_message());
    cr_expect(strstr(om_error_message(), "No such file") != NULL, "%s", om_error_message());
}

/* A successful close replaces an existing file at the target path. */
Test(writer, close_replaces_existing_file)
{
    char path[512];
    FILE *f;
    om_h5_reader *r = NULL;
    tmpdir_path(path, sizeof path, "old.h5");
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("old contents\n", f);
    fclose(f);
    write_file(path, 100, "volley");
    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    om_h5_reader_close(r);
    cr_expect_eq(tmpdir_entries(), 1);
}

/* ----------------------------------------------------------- reader errors */

/* Check the last error: code, the file named, and a phrase. */
static void expect_open_error(const char *path, om_status code, const char *phrase)
{
    om_h5_reader *r = (om_h5_reader *)(uintptr_t)1; /* must be reset to NULL */
    om_status st = om_h5_reader_open(&r, path);
    cr_expect_eq(st, code, "%s: got %d (%s), expected %d", path, st, om_error_message(), code);
    cr_expect_null(r);
    cr_expect(strstr(om_error_message(), path) != NULL, "message names the file: %s",
              om_error_message());
    cr_expect(strstr(om_error_message(), phrase) != NULL, "message says '%s': %s", phrase,
              om_error_message());
}

Test(reader, missing_file)
{
    char path[512];
    expect_open_error(tmpdir_path(path, sizeof path, "missing.h5"), OM_EIO, "cannot open");
}

Test(reader, directory)
{
    expect_open_error(tmpdir_name, OM_EIO, "cannot open");
}

Test(reader, not_hdf5)
{
    char path[512];
    FILE *f = fopen(tmpdir_path(path, sizeof path, "text.h5"), "w");
    cr_assert_not_null(f);
    fputs("not hdf5\n", f);
    fclose(f);
    expect_open_error(path, OM_EHDF5, "is not an HDF5 file");
}

/* Copy the first `keep` bytes of `src` to `dst`. */
static void copy_prefix(const char *src, const char *dst, long keep)
{
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    char buf[4096];
    long done = 0;
    cr_assert(in != NULL && out != NULL);
    while (done < keep) {
        size_t want = (size_t)(keep - done < (long)sizeof buf ? keep - done : (long)sizeof buf);
        size_t got = fread(buf, 1, want, in);
        if (got == 0)
            break;
        fwrite(buf, 1, got, out);
        done += (long)got;
    }
    fclose(in);
    fclose(out);
}

Test(reader, truncated_file)
{
    char path[512], cut[512];
    struct stat sb;
    tmpdir_path(path, sizeof path, "whole.h5");
    write_file(path, 50000, "combat");
    cr_assert_eq(stat(path, &sb), 0);
    /* Half the file, and a cut inside the metadata at the start. */
    copy_prefix(path, tmpdir_path(cut, sizeof cut, "half.h5"), (long)sb.st_size / 2);
    expect_open_error(cut, OM_EHDF5, "half.h5");
    copy_prefix(path, tmpdir_path(cut, sizeof cut, "head.h5"), 3000);
    expect_open_error(cut, OM_EHDF5, "head.h5");
}

/* Open a valid file read-write with the HDF5 API to damage it. */
static hid_t open_rw(const char *path)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    cr_assert_geq(f, 0, "H5Fopen %s", path);
    return f;
}

Test(reader, no_schema_attribute)
{
    char path[512];
    hid_t f;
    write_file(tmpdir_path(path, sizeof path, "noschema.h5"), 100, "combat");
    f = open_rw(path);
    cr_assert_geq(H5Adelete(f, "schema"), 0);
    H5Fclose(f);
    expect_open_error(path, OM_EHDF5, "schema");

    /* A plain HDF5 file, as another program would write it. */
    f = H5Fcreate(tmpdir_path(path, sizeof path, "plain.h5"), H5F_ACC_TRUNC, H5P_DEFAULT,
                  H5P_DEFAULT);
    cr_assert_geq(f, 0);
    H5Fclose(f);
    expect_open_error(path, OM_EHDF5, "schema");
}

/* Replace root string attribute `name` by a fixed-length string (as h5py may write). */
static void set_fixed_string_attr(hid_t f, const char *name, const char *value)
{
    hid_t t = H5Tcopy(H5T_C_S1), s = H5Screate(H5S_SCALAR), a;
    H5Tset_size(t, strlen(value));
    H5Tset_strpad(t, H5T_STR_NULLPAD);
    if (H5Aexists(f, name) > 0)
        H5Adelete(f, name);
    a = H5Acreate2(f, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
    cr_assert_geq(a, 0);
    cr_assert_geq(H5Awrite(a, t, value), 0);
    H5Aclose(a);
    H5Sclose(s);
    H5Tclose(t);
}

/* Replace root string attribute `name` by a variable-length string (as h5py
 * writes a str). */
static void set_vlen_string_attr(hid_t f, const char *name, const char *value)
{
    hid_t t = H5Tcopy(H5T_C_S1), s = H5Screate(H5S_SCALAR), a;
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    if (H5Aexists(f, name) > 0)
        H5Adelete(f, name);
    a = H5Acreate2(f, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
    cr_assert_geq(a, 0);
    cr_assert_geq(H5Awrite(a, t, &value), 0);
    H5Aclose(a);
    H5Sclose(s);
    H5Tclose(t);
}

Test(reader, wrong_schema_and_fixed_length_strings)
{
    char path[512], *s = NULL;
    om_h5_reader *r = NULL;
    hid_t f;
    write_file(tmpdir_path(path, sizeof path, "schema.h5"), 100, "combat");
    f = open_rw(path);
    set_fixed_string_attr(f, "schema", "someone-elses/2");
    H5Fclose(f);
    expect_open_error(path, OM_EHDF5, "someone-elses/2");

    /* The right schema as a fixed-length string without its NUL is accepted,
     * and read back whole, as is the same title as a variable-length string
     * (the digest of the run is of the text, however stored). */
    f = open_rw(path);
    set_fixed_string_attr(f, "schema", OM_H5_SCHEMA);
    set_vlen_string_attr(f, "title", sample_info(100, "combat").title);
    H5Fclose(f);
    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_reader_attr_string(r, "title", &s), OM_OK);
    cr_expect_str_eq(s, sample_info(100, "combat").title);
    free(s);
    om_h5_reader_close(r);

    /* Another title is an edit the digest of the run tells. */
    f = open_rw(path);
    set_fixed_string_attr(f, "title", "Fixed");
    H5Fclose(f);
    expect_open_error(path, OM_EHDF5, "title is not what the digest of the run");
}

Test(reader, missing_trials_attribute_or_group)
{
    char path[512];
    hid_t f;
    write_file(tmpdir_path(path, sizeof path, "notrials.h5"), 100, "combat");
    f = open_rw(path);
    cr_assert_geq(H5Adelete(f, "trials"), 0);
    H5Fclose(f);
    expect_open_error(path, OM_EHDF5, "trials");

    write_file(tmpdir_path(path, sizeof path, "nogroup.h5"), 100, "combat");
    f = open_rw(path);
    cr_assert_geq(H5Ldelete(f, "trials", H5P_DEFAULT), 0);
    H5Fclose(f);
    expect_open_error(path, OM_EHDF5, "/trials");
}

/* Replace /trials/<name> by a uint8 dataset of `rows` rows, with the checksum
 * (checked) or without. */
static void replace_dataset_as(const char *path, const char *name, hsize_t rows, bool checked)
{
    hid_t f = open_rw(path), g = H5Gopen2(f, "trials", H5P_DEFAULT);
    hid_t s = H5Screate_simple(1, &rows, NULL), d;
    cr_assert_geq(H5Ldelete(g, name, H5P_DEFAULT), 0);
    if (checked)
        cr_assert_eq(om_h5_dataset_create(g, name, H5T_STD_U8LE, s, NULL, 0, path, name, &d),
                     OM_OK, "%s", om_error_message());
    else
        d = H5Dcreate2(g, name, H5T_STD_U8LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    cr_assert_geq(d, 0);
    H5Dclose(d);
    H5Sclose(s);
    H5Gclose(g);
    H5Fclose(f);
}

static void replace_dataset(const char *path, const char *name, hsize_t rows)
{
    replace_dataset_as(path, name, rows, true);
}

Test(reader, dataset_of_wrong_length)
{
    char path[512];
    write_file(tmpdir_path(path, sizeof path, "short.h5"), 100, "combat");
    replace_dataset(path, "hits_on_b", 99);
    expect_open_error(path, OM_EHDF5, "dataset /trials/hits_on_b has 99 rows, expected 100");

    /* A dataset of the right length without its type. */
    write_file(tmpdir_path(path, sizeof path, "untyped.h5"), 100, "combat");
    replace_dataset(path, "hits_on_b", 100);
    expect_open_error(path, OM_EHDF5, "dataset /trials/hits_on_b has no type attribute");

    /* A dataset without the checksum every dataset of the file carries. */
    write_file(tmpdir_path(path, sizeof path, "unchecked.h5"), 100, "combat");
    replace_dataset_as(path, "hits_on_b", 100, false);
    expect_open_error(path, OM_EHDF5, "/trials/hits_on_b carries no checksum");

    /* A field the list names but the group lacks. */
    write_file(tmpdir_path(path, sizeof path, "missing.h5"), 100, "combat");
    {
        hid_t f = open_rw(path);
        cr_assert_geq(H5Ldelete(f, "trials/hits_on_b", H5P_DEFAULT), 0);
        H5Fclose(f);
    }
    expect_open_error(path, OM_EHDF5, "names 'hits_on_b', which is not a dataset");

    /* A dataset the list does not name (added by another tool) is left alone. */
    write_file(tmpdir_path(path, sizeof path, "extra.h5"), 100, "combat");
    {
        om_h5_reader *r = NULL;
        hid_t f = open_rw(path);
        hsize_t rows = 7;
        hid_t s = H5Screate_simple(1, &rows, NULL);
        hid_t d = H5Dcreate2(f, "trials/extra", H5T_STD_U8LE, s, H5P_DEFAULT, H5P_DEFAULT,
                             H5P_DEFAULT);
        cr_assert_geq(d, 0);
        H5Dclose(d);
        H5Sclose(s);
        H5Fclose(f);
        cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
        cr_expect_not(om_h5_reader_has_field(r, "extra"));
        om_h5_reader_close(r);
    }
}

/* Set the u64 attribute `name` of the root of `f` to v. */
static void set_u64_attr(hid_t f, const char *name, uint64_t v)
{
    hid_t s = H5Screate(H5S_SCALAR), a;
    if (H5Aexists(f, name) > 0)
        H5Adelete(f, name);
    a = H5Acreate2(f, name, H5T_STD_U64LE, s, H5P_DEFAULT, H5P_DEFAULT);
    cr_assert_geq(a, 0);
    cr_assert_geq(H5Awrite(a, H5T_NATIVE_UINT64, &v), 0);
    H5Aclose(a);
    H5Sclose(s);
}

/* Set the string attribute `name` of `obj`, as the writer writes them. */
static void set_string_attr(hid_t obj, const char *name, const char *value)
{
    cr_assert_eq(om_h5_attr_write_string(obj, "test", name, value), OM_OK);
}

/*
 * The digest of the run written when it began (provenance_sha256) tells an
 * edited seed, scenario text, trials asked for or field list, and names it;
 * a missing or damaged digest is refused too. Attributes that are not the
 * run's (its end, written later) are not in it.
 */
Test(reader, edits_of_the_run_are_named)
{
    static const struct {
        const char *what, *phrase;
    } cases[] = {
        {"seed", "seed is not what the digest of the run"},
        {"scenario", "scenario_yaml is not what the digest"},
        {"both", "scenario_yaml, seed are not what the digest"},
        {"trials", "trials_requested is not what the digest"},
        {"fields", "trials/fields is not what the digest"},
        {"gone", "no provenance_sha256 attribute"},
        {"damaged", "the digest of the run (provenance_sha256) is damaged"},
    };
    char path[512];
    om_h5_reader *r = NULL;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *what = cases[i].what;
        char *text = NULL;
        hid_t f;
        write_file(tmpdir_path(path, sizeof path, "edited.h5"), 100, "combat");
        f = open_rw(path);
        if (strcmp(what, "seed") == 0 || strcmp(what, "both") == 0)
            set_u64_attr(f, "seed", 77);
        if (strcmp(what, "scenario") == 0 || strcmp(what, "both") == 0)
            set_string_attr(f, "scenario_yaml", "title: another\n");
        if (strcmp(what, "trials") == 0)
            set_u64_attr(f, "trials_requested", 101);
        if (strcmp(what, "fields") == 0) {
            hid_t g = H5Gopen2(f, "trials", H5P_DEFAULT);
            char *list = NULL;
            cr_assert_eq(om_h5_attr_read_string(g, path, "fields", &list), OM_OK);
            set_string_attr(g, "fields", strchr(list, ' ') + 1);
            free(list);
            H5Gclose(g);
        }
        if (strcmp(what, "gone") == 0)
            cr_assert_geq(H5Adelete(f, "provenance_sha256"), 0);
        if (strcmp(what, "damaged") == 0) {
            cr_assert_eq(om_h5_attr_read_string(f, path, "provenance_sha256", &text), OM_OK);
            text[4] = text[4] == '0' ? '1' : '0';
            set_string_attr(f, "provenance_sha256", text);
            free(text);
        }
        H5Fclose(f);
        expect_open_error(path, OM_EHDF5, cases[i].phrase);
    }

    /* The run's end (trials, complete, stop_reason) is written after it
     * began: not in the digest. */
    write_file(tmpdir_path(path, sizeof path, "end.h5"), 100, "combat");
    {
        hid_t f = open_rw(path);
        set_string_attr(f, "stop_reason", "another reason");
        H5Fclose(f);
    }
    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    om_h5_reader_close(r);
}

/* A file of an older program version: a clear message, naming the schema. */
Test(reader, older_schema)
{
    char path[512];
    hid_t f;
    write_file(tmpdir_path(path, sizeof path, "old.h5"), 100, "combat");
    f = open_rw(path);
    set_fixed_string_attr(f, "schema", "oddsmaster-results/1");
    H5Fclose(f);
    expect_open_error(path, OM_EHDF5, "written by another version of oddsmaster");
    /* Schema /2: its datasets carried no checksums. */
    f = open_rw(path);
    set_fixed_string_attr(f, "schema", OM_H5_SCHEMA_V2);
    H5Fclose(f);
    expect_open_error(path, OM_EHDF5, "whose files carry no checksums");
}

/*
 * A winner enumeration numbered differently (a=10, b=20, draw=30, none=40) is read
 * by name, as our codes 0..3.
 */
Test(reader, winner_enum_read_by_name)
{
    static const char *const names[4] = {"a", "b", "draw", "none"};
    const uint8_t codes[4] = {10, 20, 30, 40};
    uint8_t data[8] = {10, 20, 30, 40, 40, 30, 20, 10}, got[8];
    char path[512];
    hsize_t rows = 8;
    om_h5_reader *r = NULL;
    hid_t f, t, s, d;

    write_file(tmpdir_path(path, sizeof path, "enum.h5"), 8, "combat");
    f = open_rw(path);
    t = H5Tenum_create(H5T_NATIVE_UINT8);
    for (int i = 0; i < 4; i++)
        H5Tenum_insert(t, names[i], &codes[i]);
    s = H5Screate_simple(1, &rows, NULL);
    cr_assert_geq(H5Ldelete(f, "trials/winner", H5P_DEFAULT), 0);
    cr_assert_eq(om_h5_dataset_create(f, "trials/winner", t, s, NULL, 0, path, "winner", &d),
                 OM_OK, "%s", om_error_message());
    cr_assert_geq(H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), 0);
    set_fixed_string_attr(d, "type", "winner");
    H5Dclose(d);
    H5Sclose(s);
    H5Tclose(t);
    H5Fclose(f);

    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_reader_read(r, "winner", 0, 8, got), OM_OK, "%s", om_error_message());
    for (int i = 0; i < 8; i++)
        cr_expect_eq(got[i], data[i] / 10 - 1, "row %d: %u", i, got[i]);
    om_h5_reader_close(r);
}

Test(reader, null_arguments)
{
    om_h5_reader *r = NULL;
    cr_expect_eq(om_h5_reader_open(NULL, "x.h5"), OM_EINVAL);
    cr_expect_eq(om_h5_reader_open(&r, NULL), OM_EINVAL);
    om_h5_reader_close(NULL);
}

/* ------------------------------------------------------- encoded chunks */

/*
 * Blocks encoded by h5chunk.c and written with H5Dwrite_chunk read back through
 * HDF5's own scale-offset decoder exactly: for every width of values (one
 * value, then spans needing 1 to 8 bits, offsets from 0 and from high
 * minimums, spans past 128 stored whole), a full block and a short last one,
 * and a winner stored as it is; the second and third blocks' bytes written
 * together after their puts (om_h5_chunks_defer, om_h5_chunks_write_out).
 * Also: the file's tallies are the blocks'.
 */
Test(writer, encoded_chunks_read_back_exactly)
{
    /* A layout of 10 count fields, a flag and a winner, in rows of 12 bytes. */
    om_layout l = {.row_size = 12, .field_count = 12};
    static const struct { uint8_t min, span; } cols[10] = {
        {7, 1}, {0, 2}, {3, 3}, {0, 4}, {100, 9}, {0, 17}, {200, 33}, {1, 100},
        {50, 129}, {0, 255}};
    static char names[12][16];
    const size_t block = 1000, trials = 2500; /* two full blocks and a short one */
    uint8_t *rows = malloc(block * l.row_size + OM_TALLY_ROW_SLACK), *got = malloc(trials);
    om_tally *t = malloc(sizeof *t), *sum = malloc(sizeof *sum), *back = malloc(sizeof *back);
    om_tally_work *tw = NULL;
    om_h5_chunks *sets[2] = {NULL, NULL};
    om_h5_writer *w = NULL;
    om_h5_reader *r = NULL;
    char path[512];

    for (size_t f = 0; f < 12; f++) {
        snprintf(names[f], sizeof names[f], "f%zu", f);
        l.fields[f] = (om_field){names[f], "a field", NULL, f,
                                 f == 10 ? OM_FIELD_FLAG : OM_FIELD_COUNT, 0};
    }
    l.fields[11].type = OM_FIELD_WINNER;
    l.fields[11].title = "Outcome";
    l.side[0].loss_field = l.side[1].loss_field = -1;
    om_run_info info = sample_info(trials, "combat");
    info.layout = &l;
    info.block_size = block;
    cr_assert_eq(om_tally_work_alloc(&l, &tw), OM_OK);
    cr_assert_eq(om_h5_chunks_alloc(&l, block, &sets[0]), OM_OK);
    cr_assert_eq(om_h5_chunks_alloc(&l, block, &sets[1]), OM_OK);
    cr_assert_eq(om_h5_writer_create(&w, tmpdir_path(path, sizeof path, "chunks.h5"), &info),
                 OM_OK, "%s", om_error_message());
    om_tally_clear(sum, l.field_count);
    for (size_t first = 0; first < trials; first += block) {
        size_t n = trials - first < block ? trials - first : block;
        for (size_t i = 0; i < n; i++) {
            uint64_t h = mix(first + i);
            for (size_t f = 0; f < 10; f++)
                rows[i * l.row_size + f] = (uint8_t)(cols[f].min + (h >> (3 * f)) % cols[f].span);
            rows[i * l.row_size + 10] = (uint8_t)(h >> 40) & 1;
            rows[i * l.row_size + 11] = (uint8_t)((h >> 50) % 4);
        }
        /* The first block's bytes are written by its put; the second's and
         * the third's after both puts, as a run writes two blocks put one
         * after the other: together, the third block's list first (the
         * writes are sorted by their place in the file). */
        om_h5_chunks *chunks = sets[first / block % 2];
        om_tally_block(tw, rows, n, t);
        om_tally_add(sum, t);
        om_h5_chunks_encode(chunks, rows, n, t);
        om_h5_chunks_defer(chunks, first > 0);
        cr_assert_eq(om_h5_writer_put_block(w, first, n, chunks, t), OM_OK, "%s",
                     om_error_message());
    }
    cr_assert_eq(om_h5_chunks_write_out(sets, 2, path), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_writer_close(w), OM_OK, "%s", om_error_message());

    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    for (size_t f = 0; f < 12; f++) {
        cr_assert_eq(om_h5_reader_read(r, names[f], 0, trials, got), OM_OK, "%s",
                     om_error_message());
        for (size_t i = 0; i < trials; i++) {
            uint64_t h = mix(i);
            uint8_t want = f < 10 ? (uint8_t)(cols[f].min + (h >> (3 * f)) % cols[f].span)
                         : f == 10 ? (uint8_t)((h >> 40) & 1) : (uint8_t)((h >> 50) % 4);
            if (got[i] != want)
                cr_assert_fail("field %zu (span %u) row %zu: read %u, wrote %u", f,
                               f < 10 ? cols[f].span : 2, i, got[i], want);
        }
    }
    cr_assert_eq(om_h5_reader_tally(r, back), OM_OK, "%s", om_error_message());
    cr_expect_eq(back->trials, trials);
    cr_expect_eq(memcmp(back->hist, sum->hist, 12 * sizeof sum->hist[0]), 0, "tallies");
    om_h5_reader_close(r);
    om_h5_chunks_free(sets[0]);
    om_h5_chunks_free(sets[1]);
    om_tally_work_free(tw);
    free(rows);
    free(got);
    free(t);
    free(sum);
    free(back);
}

/* ------------------------------------------------------ deferred writes */

/* The byte a deferred-writes test keeps at offset i of its memory. */
static uint8_t memory_byte(size_t i)
{
    return (uint8_t)(i * 131u + 7u);
}

/* The file `path` read whole into buf (up to size bytes); its length. */
static size_t read_back(const char *path, uint8_t *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    size_t n;
    cr_assert_not_null(f, "%s: %s", path, strerror(errno));
    n = fread(buf, 1, size, f);
    fclose(f);
    return n;
}

/*
 * om_h5_deferred_write_out (h5vfd.c) on two lists made by hand, as the chunks
 * of two blocks put one after the other are: the writes of both, listed out
 * of the file's order, land where they were placed, pieces that follow one
 * another in the file but not in memory included; a write of no bytes (which
 * follows no other in the file) writes nothing and is no error; the lists are
 * emptied.
 */
Test(writer, deferred_writes_of_two_lists)
{
    char path[512];
    uint8_t mem[64], back[128];
    _Atomic(haddr_t) written_from = 0;
    om_h5_deferred_write wa[3] = {{16, mem + 16, 8}, {0, mem + 0, 8}, {60, mem + 48, 0}};
    om_h5_deferred_write wb[3] = {{8, mem + 8, 8}, {24, mem + 32, 8}, {32, mem + 24, 8}};
    om_h5_deferred a = {.n = 3, .cap = 3, .w = wa, .written_from = &written_from};
    om_h5_deferred b = {.n = 3, .cap = 3, .w = wb, .written_from = &written_from};
    om_h5_deferred *const lists[2] = {&b, &a};
    for (size_t i = 0; i < sizeof mem; i++)
        mem[i] = memory_byte(i);
    a.fd = b.fd = open(tmpdir_path(path, sizeof path, "deferred.bin"),
                       O_RDWR | O_CREAT | O_TRUNC, 0666);
    cr_assert_geq(a.fd, 0, "%s", strerror(errno));
    cr_expect_eq(om_h5_deferred_write_out(lists, 2, path), OM_OK, "%s", om_error_message());
    cr_expect_eq(a.n, 0u, "the lists are emptied");
    cr_expect_eq(b.n, 0u);
    close(a.fd);
    cr_assert_eq(read_back(path, back, sizeof back), 40u, "the file ends with the last byte");
    cr_expect_eq(memcmp(back, mem, 24), 0, "bytes 0..24: mem 0..24");
    cr_expect_eq(memcmp(back + 24, mem + 32, 8), 0, "bytes 24..32: mem 32..40");
    cr_expect_eq(memcmp(back + 32, mem + 24, 8), 0, "bytes 32..40: mem 24..32");
}

/*
 * A deferred write that fails part way (a full disk; here the file size
 * limit, past which a write is cut short and the next fails with EFBIG): the
 * bytes before the limit are those placed there (a write cut short inside
 * the third of three pieces of memory is carried on from where it stopped),
 * the error names the file and the system's reason, and the lists are
 * emptied all the same.
 */
Test(writer, deferred_write_cut_short)
{
    char path[512];
    uint8_t mem[64], back[128];
    _Atomic(haddr_t) written_from = 0;
    om_h5_deferred_write wa[2] = {{0, mem + 40, 8}, {16, mem + 0, 8}};
    om_h5_deferred_write wb[1] = {{8, mem + 20, 8}};
    om_h5_deferred a = {.n = 2, .cap = 2, .w = wa, .written_from = &written_from};
    om_h5_deferred b = {.n = 1, .cap = 1, .w = wb, .written_from = &written_from};
    om_h5_deferred *const lists[2] = {&a, &b};
    struct rlimit old, lim;
    om_status st;
    for (size_t i = 0; i < sizeof mem; i++)
        mem[i] = memory_byte(i);
    a.fd = b.fd = open(tmpdir_path(path, sizeof path, "cut.bin"),
                       O_RDWR | O_CREAT | O_TRUNC, 0666);
    cr_assert_geq(a.fd, 0, "%s", strerror(errno));
    cr_assert_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
    cr_assert_neq(signal(SIGXFSZ, SIG_IGN), SIG_ERR);
    lim = (struct rlimit){.rlim_cur = 20, .rlim_max = old.rlim_max};
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
    st = om_h5_deferred_write_out(lists, 2, path);
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
    close(a.fd);
    cr_expect_eq(st, OM_EIO);
    cr_expect(strstr(om_error_message(), path) != NULL, "%s", om_error_message());
    cr_expect(strstr(om_error_message(), strerror(EFBIG)) != NULL, "%s", om_error_message());
    cr_expect_eq(a.n, 0u, "the lists are emptied");
    cr_expect_eq(b.n, 0u);
    cr_assert_eq(read_back(path, back, sizeof back), 20u, "written up to the limit");
    cr_expect_eq(memcmp(back, mem + 40, 8), 0, "bytes 0..8");
    cr_expect_eq(memcmp(back + 8, mem + 20, 8), 0, "bytes 8..16");
    cr_expect_eq(memcmp(back + 16, mem + 0, 4), 0, "bytes 16..20");
}

/* ------------------------------------------------- chunks from classes */

/* The classes test's rows: 40 one-byte fields, the last a winner, the one
 * before a flag; counts with spans of 1 to 200 values (the 8-bit ones stored
 * whole), some from high minimums. */
#define CLASSES_ROW 40
#define CLASSES_N 300
/* Fields from here to the flag hold their smallest value in the classes below
 * CLASSES_N / 2 (and in the rows of no class of a block that keeps to them). */
#define CLASSES_NARROW_FROM 12

static uint8_t classes_min(size_t f)
{
    return (uint8_t)(f % 3 == 0 ? 0 : 5 * f);
}

static unsigned classes_span(size_t f)
{
    return f == 5 ? 200u : 1u + (unsigned)(f * 7 % 11);
}

/* Field f of a row drawn from h (narrow: the fields from CLASSES_NARROW_FROM
 * on hold their smallest value). */
static uint8_t classes_value(uint64_t h, size_t f, bool narrow)
{
    if (f == CLASSES_ROW - 1)
        return (uint8_t)(mix(h + f) % 4);
    if (f == CLASSES_ROW - 2)
        return (uint8_t)(mix(h + f) & 1);
    if (narrow && f >= CLASSES_NARROW_FROM)
        return classes_min(f);
    return (uint8_t)(classes_min(f) + mix(h + f) % classes_span(f));
}

/*
 * Trials that come with classes encode from their classes
 * (om_h5_chunks_encode_classes) to the very chunks of their rows written
 * out (om_h5_chunks_encode): rows of 40 bytes (three groups of 16 columns,
 * more than 16 of them read), 300 classes, the rows of trials of a class
 * filled with a byte no row holds. Blocks of 1000 trials (not a multiple of
 * 16): the narrow classes alone, whose columns read are fewer, then classes
 * and no class mixed, which read more (so the classes' picked columns are
 * made again, and again after); no class at all; classes only; and a short
 * last block of 437.
 */
Test(writer, chunks_from_classes_are_chunks_from_rows)
{
    om_layout l = {.row_size = CLASSES_ROW, .field_count = CLASSES_ROW};
    static char names[CLASSES_ROW][16];
    enum { MIXED, NARROW, NO_CLASS, CLASSES_ONLY, MODES };
    const size_t block = 1000, blocks[] = {1000, 1000, 1000, 1000, 1000, 437};
    const int modes[] = {NARROW, MIXED, NARROW, NO_CLASS, CLASSES_ONLY, MIXED};
    uint8_t *class_rows = malloc(CLASSES_N * CLASSES_ROW);
    uint8_t *rows = malloc(block * CLASSES_ROW + OM_TALLY_ROW_SLACK);
    uint8_t *unwritten = malloc(block * CLASSES_ROW + OM_TALLY_ROW_SLACK);
    uint16_t *cls = malloc(block * sizeof *cls);
    om_tally *t = malloc(sizeof *t);
    om_tally_work *tw = NULL;
    om_h5_chunks *from_rows = NULL, *from_classes = NULL;
    size_t read_small = 0, read_large = 0;

    for (size_t f = 0; f < CLASSES_ROW; f++) {
        snprintf(names[f], sizeof names[f], "f%zu", f);
        l.fields[f] = (om_field){names[f], "a field", NULL, f,
                                 f == CLASSES_ROW - 2 ? OM_FIELD_FLAG : OM_FIELD_COUNT, 0};
    }
    l.fields[CLASSES_ROW - 1].type = OM_FIELD_WINNER;
    l.fields[CLASSES_ROW - 1].title = "Outcome";
    l.side[0].loss_field = l.side[1].loss_field = -1;
    for (size_t k = 0; k < CLASSES_N; k++)
        for (size_t f = 0; f < CLASSES_ROW; f++)
            class_rows[k * CLASSES_ROW + f] =
                classes_value(mix(k + 1000003), f, k < CLASSES_N / 2);
    cr_assert_eq(om_tally_work_alloc(&l, &tw), OM_OK);
    cr_assert_eq(om_h5_chunks_alloc(&l, block, &from_rows), OM_OK);
    cr_assert_eq(om_h5_chunks_alloc(&l, block, &from_classes), OM_OK);
    cr_expect_eq(om_h5_chunks_classes(from_classes, class_rows, 0), OM_EINVAL);
    cr_expect_eq(om_h5_chunks_classes(from_classes, class_rows, OM_LAYOUT_CLASSES_MAX + 1),
                 OM_EINVAL);
    cr_assert_eq(om_h5_chunks_classes(from_classes, class_rows, CLASSES_N), OM_OK);

    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
        const size_t n = blocks[b];
        size_t n_read = 0;
        memset(unwritten, 0xEE, block * CLASSES_ROW + OM_TALLY_ROW_SLACK);
        for (size_t i = 0; i < n; i++) {
            uint64_t h = mix(b * 1000000 + i);
            bool of_class = modes[b] == CLASSES_ONLY || (modes[b] != NO_CLASS && h % 4 != 0);
            size_t k = (size_t)(h >> 16) % (modes[b] == NARROW ? CLASSES_N / 2 : CLASSES_N);
            uint8_t *row = rows + i * CLASSES_ROW;
            if (of_class) {
                cls[i] = (uint16_t)k;
                memcpy(row, class_rows + k * CLASSES_ROW, CLASSES_ROW);
                continue;
            }
            cls[i] = OM_LAYOUT_NO_CLASS;
            for (size_t f = 0; f < CLASSES_ROW; f++)
                row[f] = classes_value(h, f, modes[b] == NARROW);
            memcpy(unwritten + i * CLASSES_ROW, row, CLASSES_ROW);
        }
        om_tally_block(tw, rows, n, t);
        om_h5_chunks_encode(from_rows, rows, n, t);
        om_h5_chunks_encode_classes(from_classes, unwritten, cls, n, t);
        for (size_t f = 0; f < CLASSES_ROW; f++) {
            size_t size = om_h5_chunks_size(from_rows, f);
            uint8_t min, max;
            om_tally_range(t, f, &min, &max);
            n_read += max > min;
            cr_assert_eq(om_h5_chunks_size(from_classes, f), size, "block %zu field %zu: %zu "
                         "bytes from classes, %zu from rows", b, f,
                         om_h5_chunks_size(from_classes, f), size);
            cr_assert_eq(memcmp(om_h5_chunks_data(from_classes, f),
                                om_h5_chunks_data(from_rows, f), size), 0,
                         "block %zu (%zu trials) field %zu: other bytes from classes", b, n, f);
        }
        if (modes[b] == NARROW)
            read_small = n_read;
        else if (modes[b] == MIXED)
            read_large = n_read;
    }
    /* The narrow block reads at most a group of columns, the others more. */
    cr_expect(read_small > 0 && read_small <= 16 && read_large > 16, "columns read: %zu, %zu",
              read_small, read_large);
    om_h5_chunks_free(from_rows);
    om_h5_chunks_free(from_classes);
    om_tally_work_free(tw);
    free(class_rows);
    free(rows);
    free(unwritten);
    free(cls);
    free(t);
}

/* ------------------------------------------------------- two-byte counts */

/* The values of the two-byte test layout's fields in row i. */
static uint16_t wide_value(size_t i, unsigned k)
{
    uint64_t h = mix(i * 7 + k);
    /* Field 0 spans 0..999, field 1 a handful of multiples of 5 above 255. */
    return k == 0 ? (uint16_t)(h % 1000) : (uint16_t)(300 + 5 * (h % 4));
}

/*
 * Two-byte count fields (OM_FIELD_COUNT16, a turn's victory points) in rows
 * wider than the tally's distinct-row keys: written as encoded blocks and,
 * for the short last block, with om_h5_writer_put; read back as uint16
 * datasets, exactly; their tallies are 65536-bin histograms that add up to
 * the rows; a one-byte read of them is refused.
 */
Test(writer, two_byte_counts_round_trip)
{
    /* A count, two two-byte counts at odd offsets, a flag; 80-byte rows. */
    om_layout l = {.row_size = 80, .field_count = 4};
    const size_t block = 1000, trials = 2300;
    uint8_t *rows = calloc(block * l.row_size + OM_TALLY_ROW_SLACK, 1);
    uint16_t *got = malloc(trials * sizeof *got);
    uint8_t *got8 = malloc(trials);
    uint64_t *want_hist = calloc(OM_TALLY_WIDE_BINS, sizeof *want_hist);
    om_tally *t = malloc(sizeof *t), *back = malloc(sizeof *back);
    om_tally_work *tw = NULL;
    om_h5_chunks *chunks = NULL;
    om_h5_writer *w = NULL;
    om_h5_reader *r = NULL;
    char path[512];

    l.fields[0] = (om_field){"small", "a count", NULL, 0, OM_FIELD_COUNT, 0};
    l.fields[1] = (om_field){"vp_a", "two bytes", NULL, 1, OM_FIELD_COUNT16, 0};
    l.fields[2] = (om_field){"vp_b", "two bytes", NULL, 5, OM_FIELD_COUNT16, 0};
    l.fields[3] = (om_field){"flag", "a flag", NULL, 79, OM_FIELD_FLAG, 0};
    l.side[0].loss_field = l.side[1].loss_field = -1;
    cr_assert_eq(om_layout_wide_count(&l), 2);
    om_run_info info = sample_info(trials, "combat");
    info.layout = &l;
    info.block_size = block;
    cr_assert_eq(om_tally_work_alloc(&l, &tw), OM_OK);
    cr_assert_eq(om_h5_chunks_alloc(&l, block, &chunks), OM_OK);
    cr_assert_eq(om_h5_writer_create(&w, tmpdir_path(path, sizeof path, "wide.h5"), &info),
                 OM_OK, "%s", om_error_message());
    for (size_t first = 0; first < trials; first += block) {
        size_t n = trials - first < block ? trials - first : block;
        for (size_t i = 0; i < n; i++) {
            uint8_t *row = rows + i * l.row_size;
            for (unsigned k = 0; k < 2; k++) {
                uint16_t v = wide_value(first + i, k);
                row[l.fields[1 + k].offset] = (uint8_t)(v & 0xff);
                row[l.fields[1 + k].offset + 1] = (uint8_t)(v >> 8);
            }
            row[0] = (uint8_t)(first + i);
            row[79] = (uint8_t)((first + i) & 1);
            want_hist[wide_value(first + i, 0)]++;
        }
        if (n < block) {
            cr_assert_eq(om_h5_writer_put(w, first, rows, n), OM_OK, "%s", om_error_message());
            continue;
        }
        om_tally_block(tw, rows, n, t);
        cr_assert_eq(t->wide_count, 2);
        om_h5_chunks_encode(chunks, rows, n, t);
        cr_assert_eq(om_h5_writer_put_block(w, first, n, chunks, t), OM_OK, "%s",
                     om_error_message());
    }
    cr_assert_eq(om_h5_writer_close(w), OM_OK, "%s", om_error_message());

    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    cr_expect_eq(om_h5_reader_field(r, 1)->type, OM_FIELD_COUNT16);
    for (unsigned k = 0; k < 2; k++) {
        cr_assert_eq(om_h5_reader_read16(r, l.fields[1 + k].name, 0, trials, got), OM_OK, "%s",
                     om_error_message());
        for (size_t i = 0; i < trials; i++)
            if (got[i] != wide_value(i, k))
                cr_assert_fail("%s row %zu: read %u, wrote %u", l.fields[1 + k].name, i,
                               got[i], wide_value(i, k));
    }
    cr_assert_eq(om_h5_reader_read16(r, "small", 0, trials, got), OM_OK);
    for (size_t i = 0; i < trials; i++)
        cr_assert_eq(got[i], (uint8_t)i, "a one-byte field read as 16 bits");
    cr_expect_eq(om_h5_reader_read(r, "vp_a", 0, trials, got8), OM_EINVAL);
    cr_assert_eq(om_h5_reader_tally(r, back), OM_OK, "%s", om_error_message());
    cr_assert_not_null(om_tally_wide(back, 1));
    cr_expect_null(om_tally_wide(back, 0));
    cr_expect_eq(memcmp(om_tally_wide(back, 1), want_hist,
                        OM_TALLY_WIDE_BINS * sizeof want_hist[0]), 0, "tally of vp_a");
    cr_expect_eq(om_tally_wide(back, 2)[300] + om_tally_wide(back, 2)[305] +
                     om_tally_wide(back, 2)[310] + om_tally_wide(back, 2)[315],
                 trials, "tally of vp_b");
    om_h5_reader_close(r);
    om_h5_chunks_free(chunks);
    om_tally_work_free(tw);
    free(rows);
    free(got);
    free(got8);
    free(want_hist);
    free(t);
    free(back);
}

/* ------------------------------------------------------------ exact laws */

/* A law of layout l: field k is k % 3 or k % 3 + 1, even odds, known for
 * every field but the last (whose reason says so). */
static om_exact *sample_law(const om_layout *l)
{
    om_exact *x = NULL;
    cr_assert_eq(om_exact_alloc(l->field_count, &x), OM_OK);
    for (size_t k = 0; k + 1 < l->field_count; k++) {
        x->known[k] = true;
        x->p[k * OM_EXACT_VALUES + k % 3] = 0.5;
        x->p[k * OM_EXACT_VALUES + k % 3 + 1] = 0.5;
    }
    x->outcomes = 42;
    om_exact_set_method(x, "enumerating every outcome of the dice (42 outcomes)");
    om_exact_set_reason(x, "the last field is left out");
    return x;
}

/* A file of 100 rows of kind combat recording law x (NULL: none). */
static void write_with_law(const char *path, const om_exact *x)
{
    om_run_info info = sample_info(100, "combat");
    om_h5_writer *w = NULL;
    uint8_t *rows = malloc(100 * info.layout->row_size);
    cr_assert_not_null(rows);
    info.exact = x;
    fill_rows(info.layout, rows, 0, 100);
    cr_assert_eq(om_h5_writer_create(&w, path, &info), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_writer_put(w, 0, rows, 100), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_writer_close(w), OM_OK, "%s", om_error_message());
    free(rows);
}

/* The exact law comes back as it was written: the fields it knows, their
 * probabilities, its method, reason and outcomes. */
Test(writer, exact_law_round_trip)
{
    char path[512];
    const om_layout *l = layout_of("combat");
    om_exact *x = sample_law(l), *got = NULL;
    om_h5_reader *r = NULL;
    write_with_law(tmpdir_path(path, sizeof path, "exact.h5"), x);
    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_reader_exact(r, &got), OM_OK, "%s", om_error_message());
    cr_assert_eq(got->field_count, l->field_count);
    for (size_t k = 0; k < l->field_count; k++) {
        cr_expect_eq(got->known[k], x->known[k], "%s", l->fields[k].name);
        for (unsigned v = 0; v < OM_EXACT_VALUES; v++)
            cr_expect_eq(om_exact_p(got, k, v), om_exact_p(x, k, v), "%s = %u",
                         l->fields[k].name, v);
    }
    cr_expect_str_eq(got->method, x->method);
    cr_expect_str_eq(got->reason, x->reason);
    cr_expect_eq(got->outcomes, 42u);
    om_exact_free(got);
    om_h5_reader_close(r);
    om_exact_free(x);
}

/* A law of another layout is refused before any file is made. */
Test(writer, exact_law_of_another_layout)
{
    char path[512];
    om_run_info info = sample_info(100, "combat");
    om_h5_writer *w = NULL;
    om_exact *x = NULL;
    cr_assert_eq(om_exact_alloc(info.layout->field_count + 1, &x), OM_OK);
    info.exact = x;
    cr_expect_eq(om_h5_writer_create(&w, tmpdir_path(path, sizeof path, "bad.h5"), &info),
                 OM_EINVAL);
    cr_expect(strstr(om_error_message(), "an exact law of") != NULL, "%s", om_error_message());
    cr_expect_null(w);
    cr_expect_eq(tmpdir_entries(), 0, "no file, no temporary file");
    om_exact_free(x);
}

/* A file without /exact (an older program's) has no law: OM_ENOTFOUND. */
Test(reader, no_exact_law)
{
    char path[512];
    om_h5_reader *r = NULL;
    om_exact *got = (om_exact *)(uintptr_t)1; /* must be reset to NULL */
    write_with_law(tmpdir_path(path, sizeof path, "plain.h5"), NULL);
    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    cr_expect_eq(om_h5_reader_exact(r, &got), OM_ENOTFOUND);
    cr_expect_null(got);
    om_h5_reader_close(r);
}

/* Open `path`, read its exact law and expect `code` with `phrase`. */
static void expect_exact_error(const char *path, om_status code, const char *phrase)
{
    om_h5_reader *r = NULL;
    om_exact *got = NULL;
    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    cr_expect_eq(om_h5_reader_exact(r, &got), code, "%s: %s", path, om_error_message());
    cr_expect_null(got);
    cr_expect(strstr(om_error_message(), path) != NULL, "names the file: %s",
              om_error_message());
    cr_expect(strstr(om_error_message(), phrase) != NULL, "says '%s': %s", phrase,
              om_error_message());
    om_h5_reader_close(r);
}

/* A damaged /exact is an error naming the file and what is wrong: a name
 * that is not a field, probabilities that do not sum to 1, a missing
 * attribute. */
Test(reader, damaged_exact_law)
{
    char path[512];
    const om_layout *l = layout_of("combat");
    om_exact *x = sample_law(l);
    hid_t f, g;

    write_with_law(tmpdir_path(path, sizeof path, "names.h5"), x);
    f = open_rw(path);
    g = H5Gopen2(f, "exact", H5P_DEFAULT);
    set_fixed_string_attr(g, "fields", "winner no_such_field");
    H5Gclose(g);
    H5Fclose(f);
    expect_exact_error(path, OM_EHDF5, "names 'no_such_field', which is not a one-byte field");

    write_with_law(tmpdir_path(path, sizeof path, "sum.h5"), x);
    {
        hsize_t n = 1;
        const double half = 0.5;
        hid_t s = H5Screate_simple(1, &n, NULL), d;
        /* a well-formed, checksummed dataset whose values are wrong: the
         * reader must refuse it for its sum, not for its filters */
        hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
        cr_assert_geq(H5Pset_chunk(dcpl, 1, &n), 0);
        cr_assert_geq(H5Pset_fletcher32(dcpl), 0);
        f = open_rw(path);
        cr_assert_geq(H5Ldelete(f, "exact/hits_on_b", H5P_DEFAULT), 0);
        d = H5Dcreate2(f, "exact/hits_on_b", H5T_IEEE_F64LE, s, H5P_DEFAULT, dcpl,
                       H5P_DEFAULT);
        H5Pclose(dcpl);
        cr_assert_geq(d, 0);
        cr_assert_geq(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &half), 0);
        H5Dclose(d);
        H5Sclose(s);
        H5Fclose(f);
    }
    expect_exact_error(path, OM_EHDF5, "the probabilities of hits_on_b sum to 0.5");

    write_with_law(tmpdir_path(path, sizeof path, "attr.h5"), x);
    f = open_rw(path);
    cr_assert_geq(H5Adelete_by_name(f, "exact", "method", H5P_DEFAULT), 0);
    H5Fclose(f);
    expect_exact_error(path, OM_EHDF5, "/exact is damaged");
    om_exact_free(x);
}

/* ------------------------------------------------------------ checksums */

/* HDF5's own Fletcher-32 loop (H5_checksum_fletcher32 in H5checksum.c), word
 * by word, to check om_h5_fletcher32 against. */
static uint32_t hdf5_fletcher32(const uint8_t *data, size_t n)
{
    size_t len = n / 2;
    uint32_t sum1 = 0, sum2 = 0;
    while (len) {
        size_t tlen = len > 360 ? 360 : len;
        len -= tlen;
        do {
            sum1 += (uint32_t)(((uint16_t)data[0]) << 8) | ((uint16_t)data[1]);
            data += 2;
            sum2 += sum1;
        } while (--tlen);
        sum1 = (sum1 & 0xffff) + (sum1 >> 16);
        sum2 = (sum2 & 0xffff) + (sum2 >> 16);
    }
    if (n % 2) {
        sum1 += (uint32_t)(((uint16_t)*data) << 8);
        sum2 += sum1;
        sum1 = (sum1 & 0xffff) + (sum1 >> 16);
        sum2 = (sum2 & 0xffff) + (sum2 >> 16);
    }
    sum1 = (sum1 & 0xffff) + (sum1 >> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >> 16);
    return (sum2 << 16) | sum1;
}

/*
 * om_h5_fletcher32 is HDF5's checksum for every length from 0 to 5000 bytes
 * (odd, even, whole and partial groups of 16) at every alignment of 0..15,
 * of scrambled bytes, bytes all 0xFF (the sums 65535, not 0), all zero (0)
 * and zero but for one byte; and for 1 MB (many segments of its vector loop)
 * of each kind; with its AVX2 loop where the processor has one, and without.
 */
Test(writer, fletcher32_is_hdf5s)
{
    const size_t big = (size_t)1 << 20;
    uint8_t *buf = malloc(big + 16);
#if defined(__x86_64__) && defined(__GNUC__)
    const bool avx2 = __builtin_cpu_supports("avx2");
#else
    const bool avx2 = false;
#endif
    cr_assert_not_null(buf);
    for (int kind = 0; kind < 4; kind++) {
        for (size_t i = 0; i < big + 16; i++)
            buf[i] = kind == 0 ? (uint8_t)mix(i) : kind == 1 ? 0xFF : 0;
        if (kind == 3)
            buf[big / 2 + 1] = 1;
        for (size_t n = 0; n <= 5000; n++) {
            const size_t at = n % 16;
            const uint32_t want = hdf5_fletcher32(buf + at, n);
            if (om_h5_fletcher32(buf + at, n) != want ||
                om_h5_fletcher32_isa(buf + at, n, false) != want ||
                (avx2 && om_h5_fletcher32_isa(buf + at, n, true) != want))
                cr_assert_fail("kind %d, %zu bytes at %zu: %08x (SSE2 %08x), HDF5's %08x",
                               kind, n, at, om_h5_fletcher32(buf + at, n),
                               om_h5_fletcher32_isa(buf + at, n, false), want);
        }
        cr_expect_eq(om_h5_fletcher32(buf + 3, big), hdf5_fletcher32(buf + 3, big),
                     "kind %d, 1 MB", kind);
        cr_expect_eq(om_h5_fletcher32_isa(buf + 3, big, false), hdf5_fletcher32(buf + 3, big),
                     "kind %d, 1 MB without AVX2", kind);
    }
    free(buf);
}

/* The raw chunk at offset 0 of the 1-D dataset `name` of `file` (the bytes
 * as stored, the checksum last): a new buffer, its size in *size. */
static uint8_t *raw_chunk(hid_t file, const char *name, size_t *size)
{
    hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
    hsize_t offset = 0, bytes = 0;
    uint32_t mask = 0;
    uint8_t *buf;
    cr_assert_geq(d, 0, "%s", name);
    cr_assert_geq(H5Dget_chunk_storage_size(d, &offset, &bytes), 0);
    buf = malloc(bytes);
    cr_assert_not_null(buf);
    cr_assert_geq(H5Dread_chunk(d, H5P_DEFAULT, &offset, &mask, buf), 0);
    cr_assert_eq(mask, 0, "every filter applied");
    H5Dclose(d);
    *size = (size_t)bytes;
    return buf;
}

/*
 * A full chunk encoded by h5chunk.c is byte for byte the one HDF5 writes
 * through the same dataset's filters (scale-offset then Fletcher-32, as
 * om_h5_dataset_create sets them) for the same values, for every span of
 * values from two to 256 (stored whole), spans over 128 with a smallest value
 * that is not 0, a winner and a two-byte count: so the checksum at the end of
 * each chunk the writer writes directly is the one HDF5 expects. (Of a single
 * value, the sizes and headers are compared.)
 */
Test(writer, chunks_are_hdf5s_own)
{
    static const unsigned spans[] = {1, 2, 3, 4, 5, 8, 9, 16, 17, 32, 33, 65, 100, 128,
                                     129, 200, 256};
    const size_t n_spans = sizeof spans / sizeof spans[0];
    const size_t rows_n = 1000; /* not a multiple of 16: the packers' tails too */
    om_layout l = {.row_size = n_spans + 3, .field_count = n_spans + 2};
    static char names[32][24];
    uint8_t *rows = calloc(rows_n * l.row_size + OM_TALLY_ROW_SLACK, 1);
    uint8_t *col = malloc(2 * rows_n);
    om_tally *t = malloc(sizeof *t);
    om_tally_work *tw = NULL;
    om_h5_chunks *c = NULL;
    char path[512];
    hid_t file, winner_type, space;
    hsize_t dims = rows_n;

    for (size_t f = 0; f < l.field_count; f++) {
        snprintf(names[f], sizeof names[f], "f%zu", f);
        l.fields[f] = (om_field){names[f], "a field", NULL, f, OM_FIELD_COUNT, 0};
    }
    l.fields[n_spans].type = OM_FIELD_WINNER;
    l.fields[n_spans].title = "Outcome";
    l.fields[n_spans + 1].type = OM_FIELD_COUNT16;
    l.side[0].loss_field = l.side[1].loss_field = -1;
    for (size_t i = 0; i < rows_n; i++) {
        uint8_t *row = rows + i * l.row_size;
        uint64_t h = mix(i);
        for (size_t f = 0; f < n_spans; f++)
            row[f] = (uint8_t)((spans[f] > 200 ? 0 : 7) + mix(h + f) % spans[f]);
        row[n_spans] = (uint8_t)(h % 4);
        row[n_spans + 1] = (uint8_t)(h >> 8);
        row[n_spans + 2] = (uint8_t)(h >> 16);
    }
    cr_assert_eq(om_tally_work_alloc(&l, &tw), OM_OK);
    cr_assert_eq(om_h5_chunks_alloc(&l, rows_n, &c), OM_OK);
    om_tally_block(tw, rows, rows_n, t);
    om_h5_chunks_encode(c, rows, rows_n, t);

    /* The same values through HDF5's own filters. */
    file = H5Fcreate(tmpdir_path(path, sizeof path, "lib.h5"), H5F_ACC_TRUNC, H5P_DEFAULT,
                     H5P_DEFAULT);
    cr_assert_geq(file, 0);
    winner_type = om_h5_winner_type();
    space = H5Screate_simple(1, &dims, NULL);
    for (size_t f = 0; f < l.field_count; f++) {
        const om_field *fd = &l.fields[f];
        const bool wide = fd->type == OM_FIELD_COUNT16, winner = fd->type == OM_FIELD_WINNER;
        hid_t d;
        hsize_t chunk = rows_n;
        for (size_t i = 0; i < rows_n; i++) {
            if (wide) {
                const uint16_t v = (uint16_t)om_field_value(fd, rows + i * l.row_size);
                memcpy(col + 2 * i, &v, 2);
            } else {
                col[i] = rows[i * l.row_size + fd->offset];
            }
        }
        cr_assert_eq(om_h5_dataset_create(file, fd->name,
                                          winner ? winner_type
                                                 : wide ? H5T_STD_U16LE : H5T_STD_U8LE,
                                          space, &chunk,
                                          OM_H5_NO_FILL | (wide || winner ? 0 : OM_H5_SCALEOFFSET),
                                          path, fd->name, &d),
                     OM_OK, "%s", om_error_message());
        cr_assert_geq(H5Dwrite(d, winner ? winner_type : wide ? H5T_NATIVE_UINT16
                                                              : H5T_NATIVE_UINT8,
                               H5S_ALL, H5S_ALL, H5P_DEFAULT, col), 0);
        H5Dclose(d);
    }
    H5Sclose(space);
    H5Tclose(winner_type);
    H5Fclose(file);

    file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    cr_assert_geq(file, 0);
    for (size_t f = 0; f < l.field_count; f++) {
        size_t size;
        uint8_t *lib = raw_chunk(file, l.fields[f].name, &size);
        const uint8_t *ours = om_h5_chunks_data(c, f);
        cr_expect_eq(om_h5_chunks_size(c, f), size, "field %zu (span %u): %zu bytes, HDF5's %zu",
                     f, f < n_spans ? spans[f] : 0, om_h5_chunks_size(c, f), size);
        /* Of one value, HDF5's chunk is its header and a byte it leaves as
         * malloc gave it, which its checksum covers: the header alone is
         * compared (the checksum of ours is checked by every read). */
        const size_t compared = f < n_spans && spans[f] == 1 ? 21 : size;
        if (om_h5_chunks_size(c, f) == size)
            for (size_t i = 0; i < compared; i++)
                if (ours[i] != lib[i]) {
                    cr_expect_fail("field %zu (span %u): byte %zu of %zu is %02x, HDF5's %02x",
                                   f, f < n_spans ? spans[f] : 0, i, size, ours[i], lib[i]);
                    break;
                }
        free(lib);
    }
    H5Fclose(file);
    om_h5_chunks_free(c);
    om_tally_work_free(tw);
    free(t);
    free(col);
    free(rows);
}

/* SHA-256 (the digest of a run) gives the examples of FIPS 180-4 and its
 * usual test vectors, whole and fed in uneven pieces. */
Test(writer, sha256_of_the_standard)
{
    static const struct {
        const char *text;
        const char *hex;
    } cases[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    char hex[OM_SHA256_HEX];
    char *million = malloc(1000000);
    om_sha256 s;
    uint8_t d[OM_SHA256_BYTES];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        om_sha256_hex(cases[i].text, strlen(cases[i].text), hex);
        cr_expect_str_eq(hex, cases[i].hex, "sha256(\"%s\")", cases[i].text);
    }
    cr_assert_not_null(million);
    memset(million, 'a', 1000000);
    om_sha256_hex(million, 1000000, hex);
    cr_expect_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    om_sha256_init(&s);
    for (size_t at = 0, k = 1; at < 1000000; at += k, k = k * 7 % 127 + 1)
        om_sha256_update(&s, million + at, at + k <= 1000000 ? k : 1000000 - at);
    om_sha256_final(&s, d);
    for (unsigned i = 0; i < OM_SHA256_BYTES; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
    cr_expect_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
                     "fed in pieces");
    free(million);
}

/* ------------------------------------------------------ per-unit results */

/* A layout with per-unit results: two fields of the trial (a count and a
 * flag), then UNITS_N units, each with three unit fields interleaved in the
 * row (stride 3, so a unit field's values are not side by side): a flag, a
 * count of 0..6 and a count of 0..200 (spans past 128 stored whole). */
#define UNITS_N 5
#define UNITS_ROW (2 + 3 * UNITS_N)

static const om_layout_unit unit_table[UNITS_N] = {
    {.id = "knights", .name = "Knights", .army = "Empire", .side = 0, .points = 110},
    {.id = "halberdiers", .name = "Halberdiers \xe2\x80\x93 2nd", .army = "Empire", .side = 0,
     .points = 35},
    {.id = "orcs", .name = "Orc Warriors", .army = "Orcs & Goblins", .side = 1, .points = 60},
    {.id = "wolves", .name = "Wolf Riders", .army = "Orcs & Goblins", .side = 1, .points = 60},
    {.id = "x", .name = "X", .army = "", .side = 1, .points = 0},
};

static void units_layout(om_layout *l)
{
    memset(l, 0, sizeof *l);
    l->row_size = UNITS_ROW;
    l->field_count = 2;
    l->fields[0] = (om_field){.name = "rounds", .description = "Rounds.", .offset = 0,
                              .type = OM_FIELD_COUNT};
    l->fields[1] = (om_field){.name = "any", .description = "Any.", .offset = 1,
                              .type = OM_FIELD_FLAG};
    l->unit_count = UNITS_N;
    l->units = unit_table;
    l->unit_field_count = 3;
    l->unit_fields[0] = (om_field){.name = "hit", .description = "1 if hit.", .offset = 2,
                                   .type = OM_FIELD_FLAG, .max = 1};
    l->unit_fields[1] = (om_field){.name = "lost", .description = "Stands lost.", .offset = 3,
                                   .type = OM_FIELD_COUNT, .max = 6};
    l->unit_fields[2] = (om_field){.name = "spread", .description = "Anything.", .offset = 4,
                                   .type = OM_FIELD_COUNT, .max = 200};
    l->unit_stride = 3;
    l->side[0].loss_field = l->side[1].loss_field = -1;
}

/* The value of unit field f of unit u in trial i (unit "x" never hit and
 * never losing: a column of one value). */
static uint8_t unit_value(size_t f, size_t u, uint64_t i)
{
    const uint64_t h = mix(i * 131 + u * 7 + f);
    if (u == UNITS_N - 1 && f < 2)
        return 0;
    return (uint8_t)(f == 0 ? h & 1 : f == 1 ? h % 7 : h % 201);
}

static void units_rows(const om_layout *l, uint8_t *rows, uint64_t first, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t *row = rows + i * l->row_size;
        row[0] = (uint8_t)(mix(first + i) % 5);
        row[1] = (uint8_t)(mix(first + i) >> 9 & 1);
        for (size_t f = 0; f < 3; f++)
            for (size_t u = 0; u < UNITS_N; u++)
                row[om_layout_unit_offset(l, f, u)] = unit_value(f, u, first + i);
    }
}

/* Write `trials` rows of the units layout to `path`: by blocks of `block`
 * encoded as a run encodes them (the later blocks' writes deferred), or
 * with om_h5_writer_put through HDF5's own filters. The sum of the blocks'
 * tallies goes to *sum (blocks only). */
static void units_write(const char *path, size_t trials, size_t block, bool blocks,
                        om_tally *sum)
{
    om_layout l;
    om_run_info info;
    om_h5_writer *w = NULL;
    om_tally_work *tw = NULL;
    om_h5_chunks *sets[2] = {NULL, NULL};
    om_tally *t = malloc(sizeof *t);
    uint8_t *rows = malloc(block * UNITS_ROW + OM_TALLY_ROW_SLACK);
    units_layout(&l);
    info = sample_info(trials, "combat");
    info.layout = &l;
    info.block_size = block;
    cr_assert_eq(om_h5_writer_create(&w, path, &info), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_tally_work_alloc(&l, &tw), OM_OK);
    cr_assert_eq(om_h5_chunks_alloc(&l, block, &sets[0]), OM_OK);
    cr_assert_eq(om_h5_chunks_alloc(&l, block, &sets[1]), OM_OK);
    if (sum != NULL)
        om_tally_clear_layout(sum, &l);
    for (size_t first = 0; first < trials; first += block) {
        const size_t n = trials - first < block ? trials - first : block;
        om_h5_chunks *chunks = sets[first / block % 2];
        units_rows(&l, rows, first, n);
        if (!blocks) {
            cr_assert_eq(om_h5_writer_put(w, first, rows, n), OM_OK, "%s", om_error_message());
            continue;
        }
        om_tally_block(tw, rows, n, t);
        cr_assert_eq(t->unit_over, 0u);
        if (sum != NULL)
            om_tally_add(sum, t);
        om_h5_chunks_encode(chunks, rows, n, t);
        om_h5_chunks_defer(chunks, first > 0);
        cr_assert_eq(om_h5_writer_put_block(w, first, n, chunks, t), OM_OK, "%s",
                     om_error_message());
    }
    cr_assert_eq(om_h5_chunks_write_out(sets, 2, path), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5_writer_close(w), OM_OK, "%s", om_error_message());
    om_h5_chunks_free(sets[0]);
    om_h5_chunks_free(sets[1]);
    om_tally_work_free(tw);
    free(rows);
    free(t);
}

/*
 * Per-unit results written by blocks (the run's chunk encoder) and by puts
 * (HDF5's own filters) read back exactly: the table of units, the unit
 * fields with their descriptions and maxima, every unit's column, the
 * tallies (the blocks' sum, the histograms of the columns), and the rows
 * counted again agree with them; a full chunk of a unit's column is byte for
 * byte the one HDF5 writes for it.
 */
Test(writer, unit_fields_round_trip)
{
    const size_t trials = 2500, block = 1000;
    char pa[512], pb[512];
    om_tally *sum = malloc(sizeof *sum), *back = malloc(sizeof *back);
    uint8_t *got = malloc(trials);
    om_layout l;
    units_layout(&l);
    units_write(tmpdir_path(pa, sizeof pa, "units_blocks.h5"), trials, block, true, sum);
    units_write(tmpdir_path(pb, sizeof pb, "units_puts.h5"), trials, block, false, NULL);
    for (int k = 0; k < 2; k++) {
        om_h5_reader *r = NULL;
        cr_assert_eq(om_h5_reader_open(&r, k == 0 ? pa : pb), OM_OK, "%s", om_error_message());
        cr_assert_eq(om_h5_reader_unit_count(r), UNITS_N);
        cr_assert_eq(om_h5_reader_unit_field_count(r), 3u);
        for (size_t u = 0; u < UNITS_N; u++) {
            const om_layout_unit *got_u = om_h5_reader_unit(r, u);
            cr_expect_str_eq(got_u->id, unit_table[u].id);
            cr_expect_str_eq(got_u->name, unit_table[u].name);
            cr_expect_str_eq(got_u->army, unit_table[u].army);
            cr_expect_eq(got_u->side, unit_table[u].side);
            cr_expect_eq(got_u->points, unit_table[u].points);
        }
        for (size_t f = 0; f < 3; f++) {
            const om_field *uf = om_h5_reader_unit_field(r, f);
            cr_expect_str_eq(uf->name, l.unit_fields[f].name);
            cr_expect_str_eq(uf->description, l.unit_fields[f].description);
            cr_expect_eq(uf->type, l.unit_fields[f].type);
            cr_expect_eq(uf->max, l.unit_fields[f].max);
            for (size_t u = 0; u < UNITS_N; u++) {
                cr_assert_eq(om_h5_reader_read_unit(r, f, u, 0, trials, got), OM_OK, "%s",
                             om_error_message());
                for (size_t i = 0; i < trials; i++)
                    if (got[i] != unit_value(f, u, i))
                        cr_assert_fail("file %d, unit field %zu, unit %zu, row %zu: read %u, "
                                       "wrote %u", k, f, u, i, got[i], unit_value(f, u, i));
            }
        }
        cr_assert_eq(om_h5_reader_tally(r, back), OM_OK, "%s", om_error_message());
        cr_expect_eq(back->unit_total, sum->unit_total);
        cr_expect_eq(memcmp(back->unit_hist, sum->unit_hist,
                            sum->unit_total * sizeof sum->unit_hist[0]), 0,
                     "file %d: the unit tallies are the blocks'", k);
        cr_expect_eq(om_h5_reader_check_rows(r, NULL), OM_OK, "%s", om_error_message());
        cr_expect_eq(om_h5_reader_read_unit(r, 3, 0, 0, 1, got), OM_EINVAL);
        cr_expect_eq(om_h5_reader_read_unit(r, 0, UNITS_N, 0, 1, got), OM_EINVAL);
        cr_expect_eq(om_h5_reader_read_unit(r, 0, 0, trials, 1, got), OM_EINVAL);
        om_h5_reader_close(r);
    }
    /* The first (full) chunk of every unit's column whose values vary: the
     * same bytes from the encoder as from HDF5's filters. */
    hid_t fa = H5Fopen(pa, H5F_ACC_RDONLY, H5P_DEFAULT), fb = H5Fopen(pb, H5F_ACC_RDONLY,
                                                                        H5P_DEFAULT);
    cr_assert(fa >= 0 && fb >= 0);
    for (size_t f = 0; f < 3; f++)
        for (size_t u = 0; u + 1 < UNITS_N; u++) {
            char name[64];
            hsize_t at[2] = {0, u}, sa = 0, sb = 0;
            uint32_t ma = 0, mb = 0;
            snprintf(name, sizeof name, "/units/%s", l.unit_fields[f].name);
            hid_t da = H5Dopen2(fa, name, H5P_DEFAULT), db = H5Dopen2(fb, name, H5P_DEFAULT);
            cr_assert(H5Dget_chunk_storage_size(da, at, &sa) >= 0 &&
                      H5Dget_chunk_storage_size(db, at, &sb) >= 0);
            cr_expect_eq(sa, sb, "%s[%zu]: %llu bytes, HDF5's %llu", name, u,
                         (unsigned long long)sa, (unsigned long long)sb);
            uint8_t *ca = malloc(sa), *cb = malloc(sb);
            cr_assert(H5Dread_chunk(da, H5P_DEFAULT, at, &ma, ca) >= 0 &&
                      H5Dread_chunk(db, H5P_DEFAULT, at, &mb, cb) >= 0);
            cr_expect(sa == sb && memcmp(ca, cb, sa) == 0, "%s[%zu]: the chunks differ", name,
                      u);
            free(ca);
            free(cb);
            H5Dclose(da);
            H5Dclose(db);
        }
    H5Fclose(fa);
    H5Fclose(fb);
    free(sum);
    free(back);
    free(got);
}

/* A layout whose unit fields are not well formed is refused by the writer
 * with what is wrong; a row whose unit value passes its field's max is
 * refused by put and counted apart by the tally (never in another unit's
 * histogram). */
Test(writer, malformed_unit_fields_refused)
{
    om_layout l;
    om_run_info info;
    om_h5_writer *w = NULL;
    char path[512];
    char why[256];
    tmpdir_path(path, sizeof path, "bad_units.h5");
    units_layout(&l);
    cr_expect_null(om_layout_check(&l, why, sizeof why));
    l.unit_fields[0].max = 2; /* a flag of max 2 */
    cr_expect_not_null(om_layout_check(&l, why, sizeof why));
    info = sample_info(100, "combat");
    info.layout = &l;
    cr_expect_eq(om_h5_writer_create(&w, path, &info), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "unit field 'hit'") != NULL, "%s", om_error_message());
    units_layout(&l);
    l.unit_fields[2].name = "table";
    cr_expect_eq(om_h5_writer_create(&w, path, &info), OM_EINVAL);
    units_layout(&l);
    l.unit_stride = 4; /* the last unit's values past the row */
    cr_expect_eq(om_h5_writer_create(&w, path, &info), OM_EINVAL);
    units_layout(&l);
    l.unit_fields[1].max = 255;
    l.unit_fields[2].max = 255; /* 5 units x (2 + 256 + 256) bins: within the cap */
    cr_expect_null(om_layout_check(&l, why, sizeof why));
    static om_layout_unit many[OM_LAYOUT_UNITS_MAX];
    static char ids[OM_LAYOUT_UNITS_MAX][8];
    for (size_t u = 0; u < OM_LAYOUT_UNITS_MAX; u++) {
        snprintf(ids[u], sizeof ids[u], "u%zu", u);
        many[u] = (om_layout_unit){.id = ids[u], .name = ids[u], .army = "", .side = 0};
    }
    l.units = many;
    l.unit_count = OM_LAYOUT_UNITS_MAX;
    l.row_size = 2 + 3 * OM_LAYOUT_UNITS_MAX;
    cr_expect_not_null(om_layout_check(&l, why, sizeof why), "too many bins");
    cr_expect(strstr(why, "histogram bins") != NULL, "%s", why);

    /* A value above its max: put refuses it; the tally counts it apart. */
    units_layout(&l);
    info.layout = &l;
    cr_assert_eq(om_h5_writer_create(&w, path, &info), OM_OK, "%s", om_error_message());
    uint8_t rows[4 * UNITS_ROW + OM_TALLY_ROW_SLACK] = {0};
    units_rows(&l, rows, 0, 4);
    rows[om_layout_unit_offset(&l, 1, 2)] = 7; /* orcs lost 7 of max 6 */
    cr_expect_eq(om_h5_writer_put(w, 0, rows, 4), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "lost of unit orcs the value 7") != NULL, "%s",
              om_error_message());
    om_h5_writer_abort(w);
    om_tally_work *tw = NULL;
    om_tally *t = malloc(sizeof *t);
    cr_assert_eq(om_tally_work_alloc(&l, &tw), OM_OK);
    om_tally_block(tw, rows, 4, t);
    cr_expect_eq(t->unit_over, 1u);
    uint64_t total = 0;
    for (size_t v = 0; v <= 6; v++)
        total += om_tally_unit(t, 1, 2)[v];
    cr_expect_eq(total, 3u, "the value above max is in no bin");
    om_tally_work_free(tw);
    free(t);
}

/* A damaged chunk of a unit's column is an error naming the file, the
 * dataset, the rows and the unit, whether read directly or counted again
 * by om_h5_reader_check_rows. */
Test(reader, damaged_unit_chunk_named)
{
    const size_t trials = 2500, block = 1000;
    char path[512];
    uint8_t *got = malloc(trials);
    units_write(tmpdir_path(path, sizeof path, "units_damaged.h5"), trials, block, true, NULL);
    /* Flip a byte in the middle of chunk (1000, 2): rows 1000..1999 of orcs. */
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/units/spread", H5P_DEFAULT);
    hsize_t at[2] = {1000, 2}, size = 0;
    haddr_t addr = 0;
    unsigned mask = 0;
    cr_assert_geq(H5Dget_chunk_info_by_coord(d, at, &mask, &addr, &size), 0);
    H5Dclose(d);
    H5Fclose(f);
    int fd = open(path, O_RDWR);
    uint8_t byte;
    cr_assert_geq(fd, 0);
    cr_assert_eq(pread(fd, &byte, 1, (off_t)(addr + size / 2)), 1);
    byte ^= 0xFF;
    cr_assert_eq(pwrite(fd, &byte, 1, (off_t)(addr + size / 2)), 1);
    close(fd);

    om_h5_reader *r = NULL;
    cr_assert_eq(om_h5_reader_open(&r, path), OM_OK, "%s", om_error_message());
    cr_expect_eq(om_h5_reader_read_unit(r, 2, 1, 0, trials, got), OM_OK, "another unit");
    cr_expect_eq(om_h5_reader_read_unit(r, 2, 2, 0, trials, got), OM_EHDF5);
    cr_expect(strstr(om_error_message(), "/units/spread, rows 1000..1999 of unit orcs") != NULL,
              "%s", om_error_message());
    cr_expect(strstr(om_error_message(), path) != NULL, "%s", om_error_message());
    cr_expect_eq(om_h5_reader_check_rows(r, NULL), OM_EHDF5);
    cr_expect(strstr(om_error_message(), "/units/spread, rows 1000..1999 of unit orcs") != NULL,
              "%s", om_error_message());
    om_h5_reader_close(r);
    free(got);
}

/* Trials that come with classes (a class's row for most, their own for the
 * others) give the tally, unit histograms included, and the chunks, unit
 * columns included, of the same rows written out. */
Test(writer, unit_fields_of_classes)
{
    enum { N = 1000, CLASSES = 3 };
    om_layout l;
    uint8_t *rows = calloc(N * UNITS_ROW + OM_TALLY_ROW_SLACK, 1);
    uint8_t *whole = calloc(N * UNITS_ROW + OM_TALLY_ROW_SLACK, 1);
    uint8_t class_rows[CLASSES * UNITS_ROW];
    uint16_t cls[N];
    om_tally *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    om_tally_work *tw = NULL;
    om_h5_chunks *ca = NULL, *cb = NULL;
    units_layout(&l);
    units_rows(&l, class_rows, 7, CLASSES);
    units_rows(&l, whole, 100, N);
    for (size_t i = 0; i < N; i++) {
        cls[i] = i % 5 == 4 ? (uint16_t)OM_LAYOUT_NO_CLASS : (uint16_t)(mix(i) % CLASSES);
        if (cls[i] != OM_LAYOUT_NO_CLASS)
            memcpy(whole + i * UNITS_ROW, class_rows + cls[i] * UNITS_ROW, UNITS_ROW);
        else
            memcpy(rows + i * UNITS_ROW, whole + i * UNITS_ROW, UNITS_ROW);
    }
    cr_assert_eq(om_tally_work_alloc(&l, &tw), OM_OK);
    cr_assert_eq(om_tally_block_classes(tw, rows, cls, class_rows, CLASSES, N, a), OM_OK);
    om_tally_block(tw, whole, N, b);
    cr_expect_eq(a->unit_total, b->unit_total);
    cr_expect_eq(memcmp(a->unit_hist, b->unit_hist, a->unit_total * sizeof a->unit_hist[0]), 0,
                 "the unit histograms of classes are those of the rows");
    uint64_t hit = 0;
    for (size_t u = 0; u < UNITS_N; u++)
        hit += om_tally_unit(a, 0, u)[1];
    cr_expect_gt(hit, 0u, "some unit was hit");
    cr_assert_eq(om_h5_chunks_alloc(&l, N, &ca), OM_OK);
    cr_assert_eq(om_h5_chunks_alloc(&l, N, &cb), OM_OK);
    cr_assert_eq(om_h5_chunks_classes(ca, class_rows, CLASSES), OM_OK);
    om_h5_chunks_encode_classes(ca, rows, cls, N, a);
    om_h5_chunks_encode(cb, whole, N, b);
    for (size_t j = 0; j < l.field_count + 3 * UNITS_N; j++)
        cr_expect(om_h5_chunks_size(ca, j) == om_h5_chunks_size(cb, j) &&
                      memcmp(om_h5_chunks_data(ca, j), om_h5_chunks_data(cb, j),
                             om_h5_chunks_size(ca, j)) == 0,
                  "chunk %zu: classes and rows differ", j);
    om_h5_chunks_free(ca);
    om_h5_chunks_free(cb);
    om_tally_work_free(tw);
    free(a);
    free(b);
    free(rows);
    free(whole);
}
