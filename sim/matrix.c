/*
 * matrix.c: matchup matrices for any game (matrix.h): the plan (units read
 * once, situations, readings, the cells a unit has no part in), each cell
 * built by the game and run through the driver with fixed or adaptive trial
 * counts, and the whole matrix run in parallel over cells into a matrix file
 * with each trial's winner.
 */
#include "matrix.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <omp.h>

#include "om_version.h"
#include "rng.h"
#include "run.h"
#include "suggest.h"

/* ----------------------------------------------------------- the plan */

void om_matrix_plan_free(om_matrix_plan *p)
{
    if (p == NULL)
        return;
    if (p->game != NULL) {
        p->game->matrix->units_free(p->rows, p->n_rows);
        p->game->matrix->units_free(p->cols, p->n_cols);
    }
    free(p->cannot);
    free(p->left_out);
    free(p->ruleset);
    free(p->kind);
    free(p->row_spec);
    free(p->col_spec);
    free(p->options_text);
    free(p);
}

/* Room for the names a message lists: every situation, kind or rule set. */
#define NAMES_TEXT_MAX 512

/* Most situations of a game whose names a message weighs. */
#define SITUATION_NAMES_MAX 64

/* Raise `code` for the unknown `what` called `name` among names[0..n)
 * (`plural` of `what`): the nearest of them, if one is near, and where to see
 * them (`see`, NULL for nowhere), else all of them. */
static om_status unknown_name(om_status code, const char *what, const char *plural,
                              const char *name, const char *const *names, size_t n,
                              const char *see)
{
    const char *best = om_suggest(name, names, n);
    char known[NAMES_TEXT_MAX] = "";
    if (best != NULL)
        return OM_ERROR(code, "unknown %s '%s'; did you mean '%s'?%s%s%s", what, name, best,
                        see ? " (" : "", see ? see : "", see ? ")" : "");
    for (size_t i = 0; i < n; i++) {
        size_t used = strlen(known);
        snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", names[i]);
    }
    return OM_ERROR(code, "unknown %s '%s' (%s: %s)", what, name, plural, known);
}

/* The names of game g's situations into names[0..SITUATION_NAMES_MAX); their
 * number. */
static size_t names_of_situations(const om_game *g, const char **names)
{
    size_t n = 0;
    for (; n < g->matrix->n_situations && n < SITUATION_NAMES_MAX; n++)
        names[n] = g->matrix->situations[n].name;
    return n;
}

/* The situations named in the spec (or the game's default set). */
static om_status plan_situations(om_matrix_plan *p, const om_matrix_spec *spec)
{
    const om_game *g = p->game;
    const char *names[SITUATION_NAMES_MAX];
    if (spec->n_situations > OM_MATRIX_MAX_SITUATIONS)
        return OM_ERROR(OM_EINVAL, "at most %d situations", OM_MATRIX_MAX_SITUATIONS);
    if (spec->n_situations == 0) {
        for (size_t i = 0; i < g->matrix->n_default_situations; i++)
            p->sit[p->n_sits++] = i;
        return OM_OK;
    }
    for (size_t k = 0; k < spec->n_situations; k++) {
        size_t i = 0;
        while (i < g->matrix->n_situations && strcmp(g->matrix->situations[i].name, spec->situations[k]) != 0)
            i++;
        if (i == g->matrix->n_situations)
            return unknown_name(OM_ENOTFOUND, "situation", "situations of this rule set",
                                spec->situations[k], names, names_of_situations(g, names),
                                "oddsmaster matrix --list-situations");
        for (size_t j = 0; j < p->n_sits; j++)
            if (p->sit[j] == i)
                return OM_ERROR(OM_EINVAL, "situation '%s' is named twice", spec->situations[k]);
        p->sit[p->n_sits++] = i;
    }
    return OM_OK;
}

/* The kind: the spec's, which the game's matrices must run, or their first. */
static om_status plan_kind(om_matrix_plan *p, const char *kind)
{
    const char *const *k = p->game->matrix->kinds;
    if (kind == NULL)
        kind = k[0];
    while (*k && strcmp(*k, kind) != 0)
        k++;
    if (*k == NULL) {
        size_t n = 0;
        while (p->game->matrix->kinds[n] != NULL)
            n++;
        return unknown_name(OM_EINVAL, "kind", "the kinds a matrix of this rule set runs",
                            kind, (const char *const *)p->game->matrix->kinds, n, NULL);
    }
    return (p->kind = strdup(kind)) != NULL ? OM_OK : OM_ERROR(OM_ENOMEM, "out of memory");
}

/* Take the units the game leaves out of u[0..*n) out of the list, naming each
 * in p->left_out. */
static om_status plan_left_out(om_matrix_plan *p, om_game_unit *u, size_t *n)
{
    size_t kept = 0;
    for (size_t i = 0; i < *n; i++) {
        if (u[i].left_out[0] == '\0') {
            u[kept++] = u[i];
            continue;
        }
        size_t len = p->left_out ? strlen(p->left_out) : 0;
        size_t add = strlen(u[i].id) + strlen(u[i].left_out) + 4;
        char *grown = realloc(p->left_out, len + add);
        if (grown == NULL)
            return OM_ERROR(OM_ENOMEM, "out of memory");
        snprintf(grown + len, add, "%s: %s\n", u[i].id, u[i].left_out);
        p->left_out = grown;
    }
    *n = kept;
    return OM_OK;
}

/* Which cells a unit has no part in, from the game; and every army of each
 * axis must take part in some cell (else its rating would be empty). */
static om_status plan_cells(om_matrix_plan *p)
{
    const size_t R = p->n_rows, C = p->n_cols, S = p->n_sits;
    if ((p->cannot = calloc(S * R * C > 0 ? S * R * C : 1, 1)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory");
    for (size_t s = 0; s < S; s++)
        for (size_t r = 0; r < R; r++)
            for (size_t c = 0; c < C; c++) {
                om_scenario *sc = NULL;
                unsigned cannot = 0;
                om_status st = p->game->matrix->cell(p->ruleset, p->kind, p->sit[s], &p->rows[r],
                                                     &p->cols[c], p->settings, p->n_settings,
                                                     0, &sc, &cannot);
                om_scenario_free(sc);
                if (st != OM_OK)
                    return st;
                p->cannot[(s * R + r) * C + c] = (uint8_t)cannot;
            }
    for (int axis = 0; axis < 2; axis++) {
        const om_game_unit *u = axis == 0 ? p->rows : p->cols;
        size_t n = axis == 0 ? R : C, m = axis == 0 ? C : R;
        unsigned bit = axis == 0 ? OM_GAME_ROW_CANNOT : OM_GAME_COL_CANNOT;
        for (size_t i = 0; i < n; i++) {
            bool army_takes_part = false;
            for (size_t k = 0; k < n && !army_takes_part; k++) {
                if (strcmp(u[k].army, u[i].army) != 0)
                    continue;
                for (size_t s = 0; s < S && !army_takes_part; s++)
                    for (size_t j = 0; j < m && !army_takes_part; j++) {
                        size_t r = axis == 0 ? k : j, c = axis == 0 ? j : k;
                        army_takes_part = !(p->cannot[(s * R + r) * C + c] & bit);
                    }
            }
            if (!army_takes_part)
                return OM_ERROR(OM_EINVAL, "no unit of %s (%s) takes part in the situations "
                                "chosen (%s%s): its troop types have no part in them",
                                u[i].army, axis == 0 ? "rows" : "columns",
                                p->game->matrix->situations[p->sit[0]].name, S > 1 ? ", ..." : "");
        }
    }
    return OM_OK;
}

/* The readings of the spec, checked against the game's registries, and the
 * text the file records of them. */
static om_status plan_settings(om_matrix_plan *p, const om_matrix_spec *spec)
{
    size_t len = 0;
    om_status st = om_game_settings_parse(p->game, spec->options, spec->n_options, p->settings);
    if (st != OM_OK)
        return st;
    p->n_settings = spec->n_options;
    for (size_t i = 0; i < p->n_settings; i++)
        len += strlen(p->settings[i].key) + strlen(p->settings[i].value) + 2;
    if ((p->options_text = calloc(len + 1, 1)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory");
    for (size_t i = 0; i < p->n_settings; i++)
        snprintf(p->options_text + strlen(p->options_text), len + 1 - strlen(p->options_text),
                 "%s%s=%s", i > 0 ? " " : "", p->settings[i].key, p->settings[i].value);
    return OM_OK;
}

/* Room for each cell's winners: its fixed trials, or the whole blocks an
 * adaptive cell runs until the cap (none when the file keeps no winners). */
static uint64_t plan_outcome_trials(const om_matrix_spec *spec)
{
    if (spec->no_outcomes)
        return 0;
    if (spec->trials > 0)
        return spec->trials;
    return (spec->max_trials + OM_RUN_BLOCK_SIZE - 1) / OM_RUN_BLOCK_SIZE * OM_RUN_BLOCK_SIZE;
}

om_status om_matrix_plan_alloc(const om_matrix_spec *spec, om_matrix_plan **out)
{
    om_matrix_plan *p = calloc(1, sizeof *p);
    om_status st = OM_OK;
    *out = NULL;
    if (p == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory");
    p->spec = *spec;
    if ((p->game = om_game_for_ruleset(spec->ruleset)) == NULL) {
        const char *names[OM_GAME_RULESETS_MAX];
        size_t n = 0;
        for (size_t g = 0; g < om_game_count; g++)
            for (const char *const *r = om_games[g]->identity.rulesets; *r; r++)
                if (n < OM_GAME_RULESETS_MAX)
                    names[n++] = *r;
        st = unknown_name(OM_ENOTFOUND, "rule set", "rule sets", spec->ruleset, names, n,
                          NULL);
    }
    else if ((p->ruleset = strdup(spec->ruleset)) == NULL ||
             (p->row_spec = strdup(spec->rows)) == NULL ||
             (p->col_spec = strdup(spec->cols)) == NULL)
        st = OM_ERROR(OM_ENOMEM, "out of memory");
    if (st == OM_OK)
        st = plan_kind(p, spec->kind);
    if (st == OM_OK)
        st = plan_settings(p, spec);
    if (st == OM_OK)
        st = plan_situations(p, spec);
    if (st == OM_OK)
        st = p->game->matrix->units(p->ruleset, spec->rows, &p->rows, &p->n_rows);
    if (st == OM_OK)
        st = p->game->matrix->units(p->ruleset, spec->cols, &p->cols, &p->n_cols);
    if (st == OM_OK && (p->left_out = strdup("")) == NULL)
        st = OM_ERROR(OM_ENOMEM, "out of memory");
    if (st == OM_OK && (st = plan_left_out(p, p->rows, &p->n_rows)) == OM_OK)
        st = plan_left_out(p, p->cols, &p->n_cols);
    if (st == OM_OK && (p->n_rows == 0 || p->n_cols == 0))
        st = OM_ERROR(OM_EINVAL, "no %s unit the engine can fight with:\n%s",
                      p->n_rows == 0 ? "row" : "column", p->left_out);
    if (st == OM_OK)
        st = plan_cells(p);
    if (st != OM_OK) {
        om_matrix_plan_free(p);
        return st;
    }
    p->spec.ruleset = p->ruleset;
    p->spec.kind = p->kind;
    p->spec.rows = p->row_spec;
    p->spec.cols = p->col_spec;
    p->spec.situations = NULL;
    p->spec.options = NULL;
    p->outcome_trials = plan_outcome_trials(spec);
    *out = p;
    return OM_OK;
}

uint64_t om_matrix_cell_seed(uint64_t seed, size_t s, size_t r, size_t c)
{
    uint64_t x = seed;
    uint64_t h = om_rng_splitmix64(&x);
    x = h ^ ((uint64_t)s << 42) ^ ((uint64_t)r << 21) ^ (uint64_t)c;
    return om_rng_splitmix64(&x);
}

om_status om_matrix_cell_scenario(const om_matrix_plan *p, size_t s, size_t r, size_t c,
                                  om_scenario **out)
{
    unsigned cannot;
    return p->game->matrix->cell(p->ruleset, p->kind, p->sit[s], &p->rows[r], &p->cols[c],
                                 p->settings, p->n_settings,
                                 om_matrix_cell_seed(p->spec.seed, s, r, c), out, &cannot);
}

/* ----------------------------------------------------------- a cell */

/* What the sink of one cell accumulates, from each block's tally (and rows). */
typedef struct cell_sink {
    om_matrix_cell *cell;    /* the cell being filled */
    const om_trials *trials; /* what is run: its layout (the rows' fields and the sides'
                                victory points) and the rows of its classes */
    size_t winner;           /* index of the winner field */
    uint8_t *outcomes;       /* each trial's winner code, by trial number, or NULL */
} cell_sink;

/* Each trial's winner code of block b into cs->outcomes, from the trial's
 * row or, for a trial of a class, its class's row. */
static void cell_outcomes(const cell_sink *cs, const om_block *b)
{
    const om_layout *l = &cs->trials->layout;
    const size_t at = l->fields[cs->winner].offset;
    for (size_t i = 0; i < b->n; i++) {
        const uint16_t k = b->cls != NULL ? b->cls[i] : OM_LAYOUT_NO_CLASS;
        const uint8_t *row = k != OM_LAYOUT_NO_CLASS
                                 ? cs->trials->class_rows + (size_t)k * l->row_size
                                 : b->rows + i * l->row_size;
        cs->outcomes[b->first + i] = row[at];
    }
}

/* Add a block's wins, draws and victory points to the cell (blocks come in
 * order, so the sums are the same whatever the thread count), and its
 * trials' winners to the cell's row of them. */
static om_status cell_put(void *ctx, const om_block *b, bool *stop)
{
    cell_sink *cs = ctx;
    const om_layout *l = &cs->trials->layout;
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
    if (cs->outcomes != NULL)
        cell_outcomes(cs, b);
    cell->trials += b->n;
    return OM_OK;
}

/* Run the prepared trials of a cell into *cell: a fixed number, or whole
 * blocks until the interval of P(row wins) is narrow enough (the blocks of
 * one run of cell->trials trials). */
static om_status run_cell(const om_matrix_plan *p, const om_trials *t, uint64_t seed,
                          unsigned threads, om_matrix_cell *cell, uint8_t *outcomes)
{
    const om_matrix_spec *spec = &p->spec;
    cell_sink cs = {.cell = cell, .trials = t, .outcomes = outcomes};
    /* Without winners to keep, the sink reads only tallies, and the rows of
     * trials of a class are not even written; with them, it reads a trial's
     * winner from its class's row. */
    om_run_sink sink = {.ctx = &cs, .tally_only = outcomes == NULL, .by_class = true,
                        .put = cell_put};
    om_run_config cfg = {.seed = seed, .block_size = OM_RUN_BLOCK_SIZE, .threads = threads,
                         .trial_streams = spec->trial_streams};
    int winner = om_layout_find(&t->layout, "winner");
    om_status st = OM_OK;
    if (winner < 0)
        return OM_ERROR(OM_EINVAL, "a matrix needs trials with a winner");
    cs.winner = (size_t)winner;
    if (spec->trials > 0) {
        cfg.trials = spec->trials;
        return om_run_simulate(t, &cfg, &sink, NULL);
    }
    cfg.trials = OM_RUN_BLOCK_SIZE;
    while (st == OM_OK && cell->trials < spec->max_trials &&
           (cell->trials == 0 ||
            om_tally_halfwidth95(cell->wins_row, cell->trials) > spec->halfwidth)) {
        cfg.first_block = cell->trials / OM_RUN_BLOCK_SIZE;
        st = om_run_simulate(t, &cfg, &sink, NULL);
    }
    return st;
}

om_status om_matrix_simulate_cell(const om_matrix_plan *p, size_t s, size_t r, size_t c,
                                  unsigned threads, om_matrix_cell *cell, uint8_t *outcomes)
{
    om_scenario *sc = NULL;
    om_trials trials = {0};
    om_status st;

    memset(cell, 0, sizeof *cell);
    cell->inapplicable = p->cannot[(s * p->n_rows + r) * p->n_cols + c];
    if ((st = om_matrix_cell_scenario(p, s, r, c, &sc)) == OM_OK &&
        (st = om_trials_prepare(sc, &trials)) == OM_OK)
        st = run_cell(p, &trials, om_matrix_cell_seed(p->spec.seed, s, r, c), threads, cell,
                      outcomes);
    om_trials_release(&trials);
    om_scenario_free(sc);
    return st;
}

/* ----------------------------------------------------------- the file */

/* The path of cell (s, r, c)'s scenario in `dir`. */
static void cell_file_name(char *path, size_t size, const char *dir, size_t s, size_t r,
                           size_t c)
{
    snprintf(path, size, "%s/s%zu_r%zu_c%zu.yaml", dir, s, r, c);
}

/*
 * Write cell (s, r, c)'s scenario to `dir`, with how to reproduce it: made in
 * memory, written whole with write(2) to a temporary name beside it, renamed
 * when complete. So a failure (a full disk) leaves no file, and is said with
 * the system's reason (a stdio stream whose buffer failed to be written
 * keeps only its error flag).
 */
static om_status write_cell_file(const om_matrix_plan *p, const char *dir, size_t s, size_t r,
                                 size_t c, uint64_t trials)
{
    char path[4096], tmp[4200], head[4400];
    om_scenario *sc = NULL;
    om_status st = om_matrix_cell_scenario(p, s, r, c, &sc);
    const char *part[2];
    size_t left[2];
    int fd, err = 0;
    if (st != OM_OK)
        return st;
    cell_file_name(path, sizeof path, dir, s, r, c);
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
    snprintf(head, sizeof head, "# This cell ran %llu trials: oddsmaster run %s --seed %llu "
             "--trials %llu%s\n", (unsigned long long)trials, path,
             (unsigned long long)om_matrix_cell_seed(p->spec.seed, s, r, c),
             (unsigned long long)trials, p->spec.trial_streams ? " --trial-streams" : "");
    part[0] = head;
    part[1] = sc->text;
    left[0] = strlen(head);
    left[1] = strlen(sc->text);
    if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0)
        err = errno;
    for (int k = 0; k < 2 && fd >= 0 && err == 0; k++)
        while (left[k] > 0 && err == 0) {
            const ssize_t n = write(fd, part[k], left[k]);
            if (n > 0) {
                part[k] += n;
                left[k] -= (size_t)n;
            } else if (n == 0 || errno != EINTR) {
                err = n == 0 ? EIO : errno;
            }
        }
    if (fd >= 0 && close(fd) != 0 && err == 0)
        err = errno;
    if (err == 0 && rename(tmp, path) != 0)
        err = errno;
    if (err != 0) {
        remove(tmp);
        st = OM_ERROR(OM_EIO, "cannot write %s: %s", path, strerror(err));
    }
    om_scenario_free(sc);
    return st;
}

/* Remove the scenario files of the cells marked in written[] (those a run
 * that failed wrote: it leaves no output). */
static void remove_cell_files(const om_matrix_plan *p, const char *dir, const bool *written)
{
    const size_t R = p->n_rows, C = p->n_cols, total = p->n_sits * R * C;
    for (size_t i = 0; i < total; i++)
        if (written[i]) {
            char path[4096];
            cell_file_name(path, sizeof path, dir, i / (R * C), (i / C) % R, i % C);
            remove(path);
        }
}

/* Every cell, in parallel (one per thread at a time: cells are many and small,
 * so the threads stay busy, and a cell's numbers do not depend on their
 * number), each put to the writer as it ends; with cells_dir, each cell's
 * scenario file written, and marked in written[]. */
static om_status run_cells(const om_matrix_plan *p, om_h5m_writer *w, const char *cells_dir,
                           bool *written, om_matrix_progress progress, void *ctx)
{
    const size_t R = p->n_rows, C = p->n_cols, S = p->n_sits, total = S * R * C;
    const int threads = (int)om_run_threads(p->spec.threads);
    om_status failed = OM_OK;
    char failed_msg[OM_ERROR_MSG_MAX] = "";
    size_t done = 0;

#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (size_t i = 0; i < total; i++) {
        size_t s = i / (R * C), r = (i / C) % R, c = i % C;
        om_matrix_cell cell;
        om_status st = OM_OK, seen;
        uint8_t *outcomes = NULL;
#pragma omp atomic read
        seen = failed;
        if (seen != OM_OK)
            continue;
        if (p->outcome_trials > 0 && (outcomes = malloc(p->outcome_trials)) == NULL)
            st = OM_ERROR(OM_ENOMEM, "out of memory for the winners of a cell");
        if (st == OM_OK)
            st = om_matrix_simulate_cell(p, s, r, c, 1, &cell, outcomes);
        if (st == OM_OK && cells_dir != NULL && (st = write_cell_file(p, cells_dir, s, r, c,
                                                                      cell.trials)) == OM_OK)
            written[i] = true;
#pragma omp critical(om_matrix_writer)
        {
            if (st == OM_OK && failed == OM_OK)
                st = om_h5m_writer_put_cell(w, s, r, c, &cell);
            if (st == OM_OK && failed == OM_OK && outcomes != NULL)
                st = om_h5m_writer_put_outcomes(w, s, r, c, outcomes, cell.trials);
            if (st != OM_OK && failed == OM_OK) {
                snprintf(failed_msg, sizeof failed_msg, "%s", om_error_message());
#pragma omp atomic write
                failed = st;
            }
            done++;
            if (progress && failed == OM_OK)
                progress(ctx, done, total);
        }
        free(outcomes);
    }
    if (failed != OM_OK)
        return OM_ERROR(failed, "%s", failed_msg);
    return OM_OK;
}

/* The axis of the file for units u[0..n). */
static void axis(const om_game_unit *u, size_t n, om_matrix_unit *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (om_matrix_unit){.name = u[i].name, .id = u[i].id, .points = u[i].points,
                                  .army = u[i].army, .troop = u[i].troop,
                                  .can_shoot = u[i].can_shoot ? OM_MATRIX_SHOOTS_YES
                                                              : OM_MATRIX_SHOOTS_NO};
}

om_status om_matrix_run_file(const om_matrix_plan *p, const char *path, const char *command_line,
                             const char *cells_dir, om_matrix_progress progress, void *ctx)
{
    om_matrix_unit *ru = calloc(p->n_rows, sizeof *ru), *cu = calloc(p->n_cols, sizeof *cu);
    om_matrix_situation sits[OM_MATRIX_MAX_SITUATIONS];
    /* The cells whose scenario file was written: removed if the run fails. */
    bool *written = cells_dir != NULL ? calloc(p->n_sits * p->n_rows * p->n_cols, sizeof *written)
                                      : NULL;
    om_h5m_writer *w = NULL;
    om_status st = OM_OK;

    if (ru == NULL || cu == NULL || (cells_dir != NULL && written == NULL))
        st = OM_ERROR(OM_ENOMEM, "out of memory");
    if (st == OM_OK) {
        axis(p->rows, p->n_rows, ru);
        axis(p->cols, p->n_cols, cu);
        for (size_t s = 0; s < p->n_sits; s++) {
            const om_game_situation *gs = &p->game->matrix->situations[p->sit[s]];
            sits[s] = (om_matrix_situation){.name = gs->name, .yaml = gs->keys,
                                            .title = gs->title};
        }
        om_matrix_info info = {
            .program_version = OM_VERSION, .command_line = command_line,
            .ruleset = p->ruleset, .data_version = p->rows[0].data_version,
            .row_list = p->row_spec, .col_list = p->col_spec, .units_left_out = p->left_out,
            .game = p->game->identity.name, .kind = p->kind, .options = p->options_text,
            .outcome_trials = p->outcome_trials,
            .rng_scheme = p->spec.trial_streams
                              ? OM_RNG_SCHEME_TRIALS "; cell (s,r,c) seeded SplitMix64(seed, s, "
                                                     "r, c)"
                              : OM_RNG_SCHEME "; cell (s,r,c) seeded SplitMix64(seed, s, r, c)",
            .seed = p->spec.seed, .trials_per_cell = p->spec.trials,
            .target_halfwidth = p->spec.halfwidth, .n_situations = p->n_sits,
            .n_rows = p->n_rows, .n_cols = p->n_cols, .situations = sits, .rows = ru,
            .cols = cu};
        st = om_h5m_writer_create(&w, path, &info);
    }
    if (st == OM_OK) {
        st = run_cells(p, w, cells_dir, written, progress, ctx);
        if (st == OM_OK)
            st = om_h5m_writer_close(w);
        else
            om_h5m_writer_abort(w);
        if (st != OM_OK && written != NULL)
            remove_cell_files(p, cells_dir, written);
    }
    free(written);
    free(ru);
    free(cu);
    return st;
}
