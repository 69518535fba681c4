/*
 * tmpdir.h: a private temporary directory per Criterion test, for the tests
 * that write files (test_h5.c, test_h5matrix.c, test_chart.c, test_sim.c, ...). Header-only: each test
 * program is one file, and Criterion runs every test in its own process, so the
 * directory name lives in a file-scope static of the including program.
 *
 *   static void setup(void) { tmpdir_create("om_test_chart"); }
 *   TestSuite(chart, .init = setup, .fini = tmpdir_remove);
 *   ... tmpdir_path(buf, sizeof buf, "out.png") ...
 */
#ifndef OM_TESTS_TMPDIR_H
#define OM_TESTS_TMPDIR_H

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

/* The test's directory, "$TMPDIR/PREFIX_XXXXXX" once created. */
static char tmpdir_name[256];

/* Create the directory under $TMPDIR (or /tmp); the test fails if it cannot. */
static inline void tmpdir_create(const char *prefix)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir_name, sizeof tmpdir_name, "%s/%s_XXXXXX",
             base != NULL && base[0] != '\0' ? base : "/tmp", prefix);
    cr_assert_not_null(mkdtemp(tmpdir_name), "mkdtemp: %s", strerror(errno));
}

/* Remove the directory and what the test left in it (one level, plus empty dirs). */
static inline void tmpdir_remove(void)
{
    DIR *d = opendir(tmpdir_name);
    struct dirent *e;
    char p[512];
    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof p, "%s/%s", tmpdir_name, e->d_name);
        if (unlink(p) != 0)
            rmdir(p);
    }
    closedir(d);
    rmdir(tmpdir_name);
}

/* tmpdir_name/name in `buf`, which is returned. */
static inline const char *tmpdir_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", tmpdir_name, name);
    return buf;
}

/* Number of entries in the directory (to check nothing was left behind). */
static inline int tmpdir_entries(void)
{
    DIR *d = opendir(tmpdir_name);
    struct dirent *e;
    int n = 0;
    cr_assert_not_null(d);
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

#endif /* OM_TESTS_TMPDIR_H */
