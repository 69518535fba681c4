/*
 * corpus.h: what the tests of the scenario corpus share (test_corpus.c,
 * test_mutation.c; the battle tests read example lists with corpus_slurp):
 * the corpus's files, loading a scenario through the real
 * loader and running a few trials of it through its game, and the form every
 * refusal must have. Header-only, like tmpdir.h: each test program is one file.
 *
 * The corpus is tests/data/corpus/GAME/KIND/NAME.yaml, files every loader must
 * accept (together they set every key of every level of both games: the games'
 * keys hooks), and tests/data/corpus/GAME/bad/NAME.yaml, files a loader must
 * refuse, each opening with a comment line "# expect: LINE: field 'PATH':
 * REASON", the beginning of its message after "FILE:".
 */
#ifndef OM_TESTS_CORPUS_H
#define OM_TESTS_CORPUS_H

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "dice.h"
#include "game.h"
#include "rng.h"

#define CORPUS_DIR OM_TEST_DATA "/corpus"

/* The directory of files a loader must refuse, in each game's folder. */
#define CORPUS_BAD "bad"

/* Most files a folder of the corpus may hold, and the longest path. */
#define CORPUS_FILES_MAX 64
#define CORPUS_PATH_MAX 512

/* Trials run of each file accepted: enough to reach every phase of a trial
 * (a charge, its round, a pursuit, a turn's three phases) several times, few
 * enough for the sanitizer build. */
#define CORPUS_TRIALS 64

/* out = a + "/" + b; the test fails if it does not fit. */
static inline void corpus_join(char *out, size_t cap, const char *a, const char *b)
{
    int n = snprintf(out, cap, "%s/%s", a, b);
    cr_assert(n >= 0 && (size_t)n < cap, "path too long: %s/%s", a, b);
}

/* The names of the entries of `dir` that end in `suffix` (or every entry not
 * starting with '.' when suffix is NULL), sorted, into names[0..*n). */
static inline void corpus_list(const char *dir, const char *suffix,
                               char names[][CORPUS_PATH_MAX / 2], size_t *n)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    *n = 0;
    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name), slen = suffix ? strlen(suffix) : 0;
        if (e->d_name[0] == '.' || len >= CORPUS_PATH_MAX / 2)
            continue;
        if (suffix && (len < slen || strcmp(e->d_name + len - slen, suffix) != 0))
            continue;
        cr_assert_lt(*n, CORPUS_FILES_MAX, "%s: more than %d entries", dir, CORPUS_FILES_MAX);
        memcpy(names[(*n)++], e->d_name, len + 1);
    }
    closedir(d);
    qsort(names, *n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
}

/* The whole file at `path`, NUL-terminated (the caller frees), its length in
 * *len. The test fails if it cannot be read. */
static inline char *corpus_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    cr_assert_not_null(f, "cannot open %s", path);
    cr_assert_eq(fseek(f, 0, SEEK_END), 0);
    n = ftell(f);
    cr_assert_geq(n, 0);
    rewind(f);
    buf = malloc((size_t)n + 1);
    cr_assert_not_null(buf);
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Whether status `st` is one the command line reports as a bad input file
 * (exit 2: cli/cli.c). */
static inline bool corpus_is_input_error(om_status st)
{
    return st == OM_EPARSE || st == OM_EINVAL || st == OM_ENOTFOUND || st == OM_EUNSUPPORTED;
}

/*
 * The form of a refusal: "SOURCE:LINE: field 'PATH': REASON", LINE from 1 to
 * the lines of the text (plus one, for the end of a file without a final
 * newline), PATH and REASON not empty. Returns NULL if `msg` has that form,
 * else what is wrong with it.
 */
static inline const char *corpus_message_problem(const char *msg, const char *source,
                                                 const char *text, size_t len)
{
    size_t slen = strlen(source), lines = 1;
    const char *p = msg, *path, *end;
    unsigned long line;
    char *after;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    if (strncmp(p, source, slen) != 0 || p[slen] != ':')
        return "it does not start with the file's name and a colon";
    p += slen + 1;
    if (*p < '1' || *p > '9')
        return "no line number after the file's name";
    line = strtoul(p, &after, 10);
    if (line > lines + 1)
        return "its line is beyond the end of the file";
    p = after;
    if (strncmp(p, ": field '", 9) != 0)
        return "no \": field '\" after the line number";
    path = p + 9;
    end = strstr(path, "': ");
    if (end == NULL || end == path)
        return "no field path, or no \"': \" after it";
    if (end[3] == '\0' || end[3] == ' ')
        return "no reason after the field";
    return NULL;
}

/*
 * Run `trials` trials of the loaded scenario `sc` through its game, as `run`
 * does: prepare, one workspace, a block of rows with dice seeded (seed,
 * block 0), the classes of the trials too where the game has them. Fails the
 * test on any error.
 */
static inline void corpus_run(const om_scenario *sc, uint64_t seed, size_t trials)
{
    om_trials t;
    om_dice d;
    void *work = NULL;
    uint8_t *rows;
    uint16_t *cls;
    om_status st = om_trials_prepare(sc, &t);
    cr_assert_eq(st, OM_OK, "%s: prepare: %s", sc->source, om_error_message());
    cr_assert_gt(t.layout.row_size, 0u, "%s: rows of no bytes", sc->source);
    if (t.game->trials->work_alloc)
        cr_assert_eq(t.game->trials->work_alloc(t.prepared, &work), OM_OK, "%s: %s", sc->source,
                     om_error_message());
    rows = calloc(trials, t.layout.row_size);
    cls = calloc(trials, sizeof *cls);
    cr_assert(rows != NULL && cls != NULL);
    memset(&d, 0, sizeof d);
    om_rng_seed_block(&d.rng, seed, 0);
    t.game->trials->resolve_block(t.prepared, work, &d, rows, trials);
    if (t.game->trials->resolve_classes && t.n_classes > 0)
        t.game->trials->resolve_classes(t.prepared, work, &d, rows, cls, true, trials);
    free(cls);
    free(rows);
    if (t.game->trials->work_free)
        t.game->trials->work_free(work);
    om_trials_release(&t);
}

#endif /* OM_TESTS_CORPUS_H */
