/*
 * cmd_list.c: `oddsmaster list`: what the games hold, as a readable table or
 * as JSON with stable keys (docs/manual.md, "Army data"), all of it through the game
 * interface (game.h), so that no game type is named here:
 *
 *   oddsmaster list                        every game's part (its catalogue's
 *                                          `list` with no rule set: the rule
 *                                          sets with army lists, say), then the
 *                                          table of games: rule sets, kinds
 *   oddsmaster list RULESET[/WHAT]         what the game of RULESET holds: the
 *                                          armies, an army, a unit, a table
 *                                          (its `list`, printed from the tables
 *                                          it gives, as text or JSON)
 *   oddsmaster list --rules [RULESET]      the special rules of a rule set (or
 *                                          every game's part)
 *   oddsmaster list --keys                 the keys of each game's scenario
 *                                          files (om_game_key), under the
 *                                          game's title
 *   oddsmaster list --options              the interpretations of ambiguous
 *                                          rules of every game (each engine's
 *                                          option registry): switches a
 *                                          scenario's `options:` may set, and
 *                                          the readings fixed in code
 *   oddsmaster list --doctrines [FILE]     the doctrines a side may play in a
 *                                          battle (each game's battles'
 *                                          `doctrines`): the named ones
 *                                          compiled in, or a doctrine file
 *
 * A name no game owns goes to the first game with a `list`, which reports it
 * with a suggestion; unknown names exit 2.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "game.h"

#define CMD "list"

/* Schema of the JSON documents printed. */
#define LIST_SCHEMA "oddsmaster-list/1"

/* Longest cell text kept by the table printer; longer text is truncated. */
#define CELL_MAX 512

typedef enum list_format { LIST_TEXT = 0, LIST_JSON } list_format;

/* ---------------------------------------------------------------------------
 * A small table printer: columns padded to their widest cell (counted in
 * UTF-8 characters), the last column unpadded.
 */

typedef struct table {
    size_t ncols;   /* columns */
    char **cells;   /* row-major, nrows * ncols */
    size_t nrows;   /* rows, the header included */
    size_t cap;     /* rows allocated */
} table;

/* Display width of a UTF-8 string: its bytes that start a character. */
static size_t text_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

/* Append a row of ncols cells; false when out of memory. */
static bool table_add(table *t, const char *const *cells)
{
    if (t->nrows == t->cap) {
        size_t ncap = t->cap ? 2 * t->cap : 32;
        char **n = realloc(t->cells, ncap * t->ncols * sizeof *n);
        if (!n)
            return false;
        t->cells = n;
        t->cap = ncap;
    }
    for (size_t k = 0; k < t->ncols; k++) {
        const char *c = cells[k] ? cells[k] : "";
        t->cells[t->nrows * t->ncols + k] = strdup(c);
        if (!t->cells[t->nrows * t->ncols + k]) {
            while (k-- > 0)
                free(t->cells[t->nrows * t->ncols + k]);
            return false;
        }
    }
    t->nrows++;
    return true;
}

/* Print the table, each line starting with `indent`; at most 16 columns are
 * aligned (the tables here have at most 12). */
static void table_print(const table *t, FILE *out, const char *indent)
{
    size_t width[16] = { 0 };
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t k = 0; k < t->ncols && k < 16; k++) {
            size_t w = text_width(t->cells[r * t->ncols + k]);
            if (w > width[k])
                width[k] = w;
        }
    for (size_t r = 0; r < t->nrows; r++) {
        /* Pad up to the last non-empty cell only: no trailing blanks. */
        size_t used = t->ncols;
        while (used > 1 && t->cells[r * t->ncols + used - 1][0] == '\0')
            used--;
        fputs(indent, out);
        for (size_t k = 0; k < used; k++) {
            const char *c = t->cells[r * t->ncols + k];
            fputs(c, out);
            if (k + 1 < used)
                fprintf(out, "%*s", (int)(width[k < 16 ? k : 15] - text_width(c) + 2), "");
        }
        fputc('\n', out);
    }
}

static void table_free(table *t)
{
    for (size_t i = 0; i < t->nrows * t->ncols; i++)
        free(t->cells[i]);
    free(t->cells);
}

/* snprintf into a cell buffer, returning it. */
/* ---------------------------------------------------------------------------
 * Shared pieces.
 */

/* Print a JSON document (consumed) to stdout. Error: OM_ENOMEM. */
static om_status print_json(json_t *root)
{
    int rc = root ? json_dumpf(root, stdout, JSON_INDENT(2)) : -1;
    json_decref(root);
    if (rc != 0)
        return OM_ERROR(OM_ENOMEM, "out of memory writing JSON");
    fputc('\n', stdout);
    return OM_OK;
}

/* A JSON array of strings. */
static json_t *json_opt(const char *s)
{
    return s ? json_string(s) : json_null();
}

/* The engine's title of a rule set. */
/* ---------------------------------------------------------------------------
 * oddsmaster list
 */

/* The rule sets of game g, comma-separated, into buf. */
static const char *game_rulesets(char *buf, const om_game *g)
{
    buf[0] = '\0';
    for (const char *const *r = g->identity.rulesets; *r; r++)
        snprintf(buf + strlen(buf), CELL_MAX - strlen(buf), "%s%s",
                 r == g->identity.rulesets ? "" : ", ",
                 *r);
    return buf;
}

/* The kinds of game g, comma-separated, into buf. */
static const char *game_kinds(char *buf, const om_game *g)
{
    buf[0] = '\0';
    for (size_t i = 0; i < g->identity.n_kinds; i++)
        snprintf(buf + strlen(buf), CELL_MAX - strlen(buf), "%s%s", i ? ", " : "",
                 g->identity.kinds[i].name);
    return buf;
}

/* Every game family: name, title, rule sets, kinds (JSON). */
static json_t *games_json(void)
{
    json_t *a = json_array();
    for (size_t g = 0; a && g < om_game_count; g++) {
        json_t *rs = json_array(), *kinds = json_array();
        for (const char *const *r = om_games[g]->identity.rulesets; *r; r++)
            json_array_append_new(rs, json_string(*r));
        for (size_t k = 0; k < om_games[g]->identity.n_kinds; k++)
            json_array_append_new(kinds, json_string(om_games[g]->identity.kinds[k].name));
        json_array_append_new(a, json_pack("{s:s, s:s, s:o, s:o}", "name", om_games[g]->identity.name,
                                           "title", om_games[g]->identity.title, "rulesets", rs, "kinds",
                                           kinds));
    }
    return a;
}

/* Every game family as a text table. */
static bool print_games(void)
{
    table t = { .ncols = 4 };
    char b[2][CELL_MAX];
    bool ok = table_add(&t, (const char *[]){ "game", "title", "rule sets", "kinds" });
    for (size_t g = 0; ok && g < om_game_count; g++)
        ok = table_add(&t, (const char *[]){ om_games[g]->identity.name, om_games[g]->identity.title,
                                             game_rulesets(b[0], om_games[g]),
                                             game_kinds(b[1], om_games[g]) });
    if (ok) {
        printf("\nGames (oddsmaster list RULESET for what each holds):\n");
        table_print(&t, stdout, "  ");
    }
    table_free(&t);
    return ok;
}

/* ---------------------------------------------------------------------------
 * oddsmaster list --options
 */

/* A switch's default (its zero value) as JSON: false, or 0 for a count. */
static json_t *default_json(const om_option *opt)
{
    return opt->max > 0 ? json_integer(0) : json_false();
}

/* Calls f(ctx, game, registry, row) for every reading of every game. */
typedef void (*option_visit)(void *ctx, const om_game *g, const om_option_table *t,
                             const om_option *o);

static void each_option(option_visit f, void *ctx)
{
    for (size_t g = 0; g < om_game_count; g++)
        for (const om_option_table *const *t = om_games[g]->catalogue->option_tables; t && *t; t++)
            for (size_t i = 0; i < (*t)->count; i++)
                f(ctx, om_games[g], *t, &(*t)->rows[i]);
}

/* Counting, JSON and text visitors of each_option. */
typedef struct option_counts {
    size_t n, n_switches;
} option_counts;

static void count_option(void *ctx, const om_game *g, const om_option_table *t,
                         const om_option *o)
{
    option_counts *c = ctx;
    (void)g;
    (void)t;
    c->n++;
    c->n_switches += om_option_is_switch(o);
}

static void json_option(void *ctx, const om_game *g, const om_option_table *t,
                        const om_option *o)
{
    const bool sw = om_option_is_switch(o);
    json_array_append_new(
        ctx, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s?, s:b, s:o}", "name", o->name, "game",
                       g->identity.name, "registry", t->what, "ambiguity", o->ambiguity, "section",
                       o->section, "question", o->question, "default_reading",
                       o->default_value, "other_reading", sw ? o->other_value : NULL,
                       "switchable", (int)sw, "default", sw ? default_json(o) : json_null()));
}

static void text_option(void *ctx, const om_game *g, const om_option_table *t,
                        const om_option *o)
{
    const om_option_table **last = ctx;
    if (*last == NULL || (*last)->rows != t->rows) {
        if (t == g->catalogue->option_tables[0])
            printf("\n%s\n", g->catalogue->options_title);
        printf("\n Readings of %s:\n", t->what);
        *last = t;
    }
    printf("\n  %s  (%s; %s)  %s\n", o->name, o->ambiguity, o->section,
           om_option_is_switch(o) ? "switch" : "fixed");
    printf("    question: %s\n", o->question);
    printf("    default:  %s\n", o->default_value);
    if (om_option_is_switch(o))
        printf("    other:    %s\n", o->other_value);
}

/* Every game's readings of ambiguous rules (game.h's option_tables). */
static om_status list_options(list_format fmt)
{
    option_counts c = {0, 0};
    each_option(count_option, &c);
    if (fmt == LIST_JSON) {
        json_t *root = json_object(), *arr = json_array();
        each_option(json_option, arr);
        json_object_set_new(root, "schema", json_string(LIST_SCHEMA));
        json_object_set_new(root, "count", json_integer((json_int_t)c.n));
        json_object_set_new(root, "switchable", json_integer((json_int_t)c.n_switches));
        json_object_set_new(root, "options", arr);
        return print_json(root);
    }
    printf("Interpretations of ambiguous rules (each with its ambiguity id and rulebook "
           "section): %zu, %zu of them switches.\n", c.n, c.n_switches);
    printf("A scenario sets a switch under 'options:' (e.g. 'options: {max_turns: 5}'); the "
           "default is the\nrecommended reading. Fixed readings are what the engine does, "
           "listed so that every choice\nis visible; every run records all of them "
           "(options_json in the result file). Sections are\nthe rulebook's; ambiguity ids "
           "are those of the mechanics digests (scenarios/armies/sources/rules/).\n");
    {
        const om_option_table *last = NULL;
        each_option(text_option, &last);
    }
    return OM_OK;
}

/* ---------------------------------------------------------------------------
 * list --keys: the keys of each game's scenario files, from the game's table.
 */

/* What a key's value is: its type, or a name key's words joined by " | ". */
static const char *key_value_text(const om_game_key *k, char *buf, size_t cap)
{
    size_t len = 0;
    if (k->values == NULL)
        return k->type;
    buf[0] = '\0';
    for (size_t i = 0; i < k->n_values && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? " | " : "", k->values[i]);
    return buf;
}

/* Keys as a JSON array of {"name", "where", "type", "values", "default",
 * "help"}. */
static json_t *keys_array(const om_game_key *keys, size_t n)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *vals = keys[i].values ? json_array() : json_null();
        for (size_t v = 0; keys[i].values && v < keys[i].n_values; v++)
            json_array_append_new(vals, json_string(keys[i].values[v]));
        json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:o, s:s, s:s}", "name",
                                             keys[i].name, "where", keys[i].where, "type",
                                             keys[i].type, "values", vals, "default",
                                             keys[i].fallback, "help", keys[i].help));
    }
    return arr;
}

/* Keys as text: a heading naming `what` and the game's title, then the keys
 * by level, two lines each. `first`: no blank line before the heading. */
static void keys_text(const om_game *game, const char *what, const om_game_key *keys, size_t n,
                      bool first)
{
    char value[CELL_MAX];
    printf("%s%s keys of %s (docs/scenario-format.md explains each):\n", first ? "" : "\n",
           what, game->identity.title);
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || strcmp(keys[i].where, keys[i - 1].where) != 0)
            printf("\n  %s keys:\n", keys[i].where);
        printf("    %-16s %s (default: %s)\n", keys[i].name,
               key_value_text(&keys[i], value, sizeof value), keys[i].fallback);
        printf("    %-16s %s\n", "", keys[i].help);
    }
}

/* The keys `keys_of` gives, in a new array (*out, *n; *out NULL when there
 * are none). Error: OM_ENOMEM. */
static om_status keys_get(size_t (*keys_of)(om_game_key *, size_t), om_game_key **out, size_t *n)
{
    *out = NULL;
    *n = keys_of ? keys_of(NULL, 0) : 0;
    if (*n == 0)
        return OM_OK;
    if (!(*out = calloc(*n, sizeof **out)))
        return OM_ERROR(OM_ENOMEM, "out of memory");
    keys_of(*out, *n);
    return OM_OK;
}

/* Every game's keys, from its table (its `keys` hook), in the order of
 * om_games, then those of its army list files (its battles' `list_keys`, as
 * JSON `list_keys`) if it has them; a game without keys is left out. */
static om_status list_keys(list_format fmt)
{
    json_t *games = json_array();
    bool first = true;

    for (size_t g = 0; g < om_game_count; g++) {
        const om_game *game = om_games[g];
        om_game_key *keys = NULL, *lkeys = NULL;
        size_t n = 0, ln = 0;
        if (keys_get(game->catalogue->keys, &keys, &n) != OM_OK ||
            keys_get(game->battles && game->battles->version >= 1 ? game->battles->list_keys
                                                                  : NULL,
                     &lkeys, &ln) != OM_OK) {
            free(keys);
            json_decref(games);
            return OM_ERROR(OM_ENOMEM, "out of memory");
        }
        if (n > 0 && fmt == LIST_JSON) {
            json_t *o = json_pack("{s:s, s:s, s:o}", "game", game->identity.name, "title",
                                  game->identity.title, "keys", keys_array(keys, n));
            if (o && ln > 0)
                json_object_set_new(o, "list_keys", keys_array(lkeys, ln));
            json_array_append_new(games, o);
        } else if (n > 0) {
            keys_text(game, "Scenario", keys, n, first);
            if (ln > 0)
                keys_text(game, "Army list file", lkeys, ln, false);
        }
        first = first && n == 0;
        free(keys);
        free(lkeys);
    }
    if (fmt == LIST_JSON)
        return print_json(json_pack("{s:s, s:o}", "schema", LIST_SCHEMA, "games", games));
    json_decref(games);
    return OM_OK;
}

/* ---------------------------------------------------------------------------
 * oddsmaster list RULESET[/WHAT] of a game that lists its own data
 */

/* One cell of a listing as JSON, by its column's type. */
static json_t *cell_json(const char *text, om_game_cell_type type)
{
    switch (type) {
    case OM_GAME_CELL_INT:
        if (text[0] == '\0' || strcmp(text, "-") == 0)
            return json_null();
        return json_integer(strtoll(text, NULL, 10));
    case OM_GAME_CELL_BOOL:
        return json_boolean(strcmp(text, "yes") == 0);
    default:
        return json_string(text);
    }
}

/* Append the JSON members of listing l to `root`: the game's own, or each
 * table as an array of objects under its key. */
static void listing_members(json_t *root, const om_game_listing *l)
{
    if (l->json != NULL) {
        json_object_update(root, l->json);
        return;
    }
    for (size_t i = 0; root && i < l->ntables; i++) {
        const om_game_table *t = &l->tables[i];
        json_t *rows = json_array();
        for (size_t r = 0; rows && r < t->nrows; r++) {
            json_t *o = json_object();
            for (size_t k = 0; o && k < t->ncols; k++)
                json_object_set_new(o, t->columns[k],
                                    cell_json(t->cells[r * t->ncols + k], t->types[k]));
            json_array_append_new(rows, o);
        }
        json_object_set_new(root, t->key, rows);
    }
}

/* Print a listing as text: heading, each table under its title (after a
 * blank line unless it opens the listing) with its note, footer. */
static om_status listing_text(const om_game_listing *l)
{
    if (l->heading)
        fputs(l->heading, stdout);
    for (size_t i = 0; i < l->ntables; i++) {
        const om_game_table *t = &l->tables[i];
        table out = { .ncols = t->ncols };
        bool ok = table_add(&out, (const char *const *)t->columns);
        for (size_t r = 0; ok && r < t->nrows; r++)
            ok = table_add(&out, (const char *const *)&t->cells[r * t->ncols]);
        if (ok) {
            printf("%s%s\n", i || l->heading ? "\n" : "", t->title);
            table_print(&out, stdout, "  ");
            if (t->note)
                fputs(t->note, stdout);
        }
        table_free(&out);
        if (!ok)
            return OM_ERROR(OM_ENOMEM, "out of memory");
    }
    if (l->footer)
        printf("\n%s", l->footer);
    return OM_OK;
}

/* Print game g's listing of RULESET[/WHAT]. As JSON: the schema, then the
 * game's own members or, by default, the game, rule set, name, heading and
 * footer followed by the tables. */
static om_status print_listing(const om_game *g, const char *ruleset, const char *what,
                               const om_game_listing *l, list_format fmt)
{
    json_t *root;
    if (fmt == LIST_TEXT)
        return listing_text(l);
    if (l->json != NULL)
        root = json_pack("{s:s}", "schema", LIST_SCHEMA);
    else
        root = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o}", "schema", LIST_SCHEMA, "game",
                         g->identity.name, "ruleset", ruleset, "what", json_opt(what),
                         "heading", json_opt(l->heading), "footer", json_opt(l->footer));
    if (root != NULL)
        listing_members(root, l);
    return print_json(root);
}

/* `oddsmaster list RULESET[/WHAT]` through game g's own listing. */
static om_status list_game(const om_game *g, const char *ruleset, const char *what, bool rules,
                           list_format fmt)
{
    om_game_listing *l = NULL;
    om_status st = g->catalogue->list(ruleset, what, rules, &l);
    if (st == OM_OK)
        st = print_listing(g, ruleset, what, l, fmt);
    om_game_listing_free(l);
    return st;
}

/* `oddsmaster list` (with `rules`: `list --rules`) with no name: every
 * game's part, in om_games order; then, for `list`, the table of games. */
static om_status list_every_game(bool rules, list_format fmt)
{
    json_t *root = fmt == LIST_JSON ? json_pack("{s:s}", "schema", LIST_SCHEMA) : NULL;
    om_status st = OM_OK;
    for (size_t g = 0; st == OM_OK && g < om_game_count; g++) {
        om_game_listing *l = NULL;
        if (om_games[g]->catalogue->list == NULL)
            continue;
        st = om_games[g]->catalogue->list(NULL, NULL, rules, &l);
        if (st == OM_OK && l != NULL && fmt == LIST_JSON && root != NULL)
            listing_members(root, l);
        else if (st == OM_OK && l != NULL && fmt == LIST_TEXT)
            st = listing_text(l);
        om_game_listing_free(l);
    }
    if (st != OM_OK) {
        json_decref(root);
        return st;
    }
    if (fmt == LIST_JSON) {
        if (!rules && root != NULL)
            json_object_set_new(root, "games", games_json());
        return print_json(root);
    }
    if (!rules && !print_games())
        return OM_ERROR(OM_ENOMEM, "out of memory");
    return OM_OK;
}

/* ---------------------------------------------------------------------------
 * oddsmaster list --doctrines [FILE]
 */

/* Whether game g's battles list doctrines (battles version 3). */
static bool lists_doctrines(const om_game *g)
{
    return g->battles != NULL && g->battles->version >= 3 && g->battles->doctrines != NULL;
}

/* Show listing l (consumed) as text, or add its tables to the JSON root. */
static om_status show_listing(om_game_listing *l, json_t *root, list_format fmt)
{
    om_status st = OM_OK;
    if (fmt == LIST_JSON)
        listing_members(root, l);
    else
        st = listing_text(l);
    om_game_listing_free(l);
    return st;
}

/* The doctrine file at `path`, or (path NULL) the doctrines of the first game
 * whose battles list them (one game has doctrines; as JSON, one "doctrines"
 * table). As JSON the schema, with a file its path, then the table. */
static om_status list_doctrines(const char *path, list_format fmt)
{
    json_t *root = NULL;
    om_game_listing *l = NULL;
    const om_game *g = NULL;
    om_status st;

    for (size_t i = 0; path == NULL && g == NULL && i < om_game_count; i++)
        if (lists_doctrines(om_games[i]))
            g = om_games[i];
    if (path == NULL && g == NULL)
        return OM_ERROR(OM_EINVAL, "no game has doctrines");
    st = path ? om_game_list_doctrine_file(path, &l) : g->battles->doctrines(NULL, NULL, 0, &l);
    if (st != OM_OK)
        return st;
    if (fmt == LIST_JSON) {
        root = path ? json_pack("{s:s, s:s}", "schema", LIST_SCHEMA, "file", path)
                    : json_pack("{s:s}", "schema", LIST_SCHEMA);
        if (root == NULL) {
            om_game_listing_free(l);
            return OM_ERROR(OM_ENOMEM, "out of memory");
        }
    }
    st = show_listing(l, root, fmt);
    if (st != OM_OK || fmt != LIST_JSON) {
        json_decref(root);
        return st;
    }
    return print_json(root);
}

/* ---------------------------------------------------------------------------
 * Entry point.
 */

/* The arguments of `list`. */
typedef struct list_args {
    unsigned format; /* list_format */
    bool rules;      /* --rules */
    bool options;    /* --options */
    bool keys;       /* --keys */
    bool doctrines;  /* --doctrines */
} list_args;

/* In list_format order. */
static const char *const format_names[] = {"text", "json", NULL};

static const om_cli_option list_options_table[] = {
    {.name = "format", .letter = 'f', .value = OM_CLI_CHOICE, .offset = offsetof(list_args, format),
     .metavar = "FORMAT", .choices = format_names,
     .help = "text (default) or json (one object, schema\n\"" LIST_SCHEMA "\"; keys in the manual)"},
    {.name = "rules", .letter = 'r', .value = OM_CLI_FLAG, .offset = offsetof(list_args, rules),
     .help = "list the special rules"},
    {.name = "options", .value = OM_CLI_FLAG, .offset = offsetof(list_args, options),
     .help = "list the options a scenario may set under\n'options:' and the readings fixed in the engine"},
    {.name = "keys", .letter = 'k', .value = OM_CLI_FLAG, .offset = offsetof(list_args, keys),
     .help = "list the keys of scenario files: where each goes,\nits values and its default"},
    {.name = "doctrines", .value = OM_CLI_FLAG, .offset = offsetof(list_args, doctrines),
     .help = "list the doctrines a side may play in a battle\n(name, aim, summary), or the "
             "doctrine file named"},
};

static const list_args list_defaults = {.format = LIST_TEXT};

/* The longest rule set, and first part after it, of a name. */
#define NAME_PART_MAX 128

/* `oddsmaster list FILE`: an army list file checked and described by its
 * game; as JSON the schema, the file, heading and footer, then the tables. */
static om_status list_file(const char *path, list_format fmt)
{
    om_game_listing *l = NULL;
    om_status st = om_game_list_file(path, &l);
    if (st == OM_OK && fmt == LIST_TEXT) {
        st = listing_text(l);
    } else if (st == OM_OK) {
        json_t *root = json_pack("{s:s, s:s, s:o, s:o}", "schema", LIST_SCHEMA, "file", path,
                                 "heading", json_opt(l->heading), "footer", json_opt(l->footer));
        if (root != NULL)
            listing_members(root, l);
        st = print_json(root);
    }
    om_game_listing_free(l);
    return st;
}

/* Split RULESET[/WHAT] and list what it names through the game of RULESET,
 * or the first game with a listing (which reports a name it does not know). */
static om_status list_what(const char *what, bool rules, list_format fmt)
{
    char rs_name[NAME_PART_MAX];
    const char *rest;
    const size_t n1 = strcspn(what, "/");
    const om_game *g;

    rest = what[n1] ? what + n1 + 1 : NULL;
    if (n1 >= sizeof rs_name || (rest && strcspn(rest, "/") >= NAME_PART_MAX))
        return OM_ERROR(OM_ENOTFOUND, "no such name: '%s'", what);
    memcpy(rs_name, what, n1);
    rs_name[n1] = '\0';
    g = om_game_for_ruleset(rs_name);
    for (size_t i = 0; g == NULL && i < om_game_count; i++)
        if (om_games[i]->catalogue->list != NULL)
            g = om_games[i];
    if (g == NULL || g->catalogue->list == NULL)
        return OM_ERROR(OM_ENOTFOUND, "no listing of '%s'", what);
    return list_game(g, rs_name, rest, rules, fmt);
}

static int list_run(const om_cli_args *args)
{
    const list_args *a = args->values;
    const char *what = args->n_operands ? args->operands[0] : NULL;
    list_format fmt = (list_format)a->format;
    char name[2 * NAME_PART_MAX];
    om_status st;

    /* A name may end in the '/' that completion leaves after a rule set or an
     * army ("warmaster-revolution/empire/"), as a directory may. */
    if (what != NULL && what[0] != '\0' && what[strlen(what) - 1] == '/' &&
        strlen(what) < sizeof name) {
        snprintf(name, sizeof name, "%.*s", (int)strlen(what) - 1, what);
        what = name;
    }

    if (a->doctrines && (a->rules || a->options || a->keys))
        return om_cli_usage_error(CMD, "--doctrines takes no --rules, --options or --keys");
    if (a->doctrines && what && !om_game_list_is_file(what))
        return om_cli_usage_error(CMD, "--doctrines takes a doctrine file (.yaml, .yml or -), "
                                  "not '%s'", what);
    if (a->doctrines) {
        st = list_doctrines(what, fmt);
        return st == OM_OK ? OM_EXIT_OK : om_cli_fail(CMD, st);
    }
    if (a->keys && (a->rules || a->options || what))
        return om_cli_usage_error(CMD, "--keys takes no name, --rules or --options");
    if (a->keys)
        return list_keys(fmt) == OM_OK ? OM_EXIT_OK : om_cli_fail(CMD, OM_EINVAL);
    if (a->options && (a->rules || what))
        return om_cli_usage_error(CMD, "--options takes no %s (it lists every game's)",
                                  a->rules ? "--rules" : "name");
    if (a->rules && what && om_game_list_is_file(what))
        return om_cli_usage_error(CMD, "--rules takes a rule set, not the file '%s'", what);
    if (a->rules && what && strchr(what, '/'))
        return om_cli_usage_error(CMD, "--rules takes a rule set, not '%s'", what);
    if (a->options)
        st = list_options(fmt);
    else if (!what)
        st = list_every_game(a->rules, fmt);
    else if (om_game_list_is_file(what))
        st = list_file(what, fmt);
    else
        st = list_what(what, a->rules, fmt);
    return st == OM_OK ? OM_EXIT_OK : om_cli_fail(CMD, st);
}

const om_cli_command om_cli_list = {
    .name = "list",
    .summary = "show the army lists and game data: rule sets, armies, units, rules",
    .usage = "oddsmaster list [RULESET[/ARMY[/UNIT]]] [--format text|json]\n"
             "oddsmaster list whfb7[/LIST[/ID]] [--format text|json]\n"
             "oddsmaster list FILE.yaml [--format text|json]\n"
             "oddsmaster list --rules [RULESET] [--format text|json]\n"
             "oddsmaster list --options [--format text|json]\n"
             "oddsmaster list --keys [--format text|json]\n"
             "oddsmaster list --doctrines [DOCTRINE.yaml] [--format text|json]",
    .about =
        "Show the army lists compiled into oddsmaster, so that scenarios can name units\n"
        "with 'from: ARMY/UNIT' (docs/manual.md, \"Army data\"), the special rules the\n"
        "engine models, and the options a scenario may set under 'options:'.\n\n"
        "  oddsmaster list                        rule sets and their number of armies\n"
        "  oddsmaster list RULESET                armies: id, name, units, list version,\n"
        "                                         source\n"
        "  oddsmaster list RULESET/ARMY           units and upgrades: id, name, type,\n"
        "                                         Attacks (/shots), range, Hits, Armour,\n"
        "                                         Command, size, points, min/max, rules\n"
        "  oddsmaster list RULESET/ARMY/UNIT      one unit with its notes and rules\n"
        "  oddsmaster list FILE.yaml              an army list file (a name ending in\n"
        "                                         .yaml or .yml, or - for standard\n"
        "                                         input): checked against its army's\n"
        "                                         rules, then its units, characters\n"
        "                                         and points\n"
        "  oddsmaster list --rules [RULESET]      special rules: modelled by the engine\n"
        "                                         or not, whether they change engagement\n"
        "                                         dice, summary\n"
        "  oddsmaster list --options              interpretations of ambiguous rules of\n"
        "                                         every game: name, ambiguity id,\n"
        "                                         rulebook section, question, default\n"
        "                                         (recommended) and other reading,\n"
        "                                         switch or fixed\n"
        "  oddsmaster list --keys                 the keys of every game's scenario\n"
        "                                         and army list files, under its\n"
        "                                         title: level,\n"
        "                                         values, default, one line each\n"
        "  oddsmaster list --doctrines [FILE]     the doctrines a side may play in a\n"
        "                                         battle (battle --doctrine-a/-b): the\n"
        "                                         named ones compiled in, or the\n"
        "                                         doctrine file FILE, checked: name,\n"
        "                                         aim (what it maximises), summary\n"
        "  oddsmaster list whfb7                  Warhammer Fantasy Battles 7th edition:\n"
        "                                         its kinds and lists (profiles, weapons,\n"
        "                                         missiles, machines, rules, spells, units)\n"
        "  oddsmaster list whfb7/profiles/ID      one profile of the rulebook\n\n"
        "Rules marked * are not modelled by the engine yet: a unit carrying them is\n"
        "simulated without them, and oddsmaster run warns about it.",
    .more =
        "Examples:\n"
        "  oddsmaster list warmaster-revolution/empire\n"
        "  oddsmaster list --rules warmaster-ancients --format json\n"
        "  oddsmaster list whfb7/units\n"
        "  oddsmaster list scenarios/lists/warmaster/revolution-empire-steel.yaml\n"
        "  oddsmaster list --options\n"
        "  oddsmaster list --doctrines",
    .exits =
        "  2  unknown rule set, army or unit; an army list file that breaks its\n"
        "     army's rules or is not a list file; a bad doctrine file\n"
        "  3  a list or doctrine file that cannot be read\n"
        "  4  internal error\n",
    .options = list_options_table,
    .n_options = sizeof list_options_table / sizeof list_options_table[0],
    .values_size = sizeof(list_args),
    .defaults = &list_defaults,
    .min_operands = 0,
    .max_operands = 1,
    .operands = "a name",
    .operand = {{OM_CLI_COMPLETE_LISTING, NULL, NULL}},
    .run = list_run,
};
