/* snabb.c: fuzzes the reader on Snabb's format (v2 and v3): the input
 * follows Snabb's magic: version, sizes, doubles, string table. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_read(fuzz_snabb_magic, data, size);
}
