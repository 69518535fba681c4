/*
 * wm_armylist.h: army list files of Warmaster (1.1, Revolution, Ancients):
 * an army chosen from its list, unit by unit, with its characters, their
 * mounts and magic items and the upgrades the list offers, checked against
 * the list's rules, and loaded into a plain struct that a battle deploys
 * (docs/scenario-format.md, "Army list files"; docs/manual.md, "Army lists").
 *
 * The units' values come from the army data (army.h), their stat lines as
 * the engine fights them (om_army_unit_to_wm). The magic items are the
 * common list of the Warmaster rulebooks (Warmaster Revolution, Magic
 * Items), a table of this module: Warmaster Ancients has none.
 *
 * Everything here is thread-safe: no global mutable state.
 */
#ifndef OM_WM_ARMYLIST_H
#define OM_WM_ARMYLIST_H

#include <stdbool.h>
#include <stddef.h>

#include "army.h"
#include "game.h"
#include "status.h"
#include "table.h"
#include "wm.h"

/* Schema identifier of an army list file. */
#define OM_WM_ARMYLIST_SCHEMA "oddsmaster-wm-list/1"

/* Longest id (unit, upgrade, item) a list keeps, with its NUL. */
#define OM_WM_ARMYLIST_ID_MAX 48

/* Most upgrades one unit or character takes (besides a mount). */
#define OM_WM_ARMYLIST_UPGRADES_MAX 4

/* Most special rules a character carries, its own, its mount's and its
 * upgrades' together. */
#define OM_WM_ARMYLIST_CHARACTER_RULES_MAX 16

/* Largest points limit a list may give, and most units of one entry. */
#define OM_WM_ARMYLIST_POINTS_MAX 100000
#define OM_WM_ARMYLIST_COUNT_MAX 99

/* The three kinds of magic item (Warmaster Revolution, Magic Items). */
typedef enum om_wm_item_kind {
    OM_WM_ITEM_STANDARD = 0, /* Magic Standards */
    OM_WM_ITEM_WEAPON,       /* Magic Weapons */
    OM_WM_ITEM_DEVICE,       /* Devices of Power */
    OM_WM_ITEM_KIND_COUNT
} om_wm_item_kind;

/* Who may carry an item. */
typedef enum om_wm_item_bearer {
    OM_WM_BEARER_UNIT = 0,        /* an infantry, cavalry or chariot unit */
    OM_WM_BEARER_UNIT_OR_CHARACTER, /* such a unit or any character */
    OM_WM_BEARER_GENERAL,         /* the General only */
    OM_WM_BEARER_WIZARD,          /* a Wizard only */
    OM_WM_BEARER_WIZARD_OR_RUNESMITH, /* a Wizard or a Dwarf Runesmith */
    OM_WM_BEARER_COUNT
} om_wm_item_bearer;

/* One magic item of the common list. */
typedef struct om_wm_item {
    const char *id;           /* "sword-of-might" */
    const char *name;         /* "Sword of Might" */
    om_wm_item_kind kind;
    om_wm_item_bearer bearer;
    unsigned points;          /* its cost */
    om_wm_magic magic;        /* the engine's model of its dice effect, or
                                 OM_WM_MAGIC_NONE (not modelled in an engagement) */
} om_wm_item;

/* Number of magic items, the i-th (NULL past the end), and the one with this
 * id (NULL if none). */
size_t om_wm_item_count(void);
const om_wm_item *om_wm_item_at(size_t i);
const om_wm_item *om_wm_item_find(const char *id);

/* Name of a bearer class, for messages ("the General"). */
const char *om_wm_item_bearer_name(om_wm_item_bearer b);

/* One unit of a list, as a battle deploys it: an entry with `count: 3` gives
 * three of these. */
typedef struct om_wm_armylist_unit {
    char id[OM_WM_ARMYLIST_ID_MAX];   /* its id in the army list ("halberdiers") */
    char item[OM_WM_ARMYLIST_ID_MAX]; /* its magic item's id, or "" */
    char upgrades[OM_WM_ARMYLIST_UPGRADES_MAX][OM_WM_ARMYLIST_ID_MAX]; /* ids taken */
    unsigned n_upgrades;
    om_army_type type;                /* its type in the list (a troop type) */
    om_wm_unit unit;                  /* its stat line as the engine fights it, points
                                         included; an upgrade with a stat line of its
                                         own gives its values */
    om_wm_magic magic;                /* its item's modelled effect, or OM_WM_MAGIC_NONE */
    unsigned points;                  /* what it costs: unit, upgrades and item */
    unsigned entry;                   /* its entry in the file's `units` */
    size_t line;                      /* the line of that entry */
} om_wm_armylist_unit;

/* One character of a list. */
typedef struct om_wm_armylist_character {
    char id[OM_WM_ARMYLIST_ID_MAX];    /* its id in the army list ("general") */
    char name[32];                     /* as the list prints it */
    char mount[OM_WM_ARMYLIST_ID_MAX]; /* its mount's id, or "" */
    char item[OM_WM_ARMYLIST_ID_MAX];  /* its magic item's id, or "" */
    char upgrades[OM_WM_ARMYLIST_UPGRADES_MAX][OM_WM_ARMYLIST_ID_MAX]; /* ids taken */
    unsigned n_upgrades;
    char rules[OM_WM_ARMYLIST_CHARACTER_RULES_MAX][OM_WM_ARMYLIST_ID_MAX]; /* special-rule
                                          ids of it, its mount and its upgrades, each once */
    unsigned n_rules;
    om_army_type type;                 /* general, hero or wizard */
    om_wm_character_kind kind;         /* how it gives orders (om_army_character_kind) */
    unsigned command;                  /* Command value */
    unsigned attacks;                  /* bonus Attacks to a unit it joins, mount's included */
    bool flying;                       /* its mount flies (rule fly) */
    unsigned points;                   /* what it costs: itself, mount, upgrades, item */
    unsigned entry;                    /* its entry in the file's `characters` */
    size_t line;                       /* the line of that entry */
} om_wm_armylist_character;

/* A loaded army list. Owns everything it points to. */
typedef struct om_wm_armylist {
    char *source;                       /* file name used in messages */
    char *name;                         /* the list's name */
    char ruleset[32];                   /* "warmaster-revolution" */
    char army[OM_WM_ARMYLIST_ID_MAX];   /* army id ("empire") */
    char army_name[64];                 /* "Empire" */
    unsigned limit;                     /* the points limit: the army's size */
    unsigned points;                    /* the points spent */
    unsigned thousands;                 /* the min/max multiplier in force */
    om_wm_armylist_unit *units;         /* every unit, in file order */
    size_t n_units;
    om_wm_armylist_character *characters; /* every character, in file order */
    size_t n_characters;
} om_wm_armylist;

/*
 * om_wm_armylist_parse: load and check an army list file (schema
 * OM_WM_ARMYLIST_SCHEMA) of `len` bytes named `source`. Checks, each cited
 * in wm_armylist.c: the rule set and army exist; every unit, character,
 * mount, upgrade and magic item is one of the army's, and of the right kind
 * for what takes it; the points spent are within the limit; each entry of
 * the list is within its min/max for the army's size (per full 1,000
 * points, or for the whole army where the list says so: one General); one
 * magic item each, each item once per army. Errors, each "SOURCE:LINE: field
 * 'PATH': REASON": OM_EPARSE (malformed YAML, wrong schema, unknown key, not
 * an integer), OM_ENOTFOUND (an unknown rule set, army, unit, character,
 * mount, upgrade or item, with "did you mean"), OM_EINVAL (a rule of the
 * list broken), OM_ENOMEM. On success *out is owned by the caller
 * (om_wm_armylist_free).
 */
om_status om_wm_armylist_parse(const char *source, const char *text, size_t len,
                               om_wm_armylist **out);

/* om_wm_armylist_load_file: the same for the file at `path` (OM_EIO if it
 * cannot be read; "-" reads standard input, named "<stdin>"). */
om_status om_wm_armylist_load_file(const char *path, om_wm_armylist **out);

/* Free a list (NULL allowed). */
void om_wm_armylist_free(om_wm_armylist *l);

/*
 * om_wm_armylist_listing: what `oddsmaster list FILE` shows of the list file
 * `source` (text of `len` bytes): heading, a table of its entries (units, how
 * many, stat line, upgrades, item, points) and of its characters, and the
 * total against the limit. Errors: those of om_wm_armylist_parse, OM_ENOMEM.
 */
om_status om_wm_armylist_listing(const char *source, const char *text, size_t len,
                                 om_game_listing **out);

/*
 * om_wm_armylist_keys: every key of an army list file, by level ("top",
 * "list unit", "list character"), as `oddsmaster list --keys` shows keys:
 * fills out[0..cap) and returns how many there are. The strings are static.
 */
size_t om_wm_armylist_keys(om_game_key *out, size_t cap);

#endif /* OM_WM_ARMYLIST_H */
