/*
 * tally.h: the counts a run keeps as it goes: for every field of the layout, a
 * histogram of its values over the trials run. Everything `summary` and
 * `chart` print is derived from them (the outcome tables from the winner
 * fields, distributions and "at least k" from the others, victory points
 * through the sides' tables), so they never re-read the rows.
 *
 * Each worker tallies the block it has just simulated (om_tally_block, outside
 * any lock), and the driver adds the blocks' tallies to the run's in block
 * order (om_tally_add). The counts are integers, so the run's tally is the same
 * whatever the thread count.
 *
 * Tallying a block counts its distinct rows first: the rows of a scenario take
 * few distinct values (a first round of Knights against Spearmen, 88 in a
 * block of 16384), so one hash-table probe per trial and one histogram update
 * per distinct row and field cost a tenth of the simulation, where updating 20
 * histograms per trial would cost as much as the simulation itself. A block
 * whose rows are too varied falls back to updating the histograms row by row.
 */
#ifndef OM_TALLY_H
#define OM_TALLY_H

#include <stddef.h>
#include <stdint.h>

#include "layout.h"
#include "status.h"

/* Histogram bins of a field: every value a byte can hold. */
#define OM_TALLY_BINS 256

/* Histogram bins of a two-byte count field (OM_FIELD_COUNT16). */
#define OM_TALLY_WIDE_BINS OM_FIELD_COUNT16_VALUES

/* The histograms of every field of a layout over some trials. A two-byte
 * count field has its histogram in `wide` (its row of `hist` stays zero). */
typedef struct om_tally {
    uint64_t trials;      /* trials counted */
    size_t field_count;   /* fields of the layout */
    uint64_t hist[OM_LAYOUT_FIELDS_MAX][OM_TALLY_BINS]; /* hist[f][v]: trials where field f
                                                           was v */
    size_t wide_count;    /* two-byte count fields of the layout */
    size_t wide_field[OM_LAYOUT_WIDE_MAX]; /* the field of each wide histogram */
    uint64_t wide[OM_LAYOUT_WIDE_MAX][OM_TALLY_WIDE_BINS]; /* wide[k][v]: trials where field
                                                              wide_field[k] was v */
    /* Per-unit results (layout.h): for unit field f and unit u, a histogram
     * of unit_bins[f] bins (its max + 1) at unit_hist + unit_base[f] + u *
     * unit_bins[f] (om_tally_unit). One flat array, as small as the unit
     * fields' declared largest values allow. */
    size_t unit_count;       /* units of the layout */
    size_t unit_field_count; /* unit fields of the layout */
    size_t unit_bins[OM_LAYOUT_UNIT_FIELDS_MAX]; /* bins of each unit field's histograms */
    size_t unit_base[OM_LAYOUT_UNIT_FIELDS_MAX]; /* where its unit 0's histogram starts */
    size_t unit_total;       /* bins in use */
    uint64_t unit_over;      /* unit values above their field's max (a game's error: not
                                counted in a histogram; the writer refuses the block) */
    uint64_t unit_hist[OM_LAYOUT_UNIT_BINS_MAX];
} om_tally;

/* Empty `t` for a layout of `fields` one-byte fields. */
void om_tally_clear(om_tally *t, size_t fields);

/* Empty `t` for `layout`, its two-byte count fields included (at most
 * OM_LAYOUT_WIDE_MAX of them; more are not counted) and its unit fields (a
 * layout that om_layout_check accepts). */
void om_tally_clear_layout(om_tally *t, const om_layout *layout);

/* The histogram of two-byte count field f (OM_TALLY_WIDE_BINS bins), or NULL
 * when f is not one. */
const uint64_t *om_tally_wide(const om_tally *t, size_t f);

/* The histogram of unit field f for unit u (t->unit_bins[f] bins). */
static inline uint64_t *om_tally_unit(om_tally *t, size_t f, size_t u)
{
    return t->unit_hist + t->unit_base[f] + u * t->unit_bins[f];
}
static inline const uint64_t *om_tally_unit_c(const om_tally *t, size_t f, size_t u)
{
    return t->unit_hist + t->unit_base[f] + u * t->unit_bins[f];
}

/* The smallest and largest value unit field f took for unit u in `t` (both
 * 0 if no trials). */
void om_tally_unit_range(const om_tally *t, size_t f, size_t u, uint8_t *min, uint8_t *max);

/* Add the counts of `from` to `into` (same layout). */
void om_tally_add(om_tally *into, const om_tally *from);

/* The smallest and largest value field f took in `t` (both 0 if no trials). */
void om_tally_range(const om_tally *t, size_t f, uint8_t *min, uint8_t *max);

/*
 * om_tally_halfwidth95: the half-width of the 95% Wilson score interval of a
 * probability estimated as k successes in n trials (n > 0): what a run with a
 * target precision, and an adaptive matrix cell, compare with their target.
 */
double om_tally_halfwidth95(uint64_t k, uint64_t n);

/* The per-worker workspace of om_tally_block. */
typedef struct om_tally_work om_tally_work;

/*
 * om_tally_work_alloc: a workspace for tallying blocks of rows of `layout`
 * (copied). Errors: OM_ENOMEM. Free with om_tally_work_free.
 */
om_status om_tally_work_alloc(const om_layout *layout, om_tally_work **out);
void om_tally_work_free(om_tally_work *w);

/*
 * om_tally_block: `out` becomes the tally of the n rows at `rows` (row i at
 * rows + i * row_size). The buffer must have OM_TALLY_ROW_SLACK readable bytes
 * after the last row. Thread-safe for distinct workspaces.
 */
void om_tally_block(om_tally_work *w, const uint8_t *rows, size_t n, om_tally *out);

/*
 * om_tally_block_classes: `out` becomes the tally of n trials that come with
 * classes (layout.h): trial i is of class cls[i], whose row is at class_rows
 * + cls[i] * row_size (n_classes of them, at most OM_LAYOUT_CLASSES_MAX), or
 * of none (OM_LAYOUT_NO_CLASS): its row is then at rows + i * row_size; the
 * rows of trials of a class are not read. The same tally as om_tally_block
 * of the same rows. Thread-safe for distinct workspaces. Errors: OM_ENOMEM
 * (the workspace's class counts are made at its first such block).
 */
om_status om_tally_block_classes(om_tally_work *w, const uint8_t *rows, const uint16_t *cls,
                                 const uint8_t *class_rows, size_t n_classes, size_t n,
                                 om_tally *out);

/* Readable bytes a rows buffer needs after its last row for om_tally_block
 * (which reads rows as 8-byte words) and om_h5_chunks_encode (16 bytes from
 * each 16-byte part of a row). */
#define OM_TALLY_ROW_SLACK 16

/* Widest row om_tally_block counts as a whole (wider rows are rare: the
 * histograms are then updated row by row). */
#define OM_LAYOUT_ROW_MAX 64

#endif /* OM_TALLY_H */
