/*
 * efficiency.c: per-unit points efficiency of a matchup matrix and its text,
 * CSV, JSON and Markdown forms (efficiency.h; issue items 2 and 4). Every
 * number is defined in efficiency.h; this file computes and prints them.
 */
#include "efficiency.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "manifest.h"
#include "output.h"
#include "stats.h"

/* Side names as printed and as keys. */
static const char *const side_key[2] = {"row", "col"};

/* Widest unit name the text table shows before cutting it short. */
#define TEXT_NAME_MAX 24

/* Width of a residual column in the text report. */
#define TEXT_RESIDUAL_WIDTH 9

/* ---------------------------------------------------------------- compute */

om_status om_efficiency_situation_find(const om_matrix *m, const char *name, size_t *index)
{
    char known[512] = "";
    if (name == NULL || strcmp(name, "all") == 0) {
        *index = OM_EFFICIENCY_ALL;
        return OM_OK;
    }
    for (size_t s = 0; s < m->info.n_situations; s++)
        if (strcmp(m->info.situations[s].name, name) == 0) {
            *index = s;
            return OM_OK;
        }
    for (size_t s = 0; s < m->info.n_situations; s++) {
        size_t len = strlen(known);
        snprintf(known + len, sizeof known - len, "%s%s", s > 0 ? ", " : "",
                 m->info.situations[s].name);
    }
    return OM_ERROR(OM_ENOTFOUND, "%s: no situation '%s' (situations: %s, or all)", m->path,
                    name, known);
}

void om_efficiency_free(om_efficiency *e)
{
    if (e == NULL)
        return;
    om_bt_fit_free(e->bt);
    free(e->units);
    free(e->trials);
    free(e->wins);
    free(e->draws);
    free(e->losses);
    free(e->observed);
    free(e->predicted);
    free(e->residual);
    free(e);
}

/* Whether situation s is selected. */
static bool selected(const om_efficiency *e, size_t s)
{
    return e->situation == OM_EFFICIENCY_ALL || e->situation == s;
}

/* Sum the outcomes of the selected situations into the R x C arrays. */
static void pool_cells(om_efficiency *e)
{
    const om_matrix *m = e->m;
    size_t R = m->info.n_rows, C = m->info.n_cols;
    for (size_t s = 0; s < m->info.n_situations; s++) {
        if (!selected(e, s))
            continue;
        for (size_t i = 0; i < R * C; i++) {
            const om_matrix_cell *cell = om_matrix_at(m, s, i / C, i % C);
            e->trials[i] += (double)cell->trials;
            e->wins[i] += (double)cell->wins_row;
            e->draws[i] += (double)cell->draws;
            e->losses[i] += (double)cell->wins_col;
        }
    }
}

/*
 * The per-unit numbers of unit u (efficiency.h): means over its cells, each
 * cell weighing the same, and the interval of P(win) from the effective trials.
 */
static om_status unit_stats(om_efficiency *e, om_efficiency_unit *u)
{
    const om_matrix *m = e->m;
    size_t R = m->info.n_rows, C = m->info.n_cols;
    size_t n_opp = u->side == OM_EFFICIENCY_ROW ? C : R;
    double sum_p = 0.0, sum_inv_n = 0.0, destroyed = 0.0, lost = 0.0, k;

    for (size_t s = 0; s < m->info.n_situations; s++) {
        if (!selected(e, s))
            continue;
        for (size_t j = 0; j < n_opp; j++) {
            bool row = u->side == OM_EFFICIENCY_ROW;
            const om_matrix_cell *cell = row ? om_matrix_at(m, s, u->index, j)
                                             : om_matrix_at(m, s, j, u->index);
            double n = (double)cell->trials;
            uint64_t won = row ? cell->wins_row : cell->wins_col;
            if (cell->trials == 0)
                continue;
            u->cells++;
            u->trials += cell->trials;
            u->wins += won;
            u->draws += cell->draws;
            u->losses += row ? cell->wins_col : cell->wins_row;
            sum_p += (double)won / n;
            sum_inv_n += 1.0 / n;
            destroyed += (row ? cell->points_lost_col_sum : cell->points_lost_row_sum) / n;
            lost += (row ? cell->points_lost_row_sum : cell->points_lost_col_sum) / n;
        }
    }
    u->p_win = u->p_win_lo = u->p_win_hi = NAN;
    u->destroyed = u->destroyed_per_100 = u->lost = NAN;
    if (u->cells == 0)
        return OM_OK;
    k = (double)u->cells;
    u->p_win = sum_p / k;
    u->destroyed = destroyed / k;
    u->lost = lost / k;
    if (u->unit->points > 0)
        u->destroyed_per_100 = 100.0 * u->destroyed / (double)u->unit->points;
    /* The mean of k proportions has the variance of one from k^2 / sum(1/n) trials. */
    return om_stats_wilson_real(fmin(1.0, u->p_win), k * k / sum_inv_n, e->confidence,
                                &u->p_win_lo, &u->p_win_hi);
}

/* A unit enters the fair-points regression with a strength and a positive cost. */
static bool fair_usable(const om_efficiency_unit *u)
{
    return u->bt_status == OM_BT_ESTIMATED && u->unit->points > 0;
}

/* The fair-points line and every unit's fair value (efficiency.h). */
static void fair_points(om_efficiency *e)
{
    double n[2] = {0, 0}, mx[2] = {0, 0}, my[2] = {0, 0}, sxx = 0, sxy = 0, syy = 0, sse = 0;

    e->fair_defined = false;
    e->fair_slope = e->fair_r2 = NAN;
    e->fair_intercept[0] = e->fair_intercept[1] = NAN;
    e->fair_units = 0;
    for (size_t i = 0; i < e->n_units; i++) {
        const om_efficiency_unit *u = &e->units[i];
        if (!fair_usable(u))
            continue;
        n[u->side] += 1.0;
        mx[u->side] += log((double)u->unit->points);
        my[u->side] += u->strength;
        e->fair_units++;
    }
    for (int g = 0; g < 2; g++)
        if (n[g] > 0) {
            mx[g] /= n[g];
            my[g] /= n[g];
        }
    /* Within-side sums of squares and products: the common slope of the two lines. */
    for (size_t i = 0; i < e->n_units; i++) {
        const om_efficiency_unit *u = &e->units[i];
        double dx, dy;
        if (!fair_usable(u))
            continue;
        dx = log((double)u->unit->points) - mx[u->side];
        dy = u->strength - my[u->side];
        sxx += dx * dx;
        sxy += dx * dy;
        syy += dy * dy;
    }
    if (e->fair_units < OM_EFFICIENCY_FAIR_MIN_UNITS) {
        e->fair_reason = "fewer than 3 units have both a strength and a points cost";
        return;
    }
    if (!(sxx > 0.0)) {
        e->fair_reason = "the points costs do not vary within a side";
        return;
    }
    e->fair_slope = sxy / sxx;
    if (!(e->fair_slope > 0.0)) {
        e->fair_reason = "strength does not rise with points cost (slope <= 0): the costs do "
                         "not explain the results";
        return;
    }
    for (int g = 0; g < 2; g++)
        if (n[g] > 0)
            e->fair_intercept[g] = my[g] - e->fair_slope * mx[g];
    sse = syy - e->fair_slope * sxy;
    e->fair_r2 = syy > 0.0 ? 1.0 - sse / syy : 1.0;
    e->fair_defined = true;
    e->fair_reason = NULL;
    for (size_t i = 0; i < e->n_units; i++) {
        om_efficiency_unit *u = &e->units[i];
        if (!fair_usable(u))
            continue;
        u->fair_points = exp((u->strength - e->fair_intercept[u->side]) / e->fair_slope);
        u->fair_minus_points = u->fair_points - (double)u->unit->points;
    }
}

static om_status efficiency_fill(om_efficiency *e)
{
    const om_matrix *m = e->m;
    size_t R = m->info.n_rows, C = m->info.n_cols;
    om_status st;

    pool_cells(e);
    for (size_t i = 0; i < e->n_units; i++) {
        om_efficiency_unit *u = &e->units[i];
        u->side = i < R ? OM_EFFICIENCY_ROW : OM_EFFICIENCY_COL;
        u->index = i < R ? i : i - R;
        u->unit = i < R ? &m->info.rows[i] : &m->info.cols[i - R];
        u->fair_points = u->fair_minus_points = NAN;
        if ((st = unit_stats(e, u)) != OM_OK)
            return st;
    }
    if ((st = om_bt_fit_alloc(R, C, e->wins, e->draws, e->losses, &e->bt)) != OM_OK)
        return st;
    for (size_t i = 0; i < e->n_units; i++) {
        e->units[i].bt_status = e->bt->status[i];
        e->units[i].strength = e->bt->strength[i];
        e->units[i].strength_se = e->bt->se[i];
    }
    om_bt_residuals(e->bt, e->wins, e->draws, e->losses, e->observed, e->predicted,
                    e->residual);
    fair_points(e);
    return OM_OK;
}

om_status om_efficiency_compute(const om_matrix *m, size_t situation, double confidence,
                                om_efficiency **out)
{
    om_efficiency *e;
    size_t cells;
    om_status st;
    double **arrays[7];

    if (m == NULL || out == NULL)
        return OM_ERROR(OM_EINVAL, "om_efficiency_compute: missing matrix or output");
    *out = NULL;
    if (situation != OM_EFFICIENCY_ALL && situation >= m->info.n_situations)
        return OM_ERROR(OM_EINVAL, "%s: situation %zu does not exist (%zu situations)",
                        m->path, situation, m->info.n_situations);
    if (!(confidence > 0.0 && confidence < 1.0))
        return OM_ERROR(OM_EINVAL, "confidence must lie strictly between 0 and 1 (got %g)",
                        confidence);
    e = calloc(1, sizeof *e);
    if (e == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", m->path);
    e->m = m;
    e->situation = situation;
    e->confidence = confidence;
    e->n_units = m->info.n_rows + m->info.n_cols;
    e->units = calloc(e->n_units, sizeof *e->units);
    cells = m->info.n_rows * m->info.n_cols;
    arrays[0] = &e->trials;
    arrays[1] = &e->wins;
    arrays[2] = &e->draws;
    arrays[3] = &e->losses;
    arrays[4] = &e->observed;
    arrays[5] = &e->predicted;
    arrays[6] = &e->residual;
    st = e->units != NULL ? OM_OK : OM_ENOMEM;
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        if ((*arrays[i] = calloc(cells, sizeof(double))) == NULL)
            st = OM_ENOMEM;
    if (st != OM_OK) {
        om_efficiency_free(e);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", m->path);
    }
    if ((st = efficiency_fill(e)) != OM_OK) {
        om_efficiency_free(e);
        return st;
    }
    *out = e;
    return OM_OK;
}

/* ----------------------------------------------------------------- output */

/* The manifest line and the selected situations as text ("charge-open" or "all 3"). */
static void describe(const om_efficiency *e, char *manifest, size_t msize, char *sits,
                     size_t ssize)
{
    om_manifest mf;
    om_manifest_from_matrix(e->m, &mf);
    om_manifest_line(&mf, manifest, msize);
    if (e->situation != OM_EFFICIENCY_ALL)
        snprintf(sits, ssize, "%s", e->m->info.situations[e->situation].name);
    else if (e->m->info.n_situations == 1)
        snprintf(sits, ssize, "%s", e->m->info.situations[0].name);
    else {
        /* "all: charge-open, charge-defended (pooled)". */
        size_t n = (size_t)snprintf(sits, ssize, "all:");
        for (size_t s = 0; s < e->m->info.n_situations && n < ssize; s++)
            n += (size_t)snprintf(sits + n, ssize - n, "%s %s", s > 0 ? "," : "",
                                  e->m->info.situations[s].name);
        if (n < ssize)
            snprintf(sits + n, ssize - n, " (pooled)");
    }
}


/* A list's name, or a fallback. */
static const char *list_name(const char *name, const char *fallback)
{
    return name != NULL && name[0] != '\0' ? name : fallback;
}

/* `value` with `fmt`, or "n/a" when undefined, right-aligned in `width`. */
static void text_real(FILE *out, int width, const char *fmt, double value)
{
    char buf[64];
    if (isfinite(value))
        snprintf(buf, sizeof buf, fmt, value);
    else
        snprintf(buf, sizeof buf, "n/a");
    fprintf(out, "%*s", width, buf);
}

/* Printed width of the unit-name column: the longest name, capped. */
static int name_width(const om_efficiency *e)
{
    size_t w = 4;
    for (size_t i = 0; i < e->n_units; i++) {
        size_t len = strlen(e->units[i].unit->name);
        w = len > w ? len : w;
    }
    return (int)(w < TEXT_NAME_MAX ? w : TEXT_NAME_MAX);
}

static void text_units(const om_efficiency *e, FILE *out, const char *ci)
{
    int nw = name_width(e);
    char head[48];
    snprintf(head, sizeof head, "P(win) [%s CI]", ci);
    fprintf(out, "\nUnits (P(win) against the field; points destroyed per 100 points spent; "
                 "own points lost)\n");
    fprintf(out, "  %-4s %-*s %6s  %-25s %9s %8s %9s %7s %8s %8s\n", "side", nw, "unit",
            "points", head, "kill/100", "lost", "strength", "(SE)", "fair", "diff");
    for (size_t i = 0; i < e->n_units; i++) {
        const om_efficiency_unit *u = &e->units[i];
        char pw[64];
        if (isfinite(u->p_win))
            snprintf(pw, sizeof pw, "%.4f [%.4f, %.4f]", u->p_win, u->p_win_lo, u->p_win_hi);
        else
            snprintf(pw, sizeof pw, "n/a");
        fprintf(out, "  %-4s %-*.*s %6u  %-25s", side_key[u->side], nw, nw, u->unit->name,
                u->unit->points, pw);
        text_real(out, 10, "%.1f", u->destroyed_per_100);
        text_real(out, 9, "%.1f", u->lost);
        text_real(out, 10, "%+.3f", u->strength);
        text_real(out, 8, "%.3f", u->strength_se);
        text_real(out, 9, "%.0f", u->fair_points);
        text_real(out, 9, "%+.0f", u->fair_minus_points);
        if (u->bt_status != OM_BT_ESTIMATED)
            fprintf(out, "  %s", om_bt_status_name(u->bt_status));
        fprintf(out, "\n");
    }
}

static void text_fair(const om_efficiency *e, FILE *out)
{
    fprintf(out, "\nFair points: strength = a + b ln(points), one intercept per side, "
                 "fair = exp((strength - a) / b)\n");
    if (!e->fair_defined) {
        fprintf(out, "  not defined: %s\n", e->fair_reason);
        return;
    }
    fprintf(out, "  b = %.4f, a_row = ", e->fair_slope);
    text_real(out, 0, "%.4f", e->fair_intercept[0]);
    fprintf(out, ", a_col = ");
    text_real(out, 0, "%.4f", e->fair_intercept[1]);
    fprintf(out, ", R^2 = %.3f over %zu units\n", e->fair_r2, e->fair_units);
}

static void text_residuals(const om_efficiency *e, FILE *out)
{
    const om_matrix_info *info = &e->m->info;
    int nw = name_width(e), cw = TEXT_RESIDUAL_WIDTH;
    fprintf(out, "\nResiduals: observed minus predicted share of the row unit's score "
                 "(win 1, draw 1/2)\n");
    fprintf(out, "  %-*s", nw, "");
    for (size_t c = 0; c < info->n_cols; c++)
        fprintf(out, " %*.*s", cw - 1, cw - 1, info->cols[c].name);
    fprintf(out, "\n");
    for (size_t r = 0; r < info->n_rows; r++) {
        fprintf(out, "  %-*.*s", nw, nw, info->rows[r].name);
        for (size_t c = 0; c < info->n_cols; c++)
            text_real(out, cw, "%+.4f", e->residual[r * info->n_cols + c]);
        fprintf(out, "\n");
    }
}

static om_status print_text(const om_efficiency *e, FILE *out)
{
    const om_matrix_info *info = &e->m->info;
    char manifest[OM_MANIFEST_MAX], sits[256], ci[32], trials[128];
    om_manifest mf;

    describe(e, manifest, sizeof manifest, sits, sizeof sits);
    om_manifest_from_matrix(e->m, &mf);
    om_manifest_trials(&mf, trials, sizeof trials);
    snprintf(ci, sizeof ci, "%g%%", 100.0 * e->confidence);
    errno = 0;
    fprintf(out, "Efficiency of %s\n", e->m->path);
    fprintf(out, "  rows:       %s (%zu units)\n", list_name(info->row_list, "rows"),
            info->n_rows);
    fprintf(out, "  columns:    %s (%zu units)\n", list_name(info->col_list, "columns"),
            info->n_cols);
    fprintf(out, "  situation:  %s\n", sits);
    fprintf(out, "  rule set:   %s\n", list_name(info->ruleset, "(unknown)"));
    fprintf(out, "  data:       %s\n", list_name(info->data_version, "(unknown)"));
    fprintf(out, "  trials:     %s\n", trials);
    fprintf(out, "  seed:       %llu\n", (unsigned long long)info->seed);
    fprintf(out, "  program:    oddsmaster %s\n", list_name(info->program_version, "(unknown)"));
    fprintf(out, "  model:      Bradley-Terry maximum likelihood, a draw = half a win; "
                 "%zu of %zu units estimated\n", e->bt->n_estimated, e->n_units);
    fprintf(out, "  manifest:   %s\n", manifest);
    text_units(e, out, ci);
    text_fair(e, out);
    text_residuals(e, out);
    return om_output_finish(out, "efficiency report");
}

/* ------------------------------------------------------------------- CSV */

/* Short status keys for CSV and JSON, in om_bt_status order. */
static const char *status_key(om_bt_status s)
{
    static const char *const keys[] = {"estimated", "unbeaten", "winless", "disconnected",
                                       "no-games"};
    return (size_t)s < sizeof keys / sizeof keys[0] ? keys[s] : "unknown";
}

static om_status print_csv(const om_efficiency *e, FILE *out)
{
    const om_matrix_info *info = &e->m->info;
    char manifest[OM_MANIFEST_MAX], sits[256];
    describe(e, manifest, sizeof manifest, sits, sizeof sits);
    errno = 0;
    fprintf(out, "# %s\n# situation: %s; P(win) intervals: %g%% Wilson\n", manifest, sits,
            100.0 * e->confidence);
    fprintf(out, "side,unit,id,points,cells,trials,p_win,p_win_lo,p_win_hi,destroyed,"
                 "destroyed_per_100,lost,strength,strength_se,status,fair_points,"
                 "fair_minus_points\n");
    for (size_t i = 0; i < e->n_units; i++) {
        const om_efficiency_unit *u = &e->units[i];
        fprintf(out, "%s,", side_key[u->side]);
        om_csv_string(out, u->unit->name);
        fputc(',', out);
        om_csv_string(out, u->unit->id);
        fprintf(out, ",%u,%zu,%llu", u->unit->points, u->cells, (unsigned long long)u->trials);
        om_csv_real(out, u->p_win);
        om_csv_real(out, u->p_win_lo);
        om_csv_real(out, u->p_win_hi);
        om_csv_real(out, u->destroyed);
        om_csv_real(out, u->destroyed_per_100);
        om_csv_real(out, u->lost);
        om_csv_real(out, u->strength);
        om_csv_real(out, u->strength_se);
        fprintf(out, ",%s", status_key(u->bt_status));
        om_csv_real(out, u->fair_points);
        om_csv_real(out, u->fair_minus_points);
        fputc('\n', out);
    }
    fprintf(out, "\n# residuals: observed minus predicted share of the row unit's score "
                 "(win 1, draw 1/2)\nrow,col,games,observed,predicted,residual\n");
    for (size_t r = 0; r < info->n_rows; r++)
        for (size_t c = 0; c < info->n_cols; c++) {
            size_t i = r * info->n_cols + c;
            om_csv_string(out, info->rows[r].name);
            fputc(',', out);
            om_csv_string(out, info->cols[c].name);
            fprintf(out, ",%.10g", e->wins[i] + e->draws[i] + e->losses[i]);
            om_csv_real(out, e->observed[i]);
            om_csv_real(out, e->predicted[i]);
            om_csv_real(out, e->residual[i]);
            fputc('\n', out);
        }
    return om_output_finish(out, "efficiency report");
}

/* -------------------------------------------------------------- Markdown */

/* A Markdown table cell: '|' escaped. */
static void md_string(FILE *out, const char *s)
{
    for (; *s != '\0'; s++) {
        if (*s == '|')
            fputc('\\', out);
        fputc(*s == '\n' ? ' ' : *s, out);
    }
}

static void md_real(FILE *out, const char *fmt, double v)
{
    fputs(" | ", out);
    if (isfinite(v))
        fprintf(out, fmt, v);
    else
        fputs("n/a", out);
}

static om_status print_markdown(const om_efficiency *e, FILE *out)
{
    const om_matrix_info *info = &e->m->info;
    char manifest[OM_MANIFEST_MAX], sits[256];
    describe(e, manifest, sizeof manifest, sits, sizeof sits);
    errno = 0;
    fprintf(out, "### Points efficiency: ");
    md_string(out, list_name(info->row_list, "rows"));
    fprintf(out, " vs ");
    md_string(out, list_name(info->col_list, "columns"));
    fprintf(out, " (situation: ");
    md_string(out, sits);
    fprintf(out, ")\n\n");
    fprintf(out, "| side | unit | points | P(win) | %g%% CI | destroyed per 100 pts | "
                 "points lost | strength | SE | fair points | fair − printed |\n",
            100.0 * e->confidence);
    fprintf(out, "|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < e->n_units; i++) {
        const om_efficiency_unit *u = &e->units[i];
        fprintf(out, "| %s | ", side_key[u->side]);
        md_string(out, u->unit->name);
        fprintf(out, " | %u", u->unit->points);
        md_real(out, "%.3f", u->p_win);
        if (isfinite(u->p_win))
            fprintf(out, " | %.3f–%.3f", u->p_win_lo, u->p_win_hi);
        else
            fprintf(out, " | n/a");
        md_real(out, "%.1f", u->destroyed_per_100);
        md_real(out, "%.1f", u->lost);
        md_real(out, "%+.3f", u->strength);
        md_real(out, "%.3f", u->strength_se);
        md_real(out, "%.0f", u->fair_points);
        md_real(out, "%+.0f", u->fair_minus_points);
        fprintf(out, " |\n");
    }
    if (e->fair_defined)
        fprintf(out, "\nFair points from strength = a + b·ln(points) (one intercept per "
                     "side): b = %.3f, R² = %.3f over %zu units.\n", e->fair_slope,
                e->fair_r2, e->fair_units);
    else
        fprintf(out, "\nFair points not defined: %s.\n", e->fair_reason);

    fprintf(out, "\n**Residuals** (observed − predicted share of the row unit's score; "
                 "win 1, draw ½)\n\n| |");
    for (size_t c = 0; c < info->n_cols; c++) {
        fputc(' ', out);
        md_string(out, info->cols[c].name);
        fprintf(out, " |");
    }
    fprintf(out, "\n|---|");
    for (size_t c = 0; c < info->n_cols; c++)
        fprintf(out, "---:|");
    fputc('\n', out);
    for (size_t r = 0; r < info->n_rows; r++) {
        fprintf(out, "| ");
        md_string(out, info->rows[r].name);
        for (size_t c = 0; c < info->n_cols; c++)
            md_real(out, "%+.3f", e->residual[r * info->n_cols + c]);
        fprintf(out, " |\n");
    }
    fprintf(out, "\n*");
    md_string(out, manifest);
    fprintf(out, "*\n");
    return om_output_finish(out, "efficiency report");
}

/* ------------------------------------------------------------------ JSON */

/* A real, or null when undefined. */
static json_t *json_real_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* A u64 as a JSON integer when it fits jansson's signed 64 bits, else a string. */

static json_t *json_unit(const om_efficiency_unit *u)
{
    return json_pack("{s:s, s:s, s:s?, s:I, s:I, s:o, s:{s:o, s:o, s:o}, s:o, s:o, s:o, s:o, "
                     "s:o, s:s, s:o, s:o}",
                     "side", side_key[u->side], "name", u->unit->name, "id", u->unit->id,
                     "points", (json_int_t)u->unit->points, "cells", (json_int_t)u->cells,
                     "trials", om_output_json_u64(u->trials),
                     "p_win", "p", json_real_or_null(u->p_win), "lo",
                     json_real_or_null(u->p_win_lo), "hi", json_real_or_null(u->p_win_hi),
                     "destroyed", json_real_or_null(u->destroyed),
                     "destroyed_per_100", json_real_or_null(u->destroyed_per_100),
                     "lost", json_real_or_null(u->lost),
                     "strength", json_real_or_null(u->strength),
                     "strength_se", json_real_or_null(u->strength_se),
                     "status", status_key(u->bt_status),
                     "fair_points", json_real_or_null(u->fair_points),
                     "fair_minus_points", json_real_or_null(u->fair_minus_points));
}

/* An R x C matrix as an array of row arrays. */
static json_t *json_matrix(const double *v, size_t R, size_t C)
{
    json_t *rows = json_array();
    for (size_t r = 0; r < R && rows != NULL; r++) {
        json_t *row = json_array();
        for (size_t c = 0; c < C && row != NULL; c++)
            if (json_array_append_new(row, json_real_or_null(v[r * C + c])) != 0) {
                json_decref(row);
                row = NULL;
            }
        if (row == NULL || json_array_append_new(rows, row) != 0) {
            json_decref(rows);
            rows = NULL;
        }
    }
    return rows;
}

static json_t *json_names(const om_matrix_unit *units, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n && a != NULL; i++)
        if (json_array_append_new(a, json_string(units[i].name)) != 0) {
            json_decref(a);
            a = NULL;
        }
    return a;
}

static json_t *json_report(const om_efficiency *e)
{
    const om_matrix_info *info = &e->m->info;
    char manifest[OM_MANIFEST_MAX], sits[256];
    json_t *units, *situations;
    om_manifest mf;

    describe(e, manifest, sizeof manifest, sits, sizeof sits);
    om_manifest_from_matrix(e->m, &mf);
    units = json_array();
    situations = json_array();
    for (size_t i = 0; i < e->n_units && units != NULL; i++)
        if (json_array_append_new(units, json_unit(&e->units[i])) != 0) {
            json_decref(units);
            units = NULL;
        }
    for (size_t s = 0; s < info->n_situations && situations != NULL; s++)
        if (selected(e, s)
            && json_array_append_new(situations, json_string(info->situations[s].name)) != 0) {
            json_decref(situations);
            situations = NULL;
        }
    if (units == NULL || situations == NULL) {
        json_decref(units);
        json_decref(situations);
        return NULL;
    }
    /* "s?": a NULL string (a matrix built in memory) becomes null. */
    return json_pack(
        "{s:s, s:s, s:{s:s, s:s?, s:s?, s:s?, s:o, s:o, s:o, s:o, s:s?, s:s?, s:s?}, s:o, s:f, "
        "s:{s:s, s:s, s:I, s:o, s:I}, s:{s:b, s:o, s:o, s:o, s:o, s:o, s:I}, s:o, "
        "s:{s:o, s:o, s:o, s:o, s:o}}",
        "schema", OM_EFFICIENCY_SCHEMA, "file", e->m->path,
        "manifest", "line", manifest, "program_version", info->program_version, "ruleset",
        info->ruleset, "data_version", info->data_version, "seed", om_output_json_u64(info->seed),
        "trials", om_output_json_u64(mf.trials), "trials_per_cell", om_output_json_u64(info->trials_per_cell),
        "target_halfwidth", json_real(info->target_halfwidth), "command_line",
        info->command_line, "row_list", info->row_list, "col_list", info->col_list,
        "situations", situations, "confidence", e->confidence,
        "model", "name", "bradley-terry", "draws", "half a win", "estimated",
        (json_int_t)e->bt->n_estimated, "log_likelihood",
        json_real_or_null(e->bt->n_estimated > 0 ? e->bt->log_likelihood : NAN), "iterations",
        (json_int_t)e->bt->iterations,
        "fair_points", "defined", e->fair_defined, "reason",
        e->fair_reason != NULL ? json_string(e->fair_reason) : json_null(), "slope",
        json_real_or_null(e->fair_slope), "intercept_row",
        json_real_or_null(e->fair_intercept[0]), "intercept_col",
        json_real_or_null(e->fair_intercept[1]), "r2", json_real_or_null(e->fair_r2), "units",
        (json_int_t)e->fair_units,
        "units", units,
        "residuals", "rows", json_names(info->rows, info->n_rows), "cols",
        json_names(info->cols, info->n_cols), "observed",
        json_matrix(e->observed, info->n_rows, info->n_cols), "predicted",
        json_matrix(e->predicted, info->n_rows, info->n_cols), "residual",
        json_matrix(e->residual, info->n_rows, info->n_cols));
}

static om_status print_json(const om_efficiency *e, FILE *out)
{
    json_t *root = json_report(e);
    int rc;
    if (root == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: cannot build the JSON report (out of memory)",
                        e->m->path);
    errno = 0;
    rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
    json_decref(root);
    if (rc != 0)
        return OM_ERROR(OM_EIO, "cannot write the efficiency report: %s",
                        errno != 0 ? strerror(errno) : "write error");
    fputc('\n', out);
    return om_output_finish(out, "efficiency report");
}

om_status om_efficiency_print(const om_efficiency *e, om_efficiency_format format, FILE *out)
{
    if (e == NULL || out == NULL)
        return OM_ERROR(OM_EINVAL, "om_efficiency_print: missing report or stream");
    switch (format) {
    case OM_EFFICIENCY_TEXT: return print_text(e, out);
    case OM_EFFICIENCY_CSV: return print_csv(e, out);
    case OM_EFFICIENCY_JSON: return print_json(e, out);
    case OM_EFFICIENCY_MARKDOWN: return print_markdown(e, out);
    }
    return OM_ERROR(OM_EINVAL, "om_efficiency_print: unknown format %d", (int)format);
}
