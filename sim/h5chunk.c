/*
 * h5chunk.c: the rows of a block encoded as the chunks of the result file's
 * datasets, on the thread that simulated them, so that the writer only copies
 * finished chunks into the file (h5file.h, om_h5_writer_put_block).
 *
 * The datasets use HDF5's built-in scale-offset filter for integers (HDF5
 * User's Guide, "Scale-Offset Filter"; H5Pset_scaleoffset with H5Z_SO_INT and
 * the library's choice of bits), which every HDF5 reader decodes without a
 * plugin (h5py, h5dump). It subtracts the chunk's smallest value and packs
 * what is left in as few bits as the chunk's largest difference needs: a
 * column of 0..9 takes 4 bits a trial, a column that never changes none. It
 * was chosen by measurement over deflate: on the default scenario deflate
 * (zlib level 4) costs 7 times the simulation itself and libdeflate's fastest
 * level 2.8 times, while packing costs a fifth of it, for files 20% larger.
 *
 * The encoded chunk is what the filter itself would write for a dataset whose
 * fill value is undefined: a 21-byte header (the bits per value as 4
 * little-endian bytes, the byte 8, the smallest value as 8 little-endian
 * bytes, 8 zero bytes), then each value less the smallest in that many bits,
 * most significant bit first, then one zero byte (the filter sizes its output
 * one byte past the packed bits, whatever their number). A chunk whose values
 * need all 8 bits (a span over 128) is stored whole, its values as they are
 * and no byte after them (the header still gives the smallest value, which
 * the filter's reader then does not add). A winner field keeps HDF5's
 * enumerated type, which the filter does not take: its chunk is its values as
 * they are. A two-byte count field (victory points) is stored without it too,
 * each value as two bytes, least significant first (the dataset's
 * little-endian type).
 *
 * Every chunk then ends with its checksum, as the Fletcher-32 filter that
 * follows the scale-offset filter in every dataset's pipeline writes it
 * (HDF5 User's Guide, "Using the Fletcher32 Filter"): the Fletcher-32 sum of
 * the chunk's bytes (as big-endian 16-bit words, an odd last byte the high
 * byte of a word), stored as 4 little-endian bytes. HDF5, h5py and h5dump
 * verify it whenever they read the chunk. om_h5_fletcher32 computes it 16
 * bytes at a time. A full chunk is so, byte for byte, the chunk HDF5 writes
 * through its own filters for the same values (tests/test_h5.c compares
 * them, and checks every width by reading encoded chunks back through HDF5);
 * the part of a short block's chunk past the last trial is HDF5's to ignore.
 *
 * How a block is encoded, in three steps:
 *   1. plan: each field's kind of chunk (a winner copied, a count or flag
 *      packed in `bits` bits from its smallest value, found in the block's
 *      tally) and so which byte columns of the rows are read at all (none for
 *      a field whose chunk holds one value: the header says it all);
 *   2. columns: the rows (trial by trial, row_size bytes each) turned into
 *      columns (byte by byte, chunk_rows values each) for those bytes, 16
 *      rows at a time with SSE2 byte transposes where the processor has them
 *      (a strided read of each byte costs three times as much), a short
 *      block padded to the chunk with each field's padding. Trials that come
 *      with classes (om_h5_chunks_encode_classes) have no row written: each
 *      class's bytes of the columns read are picked into a short row once,
 *      and 16 trials' picked rows, loaded by class, are transposed at once;
 *      trials of no class are picked from their own rows;
 *   3. chunks: each field's chunk from its column: a header, then the column
 *      copied, or packed 16 values at a time (SSE2: pairs of values merged
 *      lane by lane, 2, 4 then 8 of them, in 16-, 32- and 64-bit lanes), the
 *      rest by the scalar packer, which is also the whole packer without
 *      SSE2. Both give the same bytes.
 * A field type of more than one byte would read more than one byte column.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* SSE2 on x86-64 (whose baseline it is; AVX2 for the checksum where the
 * processor has it); elsewhere the scalar code alone. */
#if defined(__SSE2__) && defined(__x86_64__)
#define OM_H5CHUNK_SSE2 1
#include <immintrin.h>
#endif

#include "h5_int.h"
#include "h5file.h"

/* Bytes before the packed values (the filter's parameters). */
#define SO_HEADER 21

/* The byte the scale-offset filter leaves after values packed in fewer than
 * 8 bits. */
#define SO_TAIL 1

/* Bytes of the Fletcher-32 checksum at the end of every chunk. */
#define CHECKSUM_BYTES 4

/* Rows turned into columns at a time, and values packed at a time: the bytes
 * of an SSE2 register. */
#define GROUP 16u

/* Widest row: every field of a layout two bytes wide, and every unit field
 * of every unit. */
#define OM_H5_ROW_MAX (2 * OM_LAYOUT_FIELDS_MAX + OM_LAYOUT_UNIT_FIELDS_MAX * OM_LAYOUT_UNITS_MAX)

/* How a field's chunk is made (plan). */
typedef enum chunk_kind {
    KIND_HEADER = 0, /* one value: the header alone (bits 0) */
    KIND_PACKED,     /* the values less the smallest, in `bits` bits */
    KIND_COPY,       /* the values as they are: a winner (no header) */
    KIND_COPY16      /* two-byte counts as they are, least significant byte first */
} chunk_kind;

struct om_h5_chunks {
    om_layout layout;  /* the rows' fields (a copy) */
    size_t n_cols;     /* chunks of a block: the fields', then per unit field each
                          unit's (om_h5_chunks_data) */
    size_t *col_at;    /* [n_cols] each chunk's byte offset in a row */
    uint8_t *col_type; /* [n_cols] each chunk's om_field_type */
    size_t chunk_rows; /* values per chunk */
    size_t cap;        /* most bytes of a field's chunk */
    uint8_t *buf;      /* the chunks, one after the other in field order (as the file
                          gets them: so their deferred writes are one), and 8 bytes */
    uint8_t *cols;     /* [row_size][chunk_rows] the block's byte columns (those read) */
    size_t *at;        /* [n_cols] where each encoded chunk starts in buf */
    size_t *size;      /* [n_cols] bytes of each encoded chunk */
    bool defer;        /* their writing is deferred (om_h5_chunks_defer) */
    om_h5_deferred deferred; /* their deferred writes */
    om_h5_deferred_write writes[OM_LAYOUT_FIELDS_MAX]; /* room for them */
    /* The plan of the block being encoded, [n_cols] each: */
    uint8_t *kind;     /* each chunk's chunk_kind */
    uint8_t *bits;     /* bits per value (KIND_HEADER: 0) */
    uint8_t *min;      /* the smallest value, stored in the header */
    uint8_t *offset;   /* what the packed values are less: min, or 0 for values
                          stored whole (8 bits) */
    uint8_t *pad;      /* a short block's padding of the column */
    bool read[OM_H5_ROW_MAX];            /* the byte columns the chunks read */
    /* Trials of a class (om_h5_chunks_classes): each class's row cut down to
     * the columns read, for the read set `picked_for` (rebuilt when a block
     * reads other columns): */
    const uint8_t *class_rows; /* class k's row at class_rows + k * row_size (borrowed) */
    size_t n_classes;          /* classes (0: none set) */
    uint8_t *picked;           /* [n_classes][picked_width] the columns read of each class */
    uint8_t *scratch;          /* [GROUP][picked_width] those of 16 trials of no class */
    unsigned picked_shift;     /* a picked row is 1 << picked_shift bytes: n_picked
                                  rounded up to a power of two, at least GROUP */
    size_t n_picked;           /* columns read (0: picked is not built) */
    uint16_t picked_col[OM_H5_ROW_MAX]; /* the column of each picked byte */
    uint8_t *picked_to[OM_H5_ROW_MAX]; /* where its column goes: cols + picked_col * chunk_rows */
    bool picked_for[OM_H5_ROW_MAX];    /* the read set picked was built for */
    bool picked_valid;                 /* picked holds the rows of picked_for */
};

/* Free what om_h5_chunks_alloc allocated of c, and c. */
static void chunks_free(om_h5_chunks *c)
{
    free(c->buf);
    free(c->cols);
    free(c->picked);
    free(c->scratch);
    free(c->col_at);
    free(c->col_type);
    free(c->at);
    free(c->size);
    free(c->kind);
    free(c->bits);
    free(c->min);
    free(c->offset);
    free(c->pad);
    free(c);
}

om_status om_h5_chunks_alloc(const om_layout *layout, size_t chunk_rows, om_h5_chunks **out)
{
    om_h5_chunks *c = calloc(1, sizeof *c);
    size_t n;
    *out = NULL;
    if (c == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a block's chunks");
    if (layout->row_size > OM_H5_ROW_MAX) {
        free(c);
        return OM_ERROR(OM_EINVAL, "rows of %zu bytes are wider than %d", layout->row_size,
                        OM_H5_ROW_MAX);
    }
    c->layout = *layout;
    c->chunk_rows = chunk_rows;
    c->n_cols = n = layout->field_count + layout->unit_field_count * layout->unit_count;
    /* Header, the values whole (two bytes each for a layout with two-byte
     * counts), the filter's last byte and the checksum; a word of slack after
     * the last chunk for the 8-byte stores (a chunk's slack is the next one's
     * start, written after it). */
    c->cap = SO_HEADER + chunk_rows * (om_layout_wide_count(layout) > 0 ? 2 : 1) + SO_TAIL +
             CHECKSUM_BYTES;
    /* The chunks follow one another in buf: room for the fields' at most
     * cap bytes each, the unit columns' (one byte a value) fewer. */
    c->buf = malloc(c->cap * (layout->field_count ? layout->field_count : 1) +
                    (n - layout->field_count) * (SO_HEADER + chunk_rows + SO_TAIL +
                                                 CHECKSUM_BYTES) + 8);
    c->deferred = (om_h5_deferred){.fd = -1, .cap = OM_LAYOUT_FIELDS_MAX, .w = c->writes};
    c->cols = malloc((layout->row_size ? layout->row_size : 1) * (chunk_rows ? chunk_rows : 1));
    n = n ? n : 1;
    c->col_at = malloc(n * sizeof *c->col_at);
    c->col_type = malloc(n);
    c->at = malloc(n * sizeof *c->at);
    c->size = malloc(n * sizeof *c->size);
    c->kind = malloc(n);
    c->bits = malloc(n);
    c->min = malloc(n);
    c->offset = malloc(n);
    c->pad = malloc(n);
    if (c->buf == NULL || c->cols == NULL || c->col_at == NULL || c->col_type == NULL ||
        c->at == NULL || c->size == NULL || c->kind == NULL || c->bits == NULL ||
        c->min == NULL || c->offset == NULL || c->pad == NULL) {
        chunks_free(c);
        return OM_ERROR(OM_ENOMEM, "out of memory for a block's chunks");
    }
    /* The fields' chunks, then each unit field's, unit by unit. */
    for (size_t f = 0; f < layout->field_count; f++) {
        c->col_at[f] = layout->fields[f].offset;
        c->col_type[f] = (uint8_t)layout->fields[f].type;
    }
    for (size_t f = 0, j = layout->field_count; f < layout->unit_field_count; f++)
        for (size_t u = 0; u < layout->unit_count; u++, j++) {
            c->col_at[j] = om_layout_unit_offset(layout, f, u);
            c->col_type[j] = (uint8_t)layout->unit_fields[f].type;
        }
    *out = c;
    return OM_OK;
}

void om_h5_chunks_free(om_h5_chunks *c)
{
    if (c != NULL)
        chunks_free(c);
}

/* The shift of a picked row of n bytes (pick_classes): n rounded up to a
 * power of two, at least GROUP. */
static unsigned picked_shift_for(size_t n)
{
    unsigned shift = 4; /* GROUP */
    while (((size_t)1 << shift) < n)
        shift++;
    return shift;
}

om_status om_h5_chunks_classes(om_h5_chunks *c, const uint8_t *class_rows, size_t n_classes)
{
    /* Room for every column read: the row's bytes, as a picked row. */
    const size_t width = (size_t)1 << picked_shift_for(c->layout.row_size);
    if (n_classes == 0 || n_classes > OM_LAYOUT_CLASSES_MAX)
        return OM_ERROR(OM_EINVAL, "%zu classes of trials: 1 to %u are encoded by class",
                        n_classes, OM_LAYOUT_CLASSES_MAX);
    free(c->picked);
    free(c->scratch);
    c->picked = malloc(n_classes * (width ? width : 1));
    c->scratch = calloc(GROUP, width ? width : 1);
    c->class_rows = class_rows;
    c->n_classes = n_classes;
    c->picked_valid = false;
    if (c->picked == NULL || c->scratch == NULL) {
        free(c->picked);
        free(c->scratch);
        c->picked = c->scratch = NULL;
        c->n_classes = 0;
        return OM_ERROR(OM_ENOMEM, "out of memory for the classes of a block's chunks");
    }
    return OM_OK;
}

size_t om_h5_chunks_size(const om_h5_chunks *c, size_t field)
{
    return c->size[field];
}

const uint8_t *om_h5_chunks_data(const om_h5_chunks *c, size_t field)
{
    return c->buf + c->at[field];
}

void om_h5_chunks_defer(om_h5_chunks *c, bool defer)
{
    c->defer = defer;
}

bool om_h5_chunks_deferred(const om_h5_chunks *c)
{
    return c->defer;
}

om_h5_deferred *om_h5_chunks_writes(om_h5_chunks *c)
{
    return &c->deferred;
}

om_status om_h5_chunks_write_out(om_h5_chunks *const *c, size_t n, const char *path)
{
    om_h5_deferred *lists[OM_H5_WRITE_OUT_LISTS];
    om_status st = OM_OK;
    for (size_t i = 0; i < n && st == OM_OK; i += OM_H5_WRITE_OUT_LISTS) {
        const size_t m = n - i < OM_H5_WRITE_OUT_LISTS ? n - i : OM_H5_WRITE_OUT_LISTS;
        for (size_t j = 0; j < m; j++)
            lists[j] = &c[i + j]->deferred;
        st = om_h5_deferred_write_out(lists, m, path);
    }
    return st;
}

/* Bits needed for `span` different values: the ceiling of log2(span), as the
 * filter computes it (0 for a single value). */
static unsigned bits_for(unsigned span)
{
    unsigned bits = 0;
    while ((1u << bits) < span)
        bits++;
    return bits;
}

/* ------------------------------------------------------------------- plan */

/* Step 1: each field's chunk from the block's tally, and the columns read. */
static void plan(om_h5_chunks *c, const om_tally *t)
{
    const om_layout *l = &c->layout;
    memset(c->read, 0, sizeof c->read);
    for (size_t f = 0; f < c->n_cols; f++) {
        uint8_t min, max;
        if (c->col_type[f] == OM_FIELD_WINNER) {
            c->kind[f] = KIND_COPY;
            c->pad[f] = OM_WINNER_NONE;
            c->read[c->col_at[f]] = true;
            continue;
        }
        if (c->col_type[f] == OM_FIELD_COUNT16) {
            /* Stored unfiltered (the filter takes bytes): both byte columns,
             * a short block padded with zeros. */
            c->kind[f] = KIND_COPY16;
            c->pad[f] = 0;
            c->read[c->col_at[f]] = c->read[c->col_at[f] + 1] = true;
            continue;
        }
        if (f < l->field_count)
            om_tally_range(t, f, &min, &max);
        else
            om_tally_unit_range(t, (f - l->field_count) / l->unit_count,
                                (f - l->field_count) % l->unit_count, &min, &max);
        c->bits[f] = (uint8_t)bits_for((unsigned)(max - min) + 1);
        /* Values that need all 8 bits are stored as they are, without the
         * offset: the filter does so (its header still gives the smallest
         * value), and its reader adds no smallest value back then. A short
         * block is padded with the smallest value, which changes no span
         * (HDF5 reads only the rows inside the dataset). */
        c->min[f] = min;
        c->offset[f] = c->bits[f] >= 8 ? 0 : min;
        c->pad[f] = min;
        c->kind[f] = c->bits[f] == 0 ? KIND_HEADER : KIND_PACKED;
        if (c->kind[f] != KIND_HEADER)
            c->read[c->col_at[f]] = true;
    }
}

/* ---------------------------------------------------------------- columns */

#if defined(OM_H5CHUNK_SSE2)
/* Where a transpose leaves column j of its 16 rows: in register
 * transposed_at[j] (the 4 unpack stages reverse the 4 bits of the index). */
static const uint8_t transposed_at[GROUP] = {0, 8, 4, 12, 2, 10, 6, 14,
                                             1, 9, 5, 13, 3, 11, 7, 15};

/* The 16 x 16 bytes x[0..16) transposed in place: byte j of every x[k] in
 * x[transposed_at[j]], x[k]'s in lane k. Four stages of unpacks, bytes,
 * then 16-, 32- and 64-bit pairs. */
static inline void transpose16(__m128i x[GROUP])
{
    __m128i y[GROUP];
    for (unsigned k = 0; k < GROUP / 2; k++) {
        y[k] = _mm_unpacklo_epi8(x[2 * k], x[2 * k + 1]);
        y[k + GROUP / 2] = _mm_unpackhi_epi8(x[2 * k], x[2 * k + 1]);
    }
    for (unsigned k = 0; k < GROUP / 2; k++) {
        x[k] = _mm_unpacklo_epi16(y[2 * k], y[2 * k + 1]);
        x[k + GROUP / 2] = _mm_unpackhi_epi16(y[2 * k], y[2 * k + 1]);
    }
    for (unsigned k = 0; k < GROUP / 2; k++) {
        y[k] = _mm_unpacklo_epi32(x[2 * k], x[2 * k + 1]);
        y[k + GROUP / 2] = _mm_unpackhi_epi32(x[2 * k], x[2 * k + 1]);
    }
    for (unsigned k = 0; k < GROUP / 2; k++) {
        x[k] = _mm_unpacklo_epi64(y[2 * k], y[2 * k + 1]);
        x[k + GROUP / 2] = _mm_unpackhi_epi64(y[2 * k], y[2 * k + 1]);
    }
}

/* Columns 16g .. 16g + 15 of rows i .. i + 15 (row k at rows + k * rs; 16
 * bytes read from each, up to 15 past the row), those read stored at
 * cols + column * chunk_rows + i. */
static void columns_group(om_h5_chunks *c, const uint8_t *rows, size_t i, size_t g)
{
    const size_t rs = c->layout.row_size;
    __m128i x[GROUP];
    for (unsigned k = 0; k < GROUP; k++)
        x[k] = _mm_loadu_si128((const __m128i *)(const void *)(rows + (i + k) * rs + GROUP * g));
    transpose16(x);
    for (unsigned j = 0; j < GROUP; j++) {
        const size_t col = GROUP * g + j;
        if (col < rs && c->read[col])
            _mm_storeu_si128((__m128i *)(void *)(c->cols + col * c->chunk_rows + i),
                             x[transposed_at[j]]);
    }
}

/* Whether any of columns 16g .. 16g + 15 is read. */
static bool group_read(const om_h5_chunks *c, size_t g)
{
    for (size_t col = GROUP * g; col < GROUP * (g + 1) && col < c->layout.row_size; col++)
        if (c->read[col])
            return true;
    return false;
}
#endif

/* Each field's padding of a short block's columns, rows n .. chunk_rows. */
static void columns_pad(om_h5_chunks *c, size_t n)
{
    for (size_t f = 0; f < c->n_cols && n < c->chunk_rows; f++)
        for (size_t b = 0;
             c->kind[f] != KIND_HEADER && b < om_field_width((om_field_type)c->col_type[f]); b++)
            memset(c->cols + (c->col_at[f] + b) * c->chunk_rows + n, c->pad[f],
                   c->chunk_rows - n);
}

/* Step 2: the columns read, of the n rows at `rows`, padded to the chunk.
 * Only the groups of 16 columns that hold a column read are transposed. */
static void columns(om_h5_chunks *c, const uint8_t *rows, size_t n)
{
    const om_layout *l = &c->layout;
    const size_t rs = l->row_size;
    size_t i = 0;
#if defined(OM_H5CHUNK_SSE2)
    bool groups[OM_H5_ROW_MAX / GROUP + 1];
    for (size_t g = 0; g * GROUP < rs; g++)
        groups[g] = group_read(c, g);
    for (; i + GROUP <= n; i += GROUP)
        for (size_t g = 0; g * GROUP < rs; g++)
            if (groups[g])
                columns_group(c, rows, i, g);
#endif
    for (size_t col = 0; col < rs; col++) {
        uint8_t *to = c->cols + col * c->chunk_rows;
        if (!c->read[col])
            continue;
        for (size_t k = i; k < n; k++)
            to[k] = rows[k * rs + col];
    }
    columns_pad(c, n);
}

/* The picked rows of the classes for the block's read set (c->read): each
 * class's columns read, in column order, zero to the picked width. Built
 * again only when the read set changes (rarely: a column whose block holds
 * one value is not read). */
static void pick_classes(om_h5_chunks *c)
{
    const size_t rs = c->layout.row_size;
    if (c->picked_valid && memcmp(c->picked_for, c->read, sizeof c->read) == 0)
        return;
    c->n_picked = 0;
    for (size_t col = 0; col < rs; col++)
        if (c->read[col])
            c->picked_col[c->n_picked++] = (uint16_t)col;
    c->picked_shift = picked_shift_for(c->n_picked);
    for (size_t k = 0; k < c->n_classes; k++) {
        uint8_t *to = c->picked + (k << c->picked_shift);
        memset(to, 0, (size_t)1 << c->picked_shift);
        for (size_t j = 0; j < c->n_picked; j++)
            to[j] = c->class_rows[k * rs + c->picked_col[j]];
    }
    memcpy(c->picked_for, c->read, sizeof c->read);
    c->picked_valid = true;
}

/* The value of column col of trial k: its class's, or its row's. */
static inline uint8_t class_value(const om_h5_chunks *c, const uint8_t *rows,
                                  const uint16_t *cls, size_t k, size_t col)
{
    const size_t rs = c->layout.row_size;
    return cls[k] != OM_LAYOUT_NO_CLASS ? c->class_rows[(size_t)cls[k] * rs + col]
                                        : rows[k * rs + col];
}

#if defined(OM_H5CHUNK_SSE2)
/* Whether any of the 16 trials from cls is of no class. */
static inline bool any_no_class(const uint16_t *cls)
{
    const __m128i none = _mm_set1_epi16((short)OM_LAYOUT_NO_CLASS);
    const __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)cls);
    const __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(cls + GROUP / 2));
    return _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi16(lo, none),
                                          _mm_cmpeq_epi16(hi, none))) != 0;
}

/* The picked columns of trials i .. i + 15: each trial's picked row (its
 * class's, or its own row's columns read, picked into the scratch rows)
 * transposed 16 columns at a time, column j stored at its column's place.
 * When all 16 are of a class (as good as always where trials have classes),
 * each row is loaded straight from its class's. */
static void columns_classes_group(om_h5_chunks *c, const uint8_t *rows, const uint16_t *cls,
                                  size_t i)
{
    const size_t rs = c->layout.row_size, n_picked = c->n_picked;
    const unsigned shift = c->picked_shift;
    const uint8_t *const picked = c->picked;
    uint8_t *const *const to = c->picked_to;
    const bool mixed = any_no_class(cls + i);
    const uint8_t *src[GROUP];
    __m128i x[GROUP];
    if (mixed) {
        for (unsigned k = 0; k < GROUP; k++) {
            const uint16_t cl = cls[i + k];
            if (cl != OM_LAYOUT_NO_CLASS) {
                src[k] = picked + ((size_t)cl << shift);
                continue;
            }
            uint8_t *row = c->scratch + ((size_t)k << shift);
            for (size_t j = 0; j < n_picked; j++)
                row[j] = rows[(i + k) * rs + c->picked_col[j]];
            src[k] = row;
        }
    }
    for (size_t g = 0; g * GROUP < n_picked; g++) {
        for (unsigned k = 0; k < GROUP; k++) {
            const uint8_t *from = mixed ? src[k] : picked + ((size_t)cls[i + k] << shift);
            assert(mixed || cls[i + k] < c->n_classes);
            x[k] = _mm_loadu_si128((const __m128i *)(const void *)(from + GROUP * g));
        }
        transpose16(x);
        for (unsigned j = 0; j < GROUP && GROUP * g + j < n_picked; j++)
            _mm_storeu_si128((__m128i *)(void *)(to[GROUP * g + j] + i), x[transposed_at[j]]);
    }
}
#endif

/* Step 2 for trials that come with classes: columns() of the rows the trials
 * would have, trial k's row its class's (cls[k]) or, of no class, its own at
 * rows + k * row_size. A trial of a class is read from the picked rows of
 * the classes, which hold the columns read and nothing else. */
static void columns_classes(om_h5_chunks *c, const uint8_t *rows, const uint16_t *cls,
                            size_t n)
{
    size_t i = 0;
#if defined(OM_H5CHUNK_SSE2)
    pick_classes(c);
    for (size_t j = 0; j < c->n_picked; j++)
        c->picked_to[j] = c->cols + c->picked_col[j] * c->chunk_rows;
    for (; c->n_picked > 0 && i + GROUP <= n; i += GROUP)
        columns_classes_group(c, rows, cls, i);
#endif
    for (size_t col = 0; col < c->layout.row_size; col++) {
        uint8_t *to = c->cols + col * c->chunk_rows;
        if (!c->read[col])
            continue;
        for (size_t k = i; k < n; k++)
            to[k] = class_value(c, rows, cls, k, col);
    }
    columns_pad(c, n);
}

/* -------------------------------------------------------------- checksum */

/*
 * The Fletcher-32 checksum, HDF5's (H5_checksum_fletcher32): over the data
 * as 16-bit big-endian words w_1 .. w_n (an odd last byte the high byte of a
 * word), sum1 = w_1 + ... + w_n and sum2 = the sum of the n running sums
 * sum1 takes, each reduced modulo 65535 by HDF5's folds, which keep a
 * positive sum positive: the checksum is sum2 << 16 | sum1, each sum 0 for
 * data all zero, else its remainder modulo 65535 with 65535 for 0.
 *
 * As 2^16 = 1 modulo 65535, a word read little-endian, u = b0 + 256 b1 for
 * the bytes b0 b1 of w = 256 b0 + b1, is w / 256 modulo 65535: w = 256 u
 * modulo 65535 (and a lone last byte b is u = b). So the sums are taken of
 * the words as the processor loads them, W at a time (8 with SSE2, 16 with
 * AVX2) in 32-bit lanes: lane m (word W j + m of the data at step j) sums
 * its words in A_m and, at each step, A_m in P_m; over J steps the words'
 * sum is the sum of the A_m, and the sum of their running sums the sum over
 * m of W (P_m - A_m) + (W - m) A_m. Segments of at most FLETCHER_SEGMENT
 * steps keep the lanes below 2^32 (P_m <= 65535 * SEGMENT (SEGMENT + 1) /
 * 2); their sums are carried on modulo 65535. Where the processor has AVX2
 * (asked of it at run time: the build targets x86-64's baseline, SSE2) the
 * 32-byte loop is used. tests/test_h5.c checks it against HDF5's own loop
 * and HDF5's chunks.
 */
#define FLETCHER_MOD 65535u
#define FLETCHER_SEGMENT 256u

/* The sums so far of a checksum: of the little-endian words and of their
 * running sums, modulo 65535, and whether any byte was not zero. */
typedef struct fletcher {
    uint64_t u1, u2;
    uint64_t any;
} fletcher;

/* Carry on the sums with a segment of `steps` steps of `width` words: the
 * lanes' sums a[0..width) and running sums p[0..width), lane m at place
 * pos[m] of a step's words. */
static void fletcher_segment(fletcher *f, const uint32_t *a, const uint32_t *p,
                             const uint8_t *pos, unsigned width, size_t steps)
{
    uint64_t s1 = 0, s2 = 0;
    for (unsigned m = 0; m < width; m++) {
        s1 += a[m];
        s2 += (uint64_t)width * (p[m] - a[m]) + (uint64_t)(width - pos[m]) * a[m];
    }
    /* Every word of the segment adds the sum before it to its running sum. */
    f->u2 = (f->u2 + (uint64_t)width * steps % FLETCHER_MOD * f->u1 + s2) % FLETCHER_MOD;
    f->u1 = (f->u1 + s1) % FLETCHER_MOD;
    f->any |= s1;
}

#if defined(OM_H5CHUNK_SSE2)
/* The words of `steps` groups of 16 bytes at data (SSE2). */
static void fletcher_sse2(fletcher *f, const uint8_t *data, size_t steps)
{
    static const uint8_t pos[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const __m128i zero = _mm_setzero_si128();
    __m128i a0 = zero, a1 = zero, p0 = zero, p1 = zero;
    uint32_t a[8], p[8];
    for (size_t j = 0; j < steps; j++) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(data + GROUP * j));
        a0 = _mm_add_epi32(a0, _mm_unpacklo_epi16(x, zero));
        a1 = _mm_add_epi32(a1, _mm_unpackhi_epi16(x, zero));
        p0 = _mm_add_epi32(p0, a0);
        p1 = _mm_add_epi32(p1, a1);
    }
    _mm_storeu_si128((__m128i *)(void *)a, a0);
    _mm_storeu_si128((__m128i *)(void *)(a + 4), a1);
    _mm_storeu_si128((__m128i *)(void *)p, p0);
    _mm_storeu_si128((__m128i *)(void *)(p + 4), p1);
    fletcher_segment(f, a, p, pos, 8, steps);
}

#if defined(__GNUC__)
#define OM_H5CHUNK_AVX2 1
/* The words of `steps` groups of 32 bytes at data (AVX2; the unpacks work in
 * each 16-byte half, so lane m holds word pos[m] of the 16). */
__attribute__((target("avx2"))) static void fletcher_avx2(fletcher *f, const uint8_t *data,
                                                           size_t steps)
{
    static const uint8_t pos[16] = {0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15};
    const __m256i zero = _mm256_setzero_si256();
    __m256i a0 = zero, a1 = zero, p0 = zero, p1 = zero;
    uint32_t a[16], p[16];
    for (size_t j = 0; j < steps; j++) {
        const __m256i x =
            _mm256_loadu_si256((const __m256i *)(const void *)(data + 2 * GROUP * j));
        a0 = _mm256_add_epi32(a0, _mm256_unpacklo_epi16(x, zero));
        a1 = _mm256_add_epi32(a1, _mm256_unpackhi_epi16(x, zero));
        p0 = _mm256_add_epi32(p0, a0);
        p1 = _mm256_add_epi32(p1, a1);
    }
    _mm256_storeu_si256((__m256i *)(void *)a, a0);
    _mm256_storeu_si256((__m256i *)(void *)(a + 8), a1);
    _mm256_storeu_si256((__m256i *)(void *)p, p0);
    _mm256_storeu_si256((__m256i *)(void *)(p + 8), p1);
    fletcher_segment(f, a, p, pos, 16, steps);
}
#endif
#endif

/* The part of a checksum in one of its halves: 0 for data all zero, else the
 * remainder of 256 * u modulo 65535, 65535 for 0 (u: the little-endian sum). */
static uint32_t fletcher_half(uint64_t u, bool zero)
{
    const uint32_t r = (uint32_t)(u % FLETCHER_MOD * 256 % FLETCHER_MOD);
    return zero ? 0 : r == 0 ? FLETCHER_MOD : r;
}

uint32_t om_h5_fletcher32(const uint8_t *data, size_t n)
{
#if defined(OM_H5CHUNK_AVX2)
    return om_h5_fletcher32_isa(data, n, __builtin_cpu_supports("avx2"));
#else
    return om_h5_fletcher32_isa(data, n, false);
#endif
}

uint32_t om_h5_fletcher32_isa(const uint8_t *data, size_t n, bool avx2)
{
    fletcher f = {0, 0, 0};
    size_t i = 0;
    (void)avx2;
#if defined(OM_H5CHUNK_AVX2)
    if (avx2)
        for (size_t steps; (steps = (n - i) / (2 * GROUP)) > 0; i += 2 * GROUP * steps) {
            steps = steps < FLETCHER_SEGMENT ? steps : FLETCHER_SEGMENT;
            fletcher_avx2(&f, data + i, steps);
        }
#endif
#if defined(OM_H5CHUNK_SSE2)
    for (size_t steps; (steps = (n - i) / GROUP) > 0; i += GROUP * steps) {
        steps = steps < FLETCHER_SEGMENT ? steps : FLETCHER_SEGMENT;
        fletcher_sse2(&f, data + i, steps);
    }
#endif
    for (size_t k = 0; i + 2 <= n; i += 2, k++) {
        const uint64_t u = (uint64_t)data[i] | (uint64_t)data[i + 1] << 8;
        f.any |= u;
        f.u1 += u;
        f.u2 += f.u1;
        /* Folded now and then: a word adds at most 65535 to u1, u1 to u2. */
        if (k % FLETCHER_MOD == FLETCHER_MOD - 1) {
            f.u1 %= FLETCHER_MOD;
            f.u2 %= FLETCHER_MOD;
        }
    }
    if (i < n) {
        f.any |= data[i];
        f.u1 += data[i];
        f.u2 += f.u1;
    }
    return fletcher_half(f.u2, f.any == 0) << 16 | fletcher_half(f.u1, f.any == 0);
}

/* ----------------------------------------------------------------- chunks */

/* Pack the n values col[i] - min in `bits` bits each, most significant first,
 * at `out`; returns the bytes written. Groups of 8 values are exactly `bits`
 * bytes, built in one word; the tail goes bit by bit. */
static size_t pack_scalar(const uint8_t *col, size_t n, uint8_t min, unsigned bits, uint8_t *out)
{
    uint8_t *p = out;
    size_t i = 0;
    uint64_t acc = 0;
    unsigned held = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = 0;
        for (size_t k = 0; k < 8; k++)
            w = (w << bits) | (uint8_t)(col[i + k] - min);
        w <<= 64 - 8 * bits;
        for (unsigned b = 0; b < bits; b++)
            p[b] = (uint8_t)(w >> (56 - 8 * b));
        p += bits;
    }
    for (; i < n; i++) {
        acc = (acc << bits) | (uint8_t)(col[i] - min);
        held += bits;
        if (held >= 8) {
            held -= 8;
            *p++ = (uint8_t)(acc >> held);
        }
    }
    if (held > 0)
        *p++ = (uint8_t)(acc << (8 - held));
    return (size_t)(p - out);
}

#if defined(OM_H5CHUNK_SSE2)
/* The bits of a byte in reverse order (bit 7 becomes bit 0). */
static uint8_t reversed(uint8_t b)
{
    b = (uint8_t)((b & 0xF0u) >> 4 | (b & 0x0Fu) << 4);
    b = (uint8_t)((b & 0xCCu) >> 2 | (b & 0x33u) << 2);
    return (uint8_t)((b & 0xAAu) >> 1 | (b & 0x55u) << 1);
}

/* Adjacent values in lanes of w bits merged into lanes of 2w bits, the
 * first (lower) one more significant: (lo << s) | hi, s their width in bits. */
static inline __m128i merge16(__m128i x, __m128i s)
{
    return _mm_or_si128(_mm_sll_epi16(_mm_and_si128(x, _mm_set1_epi16(0xFF)), s),
                        _mm_srli_epi16(x, 8));
}
static inline __m128i merge32(__m128i x, __m128i s)
{
    return _mm_or_si128(_mm_sll_epi32(_mm_and_si128(x, _mm_set1_epi32(0xFFFF)), s),
                        _mm_srli_epi32(x, 16));
}
static inline __m128i merge64(__m128i x, __m128i s)
{
    return _mm_or_si128(_mm_sll_epi64(_mm_and_si128(x, _mm_set_epi32(0, -1, 0, -1)), s),
                        _mm_srli_epi64(x, 32));
}

/* The 8 values of the low `8 * bits` bits of w, first most significant, as
 * `bits` big-endian bytes at p (8 bytes written). */
static inline void store_group(uint8_t *p, uint64_t w, unsigned bits)
{
    uint8_t b[8];
    w <<= 64 - 8 * bits;
    for (unsigned k = 0; k < 8; k++)
        b[k] = (uint8_t)(w >> (56 - 8 * k));
    memcpy(p, b, 8);
}

/* pack_scalar, 16 values at a time (2 * bits bytes each time); the same
 * bytes. Writes up to 8 bytes past the packed values, within c->cap. */
static size_t pack(const uint8_t *col, size_t n, uint8_t min, unsigned bits, uint8_t *out)
{
    const __m128i m = _mm_set1_epi8((char)min);
    const __m128i s1 = _mm_cvtsi32_si128((int)bits), s2 = _mm_cvtsi32_si128((int)(2 * bits));
    const __m128i s4 = _mm_cvtsi32_si128((int)(4 * bits)), four = _mm_cvtsi32_si128(4);
    uint8_t *p = out;
    size_t i = 0;
    for (; i + GROUP <= n; i += GROUP, p += 2 * bits) {
        __m128i x = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)(col + i)), m);
        switch (bits) {
        case 1: { /* one bit a value: the sign bits, byte order reversed */
            unsigned mask = (unsigned)_mm_movemask_epi8(_mm_slli_epi16(x, 7));
            p[0] = reversed((uint8_t)mask);
            p[1] = reversed((uint8_t)(mask >> 8));
            break;
        }
        case 2: { /* 2 bits -> 4 -> 8: two merges of bytes */
            __m128i y = merge16(x, s1);
            y = _mm_packus_epi16(y, y);
            y = merge16(y, four);
            y = _mm_packus_epi16(y, y);
            uint32_t v = (uint32_t)_mm_cvtsi128_si32(y);
            memcpy(p, &v, 4);
            break;
        }
        case 4: { /* 4 bits -> 8: one merge of bytes */
            __m128i y = merge16(x, s1);
            y = _mm_packus_epi16(y, y);
            _mm_storel_epi64((__m128i *)(void *)p, y);
            break;
        }
        case 8:
            _mm_storeu_si128((__m128i *)(void *)p, x);
            break;
        default: { /* 8 values in each 64-bit lane, stored big-endian */
            __m128i y = merge64(merge32(merge16(x, s1), s2), s4);
            store_group(p, (uint64_t)_mm_cvtsi128_si64(y), bits);
            store_group(p + bits, (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(y, y)), bits);
            break;
        }
        }
    }
    /* The rest starts on a byte: 16 values are 2 * bits whole bytes. */
    return (size_t)(p - out) + pack_scalar(col + i, n - i, min, bits, p);
}
#else
/* pack: pack_scalar, where SSE2 is not at hand. */
static size_t pack(const uint8_t *col, size_t n, uint8_t min, unsigned bits, uint8_t *out)
{
    return pack_scalar(col, n, min, bits, out);
}
#endif

/* Step 3: chunk f's from its column, at `out`, without its checksum. */
static size_t chunk_data(om_h5_chunks *c, size_t f, uint8_t *out)
{
    const uint8_t *col = c->cols + c->col_at[f] * c->chunk_rows;
    size_t n;
    if (c->kind[f] == KIND_COPY) {
        memcpy(out, col, c->chunk_rows);
        return c->chunk_rows;
    }
    if (c->kind[f] == KIND_COPY16) {
        const uint8_t *high = col + c->chunk_rows; /* the next byte column */
        for (size_t i = 0; i < c->chunk_rows; i++) {
            out[2 * i] = col[i];
            out[2 * i + 1] = high[i];
        }
        return 2 * c->chunk_rows;
    }
    memset(out, 0, SO_HEADER);
    out[0] = c->bits[f];
    out[4] = 8;
    out[5] = c->min[f];
    if (c->kind[f] == KIND_HEADER) {
        out[SO_HEADER] = 0;
        return SO_HEADER + SO_TAIL;
    }
    n = SO_HEADER + pack(col, c->chunk_rows, c->offset[f], c->bits[f], out + SO_HEADER);
    if (c->bits[f] < 8)
        out[n++] = 0;
    return n;
}

/* Step 3: field f's chunk, its checksum after it, at `out`. */
static size_t chunk(om_h5_chunks *c, size_t f, uint8_t *out)
{
    const size_t n = chunk_data(c, f, out);
    const uint32_t sum = om_h5_fletcher32(out, n);
    for (unsigned b = 0; b < CHECKSUM_BYTES; b++)
        out[n + b] = (uint8_t)(sum >> (8 * b));
    return n + CHECKSUM_BYTES;
}

/* Step 3 for every field: the chunks one after the other in buf. */
static void chunks(om_h5_chunks *c)
{
    size_t at = 0;
    for (size_t f = 0; f < c->n_cols; f++) {
        c->at[f] = at;
        c->size[f] = chunk(c, f, c->buf + at);
        at += c->size[f];
    }
}

void om_h5_chunks_encode(om_h5_chunks *c, const uint8_t *rows, size_t n, const om_tally *t)
{
    assert(c->deferred.n == 0); /* the last block's chunks are written */
    plan(c, t);
    columns(c, rows, n);
    chunks(c);
}

void om_h5_chunks_encode_classes(om_h5_chunks *c, const uint8_t *rows, const uint16_t *cls,
                                 size_t n, const om_tally *t)
{
    assert(c->deferred.n == 0); /* the last block's chunks are written */
    assert(c->n_classes > 0);   /* om_h5_chunks_classes */
    plan(c, t);
    columns_classes(c, rows, cls, n);
    chunks(c);
}
