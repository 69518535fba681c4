/*
 * cmd_list.c: `oddsmaster list`: what the embedded army lists hold (army.h),
 * as a readable table or as JSON with stable keys (README "Army data"):
 *
 *   oddsmaster list                        rule sets, their titles and armies
 *   oddsmaster list RULESET                the armies of a rule set
 *   oddsmaster list RULESET/ARMY           its units and upgrades, with values,
 *                                          points and rules (* = not modelled)
 *   oddsmaster list RULESET/ARMY/UNIT      one entry in full, rules explained
 *   oddsmaster list --rules [RULESET]      the special rules: modelled or not,
 *                                          whether they change engagement dice
 *   oddsmaster list --keys                 the keys of each game's scenario
 *                                          files (game.h om_game_key), under
 *                                          the game's title
 *   oddsmaster list --options              the interpretations of ambiguous
 *                                          rules of every game (each engine's
 *                                          option registry, through the game
 *                                          interface): switches a scenario's
 *                                          `options:` may set, and the readings
 *                                          fixed in code
 *   oddsmaster list whfb7[/WHAT[/ID]]      a game whose descriptor lists its own
 *                                          data (game.h's `list`): printed from
 *                                          the tables it gives, as text or JSON
 *
 * A rule is "modelled" when the engine's registry (om_wm_special_find) has it;
 * that registry, not the data file's `engine:` field, is the truth here (the
 * tests check that the two agree). Unknown names exit 2 with a suggestion.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "army.h"
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
static const char *cell(char *buf, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static const char *cell(char *buf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, CELL_MAX, fmt, ap);
    va_end(ap);
    return buf;
}

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
static json_t *json_strings(char *const *s, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        json_array_append_new(a, json_string(s[i]));
    return a;
}

/* A string or null. */
static json_t *json_opt(const char *s)
{
    return s ? json_string(s) : json_null();
}

/* The engine's title of a rule set. */
static const char *ruleset_title(const om_army_ruleset *rs)
{
    const om_wm_ruleset *r = om_wm_ruleset_find(rs->id);
    return r ? r->title : rs->id;
}

/* Is the rule modelled by the engine? */
static bool modelled(const char *id) { return om_wm_special_find(id) != NULL; }

/* The rule set named `name`, or an OM_ENOTFOUND error with a suggestion: an
 * army id given without its rule set, a rule set's directory name, or a
 * near miss. */
static om_status find_ruleset(const char *name, const om_army_ruleset **out)
{
    const size_t n = om_army_ruleset_count();
    const char *ids[OM_WM_RULES_COUNT], *best = NULL;
    char known[256] = "";

    *out = om_army_ruleset_find(name);
    if (*out)
        return OM_OK;
    for (size_t i = 0; i < n && i < OM_WM_RULES_COUNT; i++) {
        ids[i] = om_army_ruleset_at(i)->id;
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                 ids[i]);
    }
    char armies[512] = "";
    for (size_t i = 0; i < n; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s.yaml", om_army_ruleset_at(i)->dir, name);
        if (om_army_file_find(path))
            snprintf(armies + strlen(armies), sizeof armies - strlen(armies), "%s'%s/%s'",
                     armies[0] ? " or " : "", om_army_ruleset_at(i)->id, name);
        if (strcmp(name, om_army_ruleset_at(i)->dir) == 0)
            best = ids[i];
    }
    if (armies[0])
        return OM_ERROR(OM_ENOTFOUND, "unknown rule set '%s'; did you mean %s?", name, armies);
    if (!best)
        best = om_army_suggest_name(name, ids, n < OM_WM_RULES_COUNT ? n : OM_WM_RULES_COUNT);
    if (best)
        return OM_ERROR(OM_ENOTFOUND, "unknown rule set '%s'; did you mean '%s'?", name, best);
    return OM_ERROR(OM_ENOTFOUND, "unknown rule set '%s'; rule sets with army lists: %s", name,
                    known);
}

/* "3", "3/1" or "+2" (characters and mounts print their bonus). */
static const char *attacks_text(char *buf, const om_army_unit *u)
{
    if (om_army_type_is_character(u->type) || u->type == OM_ARMY_MOUNT)
        return cell(buf, "+%u", u->attacks);
    if (u->shots > 0)
        return cell(buf, "%u/%u", u->attacks, u->shots);
    return cell(buf, "%u", u->attacks);
}

/* A number, or "-" for 0. */
static const char *num_or_dash(char *buf, unsigned v)
{
    return v ? cell(buf, "%u", v) : "-";
}

/* The unit's rule ids, those the engine does not model marked with '*'. */
static const char *rules_text(char *buf, const om_army_unit *u)
{
    buf[0] = '\0';
    for (size_t i = 0; i < u->rules_count; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, CELL_MAX - used, "%s%s%s", i ? ", " : "", u->rules[i],
                 modelled(u->rules[i]) ? "" : "*");
    }
    return buf;
}

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

static om_status list_rulesets(list_format fmt)
{
    om_army_rules *reg = NULL;
    size_t n_modelled = 0;
    om_status st;

    if ((st = om_army_rules_load(&reg)))
        return st;
    for (size_t i = 0; i < reg->count; i++)
        n_modelled += modelled(reg->rules[i].id);
    if (st == OM_OK && fmt == LIST_JSON) {
        json_t *root = json_object(), *rs = json_array();
        for (size_t i = 0; i < om_army_ruleset_count(); i++) {
            const om_army_ruleset *r = om_army_ruleset_at(i);
            json_array_append_new(rs, json_pack("{s:s, s:s, s:s, s:I}", "id", r->id, "title",
                                                ruleset_title(r), "directory", r->dir, "armies",
                                                (json_int_t)om_army_count(r)));
        }
        json_object_set_new(root, "schema", json_string(LIST_SCHEMA));
        json_object_set_new(root, "rulesets", rs);
        json_object_set_new(root, "special_rules",
                            json_pack("{s:I, s:I}", "count", (json_int_t)reg->count,
                                      "implemented", (json_int_t)n_modelled));
        json_object_set_new(root, "games", games_json());
        st = print_json(root);
    } else if (st == OM_OK) {
        table t = { .ncols = 3 };
        char b[CELL_MAX];
        bool ok = table_add(&t, (const char *[]){ "rule set", "title", "armies" });
        for (size_t i = 0; ok && i < om_army_ruleset_count(); i++) {
            const om_army_ruleset *r = om_army_ruleset_at(i);
            ok = table_add(&t, (const char *[]){ r->id, ruleset_title(r),
                                                 cell(b, "%zu", om_army_count(r)) });
        }
        if (!ok) {
            st = OM_ERROR(OM_ENOMEM, "out of memory");
        } else {
            printf("Rule sets with army lists (oddsmaster list RULESET lists the armies):\n");
            table_print(&t, stdout, "  ");
            printf("\nSpecial rules: %zu named by the lists, %zu modelled by the engine "
                   "(oddsmaster list --rules).\n", reg->count, n_modelled);
            if (!print_games())
                st = OM_ERROR(OM_ENOMEM, "out of memory");
        }
        table_free(&t);
    }
    om_army_rules_free(reg);
    return st;
}

/* ---------------------------------------------------------------------------
 * oddsmaster list RULESET
 */

static om_status list_armies(const om_army_ruleset *rs, list_format fmt)
{
    const size_t n = om_army_count(rs);
    json_t *root = NULL, *arr = NULL;
    table t = { .ncols = 6 };
    char b[4][CELL_MAX];
    bool ok = true;
    om_status st = OM_OK;

    if (fmt == LIST_JSON) {
        root = json_pack("{s:s, s:s, s:s}", "schema", LIST_SCHEMA, "ruleset", rs->id, "title",
                         ruleset_title(rs));
        arr = json_array();
    } else {
        ok = table_add(&t, (const char *[]){ "army", "name", "units", "upgrades",
                                             "list version", "source" });
    }
    for (size_t i = 0; ok && st == OM_OK && i < n; i++) {
        om_army *a = NULL;
        if ((st = om_army_load(rs->id, om_army_file_of(rs, i)->stem, &a)))
            break;
        if (fmt == LIST_JSON)
            json_array_append_new(
                arr, json_pack("{s:s, s:s, s:I, s:I, s:I, s:s, s:s, s:s, s:s}", "id", a->id,
                               "name", a->name, "units", (json_int_t)a->units_count, "upgrades",
                               (json_int_t)a->upgrades_count, "spells",
                               (json_int_t)a->spells_count, "list_version", a->list_version,
                               "source_label", a->source_label, "source", a->origin,
                               "magic_items", a->magic_items));
        else
            ok = table_add(&t, (const char *[]){ a->id, a->name,
                                                 cell(b[0], "%zu", a->units_count),
                                                 cell(b[1], "%zu", a->upgrades_count),
                                                 a->list_version, a->origin });
        om_army_free(a);
    }
    if (!ok && st == OM_OK)
        st = OM_ERROR(OM_ENOMEM, "out of memory");
    if (fmt == LIST_JSON) {
        if (st == OM_OK && root) {
            json_object_set_new(root, "armies", arr);
            return print_json(root);
        }
        json_decref(arr);
        json_decref(root);
        return st ? st : OM_ERROR(OM_ENOMEM, "out of memory");
    }
    if (st == OM_OK) {
        printf("%s (%s): %zu armies (oddsmaster list %s/ARMY lists the units)\n",
               ruleset_title(rs), rs->id, n, rs->id);
        table_print(&t, stdout, "  ");
    }
    table_free(&t);
    return st;
}

/* ---------------------------------------------------------------------------
 * oddsmaster list RULESET/ARMY and RULESET/ARMY/UNIT
 */

/* One army entry as JSON (keys in the README). */
static json_t *unit_json(const om_army_unit *u)
{
    json_t *o = json_object(), *not_modelled = json_array();
    for (size_t i = 0; not_modelled && i < u->rules_count; i++)
        if (!modelled(u->rules[i]))
            json_array_append_new(not_modelled, json_string(u->rules[i]));
    if (!o)
        return NULL;
    json_object_set_new(o, "id", json_string(u->id));
    json_object_set_new(o, "name", json_string(u->name));
    json_object_set_new(o, "type", json_string(om_army_type_name(u->type)));
    json_object_set_new(o, "source_type", json_opt(u->source_type));
    json_object_set_new(o, "attacks", json_integer(u->attacks));
    json_object_set_new(o, "shots", json_integer(u->shots));
    json_object_set_new(o, "range_cm", json_integer(u->range_cm));
    json_object_set_new(o, "hits", json_integer(u->hits));
    json_object_set_new(o, "armour", json_string(u->armour));
    json_object_set_new(o, "save", json_integer(u->save));
    json_object_set_new(o, "command", json_integer(u->command));
    json_object_set_new(o, "size", json_integer(u->size));
    json_object_set_new(o, "points", json_integer(u->points));
    json_object_set_new(o, "min", json_integer(u->min));
    json_object_set_new(o, "max", json_integer(u->max));
    json_object_set_new(o, "upgrades", json_strings(u->upgrades, u->upgrades_count));
    json_object_set_new(o, "rules", json_strings(u->rules, u->rules_count));
    json_object_set_new(o, "not_modelled", not_modelled);
    json_object_set_new(o, "notes", json_opt(u->notes));
    return o;
}

/* Add the entries of one section to a table. */
static bool add_entries(table *t, const om_army_unit *units, size_t n)
{
    /* One buffer per formatted cell: the row's cells are all built before
     * table_add copies them. */
    char b[10][CELL_MAX];
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        const om_army_unit *u = &units[i];
        ok = table_add(t, (const char *[]){
            u->id, u->name, om_army_type_name(u->type), attacks_text(b[0], u),
            u->range_cm ? cell(b[1], "%ucm", u->range_cm) : "-", num_or_dash(b[2], u->hits),
            u->armour, num_or_dash(b[3], u->command), num_or_dash(b[4], u->size),
            u->is_upgrade ? cell(b[5], "%+d", u->points) : cell(b[5], "%d", u->points),
            cell(b[6], "%s/%s", num_or_dash(b[7], u->min), num_or_dash(b[8], u->max)),
            rules_text(b[9], u) });
    }
    return ok;
}

static om_status print_army_text(const om_army *a)
{
    static const char *const header[] = { "id", "name", "type", "attacks", "range", "hits",
                                          "armour", "cmd", "size", "points", "min/max",
                                          "rules" };
    table units = { .ncols = 12 }, ups = { .ncols = 12 };
    bool any_unmodelled = false, ok;

    ok = table_add(&units, header) && add_entries(&units, a->units, a->units_count) &&
         table_add(&ups, header) && add_entries(&ups, a->upgrades, a->upgrades_count);
    if (ok) {
        printf("%s (%s/%s), list version %s (%s)\n", a->name, a->ruleset, a->id,
               a->list_version, a->source_label);
        printf("Source: %s\n\nUnits (per unit; min/max per 1000 points):\n", a->origin);
        table_print(&units, stdout, "  ");
        if (a->upgrades_count) {
            printf("\nUpgrades (points are added to the unit or character; attacks of "
                   "characters and mounts are bonuses):\n");
            table_print(&ups, stdout, "  ");
        }
        if (a->spells_count) {
            printf("\nSpells:");
            for (size_t i = 0; i < a->spells_count; i++)
                printf("%s %s (%u+)", i ? "," : "", a->spells[i].name, a->spells[i].roll);
            printf("\n");
        }
        for (size_t i = 0; i < a->units_count + a->upgrades_count; i++) {
            const om_army_unit *u = i < a->units_count ? &a->units[i]
                                                       : &a->upgrades[i - a->units_count];
            for (size_t k = 0; k < u->rules_count; k++)
                any_unmodelled |= !modelled(u->rules[k]);
        }
        if (any_unmodelled)
            printf("\n* not modelled by the engine yet (oddsmaster list --rules %s).\n",
                   a->ruleset);
        printf("Use in a scenario: 'from: %s/%s' (oddsmaster list %s/%s/UNIT for details).\n",
               a->id, a->units_count ? a->units[0].id : "UNIT", a->ruleset, a->id);
    }
    table_free(&units);
    table_free(&ups);
    return ok ? OM_OK : OM_ERROR(OM_ENOMEM, "out of memory");
}

static om_status list_army(const om_army_ruleset *rs, const char *army, list_format fmt)
{
    om_army *a = NULL;
    om_status st;

    if ((st = om_army_load(rs->id, army, &a)))
        return st;
    if (fmt == LIST_JSON) {
        json_t *root = json_object(), *units = json_array(), *ups = json_array(),
               *spells = json_array();
        for (size_t i = 0; i < a->units_count; i++)
            json_array_append_new(units, unit_json(&a->units[i]));
        for (size_t i = 0; i < a->upgrades_count; i++)
            json_array_append_new(ups, unit_json(&a->upgrades[i]));
        for (size_t i = 0; i < a->spells_count; i++)
            json_array_append_new(spells,
                                  json_pack("{s:s, s:s, s:I, s:I}", "id", a->spells[i].id,
                                            "name", a->spells[i].name, "roll",
                                            (json_int_t)a->spells[i].roll, "range_cm",
                                            (json_int_t)a->spells[i].range_cm));
        json_object_set_new(root, "schema", json_string(LIST_SCHEMA));
        json_object_set_new(root, "ruleset", json_string(a->ruleset));
        json_object_set_new(root, "army", json_string(a->id));
        json_object_set_new(root, "name", json_string(a->name));
        json_object_set_new(root, "list_version", json_string(a->list_version));
        json_object_set_new(root, "source_label", json_string(a->source_label));
        json_object_set_new(root, "source", json_string(a->origin));
        json_object_set_new(root, "magic_items", json_string(a->magic_items));
        json_object_set_new(root, "notes", json_opt(a->notes));
        json_object_set_new(root, "army_rules", json_opt(a->army_rules));
        json_object_set_new(root, "units", units);
        json_object_set_new(root, "upgrades", ups);
        json_object_set_new(root, "spells", spells);
        st = print_json(root);
    } else {
        st = print_army_text(a);
    }
    om_army_free(a);
    return st;
}

static om_status list_unit(const om_army_ruleset *rs, const char *army, const char *id,
                           list_format fmt)
{
    om_army *a = NULL;
    const om_army_unit *u = NULL;
    om_army_rules *reg = NULL;
    char b[8][CELL_MAX];
    om_status st;

    if ((st = om_army_load(rs->id, army, &a)) || (st = om_army_unit_lookup(a, id, &u)) ||
        (st = om_army_rules_load(&reg))) {
        om_army_free(a);
        return st;
    }
    if (fmt == LIST_JSON) {
        json_t *root = json_object(), *rules = json_array();
        for (size_t i = 0; i < u->rules_count; i++) {
            const om_army_rule *r = om_army_rules_find(reg, u->rules[i]);
            json_array_append_new(rules, json_pack("{s:s, s:s?, s:b, s:s?}", "id", u->rules[i],
                                                   "name", r ? r->name : NULL, "implemented",
                                                   modelled(u->rules[i]), "summary",
                                                   r ? r->summary : NULL));
        }
        json_object_set_new(root, "schema", json_string(LIST_SCHEMA));
        json_object_set_new(root, "ruleset", json_string(a->ruleset));
        json_object_set_new(root, "army", json_string(a->id));
        json_object_set_new(root, "section", json_string(u->is_upgrade ? "upgrades" : "units"));
        json_object_set_new(root, "unit", unit_json(u));
        json_object_set_new(root, "rules", rules);
        st = print_json(root);
    } else {
        printf("%s/%s/%s: %s (%s%s%s%s)\n", a->ruleset, a->id, u->id, u->name,
               om_army_type_name(u->type), u->source_type ? ", printed \"" : "",
               u->source_type ? u->source_type : "", u->source_type ? "\"" : "");
        printf("  attacks %s, range %s, hits %s, armour %s (save used: %s), command %s\n",
               attacks_text(b[0], u), u->range_cm ? cell(b[1], "%ucm", u->range_cm) : "-",
               num_or_dash(b[2], u->hits), u->armour,
               u->save ? cell(b[3], "%u+", u->save) : "none", num_or_dash(b[4], u->command));
        printf("  size %s, points %s%d, min %s, max %s (per 1000 points)\n",
               num_or_dash(b[5], u->size), u->is_upgrade && u->points >= 0 ? "+" : "",
               u->points, num_or_dash(b[6], u->min), num_or_dash(b[7], u->max));
        if (u->upgrades_count) {
            printf("  upgrades:");
            for (size_t i = 0; i < u->upgrades_count; i++)
                printf("%s %s", i ? "," : "", u->upgrades[i]);
            printf("\n");
        }
        if (u->notes)
            printf("  notes: %s\n", u->notes);
        printf("  rules:%s\n", u->rules_count ? "" : " none");
        for (size_t i = 0; i < u->rules_count; i++) {
            const om_army_rule *r = om_army_rules_find(reg, u->rules[i]);
            printf("    %s%s: %s\n", u->rules[i],
                   modelled(u->rules[i]) ? " (modelled)" : "* (not modelled yet)",
                   r ? r->summary : "(not in the registry)");
        }
        if ((unsigned)u->type < OM_WM_TROOP_COUNT && !u->is_upgrade)
            printf("  scenario: 'unit: {from: %s/%s}'\n", a->id, u->id);
        else if (om_army_type_is_character(u->type))
            printf("  scenario: side key 'character: %s/%s'\n", a->id, u->id);
        else if (u->type == OM_ARMY_MOUNT)
            printf("  scenario: side key 'mount: %s' with a character\n", u->id);
    }
    om_army_rules_free(reg);
    om_army_free(a);
    return st;
}

/* ---------------------------------------------------------------------------
 * oddsmaster list --rules [RULESET]
 */

/* Does the rule belong to rule set rs (NULL: any)? */
static bool rule_in(const om_army_rule *r, const om_army_ruleset *rs)
{
    for (size_t i = 0; rs && i < r->rulesets_count; i++)
        if (strcmp(r->rulesets[i], rs->id) == 0)
            return true;
    return rs == NULL;
}

/* The traits engine rule sp gives a unit under rule set rs, as text; for
 * all rule sets (rs NULL), its common traits and, in parentheses, those of
 * each rule set whose list words the rule otherwise. */
static const char *engine_traits(char *buf, const om_wm_special *sp, const om_army_ruleset *rs)
{
    size_t used;
    if (rs)
        return om_wm_traits_format(om_wm_special_traits(sp, om_wm_ruleset_find(rs->id)), buf,
                                   CELL_MAX), buf;
    used = om_wm_traits_format(&sp->traits, buf, CELL_MAX);
    for (int i = 0; i < OM_WM_RULES_COUNT && used < CELL_MAX; i++) {
        const om_wm_ruleset *r = om_wm_ruleset_get((om_wm_ruleset_id)i);
        if (sp->in[i] == NULL)
            continue;
        used += (size_t)snprintf(buf + used, CELL_MAX - used, " (%s: ", r->name);
        if (used < CELL_MAX)
            used += om_wm_traits_format(sp->in[i], buf + used, CELL_MAX - used);
        if (used < CELL_MAX)
            used += (size_t)snprintf(buf + used, CELL_MAX - used, ")");
    }
    return buf;
}

/* The traits of engine rule sp under each rule set (or rs only), by rule set. */
static json_t *engine_traits_json(const om_wm_special *sp, const om_army_ruleset *rs)
{
    json_t *o = json_object();
    char buf[CELL_MAX];
    for (int i = 0; o && i < OM_WM_RULES_COUNT; i++) {
        const om_wm_ruleset *r = om_wm_ruleset_get((om_wm_ruleset_id)i);
        if (rs && strcmp(rs->id, r->name) != 0)
            continue;
        om_wm_traits_format(om_wm_special_traits(sp, r), buf, sizeof buf);
        json_object_set_new(o, r->name, json_string(buf));
    }
    return o;
}

static om_status list_rules(const om_army_ruleset *rs, list_format fmt)
{
    om_army_rules *reg = NULL;
    size_t n = 0, n_modelled = 0;
    om_status st;

    if ((st = om_army_rules_load(&reg)))
        return st;
    for (size_t i = 0; i < reg->count; i++) {
        n += rule_in(&reg->rules[i], rs);
        n_modelled += rule_in(&reg->rules[i], rs) && modelled(reg->rules[i].id);
    }
    if (fmt == LIST_JSON) {
        json_t *root = json_object(), *arr = json_array(), *eng = json_array();
        for (size_t i = 0; i < reg->count; i++) {
            const om_army_rule *r = &reg->rules[i];
            if (!rule_in(r, rs))
                continue;
            json_array_append_new(
                arr, json_pack("{s:s, s:s, s:b, s:b, s:o, s:s, s:o}", "id", r->id, "name",
                               r->name, "implemented", modelled(r->id), "affects_engagement_dice",
                               r->affects_dice, "rulesets",
                               json_strings(r->rulesets, r->rulesets_count), "summary",
                               r->summary, "used_by", json_strings(r->used_by, r->used_by_count)));
        }
        for (size_t i = 0; i < om_wm_special_count(); i++)
            json_array_append_new(eng, json_pack("{s:s, s:s, s:s, s:o}", "id",
                                                 om_wm_special_at(i)->id, "effect",
                                                 om_wm_special_at(i)->effect, "section",
                                                 om_wm_special_at(i)->section, "traits",
                                                 engine_traits_json(om_wm_special_at(i), rs)));
        json_object_set_new(root, "schema", json_string(LIST_SCHEMA));
        json_object_set_new(root, "ruleset", rs ? json_string(rs->id) : json_null());
        json_object_set_new(root, "count", json_integer((json_int_t)n));
        json_object_set_new(root, "implemented", json_integer((json_int_t)n_modelled));
        json_object_set_new(root, "rules", arr);
        json_object_set_new(root, "engine_rules", eng);
        st = print_json(root);
    } else {
        table t = { .ncols = rs ? 5 : 6 };
        bool ok = table_add(&t, rs ? (const char *[]){ "id", "name", "modelled", "dice",
                                                       "summary" }
                                   : (const char *[]){ "id", "name", "modelled", "dice",
                                                       "rule sets", "summary" });
        for (size_t i = 0; ok && i < reg->count; i++) {
            const om_army_rule *r = &reg->rules[i];
            char sets[CELL_MAX] = "";
            if (!rule_in(r, rs))
                continue;
            for (size_t k = 0; k < r->rulesets_count; k++)
                snprintf(sets + strlen(sets), sizeof sets - strlen(sets), "%s%s", k ? "," : "",
                         r->rulesets[k]);
            const char *yes_no = modelled(r->id) ? "yes" : "no";
            const char *dice = r->affects_dice ? "yes" : "no";
            ok = rs ? table_add(&t, (const char *[]){ r->id, r->name, yes_no, dice, r->summary })
                    : table_add(&t, (const char *[]){ r->id, r->name, yes_no, dice, sets,
                                                      r->summary });
        }
        if (ok) {
            printf("Special rules of the %s army lists: %zu, %zu modelled by the engine.\n",
                   rs ? rs->id : "Warmaster", n, n_modelled);
            printf("\"dice\": the rule changes engagement dice beyond the stat line.\n");
            table_print(&t, stdout, "  ");
            table_free(&t);
            t = (table){ .ncols = 4 };
            ok = table_add(&t, (const char *[]){ "id", "section", "effect", "traits" });
            for (size_t i = 0; ok && i < om_wm_special_count(); i++) {
                char traits[CELL_MAX];
                ok = table_add(&t, (const char *[]){ om_wm_special_at(i)->id,
                                                     om_wm_special_at(i)->section,
                                                     om_wm_special_at(i)->effect,
                                                     engine_traits(traits, om_wm_special_at(i),
                                                                   rs) });
            }
            if (ok) {
                printf("\nRules the engine models (a scenario's 'rules:' may name them):\n");
                table_print(&t, stdout, "  ");
            }
        }
        if (!ok) {
            st = OM_ERROR(OM_ENOMEM, "out of memory");
        }
        table_free(&t);
    }
    om_army_rules_free(reg);
    return st;
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

/* Game `game`'s keys as JSON: {"game", "title", "keys": [{"name", "where",
 * "type", "values", "default", "help"}]}. */
static json_t *keys_json(const om_game *game, const om_game_key *keys, size_t n)
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
    return json_pack("{s:s, s:s, s:o}", "game", game->identity.name, "title", game->identity.title, "keys", arr);
}

/* Game `game`'s keys as text: a heading with its title, then the keys by
 * level, two lines each. `first`: no blank line before the heading. */
static void keys_text(const om_game *game, const om_game_key *keys, size_t n, bool first)
{
    char value[CELL_MAX];
    printf("%sScenario keys of %s (docs/scenario-format.md explains each):\n", first ? "" : "\n",
           game->identity.title);
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || strcmp(keys[i].where, keys[i - 1].where) != 0)
            printf("\n  %s keys:\n", keys[i].where);
        printf("    %-16s %s (default: %s)\n", keys[i].name,
               key_value_text(&keys[i], value, sizeof value), keys[i].fallback);
        printf("    %-16s %s\n", "", keys[i].help);
    }
}

/* Every game's keys, from its table (its `keys` hook), in the order of
 * om_games; a game without keys is left out. */
static om_status list_keys(list_format fmt)
{
    json_t *games = json_array();
    bool first = true;

    for (size_t g = 0; g < om_game_count; g++) {
        const om_game *game = om_games[g];
        const size_t n = game->catalogue->keys(NULL, 0);
        om_game_key *keys;
        if (n == 0)
            continue;
        if (!(keys = calloc(n, sizeof *keys))) {
            json_decref(games);
            return OM_ERROR(OM_ENOMEM, "out of memory");
        }
        game->catalogue->keys(keys, n);
        if (fmt == LIST_JSON)
            json_array_append_new(games, keys_json(game, keys, n));
        else
            keys_text(game, keys, n, first);
        first = false;
        free(keys);
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

/* Print a game's listing: heading, each table under its title, footer. */
static om_status print_listing(const om_game *g, const char *ruleset, const char *what,
                               const om_game_listing *l, list_format fmt)
{
    if (fmt == LIST_JSON) {
        json_t *root = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o}", "schema", LIST_SCHEMA, "game",
                                 g->identity.name, "ruleset", ruleset, "what", json_opt(what),
                                 "heading", json_opt(l->heading), "footer",
                                 json_opt(l->footer));
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
        return print_json(root);
    }
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
        }
        table_free(&out);
        if (!ok)
            return OM_ERROR(OM_ENOMEM, "out of memory");
    }
    if (l->footer)
        printf("\n%s", l->footer);
    return OM_OK;
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

/* ---------------------------------------------------------------------------
 * Entry point.
 */

/* The arguments of `list`. */
typedef struct list_args {
    unsigned format; /* list_format */
    bool rules;      /* --rules */
    bool options;    /* --options */
    bool keys;       /* --keys */
} list_args;

/* In list_format order. */
static const char *const format_names[] = {"text", "json", NULL};

static const om_cli_option list_options_table[] = {
    {.name = "format", .letter = 'f', .value = OM_CLI_CHOICE, .offset = offsetof(list_args, format),
     .metavar = "FORMAT", .choices = format_names,
     .help = "text (default) or json (one object, schema\n\"" LIST_SCHEMA "\"; keys in the README)"},
    {.name = "rules", .letter = 'r', .value = OM_CLI_FLAG, .offset = offsetof(list_args, rules),
     .help = "list the special rules"},
    {.name = "options", .value = OM_CLI_FLAG, .offset = offsetof(list_args, options),
     .help = "list the options a scenario may set under\n'options:' and the readings fixed in the engine"},
    {.name = "keys", .letter = 'k', .value = OM_CLI_FLAG, .offset = offsetof(list_args, keys),
     .help = "list the keys of scenario files: where each goes,\nits values and its default"},
};

static const list_args list_defaults = {.format = LIST_TEXT};

/* Split RULESET[/ARMY[/UNIT]] and list what it names. */
static om_status list_what(const char *what, bool rules, list_format fmt)
{
    const om_army_ruleset *rs = NULL;
    char rs_name[128], army[128];
    const char *unit = NULL, *rest;
    size_t n1 = strcspn(what, "/"), n2;
    om_status st;

    rest = what[n1] ? what + n1 + 1 : NULL;
    n2 = rest ? strcspn(rest, "/") : 0;
    if (n1 >= sizeof rs_name || n2 >= sizeof army)
        return OM_ERROR(OM_ENOTFOUND, "no such name: '%s'", what);
    memcpy(rs_name, what, n1);
    rs_name[n1] = '\0';
    memcpy(army, rest ? rest : "", n2);
    army[n2] = '\0';
    unit = rest && rest[n2] ? rest + n2 + 1 : NULL;
    /* A game that lists its own data: everything after RULESET/ is its own. */
    const om_game *g = om_game_for_ruleset(rs_name);
    if (g != NULL && g->catalogue->list != NULL)
        return list_game(g, rs_name, rest, rules, fmt);
    if ((st = find_ruleset(rs_name, &rs)))
        return st;
    if (rules)
        return list_rules(rs, fmt);
    if (!army[0] && !unit)
        return list_armies(rs, fmt);
    if (!unit)
        return list_army(rs, army, fmt);
    if (unit[0] == '\0' || strchr(unit, '/'))
        return OM_ERROR(OM_ENOTFOUND, "expected RULESET/ARMY/UNIT, got '%s'", what);
    return list_unit(rs, army, unit, fmt);
}

static int list_run(const om_cli_args *args)
{
    const list_args *a = args->values;
    const char *what = args->n_operands ? args->operands[0] : NULL;
    list_format fmt = (list_format)a->format;
    om_status st;

    if (a->keys && (a->rules || a->options || what))
        return om_cli_usage_error(CMD, "--keys takes no name, --rules or --options");
    if (a->keys)
        return list_keys(fmt) == OM_OK ? OM_EXIT_OK : om_cli_fail(CMD, OM_EINVAL);
    if (a->options && (a->rules || what))
        return om_cli_usage_error(CMD, "--options takes no %s (it lists every game's)",
                                  a->rules ? "--rules" : "name");
    if (a->rules && what && strchr(what, '/'))
        return om_cli_usage_error(CMD, "--rules takes a rule set, not '%s'", what);
    if (a->options)
        st = list_options(fmt);
    else if (!what)
        st = a->rules ? list_rules(NULL, fmt) : list_rulesets(fmt);
    else
        st = list_what(what, a->rules, fmt);
    return st == OM_OK ? OM_EXIT_OK : om_cli_fail(CMD, st);
}

const om_cli_command om_cli_list = {
    .name = "list",
    .summary = "show the army lists and game data: rule sets, armies, units, rules",
    .usage = "oddsmaster list [RULESET[/ARMY[/UNIT]]] [--format text|json]\n"
             "oddsmaster list whfb7[/LIST[/ID]] [--format text|json]\n"
             "oddsmaster list --rules [RULESET] [--format text|json]\n"
             "oddsmaster list --options [--format text|json]\n"
             "oddsmaster list --keys [--format text|json]",
    .about =
        "Show the army lists compiled into oddsmaster, so that scenarios can name units\n"
        "with 'from: ARMY/UNIT' (README \"Army data\"), the special rules the engine\n"
        "models, and the options a scenario may set under 'options:'.\n\n"
        "  oddsmaster list                        rule sets and their number of armies\n"
        "  oddsmaster list RULESET                armies: id, name, units, list version,\n"
        "                                         source\n"
        "  oddsmaster list RULESET/ARMY           units and upgrades: id, name, type,\n"
        "                                         Attacks (/shots), range, Hits, Armour,\n"
        "                                         Command, size, points, min/max, rules\n"
        "  oddsmaster list RULESET/ARMY/UNIT      one unit with its notes and rules\n"
        "  oddsmaster list --rules [RULESET]      special rules: modelled by the engine\n"
        "                                         or not, whether they change engagement\n"
        "                                         dice, summary\n"
        "  oddsmaster list --options              interpretations of ambiguous rules of\n"
        "                                         every game: name, ambiguity id,\n"
        "                                         rulebook section, question, default\n"
        "                                         (recommended) and other reading,\n"
        "                                         switch or fixed\n"
        "  oddsmaster list --keys                 the keys of every game's scenario\n"
        "                                         files, under its title: level,\n"
        "                                         values, default, one line each\n"
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
        "  oddsmaster list --options",
    .exits =
        "  2  unknown rule set, army or unit\n"
        "  4  internal error\n",
    .options = list_options_table,
    .n_options = sizeof list_options_table / sizeof list_options_table[0],
    .values_size = sizeof(list_args),
    .defaults = &list_defaults,
    .min_operands = 0,
    .max_operands = 1,
    .operands = "a name",
    .run = list_run,
};
