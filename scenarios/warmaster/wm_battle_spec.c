/*
 * wm_battle_spec.c: a Warmaster battle asked for on the command line
 * (`oddsmaster battle LIST_A LIST_B ...`, game.h's battles group version 2)
 * turned into the text of the scenario file of kind battle that means the
 * same battle (wm_battle.c loads it), so that `battle` and `run` of that file
 * are one computation. Everything the command line names is checked here
 * first, with the word the user typed for it (LIST_A, --doctrine-b, ...) in
 * the message, and a list file with its own file, line and field: the text
 * is built only from names known to load. And what such a battle leaves
 * out: each unit's special rules the engine does not model and the magic
 * items it gives no effect (a character's among them), named on screen and in
 * the result file.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "army.h"
#include "battle.h"
#include "objective.h"
#include "doctrine.h"
#include "game.h"
#include "suggest.h"
#include "wm_armylist.h"
#include "wm_battle.h"
#include "wm_doctrine.h"
#include "wm_game_int.h"
#include "wm_scenario.h"
#include "wm_spells.h"
#include "yaml_int.h"

/* The example lists, compiled in (scenarios/meson.build). */
extern const om_army_file om_wm_list_embedded[];
extern const size_t om_wm_list_embedded_count;

/* Most names a "did you mean" or "one of" weighs: the doctrines, the length
 * methods and the sides are a few each. */
#define NAMES_MAX 32

/* Longest line naming what a unit's battle does not model. */
#define OM_WM_UNMODELLED_LINE_MAX 512

/* Most example lists an unknown example's suggestion weighs. */
#define EXAMPLES_MAX 128

/* The word a battle's length method without a D6 table or a rolled end has
 * (a fixed count of turns, `turns`). */
static bool length_is_fixed(const om_wm_game_length *l)
{
    return l->by_d6[0] == 0 && l->last == 0;
}

/* `value`, the user's word `word` for a `what`, must be one of names[0..n):
 * its index into *out. */
static om_status choose(const char *word, const char *what, const char *value,
                        const char *const *names, size_t n, size_t *out)
{
    char known[OM_YAML_REASON_MAX / 2];
    const char *best;
    for (size_t i = 0; i < n; i++)
        if (strcmp(value, names[i]) == 0) {
            *out = i;
            return OM_OK;
        }
    best = om_suggest(value, names, n);
    om_yaml_join_names(known, sizeof known, names, n);
    return OM_ERROR(OM_ENOTFOUND, "%s: unknown %s '%s'; %s%s%sexpected one of: %s", word, what,
                    value, best ? "did you mean '" : "", best ? best : "", best ? "'? " : "",
                    known);
}

/* Whether a list named on the command line is a file (a path with a folder,
 * or a name ending in .yaml or .yml) rather than an example's name. */
static bool is_file(const char *name)
{
    const size_t n = strlen(name);
    return strchr(name, '/') != NULL || (n > 5 && strcmp(name + n - 5, ".yaml") == 0) ||
           (n > 4 && strcmp(name + n - 4, ".yml") == 0);
}

/* `path` made absolute against the working folder (malloc'd), or NULL. */
static char *absolute(const char *path)
{
    char cwd[PATH_MAX];
    char *out;
    if (path[0] == '/')
        return strdup(path);
    if (getcwd(cwd, sizeof cwd) == NULL)
        return NULL;
    if ((out = malloc(strlen(cwd) + strlen(path) + 2)) != NULL)
        sprintf(out, "%s/%s", cwd, path);
    return out;
}

/* Side s's list: checked against its army's rules into *list, and the
 * reference the scenario text gives it into *ref (the example's name, or
 * the file's absolute path; malloc'd). */
static om_status check_list(const om_game_battle_spec *spec, unsigned s, char **ref,
                            om_wm_armylist **list)
{
    const char *name = spec->list[s], *word = spec->list_word[s];
    char *text = NULL;
    size_t len = 0;
    om_status st;

    if (!is_file(name)) {
        const char *names[EXAMPLES_MAX];
        size_t n = 0;
        for (size_t i = 0; i < om_wm_list_embedded_count; i++) {
            const om_army_file *f = &om_wm_list_embedded[i];
            if (strcmp(f->stem, name) == 0) {
                if ((*ref = strdup(f->stem)) == NULL)
                    return OM_ERROR(OM_ENOMEM, "out of memory");
                return om_wm_armylist_parse(f->stem, f->text, f->len, list);
            }
            if (n < sizeof names / sizeof names[0])
                names[n++] = f->stem;
        }
        return choose(word, "example list", name, names, n, &(size_t){0});
    }
    if ((st = om_yaml_read_file(name, &text, &len)) != OM_OK)
        return OM_ERROR(st, "%s: cannot read the list file %s: %s", word, name,
                        om_error_message());
    if ((*ref = absolute(name)) == NULL) {
        free(text);
        return OM_ERROR(OM_EIO, "%s: cannot tell the folder the list file %s is in", word, name);
    }
    st = om_wm_armylist_parse(name, text, len, list);
    free(text);
    return st;
}

/* Text appended to a growing buffer; *ok false once memory ran out. */
typedef struct text_buf {
    char *s;
    size_t len, cap;
    bool ok;
} text_buf;

static void put(text_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void put(text_buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (!b->ok)
        return;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || b->len + (size_t)n + 1 > b->cap) {
        size_t cap = (b->cap + (n > 0 ? (size_t)n : 0) + 1) * 2;
        char *s = n < 0 ? NULL : realloc(b->s, cap);
        if (s == NULL) {
            b->ok = false;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* `value` as a YAML double-quoted scalar: any path or title reads back as
 * it is. */
static void put_quoted(text_buf *b, const char *value)
{
    put(b, "\"");
    for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
        if (*p == '"' || *p == '\\')
            put(b, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            put(b, "\\x%02x", *p);
        else
            put(b, "%c", *p);
    }
    put(b, "\"");
}

om_status om_wm_battle_text(const om_game_battle_spec *spec, char **text)
{
    static const char *const first_names[] = {"roll", "a", "b"};
    const char *lengths[NAMES_MAX], *doctrines[NAMES_MAX];
    const size_t n_lengths = om_wm_game_length_count < NAMES_MAX ? om_wm_game_length_count
                                                                  : NAMES_MAX;
    const size_t n_doctrines = om_wm_doctrine_named_count() < NAMES_MAX
                                   ? om_wm_doctrine_named_count() : NAMES_MAX;
    char *ref[2] = {NULL, NULL}, *doctrine[2] = {NULL, NULL};
    om_wm_armylist *list[2] = {NULL, NULL};
    const char *length = spec->length;
    text_buf b = {.ok = true};
    size_t v;
    om_status st = OM_OK;

    *text = NULL;
    for (size_t i = 0; i < n_lengths; i++)
        lengths[i] = om_wm_game_lengths[i].name;
    for (size_t i = 0; i < n_doctrines; i++)
        doctrines[i] = om_wm_doctrine_named_at(i);
    for (unsigned s = 0; s < 2 && st == OM_OK; s++)
        st = check_list(spec, s, &ref[s], &list[s]);
    if (st == OM_OK && strcmp(list[0]->ruleset, list[1]->ruleset) != 0)
        st = OM_ERROR(OM_EINVAL, "%s: %s is a list of %s, and %s of %s: a battle is fought "
                      "under one rule set", spec->list_word[1], spec->list[1], list[1]->ruleset,
                      spec->list[0], list[0]->ruleset);
    /* A doctrine is a named one, or a doctrine file (a path, or a name ending
     * in .yaml) written by its absolute path, as a list file is. */
    for (unsigned s = 0; s < 2 && st == OM_OK; s++) {
        if (spec->doctrine[s] == NULL)
            continue;
        if (!is_file(spec->doctrine[s]))
            st = choose(spec->doctrine_word[s], "doctrine", spec->doctrine[s], doctrines,
                        n_doctrines, &v);
        else if (access(spec->doctrine[s], R_OK) != 0)
            st = OM_ERROR(OM_EIO, "%s: cannot read the doctrine file %s: %s",
                          spec->doctrine_word[s], spec->doctrine[s], strerror(errno));
        else if ((doctrine[s] = absolute(spec->doctrine[s])) == NULL)
            st = OM_ERROR(OM_EIO, "%s: cannot tell the folder the doctrine file %s is in",
                          spec->doctrine_word[s], spec->doctrine[s]);
    }
    /* A count of turns alone asks for a battle of that many turns. */
    if (length == NULL && spec->turns > 0)
        for (size_t i = 0; i < n_lengths; i++)
            if (length_is_fixed(&om_wm_game_lengths[i]))
                length = lengths[i];
    if (st == OM_OK && length != NULL &&
        (st = choose("--length", "length method", length, lengths, n_lengths, &v)) == OM_OK) {
        const bool fixed = length_is_fixed(&om_wm_game_lengths[v]);
        if (fixed && spec->turns == 0)
            st = OM_ERROR(OM_EINVAL, "--length %s: a fixed length needs --turns N, 1 to %u",
                          length, OM_WM_BATTLE_TURNS_MAX);
        else if (!fixed && spec->turns > 0)
            st = OM_ERROR(OM_EINVAL, "--turns goes with --length fixed; %s decides the turns "
                          "itself", length);
    }
    if (st == OM_OK && spec->turns > OM_WM_BATTLE_TURNS_MAX)
        st = OM_ERROR(OM_EINVAL, "--turns %u: a battle lasts 1 to %u turns", spec->turns,
                      OM_WM_BATTLE_TURNS_MAX);
    if (st == OM_OK && spec->first != NULL)
        st = choose("--first", "first side", spec->first, first_names, 3, &v);
    /* The terrain from the command line is generated, never given: a file
     * gives pieces. */
    if (st == OM_OK && spec->terrain != NULL) {
        const char *methods[OM_WM_TERRAIN_METHOD_COUNT];
        size_t n_methods = 0;
        for (size_t i = 0; i < OM_WM_TERRAIN_METHOD_COUNT; i++)
            if (i != OM_WM_TERRAIN_GIVEN)
                methods[n_methods++] = om_wm_terrain_method_names[i];
        st = choose("--terrain", "terrain method", spec->terrain, methods, n_methods, &v);
    }
    if (st == OM_OK && spec->deployment != NULL)
        st = choose("--deployment", "deployment method", spec->deployment,
                    om_wm_deployment_names, OM_WM_DEPLOY_COUNT, &v);
    if (st == OM_OK && spec->scenario != NULL) {
        for (size_t i = 0; om_wm_scenario_unmodelled[i] != NULL && st == OM_OK; i++)
            if (strcmp(spec->scenario, om_wm_scenario_unmodelled[i]) == 0)
                st = OM_ERROR(OM_EINVAL, "--scenario %s: not modelled yet; modelled: "
                              "take-and-hold, battle-for-the-tower", spec->scenario);
        if (st == OM_OK)
            st = choose("--scenario", "scenario", spec->scenario, om_wm_scenario_names,
                        OM_WM_SCENARIO_COUNT, &v);
    }
    if (st == OM_OK && spec->scenario_version != NULL) {
        if (spec->scenario == NULL)
            st = OM_ERROR(OM_EINVAL, "--scenario-version goes with --scenario");
        else
            st = choose("--scenario-version", "scenario version", spec->scenario_version,
                        om_wm_scenario_version_names, OM_WM_SCENARIO_VERSION_COUNT, &v);
    }
    if (st == OM_OK) {
        put(&b, "schema: %s\nkind: battle\n", OM_SCENARIO_SCHEMA);
        if (spec->title != NULL) {
            put(&b, "title: ");
            put_quoted(&b, spec->title);
            put(&b, "\n");
        }
        for (unsigned s = 0; s < 2; s++) {
            put(&b, "%c: {list: ", s == 0 ? 'a' : 'b');
            put_quoted(&b, ref[s]);
            if (doctrine[s] != NULL) {
                put(&b, ", doctrine: ");
                put_quoted(&b, doctrine[s]);
            } else if (spec->doctrine[s] != NULL) {
                put(&b, ", doctrine: %s", spec->doctrine[s]);
            }
            put(&b, "}\n");
        }
        if (length != NULL)
            put(&b, "length: %s\n", length);
        if (spec->turns > 0)
            put(&b, "turns: %u\n", spec->turns);
        if (spec->first != NULL)
            put(&b, "first: %s\n", spec->first);
        if (spec->zones != NULL)
            put(&b, "zones: %s\n", spec->zones);
        if (spec->terrain != NULL)
            put(&b, "terrain_method: %s\n", spec->terrain);
        if (spec->deployment != NULL)
            put(&b, "deployment: %s\n", spec->deployment);
        if (spec->scenario != NULL)
            put(&b, "scenario: %s\n", spec->scenario);
        if (spec->scenario_version != NULL)
            put(&b, "scenario_version: %s\n", spec->scenario_version);
        if (!b.ok || b.s == NULL)
            st = OM_ERROR(OM_ENOMEM, "out of memory for a battle's scenario");
    }
    for (unsigned s = 0; s < 2; s++) {
        om_wm_armylist_free(list[s]);
        free(ref[s]);
        free(doctrine[s]);
    }
    if (st != OM_OK) {
        free(b.s);
        return st;
    }
    *text = b.s;
    return OM_OK;
}

/* ---- What a battle does not model ---- */

/* Add `rule` to the JSON array of unit `id` in `by_unit` and to the line
 * under way in `line` (cap bytes). */
static void note_rule(json_t *by_unit, const char *id, const char *rule, char *line, size_t cap)
{
    json_t *rules = json_object_get(by_unit, id);
    size_t at = strlen(line);
    if (rules == NULL) {
        rules = json_array();
        json_object_set_new(by_unit, id, rules);
    }
    json_array_append_new(rules, json_string(rule));
    snprintf(line + at, cap - at, "%s%s", at > 0 ? ", " : "", rule);
}

/* Append "WHO: not modelled: LINE\n" to the text *w (len *n) and to the
 * JSON array `lines`, if LINE holds anything. */
static om_status put_line(const char *who, const char *line, json_t *lines, char **w, size_t *n)
{
    char buf[OM_WM_UNMODELLED_LINE_MAX];
    size_t add;
    char *grown;
    if (line[0] == '\0')
        return OM_OK;
    snprintf(buf, sizeof buf, "%s: not modelled: %s", who, line);
    json_array_append_new(lines, json_string(buf));
    add = strlen(buf) + 1;
    if ((grown = realloc(*w, *n + add + 1)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory");
    snprintf(grown + *n, add + 1, "%s\n", buf);
    *w = grown;
    *n += add;
    return OM_OK;
}

om_status om_wm_battle_unmodelled(const om_wm_battle_scenario *b, char **warnings,
                                  char **provenance_json)
{
    const om_wm_table *t = &b->turn.table;
    json_t *root = json_loads(*provenance_json, 0, NULL);
    json_t *by_unit = json_object(), *lines = json_array();
    char *text = NULL, *dumped;
    size_t len = 0;
    om_status st = OM_OK;

    *warnings = NULL;
    if (root == NULL || by_unit == NULL || lines == NULL) {
        json_decref(root);
        json_decref(by_unit);
        json_decref(lines);
        return OM_ERROR(OM_ENOMEM, "out of memory for a battle's record");
    }
    for (unsigned s = 0; s < 2 && st == OM_OK; s++) {
        const om_wm_armylist *l = b->list[s];
        size_t i = 0;
        for (unsigned u = 0; u < t->units && st == OM_OK; u++) {
            const om_wm_armylist_unit *lu;
            char line[OM_WM_UNMODELLED_LINE_MAX] = "", who[OM_WM_UNMODELLED_LINE_MAX / 2];
            if (t->unit[u].side != s || i >= l->n_units)
                continue;
            lu = &l->units[i++];
            /* The engine's own list of the unit's rules it does not model,
             * comma-separated (om_wm_unit_add_unmodelled). */
            for (const char *r = b->turn.unit[u].side.unit.unmodelled; *r;) {
                size_t k = strcspn(r, ",");
                char rule[OM_WM_ARMYLIST_ID_MAX];
                snprintf(rule, sizeof rule, "%.*s", (int)k, r);
                if (!om_wm_battle_unit_rule_played(rule))
                    note_rule(by_unit, b->id[u], rule, line, sizeof line);
                r += k;
                r += strspn(r, ", ");
            }
            if (lu->item[0] != '\0' && lu->magic == OM_WM_MAGIC_NONE)
                note_rule(by_unit, b->id[u], lu->item, line, sizeof line);
            snprintf(who, sizeof who, "%s (%s)", t->unit[u].name, b->id[u]);
            st = put_line(who, line, lines, &text, &len);
        }
        /* A character's magic item and special rules (its own, its
         * mount's, its upgrades') but those a battle plays
         * (om_wm_battle_character_rule_played): the battle gives a character
         * its Command, the unit it joins (its fate the unit's), the
         * Attacks it adds to that unit in combat (wm_battle.c) and a
         * Wizard's casting devices and a General's devices of power
         * (om_wm_spells_character_item_played), not its other items. */
        for (size_t k = 0; k < l->n_characters && st == OM_OK; k++) {
            const om_wm_armylist_character *ch = &l->characters[k];
            char line[OM_WM_UNMODELLED_LINE_MAX] = "", who[OM_WM_UNMODELLED_LINE_MAX / 2];
            char id[OM_WM_ARMYLIST_ID_MAX + 16];
            unsigned same = 0, nth = 0;
            /* Numbered as units are when the list has several of it
             * ("a_hero_2"). */
            for (size_t j = 0; j < l->n_characters; j++) {
                same += strcmp(l->characters[j].id, ch->id) == 0;
                nth += j < k && strcmp(l->characters[j].id, ch->id) == 0;
            }
            if (same > 1)
                snprintf(id, sizeof id, "%s_%s_%u", s == 0 ? "a" : "b", ch->id, nth + 1);
            else
                snprintf(id, sizeof id, "%s_%s", s == 0 ? "a" : "b", ch->id);
            /* The Wizards' devices (magic.h) and the Generals' (regalia.h)
             * are played, the other items not. */
            if (ch->item[0] != '\0' && !om_wm_spells_character_item_played(ch->item))
                note_rule(by_unit, id, ch->item, line, sizeof line);
            for (unsigned r = 0; r < ch->n_rules; r++)
                if (!om_wm_battle_character_rule_played(ch->rules[r]))
                    note_rule(by_unit, id, ch->rules[r], line, sizeof line);
            snprintf(who, sizeof who, "%s (%s)", ch->name, id);
            st = put_line(who, line, lines, &text, &len);
        }
    }
    json_object_set_new(root, "not_modelled", by_unit);
    json_object_set_new(root, "warnings", lines);
    dumped = st == OM_OK ? json_dumps(root, JSON_COMPACT) : NULL;
    json_decref(root);
    if (st == OM_OK && dumped == NULL)
        st = OM_ERROR(OM_ENOMEM, "out of memory for a battle's record");
    if (st != OM_OK) {
        free(text);
        return st;
    }
    free(*provenance_json);
    *provenance_json = dumped;
    *warnings = text;
    return OM_OK;
}
