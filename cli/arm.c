/* arm.c: `timeline arm` and `timeline freeze`, the flight recorder of
 * running logs set from outside (tl_arm_file, tl_freeze_file): logs and
 * directories of logs, as enable takes them, one line for each. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "input.h"
#include "window.h"

static const char arm_usage[] =
	"usage: timeline arm --slower-than TIME [--pair NAME] [--keep N] [--rate RATE] LOG...\n"
	"       timeline arm --on EVENT [--keep N] [--rate RATE] LOG...\n"
	"\n"
	"Arms running logs: the writer watches a pair (by default the breath,\n"
	"declared or Snabb's engine.breath_start/breath_end) at each breath, and\n"
	"the first pair longer than TIME (or between breaths, the gap from one\n"
	"breath's end to the next begin) triggers: the log records it, logs N\n"
	"more entries, then freezes (the rate off), so that the slow pair and\n"
	"what came around it stay in the ring. LOG is a log or a directory of\n"
	"logs. Arming again, or setting a rate ('timeline rate LOG auto'),\n"
	"resumes a frozen log.\n"
	"\n"
	"      --slower-than TIME  the threshold: 200us, 5ms, 1s (above 0)\n"
	"      --pair NAME     the pair's label ('kv.req', or 'req')\n"
	"      --on EVENT      instead: freeze after the first entry of EVENT, a\n"
	"                      pattern as enable takes ('kv.error', 'app.* app=nic')\n"
	"      --keep N        entries logged after the trigger (default: a tenth of\n"
	"                      the ring; below the ring size)\n"
	"      --rate RATE     the rate while armed: all (the default) or 1 to 9\n"
	"   -h, --help          show this help\n"
	"\n"
	"It prints one line a log, e.g. 'LOG: armed: engine.breath slower than\n"
	"200us, keep 104857'. info, ls and top show the state and the trigger;\n"
	"dump --trigger prints the window around it.\n";

static const char freeze_usage[] =
	"usage: timeline freeze LOG...\n"
	"\n"
	"Freezes running logs now: the rate off, so that nothing more is\n"
	"written over what the ring holds, and a trigger 'by hand' recorded\n"
	"unless one is. LOG is a log or a directory of logs. 'timeline rate LOG\n"
	"auto' (or any rate) resumes.\n"
	"\n"
	"   -h, --help          show this help\n";

static const struct option options[] = {
	{ "slower-than", required_argument, NULL, 's' },
	{ "pair", required_argument, NULL, 'p' },
	{ "on", required_argument, NULL, 'o' },
	{ "keep", required_argument, NULL, 'k' },
	{ "rate", required_argument, NULL, 'r' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What the command was asked, and what it did. */
struct job {
	const char *cmd;
	int freeze;
	tl_arm_options o;
	const char *time;            /* --slower-than as given */
	size_t logs;
	int problems;
};

/* Arms or freezes the log at PATH; reports it. */
static int one_file(const char *path, int named, void *arg)
{
	struct job *j = arg;
	tl_error err;
	int skipped = 0, rc;
	struct input *in = input_open(j->cmd, path, named, &skipped);
	if (!in) {
		j->problems += !skipped;
		return 0;
	}
	j->logs++;
	rc = j->freeze ? tl_freeze_file(path, &err) : tl_arm_file(path, &j->o, &err);
	if (rc != TL_OK) {
		cli_error(j->cmd, "%s", err.msg);
		j->problems++;
	} else if (j->freeze) {
		printf("%s: frozen\n", path);
		input_warn_unread(j->cmd, path, &in->info, "the freeze");
	} else {
		tl_reader *r = tl_reader_open(path, &err);
		tl_arming a;
		if (r && tl_reader_arming(r, &a) == TL_OK) {
			if (a.mode == 3)
				printf("%s: armed: on %s, keep %llu\n", path, a.what,
				       (unsigned long long)a.keep);
			else
				printf("%s: armed: %s slower than %s, keep %llu\n", path, a.what, j->time,
				       (unsigned long long)a.keep);
		}
		tl_reader_close(r);
		input_warn_unread(j->cmd, path, &in->info, "the arming");
	}
	input_close(in);
	return 0;
}

/* Parses the options into J; returns -1 to go on, or an exit code. */
static int parse(struct job *j, int argc, char **argv)
{
	uint64_t ns;
	char *end;
	int c, rate;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", j->freeze ? options + 5 : options, NULL)) != -1) {
		if (c == 'h') {
			fputs(j->freeze ? freeze_usage : arm_usage, stdout);
			return cli_finish(j->cmd, EXIT_OK);
		} else if (c == 's') {
			if (window_duration(optarg, &ns) || !ns)
				return cli_usage_error(j->cmd, "--slower-than TIME must be a duration above "
							       "0, e.g. 200us");
			j->o.slower_than_ns = ns;
			j->time = optarg;
		} else if (c == 'p') {
			j->o.pair = optarg;
		} else if (c == 'o') {
			j->o.on = optarg;
		} else if (c == 'k') {
			j->o.keep = strtoull(optarg, &end, 10);
			if (!*optarg || *end || *optarg == '-')
				return cli_usage_error(j->cmd, "--keep N must be a whole number");
			j->o.keep_set = 1;
		} else if (c == 'r') {
			rate = tl_rate_parse(optarg);
			if (rate < 1 || rate > 9)
				return cli_usage_error(j->cmd, "--rate must be all or 1 to 9");
			j->o.rate = (unsigned)rate;
		} else {
			return cli_bad_option(j->cmd, argv, c);
		}
	}
	if (optind == argc)
		return cli_usage_error(j->cmd, "missing log file");
	if (j->freeze)
		return -1;
	if (j->o.on && (j->o.pair || j->time))
		return cli_usage_error(j->cmd, "--on takes no --pair nor --slower-than");
	if (!j->o.on && !j->time)
		return cli_usage_error(j->cmd, "give --slower-than TIME or --on EVENT");
	return -1;
}

static int run(const char *cmd, int freeze, int argc, char **argv)
{
	struct job j = { .cmd = cmd, .freeze = freeze };
	int rc = parse(&j, argc, argv);
	if (rc >= 0)
		return rc;
	j.problems += input_walk(cmd, argv + optind, argc - optind, one_file, &j);
	if (!j.logs && !j.problems) {
		cli_error(cmd, "no logs");
		j.problems++;
	}
	return cli_finish(cmd, j.problems ? EXIT_USAGE : EXIT_OK);
}

int cmd_arm(int argc, char **argv)
{
	return run("arm", 0, argc, argv);
}

int cmd_freeze(int argc, char **argv)
{
	return run("freeze", 1, argc, argv);
}
