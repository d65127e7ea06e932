/* pairs.c: begin/end pairing (see engine.h): an end matched with its
 * pending begin, its cycles per unit counted into its row and --bucket
 * range, an app's pairs without units waiting for their breath's; and
 * where each breath's cycles go, by app and by CPU. */
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "xalloc.h"

/* The index of EV's app in the current file's shares (added if new). */
static int share_of(struct an *a, struct an_ev *ev)
{
	struct an_breaths *b = &a->breaths[a->nbreaths];
	if (ev->share >= 0)
		return ev->share;
	for (size_t i = 0; i < b->nshares; i++)
		if (!strcmp(b->shares[i].app, ev->app))
			return ev->share = (int)i;
	if (!(b->shares = realloc(b->shares, (b->nshares + 1) * sizeof *b->shares)))
		abort();
	b->shares[b->nshares].app = xstrdup(ev->app);
	b->shares[b->nshares].cycles = 0;
	if (b->nshares + 1 > a->app_cycles_cap) {
		a->app_cycles_cap = 2 * (b->nshares + 1);
		if (!(a->app_cycles = realloc(a->app_cycles, a->app_cycles_cap * sizeof *a->app_cycles)))
			abort();
	}
	a->app_cycles[b->nshares] = 0;
	return ev->share = (int)b->nshares++;
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
 * B's apps (by share index), into B's split by CPU. */
static void count_where(struct an_breaths *b, const tl_entry *e, double cycles,
			const double *app_cycles)
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
	for (size_t i = 0; i < b->nshares; i++)
		w->apps[i] += app_cycles[i];
}

/* Counts the CYCLES of the pair ended by EV (entry E) towards where the
 * breath's cycles go: an app's into the breath under way, a breath's (with
 * its apps') into the file's shares when any app pair lay inside it. */
static void share_pair(struct an *a, struct an_ev *ev, const tl_entry *e, double cycles)
{
	struct an_breaths *b = &a->breaths[a->nbreaths];
	if (is_breath(a, ev)) {
		if (a->in_breath && a->breath_has_app) {
			b->share_breaths++;
			b->share_cycles += cycles;
			for (size_t i = 0; i < b->nshares; i++)
				b->shares[i].cycles += a->app_cycles[i];
			count_where(b, e, cycles, a->app_cycles);
		}
		a->in_breath = 0;
	} else if (a->in_breath && strcmp(ev->app, "-")) {
		int k = share_of(a, ev);   /* may move a->app_cycles: before indexing it */
		a->app_cycles[k] += cycles;
		a->breath_has_app = 1;
	}
}

/* A begin event EV: a breath's starts the count of where its cycles go. */
void share_begin(struct an *a, const struct an_ev *ev)
{
	if (!is_breath(a, ev))
		return;
	a->in_breath = 1;
	a->breath_has_app = 0;
	a->ndeferred = 0;
	for (size_t i = 0; i < a->breaths[a->nbreaths].nshares; i++)
		a->app_cycles[i] = 0;
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

/* Counts the pair of EV ended by entry E, of CYCLES and UNITS, in BUCKET:
 * into its row, or as empty when it moved none (DIFFED: its units are end
 * minus begin). Returns -1 out of memory, else 0. */
static int count_pair(struct an *a, struct an_ev *ev, const tl_entry *e, double cycles,
		      double units, int bucket, int diffed)
{
	struct an_row *r = cached_row(a, ev, ev->label, e, bucket);
	if (!(units > 0)) {
		r->empty++;
		r->empty_diffed += diffed;
		return 0;
	}
	double per_unit = cycles / units;
	r->cycles += cycles;
	r->units += units;
	/* slow_add() only for a pair that may be among the slowest kept */
	if (a->opts.slowest && (r->nslow < a->opts.slowest || per_unit >= r->slow[r->nslow - 1].per_unit))
		slow_add(a, r, e, cycles, units);
	if (a->opts.series && series_add(a, ev, e->tsc, per_unit, units) < 0)
		return -1;
	return hist_add(&r->h, per_unit);
}

/* Keeps the pair of EV ended by entry E, of CYCLES, whose end carries no
 * unit, until the breath under way ends. */
static void defer(struct an *a, struct an_ev *ev, const tl_entry *e, double cycles)
{
	if (a->ndeferred == a->deferred_cap) {
		a->deferred_cap = a->deferred_cap ? 2 * a->deferred_cap : 16;
		if (!(a->deferred = realloc(a->deferred, a->deferred_cap * sizeof *a->deferred)))
			abort();
	}
	a->deferred[a->ndeferred].ev = ev;
	a->deferred[a->ndeferred].e = *e;
	a->deferred[a->ndeferred++].cycles = cycles;
}

/* Counts the pairs deferred in the breath that just ended with the UNITS
 * it moved, in its BUCKET: Snabb's app events carry no packet counts, so
 * an app's cycles are divided by its breath's packets. Returns -1 out of
 * memory, else 0. */
static int flush_deferred(struct an *a, double units, int bucket)
{
	int rc = 0;
	for (size_t i = 0; i < a->ndeferred; i++) {
		struct deferred *d = &a->deferred[i];
		if (count_pair(a, d->ev, &d->e, d->cycles, units, bucket, 0) < 0)
			rc = -1;
	}
	a->ndeferred = 0;
	return rc;
}

/* An end event: pair it with its begin, if pending. */
int pair_end(struct an *a, struct an_ev *ev, const tl_entry *e)
{
	struct an_ev *b = ev->begin;
	double units, cycles;
	int bucket = -1;
	if (!b) {
		const tl_def *bd;
		for (b = a->begins; b && strcmp(b->match_key, ev->begin_key); b = b->next_begin)
			;
		if (b) {
			/* a running counter when the begin carries the same argument */
			bd = a->def_fn(a->def_ctx, b->msgid);
			ev->begin_unit = ev->unit >= 0 ? arg_index(bd, ev->unit_name) : -1;
			ev->begin_bucket = ev->bucket_arg >= 0 ? arg_index(bd, ev->bucket_name) : -1;
			ev->pair_level = b->level;
		}
		ev->begin = b;
	}
	if (!b || !b->pending) {
		if (!ev->unmatched)   /* the list only grows: an index stays good */
			ev->unmatched = (size_t)(unmatched_for(a, ev->label) - a->unmatched) + 1;
		a->unmatched[ev->unmatched - 1].ends++;
		return 0;
	}
	b->pending = 0;
	cycles = e->tsc >= b->begin_tsc ? (double)(e->tsc - b->begin_tsc) : 0;
	share_pair(a, ev, e, cycles);
	if (ev->unit < 0) {
		/* no such unit in this pair: an app's inside a breath takes the
		 * breath's when it ends; otherwise nothing to attribute */
		if (is_breath(a, ev))
			a->ndeferred = 0;
		else if (a->in_breath)
			defer(a, ev, e, cycles);
		return 0;
	}
	units = (double)e->args[ev->unit];
	if (ev->begin_unit >= 0)
		units -= (double)b->begin_args[ev->begin_unit];
	if (ev->bucket_arg >= 0) {
		double batch = (double)e->args[ev->bucket_arg];
		if (ev->begin_bucket >= 0)
			batch -= (double)b->begin_args[ev->begin_bucket];
		bucket = bucket_of(a, batch);
	}
	if (count_pair(a, ev, e, cycles, units, bucket, ev->begin_unit >= 0) < 0)
		return -1;
	return is_breath(a, ev) ? flush_deferred(a, units, bucket) : 0;
}
