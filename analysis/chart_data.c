/*
 * chart_data.c: the data side of the charts (chart.h): reads a run file through
 * the summary module or a matrix file through the efficiency module, turns it
 * into a spec of titles, labels and numbers (chart_int.h), writes the CSV of
 * what is plotted, and has chart.c draw the spec; both outputs go through
 * temporary files renamed on success. A flags chart is drawn from a plain
 * array of items: flag_items is the adapter of a run's flag fields, and any
 * other source of yes/no quantities needs only an adapter of its own. Series
 * of an odds chart are labelled from the files' provenance (label_series).
 * No cairo here: chart.c is its only user.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chart_int.h"
#include "csv.h"
#include "efficiency.h"
#include "h5file.h"
#include "suggest.h"
#include "stats.h"
#include "summary.h"

/* Default sizes: a 2:1 strip for three bars, a taller plot, a near-square grid, a plot,
 * and a flags chart's width (its height follows its bars: om_chart_flags_height). */
static const unsigned default_size[OM_CHART_KINDS][2] = {
    {1200, 600}, {1200, 700}, {1200, 1000}, {1200, 900}, {1200, 0}, {1200, 0}};

/* Kind names, in om_chart_kind order. */
static const char *const kind_names[OM_CHART_KINDS] = {"odds", "dist", "heatmap", "fair",
                                                       "flags", "points"};

/* Whether a kind's height follows its rows (om_chart_flags_height). */
static bool rows_kind(om_chart_kind kind)
{
    return kind == OM_CHART_FLAGS || kind == OM_CHART_POINTS;
}

/* ------------------------------------------------------------ small parts */

om_status om_chart_kind_parse(const char *text, om_chart_kind *out)
{
    for (int i = 0; i < OM_CHART_KINDS; i++)
        if (text != NULL && strcmp(text, kind_names[i]) == 0) {
            *out = (om_chart_kind)i;
            return OM_OK;
        }
    return OM_ERROR(OM_EINVAL, "unknown chart kind '%s' (odds, dist, heatmap, fair, flags or "
                    "points)",
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
    *height = rows_kind(kind) ? om_chart_flags_height(*width, OM_CHART_FLAGS_TYPICAL)
                              : default_size[kind][1];
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
    free(spec->items);
    free(spec->unit_points);
    free(spec->k_values);
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

/* A run file's summary and the extras a chart needs: its provenance, to tell
 * the files of an odds chart apart. */
typedef struct run_data {
    om_summary *s;       /* the summary */
    char *data_version;  /* optional attribute; NULL if absent */
    char *game;          /* "warmaster", "whfb7"; NULL if absent */
    char *scenario_name; /* the scenario file as given; NULL if absent */
    char *options_json;  /* every value the run resolved (options, sides); NULL if absent */
} run_data;

/* An optional string attribute: NULL when the file lacks it. */
static om_status optional_attr(om_h5_reader *r, const char *name, char **out)
{
    om_status st = om_h5_reader_attr_string(r, name, out);
    if (st == OM_ENOTFOUND) {
        om_error_clear();
        *out = NULL;
        st = OM_OK;
    }
    return st;
}

static om_status run_load(const char *path, double confidence, run_data *rd)
{
    om_h5_reader *r = NULL;
    om_status st;
    memset(rd, 0, sizeof *rd);
    if ((st = om_h5_reader_open(&r, path)) != OM_OK)
        return st;
    st = om_summary_compute(r, confidence, &rd->s);
    if (st == OM_OK)
        st = optional_attr(r, "data_version", &rd->data_version);
    if (st == OM_OK)
        st = optional_attr(r, "game", &rd->game);
    if (st == OM_OK)
        st = optional_attr(r, "scenario_name", &rd->scenario_name);
    if (st == OM_OK)
        st = optional_attr(r, "options_json", &rd->options_json);
    om_h5_reader_close(r);
    return st;
}

static void run_free(run_data *rd)
{
    om_summary_free(rd->s);
    free(rd->data_version);
    free(rd->game);
    free(rd->scenario_name);
    free(rd->options_json);
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

/* Whether `d` starts with the word `word` (not followed by a letter or digit). */
static bool starts_word(const char *d, const char *word)
{
    size_t n = strlen(word);
    return strncmp(d, word, n) == 0 && !isalnum((unsigned char)d[n]);
}

/*
 * The title of a dist chart from the field's description: "unit A" / "unit B"
 * and "side A" / "side B" become the unit or army names and the text stops
 * before a comma, a parenthesis or the full stop: "Stands lost by unit B (all
 * its ...)." -> "Stands lost by Spearmen"; "Victory points side B lost in the
 * turn (...)" -> "Victory points Orcs lost in the turn".
 */
static void dist_title(const om_summary *s, const om_field *f, char *buf, size_t size)
{
    const char *d = f->description;
    size_t out = 0;
    while (*d != '\0' && *d != ',' && *d != '(' && *d != '.' && *d != ':' && out + 1 < size) {
        if (starts_word(d, "unit A") || starts_word(d, "unit B") || starts_word(d, "side A")
            || starts_word(d, "side B")) {
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

const char *om_chart_dist_default(const om_summary *s)
{
    const char *wide = NULL;
    if (s->lost[1].known && s->lost[1].field != NULL)
        return s->lost[1].field;
    for (size_t i = 0; i < s->field_count; i++)
        if (s->fields[i].field->type == OM_FIELD_COUNT16)
            wide = s->fields[i].field->name;
    if (wide != NULL)
        return wide;
    for (size_t i = 0; i < s->field_count; i++)
        if (s->fields[i].field->type == OM_FIELD_COUNT)
            return s->fields[i].field->name;
    return NULL;
}

/* The names of a file's fields of the types wanted (a mask of 1 << om_field_type), for
 * suggestions; returns how many. */
static size_t field_names(const om_summary *s, unsigned types, const char **names)
{
    size_t n = 0;
    for (size_t i = 0; i < s->field_count && n < OM_LAYOUT_FIELDS_MAX; i++)
        if (types & (1u << s->fields[i].field->type))
            names[n++] = s->fields[i].field->name;
    /* The fields of each unit too: a flags chart draws them by name. */
    for (size_t i = 0; i < s->unit_field_count && n < OM_LAYOUT_FIELDS_MAX; i++)
        if (types & (1u << s->unit_fields[i].field->type))
            names[n++] = s->unit_fields[i].field->name;
    return n;
}

/* The error of a field `name` that the file lacks: a suggestion among the fields of
 * `types` if one is near, else how many such fields there are and where to see them. */
static om_status no_such_field(const om_summary *s, const char *name, unsigned types,
                               const char *what)
{
    const char *names[OM_LAYOUT_FIELDS_MAX] = {NULL}, *best;
    size_t n = field_names(s, types, names);
    if ((best = om_suggest(name, names, n)) != NULL)
        return OM_ERROR(OM_EINVAL, "%s: no %s field '%s' to chart; did you mean '%s'?", s->file,
                        what, name, best);
    if (n == 0)
        return OM_ERROR(OM_EINVAL, "%s: no %s field '%s' to chart: the file has none", s->file,
                        what, name);
    return OM_ERROR(OM_EINVAL, "%s: no %s field '%s' to chart; its %zu %s fields are %s%s%s "
                    "(all: oddsmaster summary %s)", s->file, what, name, n, what, names[0],
                    n > 1 ? " ... " : "", n > 1 ? names[n - 1] : "", s->file);
}

/* Count and two-byte count fields. */
#define COUNT_TYPES (1u << OM_FIELD_COUNT | 1u << OM_FIELD_COUNT16)

/*
 * dist of one unit's values of a count field of the units, named
 * "FIELD@UNIT" (stands_lost@knights): P(= k) and P(>= k) with its Wilson
 * interval for every k from 0 to the field's largest value, from the unit's
 * tally. Errors: OM_EINVAL (no such field or unit, with a suggestion; a
 * yes/no field, which --kind flags draws), OM_ENOMEM.
 */
static om_status build_unit_dist(const om_summary *s, const char *name, om_chart_spec *spec)
{
    const char *at = strchr(name, '@');
    const size_t flen = (size_t)(at - name);
    const om_summary_unit_field *uf = NULL;
    const om_layout_unit *un = NULL;
    const om_summary_unit_stat *st;
    uint64_t least = s->trials;
    size_t u = 0;
    for (size_t f = 0; f < s->unit_field_count && uf == NULL; f++)
        if (strlen(s->unit_fields[f].field->name) == flen &&
            strncmp(s->unit_fields[f].field->name, name, flen) == 0)
            uf = &s->unit_fields[f];
    for (size_t i = 0; i < s->unit_count && un == NULL; i++)
        if (strcmp(s->units[i].id, at + 1) == 0) {
            un = &s->units[i];
            u = i;
        }
    if (uf == NULL || un == NULL) {
        const char *names[OM_LAYOUT_UNITS_MAX], *best;
        size_t n = 0;
        for (size_t i = 0; uf != NULL && i < s->unit_count && n < OM_LAYOUT_UNITS_MAX; i++)
            names[n++] = s->units[i].id;
        best = uf != NULL ? om_suggest(at + 1, names, n) : NULL;
        return OM_ERROR(OM_EINVAL, "%s: no %s '%.*s' to chart%s%s%s (oddsmaster summary %s lists "
                        "the fields and units)", s->file, uf == NULL ? "field of each unit" : "unit",
                        uf == NULL ? (int)flen : (int)strlen(at + 1), uf == NULL ? name : at + 1,
                        best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "",
                        s->file);
    }
    if (uf->field->type == OM_FIELD_FLAG)
        return OM_ERROR(OM_EINVAL, "%s: '%s' is a yes/no field; draw it with --kind flags "
                        "--field %s", s->file, name, name);
    st = &uf->unit[u];
    spec->n_k = (uf->field->max > 1 ? uf->field->max : 1) + 1u;
    spec->p_equal = calloc(spec->n_k, sizeof *spec->p_equal);
    spec->p_least = calloc(spec->n_k, sizeof *spec->p_least);
    spec->lo = calloc(spec->n_k, sizeof *spec->lo);
    spec->hi = calloc(spec->n_k, sizeof *spec->hi);
    if (spec->p_equal == NULL || spec->p_least == NULL || spec->lo == NULL || spec->hi == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
    spec->k_values = NULL;
    for (size_t k = 0; k < spec->n_k; k++) {
        const uint64_t here = k <= uf->field->max ? st->hist[k] : 0;
        om_status e;
        spec->p_equal[k] = (double)here / (double)s->trials;
        spec->p_least[k] = (double)least / (double)s->trials;
        if ((e = om_stats_wilson(least, s->trials, s->confidence, &spec->lo[k], &spec->hi[k])) !=
            OM_OK)
            return e;
        least -= here;
    }
    spec->field = name;
    /* "Stands Knights lost over the battle": the description, the unit named. */
    {
        const char *d = uf->field->description, *the = d ? strstr(d, "the unit") : NULL;
        if (the != NULL) {
            if (snprintf(spec->title, sizeof spec->title, "%.*s%s%s", (int)(the - d), d,
                         un->name, the + strlen("the unit")) >= (int)sizeof spec->title)
                spec->title[sizeof spec->title - 1] = '\0';
        } else if (snprintf(spec->title, sizeof spec->title, "%s of %s", uf->field->name,
                            un->name) >= (int)sizeof spec->title) {
            spec->title[sizeof spec->title - 1] = '\0';
        }
        size_t len = strlen(spec->title);
        if (len > 0 && spec->title[len - 1] == '.')
            spec->title[len - 1] = '\0';
    }
    if (snprintf(spec->x_title, sizeof spec->x_title, "k = %c%s (%s)",
                 tolower((unsigned char)spec->title[0]),
                 spec->title[0] != '\0' ? spec->title + 1 : "", name) >= (int)sizeof spec->x_title)
        spec->x_title[sizeof spec->x_title - 1] = '\0';
    return OM_OK;
}

static om_status build_dist(const run_data *rd, const char *name, om_chart_spec *spec)
{
    const om_summary *s = rd->s;
    const om_summary_field *sf = NULL;
    if (name == NULL)
        return OM_ERROR(OM_EINVAL, "%s: this %s run has no count field to draw; its yes/no "
                        "fields are drawn by --kind flags", s->file,
                        name_or(s->kind, "(unknown kind)"));
    for (size_t i = 0; i < s->field_count; i++)
        if (strcmp(s->fields[i].field->name, name) == 0)
            sf = &s->fields[i];
    if (sf == NULL && strchr(name, '@') != NULL)
        return build_unit_dist(s, name, spec);
    /* A field of each unit (per-unit results) is drawn by --kind flags (a
     * yes/no one) or listed per unit by the summary. */
    if (sf == NULL && om_summary_unit(s, name, 0) != NULL)
        return OM_ERROR(OM_EINVAL, "%s: '%s' is a field of each unit (one value per unit and "
                        "trial): draw a yes/no one with --kind flags --field %s, or see "
                        "`oddsmaster summary %s`, which lists it per unit", s->file, name, name,
                        s->file);
    if (sf == NULL)
        return no_such_field(s, name, COUNT_TYPES, "count");
    if (sf->field->type == OM_FIELD_FLAG)
        return OM_ERROR(OM_EINVAL, "%s: '%s' is a yes/no field; draw it with --kind flags "
                        "--field %s", s->file, name, name);
    if (sf->field->type == OM_FIELD_WINNER)
        return OM_ERROR(OM_EINVAL, "%s: '%s' is the winner; draw it with --kind odds", s->file,
                        name);
    /* A two-byte count (victory points) is drawn at the values that occurred only;
     * a one-byte count at every k from 0, at least 0 and 1, so that a field that
     * never happened still shows its zero bar. */
    spec->n_k = sf->values != NULL ? sf->n_values : (sf->max > 1 ? sf->max : 1) + 1u;
    if (spec->n_k == 0)
        return OM_ERROR(OM_EINVAL, "%s: '%s' has no values to draw (no trials)", s->file, name);
    spec->p_equal = calloc(spec->n_k, sizeof *spec->p_equal);
    spec->p_least = calloc(spec->n_k, sizeof *spec->p_least);
    spec->lo = calloc(spec->n_k, sizeof *spec->lo);
    spec->hi = calloc(spec->n_k, sizeof *spec->hi);
    if (spec->p_equal == NULL || spec->p_least == NULL || spec->lo == NULL || spec->hi == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
    spec->k_values = NULL;
    if (sf->values != NULL) {
        unsigned *kv = calloc(spec->n_k, sizeof *kv);
        if (kv == NULL)
            return OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
        for (size_t k = 0; k < spec->n_k; k++) {
            kv[k] = sf->values[k].value;
            spec->p_equal[k] = sf->values[k].p_equal;
            spec->p_least[k] = sf->values[k].at_least.p;
            spec->lo[k] = sf->values[k].at_least.lo;
            spec->hi[k] = sf->values[k].at_least.hi;
        }
        spec->k_values = kv;
    } else {
        for (size_t k = 0; k < spec->n_k; k++) {
            spec->p_equal[k] = (double)sf->hist[k] / (double)s->trials;
            spec->p_least[k] = sf->at_least[k].p;
            spec->lo[k] = sf->at_least[k].lo;
            spec->hi[k] = sf->at_least[k].hi;
        }
    }
    spec->field = sf->field->name;
    dist_title(s, sf->field, spec->title, sizeof spec->title);
    /* "k = stands lost by Spearmen (stands_lost_b)": the title, lower-cased at its start. */
    snprintf(spec->x_title, sizeof spec->x_title, "k = %c%s (%s)%s", tolower((unsigned char)spec->title[0]),
             spec->title[0] != '\0' ? spec->title + 1 : "", sf->field->name,
             sf->values != NULL ? ": only the values that occurred" : "");
    return OM_OK;
}

/*
 * The label of a yes/no field from its description, whole: "1 if Knights
 * (knights) charged." -> "Knights charged": the leading "1 if " and the final
 * full stop go, the first letter is raised, and a unit's id in parentheses
 * right after its name ("Orc Reserve (orc_reserve)") goes when it only repeats
 * the name; "unit B" and "side B" become the unit's or side's name; any other
 * text, parentheses included, stays.
 */
static void flag_label(const om_summary *s, const om_field *f, char *buf, size_t size)
{
    const char *d = f->description != NULL && f->description[0] != '\0' ? f->description
                                                                         : f->name;
    size_t out = 0, len;
    if (strncmp(d, "1 if ", 5) == 0)
        d += 5;
    while (*d != '\0' && out + 1 < size) {
        /* "unit B" and "side B" (either case) become the name, as in dist titles. */
        if ((d == f->description || !isalnum((unsigned char)d[-1]))
            && (starts_word(d, "unit A") || starts_word(d, "unit B")
                || starts_word(d, "Unit A") || starts_word(d, "Unit B")
                || starts_word(d, "side A") || starts_word(d, "side B")
                || starts_word(d, "Side A") || starts_word(d, "Side B"))
            && s->unit[d[5] == 'A' ? 0 : 1] != NULL) {
            int n = snprintf(buf + out, size - out, "%s", s->unit[d[5] == 'A' ? 0 : 1]);
            out = n > 0 && (size_t)n < size - out ? out + (size_t)n : size - 1;
            d += 6;
            continue;
        }
        const char *close = *d == '(' ? strchr(d, ')') : NULL;
        if (close != NULL && out > 0 && buf[out - 1] == ' ') {
            /* Compare the id with as many of the words before it: spaces and
             * underscores alike, in any case. */
            size_t id_len = (size_t)(close - d - 1), start = out - 1;
            if (id_len > 0 && start >= id_len) {
                bool same = true;
                for (size_t i = 0; i < id_len && same; i++) {
                    char a = buf[start - id_len + i], b = d[1 + i];
                    a = a == ' ' ? '_' : (char)tolower((unsigned char)a);
                    same = a == (b == ' ' ? '_' : (char)tolower((unsigned char)b));
                }
                if (same && (start == id_len || buf[start - id_len - 1] == ' ')) {
                    out--; /* the space before the parenthesis */
                    d = close + 1;
                    continue;
                }
            }
        }
        buf[out++] = *d++;
    }
    buf[out] = '\0';
    len = strlen(buf);
    while (len > 0 && (buf[len - 1] == '.' || buf[len - 1] == ' '))
        buf[--len] = '\0';
    buf[0] = (char)toupper((unsigned char)buf[0]);
}

/* Whether field `name` is one of those asked for (names or shell patterns). */
static bool field_wanted(const char *name, const char *const *want, size_t n_want)
{
    for (size_t i = 0; i < n_want; i++)
        if (fnmatch(want[i], name, 0) == 0)
            return true;
    return false;
}

/* The key of unit u's value of unit field f: "FIELD@UNIT", as --target
 * names it. */
static void unit_key(const om_summary *s, size_t f, size_t u, char *buf, size_t size)
{
    snprintf(buf, size, "%s@%s", s->unit_fields[f].field->name, s->units[u].id);
}

/* Whether a --field name or pattern asks for unit field values: it matches a
 * "FIELD@UNIT" key, or a yes/no unit field's name (all its units). */
static bool unit_flag_wanted(const om_summary *s, const char *want)
{
    char key[OM_CHART_TEXT_MAX];
    for (size_t f = 0; f < s->unit_field_count; f++) {
        if (s->unit_fields[f].field->type != OM_FIELD_FLAG)
            continue;
        if (fnmatch(want, s->unit_fields[f].field->name, 0) == 0)
            return true;
        for (size_t u = 0; u < s->unit_count; u++) {
            unit_key(s, f, u, key, sizeof key);
            if (fnmatch(want, key, 0) == 0)
                return true;
        }
    }
    return false;
}

/* The label of unit u's yes/no unit field f: its description with the unit
 * named ("1 if the unit charged." of Knights is "Knights (knights) charged"),
 * its id in brackets unless it only repeats the name. */
static void unit_flag_label(const om_summary *s, size_t f, size_t u, char *buf, size_t size)
{
    const om_layout_unit *un = &s->units[u];
    const char *d = s->unit_fields[f].field->description;
    char who[OM_CHART_TEXT_MAX];
    const char *the = d != NULL ? strstr(d, "the unit") : NULL;
    size_t len;
    bool same = strlen(un->id) == strlen(un->name);
    for (size_t i = 0; same && un->id[i] != '\0'; i++)
        same = tolower((unsigned char)un->id[i]) ==
               (un->name[i] == ' ' ? '_' : tolower((unsigned char)un->name[i]));
    /* A label too long for its buffer is cut: the chart draws what fits. */
    if ((same ? snprintf(who, sizeof who, "%s", un->name)
              : snprintf(who, sizeof who, "%s (%s)", un->name, un->id)) >= (int)sizeof who)
        who[sizeof who - 1] = '\0';
    if (d == NULL || the == NULL) {
        if (snprintf(buf, size, "%s: %s", who, s->unit_fields[f].field->name) >= (int)size)
            buf[size - 1] = '\0';
        return;
    }
    if (strncmp(d, "1 if ", 5) == 0)
        d += 5;
    if (snprintf(buf, size, "%.*s%s%s", (int)(the - d), d, who, the + strlen("the unit")) >=
        (int)size)
        buf[size - 1] = '\0';
    /* The sentence's full stop is the chart's to leave out, as for trial
     * fields, and so is a closing remark in brackets (the description's
     * "(always 0 for a unit of the side that does not move)"): the label
     * names the event. */
    len = strlen(buf);
    if (len > 0 && buf[len - 1] == '.')
        buf[--len] = '\0';
    if (len > 0 && buf[len - 1] == ')') {
        char *open = strrchr(buf, '(');
        if (open != NULL && open > buf + 1 && open[-1] == ' ' && open > buf + strlen(who))
            open[-1] = '\0';
    }
    buf[0] = (char)toupper((unsigned char)buf[0]);
}

/* The items of the yes/no unit fields: every unit's value of each, in the
 * file's order of fields then units, appended to items[n..]; with `want`,
 * those whose "FIELD@UNIT" key or field name a name or pattern matches;
 * without, those set in at least one trial (*left counts the others).
 * Returns the new count. */
static size_t unit_flag_items(const om_summary *s, const char *const *want, size_t n_want,
                              om_chart_item *items, size_t n, size_t *left, bool *taken)
{
    char key[OM_CHART_TEXT_MAX];
    for (size_t f = 0; f < s->unit_field_count; f++) {
        const om_summary_unit_field *uf = &s->unit_fields[f];
        if (uf->field->type != OM_FIELD_FLAG)
            continue;
        for (size_t u = 0; u < s->unit_count; u++) {
            const om_summary_unit_stat *st = &uf->unit[u];
            unit_key(s, f, u, key, sizeof key);
            if (n_want > 0 && !field_wanted(key, want, n_want) &&
                !field_wanted(uf->field->name, want, n_want))
                continue;
            if (taken[f * s->unit_count + u])
                continue;
            taken[f * s->unit_count + u] = true;
            if (n_want == 0 && st->max == 0) {
                ++*left;
                continue;
            }
            snprintf(items[n].key, sizeof items[n].key, "%s", key);
            unit_flag_label(s, f, u, items[n].label, sizeof items[n].label);
            items[n].p = st->p.p;
            items[n].lo = st->p.lo;
            items[n].hi = st->p.hi;
            items[n].count = st->hist[1];
            n++;
        }
    }
    return n;
}

/*
 * The adapter of a run file's layout to a flags chart: one item per flag
 * field (OM_FIELD_FLAG), labelled by its description, with its probability
 * and interval from the summary. With `want` (names or shell patterns such as
 * "knights_*"), the fields asked for, in the order asked, each pattern's
 * matches in file order; without, every flag field that was set in at least
 * one trial, in file order, and *left the number of those never set. The
 * items are a new array (caller frees). Errors: OM_EINVAL (a name or pattern
 * that names no flag field, with a suggestion), OM_ENOMEM.
 */
static om_status flag_items(const om_summary *s, const char *const *want, size_t n_want,
                            om_chart_item **out, size_t *n_out, size_t *left)
{
    om_chart_item *items = calloc(s->field_count + s->unit_field_count * s->unit_count + 1,
                                  sizeof *items);
    bool *taken = calloc(s->field_count > 0 ? s->field_count : 1, sizeof *taken);
    bool *unit_taken = calloc(s->unit_field_count * s->unit_count + 1, sizeof *unit_taken);
    size_t n = 0;
    *left = 0;
    if (items == NULL || taken == NULL || unit_taken == NULL) {
        free(items);
        free(taken);
        free(unit_taken);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
    }
    for (size_t w = 0; w < (n_want > 0 ? n_want : 1); w++) {
        size_t matched = 0;
        for (size_t i = 0; i < s->field_count; i++) {
            const om_summary_field *sf = &s->fields[i];
            bool is_flag = sf->field->type == OM_FIELD_FLAG;
            if (n_want > 0 && !field_wanted(sf->field->name, &want[w], 1))
                continue;
            if (n_want > 0 && !is_flag && strcmp(want[w], sf->field->name) == 0) {
                free(items);
                free(taken);
                free(unit_taken);
                return OM_ERROR(OM_EINVAL, "%s: '%s' is a count, not a yes/no field; draw it "
                                "with --kind dist --field %s", s->file, want[w], want[w]);
            }
            if (!is_flag)
                continue;
            matched++;
            if (taken[i])
                continue;
            if (n_want == 0 && sf->hist[1] == 0) {
                ++*left;
                continue;
            }
            taken[i] = true;
            snprintf(items[n].key, sizeof items[n].key, "%s", sf->field->name);
            flag_label(s, sf->field, items[n].label, sizeof items[n].label);
            items[n].p = sf->at_least[1].p;
            items[n].lo = sf->at_least[1].lo;
            items[n].hi = sf->at_least[1].hi;
            items[n].count = sf->hist[1];
            n++;
        }
        if (n_want > 0 && matched == 0 && !unit_flag_wanted(s, want[w])) {
            free(items);
            free(taken);
            free(unit_taken);
            return no_such_field(s, want[w], 1u << OM_FIELD_FLAG, "yes/no");
        }
        /* Then the units' values this name or pattern asks for (all the
         * set ones, without names), after the run's own fields. */
        n = unit_flag_items(s, n_want > 0 ? &want[w] : NULL, n_want > 0 ? 1 : 0, items, n, left,
                            unit_taken);
    }
    free(taken);
    free(unit_taken);
    if (n == 0) {
        free(items);
        return OM_ERROR(OM_EINVAL, "%s: %s", s->file,
                        *left > 0 ? "none of its yes/no fields was ever set; name them with "
                                    "--field to draw them at zero"
                                  : "it has no yes/no field to draw; try --kind dist");
    }
    *out = items;
    *n_out = n;
    return OM_OK;
}

/* A flags chart of one run file. */
static om_status build_flags(const run_data *rd, const om_chart_options *opt,
                             om_chart_spec *spec)
{
    const om_summary *s = rd->s;
    size_t left = 0;
    om_status st = flag_items(s, opt->fields, opt->n_fields, &spec->items, &spec->n_items,
                              &left);
    if (st != OM_OK)
        return st;
    char sides[OM_CHART_TEXT_MAX], rest[OM_CHART_TEXT_MAX];
    snprintf(spec->title, sizeof spec->title, "%s: how often each happens",
             name_or(s->title, "What happens"));
    /* The title names the scenario: the subtitle names the sides instead. */
    if (s->unit[0] != NULL && s->unit[1] != NULL) {
        const char *first = strstr(spec->subtitle, " \xc2\xb7 ");
        snprintf(rest, sizeof rest, "%s", s->title != NULL && first != NULL ? first + 4
                                                                            : spec->subtitle);
        snprintf(sides, sizeof sides, "%s vs %s", s->unit[0], s->unit[1]);
        spec->subtitle[0] = '\0';
        add_part(spec->subtitle, sizeof spec->subtitle, sides);
        add_part(spec->subtitle, sizeof spec->subtitle, rest);
    }
    if (left > 0)
        snprintf(spec->note, sizeof spec->note, "Not drawn: %zu yes/no field%s never set in any "
                 "trial (name %s with --field to draw %s at zero).", left, left > 1 ? "s" : "",
                 left > 1 ? "them" : "it", left > 1 ? "them" : "it");
    snprintf(spec->x_title, sizeof spec->x_title,
             "Probability (whiskers and [ ]: %g%% Wilson intervals)", 100.0 * spec->confidence);
    return OM_OK;
}

/* Each unit's victory points a battle (the summary's unit_points), in the
 * order of the summary's table (om_summary_unit_points_rank). */
static om_status build_points(const run_data *rd, om_chart_spec *spec)
{
    const om_summary *s = rd->s;
    size_t *order;
    if (s->unit_points == NULL || s->unit_count == 0)
        return OM_ERROR(OM_EINVAL, "%s: a points chart needs each unit's victory points, "
                        "which only a battle's file records ('oddsmaster battle')", s->file);
    order = malloc(s->unit_count * sizeof *order);
    spec->unit_points = calloc(s->unit_count, sizeof *spec->unit_points);
    if (order == NULL || spec->unit_points == NULL) {
        free(order);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
    }
    om_summary_unit_points_rank(s, order);
    for (size_t k = 0; k < s->unit_count; k++) {
        const om_layout_unit *u = &s->units[order[k]];
        const om_summary_unit_points *p = &s->unit_points[order[k]];
        om_chart_unit_points *row = &spec->unit_points[k];
        snprintf(row->key, sizeof row->key, "%s", u->id);
        const char *name = name_or(u->name, u->id);
        /* Units of one name are told apart by their id's number ("knights_2"). */
        const char *num = strrchr(u->id, '_');
        if (num == NULL || num[1] == '\0' || strspn(num + 1, "0123456789") != strlen(num + 1))
            num = "_";
        snprintf(row->name, sizeof row->name, "%s", name);
        row->side = u->side != 0;
        row->points = (unsigned)u->points;
        if (row->points > 0)
            snprintf(row->label, sizeof row->label, "%s%s%s (%s, %u pts)", name,
                     num[1] != '\0' ? " " : "", num + 1, row->side == 0 ? "A" : "B",
                     row->points);
        else
            snprintf(row->label, sizeof row->label, "%s%s%s (%s)", name,
                     num[1] != '\0' ? " " : "", num + 1, row->side == 0 ? "A" : "B");
        /* The summary keeps [0] given up and [1] scored; a chart reads scored first. */
        for (int j = 0; j < 2; j++) {
            row->mean[j] = p->mean[1 - j];
            row->lo[j] = p->lo[1 - j];
            row->hi[j] = p->hi[1 - j];
        }
        row->per_100 = p->per_100;
    }
    spec->n_units = s->unit_count;
    free(order);
    snprintf(spec->title, sizeof spec->title, "%s: what each unit scored and gave up",
             name_or(s->title, "A battle"));
    snprintf(spec->x_title, sizeof spec->x_title,
             "Victory points a battle (whiskers: %g%% intervals of the means)",
             100.0 * spec->confidence);
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

/*
 * The key of the heat map's blank cells, from why each is blank: no trial
 * the pair can take part in because a unit cannot do what the selected
 * situations ask (artillery cannot charge), cells not run, or trials that all
 * ended without a result. Empty when no cell is blank.
 */
static void heat_blank_key(const om_efficiency *e, om_chart_spec *spec)
{
    const om_matrix *m = e->m;
    const size_t R = m->info.n_rows, C = m->info.n_cols;
    size_t cannot = 0, not_run = 0, no_result = 0;
    char why[OM_CHART_TEXT_MAX] = "";
    for (size_t r = 0; r < R; r++)
        for (size_t c = 0; c < C; c++) {
            bool inapplicable = false, run = false;
            if (isfinite(spec->value[r * C + c]))
                continue;
            for (size_t st = 0; st < m->info.n_situations; st++) {
                const om_matrix_cell *cell = om_matrix_at(m, st, r, c);
                if (e->opt.situation != OM_EFFICIENCY_ALL && e->opt.situation != st)
                    continue;
                inapplicable = inapplicable || (cell->trials > 0 && cell->inapplicable != 0);
                run = run || cell->trials > 0;
            }
            if (inapplicable)
                cannot++;
            else if (!run)
                not_run++;
            else
                no_result++;
        }
    if (cannot > 0)
        add_part(why, sizeof why, "the pair cannot meet here (a unit cannot do what the "
                                  "situation asks)");
    if (not_run > 0)
        add_part(why, sizeof why, "the pair was not run");
    if (no_result > 0)
        add_part(why, sizeof why, "no trial ended with a result");
    /* The parts are alternatives: "or", not the caption's middle dot. */
    spec->blank_key[0] = '\0';
    if (why[0] != '\0') {
        char *dot;
        while ((dot = strstr(why, " \xc2\xb7 ")) != NULL) {
            memcpy(dot, " or ", 4);
        }
        snprintf(spec->blank_key, sizeof spec->blank_key, "no score: %s", why);
    }
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
    heat_blank_key(e, spec);
    axis_armies(info->rows, R, name_or(info->row_list, "Rows"), rows, sizeof rows);
    axis_armies(info->cols, C, name_or(info->col_list, "columns"), cols, sizeof cols);
    /* A matrix of army lists rates lists, its cells pooled over the legs
     * chosen (--situation all: every leg). */
    const char *who = info->battle_margins ? "list" : "unit";
    snprintf(spec->title, sizeof spec->title, "%.200s vs %.200s: expected score of the row %s",
             rows, cols, who);
    matrix_frame(e, spec);
    snprintf(spec->row_title, sizeof spec->row_title, "%.200s (rows)", rows);
    snprintf(spec->col_title, sizeof spec->col_title, "%.200s (columns)", cols);
    snprintf(spec->x_title, sizeof spec->x_title,
             "row %s's expected score: win 1, draw \xc2\xbd (cells: win\xc2\xb7" "draw\xc2\xb7"
             "lose %%)", who);
    return OM_OK;
}

/*
 * The footnote of a fair chart: the units it does not draw, grouped by why
 * ("Not drawn: Helblaster, Cannon (not rated: cannot take part in the
 * selected situations); Rock Lobber (no fair value: no price curve)."), or ""
 * when every unit is drawn. A list too long for one footnote ends in "...".
 */
static void fair_left_out(const om_efficiency *e, char *buf, size_t size)
{
    size_t len = 0, groups = 0;
    bool *done = calloc(e->n_units > 0 ? e->n_units : 1, sizeof *done);
    buf[0] = '\0';
    if (done == NULL)
        return;
    for (size_t u = 0; u < e->n_units; u++) {
        const char *why;
        size_t names = 0;
        if (done[u] || isfinite(e->units[u].overall.fair.value))
            continue;
        why = om_efficiency_status_name(&e->units[u]);
        len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s",
                                groups++ == 0 ? "Not drawn: " : "; ");
        for (size_t v = u; v < e->n_units; v++) {
            if (done[v] || isfinite(e->units[v].overall.fair.value)
                || strcmp(om_efficiency_status_name(&e->units[v]), why) != 0)
                continue;
            done[v] = true;
            len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s%s",
                                    names++ > 0 ? ", " : "", e->units[v].unit->name);
        }
        len += (size_t)snprintf(buf + len, len < size ? size - len : 0, " (%s)",
                                strcmp(why, "rated") == 0 ? "no finite fair value" : why);
    }
    free(done);
    if (groups > 0)
        len += (size_t)snprintf(buf + len, len < size ? size - len : 0, ".");
    if (len >= size && size > 4)
        memcpy(buf + size - 4, "...", 4);
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
    fair_left_out(e, spec->note, sizeof spec->note);
    return OM_OK;
}

/* -------------------------------------------------------------------- CSV */

/* The header line of each kind's CSV (chart.h), in om_chart_kind order: also how a
 * CSV that oddsmaster wrote is recognised (om_chart_csv_is_ours). */
static const char *const csv_headers[OM_CHART_KINDS] = {
    "file,series,outcome,label,p,lo,hi,count,trials,manifest",
    "field,k,p_equal,p_at_least,lo,hi,manifest",
    "row,col,row_points,col_points,trials,wins_row,draws,wins_col,score,manifest",
    "side,army,unit,points,fair_points,lo,hi,manifest",
    "field,label,p,lo,hi,count,trials,manifest",
    "unit,name,side,points,scored,scored_lo,scored_hi,given,given_lo,given_hi,per_100,manifest",
};

/* The start of every manifest (manifest.h): the last column of each row. */
static const char manifest_start[] = "oddsmaster ";

/* Most bytes of a CSV read to recognise it: its header and its first row. */
#define CSV_SNIFF_MAX 8192

bool om_chart_csv_is_ours(const char *csv_path)
{
    char buf[CSV_SNIFF_MAX + 1], *nl, *row_end, *last;
    struct stat st;
    size_t n;
    bool header = false;
    FILE *f;
    /* lstat: a link is never taken for our file, wherever it points. */
    if (lstat(csv_path, &st) != 0 || !S_ISREG(st.st_mode) || (f = fopen(csv_path, "rb")) == NULL)
        return false;
    n = fread(buf, 1, CSV_SNIFF_MAX, f);
    fclose(f);
    buf[n] = '\0';
    if ((nl = strchr(buf, '\n')) == NULL)
        return false;
    *nl = '\0';
    for (int k = 0; k < OM_CHART_KINDS && !header; k++)
        header = strcmp(buf, csv_headers[k]) == 0;
    if (!header || (row_end = strchr(nl + 1, '\n')) == NULL)
        return false;
    *row_end = '\0';
    /* The manifest is the last column, quoted when it holds a comma or a quote. */
    last = strrchr(nl + 1, ',');
    while (last != NULL && last > nl + 1 && strncmp(last + 1, manifest_start,
                                                     sizeof manifest_start - 1) != 0
           && strncmp(last + 1, "\"oddsmaster ", sizeof manifest_start) != 0) {
        *last = '\0';
        last = strrchr(nl + 1, ',');
    }
    return last != NULL && last > nl + 1;
}

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
        fprintf(out, "%s\n", csv_headers[OM_CHART_ODDS]);
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
        fprintf(out, "%s\n", csv_headers[OM_CHART_DIST]);
        for (size_t k = 0; k < spec->n_k; k++) {
            fprintf(out, "%s,%u,%.10g,%.10g,%.10g,%.10g", spec->field,
                    spec->k_values != NULL ? spec->k_values[k] : (unsigned)k, spec->p_equal[k],
                    spec->p_least[k], spec->lo[k], spec->hi[k]);
            end_row(out, spec);
        }
        break;
    case OM_CHART_HEATMAP:
        fprintf(out, "%s\n", csv_headers[OM_CHART_HEATMAP]);
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
    case OM_CHART_FLAGS:
        fprintf(out, "%s\n", csv_headers[OM_CHART_FLAGS]);
        for (size_t i = 0; i < spec->n_items; i++) {
            const om_chart_item *it = &spec->items[i];
            om_csv_string(out, it->key);
            fputc(',', out);
            om_csv_string(out, it->label);
            fprintf(out, ",%.10g,%.10g,%.10g,%llu,%llu", it->p, it->lo, it->hi,
                    (unsigned long long)it->count, (unsigned long long)spec->trials);
            end_row(out, spec);
        }
        break;
    case OM_CHART_POINTS:
        fprintf(out, "%s\n", csv_headers[OM_CHART_POINTS]);
        for (size_t i = 0; i < spec->n_units; i++) {
            const om_chart_unit_points *p = &spec->unit_points[i];
            om_csv_string(out, p->key);
            fputc(',', out);
            om_csv_string(out, p->name);
            fprintf(out, ",%s,%u", p->side == 0 ? "A" : "B", p->points);
            for (int j = 0; j < 2; j++)
                fprintf(out, ",%.10g,%.10g,%.10g", p->mean[j], p->lo[j], p->hi[j]);
            if (p->per_100 >= 0)
                fprintf(out, ",%.10g", p->per_100);
            else
                fputc(',', out);
            end_row(out, spec);
        }
        break;
    case OM_CHART_FAIR:
        fprintf(out, "%s\n", csv_headers[OM_CHART_FAIR]);
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
    else if (!force && access(csv, F_OK) == 0 && !om_chart_csv_is_ours(csv))
        st = OM_ERROR(OM_EINVAL, "%s exists and is not a chart's data that oddsmaster wrote: "
                      "the chart writes its data there, beside %s; remove it or give --force "
                      "to replace it", csv, out_path);
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

om_status om_chart_kind_default(const char *path, om_chart_kind *out)
{
    char *schema = NULL;
    om_h5_reader *r = NULL;
    om_summary *s = NULL;
    om_status st = om_h5m_file_schema(path, &schema);
    if (st == OM_ENOTFOUND)
        return OM_ERROR(OM_EHDF5, "%s: no 'schema' attribute (not an oddsmaster file)", path);
    if (st != OM_OK)
        return st;
    if (strcmp(schema, OM_H5M_SCHEMA) == 0 || strcmp(schema, OM_H5M_SCHEMA_V1) == 0
        || strcmp(schema, OM_H5M_SCHEMA_V2) == 0) {
        free(schema);
        *out = OM_CHART_HEATMAP;
        return OM_OK;
    }
    free(schema);
    if ((st = om_h5_reader_open(&r, path)) == OM_OK
        && (st = om_summary_compute(r, OM_SUMMARY_CONFIDENCE, &s)) == OM_OK) {
        bool flags = false, unit_flags = false;
        for (size_t i = 0; i < s->field_count && !flags; i++)
            flags = s->fields[i].field->type == OM_FIELD_FLAG;
        for (size_t i = 0; i < s->unit_field_count && !unit_flags; i++)
            unit_flags = s->unit_fields[i].field->type == OM_FIELD_FLAG;
        /* A run whose units have yes/no results (a turn) is about those
         * events; one that records how side B loses victory points (a volley)
         * about those losses. */
        *out = s->has_outcome    ? OM_CHART_ODDS
               : unit_flags       ? OM_CHART_FLAGS
               : s->lost[1].known ? OM_CHART_DIST
               : flags            ? OM_CHART_FLAGS
                                  : OM_CHART_DIST;
    }
    om_summary_free(s);
    om_h5_reader_close(r);
    return st;
}

/* The footer of an odds chart of several files: what differs is listed. */
static void series_footer(const run_data *rd, size_t n, om_chart_spec *spec)
{
    char part[OM_MANIFEST_MAX], count[OM_MANIFEST_COUNT_MAX];
    size_t len;
    bool same_rules = true;
    snprintf(spec->footer, sizeof spec->footer, "oddsmaster %s",
             name_or(rd[0].s->program_version, "(version unknown)"));
    for (size_t k = 1; k < n && same_rules; k++)
        same_rules = strcmp(name_or(rd[k].s->ruleset, ""), name_or(rd[0].s->ruleset, "")) == 0;
    add_part(spec->footer, sizeof spec->footer,
             same_rules ? rd[0].s->ruleset : "rule sets in the legend");
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

/* ------------------------------------------------------------ series labels */

/* One value of a run's provenance (options_json flattened): "options.general_blunders"
 * = "true". */
typedef struct leaf {
    char *path;  /* dotted path, arrays as [i] */
    char *value; /* a string as itself, anything else as compact JSON */
} leaf;

/* A run's provenance, flattened. */
typedef struct leaves {
    leaf *v;
    size_t n, cap;
} leaves;

/* Most values of a provenance compared (a whole turn has a few thousand). */
#define LEAVES_MAX 20000u

/* Longest path of a value. */
#define LEAF_PATH_MAX 256

/* Most differing values a series label names before "+N more". */
#define LABEL_LEAVES_MAX 3

static void leaves_free(leaves *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].path);
        free(l->v[i].value);
    }
    free(l->v);
    memset(l, 0, sizeof *l);
}

/* Add every scalar under `j` at `path` (of length len) to `out`; false when out of
 * memory or past LEAVES_MAX (the comparison then names fewer differences). */
static bool flatten(const json_t *j, char *path, size_t len, leaves *out)
{
    if (json_is_object(j)) {
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)j, key, v) {
            int n = snprintf(path + len, LEAF_PATH_MAX - len, "%s%s", len > 0 ? "." : "", key);
            if (n < 0 || (size_t)n >= LEAF_PATH_MAX - len || !flatten(v, path, len + (size_t)n,
                                                                       out))
                return false;
        }
        path[len] = '\0';
        return true;
    }
    if (json_is_array(j)) {
        size_t i;
        json_t *v;
        json_array_foreach(j, i, v) {
            int n = snprintf(path + len, LEAF_PATH_MAX - len, "[%zu]", i);
            if (n < 0 || (size_t)n >= LEAF_PATH_MAX - len || !flatten(v, path, len + (size_t)n,
                                                                       out))
                return false;
        }
        path[len] = '\0';
        return true;
    }
    if (out->n == LEAVES_MAX)
        return false;
    if (out->n == out->cap) {
        size_t cap = out->cap > 0 ? 2 * out->cap : 256;
        leaf *v = realloc(out->v, cap * sizeof *v);
        if (v == NULL)
            return false;
        out->v = v;
        out->cap = cap;
    }
    out->v[out->n].path = strdup(path);
    out->v[out->n].value = json_is_string(j) ? strdup(json_string_value(j))
                                             : json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT);
    if (out->v[out->n].path == NULL || out->v[out->n].value == NULL) {
        free(out->v[out->n].path);
        free(out->v[out->n].value);
        return false;
    }
    out->n++;
    return true;
}

/* The provenance of a run flattened (empty if it records none or cannot be read). */
static void run_leaves(const run_data *rd, leaves *out)
{
    char path[LEAF_PATH_MAX] = "";
    json_t *j = rd->options_json != NULL ? json_loads(rd->options_json, 0, NULL) : NULL;
    memset(out, 0, sizeof *out);
    if (j != NULL)
        (void)flatten(j, path, 0, out);
    json_decref(j);
}

/* The value at `path` in `l`, or NULL; `hint` is where to look first (the files'
 * provenances list their values in the same order). */
static const char *leaf_find(const leaves *l, const char *path, size_t hint)
{
    if (hint < l->n && strcmp(l->v[hint].path, path) == 0)
        return l->v[hint].value;
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i].path, path) == 0)
            return l->v[i].value;
    return NULL;
}

/* Whether text differs between the n runs (NULL counts as a value of its own). */
static bool differs(const char *const *text, size_t n)
{
    for (size_t k = 1; k < n; k++)
        if ((text[k] == NULL) != (text[0] == NULL)
            || (text[k] != NULL && strcmp(text[k], text[0]) != 0))
            return true;
    return false;
}

/* Whether a provenance path follows from something the label already names:
 * when the units differ, the whole set-up of the sides (their profiles and
 * positions: another matchup, not a rule toggled), so that only the rule
 * options are named; the rule set's rules and fixed readings when the rule
 * sets differ. */
static bool follows(const char *path, const char *value, bool units_differ,
                    bool rules_differ)
{
    if (units_differ && strncmp(path, "options.", 8) != 0)
        return true;
    if (rules_differ && (strncmp(path, "rules.", 6) == 0 || strncmp(path, "ruleset", 7) == 0
                         || (value != NULL && strncmp(value, "fixed", 5) == 0)))
        return true;
    return strcmp(path, "kind") == 0 || strcmp(path, "ruleset") == 0;
}

/* Whether any two series labels are equal (or empty); twin[k], if given, says
 * which labels are. */
static bool twins(const om_chart_spec *spec, size_t n, bool *twin)
{
    bool any = false;
    for (size_t k = 0; k < n; k++) {
        bool t = spec->series[k][0] == '\0';
        for (size_t j = 0; j < n && !t; j++)
            t = j != k && strcmp(spec->series[j], spec->series[k]) == 0;
        if (twin != NULL)
            twin[k] = t;
        any = any || t;
    }
    return any;
}

/* Append "part" to a series label, " · "-separated. */
static void label_part(char *buf, size_t size, const char *fmt, const char *a, const char *b)
{
    char part[OM_CHART_TEXT_MAX];
    snprintf(part, sizeof part, fmt, a, b != NULL ? b : "");
    add_part(buf, size, part);
}

/*
 * Label the series of an odds chart of n files by what differs between their
 * provenances, in this order: the game, the rule set, the kind, the units;
 * then each value of the resolved scenario that differs ("general_blunders=
 * true", "a.charging=false"; values that follow from a difference already
 * named are skipped: the sides' set-up when the units differ, a rule set's
 * rules), at most
 * LABEL_LEAVES_MAX and "+N more"; then, if nothing of these differs, the
 * scenario's title, the seed, the trials, the scenario file, and last the
 * result file's name, which also ends any label that would be another's twin.
 * The parts common to every file go to the subtitle, and a note when the
 * files mix games or kinds (`warn`, for the caller's warning).
 */
static void label_series(const run_data *rd, size_t n, om_chart_spec *spec, char *warn,
                         size_t warn_size)
{
    const char *game[OM_CHART_MAX_SERIES], *rules[OM_CHART_MAX_SERIES];
    const char *kind[OM_CHART_MAX_SERIES], *units[OM_CHART_MAX_SERIES];
    const char *title[OM_CHART_MAX_SERIES], *scen[OM_CHART_MAX_SERIES];
    char matchup[OM_CHART_MAX_SERIES][OM_CHART_TEXT_MAX], num[OM_CHART_MAX_SERIES][2][32];
    const char *seed[OM_CHART_MAX_SERIES], *trials[OM_CHART_MAX_SERIES];
    leaves lv[OM_CHART_MAX_SERIES];
    bool d_game, d_rules, d_kind, d_units, named = false;
    size_t shown[OM_CHART_MAX_SERIES] = {0}, more[OM_CHART_MAX_SERIES] = {0};

    for (size_t k = 0; k < n; k++) {
        const om_summary *s = rd[k].s;
        char a[200], b[200];
        game[k] = rd[k].game;
        rules[k] = s->ruleset;
        kind[k] = s->kind;
        title[k] = s->title;
        scen[k] = rd[k].scenario_name;
        unit_with_points(a, sizeof a, s->unit[0], s->points[0], "Side A");
        unit_with_points(b, sizeof b, s->unit[1], s->points[1], "Side B");
        snprintf(matchup[k], sizeof matchup[k], "%s vs %s", a, b);
        units[k] = matchup[k];
        snprintf(num[k][0], sizeof num[k][0], "seed %llu", (unsigned long long)s->seed);
        om_manifest_count(s->trials, num[k][1]);
        seed[k] = num[k][0];
        trials[k] = num[k][1];
        run_leaves(&rd[k], &lv[k]);
        spec->series[k][0] = '\0';
    }
    d_game = differs(game, n);
    d_rules = differs(rules, n);
    d_kind = differs(kind, n);
    d_units = differs(units, n);
    for (size_t k = 0; k < n; k++) {
        char *lab = spec->series[k];
        const size_t size = sizeof spec->series[k];
        /* The rule set names its game too. */
        if (d_game || d_rules)
            label_part(lab, size, "%s",
                       name_or(rules[k], name_or(game[k], "(rule set unknown)")), NULL);
        if (d_kind)
            label_part(lab, size, "%s", name_or(kind[k], "(kind unknown)"), NULL);
        if (d_units)
            label_part(lab, size, "%s", units[k], NULL);
    }
    named = d_game || d_rules || d_kind || d_units;
    /* Values of the resolved scenarios that differ: every path of any file, once. */
    if (!d_game)
        for (size_t f = 0; f < n; f++)
            for (size_t i = 0; i < lv[f].n; i++) {
                const char *path = lv[f].v[i].path, *val[OM_CHART_MAX_SERIES];
                bool seen = false;
                for (size_t g = 0; g < f && !seen; g++)
                    seen = leaf_find(&lv[g], path, i) != NULL;
                if (seen)
                    continue;
                for (size_t k = 0; k < n; k++)
                    val[k] = leaf_find(&lv[k], path, i);
                if (!differs(val, n) || follows(path, val[f], d_units, d_rules))
                    continue;
                named = true;
                for (size_t k = 0; k < n; k++) {
                    const char *shown_path =
                        strncmp(path, "options.", 8) == 0 ? path + 8 : path;
                    if (shown[k] == LABEL_LEAVES_MAX) {
                        more[k]++;
                        continue;
                    }
                    label_part(spec->series[k], sizeof spec->series[k], "%s=%s", shown_path,
                               name_or(val[k], "(none)"));
                    shown[k]++;
                }
            }
    for (size_t k = 0; k < n; k++)
        if (more[k] > 0) {
            char part[64];
            snprintf(part, sizeof part, "+%zu more", more[k]);
            add_part(spec->series[k], sizeof spec->series[k], part);
        }
    /* Then, while nothing is named or two labels are still twins, the title, the
     * seed, the trials and the scenario file, each where it differs. */
    {
        const char *const *order[4] = {title, seed, trials, scen};
        for (int o = 0; o < 4; o++)
            if ((!named || twins(spec, n, NULL)) && differs(order[o], n)) {
                named = true;
                for (size_t k = 0; k < n; k++)
                    label_part(spec->series[k], sizeof spec->series[k], "%s",
                               name_or(order[o][k], "(unknown)"), NULL);
            }
    }
    /* Last the file's name, on every label that nothing else tells apart. */
    {
        bool twin[OM_CHART_MAX_SERIES];
        (void)twins(spec, n, twin);
        for (size_t k = 0; k < n; k++)
            if (twin[k])
                label_part(spec->series[k], sizeof spec->series[k], "%s",
                           base_name(rd[k].s->file), NULL);
    }
    /* Units common to every file name the outcomes. */
    if (!d_units) {
        snprintf(spec->outcome[0], sizeof spec->outcome[0], "%s (A) win",
                 name_or(rd[0].s->unit[0], "Side"));
        snprintf(spec->outcome[2], sizeof spec->outcome[2], "%s (B) win",
                 name_or(rd[0].s->unit[1], "Side"));
    }
    for (size_t k = 0; k < n; k++)
        leaves_free(&lv[k]);

    /* The subtitle: what every file shares. */
    spec->subtitle[0] = '\0';
    if (!d_units)
        add_part(spec->subtitle, sizeof spec->subtitle, units[0]);
    add_part(spec->subtitle, sizeof spec->subtitle,
             d_rules ? "rule sets differ (see the legend)" : rules[0]);
    add_part(spec->subtitle, sizeof spec->subtitle,
             d_kind ? "kinds differ (see the legend)" : kind[0]);
    add_part(spec->subtitle, sizeof spec->subtitle, "one bar per file, in the legend's order");
    if (warn != NULL && warn_size > 0 && (d_game || d_kind)) {
        char what[OM_CHART_TEXT_MAX] = "";
        for (size_t k = 0; k < n; k++) {
            const char *w = d_game ? name_or(game[k], "(unknown)") : name_or(kind[k], "(unknown)");
            bool dup = false;
            for (size_t j = 0; j < k && !dup; j++)
                dup = strcmp(d_game ? name_or(game[j], "(unknown)") : name_or(kind[j], "(unknown)"),
                             w) == 0;
            if (!dup)
                add_part(what, sizeof what, w);
        }
        snprintf(warn, warn_size, "these files mix %s (%s): their odds answer different "
                 "questions; each bar is labelled with its own", d_game ? "games" : "kinds",
                 what);
        snprintf(spec->note, sizeof spec->note, "Mixed %s: %s. Each series is labelled with its "
                 "own; compare with care.", d_game ? "games" : "kinds", what);
    }
}

/* Read the run files and build an odds, dist or flags spec. */
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
        return build_dist(&rd[0], opt->field != NULL ? opt->field
                                                     : om_chart_dist_default(rd[0].s), spec);
    if (opt->kind == OM_CHART_FLAGS)
        return build_flags(&rd[0], opt, spec);
    if (opt->kind == OM_CHART_POINTS)
        return build_points(&rd[0], spec);
    spec->n_series = n;
    for (size_t k = 0; k < n && st == OM_OK; k++)
        st = build_odds(&rd[k], k, n == 1, spec);
    if (st == OM_OK && n > 1) {
        snprintf(spec->title, sizeof spec->title, "Who wins? %zu matchups compared", n);
        series_footer(rd, n, spec);
        label_series(rd, n, spec, opt->notes, opt->notes_size);
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
    if ((unsigned)opt->kind >= OM_CHART_KINDS)
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
    else if (rows_kind(opt->kind))
        spec->height = OM_CHART_MIN_SIZE; /* checked again once its rows are known */
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
    if (opt->notes != NULL && opt->notes_size > 0)
        opt->notes[0] = '\0';
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
    if (st == OM_OK && rows_kind(opt->kind) && opt->height == 0) {
        const size_t rows = opt->kind == OM_CHART_FLAGS ? spec.n_items : spec.n_units;
        spec.height = om_chart_flags_height(spec.width, rows);
        if (spec.height > OM_CHART_MAX_SIZE)
            st = OM_ERROR(OM_EINVAL, "%s: %zu rows need a chart %u high, more than %u; %s",
                          in_paths[0], rows, spec.height, OM_CHART_MAX_SIZE,
                          opt->kind == OM_CHART_FLAGS ? "pick fewer with --field"
                                                      : "give --height");
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

om_status om_chart_picture_file(const om_picture *pic, const char *out_path, unsigned width)
{
    om_chart_format format;
    char *tmp = NULL, *bytes = NULL;
    size_t n = 0;
    FILE *f;
    om_status st;

    if ((st = om_chart_format_from_path(out_path, &format)) != OM_OK)
        return st;
    if (width < OM_CHART_MIN_SIZE || width > OM_CHART_MAX_SIZE)
        return OM_ERROR(OM_EINVAL, "a chart is %u to %u wide (got %u)", OM_CHART_MIN_SIZE,
                        OM_CHART_MAX_SIZE, width);
    if ((tmp = tmp_name(out_path)) == NULL || (f = open_memstream(&bytes, &n)) == NULL) {
        free(tmp);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", out_path);
    }
    st = om_chart_picture_render(pic, format, width, f);
    if (st != OM_OK) {
        char why[OM_ERROR_MSG_MAX];
        snprintf(why, sizeof why, "%s", om_error_message());
        st = OM_ERROR(st, "cannot write %s: %s", out_path, why);
    }
    if (fclose(f) != 0 && st == OM_OK)
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory", out_path);
    if (st == OM_OK)
        st = save(tmp, out_path, bytes, n);
    if (st == OM_OK && rename(tmp, out_path) != 0)
        st = cannot_write(out_path, errno);
    if (st != OM_OK)
        remove(tmp);
    free(bytes);
    free(tmp);
    return st;
}
