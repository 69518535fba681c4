/*
 * check.h: how an engine's check of a scenario says what is wrong: the dotted
 * path of the offending field as scenario files write it, and the reason.
 * Every game's checks fill one om_check_failure through these functions, so a
 * loader can add the file and line of that field to the message.
 */
#ifndef OM_CHECK_H
#define OM_CHECK_H

#include <stdarg.h>

#include "status.h"

/* Where and why a check failed. */
typedef struct om_check_failure {
    char field[96];   /* dotted path of the offending field, e.g. "a.unit.stands" or
                         "units[2].at" */
    char reason[256]; /* what is wrong, e.g. "must be 1 to 12 (got 0)" */
} om_check_failure;

/*
 * om_check_fail: fill *why (NULL allowed: the message alone) with `field` and
 * the printf-formatted reason, and raise OM_EINVAL with the message "field
 * 'FIELD': REASON". Returns OM_EINVAL. Text longer than the buffers is cut.
 */
om_status om_check_fail(om_check_failure *why, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* om_check_failv: the same with a va_list. */
om_status om_check_failv(om_check_failure *why, const char *field, const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 0)))
#endif
    ;

/*
 * om_check_fail_item: the same for item `index` of list `list`, the field
 * path "LIST[INDEX]KEY" (just LIST when index < 0; KEY such as ".at", or "").
 */
om_status om_check_fail_item(om_check_failure *why, const char *list, int index,
                             const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* om_check_range: OM_OK when lo <= value <= hi, else om_check_fail of `field`
 * with "must be LO to HI (got VALUE)". */
om_status om_check_range(om_check_failure *why, const char *field, unsigned value, unsigned lo,
                         unsigned hi);

#endif /* OM_CHECK_H */
