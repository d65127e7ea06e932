/* pairs.c: a span counted (see engine.h): its cycles per unit into its
 * row and --bucket range, an app's pairs without units waiting for their
 * breath's; and where each breath's cycles go, by what ran inside it and
 * by CPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "xalloc.h"

/* The index of EV's share name in the current file's shares (added if
 * new); T's counts of the breath under way grow with them. */
static int share_of(struct an *a, struct an_thread *t, struct an_ev *ev)
{
	struct an_breaths *b = &a->breaths[a->nbreaths];
	int k = ev->share_index;
	if (k < 0) {
		for (k = 0; k < (int)b->nshares && strcmp(b->shares[k].app, ev->share); k++)
			;
		if (k == (int)b->nshares) {
			if (!(b->shares = realloc(b->shares, (b->nshares + 1) * sizeof *b->shares)))
				abort();
			b->shares[b->nshares].app = xstrdup(ev->share);
			b->shares[b->nshares++].cycles = 0;
		}
		ev->share_index = k;
	}
	if ((size_t)k >= t->app_cycles_cap) {   /* zeroed: a share new to this breath */
		size_t cap = 2 * ((size_t)k + 1);
		if (!(t->app_cycles = realloc(t->app_cycles, cap * sizeof *t->app_cycles)))
			abort();
		memset(t->app_cycles + t->app_cycles_cap, 0,
		       (cap - t->app_cycles_cap) * sizeof *t->app_cycles);
		t->app_cycles_cap = cap;
	}
	return k;
}

/* B's split of where the cycles go for the CPU of entry E (added if new). */
static struct an_where *where_of(struct an_breaths *b, const tl_entry *e)
{
	struct an_where *w;
	for (size_t i = 0; i < b->nwhere; i++)
		if (b->where[i].aux == e->aux)
			return &b->where[i];
	if (!(b->where = realloc(b->where, (b->nwhere + 1) * sizeof *b->where)))
		abort();
	w = memset(&b->where[b->nwhere++], 0, sizeof *w);
	w->aux = e->aux;
	cpu_numa(e, w->cpu, w->numa);
	return w;
}

/* Counts a breath of CYCLES ended by entry E, holding the cycles APP_CYCLES of
 * B's apps (by share index, NAPP of them; the rest 0), into B's split by CPU. */
static void count_where(struct an_breaths *b, const tl_entry *e, double cycles,
			const double *app_cycles, size_t napp)
{
	struct an_where *w = where_of(b, e);
	if (w->napps < b->nshares) {
		if (!(w->apps = realloc(w->apps, b->nshares * sizeof *w->apps)))
			abort();
		memset(w->apps + w->napps, 0, (b->nshares - w->napps) * sizeof *w->apps);
		w->napps = b->nshares;
	}
	w->breaths++;
	w->cycles += cycles;
	for (size_t i = 0; i < b->nshares && i < napp; i++)
		w->apps[i] += app_cycles[i];
}

/* Counts span S, ended by EV (entry E) on thread T, towards where its
 * breath's cycles go: what ran inside the breath by its self cycles (every
 * cycle once), into the breath under way; a breath's (with what ran
 * inside it) into the file's shares, when anything ran inside it. */
static void share_span(struct an *a, struct an_thread *t, struct an_ev *ev, const tl_entry *e,
		       const struct an_span *s)
{
	struct an_breaths *b = &a->breaths[a->nbreaths];
	if (ev->is_breath) {
		if (t->in_breath && t->breath_has_app) {
			b->share_breaths++;
			b->share_cycles += (double)s->cycles;
			for (size_t i = 0; i < b->nshares && i < t->app_cycles_cap; i++)
				b->shares[i].cycles += t->app_cycles[i];
			count_where(b, e, (double)s->cycles, t->app_cycles, t->app_cycles_cap);
		}
		t->in_breath = 0;
	} else if (t->in_breath && ev->share) {
		int k = share_of(a, t, ev);
		t->app_cycles[k] += (double)s->self;
		t->breath_has_app = 1;
	}
}

void share_begin(struct an *a, struct an_thread *t)
{
	(void)a;
	t->in_breath = 1;
	t->breath_has_app = 0;
	t->ndeferred = 0;
	if (t->app_cycles_cap)
		memset(t->app_cycles, 0, t->app_cycles_cap * sizeof *t->app_cycles);
}

void free_shares(struct an_breaths *b)
{
	for (size_t i = 0; i < b->nshares; i++)
		free(b->shares[i].app);
	free(b->shares);
	b->shares = NULL;
	b->nshares = 0;
	for (size_t i = 0; i < b->nwhere; i++)
		free(b->where[i].apps);
	free(b->where);
	b->where = NULL;
	b->nwhere = 0;
}

void an_row_unit(struct an_row *r, const char *unit)
{
	if (r->unit && !strcmp(r->unit, unit))
		return;
	if (!r->unit)
		r->unit = xstrdup(unit);
	else if (strcmp(r->unit, unit) && strcmp(r->unit, "unit")) {
		free(r->unit);
		r->unit = xstrdup("unit");
	}
}

/* Adds SELF per unit to R's self cycles: into R->h's twin until a pair of
 * R holds others (INNER), then into R->self, made from R->h first. */
static int add_self(struct an_row *r, double self_per_unit, int inner)
{
	if (!r->self_split && !inner)
		return 0;
	if (!r->self_split && an_row_split(r) < 0)
		return -1;
	return hist_add(&r->self, self_per_unit);
}

int an_row_split(struct an_row *r)
{
	if (hist_merge(&r->self, &r->h) < 0)
		return -1;
	r->self_split = 1;
	return 0;
}

/* Counts the pair of EV ended by entry E, of CYCLES (SELF of them its
 * own, INNER: it held other pairs) and UNITS, in BUCKET: into its row, or
 * as empty when it moved none (DIFFED: its units are end minus begin).
 * Returns -1 out of memory, else 0. */
static int count_pair(struct an *a, struct an_ev *ev, const tl_entry *e, double cycles,
		      double self, int inner, double units, int bucket, int diffed)
{
	struct an_row *r = cached_row(a, ev, ev->label, e, bucket);
	if (ev->unit_row != r) {   /* its unit noted once a row and end */
		an_row_unit(r, ev->count_unit);
		ev->unit_row = r;
	}
	if (a->opts.keep_latency && hist_add_whole(&r->span, (uint64_t)cycles) < 0)
		return -1;
	if (!(units > 0)) {
		r->empty++;
		r->empty_diffed += diffed;
		return 0;
	}
	double per_unit = cycles / units;
	r->cycles += cycles;
	r->self_cycles += self;
	r->units += units;
	/* slow_add() only for a pair that may be among the slowest kept */
	if (a->opts.slowest && (r->nslow < a->opts.slowest || per_unit >= r->slow[r->nslow - 1].per_unit))
		slow_add(a, r, e, cycles, units);
	if (a->opts.series && series_add(a, ev, e->tsc, per_unit, units) < 0)
		return -1;
	if (a->opts.keep_self && add_self(r, self / units, inner) < 0)
		return -1;
	return hist_add(&r->h, per_unit);
}

/* Keeps the pair of EV ended by entry E on thread T, of CYCLES, whose end
 * carries no unit, until the breath under way ends. */
static void defer(struct an_thread *t, struct an_ev *ev, const tl_entry *e, double cycles)
{
	if (t->ndeferred == t->deferred_cap) {
		t->deferred_cap = t->deferred_cap ? 2 * t->deferred_cap : 16;
		if (!(t->deferred = realloc(t->deferred, t->deferred_cap * sizeof *t->deferred)))
			abort();
	}
	t->deferred[t->ndeferred].ev = ev;
	t->deferred[t->ndeferred].e = *e;
	t->deferred[t->ndeferred++].cycles = cycles;
}

/* Counts the pairs deferred in T's breath that just ended with the UNITS
 * it moved, in its BUCKET: Snabb's app events carry no packet counts, so
 * an app's cycles are divided by its breath's packets. Returns -1 out of
 * memory, else 0. */
static int flush_deferred(struct an *a, struct an_thread *t, double units, int bucket)
{
	int rc = 0;
	for (size_t i = 0; i < t->ndeferred; i++) {
		struct deferred *d = &t->deferred[i];
		if (count_pair(a, d->ev, &d->e, d->cycles, d->cycles, 0, units, bucket, 0) < 0)
			rc = -1;
	}
	t->ndeferred = 0;
	return rc;
}

/* Counts span S of a declared breath into the file's breath summary:
 * the breaths logged, their cycles, their first unit and bytes. */
static void declared_breath(struct an *a, const struct an_span *s)
{
	a->breaths[a->nbreaths].n++;
	a->db_n++;
	a->db_cycles += (double)s->cycles;
	if (s->nunits && s->units[0] > 0)
		a->db_units += s->units[0];
	for (unsigned u = 0; u < s->nunits; u++)
		if (!strcmp(s->unit_name[u], "bytes") && s->units[u] > 0)
			a->db_bytes += s->units[u];
	if (!a->db_unit[0] && s->nunits)
		snprintf(a->db_unit, sizeof a->db_unit, "%s", s->unit_name[0]);
}

int count_span(struct an *a, struct an_thread *t, struct an_ev *ev, const tl_entry *e,
	       const struct an_open *o, const struct an_span *s)
{
	double units, cycles = (double)s->cycles;
	int bucket = -1;
	share_span(a, t, ev, e, s);
	if (ev->is_breath && ev->decl)
		declared_breath(a, s);
	if (ev->unit < 0) {
		/* no such unit in this pair: Snabb's app pairs (a rule's) inside
		 * a breath take the breath's when it ends; a declared pair says
		 * its units, and one without this unit is not counted in it */
		if (ev->is_breath)
			t->ndeferred = 0;
		else if (t->in_breath && ev->rule >= 0)
			defer(t, ev, e, cycles);
		return 0;
	}
	units = (double)e->args[ev->unit];
	if (ev->begin_unit >= 0)
		units -= (double)o->args[ev->begin_unit];
	if (ev->bucket_arg >= 0) {
		double batch = (double)e->args[ev->bucket_arg];
		if (ev->begin_bucket >= 0)
			batch -= (double)o->args[ev->begin_bucket];
		bucket = bucket_of(a, batch);
	}
	if (count_pair(a, ev, e, cycles, (double)s->self, s->inner > 0, units, bucket,
		       ev->begin_unit >= 0) < 0)
		return -1;
	return ev->is_breath ? flush_deferred(a, t, units, bucket) : 0;
}
