/*
 * wm_keys.h: the keys of a Warmaster scenario file, in one table. The loader
 * (load.c) converts and checks each side key from its row, the result files'
 * provenance (wm_provenance.c) records every one of them with the value in
 * force, `oddsmaster list --keys` prints them, and docs/scenario-format.md
 * documents them (tests/test_game.c checks that it names each key). A new
 * side key is one row of OM_WM_SIDE_KEYS plus its member in om_wm_side.
 */
#ifndef OM_WM_KEYS_H
#define OM_WM_KEYS_H

#include <stddef.h>

#include "game.h"
#include "wm.h"

/* How a key's text is read. */
typedef enum om_wm_key_type {
    OM_WM_KEY_BOOL = 0, /* true or false (yes/no, on/off) */
    OM_WM_KEY_COUNT,    /* a decimal integer 0..255 */
    OM_WM_KEY_NAME      /* one word of a table of names */
} om_wm_key_type;

/* A side key's value when the file leaves it out. */
typedef enum om_wm_key_default {
    OM_WM_DEFAULT_ZERO = 0,     /* false, 0, or the first name of its table */
    OM_WM_DEFAULT_ONE,          /* 1 */
    OM_WM_DEFAULT_ACTIVE,       /* every stand (a War Wagon: its wagon stand) */
    OM_WM_DEFAULT_JOINED,       /* what a joined character gives (else 0) */
    OM_WM_DEFAULT_POWER_TURN,   /* 1 when a power is named, else 0 */
    OM_WM_DEFAULT_BEHIND,       /* every stand when something lies behind, else 0 */
    OM_WM_DEFAULT_FORMATION     /* column for a War Wagon, else none */
} om_wm_key_default;

/* What a side key needs beyond its value's type. */
typedef enum om_wm_key_rule {
    OM_WM_KEY_ANY = 0,          /* nothing */
    OM_WM_KEY_WAR_WAGON,        /* only a War Wagon (rule war-wagon) has one */
    OM_WM_KEY_MODELLED_ITEM     /* magic items whose use is a player's choice are refused */
} om_wm_key_rule;

/* The names a NAME key takes: names[first .. count) (first 1 skips "none"
 * where "none" is the default and not written). */
typedef struct om_wm_key_names {
    const char *what;          /* "pursuit policy", for messages */
    const char *const *names;  /* the engine's names table */
    unsigned first, count;     /* the names accepted */
} om_wm_key_names;

extern const om_wm_key_names om_wm_position_key_names, om_wm_pursue_key_names,
    om_wm_behind_key_names, om_wm_magic_key_names, om_wm_formation_key_names,
    om_wm_aura_key_names, om_wm_power_key_names;

/*
 * The side keys converted from the table, in the order they are read (a
 * default may depend on a key read before it: power_turn on power,
 * behind_stands on behind). X(key, type, default, names, rule, help): `key` is
 * also the om_wm_side member it sets; `names` the om_wm_key_names of a NAME
 * key (NULL otherwise).
 */
#define OM_WM_SIDE_KEYS(X)                                                                       \
    X(charging, BOOL, ZERO, NULL, ANY, "charged this turn: its charge bonus in round 1")         \
    X(advancing, BOOL, ZERO, NULL, ANY,                                                          \
      "advanced into the engagement in the Combat phase: no charge bonus, shot at as a "         \
      "charger (Combat > Advance)")                                                              \
    X(formation, NAME, FORMATION, &om_wm_formation_key_names, WAR_WAGON,                         \
      "a War Wagon's formation (Kislev lists): column or laager; only its wagon stand "         \
      "fights and shoots")                                                                       \
    X(position, NAME, ZERO, &om_wm_position_key_names, ANY,                                      \
      "open, defended or fortified (Combat > Defended and Fortified Troops)")                    \
    X(fighting, COUNT, ACTIVE, NULL, ANY, "stands touching the enemy")                           \
    X(flanked, COUNT, ZERO, NULL, ANY, "fighting stands touched on a side or rear (-1 Attack each)") \
    X(supports, COUNT, ZERO, NULL, ANY, "supporting stands, +1 each to the combat result")       \
    X(support_units, COUNT, ZERO, NULL, ANY,                                                     \
      "other units giving those supports (they divide the retreat)")                             \
    X(attack_bonus, COUNT, JOINED, NULL, ANY, "a joined character's bonus Attacks")              \
    X(extra_shots, COUNT, JOINED, NULL, ANY,                                                     \
      "a joined character's shooting Attacks, e.g. Dragon fire 3")                               \
    X(shooting, COUNT, ACTIVE, NULL, ANY, "stands that shoot")                                   \
    X(beside_laager, BOOL, ZERO, NULL, ANY,                                                      \
      "Kislev infantry touching a laagered wagon: defended against shooting and in round 1")     \
    X(shugenja, BOOL, ZERO, NULL, ANY, "a Shugenja within 20cm of Daemons: +1 to Instability")   \
    X(confused, BOOL, ZERO, NULL, ANY, "confused: -1 Attack a stand, no support")                \
    X(stand_and_shoot, BOOL, ZERO, NULL, ANY,                                                    \
      "shoots at the enemy's charge (or advance) before round 1")                                \
    X(shoots_first, BOOL, ZERO, NULL, ANY,                                                       \
      "shot at the enemy in its own previous turn (a volley with drive back)")                   \
    X(pushed, BOOL, ZERO, NULL, ANY,                                                             \
      "a Screaming Bell touching the Skaven infantry that push it: it may pursue and fall back") \
    X(blind_fire, BOOL, ZERO, NULL, ANY, "a stone thrower or trebuchet shooting at a target out " \
      "of sight: 6s to hit")                                                                     \
    X(evade, BOOL, ZERO, NULL, ANY, "skirmishers charged evade after shooting (Ancients)")       \
    X(target_cm, COUNT, ZERO, NULL, ANY,                                                         \
      "cm to the target of its volleys, for shots by range (0: the longest band)")               \
    X(aura, NAME, ZERO, &om_wm_aura_key_names, ANY,                                              \
      "immunity to terror from outside the unit: none, always or roll")                          \
    X(power, NAME, ZERO, &om_wm_power_key_names, ANY, "a once-a-battle power used here")         \
    X(power_turn, COUNT, POWER_TURN, NULL, ANY, "the engagement's turn of that power (1: the charge's)") \
    X(pursue, NAME, ZERO, &om_wm_pursue_key_names, ANY,                                          \
      "after winning a round: always (whenever the rules allow), never or when-ahead")           \
    X(behind, NAME, ZERO, &om_wm_behind_key_names, ANY,                                          \
      "what its retreats run into: open, impassable, enemy, unyielding, friends or table-edge")  \
    X(magic, NAME, ZERO, &om_wm_magic_key_names, MODELLED_ITEM,                                  \
      "its magic item with a dice effect (1.1 and Revolution)")                                  \
    X(behind_cm, COUNT, ZERO, NULL, ANY, "cm to what lies behind")                               \
    X(behind_stands, COUNT, BEHIND, NULL, ANY, "stands whose retreat it blocks")                 \
    X(rear_supports, COUNT, ZERO, NULL, ANY, "of the supports, those from behind")               \
    X(side_strikers, COUNT, ZERO, NULL, ANY,                                                     \
      "of the flanked stands, those striking to a side or rear edge (phalanx)")                  \
    X(long_base, BOOL, ZERO, NULL, ANY, "shock cavalry based on its long edge (Ancients)")       \
    X(dense_terrain, BOOL, ZERO, NULL, ANY, "in woods, a village, marsh or steep hills")         \
    X(line_stands, COUNT, ONE, NULL, ANY,                                                        \
      "enemy stands in the line of fire of a cannon's bounce or a bolt thrower (1 to 3)")

/* One side key of the table. */
typedef struct om_wm_side_key {
    const char *name;             /* as written in files, e.g. "supports" */
    om_wm_key_type type;          /* how its text is read */
    om_wm_key_default fallback;   /* its value when left out */
    const om_wm_key_names *names; /* a NAME key's names, else NULL */
    om_wm_key_rule rule;          /* what it needs beyond its type */
    size_t offset, size;          /* its member in om_wm_side */
    const char *help;             /* one line for list --keys */
} om_wm_side_key;

/* How many side keys there are. */
#define OM_WM_SIDE_KEY_PLUS_ONE(key, type, fallback, names, rule, help) +1
#define OM_WM_SIDE_KEY_COUNT (0 OM_WM_SIDE_KEYS(OM_WM_SIDE_KEY_PLUS_ONE))

/* The side keys, in the order of OM_WM_SIDE_KEYS. */
extern const om_wm_side_key om_wm_side_keys[OM_WM_SIDE_KEY_COUNT];
extern const size_t om_wm_side_key_count; /* OM_WM_SIDE_KEY_COUNT */

/* The value of key k in side s: a BOOL or COUNT key's number, a NAME key's
 * index in its names table. */
unsigned om_wm_side_key_get(const om_wm_side *s, const om_wm_side_key *k);

/* Set key k of side s to v (as om_wm_side_key_get returns it). */
void om_wm_side_key_set(om_wm_side *s, const om_wm_side_key *k, unsigned v);

/* Key k's value in side s when the file leaves it out (s holds the unit and
 * every key read before k). */
unsigned om_wm_side_key_default(const om_wm_side *s, const om_wm_side_key *k);

/*
 * om_wm_scenario_keys: every key of a Warmaster scenario file (top level,
 * unit, side) as the game interface lists them (game.h om_game_key), in the
 * order docs/scenario-format.md documents them: fills out[0..cap) and returns
 * how many keys there are (all of them when cap is large enough). The strings
 * are static.
 */
size_t om_wm_scenario_keys(om_game_key *out, size_t cap);

#endif /* OM_WM_KEYS_H */
