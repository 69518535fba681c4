/*
 * chart_data.c: the data side of the charts (chart.h): reads a run file through
 * the summary module or a matrix file through the efficiency module, turns it
 * into a spec of titles, labels and numbers (chart_int.h), writes the CSV of
 * what is plotted, and has chart.c draw the spec; both outputs go through
 * temporary files renamed on success. No cairo here: chart.c is its only user.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "chart_int.h"
#include "csv.h"
#include "efficiency.h"
#include "h5file.h"
#include "suggest.h"
#include "summary.h"

/* Default sizes: a 2:1 strip for three bars, a taller plot, a near-square grid, a plot. */
static const unsigned default_size[4][2] = {{1200, 600}, {1200, 700}, {1200, 1000},
                                            {1200, 900}};

/* Kind names, in om_chart_kind order. */
static const char *const kind_names[4] = {"odds", "dist", "heatmap", "fair"};

/* ------------------------------------------------------------ small parts */

om_status om_chart_kind_parse(const char *text, om_chart_kind *out)
{
    for (int i = 0; i < 4; i++)
        if (text != NULL && strcmp(text, kind_names[i]) == 0) {
            *out = (om_chart_kind)i;
            return OM_OK;
        }
    return OM_ERROR(OM_EINVAL, "unknown chart kind '%s' (odds, dist, heatmap or fair)",
                    text != NULL ? text : "");
}

om_status om_chart_format_from_path(const char *path, om_chart_format *out)
{
    static const char *const ext[] = {".png", ".svg", ".pdf"};
    const char *dot = path != NULL ? strrchr(path, '.') : NULL;
    const char *slash = path != NULL ? strrchr(path, '/') : NULL;
    if (dot != NULL && (slash == NULL || dot > slash))
        for (int i = 0; i < 3; i++)
            if (strcasecmp(dot, ext[i]) == 0) {
                *out = (om_chart_format)i;
                return OM_OK;
            }
    return OM_ERROR(OM_EINVAL, "%s: the chart format follows the extension, which must be "
                    ".png, .svg or .pdf", path != NULL ? path : "(no path)");
}

void om_chart_default_size(om_chart_kind kind, unsigned *width, unsigned *height)
{
    *width = default_size[kind][0];
    *height = default_size[kind][1];
}

char *om_chart_csv_path(const char *out_path)
{
    size_t len = strlen(out_path);
    char *csv = malloc(len + 5);
    if (csv != NULL) {
        memcpy(csv, out_path, len);
        memcpy(csv + len, ".csv", 5);
    }
    return csv;
}

void om_chart_spec_clear(om_chart_spec *spec)
{
    free(spec->p_equal);
    free(spec->p_least);
    free(spec->lo);
    free(spec->hi);
    for (size_t i = 0; spec->row_labels != NULL && i < spec->rows; i++)
        free(spec->row_labels[i]);
    for (size_t i = 0; spec->col_labels != NULL && i < spec->cols; i++)
        free(spec->col_labels[i]);
    free(spec->row_labels);
    free(spec->col_labels);
    free(spec->value);
    free(spec->p_win);
    free(spec->p_draw);
    free(spec->p_lose);
    for (size_t i = 0; spec->point_labels != NULL && i < spec->n_points; i++)
        free(spec->point_labels[i]);
    free(spec->point_labels);
    free(spec->px);
    free(spec->py);
    free(spec->py_lo);
    free(spec->py_hi);
    free(spec->group);
}

/* Append " · part" (or part at the start) to a spec text. */
static void add_part(char *buf, size_t size, const char *part)
{
    size_t len = strlen(buf);
    if (part == NULL || part[0] == '\0' || len + 1 >= size)
        return;
    /* A part that does not fit is cut short (the text is a caption); an
     * encoding error leaves the text as it was. */
    if (snprintf(buf + len, size - len, "%s%s", len > 0 ? " \xc2\xb7 " : "", part) < 0)
        buf[len] = '\0';
}

/* A name, or a fallback when unknown. */
static const char *name_or(const char *name, const char *fallback)
{
    return name != NULL && name[0] != '\0' ? name : fallback;
}

/* "Knights (110 pts)" or "Knights". */
static void unit_with_points(char *buf, size_t size, const char *name, uint64_t points,
                             const char *fallback)
{
    if (points > 0)
        snprintf(buf, size, "%s (%llu pts)", name_or(name, fallback),
                 (unsigned long long)points);
    else
        snprintf(buf, size, "%s", name_or(name, fallback));
}

/* ---------------------------------------------------------------- run files */

/* A run file's summary and the extras a chart needs. */
typedef struct run_data {
    om_summary *s;      /* the summary */
    char *data_version; /* optional attribute; NULL if absent */
} run_data;

static om_status run_load(const char *path, double confidence, run_data *rd)
{
    om_h5_reader *r = NULL;
    om_status st;
    memset(rd, 0, sizeof *rd);
    if ((st = om_h5_reader_open(&r, path)) != OM_OK)
        return st;
    st = om_summary_compute(r, confidence, &rd->s);
    if (st == OM_OK) {
        st = om_h5_reader_attr_string(r, "data_version", &rd->data_version);
        if (st == OM_ENOTFOUND) {
            om_error_clear();
            st = OM_OK;
        }
    }
    om_h5_reader_close(r);
    return st;
}

static void run_free(run_data *rd)
{
    om_summary_free(rd->s);
    free(rd->data_version);
}

/* Subtitle parts of a run: scenario title, rule set, kind, trials. */
static void run_subtitle(const run_data *rd, const om_manifest *mf, char *buf, size_t size)
{
    char trials[128];
    om_manifest_trials(mf, trials, sizeof trials);
    buf[0] = '\0';
    add_part(buf, size, rd->s->title);
    add_part(buf, size, rd->s->ruleset);
    add_part(buf, size, rd->s->kind);
    add_part(buf, size, trials);
}

static void run_manifest(const run_data *rd, om_manifest *mf)
{
    const om_summary *s = rd->s;
    *mf = (om_manifest){
        .program_version = s->program_version,
        .ruleset = s->ruleset,
        .data_version = rd->data_version,
        .has_seed = s->has_seed,
        .seed = s->seed,
        .trials = s->trials,
        .file = s->file,
    };
}

/* The file name without its directories. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

/*
 * Series `k` of an odds chart from one run: its bars in outcome order (A wins,
 * draw, B wins, no result) and its label; with a single series the outcome
 * labels name the units.
 */
static om_status build_odds(const run_data *rd, size_t k, bool single, om_chart_spec *spec)
{
    const om_summary *s = rd->s;
    char a[200], b[200];
    const struct {
        const char *key;          /* CSV key */
        const om_summary_prob *p; /* its probability */
        uint32_t colour;          /* bar colour of a single series */
    } bars[4] = {
        {"win_a", &s->outcome[0][OM_SUMMARY_WIN], OM_CHART_COLOUR_A},
        {"draw", &s->outcome[0][OM_SUMMARY_DRAW], OM_CHART_COLOUR_DRAW},
        {"win_b", &s->outcome[1][OM_SUMMARY_WIN], OM_CHART_COLOUR_B},
        {"none", &s->none, OM_CHART_COLOUR_NONE},
    };

    if (!s->has_outcome)
        return OM_ERROR(OM_EINVAL, "%s: this %s run has no winner, so no odds chart; try "
                        "--kind dist", s->file, name_or(s->kind, "(unknown kind)"));
    unit_with_points(a, sizeof a, s->unit[0], s->points[0], "Side A");
    unit_with_points(b, sizeof b, s->unit[1], s->points[1], "Side B");
    for (int i = 0; i < 4; i++) {
        om_chart_bar *bar = &spec->bars[k][i];
        bar->key = bars[i].key;
        bar->p = bars[i].p->p;
        bar->lo = bars[i].p->lo;
        bar->hi = bars[i].p->hi;
        bar->count = bars[i].p->count;
        bar->colour = bars[i].colour;
        snprintf(bar->label, sizeof bar->label, "%s", i == 1 ? "Draw" : i == 3 ? "No result"
                                                  : i == 0 ? "A wins" : "B wins");
    }
    /* Engagements can end with no result (no contact, unresolved): show it if it happened. */
    if (s->none.count > 0)
        spec->n_bars = 4;
    else if (spec->n_bars < 3)
        spec->n_bars = 3;
    snprintf(spec->series[k], sizeof spec->series[k], "%s vs %s (%s)", a, b,
             base_name(s->file));
    if (single) {
        snprintf(spec->title, sizeof spec->title, "%s vs %s: who wins?", a, b);
        snprintf(spec->outcome[0], sizeof spec->outcome[0], "%s (A) win",
                 name_or(s->unit[0], "Side"));
        snprintf(spec->outcome[2], sizeof spec->outcome[2], "%s (B) win",
                 name_or(s->unit[1], "Side"));
        snprintf(spec->bars[k][0].label, sizeof spec->bars[k][0].label, "%s", spec->outcome[0]);
        snprintf(spec->bars[k][2].label, sizeof spec->bars[k][2].label, "%s", spec->outcome[2]);
    } else {
        snprintf(spec->outcome[0], sizeof spec->outcome[0], "Side A wins");
        snprintf(spec->outcome[2], sizeof spec->outcome[2], "Side B wins");
    }
    snprintf(spec->outcome[1], sizeof spec->outcome[1], "Draw");
    snprintf(spec->outcome[3], sizeof spec->outcome[3], "No result");
    return OM_OK;
}

/*
 * The title of a dist chart from the field's description: "unit A" / "unit B"
 * become the unit names and the text stops before a comma, a parenthesis or the
 * full stop: "Stands lost by unit B (all its ...)." -> "Stands lost by Spearmen".
 */
static void dist_title(const om_summary *s, const om_field *f, char *buf, size_t size)
{
    const char *d = f->description;
    size_t out = 0;
    while (*d != '\0' && *d != ',' && *d != '(' && *d != '.' && *d != ':' && out + 1 < size) {
        if (strncmp(d, "unit A", 6) == 0 || strncmp(d, "unit B", 6) == 0) {
            const char *name = name_or(s->unit[d[5] == 'A' ? 0 : 1], d[5] == 'A' ? "A" : "B");
            int n = snprintf(buf + out, size - out, "%s", name);
            out = n > 0 && (size_t)n < size - out ? out + (size_t)n : size - 1;
            d += 6;
        } else {
            buf[out++] = *d++;
        }
    }
    while (out > 0 && buf[out - 1] == ' ')
        out--;
    buf[out] = '\0';
}

static om_status build_dist(const run_data *rd, const char *name, om_chart_spec *spec)
{
    const om_summary *s = rd->s;
    const om_summary_field *sf = NULL;
    const char *names[OM_LAYOUT_FIELDS_MAX], *best;
    char fields[512] = "";
    for (size_t i = 0; i < s->field_count && i < OM_LAYOUT_FIELDS_MAX; i++) {
        size_t len = strlen(fields);
        names[i] = s->fields[i].field->name;
        if (strcmp(names[i], name) == 0)
            sf = &s->fields[i];
        snprintf(fields + len, sizeof fields - len, "%s%s", i > 0 ? ", " : "", names[i]);
    }
    /* A field of each unit (per-unit results) has no chart of its own yet:
     * the summary's per-unit section gives its values. */
    if (sf == NULL && om_summary_unit(s, name, 0) != NULL)
        return OM_ERROR(OM_EINVAL, "%s: '%s' is a field of each unit (one value per unit and "
                        "trial), which has no chart yet: `oddsmaster summary %s` lists it per "
                        "unit", s->file, name, s->file);
    if (sf == NULL && (best = om_suggest(name, names, s->field_count < OM_LAYOUT_FIELDS_MAX
                                                          ? s->field_count
                                                          : OM_LAYOUT_FIELDS_MAX)) != NULL)
        return OM_ERROR(OM_EINVAL, "%s: no field '%s' to chart; did you mean '%s'?", s->file,
                        name, best);
    if (sf == NULL)
        return OM_ERROR(OM_EINVAL, "%s: no field '%s' to chart (fields: %s)", s->file, name,
                        fields);
    if (sf->values != NULL)
        return OM_ERROR(OM_EINVAL, "%s: '%s' is a two-byte count (victory points), which has "
                        "no distribution chart", s->file, name);
    /* At least k = 0 and 1, so a field that never happened still shows its zero bar. */
    spec->n_k = (sf->max > 1 ? sf->max : 1) + 1u;
    spec->p_equal = calloc(spec->n_k, sizeof *spec->p_equal);
    spec->p_least = calloc(spec->n_k, sizeof *spec->p_least);
    spec->lo = calloc(spec->n_k, sizeof *spec->lo);
    spec->hi = calloc(spec->n_k, sizeof *spec->hi);
    if (spec->p_equal == NULL || spec->p_least == NULL || spec->lo == NULL || spec->hi == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
    for (size_t k = 0; k < spec->n_k; k++) {
        spec->p_equal[k] = (double)sf->hist[k] / (double)s->trials;
        spec->p_least[k] = sf->at_least[k].p;
        spec->lo[k] = sf->at_least[k].lo;
        spec->hi[k] = sf->at_least[k].hi;
    }
    spec->field = sf->field->name;
    dist_title(s, sf->field, spec->title, sizeof spec->title);
    /* "k = stands lost by Spearmen (stands_lost_b)": the title, lower-cased at its start. */
    snprintf(spec->x_title, sizeof spec->x_title, "k = %c%s (%s)",
             tolower((unsigned char)spec->title[0]), spec->title[0] != '\0' ? spec->title + 1 : "",
             sf->field->name);
    return OM_OK;
}

/* --------------------------------------------------------------- matrices */

/* The selected situations by their titles: "A charges B in the open" or "2 situations: ...". */
static void situations_words(const om_efficiency *e, char *buf, size_t size)
{
    const om_matrix_info *info = &e->m->info;
    size_t n = 0;
    if (e->opt.situation != OM_EFFICIENCY_ALL || info->n_situations == 1) {
        const om_matrix_situation *st =
            &info->situations[e->opt.situation != OM_EFFICIENCY_ALL ? e->opt.situation : 0];
        snprintf(buf, size, "%s", name_or(st->title, st->name));
        return;
    }
    n = (size_t)snprintf(buf, size, "%zu situations pooled: ", info->n_situations);
    for (size_t s = 0; s < info->n_situations && n < size; s++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", s > 0 ? "; " : "",
                              name_or(info->situations[s].title, info->situations[s].name));
}

/* Most armies an axis is named by; more are "N armies". */
#define AXIS_ARMIES_NAMED 3

/*
 * The armies of an axis by their display names, in order of first
 * appearance: "Empire", "Orcs and Chaos", "Empire, Dwarfs and Orcs", "25
 * armies"; `fallback` (the list as typed) when a unit's army is unknown.
 */
static void axis_armies(const om_matrix_unit *u, size_t n, const char *fallback, char *buf,
                        size_t size)
{
    const char *seen[AXIS_ARMIES_NAMED];
    size_t n_seen = 0, more = 0, len = 0;
    for (size_t i = 0; i < n; i++) {
        bool known = false;
        if (u[i].army == NULL || u[i].army[0] == '\0') {
            snprintf(buf, size, "%s", fallback);
            return;
        }
        for (size_t k = 0; k < n_seen && !known; k++)
            known = strcmp(seen[k], u[i].army) == 0;
        for (size_t k = 0; k < i && !known && n_seen == AXIS_ARMIES_NAMED; k++)
            known = strcmp(u[k].army, u[i].army) == 0;
        if (known)
            continue;
        if (n_seen < AXIS_ARMIES_NAMED)
            seen[n_seen++] = u[i].army;
        else
            more++;
    }
    if (more > 0) {
        snprintf(buf, size, "%zu armies", n_seen + more);
        return;
    }
    buf[0] = '\0';
    for (size_t k = 0; k < n_seen && len < size; k++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s",
                                k == 0 ? "" : k + 1 == n_seen ? " and " : ", ", seen[k]);
}

/* Subtitle and footer of a matrix chart. */
static void matrix_frame(const om_efficiency *e, om_chart_spec *spec)
{
    char sit[OM_CHART_TEXT_MAX], trials[160];
    om_manifest mf;
    situations_words(e, sit, sizeof sit);
    om_manifest_from_matrix(e->m, &mf);
    om_manifest_trials(&mf, trials, sizeof trials);
    spec->subtitle[0] = '\0';
    add_part(spec->subtitle, sizeof spec->subtitle, sit);
    add_part(spec->subtitle, sizeof spec->subtitle, e->m->info.ruleset);
    add_part(spec->subtitle, sizeof spec->subtitle, trials);
    om_manifest_line(&mf, spec->footer, sizeof spec->footer);
}

static om_status build_heatmap(const om_efficiency *e, om_chart_spec *spec)
{
    const om_matrix *m = e->m;
    const om_matrix_info *info = &m->info;
    size_t R = info->n_rows, C = info->n_cols;
    char rows[OM_CHART_TEXT_MAX / 2], cols[OM_CHART_TEXT_MAX / 2];

    spec->rows = R;
    spec->cols = C;
    spec->row_labels = calloc(R, sizeof *spec->row_labels);
    spec->col_labels = calloc(C, sizeof *spec->col_labels);
    spec->value = calloc(R * C, sizeof *spec->value);
    spec->p_win = calloc(R * C, sizeof *spec->p_win);
    spec->p_draw = calloc(R * C, sizeof *spec->p_draw);
    spec->p_lose = calloc(R * C, sizeof *spec->p_lose);
    if (spec->row_labels == NULL || spec->col_labels == NULL || spec->value == NULL
        || spec->p_win == NULL || spec->p_draw == NULL || spec->p_lose == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", m->path);
    for (size_t i = 0; i < R + C; i++) {
        const om_matrix_unit *u = i < R ? &info->rows[i] : &info->cols[i - R];
        char label[256];
        if (u->points > 0)
            snprintf(label, sizeof label, "%s (%u)", u->name, u->points);
        else
            snprintf(label, sizeof label, "%s", u->name);
        if ((*(i < R ? &spec->row_labels[i] : &spec->col_labels[i - R]) = strdup(label)) == NULL)
            return OM_ERROR(OM_ENOMEM, "%s: out of memory", m->path);
    }
    /* The expected score over decided trials: draws count half (efficiency.h). */
    for (size_t i = 0; i < R * C; i++) {
        double decided = e->wins[i] + e->draws[i] + e->losses[i];
        spec->value[i] = decided > 0 ? (e->wins[i] + 0.5 * e->draws[i]) / decided : NAN;
        spec->p_win[i] = decided > 0 ? e->wins[i] / decided : NAN;
        spec->p_draw[i] = decided > 0 ? e->draws[i] / decided : NAN;
        spec->p_lose[i] = decided > 0 ? e->losses[i] / decided : NAN;
    }
    axis_armies(info->rows, R, name_or(info->row_list, "Rows"), rows, sizeof rows);
    axis_armies(info->cols, C, name_or(info->col_list, "columns"), cols, sizeof cols);
    snprintf(spec->title, sizeof spec->title, "%.200s vs %.200s: expected score of the row unit", rows,
             cols);
    matrix_frame(e, spec);
    snprintf(spec->row_title, sizeof spec->row_title, "%.200s (rows)", rows);
    snprintf(spec->col_title, sizeof spec->col_title, "%.200s (columns)", cols);
    snprintf(spec->x_title, sizeof spec->x_title,
             "row unit's expected score: win 1, draw \xc2\xbd (cells: win\xc2\xb7" "draw\xc2\xb7"
             "lose %%)");
    return OM_OK;
}

/* Fair points against cost: every unit with a fair value. */
static om_status build_fair(const om_efficiency *e, om_chart_spec *spec)
{
    const om_matrix_info *info = &e->m->info;
    char rows[OM_CHART_TEXT_MAX / 2], cols[OM_CHART_TEXT_MAX / 2];
    size_t n = 0;
    for (size_t u = 0; u < e->n_units; u++)
        n += isfinite(e->units[u].overall.fair.value);
    if (n == 0)
        return OM_ERROR(OM_EINVAL, "%s: no unit has a fair value to chart (%s)", e->m->path,
                        e->model.curve[0].reason != NULL ? e->model.curve[0].reason
                                                         : "see 'oddsmaster efficiency'");
    spec->point_labels = calloc(n, sizeof *spec->point_labels);
    spec->px = calloc(n, sizeof *spec->px);
    spec->py = calloc(n, sizeof *spec->py);
    spec->py_lo = calloc(n, sizeof *spec->py_lo);
    spec->py_hi = calloc(n, sizeof *spec->py_hi);
    spec->group = calloc(n, sizeof *spec->group);
    if (spec->point_labels == NULL || spec->px == NULL || spec->py == NULL
        || spec->py_lo == NULL || spec->py_hi == NULL || spec->group == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", e->m->path);
    for (size_t u = 0; u < e->n_units; u++) {
        const om_efficiency_unit *x = &e->units[u];
        size_t k = spec->n_points;
        if (!isfinite(x->overall.fair.value))
            continue;
        if ((spec->point_labels[k] = strdup(x->unit->name)) == NULL)
            return OM_ERROR(OM_ENOMEM, "%s: out of memory", e->m->path);
        spec->px[k] = x->unit->points;
        spec->py[k] = x->overall.fair.value;
        spec->py_lo[k] = x->overall.fair.lo;
        spec->py_hi[k] = x->overall.fair.hi;
        spec->group[k] = x->side;
        spec->n_points++;
    }
    axis_armies(info->rows, info->n_rows, name_or(info->row_list, "rows"), rows, sizeof rows);
    axis_armies(info->cols, info->n_cols, name_or(info->col_list, "columns"), cols,
                sizeof cols);
    snprintf(spec->title, sizeof spec->title, "Fair points against cost: %.200s vs %.200s", rows,
             cols);
    matrix_frame(e, spec);
    add_part(spec->subtitle, sizeof spec->subtitle,
             e->opt.interval == OM_EFFICIENCY_BOOTSTRAP ? "bootstrap intervals"
                                                        : "covariance intervals");
    snprintf(spec->groups[0], sizeof spec->groups[0], "%.200s (rows, against the columns)", rows);
    snprintf(spec->groups[1], sizeof spec->groups[1], "%.200s (columns, against the rows)", cols);
    snprintf(spec->x_title, sizeof spec->x_title, "printed points (above the dashed line: "
             "worth more than it costs)");
    return OM_OK;
}

/* -------------------------------------------------------------------- CSV */

/* ",MANIFEST\n" closing a row. */
static void end_row(FILE *out, const om_chart_spec *spec)
{
    fputc(',', out);
    om_csv_string(out, spec->footer);
    fputc('\n', out);
}

/* The CSV of the plotted data (chart.h): one table, a header line, the manifest last. */
static void write_csv(FILE *out, const om_chart_spec *spec, const char *const *files,
                      const om_efficiency *e)
{
    switch (spec->kind) {
    case OM_CHART_ODDS:
        fprintf(out, "file,series,outcome,label,p,lo,hi,count,trials,manifest\n");
        for (size_t k = 0; k < spec->n_series; k++)
            for (size_t i = 0; i < spec->n_bars; i++) {
                const om_chart_bar *b = &spec->bars[k][i];
                om_csv_string(out, files[k]);
                fputc(',', out);
                om_csv_string(out, spec->series[k]);
                fprintf(out, ",%s,", b->key);
                om_csv_string(out, b->label);
                fprintf(out, ",%.10g,%.10g,%.10g,%llu,%llu", b->p, b->lo, b->hi,
                        (unsigned long long)b->count, (unsigned long long)spec->trials);
                end_row(out, spec);
            }
        break;
    case OM_CHART_DIST:
        fprintf(out, "field,k,p_equal,p_at_least,lo,hi,manifest\n");
        for (size_t k = 0; k < spec->n_k; k++) {
            fprintf(out, "%s,%zu,%.10g,%.10g,%.10g,%.10g", spec->field, k, spec->p_equal[k],
                    spec->p_least[k], spec->lo[k], spec->hi[k]);
            end_row(out, spec);
        }
        break;
    case OM_CHART_HEATMAP:
        fprintf(out, "row,col,row_points,col_points,trials,wins_row,draws,wins_col,score,"
                     "manifest\n");
        for (size_t r = 0; r < spec->rows; r++)
            for (size_t c = 0; c < spec->cols; c++) {
                size_t i = r * spec->cols + c;
                om_csv_string(out, e->m->info.rows[r].name);
                fputc(',', out);
                om_csv_string(out, e->m->info.cols[c].name);
                fprintf(out, ",%u,%u,%.0f,%.0f,%.0f,%.0f", e->m->info.rows[r].points,
                        e->m->info.cols[c].points, e->trials[i], e->wins[i], e->draws[i],
                        e->losses[i]);
                om_csv_real(out, spec->value[i]);
                end_row(out, spec);
            }
        break;
    case OM_CHART_FAIR:
        fprintf(out, "side,army,unit,points,fair_points,lo,hi,manifest\n");
        for (size_t u = 0; u < e->n_units; u++) {
            const om_efficiency_unit *x = &e->units[u];
            if (!isfinite(x->overall.fair.value))
                continue;
            fprintf(out, "%s,", x->side == OM_EFFICIENCY_ROW ? "row" : "col");
            om_csv_string(out, om_efficiency_army_name(e, x->side, x->army));
            fputc(',', out);
            om_csv_string(out, x->unit->name);
            fprintf(out, ",%u", x->unit->points);
            om_csv_real(out, x->overall.fair.value);
            om_csv_real(out, x->overall.fair.lo);
            om_csv_real(out, x->overall.fair.hi);
            end_row(out, spec);
        }
        break;
    }
}

/* ----------------------------------------------------------------- output */

/* "PATH.tmp-PID": beside the target, so the rename stays in one file system. */
static char *tmp_name(const char *path)
{
    size_t size = strlen(path) + 32;
    char *tmp = malloc(size);
    if (tmp != NULL)
        snprintf(tmp, size, "%s.tmp-%ld", path, (long)getpid());
    return tmp;
}

/* Why `path` cannot be created: the reason, and a missing directory named. */
static om_status cannot_write(const char *path, int err)
{
    const char *slash = strrchr(path, '/');
    if (err == ENOENT && slash != NULL)
        return OM_ERROR(OM_EIO, "cannot write %s: the directory '%.*s' does not exist", path,
                        (int)(slash - path), path);
    return OM_ERROR(OM_EIO, "cannot write %s: %s", path, strerror(err));
}

/*
 * Write the n bytes at `data` to the new file `tmp` (the temporary name of
 * `path`, which messages name) with write(2), so that a failure (a full
 * disk) is said with the system's reason: through a stdio stream, a failed
 * write of its buffer leaves the stream's error flag and no errno by the
 * time it is closed.
 */
static om_status save(const char *tmp, const char *path, const char *data, size_t n)
{
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        return cannot_write(path, errno);
    while (n > 0) {
        const ssize_t k = write(fd, data, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            const int err = k < 0 ? errno : EIO;
            close(fd);
            return cannot_write(path, err);
        }
        data += k;
        n -= (size_t)k;
    }
    if (close(fd) != 0)
        return cannot_write(path, errno);
    return OM_OK;
}

/* The image and the CSV, each made in memory (open_memstream) and written
 * whole to its temporary name (save), then both renamed. */
static om_status write_outputs(const om_chart_spec *spec, om_chart_format format,
                               const char *out_path, bool force, const char *const *files,
                               const om_efficiency *e)
{
    char *csv = om_chart_csv_path(out_path);
    char *tmp_img = tmp_name(out_path);
    char *tmp_csv = csv != NULL ? tmp_name(csv) : NULL;
    char *img_bytes = NULL, *csv_bytes = NULL;
    size_t img_n = 0, csv_n = 0;
    FILE *f = NULL;
    om_status st = OM_OK;

    if (csv == NULL || tmp_img == NULL || tmp_csv == NULL)
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", out_path);
    else if (!force && access(csv, F_OK) == 0)
        st = OM_ERROR(OM_EINVAL, "%s exists: the chart writes its data there, beside %s; "
                      "remove it or give --force to replace it", csv, out_path);
    if (st == OM_OK && (f = open_memstream(&img_bytes, &img_n)) == NULL)
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", out_path);
    if (st == OM_OK) {
        st = om_chart_render(spec, format, f);
        if (st != OM_OK) {
            /* chart.c gives the reason; name the file the user asked for. */
            char why[OM_ERROR_MSG_MAX];
            snprintf(why, sizeof why, "%s", om_error_message());
            st = OM_ERROR(st, "cannot write %s: %s", out_path, why);
        }
        if (fclose(f) != 0 && st == OM_OK)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", out_path);
    }
    if (st == OM_OK)
        st = save(tmp_img, out_path, img_bytes, img_n);
    if (st == OM_OK && (f = open_memstream(&csv_bytes, &csv_n)) == NULL)
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", csv);
    else if (st == OM_OK) {
        write_csv(f, spec, files, e);
        if (fclose(f) != 0)
            st = OM_ERROR(OM_ENOMEM, "%s: out of memory", csv);
        else
            st = save(tmp_csv, csv, csv_bytes, csv_n);
    }
    if (st == OM_OK && rename(tmp_img, out_path) != 0)
        st = cannot_write(out_path, errno);
    if (st == OM_OK && rename(tmp_csv, csv) != 0)
        st = cannot_write(csv, errno);
    if (st != OM_OK) {
        if (tmp_img != NULL)
            remove(tmp_img);
        if (tmp_csv != NULL)
            remove(tmp_csv);
    }
    free(img_bytes);
    free(csv_bytes);
    free(tmp_csv);
    free(tmp_img);
    free(csv);
    return st;
}

/* Check that the input suits the kind: say which file a chart needs if not. */
static om_status check_schema(const char *in_path, om_chart_kind kind)
{
    bool matrix = kind == OM_CHART_HEATMAP || kind == OM_CHART_FAIR;
    const char *want = matrix ? OM_H5M_SCHEMA : OM_H5_SCHEMA;
    char *schema = NULL;
    om_status st = om_h5m_file_schema(in_path, &schema);
    if (st == OM_ENOTFOUND)
        return OM_ERROR(OM_EHDF5, "%s: no 'schema' attribute (not an oddsmaster file)", in_path);
    if (st != OM_OK)
        return st;
    /* A file of the kind wanted from an older program goes on to its reader,
     * which says what to do about it. */
    if (strcmp(schema, want) != 0 &&
        !(matrix && (strcmp(schema, OM_H5M_SCHEMA_V1) == 0 ||
                     strcmp(schema, OM_H5M_SCHEMA_V2) == 0)) &&
        !(!matrix && strcmp(schema, OM_H5_SCHEMA_V2) == 0)) {
        const char *what = strcmp(schema, OM_H5_SCHEMA) == 0    ? "a run file"
                           : strcmp(schema, OM_H5M_SCHEMA) == 0 ? "a matrix file"
                                                                : "not an oddsmaster file";
        st = OM_ERROR(OM_EHDF5, "%s is %s (schema '%s'), but a %s chart needs %s", in_path,
                      what, schema, kind_names[kind],
                      matrix ? "a matrix file ('oddsmaster matrix')"
                             : "a run file ('oddsmaster run')");
    }
    free(schema);
    return st;
}

/* The footer of an odds chart of several files: what differs is listed. */
static void series_footer(const run_data *rd, size_t n, om_chart_spec *spec)
{
    char part[OM_MANIFEST_MAX], count[OM_MANIFEST_COUNT_MAX];
    size_t len;
    snprintf(spec->footer, sizeof spec->footer, "oddsmaster %s",
             name_or(rd[0].s->program_version, "(version unknown)"));
    add_part(spec->footer, sizeof spec->footer, rd[0].s->ruleset);
    len = (size_t)snprintf(part, sizeof part, "seeds");
    for (size_t k = 0; k < n && len < sizeof part; k++)
        len += (size_t)snprintf(part + len, sizeof part - len, "%s %llu", k > 0 ? "," : "",
                                (unsigned long long)rd[k].s->seed);
    add_part(spec->footer, sizeof spec->footer, part);
    om_manifest_count(rd[0].s->trials, count);
    snprintf(part, sizeof part, "%s trials each", count);
    for (size_t k = 1; k < n; k++)
        if (rd[k].s->trials != rd[0].s->trials)
            snprintf(part, sizeof part, "trials per file in the CSV");
    add_part(spec->footer, sizeof spec->footer, part);
    for (size_t k = 1; k < n; k++)
        if (strcmp(name_or(rd[k].s->program_version, ""), name_or(rd[0].s->program_version, ""))
            != 0)
            add_part(spec->footer, sizeof spec->footer, "versions differ: see each file");
    len = (size_t)snprintf(part, sizeof part, "files");
    for (size_t k = 0; k < n && len < sizeof part; k++)
        len += (size_t)snprintf(part + len, sizeof part - len, "%s %s", k > 0 ? "," : "",
                                base_name(rd[k].s->file));
    add_part(spec->footer, sizeof spec->footer, part);
}

/* Read the run files and build an odds or dist spec. */
static om_status build_runs(const char *const *in, size_t n, const om_chart_options *opt,
                            om_chart_spec *spec, run_data *rd)
{
    om_manifest mf;
    om_status st = OM_OK;
    for (size_t k = 0; k < n && st == OM_OK; k++)
        if ((st = check_schema(in[k], opt->kind)) == OM_OK)
            st = run_load(in[k], spec->confidence, &rd[k]);
    if (st != OM_OK)
        return st;
    run_manifest(&rd[0], &mf);
    om_manifest_line(&mf, spec->footer, sizeof spec->footer);
    run_subtitle(&rd[0], &mf, spec->subtitle, sizeof spec->subtitle);
    spec->trials = rd[0].s->trials;
    if (opt->kind == OM_CHART_DIST)
        return build_dist(&rd[0], opt->field != NULL           ? opt->field
                                  : rd[0].s->lost[1].known ? rd[0].s->lost[1].field
                                                           : OM_CHART_DEFAULT_FIELD,
                          spec);
    spec->n_series = n;
    for (size_t k = 0; k < n && st == OM_OK; k++)
        st = build_odds(&rd[k], k, n == 1, spec);
    if (st == OM_OK && n > 1) {
        snprintf(spec->title, sizeof spec->title, "Who wins? %zu matchups compared", n);
        series_footer(rd, n, spec);
        spec->subtitle[0] = '\0';
        add_part(spec->subtitle, sizeof spec->subtitle, rd[0].s->ruleset);
        add_part(spec->subtitle, sizeof spec->subtitle, rd[0].s->kind);
        add_part(spec->subtitle, sizeof spec->subtitle, "one bar per file, in the legend's order");
    }
    snprintf(spec->x_title, sizeof spec->x_title,
             "Probability of each result (whiskers and [ ]: %g%% Wilson intervals)",
             100.0 * spec->confidence);
    return st;
}

/* Check the options and the inputs' count, and fill the spec's size and confidence. */
static om_status spec_start(size_t n_in, const char *out_path, const om_chart_options *opt,
                            om_chart_spec *spec, om_chart_format *format)
{
    om_status st;
    if ((unsigned)opt->kind > OM_CHART_FAIR)
        return OM_ERROR(OM_EINVAL, "om_chart_files: unknown chart kind %d", (int)opt->kind);
    if (n_in == 0 || (opt->kind != OM_CHART_ODDS && n_in > 1) || n_in > OM_CHART_MAX_SERIES)
        return OM_ERROR(OM_EINVAL, "a %s chart takes %s, not %zu", kind_names[opt->kind],
                        opt->kind == OM_CHART_ODDS ? "1 to 8 run files" : "one file", n_in);
    if ((st = om_chart_format_from_path(out_path, format)) != OM_OK)
        return st;
    memset(spec, 0, sizeof *spec);
    spec->kind = opt->kind;
    om_chart_default_size(opt->kind, &spec->width, &spec->height);
    if (opt->width != 0)
        spec->width = opt->width;
    if (opt->height != 0)
        spec->height = opt->height;
    if (spec->width < OM_CHART_MIN_SIZE || spec->width > OM_CHART_MAX_SIZE
        || spec->height < OM_CHART_MIN_SIZE || spec->height > OM_CHART_MAX_SIZE)
        return OM_ERROR(OM_EINVAL, "a chart of %u x %u: width and height must be %u to %u",
                        spec->width, spec->height, OM_CHART_MIN_SIZE, OM_CHART_MAX_SIZE);
    spec->confidence = opt->confidence != 0.0 ? opt->confidence : OM_SUMMARY_CONFIDENCE;
    if (!(spec->confidence > 0.0 && spec->confidence < 1.0))
        return OM_ERROR(OM_EINVAL, "confidence must lie strictly between 0 and 1 (got %g)",
                        spec->confidence);
    return OM_OK;
}

om_status om_chart_files(const char *const *in_paths, size_t n_in, const char *out_path,
                         const om_chart_options *opt)
{
    om_chart_spec spec;
    om_chart_format format;
    om_status st;
    run_data rd[OM_CHART_MAX_SERIES];
    om_matrix *m = NULL;
    om_efficiency *e = NULL;

    if (in_paths == NULL || out_path == NULL || opt == NULL)
        return OM_ERROR(OM_EINVAL, "om_chart_files: missing inputs, output or options");
    for (size_t k = 0; k < n_in; k++)
        if (in_paths[k] == NULL)
            return OM_ERROR(OM_EINVAL, "om_chart_files: input %zu missing", k);
    memset(rd, 0, sizeof rd);
    if ((st = spec_start(n_in, out_path, opt, &spec, &format)) != OM_OK)
        return st;
    if (opt->kind == OM_CHART_HEATMAP || opt->kind == OM_CHART_FAIR) {
        om_efficiency_options eo = {.confidence = spec.confidence};
        if ((st = check_schema(in_paths[0], opt->kind)) == OM_OK
            && (st = om_h5m_read(in_paths[0], &m)) == OM_OK
            && (st = om_efficiency_situation_find(m, opt->situation, &eo.situation)) == OM_OK
            && (st = om_efficiency_compute(m, &eo, &e)) == OM_OK)
            st = opt->kind == OM_CHART_HEATMAP ? build_heatmap(e, &spec) : build_fair(e, &spec);
    } else {
        st = build_runs(in_paths, n_in, opt, &spec, rd);
    }
    if (st == OM_OK)
        st = write_outputs(&spec, format, out_path, opt->force, in_paths, e);
    om_chart_spec_clear(&spec);
    om_efficiency_free(e);
    om_h5m_matrix_free(m);
    for (size_t k = 0; k < n_in && k < OM_CHART_MAX_SERIES; k++)
        run_free(&rd[k]);
    return st;
}

om_status om_chart_file(const char *in_path, const char *out_path, const om_chart_options *opt)
{
    return om_chart_files(&in_path, 1, out_path, opt);
}
