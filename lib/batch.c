/* batch.c: tl_reader_read, a snapshot's entries moved into the caller's
 * array in one call: for bindings (Python's timeline package) that must
 * not pay a foreign call per entry. */
#include "timeline.h"

size_t tl_reader_read(tl_reader *r, tl_entry *buf, size_t n)
{
	size_t k = 0;
	while (k < n && tl_reader_next(r, &buf[k]))
		k++;
	return k;
}
