/*
 * test_scenario.c: Criterion tests of scenarios/warmaster/load.c (scenario.h).
 *
 * Good files (tests/data/scenarios/good) are loaded and every field of the
 * resulting engagement is compared with the file, including each default.
 * Bad files (tests/data/scenarios/bad, one mistake each, named by its first
 * comment line) must fail with the right status and a message that starts
 * "FILE:LINE: field 'PATH': " at the line of the mistake; line numbers below
 * are those of the data files.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "wm_scenario.h"
#include "wm_turn_scenario.h"

#define SCENARIO_DIR OM_TEST_DATA "/scenarios"

/* Largest path or message prefix built here. */
#define TEST_BUF 1024

/* Read a whole file into a NUL-terminated buffer (caller frees). */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    cr_assert_not_null(f, "cannot open %s", path);
    cr_assert_eq(fseek(f, 0, SEEK_END), 0);
    n = ftell(f);
    cr_assert_geq(n, 0);
    rewind(f);
    buf = malloc((size_t)n + 1);
    cr_assert_not_null(buf);
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Load tests/data/scenarios/good/NAME.yaml, which must succeed. */
/* Whether unit u has exactly the traits `want`. */
static bool traits_are(const om_wm_unit *u, om_wm_traits want)
{
    char have[512], expect[512];
    om_wm_traits_format(&u->traits, have, sizeof have);
    om_wm_traits_format(&want, expect, sizeof expect);
    cr_log_info("%s: traits %s, expected %s", u->name, have, expect);
    return om_wm_traits_equal(&u->traits, &want);
}

static om_wm_scenario *load_good(const char *name)
{
    char path[TEST_BUF];
    om_wm_scenario *s = NULL;
    snprintf(path, sizeof path, "%s/good/%s.yaml", SCENARIO_DIR, name);
    om_status st = om_wm_scenario_load_file(path, &s);
    cr_assert_eq(st, OM_OK, "%s: status %d: %s", path, st, om_error_message());
    cr_assert_not_null(s);
    return s;
}

/* Check that the last error has `code` and a message starting
 * "SOURCE:LINE: field 'FIELD': " and containing `fragment` (if not NULL). */
static void check_message(om_status st, om_status code, const char *source, int line,
                          const char *field, const char *fragment)
{
    char prefix[TEST_BUF];
    const char *msg = om_error_message();
    cr_assert_eq(st, code, "%s: status %d, expected %d; message: %s", source, st, code,
                 msg);
    cr_assert_eq(om_error_code(), code);
    snprintf(prefix, sizeof prefix, "%s:%d: field '%s': ", source, line, field);
    cr_assert(strncmp(msg, prefix, strlen(prefix)) == 0,
              "message\n  %s\ndoes not start with\n  %s", msg, prefix);
    if (fragment)
        cr_assert_not_null(strstr(msg, fragment), "message\n  %s\nlacks '%s'", msg,
                           fragment);
    cr_assert_eq(strchr(msg, '\n'), NULL, "one-line message expected: %s", msg);
}

/* Load tests/data/scenarios/bad/NAME.yaml and check that it fails with `code`
 * at `line` in `field`, the message containing `fragment` (if not NULL). */
static void expect_bad(const char *name, om_status code, int line, const char *field,
                       const char *fragment)
{
    char path[TEST_BUF];
    om_wm_scenario *s = NULL;
    snprintf(path, sizeof path, "%s/bad/%s.yaml", SCENARIO_DIR, name);
    om_error_clear();
    om_status st = om_wm_scenario_load_file(path, &s);
    cr_assert_null(s, "%s: no scenario may be returned on error", path);
    check_message(st, code, path, line, field, fragment);
}

/* One bad file of tests/data/scenarios/bad and how it must fail. */
typedef struct bad_case {
    const char *file;        /* NAME of bad/NAME.yaml */
    om_status code;          /* status expected */
    int line;                /* line of the mistake */
    const char *field;       /* dotted path named */
    const char *fragment;    /* text the message contains (NULL: any) */
} bad_case;

/* expect_bad for each of n cases. */
static void expect_bad_cases(const bad_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++)
        expect_bad(cases[i].file, cases[i].code, cases[i].line, cases[i].field,
                   cases[i].fragment);
}

/* A complete scenario with "%s" in place of side A's armour value. */
static const char armour_template[] =
    "schema: oddsmaster-scenario/1\n"
    "ruleset: warmaster-revolution\n"
    "a:\n"
    "  unit: {name: A, type: infantry, stands: 3, attacks: 3, hits: 3, armour: %s}\n"
    "b:\n"
    "  unit: {name: B, type: infantry, stands: 3, attacks: 3, hits: 3, armour: 6+}\n";

/* ------------------------------------------------------------------------ */

Test(scenario, default_embedded)
{
    const char *text = om_scenario_default_text();
    om_wm_scenario *s = NULL;
    cr_assert_not_null(text);
    om_status st = om_wm_scenario_load_text(OM_SCENARIO_DEFAULT_NAME, text, strlen(text), &s);
    cr_assert_eq(st, OM_OK, "%s", om_error_message());

    const om_wm_engagement *e = &s->engagement;
    const om_wm_side *a = &e->side[OM_WM_SIDE_A], *b = &e->side[OM_WM_SIDE_B];
    cr_assert_str_eq(s->source, OM_SCENARIO_DEFAULT_NAME);
    cr_assert_str_eq(s->text, text);
    cr_assert_str_eq(s->title, "Knights charge Spearmen in the open");
    cr_assert_eq(e->rules, om_wm_ruleset_find("warmaster-revolution"));
    cr_assert_eq(e->rules->id, OM_WM_RULES_REV);
    cr_assert_eq(e->kind, OM_WM_KIND_COMBAT);

    cr_assert_str_eq(a->unit.name, "Knights");
    cr_assert_eq(a->unit.troop, OM_WM_CAVALRY);
    cr_assert_eq(a->unit.stands, 3);
    cr_assert_eq(a->unit.attacks, 3);
    cr_assert_eq(a->unit.hits, 3);
    cr_assert_eq(a->unit.armour, 4);
    cr_assert_eq(a->unit.points, 110);
    cr_assert(a->charging);
    cr_assert_eq(a->fighting, 3);

    cr_assert_str_eq(b->unit.name, "Spearmen");
    cr_assert_eq(b->unit.troop, OM_WM_INFANTRY);
    cr_assert_eq(b->unit.stands, 3);
    cr_assert_eq(b->unit.attacks, 3);
    cr_assert_eq(b->unit.hits, 3);
    cr_assert_eq(b->unit.armour, 6);
    cr_assert_eq(b->unit.points, 45);
    cr_assert_not(b->charging);
    cr_assert_eq(b->position, OM_WM_OPEN);
    om_wm_scenario_free(s);
}

Test(scenario, default_text_is_default_yaml)
{
    size_t len;
    char *file = slurp(OM_SOURCE_ROOT "/scenarios/default.yaml", &len);
    cr_assert_str_eq(om_scenario_default_text(), file);
    free(file);
}

Test(scenario, defaults)
{
    char path[TEST_BUF];
    size_t len;
    om_wm_scenario *s = load_good("minimal");
    snprintf(path, sizeof path, "%s/good/minimal.yaml", SCENARIO_DIR);
    char *file = slurp(path, &len);
    cr_assert_str_eq(s->source, path);
    cr_assert_str_eq(s->text, file);
    free(file);

    /* Title: "<name A> vs <name B>"; kind: combat. */
    cr_assert_str_eq(s->title, "Wolf Riders vs Trolls");
    cr_assert_eq(s->engagement.rules, om_wm_ruleset_find("warmaster-1.1"));
    cr_assert_eq(s->engagement.kind, OM_WM_KIND_COMBAT);
    for (int i = 0; i < 2; i++) {
        const om_wm_side *side = &s->engagement.side[i];
        const om_wm_unit *u = &side->unit;
        cr_assert_eq(u->shots, 0, "side %d", i);
        cr_assert_eq(u->range_cm, 0, "side %d: no shots, no range", i);
        cr_assert_eq(u->pace_cm, om_wm_troop_pace(u->troop), "side %d", i);
        cr_assert_eq(u->points, 0, "side %d", i);
        cr_assert(om_wm_traits_empty(&u->traits), "side %d", i);
        cr_assert_not(side->charging, "side %d", i);
        cr_assert_eq(side->position, OM_WM_OPEN, "side %d", i);
        cr_assert_eq(side->fighting, u->stands, "side %d: all stands fight", i);
        cr_assert_eq(side->flanked, 0, "side %d", i);
        cr_assert_eq(side->supports, 0, "side %d", i);
        cr_assert_eq(side->support_units, 0, "side %d", i);
        cr_assert_eq(side->attack_bonus, 0, "side %d", i);
        cr_assert_eq(side->shooting, u->stands, "side %d: all stands shoot", i);
        cr_assert_not(side->confused, "side %d", i);
        cr_assert_not(side->stand_and_shoot, "side %d", i);
        cr_assert_eq(u->size, u->stands, "side %d: at full strength", i);
        cr_assert_not(side->shoots_first, "side %d", i);
        cr_assert_eq(side->pursue, OM_WM_PURSUE_ALWAYS, "side %d", i);
        cr_assert_eq(side->behind, OM_WM_BEHIND_OPEN, "side %d", i);
        cr_assert_eq(side->behind_cm, 0, "side %d", i);
        cr_assert_eq(side->behind_stands, 0, "side %d: nothing behind blocks", i);
        cr_assert_eq(side->rear_supports, 0, "side %d", i);
        cr_assert_eq(side->side_strikers, 0, "side %d", i);
        cr_assert_not(side->long_base, "side %d", i);
        cr_assert_not(side->dense_terrain, "side %d", i);
    }
    /* No options: every ambiguity takes its recommended reading. */
    const om_wm_options none = { 0 };
    cr_assert_eq(memcmp(&s->engagement.options, &none, sizeof none), 0);
    cr_assert_eq(s->engagement.side[0].unit.pace_cm, 30, "cavalry pace");
    cr_assert_eq(s->engagement.side[1].unit.pace_cm, 20, "infantry pace");
    cr_assert_eq(s->engagement.side[1].unit.attacks, 5);
    cr_assert_eq(s->engagement.side[1].unit.armour, 5);
    om_wm_scenario_free(s);
}

Test(scenario, every_key_given)
{
    om_wm_scenario *s = load_good("full");
    const om_wm_side *a = &s->engagement.side[0], *b = &s->engagement.side[1];
    const om_wm_options *o = &s->engagement.options;
    cr_assert_str_eq(s->title, "Knights charge Bowmen behind a hedge");
    cr_assert_eq(s->engagement.rules->id, OM_WM_RULES_WMA);
    cr_assert_eq(s->engagement.kind, OM_WM_KIND_ENGAGEMENT);

    /* Every switch of the registry, booleans spelt four ways, "07" is 7. */
    cr_assert(o->last_ditch_per_stand, "true");
    cr_assert(o->infantry_pursues_cavalry, "yes");
    cr_assert(o->defended_after_retreat, "True");
    cr_assert(o->result_cap_ignores_carried, "on");
    cr_assert_eq(o->max_turns, 7);

    cr_assert_eq(a->unit.pace_cm, 25);
    cr_assert_eq(a->unit.points, 110);
    cr_assert_eq(a->unit.size, 4);
    cr_assert(traits_are(&a->unit, (om_wm_traits){.terror = true, .shock = true}));
    cr_assert(a->charging);
    cr_assert_eq(a->fighting, 2);
    cr_assert_eq(a->flanked, 1);
    cr_assert_eq(a->attack_bonus, 1);
    cr_assert_eq(a->shooting, 0);
    cr_assert_not(a->confused, "'no' is false");
    cr_assert_not(a->shoots_first);
    cr_assert_eq(a->pursue, OM_WM_PURSUE_WHEN_AHEAD);
    cr_assert_eq(a->behind, OM_WM_BEHIND_TABLE_EDGE);
    cr_assert_eq(a->behind_cm, 10);
    cr_assert_eq(a->behind_stands, 2);
    cr_assert_eq(a->rear_supports, 0);
    cr_assert_eq(a->side_strikers, 1);
    cr_assert(a->long_base);
    cr_assert_not(a->dense_terrain);

    cr_assert_str_eq(b->unit.name, "Bowmen");
    cr_assert_eq(b->unit.armour, 0, "armour: none");
    cr_assert_eq(b->unit.shots, 1);
    cr_assert_eq(b->unit.range_cm, 25);
    cr_assert_eq(b->unit.pace_cm, 15);
    cr_assert_eq(b->unit.points, 55);
    cr_assert(traits_are(&b->unit, (om_wm_traits){.terror = true, .shots_no_save = true}));
    cr_assert_eq(b->position, OM_WM_DEFENDED);
    cr_assert_eq(b->fighting, 3);
    cr_assert_eq(b->supports, 2);
    cr_assert_eq(b->support_units, 1);
    cr_assert_eq(b->shooting, 2);
    cr_assert(b->stand_and_shoot, "'yes' is true");
    cr_assert_eq(b->unit.size, 3);
    cr_assert(b->shoots_first);
    cr_assert_eq(b->pursue, OM_WM_PURSUE_NEVER);
    cr_assert_eq(b->behind, OM_WM_BEHIND_FRIENDS);
    cr_assert_eq(b->behind_cm, 3);
    cr_assert_eq(b->behind_stands, 1);
    cr_assert_eq(b->rear_supports, 1);
    cr_assert_eq(b->side_strikers, 0);
    cr_assert_not(b->long_base);
    cr_assert(b->dense_terrain);
    om_wm_scenario_free(s);
}

Test(scenario, volley_and_range_default)
{
    om_wm_scenario *s = load_good("volley");
    const om_wm_unit *a = &s->engagement.side[0].unit, *b = &s->engagement.side[1].unit;
    cr_assert_eq(s->engagement.kind, OM_WM_KIND_VOLLEY);
    cr_assert_eq(a->shots, 1);
    cr_assert_eq(a->range_cm, 30, "a unit with shots gets 30 cm by default");
    cr_assert_eq(a->armour, 0, "armour: 0");
    cr_assert_eq(b->armour, 0, "armour: \"-\"");
    cr_assert_str_eq(s->title, "Crossbowmen vs Orc Boyz");
    om_wm_scenario_free(s);
}

Test(scenario, armour_spellings)
{
    static const struct {
        const char *written;
        unsigned save;
    } cases[] = {
        { "4+", 4 }, { "4", 4 }, { "3+", 3 }, { "6+", 6 }, { "6", 6 },
        { "\"5+\"", 5 }, { "0", 0 }, { "none", 0 }, { "\"-\"", 0 }, { "'-'", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[TEST_BUF];
        om_wm_scenario *s = NULL;
        snprintf(text, sizeof text, armour_template, cases[i].written);
        om_status st = om_wm_scenario_load_text("armour.yaml", text, strlen(text), &s);
        cr_assert_eq(st, OM_OK, "armour: %s: %s", cases[i].written, om_error_message());
        cr_assert_eq(s->engagement.side[0].unit.armour, cases[i].save, "armour: %s",
                     cases[i].written);
        om_wm_scenario_free(s);
    }
}

Test(scenario, armour_spellings_rejected)
{
    static const struct {
        const char *written;
        om_status code;
    } cases[] = {
        { "1+", OM_EINVAL }, { "7+", OM_EINVAL }, { "10+", OM_EINVAL },
        { "0+", OM_EINVAL }, { "+4", OM_EPARSE }, { "4++", OM_EPARSE },
        { "-4", OM_EPARSE }, { "four", OM_EPARSE }, { "\"\"", OM_EPARSE },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[TEST_BUF];
        om_wm_scenario *s = NULL;
        snprintf(text, sizeof text, armour_template, cases[i].written);
        om_status st = om_wm_scenario_load_text("armour.yaml", text, strlen(text), &s);
        cr_assert_null(s);
        check_message(st, cases[i].code, "armour.yaml", 4, "a.unit.armour", NULL);
    }
}

Test(scenario, load_text_names_source)
{
    char text[TEST_BUF];
    om_wm_scenario *s = NULL;
    snprintf(text, sizeof text, armour_template, "4+");
    cr_assert_eq(om_wm_scenario_load_text("my scenario", text, strlen(text), &s), OM_OK);
    cr_assert_str_eq(s->source, "my scenario");
    cr_assert_str_eq(s->text, text);
    cr_assert_str_eq(s->title, "A vs B");
    om_wm_scenario_free(s);

    snprintf(text, sizeof text, armour_template, "heavy");
    om_status st = om_wm_scenario_load_text("my scenario", text, strlen(text), &s);
    cr_assert_null(s);
    check_message(st, OM_EPARSE, "my scenario", 4, "a.unit.armour", "'heavy'");

    st = om_wm_scenario_load_text(NULL, text, strlen(text), &s);
    check_message(st, OM_EPARSE, "<text>", 4, "a.unit.armour", NULL);
}

Test(scenario, load_text_reads_len_bytes)
{
    /* Bytes after `len` are not part of the document. */
    char text[TEST_BUF];
    om_wm_scenario *s = NULL;
    snprintf(text, sizeof text, armour_template, "5+");
    size_t len = strlen(text);
    strcat(text, "garbage: [\n");
    cr_assert_eq(om_wm_scenario_load_text("t", text, len, &s), OM_OK, "%s",
                 om_error_message());
    cr_assert_eq(strlen(s->text), len);
    om_wm_scenario_free(s);
}

Test(scenario, bad_arguments)
{
    om_wm_scenario *s = NULL;
    cr_assert_eq(om_wm_scenario_load_text("t", "x", 1, NULL), OM_EINVAL);
    cr_assert_eq(om_wm_scenario_load_text("t", NULL, 4, &s), OM_EINVAL);
    cr_assert_null(s);
    cr_assert_eq(om_wm_scenario_load_file(NULL, &s), OM_EINVAL);
    cr_assert_eq(om_wm_scenario_load_file("x", NULL), OM_EINVAL);
    om_wm_scenario_free(NULL);
}

Test(scenario, errors_are_not_printed, .init = cr_redirect_stderr)
{
    /* libcyaml's log goes into the message, never to stderr. */
    expect_bad("unknown_unit_key", OM_EPARSE, 9, "a.unit.atacks", NULL);
    expect_bad("missing_key", OM_EPARSE, 14, "b.unit.hits", NULL);
    expect_bad("tab", OM_EPARSE, 8, "a.unit", NULL);
    fflush(stderr);
    cr_assert_stderr_eq_str("");
}

Test(scenario, loads_after_an_error)
{
    expect_bad("wrong_type", OM_EPARSE, 8, "a.unit.stands", NULL);
    om_wm_scenario *s = load_good("minimal");
    om_wm_scenario_free(s);
}

/* ---- Files that cannot be read ------------------------------------------ */

Test(scenario, nonexistent_file)
{
    const char *path = SCENARIO_DIR "/bad/no_such_file.yaml";
    char want[TEST_BUF];
    om_wm_scenario *s = NULL;
    cr_assert_eq(om_wm_scenario_load_file(path, &s), OM_EIO);
    cr_assert_null(s);
    snprintf(want, sizeof want, "%s: cannot read: %s", path, strerror(ENOENT));
    cr_assert_str_eq(om_error_message(), want);
}

Test(scenario, directory)
{
    om_wm_scenario *s = NULL;
    cr_assert_eq(om_wm_scenario_load_file(SCENARIO_DIR, &s), OM_EIO);
    cr_assert_null(s);
    cr_assert_not_null(strstr(om_error_message(), SCENARIO_DIR ": cannot read: "));
}

/* ---- Documents that are not scenarios ----------------------------------- */

Test(scenario, empty_file)
{
    expect_bad("empty", OM_EPARSE, 1, "(document)", "the file is empty");
}

Test(scenario, comments_only)
{
    expect_bad("comments_only", OM_EPARSE, 1, "(document)", "the file is empty");
}

Test(scenario, not_a_mapping)
{
    expect_bad("not_mapping", OM_EPARSE, 2, "(document)", "must be a mapping");
}

Test(scenario, two_documents)
{
    expect_bad("two_documents", OM_EPARSE, 21, "(document)", "second");
}

/* ---- YAML syntax --------------------------------------------------------- */

Test(scenario, malformed_yaml)
{
    expect_bad("malformed", OM_EPARSE, 6, "a.unit", "invalid YAML");
}

Test(scenario, tab_indentation)
{
    expect_bad("tab", OM_EPARSE, 8, "a.unit", "tab");
}

Test(scenario, unclosed_flow_list)
{
    expect_bad("unclosed", OM_EPARSE, 21, "b.unit.rules", "end of the file");
}

Test(scenario, unquoted_dash)
{
    expect_bad("lone_dash", OM_EPARSE, 11, "a.unit.armour", "quote it");
}

/* ---- Schema -------------------------------------------------------------- */

Test(scenario, schema_missing)
{
    expect_bad("schema_missing", OM_EPARSE, 3, "schema", "missing");
}

Test(scenario, schema_wrong)
{
    expect_bad("schema_wrong", OM_EPARSE, 2, "schema", "oddsmaster-scenario/2");
}

/* ---- Keys ---------------------------------------------------------------- */

Test(scenario, unknown_top_level_key)
{
    expect_bad("unknown_top_key", OM_EPARSE, 3, "rulset", "did you mean 'ruleset'?");
}

Test(scenario, unknown_unit_key_did_you_mean)
{
    expect_bad("unknown_unit_key", OM_EPARSE, 9, "a.unit.atacks",
               "unknown key 'atacks'; did you mean 'attacks'?");
}

Test(scenario, unknown_unit_key_lists_known_keys)
{
    expect_bad("unknown_unit_key_far", OM_EPARSE, 9, "a.unit.strength",
               "known keys: name, type, stands, attacks");
}

Test(scenario, side_key_in_unit)
{
    expect_bad("side_key_in_unit", OM_EPARSE, 12, "a.unit.charging", "side key");
}

Test(scenario, missing_required_key)
{
    /* Absent: reported at the line of the mapping that should hold it. */
    expect_bad("missing_key", OM_EPARSE, 14, "b.unit.hits", "required key 'hits'");
}

Test(scenario, missing_side)
{
    expect_bad("missing_b", OM_EPARSE, 2, "b", "required key 'b'");
}

Test(scenario, duplicate_key)
{
    expect_bad("duplicate_key", OM_EPARSE, 18, "b.unit.stands", "duplicate");
}

/* ---- Value types ----------------------------------------------------------- */

Test(scenario, word_for_integer)
{
    expect_bad("wrong_type", OM_EPARSE, 8, "a.unit.stands",
               "expected an integer, got 'three'");
}

Test(scenario, list_for_integer)
{
    expect_bad("list_for_int", OM_EPARSE, 9, "a.unit.attacks",
               "expected an integer, got a list");
}

Test(scenario, value_for_unit_mapping)
{
    expect_bad("unit_scalar", OM_EPARSE, 14, "b.unit", "expected a mapping");
}

Test(scenario, word_for_rule_list)
{
    expect_bad("rules_scalar", OM_EPARSE, 12, "a.unit.rules", "expected a list");
}

Test(scenario, list_in_rule_list)
{
    expect_bad("rules_nested", OM_EPARSE, 12, "a.unit.rules", "expected a rule name");
}

Test(scenario, bad_boolean)
{
    expect_bad("bad_bool", OM_EPARSE, 12, "a.charging", "expected true or false");
}

Test(scenario, armour_word)
{
    expect_bad("armour_word", OM_EPARSE, 11, "a.unit.armour", "'heavy'");
}

/* ---- Names --------------------------------------------------------------- */

Test(scenario, unknown_ruleset)
{
    expect_bad("unknown_ruleset", OM_ENOTFOUND, 3, "ruleset",
               "warmaster-1.1, warmaster-revolution, warmaster-ancients");
}

Test(scenario, unknown_troop_type)
{
    expect_bad("unknown_type", OM_EPARSE, 7, "a.unit.type", "'dragon'");
}

Test(scenario, unknown_position)
{
    expect_bad("unknown_position", OM_EPARSE, 21, "b.position",
               "open, defended, fortified");
}

Test(scenario, unknown_kind)
{
    expect_bad("unknown_kind", OM_EPARSE, 4, "kind", "combat, volley, engagement");
}

Test(scenario, unknown_rule_name)
{
    /* The line of the offending entry, not of the "rules:" key. */
    expect_bad("unknown_rule", OM_EPARSE, 14, "a.unit.rules",
               "'fear'; known rules: terror, shots-no-save");
}

Test(scenario, name_too_long)
{
    expect_bad("name_too_long", OM_EINVAL, 6, "a.unit.name", "at most 63");
}

/* ---- Impossible values --------------------------------------------------- */

Test(scenario, zero_stands)
{
    expect_bad("zero_stands", OM_EINVAL, 8, "a.unit.stands", NULL);
}

Test(scenario, negative_stands)
{
    expect_bad("negative_stands", OM_EINVAL, 17, "b.unit.stands", "negative (got -2)");
}

Test(scenario, stands_300)
{
    expect_bad("stands_300", OM_EINVAL, 8, "a.unit.stands", "300");
}

Test(scenario, stands_beyond_any_integer)
{
    expect_bad("huge_stands", OM_EINVAL, 8, "a.unit.stands", "out of range");
}

Test(scenario, armour_1plus)
{
    expect_bad("armour_1plus", OM_EINVAL, 11, "a.unit.armour", NULL);
}

Test(scenario, fighting_more_than_stands)
{
    expect_bad("fighting_gt_stands", OM_EINVAL, 13, "a.fighting", NULL);
}

Test(scenario, supports_on_cavalry)
{
    expect_bad("supports_cavalry", OM_EINVAL, 13, "a.supports", NULL);
}

Test(scenario, defaulted_field_reported_at_its_mapping)
{
    /* a.unit.shots is absent (0): the error points at a's "unit:" line. */
    expect_bad("volley_no_shots", OM_EINVAL, 6, "a.unit.shots", NULL);
}

/* ---- Units from the army lists (from, character, mount) ------------------- */

Test(scenario, from_with_character_and_mount)
{
    om_wm_scenario *s = load_good("from_character");
    const om_wm_side *a = &s->engagement.side[0], *b = &s->engagement.side[1];
    cr_assert_str_eq(s->title, "Knights vs Orc Warriors", "names from the lists");
    cr_assert_str_eq(a->unit.name, "Knights");
    cr_assert_eq(a->unit.troop, OM_WM_CAVALRY);
    cr_assert_eq(a->unit.stands, 3, "stands = the list's unit size");
    cr_assert_eq(a->unit.attacks, 3);
    cr_assert_eq(a->unit.hits, 3);
    cr_assert_eq(a->unit.armour, 4);
    cr_assert_eq(a->unit.points, 110);
    cr_assert_eq(a->unit.pace_cm, om_wm_troop_pace(OM_WM_CAVALRY));
    /* General +2 and Griffon +2; the Griffon's terror (its rules "terror"
     * and "griffon") joins the unit; its flight does not make the unit fly,
     * so it is recorded as not modelled. */
    cr_assert_eq(a->attack_bonus, 4);
    cr_assert(traits_are(&a->unit, (om_wm_traits){.terror = true}));
    cr_assert_str_eq(a->unit.unmodelled, "fly");
    cr_assert_eq(a->fighting, 3);
    cr_assert(a->charging);

    cr_assert_str_eq(b->unit.name, "Orc Warriors");
    cr_assert_eq(b->unit.troop, OM_WM_INFANTRY);
    cr_assert_eq(b->unit.attacks, 4);
    cr_assert_eq(b->unit.armour, 6);
    cr_assert_eq(b->unit.points, 60);
    cr_assert_eq(b->attack_bonus, 0);
    cr_assert_str_eq(b->unit.unmodelled, "");
    om_wm_scenario_free(s);
}

Test(scenario, from_overrides)
{
    om_wm_scenario *s = load_good("from_overrides");
    const om_wm_side *a = &s->engagement.side[0], *b = &s->engagement.side[1];
    cr_assert_str_eq(a->unit.name, "Zealots");
    cr_assert_eq(a->unit.stands, 4);
    cr_assert_eq(a->unit.attacks, 6);
    cr_assert_eq(a->unit.hits, 3, "not overridden: from the list");
    /* 70 points for 3 stands, so 4 stands cost 93.3, rounded to 93. */
    cr_assert_eq(a->unit.points, 93);
    /* The list's rule (flagellants) is modelled: its flags are set. */
    cr_assert_not_null(om_wm_special_find("flagellants"));
    cr_assert(traits_are(&a->unit, om_wm_special_find("flagellants")->traits));
    cr_assert_str_eq(a->unit.unmodelled, "");
    cr_assert_eq(a->attack_bonus, 0, "an explicit attack_bonus wins over the Hero's +1");
    cr_assert_eq(a->fighting, 4);

    /* rules: replaces the list's rules (handgunners), so nothing is left
     * unmodelled; points: replaces the list's 65. */
    cr_assert(traits_are(&b->unit, (om_wm_traits){.terror = true}));
    cr_assert_str_eq(b->unit.unmodelled, "");
    cr_assert_eq(b->unit.points, 50);
    cr_assert_eq(b->unit.shots, 1);
    cr_assert_eq(b->unit.range_cm, 30);
    om_wm_scenario_free(s);
}

Test(scenario, from_ancients_rules)
{
    om_wm_scenario *s = load_good("from_ancients");
    const om_wm_unit *a = &s->engagement.side[0].unit, *b = &s->engagement.side[1].unit;
    cr_assert_eq(s->engagement.rules->id, OM_WM_RULES_WMA);
    cr_assert_not_null(om_wm_special_find("warband"));
    cr_assert(traits_are(a, om_wm_special_find("warband")->traits),
              "a modelled rule sets its traits");
    cr_assert_str_eq(a->unmodelled, "unreliable", "the other is recorded");
    cr_assert(om_wm_traits_empty(&b->traits) && b->rule_count == 0,
              "rules: [] clears the list's rules");
    cr_assert_str_eq(b->unmodelled, "");
    cr_assert_eq(b->shots, 1);
    cr_assert_eq(b->range_cm, 15);
    om_wm_scenario_free(s);
}

Test(scenario, rules_of_the_lists_are_recorded)
{
    om_wm_scenario *s = load_good("rules_unmodelled");
    const om_wm_unit *a = &s->engagement.side[0].unit, *b = &s->engagement.side[1].unit;
    cr_assert(traits_are(a, (om_wm_traits){.terror = true}));
    cr_assert_eq(a->rule_count, 1, "named twice, recorded once");
    cr_assert_str_eq(a->unmodelled, "desert-riders", "named twice, recorded once");
    /* Skirmishers print "-/6+" and a size of 1: 2 stands cost twice 20. */
    cr_assert_eq(b->armour, 6);
    cr_assert_eq(b->stands, 2);
    cr_assert_eq(b->points, 40);
    cr_assert_str_eq(b->unmodelled, "skirmishers");
    om_wm_scenario_free(s);
}

Test(scenario, from_errors)
{
    static const bad_case cases[] = {
        { "from_unknown_army", OM_ENOTFOUND, 10, "b.unit.from",
          "unknown warmaster-revolution army 'orcs-goblins'; did you mean 'orcs'?" },
        { "from_unknown_unit", OM_ENOTFOUND, 6, "a.unit.from",
          "unknown unit 'knigths' in warmaster-revolution/empire; did you mean 'knights'?" },
        { "from_unknown_unit_far", OM_ENOTFOUND, 6, "a.unit.from",
          "its units: infantry, archers" },
        { "from_other_ruleset", OM_ENOTFOUND, 6, "a.unit.from",
          "(an army of warmaster-revolution); did you mean 'orc'?" },
        { "from_not_a_reference", OM_EPARSE, 6, "a.unit.from", "expected army/unit" },
        { "from_character", OM_EINVAL, 6, "a.unit.from",
          "is a character (general), which cannot fight as a unit" },
        { "from_mount", OM_EINVAL, 6, "a.unit.from", "is a mount" },
        { "from_upgrade", OM_EINVAL, 6, "a.unit.from", "is an upgrade" },
        { "from_no_hits", OM_EINVAL, 6, "a.unit.from", "no Hits value" },
        { "from_override_out_of_range", OM_EINVAL, 7, "a.unit.stands",
          "must be 1 to 12 (got 13)" },
        { "from_override_bad_value", OM_EPARSE, 7, "a.unit.attacks",
          "expected an integer, got 'lots'" },
        { "character_not_character", OM_EINVAL, 7, "a.character",
          "not a character but a cavalry unit" },
        { "character_unknown", OM_ENOTFOUND, 10, "b.character", "did you mean 'orc-hero'?" },
        { "mount_without_character", OM_EPARSE, 7, "a.mount", "needs a rider" },
        { "mount_unknown", OM_ENOTFOUND, 8, "a.mount", "did you mean 'griffon'?" },
        { "mount_not_allowed", OM_EINVAL, 8, "a.mount",
          "cannot ride 'war-altar' (its list allows: griffon)" },
        { "unknown_rule_near", OM_EPARSE, 7, "a.unit.rules", "did you mean 'flagellants'?" },
    };
    expect_bad_cases(cases, sizeof cases / sizeof cases[0]);
}

Test(scenario, inline_unit_needs_every_required_key)
{
    /* Without from, a missing required key says how to get it from a list. */
    expect_bad("missing_key", OM_EPARSE, 14, "b.unit.hits", "from: army/unit");
}

/* ---- Engagements: the whole fight, what lies behind, options ------------- */

Test(scenario, engagement_kind_and_behind_defaults)
{
    om_wm_scenario *s = load_good("engagement");
    const om_wm_side *a = &s->engagement.side[0], *b = &s->engagement.side[1];
    const om_wm_options none = { 0 };
    cr_assert_eq(s->engagement.kind, OM_WM_KIND_ENGAGEMENT);
    cr_assert_eq(memcmp(&s->engagement.options, &none, sizeof none), 0, "options: {}");
    cr_assert_eq(a->pursue, OM_WM_PURSUE_ALWAYS);
    cr_assert_eq(a->behind, OM_WM_BEHIND_OPEN);
    cr_assert_eq(a->behind_stands, 0);
    cr_assert_eq(b->behind, OM_WM_BEHIND_IMPASSABLE);
    cr_assert_eq(b->behind_cm, 4);
    cr_assert_eq(b->behind_stands, b->unit.stands, "it blocks every stand by default");
    cr_assert_eq(b->behind_stands, 3);
    /* With from and the list's stands, the units are at full strength. */
    cr_assert_eq(a->unit.size, 3);
    cr_assert_eq(b->unit.size, 3);
    om_wm_scenario_free(s);
}

Test(scenario, unit_size_with_from)
{
    om_wm_scenario *s = load_good("from_size");
    const om_wm_side *a = &s->engagement.side[0], *b = &s->engagement.side[1];
    const om_wm_options none = { 0 };
    cr_assert_eq(memcmp(&s->engagement.options, &none, sizeof none), 0,
                 "'options:' with nothing is no options");
    /* German Warriors at 2 of their list's 3 stands: a unit that has lost a
     * stand, still worth its list's 35 points. */
    cr_assert_eq(a->unit.stands, 2);
    cr_assert_eq(a->unit.size, 3);
    cr_assert_eq(a->unit.points, 35);
    /* Hermann joins: his +2 Attacks, and his extra die in a charge goes to
     * the unit (modelled, so not reported as left out). */
    cr_assert_eq(a->attack_bonus, 2);
    cr_assert(traits_are(&a->unit, (om_wm_traits){.charge_dice_delta = +1, .warband = true}));
    cr_assert_str_eq(a->unit.unmodelled, "");
    /* A Legion of 5 stands at full strength, 4 left: 80 x 5 / 3 = 133.3. */
    cr_assert_eq(b->unit.stands, 4);
    cr_assert_eq(b->unit.size, 5);
    cr_assert_eq(b->unit.points, 133);
    cr_assert(traits_are(&b->unit, (om_wm_traits){.legion = true}));
    om_wm_scenario_free(s);
}

Test(scenario, unit_size_above_the_lists)
{
    /* More stands than the list's size, size not given: at full strength. */
    om_wm_scenario *s = load_good("from_overrides");
    cr_assert_eq(s->engagement.side[0].unit.stands, 4);
    cr_assert_eq(s->engagement.side[0].unit.size, 4);
    om_wm_scenario_free(s);
}

/* A scenario with "%s" in place of its top-level `options:` block. */
static const char options_template[] =
    "schema: oddsmaster-scenario/1\n"
    "ruleset: warmaster-revolution\n"
    "kind: engagement\n"
    "%s\n"
    "a:\n"
    "  unit: {from: empire/knights}\n"
    "  charging: true\n"
    "b:\n"
    "  unit: {from: empire/halberdiers}\n";

Test(scenario, options_through_the_registry)
{
    static const struct {
        const char *written;
        const char *name, *value; /* om_wm_option_value after loading */
    } cases[] = {
        { "options: {max_turns: 5}", "max_turns", "5" },
        { "options: {max_turns: 0}", "max_turns", "0" },
        { "options: {max_turns: 100}", "max_turns", "100" },
        { "options: {max_turns: +3}", "max_turns", "3" },
        { "options:\n  last_ditch_per_stand: TRUE", "last_ditch_per_stand", "true" },
        { "options:\n  infantry_pursues_cavalry: off", "infantry_pursues_cavalry", "false" },
        { "options: {defended_after_retreat: \"yes\"}", "defended_after_retreat", "true" },
        { "options: ~", "max_turns", "0" },
        { "# no options", "result_cap_ignores_carried", "false" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[TEST_BUF], buf[32];
        om_wm_scenario *s = NULL;
        snprintf(text, sizeof text, options_template, cases[i].written);
        om_status st = om_wm_scenario_load_text("options.yaml", text, strlen(text), &s);
        cr_assert_eq(st, OM_OK, "%s: %s", cases[i].written, om_error_message());
        const om_wm_option *opt = om_wm_option_find(cases[i].name);
        cr_assert_not_null(opt);
        cr_assert_str_eq(om_wm_option_value(&s->engagement.options, opt, buf, sizeof buf),
                         cases[i].value, "%s", cases[i].written);
        om_wm_scenario_free(s);
    }
}

Test(scenario, options_rejected)
{
    static const struct {
        const char *written;
        om_status code;
        const char *field, *fragment;
    } cases[] = {
        { "options: 5", OM_EPARSE, "options", "expected a mapping of option names" },
        { "options: {max_turns: -1}", OM_EINVAL, "options.max_turns", "0 to 100" },
        { "options: {max_turns: 99999999999999999999}", OM_EINVAL, "options.max_turns",
          "0 to 100" },
        { "options: {max_turns: 2.5}", OM_EPARSE, "options.max_turns", "expected an integer" },
        { "options: {max_turns: true}", OM_EPARSE, "options.max_turns", "expected an integer" },
        { "options: {last_ditch_per_stand: 1}", OM_EPARSE, "options.last_ditch_per_stand",
          "expected true or false" },
        { "options: {last_ditch_per_stand: {a: 1}}", OM_EPARSE,
          "options.last_ditch_per_stand", "got a mapping" },
        { "options: {max-turns: 5}", OM_EPARSE, "options.max-turns",
          "did you mean 'max_turns'?" },
        { "options: {retreat_divisor: true}", OM_EINVAL, "options.retreat_divisor",
          "fixed reading" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[TEST_BUF];
        om_wm_scenario *s = NULL;
        snprintf(text, sizeof text, options_template, cases[i].written);
        om_status st = om_wm_scenario_load_text("options.yaml", text, strlen(text), &s);
        cr_assert_null(s);
        check_message(st, cases[i].code, "options.yaml", 4, cases[i].field,
                      cases[i].fragment);
    }
}

Test(scenario, engagement_errors)
{
    static const bad_case cases[] = {
        { "pursue_unknown", OM_EPARSE, 14, "a.pursue",
          "unknown pursuit policy 'sometimes'; expected one of: always, never, when-ahead" },
        { "aura_unknown", OM_EPARSE, 9, "b.aura",
          "unknown aura 'sometimes'; expected one of: none, always, roll" },
        { "power_oathstone_no_hero", OM_EINVAL, 9, "b.power", "needs its Hero joined" },
        { "behind_unknown", OM_EPARSE, 22, "b.behind",
          "'river'; expected one of: open, impassable, enemy, unyielding, friends, "
          "table-edge" },
        { "behind_cm_negative", OM_EINVAL, 23, "b.behind_cm", "must not be negative (got -5)" },
        { "behind_stands_gt_stands", OM_EINVAL, 23, "b.behind_stands", "must be 0 to 3 (got 4)" },
        { "rear_supports_gt_supports", OM_EINVAL, 24, "b.rear_supports",
          "must be 0 to 2 (got 3)" },
        { "side_strikers_gt_flanked", OM_EINVAL, 23, "b.side_strikers",
          "must be 0 to 1 (got 2)" },
        { "long_base_without_shock", OM_EINVAL, 14, "a.long_base", "only shock cavalry" },
        { "shoots_first_no_shots", OM_EINVAL, 14, "a.shoots_first",
          "no shooting attacks" },
        { "shoots_first_no_charge", OM_EINVAL, 15, "a.shoots_first",
          "shooting first needs a charge" },
        { "size_below_stands", OM_EINVAL, 10, "a.unit.size",
          "more stands (3) than at full strength (2)" },
        { "option_unknown", OM_EPARSE, 6, "options.max_turn",
          "unknown option 'max_turn'; did you mean 'max_turns'?" },
        { "option_unknown_far", OM_EPARSE, 6, "options.frobnicate",
          "the switches are: last_ditch_per_stand, infantry_pursues_cavalry" },
        { "option_fixed", OM_EINVAL, 7, "options.stand_floor",
          "'stand_floor' is a fixed reading, not a switch: each stand is floored at 0" },
        { "option_max_turns_101", OM_EINVAL, 6, "options.max_turns",
          "must be 0 to 100 (got '101')" },
        { "option_bad_bool", OM_EPARSE, 6, "options.last_ditch_per_stand",
          "expected true or false, got 'maybe'" },
        { "option_not_integer", OM_EPARSE, 6, "options.max_turns",
          "expected an integer, got 'many'" },
        { "option_duplicate", OM_EPARSE, 8, "options.max_turns",
          "duplicate option 'max_turns' (first given at line 6)" },
        { "option_value_list", OM_EPARSE, 6, "options.max_turns",
          "expected a single value, got a list" },
        { "options_list", OM_EPARSE, 5, "options", "expected a mapping" },
        { "option_at_top_level", OM_EPARSE, 5, "max_turns",
          "it is an option: put it under the top-level 'options:'" },
    };
    expect_bad_cases(cases, sizeof cases / sizeof cases[0]);
}

Test(scenario, options_misplaced)
{
    static const struct {
        const char *written; /* replaces the options block */
        const char *append;  /* added at the end of the file (in side b) */
        int line;
        const char *field, *fragment;
    } cases[] = {
        { "options: {max_turns: 3}\noptions: {max_turns: 4}", "", 5, "options",
          "duplicate key 'options' (first given at line 4)" },
        { "", "  options: {max_turns: 4}\n", 10, "b.options",
          "it is a top-level key" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[TEST_BUF];
        om_wm_scenario *s = NULL;
        snprintf(text, sizeof text, options_template, cases[i].written);
        strcat(text, cases[i].append);
        om_status st = om_wm_scenario_load_text("misplaced.yaml", text, strlen(text), &s);
        cr_assert_null(s);
        check_message(st, OM_EPARSE, "misplaced.yaml", cases[i].line, cases[i].field,
                      cases[i].fragment);
    }
}

Test(scenario, option_inside_a_side)
{
    char text[TEST_BUF];
    om_wm_scenario *s = NULL;
    snprintf(text, sizeof text, options_template, "");
    strcat(text, "  max_turns: 4\n");
    om_status st = om_wm_scenario_load_text("side.yaml", text, strlen(text), &s);
    cr_assert_null(s);
    check_message(st, OM_EPARSE, "side.yaml", 10, "b.max_turns", "it is an option");
}

/* Dragon-riding characters (army lists; rule_effects_fantasy A-14): the Chaos
 * Dragon's and the High Elf Dragon's fire joins the unit's shooting as 3
 * Attacks, with the dragon's terror; the rider is never badly hurt, so
 * "dragons" is modelled and only flight is recorded as not modelled. An inline
 * extra_shots wins. */
Test(scenario, dragon_riders_breathe_with_their_unit)
{
    om_wm_scenario *s = load_good("from_dragon");
    const om_wm_side *a = &s->engagement.side[0], *b = &s->engagement.side[1];
    cr_assert_eq(a->extra_shots, 3);
    cr_assert_eq(a->unit.shots, 0, "Chaos Warriors do not shoot; the rider does");
    cr_assert(a->unit.traits.terror);
    cr_assert_str_eq(a->unit.unmodelled, "fly");
    cr_assert_eq(b->extra_shots, 3);
    cr_assert(traits_are(&b->unit, (om_wm_traits){.terror = true}), "no badly hurt for a rider");
    cr_assert_str_eq(b->unit.unmodelled, "fly");
    om_wm_scenario_free(s);
}

/* Side keys for powers and auras (rule_effects_fantasy ), and the
 * army a unit comes from for Zealots: Skeletons are Undead whatever
 * their rules. */
Test(scenario, powers_auras_and_armies)
{
    om_wm_scenario *s = load_good("powers");
    const om_wm_side *a = &s->engagement.side[0], *b = &s->engagement.side[1];
    cr_assert_eq(a->power, OM_WM_POWER_TOMB_KING);
    cr_assert_eq(a->power_turn, 2);
    cr_assert(a->unit.chaos_or_undead);
    cr_assert_eq(b->aura, OM_WM_AURA_ROLL);
    cr_assert_eq(b->power, OM_WM_POWER_NONE);
    cr_assert_eq(b->power_turn, 0);
    cr_assert(b->unit.traits.hates_chaos_undead);
    cr_assert_not(b->unit.chaos_or_undead);
    cr_assert(!a->pushed && !b->pushed);
    om_wm_scenario_free(s);
}

/* Shots by range: the Helblaster's 8 Attacks within 10cm (army list). */
Test(scenario, target_distance)
{
    om_wm_scenario *s = load_good("guns");
    const om_wm_side *a = &s->engagement.side[0];
    cr_assert_eq(a->target_cm, 10);
    cr_assert_eq(om_wm_shots(a, a->unit.stands, false), 8u);
    cr_assert_not(s->engagement.side[1].blind_fire);
    cr_assert_str_eq(a->unit.unmodelled, "");
    om_wm_scenario_free(s);
}

/* Caractacus (Ancients, A29): terror against an army list without chariots. */
Test(scenario, caractacus)
{
    om_wm_scenario *s = load_good("caractacus");
    cr_assert(s->engagement.side[0].unit.traits.terror);
    om_wm_scenario_free(s);
    s = load_good("caractacus_vs_chariots");
    cr_assert_not(s->engagement.side[0].unit.traits.terror);
    om_wm_scenario_free(s);
    s = load_good("caractacus_vs_inline_chariots");
    cr_assert_not(s->engagement.side[0].unit.traits.terror, "the enemy is chariots");
    om_wm_scenario_free(s);
    expect_bad("caractacus_not_chariots", OM_EINVAL, 7, "a.caractacus", "Britons Chariots");
}

/*
 * A table at full capacity through the real turn loader
 * (tests/data/turns/capacity.yaml): 128 units, 24 characters, 48 brigades.
 * It loads, is prepared and runs: in every trial the first brigade of side
 * A's front line moves exactly when the General's first order passes, and
 * that order passes with its exact probability. The General (Command 9, at
 * (120,4)) orders the brigade whose most distant unit's nearest point is
 * (36,19): sqrt(84^2 + 15^2) = 85.3cm, -4 by the distance chart (Command >
 * Command Penalties); no enemy within 20cm; so 2D6 <= 5, 10/36. The
 * command line runs it too, every unit's results a column of the file's
 * per-unit datasets (tests/test_cli_turn.sh).
 */
Test(scenario, turn_at_full_capacity)
{
    enum { TRIALS = 4000 };
    const double p = 10.0 / 36.0;
    size_t len;
    char *text = slurp(OM_TEST_DATA "/turns/capacity.yaml", &len);
    om_wm_scenario *s = NULL;
    om_wm_turn_prepared *tp = NULL;
    om_wm_turn_work *w = NULL;
    om_wm_check_failure why;
    om_wm_command_test test;
    const unsigned brigade[4] = {0, 1, 2, 3};
    unsigned passed = 0;
    om_dice d;
    om_status st = om_wm_turn_scenario_load_text("capacity.yaml", text, len, &s);
    cr_assert_eq(st, OM_OK, "%s", om_error_message());
    const om_wm_turn *turn = &s->turn->turn;
    cr_assert_eq(turn->table.units, OM_WM_TABLE_MAX_UNITS);
    cr_assert_eq(turn->table.characters, OM_WM_TABLE_MAX_CHARACTERS);
    cr_assert_eq(turn->table.brigades, OM_WM_TABLE_MAX_BRIGADES);
    cr_assert_eq(turn->table.character[0].kind, OM_WM_GENERAL);
    om_wm_command_test_for(&turn->command, &turn->table, 0, brigade, 4, 1, &test);
    cr_assert_eq(test.distance, 4);
    cr_assert_eq(test.target, 5);
    memset(&why, 0, sizeof why);
    cr_assert_eq(om_wm_turn_prepare_alloc(turn, &why, &tp), OM_OK, "%s: %s", why.field,
                 why.reason);
    cr_assert_eq(om_wm_turn_work_alloc(&w), OM_OK);
    d.plain = NULL;
    om_rng_seed_block(&d.rng, 64, 0);
    for (unsigned k = 0; k < TRIALS; k++) {
        om_wm_turn_result r;
        om_wm_turn_resolve(tp, w, &d, &r);
        for (unsigned u = 0; u < 4; u++)
            cr_assert_eq(r.unit[u].moved, r.general_orders >= 1, "trial %u unit %u", k, u);
        passed += r.general_orders >= 1;
    }
    cr_expect_leq(fabs(passed / (double)TRIALS - p), 5 * sqrt(p * (1 - p) / TRIALS),
                  "the General's first order passed in %u of %d trials", passed, TRIALS);
    om_wm_turn_work_free(w);
    om_wm_turn_prepared_free(tp);
    om_wm_scenario_free(s);
    free(text);
}
