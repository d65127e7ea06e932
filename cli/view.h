/* view.h: how the reading commands print entries: text, CSV or JSON lines,
 * time as cycles, nanoseconds or wall clock, and the filters. Shared by
 * dump and merge. */
#ifndef TL_VIEW_H
#define TL_VIEW_H
#include <getopt.h>
#include <stdint.h>
#include "input.h"
#include "window.h"

enum { FMT_TEXT, FMT_CSV, FMT_JSON };
enum { TIME_CYCLES, TIME_NS, TIME_WALL };

struct view {
	int format;                  /* FMT_* */
	int time;                    /* TIME_* */
	int with_file;               /* print the file (merge) */
	const char *cmd;             /* for messages */
	struct window w;             /* --from, --to, --last, --event, --app, --cpu, --numa;
				      * bare --from and --to numbers are in the --time
				      * unit (wall: Unix seconds) */
	int filtered;                /* the window or a filter may leave entries out */
	uint64_t limit;              /* --limit, 0 = none */
	int from_wall;               /* merge by wall clock: --time ns counts from wall0 */
	int64_t wall0;               /* wall ns of the first merged entry */
	uint64_t printed;            /* lines printed so far */
	int follow;                  /* --follow: go on as the logs are written */
	int spans;                   /* --spans (dump): the span table, not the entries */
	int marked;                  /* --mark (dump): the entries at ... */
	uint64_t mark[2];            /* ... these TSCs marked, a few around them */
	uint64_t trigger;            /* --trigger[=N] (dump): 1 + N, the window around the
				      * recorder's trigger; 0 none */
	uint64_t lines;              /* --lines: following starts with the newest this
				      * many entries kept (VIEW_ALL_LINES: all) ... */
	int lines_given;             /* ... as given, else its default */
	int header_due;              /* the CSV header, not printed yet (view_begin) */
	char note[640];              /* a line printed before the next entry kept, "" none */
};

#define VIEW_ALL_LINES UINT64_MAX    /* --lines all */

/* The options of dump and merge, the printing commands, as their usage
 * lists them (view_parse() takes them): they differ only in what comes
 * before. */
#define VIEW_USAGE                                                                  \
	"   -f, --format FMT    text (default), csv or json (one object per line)\n"    \
	"   -t, --time UNIT     cycles (since the first entry, default), ns, or wall\n" \
	WINDOW_USAGE_FROM(WINDOW_FROM_TIME_UNIT)                                          \
	"   -l, --limit N       stop after N entries\n"                                 \
	"       --follow        go on printing entries as they are written, until the\n" \
	"                       writers' processes end (or SIGINT, or --limit); a log\n" \
	"                       being created is waited for, up to 2 s\n"  \
	"       --lines N       with --follow: start with the newest N entries the\n"   \
	"                       filters keep (default 10, all with --from, --to or\n"  \
	"                       --last; 0: only new ones; all: the whole ring)\n"     \
	"   -h, --help          show this help\n"

/* The time TSC of IN in V's unit: cycles or ns since T0, or wall ns. */
int64_t view_time(const struct view *v, const struct input *in, uint64_t tsc, uint64_t t0);

/* Parses --format's ARG (text, csv, json) into *FORMAT; -1 with *WHY set. */
int view_format(const char *arg, int *format, const char **why);

/* Handles option C with ARG if it is a view option: returns 1 when handled,
 * 0 when not a view option, -1 with *WHY set for a bad value. */
int view_option(struct view *v, int c, const char *arg, const char **why);

/* Parses the options of command CMD (VIEW_USAGE's, USAGE is its --help)
 * into V and checks that inputs follow. Returns -1 to go on with the inputs
 * at argv[optind], or the exit code to return now (help, usage error). */
int view_parse(struct view *v, const char *cmd, const char *usage, int argc, char **argv);

/* Begins the output: in CSV, its header row is due, printed before the
 * first row (view_keep()) or by view_end(), so that a command that keeps
 * nothing prints nothing. */
void view_begin(struct view *v);

/* Ends the output of a command that met PROBLEMS: the CSV header still due
 * is printed when all went well (an empty log is a CSV of no rows), not
 * when nothing was kept for a reason said on stderr. */
void view_end(struct view *v, int problems);

/* An entry of a log: its number and time. */
struct view_mark {
	uint64_t seq, tsc;
	uint32_t thread;             /* its thread: SEQ is that thread's number */
};

/* The newest N entries of IN's ring that V keeps (window and filters),
 * oldest first, into MARKS (room for N): returns how many, at most N;
 * *MORE gets how many it keeps before them. */
size_t view_newest(struct view *v, struct input *in, struct view_mark *marks, size_t n,
		   uint64_t *more);

/* Starts following IN (follow.h) at its N entries MARKS, oldest first:
 * each thread at its first of them (by number; a Snabb log by the time of
 * the first), a thread with none among them at its end; or, with N 0,
 * from its oldest entry (FROM_END 0) or from its end (1). Entries passed
 * over leave what the switches were unknown until the first record shown. */
struct follow;
void view_follow_from(struct follow *f, struct input *in, const struct view_mark *marks,
		      size_t n, int from_end);

/* Starts following IN so that V shows first the newest V->lines entries it
 * keeps, as tail -f does (view_newest()). */
void view_follow_start(struct view *v, struct follow *f, struct input *in);

/* Can IN be shown in V's time unit? Reports and returns 0 if not. */
int view_can_time(const struct view *v, const char *cmd, const struct input *in);

/* view_can_time() for input_open_all(), the struct view at VIEW. */
int view_timed(const struct input *in, const char *cmd, void *view);

/* Does V keep entry E of IN (its time window and filters; T0 as for
 * view_entry)? 1 with its time in *T, else 0; counts nothing (a first pass
 * over the entries: export --slowest). */
int view_takes(struct view *v, struct input *in, const tl_entry *e, uint64_t t0, int64_t *t);

/* Applies V's filters to entry E of IN (T0 as for view_entry): returns 1
 * with its definition in *EV and time in *T when kept (and counts it),
 * 0 when filtered out, -1 when the limit is reached. */
int view_keep(struct view *v, struct input *in, const tl_entry *e, uint64_t t0,
	      const tl_def **ev, int64_t *t);

/* Prints entry E of IN, of definition EV and at time T, kept by view_keep(). */
void view_print(const struct view *v, struct input *in, const tl_def *ev, const tl_entry *e,
		int64_t t);

/* Says in V's format that N entries of IN's thread THREAD, numbered FIRST
 * on, were lost: overwritten before they were read (text and JSON on
 * stdout, CSV on stderr, which keeps the CSV whole); the thread is named
 * when IN has several. N 0: a Snabb log lost some, uncounted. What IN's
 * switches were is unknown from then until its records say. */
void view_lost(const struct view *v, struct input *in, unsigned thread, uint64_t n,
	       uint64_t first);

/* Does IN have several threads, so that each line names its own? */
static inline int view_threads(const struct input *in)
{
	return tl_reader_threads(in->r) > 1;
}

/* Has V printed its --limit? */
static inline int view_full(const struct view *v)
{
	return v->limit && v->printed >= v->limit;
}

/* Prints entry E of IN if the filters keep it; T0 is the tsc that time
 * counts from. Returns 1 printed, 0 filtered out, -1 the limit is reached. */
int view_entry(struct view *v, struct input *in, const tl_entry *e, uint64_t t0);
#endif
