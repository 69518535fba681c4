/*
 * status.h: status codes and the single error-raising path of oddsmaster.
 *
 * Every failing function returns an om_status and goes through OM_ERROR, which
 * records the message, the source file and the line in a per-thread slot, so that
 * main() can print one clear message and map the code to an exit status. A
 * breakpoint on om_error_raise catches every failure (the GSL_ERROR pattern).
 * Library code never exits or aborts.
 */
#ifndef OM_STATUS_H
#define OM_STATUS_H

#include <stdbool.h>

/* Status codes. Values are stable: the CLI maps them to exit codes
 * (cli/cli.h; docs/manual.md, "Exit codes"). */
typedef enum om_status {
    OM_OK = 0,      /* success */
    OM_EINVAL = 1,  /* invalid argument or impossible value */
    OM_ENOMEM = 2,  /* allocation failed */
    OM_EIO = 3,     /* file could not be read or written */
    OM_EPARSE = 4,  /* malformed input file (scenario, army list) */
    OM_EHDF5 = 5,   /* HDF5 library failure or corrupt result file */
    OM_ENOTFOUND = 6, /* a named thing (unit, army, rule set) does not exist */
    OM_EUNSUPPORTED = 7 /* valid request the engine does not implement */
} om_status;

/* Largest message the error slot keeps; longer messages are truncated. */
#define OM_ERROR_MSG_MAX 1024

/*
 * om_error_raise: record an error in the calling thread's slot and return `code`.
 * `fmt` is a printf format for a complete sentence saying what is wrong and, for
 * input errors, naming the file, line and field. Thread-safe (per-thread slot).
 * Use through OM_ERROR so the source location is captured.
 */
om_status om_error_raise(const char *src_file, int src_line, om_status code,
                         const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Record and return an error: `return OM_ERROR(OM_EINVAL, "stands must be 1..%d", n);` */
#define OM_ERROR(code, ...) om_error_raise(__FILE__, __LINE__, (code), __VA_ARGS__)

/* The message of the calling thread's last error ("" if none). */
const char *om_error_message(void);

/* The code of the calling thread's last error (OM_OK if none). */
om_status om_error_code(void);

/* Source location ("file.c:123") of the last error, for --verbose diagnostics. */
const char *om_error_where(void);

/* Forget the calling thread's last error. */
void om_error_clear(void);

/* A short name for a status code ("invalid value", "parse error", ...). */
const char *om_status_name(om_status code);

/*
 * ALWAYS/NEVER mark defensive branches for conditions believed impossible
 * (SQLite's idiom): they assert in debug builds and evaluate to the condition
 * in release builds, so the defensive path still runs there.
 */
#ifndef NDEBUG
#include <assert.h>
#define ALWAYS(x) (assert(x), 1)
#define NEVER(x) (assert(!(x)), 0)
#else
#define ALWAYS(x) (x)
#define NEVER(x) (x)
#endif

#endif /* OM_STATUS_H */
