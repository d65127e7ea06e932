/* chrome.c: Chrome Trace Event JSON for ui.perfetto.dev and chrome://tracing.
 * One process per input, one thread (track) per CPU, or of a log several
 * threads write, per thread; begin/end pairs (within a thread) become
 * complete (X) events, everything else instants (i), and the breath totals
 * counters (C). Events of a file leave in timestamp order: a span waits in
 * a queue until its end is seen, and holds back what follows it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export.h"
#include "json.h"
#include "out.h"
#include "usage.h"

/* One queued event: an entry, and for a span its end. */
struct item {
	tl_entry e, end;
	const tl_def *ev, *end_ev;
	int span;                        /* 1: a begin, waiting or ended */
	int pending;                     /* a begin whose end is not seen yet */
	int counter;                     /* 1: the counters of a breath_end */
};

static struct {
	struct item *q;                  /* ring of cap items, head..tail */
	uint64_t head, tail, cap;
	uint64_t **pending;              /* by thread, by begin msgid: queue index + 1,
					  * or 0 (each thread's made at its first span) */
	size_t npending;
	int32_t *role;                   /* by msgid: 0 unknown, 1 begin, 2 end, 3 none */
	uint16_t *begin_of;              /* by end msgid: its begin's msgid */
	uint64_t cpus[64];               /* tracks named in this file: CPUs ... */
	uint64_t named[TL_THREADS_MAX / 64];   /* ... or threads */
	struct input *in;                /* the file's, when a track per thread ... */
	int by_thread;                   /* ... which a log of several threads has */
	char **names, **span_names;      /* by msgid: name '\0' category, of instants, spans */
	int pid;
	int64_t origin_ns;               /* time 0: wall ns, or ticks without wall */
	struct json j;                   /* the document */
} C;

/* NS nanoseconds as microseconds with three decimals, after a minus sign
 * if NEGATIVE. */
static void put_us(uint64_t ns, int negative)
{
	char text[32], *p = text;
	if (negative)
		*p++ = '-';
	p = put_u64(p, ns / 1000);
	p[0] = '.';
	p[1] = (char)('0' + ns / 100 % 10);
	p[2] = (char)('0' + ns / 10 % 10);
	p[3] = (char)('0' + ns % 10);
	json_raw(&C.j, text, (size_t)(p + 4 - text));
}

/* "ts": microseconds since the export's origin: of the wall clock, or
 * without a clock anchor (Snabb), of ticks taken as nanoseconds. */
static void put_ts(const struct export *x, struct input *in, uint64_t tsc)
{
	int64_t ns = (x->wall ? tl_wall_ns(&in->info, tsc) : (int64_t)tsc) - C.origin_ns;
	JSON_KEY(&C.j, "ts");
	put_us(ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns, ns < 0);
}

/* "pid":P,"tid":T */
static void put_ids(int pid, unsigned tid)
{
	JSON_KEY_INT(&C.j, "pid", pid);
	JSON_KEY_UINT(&C.j, "tid", tid);
}

/* "args":{name:value,...} of entry E of EV, and EXTRA:V if any. */
static void put_args(const tl_def *ev, const tl_entry *e, const char *extra, uint64_t v)
{
	JSON_KEY(&C.j, "args");
	json_begin_object(&C.j);
	for (unsigned i = 0; i < ev->nargs; i++) {
		json_key(&C.j, ev->args[i]);
		json_uint(&C.j, e->args[i]);
	}
	if (extra) {
		json_key(&C.j, extra);
		json_uint(&C.j, v);
	}
	json_end_object(&C.j);
}

/* "name":"app.push lookup","cat":"app" for EV, or for the span it begins
 * and END_EV ends ("fwd.rx port=0": export_span_name()): the two strings
 * made once per message id and kind. */
static void put_name(const struct export *x, struct input *in, const tl_def *ev, uint16_t msgid,
		     const tl_def *end_ev)
{
	char **cache = end_ev ? C.span_names : C.names;
	if (!cache[msgid]) {
		char name[400];
		size_t cat = strcspn(ev->name, ".");
		if (end_ev)
			export_span_name(name, sizeof name, x, in, ev, end_ev->name);
		else
			export_name(name, sizeof name, ev->name, ev);
		/* the name, then the category after its '\0' */
		size_t n = strlen(name) + 1, c = cat > 399 ? 399 : cat;
		if (!(cache[msgid] = malloc(n + c + 1)))
			abort();
		memcpy(cache[msgid], name, n);
		memcpy(cache[msgid] + n, ev->name, c);
		cache[msgid][n + c] = '\0';
	}
	JSON_KEY_STRING(&C.j, "name", cache[msgid]);
	JSON_KEY_STRING(&C.j, "cat", cache[msgid] + strlen(cache[msgid]) + 1);
}

/* The track of entry E: its CPU, or in a log of several threads its
 * thread's id (a number past 2^22 where the log does not know it). */
static unsigned track_of(const tl_entry *e)
{
	tl_thread th;
	if (!C.by_thread)
		return e->cpu;
	if (tl_reader_thread(C.in->r, e->thread, &th) == TL_OK && th.tid)
		return th.tid;
	return (1u << 22) + e->thread;
}

/* The "thread_name" record of E's track, before its first event. */
static void thread_name(const tl_entry *e)
{
	unsigned cpu = e->cpu;
	char name[40];
	if (C.by_thread) {
		tl_thread th;
		if (e->thread < TL_THREADS_MAX && (C.named[e->thread / 64] >> (e->thread % 64) & 1))
			return;
		if (e->thread < TL_THREADS_MAX)
			C.named[e->thread / 64] |= 1ull << (e->thread % 64);
		if (tl_reader_thread(C.in->r, e->thread, &th) == TL_OK && th.name[0])
			snprintf(name, sizeof name, "%s", th.name);
		else
			snprintf(name, sizeof name, "thread %u", (unsigned)e->thread);
	} else {
		if (cpu < 4096 && (C.cpus[cpu / 64] >> (cpu % 64) & 1))
			return;
		if (cpu < 4096)
			C.cpus[cpu / 64] |= 1ull << (cpu % 64);
		snprintf(name, sizeof name, "%s%u", cpu == 0xfff ? "cpu unknown " : "cpu ",
			 cpu == 0xfff ? 0 : cpu);
	}
	json_begin_object(&C.j);
	JSON_KEY(&C.j, "ph");
	JSON_STRING(&C.j, "M");
	JSON_KEY(&C.j, "name");
	JSON_STRING(&C.j, "thread_name");
	put_ids(C.pid, track_of(e));
	JSON_KEY(&C.j, "args");
	json_begin_object(&C.j);
	JSON_KEY_STRING(&C.j, "name", name);
	json_end_object(&C.j);
	json_end_object(&C.j);
}

/* Writes item IT of IN. */
static void emit(const struct export *x, struct input *in, const struct item *it)
{
	thread_name(&it->e);
	json_begin_object(&C.j);
	if (it->span && !it->pending) {
		put_name(x, in, it->ev, it->e.msgid, it->end_ev);
		JSON_KEY(&C.j, "ph");
		JSON_STRING(&C.j, "X");
		put_ts(x, in, it->e.tsc);
		JSON_KEY(&C.j, "dur");
		if (x->wall)
			put_us((uint64_t)(tl_wall_ns(&in->info, it->end.tsc) -
					  tl_wall_ns(&in->info, it->e.tsc)), 0);
		else
			put_us(it->end.tsc - it->e.tsc, 0);
		put_ids(C.pid, track_of(&it->e));
		put_args(it->end_ev, &it->end, "cycles", it->end.tsc - it->e.tsc);
	} else {
		put_name(x, in, it->ev, it->e.msgid, NULL);
		JSON_KEY(&C.j, "ph");
		JSON_STRING(&C.j, "i");
		JSON_KEY(&C.j, "s");
		JSON_STRING(&C.j, "t");
		put_ts(x, in, it->e.tsc);
		put_ids(C.pid, track_of(&it->e));
		put_args(it->ev, &it->e, NULL, 0);
	}
	json_end_object(&C.j);
}

/* Counters from a breath_end's running totals, at its time. */
static void counters(const struct export *x, struct input *in, const tl_def *ev,
		     const tl_entry *e)
{
	static const char *const names[] = { "totalpackets", "totalbytes" };
	for (int k = 0; k < 2; k++)
		for (unsigned i = 0; i < ev->nargs; i++) {
			if (strcmp(ev->args[i], names[k]))
				continue;
			json_begin_object(&C.j);
			JSON_KEY_STRING(&C.j, "name", names[k]);
			JSON_KEY(&C.j, "ph");
			JSON_STRING(&C.j, "C");
			put_ts(x, in, e->tsc);
			JSON_KEY_INT(&C.j, "pid", C.pid);
			JSON_KEY(&C.j, "args");
			json_begin_object(&C.j);
			json_key(&C.j, names[k]);
			json_uint(&C.j, e->args[i]);
			json_end_object(&C.j);
			json_end_object(&C.j);
		}
}

/* Writes the items at the head of the queue that wait for nothing. */
static void flush(const struct export *x, struct input *in, int all)
{
	while (C.head < C.tail) {
		struct item *it = &C.q[C.head % C.cap];
		if (it->pending && !all)
			break;
		if (it->pending)
			it->pending = 0, it->span = 0;   /* never ended: an instant */
		if (it->counter)
			counters(x, in, it->ev, &it->e);
		else
			emit(x, in, it);
		C.head++;
	}
}

static void free_names(void)
{
	for (size_t i = 0; C.names && i < 65536; i++) {
		free(C.names[i]);
		free(C.span_names[i]);
	}
	free(C.names);
	free(C.span_names);
	C.names = C.span_names = NULL;
}

static struct item *push(void)
{
	if (C.tail - C.head == C.cap) {
		uint64_t cap = C.cap ? 2 * C.cap : 1024;
		struct item *q = malloc(cap * sizeof *q);
		if (!q)
			abort();
		for (uint64_t i = C.head; i < C.tail; i++)
			q[i % cap] = C.q[i % C.cap];
		free(C.q);
		C.q = q;
		C.cap = cap;
	}
	memset(&C.q[C.tail % C.cap], 0, sizeof *C.q);
	return &C.q[C.tail++ % C.cap];
}

/* Queues the counters of breath_end E: they leave in order with the rest. */
static void queue_counters(const tl_def *ev, const tl_entry *e)
{
	struct item *it = push();
	it->e = *e;
	it->ev = ev;
	it->counter = 1;
}

/* Time 0: the whole second at or before the earliest anchor (or, without
 * anchors, the earliest first tick, to the 10^9). Viewers read times as
 * doubles: counted from here, microseconds keep their three decimals, which
 * 1.8e15 us since 1970 would not. */
static int64_t origin(const struct export *x, struct input **in, size_t n)
{
	int64_t o = INT64_MAX;
	for (size_t i = 0; i < n; i++) {
		tl_entry e;
		int64_t t;
		if (x->wall) {
			t = (int64_t)in[i]->info.anchor_realtime_ns;
		} else {
			tl_reader_rewind(in[i]->r);
			if (!tl_reader_next(in[i]->r, &e))
				continue;
			t = (int64_t)e.tsc;
		}
		if (t < o)
			o = t;
	}
	return o == INT64_MAX ? 0 : o - o % 1000000000;
}

static int chrome_begin(const struct export *x, struct input **in, size_t n)
{
	char wall[64];
	C.origin_ns = origin(x, in, n);
	if (!x->wall && n)
		cli_error("export", "note: %s; timestamps are TSC ticks shown as nanoseconds",
			  "a log has no clock anchor (a Snabb file)");
	json_begin_object(&C.j);
	JSON_KEY(&C.j, "displayTimeUnit");
	JSON_STRING(&C.j, "ns");
	JSON_KEY(&C.j, "otherData");
	json_begin_object(&C.j);
	JSON_KEY(&C.j, "generator");
	JSON_STRING(&C.j, "timeline export");
	if (x->wall) {
		tl_format_wall(wall, sizeof wall, C.origin_ns);
		JSON_KEY_STRING(&C.j, "ts_origin", wall);
		JSON_KEY(&C.j, "ts_origin_ns");
	} else {
		JSON_KEY(&C.j, "ts_origin_ticks");
	}
	json_int(&C.j, C.origin_ns);
	json_end_object(&C.j);
	JSON_KEY(&C.j, "traceEvents");
	json_begin_lines(&C.j);
	return 0;
}

static void chrome_file(const struct export *x, size_t index, struct input *in)
{
	char name[512];
	(void)x;
	memset(C.cpus, 0, sizeof C.cpus);
	memset(C.named, 0, sizeof C.named);
	C.in = in;
	C.by_thread = tl_reader_threads(in->r) > 1;
	C.head = C.tail = 0;
	if (!C.role && (!(C.role = calloc(65536, sizeof *C.role)) ||
			!(C.begin_of = calloc(65536, sizeof *C.begin_of))))
		abort();
	for (size_t t = 0; t < C.npending; t++)
		if (C.pending[t])
			memset(C.pending[t], 0, 65536 * sizeof **C.pending);
	memset(C.role, 0, 65536 * sizeof *C.role);
	free_names();
	if (!(C.names = calloc(65536, sizeof *C.names)) ||
	    !(C.span_names = calloc(65536, sizeof *C.span_names)))
		abort();
	/* a process per input: its own pid, or a made-up one past 2^22 */
	C.pid = in->info.format == TL_FORMAT_NATIVE ? (int)in->info.pid : 0;
	if (C.pid <= 0 || index > 0)
		C.pid = (int)(in->info.format == TL_FORMAT_NATIVE ? in->info.pid : 0) + (int)(index << 22);
	if (in->info.format == TL_FORMAT_NATIVE)
		snprintf(name, sizeof name, "%s[%u] on %s (%s)", in->info.process, in->info.pid,
			 in->info.host, in->info.name);
	else
		snprintf(name, sizeof name, "%s", in->path);
	json_begin_object(&C.j);
	JSON_KEY(&C.j, "ph");
	JSON_STRING(&C.j, "M");
	JSON_KEY(&C.j, "name");
	JSON_STRING(&C.j, "process_name");
	JSON_KEY_INT(&C.j, "pid", C.pid);
	JSON_KEY(&C.j, "args");
	json_begin_object(&C.j);
	JSON_KEY_STRING(&C.j, "name", name);
	json_end_object(&C.j);
	json_end_object(&C.j);
}

/* The role of MSGID in IN: begin, end (with its begin's msgid) or none. */
static int role_of(const struct export *x, struct input *in, uint16_t msgid)
{
	if (!C.role[msgid]) {
		const tl_def *ev = input_event(in, msgid);
		char begin[300];
		int r = ev->name[0] == '?' ? 0 : export_pair_role(x, in, ev->name, begin, sizeof begin);
		C.role[msgid] = r ? r : 3;
		if (r == 2) {
			/* its begin: the definition with that name and the same attributes */
			size_t n;
			uint16_t *ids = input_definitions(in, &n);
			C.role[msgid] = 3;
			for (size_t i = 0; i < n; i++) {
				const tl_def *b = input_event(in, ids[i]);
				if (!strcmp(b->name, begin) && !strcmp(b->attrs, ev->attrs)) {
					C.begin_of[msgid] = ids[i];
					C.role[msgid] = 2;
				}
			}
			free(ids);
		}
	}
	return C.role[msgid];
}

/* The spans waiting for their end on THREAD, by begin msgid. */
static uint64_t *pending_of(uint32_t thread)
{
	if (thread >= C.npending) {
		size_t n = thread + 1;
		uint64_t **p = realloc(C.pending, n * sizeof *p);
		if (!p)
			abort();
		memset(p + C.npending, 0, (n - C.npending) * sizeof *p);
		C.pending = p;
		C.npending = n;
	}
	if (!C.pending[thread] && !(C.pending[thread] = calloc(65536, sizeof **C.pending)))
		abort();
	return C.pending[thread];
}

static void chrome_entry(const struct export *x, size_t k, struct input *in, const tl_def *ev,
			 const tl_entry *e, int64_t t)
{
	int role = role_of(x, in, e->msgid);
	uint64_t *pending = role == 3 ? NULL : pending_of(e->thread);
	struct item *it;
	(void)k;
	(void)t;
	if (role == 2 && pending[C.begin_of[e->msgid]]) {
		/* the end of a waiting span of its thread */
		it = &C.q[(pending[C.begin_of[e->msgid]] - 1) % C.cap];
		it->end = *e;
		it->end_ev = ev;
		it->pending = 0;
		pending[C.begin_of[e->msgid]] = 0;
		if (strstr(ev->name, ".breath_end"))
			queue_counters(ev, e);
		flush(x, in, 0);
		return;
	}
	if (role == 1 && pending[e->msgid]) {
		/* a begin never ended, then begun again: the first is an instant */
		struct item *old = &C.q[(pending[e->msgid] - 1) % C.cap];
		old->pending = old->span = 0;
		pending[e->msgid] = 0;
	}
	it = push();
	it->e = *e;
	it->ev = ev;
	if (role == 1) {
		it->span = it->pending = 1;
		pending[e->msgid] = C.tail;
	}
	if (role == 2 && strstr(ev->name, ".breath_end"))
		queue_counters(ev, e);
	flush(x, in, 0);
}

static void chrome_file_end(const struct export *x, size_t k, struct input *in)
{
	(void)k;
	flush(x, in, 1);
}

static int chrome_end(const struct export *x)
{
	(void)x;
	json_end_array(&C.j);
	json_end_object(&C.j);
	out_char('\n');
	free(C.q);
	for (size_t t = 0; t < C.npending; t++)
		free(C.pending[t]);
	free(C.pending);
	free(C.role);
	free(C.begin_of);
	free_names();
	memset(&C, 0, sizeof C);
	return 0;
}

const struct export_format export_chrome = {
	.name = "chrome",
	.begin = chrome_begin,
	.file = chrome_file,
	.entry = chrome_entry,
	.file_end = chrome_file_end,
	.end = chrome_end,
};
