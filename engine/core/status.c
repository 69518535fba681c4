/*
 * status.c: the per-thread last-error slot behind OM_ERROR.
 *
 * The slot is thread-local, so OpenMP workers can fail independently without
 * locks; it is the only mutable state with static storage in the project and it
 * holds nothing that influences results.
 */
#include "status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct om_error_slot {
    om_status code;                 /* last error code, OM_OK if none */
    char message[OM_ERROR_MSG_MAX]; /* formatted message of the last error */
    char where[128];                /* "file.c:line" where it was raised */
} om_error_slot;

static _Thread_local om_error_slot om_last_error;

om_status om_error_raise(const char *src_file, int src_line, om_status code,
                         const char *fmt, ...)
{
    va_list ap;
    const char *base = strrchr(src_file, '/');
    char message[sizeof om_last_error.message];
    om_last_error.code = code;
    /* Formatted apart, then copied: an error raised with the last one's
     * message as an argument (om_error_message()) must not read the slot
     * while it is written. */
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    memcpy(om_last_error.message, message, sizeof message);
    snprintf(om_last_error.where, sizeof om_last_error.where, "%s:%d",
             base ? base + 1 : src_file, src_line);
    return code;
}

const char *om_error_message(void) { return om_last_error.message; }

om_status om_error_code(void) { return om_last_error.code; }

const char *om_error_where(void) { return om_last_error.where; }

void om_error_clear(void)
{
    om_last_error.code = OM_OK;
    om_last_error.message[0] = '\0';
    om_last_error.where[0] = '\0';
}

const char *om_status_name(om_status code)
{
    switch (code) {
    case OM_OK: return "ok";
    case OM_EINVAL: return "invalid value";
    case OM_ENOMEM: return "out of memory";
    case OM_EIO: return "i/o error";
    case OM_EPARSE: return "parse error";
    case OM_EHDF5: return "hdf5 error";
    case OM_ENOTFOUND: return "not found";
    case OM_EUNSUPPORTED: return "not supported";
    }
    return "unknown error";
}
