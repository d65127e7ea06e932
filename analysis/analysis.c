/* analysis.c: the statistics engine (see analysis.h), its life: the
 * --by keys and default pairs, an engine made and freed, a file begun,
 * each entry taken (Snabb's lag, or handed to pairing), a file ended with
 * its record. The engine's other parts, and what each owns, are listed in
 * engine.h. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "xalloc.h"

const char *const an_key_names[AN_NKEYS] = { "event", "app",   "process", "cpu", "numa",
					     "host",  "group", "thread",  "bucket", "run" };

const struct an_pair an_default_pairs[3] = {
	{ "pull", "pulled", "out" },
	{ "push", "pushed", "in" },
	{ "breath_start", "breath_end", "total" },
};

int an_parse_keys(const char *s, unsigned *keys, const char **bad)
{
	static char word[64];
	*keys = 0;
	while (*s) {
		size_t n = strcspn(s, ",");
		int k;
		for (k = 0; k < AN_BUCKET; k++)
			if (strlen(an_key_names[k]) == n && !strncmp(s, an_key_names[k], n))
				break;
		if (n == 7 && !strncmp(s, "process", 7))
			k = AN_PROCESS;
		else if (n == 4 && !strncmp(s, "file", 4))
			k = AN_PROCESS;
		if (k == AN_BUCKET) {
			snprintf(word, sizeof word, "%.*s", (int)(n < 60 ? n : 60), s);
			*bad = word;
			return -1;
		}
		*keys |= 1u << k;
		s += n + (s[n] == ',');
	}
	return 0;
}

struct an *an_new(const struct an_options *o)
{
	struct an *a = xcalloc(1, sizeof *a);
	a->opts = *o;
	a->pairs = xcalloc(o->npairs, sizeof *a->pairs);
	for (size_t i = 0; i < o->npairs; i++) {
		a->pairs[i].begin = xstrdup(o->pairs[i].begin);
		a->pairs[i].end = xstrdup(o->pairs[i].end);
		a->pairs[i].prefix = o->pairs[i].prefix ? xstrdup(o->pairs[i].prefix) : NULL;
	}
	a->opts.pairs = a->pairs;
	a->opts.per = o->per ? xstrdup(o->per) : NULL;
	a->opts.bucket_arg = o->bucket_arg ? xstrdup(o->bucket_arg) : NULL;
	a->edges = xcalloc(o->nedges, sizeof *a->edges);
	if (o->nedges)
		memcpy(a->edges, o->edges, o->nedges * sizeof *a->edges);
	a->opts.edges = a->edges;
	a->bucket_labels = xcalloc(o->nedges, sizeof *a->bucket_labels);
	for (size_t i = 0; i < o->nedges && !isinf(o->edges[i]); i++) {
		double lo = o->edges[i], hi = i + 1 < o->nedges ? o->edges[i + 1] : INFINITY;
		int whole = lo == floor(lo) && (isinf(hi) || hi == floor(hi)), n;
		char *s = NULL;
		if (isinf(hi))
			n = asprintf(&s, "%.15g+", lo);
		else if (whole && hi - lo == 1)
			n = asprintf(&s, "%.15g", lo);
		else if (whole)
			n = asprintf(&s, "%.15g-%.15g", lo, hi - 1);
		else
			n = asprintf(&s, "%.15g-<%.15g", lo, hi);
		if (n < 0)
			abort();
		a->bucket_labels[i] = s;
	}
	if (a->opts.bucket_arg)
		a->opts.by |= 1u << AN_BUCKET;
	return a;
}

const struct an_options *an_opts(const struct an *a)
{
	return &a->opts;
}

void an_free(struct an *a)
{
	if (!a)
		return;
	free_evs(a);
	for (size_t i = 0; i < a->found.nargs; i++)
		free(a->found.args[i]);
	free(a->unit);
	free(a->units);
	for (size_t i = 0; i < a->nrows; i++) {
		for (int k = 0; k < AN_NKEYS; k++)
			free(a->rows[i]->key[k]);
		hist_free(&a->rows[i]->h);
		hist_free(&a->rows[i]->self);
		hist_free(&a->rows[i]->span);
		free(a->rows[i]->unit);
		slow_free(a->rows[i]);
		free(a->rows[i]);
		free(a->row_keys[i]);
	}
	free(a->rows);
	free(a->row_keys);
	free(a->row_slots);
	for (size_t i = 0; i < a->nbreaths; i++) {
		free(a->breaths[i].process);
		free(a->breaths[i].unit);
		free(a->breaths[i].path);
		free(a->breaths[i].group);
		free(a->breaths[i].host);
		free_shares(&a->breaths[i]);
	}
	free(a->breaths);
	spans_free(a);
	nest_free(a);
	for (size_t i = 0; i < a->series_made; i++) {
		free(a->series_values[i].s);
		free(a->series_units[i].s);
	}
	for (size_t i = 0; i < a->nseries; i++) {
		free(a->series[i].label);
		free(a->series[i].app);
	}
	free(a->series_values);
	free(a->series_units);
	free(a->series);
	free(a->breath_totals);
	for (size_t i = 0; i < a->ntimelines; i++)
		free_timeline(&a->timelines[i]);
	free(a->timelines);
	for (size_t i = 0; i < a->nunmatched; i++)
		free(a->unmatched[i].label);
	free(a->unmatched);
	for (size_t i = 0; i < a->opts.npairs; i++) {
		free((char *)a->pairs[i].begin);
		free((char *)a->pairs[i].end);
		free((char *)a->pairs[i].prefix);
	}
	free(a->pairs);
	for (size_t i = 0; i < a->opts.nedges; i++)
		free(a->bucket_labels[i]);
	free(a->bucket_labels);
	free(a->edges);
	free((char *)a->opts.per);
	free((char *)a->opts.bucket_arg);
	free((char *)a->file.path);
	free((char *)a->file.process);
	free((char *)a->file.host);
	free((char *)a->file.group);
	free((char *)a->file.run);
	free(a);
}

/* Room in A's breath list for two more: the one an_file_begin() keeps ready
 * past the end, and one to add. */
static void breath_room(struct an *a)
{
	if (a->nbreaths + 2 <= a->breaths_cap)
		return;
	a->breaths_cap = 2 * (a->nbreaths + 2);
	if (!(a->breaths = realloc(a->breaths, a->breaths_cap * sizeof *a->breaths)))
		abort();
}

int an_file_begin(struct an *a, const struct an_file *f, an_def_fn *def, void *ctx)
{
	free_evs(a);
	free((char *)a->file.path);
	free((char *)a->file.process);
	free((char *)a->file.host);
	free((char *)a->file.group);
	free((char *)a->file.run);
	a->file.path = xstrdup(f->path);
	a->file.process = xstrdup(f->process);
	a->file.host = xstrdup(f->host);
	a->file.group = xstrdup(f->group);
	a->file.run = xstrdup(f->run ? f->run : f->path);
	a->file.tsc_hz = f->tsc_hz;
	a->file.order = f->order;
	a->file.written = f->written;
	a->file.lost = f->lost;
	a->file.info = f->info;
	a->first_set = 0;
	a->file.declared = f->declared;
	a->file.ndeclared = f->ndeclared;
	a->thread_keys = NULL;
	a->nthread_keys = 0;
	/* lags: what --per would count the declared pairs in; the command's
	 * default unit: what they are counted in (an_unit()), known before the
	 * first pair ends (top's heading of a log followed from now) */
	if (!a->opts.per || a->opts.per_default)
		for (size_t i = 0; i < f->ndeclared; i++)
			if (f->declared[i].nunits)
				an_note_unit(a, f->declared[i].units[0]);
	switch_file_begin(a, f->switched_off);
	a->def_fn = def;
	a->def_ctx = ctx;
	a->events = xcalloc(65536, sizeof *a->events);
	a->lag_depth = 0;
	a->unknown_entries = 0;
	memset(a->breath_end_first, 0, sizeof a->breath_end_first);
	memset(a->breath_end_last, 0, sizeof a->breath_end_last);
	a->db_n = 0;
	a->db_cycles = a->db_units = a->db_bytes = 0;
	a->db_unit[0] = '\0';
	breath_room(a);
	memset(&a->breaths[a->nbreaths], 0, sizeof *a->breaths);
	return 0;
}

void an_file_threads(struct an *a, const char *const *threads, size_t n)
{
	a->thread_keys = threads;
	a->nthread_keys = n;
}

int an_entry(struct an *a, const tl_entry *e)
{
	struct an_ev *ev = a->events[e->msgid];
	if (!ev)
		ev = a->events[e->msgid] = make_ev(a, e->msgid);
	a->unknown_entries += (unsigned)ev->unknown;
	if (!a->first_set) {
		a->first_tsc = e->tsc;
		a->first_set = 1;
	}
	if (ev->switch_rec) {   /* the switches changed: neither a lag nor a pair */
		switch_record(a, e);
		return 0;
	}
	if (a->opts.series)
		note_time(a, e->tsc);
	if (ev->breath) {
		uint64_t v[4] = { e->tsc, e->args[ev->breath_arg], e->args[ev->packets_arg],
				  e->args[ev->bytes_arg] };
		if (a->breaths[a->nbreaths].n++ == 0)
			memcpy(a->breath_end_first, v, sizeof v);
		memcpy(a->breath_end_last, v, sizeof v);
		if (a->opts.series && add_totals(a, v) < 0)
			return -1;
	}
	if (a->opts.per) {
		if (ev->role == ROLE_BEGIN)
			span_begin(a, ev, e);
		else if (ev->role == ROLE_END)
			return span_end(a, ev, e);
		return 0;
	}
	/* Snabb's lag: the distance to the previous entry of this level or lower,
	 * the top of the stack once the higher levels are popped */
	{
		unsigned l = ev->level, n = a->lag_depth;
		uint64_t prev;
		struct an_row *r;
		int found;
		while (n && a->lag_stack[n - 1].level > l)
			n--;
		found = n > 0;
		prev = found ? a->lag_stack[n - 1].tsc : 0;
		if (found && a->lag_stack[n - 1].level == l)
			n--;
		a->lag_stack[n].tsc = e->tsc;
		a->lag_stack[n].level = l;
		a->lag_depth = n + 1;
		r = cached_row(a, ev, ev->name, e, -1);
		r->entries++;
		if (found && e->tsc >= prev)
			return hist_add_whole(&r->h, e->tsc - prev);
	}
	return 0;
}

void an_file_lost(struct an *a, uint64_t n)
{
	a->file.lost += n;
}

uint64_t an_file_unknown(const struct an *a)
{
	return a->unknown_entries;
}

/* Fills B, the current file's breath summary, from the first and last
 * breath_end and the file's names. */
void fill_breaths(const struct an *a, struct an_breaths *b)
{
	b->process = xstrdup(a->file.process);
	b->path = xstrdup(a->file.path);
	b->group = xstrdup(a->file.group);
	b->host = xstrdup(a->file.host);
	b->hz = a->file.tsc_hz;
	b->cycles = a->breath_end_last[0] - a->breath_end_first[0];
	b->breaths = a->breath_end_last[1] - a->breath_end_first[1];
	b->packets = a->breath_end_last[2] - a->breath_end_first[2];
	b->bytes = a->breath_end_last[3] - a->breath_end_first[3];
	b->unit = NULL;
	if (a->db_n) {   /* a declared breath: its spans' figures */
		b->cycles = (uint64_t)a->db_cycles;
		b->breaths = a->db_n;
		b->packets = (uint64_t)a->db_units;
		b->bytes = (uint64_t)a->db_bytes;
		b->unit = xstrdup(a->db_unit);
	}
	b->last_breath = a->breath_end_last[1];
	b->last_packets = a->breath_end_last[2];
	b->written = a->file.written;
	b->lost = a->file.lost;
	b->order = a->file.order;
}

int an_file_end(struct an *a)
{
	struct an_breaths *b = &a->breaths[a->nbreaths];
	int rc = 0;
	/* spans still open at the end of the file never ended */
	spans_drop(a, 0, 1);
	if (a->opts.series && a->file_has_tsc && (a->nseries || a->nbreath_totals))
		rc = make_timeline(a);
	a->file_has_tsc = 0;
	/* every file has a record: its entries' counters; the breath figures
	 * when it has breath_end entries */
	fill_breaths(a, b);
	a->nbreaths++;
	switch_file_end(a);
	spans_free(a);
	free_evs(a);
	a->file.declared = NULL;   /* the caller's, valid until now */
	a->thread_keys = NULL;
	a->nthread_keys = 0;
	a->file.info = NULL;
	a->file.ndeclared = 0;
	return rc;
}
