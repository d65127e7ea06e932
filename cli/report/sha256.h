/* sha256.h: SHA-256 (FIPS 180-4) of a buffer, for the hashes a report's
 * Content-Security-Policy gives its inline script and style. */
#ifndef TL_SHA256_H
#define TL_SHA256_H
#include <stddef.h>
#include <stdint.h>

/* The SHA-256 digest of the LEN bytes at P into OUT. */
void sha256(const void *p, size_t len, uint8_t out[32]);

/* The same as a CSP source, 'sha256-BASE64', into BUF (at least 56 bytes). */
void sha256_csp(const char *s, char *buf, size_t size);
#endif
