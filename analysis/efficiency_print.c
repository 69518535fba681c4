/*
 * efficiency_print.c: the printed forms of a fair-points report (efficiency.h):
 * a readable text report with the fit diagnostic and warnings, one long CSV
 * table per file (units, model or residuals), JSON carrying all of it, and
 * Markdown for a blog post.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "efficiency.h"
#include "manifest.h"
#include "output.h"

/* Side names as printed and as keys. */
static const char *const side_key[2] = {"row", "col"};

/* Widest unit or army name the text tables show before cutting it short. */
#define TEXT_NAME_MAX 24
#define TEXT_ARMY_MAX 14

/* Width of a residual column in the text report. */
#define TEXT_RESIDUAL_WIDTH 9

/* Most warnings a report can carry (one per kind below). */
#define MAX_WARNINGS 7

/* Room for a warning's text. */
#define WARNING_MAX 512

/* ---------------------------------------------------------------- shared */

/* The manifest line of the report's matrix. */
static void manifest_line(const om_efficiency *e, char *buf, size_t size)
{
    om_manifest mf;
    om_manifest_from_matrix(e->m, &mf);
    om_manifest_line(&mf, buf, size);
}

/* A situation's title for people, with its name: "A charges B (a-charges)". */
static void situation_label(const om_matrix_situation *s, char *buf, size_t size)
{
    if (s->title != NULL && s->title[0] != '\0')
        snprintf(buf, size, "%s (%s)", s->title, s->name);
    else
        snprintf(buf, size, "%s", s->name);
}

/* The selected situations in words. */
static void situations_text(const om_efficiency *e, char *buf, size_t size)
{
    const om_matrix_info *info = &e->m->info;
    char one[256];
    size_t n;
    if (e->opt.situation != OM_EFFICIENCY_ALL || info->n_situations == 1) {
        situation_label(&info->situations[e->opt.situation != OM_EFFICIENCY_ALL
                                               ? e->opt.situation : 0], buf, size);
        return;
    }
    n = (size_t)snprintf(buf, size, "all %zu, pooled:", info->n_situations);
    for (size_t s = 0; s < info->n_situations && n < size; s++) {
        situation_label(&info->situations[s], one, sizeof one);
        n += (size_t)snprintf(buf + n, size - n, "%s %s", s > 0 ? ";" : "", one);
    }
}

/* The reference field as a CSV key: "all", or the armies joined by "+". */
static void field_key(const om_efficiency *e, char *buf, size_t size)
{
    size_t n = 0;
    if (e->opt.field == NULL) {
        snprintf(buf, size, "all");
        return;
    }
    buf[0] = '\0';
    for (size_t i = 0; i < e->opt.n_field && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i > 0 ? "+" : "", e->opt.field[i]);
}

/* The reference field in words. */
static void field_text(const om_efficiency *e, char *buf, size_t size)
{
    char key[256];
    if (e->opt.field == NULL) {
        snprintf(buf, size, "every unit of the other axis, each counted once");
        return;
    }
    field_key(e, key, sizeof key);
    snprintf(buf, size, "the units of %s on the other axis, each counted once", key);
}

/* The interval method in words. */
static void interval_text(const om_efficiency *e, char *buf, size_t size)
{
    if (e->opt.interval == OM_EFFICIENCY_BOOTSTRAP)
        snprintf(buf, size, "%g%%, bootstrap over cells (%u replicates, seed %llu), percentiles",
                 100.0 * e->opt.confidence, e->opt.replicates,
                 (unsigned long long)e->opt.seed);
    else
        snprintf(buf, size, "%g%%, delta method on the fit's covariance times the dispersion "
                 "%.2f", 100.0 * e->opt.confidence, e->model.dispersion);
}

/* The warnings of a report, one sentence each; returns how many. */
static size_t warnings(const om_efficiency *e, char w[MAX_WARNINGS][WARNING_MAX])
{
    const om_efficiency_model *md = &e->model;
    size_t n = 0, excluded = 0, not_rated = 0;
    for (size_t u = 0; u < e->n_units; u++) {
        excluded += e->units[u].cells_excluded > 0;
        not_rated += e->units[u].status == OM_EFFICIENCY_NOT_TAKING_PART;
    }
    if (md->weak)
        snprintf(w[n++], WARNING_MAX, "the strengths explain only %.0f%% of the matchups "
                 "(R^2 %.2f < %.1f): who meets whom matters more than one strength per unit, so "
                 "a fair value is an average over the field; read the per-army table and the "
                 "residuals before trusting it", 100.0 * md->r2, md->r2, OM_EFFICIENCY_WEAK_FIT);
    for (int side = 0; side < 2; side++) {
        const om_efficiency_curve *c = &md->curve[side];
        const char *who = side == OM_EFFICIENCY_ROW ? "row" : "column";
        if (!c->defined)
            snprintf(w[n++], WARNING_MAX, "no fair values for the %s units: %s", who,
                     c->reason);
        else if (c->weak)
            snprintf(w[n++], WARNING_MAX, "the points costs of the %s units' field explain only "
                     "%.0f%% of its strengths (price curve R^2 %.2f): its exchange rate b = %.2f "
                     "[%.2f, %.2f] is uncertain, and so is every fair value against it; the "
                     "intervals include it", who, 100.0 * c->r2, c->r2, c->slope.value,
                     c->slope.lo, c->slope.hi);
    }
    if (excluded > 0)
        snprintf(w[n++], WARNING_MAX, "%zu units have cells left out, where they or their "
                 "opponent cannot do what the situation asks (/cells/inapplicable: artillery in "
                 "a melee, ...); their ratings use the other cells", excluded);
    if (not_rated > 0)
        snprintf(w[n++], WARNING_MAX, "%zu units take part in none of the selected situations "
                 "and are not rated", not_rated);
    return n;
}

/* A list's name, or a fallback. */
static const char *name_or(const char *name, const char *fallback)
{
    return name != NULL && name[0] != '\0' ? name : fallback;
}

/* Short status keys for CSV and JSON, in om_efficiency_status order. */
static const char *status_key(om_efficiency_status s)
{
    static const char *const keys[] = {"rated", "not-taking-part", "no-strength", "no-cost",
                                       "no-curve", "no-field"};
    return (size_t)s < sizeof keys / sizeof keys[0] ? keys[s] : "unknown";
}

/* ------------------------------------------------------------------- text */

/* `value` with `fmt`, or "n/a", right-aligned in `width`. */
static void text_real(FILE *out, int width, const char *fmt, double value)
{
    char buf[64];
    if (isfinite(value))
        snprintf(buf, sizeof buf, fmt, value);
    else
        snprintf(buf, sizeof buf, "n/a");
    fprintf(out, "%*s", width, buf);
}

/* "v [lo, hi]" with `fmt` for each, or "n/a" (and "v" alone without an interval). */
static void value_text(char *buf, size_t size, const char *fmt, const om_efficiency_value *v)
{
    char a[24], b[24], c[24];
    if (!isfinite(v->value)) {
        snprintf(buf, size, "n/a");
        return;
    }
    snprintf(a, sizeof a, fmt, v->value);
    if (!isfinite(v->lo) || !isfinite(v->hi)) {
        snprintf(buf, size, "%s", a);
        return;
    }
    snprintf(b, sizeof b, fmt, v->lo);
    snprintf(c, sizeof c, fmt, v->hi);
    /* Cut short if the caller's column is narrower (an encoding error
     * leaves it empty). */
    if (snprintf(buf, size, "%s [%s, %s]", a, b, c) < 0 && size > 0)
        buf[0] = '\0';
}

static int name_width(const om_efficiency *e)
{
    size_t w = 4;
    for (size_t i = 0; i < e->n_units; i++) {
        size_t len = strlen(e->units[i].unit->name);
        w = len > w ? len : w;
    }
    return (int)(w < TEXT_NAME_MAX ? w : TEXT_NAME_MAX);
}

static void text_units(const om_efficiency *e, FILE *out)
{
    int nw = name_width(e);
    fprintf(out, "\nUnits. score: expected score against the field (win 1, draw 1/2); fair: the "
                 "cost at which\nit would score 50%% against the field at equal points; diff: "
                 "fair - points (+: under-costed)\n");
    fprintf(out, "  %-4s %-*s %-*s %6s  %-22s %-24s %-20s %7s %8s  %s\n", "side", TEXT_ARMY_MAX,
            "army", nw, "unit", "points", "score [CI]", "strength [CI]", "fair [CI]", "diff",
            "kill/100", "status");
    for (size_t i = 0; i < e->n_units; i++) {
        const om_efficiency_unit *u = &e->units[i];
        char sc[64], st[64], fa[64];
        value_text(sc, sizeof sc, "%.3f", &u->overall.score);
        value_text(st, sizeof st, "%+.2f", &u->strength);
        value_text(fa, sizeof fa, "%.0f", &u->overall.fair);
        fprintf(out, "  %-4s %-*.*s %-*.*s %6u  %-22s %-24s %-20s", side_key[u->side],
                TEXT_ARMY_MAX, TEXT_ARMY_MAX, om_efficiency_army_name(e, u->side, u->army), nw,
                nw, u->unit->name, u->unit->points, sc, st, fa);
        text_real(out, 7, "%+.0f", u->fair_minus_points);
        text_real(out, 9, "%.1f", u->destroyed_per_100);
        fprintf(out, "  %s\n", om_efficiency_status_name(u));
    }
}

/* One curve's line of the text report. */
static void text_curve(FILE *out, const char *what, const om_efficiency_curve *c)
{
    char slope[96];
    fprintf(out, "  %s: %zu units in %zu group%s%s", what, c->units, c->groups,
            c->groups == 1 ? "" : "s",
            c->pooled ? " (the field has none: the pooled curve of both axes)" : "");
    if (!c->defined) {
        fprintf(out, ": undefined (%s)\n", c->reason);
        return;
    }
    value_text(slope, sizeof slope, "%.3f", &c->slope);
    fprintf(out, "\n    b = %s, R^2 ", slope);
    text_real(out, 0, "%.3f", c->r2);
    fprintf(out, " (on points instead of ln(points): ");
    text_real(out, 0, "%.3f", c->r2_linear);
    fprintf(out, "); residual check: a (ln points)^2 term has t = ");
    text_real(out, 0, "%+.2f", c->quadratic_t);
    fprintf(out, "%s\n", isfinite(c->quadratic_t) && fabs(c->quadratic_t) < 2.0
                             ? " (|t| < 2: no curvature missed)"
                             : isfinite(c->quadratic_t) ? " (|t| >= 2: the curve bends)" : "");
}

static void text_model(const om_efficiency *e, FILE *out)
{
    const om_efficiency_model *md = &e->model;
    char w[MAX_WARNINGS][WARNING_MAX];
    size_t n = warnings(e, w);
    fprintf(out, "\nFit: one strength per unit explains R^2 = ");
    text_real(out, 0, "%.3f", md->r2);
    fprintf(out, " of the matchups (%zu pooled cells, %zu units rated);\n     dispersion %.2f "
                 "(Pearson X^2 %.1f on %.0f df; above 1 widens every covariance interval)\n",
            md->cells, md->rated, md->dispersion, md->pearson_x2, md->df);
    fprintf(out, "Price curves, strength = a(army) + b ln(points), b the field's exchange "
                 "rate:\n");
    text_curve(out, "the columns' (pricing the row units' field)", &md->curve[0]);
    text_curve(out, "the rows' (pricing the column units' field)", &md->curve[1]);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "WARNING: %s.\n", w[i]);
}

static void text_armies(const om_efficiency *e, FILE *out)
{
    int nw = name_width(e);
    for (int side = 0; side < 2; side++) {
        int other = 1 - side;
        fprintf(out, "\n%s units by opposing army: score / fair [CI]\n  %-*s",
                side == OM_EFFICIENCY_ROW ? "Row" : "Column", nw, "");
        for (size_t a = 0; a < e->n_armies[other]; a++)
            fprintf(out, " %-26.26s", om_efficiency_army_name(e, other, a));
        fputc('\n', out);
        for (size_t i = 0; i < e->n_units; i++) {
            const om_efficiency_unit *u = &e->units[i];
            if (u->side != side)
                continue;
            fprintf(out, "  %-*.*s", nw, nw, u->unit->name);
            for (size_t a = 0; a < e->n_armies[other]; a++) {
                char fa[64], cell[96];
                value_text(fa, sizeof fa, "%.0f", &u->by_army[a].fair);
                if (isfinite(u->by_army[a].score.value))
                    snprintf(cell, sizeof cell, "%.3f / %s", u->by_army[a].score.value, fa);
                else
                    snprintf(cell, sizeof cell, "n/a");
                fprintf(out, " %-26s", cell);
            }
            fputc('\n', out);
        }
    }
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
    char manifest[OM_MANIFEST_MAX], sits[1024], trials[128], field[512], iv[256];
    om_manifest mf;

    manifest_line(e, manifest, sizeof manifest);
    situations_text(e, sits, sizeof sits);
    field_text(e, field, sizeof field);
    interval_text(e, iv, sizeof iv);
    om_manifest_from_matrix(e->m, &mf);
    om_manifest_trials(&mf, trials, sizeof trials);
    errno = 0;
    fprintf(out, "Fair points of %s\n", e->m->path);
    fprintf(out, "  rows:       %s (%zu units)\n", name_or(info->row_list, "rows"), info->n_rows);
    fprintf(out, "  columns:    %s (%zu units)\n", name_or(info->col_list, "columns"),
            info->n_cols);
    fprintf(out, "  situations: %s\n", sits);
    fprintf(out, "  field:      %s\n", field);
    fprintf(out, "  intervals:  %s\n", iv);
    fprintf(out, "  rule set:   %s\n", name_or(info->ruleset, "(unknown)"));
    fprintf(out, "  trials:     %s\n", trials);
    fprintf(out, "  seed:       %llu\n", (unsigned long long)info->seed);
    fprintf(out, "  program:    oddsmaster %s\n", name_or(info->program_version, "(unknown)"));
    fprintf(out, "  manifest:   %s\n", manifest);
    text_units(e, out);
    text_model(e, out);
    text_armies(e, out);
    text_residuals(e, out);
    return om_output_finish(out, "efficiency report");
}

/* ------------------------------------------------------------------- CSV */

/* One row of the long unit table. */
static void csv_unit_row(FILE *out, const om_efficiency *e, const om_efficiency_unit *u,
                         const char *field, const char *measure, double value, double lo,
                         double hi, const char *manifest)
{
    fprintf(out, "%s,", side_key[u->side]);
    om_csv_string(out, om_efficiency_army_name(e, u->side, u->army));
    fputc(',', out);
    om_csv_string(out, u->unit->name);
    fputc(',', out);
    om_csv_string(out, u->unit->id);
    fprintf(out, ",%u,", u->unit->points);
    om_csv_string(out, u->unit->troop);
    fputc(',', out);
    om_csv_string(out, field);
    fprintf(out, ",%s", measure);
    om_csv_real(out, value);
    om_csv_real(out, lo);
    om_csv_real(out, hi);
    fprintf(out, ",%s,", status_key(u->status));
    om_csv_string(out, manifest);
    fputc('\n', out);
}

static void csv_units(const om_efficiency *e, FILE *out, const char *manifest)
{
    char field[256];
    field_key(e, field, sizeof field);
    fprintf(out, "side,army,unit,id,points,troop,field,measure,value,lo,hi,status,manifest\n");
    for (size_t i = 0; i < e->n_units; i++) {
        const om_efficiency_unit *u = &e->units[i];
        const om_efficiency_rating *o = &u->overall;
        int other = 1 - u->side;
        struct {
            const char *measure;
            double v, lo, hi;
        } rows[] = {
            {"cells", (double)u->cells, NAN, NAN},
            {"cells_excluded", (double)u->cells_excluded, NAN, NAN},
            {"trials", (double)u->trials, NAN, NAN},
            {"score", o->score.value, o->score.lo, o->score.hi},
            {"p_win", u->p_win, NAN, NAN},
            {"p_draw", u->p_draw, NAN, NAN},
            {"destroyed", u->destroyed, NAN, NAN},
            {"destroyed_per_100", u->destroyed_per_100, NAN, NAN},
            {"lost", u->lost, NAN, NAN},
            {"strength", u->strength.value, u->strength.lo, u->strength.hi},
            {"strength_se", u->strength_se, NAN, NAN},
            {"fair_points", o->fair.value, o->fair.lo, o->fair.hi},
            {"ln_fair_se", o->ln_fair_se, NAN, NAN},
            {"slope", o->slope, NAN, NAN},
            {"fair_minus_points", u->fair_minus_points, NAN, NAN},
        };
        for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++)
            csv_unit_row(out, e, u, field, rows[k].measure, rows[k].v, rows[k].lo, rows[k].hi,
                         manifest);
        for (size_t a = 0; a < e->n_armies[other]; a++) {
            const om_efficiency_rating *r = &u->by_army[a];
            const char *army = om_efficiency_army_name(e, other, a);
            csv_unit_row(out, e, u, army, "cells", (double)r->cells, NAN, NAN, manifest);
            csv_unit_row(out, e, u, army, "score", r->score.value, r->score.lo, r->score.hi,
                         manifest);
            csv_unit_row(out, e, u, army, "fair_points", r->fair.value, r->fair.lo, r->fair.hi,
                         manifest);
        }
    }
}

static void csv_model_row(FILE *out, const char *measure, double v, double lo, double hi,
                          const char *manifest)
{
    fprintf(out, "%s", measure);
    om_csv_real(out, v);
    om_csv_real(out, lo);
    om_csv_real(out, hi);
    fputc(',', out);
    om_csv_string(out, manifest);
    fputc('\n', out);
}

static void csv_model(const om_efficiency *e, FILE *out, const char *manifest)
{
    const om_efficiency_model *md = &e->model;
    fprintf(out, "measure,value,lo,hi,manifest\n");
    csv_model_row(out, "confidence", e->opt.confidence, NAN, NAN, manifest);
    csv_model_row(out, "rated_units", (double)md->rated, NAN, NAN, manifest);
    csv_model_row(out, "pooled_cells", (double)md->cells, NAN, NAN, manifest);
    csv_model_row(out, "r2", md->r2, NAN, NAN, manifest);
    csv_model_row(out, "weak_fit", md->weak ? 1.0 : 0.0, NAN, NAN, manifest);
    csv_model_row(out, "dispersion", md->dispersion, NAN, NAN, manifest);
    csv_model_row(out, "pearson_x2", md->pearson_x2, NAN, NAN, manifest);
    csv_model_row(out, "df", md->df, NAN, NAN, manifest);
    for (int k = 0; k < 3; k++) {
        static const char *const prefix[3] = {"curve_cols", "curve_rows", "curve_pooled"};
        const om_efficiency_curve *c = k < 2 ? &md->curve[k] : &md->pooled;
        char m[64];
        const struct {
            const char *name;
            double v, lo, hi;
        } rows[] = {
            {"defined", c->defined ? 1.0 : 0.0, NAN, NAN},
            {"pooled_stands_in", c->pooled ? 1.0 : 0.0, NAN, NAN},
            {"slope", c->slope.value, c->slope.lo, c->slope.hi},
            {"slope_se", c->slope_se, NAN, NAN},
            {"r2", c->r2, NAN, NAN},
            {"r2_linear", c->r2_linear, NAN, NAN},
            {"quadratic_t", c->quadratic_t, NAN, NAN},
            {"weak", c->weak ? 1.0 : 0.0, NAN, NAN},
            {"units", (double)c->units, NAN, NAN},
            {"groups", (double)c->groups, NAN, NAN},
        };
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            snprintf(m, sizeof m, "%s.%s", prefix[k], rows[i].name);
            csv_model_row(out, m, rows[i].v, rows[i].lo, rows[i].hi, manifest);
        }
    }
    if (e->opt.interval == OM_EFFICIENCY_BOOTSTRAP)
        csv_model_row(out, "bootstrap_replicates", (double)e->opt.replicates, NAN, NAN,
                      manifest);
}

static void csv_residuals(const om_efficiency *e, FILE *out, const char *manifest)
{
    const om_matrix_info *info = &e->m->info;
    fprintf(out, "row,col,games,observed,predicted,residual,manifest\n");
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
            fputc(',', out);
            om_csv_string(out, manifest);
            fputc('\n', out);
        }
}

static om_status print_csv(const om_efficiency *e, om_efficiency_table table, FILE *out)
{
    char manifest[OM_MANIFEST_MAX];
    manifest_line(e, manifest, sizeof manifest);
    errno = 0;
    switch (table) {
    case OM_EFFICIENCY_TABLE_UNITS: csv_units(e, out, manifest); break;
    case OM_EFFICIENCY_TABLE_MODEL: csv_model(e, out, manifest); break;
    case OM_EFFICIENCY_TABLE_RESIDUALS: csv_residuals(e, out, manifest); break;
    default: return OM_ERROR(OM_EINVAL, "om_efficiency_print: unknown table %d", (int)table);
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

static om_status print_markdown(const om_efficiency *e, FILE *out)
{
    const om_matrix_info *info = &e->m->info;
    const om_efficiency_model *md = &e->model;
    char manifest[OM_MANIFEST_MAX], sits[1024], w[MAX_WARNINGS][WARNING_MAX], iv[256];
    size_t nw = warnings(e, w);
    manifest_line(e, manifest, sizeof manifest);
    situations_text(e, sits, sizeof sits);
    interval_text(e, iv, sizeof iv);
    errno = 0;
    fprintf(out, "### Fair points: ");
    md_string(out, name_or(info->row_list, "rows"));
    fprintf(out, " vs ");
    md_string(out, name_or(info->col_list, "columns"));
    fprintf(out, "\n\nSituations: ");
    md_string(out, sits);
    fprintf(out, ". Intervals: %s.\n\n", iv);
    fprintf(out, "| side | army | unit | points | score | strength | fair points | "
                 "fair − points |\n|---|---|---|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < e->n_units; i++) {
        const om_efficiency_unit *u = &e->units[i];
        char sc[64], st[64], fa[64];
        value_text(sc, sizeof sc, "%.3f", &u->overall.score);
        value_text(st, sizeof st, "%+.2f", &u->strength);
        value_text(fa, sizeof fa, "%.0f", &u->overall.fair);
        fprintf(out, "| %s | ", side_key[u->side]);
        md_string(out, om_efficiency_army_name(e, u->side, u->army));
        fprintf(out, " | ");
        md_string(out, u->unit->name);
        fprintf(out, " | %u | %s | %s | %s | ", u->unit->points, sc, st, fa);
        if (isfinite(u->fair_minus_points))
            fprintf(out, "%+.0f |\n", u->fair_minus_points);
        else
            fprintf(out, "%s |\n", status_key(u->status));
    }
    fprintf(out, "\nOne strength per unit explains R² = %.2f of the matchups (dispersion %.2f).",
            md->r2, md->dispersion);
    for (int side = 0; side < 2; side++) {
        const om_efficiency_curve *c = &md->curve[side];
        if (c->defined)
            fprintf(out, " The %s units' field is priced at b = %.2f [%.2f, %.2f] per e-fold of "
                         "cost (R² %.2f, curvature t = %+.2f%s).", side == 0 ? "row" : "column",
                    c->slope.value, c->slope.lo, c->slope.hi, c->r2, c->quadratic_t,
                    c->pooled ? ", the pooled curve" : "");
    }
    fputc('\n', out);
    for (size_t i = 0; i < nw; i++)
        fprintf(out, "\n**Warning:** %s.\n", w[i]);
    fprintf(out, "\n*");
    md_string(out, manifest);
    fprintf(out, "*\n");
    return om_output_finish(out, "efficiency report");
}

/* ------------------------------------------------------------------ JSON */

static json_t *jreal(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *jvalue(const om_efficiency_value *v)
{
    return json_pack("{s:o, s:o, s:o}", "value", jreal(v->value), "lo", jreal(v->lo), "hi",
                     jreal(v->hi));
}

static json_t *jrating(const om_efficiency_rating *r)
{
    return json_pack("{s:I, s:o, s:o, s:o, s:o}", "cells", (json_int_t)r->cells, "score",
                     jvalue(&r->score), "fair_points", jvalue(&r->fair), "ln_fair_se",
                     jreal(r->ln_fair_se), "slope", jreal(r->slope));
}

static json_t *json_unit(const om_efficiency *e, const om_efficiency_unit *u)
{
    json_t *by = json_object();
    int other = 1 - u->side;
    for (size_t a = 0; a < e->n_armies[other] && by != NULL; a++)
        if (json_object_set_new(by, om_efficiency_army_name(e, other, a),
                                jrating(&u->by_army[a])) != 0) {
            json_decref(by);
            by = NULL;
        }
    if (by == NULL)
        return NULL;
    return json_pack("{s:s, s:s, s:s, s:s?, s:I, s:s?, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, "
                     "s:s, s:s, s:o, s:o, s:o, s:o, s:o}",
                     "side", side_key[u->side], "army",
                     om_efficiency_army_name(e, u->side, u->army), "name", u->unit->name, "id",
                     u->unit->id, "points", (json_int_t)u->unit->points, "troop",
                     u->unit->troop, "cells", (json_int_t)u->cells, "cells_excluded",
                     (json_int_t)u->cells_excluded, "trials", om_output_json_u64(u->trials),
                     "p_win", jreal(u->p_win), "p_draw", jreal(u->p_draw), "destroyed",
                     jreal(u->destroyed), "destroyed_per_100", jreal(u->destroyed_per_100),
                     "lost", jreal(u->lost), "status", status_key(u->status), "bt_status",
                     om_bt_status_name(u->bt_status), "strength", jvalue(&u->strength),
                     "strength_se", jreal(u->strength_se), "overall", jrating(&u->overall),
                     "fair_minus_points", jreal(u->fair_minus_points), "by_army", by);
}

/* An R x C matrix as an array of row arrays. */
static json_t *json_matrix(const double *v, size_t R, size_t C)
{
    json_t *rows = json_array();
    for (size_t r = 0; r < R && rows != NULL; r++) {
        json_t *row = json_array();
        for (size_t c = 0; c < C && row != NULL; c++)
            if (json_array_append_new(row, jreal(v[r * C + c])) != 0) {
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

static json_t *json_curve(const om_efficiency_curve *c)
{
    return json_pack("{s:b, s:s?, s:b, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:b}", "defined",
                     c->defined, "reason", c->reason, "pooled", c->pooled, "units",
                     (json_int_t)c->units, "groups", (json_int_t)c->groups, "slope",
                     jvalue(&c->slope), "slope_se", jreal(c->slope_se), "r2", jreal(c->r2),
                     "r2_linear", jreal(c->r2_linear), "quadratic_t", jreal(c->quadratic_t),
                     "weak", c->weak);
}

static json_t *json_model(const om_efficiency *e)
{
    const om_efficiency_model *md = &e->model;
    return json_pack("{s:s, s:s, s:I, s:I, s:o, s:b, s:o, s:o, s:o, s:{s:o, s:o}, s:o}",
                     "name", "bradley-terry", "draws", "half a win", "rated",
                     (json_int_t)md->rated, "pooled_cells", (json_int_t)md->cells, "r2",
                     jreal(md->r2), "weak_fit", md->weak, "dispersion", jreal(md->dispersion),
                     "pearson_x2", jreal(md->pearson_x2), "df", jreal(md->df), "curves",
                     "row_units_field", json_curve(&md->curve[0]), "col_units_field",
                     json_curve(&md->curve[1]), "pooled_curve", json_curve(&md->pooled));
}

static json_t *json_report(const om_efficiency *e)
{
    const om_matrix_info *info = &e->m->info;
    char manifest[OM_MANIFEST_MAX], w[MAX_WARNINGS][WARNING_MAX];
    size_t nw = warnings(e, w);
    json_t *units = json_array(), *situations = json_array(), *warn = json_array();
    json_t *field = e->opt.field != NULL ? json_array() : json_null();
    om_manifest mf;

    manifest_line(e, manifest, sizeof manifest);
    om_manifest_from_matrix(e->m, &mf);
    for (size_t i = 0; i < e->n_units && units != NULL; i++)
        json_array_append_new(units, json_unit(e, &e->units[i]));
    for (size_t s = 0; s < info->n_situations && situations != NULL; s++)
        if (e->opt.situation == OM_EFFICIENCY_ALL || e->opt.situation == s)
            json_array_append_new(situations,
                                  json_pack("{s:s, s:s?}", "name", info->situations[s].name,
                                            "title", info->situations[s].title));
    for (size_t i = 0; i < nw && warn != NULL; i++)
        json_array_append_new(warn, json_string(w[i]));
    for (size_t i = 0; e->opt.field != NULL && field != NULL && i < e->opt.n_field; i++)
        json_array_append_new(field, json_string(e->opt.field[i]));
    if (units == NULL || situations == NULL || warn == NULL || field == NULL) {
        json_decref(units);
        json_decref(situations);
        json_decref(warn);
        json_decref(field);
        return NULL;
    }
    return json_pack(
        "{s:s, s:s, s:{s:s, s:s?, s:s?, s:s?, s:o, s:o, s:o, s:o, s:s?, s:s?, s:s?}, s:o, s:f, "
        "s:{s:s, s:I, s:o}, s:o, s:o, s:o, s:o, s:{s:o, s:o, s:o, s:o, s:o}}",
        "schema", OM_EFFICIENCY_SCHEMA, "file", e->m->path,
        "manifest", "line", manifest, "program_version", info->program_version, "ruleset",
        info->ruleset, "data_version", info->data_version, "seed",
        om_output_json_u64(info->seed), "trials", om_output_json_u64(mf.trials),
        "trials_per_cell", om_output_json_u64(info->trials_per_cell), "target_halfwidth",
        json_real(info->target_halfwidth), "command_line", info->command_line, "row_list",
        info->row_list, "col_list", info->col_list,
        "situations", situations, "confidence", e->opt.confidence,
        "interval", "method",
        e->opt.interval == OM_EFFICIENCY_BOOTSTRAP ? "bootstrap" : "covariance", "replicates",
        (json_int_t)(e->opt.interval == OM_EFFICIENCY_BOOTSTRAP ? e->opt.replicates : 0),
        "seed", om_output_json_u64(e->opt.seed),
        "field", field, "model", json_model(e), "warnings", warn, "units", units,
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

om_status om_efficiency_print(const om_efficiency *e, om_efficiency_format format,
                              om_efficiency_table table, FILE *out)
{
    if (e == NULL || out == NULL)
        return OM_ERROR(OM_EINVAL, "om_efficiency_print: missing report or stream");
    switch (format) {
    case OM_EFFICIENCY_TEXT: return print_text(e, out);
    case OM_EFFICIENCY_CSV: return print_csv(e, table, out);
    case OM_EFFICIENCY_JSON: return print_json(e, out);
    case OM_EFFICIENCY_MARKDOWN: return print_markdown(e, out);
    }
    return OM_ERROR(OM_EINVAL, "om_efficiency_print: unknown format %d", (int)format);
}
