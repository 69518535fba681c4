/*
 * efficiency.c: the fair-points model of a matchup matrix (efficiency.h): the
 * cells that take part, per-unit means, the Bradley-Terry strengths with
 * their dispersion, the price curve and its residual checks, the fair points
 * against the reference field and each opposing army with delta-method
 * intervals, and the bootstrap over cells. The report's printed forms are in
 * efficiency_print.c. Every number is defined in efficiency.h.
 */
#include "efficiency.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rng.h"
#include "stats.h"
#include "suggest.h"

/* Bisection steps on ln(points): the bracket is at most ~20 wide, 2^-60 of it is exact. */
#define FAIR_BISECTIONS 60

/* ---------------------------------------------------------------- lookup */

/* Most situations of a file whose names "did you mean" weighs. */
#define SITUATION_NAMES_MAX 64

om_status om_efficiency_situation_find(const om_matrix *m, const char *name, size_t *index)
{
    char known[512] = "";
    const char *names[SITUATION_NAMES_MAX + 1], *best;
    size_t n = 0;
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
        if (n < SITUATION_NAMES_MAX)
            names[n++] = m->info.situations[s].name;
    }
    names[n++] = "all";
    if ((best = om_suggest(name, names, n)) != NULL)
        return OM_ERROR(OM_ENOTFOUND, "%s: no situation '%s'; did you mean '%s'? (situations: "
                        "%s, or all)", m->path, name, best, known);
    return OM_ERROR(OM_ENOTFOUND, "%s: no situation '%s' (situations: %s, or all)", m->path,
                    name, known);
}

void om_efficiency_free(om_efficiency *e)
{
    if (e == NULL)
        return;
    om_bt_fit_free(e->bt);
    for (size_t i = 0; e->units != NULL && i < e->n_units; i++)
        free(e->units[i].by_army);
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

const char *om_efficiency_army_name(const om_efficiency *e, int side, size_t a)
{
    const char *name = a < e->n_armies[side] ? e->armies[side][a] : NULL;
    return name != NULL && name[0] != '\0' ? name : "(unknown army)";
}

const char *om_efficiency_status_name(const om_efficiency_unit *u)
{
    switch (u->status) {
    case OM_EFFICIENCY_RATED: return "rated";
    case OM_EFFICIENCY_NOT_TAKING_PART:
        return "not rated: cannot take part in the selected situations";
    case OM_EFFICIENCY_NO_STRENGTH: return om_bt_status_name(u->bt_status);
    case OM_EFFICIENCY_NO_COST: return "no fair value: points cost unknown";
    case OM_EFFICIENCY_NO_CURVE: return "no fair value: no price curve";
    case OM_EFFICIENCY_NO_FIELD: return "no fair value: no rated unit with a cost in its field";
    }
    return "unknown";
}

/* --------------------------------------------------------------- helpers */

static bool selected(const om_efficiency *e, size_t s)
{
    return e->opt.situation == OM_EFFICIENCY_ALL || e->opt.situation == s;
}

/* The cell of unit index u (rows first) against opponent j of the other side in s. */
static const om_matrix_cell *cell_of(const om_efficiency *e, size_t s, size_t u, size_t j)
{
    size_t R = e->m->info.n_rows;
    return u < R ? om_matrix_at(e->m, s, u, j) : om_matrix_at(e->m, s, j, u - R);
}

/* Unit index (rows first) of opponent j of unit u. */
static size_t opponent(const om_efficiency *e, size_t u, size_t j)
{
    size_t R = e->m->info.n_rows;
    return u < R ? R + j : j;
}

/* A cell takes part: trials, and both units can do what the situation asks. */
static bool takes_part(const om_matrix_cell *c)
{
    return c->trials > 0 && c->inapplicable == 0;
}

/* Whether opponent unit v is in field f of a unit: 0 the reference field, 1 + a army a. */
static bool in_field(const om_efficiency *e, size_t v, size_t f)
{
    const om_efficiency_unit *o = &e->units[v];
    return f == 0 ? e->in_field[o->side][o->army] : o->army == f - 1;
}

/* --------------------------------------------------------------- armies */

/* Index of `name` among the side's armies, adding it if new. */
static om_status army_index(om_efficiency *e, int side, const char *name, size_t *out)
{
    const char *key = name != NULL ? name : "";
    for (size_t a = 0; a < e->n_armies[side]; a++)
        if (strcmp(e->armies[side][a], key) == 0) {
            *out = a;
            return OM_OK;
        }
    if (e->n_armies[side] == OM_EFFICIENCY_MAX_ARMIES)
        return OM_ERROR(OM_EINVAL, "%s: more than %d armies on the %s axis", e->m->path,
                        OM_EFFICIENCY_MAX_ARMIES, side == OM_EFFICIENCY_ROW ? "row" : "column");
    e->armies[side][e->n_armies[side]] = key;
    *out = e->n_armies[side]++;
    return OM_OK;
}

/* Longest army id kept ("orcs-goblins"). */
#define ARMY_ID_MAX 64

/* The id of army `a` of `side` into buf: what its units' ids ("chaos/ogres")
 * have before the slash; "" when they have none. */
static const char *army_id(const om_efficiency *e, int side, size_t a, char *buf)
{
    buf[0] = '\0';
    for (size_t u = 0; u < e->n_units; u++) {
        const om_efficiency_unit *x = &e->units[u];
        const char *id = x->unit->id, *slash = id != NULL ? strchr(id, '/') : NULL;
        if (x->side != side || x->army != a || slash == NULL)
            continue;
        snprintf(buf, ARMY_ID_MAX, "%.*s", (int)(slash - id), id);
        break;
    }
    return buf;
}

/* Whether army `a` of `side` is the one `name` names: its id ("orcs-goblins",
 * as every other command writes it), or its display name ("Orcs & Goblins")
 * in any case. */
static bool army_is(const om_efficiency *e, int side, size_t a, const char *name)
{
    char id[ARMY_ID_MAX];
    return strcasecmp(e->armies[side][a], name) == 0 ||
           strcmp(army_id(e, side, a, id), name) == 0;
}

/* Room for the armies of a matrix in a message. */
#define ARMIES_TEXT_MAX 768

/* OM_EINVAL for a field army `name` that no army of the matrix is: the
 * nearest army, if one is near, else all of them, each as "id (Name)". */
static om_status unknown_field_army(const om_efficiency *e, const char *name)
{
    char ids[2 * OM_EFFICIENCY_MAX_ARMIES][ARMY_ID_MAX], known[ARMIES_TEXT_MAX] = "";
    const char *names[4 * OM_EFFICIENCY_MAX_ARMIES], *best;
    size_t n = 0;
    for (int side = 0; side < 2; side++)
        for (size_t a = 0; a < e->n_armies[side]; a++, n += 2) {
            size_t used = strlen(known);
            names[n] = army_id(e, side, a, ids[n / 2]);
            names[n + 1] = e->armies[side][a];
            snprintf(known + used, sizeof known - used, "%s%s (%s)", n ? ", " : "", names[n],
                     om_efficiency_army_name(e, side, a));
        }
    if ((best = om_suggest(name, names, n)) != NULL) {
        size_t i = 0;
        while (names[i] != best)
            i++;
        return OM_ERROR(OM_EINVAL, "%s: the field army '%s' is not in the matrix; did you mean "
                        "'%s' (%s)?", e->m->path, name, names[i & ~(size_t)1],
                        names[i | 1][0] ? names[i | 1] : "(unknown army)");
    }
    return OM_ERROR(OM_EINVAL, "%s: the field army '%s' is not in the matrix (armies: %s)",
                    e->m->path, name, known);
}

/* The armies of each side and which are in the reference field. */
static om_status armies_fill(om_efficiency *e)
{
    om_status st;
    for (size_t u = 0; u < e->n_units; u++) {
        om_efficiency_unit *x = &e->units[u];
        const char *list = x->side == OM_EFFICIENCY_ROW ? e->m->info.row_list
                                                        : e->m->info.col_list;
        /* A unit without an army belongs to its axis's list ("empire"). */
        const char *army = x->unit->army != NULL && x->unit->army[0] != '\0' ? x->unit->army
                                                                             : list;
        if ((st = army_index(e, x->side, army, &x->army)) != OM_OK)
            return st;
    }
    for (int side = 0; side < 2; side++)
        for (size_t a = 0; a < e->n_armies[side]; a++)
            e->in_field[side][a] = e->opt.field == NULL;
    for (size_t i = 0; e->opt.field != NULL && i < e->opt.n_field; i++) {
        bool found = false;
        for (int side = 0; side < 2; side++)
            for (size_t a = 0; a < e->n_armies[side]; a++)
                if (army_is(e, side, a, e->opt.field[i]))
                    found = e->in_field[side][a] = true;
        if (!found)
            return unknown_field_army(e, e->opt.field[i]);
    }
    return OM_OK;
}

/* ---------------------------------------------------------- cells, means */

/*
 * Every unit has trials in the selected situations, and every army at least
 * one unit that takes part: otherwise the matrix cannot rate what it claims to.
 */
static om_status check_cells(const om_efficiency *e)
{
    const om_matrix *m = e->m;
    size_t takes[2][OM_EFFICIENCY_MAX_ARMIES] = {{0}};
    for (size_t u = 0; u < e->n_units; u++) {
        const om_efficiency_unit *x = &e->units[u];
        size_t n_opp = x->side == OM_EFFICIENCY_ROW ? m->info.n_cols : m->info.n_rows;
        uint64_t trials = 0;
        for (size_t s = 0; s < m->info.n_situations; s++)
            for (size_t j = 0; selected(e, s) && j < n_opp; j++)
                trials += cell_of(e, s, u, j)->trials;
        if (trials == 0)
            return OM_ERROR(OM_EINVAL, "%s: the %s unit '%s' has no trials in the selected "
                            "situations (/cells/trials is 0 in all its cells)", m->path,
                            x->side == OM_EFFICIENCY_ROW ? "row" : "column", x->unit->name);
        takes[x->side][x->army] += x->cells > 0;
    }
    for (int side = 0; side < 2; side++)
        for (size_t a = 0; a < e->n_armies[side]; a++)
            if (takes[side][a] == 0)
                return OM_ERROR(OM_EINVAL, "%s: no unit of the %s army '%s' can take part in the "
                                "selected situations (/cells/inapplicable flags all its cells)",
                                m->path, side == OM_EFFICIENCY_ROW ? "row" : "column",
                                om_efficiency_army_name(e, side, a));
    return OM_OK;
}

/* Sum the outcomes of the cells taking part into the R x C arrays. */
static void pool_cells(om_efficiency *e)
{
    const om_matrix *m = e->m;
    size_t R = m->info.n_rows, C = m->info.n_cols;
    for (size_t s = 0; s < m->info.n_situations; s++)
        for (size_t i = 0; selected(e, s) && i < R * C; i++) {
            const om_matrix_cell *c = om_matrix_at(m, s, i / C, i % C);
            if (!takes_part(c))
                continue;
            e->trials[i] += (double)c->trials;
            e->wins[i] += (double)c->wins_row;
            e->draws[i] += (double)c->draws;
            e->losses[i] += (double)c->wins_col;
        }
}

/* Running sums of the means over cells of one unit against one field. */
typedef struct means {
    size_t k;          /* cells */
    double score;      /* sum of expected scores over cells with a decided trial */
    size_t k_decided;  /* those cells */
    double inv_n;      /* sum of 1 / decided trials */
} means;

/* The observed expected score of a unit from its sums, with its Wilson interval. */
static om_status score_value(const means *s, double confidence, om_efficiency_value *out)
{
    double k = (double)s->k_decided;
    out->value = out->lo = out->hi = NAN;
    if (s->k_decided == 0)
        return OM_OK;
    out->value = s->score / k;
    /* The mean of k proportions has the variance of one from k^2 / sum(1/n) trials. */
    return om_stats_wilson_real(fmin(1.0, out->value), k * k / s->inv_n, confidence, &out->lo,
                                &out->hi);
}

/* Add cell c, seen from unit u (a row when `row`), to the sums `s`. */
static void means_add(means *s, const om_matrix_cell *c, bool row)
{
    uint64_t won = row ? c->wins_row : c->wins_col, lost = row ? c->wins_col : c->wins_row;
    double decided = (double)(won + c->draws + lost);
    s->k++;
    if (decided > 0) {
        s->k_decided++;
        s->score += ((double)won + 0.5 * (double)c->draws) / decided;
        s->inv_n += 1.0 / decided;
    }
}

/*
 * The per-unit means (efficiency.h) over the cells taking part against the
 * reference field, and the observed score against each opposing army.
 */
static om_status unit_means(om_efficiency *e, size_t u)
{
    const om_matrix *m = e->m;
    om_efficiency_unit *x = &e->units[u];
    bool row = x->side == OM_EFFICIENCY_ROW;
    size_t n_opp = row ? m->info.n_cols : m->info.n_rows, other = (size_t)(1 - x->side);
    means field = {0}, army[OM_EFFICIENCY_MAX_ARMIES];
    double win = 0, draw = 0, destroyed = 0, lost = 0;
    om_status st;

    memset(army, 0, sizeof army);
    for (size_t s = 0; s < m->info.n_situations; s++)
        for (size_t j = 0; selected(e, s) && j < n_opp; j++) {
            const om_matrix_cell *c = cell_of(e, s, u, j);
            size_t v = opponent(e, u, j);
            double n = (double)c->trials;
            if (c->trials > 0 && !takes_part(c))
                x->cells_excluded++;
            if (!takes_part(c))
                continue;
            x->cells++;
            means_add(&army[e->units[v].army], c, row);
            if (!in_field(e, v, 0))
                continue;
            means_add(&field, c, row);
            x->trials += c->trials;
            win += (double)(row ? c->wins_row : c->wins_col) / n;
            draw += (double)c->draws / n;
            destroyed += (row ? c->points_lost_col_sum : c->points_lost_row_sum) / n;
            lost += (row ? c->points_lost_row_sum : c->points_lost_col_sum) / n;
        }
    x->p_win = x->p_draw = x->destroyed = x->destroyed_per_100 = x->lost = NAN;
    x->overall.cells = field.k;
    if (field.k > 0) {
        double k = (double)field.k;
        x->p_win = win / k;
        x->p_draw = draw / k;
        x->destroyed = destroyed / k;
        x->lost = lost / k;
        if (x->unit->points > 0)
            x->destroyed_per_100 = 100.0 * x->destroyed / (double)x->unit->points;
    }
    if ((st = score_value(&field, e->opt.confidence, &x->overall.score)) != OM_OK)
        return st;
    for (size_t a = 0; a < e->n_armies[other]; a++) {
        x->by_army[a].cells = army[a].k;
        if ((st = score_value(&army[a], e->opt.confidence, &x->by_army[a].score)) != OM_OK)
            return st;
    }
    return OM_OK;
}

/* ----------------------------------------------------------- price curve */

/* A unit enters a price curve with a strength and a positive cost. */
static bool curve_unit(const om_efficiency *e, const double *strength, size_t u)
{
    return isfinite(strength[u]) && e->units[u].unit->points > 0;
}

/* Which units a curve runs over: a field (side and field index), or all (pooled). */
typedef struct curve_sel {
    bool pooled; /* every unit of both axes */
    int side;    /* else: the field's side */
    size_t f;    /* and its index (0 the reference field, 1 + a army a) */
} curve_sel;

static bool in_curve(const om_efficiency *e, const double *strength, curve_sel sel, size_t u)
{
    return curve_unit(e, strength, u)
           && (sel.pooled || (e->units[u].side == sel.side && in_field(e, u, sel.f)));
}

/* Group of a unit in a curve: its army (and side, for the pooled curve). */
static size_t curve_group(const om_efficiency *e, size_t u)
{
    const om_efficiency_unit *x = &e->units[u];
    return (size_t)x->side * OM_EFFICIENCY_MAX_ARMIES + x->army;
}

#define CURVE_GROUPS (2 * OM_EFFICIENCY_MAX_ARMIES)

/*
 * The within-group sums of a curve of y on ln(points) (kind 0) or points
 * (kind 1), each unit weighted by weight[u] (NULL: 1).
 */
typedef struct curve_sums {
    size_t n, groups;
    double sxx, sxy, syy;
    double mx[CURVE_GROUPS], my[CURVE_GROUPS], count[CURVE_GROUPS];
} curve_sums;

static double curve_x(const om_efficiency *e, size_t u, int kind)
{
    double p = (double)e->units[u].unit->points;
    return kind == 0 ? log(p) : p;
}

static void curve_fill(const om_efficiency *e, const double *strength, const double *weight,
                       curve_sel sel, int kind, curve_sums *cs)
{
    memset(cs, 0, sizeof *cs);
    for (size_t u = 0; u < e->n_units; u++) {
        size_t g = curve_group(e, u);
        double w = weight != NULL ? weight[u] : 1.0;
        if (!in_curve(e, strength, sel, u) || !(w > 0.0))
            continue;
        cs->groups += cs->count[g] == 0;
        cs->count[g] += w;
        cs->mx[g] += w * curve_x(e, u, kind);
        cs->my[g] += w * strength[u];
        cs->n++;
    }
    for (size_t g = 0; g < CURVE_GROUPS; g++)
        if (cs->count[g] > 0) {
            cs->mx[g] /= cs->count[g];
            cs->my[g] /= cs->count[g];
        }
    for (size_t u = 0; u < e->n_units; u++) {
        size_t g = curve_group(e, u);
        double w = weight != NULL ? weight[u] : 1.0, dx, dy;
        if (!in_curve(e, strength, sel, u) || !(w > 0.0))
            continue;
        dx = curve_x(e, u, kind) - cs->mx[g];
        dy = strength[u] - cs->my[g];
        cs->sxx += w * dx * dx;
        cs->sxy += w * dx * dy;
        cs->syy += w * dy * dy;
    }
}

/*
 * The slope b of the curve `sel` over `strength` (efficiency.h), or a reason
 * why there is none. `coef` (if not NULL) receives db/ds_u for every unit.
 */
static const char *curve_slope(const om_efficiency *e, const double *strength,
                               const double *weight, curve_sel sel, double *b, double *coef)
{
    curve_sums cs;
    curve_fill(e, strength, weight, sel, 0, &cs);
    *b = NAN;
    if (cs.n < cs.groups + 2)
        return "too few units with a strength and a cost (need 2 more than the armies)";
    if (!(cs.sxx > 0.0))
        return "the points costs do not vary within an army";
    *b = cs.sxy / cs.sxx;
    if (!(*b > 0.0))
        return "strength does not rise with points cost (slope <= 0): the costs do not "
               "explain the results";
    for (size_t u = 0; coef != NULL && u < e->n_units; u++)
        coef[u] = in_curve(e, strength, sel, u)
                      ? (curve_x(e, u, 0) - cs.mx[curve_group(e, u)]) / cs.sxx
                      : 0.0;
    return NULL;
}

/* The slope of field `sel`, or the pooled one when the field has none. */
static double field_slope(const om_efficiency *e, const double *strength, const double *weight,
                          curve_sel sel, double *coef, bool *pooled)
{
    double b;
    *pooled = curve_slope(e, strength, weight, sel, &b, coef) != NULL;
    if (*pooled && curve_slope(e, strength, weight, (curve_sel){.pooled = true}, &b, coef) != NULL)
        b = NAN;
    return b;
}

/*
 * The residual check of the curve's form: t of a quadratic term in ln(points)
 * added to the within-group fit (NaN without a spare degree of freedom).
 */
static double quadratic_t(const om_efficiency *e, const double *strength, curve_sel sel)
{
    double mq[CURVE_GROUPS] = {0}, count[CURVE_GROUPS] = {0}, a11 = 0, a12 = 0, a22 = 0;
    double c1 = 0, c2 = 0, syy = 0, det, b1, b2, sse, sigma2;
    curve_sums cs;
    curve_fill(e, strength, NULL, sel, 0, &cs);
    if (cs.n < cs.groups + 3)
        return NAN;
    for (size_t u = 0; u < e->n_units; u++)
        if (in_curve(e, strength, sel, u)) {
            double x = curve_x(e, u, 0);
            mq[curve_group(e, u)] += x * x;
            count[curve_group(e, u)] += 1;
        }
    for (size_t u = 0; u < e->n_units; u++) {
        size_t g = curve_group(e, u);
        double x, q, y;
        if (!in_curve(e, strength, sel, u))
            continue;
        x = curve_x(e, u, 0) - cs.mx[g];
        q = curve_x(e, u, 0) * curve_x(e, u, 0) - mq[g] / count[g];
        y = strength[u] - cs.my[g];
        a11 += x * x;
        a12 += x * q;
        a22 += q * q;
        c1 += x * y;
        c2 += q * y;
        syy += y * y;
    }
    det = a11 * a22 - a12 * a12;
    if (!(det > 1e-12 * a11 * a22))
        return NAN;
    b1 = (a22 * c1 - a12 * c2) / det;
    b2 = (a11 * c2 - a12 * c1) / det;
    sse = syy - b1 * c1 - b2 * c2;
    sigma2 = fmax(sse, 0.0) / (double)(cs.n - cs.groups - 2);
    return sigma2 > 0.0 ? b2 / sqrt(sigma2 * a11 / det) : NAN;
}

/* -------------------------------------------------------------- fair value */

static double sigmoid(double z)
{
    return z >= 0.0 ? 1.0 / (1.0 + exp(-z)) : exp(z) / (1.0 + exp(z));
}

/*
 * Solve E_u(P) = 1/2 (efficiency.h) for x = ln P against field f of unit u,
 * with strengths `s` and slope b > 0. With `grad` (not NULL, zeroed by the
 * caller) the gradient of x by the strengths, b held fixed, is added to grad
 * and dx/db returned in *dxdb. Returns false when the field is empty.
 */
static bool solve_fair(const om_efficiency *e, const double *s, double b, size_t u, size_t f,
                       double *x_out, double *grad, double *dxdb)
{
    size_t R = e->m->info.n_rows, n_opp = u < R ? e->m->info.n_cols : e->m->info.n_rows;
    double lo = INFINITY, hi = -INFINITY, x, w, sum_d = 0, sum_dl = 0;
    size_t n = 0;

    for (size_t j = 0; j < n_opp; j++) {
        size_t v = opponent(e, u, j);
        double root;
        if (!curve_unit(e, s, v) || !in_field(e, v, f))
            continue;
        root = log((double)e->units[v].unit->points) + (s[u] - s[v]) / b;
        lo = fmin(lo, root);
        hi = fmax(hi, root);
        n++;
    }
    if (n == 0)
        return false;
    w = 1.0 / (double)n;
    /* E falls from >= 1/2 at the smallest one-opponent root to <= 1/2 at the largest. */
    for (int i = 0; i < FAIR_BISECTIONS && hi > lo; i++) {
        double mid = 0.5 * (lo + hi), sum = 0.0;
        for (size_t j = 0; j < n_opp; j++) {
            size_t v = opponent(e, u, j);
            if (curve_unit(e, s, v) && in_field(e, v, f))
                sum += w * sigmoid(s[u] - s[v] - b * (mid - log((double)e->units[v].unit->points)));
        }
        if (sum > 0.5)
            lo = mid;
        else
            hi = mid;
    }
    x = 0.5 * (lo + hi);
    *x_out = x;
    if (grad == NULL)
        return true;
    /* Implicit function theorem on g(x, s, b) = sum w sigma(z_v) - 1/2. */
    for (size_t j = 0; j < n_opp; j++) {
        size_t v = opponent(e, u, j);
        double lv, p;
        if (!curve_unit(e, s, v) || !in_field(e, v, f))
            continue;
        lv = log((double)e->units[v].unit->points);
        p = sigmoid(s[u] - s[v] - b * (x - lv));
        sum_d += w * p * (1.0 - p);
        sum_dl += w * p * (1.0 - p) * (x - lv);
    }
    if (!(sum_d > 0.0)) {
        *dxdb = NAN;
        grad[u] = NAN;
        return true;
    }
    grad[u] += 1.0 / b;
    for (size_t j = 0; j < n_opp; j++) {
        size_t v = opponent(e, u, j);
        double p;
        if (!curve_unit(e, s, v) || !in_field(e, v, f))
            continue;
        p = sigmoid(s[u] - s[v] - b * (x - log((double)e->units[v].unit->points)));
        grad[v] -= w * p * (1.0 - p) / (b * sum_d);
    }
    *dxdb = -sum_dl / (b * sum_d);
    return true;
}

/* Number of fields of a unit: the reference field and each army of the other side. */
static size_t n_fields(const om_efficiency *e, size_t u)
{
    return 1 + e->n_armies[1 - e->units[u].side];
}

static om_efficiency_rating *rating(om_efficiency *e, size_t u, size_t f)
{
    return f == 0 ? &e->units[u].overall : &e->units[u].by_army[f - 1];
}

/* z of the two-sided interval at the report's confidence. */
static double z_value(const om_efficiency *e)
{
    return gsl_cdf_ugaussian_Pinv(1.0 - (1.0 - e->opt.confidence) / 2.0);
}

/* Covariance of strengths u and v, dispersion included (NaN if not estimated). */
static double cov(const om_efficiency *e, size_t u, size_t v)
{
    return e->model.dispersion * e->bt->cov[u * e->n_units + v];
}

/* g' V g over the units, for a gradient g by the strengths. */
static double quad_form(const om_efficiency *e, const double *g)
{
    double var = 0.0;
    for (size_t i = 0; i < e->n_units; i++)
        for (size_t j = 0; g[i] != 0.0 && j < e->n_units; j++)
            if (g[j] != 0.0)
                var += g[i] * cov(e, i, j) * g[j];
    return var;
}

/*
 * Describe the curve `sel` of the main fit into *c (efficiency.h), with the
 * slope's variance: the larger of the units' scatter around the curve (OLS)
 * and the variance propagated from the strengths. `coef` is scratch [n_units].
 */
static void curve_describe(const om_efficiency *e, curve_sel sel, om_efficiency_curve *c,
                           double *coef, double *var_b)
{
    const double *s = e->bt->strength;
    curve_sums cs, lin;
    double b, z = z_value(e), ols;

    memset(c, 0, sizeof *c);
    curve_fill(e, s, NULL, sel, 0, &cs);
    curve_fill(e, s, NULL, sel, 1, &lin);
    c->units = cs.n;
    c->groups = cs.groups;
    c->r2 = cs.syy > 0 && cs.sxx > 0 ? cs.sxy * cs.sxy / (cs.sxx * cs.syy) : NAN;
    c->r2_linear = lin.syy > 0 && lin.sxx > 0 ? lin.sxy * lin.sxy / (lin.sxx * lin.syy) : NAN;
    c->quadratic_t = quadratic_t(e, s, sel);
    c->reason = curve_slope(e, s, NULL, sel, &b, coef);
    c->defined = c->reason == NULL;
    c->slope.value = c->slope.lo = c->slope.hi = c->slope_se = *var_b = NAN;
    if (!c->defined)
        return;
    c->weak = isfinite(c->r2) && c->r2 < OM_EFFICIENCY_WEAK_FIT;
    ols = cs.n > cs.groups + 1 ? (cs.syy - b * cs.sxy) / (double)(cs.n - cs.groups - 1) / cs.sxx
                               : 0.0;
    *var_b = fmax(fmax(ols, 0.0), quad_form(e, coef));
    c->slope.value = b;
    c->slope_se = sqrt(*var_b);
    c->slope.lo = b - z * c->slope_se;
    c->slope.hi = b + z * c->slope_se;
}

/*
 * The curve that prices field (side, f): its own, or the pooled one standing
 * in. Returns false when neither exists.
 */
static bool pricing_curve(const om_efficiency *e, int side, size_t f, om_efficiency_curve *c,
                          double *coef, double *var_b)
{
    curve_describe(e, (curve_sel){.side = side, .f = f}, c, coef, var_b);
    if (c->defined)
        return true;
    curve_describe(e, (curve_sel){.pooled = true}, c, coef, var_b);
    c->pooled = true;
    return c->defined;
}

/*
 * The fair value of unit u against field f with the delta-method interval:
 * Var(ln fair) = g' V g + (dx/db)^2 Var(b) (efficiency.h). Returns false when
 * the field has no unit with a cost.
 */
static bool fair_value(om_efficiency *e, size_t u, size_t f, double b, double var_b,
                       double *grad)
{
    om_efficiency_rating *rt = rating(e, u, f);
    double x, dxdb = NAN, var, z = z_value(e);
    memset(grad, 0, e->n_units * sizeof *grad);
    if (!solve_fair(e, e->bt->strength, b, u, f, &x, grad, &dxdb))
        return false;
    var = quad_form(e, grad) + dxdb * dxdb * var_b;
    rt->slope = b;
    rt->ln_fair_se = sqrt(fmax(0.0, var));
    rt->fair.value = exp(x);
    rt->fair.lo = exp(x - z * rt->ln_fair_se);
    rt->fair.hi = exp(x + z * rt->ln_fair_se);
    return true;
}

/* Every unit's fair value against every field, and the curves reported in the model. */
static om_status fair_values(om_efficiency *e)
{
    double *grad = malloc(e->n_units * sizeof *grad), *coef = malloc(e->n_units * sizeof *coef);
    double var_b;
    om_efficiency_curve c;
    if (grad == NULL || coef == NULL) {
        free(grad);
        free(coef);
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", e->m->path);
    }
    curve_describe(e, (curve_sel){.pooled = true}, &e->model.pooled, coef, &var_b);
    for (int side = 0; side < 2; side++)
        pricing_curve(e, 1 - side, 0, &e->model.curve[side], coef, &var_b);
    for (size_t u = 0; u < e->n_units; u++) {
        om_efficiency_unit *x = &e->units[u];
        if (x->status != OM_EFFICIENCY_RATED)
            continue;
        for (size_t f = 0; f < n_fields(e, u); f++) {
            bool ok = pricing_curve(e, 1 - x->side, f, &c, coef, &var_b)
                      && fair_value(e, u, f, c.slope.value, var_b, grad);
            if (f == 0 && !ok)
                x->status = c.defined ? OM_EFFICIENCY_NO_FIELD : OM_EFFICIENCY_NO_CURVE;
        }
        if (x->status == OM_EFFICIENCY_RATED)
            x->fair_minus_points = x->overall.fair.value - (double)x->unit->points;
    }
    free(grad);
    free(coef);
    return OM_OK;
}

/* ------------------------------------------------------------ diagnostics */

/* r2 of the matchups, Pearson's X^2 and the dispersion (efficiency.h). */
static void diagnostics(om_efficiency *e)
{
    size_t R = e->m->info.n_rows, C = e->m->info.n_cols, cells = 0;
    double sum_n = 0, sum_ny = 0, sse = 0, sst = 0, x2 = 0, mean;
    om_efficiency_model *md = &e->model;
    for (size_t i = 0; i < R * C; i++) {
        double n = e->wins[i] + e->draws[i] + e->losses[i];
        if (n > 0 && isfinite(e->predicted[i])) {
            sum_n += n;
            sum_ny += n * e->observed[i];
        }
    }
    mean = sum_n > 0 ? sum_ny / sum_n : NAN;
    for (size_t i = 0; i < R * C; i++) {
        double n = e->wins[i] + e->draws[i] + e->losses[i], p = e->predicted[i];
        if (!(n > 0) || !isfinite(p))
            continue;
        cells++;
        sse += n * e->residual[i] * e->residual[i];
        sst += n * (e->observed[i] - mean) * (e->observed[i] - mean);
        if (p > 0.0 && p < 1.0)
            x2 += n * e->residual[i] * e->residual[i] / (p * (1.0 - p));
    }
    md->rated = e->bt->n_estimated;
    md->cells = cells;
    md->r2 = sst > 0 ? 1.0 - sse / sst : NAN;
    md->pearson_x2 = x2;
    md->df = (double)cells - ((double)md->rated - 1.0);
    md->dispersion = md->df > 0 ? fmax(1.0, x2 / md->df) : 1.0;
    md->weak = isfinite(md->r2) && md->r2 < OM_EFFICIENCY_WEAK_FIT;
}

/* ------------------------------------------------------------ bootstrap */

/* Percentile q in [0, 1] of the sorted `v` (linear interpolation between order statistics). */
static double percentile(const double *v, size_t n, double q)
{
    double h = q * (double)(n - 1);
    size_t i = (size_t)floor(h);
    return i + 1 < n ? v[i] + (h - (double)i) * (v[i + 1] - v[i]) : v[n - 1];
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Storage of the bootstrap: ln(fair) and strength of every replicate. */
typedef struct boot_store {
    size_t n_fields;   /* fields per unit (the largest count) */
    double *ln_fair;   /* [replicates][n_units][n_fields], NaN where undefined */
    double *strength;  /* [replicates][n_units], aligned to the main fit */
    double *w, *d, *l; /* [R*C] pooled counts of one replicate */
    double *weight;    /* [n_units] how often each unit is drawn into the price curves */
    double slope[2 * (OM_EFFICIENCY_MAX_ARMIES + 1)]; /* [side][f] slope pricing each field */
    size_t *cells;     /* [n_cells] the cells taking part, as s*R*C + i */
    size_t n_cells;    /* their number */
} boot_store;

static void boot_free(boot_store *bs)
{
    free(bs->ln_fair);
    free(bs->strength);
    free(bs->w);
    free(bs->d);
    free(bs->l);
    free(bs->weight);
    free(bs->cells);
}

/* Resample the cells with replacement into bs->w, d, l. */
static void boot_resample(const om_efficiency *e, boot_store *bs, om_rng *rng)
{
    size_t RC = e->m->info.n_rows * e->m->info.n_cols;
    memset(bs->w, 0, RC * sizeof *bs->w);
    memset(bs->d, 0, RC * sizeof *bs->d);
    memset(bs->l, 0, RC * sizeof *bs->l);
    for (size_t k = 0; k < bs->n_cells; k++) {
        size_t pick = (size_t)(om_rng_uniform(rng) * (double)bs->n_cells);
        size_t flat = bs->cells[pick < bs->n_cells ? pick : bs->n_cells - 1];
        const om_matrix_cell *c = &e->m->cells[flat];
        bs->w[flat % RC] += (double)c->wins_row;
        bs->d[flat % RC] += (double)c->draws;
        bs->l[flat % RC] += (double)c->wins_col;
    }
}

/*
 * Draw the units of the price curve with replacement (the pairs bootstrap of a
 * regression): the curve's scatter then varies b as it does in the
 * covariance method's OLS variance.
 */
static void boot_curve_units(const om_efficiency *e, boot_store *bs, om_rng *rng)
{
    size_t n = 0, *pool = (size_t *)bs->cells + bs->n_cells;
    memset(bs->weight, 0, e->n_units * sizeof *bs->weight);
    for (size_t u = 0; u < e->n_units; u++)
        if (curve_unit(e, e->bt->strength, u))
            pool[n++] = u;
    for (size_t k = 0; k < n; k++) {
        size_t pick = (size_t)(om_rng_uniform(rng) * (double)n);
        bs->weight[pool[pick < n ? pick : n - 1]] += 1.0;
    }
}

/* One replicate: refit, align the strengths, solve every fair value. */
static om_status boot_replicate(om_efficiency *e, boot_store *bs, size_t rep)
{
    size_t K = e->n_units, R = e->m->info.n_rows, C = e->m->info.n_cols;
    double *ln_fair = bs->ln_fair + rep * K * bs->n_fields, *s = bs->strength + rep * K;
    double shift = 0.0, b;
    size_t common = 0;
    om_bt_fit *fit = NULL;
    om_status st = om_bt_fit_alloc(R, C, bs->w, bs->d, bs->l, &fit);
    if (st != OM_OK)
        return st;
    /* Align to the main fit over the units estimated in both (only differences matter). */
    for (size_t u = 0; u < K; u++)
        if (isfinite(fit->strength[u]) && isfinite(e->bt->strength[u])) {
            shift += e->bt->strength[u] - fit->strength[u];
            common++;
        }
    for (size_t u = 0; u < K; u++)
        s[u] = common > 0 && isfinite(e->bt->strength[u]) && e->units[u].cells > 0
                   ? fit->strength[u] + shift / (double)common
                   : NAN;
    /* The slope pricing each field (side, f) in this replicate. */
    for (int side = 0; side < 2; side++)
        for (size_t f = 0; f <= e->n_armies[side]; f++) {
            bool pooled;
            bs->slope[side * (OM_EFFICIENCY_MAX_ARMIES + 1) + f] =
                field_slope(e, s, bs->weight, (curve_sel){.side = side, .f = f}, NULL, &pooled);
        }
    for (size_t u = 0; u < K; u++)
        for (size_t f = 0; f < bs->n_fields; f++) {
            double x = NAN;
            int other = 1 - e->units[u].side;
            if (f < n_fields(e, u)) {
                b = bs->slope[other * (OM_EFFICIENCY_MAX_ARMIES + 1) + f];
                if (isfinite(b) && isfinite(s[u]) && e->units[u].unit->points > 0
                    && !solve_fair(e, s, b, u, f, &x, NULL, NULL))
                    x = NAN;
            }
            ln_fair[u * bs->n_fields + f] = x;
        }
    om_bt_fit_free(fit);
    return OM_OK;
}

/* Percentile interval of `n` replicate values taken with `stride`, if enough succeeded. */
static unsigned boot_interval(const double *v, size_t n, size_t stride, double *tmp,
                              double confidence, double *lo, double *hi)
{
    size_t ok = 0;
    for (size_t r = 0; r < n; r++)
        if (isfinite(v[r * stride]))
            tmp[ok++] = v[r * stride];
    *lo = *hi = NAN;
    if (ok > 0 && (double)ok >= OM_EFFICIENCY_BOOT_MIN_SHARE * (double)n) {
        qsort(tmp, ok, sizeof *tmp, compare_double);
        *lo = percentile(tmp, ok, (1.0 - confidence) / 2.0);
        *hi = percentile(tmp, ok, 1.0 - (1.0 - confidence) / 2.0);
    }
    return (unsigned)ok;
}

/* Replace every interval by the bootstrap's percentiles (efficiency.h). */
static om_status bootstrap(om_efficiency *e)
{
    const om_matrix *m = e->m;
    size_t K = e->n_units, RC = m->info.n_rows * m->info.n_cols, n_rep = e->opt.replicates;
    size_t total = m->info.n_situations * RC;
    boot_store bs = {0};
    double *tmp = malloc(n_rep * sizeof *tmp), lo, hi;
    om_rng rng;
    om_status st = OM_OK;

    bs.n_fields = 1 + (e->n_armies[0] > e->n_armies[1] ? e->n_armies[0] : e->n_armies[1]);
    bs.ln_fair = malloc(n_rep * K * bs.n_fields * sizeof *bs.ln_fair);
    bs.strength = malloc(n_rep * K * sizeof *bs.strength);
    bs.w = malloc(RC * sizeof *bs.w);
    bs.d = malloc(RC * sizeof *bs.d);
    bs.l = malloc(RC * sizeof *bs.l);
    /* The cells, then room for the price curve's units (boot_curve_units). */
    bs.cells = malloc((total + K) * sizeof *bs.cells);
    bs.weight = malloc(K * sizeof *bs.weight);
    if (tmp == NULL || bs.ln_fair == NULL || bs.strength == NULL || bs.w == NULL
        || bs.d == NULL || bs.l == NULL || bs.cells == NULL || bs.weight == NULL) {
        st = OM_ERROR(OM_ENOMEM, "%s: out of memory for the bootstrap", m->path);
        goto done;
    }
    for (size_t k = 0; k < total; k++)
        if (selected(e, k / RC) && takes_part(&m->cells[k]))
            bs.cells[bs.n_cells++] = k;
    om_rng_seed_block(&rng, e->opt.seed, 0);
    for (size_t rep = 0; rep < n_rep && st == OM_OK; rep++) {
        boot_resample(e, &bs, &rng);
        boot_curve_units(e, &bs, &rng);
        st = boot_replicate(e, &bs, rep);
    }
    for (size_t u = 0; u < K && st == OM_OK; u++) {
        om_efficiency_unit *x = &e->units[u];
        boot_interval(bs.strength + u, n_rep, K, tmp, e->opt.confidence, &x->strength.lo,
                      &x->strength.hi);
        for (size_t f = 0; f < n_fields(e, u); f++) {
            om_efficiency_rating *rt = rating(e, u, f);
            unsigned ok = boot_interval(bs.ln_fair + u * bs.n_fields + f, n_rep, K * bs.n_fields,
                                        tmp, e->opt.confidence, &lo, &hi);
            if (f == 0)
                x->boot_ok = ok;
            rt->ln_fair_se = NAN;
            rt->fair.lo = exp(lo);
            rt->fair.hi = exp(hi);
        }
    }
done:
    free(tmp);
    boot_free(&bs);
    return st;
}

/* ------------------------------------------------------------------ fill */

/* Strengths, their intervals and each unit's status after the fit. */
static void strengths(om_efficiency *e)
{
    double z = z_value(e);
    for (size_t u = 0; u < e->n_units; u++) {
        om_efficiency_unit *x = &e->units[u];
        x->bt_status = e->bt->status[u];
        x->strength.value = x->strength.lo = x->strength.hi = x->strength_se = NAN;
        if (x->cells == 0)
            x->status = OM_EFFICIENCY_NOT_TAKING_PART;
        else if (x->bt_status != OM_BT_ESTIMATED)
            x->status = OM_EFFICIENCY_NO_STRENGTH;
        else if (x->unit->points == 0)
            x->status = OM_EFFICIENCY_NO_COST;
        else
            x->status = OM_EFFICIENCY_RATED;
        if (x->bt_status != OM_BT_ESTIMATED)
            continue;
        x->strength.value = e->bt->strength[u];
        x->strength_se = sqrt(e->model.dispersion) * e->bt->se[u];
        x->strength.lo = x->strength.value - z * x->strength_se;
        x->strength.hi = x->strength.value + z * x->strength_se;
    }
}

static om_status efficiency_fill(om_efficiency *e)
{
    const om_matrix *m = e->m;
    size_t R = m->info.n_rows, C = m->info.n_cols;
    om_status st;

    for (size_t u = 0; u < e->n_units; u++) {
        om_efficiency_unit *x = &e->units[u];
        x->side = u < R ? OM_EFFICIENCY_ROW : OM_EFFICIENCY_COL;
        x->index = u < R ? u : u - R;
        x->unit = u < R ? &m->info.rows[u] : &m->info.cols[u - R];
        x->fair_minus_points = NAN;
    }
    if ((st = armies_fill(e)) != OM_OK)
        return st;
    for (size_t u = 0; u < e->n_units; u++) {
        om_efficiency_unit *x = &e->units[u];
        size_t n = e->n_armies[1 - x->side];
        if ((x->by_army = calloc(n, sizeof *x->by_army)) == NULL)
            return OM_ERROR(OM_ENOMEM, "%s: out of memory", m->path);
        for (size_t f = 0; f < 1 + n; f++) {
            om_efficiency_rating *rt = rating(e, u, f);
            rt->fair.value = rt->fair.lo = rt->fair.hi = rt->ln_fair_se = rt->slope = NAN;
        }
        if ((st = unit_means(e, u)) != OM_OK)
            return st;
    }
    if ((st = check_cells(e)) != OM_OK)
        return st;
    pool_cells(e);
    if ((st = om_bt_fit_alloc(R, C, e->wins, e->draws, e->losses, &e->bt)) != OM_OK)
        return st;
    om_bt_residuals(e->bt, e->wins, e->draws, e->losses, e->observed, e->predicted,
                    e->residual);
    diagnostics(e);
    strengths(e);
    if ((st = fair_values(e)) != OM_OK)
        return st;
    return e->opt.interval == OM_EFFICIENCY_BOOTSTRAP ? bootstrap(e) : OM_OK;
}

/* Check the options and fill in their defaults. */
static om_status options_check(const om_matrix *m, const om_efficiency_options *opt,
                               om_efficiency_options *out)
{
    *out = opt != NULL ? *opt : (om_efficiency_options){.situation = OM_EFFICIENCY_ALL};
    if (out->confidence == 0.0)
        out->confidence = OM_EFFICIENCY_CONFIDENCE;
    if (out->replicates == 0)
        out->replicates = OM_EFFICIENCY_REPLICATES;
    if (out->situation != OM_EFFICIENCY_ALL && out->situation >= m->info.n_situations)
        return OM_ERROR(OM_EINVAL, "%s: situation %zu does not exist (%zu situations)", m->path,
                        out->situation, m->info.n_situations);
    if (!(out->confidence > 0.0 && out->confidence < 1.0))
        return OM_ERROR(OM_EINVAL, "confidence must lie strictly between 0 and 1 (got %g)",
                        out->confidence);
    if (out->replicates > OM_EFFICIENCY_MAX_REPLICATES)
        return OM_ERROR(OM_EINVAL, "at most %u bootstrap replicates (got %u)",
                        OM_EFFICIENCY_MAX_REPLICATES, out->replicates);
    if (out->interval != OM_EFFICIENCY_COVARIANCE && out->interval != OM_EFFICIENCY_BOOTSTRAP)
        return OM_ERROR(OM_EINVAL, "unknown interval method %d", (int)out->interval);
    return OM_OK;
}

om_status om_efficiency_compute(const om_matrix *m, const om_efficiency_options *opt,
                                om_efficiency **out)
{
    om_efficiency *e;
    size_t cells;
    om_status st;
    double **arrays[7];

    if (m == NULL || out == NULL)
        return OM_ERROR(OM_EINVAL, "om_efficiency_compute: missing matrix or output");
    *out = NULL;
    e = calloc(1, sizeof *e);
    if (e == NULL)
        return OM_ERROR(OM_ENOMEM, "%s: out of memory", m->path);
    if ((st = options_check(m, opt, &e->opt)) != OM_OK) {
        free(e);
        return st;
    }
    e->m = m;
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
