/* stats.c: `timeline stats`, what a set of logs says about where the
 * cycles go: lag percentiles per event, or cycles per unit of work from
 * begin/end pairs, grouped by event, app, process, cpu, numa, host, group
 * and batch size; and a breath summary per process. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "anopts.h"
#include "commands.h"
#include "out.h"
#include "readall.h"
#include "table.h"
#include "view.h"

static const char usage[] =
	"usage: timeline stats [OPTIONS] INPUT...\n"
	"\n"
	"Statistics over logs and directories of logs. By default, the lag of\n"
	"every event (cycles since the previous entry of the same or a lower\n"
	"level, as Snabb defines it) as n, min, p50, p90, p99, p99.9, max, mean\n"
	"and stddev. With --per, the cycles per unit of work of each begin/end\n"
	"pair. Then the breath summary of each process.\n"
	"\n" ANOPTS_USAGE
	"   -g, --group LABEL=PATH  read PATH as the group LABEL (inputs are\n"
	"                       otherwise grouped by their directory's name)\n"
	"       --hist          draw each row's histogram on a log scale\n"
	"       --breaths       CSV: print the breath summary instead of the rows\n"
	"   -h, --help          show this help\n";

static const struct option options[] = {
	ANOPTS_OPTIONS,
	{ "group", required_argument, NULL, 'g' },
	{ "hist", no_argument, NULL, 'H' },
	{ "breaths", no_argument, NULL, 'R' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The row's key columns, in key order. */
static int key_cells(const struct an *e, const struct an_options *o, const struct an_row *r,
		     char **cells)
{
	int n = 0;
	for (int k = 0; k < AN_NKEYS; k++)
		if (o->by & (1u << k))
			cells[n++] = k == AN_BUCKET ? (char *)an_bucket_label(e, r->bucket) : r->key[k];
	return n;
}

static int key_names(const struct an_options *o, const char **cols)
{
	int n = 0;
	for (int k = 0; k < AN_NKEYS; k++)
		if (o->by & (1u << k))
			cols[n++] = an_key_names[k];
	return n;
}

static double ns(double cycles, uint64_t hz)
{
	return hz ? cycles * 1e9 / (double)hz : NAN;
}

/* Lag rows: every statistic in cycles, then in ns where the TSC frequency
 * is known (text shows p50 and p99 in ns only, to fit a screen). */
static struct table *lag_table(struct an *e, const struct an_options *o, int format)
{
	static const char *const stat_names[] = { "n", "min", "p50", "p90", "p99", "p99.9",
						  "max", "mean", "stddev" };
	static const char *const ns_all[] = { "min_ns", "p50_ns", "p90_ns", "p99_ns", "p99.9_ns",
					      "max_ns", "mean_ns", "stddev_ns" };
	const char *cols[AN_NKEYS + 20];
	char buf[20][32], *cells[AN_NKEYS + 20];
	int nk = key_names(o, cols), nc = nk, full = format != FMT_TEXT;
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
	t = table_new("lag", cols, nc);
	for (size_t i = 0; i < nrows; i++) {
		const struct an_row *r = rows[i];
		const struct hist *h = &r->h;
		double v[9] = { (double)h->n, h->min, hist_quantile(h, 0.5), hist_quantile(h, 0.9),
				hist_quantile(h, 0.99), hist_quantile(h, 0.999), h->max, hist_mean(h),
				hist_stddev(h) };
		int c = key_cells(e, o, r, cells), b = 0;
		if (h->n == 0)
			continue;
		for (int j = 0; j < 9; j++) {
			cell_num(buf[b], sizeof buf[b], v[j]);
			cells[c++] = buf[b++];
		}
		for (int j = 1; j < 9; j++) {
			if (!full && j != 2 && j != 4)
				continue;
			cell_num(buf[b], sizeof buf[b], ns(v[j], r->hz));
			cells[c++] = buf[b++];
		}
		table_add(t, cells);
	}
	return t;
}

/* Per-unit rows: pairs, units, cycles per unit over all of them, and the
 * distribution of each pair's cycles per unit. */
static struct table *per_table(struct an *e, const struct an_options *o, char *title,
			       size_t size)
{
	const char *cols[AN_NKEYS + 12];
	char buf[12][32], *cells[AN_NKEYS + 12], per[96];
	int nc = key_names(o, cols);
	size_t nrows;
	struct an_row **rows = an_rows(e, &nrows);
	struct table *t;
	snprintf(per, sizeof per, "cycles/%.*s", (int)strcspn(o->per, "s"), o->per);
	snprintf(title, size, "cycles per %.*s, per begin/end pair", (int)strcspn(o->per, "s"),
		 o->per);
	cols[nc++] = "pairs";
	cols[nc++] = o->per;
	cols[nc++] = per;
	cols[nc++] = "p50";
	cols[nc++] = "p90";
	cols[nc++] = "p99";
	cols[nc++] = "empty";
	t = table_new("per", cols, nc);
	for (size_t i = 0; i < nrows; i++) {
		const struct an_row *r = rows[i];
		double v[7] = { (double)r->h.n, r->units, r->units > 0 ? r->cycles / r->units : NAN,
				hist_quantile(&r->h, 0.5), hist_quantile(&r->h, 0.9),
				hist_quantile(&r->h, 0.99), (double)r->empty };
		int c = key_cells(e, o, r, cells);
		if (r->h.n == 0)
			v[3] = v[4] = v[5] = NAN;
		for (int j = 0; j < 7; j++) {
			cell_num(buf[j], sizeof buf[j], v[j]);
			cells[c++] = buf[j];
		}
		table_add(t, cells);
	}
	return t;
}

static struct table *breath_table(const struct an *e)
{
	static const char *const cols[] = { "process",      "group",         "breaths",
					     "breaths/s",    "packets/breath", "bytes/packet",
					     "cycles/packet", "Gbps",        "us/breath" };
	size_t n;
	const struct an_breaths *b = an_breath_list(e, &n);
	struct table *t = table_new("breaths", cols, 9);
	for (size_t i = 0; i < n; i++) {
		double s = b[i].hz ? (double)b[i].cycles / (double)b[i].hz : NAN;
		double br = (double)b[i].breaths, pk = (double)b[i].packets;
		double v[7] = { br, br / s, pk / br, (double)b[i].bytes / pk,
				(double)b[i].cycles / pk, (double)b[i].bytes * 8 / s / 1e9, s * 1e6 / br };
		char buf[7][32], *cells[9] = { b[i].process, b[i].group };
		for (int j = 0; j < 7; j++) {
			cell_num(buf[j], sizeof buf[j], b[i].breaths ? v[j] : NAN);
			cells[2 + j] = buf[j];
		}
		if (b[i].breaths)
			snprintf(buf[0], sizeof buf[0], "%llu", (unsigned long long)b[i].breaths);
		table_add(t, cells);
	}
	return t;
}

/* Each row's values on a log scale: one line per power of two. */
static void draw_hist(struct an *e, const struct an_options *o)
{
	size_t nrows;
	struct an_row **rows = an_rows(e, &nrows);
	for (size_t i = 0; i < nrows; i++) {
		const struct hist *h = &rows[i]->h;
		uint64_t count[HIST_EXPS + 1] = { 0 }, max = 0;
		char *cells[AN_NKEYS];
		int nk = key_cells(e, o, rows[i], cells), lo = HIST_EXPS, hi = 0;
		if (h->n == 0)
			continue;
		out_str("\n");
		for (int k = 0; k < nk; k++) {
			out_str(k ? " " : "");
			out_str(cells[k]);
		}
		out_str(o->per ? " (cycles per unit)\n" : " (lag, cycles)\n");
		count[0] = h->zeros;
		for (int x = 0; x < HIST_EXPS; x++)
			for (int s = 0; h->block[x] && s < HIST_SUB; s++)
				count[x + 1] += h->block[x][s];
		for (int x = 0; x <= HIST_EXPS; x++) {
			if (!count[x])
				continue;
			if (x < lo)
				lo = x;
			hi = x;
			if (count[x] > max)
				max = count[x];
		}
		for (int x = lo; x <= hi; x++) {
			char line[160];
			int bar = (int)((double)count[x] * 50 / (double)max + 0.5);
			if (x == 0)
				snprintf(line, sizeof line, "  %21s |", "0");
			else
				snprintf(line, sizeof line, "  %10.4g - %-8.4g |", ldexp(1, x + HIST_EMIN - 1),
					 ldexp(1, x + HIST_EMIN) * (1 - 1e-12));
			out_str(line);
			for (int k = 0; k < bar; k++)
				out_char('#');
			snprintf(line, sizeof line, "%s%llu\n", bar ? " " : "", (unsigned long long)count[x]);
			out_str(line);
		}
	}
}

/* Unmatched pairs: reported on stdout in text and JSON, on stderr for CSV. */
static void report_unmatched(struct an *e, int format)
{
	size_t n;
	const struct an_unmatched *u = an_unmatched_list(e, &n);
	for (size_t i = 0; i < n; i++) {
		char line[256];
		if (format == FMT_JSON) {
			snprintf(line, sizeof line, ",\"ends_without_begin\":%llu,\"begins_without_end\":%llu}\n",
				 (unsigned long long)u[i].ends, (unsigned long long)u[i].begins);
			out_str("{\"table\":\"unmatched\",\"pair\":");
			out_json(u[i].label);
			out_str(line);
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

int cmd_stats(int argc, char **argv)
{
	struct anopts a;
	struct readall r;
	const char *why;
	char *labels[256], *paths[256];
	int c, hist = 0, breaths_only = 0, ngroups = 0;
	struct an *e;
	struct table *t, *bt;
	char title[128] = "lag in cycles (ns where the TSC frequency is known)";

	anopts_init(&a);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":" ANOPTS_SHORT "g:h", options, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage, stdout);
			return cli_finish("stats", EXIT_OK);
		case 'H':
			hist = 1;
			continue;
		case 'R':
			breaths_only = 1;
			continue;
		case 'g': {
			const char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg || !eq[1])
				return cli_usage_error("stats", usage, "--group takes LABEL=PATH");
			if (ngroups == 256)
				return cli_usage_error("stats", usage, "too many --group options");
			labels[ngroups] = strndup(optarg, (size_t)(eq - optarg));
			paths[ngroups++] = (char *)eq + 1;
			continue;
		}
		}
		switch (anopts_option(&a, c, optarg, &why)) {
		case 1: continue;
		case -1: return cli_usage_error("stats", usage, why);
		}
		return cli_bad_option("stats", usage, argv, c);
	}
	if (optind == argc && !ngroups)
		return cli_usage_error("stats", usage, "missing input");
	anopts_ready(&a);
	readall_init(&r, "stats", &a.o);
	e = an_new(&a.o);
	for (int i = 0; i < ngroups; i++)
		readall_add(&r, e, paths[i], labels[i]);
	for (int i = optind; i < argc; i++)
		readall_add(&r, e, argv[i], NULL);
	readall_run(&r);
	t = a.o.per ? per_table(e, &a.o, title, sizeof title) : lag_table(e, &a.o, a.format);
	bt = breath_table(e);
	if (a.format == FMT_CSV) {
		table_print(breaths_only ? bt : t, FMT_CSV, NULL);
	} else {
		table_print(t, a.format, title);
		if (table_rows(bt) && a.format == FMT_TEXT)
			out_char('\n');
		if (table_rows(bt))
			table_print(bt, a.format, "breaths, per process (first to last breath_end)");
		if (hist && a.format == FMT_TEXT)
			draw_hist(e, &a.o);
	}
	report_unmatched(e, a.format);
	table_free(t);
	table_free(bt);
	an_free(e);
	for (int i = 0; i < ngroups; i++)
		free(labels[i]);
	anopts_free(&a);
	out_flush();
	return cli_finish("stats", r.problems ? EXIT_USAGE : EXIT_OK);
}
