/*
 * replay.c: one trial of a run played again and told (replay.h). The dice of
 * trial k are where the run had them: its block's stream (run.h: block b
 * seeded by (seed, b)) after the trials before it in the block, simulated and
 * dropped here, or its own stream (seed, k) with trial streams. The result
 * file gives the scenario text and the stream's parameters (h5file.h), and
 * the trial's row, which the replayed row must equal.
 */
#include "replay.h"

#include <stdlib.h>
#include <string.h>

#include "h5file.h"
#include "om_version.h"
#include "rng.h"

/* Rows read from a file at once when its margins are gathered. */
#define MARGIN_CHUNK 65536u

/* Trials simulated at once while the dice are brought to a trial's start. */
#define SKIP_CHUNK 256u

om_status om_run_replay_trial(const om_trials *t, const om_run_config *cfg, uint64_t trial,
                              uint8_t *row, FILE *out, unsigned picture_turn,
                              om_picture *picture)
{
    const om_game_narrate_methods *nm = t->game->narrate;
    const uint64_t block_size = cfg->block_size ? cfg->block_size : OM_RUN_BLOCK_SIZE;
    om_dice d = {.plain = NULL};
    om_status st = OM_OK;

    if (nm == NULL || nm->version < 1 || !nm->tells(t->prepared))
        return OM_ERROR(OM_EUNSUPPORTED, "the game tells no trial of this kind of scenario "
                        "(only battles are told)");
    if (cfg->plain_dice)
        return OM_ERROR(OM_EUNSUPPORTED, "a run with the plain baseline dice is not replayed "
                        "(its generator is GSL's, not the streams replay seeds)");
    if (cfg->trial_streams) {
        om_rng_seed_block(&d.rng, cfg->seed, trial);
    } else {
        uint64_t skip = trial % block_size;
        om_rng_seed_block(&d.rng, cfg->seed, trial / block_size);
        if (skip > 0) {
            /* The trials before it in its block draw the dice they drew in
             * the run: the same resolve method, the same stream. */
            void *work = NULL;
            uint8_t *rows = malloc(SKIP_CHUNK * t->layout.row_size);
            if (rows == NULL)
                return OM_ERROR(OM_ENOMEM, "out of memory for the trials before %llu",
                                (unsigned long long)trial);
            if (t->game->trials->work_alloc != NULL)
                st = t->game->trials->work_alloc(t->prepared, &work);
            while (st == OM_OK && skip > 0) {
                size_t n = skip < SKIP_CHUNK ? (size_t)skip : SKIP_CHUNK;
                t->game->trials->resolve_block(t->prepared, work, &d, rows, n);
                skip -= n;
            }
            if (t->game->trials->work_free != NULL)
                t->game->trials->work_free(work);
            free(rows);
            if (st != OM_OK)
                return st;
        }
    }
    return nm->narrate(t->prepared, &d, row, out, picture_turn, picture);
}

static int compare_margin(const void *a, const void *b)
{
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

uint64_t om_replay_typical(const int32_t *margin, uint64_t n)
{
    int32_t *sorted = malloc(n * sizeof *sorted);
    int32_t median;
    if (sorted == NULL) {
        /* Without room for a sorted copy, count: the median is the smallest
         * margin m with at least (n + 1) / 2 margins <= m. Quadratic, but
         * only when memory is short. */
        const uint64_t need = (n - 1) / 2 + 1;
        uint64_t best = 0;
        bool found = false;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t le = 0;
            if (found && margin[i] >= margin[best])
                continue;
            for (uint64_t j = 0; j < n; j++)
                le += margin[j] <= margin[i];
            if (le >= need) {
                best = i;
                found = true;
            }
        }
        median = margin[best];
    } else {
        memcpy(sorted, margin, n * sizeof *sorted);
        qsort(sorted, (size_t)n, sizeof *sorted, compare_margin);
        median = sorted[(n - 1) / 2];
        free(sorted);
    }
    for (uint64_t i = 0; i < n; i++)
        if (margin[i] == median)
            return i;
    return 0; /* not reached: the median is one of the margins */
}

/* Every trial's margin vp_a - vp_b of reader r, whose fields are named in
 * `field`, into a new *out (free()). */
static om_status read_margins(om_h5_reader *r, const char *const field[2], uint64_t n,
                              int32_t **out)
{
    int32_t *m = malloc((size_t)n * sizeof *m);
    uint16_t *a = malloc(MARGIN_CHUNK * sizeof *a), *b = malloc(MARGIN_CHUNK * sizeof *b);
    om_status st = OM_OK;
    *out = NULL;
    if (m == NULL || a == NULL || b == NULL)
        st = OM_ERROR(OM_ENOMEM, "out of memory for the margins of %llu trials",
                      (unsigned long long)n);
    for (uint64_t first = 0; st == OM_OK && first < n; first += MARGIN_CHUNK) {
        size_t k = n - first < MARGIN_CHUNK ? (size_t)(n - first) : MARGIN_CHUNK;
        if ((st = om_h5_reader_read16(r, field[0], first, k, a)) == OM_OK &&
            (st = om_h5_reader_read16(r, field[1], first, k, b)) == OM_OK)
            for (size_t i = 0; i < k; i++)
                m[first + i] = (int32_t)a[i] - (int32_t)b[i];
    }
    free(a);
    free(b);
    if (st != OM_OK) {
        free(m);
        return st;
    }
    *out = m;
    return OM_OK;
}

/* The value of field f in `row`. */
static unsigned row_value(const om_field *f, const uint8_t *row, size_t offset)
{
    return f->type == OM_FIELD_COUNT16 ? (unsigned)row[offset] | (unsigned)row[offset + 1] << 8
                                       : row[offset];
}

/* Whether the file's row `trial` is `row` (fields and unit fields of layout
 * l); a difference is reported as corrupt, or as another version's. */
static om_status check_row(om_h5_reader *r, const om_layout *l, uint64_t trial,
                           const uint8_t *row, const char *version)
{
    const char *path = om_h5_reader_path(r);
    const bool same = strcmp(version, OM_VERSION) == 0;
    for (size_t i = 0; i < l->field_count; i++) {
        const om_field *f = &l->fields[i];
        uint16_t v;
        om_status st = om_h5_reader_read16(r, f->name, trial, 1, &v);
        if (st != OM_OK)
            return st;
        if (v != row_value(f, row, f->offset)) {
            if (!same)
                return OM_ERROR(OM_EUNSUPPORTED, "%s: trial %llu replays with %s = %u, the "
                                "file has %u: the file was written by oddsmaster %s, this is "
                                "%s, whose rules differ", path, (unsigned long long)trial,
                                f->name, row_value(f, row, f->offset), (unsigned)v, version,
                                OM_VERSION);
            return OM_ERROR(OM_EHDF5, "%s: trial %llu replays with %s = %u, the file has %u "
                            "(the file is damaged or was edited)", path,
                            (unsigned long long)trial, f->name, row_value(f, row, f->offset),
                            (unsigned)v);
        }
    }
    for (size_t f = 0; f < l->unit_field_count; f++)
        for (size_t u = 0; u < l->unit_count; u++) {
            uint8_t v;
            const size_t at = l->unit_fields[f].offset + u * l->unit_stride;
            om_status st = om_h5_reader_read_unit(r, f, u, trial, 1, &v);
            if (st != OM_OK)
                return st;
            if (v != row[at])
                return OM_ERROR(same ? OM_EHDF5 : OM_EUNSUPPORTED,
                                "%s: trial %llu replays with %s of unit %s = %u, the file has "
                                "%u%s", path, (unsigned long long)trial,
                                l->unit_fields[f].name, l->units[u].id, row[at], v,
                                same ? " (the file is damaged or was edited)"
                                     : ": the file was written by another version");
        }
    return OM_OK;
}

/* What the file says of its run. */
typedef struct run_record {
    char *text, *source, *rng, *version;
    uint64_t seed, block_size, trials, rows;
} run_record;

static void record_free(run_record *p)
{
    free(p->text);
    free(p->source);
    free(p->rng);
    free(p->version);
}

static om_status read_record(om_h5_reader *r, run_record *p)
{
    const char *path = om_h5_reader_path(r);
    om_status st;
    if ((st = om_h5_reader_attr_string(r, "scenario_yaml", &p->text)) != OM_OK ||
        (st = om_h5_reader_attr_string(r, "scenario_name", &p->source)) != OM_OK ||
        (st = om_h5_reader_attr_string(r, "rng", &p->rng)) != OM_OK ||
        (st = om_h5_reader_attr_string(r, "program_version", &p->version)) != OM_OK ||
        (st = om_h5_reader_attr_u64(r, "seed", &p->seed)) != OM_OK ||
        (st = om_h5_reader_attr_u64(r, "block_size", &p->block_size)) != OM_OK ||
        (st = om_h5_reader_attr_u64(r, "rows", &p->rows)) != OM_OK)
        return OM_ERROR(OM_EHDF5, "%s: its record of the run is incomplete: %s", path,
                        om_error_message());
    p->trials = om_h5_reader_trials(r);
    if (p->rows == 0)
        return OM_ERROR(OM_EINVAL, "%s: the file keeps no per-trial rows (a run with "
                        "--no-rows): no trial can be told or checked", path);
    if (p->trials == 0 || p->block_size == 0)
        return OM_ERROR(OM_EHDF5, "%s: its record of the run is inconsistent (%llu trials, "
                        "blocks of %llu)", path, (unsigned long long)p->trials,
                        (unsigned long long)p->block_size);
    if (strcmp(p->rng, OM_RNG_SCHEME) != 0 && strcmp(p->rng, OM_RNG_SCHEME_TRIALS) != 0)
        return OM_ERROR(OM_EUNSUPPORTED, "%s: its dice ('%s') are not replayed: only the "
                        "streams of '%s' or '%s'", path, p->rng, OM_RNG_SCHEME,
                        OM_RNG_SCHEME_TRIALS);
    return OM_OK;
}

/* Whether the file's fields are the layout's, in order. */
static om_status check_fields(om_h5_reader *r, const om_layout *l)
{
    const char *path = om_h5_reader_path(r);
    if (om_h5_reader_field_count(r) != l->field_count ||
        om_h5_reader_unit_count(r) != l->unit_count ||
        om_h5_reader_unit_field_count(r) != l->unit_field_count)
        return OM_ERROR(OM_EINVAL, "%s: its fields are not those of its scenario's trials",
                        path);
    for (size_t i = 0; i < l->field_count; i++)
        if (strcmp(om_h5_reader_field(r, i)->name, l->fields[i].name) != 0)
            return OM_ERROR(OM_EINVAL, "%s: field %zu is %s, its scenario's trials have %s",
                            path, i, om_h5_reader_field(r, i)->name, l->fields[i].name);
    return OM_OK;
}

om_status om_replay_file(const om_replay_request *rq, om_replay_report *report)
{
    om_h5_reader *r = NULL;
    run_record rec = {0};
    om_scenario *sc = NULL;
    om_trials t = {0};
    int32_t *margin = NULL;
    uint8_t *row = NULL;
    char *story = NULL;
    size_t story_len = 0;
    const om_game_narrate_methods *nm;
    om_status st;

    memset(report, 0, sizeof *report);
    if ((st = om_h5_reader_open(&r, rq->path)) != OM_OK)
        return st;
    if ((st = read_record(r, &rec)) != OM_OK ||
        (st = om_scenario_load_text(rec.source, rec.text, strlen(rec.text), &sc)) != OM_OK ||
        (st = om_trials_prepare(sc, &t)) != OM_OK)
        goto done;
    nm = t.game->narrate;
    if (nm == NULL || nm->version < 1 || !nm->tells(t.prepared)) {
        st = OM_ERROR(OM_EINVAL, "%s: a run of kind %s: only a battle's trials are told "
                      "(a file of 'kind: battle')", rq->path, sc->kind);
        goto done;
    }
    if ((st = check_fields(r, &t.layout)) != OM_OK)
        goto done;
    if (t.layout.score_field[0] == NULL || t.layout.score_field[1] == NULL) {
        st = OM_ERROR(OM_EINVAL, "%s: its trials declare no score of each side to tell a "
                      "margin by", rq->path);
        goto done;
    }
    report->trials = rec.trials;
    if (rq->typical) {
        if ((st = read_margins(r, t.layout.score_field, rec.trials, &margin)) != OM_OK)
            goto done;
        report->trial = om_replay_typical(margin, rec.trials);
    } else if (rq->trial >= rec.trials) {
        st = OM_ERROR(OM_EINVAL, "%s: there is no battle %llu: the file holds %llu (0 to "
                      "%llu)", rq->path, (unsigned long long)rq->trial,
                      (unsigned long long)rec.trials, (unsigned long long)(rec.trials - 1));
        goto done;
    } else {
        report->trial = rq->trial;
    }
    if ((row = calloc(1, t.layout.row_size)) == NULL) {
        st = OM_ERROR(OM_ENOMEM, "out of memory for a row");
        goto done;
    }
    {
        /* The story is kept until the row is found to be the file's: a
         * battle that is not the one the file counted is not told. */
        const om_run_config cfg = {.trials = rec.trials, .seed = rec.seed,
                                   .block_size = rec.block_size,
                                   .trial_streams = strcmp(rec.rng, OM_RNG_SCHEME_TRIALS) == 0};
        FILE *mem = open_memstream(&story, &story_len);
        if (mem == NULL) {
            st = OM_ERROR(OM_ENOMEM, "out of memory for the narration");
            goto done;
        }
        fprintf(mem, "%s: battle %llu of %llu (%s), seed %llu\n", rq->path,
                (unsigned long long)report->trial, (unsigned long long)rec.trials,
                rq->typical ? "the typical one: its victory-point margin is the median"
                            : "as asked",
                (unsigned long long)rec.seed);
        st = om_run_replay_trial(&t, &cfg, report->trial, row, mem, rq->picture_turn,
                                 rq->picture);
        if (fclose(mem) != 0 && st == OM_OK)
            st = OM_ERROR(OM_ENOMEM, "out of memory for the narration");
    }
    if (st == OM_OK)
        st = check_row(r, &t.layout, report->trial, row, rec.version);
    if (st == OM_OK && (fwrite(story, 1, story_len, rq->out) != story_len ||
                        fflush(rq->out) != 0))
        st = OM_ERROR(OM_EIO, "cannot write the narration");
    if (st == OM_OK) {
        const om_field *fa = NULL, *fb = NULL;
        for (size_t i = 0; i < t.layout.field_count; i++) {
            if (strcmp(t.layout.fields[i].name, t.layout.score_field[0]) == 0)
                fa = &t.layout.fields[i];
            if (strcmp(t.layout.fields[i].name, t.layout.score_field[1]) == 0)
                fb = &t.layout.fields[i];
        }
        if (fa != NULL && fb != NULL)
            report->margin = (int64_t)row_value(fa, row, fa->offset) -
                             (int64_t)row_value(fb, row, fb->offset);
    }
done:
    free(story);
    free(row);
    free(margin);
    om_trials_release(&t);
    om_scenario_free(sc);
    record_free(&rec);
    om_h5_reader_close(r);
    return st;
}
