/*
 * game.c: the registry of game families and what every game shares (game.h):
 * choosing the game of a scenario text by its rule set, loading and freeing
 * scenarios, preparing them for trials, and the tables of text a game gives
 * `oddsmaster list`.
 */
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "suggest.h"
#include "yaml_int.h"

/* The game families (wm_game.c, wh7_game.c). */
extern const om_game om_game_warmaster;
extern const om_game om_game_whfb7;

const om_game *const om_games[] = {&om_game_warmaster, &om_game_whfb7};
const size_t om_game_count = sizeof om_games / sizeof om_games[0];

/* Generated at build time from default.yaml by embed_text.py (meson.build). */
extern const char om_scenario_default_yaml[];

const om_game *om_game_for_ruleset(const char *ruleset)
{
    for (size_t g = 0; g < om_game_count; g++)
        for (const char *const *r = om_games[g]->identity.rulesets; *r; r++)
            if (strcmp(*r, ruleset) == 0)
                return om_games[g];
    return NULL;
}

/* ----------------------------------------------------------- settings */

/* Most switch names of one game a message lists. */
#define SETTING_NAMES_MAX 128

/* How a fixed reading's default begins (options.h), left out of messages. */
#define FIXED "fixed: "

/* The row of game g's registries named `key`, or NULL. */
static const om_option *game_option(const om_game *g, const char *key)
{
    for (const om_option_table *const *t = g->catalogue->option_tables; t && *t; t++) {
        const om_option *o = om_option_find(*t, key);
        if (o != NULL)
            return o;
    }
    return NULL;
}

/* A key of no registry of g: the game whose switch it is, else the nearest
 * switch of g, else all of them. */
static om_status unknown_setting(const om_game *g, const char *text, const char *key)
{
    const char *names[SETTING_NAMES_MAX], *best;
    char known[OM_YAML_REASON_MAX / 2];
    size_t n = 0;
    for (size_t k = 0; k < om_game_count; k++)
        if (om_games[k] != g && game_option(om_games[k], key) != NULL)
            return OM_ERROR(OM_EINVAL, "--option %s: '%s' is a reading of %s, not of %s "
                            "(oddsmaster list --options)", text, key,
                            om_games[k]->identity.title, g->identity.title);
    for (const om_option_table *const *t = g->catalogue->option_tables; t && *t; t++)
        for (size_t i = 0; i < (*t)->count && n < SETTING_NAMES_MAX; i++)
            if (om_option_is_switch(&(*t)->rows[i]))
                names[n++] = (*t)->rows[i].name;
    best = om_suggest(key, names, n);
    if (best != NULL)
        return OM_ERROR(OM_ENOTFOUND, "--option %s: unknown option '%s'; did you mean '%s'? "
                        "(oddsmaster list --options)", text, key, best);
    om_yaml_join_names(known, sizeof known, names, n);
    return OM_ERROR(OM_ENOTFOUND, "--option %s: unknown option '%s'; the switches of %s are: "
                    "%s (oddsmaster list --options)", text, key, g->identity.title, known);
}

/* The value of switch o, checked as a scenario's options: checks it, into
 * out ("true", "false" or the decimal count). */
static om_status setting_value(const char *text, const om_option *o, const char *value,
                               char out[OM_GAME_SETTING_MAX])
{
    long long v = 0;
    bool b;
    if (o->max == 0) {
        static const char *const words[] = {"true", "false"};
        const char *best;
        if (om_yaml_parse_bool(value, &b)) {
            snprintf(out, OM_GAME_SETTING_MAX, "%s", b ? "true" : "false");
            return OM_OK;
        }
        best = om_suggest(value, words, 2);
        return OM_ERROR(OM_EINVAL, "--option %s: '%s' is true or false, not '%s'%s%s%s", text,
                        o->name, value, best ? "; did you mean '" : "", best ? best : "",
                        best ? "'?" : "");
    }
    if (om_yaml_parse_integer(value, &v) != 0 || v < 0 || v > (long long)o->max)
        return OM_ERROR(OM_EINVAL, "--option %s: '%s' is a count from 0 to %u (default %s), "
                        "not '%s'", text, o->name, o->max, o->default_value, value);
    snprintf(out, OM_GAME_SETTING_MAX, "%lld", v);
    return OM_OK;
}

om_status om_game_settings_parse(const om_game *g, const char *const *texts, size_t n,
                                 om_game_setting *out)
{
    if (n > OM_GAME_SETTINGS_MAX)
        return OM_ERROR(OM_EINVAL, "--option: at most %d settings (got %zu)",
                        OM_GAME_SETTINGS_MAX, n);
    for (size_t i = 0; i < n; i++) {
        const char *text = texts[i], *eq = strchr(text, '=');
        const om_option *o;
        om_status st;
        size_t key_len = eq ? (size_t)(eq - text) : 0;
        if (eq == NULL || key_len == 0 || eq[1] == '\0')
            return OM_ERROR(OM_EINVAL, "--option %s: give KEY=VALUE, e.g. --option "
                            "max_turns=5 (oddsmaster list --options)", text);
        if (key_len >= OM_GAME_SETTING_MAX || strlen(eq + 1) >= OM_GAME_SETTING_MAX)
            return OM_ERROR(OM_EINVAL, "--option %.80s...: a key or value longer than %d bytes",
                            text, OM_GAME_SETTING_MAX - 1);
        memcpy(out[i].key, text, key_len);
        out[i].key[key_len] = '\0';
        for (size_t k = 0; k < i; k++)
            if (strcmp(out[k].key, out[i].key) == 0)
                return OM_ERROR(OM_EINVAL, "--option %s: '%s' is given twice", text,
                                out[i].key);
        if ((o = game_option(g, out[i].key)) == NULL)
            return unknown_setting(g, text, out[i].key);
        if (!om_option_is_switch(o))
            return OM_ERROR(OM_EINVAL, "--option %s: '%s' is a fixed reading, not a switch: %s "
                            "(%s; %s)", text, o->name,
                            strncmp(o->default_value, FIXED, strlen(FIXED)) == 0
                                ? o->default_value + strlen(FIXED)
                                : o->default_value,
                            o->ambiguity, o->section);
        if ((st = setting_value(text, o, eq + 1, out[i].value)) != OM_OK)
            return st;
    }
    return OM_OK;
}

/* Room for the names of every game's rule sets, for a message. */
#define RULESETS_TEXT_MAX 512

/* The rule set `value` of no game's, at `line` of the text `c`: OM_ENOTFOUND
 * naming the field, with the nearest of every game's rule sets, if one is
 * near, and all of them (a game's own loader knows only its own). */
static om_status unknown_ruleset(const om_yaml_ctx *c, size_t line, const char *value)
{
    const char *names[OM_GAME_RULESETS_MAX], *best;
    char known[RULESETS_TEXT_MAX];
    size_t n = 0;
    for (size_t g = 0; g < om_game_count; g++)
        for (const char *const *r = om_games[g]->identity.rulesets; *r; r++)
            if (n < OM_GAME_RULESETS_MAX)
                names[n++] = *r;
    best = om_suggest(value, names, n);
    om_yaml_join_names(known, sizeof known, names, n);
    return om_yaml_fail_at(c, OM_ENOTFOUND, line, NULL, "ruleset",
                           "unknown rule set '%s'; %s%s%sknown rule sets: %s", value,
                           best ? "did you mean '" : "", best ? best : "", best ? "'? " : "",
                           known);
}

/* The game of a scenario text into *out: the one owning its top-level
 * `ruleset` value. A value no game owns is an error here, naming the line
 * and every game's rule sets. A text without a `ruleset` word (or not YAML)
 * goes to the first game, whose loader reports what is wrong in its own
 * words. Errors: OM_ENOTFOUND. */
static om_status game_of_text(const char *source, const char *text, size_t len,
                              const om_game **out)
{
    om_yaml_walk w;
    *out = om_games[0];
    om_yaml_walk_run(&w, text, len, "", "ruleset");
    if (w.status != OM_OK || !w.found || w.value_type != YAML_SCALAR_EVENT || w.value[0] == '\0')
        return OM_OK;
    if ((*out = om_game_for_ruleset(w.value)) != NULL)
        return OM_OK;
    *out = om_games[0];
    const om_yaml_ctx c = {.source = source, .text = text, .len = len};
    return unknown_ruleset(&c, w.line, w.value);
}

om_status om_scenario_load_text(const char *source, const char *text, size_t len,
                                om_scenario **out)
{
    const om_yaml_ctx c = {.source = source ? source : "<text>", .text = text, .len = len};
    om_scenario *sc;
    om_status st;

    *out = NULL;
    /* Before the text is kept as a C string, which a NUL byte would cut. */
    if ((st = om_yaml_check_text(&c)) != OM_OK)
        return st;
    sc = calloc(1, sizeof *sc);
    if (sc == NULL || (sc->source = strdup(source ? source : "<text>")) == NULL ||
        (sc->text = om_yaml_dup(text, len)) == NULL) {
        om_scenario_free(sc);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", source ? source : "<text>");
    }
    if ((st = game_of_text(sc->source, text, len, &sc->game)) != OM_OK ||
        (st = sc->game->scenario->load(sc)) != OM_OK) {
        om_scenario_free(sc);
        return st;
    }
    *out = sc;
    return OM_OK;
}

om_status om_scenario_load_file(const char *path, om_scenario **out)
{
    char *text = NULL;
    size_t len = 0;
    om_status st;
    *out = NULL;
    st = om_yaml_read_path(&path, &text, &len);
    if (st != OM_OK)
        return st;
    st = om_scenario_load_text(path, text, len, out);
    free(text);
    return st;
}

bool om_game_list_is_file(const char *name)
{
    const size_t n = strlen(name);
    return strcmp(name, OM_SCENARIO_STDIN_PATH) == 0 ||
           (n > 5 && strcmp(name + n - 5, ".yaml") == 0) ||
           (n > 4 && strcmp(name + n - 4, ".yml") == 0);
}

om_status om_game_list_file(const char *path, om_game_listing **out)
{
    char *text = NULL;
    size_t len = 0;
    const om_game *g = NULL;
    om_status st;

    *out = NULL;
    st = om_yaml_read_path(&path, &text, &len);
    if (st == OM_OK) {
        const om_yaml_ctx c = {.source = path, .text = text, .len = len};
        if ((st = om_yaml_check_text(&c)) == OM_OK && (st = game_of_text(path, text, len, &g)) == OM_OK) {
            if (g->battles == NULL || g->battles->version < 1 || g->battles->list_file == NULL)
                st = om_yaml_fail_at(&c, OM_EINVAL, 0, NULL, "ruleset",
                                     "%s has no army list files (a list file is of a game "
                                     "with battles)", g->identity.title);
            else
                st = g->battles->list_file(path, text, len, out);
        }
    }
    free(text);
    return st;
}

om_status om_game_list_doctrine_file(const char *path, om_game_listing **out)
{
    char *text = NULL;
    size_t len = 0;
    const om_game *g = NULL;
    om_status st;

    *out = NULL;
    for (size_t i = 0; g == NULL && i < om_game_count; i++)
        if (om_games[i]->battles != NULL && om_games[i]->battles->version >= 3 &&
            om_games[i]->battles->doctrines != NULL)
            g = om_games[i];
    if (g == NULL)
        return OM_ERROR(OM_EINVAL, "%s: no game has doctrine files", path);
    st = om_yaml_read_path(&path, &text, &len);
    if (st == OM_OK)
        st = g->battles->doctrines(path, text, len, out);
    free(text);
    return st;
}

/* ----------------------------------------------------------- battles */

/* Most example lists of all games a suggestion weighs. */
#define BATTLE_EXAMPLES_MAX 256

/* Whether game g fights battles from the command line (battles version 2). */
static bool battles_from_cli(const om_game *g)
{
    return g->battles != NULL && g->battles->version >= 2 && g->battles->example_at != NULL &&
           g->battles->battle_text != NULL;
}

const char *om_game_battle_example_at(size_t i)
{
    for (size_t g = 0; g < om_game_count; g++) {
        const char *name;
        if (!battles_from_cli(om_games[g]))
            continue;
        for (size_t k = 0; (name = om_games[g]->battles->example_at(k)) != NULL; k++)
            if (i-- == 0)
                return name;
    }
    return NULL;
}

/* Whether a list named on the command line is a file rather than an
 * example's name: a path with a folder, or a name ending in .yaml or .yml. */
static bool battle_list_is_file(const char *name)
{
    return strchr(name, '/') != NULL ||
           (strcmp(name, OM_SCENARIO_STDIN_PATH) != 0 && om_game_list_is_file(name));
}

/* The game of the example list `name`, or an error naming `word` with the
 * nearest example of any game (or all of them). */
static om_status battle_example_game(const char *word, const char *name, const om_game **out)
{
    const char *names[BATTLE_EXAMPLES_MAX], *best;
    char known[OM_YAML_REASON_MAX];
    size_t n = 0;
    for (size_t g = 0; g < om_game_count; g++) {
        const char *e;
        if (!battles_from_cli(om_games[g]))
            continue;
        for (size_t k = 0; (e = om_games[g]->battles->example_at(k)) != NULL; k++) {
            if (strcmp(e, name) == 0) {
                *out = om_games[g];
                return OM_OK;
            }
            if (n < BATTLE_EXAMPLES_MAX)
                names[n++] = e;
        }
    }
    best = om_suggest(name, names, n);
    if (best != NULL)
        return OM_ERROR(OM_ENOTFOUND, "%s: no example list '%s'; did you mean '%s'? (or give "
                        "a list file's path, ending in .yaml)", word, name, best);
    om_yaml_join_names(known, sizeof known, names, n);
    return OM_ERROR(OM_ENOTFOUND, "%s: no example list '%s'; give a list file's path (ending "
                    "in .yaml) or one of the example lists: %s", word, name, known);
}

om_status om_game_battle_text(const om_game_battle_spec *spec, char **text)
{
    const char *name = spec->list[0], *word = spec->list_word[0];
    const om_game *g = NULL;
    om_status st;

    *text = NULL;
    if (battle_list_is_file(name)) {
        char *list = NULL;
        size_t len = 0;
        if ((st = om_yaml_read_file(name, &list, &len)) != OM_OK)
            return OM_ERROR(st, "%s: cannot read the list file %s: %s", word, name,
                            om_error_message());
        const om_yaml_ctx c = {.source = name, .text = list, .len = len};
        if ((st = om_yaml_check_text(&c)) == OM_OK)
            st = game_of_text(name, list, len, &g);
        free(list);
    } else {
        st = battle_example_game(word, name, &g);
    }
    if (st != OM_OK)
        return st;
    if (!battles_from_cli(g))
        return OM_ERROR(OM_EINVAL, "%s: %s fights no battles from the command line (its "
                        "lists are not battle army lists)", word, g->identity.title);
    return g->battles->battle_text(spec, text);
}

om_status om_scenario_load_default(om_scenario **out)
{
    return om_scenario_load_text(OM_SCENARIO_DEFAULT_NAME, om_scenario_default_yaml,
                                 strlen(om_scenario_default_yaml), out);
}

void om_scenario_free(om_scenario *sc)
{
    if (sc == NULL)
        return;
    if (sc->game != NULL && sc->setup != NULL)
        sc->game->scenario->setup_free(sc->setup);
    free(sc->warnings);
    free(sc->provenance_json);
    free(sc->title);
    free(sc->text);
    free(sc->source);
    free(sc);
}

om_status om_trials_prepare(const om_scenario *sc, om_trials *out)
{
    memset(out, 0, sizeof *out);
    out->game = sc->game;
    return sc->game->scenario->prepare(sc, out);
}

void om_trials_release(om_trials *t)
{
    if (t != NULL && t->game != NULL && t->prepared != NULL)
        t->game->scenario->release(t);
    if (t != NULL)
        t->prepared = NULL;
}

om_status om_trials_exact(const om_trials *t, om_exact **out)
{
    om_exact *x = NULL;
    om_status st = om_exact_alloc(t->layout.field_count, &x);
    *out = NULL;
    if (st != OM_OK)
        return st;
    if (t->game->exact == NULL)
        st = OM_ERROR(OM_EUNSUPPORTED, "the %s game computes no exact law",
                      t->game->identity.name);
    else
        st = t->game->exact->law(t->prepared, &t->layout, x);
    /* A law that could not be computed (a first round the engine will not
     * prepare alone, a law that does not sum to 1) is not known, with its
     * reason: the run goes on without it. */
    if (st != OM_OK && st != OM_ENOMEM && st != OM_EUNSUPPORTED)
        st = OM_ERROR(OM_EUNSUPPORTED, "%s", om_error_message());
    if (st == OM_EUNSUPPORTED) {
        /* The law is a plain "not known", with its reason, for the file. */
        memset(x->known, 0, sizeof x->known);
        memset(x->p, 0, x->field_count * OM_EXACT_VALUES * sizeof *x->p);
        x->method[0] = '\0';
        om_exact_set_reason(x, "%s", om_error_message());
    } else if (st != OM_OK) {
        om_exact_free(x);
        return st;
    }
    *out = x;
    return st;
}

/* ---------------------------------------------------------------------------
 * Listings for `oddsmaster list`.
 */

/* A copy of s, or NULL for NULL; *oom set when memory runs out. */
static char *dup_or_null(const char *s, bool *oom)
{
    char *d;
    if (s == NULL)
        return NULL;
    if ((d = strdup(s)) == NULL)
        *oom = true;
    return d;
}

om_status om_game_listing_alloc(const char *heading, om_game_listing **out)
{
    bool oom = false;
    om_game_listing *l = calloc(1, sizeof *l);
    *out = NULL;
    if (l == NULL || ((l->heading = dup_or_null(heading, &oom)), oom)) {
        free(l);
        return OM_ERROR(OM_ENOMEM, "out of memory for a listing");
    }
    *out = l;
    return OM_OK;
}

om_status om_game_listing_table(om_game_listing *l, const char *key, const char *title,
                                size_t ncols, const char *const *names,
                                const om_game_cell_type *types, om_game_table **out)
{
    om_game_table *grown = realloc(l->tables, (l->ntables + 1) * sizeof *grown), *t;
    bool oom = false;
    if (grown == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a listing");
    l->tables = grown;
    t = &l->tables[l->ntables++];
    memset(t, 0, sizeof *t);
    t->ncols = ncols;
    t->key = dup_or_null(key, &oom);
    t->title = dup_or_null(title, &oom);
    t->columns = calloc(ncols ? ncols : 1, sizeof *t->columns);
    t->types = calloc(ncols ? ncols : 1, sizeof *t->types);
    for (size_t k = 0; !oom && t->columns && t->types && k < ncols; k++) {
        t->columns[k] = dup_or_null(names[k], &oom);
        t->types[k] = types ? types[k] : OM_GAME_CELL_TEXT;
    }
    if (oom || t->columns == NULL || t->types == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a listing");
    if (out != NULL)
        *out = t;
    return OM_OK;
}

om_status om_game_table_row(om_game_table *t, const char *const *cells)
{
    bool oom = false;
    if (t->nrows == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 16;
        char **grown = realloc(t->cells, cap * (t->ncols ? t->ncols : 1) * sizeof *grown);
        if (grown == NULL)
            return OM_ERROR(OM_ENOMEM, "out of memory for a listing");
        t->cells = grown;
        t->cap = cap;
    }
    for (size_t k = 0; k < t->ncols; k++)
        t->cells[t->nrows * t->ncols + k] = dup_or_null(cells[k] ? cells[k] : "", &oom);
    t->nrows++;
    return oom ? OM_ERROR(OM_ENOMEM, "out of memory for a listing") : OM_OK;
}

om_status om_game_listing_footer(om_game_listing *l, const char *footer)
{
    bool oom = false;
    free(l->footer);
    l->footer = dup_or_null(footer, &oom);
    return oom ? OM_ERROR(OM_ENOMEM, "out of memory for a listing") : OM_OK;
}

om_status om_game_table_note(om_game_table *t, const char *note)
{
    bool oom = false;
    free(t->note);
    t->note = dup_or_null(note, &oom);
    return oom ? OM_ERROR(OM_ENOMEM, "out of memory for a listing") : OM_OK;
}

om_status om_game_listing_json(om_game_listing *l, json_t *members)
{
    json_decref(l->json);
    l->json = members;
    if (members == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a listing");
    /* A listing's JSON is an object: its members follow the schema. */
    if (NEVER(!json_is_object(members)))
        return OM_ERROR(OM_EINVAL, "a listing's JSON is not an object");
    return OM_OK;
}

void om_game_listing_free(om_game_listing *l)
{
    if (l == NULL)
        return;
    for (size_t i = 0; i < l->ntables; i++) {
        om_game_table *t = &l->tables[i];
        for (size_t k = 0; k < t->nrows * t->ncols; k++)
            free(t->cells[k]);
        for (size_t k = 0; t->columns && k < t->ncols; k++)
            free(t->columns[k]);
        free(t->cells);
        free(t->columns);
        free(t->types);
        free(t->key);
        free(t->title);
        free(t->note);
    }
    free(l->tables);
    json_decref(l->json);
    free(l->heading);
    free(l->footer);
    free(l);
}
