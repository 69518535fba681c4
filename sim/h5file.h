/*
 * h5file.h: the HDF5 result file of a run (HDF5 is used only in sim/h5*.c).
 *
 * Layout (schema "oddsmaster-results/2"; README "Result files"):
 *   /            attributes: schema, game, program_version, command_line,
 *                scenario_name, scenario_yaml, title, ruleset, kind, unit_a,
 *                unit_b, points_a, points_b, options_json, rng, seed (u64),
 *                trials (u64), block_size (u64), threads, created_utc; and how
 *                each side loses victory points, when known: points_rule, and
 *                per side X (a, b) loss_field_X (the field deciding them),
 *                loss_unit_X ("stands"), loss_start_X and vp_lost_X (u32[], the
 *                victory points lost for each value of that field)
 *   /trials      attribute fields: the names of its datasets in report order,
 *                separated by spaces
 *   /trials/<f>  one 1-D uint8 dataset per field of the run's layout (a winner
 *                field uses an HDF5 enumerated type with names a, b, draw,
 *                none); chunked, shuffle + deflate; attributes description,
 *                type ("count", "flag" or "winner") and, for a winner field,
 *                title (the heading of its outcome table).
 * The writer pre-sizes every dataset to the trial count and writes block b at
 * row b*block_size, so the file does not depend on the order blocks finish in.
 * It writes to a temporary file beside the target and renames it only when
 * om_h5_writer_close succeeds, so a failed run leaves no partial file.
 * Not thread-safe: callers serialise writes (one writer, called in a critical
 * section).
 */
#ifndef OM_H5FILE_H
#define OM_H5FILE_H

#include <stddef.h>
#include <stdint.h>

#include "results.h"
#include "status.h"

/* Schema identifier written to the root "schema" attribute. */
#define OM_H5_SCHEMA "oddsmaster-results/2"

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
 * row_size) as rows first_row..first_row+count-1 of every dataset. Rows must
 * lie inside the pre-sized trial count. Errors: OM_EINVAL (out of range),
 * OM_EHDF5.
 */
om_status om_h5_writer_put(om_h5_writer *w, uint64_t first_row, const uint8_t *rows,
                           size_t count);

/*
 * om_h5_writer_close: flush, close and move the temporary file to its final path;
 * frees `w` whatever happens. On failure the temporary file is removed.
 */
om_status om_h5_writer_close(om_h5_writer *w);

/* om_h5_writer_abort: close, remove the temporary file and free `w` (NULL allowed). */
void om_h5_writer_abort(om_h5_writer *w);

/*
 * om_h5_reader_open: open a result file for reading and check its schema
 * attribute, its list of fields and the type and length of each field's
 * dataset. A missing or unreadable file gives OM_EIO; a file that is not HDF5,
 * is truncated, lacks the layout or was written by an older program (another
 * schema) gives OM_EHDF5; the message names the file and what is wrong.
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

/*
 * om_h5_reader_read: read rows first..first+count-1 of /trials/<name> into `buf`
 * (uint8). Errors: OM_EINVAL (no such field or rows out of range), OM_EHDF5.
 */
om_status om_h5_reader_read(om_h5_reader *r, const char *name, uint64_t first, size_t count,
                            uint8_t *buf);

/*
 * om_h5_reader_attr_string: a string attribute of the root group, as a new
 * NUL-terminated string owned by the caller (free()). OM_ENOTFOUND if absent.
 */
om_status om_h5_reader_attr_string(om_h5_reader *r, const char *name, char **out);

/* om_h5_reader_attr_u64: an integer attribute of the root group. */
om_status om_h5_reader_attr_u64(om_h5_reader *r, const char *name, uint64_t *out);

/* Close the file and free `r` (NULL allowed). */
void om_h5_reader_close(om_h5_reader *r);

#endif /* OM_H5FILE_H */
