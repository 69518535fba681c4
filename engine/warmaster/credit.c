/*
 * credit.c: the ledger of who removed whose stands over a battle and the
 * sharing of each unit's victory points among the enemy units that removed
 * them, in whole points summing exactly (credit.h). Runs inside a battle: no
 * allocation, no formatting, no checks.
 */
#include "credit.h"

#include <math.h>
#include <string.h>

void om_wm_credit_clear(om_wm_credit *c, unsigned units)
{
    for (unsigned v = 0; v < units; v++)
        memset(c->by[v], 0, units * sizeof c->by[v][0]);
}

void om_wm_credit_add(om_wm_credit *c, unsigned victim, unsigned lost, const float *weight,
                      unsigned units)
{
    float total = 0;
    if (lost == 0)
        return;
    for (unsigned a = 0; a < units; a++)
        total += weight[a];
    if (total <= 0)
        return;
    for (unsigned a = 0; a < units; a++)
        if (weight[a] > 0)
            c->by[victim][a] += (float)lost * weight[a] / total;
}

bool om_wm_credit_share(const float *weight, unsigned n, uint32_t amount, uint32_t *out)
{
    double total = 0, rest[OM_WM_TABLE_MAX_UNITS];
    uint32_t given = 0;
    for (unsigned a = 0; a < n; a++)
        total += weight[a] > 0 ? weight[a] : 0;
    if (total <= 0)
        return false;
    for (unsigned a = 0; a < n; a++) {
        const double exact = weight[a] > 0 ? (double)amount * weight[a] / total : 0;
        double whole = floor(exact);
        if (whole > amount - given) /* rounding never passes the amount */
            whole = amount - given;
        out[a] += (uint32_t)whole;
        given += (uint32_t)whole;
        rest[a] = weight[a] > 0 ? exact - whole : -1;
    }
    /* The points left over, one each to the largest remainders; with every
     * remainder spent (rounding), the next pass starts again. */
    while (given < amount) {
        int best = -1;
        for (unsigned a = 0; a < n; a++)
            if (rest[a] >= 0 && (best < 0 || rest[a] > rest[best]))
                best = (int)a;
        if (best < 0) {
            for (unsigned a = 0; a < n; a++)
                rest[a] = weight[a] > 0 ? 0 : -1;
            continue;
        }
        out[best]++;
        given++;
        rest[best] = -1;
    }
    return true;
}
