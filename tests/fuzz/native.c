/* native.c: fuzzes the reader on our format: the input follows our magic,
 * so every mutation lands in the header, the ring or the string table. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_read(fuzz_native_magic, data, size);
}
