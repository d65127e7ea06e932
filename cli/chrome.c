/* chrome.c: Chrome Trace Event JSON for ui.perfetto.dev and chrome://tracing.
 * One process per input, one thread (track) per CPU; begin/end pairs become
 * complete (X) events, everything else instants (i), and the breath totals
 * counters (C). Events of a file leave in timestamp order: a span waits in
 * a queue until its end is seen, and holds back what follows it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export.h"
#include "out.h"

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
	uint64_t *pending;               /* by begin msgid: queue index + 1, or 0 */
	int32_t *role;                   /* by msgid: 0 unknown, 1 begin, 2 end, 3 none */
	uint16_t *begin_of;              /* by end msgid: its begin's msgid */
	uint64_t cpus[64];               /* tracks named in this file */
	char **names, **span_names;      /* by msgid: "name":...,"cat":... of instants, spans */
	int pid;
	int first;                       /* no event written yet */
	int snabb_warned;
} C;

/* NS nanoseconds as microseconds with three decimals. */
static void put_us(uint64_t ns)
{
	char frac[4] = { (char)('0' + ns / 100 % 10), (char)('0' + ns / 10 % 10),
			 (char)('0' + ns % 10), 0 };
	out_u64(ns / 1000);
	out_char('.');
	out_bytes(frac, 3);
}

/* Microseconds since the export's origin: of the wall clock, or without
 * a clock anchor (Snabb), of ticks taken as nanoseconds. */
static void put_ts(const struct export *x, struct input *in, uint64_t tsc)
{
	int64_t ns = (x->wall ? tl_wall_ns(&in->info, tsc) : (int64_t)tsc) - x->origin_ns;
	if (ns < 0) {
		out_char('-');
		ns = -ns;
	}
	put_us((uint64_t)ns);
}

/* ,"pid":P,"tid":T */
static void put_ids(int pid, unsigned tid)
{
	out_str(",\"pid\":");
	out_i64(pid);
	out_str(",\"tid\":");
	out_u64(tid);
}

static void sep(void)
{
	out_str(C.first ? "\n" : ",\n");
	C.first = 0;
}

/* "args":{name:value,...} of entry E of EV. */
static void put_args(const tl_def *ev, const tl_entry *e, const char *extra, uint64_t v)
{
	out_str(",\"args\":{");
	for (unsigned i = 0; i < ev->nargs; i++) {
		if (i)
			out_char(',');
		out_json(ev->args[i]);
		out_char(':');
		out_u64(e->args[i]);
	}
	if (extra) {
		out_str(ev->nargs ? ",\"" : "\"");
		out_str(extra);
		out_str("\":");
		out_u64(v);
	}
	out_char('}');
}

/* S as a JSON string, quotes included, appended to BUF (of SIZE) at *LEN. */
static void json_str(char *buf, size_t size, size_t *len, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	buf[(*len)++] = '"';
	for (; *s && *len + 8 < size; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			buf[(*len)++] = '\\';
			buf[(*len)++] = (char)c;
		} else if (c < 0x20) {
			memcpy(buf + *len, "\\u00", 4);
			buf[*len + 4] = hex[c >> 4];
			buf[*len + 5] = hex[c & 15];
			*len += 6;
		} else {
			buf[(*len)++] = (char)c;
		}
	}
	buf[(*len)++] = '"';
	buf[*len] = '\0';
}

/* "name":"app.push lookup","cat":"app" for EV (the pair's label for a
 * span), made once per message id and kind, then copied. */
static void put_name(const tl_def *ev, uint16_t msgid, const char *label)
{
	char **cache = label ? C.span_names : C.names;
	if (!cache[msgid]) {
		char name[400], out[1800];
		size_t len = 0;
		const char *app = strstr(ev->attrs, "app=");
		snprintf(name, sizeof name, "%s%s%.*s", label ? label : ev->name, app ? " " : "",
			 app ? (int)strcspn(app + 4, " ") : 0, app ? app + 4 : "");
		memcpy(out, "\"name\":", 7);
		len = 7;
		json_str(out, sizeof out, &len, name);
		snprintf(name, sizeof name, "%.*s", (int)strcspn(ev->name, "."), ev->name);
		memcpy(out + len, ",\"cat\":", 7);
		len += 7;
		json_str(out, sizeof out, &len, name);
		if (!(cache[msgid] = strdup(out)))
			abort();
	}
	out_str(cache[msgid]);
}

static void thread_name(unsigned cpu)
{
	char buf[96];
	if (cpu < 4096 && (C.cpus[cpu / 64] >> (cpu % 64) & 1))
		return;
	if (cpu < 4096)
		C.cpus[cpu / 64] |= 1ull << (cpu % 64);
	sep();
	snprintf(buf, sizeof buf,
		 "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%u,\"args\":{\"name\":\"%s%u\"}}",
		 C.pid, cpu, cpu == 0xfff ? "cpu unknown " : "cpu ", cpu == 0xfff ? 0 : cpu);
	out_str(buf);
}

/* Writes item IT of IN. */
static void emit(const struct export *x, struct input *in, const struct item *it)
{
	thread_name(it->e.cpu);
	sep();
	out_char('{');
	if (it->span && !it->pending) {
		char label[256];
		an_pair_label(label, sizeof label, it->ev->name, it->end_ev->name);
		put_name(it->ev, it->e.msgid, label);
		out_str(",\"ph\":\"X\",\"ts\":");
		put_ts(x, in, it->e.tsc);
		out_str(",\"dur\":");
		if (x->wall)
			put_us((uint64_t)(tl_wall_ns(&in->info, it->end.tsc) - tl_wall_ns(&in->info, it->e.tsc)));
		else
			put_us(it->end.tsc - it->e.tsc);
		put_ids(C.pid, it->e.cpu);
		put_args(it->end_ev, &it->end, "cycles", it->end.tsc - it->e.tsc);
	} else {
		put_name(it->ev, it->e.msgid, NULL);
		out_str(",\"ph\":\"i\",\"s\":\"t\",\"ts\":");
		put_ts(x, in, it->e.tsc);
		put_ids(C.pid, it->e.cpu);
		put_args(it->ev, &it->e, NULL, 0);
	}
	out_char('}');
}

/* Counters from a breath_end's running totals, at its time. */
static void counters(const struct export *x, struct input *in, const tl_def *ev,
		     const tl_entry *e)
{
	static const char *const names[] = { "totalpackets", "totalbytes" };
	for (int k = 0; k < 2; k++)
		for (unsigned i = 0; i < ev->nargs; i++) {
			char buf[64];
			if (strcmp(ev->args[i], names[k]))
				continue;
			sep();
			out_str("{\"name\":");
			out_json(names[k]);
			out_str(",\"ph\":\"C\",\"ts\":");
			put_ts(x, in, e->tsc);
			snprintf(buf, sizeof buf, ",\"pid\":%d,\"args\":{\"%s\":", C.pid, names[k]);
			out_str(buf);
			out_u64(e->args[i]);
			out_str("}}");
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

void chrome_begin(const struct export *x)
{
	char wall[64];
	C.first = 1;
	out_str("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"timeline export\",");
	if (x->wall) {
		tl_format_wall(wall, sizeof wall, x->origin_ns);
		out_str("\"ts_origin\":");
		out_json(wall);
		out_str(",\"ts_origin_ns\":");
	} else {
		out_str("\"ts_origin_ticks\":");
	}
	out_i64(x->origin_ns);
	out_str("},\"traceEvents\":[");
}

void chrome_file(const struct export *x, struct input *in, unsigned index)
{
	char buf[512];
	(void)x;
	memset(C.cpus, 0, sizeof C.cpus);
	C.head = C.tail = 0;
	if (!C.pending && (!(C.pending = calloc(65536, sizeof *C.pending)) ||
			   !(C.role = calloc(65536, sizeof *C.role)) ||
			   !(C.begin_of = calloc(65536, sizeof *C.begin_of))))
		abort();
	memset(C.pending, 0, 65536 * sizeof *C.pending);
	memset(C.role, 0, 65536 * sizeof *C.role);
	free_names();
	if (!(C.names = calloc(65536, sizeof *C.names)) ||
	    !(C.span_names = calloc(65536, sizeof *C.span_names)))
		abort();
	/* a process per input: its own pid, or a made-up one past 2^22 */
	C.pid = in->info.format == TL_FORMAT_NATIVE ? (int)in->info.pid : 0;
	if (C.pid <= 0 || index > 0)
		C.pid = (int)(in->info.format == TL_FORMAT_NATIVE ? in->info.pid : 0) + (int)(index << 22);
	sep();
	snprintf(buf, sizeof buf, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":", C.pid);
	out_str(buf);
	if (in->info.format == TL_FORMAT_NATIVE)
		snprintf(buf, sizeof buf, "%s[%u] on %s (%s)", in->info.process, in->info.pid,
			 in->info.host, in->info.name);
	else
		snprintf(buf, sizeof buf, "%s", in->path);
	out_json(buf);
	out_str("}}");
}

/* The role of MSGID in IN: begin, end (with its begin's msgid) or none. */
static int role_of(const struct export *x, struct input *in, uint16_t msgid)
{
	if (!C.role[msgid]) {
		const tl_def *ev = input_event(in, msgid);
		char begin[300];
		size_t rule;
		int r = ev->name[0] == '?' ? 0 :
			an_pair_role(x->pairs, x->npairs, ev->name, &rule, begin, sizeof begin);
		C.role[msgid] = r ? r : 3;
		if (r == 2) {
			/* its begin: the definition with that name and the same attributes */
			uint16_t ids[4096];
			size_t n = tl_reader_definitions(in->r, ids, 4096);
			C.role[msgid] = 3;
			for (size_t i = 0; i < n; i++) {
				const tl_def *b = input_event(in, ids[i]);
				if (!strcmp(b->name, begin) && !strcmp(b->attrs, ev->attrs)) {
					C.begin_of[msgid] = ids[i];
					C.role[msgid] = 2;
				}
			}
		}
	}
	return C.role[msgid];
}

void chrome_entry(const struct export *x, struct input *in, const tl_def *ev,
		  const tl_entry *e)
{
	int role = role_of(x, in, e->msgid);
	struct item *it;
	if (role == 2 && C.pending[C.begin_of[e->msgid]]) {
		/* the end of a waiting span */
		it = &C.q[(C.pending[C.begin_of[e->msgid]] - 1) % C.cap];
		it->end = *e;
		it->end_ev = ev;
		it->pending = 0;
		C.pending[C.begin_of[e->msgid]] = 0;
		if (strstr(ev->name, ".breath_end"))
			queue_counters(ev, e);
		flush(x, in, 0);
		return;
	}
	if (role == 1 && C.pending[e->msgid]) {
		/* a begin never ended, then begun again: the first is an instant */
		struct item *old = &C.q[(C.pending[e->msgid] - 1) % C.cap];
		old->pending = old->span = 0;
		C.pending[e->msgid] = 0;
	}
	it = push();
	it->e = *e;
	it->ev = ev;
	if (role == 1) {
		it->span = it->pending = 1;
		C.pending[e->msgid] = C.tail;
	}
	if (role == 2 && strstr(ev->name, ".breath_end"))
		queue_counters(ev, e);
	flush(x, in, 0);
}

void chrome_file_end(const struct export *x, struct input *in)
{
	flush(x, in, 1);
}

void chrome_end(const struct export *x)
{
	(void)x;
	out_str("\n]}\n");
	free(C.q);
	free(C.pending);
	free(C.role);
	free(C.begin_of);
	free_names();
	memset(&C, 0, sizeof C);
}
