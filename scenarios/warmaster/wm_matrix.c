/*
 * wm_matrix.c: what the Warmaster game gives matchup matrices (game.h): the
 * situations two units meet in, the units of a list read once from the army
 * data, and each cell's engagement built from those units, with the text a
 * scenario file of it would hold (`matrix --cells-dir` writes it, and `run` of
 * it means the same cell: tests/test_matrix.c checks it).
 *
 * A list is a comma-separated list of items: ARMY (all its troop units: no
 * characters, mounts or upgrades), ARMY/UNIT (one unit), a bare UNIT right
 * after an ARMY/UNIT item (another unit of the same army, when that army has
 * one of that name; otherwise an army), or `all` (every army of the rule set).
 *
 * Which cells a unit has no part in (what the fair-points model leaves out of
 * its rating) follows the units' troop types: artillery has no part in a
 * melee (Warmaster Revolution, Artillery: "the crews ... have no natural
 * inclination and little ability to fight in close combat"; they may be
 * ordered to charge, "a desperate thing to do"), a unit without shooting
 * attacks none in shooting (and one that cannot shoot at chargers none in
 * standing and shooting), and only infantry and artillery are ever defended
 * (Warmaster Revolution, Defended & Fortified Troops). A unit that cannot
 * charge (the War Wagon, Kislev lists) stands where it would charge, and has
 * no part in that cell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "army.h"
#include "matrix_int.h"
#include "game.h"
#include "wm.h"
#include "wm_game_int.h"
#include "wm_provenance.h"
#include "wm_scenario.h"

/* What a situation asks of a side. */
typedef enum role {
    ROLE_MELEE = 0,        /* charge or be charged */
    ROLE_SHOOT_AT_CHARGER, /* stand and shoot at the enemy's charge, then fight */
    ROLE_SHOOT_FIRST,      /* a volley in its previous turn, then the charge */
    ROLE_SHOOT_BOTH,       /* a volley in its previous turn, and stand and shoot */
    ROLE_DEFENDED          /* hold a defended position against a charge */
} role;

/* A situation: who charges, and what each side does. */
typedef struct wm_situation {
    bool a_charges;  /* A charges (else B does) */
    role a, b;       /* what it asks of A and of B */
} wm_situation;

/* The situations, in the order `matrix --list-situations` shows them; the
 * first two are the default set. */
const om_game_situation om_wm_matrix_situations_table[OM_WM_MATRIX_SITUATIONS] = {
    {"a-charges", "A charges B in the open", "a:\n  charging: true\nb: {}\n"},
    {"b-charges", "B charges A in the open", "a: {}\nb:\n  charging: true\n"},
    {"a-charges-b-shoots", "A charges B, which stands and shoots if it can",
     "a:\n  charging: true\nb:\n  stand_and_shoot: true  # if it can shoot\n"},
    {"a-shoots-then-charges", "A shot at B in its previous turn (if it can shoot), then charges",
     "a:\n  charging: true\n  shoots_first: true  # if it can shoot\nb: {}\n"},
    {"b-shoots-first", "B shot at A in its previous turn and stands and shoots (if it can), "
     "then A charges",
     "a:\n  charging: true\nb:\n  stand_and_shoot: true  # if it can shoot\n"
     "  shoots_first: true  # if it can shoot\n"},
    {"a-charges-b-defended", "A charges B in a defended position (infantry and artillery)",
     "a:\n  charging: true\nb:\n  position: defended  # infantry and artillery\n"},
};

static const wm_situation roles[] = {
    {true, ROLE_MELEE, ROLE_MELEE},
    {false, ROLE_MELEE, ROLE_MELEE},
    {true, ROLE_MELEE, ROLE_SHOOT_AT_CHARGER},
    {true, ROLE_SHOOT_FIRST, ROLE_MELEE},
    {true, ROLE_MELEE, ROLE_SHOOT_BOTH},
    {true, ROLE_MELEE, ROLE_DEFENDED},
};

_Static_assert(OM_WM_MATRIX_SITUATIONS == sizeof roles / sizeof roles[0],
               "one role row per situation");

/* Short name in this file. */
#define situations om_wm_matrix_situations_table

/* Kinds a matrix may run: a matchup's winner needs a fight. */
const char *const om_wm_matrix_kinds[] = {"engagement", "combat", NULL};

/* ----------------------------------------------------------- units */

/*
 * The unit `from: ARMY/UNIT` names with no key overridden (load.c, conv_unit):
 * the list's values, its size as stands and full strength, the common bow
 * range of 30 cm for a shooter the list gives none (Warmaster Revolution,
 * Range), and whether its army is one Zealots hate. tests/test_matrix.c
 * checks it against the loader for every unit of every army.
 */
static om_status wm_unit_of(const om_army *army, const om_army_unit *e, const om_wm_ruleset *rs,
                            om_wm_unit *u)
{
    om_status st = om_army_unit_to_wm(e, rs, u);
    if (st != OM_OK)
        return st;
    u->size = u->stands;
    if (u->range_cm == 0 && u->shots > 0)
        u->range_cm = OM_WM_DEFAULT_RANGE_CM;
    u->chaos_or_undead = om_wm_army_chaos_or_undead(army->id);
    return OM_OK;
}

/*
 * Whether unit u's values are ones the engine fights with: a unit against
 * itself in the open, neither charging, passes the engine's check (om_wm_engagement_check). If
 * not, `why` (of `cap` bytes) names the value, e.g. "hits must be 1 to 12 (got
 * 0)": an entry of the army data with a value missing.
 */
static bool unit_fights(const om_wm_unit *u, const om_wm_ruleset *rs, char *why, size_t cap)
{
    om_wm_engagement e;
    om_wm_check_failure f;
    memset(&e, 0, sizeof e);
    e.rules = rs;
    e.kind = OM_WM_KIND_COMBAT;
    om_wm_side_init(&e.side[0], u);
    om_wm_side_init(&e.side[1], u);
    if (om_wm_engagement_check(&e, &f) == OM_OK)
        return true;
    snprintf(why, cap, "%.60s %.130s",
             strncmp(f.field, "a.unit.", 7) == 0 ? f.field + 7 : f.field, f.reason);
    return false;
}

/* Add entry e of army `a`; `required`: an entry named in the list, which must
 * be a unit the engine fights with (not a character, mount or upgrade). */
static om_status add_unit(om_unit_list *l, const om_army *a, const om_army_unit *e,
                          const om_wm_ruleset *rs, bool required)
{
    om_wm_unit w, *data = NULL;
    om_game_unit *g;
    om_status st;
    char why[sizeof g->left_out] = "", id[sizeof g->id];
    if (om_army_type_is_character(e->type) || e->type == OM_ARMY_MOUNT || e->is_upgrade) {
        if (!required)
            return OM_OK;
        return OM_ERROR(OM_EINVAL, "%s/%s is %s%s, not a unit: a matrix rates units (a "
                        "character joins one with 'character:' in a scenario)", a->id, e->id,
                        e->is_upgrade ? "an upgrade" : "a ",
                        e->is_upgrade ? "" : om_army_type_name(e->type));
    }
    if ((st = wm_unit_of(a, e, rs, &w)) != OM_OK) {
        if (!required) {
            om_error_clear();
            return OM_OK;
        }
        return st;
    }
    if (!unit_fights(&w, rs, why, sizeof why)) {
        if (required)
            return OM_ERROR(OM_EINVAL, "%s/%s (%s lists %s): %s", a->id, e->id, a->ruleset,
                            a->list_version, why);
    }
    snprintf(id, sizeof id, "%s/%s", a->id, e->id);
    if ((st = om_unit_list_add(l, id, &g)) != OM_OK)
        return st;
    if (why[0] == '\0') {
        if ((data = malloc(sizeof *data)) == NULL) {
            l->n--;
            return OM_ERROR(OM_ENOMEM, "out of memory listing units");
        }
        *data = w;
    }
    snprintf(g->left_out, sizeof g->left_out, "%s", why);
    snprintf(g->name, sizeof g->name, "%s", w.name);
    snprintf(g->army, sizeof g->army, "%s", a->name);
    snprintf(g->troop, sizeof g->troop, "%s", om_wm_troop_name(w.troop));
    snprintf(g->data_version, sizeof g->data_version, "%s lists %s", a->ruleset,
             a->list_version);
    g->points = w.points;
    g->can_shoot = om_wm_unit_shoots(&w);
    g->data = data;
    return OM_OK;
}

/* Every troop unit of army `id`. */
static om_status add_army(om_unit_list *l, const char *ruleset, const char *id,
                          const om_wm_ruleset *rs)
{
    om_army *a = NULL;
    om_status st = om_army_load(ruleset, id, &a);
    size_t before = l->n;
    for (size_t i = 0; st == OM_OK && i < a->units_count; i++)
        st = add_unit(l, a, &a->units[i], rs, false);
    if (st == OM_OK && l->n == before)
        st = OM_ERROR(OM_EINVAL, "%s/%s has no unit the engine can fight with", ruleset, id);
    om_army_free(a);
    return st;
}

/* Unit `unit` of army `army`. */
static om_status add_named(om_unit_list *l, const char *ruleset, const char *army, const char *unit,
                           const om_wm_ruleset *rs)
{
    om_army *a = NULL;
    const om_army_unit *e = NULL;
    om_status st = om_army_load(ruleset, army, &a);
    if (st == OM_OK && (st = om_army_unit_lookup(a, unit, &e)) == OM_OK)
        st = add_unit(l, a, e, rs, true);
    om_army_free(a);
    return st;
}

/* Whether army `army` of the rule set has a unit `unit`. */
static bool army_has(const char *ruleset, const char *army, const char *unit)
{
    om_army *a = NULL;
    bool has = om_army_load(ruleset, army, &a) == OM_OK && om_army_unit_find(a, unit) != NULL;
    om_error_clear();
    om_army_free(a);
    return has;
}

/* One item of a list; `army` is the army of the previous ARMY/UNIT item ("" if
 * none), updated. */
static om_status add_item(om_unit_list *l, const char *ruleset, const om_wm_ruleset *rs,
                          const char *item, char *army, size_t army_cap)
{
    const char *slash = strchr(item, '/');
    if (strcmp(item, "all") == 0) {
        const om_army_ruleset *ars = om_army_ruleset_find(ruleset);
        om_status st = OM_OK;
        for (size_t i = 0; ars && st == OM_OK && i < om_army_count(ars); i++)
            st = add_army(l, ruleset, om_army_file_of(ars, i)->stem, rs);
        army[0] = '\0';
        return st;
    }
    if (slash != NULL) {
        snprintf(army, army_cap, "%.*s", (int)(slash - item), item);
        if (slash == item || slash[1] == '\0' || strchr(slash + 1, '/'))
            return OM_ERROR(OM_EINVAL, "'%s' is not ARMY/UNIT", item);
        return add_named(l, ruleset, army, slash + 1, rs);
    }
    if (army[0] != '\0' && army_has(ruleset, army, item))
        return add_named(l, ruleset, army, item, rs);
    army[0] = '\0';
    return add_army(l, ruleset, item, rs);
}

void om_wm_matrix_units_free(om_game_unit *units, size_t n)
{
    for (size_t i = 0; units != NULL && i < n; i++)
        free(units[i].data);
    free(units);
}

om_status om_wm_matrix_units(const char *ruleset, const char *spec, om_game_unit **units,
                             size_t *n)
{
    const om_wm_ruleset *rs = om_wm_ruleset_find(ruleset);
    om_unit_list l = {.units = *units, .n = *n, .cap = *n};
    char *copy, *save = NULL, army[64] = "";
    om_status st = OM_OK;
    if (rs == NULL)
        return OM_ERROR(OM_ENOTFOUND, "unknown rule set '%s' (oddsmaster list shows them)",
                        ruleset);
    if ((copy = strdup(spec)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory");
    if (spec[0] == '\0')
        st = OM_ERROR(OM_EINVAL, "an empty list: give ARMY, ARMY/UNIT,UNIT, ARMY,ARMY or all");
    for (char *item = strtok_r(copy, ",", &save); st == OM_OK && item;
         item = strtok_r(NULL, ",", &save))
        st = add_item(&l, ruleset, rs, item, army, sizeof army);
    free(copy);
    *units = l.units;
    *n = l.n;
    return st;
}

/* ----------------------------------------------------------- cells */

/* Whether unit u may charge: not a War Wagon, which fights in a formation
 * that cannot charge (Kislev lists; om_wm_side_init gives its formation). */
static bool can_charge(const om_wm_unit *u)
{
    om_wm_side side;
    om_wm_side_init(&side, u);
    return side.formation == OM_WM_FORMATION_NONE;
}

/* Whether unit u has a part in `r`, charging or not (see the top of the
 * file). */
static bool takes_part(const om_wm_unit *u, role r, bool charges)
{
    const bool shoots = om_wm_unit_shoots(u);
    if (charges && !can_charge(u))
        return false;
    switch (r) {
    case ROLE_MELEE: return u->troop != OM_WM_ARTILLERY;
    case ROLE_SHOOT_AT_CHARGER:
    case ROLE_SHOOT_BOTH: return shoots && !u->traits.no_stand_and_shoot;
    case ROLE_SHOOT_FIRST: return shoots;
    case ROLE_DEFENDED: return u->troop == OM_WM_INFANTRY;
    }
    return true;
}

/* What a side does in the cell, where its unit can: the keys of the
 * situation, less those it cannot use (no shooting without shots, no defended
 * position for cavalry), as scenario files and the engine see them. */
typedef struct side_keys {
    bool charging, stand_and_shoot, shoots_first, defended;
} side_keys;

static side_keys keys_of(const om_wm_unit *u, role r, bool charges)
{
    /* "Can shoot" for a matrix cell is the old rule kept exactly: shots in the
     * stat line, and not a unit that cannot shoot at chargers. */
    const bool shots = u->shots > 0 && !u->traits.no_stand_and_shoot;
    side_keys k = {.charging = charges && can_charge(u)};
    k.stand_and_shoot = (r == ROLE_SHOOT_AT_CHARGER || r == ROLE_SHOOT_BOTH) && shots;
    k.shoots_first = (r == ROLE_SHOOT_FIRST || r == ROLE_SHOOT_BOTH) && shots;
    k.defended = r == ROLE_DEFENDED &&
                 (u->troop == OM_WM_INFANTRY || u->troop == OM_WM_ARTILLERY);
    return k;
}

/* Side s of the cell's engagement: the unit, the defaults of a side
 * (om_wm_side_init, as the loader gives them), the situation's keys. */
static void cell_side(om_wm_engagement *e, int s, const om_wm_unit *u, side_keys k)
{
    om_wm_side *side = &e->side[s];
    om_wm_side_init(side, u);
    side->charging = k.charging;
    side->stand_and_shoot = k.stand_and_shoot;
    side->shoots_first = k.shoots_first;
    side->position = k.defended ? OM_WM_DEFENDED : OM_WM_OPEN;
}

/* The cell's scenario text: what `oddsmaster run` of it with the cell's seed
 * reproduces. */
static char *cell_text(const char *ruleset, const char *kind, size_t sit,
                       const om_game_unit *row, const om_game_unit *col, side_keys ka,
                       side_keys kb, const char *title, const om_game_setting *settings,
                       size_t n_settings, uint64_t seed, unsigned cannot)
{
    char *buf = NULL;
    size_t len = 0;
    bool ok = om_cell_preamble(&buf, &len, row, col, situations[sit].name, seed, cannot, title,
                               ruleset, kind, settings, n_settings) &&
              om_cell_appendf(&buf, &len, "a:\n  unit:\n    from: %s\n%s%s"
                              "b:\n  unit:\n    from: %s\n%s%s%s%s", row->id,
                              ka.charging ? "  charging: true\n" : "",
                              ka.shoots_first ? "  shoots_first: true\n" : "", col->id,
                              kb.charging ? "  charging: true\n" : "",
                              kb.stand_and_shoot ? "  stand_and_shoot: true\n" : "",
                              kb.shoots_first ? "  shoots_first: true\n" : "",
                              kb.defended ? "  position: defended\n" : "");
    if (!ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

om_status om_wm_matrix_cell(const char *ruleset, const char *kind, size_t sit,
                            const om_game_unit *row, const om_game_unit *col,
                            const om_game_setting *settings, size_t n_settings,
                            uint64_t seed, om_scenario **out, unsigned *cannot)
{
    const om_wm_unit *a = row->data, *b = col->data;
    const wm_situation *r = &roles[sit];
    const side_keys ka = keys_of(a, r->a, r->a_charges), kb = keys_of(b, r->b, !r->a_charges);
    om_wm_check_failure why;
    om_wm_scenario *ws = calloc(1, sizeof *ws);
    om_scenario *sc = calloc(1, sizeof *sc);
    char title[256], source[320];
    om_status st = OM_OK;
    unsigned k;

    *out = NULL;
    *cannot = (takes_part(a, r->a, r->a_charges) ? 0u : OM_GAME_ROW_CANNOT) |
              (takes_part(b, r->b, !r->a_charges) ? 0u : OM_GAME_COL_CANNOT);
    snprintf(title, sizeof title, "%s vs %s: %s", row->name, col->name, situations[sit].title);
    snprintf(source, sizeof source, "<matrix cell %s: %s vs %s>", situations[sit].name, row->id,
             col->id);
    if (ws == NULL || sc == NULL) {
        free(ws);
        free(sc);
        return OM_ERROR(OM_ENOMEM, "out of memory for a matrix cell");
    }
    sc->game = &om_game_warmaster;
    sc->setup = ws;
    ws->engagement.rules = om_wm_ruleset_find(ruleset);
    for (k = 0; k < OM_WM_KIND_COUNT && strcmp(om_wm_kind_names[k], kind) != 0; k++)
        ;
    if (ws->engagement.rules == NULL || k == OM_WM_KIND_COUNT)
        st = OM_ERROR(OM_EINVAL, "%s: rule set '%s' or kind '%s' unknown", source, ruleset, kind);
    if (st == OM_OK) {
        ws->engagement.kind = (om_wm_kind)k;
        cell_side(&ws->engagement, 0, a, ka);
        cell_side(&ws->engagement, 1, b, kb);
        st = om_cell_settings_apply(&om_game_warmaster, kind, &om_wm_option_registry,
                                    &ws->engagement.options, settings, n_settings);
    }
    if (st == OM_OK && om_wm_engagement_check(&ws->engagement, &why) != OM_OK)
        st = OM_ERROR(OM_EINVAL, "%s: field '%s': %s", source, why.field, why.reason);
    if (st == OM_OK &&
        ((sc->source = strdup(source)) == NULL || (sc->title = strdup(title)) == NULL ||
         (sc->text = cell_text(ruleset, kind, sit, row, col, ka, kb, title, settings,
                               n_settings, seed, *cannot)) == NULL ||
         (ws->source = strdup(source)) == NULL || (ws->title = strdup(title)) == NULL))
        st = OM_ERROR(OM_ENOMEM, "out of memory for a matrix cell");
    if (st == OM_OK && (ws->text = strdup(sc->text)) == NULL)
        st = OM_ERROR(OM_ENOMEM, "out of memory for a matrix cell");
    if (st == OM_OK) {
        sc->ruleset = ws->engagement.rules->name;
        sc->kind = om_wm_kind_names[k];
        st = om_wm_provenance_json(&ws->engagement, &sc->provenance_json);
    }
    if (st != OM_OK) {
        om_scenario_free(sc);
        return st;
    }
    *out = sc;
    return OM_OK;
}
