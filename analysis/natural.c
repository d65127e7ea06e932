/* natural.c: labels in natural order, numbers in them by value (see
 * natural.h). */
#include <string.h>
#include "natural.h"

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Compares the digit runs at *A and *B by value (leading zeros aside)
 * and moves both past them. */
static int cmp_run(const char **a, const char **b)
{
	const char *x = *a, *y = *b;
	size_t nx, ny;
	while (*x == '0')
		x++;
	while (*y == '0')
		y++;
	for (nx = 0; digit(x[nx]); nx++)
		;
	for (ny = 0; digit(y[ny]); ny++)
		;
	*a = x + nx;
	*b = y + ny;
	if (nx != ny)   /* more significant digits: larger */
		return nx < ny ? -1 : 1;
	return memcmp(x, y, nx);
}

int natural_cmp(const char *a, const char *b)
{
	const char *x = a, *y = b;
	while (*x || *y) {
		int c;
		if (digit(*x) && digit(*y)) {
			if ((c = cmp_run(&x, &y)))
				return c;
		} else if (*x != *y) {
			return (unsigned char)*x < (unsigned char)*y ? -1 : 1;
		} else {
			x++;
			y++;
		}
	}
	return strcmp(a, b);
}

int natural_cmp_ptr(const void *x, const void *y)
{
	return natural_cmp(*(char *const *)x, *(char *const *)y);
}
