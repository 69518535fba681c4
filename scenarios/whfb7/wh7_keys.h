/*
 * wh7_keys.h: the keys of a Warhammer Fantasy Battles 7th edition scenario
 * file, in one table: every key of every level (top, unit, profile,
 * equipment, mount, character, side, mods, magic) with its type, its range or
 * words, its default and a line of help. `oddsmaster list --keys` prints it
 * (the game's `keys` hook, om_wh7_scenario_keys), docs/scenario-format.md
 * documents each row (tests/test_game.c checks it names every one), the
 * loader (wh7_load.c) takes the bounds of its signed values from it, and
 * tests/test_wh7_game.c holds it to the loader's schema: every key of the
 * table is read, every key read is in the table, each example loads, each
 * bound is enforced, and each default written out changes nothing.
 */
#ifndef OM_WH7_KEYS_H
#define OM_WH7_KEYS_H

#include <stddef.h>

#include "game.h"

/* Where a key is written. */
typedef enum om_wh7_key_level {
    OM_WH7_LEVEL_TOP = 0,   /* the document's top level */
    OM_WH7_LEVEL_UNIT,      /* a.unit and b.unit */
    OM_WH7_LEVEL_PROFILE,   /* a profile: in a unit, a mount, a character, magic.caster */
    OM_WH7_LEVEL_EQUIPMENT, /* a unit's or a character's equipment */
    OM_WH7_LEVEL_MOUNT,     /* a unit's or a character's mount (with the profile keys) */
    OM_WH7_LEVEL_CHARACTER, /* an entry of a unit's characters (with the profile keys) */
    OM_WH7_LEVEL_SIDE,      /* a and b */
    OM_WH7_LEVEL_MODS,      /* a.mods and b.mods */
    OM_WH7_LEVEL_MAGIC,     /* magic (kind magic) */
    OM_WH7_LEVEL_COUNT
} om_wh7_key_level;

/* The levels' names, as `list --keys` and the documentation's headings give
 * them ("top", "unit", ...). */
extern const char *const om_wh7_key_level_names[OM_WH7_LEVEL_COUNT];

/* What a key's value is. */
typedef enum om_wh7_key_type {
    OM_WH7_KEY_BOOL = 0,  /* true or false (yes/no, on/off) */
    OM_WH7_KEY_INT,       /* a decimal integer in lo..hi */
    OM_WH7_KEY_SAVE,      /* a save: 5+ or 5, none (or 0, "-"); lo+..hi+ */
    OM_WH7_KEY_NAME,      /* one word: of `names`, or of a registry its help names */
    OM_WH7_KEY_TEXT,      /* free text */
    OM_WH7_KEY_NAMES,     /* a list of words of a registry its help names */
    OM_WH7_KEY_MAPPING,   /* a mapping of the keys of another level */
    OM_WH7_KEY_MAPPINGS,  /* a list of such mappings */
    OM_WH7_KEY_UNIT_REF   /* army/unit of the list file */
} om_wh7_key_type;

/* One key of a scenario file. */
typedef struct om_wh7_key {
    const char *name;            /* as written, e.g. "files" */
    om_wh7_key_level level;      /* where it is written */
    om_wh7_key_type type;        /* what its value is */
    int lo, hi;                  /* INT and SAVE: the bounds the loader and the engine's
                                    check hold whatever the rest of the file says (a
                                    value may have to be narrower: wounds_lost below W) */
    const char *range;           /* INT: "lo..hi", then any narrower rule; else NULL */
    const char *const *names;    /* NAME: its words (an engine table); NULL for a
                                    registry's words (weapons, spells, ...) */
    size_t n_names;              /* entries of names */
    const char *dflt;            /* its value when left out, as a file would write it;
                                    NULL when it depends on other keys or is required */
    const char *fallback;        /* its default for people, dflt first when there is one */
    const char *example;         /* a value that loads in the tests' scenario of its
                                    level (tests/test_wh7_game.c) */
    const char *help;            /* one line */
} om_wh7_key;

/* The keys, by level in documentation order, then as docs/scenario-format.md
 * lists them. */
extern const om_wh7_key om_wh7_keys[];
extern const size_t om_wh7_key_count;

/* The key `name` of `level`, or NULL. Thread-safe. */
const om_wh7_key *om_wh7_key_find(om_wh7_key_level level, const char *name);

/*
 * om_wh7_scenario_keys: every key of a WHFB 7th edition scenario file as the
 * game interface lists them (game.h om_game_key, `where` a level name of
 * om_wh7_key_level_names), in the order of om_wh7_keys: fills out[0..cap)
 * (out may be NULL when cap is 0) and returns how many keys there are (all
 * of them when cap is large enough). The strings are static; thread-safe.
 */
size_t om_wh7_scenario_keys(om_game_key *out, size_t cap);

#endif /* OM_WH7_KEYS_H */
