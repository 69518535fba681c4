/*
 * output.h: helpers shared by the analysers' report writers (summary,
 * efficiency): finishing a report stream with one error path, and JSON for
 * unsigned 64-bit values, which jansson's signed integers cannot all hold.
 */
#ifndef OM_OUTPUT_H
#define OM_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "status.h"

/*
 * om_output_finish: flush `out` and check it for errors. Returns OM_OK, or
 * OM_EIO with "cannot write the WHAT: REASON" (`what`, e.g. "summary").
 */
om_status om_output_finish(FILE *out, const char *what);

/* A JSON integer for v, or its decimal string when it exceeds INT64_MAX (a
 * seed may); NULL when out of memory. */
json_t *om_output_json_u64(uint64_t v);

#endif /* OM_OUTPUT_H */
