/* spans.c: `timeline dump --spans`, the span table: one row per instance
 * of a begin/end pair (the pairs the logs declare, Snabb's), as the
 * engine's span stage finds them within each thread (analysis/spans.c):
 * its thread and CPU, begin and end, cycles and self cycles, each unit it
 * moved, its parent and depth; in the order they began. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "dump.h"
#include "natural.h"
#include "out.h"
#include "table.h"
#include "usage.h"

/* One span, its strings copied. */
struct srow {
	const char *file, *process;  /* its input's (the list's own copies) */
	char *label, *attr_name, *attr;
	uint32_t thread;
	uint16_t aux;                /* its end's cpu/node word */
	uint64_t id, parent, tsc0, tsc1, cycles, self;
	unsigned depth;
	int64_t t0, t1;              /* begin and end in the view's time */
	int walls;                   /* its log has a wall clock: wall0, wall1 */
	int64_t wall0, wall1;
	unsigned nunits;
	char *unit_name[TL_MAX_ARGS];
	double units[TL_MAX_ARGS];
};

/* The span table being made: the rows of every input, the unit names. */
struct spantab {
	struct view *view;
	struct srow *r;
	size_t n, cap, first;        /* rows; FIRST: the current input's first */
	char **units;                /* every unit name met, each once */
	size_t nunits;
	struct input *in;            /* the input being read ... */
	char *file, *process;        /* ... its names, kept for its rows */
	uint64_t t0;                 /* ... and the time of its first entry */
};

static char *dup(const char *s)
{
	char *d = strdup(s);
	if (!d)
		abort();
	return d;
}

/* Notes unit NAME among S's units. */
static void add_unit(struct spantab *s, const char *name)
{
	for (size_t i = 0; i < s->nunits; i++)
		if (!strcmp(s->units[i], name))
			return;
	if (!(s->units = realloc(s->units, (s->nunits + 1) * sizeof *s->units)))
		abort();
	s->units[s->nunits++] = dup(name);
}

/* The engine's span_fn: keeps span SP of the current input. */
static void keep(void *ctx, const struct an_span *sp)
{
	struct spantab *s = ctx;
	const tl_info *info = &s->in->info;
	struct srow *r;
	if (s->n == s->cap && !(s->r = realloc(s->r, (s->cap = s->cap ? 2 * s->cap : 1024) * sizeof *s->r)))
		abort();
	r = memset(&s->r[s->n++], 0, sizeof *r);
	r->file = s->file;
	r->process = s->process;
	r->label = dup(sp->label);
	r->attr_name = dup(sp->attr_name);
	r->attr = dup(sp->attr);
	r->thread = sp->thread;
	r->aux = sp->aux1;
	r->id = sp->id, r->parent = sp->parent, r->depth = sp->depth;
	r->tsc0 = sp->tsc0, r->tsc1 = sp->tsc1, r->cycles = sp->cycles, r->self = sp->self;
	r->t0 = view_time(s->view, s->in, sp->tsc0, s->t0);
	r->t1 = view_time(s->view, s->in, sp->tsc1, s->t0);
	r->walls = info->format == TL_FORMAT_NATIVE && info->tsc_hz && info->anchor_realtime_ns;
	if (r->walls) {
		r->wall0 = tl_wall_ns(info, sp->tsc0);
		r->wall1 = tl_wall_ns(info, sp->tsc1);
	}
	for (unsigned u = 0; u < sp->nunits; u++) {
		if (isnan(sp->units[u]))
			continue;
		add_unit(s, sp->unit_name[u]);
		r->unit_name[r->nunits] = dup(sp->unit_name[u]);
		r->units[r->nunits++] = sp->units[u];
	}
}

/* The order of spans of one input: by begin, the outer first, then by
 * thread and id. */
static int by_begin(const void *x, const void *y)
{
	const struct srow *a = x, *b = y;
	if (a->tsc0 != b->tsc0)
		return a->tsc0 < b->tsc0 ? -1 : 1;
	if (a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1;
	if (a->thread != b->thread)
		return a->thread < b->thread ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

static const tl_def *def_of(void *ctx, uint16_t msgid)
{
	return input_event(ctx, msgid);
}

/* Says on stderr how many of IN's begins never ended and ends had no
 * begin, as engine E counted them: counted, never made spans. */
static void say_unmatched(struct an *e, const struct input *in)
{
	size_t n;
	const struct an_unmatched *u = an_unmatched_list(e, &n);
	uint64_t begins = 0, ends = 0;
	for (size_t i = 0; i < n; i++) {
		begins += u[i].begins;
		ends += u[i].ends;
	}
	if (begins || ends)
		cli_error("dump", "note: %s: %llu begin%s never ended and %llu end%s had no begin "
			  "(not spans; stats lists them by pair)", in->path,
			  (unsigned long long)begins, begins == 1 ? "" : "s",
			  (unsigned long long)ends, ends == 1 ? "" : "s");
}

int spantab_input(struct spantab *s, struct input *in)
{
	struct an_options o = { .by = 1u << AN_EVENT, .per = "packets", .per_default = 1,
				.pairs = an_default_pairs, .npairs = 3, .span_fn = keep,
				.span_ctx = s };
	struct an *e = an_new(&o);
	struct an_file f = { in->path, in->label, "-", "-", NULL, in->info.tsc_hz, 0,
			     in->info.cursor, 0, &in->info, NULL, 0, in->info.switched_off };
	tl_entry en;
	int64_t t;
	int first = 1;
	s->in = in;
	s->file = dup(in->path);
	s->process = dup(in->label);
	s->first = s->n;
	f.declared = input_pairs(in, &f.ndeclared);
	an_file_begin(e, &f, def_of, in);
	tl_reader_rewind(in->r);
	while (tl_reader_next(in->r, &en)) {
		if (first)
			s->t0 = en.tsc;
		first = 0;
		if (view_takes(s->view, in, &en, s->t0, &t) && an_entry(e, &en) < 0) {
			cli_error("dump", "%s: out of memory", in->path);
			break;
		}
	}
	an_file_end(e);
	say_unmatched(e, in);
	an_free(e);
	qsort(s->r + s->first, s->n - s->first, sizeof *s->r, by_begin);
	if (s->n == s->first) {   /* no row names them */
		free(s->file);
		free(s->process);
	}
	return 0;
}

struct spantab *spantab_new(struct view *v)
{
	struct spantab *s = calloc(1, sizeof *s);
	if (!s)
		abort();
	s->view = v;
	return s;
}

/* A number cell: V (whole) into BUF. */
static char *num(char *buf, size_t size, uint64_t v)
{
	snprintf(buf, size, "%llu", (unsigned long long)v);
	return buf;
}

/* A time cell of the view's unit, T, into BUF. */
static char *time_cell(const struct view *v, char *buf, size_t size, int64_t t)
{
	if (v->time == TIME_WALL)
		tl_format_wall(buf, size, t);
	else
		snprintf(buf, size, "%lld", (long long)t);
	return buf;
}

/* Row R's cells into CELLS (BUF for the numbers), as the columns of
 * spantab_print(): TEXT or CSV and JSON. */
static void cells_of(const struct spantab *s, const struct srow *r, int text, char **cells,
		     char buf[][48])
{
	int c = 0, b = 0;
	char cpu[16], numa[16];
	snprintf(cpu, sizeof cpu, (r->aux & 0xfff) == 0xfff ? "?" : "%u", r->aux & 0xfff);
	snprintf(numa, sizeof numa, r->aux == 0xffff ? "?" : "%u", r->aux >> 12);
	if (!text) {
		cells[c++] = (char *)r->file;
		cells[c++] = (char *)r->process;
	}
	cells[c++] = num(buf[b++], 48, r->thread);
	cells[c++] = strcpy(buf[b++], cpu);
	cells[c++] = strcpy(buf[b++], numa);
	cells[c++] = r->label;
	if (!text)
		cells[c++] = strcmp(r->attr, "-") ? r->attr_name : "-";
	if (text && strcmp(r->attr, "-"))
		snprintf(cells[c++] = buf[b++], 48, "%s=%s", r->attr_name, r->attr);
	else
		cells[c++] = r->attr;
	cells[c++] = num(buf[b++], 48, r->id);
	cells[c++] = r->parent == AN_NO_PARENT ? "-" : num(buf[b++], 48, r->parent);
	cells[c++] = num(buf[b++], 48, r->depth);
	if (text) {
		cells[c++] = time_cell(s->view, buf[b++], 48, r->t0);
		cells[c++] = time_cell(s->view, buf[b++], 48, r->t1);
	} else {
		cells[c++] = num(buf[b++], 48, r->tsc0);
		cells[c++] = num(buf[b++], 48, r->tsc1);
		cells[c++] = r->walls ? (snprintf(buf[b], 48, "%lld", (long long)r->wall0), buf[b++]) : "-";
		cells[c++] = r->walls ? (snprintf(buf[b], 48, "%lld", (long long)r->wall1), buf[b++]) : "-";
	}
	cells[c++] = num(buf[b++], 48, r->cycles);
	cells[c++] = num(buf[b++], 48, r->self);
	for (size_t u = 0; u < s->nunits; u++) {
		unsigned k = 0;
		while (k < r->nunits && strcmp(r->unit_name[k], s->units[u]))
			k++;
		cells[c++] = k < r->nunits ? (cell_value(buf[b], 48, r->units[k], FMT_CSV), buf[b++]) : "-";
	}
}

void spantab_print(struct spantab *s)
{
	static const char *const text_cols[] = { "thread", "cpu", "numa", "span", "attr", "id",
						 "parent", "depth", "begin", "end", "cycles", "self" };
	static const char *const cols[] = { "file", "process", "thread", "cpu", "numa", "span",
					    "attr_name", "attr", "id", "parent", "depth",
					    "begin_tsc", "end_tsc", "begin_ns", "end_ns", "cycles",
					    "self" };
	int text = s->view->format == FMT_TEXT, base = text ? 12 : 17;
	const char *names[17 + 64 + 1];
	struct table *t;
	size_t from = 0;
	qsort(s->units, s->nunits, sizeof *s->units, natural_cmp_ptr);
	if (s->nunits > 64)
		s->nunits = 64;
	memcpy(names, text ? text_cols : cols, (size_t)base * sizeof *names);
	for (size_t u = 0; u < s->nunits; u++)
		names[base + u] = s->units[u];
	t = table_new("spans", names, base + (int)s->nunits);
	for (int c = 0; c < base; c++)   /* names and attributes stay strings: port "0" */
		if (!strcmp(names[c], "file") || !strcmp(names[c], "process") ||
		    !strcmp(names[c], "span") || !strncmp(names[c], "attr", 4))
			table_words(t, c);
	for (size_t i = 0; i < s->n; i++) {
		char buf[32][48], *cells[17 + 64];
		if (s->view->limit && i >= s->view->limit)
			break;
		if (text && (i == from || s->r[i].file != s->r[i - 1].file)) {
			/* text: a table per input, under its name */
			if (table_rows(t)) {
				table_print(t, FMT_TEXT, NULL);
				out_char('\n');
				table_free(t);
				t = table_new("spans", names, base + (int)s->nunits);
				for (int c = 0; c < base; c++)
					if (!strcmp(names[c], "span") || !strcmp(names[c], "attr"))
						table_words(t, c);
			}
			out_str("# ");
			out_str(s->r[i].file);
			out_char('\n');
		}
		cells_of(s, &s->r[i], text, cells, buf);
		table_add(t, cells);
	}
	if (table_rows(t) || !text)
		table_print(t, s->view->format, NULL);
	table_free(t);
}

void spantab_free(struct spantab *s)
{
	const char *last = NULL;
	for (size_t i = 0; i < s->n; i++) {
		struct srow *r = &s->r[i];
		if (r->file != last) {   /* each input's names once */
			free((char *)r->file);
			free((char *)r->process);
			last = r->file;
		}
		free(r->label);
		free(r->attr_name);
		free(r->attr);
		for (unsigned u = 0; u < r->nunits; u++)
			free(r->unit_name[u]);
	}
	for (size_t i = 0; i < s->nunits; i++)
		free(s->units[i]);
	free(s->units);
	free(s->r);
	free(s);
}
