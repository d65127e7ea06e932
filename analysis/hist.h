/* hist.h: log-bucketed histograms of non-negative values (cycles, cycles per
 * packet) with a bounded relative error, and the statistics built on them:
 * percentiles, mean and deviation, and the Mann-Whitney U test of two
 * samples. */
#ifndef TL_HIST_H
#define TL_HIST_H
#include <stdint.h>

/* Each power of two is split into HIST_SUB buckets of equal width, so a
 * bucket spans at most 1/HIST_SUB of its lower bound. Values are reported as
 * the bucket's midpoint (clamped to the exact min and max): within
 * 1/(2 HIST_SUB) = 0.39% of the true value. When every value is a whole
 * number and a bucket is at most 1 wide (values below 256), it holds one
 * whole number, which is reported exactly. */
#define HIST_SUB 128
#define HIST_EMIN (-32)              /* smallest exponent kept: 2^-33 */
#define HIST_EMAX 72                 /* values at or above 2^71 share the top bucket */
#define HIST_EXPS (HIST_EMAX - HIST_EMIN)

/* Exact sums of values and of their squares, so that merging histograms in
 * any order gives the same mean and deviation to the last bit (summaries,
 * timeline-summary(5), are merged so). Whole numbers below 2^64 are summed
 * as they are; a value that is not whole as the nearest whole number of
 * 2^-32, halves up (an error of at most 2^-33 each, far inside the
 * buckets' 0.39%);
 * values at or above 2^64 count as 2^64 - 1. */
struct hist {
	uint64_t n;                  /* values added */
	uint64_t zeros;              /* values below 2^-33, counted as 0 */
	double min, max;             /* exact */
	unsigned __int128 s1;        /* sum of the whole values v */
	unsigned __int128 s2;        /* sum of v^2: bits 0-127 ... */
	uint64_t s2hi;               /* ... and 128-191 */
	uint64_t f1[4];              /* sum of q = v * 2^32 of the other values, 256 bits */
	uint64_t f2[4];              /* sum of q^2, 256 bits (little-endian 64-bit limbs) */
	int fractions;               /* a value added was not a whole number */
	uint64_t *block[HIST_EXPS];  /* HIST_SUB counts per exponent, made on first use */
};

/* Adds V (negative values count as 0). Returns -1 out of memory, else 0. */
int hist_add(struct hist *h, double v);

/* Makes block X of H; -1 out of memory. For hist_add_whole(). */
int hist_new_block(struct hist *h, int x);

/* hist_add_whole() for V at or above 2^63, and hist_add() for whole values
 * (the bucket of D, the sums of V). */
int hist_add_whole_slow(struct hist *h, uint64_t v, double d);

/* Adds the whole number V, as hist_add() would, in a few instructions: no
 * floating point, no division, no call (a stats pass adds one per entry).
 * Returns -1 out of memory, else 0. */
static inline int hist_add_whole(struct hist *h, uint64_t v)
{
	unsigned __int128 sq, s2;
	if ((int64_t)v < 0)          /* V converts to a double in one instruction below */
		return hist_add_whole_slow(h, v, (double)v);
	if (v == 0) {
		h->zeros++;
	} else {
		/* V in [2^(e-1), 2^e): bucket (e - HIST_EMIN - 1, (V - 2^(e-1)) 2^(8-e)) */
		int e = 64 - __builtin_clzll(v), x = e - HIST_EMIN - 1;
		uint64_t off = v - (1ull << (e - 1));
		int sub = (int)(e <= 8 ? off << (8 - e) : off >> (e - 8));
		_Static_assert(HIST_SUB == 128, "2 HIST_SUB = 2^8 above");
		if (!h->block[x] && hist_new_block(h, x) < 0)
			return -1;
		h->block[x][sub]++;
	}
	if (h->n == 0 || (double)(int64_t)v < h->min)
		h->min = (double)(int64_t)v;
	if (h->n == 0 || (double)(int64_t)v > h->max)
		h->max = (double)(int64_t)v;
	h->n++;
	h->s1 += v;
	sq = (unsigned __int128)v * v;
	s2 = h->s2 + sq;
	h->s2hi += s2 < sq;
	h->s2 = s2;
	return 0;
}

/* The sum of the values added (from the exact sums, rounded once). */
double hist_sum(const struct hist *h);

/* The mean of the values added. */
double hist_mean(const struct hist *h);

/* Adds every value of FROM to INTO. Returns -1 out of memory, else 0. */
int hist_merge(struct hist *into, const struct hist *from);

/* Adds everything of FROM but its bucket counts to INTO: n, zeros, min,
 * max and the sums (a summary's reader adds the counts itself). */
void hist_merge_sums(struct hist *into, const struct hist *from);

/* Could H's sums be those of H->n real values (n sum v^2 >= (sum v)^2, and
 * all zero for none)? For readers of summaries. */
int hist_sums_sound(const struct hist *h);

void hist_free(struct hist *h);

/* The value of rank K (1 = smallest, N = largest), to within 0.39%. */
double hist_rank(const struct hist *h, uint64_t k);

/* The nearest-rank quantile Q in [0, 1]: rank ceil(Q * n), at least 1.
 * Returns 0 for an empty histogram. */
double hist_quantile(const struct hist *h, double q);

/* Sample standard deviation (0 below two values). */
double hist_stddev(const struct hist *h);

/* Two-sided Mann-Whitney U test of A against B, by the normal approximation
 * with the tie correction; values in one bucket count as ties. Returns the
 * p-value (1 when either side is empty). */
double hist_mwu_p(const struct hist *a, const struct hist *b);
#endif
