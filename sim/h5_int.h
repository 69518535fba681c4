/*
 * h5_int.h: private helpers shared by the HDF5 files of sim/ (h5file.c, the run
 * result file; h5matrix.c, the matchup matrix file). Not a public interface:
 * only sim/h5*.c include it, as HDF5 is reached from nowhere else (and
 * tests/test_h5.c, which writes deferred writes' lists by hand).
 *
 * Conventions the helpers implement:
 *   - HDF5's automatic printing of its error stack is switched off per thread
 *     (om_h5_quiet); failures are reported once through OM_ERROR with the file
 *     name and the innermost HDF5 message (om_h5_detail), captured right after
 *     the failing call because the next HDF5 call clears the stack;
 *   - text attributes are fixed-length UTF-8 strings, integers are u64/u32
 *     little-endian, reals IEEE doubles; every dataset is chunked and carries
 *     HDF5's Fletcher-32 checksum (om_h5_dataset_create), string datasets
 *     hold fixed-length strings too (a variable-length string's characters
 *     lie in HDF5's global heap, which no checksum covers, and whose damage
 *     HDF5 1.10 does not survive); the files are in the HDF5 1.10 format,
 *     whose metadata (object headers, so attributes, chunk indexes) carry
 *     checksums;
 *   - a file is written under a temporary name beside its target, locked
 *     while it is written, and renamed only when complete (om_h5_tmp_create,
 *     om_h5_tmp_finish), so a failed write never leaves a partial file or
 *     clobbers an existing one.
 * Thread-safety: as HDF5 itself; callers serialise.
 */
#ifndef OM_H5_INT_H
#define OM_H5_INT_H

#include <stdatomic.h>

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exact.h"
#include "layout.h"
#include "status.h"

/* Size of the buffer that receives the innermost HDF5 error message. */
#define OM_H5_DETAIL_MAX 512

/* Size of a buffer for a dataset's name in messages ("/trials/hits_on_b"). */
#define OM_H5_NAME_MAX 320

/* Size of a buffer for om_h5_utc_now ("2024-05-01T12:00:00Z" and the NUL). */
#define OM_H5_UTC_MAX 32

/*
 * om_h5_buffered_fapl: a new file access property list *fapl (the caller
 * closes it) for a file written through the buffered driver of h5vfd.c: the
 * default driver's files, byte for byte, with the library's many small
 * writes gathered into few large ones; strong close degree; the HDF5 1.10
 * file format (whose object headers, and so attributes, carry checksums).
 * *driver is the driver's registration, which must outlive the list and
 * every file opened with it: the caller closes it (om_h5_close_id) after
 * them. Errors: OM_EHDF5.
 */
om_status om_h5_buffered_fapl(hid_t *fapl, hid_t *driver);

/* A write of raw data to a file of the buffered driver, deferred (om_h5_defer_raw). */
typedef struct om_h5_deferred_write {
    haddr_t addr;        /* where in the file */
    const uint8_t *data; /* the bytes: the caller's, unchanged until written out */
    size_t size;         /* how many */
} om_h5_deferred_write;

/* Writes of raw data deferred, to be done by their owner. */
typedef struct om_h5_deferred {
    int fd;                     /* the file they go to (set when the first is deferred) */
    size_t n;                   /* writes deferred */
    size_t cap;                 /* room in w: at most OM_LAYOUT_FIELDS_MAX (a block's
                                   chunks, as many as om_h5_deferred_write_out sorts) */
    om_h5_deferred_write *w;    /* [cap] in the order the library made them */
    _Atomic(haddr_t) *written_from; /* where the bytes of the file begin whose writeback
                                   to the disk no thread has started (the file's, shared by
                                   all its lists: om_h5_deferred_write_out; set with fd) */
} om_h5_deferred;

/*
 * om_h5_defer_raw: while `into` is not NULL, the raw data (chunks) the
 * library writes to `file` (open with the buffered driver) is not written
 * but listed in *into, the bytes left where the caller gave them (when
 * *into is full, written at once); NULL writes them again. The bytes must
 * stay unchanged, and not be read through the library, until
 * om_h5_deferred_write_out writes them: so a writer that puts blocks in
 * turn (one thread at a time) lets each block's owner write its bytes
 * after its turn, in parallel with the next put. Errors: OM_EHDF5 (not a
 * file of the buffered driver).
 */
om_status om_h5_defer_raw(hid_t file, om_h5_deferred *into);

/*
 * om_h5_buffered_writeback: start writing to the disk, without waiting, every
 * byte of `file` (open with the buffered driver) written so far whose
 * writeback was not started yet: the end of a run's rows, while the file's
 * last metadata is written and the file closed, so that the final fsync
 * waits for less. The driver's buffer is written out first (its failure
 * remembered, as any write's: om_h5_buffered_errno); the writeback itself is
 * advisory (its errors are the fsync's to report). Nothing for a file of
 * another driver.
 */
void om_h5_buffered_writeback(hid_t file);

/*
 * om_h5_buffered_errno: the errno of the first write to `file` (open with
 * the buffered driver) that failed, or 0 (none, or not a file of the
 * driver): the system's reason behind a library call that failed.
 */
int om_h5_buffered_errno(hid_t file);

/*
 * om_h5_buffered_closing: `file` (open with the buffered driver) is about to
 * be closed: *failed receives the errno of the first write that failed (0:
 * none), and from now on a write, truncation or close that fails sets *failed
 * (if 0) and is not reported to the library, whose close then succeeds (HDF5
 * 1.10 keeps a file whose close failed half closed, and crashes closing it
 * again at H5close or exit). *failed must outlive the file's close; a caller
 * whose *failed is not 0 afterwards must not keep the file. Nothing for a
 * file of another driver (*failed is 0).
 */
void om_h5_buffered_closing(hid_t file, int *failed);

/*
 * om_h5_deferred_write_out: do the writes of the lists d[0..n) (n at most
 * OM_H5_WRITE_OUT_LISTS) of one file in the order of their places in the
 * file, whatever the lists' order (neighbours in the file as one system call,
 * neighbours in memory too as one piece of it), then empty them, a write
 * that failed or not. No two of the writes may overlap (the library places
 * each chunk in space of its own). `path` names the file in messages.
 * Thread-safe for distinct lists. Errors: OM_EIO (the writes after the place
 * that failed are not done).
 */
om_status om_h5_deferred_write_out(om_h5_deferred *const *d, size_t n, const char *path);

/* Lists written out together at most (om_h5_chunks_write_out goes by as
 * many at a time): the blocks a run puts together. */
#define OM_H5_WRITE_OUT_LISTS 2

/* Whether the chunks c leave their writing deferred (om_h5_chunks_defer,
 * h5file.h), and the list their deferred writes go to (h5chunk.c). */
struct om_h5_chunks;
bool om_h5_chunks_deferred(const struct om_h5_chunks *c);
om_h5_deferred *om_h5_chunks_writes(struct om_h5_chunks *c);

/*
 * om_h5_fletcher32: the Fletcher-32 checksum of the n bytes at `data`, as
 * HDF5's Fletcher-32 filter computes it over a chunk's filtered bytes (and
 * stores after them, least significant byte first). Thread-safe.
 */
uint32_t om_h5_fletcher32(const uint8_t *data, size_t n);

/* om_h5_fletcher32 with the AVX2 loop (avx2, where the processor has it:
 * the caller asks) or without: the same checksum (for tests). */
uint32_t om_h5_fletcher32_isa(const uint8_t *data, size_t n, bool avx2);

/* Make HDF5 quiet for the calling thread: errors are reported through OM_ERROR. */
void om_h5_quiet(void);

/*
 * om_h5_detail: the innermost message of the calling thread's HDF5 error stack,
 * which names the cause ("truncated file: eof = ..."), written to `buf` and
 * returned. Call it straight after the failing HDF5 call.
 */
const char *om_h5_detail(char *buf, size_t size);

/* Flags of om_h5_dataset_create: filters before the checksum, and the fill. */
#define OM_H5_SCALEOFFSET 1u /* HDF5's scale-offset filter for integers, the library's
                                choice of bits (h5chunk.c writes its chunks) */
#define OM_H5_NO_FILL 2u     /* no fill value: every chunk is written whole */

/*
 * om_h5_dataset_create: create the dataset `name` in `loc`, of file type
 * `type` and shape `space`, stored in chunks of `chunk` (rank of space
 * entries; NULL: the whole dataset in one chunk) through the filters of
 * `flags` and, last in the pipeline of every dataset, HDF5's Fletcher-32
 * checksum filter, which HDF5 (and h5py, h5dump) verifies whenever it reads a
 * chunk: every dataset of sim/'s files is created here, so every one carries
 * its checksum. `path` (the file) and `shown` (the dataset, "/trials/winner")
 * name it in messages. *out is the open dataset. Errors: OM_EHDF5.
 */
om_status om_h5_dataset_create(hid_t loc, const char *name, hid_t type, hid_t space,
                               const hsize_t *chunk, unsigned flags, const char *path,
                               const char *shown, hid_t *out);

/*
 * om_h5_dataset_checked: that the open dataset `dset` (named `shown` in the
 * file `path`) carries the checksum every dataset of sim/'s files carries.
 * Errors: OM_EHDF5 ("PATH: SHOWN carries no checksum ...").
 */
om_status om_h5_dataset_checked(hid_t dset, const char *path, const char *shown);

/*
 * om_h5_chunk_damaged: after a read of the chunked dataset `dset` failed,
 * whether one of its chunks is damaged: its stored checksum does not match
 * its bytes (as HDF5's Fletcher-32 filter finds on a read), or it cannot be
 * read at all. The first such chunk's elements, clipped to the dataset, run
 * from first[d] to last[d] (inclusive) in each dimension d (the dataset's
 * rank of entries each). The raw chunks are read (H5Dread_chunk) and summed
 * here, not decoded. Leaves HDF5's error stack empty.
 */
bool om_h5_chunk_damaged(hid_t dset, hsize_t *first, hsize_t *last);

/* What a damaged chunk is said to be, after the file, dataset and place. */
#define OM_H5_DAMAGED \
    "the data are damaged (their checksum does not match them): the file cannot be trusted"

/*
 * om_h5_read_whole: read the whole dataset `dset` (named `shown` in the file
 * `path`) into buf, in memory type mtype. A chunk whose checksum does not
 * match is named by its place ("PATH: SHOWN, UNIT 0..12: the data are
 * damaged ...", UNIT saying what the elements are: "counts of values"; a
 * range per dimension in brackets for more than one). Errors: OM_EHDF5.
 */
om_status om_h5_read_whole(hid_t dset, hid_t mtype, void *buf, const char *path,
                           const char *shown, const char *unit);

/* Close an identifier of any kind if it is valid, and set it to H5I_INVALID_HID. */
void om_h5_close_id(hid_t *id);

/* The current UTC time as "YYYY-MM-DDTHH:MM:SSZ" ("unknown" if unavailable). */
void om_h5_utc_now(char buf[OM_H5_UTC_MAX]);

/*
 * om_h5_attr_write: write the scalar attribute `name` of object `obj`, of file
 * type `ftype`, from `value` in memory type `mtype`. `path` names the file in
 * messages. Errors: OM_EHDF5.
 */
om_status om_h5_attr_write(hid_t obj, const char *path, const char *name, hid_t ftype,
                           hid_t mtype, const void *value);

/*
 * om_h5_attr_write_string: a string attribute: fixed-length UTF-8, as long as
 * the text and its NUL (NULL is written as ""). Fixed, not variable-length:
 * a variable-length string's characters lie in HDF5's global heap, which
 * carries no checksum, and HDF5 1.10 reads a damaged one past its end (a
 * crash); a fixed-length one lies in the attribute, whose object header the
 * 1.10 format checksums. Errors: OM_EHDF5.
 */
om_status om_h5_attr_write_string(hid_t obj, const char *path, const char *name,
                                  const char *value);

/* A named text, one of a table of string attributes. */
typedef struct om_h5_text {
    const char *name;  /* attribute name */
    const char *value; /* its text (NULL is written as "") */
} om_h5_text;

/*
 * om_h5_attr_write_texts: the `n` string attributes of `texts` on `obj`, then a
 * "created_utc" attribute with the current time (om_h5_utc_now), as every file
 * records when it was written. Errors: OM_EHDF5 (the first failure).
 */
om_status om_h5_attr_write_texts(hid_t obj, const char *path, const om_h5_text *texts,
                                 size_t n);

/* Members of a record of the table of units (/units/table): id, name, army,
 * side, points. */
#define OM_H5_UNIT_MEMBERS 5

/* Longest text of a unit read from a file, with its NUL: longer ones are cut. */
#define OM_H5_UNIT_TEXT_MAX 256

/*
 * om_h5_unit_table_type: a new compound type of a record of the table of
 * units: id, name and army as fixed-length, NUL-terminated UTF-8 strings of
 * len[0], len[1] and len[2] bytes, side as an enumeration over uint8 naming
 * 0 "a" and 1 "b", points an unsigned 32-bit integer (little-endian in the
 * file: `memory` false; native in memory), packed in that order: member k
 * at offset[k], *record bytes in all. H5I_INVALID_HID on failure; close with
 * H5Tclose.
 */
hid_t om_h5_unit_table_type(const size_t len[3], bool memory, size_t offset[OM_H5_UNIT_MEMBERS],
                            size_t *record);

/* Side keys of the per-side attributes ("points_a", "vp_lost_b"). */
extern const char *const om_h5_side_key[2];

/* The type attribute of a field, by om_field_type: "count", "flag", "winner". */
extern const char *const om_h5_field_type_names[OM_FIELD_TYPES];

/*
 * om_h5_winner_type: a new enumerated type over uint8 naming the winner codes
 * OM_WINNER_A.. by om_winner_names; used as file and memory type, so no
 * conversion happens on write and a read converts by name. H5I_INVALID_HID on
 * failure; close with H5Tclose.
 */
hid_t om_h5_winner_type(void);

/*
 * om_h5_attr_write_u32s: a one-dimensional attribute of n unsigned 32-bit
 * integers. Errors: OM_EHDF5.
 */
om_status om_h5_attr_write_u32s(hid_t obj, const char *path, const char *name,
                                const uint32_t *values, size_t n);

/*
 * om_h5_attr_read_u32s: the integers of a one-dimensional attribute into
 * values[0..cap), their number in *n. Errors: OM_ENOTFOUND, OM_EHDF5 (not 1 to
 * cap integers, unreadable).
 */
om_status om_h5_attr_read_u32s(hid_t obj, const char *path, const char *name, uint32_t *values,
                               size_t cap, size_t *n);

/*
 * om_h5_attr_read_string: the string attribute `name` of `obj` (variable or fixed
 * length), as a new NUL-terminated string owned by the caller (free()).
 * Errors: OM_ENOTFOUND (absent; the message names the attribute), OM_EHDF5 (not
 * a single string, or unreadable), OM_ENOMEM.
 */
om_status om_h5_attr_read_string(hid_t obj, const char *path, const char *name, char **out);

/*
 * om_h5_attr_read_u64: an integer attribute of `obj`; a signed one is accepted
 * when not negative. Errors: OM_ENOTFOUND, OM_EHDF5 (not a single integer,
 * negative, unreadable).
 */
om_status om_h5_attr_read_u64(hid_t obj, const char *path, const char *name, uint64_t *out);

/*
 * om_h5_attr_read_double: a floating-point attribute of `obj`.
 * Errors: OM_ENOTFOUND, OM_EHDF5 (not a single real, unreadable).
 */
om_status om_h5_attr_read_double(hid_t obj, const char *path, const char *name, double *out);

/*
 * om_h5_check_schema: check that the "schema" attribute of `obj` is `expected`.
 * `what` names the kind of file in messages ("result file"). Errors: OM_EHDF5
 * ("PATH: no schema attribute (not an oddsmaster WHAT)", "PATH: schema is 'X',
 * expected 'Y'"), OM_ENOMEM.
 */
om_status om_h5_check_schema(hid_t obj, const char *path, const char *expected,
                             const char *what);

/* The attribute of a result file's root that holds the digest of its run. */
#define OM_H5_PROVENANCE_ATTR "provenance_sha256"

/* The attributes the digest covers, in its order (h5util.c): the run's
 * seed, scenario, options, program version and trials, and what follows
 * from them. */
extern const char *const om_h5_provenance_items[];
extern const size_t om_h5_provenance_count;

/*
 * om_h5_provenance: the digest of the run recorded by the attributes of
 * `file` (om_h5_provenance_items), as the text the attribute
 * OM_H5_PROVENANCE_ATTR holds: a line "all HEX", the SHA-256 of them all,
 * then "ITEM HEX" for each (a new string, owned by the caller). Errors:
 * OM_EHDF5 (an attribute unreadable or of another kind), OM_ENOMEM.
 */
om_status om_h5_provenance(hid_t file, const char *path, char **text);

/*
 * om_h5_provenance_check: that the digest of the run `file` records is the
 * one written when the run began. Errors: OM_EHDF5 ("PATH: seed is not what
 * the digest of the run recorded when the run began ...", naming every item
 * that differs; or the digest missing or damaged), OM_ENOMEM.
 */
om_status om_h5_provenance_check(hid_t file, const char *path);

/*
 * om_h5_tmp_claim: the temporary name of the file that will become `path`,
 * "PATH.tmp-PID" beside it (so the final rename stays in one file system),
 * created empty with open(2) (so a missing directory or a permission problem
 * is reported with the system's reason) and locked: *lock is a descriptor of
 * it holding an exclusive flock(2) lock (or, where the file system has no
 * locks, none), which says that it is being written until it is renamed or
 * removed (om_h5_tmp_finish, om_h5_tmp_discard; h5util.c says why a lock).
 * *tmp_path is owned by the caller. Errors: OM_EIO ("cannot create PATH:
 * REASON"), OM_ENOMEM.
 */
om_status om_h5_tmp_claim(const char *path, char **tmp_path, int *lock);

/*
 * om_h5_tmp_create: create the HDF5 file that will become `path`: its
 * temporary file claimed (om_h5_tmp_claim: *tmp_path, *lock), then created
 * by HDF5 through the buffered driver (om_h5_buffered_fapl), whose
 * registration *driver the caller closes with om_h5_close_id once the file
 * is closed, with the strong close degree (closing the file closes anything
 * left open). On failure nothing is left (H5I_INVALID_HID, NULL, -1).
 * Errors: OM_EIO ("cannot create PATH: REASON"), OM_ENOMEM.
 */
om_status om_h5_tmp_create(const char *path, char **tmp_path, int *lock, hid_t *file,
                           hid_t *driver);

/*
 * om_h5_tmp_finish: end a write whose status so far is `st`, the temporary
 * file *tmp_path being closed: if st is OM_OK, flush it to the disk (fsync)
 * and rename it to `path`, replacing any file there; else, or if that fails,
 * remove it. Then release its lock; *tmp_path is freed (NULL) and *lock -1.
 * Returns the final status (OM_EIO: the flush or rename failed).
 */
om_status om_h5_tmp_finish(const char *path, char **tmp_path, int *lock, om_status st);

/* om_h5_tmp_discard: remove the temporary file *tmp_path (if not NULL),
 * release its lock, free the name (NULL) and set *lock to -1. */
void om_h5_tmp_discard(char **tmp_path, int *lock);

/*
 * om_h5_open_read: open the HDF5 file `path` read-only (strong close degree).
 * A missing or unreadable file, or a directory, gives OM_EIO ("cannot open
 * PATH: REASON"); a file that is not HDF5 gives OM_EHDF5 ("PATH is not an HDF5
 * file"); a damaged or truncated one OM_EHDF5 with HDF5's reason.
 */
om_status om_h5_open_read(const char *path, hid_t *file);

/*
 * om_h5_exact_write: the /exact group of a result file (h5exact.c): the exact
 * law `x` of the fields of layout `l`, each known field's probabilities as a
 * dataset with its checksum. `path` names the file in messages. Errors:
 * OM_EINVAL (a law of another layout), OM_EHDF5, OM_ENOMEM.
 */
om_status om_h5_exact_write(hid_t file, const char *path, const om_layout *l,
                            const om_exact *x);

/* The open file of a reader (h5read.c), for the readers of its other
 * groups (h5exact.c). */
struct om_h5_reader;
hid_t om_h5_reader_file(const struct om_h5_reader *r);

#endif /* OM_H5_INT_H */
