/*
 * matrix.c: matchup matrices (see matrix.h): lists of units from the army
 * data, the built-in situations, one scenario per cell, and the parallel run
 * over cells with fixed or adaptive trial counts.
 */
#include "matrix.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "army.h"
#include "rng.h"
#include "run.h"
#include "game.h"

/* The situations of issue #5: who charges, who shoots first, who defends. A's
 * keys and B's keys are scenario side keys; shooting and defending keys are
 * added per cell only where the unit can use them. */
static const om_matrix_situation_def om_matrix_situations[] = {
    {"a-charges", "A charges B in the open", "  charging: true\n", "", false, false, false,
     false},
    {"b-charges", "B charges A in the open", "", "  charging: true\n", false, false, false,
     false},
    {"a-charges-b-shoots", "A charges B, which stands and shoots if it can",
     "  charging: true\n", "", true, false, false, false},
    {"a-shoots-then-charges",
     "A shot at B in its previous turn (if it can shoot), then charges", "  charging: true\n",
     "", false, false, true, false},
    {"b-shoots-first", "B shot at A in its previous turn and stands and shoots (if it can), "
     "then A charges", "  charging: true\n", "", true, true, false, false},
    {"a-charges-b-defended", "A charges B in a defended position (infantry and artillery)",
     "  charging: true\n", "", false, false, false, true},
};

#define OM_MATRIX_SITUATIONS (sizeof om_matrix_situations / sizeof om_matrix_situations[0])

size_t om_matrix_situation_count(void) { return OM_MATRIX_SITUATIONS; }

const om_matrix_situation_def *om_matrix_situation_at(size_t i)
{
    return i < OM_MATRIX_SITUATIONS ? &om_matrix_situations[i] : NULL;
}

const om_matrix_situation_def *om_matrix_situation_find(const char *name)
{
    for (size_t i = 0; i < OM_MATRIX_SITUATIONS; i++)
        if (strcmp(om_matrix_situations[i].name, name) == 0)
            return &om_matrix_situations[i];
    return NULL;
}

/* Add army entry `u` to the list if it is a troop unit the engine fights with. */
static om_status add_member(om_matrix_list *l, const om_army *a, const om_army_unit *u,
                            bool required)
{
    om_wm_unit w;
    om_matrix_member *m;
    om_status st = om_army_unit_to_wm(u, om_wm_ruleset_find(a->ruleset), &w);
    if (st != OM_OK) {
        if (required)
            return OM_ERROR(st, "%s/%s cannot be a matrix unit: %s", a->id, u->id,
                            om_error_message());
        om_error_clear();
        return OM_OK; /* characters, mounts and the like are not matrix units */
    }
    m = realloc(l->members, (l->count + 1) * sizeof *l->members);
    if (m == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory listing units");
    l->members = m;
    m = &l->members[l->count++];
    snprintf(m->army, sizeof m->army, "%s", a->id);
    snprintf(m->unit, sizeof m->unit, "%s", u->id);
    snprintf(m->name, sizeof m->name, "%s", w.name);
    m->points = w.points;
    m->shots = w.traits.no_stand_and_shoot ? 0u : w.shots;
    m->can_be_defended = w.troop == OM_WM_INFANTRY || w.troop == OM_WM_ARTILLERY;
    return OM_OK;
}

om_status om_matrix_list_alloc(const char *ruleset, const char *spec, om_matrix_list **out)
{
    char army_id[64], *units = NULL;
    const char *slash = strchr(spec, '/');
    om_matrix_list *l;
    om_army *a = NULL;
    om_status st;
    size_t len = slash ? (size_t)(slash - spec) : strlen(spec);

    *out = NULL;
    if (len == 0 || len >= sizeof army_id)
        return OM_ERROR(OM_EINVAL, "'%s' is not a list: give ARMY or ARMY/UNIT,UNIT", spec);
    memcpy(army_id, spec, len);
    army_id[len] = '\0';
    if ((st = om_army_load(ruleset, army_id, &a)) != OM_OK)
        return st;
    l = calloc(1, sizeof *l);
    if (l == NULL || (slash && (units = strdup(slash + 1)) == NULL)) {
        free(l);
        om_army_free(a);
        return OM_ERROR(OM_ENOMEM, "out of memory listing units");
    }
    snprintf(l->label, sizeof l->label, "%s", spec);
    if (units == NULL) {
        for (size_t i = 0; i < a->units_count && st == OM_OK; i++)
            st = add_member(l, a, &a->units[i], false);
    } else {
        char *save = NULL;
        for (char *id = strtok_r(units, ",", &save); id && st == OM_OK;
             id = strtok_r(NULL, ",", &save)) {
            const om_army_unit *u = NULL;
            if ((st = om_army_unit_lookup(a, id, &u)) == OM_OK)
                st = add_member(l, a, u, true);
        }
    }
    free(units);
    om_army_free(a);
    if (st == OM_OK && l->count == 0)
        st = OM_ERROR(OM_EINVAL, "the list '%s' has no unit the engine can fight with", spec);
    if (st != OM_OK) {
        om_matrix_list_free(l);
        return st;
    }
    *out = l;
    return OM_OK;
}

void om_matrix_list_free(om_matrix_list *l)
{
    if (l == NULL)
        return;
    free(l->members);
    free(l);
}

uint64_t om_matrix_cell_seed(uint64_t seed, size_t s, size_t r, size_t c)
{
    uint64_t x = seed;
    uint64_t h = om_rng_splitmix64(&x);
    x = h ^ ((uint64_t)s << 42) ^ ((uint64_t)r << 21) ^ (uint64_t)c;
    return om_rng_splitmix64(&x);
}

/* Append printf output to a growing string; false when out of memory. */
static bool appendf(char **buf, size_t *len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static bool appendf(char **buf, size_t *len, const char *fmt, ...)
{
    va_list ap;
    int n;
    char *grown;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || (grown = realloc(*buf, *len + (size_t)n + 1)) == NULL)
        return false;
    *buf = grown;
    va_start(ap, fmt);
    vsnprintf(*buf + *len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    *len += (size_t)n;
    return true;
}

/* A YAML double-quoted scalar of `text` (names may hold ':' or quotes). */
static bool append_quoted(char **buf, size_t *len, const char *text)
{
    bool ok = appendf(buf, len, "\"");
    for (const char *p = text; ok && *p; p++)
        ok = (*p == '"' || *p == '\\') ? appendf(buf, len, "\\%c", *p)
                                       : appendf(buf, len, "%c", *p);
    return ok && appendf(buf, len, "\"");
}

char *om_matrix_cell_scenario(const om_matrix_spec *spec, size_t s, size_t r, size_t c)
{
    const om_matrix_situation_def *sit = spec->situations[s];
    const om_matrix_member *a = &spec->rows->members[r], *b = &spec->cols->members[c];
    bool b_shoots = sit->b_shoots && b->shots > 0;
    bool b_first = sit->b_shoots_first && b->shots > 0;
    bool a_first = sit->a_shoots_first && a->shots > 0;
    bool b_defended = sit->b_defended && b->can_be_defended;
    char *buf = NULL, title[256];
    size_t len = 0;
    bool ok;

    ok = appendf(&buf, &len,
                 "# Matrix cell s=%zu r=%zu c=%zu, situation %s; seed %llu.\n"
                 "# Reproduce: oddsmaster run THIS_FILE --seed %llu --trials <the cell's trials>\n",
                 s, r, c, sit->name, (unsigned long long)om_matrix_cell_seed(spec->seed, s, r, c),
                 (unsigned long long)om_matrix_cell_seed(spec->seed, s, r, c));
    if (ok && ((sit->b_shoots && !b_shoots) || (sit->a_shoots_first && !a_first) ||
               (sit->b_defended && !b_defended)))
        ok = appendf(&buf, &len, "# Keys of the situation a unit cannot use are left out.\n");
    snprintf(title, sizeof title, "%s vs %s: %s", a->name, b->name, sit->description);
    ok = ok && appendf(&buf, &len, "schema: oddsmaster-scenario/1\ntitle: ") &&
         append_quoted(&buf, &len, title) && appendf(&buf, &len, "\n") &&
         appendf(&buf, &len,
                 "ruleset: %s\nkind: %s\na:\n  unit:\n    from: %s/%s\n%s%s"
                 "b:\n  unit:\n    from: %s/%s\n%s%s%s%s",
                 spec->ruleset, spec->kind, a->army, a->unit, sit->a_keys,
                 a_first ? "  shoots_first: true\n" : "", b->army, b->unit, sit->b_keys,
                 b_shoots ? "  stand_and_shoot: true\n" : "",
                 b_first ? "  shoots_first: true\n" : "",
                 b_defended ? "  position: defended\n" : "");
    if (!ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* What the sink of one cell accumulates, from each block's tally. */
typedef struct cell_sink {
    om_matrix_cell *cell;    /* the cell being filled */
    const om_layout *layout; /* the rows' fields and the sides' victory points */
    size_t winner;           /* index of the winner field */
} cell_sink;

/* Add a block's wins, draws and victory points to the cell (blocks come in
 * order, so the sums are the same whatever the thread count). */
static om_status cell_put(void *ctx, const om_block *b, bool *stop)
{
    cell_sink *cs = ctx;
    const om_layout *l = cs->layout;
    const uint64_t *w = b->tally->hist[cs->winner];
    om_matrix_cell *cell = cs->cell;
    double *lost[2] = {&cell->points_lost_row_sum, &cell->points_lost_col_sum};
    (void)stop;
    cell->wins_row += w[OM_WINNER_A];
    cell->draws += w[OM_WINNER_DRAW];
    cell->wins_col += w[OM_WINNER_B];
    for (int s = 0; s < 2; s++) {
        const om_side_score *sc = &l->side[s];
        if (sc->loss_field < 0)
            continue;
        for (unsigned v = 0; v <= sc->loss_start; v++)
            *lost[s] += (double)b->tally->hist[sc->loss_field][v] * (double)sc->vp_lost[v];
    }
    cell->trials += b->n;
    return OM_OK;
}

om_status om_matrix_simulate_cell(const om_matrix_spec *spec, size_t s, size_t r, size_t c,
                                  unsigned threads, om_matrix_cell *cell)
{
    char source[256], *text = om_matrix_cell_scenario(spec, s, r, c);
    om_scenario *sc = NULL;
    om_trials trials = {0};
    om_run_config cfg = {.seed = om_matrix_cell_seed(spec->seed, s, r, c),
                         .block_size = OM_RUN_BLOCK_SIZE, .threads = threads};
    cell_sink cs = {.cell = cell};
    om_run_sink sink = {.ctx = &cs, .put = cell_put};
    om_status st;
    int winner;

    memset(cell, 0, sizeof *cell);
    if (text == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory writing a matrix cell");
    snprintf(source, sizeof source, "<matrix cell %s: %s vs %s>", spec->situations[s]->name,
             spec->rows->members[r].unit, spec->cols->members[c].unit);
    st = om_scenario_load_text(source, text, strlen(text), &sc);
    free(text);
    if (st == OM_OK)
        st = om_trials_prepare(sc, &trials);
    if (st == OM_OK && (winner = om_layout_find(&trials.layout, "winner")) < 0)
        st = OM_ERROR(OM_EINVAL, "%s: a matrix needs trials with a winner", source);
    if (st != OM_OK) {
        om_trials_release(&trials);
        om_scenario_free(sc);
        return st;
    }
    cs.layout = &trials.layout;
    cs.winner = (size_t)winner;
    if (spec->trials > 0) {
        cfg.trials = spec->trials;
        st = om_run_simulate(&trials, &cfg, &sink, NULL);
    } else {
        /* Adaptive: whole blocks until the interval of P(row wins) is narrow
         * enough; the blocks are those of one run of cell->trials trials. */
        cfg.trials = OM_RUN_BLOCK_SIZE;
        while (st == OM_OK && cell->trials < spec->max_trials &&
               (cell->trials == 0 ||
                om_tally_halfwidth95(cell->wins_row, cell->trials) > spec->halfwidth)) {
            cfg.first_block = cell->trials / OM_RUN_BLOCK_SIZE;
            st = om_run_simulate(&trials, &cfg, &sink, NULL);
        }
    }
    om_trials_release(&trials);
    om_scenario_free(sc);
    return st;
}

/* Write cell (s, r, c)'s scenario to cells_dir. */
static om_status write_cell_file(const om_matrix_spec *spec, const char *dir, size_t s, size_t r,
                                 size_t c, uint64_t trials)
{
    char path[4096], *text = om_matrix_cell_scenario(spec, s, r, c);
    FILE *f;
    om_status st = OM_OK;
    if (text == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory writing a matrix cell");
    snprintf(path, sizeof path, "%s/s%zu_r%zu_c%zu.yaml", dir, s, r, c);
    f = fopen(path, "w");
    if (f != NULL)
        fprintf(f, "# This cell ran %llu trials: oddsmaster run %s --seed %llu --trials %llu\n",
                (unsigned long long)trials, path,
                (unsigned long long)om_matrix_cell_seed(spec->seed, s, r, c),
                (unsigned long long)trials);
    if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0)
        st = OM_ERROR(OM_EIO, "cannot write %s: %s", path, strerror(errno));
    free(text);
    return st;
}

om_status om_matrix_run(const om_matrix_spec *spec, om_h5m_writer *w, const char *cells_dir,
                        om_matrix_progress progress, void *ctx)
{
    const size_t R = spec->rows->count, C = spec->cols->count, S = spec->n_situations;
    const size_t total = S * R * C;
    const int threads = (int)om_run_threads(spec->threads);
    om_status failed = OM_OK;
    char failed_msg[OM_ERROR_MSG_MAX] = "";
    size_t done = 0;

    /* One cell per thread at a time: cells are many and small, so the threads
     * stay busy, and a cell's numbers do not depend on how many there are. */
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (size_t i = 0; i < total; i++) {
        size_t s = i / (R * C), r = (i / C) % R, c = i % C;
        om_matrix_cell cell;
        om_status st, seen;
#pragma omp atomic read
        seen = failed;
        if (seen != OM_OK)
            continue;
        st = om_matrix_simulate_cell(spec, s, r, c, 1, &cell);
        if (st == OM_OK && cells_dir != NULL)
            st = write_cell_file(spec, cells_dir, s, r, c, cell.trials);
#pragma omp critical(om_matrix_writer)
        {
            if (st == OM_OK && failed == OM_OK)
                st = om_h5m_writer_put_cell(w, s, r, c, &cell);
            if (st != OM_OK && failed == OM_OK) {
                snprintf(failed_msg, sizeof failed_msg, "%s", om_error_message());
#pragma omp atomic write
                failed = st;
            }
            done++;
            if (progress && failed == OM_OK)
                progress(ctx, done, total);
        }
    }
    if (failed != OM_OK)
        return OM_ERROR(failed, "%s", failed_msg);
    return OM_OK;
}
