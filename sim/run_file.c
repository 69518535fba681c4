/*
 * run_file.c: a scenario of any game run into a result file (run.h): the
 * library function behind `oddsmaster run`. Prepares the scenario through the
 * game interface, creates the HDF5 writer with the run's provenance and the
 * game's layout, drives the trials and publishes the file only when all went
 * well.
 */
#include "run.h"

#include "h5file.h"
#include "om_version.h"
#include "rng.h"

/* Provenance of the plain baseline dice, which do not follow OM_RNG_SCHEME. */
#define PLAIN_RNG_SCHEME \
    "gsl default generator (plain baseline dice); block b seeded from pcg64-dxsm " \
    "SplitMix64(seed, b)"

/* The sink of the driver: each finished block goes to the HDF5 writer. */
static om_status write_block(void *ctx, uint64_t first, const uint8_t *rows, size_t n)
{
    return om_h5_writer_put(ctx, first, rows, n);
}

om_status om_run_file(const om_scenario *sc, const om_run_request *req)
{
    om_trials trials;
    om_h5_writer *writer = NULL;
    om_status st = om_trials_prepare(sc, &trials);
    if (st != OM_OK)
        return st;
    om_run_info info = {
        .program_version = OM_VERSION,
        .command_line = req->command_line,
        .game = sc->game->name,
        .scenario_name = sc->source,
        .scenario_text = sc->text,
        .title = sc->title,
        .ruleset = sc->ruleset,
        .kind = sc->kind,
        .options_json = sc->provenance_json,
        .rng_scheme = req->plain_dice ? PLAIN_RNG_SCHEME : OM_RNG_SCHEME,
        .seed = req->seed,
        .trials = req->trials,
        .block_size = OM_RUN_BLOCK_SIZE,
        .threads = om_run_threads(req->threads),
        .layout = &trials.layout,
    };
    om_run_config cfg = {.trials = req->trials, .seed = req->seed,
                         .block_size = OM_RUN_BLOCK_SIZE, .threads = req->threads,
                         .plain_dice = req->plain_dice};
    if ((st = om_h5_writer_create(&writer, req->path, &info)) == OM_OK) {
        st = om_run_simulate(&trials, &cfg, write_block, writer);
        if (st == OM_OK)
            st = om_h5_writer_close(writer);
        else
            om_h5_writer_abort(writer);
    }
    om_trials_release(&trials);
    return st;
}
