/* dump.c: `timeline dump`, every entry of every input, oldest first, as
 * text, CSV or JSON lines. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "dump.h"
#include "follow.h"
#include "out.h"
#include "view.h"

static const char usage[] =
	"usage: timeline dump [OPTIONS] INPUT...\n"
	"\n"
	"Prints every entry of each input (a log, a Snabb log, a zstd copy of\n"
	"either, or a directory of them), oldest first; with --follow, the newest\n"
	"10 first (--lines), then each entry as it is written.\n"
	"\n"
	"       --spans         a row per span instead: each instance of a begin/end\n"
	"                       pair (declared, or Snabb's) with its thread, begin,\n"
	"                       end, cycles, self cycles, units, parent and depth\n"
	"       --mark B,E      mark with '>' the entries at TSC B and E (a pair's\n"
	"                       begin and end, as stats --slowest's dump command\n"
	"                       gives them): each entry from B to E, and at most 100\n"
	"                       of the others kept before B and after E\n"
	"       --trigger[=N]   only the window around the trigger of a log armed\n"
	"                       (timeline arm): N entries (default 20) of its thread\n"
	"                       before the slow pair and after it, every thread's\n"
	"                       entries between, times counted from the pair's begin\n"
	VIEW_USAGE;

struct dump {
	struct view view;
	struct spantab *spans;         /* --spans: the span table being made */
	int problems;                /* inputs that could not be read */
	int inputs;                  /* inputs read under the path being walked */
	struct window_misses misses; /* of those, what the window held */
	struct mark *mark;           /* --mark: the entries held around it */
};

/* Says, before the entries of IN, when events were switched off while they
 * were written (timeline disable): a record of changes among them, or some
 * off now. A header line in text, printed before IN's first entry kept (so
 * that nothing is printed of a log nothing is kept of); a note on stderr
 * with CSV and JSON, whose lines are all entries. Scans the snapshot only
 * when the switches ever changed. */
static void say_switches(struct dump *d, struct input *in)
{
	uint64_t records = 0;
	tl_entry e;
	char line[512];
	if (!in->info.switch_gen && !in->info.switched_off)
		return;
	tl_reader_rewind(in->r);
	while (tl_reader_next(in->r, &e))
		records += e.args[1] == 0 && tl_reader_is_switch_entry(in->r, &e);
	if (!records && !in->info.switched_off)
		return;
	snprintf(line, sizeof line, "%s: events were switched off during these entries (%llu %s of "
		 "changes, %u %s off now): a missing entry may mean off, not none", in->path,
		 (unsigned long long)records, records == 1 ? "record" : "records",
		 in->info.switched_off, in->info.switched_off == 1 ? "event" : "events");
	if (d->view.format == FMT_TEXT) {
		snprintf(d->view.note, sizeof d->view.note, "# %s\n", line);
	} else {
		out_flush();
		cli_error("dump", "%s", line);
	}
}

/* Dumps one input; returns -1 once the --limit is reached. */
static int dump_one(const char *path, int named, void *arg)
{
	struct dump *d = arg;
	int skipped, rc = 0;
	struct input *in = input_open("dump", path, named, &skipped);
	tl_entry e;
	uint64_t t0 = 0;
	int first = 1;

	if (!in) {
		d->problems += !skipped;
		return 0;
	}
	if (!view_can_time(&d->view, "dump", in)) {
		d->problems++;
		input_close(in);
		return 0;
	}
	d->inputs++;
	if (d->spans) {   /* the spans of the entries the window keeps */
		spantab_input(d->spans, in);
		d->problems += input_report_damage("dump", in);
		window_misses_add(&d->misses, &d->view.w, in, "dump");
		input_close(in);
		return 0;
	}
	d->view.note[0] = '\0';   /* another log's, if none of its entries was kept */
	if (d->view.trigger) {   /* the window around the trigger alone */
		rc = dump_trigger(&d->view, in);
		d->problems += rc > 0;
		input_close(in);
		return rc < 0 ? -1 : 0;
	}
	say_switches(d, in);
	tl_reader_rewind(in->r);
	while (tl_reader_next(in->r, &e)) {
		if (first)
			t0 = e.tsc;
		first = 0;
		if ((d->mark ? mark_entry(d->mark, in, &e, t0) : view_entry(&d->view, in, &e, t0)) < 0) {
			rc = -1;
			break;
		}
	}
	if (d->mark)
		mark_end(d->mark, in);
	d->problems += input_report_damage("dump", in);
	input_note_skipped("dump", in);
	window_misses_add(&d->misses, &d->view.w, in, "dump");
	input_close(in);
	return rc;
}

/* Dumps the inputs under each of PATHS (N) in turn; a path with no log, or
 * whose logs the window kept nothing of, is said so. */
static void dump_paths(struct dump *d, char **paths, int n)
{
	for (int i = 0; i < n && !view_full(&d->view); i++) {
		int had = d->problems;
		d->inputs = 0;
		d->problems += input_walk("dump", &paths[i], 1, dump_one, d);
		out_flush();
		d->problems += input_none("dump", paths[i], (size_t)d->inputs, d->problems - had);
		d->problems += window_misses_end(&d->misses);
	}
}

/* ---- --follow -------------------------------------------------------------- */

static volatile int stopped;   /* SIGINT, SIGTERM or SIGHUP came */

/* Prints the entries of F's snapshot and the gaps before them; returns how
 * many were read, or -1 once the --limit is printed or a signal came. */
static int64_t print_new(struct dump *d, struct follow *f)
{
	tl_entry e;
	uint64_t gap;
	int64_t n = 0;
	while (!stopped && follow_next(f, &e, &gap)) {
		n++;
		if (gap)
			view_lost(&d->view, f->in, e.thread, f->snabb ? 0 : gap, e.seq - gap);
		if (view_entry(&d->view, f->in, &e, f->t0) < 0 || view_full(&d->view))
			return -1;
	}
	return stopped ? -1 : n;
}

/* One round over the followed logs F (N): what is new in each is printed;
 * a log whose writer had ended before its snapshot is done. Returns -1 to
 * stop (limit, signal), else how many entries were read. */
static int64_t follow_round(struct dump *d, struct follow *f, size_t n)
{
	int64_t read = 0;
	for (size_t i = 0; i < n; i++) {
		int alive;
		int64_t k;
		uint64_t gap;
		if (f[i].done)
			continue;
		alive = follow_alive(&f[i]);   /* before the snapshot: nothing is missed */
		follow_snapshot(&f[i], 0, NULL);
		if ((k = print_new(d, &f[i])) < 0)
			return -1;
		/* nothing new: the gap at the end of the last snapshot is final */
		while (!k && (gap = follow_gap(&f[i])))
			view_lost(&d->view, f[i].in, f[i].gap_thread, gap, f[i].gap_first);
		f[i].done = !alive;
		read += k;
	}
	return read;
}

/* Follows every log among PATHS (N) until their writers end, a signal
 * comes or the --limit is printed; reports each one on stderr. */
static void dump_follow(struct dump *d, char **paths, int npaths)
{
	struct input_list l = { NULL, 0, 0 };
	struct follow *f;
	size_t running;
	input_wait_for_births();   /* a log just created may have no header yet */
	d->problems += input_open_all("dump", paths, npaths, &l, view_timed, &d->view);
	if (!(f = calloc(l.n ? l.n : 1, sizeof *f)))
		abort();
	for (size_t i = 0; i < l.n; i++)
		view_follow_start(&d->view, &f[i], l.in[i]);
	follow_catch_signals(&stopped);
	do {
		int64_t read = follow_round(d, f, l.n);
		running = 0;
		for (size_t i = 0; i < l.n; i++)
			running += !f[i].done;
		if (read < 0)
			break;
		if (!read && running) {
			out_flush();
			fflush(stdout);   /* what is printed is seen while nothing is new */
			follow_sleep(FOLLOW_POLL_NS);
		}
	} while (running && !stopped);
	out_flush();
	for (size_t i = 0; i < l.n; i++) {
		d->problems += input_report_damage("dump", f[i].in);
		follow_report(&f[i], "dump");
		follow_close(&f[i]);
	}
	free(f);
	free(l.in);
}

int cmd_dump(int argc, char **argv)
{
	struct dump d;
	int rc;

	memset(&d, 0, sizeof d);
	if ((rc = view_parse(&d.view, "dump", usage, argc, argv)) >= 0)
		return rc;
	if (d.view.spans)
		d.spans = spantab_new(&d.view);
	else
		view_begin(&d.view);
	if (d.view.marked && !(d.mark = malloc(sizeof *d.mark)))
		abort();
	if (d.mark)
		mark_begin(d.mark, &d.view);
	if (d.view.follow)
		dump_follow(&d, argv + optind, argc - optind);
	else
		dump_paths(&d, argv + optind, argc - optind);
	if (d.spans) {
		spantab_print(d.spans);
		spantab_free(d.spans);
	}
	view_end(&d.view, d.problems);
	free(d.mark);
	out_flush();
	return cli_finish("dump", d.problems ? EXIT_USAGE : EXIT_OK);
}
