/*
 * wm_game.c: the Warmaster family (Warmaster 1.1, Revolution, Ancients) as a
 * game of the game interface (game.h): its scenario loaders (load.c, and
 * wm_turn_load.c for kind turn), its engine (engine/warmaster), the per-trial
 * fields of its outcome and the victory points of its units (Warmaster
 * Revolution, End of the Battle > Victory Points; the same rule in 1.1 and
 * Ancients). A turn's layout is built when it is prepared: a few fields of the
 * turn, and per-unit results (layout.h): unit fields such as charged, one
 * value per unit of the table and trial, which the result file keeps as
 * trial x unit datasets beside a table of the units (/units).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "wm.h"
#include "wm_armylist.h"
#include "wm_battle.h"
#include "wm_game_int.h"
#include "wm_keys.h"
#include "wm_narrate.h"
#include "wm_provenance.h"
#include "wm_scenario.h"
#include "wm_turn_scenario.h"
#include "yaml_int.h"

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

#define F(name_, desc, member, type_, kinds_)                                                   \
    {.field = {.name = name_, .description = desc, .offset = offsetof(om_wm_outcome, member),    \
               .type = type_},                                                                   \
     .kinds = kinds_}

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
const char *const om_wm_game_rulesets[OM_WM_GAME_RULESETS + 1] = {
    "warmaster-1.1", "warmaster-revolution", "warmaster-ancients", NULL};
/* The kind names of a whole turn and of a battle (not om_wm_kinds: each has
 * its own loader). */
#define TURN_KIND "turn"
#define BATTLE_KIND "battle"
const char *const om_wm_game_kind_names[OM_WM_GAME_KINDS + 1] = {"combat", "volley",
                                                                 "engagement", TURN_KIND,
                                                                 BATTLE_KIND, NULL};
/* The same kinds, described, each with a sample scenario (test_corpus.c checks
 * that the names agree, and that a file of each kind loads as that kind). */
static const om_game_kind wm_kinds[OM_WM_GAME_KINDS] = {
    {"combat", "stand and shoot, then the first combat round",
     "schema: oddsmaster-scenario/1\n"
     "title: Knights charge Halberdiers\n"
     "ruleset: warmaster-revolution\n"
     "kind: combat\n"
     "a:\n"
     "  unit: {from: empire/knights}\n"
     "  charging: true\n"
     "b:\n"
     "  unit: {from: empire/halberdiers}\n"
     "  fighting: 3\n"},
    {"volley", "side A shoots at side B in the Shooting phase",
     "schema: oddsmaster-scenario/1\n"
     "title: Handgunners shoot at Orc Warriors\n"
     "ruleset: warmaster-revolution\n"
     "kind: volley\n"
     "a:\n"
     "  unit: {from: empire/handgunners}\n"
     "  shooting: 3\n"
     "b:\n"
     "  unit: {from: orcs/orc-warriors}\n"},
    {"engagement", "the whole fight: rounds, pursuits and turns to the end",
     "schema: oddsmaster-scenario/1\n"
     "title: German Cavalry charge a Roman Legion, to the end\n"
     "ruleset: warmaster-ancients\n"
     "kind: engagement\n"
     "a:\n"
     "  unit: {from: german/cavalry}\n"
     "  charging: true\n"
     "b:\n"
     "  unit: {from: imperial-roman/legion}\n"},
    {TURN_KIND, "a whole turn of one side: Command, Shooting and Combat phases over its units",
     "schema: oddsmaster-scenario/1\n"
     "title: Knights charge Orc Warriors in a turn\n"
     "ruleset: warmaster-revolution\n"
     "kind: turn\n"
     "moving: a\n"
     "a:\n"
     "  name: Empire\n"
     "  units:\n"
     "    - id: knights\n"
     "      unit: {from: empire/knights}\n"
     "      at: [80, 20]\n"
     "      plan: {kind: charge, target: orc_warriors, by: general}\n"
     "  characters:\n"
     "    - {id: general, from: empire/general, at: [90, 12]}\n"
     "b:\n"
     "  name: Orcs\n"
     "  units:\n"
     "    - id: orc_warriors\n"
     "      unit: {from: orcs/orc-warriors}\n"
     "      at: [80, 50]\n"},
    {BATTLE_KIND, "a whole battle: two army lists deployed and fought turn by turn to the end",
     "schema: oddsmaster-scenario/1\n"
     "title: Steel and shot against the green horde\n"
     "ruleset: warmaster-revolution\n"
     "kind: battle\n"
     "a: {list: revolution-empire-steel-and-shot, doctrine: default}\n"
     "b: {list: revolution-orcs-horde, doctrine: default}\n"
     "length: d6-6-7-8\n"},
};

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

/* One warning line per unit of a turn that carries rules the engine does not
 * model yet, or NULL. */
static om_status turn_warnings(const om_wm_turn_scenario *ts, char **out)
{
    size_t len = 0;
    char *text = NULL;
    *out = NULL;
    for (int pass = 0; pass < 2; pass++) {
        size_t at = 0;
        for (unsigned u = 0; u < ts->turn.table.units; u++) {
            const om_wm_unit *x = &ts->turn.unit[u].side.unit;
            if (x->unmodelled[0] == '\0')
                continue;
            at += (size_t)snprintf(text ? text + at : NULL, text ? len + 1 - at : 0,
                                   "%s (%s): special rules not modelled yet: %s\n", x->name,
                                   ts->id[u], x->unmodelled);
        }
        if (at == 0)
            return OM_OK;
        if (pass == 0 && (text = malloc((len = at) + 1)) == NULL)
            return OM_ERROR(OM_ENOMEM, "out of memory");
    }
    *out = text;
    return OM_OK;
}

/* Which loader reads a scenario text. */
typedef enum text_loader { LOADER_ENGAGEMENT = 0, LOADER_TURN, LOADER_BATTLE } text_loader;

/*
 * The loader of a scenario text, from its top-level `kind`: turn and battle
 * have their own, load.c reads the others. A kind that is no kind of the game
 * is refused here, with every kind listed: the loaders' schemas differ, so
 * another loader would first refuse the keys of the kind meant (a turn's
 * `units` for a misspelt turn). Errors: OM_EPARSE.
 */
static om_status text_loader_of(const om_scenario *sc, text_loader *loader)
{
    const om_yaml_ctx c = {.source = sc->source, .text = sc->text, .len = strlen(sc->text)};
    char known[OM_YAML_REASON_MAX / 2];
    const char *best;
    om_yaml_walk w;
    *loader = LOADER_ENGAGEMENT;
    om_yaml_walk_run(&w, c.text, c.len, "", "kind");
    if (!w.found || w.value_type != YAML_SCALAR_EVENT)
        return OM_OK;
    for (size_t k = 0; k < OM_WM_GAME_KINDS; k++)
        if (strcmp(w.value, om_wm_game_kind_names[k]) == 0) {
            *loader = strcmp(w.value, TURN_KIND) == 0     ? LOADER_TURN
                      : strcmp(w.value, BATTLE_KIND) == 0 ? LOADER_BATTLE
                                                          : LOADER_ENGAGEMENT;
            return OM_OK;
        }
    om_yaml_join_names(known, sizeof known, om_wm_game_kind_names, OM_WM_GAME_KINDS);
    best = om_suggest(w.value, om_wm_game_kind_names, OM_WM_GAME_KINDS);
    return om_yaml_fail_at(&c, OM_EPARSE, w.line, NULL, "kind",
                           "unknown kind '%s'; %s%s%sexpected one of: %s", w.value,
                           best ? "did you mean '" : "", best ? best : "", best ? "'? " : "",
                           known);
}

/* Load a scenario of kind battle. */
static om_status battle_load(om_scenario *sc)
{
    om_wm_scenario *ws = NULL;
    om_status st = om_wm_battle_scenario_load_text(sc->source, sc->text, strlen(sc->text), &ws);
    if (st != OM_OK)
        return st;
    sc->setup = ws;
    sc->ruleset = ws->battle->turn.rules->name;
    sc->kind = BATTLE_KIND;
    if ((sc->title = strdup(ws->title)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", sc->source);
    if ((st = om_wm_battle_provenance_json(ws->battle, &sc->provenance_json)) != OM_OK)
        return st;
    return om_wm_battle_unmodelled(ws->battle, &sc->warnings, &sc->provenance_json);
}

/* Load a scenario of kind turn. */
static om_status turn_load(om_scenario *sc)
{
    om_wm_scenario *ws = NULL;
    om_status st = om_wm_turn_scenario_load_text(sc->source, sc->text, strlen(sc->text), &ws);
    if (st != OM_OK)
        return st;
    sc->setup = ws;
    sc->ruleset = ws->turn->turn.rules->name;
    sc->kind = TURN_KIND;
    if ((sc->title = strdup(ws->title)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", sc->source);
    if ((st = om_wm_provenance_turn_json(ws->turn, &sc->provenance_json)) != OM_OK)
        return st;
    return turn_warnings(ws->turn, &sc->warnings);
}

static om_status wm_load(om_scenario *sc)
{
    om_wm_scenario *ws = NULL;
    const om_wm_engagement *e;
    text_loader loader;
    om_status st;
    if ((st = text_loader_of(sc, &loader)) != OM_OK)
        return st;
    if (loader == LOADER_TURN)
        return turn_load(sc);
    if (loader == LOADER_BATTLE)
        return battle_load(sc);
    st = om_wm_scenario_load_text(sc->source, sc->text, strlen(sc->text), &ws);
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

/* ---- Whole turns ---- */

/* The fields of a unit of a turn, and the turn's own. */
#define TURN_UNIT_FIELDS 11
#define TURN_FIELDS 5

/* What a turn's field holds: the turn's own, or one of a unit's. */
typedef enum turn_value {
    TV_GENERAL_ORDERS = 0, TV_VP_A, TV_VP_B, TV_ENGAGEMENTS, TV_UNRESOLVED,
    TV_ORDERED, TV_ORDERS, TV_MOVED, TV_CHARGED, TV_SHOT_AT, TV_ENGAGED, TV_STILL_ENGAGED,
    TV_STANDS_LOST, TV_CONFUSED, TV_ROUTED, TV_DESTROYED
} turn_value;

/* How a unit field's largest value is known. */
typedef enum turn_max {
    TM_FLAG = 0, /* 1 */
    TM_ORDERS,   /* the most orders a unit takes (Command > Giving an Order) */
    TM_STANDS    /* the most stands a unit of the table has */
} turn_max;

/* A field of a turn: its value, its name, its type and its description. The
 * first TURN_FIELDS are the turn's (one value a trial), the others a unit's
 * (one value per unit of the table and trial: the file's /units). */
static const struct {
    turn_value value;
    const char *name;
    om_field_type type;
    turn_max max;
    const char *description;
} turn_fields[TURN_FIELDS + TURN_UNIT_FIELDS] = {
    {.value = TV_GENERAL_ORDERS, .name = "general_orders", .type = OM_FIELD_COUNT,
     .description = "Orders the moving side's General passed before his first failure: P(>= k) "
                    "is the probability that his chain of orders reached order k."},
    {.value = TV_VP_A, .name = "vp_lost_a", .type = OM_FIELD_COUNT16,
     .description = "Victory points side A lost in the turn (a destroyed unit its points, a unit "
                    "of 3+ stands reduced to 1 half of them, rounded up to 5)."},
    {.value = TV_VP_B, .name = "vp_lost_b", .type = OM_FIELD_COUNT16,
     .description = "Victory points side B lost in the turn (a destroyed unit its points, a unit "
                    "of 3+ stands reduced to 1 half of them, rounded up to 5)."},
    {.value = TV_ENGAGEMENTS, .name = "engagements", .type = OM_FIELD_COUNT,
     .description = "Engagements fought in the Combat phase."},
    {.value = TV_UNRESOLVED, .name = "unresolved", .type = OM_FIELD_COUNT,
     .description = "Engagements left unresolved after the Combat phase (they go on next turn)."},
    {.value = TV_ORDERED, .name = "ordered", .type = OM_FIELD_FLAG, .max = TM_FLAG,
     .description = "1 if the unit passed at least one order (always 0 for a unit of the side "
                    "that does not move)."},
    {.value = TV_ORDERS, .name = "orders", .type = OM_FIELD_COUNT, .max = TM_ORDERS,
     .description = "Orders the unit passed in the Command phase (always 0 for a unit of the "
                    "side that does not move)."},
    {.value = TV_MOVED, .name = "moved", .type = OM_FIELD_FLAG, .max = TM_FLAG,
     .description = "1 if the unit moved in the Command phase (always 0 for a unit of the side "
                    "that does not move)."},
    {.value = TV_CHARGED, .name = "charged", .type = OM_FIELD_FLAG, .max = TM_FLAG,
     .description = "1 if the unit charged (always 0 for a unit of the side that does not "
                    "move)."},
    {.value = TV_SHOT_AT, .name = "shot_at", .type = OM_FIELD_FLAG, .max = TM_FLAG,
     .description = "1 if the moving side shot at the unit in its Shooting phase."},
    {.value = TV_ENGAGED, .name = "engaged", .type = OM_FIELD_FLAG, .max = TM_FLAG,
     .description = "1 if the unit fought or supported in the Combat phase."},
    {.value = TV_STILL_ENGAGED, .name = "still_engaged", .type = OM_FIELD_FLAG, .max = TM_FLAG,
     .description = "1 if the unit is still engaged after the Combat phase (an unresolved "
                    "combat, which goes on next turn)."},
    {.value = TV_STANDS_LOST, .name = "stands_lost", .type = OM_FIELD_COUNT, .max = TM_STANDS,
     .description = "Stands the unit lost in the turn (all of them if destroyed)."},
    {.value = TV_CONFUSED, .name = "confused", .type = OM_FIELD_FLAG, .max = TM_FLAG,
     .description = "1 if the unit is confused at the end of the turn (never a destroyed "
                    "unit)."},
    {.value = TV_ROUTED, .name = "routed", .type = OM_FIELD_FLAG, .max = TM_FLAG,
     .description = "1 if the unit was routed by a drive back (it is destroyed too)."},
    {.value = TV_DESTROYED, .name = "destroyed", .type = OM_FIELD_FLAG, .max = TM_FLAG,
     .description = "1 if the unit was destroyed."},
};

/* Bytes of a turn's own fields at the start of its row: three one-byte
 * counts and two two-byte ones. */
#define TURN_OWN_BYTES 7

/* A turn prepared for its trials, with its layout's units. */
typedef struct wm_turn_prepared {
    om_wm_turn_prepared *turn;               /* the engine's prepared turn */
    size_t row_size;                         /* bytes of a row */
    size_t units;                            /* units of the table */
    om_layout_unit unit[OM_WM_TABLE_MAX_UNITS]; /* the layout's units (strings: the
                                                   scenario's) */
} wm_turn_prepared;

/* What the game's prepared scenarios are: an engagement, a turn or a battle. */
typedef struct wm_prepared {
    om_wm_prepared *engagement;    /* kinds combat, volley, engagement; else NULL */
    wm_turn_prepared *turn;        /* kind turn; else NULL */
    om_wm_battle_prepared *battle; /* kind battle; else NULL */
    om_layout_unit battle_unit[OM_WM_TABLE_MAX_UNITS]; /* a battle's units, for its layout */
    size_t battle_units;           /* ...how many */
    size_t battle_row_size;        /* bytes of a battle's row */
    bool battle_scenario;          /* a battle fought as a scenario: its rows end with
                                      each side's scenario points (battle_scenario_fields) */
} wm_prepared;

/* ---- Battles ---- */

/* A battle's row: the battle's fields, bytes (two for each side's victory
 * points, least significant first). */
enum {
    BR_WINNER = 0, BR_LEVEL, BR_END, BR_TURNS, BR_FIRST, BR_WITHDREW_A, BR_WITHDREW_B,
    BR_UNITS_LOST_A, BR_UNITS_LOST_B, BR_VP_A, BR_VP_B = BR_VP_A + 2, BR_DEPLOYMENT = BR_VP_B + 2,
    BR_SIZE
};

static const om_field battle_fields[] = {
    {.name = "winner", .type = OM_FIELD_WINNER, .offset = BR_WINNER,
     .title = "Outcome of the battle",
     .description = "Who won the battle (End of the Battle > Victory Points: the most victory "
                    "points; an army that withdrew at best draws): a, b or draw."},
    {.name = "level", .type = OM_FIELD_COUNT, .offset = BR_LEVEL,
     .description = "How decisive: 0 draw, 1 more victory points with no army withdrawing, 2 "
                    "minor (forced a withdrawal), 3 major (and lost no more than half its own "
                    "break point), 4 massacre (no more than a quarter)."},
    {.name = "end", .type = OM_FIELD_COUNT, .offset = BR_END,
     .description = "How the battle ended: 0 its length, 1 an army at its break point, 2 a "
                    "General slain, 3 a player's scenario points (Battlefields' scenarios: "
                    "10)."},
    {.name = "turns", .type = OM_FIELD_COUNT, .offset = BR_TURNS,
     .description = "Battle turns begun (both sides' turns; a withdrawal may end the last "
                    "early)."},
    {.name = "first", .type = OM_FIELD_FLAG, .offset = BR_FIRST,
     .description = "The side that took the first turn: 0 side A, 1 side B."},
    /* Only in the layout of a battle that draws its deployment (battle_layout). */
    {.name = "deployment", .type = OM_FIELD_FLAG, .offset = BR_DEPLOYMENT,
     .description = "The side the deployment's roll, drawn for this battle, favoured: 0 side "
                    "A, 1 side B (alternate: the side placing first; one-side-first: the side "
                    "deploying first; scouting: the scouting roll's winner)."},
    {.name = "withdrew_a", .type = OM_FIELD_FLAG, .offset = BR_WITHDREW_A,
     .description = "1 if side A's army withdrew (its break point, or its General slain)."},
    {.name = "withdrew_b", .type = OM_FIELD_FLAG, .offset = BR_WITHDREW_B,
     .description = "1 if side B's army withdrew (its break point, or its General slain)."},
    {.name = "units_lost_a", .type = OM_FIELD_COUNT, .offset = BR_UNITS_LOST_A,
     .description = "Units side A lost (destroyed)."},
    {.name = "units_lost_b", .type = OM_FIELD_COUNT, .offset = BR_UNITS_LOST_B,
     .description = "Units side B lost (destroyed)."},
    {.name = "vp_a", .type = OM_FIELD_COUNT16, .offset = BR_VP_A,
     .description = "Victory points side A scored (units destroyed, units of 3+ stands reduced "
                    "to 1 half, characters slain)."},
    {.name = "vp_b", .type = OM_FIELD_COUNT16, .offset = BR_VP_B,
     .description = "Victory points side B scored (units destroyed, units of 3+ stands reduced "
                    "to 1 half, characters slain)."},
};

/* A battle fought as a scenario (objective.h): each side's scenario points, in
 * two bytes after the units' fields; only in such a battle's layout, so that
 * the rows of every other battle stay as they were. */
enum { BS_VP_A = 0, BS_VP_B, BS_SIZE };

static const om_field battle_scenario_fields[BS_SIZE] = {
    [BS_VP_A] = {.name = "scenario_vp_a", .type = OM_FIELD_COUNT,
                 .description = "Scenario victory points side A scored (Take and Hold's "
                                "objectives, Battle for the Tower's tower, 2 for forcing the "
                                "enemy to withdraw), which decide the winner and level of a "
                                "scenario battle: a difference of 1-2 minor, 3-5 major, 6+ "
                                "massacre."},
    [BS_VP_B] = {.name = "scenario_vp_b", .type = OM_FIELD_COUNT,
                 .description = "Scenario victory points side B scored (as scenario_vp_a)."},
};

/* A battle's per-unit fields: after the battle's own bytes, each field's
 * value for every unit of the table in table order. The victory points a unit
 * gave up and scored pass 255: each is a low byte and a high byte
 * (om_layout.unit_points_field, value = low + 256 * high). */
enum {
    BU_STANDS_LOST = 0, BU_DESTROYED, BU_VP_GIVEN, BU_VP_GIVEN_HI, BU_VP_SCORED, BU_VP_SCORED_HI,
    BU_FIELDS
};

/* The largest value of a low byte. */
#define BYTE_MAX 255u

static const om_field battle_unit_fields[BU_FIELDS] = {
    [BU_STANDS_LOST] = {.name = "stands_lost", .type = OM_FIELD_COUNT,
                        .description = "Stands the unit lost over the battle (all of them if "
                                       "destroyed)."},
    [BU_DESTROYED] = {.name = "destroyed", .type = OM_FIELD_FLAG, .max = 1,
                      .description = "1 if the unit was destroyed."},
    [BU_VP_GIVEN] = {.name = "vp_given", .type = OM_FIELD_COUNT, .max = BYTE_MAX,
                     .description = "Victory points the enemy scored for the unit (End of the "
                                    "Battle > Victory Points: its points destroyed, half "
                                    "rounded up to 5 for a unit of 3+ stands reduced to 1, and "
                                    "the points of characters slain with it), low byte: the "
                                    "value is vp_given + 256 * vp_given_hi."},
    [BU_VP_GIVEN_HI] = {.name = "vp_given" OM_LAYOUT_HIGH_SUFFIX, .type = OM_FIELD_COUNT,
                        .description = "High byte of vp_given (the value is vp_given + 256 * "
                                       "vp_given_hi)."},
    [BU_VP_SCORED] = {.name = "vp_scored", .type = OM_FIELD_COUNT, .max = BYTE_MAX,
                      .description = "Victory points the unit scored: of each enemy unit's "
                                     "vp_given, its share in proportion to the stands of that "
                                     "unit it removed (shooting: by unsaved hits; combat: by "
                                     "its stands fighting the unit), in whole points; a side's "
                                     "units' vp_scored sum to its victory points but for losses "
                                     "no enemy caused. Low byte: the value is vp_scored + 256 "
                                     "* vp_scored_hi."},
    [BU_VP_SCORED_HI] = {.name = "vp_scored" OM_LAYOUT_HIGH_SUFFIX, .type = OM_FIELD_COUNT,
                         .description = "High byte of vp_scored (the value is vp_scored + 256 * "
                                        "vp_scored_hi)."},
};

/* Battles a block of a run holds: a battle takes milliseconds where an
 * engagement takes nanoseconds, so a block of the driver's default size
 * (16,384) would leave a run of a few thousand battles to one thread and keep
 * Ctrl-C waiting a minute; a block of 1,024 is a few seconds of one core. */
#define BATTLE_BLOCK_TRIALS 1024u

/* The layout of a battle: its fields, each unit's, each army's name and
 * points. The units' strings are the scenario's, which outlives its trials. */
static void battle_layout(const om_wm_battle_scenario *b, wm_prepared *p, om_layout *l)
{
    const om_wm_table *t = &b->turn.table;
    const size_t n = t->units;
    unsigned stands = 1;
    memset(l, 0, sizeof *l);
    for (size_t i = 0; i < sizeof battle_fields / sizeof battle_fields[0]; i++)
        if (battle_fields[i].offset != BR_DEPLOYMENT || om_wm_battle_draws_deployment(p->battle))
            l->fields[l->field_count++] = battle_fields[i];
    for (size_t u = 0; u < n; u++) {
        stands = t->unit[u].size > stands ? t->unit[u].size : stands;
        p->battle_unit[u] = (om_layout_unit){.id = b->id[u], .name = t->unit[u].name,
                                             .army = b->list[t->unit[u].side]->name,
                                             .side = t->unit[u].side,
                                             .points = b->turn.unit[u].side.unit.points};
    }
    /* No unit gives up or scores more than an army's points (its own, its
     * characters' and their items', as the list counts them): the high
     * bytes' largest value. */
    const uint32_t most = b->list[0]->points > b->list[1]->points ? b->list[0]->points
                                                                  : b->list[1]->points;
    for (size_t f = 0; f < BU_FIELDS; f++) {
        l->unit_fields[f] = battle_unit_fields[f];
        l->unit_fields[f].offset = BR_SIZE + f * n;
        if (f == BU_STANDS_LOST)
            l->unit_fields[f].max = stands;
        if (f == BU_VP_GIVEN_HI || f == BU_VP_SCORED_HI)
            l->unit_fields[f].max = most >> 8 > 0 ? most >> 8 : 1;
    }
    l->unit_field_count = BU_FIELDS;
    l->unit_count = n;
    l->units = p->battle_unit;
    l->unit_stride = 1;
    p->battle_units = n;
    l->row_size = p->battle_row_size = BR_SIZE + BU_FIELDS * n;
    p->battle_scenario = b->options.scenario.kind != OM_WM_SCENARIO_NONE;
    if (p->battle_scenario) {
        for (size_t f = 0; f < BS_SIZE; f++) {
            l->fields[l->field_count] = battle_scenario_fields[f];
            l->fields[l->field_count++].offset = p->battle_row_size + f;
        }
        l->row_size = p->battle_row_size += BS_SIZE;
    }
    l->block_trials = BATTLE_BLOCK_TRIALS;
    for (int s = 0; s < 2; s++) {
        l->side[s].name = b->list[s]->name;
        l->side[s].points = b->list[s]->points;
        l->side[s].loss_field = -1;
    }
    l->points_rule = "destroyed: full value; 3+ stands reduced to 1: half,\nrounded up to 5";
    l->score_field[0] = "vp_a";
    l->score_field[1] = "vp_b";
    l->unit_lost_field = battle_unit_fields[BU_DESTROYED].name;
    l->unit_points_field[0] = battle_unit_fields[BU_VP_GIVEN].name;
    l->unit_points_field[1] = battle_unit_fields[BU_VP_SCORED].name;
}

/* A battle's row from its result (n units on the table; with `scenario`, each
 * side's scenario points after the units' fields). */
static void battle_row(const om_wm_battle_result *r, size_t n, bool scenario, uint8_t *row)
{
    if (scenario)
        for (unsigned s = 0; s < 2; s++)
            row[BR_SIZE + BU_FIELDS * n + BS_VP_A + s] =
                (uint8_t)(r->scenario_vp[s] < BYTE_MAX ? r->scenario_vp[s] : BYTE_MAX);
    for (size_t u = 0; u < n; u++) {
        row[BR_SIZE + BU_STANDS_LOST * n + u] = r->stands_lost[u];
        row[BR_SIZE + BU_DESTROYED * n + u] = r->destroyed[u];
        row[BR_SIZE + BU_VP_GIVEN * n + u] = (uint8_t)(r->vp_given[u] & BYTE_MAX);
        row[BR_SIZE + BU_VP_GIVEN_HI * n + u] = (uint8_t)(r->vp_given[u] >> 8);
        row[BR_SIZE + BU_VP_SCORED * n + u] = (uint8_t)(r->vp_scored[u] & BYTE_MAX);
        row[BR_SIZE + BU_VP_SCORED_HI * n + u] = (uint8_t)(r->vp_scored[u] >> 8);
    }
    const unsigned vp[2] = {r->vp[0] < UINT16_MAX ? r->vp[0] : UINT16_MAX,
                            r->vp[1] < UINT16_MAX ? r->vp[1] : UINT16_MAX};
    row[BR_WINNER] = r->verdict.winner == OM_WM_BATTLE_NO_WINNER ? OM_WINNER_DRAW
                                                                 : r->verdict.winner;
    row[BR_LEVEL] = (uint8_t)r->verdict.level;
    row[BR_END] = r->end;
    row[BR_TURNS] = r->turns;
    row[BR_FIRST] = r->first;
    row[BR_DEPLOYMENT] = r->deployment;
    row[BR_WITHDREW_A] = r->withdrew[0];
    row[BR_WITHDREW_B] = r->withdrew[1];
    row[BR_UNITS_LOST_A] = r->units_lost[0];
    row[BR_UNITS_LOST_B] = r->units_lost[1];
    for (int s = 0; s < 2; s++) {
        row[BR_VP_A + 2 * s] = (uint8_t)(vp[s] & 0xffu);
        row[BR_VP_A + 2 * s + 1] = (uint8_t)(vp[s] >> 8);
    }
}

static om_status battle_prepare(const om_wm_scenario *ws, wm_prepared *p, om_trials *out)
{
    const om_wm_battle_scenario *b = ws->battle;
    om_wm_check_failure why;
    om_status st = om_wm_battle_scenario_prepare_alloc(b, &why, &p->battle);
    if (st != OM_OK)
        return st;
    battle_layout(b, p, &out->layout);
    return OM_OK;
}

/* A turn's row: its own fields (the two-byte victory points least
 * significant byte first, layout.h), then unit field by unit field each
 * unit's value, in turn_fields' and the table's order (turn_layout). */
static void turn_row(const wm_turn_prepared *tp, const om_wm_turn_result *r, uint8_t *row)
{
    const size_t n = tp->units;
    uint8_t *v = row + TURN_OWN_BYTES;
    row[0] = r->general_orders;
    row[1] = (uint8_t)(r->vp_lost[0] & 0xffu);
    row[2] = (uint8_t)(r->vp_lost[0] >> 8);
    row[3] = (uint8_t)(r->vp_lost[1] & 0xffu);
    row[4] = (uint8_t)(r->vp_lost[1] >> 8);
    row[5] = r->engagements;
    row[6] = r->unresolved;
    for (size_t u = 0; u < n; u++) {
        const om_wm_turn_unit_result *x = &r->unit[u];
        v[u] = x->orders > 0;
        v[n + u] = x->orders;
        v[2 * n + u] = x->moved;
        v[3 * n + u] = x->charged;
        v[4 * n + u] = x->shot_at;
        v[5 * n + u] = x->engaged;
        v[6 * n + u] = x->unresolved;
        v[7 * n + u] = x->stands_lost;
        v[8 * n + u] = x->confused;
        v[9 * n + u] = x->routed;
        v[10 * n + u] = x->destroyed;
    }
}
_Static_assert(OM_WM_TABLE_MAX_UNITS <= OM_LAYOUT_UNITS_MAX, "a layout holds every unit of a table");
_Static_assert(TV_DESTROYED - TV_ORDERED + 1 == TURN_UNIT_FIELDS,
               "turn_row writes every unit field, in turn_fields' order");

/* A side of a turn: its army, its points, no single field of losses (its
 * victory points are a field of their own). */
static void turn_side(const om_wm_turn_scenario *ts, int s, om_side_score *sc)
{
    uint32_t points = 0;
    for (unsigned u = 0; u < ts->turn.table.units; u++)
        if (ts->turn.table.unit[u].side == s)
            points += ts->turn.unit[u].side.unit.points;
    memset(sc, 0, sizeof *sc);
    sc->name = ts->side_name[s];
    sc->points = points;
    sc->loss_field = -1;
}

/* The layout of a turn: the turn's own fields, then its unit fields over the
 * units of the table in table order (a row's unit block: unit field f of
 * unit u at TURN_OWN_BYTES + f * units + u). */
static void turn_layout(const om_wm_turn_scenario *ts, wm_turn_prepared *tp, om_layout *l)
{
    const size_t n = ts->turn.table.units;
    unsigned stands = 1;
    size_t at = 0;
    memset(l, 0, sizeof *l);
    for (size_t j = 0; j < TURN_FIELDS; j++) {
        l->fields[j] = (om_field){.name = turn_fields[j].name,
                                  .description = turn_fields[j].description,
                                  .offset = at, .type = turn_fields[j].type};
        at += om_field_width(turn_fields[j].type);
    }
    assert(at == TURN_OWN_BYTES);
    l->field_count = TURN_FIELDS;
    for (size_t u = 0; u < n; u++) {
        const om_wm_table_unit *tu = &ts->turn.table.unit[u];
        stands = tu->size > stands ? tu->size : stands;
        tp->unit[u] = (om_layout_unit){.id = ts->id[u], .name = ts->turn.unit[u].side.unit.name,
                                       .army = ts->side_name[tu->side], .side = tu->side,
                                       .points = ts->turn.unit[u].side.unit.points};
    }
    for (size_t f = 0; f < TURN_UNIT_FIELDS; f++) {
        const size_t j = TURN_FIELDS + f;
        l->unit_fields[f] = (om_field){
            .name = turn_fields[j].name, .description = turn_fields[j].description,
            .offset = TURN_OWN_BYTES + f * n, .type = turn_fields[j].type,
            .max = turn_fields[j].max == TM_FLAG     ? 1u
                   : turn_fields[j].max == TM_ORDERS ? OM_WM_COMMAND_MAX_ORDERS
                                                     : stands};
    }
    l->unit_field_count = TURN_UNIT_FIELDS;
    l->unit_count = n;
    l->units = tp->unit;
    l->unit_stride = 1;
    l->row_size = TURN_OWN_BYTES + TURN_UNIT_FIELDS * n;
    tp->units = n;
    tp->row_size = l->row_size;
    for (int s = 0; s < 2; s++)
        turn_side(ts, s, &l->side[s]);
    l->points_rule = "destroyed: full value; 3+ stands reduced to 1: half,\nrounded up to 5";
}

static om_status turn_prepare(const om_wm_scenario *ws, wm_prepared *p, om_trials *out)
{
    om_wm_check_failure why;
    om_status st;
    if ((p->turn = calloc(1, sizeof *p->turn)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a prepared turn");
    if ((st = om_wm_turn_prepare_alloc(&ws->turn->turn, &why, &p->turn->turn)) != OM_OK)
        return st;
    turn_layout(ws->turn, p->turn, &out->layout);
    return OM_OK;
}

static void wm_release(om_trials *t)
{
    wm_prepared *p = t->prepared;
    if (p == NULL)
        return;
    om_wm_prepared_free(p->engagement);
    om_wm_battle_prepared_free(p->battle);
    if (p->turn)
        om_wm_turn_prepared_free(p->turn->turn);
    free(p->turn);
    free(p);
}

static om_status wm_prepare(const om_scenario *sc, om_trials *out)
{
    const om_wm_scenario *ws = sc->setup;
    wm_prepared *p = calloc(1, sizeof *p);
    om_status st;
    if (p == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a prepared scenario");
    out->prepared = p;
    if (ws->turn != NULL)
        st = turn_prepare(ws, p, out);
    else if (ws->battle != NULL)
        st = battle_prepare(ws, p, out);
    else if ((st = om_wm_prepare_alloc(engagement_of(sc), &p->engagement)) == OM_OK) {
        const om_wm_outcome *classes;
        wm_layout(engagement_of(sc), &out->layout);
        om_wm_classes(p->engagement, &classes, &out->n_classes);
        out->class_rows = (const uint8_t *)classes;
    }
    if (st != OM_OK) {
        wm_release(out);
        out->prepared = NULL;
    }
    return st;
}

/* A thread's workspace: a turn's, none for an engagement. */
static om_status wm_work_alloc(const void *prepared, void **work)
{
    const wm_prepared *p = prepared;
    *work = NULL;
    return p->turn != NULL || p->battle != NULL ? om_wm_turn_work_alloc((om_wm_turn_work **)work)
                                                : OM_OK;
}

static void wm_work_free(void *work)
{
    om_wm_turn_work_free(work);
}

static void wm_resolve_block(const void *prepared, void *work, om_dice *d, uint8_t *rows,
                             size_t n)
{
    const wm_prepared *p = prepared;
    if (p->battle != NULL) {
        for (size_t i = 0; i < n; i++) {
            om_wm_battle_result r;
            om_wm_battle_resolve(p->battle, work, d, &r);
            battle_row(&r, p->battle_units, p->battle_scenario, rows + i * p->battle_row_size);
        }
        return;
    }
    if (p->turn != NULL) {
        const wm_turn_prepared *tp = p->turn;
        for (size_t i = 0; i < n; i++) {
            om_wm_turn_result r;
            om_wm_turn_resolve(tp->turn, work, d, &r);
            turn_row(tp, &r, rows + i * tp->row_size);
        }
        return;
    }
    /* An outcome is a struct of bytes: rows hold them back to back. */
    om_wm_outcome *out = (om_wm_outcome *)(void *)rows;
    for (size_t i = 0; i < n; i++)
        om_wm_resolve(p->engagement, d, &out[i]);
}

/* Only an engagement's trials have classes (a turn's n_classes is 0, so the
 * driver never calls this for one). */
static void wm_resolve_classes(const void *prepared, void *work, om_dice *d, uint8_t *rows,
                               uint16_t *cls, bool class_rows, size_t n)
{
    const wm_prepared *p = prepared;
    (void)work;
    assert(p->turn == NULL && p->battle == NULL);
    om_wm_resolve_classes(p->engagement, d, (om_wm_outcome *)(void *)rows, cls, class_rows, n);
}

/* Two blocks at once (an engagement's, as wm_resolve_classes). */
static void wm_resolve_classes2(const void *prepared, void *work, om_dice *const d[2],
                                uint8_t *const rows[2], uint16_t *const cls[2], bool class_rows,
                                const size_t n[2])
{
    const wm_prepared *p = prepared;
    om_wm_outcome *const out[2] = {(om_wm_outcome *)(void *)rows[0],
                                   (om_wm_outcome *)(void *)rows[1]};
    (void)work;
    assert(p->turn == NULL && p->battle == NULL);
    om_wm_resolve_classes2(p->engagement, d, out, cls, class_rows, n);
}

_Static_assert(_Alignof(om_wm_outcome) == 1, "outcomes are bytes, so any row address fits");
_Static_assert(OM_WM_NO_CLASS == OM_LAYOUT_NO_CLASS, "the engine's trials of no class are the "
               "tally's");
_Static_assert(OM_WM_CLASSES_MAX <= OM_LAYOUT_CLASSES_MAX, "the tally counts every class");

/* ---- Exact laws ---- */

/* The fields of an engagement's first round: the law of a combat of the same
 * two units (kind combat: the shooting at the charge, then the first round)
 * is theirs. */
static const char *const first_round_fields[] = {"round1_winner", "result_a", "result_b",
                                                 "charged"};

/* One trial for the enumeration: the engine's own, with the enumerating dice,
 * its outcome as the row. */
static void wm_exact_trial(const void *ctx, om_dice *d, uint8_t *row)
{
    om_wm_resolve(ctx, d, (om_wm_outcome *)(void *)row);
}

/*
 * The exact law of an engagement's trials: of every field for a combat (the
 * first round, with its shooting at the charge and its aftermath) and a
 * volley, by enumerating every outcome of their dice; of the first round's
 * fields only for a whole engagement, enumerated on the combat of the same
 * units, as its later rounds and turns would be too many to enumerate. A
 * turn has none: its Command phase and its table are not enumerated.
 */
static om_status wm_exact_law(const void *prepared, const om_layout *layout, om_exact *law)
{
    const wm_prepared *p = prepared;
    om_wm_engagement first;
    om_wm_prepared *q = NULL;
    bool fields[OM_LAYOUT_FIELDS_MAX] = {false};
    om_status st;

    if (p->turn != NULL)
        return OM_ERROR(OM_EUNSUPPORTED, "the exact law of a whole turn is not computed (its "
                        "Command phase and its moves on the table are not enumerated)");
    if (p->battle != NULL)
        return OM_ERROR(OM_EUNSUPPORTED, "the exact law of a battle is not computed (its "
                        "turns and moves on the table are not enumerated)");
    if (p->engagement->e.kind != OM_WM_KIND_ENGAGEMENT)
        return om_exact_enumerate(wm_exact_trial, p->engagement, layout, NULL,
                                  OM_EXACT_RUNS_MAX, law);
    first = p->engagement->e;
    first.kind = OM_WM_KIND_COMBAT;
    for (size_t i = 0; i < sizeof first_round_fields / sizeof first_round_fields[0]; i++) {
        const int k = om_layout_find(layout, first_round_fields[i]);
        if (k >= 0)
            fields[k] = true;
    }
    if ((st = om_wm_prepare_alloc(&first, &q)) == OM_OK)
        st = om_exact_enumerate(wm_exact_trial, q, layout, fields, OM_EXACT_RUNS_MAX, law);
    else if (st != OM_ENOMEM)
        st = OM_ERROR(OM_EUNSUPPORTED, "the first round of this engagement cannot be prepared "
                      "as a combat of its own: %s", om_error_message());
    om_wm_prepared_free(q);
    if (st == OM_OK)
        om_exact_set_reason(law, "the other fields depend on the rounds and turns after the "
                            "first, which are not enumerated");
    return st;
}

static const om_game_exact_methods wm_exact_methods = {
    .law = wm_exact_law,
};

/* The registries of the engine's readings of ambiguous rules: an
 * engagement's, the Command phase's and a whole turn's. */
static const om_option_table *const wm_option_tables[] = {
    &om_wm_option_registry, &om_wm_command_option_registry, &om_wm_turn_option_registry, NULL};

static const om_game_scenario_methods wm_scenario_methods = {
    .load = wm_load,
    .setup_free = wm_setup_free,
    .prepare = wm_prepare,
    .release = wm_release,
};

static const om_game_trial_methods wm_trial_methods = {
    .work_alloc = wm_work_alloc,
    .work_free = wm_work_free,
    .resolve_block = wm_resolve_block,
    .resolve_classes = wm_resolve_classes,
    .resolve_classes2 = wm_resolve_classes2,
};

static const om_game_catalogue_methods wm_catalogue_methods = {
    .keys = om_wm_scenario_keys,
    .option_tables = wm_option_tables,
    .options_title = "Warmaster (1.1, Revolution, Ancients)",
    .list = om_wm_game_list,
    .names = om_wm_game_names,
};

static const om_game_matrix_methods wm_matrix_methods = {
    .situations = om_wm_matrix_situations_table,
    .n_situations = OM_WM_MATRIX_SITUATIONS,
    .n_default_situations = 2,
    .kinds = om_wm_matrix_kinds,
    .sample_units = "empire/knights,halberdiers,handgunners,cannon",
    .units = om_wm_matrix_units,
    .units_free = om_wm_matrix_units_free,
    .cell = om_wm_matrix_cell,
};

/* Battles: the army list files they are fought between (wm_armylist.c),
 * a battle of two of them asked for on the command line
 * (wm_battle_spec.c), and the doctrines a side may play (wm_listing.c). */
static const om_game_battle_methods wm_battle_methods = {
    .version = 3,
    .list_schema = OM_WM_ARMYLIST_SCHEMA,
    .list_keys = om_wm_armylist_keys,
    .list_file = om_wm_armylist_listing,
    .example_at = om_wm_battle_example_at,
    .battle_text = om_wm_battle_text,
    .doctrines = om_wm_doctrine_listing,
};

/* ---- Narration ---- */

/* Events kept of one battle: a 30-turn battle of 64 units a side issues
 * fewer (each unit's turn gives at most a few order tests, a charge, a shot
 * and a combat line), and a record is 16 bytes. */
#define NARRATE_EVENTS_MAX 65536u

static bool wm_tells(const void *prepared)
{
    return ((const wm_prepared *)prepared)->battle != NULL;
}

static om_status wm_narrate(const void *prepared, om_dice *d, uint8_t *row, FILE *out,
                            unsigned picture_turn, om_picture *picture)
{
    const wm_prepared *p = prepared;
    const om_wm_turn *turn;
    const char *side_name[2] = {"side A", "side B"};
    om_wm_turn_work *w = NULL;
    om_wm_trace tr = {.cap = NARRATE_EVENTS_MAX};
    om_wm_table *end = NULL;
    om_wm_battle_result r;
    om_status st;

    if (p->battle == NULL)
        return OM_ERROR(OM_EUNSUPPORTED, "only a battle is told, not a single engagement or "
                        "turn");
    turn = om_wm_battle_turn(p->battle);
    for (size_t u = 0; u < p->battle_units; u++)
        if (p->battle_unit[u].army != NULL)
            side_name[p->battle_unit[u].side & 1u] = p->battle_unit[u].army;
    if ((tr.ev = malloc(NARRATE_EVENTS_MAX * sizeof *tr.ev)) == NULL ||
        (picture != NULL && (end = malloc(sizeof *end)) == NULL)) {
        free(tr.ev);
        return OM_ERROR(OM_ENOMEM, "out of memory for a battle's events");
    }
    if ((st = om_wm_turn_work_alloc(&w)) != OM_OK) {
        free(end);
        free(tr.ev);
        return st;
    }
    tr.table_at = end;
    tr.table_turn = (uint8_t)(picture_turn < UINT8_MAX ? picture_turn : UINT8_MAX);
    om_wm_turn_work_set_trace(w, &tr);
    om_wm_battle_resolve(p->battle, w, d, &r);
    om_wm_turn_work_set_trace(w, NULL);
    battle_row(&r, p->battle_units, p->battle_scenario, row);
    /* The events name the units of the deployment the battle drew. */
    turn = om_wm_battle_turn_deployed(p->battle, r.deployment);
    st = om_wm_narrate_print(out, &turn->table, &turn->magic, side_name, tr.ev, tr.n,
                             tr.dropped);
    if (st == OM_OK && picture != NULL) {
        char title[64];
        const om_wm_table *t = end != NULL ? end : &turn->table;
        unsigned shown = picture_turn < r.turns ? picture_turn : r.turns;
        if (picture_turn == 0)
            snprintf(title, sizeof title, "as deployed");
        else
            snprintf(title, sizeof title, "at the end of turn %u", shown);
        om_wm_narrate_picture(t, side_name,
                              om_wm_deploy_zone_cm(t, turn->command.rules), title, picture);
    }
    om_wm_turn_work_free(w);
    free(end);
    free(tr.ev);
    return st;
}

/* Narration: a battle told turn by turn (wm_narrate.c). */
static const om_game_narrate_methods wm_narrate_methods = {
    .version = 1,
    .tells = wm_tells,
    .narrate = wm_narrate,
};

const om_game om_game_warmaster = {
    .identity = {
        .name = "warmaster",
        .title = "Warmaster (1.1, Revolution, Ancients)",
        .rulesets = om_wm_game_rulesets,
        .kinds = wm_kinds,
        .n_kinds = OM_WM_GAME_KINDS,
    },
    .scenario = &wm_scenario_methods,
    .trials = &wm_trial_methods,
    .catalogue = &wm_catalogue_methods,
    .matrix = &wm_matrix_methods,
    .battles = &wm_battle_methods,
    .exact = &wm_exact_methods,
    .narrate = &wm_narrate_methods,
};
