/* stats.c: `timeline stats`, what a set of logs says about where the
 * cycles go: lag percentiles per event, or cycles per unit of work from
 * begin/end pairs, grouped by event, app, process, cpu, numa, host, group
 * and batch size; and a breath summary per process. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "anopts.h"
#include "commands.h"
#include "openmetrics.h"
#include "out.h"
#include "sink.h"
#include "readall.h"
#include "recorder.h"
#include "statsout.h"
#include "sumfile.h"
#include "table.h"
#include "view.h"

static const char usage[] =
	"usage: timeline stats [OPTIONS] INPUT...\n"
	"\n"
	"Statistics over logs, directories of logs and summaries (--save). By\n"
	"default, the lag of every event (cycles since the previous entry of the\n"
	"same or a lower level, as Snabb defines it) as n, min, p50, p90, p99,\n"
	"p99.9, max, mean and stddev. With --per, first where the cycles go: each\n"
	"app's share of the cycles of the breaths it ran in, per process, and the\n"
	"share no app accounts for; then the cycles per unit of work of each\n"
	"begin/end pair. Then the breath summary of each process.\n"
	"\n" ANOPTS_USAGE
	"   -g, --group LABEL=PATH  read PATH as the group LABEL (inputs are\n"
	"                       otherwise grouped by their directory's name)\n"
	"       --hist          draw each row's histogram on a log scale\n"
	"       --breaths       CSV: print the breath summary instead of the rows\n"
	"       --overhead      CSV: print where the cycles go instead of the rows\n"
	"       --self          pairs: each pair's self cycles per unit, its cycles less\n"
	"                       those of the pairs inside it (where its own time goes)\n"
	"       --slowest N     with --per: then each group's N slowest pairs (most\n"
	"                       cycles per unit), where and when each ran, and the\n"
	"                       timeline dump command that shows the entries around it\n"
	"                       (CSV: instead of the rows); summaries are ranked too\n"
	"       --save FILE     also write what was counted to FILE, a summary that\n"
	"                       stats and diff read as an input (timeline-summary(5)),\n"
	"                       keeping each row's --slowest N slowest pairs (20 without)\n"	"   -f openmetrics      Prometheus metrics: a histogram per row with le\n"
	"                       buckets, counters per log (for node_exporter's\n"
	"                       textfile collector; see timeline(1))\n"
	"   -o, --output FILE   openmetrics: write FILE, replaced whole, not stdout\n"
	"       --interval S    openmetrics: read the inputs again every S seconds\n"
	"       --count N       with --interval: stop after N times\n"
	"   -h, --help          show this help\n";

#define STATS_SLOWEST 0x190           /* getopt code of --slowest, long only */
#define STATS_SELF 0x191              /* ... of --self */

static const struct option options[] = {
	ANOPTS_OPTIONS,
	{ "group", required_argument, NULL, 'g' },
	{ "hist", no_argument, NULL, 'H' },
	{ "breaths", no_argument, NULL, 'R' },
	{ "overhead", no_argument, NULL, 'O' },
	{ "save", required_argument, NULL, 'S' },
	{ "slowest", required_argument, NULL, STATS_SLOWEST },
	{ "self", no_argument, NULL, STATS_SELF },
	{ "output", required_argument, NULL, 'o' },
	{ "interval", required_argument, NULL, 'I' },
	{ "count", required_argument, NULL, 'N' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What the command line asks for. */
struct args {
	struct anopts a;
	char *labels[ANOPTS_MAX_GROUPS], *paths[ANOPTS_MAX_GROUPS];   /* --group LABEL=PATH */
	int ngroups, hist, breaths_only, overhead_only;
	int self;                    /* --self: self cycles per unit */
	const char *save;            /* --save FILE */
	int openmetrics;             /* --format openmetrics */
	const char *output;          /* -o FILE */
	double interval;             /* --interval S, 0: once */
	uint64_t count;              /* --count N, 0: until a signal */
	uint64_t slowest;            /* --slowest N, 0: none */
	char fixed[1024];            /* the options a summary fixes (anopts_fixed()) */
	unsigned fed;                /* files that fed the engine entries */
	int kept_nothing;            /* readall_kept_nothing(): print no table */
	/* without --per (anopts.declared): the logs that declare pairs go to an
	 * engine of their own, each pair in its own unit */
	struct an_options od;        /* its options (anopts_declared()) */
	char fixed_d[1024];          /* ... and what its summaries fix */
	unsigned fed_d;              /* files that fed it */
	char **inputs;               /* the inputs named, for the triggers (--slowest) */
	int ninputs;
};

/* Takes stats' own option C with ARG into CTX, a struct args: 1 taken, 0
 * not one of stats' own, -1 with *WHY set for a bad value. */
static int own_option(void *ctx, int c, const char *arg, const char **why)
{
	struct args *s = ctx;
	char *end;
	switch (c) {
	case 'H':
		s->hist = 1;
		return 1;
	case 'R':
		s->breaths_only = 1;
		return 1;
	case 'O':
		s->overhead_only = 1;
		return 1;
	case 'S':
		s->save = arg;
		return 1;
	case 'f':   /* the shared --format, but for openmetrics */
		s->openmetrics = !strcmp(arg, "openmetrics") || !strcmp(arg, "prometheus");
		return s->openmetrics;
	case 'o':
		s->output = arg;
		return 1;
	case 'I':
		s->interval = strtod(arg, &end);
		if (end == arg || *end || !(s->interval > 0 && s->interval < 1e9))
			return *why = "--interval takes seconds, e.g. 15 or 0.5", -1;
		return 1;
	case 'N':
		if (parse_u64(arg, &s->count) || !s->count)
			return *why = "--count takes a whole number of times, at least 1", -1;
		return 1;
	case 'g':
		return anopts_group(arg, s->labels, s->paths, &s->ngroups, why);
	case STATS_SELF:
		s->self = 1;
		return 1;
	case STATS_SLOWEST:
		if (parse_u64(arg, &s->slowest) || !s->slowest || s->slowest > 10000)
			return *why = "--slowest takes a number of pairs from 1 to 10000", -1;
		return 1;
	}
	return 0;
}

static const struct ancmd stats = { "stats", usage, ":" ANOPTS_SHORT ANOPTS_SHORT_BY "g:o:h",
				    options, own_option, NULL, 1 };

/* Reads the --group inputs, then the others (argv[optind] on), into E;
 * returns how many inputs could not be read. S->fed gets how many files
 * fed E entries, S->kept_nothing whether there is anything to print. */
static int read_inputs(struct args *s, struct an *e, struct an *d, int argc, char **argv)
{
	struct readall r;
	readall_init(&r, "stats");
	r.w = &s->a.w;
	r.fixed = s->fixed;
	for (int i = 0; i < s->ngroups + argc - optind; i++) {
		const char *path = i < s->ngroups ? s->paths[i] : argv[optind + i - s->ngroups];
		const char *label = i < s->ngroups ? s->labels[i] : NULL;
		if (d)
			readall_add_routed(&r, e, d, s->fixed_d, path, label);
		else
			readall_add(&r, e, path, label);
	}
	readall_run(&r);
	s->inputs = argv + optind;
	s->ninputs = argc - optind;
	s->fed = readall_fed(&r, e);
	s->fed_d = d ? readall_fed(&r, d) : 0;
	s->kept_nothing = readall_kept_nothing(&r);
	return r.problems;
}

/* The tables of the pairs engine D counted, each in its own unit: one
 * table per unit in text, one with a unit column in CSV and JSON (the
 * same keys whatever the units). */
static void print_declared(const struct args *s, struct an *d)
{
	const char *units[64];
	char title[160];
	size_t n = statsout_units(d, units, 64);
	int format = s->a.format;
	for (size_t i = 0; i < n || (!n && !i); i++) {
		struct table *t = statsout_declared(d, &s->od, format != FMT_TEXT || !n ? NULL : units[i],
						    title, sizeof title, format, s->self);
		if (i && format == FMT_TEXT)
			out_char('\n');
		table_print(t, format, title);
		table_free(t);
		if (format != FMT_TEXT)
			break;
	}
}

/* Prints the rows of E and the breaths: CSV holds one of them (the rows,
 * or the breaths with --breaths); text and JSON both, then the histograms
 * with --hist in text. Then the unmatched pairs. */
static void print(const struct args *s, struct an *e, struct an *d)
{
	char title[128] = "lag in cycles (ns where the TSC frequency is known)";
	/* the pairs' engine when it read a log, else the lags' */
	struct an *p = d && s->fed_d ? d : e, *lags = p == d && s->fed ? e : NULL;
	const struct an_options *o = p == d ? &s->od : &s->a.o;
	int format = s->a.format;
	struct table *t = p == d ? NULL : o->per ? statsout_per(e, o, title, sizeof title, format,
								s->self)
						 : statsout_lag(e, o, format);
	struct table *bt = statsout_breaths(p, lags, format);
	struct table *ht = s->hist && format != FMT_TEXT ? statsout_hist_table(p, o) : NULL;
	struct table *ot = o->per ? statsout_overhead(p, format) : NULL;
	struct table *st = o->slowest ? statsout_slowest(p, o, format) : NULL;
	statsout_switches(p, format);
	if (format == FMT_CSV && p == d && !s->breaths_only && !(s->overhead_only && ot) && !st && !ht) {
		print_declared(s, d);
	} else if (format == FMT_CSV) {
		table_print(s->breaths_only ? bt : s->overhead_only && ot ? ot : st ? st : ht ? ht : t,
			    FMT_CSV, NULL);
	} else {
		if (ot && table_rows(ot)) {
			table_print(ot, format, statsout_overhead_title(p));
			if (format == FMT_TEXT)
				out_char('\n');
		}
		if (p == d)
			print_declared(s, d);
		else
			table_print(t, format, title);
		if (lags) {   /* the logs that declare no pairs: their lags */
			struct table *lt = statsout_lag(e, &s->a.o, format);
			if (format == FMT_TEXT)
				out_char('\n');
			table_print(lt, format, "lag in cycles of the logs that declare no pairs (ns where "
				    "the TSC frequency is known)");
			table_free(lt);
		}
		if (st) {
			char what[160];
			snprintf(what, sizeof what, "the %llu slowest pairs of each group, most cycles "
				 "per unit first, and where to see each", (unsigned long long)o->slowest);
			if (format == FMT_TEXT || format == FMT_JSON) {
				if (format == FMT_TEXT)
					out_char('\n');
				out_flush();
				recorder_triggers_first(s->inputs, s->ninputs, format == FMT_JSON);
			}
			table_print(st, format, what);
		}
		if (table_rows(bt) && format == FMT_TEXT)
			out_char('\n');
		if (table_rows(bt))
			table_print(bt, format, statsout_breaths_title(p, lags));
		if (s->hist && format == FMT_TEXT)
			statsout_hist(e, o);
		if (ht)
			table_print(ht, format, NULL);
	}
	statsout_unmatched(p, format);
	if (t)
		table_free(t);
	table_free(bt);
	if (ht)
		table_free(ht);
	if (ot)
		table_free(ot);
	if (st)
		table_free(st);
}

/* --save: reads the inputs at the finest grain (every key a summary
 * keeps), writes the summary, and adds it to E as a reader of it would;
 * returns the number of problems. */
static int read_and_save(struct args *s, struct an *e, struct an *d, int argc, char **argv)
{
	struct an_options full = s->a.o, full_d = s->od;
	struct an_summary_map m = { s->fixed, NULL, 0, 0, NULL, NULL, NULL, NULL };
	struct an *all, *all_d = NULL;
	int problems;
	full.by = full_d.by = AN_SUMMARY_KEYS;
	full.keep_self = full_d.keep_self = full.keep_latency = full_d.keep_latency = 1;
	full.slowest = full_d.slowest = s->slowest ? (unsigned)s->slowest : AN_SUMMARY_SLOWEST;
	full.slowest_for_save = full_d.slowest_for_save = !s->slowest;
	all = an_new(&full);
	if (d)
		all_d = an_new(&full_d);
	problems = read_inputs(s, all, all_d, argc, argv);
	if (d && s->fed_d) {   /* a summary holds one kind: the pairs, when a log declares any */
		if (s->fed)
			fprintf(stderr, "timeline stats: warning: %s: the summary holds the pairs of the %u "
				"logs that declare pairs, not the lags of the %u others (--lags keeps "
				"every log's lags)\n", s->save, s->fed_d, s->fed);
		m.fixed = s->fixed_d;
		problems += sumfile_save("stats", s->save, all_d, s->fixed_d, d, &m) < 0;
	} else {
		problems += sumfile_save("stats", s->save, all, s->fixed, e, &m) < 0;
	}
	an_free(all);
	an_free(all_d);
	return problems;
}

/* Reads the inputs into a new engine, *D a second one for the logs that
 * declare pairs (without --per; else NULL): returns the first, the
 * problems in *PROBLEMS. */
static struct an *read_all(struct args *s, int argc, char **argv, struct an **d, int *problems)
{
	struct an *e = an_new(&s->a.o);
	*d = s->a.declared ? an_new(&s->od) : NULL;
	*problems = s->save ? read_and_save(s, e, *d, argc, argv)
			    : read_inputs(s, e, *d, argc, argv);
	return e;
}

/* Writes E as metrics to -o's file, replaced whole, or to stdout; returns
 * the problems (0 or 1). */
static int write_metrics(const struct args *s, struct an *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	if (!s->output)
		return openmetrics_write(stdout, e, &s->a.o) < 0;
	if (!(f = open_memstream(&buf, &len)))
		abort();
	openmetrics_write(f, e, &s->a.o);
	fclose(f);
	if (write_replace(s->output, buf, len, 0644) < 0) {
		cli_error("stats", "%s: %s", s->output, strerror(errno));
		free(buf);
		return 1;
	}
	free(buf);
	return 0;
}

static volatile sig_atomic_t stopped;

static void stop(int sig)
{
	(void)sig;
	stopped = 1;
}

/* Sleeps until T (CLOCK_MONOTONIC) plus S seconds, which T becomes, or a
 * signal stopped the loop. */
static void sleep_after(struct timespec *t, double s)
{
	double ns = (double)t->tv_nsec + fmod(s, 1) * 1e9;
	t->tv_sec += (time_t)s + (time_t)(ns / 1e9);
	t->tv_nsec = (long)fmod(ns, 1e9);
	while (!stopped && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL) == EINTR)
		;
}

/* --format openmetrics: the metrics once, or every --interval until
 * --count or SIGINT/SIGTERM (which end the loop after the write under way). */
static int run_metrics(struct args *s, int argc, char **argv)
{
	struct sigaction sa;
	struct timespec t;
	int problems = 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (uint64_t n = 1;; n++) {
		struct an *d, *e = read_all(s, argc, argv, &d, &problems);
		problems += write_metrics(s, e);
		if (n == 1 && s->fed)   /* with no file read, the reasons were said */
			anopts_warn(&s->a, e, "stats");
		an_free(e);
		if (!s->interval || stopped || n == s->count)
			break;
		sleep_after(&t, s->interval);
		if (stopped)
			break;
	}
	return problems;
}

int cmd_stats(int argc, char **argv)
{
	struct args s = { .ngroups = 0 };
	struct an *e, *d;
	int rc = anopts_parse(&s.a, &stats, argc, argv, &s), problems;
	if (rc >= 0)
		return rc;
	if (optind == argc && !s.ngroups)
		return cli_usage_error("stats", "missing input");
	if ((s.output || s.interval) && !s.openmetrics)
		return cli_usage_error("stats", "-o and --interval go with --format openmetrics");
	if (s.count && !s.interval)
		return cli_usage_error("stats", "--count goes with --interval");
	if (s.openmetrics)   /* metrics of one kind: lags, unless --per */
		s.a.declared = 0;
	if (s.self && !s.a.o.per && !s.a.declared)
		return cli_usage_error("stats", "--self goes with pairs: give --per, or leave out --lags");
	if (s.slowest && !s.a.o.per && !s.a.declared)
		return cli_usage_error("stats", "--slowest needs --per: it ranks begin/end pairs");
	s.a.o.slowest = (unsigned)s.slowest;
	anopts_fixed(&s.a, s.fixed, sizeof s.fixed);
	s.a.o.keep_self = s.self;
	if (s.a.declared) {
		anopts_declared(&s.a, &s.od);
		s.od.keep_latency = 1;   /* the tables' p50_ns and p99_ns */
		anopts_fixed_declared(&s.a, s.fixed_d, sizeof s.fixed_d);
	}
	if (s.openmetrics) {
		problems = run_metrics(&s, argc, argv);
	} else {
		int refused;
		e = read_all(&s, argc, argv, &d, &problems);
		refused = s.fed && anopts_refuse_unit(&s.a, e, "stats");
		if (s.slowest && s.a.declared && !s.fed_d && !s.kept_nothing && !refused)
			refused = cli_usage_error("stats", "--slowest needs --per: it ranks begin/end "
						  "pairs, and no log declares any") != 0;
		if (!s.kept_nothing && !refused)   /* else each input said why: no table of nothing */
			print(&s, e, d);
		if (s.fed && !refused)   /* with no file read, the reasons were said */
			anopts_warn(&s.a, e, "stats");
		if (s.fed_d && !s.fed && !refused)   /* only logs that declare pairs */
			anopts_empty(d, "stats");
		problems += refused;
		an_free(e);
		an_free(d);
	}
	for (int i = 0; i < s.ngroups; i++)
		free(s.labels[i]);
	anopts_free(&s.a);
	out_flush();
	return cli_finish("stats", problems ? EXIT_USAGE : EXIT_OK);
}
