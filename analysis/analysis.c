/* analysis.c: the statistics engine (see analysis.h): per-file event
 * caches, Snabb's lag, begin/end pairing with units and batch buckets, the
 * table of rows, and the breath summaries. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "xalloc.h"

const char *const an_key_names[AN_NKEYS] = { "event", "app", "process", "cpu",
					     "numa",  "host", "group",   "bucket", "run" };

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

/* ------------------------------------------------------------------------
 * Per-file event cache
 * ------------------------------------------------------------------------ */

enum { ROLE_NONE, ROLE_BEGIN, ROLE_END };

struct an_ev {
	char *name, *app;            /* the event's name and app key ("-": none) */
	unsigned level;
	int role, rule;              /* begin or end of rule RULE */
	char *label;                 /* its pair's label */
	uint16_t msgid;
	int unknown;                 /* the msgid names no definition */
	int unit, bucket_arg;        /* end: argument indexes of the unit and --bucket ARG */
	char unit_name[128], bucket_name[128];
	int begin_unit, begin_bucket;/* end: the same names' indexes in its begin, -1 none */
	char *begin_key;             /* end: "begin name\x1fattrs" to find its begin */
	struct an_ev *begin;         /* end: its begin once found */
	struct an_ev *next_begin;    /* begin: the file's list of begins */
	char *match_key;             /* begin: "name\x1fattrs" */
	int pending;                 /* begin: seen, not yet ended ... */
	uint64_t begin_tsc;          /* ... at this time ... */
	uint64_t begin_args[TL_MAX_ARGS];   /* ... with these arguments */
	struct an_row *row;          /* the row of its last entry ... */
	uint16_t row_aux;            /* ... for this cpu/node word ... */
	int row_bucket;              /* ... and bucket: most entries reuse it */
	struct an_row **bucket_rows; /* --bucket: the last row of each bucket (index
				      * bucket + 1), made on first use ... */
	uint16_t *bucket_aux;        /* ... and its cpu/node word */
	size_t unmatched;            /* end: its index in the unmatched counts + 1, 0 unset */
	int share;                   /* app pair end: index in the file's shares, -1 unset */
	int series;                  /* pair end: index in the file's series, -1 unset */
	unsigned breath;             /* 1: a breath_end with the summary's arguments, ... */
	int breath_arg, packets_arg, bytes_arg;   /* ... at these indexes */
};

/* A series of (time, value) samples of the current file. */
struct samples {
	struct bin_sample *s;
	size_t n, cap;
};

/* A breath_end's time and running totals, for the throughput over time. */
struct totals {
	uint64_t t, breath, packets, bytes;
};

/* A pair whose end carries no unit, kept until its breath ends. */
struct deferred {
	struct an_ev *ev;
	tl_entry e;
	double cycles;
};

struct an {
	struct an_options opts;      /* as given to an_new(), pointing at the copies below */
	struct an_pair *pairs;       /* the pair rules, copied */
	double *edges;               /* the --bucket edges, copied */
	char **bucket_labels;        /* each --bucket range as shown: "1", "16-31", "64+" */
	/* the rows, hashed by their joined key */
	struct an_row **rows;
	char **row_keys;             /* rows[i]'s key values joined by \x1f */
	size_t nrows, rows_cap;
	size_t *row_slots;           /* open addressing: index into rows + 1, 0 empty */
	size_t nrow_slots;
	/* the current file */
	struct an_file file;
	an_def_fn *def_fn;           /* the caller's definitions of its message ids */
	void *def_ctx;
	struct an_ev **events;       /* its events, by msgid, made on first use */
	struct an_ev *begins;        /* the begin events among them */
	/* for Snabb's lag: the latest entry of each level that no later entry of
	 * a lower or equal level has passed; levels rise from the bottom */
	struct { uint64_t tsc; unsigned level; } lag_stack[10];
	unsigned lag_depth;
	uint64_t unknown_entries;    /* entries of this file whose msgid names nothing */
	/* a record per file, the current one at breaths[nbreaths] */
	struct an_breaths *breaths;
	size_t nbreaths, breaths_cap;
	uint64_t breath_end_first[4];/* the file's first breath_end: tsc, breath, packets, bytes */
	uint64_t breath_end_last[4]; /* ... and its last */
	/* unmatched pairs */
	struct an_unmatched *unmatched;
	size_t nunmatched;
	struct an_found found;       /* what the options found, for warnings */
	/* the breath under way: each app's cycles so far (by share index) */
	double *app_cycles;
	size_t app_cycles_cap;
	int in_breath;               /* a breath_start seen, its breath_end not yet */
	int breath_has_app;          /* an app's pair ended inside it */
	/* ... and its pairs whose end carries no unit, waiting for the breath's */
	struct deferred *deferred;
	size_t ndeferred, deferred_cap;
	/* the current file over time (opts.series): its span, samples per pair,
	 * breath_end running totals; then the timelines of the files done */
	uint64_t file_tsc_min, file_tsc_max;
	int file_has_tsc;            /* an entry was seen: the two above are set */
	struct samples *series_values;   /* each pair's cycles per unit ... */
	struct samples *series_units;    /* ... and (the breath's) units moved */
	struct an_series *series;    /* labels of series_values[i] (and series_units[i]) */
	size_t nseries;              /* series in this file */
	size_t series_made;          /* series_values and series_units made so far */
	struct totals *totals;
	size_t ntotals, totals_cap;
	struct an_timeline *timelines;
	size_t ntimelines;
};

struct an_breaths;
static void free_shares(struct an_breaths *b);
static void free_timeline(struct an_timeline *t);

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

const char *an_bucket_label(const struct an *a, int i)
{
	return i >= 0 && (size_t)i < a->opts.nedges && a->bucket_labels[i] ? a->bucket_labels[i] : "-";
}

static void free_evs(struct an *a)
{
	if (!a->events)
		return;
	for (size_t i = 0; i < 65536; i++) {
		struct an_ev *e = a->events[i];
		if (!e)
			continue;
		free(e->name);
		free(e->app);
		free(e->label);
		free(e->begin_key);
		free(e->match_key);
		free(e->bucket_rows);
		free(e->bucket_aux);
		free(e);
	}
	free(a->events);
	a->events = NULL;
	a->begins = NULL;
}

void an_free(struct an *a)
{
	if (!a)
		return;
	free_evs(a);
	for (size_t i = 0; i < a->found.nargs; i++)
		free(a->found.args[i]);
	for (size_t i = 0; i < a->nrows; i++) {
		for (int k = 0; k < AN_NKEYS; k++)
			free(a->rows[i]->key[k]);
		hist_free(&a->rows[i]->h);
		free(a->rows[i]);
		free(a->row_keys[i]);
	}
	free(a->rows);
	free(a->row_keys);
	free(a->row_slots);
	for (size_t i = 0; i < a->nbreaths; i++) {
		free(a->breaths[i].process);
		free(a->breaths[i].path);
		free(a->breaths[i].group);
		free(a->breaths[i].host);
		free_shares(&a->breaths[i]);
	}
	free(a->breaths);
	free(a->app_cycles);
	free(a->deferred);
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
	free(a->totals);
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

/* Does RULE_NAME name event NAME ("cat.name")? With a dot it must match
 * whole, else the part after the category. */
static int names(const char *rule_name, const char *name)
{
	const char *dot = strchr(name, '.');
	if (strchr(rule_name, '.'))
		return !strcmp(rule_name, name);
	return !strcmp(rule_name, dot ? dot + 1 : name);
}

int an_pair_role(const struct an_pair *rules, size_t n, const char *name, size_t *rule,
		 char *begin, size_t size)
{
	const char *dot = strchr(name, '.');
	for (size_t r = 0; r < n; r++) {
		*rule = r;
		if (names(rules[r].begin, name))
			return 1;
		if (!names(rules[r].end, name))
			continue;
		if (strchr(rules[r].begin, '.'))
			snprintf(begin, size, "%s", rules[r].begin);
		else
			snprintf(begin, size, "%.*s%s", (int)(dot ? dot - name + 1 : 0), name,
				 rules[r].begin);
		return 2;
	}
	return 0;
}

void an_pair_label(char *buf, size_t size, const char *begin_event, const char *end_name)
{
	const char *dot = strchr(begin_event, '.'), *b = dot ? dot + 1 : begin_event;
	const char *e = strchr(end_name, '.') ? strchr(end_name, '.') + 1 : end_name;
	size_t n = 0;
	int cat = (int)(dot ? dot - begin_event : 0);
	while (b[n] && b[n] == e[n])
		n++;
	if (!strncmp(b, e, strlen(b)))
		snprintf(buf, size, "%.*s%s%s", cat, begin_event, dot ? "." : "", b);   /* push/pushed */
	else if (n > 1 && b[n - 1] == '_')
		snprintf(buf, size, "%.*s%s%.*s", cat, begin_event, dot ? "." : "", (int)n - 1, b);
	else
		snprintf(buf, size, "%s/%s", begin_event, e);
}

/* The app of a definition: its attribute app=NAME, else "-". */
static char *app_of(const char *attrs)
{
	const char *p = attrs;
	while (p && *p) {
		size_t n;
		while (*p == ' ')
			p++;
		n = strcspn(p, " ");
		if (n > 4 && !strncmp(p, "app=", 4)) {
			char *s = xcalloc(1, n - 3);
			memcpy(s, p + 4, n - 4);
			return s;
		}
		p += n;
	}
	return xstrdup("-");
}

static int arg_index(const tl_def *d, const char *name)
{
	for (unsigned i = 0; i < d->nargs; i++)
		if (d->args[i] && !strcmp(d->args[i], name))
			return (int)i;
	return -1;
}

/* The argument of D standing for UNIT under rule R: PREFIX+UNIT, UNIT,
 * inUNIT, totalUNIT, outUNIT, the first D has; the name found in *FOUND. */
static int unit_index(const tl_def *d, const struct an_pair *r, const char *unit,
		      char *found, size_t size)
{
	const char *pre[] = { r ? r->prefix : NULL, "", "in", "total", "out" };
	for (int i = 0; i < 5; i++) {
		int k;
		if (!pre[i])
			continue;
		snprintf(found, size, "%s%s", pre[i], unit);
		if ((k = arg_index(d, found)) >= 0)
			return k;
	}
	return -1;
}

/* Adds NAME to the set of argument names pair ends carry (at most 64). */
static void note_arg(struct an_found *f, const char *name)
{
	for (size_t i = 0; i < f->nargs; i++)
		if (!strcmp(f->args[i], name))
			return;
	if (f->nargs < sizeof f->args / sizeof f->args[0])
		f->args[f->nargs++] = xstrdup(name);
}

/* Notes what the pair end EV, of definition D, carries. */
static void note_end(struct an *a, const tl_def *d, const struct an_ev *ev)
{
	a->found.ends++;
	a->found.ends_with_unit += ev->unit >= 0;
	a->found.ends_with_bucket += ev->bucket_arg >= 0;
	for (unsigned i = 0; i < d->nargs; i++)
		note_arg(&a->found, d->args[i]);
}

const struct an_found *an_found(const struct an *a)
{
	return &a->found;
}

static struct an_ev *make_ev(struct an *a, uint16_t msgid)
{
	const tl_def *d = a->def_fn(a->def_ctx, msgid);
	struct an_ev *ev = xcalloc(1, sizeof *ev);
	char buf[256];
	ev->msgid = msgid;
	ev->name = xstrdup(d->known ? d->name : "?");
	ev->unknown = !d->known;
	ev->app = app_of(d->attrs);
	ev->level = d->known && d->level < 10 ? d->level : 9;
	ev->unit = ev->bucket_arg = ev->begin_unit = ev->begin_bucket = ev->share = -1;
	ev->series = -1;
	if (d->known && a->opts.per) {
		for (size_t r = 0; r < a->opts.npairs && ev->role == ROLE_NONE; r++) {
			const struct an_pair *p = &a->pairs[r];
			if (names(p->begin, d->name))
				ev->role = ROLE_BEGIN;
			else if (names(p->end, d->name))
				ev->role = ROLE_END;
			else
				continue;
			ev->rule = (int)r;
			a->found.rules |= 1ull << r;
		}
		if (ev->role == ROLE_BEGIN) {
			snprintf(buf, sizeof buf, "%s\x1f%s", d->name, d->attrs);
			ev->match_key = xstrdup(buf);
			ev->next_begin = a->begins;
			a->begins = ev;
			/* the begin's own indexes, looked up by the end's names later */
		}
		if (ev->role == ROLE_END) {
			const struct an_pair *p = &a->pairs[ev->rule];
			const char *dot = strchr(d->name, '.');
			char unit[128];
			/* the begin's full name: the rule's, or the end's category + it */
			if (strchr(p->begin, '.'))
				snprintf(buf, sizeof buf, "%s\x1f%s", p->begin, d->attrs);
			else
				snprintf(buf, sizeof buf, "%.*s%s\x1f%s", (int)(dot ? dot - d->name + 1 : 0),
					 d->name, p->begin, d->attrs);
			ev->begin_key = xstrdup(buf);
			if (strchr(p->begin, '.'))   /* --pair stage.begin=stage.end */
				snprintf(buf, sizeof buf, "%s", p->begin);
			else
				snprintf(buf, sizeof buf, "%.*s%s", (int)(dot ? dot - d->name + 1 : 0),
					 d->name, p->begin);
			an_pair_label(unit, sizeof unit, buf, d->name);
			ev->label = xstrdup(unit);
			ev->unit = unit_index(d, p, a->opts.per, ev->unit_name, sizeof ev->unit_name);
			if (a->opts.bucket_arg)
				ev->bucket_arg = unit_index(d, p, a->opts.bucket_arg, ev->bucket_name,
							    sizeof ev->bucket_name);
			note_end(a, d, ev);
		}
	}
	if (d->known && !strcmp(strchr(d->name, '.') ? strchr(d->name, '.') + 1 : d->name, "breath_end")) {
		ev->breath_arg = arg_index(d, "breath");
		ev->packets_arg = arg_index(d, "totalpackets");
		ev->bytes_arg = arg_index(d, "totalbytes");
		ev->breath = ev->breath_arg >= 0 && ev->packets_arg >= 0 && ev->bytes_arg >= 0;
	}
	return ev;
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
	a->def_fn = def;
	a->def_ctx = ctx;
	a->events = xcalloc(65536, sizeof *a->events);
	a->lag_depth = 0;
	a->unknown_entries = 0;
	memset(a->breath_end_first, 0, sizeof a->breath_end_first);
	memset(a->breath_end_last, 0, sizeof a->breath_end_last);
	breath_room(a);
	memset(&a->breaths[a->nbreaths], 0, sizeof *a->breaths);
	return 0;
}

/* ------------------------------------------------------------------------
 * Rows
 * ------------------------------------------------------------------------ */

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

/* The row for the current file's key values KV (NULL where not grouped). */
static struct an_row *row_for(struct an *a, char *const kv[AN_NKEYS], int bucket)
{
	char joined[2048];
	size_t len = 0, h;
	struct an_row *r;
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
	a->rows[a->nrows] = r;
	a->row_keys[a->nrows] = xstrdup(joined);
	a->row_slots[h] = ++a->nrows;
	return r;
}

/* Notes that a file of TSC frequency HZ (0: unknown) fed row R. Processes
 * of one host calibrate their own frequency and differ by some parts per
 * million: the row keeps the midpoint of the extremes while they agree
 * within AN_HZ_AGREE, else 0 (and r->hz_min, r->hz_max say why). */
static void note_hz(struct an_row *r, uint64_t hz)
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

/* The cpu and numa key values of entry E ("?": unknown). */
static void cpu_numa(const tl_entry *e, char cpu[16], char numa[16])
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
}

/* The --bucket range holding V: [edge i, edge i+1), the last open. */
/* The row of entry E of EV named EVENT in BUCKET: the one of EV's last
 * entry when the cpu/node word and bucket are the same, else looked up. */
static struct an_row *find_row(struct an *a, struct an_ev *ev, const char *event,
			       const tl_entry *e, int bucket) __attribute__((noinline));

/* The row of entry E of EV: the one its last entry went to, when its cpu/node
 * word and bucket are the same (the common case, kept free of find_row()'s
 * stack frame), else found and remembered. */
static inline struct an_row *cached_row(struct an *a, struct an_ev *ev, const char *event,
					const tl_entry *e, int bucket)
{
	if (ev->row && ev->row_aux == e->aux && ev->row_bucket == bucket)
		return ev->row;
	if (ev->bucket_rows && ev->bucket_rows[bucket + 1] && ev->bucket_aux[bucket + 1] == e->aux) {
		ev->row = ev->bucket_rows[bucket + 1];
		ev->row_aux = e->aux;
		ev->row_bucket = bucket;
		return ev->row;
	}
	return find_row(a, ev, event, e, bucket);
}

static struct an_row *find_row(struct an *a, struct an_ev *ev, const char *event,
			       const tl_entry *e, int bucket)
{
	char *kv[AN_NKEYS], cpu[16], numa[16];
	keys_of(a, ev, event, e, kv, cpu, numa);
	kv[AN_BUCKET] = (char *)an_bucket_label(a, bucket);
	ev->row = row_for(a, kv, bucket);
	ev->row_aux = e->aux;
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

static int bucket_of(const struct an *a, double v)
{
	for (size_t i = 0; i < a->opts.nedges && !isinf(a->opts.edges[i]); i++) {
		double hi = i + 1 < a->opts.nedges ? a->opts.edges[i + 1] : INFINITY;
		if (v >= a->opts.edges[i] && v < hi)
			return (int)i;
	}
	return -1;
}

static struct an_unmatched *unmatched_for(struct an *a, const char *label)
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

/* Is EV of the rule breath_start/breath_end, built in last of the rules? */
static inline int is_breath(const struct an *a, const struct an_ev *ev)
{
	return ev->rule == (int)a->opts.npairs - 1;
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
static void share_begin(struct an *a, const struct an_ev *ev)
{
	if (!is_breath(a, ev))
		return;
	a->in_breath = 1;
	a->breath_has_app = 0;
	a->ndeferred = 0;
	for (size_t i = 0; i < a->breaths[a->nbreaths].nshares; i++)
		a->app_cycles[i] = 0;
}

/* ---- the current file over time (opts.series) ---- */

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
static int series_add(struct an *a, struct an_ev *ev, uint64_t t, double v, double units)
{
	int k = ev->series >= 0 ? ev->series : series_of(a, ev);
	if (samples_add(&a->series_values[k], t, v) < 0)
		return -1;
	return is_breath(a, ev) ? samples_add(&a->series_units[k], t, units) : 0;
}

/* ---- pairs ---- */

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
	r->cycles += cycles;
	r->units += units;
	if (a->opts.series && series_add(a, ev, e->tsc, cycles / units, units) < 0)
		return -1;
	return hist_add(&r->h, cycles / units);
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
static int pair_end(struct an *a, struct an_ev *ev, const tl_entry *e)
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

/* The current file's span over time: entries at T come in. */
static inline void note_time(struct an *a, uint64_t t)
{
	if (!a->file_has_tsc || t < a->file_tsc_min)
		a->file_tsc_min = t;
	if (!a->file_has_tsc || t > a->file_tsc_max)
		a->file_tsc_max = t;
	a->file_has_tsc = 1;
}

/* Keeps a breath_end's time and running totals V (tsc, breath, packets,
 * bytes) for the throughput over time. Returns -1 out of memory, else 0. */
static int add_totals(struct an *a, const uint64_t v[4])
{
	if (a->ntotals == a->totals_cap) {
		size_t cap = a->totals_cap ? 2 * a->totals_cap : 1024;
		struct totals *t = realloc(a->totals, cap * sizeof *t);
		if (!t)
			return -1;
		a->totals = t;
		a->totals_cap = cap;
	}
	a->totals[a->ntotals++] = (struct totals){ v[0], v[1], v[2], v[3] };
	return 0;
}

int an_entry(struct an *a, const tl_entry *e)
{
	struct an_ev *ev = a->events[e->msgid];
	if (!ev)
		ev = a->events[e->msgid] = make_ev(a, e->msgid);
	a->unknown_entries += (unsigned)ev->unknown;
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
		if (ev->role == ROLE_BEGIN) {
			if (ev->pending)
				unmatched_for(a, ev->name)->begins++;
			ev->pending = 1;
			ev->begin_tsc = e->tsc;
			memcpy(ev->begin_args, e->args, sizeof ev->begin_args);
			share_begin(a, ev);
			return 0;
		}
		if (ev->role == ROLE_END)
			return pair_end(a, ev, e);
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

static void free_shares(struct an_breaths *b)
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

/* The number of bins for N samples: N / AN_PER_BIN, from 1 to opts.series. */
static size_t nbins_for(const struct an *a, size_t n)
{
	n /= AN_PER_BIN;
	return n < 1 ? 1 : n > a->opts.series ? a->opts.series : n;
}

/* Adds the change between consecutive breath_end totals to the bins of T. */
static void bin_totals(const struct an *a, struct an_timeline *t)
{
	for (size_t i = 1; i < a->ntotals; i++) {
		const struct totals *p = &a->totals[i - 1], *c = &a->totals[i];
		size_t k = bin_index(c->t, t->t0, t->span, t->nbins);
		t->breaths[k] += (double)(int64_t)(c->breath - p->breath);
		t->packets[k] += (double)(int64_t)(c->packets - p->packets);
		t->bytes[k] += (double)(int64_t)(c->bytes - p->bytes);
		t->cycles[k] += (double)(int64_t)(c->t - p->t);
	}
}

/* Cuts the current file's series into bins, as a new timeline of A, and
 * empties them. Returns -1 out of memory, else 0. */
static int make_timeline(struct an *a)
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
	t->nbins = nbins_for(a, a->ntotals);
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
	a->nseries = a->ntotals = 0;
	return rc;
}

/* Fills B, the current file's breath summary, from the first and last
 * breath_end and the file's names. */
static void fill_breaths(const struct an *a, struct an_breaths *b)
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
	a->in_breath = 0;
	a->ndeferred = 0;
	if (a->opts.series && a->file_has_tsc && (a->nseries || a->ntotals))
		rc = make_timeline(a);
	a->file_has_tsc = 0;
	/* every file has a record: its entries' counters; the breath figures
	 * when it has breath_end entries */
	fill_breaths(a, b);
	a->nbreaths++;
	/* begins still pending at the end of the file never ended */
	for (struct an_ev *ev = a->begins; ev; ev = ev->next_begin)
		if (ev->pending)
			unmatched_for(a, ev->name)->begins++;
	free_evs(a);
	return rc;
}

/* ------------------------------------------------------------------------
 * Results
 * ------------------------------------------------------------------------ */

static const struct an *sort_an;

/* Numbers compare as numbers, "-" and "?" last, the rest as strings. */
static int cmp_key(const char *x, const char *y)
{
	char *ex, *ey;
	double a = strtod(x, &ex), b = strtod(y, &ey);
	if (ex != x && !*ex && ey != y && !*ey)
		return a < b ? -1 : a > b;
	return strcmp(x, y);
}

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
			c = cmp_key(x->key[k], y->key[k]);
		if (c)
			return c;
	}
	return 0;
}

static int cmp_rows(const void *p, const void *q)
{
	return an_row_cmp(sort_an, *(struct an_row *const *)p, *(struct an_row *const *)q);
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
	*n = a->nrows;
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
	return strcmp(((const struct an_unmatched *)x)->label, ((const struct an_unmatched *)y)->label);
}

/* B, a copy of a breath summary: its strings, shares and split by CPU
 * copied too. */
static void copy_breaths(struct an_breaths *b)
{
	b->process = xstrdup(b->process);
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

static void free_timeline(struct an_timeline *t)
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
static void merge_timelines(struct an *into, const struct an *from)
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

/* Adds the values of row F to row R. Returns -1 out of memory, else 0. */
static int add_row(struct an_row *r, const struct an_row *f)
{
	if (hist_merge(&r->h, &f->h) < 0)
		return -1;
	r->cycles += f->cycles;
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

struct an_row *an_row_of(struct an *a, char *const key[AN_NKEYS], int bucket)
{
	return row_for(a, key, bucket);
}

void an_row_hz(struct an_row *r, uint64_t lo, uint64_t hi)
{
	note_hz(r, lo);
	note_hz(r, hi);
}

const struct an_options *an_options_of(const struct an *a)
{
	return &a->opts;
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

int an_merge(struct an *into, const struct an *from)
{
	int bucket = (into->opts.by >> AN_BUCKET) & 1;   /* not when projected away */
	for (size_t i = 0; i < from->nrows; i++) {
		const struct an_row *f = from->rows[i];
		if (add_row(row_for(into, f->key, bucket ? f->bucket : -1), f) < 0)
			return -1;
	}
	add_breaths(into, from->breaths, from->nbreaths);
	merge_timelines(into, from);
	an_add_found(into, &from->found);
	for (size_t i = 0; i < from->nunmatched; i++)
		an_add_unmatched(into, from->unmatched[i].label, from->unmatched[i].ends,
				 from->unmatched[i].begins);
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
	if (!(a = an_new(&o)))
		return NULL;
	if (an_merge(a, from) < 0) {
		an_free(a);
		return NULL;
	}
	return a;
}

const struct an_unmatched *an_unmatched_list(struct an *a, size_t *n)
{
	if (a->nunmatched)
		qsort(a->unmatched, a->nunmatched, sizeof *a->unmatched, by_label);
	*n = a->nunmatched;
	return a->unmatched;
}

/* Zeroes the values of row R, keeping its keys and frequencies. */
static void clear_row(struct an_row *r)
{
	hist_free(&r->h);
	memset(&r->h, 0, sizeof r->h);
	r->cycles = r->units = 0;
	r->empty = r->empty_diffed = r->entries = 0;
}

/* Cuts the current file's breath summary into INTO and starts the next
 * one at the last breath_end. */
static void cut_breaths(struct an *a, struct an *into)
{
	struct an_breaths *b = &a->breaths[a->nbreaths], s = *b;
	if (b->n > 0 || b->share_breaths > 0) {
		fill_breaths(a, &s);
		add_breaths(into, &s, 1);
		free(s.process);
		free(s.path);
		free(s.group);
		free(s.host);
	}
	memcpy(a->breath_end_first, a->breath_end_last, sizeof a->breath_end_first);
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
		if (add_row(row_for(into, r->key, r->bucket), r) < 0)
			return -1;
		clear_row(r);
	}
	cut_breaths(a, into);
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
	a->in_breath = 0;
	for (struct an_ev *ev = a->begins; ev; ev = ev->next_begin)
		ev->pending = 0;
}
