/*
 * bench_checksum.c: what the Fletcher-32 checksum of every chunk costs a run
 * that writes its rows, measured in one process against the run itself.
 *
 * A run with and without checksums cannot be compared in one binary (every
 * dataset carries one: there is no switch), and two binaries of two commits
 * differ in more than the checksum and are timed through a noisy machine. So
 * this program times the two parts it is made of: a run of the embedded
 * default scenario writing every row (om_run_file, 1 and 2 threads, the best
 * of REPEATS), and then the checksum alone over every chunk that run wrote,
 * read back raw from its file (H5Dread_chunk: the very bytes, each chunk's
 * own checksum left out) and summed again with om_h5_fletcher32, the
 * function the writer calls, the best of REPEATS. The chunks are summed from
 * memory that has left the cache (an upper bound), and again each just after
 * a first sum has brought it into the cache, as the writer sums a chunk it
 * has just encoded (what a run pays). The share is the checksum's time
 * over the run's on one thread (on two, each thread sums the chunks it
 * encodes, so the work divides as the run's does). Usage:
 * bench_checksum [TRIALS] (default 2e7).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hdf5.h>

#include "game.h"
#include "h5_int.h"
#include "run.h"

/* Each part runs this many times; the fastest is reported. */
#define REPEATS 5

/* Bytes of a chunk's checksum, after its data. */
#define CHECKSUM_BYTES 4

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *what)
{
    fprintf(stderr, "bench_checksum: %s: %s\n", what, om_error_message());
    exit(1);
}

/* The chunks read back from the file, each without its checksum. */
typedef struct chunks {
    unsigned char **data;
    size_t *size;
    size_t n, cap, bytes;
} chunks;

static void chunks_add(chunks *c, unsigned char *data, size_t size)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 256;
        c->data = realloc(c->data, c->cap * sizeof *c->data);
        c->size = realloc(c->size, c->cap * sizeof *c->size);
        if (c->data == NULL || c->size == NULL) {
            fprintf(stderr, "bench_checksum: out of memory\n");
            exit(1);
        }
    }
    c->data[c->n] = data;
    c->size[c->n++] = size;
    c->bytes += size;
}

/* Every chunk of the dataset `name` of group `loc` (H5Ovisit callback). */
static herr_t read_dataset(hid_t loc, const char *name, const H5O_info_t *info, void *ctx)
{
    chunks *c = ctx;
    hsize_t n = 0;
    hid_t d, space;
    if (info->type != H5O_TYPE_DATASET)
        return 0;
    if ((d = H5Dopen2(loc, name, H5P_DEFAULT)) < 0)
        return -1;
    space = H5Dget_space(d);
    if (H5Dget_num_chunks(d, space, &n) < 0)
        n = 0; /* a contiguous dataset (the provenance): no chunk, no checksum */
    for (hsize_t i = 0; i < n; i++) {
        hsize_t offset[2];
        unsigned mask;
        haddr_t addr;
        hsize_t size;
        uint32_t filters;
        unsigned char *buf;
        if (H5Dget_chunk_info(d, space, i, offset, &mask, &addr, &size) < 0 ||
            (buf = malloc(size)) == NULL ||
            H5Dread_chunk(d, H5P_DEFAULT, offset, &filters, buf) < 0) {
            fprintf(stderr, "bench_checksum: cannot read chunk %llu of %s\n",
                    (unsigned long long)i, name);
            exit(1);
        }
        chunks_add(c, buf, size > CHECKSUM_BYTES ? size - CHECKSUM_BYTES : 0);
    }
    H5Sclose(space);
    H5Dclose(d);
    return 0;
}

/* The best time of REPEATS runs of `sc` into `path` on `threads` threads. */
static double time_run(const om_scenario *sc, const char *path, uint64_t trials,
                       unsigned threads)
{
    double best = 1e300;
    for (int r = 0; r < REPEATS; r++) {
        om_run_request req = {.path = path, .command_line = "bench_checksum",
                              .trials = trials, .seed = 42, .threads = threads};
        om_run_report rep = {0};
        double t0;
        unlink(path);
        t0 = now_s();
        if (om_run_file(sc, &req, &rep) != OM_OK)
            die("run");
        t0 = now_s() - t0;
        om_run_report_release(&rep);
        if (t0 < best)
            best = t0;
    }
    return best;
}

int main(int argc, char **argv)
{
    const uint64_t trials = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000000u;
    const char *tmp = getenv("TMPDIR");
    char dir[256], path[300];
    om_scenario *sc = NULL;
    chunks c = {0};
    double run1, run2, cold = 1e300, warm = 1e300;
    volatile uint32_t sink = 0;
    hid_t f;

    snprintf(dir, sizeof dir, "%s/om_bench_checksum_XXXXXX",
             tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL || trials == 0) {
        fprintf(stderr, "bench_checksum: usage: bench_checksum [TRIALS >= 1]\n");
        return 1;
    }
    snprintf(path, sizeof path, "%s/run.h5", dir);
    if (om_scenario_load_default(&sc) != OM_OK)
        die("default scenario");
    run2 = time_run(sc, path, trials, 2);
    run1 = time_run(sc, path, trials, 1);

    if ((f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0 ||
        H5Ovisit2(f, H5_INDEX_NAME, H5_ITER_NATIVE, read_dataset, &c, H5O_INFO_BASIC) < 0) {
        fprintf(stderr, "bench_checksum: cannot read the chunks of %s\n", path);
        return 1;
    }
    H5Fclose(f);
    unlink(path);
    rmdir(dir);
    for (int r = 0; r < REPEATS; r++) {
        double t0 = now_s(), hot = 0;
        for (size_t i = 0; i < c.n; i++)
            sink ^= om_h5_fletcher32(c.data[i], c.size[i]);
        t0 = now_s() - t0;
        if (t0 < cold)
            cold = t0;
        /* Each chunk summed again just after a first sum has brought it into
         * the cache, as the writer sums a chunk it has just encoded. */
        for (size_t i = 0; i < c.n; i++) {
            double t1;
            sink ^= om_h5_fletcher32(c.data[i], c.size[i]);
            t1 = now_s();
            sink ^= om_h5_fletcher32(c.data[i], c.size[i]);
            hot += now_s() - t1;
        }
        if (hot < warm)
            warm = hot;
    }

    printf("default scenario, %llu trials, rows written, best of %d\n",
           (unsigned long long)trials, REPEATS);
    printf("run, 1 thread:             %8.3f s (%.3g trials/s)\n", run1,
           (double)trials / run1);
    printf("run, 2 threads:            %8.3f s (%.3g trials/s)\n", run2,
           (double)trials / run2);
    printf("chunks checksummed:        %zu, %.1f MB (%.2f bytes a trial)\n", c.n,
           (double)c.bytes / 1e6, (double)c.bytes / (double)trials);
    printf("checksum, chunks in cache: %8.4f s (%.2f GB/s; the clock read per chunk "
           "included)\n", warm, (double)c.bytes / warm / 1e9);
    printf("checksum, from memory:     %8.4f s (%.2f GB/s)\n", cold,
           (double)c.bytes / cold / 1e9);
    printf("checksum / run, 1 thread:  %7.2f%% in cache, %.2f%% from memory\n",
           100 * warm / run1, 100 * cold / run1);
    printf("checksum / run, 2 threads: %7.2f%% in cache, %.2f%% from memory (each thread "
           "sums its own chunks)\n", 100 * warm / 2 / run2, 100 * cold / 2 / run2);
    for (size_t i = 0; i < c.n; i++)
        free(c.data[i]);
    free(c.data);
    free(c.size);
    om_scenario_free(sc);
    return sink == 0xffffffffu; /* keeps the sums computed */
}
