/* bins.c: time series cut into equal bins with exact percentiles per bin
 * (see bins.h): a counting sort by bin, then each bin's values sorted. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bins.h"

const double bin_levels[BIN_NQ] = { 0.05, 0.25, 0.5, 0.75, 0.95 };

/* Sorts the N values V in place: quicksort on the median of three, an
 * insertion sort below 16 (a bin holds tens of values; qsort's calls
 * through a pointer cost more than the comparisons). */
static void sort_values(double *v, size_t n)
{
	while (n > 16) {
		double a = v[0], b = v[n / 2], c = v[n - 1], pivot;
		size_t i = 0, j = n - 1;
		pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
		for (;;) {   /* Hoare's partition */
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i >= j)
				break;
			double t = v[i];
			v[i++] = v[j];
			v[j--] = t;
		}
		/* recurse into the smaller side, loop on the larger */
		if (j + 1 < n - j - 1) {
			sort_values(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			sort_values(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++) {
		double x = v[i];
		size_t k = i;
		for (; k > 0 && v[k - 1] > x; k--)
			v[k] = v[k - 1];
		v[k] = x;
	}
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
		sort_values(v + lo, m);
		percentiles(v + lo, m, &out[b]);
	}
	free(start);
	free(v);
	return 0;
}
