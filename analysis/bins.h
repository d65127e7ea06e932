/* bins.h: a time series of (time, value) samples cut into equal time bins,
 * each bin keeping its count and the exact nearest-rank percentiles of its
 * values (5, 25, 50, 75, 95): how `timeline report` draws millions of
 * breaths as about a thousand points per series, without sampling. */
#ifndef TL_BINS_H
#define TL_BINS_H
#include <stddef.h>
#include <stdint.h>

/* One sample: a timestamp (ticks) and a value. */
struct bin_sample {
	uint64_t t;
	double v;
};

/* The percentiles a bin keeps, in order. */
#define BIN_NQ 5
extern const double bin_levels[BIN_NQ];   /* 0.05, 0.25, 0.5, 0.75, 0.95 */

/* One bin: how many samples fell in it, and their percentiles. */
struct bin {
	uint64_t n;                  /* samples in the bin; 0: q[] are NaN */
	double q[BIN_NQ];            /* the nearest-rank value of rank ceil(level * n),
				      * at least 1, of the bin's values sorted */
};

/* The bin of time T among NBINS equal bins of [T0, T0 + SPAN): the integer
 * part of (T - T0) * NBINS / SPAN. T must be in that range, SPAN > 0. */
static inline size_t bin_index(uint64_t t, uint64_t t0, uint64_t span, size_t nbins)
{
	uint64_t d = t - t0;
	if (d < UINT64_MAX / nbins)   /* the product fits: one 64-bit division */
		return (size_t)(d * nbins / span);
	return (size_t)((unsigned __int128)d * nbins / span);
}

/* Cuts the N samples S (their times in [T0, T0 + SPAN)) into NBINS bins,
 * written to OUT. Returns -1 out of memory, else 0. */
int bins_make(const struct bin_sample *s, size_t n, uint64_t t0, uint64_t span, size_t nbins,
	      struct bin *out);
#endif
