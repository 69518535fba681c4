/*
 * output.c: helpers shared by the analysers' report writers (see output.h).
 */
#include "output.h"

#include <errno.h>
#include <string.h>

om_status om_output_finish(FILE *out, const char *what)
{
    if (fflush(out) != 0 || ferror(out))
        return OM_ERROR(OM_EIO, "cannot write the %s: %s", what,
                        errno != 0 ? strerror(errno) : "write error");
    return OM_OK;
}

json_t *om_output_json_u64(uint64_t v)
{
    char text[24];
    if (v <= (uint64_t)INT64_MAX)
        return json_integer((json_int_t)v);
    snprintf(text, sizeof text, "%llu", (unsigned long long)v);
    return json_string(text);
}
