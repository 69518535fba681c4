/*
 * test_corpus.c: every scenario file the loaders accept or refuse, through the
 * loader (om_scenario_load_file) and the game's trials, in every build (the
 * sanitizer build too). The corpus (corpus.h) holds, for each game, a folder
 * per kind of files that must load and run, and a folder of files that must be
 * refused with the message their first line expects.
 *
 * The key table of each game (its `keys` hook, which `oddsmaster list --keys`
 * prints) knows every key at its level; a test reads the corpus files with
 * libyaml, places each mapping at the levels its path gives (a.unit is the
 * unit keys, a.units[].plan the plan keys, ...) and fails for any key of the
 * table that no file sets at its level. Other tests: the kinds of each game are
 * its kind table and its `kind` key; text that is not text (a NUL byte, binary
 * bytes, UTF-16) is refused with a message that says so.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <yaml.h>

#include "corpus.h"
#include "game.h"

/* The seed of the trials run of each file. */
#define TRIAL_SEED 19

/* Most keys a game's table holds, and levels a mapping may stand for. */
#define KEYS_MAX 512
#define LEVELS_MAX 3

/* Where the keys of a mapping belong: the mapping's path in a file (keys
 * joined by '.', "[]" for an entry of a list, "S" for side a or b) and the
 * levels of the key table it holds keys of. A path of no level (options:
 * names the engine's registry, not keys) lists none. */
typedef struct key_place {
    const char *game;
    const char *path;
    const char *levels[LEVELS_MAX];
} key_place;

static const key_place places[] = {
    {"warmaster", "", {"top"}},
    {"warmaster", "S", {"side", "army"}},
    {"warmaster", "S.unit", {"unit"}},
    {"warmaster", "S.units[]", {"side", "placement"}},
    {"warmaster", "S.units[].unit", {"unit"}},
    {"warmaster", "S.units[].plan", {"plan"}},
    {"warmaster", "S.characters[]", {"character"}},
    {"warmaster", "S.brigades[]", {"brigade"}},
    {"warmaster", "S.brigades[].plan", {"plan"}},
    {"warmaster", "terrain[]", {"terrain"}},
    {"warmaster", "table", {"table"}},
    {"warmaster", "options", {NULL}},
    {"whfb7", "", {"top"}},
    {"whfb7", "S", {"side"}},
    {"whfb7", "S.unit", {"unit", "profile"}},
    {"whfb7", "S.unit.equipment", {"equipment"}},
    {"whfb7", "S.unit.mount", {"mount", "profile"}},
    {"whfb7", "S.unit.characters[]", {"character", "profile"}},
    {"whfb7", "S.unit.characters[].equipment", {"equipment"}},
    {"whfb7", "S.unit.characters[].mount", {"mount", "profile"}},
    {"whfb7", "S.mods", {"mods"}},
    {"whfb7", "magic", {"magic"}},
    {"whfb7", "magic.caster", {"profile"}},
    {"whfb7", "options", {NULL}},
    /* Army list files (a game's battles group, list_keys), under the name of
     * their game's folder of tests/data/lists/ plus "/list". */
    {"warmaster/list", "", {"list"}},
    {"warmaster/list", "units[]", {"list unit"}},
    {"warmaster/list", "characters[]", {"list character"}},
};

/* The game's keys, and which of them a corpus file has set. */
typedef struct key_cover {
    om_game_key keys[KEYS_MAX];
    bool set[KEYS_MAX];
    size_t n;
} key_cover;

/* The place of the mapping at `path` in files of `game`, or NULL. */
static const key_place *place_of(const char *game, const char *path)
{
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++)
        if (strcmp(places[i].game, game) == 0 && strcmp(places[i].path, path) == 0)
            return &places[i];
    return NULL;
}

/* Key `key` is set in a mapping at place p: mark it at each level of p. */
static void cover_key(key_cover *c, const key_place *p, const char *key)
{
    for (size_t l = 0; l < LEVELS_MAX && p->levels[l]; l++)
        for (size_t i = 0; i < c->n; i++)
            if (strcmp(c->keys[i].where, p->levels[l]) == 0 && strcmp(c->keys[i].name, key) == 0)
                c->set[i] = true;
}

/* One open collection of the walk of a corpus file. */
typedef struct frame {
    bool is_map;     /* a mapping (else a list) */
    bool want_key;   /* mapping: the next node is a key */
    char key[64];    /* mapping: the key whose value is being read */
    char path[192];  /* the collection's own path */
} frame;

/* The path of a collection that opens inside `parent` (NULL: the root). */
static void child_path(const frame *parent, size_t depth, char *out, size_t cap)
{
    int n;
    if (parent == NULL)
        n = snprintf(out, cap, "%s", "");
    else if (!parent->is_map)
        n = snprintf(out, cap, "%s[]", parent->path);
    else if (depth == 1 && (strcmp(parent->key, "a") == 0 || strcmp(parent->key, "b") == 0))
        n = snprintf(out, cap, "S");
    else
        n = snprintf(out, cap, "%s%s%s", parent->path, parent->path[0] ? "." : "", parent->key);
    cr_assert(n >= 0 && (size_t)n < cap, "path too long");
}

/* Mark every key the corpus file `path` of `game` sets at its level. */
static void cover_file(key_cover *c, const char *game, const char *path)
{
    size_t len = 0, depth = 0;
    char *text = corpus_slurp(path, &len);
    frame st[16];
    yaml_parser_t parser;
    bool done = false;
    cr_assert(yaml_parser_initialize(&parser));
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    while (!done) {
        yaml_event_t ev;
        cr_assert(yaml_parser_parse(&parser, &ev), "%s: not YAML", path);
        frame *top = depth ? &st[depth - 1] : NULL;
        switch (ev.type) {
        case YAML_SCALAR_EVENT:
        case YAML_ALIAS_EVENT:
            if (top && top->is_map && top->want_key) {
                const key_place *p = place_of(game, top->path);
                cr_assert_eq(ev.type, YAML_SCALAR_EVENT);
                cr_assert_lt(ev.data.scalar.length, sizeof top->key, "%s: a long key", path);
                memcpy(top->key, ev.data.scalar.value, ev.data.scalar.length + 1);
                cr_assert_not_null(p, "%s: a mapping at '%s' that this test places at no level "
                                   "of the key table (add it to places[])", path, top->path);
                cover_key(c, p, top->key);
                top->want_key = false;
            } else if (top && top->is_map) {
                top->want_key = true;
            }
            break;
        case YAML_MAPPING_START_EVENT:
        case YAML_SEQUENCE_START_EVENT:
            cr_assert_lt(depth, sizeof st / sizeof st[0], "%s: nested too deep", path);
            st[depth] = (frame){.is_map = ev.type == YAML_MAPPING_START_EVENT, .want_key = true};
            child_path(top, depth, st[depth].path, sizeof st[depth].path);
            depth++;
            break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT:
            depth--;
            if (depth > 0 && st[depth - 1].is_map)
                st[depth - 1].want_key = true;
            break;
        case YAML_STREAM_END_EVENT:
            done = true;
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    free(text);
}

/* The folders of kinds of a game's corpus (every folder but bad/). */
static void kind_dirs(const om_game *g, char names[][CORPUS_PATH_MAX / 2], size_t *n)
{
    char dir[CORPUS_PATH_MAX], all[CORPUS_FILES_MAX][CORPUS_PATH_MAX / 2];
    size_t m = 0;
    corpus_join(dir, sizeof dir, CORPUS_DIR, g->identity.name);
    corpus_list(dir, NULL, all, &m);
    *n = 0;
    for (size_t i = 0; i < m; i++)
        if (strcmp(all[i], CORPUS_BAD) != 0)
            memcpy(names[(*n)++], all[i], sizeof all[i]);
}

/* Every key of every game's key table is set by a file of its corpus, at its
 * level. */
Test(corpus, every_key_is_set_by_a_file)
{
    for (size_t g = 0; g < om_game_count; g++) {
        const om_game *game = om_games[g];
        static key_cover c;
        char kinds[CORPUS_FILES_MAX][CORPUS_PATH_MAX / 2];
        size_t n_kinds = 0, files = 0, missing = 0;
        memset(&c, 0, sizeof c);
        c.n = game->catalogue->keys(c.keys, KEYS_MAX);
        cr_assert_leq(c.n, KEYS_MAX, "%s: more keys than this test holds", game->identity.name);
        kind_dirs(game, kinds, &n_kinds);
        for (size_t k = 0; k < n_kinds; k++) {
            char sub[CORPUS_PATH_MAX], dir[CORPUS_PATH_MAX], names[CORPUS_FILES_MAX][CORPUS_PATH_MAX / 2];
            size_t n = 0;
            corpus_join(sub, sizeof sub, CORPUS_DIR, game->identity.name);
            corpus_join(dir, sizeof dir, sub, kinds[k]);
            corpus_list(dir, ".yaml", names, &n);
            for (size_t i = 0; i < n; i++, files++) {
                char path[CORPUS_PATH_MAX];
                corpus_join(path, sizeof path, dir, names[i]);
                cover_file(&c, game->identity.name, path);
            }
        }
        cr_assert_gt(files, 0u, "%s: no corpus files", game->identity.name);
        for (size_t i = 0; i < c.n; i++)
            if (!c.set[i]) {
                missing++;
                cr_log_error("%s: no file of tests/data/corpus/%s sets the %s key '%s'",
                             game->identity.name, game->identity.name, c.keys[i].where, c.keys[i].name);
            }
        cr_expect_eq(missing, 0u, "%s: %zu of its %zu keys are set by no corpus file",
                     game->identity.name, missing, c.n);
    }
}

/* The folders of a game's corpus are its kinds, every kind has files, and each
 * file loads as a scenario of its folder's kind and game. The game's `kind`
 * key lists the same kinds, in the same order. */
Test(corpus, the_kinds_of_each_game)
{
    for (size_t g = 0; g < om_game_count; g++) {
        const om_game *game = om_games[g];
        char kinds[CORPUS_FILES_MAX][CORPUS_PATH_MAX / 2];
        size_t n_kinds = 0;
        static om_game_key keys[KEYS_MAX];
        const om_game_key *kind_key = NULL;
        size_t n_keys = game->catalogue->keys(keys, KEYS_MAX);
        kind_dirs(game, kinds, &n_kinds);
        cr_expect_eq(n_kinds, game->identity.n_kinds, "%s: %zu folders of kinds, %zu kinds", game->identity.name,
                     n_kinds, game->identity.n_kinds);
        for (size_t k = 0; k < game->identity.n_kinds; k++) {
            bool found = false;
            for (size_t i = 0; i < n_kinds && !found; i++)
                found = strcmp(kinds[i], game->identity.kinds[k].name) == 0;
            cr_expect(found, "%s: no corpus folder of kind %s", game->identity.name,
                      game->identity.kinds[k].name);
        }
        for (size_t i = 0; i < n_keys; i++)
            if (strcmp(keys[i].where, "top") == 0 && strcmp(keys[i].name, "kind") == 0)
                kind_key = &keys[i];
        cr_assert_not_null(kind_key, "%s: no top-level key 'kind'", game->identity.name);
        cr_assert_eq(kind_key->n_values, game->identity.n_kinds, "%s: the kind key has %zu words, the "
                     "game %zu kinds", game->identity.name, kind_key->n_values, game->identity.n_kinds);
        for (size_t k = 0; k < game->identity.n_kinds; k++)
            cr_expect_str_eq(kind_key->values[k], game->identity.kinds[k].name, "%s: kind %zu",
                             game->identity.name, k);
        for (size_t k = 0; k < n_kinds; k++) {
            char sub[CORPUS_PATH_MAX], dir[CORPUS_PATH_MAX], names[CORPUS_FILES_MAX][CORPUS_PATH_MAX / 2];
            size_t n = 0;
            corpus_join(sub, sizeof sub, CORPUS_DIR, game->identity.name);
            corpus_join(dir, sizeof dir, sub, kinds[k]);
            corpus_list(dir, ".yaml", names, &n);
            cr_expect_gt(n, 0u, "%s: no file in %s", game->identity.name, dir);
            for (size_t i = 0; i < n; i++) {
                char path[CORPUS_PATH_MAX];
                om_scenario *sc = NULL;
                corpus_join(path, sizeof path, dir, names[i]);
                cr_assert_eq(om_scenario_load_file(path, &sc), OM_OK, "%s", om_error_message());
                cr_expect_str_eq(sc->game->identity.name, game->identity.name, "%s", path);
                cr_expect_str_eq(sc->kind, kinds[k], "%s", path);
                om_scenario_free(sc);
            }
        }
    }
}

/* Every file of the corpus loads through the loader and runs a block of
 * trials through its game. */
Test(corpus, every_file_loads_and_runs)
{
    size_t files = 0;
    for (size_t g = 0; g < om_game_count; g++) {
        char kinds[CORPUS_FILES_MAX][CORPUS_PATH_MAX / 2];
        size_t n_kinds = 0;
        kind_dirs(om_games[g], kinds, &n_kinds);
        for (size_t k = 0; k < n_kinds; k++) {
            char sub[CORPUS_PATH_MAX], dir[CORPUS_PATH_MAX], names[CORPUS_FILES_MAX][CORPUS_PATH_MAX / 2];
            size_t n = 0;
            corpus_join(sub, sizeof sub, CORPUS_DIR, om_games[g]->identity.name);
            corpus_join(dir, sizeof dir, sub, kinds[k]);
            corpus_list(dir, ".yaml", names, &n);
            for (size_t i = 0; i < n; i++, files++) {
                char path[CORPUS_PATH_MAX];
                om_scenario *sc = NULL;
                corpus_join(path, sizeof path, dir, names[i]);
                cr_assert_eq(om_scenario_load_file(path, &sc), OM_OK, "%s", om_error_message());
                corpus_run(sc, TRIAL_SEED, CORPUS_TRIALS);
                om_scenario_free(sc);
            }
        }
    }
    cr_expect_gt(files, 10u);
}

/* The expectation of a bad file: the text after "# expect: " on its first
 * line, into out. */
static void expectation(const char *path, const char *text, char *out, size_t cap)
{
    static const char tag[] = "# expect: ";
    size_t n;
    cr_assert(strncmp(text, tag, sizeof tag - 1) == 0, "%s: its first line is not "
              "\"# expect: LINE: field 'PATH': REASON\"", path);
    text += sizeof tag - 1;
    n = strcspn(text, "\n");
    cr_assert_lt(n, cap, "%s: expectation too long", path);
    memcpy(out, text, n);
    out[n] = '\0';
}

/* The refusal of the bad file at `path` (status st, the error slot's
 * message): a bad-input status, a message of the form of every refusal
 * (FILE:LINE: field 'PATH': REASON), starting with the file and what its
 * first line expects. */
static void expect_refused(const char *path, om_status st)
{
    char want[CORPUS_PATH_MAX], prefix[2 * CORPUS_PATH_MAX];
    const char *msg = om_error_message(), *problem;
    size_t len = 0;
    char *text = corpus_slurp(path, &len);
    expectation(path, text, want, sizeof want);
    cr_expect(corpus_is_input_error(st), "%s: status %d (%s), not a bad input file: %s",
              path, st, om_status_name(st), msg);
    problem = corpus_message_problem(msg, path, text, len);
    cr_expect_null(problem, "%s: the message\n  %s\nis not FILE:LINE: field 'PATH': "
                   "REASON: %s", path, msg, problem ? problem : "");
    cr_assert_lt((size_t)snprintf(prefix, sizeof prefix, "%s:%s", path, want), sizeof prefix);
    cr_expect(strncmp(msg, prefix, strlen(prefix)) == 0,
              "%s: the message\n  %s\ndoes not start with\n  %s", path, msg, prefix);
    free(text);
}

/* Every bad file of the corpus is refused with a status the command line
 * reports as a bad input file (exit 2), no scenario, and the message its first
 * line expects: "FILE:" then the expectation. */
Test(corpus, every_bad_file_is_refused_with_its_message)
{
    size_t files = 0;
    for (size_t g = 0; g < om_game_count; g++) {
        char sub[CORPUS_PATH_MAX], dir[CORPUS_PATH_MAX], names[CORPUS_FILES_MAX][CORPUS_PATH_MAX / 2];
        size_t n = 0;
        corpus_join(sub, sizeof sub, CORPUS_DIR, om_games[g]->identity.name);
            corpus_join(dir, sizeof dir, sub, CORPUS_BAD);
        corpus_list(dir, ".yaml", names, &n);
        for (size_t i = 0; i < n; i++, files++) {
            char path[CORPUS_PATH_MAX];
            om_scenario *sc = NULL;
            om_status st;
            corpus_join(path, sizeof path, dir, names[i]);
            st = om_scenario_load_file(path, &sc);
            cr_expect_null(sc, "%s: a scenario was returned", path);
            expect_refused(path, st);
            om_scenario_free(sc);
        }
    }
    cr_expect_gt(files, 10u);
}

/* Load `len` bytes of text that must be refused; the message must have the
 * form of every refusal and contain `fragment`. */
static void refused(const char *text, size_t len, const char *fragment)
{
    om_scenario *sc = NULL;
    om_status st = om_scenario_load_text("junk.yaml", text, len, &sc);
    const char *msg = om_error_message(), *problem;
    cr_expect_null(sc);
    cr_expect(corpus_is_input_error(st), "status %d: %s", st, msg);
    problem = corpus_message_problem(msg, "junk.yaml", text, len);
    cr_expect_null(problem, "%s: %s", msg, problem ? problem : "");
    cr_expect(strstr(msg, fragment) != NULL, "the message\n  %s\ndoes not say\n  %s", msg,
              fragment);
    om_scenario_free(sc);
}

/* A NUL byte anywhere is named, with its line, never taken for the end of the
 * file (which made a file starting with one "empty"). */
Test(loaders, a_nul_byte_is_named)
{
    static const char at_start[] = "\0schema: oddsmaster-scenario/1\n";
    static const char inside[] = "schema: oddsmaster-scenario/1\nruleset: warmaster-re\0volution\n"
                                 "a: {unit: {from: empire/knights}}\nb: {unit: {from: "
                                 "orcs/trolls}}\n";
    refused(at_start, sizeof at_start - 1, "junk.yaml:1: field '(document)': the file is not "
            "text: it holds a NUL byte (line 1, column 1)");
    refused(inside, sizeof inside - 1, "junk.yaml:2: field '(document)': the file is not text: "
            "it holds a NUL byte (line 2, column 22)");
}

/* Binary bytes are "not text", not a YAML syntax error or an empty file. */
Test(loaders, binary_bytes_are_not_text)
{
    static const char junk[] = "\x89PNG\r\n\x1a\n\x01\x02\xff\xfe";
    static const char control[] = "schema: oddsmaster-scenario/1\nruleset: \x01warmaster\n";
    static const char latin1[] = "schema: oddsmaster-scenario/1\ntitle: Bretonnia \xe0 cheval\n";
    refused(junk, sizeof junk - 1, "the file is not text");
    refused(control, sizeof control - 1, "junk.yaml:2: field '(document)': the file is not "
            "text: a control character");
    refused(latin1, sizeof latin1 - 1, "junk.yaml:2: field '(document)': the file is not "
            "text in UTF-8");
}

/* A file saved as UTF-16 is named as such. */
Test(loaders, utf16_is_named)
{
    static const char utf16[] = "\xff\xfes\0c\0h\0e\0m\0a\0:\0 \0x\0\n\0";
    refused(utf16, sizeof utf16 - 1, "the file is UTF-16 text; save it as UTF-8");
}

/* ---------------------------------------------------------------------------
 * Army list files: tests/data/lists/GAME/good/ (files that must load) and
 * bad/ (files refused with the message their first line expects), and the
 * example lists of scenarios/lists/GAME/, through om_game_list_file as
 * `oddsmaster list FILE` reads them.
 */

#define LISTS_DIR OM_TEST_DATA "/lists"
#define EXAMPLE_LISTS_DIR OM_SOURCE_ROOT "/scenarios/lists"

/* The games with army list files (battles version 1 or later). */
static bool has_lists(const om_game *g)
{
    return g->battles != NULL && g->battles->version >= 1 && g->battles->list_file != NULL;
}

/* Every file of `dir` ending in .yaml loads as a list file; returns how many. */
static size_t lists_load(const char *dir)
{
    char names[CORPUS_FILES_MAX][CORPUS_PATH_MAX / 2];
    size_t n = 0;
    corpus_list(dir, ".yaml", names, &n);
    for (size_t i = 0; i < n; i++) {
        char path[CORPUS_PATH_MAX];
        om_game_listing *l = NULL;
        corpus_join(path, sizeof path, dir, names[i]);
        cr_expect_eq(om_game_list_file(path, &l), OM_OK, "%s: %s", path, om_error_message());
        cr_expect(l != NULL && l->ntables >= 1, "%s: no table of units", path);
        om_game_listing_free(l);
    }
    return n;
}

/* Every good list file and every example list loads. */
Test(lists, every_good_and_example_list_loads)
{
    size_t files = 0;
    for (size_t g = 0; g < om_game_count; g++) {
        char sub[CORPUS_PATH_MAX], dir[CORPUS_PATH_MAX];
        if (!has_lists(om_games[g]))
            continue;
        corpus_join(sub, sizeof sub, LISTS_DIR, om_games[g]->identity.name);
        corpus_join(dir, sizeof dir, sub, "good");
        files += lists_load(dir);
        corpus_join(dir, sizeof dir, EXAMPLE_LISTS_DIR, om_games[g]->identity.name);
        files += lists_load(dir);
    }
    cr_expect_geq(files, 9u, "only %zu list files", files);
}

/* Every key of a game's list files is set by a good file or an example, at
 * its level. */
Test(lists, every_list_key_is_set_by_a_file)
{
    for (size_t g = 0; g < om_game_count; g++) {
        const om_game *game = om_games[g];
        static key_cover c;
        char place[64], sub[CORPUS_PATH_MAX], dirs[2][CORPUS_PATH_MAX];
        size_t missing = 0;
        if (!has_lists(game))
            continue;
        memset(&c, 0, sizeof c);
        c.n = game->battles->list_keys(c.keys, KEYS_MAX);
        cr_assert_leq(c.n, KEYS_MAX);
        snprintf(place, sizeof place, "%s/list", game->identity.name);
        corpus_join(sub, sizeof sub, LISTS_DIR, game->identity.name);
        corpus_join(dirs[0], sizeof dirs[0], sub, "good");
        corpus_join(dirs[1], sizeof dirs[1], EXAMPLE_LISTS_DIR, game->identity.name);
        for (size_t d = 0; d < 2; d++) {
            char names[CORPUS_FILES_MAX][CORPUS_PATH_MAX / 2];
            size_t n = 0;
            corpus_list(dirs[d], ".yaml", names, &n);
            for (size_t i = 0; i < n; i++) {
                char path[CORPUS_PATH_MAX];
                corpus_join(path, sizeof path, dirs[d], names[i]);
                cover_file(&c, place, path);
            }
        }
        for (size_t i = 0; i < c.n; i++)
            if (!c.set[i]) {
                missing++;
                cr_log_error("%s: no list file sets the %s key '%s'", game->identity.name,
                             c.keys[i].where, c.keys[i].name);
            }
        cr_expect_eq(missing, 0u, "%s: %zu of its %zu list keys are set by no file",
                     game->identity.name, missing, c.n);
    }
}

/* Every bad list file is refused with a bad-input status, no listing, and
 * the message its first line expects. */
Test(lists, every_bad_list_is_refused_with_its_message)
{
    size_t files = 0;
    for (size_t g = 0; g < om_game_count; g++) {
        char sub[CORPUS_PATH_MAX], dir[CORPUS_PATH_MAX], names[CORPUS_FILES_MAX][CORPUS_PATH_MAX / 2];
        size_t n = 0;
        if (!has_lists(om_games[g]))
            continue;
        corpus_join(sub, sizeof sub, LISTS_DIR, om_games[g]->identity.name);
        corpus_join(dir, sizeof dir, sub, CORPUS_BAD);
        corpus_list(dir, ".yaml", names, &n);
        for (size_t i = 0; i < n; i++, files++) {
            char path[CORPUS_PATH_MAX];
            om_game_listing *l = NULL;
            om_status st;
            corpus_join(path, sizeof path, dir, names[i]);
            st = om_game_list_file(path, &l);
            cr_expect_null(l, "%s: a listing was returned", path);
            expect_refused(path, st);
            om_game_listing_free(l);
        }
    }
    cr_expect_gt(files, 20u);
}
