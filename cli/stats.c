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
	"       --save FILE     also write what was counted to FILE, a summary that\n"
	"                       stats and diff read as an input (timeline-summary(5))\n"
	"   -h, --help          show this help\n";

static const struct option options[] = {
	ANOPTS_OPTIONS,
	{ "group", required_argument, NULL, 'g' },
	{ "hist", no_argument, NULL, 'H' },
	{ "breaths", no_argument, NULL, 'R' },
	{ "overhead", no_argument, NULL, 'O' },
	{ "save", required_argument, NULL, 'S' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What the command line asks for. */
struct args {
	struct anopts a;
	char *labels[256], *paths[256];   /* --group LABEL=PATH */
	int ngroups, hist, breaths_only, overhead_only;
	const char *save;            /* --save FILE */
	char fixed[1024];            /* the options a summary fixes (anopts_fixed()) */
};

/* Takes stats' own option C with ARG into CTX, a struct args: 1 taken, 0
 * not one of stats' own, -1 with *WHY set for a bad value. */
static int own_option(void *ctx, int c, const char *arg, const char **why)
{
	struct args *s = ctx;
	const char *eq;
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
	case 'g':
		eq = strchr(arg, '=');
		if (!eq || eq == arg || !eq[1])
			return *why = "--group takes LABEL=PATH", -1;
		if (s->ngroups == 256)
			return *why = "too many --group options", -1;
		s->labels[s->ngroups] = strndup(arg, (size_t)(eq - arg));
		s->paths[s->ngroups++] = (char *)eq + 1;
		return 1;
	}
	return 0;
}

static const struct ancmd stats = { "stats", usage, ":" ANOPTS_SHORT "g:h", options, own_option };

/* Reads the --group inputs, then the others (argv[optind] on), into E,
 * made with options O; returns how many inputs could not be read. */
static int read_inputs(struct args *s, struct an *e, const struct an_options *o, int argc,
		       char **argv)
{
	struct readall r;
	readall_init(&r, "stats", o);
	r.w = &s->a.w;
	r.fixed = s->fixed;
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

/* --save: reads the inputs at the finest grain (every key a summary
 * keeps), writes the summary, and adds it to E as a reader of it would;
 * returns the number of problems. */
static int read_and_save(struct args *s, struct an *e, int argc, char **argv)
{
	struct an_options full = s->a.o;
	struct an_summary_map m = { s->fixed, NULL, 0, 0 };
	struct an *all;
	int problems;
	full.by = AN_SUMMARY_KEYS;
	all = an_new(&full);
	problems = read_inputs(s, all, &full, argc, argv);
	problems += sumfile_save("stats", s->save, all, s->fixed, e, &m) < 0;
	an_free(all);
	return problems;
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
	anopts_fixed(&s.a, s.fixed, sizeof s.fixed);
	e = an_new(&s.a.o);
	problems = s.save ? read_and_save(&s, e, argc, argv) : read_inputs(&s, e, &s.a.o, argc, argv);
	print(&s, e);
	anopts_warn(&s.a, e, "stats");
	an_free(e);
	for (int i = 0; i < s.ngroups; i++)
		free(s.labels[i]);
	anopts_free(&s.a);
	out_flush();
	return cli_finish("stats", problems ? EXIT_USAGE : EXIT_OK);
}
