/* usage.c: how every subcommand reports: errors on one line naming the
 * command ("timeline CMD: problem"), bad usage with its reason and where
 * the usage is, and the write check of stdout before a command exits. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "usage.h"

__thread FILE *cli_err;

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(CLI_ERR, "timeline %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(CLI_ERR, fmt, ap);
	va_end(ap);
	fputc('\n', CLI_ERR);
}

int cli_usage_error(const char *cmd, const char *reason)
{
	fprintf(stderr, "timeline %s: %s\nsee 'timeline %s --help'\n", cmd, reason, cmd);
	return EXIT_USAGE;
}

int cli_bad_option(const char *cmd, char **argv, int c)
{
	char why[256];
	const char *arg = argv[optind - 1];
	if (c == ':' && optopt)
		snprintf(why, sizeof why, "option '-%c' requires an argument", optopt);
	else if (c == ':')
		snprintf(why, sizeof why, "option '%s' requires an argument", arg);
	else if (optopt && !strncmp(arg, "--", 2))   /* a known long option given "=ARG" */
		snprintf(why, sizeof why, "option '%.*s' takes no argument",
			 (int)strcspn(arg, "="), arg);
	else if (optopt)
		snprintf(why, sizeof why, "unknown option '-%c'", optopt);
	else
		snprintf(why, sizeof why, "unknown option '%s'", arg);
	return cli_usage_error(cmd, why);
}

int cli_parse_text_json(const char *cmd, const char *usage, const struct option *options,
			int argc, char **argv, int *json)
{
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:h", options, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return cli_usage_error(cmd, "--format must be text or json");
			*json = !strcmp(optarg, "json");
			break;
		case 'h':
			fputs(usage, stdout);
			return cli_finish(cmd, EXIT_OK);
		default:
			return cli_bad_option(cmd, argv, c);
		}
	}
	return -1;
}

int cli_finish(const char *cmd, int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error(cmd, "error writing output: %s", strerror(errno ? errno : EIO));
		return EXIT_USAGE;
	}
	return rc;
}
