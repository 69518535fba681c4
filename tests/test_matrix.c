/*
 * test_matrix.c: matchup matrices (sim/matrix.c): unit lists from the army
 * data, cell scenarios, cell seeds, and the property the CLI documents: a
 * cell's numbers equal a separate run of the same scenario with the cell's
 * seed and trial count, whatever the thread count.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "matrix.h"
#include "run.h"
#include "game.h"
#include "wm_scenario.h"

static om_matrix_list *list(const char *ruleset, const char *spec)
{
    om_matrix_list *l = NULL;
    cr_assert_eq(om_matrix_list_alloc(ruleset, spec, &l), OM_OK, "%s: %s", spec,
                 om_error_message());
    return l;
}

Test(matrix, lists_from_the_army_data)
{
    om_matrix_list *l = list("warmaster-revolution", "empire");
    om_matrix_list *two = list("warmaster-revolution", "orcs/black-orcs,trolls");
    om_matrix_list *bad = NULL;
    bool has_knights = false, has_general = false;
    for (size_t i = 0; i < l->count; i++) {
        has_knights |= strcmp(l->members[i].unit, "knights") == 0;
        has_general |= strcmp(l->members[i].unit, "general") == 0;
    }
    cr_expect(has_knights, "troop units are in the list");
    cr_expect(!has_general, "characters are not matrix units");
    cr_expect_eq(two->count, 2u);
    cr_expect_str_eq(two->members[1].name, "Trolls");
    cr_expect_eq(two->members[0].points, 110u);
    cr_expect_eq(om_matrix_list_alloc("warmaster-revolution", "orcs/trols", &bad), OM_ENOTFOUND);
    cr_expect(strstr(om_error_message(), "trolls") != NULL, "suggests: %s", om_error_message());
    cr_expect_eq(om_matrix_list_alloc("warmaster-revolution", "emprie", &bad), OM_ENOTFOUND);
    cr_expect_eq(om_matrix_list_alloc("warmaster-revolution", "empire/general", &bad),
                 OM_EUNSUPPORTED);
    cr_expect_null(bad);
    om_matrix_list_free(l);
    om_matrix_list_free(two);
}

static om_matrix_spec spec_of(const om_matrix_list *rows, const om_matrix_list *cols,
                              const om_matrix_situation_def *const *sits, size_t n)
{
    om_matrix_spec s = {.ruleset = "warmaster-revolution", .rows = rows, .cols = cols,
                        .n_situations = n, .situations = sits, .kind = "combat", .seed = 42,
                        .trials = 30000, .max_trials = 1000000, .threads = 2};
    return s;
}

/* Situations add only the keys a unit can use: Knights cannot shoot or be
 * defended, Crossbowmen can do both. Every cell text loads. */
Test(matrix, cell_scenarios_load_and_adapt_to_the_units)
{
    om_matrix_list *rows = list("warmaster-revolution", "empire/knights");
    om_matrix_list *cols = list("warmaster-revolution", "empire/crossbowmen,knights");
    const om_matrix_situation_def *sits[] = {
        om_matrix_situation_find("a-charges-b-shoots"),
        om_matrix_situation_find("a-charges-b-defended"),
        om_matrix_situation_find("b-shoots-first"),
    };
    om_matrix_spec sp = spec_of(rows, cols, sits, 3);
    for (size_t s = 0; s < 3; s++)
        for (size_t c = 0; c < 2; c++) {
            char *text = om_matrix_cell_scenario(&sp, s, 0, c);
            om_wm_scenario *sc = NULL;
            cr_assert_not_null(text);
            cr_expect_eq(om_wm_scenario_load_text("cell", text, strlen(text), &sc), OM_OK,
                         "%s\n%s", om_error_message(), text);
            if (sc) {
                const om_wm_side *b = &sc->engagement.side[1];
                bool xbows = c == 0;
                cr_expect(sc->engagement.side[0].charging);
                cr_expect_eq(b->stand_and_shoot, xbows && s != 1, "cell %zu,%zu", s, c);
                cr_expect_eq(b->shoots_first, xbows && s == 2);
                cr_expect_eq(b->position == OM_WM_DEFENDED, xbows && s == 1);
            }
            om_wm_scenario_free(sc);
            free(text);
        }
    cr_expect_neq(om_matrix_cell_seed(42, 0, 0, 0), om_matrix_cell_seed(42, 0, 0, 1));
    cr_expect_eq(om_matrix_cell_seed(42, 1, 0, 1), om_matrix_cell_seed(42, 1, 0, 1));
    om_matrix_list_free(rows);
    om_matrix_list_free(cols);
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

/* Issue #5: a matrix cell equals a separate run of the same matchup with the
 * same seed: the cell's scenario text run with its seed gives the same counts,
 * on 1 or 2 threads. */
Test(matrix, cell_equals_a_separate_run)
{
    om_matrix_list *rows = list("warmaster-revolution", "empire/knights,halberdiers");
    om_matrix_list *cols = list("warmaster-revolution", "orcs/orc-warriors,trolls");
    const om_matrix_situation_def *sits[] = {om_matrix_situation_find("a-charges"),
                                             om_matrix_situation_find("b-charges")};
    om_matrix_spec sp = spec_of(rows, cols, sits, 2);
    om_matrix_cell cell;
    char *text = om_matrix_cell_scenario(&sp, 1, 1, 0);
    om_scenario *sc = NULL;
    om_trials t;
    counts c = {0};
    om_run_config cfg = {.trials = sp.trials, .seed = om_matrix_cell_seed(sp.seed, 1, 1, 0),
                         .threads = 1};

    cr_assert_eq(om_matrix_simulate_cell(&sp, 1, 1, 0, 2, &cell), OM_OK, "%s", om_error_message());
    cr_assert_eq(om_scenario_load_text("cell", text, strlen(text), &sc), OM_OK);
    cr_assert_eq(om_trials_prepare(sc, &t), OM_OK);
    c.winner = t.layout.fields[om_layout_find(&t.layout, "winner")].offset;
    c.row_size = t.layout.row_size;
    om_run_sink sink = {.ctx = &c, .put = count_rows};
    cr_assert_eq(om_run_simulate(&t, &cfg, &sink, NULL), OM_OK);
    cr_expect_eq(cell.trials, c.n);
    cr_expect_eq(cell.wins_row, c.a);
    cr_expect_eq(cell.draws, c.draw);
    cr_expect_eq(cell.wins_col, c.b);
    cr_expect_gt(cell.points_lost_row_sum + cell.points_lost_col_sum, 0.0);
    om_trials_release(&t);
    om_scenario_free(sc);
    free(text);
    om_matrix_list_free(rows);
    om_matrix_list_free(cols);
}

/* Adaptive cells stop at the first whole block where the 95% Wilson
 * half-width of P(row wins) is within the target, and never pass the cap. */
Test(matrix, adaptive_half_width)
{
    om_matrix_list *rows = list("warmaster-revolution", "empire/halberdiers");
    om_matrix_list *cols = list("warmaster-revolution", "orcs/orc-warriors");
    const om_matrix_situation_def *sits[] = {om_matrix_situation_find("a-charges")};
    om_matrix_spec sp = spec_of(rows, cols, sits, 1);
    om_matrix_cell cell;
    sp.trials = 0;
    sp.halfwidth = 0.004;
    cr_assert_eq(om_matrix_simulate_cell(&sp, 0, 0, 0, 2, &cell), OM_OK);
    double p = (double)cell.wins_row / (double)cell.trials;
    double hw = 1.96 * sqrt(p * (1 - p) / (double)cell.trials);
    double hw_less = 1.96 * sqrt(p * (1 - p) / (double)(cell.trials - OM_RUN_BLOCK_SIZE));
    cr_expect_eq(cell.trials % OM_RUN_BLOCK_SIZE, 0u);
    cr_expect_leq(hw, 0.004 * 1.01, "half-width %.5f", hw);
    cr_expect_gt(hw_less, 0.004 * 0.99, "one block fewer would not have been enough");
    sp.halfwidth = 0.0001;
    sp.max_trials = 3 * OM_RUN_BLOCK_SIZE;
    cr_assert_eq(om_matrix_simulate_cell(&sp, 0, 0, 0, 2, &cell), OM_OK);
    cr_expect_eq(cell.trials, 3u * OM_RUN_BLOCK_SIZE, "capped");
    om_matrix_list_free(rows);
    om_matrix_list_free(cols);
}
