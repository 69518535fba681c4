/*
 * names.c: `oddsmaster --names TOPIC [ARG...]`, the names the bash completion
 * script offers (cli.h, om_cli_names): rule sets, armies, units and what else
 * `oddsmaster list` shows; the units a matrix's list may name; situations,
 * matrix kinds and fields. Every name comes from the game interface (game.h:
 * the games' identities, their catalogue's `names`, their matrix groups) or
 * from a result file, so that no game is named here and a new game's names
 * complete with nothing added.
 *
 * The output is one name a line, for a script: nothing is printed for what
 * cannot be read (an unknown rule set, a missing file), and the exit status
 * is 0 unless the topic itself is unknown.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "game.h"
#include "h5file.h"
#include "h5matrix.h"

/* Longest name kept while composing a word to offer. */
#define NAME_MAX_LEN 256

/* Most distinct names (situations, kinds, armies of a file) printed once each;
 * the games have a few dozen. */
#define NAMES_SEEN_MAX 256

/* Whether `s` begins with `prefix`. */
static bool begins(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Print `name` unless seen[0..*n) holds it (those printed; at most cap kept). */
static void print_once(const char *name, const char **seen, size_t *n, size_t cap)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(seen[i], name) == 0)
            return;
    if (*n < cap)
        seen[(*n)++] = name;
    puts(name);
}

/* ---------------------------------------------------------------------------
 * listing PREFIX
 */

/* What each name of a level is printed with. */
typedef struct listing_ctx {
    const char *parent; /* "RULESET" or "RULESET/WHAT" */
    const char *leaf;   /* what the name must begin with */
} listing_ctx;

static void print_listing_name(void *ctx, const char *name, bool more)
{
    const listing_ctx *c = ctx;
    if (begins(name, c->leaf))
        printf("%s/%s%s\n", c->parent, name, more ? "/" : "");
}

/* The names of `oddsmaster list` that begin with `prefix`, at its depth. */
static void names_listing(const char *prefix)
{
    const char *slash = strrchr(prefix, '/');
    char parent[NAME_MAX_LEN], ruleset[NAME_MAX_LEN];
    const om_game *g;
    if (slash == NULL) {
        for (size_t i = 0; i < om_game_count; i++)
            for (const char *const *r = om_games[i]->identity.rulesets; *r; r++)
                if (begins(*r, prefix))
                    printf("%s/\n", *r);
        return;
    }
    if ((size_t)(slash - prefix) >= sizeof parent)
        return;
    snprintf(parent, sizeof parent, "%.*s", (int)(slash - prefix), prefix);
    snprintf(ruleset, sizeof ruleset, "%.*s", (int)strcspn(parent, "/"), parent);
    if ((g = om_game_for_ruleset(ruleset)) == NULL)
        return;
    listing_ctx c = {.parent = parent, .leaf = slash + 1};
    const char *what = parent[strlen(ruleset)] == '/' ? parent + strlen(ruleset) + 1 : NULL;
    if (g->catalogue->names(ruleset, what, print_listing_name, &c) != OM_OK)
        om_error_clear();
}

/* ---------------------------------------------------------------------------
 * units RULESET WORD
 */

/* The army of unit id "army/unit" into buf (cap NAME_MAX_LEN); "" if none. */
static const char *army_of(const char *id, char *buf)
{
    const char *slash = strchr(id, '/');
    snprintf(buf, NAME_MAX_LEN, "%.*s", slash ? (int)(slash - id) : 0, id);
    return buf;
}

/* Whether units[0..n) has a unit `unit` of army `army` that takes part. */
static bool army_has(const om_game_unit *units, size_t n, const char *army, const char *unit)
{
    const size_t len = strlen(army);
    for (size_t i = 0; i < n; i++)
        if (units[i].left_out[0] == '\0' && strncmp(units[i].id, army, len) == 0 &&
            units[i].id[len] == '/' && strcmp(units[i].id + len + 1, unit) == 0)
            return true;
    return false;
}

/* The army a bare UNIT item after `head` (the items before the one being
 * typed, each ending in ',') would belong to: that of the last ARMY/UNIT
 * item, kept by the bare units of that army after it (the matrix grammar,
 * game.h's `units`); "" when none. */
static void context_army(const om_game_unit *units, size_t n, const char *head, char *army)
{
    army[0] = '\0';
    for (const char *item = head; *item;) {
        size_t len = strcspn(item, ",");
        char one[NAME_MAX_LEN];
        snprintf(one, sizeof one, "%.*s", (int)len, item);
        if (strchr(one, '/') != NULL)
            army_of(one, army);
        else if (!army_has(units, n, army, one))
            army[0] = '\0';
        item += len + (item[len] == ',');
    }
}

/* Whether unit u takes part in a matrix (the game leaves it out otherwise). */
static bool takes_part(const om_game_unit *u)
{
    return u->left_out[0] == '\0' && strchr(u->id, '/') != NULL;
}

/* The words a matrix's list of units of `ruleset` may continue `word` with:
 * `word` up to its last comma, then `all`, an army, ARMY/UNIT (once "ARMY/"
 * is typed), or a bare unit of the army of the last ARMY/UNIT item. */
static void names_units(const char *ruleset, const char *word)
{
    const om_game *g = om_game_for_ruleset(ruleset);
    const char *comma = strrchr(word, ','), *item = comma ? comma + 1 : word;
    const char *slash = strchr(item, '/');
    size_t n = 0;
    char head[NAME_MAX_LEN], army[NAME_MAX_LEN], buf[NAME_MAX_LEN], other[NAME_MAX_LEN];
    om_game_unit *units = NULL;

    if (g == NULL || strlen(word) >= sizeof head)
        return;
    if (g->matrix->units(ruleset, "all", &units, &n) != OM_OK) {
        om_error_clear();
        g->matrix->units_free(units, n);
        return;
    }
    snprintf(head, sizeof head, "%.*s", (int)(item - word), word);
    if (slash != NULL)
        snprintf(army, sizeof army, "%.*s", (int)(slash - item), item);
    else
        context_army(units, n, head, army);
    if (slash == NULL && begins("all", item))
        printf("%sall\n", head);
    /* The armies, each once, in the order of their first unit. */
    for (size_t i = 0; slash == NULL && i < n; i++) {
        bool first = takes_part(&units[i]);
        army_of(units[i].id, buf);
        for (size_t k = 0; k < i && first; k++)
            first = !takes_part(&units[k]) || strcmp(army_of(units[k].id, other), buf) != 0;
        if (first && begins(buf, item))
            printf("%s%s\n", head, buf);
    }
    /* The units of the army typed, or of the context army. */
    for (size_t i = 0; army[0] != '\0' && i < n; i++) {
        const char *unit = strchr(units[i].id, '/');
        if (!takes_part(&units[i]) || strcmp(army_of(units[i].id, buf), army) != 0)
            continue;
        if (slash != NULL && begins(units[i].id, item))
            printf("%s%s\n", head, units[i].id);
        else if (slash == NULL && begins(unit + 1, item))
            printf("%s%s\n", head, unit + 1);
    }
    g->matrix->units_free(units, n);
}

/* ---------------------------------------------------------------------------
 * situations, kinds, fields
 */

/* Whether `path` names a file that opens for reading. */
static bool is_file(const char *path)
{
    FILE *f = path && path[0] ? fopen(path, "rb") : NULL;
    if (f != NULL)
        fclose(f);
    return f != NULL;
}

/* The situations of `operand`: a rule set's game's, a matrix file's, or
 * (NULL, or neither) every game's. */
static void names_situations(const char *operand)
{
    const om_game *g = operand ? om_game_for_ruleset(operand) : NULL;
    const char *seen[NAMES_SEEN_MAX];
    size_t n_seen = 0;
    om_matrix *m = NULL;
    if (g == NULL && is_file(operand)) {
        if (om_h5m_read(operand, &m) == OM_OK)
            for (size_t s = 0; s < m->info.n_situations; s++)
                puts(m->info.situations[s].name);
        om_h5m_matrix_free(m);
        om_error_clear();
        return;
    }
    for (size_t i = 0; i < om_game_count; i++)
        for (size_t s = 0; (g == NULL || om_games[i] == g) &&
                           s < om_games[i]->matrix->n_situations; s++)
            print_once(om_games[i]->matrix->situations[s].name, seen, &n_seen,
                       sizeof seen / sizeof seen[0]);
}

/* The armies of matrix file `path`, by id: what its units' ids have before
 * the slash, each once. */
static void names_armies(const char *path)
{
    const char *seen[NAMES_SEEN_MAX];
    char ids[sizeof seen / sizeof seen[0]][NAME_MAX_LEN];
    size_t n_seen = 0;
    om_matrix *m = NULL;
    if (is_file(path) && om_h5m_read(path, &m) == OM_OK)
        for (int axis = 0; axis < 2; axis++) {
            const om_matrix_unit *u = axis == 0 ? m->info.rows : m->info.cols;
            const size_t n = axis == 0 ? m->info.n_rows : m->info.n_cols;
            for (size_t i = 0; i < n && n_seen < sizeof ids / sizeof ids[0]; i++)
                if (u[i].id != NULL && strchr(u[i].id, '/') != NULL)
                    print_once(army_of(u[i].id, ids[n_seen]), seen, &n_seen,
                               sizeof seen / sizeof seen[0]);
        }
    om_h5m_matrix_free(m);
    om_error_clear();
}

/* The kinds a matrix of `ruleset`'s game runs (NULL or unknown: any game's). */
static void names_kinds(const char *ruleset)
{
    const om_game *g = ruleset ? om_game_for_ruleset(ruleset) : NULL;
    const char *seen[NAMES_SEEN_MAX];
    size_t n_seen = 0;
    for (size_t i = 0; i < om_game_count; i++)
        for (const char *const *k = om_games[i]->matrix->kinds; (g == NULL || om_games[i] == g)
                                                                && *k; k++)
            print_once(*k, seen, &n_seen, sizeof seen / sizeof seen[0]);
}

/* The fields of `operand`: a result file's, or a scenario's (NULL: the
 * embedded default's), as its run would write them. */
static void names_fields(const char *operand)
{
    om_h5_reader *r = NULL;
    om_scenario *sc = NULL;
    om_trials t = {0};
    om_status st;
    if (operand != NULL && strcmp(operand, OM_SCENARIO_STDIN_PATH) == 0)
        return;
    if (operand != NULL && is_file(operand) && om_h5_reader_open(&r, operand) == OM_OK) {
        for (size_t i = 0; i < om_h5_reader_field_count(r); i++)
            puts(om_h5_reader_field(r, i)->name);
        om_h5_reader_close(r);
        return;
    }
    om_error_clear();
    st = operand ? om_scenario_load_file(operand, &sc) : om_scenario_load_default(&sc);
    if (st == OM_OK && om_trials_prepare(sc, &t) == OM_OK)
        for (size_t i = 0; i < t.layout.field_count; i++)
            puts(t.layout.fields[i].name);
    om_trials_release(&t);
    om_scenario_free(sc);
    om_error_clear();
}

int om_cli_names(int argc, char **argv)
{
    const char *topic = argc > 0 ? argv[0] : "";
    /* An empty operand is none: the script passes its first operand as typed. */
    const char *arg1 = argc > 1 && argv[1][0] ? argv[1] : NULL;
    const char *arg2 = argc > 2 ? argv[2] : NULL;
    if (strcmp(topic, "listing") == 0)
        names_listing(arg1 ? arg1 : "");
    else if (strcmp(topic, "rulesets") == 0)
        for (size_t i = 0; i < om_game_count; i++)
            for (const char *const *r = om_games[i]->identity.rulesets; *r; r++)
                puts(*r);
    else if (strcmp(topic, "units") == 0 && arg1 != NULL)
        names_units(arg1, arg2 ? arg2 : "");
    else if (strcmp(topic, "situations") == 0)
        names_situations(arg1);
    else if (strcmp(topic, "kinds") == 0)
        names_kinds(arg1);
    else if (strcmp(topic, "armies") == 0)
        names_armies(arg1);
    else if (strcmp(topic, "fields") == 0)
        names_fields(arg1);
    else if (strcmp(topic, "examples") == 0)
        for (size_t i = 0; om_game_battle_example_at(i) != NULL; i++)
            puts(om_game_battle_example_at(i));
    else {
        fprintf(stderr, "oddsmaster: error: --names takes listing PREFIX, rulesets, units "
                        "RULESET WORD, situations [OPERAND], kinds [RULESET], armies MATRIX, "
                        "examples or fields [OPERAND]\n");
        return OM_EXIT_USAGE;
    }
    return fflush(stdout) == 0 ? OM_EXIT_OK : OM_EXIT_IO;
}
