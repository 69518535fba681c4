/*
 * csv.c: CSV field writers (csv.h).
 */
#include "csv.h"

#include <math.h>
#include <string.h>

void om_csv_string(FILE *out, const char *s)
{
    if (s == NULL)
        return;
    if (strpbrk(s, ",\"\n\r") == NULL) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s != '\0'; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

void om_csv_real(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, ",%.10g", v);
    else
        fputc(',', out);
}
