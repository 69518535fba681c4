/*
 * wm_listing.c: what `oddsmaster list` shows of the Warmaster family (the
 * catalogue's `list`, game.h): the rule sets with army lists (its part of
 * `oddsmaster list`), the armies of a rule set, an army's units and upgrades
 * with values, points and rules (* = not modelled), one entry in full with
 * its rules explained, and the special rules, modelled by the engine or not
 * (`list --rules [RULESET]`), and the doctrines a side may play in a battle
 * (`list --doctrines [FILE]`: the named ones compiled in, or a doctrine file).
 * Each listing holds its text as tables and, for
 * JSON, the members docs/manual.md ("Army data") documents (an army's units carry lists
 * of rules, which tables of text cells cannot).
 *
 * A rule is "modelled" when the engine's registry (om_wm_special_find) has it;
 * that registry, not the data file's `engine:` field, is the truth here (the
 * tests check that the two agree). Unknown names are OM_ENOTFOUND errors with
 * a suggestion.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "army.h"
#include "game.h"
#include "suggest.h"
#include "wm.h"
#include "wm_doctrine.h"
#include "wm_game_int.h"
#include "wm_spells.h"

/* Longest cell text kept; longer text is truncated. */
#define CELL_MAX 512

/* Longest rule set and army name of `oddsmaster list RULESET/ARMY`. */
#define NAME_MAX_LEN 128

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

/* Text written with fprintf, for a heading or a note: open, write to `f`,
 * close. */
typedef struct text {
    FILE *f;   /* the stream (NULL: it could not be opened) */
    char *buf; /* its text, once closed */
    size_t len;
} text;

static void text_open(text *t)
{
    t->buf = NULL;
    t->len = 0;
    t->f = open_memstream(&t->buf, &t->len);
}

/* The text written (malloc, the caller's), or NULL when memory ran out. */
static char *text_close(text *t)
{
    if (t->f == NULL || fclose(t->f) != 0) {
        free(t->buf);
        return NULL;
    }
    return t->buf;
}

/* The listing of one heading (NULL: none), made into *out. */
static om_status listing_of(text *heading, om_game_listing **out)
{
    char *h = NULL;
    om_status st;
    if (heading != NULL && (h = text_close(heading)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory");
    st = om_game_listing_alloc(h, out);
    free(h);
    return st;
}

/* Set the note of t to the text written (closing it). */
static om_status note_of(om_game_table *t, text *note)
{
    char *n = text_close(note);
    om_status st;
    if (n == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory");
    st = om_game_table_note(t, n);
    free(n);
    return st;
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
        best = om_suggest(name, ids, n < OM_WM_RULES_COUNT ? n : OM_WM_RULES_COUNT);
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
 * Its part of `oddsmaster list`: the rule sets with army lists.
 */

static om_status list_rulesets(om_game_listing *l)
{
    static const char *const cols[] = {"rule set", "title", "armies"};
    static const om_game_cell_type types[] = {OM_GAME_CELL_TEXT, OM_GAME_CELL_TEXT,
                                              OM_GAME_CELL_INT};
    om_army_rules *reg = NULL;
    om_game_table *t = NULL;
    json_t *rs = json_array();
    size_t n_modelled = 0;
    char b[CELL_MAX];
    text note;
    om_status st;

    if ((st = om_army_rules_load(&reg))) {
        json_decref(rs);
        return st;
    }
    for (size_t i = 0; i < reg->count; i++)
        n_modelled += modelled(reg->rules[i].id);
    st = om_game_listing_table(l, "rulesets", "Rule sets with army lists (oddsmaster list "
                               "RULESET lists the armies):", 3, cols, types, &t);
    for (size_t i = 0; st == OM_OK && i < om_army_ruleset_count(); i++) {
        const om_army_ruleset *r = om_army_ruleset_at(i);
        json_array_append_new(rs, json_pack("{s:s, s:s, s:s, s:I}", "id", r->id, "title",
                                            ruleset_title(r), "directory", r->dir, "armies",
                                            (json_int_t)om_army_count(r)));
        st = om_game_table_row(t, (const char *[]){r->id, ruleset_title(r),
                                                   cell(b, "%zu", om_army_count(r))});
    }
    if (st == OM_OK) {
        text_open(&note);
        if (note.f)
            fprintf(note.f, "\nSpecial rules: %zu named by the lists, %zu modelled by the engine "
                    "(oddsmaster list --rules).\n", reg->count, n_modelled);
        st = note_of(t, &note);
    }
    if (st == OM_OK)
        st = om_game_listing_json(l, json_pack("{s:o, s:{s:I, s:I}}", "rulesets", rs,
                                               "special_rules", "count", (json_int_t)reg->count,
                                               "implemented", (json_int_t)n_modelled));
    else
        json_decref(rs);
    om_army_rules_free(reg);
    return st;
}

/* ---------------------------------------------------------------------------
 * oddsmaster list RULESET
 */

static om_status list_armies(const om_army_ruleset *rs, om_game_listing *l)
{
    static const char *const cols[] = {"army", "name", "units", "upgrades", "list version",
                                       "source"};
    const size_t n = om_army_count(rs);
    json_t *arr = json_array();
    om_game_table *t = NULL;
    char b[2][CELL_MAX], title[CELL_MAX];
    om_status st;

    snprintf(title, sizeof title, "%s (%s): %zu armies (oddsmaster list %s/ARMY lists the units)",
             ruleset_title(rs), rs->id, n, rs->id);
    st = om_game_listing_table(l, "armies", title, 6, cols, NULL, &t);
    for (size_t i = 0; st == OM_OK && i < n; i++) {
        om_army *a = NULL;
        if ((st = om_army_load(rs->id, om_army_file_of(rs, i)->stem, &a)))
            break;
        json_array_append_new(
            arr, json_pack("{s:s, s:s, s:I, s:I, s:I, s:s, s:s, s:s, s:s}", "id", a->id, "name",
                           a->name, "units", (json_int_t)a->units_count, "upgrades",
                           (json_int_t)a->upgrades_count, "spells", (json_int_t)a->spells_count,
                           "list_version", a->list_version, "source_label", a->source_label,
                           "source", a->origin, "magic_items", a->magic_items));
        st = om_game_table_row(t, (const char *[]){a->id, a->name,
                                                   cell(b[0], "%zu", a->units_count),
                                                   cell(b[1], "%zu", a->upgrades_count),
                                                   a->list_version, a->origin});
        om_army_free(a);
    }
    if (st != OM_OK) {
        json_decref(arr);
        return st;
    }
    return om_game_listing_json(l, json_pack("{s:s, s:s, s:o}", "ruleset", rs->id, "title",
                                             ruleset_title(rs), "armies", arr));
}

/* ---------------------------------------------------------------------------
 * oddsmaster list RULESET/ARMY and RULESET/ARMY/UNIT
 */

/* One army entry as JSON (keys in docs/manual.md, "Army data"). */
static json_t *unit_json(const om_army_unit *u)
{
    json_t *o = json_object(), *not_modelled = json_array();
    for (size_t i = 0; not_modelled && i < u->rules_count; i++)
        if (!modelled(u->rules[i]))
            json_array_append_new(not_modelled, json_string(u->rules[i]));
    if (!o) {
        json_decref(not_modelled);
        return NULL;
    }
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
    json_object_set_new(o, "army_min", json_integer(u->army_min));
    json_object_set_new(o, "army_max", json_integer(u->army_max));
    json_object_set_new(o, "upgrades", json_strings(u->upgrades, u->upgrades_count));
    json_object_set_new(o, "rules", json_strings(u->rules, u->rules_count));
    json_object_set_new(o, "not_modelled", not_modelled);
    json_object_set_new(o, "notes", json_opt(u->notes));
    return o;
}

/* The columns of an army's units and upgrades. */
static const char *const entry_columns[] = {"id", "name", "type", "attacks", "range", "hits",
                                            "armour", "cmd", "size", "points", "min/max",
                                            "rules"};
#define ENTRY_COLUMNS (sizeof entry_columns / sizeof entry_columns[0])

/* The min/max cell of u: "2/-" per 1,000 points, or "1/1 army" when the
 * limits are the whole army's (army_min, army_max), which replace them. */
static const char *minmax_text(char *out, char *lo, char *hi, const om_army_unit *u)
{
    if (u->army_min || u->army_max)
        return cell(out, "%s/%s army", num_or_dash(lo, u->army_min), num_or_dash(hi, u->army_max));
    return cell(out, "%s/%s", num_or_dash(lo, u->min), num_or_dash(hi, u->max));
}

/* A table of the entries units[0..n) of an army. */
static om_status entries_table(om_game_listing *l, const char *key, const char *title,
                               const om_army_unit *units, size_t n, om_game_table **out)
{
    /* One buffer per formatted cell: the row's cells are all built before
     * om_game_table_row copies them. */
    char b[10][CELL_MAX];
    om_status st = om_game_listing_table(l, key, title, ENTRY_COLUMNS, entry_columns, NULL, out);
    for (size_t i = 0; st == OM_OK && i < n; i++) {
        const om_army_unit *u = &units[i];
        st = om_game_table_row(*out, (const char *[]){
            u->id, u->name, om_army_type_name(u->type), attacks_text(b[0], u),
            u->range_cm ? cell(b[1], "%ucm", u->range_cm) : "-", num_or_dash(b[2], u->hits),
            u->armour, num_or_dash(b[3], u->command), num_or_dash(b[4], u->size),
            u->is_upgrade ? cell(b[5], "%+d", u->points) : cell(b[5], "%d", u->points),
            minmax_text(b[6], b[7], b[8], u), rules_text(b[9], u)});
    }
    return st;
}

/* How the engine casts a spell of row r: its mechanism's name, or "not
 * modelled" (also without a row). */
static const char *spell_engine(const om_wm_spell_rule *r)
{
    return r != NULL && r->effect != OM_WM_SPELL_NOT_MODELLED
               ? om_wm_spell_effect_names[r->effect] : "not modelled";
}

/* The text of an army: its heading, its units and upgrades, and under them
 * its spells, the mark of rules not modelled and how to use it. */
static om_status army_text(const om_army *a, om_game_listing **out)
{
    om_game_table *t = NULL;
    bool any_unmodelled = false;
    text heading, note;
    om_status st;

    text_open(&heading);
    if (heading.f) {
        fprintf(heading.f, "%s (%s/%s), list version %s (%s)\n", a->name, a->ruleset, a->id,
                a->list_version, a->source_label);
        fprintf(heading.f, "Source: %s\n", a->origin);
    }
    if ((st = listing_of(&heading, out)) != OM_OK)
        return st;
    st = entries_table(*out, "units", "Units (per unit; min/max per 1000 points):", a->units,
                       a->units_count, &t);
    if (st == OM_OK && a->upgrades_count)
        st = entries_table(*out, "upgrades", "Upgrades (points are added to the unit or "
                           "character; attacks of characters and mounts are bonuses):",
                           a->upgrades, a->upgrades_count, &t);
    if (st != OM_OK)
        return st;
    for (size_t i = 0; i < a->units_count + a->upgrades_count; i++) {
        const om_army_unit *u = i < a->units_count ? &a->units[i]
                                                   : &a->upgrades[i - a->units_count];
        for (size_t k = 0; k < u->rules_count; k++)
            any_unmodelled |= !modelled(u->rules[k]);
    }
    text_open(&note);
    if (note.f && a->spells_count) {
        /* Each spell with how the engine casts it (wm_spells.h): its
         * mechanism, or "not modelled", and the sentence saying what is left
         * out or why. */
        fprintf(note.f, "\nSpells (casting value, range; how the engine casts it):\n");
        for (size_t i = 0; i < a->spells_count; i++) {
            const om_wm_spell_rule *r = om_wm_spell_rule_find(a->ruleset, a->id,
                                                              a->spells[i].id);
            char range[16] = "no range";
            if (a->spells[i].range_cm)
                snprintf(range, sizeof range, "%ucm", a->spells[i].range_cm);
            fprintf(note.f, "  %s (%u+, %s): %s. %s\n", a->spells[i].name, a->spells[i].roll,
                    range, spell_engine(r),
                    r != NULL ? r->model : "no row in the table of spell effects");
        }
    }
    if (note.f && any_unmodelled)
        fprintf(note.f, "\n* not modelled by the engine yet (oddsmaster list --rules %s).\n",
                a->ruleset);
    if (note.f)
        fprintf(note.f, "Use in a scenario: 'from: %s/%s' (oddsmaster list %s/%s/UNIT for "
                "details).\n", a->id, a->units_count ? a->units[0].id : "UNIT", a->ruleset,
                a->id);
    return note_of(t, &note);
}

/* The JSON members of an army. */
static json_t *army_json(const om_army *a)
{
    json_t *root = json_object(), *units = json_array(), *ups = json_array(),
           *spells = json_array();
    for (size_t i = 0; i < a->units_count; i++)
        json_array_append_new(units, unit_json(&a->units[i]));
    for (size_t i = 0; i < a->upgrades_count; i++)
        json_array_append_new(ups, unit_json(&a->upgrades[i]));
    for (size_t i = 0; i < a->spells_count; i++)
    {
        const om_wm_spell_rule *r = om_wm_spell_rule_find(a->ruleset, a->id, a->spells[i].id);
        json_array_append_new(spells, json_pack("{s:s, s:s, s:I, s:I, s:s, s:s}", "id",
                                                a->spells[i].id, "name", a->spells[i].name,
                                                "roll", (json_int_t)a->spells[i].roll,
                                                "range_cm", (json_int_t)a->spells[i].range_cm,
                                                "engine", spell_engine(r), "model",
                                                r != NULL ? r->model : ""));
    }
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
    return root;
}

static om_status list_army(const om_army_ruleset *rs, const char *army, om_game_listing **out)
{
    om_army *a = NULL;
    om_status st;

    if ((st = om_army_load(rs->id, army, &a)))
        return st;
    if ((st = army_text(a, out)) == OM_OK)
        st = om_game_listing_json(*out, army_json(a));
    om_army_free(a);
    return st;
}

/* The text of one entry of an army, with its rules explained. */
static void unit_text(FILE *f, const om_army *a, const om_army_unit *u, const om_army_rules *reg)
{
    char b[8][CELL_MAX];
    fprintf(f, "%s/%s/%s: %s (%s%s%s%s)\n", a->ruleset, a->id, u->id, u->name,
            om_army_type_name(u->type), u->source_type ? ", printed \"" : "",
            u->source_type ? u->source_type : "", u->source_type ? "\"" : "");
    fprintf(f, "  attacks %s, range %s, hits %s, armour %s (save used: %s), command %s\n",
            attacks_text(b[0], u), u->range_cm ? cell(b[1], "%ucm", u->range_cm) : "-",
            num_or_dash(b[2], u->hits), u->armour,
            u->save ? cell(b[3], "%u+", u->save) : "none", num_or_dash(b[4], u->command));
    if (u->army_min || u->army_max)
        fprintf(f, "  size %s, points %s%d, min %s, max %s (per army, whatever its size)\n",
                num_or_dash(b[5], u->size), u->is_upgrade && u->points >= 0 ? "+" : "",
                u->points, num_or_dash(b[6], u->army_min), num_or_dash(b[7], u->army_max));
    else
        fprintf(f, "  size %s, points %s%d, min %s, max %s (per 1000 points)\n",
                num_or_dash(b[5], u->size), u->is_upgrade && u->points >= 0 ? "+" : "",
                u->points, num_or_dash(b[6], u->min), num_or_dash(b[7], u->max));
    if (u->upgrades_count) {
        fprintf(f, "  upgrades:");
        for (size_t i = 0; i < u->upgrades_count; i++)
            fprintf(f, "%s %s", i ? "," : "", u->upgrades[i]);
        fprintf(f, "\n");
    }
    if (u->notes)
        fprintf(f, "  notes: %s\n", u->notes);
    fprintf(f, "  rules:%s\n", u->rules_count ? "" : " none");
    for (size_t i = 0; i < u->rules_count; i++) {
        const om_army_rule *r = om_army_rules_find(reg, u->rules[i]);
        fprintf(f, "    %s%s: %s\n", u->rules[i],
                modelled(u->rules[i]) ? " (modelled)" : "* (not modelled yet)",
                r ? r->summary : "(not in the registry)");
    }
    if ((unsigned)u->type < OM_WM_TROOP_COUNT && !u->is_upgrade)
        fprintf(f, "  scenario: 'unit: {from: %s/%s}'\n", a->id, u->id);
    else if (om_army_type_is_character(u->type))
        fprintf(f, "  scenario: side key 'character: %s/%s'\n", a->id, u->id);
    else if (u->type == OM_ARMY_MOUNT)
        fprintf(f, "  scenario: side key 'mount: %s' with a character\n", u->id);
}

/* The JSON members of one entry of an army, with its rules. */
static json_t *unit_entry_json(const om_army *a, const om_army_unit *u, const om_army_rules *reg)
{
    json_t *root = json_object(), *rules = json_array();
    for (size_t i = 0; i < u->rules_count; i++) {
        const om_army_rule *r = om_army_rules_find(reg, u->rules[i]);
        json_array_append_new(rules, json_pack("{s:s, s:s?, s:b, s:s?}", "id", u->rules[i],
                                               "name", r ? r->name : NULL, "implemented",
                                               modelled(u->rules[i]), "summary",
                                               r ? r->summary : NULL));
    }
    json_object_set_new(root, "ruleset", json_string(a->ruleset));
    json_object_set_new(root, "army", json_string(a->id));
    json_object_set_new(root, "section", json_string(u->is_upgrade ? "upgrades" : "units"));
    json_object_set_new(root, "unit", unit_json(u));
    json_object_set_new(root, "rules", rules);
    return root;
}

static om_status list_unit(const om_army_ruleset *rs, const char *army, const char *id,
                           om_game_listing **out)
{
    om_army *a = NULL;
    const om_army_unit *u = NULL;
    om_army_rules *reg = NULL;
    text heading;
    om_status st;

    if ((st = om_army_load(rs->id, army, &a)) || (st = om_army_unit_lookup(a, id, &u)) ||
        (st = om_army_rules_load(&reg))) {
        om_army_free(a);
        return st;
    }
    text_open(&heading);
    if (heading.f)
        unit_text(heading.f, a, u, reg);
    if ((st = listing_of(&heading, out)) == OM_OK)
        st = om_game_listing_json(*out, unit_entry_json(a, u, reg));
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

/* The JSON members of the special rules of rs (NULL: every rule set). */
static json_t *rules_json(const om_army_rules *reg, const om_army_ruleset *rs, size_t n,
                          size_t n_modelled)
{
    json_t *root = json_object(), *arr = json_array(), *eng = json_array();
    for (size_t i = 0; i < reg->count; i++) {
        const om_army_rule *r = &reg->rules[i];
        if (!rule_in(r, rs))
            continue;
        json_array_append_new(
            arr, json_pack("{s:s, s:s, s:b, s:b, s:o, s:s, s:o}", "id", r->id, "name", r->name,
                           "implemented", modelled(r->id), "affects_engagement_dice",
                           r->affects_dice, "rulesets",
                           json_strings(r->rulesets, r->rulesets_count), "summary", r->summary,
                           "used_by", json_strings(r->used_by, r->used_by_count)));
    }
    for (size_t i = 0; i < om_wm_special_count(); i++)
        json_array_append_new(eng, json_pack("{s:s, s:s, s:s, s:o}", "id",
                                             om_wm_special_at(i)->id, "effect",
                                             om_wm_special_at(i)->effect, "section",
                                             om_wm_special_at(i)->section, "traits",
                                             engine_traits_json(om_wm_special_at(i), rs)));
    json_object_set_new(root, "ruleset", rs ? json_string(rs->id) : json_null());
    json_object_set_new(root, "count", json_integer((json_int_t)n));
    json_object_set_new(root, "implemented", json_integer((json_int_t)n_modelled));
    json_object_set_new(root, "rules", arr);
    json_object_set_new(root, "engine_rules", eng);
    return root;
}

/* The special rules of the lists (of rs, or of every rule set) and the rules
 * the engine models. */
static om_status list_rules(const om_army_ruleset *rs, om_game_listing **out)
{
    static const char *const cols_one[] = {"id", "name", "modelled", "dice", "summary"};
    static const char *const cols_all[] = {"id", "name", "modelled", "dice", "rule sets",
                                           "summary"};
    static const char *const engine_cols[] = {"id", "section", "effect", "traits"};
    om_army_rules *reg = NULL;
    om_game_table *t = NULL;
    size_t n = 0, n_modelled = 0;
    char title[CELL_MAX];
    om_status st;

    if ((st = om_army_rules_load(&reg)))
        return st;
    for (size_t i = 0; i < reg->count; i++) {
        n += rule_in(&reg->rules[i], rs);
        n_modelled += rule_in(&reg->rules[i], rs) && modelled(reg->rules[i].id);
    }
    snprintf(title, sizeof title, "Special rules of the %s army lists: %zu, %zu modelled by the "
             "engine.\n\"dice\": the rule changes engagement dice beyond the stat line.",
             rs ? rs->id : "Warmaster", n, n_modelled);
    if ((st = om_game_listing_alloc(NULL, out)) == OM_OK)
        st = om_game_listing_table(*out, "rules", title, rs ? 5 : 6, rs ? cols_one : cols_all,
                                   NULL, &t);
    for (size_t i = 0; st == OM_OK && i < reg->count; i++) {
        const om_army_rule *r = &reg->rules[i];
        char sets[CELL_MAX] = "";
        if (!rule_in(r, rs))
            continue;
        for (size_t k = 0; k < r->rulesets_count; k++)
            snprintf(sets + strlen(sets), sizeof sets - strlen(sets), "%s%s", k ? "," : "",
                     r->rulesets[k]);
        const char *yes_no = modelled(r->id) ? "yes" : "no";
        const char *dice = r->affects_dice ? "yes" : "no";
        st = rs ? om_game_table_row(t, (const char *[]){r->id, r->name, yes_no, dice, r->summary})
                : om_game_table_row(t, (const char *[]){r->id, r->name, yes_no, dice, sets,
                                                        r->summary});
    }
    if (st == OM_OK)
        st = om_game_listing_table(*out, "engine_rules", "Rules the engine models (a scenario's "
                                   "'rules:' may name them):", 4, engine_cols, NULL, &t);
    for (size_t i = 0; st == OM_OK && i < om_wm_special_count(); i++) {
        char traits[CELL_MAX];
        st = om_game_table_row(t, (const char *[]){om_wm_special_at(i)->id,
                                                   om_wm_special_at(i)->section,
                                                   om_wm_special_at(i)->effect,
                                                   engine_traits(traits, om_wm_special_at(i),
                                                                 rs)});
    }
    if (st == OM_OK)
        st = om_game_listing_json(*out, rules_json(reg, rs, n, n_modelled));
    om_army_rules_free(reg);
    return st;
}

/* ---------------------------------------------------------------------------
 * The catalogue's `list`.
 */

/* RULESET/WHAT: the rule set's armies (WHAT NULL or ""), an army, or one
 * entry of an army (ARMY/UNIT). */
static om_status list_named(const char *ruleset, const char *what, bool rules,
                            om_game_listing **out)
{
    const om_army_ruleset *rs = NULL;
    char army[NAME_MAX_LEN];
    const char *unit;
    const size_t n = what ? strcspn(what, "/") : 0;
    om_status st;

    if (strlen(ruleset) >= NAME_MAX_LEN || n >= sizeof army)
        return OM_ERROR(OM_ENOTFOUND, "no such name: '%s%s%s'", ruleset, what ? "/" : "",
                        what ? what : "");
    memcpy(army, what ? what : "", n);
    army[n] = '\0';
    unit = what && what[n] ? what + n + 1 : NULL;
    if ((st = find_ruleset(ruleset, &rs)))
        return st;
    if (rules)
        return list_rules(rs, out);
    if (!army[0] && !unit) {
        if ((st = om_game_listing_alloc(NULL, out)) != OM_OK)
            return st;
        return list_armies(rs, *out);
    }
    if (!unit)
        return list_army(rs, army, out);
    if (unit[0] == '\0' || strchr(unit, '/'))
        return OM_ERROR(OM_ENOTFOUND, "expected RULESET/ARMY/UNIT, got '%s/%s'", ruleset, what);
    return list_unit(rs, army, unit, out);
}

om_status om_wm_game_list(const char *ruleset, const char *what, bool rules,
                          om_game_listing **out)
{
    om_status st;
    *out = NULL;
    if (ruleset != NULL)
        st = list_named(ruleset, what, rules, out);
    else if (rules)
        st = list_rules(NULL, out);
    else if ((st = om_game_listing_alloc(NULL, out)) == OM_OK)
        st = list_rulesets(*out);
    if (st != OM_OK) {
        om_game_listing_free(*out);
        *out = NULL;
    }
    return st;
}

/* ---------------------------------------------------------------------------
 * The catalogue's `names`: the armies of a rule set, the units and upgrades
 * of an army, nothing under a unit.
 */

om_status om_wm_game_names(const char *ruleset, const char *what, om_game_name_fn each,
                           void *ctx)
{
    const om_army_ruleset *rs = NULL;
    char army[NAME_MAX_LEN];
    const size_t n = what ? strcspn(what, "/") : 0;
    const char *unit = what && what[n] ? what + n + 1 : NULL;
    const om_army_unit *u = NULL;
    om_army *a = NULL;
    om_status st;

    if ((st = find_ruleset(ruleset, &rs)) != OM_OK)
        return st;
    if (n == 0 && unit == NULL) {
        for (size_t i = 0; i < om_army_count(rs); i++)
            each(ctx, om_army_file_of(rs, i)->stem, true);
        return OM_OK;
    }
    if (n >= sizeof army)
        return OM_ERROR(OM_ENOTFOUND, "no such name: '%s/%s'", ruleset, what);
    memcpy(army, what, n);
    army[n] = '\0';
    if ((st = om_army_load(rs->id, army, &a)) != OM_OK)
        return st;
    if (unit != NULL)
        st = om_army_unit_lookup(a, unit, &u);
    for (size_t i = 0; st == OM_OK && unit == NULL && i < a->units_count; i++)
        each(ctx, a->units[i].id, false);
    for (size_t i = 0; st == OM_OK && unit == NULL && i < a->upgrades_count; i++)
        each(ctx, a->upgrades[i].id, false);
    om_army_free(a);
    return st;
}

/* ---------------------------------------------------------------------------
 * The battles' `doctrines`: each doctrine's name, aim and summary line.
 */

/* Append doctrine file f as a row of table t. */
static om_status doctrine_row(om_game_table *t, const om_wm_doctrine_file *f)
{
    return om_game_table_row(t, (const char *[]){f->doctrine.name,
                                                 om_wm_aim_names[f->doctrine.aim], f->summary});
}

om_status om_wm_doctrine_listing(const char *source, const char *text, size_t len,
                                 om_game_listing **out)
{
    static const char *const cols[] = {"name", "aim", "summary"};
    om_wm_doctrine_file f;
    om_game_table *t = NULL;
    om_status st;

    *out = NULL;
    if ((st = om_game_listing_alloc(NULL, out)) == OM_OK)
        st = om_game_listing_table(*out, "doctrines",
                                   text ? "Doctrine file (a battle's doctrine: by this path):"
                                        : "Doctrines compiled in (a battle's doctrine: by "
                                          "name, or a file's path):",
                                   3, cols, NULL, &t);
    if (st == OM_OK && text != NULL) {
        if ((st = om_wm_doctrine_parse(source, text, len, &f)) == OM_OK)
            st = doctrine_row(t, &f);
    }
    for (size_t i = 0; st == OM_OK && text == NULL && i < om_wm_doctrine_named_count(); i++)
        if ((st = om_wm_doctrine_named(om_wm_doctrine_named_at(i), &f)) == OM_OK)
            st = doctrine_row(t, &f);
    if (st != OM_OK) {
        om_game_listing_free(*out);
        *out = NULL;
    }
    return st;
}
