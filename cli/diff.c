/* diff.c: `timeline diff`, two sets of logs compared group by group: the
 * medians and p90s, the change with a 95% confidence interval, and the
 * Mann-Whitney U test. Exits 1 when a group got significantly slower
 * beyond the noise threshold, so that CI can gate on it. */
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
	"usage: timeline diff [OPTIONS] A B\n"
	"       timeline diff [OPTIONS] --a PATH... --b PATH...\n"
	"\n"
	"Compares the logs of A (a file or directory: before, lab) with those of\n"
	"B (after, production), group by group: n, median and p90 on each side,\n"
	"the change of the median in % with a 95% confidence interval, and the\n"
	"two-sided Mann-Whitney U p-value. Rows are sorted by impact, the cycles\n"
	"gained or lost per unit (or of lag). Exits 1 when a group got slower by\n"
	"more than the threshold with p below alpha, else 0.\n"
	"\n" ANOPTS_USAGE
	"       --a PATH        a log or directory of side A (repeatable)\n"
	"       --b PATH        a log or directory of side B (repeatable)\n"
	"   -t, --threshold PCT the noise band: smaller changes are not findings\n"
	"                       (default 5)\n"
	"   -a, --alpha P       the significance level (default 0.05)\n"
	"   -h, --help          show this help\n";

static const struct option options[] = {
	ANOPTS_OPTIONS,
	{ "a", required_argument, NULL, 'A' },
	{ "b", required_argument, NULL, 'Z' },
	{ "threshold", required_argument, NULL, 't' },
	{ "alpha", required_argument, NULL, 'a' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* A group's comparison. */
struct cmp {
	const struct an_row *a, *b;
	double ma, mb, pa, pb;       /* medians and p90s */
	double change, lo, hi;       /* median(B) / median(A) - 1, and its CI */
	int ci;                      /* the CI is defined */
	double p;                    /* Mann-Whitney */
	double impact;               /* mb - ma */
	const char *verdict;
};

/* The key of row R as one string, for matching across the sides. */
static void joined(const struct an *e, const struct an_options *o, const struct an_row *r,
		   char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int k = 0; k < AN_NKEYS && len < size; k++)
		if (o->by & (1u << k))
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? " " : "",
						k == AN_BUCKET ? an_bucket_label(e, r->bucket) : r->key[k]);
}

static int by_impact(const void *x, const void *y)
{
	double a = fabs(((const struct cmp *)x)->impact), b = fabs(((const struct cmp *)y)->impact);
	return a < b ? 1 : a > b ? -1 : 0;
}

static int parse_number(const char *s, double *v)
{
	char *end;
	*v = strtod(s, &end);
	return end == s || *end || !isfinite(*v) ? -1 : 0;
}

/* What the command line asks for. */
struct args {
	struct anopts a;
	char *side[2][256];          /* the inputs of A and B */
	int n[2];
	double threshold, alpha;
};

/* Takes diff's own option C with ARG into CTX, a struct args: 1 taken, 0
 * not one of diff's own, -1 with *WHY set for a bad value. */
static int own_option(void *ctx, int c, const char *arg, const char **why)
{
	struct args *d = ctx;
	int s = c == 'Z';
	switch (c) {
	case 'A':
	case 'Z':
		if (d->n[s] == 256)
			return *why = "too many inputs", -1;
		d->side[s][d->n[s]++] = (char *)arg;
		return 1;
	case 't':
		if (parse_number(arg, &d->threshold) || d->threshold < 0)
			return *why = "--threshold takes a percentage, e.g. 5", -1;
		return 1;
	case 'a':
		if (parse_number(arg, &d->alpha) || !(d->alpha > 0 && d->alpha < 1))
			return *why = "--alpha takes a level between 0 and 1, e.g. 0.05", -1;
		return 1;
	}
	return 0;
}

static const struct ancmd diff = { "diff", usage, ":" ANOPTS_SHORT "t:a:h", options, own_option };

/* Parses the command line into D: the options, then A B unless --a and --b
 * were given. Returns -1 to go on, or the exit code to return now. */
static int parse_args(struct args *d, int argc, char **argv)
{
	int rc = anopts_parse(&d->a, &diff, argc, argv, d);
	if (rc >= 0)
		return rc;
	if (!d->n[0] && !d->n[1] && argc - optind == 2) {
		d->side[0][d->n[0]++] = argv[optind];
		d->side[1][d->n[1]++] = argv[optind + 1];
	} else if (!d->n[0] || !d->n[1] || optind != argc) {
		return cli_usage_error("diff", usage,
				       "give two inputs A B, or --a and --b with one or more each");
	}
	return -1;
}

int cmd_diff(int argc, char **argv)
{
	struct args d = { .threshold = 5, .alpha = 0.05 };
	struct anopts a;
	struct readall r;
	const char *cols[AN_NKEYS + 12];
	char *sa[256], *sb[256], title[160];
	int na = 0, nb = 0, nk, nc, slower = 0, rc = parse_args(&d, argc, argv);
	double threshold, alpha;
	struct an *ea, *eb;
	struct an_row **ra, **rb;
	size_t nra, nrb, ncmp = 0;
	struct cmp *cmp;
	struct table *t, *only;
	static const char *const only_cols[] = { "side", "group", "n" };

	if (rc >= 0)
		return rc;
	a = d.a, threshold = d.threshold, alpha = d.alpha, na = d.n[0], nb = d.n[1];
	memcpy(sa, d.side[0], sizeof sa);
	memcpy(sb, d.side[1], sizeof sb);
	readall_init(&r, "diff", &a.o);
	ea = an_new(&a.o);
	eb = an_new(&a.o);
	for (int i = 0; i < na; i++)
		readall_add(&r, ea, sa[i], NULL);
	for (int i = 0; i < nb; i++)
		readall_add(&r, eb, sb[i], NULL);
	readall_run(&r);
	ra = an_rows(ea, &nra);
	rb = an_rows(eb, &nrb);

	/* pair the groups: both sides' rows are sorted by key, so merge them */
	if (!(cmp = calloc(nra + 1, sizeof *cmp)))
		abort();
	only = table_new("only", only_cols, 3);
	/* both sides' rows are sorted alike: merge them */
	for (size_t i = 0, j = 0; i < nra || j < nrb;) {
		int d = i == nra ? 1 : j == nrb ? -1 : an_row_cmp(ea, ra[i], rb[j]);
		char k[1024], n[32];
		if (d < 0 || d > 0) {
			const struct an_row *r = d < 0 ? ra[i++] : rb[j++];
			joined(d < 0 ? ea : eb, &a.o, r, k, sizeof k);
			snprintf(n, sizeof n, "%llu", (unsigned long long)r->h.n);
			table_add(only, (char *[]){ d < 0 ? "A" : "B", k, n });
		} else {
			cmp[ncmp].a = ra[i++];
			cmp[ncmp++].b = rb[j++];
		}
	}
	for (size_t i = 0; i < ncmp; i++) {
		struct cmp *m = &cmp[i];
		m->ma = hist_quantile(&m->a->h, 0.5);
		m->mb = hist_quantile(&m->b->h, 0.5);
		m->pa = hist_quantile(&m->a->h, 0.9);
		m->pb = hist_quantile(&m->b->h, 0.9);
		m->change = m->ma > 0 ? m->mb / m->ma - 1 : NAN;
		m->ci = hist_change_ci(&m->a->h, &m->b->h, &m->lo, &m->hi) == 0;
		m->p = hist_mwu_p(&m->a->h, &m->b->h);
		m->impact = m->mb - m->ma;
		if (m->a->h.n < 10 || m->b->h.n < 10) {
			char k[1024];
			joined(ea, &a.o, m->a, k, sizeof k);
			fprintf(stderr, "timeline diff: warning: %s: fewer than 10 samples (A %llu, B %llu)\n", k,
				(unsigned long long)m->a->h.n, (unsigned long long)m->b->h.n);
			m->verdict = "few samples";
		} else if (m->p < alpha && m->change * 100 > threshold) {
			m->verdict = "SLOWER";
			slower = 1;
		} else if (m->p < alpha && -m->change * 100 > threshold) {
			m->verdict = "faster";
		} else {
			m->verdict = "same";
		}
	}
	qsort(cmp, ncmp, sizeof *cmp, by_impact);

	nk = 0;
	for (int k = 0; k < AN_NKEYS; k++)
		if (a.o.by & (1u << k))
			cols[nk++] = an_key_names[k];
	nc = nk;
	{
		static const char *const stat_cols[] = { "n_a", "n_b", "p50_a", "p50_b", "p90_a", "p90_b",
							 "change%", "ci_lo%", "ci_hi%", "p", "verdict" };
		for (int i = 0; i < 11; i++)
			cols[nc++] = stat_cols[i];
	}
	t = table_new("diff", cols, nc);
	for (size_t i = 0; i < ncmp; i++) {
		const struct cmp *m = &cmp[i];
		char buf[10][32], *cells[AN_NKEYS + 12];
		double v[10] = { (double)m->a->h.n, (double)m->b->h.n, m->ma, m->mb, m->pa, m->pb,
				 m->change * 100, m->ci ? m->lo * 100 : NAN, m->ci ? m->hi * 100 : NAN, m->p };
		int n = 0;
		for (int k = 0; k < AN_NKEYS; k++)
			if (a.o.by & (1u << k))
				cells[n++] = k == AN_BUCKET ? (char *)an_bucket_label(ea, m->a->bucket) : m->a->key[k];
		for (int j = 0; j < 10; j++) {
			if (j == 9)
				snprintf(buf[j], sizeof buf[j], m->p < 0.0001 ? "%.1e" : "%.4f", m->p);
			else if (j >= 6)
				snprintf(buf[j], sizeof buf[j], isnan(v[j]) ? "-" : "%+.1f", v[j]);
			else
				cell_num(buf[j], sizeof buf[j], v[j]);
			cells[n++] = buf[j];
		}
		cells[n++] = (char *)m->verdict;
		table_add(t, cells);
	}
	if (a.o.per)
		snprintf(title, sizeof title, "cycles per %.*s, A -> B (threshold %g%%, alpha %g)",
			 (int)strcspn(a.o.per, "s"), a.o.per, threshold, alpha);
	else
		snprintf(title, sizeof title, "lag in cycles, A -> B (threshold %g%%, alpha %g)", threshold,
			 alpha);
	table_print(t, a.format, title);
	if (table_rows(only)) {
		if (a.format == FMT_TEXT)
			out_char('\n');
		if (a.format != FMT_CSV)   /* CSV holds one table: see stderr below */
			table_print(only, a.format, "groups on one side only");
	}
	if (a.format == FMT_CSV && table_rows(only))
		fprintf(stderr, "timeline diff: %zu groups are on one side only (see --format text)\n",
			table_rows(only));
	out_flush();
	table_free(t);
	table_free(only);
	free(cmp);
	an_free(ea);
	an_free(eb);
	anopts_free(&a);
	if (r.problems)
		return cli_finish("diff", EXIT_USAGE);
	return cli_finish("diff", slower ? EXIT_FINDING : EXIT_OK);
}
