/* analyze.c: the options `stats` and `diff` share, and reading inputs into
 * an analysis engine with the group label of their directory. */
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analyze.h"
#include "warm.h"
#include "commands.h"
#include "input.h"
#include "view.h"

void analyze_init(struct analyze *a)
{
	memset(a, 0, sizeof *a);
	a->o.pairs = a->pairs;
	a->progress = isatty(2);
}

/* "packets=0,1,16,32,64,inf" into A's bucket argument and edges. */
static int parse_bucket(struct analyze *a, const char *arg)
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
		    a->o.nedges == ANALYZE_MAX_EDGES)
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

int analyze_pair(struct an_pair *p, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1] || strchr(eq + 1, '='))
		return -1;
	if (!(p->begin = strndup(arg, (size_t)(eq - arg))) || !(p->end = strdup(eq + 1)))
		abort();
	p->prefix = NULL;
	return 0;
}

int analyze_option(struct analyze *a, int c, const char *arg, const char **why)
{
	const char *bad;
	switch (c) {
	case 'b':
		if (an_parse_keys(arg, &a->o.by, &bad) || !a->o.by) {
			static char msg[128];
			snprintf(msg, sizeof msg, "--by: unknown key '%s' (event, app, process, cpu, numa, host, group)",
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
		if (a->o.npairs == ANALYZE_MAX_PAIRS)
			return *why = "too many --pair rules", -1;
		if (analyze_pair(&a->pairs[a->o.npairs], arg))
			return *why = "--pair takes BEGIN=END, e.g. rx_start=rx_end", -1;
		a->o.npairs++;
		return 1;
	case 'f':
		return view_format(arg, &a->format, why) ? -1 : 1;
	}
	return 0;
}

void analyze_ready(struct analyze *a)
{
	if (!a->by_given)
		a->o.by = a->o.per ? (1u << AN_EVENT | 1u << AN_APP) : 1u << AN_EVENT;
	if (a->o.bucket_arg)
		a->o.by |= 1u << AN_BUCKET;
	for (size_t i = 0; i < 3; i++)
		a->pairs[a->o.npairs++] = an_default_pairs[i];
}

struct feed {
	struct analyze *a;
	struct an *e;
	const char *cmd;
	const char *group;
};

/* The engine's view of an event definition. */
static void def_of(void *ctx, uint16_t msgid, struct an_def *d)
{
	const struct event *ev = input_event(ctx, msgid);
	memset(d, 0, sizeof *d);
	d->known = ev->name[0] != '?';
	d->name = ev->name;
	d->attrs = ev->attrs;
	d->level = ev->level;
	d->nargs = ev->nargs;
	for (unsigned i = 0; i < ev->nargs && i < TL_MAX_ARGS; i++)
		d->args[i] = ev->args[i];
}

static int feed_one(const char *path, int named, void *arg)
{
	struct feed *f = arg;
	int skipped;
	struct input *in = input_open(f->cmd, path, named, &skipped);
	struct an_file file;
	tl_entry e;
	if (!in) {
		f->a->problems += !skipped;
		return 0;
	}
	if (f->a->progress)
		fprintf(stderr, "\rtimeline %s: %u files read, reading %.60s\033[K", f->cmd,
			f->a->files, path);
	file.path = in->path;
	file.process = in->label;
	file.host = in->info.format == TL_FORMAT_NATIVE ? in->info.host : "-";
	file.group = f->group;
	file.tsc_hz = in->info.tsc_hz;
	an_file_begin(f->e, &file, def_of, in);
	tl_reader_rewind(in->r);
	warm_start(&in->r, 1);   /* the other CPU reads ahead */
	while (tl_reader_next(in->r, &e)) {
		if (an_entry(f->e, &e) < 0) {
			cli_error(f->cmd, "%s: out of memory", path);
			f->a->problems++;
			break;
		}
	}
	warm_stop();
	in->unknown = an_file_unknown(f->e);
	an_file_end(f->e);
	f->a->problems += input_report_damage(f->cmd, in);
	f->a->files++;
	input_close(in);
	return 0;
}

void analyze_feed(struct analyze *a, struct an *e, const char *cmd, const char *path,
		  const char *group)
{
	struct feed f = { a, e, cmd, group };
	char *copy = NULL, *name;
	struct stat st;
	if (!group) {
		size_t n;
		/* the real path, so that "." and "log.timeline" have a directory name */
		if (!(copy = realpath(path, NULL)) && !(copy = strdup(path)))
			abort();
		n = strlen(copy);
		while (n > 1 && copy[n - 1] == '/')
			copy[--n] = '\0';
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			name = basename(copy);
		else
			name = basename(dirname(copy));
		f.group = name;
	}
	a->problems += input_walk(cmd, (char **)&path, 1, feed_one, &f);
	free(copy);
}

void analyze_done(struct analyze *a)
{
	if (a->progress && a->files)
		fprintf(stderr, "\r\033[K");
}

void analyze_free(struct analyze *a)
{
	/* the user's rules come first, the three built-in ones last */
	for (size_t i = 0; i + 3 < a->o.npairs; i++) {
		free((char *)a->pairs[i].begin);
		free((char *)a->pairs[i].end);
	}
}
