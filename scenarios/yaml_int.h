/*
 * yaml_int.h: private YAML helpers of scenarios/, shared by the scenario
 * loader (load.c) and the army data loader (army.c); implemented in
 * yaml_util.c. Not part of any public interface.
 *
 * Both loaders read a document the same way (load.c explains the steps): a
 * libyaml event walk checks its shape and schema, libcyaml maps it onto a
 * struct of strings with a strict schema, the strings are converted by hand
 * (libcyaml's number and boolean parsing is too lax) and every failure becomes
 * one message "SOURCE:LINE: field 'PATH': REASON", LINE being found by walking
 * the document again along PATH. libcyaml and libyaml are used only in
 * scenarios/ (each external library is reached through one module only).
 */
#ifndef OM_YAML_INT_H
#define OM_YAML_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cyaml/cyaml.h>
#include <yaml.h>

#include "options.h"
#include "status.h"
#include "suggest.h"

/* Path shown for problems of the document as a whole. */
#define OM_YAML_PATH_DOCUMENT "(document)"

/* Longest dotted path or reason kept while building a message; schema paths
 * are at most "units[123].magic_item_upgrades" long, user keys are truncated. */
#define OM_YAML_PATH_MAX 160
#define OM_YAML_REASON_MAX 512

/* Most keys of one level of a schema that "did you mean" weighs. */
#define OM_YAML_KEYS_MAX 128

/* Longest value (a scalar) a scenario may hold (om_yaml_doc.value_max):
 * titles and names are far shorter, and a longer one would be quoted whole in
 * a message. */
#define OM_YAML_SCALAR_MAX 255

/* Deepest nesting the walker tracks; the schemas need at most 5 (root,
 * rules, [i], variants, [j]). */
#define OM_YAML_WALK_DEPTH_MAX 32
/* Key bytes kept per level; longer keys match no path component. */
#define OM_YAML_WALK_KEY_MAX 128

/* Anchors (&name) the walker follows, the bytes of a name it keeps, and the
 * most values aliases (*name) may stand for in all. libcyaml replays an
 * anchor's whole value for each alias to it, even under a key it ignores, so
 * anchors of lists of aliases grow exponentially (ten levels of ten aliases
 * stand for ten billion values); a scenario that repeats a unit or a side has
 * a few dozen. */
#define OM_YAML_ANCHORS_MAX 64
#define OM_YAML_ANCHOR_NAME_MAX 64
#define OM_YAML_ALIAS_NODES_MAX 10000

/* What a load is working on, for messages. */
typedef struct om_yaml_ctx {
    const char *source; /* file name for messages */
    const char *text;   /* the document */
    size_t len;         /* its length in bytes */
} om_yaml_ctx;

/* One open collection of the walker. */
typedef struct om_yaml_walk_frame {
    bool is_map;                    /* mapping (else sequence) */
    bool want_key;                  /* mapping: the next node is a key */
    bool has_key;                   /* mapping: key names the value being parsed */
    char key[OM_YAML_WALK_KEY_MAX]; /* mapping: the current key ("" if too long) */
    size_t key_line;                /* mapping: 1-based line of that key */
    long entry;                     /* sequence: index of the current entry, -1 before */
    int anchor;                     /* the anchor naming this collection, -1 if none */
    size_t nodes_before;            /* nodes before it began (its anchor's size) */
} om_yaml_walk_frame;

/* An anchor of the document and the values its aliases stand for. */
typedef struct om_yaml_walk_anchor {
    char name[OM_YAML_ANCHOR_NAME_MAX]; /* its name ("" if too long: never matched) */
    size_t nodes;                       /* the values of its node, aliases expanded */
    bool open;                          /* its collection has not ended */
} om_yaml_walk_anchor;

/*
 * The document walker: a libyaml event walk that tracks the path of keys to
 * the node being parsed. It checks the document's shape and finds the line of
 * a dotted path for error messages.
 */
typedef struct om_yaml_walk {
    /* Input: the path to find, split into components ("[N]" for entry N). */
    const char *comps[OM_YAML_WALK_DEPTH_MAX];
    size_t ncomps;
    char comp_buf[OM_YAML_PATH_MAX * 2]; /* storage of the components */

    /* Output of the search: the 1-based line of the path's key (its first
     * occurrence), or of its deepest ancestor key (the root mapping for
     * top-level keys). */
    size_t line;
    size_t line_depth;        /* components matched at `line` */
    bool found;               /* the whole path was found */
    size_t again_line;        /* line of the path's second occurrence (a duplicate
                                 key), 0 if none */
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

    /* Output: the longest value (scalar) of the document, its line and path. */
    size_t longest;
    size_t longest_line;
    char longest_path[OM_YAML_PATH_MAX];

    /* Output: the first problem found, with its line and key path. */
    om_status status;
    size_t err_line;
    char err_path[OM_YAML_PATH_MAX];
    char reason[OM_YAML_REASON_MAX];

    om_yaml_walk_frame frames[OM_YAML_WALK_DEPTH_MAX]; /* open collections, root first */
    size_t depth;                                      /* number of open collections */

    /* The document's anchors, and its values with every alias expanded. */
    om_yaml_walk_anchor anchors[OM_YAML_ANCHORS_MAX];
    size_t n_anchors;
    size_t nodes;       /* values (scalars and collections) so far, aliases expanded */
    size_t alias_nodes; /* of those, the values aliases stand for */
} om_yaml_walk;

/*
 * om_yaml_walk_run: walk the whole of `text`. If `path` is not NULL, find its
 * line: `path` is dotted, with "[N]" for entry N of a sequence
 * ("units[3].attacks"; "" is the root), and `leaf`, if not NULL, is one more
 * component taken whole (an unknown key may contain dots). Fills *w;
 * w->status is OM_OK unless the document is not valid YAML (OM_EPARSE, with
 * err_line, err_path and reason) or memory ran out (OM_ENOMEM).
 */
void om_yaml_walk_run(om_yaml_walk *w, const char *text, size_t len, const char *path,
                      const char *leaf);

/* 1-based line of `path` (plus `leaf`) in the document, or of its deepest
 * ancestor present. */
size_t om_yaml_locate(const om_yaml_ctx *c, const char *path, const char *leaf);

/*
 * om_yaml_fail_at: raise "SOURCE:LINE: field 'PATH': REASON" with `code` and
 * return it. PATH is `path` plus `leaf` joined by a dot (either may be NULL
 * or ""; both empty give "(document)"). If line is 0 it is found by walking
 * the document along the path. The reason is formatted before the error slot
 * is written, so it may quote om_error_message().
 */
om_status om_yaml_fail_at(const om_yaml_ctx *c, om_status code, size_t line, const char *path,
                          const char *leaf, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* Write ", ".join(names[0..n)) into buf (for "known: ..." lists), truncated
 * to cap bytes. */
void om_yaml_join_names(char *buf, size_t cap, const char *const *names, size_t n);

/* Parse a decimal integer with an optional sign and nothing else. Returns 0,
 * -1 if s is not such an integer, or -2 if it does not fit a long long. */
int om_yaml_parse_integer(const char *s, long long *out);

/*
 * om_yaml_conv_int: convert the integer at prefix.key (string s, NULL if
 * absent) into 0..max; absent gives *out = dflt. Errors: OM_EPARSE not an
 * integer, OM_EINVAL negative or above max.
 */
om_status om_yaml_conv_int(const om_yaml_ctx *c, const char *prefix, const char *key,
                           const char *s, unsigned max, unsigned dflt, unsigned *out);

/* As om_yaml_conv_int into a uint8_t (0..255). */
om_status om_yaml_conv_u8(const om_yaml_ctx *c, const char *prefix, const char *key,
                          const char *s, unsigned dflt, uint8_t *out);

/* Whether `s` is a boolean: true/false, yes/no, on/off in lower case,
 * Capitalised or UPPER; *out gets its value (false when it is none). */
bool om_yaml_parse_bool(const char *s, bool *out);

/* Convert the boolean at prefix.key (NULL: false), spelt as om_yaml_parse_bool
 * reads it. Error: OM_EPARSE. */
om_status om_yaml_conv_bool(const om_yaml_ctx *c, const char *prefix, const char *key,
                            const char *s, bool *out);

/*
 * om_yaml_check_text: refuse a document that is not text in UTF-8, before
 * anything reads it as a C string (which would stop at a NUL byte and find
 * the file empty) or as YAML (whose reader says "control characters are not
 * allowed"). Errors, OM_EPARSE with path "(document)" and the line of the
 * first offending byte: a file saved as UTF-16 or UTF-32 (by its byte order
 * mark), a NUL byte, a control character other than tab, line feed and
 * carriage return, bytes that are not UTF-8. Thread-safe.
 */
om_status om_yaml_check_text(const om_yaml_ctx *c);

/* A NUL-terminated copy of len bytes of s (malloc); NULL when out of memory. */
char *om_yaml_dup(const char *s, size_t len);

/*
 * om_yaml_read_file: read the whole file at `path` into *buf (malloc, NUL
 * terminated, owned by the caller) and its length into *len. Errors: OM_EIO
 * ("PATH: cannot read: REASON"), OM_ENOMEM.
 */
om_status om_yaml_read_file(const char *path, char **buf, size_t *len);

/* om_yaml_read_stream: the same for what is left of the open stream f (not
 * closed), named `name` in messages ("<stdin>"). */
om_status om_yaml_read_stream(FILE *f, const char *name, char **buf, size_t *len);

/* om_yaml_read_path: om_yaml_read_file of `*path`, or, for "-", standard
 * input, when *path becomes "<stdin>" (the name its messages use). The
 * files a user names on the command line are read so. */
om_status om_yaml_read_path(const char **path, char **buf, size_t *len);

/* Longest key or value om_yaml_scalar_map keeps, with the NUL; option names
 * are at most 30 bytes and values a word or a number. */
#define OM_YAML_PAIR_MAX 64

/* One entry of a mapping of scalars, as read by om_yaml_scalar_map. */
typedef struct om_yaml_pair {
    char key[OM_YAML_PAIR_MAX];   /* the key ("" if it does not fit) */
    char value[OM_YAML_PAIR_MAX]; /* its value ("" if it does not fit) */
    size_t line;                  /* 1-based line of the key */
} om_yaml_pair;

/*
 * om_yaml_scalar_map: read the top-level key `key` of the document in `c`,
 * whose value must be a mapping of names to single values (the scenario's
 * `options:`, whose names the engine's registry decides, so libcyaml's fixed
 * schemas cannot hold it). Writes at most `cap` entries, in document order
 * and duplicates included, to pairs[] and their number to *n. An absent key,
 * an empty value ("key:" alone) and an empty mapping give *n = 0. `expects`
 * says what the value should be, for messages ("a mapping of option names to
 * values"). Errors, raised at the offending line with path "key" or
 * "key.NAME": OM_EPARSE if the value is a list or a single value, or an
 * entry's value is a list, a mapping or an alias, or there are more than
 * `cap` entries, or `key` is given twice; OM_ENOMEM. The document must already have passed
 * om_yaml_load (it is valid YAML).
 */
om_status om_yaml_scalar_map(const om_yaml_ctx *c, const char *key, const char *expects,
                             om_yaml_pair *pairs, size_t cap, size_t *n);

/* How a kind of document is described to om_yaml_load. */
typedef struct om_yaml_doc {
    const char *schema;         /* required value of the top-level "schema" key */
    const char *what;           /* "a scenario file", for messages */
    const char *keys;           /* the keys it needs, for the empty-file message */
    const cyaml_schema_value_t *top; /* the libcyaml schema (a pointer mapping) */
    const char *const *int_keys;  /* keys holding integers (NULL-terminated) */
    const char *const *bool_keys; /* keys holding booleans (NULL-terminated) */
    const char *list_expects;   /* what a list key holds: "a list of rule names" */
    const char *entry_expects;  /* what one entry of such a list is: "a rule name" */
    /* A better message for an unknown key that belongs somewhere else in the
     * document (NULL: none): it raises and returns an error for a key it
     * knows, else returns OM_OK and the common messages follow (an option of
     * `options`, then om_yaml_fail_unknown_key). */
    om_status (*unknown_key)(const om_yaml_ctx *c, const char *path,
                             const cyaml_schema_field_t *fields, const char *key);
    /* The registries whose switches belong under the top-level `options:`
     * (NULL-terminated), for the message of one written elsewhere; or NULL. */
    const om_option_table *const *options;
    /* The longest value (scalar) the document may hold, in bytes
     * (OM_YAML_SCALAR_MAX for a scenario); 0: any. */
    size_t value_max;
} om_yaml_doc;

/*
 * om_yaml_load: check the shape and schema of the document in `c` (valid YAML,
 * one document, a mapping, "schema: d->schema"), then load it with libcyaml
 * into *out (free with om_yaml_free). libcyaml's log is captured into the
 * message, never printed. A value longer than d->value_max is refused.
 * d->top must not hold a list whose entries are
 * fixed-length lists stored inline (libcyaml frees those at the wrong
 * stride): give such entries CYAML_FLAG_POINTER. Errors: OM_EPARSE (with the
 * document's line and key path), OM_ENOMEM, OM_EUNSUPPORTED (a schema that
 * breaks that rule; it asserts in debug builds).
 */
om_status om_yaml_load(const om_yaml_ctx *c, const om_yaml_doc *d, void **out);

/* Free what om_yaml_load returned (NULL allowed). */
void om_yaml_free(const om_yaml_doc *d, void *data);

/*
 * om_yaml_fail_unknown_key: report an unknown key `key` in the mapping at
 * `path` whose schema is `fields`: suggest the nearest known key ("did you
 * mean"), else list the known keys. Returns OM_EPARSE.
 */
om_status om_yaml_fail_unknown_key(const om_yaml_ctx *c, const char *path,
                                   const cyaml_schema_field_t *fields, const char *key);

/* The field of `fields` with this key, or NULL. */
const cyaml_schema_field_t *om_yaml_field_find(const cyaml_schema_field_t *fields,
                                               const char *key);

/* A registry of the engine's readings and the options struct its switches
 * set (NULL: every reading of it is fixed, e.g. a whole turn's). */
typedef struct om_yaml_option_set {
    const om_option_table *table;
    void *options;
} om_yaml_option_set;

/*
 * om_yaml_conv_option: entry p of `options:` through the first of sets[0..n)
 * whose registry has the name: a bool switch takes a boolean (spelt as
 * anywhere in the file), a count an integer, set with om_option_set. Errors
 * at options.NAME: OM_EPARSE for a name of no registry (with the nearest
 * name, else the switches) or a value of the wrong type; OM_EINVAL for a
 * fixed reading, which cannot be switched, or a value the registry refuses.
 */
om_status om_yaml_conv_option(const om_yaml_ctx *c, const om_yaml_pair *p,
                              const om_yaml_option_set *sets, size_t n_sets);

/*
 * om_yaml_conv_options: the top-level `options:` mapping, each entry through
 * om_yaml_conv_option; `example` is an entry for the message of a mapping of
 * the wrong shape ("max_turns: 5"). A name given twice is an OM_EPARSE error.
 * An absent or empty mapping sets nothing.
 */
om_status om_yaml_conv_options(const om_yaml_ctx *c, const char *example,
                               const om_yaml_option_set *sets, size_t n_sets);

#endif /* OM_YAML_INT_H */
