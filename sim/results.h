/*
 * results.h: the per-trial outcome fields written to result files, and the
 * provenance of a run.
 *
 * One table (om_results_fields) names every per-trial field of om_wm_outcome with
 * its dataset name, description and the kinds of engagement that produce it. The
 * HDF5 writer, the reader and the summary analyser all work from this table, so a
 * new outcome field is added in one place.
 */
#ifndef OM_RESULTS_H
#define OM_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "wm.h"

/* How a field is stored. */
typedef enum om_field_type {
    OM_FIELD_COUNT = 0, /* uint8 count or distance */
    OM_FIELD_FLAG,      /* uint8 0/1 */
    OM_FIELD_WINNER     /* uint8 enum: a, b, draw, none (HDF5 enumerated type) */
} om_field_type;

/* Bit masks of om_wm_kind values that produce a field. */
#define OM_KIND_MASK_COMBAT (1u << OM_WM_KIND_COMBAT)
#define OM_KIND_MASK_VOLLEY (1u << OM_WM_KIND_VOLLEY)
#define OM_KIND_MASK_ENGAGEMENT (1u << OM_WM_KIND_ENGAGEMENT)

/* One per-trial field: a dataset /trials/<name> of uint8, one row per trial. */
typedef struct om_field {
    const char *name;        /* dataset name, e.g. "stands_lost_a" */
    const char *description; /* one sentence, stored as the dataset's attribute */
    size_t offset;           /* offset of the uint8 in om_wm_outcome */
    om_field_type type;      /* storage kind */
    unsigned kinds;          /* OM_KIND_MASK_* of the kinds that produce it */
} om_field;

/* All per-trial fields, in dataset order. */
extern const om_field om_results_fields[];
extern const size_t om_results_field_count;

/* Find a field by dataset name; NULL if none. */
const om_field *om_results_field_find(const char *name);

/* The value of field `f` in outcome `o`. */
static inline uint8_t om_results_get(const om_field *f, const om_wm_outcome *o)
{
    return ((const uint8_t *)o)[f->offset];
}

/* Winner codes as written in the HDF5 enumerated type (same as OM_WM_SIDE_A...). */
extern const char *const om_results_winner_names[4];

/* Provenance of a run, written as attributes on the root group of the file. */
typedef struct om_run_info {
    const char *program_version; /* OM_VERSION */
    const char *command_line;    /* the command as typed */
    const char *scenario_name;   /* scenario file path or "<embedded default>" */
    const char *scenario_text;   /* the scenario file verbatim */
    const char *title;           /* scenario title */
    const char *ruleset;         /* rule set identifier */
    const char *kind;            /* "combat", "engagement" or "volley" */
    const char *side_name[2];    /* unit names of sides A and B */
    const char *options_json;    /* resolved engagement and rule options as JSON */
    const char *rng_scheme;      /* OM_RNG_SCHEME */
    uint64_t seed;               /* master seed */
    uint64_t trials;             /* number of trials */
    uint64_t block_size;         /* trials per random stream block */
    uint32_t threads;            /* threads used (results do not depend on it) */
    uint32_t points[2];          /* unit points of sides A and B (0: unknown) */
    uint32_t kind_mask;          /* OM_KIND_MASK_* of the run: which fields exist */
} om_run_info;

#endif /* OM_RESULTS_H */
