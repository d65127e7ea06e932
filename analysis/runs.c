/* runs.c: tests over runs (see runs.h): the exact permutation distribution
 * of the Mann-Whitney rank sum by counting subsets, the Hodges-Lehmann
 * change and its interval from the same distribution. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "runs.h"

/* One value and the side it came from, for ranking. */
struct item {
	double v;
	int a;
};

static int by_value(const void *x, const void *y)
{
	double p = ((const struct item *)x)->v, q = ((const struct item *)y)->v;
	return (p > q) - (p < q);
}

/* The null distribution of the sum of K scores drawn without replacement
 * from the N integer SCORES: a new array of probabilities indexed by sum,
 * of *MAX + 1 entries. NULL when out of memory. */
static double *sum_distribution(const int *scores, size_t n, size_t k, int *max)
{
	int top = 0;
	double *ways, *p, total = 0;
	for (size_t i = 0; i < n; i++)
		top += scores[i];
	*max = top;
	/* ways[j * (top + 1) + s]: subsets of j of the scores so far summing to s */
	if (!(ways = calloc((k + 1) * (size_t)(top + 1), sizeof *ways)))
		return NULL;
	ways[0] = 1;
	for (size_t i = 0; i < n; i++)
		for (size_t j = (i + 1 < k ? i + 1 : k); j >= 1; j--)
			for (int s = top; s >= scores[i]; s--)
				ways[j * (size_t)(top + 1) + (size_t)s] +=
					ways[(j - 1) * (size_t)(top + 1) + (size_t)(s - scores[i])];
	if (!(p = malloc((size_t)(top + 1) * sizeof *p))) {
		free(ways);
		return NULL;
	}
	memcpy(p, ways + k * (size_t)(top + 1), (size_t)(top + 1) * sizeof *p);
	free(ways);
	for (int s = 0; s <= top; s++)
		total += p[s];
	for (int s = 0; s <= top; s++)
		p[s] /= total;
	return p;
}

/* Ranks A and B together: twice each mid-rank (an integer) into SCORES in
 * sorted order, *W the sum of A's, *TIES the sum of t^3 - t over tie groups. */
static struct item *rank(const double *a, size_t na, const double *b, size_t nb, int *scores,
			 long *w, double *ties)
{
	size_t n = na + nb;
	struct item *it = malloc(n * sizeof *it);
	if (!it)
		return NULL;
	for (size_t i = 0; i < n; i++)
		it[i] = (struct item){ i < na ? a[i] : b[i - na], i < na };
	qsort(it, n, sizeof *it, by_value);
	*w = 0;
	*ties = 0;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && it[j].v == it[i].v; j++)
			;
		for (size_t k = i; k < j; k++) {
			scores[k] = (int)(i + 1 + j);   /* 2 * the mid-rank of ranks i+1..j */
			*w += it[k].a ? scores[k] : 0;
		}
		*ties += pow((double)(j - i), 3) - (double)(j - i);
	}
	return it;
}

/* The normal approximation with tie and continuity corrections. */
static double normal_p(long w2, size_t na, size_t nb, double ties)
{
	double n = (double)(na + nb), u = w2 / 2.0 - na * (na + 1.0) / 2;
	double mu = na * (double)nb / 2;
	double var = na * (double)nb / 12 * ((n + 1) - ties / (n * (n - 1)));
	double z;
	if (var <= 0)
		return 1;
	z = (fabs(u - mu) - 0.5) / sqrt(var);
	return z <= 0 ? 1 : erfc(z / sqrt(2));
}

double runs_mwu_p(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb;
	int *scores, top;
	long w;
	double ties, *dist, p = 0, mean, obs;
	struct item *it;
	if (!na || !nb)
		return 1;
	if (!(scores = malloc(n * sizeof *scores)) ||
	    !(it = rank(a, na, b, nb, scores, &w, &ties))) {
		free(scores);
		return 1;
	}
	free(it);
	if (n > RUNS_EXACT_MAX || !(dist = sum_distribution(scores, n, na, &top))) {
		free(scores);
		return normal_p(w, na, nb, ties);
	}
	mean = (double)na * (double)(n + 1);   /* of the doubled rank sum */
	obs = fabs((double)w - mean);
	for (int s = 0; s <= top; s++)
		if (fabs(s - mean) >= obs - 1e-9)
			p += dist[s];
	free(dist);
	free(scores);
	return p > 1 - 1e-12 ? 1 : p;   /* a sum of the whole distribution is 1, not 1 - ulp */
}

double runs_min_p(size_t na, size_t nb)
{
	double c = 1;   /* C(na + nb, na), as a double */
	for (size_t i = 1; i <= na; i++)
		c = c * (double)(nb + i) / (double)i;
	return 2 / c > 1 ? 1 : 2 / c;
}

size_t runs_needed(double alpha)
{
	size_t k = 1;
	while (k < 1000 && !(runs_min_p(k, k) < alpha))
		k++;
	return k;
}

static int by_double(const void *x, const void *y)
{
	double p = *(const double *)x, q = *(const double *)y;
	return (p > q) - (p < q);
}

/* The lower critical count of U at ALPHA / 2: the largest C with
 * P(U <= C - 1) <= ALPHA / 2 for NA and NB untied runs (0: none). */
static long critical(size_t na, size_t nb, double alpha)
{
	size_t n = na + nb;
	int *scores = malloc(n * sizeof *scores), top;
	double *dist, cum = 0;
	long c = 0, base = (long)(na * (na + 1));   /* doubled: W = U + na(na+1)/2 */
	if (!scores)
		return 0;
	for (size_t i = 0; i < n; i++)
		scores[i] = 2 * (int)(i + 1);
	dist = sum_distribution(scores, n, na, &top);
	free(scores);
	if (!dist)
		return 0;
	for (long u = 0; 2 * u + base <= top; u++) {
		cum += dist[2 * u + base];
		if (cum > alpha / 2 + 1e-12)
			break;
		c = u + 1;
	}
	free(dist);
	return c;
}

/* critical() by the normal approximation, for many runs. */
static long critical_normal(size_t na, size_t nb, double alpha)
{
	double lo = 0, hi = 40, mu = na * (double)nb / 2;
	double sd = sqrt(na * (double)nb * (double)(na + nb + 1) / 12);
	for (int i = 0; i < 100; i++) {   /* z with erfc(z / sqrt 2) = alpha */
		double z = (lo + hi) / 2;
		if (erfc(z / sqrt(2)) > alpha)
			lo = z;
		else
			hi = z;
	}
	return mu - lo * sd < 0 ? 0 : (long)floor(mu - lo * sd);
}

int runs_change(const double *a, size_t na, const double *b, size_t nb, double alpha,
		double *change, double *lo, double *hi)
{
	size_t m = na * nb, k = 0;
	double *d;
	long c;
	if (!na || !nb || !(d = malloc(m * sizeof *d)))
		return -1;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++) {
			if (!(a[i] > 0) || !(b[j] > 0)) {
				free(d);
				return -1;
			}
			d[k++] = b[j] / a[i];   /* sorts as log(b) - log(a) does */
		}
	qsort(d, m, sizeof *d, by_double);
	*change = (m % 2 ? d[m / 2] : sqrt(d[m / 2 - 1] * d[m / 2])) - 1;
	c = na + nb <= RUNS_EXACT_MAX ? critical(na, nb, alpha) : critical_normal(na, nb, alpha);
	if (c < 1) {
		free(d);
		return 1;
	}
	*lo = d[c - 1] - 1;
	*hi = d[m - (size_t)c] - 1;
	free(d);
	return 0;
}

/* The median of the N values of V (reordered); NAN when N is 0. */
static double median_of(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof *v, by_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Each group's median over every run it has a value > 0 in, into MED (NAN:
 * none). TMP holds NR doubles. */
static void group_medians(const double *v, size_t ng, size_t nr, double *med, double *tmp)
{
	for (size_t g = 0; g < ng; g++) {
		size_t k = 0;
		for (size_t r = 0; r < nr; r++)
			if (v[g * nr + r] > 0)
				tmp[k++] = v[g * nr + r];
		med[g] = median_of(tmp, k);
	}
}

/* Is group H, of NG, group SKIP or inside it (INSIDE, NULL: H is SKIP)?
 * SKIP >= NG: none is. */
static int left_out(const unsigned char *inside, size_t ng, size_t skip, size_t h)
{
	if (skip >= ng)
		return 0;
	return inside ? inside[skip * ng + h] : h == skip;
}

/* Run R's speed as the groups other than SKIP and those inside it see it
 * (SKIP >= NG: all of them): the median of V[h][R] / MED[h] over the first
 * WANT groups h of ORDER (NG indices, nearest first) that have a value in
 * run R, so that a group missing there gives its place to the next; NAN
 * when fewer than MIN have one. TMP holds NG doubles. */
static double speed_of(const double *v, const unsigned char *inside, size_t ng, size_t nr,
		       const double *med, size_t r, size_t skip, const size_t *order, size_t want,
		       size_t min, double *tmp)
{
	size_t k = 0;
	for (size_t i = 0; i < ng && k < want; i++) {
		size_t h = order[i];
		if (!left_out(inside, ng, skip, h) && v[h * nr + r] > 0 && med[h] > 0)
			tmp[k++] = v[h * nr + r] / med[h];
	}
	return k < min ? NAN : median_of(tmp, k);
}

static size_t max_size(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* Group G's change between the sides SIDE (0 or 1 per run) in V: the log
 * of the ratio of the sides' medians (B over A); NAN with a side empty.
 * TMP holds NR doubles. */
static double change_of(const double *v, size_t nr, size_t g, const unsigned char *side,
			double *tmp)
{
	double m[2];
	for (int s = 0; s < 2; s++) {
		size_t k = 0;
		for (size_t r = 0; r < nr; r++)
			if (side[r] == s && v[g * nr + r] > 0)
				tmp[k++] = v[g * nr + r];
		m[s] = median_of(tmp, k);
	}
	return m[0] > 0 && m[1] > 0 ? log(m[1] / m[0]) : NAN;
}

/* The change most groups share, of the N changes C (NAN ones left out):
 * the median of the tightest run of half of them, rounded up, in sorted
 * order (of two as tight, the one nearer no change); 0 with none. A
 * whole-side speed change moves every group alike and is found; a cause
 * that moved some groups together is not, unless it moved half of them or
 * more, and more tightly than the rest.
 * TMP holds N doubles. */
static double consensus(const double *c, size_t n, double *tmp)
{
	size_t k = 0, h, best = 0;
	double c0 = 0;
	for (size_t g = 0; g < n; g++)
		if (!isnan(c[g]))
			tmp[k++] = c[g];
	if (!k)
		return 0;
	qsort(tmp, k, sizeof *tmp, by_double);
	h = (k + 1) / 2;
	for (size_t i = 0; i + h <= k; i++) {
		double w = tmp[i + h - 1] - tmp[i], wb = tmp[best + h - 1] - tmp[best];
		double mid = median_of(tmp + i, h);   /* sorted already: no reorder */
		if (i == 0 || w < wb || (w == wb && fabs(mid) < fabs(c0))) {
			best = i;
			c0 = mid;
		}
	}
	return c0;
}

/* ORDER = the NG groups by MOVE, least first (of two alike, the lower
 * index): insertion, for the handful of groups a diff has. */
static void by_move(const double *move, size_t ng, size_t *order)
{
	for (size_t i = 0; i < ng; i++) {
		size_t j = i;
		for (; j > 0 && move[order[j - 1]] > move[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
}

/* OUT[g][r] = V[g][r] over run r's speed as the WANT groups other than g
 * and those inside it, nearest first in ORDER, see it by their values VS;
 * V itself where fewer than RUNS_RELATIVE_MIN have a value there. Returns
 * how many were left as they are. */
static int relate_pass(const double *v, const double *vs, const unsigned char *inside,
		       size_t ng, size_t nr, const double *med, const size_t *order, size_t want,
		       double *out, double *tmp)
{
	int rc = 0;
	for (size_t r = 0; r < nr; r++)
		for (size_t g = 0; g < ng; g++) {
			double x = v[g * nr + r];
			double s = x > 0 ? speed_of(vs, inside, ng, nr, med, r, g, order, want,
						    RUNS_RELATIVE_MIN, tmp)
					 : NAN;
			out[g * nr + r] = s > 0 ? x / s : x;
			rc += x > 0 && !(s > 0);
		}
	return rc;
}

int runs_relative(const double *v, const double *vs, const unsigned char *inside, size_t ng,
		  size_t nr, const unsigned char *side, double *out, double *speed)
{
	double *med = malloc((ng + 1) * sizeof *med), *tmp = malloc((ng + nr + 1) * sizeof *tmp);
	double *move = calloc(ng + 1, sizeof *move), c;
	size_t *order = malloc((ng + 1) * sizeof *order);
	int rc = -1;
	if (!med || !tmp || !move || !order)
		goto out;
	if (!vs)
		vs = v;
	group_medians(vs, ng, nr, med, tmp);
	if (side) {
		/* how far each group moved from the change most of them share */
		for (size_t g = 0; g < ng; g++)
			move[g] = change_of(vs, nr, g, side, tmp);
		c = consensus(move, ng, tmp);
		for (size_t g = 0; g < ng; g++)   /* a group with a side empty last */
			move[g] = isnan(move[g]) ? INFINITY : fabs(move[g] - c);
	}
	by_move(move, ng, order);   /* without SIDE: every move 0, in index order */
	/* the runs' speeds: every group, or with SIDE the half nearest the
	 * shared change (at least four) */
	for (size_t r = 0; r < nr; r++)
		speed[r] = speed_of(vs, NULL, ng, nr, med, r, ng, order,
				    side ? max_size(RUNS_RELATIVE_MIN + 1, (ng + 1) / 2) : ng,
				    RUNS_RELATIVE_MIN + 1, tmp);
	/* each group's: every other, or with SIDE the others nearest it,
	 * three or half of them */
	rc = relate_pass(v, vs, inside, ng, nr, med, order,
			 side ? max_size(RUNS_RELATIVE_MIN, ng / 2) : ng, out, tmp);
out:
	free(med);
	free(tmp);
	free(move);
	free(order);
	return rc;
}
