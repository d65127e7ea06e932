/* compare.c: diff's comparison of two engines group by group: the rows
 * paired by key, each pair's statistics and verdict, sorted by impact; and
 * the two tables that show them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "compare.h"
#include "rowkey.h"

/* Pairs the rows of C's engines: both sides' rows are sorted alike, so
 * they are merged; rows with a match go to C->cmp, the others to C->lone. */
static void pair_rows(struct comparison *c)
{
	size_t nra, nrb;
	struct an_row **ra = an_rows(c->e[0], &nra), **rb = an_rows(c->e[1], &nrb);
	if (!(c->cmp = calloc(nra + 1, sizeof *c->cmp)) ||
	    !(c->lone = calloc(nra + nrb + 1, sizeof *c->lone)))
		abort();
	for (size_t i = 0, j = 0; i < nra || j < nrb;) {
		int d = i == nra ? 1 : j == nrb ? -1 : an_row_cmp(c->e[0], ra[i], rb[j]);
		if (d < 0 || d > 0) {
			c->lone[c->nlone].side = d > 0;
			c->lone[c->nlone++].row = d < 0 ? ra[i++] : rb[j++];
		} else {
			c->cmp[c->ncmp].a = ra[i++];
			c->cmp[c->ncmp++].b = rb[j++];
		}
	}
}

/* The statistics of pair M: medians, p90s, change, its CI, p, impact. */
static void measure(struct cmp *m)
{
	m->ma = hist_quantile(&m->a->h, 0.5);
	m->mb = hist_quantile(&m->b->h, 0.5);
	m->pa = hist_quantile(&m->a->h, 0.9);
	m->pb = hist_quantile(&m->b->h, 0.9);
	m->change = m->ma > 0 ? m->mb / m->ma - 1 : NAN;
	m->ci = hist_change_ci(&m->a->h, &m->b->h, &m->lo, &m->hi) == 0;
	m->p = hist_mwu_p(&m->a->h, &m->b->h);
	m->impact = m->mb - m->ma;
}

/* The verdict on pair M of C, as compare() says; a warning for few samples. */
static void judge(struct comparison *c, struct cmp *m, double threshold, double alpha)
{
	if (m->a->h.n < 10 || m->b->h.n < 10) {
		char k[1024];
		rowkey_join(c->e[0], c->o, m->a, k, sizeof k);
		fprintf(stderr, "timeline diff: warning: %s: fewer than 10 samples (A %llu, B %llu)\n", k,
			(unsigned long long)m->a->h.n, (unsigned long long)m->b->h.n);
		m->verdict = "few samples";
	} else if (m->p < alpha && m->change * 100 > threshold) {
		m->verdict = "SLOWER";
		c->slower = 1;
	} else if (m->p < alpha && -m->change * 100 > threshold) {
		m->verdict = "faster";
	} else {
		m->verdict = "same";
	}
}

/* Largest change in cycles first, gained or lost. */
static int by_impact(const void *x, const void *y)
{
	double a = fabs(((const struct cmp *)x)->impact), b = fabs(((const struct cmp *)y)->impact);
	return a < b ? 1 : a > b ? -1 : 0;
}

void compare(struct comparison *c, struct an *ea, struct an *eb, const struct an_options *o,
	     double threshold, double alpha)
{
	*c = (struct comparison){ .e = { ea, eb }, .o = o };
	pair_rows(c);
	for (size_t i = 0; i < c->ncmp; i++) {
		measure(&c->cmp[i]);
		judge(c, &c->cmp[i], threshold, alpha);
	}
	qsort(c->cmp, c->ncmp, sizeof *c->cmp, by_impact);
}

/* Pair M's cells after its key: n, p50 and p90 of each side as numbers,
 * the change and its CI as signed %, p, the verdict. BUF holds the text. */
static void stat_cells(const struct cmp *m, char buf[10][32], char **cells)
{
	double v[10] = { (double)m->a->h.n, (double)m->b->h.n, m->ma, m->mb, m->pa, m->pb,
			 m->change * 100, m->ci ? m->lo * 100 : NAN, m->ci ? m->hi * 100 : NAN, m->p };
	for (int j = 0; j < 10; j++) {
		if (j == 9)
			snprintf(buf[j], sizeof buf[j], m->p < 0.0001 ? "%.1e" : "%.4f", m->p);
		else if (j >= 6)
			snprintf(buf[j], sizeof buf[j], isnan(v[j]) ? "-" : "%+.1f", v[j]);
		else
			cell_num(buf[j], sizeof buf[j], v[j]);
		cells[j] = buf[j];
	}
	cells[10] = (char *)m->verdict;
}

struct table *compare_table(const struct comparison *c)
{
	static const char *const stat_cols[] = { "n_a", "n_b", "p50_a", "p50_b", "p90_a", "p90_b",
						 "change%", "ci_lo%", "ci_hi%", "p", "verdict" };
	const char *cols[AN_NKEYS + 12];
	int nk = rowkey_names(c->o, cols);
	struct table *t;
	for (int i = 0; i < 11; i++)
		cols[nk + i] = stat_cols[i];
	t = table_new("diff", cols, nk + 11);
	for (size_t i = 0; i < c->ncmp; i++) {
		char buf[10][32], *cells[AN_NKEYS + 12];
		const struct cmp *m = &c->cmp[i];
		stat_cells(m, buf, cells + rowkey_cells(c->e[0], c->o, m->a, cells));
		table_add(t, cells);
	}
	return t;
}

struct table *compare_lone_table(const struct comparison *c)
{
	static const char *const cols[] = { "side", "group", "n" };
	struct table *t = table_new("only", cols, 3);
	for (size_t i = 0; i < c->nlone; i++) {
		const struct lone *l = &c->lone[i];
		char k[1024], n[32];
		rowkey_join(c->e[l->side], c->o, l->row, k, sizeof k);
		snprintf(n, sizeof n, "%llu", (unsigned long long)l->row->h.n);
		table_add(t, (char *[]){ l->side ? "B" : "A", k, n });
	}
	return t;
}

void compare_free(struct comparison *c)
{
	free(c->cmp);
	free(c->lone);
	c->cmp = NULL;
	c->lone = NULL;
	c->ncmp = c->nlone = 0;
}
