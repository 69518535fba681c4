/*
 * chart_data.c: the data side of the charts (chart.h): reads a run file through
 * the summary module or a matrix file through the efficiency module, turns it
 * into a spec of titles, labels and numbers (chart_int.h), writes the CSV of
 * what is plotted, and has chart.c draw the spec; both outputs go through
 * temporary files renamed on success. No cairo here (STYLE rule 14).
 */
#include <ctype.h>
#include <errno.h>
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
#include "summary.h"

/* Default sizes: a 2:1 strip for three bars, a taller plot, a near-square grid. */
static const unsigned default_size[3][2] = {{1200, 600}, {1200, 700}, {1200, 1000}};

/* ------------------------------------------------------------ small parts */

om_status om_chart_kind_parse(const char *text, om_chart_kind *out)
{
    static const char *const names[] = {"odds", "dist", "heatmap"};
    for (int i = 0; i < 3; i++)
        if (text != NULL && strcmp(text, names[i]) == 0) {
            *out = (om_chart_kind)i;
            return OM_OK;
        }
    return OM_ERROR(OM_EINVAL, "unknown chart kind '%s' (odds, dist or heatmap)",
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
    const char *dot = strrchr(out_path, '.'), *slash = strrchr(out_path, '/');
    size_t stem = dot != NULL && (slash == NULL || dot > slash) ? (size_t)(dot - out_path)
                                                                : strlen(out_path);
    char *csv = malloc(stem + 5);
    if (csv != NULL) {
        memcpy(csv, out_path, stem);
        memcpy(csv + stem, ".csv", 5);
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
}

/* Append " · part" (or part at the start) to a spec text. */
static void add_part(char *buf, size_t size, const char *part)
{
    size_t len = strlen(buf);
    if (part == NULL || part[0] == '\0' || len + 1 >= size)
        return;
    snprintf(buf + len, size - len, "%s%s", len > 0 ? " \xc2\xb7 " : "", part);
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

static om_status build_odds(const run_data *rd, om_chart_spec *spec)
{
    const om_summary *s = rd->s;
    char a[200], b[200];

    if (!s->has_outcome)
        return OM_ERROR(OM_EINVAL, "%s: this %s run has no winner, so no odds chart; try "
                        "--kind dist", s->file, name_or(s->kind, "(unknown kind)"));
    unit_with_points(a, sizeof a, s->unit[0], s->points[0], "Side A");
    unit_with_points(b, sizeof b, s->unit[1], s->points[1], "Side B");
    snprintf(spec->title, sizeof spec->title, "%s vs %s: who wins?", a, b);
    snprintf(spec->x_title, sizeof spec->x_title,
             "Probability of each result (whiskers and [ ]: %g%% Wilson intervals)",
             100.0 * spec->confidence);
    const struct {
        const char *key;            /* CSV key */
        const om_summary_prob *p;   /* its probability */
        uint32_t colour;            /* bar colour */
    } bars[3] = {
        {"win_a", &s->outcome[0][OM_SUMMARY_WIN], OM_CHART_COLOUR_A},
        {"draw", &s->outcome[0][OM_SUMMARY_DRAW], OM_CHART_COLOUR_DRAW},
        {"win_b", &s->outcome[1][OM_SUMMARY_WIN], OM_CHART_COLOUR_B},
    };
    for (int i = 0; i < 3; i++) {
        om_chart_bar *bar = &spec->bars[i];
        bar->key = bars[i].key;
        bar->p = bars[i].p->p;
        bar->lo = bars[i].p->lo;
        bar->hi = bars[i].p->hi;
        bar->count = bars[i].p->count;
        bar->colour = bars[i].colour;
    }
    snprintf(spec->bars[0].label, sizeof spec->bars[0].label, "%s (A) win",
             name_or(s->unit[0], "Side"));
    snprintf(spec->bars[1].label, sizeof spec->bars[1].label, "Draw");
    snprintf(spec->bars[2].label, sizeof spec->bars[2].label, "%s (B) win",
             name_or(s->unit[1], "Side"));
    spec->n_bars = 3;
    /* Engagements can end with no result (no contact, unresolved): show it if it happened. */
    if (s->none.count > 0) {
        om_chart_bar *bar = &spec->bars[spec->n_bars++];
        bar->key = "none";
        snprintf(bar->label, sizeof bar->label, "No result");
        bar->p = s->none.p;
        bar->lo = s->none.lo;
        bar->hi = s->none.hi;
        bar->count = s->none.count;
        bar->colour = OM_CHART_COLOUR_NONE;
    }
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
    char fields[512] = "";
    for (size_t i = 0; i < s->field_count; i++) {
        size_t len = strlen(fields);
        if (strcmp(s->fields[i].field->name, name) == 0)
            sf = &s->fields[i];
        snprintf(fields + len, sizeof fields - len, "%s%s", i > 0 ? ", " : "",
                 s->fields[i].field->name);
    }
    if (sf == NULL)
        return OM_ERROR(OM_EINVAL, "%s: no field '%s' to chart (fields: %s)", s->file, name,
                        fields);
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

static om_status build_heatmap(const om_efficiency *e, om_chart_spec *spec)
{
    const om_matrix *m = e->m;
    const om_matrix_info *info = &m->info;
    size_t R = info->n_rows, C = info->n_cols;
    char sit[256], trials[160];
    om_manifest mf;

    spec->rows = R;
    spec->cols = C;
    spec->row_labels = calloc(R, sizeof *spec->row_labels);
    spec->col_labels = calloc(C, sizeof *spec->col_labels);
    spec->value = calloc(R * C, sizeof *spec->value);
    if (spec->row_labels == NULL || spec->col_labels == NULL || spec->value == NULL)
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
    for (size_t i = 0; i < R * C; i++)
        spec->value[i] = e->trials[i] > 0 ? e->wins[i] / e->trials[i] : NAN;

    snprintf(spec->title, sizeof spec->title, "%s vs %s: chance the row unit wins",
             name_or(info->row_list, "Rows"), name_or(info->col_list, "columns"));
    if (e->opt.situation != OM_EFFICIENCY_ALL || info->n_situations == 1)
        snprintf(sit, sizeof sit, "situation %s",
                 info->situations[e->opt.situation != OM_EFFICIENCY_ALL ? e->opt.situation : 0].name);
    else {
        /* "2 situations pooled: charge-open, charge-defended" (the subtitle cuts it if long). */
        int n = snprintf(sit, sizeof sit, "%zu situations pooled: ", info->n_situations);
        for (size_t s = 0; s < info->n_situations && n > 0 && (size_t)n < sizeof sit; s++)
            n += snprintf(sit + n, sizeof sit - (size_t)n, "%s%s", s > 0 ? ", " : "",
                          info->situations[s].name);
    }
    om_manifest_from_matrix(m, &mf);
    om_manifest_trials(&mf, trials, sizeof trials);
    spec->subtitle[0] = '\0';
    add_part(spec->subtitle, sizeof spec->subtitle, sit);
    add_part(spec->subtitle, sizeof spec->subtitle, info->ruleset);
    add_part(spec->subtitle, sizeof spec->subtitle, trials);
    snprintf(spec->row_title, sizeof spec->row_title, "%s (rows)",
             name_or(info->row_list, "Row units"));
    snprintf(spec->col_title, sizeof spec->col_title, "%s (columns)",
             name_or(info->col_list, "Column units"));
    snprintf(spec->x_title, sizeof spec->x_title, "P(row unit wins)");
    om_manifest_line(&mf, spec->footer, sizeof spec->footer);
    return OM_OK;
}

/* -------------------------------------------------------------------- CSV */

/* The CSV of the plotted data (chart.h), after "# " lines with title and manifest. */
static void write_csv(FILE *out, const om_chart_spec *spec, const om_matrix *m,
                      const om_efficiency *e)
{
    fprintf(out, "# %s\n# %s\n# %s\n", spec->title, spec->subtitle, spec->footer);
    switch (spec->kind) {
    case OM_CHART_ODDS:
        fprintf(out, "outcome,label,p,lo,hi,count,trials\n");
        for (size_t i = 0; i < spec->n_bars; i++) {
            const om_chart_bar *b = &spec->bars[i];
            fprintf(out, "%s,", b->key);
            om_csv_string(out, b->label);
            fprintf(out, ",%.10g,%.10g,%.10g,%llu,%llu\n", b->p, b->lo, b->hi,
                    (unsigned long long)b->count, (unsigned long long)spec->trials);
        }
        break;
    case OM_CHART_DIST:
        fprintf(out, "field,k,p_equal,p_at_least,lo,hi\n");
        for (size_t k = 0; k < spec->n_k; k++)
            fprintf(out, "%s,%zu,%.10g,%.10g,%.10g,%.10g\n", spec->field, k,
                    spec->p_equal[k], spec->p_least[k], spec->lo[k], spec->hi[k]);
        break;
    case OM_CHART_HEATMAP:
        fprintf(out, "row,col,row_points,col_points,trials,wins_row,draws,wins_col,"
                     "p_row_wins\n");
        for (size_t r = 0; r < spec->rows; r++)
            for (size_t c = 0; c < spec->cols; c++) {
                size_t i = r * spec->cols + c;
                om_csv_string(out, m->info.rows[r].name);
                fputc(',', out);
                om_csv_string(out, m->info.cols[c].name);
                fprintf(out, ",%u,%u,%.0f,%.0f,%.0f,%.0f,", m->info.rows[r].points,
                        m->info.cols[c].points, e->trials[i], e->wins[i], e->draws[i],
                        e->losses[i]);
                if (isfinite(spec->value[i]))
                    fprintf(out, "%.10g", spec->value[i]);
                fputc('\n', out);
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

/* Write the CSV to `tmp`. */
static om_status csv_file(const char *tmp, const char *csv, const om_chart_spec *spec,
                          const om_matrix *m, const om_efficiency *e)
{
    FILE *f = fopen(tmp, "w");
    int failed;
    if (f == NULL)
        return OM_ERROR(OM_EIO, "cannot write %s: %s", csv, strerror(errno));
    errno = 0;
    write_csv(f, spec, m, e);
    failed = ferror(f);
    /* Closing flushes: a full disk shows up here. */
    if (fclose(f) != 0 || failed)
        return OM_ERROR(OM_EIO, "cannot write %s: %s", csv,
                        errno != 0 ? strerror(errno) : "write error");
    return OM_OK;
}

/* Draw the image and write the CSV, each to a temporary name, then rename both. */
static om_status write_outputs(const om_chart_spec *spec, om_chart_format format,
                               const char *out_path, const om_matrix *m, const om_efficiency *e)
{
    char *csv = om_chart_csv_path(out_path);
    char *tmp_img = tmp_name(out_path);
    char *tmp_csv = csv != NULL ? tmp_name(csv) : NULL;
    om_status st = OM_OK;

    if (csv == NULL || tmp_img == NULL || tmp_csv == NULL)
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", out_path);
    if (st == OM_OK && (st = om_chart_render(spec, format, tmp_img)) != OM_OK) {
        /* chart.c gives the reason; name the file the user asked for. */
        char why[OM_ERROR_MSG_MAX];
        snprintf(why, sizeof why, "%s", om_error_message());
        st = OM_ERROR(st, "cannot write %s: %s", out_path, why);
    }
    if (st == OM_OK)
        st = csv_file(tmp_csv, csv, spec, m, e);
    if (st == OM_OK && rename(tmp_img, out_path) != 0)
        st = OM_ERROR(OM_EIO, "cannot write %s: %s", out_path, strerror(errno));
    if (st == OM_OK && rename(tmp_csv, csv) != 0)
        st = OM_ERROR(OM_EIO, "cannot write %s: %s", csv, strerror(errno));
    if (st != OM_OK) {
        if (tmp_img != NULL)
            remove(tmp_img);
        if (tmp_csv != NULL)
            remove(tmp_csv);
    }
    free(tmp_csv);
    free(tmp_img);
    free(csv);
    return st;
}

/* Check that the input suits the kind: say which file a chart needs if not. */
static om_status check_schema(const char *in_path, om_chart_kind kind)
{
    const char *want = kind == OM_CHART_HEATMAP ? OM_H5M_SCHEMA : OM_H5_SCHEMA;
    char *schema = NULL;
    om_status st = om_h5m_file_schema(in_path, &schema);
    if (st == OM_ENOTFOUND)
        return OM_ERROR(OM_EHDF5, "%s: no schema attribute (not an oddsmaster file)", in_path);
    if (st != OM_OK)
        return st;
    if (strcmp(schema, want) != 0) {
        const char *what = strcmp(schema, OM_H5_SCHEMA) == 0    ? "a run file"
                           : strcmp(schema, OM_H5M_SCHEMA) == 0 ? "a matrix file"
                                                                : "not an oddsmaster file";
        st = OM_ERROR(OM_EHDF5, "%s is %s (schema '%s'), but a%s %s chart needs %s", in_path,
                      what, schema, kind == OM_CHART_ODDS ? "n" : "",
                      kind == OM_CHART_HEATMAP ? "heatmap" : kind == OM_CHART_ODDS ? "odds"
                                                                                   : "dist",
                      kind == OM_CHART_HEATMAP ? "a matrix file ('oddsmaster matrix')"
                                               : "a run file ('oddsmaster run')");
    }
    free(schema);
    return st;
}

om_status om_chart_file(const char *in_path, const char *out_path,
                        const om_chart_options *opt)
{
    om_chart_spec spec;
    om_chart_format format;
    om_status st;
    run_data rd = {0};
    om_matrix *m = NULL;
    om_efficiency *e = NULL;

    if (in_path == NULL || out_path == NULL || opt == NULL)
        return OM_ERROR(OM_EINVAL, "om_chart_file: missing input, output or options");
    if ((unsigned)opt->kind > OM_CHART_HEATMAP)
        return OM_ERROR(OM_EINVAL, "om_chart_file: unknown chart kind %d", (int)opt->kind);
    if ((st = om_chart_format_from_path(out_path, &format)) != OM_OK)
        return st;
    memset(&spec, 0, sizeof spec);
    spec.kind = opt->kind;
    om_chart_default_size(opt->kind, &spec.width, &spec.height);
    if (opt->width != 0)
        spec.width = opt->width;
    if (opt->height != 0)
        spec.height = opt->height;
    if (spec.width < OM_CHART_MIN_SIZE || spec.width > OM_CHART_MAX_SIZE
        || spec.height < OM_CHART_MIN_SIZE || spec.height > OM_CHART_MAX_SIZE)
        return OM_ERROR(OM_EINVAL, "a chart of %u x %u: width and height must be %u to %u",
                        spec.width, spec.height, OM_CHART_MIN_SIZE, OM_CHART_MAX_SIZE);
    spec.confidence = opt->confidence != 0.0 ? opt->confidence : OM_SUMMARY_CONFIDENCE;
    if (!(spec.confidence > 0.0 && spec.confidence < 1.0))
        return OM_ERROR(OM_EINVAL, "confidence must lie strictly between 0 and 1 (got %g)",
                        spec.confidence);
    if ((st = check_schema(in_path, opt->kind)) != OM_OK)
        return st;

    if (opt->kind == OM_CHART_HEATMAP) {
        size_t index;
        if ((st = om_h5m_read(in_path, &m)) == OM_OK
            && (st = om_efficiency_situation_find(m, opt->situation, &index)) == OM_OK
            && (st = om_efficiency_compute(m, &(om_efficiency_options){.situation = index, .confidence = spec.confidence}, &e)) == OM_OK)
            st = build_heatmap(e, &spec);
    } else if ((st = run_load(in_path, spec.confidence, &rd)) == OM_OK) {
        om_manifest mf;
        run_manifest(&rd, &mf);
        om_manifest_line(&mf, spec.footer, sizeof spec.footer);
        run_subtitle(&rd, &mf, spec.subtitle, sizeof spec.subtitle);
        spec.trials = rd.s->trials;
        st = opt->kind == OM_CHART_ODDS
                 ? build_odds(&rd, &spec)
                 : build_dist(&rd, opt->field != NULL ? opt->field : OM_CHART_DEFAULT_FIELD,
                              &spec);
    }
    if (st == OM_OK)
        st = write_outputs(&spec, format, out_path, m, e);
    om_chart_spec_clear(&spec);
    om_efficiency_free(e);
    om_h5m_matrix_free(m);
    run_free(&rd);
    return st;
}
