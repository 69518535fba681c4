/*
 * game.h: the game interface: what the drivers, the result files, the matrix
 * runner and the command line need from a game family, and nothing more.
 *
 * A game family (Warmaster: 1.1, Revolution, Ancients; Warhammer Fantasy
 * Battles 7th edition) is one om_game descriptor, in the spirit of GSL's
 * gsl_rng_type and SQLite's sqlite3_vfs: chosen once per run, from the
 * scenario file's rule set. The descriptor is its identity (names, rule sets,
 * kinds) and one table of methods per concern, each documented below with
 * its contract:
 *
 *   scenario   load a scenario text, free it, prepare it for trials, release
 *   trials     resolve trials a block at a time (and by classes of trials)
 *   catalogue  the keys of its scenario files, its readings of ambiguous
 *              rules, what `oddsmaster list` shows of it and the names it
 *              takes
 *   matrix     matchup matrices: situations, units of a list, one cell
 *   battles    army list against army list: an optional group, with a
 *              version (army list files; battles from the command line)
 *   exact      the exact law of a prepared scenario's fields, where the game
 *              knows it: an optional group (NULL: none)
 *   narrate    one trial told in words and drawn: an optional group, with a
 *              version (NULL: the game tells none)
 *
 * Every user reaches a method through its group (g->trials->resolve_block),
 * so a group can grow, or a game leave an optional group out, without the
 * others changing. Methods are called once per scenario, per thread or per
 * block of thousands of trials, never inside a trial.
 *
 * The outcome of a trial is a row of bytes described by an om_layout
 * (engine/core/layout.h): a table of fields plus how each side's victory
 * points follow from a field. sim/ writes and tallies rows through the layout
 * alone, and analysis/ reads the fields back from the result file, so neither
 * names a game type. Two sides, A and B, meet in every game; how many units
 * each side has is the game's business.
 *
 * tests/test_game_contract.c runs every registered game (om_games) through
 * these contracts, the same checks for each: a new game passes or fails it.
 */
#ifndef OM_GAME_H
#define OM_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dice.h"
#include "exact.h"
#include "layout.h"
#include "options.h"
#include "picture.h"
#include "status.h"

typedef struct om_game om_game;

/* A situation of a matchup matrix: how a row unit (side A) meets a column
 * unit (side B). */
typedef struct om_game_situation {
    const char *name;        /* e.g. "a-charges" */
    const char *title;       /* for people, e.g. "A charges B in the open" */
    const char *keys;        /* what it sets, as scenario text, for the matrix file */
} om_game_situation;

/* A key of the game's scenario files, as `oddsmaster list --keys` shows it. */
typedef struct om_game_key {
    const char *name;             /* as written, e.g. "supports" */
    const char *where;            /* its level: "top", "unit", "side" (a and b), ... */
    const char *type;             /* what its value is: "true/false", "0..255", "name",
                                     "text", "list of names" */
    const char *const *values;    /* a name key's words (NULL otherwise) */
    size_t n_values;              /* entries of values */
    const char *fallback;         /* its value when left out, for people ("required",
                                     "0", "all its stands", ...) */
    const char *help;             /* one line */
} om_game_key;

/* A unit of a matchup matrix: what the matrix file shows of it, and the game's
 * own description of it, prepared once from the army data. */
typedef struct om_game_unit {
    char id[132];            /* "army/unit", e.g. "empire/knights" */
    char name[64];           /* display name */
    char army[64];           /* its army's display name, e.g. "Empire" */
    char troop[16];          /* troop type, e.g. "cavalry" */
    char data_version[64];   /* the version of its list, e.g. "warmaster-revolution lists 2.25" */
    uint32_t points;         /* points value (0: unknown) */
    bool can_shoot;          /* it has shooting attacks */
    char left_out[200];      /* why a matrix leaves it out ("": it takes part), e.g. the
                                army data give it an impossible value */
    void *data;              /* the game's unit (owned by the list of units; NULL when
                                left out) */
} om_game_unit;

/* Longest option name or value of a setting, with its NUL: option names are
 * at most 30 bytes, values a word or a number. */
#define OM_GAME_SETTING_MAX 64

/* Most settings one matrix may carry (every switch of a game, and more). */
#define OM_GAME_SETTINGS_MAX 32

/*
 * A reading of an ambiguous rule set for every cell of a matrix (`matrix
 * --option KEY=VALUE`): the name of one of the game's switches (options.h)
 * and its value, in the words a scenario's `options:` takes, checked and
 * normalised by om_game_settings_parse ("true", "false" or a decimal count).
 */
typedef struct om_game_setting {
    char key[OM_GAME_SETTING_MAX];   /* the switch, e.g. "last_ditch_per_stand" */
    char value[OM_GAME_SETTING_MAX]; /* its value, normalised, e.g. "true" */
} om_game_setting;

/* Bits of what a matrix cell asks that a unit cannot do (its troop type has no
 * part in the situation: artillery in a melee, a unit without missiles asked to
 * shoot, cavalry asked to hold a defended position). */
enum { OM_GAME_ROW_CANNOT = 1, OM_GAME_COL_CANNOT = 2 };

/* A kind of scenario a game simulates ("combat", "engagement", ...). */
typedef struct om_game_kind {
    const char *name;        /* as written in scenario files */
    const char *description; /* one sentence */
    const char *sample;      /* a small scenario of this kind, as file text, that loads and
                                runs: where a new user may start, and what the conformance
                                test loads, spoils and runs */
} om_game_kind;

/*
 * A scenario loaded from its text, of any game. Owns every string and the
 * game's own description (`setup`), freed by om_scenario_free.
 */
typedef struct om_scenario {
    const om_game *game;   /* its game family */
    char *source;          /* file path, OM_SCENARIO_DEFAULT_NAME or OM_SCENARIO_STDIN_NAME */
    char *text;            /* the file text verbatim (NUL-terminated) */
    char *title;           /* its title */
    const char *ruleset;   /* rule set name (static storage of the game) */
    const char *kind;      /* kind name (static storage of the game) */
    char *provenance_json; /* every value resolved (defaults included), the options and
                              the rules in force, as JSON: recorded in result files; a
                              top-level "warnings" array of strings, if any, holds lines
                              the summary prints as not modelled */
    char *warnings;        /* lines the user should read before the odds (rules not
                              modelled), each ending in '\n'; NULL if none */
    void *setup;           /* the game's description of the scenario */
} om_scenario;

/*
 * A scenario prepared for trials: the game's read-only tables and the layout
 * of its rows. Built once per run (om_trials_prepare), shared by every thread.
 * The layout's strings (the sides' names) belong to the scenario: use the
 * trials only while their scenario is loaded.
 */
typedef struct om_trials {
    const om_game *game; /* its game family */
    void *prepared;      /* the game's prepared scenario */
    om_layout layout;    /* the rows its trials write */
    const uint8_t *class_rows; /* the classes of its trials, rows known when it is
                            prepared (a first round drawn from its table, say): class
                            k's row at class_rows + k * layout.row_size, owned by
                            `prepared`; NULL when none */
    size_t n_classes;    /* classes (0: none; at most OM_LAYOUT_CLASSES_MAX) */
} om_trials;

/* How `oddsmaster list --format json` writes a column's cells. */
typedef enum om_game_cell_type {
    OM_GAME_CELL_TEXT = 0, /* a string */
    OM_GAME_CELL_INT,      /* an integer ("-" or "": null) */
    OM_GAME_CELL_BOOL      /* "yes" true, anything else false */
} om_game_cell_type;

/* A table of what a game holds (profiles, weapons, ...), as text cells, for
 * `oddsmaster list`, which prints it padded or as JSON objects keyed by the
 * column names. Owns every string. */
typedef struct om_game_table {
    char *key;                /* JSON key of the table, e.g. "profiles" */
    char *title;              /* heading printed above it (one line, or lines joined by
                                 '\n'), after a blank line unless it opens the listing */
    size_t ncols;             /* columns */
    char **columns;           /* column names (JSON keys) */
    om_game_cell_type *types; /* each column's JSON type */
    size_t nrows;             /* rows */
    size_t cap;               /* rows allocated */
    char **cells;             /* row-major, nrows * ncols */
    char *note;               /* text printed right under its rows as it is (lines ending
                                 in '\n', blank lines its own), or NULL; not in JSON */
} om_game_table;

/* A JSON value (jansson's json_t), for a listing whose JSON the game builds. */
struct json_t;

/*
 * What `oddsmaster list` shows of a game: heading lines, tables, closing
 * lines. Build it with om_game_listing_alloc and the helpers below; free it
 * with om_game_listing_free.
 *
 * As JSON it is, after the schema, either the game's own members (`json`
 * set: an object whose shape the tables cannot carry, such as an army with
 * the lists of each unit) or, by default, the game, rule set, name, heading
 * and footer followed by each table as an array of objects under its key.
 */
typedef struct om_game_listing {
    char *heading;         /* printed first (lines ending in '\n'), or NULL */
    size_t ntables;        /* tables */
    om_game_table *tables; /* the tables, in order */
    char *footer;          /* printed last, after a blank line, or NULL */
    struct json_t *json;   /* the members of its JSON document (an object, owned), or
                              NULL: the tables are its JSON */
} om_game_listing;

/* ---------------------------------------------------------------------------
 * The groups of a game's descriptor.
 */

/* Identity: what the game is called, its rule sets and the kinds of scenario
 * it simulates. Static data of the game, read by everyone. */
typedef struct om_game_identity {
    const char *name;            /* e.g. "warmaster": result files record it */
    const char *title;           /* e.g. "Warmaster (1.1, Revolution, Ancients)" */
    const char *const *rulesets; /* its rule set names, NULL-terminated, at least one; no
                                    two games share one (om_game_for_ruleset) */
    const om_game_kind *kinds;   /* every kind its scenario files may name, each with a
                                    sample */
    size_t n_kinds;              /* entries of kinds, at least one */
} om_game_identity;

/* Scenario lifecycle: a text becomes a scenario (load), a scenario becomes
 * trial tables (prepare). Every method is set. None keeps state between
 * calls; each is thread-safe for distinct arguments. */
typedef struct om_game_scenario_methods {
    /* Fill sc->setup, title, ruleset, kind, provenance_json and warnings from
     * sc->text (sc->source names it in messages); sc->game is set. On error
     * whatever it set is freed with the scenario (om_scenario_free). Errors:
     * those of the game's loader, each with a "FILE:LINE: field 'F': REASON"
     * message: OM_EPARSE (malformed text, an unknown key, a word that is not
     * one of the key's), OM_EINVAL (an impossible value), OM_ENOTFOUND (an
     * unknown rule set, army or unit, with a suggestion), OM_EUNSUPPORTED,
     * OM_ENOMEM. */
    om_status (*load)(om_scenario *sc);
    /* Free a setup made by load (NULL allowed). */
    void (*setup_free)(void *setup);
    /* Build the trial tables and the layout of sc into *out, whose `game` is
     * set and the rest zero: out->prepared (the game's), out->layout, and the
     * classes (class_rows, n_classes) if its trials have any. On error
     * nothing is left to release (out->prepared NULL). Errors: OM_EINVAL (the
     * engine's check), OM_ENOMEM. */
    om_status (*prepare)(const om_scenario *sc, om_trials *out);
    /* Free what prepare built (t->prepared, not NULL). */
    void (*release)(om_trials *t);
} om_game_scenario_methods;

/* Trials: the only methods a run calls more than once, once per block of
 * trials (thousands of them), never inside one. Pure apart from the dice and
 * the workspace: a trial's row depends on the prepared scenario and the dice
 * stream alone, so the same stream gives the same rows on any thread. */
typedef struct om_game_trial_methods {
    /* A thread's workspace for the resolve methods, made once per thread of
     * a run. NULL (with work_free): the game needs none, and `work` is NULL.
     * Errors: OM_ENOMEM. */
    om_status (*work_alloc)(const void *prepared, void **work);
    /* Free a workspace made by work_alloc (NULL allowed). */
    void (*work_free)(void *work);
    /* Simulate n trials with dice d and the thread's workspace `work`, writing
     * row i at rows + i * row_size. Pure apart from advancing d and using
     * work; thread-safe for distinct d, work and rows. Always set. */
    void (*resolve_block)(const void *prepared, void *work, om_dice *d, uint8_t *rows, size_t n);
    /* The same n trials with the same dice and workspace, and each trial's
     * class: cls[i] = k when trial i's row is class k's (om_trials.class_rows),
     * else OM_LAYOUT_NO_CLASS. The row of a trial of a class is written only if
     * `class_rows`; every other row is. NULL for a game whose trials never
     * have classes; called only for trials with n_classes > 0. */
    void (*resolve_classes)(const void *prepared, void *work, om_dice *d, uint8_t *rows,
                            uint16_t *cls, bool class_rows, size_t n);
    /* resolve_classes of two blocks at once, block j's n[j] trials with dice
     * d[j] into rows[j] and cls[j]: the same rows, classes and dice as the
     * two calls one after the other, in less time (the two blocks' draws
     * interleaved). d[0] and d[1] distinct. NULL where resolve_classes is. */
    void (*resolve_classes2)(const void *prepared, void *work, om_dice *const d[2],
                             uint8_t *const rows[2], uint16_t *const cls[2], bool class_rows,
                             const size_t n[2]);
} om_game_trial_methods;

/* What the catalogue's `names` calls for each name: `more` when names lie
 * under it. */
typedef void (*om_game_name_fn)(void *ctx, const char *name, bool more);

/* Catalogue: what the game tells people about itself, for `oddsmaster list`.
 * Read-only; every method is thread-safe. */
typedef struct om_game_catalogue_methods {
    /* Fill keys[0..cap) with the keys of its scenario files and return how
     * many there are (all of them when cap is large enough; keys may be NULL
     * when cap is 0). Every key has a name, a level, a type and a help line;
     * a key of type "name" lists its words in `values`, or (words that are
     * ids of the game's data) says in its help which `oddsmaster list` shows
     * them. Always set. */
    size_t (*keys)(om_game_key *keys, size_t cap);
    /* `oddsmaster list --options`: the registries of its readings of
     * ambiguous rules (options.h; NULL-terminated), each with its rows, and
     * the heading of the game's part of the listing. */
    const om_option_table *const *option_tables;
    const char *options_title;
    /* What the game holds, for `oddsmaster list`, into *out
     * (om_game_listing_free):
     *   ruleset one of its own: `oddsmaster list RULESET[/WHAT]` (`what` NULL
     *     or "" for the rule set's overview), or with `rules` set `oddsmaster
     *     list --rules RULESET`;
     *   ruleset NULL: the game's part of `oddsmaster list` (no name) or, with
     *     `rules`, of `oddsmaster list --rules`, which show every game's part
     *     in om_games order; *out NULL: it adds nothing there;
     *   ruleset no game's: `oddsmaster list` asks the first game, which
     *     reports it (OM_ENOTFOUND, with a suggestion: the rule set an army of
     *     that name is in, say).
     * Always set. Errors: OM_ENOTFOUND (an unknown name, with a suggestion),
     * OM_ENOMEM. */
    om_status (*list)(const char *ruleset, const char *what, bool rules, om_game_listing **out);
    /* The names one level under RULESET/WHAT of `oddsmaster list` (what the
     * shell completes there): with `what` NULL or "", the rule set's own (an
     * army, a table of the game); else those under it (an army's units and
     * upgrades, a table's entries), none for a name with nothing under it.
     * Calls each(ctx, name, more) once a name, in the listing's order, `more`
     * true when names lie under RULESET/WHAT/NAME in turn; every name it
     * gives lists (`list` of RULESET/WHAT/NAME succeeds). `ruleset` is one of
     * the game's own. Always set. Errors: OM_ENOTFOUND (an unknown `what`,
     * with a suggestion), OM_ENOMEM. */
    om_status (*names)(const char *ruleset, const char *what, om_game_name_fn each, void *ctx);
} om_game_catalogue_methods;

/* Matchup matrices: every unit of one list against every unit of another, in
 * one or more situations, each cell an ordinary scenario built from the two
 * units. Every member is set. */
typedef struct om_game_matrix_methods {
    /* The situations (at least one; the first n_default of them are the
     * default set, at least one). */
    const om_game_situation *situations;
    size_t n_situations;
    size_t n_default_situations;
    const char *const *kinds;  /* the kinds a matrix may run (kinds of the game),
                                  NULL-terminated; the first is the default */
    const char *sample_units;  /* a few units of its first rule set in its list grammar,
                                  e.g. "empire/knights,halberdiers": what the conformance
                                  test builds cells from */
    /* Append to *units the units of `spec` in `ruleset` (the game's list
     * grammar: docs/manual.md, "Matchup matrices"). Errors: OM_ENOTFOUND (unknown army
     * or unit, with a suggestion), OM_EINVAL (a character, a unit listed twice,
     * a list without units), OM_ENOMEM. */
    om_status (*units)(const char *ruleset, const char *spec, om_game_unit **units, size_t *n);
    /* Free units made by units (NULL allowed). */
    void (*units_free)(om_game_unit *units, size_t n);
    /* The scenario of unit `row` against unit `col` in situation `sit` of kind
     * `kind`, built from the units' data, with the readings settings[0..n)
     * (checked by om_game_settings_parse) in force, and with its text (what
     * `run` of it means: loading that text, whose `options:` holds the
     * settings, gives the same scenario); *cannot gets the OM_GAME_*_CANNOT
     * bits. Errors: OM_EINVAL (the engine's check; a setting of the game
     * that cells of this kind do not read, such as a reading of whole
     * turns, naming it), OM_ENOMEM. */
    om_status (*cell)(const char *ruleset, const char *kind, size_t sit, const om_game_unit *row,
                      const om_game_unit *col, const om_game_setting *settings,
                      size_t n_settings, uint64_t seed, om_scenario **out, unsigned *cannot);
} om_game_matrix_methods;

/* A battle as the command line asks for it: two lists and how it is fought.
 * NULL (or 0) for what the game decides by default. The *_word members are
 * the words the user typed for each (an operand, an option) to name in
 * messages. */
typedef struct om_game_battle_spec {
    const char *list[2];        /* each side's list: an example's name or a file path */
    const char *list_word[2];   /* e.g. "LIST_A" */
    const char *doctrine[2];    /* each side's doctrine, or NULL */
    const char *doctrine_word[2]; /* e.g. "--doctrine-a" */
    const char *length;         /* the game length method, or NULL */
    unsigned turns;             /* turns of a fixed length (0: none given) */
    const char *first;          /* who takes the first turn, or NULL */
    const char *zones;          /* the deployment zones (Warmaster: a-south, a-north; the
                                   scenario key `zones`, checked as the file is loaded), or
                                   NULL */
    const char *terrain;        /* how the terrain is laid out (a generating method), or NULL */
    const char *deployment;     /* how the armies set up, or NULL */
    const char *title;          /* the battle's title, or NULL */
    const char *scenario;       /* the scenario fought (Warmaster: take-and-hold, ...), or NULL */
    const char *scenario_version; /* its version (revolution, battlefields), or NULL */
} om_game_battle_spec;

/*
 * Battles: army list against army list over whole turns. An optional
 * group: a game without battles leaves its pointer NULL. Its methods are
 * added at the end of this struct, each with the version that added it; a
 * user reads a method only when `version` is at least that version (as
 * SQLite reads a VFS's methods by its iVersion), so a game written for an
 * earlier version keeps working.
 */
typedef struct om_game_battle_methods {
    int version; /* methods present: 0 (none yet) up to OM_GAME_BATTLES_VERSION */
    /* Version 1: army list files, the armies a battle is fought between. */
    const char *list_schema; /* the schema value of its list files */
    /* The keys of its list files as `oddsmaster list --keys` shows keys,
     * as the catalogue's `keys`. */
    size_t (*list_keys)(om_game_key *keys, size_t cap);
    /* `oddsmaster list FILE`: check the list file `source` (`len` bytes of
     * text) against its army's rules and describe its units and points into
     * *out (om_game_listing_free). Thread-safe. Errors, each "FILE:LINE:
     * field 'F': REASON": OM_EPARSE, OM_EINVAL (a rule of the list broken),
     * OM_ENOTFOUND (an unknown army, unit or item, with a suggestion),
     * OM_ENOMEM. */
    om_status (*list_file)(const char *source, const char *text, size_t len,
                           om_game_listing **out);
    /* Version 2: a battle from the command line (`oddsmaster battle`). */
    /* The name of its i-th example list, compiled into the program (what a
     * list may be named by instead of a file), NULL past the last. */
    const char *(*example_at)(size_t i);
    /* The text of the scenario file of the battle `spec` asks for, into *text
     * (malloc'd): what `run` of that text does is the battle. Each list is
     * checked first (an example of the game, or a readable list file whose
     * rules hold: its own "FILE:LINE: field 'F'" errors), then that both are
     * of one rule set, and every name of the spec, each error naming the
     * command line's word for it (spec->list_word, spec->doctrine_word, ...).
     * A list file is written into the text by its absolute path, so that the
     * text loads (and a run of it resumes) from any directory. Thread-safe.
     * Errors: OM_ENOTFOUND (an unknown example, doctrine or length method,
     * with "did you mean"), OM_EINVAL (lists of two rule sets, a turn count
     * without a fixed length or out of range, a list's rule broken),
     * OM_EPARSE, OM_EIO (a list file unreadable), OM_ENOMEM. */
    om_status (*battle_text)(const om_game_battle_spec *spec, char **text);
    /* Version 3: the doctrines a side may play (`oddsmaster list
     * --doctrines`). With `text` NULL, the named doctrines compiled into the
     * program; otherwise the doctrine file `source` (`len` bytes of `text`),
     * checked as a battle reads it. Each as a row of a table keyed
     * "doctrines": its name, aim (what it maximises) and summary line, into
     * *out (om_game_listing_free). Thread-safe. Errors: those of the game's
     * doctrine files, each "FILE:LINE: field 'F': REASON" (OM_EPARSE,
     * OM_EINVAL, OM_ENOTFOUND), OM_ENOMEM. */
    om_status (*doctrines)(const char *source, const char *text, size_t len,
                           om_game_listing **out);
} om_game_battle_methods;

/* The newest version of the battles group this build knows. */
#define OM_GAME_BATTLES_VERSION 3

/*
 * Exact laws: an optional group (NULL: the game computes none). Where the
 * engine holds the law of a trial's fields, it gives P(field = v) exactly,
 * computed from the rules' probabilities (by enumerating every outcome of
 * the trial's dice, engine/core/exact.h), not from simulation: a run records
 * it beside its estimates and the summary prints both. Called once per run,
 * before any trial, never by the driver.
 */
typedef struct om_game_exact_methods {
    /* The exact law of the fields of the prepared scenario `prepared`, whose
     * layout is `layout`, into `law` (allocated for the layout, every field
     * unknown): each field whose law the game knows is marked known with its
     * P(= v); law->method says how they were computed and law->reason why the
     * others have no exact law ("" when every field has one). At most
     * OM_EXACT_RUNS_MAX outcomes are enumerated. Thread-safe for distinct
     * laws. Errors: OM_EUNSUPPORTED (no field's law is known for this
     * scenario: a kind whose law is not computed, or dice that cannot be
     * enumerated or have too many outcomes; the message says why), OM_ENOMEM. */
    om_status (*law)(const void *prepared, const om_layout *layout, om_exact *law);
} om_game_exact_methods;

/*
 * Narration: one trial of a run told event by event, so that a reader sees
 * why it went as it did (`oddsmaster replay`). An optional group (NULL: the
 * game tells no trial), read by its version as the battles group is. The
 * driver (sim/run.h, om_run_replay) puts the dice where the run had them as
 * the trial began; the game plays the trial with its events kept and tells
 * them.
 */
typedef struct om_game_narrate_methods {
    int version; /* methods present: 1 up to OM_GAME_NARRATE_VERSION */
    /* Version 1. (The margin `replay --typical` takes the median of is the
     * difference of the layout's score fields, om_layout.score_field.) */
    /* Whether prepared scenario `prepared` is of a kind the game tells (a
     * battle); false: narrate refuses it. */
    bool (*tells)(const void *prepared);
    /* Play one trial of `prepared` with dice `d` (as the run had them when the
     * trial began), writing its row to `row` (layout.row_size bytes: the row
     * the run recorded, to be compared with the file's) and telling it in
     * English to `out` (not NULL). With `picture` not NULL, the battlefield
     * at the end of battle turn `picture_turn` (0: as deployed; a turn past
     * the last: the end) goes there. Allocates its workspace itself (called
     * once, never in a run). Errors: OM_EUNSUPPORTED (a kind it does not
     * tell), OM_EIO (writing `out` failed), OM_ENOMEM. */
    om_status (*narrate)(const void *prepared, om_dice *d, uint8_t *row, FILE *out,
                         unsigned picture_turn, om_picture *picture);
} om_game_narrate_methods;

/* The newest version of the narrate group this build knows. */
#define OM_GAME_NARRATE_VERSION 1

/* A game family: its identity and one table of methods per concern. Every
 * group is set except `battles`, `exact` and `narrate` (optional). */
struct om_game {
    om_game_identity identity;                   /* names, rule sets, kinds */
    const om_game_scenario_methods *scenario;    /* load, prepare */
    const om_game_trial_methods *trials;         /* resolve blocks of trials */
    const om_game_catalogue_methods *catalogue;  /* keys, options, listings */
    const om_game_matrix_methods *matrix;        /* matchup matrices */
    const om_game_battle_methods *battles;       /* whole battles, or NULL */
    const om_game_exact_methods *exact;          /* exact laws, or NULL */
    const om_game_narrate_methods *narrate;      /* one trial told, or NULL */
};

/* Name used for the embedded default in messages and result files. */
#define OM_SCENARIO_DEFAULT_NAME "<embedded default>"

/* The path that means standard input, and the name a scenario read from it
 * has in messages and result files. */
#define OM_SCENARIO_STDIN_PATH "-"
#define OM_SCENARIO_STDIN_NAME "<stdin>"

/* The most rule sets of all games together. */
#define OM_GAME_RULESETS_MAX 32

/* Every game family, in the order `oddsmaster list` shows them. */
extern const om_game *const om_games[];
extern const size_t om_game_count;

/* The game whose rule set is `ruleset`, or NULL. */
const om_game *om_game_for_ruleset(const char *ruleset);

/*
 * om_game_settings_parse: the readings texts[0..n) of game g, each
 * "KEY=VALUE" as `matrix --option` takes it, into out[0..n): KEY a switch of
 * one of g's registries (catalogue.option_tables, `oddsmaster list
 * --options`), VALUE what a scenario's `options:` accepts for it (true/false,
 * yes/no, on/off for a bool switch, an integer 0..max for a count), written
 * back as "true", "false" or the decimal count. Thread-safe. Errors, each
 * message beginning "--option TEXT: ": OM_EINVAL (no '=', an empty or too
 * long key or value, a key given twice, more than OM_GAME_SETTINGS_MAX, a
 * fixed reading, which cannot be switched, a switch of another game, naming
 * that game, a value of the wrong kind or out of range, with the nearest
 * word), OM_ENOTFOUND (a name of no game, with the nearest switch of g or
 * the list of them).
 */
om_status om_game_settings_parse(const om_game *g, const char *const *texts, size_t n,
                                 om_game_setting *out);

/*
 * om_scenario_load_text: load `len` bytes of scenario text; `source` names it
 * in messages. The rule set named in the text chooses the game; a rule set
 * of no game's is OM_ENOTFOUND ("SOURCE:LINE: field 'ruleset': ...", with the
 * nearest rule set of any game), and a text without one goes to the first
 * game, whose loader reports what is wrong. On success *out is owned by the
 * caller (om_scenario_free). Errors: those of the game's load (OM_EPARSE,
 * OM_EINVAL, OM_ENOTFOUND, OM_EUNSUPPORTED, OM_ENOMEM).
 */
om_status om_scenario_load_text(const char *source, const char *text, size_t len,
                                om_scenario **out);

/* om_scenario_load_file: the same for the file at `path` (OM_EIO if
 * unreadable); `path` "-" (OM_SCENARIO_STDIN_PATH) reads standard input to its
 * end, and names the scenario OM_SCENARIO_STDIN_NAME in messages and in
 * the scenario's `source`. Not thread-safe for "-" (it reads stdin). */
om_status om_scenario_load_file(const char *path, om_scenario **out);

/* om_scenario_load_default: the embedded default scenario. */
om_status om_scenario_load_default(om_scenario **out);

/* Free a scenario (NULL allowed). */
void om_scenario_free(om_scenario *sc);

/*
 * om_game_list_file: `oddsmaster list FILE`: read the army list file at
 * `path` ("-": standard input), choose its game by its rule set as a
 * scenario's, and have the game check and describe it (the battles group's
 * list_file) into *out (om_game_listing_free). Errors: OM_EIO (unreadable),
 * OM_ENOTFOUND (a rule set of no game's, with a suggestion), OM_EINVAL (a
 * game without army list files), and those of list_file. Not thread-safe
 * for "-".
 */
om_status om_game_list_file(const char *path, om_game_listing **out);

/*
 * om_game_battle_text: the scenario text of the battle `spec` asks for
 * (malloc'd, into *text), from the game of its first list: the game whose
 * rule set a list file names, or whose example lists include the name. An
 * unknown example name is answered with the nearest example of any game.
 * The text is then loaded as any scenario's (om_scenario_load_text).
 * Thread-safe. Errors: OM_ENOTFOUND (an unknown example list, with a
 * suggestion; a rule set of no game's), OM_EINVAL (a game without battles
 * from the command line), OM_EIO, and those of the game's battle_text.
 */
om_status om_game_battle_text(const om_game_battle_spec *spec, char **text);

/* The name of the i-th example list of every game with battles from the
 * command line, in om_games order, NULL past the last (completion, help). */
const char *om_game_battle_example_at(size_t i);

/*
 * om_game_list_doctrine_file: `oddsmaster list --doctrines FILE`: read the
 * doctrine file at `path` ("-": standard input) and have the first game
 * whose battles list doctrines (battles version 3) check and describe it
 * into *out (om_game_listing_free); a doctrine file names no rule set.
 * Errors: OM_EIO (unreadable), OM_EINVAL (no game lists doctrines), and those
 * of the game's doctrines. Not thread-safe for "-".
 */
om_status om_game_list_doctrine_file(const char *path, om_game_listing **out);

/* Does `name` (an operand of `oddsmaster list`) name a file rather than
 * RULESET[/WHAT]: "-", or a name ending in ".yaml" or ".yml"? */
bool om_game_list_is_file(const char *name);

/*
 * om_trials_prepare: prepare `sc` for trials (its game's prepare). Free with
 * om_trials_release. Errors: those of the game's prepare.
 */
om_status om_trials_prepare(const om_scenario *sc, om_trials *out);

/* Free what om_trials_prepare built (a zeroed t allowed). */
void om_trials_release(om_trials *t);

/*
 * om_trials_exact: the exact law of the fields of t's trials, as its game
 * knows it (the exact group), into a new *out (om_exact_free). On OM_OK some
 * fields are known ((*out)->reason says why the others are not, if any). On
 * OM_EUNSUPPORTED none is, and *out is set all the same, its reason the
 * error's message: a game without the group, a kind whose law it does not
 * compute, dice it cannot enumerate, or any other failure of the game's law
 * but memory (a run goes on without the law). Errors: OM_EUNSUPPORTED,
 * OM_ENOMEM (*out NULL).
 */
om_status om_trials_exact(const om_trials *t, om_exact **out);

/*
 * om_game_listing_alloc: an empty listing whose heading is `heading` (copied;
 * NULL for none). Errors: OM_ENOMEM. Free with om_game_listing_free.
 */
om_status om_game_listing_alloc(const char *heading, om_game_listing **out);

/*
 * om_game_listing_table: append a table keyed `key` with heading `title` and
 * columns names[0..ncols) of types[0..ncols) (NULL: all text) to `l`; *out
 * (if not NULL) points to it until the next table is added. Errors:
 * OM_ENOMEM.
 */
om_status om_game_listing_table(om_game_listing *l, const char *key, const char *title,
                                size_t ncols, const char *const *names,
                                const om_game_cell_type *types, om_game_table **out);

/* om_game_table_row: append a row of t->ncols cells (NULL cells are ""), copied.
 * Errors: OM_ENOMEM. */
om_status om_game_table_row(om_game_table *t, const char *const *cells);

/* om_game_listing_footer: set the closing text of `l` (copied). Errors: OM_ENOMEM. */
om_status om_game_listing_footer(om_game_listing *l, const char *footer);

/* om_game_table_note: set the text printed under the rows of `t` (copied).
 * Errors: OM_ENOMEM. */
om_status om_game_table_note(om_game_table *t, const char *note);

/* om_game_listing_json: make `members` (a JSON object, whose reference the
 * listing takes, even on error) the members of the JSON of `l`. Errors:
 * OM_ENOMEM (members NULL: jansson ran out of memory building it). */
om_status om_game_listing_json(om_game_listing *l, struct json_t *members);

/* Free a listing (NULL allowed). */
void om_game_listing_free(om_game_listing *l);

#endif /* OM_GAME_H */
