/*
 * test_layout.h: the layout of a real game's trials for the tests of the result
 * file, the summary and the charts, which must work from a layout alone.
 *
 * test_layout_of_kind(kind, layout) loads a small Warmaster Revolution scenario
 * of that kind (Knights, 110 points, charging Spearmen, 45 points, for "combat"
 * or "engagement"; Crossbowmen shooting at them for "volley") through the game
 * interface and copies the layout
 * its prepared trials write, so the tests see exactly the fields, types, titles
 * and victory points a run of that kind writes. The scenario stays loaded, as
 * the layout's side names point into it. Header-only: include it once per test
 * program.
 */
#ifndef OM_TEST_LAYOUT_H
#define OM_TEST_LAYOUT_H

#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "game.h"

/* The scenarios whose layouts were taken (kept loaded; see above). */
static om_scenario *test_layout_scenarios[8];
static size_t test_layout_count;

static void test_layout_of_kind(const char *kind, om_layout *layout)
{
    char text[512];
    om_scenario *sc = NULL;
    om_trials t;
    const int volley = strcmp(kind, "volley") == 0;
    /* A volley's side A shoots: Crossbowmen (55 points) rather than Knights. */
    snprintf(text, sizeof text,
             "schema: oddsmaster-scenario/1\nruleset: warmaster-revolution\nkind: %s\n"
             "a:\n  unit: {from: empire/%s}\n%s"
             "b:\n  unit: {name: Spearmen, type: infantry, stands: 3, attacks: 3, hits: 3,"
             " armour: 6+, points: 45}\n", kind, volley ? "crossbowmen" : "knights",
             volley ? "" : "  charging: true\n");
    cr_assert_eq(om_scenario_load_text("<test layout>", text, strlen(text), &sc), OM_OK, "%s",
                 om_error_message());
    cr_assert_eq(om_trials_prepare(sc, &t), OM_OK, "%s", om_error_message());
    *layout = t.layout;
    om_trials_release(&t);
    /* The layout's side names point into the scenario: it stays loaded for the
     * rest of the test process (a handful of small scenarios). */
    cr_assert_lt(test_layout_count, sizeof test_layout_scenarios / sizeof *test_layout_scenarios);
    test_layout_scenarios[test_layout_count++] = sc;
}

#endif /* OM_TEST_LAYOUT_H */
