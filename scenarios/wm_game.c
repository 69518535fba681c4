/*
 * wm_game.c: the Warmaster family (Warmaster 1.1, Revolution, Ancients) as a
 * game of the game interface (game.h): its scenario loader (load.c), its
 * engine (engine/warmaster), the per-trial fields of its outcome and the
 * victory points of its units (Warmaster Revolution, Victory Points; the same
 * rule in 1.1 and Ancients).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "wm.h"
#include "wm_game_int.h"
#include "wm_provenance.h"
#include "wm_scenario.h"

/* Which kinds produce a field: bits (1 << om_wm_kind). */
#define COMBAT (1u << OM_WM_KIND_COMBAT)
#define VOLLEY (1u << OM_WM_KIND_VOLLEY)
#define ENGAGEMENT (1u << OM_WM_KIND_ENGAGEMENT)
#define FIGHT (COMBAT | ENGAGEMENT)
#define ALL (COMBAT | VOLLEY | ENGAGEMENT)

/* A field of om_wm_outcome and the kinds that produce it. */
typedef struct wm_field {
    om_field field; /* name, description, offset, type (title set per kind) */
    unsigned kinds; /* bits of the kinds that produce it */
} wm_field;

#define F(name, desc, member, type, kinds) \
    {{name, desc, NULL, offsetof(om_wm_outcome, member), type}, kinds}

/* Every per-trial field of a Warmaster trial, in dataset order. */
static const wm_field wm_fields[] = {
    F("winner", "Winner: of the first round (combat runs) or of the whole engagement "
      "(engagement runs): a, b, draw, or none (no contact, or unresolved at the turn limit).",
      winner, OM_FIELD_WINNER, FIGHT),
    F("round1_winner", "Winner of the first combat round: a, b, draw, or none (no contact).",
      round1_winner, OM_FIELD_WINNER, ENGAGEMENT),
    F("result_a", "Combat result of side A in round 1: hits counted, shooting hits at "
      "chargers, supports.", result[0], OM_FIELD_COUNT, FIGHT),
    F("result_b", "Combat result of side B in round 1: hits counted, shooting hits at "
      "chargers, supports.", result[1], OM_FIELD_COUNT, FIGHT),
    F("hits_on_a", "Hits suffered by unit A after armour saves, from all sources.",
      hits_on[0], OM_FIELD_COUNT, FIGHT),
    F("hits_on_b", "Hits suffered by unit B after armour saves, from all sources.",
      hits_on[1], OM_FIELD_COUNT, ALL),
    F("shot_hits_on_a", "Hits suffered by unit A from shooting.", shot_hits_on[0],
      OM_FIELD_COUNT, FIGHT),
    F("shot_hits_on_b", "Hits suffered by unit B from shooting.", shot_hits_on[1],
      OM_FIELD_COUNT, ALL),
    F("stands_lost_a", "Stands lost by unit A (all its stands if destroyed; in a volley, "
      "machines that blew up or shot themselves).", stands_lost[0], OM_FIELD_COUNT, ALL),
    F("stands_lost_b", "Stands lost by unit B (all its stands if destroyed or routed).",
      stands_lost[1], OM_FIELD_COUNT, ALL),
    F("retreat_cm", "Retreat distance of the first round's loser in cm (0 after a draw).",
      retreat_cm, OM_FIELD_COUNT, FIGHT),
    F("retreated_cm_a", "Total distance unit A retreated over the engagement, in cm.",
      retreated_cm[0], OM_FIELD_COUNT, ENGAGEMENT),
    F("retreated_cm_b", "Total distance unit B retreated over the engagement, in cm.",
      retreated_cm[1], OM_FIELD_COUNT, ENGAGEMENT),
    F("fall_back_cm_a", "After a draw, how far unit A fell back, in cm (0: it stood, or "
      "could not).", fall_back_cm[0], OM_FIELD_COUNT, ENGAGEMENT),
    F("fall_back_cm_b", "After a draw, how far unit B fell back, in cm (0: it stood, or "
      "could not).", fall_back_cm[1], OM_FIELD_COUNT, ENGAGEMENT),
    F("rounds", "Combat rounds fought.", rounds, OM_FIELD_COUNT, ENGAGEMENT),
    F("turns", "Turns the engagement lasted (1: resolved in the charge's turn).", turns,
      OM_FIELD_COUNT, ENGAGEMENT),
    F("charged", "1 if the charge made contact (not stopped by shooting first).", charged,
      OM_FIELD_FLAG, FIGHT),
    F("drive_back_cm", "Distance the shot unit was driven back, in cm (volley: unit B; "
      "shooting first: the charger); 255 if the drive back took it off the table (routed "
      "beyond its full pace, or over the table edge): further than any unit that stays, "
      "never the roll of a unit removed.", drive_back_cm, OM_FIELD_COUNT, ALL),
    F("confused_a", "1 if unit A ended confused (in a volley, by its own shooting); never "
      "for a unit destroyed or routed.", confused[0], OM_FIELD_FLAG, ALL),
    F("confused_b", "1 if unit B ended confused; never for a unit destroyed or routed.",
      confused[1], OM_FIELD_FLAG, ALL),
    F("routed_a", "1 if unit A was routed by a drive back (shot before it charged); a routed "
      "unit is also destroyed.", routed[0], OM_FIELD_FLAG, FIGHT),
    F("routed_b", "1 if unit B was routed: driven back beyond its full pace (and so "
      "destroyed).", routed[1],
      OM_FIELD_FLAG, ALL),
    F("destroyed_a", "1 if unit A was destroyed (any cause; in a volley, by its own "
      "shooting).", destroyed[0], OM_FIELD_FLAG, ALL),
    F("destroyed_b", "1 if unit B was destroyed (any cause, including rout).", destroyed[1],
      OM_FIELD_FLAG, ALL),
    F("hurt_a", "1 if unit A, a big monster, ended badly hurt (Hits and Attacks halved).",
      hurt[0], OM_FIELD_FLAG, FIGHT),
    F("hurt_b", "1 if unit B, a big monster, ended badly hurt (Hits and Attacks halved).",
      hurt[1], OM_FIELD_FLAG, ALL),
};

#undef F

#define WM_FIELD_COUNT (sizeof wm_fields / sizeof wm_fields[0])
_Static_assert(WM_FIELD_COUNT <= OM_LAYOUT_FIELDS_MAX, "the Warmaster fields fit a layout");

/* The field whose value decides the victory points each side loses. */
static const char *const loss_field_name[2] = {"stands_lost_a", "stands_lost_b"};

/* Rule sets, and kinds in om_wm_kind order. */
static const char *const wm_rulesets[] = {"warmaster-1.1", "warmaster-revolution",
                                          "warmaster-ancients", NULL};
static const om_game_kind wm_kinds[] = {
    {"combat", "stand and shoot, then the first combat round"},
    {"volley", "side A shoots at side B in the Shooting phase"},
    {"engagement", "the whole fight: rounds, pursuits and turns to the end"},
};
_Static_assert(sizeof wm_kinds / sizeof wm_kinds[0] == OM_WM_KIND_COUNT, "one entry per kind");

/* The engagement of a loaded Warmaster scenario. */
static const om_wm_engagement *engagement_of(const om_scenario *sc)
{
    return &((const om_wm_scenario *)sc->setup)->engagement;
}

/* One warning line per unit that carries special rules the engine does not
 * model yet (from its army list or its joined character), or NULL. */
static om_status unmodelled_warnings(const om_wm_engagement *e, char **out)
{
    size_t len = 0;
    char *text = NULL;
    *out = NULL;
    for (int pass = 0; pass < 2; pass++) {
        size_t at = 0;
        for (int i = 0; i < 2; i++) {
            const om_wm_unit *u = &e->side[i].unit;
            if (u->unmodelled[0] == '\0')
                continue;
            at += (size_t)snprintf(text ? text + at : NULL, text ? len + 1 - at : 0,
                                   "%s: special rules not modelled yet: %s\n", u->name,
                                   u->unmodelled);
        }
        if (at == 0)
            return OM_OK;
        if (pass == 0 && (text = malloc((len = at) + 1)) == NULL)
            return OM_ERROR(OM_ENOMEM, "out of memory");
    }
    *out = text;
    return OM_OK;
}

static om_status wm_load(om_scenario *sc)
{
    om_wm_scenario *ws = NULL;
    const om_wm_engagement *e;
    om_status st = om_wm_scenario_load_text(sc->source, sc->text, strlen(sc->text), &ws);
    if (st != OM_OK)
        return st;
    sc->setup = ws;
    e = &ws->engagement;
    sc->ruleset = e->rules->name;
    sc->kind = om_wm_kind_names[e->kind];
    if ((sc->title = strdup(ws->title)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", sc->source);
    if ((st = om_wm_provenance_json(e, &sc->provenance_json)) != OM_OK)
        return st;
    return unmodelled_warnings(e, &sc->warnings);
}

static void wm_setup_free(void *setup)
{
    om_wm_scenario_free(setup);
}

/* Side s's victory points: a function of the stands it lost (the rule is the
 * engine's: om_wm_victory_points_lost). */
static void side_score(const om_layout *l, const om_wm_unit *u, int s, om_side_score *sc)
{
    const unsigned size = om_wm_unit_size(u);
    sc->name = u->name;
    sc->points = u->points;
    sc->loss_field = u->points > 0 ? om_layout_find(l, loss_field_name[s]) : -1;
    sc->loss_unit = "stands";
    sc->loss_start = u->stands;
    for (unsigned k = 0; k <= u->stands; k++)
        sc->vp_lost[k] = om_wm_victory_points_lost(u->points, size, u->stands, k);
}

/* The layout of a Warmaster trial of kind `kind`: the fields it produces, the
 * heading of each outcome table, the sides' victory points. */
static void wm_layout(const om_wm_engagement *e, om_layout *l)
{
    const unsigned mask = 1u << e->kind;
    memset(l, 0, sizeof *l);
    l->row_size = sizeof(om_wm_outcome);
    for (size_t i = 0; i < WM_FIELD_COUNT; i++) {
        om_field *f;
        if ((wm_fields[i].kinds & mask) == 0)
            continue;
        f = &l->fields[l->field_count++];
        *f = wm_fields[i].field;
        if (strcmp(f->name, "winner") == 0)
            f->title = e->kind == OM_WM_KIND_ENGAGEMENT ? "Outcome of the engagement"
                                                         : "Outcome";
        else if (strcmp(f->name, "round1_winner") == 0)
            f->title = "First round";
    }
    for (int s = 0; s < 2; s++)
        side_score(l, &e->side[s].unit, s, &l->side[s]);
    l->points_rule = "destroyed: full value; 3+ stands reduced to 1: half,\nrounded up to 5";
}

static om_status wm_prepare(const om_scenario *sc, om_trials *out)
{
    om_wm_prepared *p = NULL;
    om_status st = om_wm_prepare_alloc(engagement_of(sc), &p);
    if (st != OM_OK)
        return st;
    out->prepared = p;
    wm_layout(engagement_of(sc), &out->layout);
    {
        const om_wm_outcome *classes;
        om_wm_classes(p, &classes, &out->n_classes);
        out->class_rows = (const uint8_t *)classes;
    }
    return OM_OK;
}

static void wm_release(om_trials *t)
{
    om_wm_prepared_free(t->prepared);
}

static void wm_resolve_block(const void *prepared, om_dice *d, uint8_t *rows, size_t n)
{
    /* An outcome is a struct of bytes: rows hold them back to back. */
    om_wm_outcome *out = (om_wm_outcome *)(void *)rows;
    for (size_t i = 0; i < n; i++)
        om_wm_resolve(prepared, d, &out[i]);
}

static void wm_resolve_classes(const void *prepared, om_dice *d, uint8_t *rows, uint16_t *cls,
                               bool class_rows, size_t n)
{
    om_wm_resolve_classes(prepared, d, (om_wm_outcome *)(void *)rows, cls, class_rows, n);
}

_Static_assert(_Alignof(om_wm_outcome) == 1, "outcomes are bytes, so any row address fits");
_Static_assert(OM_WM_NO_CLASS == OM_LAYOUT_NO_CLASS, "the engine's trials of no class are the "
               "tally's");
_Static_assert(OM_WM_CLASSES_MAX <= OM_LAYOUT_CLASSES_MAX, "the tally counts every class");

const om_game om_game_warmaster = {
    .name = "warmaster",
    .title = "Warmaster (1.1, Revolution, Ancients)",
    .rulesets = wm_rulesets,
    .kinds = wm_kinds,
    .n_kinds = OM_WM_KIND_COUNT,
    .load = wm_load,
    .setup_free = wm_setup_free,
    .prepare = wm_prepare,
    .release = wm_release,
    .resolve_block = wm_resolve_block,
    .resolve_classes = wm_resolve_classes,
    .situations = om_wm_matrix_situations_table,
    .n_situations = OM_WM_MATRIX_SITUATIONS,
    .n_default_situations = 2,
    .matrix_kinds = om_wm_matrix_kinds,
    .units = om_wm_matrix_units,
    .units_free = om_wm_matrix_units_free,
    .cell = om_wm_matrix_cell,
};
