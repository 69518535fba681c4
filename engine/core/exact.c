/*
 * exact.c: the exact law of a layout's fields (exact.h): its storage, its
 * moments, and its computation by enumerating every outcome of a trial's
 * dice (enumerate.h), each row adding its probability to the value of each
 * field it holds.
 */
#include "exact.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enumerate.h"

om_status om_exact_alloc(size_t field_count, om_exact **out)
{
    om_exact *x;
    *out = NULL;
    if (field_count > OM_LAYOUT_FIELDS_MAX)
        return OM_ERROR(OM_EINVAL, "an exact law of %zu fields (at most %d)", field_count,
                        OM_LAYOUT_FIELDS_MAX);
    if ((x = calloc(1, sizeof *x)) == NULL ||
        (x->p = calloc(field_count > 0 ? field_count * OM_EXACT_VALUES : 1, sizeof *x->p)) ==
            NULL) {
        free(x);
        return OM_ERROR(OM_ENOMEM, "out of memory for an exact law");
    }
    x->field_count = field_count;
    *out = x;
    return OM_OK;
}

void om_exact_free(om_exact *x)
{
    if (x == NULL)
        return;
    free(x->p);
    free(x);
}

double om_exact_at_least(const om_exact *x, size_t k, unsigned v)
{
    double tail = 0.0;
    /* Summed from the top: a small tail keeps its relative precision. */
    for (unsigned w = OM_EXACT_VALUES; w-- > v;)
        tail += om_exact_p(x, k, w);
    return tail;
}

double om_exact_mean(const om_exact *x, size_t k)
{
    double mean = 0.0;
    for (unsigned v = 0; v < OM_EXACT_VALUES; v++)
        mean += v * om_exact_p(x, k, v);
    return mean;
}

double om_exact_sd(const om_exact *x, size_t k)
{
    const double mean = om_exact_mean(x, k);
    double var = 0.0;
    for (unsigned v = 0; v < OM_EXACT_VALUES; v++)
        var += (v - mean) * (v - mean) * om_exact_p(x, k, v);
    return sqrt(var);
}

unsigned om_exact_max(const om_exact *x, size_t k)
{
    for (unsigned v = OM_EXACT_VALUES; v-- > 0;)
        if (om_exact_p(x, k, v) > 0.0)
            return v;
    return 0;
}

size_t om_exact_known_count(const om_exact *x)
{
    size_t n = 0;
    for (size_t k = 0; k < x->field_count; k++)
        n += x->known[k];
    return n;
}

void om_exact_set_method(om_exact *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->method, sizeof x->method, fmt, ap);
    va_end(ap);
}

void om_exact_set_reason(om_exact *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->reason, sizeof x->reason, fmt, ap);
    va_end(ap);
}

om_status om_exact_check(const om_exact *x, const om_layout *l, const char *what)
{
    for (size_t k = 0; k < x->field_count; k++) {
        double sum = 0.0;
        if (!x->known[k])
            continue;
        for (unsigned v = 0; v < OM_EXACT_VALUES; v++) {
            const double p = om_exact_p(x, k, v);
            if (!(p >= 0.0 && p <= 1.0 + OM_EXACT_SUM_TOL))
                return OM_ERROR(OM_EINVAL, "%s: P(%s = %u) is %g", what, l->fields[k].name, v,
                                p);
            sum += p;
        }
        if (fabs(sum - 1.0) > OM_EXACT_SUM_TOL)
            return OM_ERROR(OM_EINVAL, "%s: the probabilities of %s sum to %.17g", what,
                            l->fields[k].name, sum);
    }
    return OM_OK;
}

om_status om_exact_enumerate(om_exact_trial trial, const void *ctx, const om_layout *l,
                             const bool *fields, uint64_t max_runs, om_exact *x)
{
    bool want[OM_LAYOUT_FIELDS_MAX] = {false}, more = true;
    double *law;
    uint8_t *row;
    om_enum *e = NULL;
    om_dice d;
    om_status st;

    if (l->field_count != x->field_count)
        return OM_ERROR(OM_EINVAL, "an exact law of %zu fields for a layout of %zu",
                        x->field_count, l->field_count);
    for (size_t k = 0; k < l->field_count; k++)
        want[k] = (fields == NULL || fields[k]) && l->fields[k].type != OM_FIELD_COUNT16;
    /* The law is built apart and copied in only when complete. */
    law = calloc(l->field_count * OM_EXACT_VALUES + 1, sizeof *law);
    row = calloc(l->row_size + 1, 1);
    if (law == NULL || row == NULL) {
        free(law);
        free(row);
        return OM_ERROR(OM_ENOMEM, "out of memory for an exact law");
    }
    if ((st = om_enum_alloc(max_runs, &e)) == OM_OK) {
        om_enum_start(e, &d);
        while (more && st == OM_OK) {
            double p;
            memset(row, 0, l->row_size);
            trial(ctx, &d, row);
            if ((st = om_enum_next(e, &d, &p, &more)) != OM_OK)
                break;
            for (size_t k = 0; k < l->field_count; k++)
                if (want[k])
                    law[k * OM_EXACT_VALUES + row[l->fields[k].offset]] += p;
        }
    }
    if (st == OM_OK) {
        om_exact tmp = *x;
        tmp.p = law;
        for (size_t k = 0; k < l->field_count; k++)
            tmp.known[k] = want[k];
        st = om_exact_check(&tmp, l, "the enumerated law");
    }
    if (st == OM_OK) {
        for (size_t k = 0; k < l->field_count; k++) {
            if (!want[k])
                continue;
            x->known[k] = true;
            memcpy(x->p + k * OM_EXACT_VALUES, law + k * OM_EXACT_VALUES,
                   OM_EXACT_VALUES * sizeof *law);
        }
        x->outcomes = om_enum_runs(e);
        om_exact_set_method(x, "enumerating every outcome of the dice (%llu outcomes)",
                            (unsigned long long)x->outcomes);
    }
    om_enum_free(e);
    free(law);
    free(row);
    return st;
}
