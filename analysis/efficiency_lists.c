/*
 * efficiency_lists.c: ratings of army lists from a matrix of army lists
 * (`oddsmaster efficiency` of a `matrix --lists` file): one Bradley-Terry
 * strength per list of the pool (a list given as a row and as a column is one
 * player), fitted on every pairing and leg at once with two terms of each
 * battle, the first turn and the deployment zones (bt.h, om_bt_pool_fit),
 * draws half a win.
 *
 * Intervals. The legs of one battle index share their dice and terrain, so
 * they are not independent evidence: the bootstrap resamples battle indices
 * within each pairing, the four legs of an index together, refits, and takes
 * percentiles. A file of --no-rows keeps no battle: its intervals are then
 * the fit's normal ones, which the report says. Two lists whose difference's
 * interval holds 0 cannot be told apart by the matrix: a warning names them.
 */
#include "efficiency.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bt.h"
#include "layout.h"
#include "rng.h"
#include "summary.h"

/* The terms of each battle: A's first turn, A's zone (each +1/2 or -1/2, so
 * that a coefficient is the difference in log-odds between the two). */
enum { TERM_FIRST = 0, TERM_ZONE = 1, TERMS = 2 };

/* Players of the pool: each row and column list by its id (a list named alike
 * on both axes is one player). */
static om_status pool_players(const om_matrix *m, size_t *row_player, size_t *col_player,
                              const om_matrix_unit **player, size_t *k)
{
    *k = 0;
    for (size_t i = 0; i < m->info.n_rows + m->info.n_cols; i++) {
        const om_matrix_unit *u = i < m->info.n_rows ? &m->info.rows[i]
                                                     : &m->info.cols[i - m->info.n_rows];
        size_t j = 0;
        while (j < *k && strcmp(player[j]->id, u->id) != 0)
            j++;
        if (j == *k)
            player[(*k)++] = u;
        if (i < m->info.n_rows)
            row_player[i] = j;
        else
            col_player[i - m->info.n_rows] = j;
    }
    return OM_OK;
}

/* The cells of the fit from per-leg counts counts[(leg * R + r) * C + c][3]
 * (A's wins, draws, B's wins). */
static void pool_cells(const om_matrix *m, const size_t *legs, const size_t *row_player,
                       const size_t *col_player, const double (*counts)[3], om_bt_pair *cells)
{
    const size_t R = m->info.n_rows, C = m->info.n_cols;
    static const double first[OM_SUMMARY_LEGS] = {0.5, -0.5, 0.5, -0.5},
                        zone[OM_SUMMARY_LEGS] = {0.5, 0.5, -0.5, -0.5};
    for (size_t l = 0; l < OM_SUMMARY_LEGS; l++)
        for (size_t r = 0; r < R; r++)
            for (size_t c = 0; c < C; c++) {
                const size_t k = (l * R + r) * C + c;
                const double *n = counts[(legs[l] * R + r) * C + c];
                cells[k] = (om_bt_pair){.a = row_player[r], .b = col_player[c],
                                        .x = {first[l], zone[l]}, .score = n[0] + n[1] / 2,
                                        .n = n[0] + n[1] + n[2]};
            }
}

void om_efficiency_lists_free(om_efficiency_lists *e)
{
    if (e == NULL)
        return;
    free(e->player);
    free(e->strength);
    free(e->apart);
    free(e);
}

/* The q-quantile of the sorted x[0..n) (linear between order statistics). */
static double quantile(const double *x, size_t n, double q)
{
    const double at = q * (double)(n - 1);
    const size_t i = (size_t)at;
    return i + 1 < n ? x[i] + (at - (double)i) * (x[i + 1] - x[i]) : x[n - 1];
}

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Percentile interval of the replicates v[0..n) (sorted here) into e. */
static void percentile(double *v, size_t n, double confidence, om_summary_estimate *e)
{
    if (n < 2) {
        e->lo = e->hi = NAN;
        return;
    }
    qsort(v, n, sizeof *v, compare_doubles);
    e->lo = quantile(v, n, (1 - confidence) / 2);
    e->hi = quantile(v, n, 1 - (1 - confidence) / 2);
}

/* Everything a bootstrap holds. */
typedef struct boot {
    size_t n;          /* battles of each leg of each pairing */
    uint8_t *w;        /* [cells][n]: each battle's winner, cell k = (s * R + r) * C + c */
    double (*counts)[3]; /* [cells] the resampled counts */
    double *reps;      /* [B][K + TERMS] each replicate's estimates */
} boot;

/* Read every battle's winner of m into b->w. */
static om_status boot_read(const om_matrix *m, boot *b)
{
    const size_t cells = m->info.n_situations * m->info.n_rows * m->info.n_cols;
    om_h5m_outcomes *o = NULL;
    om_status st = om_h5m_outcomes_open(m, &o);
    b->n = m->cells[0].trials;
    for (size_t k = 0; k < cells && st == OM_OK; k++)
        if (m->cells[k].trials != b->n)
            st = OM_ERROR(OM_EHDF5, "%s: its legs hold different numbers of battles: they "
                          "cannot be resampled together", m->path);
    if (st == OM_OK && (b->w = malloc(cells * (b->n > 0 ? b->n : 1))) == NULL)
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", m->path);
    for (size_t k = 0; k < cells && st == OM_OK; k++) {
        const size_t c = k % m->info.n_cols, r = k / m->info.n_cols % m->info.n_rows,
                     s = k / m->info.n_cols / m->info.n_rows;
        st = om_h5m_outcomes_read(o, s, r, c, b->w + k * b->n);
    }
    om_h5m_outcomes_close(o);
    return st;
}

om_status om_efficiency_lists_rate(const om_matrix *m, double confidence, uint64_t replicates,
                                   uint64_t seed, om_efficiency_lists **out)
{
    const size_t R = m->info.n_rows, C = m->info.n_cols, S = m->info.n_situations;
    const size_t cells = S * R * C;
    size_t legs[OM_SUMMARY_LEGS], *row_player = NULL, *col_player = NULL;
    om_bt_pair *pairs = NULL;
    double (*counts)[3] = NULL, *est = NULL, *se = NULL;
    boot b = {0};
    om_efficiency_lists *e = NULL;
    om_status st;

    *out = NULL;
    if (!(confidence > 0 && confidence < 1))
        return OM_ERROR(OM_EINVAL, "a confidence of %g is not between 0 and 1", confidence);
    if ((st = om_summary_lists_legs(m, legs)) != OM_OK)
        return st;
    e = calloc(1, sizeof *e);
    row_player = calloc(R, sizeof *row_player);
    col_player = calloc(C, sizeof *col_player);
    pairs = calloc(cells, sizeof *pairs);
    counts = calloc(cells, sizeof *counts);
    if (e == NULL || row_player == NULL || col_player == NULL || pairs == NULL ||
        counts == NULL || (e->player = calloc(R + C, sizeof *e->player)) == NULL ||
        (e->strength = calloc(R + C, sizeof *e->strength)) == NULL ||
        (est = calloc(R + C + TERMS, sizeof *est)) == NULL ||
        (se = calloc(R + C + TERMS, sizeof *se)) == NULL) {
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", m->path);
        goto done;
    }
    e->confidence = confidence;
    pool_players(m, row_player, col_player, e->player, &e->n_players);
    for (size_t k = 0; k < cells; k++) {
        counts[k][0] = (double)m->cells[k].wins_row;
        counts[k][1] = (double)m->cells[k].draws;
        counts[k][2] = (double)m->cells[k].wins_col;
    }
    pool_cells(m, legs, row_player, col_player, (const double(*)[3])counts, pairs);
    if (e->n_players < 2) {
        st = OM_ERROR(OM_EINVAL, "%s: one list in the pool: there is nothing to rate it "
                      "against", m->path);
        goto done;
    }
    if ((st = om_bt_pool_fit(e->n_players, TERMS, pairs, cells, est, se)) != OM_OK) {
        st = OM_ERROR(st, "%s: the lists cannot be rated: %s", m->path, om_error_message());
        goto done;
    }
    const double z = gsl_cdf_ugaussian_Pinv(1 - (1 - confidence) / 2);
    const size_t np = e->n_players, width = np + TERMS;
    for (size_t i = 0; i < width; i++) {
        om_summary_estimate *x = i < np ? &e->strength[i] : &e->term[i - np];
        *x = (om_summary_estimate){est[i], est[i] - z * se[i], est[i] + z * se[i]};
    }
    e->bootstrap = m->info.outcome_trials > 0 && replicates > 0;
    if (e->bootstrap) {
        om_rng rng;
        size_t good = 0;
        if ((st = boot_read(m, &b)) != OM_OK)
            goto done;
        if ((b.reps = malloc(replicates * width * sizeof *b.reps)) == NULL) {
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", m->path);
            goto done;
        }
        om_rng_seed_block(&rng, seed, 0);
        for (uint64_t rep = 0; rep < replicates; rep++) {
            /* Battle indices drawn within each pairing, the legs together. */
            for (size_t k = 0; k < cells; k++)
                counts[k][0] = counts[k][1] = counts[k][2] = 0;
            for (size_t pr = 0; pr < R * C; pr++)
                for (size_t t = 0; t < b.n; t++) {
                    const size_t pick = (size_t)(om_rng_uniform(&rng) * (double)b.n);
                    for (size_t s = 0; s < S; s++) {
                        const size_t k = s * R * C + pr;
                        const uint8_t w = b.w[k * b.n + pick];
                        counts[k][0] += w == OM_WINNER_A;
                        counts[k][1] += w == OM_WINNER_DRAW;
                        counts[k][2] += w == OM_WINNER_B;
                    }
                }
            pool_cells(m, legs, row_player, col_player, (const double(*)[3])counts, pairs);
            if (om_bt_pool_fit(np, TERMS, pairs, cells, b.reps + good * width, NULL) == OM_OK)
                good++;
            else
                om_error_clear();
        }
        e->replicates = good;
        e->replicates_failed = replicates - good;
        double *v = malloc((good > 0 ? good : 1) * sizeof *v);
        if (v == NULL) {
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", m->path);
            goto done;
        }
        for (size_t i = 0; i < width; i++) {
            for (size_t g = 0; g < good; g++)
                v[g] = b.reps[g * width + i];
            percentile(v, good, confidence, i < np ? &e->strength[i] : &e->term[i - np]);
        }
        /* Pairs of lists whose difference's interval holds 0. */
        e->apart = calloc(np * np, sizeof *e->apart);
        for (size_t i = 0; e->apart != NULL && i < np; i++)
            for (size_t j = i + 1; j < np; j++) {
                om_summary_estimate d = {est[i] - est[j], NAN, NAN};
                for (size_t g = 0; g < good; g++)
                    v[g] = b.reps[g * width + i] - b.reps[g * width + j];
                percentile(v, good, confidence, &d);
                e->apart[i * np + j] = e->apart[j * np + i] = d;
            }
        free(v);
        if (e->apart == NULL) {
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", m->path);
            goto done;
        }
    } else {
        /* Without the battles: the differences' normal intervals, the two
         * strengths' errors taken as independent. */
        if ((e->apart = calloc(np * np, sizeof *e->apart)) == NULL) {
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", m->path);
            goto done;
        }
        for (size_t i = 0; i < np; i++)
            for (size_t j = i + 1; j < np; j++) {
                const double d = est[i] - est[j], s = sqrt(se[i] * se[i] + se[j] * se[j]);
                e->apart[i * np + j] = e->apart[j * np + i] =
                    (om_summary_estimate){d, d - z * s, d + z * s};
            }
    }
done:
    free(b.w);
    free(b.reps);
    free(row_player);
    free(col_player);
    free(pairs);
    free(counts);
    free(est);
    free(se);
    if (st != OM_OK) {
        om_efficiency_lists_free(e);
        return st;
    }
    *out = e;
    return OM_OK;
}

om_status om_efficiency_lists_print(const om_efficiency_lists *e, const om_matrix *m,
                                    FILE *out)
{
    const size_t np = e->n_players;
    unsigned warned = 0;
    fprintf(out, "List ratings of %s\n  rule set %s, %llu battles a leg, seed %llu\n"
            "  Bradley-Terry strengths of the lists on the whole pool (log-odds; draws half "
            "a win),\n  with the first turn and the zones as terms; %.0f%% intervals: ",
            m->path, m->info.ruleset, (unsigned long long)m->info.trials_per_cell,
            (unsigned long long)m->info.seed, 100 * e->confidence);
    if (e->bootstrap)
        fprintf(out, "bootstrap of %zu replicates,\n  battles resampled within each pairing, "
                "the four legs of a battle together\n", e->replicates);
    else
        fprintf(out, "normal, from the fit (a file of --no-rows keeps no battle to\n  "
                "resample)\n");
    if (e->replicates_failed > 0)
        fprintf(out, "  %zu replicates had no estimate (a list winning or losing every "
                "battle drawn) and were left out\n", e->replicates_failed);
    fprintf(out, "\n  %-32s %-12s %6s  %-24s %s\n", "list", "army", "points",
            "strength [CI]", "P(beats an even list)");
    for (size_t i = 0; i < np; i++) {
        const om_summary_estimate *s = &e->strength[i];
        fprintf(out, "  %-32s %-12s %6u  %+.3f [%+.3f, %+.3f]    %.3f\n", e->player[i]->name,
                e->player[i]->army, (unsigned)e->player[i]->points, s->value, s->lo, s->hi,
                1 / (1 + exp(-s->value)));
    }
    fprintf(out, "\n  terms (log-odds of side A scoring)\n");
    fprintf(out, "  first turn (A first less B first)   %+.3f [%+.3f, %+.3f]\n",
            e->term[0].value, e->term[0].lo, e->term[0].hi);
    fprintf(out, "  zones (A south less A north)        %+.3f [%+.3f, %+.3f]\n",
            e->term[1].value, e->term[1].lo, e->term[1].hi);
    for (size_t i = 0; i < np; i++)
        for (size_t j = i + 1; j < np; j++) {
            const om_summary_estimate *d = &e->apart[i * np + j];
            if (!(d->lo > 0 || d->hi < 0)) {
                if (warned++ == 0)
                    fprintf(out, "\n");
                fprintf(out, "  warning: the matrix cannot tell %s from %s (difference "
                        "%+.3f [%+.3f, %+.3f])\n", e->player[i]->name, e->player[j]->name,
                        d->value, d->lo, d->hi);
            }
        }
    return ferror(out) ? OM_ERROR(OM_EIO, "cannot write the ratings") : OM_OK;
}
