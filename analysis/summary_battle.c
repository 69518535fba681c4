/*
 * summary_battle.c: what a summary reports beyond each field's own law, where
 * the file's layout declares it (summary_int.h): the margin of the two
 * sides' scores (a battle's victory points, A's less B's) with its mean,
 * interval and quantiles, and, for a unit field of the unit lost, each
 * unit's side's P(win) when the unit was kept less when it was lost, with a
 * Newcombe interval: the units whose fate went with the outcome. Both need
 * the joint law of two fields, so they are read from the rows, not the
 * tallies. For unit fields of the points each unit gave up and scored (a
 * low byte, its high byte in a field of its own), each unit's means with
 * their intervals and its points scored per 100 points of its value. And the
 * lines the scenario's provenance names as left out (rules not modelled). Nothing here names a game or a field: the file says which
 * fields play which part.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "output.h"
#include "stats.h"
#include "summary_int.h"

const double om_summary_margin_levels[OM_SUMMARY_MARGIN_QUANTILES] = {0.05, 0.25, 0.5, 0.75,
                                                                      0.95};

/* Rows read at a time. */
#define CHUNK_ROWS 16384u

/* Margins run from -(2^16 - 1) to 2^16 - 1: a histogram bin each. */
#define MARGIN_OFFSET 65535
#define MARGIN_BINS (2 * MARGIN_OFFSET + 1)

static const char *const side_label[2] = {"A", "B"};

/* Read an optional string attribute (NULL when absent). */
static om_status attr_opt(om_h5_reader *r, const char *name, char **out)
{
    om_status st = om_h5_reader_attr_string(r, name, out);
    if (st == OM_ENOTFOUND) {
        om_error_clear();
        *out = NULL;
        return OM_OK;
    }
    return st;
}

/* A probability and its Wilson interval. */
static om_status prob_of(om_summary_prob *p, uint64_t count, uint64_t n, double confidence)
{
    memset(p, 0, sizeof *p);
    p->count = count;
    if (n == 0)
        return OM_OK;
    p->p = (double)count / (double)n;
    return om_stats_wilson(count, n, confidence, &p->lo, &p->hi);
}

/* The index of the file's winner field ("winner", else its first), or -1. */
static int winner_field(const om_summary *s)
{
    int first = -1;
    for (size_t i = 0; i < s->def_count; i++)
        if (s->defs[i].type == OM_FIELD_WINNER) {
            if (strcmp(s->defs[i].name, "winner") == 0)
                return (int)i;
            if (first < 0)
                first = (int)i;
        }
    return first;
}

/* The index of unit field `name` of the file, or -1. */
static int unit_field(om_h5_reader *r, const char *name)
{
    for (size_t i = 0; i < om_h5_reader_unit_field_count(r); i++)
        if (strcmp(om_h5_reader_unit_field(r, i)->name, name) == 0)
            return (int)i;
    return -1;
}

/* The margin's statistics from its histogram (hist[m + MARGIN_OFFSET]). */
static om_status margin_stats(om_summary *s, const uint64_t *hist, const uint64_t ahead[2])
{
    om_summary_margin *m = &s->margin;
    const double n = (double)s->trials;
    const double z = gsl_cdf_ugaussian_Pinv(0.5 + 0.5 * s->confidence);
    double sum = 0.0, sq = 0.0;
    uint64_t cum = 0;
    size_t q = 0;
    om_status st = OM_OK;
    for (size_t b = 0; b < MARGIN_BINS; b++)
        if (hist[b] != 0) {
            const double v = (double)b - MARGIN_OFFSET;
            sum += v * (double)hist[b];
            sq += v * v * (double)hist[b];
        }
    m->mean = sum / n;
    m->sd = sqrt(fmax(sq / n - m->mean * m->mean, 0.0));
    m->lo = m->mean - z * m->sd / sqrt(n);
    m->hi = m->mean + z * m->sd / sqrt(n);
    for (size_t b = 0; b < MARGIN_BINS && q < OM_SUMMARY_MARGIN_QUANTILES; b++) {
        cum += hist[b];
        while (q < OM_SUMMARY_MARGIN_QUANTILES && (double)cum >= om_summary_margin_levels[q] * n)
            m->quantile[q++] = (int)b - MARGIN_OFFSET;
    }
    for (int side = 0; side < 2 && st == OM_OK; side++)
        st = prob_of(&m->ahead[side], ahead[side], s->trials, s->confidence);
    m->known = st == OM_OK;
    return st;
}

/* Each unit's decider from its counts: lost and kept trials, and those of
 * each its side won. */
static om_status decider_stats(om_summary *s, size_t u, uint64_t won_lost, uint64_t won_kept)
{
    om_summary_decider *d = &s->deciders[u];
    om_status st = prob_of(&d->win_lost, won_lost, d->lost, s->confidence);
    if (st == OM_OK)
        st = prob_of(&d->win_kept, won_kept, d->kept, s->confidence);
    d->known = st == OM_OK && d->lost > 0 && d->kept > 0;
    if (d->known) {
        /* Newcombe's hybrid score interval of a difference of two
         * independent proportions (Statistics in Medicine 17, 1998, method 10). */
        const om_summary_prob *k = &d->win_kept, *l = &d->win_lost;
        d->diff = k->p - l->p;
        d->lo = d->diff - sqrt((k->p - k->lo) * (k->p - k->lo) + (l->hi - l->p) * (l->hi - l->p));
        d->hi = d->diff + sqrt((k->hi - k->p) * (k->hi - k->p) + (l->p - l->lo) * (l->p - l->lo));
    }
    return st;
}

/* Read the rows once: the margin's histogram and each unit's counts. */
static om_status read_rows(om_h5_reader *r, om_summary *s, int winner, int lost_field)
{
    const bool margin = s->margin.field[0] != NULL && s->margin.field[1] != NULL;
    const size_t nu = lost_field >= 0 ? s->unit_count : 0;
    uint16_t *a = malloc(CHUNK_ROWS * sizeof *a), *b = malloc(CHUNK_ROWS * sizeof *b);
    uint8_t *w = malloc(CHUNK_ROWS), *flag = malloc(CHUNK_ROWS);
    uint64_t *hist = margin ? calloc(MARGIN_BINS, sizeof *hist) : NULL;
    uint64_t *won = nu ? calloc(2 * nu, sizeof *won) : NULL; /* [u][lost?] */
    uint64_t ahead[2] = {0, 0};
    om_status st = OM_OK;

    if (a == NULL || b == NULL || w == NULL || flag == NULL || (margin && hist == NULL) ||
        (nu && won == NULL))
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
    for (uint64_t first = 0; st == OM_OK && first < s->trials; first += CHUNK_ROWS) {
        const size_t n = s->trials - first < CHUNK_ROWS ? (size_t)(s->trials - first) : CHUNK_ROWS;
        if (margin &&
            ((st = om_h5_reader_read16(r, s->margin.field[0], first, n, a)) != OM_OK ||
             (st = om_h5_reader_read16(r, s->margin.field[1], first, n, b)) != OM_OK))
            break;
        for (size_t i = 0; margin && i < n; i++) {
            const int m = (int)a[i] - (int)b[i];
            hist[m + MARGIN_OFFSET]++;
            ahead[0] += m > 0;
            ahead[1] += m < 0;
        }
        if (nu == 0)
            continue;
        if ((st = om_h5_reader_read(r, s->defs[winner].name, first, n, w)) != OM_OK)
            break;
        for (size_t u = 0; u < nu && st == OM_OK; u++) {
            const unsigned side = s->units[u].side != 0;
            if ((st = om_h5_reader_read_unit(r, (size_t)lost_field, u, first, n, flag)) != OM_OK)
                break;
            for (size_t i = 0; i < n; i++) {
                const bool is_lost = flag[i] != 0;
                s->deciders[u].lost += is_lost;
                s->deciders[u].kept += !is_lost;
                won[2 * u + is_lost] += w[i] == side;
            }
        }
    }
    if (st == OM_OK && margin)
        st = margin_stats(s, hist, ahead);
    for (size_t u = 0; u < nu && st == OM_OK; u++)
        st = decider_stats(s, u, won[2 * u + 1], won[2 * u]);
    free(a);
    free(b);
    free(w);
    free(flag);
    free(hist);
    free(won);
    return st;
}

/* The lines the scenario's provenance JSON lists under "warnings". */
static om_status read_warnings(om_h5_reader *r, om_summary *s)
{
    char *text = NULL;
    json_t *root, *lines;
    om_status st = attr_opt(r, "options_json", &text);
    if (st != OM_OK || text == NULL)
        return st;
    root = json_loads(text, 0, NULL);
    free(text);
    lines = root != NULL ? json_object_get(root, "warnings") : NULL;
    if (json_is_array(lines) && json_array_size(lines) > 0) {
        s->warnings = calloc(json_array_size(lines), sizeof *s->warnings);
        if (s->warnings == NULL)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
        for (size_t i = 0; st == OM_OK && i < json_array_size(lines); i++) {
            const char *line = json_string_value(json_array_get(lines, i));
            if (line == NULL)
                continue;
            if ((s->warnings[s->n_warnings] = strdup(line)) == NULL)
                st = OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
            else
                s->n_warnings++;
        }
    }
    json_decref(root);
    return st;
}

/* The root attributes naming the unit fields of the points each unit gave up
 * and scored. */
static const char *const points_attr[2] = {"unit_given_field", "unit_scored_field"};

om_status om_summary_unit_field_declared(om_h5_reader *r, const char *name, bool *out)
{
    om_status st = OM_OK;
    *out = false;
    for (int k = 0; k < 2 && st == OM_OK && !*out; k++) {
        char *declared = NULL;
        if ((st = attr_opt(r, points_attr[k], &declared)) == OM_OK && declared != NULL) {
            const size_t n = strlen(declared);
            *out = strcmp(name, declared) == 0 ||
                   (strncmp(name, declared, n) == 0 &&
                    strcmp(name + n, OM_LAYOUT_HIGH_SUFFIX) == 0);
        }
        free(declared);
    }
    return st;
}

/* The longest unit field name looked for. */
#define UNIT_FIELD_NAME_MAX 256

/* The unit field of the high byte of unit field `name`, or -1. */
static int high_field(om_h5_reader *r, const char *name)
{
    char high[UNIT_FIELD_NAME_MAX];
    if (snprintf(high, sizeof high, "%s%s", name, OM_LAYOUT_HIGH_SUFFIX) >= (int)sizeof high)
        return -1;
    return unit_field(r, high);
}

/* Read the rows once more: each unit's points given up and scored (each the
 * low byte in field[k][0] plus 256 times the high byte in field[k][1]), into
 * s->unit_points. */
static om_status read_unit_points(om_h5_reader *r, om_summary *s, int field[2][2])
{
    const size_t nu = s->unit_count;
    const double z = gsl_cdf_ugaussian_Pinv(0.5 + 0.5 * s->confidence);
    const double n_all = (double)s->trials;
    uint8_t *lo = malloc(CHUNK_ROWS), *hi = malloc(CHUNK_ROWS);
    double *sum = calloc(4 * nu, sizeof *sum); /* [u][k][sum, sum of squares] */
    om_status st = OM_OK;
    if (lo == NULL || hi == NULL || sum == NULL)
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
    for (uint64_t first = 0; st == OM_OK && first < s->trials; first += CHUNK_ROWS) {
        const size_t n = s->trials - first < CHUNK_ROWS ? (size_t)(s->trials - first) : CHUNK_ROWS;
        for (size_t u = 0; u < nu && st == OM_OK; u++)
            for (int k = 0; k < 2 && st == OM_OK; k++) {
                double *a = &sum[4 * u + 2 * k];
                if ((st = om_h5_reader_read_unit(r, (size_t)field[k][0], u, first, n, lo)) !=
                        OM_OK ||
                    (st = om_h5_reader_read_unit(r, (size_t)field[k][1], u, first, n, hi)) !=
                        OM_OK)
                    break;
                for (size_t i = 0; i < n; i++) {
                    const double v = (double)lo[i] + 256.0 * (double)hi[i];
                    a[0] += v;
                    a[1] += v * v;
                }
            }
    }
    for (size_t u = 0; u < nu && st == OM_OK; u++) {
        om_summary_unit_points *p = &s->unit_points[u];
        for (int k = 0; k < 2; k++) {
            const double *a = &sum[4 * u + 2 * k];
            p->mean[k] = a[0] / n_all;
            p->sd[k] = sqrt(fmax(a[1] / n_all - p->mean[k] * p->mean[k], 0.0));
            /* A normal interval of the mean, no lower than 0: points are
             * never negative (a unit that rarely gives any up would else
             * show a negative end). */
            p->lo[k] = fmax(0.0, p->mean[k] - z * p->sd[k] / sqrt(n_all));
            p->hi[k] = p->mean[k] + z * p->sd[k] / sqrt(n_all);
        }
        p->per_100 = s->units[u].points > 0 ? p->mean[1] * 100.0 / s->units[u].points : -1.0;
    }
    free(lo);
    free(hi);
    free(sum);
    return st;
}

/* The declared unit fields of the points given up and scored, if the file
 * has them and their high bytes: s->unit_points from the rows. A file that
 * declares them and lacks one of the four fields is damaged. */
static om_status fill_unit_points(om_h5_reader *r, om_summary *s)
{
    int field[2][2];
    om_status st = OM_OK;
    for (int k = 0; k < 2 && st == OM_OK; k++)
        st = attr_opt(r, points_attr[k], &s->unit_points_field[k]);
    if (st != OM_OK || s->unit_points_field[0] == NULL || s->unit_points_field[1] == NULL ||
        s->unit_count == 0)
        return st;
    for (int k = 0; k < 2; k++) {
        field[k][0] = unit_field(r, s->unit_points_field[k]);
        field[k][1] = high_field(r, s->unit_points_field[k]);
        if (field[k][0] < 0 || field[k][1] < 0)
            return OM_ERROR(OM_EHDF5, "%s: the file declares the unit field %s (attribute "
                            "%s) and its high byte %s%s, and lacks %s: the file is damaged",
                            s->file, s->unit_points_field[k], points_attr[k],
                            s->unit_points_field[k], OM_LAYOUT_HIGH_SUFFIX,
                            field[k][0] < 0 ? "the first" : "the second");
    }
    if (!om_h5_reader_has_rows(r) || s->trials == 0)
        return OM_OK;
    if ((s->unit_points = calloc(s->unit_count, sizeof *s->unit_points)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
    return read_unit_points(r, s, field);
}

om_status om_summary_fill_declared(om_h5_reader *r, om_summary *s)
{
    const int winner = winner_field(s);
    int lost_field = -1;
    om_status st;

    if ((st = read_warnings(r, s)) != OM_OK || (st = fill_unit_points(r, s)) != OM_OK ||
        (st = attr_opt(r, "score_field_a",
                                                              &s->margin.field[0])) != OM_OK ||
        (st = attr_opt(r, "score_field_b", &s->margin.field[1])) != OM_OK ||
        (st = attr_opt(r, "unit_lost_field", &s->unit_lost_field)) != OM_OK)
        return st;
    /* A declared field the file lacks is left unknown rather than failing. */
    for (int side = 0; side < 2; side++)
        if (s->margin.field[side] != NULL && !om_h5_reader_has_field(r, s->margin.field[side]))
            for (int k = 0; k < 2; k++) {
                free(s->margin.field[k]);
                s->margin.field[k] = NULL;
            }
    if (s->unit_lost_field != NULL && winner >= 0 && s->unit_count > 0)
        lost_field = unit_field(r, s->unit_lost_field);
    if (!om_h5_reader_has_rows(r) || s->trials == 0 ||
        ((s->margin.field[0] == NULL || s->margin.field[1] == NULL) && lost_field < 0))
        return OM_OK;
    if (lost_field >= 0 && (s->deciders = calloc(s->unit_count, sizeof *s->deciders)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
    return read_rows(r, s, winner, lost_field);
}

void om_summary_free_declared(om_summary *s)
{
    free(s->margin.field[0]);
    free(s->margin.field[1]);
    free(s->unit_lost_field);
    free(s->deciders);
    free(s->unit_points_field[0]);
    free(s->unit_points_field[1]);
    free(s->unit_points);
    for (size_t i = 0; i < s->n_warnings; i++)
        free(s->warnings[i]);
    free(s->warnings);
}

/* ---------------------------------------------------------------- output */

void om_summary_text_margin(const om_summary *s, FILE *out, const char *ci)
{
    const om_summary_margin *m = &s->margin;
    if (m->field[0] == NULL || m->field[1] == NULL)
        return;
    fprintf(out, "\nMargin: %s - %s, battle by battle\n", m->field[0], m->field[1]);
    if (!m->known) {
        fprintf(out, "  not known: it needs the file's rows (a run without --no-rows)\n");
        return;
    }
    fprintf(out, "  mean %.2f [%s CI %.2f, %.2f], sd %.2f\n", m->mean, ci, m->lo, m->hi, m->sd);
    fprintf(out, "  quantiles:");
    for (size_t q = 0; q < OM_SUMMARY_MARGIN_QUANTILES; q++)
        fprintf(out, " %g%% %d%s", 100.0 * om_summary_margin_levels[q], m->quantile[q],
                q + 1 < OM_SUMMARY_MARGIN_QUANTILES ? "," : "\n");
    for (int side = 0; side < 2; side++)
        fprintf(out, "  P(%s ahead) %.4f [%.4f, %.4f]\n", side_label[side], m->ahead[side].p,
                m->ahead[side].lo, m->ahead[side].hi);
}

/* Order of the deciders printed: by the end of the difference's interval
 * nearest zero, where the interval leaves zero out (the smallest difference
 * the trials support), largest first; then those whose interval holds zero,
 * by the size of the difference; then by index. */
typedef struct ranked {
    const om_summary_decider *d;
    size_t u;
} ranked;

/* The difference the trials support: the end of the interval nearest zero,
 * 0 when the interval holds it (or the difference is not known). */
static double supported(const om_summary_decider *d)
{
    if (!d->known || (d->lo <= 0.0 && d->hi >= 0.0))
        return 0.0;
    return d->lo > 0.0 ? d->lo : -d->hi;
}

static int by_diff(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    const double sa = supported(a->d), sb = supported(b->d);
    const double da = a->d->known ? fabs(a->d->diff) : -1.0;
    const double db = b->d->known ? fabs(b->d->diff) : -1.0;
    if (sa != sb)
        return sa > sb ? -1 : 1;
    if (da != db)
        return da > db ? -1 : 1;
    return a->u < b->u ? -1 : a->u > b->u;
}

/* The width of the units' column of a per-unit table: the longest id, at
 * least that of the heading "unit". */
static int id_width(const om_summary *s)
{
    int wid = 4;
    for (size_t u = 0; u < s->unit_count; u++) {
        const int a = (int)strlen(s->units[u].id);
        wid = a > wid ? a : wid;
    }
    return wid;
}

void om_summary_text_deciders(const om_summary *s, FILE *out, const char *ci)
{
    ranked *order;
    const int wid = id_width(s);
    if (s->deciders == NULL || (order = malloc(s->unit_count * sizeof *order)) == NULL)
        return;
    for (size_t u = 0; u < s->unit_count; u++)
        order[u] = (ranked){.d = &s->deciders[u], .u = u};
    qsort(order, s->unit_count, sizeof *order, by_diff);
    fprintf(out, "\nWhich units decided battles: its side's P(win) when the unit was not %s,\n"
            "less when it was (an association, not a cause); the units whose interval leaves 0\n"
            "out first, by the end nearest 0\n", s->unit_lost_field);
    fprintf(out, "  %-*s  side  P(%s)  P(win|%s)  P(win|not)  difference [%s CI]\n", wid,
            "unit", s->unit_lost_field, s->unit_lost_field, ci);
    for (size_t k = 0; k < s->unit_count; k++) {
        const om_summary_decider *d = order[k].d;
        const size_t u = order[k].u;
        const int wl = (int)strlen(s->unit_lost_field);
        fprintf(out, "  %-*s  %-4s  %-*.4f  ", wid, s->units[u].id,
                side_label[s->units[u].side != 0], wl + 3,
                s->trials ? (double)d->lost / (double)s->trials : 0.0);
        if (!d->known) {
            fprintf(out, "%s\n", d->lost == 0 ? "never" : "always");
            continue;
        }
        fprintf(out, "%-*.4f  %-10.4f  %+.4f [%+.4f, %+.4f]\n", wl + 7, d->win_lost.p,
                d->win_kept.p, d->diff, d->lo, d->hi);
    }
    free(order);
}

/* Order of the units in the table of points: by side, then by points scored
 * per 100 points of their value, most first (units of unknown value last),
 * then by index. */
typedef struct ranked_points {
    const om_summary *s;
    size_t u;
} ranked_points;

static int by_points(const void *x, const void *y)
{
    const ranked_points *a = x, *b = y;
    const om_summary_unit_points *pa = &a->s->unit_points[a->u], *pb = &b->s->unit_points[b->u];
    const unsigned sa = a->s->units[a->u].side, sb = b->s->units[b->u].side;
    if (sa != sb)
        return sa < sb ? -1 : 1;
    if (pa->per_100 != pb->per_100)
        return pa->per_100 > pb->per_100 ? -1 : 1;
    return a->u < b->u ? -1 : a->u > b->u;
}

void om_summary_unit_points_rank(const om_summary *s, size_t *order)
{
    /* Insertion into the sorted prefix: a battle has at most a few hundred
     * units, and this needs no scratch array. */
    for (size_t k = 0; k < s->unit_count; k++) {
        size_t j = k;
        const ranked_points x = {.s = s, .u = k};
        while (j > 0 && by_points(&(ranked_points){.s = s, .u = order[j - 1]}, &x) > 0) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
}

void om_summary_text_unit_points(const om_summary *s, FILE *out, const char *ci)
{
    size_t *order;
    const int wid = id_width(s);
    if (s->unit_points == NULL || (order = malloc(s->unit_count * sizeof *order)) == NULL)
        return;
    om_summary_unit_points_rank(s, order);
    fprintf(out, "\nVictory points of each unit: means a battle [%s CI] of the points it scored\n"
            "(%s) and gave up (%s), and scored per 100 points of its value;\n"
            "by side, the best scorers for their cost first\n", ci, s->unit_points_field[1],
            s->unit_points_field[0]);
    fprintf(out, "  %-*s  side  points  %-24s  %-24s  per 100\n", wid, "unit", "scored",
            "given up");
    for (size_t k = 0; k < s->unit_count; k++) {
        const size_t u = order[k];
        const om_summary_unit_points *p = &s->unit_points[u];
        char col[2][64];
        for (int j = 0; j < 2; j++)
            snprintf(col[j], sizeof col[j], "%.1f [%.1f, %.1f]", p->mean[1 - j], p->lo[1 - j],
                     p->hi[1 - j]);
        fprintf(out, "  %-*s  %-4s  %6u  %-24s  %-24s  ", wid, s->units[u].id,
                side_label[s->units[u].side != 0], (unsigned)s->units[u].points, col[0], col[1]);
        if (p->per_100 < 0)
            fprintf(out, "-\n");
        else
            fprintf(out, "%.1f\n", p->per_100);
    }
    free(order);
}

void om_summary_text_warnings(const om_summary *s, FILE *out)
{
    if (s->n_warnings == 0)
        return;
    fprintf(out, "\nNot modelled (the odds leave these out):\n");
    for (size_t i = 0; i < s->n_warnings; i++)
        fprintf(out, "  %s\n", s->warnings[i]);
}

/* {"p", "lo", "hi"} of a probability. */
static json_t *json_p(const om_summary_prob *p)
{
    return json_pack("{s:f, s:f, s:f}", "p", p->p, "lo", p->lo, "hi", p->hi);
}

int om_summary_json_declared(const om_summary *s, json_t *root)
{
    const om_summary_margin *m = &s->margin;
    json_t *margin = json_null(), *decided = json_null(), *warnings = json_array();
    json_t *points = json_null();
    if (m->known) {
        json_t *q = json_object();
        char key[16];
        for (size_t k = 0; q != NULL && k < OM_SUMMARY_MARGIN_QUANTILES; k++) {
            snprintf(key, sizeof key, "%g", om_summary_margin_levels[k]);
            json_object_set_new(q, key, json_integer(m->quantile[k]));
        }
        margin = json_pack("{s:[s, s], s:f, s:f, s:f, s:f, s:o, s:o, s:o}", "fields",
                           m->field[0], m->field[1], "mean", m->mean, "lo", m->lo, "hi", m->hi,
                           "sd", m->sd, "quantiles", q, "p_a_ahead", json_p(&m->ahead[0]),
                           "p_b_ahead", json_p(&m->ahead[1]));
    }
    if (s->deciders != NULL) {
        decided = json_object();
        for (size_t u = 0; decided != NULL && u < s->unit_count; u++) {
            const om_summary_decider *d = &s->deciders[u];
            json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:o}", "lost",
                                  om_output_json_u64(d->lost), "kept",
                                  om_output_json_u64(d->kept), "p_win_lost",
                                  d->lost ? json_p(&d->win_lost) : json_null(), "p_win_kept",
                                  d->kept ? json_p(&d->win_kept) : json_null(), "difference",
                                  d->known ? json_pack("{s:f, s:f, s:f}", "value", d->diff,
                                                       "lo", d->lo, "hi", d->hi)
                                           : json_null());
            if (o == NULL || json_object_set_new(decided, s->units[u].id, o) != 0) {
                json_decref(decided);
                decided = NULL;
            }
        }
    }
    if (s->unit_points != NULL) {
        points = json_object();
        for (size_t u = 0; points != NULL && u < s->unit_count; u++) {
            const om_summary_unit_points *p = &s->unit_points[u];
            json_t *o = json_pack("{s:{s:f, s:f, s:f, s:f}, s:{s:f, s:f, s:f, s:f}, s:o}",
                                  "scored", "mean", p->mean[1], "lo", p->lo[1], "hi", p->hi[1],
                                  "sd", p->sd[1], "given", "mean", p->mean[0], "lo", p->lo[0],
                                  "hi", p->hi[0], "sd", p->sd[0], "scored_per_100_points",
                                  p->per_100 >= 0 ? json_real(p->per_100) : json_null());
            if (o == NULL || json_object_set_new(points, s->units[u].id, o) != 0) {
                json_decref(points);
                points = NULL;
            }
        }
    }
    for (size_t i = 0; warnings != NULL && i < s->n_warnings; i++)
        if (json_array_append_new(warnings, json_string(s->warnings[i])) != 0) {
            json_decref(warnings);
            warnings = NULL;
        }
    if (margin == NULL || decided == NULL || warnings == NULL || points == NULL) {
        json_decref(margin);
        json_decref(decided);
        json_decref(warnings);
        json_decref(points);
        return -1;
    }
    return json_object_set_new(root, "margin", margin) != 0 ||
                   json_object_set_new(root, "decided_by", decided) != 0 ||
                   json_object_set_new(root, "unit_points", points) != 0 ||
                   json_object_set_new(root, "not_modelled", warnings) != 0
               ? -1
               : 0;
}
