/* report.c: `timeline report`, the pictures of what `stats` (and, with
 * --a and --b, `diff`) says of a set of logs, in one self-contained HTML
 * page, or the data behind each chart as JSON lines. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "out.h"
#include "report.h"
#include "stats/anopts.h"
#include "stats/diff.h"
#include "stats/readall.h"
#include "view.h"

static const char usage[] =
	"usage: timeline report [OPTIONS] INPUT... -o FILE\n"
	"       timeline report [OPTIONS] --a PATH... --b PATH... -o FILE\n"
	"\n"
	"Draws what stats says of the logs as one self-contained HTML page of\n"
	"charts: a summary of the inputs and of each app's cycles per packet and\n"
	"share of the breaths' cycles; the shares per process; cycles per packet\n"
	"over time (medians, 25-75 and 5-95 percentile ribbons), with throughput;\n"
	"their distributions; cycles per packet by batch size; event lags; and\n"
	"NUMA nodes and CPUs when there is more than one. The page loads nothing\n"
	"from outside itself. With --a and --b it first compares the sides as diff\n"
	"does (the same verdicts, each in its own colour, the slowed groups first,\n"
	"and exit 1 when one is SLOWER), and shows every section with the sides\n"
	"apart: the summary gives each app's cycles per packet of A and of B side\n"
	"by side, with diff's change and verdict (over the runs' values). With\n"
	"--format json, the data behind every chart, a line each.\n"
	"\n"
	"-a and -b are --a and --b, the sides; --alpha and --by have no short\n"
	"form here.\n"
	"\n"
	"   -o, --output FILE   the page (or the JSON; - for standard output)\n"
	"   -f, --format FMT    html (default) or json\n"
	"   -p, --per UNIT      cycles per UNIT of each begin/end pair (default packets)\n"
	"       --bucket ARG=EDGES  batch sizes for the batch section (default\n"
	"                       packets=1,2,4,8,16,32,64,128,inf)\n"
	"       --pair BEGIN=END  also pair these events\n"
	"       --bins N        at most N time bins per series over time (default\n"
	"                       1000; about one per 16 pairs)\n"
	"   -g, --group LABEL=PATH  read PATH as the group LABEL\n"
	"       --by KEYS       group the comparison of --a and --b by these keys\n"
	"                       (as diff; default event,app)\n" DIFF_USAGE WINDOW_USAGE
	"   -h, --help          show this help\n";

#define OPT_BINS 0x170

static const struct option options[] = {
	ANOPTS_OPTIONS,
	DIFF_OPTIONS,
	{ "output", required_argument, NULL, 'o' },
	{ "group", required_argument, NULL, 'g' },
	{ "bins", required_argument, NULL, OPT_BINS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The batch sizes of the batch section when --bucket is not given. */
static const double default_edges[] = { 1, 2, 4, 8, 16, 32, 64, 128, INFINITY };

/* What the command line asks for. */
struct args {
	struct anopts a;
	struct diffargs d;
	const char *out;             /* -o */
	int json;                    /* --format json */
	unsigned bins;               /* --bins */
	char *labels[ANOPTS_MAX_GROUPS], *paths[ANOPTS_MAX_GROUPS];   /* --group LABEL=PATH */
	int ngroups;
	char fixed[1024];            /* the options a summary input must have been made
				      * with: those of the engine it feeds (anopts_fixed()) */
};

/* Takes report's own option C with ARG into CTX, a struct args: 1 taken,
 * 0 not one of report's own, -1 with *WHY set for a bad value. */
static int own_option(void *ctx, int c, const char *arg, const char **why)
{
	struct args *r = ctx;
	char *end;
	unsigned long n;
	switch (c) {
	case 'o':
		r->out = arg;
		return 1;
	case 'f':
		if (strcmp(arg, "html") && strcmp(arg, "json"))
			return *why = "--format must be html or json", -1;
		r->json = !strcmp(arg, "json");
		return 1;
	case OPT_BINS:
		n = strtoul(arg, &end, 10);
		if (end == arg || *end || n < 1 || n > 100000)
			return *why = "--bins takes a number from 1 to 100000", -1;
		r->bins = (unsigned)n;
		return 1;
	case 'g':
		return anopts_group(arg, r->labels, r->paths, &r->ngroups, why);
	}
	return diff_option(&r->d, c, arg, why);
}

static const struct ancmd report = { "report", usage, ":" ANOPTS_SHORT DIFF_SHORT "o:g:h",
				     options, own_option, "packets", 0 };

/* Parses the command line into R. Returns -1 to go on, or the exit code
 * to return now. */
static int parse(struct args *r, int argc, char **argv)
{
	int rc = anopts_parse(&r->a, &report, argc, argv, r);
	int diff = r->d.n[0] || r->d.n[1];
	if (rc >= 0)
		return rc;
	if (diff && (rc = diff_check_sides("report", &r->d, optind < argc || r->ngroups)) >= 0)
		return rc;
	if (!diff && r->a.by_given)
		return cli_usage_error("report", "--by groups the comparison of --a and --b; "
				       "without them each section has its own groups");
	if (!diff && optind == argc && !r->ngroups)
		return cli_usage_error("report", "missing input");
	if (!r->out && !r->json)
		return cli_usage_error("report", "missing -o FILE, the page to write");
	return -1;
}

/* The slowest pairs the summary's table lists, per pair and app. */
#define REPORT_SLOWEST 10

/* The engines of a report: cycles per unit, lags, and A and B. */
struct engines {
	struct an_options po, lo;    /* the options of p and lags */
	struct an *p, *lags, *side[2];
	struct an_options so;        /* the options of pside: p's, without series (the
				      * sections of each side have none) */
	struct an *pside[2], *lside[2];   /* with --a and --b: p and lags of each side
					   * (lags adds the lside up: pooled()) */
};

/* Makes R's engines into E: P grouped by everything the sections show,
 * with timelines; LAGS by event; the sides as diff makes them. */
static void make_engines(struct args *r, struct engines *e, int diff)
{
	e->po = r->a.o;
	e->po.by = 1u << AN_EVENT | 1u << AN_APP | 1u << AN_CPU | 1u << AN_NUMA | 1u << AN_GROUP;
	if (!e->po.bucket_arg) {
		e->po.bucket_arg = "packets";
		e->po.edges = default_edges;
		e->po.nedges = sizeof default_edges / sizeof *default_edges;
	}
	e->po.series = r->bins;
	e->po.slowest = REPORT_SLOWEST;
	e->lo = r->a.o;
	e->lo.per = NULL;
	e->lo.by = 1u << AN_EVENT;
	e->lo.bucket_arg = NULL;
	e->lo.nedges = 0;
	e->p = an_new(&e->po);
	e->lags = an_new(&e->lo);
	for (int k = 0; k < 2; k++)
		e->side[k] = e->pside[k] = e->lside[k] = NULL;
	if (diff) {
		r->a.o.by |= 1u << AN_RUN;   /* as diff: each run's rows apart */
		e->so = e->po;
		e->so.series = 0;
		for (int k = 0; k < 2; k++) {
			e->side[k] = an_new(&r->a.o);
			e->pside[k] = an_new(&e->so);
			e->lside[k] = an_new(&e->lo);
		}
	}
}

/* With --a and --b, adds each side's lags up into E's lags, which pool
 * the sides for the summary's (p, with its series, reads both). */
static void pooled(struct engines *e)
{
	for (int k = 0; e->side[0] && k < 2; k++)
		if (an_merge(e->lags, e->lside[k]) < 0)
			abort();
}

/* Reads R's inputs into E (keeping what each file was, in RA); returns
 * how many could not be read. */
static int read_inputs(struct args *r, struct engines *e, struct readall *ra, int argc,
		       char **argv)
{
	struct an *both[2] = { e->p, e->lags };
	struct anopts fed = r->a;
	readall_init(ra, "report");
	ra->w = &r->a.w;
	ra->facts = 1;
	/* a summary feeds the first engine of its file: a side, else p */
	if (!e->side[0])
		fed.o = e->po;
	anopts_fixed(&fed, r->fixed, sizeof r->fixed);
	ra->fixed = r->fixed;
	if (e->side[0]) {
		struct an *each[6] = { e->p, e->pside[0], e->lside[0], e->p, e->pside[1], e->lside[1] };
		diff_add_sides(ra, &r->d, e->side, each, 3, NULL, NULL);
	} else {
		for (int i = 0; i < r->ngroups; i++)
			readall_add_to(ra, both, 2, r->paths[i], r->labels[i]);
		for (int i = optind; i < argc; i++)
			readall_add_to(ra, both, 2, argv[i], NULL);
	}
	readall_run(ra);
	return ra->problems;
}

/* The unit of the verdicts' comparison (diff --per): R's --per, or the
 * report's own unit (verdicts()). */
static const char *da_per;

/* The verdicts of an A/B report, as `timeline diff` gives them over the
 * same inputs: without --per, the pairs the logs declare when one of them
 * (as RA read them) declares any, else the report's unit; read into DR,
 * the command into CMD. Returns the comparison to show. */
static struct comparison *verdicts(const struct args *r, const struct readall *ra,
				   struct diffrun *dr, char *cmd, size_t size)
{
	struct anopts a = r->a;
	int declared = 0;
	for (size_t i = 0; i < ra->nfile && r->a.o.per_default; i++)
		declared |= ra->file[i].declares;
	a.o.by &= ~(1u << AN_RUN);
	a.declared = declared;
	if (declared)
		a.o.per = NULL;
	da_per = a.o.per;
	a.o.per_default = 0;
	diff_command(cmd, size, &r->a, &r->d, declared);
	diff_run(dr, &a, &r->d, NULL, "report", 0);
	return dr->pairs ? &dr->cd : &dr->c;
}

/* Puts C's SLOWER groups first, the others after them, each in the order
 * diff gives (by impact). */
static void slowed_first(struct comparison *c)
{
	for (size_t i = 0, k = 0; i < c->ncmp; i++)
		if (!strcmp(c->cmp[i].verdict, "SLOWER")) {
			struct cmp m = c->cmp[i];
			memmove(&c->cmp[k + 1], &c->cmp[k], (i - k) * sizeof m);
			c->cmp[k++] = m;
		}
}

/* The command line, for the page's header, into BUF. */
static void command_line(char *buf, size_t size, int argc, char **argv)
{
	size_t len = (size_t)snprintf(buf, size, "timeline report");
	for (int i = 1; i < argc && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, " %s", argv[i]);
}

/* Writes the report of IN to R's output; returns 0, or -1 (reported). */
static int write_out(const struct args *r, const struct rp_input *in)
{
	const char *name = r->out && strcmp(r->out, "-") ? r->out : NULL;
	if (name && !freopen(name, "w", stdout)) {
		cli_error("report", "%s: %s", name, strerror(errno));
		return -1;
	}
	report_write(r->json ? &rp_json : &rp_html, in);
	out_flush();
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error("report", "%s: error writing: %s", name ? name : "standard output",
			  strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct args r = { .d = DIFFARGS_INIT, .bins = 1000 };
	struct engines e;
	struct readall ra;
	struct comparison c;
	struct diffrun dr;
	char title[300], cmd[1024], dcmd[4096];
	int rc = parse(&r, argc, argv), diff = r.d.n[0] > 0, problems;
	struct rp_input in;
	if (rc >= 0)
		return rc;
	make_engines(&r, &e, diff);
	problems = read_inputs(&r, &e, &ra, argc, argv);
	pooled(&e);
	/* as diff warns, over what its sides read (a summary feeds only them);
	 * with no file read, the reasons were said */
	for (int k = 0; k < (diff ? 2 : 1); k++)
		if (readall_fed(&ra, diff ? e.side[k] : e.p))
			anopts_warn(&r.a, diff ? e.side[k] : e.p, "report");
	for (size_t i = 0; diff && i < ra.nfile; i++)
		if (ra.file[i].summary)
			fprintf(stderr, "timeline report: note: %s: a summary counts in the A against B "
				"section only; the sections after it show the logs alone\n",
				ra.file[i].path);
	command_line(cmd, sizeof cmd, argc, argv);
	e.po.per = an_unit(diff ? e.side[0] : e.p);   /* the titles' unit: declared ones too */
	in = (struct rp_input){ .e = e.p, .lags = e.lags, .o = &e.po, .files = ra.file,
				.nfiles = ra.nfile, .command = cmd,
				.sides = { e.pside[0], e.pside[1] },
				.side_lags = { e.lside[0], e.lside[1] } };
	if (diff) {   /* the verdicts: diff's own, over the same inputs */
		struct comparison *dc = verdicts(&r, &ra, &dr, dcmd, sizeof dcmd);
		problems += dr.problems;
		slowed_first(dc);
		diff_title(title, sizeof title, dc == &dr.cd ? "declared" : da_per, &r.d, dc);
		in.cmp = dc;
		in.diff_title = title;
		in.diff_command = dcmd;
		in.fed[0] = e.side[0];
		in.fed[1] = e.side[1];
		c = *dc;
	}
	if (readall_kept_nothing(&ra))
		;   /* nothing was kept (each input said why): no page of nothing */
	else if (write_out(&r, &in) < 0)
		problems++;
	rc = diff ? diff_status(problems, &c) : problems ? EXIT_USAGE : EXIT_OK;
	if (diff)
		diff_run_free(&dr);
	for (int k = 0; k < 2; k++) {
		an_free(e.side[k]);
		an_free(e.pside[k]);
		an_free(e.lside[k]);
	}
	an_free(e.p);
	an_free(e.lags);
	readall_free(&ra);
	for (int i = 0; i < r.ngroups; i++)
		free(r.labels[i]);
	anopts_free(&r.a);
	return rc;
}
