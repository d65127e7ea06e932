/* diff.c: `timeline diff`, two sets of runs compared group by group: the
 * medians and p90s, the change with its interval, and the Mann-Whitney U
 * test over the runs. Exits 1 when a group got significantly slower beyond
 * the noise threshold, so that CI can gate on it. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "anopts.h"
#include "commands.h"
#include "compare.h"
#include "diff.h"
#include "out.h"
#include "readall.h"
#include "sumfile.h"
#include "table.h"
#include "view.h"

static const char usage[] =
	"usage: timeline diff [OPTIONS] A B\n"
	"       timeline diff [OPTIONS] --a PATH... --b PATH...\n"
	"\n"
	"Compares the runs of A (files or directories: before, lab) with those of\n"
	"B (after, production), group by group. Each log is a run (with --runs\n"
	"dir, each directory of logs), and a run counts by its median, taken\n"
	"relative to the run's speed (the median change, in that run, of the\n"
	"other groups nearest the change most groups share between A and B;\n"
	"with four groups or more, unless --absolute), so that a run on a\n"
	"busier machine is not taken for a slower group. The verdict comes\n"
	"from the exact two-sided Mann-Whitney U test over the runs' values, and\n"
	"the change (in %, with its interval at level 1 - alpha) is the\n"
	"Hodges-Lehmann estimate over them; the test over every pair pooled is\n"
	"shown beside it (p_pairs). The row (all) compares the runs' speeds: the\n"
	"whole program faster or slower. Rows are sorted by impact, the cycles\n"
	"gained or lost per unit (or of lag). A group is SLOWER when its change is\n"
	"beyond the threshold and p is below alpha; exit 1 then, else 0. With\n"
	"fewer runs than a test needs to reach alpha (4 a side at 0.05) the\n"
	"verdict is 'too few runs', never SLOWER.\n"
	"\n"
	"-a and -b are --a and --b, the sides; --alpha and --by have no short\n"
	"form here.\n"
	"\n" ANOPTS_USAGE_BY("       --by") DIFF_USAGE
	"       --save-a FILE   also write what side A counted to FILE, a summary\n"
	"                       stats and diff read as an input (timeline-summary(5))\n"
	"       --save-b FILE   the same for side B\n"
	"   -h, --help          show this help\n";

static const struct option options[] = {
	ANOPTS_OPTIONS,
	DIFF_OPTIONS,
	{ "save-a", required_argument, NULL, 'S' },
	{ "save-b", required_argument, NULL, 'Y' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* S as a finite number into *V; -1 if it is not one. */
static int parse_number(const char *s, double *v)
{
	char *end;
	*v = strtod(s, &end);
	return end == s || *end || !isfinite(*v) ? -1 : 0;
}

/* What the command line asks for. */
struct args {
	struct anopts a;
	struct diffargs d;
	const char *save[2];         /* --save-a, --save-b */
	char fixed[1024];            /* the options a summary fixes (anopts_fixed()) */
};

int diff_option(struct diffargs *d, int c, const char *arg, const char **why)
{
	int s = c == 'b';
	switch (c) {
	case 'a':
	case 'b':
		if (d->n[s] == 256)
			return *why = "too many inputs", -1;
		d->side[s][d->n[s]++] = (char *)arg;
		return 1;
	case 't':
		if (parse_number(arg, &d->threshold) || d->threshold < 0)
			return *why = "--threshold takes a percentage, e.g. 5", -1;
		return 1;
	case DIFF_OPT_ALPHA:
		if (parse_number(arg, &d->alpha) || !(d->alpha > 0 && d->alpha < 1))
			return *why = "--alpha takes a level between 0 and 1, e.g. 0.05", -1;
		return 1;
	case 'R':
		if (strcmp(arg, "file") && strcmp(arg, "dir"))
			return *why = "--runs takes file or dir", -1;
		d->runs_by_dir = !strcmp(arg, "dir");
		return 1;
	case DIFF_OPT_ABSOLUTE:
		d->absolute = 1;
		return 1;
	}
	return 0;
}

/* Takes diff's own option C with ARG into CTX, a struct args. */
static int own_option(void *ctx, int c, const char *arg, const char **why)
{
	struct args *d = ctx;
	if (c == 'S' || c == 'Y') {
		d->save[c == 'Y'] = arg;
		return 1;
	}
	return diff_option(&d->d, c, arg, why);
}

static const struct ancmd diff = { "diff", usage, ":" ANOPTS_SHORT DIFF_SHORT "h", options,
				   own_option, NULL };

/* Parses the command line into D: the options, then A B unless --a and --b
 * were given. Returns -1 to go on, or the exit code to return now. */
static int parse_args(struct args *d, int argc, char **argv)
{
	struct diffargs *s = &d->d;
	int rc = anopts_parse(&d->a, &diff, argc, argv, d);
	if (rc >= 0)
		return rc;
	if (!s->n[0] && !s->n[1]) {
		if (argc - optind != 2)
			return cli_usage_error("diff", "give two inputs A B, or --a and --b (-a, -b) "
					       "with one or more each");
		s->side[0][s->n[0]++] = argv[optind];
		s->side[1][s->n[1]++] = argv[optind + 1];
		return -1;
	}
	return diff_check_sides("diff", s, optind < argc);
}

int diff_check_sides(const char *cmd, const struct diffargs *d, int others)
{
	if (others)   /* most likely -a for --alpha, or -b for --by */
		return cli_usage_error(cmd, "with --a and --b (-a, -b), give the inputs there only "
				       "(--alpha and --by have no short form)");
	if (!d->n[0] || !d->n[1])
		return cli_usage_error(cmd, "give --a and --b (-a, -b), with one or more each");
	return -1;
}

void diff_add_sides(struct readall *r, const struct diffargs *d, struct an *const *side,
		    struct an *const *also, size_t n)
{
	r->runs_by_dir = d->runs_by_dir;
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < d->n[s]; i++) {
			struct an *e[READALL_FEEDS] = { side[s] };
			for (size_t k = 0; k < n && k + 1 < READALL_FEEDS; k++)
				e[k + 1] = also[(size_t)s * n + k];
			readall_add_to(r, e, n + 1 < READALL_FEEDS ? n + 1 : READALL_FEEDS,
				       d->side[s][i], NULL);
		}
}

/* Reads the inputs of each side into its engine E[0] or E[1], a run being
 * each file's directory if RUNS_BY_DIR; FED[s] gets how many files fed
 * side s entries, *NOTHING whether neither side kept anything
 * (readall_kept_nothing()). Returns how many inputs could not be read. */
static int read_into(const struct args *d, struct an **e, int runs_by_dir, unsigned *fed,
		     int *nothing)
{
	struct readall r;
	struct diffargs sides = d->d;
	sides.runs_by_dir = runs_by_dir;
	readall_init(&r, "diff");
	r.w = &d->a.w;
	r.fixed = d->fixed;
	diff_add_sides(&r, &sides, e, NULL, 0);
	readall_run(&r);
	fed[0] = readall_fed(&r, e[0]);
	fed[1] = readall_fed(&r, e[1]);
	*nothing = readall_kept_nothing(&r);
	return r.problems;
}

/* Reads the sides into E (FED and NOTHING as read_into() sets them);
 * with --save-a or --save-b, at the finest grain first (each file its own
 * run), written as summaries and added to E as their readers would.
 * Returns how many inputs could not be read. */
static int read_sides(const struct args *d, struct an **e, unsigned *fed, int *nothing)
{
	struct an_options full = d->a.o;
	struct an_summary_map m = { d->fixed, NULL, d->d.runs_by_dir, 0, NULL };
	struct an *all[2];
	int problems;
	if (!d->save[0] && !d->save[1])
		return read_into(d, e, d->d.runs_by_dir, fed, nothing);
	full.by = AN_SUMMARY_KEYS;
	full.slowest = AN_SUMMARY_SLOWEST;   /* for stats --slowest over the summaries */
	full.slowest_for_save = 1;
	all[0] = an_new(&full);
	all[1] = an_new(&full);
	problems = read_into(d, all, 0, fed, nothing);
	for (int s = 0; s < 2; s++) {
		problems += sumfile_save("diff", d->save[s], all[s], d->fixed, e[s], &m) < 0;
		an_free(all[s]);
	}
	return problems;
}

void diff_title(char *buf, size_t size, const char *per, const struct diffargs *d,
		const struct comparison *c)
{
	char what[128], one[64];
	if (per && an_unit_singular(one, sizeof one, per))
		snprintf(what, sizeof what, "cycles per %s", one);
	else
		snprintf(what, sizeof what, "lag in cycles");
	snprintf(buf, size, "%s, A -> B, runs as samples%s (threshold %g%%, alpha %g, "
		 "intervals at %g%%)", what, c->relative ? ", relative to their speed" : "",
		 d->threshold, d->alpha, 100 * (1 - d->alpha));
}

int diff_status(int problems, const struct comparison *c)
{
	return problems ? EXIT_USAGE : c->slower ? EXIT_FINDING : EXIT_OK;
}

/* Prints comparison C: its pairs under a title saying what was compared,
 * then the groups on one side only (CSV holds one table: only their count,
 * on stderr). */
static void print(const struct args *d, const struct comparison *c)
{
	char title[200];
	int format = d->a.format;
	struct table *t = compare_table(c, format), *lone = compare_lone_table(c);
	diff_title(title, sizeof title, d->a.o.per, &d->d, c);
	table_print(t, format, title);
	if (table_rows(lone) && format == FMT_TEXT)
		out_char('\n');
	if (table_rows(lone) && format != FMT_CSV)
		table_print(lone, format, "groups on one side only");
	if (table_rows(lone) && format == FMT_CSV)
		fprintf(stderr, "timeline diff: %zu groups are on one side only (see --format text)\n",
			table_rows(lone));
	out_flush();
	table_free(t);
	table_free(lone);
}

int cmd_diff(int argc, char **argv)
{
	struct args d = { .d = DIFFARGS_INIT };
	struct comparison c;
	struct an *e[2];
	unsigned fed[2];
	int rc = parse_args(&d, argc, argv), problems, nothing;
	if (rc >= 0)
		return rc;
	anopts_fixed(&d.a, d.fixed, sizeof d.fixed);
	d.a.o.by |= 1u << AN_RUN;   /* each run's rows apart, for the test over runs */
	e[0] = an_new(&d.a.o);
	e[1] = an_new(&d.a.o);
	problems = read_sides(&d, e, fed, &nothing);
	for (int s = 0; s < 2; s++)
		if (fed[s])   /* with no file read, the reasons were said */
			anopts_warn(&d.a, e[s], "diff");
	compare(&c, "diff", e[0], e[1], &d.a.o, d.d.threshold, d.d.alpha, d.d.absolute);
	if (!nothing)   /* else each input said why: no table of nothing */
		print(&d, &c);
	compare_free(&c);
	an_free(e[0]);
	an_free(e[1]);
	anopts_free(&d.a);
	return cli_finish("diff", diff_status(problems, &c));
}
