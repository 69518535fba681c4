/*
 * summary_lists.c: the summary of a matrix of army lists (`oddsmaster matrix
 * --lists`, h5matrix.h with battle_margins): for each pairing, the odds of
 * side A (the row list) winning, drawing and losing and the victory-point
 * margin, pooled over the four legs, and the effects of taking the first turn
 * and of the deployment zones, with intervals.
 *
 * The legs of one pairing draw battle t from the same dice (common random
 * numbers), so they are not independent: where the file keeps each battle's
 * winner and margin, every statistic is the mean over the battle indices t of
 * a function of the four legs' battle t (the pooled indicator, the difference
 * of the legs A takes the first turn in less those B does, ...), whose values
 * are independent from one t to the next, and its interval is the normal one
 * from their sample variance (paired). A file of `--no-rows` keeps the sums
 * only: the legs are then taken as independent, which the report says.
 */
#include "summary.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"

/* The legs as the list matrix names its situations (sim/matrix_lists.c):
 * side A's zone (0 south, 1 north) and the side taking the first turn. */
static const struct {
    const char *name;
    unsigned north, b_first;
} leg_names[OM_SUMMARY_LEGS] = {
    {"south-a-first", 0, 0},
    {"south-b-first", 0, 1},
    {"north-a-first", 1, 0},
    {"north-b-first", 1, 1},
};

/* The two-sided normal quantile of a confidence. */
static double z_of(double confidence)
{
    return gsl_cdf_ugaussian_Pinv(1.0 - (1.0 - confidence) / 2.0);
}

/* An estimate with its interval from a mean and its standard error; lo and hi
 * kept within [floor, ceil]. */
static om_summary_estimate estimate(double mean, double se, double z, double floor, double ceil)
{
    om_summary_estimate e = {.value = mean, .lo = NAN, .hi = NAN};
    if (isfinite(se)) {
        e.lo = fmax(mean - z * se, floor);
        e.hi = fmin(mean + z * se, ceil);
    }
    return e;
}

/* Running mean and sum of squared deviations (Welford) of paired values. */
typedef struct moments {
    double n, mean, m2;
} moments;

static void moments_add(moments *m, double x)
{
    const double d = x - m->mean;
    m->n += 1.0;
    m->mean += d / m->n;
    m->m2 += d * (x - m->mean);
}

/* The standard error of the mean of m's values (NAN under two). */
static double moments_se(const moments *m)
{
    return m->n >= 2.0 ? sqrt(m->m2 / (m->n - 1.0) / m->n) : NAN;
}

om_status om_summary_lists_legs(const om_matrix *m, size_t leg[OM_SUMMARY_LEGS])
{
    if (!m->info.battle_margins || m->info.n_situations != OM_SUMMARY_LEGS)
        return OM_ERROR(OM_EINVAL, "%s: not a matrix of army lists (oddsmaster matrix --lists)",
                        m->path);
    for (size_t l = 0; l < OM_SUMMARY_LEGS; l++) {
        size_t s = 0;
        while (s < m->info.n_situations &&
               strcmp(m->info.situations[s].name, leg_names[l].name) != 0)
            s++;
        if (s == m->info.n_situations)
            return OM_ERROR(OM_EHDF5, "%s: a matrix of army lists without the leg %s",
                            m->path, leg_names[l].name);
        leg[l] = s;
    }
    return OM_OK;
}

/* The pairing's statistics from its sums alone, the legs taken as
 * independent (a file without each battle's winner and margin). */
static void pairing_from_sums(const om_matrix *m, const size_t leg[OM_SUMMARY_LEGS], size_t r,
                              size_t c, double z, om_summary_pairing *out)
{
    double p[OM_SUMMARY_LEGS][3], var_p[OM_SUMMARY_LEGS][3], mg[OM_SUMMARY_LEGS],
        var_mg[OM_SUMMARY_LEGS];
    for (size_t l = 0; l < OM_SUMMARY_LEGS; l++) {
        const om_matrix_cell *cell = om_matrix_at(m, leg[l], r, c);
        const double n = (double)cell->trials;
        const double sum = cell->points_lost_col_sum - cell->points_lost_row_sum;
        const double counts[3] = {(double)cell->wins_row, (double)cell->draws,
                                  (double)cell->wins_col};
        for (int k = 0; k < 3; k++) {
            p[l][k] = n > 0 ? counts[k] / n : NAN;
            var_p[l][k] = n > 0 ? p[l][k] * (1 - p[l][k]) / n : NAN;
        }
        mg[l] = n > 0 ? sum / n : NAN;
        var_mg[l] = n > 1 ? (cell->margin_sq_sum - sum * sum / n) / (n - 1) / n : NAN;
        out->leg[l].battles = cell->trials;
        out->leg[l].margin = mg[l];
        for (int k = 0; k < 3; k++)
            out->leg[l].p[k] = p[l][k];
    }
    for (int k = 0; k < 3; k++) {
        double mean = 0, var = 0, first = 0, var_first = 0, zone = 0;
        for (size_t l = 0; l < OM_SUMMARY_LEGS; l++) {
            mean += p[l][k] / OM_SUMMARY_LEGS;
            var += var_p[l][k] / (OM_SUMMARY_LEGS * OM_SUMMARY_LEGS);
            first += (leg_names[l].b_first ? -0.5 : 0.5) * p[l][k];
            zone += (leg_names[l].north ? -0.5 : 0.5) * p[l][k];
            var_first += 0.25 * var_p[l][k];
        }
        out->pooled[k] = estimate(mean, sqrt(var), z, 0, 1);
        if (k == 0) {
            out->first_p = estimate(first, sqrt(var_first), z, -1, 1);
            out->zone_p = estimate(zone, sqrt(var_first), z, -1, 1);
        }
    }
    double mean = 0, var = 0, first = 0, zone = 0, var_d = 0;
    for (size_t l = 0; l < OM_SUMMARY_LEGS; l++) {
        mean += mg[l] / OM_SUMMARY_LEGS;
        var += var_mg[l] / (OM_SUMMARY_LEGS * OM_SUMMARY_LEGS);
        first += (leg_names[l].b_first ? -0.5 : 0.5) * mg[l];
        zone += (leg_names[l].north ? -0.5 : 0.5) * mg[l];
        var_d += 0.25 * var_mg[l];
    }
    out->margin = estimate(mean, sqrt(var), z, -INFINITY, INFINITY);
    out->first_margin = estimate(first, sqrt(var_d), z, -INFINITY, INFINITY);
    out->zone_margin = estimate(zone, sqrt(var_d), z, -INFINITY, INFINITY);
    out->paired = false;
}

/* The pairing's statistics battle index by battle index (paired). */
static om_status pairing_paired(const om_matrix *m, om_h5m_outcomes *o,
                                const size_t leg[OM_SUMMARY_LEGS], size_t r, size_t c,
                                double z, om_summary_pairing *out)
{
    uint64_t n = UINT64_MAX;
    uint8_t *w[OM_SUMMARY_LEGS] = {NULL};
    int32_t *mg[OM_SUMMARY_LEGS] = {NULL};
    moments pooled[3] = {{0}}, margin = {0}, first_p = {0}, zone_p = {0}, first_m = {0},
            zone_m = {0};
    om_status st = OM_OK;
    for (size_t l = 0; l < OM_SUMMARY_LEGS; l++) {
        const uint64_t t = om_matrix_at(m, leg[l], r, c)->trials;
        n = t < n ? t : n;
    }
    for (size_t l = 0; l < OM_SUMMARY_LEGS && st == OM_OK; l++) {
        const uint64_t t = om_matrix_at(m, leg[l], r, c)->trials;
        if (t != n)
            st = OM_ERROR(OM_EHDF5, "%s: the legs of %s against %s have %llu and %llu battles: "
                          "they cannot be paired", m->path, m->info.rows[r].name,
                          m->info.cols[c].name, (unsigned long long)n, (unsigned long long)t);
        else if ((w[l] = malloc(n > 0 ? n : 1)) == NULL ||
                 (mg[l] = malloc((n > 0 ? n : 1) * sizeof *mg[l])) == NULL)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", m->path);
        else if ((st = om_h5m_outcomes_read(o, leg[l], r, c, w[l])) == OM_OK)
            st = om_h5m_margins_read(o, leg[l], r, c, mg[l]);
    }
    for (uint64_t t = 0; st == OM_OK && t < n; t++) {
        double y[3] = {0, 0, 0}, mean_m = 0, fp = 0, zp = 0, fm = 0, zm = 0;
        for (size_t l = 0; l < OM_SUMMARY_LEGS; l++) {
            const double a_won = w[l][t] == OM_WINNER_A;
            const double sf = leg_names[l].b_first ? -0.5 : 0.5,
                         sz = leg_names[l].north ? -0.5 : 0.5;
            y[0] += a_won / OM_SUMMARY_LEGS;
            y[1] += (double)(w[l][t] == OM_WINNER_DRAW) / OM_SUMMARY_LEGS;
            y[2] += (double)(w[l][t] == OM_WINNER_B) / OM_SUMMARY_LEGS;
            mean_m += (double)mg[l][t] / OM_SUMMARY_LEGS;
            fp += sf * a_won;
            zp += sz * a_won;
            fm += sf * mg[l][t];
            zm += sz * mg[l][t];
        }
        for (int k = 0; k < 3; k++)
            moments_add(&pooled[k], y[k]);
        moments_add(&margin, mean_m);
        moments_add(&first_p, fp);
        moments_add(&zone_p, zp);
        moments_add(&first_m, fm);
        moments_add(&zone_m, zm);
    }
    if (st == OM_OK) {
        pairing_from_sums(m, leg, r, c, z, out);
        for (int k = 0; k < 3; k++)
            out->pooled[k] = estimate(pooled[k].mean, moments_se(&pooled[k]), z, 0, 1);
        out->margin = estimate(margin.mean, moments_se(&margin), z, -INFINITY, INFINITY);
        out->first_p = estimate(first_p.mean, moments_se(&first_p), z, -1, 1);
        out->zone_p = estimate(zone_p.mean, moments_se(&zone_p), z, -1, 1);
        out->first_margin = estimate(first_m.mean, moments_se(&first_m), z, -INFINITY,
                                     INFINITY);
        out->zone_margin = estimate(zone_m.mean, moments_se(&zone_m), z, -INFINITY, INFINITY);
        out->paired = true;
    }
    for (size_t l = 0; l < OM_SUMMARY_LEGS; l++) {
        free(w[l]);
        free(mg[l]);
    }
    return st;
}

om_status om_summary_lists_pairing(const om_matrix *m, om_h5m_outcomes *o, size_t r, size_t c,
                                   double confidence, om_summary_pairing *out)
{
    size_t leg[OM_SUMMARY_LEGS];
    om_status st;
    if (!(confidence > 0.0 && confidence < 1.0))
        return OM_ERROR(OM_EINVAL, "a confidence of %g is not between 0 and 1", confidence);
    if (r >= m->info.n_rows || c >= m->info.n_cols)
        return OM_ERROR(OM_EINVAL, "%s: no pairing (%zu, %zu)", m->path, r, c);
    if ((st = om_summary_lists_legs(m, leg)) != OM_OK)
        return st;
    memset(out, 0, sizeof *out);
    if (o != NULL)
        return pairing_paired(m, o, leg, r, c, z_of(confidence), out);
    pairing_from_sums(m, leg, r, c, z_of(confidence), out);
    return OM_OK;
}

/* One estimate as "value [lo, hi]", probabilities to 3 decimals, points to 1. */
static void put_estimate(FILE *out, const om_summary_estimate *e, bool points)
{
    if (points)
        fprintf(out, "%+.1f [%+.1f, %+.1f]", e->value, e->lo, e->hi);
    else
        fprintf(out, "%.3f [%.3f, %.3f]", e->value, e->lo, e->hi);
}

static void put_effect(FILE *out, const om_summary_estimate *e, bool points)
{
    if (points)
        fprintf(out, "%+.1f [%+.1f, %+.1f]", e->value, e->lo, e->hi);
    else
        fprintf(out, "%+.3f [%+.3f, %+.3f]", e->value, e->lo, e->hi);
}

om_status om_summary_lists_print(const om_matrix *m, double confidence, FILE *out)
{
    om_h5m_outcomes *o = NULL;
    size_t leg[OM_SUMMARY_LEGS];
    om_status st = om_summary_lists_legs(m, leg);
    if (st == OM_OK && m->info.outcome_trials > 0)
        st = om_h5m_outcomes_open(m, &o);
    if (st != OM_OK)
        return st;
    fprintf(out, "List matrix: %s\n  rule set %s, %zu x %zu lists, %llu battles a leg, seed "
            "%llu\n  %s\n  %.0f%% intervals, %s\n", m->path, m->info.ruleset, m->info.n_rows,
            m->info.n_cols, (unsigned long long)m->info.trials_per_cell,
            (unsigned long long)m->info.seed, m->info.command_line, 100 * confidence,
            o != NULL ? "paired battle by battle over the legs (common dice)"
                      : "the legs taken as independent (a file of --no-rows)");
    for (size_t r = 0; r < m->info.n_rows && st == OM_OK; r++)
        for (size_t c = 0; c < m->info.n_cols && st == OM_OK; c++) {
            const om_matrix_unit *a = &m->info.rows[r], *b = &m->info.cols[c];
            om_summary_pairing p;
            if ((st = om_summary_lists_pairing(m, o, r, c, confidence, &p)) != OM_OK)
                break;
            fprintf(out, "\nA: %s (%s, %u points) against B: %s (%s, %u points)\n", a->name,
                    a->army, (unsigned)a->points, b->name, b->army, (unsigned)b->points);
            fprintf(out, "  pooled over the legs (%llu battles)\n    P(A wins) ",
                    (unsigned long long)(p.leg[0].battles * OM_SUMMARY_LEGS));
            put_estimate(out, &p.pooled[0], false);
            fprintf(out, "  P(draw) ");
            put_estimate(out, &p.pooled[1], false);
            fprintf(out, "  P(B wins) ");
            put_estimate(out, &p.pooled[2], false);
            fprintf(out, "\n    victory-point margin (A less B) ");
            put_estimate(out, &p.margin, true);
            fprintf(out, "\n  %-16s %9s %9s %9s %9s\n", "leg", "P(A wins)", "P(draw)",
                    "P(B wins)", "margin");
            for (size_t l = 0; l < OM_SUMMARY_LEGS; l++)
                fprintf(out, "  %-16s %9.3f %9.3f %9.3f %+9.1f\n", leg_names[l].name,
                        p.leg[l].p[0], p.leg[l].p[1], p.leg[l].p[2], p.leg[l].margin);
            fprintf(out, "  first turn (A first less B first): P(A wins) ");
            put_effect(out, &p.first_p, false);
            fprintf(out, ", margin ");
            put_effect(out, &p.first_margin, true);
            fprintf(out, "\n  zones (A south less A north):      P(A wins) ");
            put_effect(out, &p.zone_p, false);
            fprintf(out, ", margin ");
            put_effect(out, &p.zone_margin, true);
            fprintf(out, "\n");
        }
    om_h5m_outcomes_close(o);
    if (st == OM_OK && ferror(out))
        st = OM_ERROR(OM_EIO, "cannot write the summary");
    return st;
}
