/*
 * h5file.h: the HDF5 result file of a run (HDF5 is used only in sim/h5*.c):
 * written by h5write.c, read by h5read.c, its chunks encoded by h5chunk.c.
 *
 * Layout (schema "oddsmaster-results/3"; docs/manual.md, "Result files"):
 *   /            attributes: schema, game, program_version, command_line,
 *                scenario_name, scenario_yaml, title, ruleset, kind, unit_a,
 *                unit_b, points_a, points_b, options_json, rng, seed (u64),
 *                block_size (u64), threads, created_utc; the run's end:
 *                trials (u64, the trials in the file), trials_requested (u64),
 *                blocks_done (u64), complete (1, or 0 for an interrupted run's
 *                .partial file), stop_reason, rows (1, or 0 for a run without
 *                rows), halfwidth (double) and target; and how each side loses
 *                victory points, when known: points_rule, and per side X (a,
 *                b) loss_field_X (the field deciding them), loss_unit_X
 *                ("stands"), loss_start_X and vp_lost_X (u32[], the victory
 *                points lost for each value of that field); where the game
 *                declares them, score_field_a and score_field_b (the fields of
 *                the score each side made: the margin is their difference) and
 *                unit_lost_field (the unit field of a unit lost), unit_given_field
 *                and unit_scored_field (the unit fields of the points each unit
 *                gave up and scored: the low byte, the high byte in the unit
 *                field of the same name and "_hi"); provenance_sha256,
 *                the digest of the run's defining attributes written when it
 *                began (h5util.c, om_h5_provenance), which the reader checks
 *   /trials      attribute fields: the names of the fields in report order,
 *                separated by spaces; with rows, one 1-D uint8 dataset per field
 *                (a winner field uses an HDF5 enumerated type with names a, b,
 *                draw, none; a two-byte count field is uint16), one chunk per
 *                block of trials, HDF5's scale-offset filter (h5chunk.c; not
 *                for winners and two-byte counts), then the Fletcher-32
 *                checksum every dataset carries; attributes description,
 *                type ("count", "flag", "winner" or "count16") and, for a
 *                winner field, title (the heading of its outcome table)
 *   /tallies     attribute trials; one u64 dataset per field: how many trials
 *                had each value 0, 1, ... up to the largest that occurred (up to
 *                65536 values for a two-byte count), one chunk with its checksum
 *   /units       a layout with per-unit results only: attributes fields (the
 *                unit fields' names) and units (the units' ids), each in
 *                order, separated by spaces; the dataset table, one record per
 *                unit (a compound of id, name, army: fixed-length UTF-8
 *                strings; side: an enumeration a, b; points: u32), and with
 *                rows one 2-D uint8 dataset per unit field, trials x units,
 *                one chunk per block and unit (a column of one unit's values,
 *                encoded as a field's: scale-offset, then Fletcher-32),
 *                attributes description, type ("count" or "flag") and max
 *                (its largest value)
 *   /tallies/units  per unit field a u64 dataset, units x (max + 1): how many
 *                trials gave each unit each value, with the same attributes
 *   /exact       the exact law of the fields that have one (h5exact.c): its
 *                method, reason, outcomes and fields attributes, and per field
 *                an f64 dataset of P(field = v), v = 0 up to its largest value
 * Text attributes are fixed-length UTF-8 strings (h5_int.h says why).
 * The writer writes block b's rows as the chunk at row b * block_size, so the
 * rows do not depend on the order blocks finish in, and keeps the run's tally,
 * written when the run ends. It writes to a temporary file beside the target
 * and renames it only when the run ends: a failed run leaves no file. Not
 * thread-safe: callers serialise writes (one writer, called in block order).
 */
#ifndef OM_H5FILE_H
#define OM_H5FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results.h"
#include "status.h"
#include "tally.h"

/* Schema identifier written to the root "schema" attribute. */
#define OM_H5_SCHEMA "oddsmaster-results/3"

/* The schema of the files before every dataset carried a checksum, refused
 * with a clear error. */
#define OM_H5_SCHEMA_V2 "oddsmaster-results/2"

typedef struct om_h5_writer om_h5_writer;
typedef struct om_h5_reader om_h5_reader;

/*
 * om_h5_writer_create: start a result file at `path` for info->trials trials,
 * writing info's provenance attributes and creating one dataset per field of
 * info->layout. The data go to a temporary file until close. Errors:
 * OM_EINVAL (trials = 0, or a layout without fields), OM_EIO (cannot
 * create), OM_EHDF5, OM_ENOMEM.
 */
om_status om_h5_writer_create(om_h5_writer **out, const char *path, const om_run_info *info);

/*
 * om_h5_writer_put: write `count` rows of the layout (row i at rows + i *
 * row_size) as rows first_row..first_row+count-1 of every dataset, through
 * HDF5's own filter, and add them to the run's tally: the simple way, for rows
 * that do not come in blocks (tests, tools); a run puts blocks. Rows must lie
 * inside the trials asked for, and each row be put once. Errors: OM_EINVAL
 * (out of range, a file without rows), OM_EHDF5.
 */
om_status om_h5_writer_put(om_h5_writer *w, uint64_t first_row, const uint8_t *rows,
                           size_t count);

/* The rows of one block encoded as the chunks of every field (h5chunk.c). */
typedef struct om_h5_chunks om_h5_chunks;

/*
 * om_h5_chunks_alloc: room for the chunks of one block of a layout, each of
 * chunk_rows values (the file's rows per chunk: the block size, or the trials
 * of a run shorter than a block). Errors: OM_ENOMEM.
 */
om_status om_h5_chunks_alloc(const om_layout *layout, size_t chunk_rows, om_h5_chunks **out);
void om_h5_chunks_free(om_h5_chunks *c);

/*
 * om_h5_chunks_encode: encode the n rows at `rows` (n <= chunk_rows), whose
 * tally is `t`, as one chunk per field. No HDF5 call: thread-safe for
 * distinct chunk sets.
 */
void om_h5_chunks_encode(om_h5_chunks *c, const uint8_t *rows, size_t n, const om_tally *t);

/*
 * om_h5_chunks_classes: let om_h5_chunks_encode_classes take the row of a
 * trial of a class from its class: class k's row at class_rows + k *
 * row_size, n_classes of them (1 to OM_LAYOUT_CLASSES_MAX). class_rows is
 * borrowed: it must outlive c. Not thread-safe for the same c. Errors:
 * OM_EINVAL (a number of classes out of range), OM_ENOMEM.
 */
om_status om_h5_chunks_classes(om_h5_chunks *c, const uint8_t *class_rows, size_t n_classes);

/*
 * om_h5_chunks_encode_classes: om_h5_chunks_encode of n trials (n <=
 * chunk_rows) that come with classes: trial i's row is class cls[i]'s (set
 * by om_h5_chunks_classes; the bytes at rows + i * row_size are then not
 * read, and need not be written) or, of no class (OM_LAYOUT_NO_CLASS), the
 * row at rows + i * row_size. The same chunks, byte for byte, as
 * om_h5_chunks_encode of the rows written out. Thread-safe for distinct
 * chunk sets.
 */
void om_h5_chunks_encode_classes(om_h5_chunks *c, const uint8_t *rows, const uint16_t *cls,
                                 size_t n, const om_tally *t);

/* The encoded chunk `field`: its bytes and their number. Chunk f < the
 * layout's field_count is field f's; chunk field_count + f * unit_count + u
 * is unit field f's for unit u. */
const uint8_t *om_h5_chunks_data(const om_h5_chunks *c, size_t field);
size_t om_h5_chunks_size(const om_h5_chunks *c, size_t field);

/*
 * om_h5_chunks_defer: with `defer`, om_h5_writer_put_block places these
 * chunks in the file but leaves their bytes to om_h5_chunks_write_out, which
 * the caller must call before the chunks are encoded again or freed and
 * before the file is finished: a run puts blocks one at a time, in turn, and
 * each block's thread then writes its bytes in parallel with the next put.
 * Without (the default), put_block writes them.
 */
void om_h5_chunks_defer(om_h5_chunks *c, bool defer);

/*
 * om_h5_chunks_write_out: write the bytes of the chunk sets c[0..n) placed
 * with their writing deferred (none: nothing to do), by their places in the
 * file; those that follow one another in the file, across sets too (blocks
 * put one after the other), in one system call. `path` names the file in
 * messages.
 * Thread-safe for distinct chunk sets (the file's writes are positioned).
 * Errors: OM_EIO.
 */
om_status om_h5_chunks_write_out(om_h5_chunks *const *c, size_t n, const char *path);

/*
 * om_h5_writer_put_block: the block of `n` rows starting at row `first` (a
 * multiple of the block size): its encoded chunks (NULL in a file without
 * rows) written as they are (or only placed in the file, their writes listed
 * in `chunks`, when they defer them: om_h5_chunks_defer), its tally added to
 * the run's. Errors: OM_EINVAL (out of range), OM_EHDF5.
 */
om_status om_h5_writer_put_block(om_h5_writer *w, uint64_t first, size_t n,
                                 om_h5_chunks *chunks, const om_tally *tally);

/* The run's tally so far (every row put). */
const om_tally *om_h5_writer_tally(const om_h5_writer *w);

/* How a run ended, recorded by om_h5_writer_finish. */
typedef struct om_h5_end {
    bool complete;           /* done (all trials, or the target reached), or interrupted */
    uint64_t blocks_done;    /* blocks put */
    const char *stop_reason; /* one sentence: why it ended */
} om_h5_end;

/*
 * om_h5_writer_finish: record how the run ended (the trials in the file are
 * the tally's), cut every dataset to them, write the tallies, close, and move
 * the temporary file to `final_path` (the path it was created for, or a
 * .partial name); frees `w` whatever happens. On failure the temporary file
 * is removed. Errors: OM_EHDF5, OM_EIO.
 */
om_status om_h5_writer_finish(om_h5_writer *w, const char *final_path, const om_h5_end *end);

/*
 * om_h5_writer_close: om_h5_writer_finish to the path the writer was created
 * for, complete, with every block put.
 */
om_status om_h5_writer_close(om_h5_writer *w);

/*
 * om_h5_writer_reopen: continue writing the interrupted run's file `partial`
 * (its .partial file, checked by the caller: om_run_resume), whose fields are
 * those of `layout`, to be finished at `path`: a copy of it is made under the
 * temporary name of `path` (locked, as om_h5_writer_create's file), so that
 * `partial` stays as it is until the finished file replaces it; its datasets,
 * its run's tally and the blocks done are taken up. Errors: OM_EHDF5 (not an
 * interrupted run of this layout), OM_EIO, OM_ENOMEM.
 */
om_status om_h5_writer_reopen(om_h5_writer **out, const char *partial, const char *path,
                              const om_layout *layout, uint64_t *blocks_done);

/* om_h5_writer_abort: close, remove the temporary file and free `w` (NULL allowed). */
void om_h5_writer_abort(om_h5_writer *w);

/*
 * om_h5_tmp_clean: the temporary files "PATH.tmp-PID" of `path` that no run
 * is writing (runs killed before they ended left them) are removed, each
 * said so in a line appended to *notice (a string the caller frees, or
 * NULL). A file is being written while its writer holds its lock (h5util.c:
 * a process id reused by another process does not count; where the file
 * system has no locks, the process must be alive and not have started after
 * the file was last written). Errors: OM_EINVAL ("PATH: another run (process
 * PID) is writing it now (FILE)": two runs on one output).
 */
om_status om_h5_tmp_clean(const char *path, char **notice);

/*
 * om_h5_reader_open: open a result file for reading and check its schema
 * attribute, the digest of its run (om_h5_provenance_check: an attribute
 * edited since the run began is named), its list of fields and the type,
 * length and checksum filter of each field's dataset. A missing or
 * unreadable file gives OM_EIO; a file that is not HDF5, is truncated, lacks
 * the layout, was edited or was written by an older program (another schema)
 * gives OM_EHDF5; the message names the file and what is wrong.
 */
om_status om_h5_reader_open(om_h5_reader **out, const char *path);

/* Number of trials (rows) in the file. */
uint64_t om_h5_reader_trials(const om_h5_reader *r);

/* The path the file was opened with (owned by `r`), for messages and reports. */
const char *om_h5_reader_path(const om_h5_reader *r);

/* 1 if the file has the dataset /trials/<name>, else 0. */
int om_h5_reader_has_field(const om_h5_reader *r, const char *name);

/* Number of fields of the file, and the i-th in report order: name,
 * description, title and type as the file records them (offset is i). The
 * strings belong to the reader. */
size_t om_h5_reader_field_count(const om_h5_reader *r);
const om_field *om_h5_reader_field(const om_h5_reader *r, size_t i);

/*
 * om_h5_reader_side: side `side` (0 = A, 1 = B) as the file records it: its
 * name and points, and how it loses victory points (loss_field, an index of
 * om_h5_reader_field, is -1 when the file does not say). Strings belong to the
 * reader. Errors: OM_EHDF5 (a damaged record), OM_ENOMEM.
 */
om_status om_h5_reader_side(om_h5_reader *r, int side, om_side_score *out);

/* How victory points are lost, as the file says (NULL if it does not). */
const char *om_h5_reader_points_rule(const om_h5_reader *r);

/* Whether the file holds the per-trial rows (a run with --no-rows does not). */
bool om_h5_reader_has_rows(const om_h5_reader *r);

/*
 * om_h5_reader_tally: the run's tally as the file records it (/tallies), with
 * one histogram per field in the file's field order, and per unit field and
 * unit (/tallies/units) in the order of om_h5_reader_unit_field and
 * om_h5_reader_unit. Errors: OM_EHDF5 (missing,
 * damaged: a checksum that does not match, named; or inconsistent: a
 * histogram that does not add up to the trials).
 */
om_status om_h5_reader_tally(om_h5_reader *r, om_tally *out);

/*
 * Per-unit results (h5file.h, /units): the units of the file's table, in the
 * order of its columns (id, name, army, side, points; strings owned by the
 * reader), and its unit fields (name, description, type, max; offset is the
 * index). None (0) for a file without units. NULL for an index out of range.
 */
size_t om_h5_reader_unit_count(const om_h5_reader *r);
const om_layout_unit *om_h5_reader_unit(const om_h5_reader *r, size_t i);
size_t om_h5_reader_unit_field_count(const om_h5_reader *r);
const om_field *om_h5_reader_unit_field(const om_h5_reader *r, size_t i);

/*
 * om_h5_reader_layout: the file's fields, unit fields and units as a layout
 * (strings borrowed from the reader; the offsets are indices, not places in
 * a row): what om_tally_clear_layout needs to hold the file's tallies.
 */
void om_h5_reader_layout(const om_h5_reader *r, om_layout *out);

/*
 * om_h5_reader_read_unit: rows first..first+count-1 of unit `unit`'s column
 * of unit field `field` (indices of om_h5_reader_unit_field and
 * om_h5_reader_unit), /units/<name>[:, unit], into buf. Errors: OM_EINVAL (no
 * such field or unit, a file without rows, rows out of range), OM_EHDF5 (a
 * damaged chunk: "PATH: /units/NAME, rows A..B of unit ID: the data are
 * damaged ..."; another failure of the read).
 */
om_status om_h5_reader_read_unit(om_h5_reader *r, size_t field, size_t unit, uint64_t first,
                                 size_t count, uint8_t *buf);

/*
 * om_h5_reader_read: read rows first..first+count-1 of /trials/<name> into `buf`
 * (uint8). Errors: OM_EINVAL (no such field, a two-byte count field, a file
 * without rows, or rows out of range), OM_EHDF5 (a chunk whose checksum does
 * not match: "PATH: /trials/NAME, rows A..B: the data are damaged ...", its
 * rows named; or another failure of the read).
 */
om_status om_h5_reader_read(om_h5_reader *r, const char *name, uint64_t first, size_t count,
                            uint8_t *buf);

/* om_h5_reader_read16: the same as 16-bit values (any field; a two-byte
 * count field can only be read so). */
om_status om_h5_reader_read16(om_h5_reader *r, const char *name, uint64_t first, size_t count,
                              uint16_t *buf);

/*
 * om_h5_reader_check_rows: count every row of the file again (each chunk's
 * checksum verified as it is read) and compare the counts with the tallies
 * the run recorded (/tallies), value by value (each unit's values of each
 * unit field too: "FIELD[UNIT] = V: ..."); with `out` not NULL, the tally
 * of the rows goes there (equal to the tallies). Errors: OM_EHDF5 ("PATH:
 * the rows and the tallies differ (the file is damaged): FIELD = V: N rows,
 * the tally M; ...", up to six listed and their number; a damaged chunk, as
 * om_h5_reader_read), OM_EINVAL (a file without rows), OM_ENOMEM.
 */
om_status om_h5_reader_check_rows(om_h5_reader *r, om_tally *out);

/*
 * om_h5_reader_attr_string: a string attribute of the root group, as a new
 * NUL-terminated string owned by the caller (free()). OM_ENOTFOUND if absent.
 */
om_status om_h5_reader_attr_string(om_h5_reader *r, const char *name, char **out);

/* om_h5_reader_attr_u64: an integer attribute of the root group. */
om_status om_h5_reader_attr_u64(om_h5_reader *r, const char *name, uint64_t *out);

/* om_h5_reader_attr_double: a real attribute of the root group. */
om_status om_h5_reader_attr_double(om_h5_reader *r, const char *name, double *out);

/*
 * om_h5_reader_exact: the exact law of the file's fields as the run recorded
 * it (/exact, h5exact.c), as a new *out (om_exact_free) of the file's field
 * count: the fields it names known, with their probabilities, its method and
 * reason. Errors: OM_ENOTFOUND (no /exact: a file of an older program, which
 * records none), OM_EHDF5 (a damaged group: a name that is not a field, a law
 * that is not probabilities summing to 1), OM_ENOMEM.
 */
om_status om_h5_reader_exact(om_h5_reader *r, om_exact **out);

/* Close the file and free `r` (NULL allowed). */
void om_h5_reader_close(om_h5_reader *r);

#endif /* OM_H5FILE_H */
