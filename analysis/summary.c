/*
 * summary.c: the summary of a result file and its text, JSON and CSV forms
 * (summary.h). DESIGN "Results": probabilities come with 95% Wilson intervals
 * and full distributions, not only means. Each dataset is streamed once through
 * a 256-bin histogram, so memory is flat in the number of trials; every number
 * reported is derived from the histograms.
 */
#include "summary.h"
#include "summary_int.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

/* Sides as printed: "A" and "B", "a" and "b" as keys. */
static const char *const side_label[2] = {"A", "B"};
static const char *const side_key[2] = {"a", "b"};

/* Outcome columns as keys, in OM_SUMMARY_WIN/DRAW/LOSE order. */
static const char *const outcome_key[3] = {"win", "draw", "lose"};

/* The jansson integer type must hold any int64_t for the seed test below. */
_Static_assert(sizeof(json_int_t) >= sizeof(int64_t), "json_int_t narrower than 64 bits");

/* ---------------------------------------------------------------- compute */

/* Estimate P = count / n with its Wilson interval (no exact value yet). */
static om_status prob_set(om_summary_prob *p, uint64_t count, uint64_t n, double confidence)
{
    p->count = count;
    p->p = n > 0 ? (double)count / (double)n : 0.0;
    p->has_exact = false;
    p->exact = 0.0;
    return om_stats_wilson(count, n, confidence, &p->lo, &p->hi);
}

/* Give p its exact value. */
static void prob_exact(om_summary_prob *p, double exact)
{
    p->has_exact = true;
    p->exact = exact;
}

/* The exact law the run recorded of field i of the file, or NULL. */
static const double *exact_law(const om_summary *s, size_t i)
{
    return s->exact != NULL && s->exact->known[i] ? s->exact->p + i * OM_EXACT_VALUES : NULL;
}

/* The exact outcome table of a winner field whose exact law is `law`: A's
 * win is B's loss, and the draw and "none" are both sides'. */
static void outcome_exact(const double *law, om_summary_prob table[2][3], om_summary_prob *none)
{
    for (int side = 0; side < 2; side++) {
        prob_exact(&table[side][OM_SUMMARY_WIN], law[side == 0 ? OM_WINNER_A : OM_WINNER_B]);
        prob_exact(&table[side][OM_SUMMARY_DRAW], law[OM_WINNER_DRAW]);
        prob_exact(&table[side][OM_SUMMARY_LOSE], law[side == 0 ? OM_WINNER_B : OM_WINNER_A]);
    }
    prob_exact(none, law[OM_WINNER_NONE]);
}

/*
 * Read an optional string attribute: a missing one leaves *out NULL, as the
 * summary reports it unknown rather than failing on an older or foreign file.
 */
static om_status attr_string_opt(om_h5_reader *r, const char *name, char **out)
{
    om_status st = om_h5_reader_attr_string(r, name, out);
    if (st == OM_ENOTFOUND) {
        om_error_clear();
        return OM_OK;
    }
    return st;
}

/* Same for an integer attribute: *found says whether it was there. */
static om_status attr_u64_opt(om_h5_reader *r, const char *name, uint64_t *out, bool *found)
{
    om_status st = om_h5_reader_attr_u64(r, name, out);
    *found = st == OM_OK;
    if (st == OM_ENOTFOUND) {
        *out = 0;
        om_error_clear();
        return OM_OK;
    }
    return st;
}

static om_status read_provenance(om_h5_reader *r, om_summary *s)
{
    om_status st;
    bool found;
    if ((st = attr_string_opt(r, "title", &s->title)) != OM_OK
        || (st = attr_string_opt(r, "ruleset", &s->ruleset)) != OM_OK
        || (st = attr_string_opt(r, "kind", &s->kind)) != OM_OK
        || (st = attr_string_opt(r, "program_version", &s->program_version)) != OM_OK
        || (st = attr_string_opt(r, "unit_a", &s->unit[0])) != OM_OK
        || (st = attr_string_opt(r, "unit_b", &s->unit[1])) != OM_OK
        || (st = attr_u64_opt(r, "points_a", &s->points[0], &found)) != OM_OK
        || (st = attr_u64_opt(r, "points_b", &s->points[1], &found)) != OM_OK
        || (st = attr_u64_opt(r, "seed", &s->seed, &s->has_seed)) != OM_OK
        || (st = attr_string_opt(r, "stop_reason", &s->stop_reason)) != OM_OK)
        return st;
    {
        uint64_t complete = 1;
        bool found;
        if ((st = attr_u64_opt(r, "complete", &complete, &found)) != OM_OK ||
            (st = attr_u64_opt(r, "trials_requested", &s->trials_requested, &found)) != OM_OK)
            return st;
        s->complete = !found || complete != 0;
        if (!found)
            s->trials_requested = s->trials;
    }
    return OM_OK;
}

/* Where the histograms come from: the run's tallies, or its rows counted again
 * (and found to agree with the tallies: om_h5_reader_check_rows). */
typedef struct hist_source {
    om_h5_reader *r;       /* the file */
    const om_tally *tally; /* the histograms of every field */
} hist_source;

/* Fill an outcome table [side][WIN/DRAW/LOSE] and P(none) from the histogram of
 * a winner-coded field `name`. */
static om_status outcome_from_winner(om_summary *s, const char *name,
                                     const uint64_t hist[OM_STATS_HIST_BINS],
                                     om_summary_prob table[2][3], om_summary_prob *none)
{
    uint64_t invalid = 0;
    om_status st;
    /* Codes past OM_WINNER_NONE have no name: the file is damaged. */
    for (unsigned v = OM_WINNER_NONE + 1; v < OM_STATS_HIST_BINS; v++)
        invalid += hist[v];
    if (invalid > 0)
        return OM_ERROR(OM_EHDF5,
                        "%s: /trials/%s holds %llu values that are not a, b, draw or none",
                        s->file, name, (unsigned long long)invalid);
    for (int side = 0; side < 2; side++) {
        uint64_t win = hist[side == 0 ? OM_WINNER_A : OM_WINNER_B];
        uint64_t lose = hist[side == 0 ? OM_WINNER_B : OM_WINNER_A];
        if ((st = prob_set(&table[side][OM_SUMMARY_WIN], win, s->trials, s->confidence))
                != OM_OK
            || (st = prob_set(&table[side][OM_SUMMARY_DRAW], hist[OM_WINNER_DRAW], s->trials,
                              s->confidence)) != OM_OK
            || (st = prob_set(&table[side][OM_SUMMARY_LOSE], lose, s->trials,
                              s->confidence)) != OM_OK)
            return st;
    }
    return prob_set(none, hist[OM_WINNER_NONE], s->trials, s->confidence);
}

/* The summary of the field named `name`, or NULL. */
static const om_summary_field *summary_field(const om_summary *s, const char *name)
{
    for (size_t i = 0; i < s->field_count; i++)
        if (strcmp(s->fields[i].field->name, name) == 0)
            return &s->fields[i];
    return NULL;
}

/* Victory points lost by each side whose file records how it loses them: the
 * distribution of its loss field mapped through the recorded table, each
 * distinct loss once, in increasing order. */
static om_status points_lost(om_h5_reader *r, om_summary *s)
{
    for (int side = 0; side < 2; side++) {
        om_summary_points *pl = &s->lost[side];
        const om_summary_field *sf;
        om_side_score sc;
        om_status st = om_h5_reader_side(r, side, &sc);
        memset(pl, 0, sizeof *pl);
        if (st != OM_OK)
            return st;
        if (sc.loss_field < 0 || sc.points == 0 ||
            (sf = summary_field(s, om_h5_reader_field(r, (size_t)sc.loss_field)->name)) == NULL ||
            sf->max > sc.loss_start)
            continue;
        if ((pl->unit = strdup(sc.loss_unit ? sc.loss_unit : "losses")) == NULL)
            return OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
        pl->known = true;
        pl->field = sf->field->name;
        pl->start = sc.loss_start;
        pl->points = sc.points;
        for (unsigned k = 0; k <= sc.loss_start; k++) {
            uint32_t vp = sc.vp_lost[k];
            double p = (double)sf->hist[k] / (double)s->trials;
            size_t at = 0;
            while (at < pl->n_values && pl->value[at] < vp)
                at++;
            if (at == pl->n_values || pl->value[at] != vp) {
                if (pl->n_values == OM_SUMMARY_VP_VALUES)
                    return OM_ERROR(OM_EHDF5, "%s: more than %d distinct victory point losses "
                                    "for side %c", s->file, OM_SUMMARY_VP_VALUES, "ab"[side]);
                memmove(&pl->value[at + 1], &pl->value[at],
                        (pl->n_values - at) * sizeof pl->value[0]);
                memmove(&pl->p[at + 1], &pl->p[at], (pl->n_values - at) * sizeof pl->p[0]);
                pl->value[at] = vp;
                pl->p[at] = 0.0;
                pl->n_values++;
            }
            pl->p[at] += p;
            pl->mean += p * vp;
        }
        /* The exact law, over the same losses, when the run recorded it. */
        if (sf->exact != NULL && om_exact_max(s->exact, (size_t)(sf->field - s->defs)) <=
                                     sc.loss_start) {
            pl->has_exact = true;
            for (unsigned k = 0; k <= sc.loss_start; k++) {
                size_t at = 0;
                while (pl->value[at] != sc.vp_lost[k])
                    at++;
                pl->exact_p[at] += sf->exact[k];
                pl->exact_mean += sf->exact[k] * sc.vp_lost[k];
            }
        }
    }
    return OM_OK;
}

static om_status field_stats(om_summary_field *sf, uint64_t trials, double confidence)
{
    uint64_t tail = 0;
    double exact_tail = 0.0;
    om_status st;
    if ((st = om_stats_hist_moments(sf->hist, &sf->mean, &sf->sd)) != OM_OK)
        return st;
    sf->max = 0;
    for (unsigned v = 0; v < OM_STATS_HIST_BINS; v++)
        if (sf->hist[v] > 0)
            sf->max = v;
    /* The table goes on to the values the exact law says are possible, seen
     * or not. */
    sf->shown = sf->max;
    for (unsigned v = sf->max + 1; sf->exact != NULL && v < OM_STATS_HIST_BINS; v++)
        if (sf->exact[v] > 0.0)
            sf->shown = v;
    /*
     * Tail sums from the top: at_least[k].count = sum of hist[v] for v >= k. The
     * table reaches k = 1 even when max = 0, so a flag that never occurred still
     * has its P(set) = 0 with an interval.
     */
    for (unsigned k = (sf->shown > 1 ? sf->shown : 1) + 1; k-- > 1;) {
        tail += sf->hist[k];
        if ((st = prob_set(&sf->at_least[k], tail, trials, confidence)) != OM_OK)
            return st;
        if (sf->exact != NULL) {
            exact_tail += sf->exact[k];
            prob_exact(&sf->at_least[k], exact_tail);
        }
    }
    /* P(value >= 0) is certain, not an estimate: its interval is the point 1. */
    sf->at_least[0] = (om_summary_prob){trials, 1.0, 1.0, 1.0, sf->exact != NULL, 1.0};
    return OM_OK;
}

/* Copy the file's field definitions into the summary, which outlives the reader. */
static om_status copy_fields(om_h5_reader *r, om_summary *s)
{
    size_t n = om_h5_reader_field_count(r);
    s->defs = calloc(n ? n : 1, sizeof *s->defs);
    if (s->defs == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
    for (size_t i = 0; i < n; i++) {
        const om_field *f = om_h5_reader_field(r, i);
        om_field *d = &s->defs[s->def_count++];
        *d = *f;
        d->name = strdup(f->name);
        d->description = strdup(f->description ? f->description : "");
        d->title = f->title ? strdup(f->title) : NULL;
        if (d->name == NULL || d->description == NULL || (f->title && d->title == NULL))
            return OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
    }
    return OM_OK;
}

/* The histogram of field i of the file (`f`) from `src`. */
static om_status field_hist(const hist_source *src, size_t i, const om_field *f,
                            uint64_t hist[OM_STATS_HIST_BINS])
{
    _Static_assert(OM_STATS_HIST_BINS == OM_TALLY_BINS, "a histogram per byte value");
    (void)f;
    memcpy(hist, src->tally->hist[i], OM_STATS_HIST_BINS * sizeof hist[0]);
    return OM_OK;
}

/* The histogram of two-byte count field i (`f`) from `src`, into `hist`
 * (OM_TALLY_WIDE_BINS bins). */
static om_status wide_hist(const hist_source *src, size_t i, const om_field *f, uint64_t *hist)
{
    const uint64_t *t = om_tally_wide(src->tally, i);
    if (t == NULL)
        return OM_ERROR(OM_EHDF5, "%s: no tally of the two-byte field %s",
                        om_h5_reader_path(src->r), f->name);
    memcpy(hist, t, OM_TALLY_WIDE_BINS * sizeof hist[0]);
    return OM_OK;
}

/* The summary of a two-byte count field from its histogram: moments, the
 * largest value, and each value that occurred with P(=v) and P(>=v). */
static om_status wide_stats(om_summary_field *sf, const uint64_t *hist, uint64_t trials,
                            double confidence)
{
    double sum = 0, sq = 0, n = (double)trials;
    uint64_t tail = 0;
    size_t k;
    om_status st = OM_OK;
    sf->n_values = 0;
    sf->max = 0;
    sf->shown = 0;
    for (unsigned v = 0; v < OM_TALLY_WIDE_BINS; v++)
        if (hist[v] > 0) {
            sf->n_values++;
            sf->max = sf->shown = v;
            sum += (double)hist[v] * v;
        }
    sf->mean = trials > 0 ? sum / n : 0.0;
    /* Two passes, as om_stats_hist_moments, for accuracy. */
    for (unsigned v = 0; v <= sf->max; v++)
        if (hist[v] > 0)
            sq += (double)hist[v] * (v - sf->mean) * (v - sf->mean);
    sf->sd = trials > 0 ? sqrt(sq / n) : 0.0;
    if ((sf->values = calloc(sf->n_values ? sf->n_values : 1, sizeof *sf->values)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory");
    k = sf->n_values;
    for (unsigned v = sf->max + 1; v-- > 0 && st == OM_OK;) {
        if (hist[v] == 0)
            continue;
        tail += hist[v];
        sf->values[--k].value = v;
        sf->values[k].p_equal = (double)hist[v] / n;
        st = prob_set(&sf->values[k].at_least, tail, trials, confidence);
    }
    return st;
}

/* A two-byte count field i of the file (`f`) into sf. */
static om_status summary_wide(const hist_source *src, size_t i, const om_field *f,
                              om_summary_field *sf, uint64_t trials, double confidence)
{
    uint64_t *hist = malloc(OM_TALLY_WIDE_BINS * sizeof *hist);
    om_status st;
    if (hist == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory");
    st = wide_hist(src, i, f, hist);
    if (st == OM_OK)
        st = wide_stats(sf, hist, trials, confidence);
    free(hist);
    return st;
}

/* One winner field: the first is the run's outcome, a second its first round. */
static om_status summary_outcome(const hist_source *src, om_summary *s, size_t i)
{
    const om_field *f = &s->defs[i];
    uint64_t hist[OM_STATS_HIST_BINS];
    bool first = !s->has_outcome;
    om_status st = field_hist(src, i, f, hist);
    if (st != OM_OK)
        return st;
    if (!first && s->has_round1)
        return OM_ERROR(OM_EHDF5, "%s: more than two winner fields (%s)", s->file, f->name);
    if (first) {
        s->has_outcome = true;
        s->outcome_title = f->title;
        st = outcome_from_winner(s, f->name, hist, s->outcome, &s->none);
        if (st == OM_OK && exact_law(s, i) != NULL)
            outcome_exact(exact_law(s, i), s->outcome, &s->none);
        return st;
    }
    s->has_round1 = true;
    s->round1_title = f->title;
    st = outcome_from_winner(s, f->name, hist, s->round1, &s->round1_none);
    if (st == OM_OK && exact_law(s, i) != NULL)
        outcome_exact(exact_law(s, i), s->round1, &s->round1_none);
    return st;
}

om_status om_summary_unit_stat_of(const uint64_t *hist, unsigned bins, uint64_t trials,
                                  double confidence, om_summary_unit_stat *out)
{
    double sum = 0.0, sq = 0.0;
    uint64_t at_least_1 = 0;
    if (trials == 0 || bins == 0)
        return OM_ERROR(OM_EINVAL, "om_summary_unit_stat_of: no trials or no bins");
    memset(out, 0, sizeof *out);
    out->hist = hist;
    for (unsigned v = 0; v < bins; v++) {
        if (hist[v] != 0)
            out->max = v;
        sum += (double)v * (double)hist[v];
        if (v >= 1)
            at_least_1 += hist[v];
    }
    out->mean = sum / (double)trials;
    for (unsigned v = 0; v < bins; v++)
        sq += (double)hist[v] * ((double)v - out->mean) * ((double)v - out->mean);
    out->sd = sqrt(sq / (double)trials);
    /* A flag's P(= 1) is its P(>= 1). */
    return prob_set(&out->p, at_least_1, trials, confidence);
}

const om_summary_unit_stat *om_summary_unit(const om_summary *s, const char *name, size_t unit)
{
    for (size_t f = 0; s != NULL && name != NULL && f < s->unit_field_count; f++)
        if (strcmp(s->unit_fields[f].field->name, name) == 0)
            return unit < s->unit_count ? &s->unit_fields[f].unit[unit] : NULL;
    return NULL;
}

/* A copy of text (NULL as ""), or NULL when out of memory. */
static char *copy_text(const char *text)
{
    return strdup(text != NULL ? text : "");
}

/* The per-unit section of `s` from the reader's units and unit fields and
 * the tally `t` (the run's, or the rows counted again). */
static om_status summary_units(om_h5_reader *r, om_summary *s, const om_tally *t)
{
    const size_t nu = om_h5_reader_unit_count(r), nf = om_h5_reader_unit_field_count(r);
    om_status st = OM_OK;
    if (nu == 0 || nf == 0)
        return OM_OK;
    s->units = calloc(nu, sizeof *s->units);
    s->unit_fields = calloc(nf, sizeof *s->unit_fields);
    s->unit_hist = malloc(t->unit_total * sizeof *s->unit_hist);
    if (s->units == NULL || s->unit_fields == NULL || s->unit_hist == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
    memcpy(s->unit_hist, t->unit_hist, t->unit_total * sizeof *s->unit_hist);
    for (size_t u = 0; u < nu; u++) {
        const om_layout_unit *from = om_h5_reader_unit(r, u);
        om_layout_unit *to = &s->units[s->unit_count++];
        *to = *from;
        to->id = copy_text(from->id);
        to->name = copy_text(from->name);
        to->army = copy_text(from->army);
        if (to->id == NULL || to->name == NULL || to->army == NULL)
            return OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
    }
    for (size_t f = 0; f < nf && st == OM_OK; f++) {
        bool declared = false;
        /* The parts of a two-byte value have a table of their own. */
        if ((st = om_summary_unit_field_declared(r, om_h5_reader_unit_field(r, f)->name,
                                                 &declared)) != OM_OK)
            return st;
        if (declared)
            continue;
        om_summary_unit_field *uf = &s->unit_fields[s->unit_field_count++];
        om_field *def = calloc(1, sizeof *def);
        if (def == NULL)
            return OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
        *def = *om_h5_reader_unit_field(r, f);
        uf->field = def;
        def->name = copy_text(def->name);
        def->description = copy_text(def->description);
        def->title = NULL;
        uf->unit = calloc(nu, sizeof *uf->unit);
        if (def->name == NULL || def->description == NULL || uf->unit == NULL)
            return OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
        for (size_t u = 0; u < nu && st == OM_OK; u++)
            st = om_summary_unit_stat_of(s->unit_hist + t->unit_base[f] + u * t->unit_bins[f],
                                         (unsigned)t->unit_bins[f], s->trials, s->confidence,
                                         &uf->unit[u]);
    }
    return st;
}

/* Fill `s` from the file's tallies, or from its rows when from_rows. */
static om_status summary_fill(om_h5_reader *r, om_summary *s, bool from_rows)
{
    size_t n_fields = 0;
    hist_source src = {.r = r};
    om_tally *tally = NULL;
    om_status st = OM_OK;

    if ((st = read_provenance(r, s)) != OM_OK || (st = copy_fields(r, s)) != OM_OK)
        return st;
    /* The exact law, if the run recorded one (an older file has none). */
    if ((st = om_h5_reader_exact(r, &s->exact)) == OM_ENOTFOUND) {
        om_error_clear();
        st = OM_OK;
    }
    if (st != OM_OK)
        return st;
    if ((tally = malloc(sizeof *tally)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
    /* From the rows: every row counted again, which must agree with the
     * tallies, value by value. */
    if ((st = from_rows ? om_h5_reader_check_rows(r, tally) : om_h5_reader_tally(r, tally))
        != OM_OK) {
        free(tally);
        return st;
    }
    src.tally = tally;
    for (size_t i = 0; i < s->def_count; i++)
        n_fields += s->defs[i].type != OM_FIELD_WINNER;
    s->fields = n_fields > 0 ? calloc(n_fields, sizeof *s->fields) : NULL;
    if ((n_fields > 0 && s->fields == NULL) ||
        (om_h5_reader_points_rule(r) != NULL &&
         (s->points_rule = strdup(om_h5_reader_points_rule(r))) == NULL)) {
        free(tally);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", s->file);
    }
    /* The main outcome first, whatever the order of the file's fields. */
    for (size_t i = 0; i < s->def_count && st == OM_OK; i++)
        if (s->defs[i].type == OM_FIELD_WINNER && strcmp(s->defs[i].name, "winner") == 0)
            st = summary_outcome(&src, s, i);
    for (size_t i = 0; i < s->def_count && st == OM_OK; i++) {
        const om_field *f = &s->defs[i];
        if (f->type == OM_FIELD_WINNER) {
            if (strcmp(f->name, "winner") != 0)
                st = summary_outcome(&src, s, i);
        } else {
            om_summary_field *sf = &s->fields[s->field_count++];
            sf->field = f;
            sf->exact = exact_law(s, i);
            if (f->type == OM_FIELD_COUNT16)
                st = summary_wide(&src, i, f, sf, s->trials, s->confidence);
            else if ((st = field_hist(&src, i, f, sf->hist)) == OM_OK)
                st = field_stats(sf, s->trials, s->confidence);
        }
    }
    if (st == OM_OK)
        st = summary_units(r, s, tally);
    free(tally);
    if (st == OM_OK)
        st = points_lost(r, s);
    if (st == OM_OK)
        st = om_summary_fill_declared(r, s);
    return st;
}

/* om_summary_compute and om_summary_compute_rows. */
static om_status compute(om_h5_reader *r, double confidence, bool from_rows, om_summary **out)
{
    om_summary *s;
    om_status st;
    if (r == NULL || out == NULL)
        return OM_ERROR(OM_EINVAL, "om_summary_compute: missing reader or output");
    *out = NULL;
    if (!(confidence > 0.0 && confidence < 1.0))
        return OM_ERROR(OM_EINVAL, "confidence must lie strictly between 0 and 1 (got %g)",
                        confidence);
    s = calloc(1, sizeof *s);
    if (s == NULL || (s->file = strdup(om_h5_reader_path(r))) == NULL) {
        free(s);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", om_h5_reader_path(r));
    }
    s->trials = om_h5_reader_trials(r);
    s->confidence = confidence;
    if ((st = summary_fill(r, s, from_rows)) != OM_OK) {
        om_summary_free(s);
        return st;
    }
    *out = s;
    return OM_OK;
}

om_status om_summary_compute(om_h5_reader *r, double confidence, om_summary **out)
{
    return compute(r, confidence, false, out);
}

om_status om_summary_compute_rows(om_h5_reader *r, double confidence, om_summary **out)
{
    return compute(r, confidence, true, out);
}

void om_summary_free(om_summary *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->def_count; i++) {
        free((char *)s->defs[i].name);
        free((char *)s->defs[i].description);
        free((char *)s->defs[i].title);
    }
    free(s->defs);
    om_exact_free(s->exact);
    free((char *)s->lost[0].unit);
    free((char *)s->lost[1].unit);
    free(s->points_rule);
    free(s->stop_reason);
    for (size_t i = 0; i < s->field_count; i++)
        free(s->fields[i].values);
    free(s->fields);
    for (size_t u = 0; u < s->unit_count; u++) {
        free((char *)s->units[u].id);
        free((char *)s->units[u].name);
        free((char *)s->units[u].army);
    }
    free(s->units);
    for (size_t f = 0; f < s->unit_field_count; f++) {
        if (s->unit_fields[f].field != NULL) {
            free((char *)s->unit_fields[f].field->name);
            free((char *)s->unit_fields[f].field->description);
        }
        free((om_field *)s->unit_fields[f].field);
        free(s->unit_fields[f].unit);
    }
    free(s->unit_fields);
    free(s->unit_hist);
    om_summary_free_declared(s);
    free(s->unit[0]);
    free(s->unit[1]);
    free(s->program_version);
    free(s->kind);
    free(s->ruleset);
    free(s->title);
    free(s->file);
    free(s);
}

/* ---------------------------------------------------------------- output */

/* Longest unit field name or unit id in a CSV row's field column. */
#define OM_CSV_NAME_MAX 128

static const char *or_unknown(const char *s)
{
    return s != NULL && s[0] != '\0' ? s : "(unknown)";
}

/*
 * A probability in 6 characters: 4 decimals, or for a value that would print as
 * 0.0000 but is not 0 (a rare event in a large run) one significant digit,
 * "3e-05", so the report never shows a possible event as impossible.
 */
static void text_num(FILE *out, double p)
{
    if (p == 0.0 || p >= 0.00005)
        fprintf(out, "%.4f", p);
    else
        fprintf(out, "%6.0e", p);
}

/* "0.6123 [0.6113, 0.6133]" */
static void text_prob(FILE *out, const om_summary_prob *p)
{
    text_num(out, p->p);
    fprintf(out, " [");
    text_num(out, p->lo);
    fprintf(out, ", ");
    text_num(out, p->hi);
    fprintf(out, "]");
}

static void text_unit(FILE *out, const om_summary *s, int side)
{
    fprintf(out, "%s = %s", side_label[side], or_unknown(s->unit[side]));
    if (s->points[side] > 0)
        fprintf(out, " (%llu points)", (unsigned long long)s->points[side]);
}

/* An exact probability: 6 decimals, or for a value that would print as
 * 0.000000 but is not 0, two significant digits ("3.2e-08"). */
static void text_exact(FILE *out, double p)
{
    if (p == 0.0 || p >= 0.0000005)
        fprintf(out, "%.6f", p);
    else
        fprintf(out, "%.1e", p);
}

/* An outcome table: per side P(win), P(draw), P(lose) with intervals, each
 * side's exact values under its estimates when the run recorded them, and
 * the probability of no winner when it ever happened or is possible. */
static void text_outcome(FILE *out, const char *ci, const char *title,
                         const om_summary_prob table[2][3], const om_summary_prob *none)
{
    char head[3][48];
    fprintf(out, "\n%s\n", title);
    snprintf(head[0], sizeof head[0], "P(win) [%s CI]", ci);
    snprintf(head[1], sizeof head[1], "P(draw) [%s CI]", ci);
    snprintf(head[2], sizeof head[2], "P(lose) [%s CI]", ci);
    /* Columns are 26 wide: a 23-character "p [lo, hi]" and 3 spaces. */
    fprintf(out, "  side  %-26s%-26s%s\n", head[0], head[1], head[2]);
    for (int side = 0; side < 2; side++) {
        fprintf(out, "  %-4s  ", side_label[side]);
        for (int c = 0; c < 3; c++) {
            text_prob(out, &table[side][c]);
            fprintf(out, c < 2 ? "   " : "\n");
        }
        if (!table[side][0].has_exact)
            continue;
        /* "exact 0.853464" under each estimate, in its 26-wide column. */
        fprintf(out, "        ");
        for (int c = 0; c < 3; c++) {
            fprintf(out, "exact ");
            text_exact(out, table[side][c].exact);
            fprintf(out, c < 2 ? "            " : "\n");
        }
    }
    if (none->count > 0 || (none->has_exact && none->exact > 0.0)) {
        fprintf(out, "  no winner (no contact, or unresolved at the turn limit): ");
        text_prob(out, none);
        if (none->has_exact) {
            fprintf(out, "; exact ");
            text_exact(out, none->exact);
        }
        fprintf(out, "\n");
    }
}

/* Victory points lost by each side whose file records how it loses them. */
static void text_points(FILE *out, const om_summary *s)
{
    if (!s->lost[0].known && !s->lost[1].known)
        return;
    fprintf(out, "\nVictory points lost");
    if (s->points_rule)
        fprintf(out, " (%s)", s->points_rule);
    fprintf(out, "\n");
    for (int side = 0; side < 2; side++) {
        const om_summary_points *pl = &s->lost[side];
        if (!pl->known)
            continue;
        fprintf(out, "  %s %s (%llu points, %u %s): mean %.2f;", side_label[side],
                or_unknown(s->unit[side]), (unsigned long long)pl->points, pl->start, pl->unit,
                pl->mean);
        for (size_t i = 0; i < pl->n_values; i++)
            fprintf(out, " P(%u) %.4f%s", pl->value[i], pl->p[i],
                    i + 1 < pl->n_values ? "," : "");
        fprintf(out, "\n");
        if (!pl->has_exact)
            continue;
        fprintf(out, "    exact: mean %.4f;", pl->exact_mean);
        for (size_t i = 0; i < pl->n_values; i++) {
            fprintf(out, " P(%u) ", pl->value[i]);
            text_exact(out, pl->exact_p[i]);
            fprintf(out, "%s", i + 1 < pl->n_values ? "," : "");
        }
        fprintf(out, "\n");
    }
}

/* The line of the header that says which fields have an exact law, and how
 * it was computed, or why none has (nothing for a file without the law). */
static void text_exact_header(FILE *out, const om_summary *s)
{
    size_t known;
    if (s->exact == NULL)
        return;
    known = om_exact_known_count(s->exact);
    fprintf(out, "  exact:     ");
    if (known == 0) {
        fprintf(out, "none known: %s\n", or_unknown(s->exact->reason));
        return;
    }
    if (s->exact->reason[0] == '\0') {
        fprintf(out, "every field's law, by %s\n", s->exact->method);
        return;
    }
    for (size_t i = 0, n = 0; i < s->def_count; i++)
        if (s->exact->known[i])
            fprintf(out, "%s%s", n++ > 0 ? ", " : "", s->defs[i].name);
    fprintf(out, ": by %s;\n             %s\n", s->exact->method, s->exact->reason);
}

/* The table of a count field: k, P(=k), P(>=k) and its interval, and with
 * its exact law the exact P(=k) and P(>=k). */
static void text_count_table(FILE *out, const om_summary *s, const om_summary_field *sf,
                             const char *ci)
{
    fprintf(out, "  %5s  %-8s  %-8s  [%s CI]", "k", "P(=k)", "P(>=k)", ci);
    /* The exact columns start 4 after the 16-character interval "[lo, hi]",
     * whose heading "[C CI]" is shorter. */
    if (sf->exact != NULL) {
        const int pad = (int)(sizeof "[0.0000, 0.0000]" - 1 + 4) - (int)(strlen(ci) + 5);
        fprintf(out, "%*sexact P(=k)  P(>=k)", pad > 1 ? pad : 1, "");
    }
    fprintf(out, "\n");
    for (unsigned k = 0; k <= sf->shown; k++) {
        const om_summary_prob *al = &sf->at_least[k];
        fprintf(out, "  %5u  ", k);
        text_num(out, (double)sf->hist[k] / (double)s->trials);
        fprintf(out, "    ");
        text_num(out, al->p);
        if (k > 0) {
            fprintf(out, "    [");
            text_num(out, al->lo);
            fprintf(out, ", ");
            text_num(out, al->hi);
            fprintf(out, "]");
        } else if (sf->exact != NULL) {
            fprintf(out, "%*s", (int)(sizeof "    [0.0000, 0.0000]" - 1), "");
        }
        if (sf->exact != NULL) {
            fprintf(out, "    ");
            text_exact(out, sf->exact[k]);
            fprintf(out, "%*s", sf->exact[k] == 0.0 || sf->exact[k] >= 0.0000005 ? 5 : 6, "");
            text_exact(out, al->exact);
        }
        fprintf(out, "\n");
    }
}

/* The rows of a two-byte count field: only the values that occurred. */
static void text_values(FILE *out, const om_summary_field *sf)
{
    for (size_t i = 0; i < sf->n_values; i++) {
        const om_summary_value *v = &sf->values[i];
        fprintf(out, "  %5u  ", v->value);
        text_num(out, v->p_equal);
        fprintf(out, "    ");
        text_num(out, v->at_least.p);
        if (v->value > 0) {
            fprintf(out, "    [");
            text_num(out, v->at_least.lo);
            fprintf(out, ", ");
            text_num(out, v->at_least.hi);
            fprintf(out, "]");
        }
        fprintf(out, "\n");
    }
}

/* Per-unit results: for each unit field its description, then a row per
 * unit: id, name, side, and a flag's P(=1) or a count's mean, sd and P(>=1),
 * with their intervals. */
static void text_units(FILE *out, const om_summary *s, const char *ci)
{
    int wid = 4, wname = 4;
    if (s->unit_field_count == 0)
        return;
    for (size_t u = 0; u < s->unit_count; u++) {
        const int a = (int)strlen(s->units[u].id), b = (int)strlen(s->units[u].name);
        wid = a > wid ? a : wid;
        wname = b > wname ? b : wname;
    }
    fprintf(out, "\nPer unit: each unit's value in each trial (/units in the file)\n");
    for (size_t f = 0; f < s->unit_field_count; f++) {
        const om_summary_unit_field *uf = &s->unit_fields[f];
        const bool flag = uf->field->type == OM_FIELD_FLAG;
        fprintf(out, "\n%s: %s\n", uf->field->name, uf->field->description);
        if (flag)
            fprintf(out, "  %-*s  %-*s  side  P(=1)  [%s CI]\n", wid, "unit", wname, "name", ci);
        else
            fprintf(out, "  %-*s  %-*s  side  mean    sd      P(>=1) [%s CI]\n", wid, "unit",
                    wname, "name", ci);
        for (size_t u = 0; u < s->unit_count; u++) {
            const om_summary_unit_stat *st = &uf->unit[u];
            fprintf(out, "  %-*s  %-*s  %-4s  ", wid, s->units[u].id, wname, s->units[u].name,
                    side_label[s->units[u].side != 0]);
            if (!flag)
                fprintf(out, "%.4f  %.4f  ", st->mean, st->sd);
            text_prob(out, &st->p);
            fprintf(out, "\n");
        }
    }
}

/* Width of the flags' name column: 14, or the longest flag's name. */
static int flag_name_width(const om_summary *s)
{
    size_t w = 14;
    for (size_t i = 0; i < s->field_count; i++)
        if (s->fields[i].field->type == OM_FIELD_FLAG && strlen(s->fields[i].field->name) > w)
            w = strlen(s->fields[i].field->name);
    return (int)w;
}

om_status om_summary_print_text(const om_summary *s, FILE *out)
{
    /* "95%": the interval label of every table. */
    char ci[32];
    bool any_flag = false;

    if (s == NULL || out == NULL)
        return OM_ERROR(OM_EINVAL, "om_summary_print_text: missing summary or stream");
    snprintf(ci, sizeof ci, "%g%%", 100.0 * s->confidence);
    errno = 0;

    fprintf(out, "Summary of %s\n", s->file);
    fprintf(out, "  title:     %s\n", or_unknown(s->title));
    fprintf(out, "  rule set:  %s\n", or_unknown(s->ruleset));
    fprintf(out, "  kind:      %s\n", or_unknown(s->kind));
    fprintf(out, "  units:     ");
    text_unit(out, s, 0);
    fprintf(out, ", ");
    text_unit(out, s, 1);
    fprintf(out, "\n  trials:    %llu\n", (unsigned long long)s->trials);
    if (!s->complete)
        fprintf(out, "  status:    INCOMPLETE: %llu of %llu trials (%s)\n",
                (unsigned long long)s->trials, (unsigned long long)s->trials_requested,
                or_unknown(s->stop_reason));
    else if (s->trials < s->trials_requested)
        fprintf(out, "  stopped:   after %llu of at most %llu trials: %s\n",
                (unsigned long long)s->trials, (unsigned long long)s->trials_requested,
                or_unknown(s->stop_reason));
    if (s->has_seed)
        fprintf(out, "  seed:      %llu\n", (unsigned long long)s->seed);
    else
        fprintf(out, "  seed:      (unknown)\n");
    fprintf(out, "  program:   oddsmaster %s\n", or_unknown(s->program_version));
    fprintf(out, "  intervals: %s Wilson score intervals\n", ci);
    text_exact_header(out, s);

    if (s->has_outcome)
        text_outcome(out, ci, s->outcome_title ? s->outcome_title : "Outcome", s->outcome,
                     &s->none);
    if (s->has_round1)
        text_outcome(out, ci, s->round1_title ? s->round1_title : "First round", s->round1,
                     &s->round1_none);
    text_points(out, s);
    om_summary_text_margin(s, out, ci);

    for (size_t i = 0; i < s->field_count; i++) {
        const om_summary_field *sf = &s->fields[i];
        if (sf->field->type == OM_FIELD_FLAG) {
            any_flag = true;
            continue;
        }
        fprintf(out, "\n%s: %s\n", sf->field->name, sf->field->description);
        if (sf->shown == 0) {
            fprintf(out, sf->exact != NULL ? "  always 0 (exact: always 0)\n" : "  always 0\n");
            continue;
        }
        fprintf(out, "  mean %.4f, sd %.4f, max %u", sf->mean, sf->sd, sf->max);
        if (sf->exact != NULL) {
            const size_t i = (size_t)(sf->field - s->defs);
            fprintf(out, "; exact mean %.6f, sd %.6f, max %u", om_exact_mean(s->exact, i),
                    om_exact_sd(s->exact, i), sf->shown);
        }
        fprintf(out, "\n");
        if (sf->values != NULL) {
            fprintf(out, "  %5s  %-8s  %-8s  [%s CI]\n", "k", "P(=k)", "P(>=k)", ci);
            text_values(out, sf);
            continue;
        }
        text_count_table(out, s, sf, ci);
    }

    if (any_flag) {
        bool any_exact = false;
        for (size_t i = 0; i < s->field_count; i++)
            any_exact |= s->fields[i].field->type == OM_FIELD_FLAG && s->fields[i].exact != NULL;
        fprintf(out, "\nFlags: probability that each is set [%s CI]%s\n", ci,
                any_exact ? ", and exactly" : "");
        for (size_t i = 0; i < s->field_count; i++) {
            const om_summary_field *sf = &s->fields[i];
            if (sf->field->type != OM_FIELD_FLAG)
                continue;
            fprintf(out, "  %-*s ", flag_name_width(s), sf->field->name);
            text_prob(out, &sf->at_least[1]);
            if (sf->exact != NULL) {
                fprintf(out, "  exact ");
                text_exact(out, sf->at_least[1].exact);
            } else if (any_exact) {
                fprintf(out, "%*s", (int)(sizeof "  exact 0.000000" - 1), "");
            }
            fprintf(out, "  %s\n", sf->field->description);
        }
    }
    text_units(out, s, ci);
    om_summary_text_deciders(s, out, ci);
    om_summary_text_unit_points(s, out, ci);
    om_summary_text_warnings(s, out);
    return om_output_finish(out, "summary");
}

/* The exact value of p, or null. */
static json_t *json_exact(const om_summary_prob *p)
{
    return p->has_exact ? json_real(p->exact) : json_null();
}

/* {"p": .., "lo": .., "hi": .., "exact": .. or null} */
static json_t *json_prob(const om_summary_prob *p)
{
    return json_pack("{s:f, s:f, s:f, s:o}", "p", p->p, "lo", p->lo, "hi", p->hi, "exact",
                     json_exact(p));
}

/*
 * A u64 as a JSON integer when jansson's signed 64-bit integer holds it, else as
 * its decimal string (a seed may use all 64 bits).
 */

/* {"a": {"win", "draw", "lose"}, "b": {...}, "none": P}; null when absent. */
static json_t *json_outcome(bool present, const om_summary_prob table[2][3],
                            const om_summary_prob *none)
{
    json_t *o;
    if (!present)
        return json_null();
    o = json_object();
    for (int side = 0; side < 2 && o != NULL; side++) {
        json_t *so = json_object();
        for (int c = 0; c < 3 && so != NULL; c++)
            if (json_object_set_new(so, outcome_key[c], json_prob(&table[side][c])) != 0) {
                json_decref(so);
                so = NULL;
            }
        if (json_object_set_new(o, side_key[side], so) != 0) {
            json_decref(o);
            o = NULL;
        }
    }
    if (o != NULL && json_object_set_new(o, "none", json_prob(none)) != 0) {
        json_decref(o);
        o = NULL;
    }
    return o;
}

/* The exact law of a side's victory points lost: {"mean", "distribution":
 * {"vp": p}}, or null. */
static json_t *json_points_exact(const om_summary_points *pl)
{
    json_t *dist;
    char key[16];
    if (!pl->has_exact)
        return json_null();
    dist = json_object();
    for (size_t i = 0; i < pl->n_values && dist != NULL; i++) {
        snprintf(key, sizeof key, "%u", pl->value[i]);
        json_object_set_new(dist, key, json_real(pl->exact_p[i]));
    }
    return json_pack("{s:f, s:o}", "mean", pl->exact_mean, "distribution", dist);
}

/* {"a": {"points", "stands", "mean", "distribution": {"vp": p}, "exact"},
 * "b": ...}; a side whose points or stands are unknown is null. */
static json_t *json_points(const om_summary *s)
{
    json_t *o = json_object();
    for (int side = 0; side < 2 && o != NULL; side++) {
        const om_summary_points *pl = &s->lost[side];
        json_t *so = json_null(), *dist;
        char key[16];
        if (pl->known) {
            dist = json_object();
            for (size_t i = 0; i < pl->n_values && dist != NULL; i++) {
                snprintf(key, sizeof key, "%u", pl->value[i]);
                json_object_set_new(dist, key, json_real(pl->p[i]));
            }
            so = json_pack("{s:I, s:I, s:f, s:o, s:o}", "points", (json_int_t)pl->points,
                           pl->unit, (json_int_t)pl->start, "mean", pl->mean, "distribution",
                           dist, "exact", json_points_exact(pl));
        }
        if (json_object_set_new(o, side_key[side], so) != 0) {
            json_decref(o);
            o = NULL;
        }
    }
    return o;
}

/* The exact law of a field: {"mean", "sd", "max", "distribution": {"v": P(=v),
 * the non-zero ones}, "at_least": {"k": P(>=k), k = 1..max}}, and for a flag
 * "p", the probability that it is set; null when it has none. NULL when out
 * of memory. */
static json_t *json_field_exact(const om_summary *s, const om_summary_field *sf)
{
    const size_t i = (size_t)(sf->field - s->defs);
    json_t *dist, *at_least, *e;
    bool ok;
    char key[8];
    if (sf->exact == NULL)
        return json_null();
    dist = json_object();
    at_least = json_object();
    ok = dist != NULL && at_least != NULL;
    for (unsigned v = 0; ok && v <= sf->shown; v++) {
        snprintf(key, sizeof key, "%u", v);
        if (sf->exact[v] > 0.0)
            ok = json_object_set_new(dist, key, json_real(sf->exact[v])) == 0;
        if (ok && v > 0)
            ok = json_object_set_new(at_least, key, json_real(sf->at_least[v].exact)) == 0;
    }
    if (!ok) {
        json_decref(dist);
        json_decref(at_least);
        return NULL;
    }
    e = json_pack("{s:f, s:f, s:I, s:o, s:o}", "mean", om_exact_mean(s->exact, i), "sd",
                  om_exact_sd(s->exact, i), "max", (json_int_t)sf->shown, "distribution", dist,
                  "at_least", at_least);
    if (e != NULL && sf->field->type == OM_FIELD_FLAG &&
        json_object_set_new(e, "p", json_real(sf->at_least[1].exact)) != 0) {
        json_decref(e);
        e = NULL;
    }
    return e;
}

/* One entry of "fields"; NULL when out of memory. */
static json_t *json_field(const om_summary *s, const om_summary_field *sf)
{
    json_t *dist = json_object(), *at_least = json_object(), *f;
    bool ok = dist != NULL && at_least != NULL;
    char key[8];

    /* A two-byte count: the values that occurred. */
    for (size_t i = 0; ok && sf->values != NULL && i < sf->n_values; i++) {
        const om_summary_value *v = &sf->values[i];
        snprintf(key, sizeof key, "%u", v->value);
        ok = json_object_set_new(dist, key, json_real(v->p_equal)) == 0 &&
             (v->value == 0 || json_object_set_new(at_least, key, json_prob(&v->at_least)) == 0);
    }
    for (unsigned v = 0; ok && sf->values == NULL && v <= sf->max; v++) {
        if (sf->hist[v] == 0)
            continue;
        snprintf(key, sizeof key, "%u", v);
        ok = json_object_set_new(dist, key, json_real((double)sf->hist[v] / (double)s->trials))
             == 0;
    }
    for (unsigned k = 1; ok && sf->values == NULL && k <= sf->shown; k++) {
        snprintf(key, sizeof key, "%u", k);
        ok = json_object_set_new(at_least, key, json_prob(&sf->at_least[k])) == 0;
    }
    if (!ok) {
        json_decref(dist);
        json_decref(at_least);
        return NULL;
    }
    /* json_pack takes over dist and at_least ("o"), also when it fails. */
    f = json_pack("{s:s, s:s, s:f, s:f, s:I, s:o, s:o}", "description", sf->field->description,
                  "type", sf->field->type == OM_FIELD_FLAG ? "flag" : "count", "mean", sf->mean,
                  "sd", sf->sd, "max", (json_int_t)sf->max, "distribution", dist, "at_least",
                  at_least);
    if (f != NULL && sf->field->type == OM_FIELD_FLAG) {
        const om_summary_prob *set = &sf->at_least[1];
        if (json_object_set_new(f, "p", json_real(set->p)) != 0
            || json_object_set_new(f, "lo", json_real(set->lo)) != 0
            || json_object_set_new(f, "hi", json_real(set->hi)) != 0) {
            json_decref(f);
            f = NULL;
        }
    }
    if (f != NULL && json_object_set_new(f, "exact", json_field_exact(s, sf)) != 0) {
        json_decref(f);
        f = NULL;
    }
    return f;
}

/* What the file says of its exact law: {"method", "reason", "outcomes",
 * "fields": [names]}, or null (a file that records none). NULL when out of
 * memory. */
static json_t *json_exact_about(const om_summary *s)
{
    json_t *names;
    if (s->exact == NULL)
        return json_null();
    names = json_array();
    for (size_t i = 0; names != NULL && i < s->def_count; i++)
        if (s->exact->known[i] && json_array_append_new(names, json_string(s->defs[i].name)) != 0) {
            json_decref(names);
            names = NULL;
        }
    return json_pack("{s:s, s:s, s:o, s:o}", "method", s->exact->method, "reason",
                     s->exact->reason, "outcomes", om_output_json_u64(s->exact->outcomes),
                     "fields", names);
}

/* The whole JSON document; NULL when out of memory. */
/* {"p", "lo", "hi"} of a probability without an exact value. */
static json_t *json_prob_only(const om_summary_prob *p)
{
    return json_pack("{s:f, s:f, s:f}", "p", p->p, "lo", p->lo, "hi", p->hi);
}

/* One unit's results of unit field uf (om_summary_print_json, per_unit). */
static json_t *json_unit_stat(const om_summary *s, const om_summary_unit_field *uf,
                              const om_summary_unit_stat *st)
{
    json_t *dist = json_object(), *o;
    char key[16];
    for (unsigned v = 0; dist != NULL && v <= uf->field->max; v++) {
        if (st->hist[v] == 0)
            continue;
        snprintf(key, sizeof key, "%u", v);
        if (json_object_set_new(dist, key, json_real((double)st->hist[v] /
                                                     (double)s->trials)) != 0) {
            json_decref(dist);
            dist = NULL;
        }
    }
    o = json_pack("{s:f, s:f, s:I, s:o}", "mean", st->mean, "sd", st->sd, "max",
                  (json_int_t)st->max, "distribution", dist);
    if (o != NULL && json_object_set_new(o, uf->field->type == OM_FIELD_FLAG ? "p"
                                                                              : "at_least_1",
                                         json_prob_only(&st->p)) != 0) {
        json_decref(o);
        o = NULL;
    }
    return o;
}

/* The per_unit object (om_summary_print_json), or null without units. */
static json_t *json_per_unit(const om_summary *s)
{
    json_t *units, *fields, *o;
    if (s->unit_field_count == 0)
        return json_null();
    units = json_array();
    for (size_t u = 0; units != NULL && u < s->unit_count; u++) {
        const om_layout_unit *lu = &s->units[u];
        if (json_array_append_new(units, json_pack("{s:s, s:s, s:s, s:s, s:I}", "id", lu->id,
                                                   "name", lu->name, "army", lu->army, "side",
                                                   side_key[lu->side != 0], "points",
                                                   (json_int_t)lu->points)) != 0) {
            json_decref(units);
            units = NULL;
        }
    }
    fields = json_object();
    for (size_t f = 0; fields != NULL && f < s->unit_field_count; f++) {
        const om_summary_unit_field *uf = &s->unit_fields[f];
        json_t *per = json_object();
        for (size_t u = 0; per != NULL && u < s->unit_count; u++)
            if (json_object_set_new(per, s->units[u].id, json_unit_stat(s, uf, &uf->unit[u]))
                != 0) {
                json_decref(per);
                per = NULL;
            }
        o = json_pack("{s:s, s:s, s:I, s:o}", "description", uf->field->description, "type",
                      uf->field->type == OM_FIELD_FLAG ? "flag" : "count", "max",
                      (json_int_t)uf->field->max, "units", per);
        if (o == NULL || json_object_set_new(fields, uf->field->name, o) != 0) {
            json_decref(fields);
            fields = NULL;
        }
    }
    return json_pack("{s:o, s:o}", "units", units, "fields", fields);
}

static json_t *json_summary(const om_summary *s)
{
    json_t *units, *fields, *root;

    units = json_pack("{s:{s:s?, s:I}, s:{s:s?, s:I}}", "a", "name", s->unit[0], "points",
                      (json_int_t)s->points[0], "b", "name", s->unit[1], "points",
                      (json_int_t)s->points[1]);
    fields = json_object();
    for (size_t i = 0; fields != NULL && i < s->field_count; i++)
        if (json_object_set_new(fields, s->fields[i].field->name, json_field(s, &s->fields[i]))
            != 0) {
            json_decref(fields);
            fields = NULL;
        }
    /* "o" takes over its argument even on failure, so nothing leaks when one is NULL. */
    root = json_pack("{s:s, s:s, s:s?, s:s?, s:s?, s:o, s:o, s:s?, s:o, s:o, s:o, s:o, s:o,"
                     " s:f}",
                     "schema", OM_SUMMARY_SCHEMA, "file", s->file, "title", s->title, "ruleset",
                     s->ruleset, "kind", s->kind, "trials", om_output_json_u64(s->trials), "seed",
                     s->has_seed ? om_output_json_u64(s->seed) : json_null(), "program_version",
                     s->program_version, "units", units, "outcome",
                     json_outcome(s->has_outcome, s->outcome, &s->none), "round1_outcome",
                     json_outcome(s->has_round1, s->round1, &s->round1_none), "points_lost",
                     json_points(s), "fields", fields, "confidence", s->confidence);
    if (root != NULL &&
        json_object_set_new(root, "run",
                            json_pack("{s:b, s:o, s:s?}", "complete", (int)s->complete,
                                      "trials_requested",
                                      om_output_json_u64(s->trials_requested), "stop_reason",
                                      s->stop_reason)) != 0) {
        json_decref(root);
        root = NULL;
    }
    if (root != NULL && json_object_set_new(root, "exact", json_exact_about(s)) != 0) {
        json_decref(root);
        root = NULL;
    }
    if (root != NULL && json_object_set_new(root, "per_unit", json_per_unit(s)) != 0) {
        json_decref(root);
        root = NULL;
    }
    if (root != NULL && om_summary_json_declared(s, root) != 0) {
        json_decref(root);
        root = NULL;
    }
    return root;
}

om_status om_summary_print_json(const om_summary *s, FILE *out)
{
    json_t *root;
    int rc;
    if (s == NULL || out == NULL)
        return OM_ERROR(OM_EINVAL, "om_summary_print_json: missing summary or stream");
    if ((root = json_summary(s)) == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory building the JSON summary", s->file);
    errno = 0;
    /* 15 significant digits: round-trips the printed decimals and keeps 0.1 as 0.1. */
    rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
    json_decref(root);
    if (rc != 0)
        return OM_ERROR(OM_EIO, "cannot write the summary: %s",
                        errno != 0 ? strerror(errno) : "write error");
    fputc('\n', out);
    return om_output_finish(out, "summary");
}

/* One row; the exact columns empty when the law is not known (exact_equal
 * is then ignored). */
static void csv_row(FILE *out, const char *field, unsigned k, double p_equal,
                    const om_summary_prob *at_least, double exact_equal)
{
    fprintf(out, "%s,%u,%.10g,%.10g,%.10g,%.10g,", field, k, p_equal, at_least->p,
            at_least->lo, at_least->hi);
    if (at_least->has_exact)
        fprintf(out, "%.10g,%.10g\n", exact_equal, at_least->exact);
    else
        fprintf(out, ",\n");
}

om_status om_summary_print_csv(const om_summary *s, FILE *out)
{
    static const char *const outcome_row[2][3] = {{"win_a", "draw_a", "lose_a"},
                                                  {"win_b", "draw_b", "lose_b"}};
    if (s == NULL || out == NULL)
        return OM_ERROR(OM_EINVAL, "om_summary_print_csv: missing summary or stream");
    errno = 0;
    fprintf(out, "field,k,p_equal,p_at_least,lo,hi,exact_equal,exact_at_least\n");
    for (size_t i = 0; i < s->field_count; i++) {
        const om_summary_field *sf = &s->fields[i];
        for (size_t k = 0; sf->values != NULL && k < sf->n_values; k++)
            csv_row(out, sf->field->name, sf->values[k].value, sf->values[k].p_equal,
                    &sf->values[k].at_least, 0.0);
        for (unsigned k = 0; sf->values == NULL && k <= sf->shown; k++)
            csv_row(out, sf->field->name, k, (double)sf->hist[k] / (double)s->trials,
                    &sf->at_least[k], sf->exact != NULL ? sf->exact[k] : 0.0);
    }
    static const char *const round1_row[2][3] = {{"round1_win_a", "round1_draw_a",
                                                  "round1_lose_a"},
                                                 {"round1_win_b", "round1_draw_b",
                                                  "round1_lose_b"}};
    if (s->has_outcome) {
        for (int side = 0; side < 2; side++)
            for (int c = 0; c < 3; c++)
                csv_row(out, outcome_row[side][c], 1, s->outcome[side][c].p,
                        &s->outcome[side][c], s->outcome[side][c].exact);
        csv_row(out, "none", 1, s->none.p, &s->none, s->none.exact);
    }
    if (s->has_round1)
        for (int side = 0; side < 2; side++)
            for (int c = 0; c < 3; c++)
                csv_row(out, round1_row[side][c], 1, s->round1[side][c].p, &s->round1[side][c],
                        s->round1[side][c].exact);
    /* Per-unit results: FIELD[UNIT], k = 0..the field's max. */
    for (size_t f = 0; f < s->unit_field_count; f++)
        for (size_t u = 0; u < s->unit_count; u++) {
            const om_summary_unit_stat *st = &s->unit_fields[f].unit[u];
            char name[2 * OM_CSV_NAME_MAX];
            uint64_t tail = s->trials;
            snprintf(name, sizeof name, "%s[%s]", s->unit_fields[f].field->name,
                     s->units[u].id);
            for (unsigned k = 0; k <= s->unit_fields[f].field->max; k++) {
                om_summary_prob at_least;
                /* The interval of a probability computed from the summary's
                 * own counts, at its confidence (valid: checked at compute). */
                (void)prob_set(&at_least, tail, s->trials, s->confidence);
                if (k == 0)
                    at_least.lo = at_least.hi = 1.0; /* certain, as the fields' rows */
                csv_row(out, name, k, (double)st->hist[k] / (double)s->trials, &at_least, 0.0);
                tail -= st->hist[k];
            }
        }
    return om_output_finish(out, "summary");
}

om_status om_summary_print_file(const char *path, om_summary_format format, double confidence,
                                bool from_rows, FILE *out)
{
    om_h5_reader *reader = NULL;
    om_summary *summary = NULL;
    om_status st = om_h5_reader_open(&reader, path);
    if (st == OM_OK)
        st = compute(reader, confidence, from_rows, &summary);
    if (st == OM_OK) {
        switch (format) {
        case OM_SUMMARY_TEXT: st = om_summary_print_text(summary, out); break;
        case OM_SUMMARY_JSON: st = om_summary_print_json(summary, out); break;
        case OM_SUMMARY_CSV: st = om_summary_print_csv(summary, out); break;
        default: st = OM_ERROR(OM_EINVAL, "unknown summary format %d", (int)format); break;
        }
    }
    om_summary_free(summary);
    om_h5_reader_close(reader);
    return st;
}
