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
 * most significant bit first. A chunk whose values need all 8 bits (a span
 * over 128) is stored whole (8 bits, smallest value 0). A winner field keeps
 * HDF5's enumerated type, which the filter does not take: its chunk is its
 * values as they are. A two-byte count field (victory points) is stored
 * unfiltered too, each value as two bytes, least significant first (the
 * dataset's little-endian type). tests/test_h5.c checks every width
 * by reading encoded chunks back through HDF5.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "h5file.h"

/* Bytes before the packed values (the filter's parameters). */
#define SO_HEADER 21

struct om_h5_chunks {
    om_layout layout;  /* the rows' fields (a copy) */
    size_t chunk_rows; /* values per chunk */
    size_t cap;        /* bytes of each field's buffer */
    uint8_t *buf;      /* field f's chunk at buf + f * cap */
    uint8_t *column;   /* [chunk_rows] a short block's column, padded */
    size_t size[OM_LAYOUT_FIELDS_MAX]; /* bytes of each encoded chunk */
};

om_status om_h5_chunks_alloc(const om_layout *layout, size_t chunk_rows, om_h5_chunks **out)
{
    om_h5_chunks *c = calloc(1, sizeof *c);
    *out = NULL;
    if (c == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a block's chunks");
    c->layout = *layout;
    c->chunk_rows = chunk_rows;
    /* Header, the values whole (two bytes each for a layout with two-byte
     * counts), and a word of slack for the 8-byte stores. */
    c->cap = SO_HEADER + chunk_rows * (om_layout_wide_count(layout) > 0 ? 2 : 1) + 8;
    c->buf = malloc(c->cap * (layout->field_count ? layout->field_count : 1));
    c->column = malloc(chunk_rows ? chunk_rows : 1);
    if (c->buf == NULL || c->column == NULL) {
        free(c->buf);
        free(c->column);
        free(c);
        return OM_ERROR(OM_ENOMEM, "out of memory for a block's chunks");
    }
    *out = c;
    return OM_OK;
}

void om_h5_chunks_free(om_h5_chunks *c)
{
    if (c == NULL)
        return;
    free(c->buf);
    free(c->column);
    free(c);
}

size_t om_h5_chunks_size(const om_h5_chunks *c, size_t field)
{
    return c->size[field];
}

const uint8_t *om_h5_chunks_data(const om_h5_chunks *c, size_t field)
{
    return c->buf + field * c->cap;
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

/* Pack the values col[i * stride] - min (i < n) in `bits` bits each, most
 * significant first, at `out`; returns the bytes written. Groups of 8 values
 * are exactly `bits` bytes, built in one word; the tail goes bit by bit. */
static size_t pack(const uint8_t *col, size_t stride, size_t n, uint8_t min, unsigned bits,
                   uint8_t *out)
{
    uint8_t *p = out;
    size_t i = 0;
    uint64_t acc = 0;
    unsigned held = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = 0;
        for (size_t k = 0; k < 8; k++)
            w = (w << bits) | (uint8_t)(col[(i + k) * stride] - min);
        w <<= 64 - 8 * bits;
        for (unsigned b = 0; b < bits; b++)
            p[b] = (uint8_t)(w >> (56 - 8 * b));
        p += bits;
    }
    for (; i < n; i++) {
        acc = (acc << bits) | (uint8_t)(col[i * stride] - min);
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

/* The chunk of field f: header, then the packed (or whole) values. A short
 * last block is padded to the chunk with its smallest value, which changes no
 * span (HDF5 reads only the rows inside the dataset). */
static size_t encode_field(om_h5_chunks *c, size_t f, const uint8_t *rows, size_t n,
                           uint8_t min, uint8_t max)
{
    const om_layout *l = &c->layout;
    /* Values that need all 8 bits are stored as they are, without the offset:
     * the filter does so, and its reader adds no smallest value back then. */
    const unsigned bits = bits_for((unsigned)(max - min) + 1);
    const uint8_t stored_min = bits >= 8 ? 0 : min;
    const uint8_t *col = rows + l->fields[f].offset;
    size_t stride = l->row_size;
    uint8_t *out = c->buf + f * c->cap;

    memset(out, 0, SO_HEADER);
    out[0] = (uint8_t)bits;
    out[4] = 8;
    out[5] = stored_min;
    if (bits == 0)
        return SO_HEADER;
    if (n < c->chunk_rows) {
        for (size_t i = 0; i < c->chunk_rows; i++)
            c->column[i] = i < n ? col[i * stride] : min;
        col = c->column;
        stride = 1;
    }
    return SO_HEADER + pack(col, stride, c->chunk_rows, stored_min, bits, out + SO_HEADER);
}

/* The chunk of a winner field: its values as they are (a short block padded). */
static size_t copy_field(om_h5_chunks *c, size_t f, const uint8_t *rows, size_t n)
{
    const om_layout *l = &c->layout;
    const uint8_t *col = rows + l->fields[f].offset;
    uint8_t *out = c->buf + f * c->cap;
    for (size_t i = 0; i < c->chunk_rows; i++)
        out[i] = i < n ? col[i * l->row_size] : OM_WINNER_NONE;
    return c->chunk_rows;
}

/* The chunk of a two-byte count field: its values as they are, two bytes
 * each, least significant first (a short block padded with zeros). */
static size_t copy_field16(om_h5_chunks *c, size_t f, const uint8_t *rows, size_t n)
{
    const om_layout *l = &c->layout;
    const uint8_t *col = rows + l->fields[f].offset;
    uint8_t *out = c->buf + f * c->cap;
    for (size_t i = 0; i < c->chunk_rows; i++) {
        out[2 * i] = i < n ? col[i * l->row_size] : 0;
        out[2 * i + 1] = i < n ? col[i * l->row_size + 1] : 0;
    }
    return 2 * c->chunk_rows;
}

void om_h5_chunks_encode(om_h5_chunks *c, const uint8_t *rows, size_t n, const om_tally *t)
{
    const om_layout *l = &c->layout;
    for (size_t f = 0; f < l->field_count; f++) {
        uint8_t min, max;
        if (l->fields[f].type == OM_FIELD_WINNER) {
            c->size[f] = copy_field(c, f, rows, n);
            continue;
        }
        if (l->fields[f].type == OM_FIELD_COUNT16) {
            c->size[f] = copy_field16(c, f, rows, n);
            continue;
        }
        om_tally_range(t, f, &min, &max);
        c->size[f] = encode_field(c, f, rows, n, min, max);
    }
}
