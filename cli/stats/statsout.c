/* statsout.c: what `stats` shows of an engine's rows: the lag, per-unit
 * and breath tables, each row's histogram drawn on a log scale, and the
 * begin/end pairs that did not match. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"
#include "natural.h"
#include "out.h"
#include "rowkey.h"
#include "statsout.h"
#include "view.h"

/* CYCLES in ns at HZ; NaN when the TSC frequency is unknown. */
static double ns(double cycles, uint64_t hz)
{
	return hz ? cycles * 1e9 / (double)hz : NAN;
}

/* Says on stderr why rows have no ns values, if any lack them: no TSC
 * frequency in a log (Snabb's), or frequencies that disagree. */
static void why_no_ns(struct an_row **rows, size_t n)
{
	uint64_t lo = 0, hi = 0, unknown = 0, mixed = 0;
	for (size_t i = 0; i < n; i++) {
		const struct an_row *r = rows[i];
		if (r->hz || !r->h.n)
			continue;
		if (!r->hz_min) {
			unknown++;
			continue;
		}
		mixed++;
		lo = !lo || r->hz_min < lo ? r->hz_min : lo;
		hi = r->hz_max > hi ? r->hz_max : hi;
	}
	if (unknown)
		fprintf(stderr, "timeline stats: note: no ns values in %llu row%s: a log has no TSC "
			"frequency (Snabb's logs have none)\n", (unsigned long long)unknown,
			unknown == 1 ? "" : "s");
	if (mixed)
		fprintf(stderr, "timeline stats: note: no ns values in %llu row%s: their logs' TSC "
			"frequencies differ by more than 0.1%% (%llu to %llu Hz)\n",
			(unsigned long long)mixed, mixed == 1 ? "" : "s", (unsigned long long)lo,
			(unsigned long long)hi);
}

struct table *statsout_lag(struct an *e, const struct an_options *o, int format)
{
	static const char *const stat_names[] = { "n", "min", "p50", "p90", "p99", "p99.9",
						  "max", "mean", "stddev" };
	static const char *const ns_all[] = { "min_ns", "p50_ns", "p90_ns", "p99_ns", "p99.9_ns",
					      "max_ns", "mean_ns", "stddev_ns" };
	const char *cols[AN_NKEYS + 20];
	char buf[20][32], *cells[AN_NKEYS + 20];
	int nk = rowkey_names(e, o, cols), nc = nk, full = format != FMT_TEXT;
	size_t nrows;
	struct an_row **rows = an_rows(e, &nrows);
	struct table *t;
	for (int i = 0; i < 9; i++)
		cols[nc++] = stat_names[i];
	if (full)
		for (int i = 0; i < 8; i++)
			cols[nc++] = ns_all[i];
	else
		cols[nc++] = "p50_ns", cols[nc++] = "p99_ns";
	t = rowkey_table("lag", o, cols, nc);
	for (size_t i = 0; i < nrows; i++) {
		const struct an_row *r = rows[i];
		const struct hist *h = &r->h;
		double v[9] = { (double)h->n, h->min, hist_quantile(h, 0.5), hist_quantile(h, 0.9),
				hist_quantile(h, 0.99), hist_quantile(h, 0.999), h->max, hist_mean(h),
				hist_stddev(h) };
		int c = rowkey_cells(e, o, r, cells), b = 0;
		if (h->n == 0)
			continue;
		for (int j = 0; j < 9; j++) {
			cell_value(buf[b], sizeof buf[b], v[j], format);
			cells[c++] = buf[b++];
		}
		for (int j = 1; j < 9; j++) {
			if (!full && j != 2 && j != 4)
				continue;
			cell_value(buf[b], sizeof buf[b], ns(v[j], r->hz), format);
			cells[c++] = buf[b++];
		}
		table_add(t, cells);
	}
	why_no_ns(rows, nrows);
	return t;
}

/* The self table's note: its ns columns stay the span's whole latency. */
#define SELF_NOTE " (its cycles less those of the pairs inside it; p50_ns and p99_ns: the whole span)"

struct table *statsout_per(struct an *e, const struct an_options *o, char *title, size_t size,
			   int format, int self)
{
	const char *cols[AN_NKEYS + 12];
	char buf[12][32], *cells[AN_NKEYS + 12], per[96], one[64];
	int nc = rowkey_names(e, o, cols);
	size_t nrows;
	struct an_row **rows = an_rows(e, &nrows);
	struct table *t;
	an_cycles_per(per, sizeof per, o->per);
	an_unit_singular(one, sizeof one, o->per);
	snprintf(title, size, "%scycles per %s, per begin/end pair%s", self ? "self " : "", one,
		 self ? " (its cycles less those of the pairs inside it)" : "");
	cols[nc++] = "pairs";
	cols[nc++] = o->per;
	cols[nc++] = per;
	cols[nc++] = "p50";
	cols[nc++] = "p90";
	cols[nc++] = "p99";
	cols[nc++] = "empty";
	t = rowkey_table("per", o, cols, nc);
	for (size_t i = 0; i < nrows; i++) {
		const struct an_row *r = rows[i];
		const struct hist *h = self ? an_row_self(r) : &r->h;
		double cy = self ? r->self_cycles : r->cycles;
		double v[7] = { (double)r->h.n, r->units, r->units > 0 ? cy / r->units : NAN,
				hist_quantile(h, 0.5), hist_quantile(h, 0.9), hist_quantile(h, 0.99),
				(double)r->empty };
		int c = rowkey_cells(e, o, r, cells);
		if (r->h.n == 0)
			v[3] = v[4] = v[5] = NAN;
		for (int j = 0; j < 7; j++) {
			cell_value(buf[j], sizeof buf[j], v[j], format);
			cells[c++] = buf[j];
		}
		table_add(t, cells);
	}
	return t;
}

/* PATH as one shell word into BUF: as it is, or single-quoted. */
static void shell_word(const char *path, char *buf, size_t size)
{
	size_t n = 0;
	if (strspn(path, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+:@%,=") ==
	    strlen(path)) {
		snprintf(buf, size, "%s", path);
		return;
	}
	n += (size_t)snprintf(buf, size, "'");
	for (const char *p = path; *p && n + 5 < size; p++)
		n += (size_t)snprintf(buf + n, size - n, *p == '\'' ? "'\\''" : "%c", *p);
	snprintf(buf + n, size - n, "'");
}

/* A + B, held to the range of int64_t (a summary's walls are untrusted). */
static int64_t add_held(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		return b < 0 ? INT64_MIN : INT64_MAX;
	return r;
}

void statsout_dump_line(const struct an_slow *s, char *buf, size_t size)
{
	char from[64], to[48], path[1024];
	uint64_t c = s->cycles < 0x1p64 ? (uint64_t)s->cycles : UINT64_MAX;
	size_t n;
	shell_word(s->path, path, sizeof path);
	if (s->walls) {
		int64_t d;
		if (__builtin_sub_overflow(s->wall1, s->wall0, &d))
			d = s->wall1 < s->wall0 ? INT64_MIN : INT64_MAX;
		d = d < 0 ? 0 : d;   /* a pair that ends before it begins: its own span */
		n = (size_t)snprintf(from, sizeof from, "--time wall --from ");   /* as the table */
		tl_format_wall(from + n, sizeof from - n, add_held(s->wall0, -d));
		tl_format_wall(to, sizeof to, add_held(s->wall1, d));
	} else {
		snprintf(from, sizeof from, "--from %llu",
			 (unsigned long long)(s->since0 > c ? s->since0 - c : 0));
		snprintf(to, sizeof to, "%llu", (unsigned long long)(s->since1 + c));
	}
	if (!s->host)
		n = (size_t)snprintf(buf, size, "timeline dump %s --to %s", from, to);
	else if (*s->host && strcmp(s->host, "-"))   /* read from a summary: another host's path */
		n = (size_t)snprintf(buf, size, "on %.256s: timeline dump %s --to %s", s->host,
				     from, to);
	else
		n = (size_t)snprintf(buf, size, "on its host: timeline dump %s --to %s", from, to);
	if (n < size && s->tsc0 <= s->tsc1)   /* its begin and end marked, a few entries
					       * around them (dump --mark); a summary may lie */
		snprintf(buf + n, size - n, " --mark %llu,%llu %s", (unsigned long long)s->tsc0,
			 (unsigned long long)s->tsc1, path);
	else if (n < size)
		snprintf(buf + n, size - n, " %s", path);
}

struct table *statsout_slowest(struct an *e, const struct an_options *o, int format)
{
	const char *cols[AN_NKEYS + 12];
	char v[5][32], per[96], wall[48], dump[1300], *cells[AN_NKEYS + 12];
	const char *unit = an_unit(e);
	int nk = rowkey_names(e, o, cols), nc = nk;
	size_t nrows;
	struct an_row **rows = an_rows(e, &nrows);
	struct table *t;
	an_cycles_per(per, sizeof per, unit);
	int own[3];   /* process, cpu and numa: not when they are keys already */
	for (int k = 0; k < 3; k++)
		own[k] = !(o->by & 1u << (k ? AN_CPU + k - 1 : AN_PROCESS));
	cols[nc++] = "rank";
	cols[nc++] = per;
	cols[nc++] = "cycles";
	cols[nc++] = unit;
	for (int k = 0; k < 3; k++)
		if (own[k])
			cols[nc++] = (const char *[]){ "process", "cpu", "numa" }[k];
	cols[nc++] = "wall";
	cols[nc++] = "dump";
	t = rowkey_table("slowest", o, cols, nc);
	for (size_t i = 0; i < nrows; i++)
		for (size_t k = 0; k < rows[i]->nslow; k++) {
			const struct an_slow *s = &rows[i]->slow[k];
			int c = rowkey_cells(e, o, rows[i], cells);
			snprintf(v[0], sizeof v[0], "%zu", k + 1);
			cell_value(v[1], sizeof v[1], s->per_unit, format);
			cell_value(v[2], sizeof v[2], s->cycles, format);
			cell_value(v[3], sizeof v[3], s->units, format);
			if (s->walls)
				tl_format_wall(wall, sizeof wall, s->wall0);
			else
				snprintf(wall, sizeof wall, "-");
			statsout_dump_line(s, dump, sizeof dump);
			cells[c++] = v[0];
			cells[c++] = v[1];
			cells[c++] = v[2];
			cells[c++] = v[3];
			char *where[3] = { s->process, (char *)s->cpu, (char *)s->numa };
			for (int w = 0; w < 3; w++)
				if (own[w])
					cells[c++] = where[w];
			cells[c++] = wall;
			cells[c++] = dump;
			table_add(t, cells);
		}
	return t;
}

/* Most cycles first; apps of equal cycles in natural order (natural.h). */
static int by_cycles(const void *x, const void *y)
{
	const struct an_share *p = x, *q = y;
	if (p->cycles != q->cycles)
		return p->cycles < q->cycles ? 1 : -1;
	return natural_cmp(p->app, q->app);
}

/* Adds the row PROCESS APP SHARE% CYCLES BREATHS to T. */
static void share_row(struct table *t, const struct an_breaths *b, const char *app,
		      double cycles, int format)
{
	char pct[32], cy[32], n[32];
	cell_value(pct, sizeof pct, 100 * cycles / b->share_cycles, format);
	cell_value(cy, sizeof cy, cycles, format);
	snprintf(n, sizeof n, "%llu", (unsigned long long)b->share_breaths);
	table_add(t, (char *[]){ b->process, (char *)app, pct, cy, n });
}

/* Are E's breaths with shares all of declared breaths (none: 0)? */
static int declared_shares(struct an *e)
{
	size_t n, k = 0;
	const struct an_breaths *b = an_breath_list(e, &n);
	for (size_t i = 0; i < n; i++)
		if (b[i].share_breaths && !b[i].unit)
			return 0;
		else if (b[i].share_breaths)
			k++;
	return k > 0;
}

const char *statsout_overhead_title(struct an *e)
{
	return declared_shares(e) ? "where the cycles go: each kind of span's share of the cycles "
				    "of the breaths it ran in, by its own cycles, per process"
				  : "where the cycles go: each app's share of the cycles of the breaths "
				    "it ran in, per process";
}

struct table *statsout_overhead(struct an *e, int format)
{
	const char *cols[] = { "process", declared_shares(e) ? "span" : "app", "share%", "cycles",
			       "breaths" };
	size_t n;
	const struct an_breaths *b = an_breath_list(e, &n);
	struct table *t = table_new("overhead", cols, 5);
	table_words(t, 1);   /* an attribute's value: a string, port "0" too */
	for (size_t i = 0; i < n; i++) {
		double rest = b[i].share_cycles;
		if (!b[i].share_breaths || !(b[i].share_cycles > 0))
			continue;
		/* sorted in a copy: the engine's order indexes each where's apps */
		struct an_share *sh = malloc((b[i].nshares + 1) * sizeof *sh);
		if (!sh)
			abort();
		memcpy(sh, b[i].shares, b[i].nshares * sizeof *sh);
		qsort(sh, b[i].nshares, sizeof *sh, by_cycles);
		for (size_t k = 0; k < b[i].nshares; k++) {
			share_row(t, &b[i], sh[k].app, sh[k].cycles, format);
			rest -= sh[k].cycles;
		}
		free(sh);
		/* what no span inside the breath accounts for: Snabb's breath
		 * outside its apps, a declared breath's own cycles */
		share_row(t, &b[i], b[i].unit ? "(unattributed)" : "(no app)", rest > 0 ? rest : 0,
			  format);
	}
	return t;
}

size_t statsout_units(struct an *e, const char **units, size_t max)
{
	size_t nrows, n = 0;
	struct an_row **rows = an_rows(e, &nrows);
	for (size_t i = 0; i < nrows; i++) {
		size_t k = 0;
		if (!rows[i]->unit || (!rows[i]->h.n && !rows[i]->empty))
			continue;
		while (k < n && strcmp(units[k], rows[i]->unit))
			k++;
		if (k == n && n < max)
			units[n++] = rows[i]->unit;
	}
	qsort(units, n, sizeof *units, natural_cmp_ptr);
	return n;
}

struct table *statsout_declared(struct an *e, const struct an_options *o, const char *unit,
				char *title, size_t size, int format, int self)
{
	const char *cols[AN_NKEYS + 14];
	char buf[12][32], *cells[AN_NKEYS + 14], per[96], one[64];
	int nc = rowkey_names(e, o, cols), nk = nc;
	size_t nrows;
	struct an_row **rows = an_rows(e, &nrows);
	struct table *t;
	if (unit) {
		an_cycles_per(per, sizeof per, unit);
		an_unit_singular(one, sizeof one, unit);
		snprintf(title, size, "%scycles per %s, per begin/end pair%s", self ? "self " : "", one,
			 self ? SELF_NOTE : "");
	} else {
		snprintf(title, size, "%scycles per unit, per begin/end pair, each in its own unit%s",
			 self ? "self " : "", self ? SELF_NOTE : "");
		cols[nc++] = "unit";
	}
	cols[nc++] = "pairs";
	cols[nc++] = unit ? unit : "units";
	cols[nc++] = unit ? per : "cycles_per_unit";
	cols[nc++] = "p50";
	cols[nc++] = "p90";
	cols[nc++] = "p99";
	cols[nc++] = "empty";
	cols[nc++] = "p50_ns";
	cols[nc++] = "p99_ns";
	t = rowkey_table("declared", o, cols, nc);
	for (size_t i = 0; i < nrows; i++) {
		const struct an_row *r = rows[i];
		const struct hist *h = self ? an_row_self(r) : &r->h;
		double cy = self ? r->self_cycles : r->cycles;
		double v[9] = { (double)r->h.n, r->units, r->units > 0 ? cy / r->units : NAN,
				hist_quantile(h, 0.5), hist_quantile(h, 0.9), hist_quantile(h, 0.99),
				(double)r->empty,
				ns(hist_quantile(&r->span, 0.5), r->hz),
				ns(hist_quantile(&r->span, 0.99), r->hz) };
		int c = rowkey_cells(e, o, r, cells);
		if (!r->unit || (unit && strcmp(r->unit, unit)) || (!r->h.n && !r->empty))
			continue;
		if (!unit)
			cells[c++] = r->unit;
		if (r->h.n == 0)
			v[3] = v[4] = v[5] = NAN;
		if (r->span.n == 0)
			v[7] = v[8] = NAN;
		for (int j = 0; j < 9; j++) {
			cell_value(buf[j], sizeof buf[j], v[j], format);
			cells[c++] = buf[j];
		}
		table_add(t, cells);
	}
	(void)nk;
	return t;
}

/* The next of two lists of breath summaries A (*I of NA) and B (*J of NB)
 * in file order, moved past; NULL at the end of both. */
static const struct an_breaths *next_breaths(const struct an_breaths *a, size_t na, size_t *i,
					     const struct an_breaths *b, size_t nb, size_t *j)
{
	if (*i < na && (*j >= nb || a[*i].order <= b[*j].order))
		return &a[(*i)++];
	return *j < nb ? &b[(*j)++] : NULL;
}

/* The unit of breath summary B: its declared breath's, or packets. */
static const char *breath_unit(const struct an_breaths *b)
{
	return b->unit ? b->unit : "packets";
}

/* The unit of the breath summaries of E and ALSO, "unit" when they
 * differ, NULL when none has breaths. */
static const char *breaths_unit(struct an *e, struct an *also)
{
	const char *u = NULL;
	for (int k = 0; k < 2; k++) {
		size_t n;
		const struct an_breaths *b = k ? (also ? an_breath_list(also, &n) : NULL)
					       : an_breath_list(e, &n);
		for (size_t i = 0; b && i < n; i++)
			if (b[i].n || b[i].share_breaths)
				u = !u || !strcmp(u, breath_unit(&b[i])) ? breath_unit(&b[i]) : "unit";
	}
	return u;
}

struct table *statsout_breaths(struct an *e, struct an *also, int format)
{
	const char *unit = breaths_unit(e, also), *cols[10] = { "process", "group", "breaths",
								"breaths/s" };
	char per_breath[96], bytes_per[96], cycles_per[96], one[64];
	size_t na, nb = 0, i = 0, j = 0;
	const struct an_breaths *ba = an_breath_list(e, &na), *bb = also ? an_breath_list(also, &nb) : NULL;
	const struct an_breaths *b;
	struct table *t;
	int nc = 4, mixed = unit && !strcmp(unit, "unit");
	if (!unit)
		unit = "packets";
	an_unit_singular(one, sizeof one, unit);
	snprintf(per_breath, sizeof per_breath, "%s/breath", unit);
	snprintf(bytes_per, sizeof bytes_per, "bytes/%s", one);
	snprintf(cycles_per, sizeof cycles_per, "cycles/%s", one);
	if (mixed)   /* Snabb's packets beside a declared breath's unit: which */
		cols[nc++] = "unit";
	cols[nc++] = per_breath;
	cols[nc++] = bytes_per;
	cols[nc++] = cycles_per;
	cols[nc++] = "Gbps";
	cols[nc++] = "us/breath";
	t = table_new("breaths", cols, nc);
	while ((b = next_breaths(ba, na, &i, bb, nb, &j))) {
		if (!b->n && !b->share_breaths)
			continue;   /* a file without breath_end entries */
		/* per second as N * hz / cycles, not N / (cycles / hz): one rounding */
		double hz = b->hz ? (double)b->hz : NAN, cy = (double)b->cycles;
		double br = (double)b->breaths, pk = (double)b->packets, by = (double)b->bytes;
		double v[7] = { br, br * hz / cy, pk / br, by / pk, cy / pk, by * 8 * hz / cy / 1e9,
				cy * 1e6 / hz / br };
		char buf[7][32], *cells[10] = { b->process, b->group };
		int c = 2;
		for (int k = 0; k < 7; k++)
			cell_value(buf[k], sizeof buf[k], b->breaths && (k != 3 || by > 0) &&
				   (k != 5 || by > 0) ? v[k] : NAN, format);
		if (b->breaths)
			snprintf(buf[0], sizeof buf[0], "%llu", (unsigned long long)b->breaths);
		cells[c++] = buf[0];
		cells[c++] = buf[1];
		if (mixed)
			cells[c++] = (char *)breath_unit(b);
		for (int k = 2; k < 7; k++)
			cells[c++] = buf[k];
		table_add(t, cells);
	}
	return t;
}

const char *statsout_breaths_title(struct an *e, struct an *also)
{
	const char *unit = breaths_unit(e, also);
	int declared = 0, snabb = 0;
	for (int k = 0; k < 2; k++) {
		size_t n;
		const struct an_breaths *b = k ? (also ? an_breath_list(also, &n) : NULL)
					       : an_breath_list(e, &n);
		for (size_t i = 0; b && i < n; i++)
			if (b[i].n || b[i].share_breaths) {
				declared |= b[i].unit != NULL;
				snabb |= !b[i].unit;
			}
	}
	(void)unit;
	return declared && snabb ? "breaths, per process (first to last breath_end, or a declared "
				   "breath's spans logged and their own cycles)"
	       : declared ? "breaths, per process (the breath's spans logged, and their own cycles)"
			  : "breaths, per process (first to last breath_end)";
}

/* H's count per power of two into COUNT (COUNT[0]: the zeros, COUNT[x]:
 * values in [2^(x+HIST_EMIN-1), 2^(x+HIST_EMIN))), the lowest and highest
 * power that has any into *LO and *HI; returns the largest count. */
static uint64_t log_counts(const struct hist *h, uint64_t *count, int *lo, int *hi)
{
	uint64_t max = 0;
	*lo = HIST_EXPS;
	*hi = 0;
	count[0] = h->zeros;
	for (int x = 0; x < HIST_EXPS; x++)
		for (int s = 0; h->block[x] && s < HIST_SUB; s++)
			count[x + 1] += h->block[x][s];
	for (int x = 0; x <= HIST_EXPS; x++) {
		if (!count[x])
			continue;
		if (x < *lo)
			*lo = x;
		*hi = x;
		if (count[x] > max)
			max = count[x];
	}
	return max;
}

/* One line of a drawing: the range of power X, a bar of COUNT scaled to
 * MAX (50 characters), and COUNT. */
static void draw_bar(int x, uint64_t count, uint64_t max)
{
	char line[160];
	int bar = (int)((double)count * 50 / (double)max + 0.5);
	if (x == 0)
		snprintf(line, sizeof line, "  %21s |", "0");
	else
		snprintf(line, sizeof line, "  %10.4g - %-8.4g |", ldexp(1, x + HIST_EMIN - 1),
			 ldexp(1, x + HIST_EMIN) * (1 - 1e-12));
	out_str(line);
	for (int k = 0; k < bar; k++)
		out_char('#');
	snprintf(line, sizeof line, "%s%llu\n", bar ? " " : "", (unsigned long long)count);
	out_str(line);
}

void statsout_hist(struct an *e, const struct an_options *o)
{
	size_t nrows;
	struct an_row **rows = an_rows(e, &nrows);
	for (size_t i = 0; i < nrows; i++) {
		const struct hist *h = &rows[i]->h;
		uint64_t count[HIST_EXPS + 1] = { 0 }, max;
		char *cells[AN_NKEYS];
		int nk = rowkey_cells(e, o, rows[i], cells), lo, hi;
		if (h->n == 0)
			continue;
		out_str("\n");
		for (int k = 0; k < nk; k++) {
			out_str(k ? " " : "");
			out_str(cells[k]);
		}
		out_str(o->per ? " (cycles per unit)\n" : " (lag, cycles)\n");
		max = log_counts(h, count, &lo, &hi);
		for (int x = lo; x <= hi; x++)
			draw_bar(x, count[x], max);
	}
}

struct table *statsout_hist_table(struct an *e, const struct an_options *o)
{
	const char *cols[AN_NKEYS + 4];
	int nc = rowkey_names(e, o, cols);
	size_t nrows;
	struct an_row **rows = an_rows(e, &nrows);
	struct table *t;
	cols[nc++] = "from";
	cols[nc++] = "below";
	cols[nc++] = "count";
	t = rowkey_table("hist", o, cols, nc);
	for (size_t i = 0; i < nrows; i++) {
		uint64_t count[HIST_EXPS + 1] = { 0 };
		char buf[3][32], *cells[AN_NKEYS + 4];
		int nk = rowkey_cells(e, o, rows[i], cells), lo, hi;
		if (rows[i]->h.n == 0)
			continue;
		log_counts(&rows[i]->h, count, &lo, &hi);
		for (int x = lo; x <= hi; x++) {
			if (!count[x])
				continue;
			/* bin 0 holds the zeros: from 0 below 0 stands for "= 0" */
			snprintf(buf[0], sizeof buf[0], "%.17g", x ? ldexp(1, x + HIST_EMIN - 1) : 0);
			snprintf(buf[1], sizeof buf[1], "%.17g", x ? ldexp(1, x + HIST_EMIN) : 0);
			snprintf(buf[2], sizeof buf[2], "%llu", (unsigned long long)count[x]);
			cells[nk] = buf[0];
			cells[nk + 1] = buf[1];
			cells[nk + 2] = buf[2];
			table_add(t, cells);
		}
	}
	return t;
}

void statsout_unmatched(struct an *e, int format)
{
	size_t n;
	const struct an_unmatched *u = an_unmatched_list(e, &n);
	for (size_t i = 0; i < n; i++) {
		char line[256];
		if (format == FMT_JSON) {
			struct json j = JSON_INIT;
			json_begin_object(&j);
			JSON_KEY(&j, "table");
			JSON_STRING(&j, "unmatched");
			JSON_KEY_STRING(&j, "pair", u[i].label);
			JSON_KEY_UINT(&j, "ends_without_begin", u[i].ends);
			JSON_KEY_UINT(&j, "begins_without_end", u[i].begins);
			json_end_object(&j);
			out_char('\n');
			continue;
		}
		snprintf(line, sizeof line, "unmatched: %s: %llu ends without a begin, %llu begins without an end\n",
			 u[i].label, (unsigned long long)u[i].ends, (unsigned long long)u[i].begins);
		if (format == FMT_CSV)
			fprintf(stderr, "timeline stats: %s", line);
		else
			out_str(line);
	}
}

void statsout_switches(struct an *e, int format)
{
	const struct an_switches *w = an_switches(e);
	char line[320];
	if (!w->logs)
		return;
	if (format == FMT_JSON) {
		struct json j = JSON_INIT;
		json_begin_object(&j);
		JSON_KEY(&j, "table");
		JSON_STRING(&j, "switches");
		JSON_KEY_UINT(&j, "logs", w->logs);
		JSON_KEY_UINT(&j, "records", w->records);
		JSON_KEY_UINT(&j, "skipped", w->skipped);
		json_end_object(&j);
		out_char('\n');
		return;
	}
	snprintf(line, sizeof line,
		 "switches: %llu %s had events switched off during %s span (%llu %s of changes): "
		 "missing entries may mean off; %llu %s across a change skipped\n",
		 (unsigned long long)w->logs, w->logs == 1 ? "log" : "logs",
		 w->logs == 1 ? "its" : "their", (unsigned long long)w->records,
		 w->records == 1 ? "record" : "records", (unsigned long long)w->skipped,
		 w->skipped == 1 ? "pair" : "pairs");
	if (format == FMT_CSV) {
		fprintf(stderr, "timeline stats: %s", line);
		return;
	}
	out_str(line);
	out_char('\n');
}
