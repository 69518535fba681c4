/*
 * csv.h: the two CSV field writers shared by the analysers' CSV outputs
 * (efficiency, chart data): RFC 4180 quoting for text, and reals that leave
 * undefined values as empty fields. Thread-safe (as stdio).
 */
#ifndef OM_CSV_H
#define OM_CSV_H

#include <stdio.h>

/*
 * om_csv_string: write `s` as one CSV field, quoted (with doubled quotes) when
 * it holds a comma, a quote or a line break; NULL is written as an empty field.
 */
void om_csv_string(FILE *out, const char *s);

/*
 * om_csv_real: write ",VALUE" with 10 significant digits, or "," alone when
 * `v` is NaN or infinite (undefined), so that spreadsheets see an empty cell.
 */
void om_csv_real(FILE *out, double v);

#endif /* OM_CSV_H */
