/*
 * wm_battle.c: the loader of scenario files of kind battle (wm_battle.h):
 *
 *     schema: oddsmaster-scenario/1
 *     kind: battle
 *     title: Steel and shot against the green horde      # optional
 *     ruleset: warmaster-revolution       # optional: the lists' own, which must agree
 *     a: {list: revolution-empire-steel-and-shot, doctrine: default}
 *     b: {list: ../my-lists/orcs.yaml, doctrine: aggressive}
 *     length: d6-6-7-8                    # d6-6-7-8 | rolled-from-6 | d6-5-6-7 |
 *                                         # rolled-from-5 | fixed (then `turns`)
 *     turns: 6                            # with length: fixed, 1..30
 *     first: roll                         # roll | a | b
 *
 * `list` names an example list compiled into the program (the stem of a file
 * of scenarios/lists/warmaster) or a list file, relative to the scenario
 * file's directory. `doctrine` names a doctrine compiled into the program
 * (a file of scenarios/doctrines/warmaster, wm_doctrine.h) or a doctrine
 * file, relative to the scenario file's directory; `default` when omitted. Each army deploys in lines of battle
 * (om_wm_battle_deploy_line: its units in the list's order, brigades of four
 * touching units), and each of its characters joins a unit spread across its
 * army (the General the middle one), so that every unit is within some
 * character's command; a character is slain with the unit it joined.
 * Everything is checked here, with the file and line: the battle's trials
 * check nothing.
 */
#include "wm_battle.h"

#include <stdio.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "army.h"
#include "doctrine.h"
#include "wm_doctrine.h"
#include "suggest.h"
#include "yaml_int.h"

/* The example lists, compiled in (scenarios/meson.build). */
extern const om_army_file om_wm_list_embedded[];
extern const size_t om_wm_list_embedded_count;

size_t om_wm_battle_example_count(void) { return om_wm_list_embedded_count; }

const char *om_wm_battle_example_at(size_t i)
{
    return i < om_wm_list_embedded_count ? om_wm_list_embedded[i].stem : NULL;
}

/* ---- Schema ---- */

typedef struct raw_side {
    char *list, *doctrine;
} raw_side;

typedef struct raw_battle {
    char *schema, *title, *ruleset, *kind, *length, *turns, *first;
    raw_side a, b;
} raw_battle;

#define REQ CYAML_FLAG_POINTER
#define OPT (CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL)
#define STR(key, flags, type, member) \
    CYAML_FIELD_STRING_PTR(key, flags, type, member, 0, CYAML_UNLIMITED)

static const cyaml_schema_field_t side_fields[] = {
    STR("list", REQ, raw_side, list),
    STR("doctrine", OPT, raw_side, doctrine),
    CYAML_FIELD_END
};

static const cyaml_schema_field_t top_fields[] = {
    STR("schema", REQ, raw_battle, schema),
    STR("title", OPT, raw_battle, title),
    STR("ruleset", OPT, raw_battle, ruleset),
    STR("kind", REQ, raw_battle, kind),
    CYAML_FIELD_MAPPING("a", CYAML_FLAG_DEFAULT, raw_battle, a, side_fields),
    CYAML_FIELD_MAPPING("b", CYAML_FLAG_DEFAULT, raw_battle, b, side_fields),
    STR("length", OPT, raw_battle, length),
    STR("turns", OPT, raw_battle, turns),
    STR("first", OPT, raw_battle, first),
    CYAML_FIELD_END
};

static const cyaml_schema_value_t top_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, raw_battle, top_fields),
};

#undef STR
#undef REQ
#undef OPT

static const char *const int_keys[] = {"turns", NULL};
static const char *const bool_keys[] = {NULL};

static const om_yaml_doc battle_doc = {
    .schema = OM_SCENARIO_SCHEMA,
    .what = "a scenario file of kind battle",
    .keys = "schema, kind, a, b",
    .top = &top_schema,
    .int_keys = int_keys,
    .bool_keys = bool_keys,
    .list_expects = "a name",
    .entry_expects = "a name",
    .value_max = OM_YAML_SCALAR_MAX,
};

/* ---- Conversion ---- */

/* The first side's names: "a" and "b". */
static const char *const side_key[2] = {"a", "b"};

/* The example list called `name`, or NULL. */
static const om_army_file *example(const char *name)
{
    for (size_t i = 0; i < om_wm_list_embedded_count; i++)
        if (strcmp(om_wm_list_embedded[i].stem, name) == 0 ||
            strcmp(om_wm_list_embedded[i].path, name) == 0)
            return &om_wm_list_embedded[i];
    return NULL;
}

/* Whether `name` reads as a path rather than an example's name. */
static bool is_path(const char *name)
{
    size_t n = strlen(name);
    return strchr(name, '/') != NULL ||
           (n > 5 && (strcmp(name + n - 5, ".yaml") == 0 || strcmp(name + n - 4, ".yml") == 0));
}

/* `name` relative to the scenario file's directory (unless absolute), into
 * *out (malloc'd). */
static om_status beside(const om_yaml_ctx *c, const char *name, char **out)
{
    const char *slash = strrchr(c->source, '/');
    size_t dir = name[0] != '/' && slash != NULL ? (size_t)(slash - c->source) + 1 : 0;
    if ((*out = malloc(dir + strlen(name) + 1)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", c->source);
    memcpy(*out, c->source, dir);
    strcpy(*out + dir, name);
    return OM_OK;
}

/* Read side s's doctrine (absent: default): a doctrine compiled in, with
 * did-you-mean, or a doctrine file beside the scenario, whose own errors
 * name its file, line and field. */
static om_status read_doctrine(const om_yaml_ctx *c, unsigned s, const char *name,
                               om_wm_battle_scenario *b)
{
    char *path = NULL, *text = NULL;
    size_t len = 0;
    om_status st;
    if (name == NULL)
        name = "default";
    if (!is_path(name)) {
        const char *names[OM_WM_DOCTRINE_NAMED_MAX], *best;
        char known[OM_YAML_REASON_MAX / 2];
        size_t n = 0;
        for (size_t i = 0; i < om_wm_doctrine_named_count() && n < OM_WM_DOCTRINE_NAMED_MAX; i++)
            if (strcmp(om_wm_doctrine_named_at(i), name) == 0)
                return om_wm_doctrine_named(name, &b->doctrine[s]);
            else
                names[n++] = om_wm_doctrine_named_at(i);
        best = om_suggest(name, names, n);
        om_yaml_join_names(known, sizeof known, names, n);
        return om_yaml_fail_at(c, OM_ENOTFOUND, 0, side_key[s], "doctrine", "unknown doctrine "
                               "'%s'; %s%s%sexpected one of: %s, or a doctrine file's path "
                               "(ending in .yaml)", name, best ? "did you mean '" : "",
                               best ? best : "", best ? "'? " : "", known);
    }
    if ((st = beside(c, name, &path)) != OM_OK)
        return st;
    if ((st = om_yaml_read_file(path, &text, &len)) != OM_OK) {
        /* A doctrine file that cannot be read is a bad battle file (exit 2):
         * the name in it is wrong, as a misspelt doctrine's is. */
        st = om_yaml_fail_at(c, st == OM_ENOMEM ? st : OM_ENOTFOUND, 0, side_key[s], "doctrine",
                             "cannot read the doctrine file %s: %s", path, om_error_message());
        free(path);
        return st;
    }
    st = om_wm_doctrine_parse(path, text, len, &b->doctrine[s]);
    b->doctrine_text[s] = text;
    b->doctrine_source[s] = path;
    return st;
}

/* Read side s's list: an example, or a file beside the scenario. */
static om_status read_list(const om_yaml_ctx *c, unsigned s, const char *name,
                           om_wm_battle_scenario *b)
{
    const om_army_file *ex = is_path(name) ? NULL : example(name);
    char *path = NULL, *text = NULL;
    size_t len = 0;
    om_status st;

    if (ex != NULL) {
        text = om_yaml_dup(ex->text, ex->len);
        len = ex->len;
        b->list_name[s] = strdup(ex->stem);
    } else if (!is_path(name)) {
        const char **names = calloc(om_wm_list_embedded_count + 1, sizeof *names);
        const char *best;
        if (names == NULL)
            return OM_ERROR(OM_ENOMEM, "%s: out of memory", c->source);
        for (size_t i = 0; i < om_wm_list_embedded_count; i++)
            names[i] = om_wm_list_embedded[i].stem;
        best = om_suggest(name, (const char *const *)names, om_wm_list_embedded_count);
        st = om_yaml_fail_at(c, OM_ENOTFOUND, 0, side_key[s], "list",
                             "no example list '%s'%s%s%s; give a list file's path (ending in "
                             ".yaml) or an example, a file of scenarios/lists/warmaster",
                             name, best ? "; did you mean '" : "", best ? best : "",
                             best ? "'" : "");
        free(names);
        return st;
    } else {
        /* Relative to the scenario file's directory. */
        if ((st = beside(c, name, &path)) != OM_OK)
            return st;
        if ((st = om_yaml_read_file(path, &text, &len)) != OM_OK) {
            st = om_yaml_fail_at(c, st, 0, side_key[s], "list", "cannot read the list file "
                                 "%s: %s", path, om_error_message());
            free(path);
            return st;
        }
        b->list_name[s] = path;
        path = NULL;
    }
    if (text == NULL || b->list_name[s] == NULL) {
        free(text);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", c->source);
    }
    b->list_text[s] = text;
    return om_wm_armylist_parse(b->list_name[s], text, len, &b->list[s]);
}

/* A name of `names` (n of them) for key `leaf` of `path`, into *out (its
 * index); `dflt` when absent. */
static om_status conv_choice(const om_yaml_ctx *c, const char *path, const char *leaf,
                             const char *value, const char *const *names, size_t n, size_t dflt,
                             size_t *out)
{
    const char *best;
    char known[OM_YAML_REASON_MAX / 2];
    *out = dflt;
    if (value == NULL)
        return OM_OK;
    for (size_t i = 0; i < n; i++)
        if (strcmp(value, names[i]) == 0) {
            *out = i;
            return OM_OK;
        }
    best = om_suggest(value, names, n);
    om_yaml_join_names(known, sizeof known, names, n);
    return om_yaml_fail_at(c, OM_ENOTFOUND, 0, path, leaf, "unknown %s '%s'; %s%s%sexpected "
                           "one of: %s", leaf, value, best ? "did you mean '" : "",
                           best ? best : "", best ? "'? " : "", known);
}

/* Each unit's id on the table: its list id, numbered when the list has
 * several ("halberdiers_2"). */
static void name_units(om_wm_battle_scenario *b, unsigned s, unsigned first)
{
    const om_wm_armylist *l = b->list[s];
    for (size_t i = 0; i < l->n_units; i++) {
        unsigned n = 0, k = 0;
        for (size_t j = 0; j < l->n_units; j++) {
            n += strcmp(l->units[j].id, l->units[i].id) == 0;
            k += j < i && strcmp(l->units[j].id, l->units[i].id) == 0;
        }
        if (n > 1)
            snprintf(b->id[first + i], sizeof b->id[0], "%s_%s_%u", side_key[s], l->units[i].id,
                     k + 1);
        else
            snprintf(b->id[first + i], sizeof b->id[0], "%s_%s", side_key[s], l->units[i].id);
    }
}

/* Side s's characters on the table, each joined to a unit spread across its
 * army, the General to the middle one; their victory points (Victory Points:
 * a character's value includes its mount and items). */
static om_status place_characters(const om_yaml_ctx *c, om_wm_battle_scenario *b, unsigned s,
                                  unsigned first)
{
    const om_wm_armylist *l = b->list[s];
    om_wm_table *t = &b->turn.table;
    const size_t n = l->n_units, nc = l->n_characters;
    size_t others = 0;
    for (size_t k = 0; k < nc; k++) {
        const om_wm_armylist_character *ch = &l->characters[k];
        size_t at = ch->kind == OM_WM_GENERAL ? n / 2 : (others++ + 1) * n / (nc + 1);
        unsigned u = first + (unsigned)(at < n ? at : n - 1);
        int i = om_wm_table_add_character(t, ch->name, s, ch->kind, ch->command,
                                          t->unit[u].centre);
        if (i < 0)
            return om_yaml_fail_at(c, OM_EINVAL, 0, side_key[s], "list", "the table holds at "
                                   "most %d characters", OM_WM_TABLE_MAX_CHARACTERS);
        t->character[i].joined = (int8_t)u;
        t->character[i].follow = (int8_t)u;
        t->character[i].flying = ch->flying;
        b->options.character_points[i] = ch->points;
    }
    return OM_OK;
}

/* Deploy side s's army and check what the engine will need of it. */
static om_status deploy(const om_yaml_ctx *c, om_wm_battle_scenario *b, unsigned s)
{
    const om_wm_armylist *l = b->list[s];
    om_wm_unit values[OM_WM_TABLE_MAX_UNITS];
    om_wm_check_failure why;
    unsigned first;
    om_status st;
    if (l->n_units > OM_WM_TURN_SIDE_UNITS_MAX)
        return om_yaml_fail_at(c, OM_EINVAL, 0, side_key[s], "list", "%s has %zu units; a side "
                               "of a battle has at most %d", l->source, l->n_units,
                               OM_WM_TURN_SIDE_UNITS_MAX);
    for (size_t i = 0; i < l->n_units; i++)
        values[i] = l->units[i].unit;
    if ((st = om_wm_battle_deploy_line(&b->turn, s, values, (unsigned)l->n_units, 4, &why,
                                       &first)) != OM_OK)
        return om_yaml_fail_at(c, OM_EINVAL, 0, side_key[s], "list", "%s: %s", why.field,
                               why.reason);
    for (size_t i = 0; i < l->n_units; i++)
        b->turn.unit[first + i].side.magic = l->units[i].magic;
    name_units(b, s, first);
    return place_characters(c, b, s, first);
}

static om_status convert(const om_yaml_ctx *c, const raw_battle *r, om_wm_battle_scenario *b)
{
    static const char *const first_names[] = {"roll", "a", "b"};
    const char *lengths[8];
    const om_wm_ruleset *rs;
    size_t v;
    unsigned turns = 0;
    om_status st;

    for (size_t i = 0; i < om_wm_game_length_count && i < 8; i++)
        lengths[i] = om_wm_game_lengths[i].name;
    if ((st = read_list(c, 0, r->a.list, b)) != OM_OK ||
        (st = read_list(c, 1, r->b.list, b)) != OM_OK)
        return st;
    if (strcmp(b->list[0]->ruleset, b->list[1]->ruleset) != 0)
        return om_yaml_fail_at(c, OM_EINVAL, 0, "b", "list", "%s is a list of %s, and %s of "
                               "%s: a battle is fought under one rule set", b->list_name[1],
                               b->list[1]->ruleset, b->list_name[0], b->list[0]->ruleset);
    if (r->ruleset != NULL && strcmp(r->ruleset, b->list[0]->ruleset) != 0)
        return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "ruleset", "the lists are of %s, not %s",
                               b->list[0]->ruleset, r->ruleset);
    if ((rs = om_wm_ruleset_find(b->list[0]->ruleset)) == NULL)
        return om_yaml_fail_at(c, OM_ENOTFOUND, 0, "a", "list", "unknown rule set %s",
                               b->list[0]->ruleset);
    for (unsigned s = 0; s < 2; s++) {
        const raw_side *side = s == 0 ? &r->a : &r->b;
        if ((st = read_doctrine(c, s, side->doctrine, b)) != OM_OK)
            return st;
        b->options.doctrine[s] = &b->doctrine[s].doctrine;
    }
    if ((st = conv_choice(c, NULL, "length", r->length, lengths, om_wm_game_length_count, 0,
                          &v)) != OM_OK)
        return st;
    b->options.length = &om_wm_game_lengths[v];
    if ((st = om_yaml_conv_int(c, NULL, "turns", r->turns, OM_WM_BATTLE_TURNS_MAX, 0,
                               &turns)) != OM_OK)
        return st;
    if (b->options.length->by_d6[0] == 0 && b->options.length->last == 0 && turns == 0)
        return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, r->turns ? "turns" : "length",
                               "a fixed length needs `turns`, 1 to %u", OM_WM_BATTLE_TURNS_MAX);
    if (r->turns != NULL && !(b->options.length->by_d6[0] == 0 && b->options.length->last == 0))
        return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "turns", "`turns` goes with length: "
                               "fixed; %s decides the turns itself", b->options.length->name);
    b->options.fixed_turns = (uint8_t)turns;
    if ((st = conv_choice(c, NULL, "first", r->first, first_names, 3, 0, &v)) != OM_OK)
        return st;
    b->options.first = (int8_t)((int)v - 1);

    b->turn.rules = rs;
    om_wm_table_init(&b->turn.table, rs->id, 0, 0);
    b->turn.command.rules = rs->id;
    b->turn.command.side = 0;
    for (unsigned u = 0; u < OM_WM_TABLE_MAX_UNITS; u++)
        b->turn.command.plan[u] = (om_wm_plan){.target = -1, .by = -1};
    for (unsigned k = 0; k < OM_WM_TABLE_MAX_BRIGADES; k++)
        b->turn.command.brigade_plan[k] = (om_wm_plan){.target = -1, .by = -1};
    b->plans_b = b->turn.command;
    b->plans_b.side = 1;
    for (unsigned s = 0; s < 2; s++)
        if ((st = deploy(c, b, s)) != OM_OK)
            return st;
    return OM_OK;
}

om_status om_wm_battle_provenance_json(const om_wm_battle_scenario *b, char **out)
{
    static const char *const first_names[] = {"roll", "a", "b"};
    const om_wm_table *t = &b->turn.table;
    json_t *sides = json_array(), *root;
    for (unsigned s = 0; sides && s < 2; s++) {
        json_t *units = json_array();
        for (unsigned u = 0; units && u < t->units; u++)
            if (t->unit[u].side == s)
                json_array_append_new(units, json_pack("{s:s, s:s, s:i, s:[f, f], s:f}", "id",
                                                       b->id[u], "name", t->unit[u].name,
                                                       "points",
                                                       (int)b->turn.unit[u].side.unit.points,
                                                       "at", t->unit[u].centre.x,
                                                       t->unit[u].centre.y, "facing",
                                                       om_wm_table_facing_deg(t->unit[u].dir)));
        json_array_append_new(sides, json_pack("{s:s, s:s, s:s, s:i, s:s, s:o}", "list",
                                               b->list_name[s], "name", b->list[s]->name,
                                               "army", b->list[s]->army, "points",
                                               (int)b->list[s]->points, "doctrine",
                                               b->options.doctrine[s]->name, "units", units));
    }
    for (unsigned s = 0; sides && s < 2; s++) {
        json_object_set_new(json_array_get(sides, s), "list_text",
                            json_string(b->list_text[s]));
        if (b->doctrine_source[s] != NULL && b->doctrine_text[s] != NULL) {
            json_object_set_new(json_array_get(sides, s), "doctrine_file",
                                json_string(b->doctrine_source[s]));
            json_object_set_new(json_array_get(sides, s), "doctrine_text",
                                json_string(b->doctrine_text[s]));
        }
    }
    root = json_pack("{s:s, s:s, s:o, s:s, s:i, s:s}", "ruleset", b->turn.rules->name, "kind",
                     "battle", "sides", sides, "length", b->options.length->name, "turns",
                     (int)b->options.fixed_turns, "first",
                     first_names[b->options.first + 1]);
    *out = root != NULL ? json_dumps(root, JSON_COMPACT) : NULL;
    json_decref(root);
    if (*out == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a battle's record");
    return OM_OK;
}

void om_wm_battle_scenario_free(om_wm_battle_scenario *b)
{
    if (b == NULL)
        return;
    for (unsigned s = 0; s < 2; s++) {
        om_wm_armylist_free(b->list[s]);
        free(b->list_name[s]);
        free(b->list_text[s]);
        free(b->doctrine_source[s]);
        free(b->doctrine_text[s]);
    }
    free(b);
}

om_status om_wm_battle_scenario_load_text(const char *source, const char *text, size_t len,
                                          om_wm_scenario **out)
{
    const om_yaml_ctx c = {.source = source, .text = text, .len = len};
    raw_battle *r = NULL;
    om_wm_scenario *s = NULL;
    om_status st;

    *out = NULL;
    if ((st = om_yaml_load(&c, &battle_doc, (void **)&r)) != OM_OK)
        return st;
    if ((s = calloc(1, sizeof *s)) == NULL || (s->battle = calloc(1, sizeof *s->battle)) == NULL ||
        (s->source = strdup(source)) == NULL || (s->text = om_yaml_dup(text, len)) == NULL) {
        om_yaml_free(&battle_doc, r);
        om_wm_scenario_free(s);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", source);
    }
    st = convert(&c, r, s->battle);
    if (st == OM_OK) {
        char title[256];
        if (r->title != NULL)
            snprintf(title, sizeof title, "%s", r->title);
        else
            snprintf(title, sizeof title, "%s against %s", s->battle->list[0]->name,
                     s->battle->list[1]->name);
        s->engagement.rules = s->battle->turn.rules;
        if ((s->title = strdup(title)) == NULL)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", source);
    }
    om_yaml_free(&battle_doc, r);
    if (st != OM_OK) {
        om_wm_scenario_free(s);
        return st;
    }
    *out = s;
    return OM_OK;
}
