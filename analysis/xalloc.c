/* xalloc.c: allocation that aborts when memory runs out (see xalloc.h). */
#include <stdlib.h>
#include <string.h>
#include "xalloc.h"

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p)
		abort();
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");
	if (!d)
		abort();
	return d;
}

void *xmemdup(const void *p, size_t n)
{
	void *d = xcalloc(1, n);
	if (n)
		memcpy(d, p, n);
	return d;
}
