/* window.h: which entries a reading command takes: a time window (--from,
 * --to in every form `dump --time` prints, --last counted back from each
 * log's newest entry) and the filters --event, --app, --cpu and --numa.
 * Shared by dump, merge, stats, diff, copy and export. */
#ifndef TL_WINDOW_H
#define TL_WINDOW_H
#include <stdint.h>
#include "input.h"

/* How a bound was written. */
enum { W_NONE, W_UNIT, W_TICKS, W_NS, W_WALL };

struct bound {
	int kind;                    /* W_*: W_UNIT, a bare number, is in the command's
				      * time unit (cycles where it has none) */
	double unit;                 /* W_UNIT: the number */
	int64_t v;                   /* W_TICKS: ticks and W_NS: ns since the log's first
				      * entry; W_WALL: ns since the epoch */
	const char *text;            /* as given, for messages */
};

struct window {
	struct bound from, to;
	uint64_t last_ns;            /* --last, 0: none */
	const char *last_text;       /* --last as given */
	const char *glob, *app;      /* --event, --app: fnmatch patterns */
	uint64_t cpus[64], numas[64];/* --cpu, --numa bit sets */
	int by_cpu, by_numa;
	int unit_elsewhere;          /* W_UNIT bounds are the caller's to judge, in
				      * its own unit (dump's --time), not cycles */
};

#define WINDOW_APP 0x161             /* getopt code of --app (long only) */
#define WINDOW_OPTIONS                                            \
	{ "from", required_argument, NULL, 'F' },                 \
	{ "to", required_argument, NULL, 'T' },                   \
	{ "last", required_argument, NULL, 'L' },                 \
	{ "event", required_argument, NULL, 'e' },                \
	{ "app", required_argument, NULL, WINDOW_APP },           \
	{ "cpu", required_argument, NULL, 'c' },                  \
	{ "numa", required_argument, NULL, 'n' }
#define WINDOW_SHORT "F:T:L:e:c:n:"
/* The usage lines, FROM the --from line saying what a bare number is:
 * cycles (WINDOW_FROM_CYCLES), or the --time unit of dump and merge. */
#define WINDOW_FROM_CYCLES                                                                  \
	"       --from T        only entries at or after T: a number of cycles since\n"     \
	"                       the log's first entry, a duration since it (250ms,\n"      \
	"                       1.5s, 90ns) or a wall time (2026-11-23T14:10:12Z,\n"       \
	"                       fraction and zone optional)\n"
#define WINDOW_FROM_TIME_UNIT                                                               \
	"       --from T        only entries at or after T: a number in the --time\n"      \
	"                       unit (wall: Unix seconds), a duration since the log's\n"   \
	"                       first entry (250ms, 1.5s, 90ns) or a wall time\n"          \
	"                       (2026-11-23T14:10:12Z, fraction and zone optional)\n"
#define WINDOW_USAGE_FROM(FROM)                                                             \
	FROM                                                                                \
	"       --to T          only entries at or before T, the same forms\n"              \
	"       --last D        only the last D (10s, 500ms) of each log\n"                 \
	"   -e, --event GLOB    only events whose category.name matches GLOB\n"            \
	"       --app GLOB      only events of apps matching GLOB (app=NAME)\n"            \
	"   -c, --cpu LIST      only these CPUs, e.g. 0,2-5\n"                             \
	"   -n, --numa LIST     only these NUMA nodes\n"
#define WINDOW_USAGE WINDOW_USAGE_FROM(WINDOW_FROM_CYCLES)

/* Parses the time bound S into *B; -1 if it is none of the forms. */
int window_bound(const char *s, struct bound *b);

/* Parses a duration ("10s", "500ms", "2m", "1.5us", "90ns", "7d") into *NS. */
int window_duration(const char *s, uint64_t *ns);

/* Handles option C with ARG if it is a window option: 1 handled, 0 not one
 * of them, -1 with *WHY set for a bad value. */
int window_option(struct window *w, int c, const char *arg, const char **why);

/* Checks W once its options are parsed: a --from after its --to (of one
 * form: both cycles, both durations or both wall times) would keep
 * nothing. Returns 0, or -1 with *WHY set, for a usage error. */
int window_check(const struct window *w, const char **why);

/* Whether W restricts time at all (so a command can skip the work). */
int window_timed(const struct window *w);

/* Whether W may leave any entry out: a time bound or a filter. */
int window_any(const struct window *w);

/* Appends to the string BUF (of SIZE bytes) W's options in one canonical
 * form, each after a space: " --from 1500000000ns --cpu 0,2-5"; nothing
 * when W keeps every entry. Equal windows give equal text. */
void window_describe(const struct window *w, char *buf, size_t size);

/* Resolves W for input IN, whose first entry has timestamp T0, into *S
 * (W_UNIT bounds count as cycles). Returns 0, or -1 after reporting as
 * "timeline CMD: PATH: problem" a bound the log cannot place in time. */
int window_begin(const struct window *w, struct input *in, uint64_t t0, struct span *s,
		 const char *cmd);

/* Does W keep entry E of IN? The window is placed in IN's time at the first
 * call, E being its first entry (window_begin(); a log that cannot place it
 * is reported once as CMD, marked span_bad for input_report_damage(), and
 * keeps nothing), then window_keep(). */
int window_take(const struct window *w, struct input *in, const tl_entry *e, const char *cmd);

/* After log IN was read through window W (window_take(), or a caller that
 * placed the window itself and set IN's window_empty): 1 when W's time
 * bounds held none of the log's entries, with the line saying so in
 * *LINE (malloc'd): "timeline CMD: no entries between FROM and TO; LOG
 * spans A to B", FROM and TO as given and the log's span in the form of
 * the bound (window_place_span()); 1 too when W's filters (--event,
 * --app, --cpu, --numa) kept none of the entries in its time bounds, 2
 * with "timeline CMD: --event 'G' keeps none of the N entries of LOG"; 0
 * when they kept some; -1 when there is nothing to say (no bound nor
 * filter, no entry read, or a bound the log could not place, reported
 * already). */
int window_missed(const struct window *w, const struct input *in, const char *cmd, char **line);

/* What the time window kept of the logs under one input path: the lines
 * of those it kept nothing of, until it is known whether any kept some. */
struct window_misses {
	char *lines;                 /* window_missed()'s lines, one after another */
	size_t len;
	unsigned hits;               /* logs the window kept entries of */
};

/* Counts into M a log that MISSED (window_missed()'s answer, its LINE). */
void window_misses_count(struct window_misses *m, int missed, const char *line);

/* Counts log IN, read through W, into M (window_missed()). */
void window_misses_add(struct window_misses *m, const struct window *w, const struct input *in,
		       const char *cmd);

/* At the end of one input path: when the window kept nothing of any of
 * its logs, prints their lines to CLI_ERR and returns 1 (a problem: the
 * path gave nothing to read), else 0. M is emptied for the next path. */
int window_misses_end(struct window_misses *m);

/* At the end of a command: when the filters kept nothing of any log it
 * counted (window_misses_count(), over all its paths: a filter choosing
 * the entries of some of the logs named is what it is for), prints their
 * lines to stderr and returns 1, else 0. main() calls it: exit 2. */
int window_filters_end(void);

/* Will window_filters_end() say the filters kept nothing, as counted so
 * far? (Then a warning that the logs lack pairs has the wrong reason.) */
int window_filters_missed(void);

/* Writes the span of IN's entries, FIRST to NEWEST (timestamps), into IN's
 * window_span in the form a bound of KIND is written: wall times as `dump
 * --time wall` prints them, durations as seconds since the log's first
 * entry ("0s to 2.5s"), cycles since it ("0 to 5000 cycles"). */
void window_place_span(struct input *in, int kind, uint64_t first, uint64_t newest);

/* Does W keep definition D (--event and --app)? Cached on its struct shown. */
int window_def_kept(const struct window *w, const tl_def *d);

/* Does W keep entry E of IN, within span S? Counts the entries within S
 * and those the filters keep of them (IN's window_seen, window_kept). */
static inline int window_keep(const struct window *w, const struct span *s, struct input *in,
			      const tl_entry *e)
{
	if (e->tsc < s->lo || e->tsc > s->hi)
		return 0;
	in->window_seen++;
	if ((w->by_cpu && !in_set(w->cpus, e->cpu)) || (w->by_numa && !in_set(w->numas, e->numa)))
		return 0;
	if ((w->glob || w->app) && !window_def_kept(w, input_event(in, e->msgid)))
		return 0;
	in->window_kept++;
	return 1;
}
#endif
