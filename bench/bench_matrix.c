/*
 * bench_matrix.c: cells per second of a full matchup matrix: Warmaster
 * Revolution Empire against Orcs, every troop unit, two situations (A
 * charges, B charges), whole engagements, at 1 and 2 threads, written to a
 * temporary HDF5 file as `oddsmaster matrix` does.
 * Usage: bench_matrix [TRIALS_PER_CELL] (default 20000, the CLI's default).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "matrix.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int fail(void)
{
    fprintf(stderr, "bench_matrix: %s\n", om_error_message());
    return 1;
}

int main(int argc, char **argv)
{
    uint64_t trials = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000u;
    const om_matrix_situation_def *sits[] = {om_matrix_situation_find("a-charges"),
                                             om_matrix_situation_find("b-charges")};
    om_matrix_list *rows = NULL, *cols = NULL;
    char path[] = "/tmp/om_bench_matrix_XXXXXX";
    double rate[2];
    int fd;

    gsl_set_error_handler_off();
    if (om_matrix_list_alloc("warmaster-revolution", "empire", &rows) != OM_OK ||
        om_matrix_list_alloc("warmaster-revolution", "orcs", &cols) != OM_OK)
        return fail();
    if ((fd = mkstemp(path)) < 0)
        return 1;
    close(fd);
    size_t cells = 2 * rows->count * cols->count;
    om_matrix_unit *ru = calloc(rows->count, sizeof *ru), *cu = calloc(cols->count, sizeof *cu);
    om_matrix_situation ms[2] = {{.name = "a-charges", .yaml = "a-charges"},
                                  {.name = "b-charges", .yaml = "b-charges"}};
    for (size_t i = 0; i < rows->count; i++)
        ru[i] = (om_matrix_unit){.name = rows->members[i].name, .id = rows->members[i].unit,
                                 .points = rows->members[i].points};
    for (size_t i = 0; i < cols->count; i++)
        cu[i] = (om_matrix_unit){.name = cols->members[i].name, .id = cols->members[i].unit,
                                 .points = cols->members[i].points};
    printf("matrix: warmaster-revolution empire (%zu units) x orcs (%zu units) x 2 situations = "
           "%zu cells, %llu trials per cell, whole engagements\n\n",
           rows->count, cols->count, cells, (unsigned long long)trials);
    for (unsigned threads = 1; threads <= 2; threads++) {
        om_matrix_spec spec = {.ruleset = "warmaster-revolution", .rows = rows, .cols = cols,
                               .n_situations = 2, .situations = sits, .kind = "engagement",
                               .seed = 1, .trials = trials, .threads = threads};
        om_matrix_info info = {.program_version = "bench", .command_line = "bench_matrix",
                               .ruleset = "warmaster-revolution", .data_version = "bench",
                               .row_list = "empire", .col_list = "orcs", .rng_scheme = "bench",
                               .seed = 1, .trials_per_cell = trials, .n_situations = 2,
                               .n_rows = rows->count, .n_cols = cols->count, .situations = ms,
                               .rows = ru, .cols = cu};
        om_h5m_writer *w = NULL;
        double t0 = now_s();
        if (om_h5m_writer_create(&w, path, &info) != OM_OK ||
            om_matrix_run(&spec, w, NULL, NULL, NULL) != OM_OK ||
            om_h5m_writer_close(w) != OM_OK)
            return fail();
        rate[threads - 1] = (double)cells / (now_s() - t0);
        printf("%u thread%s: %8.1f cells/s  (%.3e engagements/s)\n", threads,
               threads > 1 ? "s" : " ", rate[threads - 1],
               rate[threads - 1] * (double)trials);
    }
    printf("\nscaling 1 -> 2 threads: %.2fx\n", rate[1] / rate[0]);
    unlink(path);
    free(ru);
    free(cu);
    om_matrix_list_free(rows);
    om_matrix_list_free(cols);
    return 0;
}
