/* ls.c: `timeline ls`, the logs under the default roots (or given roots):
 * pid, whether its writer runs, entries written, size on disk, rate, clock,
 * process and the file system the log lives on. */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "fsname.h"
#include "input.h"
#include "json.h"
#include "out.h"
#include "recorder.h"
#include "roots.h"

static const char usage[] =
	"usage: timeline ls [--format text|json] [ROOT...]\n"
	"\n"
	"Lists the logs under each ROOT (default: $TIMELINE_ROOT or\n"
	"/var/run/timeline, $XDG_RUNTIME_DIR/timeline and /tmp/timeline-UID, for\n"
	"root every user's, and /var/run/snabb; those this user cannot read are\n"
	"passed over): pid, whether the writer runs (pid and start time), entries\n"
	"written, size on disk, current rate, clock source (as `timeline info` names\n"
	"it: rdtsc+rseq-unordered is the one whose times may run ahead of the work),\n"
	"process, and the file system the log lives on (tmpfs keeps it in memory;\n"
	"on a disk's, its write-back makes each entry dearer).\n"
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
	int pid_only;                /* a row said "yes?": explain it after the table */
};

/* What ls shows of one log. */
struct row {
	const char *path;
	const tl_info *i;
	unsigned pid;
	int alive;                   /* enum tl_liveness */
	uint64_t disk, bytes;        /* size on disk, length */
	char rate[32];
	const char *clock;           /* tl_clock_name(), "-" for Snabb, "unknown" */
	char fs[32];                 /* its file system (fs_name()) */
	int in_memory;
	unsigned threads;
	int recorder;                /* 0: tl_arming in arming (armed, frozen, triggered) */
	tl_arming arming;
};

static void print_json(const struct row *w)
{
	const tl_info *i = w->i;
	int native = i->format == TL_FORMAT_NATIVE;
	struct json j = JSON_INIT;
	json_begin_object(&j);
	JSON_KEY_STRING(&j, "path", w->path);
	JSON_KEY_STRING(&j, "format", native ? "timeline" : "snabb");
	JSON_KEY_UINT(&j, "pid", w->pid);
	JSON_KEY_BOOL(&j, "alive", w->alive != TL_GONE);
	JSON_KEY_STRING(&j, "alive_by",
			native && i->start_ticks ? "pid and start time" : "pid only");
	JSON_KEY_UINT(&j, "start_ticks", native ? i->start_ticks : 0);
	JSON_KEY_STRING(&j, "process", native ? i->process : "");
	JSON_KEY_UINT(&j, "written", i->cursor);
	JSON_KEY_UINT(&j, "disk_bytes", w->disk);
	JSON_KEY_UINT(&j, "bytes", w->bytes);
	if (native)
		JSON_KEY_UINT(&j, "switched_off", i->switched_off);
	if (!w->recorder) {   /* timeline arm: armed, frozen or triggered once */
		JSON_KEY_STRING(&j, "recorder", recorder_state(w->arming.state));
		JSON_KEY_STRING(&j, "trigger", tl_trigger_name(w->arming.kind));
	}
	JSON_KEY_STRING(&j, "rate", w->rate);
	JSON_KEY_STRING(&j, "clock", w->clock);
	JSON_KEY_STRING(&j, "file_system", w->fs);
	JSON_KEY_BOOL(&j, "in_memory", w->in_memory);
	JSON_KEY_UINT(&j, "threads", w->threads);
	json_end_object(&j);
	out_char('\n');
}

/* S, then spaces up to WIDTH columns. */
static void out_left(const char *s, size_t width)
{
	out_str(s);
	for (size_t k = strlen(s); k < width; k++)
		out_char(' ');
}

static void print_text(const struct row *w, int first)
{
	const char *process = w->i->format == TL_FORMAT_NATIVE ? w->i->process : "(snabb)";
	char size[16];
	if (first)
		out_str("    PID ALIVE     WRITTEN     SIZE RATE     CLOCK                "
			"PROCESS          FS       PATH\n");
	out_pad(w->pid, 7);
	out_str(w->alive == TL_RUNNING ? " yes  " : w->alive == TL_PID_RUNNING ? " yes? " : " no   ");
	out_pad(w->i->cursor, 12);
	human_bytes(size, w->disk);
	for (size_t k = strlen(size); k < 9; k++)
		out_char(' ');
	out_str(size);
	out_char(' ');
	out_left(w->rate, 9);
	out_left(w->clock, 21);
	out_left(process, 16);
	out_char(' ');
	out_left(w->fs, 8);
	out_char(' ');
	out_str(w->path);
	if (w->i->switched_off) {   /* timeline disable: say how many, after the path */
		out_str(" (");
		out_u64(w->i->switched_off);
		out_str(w->i->switched_off == 1 ? " event off)" : " events off)");
	}
	if (!w->recorder) {   /* timeline arm: its state, and the trigger's kind */
		out_str(" (");
		out_str(recorder_state(w->arming.state));
		if (w->arming.kind) {
			out_str(": ");
			out_str(tl_trigger_name(w->arming.kind));
		}
		out_char(')');
	}
	out_char('\n');
}

static int ls_one(const char *path, int named, void *arg)
{
	struct ls *l = arg;
	int skipped;
	struct input *in = input_open("ls", path, named, &skipped);
	struct row w = { .path = path };
	if (!in) {
		l->problems += !skipped;
		return 0;
	}
	w.i = &in->info;
	if (w.i->format != TL_FORMAT_NATIVE) {
		w.pid = input_pid(in);
		snprintf(w.rate, sizeof w.rate, "-");
		w.clock = "-";   /* Snabb's files do not say (its logger takes RDTSCP) */
		w.alive = tl_pid_alive(w.pid, 0);
	} else {
		w.pid = w.i->pid;
		tl_rate_name(w.rate, sizeof w.rate, w.i->rate, w.i->rate_fixed);   /* all, 2-9, off, auto */
		w.clock = tl_clock_name(w.i->clock) ? tl_clock_name(w.i->clock) : "unknown";
		w.alive = tl_pid_alive(w.pid, w.i->start_ticks);
	}
	if (log_size(path, &w.disk, &w.bytes) != 0)
		w.disk = w.bytes = 0;
	w.in_memory = fs_name(path, w.fs, sizeof w.fs);
	w.threads = tl_reader_threads(in->r);
	w.recorder = recorder_of(in, &w.arming);
	if (l->json)
		print_json(&w);
	else
		print_text(&w, !l->count);
	l->pid_only |= w.alive == TL_PID_RUNNING;
	l->count++;
	input_close(in);
	return 0;
}

int cmd_ls(int argc, char **argv)
{
	struct ls l = { 0, 0, 0, 0 };
	struct roots roots;
	int rc = cli_parse_text_json("ls", usage, options, argc, argv, &l.json);
	if (rc >= 0)
		return rc;
	input_quiet = 1;
	if (optind < argc) {
		l.problems += input_walk("ls", argv + optind, argc - optind, ls_one, &l);
	} else {
		roots_default(&roots, 1);
		input_skip_denied = 1;   /* a root this user may not read is not theirs to list */
		l.problems += input_walk("ls", roots.path, roots.n, ls_one, &l);
		roots_free(&roots);
	}
	if (!l.count && !l.json)
		out_str("no logs found\n");
	if (l.pid_only && !l.json)
		out_str("yes?: the pid runs, but the log does not say when its writer started "
			"(format 1.0, Snabb): it may be another process\n");
	out_flush();
	return cli_finish("ls", l.problems ? EXIT_USAGE : EXIT_OK);
}
