/*
 * test_game.c: the game interface (scenarios/game.h) and Warmaster as its first
 * game: choosing the game by rule set, loading through it, the layout of each
 * kind (the fields its trials write, their titles) and the victory points each
 * side loses (Warmaster Revolution, Victory Points; the same rule in 1.1 and
 * Ancients), resolving a block of trials through the descriptor, the listing
 * of its army lists, and the documentation of every game's scenario keys.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <jansson.h>

#include "game.h"
#include "rng.h"
#include "battle.h"
#include "doctrine.h"
#include "wm_doctrine.h"
#include "wm.h"
#include "wm_scenario.h"

/* Load `text` through the game interface; fails the test on error. */
static om_scenario *load(const char *text)
{
    om_scenario *sc = NULL;
    cr_assert_eq(om_scenario_load_text("<test>", text, strlen(text), &sc), OM_OK, "%s",
                 om_error_message());
    return sc;
}

Test(game, rule_sets_choose_the_game)
{
    const char *const rulesets[] = {"warmaster-1.1", "warmaster-revolution",
                                    "warmaster-ancients"};
    for (size_t i = 0; i < 3; i++) {
        const om_game *g = om_game_for_ruleset(rulesets[i]);
        cr_assert_not_null(g, "%s", rulesets[i]);
        cr_expect_str_eq(g->identity.name, "warmaster");
    }
    cr_expect_null(om_game_for_ruleset("warmaster"));
    cr_expect_null(om_game_for_ruleset(""));
    cr_expect_geq(om_game_count, 1u);
}

/* An unknown rule set is reported by the first game's loader, with a suggestion. */
Test(game, unknown_rule_set_is_an_error_naming_the_field)
{
    const char text[] = "schema: oddsmaster-scenario/1\nruleset: warmaster-revolutio\n"
                        "a: {unit: {from: empire/knights}}\nb: {unit: {from: orcs/trolls}}\n";
    om_scenario *sc = NULL;
    cr_expect_eq(om_scenario_load_text("bad.yaml", text, strlen(text), &sc), OM_ENOTFOUND);
    cr_expect_null(sc);
    cr_expect(strstr(om_error_message(), "bad.yaml:2: field 'ruleset'") != NULL, "%s",
              om_error_message());
    cr_expect(strstr(om_error_message(), "did you mean 'warmaster-revolution'") != NULL, "%s",
              om_error_message());
}

/* A rule set of no game's is reported by the interface, at its line, with
 * the nearest rule set of any game, if one is near, and every game's: a
 * WHFB7 file's typo is not answered with Warmaster's rule sets alone. */
Test(game, rule_set_of_no_game)
{
    static const struct {
        const char *ruleset, *message;
    } cases[] = {
        {"whfb6", "w.yaml:3: field 'ruleset': unknown rule set 'whfb6'; did you mean 'whfb7'? "
                  "known rule sets: warmaster-1.1, warmaster-revolution, warmaster-ancients, "
                  "whfb7"},
        {"chess", "w.yaml:3: field 'ruleset': unknown rule set 'chess'; known rule sets: "
                  "warmaster-1.1, warmaster-revolution, warmaster-ancients, whfb7"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        om_scenario *sc = NULL;
        snprintf(text, sizeof text, "schema: oddsmaster-scenario/1\ntitle: t\nruleset: %s\n"
                 "kind: combat\na: {unit: {from: empire/swordsmen, models: 20}}\n"
                 "b: {unit: {from: orcs-goblins/orc-boyz}}\n", cases[i].ruleset);
        cr_expect_eq(om_scenario_load_text("w.yaml", text, strlen(text), &sc), OM_ENOTFOUND);
        cr_expect_null(sc);
        cr_expect_str_eq(om_error_message(), cases[i].message);
    }
}

/* The kind chooses the Warmaster loader (a whole turn's or the engine's), so
 * a word of no kind is reported at its line, not as the keys of the kind the
 * file is not. */
Test(game, unknown_kind_before_the_keys_of_a_kind)
{
    const char text[] = "schema: oddsmaster-scenario/1\nruleset: warmaster-revolution\n"
                        "kind: trun\nmoving: a\na: {name: A, units: []}\n"
                        "b: {name: B, units: []}\n";
    om_scenario *sc = NULL;
    cr_expect_eq(om_scenario_load_text("t.yaml", text, strlen(text), &sc), OM_EPARSE);
    cr_expect_null(sc);
    cr_expect_str_eq(om_error_message(), "t.yaml:3: field 'kind': unknown kind 'trun'; did you "
                     "mean 'turn'? expected one of: combat, volley, engagement, turn, battle");
}

/* The default scenario, as `oddsmaster run` loads it: its names and provenance. */
Test(game, default_scenario_through_the_interface)
{
    om_scenario *sc = NULL;
    cr_assert_eq(om_scenario_load_default(&sc), OM_OK, "%s", om_error_message());
    cr_expect_str_eq(sc->game->identity.name, "warmaster");
    cr_expect_str_eq(sc->source, OM_SCENARIO_DEFAULT_NAME);
    cr_expect_str_eq(sc->ruleset, "warmaster-revolution");
    cr_expect_str_eq(sc->kind, "combat");
    cr_expect_str_eq(sc->title, "Knights charge Spearmen in the open");
    cr_expect_not_null(strstr(sc->provenance_json, "\"ruleset\":\"warmaster-revolution\""));
    cr_expect_null(sc->warnings, "the default's units carry no rule left out");
    om_scenario_free(sc);
}

/* Rules not modelled become one warning line per unit. */
Test(game, unmodelled_rules_become_warnings)
{
    om_scenario *sc = load("schema: oddsmaster-scenario/1\nruleset: warmaster-revolution\n"
                           "a: {unit: {from: empire/knights}, charging: true}\n"
                           "b: {unit: {from: araby/desert-riders}}\n");
    cr_assert_not_null(sc->warnings);
    cr_expect_str_eq(sc->warnings, "Desert Riders: special rules not modelled yet: "
                                   "desert-riders\n");
    om_scenario_free(sc);
}

/* Each kind writes its own fields; winner fields carry their table's heading. */
Test(game, layout_of_each_kind)
{
    static const struct {
        const char *kind, *a_keys;
        int fields;         /* fields it writes */
        const char *title;  /* heading of the winner table, or NULL: no winner */
        bool round1;        /* also a first-round winner */
    } cases[] = {
        {"combat", "charging: true", 20, "Outcome", false},
        {"engagement", "charging: true", 27, "Outcome of the engagement", true},
        {"volley", "shooting: 3", 11, NULL, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        om_scenario *sc;
        om_trials t;
        int w, r1;
        snprintf(text, sizeof text,
                 "schema: oddsmaster-scenario/1\nruleset: warmaster-revolution\nkind: %s\n"
                 "a: {unit: {from: empire/crossbowmen}, %s}\n"
                 "b: {unit: {from: orcs/orc-warriors}}\n", cases[i].kind, cases[i].a_keys);
        sc = load(text);
        cr_assert_eq(om_trials_prepare(sc, &t), OM_OK, "%s", om_error_message());
        cr_expect_eq((int)t.layout.field_count, cases[i].fields, "%s: %zu fields",
                     cases[i].kind, t.layout.field_count);
        cr_expect_eq(t.layout.row_size, sizeof(om_wm_outcome));
        w = om_layout_find(&t.layout, "winner");
        r1 = om_layout_find(&t.layout, "round1_winner");
        if (cases[i].title == NULL) {
            cr_expect_eq(w, -1, "%s has no winner", cases[i].kind);
        } else {
            cr_assert_geq(w, 0);
            cr_expect_eq(t.layout.fields[w].type, OM_FIELD_WINNER);
            cr_expect_str_eq(t.layout.fields[w].title, cases[i].title);
        }
        cr_expect_eq(r1 >= 0, cases[i].round1, "%s: round1_winner", cases[i].kind);
        if (r1 >= 0)
            cr_expect_str_eq(t.layout.fields[r1].title, "First round");
        for (size_t f = 0; f < t.layout.field_count; f++) {
            cr_expect_lt(t.layout.fields[f].offset, t.layout.row_size);
            cr_expect_not_null(t.layout.fields[f].description);
            cr_expect_eq(t.layout.fields[f].type == OM_FIELD_WINNER,
                         t.layout.fields[f].title != NULL, "%s", t.layout.fields[f].name);
        }
        om_trials_release(&t);
        om_scenario_free(sc);
    }
}

/* Victory points (Warmaster Revolution, Victory Points; Warmaster Ancients,
 * Victory Points, the same rule): a destroyed unit gives its full points, a unit
 * of 3 or more stands reduced to 1 gives half, rounded up to the nearest 5 (the
 * digests' worked examples: 110 -> 55, 65 -> 35, 115 -> 60, 125 -> 65, 75 -> 40,
 * 35 -> 20), anything else nothing. */
Test(game, victory_points_rule)
{
    cr_expect_eq(om_wm_victory_points(110, 3, 2), 55u);
    cr_expect_eq(om_wm_victory_points(65, 3, 2), 35u);
    cr_expect_eq(om_wm_victory_points(115, 3, 2), 60u);
    cr_expect_eq(om_wm_victory_points(125, 3, 2), 65u);
    cr_expect_eq(om_wm_victory_points(75, 3, 2), 40u);
    cr_expect_eq(om_wm_victory_points(35, 3, 2), 20u);
    cr_expect_eq(om_wm_victory_points(110, 3, 3), 110u);
    cr_expect_eq(om_wm_victory_points(110, 3, 1), 0u);
    cr_expect_eq(om_wm_victory_points(80, 2, 1), 0u);
    cr_expect_eq(om_wm_victory_points(80, 2, 2), 80u);
    cr_expect_eq(om_wm_victory_points(200, 4, 3), 100u);
}

/* The layout gives each side's victory points by stands lost, counting only
 * what the engagement cost (a unit already down a stand, or smaller than its
 * list's size, loses less). */
Test(game, victory_points_in_the_layout)
{
    om_scenario *sc = load("schema: oddsmaster-scenario/1\nruleset: warmaster-revolution\n"
                           "a: {unit: {from: empire/knights, stands: 2}, charging: true}\n"
                           "b: {unit: {name: Mob, type: infantry, stands: 4, attacks: 3, "
                           "hits: 3, armour: none}}\n");
    om_trials t;
    cr_assert_eq(om_trials_prepare(sc, &t), OM_OK, "%s", om_error_message());
    /* Knights: 110 points, 3 stands at full strength, 2 at the start (nothing
     * lost in victory points yet): losing one more leaves 1 stand (half, 55),
     * losing both destroys the unit (110). */
    cr_expect_str_eq(t.layout.fields[t.layout.side[0].loss_field].name, "stands_lost_a");
    cr_expect_eq(t.layout.side[0].points, 110u);
    cr_expect_eq(t.layout.side[0].loss_start, 2u);
    cr_expect_eq(t.layout.side[0].vp_lost[0], 0u);
    cr_expect_eq(t.layout.side[0].vp_lost[1], 55u);
    cr_expect_eq(t.layout.side[0].vp_lost[2], 110u);
    cr_expect_str_eq(t.layout.side[0].loss_unit, "stands");
    /* A unit of unknown points loses none that can be counted. */
    cr_expect_eq(t.layout.side[1].points, 0u);
    cr_expect_eq(t.layout.side[1].loss_field, -1);
    om_trials_release(&t);
    om_scenario_free(sc);
}

/* resolve_classes draws the trials resolve_block draws with the same dice:
 * the same rows, each trial of a class having its class's row (written or not,
 * as asked), and the default scenario's trials all of a class (a first round
 * from its table, nothing rolled after it); a scenario whose retreats roll
 * dice (the loser retreats into friends) has trials of no class too. */
Test(game, resolve_classes_are_the_rows)
{
    const char *const texts[] = {
        NULL,
        "schema: oddsmaster-scenario/1\ntitle: into friends\nruleset: warmaster-revolution\n"
        "kind: combat\na:\n  unit: {from: empire/knights}\n  charging: true\nb:\n"
        "  unit: {from: empire/halberdiers}\n  behind: friends\n  behind_cm: 1\n"};
    for (int s = 0; s < 2; s++) {
        om_scenario *sc = NULL;
        om_trials t;
        enum { N = 4096 };
        static om_wm_outcome rows[N], written[N], unwritten[N];
        static uint16_t cls[N], cls2[N];
        size_t no_class = 0;
        om_dice d1 = {.plain = NULL}, d2 = {.plain = NULL}, d3 = {.plain = NULL};
        cr_assert_eq(texts[s] == NULL ? om_scenario_load_default(&sc)
                                      : om_scenario_load_text("t.yaml", texts[s],
                                                              strlen(texts[s]), &sc),
                     OM_OK, "%s", om_error_message());
        cr_assert_eq(om_trials_prepare(sc, &t), OM_OK);
        cr_assert_gt(t.n_classes, 0u, "scenario %d has classes", s);
        cr_assert_not_null(t.game->trials->resolve_classes);
        om_rng_seed_block(&d1.rng, 11, 2);
        om_rng_seed_block(&d2.rng, 11, 2);
        om_rng_seed_block(&d3.rng, 11, 2);
        t.game->trials->resolve_block(t.prepared, NULL, &d1, (uint8_t *)rows, N);
        t.game->trials->resolve_classes(t.prepared, NULL, &d2, (uint8_t *)written, cls, true, N);
        memset(unwritten, 0xEE, sizeof unwritten);
        t.game->trials->resolve_classes(t.prepared, NULL, &d3, (uint8_t *)unwritten, cls2, false, N);
        cr_expect_eq(memcmp(rows, written, sizeof rows), 0, "scenario %d: the same rows", s);
        cr_expect_eq(memcmp(cls, cls2, sizeof cls), 0, "scenario %d: the same classes", s);
        for (int i = 0; i < N; i++) {
            if (cls[i] == OM_LAYOUT_NO_CLASS) {
                no_class++;
                cr_expect_eq(memcmp(&unwritten[i], &rows[i], sizeof rows[i]), 0);
                continue;
            }
            cr_assert_lt(cls[i], t.n_classes);
            cr_expect_eq(memcmp(t.class_rows + cls[i] * t.layout.row_size, &rows[i],
                                t.layout.row_size), 0, "scenario %d trial %d", s, i);
        }
        if (s == 0)
            cr_expect_eq(no_class, 0u, "every trial of the default is of a class");
        else
            cr_expect(no_class > 0 && no_class < N, "retreats into friends roll: %zu", no_class);
        om_trials_release(&t);
        om_scenario_free(sc);
    }
}

/* resolve_classes2 is resolve_classes of two blocks one after the other: the
 * same rows (written or not, as asked), classes and dice left, for blocks of
 * different sizes (the longer one's last trials alone), on the default
 * scenario (every trial of a class) and one whose retreats roll dice (trials
 * of no class, which go on with their own block's dice). */
Test(game, resolve_classes2_is_two_blocks)
{
    const char *const texts[] = {
        NULL,
        "schema: oddsmaster-scenario/1\ntitle: into friends\nruleset: warmaster-revolution\n"
        "kind: combat\na:\n  unit: {from: empire/knights}\n  charging: true\nb:\n"
        "  unit: {from: empire/halberdiers}\n  behind: friends\n  behind_cm: 1\n"};
    for (int s = 0; s < 2; s++) {
        for (int class_rows = 0; class_rows < 2; class_rows++) {
            om_scenario *sc = NULL;
            om_trials t;
            enum { N0 = 3000, N1 = 4096 };
            static om_wm_outcome one[2][N1], two[2][N1];
            static uint16_t cls1[2][N1], cls2[2][N1];
            const size_t n[2] = {s == 0 ? N0 : N1, s == 0 ? N1 : N0};
            om_dice d1[2] = {{.plain = NULL}, {.plain = NULL}};
            om_dice d2[2] = {{.plain = NULL}, {.plain = NULL}};
            cr_assert_eq(texts[s] == NULL ? om_scenario_load_default(&sc)
                                          : om_scenario_load_text("t.yaml", texts[s],
                                                                  strlen(texts[s]), &sc),
                         OM_OK, "%s", om_error_message());
            cr_assert_eq(om_trials_prepare(sc, &t), OM_OK);
            cr_assert_not_null(t.game->trials->resolve_classes2);
            memset(one, 0xEE, sizeof one);
            memset(two, 0xEE, sizeof two);
            for (unsigned j = 0; j < 2; j++) {
                om_rng_seed_block(&d1[j].rng, 11, 2 + j);
                om_rng_seed_block(&d2[j].rng, 11, 2 + j);
                t.game->trials->resolve_classes(t.prepared, NULL, &d1[j], (uint8_t *)one[j], cls1[j],
                                        class_rows, n[j]);
            }
            {
                om_dice *const d[2] = {&d2[0], &d2[1]};
                uint8_t *const rows[2] = {(uint8_t *)two[0], (uint8_t *)two[1]};
                uint16_t *const cls[2] = {cls2[0], cls2[1]};
                t.game->trials->resolve_classes2(t.prepared, NULL, d, rows, cls, class_rows, n);
            }
            for (unsigned j = 0; j < 2; j++) {
                cr_expect_eq(memcmp(one[j], two[j], sizeof one[j]), 0,
                             "scenario %d block %u: the same rows", s, j);
                cr_expect_eq(memcmp(cls1[j], cls2[j], n[j] * sizeof cls1[j][0]), 0,
                             "scenario %d block %u: the same classes", s, j);
                cr_expect_eq(om_pcg64_next(&d1[j].rng), om_pcg64_next(&d2[j].rng),
                             "scenario %d block %u: the same dice drawn", s, j);
            }
            om_trials_release(&t);
            om_scenario_free(sc);
        }
    }
}

/* resolve_block writes the rows om_wm_resolve writes, trial after trial. */
Test(game, resolve_block_is_the_engine)
{
    om_scenario *sc = NULL;
    om_trials t;
    om_wm_prepared *p = NULL;
    om_wm_outcome rows[64], one;
    om_dice d1, d2;
    cr_assert_eq(om_scenario_load_default(&sc), OM_OK);
    cr_assert_eq(om_trials_prepare(sc, &t), OM_OK);
    cr_assert_eq(om_wm_prepare_alloc(&((const om_wm_scenario *)sc->setup)->engagement, &p),
                 OM_OK);
    memset(&d1, 0, sizeof d1);
    memset(&d2, 0, sizeof d2);
    om_rng_seed_block(&d1.rng, 7, 3);
    om_rng_seed_block(&d2.rng, 7, 3);
    t.game->trials->resolve_block(t.prepared, NULL, &d1, (uint8_t *)rows, 64);
    for (int i = 0; i < 64; i++) {
        om_wm_resolve(p, &d2, &one);
        cr_expect_eq(memcmp(&one, &rows[i], sizeof one), 0, "trial %d", i);
    }
    om_wm_prepared_free(p);
    om_trials_release(&t);
    om_scenario_free(sc);
}

/* The catalogue's listing of the Warmaster army lists (the text and JSON that
 * `oddsmaster list` prints of it are checked by tests/test_cli.sh): its part
 * of `list` (the rule sets), an army, one entry, the rules, unknown names. */
Test(game, warmaster_listing)
{
    const om_game *g = om_game_for_ruleset("warmaster-revolution");
    om_game_listing *l = NULL;

    cr_assert_eq(g->catalogue->list(NULL, NULL, false, &l), OM_OK, "%s", om_error_message());
    cr_assert_not_null(l);
    cr_assert_eq(l->ntables, 1u);
    cr_expect_str_eq(l->tables[0].key, "rulesets");
    cr_expect_eq(l->tables[0].nrows, 3u);
    cr_expect_str_eq(l->tables[0].cells[1 * l->tables[0].ncols], "warmaster-revolution");
    cr_expect_not_null(strstr(l->tables[0].note, "Special rules: "));
    cr_assert_not_null(l->json);
    cr_expect_eq(json_array_size(json_object_get(l->json, "rulesets")), 3u);
    cr_expect_not_null(json_object_get(l->json, "special_rules"));
    om_game_listing_free(l);

    cr_assert_eq(g->catalogue->list("warmaster-revolution", "empire", false, &l), OM_OK, "%s",
                 om_error_message());
    cr_expect_not_null(strstr(l->heading, "(warmaster-revolution/empire)"));
    cr_assert_eq(l->ntables, 2u);
    cr_expect_str_eq(l->tables[0].key, "units");
    cr_expect_str_eq(l->tables[1].key, "upgrades");
    cr_expect_null(l->tables[0].note);
    cr_expect_not_null(strstr(l->tables[1].note, "Use in a scenario: 'from: empire/"));
    cr_expect_str_eq(json_string_value(json_object_get(l->json, "army")), "empire");
    cr_expect_eq(json_array_size(json_object_get(l->json, "units")), l->tables[0].nrows);
    om_game_listing_free(l);

    cr_assert_eq(g->catalogue->list("warmaster-revolution", "empire/knights", false, &l), OM_OK,
                 "%s", om_error_message());
    cr_expect_eq(l->ntables, 0u);
    cr_expect_eq(strncmp(l->heading, "warmaster-revolution/empire/knights: Knights (cavalry", 53),
                 0, "%s", l->heading);
    cr_expect_str_eq(json_string_value(json_object_get(l->json, "section")), "units");
    om_game_listing_free(l);

    cr_assert_eq(g->catalogue->list("warmaster-ancients", NULL, true, &l), OM_OK, "%s",
                 om_error_message());
    cr_assert_eq(l->ntables, 2u);
    cr_expect_str_eq(l->tables[0].key, "rules");
    cr_expect_str_eq(l->tables[1].key, "engine_rules");
    cr_expect_eq(json_integer_value(json_object_get(l->json, "count")),
                 (json_int_t)l->tables[0].nrows);
    om_game_listing_free(l);

    static const struct {
        const char *ruleset, *what, *message;
    } bad[] = {
        {"warmaster-revolutio", NULL, "did you mean 'warmaster-revolution'?"},
        {"empire", NULL, "did you mean 'warmaster-1.1/empire' or 'warmaster-revolution/empire'?"},
        {"warmaster-revolution", "empyre", "did you mean 'empire'?"},
        {"warmaster-revolution", "empire/knigths", "unknown unit 'knigths'"},
        {"warmaster-revolution", "empire/knights/x", "expected RULESET/ARMY/UNIT, got "
                                                     "'warmaster-revolution/empire/knights/x'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        l = (om_game_listing *)&l;
        cr_expect_eq(g->catalogue->list(bad[i].ruleset, bad[i].what, false, &l), OM_ENOTFOUND,
                     "%s", bad[i].ruleset);
        cr_expect_null(l);
        cr_expect_not_null(strstr(om_error_message(), bad[i].message), "%s",
                           om_error_message());
    }
}

/* A key documented in docs/scenario-format.md: a row "| `NAME` | ..." of a
 * table under a heading "## Level keys ..." in the part "# TITLE scenario
 * files" of a game (or "# TITLE army list files", whose levels are the
 * heading's words before " keys": "## List unit keys" is "list unit"). */
typedef struct doc_key {
    char part[128];  /* the part's heading, e.g. "Warmaster (...) scenario files" */
    char level[32];  /* the level, lower case: the heading's first word ("Top-level
                        keys": top) */
    char name[64];   /* the key */
    int line;        /* its line, for messages */
} doc_key;

#define DOC_KEYS_MAX 1024

/* The documented keys of docs/scenario-format.md into rows[0..*n). */
static void read_doc_keys(doc_key *rows, size_t *n)
{
    FILE *f = fopen(OM_SOURCE_ROOT "/docs/scenario-format.md", "r");
    char line[2048], part[128] = "", level[32] = "";
    int at = 0;
    cr_assert_not_null(f, "docs/scenario-format.md");
    *n = 0;
    while (fgets(line, sizeof line, f)) {
        char name[96];
        at++;
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "# ", 2) == 0) {
            snprintf(part, sizeof part, "%.127s", line + 2);
            level[0] = '\0';
        } else if (strncmp(line, "## ", 3) == 0) {
            /* A heading of keys names their level first. */
            size_t k = 0;
            const char *end = strstr(line, " keys");
            const size_t plen = strlen(part), tail = strlen("army list files");
            const bool lists = plen > tail && strcmp(part + plen - tail, "army list files") == 0;
            level[0] = '\0';
            if (end == NULL)
                continue;
            for (const char *p = line + 3;
                 *p && (lists ? p < end : *p != ' ' && *p != '-') && k + 1 < sizeof level; p++)
                level[k++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
            level[k] = '\0';
        } else if (level[0] && sscanf(line, "| `%95[^`]` |", name) == 1) {
            cr_assert_lt(*n, DOC_KEYS_MAX);
            memcpy(rows[*n].part, part, sizeof part);
            memcpy(rows[*n].level, level, sizeof level);
            snprintf(rows[*n].name, sizeof rows[*n].name, "%.63s", name);
            rows[*n].line = at;
            (*n)++;
        }
    }
    fclose(f);
}

/* The key reference (docs/scenario-format.md) has a part for each game,
 * headed "# TITLE scenario files", that names every key of the game's key
 * table under the heading of its level, and names no key the table does not
 * have there. Every game lists its keys. */
Test(game, every_scenario_key_is_documented)
{
    static doc_key rows[DOC_KEYS_MAX];
    size_t n_rows = 0;
    read_doc_keys(rows, &n_rows);
    for (size_t g = 0; g < om_game_count; g++) {
        const om_game *game = om_games[g];
        char part[128];
        om_game_key *keys;
        size_t n, in_part = 0;
        cr_assert_not_null(game->catalogue->keys, "%s lists no scenario keys", game->identity.name);
        n = game->catalogue->keys(NULL, 0);
        cr_assert(n > 40, "%s: %zu keys", game->identity.name, n);
        keys = calloc(n, sizeof *keys);
        cr_assert_not_null(keys);
        cr_assert_eq(game->catalogue->keys(keys, n), n);
        snprintf(part, sizeof part, "%s scenario files", game->identity.title);
        for (size_t i = 0; i < n; i++) {
            bool found = false;
            for (size_t r = 0; r < n_rows && !found; r++)
                found = strcmp(rows[r].part, part) == 0 && strcmp(rows[r].level, keys[i].where) == 0 &&
                        strcmp(rows[r].name, keys[i].name) == 0;
            cr_expect(found, "%s: key '%s' (%s keys) is not documented under '# %s'", game->identity.name,
                      keys[i].name, keys[i].where, part);
        }
        for (size_t r = 0; r < n_rows; r++) {
            bool known = false;
            if (strcmp(rows[r].part, part) != 0)
                continue;
            in_part++;
            for (size_t i = 0; i < n && !known; i++)
                known = strcmp(keys[i].name, rows[r].name) == 0 &&
                        strcmp(keys[i].where, rows[r].level) == 0;
            cr_expect(known, "docs/scenario-format.md:%d documents '%s' (%s keys of %s), which "
                      "the key table has not", rows[r].line, rows[r].name, rows[r].level,
                      game->identity.name);
        }
        cr_expect_eq(in_part, n, "%s: %zu rows for %zu keys", game->identity.name, in_part, n);
        free(keys);
    }
    /* Every documented key is in the part of a game. */
    for (size_t r = 0; r < n_rows; r++) {
        bool of_a_game = false;
        for (size_t g = 0; g < om_game_count && !of_a_game; g++) {
            char part[128], lists[128];
            snprintf(part, sizeof part, "%s scenario files", om_games[g]->identity.title);
            snprintf(lists, sizeof lists, "%s army list files", om_games[g]->identity.title);
            of_a_game = strcmp(rows[r].part, part) == 0 ||
                        (om_games[g]->battles != NULL && om_games[g]->battles->version >= 1 &&
                         strcmp(rows[r].part, lists) == 0);
        }
        cr_expect(of_a_game, "docs/scenario-format.md:%d: '%s' is under '# %s', no game's part",
                  rows[r].line, rows[r].name, rows[r].part);
    }
}

/* The keys of a game's army list files (its battles' list_keys) are
 * documented in the part "# TITLE army list files" of docs/scenario-format.md,
 * each under the heading of its level, and that part names no other key. */
Test(game, every_list_key_is_documented)
{
    static doc_key rows[DOC_KEYS_MAX];
    size_t n_rows = 0, games = 0;
    read_doc_keys(rows, &n_rows);
    for (size_t g = 0; g < om_game_count; g++) {
        const om_game *game = om_games[g];
        om_game_key keys[64];
        char part[128];
        size_t n, in_part = 0;
        if (game->battles == NULL || game->battles->version < 1)
            continue;
        games++;
        n = game->battles->list_keys(keys, sizeof keys / sizeof keys[0]);
        cr_assert_leq(n, sizeof keys / sizeof keys[0]);
        snprintf(part, sizeof part, "%s army list files", game->identity.title);
        for (size_t i = 0; i < n; i++) {
            bool found = false;
            for (size_t r = 0; r < n_rows && !found; r++)
                found = strcmp(rows[r].part, part) == 0 && strcmp(rows[r].level, keys[i].where) == 0 &&
                        strcmp(rows[r].name, keys[i].name) == 0;
            cr_expect(found, "%s: list key '%s' (%s keys) is not documented under '# %s'",
                      game->identity.name, keys[i].name, keys[i].where, part);
        }
        for (size_t r = 0; r < n_rows; r++)
            in_part += strcmp(rows[r].part, part) == 0;
        cr_expect_eq(in_part, n, "%s: %zu rows for %zu list keys", game->identity.name, in_part, n);
    }
    cr_expect_geq(games, 1u, "no game has army list files");
}

/* The key table's words for a battle's `doctrine` and `length` are the
 * doctrines compiled in and the engine's methods of game length, in their
 * order. */
Test(game, battle_words_are_the_engines)
{
    static om_game_key keys[512];
    const om_game *g = om_game_for_ruleset("warmaster-revolution");
    size_t n;
    cr_assert_not_null(g);
    n = g->catalogue->keys(keys, sizeof keys / sizeof keys[0]);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(keys[i].name, "doctrine") == 0) {
            cr_expect_eq(keys[i].n_values, om_wm_doctrine_named_count());
            for (size_t k = 0; k < keys[i].n_values && k < om_wm_doctrine_named_count(); k++)
                cr_expect_str_eq(keys[i].values[k], om_wm_doctrine_named_at(k));
        } else if (strcmp(keys[i].name, "length") == 0) {
            cr_expect_eq(keys[i].n_values, om_wm_game_length_count);
            for (size_t k = 0; k < keys[i].n_values && k < om_wm_game_length_count; k++)
                cr_expect_str_eq(keys[i].values[k], om_wm_game_lengths[k].name);
        }
    }
}

/* ---- Narration (scenarios/warmaster/wm_narrate.c) ---- */

#include "wm_narrate.h"

/* Events of a made-up battle told as the manual shows them: units of a
 * side sharing a name numbered, an order with its dice, a shot and its
 * drive back, a combat and its units, an army's losses told only when they
 * change, the end. */
Test(narrate, the_words_of_each_event)
{
    om_wm_table t;
    om_wm_trace tr = {.cap = 16};
    om_wm_event ev[16];
    const char *names[2] = {"Empire", "Orcs"};
    char *story = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&story, &len);
    cr_assert_not_null(out);
    tr.ev = ev;
    om_wm_table_init(&t, OM_WM_RULES_REV, 0, 0);
    cr_assert_eq(om_wm_table_add_unit(&t, OM_WM_RULES_REV, "Knights", 0, OM_WM_CAVALRY, 3,
                                      OM_WM_TABLE_LINE, (om_wm_vec){60, 20}, 90), 0);
    cr_assert_eq(om_wm_table_add_unit(&t, OM_WM_RULES_REV, "Orc Warriors", 1,
                                      OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, (om_wm_vec){60, 100},
                                      270), 1);
    cr_assert_eq(om_wm_table_add_unit(&t, OM_WM_RULES_REV, "Orc Warriors", 1,
                                      OM_WM_INFANTRY, 3, OM_WM_TABLE_LINE, (om_wm_vec){90, 100},
                                      270), 2);
    cr_assert_geq(om_wm_table_add_character(&t, "General", 0, OM_WM_GENERAL, 9,
                                            (om_wm_vec){60, 10}), 0);
    tr.side = 0;
    om_wm_event e = om_wm_event_make(&tr, OM_WM_EV_BATTLE_START, -1, -1);
    e.v[0] = 6;
    om_wm_trace_put(&tr, &e);
    tr.turn = 1;
    e = om_wm_event_make(&tr, OM_WM_EV_TURN_START, -1, -1);
    om_wm_trace_put(&tr, &e);
    e = om_wm_event_make(&tr, OM_WM_EV_ORDER, 0, 0);
    e.v[0] = 1, e.v[1] = 8, e.v[2] = 1, e.dice[0] = 3, e.dice[1] = 4, e.flags = OM_WM_EVF_PASSED;
    om_wm_trace_put(&tr, &e);
    e = om_wm_event_make(&tr, OM_WM_EV_CHARGE, 0, 2);
    om_wm_trace_put(&tr, &e);
    e = om_wm_event_make(&tr, OM_WM_EV_SPELL, 1, 0);
    e.v[0] = 0, e.v[1] = 5, e.dice[0] = 6, e.flags = OM_WM_EVF_PASSED;
    om_wm_trace_put(&tr, &e);
    e = om_wm_event_make(&tr, OM_WM_EV_SPELL, -1, 0);
    e.v[0] = 1, e.v[1] = 4, e.dice[0] = 1;
    om_wm_trace_put(&tr, &e);
    e = om_wm_event_make(&tr, OM_WM_EV_SHOT_RESULT, 1, -1);
    e.v[0] = 3, e.v[1] = 1, e.v[2] = 5, e.flags = OM_WM_EVF_CONFUSED;
    om_wm_trace_put(&tr, &e);
    e = om_wm_event_make(&tr, OM_WM_EV_COMBAT, 0, -1);
    e.v[0] = 1, e.v[1] = 6, e.v[2] = OM_WM_SIDE_A, e.v[3] = 1;
    om_wm_trace_put(&tr, &e);
    e = om_wm_event_make(&tr, OM_WM_EV_COMBAT_UNIT, 2, -1);
    e.v[0] = 3, e.flags = OM_WM_EVF_DESTROYED;
    om_wm_trace_put(&tr, &e);
    for (unsigned k = 0; k < 2; k++) {
        /* The same losses twice: told once. */
        e = om_wm_event_make(&tr, OM_WM_EV_WITHDRAWAL, -1, -1);
        e.side = 1, e.v[0] = 2, e.v[1] = 4;
        om_wm_trace_put(&tr, &e);
    }
    e = om_wm_event_make(&tr, OM_WM_EV_END, -1, -1);
    e.side = 0, e.v[0] = OM_WM_VICTORY_POINTS, e.v[1] = 60, e.v[2] = 0, e.v[3] = OM_WM_END_LENGTH;
    om_wm_trace_put(&tr, &e);
    om_wm_spellbook spells = {.n = {1, 0}};
    snprintf(spells.spell[0][0].id, sizeof spells.spell[0][0].id, "ball-of-flame");
    cr_assert_eq(om_wm_narrate_print(out, &t, &spells, names, tr.ev, tr.n, 2), OM_OK);
    fclose(out);
    const char *want =
        "The battle lasts at most 6 turns. Side A (Empire) takes the first turn.\n"
        "\n"
        "Turn 1, side A (Empire)\n"
        "  order 1 from General to Knights (A): needs 8 or less, rolled 3+4=7: passed\n"
        "  Knights (A) charges Orc Warriors 2 (B)\n"
        "  General casts ball-of-flame at Orc Warriors 1 (B): needs 5+, rolled 6: cast\n"
        "  General casts spell 1 on every unit in range: needs 4+, rolled 1: fails\n"
        "  Orc Warriors 1 (B) takes 3 hits: 1 stand removed, driven back 5cm, confused\n"
        "  combat: hits on A 1, on B 6 over 1 round: side A wins\n"
        "    Orc Warriors 2 (B): 3 stands lost, destroyed\n"
        "  Orcs (B) has lost 1 unit; it withdraws at 2\n"
        "\n"
        "The battle ends (its length) after 1 turn: side A (Empire) wins, points victory. "
        "Victory points A 60, B 0.\n"
        "(2 more events were not kept)\n";
    cr_expect_str_eq(story, want);
    free(story);
}
