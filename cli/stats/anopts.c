/* anopts.c: the analysis options `stats` and `diff` share, checked and
 * turned into an_options: keys, unit, buckets, pairs and output format. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "anopts.h"
#include "natural.h"
#include "rowkey.h"
#include "usage.h"
#include "view.h"

static void anopts_init(struct anopts *a)
{
	memset(a, 0, sizeof *a);
	a->o.pairs = a->pairs;
}

/* "packets=0,1,16,32,64,inf" into A's bucket argument and edges. */
static int parse_bucket(struct anopts *a, const char *arg)
{
	const char *eq = strchr(arg, '='), *p;
	double prev = -INFINITY;
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof a->bucket_arg)
		return -1;
	memcpy(a->bucket_arg, arg, (size_t)(eq - arg));
	a->bucket_arg[eq - arg] = '\0';
	a->o.nedges = 0;
	for (p = eq + 1; *p;) {
		char *end;
		double v = strtod(p, &end);
		if (end == p || (*end && *end != ',') || !(v > prev) || v < 0 ||
		    a->o.nedges == ANOPTS_MAX_EDGES)
			return -1;
		a->edges[a->o.nedges++] = v;
		prev = v;
		p = *end ? end + 1 : end;
	}
	if (a->o.nedges < 1 || isinf(a->edges[0]))
		return -1;
	a->o.edges = a->edges;
	a->o.bucket_arg = a->bucket_arg;
	return 0;
}

int anopts_pair(struct an_pair *p, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1] || strchr(eq + 1, '='))
		return -1;
	if (!(p->begin = strndup(arg, (size_t)(eq - arg))) || !(p->end = strdup(eq + 1)))
		abort();
	p->prefix = NULL;
	return 0;
}

/* Handles option C with ARG if it is an analysis option: 1 handled, 0 not
 * one of ours, -1 with *WHY set for a bad value. */
static int anopts_option(struct anopts *a, int c, const char *arg, const char **why)
{
	const char *bad;
	switch (c) {
	case ANOPTS_BY:
	case 'b':   /* stats' -b; diff and report take -b as side B first */
		if (an_parse_keys(arg, &a->o.by, &bad) || !a->o.by) {
			static char msg[128];
			snprintf(msg, sizeof msg, "--by: unknown key '%s' (event, app, process, thread, cpu, numa, host, group)",
				 *arg ? bad : "");
			return *why = msg, -1;
		}
		a->by_given = 1;
		return 1;
	case 'p':
		if (!*arg || strlen(arg) > 60)
			return *why = "--per takes an argument name such as packets or bytes", -1;
		a->o.per = arg;
		return 1;
	case 'B':
		if (parse_bucket(a, arg))
			return *why = "--bucket takes ARG=EDGES with increasing edges, e.g. packets=0,1,16,32,64,inf", -1;
		return 1;
	case 'P':
		if (a->o.npairs == ANOPTS_MAX_PAIRS)
			return *why = "too many --pair rules", -1;
		if (anopts_pair(&a->pairs[a->o.npairs], arg))
			return *why = "--pair takes BEGIN=END, e.g. rx_start=rx_end", -1;
		a->o.npairs++;
		return 1;
	case 'f':
		return view_format(arg, &a->format, why) ? -1 : 1;
	case ANOPTS_LAGS:
		a->lags = 1;
		return 1;
	}
	return window_option(&a->w, c, arg, why);
}

/* Finishes the options: default keys, the built-in pairs after the user's. */
static void anopts_ready(struct anopts *a)
{
	if (!a->by_given)
		a->o.by = a->o.per ? (1u << AN_EVENT | 1u << AN_APP) : 1u << AN_EVENT;
	if (a->o.bucket_arg)
		a->o.by |= 1u << AN_BUCKET;
	for (size_t i = 0; i < 3; i++)
		a->pairs[a->o.npairs++] = an_default_pairs[i];
}

int anopts_parse(struct anopts *a, const struct ancmd *cmd, int argc, char **argv, void *ctx)
{
	const char *why;
	int c, taken;
	anopts_init(a);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, cmd->shortopts, cmd->options, NULL)) != -1) {
		if (c == 'h') {
			fputs(cmd->usage, stdout);
			return cli_finish(cmd->name, EXIT_OK);
		}
		/* the command's own options first, then the shared ones */
		if (!(taken = cmd->own(ctx, c, optarg, &why)))
			taken = anopts_option(a, c, optarg, &why);
		if (taken < 0)
			return cli_usage_error(cmd->name, why);
		if (!taken)
			return cli_bad_option(cmd->name, argv, c);
	}
	if (window_check(&a->w, &why) < 0)
		return cli_usage_error(cmd->name, why);
	if (a->lags && a->o.per)
		return cli_usage_error(cmd->name, "--lags and --per: lags, or cycles per unit");
	a->declared = !a->o.per && !a->lags && !cmd->per && cmd->declared;
	if (!a->o.per) {   /* the command's unit, or what the logs' pairs declare */
		a->o.per = cmd->per;
		a->o.per_default = cmd->per != NULL;
	}
	if (a->o.bucket_arg && !a->o.per)
		return cli_usage_error(cmd->name,
				       "--bucket needs --per: it sorts begin/end pairs by what they moved");
	anopts_ready(a);
	return -1;
}

int anopts_group(const char *arg, char **labels, char **paths, int *n, const char **why)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return *why = "--group takes LABEL=PATH", -1;
	if (*n == ANOPTS_MAX_GROUPS)
		return *why = "too many --group options", -1;
	if (!(labels[*n] = strndup(arg, (size_t)(eq - arg))))
		abort();
	paths[(*n)++] = (char *)eq + 1;
	return 1;
}

void anopts_declared(const struct anopts *a, struct an_options *o)
{
	*o = a->o;
	o->per = "packets";   /* for a declared pair without unit=: not counted */
	o->per_default = 1;
	o->declared_only = 1;
	if (!a->by_given)
		o->by = (a->o.by & 1u << AN_RUN) | 1u << AN_EVENT | 1u << AN_APP |
			(o->bucket_arg ? 1u << AN_BUCKET : 0);
}

/* anopts_fixed(), its --per PER. */
static void fixed(const struct anopts *a, const char *per, char *buf, size_t size)
{
	const struct an_options *o = &a->o;
	size_t len = 0;
	buf[0] = '\0';
	if (per)
		len += (size_t)snprintf(buf, size, " --per %s", per);
	for (size_t i = 0; i + 3 < o->npairs && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, " --pair %s=%s", o->pairs[i].begin,
					o->pairs[i].end);
	if (o->bucket_arg && len < size)
		len += (size_t)snprintf(buf + len, size - len, " --bucket %s=", o->bucket_arg);
	for (size_t i = 0; o->bucket_arg && i < o->nedges && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, isinf(o->edges[i]) ? "%sinf" : "%s%.17g",
					i ? "," : "", o->edges[i]);
	if (len < size)
		window_describe(&a->w, buf, size);
	if (buf[0] == ' ')
		memmove(buf, buf + 1, strlen(buf));
}

void anopts_fixed(const struct anopts *a, char *buf, size_t size)
{
	fixed(a, a->o.per, buf, size);
}

void anopts_fixed_declared(const struct anopts *a, char *buf, size_t size)
{
	fixed(a, "declared", buf, size);
}

void anopts_free(struct anopts *a)
{
	/* the user's rules come first, the three built-in ones last */
	for (size_t i = 0; i + 3 < a->o.npairs; i++) {
		free((char *)a->pairs[i].begin);
		free((char *)a->pairs[i].end);
	}
}

/* The argument names pair ends carry, as " a b c" in name order (the same
 * however the files were shared among threads or summaries), into BUF. */
static void end_args(const struct an_found *f, char *buf, size_t size)
{
	char *names[sizeof f->args / sizeof f->args[0]];
	size_t len = 0;
	buf[0] = '\0';
	memcpy(names, f->args, f->nargs * sizeof *names);
	qsort(names, f->nargs, sizeof *names, natural_cmp_ptr);
	for (size_t i = 0; i < f->nargs && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, " %s", names[i]);
}

/* Warns of groups whose every pair moved nothing although both ends carry
 * the unit: a batch size on both ends, where a running total was meant.
 * A group's rows (one per --bucket range) are adjacent in E's order. */
static void warn_empty_rows(const struct anopts *a, struct an *e, const char *cmd)
{
	struct an_options o = a->o;   /* the groups: the keys but the bucket */
	size_t n;
	struct an_row **rows = an_rows(e, &n);
	o.by &= ~(1u << AN_BUCKET);
	for (size_t i = 0, j; i < n; i = j) {
		char key[512], next[512];
		uint64_t empty = 0, diffed = 0, values = 0;
		rowkey_join(e, &o, rows[i], key, sizeof key);
		for (j = i; j < n; j++) {
			rowkey_join(e, &o, rows[j], next, sizeof next);
			if (strcmp(key, next))
				break;
			empty += rows[j]->empty;
			diffed += rows[j]->empty_diffed;
			values += rows[j]->h.n;
		}
		if (values || !empty || diffed != empty)
			continue;
		fprintf(stderr, "timeline %s: warning: %s: all %llu pairs moved no %s: both ends carry "
			"it, and a pair counts end minus begin, so it must be a running total (or "
			"left off the begin)\n", cmd, key, (unsigned long long)empty, a->o.per);
	}
}

/* CMD's note that the logs declare pairs counted in UNITS (blank
 * separated, an_declared_units()): "rows and bytes: --per rows or --per
 * bytes gives ...". */
static void declared_note(const char *cmd, const char *units)
{
	char in[512] = "", per[1024] = "";
	const char *p;
	size_t n = 0, k = 0, len;
	for (const char *at = units; an_unit_next(&at, &p, &len);)
		n++;
	for (const char *at = units; an_unit_next(&at, &p, &len); k++) {
		const char *sep = !k ? "" : k + 1 == n ? " and " : ", ";
		snprintf(in + strlen(in), sizeof in - strlen(in), "%s%.*s", sep, (int)len, p);
		snprintf(per + strlen(per), sizeof per - strlen(per), "%s--per %.*s",
			 !k ? "" : k + 1 == n ? " or " : ", ", (int)len, p);
	}
	fprintf(stderr, "timeline %s: note: the logs declare pairs counted in %s: %s gives their "
		"cycles per unit\n", cmd, in, per);
}

/* Adds WORD (N bytes) to the blank-separated LIST of SIZE if it is not there. */
static void add_word(char *list, size_t size, const char *word, size_t n)
{
	char w[80];
	size_t len = strlen(list);
	snprintf(w, sizeof w, " %.*s ", (int)(n < 60 ? n : 60), word);
	if (!strstr(list, w) && len + strlen(w) < size)
		snprintf(list + len, size - len, "%s", len ? w + 1 : w);
}

int anopts_refuse_unit(const struct anopts *a, struct an *e, const char *cmd)
{
	const struct an_found *f = an_found(e);
	static const char *const pre[] = { "in", "total", "out" };
	char *names[sizeof f->args / sizeof f->args[0]], list[600] = " ", out[700] = "";
	size_t n = 0, len = 0;
	if (!a->o.per || a->declared || !f->ends || f->ends_with_unit || window_filters_missed())
		return 0;
	/* what --per can take: the ends' arguments, Snabb's without their prefix */
	for (size_t i = 0; i < f->nargs; i++) {
		const char *w = f->args[i];
		for (int k = 0; k < 3; k++)
			if (!strncmp(w, pre[k], strlen(pre[k])) && w[strlen(pre[k])])
				w += strlen(pre[k]);
		add_word(list, sizeof list, w, strlen(w));
	}
	for (char *p = strtok(list, " "); p && n < sizeof names / sizeof names[0]; p = strtok(NULL, " "))
		names[n++] = p;
	qsort(names, n, sizeof *names, natural_cmp_ptr);
	for (size_t i = 0; i < n && len < sizeof out; i++)
		len += (size_t)snprintf(out + len, sizeof out - len, "%s%s",
					!i ? "" : i + 1 == n ? " or " : ", ", names[i]);
	cli_error(cmd, "--per %s: no pair counts %s; the logs' pairs count %s", a->o.per, a->o.per,
		  out);
	return 1;
}

int anopts_empty(const struct an *e, const char *cmd)
{
	static int said;   /* diff asks of each side, stats of two engines: once */
	size_t n;
	const struct an_breaths *b = an_breath_list(e, &n);
	for (size_t i = 0; i < n; i++)
		if (b[i].written)
			return 0;
	if (n && !said++)
		fprintf(stderr, "timeline %s: note: the logs hold no entry: their writers logged "
			"nothing (a rate of off, or every event switched off: timeline info says)\n",
			cmd);
	return n > 0;
}

void anopts_warn(const struct anopts *a, struct an *e, const char *cmd)
{
	const struct an_found *f = an_found(e);
	const char *declared = an_declared_units(e);
	static int said;   /* diff warns of each side: the note once */
	char args[512];
	if (window_filters_missed() || anopts_empty(e, cmd))
		return;   /* no entry kept, or none written: that is the reason, said */
	if (declared && !said++)
		declared_note(cmd, declared);
	end_args(f, args, sizeof args);
	for (size_t r = 0; r + 3 < a->o.npairs; r++)
		if (!(f->rules >> r & 1))
			fprintf(stderr, "timeline %s: warning: --pair %s=%s: no event in the logs is named "
				"%s or %s\n", cmd, a->pairs[r].begin, a->pairs[r].end, a->pairs[r].begin,
				a->pairs[r].end);
	if (a->o.per && !f->ends)
		fprintf(stderr, "timeline %s: warning: --per %s: no begin/end pairs in the logs: looked "
			"for %s; declare a program's own in its events file (pair|LABEL: BEGIN END "
			"unit=ARG, timeline-events(5)) or give --pair BEGIN=END\n", cmd, a->o.per,
			ANOPTS_LOOKED_FOR);
	else if (a->o.bucket_arg && !f->ends_with_bucket)
		fprintf(stderr, "timeline %s: warning: --bucket %s: no pair's end carries %s; their "
			"ends carry:%s\n", cmd, a->o.bucket_arg, a->o.bucket_arg, args);
	if (a->o.per)
		warn_empty_rows(a, e, cmd);
}
