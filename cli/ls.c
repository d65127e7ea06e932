/* ls.c: `timeline ls`, the logs under /var/run/timeline and /var/run/snabb
 * (or given roots): pid, whether it is alive, entries written, rate. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands.h"
#include "input.h"
#include "json.h"
#include "out.h"

static const char usage[] =
	"usage: timeline ls [--format text|json] [ROOT...]\n"
	"\n"
	"Lists the logs under each ROOT (default: $TIMELINE_ROOT or\n"
	"/var/run/timeline, $XDG_RUNTIME_DIR/timeline, /tmp/timeline-UID and\n"
	"/var/run/snabb): pid, alive or not, entries written, current rate.\n"
	"\n"
	"   -f, --format FMT    text (default) or json (one object per log)\n"
	"   -h, --help          show this help\n";

static const struct option options[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct ls {
	int json;
	int problems;
	int count;
};

/* A Snabb log's pid: the number in .../<pid>/events.timeline or
 * .../<pid>/engine/timeline; 0 when the path does not say. */
static unsigned snabb_pid(const char *path)
{
	const char *end = strrchr(path, '/'), *p;
	for (int up = 0; end && up < 2; up++) {
		p = end;
		while (p > path && p[-1] != '/')
			p--;
		if (p < end && isdigit((unsigned char)*p)) {
			char *stop;
			unsigned long v = strtoul(p, &stop, 10);
			if (stop == end)
				return (unsigned)v;
		}
		end = p > path ? p - 1 : NULL;
	}
	return 0;
}

static int alive(unsigned pid)
{
	return pid && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

static int ls_one(const char *path, int named, void *arg)
{
	struct ls *l = arg;
	int skipped;
	struct input *in = input_open("ls", path, named, &skipped);
	const tl_info *i;
	unsigned pid;
	char rate[32];
	if (!in) {
		l->problems += !skipped;
		return 0;
	}
	i = &in->info;
	pid = i->format == TL_FORMAT_NATIVE ? i->pid : snabb_pid(path);
	if (i->format != TL_FORMAT_NATIVE)
		snprintf(rate, sizeof rate, "-");
	else
		tl_rate_name(rate, sizeof rate, i->rate, i->rate_fixed);   /* all, 2-9, off, auto */
	if (l->json) {
		struct json j = JSON_INIT;
		json_begin_object(&j);
		JSON_KEY(&j, "path");
		json_string(&j, path);
		JSON_KEY(&j, "format");
		json_string(&j, i->format == TL_FORMAT_NATIVE ? "timeline" : "snabb");
		JSON_KEY(&j, "pid");
		json_uint(&j, pid);
		JSON_KEY(&j, "alive");
		json_bool(&j, alive(pid));
		JSON_KEY(&j, "process");
		json_string(&j, i->format == TL_FORMAT_NATIVE ? i->process : "");
		JSON_KEY(&j, "written");
		json_uint(&j, i->cursor);
		JSON_KEY(&j, "rate");
		json_string(&j, rate);
		json_end_object(&j);
		out_char('\n');
	} else {
		if (!l->count)
			out_str("    PID ALIVE     WRITTEN RATE     PROCESS          PATH\n");
		out_pad(pid, 7);
		out_str(alive(pid) ? " yes  " : " no   ");
		out_pad(i->cursor, 12);
		out_char(' ');
		out_str(rate);
		for (size_t k = strlen(rate); k < 9; k++)
			out_char(' ');
		out_str(i->format == TL_FORMAT_NATIVE ? i->process : "(snabb)");
		for (size_t k = strlen(i->format == TL_FORMAT_NATIVE ? i->process : "(snabb)"); k < 16; k++)
			out_char(' ');
		out_char(' ');
		out_str(path);
		out_char('\n');
	}
	l->count++;
	input_close(in);
	return 0;
}

/* The default roots that exist. */
static int default_roots(char **roots)
{
	static char xdg[4096], tmp[64];
	const char *env = getenv("TIMELINE_ROOT"), *x = getenv("XDG_RUNTIME_DIR");
	const char *cand[5];
	int n = 0, k = 0;
	struct stat st;
	if (env && *env) {
		cand[n++] = env;
	} else {
		cand[n++] = "/var/run/timeline";
		if (x && *x) {
			snprintf(xdg, sizeof xdg, "%s/timeline", x);
			cand[n++] = xdg;
		}
		snprintf(tmp, sizeof tmp, "/tmp/timeline-%u", (unsigned)geteuid());
		cand[n++] = tmp;
	}
	cand[n++] = "/var/run/snabb";
	for (int i = 0; i < n; i++)
		if (stat(cand[i], &st) == 0 && S_ISDIR(st.st_mode))
			roots[k++] = (char *)cand[i];
	return k;
}

int cmd_ls(int argc, char **argv)
{
	struct ls l = { 0, 0, 0 };
	char *roots[5];
	int n, rc = cli_parse_text_json("ls", usage, options, argc, argv, &l.json);
	if (rc >= 0)
		return rc;
	input_quiet = 1;
	if (optind < argc) {
		l.problems += input_walk("ls", argv + optind, argc - optind, ls_one, &l);
	} else {
		n = default_roots(roots);
		l.problems += input_walk("ls", roots, n, ls_one, &l);
	}
	if (!l.count && !l.json)
		out_str("no logs found\n");
	out_flush();
	return cli_finish("ls", l.problems ? EXIT_USAGE : EXIT_OK);
}
