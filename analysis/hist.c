/* hist.c: log-bucketed histograms (see hist.h): adding and merging values,
 * ranks and quantiles, and the Mann-Whitney U test `timeline diff` shows
 * beside its test over runs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"

/* Bucket of V > 0: exponent slot and sub-bucket, or -1 for a zero. */
static inline __attribute__((always_inline)) int bucket(double v, int *sub)
{
	int e;
	double m = frexp(v, &e);     /* v = m * 2^e, m in [0.5, 1) */
	if (!(v > 0) || e <= HIST_EMIN)
		return -1;
	if (e >= HIST_EMAX) {
		*sub = HIST_SUB - 1;
		return HIST_EXPS - 1;
	}
	*sub = (int)((m - 0.5) * 2 * HIST_SUB);
	if (*sub >= HIST_SUB)
		*sub = HIST_SUB - 1;
	return e - HIST_EMIN - 1;
}

/* The value bucket (X, SUB) of H stands for: its midpoint, or the one whole
 * number it can hold when H has only whole numbers. */
static double midpoint(const struct hist *h, int x, int sub)
{
	double lo = ldexp(0.5 + sub / (2.0 * HIST_SUB), x + HIST_EMIN + 1);
	double hi = ldexp(0.5 + (sub + 1) / (2.0 * HIST_SUB), x + HIST_EMIN + 1);
	if (!h->fractions && hi - lo <= 1 && ceil(lo) < hi)
		return ceil(lo);
	return (lo + hi) / 2;
}

/* ---- exact sums: whole numbers of up to 384 bits ---------------------------- */

#define BIG 6
struct big {
	uint64_t w[BIG];             /* little-endian 64-bit limbs */
};

/* Adds the NV limbs V, shifted up by SHIFT limbs, to A (carries beyond the
 * top are lost: the callers' sums stay below 2^384). */
static void big_add(uint64_t *a, int na, const uint64_t *v, int nv, int shift)
{
	unsigned carry = 0;
	for (int i = shift; i < na; i++) {
		uint64_t x = i - shift < nv ? v[i - shift] : 0, s = a[i] + x;
		unsigned c = s < x;
		a[i] = s + carry;
		carry = c | (a[i] < s);
		if (i - shift >= nv && !carry)
			break;
	}
}

/* R = A * B, truncated to BIG limbs. */
static void big_mul(struct big *r, const struct big *a, const struct big *b)
{
	struct big t = { { 0 } };
	for (int i = 0; i < BIG; i++)
		for (int j = 0; a->w[i] && i + j < BIG; j++) {
			unsigned __int128 p = (unsigned __int128)a->w[i] * b->w[j];
			uint64_t limbs[2] = { (uint64_t)p, (uint64_t)(p >> 64) };
			big_add(t.w, BIG, limbs, 2, i + j);
		}
	*r = t;
}

/* A -= B; A must be at least B. */
static void big_sub(struct big *a, const struct big *b)
{
	unsigned borrow = 0;
	for (int i = 0; i < BIG; i++) {
		uint64_t d = a->w[i] - b->w[i];
		unsigned c = a->w[i] < b->w[i];
		a->w[i] = d - borrow;
		borrow = c | (d < borrow);
	}
}

static long double big_ld(const struct big *a)
{
	long double v = 0;
	for (int i = BIG - 1; i >= 0; i--)
		v = v * 0x1p64L + (long double)a->w[i];
	return v;
}

/* S += the 256-bit W (HI * 2^128 + LO), as two 128-bit additions. */
static void add256(uint64_t s[4], unsigned __int128 lo, unsigned __int128 hi)
{
	unsigned __int128 a = (unsigned __int128)s[1] << 64 | s[0];
	unsigned __int128 b = (unsigned __int128)s[3] << 64 | s[2];
	a += lo;
	b += hi + (a < lo);
	s[0] = (uint64_t)a, s[1] = (uint64_t)(a >> 64);
	s[2] = (uint64_t)b, s[3] = (uint64_t)(b >> 64);
}

/* Adds the 128-bit V to the 256-bit sum S. */
static void sum_add128(uint64_t s[4], unsigned __int128 v)
{
	add256(s, v, 0);
}

/* Adds Q^2 (Q below 2^85, as a fraction's is) to the 256-bit sum S: the
 * square of Q = h 2^64 + l is l^2 + 2 h l 2^64 + h^2 2^128, three products
 * (one per pair of cycles per packet: no loop over limbs). */
static void sum_add_square(uint64_t s[4], unsigned __int128 q)
{
	uint64_t l = (uint64_t)q, h = (uint64_t)(q >> 64);
	unsigned __int128 ll = (unsigned __int128)l * l, hl;
	if (!h) {   /* V below 2^32, as nearly every one is: one product */
		add256(s, ll, 0);
		return;
	}
	hl = (unsigned __int128)h * l * 2;
	unsigned __int128 lo = ll + ((unsigned __int128)(uint64_t)hl << 64);
	add256(s, lo, (hl >> 64) + (unsigned __int128)h * h + (lo < ll));
}

/* H's sums over every value on one scale, 2^-32: T1 = sum of v 2^32, T2 =
 * sum of v^2 2^64. */
static void totals(const struct hist *h, struct big *t1, struct big *t2)
{
	uint64_t s2[3] = { (uint64_t)h->s2, (uint64_t)(h->s2 >> 64), h->s2hi };
	memset(t1, 0, sizeof *t1);
	memset(t2, 0, sizeof *t2);
	t1->w[0] = (uint64_t)h->s1 << 32;   /* s1 2^32 */
	t1->w[1] = (uint64_t)(h->s1 >> 32);
	t1->w[2] = (uint64_t)(h->s1 >> 96);
	big_add(t1->w, BIG, h->f1, 4, 0);
	big_add(t2->w, BIG, s2, 3, 1);
	big_add(t2->w, BIG, h->f2, 4, 0);
}

/* Is A below B? */
static int big_less(const struct big *a, const struct big *b)
{
	for (int i = BIG - 1; i >= 0; i--)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i];
	return 0;
}

/* n T2 - T1^2 of H into *D: n times the sum of squared deviations, exact;
 * -1 if it would be negative (sums no set of values has). */
static int spread(const struct hist *h, struct big *d, struct big *t1)
{
	struct big t2, n = { { h->n } }, sq;
	totals(h, t1, &t2);
	big_mul(d, &n, &t2);
	big_mul(&sq, t1, t1);
	if (big_less(d, &sq))
		return -1;
	big_sub(d, &sq);
	return 0;
}

int hist_sums_sound(const struct hist *h)
{
	struct big d, t1;
	if (h->n == 0)
		return !h->s1 && !h->s2 && !h->s2hi && !memcmp(h->f1, (uint64_t[4]){ 0 }, 32) &&
		       !memcmp(h->f2, (uint64_t[4]){ 0 }, 32);
	return spread(h, &d, &t1) == 0;
}

/* The mean and the sum of squared deviations of H's values, from its exact
 * sums: the same whatever order they were added or merged in. */
static void moments(const struct hist *h, double *mean, double *m2)
{
	struct big d, t1;
	*mean = *m2 = 0;
	if (!h->n)
		return;
	if (spread(h, &d, &t1) < 0)
		memset(&d, 0, sizeof d);
	*mean = (double)(big_ld(&t1) / (long double)h->n * 0x1p-32L);
	*m2 = (double)(big_ld(&d) / (long double)h->n * 0x1p-64L);
}

/* Counts V in its bucket, min, max and n; the sums are the caller's. */
static inline __attribute__((always_inline)) int count(struct hist *h, double v)
{
	int sub, x = bucket(v, &sub);
	if (x < 0) {
		h->zeros++;
	} else {
		if (!h->block[x] && hist_new_block(h, x) < 0)
			return -1;
		h->block[x][sub]++;
	}
	if (h->n == 0 || v < h->min)
		h->min = v;
	if (h->n == 0 || v > h->max)
		h->max = v;
	h->n++;
	return 0;
}

int hist_add_whole_slow(struct hist *h, uint64_t v, double d)
{
	unsigned __int128 sq = (unsigned __int128)v * v, s2 = h->s2 + sq;
	if (count(h, d) < 0)
		return -1;
	h->s1 += v;
	h->s2hi += s2 < sq;
	h->s2 = s2;
	return 0;
}

int hist_add(struct hist *h, double v)
{
	unsigned __int128 q;
	if (!(v > 0))
		v = 0;
	if (v >= 0x1p63)   /* whole: 2^53 and above always are */
		return hist_add_whole_slow(h, v < 0x1p64 ? (uint64_t)v : UINT64_MAX, v);
	if ((double)(uint64_t)v == v)   /* whole, tested without a call to floor() */
		return hist_add_whole(h, (uint64_t)v);
	if (count(h, v) < 0)
		return -1;
	h->fractions = 1;
	{
		/* q = V 2^32 rounded half up, below 2^85 (V is below 2^53); from
		 * 2^53 on, V 2^32 is a whole number already */
		double x = v * 0x1p32, hi;
		if (x < 0x1p63) {
			q = (uint64_t)(x + 0.5);
		} else {
			hi = floor(x * 0x1p-64);   /* its two 64-bit halves, each exact */
			q = (unsigned __int128)(uint64_t)hi << 64 | (uint64_t)(x - hi * 0x1p64);
		}
	}
	sum_add128(h->f1, q);
	sum_add_square(h->f2, q);
	return 0;
}

int hist_new_block(struct hist *h, int x)
{
	return (h->block[x] = calloc(HIST_SUB, sizeof *h->block[x])) ? 0 : -1;
}

double hist_sum(const struct hist *h)
{
	struct big t1, t2;
	totals(h, &t1, &t2);
	return (double)(big_ld(&t1) * 0x1p-32L);
}

double hist_mean(const struct hist *h)
{
	double mean, m2;
	moments(h, &mean, &m2);
	return mean;
}

int hist_merge(struct hist *into, const struct hist *from)
{
	if (from->n == 0)
		return 0;
	for (int x = 0; x < HIST_EXPS; x++) {
		if (!from->block[x])
			continue;
		if (!into->block[x] && hist_new_block(into, x) < 0)
			return -1;
		for (int s = 0; s < HIST_SUB; s++)
			into->block[x][s] += from->block[x][s];
	}
	hist_merge_sums(into, from);
	return 0;
}

void hist_merge_sums(struct hist *into, const struct hist *from)
{
	unsigned __int128 s2 = into->s2 + from->s2;
	if (from->n == 0)
		return;
	into->zeros += from->zeros;
	into->fractions |= from->fractions;
	if (into->n == 0 || from->min < into->min)
		into->min = from->min;
	if (into->n == 0 || from->max > into->max)
		into->max = from->max;
	into->n += from->n;
	into->s1 += from->s1;
	into->s2hi += from->s2hi + (s2 < from->s2);
	into->s2 = s2;
	big_add(into->f1, 4, from->f1, 4, 0);
	big_add(into->f2, 4, from->f2, 4, 0);
}

void hist_free(struct hist *h)
{
	for (int x = 0; x < HIST_EXPS; x++)
		free(h->block[x]);
	memset(h, 0, sizeof *h);
}

static double clamp(const struct hist *h, double v)
{
	return v < h->min ? h->min : v > h->max ? h->max : v;
}

double hist_rank(const struct hist *h, uint64_t k)
{
	uint64_t seen = h->zeros;
	if (h->n == 0)
		return 0;
	if (k <= 1)
		return h->min;
	if (k >= h->n)
		return h->max;
	if (k <= seen)
		return 0;
	for (int x = 0; x < HIST_EXPS; x++) {
		if (!h->block[x])
			continue;
		for (int s = 0; s < HIST_SUB; s++) {
			seen += h->block[x][s];
			if (seen >= k)
				return clamp(h, midpoint(h, x, s));
		}
	}
	return h->max;
}

double hist_quantile(const struct hist *h, double q)
{
	double r = ceil(q * (double)h->n);
	return hist_rank(h, r < 1 ? 1 : (uint64_t)r);
}

double hist_stddev(const struct hist *h)
{
	double mean, m2;
	if (h->n < 2)
		return 0;
	moments(h, &mean, &m2);
	return sqrt(m2 / (double)(h->n - 1));
}

/* Count of bucket I in the order zeros, then every (x, s); for merging
 * two histograms bucket by bucket. */
static uint64_t count_at(const struct hist *h, int i)
{
	int x, s;
	if (i == 0)
		return h->zeros;
	x = (i - 1) / HIST_SUB;
	s = (i - 1) % HIST_SUB;
	return h->block[x] ? h->block[x][s] : 0;
}

double hist_mwu_p(const struct hist *a, const struct hist *b)
{
	double na = (double)a->n, nb = (double)b->n, N = na + nb;
	double u = 0, below_b = 0, ties = 0, mean, var, z;
	if (a->n == 0 || b->n == 0)
		return 1;
	for (int i = 0; i < 1 + HIST_EXPS * HIST_SUB; i++) {
		double ca, cb, t;
		if (i > 0 && !a->block[(i - 1) / HIST_SUB] && !b->block[(i - 1) / HIST_SUB]) {
			i += HIST_SUB - 1;   /* a whole empty exponent */
			continue;
		}
		ca = (double)count_at(a, i);
		cb = (double)count_at(b, i);
		/* U counts pairs (x in A, y in B) with x > y, and half the ties */
		u += ca * below_b + 0.5 * ca * cb;
		below_b += cb;
		t = ca + cb;
		ties += t * t * t - t;
	}
	mean = na * nb / 2;
	var = na * nb / 12 * ((N + 1) - ties / (N * (N - 1)));
	if (!(var > 0))
		return 1;   /* every value tied */
	z = (fabs(u - mean) - 0.5) / sqrt(var);   /* with the continuity correction */
	if (z < 0)
		z = 0;
	return erfc(z / sqrt(2));
}
