/* main.c: the timeline program's entry point and its command table, with
 * `help` and `version`. Each subcommand is a cmd_<name>() of its own file
 * (cli/README.md maps them); how they report errors is usage.c. */
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "timeline.h"
#include "window.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "arm", cmd_arm, "freeze a running log's ring when a pair is slower than a threshold" },
	{ "copy", cmd_copy, "copy logs consistently while they are written" },
	{ "diff", cmd_diff, "compare two sets of logs, with a significance test" },
	{ "disable", cmd_disable, "switch events of running logs off, by pattern" },
	{ "dump", cmd_dump, "print the entries of logs, oldest first" },
	{ "enable", cmd_enable, "switch events of running logs on, by pattern, or only some" },
	{ "export", cmd_export, "write logs for Perfetto, babeltrace2, Trace Compass, R" },
	{ "freeze", cmd_freeze, "freeze a running log's ring now, for the evidence" },
	{ "gc", cmd_gc, "remove (or archive) the logs of processes that no longer run" },
	{ "gen", cmd_gen, "generate C event functions from an events file" },
	{ "info", cmd_info, "describe logs: process, clock, entries, span, rate" },
	{ "ls", cmd_ls, "list the logs of running (and dead) processes" },
	{ "merge", cmd_merge, "merge the entries of many logs by time" },
	{ "rate", cmd_rate, "show or set the sampling rate of a running log" },
	{ "report", cmd_report, "draw the statistics as one HTML page of charts" },
	{ "stats", cmd_stats, "lag percentiles, cycles per packet, breath summary" },
	{ "top", cmd_top, "watch the running logs: rates, cycles per packet, lapping" },
	{ "help", cmd_help, "show this list, or a command's usage" },
	{ "version", cmd_version, "print the version" },
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void list_commands(FILE *f)
{
	fputs("usage: timeline COMMAND [ARGS]\n\ncommands:\n", f);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "   %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\n'timeline help COMMAND' or 'timeline COMMAND --help' shows a command's usage.\n"
	      "See timeline(1), timeline(3), timeline-events(5) and timeline-format(5).\n", f);
}

int cmd_help(int argc, char **argv)
{
	const struct command *c;
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		list_commands(stdout);
		return cli_finish("help", EXIT_OK);
	}
	if (!(c = find(argv[1]))) {
		fprintf(stderr, "timeline: '%s' is not a timeline command; see 'timeline help'\n",
			argv[1]);
		return EXIT_USAGE;
	}
	char *sub[] = { argv[1], "--help", NULL };
	return c->fn(2, sub);
}

int cmd_version(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs("usage: timeline version\n", stdout);
		return cli_finish("version", EXIT_OK);
	}
	if (argc > 1)
		return cli_usage_error("version", "too many arguments");
	printf("timeline %s (file format %u.%u)\n", TL_VERSION_STRING, TL_FORMAT_MAJOR,
	       TL_FORMAT_MINOR);
	return cli_finish("version", EXIT_OK);
}

int main(int argc, char **argv)
{
	const struct command *c;
	int rc;
	if (argc < 2) {
		list_commands(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help(argc - 1, argv + 1);   /* "timeline --help gen" = "help gen" */
	if (!strcmp(argv[1], "--version"))
		return cmd_version(argc - 1, argv + 1);
	if (!(c = find(argv[1]))) {
		fprintf(stderr, "timeline: '%s' is not a timeline command; see 'timeline help'\n",
			argv[1]);
		return EXIT_USAGE;
	}
	rc = c->fn(argc - 1, argv + 1);
	if (window_filters_end() && rc < EXIT_USAGE)
		rc = EXIT_USAGE;   /* the filters kept nothing of any log read */
	return rc;
}
