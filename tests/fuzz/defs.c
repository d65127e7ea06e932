/* defs.c: fuzzes the parser of one interned definition (what a reader
 * meets in a string table): "LEVEL,RATE|cat.name attrs: args\ndescription". */
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "timeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	tl_def d;
	tl_error err;
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (tl_def_parse(s, size, &d, &err) == TL_OK) {
		/* every span it returns lies inside the input */
		if (d.name < s || d.name + d.name_len > s + size)
			abort();
		for (unsigned i = 0; i < d.nargs; i++)
			if (d.args[i] < s || d.args[i] + d.args_len[i] > s + size)
				abort();
	}
	free(s);
	return 0;
}
