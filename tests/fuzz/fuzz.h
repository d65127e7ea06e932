/* fuzz.h: what the libFuzzer harnesses share: the entry point they define,
 * and writing the input to an unlinked file the readers can open. */
#ifndef TL_FUZZ_H
#define TL_FUZZ_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A file descriptor of an anonymous file holding MAGIC's 8 bytes (if not
 * NULL) then DATA, at offset 0; -1 on failure. The caller closes it. */
int fuzz_memfd(const uint8_t *magic, const uint8_t *data, size_t size);

/* Opens MAGIC + DATA as a log and runs the reader's whole API over it:
 * info, every entry of the snapshot, strings, definitions, a copy. */
int fuzz_read(const uint8_t *magic, const uint8_t *data, size_t size);

/* The first 8 bytes of our logs and of Snabb's (little-endian). */
extern const uint8_t fuzz_native_magic[8], fuzz_snabb_magic[8];
#endif
