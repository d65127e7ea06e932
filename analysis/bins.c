/* bins.c: time series cut into equal bins with exact percentiles per bin
 * (see bins.h): a counting sort by bin, then each bin's values sorted. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bins.h"

const double bin_levels[BIN_NQ] = { 0.05, 0.25, 0.5, 0.75, 0.95 };

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

/* The percentiles of the N sorted values V into B. */
static void percentiles(const double *v, size_t n, struct bin *b)
{
	b->n = n;
	for (int k = 0; k < BIN_NQ; k++) {
		size_t rank = (size_t)ceil(bin_levels[k] * (double)n);
		b->q[k] = n ? v[(rank ? rank : 1) - 1] : NAN;
	}
}

int bins_make(const struct bin_sample *s, size_t n, uint64_t t0, uint64_t span, size_t nbins,
	      struct bin *out)
{
	size_t *start = calloc(nbins + 1, sizeof *start);
	double *v = malloc((n ? n : 1) * sizeof *v);
	if (!start || !v) {
		free(start);
		free(v);
		return -1;
	}
	/* counting sort of the values by bin: start[i] is where bin i begins */
	for (size_t i = 0; i < n; i++)
		start[bin_index(s[i].t, t0, span, nbins) + 1]++;
	for (size_t b = 0; b < nbins; b++)
		start[b + 1] += start[b];
	for (size_t i = 0; i < n; i++)
		v[start[bin_index(s[i].t, t0, span, nbins)]++] = s[i].v;
	/* each start[b] moved to the end of bin b: bin b is [start[b-1], start[b]) */
	for (size_t b = 0; b < nbins; b++) {
		size_t lo = b ? start[b - 1] : 0, m = start[b] - lo;
		qsort(v + lo, m, sizeof *v, by_value);
		percentiles(v + lo, m, &out[b]);
	}
	free(start);
	free(v);
	return 0;
}
