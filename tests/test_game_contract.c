/*
 * test_game_contract.c: every game of the registry (om_games) through the one
 * contract of the game interface (scenarios/game.h), as GSL's tests run every
 * generator type through the same checks. No game is named here: a new game
 * is checked by this file as it stands, and passes or fails.
 *
 * For each game: its identity and groups; the sample of each kind it declares
 * loads, prepares and resolves (rows deterministic for a stream, every field
 * written, the same with a fresh or a used workspace; by classes the same
 * rows as block by block; two blocks at once the same as one after the
 * other); the layout is well formed; its keys, its readings of ambiguous
 * rules (each switch settable, in a scenario of some kind), its listings and
 * a matrix of its sample units (every situation, each cell's text loading to
 * the same trials); the exact law of each sample, known or refused with its
 * reason, a law of probabilities that no trial contradicts; and bad input (an
 * unknown key, an impossible value, an unknown rule set) is an error naming
 * the file, the line and the field.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <jansson.h>

#include "game.h"
#include "rng.h"

/* The file name bad input is loaded under, and how its messages start. */
#define SOURCE "contract.yaml"

/* Trials of a block resolved by the checks (a whole turn runs about 1e5 a
 * second, so a block costs milliseconds in every game; a whole battle about
 * 500, so under the sanitizers, ten times slower, the block is smaller: the
 * contract is about what a block's rows are, not how many). */
#if defined(__SANITIZE_ADDRESS__)
#define BLOCK 250u
#else
#define BLOCK 1000u
#endif

/* Trials of each matrix cell run from the cell and from its text. */
#define CELL_TRIALS 200u

/* The most columns `oddsmaster list` aligns (cli/cmd_list.c). */
#define LIST_COLUMNS_MAX 16u

/* Room for a switch's byte in a zeroed options struct (om_option_set). */
#define OPTIONS_BYTES 4096u

/* Dice of stream (seed, block), as the driver seeds them. */
static void dice_of(om_dice *d, uint64_t seed, uint64_t block)
{
    memset(d, 0, sizeof *d);
    d->plain = NULL;
    om_rng_seed_block(&d->rng, seed, block);
}

/* Load a game's sample of kind k; fails the test on error. */
static om_scenario *load_sample(const om_game *g, const om_game_kind *k)
{
    om_scenario *sc = NULL;
    char source[128];
    snprintf(source, sizeof source, "%s-%s-sample.yaml", g->identity.name, k->name);
    cr_assert_eq(om_scenario_load_text(source, k->sample, strlen(k->sample), &sc), OM_OK,
                 "%s: %s", source, om_error_message());
    return sc;
}

/* ----------------------------------------------------------------- identity */

Test(contract, identity_and_groups)
{
    size_t n_rulesets = 0;
    cr_assert_gt(om_game_count, 0u);
    for (size_t i = 0; i < om_game_count; i++) {
        const om_game *g = om_games[i];
        const om_game_identity *id = &g->identity;
        cr_assert_not_null(id->name);
        cr_expect_gt(strlen(id->name), 0u);
        cr_expect(id->title != NULL && id->title[0] != '\0', "%s: a title", id->name);
        for (size_t j = 0; j < i; j++)
            cr_expect_str_neq(om_games[j]->identity.name, id->name, "two games named the same");

        cr_assert_not_null(id->rulesets, "%s: rule sets", id->name);
        cr_expect_not_null(id->rulesets[0], "%s: at least one rule set", id->name);
        for (const char *const *r = id->rulesets; *r; r++, n_rulesets++)
            cr_expect_eq(om_game_for_ruleset(*r), g, "%s: rule set %s is another game's",
                         id->name, *r);

        cr_assert_not_null(id->kinds, "%s: kinds", id->name);
        cr_expect_gt(id->n_kinds, 0u, "%s: at least one kind", id->name);
        for (size_t k = 0; k < id->n_kinds; k++) {
            const om_game_kind *kind = &id->kinds[k];
            cr_assert_not_null(kind->name);
            cr_expect(kind->description && kind->description[0], "%s/%s: a description",
                      id->name, kind->name);
            cr_expect_not_null(kind->sample, "%s/%s: a sample", id->name, kind->name);
            for (size_t j = 0; j < k; j++)
                cr_expect_str_neq(id->kinds[j].name, kind->name, "%s: a kind twice", id->name);
        }

        cr_assert_not_null(g->scenario, "%s: the scenario group", id->name);
        cr_expect(g->scenario->load && g->scenario->setup_free && g->scenario->prepare &&
                      g->scenario->release, "%s: every scenario method", id->name);
        cr_assert_not_null(g->trials, "%s: the trials group", id->name);
        cr_expect_not_null(g->trials->resolve_block, "%s: resolve_block", id->name);
        cr_expect_eq(g->trials->work_alloc == NULL, g->trials->work_free == NULL,
                     "%s: work_alloc and work_free together", id->name);
        cr_expect_eq(g->trials->resolve_classes == NULL, g->trials->resolve_classes2 == NULL,
                     "%s: resolve_classes and resolve_classes2 together", id->name);
        cr_assert_not_null(g->catalogue, "%s: the catalogue group", id->name);
        cr_expect_not_null(g->catalogue->keys, "%s: keys", id->name);
        cr_expect_not_null(g->catalogue->list, "%s: a listing", id->name);
        cr_expect_not_null(g->catalogue->names, "%s: names", id->name);
        cr_assert_not_null(g->matrix, "%s: the matrix group", id->name);
        cr_expect(g->matrix->units && g->matrix->units_free && g->matrix->cell,
                  "%s: every matrix method", id->name);
        if (g->battles != NULL)
            cr_expect(g->battles->version >= 0 && g->battles->version <= OM_GAME_BATTLES_VERSION,
                      "%s: battles version %d", id->name, g->battles->version);
        if (g->exact != NULL)
            cr_expect_not_null(g->exact->law, "%s: the exact group's law", id->name);
        if (g->narrate != NULL) {
            cr_expect(g->narrate->version >= 1 && g->narrate->version <= OM_GAME_NARRATE_VERSION,
                      "%s: narrate version %d", id->name, g->narrate->version);
            cr_expect(g->narrate->tells && g->narrate->narrate, "%s: every narrate member",
                      id->name);
        }
    }
    cr_expect_leq(n_rulesets, (size_t)OM_GAME_RULESETS_MAX, "more rule sets than messages name");
}

/* --------------------------------------------------------- load and layout */

/* Each kind's sample loads as a scenario of that kind of the game, with its
 * provenance (a JSON object) and its text kept verbatim. */
Test(contract, samples_load)
{
    for (size_t i = 0; i < om_game_count; i++) {
        const om_game *g = om_games[i];
        for (size_t k = 0; k < g->identity.n_kinds; k++) {
            const om_game_kind *kind = &g->identity.kinds[k];
            om_scenario *sc = load_sample(g, kind);
            json_error_t err;
            json_t *prov;
            bool ruleset_ok = false;
            cr_expect_eq(sc->game, g, "%s/%s: loaded by another game", g->identity.name,
                         kind->name);
            cr_expect_str_eq(sc->kind, kind->name);
            for (const char *const *r = g->identity.rulesets; *r; r++)
                ruleset_ok |= strcmp(*r, sc->ruleset) == 0;
            cr_expect(ruleset_ok, "%s/%s: rule set %s", g->identity.name, kind->name,
                      sc->ruleset);
            cr_expect_str_eq(sc->text, kind->sample);
            cr_expect(sc->title && sc->title[0], "%s/%s: a title", g->identity.name,
                      kind->name);
            cr_assert_not_null(sc->provenance_json);
            prov = json_loads(sc->provenance_json, 0, &err);
            cr_expect(json_is_object(prov), "%s/%s: provenance is not a JSON object: %s",
                      g->identity.name, kind->name, err.text);
            json_decref(prov);
            cr_expect_not_null(sc->setup);
            om_scenario_free(sc);
        }
    }
}

/* Most bytes of a row: every field two bytes wide, every unit field of
 * every unit one byte. */
#define ROW_BYTES_MAX (OM_LAYOUT_FIELDS_MAX * 2 + OM_LAYOUT_UNIT_FIELDS_MAX * OM_LAYOUT_UNITS_MAX)

/* A layout every writer and reader can use: named, described fields of known
 * types inside the row, none overlapping; per-unit results (if any) that
 * om_layout_check accepts, each unit field described and each unit's value
 * a byte of its own; sides whose victory points follow from a count field,
 * never falling as more is lost. */
static void check_layout(const char *what, const om_trials *t)
{
    const om_layout *l = &t->layout;
    uint8_t used[ROW_BYTES_MAX] = {0};
    char why[256];
    const char *wrong = om_layout_check(l, why, sizeof why);
    cr_expect_null(wrong, "%s: %s", what, wrong ? wrong : "");
    cr_assert(l->field_count > 0 && l->field_count <= OM_LAYOUT_FIELDS_MAX, "%s: %zu fields",
              what, l->field_count);
    cr_assert(l->row_size > 0 && l->row_size <= sizeof used, "%s: rows of %zu bytes", what,
              l->row_size);
    cr_expect_leq(om_layout_wide_count(l), (size_t)OM_LAYOUT_WIDE_MAX, "%s", what);
    for (size_t f = 0; f < l->field_count; f++) {
        const om_field *x = &l->fields[f];
        cr_assert(x->name != NULL && x->name[0] != '\0', "%s: field %zu has no name", what, f);
        cr_expect(x->description != NULL && x->description[0] != '\0',
                  "%s: field %s has no description", what, x->name);
        cr_assert_lt((unsigned)x->type, (unsigned)OM_FIELD_TYPES, "%s: %s", what, x->name);
        cr_expect(x->title == NULL || x->type == OM_FIELD_WINNER,
                  "%s: %s has a title but is not a winner", what, x->name);
        cr_assert_leq(x->offset + om_field_width(x->type), l->row_size, "%s: %s is outside "
                      "the row", what, x->name);
        for (size_t b = 0; b < om_field_width(x->type); b++)
            cr_expect_eq(used[x->offset + b]++, 0, "%s: %s overlaps another field", what,
                         x->name);
        cr_expect_eq(om_layout_find(l, x->name), (int)f, "%s: %s named twice", what, x->name);
    }
    for (size_t f = 0; wrong == NULL && f < l->unit_field_count; f++) {
        const om_field *x = &l->unit_fields[f];
        cr_expect(x->description != NULL && x->description[0] != '\0',
                  "%s: unit field %s has no description", what, x->name);
        cr_expect(x->title == NULL, "%s: unit field %s has a title", what, x->name);
        for (size_t u = 0; u < l->unit_count; u++)
            cr_expect_eq(used[om_layout_unit_offset(l, f, u)]++, 0, "%s: unit field %s of "
                         "unit %s overlaps another value", what, x->name, l->units[u].id);
    }
    for (size_t u = 0; wrong == NULL && u < l->unit_count; u++)
        cr_expect(l->units[u].name[0] != '\0' && l->units[u].army != NULL, "%s: unit %s has "
                  "no name or no army", what, l->units[u].id);
    for (int s = 0; s < 2; s++) {
        const om_side_score *sc = &l->side[s];
        cr_expect_not_null(sc->name, "%s: side %d has no name", what, s);
        if (sc->loss_field < 0)
            continue;
        cr_assert_lt((size_t)sc->loss_field, l->field_count, "%s: side %d", what, s);
        cr_expect(l->fields[sc->loss_field].type == OM_FIELD_COUNT,
                  "%s: side %d's losses are not a count", what, s);
        cr_expect_not_null(sc->loss_unit, "%s: side %d", what, s);
        cr_expect_eq(sc->vp_lost[0], 0u, "%s: side %d loses points for nothing lost", what, s);
        for (unsigned k = 1; k <= sc->loss_start && k < 256; k++)
            cr_expect_geq(sc->vp_lost[k], sc->vp_lost[k - 1], "%s: side %d: fewer points "
                          "lost for %u than for %u", what, s, k, k - 1);
        cr_expect_leq(sc->vp_lost[sc->loss_start], sc->points, "%s: side %d loses more "
                      "than its points", what, s);
    }
    cr_expect_leq(t->n_classes, (size_t)OM_LAYOUT_CLASSES_MAX, "%s", what);
    cr_expect_eq(t->n_classes > 0, t->class_rows != NULL, "%s: classes without rows", what);
}

/* Whether rows a and b (n of them) agree on every field's bytes and every
 * unit's value of every unit field. */
static bool same_fields(const om_layout *l, const uint8_t *a, const uint8_t *b, size_t n,
                        size_t *first)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t f = 0; f < l->field_count; f++) {
            const size_t at = i * l->row_size + l->fields[f].offset;
            if (memcmp(a + at, b + at, om_field_width(l->fields[f].type)) != 0) {
                *first = i;
                return false;
            }
        }
        for (size_t f = 0; f < l->unit_field_count; f++)
            for (size_t u = 0; u < l->unit_count; u++) {
                const size_t at = i * l->row_size + om_layout_unit_offset(l, f, u);
                if (a[at] != b[at]) {
                    *first = i;
                    return false;
                }
            }
    }
    return true;
}

/* A workspace of the game's, or NULL when it needs none. */
static void *work_of(const om_trials *t)
{
    void *w = NULL;
    if (t->game->trials->work_alloc != NULL)
        cr_assert_eq(t->game->trials->work_alloc(t->prepared, &w), OM_OK, "%s",
                     om_error_message());
    return w;
}

static void work_release(const om_trials *t, void *w)
{
    if (t->game->trials->work_free != NULL)
        t->game->trials->work_free(w);
}

/* resolve_block is a function of the prepared scenario and the stream: the
 * same rows (every field written: a row filled with 0x00 and one filled with
 * 0xFF come out the same) and the same dice left, with a fresh workspace or
 * one used for other trials; values of flags and winners in range. */
static void check_resolve(const char *what, const om_trials *t)
{
    const om_layout *l = &t->layout;
    const om_game_trial_methods *m = t->game->trials;
    uint8_t *a = malloc(BLOCK * l->row_size), *b = malloc(BLOCK * l->row_size);
    uint8_t *c = malloc(BLOCK * l->row_size);
    void *wa = work_of(t), *wb = work_of(t);
    om_dice da, db, dc;
    size_t first = 0;
    cr_assert(a && b && c);
    memset(a, 0x00, BLOCK * l->row_size);
    memset(b, 0xFF, BLOCK * l->row_size);
    dice_of(&da, 11, 3);
    dice_of(&db, 11, 3);
    m->resolve_block(t->prepared, wa, &da, a, BLOCK);
    m->resolve_block(t->prepared, wb, &db, b, BLOCK);
    cr_expect(same_fields(l, a, b, BLOCK, &first), "%s: two calls with one stream differ at "
              "trial %zu (or a field is not written)", what, first);
    cr_expect_eq(om_pcg64_next(&da.rng), om_pcg64_next(&db.rng), "%s: different dice drawn",
                 what);
    /* The used workspace, after trials of another stream, gives the same rows. */
    dice_of(&dc, 12, 9);
    m->resolve_block(t->prepared, wa, &dc, c, BLOCK);
    dice_of(&dc, 11, 3);
    memset(c, 0xA5, BLOCK * l->row_size);
    m->resolve_block(t->prepared, wa, &dc, c, BLOCK);
    cr_expect(same_fields(l, a, c, BLOCK, &first), "%s: a used workspace changes trial %zu",
              what, first);
    for (size_t i = 0; i < BLOCK; i++)
        for (size_t f = 0; f < l->field_count; f++) {
            const om_field *x = &l->fields[f];
            const unsigned v = om_field_value(x, a + i * l->row_size);
            if (x->type == OM_FIELD_WINNER)
                cr_assert_lt(v, (unsigned)OM_WINNER_CODES, "%s: %s = %u", what, x->name, v);
            else if (x->type == OM_FIELD_FLAG)
                cr_assert_leq(v, 1u, "%s: %s = %u", what, x->name, v);
        }
    /* Every unit's value at most its unit field's declared largest. */
    for (size_t i = 0; i < BLOCK; i++)
        for (size_t f = 0; f < l->unit_field_count; f++)
            for (size_t u = 0; u < l->unit_count; u++) {
                const unsigned v = a[i * l->row_size + om_layout_unit_offset(l, f, u)];
                cr_assert_leq(v, l->unit_fields[f].max, "%s: %s of %s = %u", what,
                              l->unit_fields[f].name, l->units[u].id, v);
            }
    work_release(t, wa);
    work_release(t, wb);
    free(a);
    free(b);
    free(c);
}

/* resolve_classes draws what resolve_block draws: the same rows (a trial of a
 * class has its class's row, written or not as asked) and the same dice
 * left; resolve_classes2 is two resolve_classes one after the other, for
 * blocks of different sizes. */
static void check_classes(const char *what, const om_trials *t)
{
    const om_layout *l = &t->layout;
    const om_game_trial_methods *m = t->game->trials;
    const size_t n[2] = {BLOCK, BLOCK / 2 + 7};
    uint8_t *rows = malloc(BLOCK * l->row_size), *one[2], *two[2];
    uint16_t *cls1[2], *cls2[2];
    void *w = work_of(t);
    om_dice d1, d2;
    size_t first = 0;
    cr_assert_not_null(m->resolve_classes, "%s: classes but no resolve_classes", what);
    for (int j = 0; j < 2; j++) {
        one[j] = malloc(BLOCK * l->row_size);
        two[j] = malloc(BLOCK * l->row_size);
        cls1[j] = malloc(BLOCK * sizeof *cls1[j]);
        cls2[j] = malloc(BLOCK * sizeof *cls2[j]);
        cr_assert(one[j] && two[j] && cls1[j] && cls2[j]);
    }
    dice_of(&d1, 5, 1);
    dice_of(&d2, 5, 1);
    m->resolve_block(t->prepared, w, &d1, rows, BLOCK);
    m->resolve_classes(t->prepared, w, &d2, one[0], cls1[0], true, BLOCK);
    cr_expect(same_fields(l, rows, one[0], BLOCK, &first), "%s: resolve_classes differs from "
              "resolve_block at trial %zu", what, first);
    cr_expect_eq(om_pcg64_next(&d1.rng), om_pcg64_next(&d2.rng), "%s: different dice", what);
    memset(one[1], 0xEE, BLOCK * l->row_size);
    dice_of(&d2, 5, 1);
    m->resolve_classes(t->prepared, w, &d2, one[1], cls1[1], false, BLOCK);
    for (size_t i = 0; i < BLOCK; i++) {
        const uint8_t *row = rows + i * l->row_size;
        cr_assert_eq(cls1[0][i], cls1[1][i], "%s: trial %zu changes class", what, i);
        if (cls1[0][i] == OM_LAYOUT_NO_CLASS) {
            cr_expect(same_fields(l, row, one[1] + i * l->row_size, 1, &first),
                      "%s: trial %zu of no class not written", what, i);
            continue;
        }
        cr_assert_lt(cls1[0][i], t->n_classes, "%s: trial %zu", what, i);
        cr_expect(same_fields(l, row, t->class_rows + cls1[0][i] * l->row_size, 1, &first),
                  "%s: trial %zu is not its class's row", what, i);
    }
    for (int class_rows = 0; class_rows < 2; class_rows++) {
        om_dice a[2], b[2];
        for (int j = 0; j < 2; j++) {
            memset(one[j], 0x5A, BLOCK * l->row_size);
            memset(two[j], 0x5A, BLOCK * l->row_size);
            dice_of(&a[j], 8, 2 + (uint64_t)j);
            dice_of(&b[j], 8, 2 + (uint64_t)j);
            m->resolve_classes(t->prepared, w, &a[j], one[j], cls1[j], class_rows, n[j]);
        }
        {
            om_dice *const d[2] = {&b[0], &b[1]};
            uint8_t *const r[2] = {two[0], two[1]};
            uint16_t *const c[2] = {cls2[0], cls2[1]};
            m->resolve_classes2(t->prepared, w, d, r, c, class_rows, n);
        }
        for (int j = 0; j < 2; j++) {
            cr_expect_eq(memcmp(one[j], two[j], n[j] * l->row_size), 0,
                         "%s: resolve_classes2 block %d differs", what, j);
            cr_expect_eq(memcmp(cls1[j], cls2[j], n[j] * sizeof cls1[j][0]), 0,
                         "%s: resolve_classes2 block %d classes differ", what, j);
            cr_expect_eq(om_pcg64_next(&a[j].rng), om_pcg64_next(&b[j].rng),
                         "%s: resolve_classes2 block %d draws other dice", what, j);
        }
    }
    work_release(t, w);
    for (int j = 0; j < 2; j++) {
        free(one[j]);
        free(two[j]);
        free(cls1[j]);
        free(cls2[j]);
    }
    free(rows);
}

/* Every kind's sample prepares into a well-formed layout and resolves. */
Test(contract, samples_prepare_and_resolve)
{
    size_t with_classes = 0, with_units = 0;
    for (size_t i = 0; i < om_game_count; i++) {
        const om_game *g = om_games[i];
        for (size_t k = 0; k < g->identity.n_kinds; k++) {
            om_scenario *sc = load_sample(g, &g->identity.kinds[k]);
            om_trials t;
            char what[128];
            snprintf(what, sizeof what, "%s/%s", g->identity.name, g->identity.kinds[k].name);
            cr_assert_eq(om_trials_prepare(sc, &t), OM_OK, "%s: %s", what, om_error_message());
            cr_expect_eq(t.game, g, "%s", what);
            check_layout(what, &t);
            check_resolve(what, &t);
            with_units += t.layout.unit_count > 0;
            if (t.n_classes > 0) {
                check_classes(what, &t);
                with_classes++;
            }
            om_trials_release(&t);
            cr_expect_null(t.prepared, "%s: released", what);
            om_scenario_free(sc);
        }
    }
    /* The classes path is a contract too: some game's sample must take it, or
     * nothing here checks it (a game that drops its classes must say why). */
    cr_expect_gt(with_classes, 0u, "no sample of any game has classes of trials");
    /* Per-unit results too: a whole turn's sample has them. */
    cr_expect_gt(with_units, 0u, "no sample of any game has per-unit results");
}

/* ------------------------------------------------------------ exact laws */

/* Each sample's exact law (om_trials_exact, the exact group): known, with
 * its method, for some one-byte fields (every one unless the reason says
 * why not), each summing to 1, with no trial of a block drawn at a value it
 * says is impossible; or refused with OM_EUNSUPPORTED and its reason, no
 * field known. A game without the group refuses every scenario. (Its
 * agreement with simulations is tests/test_exact.c's.) */
Test(contract, exact_laws)
{
    for (size_t i = 0; i < om_game_count; i++) {
        const om_game *g = om_games[i];
        for (size_t k = 0; k < g->identity.n_kinds; k++) {
            const om_game_kind *kind = &g->identity.kinds[k];
            om_scenario *sc = load_sample(g, kind);
            om_trials t;
            om_exact *x = NULL;
            om_status st;
            size_t one_byte = 0;
            char what[96];
            snprintf(what, sizeof what, "%s/%s", g->identity.name, kind->name);
            cr_assert_eq(om_trials_prepare(sc, &t), OM_OK, "%s: %s", what, om_error_message());
            st = om_trials_exact(&t, &x);
            cr_assert(st == OM_OK || st == OM_EUNSUPPORTED, "%s: %s", what, om_error_message());
            cr_assert_not_null(x, "%s: a law, known or not", what);
            cr_expect_eq(x->field_count, t.layout.field_count, "%s", what);
            for (size_t f = 0; f < t.layout.field_count; f++) {
                one_byte += t.layout.fields[f].type != OM_FIELD_COUNT16;
                cr_expect(!x->known[f] || t.layout.fields[f].type != OM_FIELD_COUNT16,
                          "%s: a two-byte count with an exact law", what);
            }
            if (st == OM_EUNSUPPORTED || g->exact == NULL) {
                cr_expect_eq(st, OM_EUNSUPPORTED, "%s: a game without the group", what);
                cr_expect_eq(om_exact_known_count(x), 0u, "%s", what);
                cr_expect(x->reason[0] != '\0' && x->method[0] == '\0', "%s: a reason", what);
            } else {
                uint8_t *rows = malloc(BLOCK * t.layout.row_size);
                void *w = work_of(&t);
                om_dice d;
                cr_assert_not_null(rows);
                cr_expect_gt(om_exact_known_count(x), 0u, "%s", what);
                cr_expect(x->method[0] != '\0', "%s: a method", what);
                cr_expect_eq(x->reason[0] == '\0', om_exact_known_count(x) == one_byte,
                             "%s: a reason exactly when a field has no law", what);
                cr_expect_eq(om_exact_check(x, &t.layout, what), OM_OK, "%s",
                             om_error_message());
                dice_of(&d, 5, 0);
                t.game->trials->resolve_block(t.prepared, w, &d, rows, BLOCK);
                for (size_t r = 0; r < BLOCK; r++)
                    for (size_t f = 0; f < t.layout.field_count; f++)
                        if (x->known[f])
                            cr_assert_gt(om_exact_p(x, f, rows[r * t.layout.row_size +
                                                               t.layout.fields[f].offset]),
                                         0.0, "%s: trial %zu drew %s at a value of exact "
                                         "probability 0", what, r, t.layout.fields[f].name);
                work_release(&t, w);
                free(rows);
            }
            om_exact_free(x);
            om_trials_release(&t);
            om_scenario_free(sc);
        }
    }
}

/* --------------------------------------------------------------- catalogue */

/* The key named `name` at level `where` of keys[0..n), or NULL. */
static const om_game_key *key_find(const om_game_key *keys, size_t n, const char *name,
                                   const char *where)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(keys[i].name, name) == 0 && (!where || strcmp(keys[i].where, where) == 0))
            return &keys[i];
    return NULL;
}

/* Whether `word` is among a name key's values. */
static bool key_has_value(const om_game_key *k, const char *word)
{
    for (size_t v = 0; k->values && v < k->n_values; v++)
        if (strcmp(k->values[v], word) == 0)
            return true;
    return false;
}

/* The keys of a game's files (the caller frees them). */
static om_game_key *keys_of(const om_game *g, size_t *n)
{
    om_game_key *keys;
    *n = g->catalogue->keys(NULL, 0);
    cr_assert_gt(*n, 0u, "%s lists no keys", g->identity.name);
    cr_assert_not_null(keys = calloc(*n, sizeof *keys));
    cr_assert_eq(g->catalogue->keys(keys, *n), *n, "%s", g->identity.name);
    return keys;
}

/* Every key has a level, a type, a default and a help line; a name key
 * lists its words or says which listing shows them; no key is listed twice
 * at one level; asked for fewer, the table says how many there are and
 * writes no more. The keys every game shares (schema, ruleset, kind, at the
 * top) say what the game declares. */
Test(contract, keys)
{
    for (size_t i = 0; i < om_game_count; i++) {
        const om_game *g = om_games[i];
        const char *gn = g->identity.name;
        size_t n;
        om_game_key *keys = keys_of(g, &n), two[2];
        const om_game_key *rs, *kind;
        for (size_t k = 0; k < n; k++) {
            const om_game_key *x = &keys[k];
            cr_assert(x->name && x->name[0], "%s: key %zu has no name", gn, k);
            cr_expect(x->where && x->where[0], "%s: %s has no level", gn, x->name);
            cr_expect(x->type && x->type[0], "%s: %s has no type", gn, x->name);
            cr_expect(x->fallback && x->fallback[0], "%s: %s has no default", gn, x->name);
            cr_expect(x->help && x->help[0], "%s: %s has no help", gn, x->name);
            cr_expect_eq(x->values == NULL, x->n_values == 0, "%s: %s: values and their count",
                         gn, x->name);
            for (size_t v = 0; x->values && v < x->n_values; v++)
                cr_expect(x->values[v] && x->values[v][0], "%s: %s: an empty word", gn,
                          x->name);
            if (x->type && strcmp(x->type, "name") == 0 && x->values == NULL)
                cr_expect(x->help && strstr(x->help, "oddsmaster list") != NULL,
                          "%s: name key %s (%s) neither lists its words nor says where they "
                          "are listed: %s", gn, x->name, x->where, x->help);
            for (size_t j = 0; j < k; j++)
                cr_expect(strcmp(keys[j].name, x->name) != 0 ||
                              strcmp(keys[j].where, x->where) != 0,
                          "%s: %s listed twice at level %s", gn, x->name, x->where);
        }
        memset(two, 0xCD, sizeof two);
        cr_expect_eq(g->catalogue->keys(two, 1), n, "%s: a short table", gn);
        cr_expect_str_eq(two[0].name, keys[0].name);
        cr_expect_eq(((const unsigned char *)&two[1])[0], 0xCD, "%s: wrote past cap", gn);

        cr_expect_not_null(key_find(keys, n, "schema", "top"), "%s: no top-level schema", gn);
        rs = key_find(keys, n, "ruleset", "top");
        cr_assert_not_null(rs, "%s: no top-level ruleset key", gn);
        for (const char *const *r = g->identity.rulesets; *r; r++)
            cr_expect(rs->values == NULL || key_has_value(rs, *r), "%s: ruleset key lacks %s",
                      gn, *r);
        for (size_t v = 0; rs->values && v < rs->n_values; v++)
            cr_expect_eq(om_game_for_ruleset(rs->values[v]), g, "%s: ruleset key names %s",
                         gn, rs->values[v]);
        kind = key_find(keys, n, "kind", "top");
        cr_assert_not_null(kind, "%s: no top-level kind key", gn);
        for (size_t k = 0; k < g->identity.n_kinds; k++)
            cr_expect(kind->values == NULL || key_has_value(kind, g->identity.kinds[k].name),
                      "%s: the kind key does not name kind %s", gn, g->identity.kinds[k].name);
        free(keys);
    }
}

/* Text of the sample of kind k with `line` appended (malloc). */
static char *sample_with(const om_game_kind *k, const char *line)
{
    const size_t n = strlen(k->sample), m = strlen(line);
    char *s = malloc(n + m + 1);
    cr_assert_not_null(s);
    memcpy(s, k->sample, n);
    memcpy(s + n, line, m + 1);
    return s;
}

/* Whether the reading `o` can be set to `value` in a scenario of some kind
 * of g (its sample with `options: {NAME: VALUE}`). */
static bool option_loads(const om_game *g, const om_option *o, const char *value)
{
    bool loads = false;
    for (size_t k = 0; k < g->identity.n_kinds && !loads; k++) {
        char line[256];
        char *text;
        om_scenario *sc = NULL;
        snprintf(line, sizeof line, "options: {%s: %s}\n", o->name, value);
        text = sample_with(&g->identity.kinds[k], line);
        loads = om_scenario_load_text(SOURCE, text, strlen(text), &sc) == OM_OK;
        om_error_clear();
        om_scenario_free(sc);
        free(text);
    }
    return loads;
}

/* Every reading has a name, an ambiguity, a rule it reads, a question and
 * its readings; names are unique in a game; a switch's default is its zero
 * (false, or 0 of a count 0..max), the other reading true or 1..max; it can
 * be set to each of its values and to nothing else, and some kind's
 * scenario takes it under `options:`; a fixed reading can be set to nothing,
 * by any kind. */
Test(contract, options)
{
    static unsigned char options[OPTIONS_BYTES];
    for (size_t i = 0; i < om_game_count; i++) {
        const om_game *g = om_games[i];
        const char *gn = g->identity.name;
        const om_option_table *const *tables = g->catalogue->option_tables;
        size_t n_tables = 0;
        cr_assert_not_null(tables, "%s: no registry of readings", gn);
        cr_expect(g->catalogue->options_title && g->catalogue->options_title[0],
                  "%s: no heading for its readings", gn);
        for (const om_option_table *const *t = tables; *t; t++, n_tables++) {
            cr_expect((*t)->what && (*t)->what[0], "%s: a registry says not what it covers",
                      gn);
            cr_expect_gt((*t)->count, 0u, "%s: an empty registry", gn);
            for (size_t r = 0; r < (*t)->count; r++) {
                const om_option *o = &(*t)->rows[r];
                char max[16], above[16], buf[32];
                cr_assert(o->name && o->name[0], "%s: a reading without a name", gn);
                cr_expect(o->ambiguity && o->ambiguity[0] && o->section && o->section[0] &&
                              o->question && o->question[0] && o->default_value &&
                              o->other_value,
                          "%s: %s: ambiguity, rule, question and readings", gn, o->name);
                for (const om_option_table *const *u = tables; *u; u++)
                    for (size_t q = 0; q < (*u)->count; q++)
                        cr_expect(&(*u)->rows[q] == o || strcmp((*u)->rows[q].name, o->name),
                                  "%s: reading %s named twice", gn, o->name);
                if (!om_option_is_switch(o)) {
                    cr_expect_eq(strncmp(o->default_value, "fixed", 5), 0, "%s: %s: %s", gn,
                                 o->name, o->default_value);
                    cr_expect_str_eq(o->other_value, "-", "%s: %s", gn, o->name);
                    cr_expect_eq(om_option_set(*t, options, o->name, "true"), OM_EINVAL,
                                 "%s: fixed reading %s set", gn, o->name);
                    cr_expect(!option_loads(g, o, "true"), "%s: a scenario sets fixed reading "
                              "%s", gn, o->name);
                    continue;
                }
                cr_assert_lt(o->offset, sizeof options, "%s: %s", gn, o->name);
                snprintf(max, sizeof max, "%u", o->max);
                snprintf(above, sizeof above, "%u", o->max + 1);
                if (o->max == 0) {
                    cr_expect_eq(strncmp(o->default_value, "false:", 6), 0, "%s: %s: %s", gn,
                                 o->name, o->default_value);
                    cr_expect_eq(strncmp(o->other_value, "true:", 5), 0, "%s: %s: %s", gn,
                                 o->name, o->other_value);
                } else {
                    char range[32];
                    snprintf(range, sizeof range, "1..%u", o->max);
                    cr_expect_eq(strncmp(o->default_value, "0:", 2), 0, "%s: %s: %s", gn,
                                 o->name, o->default_value);
                    cr_expect_eq(strncmp(o->other_value, range, strlen(range)), 0, "%s: %s: %s",
                                 gn, o->name, o->other_value);
                }
                memset(options, 0, sizeof options);
                cr_expect_str_eq(om_option_value(o, options, buf, sizeof buf),
                                 o->max ? "0" : "false", "%s: %s's zero", gn, o->name);
                cr_expect_eq(om_option_set(*t, options, o->name, o->max ? max : "true"), OM_OK,
                             "%s: %s: %s", gn, o->name, om_error_message());
                cr_expect_str_eq(om_option_value(o, options, buf, sizeof buf),
                                 o->max ? max : "true", "%s: %s", gn, o->name);
                cr_expect_eq(om_option_set(*t, options, o->name, o->max ? above : "maybe"),
                             OM_EINVAL, "%s: %s takes an impossible value", gn, o->name);
                cr_expect(option_loads(g, o, o->max ? max : "true"),
                          "%s: no kind's scenario takes the reading %s", gn, o->name);
            }
        }
        cr_expect_gt(n_tables, 0u, "%s: no registry", gn);
    }
}

/* A listing `oddsmaster list` can print: something to show; tables keyed and
 * titled once, with named columns (no more than the printer aligns) and a
 * cell for each; JSON members an object. */
static void check_listing(const char *what, const om_game_listing *l)
{
    cr_assert_not_null(l, "%s: no listing", what);
    cr_expect(l->heading || l->ntables || l->json, "%s: an empty listing", what);
    cr_expect(l->json == NULL || json_is_object(l->json), "%s: JSON not an object", what);
    for (size_t i = 0; i < l->ntables; i++) {
        const om_game_table *t = &l->tables[i];
        cr_assert(t->key && t->key[0], "%s: table %zu has no key", what, i);
        cr_expect(t->title && t->title[0], "%s: table %s has no title", what, t->key);
        cr_expect(t->ncols > 0 && t->ncols <= LIST_COLUMNS_MAX, "%s: %s has %zu columns", what,
                  t->key, t->ncols);
        for (size_t j = 0; j < i; j++)
            cr_expect_str_neq(l->tables[j].key, t->key, "%s: two tables %s", what, t->key);
        for (size_t c = 0; c < t->ncols; c++) {
            cr_assert(t->columns[c] && t->columns[c][0], "%s: %s: a column without a name",
                      what, t->key);
            cr_expect_leq((unsigned)t->types[c], (unsigned)OM_GAME_CELL_BOOL, "%s: %s", what,
                          t->key);
            for (size_t d = 0; d < c; d++)
                cr_expect_str_neq(t->columns[d], t->columns[c], "%s: %s: column %s twice",
                                  what, t->key, t->columns[c]);
        }
        for (size_t r = 0; r < t->nrows; r++)
            for (size_t c = 0; c < t->ncols; c++) {
                const char *x = t->cells[r * t->ncols + c];
                cr_assert_not_null(x, "%s: %s: a missing cell", what, t->key);
                if (t->types[c] == OM_GAME_CELL_INT && x[0] && strcmp(x, "-") != 0) {
                    char *end;
                    (void)strtoll(x, &end, 10);
                    cr_expect_eq(*end, '\0', "%s: %s.%s: '%s' is not an integer", what, t->key,
                                 t->columns[c], x);
                }
            }
    }
}

/* Every rule set's overview and rules are listings; the game's part of the
 * listings of every game is one or nothing; an unknown name in a rule set
 * is OM_ENOTFOUND naming it, and a rule set of no game's goes to the first
 * game with a listing, which reports it. */
Test(contract, listing)
{
    const om_game *first = NULL;
    for (size_t i = 0; i < om_game_count; i++) {
        const om_game *g = om_games[i];
        om_status (*list)(const char *, const char *, bool, om_game_listing **) =
            g->catalogue->list;
        cr_assert_not_null(list, "%s lists nothing", g->identity.name);
        if (first == NULL)
            first = g;
        for (const char *const *r = g->identity.rulesets; *r; r++)
            for (int rules = 0; rules < 2; rules++) {
                om_game_listing *l = NULL;
                char what[128];
                snprintf(what, sizeof what, "%s %s%s", g->identity.name, rules ? "--rules " : "",
                         *r);
                cr_assert_eq(list(*r, NULL, rules, &l), OM_OK, "%s: %s", what,
                             om_error_message());
                check_listing(what, l);
                om_game_listing_free(l);
                if (rules)
                    continue;
                l = (om_game_listing *)&l;
                cr_expect_eq(list(*r, "no-such-entry", false, &l), OM_ENOTFOUND, "%s", what);
                cr_expect_null(l, "%s: a listing left on error", what);
                cr_expect_not_null(strstr(om_error_message(), "no-such-entry"), "%s: %s", what,
                                   om_error_message());
            }
        for (int rules = 0; rules < 2; rules++) {
            om_game_listing *l = NULL;
            cr_assert_eq(list(NULL, NULL, rules, &l), OM_OK, "%s: %s", g->identity.name,
                         om_error_message());
            if (l != NULL)
                check_listing(g->identity.name, l);
            om_game_listing_free(l);
        }
    }
    {
        om_game_listing *l = (om_game_listing *)&l;
        cr_expect_null(om_game_for_ruleset("no-such-ruleset"));
        cr_expect_eq(first->catalogue->list("no-such-ruleset", NULL, false, &l), OM_ENOTFOUND);
        cr_expect_null(l);
        cr_expect_not_null(strstr(om_error_message(), "'no-such-ruleset'"), "%s",
                           om_error_message());
    }
}

/* The names the catalogue gives one level down, kept for the test. */
#define NAMES_KEPT_MAX 512

typedef struct names_seen {
    size_t n;                         /* names given */
    char name[NAMES_KEPT_MAX][160];   /* the first NAMES_KEPT_MAX of them */
    bool more[NAMES_KEPT_MAX];        /* whether names lie under each */
    bool empty;                       /* an empty name was given */
} names_seen;

static void keep_name(void *ctx, const char *name, bool more)
{
    names_seen *s = ctx;
    s->empty |= name == NULL || name[0] == '\0' || strchr(name, '/') != NULL;
    if (s->n < NAMES_KEPT_MAX) {
        snprintf(s->name[s->n], sizeof s->name[s->n], "%s", name ? name : "");
        s->more[s->n] = more;
    }
    s->n++;
}

/* Whether `oddsmaster list RULESET/WHAT` succeeds. */
static bool lists(const om_game *g, const char *ruleset, const char *what)
{
    om_game_listing *l = NULL;
    om_status st = g->catalogue->list(ruleset, what, false, &l);
    om_game_listing_free(l);
    return st == OM_OK;
}

/* The names under every rule set (what shell completion offers): some; each
 * a plain word that lists; under each name with `more`, names that list too
 * (the first and last of them, to keep the test short), and none under a
 * name without; an unknown name is OM_ENOTFOUND naming it. */
Test(contract, names)
{
    static names_seen top, below, leaf;
    for (size_t i = 0; i < om_game_count; i++) {
        const om_game *g = om_games[i];
        for (const char *const *r = g->identity.rulesets; *r; r++) {
            top = (names_seen){0};
            cr_assert_eq(g->catalogue->names(*r, NULL, keep_name, &top), OM_OK, "%s: %s", *r,
                         om_error_message());
            cr_expect_gt(top.n, 0, "%s: no names", *r);
            cr_expect_not(top.empty, "%s: an empty name, or one with a '/'", *r);
            for (size_t k = 0; k < top.n && k < NAMES_KEPT_MAX; k++) {
                char path[400];
                cr_expect(lists(g, *r, top.name[k]), "%s/%s does not list: %s", *r,
                          top.name[k], om_error_message());
                below = (names_seen){0};
                cr_assert_eq(g->catalogue->names(*r, top.name[k], keep_name, &below), OM_OK,
                             "%s/%s: %s", *r, top.name[k], om_error_message());
                cr_expect_eq(below.n > 0, top.more[k], "%s/%s: %zu names under it, more %d",
                             *r, top.name[k], below.n, top.more[k]);
                cr_expect_not(below.empty, "%s/%s: an empty name, or one with a '/'", *r,
                              top.name[k]);
                for (size_t j = 0; j < below.n && j < NAMES_KEPT_MAX; j += below.n - 1) {
                    snprintf(path, sizeof path, "%s/%s", top.name[k], below.name[j]);
                    cr_expect(lists(g, *r, path), "%s/%s does not list: %s", *r, path,
                              om_error_message());
                    cr_expect_not(below.more[j], "%s/%s: names three levels down", *r, path);
                    leaf = (names_seen){0};
                    cr_expect_eq(g->catalogue->names(*r, path, keep_name, &leaf), OM_OK,
                                 "%s/%s: %s", *r, path, om_error_message());
                    cr_expect_eq(leaf.n, 0, "%s/%s: names under a name without", *r, path);
                    if (below.n == 1)
                        break;
                }
            }
            cr_expect_eq(g->catalogue->names(*r, "no-such-entry", keep_name, &top),
                         OM_ENOTFOUND, "%s", *r);
            cr_expect_not_null(strstr(om_error_message(), "no-such-entry"), "%s: %s", *r,
                               om_error_message());
        }
    }
}

/* ----------------------------------------------------------------- matrices */

/* Rows of the first `n` trials of stream (3, 0) of a scenario. */
static uint8_t *rows_of(const om_scenario *sc, size_t n, om_layout *layout)
{
    om_trials t;
    om_dice d;
    uint8_t *rows;
    void *w;
    cr_assert_eq(om_trials_prepare(sc, &t), OM_OK, "%s: %s", sc->source, om_error_message());
    cr_assert_not_null(rows = malloc(n * t.layout.row_size));
    w = work_of(&t);
    dice_of(&d, 3, 0);
    t.game->trials->resolve_block(t.prepared, w, &d, rows, n);
    work_release(&t, w);
    *layout = t.layout;
    om_trials_release(&t);
    return rows;
}

/* The situations, kinds and sample units of each game's matrices; every
 * cell of the sample units in every situation and kind, built from the
 * units, is a scenario of that kind whose text loads to the same trials;
 * every situation has a cell the units can fight. */
Test(contract, matrix_cells)
{
    for (size_t i = 0; i < om_game_count; i++) {
        const om_game *g = om_games[i];
        const om_game_matrix_methods *m = g->matrix;
        const char *gn = g->identity.name, *rs = g->identity.rulesets[0];
        om_game_unit *u = NULL;
        size_t n = 0, kept = 0;
        cr_assert(m->n_situations > 0 && m->n_default_situations > 0 &&
                      m->n_default_situations <= m->n_situations,
                  "%s: %zu situations, %zu by default", gn, m->n_situations,
                  m->n_default_situations);
        for (size_t s = 0; s < m->n_situations; s++) {
            cr_assert(m->situations[s].name && m->situations[s].name[0], "%s: situation %zu",
                      gn, s);
            cr_expect(m->situations[s].title && m->situations[s].keys, "%s: %s", gn,
                      m->situations[s].name);
            for (size_t t = 0; t < s; t++)
                cr_expect_str_neq(m->situations[t].name, m->situations[s].name);
        }
        cr_assert(m->kinds && m->kinds[0], "%s: no kind of matrix", gn);
        for (const char *const *k = m->kinds; *k; k++) {
            bool declared = false;
            for (size_t j = 0; j < g->identity.n_kinds; j++)
                declared |= strcmp(g->identity.kinds[j].name, *k) == 0;
            cr_expect(declared, "%s: matrices run kind %s, which it does not declare", gn, *k);
        }
        cr_assert_not_null(m->sample_units, "%s: no sample units", gn);
        cr_assert_eq(m->units(rs, m->sample_units, &u, &n), OM_OK, "%s: %s", gn,
                     om_error_message());
        for (size_t r = 0; r < n; r++) {
            cr_expect(u[r].id[0] && u[r].name[0] && u[r].army[0], "%s: unit %zu", gn, r);
            if (u[r].left_out[0] == '\0') {
                cr_expect_not_null(u[r].data, "%s: %s", gn, u[r].id);
                u[kept++] = u[r];
            }
        }
        cr_assert_geq(kept, 2u, "%s: sample units %s give %zu", gn, m->sample_units, kept);
        for (const char *const *k = m->kinds; *k; k++)
            for (size_t s = 0; s < m->n_situations; s++) {
                size_t fought = 0;
                for (size_t r = 0; r < kept; r++)
                    for (size_t c = 0; c < kept; c++) {
                        om_scenario *cell = NULL, *again = NULL;
                        om_layout l1, l2;
                        unsigned cannot = ~0u;
                        uint8_t *a, *b;
                        cr_assert_eq(m->cell(rs, *k, s, &u[r], &u[c], NULL, 0, 7, &cell,
                                             &cannot),
                                     OM_OK, "%s %s %s: %s vs %s: %s", gn, *k,
                                     m->situations[s].name, u[r].id, u[c].id,
                                     om_error_message());
                        cr_expect_eq(cell->game, g);
                        cr_expect_str_eq(cell->kind, *k);
                        cr_expect_eq(cannot & ~(unsigned)(OM_GAME_ROW_CANNOT | OM_GAME_COL_CANNOT),
                                     0u);
                        if (cannot != 0) {
                            om_scenario_free(cell);
                            continue;
                        }
                        fought++;
                        cr_assert_eq(om_scenario_load_text("cell.yaml", cell->text,
                                                           strlen(cell->text), &again),
                                     OM_OK, "%s %s: %s", gn, m->situations[s].name,
                                     om_error_message());
                        a = rows_of(cell, CELL_TRIALS, &l1);
                        b = rows_of(again, CELL_TRIALS, &l2);
                        cr_assert_eq(l1.row_size, l2.row_size);
                        cr_expect_eq(memcmp(a, b, CELL_TRIALS * l1.row_size), 0,
                                     "%s %s %s: %s vs %s: its text runs other trials", gn, *k,
                                     m->situations[s].name, u[r].id, u[c].id);
                        free(a);
                        free(b);
                        om_scenario_free(again);
                        om_scenario_free(cell);
                    }
                cr_expect_gt(fought, 0u, "%s %s: no sample unit fights in situation %s", gn,
                             *k, m->situations[s].name);
            }
        m->units_free(u, n);
        u = NULL;
        n = 0;
        cr_expect_eq(m->units(rs, "no-such-army", &u, &n), OM_ENOTFOUND, "%s", gn);
        m->units_free(u, n);
    }
}

/* ---------------------------------------------------------------- bad input */

/* Line `n` (1-based) of text: where it starts and its length without '\n'. */
static bool line_at(const char *text, int n, const char **start, size_t *len)
{
    const char *p = text;
    for (int i = 1; i < n && p; i++)
        if ((p = strchr(p, '\n')) != NULL)
            p++;
    if (p == NULL || *p == '\0')
        return false;
    *start = p;
    *len = strcspn(p, "\n");
    return true;
}

/* text with line n replaced by `with` (a whole line, '\n' included), or with
 * `with` inserted before line n (malloc). */
static char *edit_line(const char *text, int n, const char *with, bool insert)
{
    const char *at;
    size_t len, head;
    char *out;
    cr_assert(line_at(text, n, &at, &len));
    head = (size_t)(at - text);
    if (!insert)
        len += at[len] == '\n';
    else
        len = 0;
    out = malloc(strlen(text) + strlen(with) + 1);
    cr_assert_not_null(out);
    memcpy(out, text, head);
    strcpy(out + head, with);
    strcat(out, at + len);
    return out;
}

/* Load `text` as SOURCE: it must fail with one of `want` (OM_OK ends the
 * list), leave no scenario, and say "SOURCE:LINE: field 'PATH'" with PATH
 * ending in `field`. */
static void expect_refused(const char *what, const char *text, int line, const char *field,
                           const om_status *want)
{
    om_scenario *sc = (om_scenario *)&sc;
    char prefix[64];
    const char *msg, *path;
    bool status_ok = false;
    om_status st = om_scenario_load_text(SOURCE, text, strlen(text), &sc);
    for (const om_status *w = want; *w != OM_OK; w++)
        status_ok |= st == *w;
    cr_expect(status_ok, "%s: status %d (%s)", what, (int)st, om_error_message());
    cr_expect_null(sc, "%s: a scenario left on error", what);
    if (st == OM_OK) {
        om_scenario_free(sc);
        return;
    }
    msg = om_error_message();
    snprintf(prefix, sizeof prefix, SOURCE ":%d: field '", line);
    path = strstr(msg, prefix);
    cr_expect_not_null(path, "%s: the message does not say %s...: %s", what, prefix, msg);
    if (path != NULL) {
        const size_t n = strlen(field);
        size_t plen;
        path += strlen(prefix);
        plen = strcspn(path, "'");
        cr_expect(plen >= n && strncmp(path + plen - n, field, n) == 0 &&
                      (plen == n || path[plen - n - 1] == '.'),
                  "%s: the field is not %s: %s", what, field, msg);
    }
    om_error_clear();
}

/* A line "KEY: VALUE" (after indentation and a "- " of a list entry) with a
 * plain scalar value: its key into key[0..cap). */
static bool scalar_line(const char *line, size_t len, char *key, size_t cap)
{
    size_t i = 0, k = 0;
    while (i < len && line[i] == ' ')
        i++;
    if (i + 1 < len && line[i] == '-' && line[i + 1] == ' ')
        i += 2;
    while (i < len && (islower((unsigned char)line[i]) || line[i] == '_' ||
                       isdigit((unsigned char)line[i])) && k + 1 < cap)
        key[k++] = line[i++];
    key[k] = '\0';
    if (k == 0 || i + 2 >= len || line[i] != ':' || line[i + 1] != ' ')
        return false;
    return line[i + 2] != '{' && line[i + 2] != '[' && line[i + 2] != '#';
}

/* A value key `name` cannot take, from its rows in keys[0..n) (all of one
 * type), into buf: a word not its for a name key with words, "maybe" for a
 * true/false key, one past the top of a numeric range; NULL for others. */
static const char *impossible_value(const om_game_key *keys, size_t n, const char *name,
                                    char *buf, size_t cap)
{
    const om_game_key *k = NULL;
    long lo, hi;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(keys[i].name, name) != 0)
            continue;
        if (k != NULL && strcmp(k->type, keys[i].type) != 0)
            return NULL; /* rows of other types at other levels: ambiguous */
        k = &keys[i];
    }
    if (k == NULL)
        return NULL;
    if (k->values != NULL)
        return "no-such-word";
    if (strcmp(k->type, "true/false") == 0)
        return "maybe";
    if (sscanf(k->type, "%ld..%ld", &lo, &hi) == 2) {
        snprintf(buf, cap, "%ld", hi + 1);
        return buf;
    }
    return NULL;
}

/* Each kind's sample spoilt three ways: an unknown key at the top level and
 * in each block mapping, an impossible value in each line whose key the
 * game's key table types (a word not the key's, "maybe" for true/false, one
 * past the top of a range), and a rule set of no game's. Each is an error
 * naming the file, the line and the field; an impossible value of every
 * game is tried. */
Test(contract, bad_input)
{
    static const om_status parse_errors[] = {OM_EPARSE, OM_OK};
    static const om_status value_errors[] = {OM_EPARSE, OM_EINVAL, OM_ENOTFOUND, OM_OK};
    static const om_status unknown[] = {OM_ENOTFOUND, OM_OK};
    for (size_t i = 0; i < om_game_count; i++) {
        const om_game *g = om_games[i];
        size_t n_keys, values_tried = 0, keys_tried = 0;
        om_game_key *keys = keys_of(g, &n_keys);
        for (size_t k = 0; k < g->identity.n_kinds; k++) {
            const char *sample = g->identity.kinds[k].sample;
            const char *line;
            size_t len;
            bool ruleset_seen = false;
            char what[192];
            for (int no = 1; line_at(sample, no, &line, &len); no++) {
                char key[64], buf[32], with[256];
                const char *bad;
                char *text;
                snprintf(what, sizeof what, "%s/%s line %d", g->identity.name,
                         g->identity.kinds[k].name, no);
                /* A key of no game's, at the top (after the first line) and in
                 * each block mapping (a line "KEY:" followed by its entries). */
                if (no == 1 || (len > 0 && line[len - 1] == ':')) {
                    const char *next;
                    size_t next_len, indent = 0;
                    if (no > 1) {
                        if (!line_at(sample, no + 1, &next, &next_len))
                            continue;
                        indent = strspn(next, " ");
                        if (indent <= strspn(line, " ") || strncmp(next + indent, "- ", 2) == 0)
                            indent = SIZE_MAX; /* not a block mapping */
                    }
                    if (indent != SIZE_MAX) {
                        snprintf(with, sizeof with, "%*sno_such_key_of_any_game: 1\n",
                                 (int)indent, "");
                        text = edit_line(sample, no + 1, with, true);
                        expect_refused(what, text, no + 1, "no_such_key_of_any_game",
                                       parse_errors);
                        free(text);
                        keys_tried++;
                    }
                }
                if (!scalar_line(line, len, key, sizeof key))
                    continue;
                if (strcmp(key, "ruleset") == 0 && strspn(line, " ") == 0) {
                    text = edit_line(sample, no, "ruleset: no-such-ruleset\n", false);
                    expect_refused(what, text, no, "ruleset", unknown);
                    free(text);
                    ruleset_seen = true;
                    continue;
                }
                if ((bad = impossible_value(keys, n_keys, key, buf, sizeof buf)) == NULL)
                    continue;
                snprintf(with, sizeof with, "%.*s%s\n", (int)(strchr(line, ':') + 2 - line), line,
                         bad);
                text = edit_line(sample, no, with, false);
                expect_refused(what, text, no, key, value_errors);
                free(text);
                values_tried++;
            }
            cr_expect(ruleset_seen, "%s/%s: the sample has no top-level ruleset line",
                      g->identity.name, g->identity.kinds[k].name);
        }
        cr_expect_gt(values_tried, 0u, "%s: no impossible value tried", g->identity.name);
        cr_expect_gt(keys_tried, g->identity.n_kinds, "%s: unknown keys tried only at the top",
                     g->identity.name);
        free(keys);
    }
}

/* ------------------------------------------------------------ narration */

/* Each sample a game tells (the narrate group): its trial told on a stream
 * gives the row resolve_block gives on the same stream, the fields of the
 * margin are count fields of its layout, and something is told; a sample it
 * does not tell is refused. */
Test(contract, narration)
{
    for (size_t i = 0; i < om_game_count; i++) {
        const om_game *g = om_games[i];
        if (g->narrate == NULL)
            continue;
        for (size_t k = 0; k < g->identity.n_kinds; k++) {
            om_scenario *sc = load_sample(g, &g->identity.kinds[k]);
            om_trials t;
            om_dice d = {.plain = NULL};
            void *work = NULL;
            char what[96], *story = NULL;
            size_t len = 0;
            FILE *out;
            snprintf(what, sizeof what, "%s/%s", g->identity.name, g->identity.kinds[k].name);
            cr_assert_eq(om_trials_prepare(sc, &t), OM_OK, "%s: %s", what, om_error_message());
            uint8_t *a = calloc(1, t.layout.row_size), *b = calloc(1, t.layout.row_size);
            cr_assert(a != NULL && b != NULL && (out = open_memstream(&story, &len)) != NULL);
            if (!g->narrate->tells(t.prepared)) {
                cr_expect_eq(g->narrate->narrate(t.prepared, &d, b, out, 0, NULL),
                             OM_EUNSUPPORTED, "%s: a kind it does not tell", what);
            } else {
                for (int s = 0; s < 2; s++) {
                    int f = t.layout.score_field[s] != NULL
                                ? om_layout_find(&t.layout, t.layout.score_field[s]) : -1;
                    cr_expect_geq(f, 0, "%s: the margin's field %s", what,
                                  t.layout.score_field[s] ? t.layout.score_field[s] : "(none)");
                    if (f >= 0)
                        cr_expect(t.layout.fields[f].type == OM_FIELD_COUNT ||
                                      t.layout.fields[f].type == OM_FIELD_COUNT16,
                                  "%s: a count", what);
                }
                if (g->trials->work_alloc != NULL)
                    cr_assert_eq(g->trials->work_alloc(t.prepared, &work), OM_OK);
                om_rng_seed_block(&d.rng, 9, 4);
                g->trials->resolve_block(t.prepared, work, &d, a, 1);
                om_rng_seed_block(&d.rng, 9, 4);
                cr_expect_eq(g->narrate->narrate(t.prepared, &d, b, out, 0, NULL), OM_OK, "%s: %s",
                             what, om_error_message());
                cr_expect_eq(memcmp(a, b, t.layout.row_size), 0, "%s: the row told is the "
                             "row resolved", what);
                if (g->trials->work_free != NULL)
                    g->trials->work_free(work);
            }
            fclose(out);
            if (g->narrate->tells(t.prepared))
                cr_expect_gt(len, 0u, "%s: something told", what);
            free(story);
            free(a);
            free(b);
            om_trials_release(&t);
            om_scenario_free(sc);
        }
    }
}

/*
 * Battles from the command line (the battles group, version 2): a game that
 * has them names its example lists, the text it writes for two of them
 * loads as a scenario of that game whose layout declares each side's score
 * and a unit's loss, and a misspelt example is refused with the nearest one.
 */
Test(contract, battles_from_the_command_line)
{
    size_t with = 0;
    for (size_t gi = 0; gi < om_game_count; gi++) {
        const om_game *g = om_games[gi];
        const char *first;
        char *text = NULL, wrong[256];
        om_scenario *sc = NULL;
        om_trials t;
        if (g->battles == NULL || g->battles->version < 2)
            continue;
        with++;
        cr_assert_not_null(g->battles->example_at, "%s: example_at", g->identity.name);
        cr_assert_not_null(g->battles->battle_text, "%s: battle_text", g->identity.name);
        first = g->battles->example_at(0);
        cr_assert_not_null(first, "%s: at least one example list", g->identity.name);
        om_game_battle_spec spec = {.list = {first, first}, .list_word = {"LIST_A", "LIST_B"},
                                    .doctrine_word = {"--doctrine-a", "--doctrine-b"},
                                    .turns = 1};
        cr_assert_eq(om_game_battle_text(&spec, &text), OM_OK, "%s: %s", g->identity.name,
                     om_error_message());
        cr_assert_eq(om_scenario_load_text("battle", text, strlen(text), &sc), OM_OK,
                     "%s: the battle's text loads: %s\n%s", g->identity.name,
                     om_error_message(), text);
        cr_expect_eq(sc->game, g, "%s: the battle is the game's", g->identity.name);
        cr_assert_eq(om_trials_prepare(sc, &t), OM_OK, "%s: %s", g->identity.name,
                     om_error_message());
        cr_expect_not_null(t.layout.score_field[0], "%s: A's score declared", g->identity.name);
        cr_expect_not_null(t.layout.score_field[1], "%s: B's score declared", g->identity.name);
        cr_expect_not_null(t.layout.unit_lost_field, "%s: a unit's loss declared",
                           g->identity.name);
        om_trials_release(&t);
        om_scenario_free(sc);
        free(text);
        snprintf(wrong, sizeof wrong, "%sx", first);
        spec.list[1] = wrong;
        text = NULL;
        cr_expect_eq(om_game_battle_text(&spec, &text), OM_ENOTFOUND, "%s: %s refused",
                     g->identity.name, wrong);
        cr_expect_null(text);
        cr_expect_not_null(strstr(om_error_message(), "LIST_B"), "%s: %s", g->identity.name,
                           om_error_message());
        cr_expect_not_null(strstr(om_error_message(), first), "%s: did you mean: %s",
                           g->identity.name, om_error_message());
    }
    cr_expect_gt(with, 0, "some game fights battles from the command line");
}
