/* rows.c: the engine's rows (see engine.h): a hash table of rows by their
 * joined key, an entry's key values, the --bucket range of a batch and its
 * label, the TSC frequencies behind a row, the counts of unmatched pairs. */
#define _GNU_SOURCE
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "xalloc.h"

uint64_t an_hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static void rehash(struct an *a)
{
	size_t n = a->nrow_slots ? a->nrow_slots * 2 : 256;
	free(a->row_slots);
	a->row_slots = xcalloc(n, sizeof *a->row_slots);
	a->nrow_slots = n;
	for (size_t i = 0; i < a->nrows; i++) {
		size_t h = an_hash_str(a->row_keys[i]) & (n - 1);
		while (a->row_slots[h])
			h = (h + 1) & (n - 1);
		a->row_slots[h] = i + 1;
	}
}

/* The row for the current file's key values KV (NULL where not grouped)
 * and pairs of LEVEL. */
struct an_row *row_for(struct an *a, char *const kv[AN_NKEYS], int bucket, unsigned level)
{
	char joined[2048];
	size_t len = 0, h;
	struct an_row *r;
	if (leveled(a))
		len = (size_t)snprintf(joined, sizeof joined, "%u\x1f", level);
	for (int k = 0; k < AN_NKEYS; k++)
		if (a->opts.by & (1u << k))
			len += (size_t)snprintf(joined + len, len < sizeof joined ? sizeof joined - len : 0,
						"%s\x1f", kv[k] ? kv[k] : "-");
	if (len >= sizeof joined)
		len = sizeof joined - 1;
	joined[len] = '\0';
	if (2 * (a->nrows + 1) > a->nrow_slots)
		rehash(a);
	for (h = an_hash_str(joined) & (a->nrow_slots - 1); a->row_slots[h]; h = (h + 1) & (a->nrow_slots - 1))
		if (!strcmp(a->row_keys[a->row_slots[h] - 1], joined))
			return a->rows[a->row_slots[h] - 1];
	if (a->nrows == a->rows_cap) {
		a->rows_cap = a->rows_cap ? 2 * a->rows_cap : 64;
		if (!(a->rows = realloc(a->rows, a->rows_cap * sizeof *a->rows)) ||
		    !(a->row_keys = realloc(a->row_keys, a->rows_cap * sizeof *a->row_keys)))
			abort();
	}
	r = xcalloc(1, sizeof *r);
	for (int k = 0; k < AN_NKEYS; k++)
		if (a->opts.by & (1u << k))
			r->key[k] = xstrdup(kv[k] ? kv[k] : "-");
	r->bucket = bucket;
	r->level = level;
	a->rows[a->nrows] = r;
	a->row_keys[a->nrows] = xstrdup(joined);
	a->row_slots[h] = ++a->nrows;
	return r;
}

char *an_run_key(int runs, const char *host, const char *path, const char *proc)
{
	char *full, *key;
	if (asprintf(&full, "%s\x1f%s%s%s", host, path, proc ? "\x1e" : "", proc ? proc : "") < 0)
		abort();
	if (runs == AN_RUNS_FULL)
		return full;
	key = an_run_of(runs, full);
	free(full);
	return key;
}

char *an_run_of(int runs, const char *full)
{
	const char *path = strchr(full, '\x1f'), *proc;
	size_t host, n;
	char *key, *copy;
	if (!path || runs == AN_RUNS_FULL)
		return xstrdup(full);
	host = (size_t)(path++ - full);
	proc = strchr(path, '\x1e');
	n = proc ? (size_t)(proc - path) : strlen(path);
	if (runs == AN_RUNS_PROCESS && proc)
		n = asprintf(&key, "%.*s\x1f%s", (int)host, full, proc + 1);
	else if (runs == AN_RUNS_DIR) {
		copy = xcalloc(1, n + 1);
		memcpy(copy, path, n);
		n = asprintf(&key, "%.*s\x1f%s", (int)host, full, dirname(copy));
		free(copy);
	} else
		n = asprintf(&key, "%.*s\x1f%.*s", (int)host, full, (int)n, path);
	if ((int)n < 0)
		abort();
	return key;
}

/* Notes that a file of TSC frequency HZ (0: unknown) fed row R. Processes
 * of one host calibrate their own frequency and differ by some parts per
 * million: the row keeps the midpoint of the extremes while they agree
 * within AN_HZ_AGREE, else 0 (and r->hz_min, r->hz_max say why). */
void note_hz(struct an_row *r, uint64_t hz)
{
	if (!r->hz_set) {
		r->hz_min = r->hz_max = hz;
		r->hz_set = 1;
	} else {
		r->hz_min = hz < r->hz_min ? hz : r->hz_min;
		r->hz_max = hz > r->hz_max ? hz : r->hz_max;
	}
	r->hz = an_hz_agree(r->hz_min, r->hz_max);
}

uint64_t an_hz_agree(uint64_t lo, uint64_t hi)
{
	if (!lo || (double)(hi - lo) > AN_HZ_AGREE * (double)lo)
		return 0;
	return lo + (hi - lo) / 2;
}

struct an_row *an_row_of(struct an *a, char *const key[AN_NKEYS], int bucket)
{
	return row_for(a, key, bucket, 0);
}

struct an_row *an_row_at(struct an *a, char *const key[AN_NKEYS], int bucket, unsigned level)
{
	return row_for(a, key, bucket, level);
}

void an_row_hz(struct an_row *r, uint64_t lo, uint64_t hi)
{
	note_hz(r, lo);
	note_hz(r, hi);
}

/* Adds the values of row F to row R (the SLOWEST slowest pairs of both).
 * Returns -1 out of memory, else 0. */
int add_row(struct an_row *r, const struct an_row *f, unsigned slowest)
{
	if (f->self_split && !r->self_split && an_row_split(r) < 0)   /* before R's h takes F's */
		return -1;
	if (r->self_split && hist_merge(&r->self, an_row_self(f)) < 0)
		return -1;
	if (hist_merge(&r->h, &f->h) < 0 || hist_merge(&r->span, &f->span) < 0)
		return -1;
	if (f->unit && (!r->unit || strcmp(r->unit, f->unit))) {
		char *u = xstrdup(r->unit ? "unit" : f->unit);
		free(r->unit);
		r->unit = u;
	}
	slow_merge(r, f, slowest);
	r->cycles += f->cycles;
	r->self_cycles += f->self_cycles;
	r->units += f->units;
	r->empty += f->empty;
	r->empty_diffed += f->empty_diffed;
	r->entries += f->entries;
	if (f->hz_set) {
		note_hz(r, f->hz_min);
		note_hz(r, f->hz_max);
	}
	return 0;
}

/* Zeroes the values of row R, keeping its keys and frequencies. */
void clear_row(struct an_row *r)
{
	hist_free(&r->h);
	memset(&r->h, 0, sizeof r->h);
	hist_free(&r->self);
	memset(&r->self, 0, sizeof r->self);
	r->self_split = 0;
	hist_free(&r->span);
	memset(&r->span, 0, sizeof r->span);
	slow_free(r);
	r->cycles = r->units = r->self_cycles = 0;
	r->empty = r->empty_diffed = r->entries = 0;
}

/* The cpu and numa key values of entry E ("?": unknown). */
void cpu_numa(const tl_entry *e, char cpu[16], char numa[16])
{
	snprintf(cpu, 16, e->cpu == 0xfff ? "?" : "%u", (unsigned)e->cpu);
	snprintf(numa, 16, e->numa == 0xf && e->cpu == 0xfff ? "?" : "%u", (unsigned)e->numa);
}

/* The key values of entry E of event EV in the current file. */
static void keys_of(const struct an *a, const struct an_ev *ev, const char *event,
		    const tl_entry *e, char *kv[AN_NKEYS], char cpu[16], char numa[16])
{
	cpu_numa(e, cpu, numa);
	kv[AN_EVENT] = (char *)event;
	kv[AN_APP] = ev->app;
	kv[AN_PROCESS] = (char *)a->file.process;
	kv[AN_CPU] = cpu;
	kv[AN_NUMA] = numa;
	kv[AN_HOST] = (char *)a->file.host;
	kv[AN_GROUP] = (char *)a->file.group;
	kv[AN_BUCKET] = NULL;
	kv[AN_RUN] = (char *)a->file.run;
	kv[AN_THREAD] = (char *)(e->thread < a->nthread_keys ? a->thread_keys[e->thread] : "-");
}

struct an_row *find_row(struct an *a, struct an_ev *ev, const char *event,
			       const tl_entry *e, int bucket)
{
	char *kv[AN_NKEYS], cpu[16], numa[16];
	keys_of(a, ev, event, e, kv, cpu, numa);
	kv[AN_BUCKET] = (char *)an_bucket_label(a, bucket);
	if (ev->bucket_rows && ev->row_thread != e->thread)   /* another thread's rows */
		memset(ev->bucket_rows, 0, (a->opts.nedges + 1) * sizeof *ev->bucket_rows);
	ev->row = row_for(a, kv, bucket, ev->pair_level);
	ev->row_aux = e->aux;
	ev->row_thread = e->thread;
	ev->row_bucket = bucket;
	note_hz(ev->row, a->file.tsc_hz);
	if (a->opts.nedges && !ev->bucket_rows) {   /* the rows of every bucket, remembered */
		ev->bucket_rows = xcalloc(a->opts.nedges + 1, sizeof *ev->bucket_rows);
		ev->bucket_aux = xcalloc(a->opts.nedges + 1, sizeof *ev->bucket_aux);
	}
	if (ev->bucket_rows) {
		ev->bucket_rows[bucket + 1] = ev->row;
		ev->bucket_aux[bucket + 1] = e->aux;
	}
	return ev->row;
}

const char *an_bucket_label(const struct an *a, int i)
{
	return i >= 0 && (size_t)i < a->opts.nedges && a->bucket_labels[i] ? a->bucket_labels[i] : "-";
}

/* The --bucket range holding V: [edge i, edge i+1), the last open. */
int bucket_of(const struct an *a, double v)
{
	for (size_t i = 0; i < a->opts.nedges && !isinf(a->opts.edges[i]); i++) {
		double hi = i + 1 < a->opts.nedges ? a->opts.edges[i + 1] : INFINITY;
		if (v >= a->opts.edges[i] && v < hi)
			return (int)i;
	}
	return -1;
}

struct an_unmatched *unmatched_for(struct an *a, const char *label)
{
	for (size_t i = 0; i < a->nunmatched; i++)
		if (!strcmp(a->unmatched[i].label, label))
			return &a->unmatched[i];
	a->unmatched = realloc(a->unmatched, (a->nunmatched + 1) * sizeof *a->unmatched);
	if (!a->unmatched)
		abort();
	memset(&a->unmatched[a->nunmatched], 0, sizeof *a->unmatched);
	a->unmatched[a->nunmatched].label = xstrdup(label);
	return &a->unmatched[a->nunmatched++];
}
