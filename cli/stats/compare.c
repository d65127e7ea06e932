/* compare.c: diff's comparison of two engines group by group: each side's
 * rows of one group (one per run) gathered, the groups paired by key, their
 * statistics and verdicts, sorted by impact; and the tables that show them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"
#include "natural.h"
#include "rowkey.h"
#include "runs.h"
#include "view.h"

/* Gathers the rows of E (sorted, runs of one group adjacent) into groups;
 * returns a new array of *N of them. */
static struct side *group_rows(struct an *e, size_t *n)
{
	size_t nr, k = 0;
	struct an_row **r = an_rows(e, &nr);
	struct side *g = calloc(nr + 1, sizeof *g);
	if (!g)
		abort();
	for (size_t i = 0; i < nr; i++) {
		struct side *s = &g[k];
		if (i && !an_row_cmp_keys(e, r[i - 1], r[i], AN_SHOWN_KEYS))
			s = &g[k - 1];
		else
			g[k++].row = r[i];
		if (!r[i]->h.n)
			continue;
		if (hist_merge(&s->pooled, &r[i]->h) < 0 ||
		    !(s->medians = realloc(s->medians, (s->runs + 1) * sizeof *s->medians)) ||
		    !(s->selfs = realloc(s->selfs, (s->runs + 1) * sizeof *s->selfs)) ||
		    !(s->run = realloc(s->run, (s->runs + 1) * sizeof *s->run)))
			abort();
		s->run[s->runs] = r[i]->key[AN_RUN] ? r[i]->key[AN_RUN] : "";
		s->selfs[s->runs] = hist_quantile(an_row_self(r[i]), 0.5);
		s->medians[s->runs++] = hist_quantile(&r[i]->h, 0.5);
	}
	*n = k;
	return g;
}

static void free_side(struct side *s);

/* Pairs the groups of C's engines by their shown keys: those with a match
 * go to C->cmp, the others to C->lone; a group with no value on either
 * side (an event that never followed another of its level) is none. */
static void pair_groups(struct comparison *c)
{
	size_t na, nb;
	struct side *ga = group_rows(c->e[0], &na), *gb = group_rows(c->e[1], &nb);
	if (!(c->cmp = calloc(na + 1, sizeof *c->cmp)) ||
	    !(c->lone = calloc(na + nb + 1, sizeof *c->lone)))
		abort();
	for (size_t i = 0, j = 0; i < na || j < nb;) {
		int d = i == na ? 1 : j == nb ? -1 :
			an_row_cmp_keys(c->e[0], ga[i].row, gb[j].row, AN_SHOWN_KEYS);
		if (d && !(d < 0 ? ga[i] : gb[j]).runs) {   /* no value on its side: no group */
			free_side(d < 0 ? &ga[i++] : &gb[j++]);
		} else if (d) {
			c->lone[c->nlone].side = d > 0;
			c->lone[c->nlone++].s = d < 0 ? ga[i++] : gb[j++];
		} else if (!ga[i].runs && !gb[j].runs) {   /* no value on either side */
			free_side(&ga[i++]);
			free_side(&gb[j++]);
		} else {
			c->cmp[c->ncmp].s[0] = ga[i++];
			c->cmp[c->ncmp++].s[1] = gb[j++];
		}
	}
	free(ga);
	free(gb);
}

/* The runs of both sides, each once. */
struct runs {
	struct runref {
		int side;
		const char *key;     /* its AN_RUN key */
	} *r;
	size_t n, cap;
};

/* The index of SIDE's run KEY in RS, added if new. */
static size_t run_index(struct runs *rs, int side, const char *key)
{
	for (size_t i = 0; i < rs->n; i++)
		if (rs->r[i].side == side && !strcmp(rs->r[i].key, key))
			return i;
	if (rs->n == rs->cap && !(rs->r = realloc(rs->r, (rs->cap = 2 * rs->cap + 16) * sizeof *rs->r)))
		abort();
	rs->r[rs->n] = (struct runref){ side, key };
	return rs->n++;
}

/* Does group G (its keys) stand for the pair LABEL of attribute ATTR, as
 * far as C's keys tell? */
static int names_group(const struct comparison *c, const struct cmp *g, const char *label,
		       const char *attr)
{
	const struct an_row *r = g->s[0].row;
	return !strcmp(r->key[AN_EVENT], label) &&
	       (!(c->o->by & 1u << AN_APP) || !strcmp(r->key[AN_APP], attr));
}

/* Sets INSIDE[g * NG + h] where group h is g or held by g (in some span of
 * either side, directly or through others), by the engines' nesting; the
 * groups are pairs only where they are keyed by the event. */
static void inside_of(const struct comparison *c, unsigned char *inside)
{
	size_t ng = c->ncmp, changed = 1;
	for (size_t g = 0; g < ng; g++)
		inside[g * ng + g] = 1;
	if (!(c->o->by & 1u << AN_EVENT))
		return;
	for (int s = 0; s < 2; s++) {
		size_t n;
		const struct an_nest *nest = an_nesting(c->e[s], &n);
		for (size_t i = 0; i < n; i++)
			for (size_t g = 0; g < ng; g++)
				for (size_t h = 0; h < ng && names_group(c, &c->cmp[g], nest[i].outer,
									  nest[i].outer_attr); h++)
					if (names_group(c, &c->cmp[h], nest[i].inner, nest[i].inner_attr))
						inside[g * ng + h] = 1;
	}
	while (changed--)   /* what a group holds holds: until nothing is added */
		for (size_t g = 0; g < ng; g++)
			for (size_t h = 0; h < ng; h++)
				for (size_t k = 0; inside[g * ng + h] && k < ng; k++)
					if (inside[h * ng + k] && !inside[g * ng + k])
						inside[g * ng + k] = 1, changed = 1;
}

/* Sets each side's rel to its medians relative to their runs' speeds
 * (runs_relative() over every paired group and every run of both sides,
 * the yardstick from each group's self values, never from the groups a
 * group holds), and C->all's sides to the runs' speeds. */
static void relate(struct comparison *c)
{
	struct runs rs = { NULL, 0, 0 };
	size_t ng = c->ncmp, nr;
	double *v, *vs, *out, *speed;
	unsigned char *side, *inside;
	for (size_t g = 0; g < ng; g++)
		for (int s = 0; s < 2; s++)
			for (size_t k = 0; k < c->cmp[g].s[s].runs; k++)
				run_index(&rs, s, c->cmp[g].s[s].run[k]);
	nr = rs.n;
	if (!(v = calloc(ng * nr + 1, sizeof *v)) || !(out = malloc((ng * nr + 1) * sizeof *out)) ||
	    !(vs = calloc(ng * nr + 1, sizeof *vs)) || !(inside = calloc(ng * ng + 1, 1)) ||
	    !(speed = malloc((nr + 1) * sizeof *speed)) || !(side = malloc(nr + 1)))
		abort();
	inside_of(c, inside);
	for (size_t i = 0; i < nr; i++)
		side[i] = (unsigned char)rs.r[i].side;
	for (size_t g = 0; g < ng; g++)
		for (int s = 0; s < 2; s++)
			for (size_t k = 0; k < c->cmp[g].s[s].runs; k++) {
				size_t i = g * nr + run_index(&rs, s, c->cmp[g].s[s].run[k]);
				v[i] = c->cmp[g].s[s].medians[k];
				vs[i] = c->cmp[g].s[s].selfs[k];
			}
	if (runs_relative(v, vs, inside, ng, nr, side, out, speed) < 0)
		abort();
	for (size_t g = 0; g < ng; g++)
		for (int s = 0; s < 2; s++) {
			struct side *sd = &c->cmp[g].s[s];
			if (!(sd->rel = malloc((sd->runs + 1) * sizeof *sd->rel)))
				abort();
			for (size_t k = 0; k < sd->runs; k++)
				sd->rel[k] = out[g * nr + run_index(&rs, s, sd->run[k])];
		}
	for (size_t i = 0; i < nr; i++) {
		struct side *sd = &c->all.s[rs.r[i].side];
		if (!(speed[i] > 0))
			continue;
		if (!(sd->rel = realloc(sd->rel, (sd->runs + 1) * sizeof *sd->rel)))
			abort();
		sd->rel[sd->runs++] = speed[i];
	}
	free(v);
	free(vs);
	free(inside);
	free(out);
	free(speed);
	free(side);
	free(rs.r);
}

/* The statistics of group M at level 1 - ALPHA, over the runs' values
 * relative to their speed (REL) or their medians. */
static void measure(struct cmp *m, double alpha, int rel)
{
	const struct side *a = &m->s[0], *b = &m->s[1];
	const double *va = rel ? a->rel : a->medians, *vb = rel ? b->rel : b->medians;
	int rc;
	m->ma = hist_quantile(&a->pooled, 0.5);
	m->mb = hist_quantile(&b->pooled, 0.5);
	m->pa = hist_quantile(&a->pooled, 0.9);
	m->pb = hist_quantile(&b->pooled, 0.9);
	rc = runs_change(va, a->runs, vb, b->runs, alpha, &m->change, &m->lo, &m->hi);
	if (rc < 0)   /* a median of 0: the ratio of the pooled medians */
		m->change = m->ma > 0 ? m->mb / m->ma - 1 : NAN;
	m->ci = rc == 0;
	m->p = runs_mwu_p(va, a->runs, vb, b->runs);
	m->p_pairs = hist_mwu_p(&a->pooled, &b->pooled);
	m->impact = m->mb - m->ma;
}

/* The verdict on group M of C, as compare() says. */
static void judge(struct comparison *c, struct cmp *m)
{
	const struct side *a = &m->s[0], *b = &m->s[1];
	if (!(runs_min_p(a->runs, b->runs) < c->alpha)) {
		m->verdict = "too few runs";
		if (!c->too_few++)
			fprintf(stderr, "timeline %s: note: %zu run%s in A and %zu in B: no test over "
				"runs can reach alpha %g (the smallest p is %.3g); give at least %zu "
				"runs a side (each process is a run, its logs pooled; --runs file: each log, "
				"--runs dir: each directory)\n",
				c->cmd, a->runs, a->runs == 1 ? "" : "s", b->runs, c->alpha,
				runs_min_p(a->runs, b->runs), runs_needed(c->alpha));
	} else if (m != &c->all && (a->pooled.n < 10 || b->pooled.n < 10)) {
		char k[1024];
		rowkey_join(c->e[0], c->o, a->row, k, sizeof k);
		fprintf(stderr, "timeline %s: warning: %s: fewer than 10 samples (A %llu, B %llu)\n",
			c->cmd, k,
			(unsigned long long)a->pooled.n, (unsigned long long)b->pooled.n);
		m->verdict = "few samples";
	} else if (m->p < c->alpha && m->change * 100 > c->threshold) {
		m->verdict = "SLOWER";
		c->slower = 1;
	} else if (m->p < c->alpha && -m->change * 100 > c->threshold) {
		m->verdict = "faster";
	} else {
		m->verdict = "no change shown";
	}
}

static const struct an *impact_e;   /* by_impact()'s engine, for the keys */

/* The runs of E: its rows' AN_RUN keys, each once. */
static size_t count_runs(struct an *e)
{
	size_t n, runs = 0;
	struct an_row **r = an_rows(e, &n);
	const char **seen = calloc(n + 1, sizeof *seen);
	if (!seen)
		abort();
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		if (!r[i]->key[AN_RUN])
			continue;
		while (k < runs && strcmp(seen[k], r[i]->key[AN_RUN]))
			k++;
		if (k == runs)
			seen[runs++] = r[i]->key[AN_RUN];
	}
	free(seen);
	return runs;
}

/* The unit of group M's rows ("" when not known). */
static const char *unit_of(const struct cmp *m)
{
	return m->s[0].row->unit ? m->s[0].row->unit : m->s[1].row->unit ? m->s[1].row->unit : "";
}

/* By unit (of pairs each in its own: their cycles compare only within
 * one), then largest change in cycles first, gained or lost, none (NaN)
 * last; equal changes in the order of their keys (an_row_cmp_keys()). */
static int by_impact(const void *x, const void *y)
{
	const struct cmp *p = x, *q = y;
	double a = fabs(p->impact), b = fabs(q->impact);
	int u = an_opts(impact_e)->declared_only ? natural_cmp(unit_of(p), unit_of(q)) : 0;
	if (u)
		return u;
	if (isnan(a) != isnan(b))
		return isnan(a) ? 1 : -1;
	if (a != b && !isnan(a))
		return a < b ? 1 : -1;
	return an_row_cmp_keys(impact_e, p->s[0].row, q->s[0].row, AN_SHOWN_KEYS);
}

void compare(struct comparison *c, const char *cmd, struct an *ea, struct an *eb,
	     const struct an_options *o, double threshold, double alpha, int absolute)
{
	*c = (struct comparison){ .cmd = cmd, .e = { ea, eb }, .o = o, .threshold = threshold,
				  .alpha = alpha, .absolute = absolute };
	pair_groups(c);
	for (int s = 0; s < 2; s++) {
		c->runs[s] = count_runs(c->e[s]);
		an_breath_list(c->e[s], &c->logs[s]);   /* a record per file read */
	}
	c->relative = !absolute && c->ncmp > RUNS_RELATIVE_MIN;
	if (c->relative)
		relate(c);
	for (size_t i = 0; i < c->ncmp; i++) {
		measure(&c->cmp[i], alpha, c->relative);
		judge(c, &c->cmp[i]);
	}
	impact_e = c->e[0];
	qsort(c->cmp, c->ncmp, sizeof *c->cmp, by_impact);
	if (c->relative) {
		measure(&c->all, alpha, 1);
		c->all.ma = c->all.mb = c->all.pa = c->all.pb = c->all.p_pairs = NAN;
		judge(c, &c->all);
	}
}

/* V into BUF: for text as cell_num() rounds it, or with FMT %+.1f-like
 * (PCT: a signed percentage, P: a p-value); for csv and json every digit
 * a double holds, without a '+'. */
static void number(char buf[32], double v, int format, char kind)
{
	if (isnan(v) || format != FMT_TEXT)
		cell_value(buf, 32, v, format);   /* "-", or every digit it needs */
	else if (kind == '%')
		snprintf(buf, 32, "%+.1f", v);
	else if (kind == 'p')
		snprintf(buf, 32, v < 0.0001 ? "%.1e" : "%.4f", v);
	else
		cell_num(buf, 32, v);
}

/* Group M's cells after its key, in FORMAT. BUF holds the text. */
static void stat_cells(const struct cmp *m, int format, char buf[13][32], char **cells)
{
	int all = !m->s[0].row;   /* "(all)": runs, no pooled values */
	double v[13] = { (double)m->s[0].runs, (double)m->s[1].runs,
			 all ? NAN : (double)m->s[0].pooled.n, all ? NAN : (double)m->s[1].pooled.n, m->ma, m->mb, m->pa, m->pb, m->change * 100,
			 m->ci ? m->lo * 100 : NAN, m->ci ? m->hi * 100 : NAN, m->p, m->p_pairs };
	for (int j = 0; j < 13; j++) {
		number(buf[j], v[j], j < 4 ? FMT_CSV : format, j >= 11 ? 'p' : j >= 8 ? '%' : 'n');
		cells[j] = buf[j];
	}
	cells[13] = (char *)m->verdict;
}

struct table *compare_table(const struct comparison *c, int format)
{
	static const char *const stat_cols[] = { "runs_a", "runs_b", "n_a", "n_b", "p50_a", "p50_b",
						 "p90_a", "p90_b", "change%", "ci_lo%", "ci_hi%",
						 "p", "p_pairs", "verdict" };
	const char *cols[AN_NKEYS + 17];
	int nk = rowkey_names(c->e[0], c->o, cols), unit = c->o->declared_only;
	struct table *t;
	if (unit)   /* each pair in its own unit: which, beside its keys */
		cols[nk++] = "unit";
	for (int i = 0; i < 14; i++)
		cols[nk + i] = stat_cols[i];
	t = rowkey_table("diff", c->o, cols, nk + 14);
	for (size_t i = 0; i < c->ncmp; i++) {
		char buf[13][32], *cells[AN_NKEYS + 17];
		const struct cmp *m = &c->cmp[i];
		int k = rowkey_cells(c->e[0], c->o, m->s[0].row, cells);
		if (unit)
			cells[k++] = (char *)unit_of(m);
		stat_cells(m, format, buf, cells + k);
		table_add(t, cells);
	}
	if (c->relative) {   /* the runs' speeds: "(all)" under the first key */
		char buf[13][32], *cells[AN_NKEYS + 17];
		for (int k = 0; k < nk; k++)
			cells[k] = k ? "-" : "(all)";
		stat_cells(&c->all, format, buf, cells + nk);
		table_add(t, cells);
	}
	return t;
}

void compare_change(char buf[32], const struct cmp *m, int format)
{
	number(buf, m->change * 100, format, '%');
}

struct table *compare_lone_table(const struct comparison *c)
{
	static const char *const cols[] = { "side", "group", "runs", "n" };
	struct table *t = table_new("only", cols, 4);
	for (size_t i = 0; i < c->nlone; i++) {
		const struct lone *l = &c->lone[i];
		char k[1024], n[32], runs[32];
		rowkey_join(c->e[l->side], c->o, l->s.row, k, sizeof k);
		snprintf(n, sizeof n, "%llu", (unsigned long long)l->s.pooled.n);
		snprintf(runs, sizeof runs, "%zu", l->s.runs);
		table_add(t, (char *[]){ l->side ? "B" : "A", k, runs, n });
	}
	return t;
}

static void free_side(struct side *s)
{
	hist_free(&s->pooled);
	free(s->medians);
	free(s->selfs);
	free(s->run);
	free(s->rel);
}

void compare_free(struct comparison *c)
{
	for (size_t i = 0; i < c->ncmp; i++) {
		free_side(&c->cmp[i].s[0]);
		free_side(&c->cmp[i].s[1]);
	}
	for (size_t i = 0; i < c->nlone; i++)
		free_side(&c->lone[i].s);
	free_side(&c->all.s[0]);
	free_side(&c->all.s[1]);
	free(c->cmp);
	free(c->lone);
	c->cmp = NULL;
	c->lone = NULL;
	c->ncmp = c->nlone = 0;
}
