/*
 * test_army.c: Criterion tests of the army lists as data (scenarios/warmaster/army.c,
 * army.h) against their sources.
 *
 * The sources are read here, independently of the converter
 * (scenarios/tools/convert_armies.py): the JSON lists of scenarios/armies/sources/data with
 * jansson, the Ancients and WHFB7 TSV files directly. Checked: every embedded
 * file parses and equals the file in the tree; entry counts per army equal
 * the sources; a sample of entries per army (first, middle and last unit and
 * upgrade) equals its source row field by field; every rule id used is known
 * to the registry, whose `engine:` field agrees with the engine's own
 * registry (om_wm_special_find); lookups suggest near misses; and every
 * parse error names the file, line and field.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <criterion/criterion.h>
#include <jansson.h>

#include "army.h"
#include "yaml_int.h"

#define ARMIES_DIR OM_SOURCE_ROOT "/" OM_ARMY_DATA_DIR
#define DATA_DIR OM_SOURCES_DIR "/data"

/* Largest path or message built here. */
#define TEST_BUF 2048

/* The JSON rule sets and the source directory of each. */
static const struct json_source {
    const char *ruleset; /* rule set id */
    const char *srcdir;  /* directory under data/ */
} json_sources[] = {
    { "warmaster-1.1", "warmaster-armies" },
    { "warmaster-revolution", "warmaster-revolution" },
};

/* ---------------------------------------------------------------------------
 * Helpers.
 */

/* Read a whole file (NUL-terminated; caller frees). */
static char *read_all(const char *path, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    om_status st = om_yaml_read_file(path, &buf, &n);
    cr_assert_eq(st, OM_OK, "%s", om_error_message());
    if (len)
        *len = n;
    return buf;
}

/* qsort comparator of strings. */
static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in `dir` ending in `suffix`, sorted (caller frees each and the
 * array). */
static char **list_dir(const char *dir, const char *suffix, size_t *n)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t cap = 0;
    cr_assert_not_null(d, "cannot open %s", dir);
    *n = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name), sl = strlen(suffix);
        if (len <= sl || strcmp(e->d_name + len - sl, suffix) != 0)
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 32;
            names = realloc(names, cap * sizeof *names);
            cr_assert_not_null(names);
        }
        names[(*n)++] = strdup(e->d_name);
    }
    closedir(d);
    if (*n > 1)
        qsort(names, *n, sizeof *names, str_cmp);
    return names;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* A TSV file: a header row and data rows of tab-separated cells, no quoting. */
typedef struct tsv {
    char *text;      /* the file, cut into cells in place */
    char **cells;    /* row-major, (nrows + 1) * ncols, header first */
    size_t ncols;    /* columns of the header */
    size_t nrows;    /* data rows */
} tsv;

static tsv tsv_read(const char *path)
{
    tsv t = { .text = read_all(path, NULL) };
    size_t cap = 0, n = 0;
    char *line = t.text;
    while (line && *line) {
        char *next = strchr(line, '\n');
        size_t cols = 0;
        if (next)
            *next++ = '\0';
        if (line[0] == '\0') {
            line = next;
            continue;
        }
        for (char *c = line;; cols++) {
            char *tab = strchr(c, '\t');
            if (n == cap) {
                cap = cap ? 2 * cap : 1024;
                t.cells = realloc(t.cells, cap * sizeof *t.cells);
                cr_assert_not_null(t.cells);
            }
            if (tab)
                *tab = '\0';
            t.cells[n++] = c;
            if (!tab)
                break;
            c = tab + 1;
        }
        cols++;
        if (t.ncols == 0)
            t.ncols = cols;
        cr_assert_eq(cols, t.ncols, "%s: a row with %zu cells, the header has %zu", path,
                     cols, t.ncols);
        line = next;
    }
    cr_assert_gt(t.ncols, 0, "%s is empty", path);
    t.nrows = n / t.ncols - 1;
    return t;
}

/* The cell of data row r in column `col`. */
static const char *tsv_get(const tsv *t, size_t r, const char *col)
{
    for (size_t k = 0; k < t->ncols; k++)
        if (strcmp(t->cells[k], col) == 0)
            return t->cells[(r + 1) * t->ncols + k];
    cr_assert_fail("no column %s", col);
    return NULL;
}

static void tsv_free(tsv *t)
{
    free(t->cells);
    free(t->text);
}

/* The converter's slug: lower case, runs of other characters one dash. */
static void slug(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    bool dash = false;
    for (; *s && n + 2 < cap; s++) {
        char c = *s;
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')) {
            if (dash && n > 0)
                out[n++] = '-';
            out[n++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
            dash = false;
        } else {
            dash = true;
        }
    }
    out[n] = '\0';
}

/* Do the unit's notes record the odd print "WHAT printed 'TEXT'"? */
static void expect_noted(const om_army_unit *u, const char *what, const char *text,
                         const char *where)
{
    char want[TEST_BUF];
    snprintf(want, sizeof want, "%s printed '%s'", what, text);
    cr_assert(u->notes && strstr(u->notes, want), "%s: '%s' printed oddly but notes lack "
              "\"%s\" (notes: %s)", where, text, want, u->notes ? u->notes : "none");
}

/* Parse "N" or "+N" (and "-N" if `sign`) exactly; false otherwise. */
static bool plain_int(const char *s, bool sign, int *out)
{
    char *end;
    long v;
    if (*s == '+' || (sign && *s == '-'))
        ;
    else if (*s < '0' || *s > '9')
        return false;
    v = strtol(s, &end, 10);
    if (*end != '\0' || end == s)
        return false;
    *out = (int)v;
    return true;
}

/* A JSON stat (hits, command, min, max, size) as the converter stores it:
 * absent or "-" is 0, an integer or a plain "+N" its value; anything else must
 * be noted. */
static void expect_json_stat(const om_army_unit *u, json_t *src, const char *key,
                             unsigned got, const char *where)
{
    json_t *v = json_object_get(src, key);
    int want = 0;
    if (!v || (json_is_string(v) && strcmp(json_string_value(v), "-") == 0))
        want = 0;
    else if (json_is_integer(v))
        want = (int)json_integer_value(v);
    else if (json_is_string(v) && plain_int(json_string_value(v), false, &want) &&
             json_string_value(v)[0] != '+')
        ;
    else {
        cr_assert(json_is_string(v), "%s: %s is neither a number nor a string", where, key);
        expect_noted(u, key, json_string_value(v), where);
        if (!plain_int(json_string_value(v), false, &want))
            return;
    }
    cr_assert_eq((int)got, want, "%s: %s is %u, the source has %d", where, key, got, want);
}

/* Compare one entry with its JSON source, field by field. */
static void expect_json_entry(const om_army_unit *u, json_t *src, const char *where)
{
    json_t *attack = json_object_get(src, "attack"), *range = json_object_get(src, "range");
    json_t *armour = json_object_get(src, "armour"), *points = json_object_get(src, "points");
    const char *type = json_string_value(json_object_get(src, "type"));
    int want = 0;

    cr_assert_not_null(type, "%s: no type in the source", where);
    if (u->source_type)
        cr_assert_str_eq(u->source_type, type, "%s", where);
    else
        cr_assert(strcasecmp(type, om_army_type_name(u->type)) == 0 ||
                      (strcasecmp(type, "chariots") == 0 && u->type == OM_ARMY_CHARIOT),
                  "%s: type %s, source %s", where, om_army_type_name(u->type), type);

    /* Attack: 3, "3/1" (combat/shooting), "+2"; other prints are noted. */
    if (!attack) {
        cr_assert_eq(u->attacks, 0, "%s", where);
    } else if (json_is_integer(attack)) {
        cr_assert_eq(u->attacks, (unsigned)json_integer_value(attack), "%s: attacks", where);
        cr_assert_eq(u->shots, 0, "%s: shots", where);
    } else {
        const char *s = json_string_value(attack);
        cr_assert_not_null(s, "%s: attack is neither a number nor a string", where);
        /* Plain forms "N", "+N", "N/M"; the rest must be noted. */
        const char *slash = strchr(s, '/');
        char first[32];
        size_t n = slash ? (size_t)(slash - s) : strlen(s);
        bool plain = n < sizeof first;
        int v1 = 0, v2 = 0;
        if (plain) {
            memcpy(first, s, n);
            first[n] = '\0';
            plain = plain_int(first, false, &v1) &&
                    (!slash || (slash[1] != '+' && plain_int(slash + 1, false, &v2)));
        }
        if (plain) {
            cr_assert_eq((int)u->attacks, v1, "%s: attacks %u, source '%s'", where, u->attacks,
                         s);
            cr_assert_eq((int)u->shots, v2, "%s: shots %u, source '%s'", where, u->shots, s);
        } else {
            expect_noted(u, "attack", s, where);
        }
    }

    /* Range: absent, 30 or "30cm"; other prints are noted. */
    if (!range) {
        cr_assert_eq(u->range_cm, 0, "%s: range", where);
    } else if (json_is_integer(range)) {
        cr_assert_eq(u->range_cm, (unsigned)json_integer_value(range), "%s: range", where);
    } else {
        const char *s = json_string_value(range);
        unsigned r = 0;
        int used = 0;
        cr_assert_not_null(s, "%s: range", where);
        if (sscanf(s, "%u%n", &r, &used) == 1 && (strcmp(s + used, "cm") == 0 || !s[used]))
            cr_assert_eq(u->range_cm, r, "%s: range %u, source '%s'", where, u->range_cm, s);
        else
            expect_noted(u, "range", s, where);
    }

    expect_json_stat(u, src, "hits", u->hits, where);
    expect_json_stat(u, src, "command", u->command, where);
    expect_json_stat(u, src, "size", u->size, where);
    expect_json_stat(u, src, "min", u->min, where);
    expect_json_stat(u, src, "max", u->max, where);
    cr_assert_str_eq(u->armour, armour ? json_string_value(armour) : "-", "%s: armour", where);

    /* Points: units print a number, upgrades their cost "+80" (or "-20"). */
    if (!points)
        want = 0;
    else if (json_is_integer(points))
        want = (int)json_integer_value(points);
    else
        cr_assert(plain_int(json_string_value(points), true, &want), "%s: points '%s'", where,
                  json_string_value(points));
    cr_assert_eq(u->points, want, "%s: points %d, source %d", where, u->points, want);
}

/* Compare one Ancients entry with its TSV row, field by field. */
static void expect_tsv_entry(const om_army_unit *u, const tsv *t, size_t r, const char *where)
{
    const char *range = tsv_get(t, r, "range"), *attack = tsv_get(t, r, "attack");
    const char *type = tsv_get(t, r, "type");
    int v = 0;
    unsigned a = 0, b = 0;
    int used = 0;

    cr_assert_str_eq(u->name, tsv_get(t, r, "troop"), "%s", where);
    if (u->source_type)
        cr_assert_str_eq(u->source_type, type, "%s", where);
    else
        cr_assert(strcasecmp(type, om_army_type_name(u->type)) == 0, "%s: type %s, TSV %s",
                  where, om_army_type_name(u->type), type);
    cr_assert_eq(u->attacks, strcmp(attack, "-") == 0 ? 0u : (unsigned)atoi(attack + (*attack == '+')),
                 "%s: attacks %u, TSV '%s'", where, u->attacks, attack);
    /* Range: "-" none; "30" one shot per stand; "3x60" three shots at 60 cm. */
    if (strcmp(range, "-") == 0) {
        cr_assert_eq(u->range_cm, 0, "%s", where);
        cr_assert_eq(u->shots, 0, "%s", where);
    } else if (sscanf(range, "%ux%u%n", &a, &b, &used) == 2 && !range[used]) {
        cr_assert_eq(u->shots, a, "%s: shots", where);
        cr_assert_eq(u->range_cm, b, "%s: range", where);
    } else if (plain_int(range, false, &v)) {
        cr_assert_eq(u->range_cm, (unsigned)v, "%s: range", where);
        cr_assert_eq(u->shots, 1, "%s: one shot per stand with a range", where);
    } else {
        expect_noted(u, "range", range, where);
    }
    cr_assert_eq(u->hits, strcmp(tsv_get(t, r, "hits"), "-") == 0
                              ? 0u : (unsigned)atoi(tsv_get(t, r, "hits")), "%s: hits", where);
    cr_assert_str_eq(u->armour, tsv_get(t, r, "armour"), "%s: armour", where);
    if (plain_int(tsv_get(t, r, "command"), false, &v))
        cr_assert_eq(u->command, (unsigned)v, "%s: command", where);
    else if (strcmp(tsv_get(t, r, "command"), "-") == 0)
        cr_assert_eq(u->command, 0, "%s: command", where);
    else
        expect_noted(u, "command", tsv_get(t, r, "command"), where);
    if (plain_int(tsv_get(t, r, "unit_size"), false, &v))
        cr_assert_eq(u->size, (unsigned)v, "%s: size", where);
    else
        expect_noted(u, "unit_size", tsv_get(t, r, "unit_size"), where);
    cr_assert_eq(u->min, strcmp(tsv_get(t, r, "min"), "-") == 0
                             ? 0u : (unsigned)atoi(tsv_get(t, r, "min")), "%s: min", where);
    cr_assert_eq(u->max, strcmp(tsv_get(t, r, "max"), "-") == 0
                             ? 0u : (unsigned)atoi(tsv_get(t, r, "max")), "%s: max", where);
    cr_assert(plain_int(tsv_get(t, r, "points"), true, &v), "%s: points", where);
    cr_assert_eq(u->points, v, "%s: points %d, TSV %s", where, u->points,
                 tsv_get(t, r, "points"));
    cr_assert_eq(u->is_upgrade, tsv_get(t, r, "points")[0] == '+', "%s: section", where);
}

/* The sample of a section checked field by field: first, middle, last. */
static size_t sample_at(size_t n, size_t k) { return k == 0 ? 0 : k == 1 ? n / 2 : n - 1; }

/* Check that st failed with `code` and a message starting "SOURCE:LINE:
 * field 'FIELD': " that contains `fragment`. */
static void expect_error(om_status st, om_status code, const char *source, int line,
                         const char *field, const char *fragment)
{
    char prefix[TEST_BUF];
    const char *msg = om_error_message();
    cr_assert_eq(st, code, "status %d, expected %d: %s", st, code, msg);
    if (source) {
        snprintf(prefix, sizeof prefix, "%s:%d: field '%s': ", source, line, field);
        cr_assert(strncmp(msg, prefix, strlen(prefix)) == 0,
                  "message\n  %s\ndoes not start with\n  %s", msg, prefix);
    }
    if (fragment)
        cr_assert_not_null(strstr(msg, fragment), "message\n  %s\nlacks '%s'", msg, fragment);
}

/* ---------------------------------------------------------------------------
 * The embedded files.
 */

Test(army, embedded_files_are_the_tree)
{
    /* Every YAML file under scenarios/armies is embedded, unchanged: the
     * build list (armies/meson.build) is complete and current. */
    size_t total = 0, n_sub = 0;
    char **subs = NULL;
    DIR *d = opendir(ARMIES_DIR);
    struct dirent *e;
    cr_assert_not_null(d);
    while ((e = readdir(d))) {
        char path[TEST_BUF];
        DIR *sd;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", ARMIES_DIR, e->d_name);
        if ((sd = opendir(path))) {
            closedir(sd);
            subs = realloc(subs, (n_sub + 1) * sizeof *subs);
            subs[n_sub++] = strdup(e->d_name);
        }
    }
    closedir(d);
    cr_assert_geq(n_sub, 4, "warmaster, warmaster-revolution, warmaster-ancients, whfb7");
    for (size_t s = 0; s <= n_sub; s++) {
        char dir[TEST_BUF];
        size_t n;
        snprintf(dir, sizeof dir, "%s%s%s", ARMIES_DIR, s < n_sub ? "/" : "",
                 s < n_sub ? subs[s] : "");
        char **names = list_dir(dir, ".yaml", &n);
        for (size_t i = 0; i < n; i++) {
            char rel[TEST_BUF], path[2 * TEST_BUF];
            size_t len;
            snprintf(rel, sizeof rel, "%s%s%s", s < n_sub ? subs[s] : "", s < n_sub ? "/" : "",
                     names[i]);
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            const om_army_file *f = om_army_file_find(rel);
            cr_assert_not_null(f, "%s is not embedded: regenerate with convert_armies.py", rel);
            char *text = read_all(path, &len);
            cr_assert_eq(f->len, len, "%s: embedded %zu bytes, the tree %zu", rel, f->len, len);
            cr_assert(memcmp(f->text, text, len) == 0 && f->text[len] == '\0',
                      "%s: the embedded text differs from the tree", rel);
            free(text);
        }
        total += n;
        free_names(names, n);
    }
    cr_assert_eq(om_army_file_count(), total, "%zu embedded, %zu in the tree",
                 om_army_file_count(), total);
    free_names(subs, n_sub);
    cr_assert_null(om_army_file_at(om_army_file_count()));
    cr_assert_null(om_army_file_find("no/such.yaml"));
}

Test(army, every_file_parses)
{
    cr_assert_gt(om_army_file_count(), 0);
    for (size_t i = 0; i < om_army_file_count(); i++) {
        const om_army_file *f = om_army_file_at(i);
        cr_assert_eq(om_army_file_check(f), OM_OK, "%s: %s", f->path, om_error_message());
    }
}

Test(army, file_check_of_an_unknown_kind)
{
    const om_army_file f = { "elsewhere/x.yaml", "elsewhere", "x", "", 0 };
    expect_error(om_army_file_check(&f), OM_EINVAL, NULL, 0, NULL, "not a known kind");
    expect_error(om_army_file_check(NULL), OM_EINVAL, NULL, 0, NULL, NULL);
}

Test(army, rulesets)
{
    cr_assert_eq(om_army_ruleset_count(), 3);
    cr_assert_str_eq(om_army_ruleset_at(0)->id, "warmaster-1.1");
    cr_assert_str_eq(om_army_ruleset_at(0)->dir, "warmaster");
    cr_assert_str_eq(om_army_ruleset_at(2)->dir, "warmaster-ancients");
    cr_assert_null(om_army_ruleset_at(3));
    cr_assert_null(om_army_ruleset_find("whfb7"));
    for (size_t i = 0; i < om_army_ruleset_count(); i++) {
        const om_army_ruleset *rs = om_army_ruleset_at(i);
        cr_assert_eq(om_army_ruleset_find(rs->id), rs);
        cr_assert_not_null(om_wm_ruleset_find(rs->id), "%s is an engine rule set", rs->id);
        for (size_t k = 0; k < om_army_count(rs); k++)
            cr_assert_str_eq(om_army_file_of(rs, k)->dir, rs->dir);
        cr_assert_null(om_army_file_of(rs, om_army_count(rs)));
    }
}

/* ---------------------------------------------------------------------------
 * The lists against their sources.
 */

Test(army, json_lists_match_their_sources)
{
    for (size_t s = 0; s < sizeof json_sources / sizeof json_sources[0]; s++) {
        const om_army_ruleset *rs = om_army_ruleset_find(json_sources[s].ruleset);
        char dir[TEST_BUF];
        size_t n;
        snprintf(dir, sizeof dir, "%s/%s", DATA_DIR, json_sources[s].srcdir);
        char **files = list_dir(dir, ".json", &n);
        cr_assert_gt(n, 0, "no sources in %s", dir);
        cr_assert_eq(om_army_count(rs), n, "%s: %zu armies, %zu source files", rs->id,
                     om_army_count(rs), n);
        for (size_t i = 0; i < n; i++) {
            char path[2 * TEST_BUF], stem[256];
            json_error_t jerr;
            om_army *a = NULL;
            snprintf(path, sizeof path, "%s/%s", dir, files[i]);
            snprintf(stem, sizeof stem, "%.*s", (int)(strlen(files[i]) - 5), files[i]);
            json_t *src = json_load_file(path, 0, &jerr);
            cr_assert_not_null(src, "%s: %s", path, jerr.text);
            cr_assert_eq(om_army_load(rs->id, stem, &a), OM_OK, "%s", om_error_message());
            cr_assert_str_eq(a->name, json_string_value(json_object_get(src, "name")));
            cr_assert_str_eq(a->ruleset, rs->id);
            cr_assert_str_eq(a->id, stem);
            if (strcmp(rs->id, "warmaster-revolution") == 0)
                cr_assert_str_eq(a->list_version, "2.25");
            else
                cr_assert_str_eq(a->list_version,
                                 json_string_value(json_object_get(src, "version")));
            cr_assert_not_null(strstr(a->origin, json_sources[s].srcdir), "%s", a->origin);

            /* Counts: units, upgrades, spells. */
            json_t *units = json_object_get(src, "units"), *ups = json_object_get(src, "upgrades");
            json_t *spells = json_object_get(src, "spells");
            cr_assert_eq(a->units_count, json_object_size(units), "%s: %zu units, source %zu",
                         path, a->units_count, json_object_size(units));
            cr_assert_eq(a->upgrades_count, ups ? json_object_size(ups) : 0, "%s: upgrades",
                         path);
            cr_assert_eq(a->spells_count, spells ? json_array_size(spells) : 0, "%s: spells",
                         path);

            /* A sample of each section, field by field. */
            for (int sec = 0; sec < 2; sec++) {
                const om_army_unit *list = sec ? a->upgrades : a->units;
                size_t count = sec ? a->upgrades_count : a->units_count;
                for (size_t k = 0; count > 0 && k < 3; k++) {
                    const om_army_unit *u = &list[sample_at(count, k)];
                    char where[TEST_BUF];
                    snprintf(where, sizeof where, "%s/%s/%s/%s", rs->id, stem,
                             sec ? "upgrades" : "units", u->id);
                    json_t *e = json_object_get(sec ? ups : units, u->name);
                    cr_assert_not_null(e, "%s: no source entry named '%s'", where, u->name);
                    cr_assert_eq(u->is_upgrade, sec == 1, "%s", where);
                    expect_json_entry(u, e, where);
                }
            }
            json_decref(src);
            om_army_free(a);
        }
        free_names(files, n);
    }
}

Test(army, ancients_lists_match_the_tsv)
{
    const om_army_ruleset *rs = om_army_ruleset_find("warmaster-ancients");
    tsv t = tsv_read(DATA_DIR "/wma_armies.tsv");
    size_t armies = 0, entries = 0;

    cr_assert_gt(t.nrows, 0);
    for (size_t r = 0; r < t.nrows;) {
        const char *army = tsv_get(&t, r, "army");
        size_t end = r, n_up = 0;
        char id[256];
        om_army *a = NULL;
        while (end < t.nrows && strcmp(tsv_get(&t, end, "army"), army) == 0)
            n_up += tsv_get(&t, end++, "points")[0] == '+';
        slug(army, id, sizeof id);
        cr_assert_eq(om_army_load(rs->id, id, &a), OM_OK, "%s", om_error_message());
        cr_assert_str_eq(a->name, army);
        cr_assert_str_eq(a->list_version, "2005 rulebook");
        /* Counts: a unit per row, the '+' rows being upgrades. */
        cr_assert_eq(a->units_count + a->upgrades_count, end - r,
                     "%s: %zu entries, the TSV has %zu rows", id,
                     a->units_count + a->upgrades_count, end - r);
        cr_assert_eq(a->upgrades_count, n_up, "%s: upgrades", id);

        /* A sample of each section against its rows (in order, by section). */
        for (int sec = 0; sec < 2; sec++) {
            const om_army_unit *list = sec ? a->upgrades : a->units;
            size_t count = sec ? a->upgrades_count : a->units_count;
            for (size_t k = 0; count > 0 && k < 3; k++) {
                size_t want = sample_at(count, k), seen = 0, row = r;
                char where[TEST_BUF];
                for (; row < end; row++)
                    if ((tsv_get(&t, row, "points")[0] == '+') == (sec == 1) && seen++ == want)
                        break;
                cr_assert_lt(row, end);
                snprintf(where, sizeof where, "%s/%s/%s", id, sec ? "upgrades" : "units",
                         list[want].id);
                expect_tsv_entry(&list[want], &t, row, where);
            }
        }
        entries += end - r;
        armies++;
        om_army_free(a);
        r = end;
    }
    cr_assert_eq(armies, om_army_count(rs), "%zu TSV armies, %zu files", armies,
                 om_army_count(rs));
    cr_assert_eq(entries, t.nrows);
    tsv_free(&t);
}

Test(army, whfb7_tables_match_the_tsv)
{
    static const char *const tsvs[OM_ARMY_TABLE_COUNT] = {
        DATA_DIR "/whfb7_profiles.tsv", DATA_DIR "/whfb7_weapons.tsv",
    };
    for (unsigned k = 0; k < OM_ARMY_TABLE_COUNT; k++) {
        om_army_table *tab = NULL;
        tsv t = tsv_read(tsvs[k]);
        cr_assert_eq(om_army_table_load((om_army_table_kind)k, &tab), OM_OK, "%s",
                     om_error_message());
        cr_assert_str_eq(tab->ruleset, "whfb7");
        cr_assert_eq(tab->nrows, t.nrows, "%s: %zu rows, TSV %zu", tab->source, tab->nrows,
                     t.nrows);
        cr_assert_eq(tab->ncolumns, t.ncols + 1, "every TSV column plus id");
        for (size_t r = 0; r < t.nrows; r++)
            for (size_t c = 0; c < t.ncols; c++)
                cr_assert_str_eq(om_army_table_cell(tab, r, t.cells[c]),
                                 t.cells[(r + 1) * t.ncols + c], "%s row %zu column %s",
                                 tab->source, r, t.cells[c]);
        cr_assert_null(om_army_table_cell(tab, 0, "no-such-column"));
        cr_assert_null(om_army_table_cell(tab, t.nrows, "name"));
        om_army_table_free(tab);
        tsv_free(&t);
    }
    cr_assert_null(om_army_table_path(OM_ARMY_TABLE_COUNT));
}

/* ---------------------------------------------------------------------------
 * Special rules.
 */

Test(army, registry_agrees_with_the_engine)
{
    om_army_rules *reg = NULL;
    cr_assert_eq(om_army_rules_load(&reg), OM_OK, "%s", om_error_message());
    cr_assert_gt(reg->count, 0);
    for (size_t i = 0; i < reg->count; i++) {
        const om_army_rule *r = &reg->rules[i];
        bool engine = om_wm_special_find(r->id) != NULL;
        cr_assert_eq(r->implemented, engine,
                     "special-rules.yaml says %s is %s but the engine %s it: regenerate with "
                     "scenarios/tools/convert_armies.py", r->id,
                     r->implemented ? "implemented" : "not implemented",
                     engine ? "implements" : "does not implement");
        cr_assert_eq(om_army_rules_find(reg, r->id), r);
        if (i > 0)
            cr_assert_lt(strcmp(reg->rules[i - 1].id, r->id), 0, "sorted, unique ids");
    }
    cr_assert_null(om_army_rules_find(reg, "no-such-rule"));
    om_army_rules_free(reg);
}

Test(army, every_rule_used_is_known)
{
    /* Every rule id of every entry is either implemented by the engine or
     * listed in the registry as not implemented, and the registry's used_by
     * names exactly the entries that use it. */
    om_army_rules *reg = NULL;
    size_t *uses;
    cr_assert_eq(om_army_rules_load(&reg), OM_OK, "%s", om_error_message());
    uses = calloc(reg->count, sizeof *uses);
    for (size_t k = 0; k < om_army_ruleset_count(); k++) {
        const om_army_ruleset *rs = om_army_ruleset_at(k);
        for (size_t i = 0; i < om_army_count(rs); i++) {
            om_army *a = NULL;
            cr_assert_eq(om_army_load(rs->id, om_army_file_of(rs, i)->stem, &a), OM_OK);
            for (size_t e = 0; e < a->units_count + a->upgrades_count; e++) {
                const om_army_unit *u = e < a->units_count ? &a->units[e]
                                                           : &a->upgrades[e - a->units_count];
                char user[TEST_BUF];
                snprintf(user, sizeof user, "%s/%s/%s/%s", rs->id, a->id,
                         u->is_upgrade ? "upgrades" : "units", u->id);
                for (size_t r = 0; r < u->rules_count; r++) {
                    const om_army_rule *rule = om_army_rules_find(reg, u->rules[r]);
                    bool listed = false;
                    cr_assert_not_null(rule, "%s: rule %s is not in the registry", user,
                                       u->rules[r]);
                    cr_assert(om_wm_special_find(rule->id) || !rule->implemented,
                              "%s: %s neither implemented nor listed as not implemented", user,
                              rule->id);
                    for (size_t b = 0; b < rule->used_by_count; b++)
                        listed |= strcmp(rule->used_by[b], user) == 0;
                    cr_assert(listed, "%s: rule %s does not list it in used_by", user, rule->id);
                    uses[rule - reg->rules]++;
                }
            }
            om_army_free(a);
        }
    }
    for (size_t i = 0; i < reg->count; i++)
        cr_assert_eq(uses[i], reg->rules[i].used_by_count, "%s: used %zu times, used_by %zu",
                     reg->rules[i].id, uses[i], reg->rules[i].used_by_count);
    free(uses);
    om_army_rules_free(reg);
}

/* Every rule the registry marks as modelled resolves, in each rule set whose
 * lists use it, to traits of the engine, unless the engine models it through
 * side keys or it changes nothing the engine does by default. */
Test(army, modelled_rules_resolve_to_traits_in_their_rule_sets)
{
    om_army_rules *reg = NULL;
    size_t checked = 0;
    cr_assert_eq(om_army_rules_load(&reg), OM_OK, "%s", om_error_message());
    for (size_t i = 0; i < reg->count; i++) {
        const om_army_rule *r = &reg->rules[i];
        const om_wm_special *sp = om_wm_special_find(r->id);
        if (!r->implemented)
            continue;
        cr_assert_not_null(sp, "%s", r->id);
        cr_assert_gt(r->rulesets_count, 0, "%s", r->id);
        for (size_t k = 0; k < r->rulesets_count; k++) {
            const om_wm_ruleset *rs = om_wm_ruleset_find(r->rulesets[k]);
            cr_assert_not_null(rs, "%s: %s", r->id, r->rulesets[k]);
            const om_wm_traits *t = om_wm_special_traits(sp, rs);
            cr_expect(sp->how != OM_WM_BY_TRAITS || !om_wm_traits_empty(t),
                      "%s has no traits in %s", r->id, rs->name);
            checked++;
        }
    }
    cr_expect_gt(checked, 100u);
    om_army_rules_free(reg);
}

/* Every entry of every list becomes an engine unit, or joins one, without
 * two of its rules disagreeing on a one-of-several trait. */
Test(army, rules_of_every_entry_agree)
{
    for (size_t k = 0; k < om_army_ruleset_count(); k++) {
        const om_army_ruleset *ars = om_army_ruleset_at(k);
        const om_wm_ruleset *rs = om_wm_ruleset_find(ars->id);
        for (size_t i = 0; i < om_army_count(ars); i++) {
            om_army *a = NULL;
            cr_assert_eq(om_army_load(ars->id, om_army_file_of(ars, i)->stem, &a), OM_OK);
            for (size_t e = 0; e < a->units_count + a->upgrades_count; e++) {
                const om_army_unit *u = e < a->units_count ? &a->units[e]
                                                           : &a->upgrades[e - a->units_count];
                om_wm_side s;
                memset(&s, 0, sizeof s);
                if ((unsigned)u->type < OM_WM_TROOP_COUNT)
                    cr_expect_eq(om_army_unit_to_wm(u, rs, &s.unit), OM_OK, "%s/%s/%s: %s",
                                 ars->id, a->id, u->id, om_error_message());
                else
                    cr_expect_eq(om_wm_side_join(&s, rs, u->attacks, u->rules, u->rules_count),
                                 OM_OK, "%s/%s/%s: %s", ars->id, a->id, u->id,
                                 om_error_message());
            }
            om_army_free(a);
        }
    }
}

/* ---------------------------------------------------------------------------
 * The engine's view of an entry.
 */

/* Load ruleset/army and find the entry `id`. */
static const om_army_unit *entry(const char *ruleset, const char *ref, om_army **a)
{
    const om_army_unit *u = NULL;
    cr_assert_eq(om_army_find(ruleset, ref, a, &u), OM_OK, "%s", om_error_message());
    return u;
}

Test(army, unit_to_wm)
{
    om_army *a = NULL;
    om_wm_unit w;
    const om_army_unit *u = entry("warmaster-revolution", "empire/knights", &a);
    cr_assert_eq(om_army_unit_to_wm(u, NULL, &w), OM_OK);
    cr_assert_str_eq(w.name, "Knights");
    cr_assert_eq(w.troop, OM_WM_CAVALRY);
    cr_assert_eq(w.stands, 3);
    cr_assert_eq(w.attacks, 3);
    cr_assert_eq(w.shots, 0);
    cr_assert_eq(w.hits, 3);
    cr_assert_eq(w.armour, 4);
    cr_assert_eq(w.pace_cm, om_wm_troop_pace(OM_WM_CAVALRY));
    cr_assert_eq(w.points, 110);
    cr_assert(om_wm_traits_empty(&w.traits));
    cr_assert_eq(w.rule_count, 0);
    cr_assert_str_eq(w.unmodelled, "");

    /* Shooting, and a rule the engine models: its traits are set. */
    u = om_army_unit_find(a, "handgunners");
    cr_assert_eq(om_army_unit_to_wm(u, NULL, &w), OM_OK);
    cr_assert_eq(w.shots, 1);
    cr_assert_eq(w.range_cm, 30);
    cr_assert_eq(w.armour, 0, "armour '-'");
    cr_assert(om_wm_traits_equal(&w.traits, &om_wm_special_find("handgunners")->traits));
    cr_assert_eq(w.rule_count, 1);
    cr_assert_eq(om_wm_special_at(w.rule[0]), om_wm_special_find("handgunners"));
    cr_assert_str_eq(w.unmodelled, "");

    /* The Helblaster's range bands and misfire table are modelled; a rule the
     * engine does not model (Desert Riders' all-round vision) is recorded, not
     * dropped. */
    u = om_army_unit_find(a, "helblaster");
    cr_assert_eq(om_army_unit_to_wm(u, NULL, &w), OM_OK);
    cr_assert(om_wm_traits_equal(&w.traits, &om_wm_special_find("helblaster")->traits));
    cr_assert_eq(w.traits.shooter, OM_WM_SHOOTER_HELBLASTER);
    cr_assert_str_eq(w.unmodelled, "");
    {
        om_army *k = NULL;
        u = entry("warmaster-revolution", "araby/desert-riders", &k);
        cr_assert_eq(om_army_unit_to_wm(u, NULL, &w), OM_OK);
        cr_assert_null(om_wm_special_find("desert-riders"));
        cr_assert(strstr(w.unmodelled, "desert-riders") != NULL, "unmodelled: %s", w.unmodelled);
        om_army_free(k);
    }

    /* "-/6+": the better save. */
    u = om_army_unit_find(a, "skirmishers");
    cr_assert_str_eq(u->armour, "-/6+");
    cr_assert_eq(u->save, 6);

    /* Characters and mounts are not units the engine fights with. */
    u = om_army_unit_find(a, "general");
    cr_assert_eq(u->type, OM_ARMY_GENERAL);
    cr_assert(om_army_type_is_character(u->type));
    cr_assert_eq(u->attacks, 2, "the +2 bonus");
    expect_error(om_army_unit_to_wm(u, NULL, &w), OM_EUNSUPPORTED, NULL, 0, NULL, "character");
    u = om_army_unit_find(a, "griffon");
    cr_assert(u->is_upgrade);
    cr_assert_eq(u->type, OM_ARMY_MOUNT);
    cr_assert_str_eq(u->source_type, "Monstrous Mount");
    expect_error(om_army_unit_to_wm(u, NULL, &w), OM_EUNSUPPORTED, NULL, 0, NULL, "mount");
    om_army_free(a);

    /* The War Wagon prints its save both ways round; both give 4+. */
    u = entry("warmaster-revolution", "kislev/war-wagon", &a);
    cr_assert_str_eq(u->armour, "4+/-");
    cr_assert_eq(u->save, 4);
    om_army_free(a);
    u = entry("warmaster-1.1", "kislev/war-wagon", &a);
    cr_assert_str_eq(u->armour, "-/4+");
    cr_assert_eq(u->save, 4);
    om_army_free(a);

    /* An Ancients unit: a modelled rule sets its traits, another is recorded. */
    u = entry("warmaster-ancients", "egyptian/mercenaries", &a);
    cr_assert_eq(om_army_unit_to_wm(u, NULL, &w), OM_OK);
    cr_assert_not_null(om_wm_special_find("warband"));
    cr_assert(om_wm_traits_equal(&w.traits, &om_wm_special_find("warband")->traits));
    cr_assert(w.traits.warband);
    cr_assert_str_eq(w.unmodelled, "unreliable");
    om_army_free(a);
}

Test(army, rules_to_wm_never_drops_a_rule)
{
    char *ids[] = { "alpha", "terror", "beta", "alpha", "terror" };
    const size_t fill = sizeof ((om_wm_unit *)0)->unmodelled - sizeof "alpha, beta";
    om_wm_unit u;
    memset(&u, 0, sizeof u);
    cr_assert_eq(om_army_rules_to_wm(ids, 2, NULL, &u), OM_OK);
    cr_assert(u.traits.terror);
    cr_assert_eq(u.rule_count, 1);
    cr_assert_str_eq(u.unmodelled, "alpha");
    /* A repeated id is neither added again nor recorded twice. */
    cr_assert_eq(om_army_rules_to_wm(ids, 5, NULL, &u), OM_OK);
    cr_assert_str_eq(u.unmodelled, "alpha, beta");
    cr_assert_eq(u.rule_count, 1);
    /* Filled up to its last byte, "alpha, beta, x...x" fits; another id does
     * not: an error, never a silent drop. */
    memset(u.unmodelled + strlen(u.unmodelled), 'x', fill);
    u.unmodelled[strlen("alpha, beta")] = ',';
    u.unmodelled[strlen("alpha, beta") + 1] = ' ';
    u.unmodelled[sizeof u.unmodelled - 1] = '\0';
    expect_error(om_wm_unit_add_unmodelled(&u, "gamma"), OM_EINVAL, NULL, 0, NULL, "gamma");
    cr_assert_eq(strlen(u.unmodelled), sizeof u.unmodelled - 1);
}

/* ---------------------------------------------------------------------------
 * Lookups and suggestions.
 */

Test(army, lookups_suggest_near_misses)
{
    om_army *a = NULL;
    const om_army_unit *u = NULL;
    static const struct {
        const char *ruleset, *ref;
        om_status code;
        const char *fragment;
    } cases[] = {
        { "warmaster-revolution", "knights", OM_EPARSE, "expected army/unit" },
        { "warmaster-revolution", "empire/", OM_EPARSE, "expected army/unit" },
        { "warmaster-revolution", "/knights", OM_EPARSE, "expected army/unit" },
        { "warmaster-revolution", "a/b/c", OM_EPARSE, "expected army/unit" },
        { "whfb7", "empire/knights", OM_ENOTFOUND, "no army lists for rule set 'whfb7'" },
        { "warmaster-revolution", "emprie/knights", OM_ENOTFOUND, "did you mean 'empire'?" },
        { "warmaster-revolution", "orcs-goblins/black-orcs", OM_ENOTFOUND,
          "did you mean 'orcs'?" },
        { "warmaster-revolution", "orc/black-orcs", OM_ENOTFOUND,
          "'orc' (an army of warmaster-1.1); did you mean 'orcs'?" },
        { "warmaster-revolution", "zzzz/knights", OM_ENOTFOUND, "its armies: albion, araby" },
        { "warmaster-revolution", "empire/knigths", OM_ENOTFOUND, "did you mean 'knights'?" },
        { "warmaster-revolution", "empire/Knights", OM_ENOTFOUND, "did you mean 'knights'?" },
        { "warmaster-revolution", "orcs/Black Orcs", OM_ENOTFOUND,
          "did you mean 'black-orcs'?" },
        { "warmaster-revolution", "empire/dragon", OM_ENOTFOUND,
          "its units: halberdiers, handgunners" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        om_error_clear();
        expect_error(om_army_find(cases[i].ruleset, cases[i].ref, &a, &u), cases[i].code, NULL,
                     0, NULL, cases[i].fragment);
        cr_assert_null(a, "%s", cases[i].ref);
        cr_assert_null(u, "%s", cases[i].ref);
    }
    /* Upgrades are found too. */
    u = entry("warmaster-revolution", "empire/griffon", &a);
    cr_assert(u->is_upgrade);
    om_army_free(a);
    cr_assert_null(om_army_unit_find(NULL, "x"));
    cr_assert_eq(om_army_load(NULL, "empire", &a), OM_EINVAL);
    cr_assert_eq(om_army_load("warmaster-1.1", "empire", NULL), OM_EINVAL);
}

Test(army, suggestions)
{
    static const char *const ids[] = { "knights", "black-orcs", "orcs", "bear", "terror" };
    const size_t n = sizeof ids / sizeof ids[0];
    cr_assert_str_eq(om_suggest("knigths", ids, n), "knights", "a swap");
    cr_assert_str_eq(om_suggest("Knights", ids, n), "knights", "case");
    cr_assert_str_eq(om_suggest("Black Orcs", ids, n), "black-orcs", "spaces");
    cr_assert_str_eq(om_suggest("black_orc", ids, n), "black-orcs");
    cr_assert_str_eq(om_suggest("orcs-goblins", ids, n), "orcs", "a word prefix");
    cr_assert_str_eq(om_suggest("teror", ids, n), "terror");
    cr_assert_null(om_suggest("fear", ids, n), "short names need their first letter");
    cr_assert_null(om_suggest("zzzzzz", ids, n));
    cr_assert_null(om_suggest("knights", ids, 0));
}

/* The same function answers the command line's typos. */
Test(army, suggestions_of_command_words)
{
    static const char *const commands[] = {"run", "summary", "list", "matrix", "efficiency",
                                           "chart"};
    static const char *const options[] = {"output", "trials", "seed", "threads", "quiet"};
    cr_assert_str_eq(om_suggest("rn", commands, 6), "run", "a dropped letter of a short word");
    cr_assert_str_eq(om_suggest("sumary", commands, 6), "summary");
    cr_assert_str_eq(om_suggest("trails", options, 5), "trials", "a swap");
    cr_assert_null(om_suggest("xyz", commands, 6));
}

/* ---------------------------------------------------------------------------
 * Parse errors: every one names the file, line and field.
 */

/* A small army file; "%s" stands for line 14 (a key of units[1]); the
 * cases give two lines there, so armour is on line 19 and points on 22. */
static const char army_template[] =
    "schema: oddsmaster-army/1\n"                      /* 1 */
    "ruleset: warmaster-revolution\n"                  /* 2 */
    "army: test\n"                                     /* 3 */
    "name: Test\n"                                     /* 4 */
    "source: \"nowhere\"\n"                            /* 5 */
    "list_version: \"1\"\n"                            /* 6 */
    "source_label: Test\n"                             /* 7 */
    "magic_items: none\n"                              /* 8 */
    "units:\n"                                         /* 9 */
    "  - {id: a, name: A, type: infantry, attacks: 3, shots: 0, range_cm: 0, hits: 3,\n"
    "     armour: \"6+\", command: 0, size: 3, points: 45, min: 0, max: 0, rules: []}\n"
    "  - id: b\n"                                      /* 12 */
    "    name: B\n"                                    /* 13 */
    "    %s\n"                                         /* 14 */
    "    shots: 0\n"
    "    range_cm: 0\n"
    "    hits: 3\n"
    "    armour: \"5+\"\n"
    "    command: 0\n"
    "    size: 3\n"
    "    points: 60\n"
    "    min: 0\n"
    "    max: 0\n"
    "    rules: [terror]\n";

/* Parse the template with line 14 replaced. */
static om_status parse_with(const char *line14, om_army **a)
{
    char text[TEST_BUF];
    snprintf(text, sizeof text, army_template, line14);
    om_error_clear();
    return om_army_parse("test.yaml", text, strlen(text), a);
}

Test(army, parse_a_small_file)
{
    om_army *a = NULL;
    cr_assert_eq(parse_with("type: cavalry\n    attacks: 4", &a), OM_OK, "%s",
                 om_error_message());
    cr_assert_str_eq(a->source, "test.yaml");
    cr_assert_eq(a->units_count, 2);
    cr_assert_eq(a->upgrades_count, 0);
    cr_assert_eq(a->units[1].type, OM_ARMY_CAVALRY);
    cr_assert_eq(a->units[1].attacks, 4);
    cr_assert_eq(a->units[1].rules_count, 1);
    cr_assert_str_eq(a->units[1].rules[0], "terror");
    cr_assert_null(a->units[1].notes);
    om_army_free(a);
    om_army_free(NULL);
}

Test(army, parse_errors)
{
    static const struct {
        const char *line14;
        om_status code;
        int line;
        const char *field, *fragment;
    } cases[] = {
        { "type: cavalry\n    atacks: 4", OM_EPARSE, 15, "units[1].atacks",
          "did you mean 'attacks'?" },
        { "type: cavalry", OM_EPARSE, 12, "units[1].attacks", "required key 'attacks'" },
        { "type: dragon\n    attacks: 4", OM_EPARSE, 14, "units[1].type",
          "unknown type 'dragon'; expected one of: infantry, cavalry" },
        { "type: cavalry\n    attacks: three", OM_EPARSE, 15, "units[1].attacks",
          "expected an integer, got 'three'" },
        { "type: cavalry\n    attacks: 256", OM_EINVAL, 15, "units[1].attacks", "too large" },
        { "type: cavalry\n    attacks: [4]", OM_EPARSE, 15, "units[1].attacks",
          "expected an integer, got a list" },
        { "type: cavalry\n    attacks: 4\n    upgrades: [[x]]", OM_EPARSE, 16,
          "units[1].upgrades", "expected an id" },
        { "id: c\n    type: cavalry\n    attacks: 4", OM_EPARSE, 14, "units[1].id",
          "duplicate key 'id'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        om_army *a = NULL;
        expect_error(parse_with(cases[i].line14, &a), cases[i].code, "test.yaml",
                     cases[i].line, cases[i].field, cases[i].fragment);
        cr_assert_null(a);
    }
}

Test(army, value_errors)
{
    static const struct {
        const char *from, *to;
        om_status code;
        int line;
        const char *field, *fragment;
    } cases[] = {
        { "armour: \"5+\"", "armour: \"2+\"", OM_EINVAL, 19, "units[1].armour",
          "out of range (3+ to 6+)" },
        { "armour: \"5+\"", "armour: heavy", OM_EPARSE, 19, "units[1].armour",
          "expected a save" },
        { "armour: \"5+\"", "armour: \"-/-/5+\"", OM_EPARSE, 19, "units[1].armour",
          "expected a save" },
        { "points: 60", "points: 99999", OM_EINVAL, 22, "units[1].points", "out of range" },
        { "points: 60", "points: lots", OM_EPARSE, 22, "units[1].points", "expected an integer" },
        { "  - id: b", "  - id: a", OM_EINVAL, 12, "units[1].id", "duplicate id 'a'" },
        { "name: B", "name: \"\"", OM_EINVAL, 13, "units[1].name", "must not be empty" },
        { "ruleset: warmaster-revolution", "ruleset: chess", OM_EPARSE, 2, "ruleset",
          "unknown rule set 'chess'" },
        { "schema: oddsmaster-army/1", "schema: oddsmaster-army/2", OM_EPARSE, 1, "schema",
          "this version reads 'oddsmaster-army/1'" },
        { "army: test", "army: \"\"", OM_EINVAL, 3, "army", "must not be empty" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[TEST_BUF], out[TEST_BUF];
        om_army *a = NULL;
        snprintf(text, sizeof text, army_template, "type: cavalry\n    attacks: 4");
        char *at = strstr(text, cases[i].from);
        cr_assert_not_null(at, "%s", cases[i].from);
        snprintf(out, sizeof out, "%.*s%s%s", (int)(at - text), text, cases[i].to,
                 at + strlen(cases[i].from));
        om_error_clear();
        expect_error(om_army_parse("test.yaml", out, strlen(out), &a), cases[i].code,
                     "test.yaml", cases[i].line, cases[i].field, cases[i].fragment);
        cr_assert_null(a);
    }
}

Test(army, document_errors)
{
    om_army *a = NULL;
    om_army_rules *r = NULL;
    om_army_table *t = NULL;
    expect_error(om_army_parse("e.yaml", "", 0, &a), OM_EPARSE, "e.yaml", 1, "(document)",
                 "the file is empty");
    expect_error(om_army_parse("e.yaml", "- 1\n", 4, &a), OM_EPARSE, "e.yaml", 1,
                 "(document)", "must be a mapping");
    expect_error(om_army_parse("e.yaml", "a: [\n", 5, &a), OM_EPARSE, "e.yaml", 2, "a",
                 "invalid YAML");
    expect_error(om_army_parse(NULL, NULL, 3, &a), OM_EINVAL, NULL, 0, NULL, NULL);
    cr_assert_null(a);

    /* The registry and the tables check their own fields. */
    static const char rules[] =
        "schema: oddsmaster-special-rules/1\n"
        "rules:\n"
        "  - id: x\n"
        "    name: X\n"
        "    ruleset: [warmaster-1.1]\n"
        "    summary: s\n"
        "    engine: maybe\n"
        "    affects_engagement_dice: no\n"
        "    used_by: []\n"
        "    text: t\n"
        "    text_sources: []\n";
    expect_error(om_army_rules_parse("r.yaml", rules, strlen(rules), &r), OM_EPARSE, "r.yaml",
                 7, "rules[0].engine", "expected implemented or not-implemented");
    cr_assert_null(r);
    expect_error(om_army_rules_parse("r.yaml", "schema: oddsmaster-army/1\n", 26, &r),
                 OM_EPARSE, "r.yaml", 1, "schema", "oddsmaster-special-rules/1");
    expect_error(om_army_table_parse(OM_ARMY_TABLE_WEAPONS, "w.yaml",
                                     "schema: oddsmaster-whfb7-weapons/1\nruleset: whfb7\n", 49,
                                     &t),
                 OM_EPARSE, "w.yaml", 1, "source", "required key 'source'");
    cr_assert_null(t);
    expect_error(om_army_table_parse(OM_ARMY_TABLE_COUNT, "w.yaml", "", 0, &t), OM_EINVAL,
                 NULL, 0, NULL, NULL);
}

/* A rule id can mean less in one rule set's lists: the 1.1 Chaos Spawn causes
 * terror only, the Revolution one is also never driven back and must pursue
 * (rule_effects_fantasy A-39). Units loaded from each list get their own. */
Test(army, rule_traits_follow_the_rule_set)
{
    const char *rs_names[2] = {"warmaster-1.1", "warmaster-revolution"};
    for (int i = 0; i < 2; i++) {
        om_army *a = NULL;
        om_wm_unit w;
        const om_army_unit *u = entry(rs_names[i], "chaos/chaos-spawn", &a);
        cr_assert_eq(om_army_unit_to_wm(u, om_wm_ruleset_find(rs_names[i]), &w), OM_OK, "%s",
                     om_error_message());
        cr_expect(w.traits.terror, "%s: terror", rs_names[i]);
        cr_expect_eq(w.traits.no_drive_back, i == 1, "%s: drive backs", rs_names[i]);
        cr_expect_eq(w.traits.must_pursue, i == 1, "%s: must pursue", rs_names[i]);
        om_army_free(a);
        /* Bears: the 1.1 extra strike, the Revolution loss of defended status. */
        u = entry(rs_names[i], "kislev/bears", &a);
        cr_assert_eq(om_army_unit_to_wm(u, om_wm_ruleset_find(rs_names[i]), &w), OM_OK);
        cr_expect_eq(w.traits.extra_strike_round1, i == 0, "%s", rs_names[i]);
        cr_expect_eq(w.traits.cover == OM_WM_COVER_ONLY_IN_DENSE, i == 1, "%s", rs_names[i]);
        cr_expect_eq(w.traits.charge_bonus_delta, +1);
        om_army_free(a);
    }
}
