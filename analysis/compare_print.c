/*
 * compare_print.c: the printed forms of a comparison of two result files
 * (compare.h): a text report, CSV, JSON and Markdown. Each difference is
 * printed with its interval and the interval's kind, and the header says
 * what the files are, what differs between them and why the intervals are
 * paired or not.
 */
#include "compare.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "csv.h"
#include "manifest.h"
#include "output.h"

/* Width of the measure column of the text report (longer labels widen it). */
#define LABEL_MIN 18

/* Whether the rows of a section hold fair points (one decimal, not four). */
static bool is_points(const om_compare_row *r)
{
    return strncmp(r->key, "fair/", 5) == 0;
}

/* A value for people: 4 decimals, 1 for points, "-" undefined. */
static void fmt_value(char *buf, size_t size, double v, bool points)
{
    if (!isfinite(v))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, points ? "%.1f" : "%.4f", v);
}

/* A signed value for people. */
static void fmt_signed(char *buf, size_t size, double v, bool points)
{
    if (!isfinite(v))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, points ? "%+.1f" : "%+.4f", v);
}

/* The interval of a row's difference, "[lo, hi]" or "-". */
static void fmt_interval(char *buf, size_t size, const om_compare_row *r)
{
    char lo[32], hi[32];
    if (!isfinite(r->lo) || !isfinite(r->hi)) {
        snprintf(buf, size, "-");
        return;
    }
    fmt_signed(lo, sizeof lo, r->lo, is_points(r));
    fmt_signed(hi, sizeof hi, r->hi, is_points(r));
    snprintf(buf, size, "[%s, %s]", lo, hi);
}

/* How many of a paired row's trials differ between the files, or "-". */
static void fmt_differing(char *buf, size_t size, const om_compare_row *r)
{
    char n[OM_MANIFEST_COUNT_MAX];
    if (r->method != OM_COMPARE_PAIRED) {
        snprintf(buf, size, "-");
        return;
    }
    om_manifest_count(r->only_a + r->only_b, n);
    snprintf(buf, size, "%s", n);
}

/* The text of the confidence, "95%". */
static void fmt_confidence(char *buf, size_t size, double confidence)
{
    snprintf(buf, size, "%g%%", confidence * 100.0);
}

/* One file's line for people: its title, rule set, kind, seed, trials and
 * options. */
static void file_line(const om_compare *c, int f, char *buf, size_t size)
{
    const om_compare_file *x = &c->file[f];
    char n[OM_MANIFEST_COUNT_MAX];
    om_manifest_count(x->trials, n);
    snprintf(buf, size, "%s; %s%s%s; seed %llu; %s trials%s%s%s", x->title, x->ruleset,
             x->kind[0] ? ", " : "", x->kind, (unsigned long long)x->seed, n,
             c->kind == OM_COMPARE_MATRICES ? "; options: " : "",
             c->kind == OM_COMPARE_MATRICES ? (x->options[0] ? x->options : "(defaults)") : "",
             x->rows ? "" : "; no per-trial rows");
}

/* The widest label of the section beginning at row i, and where it ends. */
static size_t section_end(const om_compare *c, size_t i, size_t *width)
{
    size_t j = i;
    *width = LABEL_MIN;
    while (j < c->n_rows && strcmp(c->rows[j].section, c->rows[i].section) == 0) {
        size_t len = strlen(c->rows[j].label);
        *width = len > *width ? len : *width;
        j++;
    }
    return j;
}

static void print_text(const om_compare *c, FILE *out)
{
    char line[1024], conf[16];
    fmt_confidence(conf, sizeof conf, c->confidence);
    fprintf(out, "Comparison of two %s: B - A\n",
            c->kind == OM_COMPARE_RUNS ? "runs" : "matrices");
    for (int f = 0; f < 2; f++) {
        file_line(c, f, line, sizeof line);
        fprintf(out, "  %c: %s\n     %s\n", f == 0 ? 'A' : 'B', c->file[f].path, line);
    }
    fprintf(out, "  differences: %s\n", c->differences[0] ? c->differences
                                                          : "none in what the files record");
    fprintf(out, "  intervals:   %s of B - A; %s\n", conf, c->pairing);
    if (c->kind == OM_COMPARE_MATRICES)
        fprintf(out, "  fair points: efficiency's defaults (every situation, the whole field); "
                "their differences' intervals are %s bootstrap of %u replicates (seed %llu) "
                "over the cells' trials\n", c->paired ? "a paired" : "an independent", c->replicates,
                (unsigned long long)c->boot_seed);
    for (size_t i = 0; i < c->n_rows;) {
        size_t width, end = section_end(c, i, &width);
        fprintf(out, "\n%s\n  %-*s %-9s %-9s %-9s %-22s %-21s %s\n", c->rows[i].section,
                (int)width, "measure", "A", "B", "B - A", "interval", "kind", "differing");
        for (; i < end; i++) {
            const om_compare_row *r = &c->rows[i];
            const bool pts = is_points(r);
            char a[32], b[32], d[32], iv[80], n[32];
            fmt_value(a, sizeof a, r->a, pts);
            fmt_value(b, sizeof b, r->b, pts);
            fmt_signed(d, sizeof d, r->diff, pts);
            fmt_interval(iv, sizeof iv, r);
            fmt_differing(n, sizeof n, r);
            fprintf(out, "  %-*s %-9s %-9s %-9s %-22s %-21s %s", (int)width, r->label, a, b, d,
                    iv, om_compare_method_name(r->method), n);
            if (r->note != NULL)
                fprintf(out, "  (%s)", r->note);
            fputc('\n', out);
        }
    }
    fprintf(out, "\n\"differing\": the trials in which the event happened in one file's trial "
            "and not in the other's (paired rows).\n");
}

static void print_markdown(const om_compare *c, FILE *out)
{
    char line[1024], conf[16];
    fmt_confidence(conf, sizeof conf, c->confidence);
    fprintf(out, "## Comparison of two %s: B - A\n\n",
            c->kind == OM_COMPARE_RUNS ? "runs" : "matrices");
    for (int f = 0; f < 2; f++) {
        file_line(c, f, line, sizeof line);
        fprintf(out, "- **%c**: `%s`: %s\n", f == 0 ? 'A' : 'B', c->file[f].path, line);
    }
    fprintf(out, "- **differences**: %s\n", c->differences[0] ? c->differences
                                                           : "none in what the files record");
    fprintf(out, "- **intervals**: %s of B - A; %s\n", conf, c->pairing);
    for (size_t i = 0; i < c->n_rows;) {
        size_t width, end = section_end(c, i, &width);
        fprintf(out, "\n### %s\n\n| measure | A | B | B - A | %s interval | kind | differing |\n"
                "|---|---:|---:|---:|---|---|---:|\n", c->rows[i].section, conf);
        for (; i < end; i++) {
            const om_compare_row *r = &c->rows[i];
            const bool pts = is_points(r);
            char a[32], b[32], d[32], iv[80], n[32];
            fmt_value(a, sizeof a, r->a, pts);
            fmt_value(b, sizeof b, r->b, pts);
            fmt_signed(d, sizeof d, r->diff, pts);
            fmt_interval(iv, sizeof iv, r);
            fmt_differing(n, sizeof n, r);
            fprintf(out, "| %s%s%s%s | %s | %s | %s | %s | %s | %s |\n", r->label,
                    r->note ? " (" : "", r->note ? r->note : "", r->note ? ")" : "", a, b, d, iv,
                    om_compare_method_name(r->method), n);
        }
    }
}

/* ",N" for a count, "," when the row's interval is not paired. */
static void csv_count(FILE *out, uint64_t v, bool defined)
{
    if (defined)
        fprintf(out, ",%llu", (unsigned long long)v);
    else
        fputc(',', out);
}

static void print_csv(const om_compare *c, FILE *out)
{
    fprintf(out, "section,measure,key,a,b,diff,lo,hi,interval,n_a,n_b,only_a,only_b,a_lo,a_hi,"
                 "b_lo,b_hi,note\n");
    for (size_t i = 0; i < c->n_rows; i++) {
        const om_compare_row *r = &c->rows[i];
        const bool paired = r->method == OM_COMPARE_PAIRED;
        om_csv_string(out, r->section);
        fputc(',', out);
        om_csv_string(out, r->label);
        fputc(',', out);
        om_csv_string(out, r->key);
        om_csv_real(out, r->a);
        om_csv_real(out, r->b);
        om_csv_real(out, r->diff);
        om_csv_real(out, r->lo);
        om_csv_real(out, r->hi);
        fputc(',', out);
        om_csv_string(out, om_compare_method_name(r->method));
        fprintf(out, ",%llu,%llu", (unsigned long long)r->n_a, (unsigned long long)r->n_b);
        csv_count(out, r->only_a, paired);
        csv_count(out, r->only_b, paired);
        om_csv_real(out, r->a_lo);
        om_csv_real(out, r->a_hi);
        om_csv_real(out, r->b_lo);
        om_csv_real(out, r->b_hi);
        fputc(',', out);
        om_csv_string(out, r->note);
        fputc('\n', out);
    }
}

/* A real, or null where undefined. */
static json_t *json_real_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* Set key of object o to v (which it takes); false when out of memory. */
static bool put(json_t *o, const char *key, json_t *v)
{
    return v != NULL && json_object_set_new(o, key, v) == 0;
}

static json_t *file_json(const om_compare_file *x)
{
    json_t *o = json_object();
    if (o == NULL || !put(o, "path", json_string(x->path)) ||
        !put(o, "game", json_string(x->game)) || !put(o, "ruleset", json_string(x->ruleset)) ||
        !put(o, "kind", json_string(x->kind)) || !put(o, "title", json_string(x->title)) ||
        !put(o, "program_version", json_string(x->program_version)) ||
        !put(o, "rng", json_string(x->rng)) || !put(o, "options", json_string(x->options)) ||
        !put(o, "seed", om_output_json_u64(x->seed)) ||
        !put(o, "trials", om_output_json_u64(x->trials)) ||
        !put(o, "trials_per_cell", om_output_json_u64(x->trials_per_cell)) ||
        !put(o, "rows", json_boolean(x->rows))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *row_json(const om_compare_row *r)
{
    const bool paired = r->method == OM_COMPARE_PAIRED;
    const bool boot = r->method == OM_COMPARE_PAIRED_BOOTSTRAP ||
                      r->method == OM_COMPARE_INDEPENDENT_BOOTSTRAP;
    json_t *o = json_object();
    if (o == NULL || !put(o, "section", json_string(r->section)) ||
        !put(o, "measure", json_string(r->label)) || !put(o, "key", json_string(r->key)) ||
        !put(o, "a", json_real_or_null(r->a)) || !put(o, "b", json_real_or_null(r->b)) ||
        !put(o, "diff", json_real_or_null(r->diff)) || !put(o, "lo", json_real_or_null(r->lo)) ||
        !put(o, "hi", json_real_or_null(r->hi)) ||
        !put(o, "interval", json_string(om_compare_method_name(r->method))) ||
        !put(o, "n_a", om_output_json_u64(r->n_a)) || !put(o, "n_b", om_output_json_u64(r->n_b)) ||
        !put(o, "only_a", paired ? om_output_json_u64(r->only_a) : json_null()) ||
        !put(o, "only_b", paired ? om_output_json_u64(r->only_b) : json_null()) ||
        !put(o, "replicates", boot ? json_integer(r->replicates) : json_null()) ||
        !put(o, "a_lo", json_real_or_null(r->a_lo)) || !put(o, "a_hi", json_real_or_null(r->a_hi)) ||
        !put(o, "b_lo", json_real_or_null(r->b_lo)) || !put(o, "b_hi", json_real_or_null(r->b_hi)) ||
        !put(o, "note", r->note ? json_string(r->note) : json_null())) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static om_status print_json(const om_compare *c, FILE *out)
{
    json_t *o = json_object(), *files = json_array(), *rows = json_array();
    json_t *boot = c->kind == OM_COMPARE_MATRICES ? json_object() : json_null();
    /* The arrays and the bootstrap belong to o once put (put takes them, even
     * when it fails); they are filled through the pointers kept. */
    bool ok = o != NULL && put(o, "schema", json_string(OM_COMPARE_SCHEMA)) &&
              put(o, "kind", json_string(c->kind == OM_COMPARE_RUNS ? "runs" : "matrices")) &&
              put(o, "files", files) && put(o, "confidence", json_real(c->confidence)) &&
              put(o, "paired", json_boolean(c->paired)) &&
              put(o, "pairing", json_string(c->pairing)) &&
              put(o, "differences", json_string(c->differences)) && put(o, "bootstrap", boot) &&
              put(o, "rows", rows);
    if (ok && c->kind == OM_COMPARE_MATRICES)
        ok = put(boot, "replicates", json_integer(c->replicates)) &&
             put(boot, "seed", om_output_json_u64(c->boot_seed));
    for (int f = 0; f < 2 && ok; f++)
        ok = json_array_append_new(files, file_json(&c->file[f])) == 0;
    for (size_t i = 0; i < c->n_rows && ok; i++)
        ok = json_array_append_new(rows, row_json(&c->rows[i])) == 0;
    /* What a failure left out of o is still the caller's to free. */
    if (o == NULL || json_object_get(o, "files") != files)
        json_decref(files);
    if (o == NULL || json_object_get(o, "rows") != rows)
        json_decref(rows);
    if (o == NULL || json_object_get(o, "bootstrap") != boot)
        json_decref(boot);
    if (!ok || json_dumpf(o, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15)) != 0) {
        json_decref(o);
        return ok ? OM_ERROR(OM_EIO, "cannot write the comparison")
                  : OM_ERROR(OM_ENOMEM, "out of memory writing the comparison");
    }
    fputc('\n', out);
    json_decref(o);
    return OM_OK;
}

om_status om_compare_print(const om_compare *c, om_compare_format format, FILE *out)
{
    om_status st = OM_OK;
    switch (format) {
    case OM_COMPARE_TEXT: print_text(c, out); break;
    case OM_COMPARE_CSV: print_csv(c, out); break;
    case OM_COMPARE_JSON: st = print_json(c, out); break;
    case OM_COMPARE_MARKDOWN: print_markdown(c, out); break;
    }
    return st == OM_OK ? om_output_finish(out, "comparison") : st;
}
