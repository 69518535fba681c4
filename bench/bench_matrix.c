/*
 * bench_matrix.c: cells per second of a full matchup matrix: Warmaster
 * Revolution Empire against Orcs, every troop unit, two situations (A
 * charges, B charges), whole engagements, at 1 and 2 threads, written to a
 * temporary HDF5 file as `oddsmaster matrix` does (the plan, units read once
 * from the data, is made once and not timed: it is what a run does once).
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
    const char *dir = getenv("TMPDIR");
    char path[512];
    double rate[2];
    int fd;

    gsl_set_error_handler_off();
    /* The matrix file, under $TMPDIR (or /tmp). */
    snprintf(path, sizeof path, "%s/om_bench_matrix_XXXXXX",
             dir != NULL && dir[0] != '\0' ? dir : "/tmp");
    if ((fd = mkstemp(path)) < 0)
        return 1;
    close(fd);
    for (unsigned threads = 1; threads <= 2; threads++) {
        om_matrix_spec spec = {.ruleset = "warmaster-revolution", .rows = "empire",
                               .cols = "orcs", .kind = "engagement", .seed = 1,
                               .trials = trials, .threads = threads};
        om_matrix_plan *p = NULL;
        double t0;
        size_t cells;
        if (om_matrix_plan_alloc(&spec, &p) != OM_OK)
            return fail();
        cells = p->n_sits * p->n_rows * p->n_cols;
        if (threads == 1)
            printf("matrix: warmaster-revolution empire (%zu units) x orcs (%zu units) x %zu "
                   "situations = %zu cells, %llu trials per cell, whole engagements\n\n",
                   p->n_rows, p->n_cols, p->n_sits, cells, (unsigned long long)trials);
        t0 = now_s();
        if (om_matrix_run_file(p, path, "bench_matrix", NULL, NULL, NULL) != OM_OK)
            return fail();
        rate[threads - 1] = (double)cells / (now_s() - t0);
        printf("%u thread%s: %8.1f cells/s  (%.3e engagements/s)\n", threads,
               threads > 1 ? "s" : " ", rate[threads - 1], rate[threads - 1] * (double)trials);
        om_matrix_plan_free(p);
    }
    printf("\nscaling 1 -> 2 threads: %.2fx\n", rate[1] / rate[0]);
    unlink(path);
    return 0;
}
