/* results.c: what the engine gives back (see engine.h): its rows sorted
 * by key, the files' records in file order, the unmatched counts by label;
 * engines merged, projected on fewer keys, and cut into intervals for a
 * live view; and the pieces a reader of summaries adds with. */
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "natural.h"
#include "xalloc.h"

static const struct an *sort_an;

int an_row_cmp(const struct an *a, const struct an_row *x, const struct an_row *y)
{
	return an_row_cmp_keys(a, x, y, a->opts.by);
}

int an_row_cmp_keys(const struct an *a, const struct an_row *x, const struct an_row *y,
		    unsigned keys)
{
	for (int k = 0; k < AN_NKEYS; k++) {
		int c;
		if (!(a->opts.by & keys & (1u << k)))
			continue;
		if (k == AN_BUCKET)
			c = (x->bucket < 0) - (y->bucket < 0) ? (x->bucket < 0) - (y->bucket < 0)
							      : (x->bucket > y->bucket) - (x->bucket < y->bucket);
		else
			c = natural_cmp(x->key[k], y->key[k]);
		if (c)
			return c;
	}
	return 0;
}

static int cmp_rows(const void *p, const void *q)
{
	const struct an_row *x = *(struct an_row *const *)p, *y = *(struct an_row *const *)q;
	int c = an_row_cmp(sort_an, x, y);
	return c ? c : (x->level > y->level) - (x->level < y->level);
}

/* Moves the rows that an_rows() gives back to the front of A's sorted
 * rows, the others after them; returns how many it gives. Leveled, of the
 * rows agreeing on the keys before the bucket and the run (the last two,
 * so that they are adjacent), those of the lowest level. */
static size_t outermost(struct an *a)
{
	unsigned group = a->opts.by & ~(1u << AN_BUCKET | 1u << AN_RUN);
	size_t kept = 0, i, j, k;
	struct an_row **out;
	char *keep;
	if (!leveled(a) || !a->nrows)
		return a->nrows;
	out = xcalloc(a->nrows, sizeof *out);
	keep = xcalloc(a->nrows, 1);
	for (i = 0; i < a->nrows; i = j) {
		unsigned low = a->rows[i]->level;
		for (j = i + 1; j < a->nrows && !an_row_cmp_keys(a, a->rows[i], a->rows[j], group); j++)
			low = a->rows[j]->level < low ? a->rows[j]->level : low;
		for (k = i; k < j; k++)
			keep[k] = a->rows[k]->level == low;
	}
	for (i = 0; i < a->nrows; i++)
		if (keep[i])
			out[kept++] = a->rows[i];
	for (i = 0, k = kept; i < a->nrows; i++)   /* the others, after */
		if (!keep[i])
			out[k++] = a->rows[i];
	memcpy(a->rows, out, a->nrows * sizeof *out);
	free(out);
	free(keep);
	return kept;
}

struct an_row **an_rows(struct an *a, size_t *n)
{
	sort_an = a;
	if (a->nrows)
		qsort(a->rows, a->nrows, sizeof *a->rows, cmp_rows);
	/* the hash indexes the old order: rebuild it for any later lookups */
	for (size_t i = 0; i < a->nrows; i++) {
		free(a->row_keys[i]);
		a->row_keys[i] = xstrdup("");
	}
	free(a->row_slots);
	a->row_slots = NULL;
	a->nrow_slots = 0;
	*n = outermost(a);
	return a->rows;
}

static int by_order(const void *x, const void *y)
{
	const struct an_breaths *a = x, *b = y;
	return a->order < b->order ? -1 : a->order > b->order;
}

const struct an_breaths *an_breath_list(const struct an *a, size_t *n)
{
	*n = a->nbreaths;
	return a->breaths;
}

static int by_label(const void *x, const void *y)
{
	return natural_cmp(((const struct an_unmatched *)x)->label,
			   ((const struct an_unmatched *)y)->label);
}

const struct an_unmatched *an_unmatched_list(struct an *a, size_t *n)
{
	if (a->nunmatched)
		qsort(a->unmatched, a->nunmatched, sizeof *a->unmatched, by_label);
	*n = a->nunmatched;
	return a->unmatched;
}

/* B, a copy of a breath summary: its strings, shares and split by CPU
 * copied too. */
static void copy_breaths(struct an_breaths *b)
{
	b->process = xstrdup(b->process);
	b->unit = b->unit ? xstrdup(b->unit) : NULL;
	b->path = xstrdup(b->path);
	b->group = xstrdup(b->group);
	b->host = xstrdup(b->host);
	b->shares = xmemdup(b->shares, b->nshares * sizeof *b->shares);
	for (size_t k = 0; k < b->nshares; k++)
		b->shares[k].app = xstrdup(b->shares[k].app);
	b->where = xmemdup(b->where, b->nwhere * sizeof *b->where);
	for (size_t k = 0; k < b->nwhere; k++)
		b->where[k].apps = xmemdup(b->where[k].apps, b->where[k].napps * sizeof(double));
}

/* Appends copies of the N breath summaries FROM to INTO's list, kept in
 * file order, with one more slot ready after it (an_file_begin's). */
static void add_breaths(struct an *into, const struct an_breaths *from, size_t n)
{
	into->breaths = realloc(into->breaths, (into->nbreaths + n + 1) * sizeof *into->breaths);
	if (!into->breaths)
		abort();
	for (size_t i = 0; i < n; i++) {
		into->breaths[into->nbreaths] = from[i];
		copy_breaths(&into->breaths[into->nbreaths++]);
	}
	memset(&into->breaths[into->nbreaths], 0, sizeof *into->breaths);
	if (into->nbreaths)
		qsort(into->breaths, into->nbreaths, sizeof *into->breaths, by_order);
}

void an_add_breaths(struct an *a, const struct an_breaths *from)
{
	add_breaths(a, from, 1);
}

void an_add_unmatched(struct an *a, const char *label, uint64_t ends, uint64_t begins)
{
	struct an_unmatched *u = unmatched_for(a, label);
	u->ends += ends;
	u->begins += begins;
}

void an_add_found(struct an *a, const struct an_found *f)
{
	a->found.rules |= f->rules;
	a->found.ends += f->ends;
	a->found.ends_with_unit += f->ends_with_unit;
	a->found.ends_with_bucket += f->ends_with_bucket;
	for (size_t i = 0; i < f->nargs; i++)
		note_arg(&a->found, f->args[i]);
}

/* Notes in INTO the units FROM counted pairs in (an_unit()), FROM's
 * first (FROM->unit) first. */
static void merge_unit(struct an *into, const struct an *from)
{
	into->unit_mixed |= from->unit_mixed;
	an_note_units(into, from->units);
}

int an_merge(struct an *into, const struct an *from)
{
	int bucket = (into->opts.by >> AN_BUCKET) & 1;   /* not when projected away */
	for (size_t i = 0; i < from->nrows; i++) {
		const struct an_row *f = from->rows[i];
		if (add_row(row_for(into, f->key, bucket ? f->bucket : -1, f->level), f,
			    into->opts.slowest) < 0)
			return -1;
	}
	add_breaths(into, from->breaths, from->nbreaths);
	merge_timelines(into, from);
	merge_unit(into, from);
	if (from->slow_cap)
		an_slowest_cap(into, from->slow_cap - 1);
	an_add_found(into, &from->found);
	into->switches.logs += from->switches.logs;
	into->switches.records += from->switches.records;
	into->switches.skipped += from->switches.skipped;
	for (size_t i = 0; i < from->nunmatched; i++)
		an_add_unmatched(into, from->unmatched[i].label, from->unmatched[i].ends,
				 from->unmatched[i].begins);
	for (size_t i = 0; i < from->nnest; i++)
		nest_add(into, from->nest[i].outer, from->nest[i].outer_attr, from->nest[i].inner,
			 from->nest[i].inner_attr);
	return 0;
}

struct an *an_project(const struct an *from, unsigned by)
{
	struct an_options o = from->opts;
	struct an *a;
	o.by = by;
	o.series = 0;
	if (!(by & (1u << AN_BUCKET))) {   /* an_new() would add the key back */
		o.bucket_arg = NULL;
		o.edges = NULL;
		o.nedges = 0;
	}
	a = an_new(&o);
	if (an_merge(a, from) < 0) {
		an_free(a);
		return NULL;
	}
	return a;
}

/* Cuts the current file's breath summary into INTO and starts the next
 * one at the last breath_end. */
static void cut_breaths(struct an *a, struct an *into)
{
	struct an_breaths *b = &a->breaths[a->nbreaths], s = *b;
	if (b->n > 0 || b->share_breaths > 0) {
		fill_breaths(a, &s);
		add_breaths(into, &s, 1);
		free(s.unit);
		free(s.process);
		free(s.path);
		free(s.group);
		free(s.host);
	}
	memcpy(a->breath_end_first, a->breath_end_last, sizeof a->breath_end_first);
	a->db_n = 0;   /* a declared breath's figures are sums: the next cut's from 0 */
	a->db_cycles = a->db_units = a->db_bytes = 0;
	b->n = b->n > 0;
	b->share_breaths = 0;
	b->share_cycles = 0;
	for (size_t i = 0; i < b->nshares; i++)
		b->shares[i].cycles = 0;
	for (size_t i = 0; i < b->nwhere; i++) {
		struct an_where *w = &b->where[i];
		w->breaths = 0;
		w->cycles = 0;
		memset(w->apps, 0, w->napps * sizeof *w->apps);
	}
}

int an_cut(struct an *a, struct an *into)
{
	for (size_t i = 0; i < a->nrows; i++) {
		struct an_row *r = a->rows[i];
		if (add_row(row_for(into, r->key, r->bucket, r->level), r, into->opts.slowest) < 0)
			return -1;
		clear_row(r);
	}
	cut_breaths(a, into);
	merge_unit(into, a);
	for (size_t i = 0; i < a->nunmatched; i++) {
		struct an_unmatched *u = unmatched_for(into, a->unmatched[i].label);
		u->ends += a->unmatched[i].ends;
		u->begins += a->unmatched[i].begins;
		a->unmatched[i].ends = a->unmatched[i].begins = 0;
	}
	return 0;
}

void an_gap(struct an *a)
{
	a->lag_depth = 0;
	spans_drop(a, 0, 0);
}
