/*
 * wh7_listing.c: what `oddsmaster list whfb7[/WHAT[/ID]]` shows (game.h's
 * `list`): the game's kinds and what it holds, then each table: the
 * rulebook's profiles (scenarios/armies/whfb7/profiles.yaml), the close
 * combat weapons, missile weapons and war machines of the engine's tables,
 * the special rules it models, the 48 spells of the eight lores, and the
 * units of the list file with their points. The readings of ambiguous rules
 * are `oddsmaster list --options`, shared by every game.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "army.h"
#include "wh7.h"
#include "wh7_game_int.h"
#include "wh7_scenario.h"
#include "yaml_int.h"

/* Room for one cell's text. */
#define CELL 256

#define T OM_GAME_CELL_TEXT
#define I OM_GAME_CELL_INT
#define B OM_GAME_CELL_BOOL

/* The spell kinds' names (om_wh7_spell_kind order). */
static const char *const spell_kind_names[OM_WH7_SPELL_KIND_COUNT] = {"damage", "augment", "hex",
                                                                      "other"};

/* snprintf into a cell buffer, returning it. */
static const char *cellf(char *buf, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static const char *cellf(char *buf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, CELL, fmt, ap);
    va_end(ap);
    return buf;
}

static const char *yes(bool b)
{
    return b ? "yes" : "no";
}

/* A signed bonus as "+2", "-1" or "-". */
static const char *bonus(char *buf, int v)
{
    return v ? cellf(buf, "%+d", v) : "-";
}

/* ---------------------------------------------------------------- tables */

static const char *const profile_columns[] = {"id", "name", "army", "M", "WS", "BS", "S", "T",
                                              "W", "I", "A", "Ld"};

static om_status list_profiles(om_game_listing *l, const char *only)
{
    const om_game_cell_type types[12] = {T, T, T, T, T, T, T, T, T, T, T, T};
    om_army_table *t = NULL;
    om_game_table *out = NULL;
    om_status st = om_army_table_load(OM_ARMY_TABLE_PROFILES, &t);
    size_t shown = 0;
    if (st == OM_OK)
        st = om_game_listing_table(l, "profiles", "Profiles of the rulebook (WHFB 7th edition, "
                                   "Appendix > Basic Characteristics; '-' is 0):", 12,
                                   profile_columns, types, &out);
    for (size_t r = 0; st == OM_OK && t && r < t->nrows; r++) {
        const char *cells[12] = {om_army_table_cell(t, r, "id"), om_army_table_cell(t, r, "name"),
                                 om_army_table_cell(t, r, "army_or_section")};
        static const char *const cols[9] = {"M", "WS", "BS", "S", "T", "W", "I", "A", "Ld"};
        if (only && strcmp(only, cells[0]) != 0)
            continue;
        for (size_t k = 0; k < 9; k++)
            cells[3 + k] = om_army_table_cell(t, r, cols[k]);
        st = om_game_table_row(out, cells);
        shown++;
        if (st == OM_OK && only) {
            char foot[2 * CELL];
            snprintf(foot, sizeof foot, "Source: %s\nUse: profile: %s\n",
                     om_army_table_cell(t, r, "notes"), cells[0]);
            st = om_game_listing_footer(l, foot);
        }
    }
    if (st == OM_OK && only && shown == 0) {
        const char **ids = calloc(t->nrows, sizeof *ids);
        const char *best;
        if (!ids) {
            om_army_table_free(t);
            return OM_ERROR(OM_ENOMEM, "out of memory");
        }
        for (size_t r = 0; r < t->nrows; r++)
            ids[r] = om_army_table_cell(t, r, "id");
        best = om_suggest(only, ids, t->nrows);
        st = OM_ERROR(OM_ENOTFOUND, "unknown profile '%s'%s%s%s (oddsmaster list whfb7/profiles)",
                      only, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
        free(ids);
    } else if (st == OM_OK && !only) {
        char foot[CELL];
        snprintf(foot, sizeof foot, "%zu profiles (%s). A scenario names one with 'profile: ID'.\n",
                 t->nrows, t->list_version);
        st = om_game_listing_footer(l, foot);
    }
    om_army_table_free(t);
    return st;
}

static om_status list_weapons(om_game_listing *l)
{
    static const char *const cols[] = {"id", "name", "two_handed", "strength", "charging",
                                       "first_turn", "attacks", "ranks", "strikes_last", "parry",
                                       "mounted", "section"};
    const om_game_cell_type types[12] = {T, T, B, T, T, T, I, I, B, B, B, T};
    om_game_table *out = NULL;
    om_status st = om_game_listing_table(l, "weapons", "Close combat weapons (equipment: weapon; "
                                         "on foot, and whether a mounted model may use it):",
                                         12, cols, types, &out);
    for (unsigned w = 0; st == OM_OK && w < OM_WH7_WEAPON_COUNT; w++) {
        const om_wh7_weapon_entry *e = om_wh7_weapon_get((om_wh7_weapon)w);
        char b[4][CELL];
        const char *cells[12] = {e->id, e->name, yes(e->two_handed),
                                 bonus(b[0], e->foot.strength), bonus(b[1], e->foot.strength_charging),
                                 bonus(b[2], e->foot.strength_first_turn),
                                 cellf(b[3], "%u", e->foot.extra_attacks), NULL,
                                 yes(e->foot.strikes_last), yes(e->foot.parry),
                                 yes(e->mounted.allowed), e->section};
        char r[CELL];
        cells[7] = cellf(r, "%u", e->foot.ranks ? e->foot.ranks : 1u);
        st = om_game_table_row(out, cells);
    }
    return st;
}

static om_status list_missiles(om_game_listing *l)
{
    static const char *const cols[] = {"id", "name", "range_in", "strength", "shots",
                                       "armour_piercing", "move_or_fire", "section"};
    const om_game_cell_type types[8] = {T, T, I, T, I, B, B, T};
    om_game_table *out = NULL;
    om_status st = om_game_listing_table(l, "missiles", "Missile weapons (equipment: missile):",
                                         8, cols, types, &out);
    for (unsigned m = 1; st == OM_OK && m < OM_WH7_MISSILE_COUNT; m++) {
        const om_wh7_missile_entry *e = om_wh7_missile_get((om_wh7_missile)m);
        char b[3][CELL];
        const char *s = e->strength ? cellf(b[1], "%u", e->strength)
                        : e->strength_bonus ? cellf(b[1], "user %+d", e->strength_bonus)
                                            : "user";
        const char *cells[8] = {e->id, e->name, cellf(b[0], "%u", e->range_in), s,
                                cellf(b[2], "%u", e->shots), yes(e->armour_piercing),
                                yes(e->move_or_fire), e->section};
        st = om_game_table_row(out, cells);
    }
    return st;
}

static om_status list_machines(om_game_listing *l)
{
    static const char *const cols[] = {"id", "name", "range_in", "strength", "wounds",
                                       "no_armour_save", "section"};
    const om_game_cell_type types[7] = {T, T, I, T, T, B, T};
    om_game_table *out = NULL;
    om_status st = om_game_listing_table(l, "machines", "War machines (a side's machine:, fired "
                                         "by a unit of troop war-machine):", 7, cols, types, &out);
    for (unsigned m = 1; st == OM_OK && m < OM_WH7_MACHINE_COUNT; m++) {
        const om_wh7_machine_entry *e = om_wh7_machine_get((om_wh7_machine)m);
        char b[2][CELL];
        const char *cells[7] = {e->id, e->name, cellf(b[0], "%u", e->range_in),
                                e->strength ? cellf(b[1], "%u", e->strength) : "artillery die",
                                om_wh7_damage_names[e->damage], yes(e->no_armour_save),
                                e->section};
        st = om_game_table_row(out, cells);
    }
    return st;
}

static om_status list_rules(om_game_listing *l)
{
    static const char *const cols[] = {"id", "section", "effect"};
    om_game_table *out = NULL;
    om_status st = om_game_listing_table(l, "rules", "Special rules the engine models (a unit's "
                                         "rules:):", 3, cols, NULL, &out);
    for (size_t i = 0; st == OM_OK && i < om_wh7_special_count(); i++) {
        const om_wh7_special *sp = om_wh7_special_at(i);
        st = om_game_table_row(out, (const char *[]){sp->id, sp->section, sp->effect});
    }
    return st;
}

static om_status list_spells(om_game_listing *l)
{
    static const char *const cols[] = {"id", "name", "lore", "number", "casting_value", "kind",
                                       "effect"};
    const om_game_cell_type types[7] = {T, T, T, I, I, T, T};
    om_game_table *out = NULL;
    om_status st = om_game_listing_table(l, "spells", "Spells of the eight lores (magic: spell; "
                                         "augments and hexes also under a side's spells:; "
                                         "casting value - is illegible, digest A15):", 7, cols,
                                         types, &out);
    for (size_t i = 0; st == OM_OK && i < om_wh7_spell_count(); i++) {
        const om_wh7_spell *sp = om_wh7_spell_at(i);
        char b[2][CELL];
        const char *cells[7] = {sp->id, sp->name, om_wh7_lore_names[sp->lore],
                                cellf(b[0], "%u", sp->number),
                                sp->casting_value ? cellf(b[1], "%u", sp->casting_value) : "-",
                                spell_kind_names[sp->kind], sp->effect};
        st = om_game_table_row(out, cells);
    }
    return st;
}

/* "20 x5" and "C S M". */
static const char *command_text(char *buf, const om_wh7_unit *u)
{
    return cellf(buf, "%s%s%s", u->champion ? "C" : "", u->standard ? "S" : "",
                 u->musician ? "M" : "");
}

static om_status list_units(om_game_listing *l)
{
    static const char *const cols[] = {"id", "name", "army", "profile", "troop", "models",
                                       "files", "command", "weapon", "shoots", "armour",
                                       "rules", "points"};
    const om_game_cell_type types[13] = {T, T, T, T, T, I, I, T, T, T, T, T, I};
    om_wh7_list *list = NULL;
    om_game_table *out = NULL;
    om_status st = om_wh7_list_load(&list);
    char foot[2 * CELL];
    if (st == OM_OK)
        st = om_game_listing_table(l, "units", "Units of the list file (from: ARMY/UNIT in a "
                                   "scenario; matrix items; C S M: champion, standard, "
                                   "musician; shoots: missile weapon or war machine):", 13, cols, types, &out);
    for (size_t i = 0; st == OM_OK && i < list->n; i++) {
        const om_wh7_list_unit *e = &list->units[i];
        const om_wh7_unit *u = &e->unit;
        char b[5][CELL], rules[CELL] = "";
        for (size_t k = 0; k < om_wh7_special_count(); k++)
            if (u->traits.rules & om_wh7_special_at(k)->flag)
                snprintf(rules + strlen(rules), sizeof rules - strlen(rules), "%s%s",
                         rules[0] ? ", " : "", om_wh7_special_at(k)->id);
        const char *cells[13] = {e->id, e->name, e->army_name, e->profile,
                                 om_wh7_troop_names[u->troop], cellf(b[0], "%u", u->models),
                                 cellf(b[1], "%u", u->files), command_text(b[2], u),
                                 om_wh7_weapon_get(u->equipment.weapon)->id,
                                 e->machine ? om_wh7_machine_get(e->machine)->id
                                            : om_wh7_missile_get(u->equipment.missile)->id,
                                 om_wh7_armour_names[u->equipment.armour], rules,
                                 cellf(b[3], "%u", u->points + e->character_points)};
        st = om_game_table_row(out, cells);
    }
    if (st == OM_OK) {
        snprintf(foot, sizeof foot, "%s: %s, version %s. %s\n", list->source, list->name,
                 list->version, list->note ? list->note : "");
        st = om_game_listing_footer(l, foot);
    }
    om_wh7_list_free(list);
    return st;
}

/* ---------------------------------------------------------------- overview */

/* The tables of `oddsmaster list whfb7/WHAT`, in the order the overview
 * shows them. */
static const struct {
    const char *name;     /* WHAT */
    const char *what;     /* what it holds */
} tables[] = {
    {"profiles", "the rulebook's characteristic profiles (profiles/ID: one)"},
    {"weapons", "close combat weapons"},
    {"missiles", "missile weapons"},
    {"machines", "war machines"},
    {"rules", "special rules the engine models (also list --rules whfb7)"},
    {"spells", "spells of the eight lores"},
    {"units", "units of the sample list file, with points (from: and matrices)"},
};

#define N_TABLES (sizeof tables / sizeof tables[0])

static om_status list_overview(om_game_listing *l)
{
    static const char *const kcols[] = {"kind", "what"};
    static const char *const tcols[] = {"list", "what"};
    om_game_table *out = NULL;
    om_status st = om_game_listing_table(l, "kinds", "Kinds of scenario (kind:):", 2, kcols, NULL,
                                         &out);
    for (size_t i = 0; st == OM_OK && i < om_game_whfb7.identity.n_kinds; i++)
        st = om_game_table_row(out, (const char *[]){om_game_whfb7.identity.kinds[i].name,
                                                     om_game_whfb7.identity.kinds[i].description});
    if (st == OM_OK)
        st = om_game_listing_table(l, "lists", "What it holds (oddsmaster list whfb7/LIST):", 2,
                                   tcols, NULL, &out);
    for (size_t i = 0; st == OM_OK && i < N_TABLES; i++)
        st = om_game_table_row(out, (const char *[]){tables[i].name, tables[i].what});
    if (st == OM_OK)
        st = om_game_listing_footer(l, "Armour: none, light, heavy. Readings of ambiguous rules: "
                                       "oddsmaster list --options.\n");
    return st;
}

/* The table `name` (and one profile `id`) into l. */
static om_status list_table(om_game_listing *l, const char *name, const char *id)
{
    const char *names[N_TABLES], *best;
    if (id && strcmp(name, "profiles") != 0)
        return OM_ERROR(OM_ENOTFOUND, "whfb7/%s has no entries to show one by one (only "
                        "whfb7/profiles/ID does)", name);
    if (strcmp(name, "profiles") == 0)
        return list_profiles(l, id);
    if (strcmp(name, "weapons") == 0)
        return list_weapons(l);
    if (strcmp(name, "missiles") == 0)
        return list_missiles(l);
    if (strcmp(name, "machines") == 0)
        return list_machines(l);
    if (strcmp(name, "rules") == 0)
        return list_rules(l);
    if (strcmp(name, "spells") == 0)
        return list_spells(l);
    if (strcmp(name, "units") == 0)
        return list_units(l);
    for (size_t i = 0; i < N_TABLES; i++)
        names[i] = tables[i].name;
    best = om_suggest(name, names, N_TABLES);
    return OM_ERROR(OM_ENOTFOUND, "unknown list 'whfb7/%s'%s%s%s (the lists: profiles, "
                    "weapons, missiles, machines, rules, spells, units)", name,
                    best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
}

om_status om_wh7_game_list(const char *ruleset, const char *what, bool rules,
                           om_game_listing **out)
{
    char heading[512], name[64];
    const char *slash;
    om_status st;
    /* It adds nothing to the listings of every game (`oddsmaster list`,
     * `list --rules`): `oddsmaster list whfb7` shows what it holds. */
    *out = NULL;
    if (ruleset == NULL)
        return OM_OK;
    snprintf(heading, sizeof heading, "%s (%s): %zu kinds of scenario, the rulebook's profiles "
             "and tables, a list file of sample units.\n", om_game_whfb7.identity.title, OM_WH7_RULESET,
             om_game_whfb7.identity.n_kinds);
    if ((st = om_game_listing_alloc(what && what[0] ? NULL : heading, out)) != OM_OK)
        return st;
    if (rules)
        st = list_rules(*out);
    else if (!what || !what[0])
        st = list_overview(*out);
    else if ((slash = strchr(what, '/')) != NULL) {
        snprintf(name, sizeof name, "%.*s", (int)(slash - what), what);
        st = list_table(*out, name, slash + 1);
    } else {
        st = list_table(*out, what, NULL);
    }
    if (st != OM_OK) {
        om_game_listing_free(*out);
        *out = NULL;
    }
    return st;
}

/* The catalogue's `names`: the lists of whfb7, the profiles' ids under
 * profiles (the one list whose entries list one by one), nothing deeper. */
om_status om_wh7_game_names(const char *ruleset, const char *what, om_game_name_fn each,
                            void *ctx)
{
    const char *names[N_TABLES], *best;
    const size_t n = what ? strcspn(what, "/") : 0;
    om_army_table *t = NULL;
    size_t table = 0;
    om_status st;

    if (strcmp(ruleset, OM_WH7_RULESET) != 0)
        return OM_ERROR(OM_ENOTFOUND, "unknown rule set '%s'", ruleset);
    if (what == NULL || what[0] == '\0') {
        for (size_t i = 0; i < N_TABLES; i++)
            each(ctx, tables[i].name, strcmp(tables[i].name, "profiles") == 0);
        return OM_OK;
    }
    while (table < N_TABLES && (strlen(tables[table].name) != n ||
                                strncmp(tables[table].name, what, n) != 0))
        table++;
    if (table == N_TABLES) {
        for (size_t i = 0; i < N_TABLES; i++)
            names[i] = tables[i].name;
        best = om_suggest(what, names, N_TABLES);
        return OM_ERROR(OM_ENOTFOUND, "unknown list 'whfb7/%s'%s%s%s", what,
                        best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
    }
    if (strcmp(tables[table].name, "profiles") != 0)
        return what[n] == '\0' ? OM_OK
                                : OM_ERROR(OM_ENOTFOUND, "whfb7/%s has no entries to show one "
                                           "by one (only whfb7/profiles/ID does)",
                                           tables[table].name);
    if ((st = om_army_table_load(OM_ARMY_TABLE_PROFILES, &t)) != OM_OK)
        return st;
    for (size_t r = 0; r < t->nrows && what[n] == '\0'; r++)
        each(ctx, om_army_table_cell(t, r, "id"), false);
    if (what[n] == '/') {
        /* A profile: nothing under it, but it must be one. */
        bool found = false;
        for (size_t r = 0; r < t->nrows && !found; r++)
            found = strcmp(om_army_table_cell(t, r, "id"), what + n + 1) == 0;
        if (!found)
            st = OM_ERROR(OM_ENOTFOUND, "unknown profile '%s' (oddsmaster list whfb7/profiles)",
                          what + n + 1);
    }
    om_army_table_free(t);
    return st;
}
