/*
 * bt.c: Bradley-Terry maximum likelihood on a bipartite win matrix (bt.h):
 * the estimability check (strongly connected components of the "scored
 * against" graph, Kosaraju's algorithm with explicit stacks), Newton-Raphson
 * with step halving, and the constrained covariance, using gsl_linalg's
 * Cholesky factorisation. R. A. Bradley and M. E. Terry, Biometrika 39 (1952);
 * D. R. Hunter, "MM algorithms for generalized Bradley-Terry models", Annals of
 * Statistics 32 (2004) for the existence condition.
 */
#include "bt.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Step halvings tried before a Newton step is declared unable to improve. */
#define BT_MAX_HALVINGS 60

/* "No node": the end of a neighbour list. */
#define BT_NONE SIZE_MAX

/* The scores of the matrix, as the graph and the likelihood see them. */
typedef struct bt_data {
    size_t R, C;       /* rows, columns */
    double *score;     /* [R*C] wins + draws/2 of the row unit */
    double *against;   /* [R*C] losses + draws/2 of the row unit */
} bt_data;

/* One cell between two estimated units, in the estimation's own indices. */
typedef struct bt_cell {
    size_t a, b;  /* row unit and column unit, indices into the estimated set */
    double s, n;  /* score of a, and games */
} bt_cell;

/* ------------------------------------------------------------------ graph */

/*
 * The j-th possible neighbour of unit u, or BT_NONE if that edge is absent:
 * forward edges u -> v mean "u scored against v"; backward edges follow them
 * in reverse. A row's candidates are the columns and a column's the rows, so
 * j runs over 0..C-1 for a row and 0..R-1 for a column.
 */
static size_t neighbour(const bt_data *d, size_t u, size_t j, bool forward)
{
    if (u < d->R) {
        double e = forward ? d->score[u * d->C + j] : d->against[u * d->C + j];
        return e > 0.0 ? d->R + j : BT_NONE;
    }
    double e = forward ? d->against[j * d->C + (u - d->R)] : d->score[j * d->C + (u - d->R)];
    return e > 0.0 ? j : BT_NONE;
}

/* Candidate neighbours of u: the other side's size. */
static size_t degree(const bt_data *d, size_t u)
{
    return u < d->R ? d->C : d->R;
}

/* DFS frame: a node and the next candidate neighbour to look at. */
typedef struct bt_frame {
    size_t node; /* the node */
    size_t next; /* next candidate index */
} bt_frame;

/*
 * Depth-first search from `start` along forward or backward edges, visiting only
 * nodes with mark[v] == unseen and setting mark[v] = label. When `finish` is not
 * NULL, nodes are appended to it (at *n_finish) in the order they finish.
 * `stack` has room for every node.
 */
static void dfs(const bt_data *d, size_t start, bool forward, int *mark, int unseen, int label,
                bt_frame *stack, size_t *finish, size_t *n_finish)
{
    size_t top = 0;
    mark[start] = label;
    stack[top++] = (bt_frame){start, 0};
    while (top > 0) {
        bt_frame *f = &stack[top - 1];
        size_t v = BT_NONE;
        while (f->next < degree(d, f->node) && v == BT_NONE) {
            size_t w = neighbour(d, f->node, f->next++, forward);
            if (w != BT_NONE && mark[w] == unseen)
                v = w;
        }
        if (v != BT_NONE) {
            mark[v] = label;
            stack[top++] = (bt_frame){v, 0};
        } else {
            if (finish != NULL)
                finish[(*n_finish)++] = f->node;
            top--;
        }
    }
}

/*
 * Label the strongly connected components (Kosaraju): comp[u] = component id for
 * units with games, -1 for the others. Returns the id of the largest component
 * (the first found on ties) and its size in *size; -1 if there is none.
 */
static int largest_component(const bt_data *d, const bool *has_games, int *comp,
                             size_t *size, bt_frame *stack, size_t *order, int *seen)
{
    size_t K = d->R + d->C, n_order = 0, best_size = 0;
    int n_comp = 0, best = -1;

    for (size_t u = 0; u < K; u++) {
        seen[u] = has_games[u] ? 0 : 1;
        comp[u] = -1;
    }
    for (size_t u = 0; u < K; u++)
        if (seen[u] == 0)
            dfs(d, u, true, seen, 0, 1, stack, order, &n_order);
    /* Second pass on the reversed graph, in decreasing finish time. */
    for (size_t i = n_order; i-- > 0;) {
        size_t u = order[i], members = 0;
        if (comp[u] != -1)
            continue;
        dfs(d, u, false, comp, -1, n_comp, stack, NULL, NULL);
        for (size_t v = 0; v < K; v++)
            members += comp[v] == n_comp;
        if (members > best_size) {
            best_size = members;
            best = n_comp;
        }
        n_comp++;
    }
    *size = best_size;
    return best;
}

/* ------------------------------------------------------------- likelihood */

/* log(1 / (1 + exp(-x))), without overflow for large |x|. */
static double log_sigmoid(double x)
{
    return x >= 0.0 ? -log1p(exp(-x)) : x - log1p(exp(x));
}

static double sigmoid(double x)
{
    return x >= 0.0 ? 1.0 / (1.0 + exp(-x)) : exp(x) / (1.0 + exp(x));
}

static double log_likelihood(const bt_cell *cells, size_t n, const gsl_vector *x)
{
    double ll = 0.0;
    for (size_t i = 0; i < n; i++) {
        double z = gsl_vector_get(x, cells[i].a) - gsl_vector_get(x, cells[i].b);
        ll += cells[i].s * log_sigmoid(z) + (cells[i].n - cells[i].s) * log_sigmoid(-z);
    }
    return ll;
}

/*
 * The gradient g (if not NULL) and, in `info`, the observed information plus
 * `shift` times the all-ones matrix, at x.
 */
static void gradient_information(const bt_cell *cells, size_t n, const gsl_vector *x,
                                 double shift, gsl_vector *g, gsl_matrix *info)
{
    gsl_matrix_set_all(info, shift);
    if (g != NULL)
        gsl_vector_set_zero(g);
    for (size_t i = 0; i < n; i++) {
        size_t a = cells[i].a, b = cells[i].b;
        double p = sigmoid(gsl_vector_get(x, a) - gsl_vector_get(x, b));
        double w = cells[i].n * p * (1.0 - p);
        if (g != NULL) {
            double r = cells[i].s - cells[i].n * p;
            *gsl_vector_ptr(g, a) += r;
            *gsl_vector_ptr(g, b) -= r;
        }
        *gsl_matrix_ptr(info, a, a) += w;
        *gsl_matrix_ptr(info, b, b) += w;
        *gsl_matrix_ptr(info, a, b) -= w;
        *gsl_matrix_ptr(info, b, a) -= w;
    }
}

/* Workspace of the Newton iteration, allocated once. */
typedef struct bt_work {
    gsl_matrix *info;  /* k x k */
    gsl_vector *x;     /* current strengths */
    gsl_vector *x_new; /* trial strengths */
    gsl_vector *g;     /* gradient */
    gsl_vector *delta; /* Newton step */
} bt_work;

static void work_free(bt_work *w)
{
    if (w->info != NULL)
        gsl_matrix_free(w->info);
    if (w->x != NULL)
        gsl_vector_free(w->x);
    if (w->x_new != NULL)
        gsl_vector_free(w->x_new);
    if (w->g != NULL)
        gsl_vector_free(w->g);
    if (w->delta != NULL)
        gsl_vector_free(w->delta);
}

/*
 * Maximise the log-likelihood over the k estimated units; the strengths end in
 * w->x (summing to zero) and the covariance in w->info. Sets *iterations and *ll.
 */
static om_status newton(const bt_cell *cells, size_t n, size_t k, bt_work *w,
                        unsigned *iterations, double *ll)
{
    double ll0 = log_likelihood(cells, n, w->x), mean;
    bool converged = false;
    unsigned it = 0;
    int gs;

    while (!converged && it < OM_BT_MAX_ITERATIONS) {
        double t = 1.0, ll1 = ll0, step = 0.0;
        int halvings;
        it++;
        gradient_information(cells, n, w->x, 1.0, w->g, w->info);
        if ((gs = gsl_linalg_cholesky_decomp1(w->info)) != GSL_SUCCESS
            || (gs = gsl_linalg_cholesky_solve(w->info, w->g, w->delta)) != GSL_SUCCESS)
            return OM_ERROR(OM_EINVAL, "Bradley-Terry fit: Newton step failed: %s",
                            gsl_strerror(gs));
        /*
         * Halve the step while the likelihood would fall. At the optimum rounding
         * makes tiny falls of a few ulps of |ll| possible: those are accepted.
         */
        for (halvings = 0; halvings < BT_MAX_HALVINGS; halvings++, t *= 0.5) {
            gsl_vector_memcpy(w->x_new, w->x);
            gsl_blas_daxpy(t, w->delta, w->x_new);
            ll1 = log_likelihood(cells, n, w->x_new);
            if (ll1 >= ll0 - 1e-12 * (1.0 + fabs(ll0)))
                break;
        }
        /* No step improves: x is the optimum to rounding. */
        if (halvings == BT_MAX_HALVINGS) {
            converged = true;
            break;
        }
        for (size_t i = 0; i < k; i++)
            step = fmax(step, fabs(t * gsl_vector_get(w->delta, i)));
        gsl_vector_memcpy(w->x, w->x_new);
        ll0 = ll1;
        converged = step < OM_BT_TOLERANCE;
    }
    if (!converged)
        return OM_ERROR(OM_EINVAL, "Bradley-Terry fit did not converge in %d iterations",
                        OM_BT_MAX_ITERATIONS);
    /* Steps are orthogonal to 1 in exact arithmetic; remove the rounding drift. */
    mean = 0.0;
    for (size_t i = 0; i < k; i++)
        mean += gsl_vector_get(w->x, i);
    gsl_vector_add_constant(w->x, -mean / (double)k);

    /* Covariance under the constraint: (I + 11^T/k)^-1 - 11^T/k (bt.h). */
    gradient_information(cells, n, w->x, 1.0 / (double)k, NULL, w->info);
    if ((gs = gsl_linalg_cholesky_decomp1(w->info)) != GSL_SUCCESS
        || (gs = gsl_linalg_cholesky_invert(w->info)) != GSL_SUCCESS)
        return OM_ERROR(OM_EINVAL, "Bradley-Terry fit: information matrix not invertible: %s",
                        gsl_strerror(gs));
    gsl_matrix_add_constant(w->info, -1.0 / (double)k);
    *iterations = it;
    *ll = log_likelihood(cells, n, w->x);
    return OM_OK;
}

/* --------------------------------------------------------------- the fit */

void om_bt_fit_free(om_bt_fit *fit)
{
    if (fit == NULL)
        return;
    free(fit->status);
    free(fit->strength);
    free(fit->se);
    free(fit->cov);
    free(fit);
}

/* Allocate a fit for K units with every unit unestimated (NaN). */
static om_bt_fit *fit_new(size_t R, size_t C)
{
    size_t K = R + C;
    om_bt_fit *f = calloc(1, sizeof *f);
    if (f == NULL)
        return NULL;
    f->n_rows = R;
    f->n_cols = C;
    f->n_units = K;
    f->status = calloc(K, sizeof *f->status);
    f->strength = malloc(K * sizeof *f->strength);
    f->se = malloc(K * sizeof *f->se);
    f->cov = K <= SIZE_MAX / sizeof(double) / K ? malloc(K * K * sizeof *f->cov) : NULL;
    if (f->status == NULL || f->strength == NULL || f->se == NULL || f->cov == NULL) {
        om_bt_fit_free(f);
        return NULL;
    }
    for (size_t u = 0; u < K; u++)
        f->strength[u] = f->se[u] = NAN;
    for (size_t i = 0; i < K * K; i++)
        f->cov[i] = NAN;
    return f;
}

/* Scratch memory of one fit: graph and estimation arrays. */
typedef struct bt_scratch {
    bt_data d;       /* scores */
    bool *has_games; /* [K] */
    int *comp;       /* [K] component of each unit */
    int *reach_fwd;  /* [K] reached from the estimated set along forward edges */
    int *reach_bwd;  /* [K] reached along backward edges */
    int *seen;       /* [K] DFS marks */
    size_t *order;   /* [K] finish order */
    size_t *index;   /* [K] index in the estimated set, or BT_NONE */
    bt_frame *stack; /* [K] DFS stack */
    bt_cell *cells;  /* [R*C] cells between estimated units */
} bt_scratch;

static void scratch_free(bt_scratch *s)
{
    free(s->d.score);
    free(s->d.against);
    free(s->has_games);
    free(s->comp);
    free(s->reach_fwd);
    free(s->reach_bwd);
    free(s->seen);
    free(s->order);
    free(s->index);
    free(s->stack);
    free(s->cells);
}

static bool scratch_alloc(bt_scratch *s, size_t R, size_t C)
{
    size_t K = R + C;
    s->d = (bt_data){R, C, malloc(R * C * sizeof(double)), malloc(R * C * sizeof(double))};
    s->has_games = calloc(K, sizeof *s->has_games);
    s->comp = malloc(K * sizeof *s->comp);
    s->reach_fwd = malloc(K * sizeof *s->reach_fwd);
    s->reach_bwd = malloc(K * sizeof *s->reach_bwd);
    s->seen = malloc(K * sizeof *s->seen);
    s->order = malloc(K * sizeof *s->order);
    s->index = malloc(K * sizeof *s->index);
    s->stack = malloc(K * sizeof *s->stack);
    s->cells = malloc(R * C * sizeof *s->cells);
    return s->d.score != NULL && s->d.against != NULL && s->has_games != NULL
           && s->comp != NULL && s->reach_fwd != NULL && s->reach_bwd != NULL
           && s->seen != NULL && s->order != NULL && s->index != NULL && s->stack != NULL
           && s->cells != NULL;
}

/* Check the counts and fill the scores; OM_EINVAL names the first bad cell. */
static om_status scores_fill(bt_scratch *s, const double *wins, const double *draws,
                             const double *losses)
{
    size_t R = s->d.R, C = s->d.C;
    for (size_t r = 0; r < R; r++)
        for (size_t c = 0; c < C; c++) {
            size_t i = r * C + c;
            if (!(isfinite(wins[i]) && isfinite(draws[i]) && isfinite(losses[i]))
                || wins[i] < 0.0 || draws[i] < 0.0 || losses[i] < 0.0)
                return OM_ERROR(OM_EINVAL, "Bradley-Terry fit: cell (%zu, %zu) has counts "
                                "%g, %g, %g; they must be finite and not negative", r, c,
                                wins[i], draws[i], losses[i]);
            /* Draws count as half a win for each side (bt.h). */
            s->d.score[i] = wins[i] + 0.5 * draws[i];
            s->d.against[i] = losses[i] + 0.5 * draws[i];
            if (s->d.score[i] + s->d.against[i] > 0.0)
                s->has_games[r] = s->has_games[R + c] = true;
        }
    return OM_OK;
}

/* Status of every unit from the components and the reachability of the main set. */
static void classify(om_bt_fit *f, bt_scratch *s, int main_comp, size_t main_size)
{
    size_t K = f->n_units;
    bool have_main = main_comp >= 0 && main_size >= 2;
    for (size_t u = 0; u < K; u++)
        s->reach_fwd[u] = s->reach_bwd[u] = 0;
    for (size_t u = 0; have_main && u < K; u++)
        if (s->comp[u] == main_comp) {
            if (s->reach_fwd[u] == 0)
                dfs(&s->d, u, true, s->reach_fwd, 0, 1, s->stack, NULL, NULL);
            if (s->reach_bwd[u] == 0)
                dfs(&s->d, u, false, s->reach_bwd, 0, 1, s->stack, NULL, NULL);
        }
    f->n_estimated = 0;
    for (size_t u = 0; u < K; u++) {
        s->index[u] = BT_NONE;
        if (!s->has_games[u]) {
            f->status[u] = OM_BT_NO_GAMES;
        } else if (have_main && s->comp[u] == main_comp) {
            f->status[u] = OM_BT_ESTIMATED;
            s->index[u] = f->n_estimated++;
        } else if (s->reach_fwd[u] && !s->reach_bwd[u]) {
            /* The estimated units scored against it, never it against them. */
            f->status[u] = OM_BT_WINLESS;
        } else if (s->reach_bwd[u] && !s->reach_fwd[u]) {
            f->status[u] = OM_BT_UNBEATEN;
        } else {
            f->status[u] = OM_BT_DISCONNECTED;
        }
    }
}

/* Run Newton on the estimated units and store strengths and covariance in f. */
static om_status estimate(om_bt_fit *f, bt_scratch *s)
{
    size_t R = f->n_rows, C = f->n_cols, k = f->n_estimated, n = 0;
    bt_work w = {0};
    om_status st;

    for (size_t r = 0; r < R; r++)
        for (size_t c = 0; c < C; c++) {
            size_t a = s->index[r], b = s->index[R + c], i = r * C + c;
            double games = s->d.score[i] + s->d.against[i];
            if (a != BT_NONE && b != BT_NONE && games > 0.0)
                s->cells[n++] = (bt_cell){a, b, s->d.score[i], games};
        }
    w.info = gsl_matrix_alloc(k, k);
    w.x = gsl_vector_calloc(k);
    w.x_new = gsl_vector_alloc(k);
    w.g = gsl_vector_alloc(k);
    w.delta = gsl_vector_alloc(k);
    if (w.info == NULL || w.x == NULL || w.x_new == NULL || w.g == NULL || w.delta == NULL) {
        work_free(&w);
        return OM_ERROR(OM_ENOMEM, "Bradley-Terry fit: out of memory");
    }
    st = newton(s->cells, n, k, &w, &f->iterations, &f->log_likelihood);
    if (st == OM_OK) {
        for (size_t u = 0; u < f->n_units; u++) {
            if (s->index[u] == BT_NONE)
                continue;
            f->strength[u] = gsl_vector_get(w.x, s->index[u]);
            for (size_t v = 0; v < f->n_units; v++)
                if (s->index[v] != BT_NONE)
                    f->cov[u * f->n_units + v] = gsl_matrix_get(w.info, s->index[u],
                                                                s->index[v]);
            /* A variance of a few ulps below 0 is rounding: clamp before the root. */
            f->se[u] = sqrt(fmax(0.0, f->cov[u * f->n_units + u]));
        }
    }
    work_free(&w);
    return st;
}

om_status om_bt_fit_alloc(size_t n_rows, size_t n_cols, const double *wins, const double *draws,
                          const double *losses, om_bt_fit **out)
{
    bt_scratch s = {0};
    om_bt_fit *f;
    om_status st;
    size_t main_size = 0;
    int main_comp;

    if (out == NULL || wins == NULL || draws == NULL || losses == NULL)
        return OM_ERROR(OM_EINVAL, "om_bt_fit_alloc: missing output or counts");
    *out = NULL;
    if (n_rows == 0 || n_cols == 0)
        return OM_ERROR(OM_EINVAL, "Bradley-Terry fit of a %zu x %zu matrix: need at least "
                        "one row and one column", n_rows, n_cols);
    /* Catch size_t overflow of the R*C and K*K arrays. */
    if (n_rows > SIZE_MAX / 2 / n_cols || n_rows + n_cols > (SIZE_MAX >> 32))
        return OM_ERROR(OM_EINVAL, "Bradley-Terry fit: %zu x %zu is too large", n_rows, n_cols);
    f = fit_new(n_rows, n_cols);
    if (f == NULL || !scratch_alloc(&s, n_rows, n_cols)) {
        scratch_free(&s);
        om_bt_fit_free(f);
        return OM_ERROR(OM_ENOMEM, "Bradley-Terry fit: out of memory");
    }
    if ((st = scores_fill(&s, wins, draws, losses)) == OM_OK) {
        main_comp = largest_component(&s.d, s.has_games, s.comp, &main_size, s.stack, s.order,
                                      s.seen);
        classify(f, &s, main_comp, main_size);
        if (f->n_estimated >= 2)
            st = estimate(f, &s);
    }
    scratch_free(&s);
    if (st != OM_OK) {
        om_bt_fit_free(f);
        return st;
    }
    *out = f;
    return OM_OK;
}

double om_bt_predict(const om_bt_fit *fit, size_t r, size_t c)
{
    size_t u = r, v = fit->n_rows + c;
    if (r >= fit->n_rows || c >= fit->n_cols || fit->status[u] != OM_BT_ESTIMATED
        || fit->status[v] != OM_BT_ESTIMATED)
        return NAN;
    return sigmoid(fit->strength[u] - fit->strength[v]);
}

void om_bt_residuals(const om_bt_fit *fit, const double *wins, const double *draws,
                     const double *losses, double *observed, double *predicted,
                     double *residual)
{
    size_t R = fit->n_rows, C = fit->n_cols;
    for (size_t r = 0; r < R; r++)
        for (size_t c = 0; c < C; c++) {
            size_t i = r * C + c;
            double games = wins[i] + draws[i] + losses[i];
            double obs = games > 0.0 ? (wins[i] + 0.5 * draws[i]) / games : NAN;
            double pred = games > 0.0 ? om_bt_predict(fit, r, c) : NAN;
            if (observed != NULL)
                observed[i] = obs;
            if (predicted != NULL)
                predicted[i] = pred;
            if (residual != NULL)
                residual[i] = obs - pred;
        }
}

const char *om_bt_status_name(om_bt_status status)
{
    switch (status) {
    case OM_BT_ESTIMATED: return "estimated";
    case OM_BT_UNBEATEN: return "not estimable: never beaten by the field (strength +inf)";
    case OM_BT_WINLESS: return "not estimable: never scored against the field (strength -inf)";
    case OM_BT_DISCONNECTED: return "not estimable: no results link it to the field";
    case OM_BT_NO_GAMES: return "not estimable: no trials";
    }
    return "unknown";
}

/* ------------------------------------------------ a pool with terms */

/* The log-likelihood of a pool fit at x (K strengths, then the terms). */
static double pool_loglik(size_t k, size_t n_terms, const om_bt_pair *p, size_t n_pairs,
                          const double *x)
{
    double ll = 0;
    for (size_t i = 0; i < n_pairs; i++) {
        double eta = x[p[i].a] - x[p[i].b];
        for (size_t t = 0; t < n_terms; t++)
            eta += x[k + t] * p[i].x[t];
        /* log P = -log(1 + e^-eta), log(1 - P) = -log(1 + e^eta), stably. */
        ll -= p[i].score * log1p(exp(-eta)) + (p[i].n - p[i].score) * log1p(exp(eta));
    }
    return ll;
}

om_status om_bt_pool_fit(size_t k, size_t n_terms, const om_bt_pair *p, size_t n_pairs,
                         double *est, double *se)
{
    const size_t m = k + n_terms;
    gsl_matrix *h = NULL;
    gsl_vector *g = NULL, *d = NULL;
    om_status st = OM_OK;
    unsigned it;

    if (k == 0 || n_pairs == 0 || n_terms > OM_BT_TERMS_MAX || p == NULL || est == NULL)
        return OM_ERROR(OM_EINVAL, "a pool fit needs players, cells and at most %d terms",
                        OM_BT_TERMS_MAX);
    for (size_t i = 0; i < n_pairs; i++)
        if (p[i].a >= k || p[i].b >= k || !(p[i].score >= 0) || !(p[i].n >= p[i].score) ||
            !isfinite(p[i].n))
            return OM_ERROR(OM_EINVAL, "pool fit: cell %zu is out of range", i);
    h = gsl_matrix_alloc(m, m);
    g = gsl_vector_alloc(m);
    d = gsl_vector_alloc(m);
    if (h == NULL || g == NULL || d == NULL) {
        st = OM_ERROR(OM_ENOMEM, "out of memory for a pool fit");
        goto done;
    }
    for (size_t i = 0; i < m; i++)
        est[i] = 0;
    for (it = 0; it < OM_BT_MAX_ITERATIONS; it++) {
        double moved = 0, ll0 = pool_loglik(k, n_terms, p, n_pairs, est), step = 1;
        gsl_matrix_set_zero(h);
        gsl_vector_set_zero(g);
        /* The constraint's null direction (every strength alike) filled. */
        for (size_t i = 0; i < k; i++)
            for (size_t j = 0; j < k; j++)
                gsl_matrix_set(h, i, j, 1.0);
        for (size_t i = 0; i < n_pairs; i++) {
            double v[2 + OM_BT_TERMS_MAX];
            size_t at[2 + OM_BT_TERMS_MAX], nv = 0;
            double eta = est[p[i].a] - est[p[i].b];
            for (size_t t = 0; t < n_terms; t++)
                eta += est[k + t] * p[i].x[t];
            const double q = 1.0 / (1.0 + exp(-eta)), w = p[i].n * q * (1 - q),
                         r = p[i].score - p[i].n * q;
            if (p[i].a != p[i].b) {
                at[nv] = p[i].a, v[nv++] = 1;
                at[nv] = p[i].b, v[nv++] = -1;
            }
            for (size_t t = 0; t < n_terms; t++)
                at[nv] = k + t, v[nv++] = p[i].x[t];
            for (size_t u = 0; u < nv; u++) {
                *gsl_vector_ptr(g, at[u]) += r * v[u];
                for (size_t z = 0; z < nv; z++)
                    *gsl_matrix_ptr(h, at[u], at[z]) += w * v[u] * v[z];
            }
        }
        if (gsl_linalg_cholesky_decomp1(h) != GSL_SUCCESS ||
            gsl_linalg_cholesky_solve(h, g, d) != GSL_SUCCESS) {
            st = OM_ERROR(OM_EINVAL, "pool fit: no estimate (a player that won or lost "
                          "every comparison, players no result links, or a term no cell "
                          "varies)");
            goto done;
        }
        /* Halve the step while the log-likelihood would fall. */
        for (;;) {
            double trial[OM_BT_TERMS_MAX + 256], *x = m <= sizeof trial / sizeof trial[0]
                                                          ? trial : NULL;
            if (x == NULL) {
                st = OM_ERROR(OM_EINVAL, "pool fit: at most %zu players",
                              sizeof trial / sizeof trial[0] - OM_BT_TERMS_MAX);
                goto done;
            }
            for (size_t i = 0; i < m; i++)
                x[i] = est[i] + step * gsl_vector_get(d, i);
            if (pool_loglik(k, n_terms, p, n_pairs, x) >= ll0 - 1e-12 || step < 1e-6) {
                for (size_t i = 0; i < m; i++) {
                    moved = fmax(moved, fabs(x[i] - est[i]));
                    est[i] = x[i];
                }
                break;
            }
            step /= 2;
        }
        for (size_t i = 0; i < k; i++)
            if (fabs(est[i]) > OM_BT_POOL_DIVERGED) {
                st = OM_ERROR(OM_EINVAL, "pool fit: player %zu %s every comparison: its "
                              "strength has no estimate", i, est[i] > 0 ? "scored in" :
                              "lost");
                goto done;
            }
        if (moved < OM_BT_TOLERANCE)
            break;
    }
    if (it == OM_BT_MAX_ITERATIONS) {
        st = OM_ERROR(OM_EINVAL, "pool fit: no convergence in %d steps", OM_BT_MAX_ITERATIONS);
        goto done;
    }
    /* Standard errors: the inverse of the information with 11^T/K on the
     * strengths, less 11^T/K (the pseudo-inverse under the constraint). */
    if (se != NULL) {
        gsl_matrix_set_zero(h);
        for (size_t i = 0; i < k; i++)
            for (size_t j = 0; j < k; j++)
                gsl_matrix_set(h, i, j, 1.0 / (double)k);
        for (size_t i = 0; i < n_pairs; i++) {
            double eta = est[p[i].a] - est[p[i].b], v[2 + OM_BT_TERMS_MAX];
            size_t at[2 + OM_BT_TERMS_MAX], nv = 0;
            for (size_t t = 0; t < n_terms; t++)
                eta += est[k + t] * p[i].x[t];
            const double q = 1.0 / (1.0 + exp(-eta)), w = p[i].n * q * (1 - q);
            if (p[i].a != p[i].b) {
                at[nv] = p[i].a, v[nv++] = 1;
                at[nv] = p[i].b, v[nv++] = -1;
            }
            for (size_t t = 0; t < n_terms; t++)
                at[nv] = k + t, v[nv++] = p[i].x[t];
            for (size_t u = 0; u < nv; u++)
                for (size_t z = 0; z < nv; z++)
                    *gsl_matrix_ptr(h, at[u], at[z]) += w * v[u] * v[z];
        }
        if (gsl_linalg_cholesky_decomp1(h) != GSL_SUCCESS ||
            gsl_linalg_cholesky_invert(h) != GSL_SUCCESS) {
            st = OM_ERROR(OM_EINVAL, "pool fit: the information is singular");
            goto done;
        }
        for (size_t i = 0; i < m; i++) {
            const double v = gsl_matrix_get(h, i, i) - (i < k ? 1.0 / (double)k : 0.0);
            se[i] = sqrt(v > 0 ? v : 0);
        }
    }
done:
    gsl_matrix_free(h);
    gsl_vector_free(g);
    gsl_vector_free(d);
    return st;
}
