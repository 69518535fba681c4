/*
 * h5matrix.h: the HDF5 matchup matrix file written by `oddsmaster matrix` (every
 * unit of one list against every unit of another, in one or more situations)
 * and read by `oddsmaster efficiency` and `oddsmaster chart --kind heatmap`.
 *
 * Layout (schema "oddsmaster-matrix/3"; S situations, R row units, C column units):
 *   /                      attributes: schema, program_version, command_line,
 *                          ruleset, data_version (e.g. "warmaster-revolution
 *                          lists 2.25"), row_list, col_list (the army lists of
 *                          the rows and the columns), units_left_out (units
 *                          the lists named that the matrix leaves out, and
 *                          why, one per line; "" none), rng, seed (u64),
 *                          trials_per_cell (u64, 0 if adaptive), target_halfwidth
 *                          (double, 0 if a fixed number of trials), created_utc;
 *                          game (e.g. "warmaster"), kind (of every cell's
 *                          scenario, e.g. "engagement") and options (the
 *                          readings given with `matrix --option`, KEY=VALUE
 *                          separated by spaces; "" none)
 *   /rows/name, /rows/id   [R] fixed-length UTF-8 strings: display name and
 *                          the unit's identifier in the army data
 *   /rows/points           [R] u32: printed points cost of each row unit
 *   /rows/army             [R] strings: the army each unit comes from, as its
 *                          display name ("Empire"; "" unknown)
 *   /rows/troop            [R] strings: troop type, e.g. "infantry", "cavalry",
 *                          "artillery" ("" unknown)
 *   /rows/can_shoot        [R] u8: OM_MATRIX_SHOOTS_UNKNOWN (0), _NO (1), _YES (2)
 *   /cols/...              [C] the same for the column units
 *   /situations/name       [S] strings: short name (id) of each situation
 *   /situations/title      [S] strings: its title for people ("A charges B in
 *                          the open"; "" unknown: readers show the name)
 *   /situations/yaml       [S] strings: the situation text, verbatim
 *   /cells/trials          [S][R][C] u64: trials run in the cell (0: not run)
 *   /cells/wins_row        [S][R][C] u64: trials the row unit won
 *   /cells/draws           [S][R][C] u64: drawn trials
 *   /cells/wins_col        [S][R][C] u64: trials the column unit won
 *   /cells/points_lost_row_sum, /cells/points_lost_col_sum
 *                          [S][R][C] double: sums over the trials of the victory
 *                          points lost by the row (column) unit, so the mean is
 *                          sum / trials
 *   /cells/inapplicable    [S][R][C] u8, optional: OM_MATRIX_ROW_CANNOT (1) when
 *                          the row unit cannot do what the situation asks of it
 *                          (artillery asked to charge, a unit that cannot shoot
 *                          asked to shoot, a defended position it cannot hold),
 *                          plus OM_MATRIX_COL_CANNOT (2) for the column unit.
 *                          Written only when some cell is flagged: a file
 *                          without it has every situation apply to every pair.
 *                          The analysers leave flagged cells out of the ratings.
 *   /trials/winner         [S][R][C][T] u8, optional: each trial's winner, the
 *                          enumerated type of a run file's winner (a: the row
 *                          unit won, b: the column unit, draw, none), trial t
 *                          of cell (s, r, c) at [s][r][c][t] for t below
 *                          /cells/trials (the rest is no trial); T is the
 *                          trials of a fixed cell, or the adaptive cap in
 *                          whole blocks. One chunk holds one cell's trials
 *                          (or OM_H5M_OUTCOME_CHUNK of them). Its counts are
 *                          the cell's: the writer and the reader check them.
 *                          Absent from a file of `matrix --no-rows`, and from
 *                          files written before it was added (as are the
 *                          game, kind and options attributes, read as "").
 *   A matrix of army lists (`matrix --lists`: whole battles, kind "battle",
 *   each situation a leg: the deployment zones and the side taking the first
 *   turn) also has, and only it:
 *   /cells/margin_sq_sum   [S][R][C] double: the sum over the battles of the
 *                          square of the victory-point margin (the row list's
 *                          points scored less the column list's), so that the
 *                          margin's variance is known; its sum is
 *                          points_lost_col_sum - points_lost_row_sum (each
 *                          side's points lost are the other's scored)
 *   /trials/margin         [S][R][C][T] i32, with /trials/winner: each battle's
 *                          margin, battle t of cell (s, r, c) at [s][r][c][t].
 *                          The legs of one pairing draw battle t from the same
 *                          dice (common random numbers), so that they pair up
 *                          battle by battle.
 * Every dataset is chunked and carries HDF5's Fletcher-32 checksum (h5_int.h):
 * an axis in one chunk, a /cells dataset in chunks of one situation
 * ([1][R][C]), so a damaged chunk is named by its situation. Strings are
 * fixed-length UTF-8 (a variable-length string's characters lie outside the
 * dataset, where no checksum covers them); text attributes too.
 * Schema /2 added army, troop, can_shoot, title and inapplicable; /3 the
 * checksums (and fixed-length strings). The readers refuse a /1 file with an
 * error that says to run the matrix again (its units lack what the
 * fair-points model needs to leave out situations a unit cannot take part
 * in), and a /2 file likewise (no checksums). The optional datasets may be
 * missing from a /3 file written by another tool: their defaults are the
 * "unknown" values above.
 * Trials that neither side won nor drew (no contact, unresolved at the turn
 * limit) are trials - wins_row - draws - wins_col. Every /cells dataset has the
 * dimension scales /situations/name, /rows/name and /cols/name attached to its
 * three axes (labelled "situation", "row", "col"), so h5dump and h5py show
 * labelled axes (`f["cells/trials"].dims[1][0]` is the row names), and a
 * "description" attribute.
 *
 * The writer keeps the cells in memory (a matrix is small: 100 x 100 units in
 * 10 situations is 6 MB) and writes them at close, to a temporary file renamed
 * to the target only when complete. Cells never put are written as all zero:
 * "not run". Not thread-safe: one writer is used by one thread at a time.
 */
#ifndef OM_H5MATRIX_H
#define OM_H5MATRIX_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"

/* Schema identifier written to the root "schema" attribute. */
#define OM_H5M_SCHEMA "oddsmaster-matrix/3"

/* The schema of the matrix files before every dataset carried a checksum,
 * refused with a clear error. */
#define OM_H5M_SCHEMA_V2 "oddsmaster-matrix/2"

/* Most trials of one chunk of /trials/winner: 64 KiB, a cell of the default
 * 20,000 trials in one chunk. */
#define OM_H5M_OUTCOME_CHUNK 65536u

/* The schema of the first matrix files, refused with a clear error. */
#define OM_H5M_SCHEMA_V1 "oddsmaster-matrix/1"

/* Whether a unit can shoot (om_matrix_unit.can_shoot; 0 when nobody said). */
enum {
    OM_MATRIX_SHOOTS_UNKNOWN = 0, /* not recorded */
    OM_MATRIX_SHOOTS_NO = 1,      /* has no shooting attacks */
    OM_MATRIX_SHOOTS_YES = 2      /* can shoot (stand and shoot, volleys) */
};

/* Bits of om_matrix_cell.inapplicable (0: the situation applies to both units). */
enum {
    OM_MATRIX_ROW_CANNOT = 1, /* the row unit cannot do what the situation asks of it */
    OM_MATRIX_COL_CANNOT = 2  /* the column unit cannot */
};

/* One unit of a matrix axis. */
typedef struct om_matrix_unit {
    const char *name; /* display name, e.g. "Knights" */
    const char *id;   /* identifier in the army data, e.g. "empire/knights" */
    uint32_t points;  /* printed points cost (0: unknown) */
    const char *army; /* army display name, e.g. "Empire" (NULL or "": unknown) */
    const char *troop; /* troop type, e.g. "infantry" (NULL or "": unknown) */
    uint8_t can_shoot; /* OM_MATRIX_SHOOTS_* */
} om_matrix_unit;

/* One situation: how the row unit meets the column unit. */
typedef struct om_matrix_situation {
    const char *name;  /* short name, e.g. "a-charges" */
    const char *yaml;  /* the situation text, verbatim */
    const char *title; /* for people, e.g. "A charges B in the open" (NULL or "": the name) */
} om_matrix_situation;

/* What a matrix holds and where it came from (the root attributes and axes). */
typedef struct om_matrix_info {
    const char *program_version; /* OM_VERSION of the writer */
    const char *command_line;    /* the command as typed */
    const char *ruleset;         /* rule set identifier */
    const char *data_version;    /* version of the army data, e.g. "... lists 2.25" */
    const char *row_list;        /* army list of the rows, e.g. "Empire" (may be "") */
    const char *col_list;        /* army list of the columns (may be "") */
    const char *units_left_out;  /* units the lists named that the matrix leaves out, and
                                    why, one per line (may be "") */
    const char *rng_scheme;      /* OM_RNG_SCHEME of the runs */
    uint64_t seed;               /* master seed */
    uint64_t trials_per_cell;    /* fixed trials per cell, 0 if adaptive */
    double target_halfwidth;     /* adaptive target half-width of P(win), 0 if fixed */
    const char *game;            /* the game of the rule set, e.g. "warmaster" (may be "") */
    const char *kind;            /* the kind of every cell, e.g. "engagement" (may be "") */
    const char *options;         /* the readings set for every cell, "KEY=VALUE" separated
                                    by spaces (may be "": all at their defaults) */
    uint64_t outcome_trials;     /* T of /trials/winner: room for each cell's trials; 0 when
                                    the file keeps no trial's winner */
    bool battle_margins;         /* a matrix of army lists: /cells/margin_sq_sum, and
                                    /trials/margin beside /trials/winner */
    size_t n_situations;         /* S, at least 1 */
    size_t n_rows;               /* R, at least 1 */
    size_t n_cols;               /* C, at least 1 */
    const om_matrix_situation *situations; /* [S] */
    const om_matrix_unit *rows;  /* [R] */
    const om_matrix_unit *cols;  /* [C] */
} om_matrix_info;

/* The results of one cell: one row unit against one column unit in one situation. */
typedef struct om_matrix_cell {
    uint64_t trials;            /* trials run (0: cell not run) */
    uint64_t wins_row;          /* trials won by the row unit */
    uint64_t draws;             /* drawn trials */
    uint64_t wins_col;          /* trials won by the column unit */
    double points_lost_row_sum; /* sum over trials of the points the row unit lost */
    double points_lost_col_sum; /* sum over trials of the points the column unit lost */
    uint8_t inapplicable;       /* OM_MATRIX_ROW_CANNOT | OM_MATRIX_COL_CANNOT; 0: applies */
    double margin_sq_sum;       /* a matrix of army lists: sum over trials of the squared
                                   margin, points lost by the column less by the row (0
                                   otherwise) */
} om_matrix_cell;

/* A matrix read back from a file: `info` and every cell, owned by the struct. */
typedef struct om_matrix {
    char *path;          /* the file it was read from */
    const char *created_utc; /* when it was written (a string of `strings`) */
    om_matrix_info info; /* provenance and axes; its strings belong to the matrix */
    om_matrix_cell *cells; /* [S][R][C], row-major: om_matrix_at */
    char **strings;      /* every string the matrix owns (freed by om_h5m_matrix_free) */
    size_t n_strings;    /* entries of strings */
    om_matrix_unit *units; /* storage of info.rows then info.cols */
    om_matrix_situation *sits; /* storage of info.situations */
} om_matrix;

/* The cell of situation s, row r, column c (indices checked by assert only). */
static inline om_matrix_cell *om_matrix_at(const om_matrix *m, size_t s, size_t r, size_t c)
{
    assert(s < m->info.n_situations && r < m->info.n_rows && c < m->info.n_cols);
    return &m->cells[(s * m->info.n_rows + r) * m->info.n_cols + c];
}

typedef struct om_h5m_writer om_h5m_writer;

/*
 * om_h5m_writer_create: start a matrix file at `path` with the axes and
 * provenance of `info`, which is copied (the caller's strings may go after the
 * call). Names must be non-empty; ids may be empty. Errors: OM_EINVAL (an empty
 * axis, a missing name, a negative or non-finite target_halfwidth), OM_EIO (cannot
 * create the file), OM_EHDF5, OM_ENOMEM.
 */
om_status om_h5m_writer_create(om_h5m_writer **out, const char *path,
                               const om_matrix_info *info);

/*
 * om_h5m_writer_put_cell: record the results of cell (s, r, c), replacing any
 * earlier put. Errors: OM_EINVAL (index out of range; wins_row + draws + wins_col
 * greater than trials; a negative or non-finite points sum; inapplicable bits
 * other than OM_MATRIX_ROW_CANNOT | OM_MATRIX_COL_CANNOT).
 */
om_status om_h5m_writer_put_cell(om_h5m_writer *w, size_t s, size_t r, size_t c,
                                 const om_matrix_cell *cell);

/*
 * om_h5m_writer_put_outcomes: write the winner codes of the n trials of cell
 * (s, r, c) (OM_WINNER_A when the row unit won, ...) to /trials/winner, at
 * once (the file's only dataset written before close). Its counts must be
 * the cell's, put before close: close checks them. Errors: OM_EINVAL (a
 * writer of no winners, index out of range, more than outcome_trials trials,
 * a code that is no winner code), OM_EHDF5.
 */
om_status om_h5m_writer_put_outcomes(om_h5m_writer *w, size_t s, size_t r, size_t c,
                                     const uint8_t *codes, uint64_t n);

/*
 * om_h5m_writer_put_margins: write the victory-point margins of the n
 * battles of cell (s, r, c) (the row's points scored less the column's) to
 * /trials/margin, in a matrix of army lists that keeps each trial's winner.
 * Their sum must be the cell's (points_lost_col_sum - points_lost_row_sum)
 * and their squares' margin_sq_sum: close checks them. Errors: OM_EINVAL (a
 * writer without margins, index out of range, more than outcome_trials),
 * OM_EHDF5.
 */
om_status om_h5m_writer_put_margins(om_h5m_writer *w, size_t s, size_t r, size_t c,
                                    const int32_t *margins, uint64_t n);

/*
 * om_h5m_writer_close: write every dataset, attach the dimension scales, close
 * and move the temporary file to its final path; frees `w` whatever happens. On
 * failure the temporary file is removed. Errors: OM_EINVAL (NULL; a file of
 * winners whose winners of a cell were not put, or do not count what the cell
 * does), OM_EHDF5, OM_EIO.
 */
om_status om_h5m_writer_close(om_h5m_writer *w);

/* om_h5m_writer_abort: close, remove the temporary file and free `w` (NULL allowed). */
void om_h5m_writer_abort(om_h5m_writer *w);

/*
 * om_h5m_read: read the whole matrix file `path` into a new om_matrix (caller
 * frees with om_h5m_matrix_free). Checks the schema, that every axis dataset has
 * one entry per unit or situation and every cell dataset the shape [S][R][C],
 * and that each cell is consistent (wins and draws at most the trials, points
 * sums finite and not negative), and that every dataset carries its checksum.
 * Optional datasets that are absent take their defaults (layout above).
 * Errors: OM_EIO (missing or unreadable file), OM_EHDF5 (not HDF5, damaged: a
 * chunk whose checksum does not match, named by its dataset and situation or
 * entries; not a matrix file, a /1 or /2 file, or inconsistent: the message
 * names the file and the attribute or dataset that is wrong),
 * OM_ENOMEM, OM_EINVAL (NULL arguments).
 */
om_status om_h5m_read(const char *path, om_matrix **out);

/* Free a matrix read by om_h5m_read (NULL allowed). */
void om_h5m_matrix_free(om_matrix *m);

/* The per-trial winners of a matrix file, open for reading cell by cell. */
typedef struct om_h5m_outcomes om_h5m_outcomes;

/*
 * om_h5m_outcomes_open: open /trials/winner of the matrix `m` (read from its
 * file, m->path, whose m->info.outcome_trials is not 0) for reading. Free
 * with om_h5m_outcomes_close. Errors: OM_EINVAL (a matrix without winners),
 * OM_EIO, OM_EHDF5 (the dataset is not [S][R][C][T] of the file's axes, or not
 * of the winner type), OM_ENOMEM.
 */
om_status om_h5m_outcomes_open(const om_matrix *m, om_h5m_outcomes **out);

/*
 * om_h5m_outcomes_read: the winner codes of the trials of cell (s, r, c)
 * (/cells/trials of them) into codes[0..trials), checked against the cell's
 * counts. Not thread-safe for one handle. Errors: OM_EINVAL (index out of
 * range), OM_EHDF5 (unreadable, a code that is no winner code, or winners
 * that do not count what the cell does, naming the cell).
 */
om_status om_h5m_outcomes_read(om_h5m_outcomes *o, size_t s, size_t r, size_t c,
                               uint8_t *codes);

/*
 * om_h5m_margins_read: the victory-point margins of the battles of cell
 * (s, r, c) of a matrix of army lists (/cells/trials of them) into
 * margins[0..trials), checked against the cell's sums. Errors: OM_EINVAL
 * (index out of range, a matrix without margins), OM_EHDF5 (unreadable, or
 * margins that do not add up to the cell's, naming the cell).
 */
om_status om_h5m_margins_read(om_h5m_outcomes *o, size_t s, size_t r, size_t c,
                              int32_t *margins);

/* Close what om_h5m_outcomes_open opened (NULL allowed). */
void om_h5m_outcomes_close(om_h5m_outcomes *o);

/*
 * om_h5m_file_schema: the "schema" attribute of the HDF5 file `path` (a new
 * string, caller frees), so a command can tell a run file from a matrix file
 * before choosing a reader. Errors: those of opening (OM_EIO, OM_EHDF5),
 * OM_ENOTFOUND (no schema attribute), OM_ENOMEM.
 */
om_status om_h5m_file_schema(const char *path, char **out);

#endif /* OM_H5MATRIX_H */
