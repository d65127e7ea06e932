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
	"B (after, production), group by group. Each process is a run, its logs\n"
	"pooled (--runs), and a run counts by its median, taken relative to the\n"
	"run's speed (the median change, in that run, of the other groups nearest\n"
	"the change most groups share between A and B, each by its own cycles,\n"
	"never a group that holds or is held by the one judged; with four groups\n"
	"or more, unless --absolute), so that a run on a busier machine is not\n"
	"taken for a slower group. Logs that declare pairs give each pair in its\n"
	"own unit, the others their lags, unless --per or --lags. The verdict comes\n"
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
		if (strcmp(arg, "file") && strcmp(arg, "dir") && strcmp(arg, "process"))
			return *why = "--runs takes process, file or dir", -1;
		d->runs = !strcmp(arg, "dir") ? AN_RUNS_DIR : !strcmp(arg, "file") ? AN_RUNS_FILE
										 : AN_RUNS_PROCESS;
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
				   own_option, NULL, 1 };

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
		    struct an *const *also, size_t n, struct an *const *declared,
		    const char *fixed_declared)
{
	r->runs = d->runs;
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < d->n[s]; i++) {
			struct an *e[READALL_FEEDS] = { side[s] };
			if (declared) {
				readall_add_routed(r, side[s], declared[s], fixed_declared,
						   d->side[s][i], NULL);
				continue;
			}
			for (size_t k = 0; k < n && k + 1 < READALL_FEEDS; k++)
				e[k + 1] = also[(size_t)s * n + k];
			readall_add_to(r, e, n + 1 < READALL_FEEDS ? n + 1 : READALL_FEEDS,
				       d->side[s][i], NULL);
		}
}

void diff_warn_shared(const struct readall *r, const char *cmd)
{
	const char *proc, *host;
	if (r->runs != AN_RUNS_FILE)
		return;
	for (size_t i = 0; i < r->nproc; i++) {
		size_t k = 0, same = 0;
		for (; k < i && strcmp(r->proc[k], r->proc[i]); k++)
			;
		if (k < i)
			continue;   /* said at its first log */
		for (k = i; k < r->nproc; k++)
			same += !strcmp(r->proc[k], r->proc[i]);
		if (same < 2)
			continue;
		host = r->proc[i];
		proc = strchr(host, '\x1f') + 1;
		fprintf(stderr, "timeline %s: warning: --runs file: %zu logs of one process (pid %.*s "
			"on %.*s) are %zu runs, though its threads share one machine's moments: "
			"--runs process pools them\n", cmd, same, (int)strcspn(proc, ":"), proc,
			(int)(proc - 1 - host), host, same);
	}
}

/* Reads the inputs of each side of D into R's engines E[0] or E[1] (and,
 * with ED, those of logs that declare pairs into ED[0] or ED[1]), a run
 * being of kind RUNS: R's fed, nothing (readall_kept_nothing()), problems. */
static void read_into(struct diffrun *r, const struct anopts *a, const struct diffargs *d,
		      struct an **e, struct an **ed, int runs, const char *cmd)
{
	struct readall ra;
	struct diffargs sides = *d;
	sides.runs = runs;
	readall_init(&ra, cmd);
	ra.w = &a->w;
	ra.fixed = r->fixed;
	ra.procs = 1;
	diff_add_sides(&ra, &sides, e, NULL, 0, ed, r->fixed_d);
	readall_run(&ra);
	for (int s = 0; s < 2; s++) {
		r->fed[s] = readall_fed(&ra, e[s]);
		r->fed[2 + s] = ed ? readall_fed(&ra, ed[s]) : 0;
	}
	r->nothing = readall_kept_nothing(&ra);
	if (runs != AN_RUNS_FULL)
		diff_warn_shared(&ra, cmd);
	readall_free(&ra);
	r->problems += ra.problems;
}

/* Reads D's sides into R's engines; with SAVE[s], at the finest grain
 * first (each run in full), written as summaries (a side's pairs when a
 * log of it declares any, else its lags) and added to the engines as
 * their readers would. */
static void read_sides(struct diffrun *r, const struct anopts *a, const struct diffargs *d,
		       const char *const *save, const char *cmd)
{
	struct an_options full = a->o, full_d = r->od;
	struct an_summary_map m = { r->fixed, NULL, d->runs, 0, NULL, NULL, NULL, NULL };
	struct an *all[2], *all_d[2] = { NULL, NULL }, **ed = a->declared ? r->ed : NULL;
	if (!save || (!save[0] && !save[1])) {
		read_into(r, a, d, r->e, ed, d->runs, cmd);
		return;
	}
	full.by = full_d.by = AN_SUMMARY_KEYS;
	full.keep_self = full_d.keep_self = full.keep_latency = full_d.keep_latency = 1;
	full.slowest = full_d.slowest = AN_SUMMARY_SLOWEST;   /* for stats --slowest */
	full.slowest_for_save = full_d.slowest_for_save = 1;
	for (int s = 0; s < 2; s++) {
		all[s] = an_new(&full);
		all_d[s] = ed ? an_new(&full_d) : NULL;
	}
	read_into(r, a, d, all, ed ? all_d : NULL, AN_RUNS_FULL, cmd);
	for (int s = 0; s < 2; s++) {
		int pairs = ed && r->fed[2 + s];
		m.fixed = pairs ? r->fixed_d : r->fixed;
		r->problems += sumfile_save(cmd, save[s], pairs ? all_d[s] : all[s], m.fixed,
					    pairs ? ed[s] : r->e[s], &m) < 0;
		an_free(all[s]);
		an_free(all_d[s]);
	}
}

int diff_run(struct diffrun *r, const struct anopts *opts, const struct diffargs *d,
	     const char *const *save, const char *cmd, int warn)
{
	struct anopts *a = &r->a;
	memset(r, 0, sizeof *r);
	*a = *opts;   /* the comparisons point at its options */
	anopts_fixed(a, r->fixed, sizeof r->fixed);
	a->o.by |= 1u << AN_RUN;   /* each run's rows apart, for the test over runs */
	a->o.keep_self = 1;        /* the yardstick: each group's own cycles */
	r->e[0] = an_new(&a->o);
	r->e[1] = an_new(&a->o);
	if (a->declared) {   /* the logs that declare pairs: each in its own unit */
		anopts_declared(a, &r->od);
		anopts_fixed_declared(a, r->fixed_d, sizeof r->fixed_d);
		r->ed[0] = an_new(&r->od);
		r->ed[1] = an_new(&r->od);
	}
	read_sides(r, a, d, save, cmd);
	for (int s = 0; s < 2 && !r->refused; s++)
		r->refused = r->fed[s] && anopts_refuse_unit(a, r->e[s], cmd);
	for (int s = 0; s < 2 && !r->refused && warn; s++)
		if (r->fed[s])   /* with no file read, the reasons were said */
			anopts_warn(a, r->e[s], cmd);
		else if (r->fed[2 + s])   /* only logs that declare pairs */
			anopts_empty(r->ed[s], cmd);
	r->pairs = r->fed[2] || r->fed[3];
	r->lags = !r->pairs || r->fed[0] || r->fed[1];
	compare(&r->c, cmd, r->e[0], r->e[1], &a->o, d->threshold, d->alpha, d->absolute);
	if (r->pairs)
		compare(&r->cd, cmd, r->ed[0], r->ed[1], &r->od, d->threshold, d->alpha, d->absolute);
	return r->problems + r->refused;
}

void diff_run_free(struct diffrun *r)
{
	compare_free(&r->c);
	if (r->pairs)
		compare_free(&r->cd);
	for (int s = 0; s < 2; s++) {
		an_free(r->e[s]);
		an_free(r->ed[s]);
	}
}

void diff_title(char *buf, size_t size, const char *per, const struct diffargs *d,
		const struct comparison *c)
{
	static const char *const kind[] = { "logs", "directories", "processes", "logs" };
	char what[128], one[64];
	if (per && !strcmp(per, "declared"))
		snprintf(what, sizeof what, "cycles per unit, each pair in its own");
	else if (per && an_unit_singular(one, sizeof one, per))
		snprintf(what, sizeof what, "cycles per %s", one);
	else
		snprintf(what, sizeof what, "lag in cycles");
	snprintf(buf, size, "%s, A -> B, runs (%s) as samples%s: A %zu runs of %zu logs, B %zu "
		 "runs of %zu logs (threshold %g%%, alpha %g, intervals at %g%%)", what, kind[d->runs],
		 c->relative ? ", relative to their speed" : "", c->runs[0], c->logs[0], c->runs[1],
		 c->logs[1], d->threshold, d->alpha, 100 * (1 - d->alpha));
}

void diff_command(char *buf, size_t size, const struct anopts *a, const struct diffargs *d,
		  int declared)
{
	static const char *const runs[] = { "file", "dir", "process", "file" };
	struct anopts o = *a;
	char fixed[1024], keys[128] = "";
	size_t len;
	if (declared)
		o.o.per = NULL;
	anopts_fixed(&o, fixed, sizeof fixed);
	for (int k = 0; a->by_given && k < AN_RUN; k++)
		if (a->o.by >> k & 1 && k != AN_BUCKET)
			snprintf(keys + strlen(keys), sizeof keys - strlen(keys), "%s%s", *keys ? "," : "",
				 an_key_names[k]);
	len = (size_t)snprintf(buf, size, "timeline diff%s%s%s%s", *fixed ? " " : "", fixed,
			       *keys ? " --by " : "", keys);
	if (d->threshold != 5 && len < size)
		len += (size_t)snprintf(buf + len, size - len, " --threshold %g", d->threshold);
	if (d->alpha != 0.05 && len < size)
		len += (size_t)snprintf(buf + len, size - len, " --alpha %g", d->alpha);
	if (d->runs != AN_RUNS_PROCESS && len < size)
		len += (size_t)snprintf(buf + len, size - len, " --runs %s", runs[d->runs]);
	if (d->absolute && len < size)
		len += (size_t)snprintf(buf + len, size - len, " --absolute");
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < d->n[s] && len < size; i++)
			len += (size_t)snprintf(buf + len, size - len, " --%c %s", "ab"[s], d->side[s][i]);
}

int diff_status(int problems, const struct comparison *c)
{
	return problems ? EXIT_USAGE : c->slower ? EXIT_FINDING : EXIT_OK;
}

/* Prints comparison C: its pairs under a title saying what was compared,
 * then the groups on one side only (CSV holds one table: only their count,
 * on stderr). */
static void print(const struct args *d, const struct comparison *c, const char *per)
{
	char title[300];
	int format = d->a.format;
	struct table *t = compare_table(c, format), *lone = compare_lone_table(c);
	diff_title(title, sizeof title, per, &d->d, c);
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
	struct diffrun r;
	int rc = parse_args(&d, argc, argv), problems, status, show;
	if (rc >= 0)
		return rc;
	problems = diff_run(&r, &d.a, &d.d, d.save, "diff", 1);
	show = !r.nothing && !r.refused;   /* else each input said why: no table of nothing */
	if (show && r.pairs)
		print(&d, &r.cd, "declared");
	if (show && r.pairs && r.lags && d.a.format == FMT_TEXT)
		out_char('\n');
	if (show && r.lags && !(r.pairs && d.a.format == FMT_CSV))
		print(&d, &r.c, d.a.o.per);
	status = diff_status(problems, &r.c);
	if (r.pairs && status == EXIT_OK)
		status = diff_status(0, &r.cd);
	diff_run_free(&r);
	anopts_free(&d.a);
	return cli_finish("diff", status);
}
