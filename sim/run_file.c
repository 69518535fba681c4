/*
 * run_file.c: a scenario of any game run into a result file (run.h): the
 * library behind `oddsmaster run`, and its resumption after an interruption.
 *
 * The driver's sink encodes each block's rows as chunks on the thread that
 * simulated it (h5file.h, om_h5_chunks_encode), then, in block order, writes
 * them and adds the block's tally to the run's; there it also decides, from
 * the run's tally so far, whether the target precision is reached, and
 * notices a signal, so a run stops at the same block whatever the thread
 * count. A run that ends is renamed to its path; one that a signal stopped
 * becomes PATH.partial, marked incomplete, which om_run_resume continues: it
 * reloads the scenario recorded in the file, draws the streams of the blocks
 * not yet run and adds them to the same datasets and tallies.
 */
#include "run.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h5file.h"
#include "om_version.h"
#include "rng.h"
#include "suggest.h"

/* Provenance of the plain baseline dice, which do not follow OM_RNG_SCHEME. */
#define PLAIN_RNG_SCHEME \
    "gsl default generator (plain baseline dice); block b seeded from pcg64-dxsm " \
    "SplitMix64(seed, b)"

/* The suffix of an interrupted run's file. */
#define PARTIAL_SUFFIX ".partial"

/* The state of a run into a file, shared by the sink's calls. */
typedef struct file_sink {
    om_h5_writer *writer;     /* the file */
    const om_layout *layout;  /* its rows */
    const om_trials *trials;  /* what is run: the classes of its trials */
    const om_run_request *req; /* what was asked */
    int target;               /* the field whose precision is watched, or -1: none */
    size_t chunk_rows;        /* rows per chunk */
    uint64_t total;           /* trials asked for, in all (progress) */
    uint64_t blocks_done;     /* blocks in the file */
    om_run_stop stop;         /* why the run stopped, if it did */
} file_sink;

static om_status sink_work_alloc(void *ctx, void **work)
{
    file_sink *fs = ctx;
    om_h5_chunks *c = NULL;
    om_status st = OM_OK;
    if (!fs->req->no_rows)
        st = om_h5_chunks_alloc(fs->layout, fs->chunk_rows, &c);
    /* A trial of a class is encoded from its class's row (sink_prepare). */
    if (st == OM_OK && c != NULL && fs->trials->n_classes > 0 &&
        (st = om_h5_chunks_classes(c, fs->trials->class_rows, fs->trials->n_classes)) != OM_OK) {
        om_h5_chunks_free(c);
        c = NULL;
    }
    /* Each block's thread writes its chunks' bytes after its put (sink_written). */
    if (c != NULL)
        om_h5_chunks_defer(c, true);
    *work = c;
    return st;
}

static void sink_work_free(void *ctx, void *work)
{
    (void)ctx;
    om_h5_chunks_free(work);
}

static om_status sink_prepare(void *ctx, om_block *b)
{
    file_sink *fs = ctx;
    if (fs->req->no_rows)
        return OM_OK;
    if (b->cls != NULL)
        om_h5_chunks_encode_classes(b->work, b->rows, b->cls, b->n, b->tally);
    else
        om_h5_chunks_encode(b->work, b->rows, b->n, b->tally);
    return OM_OK;
}

/* The bytes of the blocks' chunks, placed in the file by their puts, written
 * by the thread that made them while the next block is put. */
static om_status sink_written(void *ctx, om_block *b, unsigned n)
{
    file_sink *fs = ctx;
    om_h5_chunks *chunks[OM_RUN_TAKEN_MAX];
    assert(n <= OM_RUN_TAKEN_MAX);
    for (unsigned j = 0; j < n; j++)
        chunks[j] = b[j].work;
    return fs->req->no_rows ? OM_OK : om_h5_chunks_write_out(chunks, n, fs->req->path);
}

/* Whether every interval the run watches is narrower than the target: the
 * winner's P(A wins), P(draw), P(B wins) and P(none), or every P(field = v)
 * of a winner field given as target, or every P(field >= k), k >= 1, of a
 * count or flag field. */
static bool precise_enough(const file_sink *fs)
{
    const om_tally *t = om_h5_writer_tally(fs->writer);
    const double target = fs->req->halfwidth;
    const uint64_t *h;
    unsigned bins = OM_TALLY_BINS;
    if (fs->target >= OM_LAYOUT_FIELDS_MAX) {
        /* A unit's field, FIELD@UNIT: its histogram of max + 1 bins. */
        const size_t k = (size_t)fs->target - OM_LAYOUT_FIELDS_MAX;
        const size_t f = k / fs->layout->unit_count, u = k % fs->layout->unit_count;
        h = om_tally_unit_c(t, f, u);
        bins = fs->layout->unit_fields[f].max + 1;
    } else if (fs->layout->fields[fs->target].type == OM_FIELD_WINNER) {
        h = t->hist[fs->target];
        for (unsigned v = 0; v < OM_WINNER_CODES; v++)
            if (om_tally_halfwidth95(h[v], t->trials) > target)
                return false;
        return true;
    } else {
        h = t->hist[fs->target];
    }
    uint64_t tail = 0;
    for (unsigned k = bins; k-- > 1;) {
        tail += h[k];
        if (tail > 0 && om_tally_halfwidth95(tail, t->trials) > target)
            return false;
    }
    return true;
}

static om_status sink_put(void *ctx, const om_block *b, bool *stop)
{
    file_sink *fs = ctx;
    om_status st = om_h5_writer_put_block(fs->writer, b->first, b->n, b->work, b->tally);
    if (st != OM_OK)
        return st;
    fs->blocks_done = b->index + 1;
    if (fs->req->progress)
        fs->req->progress(fs->req->progress_ctx, om_h5_writer_tally(fs->writer)->trials,
                          fs->total);
    /* A signal during the last block comes too late to stop anything: the
     * run is done (a .partial file of every trial could not be resumed). */
    if (fs->target >= 0 && precise_enough(fs)) {
        fs->stop = OM_RUN_PRECISE;
        *stop = true;
    } else if (fs->req->interrupt != NULL && atomic_load(fs->req->interrupt) &&
               b->first + b->n < fs->total) {
        fs->stop = OM_RUN_INTERRUPTED;
        *stop = true;
    }
    return OM_OK;
}

/* Room for the names of a scenario's fields in a message. */
#define FIELD_NAMES_TEXT_MAX 1024

/* OM_EINVAL for a --target that is no field of layout l: the nearest field,
 * if one is near, else all of them. */
static om_status unknown_target(const om_layout *l, const char *target)
{
    const char *names[OM_LAYOUT_FIELDS_MAX], *best;
    char known[FIELD_NAMES_TEXT_MAX] = "";
    if (om_layout_unit_field_find(l, target) >= 0)
        return OM_ERROR(OM_EINVAL, "--target '%s' is a field of each unit (one value per unit "
                        "and trial): name the unit as FIELD@UNIT (%s@%s)", target, target,
                        l->units[0].id);
    for (size_t i = 0; i < l->field_count; i++) {
        size_t used = strlen(known);
        names[i] = l->fields[i].name;
        snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", names[i]);
    }
    if ((best = om_suggest(target, names, l->field_count)) != NULL)
        return OM_ERROR(OM_EINVAL, "--target '%s' is not a field of this scenario's trials; "
                        "did you mean '%s'?", target, best);
    return OM_ERROR(OM_EINVAL, "--target '%s' is not a field of this scenario's trials (its "
                    "fields: %s)", target, known);
}

/* A --target FIELD@UNIT: a unit field of one unit, as OM_LAYOUT_FIELDS_MAX +
 * f * unit_count + u in *out. */
static om_status unit_target(const om_layout *l, const char *target, const char *at, int *out)
{
    char field[FIELD_NAMES_TEXT_MAX];
    const char *ids[OM_LAYOUT_UNITS_MAX], *best;
    int f, u;
    snprintf(field, sizeof field, "%.*s", (int)(at - target), target);
    if ((f = om_layout_unit_field_find(l, field)) < 0) {
        const char *names[OM_LAYOUT_UNIT_FIELDS_MAX];
        for (size_t i = 0; i < l->unit_field_count; i++)
            names[i] = l->unit_fields[i].name;
        best = om_suggest(field, names, l->unit_field_count);
        return OM_ERROR(OM_EINVAL, "--target '%s': '%s' is not a field of this scenario's "
                        "units%s%s%s", target, field, best ? "; did you mean '" : "",
                        best ? best : "", best ? "'?" : "");
    }
    if ((u = om_layout_unit_find(l, at + 1)) < 0) {
        for (size_t i = 0; i < l->unit_count; i++)
            ids[i] = l->units[i].id;
        best = om_suggest(at + 1, ids, l->unit_count);
        return OM_ERROR(OM_EINVAL, "--target '%s': '%s' is not a unit of this scenario%s%s%s",
                        target, at + 1, best ? "; did you mean '" : "", best ? best : "",
                        best ? "'?" : "");
    }
    *out = OM_LAYOUT_FIELDS_MAX + f * (int)l->unit_count + u;
    return OM_OK;
}

/* The field the target precision is about: req->target (a field of the
 * trial, or FIELD@UNIT: unit_target), or the winner; -1 without a target. */
static om_status target_field(const om_layout *l, const om_run_request *req, int *out)
{
    *out = -1;
    if (req->halfwidth <= 0.0)
        return OM_OK;
    if (req->target != NULL && l->unit_count > 0 && strchr(req->target, '@') != NULL)
        return unit_target(l, req->target, strchr(req->target, '@'), out);
    if (req->target != NULL) {
        if ((*out = om_layout_find(l, req->target)) < 0)
            return unknown_target(l, req->target);
        if (l->fields[*out].type == OM_FIELD_COUNT16)
            return OM_ERROR(OM_EINVAL, "--target '%s' is a two-byte count (victory points): "
                            "watch a one-byte field", req->target);
        return OM_OK;
    }
    if ((*out = om_layout_find(l, "winner")) < 0)
        return OM_ERROR(OM_EINVAL, "this scenario's trials have no winner: give --target FIELD "
                        "with --halfwidth");
    return OM_OK;
}

/* The sentence recorded as the run's stop_reason. */
static const char *stop_reason(om_run_stop stop, char *buf, size_t size,
                               const om_run_request *req)
{
    switch (stop) {
    case OM_RUN_DONE: return "every trial asked for was run";
    case OM_RUN_PRECISE:
        snprintf(buf, size, "target precision reached: every 95%% interval of %s narrower "
                 "than +-%g", req->target ? req->target : "winner", req->halfwidth);
        return buf;
    case OM_RUN_INTERRUPTED: return "interrupted by a signal: resume with oddsmaster run --resume";
    }
    return "?";
}

/* path + suffix as a new string; NULL when out of memory. */
static char *with_suffix(const char *path, const char *suffix)
{
    size_t n = strlen(path), m = strlen(suffix);
    char *s = malloc(n + m + 1);
    if (s != NULL) {
        memcpy(s, path, n);
        memcpy(s + n, suffix, m + 1);
    }
    return s;
}

/* Run the prepared trials into the open writer from block first_block until
 * done, precise or interrupted, then finish the file at req->path or its
 * .partial name. The writer is consumed. */
/* Trials a block of runs of `t` holds: its layout's, or the driver's default. */
static uint64_t block_trials(const om_trials *t)
{
    return t->layout.block_trials > 0 ? t->layout.block_trials : OM_RUN_BLOCK_SIZE;
}

static om_status drive(const om_trials *t, om_h5_writer *w, const om_run_request *req,
                       uint64_t first_block, uint64_t trials_left, uint64_t total,
                       om_run_report *report)
{
    file_sink fs = {.writer = w, .layout = &t->layout, .trials = t, .req = req, .total = total,
                    .blocks_done = first_block, .stop = OM_RUN_DONE};
    om_run_sink sink = {.ctx = &fs, .tally_only = req->no_rows, .by_class = true,
                        .work_alloc = sink_work_alloc,
                        .work_free = sink_work_free, .prepare = sink_prepare, .put = sink_put,
                        .after_put = sink_written};
    om_run_config cfg = {.trials = trials_left, .seed = req->seed,
                         .block_size = block_trials(t), .first_block = first_block,
                         .threads = req->threads, .plain_dice = req->plain_dice,
                         .trial_streams = req->trial_streams};
    char reason[160];
    om_h5_end end;
    om_status st;

    fs.chunk_rows = total < cfg.block_size ? (size_t)total : (size_t)cfg.block_size;
    if ((st = target_field(&t->layout, req, &fs.target)) == OM_OK)
        st = om_run_simulate(t, &cfg, &sink, NULL);
    if (st != OM_OK) {
        om_h5_writer_abort(w);
        return st;
    }
    report->stop = fs.stop;
    report->trials = om_h5_writer_tally(w)->trials;
    report->path = fs.stop == OM_RUN_INTERRUPTED ? with_suffix(req->path, PARTIAL_SUFFIX)
                                                 : strdup(req->path);
    if (report->path == NULL) {
        om_h5_writer_abort(w);
        return OM_ERROR(OM_ENOMEM, "out of memory");
    }
    end = (om_h5_end){.complete = fs.stop != OM_RUN_INTERRUPTED, .blocks_done = fs.blocks_done,
                      .stop_reason = stop_reason(fs.stop, reason, sizeof reason, req)};
    return om_h5_writer_finish(w, report->path, &end);
}

/* ----------------------------------------------------------- leftovers */

/* An interrupted run's .partial file beside `path` must be resumed or removed
 * first: a new run would leave it stale. */
static om_status check_partial(const char *path)
{
    char *partial = with_suffix(path, PARTIAL_SUFFIX);
    om_status st = OM_OK;
    if (partial == NULL)
        return OM_ERROR(OM_ENOMEM, "out of memory");
    if (access(partial, F_OK) == 0)
        st = OM_ERROR(OM_EINVAL, "%s holds an interrupted run of this output: continue it "
                      "with 'oddsmaster run --resume %s', or remove it to start again",
                      partial, partial);
    free(partial);
    return st;
}

/* ----------------------------------------------------------- a new run */

om_status om_run_file(const om_scenario *sc, const om_run_request *req, om_run_report *report)
{
    om_trials trials;
    om_h5_writer *writer = NULL;
    om_exact *exact = NULL;
    om_status st;

    memset(report, 0, sizeof *report);
    if ((st = check_partial(req->path)) != OM_OK ||
        (st = om_h5_tmp_clean(req->path, &report->notice)) != OM_OK)
        return st;
    if ((st = om_trials_prepare(sc, &trials)) != OM_OK)
        return st;
    /* The exact law, where the game knows it, is recorded beside the
     * estimates; where it does not, the file says why. */
    if ((st = om_trials_exact(&trials, &exact)) == OM_EUNSUPPORTED) {
        om_error_clear();
        st = OM_OK;
    }
    if (st != OM_OK) {
        om_trials_release(&trials);
        return st;
    }
    om_run_info info = {
        .program_version = OM_VERSION,
        .command_line = req->command_line,
        .game = sc->game->identity.name,
        .scenario_name = sc->source,
        .scenario_text = sc->text,
        .title = sc->title,
        .ruleset = sc->ruleset,
        .kind = sc->kind,
        .options_json = sc->provenance_json,
        .rng_scheme = req->plain_dice      ? PLAIN_RNG_SCHEME
                      : req->trial_streams ? OM_RNG_SCHEME_TRIALS
                                           : OM_RNG_SCHEME,
        .seed = req->seed,
        .trials = req->trials,
        .block_size = block_trials(&trials),
        .threads = om_run_threads(req->threads),
        .no_rows = req->no_rows,
        .halfwidth = req->halfwidth,
        .target = req->target,
        .layout = &trials.layout,
        .exact = exact,
    };
    if ((st = om_h5_writer_create(&writer, req->path, &info)) == OM_OK)
        st = drive(&trials, writer, req, 0, req->trials, req->trials, report);
    om_exact_free(exact);
    om_trials_release(&trials);
    return st;
}

/* ----------------------------------------------------------- resuming */

/* What an interrupted run recorded about itself. */
typedef struct partial_run {
    char *version, *text, *source, *target, *rng; /* strings of the file (owned) */
    uint64_t seed, trials, trials_requested, block_size, blocks_done, complete, rows;
    double halfwidth;
} partial_run;

static void partial_free(partial_run *p)
{
    free(p->version);
    free(p->text);
    free(p->source);
    free(p->target);
    free(p->rng);
}

/* Read what the file `path` says of its run; refuse a file that is not an
 * interrupted run of this program, or whose run's attributes were edited
 * since it began (the digest written then: om_h5_reader_open). */
static om_status read_partial(const char *path, partial_run *p)
{
    om_h5_reader *r = NULL;
    om_status st = om_h5_reader_open(&r, path);
    if (st != OM_OK)
        return st;
    if ((st = om_h5_reader_attr_string(r, "program_version", &p->version)) != OM_OK ||
        (st = om_h5_reader_attr_string(r, "scenario_yaml", &p->text)) != OM_OK ||
        (st = om_h5_reader_attr_string(r, "scenario_name", &p->source)) != OM_OK ||
        (st = om_h5_reader_attr_string(r, "target", &p->target)) != OM_OK ||
        (st = om_h5_reader_attr_string(r, "rng", &p->rng)) != OM_OK ||
        (st = om_h5_reader_attr_u64(r, "seed", &p->seed)) != OM_OK ||
        (st = om_h5_reader_attr_u64(r, "trials", &p->trials)) != OM_OK ||
        (st = om_h5_reader_attr_u64(r, "trials_requested", &p->trials_requested)) != OM_OK ||
        (st = om_h5_reader_attr_u64(r, "block_size", &p->block_size)) != OM_OK ||
        (st = om_h5_reader_attr_u64(r, "blocks_done", &p->blocks_done)) != OM_OK ||
        (st = om_h5_reader_attr_u64(r, "complete", &p->complete)) != OM_OK ||
        (st = om_h5_reader_attr_u64(r, "rows", &p->rows)) != OM_OK ||
        (st = om_h5_reader_attr_double(r, "halfwidth", &p->halfwidth)) != OM_OK)
        st = OM_ERROR(OM_EHDF5, "%s: not a run that can be resumed: %s", path,
                      om_error_message());
    om_h5_reader_close(r);
    if (st != OM_OK)
        return st;
    if (p->complete)
        return OM_ERROR(OM_EINVAL, "%s: the run is complete (%llu trials); there is nothing to "
                        "resume", path, (unsigned long long)p->trials);
    if (strcmp(p->version, OM_VERSION) != 0)
        return OM_ERROR(OM_EINVAL, "%s: written by oddsmaster %s, and this is %s: only the same "
                        "version continues a run bit for bit", path, p->version, OM_VERSION);
    if (strcmp(p->rng, OM_RNG_SCHEME) != 0 && strcmp(p->rng, OM_RNG_SCHEME_TRIALS) != 0 &&
        strcmp(p->rng, PLAIN_RNG_SCHEME) != 0)
        return OM_ERROR(OM_EHDF5, "%s: its dice ('%s', the rng attribute) are none this "
                        "program rolls", path, p->rng);
    if (p->block_size == 0 || p->block_size > OM_RUN_BLOCK_SIZE ||
        p->trials != p->blocks_done * p->block_size || p->trials >= p->trials_requested)
        return OM_ERROR(OM_EHDF5, "%s: its record of the run is inconsistent (%llu of %llu "
                        "trials in %llu blocks of %llu)", path, (unsigned long long)p->trials,
                        (unsigned long long)p->trials_requested,
                        (unsigned long long)p->blocks_done, (unsigned long long)p->block_size);
    return OM_OK;
}

/* Nothing damaged goes on into the finished file: every row of the file
 * `path` is read (each chunk's checksum verified) and counted against its
 * tallies, or, without rows, its tallies are read (theirs verified). Done
 * once the cheaper checks have passed. */
static om_status check_partial_data(const char *path, const partial_run *p)
{
    om_h5_reader *r = NULL;
    om_tally *t = NULL;
    om_status st = om_h5_reader_open(&r, path);
    if (st == OM_OK && p->rows != 0)
        st = om_h5_reader_check_rows(r, NULL);
    else if (st == OM_OK && (t = malloc(sizeof *t)) == NULL)
        st = OM_ERROR(OM_ENOMEM, "out of memory");
    else if (st == OM_OK)
        st = om_h5_reader_tally(r, t);
    free(t);
    om_h5_reader_close(r);
    return st;
}

/* The run the file recorded against what the command asked for. */
static om_status check_request(const char *path, const partial_run *p, const om_run_request *req)
{
    if (req->seed_given && req->seed != p->seed)
        return OM_ERROR(OM_EINVAL, "%s: the run's seed is %llu, not %llu", path,
                        (unsigned long long)p->seed, (unsigned long long)req->seed);
    if (req->trials_given && req->trials != p->trials_requested)
        return OM_ERROR(OM_EINVAL, "%s: the run is of %llu trials, not %llu", path,
                        (unsigned long long)p->trials_requested,
                        (unsigned long long)req->trials);
    if (req->scenario_text != NULL && strcmp(req->scenario_text, p->text) != 0)
        return OM_ERROR(OM_EINVAL, "%s: the run is of another scenario (%s)", path, p->source);
    return OM_OK;
}

/* Whether the file's fields are the layout's, in order. */
static om_status check_fields(const char *path, const om_layout *l)
{
    om_h5_reader *r = NULL;
    om_status st = om_h5_reader_open(&r, path);
    if (st != OM_OK)
        return st;
    if (om_h5_reader_field_count(r) != l->field_count)
        st = OM_ERROR(OM_EINVAL, "%s: its fields are not those of its scenario's trials", path);
    for (size_t i = 0; st == OM_OK && i < l->field_count; i++)
        if (strcmp(om_h5_reader_field(r, i)->name, l->fields[i].name) != 0)
            st = OM_ERROR(OM_EINVAL, "%s: field %zu is %s, its scenario's trials have %s", path,
                          i, om_h5_reader_field(r, i)->name, l->fields[i].name);
    om_h5_reader_close(r);
    return st;
}

om_status om_run_resume(const char *path, const om_run_request *req, om_run_report *report)
{
    size_t len = strlen(path), sfx = strlen(PARTIAL_SUFFIX);
    partial_run p = {0};
    om_scenario *sc = NULL;
    om_trials trials = {0};
    om_h5_writer *w = NULL;
    char *final = NULL;
    uint64_t blocks_done = 0;
    om_status st;

    memset(report, 0, sizeof *report);
    if (len <= sfx || strcmp(path + len - sfx, PARTIAL_SUFFIX) != 0)
        return OM_ERROR(OM_EINVAL, "%s: not an interrupted run's file (NAME.h5%s)", path,
                        PARTIAL_SUFFIX);
    if ((st = read_partial(path, &p)) == OM_OK && (st = check_request(path, &p, req)) == OM_OK &&
        (st = check_partial_data(path, &p)) == OM_OK &&
        (st = om_scenario_load_text(p.source, p.text, strlen(p.text), &sc)) == OM_OK &&
        (st = om_trials_prepare(sc, &trials)) == OM_OK)
        st = check_fields(path, &trials.layout);
    if (st == OM_OK && p.block_size != block_trials(&trials))
        st = OM_ERROR(OM_EHDF5, "%s: its blocks of %llu trials are not the %llu its scenario's "
                      "runs take", path, (unsigned long long)p.block_size,
                      (unsigned long long)block_trials(&trials));
    if (st == OM_OK && (final = strndup(path, len - sfx)) == NULL)
        st = OM_ERROR(OM_ENOMEM, "out of memory");
    if (st == OM_OK)
        st = om_h5_tmp_clean(final, &report->notice);
    if (st == OM_OK)
        st = om_h5_writer_reopen(&w, path, final, &trials.layout, &blocks_done);
    if (st == OM_OK) {
        om_run_request r = *req;
        r.path = final;
        r.seed = p.seed;
        r.no_rows = p.rows == 0;
        r.halfwidth = p.halfwidth;
        r.target = p.target[0] ? p.target : NULL;
        /* The dice go on as they began, whatever the resuming command says. */
        r.plain_dice = strcmp(p.rng, PLAIN_RNG_SCHEME) == 0;
        r.trial_streams = strcmp(p.rng, OM_RNG_SCHEME_TRIALS) == 0;
        st = drive(&trials, w, &r, blocks_done, p.trials_requested - p.trials,
                   p.trials_requested, report);
        /* A finished run replaces the .partial file; one interrupted again was
         * renamed over it. */
        if (st == OM_OK && report->stop != OM_RUN_INTERRUPTED)
            remove(path);
    }
    om_trials_release(&trials);
    om_scenario_free(sc);
    partial_free(&p);
    free(final);
    return st;
}

void om_run_report_release(om_run_report *report)
{
    if (report == NULL)
        return;
    free(report->path);
    free(report->notice);
    report->path = report->notice = NULL;
}
