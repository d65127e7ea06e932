/* stats.c: `timeline stats`, what a set of logs says about where the
 * cycles go: lag percentiles per event, or cycles per unit of work from
 * begin/end pairs, grouped by event, app, process, cpu, numa, host, group
 * and batch size; and a breath summary per process. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "anopts.h"
#include "commands.h"
#include "out.h"
#include "readall.h"
#include "statsout.h"
#include "table.h"
#include "view.h"

static const char usage[] =
	"usage: timeline stats [OPTIONS] INPUT...\n"
	"\n"
	"Statistics over logs and directories of logs. By default, the lag of\n"
	"every event (cycles since the previous entry of the same or a lower\n"
	"level, as Snabb defines it) as n, min, p50, p90, p99, p99.9, max, mean\n"
	"and stddev. With --per, first where the cycles go: each app's share of\n"
	"the cycles of the breaths it ran in, per process, and the share no app\n"
	"accounts for; then the cycles per unit of work of each begin/end pair.\n"
	"Then the breath summary of each process.\n"
	"\n" ANOPTS_USAGE
	"   -g, --group LABEL=PATH  read PATH as the group LABEL (inputs are\n"
	"                       otherwise grouped by their directory's name)\n"
	"       --hist          draw each row's histogram on a log scale\n"
	"       --breaths       CSV: print the breath summary instead of the rows\n"
	"       --overhead      CSV: print where the cycles go instead of the rows\n"
	"   -h, --help          show this help\n";

static const struct option options[] = {
	ANOPTS_OPTIONS,
	{ "group", required_argument, NULL, 'g' },
	{ "hist", no_argument, NULL, 'H' },
	{ "breaths", no_argument, NULL, 'R' },
	{ "overhead", no_argument, NULL, 'O' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What the command line asks for. */
struct args {
	struct anopts a;
	char *labels[ANOPTS_MAX_GROUPS], *paths[ANOPTS_MAX_GROUPS];   /* --group LABEL=PATH */
	int ngroups, hist, breaths_only, overhead_only;
};

/* Takes stats' own option C with ARG into CTX, a struct args: 1 taken, 0
 * not one of stats' own, -1 with *WHY set for a bad value. */
static int own_option(void *ctx, int c, const char *arg, const char **why)
{
	struct args *s = ctx;
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
	case 'g':
		return anopts_group(arg, s->labels, s->paths, &s->ngroups, why);
	}
	return 0;
}

static const struct ancmd stats = { "stats", usage, ":" ANOPTS_SHORT "g:h", options, own_option, NULL };

/* Reads the --group inputs, then the others (argv[optind] on), into E;
 * returns how many inputs could not be read. */
static int read_inputs(struct args *s, struct an *e, int argc, char **argv)
{
	struct readall r;
	readall_init(&r, "stats");
	r.w = &s->a.w;
	for (int i = 0; i < s->ngroups; i++)
		readall_add(&r, e, s->paths[i], s->labels[i]);
	for (int i = optind; i < argc; i++)
		readall_add(&r, e, argv[i], NULL);
	readall_run(&r);
	return r.problems;
}

/* Prints the rows of E and the breaths: CSV holds one of them (the rows,
 * or the breaths with --breaths); text and JSON both, then the histograms
 * with --hist in text. Then the unmatched pairs. */
static void print(const struct args *s, struct an *e)
{
	char title[128] = "lag in cycles (ns where the TSC frequency is known)";
	const struct an_options *o = &s->a.o;
	int format = s->a.format;
	struct table *t = o->per ? statsout_per(e, o, title, sizeof title, format)
				 : statsout_lag(e, o, format);
	struct table *bt = statsout_breaths(e, format);
	struct table *ht = s->hist && format != FMT_TEXT ? statsout_hist_table(e, o) : NULL;
	struct table *ot = o->per ? statsout_overhead(e, format) : NULL;
	if (format == FMT_CSV) {
		table_print(s->breaths_only ? bt : s->overhead_only && ot ? ot : ht ? ht : t, FMT_CSV,
			    NULL);
	} else {
		if (ot && table_rows(ot)) {
			table_print(ot, format, "where the cycles go: each app's share of the cycles of "
				    "the breaths it ran in, per process");
			if (format == FMT_TEXT)
				out_char('\n');
		}
		table_print(t, format, title);
		if (table_rows(bt) && format == FMT_TEXT)
			out_char('\n');
		if (table_rows(bt))
			table_print(bt, format, "breaths, per process (first to last breath_end)");
		if (s->hist && format == FMT_TEXT)
			statsout_hist(e, o);
		if (ht)
			table_print(ht, format, NULL);
	}
	statsout_unmatched(e, format);
	table_free(t);
	table_free(bt);
	if (ht)
		table_free(ht);
	if (ot)
		table_free(ot);
}

int cmd_stats(int argc, char **argv)
{
	struct args s = { .ngroups = 0 };
	struct an *e;
	int rc = anopts_parse(&s.a, &stats, argc, argv, &s), problems;
	if (rc >= 0)
		return rc;
	if (optind == argc && !s.ngroups)
		return cli_usage_error("stats", usage, "missing input");
	e = an_new(&s.a.o);
	problems = read_inputs(&s, e, argc, argv);
	print(&s, e);
	anopts_warn(&s.a, e, "stats");
	an_free(e);
	for (int i = 0; i < s.ngroups; i++)
		free(s.labels[i]);
	anopts_free(&s.a);
	out_flush();
	return cli_finish("stats", problems ? EXIT_USAGE : EXIT_OK);
}
