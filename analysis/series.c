/* series.c: the current file over time (an_options.series, for `report`;
 * see engine.h): each pair's samples and the breath_end totals kept while
 * the file is read, cut into bins as a timeline at its end; timelines
 * copied, merged and freed. */
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "xalloc.h"

/* The current file's span over time: entries at T come in. */
void note_time(struct an *a, uint64_t t)
{
	if (!a->file_has_tsc || t < a->file_tsc_min)
		a->file_tsc_min = t;
	if (!a->file_has_tsc || t > a->file_tsc_max)
		a->file_tsc_max = t;
	a->file_has_tsc = 1;
}

/* Keeps a breath_end's time and running totals V (tsc, breath, packets,
 * bytes) for the throughput over time. Returns -1 out of memory, else 0. */
int add_totals(struct an *a, const uint64_t v[4])
{
	if (a->nbreath_totals == a->breath_totals_cap) {
		size_t cap = a->breath_totals_cap ? 2 * a->breath_totals_cap : 1024;
		struct breath_totals *t = realloc(a->breath_totals, cap * sizeof *t);
		if (!t)
			return -1;
		a->breath_totals = t;
		a->breath_totals_cap = cap;
	}
	a->breath_totals[a->nbreath_totals++] = (struct breath_totals){ v[0], v[1], v[2], v[3] };
	return 0;
}

static int samples_add(struct samples *b, uint64_t t, double v)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 1024;
		struct bin_sample *s = realloc(b->s, cap * sizeof *s);
		if (!s)
			return -1;
		b->s = s;
		b->cap = cap;
	}
	b->s[b->n].t = t;
	b->s[b->n++].v = v;
	return 0;
}

/* The index of EV's series (its pair label and app) in the current file. */
static int series_of(struct an *a, struct an_ev *ev)
{
	size_t k;
	for (k = 0; k < a->nseries; k++)
		if (!strcmp(a->series[k].label, ev->label) && !strcmp(a->series[k].app, ev->app))
			return ev->series = (int)k;
	if (k == a->series_made) {   /* the buffers of earlier files are reused */
		if (!(a->series = realloc(a->series, (k + 1) * sizeof *a->series)) ||
		    !(a->series_values = realloc(a->series_values, (k + 1) * sizeof *a->series_values)) ||
		    !(a->series_units = realloc(a->series_units, (k + 1) * sizeof *a->series_units)))
			abort();
		memset(&a->series_values[k], 0, sizeof *a->series_values);
		memset(&a->series_units[k], 0, sizeof *a->series_units);
		a->series_made = k + 1;
	}
	memset(&a->series[k], 0, sizeof *a->series);
	a->series_values[k].n = a->series_units[k].n = 0;
	a->series[k].label = xstrdup(ev->label);
	a->series[k].app = xstrdup(ev->app);
	a->nseries = k + 1;
	return ev->series = (int)k;
}

/* Adds the pair of EV ended at T, of cycles per unit V and UNITS, to the
 * file's series. Returns -1 out of memory, else 0. */
int series_add(struct an *a, struct an_ev *ev, uint64_t t, double v, double units)
{
	int k = ev->series >= 0 ? ev->series : series_of(a, ev);
	if (samples_add(&a->series_values[k], t, v) < 0)
		return -1;
	return ev->is_breath ? samples_add(&a->series_units[k], t, units) : 0;
}

/* The number of bins for N samples: N / AN_PER_BIN, from 1 to opts.series. */
static size_t nbins_for(const struct an *a, size_t n)
{
	n /= AN_PER_BIN;
	return n < 1 ? 1 : n > a->opts.series ? a->opts.series : n;
}

/* Adds the change between consecutive breath_end totals to the bins of T. */
static void bin_totals(const struct an *a, struct an_timeline *t)
{
	for (size_t i = 1; i < a->nbreath_totals; i++) {
		const struct breath_totals *p = &a->breath_totals[i - 1], *c = &a->breath_totals[i];
		size_t k = bin_index(c->t, t->t0, t->span, t->nbins);
		t->breaths[k] += (double)(int64_t)(c->breath - p->breath);
		t->packets[k] += (double)(int64_t)(c->packets - p->packets);
		t->bytes[k] += (double)(int64_t)(c->bytes - p->bytes);
		t->cycles[k] += (double)(int64_t)(c->t - p->t);
	}
}

/* Cuts the current file's series into bins, as a new timeline of A, and
 * empties them. Returns -1 out of memory, else 0. */
int make_timeline(struct an *a)
{
	struct an_timeline *t;
	int rc = 0;
	if (!(a->timelines = realloc(a->timelines, (a->ntimelines + 1) * sizeof *a->timelines)))
		abort();
	t = memset(&a->timelines[a->ntimelines++], 0, sizeof *t);
	t->process = xstrdup(a->file.process);
	t->path = xstrdup(a->file.path);
	t->group = xstrdup(a->file.group);
	t->order = a->file.order;
	t->hz = a->file.tsc_hz;
	t->t0 = a->file_tsc_min;
	t->span = a->file_tsc_max - a->file_tsc_min + 1;
	t->nbins = nbins_for(a, a->nbreath_totals);
	t->s = xcalloc(a->nseries, sizeof *t->s);
	t->ns = a->nseries;
	for (size_t k = 0; k < a->nseries; k++) {
		struct an_series *s = &t->s[k];
		*s = a->series[k];   /* takes its label and app */
		s->nbins = nbins_for(a, a->series_values[k].n);
		s->v = xcalloc(s->nbins, sizeof *s->v);
		rc |= bins_make(a->series_values[k].s, a->series_values[k].n, t->t0, t->span, s->nbins, s->v);
		if (a->series_units[k].n) {
			s->units = xcalloc(s->nbins, sizeof *s->units);
			rc |= bins_make(a->series_units[k].s, a->series_units[k].n, t->t0, t->span, s->nbins, s->units);
		}
		a->series_values[k].n = a->series_units[k].n = 0;
	}
	t->breaths = xcalloc(t->nbins, sizeof *t->breaths);
	t->packets = xcalloc(t->nbins, sizeof *t->packets);
	t->bytes = xcalloc(t->nbins, sizeof *t->bytes);
	t->cycles = xcalloc(t->nbins, sizeof *t->cycles);
	bin_totals(a, t);
	a->nseries = a->nbreath_totals = 0;
	return rc;
}

/* T, a copy of a timeline: everything it points to copied too. */
static void copy_timeline(struct an_timeline *t)
{
	size_t nb = t->nbins * sizeof(double);
	t->process = xstrdup(t->process);
	t->path = xstrdup(t->path);
	t->group = xstrdup(t->group);
	t->s = xmemdup(t->s, t->ns * sizeof *t->s);
	for (size_t k = 0; k < t->ns; k++) {
		t->s[k].label = xstrdup(t->s[k].label);
		t->s[k].app = xstrdup(t->s[k].app);
		t->s[k].v = xmemdup(t->s[k].v, t->s[k].nbins * sizeof *t->s[k].v);
		if (t->s[k].units)
			t->s[k].units = xmemdup(t->s[k].units, t->s[k].nbins * sizeof *t->s[k].units);
	}
	t->breaths = xmemdup(t->breaths, nb);
	t->packets = xmemdup(t->packets, nb);
	t->bytes = xmemdup(t->bytes, nb);
	t->cycles = xmemdup(t->cycles, nb);
}

void free_timeline(struct an_timeline *t)
{
	free(t->process);
	free(t->path);
	free(t->group);
	for (size_t k = 0; k < t->ns; k++) {
		free(t->s[k].label);
		free(t->s[k].app);
		free(t->s[k].v);
		free(t->s[k].units);
	}
	free(t->s);
	free(t->breaths);
	free(t->packets);
	free(t->bytes);
	free(t->cycles);
}

static int timeline_order(const void *x, const void *y)
{
	const struct an_timeline *a = x, *b = y;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* Adds FROM's timelines to INTO's, in file order. */
void merge_timelines(struct an *into, const struct an *from)
{
	if (!from->ntimelines)
		return;
	if (!(into->timelines = realloc(into->timelines, (into->ntimelines + from->ntimelines) * sizeof *into->timelines)))
		abort();
	for (size_t i = 0; i < from->ntimelines; i++) {
		into->timelines[into->ntimelines] = from->timelines[i];
		copy_timeline(&into->timelines[into->ntimelines++]);
	}
	qsort(into->timelines, into->ntimelines, sizeof *into->timelines, timeline_order);
}

const struct an_timeline *an_timelines(const struct an *a, size_t *n)
{
	*n = a->ntimelines;
	return a->timelines;
}
