/*
 * h5edit.c: damages and edits result files for the tests of what the readers
 * make of them (tests/test_cli_damage.sh), with no Python needed:
 *
 *   h5edit chunk FILE DATASET INDEX flip|zero WHERE [LENGTH]
 *       flip (invert) or zero LENGTH bytes (default 1) of chunk INDEX of
 *       DATASET, from byte WHERE of the chunk ("mid": its middle; "data":
 *       the first LENGTH bytes from its middle on, before its checksum and
 *       then from its start, that are not all zero), the chunk found with
 *       H5Dget_chunk_info and changed
 *       in place with pwrite(2), as a disk or a copy would damage it (bytes
 *       zero already are an error: the test would change nothing);
 *   h5edit rewrite FILE DATASET ROW VALUE
 *       set row ROW of the 1-D integer DATASET to VALUE through HDF5 (so its
 *       checksum is right: the rows then disagree with the tallies);
 *   h5edit u64 FILE ATTRIBUTE VALUE      set a u64 attribute of the root;
 *   h5edit text FILE ATTRIBUTE VALUE     set a string attribute of the root;
 *   h5edit chunks FILE DATASET           list INDEX OFFSET SIZE of each chunk.
 *
 * Exits 0 on success, 1 with a message otherwise. Not part of the program.
 */
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Print an error and exit 1. */
static int fail(const char *what, const char *detail)
{
    fprintf(stderr, "h5edit: %s: %s\n", what, detail);
    exit(1);
}

/* Where chunk `index` of `dataset` lies in `path`, and its size. */
static void chunk_place(const char *path, const char *dataset, hsize_t index, haddr_t *addr,
                        hsize_t *size)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), d, space;
    hsize_t offset[H5S_MAX_RANK];
    unsigned mask = 0;
    if (f < 0 || (d = H5Dopen2(f, dataset, H5P_DEFAULT)) < 0)
        fail(path, "cannot open the file or the dataset");
    space = H5Dget_space(d);
    if (H5Dget_chunk_info(d, space, index, offset, &mask, addr, size) < 0)
        fail(dataset, "no such chunk");
    H5Sclose(space);
    H5Dclose(d);
    H5Fclose(f);
}

static int cmd_chunks(const char *path, const char *dataset)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), d, space;
    hsize_t n = 0;
    if (f < 0 || (d = H5Dopen2(f, dataset, H5P_DEFAULT)) < 0)
        return fail(path, "cannot open the file or the dataset");
    space = H5Dget_space(d);
    H5Dget_num_chunks(d, space, &n);
    for (hsize_t i = 0; i < n; i++) {
        hsize_t offset[H5S_MAX_RANK], size = 0;
        haddr_t addr = 0;
        unsigned mask = 0;
        H5Dget_chunk_info(d, space, i, offset, &mask, &addr, &size);
        printf("%llu %llu %llu\n", (unsigned long long)i, (unsigned long long)addr,
               (unsigned long long)size);
    }
    H5Sclose(space);
    H5Dclose(d);
    H5Fclose(f);
    return 0;
}

static int cmd_chunk(int argc, char **argv)
{
    const char *path = argv[2], *how = argv[5];
    haddr_t addr = 0;
    hsize_t size = 0, at, length = argc > 7 ? strtoull(argv[7], NULL, 10) : 1;
    unsigned char buf[4096];
    int fd;
    chunk_place(path, argv[3], strtoull(argv[4], NULL, 10), &addr, &size);
    at = strcmp(argv[6], "mid") == 0 || strcmp(argv[6], "data") == 0 ? size / 2
                                                                     : strtoull(argv[6], NULL, 10);
    if (at + length > size || length > sizeof buf)
        return fail(argv[3], "the bytes lie outside the chunk");
    if ((fd = open(path, O_RDWR)) < 0)
        return fail(path, strerror(errno));
    for (;;) {
        unsigned char any = 0;
        if (pread(fd, buf, length, (off_t)(addr + at)) != (ssize_t)length)
            return fail(path, strerror(errno));
        for (hsize_t i = 0; i < length; i++)
            any |= buf[i];
        /* "data": on to the next bytes while these are zero, from the
         * chunk's start after its end (the checksum, the last 4 bytes, is
         * not data), until back in the middle. */
        if (any != 0 || strcmp(argv[6], "data") != 0)
            break;
        at = at + length + 4 >= size ? 0 : at + 1;
        if (at == size / 2)
            break;
    }
    if (strcmp(how, "zero") == 0) {
        unsigned char any = 0;
        for (hsize_t i = 0; i < length; i++)
            any |= buf[i];
        if (any == 0)
            return fail(argv[3], "the bytes are zero already: nothing would change");
    }
    for (hsize_t i = 0; i < length; i++)
        buf[i] = strcmp(how, "zero") == 0 ? 0 : (unsigned char)~buf[i];
    if (pwrite(fd, buf, length, (off_t)(addr + at)) != (ssize_t)length || close(fd) != 0)
        return fail(path, strerror(errno));
    return 0;
}

static int cmd_rewrite(const char *path, const char *dataset, const char *row, const char *value)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT), d, fspace, mspace;
    hsize_t start = strtoull(row, NULL, 10), one = 1;
    unsigned long long v = strtoull(value, NULL, 10);
    if (f < 0 || (d = H5Dopen2(f, dataset, H5P_DEFAULT)) < 0)
        return fail(path, "cannot open the file or the dataset");
    fspace = H5Dget_space(d);
    mspace = H5Screate_simple(1, &one, NULL);
    if (H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &start, NULL, &one, NULL) < 0 ||
        H5Dwrite(d, H5T_NATIVE_ULLONG, mspace, fspace, H5P_DEFAULT, &v) < 0)
        return fail(dataset, "cannot write the row");
    H5Sclose(mspace);
    H5Sclose(fspace);
    H5Dclose(d);
    return H5Fclose(f) < 0 ? fail(path, "cannot close") : 0;
}

static int cmd_attr(const char *kind, const char *path, const char *name, const char *value)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT), space = H5Screate(H5S_SCALAR), type, a;
    unsigned long long v = strtoull(value, NULL, 10);
    if (f < 0)
        return fail(path, "cannot open the file");
    if (H5Aexists(f, name) > 0)
        H5Adelete(f, name);
    if (strcmp(kind, "u64") == 0) {
        type = H5Tcopy(H5T_STD_U64LE);
        a = H5Acreate2(f, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
        if (a < 0 || H5Awrite(a, H5T_NATIVE_ULLONG, &v) < 0)
            return fail(name, "cannot write the attribute");
    } else {
        type = H5Tcopy(H5T_C_S1);
        H5Tset_size(type, H5T_VARIABLE);
        H5Tset_cset(type, H5T_CSET_UTF8);
        a = H5Acreate2(f, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
        if (a < 0 || H5Awrite(a, type, &value) < 0)
            return fail(name, "cannot write the attribute");
    }
    H5Aclose(a);
    H5Tclose(type);
    H5Sclose(space);
    return H5Fclose(f) < 0 ? fail(path, "cannot close") : 0;
}

int main(int argc, char **argv)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (argc >= 4 && strcmp(argv[1], "chunks") == 0)
        return cmd_chunks(argv[2], argv[3]);
    if (argc >= 7 && strcmp(argv[1], "chunk") == 0)
        return cmd_chunk(argc, argv);
    if (argc >= 6 && strcmp(argv[1], "rewrite") == 0)
        return cmd_rewrite(argv[2], argv[3], argv[4], argv[5]);
    if (argc >= 5 && (strcmp(argv[1], "u64") == 0 || strcmp(argv[1], "text") == 0))
        return cmd_attr(argv[1], argv[2], argv[3], argv[4]);
    fprintf(stderr, "usage: h5edit chunk|rewrite|u64|text|chunks FILE ...\n");
    return 1;
}
