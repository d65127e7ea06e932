/* rate.c: `timeline rate`, the sampling rate of a log shown, or set while
 * its process runs (tl_rate_file). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "timeline.h"

static const char usage[] =
	"usage: timeline rate FILE [RATE]\n"
	"\n"
	"Shows the current sampling rate of a log, or sets it while the process\n"
	"runs. RATE is 1 to 9 (events of that rate and above are logged), 'off'\n"
	"(nothing is logged) or 'auto' (a new rate is drawn every breath).\n"
	"\n"
	"   -h, --help          show this help\n";

static const struct option options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Parses RATE: 1..9, "off" (TL_RATE_OFF) or "auto" (TL_RATE_AUTO); -1 if bad. */
static int parse_rate(const char *s)
{
	if (!strcmp(s, "off"))
		return TL_RATE_OFF;
	if (!strcmp(s, "auto"))
		return TL_RATE_AUTO;
	if (s[0] >= '1' && s[0] <= '9' && !s[1])
		return s[0] - '0';
	return -1;
}

static void show(const char *path, unsigned rate, int fixed)
{
	if (rate == TL_RATE_OFF)
		printf("%s: off (nothing is logged)%s\n", path,
		       fixed ? "" : " until the next breath draws a rate");
	else
		printf("%s: %u, %s\n", path, rate, fixed ? "fixed" : "drawn every breath");
}

int cmd_rate(int argc, char **argv)
{
	tl_error err;
	unsigned now;
	int c, fixed, rate = -1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return cli_finish("rate", EXIT_OK);
		}
		return cli_bad_option("rate", usage, argv, c);
	}
	if (argc - optind < 1 || argc - optind > 2)
		return cli_usage_error("rate", usage, argc == optind ? "missing log file"
								      : "too many arguments");
	if (argc - optind == 2 && (rate = parse_rate(argv[optind + 1])) < 0)
		return cli_usage_error("rate", usage, "RATE must be 1 to 9, off or auto");
	if (tl_rate_file(argv[optind], rate, &now, &fixed, &err) != TL_OK) {
		cli_error("rate", "%s", err.msg);
		return EXIT_USAGE;
	}
	show(argv[optind], now, fixed);
	return cli_finish("rate", EXIT_OK);
}
