/* trigger.c: `dump --trigger[=N]`, the window around a frozen log's
 * trigger (timeline arm): the entries of every thread from N entries of
 * the triggering thread before the slow pair's begin to N after its end,
 * merged by time, the pair's begin and end marked by a line before each
 * (text) or a note on stderr (CSV, JSON). */
#include <stdio.h>
#include "commands.h"
#include "dump.h"
#include "out.h"
#include "recorder.h"

/* The time bounds of the window: the timestamps of the trigger thread's
 * entries BEGIN - AROUND and END + AROUND, or the nearest the ring holds. */
static void bounds(struct input *in, const tl_arming *a, uint64_t around, uint64_t *lo,
		   uint64_t *hi, uint64_t *begin_tsc)
{
	uint64_t from = a->begin_seq > around ? a->begin_seq - around : 0, to = a->end_seq + around;
	int have_lo = 0;
	tl_entry e;
	*lo = *hi = a->end_tsc;
	*begin_tsc = a->end_tsc;
	tl_reader_rewind(in->r);
	while (tl_reader_next(in->r, &e)) {
		if (e.thread != a->thread || e.seq < from || e.seq > to)
			continue;
		if (!have_lo) {
			*lo = e.tsc;
			have_lo = 1;
		}
		if (e.seq == a->begin_seq)
			*begin_tsc = e.tsc;
		*hi = e.tsc;
	}
}

/* The line before the slow pair's begin or end (or the event). */
static void mark(struct view *v, struct input *in, const tl_arming *a, const tl_entry *e,
		 const char *trig)
{
	char line[640];
	if (a->kind == TL_TRIGGER_EVENT)
		snprintf(line, sizeof line, "# >>> the trigger: %s", trig);
	else if (e->seq == a->begin_seq)
		snprintf(line, sizeof line, "# >>> the slow %s begins (entry %llu)",
			 a->kind == TL_TRIGGER_GAP ? "gap" : "pair", (unsigned long long)e->seq);
	else
		snprintf(line, sizeof line, "# <<< the slow %s ends (entry %llu): %llu cycles > %llu",
			 a->kind == TL_TRIGGER_GAP ? "gap" : "pair", (unsigned long long)e->seq,
			 (unsigned long long)a->cycles, (unsigned long long)a->threshold_at);
	if (v->format == FMT_TEXT) {
		out_str(line);
		out_char('\n');
	} else {
		out_flush();
		cli_error("dump", "%s: %s", in->path, line + 2);
	}
}

int dump_trigger(struct view *v, struct input *in)
{
	tl_arming a;
	char trig[512];
	uint64_t lo, hi, begin_tsc;
	tl_entry e;
	if (recorder_of(in, &a) || !a.kind || a.kind == TL_TRIGGER_HAND) {
		cli_error("dump", "%s: no trigger recorded (%s)", in->path,
			  a.kind == TL_TRIGGER_HAND ? "frozen by hand" : "timeline arm records one");
		return 1;
	}
	recorder_trigger(in, &a, trig, sizeof trig);
	bounds(in, &a, v->trigger - 1, &lo, &hi, &begin_tsc);
	if (v->format == FMT_TEXT) {
		out_str("# ");
		out_str(in->path);
		out_str(": trigger ");
		out_str(trig);
		out_char('\n');
	}
	tl_reader_rewind(in->r);
	while (tl_reader_next(in->r, &e)) {
		int slow = e.thread == a.thread && (e.seq == a.begin_seq || e.seq == a.end_seq);
		if (e.tsc < lo || e.tsc > hi)
			continue;
		if (slow)
			mark(v, in, &a, &e, trig);
		if (view_entry(v, in, &e, begin_tsc) < 0)
			return -1;
	}
	return 0;
}
