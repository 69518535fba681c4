/*
 * options.c: finding, setting and printing the switches of a registry of
 * readings of ambiguous rules (options.h). Switches are read and written
 * through their byte offset in the game's options struct: a bool, or a
 * uint8_t count.
 */
#include "options.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const om_option *om_option_find(const om_option_table *t, const char *name)
{
    for (size_t i = 0; i < t->count; i++)
        if (strcmp(t->rows[i].name, name) == 0)
            return &t->rows[i];
    return NULL;
}

om_status om_option_set(const om_option_table *t, void *options, const char *name,
                        const char *value)
{
    const om_option *opt = om_option_find(t, name);
    unsigned char *member;
    if (opt == NULL)
        return OM_ERROR(OM_ENOTFOUND, "unknown option '%s' (see oddsmaster list --options)",
                        name);
    if (!om_option_is_switch(opt))
        return OM_ERROR(OM_EINVAL, "option '%s' is a fixed reading, not a switch", name);
    member = (unsigned char *)options + opt->offset;
    if (opt->max > 0) {
        char *end = NULL;
        long v = strtol(value, &end, 10);
        if (end == value || *end != '\0' || v < 0 || v > (long)opt->max)
            return OM_ERROR(OM_EINVAL, "option '%s' must be 0 to %u (got '%s')", name, opt->max,
                            value);
        *member = (uint8_t)v;
        return OM_OK;
    }
    if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0)
        return OM_ERROR(OM_EINVAL, "option '%s' must be true or false (got '%s')", name, value);
    {
        const bool b = strcmp(value, "true") == 0;
        memcpy(member, &b, sizeof b);
    }
    return OM_OK;
}

const char *om_option_value(const om_option *opt, const void *options, char *buf, size_t size)
{
    const unsigned char *member;
    bool b;
    if (!om_option_is_switch(opt))
        return "fixed";
    member = (const unsigned char *)options + opt->offset;
    if (opt->max > 0) {
        snprintf(buf, size, "%u", (unsigned)*member);
        return buf;
    }
    memcpy(&b, member, sizeof b);
    return b ? "true" : "false";
}
