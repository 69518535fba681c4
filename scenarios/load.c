/*
 * load.c: load and validate scenario files (scenario.h). This is the only file
 * that uses libcyaml and libyaml (STYLE rule 14; ENGINEERING section 7).
 *
 * Loading runs in four steps, and the first failure wins:
 *   1. a libyaml event walk checks the syntax, that there is exactly one
 *      document, that it is a mapping and that it declares the right schema;
 *   2. libcyaml maps the document onto a "raw" struct of strings with a strict
 *      schema (unknown, missing and duplicate keys, a list or a mapping where
 *      a single value belongs); its log messages are captured, not printed;
 *   3. the strings are converted by hand (libcyaml 1.3.1 reads "2.7" as 2,
 *      "010" as 8 and any word as a true boolean, which is too lax), range
 *      checked and defaulted into an om_wm_engagement;
 *   4. om_wm_engagement_check validates the rules-level consistency.
 * Every error becomes one message "FILE:LINE: field 'PATH': REASON"; LINE is
 * found by walking the document again along PATH (the walker of step 1).
 *
 * SCENARIO FILE FORMAT (schema "oddsmaster-scenario/1"; see default.yaml)
 *
 *   schema: oddsmaster-scenario/1   required, exactly this text
 *   title: Knights charge Spearmen  optional, not empty; default
 *                                   "<name A> vs <name B>"
 *   ruleset: warmaster-revolution   required: warmaster-1.1,
 *                                   warmaster-revolution or warmaster-ancients
 *   kind: combat                    optional: combat (default) or volley
 *   a:                              required: side A (the attacker or shooter)
 *     unit:                         required: the unit's values
 *       name: Knights               required, 1..63 bytes
 *       type: cavalry               required: infantry, cavalry, chariot,
 *                                   monster, artillery or machine
 *       stands: 3                   required
 *       attacks: 3                  required: close combat Attacks per stand
 *       hits: 3                     required
 *       armour: 4+                  required: 4+ or 4; none, 0 or "-" for
 *                                   no save ("-" must be quoted in YAML);
 *                                   the engine accepts saves 3+ to 6+
 *       shots: 0                    optional: shooting Attacks per stand (0)
 *       range: 30                   optional, cm: 30 if shots > 0, else 0
 *       pace: 30                    optional, cm: the troop type's pace
 *       points: 110                 optional: the unit's points value (0)
 *       rules: [terror]             optional list: terror, shots-no-save
 *     charging: true                optional: charged this turn (false)
 *     position: open                optional: open, defended or fortified
 *     fighting: 3                   optional: stands in contact (all stands)
 *     flanked: 0                    optional: fighting stands hit in flank (0)
 *     supports: 0                   optional: supporting stands (0)
 *     support_units: 0              optional: units giving those supports (0)
 *     attack_bonus: 0               optional: a character's bonus Attacks (0)
 *     shooting: 3                   optional: stands that shoot (all stands)
 *     confused: false               optional (false)
 *     stand_and_shoot: false        optional (false)
 *   b:                              required: side B, same keys as a
 *
 * Integers are decimal ("010" is ten), optionally signed; booleans are true
 * or false (also yes/no and on/off; lower case, Capitalised or UPPER). Keys
 * and names are case-sensitive; tabs are not allowed (YAML forbids them for
 * indentation); a file holds one YAML document. The value limits (1..12
 * stands, ...) are the engine's (engine/warmaster/check.c).
 * Errors and their status codes:
 *   OM_EIO        the file cannot be read ("FILE: cannot read: REASON");
 *   OM_EPARSE     invalid YAML, an empty file, a document that is not a
 *                 mapping, a wrong or missing schema, an unknown, missing or
 *                 duplicate key, a value of the wrong type ("three" for an
 *                 integer, a list for a name), an unknown troop type,
 *                 position, kind or special rule name;
 *   OM_EINVAL     an impossible value: negative, too large for its field, an
 *                 empty or over-long name, or rejected by the engine's check
 *                 (0 stands, armour 1+, fighting > stands, supports on
 *                 cavalry, ...);
 *   OM_ENOTFOUND  an unknown rule set;
 *   OM_ENOMEM     out of memory.
 * LINE is that of the offending key (of the list entry, for a rule name); for
 * a key that is missing, or was left out and defaulted, it is the line of the
 * key holding its mapping ("unit:", "a:"), or of the first top-level key. For
 * invalid YAML it is where libyaml stopped, and PATH is the innermost key
 * being read there. A PATH of "(document)" means the file as a whole.
 */
#include "scenario.h"

#include <cyaml/cyaml.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* Generated at build time from default.yaml by embed_text.py (meson.build). */
extern const char om_scenario_default_yaml[];

/* Name for text loaded without a source name. */
#define SOURCE_UNNAMED "<text>"

/* Path shown for problems of the document as a whole. */
#define PATH_DOCUMENT "(document)"

/* Longest dotted path or reason kept while building a message; the schema's
 * paths are at most "a.unit.stand_and_shoot" long, user keys are truncated. */
#define PATH_MAX_LEN 160
#define REASON_MAX_LEN 512

/* Longest unit name, from om_wm_unit.name (64 bytes with the NUL). */
#define NAME_MAX_LEN (sizeof(((om_wm_unit *)0)->name) - 1)

/* Largest edit distance at which an unknown key earns "did you mean". Two
 * catches a dropped, doubled or swapped letter ("atacks", "stnads"). */
#define SUGGEST_DISTANCE_MAX 2

/* ---------------------------------------------------------------------------
 * The raw document: every scalar is kept as a string and converted by hand.
 * An optional key that is absent leaves its pointer NULL, which is how the
 * defaults are applied.
 */

typedef struct raw_unit {
    char *name;          /* unit.name (required) */
    char *type;          /* unit.type (required) */
    char *stands;        /* unit.stands (required) */
    char *attacks;       /* unit.attacks (required) */
    char *hits;          /* unit.hits (required) */
    char *armour;        /* unit.armour (required) */
    char *shots;         /* unit.shots, NULL if absent */
    char *range;         /* unit.range, NULL if absent */
    char *pace;          /* unit.pace, NULL if absent */
    char *points;        /* unit.points, NULL if absent */
    char **rules;        /* unit.rules entries, NULL if absent */
    unsigned rules_count; /* number of entries in rules */
} raw_unit;

typedef struct raw_side {
    raw_unit unit;         /* side.unit (required) */
    char *charging;        /* side.charging, NULL if absent */
    char *position;        /* side.position, NULL if absent */
    char *fighting;        /* side.fighting, NULL if absent */
    char *flanked;         /* side.flanked, NULL if absent */
    char *supports;        /* side.supports, NULL if absent */
    char *support_units;   /* side.support_units, NULL if absent */
    char *attack_bonus;    /* side.attack_bonus, NULL if absent */
    char *shooting;        /* side.shooting, NULL if absent */
    char *confused;        /* side.confused, NULL if absent */
    char *stand_and_shoot; /* side.stand_and_shoot, NULL if absent */
} raw_side;

typedef struct raw_scenario {
    char *schema;   /* schema (required) */
    char *title;    /* title, NULL if absent */
    char *ruleset;  /* ruleset (required) */
    char *kind;     /* kind, NULL if absent */
    raw_side a;     /* side A (required) */
    raw_side b;     /* side B (required) */
} raw_scenario;

#define REQ CYAML_FLAG_POINTER
#define OPT (CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL)

static const cyaml_schema_value_t rule_entry_schema = {
    CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

static const cyaml_schema_field_t unit_fields[] = {
    CYAML_FIELD_STRING_PTR("name", REQ, raw_unit, name, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("type", REQ, raw_unit, type, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("stands", REQ, raw_unit, stands, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("attacks", REQ, raw_unit, attacks, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("hits", REQ, raw_unit, hits, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("armour", REQ, raw_unit, armour, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("shots", OPT, raw_unit, shots, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("range", OPT, raw_unit, range, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("pace", OPT, raw_unit, pace, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("points", OPT, raw_unit, points, 0, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("rules", OPT, raw_unit, rules, &rule_entry_schema,
                         0, CYAML_UNLIMITED),
    CYAML_FIELD_END
};

static const cyaml_schema_field_t side_fields[] = {
    CYAML_FIELD_MAPPING("unit", CYAML_FLAG_DEFAULT, raw_side, unit, unit_fields),
    CYAML_FIELD_STRING_PTR("charging", OPT, raw_side, charging, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("position", OPT, raw_side, position, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("fighting", OPT, raw_side, fighting, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("flanked", OPT, raw_side, flanked, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("supports", OPT, raw_side, supports, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("support_units", OPT, raw_side, support_units, 0,
                           CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("attack_bonus", OPT, raw_side, attack_bonus, 0,
                           CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("shooting", OPT, raw_side, shooting, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("confused", OPT, raw_side, confused, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("stand_and_shoot", OPT, raw_side, stand_and_shoot, 0,
                           CYAML_UNLIMITED),
    CYAML_FIELD_END
};

static const cyaml_schema_field_t top_fields[] = {
    CYAML_FIELD_STRING_PTR("schema", REQ, raw_scenario, schema, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("title", OPT, raw_scenario, title, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("ruleset", REQ, raw_scenario, ruleset, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("kind", OPT, raw_scenario, kind, 0, CYAML_UNLIMITED),
    CYAML_FIELD_MAPPING("a", CYAML_FLAG_DEFAULT, raw_scenario, a, side_fields),
    CYAML_FIELD_MAPPING("b", CYAML_FLAG_DEFAULT, raw_scenario, b, side_fields),
    CYAML_FIELD_END
};

static const cyaml_schema_value_t top_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, raw_scenario, top_fields),
};

#undef REQ
#undef OPT

/* Keys whose values are integers or booleans; every other scalar key holds a
 * name or a word. Used to say what a key expected when its value is wrong. */
static const char *const int_keys[] = {
    "stands", "attacks", "hits", "shots", "range", "pace", "points", "fighting",
    "flanked", "supports", "support_units", "attack_bonus", "shooting", NULL
};
static const char *const bool_keys[] = {
    "charging", "confused", "stand_and_shoot", NULL
};

/* Values of the "kind" key, indexed by om_wm_kind. */
static const char *const kind_names[] = { "combat", "volley" };
_Static_assert(sizeof kind_names / sizeof kind_names[0] == OM_WM_KIND_VOLLEY + 1,
               "one name per om_wm_kind");

/* Special rules a unit can carry (wm.h OM_WM_RULE_*). */
static const struct rule_name {
    const char *name; /* name in scenario files */
    uint32_t flag;    /* OM_WM_RULE_* flag */
} rule_names[] = {
    { "terror", OM_WM_RULE_TERROR },
    { "shots-no-save", OM_WM_RULE_SHOTS_NO_SAVE },
};

/* ---------------------------------------------------------------------------
 * The document walker: a libyaml event walk that tracks the path of keys to
 * the node being parsed. It checks the document's shape (step 1) and finds
 * the line of a dotted path for error messages.
 */

/* Deepest nesting tracked; the schema needs 4 (root, a, unit, rules). */
#define WALK_DEPTH_MAX 32
/* Key bytes kept per level; longer keys match no path component. */
#define WALK_KEY_MAX 128

typedef struct walk_frame {
    bool is_map;            /* mapping (else sequence) */
    bool want_key;          /* mapping: the next node is a key */
    bool has_key;           /* mapping: key names the value being parsed */
    char key[WALK_KEY_MAX]; /* mapping: the current key ("" if too long) */
    size_t key_line;        /* mapping: 1-based line of that key */
    long entry;             /* sequence: index of the current entry, -1 before */
} walk_frame;

typedef struct walk {
    /* Input: the path to find, split into components ("[N]" for entry N). */
    const char *comps[WALK_DEPTH_MAX];
    size_t ncomps;

    /* Output of the search: the 1-based line of the path's key, or of its
     * deepest ancestor key (the root mapping for top-level keys). */
    size_t line;
    size_t line_depth;        /* components matched at `line` */
    bool found;               /* the whole path was found */
    bool value_pending;       /* the next node is the found key's value */
    yaml_event_type_t value_type; /* event starting that value */
    char value[48];           /* the value if a scalar (truncated) */

    /* Output: facts about the document. */
    unsigned documents;       /* documents in the stream */
    yaml_event_type_t root_type; /* event starting the root node, 0 if none */
    char root_scalar[16];     /* the root node if it is a scalar (truncated) */
    size_t root_line;         /* 1-based line of the root node */
    bool schema_pending;      /* the next node is the root's schema value */
    bool has_schema;          /* the root has a "schema" key */
    bool schema_scalar;       /* ... whose value is a scalar */
    char schema[64];          /* ... namely this (truncated) */
    size_t schema_line;       /* ... at this line */

    /* Output: the first problem found, with its line and key path. */
    om_status status;
    size_t err_line;
    char err_path[PATH_MAX_LEN];
    char reason[REASON_MAX_LEN];

    walk_frame frames[WALK_DEPTH_MAX]; /* open collections, root first */
    size_t depth;                      /* number of open collections */
} walk;

/* Copy at most cap-1 bytes of src and terminate; returns false if truncated. */
static bool copy_trunc(char *dst, size_t cap, const char *src, size_t len)
{
    size_t n = len < cap ? len : cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
    return n == len;
}

/* Does the path to the node now starting at depth d (frames 0..d-1 each
 * giving one component) equal the first d components of the target? */
static bool walk_path_matches(const walk *w, size_t d)
{
    if (d > w->ncomps)
        return false;
    for (size_t i = 0; i < d; i++) {
        const walk_frame *f = &w->frames[i];
        if (f->is_map) {
            if (!f->has_key || f->key[0] == '\0' || strcmp(f->key, w->comps[i]) != 0)
                return false;
        } else {
            char idx[24];
            snprintf(idx, sizeof idx, "[%ld]", f->entry);
            if (strcmp(idx, w->comps[i]) != 0)
                return false;
        }
    }
    return true;
}

/* The key path in effect at `line`, for syntax errors. libyaml scans ahead,
 * so a key whose value has not begun yet counts only if it is on that line:
 * a bad line after "type: cavalry" is in the unit, not in "type". */
static void walk_current_path(const walk *w, size_t line, char *out, size_t cap)
{
    out[0] = '\0';
    for (size_t i = 0; i < w->depth; i++) {
        const walk_frame *f = &w->frames[i];
        if (!f->is_map || !f->has_key || f->want_key)
            continue;
        if (i + 1 == w->depth && f->key_line != line)
            continue;
        size_t used = strlen(out);
        snprintf(out + used, cap - used, "%s%s", used ? "." : "", f->key);
    }
    if (out[0] == '\0')
        snprintf(out, cap, "%s", PATH_DOCUMENT);
}

/* Record a problem; the first one wins. */
static void walk_fail(walk *w, om_status status, size_t line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void walk_fail(walk *w, om_status status, size_t line, const char *fmt, ...)
{
    va_list ap;
    if (w->status != OM_OK)
        return;
    w->status = status;
    w->err_line = line;
    walk_current_path(w, line, w->err_path, sizeof w->err_path);
    va_start(ap, fmt);
    vsnprintf(w->reason, sizeof w->reason, fmt, ap);
    va_end(ap);
}

/* A node (scalar, alias, mapping or sequence) starts at `line`. Returns true
 * if the node is a mapping key (then it is complete: keys are scalars). */
static bool walk_node_begin(walk *w, const yaml_event_t *ev, size_t line)
{
    const bool scalar = ev->type == YAML_SCALAR_EVENT;
    const char *sval = scalar ? (const char *)ev->data.scalar.value : "";
    const size_t slen = scalar ? ev->data.scalar.length : 0;
    const size_t d = w->depth;

    if (d == 0) {
        w->root_type = ev->type;
        w->root_line = line;
        copy_trunc(w->root_scalar, sizeof w->root_scalar, sval, slen);
        w->line = line;
        w->line_depth = 0;
        w->found = w->ncomps == 0;
        return false;
    }

    walk_frame *top = &w->frames[d - 1];
    if (top->is_map && top->want_key) {
        if (!scalar) {
            walk_fail(w, OM_EPARSE, line,
                      "a key must be a plain name, not a list, mapping or alias");
            return true;
        }
        if (!copy_trunc(top->key, sizeof top->key, sval, slen))
            top->key[0] = '\0';
        top->has_key = true;
        top->want_key = false;
        top->key_line = line;
        if (walk_path_matches(w, d) && d >= w->line_depth) {
            w->line = line;
            w->line_depth = d;
            if (d == w->ncomps) {
                w->found = true;
                w->value_pending = true;
            }
        }
        if (d == 1 && strcmp(top->key, "schema") == 0) {
            w->has_schema = true;
            w->schema_line = line;
            w->schema_pending = true;
        }
        return true;
    }

    /* A value: of the key just read, or an entry of a sequence. */
    if (!top->is_map) {
        top->entry++;
        if (walk_path_matches(w, d) && d >= w->line_depth) {
            w->line = line;
            w->line_depth = d;
            if (d == w->ncomps) {
                w->found = true;
                w->value_pending = true;
            }
        }
    }
    if (w->value_pending) {
        w->value_pending = false;
        w->value_type = ev->type;
        copy_trunc(w->value, sizeof w->value, sval, slen);
    }
    if (w->schema_pending) {
        w->schema_pending = false;
        w->schema_scalar = scalar;
        copy_trunc(w->schema, sizeof w->schema, sval, slen);
    }
    return false;
}

/* The node at the top of the stack (or a scalar just begun) is complete. */
static void walk_node_end(walk *w)
{
    if (w->depth > 0) {
        walk_frame *top = &w->frames[w->depth - 1];
        if (top->is_map && !top->want_key)
            top->want_key = true;
    }
}

/* 1-based line of byte `offset` of text, for reader errors (which carry an
 * offset but no mark). */
static size_t line_of_offset(const char *text, size_t len, size_t offset)
{
    size_t line = 1;
    for (size_t i = 0; i < offset && i < len; i++)
        line += text[i] == '\n';
    return line;
}

/* Turn a libyaml parser failure into the walk's problem. */
static void walk_parser_error(walk *w, const yaml_parser_t *p, const char *text,
                              size_t len)
{
    if (p->error == YAML_MEMORY_ERROR) {
        walk_fail(w, OM_ENOMEM, 1, "out of memory while parsing");
        return;
    }
    if (p->error == YAML_READER_ERROR) {
        walk_fail(w, OM_EPARSE, line_of_offset(text, len, p->problem_offset),
                  "invalid YAML: %s (byte %zu)",
                  p->problem ? p->problem : "unreadable text", p->problem_offset);
        return;
    }
    const size_t line = p->problem_mark.line + 1;
    const size_t col = p->problem_mark.column + 1;
    const size_t at = p->problem_mark.index;
    const char c = at < len ? text[at] : '\0';
    if (c == '\t') {
        walk_fail(w, OM_EPARSE, line,
                  "tab character at column %zu: YAML does not allow tabs for "
                  "indentation; indent with spaces", col);
    } else if (c == '-' && (at + 1 >= len || text[at + 1] == ' ' ||
                            text[at + 1] == '\n' || text[at + 1] == '\r')) {
        walk_fail(w, OM_EPARSE, line,
                  "invalid YAML at column %zu: %s (a lone '-' starts a list; "
                  "to write the value '-', quote it: \"-\")",
                  col, p->problem ? p->problem : "syntax error");
    } else if (at >= len && p->context) {
        /* At the end of the file: point at the construct left open. */
        walk_fail(w, OM_EPARSE, (size_t)p->context_mark.line + 1,
                  "invalid YAML: %s before the end of the file (%s at column %zu)",
                  p->problem ? p->problem : "syntax error", p->context,
                  (size_t)p->context_mark.column + 1);
    } else if (p->context) {
        walk_fail(w, OM_EPARSE, line,
                  "invalid YAML at column %zu: %s (%s at line %zu)", col,
                  p->problem ? p->problem : "syntax error", p->context,
                  (size_t)p->context_mark.line + 1);
    } else {
        walk_fail(w, OM_EPARSE, line, "invalid YAML at column %zu: %s", col,
                  p->problem ? p->problem : "syntax error");
    }
}

/*
 * Walk the whole of `text`. If `path` is not NULL, find its line: `path` is
 * dotted ("a.unit.stands"; "" is the root) and `leaf`, if not NULL, is one
 * more component taken whole (an unknown key may contain dots). Fills *w;
 * w->status is OM_OK unless the document is not valid YAML.
 */
static void walk_run(walk *w, const char *text, size_t len, const char *path,
                     const char *leaf)
{
    char buf[PATH_MAX_LEN];
    yaml_parser_t parser;
    bool done = false;

    memset(w, 0, sizeof *w);
    w->line = 1;
    if (path) {
        snprintf(buf, sizeof buf, "%s", path);
        char *save = NULL;
        for (char *c = strtok_r(buf, ".", &save); c && w->ncomps < WALK_DEPTH_MAX;
             c = strtok_r(NULL, ".", &save))
            w->comps[w->ncomps++] = c;
        if (leaf && w->ncomps < WALK_DEPTH_MAX)
            w->comps[w->ncomps++] = leaf;
    }
    if (!yaml_parser_initialize(&parser)) {
        w->status = OM_ENOMEM;
        snprintf(w->reason, sizeof w->reason, "out of memory");
        return;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    while (!done && w->status == OM_OK) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            walk_parser_error(w, &parser, text, len);
            break;
        }
        const size_t line = ev.start_mark.line + 1;
        switch (ev.type) {
        case YAML_DOCUMENT_START_EVENT:
            if (++w->documents > 1)
                walk_fail(w, OM_EPARSE, line,
                          "a scenario file holds one YAML document, but a second "
                          "one starts here ('---')");
            break;
        case YAML_SCALAR_EVENT:
        case YAML_ALIAS_EVENT:
            if (!walk_node_begin(w, &ev, line))
                walk_node_end(w);
            break;
        case YAML_MAPPING_START_EVENT:
        case YAML_SEQUENCE_START_EVENT:
            (void)walk_node_begin(w, &ev, line);
            if (w->status != OM_OK)
                break;
            if (w->depth == WALK_DEPTH_MAX) {
                walk_fail(w, OM_EPARSE, line, "nested more than %d levels deep",
                          WALK_DEPTH_MAX);
                break;
            }
            w->frames[w->depth] = (walk_frame){
                .is_map = ev.type == YAML_MAPPING_START_EVENT,
                .want_key = true,
                .entry = -1,
            };
            w->depth++;
            break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT:
            if (ALWAYS(w->depth > 0))
                w->depth--;
            walk_node_end(w);
            break;
        case YAML_STREAM_END_EVENT:
            done = true;
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
}

/* ---------------------------------------------------------------------------
 * Error messages.
 */

/* What a load is working on, for messages. */
typedef struct load_ctx {
    const char *source; /* file name for messages */
    const char *text;   /* the document */
    size_t len;         /* its length in bytes */
} load_ctx;

/* 1-based line of `path` (plus `leaf`) in the document, or of its deepest
 * ancestor present. */
static size_t locate(const load_ctx *c, const char *path, const char *leaf)
{
    walk w;
    walk_run(&w, c->text, c->len, path, leaf);
    return w.line;
}

/*
 * Raise "SOURCE:LINE: field 'PATH': REASON". PATH is `path` plus `leaf`
 * (either may be NULL or ""; both empty gives "(document)"). If line is 0 it
 * is found by walking the document along the path.
 */
static om_status fail_at(const load_ctx *c, om_status code, size_t line,
                         const char *path, const char *leaf, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

static om_status fail_at(const load_ctx *c, om_status code, size_t line,
                         const char *path, const char *leaf, const char *fmt, ...)
{
    char reason[REASON_MAX_LEN];
    char shown[PATH_MAX_LEN];
    va_list ap;
    const bool has_path = path && path[0];
    const bool has_leaf = leaf && leaf[0];

    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    if (has_path || has_leaf)
        snprintf(shown, sizeof shown, "%s%s%s", has_path ? path : "",
                 has_path && has_leaf ? "." : "", has_leaf ? leaf : "");
    else
        snprintf(shown, sizeof shown, "%s", PATH_DOCUMENT);
    if (line == 0)
        line = locate(c, has_path ? path : "", has_leaf ? leaf : NULL);
    return OM_ERROR(code, "%s:%zu: field '%s': %s", c->source, line, shown, reason);
}

/* Append ", ".join(names) to buf (used for "known: ..." lists). */
static void join_names(char *buf, size_t cap, const char *const *names, size_t n)
{
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", names[i]);
    }
}

/* Levenshtein distance between a and b, capped: returns cap + 1 for anything
 * larger (and for strings too long to be keys). */
static size_t edit_distance(const char *a, const char *b, size_t cap)
{
    enum { N = 40 };
    size_t la = strlen(a), lb = strlen(b);
    size_t prev[N + 1], cur[N + 1];
    if (la > N || lb > N || (la > lb ? la - lb : lb - la) > cap)
        return cap + 1;
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, (lb + 1) * sizeof prev[0]);
    }
    return prev[lb] <= cap ? prev[lb] : cap + 1;
}

/* Is `key` one of the keys of `fields`? */
static const cyaml_schema_field_t *field_find(const cyaml_schema_field_t *fields,
                                              const char *key)
{
    for (const cyaml_schema_field_t *f = fields; f->key; f++)
        if (strcmp(f->key, key) == 0)
            return f;
    return NULL;
}

/* Report an unknown key `key` in the mapping at `path` whose schema is
 * `fields`: say where it belongs if it is a key of another level, else
 * suggest the nearest known key, else list the known keys. */
static om_status fail_unknown_key(const load_ctx *c, const char *path,
                                  const cyaml_schema_field_t *fields, const char *key)
{
    const char *best = NULL;
    size_t best_d = SUGGEST_DISTANCE_MAX + 1;
    const char *names[16];
    size_t n = 0;
    char known[REASON_MAX_LEN / 2];

    /* A key of another level first: it is an exact match, so a better hint
     * than a near one. A side key inside a unit, a unit key directly under a
     * side, or either at the top. */
    if (fields == unit_fields && field_find(side_fields, key)) {
        const char side_name[2] = { path[0], '\0' };
        return fail_at(c, OM_EPARSE, 0, path, key,
                       "unknown key '%s' in a unit; it is a side key: move it up "
                       "one level, under '%s'", key, side_name);
    }
    if (fields == side_fields && field_find(unit_fields, key))
        return fail_at(c, OM_EPARSE, 0, path, key,
                       "unknown key '%s' in a side; it is a unit key: move it "
                       "under '%s.unit'", key, path);
    if (fields == top_fields &&
        (field_find(side_fields, key) || field_find(unit_fields, key)))
        return fail_at(c, OM_EPARSE, 0, path, key,
                       "unknown top-level key '%s'; it belongs to a side: put it "
                       "under 'a' or 'b'%s", key,
                       field_find(unit_fields, key) ? " (in 'unit')" : "");

    for (const cyaml_schema_field_t *f = fields; f->key; f++) {
        size_t d = edit_distance(key, f->key, SUGGEST_DISTANCE_MAX);
        if (d < best_d) {
            best_d = d;
            best = f->key;
        }
        if (n < sizeof names / sizeof names[0])
            names[n++] = f->key;
    }
    if (best)
        return fail_at(c, OM_EPARSE, 0, path, key, "unknown key '%s'; did you mean '%s'?",
                       key, best);
    join_names(known, sizeof known, names, n);
    return fail_at(c, OM_EPARSE, 0, path, key, "unknown key '%s'; known keys: %s",
                   key, known);
}

/* ---------------------------------------------------------------------------
 * libcyaml log capture. libcyaml logs an error line ("Load: Unexpected key:
 * atacks"), then "Load: Backtrace:" and one line per open node, innermost
 * first: "  in mapping field 'unit' (line: 4, column: 5)" for a mapping whose
 * current field is 'unit', "  in mapping (line: ...)" for one with no current
 * field, "  in sequence entry '2' (line: ...)". So every mapping line but the
 * innermost names the key leading down to the failing mapping, and the
 * innermost names the field being loaded there (or, after the mapping's end,
 * the last one loaded). The logged line numbers point at event ends, so only
 * the names are used; lines come from the walker.
 */

#define CY_BACKTRACE_MAX 16

typedef struct cy_frame {
    bool is_entry;   /* sequence entry (else mapping) */
    char field[64];  /* mapping: its current field ("" if none) */
    unsigned entry;  /* sequence entry: its number, 1-based */
} cy_frame;

typedef struct cy_log {
    char message[REASON_MAX_LEN];  /* the first error message, "Load: " removed */
    bool in_backtrace;             /* the backtrace has begun */
    cy_frame frames[CY_BACKTRACE_MAX]; /* backtrace, innermost first */
    size_t nframes;
} cy_log;

/* libcyaml's log callback: keep the first error and its backtrace. */
static void cy_log_fn(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
    cy_log *log = ctx;
    char line[REASON_MAX_LEN];
    const char *text = line;
    cy_frame f = { 0 };

    if (level < CYAML_LOG_ERROR)
        return;
    vsnprintf(line, sizeof line, fmt, args);
    line[strcspn(line, "\n")] = '\0';
    if (strncmp(text, "Load: ", 6) == 0)
        text += 6;
    if (!log->in_backtrace) {
        if (strcmp(text, "Backtrace:") == 0)
            log->in_backtrace = true;
        else if (log->message[0] == '\0')
            snprintf(log->message, sizeof log->message, "%s", text);
        return;
    }
    if (log->nframes == CY_BACKTRACE_MAX)
        return;
    if (sscanf(text, "  in mapping field '%63[^']'", f.field) == 1 ||
        strncmp(text, "  in mapping (", 14) == 0) {
        log->frames[log->nframes++] = f;
    } else if (sscanf(text, "  in sequence entry '%u'", &f.entry) == 1) {
        f.is_entry = true;
        log->frames[log->nframes++] = f;
    }
}

/* What a scalar key expects, for "expected X" messages. */
static const char *key_expects(const char *key)
{
    for (size_t i = 0; int_keys[i]; i++)
        if (strcmp(key, int_keys[i]) == 0)
            return "an integer";
    for (size_t i = 0; bool_keys[i]; i++)
        if (strcmp(key, bool_keys[i]) == 0)
            return "true or false";
    if (strcmp(key, "rules") == 0)
        return "a list of rule names, e.g. [terror]";
    return "a single value (a name or word)";
}

/* Describe the value at path.leaf (and sequence entry, if any) as found in
 * the document: "a list", "a mapping", "'3'" or "nothing". */
static void describe_value(const load_ctx *c, const char *path, const char *leaf,
                           char *out, size_t cap, size_t *line)
{
    walk w;
    walk_run(&w, c->text, c->len, path, leaf);
    *line = w.line;
    if (!w.found)
        snprintf(out, cap, "something else");
    else if (w.value_type == YAML_SEQUENCE_START_EVENT)
        snprintf(out, cap, "a list");
    else if (w.value_type == YAML_MAPPING_START_EVENT)
        snprintf(out, cap, "a mapping");
    else if (w.value_type == YAML_ALIAS_EVENT)
        snprintf(out, cap, "an alias");
    else if (w.value[0] == '\0')
        snprintf(out, cap, "nothing");
    else
        snprintf(out, cap, "'%s'", w.value);
}

/* If s starts with prefix, the rest of s; else NULL. */
static const char *after_prefix(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(s, prefix, n) == 0 ? s + n : NULL;
}

/* Turn a failed cyaml_load_data into one message. */
static om_status fail_cyaml(const load_ctx *c, cyaml_err_t err, const cy_log *log)
{
    char path[PATH_MAX_LEN] = "";
    const cyaml_schema_field_t *fields = top_fields;
    const cyaml_schema_field_t *leaf = NULL;
    unsigned entry = 0;
    const char *m = log->message;
    const char *arg;

    if (err == CYAML_ERR_OOM)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory while loading", c->source);

    /* The innermost mapping frame is the failing mapping; the frames outside
     * it give its path, followed through the schema. */
    size_t inner = 0;
    while (inner < log->nframes && log->frames[inner].is_entry)
        entry = log->frames[inner++].entry;
    for (size_t i = log->nframes; i-- > inner + 1;) {
        const cy_frame *f = &log->frames[i];
        const cyaml_schema_field_t *sf = f->is_entry ? NULL : field_find(fields, f->field);
        if (!sf || sf->value.type != CYAML_MAPPING)
            break;
        size_t used = strlen(path);
        snprintf(path + used, sizeof path - used, "%s%s", used ? "." : "", sf->key);
        fields = sf->value.mapping.fields;
    }
    if (inner < log->nframes)
        leaf = field_find(fields, log->frames[inner].field);

    if ((arg = after_prefix(m, "Unexpected key: ")))
        return fail_unknown_key(c, path, fields, arg);
    if ((arg = after_prefix(m, "Missing required mapping field: ")))
        return fail_at(c, OM_EPARSE, 0, path, arg, "required key '%s' is missing", arg);
    if ((arg = after_prefix(m, "Mapping field already seen: ")))
        return fail_at(c, OM_EPARSE, 0, path, arg, "duplicate key '%s'", arg);
    if (after_prefix(m, "Expecting ")) {
        char got[80], leaf_path[PATH_MAX_LEN];
        size_t line;
        if (leaf && entry > 0) {
            char idx[24];
            snprintf(leaf_path, sizeof leaf_path, "%s%s%s", path, path[0] ? "." : "",
                     leaf->key);
            snprintf(idx, sizeof idx, "[%u]", entry - 1);
            describe_value(c, leaf_path, idx, got, sizeof got, &line);
            return fail_at(c, OM_EPARSE, line, leaf_path, NULL,
                           "entry %u: expected a rule name, got %s", entry, got);
        }
        if (leaf) {
            describe_value(c, path, leaf->key, got, sizeof got, &line);
            return fail_at(c, OM_EPARSE, line, path, leaf->key, "expected %s, got %s",
                           leaf->value.type == CYAML_MAPPING
                               ? "a mapping of keys (indented 'key: value' lines)"
                               : key_expects(leaf->key),
                           got);
        }
    }
    if (leaf)
        return fail_at(c, OM_EPARSE, 0, path, leaf->key, "%s",
                       m[0] ? m : cyaml_strerror(err));
    return fail_at(c, OM_EPARSE, 0, path, NULL, "%s", m[0] ? m : cyaml_strerror(err));
}

/* ---------------------------------------------------------------------------
 * Conversion of the raw strings.
 */

/* Parse a decimal integer with an optional sign and nothing else. Returns 0,
 * -1 if s is not such an integer, or -2 if it does not fit a long long. */
static int parse_integer(const char *s, long long *out)
{
    const char *p = s;
    char *end;
    if (*p == '+' || *p == '-')
        p++;
    if (*p < '0' || *p > '9')
        return -1;
    for (const char *q = p; *q; q++)
        if (*q < '0' || *q > '9')
            return -1;
    errno = 0;
    *out = strtoll(s, &end, 10);
    if (errno == ERANGE)
        return -2;
    return *end == '\0' ? 0 : -1;
}

/*
 * Convert the integer at prefix.key (string s, NULL if absent) into 0..max.
 * Absent: *out = dflt. Errors: OM_EPARSE not an integer, OM_EINVAL negative
 * or above max.
 */
static om_status conv_int(const load_ctx *c, const char *prefix, const char *key,
                          const char *s, unsigned max, unsigned dflt, unsigned *out)
{
    long long v = 0;
    *out = dflt;
    if (!s)
        return OM_OK;
    switch (parse_integer(s, &v)) {
    case -1:
        return fail_at(c, OM_EPARSE, 0, prefix, key, "expected an integer, got '%s'", s);
    case -2:
        return fail_at(c, OM_EINVAL, 0, prefix, key, "%s is out of range (0..%u)", s,
                       max);
    default:
        break;
    }
    if (v < 0)
        return fail_at(c, OM_EINVAL, 0, prefix, key, "must not be negative (got %lld)",
                       v);
    if (v > (long long)max)
        return fail_at(c, OM_EINVAL, 0, prefix, key, "%lld is too large (at most %u)",
                       v, max);
    *out = (unsigned)v;
    return OM_OK;
}

/* As conv_int into a uint8_t. */
static om_status conv_u8(const load_ctx *c, const char *prefix, const char *key,
                         const char *s, unsigned dflt, uint8_t *out)
{
    unsigned v = 0;
    om_status st = conv_int(c, prefix, key, s, UINT8_MAX, dflt, &v);
    *out = (uint8_t)v;
    return st;
}

/* Convert the boolean at prefix.key (NULL: false). Error: OM_EPARSE. */
static om_status conv_bool(const load_ctx *c, const char *prefix, const char *key,
                           const char *s, bool *out)
{
    static const char *const yes[] = { "true", "True", "TRUE", "yes", "Yes", "YES",
                                       "on", "On", "ON" };
    static const char *const no[] = { "false", "False", "FALSE", "no", "No", "NO",
                                      "off", "Off", "OFF" };
    _Static_assert(sizeof yes == sizeof no, "as many true as false spellings");
    *out = false;
    if (!s)
        return OM_OK;
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        if (strcmp(s, yes[i]) == 0) {
            *out = true;
            return OM_OK;
        }
        if (strcmp(s, no[i]) == 0)
            return OM_OK;
    }
    return fail_at(c, OM_EPARSE, 0, prefix, key, "expected true or false, got '%s'", s);
}

/* Find the name s in names[0..n) (the value of prefix.key); error OM_EPARSE
 * listing the names. */
static om_status conv_name(const load_ctx *c, const char *prefix, const char *key,
                           const char *what, const char *s, const char *const *names,
                           size_t n, unsigned *out)
{
    char known[REASON_MAX_LEN / 2];
    *out = 0;
    for (size_t i = 0; i < n; i++) {
        if (names[i] && strcmp(s, names[i]) == 0) {
            *out = (unsigned)i;
            return OM_OK;
        }
    }
    join_names(known, sizeof known, names, n);
    return fail_at(c, OM_EPARSE, 0, prefix, key, "unknown %s '%s'; expected one of: %s",
                   what, s, known);
}

/*
 * Convert the armour save at prefix.key: "4+" or "4" is a save of 4; "none",
 * "-" and "0" mean no save (0). Out-of-range saves such as "1+" are returned
 * as parsed so that the engine's check rejects them with its own reason.
 */
static om_status conv_armour(const load_ctx *c, const char *prefix, const char *key,
                             const char *s, uint8_t *out)
{
    long long v = 0;
    size_t n = strlen(s);
    char digits[24];

    *out = 0;
    if (strcmp(s, "none") == 0 || strcmp(s, "-") == 0 || strcmp(s, "0") == 0)
        return OM_OK;
    if (n > 0 && s[n - 1] == '+')
        n--;
    if (n == 0 || n >= sizeof digits || s[0] == '+' || s[0] == '-')
        goto bad;
    memcpy(digits, s, n);
    digits[n] = '\0';
    if (parse_integer(digits, &v) != 0)
        goto bad;
    if (v == 0)
        return fail_at(c, OM_EINVAL, 0, prefix, key,
                       "'%s' is not a save; write none for no save", s);
    if (v > UINT8_MAX)
        return fail_at(c, OM_EINVAL, 0, prefix, key, "save '%s' is out of range", s);
    *out = (uint8_t)v;
    return OM_OK;
bad:
    return fail_at(c, OM_EPARSE, 0, prefix, key,
                   "expected a save such as 4+ (or none, 0 or \"-\" for no save), "
                   "got '%s'", s);
}

/* Convert the special rule names of the unit at `up` into OM_WM_RULE_* flags;
 * a repeated name is harmless. Error: OM_EPARSE naming the known rules. */
static om_status conv_rules(const load_ctx *c, const char *up, const raw_unit *r,
                            uint32_t *out)
{
    enum { N = sizeof rule_names / sizeof rule_names[0] };
    const char *names[N];
    char path[PATH_MAX_LEN + sizeof ".rules"], idx[24], known[REASON_MAX_LEN / 2];

    *out = 0;
    for (unsigned i = 0; i < r->rules_count; i++) {
        size_t k = 0;
        while (k < N && strcmp(r->rules[i], rule_names[k].name) != 0)
            k++;
        if (k < N) {
            *out |= rule_names[k].flag;
            continue;
        }
        for (k = 0; k < N; k++)
            names[k] = rule_names[k].name;
        join_names(known, sizeof known, names, N);
        snprintf(path, sizeof path, "%s.rules", up);
        snprintf(idx, sizeof idx, "[%u]", i);
        return fail_at(c, OM_EPARSE, locate(c, path, idx), path, NULL,
                       "unknown special rule '%s'; known rules: %s", r->rules[i],
                       known);
    }
    return OM_OK;
}

/* Convert one unit (`up` is its path, "a.unit" or "b.unit"). */
static om_status conv_unit(const load_ctx *c, const char *up, const raw_unit *r,
                           om_wm_unit *u)
{
    const char *troop_names[OM_WM_TROOP_COUNT];
    const size_t name_len = strlen(r->name);
    unsigned v = 0;
    om_status st;

    if (name_len == 0)
        return fail_at(c, OM_EINVAL, 0, up, "name", "must not be empty");
    if (name_len > NAME_MAX_LEN)
        return fail_at(c, OM_EINVAL, 0, up, "name",
                       "is %zu bytes long; at most %zu are allowed", name_len,
                       NAME_MAX_LEN);
    memcpy(u->name, r->name, name_len + 1);

    for (unsigned t = 0; t < OM_WM_TROOP_COUNT; t++)
        troop_names[t] = om_wm_troop_name((om_wm_troop)t);
    if ((st = conv_name(c, up, "type", "troop type", r->type, troop_names,
                        OM_WM_TROOP_COUNT, &v)))
        return st;
    u->troop = (om_wm_troop)v;

    if ((st = conv_u8(c, up, "stands", r->stands, 0, &u->stands)) ||
        (st = conv_u8(c, up, "attacks", r->attacks, 0, &u->attacks)) ||
        (st = conv_u8(c, up, "hits", r->hits, 0, &u->hits)) ||
        (st = conv_armour(c, up, "armour", r->armour, &u->armour)) ||
        (st = conv_u8(c, up, "shots", r->shots, 0, &u->shots)))
        return st;
    /* Range defaults to the common bow range, 30 cm (digest 5.2), for a unit
     * that shoots; a unit that cannot shoot has none. */
    if ((st = conv_u8(c, up, "range", r->range, u->shots > 0 ? 30u : 0u,
                      &u->range_cm)) ||
        (st = conv_u8(c, up, "pace", r->pace, om_wm_troop_pace(u->troop),
                      &u->pace_cm)) ||
        (st = conv_int(c, up, "points", r->points, UINT16_MAX, 0, &v)))
        return st;
    u->points = (uint16_t)v;
    return conv_rules(c, up, r, &u->rules);
}

/* Convert one side ("a" or "b"). */
static om_status conv_side(const load_ctx *c, const char *side, const raw_side *r,
                           om_wm_side *s)
{
    const char *pos_names[OM_WM_POSITION_COUNT];
    char up[PATH_MAX_LEN];
    unsigned v = 0;
    om_status st;

    snprintf(up, sizeof up, "%s.unit", side);
    if ((st = conv_unit(c, up, &r->unit, &s->unit)) ||
        (st = conv_bool(c, side, "charging", r->charging, &s->charging)))
        return st;
    s->position = OM_WM_OPEN;
    if (r->position) {
        for (unsigned i = 0; i < OM_WM_POSITION_COUNT; i++)
            pos_names[i] = om_wm_position_name((om_wm_position)i);
        if ((st = conv_name(c, side, "position", "position", r->position, pos_names,
                            OM_WM_POSITION_COUNT, &v)))
            return st;
        s->position = (om_wm_position)v;
    }
    /* All stands fight and shoot unless the file says fewer do. */
    if ((st = conv_u8(c, side, "fighting", r->fighting, s->unit.stands,
                      &s->fighting)) ||
        (st = conv_u8(c, side, "flanked", r->flanked, 0, &s->flanked)) ||
        (st = conv_u8(c, side, "supports", r->supports, 0, &s->supports)) ||
        (st = conv_u8(c, side, "support_units", r->support_units, 0,
                      &s->support_units)) ||
        (st = conv_u8(c, side, "attack_bonus", r->attack_bonus, 0,
                      &s->attack_bonus)) ||
        (st = conv_u8(c, side, "shooting", r->shooting, s->unit.stands,
                      &s->shooting)) ||
        (st = conv_bool(c, side, "confused", r->confused, &s->confused)) ||
        (st = conv_bool(c, side, "stand_and_shoot", r->stand_and_shoot,
                        &s->stand_and_shoot)))
        return st;
    return OM_OK;
}

/* Fill the engagement from the raw document, then run the engine's check. */
static om_status conv_engagement(const load_ctx *c, const raw_scenario *r,
                                 om_wm_engagement *e)
{
    om_wm_check_failure why;
    unsigned v = 0;
    om_status st;

    memset(e, 0, sizeof *e);
    e->rules = om_wm_ruleset_find(r->ruleset);
    if (!e->rules) {
        const char *names[OM_WM_RULES_COUNT];
        char known[REASON_MAX_LEN / 2];
        for (unsigned i = 0; i < OM_WM_RULES_COUNT; i++)
            names[i] = om_wm_ruleset_get((om_wm_ruleset_id)i)->name;
        join_names(known, sizeof known, names, OM_WM_RULES_COUNT);
        return fail_at(c, OM_ENOTFOUND, 0, NULL, "ruleset",
                       "unknown rule set '%s'; known rule sets: %s", r->ruleset, known);
    }
    e->kind = OM_WM_KIND_COMBAT;
    if (r->kind) {
        if ((st = conv_name(c, NULL, "kind", "kind", r->kind, kind_names,
                            sizeof kind_names / sizeof kind_names[0], &v)))
            return st;
        e->kind = (om_wm_kind)v;
    }
    if ((st = conv_side(c, "a", &r->a, &e->side[OM_WM_SIDE_A])) ||
        (st = conv_side(c, "b", &r->b, &e->side[OM_WM_SIDE_B])))
        return st;

    memset(&why, 0, sizeof why);
    if (om_wm_engagement_check(e, &why) != OM_OK)
        return fail_at(c, OM_EINVAL, 0, why.field, NULL, "%s",
                       why.reason[0] ? why.reason : "rejected by the rules check");
    return OM_OK;
}

/* Duplicate a string; NULL on failure. */
static char *dup_string(const char *s, size_t len)
{
    char *d = malloc(len + 1);
    if (d) {
        memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}

/* Steps 1 and 2: check the document's shape, then load it with libcyaml. */
static om_status load_raw(const load_ctx *c, raw_scenario **out,
                          const cyaml_config_t *cfg, cy_log *log)
{
    walk w;
    cyaml_err_t err;

    walk_run(&w, c->text, c->len, NULL, NULL);
    if (w.status == OM_ENOMEM)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory while parsing", c->source);
    if (w.status != OM_OK)
        return fail_at(c, w.status, w.err_line, w.err_path, NULL, "%s", w.reason);
    if (w.root_type == 0 ||
        (w.root_type == YAML_SCALAR_EVENT &&
         (w.root_scalar[0] == '\0' || strcmp(w.root_scalar, "~") == 0 ||
          strcmp(w.root_scalar, "null") == 0)))
        return fail_at(c, OM_EPARSE, w.root_type ? w.root_line : 1, NULL, NULL,
                       "the file is empty; a scenario needs at least the keys "
                       "schema, ruleset, a and b");
    if (w.root_type != YAML_MAPPING_START_EVENT)
        return fail_at(c, OM_EPARSE, w.root_line, NULL, NULL,
                       "the document must be a mapping of keys (schema, ruleset, a, "
                       "b), not %s",
                       w.root_type == YAML_SEQUENCE_START_EVENT ? "a list"
                                                                : "a single value");
    if (!w.has_schema)
        return fail_at(c, OM_EPARSE, w.root_line, NULL, "schema",
                       "required key 'schema' is missing (a scenario file starts "
                       "with 'schema: " OM_SCENARIO_SCHEMA "')");
    if (w.schema_scalar && strcmp(w.schema, OM_SCENARIO_SCHEMA) != 0)
        return fail_at(c, OM_EPARSE, w.schema_line, NULL, "schema",
                       "unsupported schema '%s'; this version reads '"
                       OM_SCENARIO_SCHEMA "'", w.schema);

    err = cyaml_load_data((const uint8_t *)c->text, c->len, cfg, &top_schema,
                          (cyaml_data_t **)out, NULL);
    if (err != CYAML_OK)
        return fail_cyaml(c, err, log);
    if (NEVER(*out == NULL))
        return fail_at(c, OM_EPARSE, 1, NULL, NULL, "the document holds no scenario");
    return OM_OK;
}

/*
 * om_scenario_load_text: see scenario.h. The text is copied (s->text), so the
 * caller keeps ownership of `text`. Thread-safe: all state is on the stack
 * (libcyaml's log context included) and errors go to the per-thread slot.
 * Errors: OM_EINVAL (NULL argument, impossible value), OM_EPARSE, OM_ENOTFOUND,
 * OM_ENOMEM, each with a "SOURCE:LINE: field 'PATH': REASON" message.
 */
om_status om_scenario_load_text(const char *source, const char *text, size_t len,
                                om_scenario **out)
{
    cy_log log;
    const cyaml_config_t cfg = {
        .log_fn = cy_log_fn,
        .log_ctx = &log,
        .mem_fn = cyaml_mem,
        .log_level = CYAML_LOG_WARNING,
        .flags = CYAML_CFG_DEFAULT,
    };
    raw_scenario *raw = NULL;
    om_scenario *s = NULL;
    load_ctx c;
    om_status st;

    if (!out)
        return OM_ERROR(OM_EINVAL, "om_scenario_load_text: out is NULL");
    *out = NULL;
    if (!source)
        source = SOURCE_UNNAMED;
    if (!text && len > 0)
        return OM_ERROR(OM_EINVAL, "%s: om_scenario_load_text: text is NULL", source);
    if (!text)
        text = "";
    memset(&log, 0, sizeof log);

    s = calloc(1, sizeof *s);
    if (!s)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", source);
    s->source = dup_string(source, strlen(source));
    s->text = dup_string(text, len);
    if (!s->source || !s->text) {
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", source);
        goto fail;
    }
    c = (load_ctx){ .source = source, .text = s->text, .len = len };

    if ((st = load_raw(&c, &raw, &cfg, &log)))
        goto fail;
    if (raw->title && raw->title[0] == '\0') {
        st = fail_at(&c, OM_EINVAL, 0, NULL, "title",
                     "must not be empty (leave the key out for the default)");
        goto fail;
    }
    if ((st = conv_engagement(&c, raw, &s->engagement)))
        goto fail;
    if (raw->title) {
        s->title = dup_string(raw->title, strlen(raw->title));
    } else {
        size_t n = strlen(s->engagement.side[0].unit.name) +
                   strlen(s->engagement.side[1].unit.name) + sizeof " vs ";
        s->title = malloc(n);
        if (s->title)
            snprintf(s->title, n, "%s vs %s", s->engagement.side[0].unit.name,
                     s->engagement.side[1].unit.name);
    }
    if (!s->title) {
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", source);
        goto fail;
    }
    cyaml_free(&cfg, &top_schema, raw, 0);
    *out = s;
    return OM_OK;

fail:
    if (raw)
        cyaml_free(&cfg, &top_schema, raw, 0);
    om_scenario_free(s);
    return st;
}

/*
 * om_scenario_load_file: see scenario.h. Reads the whole file, then loads it
 * as om_scenario_load_text with `path` as the source name. Errors: OM_EIO
 * ("PATH: cannot read: strerror"), plus those of om_scenario_load_text.
 */
om_status om_scenario_load_file(const char *path, om_scenario **out)
{
    FILE *f;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    om_status st;

    if (!out)
        return OM_ERROR(OM_EINVAL, "om_scenario_load_file: out is NULL");
    *out = NULL;
    if (!path)
        return OM_ERROR(OM_EINVAL, "om_scenario_load_file: path is NULL");
    f = fopen(path, "rb");
    if (!f)
        return OM_ERROR(OM_EIO, "%s: cannot read: %s", path, strerror(errno));
    for (;;) {
        if (len == cap) {
            /* Grow geometrically; scenario files are a few hundred bytes. */
            size_t ncap = cap ? 2 * cap : 4096;
            char *nbuf = ncap > cap ? realloc(buf, ncap) : NULL;
            if (!nbuf) {
                free(buf);
                fclose(f);
                return OM_ERROR(OM_ENOMEM, "%s: out of memory reading the file", path);
            }
            buf = nbuf;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) {
                int e = errno;
                free(buf);
                fclose(f);
                return OM_ERROR(OM_EIO, "%s: cannot read: %s", path,
                                strerror(e ? e : EIO));
            }
            break;
        }
    }
    fclose(f);
    st = om_scenario_load_text(path, buf, len, out);
    free(buf);
    return st;
}

/*
 * om_scenario_free: free a scenario and the strings it owns. NULL is allowed.
 */
void om_scenario_free(om_scenario *s)
{
    if (!s)
        return;
    free(s->source);
    free(s->text);
    free(s->title);
    free(s);
}

/*
 * om_scenario_default_text: the embedded default scenario (default.yaml),
 * NUL-terminated, in static storage. Load it with
 * om_scenario_load_text(OM_SCENARIO_DEFAULT_NAME, t, strlen(t), &s).
 */
const char *om_scenario_default_text(void)
{
    return om_scenario_default_yaml;
}
