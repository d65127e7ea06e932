/* rate.c: `timeline rate`, the sampling rate of a log shown, or set while
 * its process runs (tl_rate_file). */
#include <getopt.h>
#include <stdio.h>
#include "commands.h"
#include "input.h"
#include "timeline.h"

static const char usage[] =
	"usage: timeline rate FILE [RATE]\n"
	"\n"
	"Shows the current sampling rate of a log, or sets it while the process\n"
	"runs. RATE is 'all' (log every event), 1 to 9 (events of that rate and\n"
	"above; 1 is all), 'off' (log nothing) or 'auto' (a rate drawn every\n"
	"breath, Snabb's way: an event of rate R in 5^(R-9) of the breaths).\n"
	"The rate is shown as info, ls and top show it: auto, all, 2 to 9, off.\n"
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

int cmd_rate(int argc, char **argv)
{
	tl_error err;
	unsigned now;
	int c, fixed, rate = -1, was = TL_RECORDER_OFF;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return cli_finish("rate", EXIT_OK);
		}
		return cli_bad_option("rate", argv, c);
	}
	if (argc - optind < 1 || argc - optind > 2)
		return cli_usage_error("rate", argc == optind ? "missing log file"
							    : "too many arguments");
	if (argc - optind == 2 && (rate = tl_rate_parse(argv[optind + 1])) < 0)
		return cli_usage_error("rate", "RATE must be all, 1 to 9, off or auto");
	if (rate >= 0)
		was = recorder_state_at(argv[optind]);
	if (tl_rate_file(argv[optind], rate, &now, &fixed, &err) != TL_OK) {
		cli_error("rate", "%s", err.msg);
		return EXIT_USAGE;
	}
	show(argv[optind], now, fixed);
	if (was != TL_RECORDER_OFF)
		printf("%s: %s no more: logging resumes\n", argv[optind],
		       was == TL_RECORDER_ARMED ? "armed" : was == TL_RECORDER_FROZEN ? "frozen" : "keeping");
	if (rate >= 0)
		warn_unread(argv[optind]);
	return cli_finish("rate", EXIT_OK);
}
