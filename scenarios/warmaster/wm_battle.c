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
 *     terrain_method: given               # none (default) | given | symmetrical |
 *                                         # dice-for-edges | random
 *     terrain_per: battle                 # battle (default) | run: a generated
 *                                         # terrain laid out for each battle or once
 *     terrain:                            # only with given (which it implies),
 *       - {kind: wood, points: [[60, 50], [80, 70]]}  # as kind turn writes them
 *     deployment: alternate               # lines (default) | alternate |
 *                                         # one-side-first | scouting
 *     deployment_per: battle              # battle (default; run with terrain_per:
 *                                         # run) | run: the deployment's roll made
 *                                         # for each battle or once
 *     deploy_first: roll                  # roll | a | b: who places first, with
 *                                         # alternate or one-side-first
 *     setup_seed: 7                       # the set-up's dice: a terrain and a
 *                                         # deployment per run (default 1)
 *     scenario: take-and-hold             # none (default) | take-and-hold |
 *                                         # battle-for-the-tower (objective.h)
 *     scenario_version: revolution        # revolution (default) | battlefields
 *     objectives: [[60, 60], [120, 60], [90, 30], [90, 90]]  # take-and-hold: the
 *                                         # four objectives; default: the fixed
 *                                         # policy on each battle's table
 *
 * `list` names an example list compiled into the program (the stem of a file
 * of scenarios/lists/warmaster) or a list file, relative to the scenario
 * file's directory. `doctrine` names a doctrine compiled into the program
 * (a file of scenarios/doctrines/warmaster, wm_doctrine.h) or a doctrine
 * file, relative to the scenario file's directory; `default` when omitted.
 * Each army deploys in lines of battle
 * (om_wm_battle_deploy: each line's order as the deployment method and its
 * placement policy decide, the list's order with `lines`; brigades of four
 * touching units), and each of its characters joins a unit spread across its
 * army from its left to its right as it stands (the General the middle one
 * of the sturdy units of its rearmost line, the others of the units at their places the
 * rearmost, no two on one unit), so that every part of the army is within some
 * character's command; a character is slain with the unit it joined, to which
 * it adds its bonus Attacks. The
 * terrain is laid out first (battlefield.h), here for a terrain given or
 * generated with `terrain_per: run` (from `setup_seed`). A deployment method's
 * one roll (who places first, the roll-off, the scouting roll) is by default
 * made by each battle from its own dice (deployment_per: battle): both of its
 * outcomes are deployed and checked here (deploy_both), and each battle is
 * fought on the one it drew (om_wm_battle_draw_deployment); with
 * `deployment_per: run` it is rolled once, here, from `setup_seed`. A
 * generated terrain is by default laid out afresh for each battle, from the
 * battle's own dice (om_wm_battle_resolve), on the table the armies deployed
 * on open: its pieces lie between the deployment zones, so none lands on a
 * unit, and the scouting winner chooses its side of each battle's table.
 * Everything is checked here, with the file and line: the battle's trials
 * check nothing.
 */
#include "wm_battle.h"

#include <limits.h>
#include <stdio.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "army.h"
#include "battlefield.h"
#include "doctrine.h"
#include "objective.h"
#include "plane.h"
#include "rng.h"
#include "wm_load_int.h"
#include "wm_doctrine.h"
#include "suggest.h"
#include "wm_spells.h"
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
    char *schema, *title, *ruleset, *kind, *length, *turns, *first, *zones;
    char *terrain_method, *terrain_per, *deployment, *deployment_per, *deploy_first;
    char *setup_seed, *scenario, *scenario_version;
    raw_side a, b;
    om_wm_raw_terrain *terrain;
    unsigned terrain_count;
    om_wm_raw_point **objectives;
    unsigned objectives_count;
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
    STR("zones", OPT, raw_battle, zones),
    STR("terrain_method", OPT, raw_battle, terrain_method),
    STR("terrain_per", OPT, raw_battle, terrain_per),
    CYAML_FIELD_SEQUENCE("terrain", OPT, raw_battle, terrain, &om_wm_load_terrain_entry, 0,
                         CYAML_UNLIMITED),
    STR("deployment", OPT, raw_battle, deployment),
    STR("deployment_per", OPT, raw_battle, deployment_per),
    STR("deploy_first", OPT, raw_battle, deploy_first),
    STR("setup_seed", OPT, raw_battle, setup_seed),
    STR("scenario", OPT, raw_battle, scenario),
    STR("scenario_version", OPT, raw_battle, scenario_version),
    CYAML_FIELD_SEQUENCE("objectives", OPT, raw_battle, objectives, &om_wm_load_point_entry, 0,
                         CYAML_UNLIMITED),
    CYAML_FIELD_END
};

static const cyaml_schema_value_t top_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, raw_battle, top_fields),
};

#undef STR
#undef REQ
#undef OPT

static const char *const int_keys[] = {"turns", "setup_seed", NULL};
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

/* The seed of the set-up's dice when the file gives none. */
#define SETUP_SEED 1u

/* Units of a brigade as the armies deploy (Command > Brigades: up to four). */
#define BRIGADE_UNITS 4u

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
 * several ("halberdiers_2", by their order in the list, wherever the
 * deployment put them). */
static void name_units(om_wm_battle_scenario *b, unsigned s, unsigned first)
{
    const om_wm_armylist *l = b->list[s];
    for (size_t k = 0; k < l->n_units; k++) {
        const size_t i = b->deployed.order[s][k];
        unsigned n = 0, m = 0;
        for (size_t j = 0; j < l->n_units; j++) {
            n += strcmp(l->units[j].id, l->units[i].id) == 0;
            m += j < i && strcmp(l->units[j].id, l->units[i].id) == 0;
        }
        if (n > 1)
            snprintf(b->id[first + k], sizeof b->id[0], "%s_%s_%u", side_key[s], l->units[i].id,
                     m + 1);
        else
            snprintf(b->id[first + k], sizeof b->id[0], "%s_%s", side_key[s], l->units[i].id);
    }
}

/* Units whose centres are this close across the table stand in one line. */
#define LINE_TIE_CM 1.0

/* A unit's special rule a battle plays though the engagement engine does
 * not (deploy). */
#define TRIARII "triari"

/* Units' special rules that the engagement engine records as not modelled
 * (it has no table) and that a battle plays in full, with where. A rule of
 * shooting at 15cm all round is its unit's range in the stat line and the
 * all-round vision of the turn engine (wm_turn_load.c's rule traits: sight,
 * targets, no turn to shoot); the Ancients' command penalties are the turn
 * engine's (command.c). */
static const char *const unit_rules_played[] = {
    TRIARII,                  /* double loss toward the break point (deploy) */
    "centigors",              /* 15cm, all round */
    "desert-riders",          /* 15cm, all round */
    "goblins",                /* bows at 15cm: the stat line; Squig Herds are a list choice */
    "horse-archers-cossacks", /* 15cm, all round */
    "hu-cavalry",             /* 15cm, all round */
    "light-cavalry",          /* 15cm, all round */
    "pistoliers",             /* 15cm, all round */
    "skinks",                 /* 15cm, all round */
    "wolf-riders",            /* 15cm, all round */
    "slow",                   /* -1 Command from the second order (Warmaster Ancients) */
    "unreliable",             /* -1 Command for it and its brigade (Warmaster Ancients) */
};

bool om_wm_battle_unit_rule_played(const char *id)
{
    for (size_t i = 0; i < sizeof unit_rules_played / sizeof unit_rules_played[0]; i++)
        if (strcmp(id, unit_rules_played[i]) == 0)
            return true;
    return false;
}

/* The characters' special rules a battle plays, and where. */
#define PYRRHUS "pyrrhus"
/* The fewest stands of a unit a General joins when the army has one (sturdy). */
#define STURDY_STANDS 3u

bool om_wm_battle_character_rule_played(const char *id)
{
    /* A flying mount's move (any rule whose traits fly) and Pyrrhus
     * (place_characters); anti-magic (wm_spells.c). */
    const om_wm_special *rule = om_wm_special_find(id);
    /* Mounts whose whole rule is Attacks added to the rider's (the list's
     * stat line, played as his bonus) and, for the monsters, flight and
     * terror, which the mount's upgrade carries as rules of their own
     * ("fly", played; "terror", named on its own while not modelled). */
    static const char *const mounts[] = {"chariot", "griffon", "wyvern"};
    for (size_t i = 0; i < sizeof mounts / sizeof mounts[0]; i++)
        if (strcmp(id, mounts[i]) == 0)
            return true;
    return (rule != NULL && rule->traits.flies) || strcmp(id, PYRRHUS) == 0 ||
           om_wm_spells_anti_magic_rule(id);
}

/* Whether a General is safe with unit u: a unit of three stands or more, not
 * artillery nor a machine, which a volley, a spell or one lost combat does not
 * destroy at once (a Cannon of two stands, a Helblaster of one: his death ends
 * the battle, Withdraw > General Slain). */
static bool sturdy(const om_wm_battle_scenario *b, unsigned u)
{
    const om_wm_unit *v = &b->turn.unit[u].side.unit;
    return v->troop != OM_WM_ARTILLERY && v->troop != OM_WM_MACHINE &&
           om_wm_unit_size(v) >= STURDY_STANDS;
}

/* The unit side s's General joins (units first .. first + n - 1 on the
 * table): of the rearmost line, the unit closest to the table's centre line
 * (ties: the first), a sturdy one if the line has any, so that he stands
 * behind the fighting line as players keep him, where the army has a second
 * line, with a unit that keeps him alive; in a single line, its middle unit;
 * never a unit no character may join (Gnoblars). A policy of deployment, not
 * a rule: Generals, Wizards & Heroes lets a character stand alone or join any
 * unit. */
static unsigned general_unit(const om_wm_battle_scenario *b, unsigned s, unsigned first,
                             size_t n)
{
    const om_wm_table *t = &b->turn.table;
    unsigned best = first;
    double rear = -INFINITY, best_off = INFINITY;
    bool best_sturdy = false;
    /* How far back from its own front: side A's edge is y = 0. */
    for (unsigned u = first; u < first + n; u++)
        if (!b->turn.unit[u].side.unit.traits.no_character)
            rear = fmax(rear, s == 0 ? -t->unit[u].centre.y : t->unit[u].centre.y);
    for (unsigned u = first; u < first + n; u++) {
        const double back = s == 0 ? -t->unit[u].centre.y : t->unit[u].centre.y;
        const double off = fabs(t->unit[u].centre.x - t->width_cm / 2);
        const bool safe = sturdy(b, u);
        if (b->turn.unit[u].side.unit.traits.no_character || back < rear - LINE_TIE_CM)
            continue;
        if ((safe && !best_sturdy) || (safe == best_sturdy && off < best_off)) {
            best = u;
            best_sturdy = safe;
            best_off = off;
        }
    }
    return best;
}

/* Side s's units first..first+n-1 in the order they stand from the army's
 * left to its right across all its lines (a unit further forward first where
 * two stand one behind the other), into by_place[0..n). */
static void left_to_right(const om_wm_table *t, unsigned first, size_t n, unsigned *by_place)
{
    for (size_t i = 0; i < n; i++) {
        const unsigned u = first + (unsigned)i;
        const om_wm_table_unit *x = &t->unit[u];
        /* Across the army: along its right hand (the facing turned clockwise). */
        const double key = x->centre.x * x->dir.y - x->centre.y * x->dir.x;
        size_t j = i;
        for (; j > 0; j--) {
            const om_wm_table_unit *y = &t->unit[by_place[j - 1]];
            if (y->centre.x * y->dir.y - y->centre.y * y->dir.x <= key + OM_PLANE_TIE_CM)
                break;
            by_place[j] = by_place[j - 1];
        }
        by_place[j] = u;
    }
}

/* Of the free places (not `taken`) whose units stand across the army where
 * the unit of place `at` stands (their centres within half its width of its
 * centre, across the army's facing), the one whose unit stands farthest back
 * (ties: the nearest `at`): a character at that place of the army joins its
 * second line rather than the fighting line where it has one, so that where
 * he stands does not turn on how the lines' units happen to interleave. */
static size_t rearmost_at(const om_wm_table *t, const unsigned *by_place, const bool *taken,
                          size_t n, size_t at)
{
    const om_wm_table_unit *a = &t->unit[by_place[at]];
    const double across = a->centre.x * a->dir.y - a->centre.y * a->dir.x;
    const double half = om_wm_table_unit_width(a) / 2;
    size_t best = at;
    double best_back = -(a->centre.x * a->dir.x + a->centre.y * a->dir.y);
    for (size_t j = 0; j < n; j++) {
        const om_wm_table_unit *x = &t->unit[by_place[j]];
        const double back = -(x->centre.x * x->dir.x + x->centre.y * x->dir.y);
        const size_t gap = j > at ? j - at : at - j, best_gap = best > at ? best - at : at - best;
        if (taken[j] || fabs(x->centre.x * x->dir.y - x->centre.y * x->dir.x - across) > half)
            continue;
        if (back > best_back + LINE_TIE_CM ||
            (fabs(back - best_back) <= LINE_TIE_CM && gap < best_gap)) {
            best = j;
            best_back = back;
        }
    }
    return best;
}

/* Side s's characters on the table, each joined to a unit spread across the
 * army as it stands from its left to its right (not in the list's order,
 * which left one wing of a two-line army out of every character's command,
 * Command > Orders), of the units at a character's place the rearmost
 * (rearmost_at), the General to a unit of the rearmost line
 * (general_unit), no two characters to one unit while the army has units
 * enough; their victory points (Victory
 * Points: a character's value includes its mount and items). */
static om_status place_characters(const om_yaml_ctx *c, om_wm_battle_scenario *b, unsigned s,
                                  unsigned first)
{
    const om_wm_armylist *l = b->list[s];
    om_wm_table *t = &b->turn.table;
    const size_t n = l->n_units, nc = l->n_characters;
    unsigned by_place[OM_WM_TABLE_MAX_UNITS];
    bool taken[OM_WM_TABLE_MAX_UNITS] = {false};
    size_t others = 0;
    left_to_right(t, first, n, by_place);
    /* The General's place first, so that no other character takes his unit. */
    size_t general_at = 0;
    for (size_t k = 0; k < nc; k++)
        if (l->characters[k].kind == OM_WM_GENERAL) {
            const unsigned g = general_unit(b, s, first, n);
            while (general_at + 1 < n && by_place[general_at] != g)
                general_at++;
            taken[general_at] = true;
            break;
        }
    for (size_t k = 0; k < nc; k++) {
        const om_wm_armylist_character *ch = &l->characters[k];
        size_t at = ch->kind == OM_WM_GENERAL ? general_at : (others++ + 1) * n / (nc + 1);
        /* The next free place to its right (round the army), if any. */
        for (size_t j = 0; j < n && ch->kind != OM_WM_GENERAL; j++)
            if (!taken[(at + j) % n]) {
                at = (at + j) % n;
                break;
            }
        if (ch->kind != OM_WM_GENERAL)
            at = rearmost_at(t, by_place, taken, n, at);
        taken[at] = true;
        unsigned u = by_place[at];
        /* No character joins a unit whose list says so (Gnoblars): the
         * closest unit after it that takes one, else before it. */
        for (unsigned j = u; j < first + n && b->turn.unit[u].side.unit.traits.no_character;
             j++)
            if (!b->turn.unit[j].side.unit.traits.no_character)
                u = j;
        for (unsigned j = u; j-- > first && b->turn.unit[u].side.unit.traits.no_character;)
            if (!b->turn.unit[j].side.unit.traits.no_character)
                u = j;
        int i = om_wm_table_add_character(t, ch->name, s, ch->kind, ch->command,
                                          t->unit[u].centre);
        if (i < 0)
            return om_yaml_fail_at(c, OM_EINVAL, 0, side_key[s], "list", "the table holds at "
                                   "most %d characters", OM_WM_TABLE_MAX_CHARACTERS);
        t->character[i].joined = (int8_t)u;
        t->character[i].follow = (int8_t)u;
        t->character[i].flying = ch->flying;
        /* A General's device of power, played in the Command phase
         * (regalia.h); the list allows it to a General only. */
        if (ch->kind == OM_WM_GENERAL)
            t->character[i].regalia = (uint8_t)om_wm_spells_regalia_of_item(ch->item);
        b->options.character_points[i] = ch->points;
        /* Pyrrhus as General: "add 1 to the number of units that must be
         * lost before the army will withdraw" (Warmaster Ancients, The
         * Successors > Special Rules *8; WE-26). */
        for (unsigned r = 0; r < ch->n_rules; r++)
            if (ch->kind == OM_WM_GENERAL && strcmp(ch->rules[r], PYRRHUS) == 0)
                b->options.break_extra[s]++;
        /* Its bonus Attacks (its mount's included) go to one stand of the
         * unit it joined, in every round that unit fights; of several
         * characters with one unit only the highest bonus counts (Warmaster
         * Revolution and 1.1, Generals, Wizards & Heroes > Characters in
         * Combat; Warmaster Ancients, Commanders > Commanders in Combat). */
        om_wm_side *joined = &b->turn.unit[u].side;
        const unsigned bonus = ch->attacks < OM_WM_MAX_BONUS ? ch->attacks : OM_WM_MAX_BONUS;
        if (bonus > joined->attack_bonus && !joined->unit.traits.no_character)
            joined->attack_bonus = (uint8_t)bonus;
        /* ...and only while he is with it: the bonus is his (turn.c). */
        t->character[i].attack_bonus = (uint8_t)bonus;
    }
    return OM_OK;
}

/* Side s's scouting points (battlefield.h: every unit and character that
 * scores commits to scouting, the placement policy's choice) and which of
 * its units are committed, into scout[]. */
static unsigned scouting(const om_wm_battle_scenario *b, unsigned s, bool *scout)
{
    const om_wm_armylist *l = b->list[s];
    const om_wm_ruleset_id rules = b->turn.rules->id;
    unsigned halves = 0;
    for (size_t i = 0; i < l->n_units; i++) {
        unsigned h = om_wm_scouting_unit_halves(rules, l->units[i].id, &l->units[i].unit);
        scout[i] = h > 0;
        halves += h;
    }
    for (size_t k = 0; k < l->n_characters; k++)
        halves += om_wm_scouting_character_halves(rules, l->characters[k].kind,
                                                  l->characters[k].command,
                                                  l->characters[k].flying);
    return om_wm_scouting_points(halves);
}

/* Deploy both armies by the file's method, with the set-up's dice, and give
 * each unit its item, its id and each side its characters; `when` ends an
 * error's reason (which outcome of a roll drawn for each battle failed). */
static om_status deploy(const om_yaml_ctx *c, om_wm_battle_scenario *b, om_dice *d,
                        const char *when)
{
    bool scout[2][OM_WM_TABLE_MAX_UNITS];
    om_wm_deploy_army army[2];
    om_wm_check_failure why;
    om_status st;
    om_wm_unit (*values)[OM_WM_TABLE_MAX_UNITS] = malloc(2 * sizeof *values);
    if (values == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", c->source);
    for (unsigned s = 0; s < 2; s++) {
        const om_wm_armylist *l = b->list[s];
        if (l->n_units > OM_WM_TURN_SIDE_UNITS_MAX) {
            free(values);
            return om_yaml_fail_at(c, OM_EINVAL, 0, side_key[s], "list", "%s has %zu units; a "
                                   "side of a battle has at most %d", l->source, l->n_units,
                                   OM_WM_TURN_SIDE_UNITS_MAX);
        }
        for (size_t i = 0; i < l->n_units; i++)
            values[s][i] = l->units[i].unit;
        b->deploy.scouting[s] = scouting(b, s, scout[s]);
        army[s] = (om_wm_deploy_army){.values = values[s], .n = (unsigned)l->n_units,
                                      .scout = scout[s]};
    }
    st = om_wm_battle_deploy(&b->turn, army, &b->deploy, d, &b->deployed, &why);
    free(values);
    if (st == OM_ENOMEM)
        return st;
    if (st != OM_OK)
        return om_yaml_fail_at(c, OM_EINVAL, 0, why.field[0] == 'b' ? "b" : "a", "list",
                               "%s: %s%s", why.field, why.reason, when);
    for (unsigned s = 0; s < 2; s++) {
        const unsigned first = b->deployed.first[s];
        for (size_t k = 0; k < b->list[s]->n_units; k++) {
            b->turn.unit[first + k].side.magic =
                b->list[s]->units[b->deployed.order[s][k]].magic;
            /* Triarii: "should a unit of Triarii be destroyed, it counts as
             * two units for the purposes of working out when the army
             * withdraws" (Warmaster Ancients, Romans > Special Rules; WE-27). */
            b->options.double_loss[first + k] =
                om_wm_unit_unmodelled_has(&b->turn.unit[first + k].side.unit, TRIARII);
        }
        unsigned characters = b->turn.table.characters, index[OM_WM_TABLE_MAX_UNITS];
        name_units(b, s, first);
        if ((st = place_characters(c, b, s, first)) != OM_OK)
            return st;
        /* The army's spells and who casts them (wm_spells.h), by where each
         * unit of the list stands on the table. */
        for (size_t k = 0; k < b->list[s]->n_units; k++)
            index[b->deployed.order[s][k]] = first + (unsigned)k;
        if ((st = om_wm_spells_setup(b->list[s], s, index, characters, &b->turn)) != OM_OK)
            return st;
    }
    return OM_OK;
}

/* Take and Hold's objectives as the file gives them (`objectives`: four
 * points, each on the table and in no dense or impassable terrain of the
 * table as laid out), into the battle's scenario; none given: each battle
 * places them by the fixed policy (om_wm_objectives_place). */
static om_status load_objectives(const om_yaml_ctx *c, const raw_battle *r,
                                 om_wm_battle_scenario *b)
{
    om_wm_scenario_setup *sc = &b->options.scenario;
    om_status st;
    if (r->objectives == NULL)
        return OM_OK;
    if (sc->kind != OM_WM_SCENARIO_TAKE_AND_HOLD)
        return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "objectives", "objectives go with "
                               "scenario: take-and-hold");
    if (r->objectives_count != OM_WM_OBJECTIVES)
        return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "objectives", "Take and Hold has %u "
                               "objectives (got %u)", OM_WM_OBJECTIVES, r->objectives_count);
    for (unsigned k = 0; k < OM_WM_OBJECTIVES; k++) {
        if ((st = om_wm_load_point(c, NULL, "objectives", *r->objectives[k],
                                   &sc->objective[k])) != OM_OK)
            return st;
        if (!om_wm_objective_clear(&b->turn.table, sc->objective[k], 0))
            return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "objectives", "objective %u at [%g, "
                                   "%g]: an objective stands on the table (%.0f x %.0fcm), in "
                                   "no dense or impassable terrain", k + 1, sc->objective[k].x,
                                   sc->objective[k].y, b->turn.table.width_cm,
                                   b->turn.table.depth_cm);
    }
    sc->objectives_given = true;
    return OM_OK;
}

/* The battlefield: the terrain given or generated (from the set-up's dice),
 * checked: on the table, no piece over another, each convex. */
static om_status lay_terrain(const om_yaml_ctx *c, const raw_battle *r,
                             om_wm_battle_scenario *b, om_dice *d)
{
    om_wm_table *t = &b->turn.table;
    om_wm_check_failure why;
    om_status st;
    if (b->terrain == OM_WM_TERRAIN_GIVEN) {
        if (r->terrain_count > OM_WM_TABLE_MAX_TERRAIN)
            return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "terrain", "at most %d terrain pieces "
                                   "(got %u)", OM_WM_TABLE_MAX_TERRAIN, r->terrain_count);
        for (unsigned k = 0; k < r->terrain_count; k++)
            if ((st = om_wm_load_terrain(c, "terrain", k, &r->terrain[k], t)) != OM_OK)
                return st;
    }
    if (b->options.scenario.kind == OM_WM_SCENARIO_TOWER) {
        /* The tower, a building in the middle of the table, before any
         * generated piece: those keep clear of it. */
        const om_wm_vec mid = {t->width_cm / 2, t->depth_cm / 2}, half = {OM_WM_TOWER_CM / 2,
                                                                           OM_WM_TOWER_CM / 2};
        int k = om_wm_table_add_rect_terrain(t, OM_WM_TERRAIN_BUILDING, om_plane_sub(mid, half),
                                             om_plane_add(mid, half));
        if (k < 0)
            return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "terrain", "no room for the tower: "
                                   "at most %d terrain pieces", OM_WM_TABLE_MAX_TERRAIN - 1);
        b->options.scenario.tower = (int8_t)k;
    }
    if (b->terrain != OM_WM_TERRAIN_GIVEN && !b->terrain_each_battle)
        (void)om_wm_battlefield_generate(t, b->terrain,
                                         om_wm_deploy_zone_cm(t, b->turn.rules->id), d);
    memset(&why, 0, sizeof why);
    if (om_wm_table_check(t, b->turn.rules->id, &why) != OM_OK ||
        om_wm_battlefield_check_terrain(t, &why) != OM_OK) {
        om_error_clear();
        return om_yaml_fail_at(c, OM_EINVAL, 0, why.field, NULL, "%s%s", why.reason,
                               b->options.scenario.kind == OM_WM_SCENARIO_TOWER
                                   ? " (the tower stands in the middle of the table)" : "");
    }
    return load_objectives(c, r, b);
}

/* Each battle or each run: the choices of terrain_per and deployment_per. */
static const char *const per_names[] = {"battle", "run"};

/* The deployment zones (zones): side A along the near edge (y = 0, south)
 * as the set-up places it, or along the far one. */
static const char *const zones_names[] = {"a-south", "a-north"};

/* What a deployment decided, into the battle's options (the side taking the
 * first turn where the method gives it, the side choosing its edge of each
 * battle's terrain), and the table checked: a unit whose place in its line
 * falls in terrain closed to it is refused, `when` ending the reason. */
static om_status settle(const om_yaml_ctx *c, const raw_battle *r, om_wm_battle_scenario *b,
                        const char *when)
{
    const om_wm_ruleset_id rules = b->turn.rules->id;
    om_wm_check_failure why;
    if (b->deployed.first_turn >= 0)
        b->options.first = b->deployed.first_turn;
    if (b->terrain_each_battle) {
        b->options.terrain_each_battle = b->terrain;
        b->options.side_chooser = b->deploy.method == OM_WM_DEPLOY_SCOUTING
                                      ? (int8_t)b->deployed.scouting_winner : -1;
    } else {
        b->options.terrain_each_battle = OM_WM_TERRAIN_NONE;
        b->options.side_chooser = -1;
    }
    memset(&why, 0, sizeof why);
    if (om_wm_table_check(&b->turn.table, rules, &why) != OM_OK) {
        unsigned u = 0;
        om_error_clear();
        return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, r->terrain != NULL ? "terrain" :
                               "deployment", "the armies deploy in lines of battle across "
                               "their zones (%.0fcm deep) and cannot stand so: %s%s%s%s",
                               om_wm_deploy_zone_cm(&b->turn.table, rules),
                               sscanf(why.field, "units[%u]", &u) == 1 &&
                                       u < b->turn.table.units ? b->id[u] : why.field,
                               ": ", why.reason, when);
    }
    return OM_OK;
}

/* The words of an error's end naming the outcome of the deployment's roll
 * favouring side s. */
static const char *outcome_words(om_wm_deployment method, unsigned s)
{
    static const char *const words[OM_WM_DEPLOY_COUNT][2] = {
        [OM_WM_DEPLOY_ALTERNATE] = {" (deployed as when side A places first)",
                                    " (deployed as when side B places first)"},
        [OM_WM_DEPLOY_ONE_SIDE_FIRST] = {" (deployed as when side A deploys first)",
                                         " (deployed as when side B deploys first)"},
        [OM_WM_DEPLOY_SCOUTING] = {" (deployed as when side A wins the scouting roll)",
                                   " (deployed as when side B wins the scouting roll)"},
    };
    return words[method][s & 1u] != NULL ? words[method][s & 1u] : "";
}

/* A deployment drawn for each battle (deployment_per: battle) by a method
 * that rolls: both outcomes of its roll deployed here, before any battle, side
 * B's into b->drawn, side A's into the scenario's own table, each settled and
 * checked: a deployment a battle could draw that cannot stand (an army too
 * big for its zone, a unit on terrain closed to it) refuses the file. Each
 * battle then rolls and is fought on the outcome it drew
 * (om_wm_battle_draw_deployment). */
static om_status deploy_both(const om_yaml_ctx *c, const raw_battle *r, om_wm_battle_scenario *b,
                             om_dice *d)
{
    const om_wm_battle_options bare_options = b->options;
    om_wm_turn *bare = malloc(sizeof *bare);
    unsigned where[2][OM_WM_TABLE_MAX_UNITS];
    om_status st;
    if (bare == NULL || (b->drawn = calloc(1, sizeof *b->drawn)) == NULL) {
        free(bare);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", c->source);
    }
    *bare = b->turn;
    /* Side B's outcome first, then side A's, whose ids the scenario keeps. */
    b->deploy.outcome = OM_WM_DEPLOY_OUTCOME(1);
    if ((st = deploy(c, b, d, outcome_words(b->deploy.method, 1))) != OM_OK ||
        (st = settle(c, r, b, outcome_words(b->deploy.method, 1))) != OM_OK) {
        free(bare);
        return st;
    }
    b->drawn->turn = b->turn;
    b->drawn->options = b->options;
    b->drawn->deployed = b->deployed;
    b->turn = *bare;
    b->options = bare_options;
    free(bare);
    b->deploy.outcome = OM_WM_DEPLOY_OUTCOME(0);
    if ((st = deploy(c, b, d, outcome_words(b->deploy.method, 0))) != OM_OK ||
        (st = settle(c, r, b, outcome_words(b->deploy.method, 0))) != OM_OK)
        return st;
    /* The plan as the file gives it: rolled by each battle. */
    b->deploy.outcome = 0;
    /* Unit k of side s's list stands at where[s][k] in side A's outcome. */
    for (unsigned s = 0; s < 2; s++)
        for (size_t k = 0; k < b->list[s]->n_units; k++)
            where[s][b->deployed.order[s][k]] = b->deployed.first[s] + (unsigned)k;
    for (unsigned s = 0; s < 2; s++)
        for (size_t k = 0; k < b->list[s]->n_units; k++)
            b->drawn->canon[b->drawn->deployed.first[s] + k] =
                (uint8_t)where[s][b->drawn->deployed.order[s][k]];
    return OM_OK;
}

/* The keys scenario and scenario_version into the battle's options: a
 * scenario of the sources not modelled is refused by name. */
static om_status conv_scenario(const om_yaml_ctx *c, const raw_battle *r,
                               om_wm_battle_scenario *b)
{
    size_t v;
    om_status st;
    for (size_t i = 0; r->scenario != NULL && om_wm_scenario_unmodelled[i] != NULL; i++)
        if (strcmp(r->scenario, om_wm_scenario_unmodelled[i]) == 0)
            return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "scenario", "the scenario %s is not "
                                   "modelled yet; modelled: take-and-hold, "
                                   "battle-for-the-tower", r->scenario);
    if ((st = conv_choice(c, NULL, "scenario", r->scenario, om_wm_scenario_names,
                          OM_WM_SCENARIO_COUNT, OM_WM_SCENARIO_NONE, &v)) != OM_OK)
        return st;
    b->options.scenario = (om_wm_scenario_setup){.kind = (om_wm_scenario_kind)v, .tower = -1};
    if ((st = conv_choice(c, NULL, "scenario_version", r->scenario_version,
                          om_wm_scenario_version_names, OM_WM_SCENARIO_VERSION_COUNT,
                          OM_WM_SCENARIO_REVOLUTION, &v)) != OM_OK)
        return st;
    if (r->scenario_version != NULL && b->options.scenario.kind == OM_WM_SCENARIO_NONE)
        return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "scenario_version", "scenario_version "
                               "goes with a scenario (take-and-hold or battle-for-the-tower)");
    b->options.scenario.version = (om_wm_scenario_version)v;
    return OM_OK;
}

static om_status convert(const om_yaml_ctx *c, const raw_battle *r, om_wm_battle_scenario *b)
{
    static const char *const first_names[] = {"roll", "a", "b"};
    const char *lengths[8];
    const om_wm_ruleset *rs;
    om_dice dice = {.plain = NULL};
    size_t v;
    unsigned turns = 0, seed = 0;
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
    b->first_given = r->first != NULL;
    if ((st = conv_choice(c, NULL, "zones", r->zones, zones_names, 2, 0, &v)) != OM_OK)
        return st;
    b->zones_swapped = v == 1;
    b->options.zones_swapped = b->zones_swapped;
    if ((st = conv_choice(c, NULL, "terrain_method", r->terrain_method, om_wm_terrain_method_names,
                          OM_WM_TERRAIN_METHOD_COUNT,
                          r->terrain != NULL ? OM_WM_TERRAIN_GIVEN : OM_WM_TERRAIN_NONE,
                          &v)) != OM_OK)
        return st;
    b->terrain = (om_wm_terrain_method)v;
    if (r->terrain != NULL && b->terrain != OM_WM_TERRAIN_GIVEN)
        return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "terrain", "terrain pieces go with "
                               "terrain_method: given; %s lays out its own",
                               om_wm_terrain_methods[b->terrain].name);
    if (r->terrain == NULL && b->terrain == OM_WM_TERRAIN_GIVEN)
        return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "terrain_method", "terrain_method: given "
                               "needs the pieces, as `terrain:`");
    if ((st = conv_choice(c, NULL, "terrain_per", r->terrain_per, per_names, 2, 0, &v)) !=
        OM_OK)
        return st;
    if (r->terrain_per != NULL && (b->terrain == OM_WM_TERRAIN_NONE ||
                                   b->terrain == OM_WM_TERRAIN_GIVEN))
        return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "terrain_per", "terrain_per goes with a "
                               "generated terrain_method (dice-for-edges, symmetrical or "
                               "random); %s terrain is the same in every battle",
                               om_wm_terrain_methods[b->terrain].name);
    b->terrain_each_battle = v == 0 && b->terrain != OM_WM_TERRAIN_NONE &&
                             b->terrain != OM_WM_TERRAIN_GIVEN;
    if ((st = conv_choice(c, NULL, "deployment", r->deployment, om_wm_deployment_names,
                          OM_WM_DEPLOY_COUNT, OM_WM_DEPLOY_LINES, &v)) != OM_OK)
        return st;
    b->deploy = (om_wm_deploy_plan){.method = (om_wm_deployment)v, .brigade = BRIGADE_UNITS};
    if ((st = conv_choice(c, NULL, "deploy_first", r->deploy_first, first_names, 3, 0,
                          &v)) != OM_OK)
        return st;
    b->deploy.first = (int8_t)((int)v - 1);
    if (r->deploy_first != NULL && b->deploy.method != OM_WM_DEPLOY_ALTERNATE &&
        b->deploy.method != OM_WM_DEPLOY_ONE_SIDE_FIRST)
        return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "deploy_first", "deploy_first goes with "
                               "deployment: alternate or one-side-first");
    if (b->deploy.method == OM_WM_DEPLOY_SCOUTING && rs->id == OM_WM_RULES_WMA)
        return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "deployment", "Warmaster Ancients has no "
                               "scouting; deploy by lines, alternate or one-side-first");
    if (b->first_given && (b->deploy.method == OM_WM_DEPLOY_ONE_SIDE_FIRST ||
                           (b->deploy.method == OM_WM_DEPLOY_SCOUTING &&
                            rs->id == OM_WM_RULES_WM11)))
        return om_yaml_fail_at(c, OM_EINVAL, 0, NULL, "first", "deployment: %s decides who "
                               "takes the first turn%s; leave `first` out",
                               om_wm_deployment_names[b->deploy.method],
                               b->deploy.method == OM_WM_DEPLOY_SCOUTING
                                   ? " (Battlefields: the scouting winner moves second)"
                                   : " (the side that deployed first)");
    if ((st = om_yaml_conv_int(c, NULL, "setup_seed", r->setup_seed, UINT_MAX, SETUP_SEED,
                               &seed)) != OM_OK)
        return st;
    b->setup_seed = seed;
    if ((st = conv_scenario(c, r, b)) != OM_OK)
        return st;

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
    om_rng_seed_block(&dice.rng, b->setup_seed, 0);
    if ((st = lay_terrain(c, r, b, &dice)) != OM_OK)
        return st;
    /* Swapped zones: the terrain of the whole run (given, or laid out once)
     * seen from the other edges, before the armies deploy; a terrain laid out
     * for each battle is turned by the battle (om_wm_battle_options). */
    if (b->zones_swapped)
        om_wm_battlefield_turn_round(&b->turn.table, 0);
    if ((st = conv_choice(c, NULL, "deployment_per", r->deployment_per, per_names, 2,
                          b->terrain != OM_WM_TERRAIN_NONE && b->terrain != OM_WM_TERRAIN_GIVEN &&
                                  !b->terrain_each_battle ? 1 : 0,
                          &v)) != OM_OK)
        return st;
    b->deploy_each_battle = v == 0;
    {
        const unsigned n[2] = {(unsigned)b->list[0]->n_units, (unsigned)b->list[1]->n_units};
        if (b->deploy_each_battle && om_wm_deploy_rolls(&b->deploy, n))
            return deploy_both(c, r, b, &dice);
    }
    if ((st = deploy(c, b, &dice, "")) != OM_OK)
        return st;
    return settle(c, r, b, "");
}

/* The two deployments a battle drawing its own may be fought on: for each
 * outcome of the roll (the side it favours), what it decides (the side
 * placing first, the first turn where the method gives it, the table edge the
 * scouting winner chooses when the terrain is the same in every battle) and
 * where each unit stands, by the ids of the scenario's units. NULL when out
 * of memory. */
static json_t *deployments_json(const om_wm_battle_scenario *b)
{
    json_t *all = json_array();
    for (unsigned k = 0; all != NULL && k < OM_WM_DEPLOY_OUTCOMES; k++) {
        const om_wm_turn *turn = k == 0 ? &b->turn : &b->drawn->turn;
        const om_wm_deploy_result *r = k == 0 ? &b->deployed : &b->drawn->deployed;
        const int8_t first = k == 0 ? b->options.first : b->drawn->options.first;
        static const char *const first_names[] = {"roll", "a", "b"};
        json_t *units = json_array(), *one;
        for (unsigned u = 0; units != NULL && u < turn->table.units; u++) {
            const om_wm_table_unit *tu = &turn->table.unit[u];
            json_array_append_new(units, json_pack("{s:s, s:[f, f], s:f}", "id",
                                                   b->id[k == 0 ? u : b->drawn->canon[u]],
                                                   "at", tu->centre.x, tu->centre.y, "facing",
                                                   om_wm_table_facing_deg(tu->dir)));
        }
        one = json_pack("{s:s, s:s, s:s, s:o}", "favours", side_key[k], "placed_first",
                        side_key[r->placed_first], "first", first_names[first + 1], "units",
                        units);
        if (one != NULL && b->deploy.method == OM_WM_DEPLOY_SCOUTING)
            json_object_set_new(one, "side", json_string(b->terrain_each_battle
                                                             ? "chosen each battle"
                                                         : r->side_turned ? "turned"
                                                                          : "kept"));
        json_array_append_new(all, one);
    }
    return all;
}

/* What the result file records of the battlefield: the set-up's seed, the
 * terrain method and every piece, the deployment method and what its rolls
 * decided. NULL when out of memory. */
static json_t *battlefield_json(const om_wm_battle_scenario *b)
{
    const om_wm_table *t = &b->turn.table;
    const om_wm_deploy_result *r = &b->deployed;
    json_t *pieces = json_array(), *out;
    for (unsigned k = 0; pieces && k < t->terrain_pieces; k++) {
        json_t *pts = json_array();
        for (unsigned i = 0; pts && i < t->terrain[k].vertices; i++)
            json_array_append_new(pts, json_pack("[f, f]", t->terrain[k].v[i].x,
                                                 t->terrain[k].v[i].y));
        json_array_append_new(pieces, json_pack("{s:s, s:o}", "kind",
                                                om_wm_terrain_names[t->terrain[k].kind],
                                                "points", pts));
    }
    /* With terrain_per: battle, `terrain` holds no generated piece: each
     * battle lays out its own from its dice (replay draws it). */
    out = json_pack("{s:[f, f], s:f, s:I, s:s, s:s, s:o, s:s, s:s}", "table", t->width_cm,
                    t->depth_cm, "zone_cm", om_wm_deploy_zone_cm(t, b->turn.rules->id),
                    "setup_seed", (json_int_t)b->setup_seed, "terrain_method",
                    om_wm_terrain_methods[b->terrain].name, "terrain_per",
                    b->terrain_each_battle ? "battle" : "run", "terrain", pieces, "deployment",
                    om_wm_deployment_names[b->deploy.method], "placed_first",
                    side_key[r->placed_first]);
    if (out != NULL)
        json_object_set_new(out, "deployment_per",
                            json_string(b->deploy_each_battle ? "battle" : "run"));
    if (out != NULL && b->drawn != NULL) {
        /* Each battle rolls: the deployment of each outcome (the sides' units
         * at the top level stand as in the first), the result's replay
         * telling which a battle drew. */
        json_object_set_new(out, "placed_first", json_string("drawn each battle"));
        json_object_set_new(out, "deployments", deployments_json(b));
    } else if (out != NULL && b->deploy.method == OM_WM_DEPLOY_SCOUTING)
        json_object_set_new(out, "scouting",
                            json_pack("{s:[i, i], s:[i, i], s:s, s:s}", "points",
                                      (int)b->deploy.scouting[0], (int)b->deploy.scouting[1],
                                      "totals", (int)r->scouting_total[0],
                                      (int)r->scouting_total[1], "winner",
                                      side_key[r->scouting_winner], "side",
                                      b->terrain_each_battle ? "chosen each battle"
                                      : r->side_turned       ? "turned"
                                                             : "kept"));
    return out;
}

/* What the result file records of a scenario: its name and version, and its
 * objectives (given, or placed by each battle) or its tower. NULL when out of
 * memory. */
static json_t *scenario_json(const om_wm_battle_scenario *b)
{
    const om_wm_scenario_setup *sc = &b->options.scenario;
    json_t *out = json_pack("{s:s, s:s}", "name", om_wm_scenario_names[sc->kind], "version",
                            om_wm_scenario_version_names[sc->version]);
    if (out != NULL && sc->kind == OM_WM_SCENARIO_TAKE_AND_HOLD && !sc->objectives_given)
        json_object_set_new(out, "objectives", json_string("placed on each battle's table"));
    else if (out != NULL && sc->kind == OM_WM_SCENARIO_TAKE_AND_HOLD) {
        json_t *pts = json_array();
        for (unsigned k = 0; pts != NULL && k < OM_WM_OBJECTIVES; k++)
            json_array_append_new(pts, json_pack("[f, f]", sc->objective[k].x,
                                                 sc->objective[k].y));
        json_object_set_new(out, "objectives", pts);
    } else if (out != NULL && sc->kind == OM_WM_SCENARIO_TOWER && sc->tower >= 0)
        json_object_set_new(out, "tower", json_integer(sc->tower));
    return out;
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
    /* Each side's spells and how the engine casts them ("not-modelled": never). */
    for (unsigned s = 0; sides && s < 2; s++) {
        json_t *spells = json_array();
        for (unsigned k = 0; spells && k < b->turn.magic.n[s]; k++) {
            const om_wm_spell *sp = &b->turn.magic.spell[s][k];
            json_array_append_new(spells, json_pack("{s:s, s:i, s:i, s:s}", "id", sp->id, "cast",
                                                    (int)sp->cast, "range_cm", (int)sp->range_cm,
                                                    "engine",
                                                    om_wm_spell_effect_names[sp->effect]));
        }
        json_object_set_new(json_array_get(sides, s), "spells", spells);
    }
    root = json_pack("{s:s, s:s, s:o, s:s, s:i, s:s}", "ruleset", b->turn.rules->name, "kind",
                     "battle", "sides", sides, "length", b->options.length->name, "turns",
                     (int)b->options.fixed_turns, "first",
                     first_names[b->options.first + 1]);
    if (root != NULL && b->options.scenario.kind != OM_WM_SCENARIO_NONE &&
        json_object_set_new(root, "scenario", scenario_json(b)) != 0) {
        json_decref(root);
        root = NULL;
    }
    if (root != NULL && json_object_set_new(root, "zones",
                                            json_string(zones_names[b->zones_swapped])) != 0) {
        json_decref(root);
        root = NULL;
    }
    if (root != NULL && json_object_set_new(root, "battlefield", battlefield_json(b)) != 0) {
        json_decref(root);
        root = NULL;
    }
    *out = root != NULL ? json_dumps(root, JSON_COMPACT) : NULL;
    json_decref(root);
    if (*out == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a battle's record");
    return OM_OK;
}

om_status om_wm_battle_scenario_prepare_alloc(const om_wm_battle_scenario *b,
                                              om_wm_check_failure *why,
                                              om_wm_battle_prepared **out)
{
    om_wm_battle_prepared *other = NULL;
    om_status st = om_wm_battle_prepare_alloc(&b->turn, &b->plans_b, &b->options, why, out);
    if (st != OM_OK || b->drawn == NULL)
        return st;
    /* Each battle draws its deployment: the other outcome of its roll,
     * prepared beforehand, as the loader deployed it. */
    const unsigned n[2] = {(unsigned)b->list[0]->n_units, (unsigned)b->list[1]->n_units};
    if ((st = om_wm_battle_prepare_alloc(&b->drawn->turn, &b->plans_b, &b->drawn->options, why,
                                         &other)) == OM_OK)
        st = om_wm_battle_draw_deployment(*out, &b->deploy, n, other, b->drawn->canon, why);
    if (st != OM_OK) {
        om_wm_battle_prepared_free(*out); /* `other` with it, when it took it */
        *out = NULL;
    }
    return st;
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
    free(b->drawn);
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
