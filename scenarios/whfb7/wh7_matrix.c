/*
 * wh7_matrix.c: what the WHFB 7th edition game gives matchup matrices
 * (game.h): the situations two units meet in, the units of a list read once
 * from the list file (wh7_list.c; the embedded sample list, whose units carry
 * points), and each cell's combat built from those units, with the text a
 * scenario file of it would hold (`matrix --cells-dir` writes it, and `run`
 * of it is the same cell: tests/test_wh7_game.c checks it).
 *
 * A list is a comma-separated list of items, as for Warmaster: ARMY (all its
 * units), ARMY/UNIT, a bare UNIT right after an ARMY/UNIT item (another unit
 * of that army), or `all` (every army of the list file).
 *
 * Which cells a unit has no part in follows its troop type and weapons: a war
 * machine neither charges nor fights as a regiment (WHFB 7th edition, War
 * Machines: the crew "can fight in close combat" only when the enemy reaches
 * it; it cannot charge), and a unit without a missile weapon cannot stand and
 * shoot (it holds instead).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix_int.h"
#include "game.h"
#include "wh7.h"
#include "wh7_game_int.h"
#include "wh7_scenario.h"

/* The situations, in the order `matrix --list-situations` shows them; the
 * first two are the default set. */
const om_game_situation om_wh7_matrix_situations_table[OM_WH7_MATRIX_SITUATIONS] = {
    {"a-charges", "A charges B's front", "a:\n  charging: true\nb: {}\n"},
    {"b-charges", "B charges A's front", "a: {}\nb:\n  charging: true\n"},
    {"a-charges-flank", "A charges B's flank", "a:\n  charging: true\nb:\n  arc: flank\n"},
    {"a-charges-b-shoots", "A charges B, which stands and shoots if it can",
     "a:\n  charging: true\nb:\n  response: stand-and-shoot  # if it can shoot\n"},
};

/* What each situation asks of the sides. */
static const struct {
    bool a_charges;       /* A charges (else B does) */
    om_wh7_arc b_arc;     /* the face of B that A touches */
    bool b_shoots;        /* B stands and shoots at A's charge */
} roles[OM_WH7_MATRIX_SITUATIONS] = {
    {true, OM_WH7_ARC_FRONT, false},
    {false, OM_WH7_ARC_FRONT, false},
    {true, OM_WH7_ARC_FLANK, false},
    {true, OM_WH7_ARC_FRONT, true},
};

/* The kinds a matrix runs; the first is the default. */
const char *const om_wh7_matrix_kinds[] = {"engagement", "combat", NULL};

/* ----------------------------------------------------------- units */

/* Whether list unit u shoots: a missile weapon, or a war machine that fires. */
static bool shoots(const om_wh7_list_unit *u)
{
    return u->unit.equipment.missile != OM_WH7_MISSILE_NONE || u->machine != OM_WH7_MACHINE_NONE;
}

/* Whether u's values are ones the engine fights with: u against itself, in
 * a first round, passes the engine's check. If not, `why` names the value. */
static bool unit_fights(const om_wh7_list_unit *u, char *why, size_t cap)
{
    om_wh7_combat c;
    om_wh7_check_failure f;
    memset(&c, 0, sizeof c);
    c.kind = OM_WH7_KIND_COMBAT;
    c.side[0].unit = c.side[1].unit = u->unit;
    if (om_wh7_check(&c, &f) == OM_OK)
        return true;
    snprintf(why, cap, "%.60s %.130s", strncmp(f.field, "a.unit.", 7) == 0 ? f.field + 7 : f.field,
             f.reason);
    return false;
}

/* Add list unit e; `required`: named in the spec, so it must fight. */
static om_status add_unit(om_unit_list *l, const om_wh7_list *list, const om_wh7_list_unit *e,
                          bool required)
{
    om_wh7_list_unit *data = NULL;
    om_game_unit *g;
    om_status st;
    char why[sizeof g->left_out] = "";
    if (!unit_fights(e, why, sizeof why) && required)
        return OM_ERROR(OM_EINVAL, "%s (%s): %s", e->id, list->source, why);
    if ((st = om_unit_list_add(l, e->id, &g)) != OM_OK)
        return st;
    if (why[0] == '\0') {
        if ((data = malloc(sizeof *data)) == NULL) {
            l->n--;
            return OM_ERROR(OM_ENOMEM, "out of memory listing units");
        }
        *data = *e;
    }
    snprintf(g->left_out, sizeof g->left_out, "%s", why);
    snprintf(g->name, sizeof g->name, "%s", e->name);
    snprintf(g->army, sizeof g->army, "%s", e->army_name);
    snprintf(g->troop, sizeof g->troop, "%s", om_wh7_troop_names[e->unit.troop]);
    snprintf(g->data_version, sizeof g->data_version, "whfb7 %s %s", list->name, list->version);
    g->points = e->unit.points + e->character_points;
    g->can_shoot = shoots(e);
    g->data = data;
    return OM_OK;
}

/* Every unit of army `army`; OM_ENOTFOUND with a suggestion if none. */
static om_status add_army(om_unit_list *l, const om_wh7_list *list, const char *army)
{
    size_t found = 0;
    char probe[128];
    const om_wh7_list_unit *e = NULL;
    om_status st = OM_OK;
    for (size_t i = 0; st == OM_OK && i < list->n; i++)
        if (strcmp(list->units[i].army, army) == 0) {
            found++;
            st = add_unit(l, list, &list->units[i], false);
        }
    if (st != OM_OK || found > 0)
        return st;
    /* The lookup of a unit of it says what is wrong, with a suggestion. */
    snprintf(probe, sizeof probe, "%.60s/-", army);
    return om_wh7_list_find(list, probe, &e);
}

void om_wh7_matrix_units_free(om_game_unit *units, size_t n)
{
    for (size_t i = 0; units != NULL && i < n; i++)
        free(units[i].data);
    free(units);
}

/* Whether `army` has a unit `unit`. */
static bool army_has(const om_wh7_list *list, const char *army, const char *unit)
{
    for (size_t i = 0; i < list->n; i++)
        if (strcmp(list->units[i].army, army) == 0 &&
            strcmp(list->units[i].id + strlen(army) + 1, unit) == 0)
            return true;
    return false;
}

/* One item of a list; `army` is the army of the previous ARMY/UNIT item ("" if
 * none), updated. */
static om_status add_item(om_unit_list *l, const om_wh7_list *list, const char *item, char *army,
                          size_t army_cap)
{
    const char *slash = strchr(item, '/');
    const om_wh7_list_unit *e = NULL;
    om_status st;
    if (strcmp(item, "all") == 0) {
        for (size_t i = 0; i < list->n; i++)
            if ((st = add_unit(l, list, &list->units[i], false)) != OM_OK)
                return st;
        army[0] = '\0';
        return OM_OK;
    }
    if (slash != NULL) {
        snprintf(army, army_cap, "%.*s", (int)(slash - item), item);
        if ((st = om_wh7_list_find(list, item, &e)) != OM_OK)
            return st;
        return add_unit(l, list, e, true);
    }
    if (army[0] != '\0' && army_has(list, army, item)) {
        char id[160];
        snprintf(id, sizeof id, "%s/%s", army, item);
        if ((st = om_wh7_list_find(list, id, &e)) != OM_OK)
            return st;
        return add_unit(l, list, e, true);
    }
    army[0] = '\0';
    return add_army(l, list, item);
}

om_status om_wh7_matrix_units(const char *ruleset, const char *spec, om_game_unit **units,
                              size_t *n)
{
    om_unit_list l = {.units = *units, .n = *n, .cap = *n};
    om_wh7_list *list = NULL;
    char *copy, *save = NULL, army[64] = "";
    om_status st;
    if (strcmp(ruleset, OM_WH7_RULESET) != 0)
        return OM_ERROR(OM_ENOTFOUND, "unknown rule set '%s'", ruleset);
    if (spec[0] == '\0')
        return OM_ERROR(OM_EINVAL, "an empty list: give ARMY, ARMY/UNIT,UNIT, ARMY,ARMY or all "
                        "(oddsmaster list whfb7/units)");
    if ((st = om_wh7_list_load(&list)) != OM_OK)
        return st;
    if ((copy = strdup(spec)) == NULL) {
        om_wh7_list_free(list);
        return OM_ERROR(OM_ENOMEM, "out of memory");
    }
    for (char *item = strtok_r(copy, ",", &save); st == OM_OK && item;
         item = strtok_r(NULL, ",", &save))
        st = add_item(&l, list, item, army, sizeof army);
    free(copy);
    om_wh7_list_free(list);
    *units = l.units;
    *n = l.n;
    return st;
}

/* ----------------------------------------------------------- cells */

/* What a side does in the cell, where its unit can. */
typedef struct side_keys {
    bool charging;   /* it charges */
    om_wh7_arc arc;  /* the face the enemy touches */
    bool shoots;     /* it stands and shoots */
} side_keys;

/* The keys of side s (0: A) of situation `sit` for unit u. */
static side_keys keys_of(const om_wh7_list_unit *u, size_t sit, int s)
{
    const bool war_machine = u->unit.troop == OM_WH7_WAR_MACHINE;
    side_keys k = {.charging = (roles[sit].a_charges == (s == 0)) && !war_machine};
    if (s == 1) {
        k.arc = roles[sit].b_arc;
        k.shoots = roles[sit].b_shoots && u->unit.equipment.missile != OM_WH7_MISSILE_NONE;
    }
    return k;
}

/* Whether unit u has its part in the situation as side s. */
static bool takes_part(const om_wh7_list_unit *u, size_t sit, int s)
{
    if (u->unit.troop == OM_WH7_WAR_MACHINE)
        return false;
    if (s == 1 && roles[sit].b_shoots)
        return u->unit.equipment.missile != OM_WH7_MISSILE_NONE;
    return true;
}

/* Side s of the cell's combat, as the loader makes it of `from:` and the
 * situation's keys. */
static void cell_side(om_wh7_scenario *ws, int s, const om_wh7_list_unit *u, side_keys k)
{
    om_wh7_side *side = &ws->combat.side[s];
    om_wh7_side_info *info = &ws->side[s];
    memset(side, 0, sizeof *side);
    side->unit = u->unit;
    side->machine = u->machine;
    side->charging = k.charging;
    side->arc = k.arc;
    side->response = k.shoots ? OM_WH7_RESPONSE_STAND_AND_SHOOT : OM_WH7_RESPONSE_HOLD;
    snprintf(info->name, sizeof info->name, "%s", u->name);
    snprintf(info->from, sizeof info->from, "%s", u->id);
    snprintf(info->profile, sizeof info->profile, "%s", u->profile);
    info->character_points = u->character_points;
}

/* The side's keys as scenario text. */
static bool append_side(char **buf, size_t *len, char name, const char *id, side_keys k)
{
    return om_cell_appendf(buf, len, "%c:\n  unit:\n    from: %s\n", name, id) &&
           (!k.charging || om_cell_appendf(buf, len, "  charging: true\n")) &&
           (k.arc == OM_WH7_ARC_FRONT || om_cell_appendf(buf, len, "  arc: %s\n", om_wh7_arc_names[k.arc])) &&
           (!k.shoots || om_cell_appendf(buf, len, "  response: stand-and-shoot\n"));
}

/* The cell's scenario text: what `oddsmaster run` of it with the cell's seed
 * reproduces. */
static char *cell_text(const char *kind, size_t sit, const om_game_unit *row,
                       const om_game_unit *col, side_keys ka, side_keys kb, const char *title,
                       const om_game_setting *settings, size_t n_settings, uint64_t seed,
                       unsigned cannot)
{
    char *buf = NULL;
    size_t len = 0;
    bool ok = om_cell_preamble(&buf, &len, row, col, om_wh7_matrix_situations_table[sit].name,
                               seed, cannot, title, OM_WH7_RULESET, kind, settings,
                               n_settings) &&
              append_side(&buf, &len, 'a', row->id, ka) &&
              append_side(&buf, &len, 'b', col->id, kb);
    if (!ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

om_status om_wh7_matrix_cell(const char *ruleset, const char *kind, size_t sit,
                             const om_game_unit *row, const om_game_unit *col,
                             const om_game_setting *settings, size_t n_settings,
                             uint64_t seed, om_scenario **out, unsigned *cannot)
{
    const om_wh7_list_unit *a = row->data, *b = col->data;
    const side_keys ka = keys_of(a, sit, 0);
    side_keys kb = keys_of(b, sit, 1);
    om_wh7_scenario *ws = calloc(1, sizeof *ws);
    om_scenario *sc = calloc(1, sizeof *sc);
    om_wh7_check_failure why;
    char title[256], source[320];
    unsigned k;
    om_status st = OM_OK;

    /* A charge response answers a charge: none when A does not charge. */
    kb.shoots = kb.shoots && ka.charging;
    *out = NULL;
    *cannot = (takes_part(a, sit, 0) ? 0u : OM_GAME_ROW_CANNOT) |
              (takes_part(b, sit, 1) ? 0u : OM_GAME_COL_CANNOT);
    snprintf(title, sizeof title, "%s vs %s: %s", row->name, col->name,
             om_wh7_matrix_situations_table[sit].title);
    snprintf(source, sizeof source, "<matrix cell %s: %s vs %s>",
             om_wh7_matrix_situations_table[sit].name, row->id, col->id);
    if (ws == NULL || sc == NULL) {
        free(ws);
        free(sc);
        return OM_ERROR(OM_ENOMEM, "out of memory for a matrix cell");
    }
    sc->game = &om_game_whfb7;
    sc->setup = ws;
    for (k = 0; k < OM_WH7_KIND_COUNT && strcmp(om_wh7_kind_names[k], kind) != 0; k++)
        ;
    if (strcmp(ruleset, OM_WH7_RULESET) != 0 || k == OM_WH7_KIND_COUNT)
        st = OM_ERROR(OM_EINVAL, "%s: rule set '%s' or kind '%s' unknown", source, ruleset, kind);
    if (st == OM_OK) {
        ws->combat.kind = (om_wh7_kind)k;
        cell_side(ws, 0, a, ka);
        cell_side(ws, 1, b, kb);
        st = om_cell_settings_apply(&om_game_whfb7, kind, &om_wh7_option_registry,
                                    &ws->combat.options, settings, n_settings);
    }
    if (st == OM_OK && om_wh7_check(&ws->combat, &why) != OM_OK)
        st = OM_ERROR(OM_EINVAL, "%s: field '%s': %s", source, why.field, why.reason);
    if (st == OM_OK &&
        ((sc->source = strdup(source)) == NULL || (sc->title = strdup(title)) == NULL ||
         (sc->text = cell_text(kind, sit, row, col, ka, kb, title, settings, n_settings, seed,
                               *cannot)) == NULL ||
         (ws->source = strdup(source)) == NULL || (ws->title = strdup(title)) == NULL ||
         (ws->text = strdup(sc->text)) == NULL))
        st = OM_ERROR(OM_ENOMEM, "out of memory for a matrix cell");
    if (st == OM_OK)
        st = om_wh7_game_setup(sc, ws);
    if (st != OM_OK) {
        om_scenario_free(sc);
        return st;
    }
    *out = sc;
    return OM_OK;
}
