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
	pid = input_pid(in);
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
		json_bool(&j, input_pid_alive(pid));
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
		out_str(input_pid_alive(pid) ? " yes  " : " no   ");
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

int cmd_ls(int argc, char **argv)
{
	struct ls l = { 0, 0, 0 };
	char *roots[INPUT_ROOTS];
	int n, rc = cli_parse_text_json("ls", usage, options, argc, argv, &l.json);
	if (rc >= 0)
		return rc;
	input_quiet = 1;
	if (optind < argc) {
		l.problems += input_walk("ls", argv + optind, argc - optind, ls_one, &l);
	} else {
		n = input_default_roots(roots);
		l.problems += input_walk("ls", roots, n, ls_one, &l);
	}
	if (!l.count && !l.json)
		out_str("no logs found\n");
	out_flush();
	return cli_finish("ls", l.problems ? EXIT_USAGE : EXIT_OK);
}
