/*
 * wh7_game.c: Warhammer Fantasy Battles 7th edition as a game of the game
 * interface (game.h): its scenario loader (wh7_load.c), its engine
 * (engine/whfb7), the per-trial fields of a trial (the engine's outcome,
 * om_wh7_outcome_field_at, field by field), the headline outcome of each
 * kind and the victory points each side loses (WHFB 7th edition, Victory!).
 *
 * A row is the first WH7_ROW_BYTES bytes of the engine's outcome
 * (om_wh7_outcome), copied as one block, with the kind's fields beyond them
 * and the two bytes this file derives (lost_a, lost_b) moved into bytes of
 * it that no field of the kind uses. Result files hold one byte per field
 * (engine/core/layout.h), so the engine's two-byte counts (wounds, hits) are
 * clamped to 255 into their first byte: only a unit of more than 255 Wounds
 * in all, fought to the end, can reach it, and the field's description says
 * "255: 255 or more".
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "wh7.h"
#include "wh7_game_int.h"
#include "wh7_keys.h"
#include "wh7_scenario.h"

/* Which kinds produce a field: bits (1 << om_wh7_kind). */
#define COMBAT (1u << OM_WH7_KIND_COMBAT)
#define ENGAGEMENT (1u << OM_WH7_KIND_ENGAGEMENT)
#define VOLLEY (1u << OM_WH7_KIND_VOLLEY)
#define MAGIC (1u << OM_WH7_KIND_MAGIC)
#define FIGHT (COMBAT | ENGAGEMENT)
#define ALL (COMBAT | ENGAGEMENT | VOLLEY | MAGIC)

/* Largest value of a one-byte field. */
#define BYTE_MAX 255u

/* How each field of the engine's outcome is stored and which kinds produce
 * it; every field om_wh7_outcome_field_at lists has its row here (prepare
 * fails otherwise, and tests/test_wh7_game.c checks it). */
typedef struct wh7_field_kind {
    const char *name;   /* the engine's field name */
    om_field_type type; /* how result files store it */
    unsigned kinds;     /* bits of the kinds that produce it */
} wh7_field_kind;

static const wh7_field_kind wh7_field_kinds[] = {
    {"winner", OM_FIELD_WINNER, ALL},
    {"round1_winner", OM_FIELD_WINNER, ENGAGEMENT},
    {"rounds", OM_FIELD_COUNT, ENGAGEMENT},
    {"charged", OM_FIELD_FLAG, FIGHT},
    {"result", OM_FIELD_COUNT, FIGHT},
    {"wounds", OM_FIELD_COUNT, ALL},
    {"slain", OM_FIELD_COUNT, ALL},
    {"characters_slain", OM_FIELD_COUNT, ALL},
    {"broke", OM_FIELD_FLAG, FIGHT},
    {"fled", OM_FIELD_FLAG, ALL},
    {"destroyed", OM_FIELD_FLAG, ALL},
    {"caught", OM_FIELD_FLAG, FIGHT},
    {"panicked", OM_FIELD_FLAG, ALL},
    {"feared", OM_FIELD_FLAG, FIGHT},
    {"stupid", OM_FIELD_FLAG, FIGHT},
    {"pursued", OM_FIELD_FLAG, FIGHT},
    {"friend_panicked", OM_FIELD_FLAG, ALL},
    {"hits", OM_FIELD_COUNT, ALL},
    {"misfire", OM_FIELD_COUNT, VOLLEY},
    {"on_target", OM_FIELD_FLAG, VOLLEY},
    {"cast", OM_FIELD_FLAG, MAGIC},
    {"irresistible", OM_FIELD_FLAG, MAGIC},
    {"dispelled", OM_FIELD_FLAG, MAGIC},
    {"miscast", OM_FIELD_COUNT, MAGIC},
    {"cast_total", OM_FIELD_COUNT, MAGIC},
    {"caster_wounds", OM_FIELD_COUNT, MAGIC},
    {"caster_slain", OM_FIELD_FLAG, MAGIC},
    {"challenge", OM_FIELD_FLAG, FIGHT},
};

#define WH7_FIELD_KINDS (sizeof wh7_field_kinds / sizeof wh7_field_kinds[0])

/* The layout holds each engine field once per side and the two derived
 * ones: at most this many. */
#define WH7_ROW_FIELDS (2u * WH7_FIELD_KINDS + 2u)
_Static_assert(WH7_ROW_FIELDS <= OM_LAYOUT_FIELDS_MAX, "the WHFB7 fields fit a layout");

/* What the headline (the `winner` field) of a kind reports. */
typedef enum wh7_headline {
    HEADLINE_ENGINE = 0, /* the engine's winner: combat and engagement */
    HEADLINE_HARM,       /* a volley or damage spell: the target destroyed or fleeing (A
                            wins), wounded but holding (draw), unharmed (B wins) */
    HEADLINE_EFFECT      /* another spell: it takes effect (A wins) or not (B wins) */
} wh7_headline;

/* Longest field name and description built here. */
#define WH7_NAME_MAX 32
#define WH7_DESC_MAX 256

/* A prepared WHFB7 scenario: the engine's tables and what the rows derive. */
typedef struct wh7_trials {
    om_wh7_prepared *p;          /* the engine's prepared combat */
    wh7_headline headline;       /* what `winner` reports */
    uint8_t start[2];            /* models (or a single model's wounds) at the start */
    bool by_wounds[2];           /* a single multi-Wound model: lost counts wounds */
    size_t n_move;               /* one-byte fields beyond the copied block */
    uint8_t move_src[WH7_ROW_FIELDS]; /* ... each one's offset in om_wh7_outcome */
    uint8_t move_row[WH7_ROW_FIELDS]; /* ... and its row byte */
    size_t n_wide;               /* two-byte counts (clamped) */
    uint8_t wide_src[WH7_ROW_FIELDS]; /* ... each one's offset in the outcome */
    uint8_t wide_row[WH7_ROW_FIELDS]; /* ... and its row byte */
    size_t winner_at;            /* the row byte of the winner (derived for some kinds) */
    size_t lost_at[2];           /* the row bytes of lost_a and lost_b */
    char names[WH7_ROW_FIELDS][WH7_NAME_MAX];  /* the layout's field names */
    char descs[WH7_ROW_FIELDS][WH7_DESC_MAX];  /* ... and descriptions */
} wh7_trials;

/* The kind row of engine field `name`, or NULL. */
static const wh7_field_kind *field_kind(const char *name)
{
    for (size_t i = 0; i < WH7_FIELD_KINDS; i++)
        if (strcmp(wh7_field_kinds[i].name, name) == 0)
            return &wh7_field_kinds[i];
    return NULL;
}

/* The headline of each kind: its description and the heading of its table. */
static const struct {
    const char *description, *title;
} headlines[OM_WH7_KIND_COUNT + 1] = {
    [OM_WH7_KIND_COMBAT] = {"Winner of the first round of combat: a, b, draw, or none (no "
                            "blow struck: the charge failed or the charged unit fled).",
                            "Outcome of the first round"},
    [OM_WH7_KIND_ENGAGEMENT] = {"Winner of the engagement: the side that broke or destroyed "
                                "the other (a, b), draw (both destroyed, or unresolved at the "
                                "round limit), or none (no blow struck).",
                                "Outcome of the engagement"},
    [OM_WH7_KIND_VOLLEY] = {"The volley: a when the target ended destroyed or fleeing, draw "
                            "when it suffered unsaved wounds but holds, b when it was "
                            "unharmed.",
                            "Outcome of the volley (win: the target destroyed or fleeing; "
                            "draw: wounded, holding; lose: unharmed)"},
    [OM_WH7_KIND_MAGIC] = {"The spell: a when its target ended destroyed or fleeing, draw "
                           "when it suffered unsaved wounds but holds, b when it was "
                           "unharmed (not cast, dispelled or no wound).",
                           "Outcome of the spell (win: the target destroyed or fleeing; draw: "
                           "wounded, holding; lose: unharmed)"},
    /* A spell that is not a damage spell: it works or not. */
    [OM_WH7_KIND_COUNT] = {"The spell: a when it takes effect (cast and not dispelled), b "
                           "when it does not.",
                           "Outcome of the spell (win: it takes effect; lose: it does not)"},
};

/* ---------------------------------------------------------------- loading */

/* The warning of a spell whose effect the engine does not model. */
static om_status spell_warning(const om_wh7_scenario *ws, char **out)
{
    const om_wh7_spell *sp = ws->spell[0] ? om_wh7_spell_find(ws->spell) : NULL;
    size_t n;
    *out = NULL;
    if (!sp || sp->kind == OM_WH7_SPELL_DAMAGE || ws->combat.kind != OM_WH7_KIND_MAGIC)
        return OM_OK;
    n = strlen(sp->id) + strlen(sp->effect) + 96;
    if ((*out = malloc(n)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory");
    snprintf(*out, n, "%s: only whether it takes effect is simulated (%s)\n", sp->id,
             sp->effect);
    return OM_OK;
}

om_status om_wh7_game_setup(om_scenario *sc, om_wh7_scenario *ws)
{
    om_status st;
    sc->game = &om_game_whfb7;
    sc->setup = ws;
    sc->ruleset = OM_WH7_RULESET;
    sc->kind = om_wh7_kind_names[ws->combat.kind];
    if (sc->title == NULL && (sc->title = strdup(ws->title)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", sc->source);
    if ((st = om_wh7_provenance_json(ws, &sc->provenance_json)) != OM_OK)
        return st;
    return spell_warning(ws, &sc->warnings);
}

static om_status wh7_load(om_scenario *sc)
{
    om_wh7_scenario *ws = NULL;
    om_status st = om_wh7_scenario_load_text(sc->source, sc->text, strlen(sc->text), &ws);
    if (st != OM_OK)
        return st;
    return om_wh7_game_setup(sc, ws);
}

static void wh7_setup_free(void *setup)
{
    om_wh7_scenario_free(setup);
}

/* ---------------------------------------------------------------- layout */

/* The models side s starts with, or a single multi-Wound model's Wounds. */
static void side_start(const om_wh7_unit *u, uint8_t *start, bool *by_wounds)
{
    const unsigned models = (unsigned)u->models + u->characters;
    const om_wh7_profile *one = u->models > 0 ? &u->profile : &u->character[0].profile;
    const unsigned lost = u->models > 0 ? u->wounds_lost : u->character[0].wounds_lost;
    *by_wounds = models == 1 && one->w > 1;
    *start = (uint8_t)(*by_wounds ? one->w - lost : models);
}

/*
 * Side s's victory points (WHFB 7th edition, Victory!): the side is scored
 * as one unit worth its points with its characters': destroyed or fleeing at
 * the end, its points; at half strength or less (half its starting models,
 * a single model half its Wounds), half of them rounded up; else none. A unit
 * without points counts 100. The field deciding it is lost_a or lost_b.
 */
static void side_score(const om_layout *l, const wh7_trials *t, const om_wh7_scenario *ws,
                       int s, om_side_score *sc)
{
    const om_wh7_unit *u = &ws->combat.side[s].unit;
    const unsigned points = (unsigned)u->points + ws->side[s].character_points;
    sc->name = ws->side[s].name;
    /* Without points the rule counts 100 (om_wh7_victory_points of 0). */
    sc->points = points > 0 ? points : om_wh7_victory_points(0, 1, 0, true);
    sc->loss_field = om_layout_find(l, s == 0 ? "lost_a" : "lost_b");
    sc->loss_unit = t->by_wounds[s] ? "wounds" : "models";
    sc->loss_start = t->start[s];
    for (unsigned k = 0; k <= t->start[s]; k++)
        sc->vp_lost[k] = om_wh7_victory_points(sc->points, t->start[s], t->start[s] - k, false);
}

/* "Unsaved wounds the unit suffered" + " (unit A; 255: 255 or more)." */
static void describe(char *out, const char *engine, int side, bool wide)
{
    char note[48] = "";
    if (side >= 0)
        snprintf(note, sizeof note, " (unit %c%s)", 'A' + side, wide ? "; 255: 255 or more" : "");
    else if (wide)
        snprintf(note, sizeof note, " (255: 255 or more)");
    snprintf(out, WH7_DESC_MAX, "%c%s%s.", toupper((unsigned char)engine[0]), engine + 1, note);
}

/* Append field `name` at row byte `offset` to the layout. */
static void add_field(om_layout *l, wh7_trials *t, const char *name, const char *desc,
                      size_t offset, om_field_type type)
{
    const size_t i = l->field_count++;
    snprintf(t->names[i], WH7_NAME_MAX, "%s", name);
    if (desc != t->descs[i])
        snprintf(t->descs[i], WH7_DESC_MAX, "%s", desc);
    l->fields[i] = (om_field){.name = t->names[i], .description = t->descs[i],
                              .offset = offset, .type = type};
}

/* Bytes of a row: the outcome's first bytes, copied as one block of five
 * 8-byte words. Rows are kept this small because the driver's tally hashes a
 * row word by word with rotations of 13 bits a word, which are defined for
 * at most five words (sim/tally.c). */
#define WH7_ROW_BYTES 40u
_Static_assert(sizeof(om_wh7_outcome) >= WH7_ROW_BYTES, "the block is within the outcome");

/* Whether engine field f is in kind `mask`'s layout. */
static om_status field_in(const om_wh7_outcome_field *f, unsigned mask, bool *in)
{
    const wh7_field_kind *fk = field_kind(f->name);
    if (NEVER(fk == NULL))
        return OM_ERROR(OM_EINVAL, "the engine's outcome field '%s' has no layout", f->name);
    if (NEVER(f->bytes != 1 && f->bytes != 2) ||
        NEVER(f->offset + (size_t)f->count * f->bytes > sizeof(om_wh7_outcome)))
        return OM_ERROR(OM_EINVAL, "the engine's outcome field '%s' is not a small count",
                        f->name);
    *in = (fk->kinds & mask) != 0;
    return OM_OK;
}

/* Where each byte of the outcome the kind `mask` needs goes in the row
 * (row_of): in place within the block; beyond it, and lost_a and lost_b,
 * into the block's first bytes no field of the kind uses (a two-byte
 * count's second byte is free: the clamped count is written to its first). */
static om_status plan_row(wh7_trials *t, unsigned mask, uint8_t row_of[sizeof(om_wh7_outcome)])
{
    bool used[WH7_ROW_BYTES] = {false};
    size_t free_at = 0;
    om_status st;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < om_wh7_outcome_field_count(); i++) {
            const om_wh7_outcome_field *f = om_wh7_outcome_field_at(i);
            bool in = false;
            if ((st = field_in(f, mask, &in)) != OM_OK)
                return st;
            for (unsigned j = 0; in && j < f->count; j++) {
                const size_t src = f->offset + j * f->bytes;
                if (pass == 0 && src < WH7_ROW_BYTES) {
                    used[src] = true;
                    row_of[src] = (uint8_t)src;
                } else if (pass == 1 && src >= WH7_ROW_BYTES) {
                    while (free_at < WH7_ROW_BYTES && used[free_at])
                        free_at++;
                    if (NEVER(free_at == WH7_ROW_BYTES))
                        return OM_ERROR(OM_EINVAL, "the fields of a kind fill the row");
                    used[free_at] = true;
                    row_of[src] = (uint8_t)free_at;
                    if (f->bytes == 1) {
                        t->move_src[t->n_move] = (uint8_t)src;
                        t->move_row[t->n_move++] = (uint8_t)free_at;
                    }
                }
            }
        }
    }
    for (int s = 0; s < 2; s++) {
        while (free_at < WH7_ROW_BYTES && used[free_at])
            free_at++;
        if (NEVER(free_at == WH7_ROW_BYTES))
            return OM_ERROR(OM_EINVAL, "the fields of a kind fill the row");
        used[free_at] = true;
        t->lost_at[s] = free_at;
    }
    return OM_OK;
}

/* The fields of the engine's outcome that kind `kind` produces, one per
 * side for per-side fields, then the derived lost_a and lost_b. */
static om_status wh7_layout(const om_wh7_scenario *ws, wh7_trials *t, om_layout *l)
{
    const om_wh7_kind kind = ws->combat.kind;
    const unsigned mask = 1u << kind;
    uint8_t row_of[sizeof(om_wh7_outcome)] = {0};
    om_status st;
    memset(l, 0, sizeof *l);
    if ((st = plan_row(t, mask, row_of)) != OM_OK)
        return st;
    for (size_t i = 0; i < om_wh7_outcome_field_count(); i++) {
        const om_wh7_outcome_field *f = om_wh7_outcome_field_at(i);
        const wh7_field_kind *fk = field_kind(f->name);
        for (unsigned j = 0; j < f->count && (fk->kinds & mask) != 0; j++) {
            const size_t src = f->offset + j * f->bytes;
            char name[WH7_NAME_MAX];
            if (f->bytes == 2) {
                t->wide_src[t->n_wide] = (uint8_t)src;
                t->wide_row[t->n_wide++] = row_of[src];
            }
            if (strcmp(f->name, "winner") == 0)
                t->winner_at = row_of[src];
            snprintf(name, sizeof name, f->count == 2 ? "%s_%c" : "%s", f->name, 'a' + (int)j);
            describe(t->descs[l->field_count], f->description, f->count == 2 ? (int)j : -1,
                     f->bytes == 2);
            add_field(l, t, name, t->descs[l->field_count], row_of[src], fk->type);
        }
    }
    l->row_size = WH7_ROW_BYTES;
    for (int s = 0; s < 2; s++)
        add_field(l, t, s == 0 ? "lost_a" : "lost_b",
                  s == 0 ? "Models unit A lost, all of them when it ended destroyed or "
                           "fleeing (a single multi-Wound model: Wounds); its victory points "
                           "follow from it."
                         : "Models unit B lost, all of them when it ended destroyed or "
                           "fleeing (a single multi-Wound model: Wounds); its victory points "
                           "follow from it.",
                  t->lost_at[s], OM_FIELD_COUNT);
    for (size_t i = 0; i < l->field_count; i++) {
        const size_t head = t->headline == HEADLINE_EFFECT ? OM_WH7_KIND_COUNT : kind;
        if (strcmp(l->fields[i].name, "winner") == 0) {
            snprintf(t->descs[i], WH7_DESC_MAX, "%s", headlines[head].description);
            l->fields[i].title = headlines[head].title;
        } else if (strcmp(l->fields[i].name, "round1_winner") == 0) {
            l->fields[i].title = "First round";
        }
    }
    for (int s = 0; s < 2; s++)
        side_score(l, t, ws, s, &l->side[s]);
    l->points_rule = "destroyed or fleeing: full value; half strength or less: half,\n"
                     "rounded up; no points: 100";
    return OM_OK;
}

static om_status wh7_prepare(const om_scenario *sc, om_trials *out)
{
    const om_wh7_scenario *ws = sc->setup;
    wh7_trials *t = calloc(1, sizeof *t);
    om_status st;
    if (t == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", sc->source);
    if ((st = om_wh7_prepare_alloc(&ws->combat, &t->p)) != OM_OK) {
        free(t);
        return st;
    }
    if (ws->combat.kind == OM_WH7_KIND_VOLLEY)
        t->headline = HEADLINE_HARM;
    else if (ws->combat.kind == OM_WH7_KIND_MAGIC)
        t->headline = om_wh7_spell_find(ws->spell)->kind == OM_WH7_SPELL_DAMAGE
                          ? HEADLINE_HARM : HEADLINE_EFFECT;
    for (int s = 0; s < 2; s++)
        side_start(&ws->combat.side[s].unit, &t->start[s], &t->by_wounds[s]);
    out->prepared = t;
    if ((st = wh7_layout(ws, t, &out->layout)) != OM_OK) {
        om_wh7_prepared_free(t->p);
        free(t);
        out->prepared = NULL;
    }
    return st;
}

static void wh7_release(om_trials *tr)
{
    wh7_trials *t = tr->prepared;
    om_wh7_prepared_free(t->p);
    free(t);
}

/* ---------------------------------------------------------------- trials */

/* What side s lost for victory points: all its models (or the single
 * model's wounds) if it ended destroyed or fleeing, else those slain. */
static uint8_t lost_of(const wh7_trials *t, const om_wh7_outcome *o, int s)
{
    const unsigned v = t->by_wounds[s] ? o->wounds[s] : o->slain[s];
    if (o->destroyed[s] || o->fled[s])
        return t->start[s];
    return (uint8_t)(v < t->start[s] ? v : t->start[s]);
}

/* The headline of a volley or a spell (the engine reports no winner there). */
static uint8_t headline_of(const wh7_trials *t, const om_wh7_outcome *o)
{
    if (t->headline == HEADLINE_EFFECT)
        return o->cast && !o->dispelled ? OM_WINNER_A : OM_WINNER_B;
    if (o->destroyed[1] || o->fled[1])
        return OM_WINNER_A;
    return o->wounds[1] > 0 ? OM_WINNER_DRAW : OM_WINNER_B;
}

/* Row `row` of outcome o: its first block, the fields beyond it moved in,
 * two-byte counts clamped to 255, the headline where this file derives it,
 * the losses. */
static void fill_row(const wh7_trials *t, const om_wh7_outcome *o, uint8_t *row)
{
    const uint8_t *bytes = (const uint8_t *)o;
    memcpy(row, bytes, WH7_ROW_BYTES);
    for (size_t k = 0; k < t->n_move; k++)
        row[t->move_row[k]] = bytes[t->move_src[k]];
    for (size_t k = 0; k < t->n_wide; k++) {
        uint16_t v;
        memcpy(&v, bytes + t->wide_src[k], sizeof v);
        row[t->wide_row[k]] = (uint8_t)(v > BYTE_MAX ? BYTE_MAX : v);
    }
    if (t->headline != HEADLINE_ENGINE)
        row[t->winner_at] = headline_of(t, o);
    for (int s = 0; s < 2; s++)
        row[t->lost_at[s]] = lost_of(t, o, s);
}

static void wh7_resolve_block(const void *prepared, void *work, om_dice *d, uint8_t *rows,
                              size_t n)
{
    (void)work; /* a WHFB7 trial needs no workspace of its own */
    const wh7_trials *t = prepared;
    for (size_t i = 0; i < n; i++) {
        om_wh7_outcome o;
        om_wh7_resolve(t->p, d, &o);
        fill_row(t, &o, rows + i * WH7_ROW_BYTES);
    }
}

_Static_assert((int)OM_WH7_SIDE_A == (int)OM_WINNER_A && (int)OM_WH7_SIDE_B == (int)OM_WINNER_B &&
                   (int)OM_WH7_DRAW == (int)OM_WINNER_DRAW &&
                   (int)OM_WH7_NO_CONTEST == (int)OM_WINNER_NONE,
               "the engine's winner codes are the layout's");

/* ---------------------------------------------------------------- exact laws */

/* The fields of an engagement's first round: the law of the combat kind of
 * the same two units (the charge, the first round and what follows it) is
 * theirs. */
static const char *const first_round_fields[] = {"round1_winner", "result_a", "result_b",
                                                 "charged"};

/* What the enumeration runs: the engine's trial of `p` into rows of `t`. */
typedef struct wh7_exact_ctx {
    const wh7_trials *t;      /* the scenario's rows */
    const om_wh7_prepared *p; /* the combat enumerated */
} wh7_exact_ctx;

static void wh7_exact_trial(const void *ctx, om_dice *d, uint8_t *row)
{
    const wh7_exact_ctx *c = ctx;
    om_wh7_outcome o;
    om_wh7_resolve(c->p, d, &o);
    fill_row(c->t, &o, row);
}

/*
 * The exact law of a scenario's trials: of every field for a combat (the
 * charge, the first round, its break test, flight and pursuit), a volley of
 * missile weapons and a spell, by enumerating every outcome of their dice
 * (a war machine's guess and scatter are continuous: not enumerated); of the
 * first round's fields only for an engagement, enumerated on the combat of
 * the same units, as its later rounds would be too many to enumerate.
 */
static om_status wh7_exact_law(const void *prepared, const om_layout *layout, om_exact *law)
{
    const wh7_trials *t = prepared;
    om_wh7_combat first = *om_wh7_prepared_combat(t->p);
    wh7_exact_ctx c = {.t = t, .p = t->p};
    bool fields[OM_LAYOUT_FIELDS_MAX] = {false};
    om_wh7_prepared *q = NULL;
    om_status st;

    if (first.kind != OM_WH7_KIND_ENGAGEMENT)
        return om_exact_enumerate(wh7_exact_trial, &c, layout, NULL, OM_EXACT_RUNS_MAX, law);
    first.kind = OM_WH7_KIND_COMBAT;
    for (size_t i = 0; i < sizeof first_round_fields / sizeof first_round_fields[0]; i++) {
        const int k = om_layout_find(layout, first_round_fields[i]);
        if (k >= 0)
            fields[k] = true;
    }
    if ((st = om_wh7_prepare_alloc(&first, &q)) == OM_OK) {
        c.p = q;
        st = om_exact_enumerate(wh7_exact_trial, &c, layout, fields, OM_EXACT_RUNS_MAX, law);
    } else if (st != OM_ENOMEM) {
        st = OM_ERROR(OM_EUNSUPPORTED, "the first round of this engagement cannot be prepared "
                      "as a combat of its own: %s", om_error_message());
    }
    om_wh7_prepared_free(q);
    if (st == OM_OK)
        om_exact_set_reason(law, "the other fields depend on the rounds after the first, "
                            "which are not enumerated");
    return st;
}

static const om_game_exact_methods wh7_exact_methods = {
    .law = wh7_exact_law,
};

/* ---------------------------------------------------------------- options */

/* The registry of the engine's readings of ambiguous rules. */
static const om_option_table *const wh7_option_tables[] = {&om_wh7_option_registry, NULL};

/* ---------------------------------------------------------------- the game */

static const char *const wh7_rulesets[] = {OM_WH7_RULESET, NULL};

static const om_game_kind wh7_kinds[] = {
    {"combat", "the charge, the first round of combat, its break test, flight and pursuit",
     "schema: oddsmaster-scenario/1\n"
     "title: Swordsmen charge Orc Boyz\n"
     "ruleset: whfb7\n"
     "kind: combat\n"
     "a:\n"
     "  unit: {from: empire/swordsmen}\n"
     "  charging: true\n"
     "b:\n"
     "  unit:\n"
     "    from: orcs-goblins/orc-boyz\n"
     "    models: 20\n"},
    {"engagement", "the same, then further rounds to a break or the round limit",
     "schema: oddsmaster-scenario/1\n"
     "title: Knights charge Night Goblins, to the end\n"
     "ruleset: whfb7\n"
     "kind: engagement\n"
     "a:\n"
     "  unit: {from: empire/knights}\n"
     "  charging: true\n"
     "b:\n"
     "  unit: {from: orcs-goblins/night-goblins}\n"},
    {"volley", "side A shoots with a missile weapon or fires a war machine at side B",
     "schema: oddsmaster-scenario/1\n"
     "title: A Great Cannon fires at Ogre Bulls\n"
     "ruleset: whfb7\n"
     "kind: volley\n"
     "a:\n"
     "  unit: {from: empire/great-cannon}\n"
     "  target_in: 24\n"
     "  guess_in: 19\n"
     "b:\n"
     "  unit: {from: ogre-kingdoms/ogre-bulls}\n"},
    {"magic", "side A's wizard casts a spell at side B, against its dispel",
     "schema: oddsmaster-scenario/1\n"
     "title: A wizard casts Fireball at Orc Boyz\n"
     "ruleset: whfb7\n"
     "kind: magic\n"
     "a:\n"
     "  unit:\n"
     "    from: empire/halberdiers\n"
     "    characters:\n"
     "      - {profile: empire-battle-wizard-w, wizard_level: 2}\n"
     "b:\n"
     "  unit: {from: orcs-goblins/orc-boyz}\n"
     "magic:\n"
     "  spell: fireball\n"
     "  dice: 3\n"
     "  dispel_dice: 2\n"},
};
_Static_assert(sizeof wh7_kinds / sizeof wh7_kinds[0] == OM_WH7_KIND_COUNT, "one per kind");

static const om_game_scenario_methods wh7_scenario_methods = {
    .load = wh7_load,
    .setup_free = wh7_setup_free,
    .prepare = wh7_prepare,
    .release = wh7_release,
};

/* A WHFB7 trial needs no workspace, and its trials have no classes. */
static const om_game_trial_methods wh7_trial_methods = {
    .resolve_block = wh7_resolve_block,
};

static const om_game_catalogue_methods wh7_catalogue_methods = {
    .keys = om_wh7_scenario_keys,
    .option_tables = wh7_option_tables,
    .options_title = "Warhammer Fantasy Battles 7th edition (R: readings of the engine's "
                     "abstraction, engine/whfb7/README.md)",
    .list = om_wh7_game_list,
    .names = om_wh7_game_names,
};

static const om_game_matrix_methods wh7_matrix_methods = {
    .situations = om_wh7_matrix_situations_table,
    .n_situations = OM_WH7_MATRIX_SITUATIONS,
    .n_default_situations = 2,
    .kinds = om_wh7_matrix_kinds,
    .sample_units = "empire/swordsmen,handgunners,great-cannon,orcs-goblins/trolls",
    .units = om_wh7_matrix_units,
    .units_free = om_wh7_matrix_units_free,
    .cell = om_wh7_matrix_cell,
};

const om_game om_game_whfb7 = {
    .identity = {
        .name = "whfb7",
        .title = "Warhammer Fantasy Battles 7th edition",
        .rulesets = wh7_rulesets,
        .kinds = wh7_kinds,
        .n_kinds = OM_WH7_KIND_COUNT,
    },
    .scenario = &wh7_scenario_methods,
    .trials = &wh7_trial_methods,
    .catalogue = &wh7_catalogue_methods,
    .matrix = &wh7_matrix_methods,
    .battles = NULL,
    .exact = &wh7_exact_methods,
};
