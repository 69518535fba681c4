/*
 * test_matrix.c: matchup matrices (sim/matrix.c, scenarios/warmaster/wm_matrix.c): lists
 * of units read once from the army data (several armies, every army, refusals),
 * cells built from those units with the keys each unit can use and the cells
 * a unit has no part in, cell seeds, and the property the CLI documents: a
 * cell built from data means exactly what `run` of its scenario text means,
 * and its numbers equal a separate run with the cell's seed and trial count,
 * whatever the thread count. Matrices of army lists (sim/matrix_lists.c):
 * the legs of a pairing on common dice, the same file on any thread count,
 * folders of lists and the lists refused.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "army.h"
#include "game.h"
#include "matrix.h"
#include "run.h"
#include "tmpdir.h"
#include "wm.h"
#include "wm_scenario.h"

/* A plan of `rows` against `cols` in the named situations (Revolution). */
static om_matrix_plan *plan_of(const char *rows, const char *cols, const char *const *sits,
                               size_t n)
{
    om_matrix_spec spec = {.ruleset = "warmaster-revolution", .rows = rows, .cols = cols,
                           .situations = sits, .n_situations = n, .kind = "combat",
                           .seed = 42, .trials = 30000, .max_trials = 1000000, .threads = 2};
    om_matrix_plan *p = NULL;
    cr_assert_eq(om_matrix_plan_alloc(&spec, &p), OM_OK, "%s vs %s: %s", rows, cols,
                 om_error_message());
    return p;
}

/* The error of planning rows against cols (NULL situations: the default). */
static om_status plan_error(const char *rows, const char *cols, const char *sit)
{
    const char *sits[1] = {sit};
    om_matrix_spec spec = {.ruleset = "warmaster-revolution", .rows = rows, .cols = cols,
                           .situations = sits, .n_situations = sit ? 1 : 0, .seed = 1,
                           .trials = 10};
    om_matrix_plan *p = NULL;
    om_status st = om_matrix_plan_alloc(&spec, &p);
    cr_expect_null(p);
    om_matrix_plan_free(p);
    return st;
}

Test(matrix, lists_from_the_army_data)
{
    om_matrix_plan *p = plan_of("empire", "orcs/black-orcs,trolls", NULL, 0);
    bool has_knights = false, has_general = false;
    for (size_t i = 0; i < p->n_rows; i++) {
        has_knights |= strcmp(p->rows[i].id, "empire/knights") == 0;
        has_general |= strcmp(p->rows[i].id, "empire/general") == 0;
        cr_expect_str_eq(p->rows[i].army, "Empire");
    }
    cr_expect(has_knights, "troop units are in the list");
    cr_expect(!has_general, "characters are not matrix units");
    cr_expect_eq(p->n_cols, 2u);
    cr_expect_str_eq(p->cols[1].name, "Trolls");
    cr_expect_str_eq(p->cols[0].troop, "infantry");
    cr_expect_eq(p->cols[0].points, 110u);
    cr_expect_eq(p->n_sits, 2u, "the default situations");
    om_matrix_plan_free(p);

    cr_expect_eq(plan_error("empire", "orcs/trols", NULL), OM_ENOTFOUND);
    cr_expect(strstr(om_error_message(), "trolls") != NULL, "suggests: %s", om_error_message());
    cr_expect_eq(plan_error("emprie", "orcs", NULL), OM_ENOTFOUND);
    cr_expect_eq(plan_error("empire/knights,knights", "orcs", NULL), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "empire/knights is listed twice") != NULL, "%s",
              om_error_message());
    /* A character: one clear sentence, said once. */
    cr_expect_eq(plan_error("empire/general", "orcs", NULL), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "empire/general is a general, not a unit") != NULL, "%s",
              om_error_message());
    cr_expect_null(strstr(strstr(om_error_message(), "general") + 1, "empire/general"),
                   "%s", om_error_message());
    cr_expect_eq(plan_error("empire", "orcs", "no-such-situation"), OM_ENOTFOUND);
    cr_expect_eq(plan_error("", "orcs", NULL), OM_EINVAL);
}

/* Several armies on an axis, or every army of the rule set. */
Test(matrix, several_armies_and_all)
{
    om_matrix_plan *p = plan_of("empire/knights,halberdiers,dwarfs/warriors", "orcs,chaos", NULL,
                                0);
    size_t orcs = 0, chaos = 0, armies = om_army_count(om_army_ruleset_find("warmaster-revolution"));
    cr_expect_eq(p->n_rows, 3u);
    cr_expect_str_eq(p->rows[1].id, "empire/halberdiers", "a bare unit after ARMY/UNIT");
    cr_expect_str_eq(p->rows[2].army, "Dwarfs");
    for (size_t c = 0; c < p->n_cols; c++) {
        orcs += strncmp(p->cols[c].id, "orcs/", 5) == 0;
        chaos += strncmp(p->cols[c].id, "chaos/", 6) == 0;
    }
    cr_expect(orcs > 5 && chaos > 5 && orcs + chaos == p->n_cols, "%zu + %zu", orcs, chaos);
    om_matrix_plan_free(p);
    p = plan_of("empire/knights", "all", NULL, 0);
    cr_expect_gt(p->n_cols, 5 * armies, "every troop unit of the %zu armies", armies);
    om_matrix_plan_free(p);
}

/* The unit a matrix reads from the data is the unit `from: ARMY/UNIT` loads,
 * value for value, for every unit of every army of every rule set. */
Test(matrix, units_from_data_equal_the_loader)
{
    static const char *const rulesets[] = {"warmaster-1.1", "warmaster-revolution",
                                           "warmaster-ancients"};
    size_t checked = 0;
    for (size_t k = 0; k < 3; k++) {
        const om_game *g = om_game_for_ruleset(rulesets[k]);
        om_game_unit *units = NULL;
        size_t n = 0;
        cr_assert_eq(g->matrix->units(rulesets[k], "all", &units, &n), OM_OK, "%s", om_error_message());
        for (size_t i = 0; i < n; i++) {
            char text[512];
            om_wm_scenario *sc = NULL;
            snprintf(text, sizeof text,
                     "schema: oddsmaster-scenario/1\nruleset: %s\nkind: volley\n"
                     "a: {unit: {name: X, type: infantry, stands: 3, attacks: 3, hits: 3, "
                     "armour: none, shots: 1}}\nb: {unit: {from: %s}}\n", rulesets[k],
                     units[i].id);
            if (om_wm_scenario_load_text("u", text, strlen(text), &sc) != OM_OK) {
                om_error_clear();
                continue; /* a list entry the loader refuses in this role (a laager...) */
            }
            cr_expect_eq(units[i].left_out[0], '\0', "%s is left out (%s) but loads",
                         units[i].id, units[i].left_out);
            if (units[i].left_out[0] != '\0') {
                om_wm_scenario_free(sc);
                continue;
            }
            const om_wm_unit *a = units[i].data, *b = &sc->engagement.side[1].unit;
            cr_expect_eq(memcmp(a, b, sizeof *a), 0, "%s: the matrix's unit differs from "
                         "the loader's", units[i].id);
            checked++;
            om_wm_scenario_free(sc);
        }
        g->matrix->units_free(units, n);
    }
    cr_expect_gt(checked, 500u, "%zu units checked", checked);
}

/* An entry of the army data the engine cannot fight with (Warmaster
 * Revolution's Cathay Maneaters have no Hits value in the community lists) is
 * left out of an army item with its reason, and is an error when named. */
Test(matrix, units_with_impossible_data_are_left_out_or_refused)
{
    om_matrix_plan *p = plan_of("empire/knights", "cathay", NULL, 0);
    cr_expect(strstr(p->left_out, "cathay/maneaters: hits must be 1 to 12 (got 0)") != NULL,
              "left out: '%s'", p->left_out);
    for (size_t c = 0; c < p->n_cols; c++)
        cr_expect_str_neq(p->cols[c].id, "cathay/maneaters");
    cr_expect_gt(p->n_cols, 3u);
    om_matrix_plan_free(p);
    cr_expect_eq(plan_error("empire/knights", "cathay/maneaters", NULL), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "cathay/maneaters") &&
              strstr(om_error_message(), "hits"), "%s", om_error_message());
    om_error_clear();
}

/* Situations add only the keys a unit can use: Knights cannot shoot or be
 * defended, Crossbowmen can do both; and flag the cells a unit has no part in. */
Test(matrix, cells_adapt_to_the_units_and_flag_what_they_cannot_do)
{
    const char *const sits[] = {"a-charges-b-shoots", "a-charges-b-defended", "b-shoots-first",
                                "a-charges"};
    om_matrix_plan *p = plan_of("empire/knights,cannon", "empire/crossbowmen,knights", sits, 4);
    for (size_t s = 0; s < 4; s++)
        for (size_t c = 0; c < 2; c++) {
            om_scenario *sc = NULL;
            cr_assert_eq(om_matrix_cell_scenario(p, s, 0, c, &sc), OM_OK, "%s",
                         om_error_message());
            const om_wm_engagement *e = &((const om_wm_scenario *)sc->setup)->engagement;
            const om_wm_side *b = &e->side[1];
            bool xbows = c == 0;
            cr_expect(e->side[0].charging);
            cr_expect_eq(b->stand_and_shoot, xbows && (s == 0 || s == 2), "cell %zu,%zu", s, c);
            cr_expect_eq(b->shoots_first, xbows && s == 2);
            cr_expect_eq(b->position == OM_WM_DEFENDED, xbows && s == 1);
            /* Its text says the same, and loads into the same engagement. */
            om_wm_scenario *again = NULL;
            cr_assert_eq(om_wm_scenario_load_text("cell", sc->text, strlen(sc->text), &again),
                         OM_OK, "%s\n%s", om_error_message(), sc->text);
            cr_expect_eq(memcmp(&again->engagement.side[1], b, sizeof *b), 0, "%s", sc->text);
            cr_expect_eq(memcmp(&again->engagement.side[0], &e->side[0], sizeof *b), 0);
            om_wm_scenario_free(again);
            om_scenario_free(sc);
        }
    /* Knights can neither shoot nor hold a defended position; the Cannon, as
     * artillery, takes no part in a melee. */
#define CANNOT(s, r, c) p->cannot[((s) * p->n_rows + (r)) * p->n_cols + (c)]
    cr_expect_eq(CANNOT(0, 0, 0), 0, "Knights charge Crossbowmen who shoot");
    cr_expect_eq(CANNOT(0, 0, 1), OM_GAME_COL_CANNOT, "Knights asked to stand and shoot");
    cr_expect_eq(CANNOT(1, 0, 0), 0, "Crossbowmen hold a defended position");
    cr_expect_eq(CANNOT(1, 0, 1), OM_GAME_COL_CANNOT, "cavalry cannot be defended");
    cr_expect_eq(CANNOT(3, 1, 0), OM_GAME_ROW_CANNOT, "artillery asked to charge");
    cr_expect_eq(CANNOT(3, 0, 1), 0);
#undef CANNOT
    cr_expect_neq(om_matrix_cell_seed(42, 0, 0, 0), om_matrix_cell_seed(42, 0, 0, 1));
    cr_expect_eq(om_matrix_cell_seed(42, 1, 0, 1), om_matrix_cell_seed(42, 1, 0, 1));
    om_matrix_plan_free(p);

    /* An army none of whose units takes part: the Helblaster and the Cannon are
     * artillery, asked to fight. */
    cr_expect_eq(plan_error("empire/helblaster,cannon", "orcs", "a-charges"), OM_EINVAL);
    cr_expect(strstr(om_error_message(), "no unit of Empire (rows) takes part") != NULL, "%s",
              om_error_message());
}

typedef struct counts {
    uint64_t a, draw, b, n; /* trials won by A, drawn, won by B, in all */
    size_t winner, row_size; /* where the winner is in a row, and the row's size */
} counts;

/* Count the winners row by row (not from the tallies the matrix uses). */
static om_status count_rows(void *ctx, const om_block *b, bool *stop)
{
    counts *c = ctx;
    (void)stop;
    for (size_t i = 0; i < b->n; i++) {
        uint8_t w = b->rows[i * c->row_size + c->winner];
        c->a += w == OM_WINNER_A;
        c->draw += w == OM_WINNER_DRAW;
        c->b += w == OM_WINNER_B;
    }
    c->n += b->n;
    return OM_OK;
}

/* A matrix cell equals a separate run of its scenario text with the cell's
 * seed, on 1 or 2 threads. */
Test(matrix, cell_equals_a_separate_run)
{
    om_matrix_plan *p = plan_of("empire/knights,halberdiers", "orcs/orc-warriors,trolls", NULL, 0);
    om_matrix_cell cell;
    om_scenario *cell_sc = NULL, *sc = NULL;
    om_trials t;
    counts c = {0};
    om_run_config cfg = {.trials = p->spec.trials, .seed = om_matrix_cell_seed(42, 1, 1, 0),
                         .threads = 1};
    om_run_sink sink = {.ctx = &c, .put = count_rows};

    cr_assert_eq(om_matrix_simulate_cell(p, 1, 1, 0, 2, &cell, NULL), OM_OK, "%s",
                 om_error_message());
    cr_assert_eq(om_matrix_cell_scenario(p, 1, 1, 0, &cell_sc), OM_OK);
    cr_assert_eq(om_scenario_load_text("cell", cell_sc->text, strlen(cell_sc->text), &sc), OM_OK,
                 "%s", om_error_message());
    cr_assert_eq(om_trials_prepare(sc, &t), OM_OK);
    c.winner = t.layout.fields[om_layout_find(&t.layout, "winner")].offset;
    c.row_size = t.layout.row_size;
    cr_assert_eq(om_run_simulate(&t, &cfg, &sink, NULL), OM_OK);
    cr_expect_eq(cell.trials, c.n);
    cr_expect_eq(cell.wins_row, c.a);
    cr_expect_eq(cell.draws, c.draw);
    cr_expect_eq(cell.wins_col, c.b);
    cr_expect_gt(cell.points_lost_row_sum + cell.points_lost_col_sum, 0.0);
    om_trials_release(&t);
    om_scenario_free(sc);
    om_scenario_free(cell_sc);
    om_matrix_plan_free(p);
}

/* Each trial's winner, by its number in the run (a sink's context). */
typedef struct winners {
    uint8_t *code;   /* [trials] */
    size_t winner, row_size; /* where the winner is in a row, and the row's size */
} winners;

static om_status keep_winners(void *ctx, const om_block *b, bool *stop)
{
    winners *w = ctx;
    (void)stop;
    for (size_t i = 0; i < b->n; i++)
        w->code[b->first + i] = b->rows[i * w->row_size + w->winner];
    return OM_OK;
}

/* A cell of trial streams under a reading given to the whole matrix holds the
 * reading in its text, and its winners, trial by trial, are those of a
 * separate run of that text with trial streams and the cell's seed, on 1 and
 * on 2 threads; the reading changes some trials and leaves the others as
 * they were (common random numbers: the basis of compare's pairs). */
Test(matrix, cell_of_trial_streams_and_readings_equals_a_separate_run)
{
    static const char *const reading[] = {"max_turns=1"};
    om_matrix_spec spec = {.ruleset = "warmaster-revolution", .rows = "empire/knights",
                           .cols = "orcs/orc-warriors", .kind = "engagement", .seed = 42,
                           .trials = 20000, .threads = 2, .trial_streams = true};
    om_matrix_plan *base = NULL, *p = NULL;
    om_matrix_cell cell, base_cell;
    om_scenario *cell_sc = NULL, *sc = NULL;
    om_trials t;
    uint8_t *codes = malloc(spec.trials), *base_codes = malloc(spec.trials);
    uint8_t *run_codes = malloc(spec.trials);
    size_t changed = 0;

    cr_assert(codes != NULL && base_codes != NULL && run_codes != NULL);
    cr_assert_eq(om_matrix_plan_alloc(&spec, &base), OM_OK, "%s", om_error_message());
    spec.options = reading;
    spec.n_options = 1;
    cr_assert_eq(om_matrix_plan_alloc(&spec, &p), OM_OK, "%s", om_error_message());
    cr_expect_str_eq(p->options_text, "max_turns=1");
    cr_expect_eq(p->outcome_trials, spec.trials);
    cr_assert_eq(om_matrix_simulate_cell(p, 0, 0, 0, 2, &cell, codes), OM_OK, "%s",
                 om_error_message());
    cr_assert_eq(om_matrix_simulate_cell(base, 0, 0, 0, 2, &base_cell, base_codes), OM_OK, "%s",
                 om_error_message());
    cr_assert_eq(om_matrix_cell_scenario(p, 0, 0, 0, &cell_sc), OM_OK);
    cr_expect(strstr(cell_sc->text, "options:\n  max_turns: 1\n") != NULL, "%s", cell_sc->text);
    cr_assert_eq(om_scenario_load_text("cell", cell_sc->text, strlen(cell_sc->text), &sc), OM_OK,
                 "%s", om_error_message());
    cr_assert_eq(om_trials_prepare(sc, &t), OM_OK);
    winners w = {.code = run_codes, .row_size = t.layout.row_size,
                 .winner = t.layout.fields[om_layout_find(&t.layout, "winner")].offset};
    om_run_sink sink = {.ctx = &w, .put = keep_winners};
    for (unsigned threads = 1; threads <= 2; threads++) {
        om_run_config cfg = {.trials = spec.trials, .seed = om_matrix_cell_seed(42, 0, 0, 0),
                             .block_size = OM_RUN_BLOCK_SIZE, .threads = threads,
                             .trial_streams = true};
        memset(run_codes, 0xff, spec.trials);
        cr_assert_eq(om_run_simulate(&t, &cfg, &sink, NULL), OM_OK, "%s", om_error_message());
        cr_expect_eq(memcmp(codes, run_codes, spec.trials), 0, "%u threads", threads);
    }
    for (uint64_t i = 0; i < spec.trials; i++)
        changed += codes[i] != base_codes[i];
    /* Engagements cut short after one turn: about one trial in eight changes
     * (those that went on past the first turn), the others keep their dice
     * and their winner. With one stream a block, a trial cut short would shift
     * the dice of every later trial of its block, and about half would change. */
    cr_expect_gt(changed, 0);
    cr_expect_lt(changed, spec.trials / 4, "%zu of %llu trials changed", changed,
                 (unsigned long long)spec.trials);
    cr_expect_gt(cell.trials - cell.wins_row - cell.wins_col - cell.draws,
                 base_cell.trials - base_cell.wins_row - base_cell.wins_col - base_cell.draws);
    om_trials_release(&t);
    om_scenario_free(sc);
    om_scenario_free(cell_sc);
    om_matrix_plan_free(p);
    om_matrix_plan_free(base);
    free(codes);
    free(base_codes);
    free(run_codes);
}

/* Adaptive cells stop at the first whole block where the 95% Wilson
 * half-width of P(row wins) is within the target, and never pass the cap. */
Test(matrix, adaptive_half_width)
{
    const char *const sits[] = {"a-charges"};
    om_matrix_plan *p = plan_of("empire/halberdiers", "orcs/orc-warriors", sits, 1);
    om_matrix_cell cell;
    p->spec.trials = 0;
    p->spec.halfwidth = 0.004;
    cr_assert_eq(om_matrix_simulate_cell(p, 0, 0, 0, 2, &cell, NULL), OM_OK);
    double p_win = (double)cell.wins_row / (double)cell.trials;
    double hw = 1.96 * sqrt(p_win * (1 - p_win) / (double)cell.trials);
    double hw_less = 1.96 * sqrt(p_win * (1 - p_win) / (double)(cell.trials - OM_RUN_BLOCK_SIZE));
    cr_expect_eq(cell.trials % OM_RUN_BLOCK_SIZE, 0u);
    cr_expect_leq(hw, 0.004 * 1.01, "half-width %.5f", hw);
    cr_expect_gt(hw_less, 0.004 * 0.99, "one block fewer would not have been enough");
    p->spec.halfwidth = 0.0001;
    p->spec.max_trials = 3 * OM_RUN_BLOCK_SIZE;
    cr_assert_eq(om_matrix_simulate_cell(p, 0, 0, 0, 2, &cell, NULL), OM_OK);
    cr_expect_eq(cell.trials, 3u * OM_RUN_BLOCK_SIZE, "capped");
    om_matrix_plan_free(p);
}

/* A War Wagon cannot charge (Kislev lists: its laager or column): where the
 * situation has it charge it stands, and the cell is outside its rating. */
Test(matrix, a_unit_that_cannot_charge_stands_and_is_flagged)
{
    om_matrix_plan *p = plan_of("kislev/war-wagon,axemen", "empire/knights", NULL, 0);
    cr_expect(!(p->cannot[p->n_cols] & OM_GAME_ROW_CANNOT), "Axemen take part");
    for (size_t s = 0; s < p->n_sits; s++) {
        om_scenario *sc = NULL;
        cr_assert_eq(om_matrix_cell_scenario(p, s, 0, 0, &sc), OM_OK, "%s", om_error_message());
        const om_wm_engagement *e = &((const om_wm_scenario *)sc->setup)->engagement;
        cr_expect(!e->side[0].charging, "situation %zu: the War Wagon does not charge", s);
        cr_expect(p->cannot[s * p->n_rows * p->n_cols] & OM_GAME_ROW_CANNOT, "situation %zu: outside its rating", s);
        om_scenario_free(sc);
    }
    om_matrix_plan_free(p);
}

/* ---------------------------------------------- matrices of army lists */

static void lists_setup(void) { tmpdir_create("om_test_matrix_lists"); }
TestSuite(lists, .init = lists_setup, .fini = tmpdir_remove);

/* Short battles (two turns) of the Revolution examples, so the tests are quick. */
static om_matrix_lists_spec lists_spec(const char *rows, const char *cols, uint64_t battles)
{
    return (om_matrix_lists_spec){.rows = rows, .cols = cols, .battles = battles, .seed = 11,
                                  .threads = 2, .length = "fixed", .turns = 2};
}

/* Run spec into the test's directory as `name` and read the file back. */
static om_matrix *lists_run_read(const om_matrix_lists_spec *spec, const char *name)
{
    char path[512];
    om_matrix_lists_plan *p = NULL;
    om_matrix *m = NULL;
    tmpdir_path(path, sizeof path, name);
    cr_assert_eq(om_matrix_lists_plan_alloc(spec, &p), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_matrix_lists_run_file(p, path, "test", NULL, NULL), OM_OK, "%s",
                 om_error_message());
    om_matrix_lists_plan_free(p);
    cr_assert_eq(om_h5m_read(path, &m), OM_OK, "%s", om_error_message());
    return m;
}

/* The winners and margins of cell (s, r, c) of m into w and mg. */
static void lists_cell_rows(const om_matrix *m, size_t s, size_t r, size_t c, uint8_t *w,
                            int32_t *mg)
{
    om_h5m_outcomes *o = NULL;
    cr_assert_eq(om_h5m_outcomes_open(m, &o), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5m_outcomes_read(o, s, r, c, w), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_h5m_margins_read(o, s, r, c, mg), OM_OK, "%s", om_error_message());
    om_h5m_outcomes_close(o);
}

#define LISTS_BATTLES 24u

/* Common dice: on a bare table the zones change nothing, so the legs that
 * differ only by zones are the same battles, battle by battle (they would
 * not be if each leg drew its own dice); the first turn changes them. With a
 * terrain laid out for each battle the zones are a real difference. The file
 * records the legs, the lists and the provenance. */
Test(lists, legs_of_a_pairing_share_their_dice)
{
    om_matrix_lists_spec spec = lists_spec("revolution-empire-steel-and-shot",
                                           "revolution-orcs-horde", LISTS_BATTLES);
    om_matrix *m = lists_run_read(&spec, "bare.h5");
    uint8_t w[4][LISTS_BATTLES];
    int32_t mg[4][LISTS_BATTLES];
    unsigned first_differs = 0;
    cr_assert_eq(m->info.n_situations, (size_t)OM_MATRIX_LEGS);
    cr_expect_str_eq(m->info.situations[0].name, "south-a-first");
    cr_expect_str_eq(m->info.situations[3].name, "north-b-first");
    cr_expect_str_eq(m->info.kind, "battle");
    cr_expect_str_eq(m->info.ruleset, "warmaster-revolution");
    cr_expect(m->info.battle_margins);
    cr_expect_eq(m->info.outcome_trials, LISTS_BATTLES);
    cr_expect_str_eq(m->info.rows[0].id, "revolution-empire-steel-and-shot");
    cr_expect_gt(m->info.rows[0].points, 0u);
    cr_expect_neq(m->info.rows[0].army[0], '\0');
    for (size_t s = 0; s < OM_MATRIX_LEGS; s++) {
        cr_expect_eq(om_matrix_at(m, s, 0, 0)->trials, LISTS_BATTLES);
        lists_cell_rows(m, s, 0, 0, w[s], mg[s]);
    }
    for (size_t t = 0; t < LISTS_BATTLES; t++) {
        cr_expect_eq(w[0][t], w[2][t], "battle %zu, A first: the zones changed a bare table", t);
        cr_expect_eq(mg[0][t], mg[2][t], "battle %zu, A first", t);
        cr_expect_eq(w[1][t], w[3][t], "battle %zu, B first", t);
        cr_expect_eq(mg[1][t], mg[3][t], "battle %zu, B first", t);
        first_differs += mg[0][t] != mg[1][t];
    }
    cr_expect_gt(first_differs, 0u, "the first turn changes the battles");
    om_h5m_matrix_free(m);

    spec.terrain = "dice-for-edges";
    m = lists_run_read(&spec, "terrain.h5");
    unsigned zones_differ = 0;
    lists_cell_rows(m, 0, 0, 0, w[0], mg[0]);
    lists_cell_rows(m, 2, 0, 0, w[2], mg[2]);
    for (size_t t = 0; t < LISTS_BATTLES; t++)
        zones_differ += mg[0][t] != mg[2][t];
    cr_expect_gt(zones_differ, 0u, "with terrain the zones change the battles");
    om_h5m_matrix_free(m);
}

/* The same seed gives the same file on one thread or two. */
Test(lists, same_seed_same_matrix_on_any_thread_count)
{
    om_matrix_lists_spec spec = lists_spec("revolution-empire-steel-and-shot",
                                           "revolution-orcs-horde,revolution-orcs-riders",
                                           LISTS_BATTLES);
    spec.terrain = "dice-for-edges";
    spec.threads = 1;
    om_matrix *one = lists_run_read(&spec, "one.h5");
    spec.threads = 2;
    om_matrix *two = lists_run_read(&spec, "two.h5");
    cr_assert_eq(one->info.n_cols, 2u);
    for (size_t s = 0; s < OM_MATRIX_LEGS; s++)
        for (size_t c = 0; c < 2; c++) {
            const om_matrix_cell *a = om_matrix_at(one, s, 0, c), *b = om_matrix_at(two, s, 0, c);
            uint8_t wa[LISTS_BATTLES], wb[LISTS_BATTLES];
            int32_t ma[LISTS_BATTLES], mb[LISTS_BATTLES];
            cr_expect_eq(memcmp(a, b, sizeof *a), 0, "cell (%zu, 0, %zu)", s, c);
            lists_cell_rows(one, s, 0, c, wa, ma);
            lists_cell_rows(two, s, 0, c, wb, mb);
            cr_expect_eq(memcmp(wa, wb, sizeof wa), 0);
            cr_expect_eq(memcmp(ma, mb, sizeof ma), 0);
        }
    om_h5m_matrix_free(one);
    om_h5m_matrix_free(two);
}

/* Write `text` to the file `name` of the test's directory, into path. */
static void lists_write(const char *name, const char *text, char *path, size_t size)
{
    FILE *f;
    tmpdir_path(path, size, name);
    cr_assert_not_null(f = fopen(path, "w"));
    fputs(text, f);
    fclose(f);
}

/* The error of planning rows against cols; its message into msg. */
static om_status lists_plan_error(const char *rows, const char *cols, char *msg, size_t size)
{
    om_matrix_lists_spec spec = lists_spec(rows, cols, 1);
    om_matrix_lists_plan *p = NULL;
    om_status st = om_matrix_lists_plan_alloc(&spec, &p);
    cr_expect_null(p);
    snprintf(msg, size, "%s", om_error_message());
    om_error_clear();
    return st;
}

/* A folder is every *.yaml in it, by name; a file in it that is no list, an
 * unknown example and lists of two rule sets are refused, naming the file. */
Test(lists, folders_and_refusals)
{
    char dir[512], path[512], msg[OM_ERROR_MSG_MAX], src[1024];
    om_matrix_lists_spec spec;
    om_matrix_lists_plan *p = NULL;
    FILE *f;
    tmpdir_path(dir, sizeof dir, "");
    /* Two example lists copied into the folder, and a file that is not a list. */
    static const char *const names[] = {"revolution-orcs-riders", "revolution-orcs-horde"};
    for (size_t i = 0; i < 2; i++) {
        char text[65536];
        size_t n;
        snprintf(src, sizeof src, "%s/scenarios/lists/warmaster/%s.yaml", OM_SOURCE_ROOT,
                 names[i]);
        cr_assert_not_null(f = fopen(src, "r"), "%s", src);
        n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = '\0';
        snprintf(src, sizeof src, "%c-%s.yaml", (char)('b' - i), names[i]);
        lists_write(src, text, path, sizeof path);
    }
    lists_write("notes.txt", "not a yaml file: left alone\n", path, sizeof path);
    spec = lists_spec("revolution-empire-steel-and-shot", dir, 1);
    cr_assert_eq(om_matrix_lists_plan_alloc(&spec, &p), OM_OK, "%s", om_error_message());
    cr_assert_eq(p->n_cols, 2u);
    cr_expect_not_null(strstr(p->cols[0], "a-revolution-orcs-horde.yaml"), "%s", p->cols[0]);
    cr_expect_not_null(strstr(p->cols[1], "b-revolution-orcs-riders.yaml"), "%s", p->cols[1]);
    om_matrix_lists_plan_free(p);

    lists_write("c-units.yaml", "schema: oddsmaster-scenario/1\nkind: combat\n", path,
                sizeof path);
    cr_expect_neq(lists_plan_error("revolution-empire-steel-and-shot", dir, msg, sizeof msg),
                  OM_OK);
    cr_expect_not_null(strstr(msg, "c-units.yaml"), "%s", msg);
    cr_expect_eq(lists_plan_error("revolution-empire-steel-and-shoot", "revolution-orcs-horde",
                                  msg, sizeof msg), OM_ENOTFOUND);
    cr_expect_not_null(strstr(msg, "revolution-empire-steel-and-shot"), "a suggestion: %s", msg);
    cr_expect_eq(lists_plan_error("revolution-empire-steel-and-shot,1.1-orcs-waaagh",
                                  "revolution-orcs-horde", msg, sizeof msg), OM_EINVAL);
    cr_expect_not_null(strstr(msg, "1.1-orcs-waaagh"), "%s", msg);
}
