/* xalloc.h: allocation that aborts when memory runs out (xalloc.c): the
 * engine's rule, and that of the commands that build on it (report, top).
 * A table computed without the memory it needs would be wrong, not
 * smaller; the library itself never aborts (timeline(3)). */
#ifndef TL_XALLOC_H
#define TL_XALLOC_H
#include <stddef.h>

/* calloc(N, SIZE), and a valid pointer for N 0; aborts out of memory. */
void *xcalloc(size_t n, size_t size);

/* strdup(S), "" for S NULL; aborts out of memory. */
char *xstrdup(const char *s);

/* A copy of the N bytes at P (a valid pointer for N 0); aborts out of memory. */
void *xmemdup(const void *p, size_t n);
#endif
