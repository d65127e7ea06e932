/* view.c: printing entries as text, CSV or JSON lines, with time conversion
 * and the --event, --cpu, --numa, --from, --to and --limit filters; the
 * options of dump and merge, the commands that print entries. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "follow.h"
#include "json.h"
#include "out.h"
#include "switchview.h"
#include "usage.h"
#include "view.h"

#define VIEW_FOLLOW 0x170   /* getopt codes of --follow, --lines and --spans (long only:
				* -n is --numa) */
#define VIEW_LINES 0x171
#define VIEW_SPANS 0x172
#define VIEW_MARK 0x173
#define VIEW_TRIGGER 0x174

int view_format(const char *arg, int *format, const char **why)
{
	if (!strcmp(arg, "text")) *format = FMT_TEXT;
	else if (!strcmp(arg, "csv")) *format = FMT_CSV;
	else if (!strcmp(arg, "json")) *format = FMT_JSON;
	else return *why = "--format must be text, csv or json", -1;
	return 0;
}

int view_option(struct view *v, int c, const char *arg, const char **why)
{
	int taken;
	switch (c) {
	case 'f':
		return view_format(arg, &v->format, why) ? -1 : 1;
	case 't':
		if (!strcmp(arg, "cycles")) v->time = TIME_CYCLES;
		else if (!strcmp(arg, "ns")) v->time = TIME_NS;
		else if (!strcmp(arg, "wall")) v->time = TIME_WALL;
		else return *why = "--time must be cycles, ns or wall", -1;
		return 1;
	case 'l':
		return parse_u64(arg, &v->limit) ? (*why = "--limit takes a whole number", -1) : 1;
	case VIEW_FOLLOW:
		v->follow = 1;
		return 1;
	case VIEW_SPANS:
		v->spans = 1;
		return 1;
	case VIEW_MARK: {
		char from[24];
		size_t n = strcspn(arg, ",");
		v->marked = 1;
		snprintf(from, sizeof from, "%.*s", (int)(n < sizeof from ? n : 0), arg);
		if (!arg[n] || parse_u64(from, &v->mark[0]) || parse_u64(arg + n + 1, &v->mark[1]) ||
		    v->mark[1] < v->mark[0])
			return *why = "--mark takes two TSCs, FROM,TO, FROM not after TO", -1;
		return 1;
	}
	case VIEW_TRIGGER:
		v->trigger = 21;
		if (arg && (parse_u64(arg, &v->trigger) || v->trigger > 1000000000))
			return *why = "--trigger takes a number of entries", -1;
		v->trigger += !!arg;
		return 1;
	case VIEW_LINES:
		if (!strcmp(arg, "all"))
			v->lines = VIEW_ALL_LINES;
		else if (parse_u64(arg, &v->lines) || v->lines == VIEW_ALL_LINES)
			return *why = "--lines takes a number of entries, or all", -1;
		v->lines_given = 1;
		return 1;
	}
	/* bare --from and --to numbers are judged in the --time unit (in_window) */
	v->w.unit_elsewhere = 1;
	taken = window_option(&v->w, c, arg, why);
	v->filtered = window_any(&v->w);
	return taken;
}

static const struct option options[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "follow", no_argument, NULL, VIEW_FOLLOW },
	{ "spans", no_argument, NULL, VIEW_SPANS },
	{ "mark", required_argument, NULL, VIEW_MARK },
	{ "trigger", optional_argument, NULL, VIEW_TRIGGER },
	{ "lines", required_argument, NULL, VIEW_LINES },
	{ "time", required_argument, NULL, 't' },
	{ "limit", required_argument, NULL, 'l' },
	WINDOW_OPTIONS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int view_parse(struct view *v, const char *cmd, const char *usage, int argc, char **argv)
{
	const char *why;
	int c;
	v->cmd = cmd;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:t:l:" WINDOW_SHORT "h", options, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return cli_finish(cmd, EXIT_OK);
		}
		switch (view_option(v, c, optarg, &why)) {
		case 1: continue;
		case -1: return cli_usage_error(cmd, why);
		}
		return cli_bad_option(cmd, argv, c);
	}
	if (window_check(&v->w, &why) < 0)
		return cli_usage_error(cmd, why);
	if (v->spans && strcmp(cmd, "dump"))
		return cli_usage_error(cmd, "--spans is dump's: the span table of each input");
	if (v->marked && (strcmp(cmd, "dump") || v->spans || v->follow || v->format != FMT_TEXT))
		return cli_usage_error(cmd, "--mark is dump's, of text lines, without --spans or "
				       "--follow");
	if (v->trigger && (strcmp(cmd, "dump") || v->spans || v->follow))
		return cli_usage_error(cmd, "--trigger is dump's, without --spans or --follow");
	if (v->spans && v->follow)
		return cli_usage_error(cmd, "--spans and --follow: a span table is of logs as they are");
	if (v->lines_given && !v->follow)
		return cli_usage_error(cmd, "--lines goes with --follow");
	/* a bare number counts from the first entry printed, which --lines moves */
	if (v->lines_given && (v->w.from.kind == W_UNIT || v->w.to.kind == W_UNIT))
		return cli_usage_error(cmd, "--lines does not go with a bare-number --from or --to: "
				       "give a duration or a wall time");
	if (!v->lines_given)   /* a time window chooses where to start, as without --follow */
		v->lines = window_timed(&v->w) ? VIEW_ALL_LINES : 10;
	if (optind == argc)
		return cli_usage_error(cmd, "missing input");
	return -1;
}

static const char csv_header[] =
	"file,seq,tsc,time,cpu,numa,event,attrs,arg0,arg1,arg2,arg3,arg4,arg5,argnames,thread\n";

void view_begin(struct view *v)
{
	v->header_due = v->format == FMT_CSV;
}

void view_end(struct view *v, int problems)
{
	if (v->header_due && !problems && !window_filters_missed())
		out_str(csv_header);
	v->header_due = 0;
}

/* Before the first entry kept: the CSV header, then a note, when due. */
static void before_entry(struct view *v)
{
	if (v->header_due) {
		out_str(csv_header);
		v->header_due = 0;
	}
	if (v->note[0]) {
		out_str(v->note);
		v->note[0] = '\0';
	}
}

int view_can_time(const struct view *v, const char *cmd, const struct input *in)
{
	if (v->time != TIME_CYCLES && !in->info.tsc_hz) {
		cli_error(cmd, "%s: no TSC frequency in this %s file: use --time cycles", in->path,
			  in->info.format == TL_FORMAT_SNABB ? "Snabb" : "timeline");
		return 0;
	}
	return 1;
}

int view_timed(const struct input *in, const char *cmd, void *view)
{
	return view_can_time(view, cmd, in);
}

int64_t view_time(const struct view *v, const struct input *in, uint64_t tsc, uint64_t t0)
{
	if (v->time == TIME_WALL)
		return tl_wall_ns(&in->info, tsc);
	if (v->time == TIME_NS && v->from_wall)
		return tl_wall_ns(&in->info, tsc) - v->wall0;
	if (v->time == TIME_NS)
		return (int64_t)tl_ticks_to_ns(tsc - t0, in->info.tsc_hz);
	return (int64_t)(tsc - t0);
}

/* Time T in the unit of the bare-number bounds (wall: Unix seconds). */
static double unit_of(const struct view *v, int64_t t)
{
	return v->time == TIME_WALL ? (double)t / 1e9 : (double)t;
}

/* Is time T before a bare-number --from, or after a bare-number --to? */
static int before_from(const struct view *v, int64_t t)
{
	return v->w.from.kind == W_UNIT && unit_of(v, t) < v->w.from.unit;
}

static int after_to(const struct view *v, int64_t t)
{
	return v->w.to.kind == W_UNIT && unit_of(v, t) > v->w.to.unit;
}

/* Do the bare-number bounds, in the --time unit (wall: Unix seconds),
 * keep time T? The other forms are in the input's span. */
static int in_window(const struct view *v, int64_t t)
{
	return !before_from(v, t) && !after_to(v, t);
}

/* Argument I of E, a whole number or a double, for text and CSV. */
static void put_arg(const tl_entry *e, int i)
{
	double d;
	if (e->dargs >> i & 1) {
		memcpy(&d, &e->args[i], 8);
		out_double(d);
	} else {
		out_u64(e->args[i]);
	}
}

/* What V shows of IN, for switch_view_take(): every entry from the log's
 * first when nothing is filtered and the ring never wrapped; every entry
 * of a record unless --cpu or --numa may split one. */
static int shown(const struct view *v, const struct input *in)
{
	return (!v->filtered && in->info.cursor <= in->info.entries ? SWITCH_WHOLE : 0) |
	       (v->w.by_cpu || v->w.by_numa ? 0 : SWITCH_IN_A_ROW);
}

/* Prints D as a switched event: "category.name[ attrs]", after ", " but
 * the first (*ARG counts them). */
static void put_switched(void *arg, const tl_def *d)
{
	if ((*(unsigned *)arg)++)
		out_str(", ");
	out_str(d->name);
	if (d->attrs[0]) {
		out_char(' ');
		out_str(d->attrs);
	}
}

/* Prints " LABEL: name, name" for the events of BITS from word FIRST of IN
 * (nothing when none); returns how many. */
static unsigned put_names(struct input *in, const char *label, uint64_t first,
			  const uint64_t bits[SWITCH_GROUP], const char *sep)
{
	unsigned n = 0;
	for (unsigned k = 0; k < SWITCH_GROUP; k++)
		if (bits[k]) {
			out_str(sep);
			out_str(label);
			out_char(':');
			out_char(' ');
			return switch_view_each(in, first, bits, put_switched, &n);
		}
	return 0;
}

/* The text of E, a record entry of IN's switches, after its name: what it
 * switched off and on by name, or when the switches before it are unknown,
 * what is off after it. Returns 0, or -1 when E is damaged (its numbers
 * are printed then). */
static int switch_text(const struct view *v, struct input *in, const tl_entry *e)
{
	struct switch_change c;
	unsigned n;
	if (switch_view_take(in, shown(v, in), e, &c) < 0)
		return -1;
	out_str(" generation=");
	out_u64(e->args[0]);
	if (!c.known) {
		if (!put_names(in, "off", c.first, c.off, " "))
			out_str(" off: none");
		out_str(" (before: unknown)");
		return 0;
	}
	n = put_names(in, "switched off", c.first, c.went_off, " ");
	if (!put_names(in, "switched on", c.first, c.came_on, n ? "; " : " ") && !n)
		out_str(" no change");
	return 0;
}

/* Text with wall time, double arguments or a record of the switches. */
static void text_line_slow(const struct view *v, struct input *in, const tl_def *ev,
			   const tl_entry *e, int64_t t)
{
	if (v->with_file) {
		out_str(in->label);
		out_char(' ');
	}
	if (v->time == TIME_WALL) {
		char b[48];
		tl_format_wall(b, sizeof b, t);
		out_str(b);
	} else if (t < 0) {
		char b[24];
		snprintf(b, sizeof b, "%14lld", (long long)t);
		out_str(b);
	} else
		out_pad((uint64_t)t, 14);
	/* 4 digits, or unknown ("?"): a space apart from the time */
	if (__builtin_expect(e->cpu == 0xfff, 0)) {
		out_str("    ?");
	} else {
		if (__builtin_expect(e->cpu >= 1000, 0))
			out_char(' ');
		out_pad(e->cpu, 4);
	}
	out_pad(e->numa, 3);
	out_str("  ");
	if (view_threads(in)) {
		size_t len;
		out_bytes(input_thread(in, e->thread, &len), len);
		out_str("  ");
	}
	out_str(ev->name);
	if (ev->attrs[0]) {
		out_char(' ');
		out_str(ev->attrs);
	}
	if (shown_of(ev)->is_switch && !switch_text(v, in, e)) {
		out_char('\n');
		return;
	}
	for (unsigned i = 0; i < ev->nargs; i++) {
		out_char(' ');
		out_str(ev->args[i]);
		out_char('=');
		put_arg(e, (int)i);
	}
	out_char('\n');
}

/* The fast path, for text with whole-number arguments: one reserved line. */
static inline __attribute__((always_inline)) void
text_line(const struct view *v, struct input *in, const tl_def *ev, const tl_entry *e, int64_t t)
{
	char *p;
	if (v->time == TIME_WALL || e->dargs || t < 0 || shown_of(ev)->is_switch) {
		text_line_slow(v, in, ev, e, t);
		return;
	}
	/* room for every field whole, plus 32 for put_field's block copies,
	 * and a thread's label (48 at most) */
	p = out_reserve(sizeof in->label + shown_of(ev)->text_room + TL_MAX_ARGS * 24 + 96 + 48);
	if (v->with_file) {
		p = put_field(p, in->label, in->label_len);
		*p++ = ' ';
	}
	p = put_pad(p, (uint64_t)t, 14);
	if (__builtin_expect(e->cpu >= 1000, 0))   /* as text_line_slow() */
		*p++ = ' ';
	if (__builtin_expect(e->cpu == 0xfff, 0)) {
		memcpy(p, "   ?", 4);
		p += 4;
	} else {
		p = put_pad(p, e->cpu, 4);
	}
	p = put_pad(p, e->numa, 3);
	*p++ = ' ';
	*p++ = ' ';
	if (view_threads(in)) {   /* a log of several threads: its thread, "name[tid]" */
		size_t len;
		const char *l = input_thread(in, e->thread, &len);
		memcpy(p, l, len);
		p += len;
		*p++ = ' ';
		*p++ = ' ';
	}
	/* the definition's constant parts, padded for block copies (input.c) */
	p = put_field(p, shown_of(ev)->text_head, shown_of(ev)->text_head_len);
	for (unsigned i = 0; i < ev->nargs; i++) {
		p = put_field(p, shown_of(ev)->text_arg[i], shown_of(ev)->text_arg_len[i]);
		p = put_u64(p, e->args[i]);
	}
	*p++ = '\n';
	out_commit(p);
}

/* A CSV row: the quoted path and event fields were prepared once (input.c). */
static inline __attribute__((always_inline)) void
csv_line(const struct view *v, struct input *in, const tl_def *ev, const tl_entry *e, int64_t t)
{
	char *p;
	if (v->time == TIME_WALL || e->dargs || t < 0) {
		out_bytes(in->csv_path, in->csv_path_len);
		out_char(',');
		out_u64(e->seq);
		out_char(',');
		out_u64(e->tsc);
		out_char(',');
		if (v->time == TIME_WALL) {
			char b[48];
			tl_format_wall(b, sizeof b, t);
			out_csv(b);
		} else {
			out_i64(t);
		}
		out_char(',');
		out_u64(e->cpu);
		out_char(',');
		out_u64(e->numa);
		out_bytes(shown_of(ev)->csv_head, shown_of(ev)->csv_head_len);
		for (int i = 0; i < TL_MAX_ARGS; i++) {
			out_char(',');
			put_arg(e, i);
		}
		/* ",argnames\n": the thread goes before the newline */
		out_bytes(shown_of(ev)->csv_tail, shown_of(ev)->csv_tail_len - 1);
		out_char(',');
		out_u64(e->thread);
		out_char('\n');
		return;
	}
	p = out_reserve(in->csv_path_len + shown_of(ev)->csv_head_len + shown_of(ev)->csv_tail_len +
			13 * 24);
	p = put_str(p, in->csv_path, in->csv_path_len);
	*p++ = ',';
	p = put_u64(p, e->seq);
	*p++ = ',';
	p = put_u64(p, e->tsc);
	*p++ = ',';
	p = put_u64(p, (uint64_t)t);
	*p++ = ',';
	p = put_u64(p, e->cpu);
	*p++ = ',';
	p = put_u64(p, e->numa);
	p = put_str(p, shown_of(ev)->csv_head, shown_of(ev)->csv_head_len);
	for (int i = 0; i < TL_MAX_ARGS; i++) {
		*p++ = ',';
		p = put_u64(p, e->args[i]);
	}
	p = put_str(p, shown_of(ev)->csv_tail, shown_of(ev)->csv_tail_len - 1);
	*p++ = ',';
	p = put_u64(p, e->thread);
	*p++ = '\n';
	out_commit(p);
}

/* Adds D's "category.name[ attrs]" to the JSON array at ARG. */
static void json_switched(void *arg, const tl_def *d)
{
	char *b = malloc(d->name_len + d->attrs_len + 2);
	if (!b)
		abort();
	sprintf(b, "%s%s%s", d->name, d->attrs[0] ? " " : "", d->attrs);
	json_string(arg, b);
	free(b);
}

/* The key "switches" of E, a record entry of IN's switches, in the JSON
 * object J: "off", the events of its words off after it, and
 * "switched_off" and "switched_on", what it changed (null when the
 * switches before it are unknown). Nothing when E is damaged. */
static void switch_json(const struct view *v, struct input *in, const tl_entry *e,
			struct json *j)
{
	static const char *const key[] = { "off", "switched_off", "switched_on" };
	struct switch_change c;
	const uint64_t *list[] = { c.off, c.went_off, c.came_on };
	if (switch_view_take(in, shown(v, in), e, &c) < 0)
		return;
	JSON_KEY(j, "switches");
	json_begin_object(j);
	for (int i = 0; i < 3; i++) {
		json_key(j, key[i]);
		if (i && !c.known) {
			json_null(j);
			continue;
		}
		json_begin_array(j);
		switch_view_each(in, c.first, list[i], json_switched, j);
		json_end_array(j);
	}
	json_end_object(j);
}

static void json_line(const struct view *v, struct input *in, const tl_def *ev,
		      const tl_entry *e, int64_t t)
{
	struct json j = JSON_INIT;
	json_begin_object(&j);
	JSON_KEY_STRING(&j, "file", in->path);
	JSON_KEY_UINT(&j, "seq", e->seq);
	JSON_KEY_UINT(&j, "tsc", e->tsc);
	JSON_KEY(&j, "time");
	if (v->time == TIME_WALL) {
		char b[48];
		tl_format_wall(b, sizeof b, t);
		json_string(&j, b);
	} else {
		json_int(&j, t);
	}
	JSON_KEY_UINT(&j, "cpu", e->cpu);
	JSON_KEY_UINT(&j, "numa", e->numa);
	if (view_threads(in)) {
		size_t len;
		JSON_KEY_UINT(&j, "thread", e->thread);
		JSON_KEY_STRING(&j, "thread_name", input_thread(in, e->thread, &len));
	}
	JSON_KEY_STRING(&j, "event", ev->name);
	JSON_KEY_STRING(&j, "attrs", ev->attrs);
	JSON_KEY(&j, "args");
	json_begin_object(&j);
	for (unsigned i = 0; i < ev->nargs; i++) {
		json_key(&j, ev->args[i]);
		if (e->dargs >> i & 1) {
			double d;
			memcpy(&d, &e->args[i], 8);
			json_double(&j, d);
		} else {
			json_uint(&j, e->args[i]);
		}
	}
	json_end_object(&j);
	if (shown_of(ev)->is_switch)
		switch_json(v, in, e, &j);
	json_end_object(&j);
	out_char('\n');
}

/* T, a time of view_time(), as a bare number in V's unit (wall: seconds). */
static void unit_text(const struct view *v, int64_t t, char *buf, size_t size)
{
	if (v->time == TIME_WALL)
		snprintf(buf, size, "%s%lld.%09lld", t < 0 ? "-" : "", llabs(t / 1000000000),
			 llabs(t % 1000000000));
	else
		snprintf(buf, size, "%lld", (long long)t);
}

/* At IN's first entry E (T0 as for view_entry): marks IN when its bare-number
 * bounds, in the --time unit, hold none of its entries, with its span in
 * that unit (window_begin() judges the other forms). */
static void place_units(const struct view *v, struct input *in, const tl_entry *e, uint64_t t0)
{
	static const char *const unit[] = { "cycles", "ns", "Unix seconds" };
	tl_entry newest;
	int64_t first, last;
	char a[48], b[48];
	if ((v->w.from.kind != W_UNIT && v->w.to.kind != W_UNIT) || in->span_bad ||
	    !tl_reader_newest(in->r, &newest) || newest.tsc < e->tsc)
		return;
	first = view_time(v, in, e->tsc, t0);
	last = view_time(v, in, newest.tsc, t0);
	/* the newest before --from, or the first after --to */
	if (before_from(v, last) || after_to(v, first)) {
		in->window_empty = 1;
		unit_text(v, first, a, sizeof a);
		unit_text(v, last, b, sizeof b);
		snprintf(in->window_span, sizeof in->window_span, "%s to %s %s", a, b, unit[v->time]);
	}
}

/* view_takes(), inlined into view_keep(): it runs for every entry dumped. */
static inline __attribute__((always_inline)) int
takes(struct view *v, struct input *in, const tl_entry *e, uint64_t t0, int64_t *tp)
{
	int64_t t;
	if (v->filtered && !in->span_set) {
		int kept = window_take(&v->w, in, e, v->cmd ? v->cmd : "dump");
		if (!in->window_empty)
			place_units(v, in, e, t0);
		if (!kept)
			return 0;
	} else if (v->filtered && !window_take(&v->w, in, e, v->cmd ? v->cmd : "dump")) {
		return 0;
	}
	t = view_time(v, in, e->tsc, t0);
	if (!in_window(v, t))
		return 0;
	*tp = t;
	return 1;
}

int view_takes(struct view *v, struct input *in, const tl_entry *e, uint64_t t0, int64_t *tp)
{
	return takes(v, in, e, t0, tp);
}

int view_keep(struct view *v, struct input *in, const tl_entry *e, uint64_t t0,
	      const tl_def **evp, int64_t *tp)
{
	const tl_def *ev;
	if (v->limit && v->printed >= v->limit)
		return -1;
	if (!takes(v, in, e, t0, tp))
		return 0;
	ev = input_event(in, e->msgid);
	if (!ev->known)
		in->unknown++;
	v->printed++;
	if (__builtin_expect(v->header_due || v->note[0], 0))
		before_entry(v);
	*evp = ev;
	return 1;
}

/* The line of entry E in V's format. Inlined, with the text and CSV lines,
 * into both callers: dump's per-entry path makes no call for them. */
static inline __attribute__((always_inline)) void print(const struct view *v,
							struct input *in, const tl_def *ev,
							const tl_entry *e, int64_t t)
{
	if (v->format == FMT_CSV)
		csv_line(v, in, ev, e, t);
	else if (v->format == FMT_JSON)
		json_line(v, in, ev, e, t);
	else
		text_line(v, in, ev, e, t);
}

void view_print(const struct view *v, struct input *in, const tl_def *ev, const tl_entry *e,
		int64_t t)
{
	print(v, in, ev, e, t);
}

int view_entry(struct view *v, struct input *in, const tl_entry *e, uint64_t t0)
{
	const tl_def *ev;
	int64_t t;
	int rc = view_keep(v, in, e, t0, &ev, &t);
	if (rc > 0)
		print(v, in, ev, e, t);
	return rc;
}

void view_lost(const struct view *v, struct input *in, unsigned thread, uint64_t n,
	       uint64_t first)
{
	char what[160], of[64] = "";
	switch_view_lost(in);
	if (n && view_threads(in)) {
		size_t len;
		snprintf(of, sizeof of, " of %s", input_thread(in, thread, &len));
	}
	if (n)
		snprintf(what, sizeof what, "%llu entries%s lost (%llu to %llu)",
			 (unsigned long long)n, of, (unsigned long long)first,
			 (unsigned long long)(first + n - 1));
	else
		snprintf(what, sizeof what, "entries lost (a Snabb log has no cursor to count them)");
	if (v->format == FMT_CSV) {
		out_flush();
		fprintf(stderr, "timeline %s: %s: %s: overwritten before they were read\n",
			v->cmd, in->path, what);
	} else if (v->format == FMT_JSON) {
		struct json j = JSON_INIT;
		json_begin_object(&j);
		JSON_KEY_STRING(&j, "file", in->path);
		JSON_KEY(&j, "lost");
		if (n) {
			json_uint(&j, n);
			if (view_threads(in))
				JSON_KEY_UINT(&j, "thread", thread);
			JSON_KEY_UINT(&j, "first_seq", first);
			JSON_KEY_UINT(&j, "last_seq", first + n - 1);
		} else {
			json_null(&j);
		}
		json_end_object(&j);
		out_char('\n');
	} else {
		out_str("--- ");
		out_str(in->label);
		out_str(": ");
		out_str(what);
		out_str(": overwritten before they were read\n");
	}
}

/* ---- --follow --lines ---------------------------------------------------- */

size_t view_newest(struct view *v, struct input *in, struct view_mark *marks, size_t n,
		   uint64_t *more)
{
	uint64_t kept = 0, t0 = 0;
	size_t at = 0, got;
	int first = 1;
	tl_entry e;
	int64_t t;
	*more = 0;
	if (!n)
		return 0;
	tl_reader_rewind(in->r);
	while (tl_reader_next(in->r, &e)) {
		if (first)
			t0 = e.tsc;   /* view_entry()'s T0: the first entry, where the window is placed */
		first = 0;
		if (!view_takes(v, in, &e, t0, &t))
			continue;
		marks[at] = (struct view_mark){ e.seq, e.tsc, e.thread };   /* a ring of the last N */
		at = (at + 1) % n;
		kept++;
	}
	tl_reader_rewind(in->r);
	got = kept < n ? (size_t)kept : n;
	*more = kept - got;
	if (got == n && at) {   /* the oldest is at AT: rotate it to the front */
		struct view_mark *tmp = malloc(n * sizeof *tmp);
		if (!tmp)
			abort();
		memcpy(tmp, marks + at, (n - at) * sizeof *tmp);
		memcpy(tmp + (n - at), marks, at * sizeof *tmp);
		memcpy(marks, tmp, n * sizeof *tmp);
		free(tmp);
	}
	return got;
}

void view_follow_from(struct follow *f, struct input *in, const struct view_mark *marks,
		      size_t n, int from_end)
{
	size_t threads = tl_reader_threads(in->r);
	uint64_t *seq;
	if (!n) {
		follow_start(f, in, from_end);
		if (from_end)
			switch_view_lost(in);
		return;
	}
	if (!(seq = malloc((threads ? threads : 1) * sizeof *seq)))
		abort();
	for (size_t t = 0; t < threads; t++)
		seq[t] = FOLLOW_AT_END;
	for (size_t i = 0; i < n; i++)   /* each thread's first among them */
		if (marks[i].thread < threads && marks[i].seq < seq[marks[i].thread])
			seq[marks[i].thread] = marks[i].seq;
	follow_start_at(f, in, seq, threads, marks[0].tsc);
	free(seq);
	switch_view_lost(in);
}

void view_follow_start(struct view *v, struct follow *f, struct input *in)
{
	size_t n = v->lines < in->info.entries ? (size_t)v->lines : (size_t)in->info.entries, got;
	struct view_mark *marks;
	uint64_t more;
	if (v->lines == VIEW_ALL_LINES || !in->info.entries) {
		view_follow_from(f, in, NULL, 0, 0);
		return;
	}
	if (!v->lines) {
		view_follow_from(f, in, NULL, 0, 1);
		return;
	}
	if (!(marks = malloc(n * sizeof *marks)))
		abort();
	got = view_newest(v, in, marks, n, &more);
	view_follow_from(f, in, marks, more ? got : 0, 0);
	free(marks);
}
