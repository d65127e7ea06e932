/* rate.c: `timeline rate`, the sampling rate of logs shown, or set while
 * their processes run (tl_rate_file), for logs and directories of them. */
#include <getopt.h>
#include <stdio.h>
#include "commands.h"
#include "input.h"
#include "timeline.h"

static const char usage[] =
	"usage: timeline rate LOG... [RATE]\n"
	"\n"
	"Shows the current sampling rate of logs, or sets it while their\n"
	"processes run. LOG is a log or a directory of logs, as enable takes\n"
	"them; a last argument that names no file or directory is RATE: 'all'\n"
	"(log every event), 1 to 9 (events of that rate and above; 1 is all),\n"
	"'off' (log nothing) or 'auto' (a rate drawn every breath, Snabb's way:\n"
	"an event of rate R in 5^(R-9) of the breaths).\n"
	"The rate is shown as info, ls and top show it: auto, all, 2 to 9, off,\n"
	"a line per log.\n"
	"Setting a rate ends the arming of a log ('timeline arm') and resumes a\n"
	"frozen one; its trigger stays for info and dump --trigger.\n"
	"\n"
	"   -h, --help          show this help\n";

static const struct option options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Prints what the file says: the rate in the words info, ls and top use
 * (tl_rate_name(): auto, all, 2 to 9, off), and what they mean. */
static void show(const char *path, unsigned rate, int fixed)
{
	char now[16];
	tl_rate_name(now, sizeof now, rate, 1);   /* what is logged now */
	if (!fixed)
		printf("%s: auto, drawn every breath, now %s\n", path, now);
	else if (rate >= TL_RATE_OFF)
		printf("%s: off, fixed (nothing is logged)\n", path);
	else if (rate <= 1)
		printf("%s: all, fixed (every event of rate 1 to 9 is logged)\n", path);
	else if (rate == 9)
		printf("%s: 9, fixed (events of rate 9 are logged)\n", path);
	else
		printf("%s: %s, fixed (events of rate %u to 9 are logged)\n", path, now, rate);
}

/* Warns when no process will read the rate just set in the log at PATH
 * (input_warn_unread(): another host's log, or its writer has ended; a
 * new writer would make a new log). */
static void warn_unread(const char *path)
{
	tl_error err;
	tl_info i;
	tl_reader *r = tl_reader_open(path, &err);
	if (!r)
		return;
	tl_reader_info(r, &i);
	tl_reader_close(r);
	input_warn_unread("rate", path, &i, "the new rate");
}

/* The flight recorder's state of the log at PATH: TL_RECORDER_OFF when
 * it has none or cannot be read (tl_rate_file() says why). */
static int recorder_state_at(const char *path)
{
	tl_reader *r = tl_reader_open(path, NULL);
	tl_arming a;
	int state = r && tl_reader_arming(r, &a) == TL_OK ? a.state : TL_RECORDER_OFF;
	tl_reader_close(r);
	return state;
}

/* What the command was asked, and what it found. */
struct ask {
	int rate;                    /* the rate to set, -1: show it */
	size_t logs;                 /* logs found under the path being walked */
	int problems;
};

/* Shows or sets the rate of the file at PATH (NAMED: the user named it;
 * a file found in a directory that is no log is passed over). */
static int one_file(const char *path, int named, void *arg)
{
	struct ask *a = arg;
	tl_error err;
	unsigned now;
	int fixed, skipped = 0, was = TL_RECORDER_OFF;
	struct input *in = input_open("rate", path, named, &skipped);
	if (!in) {
		a->problems += !skipped;
		return 0;
	}
	input_close(in);
	a->logs++;
	if (a->rate >= 0)
		was = recorder_state_at(path);
	if (tl_rate_file(path, a->rate, &now, &fixed, &err) != TL_OK) {
		cli_error("rate", "%s", err.msg);
		a->problems++;
		return 0;
	}
	show(path, now, fixed);
	if (was != TL_RECORDER_OFF)
		printf("%s: %s no more: logging resumes\n", path,
		       was == TL_RECORDER_ARMED ? "armed" : was == TL_RECORDER_FROZEN ? "frozen" : "keeping");
	if (a->rate >= 0)
		warn_unread(path);
	return 0;
}

int cmd_rate(int argc, char **argv)
{
	struct ask a = { .rate = -1 };
	int c, nlogs;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return cli_finish("rate", EXIT_OK);
		}
		return cli_bad_option("rate", argv, c);
	}
	argc -= optind;
	argv += optind;
	if (!argc)
		return cli_usage_error("rate", "missing log file");
	nlogs = input_leading_paths(argv, argc);
	nlogs += !nlogs;   /* a first that is not there is a log, said by the walk */
	if (argc - nlogs > 1)
		return cli_usage_error("rate", "too many arguments");
	if (argc > nlogs && (a.rate = tl_rate_parse(argv[nlogs])) < 0)
		return cli_usage_error("rate", "RATE must be all, 1 to 9, off or auto");
	for (int i = 0; i < nlogs; i++) {
		size_t before = a.logs;
		int had = a.problems;
		a.problems += input_walk("rate", argv + i, 1, one_file, &a);
		a.problems += input_none("rate", argv[i], a.logs - before, a.problems - had);
	}
	return cli_finish("rate", a.problems ? EXIT_USAGE : EXIT_OK);
}
