/*
 * matrix_lists.c: matrices of army lists (matrix.h, om_matrix_lists_*): every
 * list of the rows against every list of the columns in whole battles, each
 * pairing played in OM_MATRIX_LEGS legs (the deployment zones swapped or not,
 * x the side taking the first turn), into a matrix file whose situations are
 * the legs. Each battle is the game's battle from the command line
 * (om_game_battle_text, the same text `oddsmaster battle` loads), so nothing
 * here names a game. Common random numbers: every leg of pairing (r, c) runs
 * on the seed om_matrix_cell_seed(seed, 0, r, c) with a stream of its own for
 * each battle (run.h, trial streams), so battle t of each leg draws from the
 * same dice: the same terrain, the same deployment rolls and, as far as the
 * legs' play allows, the same dice in the same order. The legs' differences
 * are then estimated battle by battle with little noise. The cells are run
 * one after the other, each on every thread, into memory, and the file is
 * written only when every battle has been fought.
 */
#include "matrix.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "om_version.h"
#include "rng.h"
#include "run.h"

/* The legs, in the order of the file's situations: zones x first turn. */
static const struct {
    const char *name, *zones, *first, *title, *yaml;
} legs[OM_MATRIX_LEGS] = {
    {"south-a-first", "a-south", "a", "A deploys along the south edge, A takes the first turn",
     "zones: a-south\nfirst: a\n"},
    {"south-b-first", "a-south", "b", "A deploys along the south edge, B takes the first turn",
     "zones: a-south\nfirst: b\n"},
    {"north-a-first", "a-north", "a", "A deploys along the north edge, A takes the first turn",
     "zones: a-north\nfirst: a\n"},
    {"north-b-first", "a-north", "b", "A deploys along the north edge, B takes the first turn",
     "zones: a-north\nfirst: b\n"},
};

/* The name battles of a list matrix have in messages. */
#define LISTS_SOURCE "<list matrix>"

/* ------------------------------------------------------------ the plan */

/* Append a copy of `name` to the plan's lists of side `side`. */
static om_status add_list(om_matrix_lists_plan *p, int side, const char *name)
{
    char ***v = side == 0 ? &p->rows : &p->cols;
    size_t *n = side == 0 ? &p->n_rows : &p->n_cols;
    char **grown = realloc(*v, (*n + 1) * sizeof **v);
    if (grown == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for the lists");
    *v = grown;
    if ((grown[*n] = strdup(name)) == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for the lists");
    (*n)++;
    return OM_OK;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Does `name` end in ".yaml"? */
static bool is_yaml(const char *name)
{
    const size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".yaml") == 0;
}

/* Every *.yaml file of folder `dir`, in the order of their names, as lists
 * of side `side`; `word` names the operand in messages. */
static om_status add_folder(om_matrix_lists_plan *p, int side, const char *dir, const char *word)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0;
    om_status st = OM_OK;
    if (d == NULL)
        return OM_ERROR(OM_EIO, "%s: cannot read the folder %s: %s", word, dir, strerror(errno));
    while (st == OM_OK && (e = readdir(d)) != NULL) {
        char **grown;
        if (!is_yaml(e->d_name))
            continue;
        if ((grown = realloc(names, (n + 1) * sizeof *names)) == NULL) {
            st = OM_ERROR(OM_ENOMEM, "out of memory for the lists");
            break;
        }
        names = grown;
        const size_t size = strlen(dir) + strlen(e->d_name) + 2;
        if ((names[n] = malloc(size)) == NULL)
            st = OM_ERROR(OM_ENOMEM, "out of memory for the lists");
        else
            snprintf(names[n++], size, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (st == OM_OK && n == 0)
        st = OM_ERROR(OM_EINVAL, "%s: the folder %s holds no list (no *.yaml file)", word, dir);
    if (n > 1)
        qsort(names, n, sizeof *names, compare_names);
    for (size_t i = 0; i < n; i++) {
        if (st == OM_OK)
            st = add_list(p, side, names[i]);
        free(names[i]);
    }
    free(names);
    return st;
}

/* The lists of one side: comma-separated items, each an example list, a
 * list file, or a folder of list files. */
static om_status plan_side(om_matrix_lists_plan *p, int side, const char *items, const char *word)
{
    char *copy = strdup(items), *save = NULL;
    om_status st = OM_OK;
    if (copy == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for the lists");
    for (char *item = strtok_r(copy, ",", &save); item != NULL && st == OM_OK;
         item = strtok_r(NULL, ",", &save)) {
        struct stat sb;
        if (stat(item, &sb) == 0 && S_ISDIR(sb.st_mode))
            st = add_folder(p, side, item, word);
        else
            st = add_list(p, side, item);
    }
    free(copy);
    if (st == OM_OK && (side == 0 ? p->n_rows : p->n_cols) == 0)
        st = OM_ERROR(OM_EINVAL, "%s: no list given", word);
    return st;
}

/* The battle text of pairing (r, c) in leg `leg`, into *text (malloc'd). */
static om_status leg_text(const om_matrix_lists_plan *p, size_t r, size_t c, size_t leg,
                          char **text)
{
    const om_matrix_lists_spec *s = &p->spec;
    om_game_battle_spec b = {
        .list = {p->rows[r], p->cols[c]}, .list_word = {"ROWS", "COLS"},
        .doctrine_word = {"--doctrine-a", "--doctrine-b"}, .length = s->length,
        .turns = s->turns, .first = legs[leg].first, .zones = legs[leg].zones,
        .terrain = s->terrain, .deployment = s->deployment};
    return om_game_battle_text(&b, text);
}

void om_matrix_lists_plan_free(om_matrix_lists_plan *p)
{
    if (p == NULL)
        return;
    for (size_t i = 0; i < p->n_rows; i++)
        free(p->rows[i]);
    for (size_t i = 0; i < p->n_cols; i++)
        free(p->cols[i]);
    free(p->rows);
    free(p->cols);
    free(p->row_spec);
    free(p->col_spec);
    free(p);
}

om_status om_matrix_lists_plan_alloc(const om_matrix_lists_spec *spec,
                                     om_matrix_lists_plan **out)
{
    om_matrix_lists_plan *p = calloc(1, sizeof *p);
    om_status st = OM_OK;
    *out = NULL;
    if (p == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory for a list matrix");
    p->spec = *spec;
    if (spec->battles == 0)
        st = OM_ERROR(OM_EINVAL, "a list matrix needs at least one battle a leg");
    if (st == OM_OK && ((p->row_spec = strdup(spec->rows)) == NULL ||
                        (p->col_spec = strdup(spec->cols)) == NULL))
        st = OM_ERROR(OM_ENOMEM, "out of memory for a list matrix");
    if (st == OM_OK)
        st = plan_side(p, 0, spec->rows, "ROWS");
    if (st == OM_OK)
        st = plan_side(p, 1, spec->cols, "COLS");
    /* Every pairing's battle checked before any is fought: each list (an
     * example, or a file whose army's rules hold), one rule set for all, and
     * the options; the first pairing's legs loaded, as the loader checks what
     * the legs set against the options (a deployment that decides the first
     * turn itself, say). */
    for (size_t r = 0; r < p->n_rows && st == OM_OK; r++)
        for (size_t c = 0; c < p->n_cols && st == OM_OK; c++)
            for (size_t leg = 0; leg < (r == 0 && c == 0 ? OM_MATRIX_LEGS : 1) && st == OM_OK;
                 leg++) {
                char *text = NULL;
                om_scenario *sc = NULL;
                if ((st = leg_text(p, r, c, leg, &text)) == OM_OK && r == 0 && c == 0)
                    st = om_scenario_load_text(LISTS_SOURCE, text, strlen(text), &sc);
                om_scenario_free(sc);
                free(text);
            }
    if (st != OM_OK) {
        om_matrix_lists_plan_free(p);
        return st;
    }
    *out = p;
    return OM_OK;
}

/* ------------------------------------------------------------ a leg */

/* What the sink of one leg keeps: each battle's winner and margin. */
typedef struct leg_sink {
    const om_trials *trials; /* its layout and class rows */
    size_t winner;           /* index of the winner field */
    size_t score[2];         /* the fields of each side's score (victory points) */
    om_matrix_cell *cell;    /* the cell being filled */
    uint8_t *winners;        /* [battles] each battle's winner code */
    int32_t *margins;        /* [battles] each battle's margin, A's score less B's */
} leg_sink;

/* Each battle of a block, in block order: its winner and margin, and the
 * cell's sums (the same whatever the thread count). */
static om_status leg_put(void *ctx, const om_block *b, bool *stop)
{
    leg_sink *ls = ctx;
    const om_layout *l = &ls->trials->layout;
    (void)stop;
    for (size_t i = 0; i < b->n; i++) {
        const uint16_t k = b->cls != NULL ? b->cls[i] : OM_LAYOUT_NO_CLASS;
        const uint8_t *row = k != OM_LAYOUT_NO_CLASS
                                 ? ls->trials->class_rows + (size_t)k * l->row_size
                                 : b->rows + i * l->row_size;
        const unsigned w = row[l->fields[ls->winner].offset];
        const unsigned vp_a = om_field_value(&l->fields[ls->score[0]], row),
                       vp_b = om_field_value(&l->fields[ls->score[1]], row);
        const int32_t margin = (int32_t)vp_a - (int32_t)vp_b;
        ls->winners[b->first + i] = (uint8_t)w;
        ls->margins[b->first + i] = margin;
        ls->cell->wins_row += w == OM_WINNER_A;
        ls->cell->draws += w == OM_WINNER_DRAW;
        ls->cell->wins_col += w == OM_WINNER_B;
        ls->cell->points_lost_row_sum += vp_b;
        ls->cell->points_lost_col_sum += vp_a;
        ls->cell->margin_sq_sum += (double)margin * margin;
    }
    ls->cell->trials += b->n;
    return OM_OK;
}

/* What the file records of a list: its name, army, points and where it came
 * from, read from the game's record of a battle (its provenance: "sides",
 * each with "name", "army", "points"), or from the layout where the record
 * says nothing. Owned strings. */
typedef struct list_info {
    char *name, *id, *army;
    uint32_t points;
} list_info;

static void list_info_free(list_info *li)
{
    free(li->name);
    free(li->id);
    free(li->army);
    memset(li, 0, sizeof *li);
}

/* List info of side s of scenario sc (prepared as t), named `id`. */
static om_status list_info_read(const om_scenario *sc, const om_trials *t, unsigned s,
                                const char *id, list_info *out)
{
    json_t *root = sc->provenance_json != NULL ? json_loads(sc->provenance_json, 0, NULL)
                                               : NULL;
    json_t *side = json_array_get(json_object_get(root, "sides"), s);
    const char *army = json_string_value(json_object_get(side, "army"));
    const char *name = t->layout.side[s].name != NULL ? t->layout.side[s].name : id;
    out->name = strdup(name[0] != '\0' ? name : id);
    out->id = strdup(id);
    out->army = strdup(army != NULL ? army : "");
    out->points = t->layout.side[s].points;
    json_decref(root);
    if (out->name == NULL || out->id == NULL || out->army == NULL) {
        list_info_free(out);
        return OM_ERROR(OM_ENOMEM, "out of memory for a list's record");
    }
    return OM_OK;
}

/* Everything a run holds until the file is written. */
typedef struct lists_run {
    const om_matrix_lists_plan *p;
    om_matrix_cell *cells;   /* [LEGS][R][C] */
    uint8_t *winners;        /* [LEGS][R][C][battles] */
    int32_t *margins;        /* [LEGS][R][C][battles] */
    list_info *rows, *cols;  /* [R], [C]: filled by the first battle each takes part in */
    char *ruleset, *game, *kind; /* of the battles (owned copies) */
} lists_run;

/* Run leg `leg` of pairing (r, c) into its cell and rows of the run. */
static om_status run_leg(lists_run *run, size_t r, size_t c, size_t leg)
{
    const om_matrix_lists_plan *p = run->p;
    const size_t R = p->n_rows, C = p->n_cols, k = (leg * R + r) * C + c;
    const uint64_t n = p->spec.battles;
    om_scenario *sc = NULL;
    om_trials trials = {0};
    char *text = NULL;
    leg_sink ls = {.trials = &trials, .cell = &run->cells[k], .winners = run->winners + k * n,
                   .margins = run->margins + k * n};
    om_run_sink sink = {.ctx = &ls, .by_class = true, .put = leg_put};
    om_run_config cfg = {.trials = n, .seed = om_matrix_cell_seed(p->spec.seed, 0, r, c),
                         .threads = p->spec.threads, .trial_streams = true};
    om_status st;

    if ((st = leg_text(p, r, c, leg, &text)) == OM_OK &&
        (st = om_scenario_load_text(LISTS_SOURCE, text, strlen(text), &sc)) == OM_OK)
        st = om_trials_prepare(sc, &trials);
    free(text);
    if (st == OM_OK) {
        const om_layout *l = &trials.layout;
        const int w = om_layout_find(l, "winner");
        const int a = l->score_field[0] ? om_layout_find(l, l->score_field[0]) : -1;
        const int b = l->score_field[1] ? om_layout_find(l, l->score_field[1]) : -1;
        if (w < 0 || a < 0 || b < 0)
            st = OM_ERROR(OM_EINVAL, "a list matrix needs battles with a winner and each "
                          "side's score");
        ls.winner = (size_t)w;
        ls.score[0] = (size_t)a;
        ls.score[1] = (size_t)b;
        cfg.block_size = l->block_trials;
    }
    if (st == OM_OK && run->ruleset == NULL &&
        ((run->ruleset = strdup(sc->ruleset)) == NULL ||
         (run->game = strdup(sc->game->identity.name)) == NULL ||
         (run->kind = strdup(sc->kind)) == NULL))
        st = OM_ERROR(OM_ENOMEM, "out of memory for a list matrix");
    if (st == OM_OK && run->rows[r].name == NULL)
        st = list_info_read(sc, &trials, 0, p->rows[r], &run->rows[r]);
    if (st == OM_OK && run->cols[c].name == NULL)
        st = list_info_read(sc, &trials, 1, p->cols[c], &run->cols[c]);
    if (st == OM_OK) {
        memset(ls.cell, 0, sizeof *ls.cell);
        st = om_run_simulate(&trials, &cfg, &sink, NULL);
    }
    om_trials_release(&trials);
    om_scenario_free(sc);
    return st;
}

/* ------------------------------------------------------------ the file */

static void lists_run_release(lists_run *run)
{
    for (size_t i = 0; run->rows != NULL && i < run->p->n_rows; i++)
        list_info_free(&run->rows[i]);
    for (size_t i = 0; run->cols != NULL && i < run->p->n_cols; i++)
        list_info_free(&run->cols[i]);
    free(run->rows);
    free(run->cols);
    free(run->cells);
    free(run->winners);
    free(run->margins);
    free(run->ruleset);
    free(run->game);
    free(run->kind);
}

/* The axis of the file for lists li[0..n). */
static void lists_axis(const list_info *li, size_t n, om_matrix_unit *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (om_matrix_unit){.name = li[i].name, .id = li[i].id, .points = li[i].points,
                                  .army = li[i].army, .troop = "list"};
}

/* Write the file of a finished run. */
static om_status write_lists_file(const lists_run *run, const char *path,
                                  const char *command_line)
{
    const om_matrix_lists_plan *p = run->p;
    const size_t R = p->n_rows, C = p->n_cols;
    const uint64_t n = p->spec.battles;
    const bool rows_kept = !p->spec.no_outcomes;
    om_matrix_unit *ru = calloc(R, sizeof *ru), *cu = calloc(C, sizeof *cu);
    om_matrix_situation sits[OM_MATRIX_LEGS];
    om_h5m_writer *w = NULL;
    om_status st = OM_OK;
    if (ru == NULL || cu == NULL) {
        free(ru);
        free(cu);
        return OM_ERROR(OM_ENOMEM, "out of memory for a list matrix");
    }
    lists_axis(run->rows, R, ru);
    lists_axis(run->cols, C, cu);
    for (size_t s = 0; s < OM_MATRIX_LEGS; s++)
        sits[s] = (om_matrix_situation){.name = legs[s].name, .yaml = legs[s].yaml,
                                        .title = legs[s].title};
    om_matrix_info info = {
        .program_version = OM_VERSION, .command_line = command_line, .ruleset = run->ruleset,
        .data_version = "", .row_list = p->row_spec, .col_list = p->col_spec,
        .units_left_out = "", .game = run->game, .kind = run->kind, .options = "",
        .rng_scheme = OM_RNG_SCHEME_TRIALS "; pairing (r,c) seeded SplitMix64(seed, 0, r, c), "
                                           "the same for its four legs",
        .seed = p->spec.seed, .trials_per_cell = n, .outcome_trials = rows_kept ? n : 0,
        .battle_margins = true, .n_situations = OM_MATRIX_LEGS, .n_rows = R, .n_cols = C,
        .situations = sits, .rows = ru, .cols = cu};
    st = om_h5m_writer_create(&w, path, &info);
    for (size_t k = 0; st == OM_OK && k < OM_MATRIX_LEGS * R * C; k++) {
        const size_t s = k / (R * C), r = k / C % R, c = k % C;
        st = om_h5m_writer_put_cell(w, s, r, c, &run->cells[k]);
        if (st == OM_OK && rows_kept)
            st = om_h5m_writer_put_outcomes(w, s, r, c, run->winners + k * n, n);
        if (st == OM_OK && rows_kept)
            st = om_h5m_writer_put_margins(w, s, r, c, run->margins + k * n, n);
    }
    if (w != NULL) {
        if (st == OM_OK)
            st = om_h5m_writer_close(w);
        else
            om_h5m_writer_abort(w);
    }
    free(ru);
    free(cu);
    return st;
}

om_status om_matrix_lists_run_file(const om_matrix_lists_plan *p, const char *path,
                                   const char *command_line, om_matrix_progress progress,
                                   void *ctx)
{
    const size_t R = p->n_rows, C = p->n_cols, cells = OM_MATRIX_LEGS * R * C;
    const uint64_t n = p->spec.battles;
    lists_run run = {.p = p};
    om_status st = OM_OK;
    if (n > SIZE_MAX / cells / sizeof *run.margins)
        return OM_ERROR(OM_EINVAL, "%llu battles a leg of %zu cells do not fit in memory",
                        (unsigned long long)n, cells);
    run.cells = calloc(cells, sizeof *run.cells);
    run.winners = malloc(cells * n * sizeof *run.winners);
    run.margins = malloc(cells * n * sizeof *run.margins);
    run.rows = calloc(R, sizeof *run.rows);
    run.cols = calloc(C, sizeof *run.cols);
    if (run.cells == NULL || run.winners == NULL || run.margins == NULL || run.rows == NULL ||
        run.cols == NULL)
        st = OM_ERROR(OM_ENOMEM, "out of memory for a list matrix of %llu battles a leg",
                      (unsigned long long)n);
    /* Pairing by pairing, leg by leg: each leg on every thread. */
    for (size_t i = 0; st == OM_OK && i < R * C; i++)
        for (size_t leg = 0; st == OM_OK && leg < OM_MATRIX_LEGS; leg++) {
            st = run_leg(&run, i / C, i % C, leg);
            if (st == OM_OK && progress != NULL)
                progress(ctx, i * OM_MATRIX_LEGS + leg + 1, cells);
        }
    if (st == OM_OK)
        st = write_lists_file(&run, path, command_line);
    lists_run_release(&run);
    return st;
}
