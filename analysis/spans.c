/* spans.c: pairing, the one stage that turns entries into spans (see
 * engine.h): each thread of a file has a stack of the spans it has begun;
 * an end is matched with its begin on its own thread, and the span it
 * closes gets its parent, depth and self cycles before pairs.c counts it
 * and an_options.span_fn sees it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "xalloc.h"

/* Makes threads up to T of the current file, on first use. Thread
 * numbers come from the reader, which bounds them by the threads a log has. */
static __attribute__((noinline, cold)) void grow_threads(struct an *a, uint32_t t)
{
	size_t n = (size_t)t + 1;
	if (!(a->threads = realloc(a->threads, n * sizeof *a->threads)))
		abort();
	memset(a->threads + a->nthreads, 0, (n - a->nthreads) * sizeof *a->threads);
	a->nthreads = n;
}

/* Thread T of the current file: called twice an entry, so the common case
 * is a compare and an index. */
static inline struct an_thread *thread_of(struct an *a, uint32_t t)
{
	if (__builtin_expect(t >= a->nthreads, 0))
		grow_threads(a, t);
	return &a->threads[t];
}

/* Removes the open span at index I of T's stack: those above it stay open
 * and move down, their parent now the one below it. The top, the span
 * that ends in a well nested program, only pops. */
static void unstack(struct an_thread *t, size_t i)
{
	if (i + 1 < t->nopen)
		memmove(&t->open[i], &t->open[i + 1], (t->nopen - i - 1) * sizeof *t->open);
	t->nopen--;
}

void span_begin(struct an *a, struct an_ev *ev, const tl_entry *e)
{
	struct an_thread *t = thread_of(a, e->thread);
	struct an_open *o;
	/* a begin of EV open already on this thread never ended */
	for (size_t i = t->nopen; i-- > 0;)
		if (t->open[i].b == ev) {
			unmatched_for(a, ev->name)->begins++;
			unstack(t, i);
			break;
		}
	if (t->nopen == t->open_cap) {
		t->open_cap = t->open_cap ? 2 * t->open_cap : 8;
		if (!(t->open = realloc(t->open, t->open_cap * sizeof *t->open)))
			abort();
	}
	o = &t->open[t->nopen++];
	o->b = ev;
	o->tsc = e->tsc;
	o->seq = e->seq;
	o->aux = e->aux;
	o->inner = o->ninner = 0;
	o->nkids = 0;
	memcpy(o->args, e->args, sizeof o->args);
	if (ev->is_breath)
		share_begin(a, t);
}

/* The begin event of end EV, found once among the file's begins by its
 * name and attributes; its argument indexes for running counters. */
static struct an_ev *begin_of(struct an *a, struct an_ev *ev)
{
	struct an_ev *b;
	const tl_def *bd;
	if (ev->begin)
		return ev->begin;
	for (b = a->begins; b && strcmp(b->match_key, ev->begin_key); b = b->next_begin)
		;
	if (!b)
		return NULL;
	bd = a->def_fn(a->def_ctx, b->msgid);
	ev->begin_unit = ev->unit >= 0 ? arg_index(bd, ev->unit_name) : -1;
	ev->begin_bucket = ev->bucket_arg >= 0 ? arg_index(bd, ev->bucket_name) : -1;
	/* a rule's unit is the argument found for it (totalpackets for
	 * packets), a declared pair's its own name */
	for (unsigned u = 0; u < ev->nunits; u++)
		ev->begin_units[u] = ev->units[u] < 0 ? -1
				     : arg_index(bd, ev->rule >= 0 ? ev->unit_name : ev->unit_names[u]);
	ev->pair_level = b->level;
	return ev->begin = b;
}

/* Fills S's units from the end entry E and the begin O, as EV names them. */
static void span_units(const struct an_ev *ev, const tl_entry *e, const struct an_open *o,
		       struct an_span *s)
{
	s->nunits = ev->nunits;
	s->unit_name = ev->unit_names;
	for (unsigned u = 0; u < ev->nunits; u++) {
		if (ev->units[u] < 0) {
			s->units[u] = NAN;
			continue;
		}
		s->units[u] = (double)e->args[ev->units[u]];
		if (ev->begin_units[u] >= 0)
			s->units[u] -= (double)o->args[ev->begin_units[u]];
	}
}

/* Span P holds one of CYCLES, ended by EV. */
static void held(struct an_open *p, uint64_t cycles, struct an_ev *ev)
{
	unsigned k = 0;
	p->inner += cycles;
	p->ninner++;
	while (k < p->nkids && p->kids[k] != ev)
		k++;
	if (k == p->nkids && k < AN_NEST_KIDS)
		p->kids[p->nkids++] = ev;
}

/* Notes in the engine's nesting the kinds of span that O, ended by EV,
 * held: once per pair of end events (EV's nested). */
static void note_kids(struct an *a, struct an_ev *ev, const struct an_open *o)
{
	for (unsigned k = 0; k < o->nkids; k++) {
		unsigned j = 0;
		while (j < ev->nnested && ev->nested[j] != o->kids[k])
			j++;
		if (j < ev->nnested)
			continue;
		nest_add(a, ev->label, ev->app, o->kids[k]->label, o->kids[k]->app);
		if (ev->nnested < AN_NEST_KIDS)
			ev->nested[ev->nnested++] = o->kids[k];
	}
}

void nest_add(struct an *a, const char *outer, const char *outer_attr, const char *inner,
	      const char *inner_attr)
{
	struct an_nest *n;
	for (size_t i = 0; i < a->nnest; i++) {
		n = &a->nest[i];
		if (!strcmp(n->outer, outer) && !strcmp(n->inner, inner) &&
		    !strcmp(n->outer_attr, outer_attr) && !strcmp(n->inner_attr, inner_attr))
			return;
	}
	if (a->nnest == a->nest_cap) {
		a->nest_cap = a->nest_cap ? 2 * a->nest_cap : 16;
		if (!(a->nest = realloc(a->nest, a->nest_cap * sizeof *a->nest)))
			abort();
	}
	n = &a->nest[a->nnest++];
	n->outer = xstrdup(outer);
	n->outer_attr = xstrdup(outer_attr);
	n->inner = xstrdup(inner);
	n->inner_attr = xstrdup(inner_attr);
}

void an_add_nest(struct an *a, const char *outer, const char *outer_attr, const char *inner,
		 const char *inner_attr)
{
	nest_add(a, outer, outer_attr, inner, inner_attr);
}

void nest_free(struct an *a)
{
	for (size_t i = 0; i < a->nnest; i++) {
		free(a->nest[i].outer);
		free(a->nest[i].outer_attr);
		free(a->nest[i].inner);
		free(a->nest[i].inner_attr);
	}
	free(a->nest);
	a->nest = NULL;
	a->nnest = a->nest_cap = 0;
}

const struct an_nest *an_nesting(const struct an *a, size_t *n)
{
	*n = a->nnest;
	return a->nest;
}

int span_end(struct an *a, struct an_ev *ev, const tl_entry *e)
{
	struct an_ev *b = begin_of(a, ev);
	struct an_thread *t = thread_of(a, e->thread);
	struct an_open *o, copy;
	struct an_span s;
	size_t i = t->nopen;
	while (b && i-- > 0 && t->open[i].b != b)
		;
	if (!b || i >= t->nopen) {   /* no begin of it open on this thread */
		if (!ev->unmatched)   /* the list only grows: an index stays good */
			ev->unmatched = (size_t)(unmatched_for(a, ev->label) - a->unmatched) + 1;
		a->unmatched[ev->unmatched - 1].ends++;
		return 0;
	}
	/* the top pops and stays where it is until the next begin; one below
	 * it (an end out of order) is copied before those above move down */
	o = &t->open[i];
	if (i + 1 < t->nopen) {
		copy = *o;
		o = &copy;
	}
	unstack(t, i);
	/* field by field: a compound literal would zero the unit arrays too */
	s.label = ev->label;
	s.attr = ev->app;
	s.attr_name = ev->attr_name;
	s.thread = e->thread;
	s.id = o->seq;
	s.depth = (unsigned)i;
	s.parent = i ? t->open[i - 1].seq : AN_NO_PARENT;
	s.tsc0 = o->tsc;
	s.tsc1 = e->tsc;
	s.aux0 = o->aux;
	s.aux1 = e->aux;
	s.cycles = e->tsc >= o->tsc ? e->tsc - o->tsc : 0;
	s.self = s.cycles > o->inner ? s.cycles - o->inner : 0;
	s.inner = o->ninner;
	s.breath = ev->is_breath;
	s.end = e;
	span_units(ev, e, o, &s);
	if (i)   /* its parent: the span below it, open still */
		held(&t->open[i - 1], s.cycles, ev);
	if (o->nkids)
		note_kids(a, ev, o);
	if (a->opts.span_fn)
		a->opts.span_fn(a->opts.span_ctx, &s);
	return count_span(a, t, ev, e, o, &s);
}

void spans_drop(struct an *a, int skipped, int unmatched)
{
	for (size_t k = 0; k < a->nthreads; k++) {
		struct an_thread *t = &a->threads[k];
		for (size_t i = 0; i < t->nopen; i++) {
			if (unmatched)
				unmatched_for(a, t->open[i].b->name)->begins++;
			a->switches.skipped += (unsigned)skipped;
		}
		t->nopen = 0;
		t->in_breath = 0;
		t->ndeferred = 0;
	}
}

void spans_free(struct an *a)
{
	for (size_t k = 0; k < a->nthreads; k++) {
		free(a->threads[k].open);
		free(a->threads[k].app_cycles);
		free(a->threads[k].deferred);
	}
	free(a->threads);
	a->threads = NULL;
	a->nthreads = 0;
}
