/*
 * compare.c: two result files side by side (compare.h): the files read and
 * checked to be comparable, whether their trials pair, every probability of
 * two runs or every cell's P(row wins) and unit's fair points of two
 * matrices, with the interval of each difference (paired from the per-trial
 * differences, or independent), and the bootstrap of the fair points. The
 * printed forms are in compare_print.c; every number is defined in compare.h.
 */
#include "compare.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "efficiency.h"
#include "h5file.h"
#include "h5matrix.h"
#include "layout.h"
#include "rng.h"
#include "stats.h"
#include "tally.h"

/* Rows of each file read at a time when pairing two runs' trials (64 KiB of
 * one-byte values). */
#define PAIR_CHUNK 65536u

/* Most differences of provenance a comparison names before "and N more". */
#define DIFFERENCES_MAX 8

/* Longest JSON value quoted in a difference of provenance. */
#define QUOTE_MAX 60

/* The winner codes as the measures of a winner field, in report order. */
static const struct {
    uint8_t code;       /* OM_WINNER_* */
    const char *label;  /* the measure */
    const char *key;    /* its key */
} outcomes[OM_WINNER_CODES] = {
    {OM_WINNER_A, "P(A wins)", "a"},
    {OM_WINNER_DRAW, "P(draw)", "draw"},
    {OM_WINNER_B, "P(B wins)", "b"},
    {OM_WINNER_NONE, "P(no result)", "none"},
};

/* ------------------------------------------------------------ text helpers */

/* Append printf output to the string *buf (NULL: empty), growing it. */
static om_status appendf(char **buf, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static om_status appendf(char **buf, const char *fmt, ...)
{
    va_list ap;
    size_t len = *buf ? strlen(*buf) : 0;
    int n;
    char *grown;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || (grown = realloc(*buf, len + (size_t)n + 1)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory");
    va_start(ap, fmt);
    vsnprintf(grown + len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    *buf = grown;
    return OM_OK;
}

/* A copy of s ("" for NULL) into *out. */
static om_status dup_text(const char *s, char **out)
{
    *out = strdup(s != NULL ? s : "");
    return *out != NULL ? OM_OK : OM_ERROR(OM_ENOMEM, "out of memory");
}

/* -------------------------------------------------------------- statistics */

/* The two-sided normal quantile of a confidence. */
static double z_of(double confidence)
{
    return gsl_cdf_ugaussian_Pinv(1.0 - (1.0 - confidence) / 2.0);
}

static bool confidence_ok(double confidence)
{
    return confidence > 0.0 && confidence < 1.0;
}

om_status om_compare_paired_interval(uint64_t n, uint64_t only_a, uint64_t only_b,
                                     double confidence, double *diff, double *lo, double *hi)
{
    if (only_a > n || only_b > n - only_a || !confidence_ok(confidence))
        return OM_ERROR(OM_EINVAL, "a paired difference of %llu and %llu discordant pairs out of "
                        "%llu at confidence %g", (unsigned long long)only_a,
                        (unsigned long long)only_b, (unsigned long long)n, confidence);
    *diff = n > 0 ? ((double)only_b - (double)only_a) / (double)n : NAN;
    *lo = *hi = NAN;
    if (n < 2)
        return OM_OK;
    /* d_t is -1, 0 or 1, so sum d^2 = only_a + only_b; the variance of the
     * d_t about their mean, with n - 1 degrees of freedom, never below 0. */
    double ss = (double)(only_a + only_b) - (double)n * *diff * *diff;
    double se = sqrt((ss > 0.0 ? ss : 0.0) / (double)(n - 1) / (double)n);
    double half = z_of(confidence) * se;
    *lo = fmax(*diff - half, -1.0);
    *hi = fmin(*diff + half, 1.0);
    return OM_OK;
}

om_status om_compare_newcombe(uint64_t x_a, uint64_t n_a, uint64_t x_b, uint64_t n_b,
                              double confidence, double *lo, double *hi)
{
    double la, ua, lb, ub, pa, pb, d;
    om_status st;
    if (x_a > n_a || x_b > n_b || !confidence_ok(confidence))
        return OM_ERROR(OM_EINVAL, "Newcombe's interval of %llu/%llu and %llu/%llu at "
                        "confidence %g", (unsigned long long)x_a, (unsigned long long)n_a,
                        (unsigned long long)x_b, (unsigned long long)n_b, confidence);
    *lo = *hi = NAN;
    if (n_a == 0 || n_b == 0)
        return OM_OK;
    if ((st = om_stats_wilson(x_a, n_a, confidence, &la, &ua)) != OM_OK ||
        (st = om_stats_wilson(x_b, n_b, confidence, &lb, &ub)) != OM_OK)
        return st;
    pa = (double)x_a / (double)n_a;
    pb = (double)x_b / (double)n_b;
    d = pb - pa;
    *lo = d - sqrt((pb - lb) * (pb - lb) + (ua - pa) * (ua - pa));
    *hi = d + sqrt((ub - pb) * (ub - pb) + (pa - la) * (pa - la));
    return OM_OK;
}

const char *om_compare_method_name(om_compare_method m)
{
    switch (m) {
    case OM_COMPARE_PAIRED: return "paired";
    case OM_COMPARE_INDEPENDENT: return "independent";
    case OM_COMPARE_PAIRED_BOOTSTRAP: return "paired bootstrap";
    case OM_COMPARE_INDEPENDENT_BOOTSTRAP: return "independent bootstrap";
    case OM_COMPARE_NO_INTERVAL: return "none";
    }
    return "?";
}

/* ------------------------------------------------------------------ rows */

void om_compare_free(om_compare *c)
{
    if (c == NULL)
        return;
    for (int f = 0; f < 2; f++) {
        om_compare_file *x = &c->file[f];
        free(x->path);
        free(x->game);
        free(x->ruleset);
        free(x->kind);
        free(x->title);
        free(x->program_version);
        free(x->rng);
        free(x->options);
    }
    for (size_t i = 0; i < c->n_rows; i++) {
        free(c->rows[i].section);
        free(c->rows[i].label);
        free(c->rows[i].key);
        free(c->rows[i].note);
    }
    free(c->rows);
    free(c->pairing);
    free(c->differences);
    free(c);
}

/* The comparison being built, and the room for its rows. */
typedef struct builder {
    om_compare *c;     /* the comparison */
    size_t cap;        /* rows allocated */
    bool independent;  /* take pairs as independent samples (om_compare_options) */
} builder;

/* A new row of `section`, `label` and `key`, every number undefined, into
 * *out. */
static om_status row_add(builder *b, const char *section, const char *label, const char *key,
                         om_compare_row **out)
{
    om_compare *c = b->c;
    om_compare_row *r;
    if (c->n_rows == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        om_compare_row *grown = realloc(c->rows, cap * sizeof *grown);
        if (grown == NULL)
            return OM_ERROR(OM_ENOMEM, "out of memory");
        c->rows = grown;
        b->cap = cap;
    }
    r = &c->rows[c->n_rows];
    *r = (om_compare_row){.a = NAN, .b = NAN, .a_lo = NAN, .a_hi = NAN, .b_lo = NAN,
                          .b_hi = NAN, .diff = NAN, .lo = NAN, .hi = NAN,
                          .method = OM_COMPARE_NO_INTERVAL};
    if ((r->section = strdup(section)) == NULL || (r->label = strdup(label)) == NULL ||
        (r->key = strdup(key)) == NULL) {
        free(r->section);
        free(r->label);
        return OM_ERROR(OM_ENOMEM, "out of memory");
    }
    c->n_rows++;
    *out = r;
    return OM_OK;
}

/* A row of a probability: x_a of n_a trials in A, x_b of n_b in B, with
 * each file's Wilson interval and the interval of the difference, paired
 * (only_a, only_b of n_a = n_b pairs) or independent. */
static om_status prob_row(builder *b, const char *section, const char *label, const char *key,
                          uint64_t x_a, uint64_t n_a, uint64_t x_b, uint64_t n_b, bool paired,
                          uint64_t only_a, uint64_t only_b, om_compare_row **out)
{
    const double conf = b->c->confidence;
    om_compare_row *r;
    om_status st = row_add(b, section, label, key, &r);
    if (st != OM_OK)
        return st;
    r->n_a = n_a;
    r->n_b = n_b;
    if (n_a > 0) {
        r->a = (double)x_a / (double)n_a;
        if ((st = om_stats_wilson(x_a, n_a, conf, &r->a_lo, &r->a_hi)) != OM_OK)
            return st;
    }
    if (n_b > 0) {
        r->b = (double)x_b / (double)n_b;
        if ((st = om_stats_wilson(x_b, n_b, conf, &r->b_lo, &r->b_hi)) != OM_OK)
            return st;
    }
    r->diff = r->b - r->a;
    if (paired) {
        /* The mean of the per-trial differences is b - a itself; the value
         * shown is the one the independent form shows, to the last bit. */
        double mean;
        r->only_a = only_a;
        r->only_b = only_b;
        st = om_compare_paired_interval(n_a, only_a, only_b, conf, &mean, &r->lo, &r->hi);
        r->method = OM_COMPARE_PAIRED;
    } else {
        st = om_compare_newcombe(x_a, n_a, x_b, n_b, conf, &r->lo, &r->hi);
        r->method = OM_COMPARE_INDEPENDENT;
    }
    if (st == OM_OK && isnan(r->lo))
        r->method = OM_COMPARE_NO_INTERVAL;
    if (out != NULL)
        *out = r;
    return st;
}

/* ------------------------------------------------------------ provenance */

/* A JSON value quoted in a difference: compact, cut at QUOTE_MAX bytes. */
static void quote_json(const json_t *v, char *buf, size_t size)
{
    char *text = v != NULL ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    if (text == NULL) {
        snprintf(buf, size, "(absent)");
        return;
    }
    if (strlen(text) > QUOTE_MAX)
        snprintf(buf, size, "%.*s...", QUOTE_MAX, text);
    else
        snprintf(buf, size, "%s", text);
    free(text);
}

/* What differs between two lists of differences being made. */
typedef struct diff_list {
    char *text;   /* "; "-separated (NULL: none yet) */
    size_t n;     /* differences found */
} diff_list;

/* Add a difference "WHAT: A -> B" (only the first DIFFERENCES_MAX are written). */
static om_status diff_add(diff_list *d, const char *what, const char *a, const char *b)
{
    d->n++;
    if (d->n > DIFFERENCES_MAX)
        return OM_OK;
    return appendf(&d->text, "%s%s: %s -> %s", d->text ? "; " : "", what, a, b);
}

/* The leaves in which two JSON documents differ, by path ("options.max_turns"). */
static om_status diff_json(diff_list *d, const char *path, const json_t *a, const json_t *b)
{
    char qa[QUOTE_MAX + 8], qb[QUOTE_MAX + 8], sub[256];
    om_status st = OM_OK;
    if (a != NULL && b != NULL && json_is_object(a) && json_is_object(b)) {
        const char *key;
        json_t *va;
        json_object_foreach((json_t *)a, key, va) {
            snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", key);
            if ((st = diff_json(d, sub, va, json_object_get(b, key))) != OM_OK)
                return st;
        }
        json_object_foreach((json_t *)b, key, va) {
            snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", key);
            if (json_object_get(a, key) == NULL && (st = diff_json(d, sub, NULL, va)) != OM_OK)
                return st;
        }
        return OM_OK;
    }
    if (a != NULL && b != NULL && json_equal((json_t *)a, (json_t *)b))
        return OM_OK;
    quote_json(a, qa, sizeof qa);
    quote_json(b, qb, sizeof qb);
    return diff_add(d, path, qa, qb);
}

/* A difference of two strings, if they differ. */
static om_status diff_text(diff_list *d, const char *what, const char *a, const char *b)
{
    if (strcmp(a, b) == 0)
        return OM_OK;
    return diff_add(d, what, a[0] ? a : "(none)", b[0] ? b : "(none)");
}

/* A difference of two counts, if they differ. */
static om_status diff_u64(diff_list *d, const char *what, uint64_t a, uint64_t b)
{
    char ta[32], tb[32];
    if (a == b)
        return OM_OK;
    snprintf(ta, sizeof ta, "%llu", (unsigned long long)a);
    snprintf(tb, sizeof tb, "%llu", (unsigned long long)b);
    return diff_add(d, what, ta, tb);
}

/* Close a list of differences into c->differences. */
static om_status diff_finish(om_compare *c, diff_list *d)
{
    om_status st = OM_OK;
    if (d->n > DIFFERENCES_MAX)
        st = appendf(&d->text, "; and %zu more", d->n - DIFFERENCES_MAX);
    if (st == OM_OK && d->text == NULL)
        st = dup_text("", &d->text);
    c->differences = d->text;
    d->text = NULL;
    return st;
}

/* The pairing sentence of trials that pair, from their stream scheme; taken
 * apart when the caller asks for independent samples. */
static om_status pairing_paired(builder *b, const char *what)
{
    om_compare *c = b->c;
    const om_compare_file *a = &c->file[0];
    const bool per_trial = strstr(a->rng, "trial t seeded") != NULL;
    if (b->independent)
        return appendf(&c->pairing, "independent, as asked: the files keep every %s of the "
                       "same seed, trials and streams, but are taken as two separate samples",
                       what);
    c->paired = true;
    return appendf(&c->pairing, "paired: both files keep every %s, of seed %llu and the same "
                   "trials and streams (%s)%s", what, (unsigned long long)a->seed,
                   per_trial ? "one a trial" : "one a block",
                   per_trial ? "" : "; a change that alters how many dice a trial rolls "
                                    "unpairs the later trials of its block (give both runs "
                                    "--trial-streams for the tightest intervals)");
}

/* --------------------------------------------------------------- two runs */

/* The string attribute `name` of a run file ("" if absent). */
static om_status run_attr(om_h5_reader *r, const char *name, char **out)
{
    om_status st = om_h5_reader_attr_string(r, name, out);
    if (st == OM_ENOTFOUND) {
        om_error_clear();
        return dup_text("", out);
    }
    return st;
}

/* What a run file is. */
static om_status run_info(om_h5_reader *r, om_compare_file *f, uint64_t *block_size)
{
    om_status st;
    f->trials = om_h5_reader_trials(r);
    f->rows = om_h5_reader_has_rows(r);
    if ((st = run_attr(r, "game", &f->game)) != OM_OK ||
        (st = run_attr(r, "ruleset", &f->ruleset)) != OM_OK ||
        (st = run_attr(r, "kind", &f->kind)) != OM_OK ||
        (st = run_attr(r, "title", &f->title)) != OM_OK ||
        (st = run_attr(r, "program_version", &f->program_version)) != OM_OK ||
        (st = run_attr(r, "rng", &f->rng)) != OM_OK ||
        (st = dup_text("", &f->options)) != OM_OK ||
        (st = om_h5_reader_attr_u64(r, "seed", &f->seed)) != OM_OK)
        return st;
    return om_h5_reader_attr_u64(r, "block_size", block_size);
}

/* Two runs of one game, kind, pair of units and fields, or why not. */
static om_status runs_comparable(om_compare *c, om_h5_reader *ra, om_h5_reader *rb)
{
    const char *pa = c->file[0].path, *pb = c->file[1].path;
    char *unit[2][2] = {{NULL, NULL}, {NULL, NULL}};
    om_status st = OM_OK;
    size_t n = om_h5_reader_field_count(ra);
    if (strcmp(c->file[0].game, c->file[1].game) != 0)
        return OM_ERROR(OM_EINVAL, "%s is a run of %s and %s of %s: compare two runs of one "
                        "game", pa, c->file[0].game, pb, c->file[1].game);
    if (strcmp(c->file[0].kind, c->file[1].kind) != 0)
        return OM_ERROR(OM_EINVAL, "%s is a run of kind %s and %s of kind %s: compare two runs "
                        "of one kind", pa, c->file[0].kind, pb, c->file[1].kind);
    for (int f = 0; f < 2 && st == OM_OK; f++)
        if ((st = run_attr(f == 0 ? ra : rb, "unit_a", &unit[f][0])) == OM_OK)
            st = run_attr(f == 0 ? ra : rb, "unit_b", &unit[f][1]);
    for (int s = 0; s < 2 && st == OM_OK; s++)
        if (strcmp(unit[0][s], unit[1][s]) != 0)
            st = OM_ERROR(OM_EINVAL, "%s and %s have different units on side %c (%s, %s): "
                          "compare two runs of the same units", pa, pb, s == 0 ? 'A' : 'B',
                          unit[0][s], unit[1][s]);
    for (int f = 0; f < 2; f++) {
        free(unit[f][0]);
        free(unit[f][1]);
    }
    if (st != OM_OK)
        return st;
    if (om_h5_reader_field_count(rb) != n)
        return OM_ERROR(OM_EINVAL, "%s has %zu fields and %s %zu: compare two runs of one "
                        "layout", pa, n, pb, om_h5_reader_field_count(rb));
    for (size_t i = 0; i < n; i++) {
        const om_field *fa = om_h5_reader_field(ra, i), *fb = om_h5_reader_field(rb, i);
        if (strcmp(fa->name, fb->name) != 0 || fa->type != fb->type)
            return OM_ERROR(OM_EINVAL, "field %zu of %s is %s and of %s %s: compare two runs "
                            "of one layout", i, pa, fa->name, pb, fb->name);
    }
    return OM_OK;
}

/* Whether two runs' trials pair, with the sentence that says so. */
static om_status runs_pairing(builder *bl, uint64_t block_a, uint64_t block_b)
{
    om_compare *c = bl->c;
    const om_compare_file *a = &c->file[0], *b = &c->file[1];
    if (!a->rows || !b->rows)
        return appendf(&c->pairing, "independent: %s keeps no per-trial rows (a run with "
                       "--no-rows), so its trials cannot be paired",
                       !a->rows ? a->path : b->path);
    if (a->seed != b->seed)
        return appendf(&c->pairing, "independent: the seeds differ (%llu, %llu), so the files' "
                       "trials drew different dice", (unsigned long long)a->seed,
                       (unsigned long long)b->seed);
    if (a->trials != b->trials)
        return appendf(&c->pairing, "independent: the files hold different numbers of trials "
                       "(%llu, %llu)", (unsigned long long)a->trials,
                       (unsigned long long)b->trials);
    if (strcmp(a->rng, b->rng) != 0 || block_a != block_b)
        return appendf(&c->pairing, "independent: the files drew their dice from different "
                       "streams ('%s', '%s')", a->rng, b->rng);
    return pairing_paired(bl, "trial");
}

/* The discordant pairs of one field of two runs: for every threshold k,
 * only_a[k] trials with A's value >= k > B's, only_b[k] the other way; for a
 * winner field, the joint counts of the codes. */
typedef struct field_pairs {
    uint64_t *only_a, *only_b;                      /* [bins + 1] */
    uint64_t joint[OM_WINNER_CODES][OM_WINNER_CODES]; /* winner: [A's code][B's code] */
} field_pairs;

/* Count the pairs of values of field f of two runs, reading both a chunk at
 * a time: a pair with a > b adds one to only_a[k] for b < k <= a, which a
 * difference array over k holds in two additions. */
static om_status pair_field(om_h5_reader *ra, om_h5_reader *rb, const om_field *f, size_t bins,
                            field_pairs *fp)
{
    const bool wide = f->type == OM_FIELD_COUNT16;
    const uint64_t n = om_h5_reader_trials(ra);
    uint16_t *va = malloc(PAIR_CHUNK * sizeof *va), *vb = malloc(PAIR_CHUNK * sizeof *vb);
    uint8_t *ba = malloc(PAIR_CHUNK), *bb = malloc(PAIR_CHUNK);
    om_status st = OM_OK;
    if (va == NULL || vb == NULL || ba == NULL || bb == NULL)
        st = OM_ERROR(OM_ENOMEM, "out of memory");
    for (uint64_t first = 0; st == OM_OK && first < n;) {
        size_t m = n - first < PAIR_CHUNK ? (size_t)(n - first) : PAIR_CHUNK;
        if (wide) {
            if ((st = om_h5_reader_read16(ra, f->name, first, m, va)) == OM_OK)
                st = om_h5_reader_read16(rb, f->name, first, m, vb);
        } else if ((st = om_h5_reader_read(ra, f->name, first, m, ba)) == OM_OK &&
                   (st = om_h5_reader_read(rb, f->name, first, m, bb)) == OM_OK) {
            for (size_t i = 0; i < m; i++) {
                va[i] = ba[i];
                vb[i] = bb[i];
            }
        }
        for (size_t i = 0; st == OM_OK && i < m; i++) {
            const uint16_t x = va[i], y = vb[i];
            if (f->type == OM_FIELD_WINNER) {
                if (x >= OM_WINNER_CODES || y >= OM_WINNER_CODES)
                    st = OM_ERROR(OM_EHDF5, "%s or %s: /trials/%s row %llu is no winner code",
                                  om_h5_reader_path(ra), om_h5_reader_path(rb), f->name,
                                  (unsigned long long)(first + i));
                else
                    fp->joint[x][y]++;
            } else if (x > y) {
                fp->only_a[y + 1]++;
                fp->only_a[x + 1]--;
            } else if (y > x) {
                fp->only_b[x + 1]++;
                fp->only_b[y + 1]--;
            }
        }
        first += m;
    }
    /* The difference arrays' prefix sums: only_a[k] = #(a >= k > b). */
    for (size_t k = 1; st == OM_OK && k <= bins; k++) {
        fp->only_a[k] += fp->only_a[k - 1];
        fp->only_b[k] += fp->only_b[k - 1];
    }
    free(va);
    free(vb);
    free(ba);
    free(bb);
    return st;
}

/* The histogram of field i of a run's tally (bins values), or NULL. */
static const uint64_t *tally_hist(const om_tally *t, size_t i, const om_field *f)
{
    return f->type == OM_FIELD_COUNT16 ? om_tally_wide(t, i) : t->hist[i];
}

/* The rows of field i (f) of two runs from their tallies ta, tb and, paired,
 * the field's pairs. */
static om_status field_rows(builder *b, size_t i, const om_field *f, const om_tally *ta,
                            const om_tally *tb, const field_pairs *fp)
{
    const om_compare *c = b->c;
    const bool paired = c->paired;
    const uint64_t na = ta->trials, nb = tb->trials;
    const size_t bins = f->type == OM_FIELD_COUNT16 ? OM_TALLY_WIDE_BINS : OM_TALLY_BINS;
    const uint64_t *ha = tally_hist(ta, i, f), *hb = tally_hist(tb, i, f);
    char label[128], key[160];
    om_status st = OM_OK;

    if (ha == NULL || hb == NULL)
        return OM_ERROR(OM_EHDF5, "%s or %s: no tally of the field %s", c->file[0].path,
                        c->file[1].path, f->name);
    if (f->type == OM_FIELD_WINNER) {
        const char *section = f->title != NULL && f->title[0] ? f->title : f->name;
        for (size_t k = 0; k < OM_WINNER_CODES && st == OM_OK; k++) {
            const uint8_t v = outcomes[k].code;
            uint64_t only_a = 0, only_b = 0;
            if (v == OM_WINNER_NONE && ha[v] == 0 && hb[v] == 0)
                continue;
            for (uint8_t w = 0; paired && w < OM_WINNER_CODES; w++)
                if (w != v) {
                    only_a += fp->joint[v][w];
                    only_b += fp->joint[w][v];
                }
            snprintf(key, sizeof key, "%s/%s", f->name, outcomes[k].key);
            st = prob_row(b, section, outcomes[k].label, key, ha[v], na, hb[v], nb, paired,
                          only_a, only_b, NULL);
        }
        return st;
    }
    if (f->type == OM_FIELD_FLAG) {
        snprintf(label, sizeof label, "P(%s)", f->name);
        snprintf(key, sizeof key, "%s/ge/1", f->name);
        return prob_row(b, "Flags", label, key, ha[1], na, hb[1], nb, paired,
                        paired ? fp->only_a[1] : 0, paired ? fp->only_b[1] : 0, NULL);
    }
    /* A count: P(>= k) at every value k >= 1 that either file took, from the
     * top down so that the tails add up as k falls. */
    uint64_t xa = 0, xb = 0;
    size_t top = 0;
    for (size_t v = 1; v < bins; v++)
        if (ha[v] > 0 || hb[v] > 0)
            top = v;
    uint64_t *tail_a = calloc(top + 1, sizeof *tail_a), *tail_b = calloc(top + 1, sizeof *tail_b);
    if (tail_a == NULL || tail_b == NULL) {
        free(tail_a);
        free(tail_b);
        return OM_ERROR(OM_ENOMEM, "out of memory");
    }
    for (size_t v = top; v >= 1; v--) {
        xa += ha[v];
        xb += hb[v];
        tail_a[v] = xa;
        tail_b[v] = xb;
    }
    for (size_t k = 1; k <= top && st == OM_OK; k++) {
        if (ha[k] == 0 && hb[k] == 0)
            continue;
        snprintf(label, sizeof label, "P(>= %zu)", k);
        snprintf(key, sizeof key, "%s/ge/%zu", f->name, k);
        st = prob_row(b, f->name, label, key, tail_a[k], na, tail_b[k], nb, paired,
                      paired ? fp->only_a[k] : 0, paired ? fp->only_b[k] : 0, NULL);
    }
    free(tail_a);
    free(tail_b);
    return st;
}

/* What differs between two runs: their recorded provenance (every value
 * resolved, the options and rules in force), rule set, seed and trials. */
static om_status runs_differences(om_compare *c, om_h5_reader *ra, om_h5_reader *rb)
{
    diff_list d = {0};
    char *ja = NULL, *jb = NULL;
    json_t *a = NULL, *b = NULL;
    om_status st;
    if ((st = run_attr(ra, "options_json", &ja)) == OM_OK &&
        (st = run_attr(rb, "options_json", &jb)) == OM_OK) {
        a = json_loads(ja, 0, NULL);
        b = json_loads(jb, 0, NULL);
        if (a != NULL && b != NULL)
            st = diff_json(&d, "", a, b);
        else
            st = diff_text(&d, "options_json", ja, jb);
    }
    if (st == OM_OK)
        st = diff_text(&d, "title", c->file[0].title, c->file[1].title);
    if (st == OM_OK)
        st = diff_u64(&d, "seed", c->file[0].seed, c->file[1].seed);
    if (st == OM_OK)
        st = diff_u64(&d, "trials", c->file[0].trials, c->file[1].trials);
    if (st == OM_OK)
        st = diff_text(&d, "rng", c->file[0].rng, c->file[1].rng);
    if (st == OM_OK)
        st = diff_text(&d, "program version", c->file[0].program_version,
                       c->file[1].program_version);
    if (st == OM_OK)
        st = diff_finish(c, &d);
    free(d.text);
    json_decref(a);
    json_decref(b);
    free(ja);
    free(jb);
    return st;
}

/* Every measure of two runs. */
static om_status compare_runs(builder *b)
{
    om_compare *c = b->c;
    om_h5_reader *r[2] = {NULL, NULL};
    om_tally *t[2] = {NULL, NULL};
    uint64_t block[2] = {0, 0};
    field_pairs fp = {0};
    om_status st = OM_OK;

    for (int f = 0; f < 2 && st == OM_OK; f++)
        if ((st = om_h5_reader_open(&r[f], c->file[f].path)) == OM_OK)
            st = run_info(r[f], &c->file[f], &block[f]);
    if (st == OM_OK)
        st = runs_comparable(c, r[0], r[1]);
    if (st == OM_OK)
        st = runs_pairing(b, block[0], block[1]);
    if (st == OM_OK)
        st = runs_differences(c, r[0], r[1]);
    for (int f = 0; f < 2 && st == OM_OK; f++) {
        if ((t[f] = malloc(sizeof *t[f])) == NULL)
            st = OM_ERROR(OM_ENOMEM, "out of memory");
        else
            st = om_h5_reader_tally(r[f], t[f]);
    }
    if (st == OM_OK && ((fp.only_a = malloc((OM_TALLY_WIDE_BINS + 1) * sizeof *fp.only_a)) ==
                            NULL ||
                        (fp.only_b = malloc((OM_TALLY_WIDE_BINS + 1) * sizeof *fp.only_b)) ==
                            NULL))
        st = OM_ERROR(OM_ENOMEM, "out of memory");
    for (size_t i = 0; st == OM_OK && i < om_h5_reader_field_count(r[0]); i++) {
        const om_field *f = om_h5_reader_field(r[0], i);
        const size_t bins = f->type == OM_FIELD_COUNT16 ? OM_TALLY_WIDE_BINS : OM_TALLY_BINS;
        memset(fp.only_a, 0, (OM_TALLY_WIDE_BINS + 1) * sizeof *fp.only_a);
        memset(fp.only_b, 0, (OM_TALLY_WIDE_BINS + 1) * sizeof *fp.only_b);
        memset(fp.joint, 0, sizeof fp.joint);
        if (c->paired)
            st = pair_field(r[0], r[1], f, bins, &fp);
        if (st == OM_OK)
            st = field_rows(b, i, f, t[0], t[1], &fp);
    }
    free(fp.only_a);
    free(fp.only_b);
    for (int f = 0; f < 2; f++) {
        free(t[f]);
        om_h5_reader_close(r[f]);
    }
    return st;
}

/* ----------------------------------------------------------- two matrices */

/* What a matrix file is. */
static om_status matrix_info(const om_matrix *m, om_compare_file *f)
{
    om_status st;
    f->seed = m->info.seed;
    f->trials_per_cell = m->info.trials_per_cell;
    f->rows = m->info.outcome_trials > 0;
    f->trials = 0;
    for (size_t k = 0; k < m->info.n_situations * m->info.n_rows * m->info.n_cols; k++)
        f->trials += m->cells[k].trials;
    if ((st = dup_text(m->info.game, &f->game)) != OM_OK ||
        (st = dup_text(m->info.ruleset, &f->ruleset)) != OM_OK ||
        (st = dup_text(m->info.kind, &f->kind)) != OM_OK ||
        (st = dup_text(m->info.program_version, &f->program_version)) != OM_OK ||
        (st = dup_text(m->info.rng_scheme, &f->rng)) != OM_OK ||
        (st = dup_text(m->info.options, &f->options)) != OM_OK)
        return st;
    return appendf(&f->title, "%s x %s", m->info.row_list, m->info.col_list);
}

/* A unit's name in messages: its id, or its name when it has none. */
static const char *unit_id(const om_matrix_unit *u)
{
    return u->id != NULL && u->id[0] ? u->id : u->name;
}

/* Two matrices of one game, kind, axes and situations, or why not. A file
 * older than the game and kind attributes is taken at its rule set. */
static om_status matrices_comparable(const om_compare *c, const om_matrix *a, const om_matrix *b)
{
    const char *pa = a->path, *pb = b->path;
    if (a->info.game[0] && b->info.game[0] ? strcmp(a->info.game, b->info.game) != 0
                                           : strcmp(a->info.ruleset, b->info.ruleset) != 0)
        return OM_ERROR(OM_EINVAL, "%s is a matrix of %s and %s of %s: compare two matrices of "
                        "one game", pa, a->info.game[0] ? a->info.game : a->info.ruleset, pb,
                        b->info.game[0] ? b->info.game : b->info.ruleset);
    if (a->info.kind[0] && b->info.kind[0] && strcmp(a->info.kind, b->info.kind) != 0)
        return OM_ERROR(OM_EINVAL, "%s is a matrix of %s cells and %s of %s cells: compare two "
                        "matrices of one kind", pa, a->info.kind, pb, b->info.kind);
    if (a->info.n_situations != b->info.n_situations || a->info.n_rows != b->info.n_rows ||
        a->info.n_cols != b->info.n_cols)
        return OM_ERROR(OM_EINVAL, "%s is %zu x %zu x %zu cells and %s %zu x %zu x %zu "
                        "(situations x rows x columns): compare two matrices of the same units "
                        "and situations", pa, a->info.n_situations, a->info.n_rows,
                        a->info.n_cols, pb, b->info.n_situations, b->info.n_rows,
                        b->info.n_cols);
    for (size_t s = 0; s < a->info.n_situations; s++)
        if (strcmp(a->info.situations[s].name, b->info.situations[s].name) != 0)
            return OM_ERROR(OM_EINVAL, "situation %zu of %s is %s and of %s %s: compare two "
                            "matrices of the same situations", s, pa,
                            a->info.situations[s].name, pb, b->info.situations[s].name);
    for (int axis = 0; axis < 2; axis++) {
        const size_t n = axis == 0 ? a->info.n_rows : a->info.n_cols;
        const om_matrix_unit *ua = axis == 0 ? a->info.rows : a->info.cols;
        const om_matrix_unit *ub = axis == 0 ? b->info.rows : b->info.cols;
        for (size_t i = 0; i < n; i++)
            if (strcmp(unit_id(&ua[i]), unit_id(&ub[i])) != 0)
                return OM_ERROR(OM_EINVAL, "%s unit %zu of %s is %s and of %s %s: compare two "
                                "matrices of the same units", axis == 0 ? "row" : "column", i,
                                pa, unit_id(&ua[i]), pb, unit_id(&ub[i]));
    }
    (void)c;
    return OM_OK;
}

/* Whether two matrices' trials pair, with the sentence that says so. */
static om_status matrices_pairing(builder *bl, const om_matrix *a, const om_matrix *b)
{
    om_compare *c = bl->c;
    const size_t cells = a->info.n_situations * a->info.n_rows * a->info.n_cols;
    if (a->info.outcome_trials == 0 || b->info.outcome_trials == 0)
        return appendf(&c->pairing, "independent: %s keeps no trial's winner (a matrix of "
                       "--no-rows, or of an older program), so its trials cannot be paired",
                       a->info.outcome_trials == 0 ? a->path : b->path);
    if (a->info.seed != b->info.seed)
        return appendf(&c->pairing, "independent: the seeds differ (%llu, %llu), so the cells' "
                       "trials drew different dice", (unsigned long long)a->info.seed,
                       (unsigned long long)b->info.seed);
    if (strcmp(a->info.rng_scheme, b->info.rng_scheme) != 0)
        return appendf(&c->pairing, "independent: the files drew their dice from different "
                       "streams ('%s', '%s')", a->info.rng_scheme, b->info.rng_scheme);
    for (size_t k = 0; k < cells; k++)
        if (a->cells[k].trials != b->cells[k].trials)
            return appendf(&c->pairing, "independent: the cells hold different numbers of "
                           "trials in the two files (adaptive cells stop where their own "
                           "precision is reached)");
    return pairing_paired(bl, "trial's winner");
}

/* What differs between two matrices' provenance. */
static om_status matrices_differences(om_compare *c, const om_matrix *a, const om_matrix *b)
{
    diff_list d = {0};
    om_status st = diff_text(&d, "ruleset", a->info.ruleset, b->info.ruleset);
    char ta[32], tb[32];
    if (st == OM_OK)
        st = diff_text(&d, "options", a->info.options, b->info.options);
    if (st == OM_OK)
        st = diff_text(&d, "data", a->info.data_version, b->info.data_version);
    if (st == OM_OK)
        st = diff_u64(&d, "seed", a->info.seed, b->info.seed);
    if (st == OM_OK)
        st = diff_u64(&d, "trials per cell", a->info.trials_per_cell, b->info.trials_per_cell);
    if (st == OM_OK && a->info.target_halfwidth != b->info.target_halfwidth) {
        snprintf(ta, sizeof ta, "%g", a->info.target_halfwidth);
        snprintf(tb, sizeof tb, "%g", b->info.target_halfwidth);
        st = diff_add(&d, "target half-width", ta, tb);
    }
    if (st == OM_OK)
        st = diff_text(&d, "rng", a->info.rng_scheme, b->info.rng_scheme);
    if (st == OM_OK)
        st = diff_text(&d, "program version", a->info.program_version, b->info.program_version);
    if (st == OM_OK)
        st = diff_finish(c, &d);
    free(d.text);
    return st;
}

/* The joint outcomes of every cell's pairs of trials, [cell][A's code][B's
 * code], from both files' winners. */
static om_status matrices_joint(const om_matrix *a, const om_matrix *b, uint64_t *joint)
{
    const size_t S = a->info.n_situations, R = a->info.n_rows, C = a->info.n_cols;
    om_h5m_outcomes *oa = NULL, *ob = NULL;
    uint64_t most = 0;
    uint8_t *ca = NULL, *cb = NULL;
    om_status st;
    for (size_t k = 0; k < S * R * C; k++)
        most = a->cells[k].trials > most ? a->cells[k].trials : most;
    if ((st = om_h5m_outcomes_open(a, &oa)) == OM_OK &&
        (st = om_h5m_outcomes_open(b, &ob)) == OM_OK &&
        ((ca = malloc(most > 0 ? most : 1)) == NULL || (cb = malloc(most > 0 ? most : 1)) == NULL))
        st = OM_ERROR(OM_ENOMEM, "out of memory for the winners of a cell");
    for (size_t k = 0; st == OM_OK && k < S * R * C; k++) {
        const size_t s = k / (R * C), r = k / C % R, col = k % C;
        uint64_t *j = joint + k * OM_WINNER_CODES * OM_WINNER_CODES;
        if ((st = om_h5m_outcomes_read(oa, s, r, col, ca)) != OM_OK ||
            (st = om_h5m_outcomes_read(ob, s, r, col, cb)) != OM_OK)
            break;
        for (uint64_t t = 0; t < a->cells[k].trials; t++)
            j[ca[t] * OM_WINNER_CODES + cb[t]]++;
    }
    free(ca);
    free(cb);
    om_h5m_outcomes_close(oa);
    om_h5m_outcomes_close(ob);
    return st;
}

/* Why a cell is outside the ratings, or NULL. */
static const char *cell_note(const om_matrix_cell *cell)
{
    switch (cell->inapplicable) {
    case 0: return NULL;
    case OM_MATRIX_ROW_CANNOT: return "outside the ratings: the row unit has no part in it";
    case OM_MATRIX_COL_CANNOT: return "outside the ratings: the column unit has no part in it";
    default: return "outside the ratings: neither unit has a part in it";
    }
}

/* Every cell's P(row wins) of two matrices. */
static om_status cell_rows(builder *b, const om_matrix *ma, const om_matrix *mb,
                           const uint64_t *joint)
{
    const size_t S = ma->info.n_situations, R = ma->info.n_rows, C = ma->info.n_cols;
    char section[160], label[200], key[400];
    om_status st = OM_OK;
    for (size_t k = 0; st == OM_OK && k < S * R * C; k++) {
        const size_t s = k / (R * C), r = k / C % R, col = k % C;
        const om_matrix_cell *ca = &ma->cells[k], *cb = &mb->cells[k];
        const uint64_t *j = joint != NULL ? joint + k * OM_WINNER_CODES * OM_WINNER_CODES : NULL;
        uint64_t only_a = 0, only_b = 0;
        om_compare_row *row;
        const char *note;
        for (uint8_t w = 0; j != NULL && w < OM_WINNER_CODES; w++)
            if (w != OM_WINNER_A) {
                only_a += j[OM_WINNER_A * OM_WINNER_CODES + w];
                only_b += j[w * OM_WINNER_CODES + OM_WINNER_A];
            }
        snprintf(section, sizeof section, "P(row wins), %s", ma->info.situations[s].name);
        snprintf(label, sizeof label, "%s vs %s", ma->info.rows[r].name, ma->info.cols[col].name);
        snprintf(key, sizeof key, "%s/%s/%s", ma->info.situations[s].name,
                 unit_id(&ma->info.rows[r]), unit_id(&ma->info.cols[col]));
        st = prob_row(b, section, label, key, ca->wins_row, ca->trials, cb->wins_row, cb->trials,
                      b->c->paired, only_a, only_b, &row);
        if (st == OM_OK && (note = cell_note(ca)) != NULL && (row->note = strdup(note)) == NULL)
            st = OM_ERROR(OM_ENOMEM, "out of memory");
    }
    return st;
}

/* The fair points of every unit (rows first, then columns) of matrix m as
 * efficiency computes them with its defaults, NaN where a unit has none;
 * `lo` and `hi` (may be NULL) get their intervals and `status` (may be NULL)
 * why a unit has none. */
static om_status fair_points(const om_matrix *m, double *fair, double *lo, double *hi,
                             const char **status)
{
    om_efficiency *e = NULL;
    om_status st = om_efficiency_compute(m, NULL, &e);
    if (st != OM_OK)
        return st;
    for (size_t u = 0; u < e->n_units; u++) {
        const om_efficiency_unit *x = &e->units[u];
        const bool rated = x->status == OM_EFFICIENCY_RATED;
        fair[u] = rated ? x->overall.fair.value : NAN;
        if (lo != NULL)
            lo[u] = rated ? x->overall.fair.lo : NAN;
        if (hi != NULL)
            hi[u] = rated ? x->overall.fair.hi : NAN;
        if (status != NULL)
            status[u] = rated ? NULL : om_efficiency_status_name(x);
    }
    om_efficiency_free(e);
    return OM_OK;
}

/* The bootstrap of the fair points' differences: what one replicate works on. */
typedef struct boot {
    const om_matrix *m[2];    /* the two matrices */
    om_matrix copy[2];        /* shallow copies whose cells are redrawn */
    const uint64_t *joint;    /* the cells' joint outcomes, paired; NULL independent */
    size_t cells;             /* S * R * C */
    size_t units;             /* R + C */
    double *fair[2];          /* [units] a replicate's fair points of each file */
} boot;

/* Redraw every cell's trials with replacement from stream g: the pairs of
 * trials (a multinomial over their joint outcomes), or each file's trials on
 * their own (over its outcomes). */
static om_status boot_redraw(boot *bt, gsl_rng *g)
{
    enum { K = OM_WINNER_CODES };
    double p[K * K];
    unsigned draw[K * K];
    for (size_t k = 0; k < bt->cells; k++) {
        om_matrix_cell *x[2] = {&bt->copy[0].cells[k], &bt->copy[1].cells[k]};
        const uint64_t n = bt->m[0]->cells[k].trials;
        if (n > UINT_MAX || bt->m[1]->cells[k].trials > UINT_MAX)
            return OM_ERROR(OM_EINVAL, "a cell of more than %u trials cannot be resampled",
                            UINT_MAX);
        if (bt->joint != NULL) {
            const uint64_t *j = bt->joint + k * K * K;
            if (n == 0)
                continue;
            for (size_t q = 0; q < K * K; q++)
                p[q] = (double)j[q];
            gsl_ran_multinomial(g, K * K, (unsigned)n, p, draw);
            for (int f = 0; f < 2; f++) {
                uint64_t by[K] = {0};
                for (size_t u = 0; u < K; u++)
                    for (size_t v = 0; v < K; v++)
                        by[f == 0 ? u : v] += draw[u * K + v];
                x[f]->wins_row = by[OM_WINNER_A];
                x[f]->wins_col = by[OM_WINNER_B];
                x[f]->draws = by[OM_WINNER_DRAW];
            }
            continue;
        }
        for (int f = 0; f < 2; f++) {
            const om_matrix_cell *o = &bt->m[f]->cells[k];
            if (o->trials == 0)
                continue;
            p[OM_WINNER_A] = (double)o->wins_row;
            p[OM_WINNER_B] = (double)o->wins_col;
            p[OM_WINNER_DRAW] = (double)o->draws;
            p[OM_WINNER_NONE] = (double)(o->trials - o->wins_row - o->wins_col - o->draws);
            gsl_ran_multinomial(g, K, (unsigned)o->trials, p, draw);
            x[f]->wins_row = draw[OM_WINNER_A];
            x[f]->wins_col = draw[OM_WINNER_B];
            x[f]->draws = draw[OM_WINNER_DRAW];
        }
    }
    return OM_OK;
}

/* The q-quantile of the sorted x[0..n) (linear between order statistics). */
static double quantile(const double *x, size_t n, double q)
{
    double h = q * (double)(n - 1);
    size_t i = (size_t)floor(h);
    if (i + 1 >= n)
        return x[n - 1];
    return x[i] + (h - (double)i) * (x[i + 1] - x[i]);
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The replicates' differences of every unit, diffs[unit * B + replicate]
 * (NaN where a replicate gives a unit no value in a file). */
static om_status boot_run(boot *bt, unsigned replicates, uint64_t seed, double *diffs)
{
    om_status st = OM_OK;
    for (unsigned k = 0; st == OM_OK && k < replicates; k++) {
        gsl_rng *g = om_rng_gsl_alloc(seed, k);
        if (g == NULL)
            return OM_ERROR(OM_ENOMEM, "out of memory for the bootstrap's generator");
        st = boot_redraw(bt, g);
        gsl_rng_free(g);
        for (int f = 0; f < 2 && st == OM_OK; f++) {
            st = fair_points(&bt->copy[f], bt->fair[f], NULL, NULL, NULL);
            /* A redraw the model cannot fit (a unit left without a decided
             * trial, say) gives that replicate no value. */
            if (st == OM_EINVAL) {
                om_error_clear();
                st = OM_OK;
                for (size_t u = 0; u < bt->units; u++)
                    bt->fair[f][u] = NAN;
            }
        }
        for (size_t u = 0; st == OM_OK && u < bt->units; u++)
            diffs[u * replicates + k] = bt->fair[1][u] - bt->fair[0][u];
    }
    return st;
}

/* The rows of every unit's fair points of two matrices, with the bootstrap
 * interval of each difference. */
static om_status fair_rows(builder *b, const om_matrix *ma, const om_matrix *mb,
                           const uint64_t *joint)
{
    om_compare *c = b->c;
    const size_t R = ma->info.n_rows, C = ma->info.n_cols, units = R + C;
    const size_t cells = ma->info.n_situations * R * C;
    const unsigned B = c->replicates;
    double *v = calloc(units * 6, sizeof *v), *diffs = calloc(units * (size_t)B, sizeof *diffs);
    double *sorted = calloc(B, sizeof *sorted);
    const char **status[2] = {calloc(units, sizeof(char *)), calloc(units, sizeof(char *))};
    boot bt = {.m = {ma, mb}, .joint = c->paired ? joint : NULL, .cells = cells, .units = units};
    om_status st = OM_OK;

    if (v == NULL || diffs == NULL || sorted == NULL || status[0] == NULL || status[1] == NULL)
        st = OM_ERROR(OM_ENOMEM, "out of memory");
    for (int f = 0; f < 2 && st == OM_OK; f++) {
        bt.copy[f] = *bt.m[f];
        if ((bt.copy[f].cells = malloc(cells * sizeof *bt.copy[f].cells)) == NULL ||
            (bt.fair[f] = malloc(units * sizeof *bt.fair[f])) == NULL)
            st = OM_ERROR(OM_ENOMEM, "out of memory");
        else
            memcpy(bt.copy[f].cells, bt.m[f]->cells, cells * sizeof *bt.copy[f].cells);
    }
    /* v holds each file's fair points and intervals: [3 f + 0..2][unit]. */
    for (int f = 0; f < 2 && st == OM_OK; f++)
        st = fair_points(bt.m[f], v + (3 * f) * units, v + (3 * f + 1) * units,
                         v + (3 * f + 2) * units, status[f]);
    if (st == OM_OK)
        st = boot_run(&bt, B, c->boot_seed, diffs);
    for (size_t u = 0; st == OM_OK && u < units; u++) {
        const bool row = u < R;
        const om_matrix_unit *x = row ? &ma->info.rows[u] : &ma->info.cols[u - R];
        char label[200], key[200];
        om_compare_row *r;
        size_t n = 0;
        snprintf(label, sizeof label, "%s (%s%s%s)", x->name, x->army && x->army[0] ? x->army : "",
                 x->army && x->army[0] ? ", " : "", row ? "row" : "column");
        snprintf(key, sizeof key, "fair/%s/%s", row ? "row" : "col", unit_id(x));
        if ((st = row_add(b, "Fair points", label, key, &r)) != OM_OK)
            break;
        r->a = v[u];
        r->a_lo = v[units + u];
        r->a_hi = v[2 * units + u];
        r->b = v[3 * units + u];
        r->b_lo = v[4 * units + u];
        r->b_hi = v[5 * units + u];
        r->diff = r->b - r->a;
        /* The trials of the cells that rate it. */
        for (size_t k = 0; k < (row ? C : R); k++) {
            const size_t cr = row ? u : k, cc = row ? k : u - R;
            for (size_t s = 0; s < ma->info.n_situations; s++) {
                const om_matrix_cell *xa = om_matrix_at(ma, s, cr, cc);
                const om_matrix_cell *xb = om_matrix_at(mb, s, cr, cc);
                r->n_a += xa->inapplicable == 0 ? xa->trials : 0;
                r->n_b += xb->inapplicable == 0 ? xb->trials : 0;
            }
        }
        for (unsigned k = 0; k < B; k++)
            if (isfinite(diffs[u * B + k]))
                sorted[n++] = diffs[u * B + k];
        r->replicates = (unsigned)n;
        if (isfinite(r->diff) && (double)n >= OM_COMPARE_BOOT_MIN_SHARE * (double)B && n > 0) {
            qsort(sorted, n, sizeof *sorted, cmp_double);
            r->lo = quantile(sorted, n, (1.0 - c->confidence) / 2.0);
            r->hi = quantile(sorted, n, (1.0 + c->confidence) / 2.0);
            r->method = c->paired ? OM_COMPARE_PAIRED_BOOTSTRAP : OM_COMPARE_INDEPENDENT_BOOTSTRAP;
        } else if (status[0][u] != NULL || status[1][u] != NULL) {
            st = appendf(&r->note, "%s", status[0][u] != NULL ? status[0][u] : status[1][u]);
        } else if (isfinite(r->diff)) {
            st = appendf(&r->note, "no interval: fair points in only %zu of %u replicates", n, B);
        }
    }
    for (int f = 0; f < 2; f++) {
        free(bt.copy[f].cells);
        free(bt.fair[f]);
        free(status[f]);
    }
    free(sorted);
    free(diffs);
    free(v);
    return st;
}

/* Every measure of two matrices. */
static om_status compare_matrices(builder *b)
{
    om_compare *c = b->c;
    om_matrix *m[2] = {NULL, NULL};
    uint64_t *joint = NULL;
    om_status st = OM_OK;
    for (int f = 0; f < 2 && st == OM_OK; f++)
        if ((st = om_h5m_read(c->file[f].path, &m[f])) == OM_OK)
            st = matrix_info(m[f], &c->file[f]);
    if (st == OM_OK)
        st = matrices_comparable(c, m[0], m[1]);
    if (st == OM_OK)
        st = matrices_pairing(b, m[0], m[1]);
    if (st == OM_OK)
        st = matrices_differences(c, m[0], m[1]);
    if (st == OM_OK && c->paired) {
        const size_t cells = m[0]->info.n_situations * m[0]->info.n_rows * m[0]->info.n_cols;
        if ((joint = calloc(cells * OM_WINNER_CODES * OM_WINNER_CODES, sizeof *joint)) == NULL)
            st = OM_ERROR(OM_ENOMEM, "out of memory");
        else
            st = matrices_joint(m[0], m[1], joint);
    }
    if (st == OM_OK)
        st = cell_rows(b, m[0], m[1], joint);
    if (st == OM_OK)
        st = fair_rows(b, m[0], m[1], joint);
    free(joint);
    om_h5m_matrix_free(m[0]);
    om_h5m_matrix_free(m[1]);
    return st;
}

/* ------------------------------------------------------------- the files */

/* Whether the file at `path` is a run's (false: a matrix's), by its schema. */
static om_status file_kind(const char *path, bool *run)
{
    char *schema = NULL;
    om_status st = om_h5m_file_schema(path, &schema);
    if (st == OM_ENOTFOUND)
        return OM_ERROR(OM_EHDF5, "%s: no 'schema' attribute: not an oddsmaster result or "
                        "matrix file", path);
    if (st != OM_OK)
        return st;
    *run = strncmp(schema, "oddsmaster-results/", strlen("oddsmaster-results/")) == 0;
    if (!*run && strncmp(schema, "oddsmaster-matrix/", strlen("oddsmaster-matrix/")) != 0)
        st = OM_ERROR(OM_EHDF5, "%s: the 'schema' attribute is '%s': not an oddsmaster result "
                      "or matrix file", path, schema);
    free(schema);
    return st;
}

om_status om_compare_files(const char *path_a, const char *path_b, const om_compare_options *opt,
                           om_compare **out)
{
    const om_compare_options defaults = {0};
    om_compare *c;
    builder b;
    bool run[2];
    om_status st = OM_OK;

    *out = NULL;
    if (opt == NULL)
        opt = &defaults;
    if ((opt->confidence != 0.0 && !confidence_ok(opt->confidence)) ||
        (opt->replicates != 0 && (opt->replicates < OM_COMPARE_MIN_REPLICATES ||
                                  opt->replicates > OM_COMPARE_MAX_REPLICATES)))
        return OM_ERROR(OM_EINVAL, "a confidence in (0, 1) and %u to %u replicates, not %g and "
                        "%u", OM_COMPARE_MIN_REPLICATES, OM_COMPARE_MAX_REPLICATES,
                        opt->confidence, opt->replicates);
    if ((c = calloc(1, sizeof *c)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory");
    c->confidence = opt->confidence != 0.0 ? opt->confidence : OM_COMPARE_CONFIDENCE;
    c->replicates = opt->replicates != 0 ? opt->replicates : OM_COMPARE_REPLICATES;
    c->boot_seed = opt->seed;
    b = (builder){.c = c, .independent = opt->independent};
    if ((st = dup_text(path_a, &c->file[0].path)) == OM_OK)
        st = dup_text(path_b, &c->file[1].path);
    for (int f = 0; f < 2 && st == OM_OK; f++)
        st = file_kind(c->file[f].path, &run[f]);
    if (st == OM_OK && run[0] != run[1])
        st = OM_ERROR(OM_EINVAL, "%s is %s and %s %s: compare two runs or two matrices",
                      path_a, run[0] ? "a run's result file" : "a matrix file", path_b,
                      run[1] ? "a run's result file" : "a matrix file");
    if (st == OM_OK) {
        c->kind = run[0] ? OM_COMPARE_RUNS : OM_COMPARE_MATRICES;
        st = run[0] ? compare_runs(&b) : compare_matrices(&b);
    }
    if (st != OM_OK) {
        om_compare_free(c);
        return st;
    }
    *out = c;
    return OM_OK;
}
