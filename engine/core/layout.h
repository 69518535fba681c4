/*
 * layout.h: the outcome of one trial, in any game, as a row of bytes described
 * by a table of fields (name, type, description, offset in the row), plus how
 * each side's victory points follow from one field. The game that fills the
 * rows (scenarios/game.h), the driver and the result files (sim/) and the
 * analysers (analysis/) share these types and nothing else of each other.
 */
#ifndef OM_LAYOUT_H
#define OM_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

/* How a per-trial field is stored and read (one byte per trial, except
 * OM_FIELD_COUNT16). */
typedef enum om_field_type {
    OM_FIELD_COUNT = 0, /* a count or distance, 0..255 */
    OM_FIELD_FLAG,      /* 0 or 1 */
    OM_FIELD_WINNER,    /* an OM_WINNER_* code, stored as an HDF5 enumerated type */
    OM_FIELD_COUNT16    /* a count of 0..65535 in two bytes, least significant first
                           (the victory points a side of a whole turn loses) */
} om_field_type;

/* Number of field types. */
#define OM_FIELD_TYPES 4

/* Values a two-byte count field can take. */
#define OM_FIELD_COUNT16_VALUES 65536u

/* Bytes a field of type `type` takes in a row. */
static inline size_t om_field_width(om_field_type type)
{
    return type == OM_FIELD_COUNT16 ? 2u : 1u;
}

/* The codes of a winner field, the same in every game. */
enum {
    OM_WINNER_A = 0,    /* side A won */
    OM_WINNER_B = 1,    /* side B won */
    OM_WINNER_DRAW = 2, /* a draw */
    OM_WINNER_NONE = 3, /* no result: no contact, or unresolved at a limit */
    OM_WINNER_CODES = 4
};

/* Names of the winner codes as written in result files: "a", "b", "draw", "none". */
extern const char *const om_winner_names[OM_WINNER_CODES];

/* One per-trial field of a layout. */
typedef struct om_field {
    const char *name;        /* dataset name, e.g. "stands_lost_a" */
    const char *description; /* one sentence, stored with the dataset */
    const char *title;       /* a winner field: heading of its outcome table ("Outcome
                                of the engagement"); NULL for other types */
    size_t offset;           /* byte offset of the value in a result row (a unit field:
                                of unit 0's value) */
    om_field_type type;      /* how it is stored */
    unsigned max;            /* a unit field: the largest value it takes (1 for a flag,
                                at most 255), which sizes its histograms; 0 and unused
                                for a per-trial field */
} om_field;

/* Largest number of fields a layout may have: a whole Warmaster turn has
 * about ten per unit for up to 16 units, besides its sides' fields. */
#define OM_LAYOUT_FIELDS_MAX 256

/* Largest number of two-byte count fields (OM_FIELD_COUNT16) a layout may
 * have: their histograms are 65536 bins each (the two sides' victory points). */
#define OM_LAYOUT_WIDE_MAX 2

/* The value of field `f` in `row` (two bytes for OM_FIELD_COUNT16). */
static inline unsigned om_field_value(const om_field *f, const uint8_t *row)
{
    const uint8_t *p = row + f->offset;
    return f->type == OM_FIELD_COUNT16 ? (unsigned)p[0] | (unsigned)p[1] << 8 : p[0];
}

/*
 * What a side stands to lose in victory points: a function of one count field
 * of the row (for Warmaster, the stands the unit lost). A side whose points or
 * field are unknown has loss_field -1.
 */
typedef struct om_side_score {
    const char *name;         /* the side's name (its unit, or its army) */
    uint32_t points;          /* its points value (0: unknown) */
    int loss_field;           /* index in layout.fields of the field deciding the victory
                                 points it loses, or -1 */
    const char *loss_unit;    /* what that field counts, plural ("stands") */
    unsigned loss_start;      /* how many of them the side had at the start */
    uint32_t vp_lost[256];    /* victory points lost for each value of the field, up to
                                 loss_start (the values after it are never reached) */
} om_side_score;

/*
 * A unit with per-unit results (a whole turn's units): the second dimension
 * of the result file (trial x unit), beside its per-trial fields. The strings
 * belong to whoever made the layout (a prepared scenario, a reader).
 */
typedef struct om_layout_unit {
    const char *id;   /* the unit's id in its scenario ("knights"): a column name */
    const char *name; /* its display name ("Knights") */
    const char *army; /* the army it belongs to, or "" */
    uint8_t side;     /* 0: side A, 1: side B */
    uint32_t points;  /* its points value (0: unknown) */
} om_layout_unit;

/* Largest number of units with per-unit results: two armies of 64 (a
 * Warmaster table's 128). */
#define OM_LAYOUT_UNITS_MAX 128

/* Largest number of per-unit fields of a layout. */
#define OM_LAYOUT_UNIT_FIELDS_MAX 32

/* Largest number of histogram bins all unit fields of a layout take together,
 * unit_count times (max + 1) summed over the unit fields: every unit of the
 * largest table with every unit field of up to 15 (the tally keeps them in
 * one array of this size, sim/tally.h). */
#define OM_LAYOUT_UNIT_BINS_MAX (OM_LAYOUT_UNITS_MAX * OM_LAYOUT_UNIT_FIELDS_MAX * 16)

/* The per-trial results of a prepared scenario. */
typedef struct om_layout {
    size_t row_size;               /* bytes of one trial's row, unit block included */
    size_t field_count;            /* entries of fields */
    om_field fields[OM_LAYOUT_FIELDS_MAX]; /* in the order they are written and reported */
    om_side_score side[2];         /* sides A and B */
    const char *points_rule;       /* how victory points are lost, one phrase for reports
                                      ("destroyed: full value; ..."), or NULL */
    /* Per-unit results (none: unit_count 0). The value of unit field f for
     * unit u lies at row + unit_fields[f].offset + u * unit_stride, one byte
     * (type OM_FIELD_COUNT or OM_FIELD_FLAG, at most unit_fields[f].max). */
    size_t unit_count;             /* units with per-unit results, at most
                                      OM_LAYOUT_UNITS_MAX */
    const om_layout_unit *units;   /* [unit_count], in the order of the file's columns */
    size_t unit_field_count;       /* entries of unit_fields */
    om_field unit_fields[OM_LAYOUT_UNIT_FIELDS_MAX]; /* name ("charged"), description
                                      without the unit in it, type, offset, max */
    size_t unit_stride;            /* bytes between a unit's value and the next unit's */
    size_t block_trials;           /* trials a block of its runs holds (0: the driver's
                                      default, OM_RUN_BLOCK_SIZE): a scenario whose
                                      trials are slow (a whole battle) takes fewer, so
                                      that the threads share a small run and a signal
                                      stops it soon; part of what a seed draws, so the
                                      file records it */
    /* What a summary weighs beyond each field's own law, declared by the game
     * so that analysis names no field (NULL: not declared). */
    const char *score_field[2];    /* the fields of the score sides A and B made (the
                                      victory points each scored): their difference A - B,
                                      trial by trial, is the margin */
    const char *unit_lost_field;   /* a unit flag field set when the unit was lost
                                      (destroyed), weighed against the winner */
    const char *unit_points_field[2]; /* the unit fields of the points each unit gave
                                      up ([0]) and scored ([1]) (a battle's victory
                                      points): each the low byte of its value, whose
                                      high byte is the unit field of the same name
                                      followed by OM_LAYOUT_HIGH_SUFFIX */
} om_layout;

/* The suffix of the unit field holding the high byte of a two-byte unit value
 * (om_layout.unit_points_field): value = low + 256 * high. */
#define OM_LAYOUT_HIGH_SUFFIX "_hi"

/* The byte offset in a row of unit field f's value for unit u. */
static inline size_t om_layout_unit_offset(const om_layout *l, size_t f, size_t u)
{
    return l->unit_fields[f].offset + u * l->unit_stride;
}

/* Classes of trials: a game may know, when it prepares a scenario, a few rows
 * that most trials end in (scenarios/game.h, om_trials.class_rows), and tell
 * the driver which of them each trial's is, so that a block is tallied by
 * counting classes rather than reading rows (sim/tally.h). A trial of no
 * class is marked OM_LAYOUT_NO_CLASS; a scenario has at most
 * OM_LAYOUT_CLASSES_MAX classes (a block's tally visits each). */
#define OM_LAYOUT_NO_CLASS 0xFFFFu
#define OM_LAYOUT_CLASSES_MAX 4096u

/* The index of field `name` in `layout`, or -1. */
int om_layout_find(const om_layout *layout, const char *name);

/* The number of two-byte count fields of `layout`. */
size_t om_layout_wide_count(const om_layout *layout);

/* The index of unit field `name` in `layout`, or -1. */
int om_layout_unit_field_find(const om_layout *layout, const char *name);

/* The index of the unit whose id is `id` in `layout`, or -1. */
int om_layout_unit_find(const om_layout *layout, const char *id);

/* The histogram bins the unit fields of `layout` take together (unit_count
 * times max + 1 of each unit field). */
size_t om_layout_unit_bins(const om_layout *layout);

/*
 * om_layout_check: whether `layout` is well formed: 1 to OM_LAYOUT_FIELDS_MAX
 * fields, each inside the row; at most OM_LAYOUT_UNITS_MAX units with an id
 * and a name, ids distinct and sides 0 or 1; at most
 * OM_LAYOUT_UNIT_FIELDS_MAX unit fields, named, distinct, none named "table"
 * (the file's table of units), of type count or flag (a flag of max 1, a
 * count of max 1 to 255), every unit's value inside the row; unit bins at
 * most OM_LAYOUT_UNIT_BINS_MAX. Returns NULL if it is, else a sentence
 * saying what is wrong (a static string, or written into buf of `size`
 * bytes). Thread-safe.
 */
const char *om_layout_check(const om_layout *layout, char *buf, size_t size);

#endif /* OM_LAYOUT_H */
