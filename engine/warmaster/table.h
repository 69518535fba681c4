/*
 * table.h: the Warmaster table (position) model for whole turns.
 *
 * A plane in cm holds both armies' units as rectangles of their stands, terrain
 * pieces as convex polygons and characters as points with a small round base.
 * The functions answer what the rules ask of positions: closest-edge distances
 * unit to unit and character to unit, which enemy is closest and which is
 * visible (line of sight as segment tests), which units touch (brigades), the
 * face a charger contacts, whether a charge reaches, where a move stops, and
 * what lies behind a unit (the engagement resolver's `behind` fields).
 *
 * The geometry is the game-neutral plane of engine/core/plane.h, in cm: this
 * module adds what Warmaster's rules make of it (stand sizes, formations,
 * terrain kinds, sight and cover rules, charge placement, moves that keep
 * clear of enemies). Everything is fixed-size arrays and plain vector maths:
 * no allocation, no I/O, safe to call from many threads on distinct tables. A
 * trial copies the live part of the prepared start table (om_wm_table_copy)
 * and the turn phases move units in it. Each unit keeps its outline
 * (om_wm_table_geom) while it stands still: a query works it out again only
 * for a unit that moved since (om_wm_table_update keeps it).
 * The simplifications (no wheeling, one charge path, bounding rectangles for
 * irregular formations, ...) are listed at the top of table.c and in TURNS.md
 * next to the rule each one bends. Sections cited are Warmaster Revolution's
 * unless another rulebook is named.
 */
#ifndef OM_WM_TABLE_H
#define OM_WM_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plane.h"
#include "wm.h"

/* Capacities of a table: fixed arrays, of which a trial copies the live part.
 * 128 units and 24 characters hold two armies of well over 2,000 points each
 * (a 2,000-point Warmaster army has 15 to 25 units and 3 to 5 characters; a
 * Warmaster Ancients army of the same points 30 to 40, its skirmishers
 * counted); 48 brigades hold two armies of 64 units each in brigades of four
 * with a brigade left short at the end of each line of deployment, so that
 * every brigade of either army is declared (Command > Brigades sets no limit,
 * and a table that ran out would leave the army placed last the one without
 * its brigades); 16 terrain pieces and 8 vertices a piece cover the suggested
 * 6-10 pieces (Battlefields > Setting up Scenery). Sets of units are
 * om_wm_unit_set bit sets. */
#define OM_WM_TABLE_MAX_UNITS 128
#define OM_WM_TABLE_MAX_CHARACTERS 24
#define OM_WM_TABLE_MAX_TERRAIN 16
#define OM_WM_TABLE_MAX_VERTICES OM_PLANE_MAX_VERTICES
#define OM_WM_TABLE_MAX_BRIGADES 48
/* An engagement holds as many units as a table (wm.h OM_WM_UNITS_MAX). */
_Static_assert(OM_WM_TABLE_MAX_UNITS == OM_WM_UNITS_MAX, "an engagement holds a table's units");
/* A set of a table's units: bit u of the words for unit u. A value type; the
 * empty set is all zero ((om_wm_unit_set){0}). */
#define OM_WM_UNIT_SET_WORDS ((OM_WM_TABLE_MAX_UNITS + 63) / 64)
typedef struct om_wm_unit_set {
    uint64_t w[OM_WM_UNIT_SET_WORDS];
} om_wm_unit_set;

/* Whether unit u is in s; add u to s; put u in s or take it out (`in`). */
static inline bool om_wm_unit_set_has(const om_wm_unit_set *s, unsigned u)
{
    return (s->w[u >> 6] >> (u & 63u) & 1u) != 0;
}
static inline void om_wm_unit_set_add(om_wm_unit_set *s, unsigned u)
{
    s->w[u >> 6] |= (uint64_t)1 << (u & 63u);
}
static inline void om_wm_unit_set_put(om_wm_unit_set *s, unsigned u, bool in)
{
    s->w[u >> 6] = (s->w[u >> 6] & ~((uint64_t)1 << (u & 63u))) | (uint64_t)in << (u & 63u);
}
/* Whether s is empty; the union of a and b into a. */
static inline bool om_wm_unit_set_empty(const om_wm_unit_set *s)
{
    uint64_t any = 0;
    for (unsigned i = 0; i < OM_WM_UNIT_SET_WORDS; i++)
        any |= s->w[i];
    return any == 0;
}
static inline void om_wm_unit_set_union(om_wm_unit_set *a, const om_wm_unit_set *b)
{
    for (unsigned i = 0; i < OM_WM_UNIT_SET_WORDS; i++)
        a->w[i] |= b->w[i];
}

/* Units in one brigade: "up to four units arranged so that they touch" (Game
 * Values > Units; Command > Brigades; Warmaster Ancients, Command > Brigade
 * Orders). */
#define OM_WM_BRIGADE_MAX_UNITS 4
/* Largest unit the table accepts (the engagement check's limit). */
#define OM_WM_TABLE_MAX_STANDS OM_WM_UNIT_STANDS_MAX

/* Two shapes closer than this (cm) touch; shapes that overlap by no more than
 * this do not overlap. A tenth of a millimetre: far below any measurement on a
 * real table, far above double rounding on a 240cm plane. */
#define OM_WM_TABLE_TOUCH_CM OM_PLANE_TOUCH_CM

/* A point or direction on the table, in cm (plane.h: x runs along the
 * table's width, y along its depth; side 0 usually deploys at small y facing
 * +y). */
typedef om_plane_vec om_wm_vec;

/* A unit's formation (Movement > Formation & Movement; Warmaster Ancients,
 * Movement > Formation). */
typedef enum om_wm_table_formation {
    OM_WM_TABLE_LINE = 0,  /* stands side by side, edge to edge: full pace */
    OM_WM_TABLE_COLUMN,    /* stands one behind another: full pace */
    OM_WM_TABLE_IRREGULAR, /* anything else: half pace; drawn as `files` stands abreast */
    OM_WM_TABLE_FORMATION_COUNT
} om_wm_table_formation;

/* The faces of a unit's rectangle, and the zones in front of them (the
 * plane's, plane.h om_plane_face). */
typedef enum om_wm_table_face {
    OM_WM_TABLE_FRONT = OM_PLANE_FRONT,
    OM_WM_TABLE_LEFT = OM_PLANE_LEFT,
    OM_WM_TABLE_RIGHT = OM_PLANE_RIGHT,
    OM_WM_TABLE_REAR = OM_PLANE_REAR,
    OM_WM_TABLE_FACE_COUNT = OM_PLANE_FACE_COUNT
} om_wm_table_face;

/* Unit traits the table and the Command phase read (the caller sets them from
 * the unit's special rules; Warmaster Ancients, Special Rules for slow,
 * unreliable, warband and skirmish). */
#define OM_WM_TABLE_TRAIT_FLYER         (1u << 0) /* flies: 20cm orders, no evade, over terrain */
#define OM_WM_TABLE_TRAIT_ALL_ROUND     (1u << 1) /* sees from every edge (360 degree vision) */
#define OM_WM_TABLE_TRAIT_SKIRMISH      (1u << 2) /* Ancients skirmishers: full pace always, see
                                               and charge all round */
#define OM_WM_TABLE_TRAIT_SLOW          (1u << 3) /* Ancients Slow: -1 more on 2nd and 3rd orders */
#define OM_WM_TABLE_TRAIT_UNRELIABLE    (1u << 4) /* Ancients Unreliable: -1 Command */
#define OM_WM_TABLE_TRAIT_WARBAND       (1u << 5) /* Ancients Warband: +1 for a brigade of 3-4 */
#define OM_WM_TABLE_TRAIT_MUST_CHARGE   (1u << 6) /* must charge on initiative when it can
                                               (Fanatics, 1.1 Ogres) */
#define OM_WM_TABLE_TRAIT_NO_CHARGE     (1u << 7) /* never charges (a War Wagon, Kislev
                                               lists): it may still move toward an
                                               enemy */
#define OM_WM_TABLE_TRAIT_COUNT 8

/* A unit's outline as it was last worked out, with what it was worked out
 * from: it is the unit's while those are unchanged (om_wm_table_update). */
typedef struct om_wm_table_geom {
    om_wm_vec centre, dir;   /* the unit's centre and facing then */
    double stand_w, stand_d; /* its stand size then */
    uint8_t stands, files;   /* its stands and stands abreast then */
    uint64_t id;             /* its memo's name for this outline and the unit's other
                                values the queries read (side, troop, traits,
                                position, dense terrain): the same values, the same
                                id, in every trial (0: no memo) */
    uint64_t key_rest;       /* those other values as they were when it was named */
    double hw, hd;           /* half its width and depth */
    double radius;           /* its circumscribed circle's radius */
    om_plane_shape shape;    /* its rectangle */
} om_wm_table_geom;

/* One unit on the table: its values, its state and where it stands. */
/* Spells' effects lasting past the turn they are cast in (magic.h,
 * OM_WM_SPELL_LASTING; the army lists' Spells): bits of om_wm_table_lasting.
 * The hostile ones fall on enemy units and end as the caster's next turn
 * starts, after the enemy's turn ("until the end of the opposing player's
 * following turn"); the friendly ones fall on the caster's own units and end
 * then too ("until the start of the caster's next turn"). */
enum {
    OM_WM_LASTING_COMMAND = 1u << 0,       /* hostile: orders to it, or to a brigade it is
                                              in, at -`command` (Eerie Mist) */
    OM_WM_LASTING_NO_INITIATIVE = 1u << 1, /* hostile: it cannot use its initiative */
    OM_WM_LASTING_NO_CHARGE = 1u << 2,     /* hostile: it cannot charge, pursue or advance,
                                              even when obliged to (Dominion) */
    OM_WM_LASTING_HALF_PACE = 1u << 3,     /* hostile: it moves at half pace, charging
                                              too (Weird Enchantment) */
    OM_WM_LASTING_DEFENDED = 1u << 4,      /* friendly: it counts as defended in the open,
                                              until it moves (Mists of Albion) */
    OM_WM_LASTING_FORTIFIED = 1u << 5,     /* friendly: with DEFENDED, defended becomes
                                              fortified (Sanctuary) */
    OM_WM_LASTING_SAVE = 1u << 6,          /* friendly: it may take a save of `save`
                                              instead of its own (Mork Save Uz!) */
    OM_WM_LASTING_SHOT_AT = 1u << 7,       /* friendly: enemies shooting at it have -1 to
                                              hit, never worse than 6+ (Aerial Shield) */
    OM_WM_LASTING_STEADY = 1u << 8,        /* friendly: it is neither driven back nor
                                              confused (Tooth Cracker) */
    OM_WM_LASTING_TERROR = 1u << 9,        /* friendly: it causes terror (Twilight Host) */
    OM_WM_LASTING_FEARLESS = 1u << 10,     /* friendly: it is immune to terror (Tranquility
                                              of Heaven) */
    OM_WM_LASTING_ARMOUR = 1u << 11,       /* friendly, for one Combat phase only (magic.h,
                                              om_wm_spell.phase): its armour one better, at
                                              best the spell's `amount` (Shield of the Old
                                              Ones) */
};
#define OM_WM_LASTING_HOSTILE                                                              \
    (OM_WM_LASTING_COMMAND | OM_WM_LASTING_NO_INITIATIVE | OM_WM_LASTING_NO_CHARGE |       \
     OM_WM_LASTING_HALF_PACE)
#define OM_WM_LASTING_FRIENDLY                                                             \
    (OM_WM_LASTING_DEFENDED | OM_WM_LASTING_FORTIFIED | OM_WM_LASTING_SAVE |               \
     OM_WM_LASTING_SHOT_AT | OM_WM_LASTING_STEADY | OM_WM_LASTING_TERROR |                 \
     OM_WM_LASTING_FEARLESS)
/* The kinds a spell may set for one Combat phase only (magic.h, om_wm_spell.phase). */
#define OM_WM_LASTING_PHASE                                                                \
    (OM_WM_LASTING_TERROR | OM_WM_LASTING_FEARLESS | OM_WM_LASTING_ARMOUR)

/* The lasting spell effects in force on a unit, or spread by a character
 * around him (an aura: its `command` penalty on every enemy unit within
 * `aura_cm` of him when an order is given to it, Anger of the Gods). */
typedef struct om_wm_table_lasting {
    uint16_t kinds;  /* OM_WM_LASTING_* bits in force */
    uint8_t command; /* with OM_WM_LASTING_COMMAND: the Command penalty */
    uint8_t save;    /* with OM_WM_LASTING_SAVE: the save score (2..6) */
    uint8_t aura_cm; /* a character's aura: its reach (0: none) */
} om_wm_table_lasting;

typedef struct om_wm_table_unit {
    char name[32];                   /* display name, e.g. "Knights" */
    uint8_t side;                    /* 0 or 1 */
    om_wm_troop troop;               /* troop type */
    uint8_t size;                    /* stands at full strength */
    uint8_t stands;                  /* stands left (size - stands = stands lost) */
    uint8_t hits;                    /* hits carried (recorded for later phases) */
    uint8_t pace_cm;                 /* full pace in cm (Movement > Movement Chart) */
    uint8_t range_cm;                /* shooting range in cm (0: does not shoot) */
    om_wm_table_formation formation; /* line, column or irregular */
    uint8_t files;                   /* stands abreast when irregular (2..stands-1) */
    double stand_w;                  /* a stand's frontage in cm */
    double stand_d;                  /* a stand's depth in cm */
    om_wm_vec centre;                /* centre of the unit's rectangle */
    om_wm_vec dir;                   /* unit vector the front faces */
    uint32_t traits;                 /* OM_WM_TABLE_TRAIT_* bits */
    om_wm_position position;         /* declared open/defended/fortified; terrain can
                                        raise it (om_wm_table_position) */
    bool dense;                      /* declared in dense terrain (or from terrain) */
    bool confused;                   /* confused (Confusion) */
    bool charged;                    /* charged this turn (set by the Command phase) */
    bool present;                    /* on the table: false once destroyed or off it */
    uint8_t blunder_penalty;         /* permanent Command penalty from blunders
                                        (Generals, Wizards & Heroes > Blunders) */
    om_wm_table_lasting lasting;     /* spells' effects in force on it (magic.h) */
    om_wm_table_geom geom;           /* its outline, kept (om_wm_table_update) */
} om_wm_table_unit;

/* Terrain kinds (Movement > Terrain; Optional Rules > Advanced Terrain Rules;
 * Warmaster Ancients, Visibility; Terrain & Movement). Each
 * kind's properties (dense, sight, who may enter, defended) are a const table
 * in table.c. */
typedef enum om_wm_terrain_kind {
    OM_WM_TERRAIN_WOOD = 0,      /* dense, close terrain (2cm sight), infantry only */
    OM_WM_TERRAIN_VILLAGE,       /* dense, close terrain, infantry only */
    OM_WM_TERRAIN_MARSH,         /* broken or marshy ground: dense, low, infantry only */
    OM_WM_TERRAIN_HILL,          /* open to all; blocks sight across its body */
    OM_WM_TERRAIN_STEEP_HILL,    /* dense, blocks sight, infantry only */
    OM_WM_TERRAIN_STREAM,        /* shallow river: low; closed to chariots, artillery,
                                    machines (Revolution, 1.1) */
    OM_WM_TERRAIN_RIVER,         /* deep water, ravine: impassable, does not block sight */
    OM_WM_TERRAIN_LOW_OBSTACLE,  /* hedge, wall, fence: infantry behind it are defended */
    OM_WM_TERRAIN_HIGH_OBSTACLE, /* high wall: infantry only, blocks sight, fortified */
    OM_WM_TERRAIN_BUILDING,      /* building, rocks, cliff: impassable, blocks sight */
    OM_WM_TERRAIN_KIND_COUNT
} om_wm_terrain_kind;

/* Names of the terrain kinds as scenario files write them ("wood", ...). */
extern const char *const om_wm_terrain_names[]; /* [OM_WM_TERRAIN_KIND_COUNT] */

/* One terrain piece: a convex polygon (split a concave wood into pieces). */
typedef struct om_wm_terrain {
    om_wm_terrain_kind kind;                  /* what it is */
    uint8_t vertices;                         /* 3..OM_WM_TABLE_MAX_VERTICES */
    om_wm_vec v[OM_WM_TABLE_MAX_VERTICES];    /* corners in order, either orientation */
    om_plane_shape shape;                     /* its outline, made by
                                                 om_wm_table_add_terrain (after
                                                 changing v, om_wm_table_update) */
} om_wm_terrain;

/* Characters (Generals, Wizards & Heroes; Warmaster Ancients, Commanders >
 * Commanders and Orders: a Leader commands as a Hero, a Subordinate as a
 * Wizard, with its own blunder die). */
typedef enum om_wm_character_kind {
    OM_WM_GENERAL = 0, /* orders the whole battlefield (Ancients: 100cm) */
    OM_WM_HERO,        /* 60cm; Ancients Leader */
    OM_WM_WIZARD,      /* 20cm; Ancients Subordinate (+1 on the blunder die) */
    OM_WM_CHARACTER_KIND_COUNT
} om_wm_character_kind;

/* Names of the character kinds as scenario files write them ("general", ...). */
extern const char *const om_wm_character_kind_names[]; /* [OM_WM_CHARACTER_KIND_COUNT] */

/* A character: a point with a small round base, transparent to everything. */
typedef struct om_wm_table_character {
    char name[32];              /* display name, e.g. "General" */
    uint8_t side;               /* 0 or 1 */
    om_wm_character_kind kind;  /* General, Hero or Wizard */
    uint8_t command;            /* Command value (Game Values > Command: 7-10; Ancients
                                   6-10) */
    om_wm_vec at;               /* centre of its base */
    double radius_cm;           /* base radius; distances are measured to its edge
                                   (round bases up to 25mm, Generals, Wizards &
                                   Heroes > Odd Size Character Bases); 0: a point */
    bool flying;                /* rides a flyer: moves 100cm, not 60cm */
    int8_t joined;              /* unit it has joined, or -1; it moves with that unit in
                                   every phase but the Command phase (Generals, Wizards &
                                   Heroes > Character Movement) */
    int8_t follow;              /* unit it moves to join at the end of the Command
                                   phase (a character policy), or -1: stays */
    om_wm_table_lasting aura;   /* a spell's effect he spreads around him (magic.h) */
    uint8_t attack_bonus;       /* his bonus Attacks (his mount's included), added to
                                   one stand of the unit he has joined while he is with
                                   it (Characters in Combat); 0: none of his own, the
                                   unit's side gives its bonus (a turn scenario's) */
    uint8_t spent;              /* his once-a-battle magic devices already used
                                   (OM_WM_DEVICE_* bits, magic.h) */
    uint8_t spellbound;         /* his casting rolls' penalty from an enemy Staff of
                                   Spellbinding (magic.h): 0 or 1 */
    uint8_t regalia;            /* the General's device of power he carries and can
                                   still use: an OM_WM_REGALIA_* bit (regalia.h), or 0;
                                   cleared once used up or ceasing to work */
    uint8_t slain;              /* 1: slain while alone, an enemy unit having moved
                                   through him with no friend within 30cm (lone.h);
                                   a character with a unit is slain with it instead
                                   (om_wm_table_character_gone) */
} om_wm_table_character;

/* A brigade as declared: up to four units of one side that touch (Command >
 * Brigades). */
typedef struct om_wm_table_brigade {
    uint8_t count;                         /* units in it, 2..4 */
    uint8_t unit[OM_WM_BRIGADE_MAX_UNITS]; /* their indices */
} om_wm_table_brigade;

/* A memo of what the table's queries worked out, kept by a trial's workspace
 * (opaque; om_wm_table_memo_alloc): distances, contacts and supports between
 * units, terrain status, keyed by the outlines they were worked out from. */
typedef struct om_wm_table_memo om_wm_table_memo;

/* The whole table: both armies, characters and terrain. A value type. */
typedef struct om_wm_table {
    double width_cm;  /* along x (Revolution and 1.1 default 180) */
    double depth_cm;  /* along y (default 120) */
    uint8_t units;
    uint8_t characters;
    uint8_t terrain_pieces;
    uint8_t brigades;
    om_wm_table_unit unit[OM_WM_TABLE_MAX_UNITS];
    om_wm_table_character character[OM_WM_TABLE_MAX_CHARACTERS];
    om_wm_terrain terrain[OM_WM_TABLE_MAX_TERRAIN];
    om_wm_table_brigade brigade[OM_WM_TABLE_MAX_BRIGADES];
    om_wm_table_memo *memo; /* the trial's memo (om_wm_table_copy), or NULL: every query
                               worked out afresh */
} om_wm_table;

/* Where and why a table failed its check: om_wm_check_failure (wm.h), with
 * paths such as "units[3].at", "brigades[0].units", "terrain[2].points". */

/* The scale of a Warmaster table: centimetres (plane.h). */
#define OM_WM_TABLE_SCALE (&om_plane_cm)

/* ---- Building a table ---- */

/*
 * om_wm_table_init: an empty table of `width_cm` x `depth_cm` (0 for either:
 * the rule set's default, 180 x 120 for Warmaster, 240 x 120 for Ancients:
 * Battlefields > Table Size and Deployment Areas; Warmaster Ancients, The
 * Battlefield > The Tabletop). Never fails.
 */
void om_wm_table_init(om_wm_table *t, om_wm_ruleset_id rules, double width_cm,
                      double depth_cm);

/*
 * om_wm_table_add_unit: append a unit of `troop` with `stands` stands (full
 * strength), side `side`, in `formation`, centred at `centre` and facing
 * `facing_deg` degrees (0 = +x, 90 = +y). Stand size and pace come from the
 * rule set's tables (stands 40x20mm; infantry face the long edge in all rule
 * sets, cavalry too in Ancients, other troops the short edge). Returns the
 * unit's index, or -1 if the table is full or a value is out of range (no
 * error is raised: om_wm_table_check reports bad tables). Irregular formations
 * get 2 files; change `files` after.
 */
int om_wm_table_add_unit(om_wm_table *t, om_wm_ruleset_id rules, const char *name,
                         unsigned side, om_wm_troop troop, unsigned stands,
                         om_wm_table_formation formation, om_wm_vec centre, double facing_deg);

/* om_wm_table_add_character: append a character; returns its index or -1. */
int om_wm_table_add_character(om_wm_table *t, const char *name, unsigned side,
                              om_wm_character_kind kind, unsigned command, om_wm_vec at);

/* om_wm_table_add_terrain: append a convex piece of `n` corners; index or -1. */
int om_wm_table_add_terrain(om_wm_table *t, om_wm_terrain_kind kind, const om_wm_vec *v,
                            unsigned n);

/* om_wm_table_add_rect_terrain: a rectangular piece from its opposite corners. */
int om_wm_table_add_rect_terrain(om_wm_table *t, om_wm_terrain_kind kind, om_wm_vec lo,
                                 om_wm_vec hi);

/* om_wm_table_add_brigade: declare the `n` units `u` a brigade; index or -1
 * (whether they touch is om_wm_table_check's business). */
int om_wm_table_add_brigade(om_wm_table *t, const unsigned *u, unsigned n);

/*
 * om_wm_table_update: work out again the outline kept for unit u (after its
 * centre, facing, stands, formation, files or stand size changed) and, with
 * u = OM_WM_TABLE_ALL, for every unit and terrain piece (after changing a
 * piece's corners). Queries are right without it (a unit whose outline is out
 * of date has it worked out for each query), only slower; the functions that
 * move units keep it themselves. A unit without stands keeps its last
 * outline. Never fails.
 */
#define OM_WM_TABLE_ALL UINT32_MAX
void om_wm_table_update(om_wm_table *t, uint32_t u);

/*
 * om_wm_table_copy: copy the live part of `src` (its units, characters,
 * terrain pieces and brigades, not the unused room of its arrays) into *dst:
 * what a trial needs of the start table. With a memo, dst's queries keep what
 * they work out in it (dst->memo = memo) and its units are named in it; a
 * memo holding another table's size or terrain is emptied first. Queries on a
 * table with a memo give exactly what they give without one. Never fails.
 */
void om_wm_table_copy(om_wm_table *dst, const om_wm_table *src, om_wm_table_memo *memo);

/*
 * om_wm_table_recall, om_wm_table_remember: an answer a caller works out from
 * the table, kept in its memo under the table's state and the caller's own
 * `kind` (0..255) and `key` (OM_WM_TABLE_RECALL_KEYS words): everything the
 * answer reads besides the units on the table (their outlines, sides, troop
 * types, traits, declared positions and dense terrain) must be in the key,
 * bit for bit. recall copies `size` bytes (at most OM_WM_TABLE_RECALL_BYTES)
 * of a kept answer to *value and returns true, or returns false (a table
 * without a memo, or nothing kept); remember keeps one (nothing without a
 * memo).
 */
#define OM_WM_TABLE_RECALL_KEYS 5
#define OM_WM_TABLE_RECALL_BYTES 48
bool om_wm_table_recall(const om_wm_table *t, unsigned kind, const uint64_t *key, void *value,
                        size_t size);
void om_wm_table_remember(const om_wm_table *t, unsigned kind, const uint64_t *key,
                          const void *value, size_t size);

/* om_wm_table_memo_alloc: an empty memo for one thread's trials (about 900
 * kilobytes); free with om_wm_table_memo_free (NULL allowed). Errors:
 * OM_ENOMEM. */
om_status om_wm_table_memo_alloc(om_wm_table_memo **out);
void om_wm_table_memo_free(om_wm_table_memo *m);

/* The unit vector of a facing in degrees, and back (degrees in [0, 360)):
 * om_plane_dir and om_plane_facing_deg. */
static inline om_wm_vec om_wm_table_dir(double facing_deg) { return om_plane_dir(facing_deg); }
static inline double om_wm_table_facing_deg(om_wm_vec dir) { return om_plane_facing_deg(dir); }

/* Default stand frontage and depth (cm) of a troop type under a rule set. */
void om_wm_table_stand_size(om_wm_ruleset_id rules, om_wm_troop troop, double *w, double *d);

/*
 * om_wm_table_check: reject contradictory positions. Checks values (sides,
 * stands, sizes, facings, Command values), that every unit is wholly on the
 * table, that no two units overlap, that no unit stands in terrain its troop
 * type cannot enter, that terrain pieces are convex polygons, that at most one
 * General per side exists, and that every brigade is 2-4 distinct units of one
 * side, in no other brigade, that touch as one group. Returns OM_OK, or
 * OM_EINVAL after filling `why` (if not NULL) with the dotted field path and
 * the reason and raising "field 'PATH': REASON". Pure; thread-safe.
 */
om_status om_wm_table_check(const om_wm_table *t, om_wm_ruleset_id rules,
                            om_wm_check_failure *why);

/* ---- Geometry queries (all pure and thread-safe on a const table) ---- */

/* The unit's rectangle: its width across the front and its depth (cm). The
 * unit has at least one stand (a unit on the table): a destroyed unit has no
 * rectangle (its depth would divide by its zero files; asserted in debug
 * builds). */
double om_wm_table_unit_width(const om_wm_table_unit *u);
double om_wm_table_unit_depth(const om_wm_table_unit *u);

/* Its four corners: front-left, front-right, rear-right, rear-left. */
void om_wm_table_unit_corners(const om_wm_table_unit *u, om_wm_vec corner[4]);

/* Closest-edge distance between units a and b (0 if they touch or overlap). */
double om_wm_table_distance(const om_wm_table *t, unsigned a, unsigned b);

/* Whether units a and b touch (distance within OM_WM_TABLE_TOUCH_CM). */
bool om_wm_table_touching(const om_wm_table *t, unsigned a, unsigned b);

/* Whether unit u touches an enemy unit: it is engaged in combat (Combat > Combat
 * Engagement). */
bool om_wm_table_engaged(const om_wm_table *t, unsigned u);

/*
 * om_wm_table_engaged_all: engaged_out[u] (u < t->units) is whether unit u is
 * on the table and engaged (om_wm_table_engaged), every unit at once: each
 * pair of enemies asked once a side instead of every enemy of each unit. The
 * same answers, kept in the memo as om_wm_table_engaged keeps them. Pure but
 * for the memo; thread-safe on distinct tables.
 */
void om_wm_table_engaged_all(const om_wm_table *t, bool *engaged_out);

/* Whether any unit on the table touches an enemy unit (there is a combat to
 * fight): om_wm_table_touching of every pair of enemies, asked once. */
bool om_wm_table_any_contact(const om_wm_table *t);

/*
 * om_wm_table_contacts: which units touch which enemies: v in touches[u] and
 * u in touches[v] when present units u and v of opposite sides touch
 * (om_wm_table_touching, asked once a pair, the lower index first). Adds to
 * touches[0..t->units), which the caller clears; returns whether any pair
 * touches (om_wm_table_any_contact). Pure but for the memo; thread-safe on
 * distinct tables.
 */
bool om_wm_table_contacts(const om_wm_table *t, om_wm_unit_set *touches);

/* Whether character c is gone from the battle: slain alone (lone.h), or
 * joined to a unit no longer on the table (Generals, Wizards & Heroes:
 * "slain if the unit it is with is destroyed"). */
static inline bool om_wm_table_character_gone(const om_wm_table *t, unsigned c)
{
    const int u = t->character[c].joined;
    return t->character[c].slain != 0 || (u >= 0 && !t->unit[u].present);
}

/* Distance from character c's base edge to the closest point of unit u. */
double om_wm_table_character_distance(const om_wm_table *t, unsigned c, unsigned u);

/* Whether character c's base lies within `reach` of unit u:
 * om_wm_table_character_distance(t, c, u) <= reach, the same answer, the
 * distance worked out only when the circle around u's rectangle lets the
 * base be that close. Pure but for the memo. */
bool om_wm_table_character_within(const om_wm_table *t, unsigned c, unsigned u, double reach);

/*
 * om_wm_table_sees: whether unit `from` sees unit `to` (Movement > Moving by
 * Initiative; Shooting > Targets; Warmaster Ancients, Visibility > Line of
 * Sight; Maximum Visibility): an unblocked segment from the front edge of
 * `from` (every edge when `all_round`) to any part of `to`. Other units' stands
 * block (characters never do); close terrain (woods, villages) lets a segment
 * run 2cm inside it; hills block a segment that crosses them from outside to
 * outside; buildings, high obstacles and steep hills block any crossing. Under
 * Ancients nothing farther than 60cm is seen. Segments are sampled: five points
 * along each edge (see table.c).
 */
bool om_wm_table_sees(const om_wm_table *t, om_wm_ruleset_id rules, unsigned from, unsigned to,
                      bool all_round);

/* The closest points of units a and b: *pa on a, *pb on b (equal when they
 * touch). The line through them is "directly away" for an evade (Movement >
 * Moving by Initiative > The path of evaders). A unit without stands left
 * counts with the outline it last had. */
void om_wm_table_closest_points(const om_wm_table *t, unsigned a, unsigned b, om_wm_vec *pa,
                                om_wm_vec *pb);

/* The point of unit u's rectangle closest to p (p itself inside it). */
om_wm_vec om_wm_table_closest_point(const om_wm_table_unit *u, om_wm_vec p);

/* Whether a friendly unit touches face `face` of unit u (it covers that edge:
 * Ancients' exposed flank penalty, Warmaster Ancients, Command > Command
 * Penalties). */
bool om_wm_table_face_covered(const om_wm_table *t, unsigned u, om_wm_table_face face);

/* Filters for the closest-enemy searches. */
#define OM_WM_TABLE_SKIP_FORTIFIED (1u << 0) /* ignore fortified infantry and artillery
                                                (Revolution/1.1 initiative, Movement >
                                                Moving by Initiative) */
#define OM_WM_TABLE_SKIP_ENGAGED   (1u << 1) /* ignore enemies touching a unit of their
                                                enemy: engaged units are no targets for
                                                shooting (Shooting > Targets) */

/*
 * om_wm_table_closest_enemy: the present enemy unit closest to unit u, seen or
 * not (the Command penalty for the closest enemy unit within 20cm, Command >
 * Command Penalties), writing its
 * distance to *cm (if not NULL). Ties go to the lower index. -1 if none.
 */
int om_wm_table_closest_enemy(const om_wm_table *t, unsigned u, double *cm);

/*
 * om_wm_table_enemy_within: whether the closest present enemy of unit u
 * (om_wm_table_closest_enemy) stands within `cm` (1e-9cm allowed): the same
 * answer, the closest worked out only when the circles around the units'
 * rectangles let some enemy be that close (two units are never closer than
 * their centres' gap less those circles' radii) and the first such enemy's
 * exact distance does not lie clearly within `cm`. A unit not on the table is
 * asked as om_wm_table_closest_enemy asks it. Pure; thread-safe as the table's
 * other questions.
 */
bool om_wm_table_enemy_within(const om_wm_table *t, unsigned u, double cm);

/*
 * om_wm_table_closest_visible_enemy: the closest enemy unit that u sees (from
 * its front edge, or every edge when `all_round`) within `max_cm` (0: any
 * distance), skipping those `filter` excludes; -1 if none. Ties go to the lower
 * index (the player's pick, Movement > Moving by Initiative).
 */
int om_wm_table_closest_visible_enemy(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u,
                                      bool all_round, double max_cm, unsigned filter, double *cm);

/* Whether unit u has any stand in dense terrain (declared, or overlapping a
 * dense piece): the -1 Command penalty (Command > Command Penalties). */
bool om_wm_table_in_dense(const om_wm_table *t, unsigned u);

/* The position unit u counts as: its declared one, raised to defended by a
 * wood, village, marsh or low obstacle it stands in or behind, to fortified by
 * a high obstacle, for infantry and artillery only (Combat > Defended &
 * Fortified Troops). */
om_wm_position om_wm_table_position(const om_wm_table *t, unsigned u);

/* Whether terrain piece k is closed to troop type `troop` under `rules`. */
bool om_wm_table_terrain_closed(om_wm_ruleset_id rules, om_wm_terrain_kind kind,
                                om_wm_troop troop);

/*
 * om_wm_table_charge_face: the face of `target` that `charger` would contact
 * (Combat > Moving Chargers > Zones; Warmaster 1.1 Rules Update, P33 – The
 * charge; D1). Revolution and Ancients: the 135-degree zone (corner bisectors)
 * of the target's rectangle that the charger's centre lies in. 1.1: the target
 * edge nearest the charger; at a corner, the zone decides. An exact tie between
 * zones counts as the front.
 */
om_wm_table_face om_wm_table_charge_face(const om_wm_table *t, om_wm_ruleset_id rules,
                                  unsigned charger, unsigned target);

/* The zone of unit u that point p lies in (the same bisector rule). */
om_wm_table_face om_wm_table_zone(const om_wm_table_unit *u, om_wm_vec p);

/* What a charge needs and where it ends. */
typedef struct om_wm_table_charge {
    bool possible;           /* a placement and a clear path exist */
    bool reaches;            /* ...and the farthest-moving corner moves <= pace */
    om_wm_table_face face;   /* the face contacted */
    double required_cm;      /* distance the farthest-moving corner must move */
    om_wm_vec centre;        /* the charger's centre in contact */
    om_wm_vec dir;           /* its facing in contact */
} om_wm_table_charge;

/*
 * om_wm_table_charge_plan: whether `charger` can charge `target` moving at most
 * `pace_cm`, and where it would end (Combat > Moving Chargers, simplified). The
 * charger's front edge goes flush against the contacted face, centred on the
 * closest target stand of that face, or shifted along the face in half-stand
 * steps to the nearest clear spot keeping 1cm of edge contact. The path is the straight
 * move of its contact-facing rectangle from where it starts (what it would clip
 * only by turning is ignored); units other than the target, terrain closed to
 * it and the table edge block. Only infantry and flyers contact fortified
 * units. Sight is not tested here (om_wm_table_sees). Pure.
 */
void om_wm_table_charge_plan(const om_wm_table *t, om_wm_ruleset_id rules, unsigned charger,
                             unsigned target, double pace_cm, om_wm_table_charge *out);

/* How a move treats what is in its way. */
typedef struct om_wm_table_move_rule {
    double enemy_gap_cm;   /* stop this far from enemy units (a non-charging move) */
    int target;            /* unit to stop `keep_cm` from (-1: none) */
    double keep_cm;        /* distance to keep from `target` */
    bool turn;             /* turn to face the direction of travel first, if clear */
    bool through_friends;  /* may pass through (not end on) unengaged friends: an
                              evade's burst through (Movement > Moving by
                              Initiative > The path of evaders) */
    bool round;            /* a straight path blocked by a friend or closed terrain
                              goes round it instead (om_wm_table_move) */
} om_wm_table_move_rule;

/*
 * om_wm_table_move: move unit u in a straight line toward `goal`, at most
 * `max_cm`, stopping at the first unit, closed terrain or table edge in its way
 * (flyers pass over units and terrain but do not end on them). With
 * `through_friends`, friends passed wholly through are added to *burst and
 * the unit never ends on one. With `round` (and neither a flyer nor
 * `through_friends`), a unit whose straight path is blocked by a friend or by
 * terrain closed to it before `max_cm` takes a way round the first thing in
 * its way, keeping its facing (Movement: a unit moves in any direction, its
 * distance that of the farthest-moving stand, here its centre's path):
 * one leg slanting to a waypoint beside that obstacle, `OM_WM_TABLE_ROUND_CM`
 * clear of its edge, on the left or the right, as far ahead as the straight
 * move got, then a leg straight on, parallel to the straight path; the two
 * legs together at most `max_cm`, each stopped by what is in its way as a
 * straight move is. Of the two sides, the way round that ends nearer the
 * goal is taken, and only when it ends OM_WM_TABLE_ROUND_CM nearer than the
 * straight move. A way round whose leg straight on is stopped in its turn by
 * another friend or closed terrain goes round that one the same way, up to
 * OM_WM_TABLE_ROUND_OBSTACLES obstacles in all: a bounded search of at most
 * 2 + 4 + ... + 2^OM_WM_TABLE_ROUND_OBSTACLES legs, each a sweep of the
 * table, made only when a move is blocked. Updates the unit's centre (and
 * facing when it turned); returns the distance moved. Pure on `t`.
 */
#define OM_WM_TABLE_ROUND_CM 1.0
#define OM_WM_TABLE_ROUND_OBSTACLES 3u
double om_wm_table_move(om_wm_table *t, om_wm_ruleset_id rules, unsigned u, om_wm_vec goal,
                        double max_cm, const om_wm_table_move_rule *rule,
                        om_wm_unit_set *burst);

/*
 * om_wm_table_move_group: move the `n` units `u` together by the same straight
 * translation toward `goal` (measured from the first unit's centre), at most
 * `max_cm`, stopping where the first of them is stopped: a brigade moving as a
 * body, without turning (Command > Brigades). With `round`, a body of any
 * size (n up to the table's units) stopped by a friend outside it or by closed
 * terrain goes round that obstacle as om_wm_table_move's unit does, every unit
 * by the same legs, the whole body's extent across its way clearing the
 * obstacle's, up to OM_WM_TABLE_ROUND_OBSTACLES obstacles. Returns the
 * distance moved.
 */
double om_wm_table_move_group(om_wm_table *t, om_wm_ruleset_id rules, const unsigned *u,
                              unsigned n, om_wm_vec goal, double max_cm,
                              const om_wm_table_move_rule *rule);

/*
 * om_wm_table_place_clear: whether unit u could stand with its centre at `c`
 * facing `dir` (a unit vector): wholly on the table, over no other unit, in
 * no terrain closed to it, and with `apart_from_enemies` touching no enemy
 * unit (more than OM_WM_TABLE_TOUCH_CM from each). The unit itself is not
 * moved. Pure; thread-safe.
 */
bool om_wm_table_place_clear(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u,
                             om_wm_vec c, om_wm_vec dir, bool apart_from_enemies);

/*
 * om_wm_table_turn: turn unit u in place to face `dir` (a unit vector), if
 * its turned outline stands clear of other units, closed terrain and the
 * table's edge, as a move's turn to its direction of travel must. Returns
 * whether it faces `dir` now (already facing it: true, nothing changed).
 * Pure on `t`.
 */
bool om_wm_table_turn(om_wm_table *t, om_wm_ruleset_id rules, unsigned u, om_wm_vec dir);

/* What lies behind a unit, for the engagement resolver (wm.h om_wm_behind). */
typedef struct om_wm_table_behind {
    om_wm_behind kind;  /* open, impassable, enemy, unyielding, friends, table edge */
    double cm;          /* gap to it (cm); 0 when open */
    uint8_t stands;     /* stands whose path it blocks (all for the table edge) */
    int8_t unit;        /* the unit behind, or -1 */
} om_wm_table_behind;

/*
 * om_wm_table_behind_of: what unit u meets moving straight back along its
 * facing within `reach_cm` (the first thing its rectangle would touch): a
 * friend (unyielding if engaged, else friends that make way), an enemy,
 * terrain closed to it, or the table edge; open if nothing. `stands` counts the
 * stands in the files whose own path meets that thing (Combat > Retreats >
 * Blocked retreats).
 */
void om_wm_table_behind_of(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u,
                           double reach_cm, om_wm_table_behind *out);

/* The same along any direction `away` (a unit vector): a retreat directly away
 * from a flank or rear attacker. */
void om_wm_table_behind_along(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u,
                              om_wm_vec away, double reach_cm, om_wm_table_behind *out);

/* ---- Stands (contacts and supports: Combat > Attacks; Attack Modifiers;
 * Supporting Troops) ---- */

/* Stand i (0 .. stands - 1) of unit u's rectangle: file i % files, rank i /
 * files, the front rank first and the last rank filled from the left (T1). Its
 * corners in the unit's order: front-left, front-right, rear-right, rear-left. */
void om_wm_table_stand_corners(const om_wm_table_unit *u, unsigned i, om_wm_vec corner[4]);

/* How one stand touches an enemy unit. */
typedef struct om_wm_table_touch {
    bool touches;  /* the stand touches the unit (along an edge, or corner only) */
    uint8_t edges; /* bit f: the stand's face f (om_wm_table_face) is touched along its
                      edge (not only at its corners) */
    bool flanked;  /* the unit's front edge or a front corner touches the stand's side
                      edge, rear edge or rear corner, the stand lying in the unit's front
                      zone (Combat > Attack Modifiers > Enemy facing own side or
                      rear; side to side is not) */
} om_wm_table_touch;

/*
 * om_wm_table_stand_touch: how stand i of unit u touches unit v (Combat >
 * Attacks): whether
 * it does, along which of its edges, and whether v faces its side or rear.
 * Contact is within OM_WM_TABLE_TOUCH_CM; an edge counts when a part of it
 * away from its corners touches. Pure; thread-safe.
 */
void om_wm_table_stand_touch(const om_wm_table *t, unsigned u, unsigned i, unsigned v,
                             om_wm_table_touch *out);

/* How a stand supports another (Combat > Supporting Troops). */
typedef enum om_wm_table_support {
    OM_WM_TABLE_NO_SUPPORT = 0,
    OM_WM_TABLE_SUPPORT_REAR, /* exactly behind it, facing the same way */
    OM_WM_TABLE_SUPPORT_SIDE, /* exactly beside it, facing the same way */
} om_wm_table_support;

/* Stands count as exactly behind or beside another when their edges touch and
 * they are offset along the shared edge by no more than this (a quarter of an
 * infantry stand's frontage): a scenario's placement in whole centimetres
 * lines them up; no more than this is read as "exactly" (fixed reading
 * support_alignment). */
#define OM_WM_TABLE_SUPPORT_ALIGN_CM 1.0

/*
 * om_wm_table_stand_support: whether stand i of unit s is exactly behind or
 * exactly beside stand j of unit f, facing the same way (Combat > Supporting
 * Troops: a supporting stand). Only geometry: infantry, confusion and contacts are the caller's.
 * Pure; thread-safe.
 */
om_wm_table_support om_wm_table_stand_support(const om_wm_table *t, unsigned s, unsigned i,
                                              unsigned f, unsigned j);

/*
 * om_wm_table_may_support: false when no stand of unit s can support any stand
 * of unit f (om_wm_table_stand_support is OM_WM_TABLE_NO_SUPPORT for every
 * pair): they do not face the same way, or their circles lie too far apart
 * for any two of their stands to be edge to edge. true says only that some
 * pair may. The bound of a caller's loop over stands. Pure; thread-safe.
 */
bool om_wm_table_may_support(const om_wm_table *t, unsigned s, unsigned f);

/* Closest-edge distance from stand i of unit u to unit v (range is measured
 * per stand, Shooting > Range). */
double om_wm_table_stand_distance(const om_wm_table *t, unsigned u, unsigned i, unsigned v);

/* Whether stand i of unit u lies within `reach` of unit v:
 * om_wm_table_stand_distance(t, u, i, v) <= reach, the same answer, the exact
 * distance worked out only when the distance of the stand's centre does not
 * settle it by more than rounding. Pure but for the memo. */
bool om_wm_table_stand_within(const om_wm_table *t, unsigned u, unsigned i, unsigned v,
                              double reach);

/* Pace of unit u for an ordered (non-charging) move: full pace in line or
 * column, half in an irregular formation or starting fortified; Ancients
 * skirmishers always full (Movement > Formation & Movement; Warmaster Ancients,
 * Movement > Formation). */
double om_wm_table_move_pace(const om_wm_table *t, unsigned u);

/* Pace of unit u for a charge: full pace whatever the formation (Revolution,
 * 1.1: Movement > Formation & Movement), the formation's pace (Warmaster
 * Ancients, Movement > Formation). */
double om_wm_table_charge_pace(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u);

#endif /* OM_WM_TABLE_H */
