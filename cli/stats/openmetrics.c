/* openmetrics.c: an engine as Prometheus metrics (see openmetrics.h):
 * names and labels escaped as the text format wants them, cumulative `le`
 * buckets summed from the engine's histograms, _sum from their exact sums,
 * and the per-file counters. */
#include <math.h>
#include <string.h>
#include "openmetrics.h"

/* The sub-bucket (of the engine's 128 per power of two) where each quarter
 * of a power of two starts: 2^(k/4) = 1 + s/128, s rounded. */
static const int quarter[OPENMETRICS_PER_OCTAVE] = { 0, 24, 53, 87 };

double openmetrics_edge(int i)
{
	int e = i / OPENMETRICS_PER_OCTAVE, k = i % OPENMETRICS_PER_OCTAVE;
	return ldexp(1 + quarter[k] / 128.0, e);
}

/* The row keys as label names: diff's run is never shown. */
static const char *label_name(int k, const struct an_options *o)
{
	static const char *const names[AN_NKEYS] = { "event", "app",    "process", "cpu", "numa",
						     "host",  "group", "thread",  "batch", NULL };
	return k == AN_EVENT && o->per ? "pair" : names[k];
}

/* S as a label value: backslash, double quote and newline escaped. */
static void put_value(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* The labels of row R of E, then LE (if not NULL), in braces. */
static void put_labels(FILE *f, struct an *e, const struct an_options *o,
		       const struct an_row *r, const char *le)
{
	const char *sep = "";
	fputc('{', f);
	for (int k = 0; k < AN_NKEYS; k++) {
		const char *name = label_name(k, o);
		if (!name || !(o->by & (1u << k)))
			continue;
		fprintf(f, "%s%s=", sep, name);
		put_value(f, k == AN_BUCKET ? an_bucket_label(e, r->bucket) : r->key[k]);
		sep = ",";
	}
	if (le)
		fprintf(f, "%sle=\"%s\"", sep, le);
	fputc('}', f);
}

#define NEDGES (OPENMETRICS_OCTAVES * OPENMETRICS_PER_OCTAVE + 1)

/* The count of H's values below each edge into CUM, in one walk of its
 * buckets and the edges, both in increasing order (each edge is a bucket
 * boundary: a bucket is below it when its lower bound is). */
static void cumulative(const struct hist *h, uint64_t cum[NEDGES])
{
	uint64_t acc = h->zeros;
	int i = 0;
	for (int x = 0; x < HIST_EXPS; x++)
		for (int s = 0; h->block[x] && s < HIST_SUB; s++) {
			double lo = ldexp(1 + s / (double)HIST_SUB, x + HIST_EMIN);
			if (!h->block[x][s])
				continue;
			for (; i < NEDGES && openmetrics_edge(i) <= lo; i++)
				cum[i] = acc;
			acc += h->block[x][s];
		}
	for (; i < NEDGES; i++)
		cum[i] = acc;
}

/* Row R's series of histogram NAME: each cumulative bucket, _sum, _count. */
static void put_histogram(FILE *f, const char *name, struct an *e, const struct an_options *o,
			  const struct an_row *r)
{
	uint64_t cum[NEDGES];
	char le[32];
	cumulative(&r->h, cum);
	for (int i = 0; i < NEDGES; i++) {
		snprintf(le, sizeof le, "%.17g", openmetrics_edge(i));
		fprintf(f, "%s_bucket", name);
		put_labels(f, e, o, r, le);
		fprintf(f, " %llu\n", (unsigned long long)cum[i]);
	}
	fprintf(f, "%s_bucket", name);
	put_labels(f, e, o, r, "+Inf");
	fprintf(f, " %llu\n%s_sum", (unsigned long long)r->h.n, name);
	put_labels(f, e, o, r, NULL);
	fprintf(f, " %.17g\n%s_count", hist_sum(&r->h), name);
	put_labels(f, e, o, r, NULL);
	fprintf(f, " %llu\n", (unsigned long long)r->h.n);
}

/* The histogram's name: timeline_lag_cycles (UNIT NULL), or
 * timeline_cycles_per_UNIT (the unit singular, [a-z0-9_] kept) into NAME. */
static void histogram_name(const char *unit, char *name, size_t size)
{
	char one[64];
	size_t n;
	if (!unit) {
		snprintf(name, size, "timeline_lag_cycles");
		return;
	}
	an_unit_singular(one, sizeof one, unit);
	n = (size_t)snprintf(name, size, "timeline_cycles_per_%s", one);
	for (char *p = name + strlen("timeline_cycles_per_"); p < name + n && p < name + size; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			*p = '_';
}

/* Counter NAME of every file of E that has one (BREATHS: only those with
 * breath figures), V giving its value. */
static void put_counter(FILE *f, struct an *e, const char *name, const char *help, int breaths,
			uint64_t (*v)(const struct an_breaths *))
{
	size_t n;
	const struct an_breaths *b = an_breath_list(e, &n);
	fprintf(f, "# HELP %s %s\n# TYPE %s counter\n", name, help, name);
	for (size_t i = 0; i < n; i++) {
		if (breaths && !b[i].n)
			continue;
		fprintf(f, "%s{process=", name);
		put_value(f, b[i].process);
		fputs(",host=", f);
		put_value(f, b[i].host);
		fputs(",group=", f);
		put_value(f, b[i].group);
		fprintf(f, "} %llu\n", (unsigned long long)v(&b[i]));
	}
}

static uint64_t last_breath(const struct an_breaths *b) { return b->last_breath; }
static uint64_t last_packets(const struct an_breaths *b) { return b->last_packets; }
static uint64_t written(const struct an_breaths *b) { return b->written; }
static uint64_t lost(const struct an_breaths *b) { return b->lost; }

void openmetrics_histogram(FILE *f, struct an *e, const struct an_options *o, const char *over)
{
	char name[96];
	size_t n;
	struct an_row **rows = an_rows(e, &n);
	histogram_name(o->per ? an_unit(e) : NULL, name, sizeof name);   /* declared: top */
	fprintf(f, "# HELP %s %s, over %s (a snapshot: histogram_quantile() of the buckets, "
		"not of their rate)\n# TYPE %s histogram\n", name, o->per ?
		"Cycles per unit of each begin/end pair" :
		"Cycles since the previous entry of the same or a lower level", over, name);
	for (size_t i = 0; i < n; i++)
		put_histogram(f, name, e, o, rows[i]);
}

void openmetrics_counters(FILE *f, struct an *e)
{
	put_counter(f, e, "timeline_breaths_total", "The breath number of the last breath_end "
		    "of each log", 1, last_breath);
	put_counter(f, e, "timeline_packets_total", "The totalpackets of the last breath_end of "
		    "each log", 1, last_packets);
	put_counter(f, e, "timeline_entries_written_total", "Entries each log's writer wrote", 0,
		    written);
	put_counter(f, e, "timeline_entries_lost_total", "Entries written but not read: "
		    "overwritten by the ring before the read, or incomplete", 0, lost);
}

int openmetrics_write(FILE *f, struct an *e, const struct an_options *o)
{
	openmetrics_histogram(f, e, o, "the entries the logs hold now");
	openmetrics_counters(f, e);
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
