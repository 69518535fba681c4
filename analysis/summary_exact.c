/*
 * summary_exact.c: the report of a scenario's exact law alone, without a
 * run (`oddsmaster run --exact`, summary.h): the same sections as a
 * summary (outcome, victory points lost, each count field's distribution,
 * the flags), every number exact and none estimated, computed by the game
 * (engine/core/exact.h) from the scenario's layout.
 */
#include <errno.h>
#include <string.h>

#include "output.h"
#include "summary.h"

/* An exact probability: 6 decimals, or two significant digits for a value
 * that would print as 0.000000 but is not 0. */
static void print_p(FILE *out, double p)
{
    if (p == 0.0 || p >= 0.0000005)
        fprintf(out, "%.6f", p);
    else
        fprintf(out, "%.1e", p);
}

/* The outcome table of winner field k: per side P(win), P(draw), P(lose). */
static void print_outcome(FILE *out, const om_layout *l, const om_exact *x, size_t k)
{
    static const char *const side_label[2] = {"A", "B"};
    fprintf(out, "\n%s\n", l->fields[k].title ? l->fields[k].title : "Outcome");
    fprintf(out, "  side  %-11s%-11s%s\n", "P(win)", "P(draw)", "P(lose)");
    for (int side = 0; side < 2; side++) {
        const unsigned win = side == 0 ? OM_WINNER_A : OM_WINNER_B;
        const unsigned lose = side == 0 ? OM_WINNER_B : OM_WINNER_A;
        const double p[3] = {om_exact_p(x, k, win), om_exact_p(x, k, OM_WINNER_DRAW),
                             om_exact_p(x, k, lose)};
        fprintf(out, "  %-4s", side_label[side]);
        for (int c = 0; c < 3; c++) {
            fprintf(out, "  ");
            print_p(out, p[c]);
            fprintf(out, c < 2 ? " " : "\n");
        }
    }
    if (om_exact_p(x, k, OM_WINNER_NONE) > 0.0) {
        fprintf(out, "  no winner (no contact, or unresolved at the turn limit): ");
        print_p(out, om_exact_p(x, k, OM_WINNER_NONE));
        fprintf(out, "\n");
    }
}

/* Each side's victory points lost, for the sides whose loss field is known. */
static void print_points(FILE *out, const om_layout *l, const om_exact *x)
{
    bool any = false;
    for (int s = 0; s < 2; s++) {
        const om_side_score *sc = &l->side[s];
        unsigned value[OM_EXACT_VALUES];
        double p[OM_EXACT_VALUES], mean = 0.0;
        size_t n = 0;
        if (sc->loss_field < 0 || sc->points == 0 || !x->known[sc->loss_field] ||
            om_exact_max(x, (size_t)sc->loss_field) > sc->loss_start)
            continue;
        if (!any)
            fprintf(out, "\nVictory points lost%s%s%s\n", l->points_rule ? " (" : "",
                    l->points_rule ? l->points_rule : "", l->points_rule ? ")" : "");
        any = true;
        /* Each distinct loss once, in increasing order (a table of few values). */
        for (unsigned k = 0; k <= sc->loss_start; k++) {
            const double pk = om_exact_p(x, (size_t)sc->loss_field, k);
            size_t at = 0;
            while (at < n && value[at] < sc->vp_lost[k])
                at++;
            if (at == n || value[at] != sc->vp_lost[k]) {
                memmove(&value[at + 1], &value[at], (n - at) * sizeof value[0]);
                memmove(&p[at + 1], &p[at], (n - at) * sizeof p[0]);
                value[at] = sc->vp_lost[k];
                p[at] = 0.0;
                n++;
            }
            p[at] += pk;
            mean += pk * sc->vp_lost[k];
        }
        fprintf(out, "  %s %s (%u points, %u %s): mean %.4f;", s == 0 ? "A" : "B",
                sc->name ? sc->name : "(unknown)", (unsigned)sc->points, sc->loss_start,
                sc->loss_unit ? sc->loss_unit : "losses", mean);
        for (size_t i = 0; i < n; i++) {
            fprintf(out, " P(%u) ", value[i]);
            print_p(out, p[i]);
            fprintf(out, "%s", i + 1 < n ? "," : "\n");
        }
    }
}

/* A count field: its mean, sd and largest value, and its table. */
static void print_count(FILE *out, const om_layout *l, const om_exact *x, size_t k)
{
    const unsigned max = om_exact_max(x, k);
    fprintf(out, "\n%s: %s\n", l->fields[k].name, l->fields[k].description);
    if (max == 0) {
        fprintf(out, "  always 0\n");
        return;
    }
    fprintf(out, "  mean %.6f, sd %.6f, max %u\n", om_exact_mean(x, k), om_exact_sd(x, k),
            max);
    fprintf(out, "  %5s  %-9s  %s\n", "k", "P(=k)", "P(>=k)");
    for (unsigned v = 0; v <= max; v++) {
        const double p = om_exact_p(x, k, v);
        fprintf(out, "  %5u  ", v);
        print_p(out, p);
        fprintf(out, "%*s", p == 0.0 || p >= 0.0000005 ? 3 : 4, "");
        print_p(out, om_exact_at_least(x, k, v));
        fprintf(out, "\n");
    }
}

om_status om_summary_print_exact(const om_summary_about *about, const om_layout *l,
                                 const om_exact *x, FILE *out)
{
    bool any_flag = false;
    size_t width = 14, missing = 0;

    if (about == NULL || l == NULL || x == NULL || out == NULL ||
        x->field_count != l->field_count)
        return OM_ERROR(OM_EINVAL, "om_summary_print_exact: a law of another layout");
    errno = 0;
    fprintf(out, "Exact law of %s\n", about->source ? about->source : "(unknown)");
    fprintf(out, "  title:     %s\n", about->title ? about->title : "(unknown)");
    fprintf(out, "  rule set:  %s\n", about->ruleset ? about->ruleset : "(unknown)");
    fprintf(out, "  kind:      %s\n", about->kind ? about->kind : "(unknown)");
    fprintf(out, "  units:     A = %s", l->side[0].name ? l->side[0].name : "(unknown)");
    if (l->side[0].points > 0)
        fprintf(out, " (%u points)", (unsigned)l->side[0].points);
    fprintf(out, ", B = %s", l->side[1].name ? l->side[1].name : "(unknown)");
    if (l->side[1].points > 0)
        fprintf(out, " (%u points)", (unsigned)l->side[1].points);
    fprintf(out, "\n  method:    %s, no simulation\n", x->method);
    for (size_t k = 0; k < l->field_count; k++)
        missing += !x->known[k];
    if (missing > 0) {
        fprintf(out, "  fields:    ");
        for (size_t k = 0, n = 0; k < l->field_count; k++)
            if (x->known[k])
                fprintf(out, "%s%s", n++ > 0 ? ", " : "", l->fields[k].name);
        fprintf(out, "; %s\n", x->reason);
    }

    /* The main outcome first, then a first round's. */
    for (int pass = 0; pass < 2; pass++)
        for (size_t k = 0; k < l->field_count; k++)
            if (x->known[k] && l->fields[k].type == OM_FIELD_WINNER &&
                (strcmp(l->fields[k].name, "winner") == 0) == (pass == 0))
                print_outcome(out, l, x, k);
    print_points(out, l, x);
    for (size_t k = 0; k < l->field_count; k++) {
        if (!x->known[k] || l->fields[k].type == OM_FIELD_WINNER)
            continue;
        if (l->fields[k].type == OM_FIELD_FLAG) {
            any_flag = true;
            if (strlen(l->fields[k].name) > width)
                width = strlen(l->fields[k].name);
            continue;
        }
        print_count(out, l, x, k);
    }
    if (any_flag) {
        fprintf(out, "\nFlags: probability that each is set\n");
        for (size_t k = 0; k < l->field_count; k++) {
            if (!x->known[k] || l->fields[k].type != OM_FIELD_FLAG)
                continue;
            fprintf(out, "  %-*s ", (int)width, l->fields[k].name);
            print_p(out, om_exact_p(x, k, 1));
            fprintf(out, "  %s\n", l->fields[k].description);
        }
    }
    return om_output_finish(out, "exact law");
}
