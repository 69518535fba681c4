/*
 * table.c: the Warmaster table (position) model: geometry of units, terrain and
 * characters for whole turns (docs/manual.md, "Whole turns"; Warmaster Revolution,
 * Command; Movement; Combat > Moving Chargers; Warmaster Ancients, Visibility;
 * Command; Movement; Terrain & Movement). Sections cited are Warmaster
 * Revolution's unless another rulebook is named.
 *
 * The geometry is the plane's (engine/core/plane.h, in cm): units are blocks
 * of stands, terrain pieces convex polygons, and distances, contact, sight and
 * straight paths are its functions. This file says what Warmaster's rules make
 * of them. Each unit keeps its outline while it stands still
 * (om_wm_table_geom): queries take the kept one, or work it out afresh for a
 * unit changed behind the table's back, so they are right either way.
 *
 * Simplifications (each listed again in TURNS.md next to the rule it bends):
 *  T1 A unit is the rectangle of its stands: files x ranks stand bases. An
 *     irregular formation is drawn as `files` stands abreast, its last rank
 *     filled from the left; its bounding rectangle is the unit.
 *  T2 Moves are straight lines. A unit may first turn on the spot to face its
 *     way, at no cost in distance, when the turned rectangle is clear; brigades
 *     move as one rigid body without turning. No wheeling, no re-forming.
 *  T3 Non-charging moves stop `enemy_gap_cm` short of enemies (the caller's
 *     policy), measured along the rectangles' axes (the enemy's rectangle is
 *     grown by the gap on every side).
 *  T4 One charge path: the charger turns on the spot to its contact facing and
 *     moves straight to its contact position; what it would clip only by
 *     turning is ignored. Its front edge goes flush against the contacted face,
 *     centred on the closest target stand of that face or shifted in half-stand
 *     steps to the nearest clear spot with 1cm of edge contact. The charge
 *     reaches when no corner of its rectangle moves farther than its pace
 *     (the farthest-moving point, Movement > Formation & Movement > Moving the
 *     stands), which over-counts turns.
 *  T5 The zone a charger starts in is that of its centre (the zone it "mostly
 *     occupies"); an exact tie counts as the front, not a D6.
 *  T6 Line of sight is sampled: five points along each sighting edge to the
 *     corners and edge points of the target (four edges, five points each).
 *     Other units block; characters never do.
 *  T7 Terrain has no movement cost (none exists in the rules): a piece is open
 *     or closed to a troop type. Defended status from terrain is not
 *     directional (a unit in a wood or behind a low wall is defended against
 *     everyone).
 *  T8 Flyers pass over units and terrain but never end on a unit or in terrain
 *     they may not end in (a wood, or where infantry cannot go); they back off
 *     along their path in 1cm steps until clear.
 */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "regalia.h"

/* ---- Rule-set tables ---- */

/* Closest-edge sight allowance inside close terrain (woods, villages): "stands
 * inside a wood are assumed to be able to see up to 2cm" (Shooting > Targets;
 * Warmaster 1.1 Rules Update, P25 – Targets, which changed 1cm to 2cm;
 * Warmaster Ancients, Terrain & Movement > Terrain and Visibility). */
#define CLOSE_TERRAIN_SIGHT_CM 2.0
/* Edge a charger's front must keep on the contacted face: "at least 1cm of
 * clear base edge on the target stand" (Combat > Moving Chargers > The charge
 * move; Warmaster Ancients, Movement > Exceptions to the Charge Rules). 1.1
 * asks only for "some" edge (Warmaster 1.1 Rules Update, P33 – The charge);
 * the same 1cm is used. */
#define CHARGE_MIN_EDGE_CM 1.0
/* Step a flyer backs off along its path to find a clear place to end (T8). */
#define FLYER_BACKOFF_CM 1.0
/* Points this close to a zone border count as on it (an exact tie, T5):
 * facings given in degrees put borders a few ulps off. */
#define ZONE_TIE_CM OM_PLANE_TIE_CM
/* Longest charge placement search along a face, in half-stand steps. */
#define CHARGE_MAX_SHIFTS 24

/* Troop-type bit masks for terrain access. */
#define INF (1u << OM_WM_INFANTRY)
#define CAV (1u << OM_WM_CAVALRY)
#define CHA (1u << OM_WM_CHARIOT)
#define MON (1u << OM_WM_MONSTER)
#define ART (1u << OM_WM_ARTILLERY)
#define MAC (1u << OM_WM_MACHINE)
#define ALL (INF | CAV | CHA | MON | ART | MAC)

/* How a terrain kind treats a line of sight (plane.h om_plane_sight): low
 * features never block (Movement > Moving by Initiative; Shooting > Targets);
 * a line may run 2cm inside woods and villages; hills block a line crossing
 * from outside to outside; buildings, high walls and steep hills block any
 * crossing. */
#define SIGHT_CLEAR OM_PLANE_SIGHT_CLEAR
#define SIGHT_CLOSE OM_PLANE_SIGHT_CLOSE
#define SIGHT_BODY OM_PLANE_SIGHT_BODY
#define SIGHT_BLOCKS OM_PLANE_SIGHT_BLOCKS

/* Properties of a terrain kind. */
typedef struct terrain_props {
    bool dense;                      /* -1 Command inside (Command > Command Penalties) */
    om_plane_sight sight;            /* what it does to lines of sight */
    bool linear;                     /* a unit "behind" it (touching) gets `cover` */
    om_wm_position cover;            /* infantry and artillery in or behind it */
    unsigned enter[OM_WM_RULES_COUNT]; /* troop types that may enter, by rule set */
} terrain_props;

/* Movement > Terrain and the Warmaster 1.1 Rules Update, P21 – Terrain (infantry
 * anywhere; cavalry and monsters hills, shallow rivers, low obstacles; chariots
 * and artillery hills only; machines as chariots); Optional Rules > Advanced
 * Terrain Rules (which features are dense, block sight and give cover);
 * Warmaster Ancients, Terrain & Movement (shallow rivers open to all). */
static const terrain_props terrain_table[OM_WM_TERRAIN_KIND_COUNT] = {
    [OM_WM_TERRAIN_WOOD] = {true, SIGHT_CLOSE, false, OM_WM_DEFENDED, {INF, INF, INF}},
    [OM_WM_TERRAIN_VILLAGE] = {true, SIGHT_CLOSE, false, OM_WM_DEFENDED, {INF, INF, INF}},
    [OM_WM_TERRAIN_MARSH] = {true, SIGHT_CLEAR, false, OM_WM_DEFENDED, {INF, INF, INF}},
    [OM_WM_TERRAIN_HILL] = {false, SIGHT_BODY, false, OM_WM_OPEN, {ALL, ALL, ALL}},
    [OM_WM_TERRAIN_STEEP_HILL] = {true, SIGHT_BLOCKS, false, OM_WM_OPEN, {INF, INF, INF}},
    [OM_WM_TERRAIN_STREAM] = {false, SIGHT_CLEAR, false, OM_WM_OPEN,
                              {INF | CAV | MON, INF | CAV | MON, ALL}},
    [OM_WM_TERRAIN_RIVER] = {false, SIGHT_CLEAR, false, OM_WM_OPEN, {0, 0, 0}},
    [OM_WM_TERRAIN_LOW_OBSTACLE] = {false, SIGHT_CLEAR, true, OM_WM_DEFENDED,
                                    {INF | CAV | MON, INF | CAV | MON, INF | CAV | MON}},
    [OM_WM_TERRAIN_HIGH_OBSTACLE] = {false, SIGHT_BLOCKS, true, OM_WM_FORTIFIED,
                                     {INF, INF, INF}},
    [OM_WM_TERRAIN_BUILDING] = {false, SIGHT_BLOCKS, false, OM_WM_OPEN, {0, 0, 0}},
};

const char *const om_wm_terrain_names[OM_WM_TERRAIN_KIND_COUNT] = {
    [OM_WM_TERRAIN_WOOD] = "wood",
    [OM_WM_TERRAIN_VILLAGE] = "village",
    [OM_WM_TERRAIN_MARSH] = "marsh",
    [OM_WM_TERRAIN_HILL] = "hill",
    [OM_WM_TERRAIN_STEEP_HILL] = "steep-hill",
    [OM_WM_TERRAIN_STREAM] = "stream",
    [OM_WM_TERRAIN_RIVER] = "river",
    [OM_WM_TERRAIN_LOW_OBSTACLE] = "low-obstacle",
    [OM_WM_TERRAIN_HIGH_OBSTACLE] = "high-obstacle",
    [OM_WM_TERRAIN_BUILDING] = "building",
};

const char *const om_wm_character_kind_names[OM_WM_CHARACTER_KIND_COUNT] = {
    [OM_WM_GENERAL] = "general",
    [OM_WM_HERO] = "hero",
    [OM_WM_WIZARD] = "wizard",
};

/* Rule-set differences of the table. The lead moves these into om_wm_ruleset. */
typedef struct table_rules {
    double width_cm, depth_cm;   /* default table (Battlefields > Table Size and
                                    Deployment Areas: 6'x4'; Warmaster Ancients,
                                    The Battlefield > The Tabletop: 240 x 120) */
    double max_sight_cm;         /* farthest a unit sees (0: no limit; Ancients 60cm,
                                    Warmaster Ancients, Visibility > Maximum
                                    Visibility) */
    bool face_by_nearest_edge;   /* 1.1 charges the nearest edge (Warmaster 1.1 Rules
                                    Update, P33 – The charge; D1) */
    bool charge_at_formation_pace; /* Ancients: irregular units charge at half pace
                                      (Warmaster Ancients, Movement > Formation) */
    double stand_w[OM_WM_TROOP_COUNT]; /* frontage (cm) by troop type */
    double stand_d[OM_WM_TROOP_COUNT]; /* depth (cm) by troop type */
} table_rules;

/* Stands are 40x20mm. Warmaster: infantry face the long edge, every other type
 * the short one (Game Values). Ancients: infantry and cavalry the long
 * edge, chariots and elephants (monsters) the short one, artillery either (long
 * used here) (Warmaster Ancients, Game Values > Stands; Appendix 2: Base Sizes &
 * Model Scales). Scenarios may override per unit. */
static const table_rules table_rules_of[OM_WM_RULES_COUNT] = {
    [OM_WM_RULES_WM11] = {180, 120, 0, true, false, {4, 2, 2, 2, 2, 2}, {2, 4, 4, 4, 4, 4}},
    [OM_WM_RULES_REV] = {180, 120, 0, false, false, {4, 2, 2, 2, 2, 2}, {2, 4, 4, 4, 4, 4}},
    [OM_WM_RULES_WMA] = {240, 120, 60, false, true, {4, 4, 2, 2, 4, 2}, {2, 2, 4, 4, 2, 4}},
};

static const table_rules *rules_of(om_wm_ruleset_id id)
{
    return &table_rules_of[(unsigned)id < OM_WM_RULES_COUNT ? id : OM_WM_RULES_REV];
}

/* ---- Vectors, blocks and kept outlines ---- */

static om_wm_vec v_add(om_wm_vec a, om_wm_vec b) { return om_plane_add(a, b); }
static om_wm_vec v_sub(om_wm_vec a, om_wm_vec b) { return om_plane_sub(a, b); }
static om_wm_vec v_scale(om_wm_vec a, double s) { return om_plane_scale_by(a, s); }
static double v_dot(om_wm_vec a, om_wm_vec b) { return om_plane_dot(a, b); }
static double v_cross(om_wm_vec a, om_wm_vec b) { return om_plane_cross(a, b); }
static double v_len(om_wm_vec a) { return om_plane_len(a); }
static om_wm_vec v_right(om_wm_vec f) { return om_plane_right(f); }
/* The lesser and the greater of two numbers neither of which is NaN: fmin
 * and fmax are calls into the maths library on the hot paths of sight and
 * of the nearest enemies. Where they are used, zeros of either sign are alike
 * (box corners compared, a bound less a slack). */
static inline double lesser(double a, double b) { return b < a ? b : a; }
static inline double greater(double a, double b) { return b > a ? b : a; }

/* The table's scale: cm. */
static const om_plane_scale *const cm = OM_WM_TABLE_SCALE;

static unsigned unit_files(const om_wm_table_unit *u)
{
    switch (u->formation) {
    case OM_WM_TABLE_LINE:
        return u->stands;
    case OM_WM_TABLE_COLUMN:
        return 1;
    default:
        return u->files < 1 ? 1 : (u->files > u->stands ? u->stands : u->files);
    }
}

/* Unit u as the plane's block of stands (T1). */
static om_plane_block unit_block(const om_wm_table_unit *u)
{
    return (om_plane_block){u->centre, u->dir, u->stands, unit_files(u), u->stand_w, u->stand_d};
}

double om_wm_table_unit_width(const om_wm_table_unit *u) { return unit_files(u) * u->stand_w; }

double om_wm_table_unit_depth(const om_wm_table_unit *u)
{
    assert(u->stands > 0);
    const om_plane_block b = unit_block(u);
    return om_plane_block_depth(&b);
}

/* Unit u's rectangle placed at (c, f) and grown by `grow` on every side. */
static om_plane_poly unit_poly_at(const om_wm_table_unit *u, om_wm_vec c, om_wm_vec f, double grow)
{
    return om_plane_rect(c, f, om_wm_table_unit_width(u) / 2 + grow,
                         om_wm_table_unit_depth(u) / 2 + grow);
}

static om_plane_poly unit_poly(const om_wm_table_unit *u, double grow)
{
    return unit_poly_at(u, u->centre, u->dir, grow);
}

/* The shape of unit u placed at (c, f), grown by `grow`, into *s. */
static const om_plane_shape *pose_shape(const om_wm_table_unit *u, om_wm_vec c, om_wm_vec f,
                                        double grow, om_plane_shape *s)
{
    const om_plane_poly p = unit_poly_at(u, c, f, grow);
    om_plane_shape_of(s, &p);
    return s;
}

/* ---- The memo ----
 *
 * A trial's queries ask the same things again and again (the distance between
 * two units that have not moved, how a stand touches an enemy that has not
 * moved), and so do the trials of a run, whose units stand in the same few
 * places. The memo keeps the answers. Every unit of a table with a memo has an
 * id for its outline and the other values the queries read of it (its key):
 * equal keys get the same id, in one trial and the next (ids are interned per
 * unit, never given to another key). An answer is kept under the ids and
 * arguments it was worked out from, so an answer found is the answer the query
 * would work out, bit for bit. Answers that read terrain or the table's size
 * are the memo's table's: a memo handed a table of another size or terrain is
 * emptied first. A unit changed behind the table's back (its outline out of
 * date) is never looked up: its queries are worked out afresh. Whether a unit
 * is engaged, and whether one unit sees another, are also kept from one state
 * of the table to the next while no unit changes near it, or in the box around
 * the two (the memo logs each change of a unit on the table, with the boxes it
 * left and entered, and each table copied as a change everywhere): in a battle
 * every unit moves each turn, so whole states seldom come back, but most moves
 * are far from most units. */

/* What a unit's geometric queries read of it: its key. */
#define KEY_WORDS 7
typedef struct unit_key {
    uint64_t w[KEY_WORDS];
} unit_key;

/* Outlines a unit may have in the memo at once: an open-addressed table,
 * emptied when full (an outline then comes back with a new id). */
#define INTERN_SLOTS 32
/* Answers the memo holds: two-way sets (the one used last stays); an answer
 * pushed out is worked out again when asked. */
#define ANSWER_SLOTS 2048

/* Outlines the memo keeps worked out, by id (two-way sets): a unit that
 * moves back to a place it stood in takes its outline from here. */
#define GEOM_SLOTS 128

typedef struct geom_slot {
    uint64_t id;          /* the outline's id (0: empty) */
    double hw, hd;        /* as om_wm_table_geom */
    double radius;
    om_plane_shape shape;
} geom_slot;

/* A character's distance to a unit, and what it was worked out from. */
typedef struct character_slot {
    uint64_t id;          /* the unit's id (0: empty) */
    uint64_t x, y, r;     /* the character's place and base radius, bit for bit */
    double cm;            /* the distance */
} character_slot;

typedef struct intern_slot {
    unit_key key; /* the key */
    uint64_t id;  /* its id (0: empty) */
} intern_slot;

/* What an answer is (the low byte of its tag). */
enum answer_kind {
    ANSWER_DISTANCE = 1,   /* closest-edge distance of two units */
    ANSWER_TOUCHING,       /* whether two units touch */
    ANSWER_STAND_TOUCH,    /* how a stand touches an enemy unit */
    ANSWER_STAND_SUPPORT,  /* how a stand supports another */
    ANSWER_STAND_DISTANCE, /* distance from a stand to a unit */
};

typedef struct answer {
    uint64_t a, b; /* the ids it was worked out from (b 0: one unit) */
    uint32_t tag;  /* kind | argument bytes (stands, rule set) */
    union {
        double cm;
        om_wm_table_touch touch;
        uint32_t word;
    } v;           /* the answer */
} answer;

/* States of the whole table the memo knows (a direct-mapped table): which
 * units are on it and the id of each, named by an id of their own. */
#define STATE_SLOTS 256
/* Answers about the whole table (a direct-mapped table). */
#define TABLE_ANSWER_SLOTS 1024
/* Ids are kept under this (a state holds them in 32 bits): a memo whose
 * clock passes it is emptied when it is next handed a table. */
#define ID_LIMIT (UINT32_MAX / 2)

/* Changes of units on the table the memo remembers, in order (a ring): the
 * box a unit stood in and the box it stands in, for the answers kept per
 * unit across states (whether a unit is engaged: only a change near it can
 * change that). An unnamed unit's box is the whole plane. */
#define CHANGE_LOG 64

typedef struct change {
    uint32_t unit;         /* the unit that changed (OM_WM_TABLE_MAX_UNITS: every
                              unit, a table copied) */
    om_plane_box was, now; /* its boxes before and after */
} change;

/* Whether one unit sees another, kept across states (two-way sets, as the
 * answers): the answer reads the two units' outlines (their ids) and the
 * units whose boxes meet the box around both (the obstacles the test
 * gathers, gather_sight_obstacles), so it holds while no change logged since
 * meets that box. */
#define SIGHT_SLOTS 1024

typedef struct sight_slot {
    uint64_t from, to; /* the ids of the two units (0: empty) */
    uint32_t tag;      /* the rule set and all-round flag, as TABLE_SEES's */
    uint32_t word;     /* the answer */
    uint64_t at;       /* changes_made when it was last known to hold */
    om_plane_box area; /* the box around both units */
} sight_slot;

typedef struct state_slot {
    uint32_t id;                          /* its id (0: empty) */
    uint32_t n;                           /* units */
    uint32_t w[OM_WM_TABLE_MAX_UNITS];    /* each unit's id, 0 when not on the table */
} state_slot;

/* What an answer about the whole table is (the low byte of its tag). */
enum table_answer_kind {
    TABLE_SEES = 1,        /* a unit sees another */
    TABLE_VISIBLE,         /* the closest visible enemy */
    TABLE_CHARGE,          /* a charge plan */
    TABLE_MOVE,            /* where a move ends */
    TABLE_MOVE_GROUP,      /* where a group's move ends */
    TABLE_BEHIND,          /* what lies behind a unit */
    TABLE_ENGAGED,         /* a unit touches an enemy */
    TABLE_CLOSEST_ENEMY,   /* the closest enemy, seen or not */
    TABLE_CLOSEST_POINTS,  /* the closest points of two units (name: the first's id) */
    TABLE_ANY_CONTACT,     /* some unit touches an enemy */
    TABLE_CALLER,          /* a caller's answer (om_wm_table_recall) */
};

/* Arguments of an answer about the whole table beyond its tag: the bits of
 * its numbers (a goal, a distance, a pace, a rule's gaps). */
#define TABLE_ARGS 6

typedef struct table_answer {
    uint32_t state;             /* the state it was worked out in, or a unit's id for
                                   the kinds about one unit (0: empty) */
    uint32_t tag;               /* kind | unit indices and flags */
    uint64_t arg[TABLE_ARGS];   /* the other arguments, bit for bit */
    union {
        uint32_t word;
        struct {
            int unit;
            double cm;
        } visible;
        om_wm_table_charge charge;
        struct {
            om_wm_vec centre, dir; /* where the unit ends, facing */
            double moved;          /* the distance returned */
            om_wm_unit_set burst;  /* friends burst through */
            uint64_t id;           /* the id of the outline it ends with */
        } move;
        struct {
            om_wm_vec centre[OM_WM_BRIGADE_MAX_UNITS]; /* where the units end */
            double moved;
            uint32_t id[OM_WM_BRIGADE_MAX_UNITS];    /* their outlines' ids */
        } group;
        om_wm_table_behind behind;
        struct {
            om_wm_vec pa, pb;
        } points;
        unsigned char bytes[OM_WM_TABLE_RECALL_BYTES]; /* a caller's */
    } v;                        /* the answer */
} table_answer;

struct om_wm_table_memo {
    uint64_t clock;                                          /* the last id given */
    uint32_t state_clock;                                    /* the last state id given */
    uint32_t state;                                          /* the id of the state of the
                                                                table it serves, 0:
                                                                unknown (a unit changed) */
    double width_cm, depth_cm;                               /* the table whose answers
                                                                it holds */
    uint8_t terrain_pieces;
    om_wm_terrain terrain[OM_WM_TABLE_MAX_TERRAIN];          /* (kind and corners) */
    intern_slot intern[OM_WM_TABLE_MAX_UNITS][INTERN_SLOTS]; /* by unit index */
    intern_slot start[OM_WM_TABLE_MAX_UNITS];                /* each unit's key and id as the
                                                                last table copied started */
    answer answer[ANSWER_SLOTS];
    geom_slot geoms[GEOM_SLOTS];
    state_slot states[STATE_SLOTS];
    table_answer table[TABLE_ANSWER_SLOTS];
    /* The answers asked most, about the state the table is in now: kept in
     * plain arrays while it stays in it (a trial asks them again and again
     * between two moves), forgotten when it leaves it. */
    uint32_t scratch;                            /* that state (0: none) */
    om_wm_unit_set touch_known[OM_WM_TABLE_MAX_UNITS]; /* b in [a]: touching(a, b) known */
    om_wm_unit_set touch[OM_WM_TABLE_MAX_UNITS];       /* ...and its answer */
    om_wm_unit_set engaged_known, engaged;       /* u in them: engaged(u) known, its answer */
    /* Whether each unit is engaged, kept across states: the answer holds
     * while no unit changes near it (the change log since it was worked
     * out says). Forgotten when a table is copied. */
    change changes[CHANGE_LOG];                  /* the last changes, a ring */
    uint64_t changes_made;                       /* changes ever logged */
    om_plane_box box[OM_WM_TABLE_MAX_UNITS];     /* each unit's box as last logged */
    om_wm_unit_set unit_engaged_known, unit_engaged; /* u in them: its answer kept, the answer */
    uint64_t unit_engaged_at[OM_WM_TABLE_MAX_UNITS]; /* ...and changes_made then */
    sight_slot sight[SIGHT_SLOTS];               /* sight kept across states */
    om_wm_unit_set enemy_known;                  /* u in it: closest_enemy(u) known */
    struct {
        int unit;
        double cm;
    } enemy[OM_WM_TABLE_MAX_UNITS];              /* ...and its answer */
    /* Each unit's terrain status, and the id of the outline it is of (0:
     * none): a unit asks it again and again where it stands. */
    struct {
        uint64_t id;
        bool dense;               /* om_wm_table_in_dense */
        om_wm_position position;  /* om_wm_table_position */
    } terrain_of[OM_WM_TABLE_MAX_UNITS];
    /* Characters' distances to units, by character and unit (characters stand
     * still through most of a phase). */
    character_slot character[OM_WM_TABLE_MAX_CHARACTERS][OM_WM_TABLE_MAX_UNITS];
    /* The table's state as its units change: each unit's id (0 when it is not
     * on the table), their hash, and the units on it that have no id. */
    uint32_t current[OM_WM_TABLE_MAX_UNITS];
    uint64_t current_hash;
    om_wm_unit_set unnamed;
    /* The words and hash of the last table copied as it started. */
    uint32_t start_word[OM_WM_TABLE_MAX_UNITS];
    uint64_t start_hash;
    unsigned start_units; /* its units (0: none yet) */
};

/* The bits of a double, for exact comparison and hashing. */
static inline uint64_t bits_of(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

/* SplitMix64's finaliser: a good spread of a 64-bit key over the slots. */
static inline uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9u;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebu;
    x ^= x >> 31;
    return x;
}

/* The last word of a unit's key: its values other than its outline. */
static inline uint64_t key_rest_of(const om_wm_table_unit *u)
{
    return (uint64_t)u->traits | (uint64_t)u->stands << 32 | (uint64_t)unit_files(u) << 40 |
           (uint64_t)u->side << 48 | (uint64_t)((unsigned)u->troop & 0xfu) << 52 |
           (uint64_t)((unsigned)u->position & 0x3u) << 56 | (uint64_t)(u->dense ? 1 : 0) << 58;
}

static unit_key key_of(const om_wm_table_unit *u)
{
    unit_key k;
    k.w[0] = bits_of(u->centre.x);
    k.w[1] = bits_of(u->centre.y);
    k.w[2] = bits_of(u->dir.x);
    k.w[3] = bits_of(u->dir.y);
    k.w[4] = bits_of(u->stand_w);
    k.w[5] = bits_of(u->stand_d);
    k.w[6] = key_rest_of(u);
    return k;
}

static inline bool key_eq(const unit_key *a, const unit_key *b)
{
    bool eq = true;
    for (unsigned i = 0; i < KEY_WORDS; i++)
        eq &= a->w[i] == b->w[i];
    return eq;
}

/* The id of unit u's key in memo m: the one it had, or a new one. */
static uint64_t intern(om_wm_table_memo *m, unsigned u, const unit_key *k)
{
    /* Odd multipliers spread each word; one finaliser mixes them. */
    static const uint64_t mul[KEY_WORDS] = {0x9e3779b97f4a7c15u, 0xc2b2ae3d27d4eb4fu,
                                            0x165667b19e3779f9u, 0xd6e8feb86659fd93u,
                                            0xa0761d6478bd642fu, 0xe7037ed1a0b428dbu,
                                            0x8ebc6af09c88c6e3u};
    intern_slot *slots = m->intern[u];
    uint64_t h = 0;
    unsigned i;
    for (unsigned w = 0; w < KEY_WORDS; w++)
        h ^= k->w[w] * mul[w];
    h = mix64(h);
    i = (unsigned)(h % INTERN_SLOTS);
    for (unsigned probe = 0; probe < INTERN_SLOTS; probe++, i = (i + 1) % INTERN_SLOTS) {
        if (slots[i].id == 0) {
            slots[i].key = *k;
            slots[i].id = ++m->clock;
            return slots[i].id;
        }
        if (key_eq(&slots[i].key, k))
            return slots[i].id;
    }
    /* Full: start again (the ids given stay the units' and are not given
     * again). */
    memset(slots, 0, INTERN_SLOTS * sizeof slots[0]);
    i = (unsigned)(h % INTERN_SLOTS);
    slots[i].key = *k;
    slots[i].id = ++m->clock;
    return slots[i].id;
}

/* Whether unit u's kept outline is still its own: what it was worked out from
 * is unchanged, bit for bit. */
static inline bool geom_current(const om_wm_table_unit *u)
{
    const om_wm_table_geom *g = &u->geom;
    return bits_of(g->centre.x) == bits_of(u->centre.x) &&
           bits_of(g->centre.y) == bits_of(u->centre.y) &&
           bits_of(g->dir.x) == bits_of(u->dir.x) && bits_of(g->dir.y) == bits_of(u->dir.y) &&
           g->stands == u->stands && g->files == unit_files(u) &&
           bits_of(g->stand_w) == bits_of(u->stand_w) &&
           bits_of(g->stand_d) == bits_of(u->stand_d);
}

/* The hash of unit i's word of a state. */
static inline uint64_t state_word_hash(unsigned i, uint32_t w)
{
    return mix64(((uint64_t)i << 32 | w) ^ 0x2545f4914f6cdd1du);
}

/* The box of the whole plane: a change there is near every unit. */
static const om_plane_box everywhere = {-INFINITY, -INFINITY, INFINITY, INFINITY};

/* The box unit u stands in for the change log: its outline's if named,
 * the whole plane if on the table unnamed, `gone` if off it. */
static om_plane_box log_box(const om_wm_table_unit *u, om_plane_box gone)
{
    if (!u->present)
        return gone;
    return u->geom.id != 0 ? u->geom.shape.box : everywhere;
}

/* Unit i (u) in the memo's state of its table: its id, or 0 off the table.
 * The state changes, and its id is forgotten; the change is logged. */
static void memo_name(om_wm_table_memo *m, unsigned i, const om_wm_table_unit *u)
{
    const uint32_t w = u->present ? (uint32_t)u->geom.id : 0u;
    const bool unnamed = u->present && u->geom.id == 0;
    change *c;
    if (m->current[i] == w && om_wm_unit_set_has(&m->unnamed, i) == unnamed)
        return; /* the same state */
    c = &m->changes[m->changes_made++ % CHANGE_LOG];
    c->unit = i;
    c->was = m->box[i];
    c->now = m->box[i] = log_box(u, m->box[i]);
    m->current_hash ^= state_word_hash(i, m->current[i]) ^ state_word_hash(i, w);
    m->current[i] = w;
    om_wm_unit_set_put(&m->unnamed, i, unnamed);
    m->state = 0;
}

static void geom_work(om_wm_table_memo *m, om_wm_table_unit *u, unsigned i, uint64_t id);

/* Work out unit u (index i) and what it is worked out from; with a memo, its
 * id, and its word of the table's state. */
static void geom_update(om_wm_table_memo *m, om_wm_table_unit *u, unsigned i)
{
    geom_work(m, u, i, 0);
    if (m != NULL && i < OM_WM_TABLE_MAX_UNITS)
        memo_name(m, i, u);
}

/* geom_update of a unit whose id is known (an answer kept it: the id of the
 * key the unit now has, never given to another). */
static void geom_update_named(om_wm_table_memo *m, om_wm_table_unit *u, unsigned i, uint64_t id)
{
    geom_work(m, u, i, id);
    if (m != NULL && i < OM_WM_TABLE_MAX_UNITS)
        memo_name(m, i, u);
}

static void geom_work(om_wm_table_memo *m, om_wm_table_unit *u, unsigned i, uint64_t id)
{
    om_wm_table_geom *g = &u->geom;
    double w, d;
    if (u->stands == 0) {
        g->id = 0; /* no block to draw: it keeps its last outline, and no id */
        return;
    }
    if (geom_current(u) && (m == NULL ? g->id == 0 : g->id != 0 && g->key_rest == key_rest_of(u)))
        return; /* nothing it is worked out from changed */
    g->centre = u->centre;
    g->dir = u->dir;
    g->stand_w = u->stand_w;
    g->stand_d = u->stand_d;
    g->stands = u->stands;
    g->files = (uint8_t)unit_files(u);
    g->id = 0;
    if (m != NULL) {
        geom_slot *set;
        if (id != 0) {
            g->id = id;
            g->key_rest = key_rest_of(u);
        } else {
            const unit_key k = key_of(u);
            g->id = intern(m, i, &k);
            g->key_rest = k.w[KEY_WORDS - 1];
        }
        set = &m->geoms[(mix64(g->id) % (GEOM_SLOTS / 2)) * 2];
        for (unsigned j = 0; j < 2; j++)
            if (set[j].id == g->id) {
                g->hw = set[j].hw;
                g->hd = set[j].hd;
                g->radius = set[j].radius;
                g->shape = set[j].shape;
                return;
            }
    }
    w = om_wm_table_unit_width(u);
    d = om_wm_table_unit_depth(u);
    g->hw = w / 2;
    g->hd = d / 2;
    g->radius = sqrt(w * w + d * d) / 2;
    (void)pose_shape(u, u->centre, u->dir, 0, &g->shape);
    if (m != NULL) {
        geom_slot *set = &m->geoms[(mix64(g->id) % (GEOM_SLOTS / 2)) * 2];
        set[1] = set[0];
        set[0] = (geom_slot){g->id, g->hw, g->hd, g->radius, g->shape};
    }
}

/* The shape of unit u: its kept one, or worked out afresh into *tmp when the
 * unit changed since it was kept. */
static inline const om_plane_shape *unit_shape(const om_wm_table_unit *u, om_plane_shape *tmp)
{
    if (geom_current(u))
        return &u->geom.shape;
    return pose_shape(u, u->centre, u->dir, 0, tmp);
}

/* The radius of the circle around unit u's rectangle. */
static inline double unit_radius(const om_wm_table_unit *u)
{
    double w, d;
    if (geom_current(u))
        return u->geom.radius;
    w = om_wm_table_unit_width(u);
    d = om_wm_table_unit_depth(u);
    return sqrt(w * w + d * d) / 2;
}

/* The id of unit u for the memo: 0 when there is no memo (or no id), and
 * then nothing about it is looked up or kept. A table with a memo is changed
 * only by this module's functions and by callers that tell it
 * (om_wm_table_update), so a unit's id is its key's: debug builds check. */
static inline uint64_t memo_id(const om_wm_table *t, const om_wm_table_unit *u)
{
    if (t->memo == NULL)
        return 0;
    assert(u->geom.id == 0 || (geom_current(u) && u->geom.key_rest == key_rest_of(u)));
    return u->geom.id;
}

/* The memo's answer of `tag` about ids a and b, or NULL. Answers live in
 * two-way sets: the last one kept stays in a set's first slot. */
static inline const answer *answer_find(const om_wm_table_memo *m, uint64_t a, uint64_t b,
                                        uint32_t tag)
{
    const uint64_t h = mix64(a * 0x9e3779b97f4a7c15u ^ b * 0xc2b2ae3d27d4eb4fu ^ tag);
    const answer *e = &m->answer[(h % (ANSWER_SLOTS / 2)) * 2];
    for (unsigned i = 0; i < 2; i++)
        if (e[i].a == a && e[i].b == b && e[i].tag == tag)
            return &e[i];
    return NULL;
}

/* Keep answer *x (its ids, tag and value), the older of its set giving way.
 * Called once the answer is worked out: working it out may keep others. */
static inline void answer_put(om_wm_table_memo *m, const answer *x)
{
    const uint64_t h = mix64(x->a * 0x9e3779b97f4a7c15u ^ x->b * 0xc2b2ae3d27d4eb4fu ^ x->tag);
    answer *e = &m->answer[(h % (ANSWER_SLOTS / 2)) * 2];
    if (!(e[0].a == x->a && e[0].b == x->b && e[0].tag == x->tag))
        e[1] = e[0];
    e[0] = *x;
}

/* Whether state slot `s` holds the state `w` of n units. */
static inline bool state_is(const state_slot *s, const uint32_t *w, unsigned n)
{
    return s->id != 0 && s->n == n && memcmp(s->w, w, n * sizeof w[0]) == 0;
}

/* The id of the state the memo's table is in, worked out (state_id). */
static uint32_t state_lookup(const om_wm_table *t)
{
    om_wm_table_memo *m = t->memo;
    const uint32_t *w = m->current;
    state_slot *slot;
    if (!om_wm_unit_set_empty(&m->unnamed))
        return 0;
    slot = &m->states[(mix64(m->current_hash ^ t->units) % (STATE_SLOTS / 2)) * 2];
    if (state_is(&slot[1], w, t->units)) {
        slot++;
    } else if (!state_is(&slot[0], w, t->units)) {
        /* Two-way sets, as answer_find. */
        slot[1] = slot[0];
        slot->id = ++m->state_clock;
        slot->n = t->units;
        memcpy(slot->w, w, t->units * sizeof w[0]);
    }
    m->state = slot->id;
    return m->state;
}

/* The id of the state of table t in its memo: which units are on it and the
 * id of each; 0 when there is no memo or a unit on it has no id (then
 * nothing about the whole table is looked up or kept). Known until a unit
 * changes (memo_name forgets it). */
static inline uint32_t state_id(const om_wm_table *t)
{
    const om_wm_table_memo *m = t->memo;
    if (m == NULL)
        return 0;
#ifndef NDEBUG
    /* Every change of the table was told (om_wm_table_update). */
    for (unsigned u = 0; u < t->units; u++)
        assert(m->current[u] == (t->unit[u].present ? (uint32_t)t->unit[u].geom.id : 0u));
#endif
    return m->state != 0 ? m->state : state_lookup(t);
}

/* The memo's slot for an answer about the whole table in state `st`; a hit
 * when its state, tag and arguments are these. */
static bool table_is(const table_answer *e, uint32_t st, uint32_t tag, const uint64_t *arg)
{
    bool eq = e->state == st && e->tag == tag;
    for (unsigned i = 0; i < TABLE_ARGS; i++)
        eq &= e->arg[i] == arg[i];
    return eq;
}

/* The set of an answer about the whole table in state `st`. */
static table_answer *table_set(const om_wm_table_memo *m, uint32_t st, uint32_t tag,
                               const uint64_t *arg)
{
    /* Odd multipliers spread each word; one finaliser mixes them. */
    static const uint64_t k[TABLE_ARGS] = {0x9e3779b97f4a7c15u, 0xc2b2ae3d27d4eb4fu,
                                           0x165667b19e3779f9u, 0xd6e8feb86659fd93u,
                                           0xa0761d6478bd642fu, 0xe7037ed1a0b428dbu};
    uint64_t h = (uint64_t)st << 32 | tag;
    for (unsigned i = 0; i < TABLE_ARGS; i++)
        h ^= arg[i] * k[i];
    h = mix64(h);
    return (table_answer *)&m->table[(h % (TABLE_ANSWER_SLOTS / 2)) * 2];
}

/* The memo's answer about the whole table in state `st`, or NULL (two-way
 * sets, as answer_find). */
static const table_answer *table_find(const om_wm_table_memo *m, uint32_t st, uint32_t tag,
                                      const uint64_t *arg)
{
    const table_answer *e = table_set(m, st, tag, arg);
    for (unsigned i = 0; i < 2; i++)
        if (table_is(&e[i], st, tag, arg))
            return &e[i];
    return NULL;
}

/* Keep answer *x, its state, tag and arguments filled (as answer_put). */
static void table_put(om_wm_table_memo *m, const table_answer *x)
{
    table_answer *e = table_set(m, x->state, x->tag, x->arg);
    if (!table_is(&e[0], x->state, x->tag, x->arg))
        e[1] = e[0];
    e[0] = *x;
}

/* The memo's scratch for state `st` of table t (st not 0): emptied when the
 * table has left the state it held. */
static inline om_wm_table_memo *scratch_of(const om_wm_table *t, uint32_t st)
{
    om_wm_table_memo *m = t->memo;
    if (m->scratch != st) {
        m->scratch = st;
        memset(m->touch_known, 0, t->units * sizeof m->touch_known[0]);
        m->engaged_known = (om_wm_unit_set){0};
        m->enemy_known = (om_wm_unit_set){0};
    }
    return m;
}

/* The shape of terrain piece k: made when it was added (om_wm_table_update
 * after its corners change). */
static inline const om_plane_shape *terrain_shape(const om_wm_terrain *k)
{
    assert(k->shape.p.n == k->vertices &&
           memcmp(k->shape.p.v, k->v, k->vertices * sizeof k->v[0]) == 0);
    return &k->shape;
}

static void terrain_update(om_wm_terrain *k)
{
    om_plane_poly p = {.n = k->vertices};
    memcpy(p.v, k->v, k->vertices * sizeof p.v[0]);
    om_plane_shape_of(&k->shape, &p);
}

void om_wm_table_update(om_wm_table *t, uint32_t u)
{
    if (u != OM_WM_TABLE_ALL) {
        if (u < t->units)
            geom_update(t->memo, &t->unit[u], u);
        return;
    }
    for (unsigned i = 0; i < t->units; i++)
        geom_update(t->memo, &t->unit[i], i);
    for (unsigned k = 0; k < t->terrain_pieces; k++)
        if (t->terrain[k].vertices <= OM_WM_TABLE_MAX_VERTICES)
            terrain_update(&t->terrain[k]);
}

/* Empty the memo and make it the memo of a table of t's size and terrain. */
static void memo_reset(om_wm_table_memo *m, const om_wm_table *t)
{
    m->clock = 0;
    m->state_clock = 0;
    m->state = 0;
    memset(m->intern, 0, sizeof m->intern);
    memset(m->start, 0, sizeof m->start);
    memset(m->start_word, 0, sizeof m->start_word);
    m->start_hash = 0;
    m->start_units = 0;
    memset(m->answer, 0, sizeof m->answer);
    memset(m->geoms, 0, sizeof m->geoms);
    memset(m->states, 0, sizeof m->states);
    memset(m->table, 0, sizeof m->table);
    memset(m->sight, 0, sizeof m->sight);
    m->scratch = 0;
    memset(m->character, 0, sizeof m->character);
    memset(m->terrain_of, 0, sizeof m->terrain_of);
    m->width_cm = t->width_cm;
    m->depth_cm = t->depth_cm;
    m->terrain_pieces = t->terrain_pieces;
    memset(m->terrain, 0, sizeof m->terrain);
    for (unsigned k = 0; k < t->terrain_pieces; k++) {
        m->terrain[k].kind = t->terrain[k].kind;
        m->terrain[k].vertices = t->terrain[k].vertices;
        memcpy(m->terrain[k].v, t->terrain[k].v, sizeof m->terrain[k].v);
    }
}

/* Whether memo m holds the answers of a table of t's size and terrain. */
static bool memo_of(const om_wm_table_memo *m, const om_wm_table *t)
{
    if (bits_of(m->width_cm) != bits_of(t->width_cm) ||
        bits_of(m->depth_cm) != bits_of(t->depth_cm) || m->terrain_pieces != t->terrain_pieces)
        return false;
    for (unsigned k = 0; k < t->terrain_pieces; k++)
        if (m->terrain[k].kind != t->terrain[k].kind ||
            m->terrain[k].vertices != t->terrain[k].vertices ||
            memcmp(m->terrain[k].v, t->terrain[k].v, sizeof m->terrain[k].v) != 0)
            return false;
    return true;
}

om_status om_wm_table_memo_alloc(om_wm_table_memo **out)
{
    om_wm_table_memo *m = calloc(1, sizeof *m);
    *out = m;
    if (m == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a table's memo");
    m->width_cm = NAN; /* the memo of no table yet */
    return OM_OK;
}

void om_wm_table_memo_free(om_wm_table_memo *m) { free(m); }

void om_wm_table_copy(om_wm_table *dst, const om_wm_table *src, om_wm_table_memo *memo)
{
    dst->width_cm = src->width_cm;
    dst->depth_cm = src->depth_cm;
    dst->units = src->units;
    dst->characters = src->characters;
    dst->terrain_pieces = src->terrain_pieces;
    dst->brigades = src->brigades;
    memcpy(dst->unit, src->unit, src->units * sizeof src->unit[0]);
    memcpy(dst->character, src->character, src->characters * sizeof src->character[0]);
    memcpy(dst->terrain, src->terrain, src->terrain_pieces * sizeof src->terrain[0]);
    memcpy(dst->brigade, src->brigade, src->brigades * sizeof src->brigade[0]);
    dst->memo = memo;
    if (memo == NULL)
        return;
    if (!memo_of(memo, src) || memo->clock > ID_LIMIT || memo->state_clock > ID_LIMIT)
        memo_reset(memo, src);
    memo->state = 0;
    /* Name the units in the memo: a unit whose outline is out of date gets no
     * id (it is worked out afresh at every query). */
    for (unsigned u = 0; u < dst->units; u++) {
        om_wm_table_unit *un = &dst->unit[u];
        if (un->stands > 0 && geom_current(un)) {
            const unit_key k = key_of(un);
            /* Trials start from the same table: the id of the last start
             * is the key's (ids are never given to another key). */
            if (memo->start[u].id == 0 || !key_eq(&memo->start[u].key, &k))
                memo->start[u] = (intern_slot){k, intern(memo, u, &k)};
            un->geom.id = memo->start[u].id;
            un->geom.key_rest = k.w[KEY_WORDS - 1];
        } else {
            un->geom.id = 0;
        }
    }
    /* The state of the table, from its units: each unit's word, their hash
     * (the XOR of each word's, as memo_name keeps it) and the units on it
     * without an id. The hash of the last start serves again when every word
     * is the same. */
    {
        bool same = memo->start_units == dst->units;
        memo->unnamed = (om_wm_unit_set){0};
        for (unsigned u = 0; u < dst->units && u < OM_WM_TABLE_MAX_UNITS; u++) {
            const om_wm_table_unit *un = &dst->unit[u];
            const uint32_t w = un->present ? (uint32_t)un->geom.id : 0u;
            same = same && memo->start_word[u] == w;
            memo->current[u] = memo->start_word[u] = w;
            if (un->present && un->geom.id == 0)
                om_wm_unit_set_add(&memo->unnamed, u);
        }
        /* Answers kept per unit are forgotten: the log starts here. */
        for (unsigned u = 0; u < dst->units && u < OM_WM_TABLE_MAX_UNITS; u++)
            memo->box[u] = log_box(&dst->unit[u], everywhere);
        memo->unit_engaged_known = (om_wm_unit_set){0};
        /* The copy changes units behind the log's back: it is logged as a
         * change everywhere, which no answer kept before it outlives. */
        memo->changes[memo->changes_made++ % CHANGE_LOG] =
            (change){OM_WM_TABLE_MAX_UNITS, everywhere, everywhere};
        if (!same) {
            memo->start_hash = 0;
            for (unsigned u = 0; u < dst->units && u < OM_WM_TABLE_MAX_UNITS; u++)
                memo->start_hash ^= state_word_hash(u, memo->current[u]);
            memo->start_units = dst->units;
        }
        memo->current_hash = memo->start_hash;
    }
}

void om_wm_table_unit_corners(const om_wm_table_unit *u, om_wm_vec corner[4])
{
    om_plane_poly p = unit_poly(u, 0);
    memcpy(corner, p.v, 4 * sizeof corner[0]);
}

/* ---- Building ---- */

void om_wm_table_init(om_wm_table *t, om_wm_ruleset_id rules, double width_cm, double depth_cm)
{
    const table_rules *r = rules_of(rules);
    memset(t, 0, sizeof *t);
    t->width_cm = width_cm > 0 ? width_cm : r->width_cm;
    t->depth_cm = depth_cm > 0 ? depth_cm : r->depth_cm;
}

void om_wm_table_stand_size(om_wm_ruleset_id rules, om_wm_troop troop, double *w, double *d)
{
    const table_rules *r = rules_of(rules);
    unsigned k = (unsigned)troop < OM_WM_TROOP_COUNT ? (unsigned)troop : 0;
    *w = r->stand_w[k];
    *d = r->stand_d[k];
}

int om_wm_table_add_unit(om_wm_table *t, om_wm_ruleset_id rules, const char *name,
                         unsigned side, om_wm_troop troop, unsigned stands,
                         om_wm_table_formation formation, om_wm_vec centre, double facing_deg)
{
    om_wm_table_unit *u;
    if (t->units >= OM_WM_TABLE_MAX_UNITS || side > 1 || (unsigned)troop >= OM_WM_TROOP_COUNT ||
        stands < 1 || stands > OM_WM_TABLE_MAX_STANDS ||
        (unsigned)formation >= OM_WM_TABLE_FORMATION_COUNT)
        return -1;
    u = &t->unit[t->units];
    memset(u, 0, sizeof *u);
    snprintf(u->name, sizeof u->name, "%s", name ? name : "");
    u->side = (uint8_t)side;
    u->troop = troop;
    u->size = u->stands = (uint8_t)stands;
    u->pace_cm = (uint8_t)om_wm_troop_pace(troop);
    u->formation = formation;
    u->files = 2;
    om_wm_table_stand_size(rules, troop, &u->stand_w, &u->stand_d);
    u->centre = centre;
    u->dir = om_wm_table_dir(facing_deg);
    u->position = OM_WM_OPEN;
    u->present = true;
    geom_update(t->memo, u, t->units);
    return t->units++;
}

int om_wm_table_add_character(om_wm_table *t, const char *name, unsigned side,
                              om_wm_character_kind kind, unsigned command, om_wm_vec at)
{
    om_wm_table_character *c;
    if (t->characters >= OM_WM_TABLE_MAX_CHARACTERS || side > 1 ||
        (unsigned)kind >= OM_WM_CHARACTER_KIND_COUNT || command > 12)
        return -1;
    c = &t->character[t->characters];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name ? name : "");
    c->side = (uint8_t)side;
    c->kind = kind;
    c->command = (uint8_t)command;
    c->at = at;
    c->joined = -1;
    c->follow = -1;
    return t->characters++;
}

int om_wm_table_add_terrain(om_wm_table *t, om_wm_terrain_kind kind, const om_wm_vec *v,
                            unsigned n)
{
    om_wm_terrain *k;
    if (t->terrain_pieces >= OM_WM_TABLE_MAX_TERRAIN || n > OM_WM_TABLE_MAX_VERTICES ||
        (unsigned)kind >= OM_WM_TERRAIN_KIND_COUNT)
        return -1;
    k = &t->terrain[t->terrain_pieces];
    memset(k, 0, sizeof *k);
    k->kind = kind;
    k->vertices = (uint8_t)n;
    memcpy(k->v, v, n * sizeof v[0]);
    terrain_update(k);
    return t->terrain_pieces++;
}

int om_wm_table_add_rect_terrain(om_wm_table *t, om_wm_terrain_kind kind, om_wm_vec lo,
                                 om_wm_vec hi)
{
    om_wm_vec v[4] = {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
    return om_wm_table_add_terrain(t, kind, v, 4);
}

int om_wm_table_add_brigade(om_wm_table *t, const unsigned *u, unsigned n)
{
    om_wm_table_brigade *b;
    if (t->brigades >= OM_WM_TABLE_MAX_BRIGADES || n > OM_WM_BRIGADE_MAX_UNITS)
        return -1;
    b = &t->brigade[t->brigades];
    memset(b, 0, sizeof *b);
    b->count = (uint8_t)n;
    for (unsigned i = 0; i < n; i++)
        b->unit[i] = (uint8_t)u[i];
    return t->brigades++;
}

/* ---- Terrain questions ---- */

bool om_wm_table_terrain_closed(om_wm_ruleset_id rules, om_wm_terrain_kind kind,
                                om_wm_troop troop)
{
    unsigned r = (unsigned)rules < OM_WM_RULES_COUNT ? (unsigned)rules : OM_WM_RULES_REV;
    return (terrain_table[kind].enter[r] & (1u << troop)) == 0;
}

/* Whether unit u may not end a move overlapping piece k (flyers: woods and
 * what infantry cannot enter, Flying Units > Terrain). */
static bool closed_to_end(om_wm_ruleset_id rules, const om_wm_table_unit *u,
                          const om_wm_terrain *k)
{
    if (u->traits & OM_WM_TABLE_TRAIT_FLYER)
        return k->kind == OM_WM_TERRAIN_WOOD ||
               om_wm_table_terrain_closed(rules, k->kind, OM_WM_INFANTRY);
    return om_wm_table_terrain_closed(rules, k->kind, u->troop);
}

/* Whether unit u's rectangle is in (overlaps) piece k, or for a linear piece
 * touches it. */
static bool unit_at_terrain(const om_wm_table_unit *u, const om_wm_terrain *k)
{
    om_plane_shape tmp;
    const om_plane_shape *a = unit_shape(u, &tmp), *b = terrain_shape(k);
    if (terrain_table[k->kind].linear)
        return om_plane_distance(a, b) <= OM_WM_TABLE_TOUCH_CM;
    return om_plane_overlap(a, b, 0);
}

static bool in_dense(const om_wm_table *t, unsigned u);
static om_wm_position position(const om_wm_table *t, unsigned u);

/* The memo's terrain status of unit u (id iu), worked out if it is of
 * another outline (the terrain is the memo's table's). */
static void terrain_status(const om_wm_table *t, unsigned u, uint64_t iu)
{
    om_wm_table_memo *m = t->memo;
    if (m->terrain_of[u].id != iu) {
        m->terrain_of[u].dense = in_dense(t, u);
        m->terrain_of[u].position = position(t, u);
        m->terrain_of[u].id = iu;
    }
}

bool om_wm_table_in_dense(const om_wm_table *t, unsigned u)
{
    const uint64_t iu = memo_id(t, &t->unit[u]);
    if (iu == 0 || u >= OM_WM_TABLE_MAX_UNITS)
        return in_dense(t, u);
    terrain_status(t, u, iu);
    return t->memo->terrain_of[u].dense;
}

om_wm_position om_wm_table_position(const om_wm_table *t, unsigned u)
{
    const uint64_t iu = memo_id(t, &t->unit[u]);
    if (iu == 0 || u >= OM_WM_TABLE_MAX_UNITS)
        return position(t, u);
    terrain_status(t, u, iu);
    return t->memo->terrain_of[u].position;
}

/* Whether unit u is in dense terrain, worked out (the terrain is the memo's
 * table's). */
static bool in_dense(const om_wm_table *t, unsigned u)
{
    const om_wm_table_unit *un = &t->unit[u];
    if (un->dense)
        return true;
    for (unsigned k = 0; k < t->terrain_pieces; k++)
        if (terrain_table[t->terrain[k].kind].dense && unit_at_terrain(un, &t->terrain[k]))
            return true;
    return false;
}

/* The position unit u counts as, worked out. */
static om_wm_position position(const om_wm_table *t, unsigned u)
{
    const om_wm_table_unit *un = &t->unit[u];
    om_wm_position best = un->position;
    if (un->troop != OM_WM_INFANTRY && un->troop != OM_WM_ARTILLERY)
        return OM_WM_OPEN; /* only infantry and artillery are ever defended (Combat >
                              Defended & Fortified Troops) */
    for (unsigned k = 0; k < t->terrain_pieces; k++) {
        om_wm_position p = terrain_table[t->terrain[k].kind].cover;
        if (p > best && unit_at_terrain(un, &t->terrain[k]))
            best = p;
    }
    return best;
}

/* ---- Distances ---- */

/* The shape of unit u of table t: the one its outline keeps when the memo
 * names it (its outline is then current, memo_id), else unit_shape's. For
 * the loops over every unit: no check of the outline. */
static inline const om_plane_shape *shape_in(const om_wm_table *t, const om_wm_table_unit *u,
                                             om_plane_shape *tmp)
{
    return memo_id(t, u) != 0 ? &u->geom.shape : unit_shape(u, tmp);
}

/* The radius of the circle around unit u: the one its outline keeps when the
 * memo names it (its outline is then current, memo_id), else worked out. */
static inline double radius_of(const om_wm_table *t, const om_wm_table_unit *u)
{
    return memo_id(t, u) != 0 ? u->geom.radius : unit_radius(u);
}

/* A lower bound of the distance between two units from their circumscribed
 * circles: enough to skip exact polygon distances to units clearly too far. */
static inline double distance_floor(const om_wm_table *t, const om_wm_table_unit *a,
                                    const om_wm_table_unit *b)
{
    return v_len(v_sub(a->centre, b->centre)) - radius_of(t, a) - radius_of(t, b);
}

/* distance_floor of a and b, ra the radius of a's circle (radius_of): the
 * same operations, for loops over the enemies of one unit. */
static inline double distance_floor_from(const om_wm_table *t, const om_wm_table_unit *a,
                                         double ra, const om_wm_table_unit *b)
{
    return v_len(v_sub(a->centre, b->centre)) - ra - radius_of(t, b);
}

/* Whether units a and b, both named in the memo, have boxes apart: then
 * they do not touch (plane.h, broad phase), and om_wm_table_touching says so
 * first. Callers test it inline to skip the call for most pairs. */
static inline bool named_apart(const om_wm_table *t, unsigned a, unsigned b)
{
    const om_wm_table_unit *ua = &t->unit[a], *ub = &t->unit[b];
    return memo_id(t, ua) != 0 && memo_id(t, ub) != 0 &&
           om_plane_boxes_apart(ua->geom.shape.box, ub->geom.shape.box, cm);
}

double om_wm_table_distance(const om_wm_table *t, unsigned a, unsigned b)
{
    /* The pair in index order: the distance is symmetric, bit for bit (the
     * same candidates, whose least is the same), and one slot serves both. */
    const om_wm_table_unit *ua = &t->unit[a < b ? a : b], *ub = &t->unit[a < b ? b : a];
    const uint64_t ia = memo_id(t, ua), ib = memo_id(t, ub);
    om_plane_shape ta, tb;
    const answer *e;
    answer x = {ia, ib, ANSWER_DISTANCE, {0}};
    if (ia == 0 || ib == 0 || a == b)
        return om_plane_distance(unit_shape(ua, &ta), unit_shape(ub, &tb));
    if ((e = answer_find(t->memo, ia, ib, ANSWER_DISTANCE)) != NULL)
        return e->v.cm;
    x.v.cm = om_plane_distance(&ua->geom.shape, &ub->geom.shape);
    answer_put(t->memo, &x);
    return x.v.cm;
}

/* Whether units a and b touch, worked out. */
static bool touching(const om_wm_table *t, unsigned a, unsigned b)
{
    if (distance_floor(t, &t->unit[a], &t->unit[b]) > OM_WM_TABLE_TOUCH_CM)
        return false;
    return om_wm_table_distance(t, a, b) <= OM_WM_TABLE_TOUCH_CM;
}

bool om_wm_table_touching(const om_wm_table *t, unsigned a, unsigned b)
{
    const unsigned lo = a < b ? a : b, hi = a < b ? b : a;
    const uint64_t ia = memo_id(t, &t->unit[lo]), ib = memo_id(t, &t->unit[hi]);
    /* distance_floor is symmetric up to the order of its two subtractions:
     * work it out in the caller's order, as it always was. */
    const uint32_t tag = ANSWER_TOUCHING | (a < b ? 0u : 1u) << 8;
    const answer *e;
    answer x = {ia, ib, tag, {0}};
    uint32_t st;
    om_wm_table_memo *m;
    if (ia == 0 || ib == 0 || a == b)
        return touching(t, a, b);
    /* Units whose boxes are apart do not touch (broad phase, plane.h): most
     * pairs of a big table, answered before the state is named. */
    if (om_plane_boxes_apart(t->unit[a].geom.shape.box, t->unit[b].geom.shape.box, cm))
        return false;
    st = state_id(t);
    if (st != 0 && om_wm_unit_set_has(&(m = scratch_of(t, st))->touch_known[a], b))
        return om_wm_unit_set_has(&m->touch[a], b);
    /* The outlines of named units are their own (memo_id). */
    if ((e = answer_find(t->memo, ia, ib, tag)) != NULL) {
        x.v.word = e->v.word;
    } else {
        x.v.word = touching(t, a, b);
        answer_put(t->memo, &x);
    }
    if (st != 0) {
        m = scratch_of(t, st);
        om_wm_unit_set_add(&m->touch_known[a], b);
        om_wm_unit_set_put(&m->touch[a], b, x.v.word != 0);
    }
    return x.v.word != 0;
}

_Static_assert(OM_WM_TABLE_RECALL_KEYS + 1 <= TABLE_ARGS, "a caller's key and its size fit");

bool om_wm_table_recall(const om_wm_table *t, unsigned kind, const uint64_t *key, void *value,
                        size_t size)
{
    const uint32_t st = size <= OM_WM_TABLE_RECALL_BYTES ? state_id(t) : 0;
    table_answer x = {st, TABLE_CALLER | (kind & 0xffu) << 8, {0}, {0}};
    const table_answer *e;
    if (st == 0)
        return false;
    memcpy(x.arg, key, OM_WM_TABLE_RECALL_KEYS * sizeof key[0]);
    x.arg[OM_WM_TABLE_RECALL_KEYS] = size;
    if ((e = table_find(t->memo, st, x.tag, x.arg)) == NULL)
        return false;
    memcpy(value, e->v.bytes, size);
    return true;
}

void om_wm_table_remember(const om_wm_table *t, unsigned kind, const uint64_t *key,
                          const void *value, size_t size)
{
    const uint32_t st = size <= OM_WM_TABLE_RECALL_BYTES ? state_id(t) : 0;
    table_answer x = {st, TABLE_CALLER | (kind & 0xffu) << 8, {0}, {0}};
    if (st == 0)
        return;
    memcpy(x.arg, key, OM_WM_TABLE_RECALL_KEYS * sizeof key[0]);
    x.arg[OM_WM_TABLE_RECALL_KEYS] = size;
    memcpy(x.v.bytes, value, size);
    table_put(t->memo, &x);
}

/* Whether any unit touches an enemy, worked out. */
static bool any_contact(const om_wm_table *t)
{
    for (unsigned u = 0; u < t->units; u++)
        for (unsigned v = u + 1; v < t->units; v++)
            if (t->unit[u].present && t->unit[v].present &&
                t->unit[u].side != t->unit[v].side && !named_apart(t, u, v) &&
                om_wm_table_touching(t, u, v))
                return true;
    return false;
}

bool om_wm_table_any_contact(const om_wm_table *t)
{
    const uint32_t st = state_id(t);
    table_answer x = {st, TABLE_ANY_CONTACT, {0}, {0}};
    const table_answer *e;
    if (st == 0)
        return any_contact(t);
    if ((e = table_find(t->memo, st, x.tag, x.arg)) != NULL)
        return e->v.word != 0;
    x.v.word = any_contact(t);
    table_put(t->memo, &x);
    return x.v.word != 0;
}

bool om_wm_table_contacts(const om_wm_table *t, om_wm_unit_set *touches)
{
    /* The present units of each side in index order, with their boxes and
     * whether the memo names them (named_apart's test, read once a unit). */
    uint8_t at[2][OM_WM_TABLE_MAX_UNITS];
    bool named[OM_WM_TABLE_MAX_UNITS];
    unsigned count[2] = {0, 0};
    bool any = false, all_named = true;
    /* The box around side 1's boxes: a unit of side 0 whose box is apart
     * from it is apart from each of theirs (the gap to a box inside another
     * is no less), when the memo names them all. */
    om_plane_box around = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    for (unsigned u = 0; u < t->units; u++) {
        const unsigned side = t->unit[u].side != 0;
        if (!t->unit[u].present)
            continue;
        at[side][count[side]++] = (uint8_t)u;
        named[u] = memo_id(t, &t->unit[u]) != 0;
        if (side == 1) {
            const om_plane_box b = t->unit[u].geom.shape.box;
            all_named &= named[u];
            around.x0 = b.x0 < around.x0 ? b.x0 : around.x0;
            around.y0 = b.y0 < around.y0 ? b.y0 : around.y0;
            around.x1 = b.x1 > around.x1 ? b.x1 : around.x1;
            around.y1 = b.y1 > around.y1 ? b.y1 : around.y1;
        }
    }
    for (unsigned i = 0; i < count[0]; i++) {
        const unsigned a = at[0][i];
        const om_plane_box box = t->unit[a].geom.shape.box;
        if (named[a] && all_named && count[1] > 0 && om_plane_boxes_apart(box, around, cm))
            continue;
        for (unsigned j = 0; j < count[1]; j++) {
            const unsigned b = at[1][j];
            if (named[a] && named[b] && om_plane_boxes_apart(box, t->unit[b].geom.shape.box, cm))
                continue;
            if (om_wm_table_touching(t, a < b ? a : b, a < b ? b : a)) {
                om_wm_unit_set_add(&touches[a], b);
                om_wm_unit_set_add(&touches[b], a);
                any = true;
            }
        }
    }
    return any;
}

/* Whether unit u touches an enemy, worked out. */
static bool engaged(const om_wm_table *t, unsigned u)
{
    for (unsigned k = 0; k < t->units; k++)
        if (k != u && t->unit[k].present && t->unit[k].side != t->unit[u].side &&
            !named_apart(t, u, k) && om_wm_table_touching(t, u, k))
            return true;
    return false;
}

/* Whether the answer kept for unit u (named, in a named state) still holds:
 * it was kept, and no change since lies near u (its boxes before and after
 * both apart from u's, plane.h broad phase: such a unit touched u neither
 * then nor now, and u itself did not change). */
static bool engaged_kept(const om_wm_table *t, unsigned u)
{
    const om_wm_table_memo *m = t->memo;
    const om_plane_box b = t->unit[u].geom.shape.box;
    uint64_t at;
    if (!om_wm_unit_set_has(&m->unit_engaged_known, u))
        return false;
    at = m->unit_engaged_at[u];
    if (m->changes_made - at > CHANGE_LOG)
        return false; /* the log no longer reaches back */
    for (; at < m->changes_made; at++) {
        const change *c = &m->changes[at % CHANGE_LOG];
        if (c->unit == u || !om_plane_boxes_apart(c->was, b, cm) ||
            !om_plane_boxes_apart(c->now, b, cm))
            return false;
    }
    return true;
}

bool om_wm_table_engaged(const om_wm_table *t, unsigned u)
{
    const uint32_t st = state_id(t);
    table_answer x = {st, TABLE_ENGAGED | (u & 0xffu) << 8, {0}, {0}};
    const table_answer *e;
    om_wm_table_memo *m;
    if (st == 0 || memo_id(t, &t->unit[u]) == 0 || u >= OM_WM_TABLE_MAX_UNITS)
        return engaged(t, u);
    m = scratch_of(t, st);
    if (om_wm_unit_set_has(&m->engaged_known, u))
        return om_wm_unit_set_has(&m->engaged, u);
    if (engaged_kept(t, u)) {
        x.v.word = om_wm_unit_set_has(&m->unit_engaged, u);
    } else if ((e = table_find(t->memo, st, x.tag, x.arg)) != NULL) {
        x.v.word = e->v.word;
    } else {
        x.v.word = engaged(t, u);
        table_put(t->memo, &x);
    }
    m = scratch_of(t, st);
    om_wm_unit_set_add(&m->engaged_known, u);
    om_wm_unit_set_put(&m->engaged, u, x.v.word != 0);
    om_wm_unit_set_add(&m->unit_engaged_known, u);
    om_wm_unit_set_put(&m->unit_engaged, u, x.v.word != 0);
    m->unit_engaged_at[u] = m->changes_made;
    return x.v.word != 0;
}

void om_wm_table_engaged_all(const om_wm_table *t, bool *engaged_out)
{
    const uint32_t st = state_id(t);
    /* The present units of each side in index order, with their boxes and
     * whether the memo names them (named_apart's test, read once a unit),
     * as om_wm_table_contacts gathers them. */
    uint8_t at[2][OM_WM_TABLE_MAX_UNITS];
    om_plane_box box[OM_WM_TABLE_MAX_UNITS];
    bool named[OM_WM_TABLE_MAX_UNITS];
    unsigned count[2] = {0, 0};
    bool all_named = true;
    om_plane_box around = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    om_wm_table_memo *m;
    if (st != 0) {
        /* Asked already of this state (every unit on the table named, and
         * its answer kept): the kept answers. */
        bool known = true;
        m = scratch_of(t, st);
        for (unsigned u = 0; u < t->units && known; u++)
            known = !t->unit[u].present || om_wm_unit_set_has(&m->engaged_known, u);
        for (unsigned u = 0; u < t->units && known; u++)
            engaged_out[u] = t->unit[u].present && om_wm_unit_set_has(&m->engaged, u);
        if (known)
            return;
    }
    for (unsigned u = 0; u < t->units; u++) {
        const unsigned side = t->unit[u].side != 0;
        engaged_out[u] = false;
        if (!t->unit[u].present)
            continue;
        at[side][count[side]++] = (uint8_t)u;
        named[u] = memo_id(t, &t->unit[u]) != 0;
        box[u] = t->unit[u].geom.shape.box;
        if (side == 1) {
            all_named &= named[u];
            around.x0 = box[u].x0 < around.x0 ? box[u].x0 : around.x0;
            around.y0 = box[u].y0 < around.y0 ? box[u].y0 : around.y0;
            around.x1 = box[u].x1 > around.x1 ? box[u].x1 : around.x1;
            around.y1 = box[u].y1 > around.y1 ? box[u].y1 : around.y1;
        }
    }
    /* Each pair of enemies whose boxes are not apart (a unit of side 0 apart
     * from the box around side 1's, when the memo names them all, is apart
     * from each) asks om_wm_table_touching in both orders, as
     * om_wm_table_engaged of each would; a unit found touching ends its own
     * question there, so an order is asked only of a unit not yet known
     * engaged. */
    for (unsigned i = 0; i < count[0]; i++) {
        const unsigned a = at[0][i];
        if (named[a] && all_named && count[1] > 0 && om_plane_boxes_apart(box[a], around, cm))
            continue;
        for (unsigned j = 0; j < count[1]; j++) {
            const unsigned b = at[1][j];
            if ((engaged_out[a] && engaged_out[b]) ||
                (named[a] && named[b] && om_plane_boxes_apart(box[a], box[b], cm)))
                continue;
            if (!engaged_out[a] && om_wm_table_touching(t, a, b))
                engaged_out[a] = true;
            if (!engaged_out[b] && om_wm_table_touching(t, b, a))
                engaged_out[b] = true;
        }
    }
    if (st == 0)
        return;
    /* Kept as om_wm_table_engaged keeps its answers, for the questions about
     * this state that follow. */
    m = scratch_of(t, st);
    for (unsigned u = 0; u < t->units && u < OM_WM_TABLE_MAX_UNITS; u++) {
        if (!t->unit[u].present || memo_id(t, &t->unit[u]) == 0)
            continue;
        om_wm_unit_set_add(&m->engaged_known, u);
        om_wm_unit_set_put(&m->engaged, u, engaged_out[u]);
        om_wm_unit_set_add(&m->unit_engaged_known, u);
        om_wm_unit_set_put(&m->unit_engaged, u, engaged_out[u]);
        m->unit_engaged_at[u] = m->changes_made;
    }
}

/* Rounding allowed for when the circles' bound rules a unit out of a
 * character's reach (om_wm_table_character_within): far above it. */
#define CHARACTER_BOUND_SLACK_CM 1e-6

/* The distance from character c's base to unit u, worked out. */
static double character_distance(const om_wm_table *t, unsigned c, unsigned u)
{
    const om_wm_table_character *ch = &t->character[c];
    om_plane_shape tmp;
    double d = om_plane_point_distance(ch->at, unit_shape(&t->unit[u], &tmp)) - ch->radius_cm;
    return d > 0 ? d : 0;
}

double om_wm_table_character_distance(const om_wm_table *t, unsigned c, unsigned u)
{
    const om_wm_table_character *ch = &t->character[c];
    const uint64_t id = memo_id(t, &t->unit[u]);
    const uint64_t x = bits_of(ch->at.x), y = bits_of(ch->at.y), r = bits_of(ch->radius_cm);
    character_slot *e;
    if (id == 0 || c >= OM_WM_TABLE_MAX_CHARACTERS || u >= OM_WM_TABLE_MAX_UNITS)
        return character_distance(t, c, u);
    /* One slot per character and unit: characters stand still through most
     * of a phase. */
    e = &t->memo->character[c][u];
    if (e->id != id || e->x != x || e->y != y || e->r != r) {
        e->cm = character_distance(t, c, u);
        e->id = id;
        e->x = x;
        e->y = y;
        e->r = r;
    }
    return e->cm;
}

bool om_wm_table_character_within(const om_wm_table *t, unsigned c, unsigned u, double reach)
{
    const om_wm_table_character *ch = &t->character[c];
    const om_wm_table_unit *un = &t->unit[u];
    const double dx = un->centre.x - ch->at.x, dy = un->centre.y - ch->at.y;
    /* The base is no nearer than the centres' gap less the unit's circle's
     * radius and the base's own (the slack above the bound's rounding). */
    const double far = reach + CHARACTER_BOUND_SLACK_CM + radius_of(t, un) + ch->radius_cm;
    if (far > 0 && dx * dx + dy * dy > far * far) {
        assert(om_wm_table_character_distance(t, c, u) > reach);
        return false;
    }
    return om_wm_table_character_distance(t, c, u) <= reach;
}

/* Unit u's outline, or for a unit without stands the outline it last had
 * (a shooter its own misfire destroyed still drives its target back from
 * where it shot: Shooting > Driving Back Enemies). */
static om_plane_poly outline_poly(const om_wm_table_unit *u)
{
    return u->stands > 0 ? unit_poly(u, 0) : u->geom.shape.p;
}

void om_wm_table_closest_points(const om_wm_table *t, unsigned a, unsigned b, om_wm_vec *pa,
                                om_wm_vec *pb)
{
    const uint32_t ia = (uint32_t)memo_id(t, &t->unit[a]), ib = (uint32_t)memo_id(t, &t->unit[b]);
    /* The order matters: the first closest pair found wins. */
    table_answer x = {ia, TABLE_CLOSEST_POINTS, {ib}, {0}};
    const table_answer *e;
    om_plane_poly p, q;
    if (ia != 0 && ib != 0 && (e = table_find(t->memo, ia, x.tag, x.arg)) != NULL) {
        *pa = e->v.points.pa;
        *pb = e->v.points.pb;
        return;
    }
    p = outline_poly(&t->unit[a]);
    q = outline_poly(&t->unit[b]);
    om_plane_closest_points(&p, &q, pa, pb);
    if (ia != 0 && ib != 0) {
        x.v.points.pa = *pa;
        x.v.points.pb = *pb;
        table_put(t->memo, &x);
    }
}

om_wm_vec om_wm_table_closest_point(const om_wm_table_unit *u, om_wm_vec p)
{
    om_plane_shape tmp;
    const om_plane_shape *q = unit_shape(u, &tmp);
    om_plane_poly pt = {.n = 1, .v = {p}};
    om_wm_vec pa = p, pb = p;
    if (om_plane_point_distance(p, q) == 0)
        return p;
    om_plane_closest_points(&pt, &q->p, &pa, &pb);
    return pb;
}

/* Rounding allowed for when a lower bound of a distance (the boxes' gap, the
 * circles') is set against exact distances: far above the rounding of
 * either, far below any distance that matters. */
#define DISTANCE_BOUND_SLACK_CM 1e-6

/* The two distances ahead of the least by which the nearest-first choice
 * below knows every enemy that can change it (see choose_nearest). */
#define CHOICE_BAND_CM 2e-9

/* What is known of an enemy a closest-visible-enemy question weighs. */
#define NEAREST_BOUNDED 0u /* a lower bound of its distance */
#define NEAREST_KNOWN 1u   /* its exact distance */
#define NEAREST_TRIED 2u   /* its exact distance, and its sight tried */

/* The enemies a closest-visible-enemy question weighs, in index order: unit
 * unit[i], a lower bound lb[i] of its distance and, once worked out, the
 * distance d[i]. */
typedef struct nearest_enemies {
    unsigned n;
    unsigned unit[OM_WM_TABLE_MAX_UNITS];
    unsigned state[OM_WM_TABLE_MAX_UNITS];
    double lb[OM_WM_TABLE_MAX_UNITS];
    double d[OM_WM_TABLE_MAX_UNITS];
} nearest_enemies;

static int closest_enemy(const om_wm_table *t, unsigned u, double *cm_out);

int om_wm_table_closest_enemy(const om_wm_table *t, unsigned u, double *cm_out)
{
    const uint32_t st = state_id(t);
    table_answer x = {st, TABLE_CLOSEST_ENEMY | (u & 0xffu) << 8, {0}, {0}};
    const table_answer *e;
    om_wm_table_memo *m;
    if (st == 0)
        return closest_enemy(t, u, cm_out);
    m = scratch_of(t, st);
    if (!om_wm_unit_set_has(&m->enemy_known, u)) {
        if ((e = table_find(t->memo, st, x.tag, x.arg)) == NULL) {
            x.v.visible.unit = closest_enemy(t, u, &x.v.visible.cm);
            table_put(t->memo, &x);
            e = &x;
        }
        m = scratch_of(t, st);
        m->enemy[u].unit = e->v.visible.unit;
        m->enemy[u].cm = e->v.visible.cm;
        om_wm_unit_set_add(&m->enemy_known, u);
    }
    if (cm_out) *cm_out = m->enemy[u].cm;
    return m->enemy[u].unit;
}

/* Rounding allowed for when the circles' bound rules an enemy out of a reach
 * (the exact distance allows 1e-9cm; the bound's own rounding is far below
 * this). */
#define CIRCLE_BOUND_SLACK_CM 1e-6

/* The gap between the boxes of units a and b when both are named in the
 * memo (their outlines current): a lower bound of their distance, tighter
 * than distance_floor for long lines side by side; -INFINITY otherwise. */
static inline double named_box_gap(const om_wm_table *t, unsigned a, unsigned b)
{
    const om_wm_table_unit *ua = &t->unit[a], *ub = &t->unit[b];
    if (memo_id(t, ua) == 0 || memo_id(t, ub) == 0)
        return -INFINITY;
    return om_plane_box_gap(ua->geom.shape.box, ub->geom.shape.box);
}

/* How far inside a reach an enemy's exact distance must lie for
 * om_wm_table_enemy_within to say yes without the closest enemy: the closest
 * is then within the reach too (it is no farther than any enemy by more than
 * the 1e-9cm of the tie rule), whatever the rounding (far below this). */
#define WITHIN_SURE_CM 1e-7

bool om_wm_table_enemy_within(const om_wm_table *t, unsigned u, double cm)
{
    const om_wm_table_unit *un = &t->unit[u];
    bool maybe = !un->present; /* no stands to bound it by: the closest is asked */
    double enemy_cm;
    for (unsigned k = 0; k < t->units && !maybe; k++) {
        const om_wm_table_unit *en = &t->unit[k];
        if (!en->present || en->side == un->side)
            continue;
        const double dx = en->centre.x - un->centre.x, dy = en->centre.y - un->centre.y;
        const double reach = cm + CIRCLE_BOUND_SLACK_CM + radius_of(t, un) + radius_of(t, en);
        maybe = dx * dx + dy * dy <= reach * reach;
        /* The first enemy the circles leave in reach is most often within
         * it: its exact distance (which the closest enemy's choice would
         * work out too, the memo keeping it) settles the answer when it lies
         * clearly inside the reach. */
        if (maybe && named_box_gap(t, u, k) - DISTANCE_BOUND_SLACK_CM <= cm &&
            om_wm_table_distance(t, u, k) <= cm - WITHIN_SURE_CM) {
#ifndef NDEBUG
            assert(om_wm_table_closest_enemy(t, u, &enemy_cm) >= 0 && enemy_cm <= cm + 1e-9);
#endif
            return true;
        }
    }
    return maybe && om_wm_table_closest_enemy(t, u, &enemy_cm) >= 0 &&
           enemy_cm <= cm + 1e-9;
}

static int choose_nearest(const om_wm_table *t, unsigned u, double beyond,
                          nearest_enemies *e);
static void weigh_enemy(const om_wm_table *t, unsigned u, unsigned k, double floor,
                        nearest_enemies *e);

/* The closest enemy of unit u, worked out: the first choice of the nearest
 * among every enemy on the table (choose_nearest), which measures exactly
 * only the enemies whose lower bounds leave them a chance. */
static int closest_enemy(const om_wm_table *t, unsigned u, double *cm_out)
{
    nearest_enemies e;
    const om_wm_table_unit *un = &t->unit[u];
    const double ru = radius_of(t, un);
    int best;
    e.n = 0;
    for (unsigned k = 0; k < t->units; k++)
        if (t->unit[k].present && t->unit[k].side != un->side)
            weigh_enemy(t, u, k, distance_floor_from(t, un, ru, &t->unit[k]), &e);
    best = choose_nearest(t, u, INFINITY, &e);
    if (cm_out) *cm_out = best < 0 ? INFINITY : e.d[best];
    return best < 0 ? -1 : (int)e.unit[best];
}

/* ---- Line of sight ---- */

/* Obstacles that might cut a sight line between two units: other units'
 * stands (characters never block) and terrain that does something to sight,
 * those whose boxes meet the box around both. */
typedef struct sight_obstacles {
    unsigned n;
    om_plane_obstacle o[OM_WM_TABLE_MAX_UNITS + OM_WM_TABLE_MAX_TERRAIN];
    om_plane_shape tmp[OM_WM_TABLE_MAX_UNITS]; /* units' outlines worked out afresh */
} sight_obstacles;

static void gather_sight_obstacles(const om_wm_table *t, unsigned from, unsigned to,
                                   om_plane_box area, sight_obstacles *o)
{
    o->n = 0;
    for (unsigned k = 0; k < t->units; k++) {
        const om_plane_shape *s;
        if (k == from || k == to || !t->unit[k].present)
            continue;
        s = shape_in(t, &t->unit[k], &o->tmp[k]);
        if (om_plane_box_meet(s->box, area))
            o->o[o->n++] = (om_plane_obstacle){s, SIGHT_BLOCKS};
    }
    for (unsigned k = 0; k < t->terrain_pieces; k++) {
        om_plane_sight m = terrain_table[t->terrain[k].kind].sight;
        const om_plane_shape *s = terrain_shape(&t->terrain[k]);
        if (m != SIGHT_CLEAR && om_plane_box_meet(s->box, area))
            o->o[o->n++] = (om_plane_obstacle){s, m};
    }
}

static bool sees(const om_wm_table *t, om_wm_ruleset_id rules, unsigned from, unsigned to,
                 bool all_round);
static bool sees_kept(const om_wm_table *t, om_wm_ruleset_id rules, unsigned from, unsigned to,
                      bool all_round);

bool om_wm_table_sees(const om_wm_table *t, om_wm_ruleset_id rules, unsigned from, unsigned to,
                      bool all_round)
{
    const uint32_t st = state_id(t);
    table_answer x = {st,
                      TABLE_SEES | (from & 0xffu) << 8 | (to & 0xffu) << 16 |
                          ((unsigned)rules & 0x3u) << 24 | (all_round ? 1u : 0u) << 26,
                      {0}, {0}};
    const table_answer *e;
    if (st == 0)
        return sees(t, rules, from, to, all_round);
    if ((e = table_find(t->memo, st, x.tag, x.arg)) != NULL)
        return e->v.word != 0;
    x.v.word = sees_kept(t, rules, from, to, all_round);
    table_put(t->memo, &x);
    return x.v.word != 0;
}

/* The set of the sight answer of ids a and b under `tag`. */
static sight_slot *sight_set(om_wm_table_memo *m, uint64_t a, uint64_t b, uint32_t tag)
{
    const uint64_t h = mix64(a * 0x9e3779b97f4a7c15u ^ b * 0xc2b2ae3d27d4eb4fu ^ tag);
    return &m->sight[(h % (SIGHT_SLOTS / 2)) * 2];
}

/* Whether no change logged since `at` meets box `area` (false when the log
 * no longer reaches back so far). */
static bool unchanged_in(const om_wm_table_memo *m, uint64_t at, om_plane_box area)
{
    if (m->changes_made - at > CHANGE_LOG)
        return false;
    for (; at < m->changes_made; at++) {
        const change *c = &m->changes[at % CHANGE_LOG];
        if (om_plane_box_meet(c->was, area) || om_plane_box_meet(c->now, area))
            return false;
    }
    return true;
}

/* Whether unit `from` sees unit `to` in a named state: the answer kept
 * across states while nothing changed in the box around both, else worked
 * out and kept. */
static bool sees_kept(const om_wm_table *t, om_wm_ruleset_id rules, unsigned from, unsigned to,
                      bool all_round)
{
    om_wm_table_memo *m = t->memo;
    const om_wm_table_unit *uf = &t->unit[from], *ut = &t->unit[to];
    const uint64_t ia = memo_id(t, uf), ib = memo_id(t, ut);
    const uint32_t tag = ((unsigned)rules & 0x3u) | (all_round ? 1u : 0u) << 2;
    sight_slot *set, x;
    if (!uf->present || !ut->present || ia == 0 || ib == 0)
        return sees(t, rules, from, to, all_round);
    set = sight_set(m, ia, ib, tag);
    for (unsigned i = 0; i < 2; i++)
        if (set[i].from == ia && set[i].to == ib && set[i].tag == tag &&
            unchanged_in(m, set[i].at, set[i].area)) {
            set[i].at = m->changes_made; /* it holds now */
            return set[i].word != 0;
        }
    x = (sight_slot){ia, ib, tag, 0, m->changes_made, uf->geom.shape.box};
    x.area.x0 = lesser(x.area.x0, ut->geom.shape.box.x0);
    x.area.y0 = lesser(x.area.y0, ut->geom.shape.box.y0);
    x.area.x1 = greater(x.area.x1, ut->geom.shape.box.x1);
    x.area.y1 = greater(x.area.y1, ut->geom.shape.box.y1);
    x.word = sees(t, rules, from, to, all_round);
    if (!(set[0].from == ia && set[0].to == ib && set[0].tag == tag))
        set[1] = set[0];
    set[0] = x;
    return x.word != 0;
}

/* Whether unit `from` sees unit `to`, worked out. */
static bool sees(const om_wm_table *t, om_wm_ruleset_id rules, unsigned from, unsigned to,
                 bool all_round)
{
    const table_rules *r = rules_of(rules);
    om_plane_shape tf, tt;
    const om_plane_shape *fp = unit_shape(&t->unit[from], &tf), *tp = unit_shape(&t->unit[to], &tt);
    sight_obstacles o;
    om_plane_box area = fp->box, tb = tp->box;
    if (r->max_sight_cm > 0 && om_plane_distance(fp, tp) > r->max_sight_cm)
        return false;
    area.x0 = lesser(area.x0, tb.x0);
    area.y0 = lesser(area.y0, tb.y0);
    area.x1 = greater(area.x1, tb.x1);
    area.y1 = greater(area.y1, tb.y1);
    gather_sight_obstacles(t, from, to, area, &o);
    /* Edge 0 (front-left to front-right) is the front edge. */
    for (unsigned e = 0; e < (all_round ? 4u : 1u); e++)
        if (om_plane_edge_sees(fp, e, tp, o.o, o.n, CLOSE_TERRAIN_SIGHT_CM, cm))
            return true;
    return false;
}

/* Whether enemy unit k is excluded by `filter`. */
static bool filtered(const om_wm_table *t, unsigned k, unsigned filter)
{
    const om_wm_table_unit *e = &t->unit[k];
    if ((filter & OM_WM_TABLE_SKIP_ENGAGED) && om_wm_table_engaged(t, k))
        return true;
    return (filter & OM_WM_TABLE_SKIP_FORTIFIED) &&
           (e->troop == OM_WM_INFANTRY || e->troop == OM_WM_ARTILLERY) &&
           om_wm_table_position(t, k) == OM_WM_FORTIFIED;
}

static int closest_visible_enemy(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u,
                                 bool all_round, double max_cm, unsigned filter, double *cm_out);

int om_wm_table_closest_visible_enemy(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u,
                                      bool all_round, double max_cm, unsigned filter, double *cm_out)
{
    const uint32_t st = state_id(t);
    table_answer x = {st,
                      TABLE_VISIBLE | (u & 0xffu) << 8 | ((unsigned)rules & 0x3u) << 16 |
                          (all_round ? 1u : 0u) << 18 | (filter & 0xffu) << 20,
                      {bits_of(max_cm)}, {0}};
    const table_answer *e;
    if (st == 0)
        return closest_visible_enemy(t, rules, u, all_round, max_cm, filter, cm_out);
    if ((e = table_find(t->memo, st, x.tag, x.arg)) == NULL) {
        x.v.visible.unit =
            closest_visible_enemy(t, rules, u, all_round, max_cm, filter, &x.v.visible.cm);
        table_put(t->memo, &x);
        e = &x;
    }
    if (cm_out) *cm_out = e->v.visible.cm;
    return e->v.visible.unit;
}

#ifndef NDEBUG
/* The choice of choose_nearest over every enemy's exact distance (debug
 * builds check the choice against it); *cm its distance. */
static int plain_nearest(const om_wm_table *t, unsigned u, const nearest_enemies *e,
                         double *cm)
{
    int best = -1;
    double d[OM_WM_TABLE_MAX_UNITS];
    for (unsigned i = 0; i < e->n; i++) {
        d[i] = e->state[i] != NEAREST_BOUNDED ? e->d[i] : om_wm_table_distance(t, u, e->unit[i]);
        if (e->state[i] != NEAREST_TRIED && (best < 0 || d[i] < d[best] - 1e-9))
            best = (int)i;
    }
    *cm = best < 0 ? INFINITY : d[best];
    return best;
}
#endif

/*
 * The next enemy to try for sight (its index in e), nearest first, as
 * choosing over every untried enemy's exact distance would choose it: in
 * index order, the first untried, replaced by a later one nearer by more
 * than 1e-9cm (the tie rule). Exact distances are worked out nearest lower
 * bound first, only until the choice is settled: with m the least distance
 * known and G = CHOICE_BAND_CM, once every enemy not worked out is bounded
 * beyond m + G and no distance known lies in (m + G - 1e-9, m + G], the
 * enemies within m + G - 1e-9 replace any farther one met before them and
 * are never replaced by one, so the choice over the known ones is the
 * choice over all. Returns -1 when none is left, and when every one left is
 * farther than `beyond` (the choice would be too).
 */
static int choose_nearest(const om_wm_table *t, unsigned u, double beyond, nearest_enemies *e)
{
    int best = -1;
    for (;;) {
        double m = INFINITY, lbn = INFINITY;
        int next = -1;
        bool settled = true;
        for (unsigned i = 0; i < e->n; i++) {
            if (e->state[i] == NEAREST_KNOWN)
                m = e->d[i] < m ? e->d[i] : m;
            else if (e->state[i] == NEAREST_BOUNDED && e->lb[i] < lbn) {
                lbn = e->lb[i];
                next = (int)i;
            }
        }
        if (m > beyond && lbn > beyond) {
#ifndef NDEBUG
            double cm;
            plain_nearest(t, u, e, &cm);
            assert(cm > beyond);
#endif
            return -1;
        }
        if (next < 0)
            break;
        if (m < INFINITY && lbn > m + CHOICE_BAND_CM) {
            for (unsigned i = 0; i < e->n && settled; i++)
                settled = !(e->state[i] == NEAREST_KNOWN && e->d[i] > m + CHOICE_BAND_CM - 1e-9 &&
                            e->d[i] <= m + CHOICE_BAND_CM);
            if (settled)
                break;
        }
        e->d[next] = om_wm_table_distance(t, u, e->unit[next]);
        e->state[next] = NEAREST_KNOWN;
    }
    for (unsigned i = 0; i < e->n; i++)
        if (e->state[i] == NEAREST_KNOWN && (best < 0 || e->d[i] < e->d[best] - 1e-9))
            best = (int)i;
#ifndef NDEBUG
    {
        double cm;
        assert(best == plain_nearest(t, u, e, &cm));
    }
#endif
    return best;
}

/* Enemy k of unit u weighed, `floor` the circles' bound of its distance:
 * its lower bound the greater of that and the boxes' gap, less the slack. */
static void weigh_enemy(const om_wm_table *t, unsigned u, unsigned k, double floor,
                        nearest_enemies *e)
{
    e->unit[e->n] = k;
    e->state[e->n] = NEAREST_BOUNDED;
    e->lb[e->n] = greater(named_box_gap(t, u, k), floor) - DISTANCE_BOUND_SLACK_CM;
    e->n++;
}

/* The closest visible enemy of unit u, worked out: the enemies weighed
 * (present, not ruled out by the circles' bound of max_cm or by `filter`)
 * are tried for sight nearest first, and the first seen is the closest
 * visible. */
static int closest_visible_enemy(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u,
                                 bool all_round, double max_cm, unsigned filter, double *cm_out)
{
    nearest_enemies e;
    const om_wm_table_unit *un = &t->unit[u];
    const double ru = radius_of(t, un);
    e.n = 0;
    for (unsigned k = 0; k < t->units; k++) {
        double floor;
        if (!t->unit[k].present || t->unit[k].side == un->side)
            continue;
        floor = distance_floor_from(t, un, ru, &t->unit[k]);
        if ((max_cm > 0 && floor > max_cm) || filtered(t, k, filter))
            continue;
        weigh_enemy(t, u, k, floor, &e);
    }
    for (;;) {
        const int best = choose_nearest(t, u, max_cm > 0 ? max_cm + 1e-9 : INFINITY, &e);
        if (best < 0 || (max_cm > 0 && e.d[best] > max_cm + 1e-9))
            break;
        e.state[best] = NEAREST_TRIED;
        if (om_wm_table_sees(t, rules, u, e.unit[best], all_round)) {
            if (cm_out) *cm_out = e.d[best];
            return (int)e.unit[best];
        }
    }
    if (cm_out) *cm_out = INFINITY;
    return -1;
}

/* ---- Faces and zones ---- */

om_wm_table_face om_wm_table_zone(const om_wm_table_unit *u, om_wm_vec p)
{
    /* Corner bisectors (135-degree zones, Combat > Moving Chargers > Zones). */
    return (om_wm_table_face)om_plane_zone(u->centre, u->dir, om_wm_table_unit_width(u) / 2,
                                           om_wm_table_unit_depth(u) / 2, p, ZONE_TIE_CM);
}

/* 1.1: the target edge nearest the charger (Warmaster 1.1 Rules Update, P33 –
 * The charge; D1); -1 when the nearest point is a corner, which the zone then
 * decides. */
static int nearest_edge(const om_plane_poly *cp, const om_plane_poly *tp)
{
    const double corner_tol = 1e-6;
    double best = INFINITY;
    int edge = -1;
    /* Charger corners onto target edges: an interior foot names the edge. */
    for (unsigned i = 0; i < cp->n; i++)
        for (unsigned j = 0; j < tp->n; j++) {
            double s, d = om_plane_seg_distance(cp->v[i], tp->v[j], tp->v[(j + 1) % tp->n], &s);
            bool interior = s > corner_tol && s < 1 - corner_tol;
            if (d < best - 1e-9 || (fabs(d - best) <= 1e-9 && interior && edge < 0)) {
                best = d;
                edge = interior ? (int)j : -1;
            }
        }
    /* Target corners onto charger edges: the nearest target point is a corner. */
    for (unsigned j = 0; j < tp->n; j++)
        for (unsigned i = 0; i < cp->n; i++) {
            double d = om_plane_seg_distance(tp->v[j], cp->v[i], cp->v[(i + 1) % cp->n], NULL);
            if (d < best - 1e-9) {
                best = d;
                edge = -1;
            }
        }
    return edge;
}

om_wm_table_face om_wm_table_charge_face(const om_wm_table *t, om_wm_ruleset_id rules,
                                         unsigned charger, unsigned target)
{
    const om_wm_table_unit *c = &t->unit[charger], *g = &t->unit[target];
    if (rules_of(rules)->face_by_nearest_edge) {
        om_plane_poly cp = unit_poly(c, 0), tp = unit_poly(g, 0);
        int e = nearest_edge(&cp, &tp);
        if (e >= 0)
            return (om_wm_table_face)om_plane_edge_face[e];
    }
    return om_wm_table_zone(g, c->centre);
}

/* ---- Stands ---- */

/* Share of a stand's edge at each end left out when asking whether the edge
 * (rather than a corner) touches: 2% of 2 to 4cm, far above the touch
 * tolerance and far below any real overlap of two bases. */
#define EDGE_CORNER_SHARE 0.02

/* Stand i of unit u as a polygon (corner order FL, FR, RR, RL): file i %
 * files, rank i / files (T1). */
static om_plane_poly stand_i(const om_wm_table_unit *u, unsigned i)
{
    const om_plane_block b = unit_block(u);
    return om_plane_block_stand(&b, i);
}

void om_wm_table_stand_corners(const om_wm_table_unit *u, unsigned i, om_wm_vec corner[4])
{
    om_plane_poly p = stand_i(u, i);
    memcpy(corner, p.v, 4 * sizeof corner[0]);
}

/* The part of edge a-b from share `from` to share `to` of its length. */
static void edge_part(om_wm_vec a, om_wm_vec b, double from, double to, om_wm_vec *p0,
                      om_wm_vec *p1)
{
    om_wm_vec d = v_sub(b, a);
    *p0 = v_add(a, v_scale(d, from));
    *p1 = v_add(a, v_scale(d, to));
}

static void stand_touch(const om_wm_table *t, unsigned u, unsigned i, unsigned v,
                        om_wm_table_touch *out);

/* Whether points pt[0..n) all lie beyond convex shape sh along the normal of
 * one of its edges by more than the touch tolerance and a tie: the gap along
 * any direction is a lower bound of the distance between convex shapes, so
 * their hull is then farther than the tolerance from sh, and the exact
 * distance (om_plane_distance, om_plane_seg_shape_distance) says so too, its
 * rounding far below the tie. */
static bool beyond_axes(const om_wm_vec *pt, unsigned n, const om_plane_shape *sh)
{
    const double reach = OM_WM_TABLE_TOUCH_CM + cm->tie;
    for (unsigned a = 0; a < sh->p.n; a++) {
        double lo = v_dot(pt[0], sh->axis[a]), hi = lo;
        for (unsigned k = 1; k < n; k++) {
            const double d = v_dot(pt[k], sh->axis[a]);
            lo = d < lo ? d : lo;
            hi = d > hi ? d : hi;
        }
        if (lo - sh->hi[a] > reach || sh->lo[a] - hi > reach)
            return true;
    }
    return false;
}

void om_wm_table_stand_touch(const om_wm_table *t, unsigned u, unsigned i, unsigned v,
                             om_wm_table_touch *out)
{
    const uint64_t iu = memo_id(t, &t->unit[u]), iv = memo_id(t, &t->unit[v]);
    const uint32_t tag = ANSWER_STAND_TOUCH | (i & 0xffu) << 8;
    const answer *e;
    answer x = {iu, iv, tag, {0}};
    if (iu == 0 || iv == 0) {
        stand_touch(t, u, i, v, out);
        return;
    }
    if ((e = answer_find(t->memo, iu, iv, tag)) != NULL) {
        *out = e->v.touch;
        return;
    }
    stand_touch(t, u, i, v, &x.v.touch);
    answer_put(t->memo, &x);
    *out = x.v.touch;
}

/* How stand i of unit u touches unit v, worked out. */
static void stand_touch(const om_wm_table *t, unsigned u, unsigned i, unsigned v,
                        om_wm_table_touch *out)
{
    const om_wm_table_unit *e = &t->unit[v];
    om_plane_poly spoly = stand_i(&t->unit[u], i);
    om_plane_shape sh, tmp;
    const om_plane_shape *ep = unit_shape(e, &tmp);
    const om_plane_poly *sp = &sh.p;
    const double tol = OM_WM_TABLE_TOUCH_CM, c = EDGE_CORNER_SHARE;
    om_wm_vec f0 = ep->p.v[0], f1 = ep->p.v[1], p0, p1, centre;
    memset(out, 0, sizeof *out);
    /* A stand, or an edge, beyond the enemy along one of its normals is
     * apart from it (beyond_axes): most stands behind the front rank and
     * most rear edges, without the exact distance. */
    if (beyond_axes(spoly.v, spoly.n, ep))
        return;
    om_plane_shape_of(&sh, &spoly);
    if (om_plane_distance(&sh, ep) > tol)
        return;
    out->touches = true;
    /* Edge j of the stand (FL-FR front, FR-RR right, RR-RL rear, RL-FL left)
     * without its corners. */
    for (unsigned j = 0; j < 4; j++) {
        om_wm_vec part[2];
        edge_part(sp->v[j], sp->v[(j + 1) % 4], c, 1 - c, &p0, &p1);
        part[0] = p0;
        part[1] = p1;
        if (!beyond_axes(part, 2, ep) && om_plane_seg_shape_distance(p0, p1, ep) <= tol)
            out->edges |= (uint8_t)(1u << om_plane_edge_face[j]);
    }
    /* The enemy's front edge (corners included) on the stand's sides without
     * their front corners, or on its rear edge with its rear corners. */
    centre = v_scale(v_add(v_add(sp->v[0], sp->v[1]), v_add(sp->v[2], sp->v[3])), 0.25);
    if (om_wm_table_zone(e, centre) != OM_WM_TABLE_FRONT)
        return;
    edge_part(sp->v[1], sp->v[2], c, 1, &p0, &p1); /* right side, from behind its front corner */
    out->flanked |= om_plane_seg_seg_distance(p0, p1, f0, f1) <= tol;
    edge_part(sp->v[3], sp->v[0], 0, 1 - c, &p0, &p1); /* left side, up to its front corner */
    out->flanked |= om_plane_seg_seg_distance(p0, p1, f0, f1) <= tol;
    out->flanked |= om_plane_seg_seg_distance(sp->v[2], sp->v[3], f0, f1) <= tol; /* rear */
}

static om_wm_table_support stand_support(const om_wm_table *t, unsigned s, unsigned i,
                                         unsigned f, unsigned j);

om_wm_table_support om_wm_table_stand_support(const om_wm_table *t, unsigned s, unsigned i,
                                              unsigned f, unsigned j)
{
    const uint64_t is = memo_id(t, &t->unit[s]), jf = memo_id(t, &t->unit[f]);
    const uint32_t tag = ANSWER_STAND_SUPPORT | (i & 0xffu) << 8 | (j & 0xffu) << 16;
    const answer *e;
    answer x = {is, jf, tag, {0}};
    if (is == 0 || jf == 0)
        return stand_support(t, s, i, f, j);
    if ((e = answer_find(t->memo, is, jf, tag)) != NULL)
        return (om_wm_table_support)e->v.word;
    x.v.word = (uint32_t)stand_support(t, s, i, f, j);
    answer_put(t->memo, &x);
    return (om_wm_table_support)x.v.word;
}

/* Whether units s and f face the same way, within a tenth of a degree, as
 * a supporting stand and the stand it supports do. */
static bool same_facing(const om_wm_table_unit *su, const om_wm_table_unit *fu)
{
    const double same_facing_cos = 0.9999985;
    return !(v_dot(su->dir, fu->dir) < same_facing_cos);
}

/* Slack added to the reach within which two stands may support, far above any
 * rounding of the centres and radii it is compared with. */
#define SUPPORT_REACH_SLACK_CM 1.0

bool om_wm_table_may_support(const om_wm_table *t, unsigned s, unsigned f)
{
    const om_wm_table_unit *su = &t->unit[s], *fu = &t->unit[f];
    /* A supporting stand's centre lies within half the two stands' depths
     * and the touch tolerance of the other's along the facing and within the
     * alignment across it, or the other way round with their widths
     * (stand_support): closer than `reach` in all. Every stand's centre lies
     * inside its unit's circle, so circles farther apart than that hold no
     * such pair. */
    const double reach = (su->stand_d + fu->stand_d + su->stand_w + fu->stand_w) / 2 +
                         OM_WM_TABLE_TOUCH_CM + OM_WM_TABLE_SUPPORT_ALIGN_CM +
                         SUPPORT_REACH_SLACK_CM;
    return same_facing(su, fu) && distance_floor(t, su, fu) <= reach;
}

/* How stand i of unit s supports stand j of unit f, worked out. */
static om_wm_table_support stand_support(const om_wm_table *t, unsigned s, unsigned i,
                                         unsigned f, unsigned j)
{
    const om_wm_table_unit *su = &t->unit[s], *fu = &t->unit[f];
    om_plane_poly sp = stand_i(su, i), fp = stand_i(fu, j);
    om_wm_vec sc = v_scale(v_add(sp.v[0], sp.v[2]), 0.5), fc = v_scale(v_add(fp.v[0], fp.v[2]), 0.5);
    om_wm_vec rel = v_sub(sc, fc), r = v_right(fu->dir);
    double back = -v_dot(rel, fu->dir), side = v_dot(rel, r);
    if (!same_facing(su, fu))
        return OM_WM_TABLE_NO_SUPPORT;
    /* Behind: its front edge on the other's rear edge, lined up with it. */
    if (fabs(back - (su->stand_d + fu->stand_d) / 2) <= OM_WM_TABLE_TOUCH_CM &&
        fabs(side) <= OM_WM_TABLE_SUPPORT_ALIGN_CM)
        return OM_WM_TABLE_SUPPORT_REAR;
    /* Beside: side edge to side edge, level with it. */
    if (fabs(fabs(side) - (su->stand_w + fu->stand_w) / 2) <= OM_WM_TABLE_TOUCH_CM &&
        fabs(back) <= OM_WM_TABLE_SUPPORT_ALIGN_CM)
        return OM_WM_TABLE_SUPPORT_SIDE;
    return OM_WM_TABLE_NO_SUPPORT;
}

/* The distance from stand i of unit u to unit v, worked out. */
static double stand_distance(const om_wm_table *t, unsigned u, unsigned i, unsigned v)
{
    om_plane_poly sp = stand_i(&t->unit[u], i);
    om_plane_shape sh, tmp;
    om_plane_shape_of(&sh, &sp);
    return om_plane_distance(&sh, unit_shape(&t->unit[v], &tmp));
}

double om_wm_table_stand_distance(const om_wm_table *t, unsigned u, unsigned i, unsigned v)
{
    const uint64_t iu = memo_id(t, &t->unit[u]), iv = memo_id(t, &t->unit[v]);
    const uint32_t tag = ANSWER_STAND_DISTANCE | (i & 0xffu) << 8;
    const answer *e;
    answer x = {iu, iv, tag, {0}};
    if (iu == 0 || iv == 0)
        return stand_distance(t, u, i, v);
    if ((e = answer_find(t->memo, iu, iv, tag)) != NULL)
        return e->v.cm;
    x.v.cm = stand_distance(t, u, i, v);
    answer_put(t->memo, &x);
    return x.v.cm;
}

/* How far inside (or beyond) a reach the bounds of om_wm_table_stand_within
 * must put a stand to decide without its exact distance: far above the
 * rounding of either (some 1e-13cm on a table). */
#define STAND_BOUND_SLACK_CM 1e-7

bool om_wm_table_stand_within(const om_wm_table *t, unsigned u, unsigned i, unsigned v,
                              double reach)
{
    const om_wm_table_unit *un = &t->unit[u];
    const uint64_t iu = memo_id(t, un), iv = memo_id(t, &t->unit[v]);
    const answer *e;
    om_plane_poly sp;
    om_plane_shape tmp;
    om_wm_vec c;
    double pc;
    if (iu != 0 && iv != 0 &&
        (e = answer_find(t->memo, iu, iv, ANSWER_STAND_DISTANCE | (i & 0xffu) << 8)) != NULL)
        return e->v.cm <= reach;
    /* The distance from the stand's centre to v bounds the stand's from
     * above, and less half the stand's diagonal from below (a convex
     * polygon's points lie within that of its centre). */
    sp = stand_i(un, i);
    c = v_scale(v_add(v_add(sp.v[0], sp.v[1]), v_add(sp.v[2], sp.v[3])), 0.25);
    pc = om_plane_point_distance(c, unit_shape(&t->unit[v], &tmp));
    if (pc <= reach - STAND_BOUND_SLACK_CM ||
        pc - sqrt(un->stand_w * un->stand_w + un->stand_d * un->stand_d) / 2 >
            reach + STAND_BOUND_SLACK_CM) {
        assert((om_wm_table_stand_distance(t, u, i, v) <= reach) ==
               (pc <= reach - STAND_BOUND_SLACK_CM));
        return pc <= reach - STAND_BOUND_SLACK_CM;
    }
    return om_wm_table_stand_distance(t, u, i, v) <= reach;
}

/* ---- Paces ---- */

double om_wm_table_move_pace(const om_wm_table *t, unsigned u)
{
    const om_wm_table_unit *un = &t->unit[u];
    if (un->traits & (OM_WM_TABLE_TRAIT_SKIRMISH | OM_WM_TABLE_TRAIT_FLYER))
        return un->pace_cm;
    if (un->formation == OM_WM_TABLE_IRREGULAR && un->stands > 1)
        return un->pace_cm / 2.0;
    if (om_wm_table_position(t, u) == OM_WM_FORTIFIED)
        return un->pace_cm / 2.0;
    /* A spell's half pace "in all situations" (Weird Enchantment). */
    if (un->lasting.kinds & OM_WM_LASTING_HALF_PACE)
        return un->pace_cm / 2.0;
    return un->pace_cm;
}

double om_wm_table_charge_pace(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u)
{
    const om_wm_table_unit *un = &t->unit[u];
    if (rules_of(rules)->charge_at_formation_pace && !(un->traits & OM_WM_TABLE_TRAIT_SKIRMISH) &&
        un->formation == OM_WM_TABLE_IRREGULAR && un->stands > 1)
        return un->pace_cm / 2.0;
    if (un->lasting.kinds & OM_WM_LASTING_HALF_PACE)
        return un->pace_cm / 2.0;
    return un->pace_cm;
}

/* ---- Clear poses and moves ---- */

/* om_plane_boxes_apart(*a, *b, cm) with its four gaps tested one by one: the
 * greatest of them (om_plane_box_gap) is beyond the tolerance when one is,
 * and these are the same differences, so the answer is the same. */
static inline bool boxes_apart(const om_plane_box *a, const om_plane_box *b)
{
    const double apart = cm->touch + cm->tie;
    const bool x = a->x0 - b->x1 > apart || b->x0 - a->x1 > apart ||
                   a->y0 - b->y1 > apart || b->y0 - a->y1 > apart;
    assert(x == om_plane_boxes_apart(*a, *b, cm));
    return x;
}

/* Whether unit u placed at (c, f) overlaps a unit (other than u and `skip`),
 * terrain it may not end in, or leaves the table. */
static bool pose_clear(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u, om_wm_vec c,
                       om_wm_vec f, int skip)
{
    const om_wm_table_unit *un = &t->unit[u];
    om_plane_shape a;
    (void)pose_shape(un, c, f, 0, &a);
    if (!om_plane_on_table(t->width_cm, t->depth_cm, &a.p, OM_WM_TABLE_TOUCH_CM))
        return false;
    for (unsigned k = 0; k < t->units; k++) {
        om_plane_shape tmp;
        const om_plane_shape *b;
        if (k == u || (int)k == skip || !t->unit[k].present)
            continue;
        b = shape_in(t, &t->unit[k], &tmp);
        if (!boxes_apart(&a.box, &b->box) && om_plane_overlap(&a, b, OM_WM_TABLE_TOUCH_CM))
            return false;
    }
    for (unsigned k = 0; k < t->terrain_pieces; k++) {
        const om_plane_shape *b = terrain_shape(&t->terrain[k]);
        if (!closed_to_end(rules, un, &t->terrain[k]) || boxes_apart(&a.box, &b->box))
            continue;
        if (om_plane_overlap(&a, b, OM_WM_TABLE_TOUCH_CM))
            return false;
    }
    return true;
}

bool om_wm_table_place_clear(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u,
                             om_wm_vec c, om_wm_vec dir, bool apart_from_enemies)
{
    const om_wm_table_unit *un = &t->unit[u];
    om_plane_shape a;
    if (!pose_clear(t, rules, u, c, dir, -1))
        return false;
    if (!apart_from_enemies)
        return true;
    (void)pose_shape(un, c, dir, 0, &a);
    for (unsigned k = 0; k < t->units; k++) {
        om_plane_shape tmp;
        const om_plane_shape *b;
        if (!t->unit[k].present || t->unit[k].side == un->side)
            continue;
        b = shape_in(t, &t->unit[k], &tmp);
        if (!boxes_apart(&a.box, &b->box) && om_plane_distance(&a, b) <= OM_WM_TABLE_TOUCH_CM)
            return false;
    }
    return true;
}

/* Earliest stop of shape `a` (unit u's outline or a group member's) moving by
 * v: units not in `group`, closed terrain, the table edge. */
static double stop_time(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u,
                        const om_plane_shape *a, om_wm_vec v, const om_wm_unit_set *group,
                        const om_wm_table_move_rule *rule, int *by)
{
    const om_wm_table_unit *un = &t->unit[u];
    double tmin = om_plane_bound(t->width_cm, t->depth_cm, &a->p, v);
    /* The box the move sweeps: what lies apart from it cannot stop it. */
    const om_plane_box swept = om_plane_box_sweep(a->box, v);
    if (un->traits & OM_WM_TABLE_TRAIT_FLYER)
        return tmin; /* T8: flyers pass over everything */
    const double apart = cm->touch + cm->tie;
    for (unsigned k = 0; k < t->units; k++) {
        const om_wm_table_unit *o = &t->unit[k];
        double gap, grow;
        om_plane_shape grown, tmp;
        const om_plane_shape *b0;
        if (!o->present || k == u || om_wm_unit_set_has(group, k))
            continue;
        gap = (int)k == rule->target ? rule->keep_cm
              : o->side != un->side  ? rule->enemy_gap_cm
                                     : 0;
        b0 = shape_in(t, o, &tmp);
        /* A rectangle grown by `gap` lies within its box grown by gap times
         * sqrt(2) (its corners' diagonal): 1.5 gap covers it. The boxes are
         * apart (om_plane_boxes_apart of the grown box) when any of the four
         * gaps whose greatest om_plane_box_gap takes is beyond the tolerance:
         * the same differences, each tested on its own. */
        grow = 1.5 * gap;
        if (swept.x0 - (b0->box.x1 + grow) > apart || (b0->box.x0 - grow) - swept.x1 > apart ||
            swept.y0 - (b0->box.y1 + grow) > apart || (b0->box.y0 - grow) - swept.y1 > apart) {
            assert(om_plane_boxes_apart(swept, om_plane_box_grow(b0->box, grow), cm));
            continue;
        }
        assert(!om_plane_boxes_apart(swept, om_plane_box_grow(b0->box, grow), cm));
        if (rule->through_friends && o->side == un->side && !om_wm_table_engaged(t, k))
            continue; /* handled after the move: bursting through */
        {
            const double hit = gap > 0 ? om_plane_first_hit(a, v, pose_shape(o, o->centre,
                                                                            o->dir, gap,
                                                                            &grown), b0, cm)
                                       : om_plane_first_hit(a, v, b0, NULL, cm);
            if (hit < tmin) {
                tmin = hit;
                if (by != NULL)
                    *by = (int)k;
            }
        }
    }
    for (unsigned k = 0; k < t->terrain_pieces; k++) {
        const om_plane_shape *b = terrain_shape(&t->terrain[k]);
        double hit;
        if (!om_wm_table_terrain_closed(rules, t->terrain[k].kind, un->troop) ||
            boxes_apart(&swept, &b->box))
            continue;
        if ((hit = om_plane_first_hit(a, v, b, NULL, cm)) < tmin) {
            tmin = hit;
            if (by != NULL)
                *by = (int)(OM_WM_TABLE_MAX_UNITS + k);
        }
    }
    return tmin;
}

/* After a burst-through move of a by v stopped at tmin: pull back so that no
 * friend is overlapped at the end, and flag the friends passed wholly. */
static double burst_friends(const om_wm_table *t, unsigned u, const om_plane_shape *a,
                            om_wm_vec v, double tmin, om_wm_unit_set *burst)
{
    const om_wm_table_unit *un = &t->unit[u];
    const om_plane_box swept = om_plane_box_sweep(a->box, v);
    bool changed = true;
    /* Each pull-back can only make the end earlier; a few passes settle it. */
    while (changed) {
        changed = false;
        for (unsigned k = 0; k < t->units; k++) {
            const om_wm_table_unit *o = &t->unit[k];
            double in, out;
            om_plane_shape tmp;
            const om_plane_shape *b;
            if (k == u || !o->present || o->side != un->side)
                continue;
            b = shape_in(t, o, &tmp);
            if (boxes_apart(&swept, &b->box) || om_wm_table_engaged(t, k))
                continue;
            if (!om_plane_sweep(a, v, b, cm, &in, &out) || in < 0)
                continue;
            if (in < tmin && out > tmin) {
                tmin = om_plane_contact_time(in, v, cm); /* would end on it: stop short */
                changed = true;
            }
        }
    }
    for (unsigned k = 0; burst && k < t->units; k++) {
        const om_wm_table_unit *o = &t->unit[k];
        double in, out;
        om_plane_shape tmp;
        const om_plane_shape *b;
        if (k == u || !o->present || o->side != un->side)
            continue;
        b = shape_in(t, o, &tmp);
        if (!boxes_apart(&swept, &b->box) && om_plane_sweep(a, v, b, cm, &in, &out) && in >= 0 &&
            out <= tmin)
            om_wm_unit_set_add(burst, k);
    }
    return tmin;
}

/* T8: a flyer backs off along its path until its end place is clear. */
static double flyer_backoff(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u,
                            om_wm_vec start, om_wm_vec f, om_wm_vec v, double tmin)
{
    double len = v_len(v), step = len > 0 ? FLYER_BACKOFF_CM / len : 1;
    while (tmin > 0 && !pose_clear(t, rules, u, v_add(start, v_scale(v, tmin)), f, -1))
        tmin = fmax(0, tmin - step);
    return tmin;
}

/* The extent of polygon p across the unit vector r, measured from point c:
 * its least and greatest offsets along r. */
static void extent_across(const om_plane_poly *p, om_wm_vec c, om_wm_vec r, double *lo,
                          double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (unsigned i = 0; i < p->n; i++) {
        const double x = v_dot(v_sub(p->v[i], c), r);
        *lo = fmin(*lo, x);
        *hi = fmax(*hi, x);
    }
}

/* Whether a move stopped by `by` (stop_time's: a unit, or
 * OM_WM_TABLE_MAX_UNITS + a terrain piece) may go round it: closed terrain, or
 * a friend of unit u (not in `group`) that is not the move's target. */
static bool may_go_round(const om_wm_table *t, unsigned u, int by, const om_wm_unit_set *group,
                         const om_wm_table_move_rule *rule)
{
    return by >= 0 && (by >= OM_WM_TABLE_MAX_UNITS ||
                       (t->unit[by].side == t->unit[u].side &&
                        (group == NULL || !om_wm_unit_set_has(group, (unsigned)by)) &&
                        by != rule->target));
}

/* The shape of obstacle `by` (may_go_round's), `tmp` holding a unit's. */
static const om_plane_shape *obstacle_shape(const om_wm_table *t, int by, om_plane_shape *tmp)
{
    return by >= OM_WM_TABLE_MAX_UNITS ? terrain_shape(&t->terrain[by - OM_WM_TABLE_MAX_UNITS])
                                       : shape_in(t, &t->unit[by], tmp);
}

static double round_from(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u, om_wm_vec f,
                         om_wm_vec p, om_wm_vec way, double ahead, int by, double budget,
                         om_wm_vec goal, const om_wm_table_move_rule *rule, unsigned depth,
                         om_wm_vec *end);

/* Unit u facing f, from p, straight on along unit vector `way`, at most
 * `budget` cm and no farther on than `goal`; stopped by a friend or closed
 * terrain with `depth` obstacles still to go round, round that one too
 * (round_from). Where it ends into *end; returns the distance moved. */
static double onward(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u, om_wm_vec f,
                     om_wm_vec p, om_wm_vec way, double budget, om_wm_vec goal,
                     const om_wm_table_move_rule *rule, unsigned depth, om_wm_vec *end)
{
    const om_wm_unit_set none = {0};
    double rest = fmin(budget, v_dot(v_sub(goal, p), way)), t2;
    int by = -1;
    om_plane_shape a;
    *end = p;
    if (rest <= 0)
        return 0;
    (void)pose_shape(&t->unit[u], p, f, 0, &a);
    t2 = stop_time(t, rules, u, &a, v_scale(way, rest), &none, rule, depth > 0 ? &by : NULL);
    *end = v_add(p, v_scale(way, rest * t2));
    if (depth > 0 && t2 < 1 && may_go_round(t, u, by, NULL, rule))
        return round_from(t, rules, u, f, p, way, rest * t2, by, rest, goal, rule, depth, end);
    return rest * t2;
}

/* A way round for unit u facing f, from p, whose straight move along unit
 * vector `way` got `ahead` cm: a first leg to a waypoint `side` cm across
 * (along v_right(way)) and `ahead` cm on, then on along `way` (onward, round
 * at most `depth` more obstacles), the whole at most `budget` cm and no
 * farther on than `goal`. Where it ends into *end; returns the distance
 * moved. */
static double way_round(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u, om_wm_vec f,
                        om_wm_vec p, om_wm_vec way, double ahead, double side, double budget,
                        om_wm_vec goal, const om_wm_table_move_rule *rule, unsigned depth,
                        om_wm_vec *end)
{
    const om_wm_table_unit *un = &t->unit[u];
    const om_wm_unit_set none = {0};
    om_wm_vec v1 = v_add(v_scale(way, ahead), v_scale(v_right(way), side));
    double l1 = v_len(v1), t1;
    om_plane_shape a;
    if (l1 > budget) {
        v1 = v_scale(v1, budget / l1);
        l1 = budget;
    }
    (void)pose_shape(un, p, f, 0, &a);
    t1 = stop_time(t, rules, u, &a, v1, &none, rule, NULL);
    *end = v_add(p, v_scale(v1, t1));
    if (t1 < 1)
        return l1 * t1;
    return l1 * t1 + onward(t, rules, u, f, *end, way, budget - l1, goal, rule, depth, end);
}

/* Unit u facing f, whose straight move from p along unit vector `way` got
 * `ahead` cm (ending at *end) before obstacle `by`: the two ways round it
 * (way_round, the side needing the shorter step across first), each then
 * going round up to depth - 1 more obstacles in its way. The one ending
 * nearer the goal is taken, and only when OM_WM_TABLE_ROUND_CM nearer than
 * *end; *end updated. Returns the distance moved (`ahead` when neither). */
static double round_from(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u, om_wm_vec f,
                         om_wm_vec p, om_wm_vec way, double ahead, int by, double budget,
                         om_wm_vec goal, const om_wm_table_move_rule *rule, unsigned depth,
                         om_wm_vec *end)
{
    om_plane_shape tmp, a;
    const om_plane_shape *b = obstacle_shape(t, by, &tmp);
    const om_wm_vec r = v_right(way);
    double ulo, uhi, blo, bhi, best = v_len(v_sub(goal, *end)) - OM_WM_TABLE_ROUND_CM;
    double moved = ahead;
    (void)pose_shape(&t->unit[u], p, f, 0, &a);
    extent_across(&a.p, p, r, &ulo, &uhi);
    extent_across(&b->p, p, r, &blo, &bhi);
    {
        const double side[2] = {bhi - ulo + OM_WM_TABLE_ROUND_CM,
                                blo - uhi - OM_WM_TABLE_ROUND_CM};
        const unsigned first = fabs(side[0]) <= fabs(side[1]) ? 0 : 1;
        for (unsigned k = 0; k < 2; k++) {
            om_wm_vec e;
            const double m = way_round(t, rules, u, f, p, way, ahead, side[first ^ k], budget,
                                       goal, rule, depth - 1, &e);
            const double d = v_len(v_sub(goal, e));
            if (d < best) {
                best = d;
                *end = e;
                moved = m;
            }
        }
    }
    return moved;
}

/* Where a move of unit u ends: its centre and facing, the distance it moved
 * (om_wm_table_move, worked out on a table it does not change). */
static double move_end(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u, om_wm_vec goal,
                       double max_cm, const om_wm_table_move_rule *rule, om_wm_unit_set *burst,
                       om_wm_vec *centre, om_wm_vec *dir)
{
    const om_wm_table_unit *un = &t->unit[u];
    om_wm_vec delta = v_sub(goal, un->centre), v, way, f = un->dir;
    double dist = v_len(delta), len, tmin;
    int by = -1;
    om_plane_shape a;
    *centre = un->centre;
    *dir = un->dir;
    if (dist < 1e-9 || max_cm <= 0)
        return 0;
    way = v_scale(delta, 1 / dist);
    len = fmin(max_cm, dist);
    if (rule->turn && pose_clear(t, rules, u, un->centre, way, -1))
        f = way;
    v = v_scale(way, len);
    (void)pose_shape(un, un->centre, f, 0, &a);
    tmin = stop_time(t, rules, u, &a, v, &(const om_wm_unit_set){0}, rule, &by);
    if (rule->through_friends && !(un->traits & OM_WM_TABLE_TRAIT_FLYER))
        tmin = burst_friends(t, u, &a, v, tmin, burst);
    if (un->traits & OM_WM_TABLE_TRAIT_FLYER)
        tmin = flyer_backoff(t, rules, u, un->centre, f, v, tmin);
    *centre = v_add(un->centre, v_scale(v, tmin));
    *dir = f;
    if (rule->round && !rule->through_friends && !(un->traits & OM_WM_TABLE_TRAIT_FLYER) &&
        tmin < 1 && may_go_round(t, u, by, NULL, rule))
        /* Blocked by a friend or closed terrain: the ways round it. */
        return round_from(t, rules, u, f, un->centre, way, len * tmin, by, len, goal, rule,
                          OM_WM_TABLE_ROUND_OBSTACLES, centre);
    return len * tmin;
}

double om_wm_table_move(om_wm_table *t, om_wm_ruleset_id rules, unsigned u, om_wm_vec goal,
                        double max_cm, const om_wm_table_move_rule *rule,
                        om_wm_unit_set *burst)
{
    om_wm_table_unit *un = &t->unit[u];
    const uint32_t st = state_id(t);
    const uint32_t tag = TABLE_MOVE | (u & 0xffu) << 8 | ((unsigned)rules & 0x3u) << 16 |
                         (rule->turn ? 1u : 0u) << 18 | (rule->through_friends ? 1u : 0u) << 19 |
                         (burst != NULL ? 1u : 0u) << 20 | (rule->round ? 1u : 0u) << 21 |
                         ((unsigned)(rule->target + 1) & 0xffu) << 24;
    table_answer x = {st, tag,
                      {bits_of(goal.x), bits_of(goal.y), bits_of(max_cm),
                       bits_of(rule->enemy_gap_cm), bits_of(rule->keep_cm), 0},
                      {0}};
    const table_answer *e = st != 0 ? table_find(t->memo, st, tag, x.arg) : NULL;
    om_wm_vec centre, dir;
    om_wm_unit_set bits = {0};
    uint64_t id = 0;
    double moved;
    if (e != NULL) {
        centre = e->v.move.centre;
        dir = e->v.move.dir;
        moved = e->v.move.moved;
        bits = e->v.move.burst;
        id = e->v.move.id;
    } else {
        moved = move_end(t, rules, u, goal, max_cm, rule, burst != NULL ? &bits : NULL, &centre,
                         &dir);
    }
    if (burst != NULL)
        om_wm_unit_set_union(burst, &bits);
    if (bits_of(centre.x) != bits_of(un->centre.x) || bits_of(centre.y) != bits_of(un->centre.y) ||
        bits_of(dir.x) != bits_of(un->dir.x) || bits_of(dir.y) != bits_of(un->dir.y)) {
        un->centre = centre;
        un->dir = dir;
        geom_update_named(t->memo, un, u, id);
    }
    if (st != 0 && e == NULL) {
        /* Kept once the unit has its new outline's id. */
        x.v.move.centre = centre;
        x.v.move.dir = dir;
        x.v.move.moved = moved;
        x.v.move.burst = bits;
        x.v.move.id = un->geom.id;
        table_put(t->memo, &x);
    }
    return moved;
}

/* Unit u's outline at `at` (NULL: where it stands, its own outline), facing
 * as it does, into *tmp. */
static const om_plane_shape *member_shape(const om_wm_table *t, unsigned u, const om_wm_vec *at,
                                          om_plane_shape *tmp)
{
    return at == NULL ? unit_shape(&t->unit[u], tmp)
                      : pose_shape(&t->unit[u], *at, t->unit[u].dir, 0, tmp);
}

static double group_round(const om_wm_table *t, om_wm_ruleset_id rules, const unsigned *u,
                          unsigned n, const om_wm_unit_set *group,
                          const om_wm_table_move_rule *body, const om_wm_vec *from, int by,
                          om_wm_vec way, double budget, double ahead, om_wm_vec goal,
                          unsigned depth, om_wm_vec *centre);

/* The group `u` (its set `group`, rule `body`) from from[] (NULL: where its
 * units stand) straight on along unit vector `way`, at most `budget` cm and no
 * farther on than `goal` (from the first unit), stopped where the first of
 * them is; stopped by a friend outside it or closed terrain with `depth`
 * obstacles still to go round, round that one too (group_round). Each unit's
 * end into end[]; returns the distance moved. */
static double group_onward(const om_wm_table *t, om_wm_ruleset_id rules, const unsigned *u,
                           unsigned n, const om_wm_unit_set *group,
                           const om_wm_table_move_rule *body, const om_wm_vec *from,
                           om_wm_vec way, double budget, om_wm_vec goal, unsigned depth,
                           om_wm_vec *end)
{
    double rest = fmin(budget, v_dot(v_sub(goal, from[0]), way)), t2 = 1;
    int by = -1;
    for (unsigned i = 0; i < n; i++)
        end[i] = from[i];
    if (rest <= 0)
        return 0;
    for (unsigned i = 0; i < n; i++) {
        om_plane_shape a;
        int hit_by = -1;
        const double ti = stop_time(t, rules, u[i], member_shape(t, u[i], &from[i], &a),
                                    v_scale(way, rest), group, body,
                                    depth > 0 ? &hit_by : NULL);
        if (ti < t2) {
            t2 = ti;
            by = hit_by;
        }
    }
    for (unsigned i = 0; i < n; i++)
        end[i] = v_add(from[i], v_scale(way, rest * t2));
    if (depth > 0 && t2 < 1 && may_go_round(t, u[0], by, group, body))
        return group_round(t, rules, u, n, group, body, from, by, way, rest, rest * t2, goal,
                           depth, end);
    return rest * t2;
}

/* One way round for the group `u` (its set `group`, rule `body`) from from[]
 * (NULL: where its units stand): every unit moved by the same legs as
 * way_round's, `side` cm across and `ahead` cm on, then on along `way`
 * (group_onward, round at most `depth` more obstacles), at most `budget` cm
 * in all and no farther on than `goal` (from the first unit's centre),
 * stopped where the first of them is. Each unit's end into end[]; returns the
 * distance moved. */
static double group_way(const om_wm_table *t, om_wm_ruleset_id rules, const unsigned *u,
                        unsigned n, const om_wm_unit_set *group,
                        const om_wm_table_move_rule *body, const om_wm_vec *from, om_wm_vec way,
                        double ahead, double side, double budget, om_wm_vec goal, unsigned depth,
                        om_wm_vec *end)
{
    om_wm_vec v1 = v_add(v_scale(way, ahead), v_scale(v_right(way), side));
    om_wm_vec mid[OM_WM_TABLE_MAX_UNITS];
    double l1 = v_len(v1), t1 = 1;
    if (l1 > budget) {
        v1 = v_scale(v1, budget / l1);
        l1 = budget;
    }
    for (unsigned i = 0; i < n; i++) {
        om_plane_shape tmp;
        t1 = fmin(t1, stop_time(t, rules, u[i],
                                member_shape(t, u[i], from != NULL ? &from[i] : NULL, &tmp), v1,
                                group, body, NULL));
    }
    for (unsigned i = 0; i < n; i++)
        end[i] = mid[i] = v_add(from != NULL ? from[i] : t->unit[u[i]].centre, v_scale(v1, t1));
    if (t1 < 1)
        return l1 * t1;
    return l1 * t1 + group_onward(t, rules, u, n, group, body, mid, way, budget - l1, goal,
                                  depth, end);
}

/* The group's ways round obstacle `by` (a unit, or OM_WM_TABLE_MAX_UNITS + a
 * terrain piece) after its straight move from from[] (NULL: where its units
 * stand) along `way` got `ahead` cm (ends in centre[]): as round_from's, the
 * whole group's extent across its way clearing the obstacle's, each way then
 * going round up to depth - 1 more obstacles, the side ending its first unit
 * nearer the goal taken when OM_WM_TABLE_ROUND_CM nearer than the straight
 * move. Returns the distance moved, centre[] updated. */
static double group_round(const om_wm_table *t, om_wm_ruleset_id rules, const unsigned *u,
                          unsigned n, const om_wm_unit_set *group,
                          const om_wm_table_move_rule *body, const om_wm_vec *from, int by,
                          om_wm_vec way, double budget, double ahead, om_wm_vec goal,
                          unsigned depth, om_wm_vec *centre)
{
    const om_wm_vec origin = from != NULL ? from[0] : t->unit[u[0]].centre;
    const om_wm_vec r = v_right(way);
    om_plane_shape tmp;
    const om_plane_shape *b;
    double ulo = INFINITY, uhi = -INFINITY, blo, bhi, moved = ahead;
    double best = v_len(v_sub(goal, centre[0])) - OM_WM_TABLE_ROUND_CM;
    for (unsigned i = 0; i < n; i++) {
        double lo, hi;
        extent_across(&member_shape(t, u[i], from != NULL ? &from[i] : NULL, &tmp)->p, origin,
                      r, &lo, &hi);
        ulo = fmin(ulo, lo);
        uhi = fmax(uhi, hi);
    }
    /* tmp held the units' shapes: the obstacle's is taken after them. */
    b = obstacle_shape(t, by, &tmp);
    extent_across(&b->p, origin, r, &blo, &bhi);
    {
        const double side[2] = {bhi - ulo + OM_WM_TABLE_ROUND_CM,
                                blo - uhi - OM_WM_TABLE_ROUND_CM};
        const unsigned first = fabs(side[0]) <= fabs(side[1]) ? 0 : 1;
        for (unsigned k = 0; k < 2; k++) {
            om_wm_vec end[OM_WM_TABLE_MAX_UNITS];
            const double m = group_way(t, rules, u, n, group, body, from, way, ahead,
                                       side[first ^ k], budget, goal, depth - 1, end);
            const double d = v_len(v_sub(goal, end[0]));
            if (d < best) {
                best = d;
                moved = m;
                for (unsigned i = 0; i < n; i++)
                    centre[i] = end[i];
            }
        }
    }
    return moved;
}

/* Where a group's move ends: each unit's centre, the distance it moved
 * (om_wm_table_move_group, worked out on a table it does not change). */
static double move_group_end(const om_wm_table *t, om_wm_ruleset_id rules, const unsigned *u,
                             unsigned n, om_wm_vec goal, double max_cm,
                             const om_wm_table_move_rule *rule, om_wm_vec *centre)
{
    om_wm_vec delta, v;
    double dist, len, tmin = 1;
    int by = -1;
    om_wm_unit_set group = {0};
    om_wm_table_move_rule body = *rule;
    for (unsigned i = 0; i < n; i++)
        centre[i] = t->unit[u[i]].centre;
    if (n == 0)
        return 0;
    delta = v_sub(goal, t->unit[u[0]].centre);
    dist = v_len(delta);
    if (dist < 1e-9 || max_cm <= 0)
        return 0;
    len = fmin(max_cm, dist);
    v = v_scale(delta, len / dist);
    body.turn = false;
    body.through_friends = false;
    for (unsigned i = 0; i < n; i++)
        om_wm_unit_set_add(&group, u[i]);
    for (unsigned i = 0; i < n; i++) {
        om_plane_shape tmp;
        int hit_by = -1;
        const double ti = stop_time(t, rules, u[i], unit_shape(&t->unit[u[i]], &tmp), v, &group,
                                    &body, &hit_by);
        if (ti < tmin) {
            tmin = ti;
            by = hit_by;
        }
    }
    for (unsigned i = 0; i < n; i++)
        centre[i] = v_add(t->unit[u[i]].centre, v_scale(v, tmin));
    if (rule->round && tmin < 1 && may_go_round(t, u[0], by, &group, rule))
        return group_round(t, rules, u, n, &group, &body, NULL, by, v_scale(delta, 1 / dist), len,
                           len * tmin, goal, OM_WM_TABLE_ROUND_OBSTACLES, centre);
    return len * tmin;
}

double om_wm_table_move_group(om_wm_table *t, om_wm_ruleset_id rules, const unsigned *u,
                              unsigned n, om_wm_vec goal, double max_cm,
                              const om_wm_table_move_rule *rule)
{
    const uint32_t st = n <= OM_WM_BRIGADE_MAX_UNITS ? state_id(t) : 0;
    const uint32_t tag = TABLE_MOVE_GROUP | ((unsigned)rules & 0x3u) << 8 | (n & 0x7u) << 10 |
                         (rule->round ? 1u : 0u) << 13 |
                         ((unsigned)(rule->target + 1) & 0xffu) << 16;
    table_answer x = {st, tag,
                      {bits_of(goal.x), bits_of(goal.y), bits_of(max_cm),
                       bits_of(rule->enemy_gap_cm), bits_of(rule->keep_cm), 0},
                      {0}};
    om_wm_vec centre[OM_WM_BRIGADE_MAX_UNITS];
    double moved;
    const table_answer *e;
    if (st == 0 || n == 0) {
        om_wm_vec local[OM_WM_TABLE_MAX_UNITS];
        moved = move_group_end(t, rules, u, n, goal, max_cm, rule, local);
        for (unsigned i = 0; i < n; i++) {
            t->unit[u[i]].centre = local[i];
            geom_update(t->memo, &t->unit[u[i]], u[i]);
        }
        return moved;
    }
    for (unsigned i = 0; i < n; i++)
        x.arg[5] |= (uint64_t)(u[i] & 0xffu) << (8 * i);
    if ((e = table_find(t->memo, st, tag, x.arg)) != NULL) {
        moved = e->v.group.moved;
        for (unsigned i = 0; i < n; i++) {
            t->unit[u[i]].centre = e->v.group.centre[i];
            geom_update_named(t->memo, &t->unit[u[i]], u[i], e->v.group.id[i]);
        }
        return moved;
    }
    moved = move_group_end(t, rules, u, n, goal, max_cm, rule, centre);
    for (unsigned i = 0; i < n; i++) {
        t->unit[u[i]].centre = centre[i];
        geom_update(t->memo, &t->unit[u[i]], u[i]);
        x.v.group.centre[i] = centre[i];
        x.v.group.id[i] = (uint32_t)t->unit[u[i]].geom.id;
    }
    /* Kept once the units have their new outlines' ids. */
    x.v.group.moved = moved;
    table_put(t->memo, &x);
    return moved;
}

/* ---- Charges ---- */

/* The target's face as a segment a->b with its outward normal and the stand
 * length along it. */
static void face_segment(const om_wm_table_unit *g, om_wm_table_face face, om_wm_vec *a,
                         om_wm_vec *b, om_wm_vec *n, double *stand_len)
{
    om_plane_poly p = unit_poly(g, 0);
    om_wm_vec r = v_right(g->dir);
    switch (face) {
    case OM_WM_TABLE_FRONT:
        *a = p.v[0], *b = p.v[1], *n = g->dir, *stand_len = g->stand_w;
        break;
    case OM_WM_TABLE_RIGHT:
        *a = p.v[1], *b = p.v[2], *n = r, *stand_len = g->stand_d;
        break;
    case OM_WM_TABLE_REAR:
        *a = p.v[2], *b = p.v[3], *n = v_scale(g->dir, -1), *stand_len = g->stand_w;
        break;
    default:
        *a = p.v[3], *b = p.v[0], *n = v_scale(r, -1), *stand_len = g->stand_d;
        break;
    }
}

/* The shape of segment a-b. */
static const om_plane_shape *segment_shape(om_wm_vec a, om_wm_vec b, om_plane_shape *s)
{
    const om_plane_poly p = {.n = 2, .v = {a, b}};
    om_plane_shape_of(s, &p);
    return s;
}

/* The centre (distance along the face) of the face stand closest to the
 * charger, ties going to the stand whose centre is nearest the charger's: the
 * first charging stand goes centre to centre with it (Combat > Moving Chargers >
 * The charge move). */
static double closest_face_stand(const om_plane_shape *cp, om_wm_vec charger_centre, om_wm_vec a,
                                 om_wm_vec b, double stand_len)
{
    om_wm_vec e = v_sub(b, a);
    double len = v_len(e), best_s = len / 2, best_d = INFINITY, best_c = INFINITY;
    unsigned m = stand_len > 0 ? (unsigned)floor(len / stand_len + 0.5) : 1;
    if (m < 1) m = 1;
    for (unsigned j = 0; j < m; j++) {
        double s0 = j * len / m, s1 = (j + 1) * len / m, sm = (s0 + s1) / 2;
        om_plane_shape seg;
        double d = om_plane_distance(cp, segment_shape(v_add(a, v_scale(e, s0 / len)),
                                                       v_add(a, v_scale(e, s1 / len)), &seg));
        double dc = v_len(v_sub(v_add(a, v_scale(e, sm / len)), charger_centre));
        if (d < best_d - 1e-9 || (d <= best_d + 1e-9 && dc < best_c)) {
            best_d = fmin(d, best_d);
            best_c = dc;
            best_s = sm;
        }
    }
    return best_s;
}

/* Largest distance a corner of u moves from its pose to (c, f): the
 * farthest-moving point (Movement > Formation & Movement > Moving the stands). */
static double corner_travel(const om_wm_table_unit *u, om_wm_vec c, om_wm_vec f)
{
    om_plane_poly p0 = unit_poly(u, 0), p1 = unit_poly_at(u, c, f, 0);
    double best = 0;
    for (unsigned i = 0; i < 4; i++)
        best = fmax(best, v_len(v_sub(p1.v[i], p0.v[i])));
    return best;
}

/* Whether the straight path of the charger's contact-facing rectangle from
 * its start to `c` is clear of units (but the target), closed terrain and the
 * table edge (T4). */
static bool charge_path_clear(const om_wm_table *t, om_wm_ruleset_id rules, unsigned charger,
                              unsigned target, om_wm_vec c, om_wm_vec f)
{
    const om_wm_table_unit *un = &t->unit[charger];
    om_wm_table_move_rule rule = {.target = -1};
    om_wm_vec v = v_sub(c, un->centre);
    om_plane_shape a;
    if (un->traits & OM_WM_TABLE_TRAIT_FLYER)
        return true;
    om_wm_unit_set only = {0};
    om_wm_unit_set_add(&only, target);
    (void)pose_shape(un, un->centre, f, 0, &a);
    return stop_time(t, rules, charger, &a, v, &only, &rule, NULL) >= 1 - 1e-9;
}

static void charge_plan(const om_wm_table *t, om_wm_ruleset_id rules, unsigned charger,
                        unsigned target, double pace_cm, om_wm_table_charge *out);

void om_wm_table_charge_plan(const om_wm_table *t, om_wm_ruleset_id rules, unsigned charger,
                             unsigned target, double pace_cm, om_wm_table_charge *out)
{
    const uint32_t st = state_id(t);
    table_answer x = {st,
                      TABLE_CHARGE | (charger & 0xffu) << 8 | (target & 0xffu) << 16 |
                          ((unsigned)rules & 0x3u) << 24,
                      {bits_of(pace_cm)}, {0}};
    const table_answer *e;
    if (st == 0) {
        charge_plan(t, rules, charger, target, pace_cm, out);
        return;
    }
    if ((e = table_find(t->memo, st, x.tag, x.arg)) != NULL) {
        *out = e->v.charge;
        return;
    }
    charge_plan(t, rules, charger, target, pace_cm, &x.v.charge);
    table_put(t->memo, &x);
    *out = x.v.charge;
}

/* A charge plan, worked out. */
static void charge_plan(const om_wm_table *t, om_wm_ruleset_id rules, unsigned charger,
                        unsigned target, double pace_cm, om_wm_table_charge *out)
{
    const om_wm_table_unit *c = &t->unit[charger], *g = &t->unit[target];
    om_wm_vec a, b, n, e, f;
    double stand_len, len, s0, hw = om_wm_table_unit_width(c) / 2,
                                hd = om_wm_table_unit_depth(c) / 2, step = c->stand_w / 2;
    om_plane_shape tmp;
    const om_plane_shape *cp = unit_shape(c, &tmp);
    memset(out, 0, sizeof *out);
    out->face = om_wm_table_charge_face(t, rules, charger, target);
    out->required_cm = INFINITY;
    /* Only infantry and flyers contact fortified stands (Combat > Defended &
     * Fortified Troops; Warmaster Ancients, Movement > Exceptions to the Charge
     * Rules). */
    if (om_wm_table_position(t, target) == OM_WM_FORTIFIED && c->troop != OM_WM_INFANTRY &&
        !(c->traits & OM_WM_TABLE_TRAIT_FLYER))
        return;
    face_segment(g, out->face, &a, &b, &n, &stand_len);
    e = v_sub(b, a);
    len = v_len(e);
    e = v_scale(e, 1 / len);
    f = v_scale(n, -1);
    s0 = closest_face_stand(cp, c->centre, a, b, stand_len);
    /* Shifts 0, +h, -h, +2h, -2h, ... keeping 1cm of edge contact (T4). */
    for (unsigned k = 0; k <= 2 * CHARGE_MAX_SHIFTS; k++) {
        double shift = (k == 0) ? 0 : ((k % 2) ? 1.0 : -1.0) * step * ((k + 1) / 2);
        double s = s0 + shift;
        double contact = fmin(s + hw, len) - fmax(s - hw, 0);
        om_wm_vec centre;
        if (contact < CHARGE_MIN_EDGE_CM - 1e-9)
            continue;
        centre = v_add(v_add(a, v_scale(e, s)), v_scale(n, hd));
        if (!pose_clear(t, rules, charger, centre, f, -1) ||
            !charge_path_clear(t, rules, charger, target, centre, f))
            continue;
        out->possible = true;
        out->centre = centre;
        out->dir = f;
        out->required_cm = corner_travel(c, centre, f);
        out->reaches = out->required_cm <= pace_cm + 1e-9;
        return;
    }
}

bool om_wm_table_face_covered(const om_wm_table *t, unsigned u, om_wm_table_face face)
{
    const om_wm_table_unit *un = &t->unit[u];
    om_wm_vec a, b, n;
    double stand_len;
    om_plane_shape edge;
    face_segment(un, face, &a, &b, &n, &stand_len);
    (void)segment_shape(a, b, &edge);
    for (unsigned k = 0; k < t->units; k++) {
        om_plane_shape tmp;
        if (k == u || !t->unit[k].present || t->unit[k].side != un->side)
            continue;
        if (om_plane_distance(&edge, unit_shape(&t->unit[k], &tmp)) <= OM_WM_TABLE_TOUCH_CM)
            return true;
    }
    return false;
}

/* ---- What lies behind ---- */

static void behind_along(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u,
                         om_wm_vec away, double reach_cm, om_wm_table_behind *out);

void om_wm_table_behind_along(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u,
                              om_wm_vec away, double reach_cm, om_wm_table_behind *out)
{
    const uint32_t st = state_id(t);
    table_answer x = {st, TABLE_BEHIND | (u & 0xffu) << 8 | ((unsigned)rules & 0x3u) << 16,
                      {bits_of(away.x), bits_of(away.y), bits_of(reach_cm)}, {0}};
    const table_answer *e;
    if (st == 0) {
        behind_along(t, rules, u, away, reach_cm, out);
        return;
    }
    if ((e = table_find(t->memo, st, x.tag, x.arg)) != NULL) {
        *out = e->v.behind;
        return;
    }
    behind_along(t, rules, u, away, reach_cm, &x.v.behind);
    table_put(t->memo, &x);
    *out = x.v.behind;
}

/* A unit's stands are bits of a 32-bit mask (blocked_stands). */
_Static_assert(OM_WM_TABLE_MAX_STANDS <= 32, "a unit's stands are bits of a 32-bit mask");

/* Unit u's stands (block b) whose own straight path along v meets `hit`, as
 * bits (stand i in file f, rank r at bit f + r * files) or-ed into *mask:
 * a stand's retreat is blocked "if any part of the stand's base is obliged
 * to move through" it (Combat > Retreats > Blocked retreats). */
static void blocked_stands(const om_plane_block *b, om_wm_vec v, const om_plane_shape *hit,
                           uint32_t *mask)
{
    for (unsigned f = 0; f < b->files; f++)
        for (unsigned r = 0; r < om_plane_block_file_stands(b, f); r++) {
            om_plane_poly p = om_plane_block_stand_at(b, f, r);
            om_plane_shape sh;
            om_plane_shape_of(&sh, &p);
            if (om_plane_first_hit(&sh, v, hit, NULL, cm) < 1)
                *mask |= UINT32_C(1) << (f + r * b->files);
        }
}

/* How much an obstacle behind a retreating unit costs it: friends that make
 * way cost a confusion test, everything else (an enemy, engaged friends,
 * closed terrain) the stands it blocks (Combat > Retreats). */
static unsigned behind_severity(om_wm_behind kind)
{
    return kind == OM_WM_BEHIND_FRIENDS ? 1u : 2u;
}

/* What lies behind unit u along `away`, worked out. Everything met at the
 * first distance is met together, whatever its index or side: the costliest
 * kind of it is what lies behind, and the stands blocked are those any piece
 * of that kind blocks. Distances within OM_PLANE_TIE_CM are one distance, so
 * that two units side by side behind (or a friend and an enemy) give the same
 * answer to both armies, whose coordinates round differently. */
static void behind_along(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u,
                         om_wm_vec away, double reach_cm, om_wm_table_behind *out)
{
    const om_wm_table_unit *un = &t->unit[u];
    om_wm_vec v = v_scale(away, reach_cm);
    om_plane_shape ta;
    const om_plane_shape *a = unit_shape(un, &ta);
    const double bound = om_plane_bound(t->width_cm, t->depth_cm, &a->p, v);
    const om_plane_box swept = om_plane_box_sweep(a->box, v);
    const double tie = reach_cm > 0 ? OM_PLANE_TIE_CM / reach_cm : 0;
    double tmin = bound, hit_t[OM_WM_TABLE_MAX_UNITS + OM_WM_TABLE_MAX_TERRAIN];
    om_plane_block block = unit_block(un);
    uint32_t mask = 0;
    unsigned severity = 0;
    memset(out, 0, sizeof *out);
    out->unit = -1;
    /* Each unit's and closed terrain piece's first hit (1 or more: never met). */
    for (unsigned k = 0; k < t->units; k++) {
        om_plane_shape tmp;
        const om_plane_shape *b;
        hit_t[k] = INFINITY;
        if (k == u || !t->unit[k].present)
            continue;
        b = shape_in(t, &t->unit[k], &tmp);
        if (om_plane_boxes_apart(swept, b->box, cm))
            continue; /* apart from the whole way back: never met */
        hit_t[k] = om_plane_first_hit(a, v, b, NULL, cm);
        tmin = fmin(tmin, hit_t[k]);
    }
    for (unsigned k = 0; k < t->terrain_pieces; k++) {
        const om_plane_shape *b = terrain_shape(&t->terrain[k]);
        hit_t[t->units + k] = INFINITY;
        if (!om_wm_table_terrain_closed(rules, t->terrain[k].kind, un->troop) ||
            boxes_apart(&swept, &b->box))
            continue;
        hit_t[t->units + k] = om_plane_first_hit(a, v, b, NULL, cm);
        tmin = fmin(tmin, hit_t[t->units + k]);
    }
    if (tmin >= 1 - 1e-12 && bound >= 1 - 1e-12) {
        out->kind = OM_WM_BEHIND_OPEN;
        return;
    }
    out->cm = tmin * reach_cm;
    /* What is met at the first distance. */
    for (unsigned k = 0; k < t->units + t->terrain_pieces; k++) {
        om_plane_shape tmp;
        const om_plane_shape *hit;
        om_wm_behind kind;
        uint32_t m = 0;
        if (!(hit_t[k] <= tmin + tie))
            continue;
        if (k < t->units) {
            const om_wm_table_unit *o = &t->unit[k];
            kind = o->side != un->side          ? OM_WM_BEHIND_ENEMY
                   : om_wm_table_engaged(t, k) ? OM_WM_BEHIND_UNYIELDING
                                               : OM_WM_BEHIND_FRIENDS;
            hit = unit_shape(o, &tmp);
        } else {
            kind = OM_WM_BEHIND_IMPASSABLE;
            hit = terrain_shape(&t->terrain[k - t->units]);
        }
        if (behind_severity(kind) < severity)
            continue; /* a costlier kind was met: its stands are the ones */
        blocked_stands(&block, v, hit, &m);
        if (behind_severity(kind) > severity) {
            severity = behind_severity(kind);
            mask = 0;
            out->kind = OM_WM_BEHIND_COUNT;
        }
        /* Of kinds that cost alike, the first in the enumeration names it. */
        if (kind < out->kind) {
            out->kind = kind;
            out->unit = (int8_t)(k < t->units ? (int)k : -1);
        }
        mask |= m;
    }
    if (severity == 0) {
        out->kind = OM_WM_BEHIND_TABLE_EDGE;
        out->stands = un->stands;
        return;
    }
    for (; mask != 0; mask &= mask - 1)
        out->stands++;
}

void om_wm_table_behind_of(const om_wm_table *t, om_wm_ruleset_id rules, unsigned u,
                           double reach_cm, om_wm_table_behind *out)
{
    om_wm_table_behind_along(t, rules, u, v_scale(t->unit[u].dir, -1), reach_cm, out);
}

/* ---- Check ---- */

/* Command values: 7-10 in Warmaster (Game Values > Command), 6-10 in Ancients
 * (Warmaster Ancients, Game Values > Command Values). */
#define MIN_COMMAND 6
#define MAX_COMMAND 10
/* Largest table side accepted (cm): four times the largest standard table. */
#define MAX_TABLE_CM 1000.0
/* How far a facing vector may be from unit length. */
#define DIR_TOL 1e-6

static om_status check_unit_values(const om_wm_table_unit *u, unsigned i,
                                   om_wm_check_failure *why)
{
    if (u->side > 1)
        return om_check_fail_item(why, "units", (int)i, ".side", "must be 0 or 1 (got %u)", u->side);
    if ((unsigned)u->troop >= OM_WM_TROOP_COUNT)
        return om_check_fail_item(why, "units", (int)i, ".type", "unknown troop type %d", (int)u->troop);
    if (u->size < 1 || u->size > OM_WM_TABLE_MAX_STANDS)
        return om_check_fail_item(why, "units", (int)i, ".size", "must be 1 to %d (got %u)", OM_WM_TABLE_MAX_STANDS,
                    u->size);
    if (u->present && (u->stands < 1 || u->stands > u->size))
        return om_check_fail_item(why, "units", (int)i, ".stands", "must be 1 to its size %u (got %u)", u->size,
                    u->stands);
    if (u->pace_cm < 1)
        return om_check_fail_item(why, "units", (int)i, ".pace", "must be at least 1cm");
    if (!(u->stand_w > 0) || !(u->stand_d > 0) || u->stand_w > 20 || u->stand_d > 20)
        return om_check_fail_item(why, "units", (int)i, ".stand", "stand frontage and depth must be 0 to 20cm "
                    "(got %g x %g)", u->stand_w, u->stand_d);
    if ((unsigned)u->formation >= OM_WM_TABLE_FORMATION_COUNT)
        return om_check_fail_item(why, "units", (int)i, ".formation", "unknown formation %d", (int)u->formation);
    if (u->formation == OM_WM_TABLE_IRREGULAR && u->stands > 2 &&
        (u->files < 2 || u->files >= u->stands))
        return om_check_fail_item(why, "units", (int)i, ".files", "an irregular unit of %u stands has 2 to %u "
                    "stands abreast (got %u)", u->stands, u->stands - 1u, u->files);
    if (fabs(v_len(u->dir) - 1) > DIR_TOL || !isfinite(u->centre.x) || !isfinite(u->centre.y))
        return om_check_fail_item(why, "units", (int)i, ".facing", "facing must be a unit vector (length %g)",
                    v_len(u->dir));
    if ((unsigned)u->position >= OM_WM_POSITION_COUNT)
        return om_check_fail_item(why, "units", (int)i, ".position", "unknown position %d", (int)u->position);
    return OM_OK;
}

/* The outline of terrain piece k from its corners (a checked piece). */
static void terrain_fresh(const om_wm_terrain *k, om_plane_shape *s)
{
    om_plane_poly p = {.n = k->vertices};
    memcpy(p.v, k->v, k->vertices * sizeof p.v[0]);
    om_plane_shape_of(s, &p);
}

/* Units: values, on the table, not overlapping, not in closed terrain. */
static om_status check_units(const om_wm_table *t, om_wm_ruleset_id rules,
                             om_wm_check_failure *why)
{
    om_status st;
    for (unsigned i = 0; i < t->units; i++) {
        const om_wm_table_unit *u = &t->unit[i];
        om_plane_shape a;
        if ((st = check_unit_values(u, i, why)))
            return st;
        if (!u->present)
            continue;
        /* Outlines worked out afresh: the check trusts nothing kept. */
        (void)pose_shape(u, u->centre, u->dir, 0, &a);
        for (unsigned c = 0; c < 4; c++)
            if (!om_plane_on_table(t->width_cm, t->depth_cm, &(om_plane_poly){.n = 1, .v = {a.p.v[c]}},
                                   OM_WM_TABLE_TOUCH_CM))
                return om_check_fail_item(why, "units", (int)i, ".at", "%s is off the %gx%gcm table (a corner at "
                            "%.1f,%.1f)", u->name, t->width_cm, t->depth_cm, a.p.v[c].x, a.p.v[c].y);
        for (unsigned j = 0; j < i; j++) {
            om_plane_shape b;
            if (!t->unit[j].present)
                continue;
            (void)pose_shape(&t->unit[j], t->unit[j].centre, t->unit[j].dir, 0, &b);
            if (om_plane_overlap(&a, &b, OM_WM_TABLE_TOUCH_CM))
                return om_check_fail_item(why, "units", (int)i, ".at", "%s overlaps units[%u] (%s)", u->name, j,
                            t->unit[j].name);
        }
        for (unsigned k = 0; k < t->terrain_pieces; k++) {
            om_plane_shape b;
            terrain_fresh(&t->terrain[k], &b);
            if (closed_to_end(rules, u, &t->terrain[k]) &&
                om_plane_overlap(&a, &b, OM_WM_TABLE_TOUCH_CM))
                return om_check_fail_item(why, "units", (int)i, ".at", "%s (%s) cannot stand in terrain[%u] (%s)",
                            u->name, om_wm_troop_name(u->troop), k,
                            om_wm_terrain_names[t->terrain[k].kind]);
        }
    }
    return OM_OK;
}

/* One full turn, in radians, and how far the sum of a convex piece's turns
 * may be from it: far below the full turn a piece whose sides cross adds. */
#define FULL_TURN (2.0 * 3.14159265358979323846)
#define WINDING_TOLERANCE 1e-6

static om_status check_terrain(const om_wm_table *t, om_wm_check_failure *why)
{
    for (unsigned k = 0; k < t->terrain_pieces; k++) {
        const om_wm_terrain *p = &t->terrain[k];
        double sign = 0, area = 0, winding = 0;
        if ((unsigned)p->kind >= OM_WM_TERRAIN_KIND_COUNT)
            return om_check_fail_item(why, "terrain", (int)k, ".kind", "unknown terrain kind %d", (int)p->kind);
        if (p->vertices < 3 || p->vertices > OM_WM_TABLE_MAX_VERTICES)
            return om_check_fail_item(why, "terrain", (int)k, ".points", "a piece has 3 to %d corners (got %u)",
                        OM_WM_TABLE_MAX_VERTICES, p->vertices);
        for (unsigned i = 0; i < p->vertices; i++) {
            om_wm_vec a = p->v[i], b = p->v[(i + 1) % p->vertices],
                      c = p->v[(i + 2) % p->vertices];
            double turn = v_cross(v_sub(b, a), v_sub(c, b));
            area += v_cross(a, b);
            if (turn != 0 && sign != 0 && turn * sign < 0)
                return om_check_fail_item(why, "terrain", (int)k, ".points", "the piece must be convex (it turns "
                            "back at corner %u); split it into convex pieces",
                            (i + 1) % p->vertices);
            if (turn != 0)
                sign = turn;
            winding += atan2(turn, v_dot(v_sub(b, a), v_sub(c, b)));
        }
        if (fabs(area) / 2 < OM_WM_TABLE_TOUCH_CM)
            return om_check_fail_item(why, "terrain", (int)k, ".points", "the piece has no area");
        /* Corners that all turn the same way go round a convex piece once; a
         * star's (its sides crossing) go round twice or more. */
        if (fabs(fabs(winding) - FULL_TURN) > WINDING_TOLERANCE)
            return om_check_fail_item(why, "terrain", (int)k, ".points", "the piece's sides cross "
                                      "(its corners go round %.0f times); give the corners in order "
                                      "round the piece", fabs(winding) / FULL_TURN);
    }
    return OM_OK;
}

static om_status check_characters(const om_wm_table *t, om_wm_check_failure *why)
{
    unsigned generals[2] = {0, 0};
    for (unsigned c = 0; c < t->characters; c++) {
        const om_wm_table_character *ch = &t->character[c];
        if (ch->side > 1)
            return om_check_fail_item(why, "characters", (int)c, ".side", "must be 0 or 1 (got %u)", ch->side);
        if ((unsigned)ch->kind >= OM_WM_CHARACTER_KIND_COUNT)
            return om_check_fail_item(why, "characters", (int)c, ".kind", "unknown character kind %d",
                        (int)ch->kind);
        if (ch->command < MIN_COMMAND || ch->command > MAX_COMMAND)
            return om_check_fail_item(why, "characters", (int)c, ".command", "must be %d to %d (got %u)",
                        MIN_COMMAND, MAX_COMMAND, ch->command);
        if (!(ch->radius_cm >= 0) || ch->radius_cm > 5)
            return om_check_fail_item(why, "characters", (int)c, ".radius", "must be 0 to 5cm (got %g)",
                        ch->radius_cm);
        if (ch->at.x < 0 || ch->at.y < 0 || ch->at.x > t->width_cm || ch->at.y > t->depth_cm)
            return om_check_fail_item(why, "characters", (int)c, ".at", "%s is off the table (%.1f,%.1f)", ch->name,
                        ch->at.x, ch->at.y);
        if (ch->joined >= (int)t->units || (ch->joined >= 0 && t->unit[ch->joined].side != ch->side))
            return om_check_fail_item(why, "characters", (int)c, ".joined", "must name a unit of its own side");
        if (ch->follow >= (int)t->units || (ch->follow >= 0 && t->unit[ch->follow].side != ch->side))
            return om_check_fail_item(why, "characters", (int)c, ".follow", "must name a unit of its own side");
        if (ch->attack_bonus > OM_WM_MAX_BONUS)
            return om_check_fail_item(why, "characters", (int)c, ".attack_bonus", "must be 0 to %d "
                        "(got %u)", OM_WM_MAX_BONUS, ch->attack_bonus);
        if (ch->slain > 1)
            return om_check_fail_item(why, "characters", (int)c, ".slain", "must be 0 or 1 "
                        "(got %u)", ch->slain);
        /* A General's device of power, one a character (regalia.h). */
        if (ch->regalia != 0 &&
            (ch->kind != OM_WM_GENERAL || (ch->regalia & (ch->regalia - 1u)) != 0 ||
             (ch->regalia & ~OM_WM_REGALIA_ALL) != 0))
            return om_check_fail_item(why, "characters", (int)c, ".regalia", "must be one "
                        "General's device of power, carried by a General (got %u)", ch->regalia);
        if (ch->kind == OM_WM_GENERAL && ++generals[ch->side] > 1)
            return om_check_fail_item(why, "characters", (int)c, ".kind", "side %u already has a General",
                        ch->side);
    }
    return OM_OK;
}

/* Whether the units of brigade b touch as one group (Command > Brigades): a walk
 * over the touching relation from the first unit reaches all. */
static bool brigade_connected(const om_wm_table *t, const om_wm_table_brigade *b,
                              unsigned *stray)
{
    bool reached[OM_WM_BRIGADE_MAX_UNITS] = {true};
    bool grew = true;
    while (grew) {
        grew = false;
        for (unsigned i = 0; i < b->count; i++)
            for (unsigned j = 0; j < b->count; j++)
                if (reached[i] && !reached[j] && om_wm_table_touching(t, b->unit[i], b->unit[j]))
                    reached[j] = grew = true;
    }
    for (unsigned i = 0; i < b->count; i++)
        if (!reached[i]) {
            *stray = b->unit[i];
            return false;
        }
    return true;
}

static om_status check_brigades(const om_wm_table *t, om_wm_check_failure *why)
{
    int owner[OM_WM_TABLE_MAX_UNITS];
    for (unsigned i = 0; i < OM_WM_TABLE_MAX_UNITS; i++)
        owner[i] = -1;
    for (unsigned k = 0; k < t->brigades; k++) {
        const om_wm_table_brigade *b = &t->brigade[k];
        unsigned stray = 0;
        if (b->count < 2 || b->count > OM_WM_BRIGADE_MAX_UNITS)
            return om_check_fail_item(why, "brigades", (int)k, ".units", "a brigade is 2 to %d units (got %u)",
                        OM_WM_BRIGADE_MAX_UNITS, b->count);
        for (unsigned i = 0; i < b->count; i++) {
            unsigned u = b->unit[i];
            if (u >= t->units || !t->unit[u].present)
                return om_check_fail_item(why, "brigades", (int)k, ".units", "unit %u is not on the table", u);
            if (t->unit[u].side != t->unit[b->unit[0]].side)
                return om_check_fail_item(why, "brigades", (int)k, ".units", "units[%u] (%s) is of the other side",
                            u, t->unit[u].name);
            if (owner[u] == (int)k)
                return om_check_fail_item(why, "brigades", (int)k, ".units", "units[%u] is listed twice", u);
            if (owner[u] >= 0)
                return om_check_fail_item(why, "brigades", (int)k, ".units", "units[%u] (%s) is already in "
                            "brigades[%d]", u, t->unit[u].name, owner[u]);
            owner[u] = (int)k;
        }
        if (!brigade_connected(t, b, &stray))
            return om_check_fail_item(why, "brigades", (int)k, ".units", "units[%u] (%s) does not touch the rest "
                        "of the brigade", stray, t->unit[stray].name);
    }
    return OM_OK;
}

om_status om_wm_table_check(const om_wm_table *t, om_wm_ruleset_id rules,
                            om_wm_check_failure *why)
{
    om_status st;
    if (!(t->width_cm > 0) || !(t->depth_cm > 0) || t->width_cm > MAX_TABLE_CM ||
        t->depth_cm > MAX_TABLE_CM)
        return om_check_fail_item(why, "table", -1, "", "the table must be 1 to %.0fcm each way (got %gx%g)",
                    MAX_TABLE_CM, t->width_cm, t->depth_cm);
    if (t->units > OM_WM_TABLE_MAX_UNITS || t->characters > OM_WM_TABLE_MAX_CHARACTERS ||
        t->terrain_pieces > OM_WM_TABLE_MAX_TERRAIN || t->brigades > OM_WM_TABLE_MAX_BRIGADES)
        return om_check_fail_item(why, "units", -1, "", "too many units, characters, terrain pieces or "
                    "brigades (at most %d, %d, %d, %d)", OM_WM_TABLE_MAX_UNITS,
                    OM_WM_TABLE_MAX_CHARACTERS, OM_WM_TABLE_MAX_TERRAIN,
                    OM_WM_TABLE_MAX_BRIGADES);
    if ((st = check_terrain(t, why)) || (st = check_units(t, rules, why)) ||
        (st = check_characters(t, why)) || (st = check_brigades(t, why)))
        return st;
    return OM_OK;
}

/* ---- Turning in place ---- */

bool om_wm_table_turn(om_wm_table *t, om_wm_ruleset_id rules, unsigned u, om_wm_vec dir)
{
    om_wm_table_unit *un = &t->unit[u];
    if (bits_of(dir.x) == bits_of(un->dir.x) && bits_of(dir.y) == bits_of(un->dir.y))
        return true;
    /* The turned outline must stand clear, as a move's turn to its direction
     * of travel must (om_wm_table_move, `turn`). */
    if (!pose_clear(t, rules, u, un->centre, dir, -1))
        return false;
    un->dir = dir;
    om_wm_table_update(t, u);
    return true;
}
