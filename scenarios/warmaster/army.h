/*
 * army.h: the army lists as data (scenarios/armies/; docs/manual.md, "Army data").
 *
 * Every unit of every army of the three Warmaster rule sets, its special
 * rules, and the WHFB 7th edition profile and weapon tables are YAML files
 * generated from the shared sources by scenarios/tools/convert_armies.py and
 * compiled into the program (embed_text.py), so that a scenario can say
 * `from: empire/knights` and `oddsmaster list` works from any directory.
 * This module parses those files (strictly, with "FILE:LINE: field 'PATH':
 * REASON" errors), looks units up by "army/unit" with "did you mean"
 * suggestions, and fills the engine's om_wm_unit from a unit's values.
 *
 * Parsing never caches: every load parses the embedded text again (a list is
 * about 15 kB, parsed in well under a millisecond), so there is no global
 * state and every function is thread-safe.
 */
#ifndef OM_ARMY_H
#define OM_ARMY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"
#include "table.h"
#include "wm.h"

/* Schema identifiers of the data files. */
#define OM_ARMY_SCHEMA "oddsmaster-army/1"
#define OM_ARMY_RULES_SCHEMA "oddsmaster-special-rules/1"
#define OM_ARMY_PROFILES_SCHEMA "oddsmaster-whfb7-profiles/1"
#define OM_ARMY_WEAPONS_SCHEMA "oddsmaster-whfb7-weapons/1"

/* Directory of the data in the source tree; embedded files are named by
 * their path below it, messages by the full repository path. */
#define OM_ARMY_DATA_DIR "scenarios/armies"

/* Path of the special-rule registry below OM_ARMY_DATA_DIR. */
#define OM_ARMY_RULES_FILE "special-rules.yaml"

/* An army list entry's type. The first six are the engine's troop types, in
 * the same order (om_wm_troop); the others cannot fight as a unit. */
typedef enum om_army_type {
    OM_ARMY_INFANTRY = 0,
    OM_ARMY_CAVALRY,
    OM_ARMY_CHARIOT,
    OM_ARMY_MONSTER,
    OM_ARMY_ARTILLERY,
    OM_ARMY_MACHINE,
    OM_ARMY_GENERAL,   /* a character: the army's General */
    OM_ARMY_HERO,      /* a character: Hero, Ancients Leader or Subordinate */
    OM_ARMY_WIZARD,    /* a character: Wizard, Shaman, ... */
    OM_ARMY_MOUNT,     /* a mount a character may ride (an upgrade) */
    OM_ARMY_SPECIAL,   /* any other upgrade (Anvil, Handgunners, ...) */
    OM_ARMY_TYPE_COUNT
} om_army_type;

/* Name of a type as written in the data ("infantry", ..., "special"). */
const char *om_army_type_name(om_army_type type);

/* Is the type a character (general, hero or wizard)? */
bool om_army_type_is_character(om_army_type type);

/* How a character entry of the army lists gives orders: a General as the
 * General, a Wizard (and an Ancients Subordinate) as a Wizard, any other (a
 * Hero, an Ancients Leader) as a Hero. */
om_wm_character_kind om_army_character_kind(om_army_type type, const char *source_type);

/* One rule set that has army lists, and the directory of its files. Its
 * title is the engine's (om_wm_ruleset_find(id)->title). */
typedef struct om_army_ruleset {
    const char *id;  /* rule set name, as in scenarios ("warmaster-revolution") */
    const char *dir; /* directory under OM_ARMY_DATA_DIR ("warmaster-revolution") */
} om_army_ruleset;

/* Number of rule sets with army lists, and the i-th (NULL past the end); in
 * chronological order: warmaster-1.1, warmaster-revolution, warmaster-ancients. */
size_t om_army_ruleset_count(void);
const om_army_ruleset *om_army_ruleset_at(size_t i);

/* The rule set with this name, or NULL. */
const om_army_ruleset *om_army_ruleset_find(const char *id);

/* One embedded data file (static storage). */
typedef struct om_army_file {
    const char *path; /* below OM_ARMY_DATA_DIR: "warmaster-revolution/empire.yaml" */
    const char *dir;  /* its directory: "warmaster-revolution" ("" at the top) */
    const char *stem; /* its name without ".yaml": "empire" (the army id) */
    const char *text; /* its text, NUL-terminated */
    size_t len;       /* its length in bytes */
} om_army_file;

/* Number of embedded data files, and the i-th in path order (NULL past the
 * end). */
size_t om_army_file_count(void);
const om_army_file *om_army_file_at(size_t i);

/* The embedded file with this path below OM_ARMY_DATA_DIR, or NULL. */
const om_army_file *om_army_file_find(const char *path);

/* Number of armies of a rule set (its files), and the file of the i-th in
 * id order (NULL past the end). */
size_t om_army_count(const om_army_ruleset *rs);
const om_army_file *om_army_file_of(const om_army_ruleset *rs, size_t i);

/* One army list entry: a unit, or an upgrade (mount, character upgrade, ...). */
typedef struct om_army_unit {
    char *id;            /* slug, unique within its section ("black-orcs") */
    char *name;          /* as printed ("Black Orcs") */
    om_army_type type;   /* normalised type */
    char *source_type;   /* the printed type when it differs ("Monstrous Mount"), or NULL */
    unsigned attacks;    /* combat Attacks per stand; for characters and mounts the bonus */
    unsigned shots;      /* shooting Attacks per stand (0: none) */
    unsigned range_cm;   /* shooting range in cm (0: none) */
    unsigned hits;       /* Hits per stand (0 for characters and mounts) */
    char *armour;        /* Armour as printed: "-", "4+", "-/6+" */
    uint8_t save;        /* the save the engine uses: 0 (none) or 3..6; a split print
                            ("-/6+", "4+/-") gives the better save, see army.c */
    unsigned command;    /* Command value (0: none) */
    unsigned size;       /* stands per unit (0 if not printed) */
    int points;          /* points per unit; for upgrades the cost added (may be < 0) */
    unsigned min, max;   /* per 1000 points; 0 = none / no limit */
    unsigned army_min, army_max; /* per army whatever its size, replacing min and max
                            when either is given (the General's exactly one); 0 = none */
    char **upgrades;     /* ids in the army's upgrades it may take */
    size_t upgrades_count; /* entries in upgrades */
    char **magic_item_upgrades; /* magic items the list allows it beyond its type's */
    size_t magic_item_upgrades_count; /* entries in magic_item_upgrades */
    char **rules;        /* special-rule ids (special-rules.yaml), sorted */
    size_t rules_count;  /* entries in rules */
    char *notes;         /* everything that did not fit a field, or NULL */
    bool is_upgrade;     /* from the `upgrades:` section */
} om_army_unit;

/* One spell of an army's wizards. */
typedef struct om_army_spell {
    char *id;          /* slug */
    char *name;        /* as printed */
    unsigned roll;     /* casting roll needed */
    unsigned range_cm; /* range in cm (0: none or special) */
    char *text;        /* the spell's text */
} om_army_spell;

/* One army list. Owns everything it points to. */
typedef struct om_army {
    char *source;        /* file name used in messages */
    char *ruleset;       /* rule set name ("warmaster-revolution") */
    char *id;            /* army id ("empire") */
    char *name;          /* army name ("Empire") */
    char *origin;        /* the `source:` field: which shared file, which version */
    char *list_version;  /* list version ("2.25", "2005 rulebook") */
    char *source_label;  /* the source's own version label */
    char *magic_items;   /* "allowed" or "none" */
    char *notes;         /* or NULL */
    char *army_rules;    /* army-wide rules verbatim, or NULL */
    om_army_unit *units; /* the units, in list order */
    size_t units_count;
    om_army_unit *upgrades; /* the upgrades, in list order */
    size_t upgrades_count;
    om_army_spell *spells;  /* the spells, in list order */
    size_t spells_count;
} om_army;

/*
 * om_army_parse: parse an army file (schema oddsmaster-army/1) of `len` bytes;
 * `source` names it in messages. Every value is checked: integers are plain
 * decimals in range, types are known, armour is a save ("-", "4+", "-/6+").
 * Errors: OM_EPARSE, OM_EINVAL, OM_ENOMEM, each "SOURCE:LINE: field 'PATH':
 * REASON" (PATH like "units[3].attacks"). On success *out is owned by the
 * caller (om_army_free).
 */
om_status om_army_parse(const char *source, const char *text, size_t len, om_army **out);

/*
 * om_army_load: parse the embedded list of army `army` of rule set `ruleset`.
 * Errors: OM_ENOTFOUND for an unknown rule set or army ("unknown
 * warmaster-revolution army 'emprie'; did you mean 'empire'?"), plus those of
 * om_army_parse.
 */
om_status om_army_load(const char *ruleset, const char *army, om_army **out);

/* Free an army (NULL allowed). */
void om_army_free(om_army *a);

/* The entry with this id: a unit, else an upgrade; NULL if there is none. */
const om_army_unit *om_army_unit_find(const om_army *a, const char *id);

/*
 * om_army_unit_lookup: as om_army_unit_find, but an unknown id is an error
 * OM_ENOTFOUND whose message names the army and suggests the nearest id
 * ("unknown unit 'knigths' in warmaster-revolution/empire; did you mean
 * 'knights'?") or lists the units.
 */
om_status om_army_unit_lookup(const om_army *a, const char *id, const om_army_unit **out);

/*
 * om_army_find: look up a reference "army/unit" in rule set `ruleset`: load
 * the army (*army, owned by the caller) and find the entry (*unit, pointing
 * into *army). Errors: OM_EPARSE if `ref` is not of the form army/unit,
 * OM_ENOTFOUND for an unknown rule set, army or unit (with suggestions), and
 * those of om_army_parse. On error *army is NULL.
 */
om_status om_army_find(const char *ruleset, const char *ref, om_army **army,
                       const om_army_unit **unit);

/*
 * om_army_rules_to_wm: map special-rule ids onto the engine's unit *u: each
 * id that om_wm_special_find knows adds its traits under rule set `rs` (NULL:
 * the rule's common traits) and is recorded (om_wm_unit_add_rule); every
 * other id is recorded as not modelled (om_wm_unit_add_unmodelled; ids
 * already there are not repeated). Nothing is dropped: if the list does not
 * fit, or two rules disagree on a one-of-several trait, the result is
 * OM_EINVAL with the engine's message.
 */
om_status om_army_rules_to_wm(char *const *ids, size_t n, const om_wm_ruleset *rs,
                              om_wm_unit *u);

/*
 * om_army_unit_to_wm: fill *out with a unit's values: name, troop type, stands
 * = the unit size, Attacks, shooting Attacks, range, Hits, the save (see
 * om_army_unit.save), the troop type's pace, points, and its special rules
 * under rule set `rs` (om_army_rules_to_wm). Errors: OM_EUNSUPPORTED if the entry's type is not a
 * troop type the engine fights with (a character, mount or other upgrade),
 * OM_EINVAL from om_army_rules_to_wm or for a name longer than the engine
 * keeps.
 */
om_status om_army_unit_to_wm(const om_army_unit *u, const om_wm_ruleset *rs, om_wm_unit *out);

/* One special rule of the registry (special-rules.yaml). */
typedef struct om_army_rule {
    char *id;            /* rule id as used by units */
    char *name;          /* as the lists print it */
    char **rulesets;     /* rule sets whose lists use it */
    size_t rulesets_count;
    char *summary;       /* one-line summary (a hand judgement) */
    bool implemented;    /* the registry says engine: implemented */
    bool affects_dice;   /* it changes engagement dice beyond the stat line */
    char **used_by;      /* "ruleset/army/section/unit" of every user */
    size_t used_by_count;
    char *text;          /* the rule's prose (first source) */
} om_army_rule;

/* The special-rule registry. Owns everything it points to. */
typedef struct om_army_rules {
    char *source;        /* file name used in messages */
    om_army_rule *rules; /* sorted by id */
    size_t count;
} om_army_rules;

/*
 * om_army_rules_parse: parse a special-rule registry (schema
 * oddsmaster-special-rules/1); om_army_rules_load: the embedded one. Errors as
 * om_army_parse. Free with om_army_rules_free.
 */
om_status om_army_rules_parse(const char *source, const char *text, size_t len,
                              om_army_rules **out);
om_status om_army_rules_load(om_army_rules **out);

/* Free a registry (NULL allowed). */
void om_army_rules_free(om_army_rules *r);

/* The rule with this id, or NULL. */
const om_army_rule *om_army_rules_find(const om_army_rules *r, const char *id);

/* The WHFB 7th edition tables (data only: no engine uses them yet). */
typedef enum om_army_table_kind {
    OM_ARMY_TABLE_PROFILES = 0, /* whfb7/profiles.yaml: characteristic profiles */
    OM_ARMY_TABLE_WEAPONS,      /* whfb7/weapons.yaml: weapons and special attacks */
    OM_ARMY_TABLE_COUNT
} om_army_table_kind;

/* A table of string cells, one row per source TSV row. Owns its cells. */
typedef struct om_army_table {
    char *source;             /* file name used in messages */
    char *ruleset;            /* "whfb7" */
    char *origin;             /* the `source:` field */
    char *list_version;       /* "7th edition rulebook" */
    const char *const *columns; /* column names (static), id and name first */
    size_t ncolumns;
    char **cells;             /* row-major, nrows * ncolumns, never NULL */
    size_t nrows;
} om_army_table;

/* The file below OM_ARMY_DATA_DIR holding a kind of table. */
const char *om_army_table_path(om_army_table_kind kind);

/*
 * om_army_table_parse: parse a WHFB7 table file of the given kind;
 * om_army_table_load: the embedded one. Errors as om_army_parse. Free with
 * om_army_table_free.
 */
om_status om_army_table_parse(om_army_table_kind kind, const char *source, const char *text,
                              size_t len, om_army_table **out);
om_status om_army_table_load(om_army_table_kind kind, om_army_table **out);

/* Free a table (NULL allowed). */
void om_army_table_free(om_army_table *t);

/* The cell of a row in the named column, or NULL if there is no such column. */
const char *om_army_table_cell(const om_army_table *t, size_t row, const char *column);

/*
 * om_army_file_check: parse an embedded file with the parser its path calls
 * for (an army list, the registry or a WHFB7 table) and free the result: the
 * test that every data file loads. Errors: those of the parsers.
 */
om_status om_army_file_check(const om_army_file *f);

#endif /* OM_ARMY_H */
