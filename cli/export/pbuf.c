/* pbuf.c: the slow path of pbuf.h's nested messages: a body of 128 bytes or
 * more, whose length needs more than the one byte left for it. */
#include "pbuf.h"

uint8_t *pb_close_long(uint8_t *mark, uint8_t *end)
{
	size_t n = (size_t)(end - mark - 1), len = 1;
	uint8_t *p;
	for (size_t v = n >> 7; v; v >>= 7)
		len++;
	/* the body moves up by the bytes the length takes beyond its one */
	memmove(mark + len, mark + 1, n);
	p = pb_varint(mark, n);
	return p + n;
}
