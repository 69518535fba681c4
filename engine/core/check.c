/*
 * check.c: filling an om_check_failure and raising its error (check.h), for
 * the checks of every game.
 */
#include "check.h"

#include <stdio.h>

om_status om_check_failv(om_check_failure *why, const char *field, const char *fmt, va_list ap)
{
    om_check_failure local;
    if (why == NULL)
        why = &local;
    snprintf(why->field, sizeof why->field, "%s", field);
    vsnprintf(why->reason, sizeof why->reason, fmt, ap);
    return OM_ERROR(OM_EINVAL, "field '%s': %s", why->field, why->reason);
}

om_status om_check_fail(om_check_failure *why, const char *field, const char *fmt, ...)
{
    va_list ap;
    om_status st;
    va_start(ap, fmt);
    st = om_check_failv(why, field, fmt, ap);
    va_end(ap);
    return st;
}

om_status om_check_fail_item(om_check_failure *why, const char *list, int index,
                             const char *key, const char *fmt, ...)
{
    char field[sizeof why->field];
    va_list ap;
    om_status st;
    if (index < 0)
        snprintf(field, sizeof field, "%s", list);
    else
        snprintf(field, sizeof field, "%s[%d]%s", list, index, key);
    va_start(ap, fmt);
    st = om_check_failv(why, field, fmt, ap);
    va_end(ap);
    return st;
}

om_status om_check_range(om_check_failure *why, const char *field, unsigned value, unsigned lo,
                         unsigned hi)
{
    if (value >= lo && value <= hi)
        return OM_OK;
    return om_check_fail(why, field, "must be %u to %u (got %u)", lo, hi, value);
}
