/*
 * run.c: the OpenMP Monte Carlo driver (see run.h for the reproducibility
 * contract). The only shared mutable datum is the error record, updated inside
 * the sink's critical section.
 */
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "dice.h"
#include "rng.h"

unsigned om_run_threads(unsigned requested)
{
    return requested > 0 ? requested : (unsigned)omp_get_max_threads();
}

/* Seed the plain baseline generator of block b from the block's own stream, so
 * the baseline is as reproducible as the fast path. */
static void seed_plain(gsl_rng *g, uint64_t seed, uint64_t block)
{
    om_rng r;
    om_rng_seed_block(&r, seed, block);
    gsl_rng_set(g, (unsigned long)om_pcg64_next(&r));
}

om_status om_run_simulate(const om_trials *t, const om_run_config *cfg, om_run_sink sink,
                          void *ctx)
{
    const size_t row_size = t->layout.row_size;
    void (*const resolve_block)(const void *, om_dice *, uint8_t *, size_t) =
        t->game->resolve_block;
    const uint64_t block_size = cfg->block_size ? cfg->block_size : OM_RUN_BLOCK_SIZE;
    const uint64_t n_blocks = cfg->trials == 0 ? 0 : (cfg->trials - 1) / block_size + 1;
    const int threads = (int)om_run_threads(cfg->threads);
    om_status failed = OM_OK;
    char failed_msg[OM_ERROR_MSG_MAX] = "";

    if (cfg->trials == 0)
        return OM_ERROR(OM_EINVAL, "the number of trials must be at least 1");

#pragma omp parallel num_threads(threads)
    {
        uint8_t *rows = malloc(block_size * row_size);
        gsl_rng *plain = cfg->plain_dice ? gsl_rng_alloc(gsl_rng_default) : NULL;
        om_dice dice;
        bool ok = rows != NULL && (!cfg->plain_dice || plain != NULL);

        if (!ok) {
#pragma omp critical(om_run_sink)
            {
                if (failed == OM_OK) {
                    failed = OM_ENOMEM;
                    snprintf(failed_msg, sizeof failed_msg, "out of memory for a block of "
                             "%llu trials", (unsigned long long)block_size);
                }
            }
        }

#pragma omp for schedule(dynamic, 1)
        for (uint64_t b = 0; b < n_blocks; b++) {
            uint64_t first = b * block_size;
            size_t n = (size_t)(cfg->trials - first < block_size ? cfg->trials - first : block_size);
            uint64_t stream = cfg->first_block + b;
            om_status seen;
#pragma omp atomic read
            seen = failed;
            if (!ok || seen != OM_OK)
                continue;
            om_rng_seed_block(&dice.rng, cfg->seed, stream);
            dice.plain = plain;
            if (plain)
                seed_plain(plain, cfg->seed, stream);
            resolve_block(t->prepared, &dice, rows, n);
#pragma omp critical(om_run_sink)
            {
                if (failed == OM_OK) {
                    om_status st = sink ? sink(ctx, cfg->first_block * block_size + first, rows, n)
                                        : OM_OK;
                    if (st != OM_OK) {
                        snprintf(failed_msg, sizeof failed_msg, "%s", om_error_message());
#pragma omp atomic write
                        failed = st;
                    }
                }
            }
        }
        if (plain)
            gsl_rng_free(plain);
        free(rows);
    }
    if (failed != OM_OK)
        return OM_ERROR(failed, "%s", failed_msg);
    return OM_OK;
}
