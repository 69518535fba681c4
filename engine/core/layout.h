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
    size_t offset;           /* byte offset of the value in a result row */
    om_field_type type;      /* how it is stored */
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

/* The per-trial results of a prepared scenario. */
typedef struct om_layout {
    size_t row_size;               /* bytes of one trial's row */
    size_t field_count;            /* entries of fields */
    om_field fields[OM_LAYOUT_FIELDS_MAX]; /* in the order they are written and reported */
    om_side_score side[2];         /* sides A and B */
    const char *points_rule;       /* how victory points are lost, one phrase for reports
                                      ("destroyed: full value; ..."), or NULL */
} om_layout;

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

#endif /* OM_LAYOUT_H */
