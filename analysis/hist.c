/* hist.c: log-bucketed histograms (see hist.h): adding and merging values,
 * ranks and quantiles, and the two-sample statistics of `timeline diff`. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"

/* Bucket of V > 0: exponent slot and sub-bucket, or -1 for a zero. */
static int bucket(double v, int *sub)
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

static void stats_add(struct hist *h, double v, uint64_t count)
{
	/* Chan et al.'s pairwise update: COUNT values equal to V */
	double n = (double)(h->n - h->wk), c = (double)count, d = v - h->mean;
	if (h->n == 0 || v < h->min)
		h->min = v;
	if (h->n == 0 || v > h->max)
		h->max = v;
	h->n += count;
	h->mean += d * c / (n + c);
	h->m2 += d * d * n * c / (n + c);
}

int hist_add(struct hist *h, double v)
{
	int sub, x;
	if (!(v > 0))
		v = 0;
	if (v != floor(v))
		h->fractions = 1;
	x = bucket(v, &sub);
	if (x < 0) {
		h->zeros++;
	} else {
		if (!h->block[x] && !(h->block[x] = calloc(HIST_SUB, sizeof *h->block[x])))
			return -1;
		h->block[x][sub]++;
	}
	stats_add(h, v, 1);
	return 0;
}

int hist_new_block(struct hist *h, int x)
{
	return (h->block[x] = calloc(HIST_SUB, sizeof *h->block[x])) ? 0 : -1;
}

/* The mean and sum of squares of every value of H, hist_add_whole()'s ones
 * folded in (Chan et al.'s pairwise combination). */
static void moments(const struct hist *h, double *mean, double *m2)
{
	double n1 = (double)(h->n - h->wk), n2 = (double)h->wk, mw, d;
	long double q, m2w;
	*mean = h->mean;
	*m2 = h->m2;
	if (!h->wk)
		return;
	q = (long double)h->ws1 / n2;                         /* mean of v - wref */
	mw = (double)((long double)h->wref + q);
	m2w = (long double)h->ws2 - (long double)h->ws1 * q;  /* sum (d - q)^2 */
	if (n1 == 0) {
		*mean = mw;
		*m2 = (double)m2w;
		return;
	}
	d = mw - h->mean;
	*mean = h->mean + d * n2 / (n1 + n2);
	*m2 = h->m2 + (double)m2w + d * d * n1 * n2 / (n1 + n2);
}

/* Folds H's pending hist_add_whole() values into its mean and m2. */
static void settle(struct hist *h)
{
	double mean, m2;
	moments(h, &mean, &m2);
	h->mean = mean;
	h->m2 = m2;
	h->wk = 0;
	h->ws1 = 0;
	h->ws2 = 0;
}

double hist_mean(const struct hist *h)
{
	double mean, m2;
	moments(h, &mean, &m2);
	return mean;
}

int hist_merge(struct hist *into, const struct hist *from)
{
	double n, c, d, fmean, fm2;
	if (from->n == 0)
		return 0;
	settle(into);
	moments(from, &fmean, &fm2);
	for (int x = 0; x < HIST_EXPS; x++) {
		if (!from->block[x])
			continue;
		if (!into->block[x] && !(into->block[x] = calloc(HIST_SUB, sizeof *into->block[x])))
			return -1;
		for (int s = 0; s < HIST_SUB; s++)
			into->block[x][s] += from->block[x][s];
	}
	into->zeros += from->zeros;
	into->fractions |= from->fractions;
	if (into->n == 0 || from->min < into->min)
		into->min = from->min;
	if (into->n == 0 || from->max > into->max)
		into->max = from->max;
	n = (double)into->n;
	c = (double)from->n;
	d = fmean - into->mean;
	into->mean += d * c / (n + c);
	into->m2 += fm2 + d * d * n * c / (n + c);
	into->n += from->n;
	return 0;
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
	return sqrt((m2 > 0 ? m2 : 0) / (double)(h->n - 1));
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

/* The 95% interval of H's median on the log scale: its standard error. */
static int log_median_se(const struct hist *h, double *m, double *se)
{
	double n = (double)h->n, half = 1.959964 * sqrt(n) / 2;
	double lo = floor(n / 2 - half), hi = ceil(n / 2 + half + 1);
	double vlo, vhi;
	*m = hist_quantile(h, 0.5);
	vlo = hist_rank(h, lo < 1 ? 1 : (uint64_t)lo);
	vhi = hist_rank(h, hi > n ? h->n : (uint64_t)hi);
	if (!(*m > 0) || !(vlo > 0))
		return -1;
	*se = (log(vhi) - log(vlo)) / (2 * 1.959964);
	return 0;
}

int hist_change_ci(const struct hist *a, const struct hist *b, double *lo, double *hi)
{
	double ma, mb, sa, sb, d, s;
	if (a->n == 0 || b->n == 0 || log_median_se(a, &ma, &sa) || log_median_se(b, &mb, &sb))
		return -1;
	d = log(mb / ma);
	s = 1.959964 * sqrt(sa * sa + sb * sb);
	*lo = exp(d - s) - 1;
	*hi = exp(d + s) - 1;
	return 0;
}
