/*
 * sha256.h: SHA-256 (FIPS 180-4), for the digest a result file keeps of the
 * run it records (its seed, scenario, options, program version and trials:
 * h5util.c, om_h5_provenance), so that a file edited or damaged after the run
 * began is told from the run itself. A plain streaming interface: init,
 * update with any pieces, final.
 */
#ifndef OM_SHA256_H
#define OM_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of a digest, and characters of its hexadecimal form with the NUL. */
#define OM_SHA256_BYTES 32
#define OM_SHA256_HEX (2 * OM_SHA256_BYTES + 1)

/* The state of a digest being computed. */
typedef struct om_sha256 {
    uint32_t h[8];       /* the hash so far */
    uint64_t length;     /* bytes taken in */
    uint8_t block[64];   /* the block being filled */
    size_t used;         /* bytes of it filled */
} om_sha256;

/* Start a digest. */
void om_sha256_init(om_sha256 *s);

/* Take in the n bytes at `data` (n may be 0). */
void om_sha256_update(om_sha256 *s, const void *data, size_t n);

/* The digest of every byte taken in, as 32 bytes at `out`; `s` is then spent. */
void om_sha256_final(om_sha256 *s, uint8_t out[OM_SHA256_BYTES]);

/* The digest of the n bytes at `data` in lowercase hexadecimal, at `hex`. */
void om_sha256_hex(const void *data, size_t n, char hex[OM_SHA256_HEX]);

#endif /* OM_SHA256_H */
