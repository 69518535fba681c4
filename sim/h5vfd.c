/*
 * h5vfd.c: a file driver of HDF5's virtual file layer for the files sim/
 * writes: POSIX I/O, as the library's default driver (sec2), with the writes
 * gathered in one buffer. A run with rows writes every block as one chunk a
 * field, a few kilobytes each (a header of 21 bytes for a field of one value),
 * one after the other in the file; each a system call, they cost the kernel
 * more than packing them (page-cache bookkeeping per call: measured, 2 KB
 * writes cost four times as much a byte as 64 KB ones, and 130 KB ones a
 * quarter less than 65 KB ones). Gathered, the chunks of the blocks a thread
 * puts together reach the kernel as a few large writes.
 *
 * The driver declares the features of sec2 (aggregated metadata, accumulated
 * metadata, data sieving, aggregated small data), so the library allocates
 * and writes the file exactly as it would with sec2: the same bytes (the
 * driver keeps nothing in the file of its own). Contract of the buffer: it
 * holds bytes [buf_addr, buf_addr + buf_len) not yet written; a write that
 * continues it is appended (a full buffer is written out first), any other
 * write, and any read that touches it, writes it out first; flush, truncate
 * and close write it out. The end of file is that of the file and the buffer
 * together, so the library sees the file it would see unbuffered.
 *
 * For raw data whose writes are deferred (a run's chunks), the driver also
 * allocates the file's disk blocks ahead (reserve), the threads that write
 * the bytes start their writeback to the disk as they go (start_writeback),
 * and the writer starts the rest's once the rows are all written
 * (om_h5_buffered_writeback); none of these changes a byte of the file.
 *
 * A write that fails is remembered (its errno, for the writer's message:
 * om_h5_buffered_errno). Once the file is closing (om_h5_buffered_closing),
 * failures are no longer reported to the library but to the writer: HDF5
 * 1.10 keeps the identifier of a file whose close failed, its memory
 * already freed, and crashes when it closes it again (H5close, or at exit).
 *
 * Not thread-safe by itself: HDF5 serialises its calls, and sim/ calls HDF5
 * from one thread at a time (the deferred writes, by many threads, share
 * only an atomic position).
 */
/* sync_file_range (Linux). */
#define _GNU_SOURCE

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "h5_int.h"

/* Bytes gathered before they are written: about 15 blocks of chunks of the
 * default scenario; larger writes gain nothing more. */
#define BUFFER_BYTES ((size_t)1 << 20)

/* The largest address: that of an off_t, as sec2's. */
#define MAX_ADDR (((haddr_t)1 << (8 * sizeof(off_t) - 1)) - 1)

/* An open file of the driver. */
typedef struct buffered_file {
    H5FD_t pub;         /* the library's part: must come first */
    int fd;             /* the file */
    haddr_t eoa;        /* end of the address space the library allocated */
    haddr_t eof;        /* end of the file as written, buffer included */
    dev_t device;       /* the file's identity, for cmp */
    ino_t inode;
    uint8_t *buf;       /* [BUFFER_BYTES] bytes not yet written */
    haddr_t buf_addr;   /* where they go */
    size_t buf_len;     /* how many */
    om_h5_deferred *defer; /* where raw data writes are listed instead, or NULL */
    haddr_t reserved;   /* the file's disk blocks are allocated up to here (reserve) */
    _Atomic(haddr_t) written_from; /* writeback started up to here (start_writeback) */
    int failed_errno;   /* errno of the first write that failed, or 0 */
    int *closing;       /* while the file closes (om_h5_buffered_closing): where failures
                           are told instead of to the library, or NULL */
} buffered_file;

/* Disk space allocated ahead of the raw data deferred at a time. */
#define RESERVE_BYTES ((haddr_t)64 << 20)

/*
 * Allocate the disk blocks of the file up to `end` and RESERVE_BYTES beyond,
 * past its end of file (fallocate, FALLOC_FL_KEEP_SIZE: its size and bytes
 * unchanged). Each page the threads then write has its blocks already: ext4
 * otherwise reserves and maps them page by page as they are written (about
 * a fifth of the kernel's cost of the writes). What is left past the end
 * when the file closes is given back (bf_close). Advisory: where the file
 * system cannot, nothing is reserved, and no more is tried.
 */
static void reserve(buffered_file *f, haddr_t end)
{
#if defined(FALLOC_FL_KEEP_SIZE)
    const haddr_t from = f->reserved > f->eof ? f->reserved : f->eof;
    const haddr_t to = end + RESERVE_BYTES;
    if (fallocate(f->fd, FALLOC_FL_KEEP_SIZE, (off_t)from, (off_t)(to - from)) == 0) {
        f->reserved = to;
        return;
    }
#else
    (void)end;
#endif
    f->reserved = MAX_ADDR;
}

/* pwritev all of the `n` pieces `iov` at `addr` (iov is used up); false on
 * failure, errno saying why. Pieces of no bytes are skipped: a pwritev of
 * nothing returns 0, which is otherwise a write that made no progress. */
static bool writev_all(int fd, struct iovec *iov, int n, haddr_t addr)
{
    while (n > 0) {
        if (iov->iov_len == 0) {
            iov++;
            n--;
            continue;
        }
        ssize_t done_bytes = pwritev(fd, iov, n, (off_t)addr);
        if (done_bytes < 0 && errno == EINTR)
            continue;
        if (done_bytes == 0)
            errno = EIO;
        if (done_bytes <= 0)
            return false;
        addr += (haddr_t)done_bytes;
        while (n > 0 && (size_t)done_bytes >= iov->iov_len) {
            done_bytes -= (ssize_t)iov->iov_len;
            iov++;
            n--;
        }
        if (n > 0) {
            iov->iov_base = (uint8_t *)iov->iov_base + done_bytes;
            iov->iov_len -= (size_t)done_bytes;
        }
    }
    return true;
}

/* pwrite all of `size` bytes at `addr`; false on failure, errno saying why. */
static bool write_all(int fd, const uint8_t *p, size_t size, haddr_t addr)
{
    struct iovec one = {(void *)p, size};
    return writev_all(fd, &one, 1, addr);
}

/*
 * Whether a system call on the file that went `ok` (errno saying why not)
 * counts as done for the library: a failure is remembered (the first one's
 * errno); while the file closes it is told to the closing writer instead,
 * and the library goes on as if it had succeeded (the file is not kept).
 */
static bool done(buffered_file *f, bool ok)
{
    if (ok)
        return true;
    if (f->failed_errno == 0)
        f->failed_errno = errno != 0 ? errno : EIO;
    if (f->closing == NULL)
        return false;
    if (*f->closing == 0)
        *f->closing = f->failed_errno;
    return true;
}

/* Write the buffer out; false on failure (the bytes stay buffered, unless
 * the file is closing: then they are dropped). */
static bool buffer_out(buffered_file *f)
{
    if (f->buf_len == 0)
        return true;
    if (!done(f, write_all(f->fd, f->buf, f->buf_len, f->buf_addr)))
        return false;
    f->buf_len = 0;
    return true;
}

/* Write the buffer out if it holds any of the bytes [addr, addr + size): a
 * read or write there goes after it. False on failure, as buffer_out. */
static bool buffer_out_over(buffered_file *f, haddr_t addr, size_t size)
{
    return f->buf_len == 0 || addr >= f->buf_addr + f->buf_len ||
           addr + size <= f->buf_addr || buffer_out(f);
}

static H5FD_t *bf_open(const char *name, unsigned flags, hid_t fapl, haddr_t maxaddr)
{
    buffered_file *f;
    struct stat sb;
    int o = (flags & H5F_ACC_RDWR) ? O_RDWR : O_RDONLY;
    int fd;
    (void)fapl;
    if (name == NULL || *name == '\0' || maxaddr == 0 || maxaddr == HADDR_UNDEF ||
        maxaddr > MAX_ADDR)
        return NULL;
    if (flags & H5F_ACC_TRUNC)
        o |= O_TRUNC;
    if (flags & H5F_ACC_CREAT)
        o |= O_CREAT;
    if (flags & H5F_ACC_EXCL)
        o |= O_EXCL;
    if ((fd = open(name, o, 0666)) < 0)
        return NULL;
    if (fstat(fd, &sb) != 0 || (f = calloc(1, sizeof *f)) == NULL) {
        close(fd);
        return NULL;
    }
    if ((f->buf = malloc(BUFFER_BYTES)) == NULL) {
        free(f);
        close(fd);
        return NULL;
    }
    f->fd = fd;
    atomic_init(&f->written_from, 0);
    f->eof = (haddr_t)sb.st_size;
    f->device = sb.st_dev;
    f->inode = sb.st_ino;
    return &f->pub;
}

static herr_t bf_close(H5FD_t *file)
{
    buffered_file *f = (buffered_file *)file;
    bool ok = buffer_out(f);
    /* Disk space reserved past the end given back (a truncation to the
     * file's own size frees the blocks beyond it). */
    if (f->reserved > f->eof && f->reserved != MAX_ADDR)
        ok = done(f, ftruncate(f->fd, (off_t)f->eof) == 0) && ok;
    ok = done(f, close(f->fd) == 0) && ok;
    free(f->buf);
    free(f);
    return ok ? 0 : -1;
}

static int bf_cmp(const H5FD_t *a, const H5FD_t *b)
{
    const buffered_file *x = (const buffered_file *)a, *y = (const buffered_file *)b;
    if (x->device != y->device)
        return x->device < y->device ? -1 : 1;
    if (x->inode != y->inode)
        return x->inode < y->inode ? -1 : 1;
    return 0;
}

static herr_t bf_query(const H5FD_t *file, unsigned long *flags)
{
    (void)file;
    /* sec2's, so that the library lays the file out as with it. */
    *flags = H5FD_FEAT_AGGREGATE_METADATA | H5FD_FEAT_ACCUMULATE_METADATA |
             H5FD_FEAT_DATA_SIEVE | H5FD_FEAT_AGGREGATE_SMALLDATA;
    return 0;
}

static haddr_t bf_get_eoa(const H5FD_t *file, H5FD_mem_t type)
{
    (void)type;
    return ((const buffered_file *)file)->eoa;
}

static herr_t bf_set_eoa(H5FD_t *file, H5FD_mem_t type, haddr_t addr)
{
    (void)type;
    ((buffered_file *)file)->eoa = addr;
    return 0;
}

static haddr_t bf_get_eof(const H5FD_t *file, H5FD_mem_t type)
{
    (void)type;
    return ((const buffered_file *)file)->eof;
}

/* The handle of a file of this driver is its buffered_file (om_h5_defer_raw
 * checks its class before using it). */
static herr_t bf_get_handle(H5FD_t *file, hid_t fapl, void **handle)
{
    (void)fapl;
    *handle = file;
    return 0;
}

static herr_t bf_read(H5FD_t *file, H5FD_mem_t type, hid_t dxpl, haddr_t addr, size_t size,
                      void *buffer)
{
    buffered_file *f = (buffered_file *)file;
    uint8_t *p = buffer;
    (void)type;
    (void)dxpl;
    if (addr == HADDR_UNDEF || addr + size > f->eoa)
        return -1;
    /* Bytes still buffered are read from the file once written out. */
    if (!buffer_out_over(f, addr, size))
        return -1;
    while (size > 0) {
        ssize_t n = pread(f->fd, p, size, (off_t)addr);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0) {
            /* Past the end of the file: zeros, as sec2 gives. */
            memset(p, 0, size);
            break;
        }
        p += n;
        size -= (size_t)n;
        addr += (haddr_t)n;
    }
    return 0;
}

static herr_t bf_write(H5FD_t *file, H5FD_mem_t type, hid_t dxpl, haddr_t addr, size_t size,
                       const void *buffer)
{
    buffered_file *f = (buffered_file *)file;
    (void)dxpl;
    if (addr == HADDR_UNDEF || addr + size > f->eoa)
        return -1;
    /* Raw data deferred: listed, the bytes left where they are. Buffered
     * bytes it lands on (space the library freed and placed it in) are
     * written out first, as for any other write, so that they cannot land
     * on it later. */
    if (type == H5FD_MEM_DRAW && f->defer != NULL && f->defer->n < f->defer->cap) {
        if (!buffer_out_over(f, addr, size))
            return -1;
        f->defer->fd = f->fd;
        f->defer->written_from = &f->written_from;
        f->defer->w[f->defer->n++] = (om_h5_deferred_write){addr, buffer, size};
        if (addr + size > f->reserved)
            reserve(f, addr + size);
        if (addr + size > f->eof)
            f->eof = addr + size;
        return 0;
    }
    /* Appended when it continues the buffer (or starts an empty one);
     * otherwise the buffer is written out first, keeping the writes' order. */
    if (f->buf_len > 0 &&
        (addr != f->buf_addr + f->buf_len || f->buf_len + size > BUFFER_BYTES) &&
        !buffer_out(f))
        return -1;
    if (size > BUFFER_BYTES) {
        if (!done(f, write_all(f->fd, buffer, size, addr)))
            return -1;
    } else {
        if (f->buf_len == 0)
            f->buf_addr = addr;
        memcpy(f->buf + f->buf_len, buffer, size);
        f->buf_len += size;
    }
    if (addr + size > f->eof)
        f->eof = addr + size;
    return 0;
}

static herr_t bf_flush(H5FD_t *file, hid_t dxpl, hbool_t closing)
{
    (void)dxpl;
    (void)closing;
    return buffer_out((buffered_file *)file) ? 0 : -1;
}

static herr_t bf_truncate(H5FD_t *file, hid_t dxpl, hbool_t closing)
{
    buffered_file *f = (buffered_file *)file;
    (void)dxpl;
    (void)closing;
    if (!buffer_out(f))
        return -1;
    if (f->eoa != f->eof) {
        if (!done(f, ftruncate(f->fd, (off_t)f->eoa) == 0))
            return -1;
        f->eof = f->eoa;
    }
    return 0;
}

/* The driver's class: sec2's behaviour, buffered writes. */
static const H5FD_class_t buffered_class = {
    .name = "om_buffered",
    .maxaddr = MAX_ADDR,
    .fc_degree = H5F_CLOSE_WEAK,
    .open = bf_open,
    .close = bf_close,
    .cmp = bf_cmp,
    .query = bf_query,
    .get_eoa = bf_get_eoa,
    .set_eoa = bf_set_eoa,
    .get_eof = bf_get_eof,
    .get_handle = bf_get_handle,
    .read = bf_read,
    .write = bf_write,
    .flush = bf_flush,
    .truncate = bf_truncate,
    .fl_map = H5FD_FLMAP_DICHOTOMY,
};

om_status om_h5_buffered_fapl(hid_t *fapl, hid_t *driver)
{
    char why[OM_H5_DETAIL_MAX];
    hid_t p;
    *fapl = H5I_INVALID_HID;
    om_h5_quiet();
    if ((*driver = H5FDregister(&buffered_class)) < 0)
        return OM_ERROR(OM_EHDF5, "cannot register the buffered file driver: %s",
                        om_h5_detail(why, sizeof why));
    p = H5Pcreate(H5P_FILE_ACCESS);
    /* Strong close degree: closing the file closes anything left open by an
     * abort. Files in the 1.10 format (V110): its chunk index of a dataset with
     * one unlimited dimension is an extensible array, cheaper to add chunks
     * to than the 1.8 format's B-tree (docs/performance.md, "How it is fast"), and its object
     * headers, which hold the attributes, carry checksums that the library
     * verifies when it reads them. (The library reads the registration's
     * class until the file is closed: unregistering it earlier crashes.) */
    if (p < 0 || H5Pset_fclose_degree(p, H5F_CLOSE_STRONG) < 0 ||
        H5Pset_libver_bounds(p, H5F_LIBVER_V110, H5F_LIBVER_V110) < 0 ||
        H5Pset_driver(p, *driver, NULL) < 0) {
        om_status st = OM_ERROR(OM_EHDF5, "cannot set the buffered file driver: %s",
                                om_h5_detail(why, sizeof why));
        om_h5_close_id(&p);
        om_h5_close_id(driver);
        return st;
    }
    *fapl = p;
    return OM_OK;
}

/* The driver's state of `file`, or NULL when it is not a file of this
 * driver. */
static buffered_file *buffered(hid_t file)
{
    void *handle = NULL;
    om_h5_quiet();
    if (H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) < 0 || handle == NULL ||
        ((H5FD_t *)handle)->cls == NULL || strcmp(((H5FD_t *)handle)->cls->name,
                                                  buffered_class.name) != 0)
        return NULL;
    return handle;
}

om_status om_h5_defer_raw(hid_t file, om_h5_deferred *into)
{
    char why[OM_H5_DETAIL_MAX];
    buffered_file *f = buffered(file);
    if (f == NULL)
        return OM_ERROR(OM_EHDF5, "not a file of the buffered driver: %s",
                        om_h5_detail(why, sizeof why));
    f->defer = into;
    return OM_OK;
}

void om_h5_buffered_writeback(hid_t file)
{
    buffered_file *f = buffered(file);
#if defined(SYNC_FILE_RANGE_WRITE)
    if (f != NULL && buffer_out(f)) {
        const haddr_t from = atomic_load(&f->written_from);
        (void)sync_file_range(f->fd, (off_t)from, 0, SYNC_FILE_RANGE_WRITE);
    }
#else
    (void)f;
#endif
}

int om_h5_buffered_errno(hid_t file)
{
    const buffered_file *f = buffered(file);
    return f != NULL ? f->failed_errno : 0;
}

void om_h5_buffered_closing(hid_t file, int *failed)
{
    buffered_file *f = buffered(file);
    *failed = f != NULL ? f->failed_errno : 0;
    if (f != NULL)
        f->closing = failed;
}

/* The unit of the page cache that writeback is started on (the pages of
 * x86-64 and most others; a larger page only makes the ranges a little
 * narrower than they could be). */
#define WRITEBACK_PAGE ((haddr_t)4096)

/* Bytes of the file whose writeback a thread starts at once: about 60
 * blocks of the default scenario. Each start costs the kernel a block
 * allocation and a journal handle (started block by block, the writeback
 * costs twice as much in all), and holds the thread for its length, and with
 * it the blocks it holds, which the other threads may be waiting to follow:
 * measured on 2 threads, 16 MB at a time held a thread 1.25 ms a start and
 * ran 4% slower than 4 MB (0.33 ms a start, the same total); the file's last
 * batch, left to the final fsync, is smaller too. */
#define WRITEBACK_BATCH ((haddr_t)4 << 20)

/* How far behind its own latest write a thread starts writeback: past the
 * blocks other threads may be writing at the time (a block of chunks is
 * tens of kilobytes), which are left for a later start or the end. */
#define WRITEBACK_LAG ((haddr_t)1 << 20)

/*
 * Start writing to the disk, without waiting, the pages of the file before
 * `end` (the end of a run of bytes just written) from the file's
 * written_from, once they are WRITEBACK_BATCH bytes, less the last
 * WRITEBACK_LAG: the thread that moves written_from on starts that range,
 * so each is started once. Left to the
 * end, the kernel allocates the disk blocks of the whole file and starts
 * their writeback at its close and fsync, on one thread (on ext4, about a
 * seventh of a run with rows); started here, by the threads that write the
 * blocks, it runs in parallel. Pages another thread has not yet written are
 * not written to the disk now but at the end, as a page written again.
 * Advisory: an error here is the final fsync's to report.
 */
static void start_writeback(om_h5_deferred *d, haddr_t end)
{
#if defined(SYNC_FILE_RANGE_WRITE)
    haddr_t from = atomic_load(d->written_from), to;
    if (end < from + WRITEBACK_BATCH + WRITEBACK_LAG)
        return;
    to = (end - WRITEBACK_LAG) / WRITEBACK_PAGE * WRITEBACK_PAGE;
    if (atomic_compare_exchange_strong(d->written_from, &from, to))
        (void)sync_file_range(d->fd, (off_t)from, (off_t)(to - from), SYNC_FILE_RANGE_WRITE);
#else
    (void)d;
    (void)end;
#endif
}

/* Writes sorted together, and pieces of memory written in one system call,
 * at most: the chunks of OM_H5_WRITE_OUT_LISTS blocks of the widest rows
 * (under the system's IOV_MAX, 1024 on Linux; POSIX promises only 16). */
#define WRITE_PIECES (OM_H5_WRITE_OUT_LISTS * OM_LAYOUT_FIELDS_MAX)
#if defined(IOV_MAX)
_Static_assert(WRITE_PIECES <= IOV_MAX, "a run of deferred writes exceeds IOV_MAX pieces");
#endif

om_status om_h5_deferred_write_out(om_h5_deferred *const *d, size_t n, const char *path)
{
    const om_h5_deferred_write *w[WRITE_PIECES];
    struct iovec iov[WRITE_PIECES];
    om_h5_deferred *any = NULL;
    size_t count = 0;
    /* The writes in the order of the file (sorted by insertion: a few
     * dozen), so that the chunks of a block put after another follow them
     * in one run (the library places small chunks apart, between them). */
    assert(n <= OM_H5_WRITE_OUT_LISTS);
    for (size_t l = 0; l < n; l++) {
        assert(d[l]->n <= OM_LAYOUT_FIELDS_MAX);
        for (size_t i = 0; i < d[l]->n; i++) {
            size_t k = count++;
            for (; k > 0 && w[k - 1]->addr > d[l]->w[i].addr; k--)
                w[k] = w[k - 1];
            w[k] = &d[l]->w[i];
        }
        if (d[l]->n > 0)
            any = d[l];
        d[l]->n = 0;
    }
    /* Each run of writes that follow one another in the file in one system
     * call, those that follow one another in memory too as one piece. */
    for (size_t i = 0; i < count;) {
        const haddr_t addr = w[i]->addr;
        haddr_t end = addr;
        int pieces = 0;
        /* Writes do not overlap (the order of the file is not the lists'). */
        assert(i == 0 || w[i]->size == 0 || addr >= w[i - 1]->addr + w[i - 1]->size);
        for (; i < count && w[i]->addr == end; end += w[i++]->size) {
            if (pieces > 0 &&
                (const uint8_t *)iov[pieces - 1].iov_base + iov[pieces - 1].iov_len == w[i]->data)
                iov[pieces - 1].iov_len += w[i]->size;
            else
                iov[pieces++] = (struct iovec){(void *)w[i]->data, w[i]->size};
        }
        if (!writev_all(any->fd, iov, pieces, addr))
            return OM_ERROR(OM_EIO, "%s: cannot write the file: %s", path, strerror(errno));
        start_writeback(any, end);
    }
    return OM_OK;
}
