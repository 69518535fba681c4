/*
 * tally.c: histograms of every field, kept per block and added up (tally.h).
 *
 * A block is tallied by counting its distinct rows in an open-addressing hash
 * table (linear probing; a row is hashed as words of 8 bytes, the last one
 * masked to the row's size), then adding each distinct row's count to the
 * histogram of each field. The table holds at most TABLE_FILL rows, half its
 * slots, so probes stay short; rows beyond that are added to the histograms
 * one by one. Only the slots used are cleared between blocks. A block whose
 * trials come with classes (layout.h) is counted by class instead, each
 * class's row added once with its count, and only its trials of no class
 * are hashed.
 */
#include "tally.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Slots of the distinct-row table (a power of two), and the most rows it takes
 * before the rest of a block is tallied row by row: half full keeps the
 * expected probe length of linear probing under 1.5 (Knuth, TAOCP 6.4). */
#define TABLE_SLOTS 4096u
#define TABLE_FILL (TABLE_SLOTS / 2)

/* Words of a row key. */
#define KEY_WORDS (OM_LAYOUT_ROW_MAX / 8)

struct om_tally_work {
    om_layout layout;          /* the rows' fields */
    size_t words;              /* 8-byte words of a row key (0: rows too wide to key) */
    uint64_t last_mask;        /* mask of the last word to the row's bytes */
    uint32_t *count;           /* [TABLE_SLOTS] rows seen per slot (0: free) */
    uint64_t *key;             /* [TABLE_SLOTS * words] the row of each used slot */
    uint32_t *used;            /* [TABLE_FILL] the slots in use, to clear them */
    size_t n_used;             /* entries of used */
    uint32_t *class_count;     /* [CLASS_LANES][OM_LAYOUT_CLASSES_MAX] trials of each class
                                  (all 0 between blocks), or NULL until a block has classes */
    uint32_t *no_class;        /* [no_class_cap] a block's trials of no class */
    size_t no_class_cap;       /* entries of no_class */
};

/* Class counts are kept in this many interleaved copies, trial i counted in
 * copy i % CLASS_LANES: consecutive trials of one class (common: a few
 * classes hold most trials) then update different words, instead of each
 * increment waiting for the store of the one before. */
#define CLASS_LANES 4u

void om_tally_clear(om_tally *t, size_t fields)
{
    t->trials = 0;
    t->field_count = fields;
    t->wide_count = 0;
    t->unit_count = t->unit_field_count = t->unit_total = 0;
    t->unit_over = 0;
    memset(t->hist, 0, fields * sizeof t->hist[0]);
}

void om_tally_clear_layout(om_tally *t, const om_layout *layout)
{
    om_tally_clear(t, layout->field_count);
    for (size_t f = 0; f < layout->field_count && t->wide_count < OM_LAYOUT_WIDE_MAX; f++)
        if (layout->fields[f].type == OM_FIELD_COUNT16) {
            t->wide_field[t->wide_count] = f;
            memset(t->wide[t->wide_count++], 0, sizeof t->wide[0]);
        }
    assert(om_layout_unit_bins(layout) <= OM_LAYOUT_UNIT_BINS_MAX);
    t->unit_count = layout->unit_count;
    t->unit_field_count = layout->unit_field_count;
    for (size_t f = 0; f < layout->unit_field_count; f++) {
        t->unit_bins[f] = (size_t)layout->unit_fields[f].max + 1;
        t->unit_base[f] = t->unit_total;
        t->unit_total += t->unit_bins[f] * layout->unit_count;
    }
    memset(t->unit_hist, 0, t->unit_total * sizeof t->unit_hist[0]);
}

const uint64_t *om_tally_wide(const om_tally *t, size_t f)
{
    for (size_t k = 0; k < t->wide_count; k++)
        if (t->wide_field[k] == f)
            return t->wide[k];
    return NULL;
}

void om_tally_add(om_tally *into, const om_tally *from)
{
    into->trials += from->trials;
    for (size_t f = 0; f < from->field_count; f++)
        for (size_t v = 0; v < OM_TALLY_BINS; v++)
            into->hist[f][v] += from->hist[f][v];
    /* Both tallies were cleared for the same layout: the same wide fields. */
    for (size_t k = 0; k < from->wide_count && k < into->wide_count; k++)
        for (size_t v = 0; v < OM_TALLY_WIDE_BINS; v++)
            into->wide[k][v] += from->wide[k][v];
    for (size_t i = 0; i < from->unit_total && i < into->unit_total; i++)
        into->unit_hist[i] += from->unit_hist[i];
    into->unit_over += from->unit_over;
}

void om_tally_unit_range(const om_tally *t, size_t f, size_t u, uint8_t *min, uint8_t *max)
{
    const uint64_t *h = om_tally_unit_c(t, f, u);
    int lo = -1, hi = -1;
    for (int v = 0; v < (int)t->unit_bins[f]; v++)
        if (h[v] != 0) {
            if (lo < 0)
                lo = v;
            hi = v;
        }
    *min = (uint8_t)(lo < 0 ? 0 : lo);
    *max = (uint8_t)(hi < 0 ? 0 : hi);
}

void om_tally_range(const om_tally *t, size_t f, uint8_t *min, uint8_t *max)
{
    int lo = -1, hi = -1;
    for (int v = 0; v < OM_TALLY_BINS; v++)
        if (t->hist[f][v] != 0) {
            if (lo < 0)
                lo = v;
            hi = v;
        }
    *min = (uint8_t)(lo < 0 ? 0 : lo);
    *max = (uint8_t)(hi < 0 ? 0 : hi);
}

/* 95% two-sided normal quantile, Phi^-1(0.975), to 16 digits. */
#define Z95 1.959963984540054

double om_tally_halfwidth95(uint64_t k, uint64_t n)
{
    double p = (double)k / (double)n, z2 = Z95 * Z95, nn = (double)n;
    return Z95 * sqrt(p * (1.0 - p) / nn + z2 / (4.0 * nn * nn)) / (1.0 + z2 / nn);
}

om_status om_tally_work_alloc(const om_layout *layout, om_tally_work **out)
{
    om_tally_work *w = calloc(1, sizeof *w);
    *out = NULL;
    if (w == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a tally");
    w->layout = *layout;
    if (layout->row_size <= OM_LAYOUT_ROW_MAX) {
        size_t tail = layout->row_size % 8;
        w->words = (layout->row_size + 7) / 8;
        w->last_mask = tail == 0 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * tail)) - 1;
        w->count = calloc(TABLE_SLOTS, sizeof *w->count);
        w->key = malloc(TABLE_SLOTS * w->words * sizeof *w->key);
        w->used = malloc(TABLE_FILL * sizeof *w->used);
        if (w->count == NULL || w->key == NULL || w->used == NULL) {
            om_tally_work_free(w);
            return OM_ERROR(OM_ENOMEM, "out of memory for a tally");
        }
    }
    *out = w;
    return OM_OK;
}

void om_tally_work_free(om_tally_work *w)
{
    if (w == NULL)
        return;
    free(w->class_count);
    free(w->no_class);
    free(w->count);
    free(w->key);
    free(w->used);
    free(w);
}

/* Add one row to the histograms, field by field; a two-byte count field to
 * its wide histogram. */
static void add_row(const om_layout *l, const uint8_t *row, uint64_t times, om_tally *out)
{
    for (size_t f = 0; f < l->field_count; f++)
        if (l->fields[f].type != OM_FIELD_COUNT16)
            out->hist[f][row[l->fields[f].offset]] += times;
    for (size_t k = 0; k < out->wide_count; k++)
        out->wide[k][om_field_value(&l->fields[out->wide_field[k]], row)] += times;
    /* Each unit's value of each unit field; a value above the field's max
     * would land in another histogram, so it is counted apart instead. */
    for (size_t f = 0; f < out->unit_field_count; f++) {
        const uint8_t *v = row + l->unit_fields[f].offset;
        uint64_t *h = out->unit_hist + out->unit_base[f];
        const size_t bins = out->unit_bins[f];
        for (size_t u = 0; u < out->unit_count; u++, v += l->unit_stride, h += bins) {
            if (*v < bins)
                h[*v] += times;
            else
                out->unit_over += times;
        }
    }
}

/* Always inline the counting loop, so each key width gets its own copy with
 * the word loops unrolled (a GNU C attribute; other compilers may inline it). */
#if defined(__GNUC__)
#define COUNT_ROWS_ATTRS inline __attribute__((always_inline))
#else
#define COUNT_ROWS_ATTRS inline
#endif

/* The multiplier of the key hash (odd: the golden ratio's, from SplitMix64). */
static const uint64_t key_mult[1] = {0x9e3779b97f4a7c15u};

/*
 * Count n rows in the table: rows[0..n), or the rows at[0..n) of `rows`;
 * keys of `words` words (a constant in each inlined copy). Returns the rows
 * counted, fewer than n when the table filled up. A row is read as words
 * (the last masked to the row's bytes; it may read up to 7 bytes past the
 * row, hence OM_TALLY_ROW_SLACK).
 */
static COUNT_ROWS_ATTRS size_t count_rows(om_tally_work *w, const uint8_t *rows,
                                          const uint32_t *at, size_t n, const size_t words)
{
    const size_t rs = w->layout.row_size;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *row = rows + (at != NULL ? at[i] : i) * rs;
        uint64_t k[KEY_WORDS], h = 0;
        for (size_t j = 0; j < words; j++) {
            memcpy(&k[j], row + 8 * j, 8);
            if (j == words - 1)
                k[j] &= w->last_mask;
            /* Words rotated apart and one multiplication: enough mixing for a
             * table of a few thousand slots, at a quarter of the multiplies.
             * The rotation is taken modulo 64: from the fifth word on, 13 j
             * passes 64, and a shift by 64 or more is undefined in C. */
            const unsigned rot = (unsigned)(13 * j) & 63u;
            h ^= rot == 0 ? k[j] : (k[j] << rot) | (k[j] >> (64 - rot));
        }
        h *= key_mult[0];
        for (uint32_t s = (uint32_t)(h >> 40) & (TABLE_SLOTS - 1);; s = (s + 1) & (TABLE_SLOTS - 1)) {
            uint64_t *slot_key = &w->key[(size_t)s * words];
            size_t same = 0;
            if (w->count[s] == 0) {
                if (w->n_used == TABLE_FILL)
                    return i;
                for (size_t j = 0; j < words; j++)
                    slot_key[j] = k[j];
                w->count[s] = 1;
                w->used[w->n_used++] = s;
                break;
            }
            /* Word by word with an early exit, which the compiler keeps scalar:
             * vectorised, the compare reloads the key just stored word by word
             * as one 16-byte load, which the processor cannot forward from the
             * stores and stalls on (measured: 40% of the tally's time). */
            while (same < words && slot_key[same] == k[same])
                same++;
            if (same == words) {
                w->count[s]++;
                break;
            }
        }
    }
    return n;
}

/* Tally n rows into `out` (cleared; its trials set by the caller): rows[0..n),
 * or the rows at[0..n) of `rows`. */
static void tally_rows(om_tally_work *w, const uint8_t *rows, const uint32_t *at, size_t n,
                       om_tally *out)
{
    const om_layout *l = &w->layout;
    const size_t rs = l->row_size;
    size_t i = 0;

    if (w->words > 0) {
        switch (w->words) {
        case 1: i = count_rows(w, rows, at, n, 1); break;
        case 2: i = count_rows(w, rows, at, n, 2); break;
        case 3: i = count_rows(w, rows, at, n, 3); break;
        case 4: i = count_rows(w, rows, at, n, 4); break;
        case 5: i = count_rows(w, rows, at, n, 5); break;
        case 6: i = count_rows(w, rows, at, n, 6); break;
        case 7: i = count_rows(w, rows, at, n, 7); break;
        default: i = count_rows(w, rows, at, n, 8); break;
        }
        /* Each distinct row once, with its count; then the table is emptied. */
        for (size_t u = 0; u < w->n_used; u++) {
            uint32_t s = w->used[u];
            add_row(l, (const uint8_t *)&w->key[(size_t)s * w->words], w->count[s], out);
            w->count[s] = 0;
        }
        w->n_used = 0;
    }
    for (; i < n; i++)
        add_row(l, rows + (at != NULL ? at[i] : i) * rs, 1, out);
}

void om_tally_block(om_tally_work *w, const uint8_t *rows, size_t n, om_tally *out)
{
    om_tally_clear_layout(out, &w->layout);
    out->trials = n;
    tally_rows(w, rows, NULL, n, out);
}

/* The workspace's class counts, and room for n trials of no class (made at a
 * thread's first block with classes, not again while blocks keep their size). */
static om_status class_space(om_tally_work *w, size_t n)
{
    if (w->class_count == NULL) {
        w->class_count = calloc((size_t)CLASS_LANES * OM_LAYOUT_CLASSES_MAX,
                                sizeof *w->class_count);
        if (w->class_count == NULL)
            return OM_ERROR(OM_ENOMEM, "out of memory for a tally");
    }
    if (w->no_class_cap < n) {
        uint32_t *at = realloc(w->no_class, n * sizeof *at);
        if (at == NULL)
            return OM_ERROR(OM_ENOMEM, "out of memory for a tally");
        w->no_class = at;
        w->no_class_cap = n;
    }
    return OM_OK;
}

om_status om_tally_block_classes(om_tally_work *w, const uint8_t *rows, const uint16_t *cls,
                                 const uint8_t *class_rows, size_t n_classes, size_t n,
                                 om_tally *out)
{
    const om_layout *l = &w->layout;
    uint32_t *count;
    size_t m = 0;
    om_status st = class_space(w, n);
    if (st != OM_OK)
        return st;
    count = w->class_count;
    assert(n_classes <= OM_LAYOUT_CLASSES_MAX);
    om_tally_clear_layout(out, l);
    out->trials = n;
    /* One pass: each trial counted in its class's lane, or listed. */
    for (size_t i = 0; i < n; i++) {
        const unsigned c = cls[i];
        if (c != OM_LAYOUT_NO_CLASS) {
            assert(c < n_classes);
            count[(i % CLASS_LANES) * OM_LAYOUT_CLASSES_MAX + c]++;
        } else {
            w->no_class[m++] = (uint32_t)i;
        }
    }
    /* Each class's row once with its count; the counts are emptied. */
    for (size_t c = 0; c < n_classes; c++) {
        uint64_t k = 0;
        for (unsigned lane = 0; lane < CLASS_LANES; lane++) {
            k += count[lane * OM_LAYOUT_CLASSES_MAX + c];
            count[lane * OM_LAYOUT_CLASSES_MAX + c] = 0;
        }
        if (k > 0)
            add_row(l, class_rows + c * l->row_size, k, out);
    }
    if (m > 0)
        tally_rows(w, rows, w->no_class, m, out);
    return OM_OK;
}
