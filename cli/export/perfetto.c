/* perfetto.c: Perfetto's own trace format, a stream of protobuf TracePackets
 * (ui.perfetto.dev, trace_processor): a process track per writing process, a
 * thread track per thread of each log, begin/end pairs as slices nested on
 * their track (pairs that overlap without nesting on tracks of their own),
 * other events as instants with their arguments, names interned on each
 * packet sequence (one a thread), times in ns on each sequence's own
 * incremental clock, tied to the wall clock (or to ticks) by a snapshot. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export.h"
#include "out.h"
#include "pbuf.h"
#include "usage.h"

#define PACKET_ROOM 8192             /* the most one packet takes: strings are cut to fit */
#define NAME_BYTES 400               /* an event's name at most, as chrome.c's */
#define WORD_BYTES 128               /* a category or an argument's name at most */
#define TEXT_BYTES 1400              /* a track's name or description at most */
#define MAX_THREADS 4096             /* thread indexes above share the last one */
#define CLOCK_OURS CLOCK_SEQUENCE_FIRST   /* each sequence's incremental clock, in ns */

enum { NAMES, CATEGORIES, ARG_NAMES };   /* the kinds of interned strings */

/* A process: the logs of one writer (host, pid, start) share its track. */
struct proc {
	uint64_t uuid;                   /* its track */
	int32_t pid;                     /* as the trace gives it: made up when taken */
	uint32_t real;                   /* its writer's pid (0: unknown) */
	int threads;                     /* threads given a tid so far */
	int written;                     /* its track descriptor is out */
};

/* A track of slices on a thread: the thread's own (lane 0), or one for
 * slices that overlap those on the lanes before without nesting. */
struct lane {
	uint64_t uuid;
	uint64_t *open;                  /* the end places of its open slices, innermost last */
	size_t n, cap;
};

/* A packet sequence: one thread of the log being written. */
struct seq {
	uint32_t id;                     /* trusted_packet_sequence_id */
	int64_t last_ns;                 /* the last time written on its clock */
	uint8_t *sent[3];                /* by kind, bit iid: interned on it already */
	size_t sent_bytes[3];
	struct lane *lanes;
	size_t nlanes;
};

/* What a message id of the log is written with (iids 0: not made yet). */
struct ev {
	const tl_def *def;               /* its definition (NULL: not looked up yet) */
	uint32_t sent[3];                /* the last sequence its strings were all interned on,
					  * as an instant, a slice's begin, a slice's end */
	uint32_t name, span, cat;        /* the instant's and the slice's names, the category */
	uint32_t arg[TL_MAX_ARGS];       /* its arguments' names */
	int8_t role;                     /* 0 unknown, 1 begin, 2 end, 3 neither */
	uint16_t begin;                  /* an end's begin */
	int8_t packets;                  /* a breath_end: 1 + its totalpackets argument, else 0 */
};

/* One queued entry, and for a span its end, with their places among the
 * entries the log handed. */
struct item {
	tl_entry e, end;
	uint64_t at, end_at;
	int span;                        /* 1: a begin, waiting or ended */
	int pending;                     /* a begin whose end is not seen yet */
	int lost;                        /* 1: the mark of entries lost before E */
	uint64_t lost_n, lost_first, lost_last;   /* how many (0: uncounted), the first's
						   * and the last's numbers */
};

/* A slice whose end is still to be written. */
struct open_end {
	uint64_t at;                     /* its end's place */
	uint32_t thread, lane;
	tl_entry end;
};

static struct {
	int wall;                        /* wall-clock ns (REALTIME), else ticks as ns */
	uint64_t recip;                  /* ns_of()'s 2^64 * 10^9 / hz of the log, or 0 */
	uint32_t clock;                  /* the trace's clock: REALTIME or BOOTTIME */
	int hosts;                       /* the inputs come from several hosts */
	uint32_t made;                   /* pids and tids made up so far */
	uint64_t next_uuid;
	uint32_t next_seq;
	struct proc *procs;
	size_t *proc_of;                 /* by input */
	/* the log being written */
	const struct export *x;          /* the export, for the spans' names */
	struct input *in;
	struct proc *proc;
	struct ev *ev;                   /* by msgid */
	char **str[3];                   /* by kind, iid - 1: the strings interned */
	uint32_t nstr[3], capstr[3];
	struct seq **seq;                /* by thread index */
	size_t nseq;
	uint64_t counter;                /* its packets/s counter track, 0 none */
	int64_t rate_ns;                 /* the last breath_end's time and packets */
	uint64_t rate_packets;
	int rate_seen;
	uint64_t at;                     /* entries handed so far */
	int lost_said;                   /* a Snabb log's full ring said */
	/* pairing: the queue, the pending begins by thread and msgid */
	struct item *q;
	uint64_t head, tail, cap;
	uint64_t **pending;
	/* ends to write, a min-heap by place */
	struct open_end *ends;
	size_t nends, capends;
} P;

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = need < 16 ? 16 : need * 2;
	if (!(p = realloc(p, *cap * size)))
		abort();
	return p;
}

/* ---- strings and interning ------------------------------------------------ */

/* The iid of S (N bytes, cut to MAX) of KIND: a new one, or with FIND the
 * one S has already. */
static uint32_t intern(int kind, const char *s, size_t n, size_t max, int find)
{
	char *copy;
	if (n > max)
		n = max;
	for (uint32_t i = 0; find && i < P.nstr[kind]; i++)
		if (!strncmp(P.str[kind][i], s, n) && !P.str[kind][i][n])
			return i + 1;
	if (P.nstr[kind] == P.capstr[kind]) {
		P.capstr[kind] = P.capstr[kind] ? 2 * P.capstr[kind] : 64;
		if (!(P.str[kind] = realloc(P.str[kind], P.capstr[kind] * sizeof *P.str[kind])))
			abort();
	}
	if (!(copy = malloc(n + 1)))
		abort();
	memcpy(copy, s, n);
	copy[n] = '\0';
	P.str[kind][P.nstr[kind]++] = copy;
	return P.nstr[kind];
}

/* "app.push lookup", "fwd.rx port=0": NAME, then the attributes of EV
 * (export_name(), the names of every export). */
static uint32_t intern_name(const char *name, const tl_def *ev)
{
	char buf[NAME_BYTES];
	int n = export_name(buf, sizeof buf, name, ev);
	return intern(NAMES, buf, n < 0 ? 0 : (size_t)n, NAME_BYTES - 1, 0);
}

/* The definition of MSGID, kept once looked up. */
static const tl_def *def_of(uint16_t msgid)
{
	struct ev *v = &P.ev[msgid];
	if (!v->def)
		v->def = input_event(P.in, msgid);
	return v->def;
}

static struct ev *names_new(uint16_t msgid);

/* The names of MSGID, made at its first use (names_new). */
static inline struct ev *names_of(uint16_t msgid)
{
	return P.ev[msgid].cat ? &P.ev[msgid] : names_new(msgid);
}

static struct ev *names_new(uint16_t msgid)
{
	struct ev *v = &P.ev[msgid];
	{
		const tl_def *ev = def_of(msgid);
		v->cat = intern(CATEGORIES, ev->name, strcspn(ev->name, "."), WORD_BYTES, 1);
		v->name = intern_name(ev->name, ev);
		for (unsigned i = 0; i < ev->nargs; i++) {
			v->arg[i] = intern(ARG_NAMES, ev->args[i], strlen(ev->args[i]), WORD_BYTES, 1);
			if (P.counter && !strcmp(ev->args[i], "totalpackets") &&
			    strstr(ev->name, ".breath_end"))
				v->packets = (int8_t)(i + 1);
		}
	}
	return v;
}

/* Is iid I of KIND sent on S? Marks it so either way. */
static int was_sent(struct seq *s, int kind, uint32_t i)
{
	uint8_t bit = (uint8_t)(1u << (i & 7));
	int had;
	if (i / 8 >= s->sent_bytes[kind]) {
		size_t old = s->sent_bytes[kind];
		s->sent[kind] = grow(s->sent[kind], &s->sent_bytes[kind], i / 8 + 1, 1);
		memset(s->sent[kind] + old, 0, s->sent_bytes[kind] - old);
	}
	had = s->sent[kind][i / 8] & bit;
	s->sent[kind][i / 8] |= bit;
	return had;
}

/* Interned entries IIDS[0..N) of KINDS not yet sent on S, as one InternedData. */
static uint8_t *put_interned(uint8_t *p, struct seq *s, const uint32_t *iids,
			     const uint8_t *kinds, unsigned n)
{
	static const unsigned field[3] = { INTERNED_EVENT_NAMES, INTERNED_EVENT_CATEGORIES,
					   INTERNED_DEBUG_ANNOTATION_NAMES };
	uint8_t *data = NULL, *body = p;
	for (unsigned i = 0; i < n; i++) {
		uint8_t *m;
		const char *str;
		if (!iids[i] || was_sent(s, kinds[i], iids[i]))
			continue;
		if (!data)
			body = pb_open(p, PACKET_INTERNED_DATA, &data);
		str = P.str[kinds[i]][iids[i] - 1];
		body = pb_open(body, field[kinds[i]], &m);
		body = pb_uint(body, INTERNED_IID, iids[i]);
		body = pb_bytes(body, INTERNED_NAME, str, strlen(str));
		body = pb_close(m, body);
	}
	return data ? pb_close(data, body) : p;
}

/* ---- packets ---------------------------------------------------------------- */

/* Readies ns_of() for the log being written: the reciprocal of its
 * frequency, 2^64 * 10^9 / hz rounded down (0 when it does not fit 64 bits:
 * below 1 GHz, where tl_wall_ns() is used). */
static void ns_ready(void)
{
	const tl_info *i = &P.in->info;
	P.recip = 0;
	if (P.wall && i->tsc_hz > 1000000000u)
		P.recip = (uint64_t)(((unsigned __int128)1000000000u << 64) / i->tsc_hz);
}

/* The time of tick TSC of the log being written, in the trace's clock: the
 * wall clock's ns exactly as tl_wall_ns() gives them, floor((TSC - anchor) *
 * 10^9 / hz) from the anchor, without its division: D * RECIP / 2^64 is that
 * or one less (RECIP is short of the true 2^64 * 10^9 / hz by less than
 * one, so D * RECIP by less than D < 2^64), and one multiplication tells
 * which. Without wall time, the ticks themselves. */
static int64_t ns_of(uint64_t tsc)
{
	const tl_info *i = &P.in->info;
	uint64_t d, q;
	if (!P.wall)
		return (int64_t)tsc;
	if (!P.recip || tsc < i->anchor_tsc)
		return tl_wall_ns(i, tsc);
	d = tsc - i->anchor_tsc;
	q = (uint64_t)(((unsigned __int128)d * P.recip) >> 64);
	if ((unsigned __int128)(q + 1) * i->tsc_hz <= (unsigned __int128)d * 1000000000u)
		q++;
	return (int64_t)(i->anchor_realtime_ns + q);
}

static uint8_t *reserve(void)
{
	return (uint8_t *)out_reserve(PACKET_ROOM);
}

static void commit(uint8_t *end)
{
	out_commit((char *)end);
}

/* A packet of no sequence holding a TrackDescriptor of UUID: its key, the
 * descriptor's uuid, its parent (0: none), name and description (either
 * may be NULL). Returns where the descriptor's body goes on; *PKT and
 * *DESC mark the two for pb_close(). */
static uint8_t *track_open(uint8_t *p, uint8_t **pkt, uint8_t **desc, uint64_t uuid,
			   uint64_t parent, const char *name, const char *text)
{
	p = pb_open(p, TRACE_PACKET, pkt);
	p = pb_open(p, PACKET_TRACK_DESCRIPTOR, desc);
	p = pb_uint(p, TRACK_UUID, uuid);
	if (parent)
		p = pb_uint(p, TRACK_PARENT_UUID, parent);
	if (name)
		p = pb_bytes(p, TRACK_NAME, name, strnlen(name, TEXT_BYTES));
	if (text)
		p = pb_bytes(p, TRACK_DESCRIPTION, text, strnlen(text, TEXT_BYTES));
	return p;
}

static void track_close(uint8_t *p, uint8_t *pkt, uint8_t *desc)
{
	commit(pb_close(pkt, pb_close(desc, p)));
}

/* A packet of sequence S at time NS: its key, the time on S's incremental
 * clock (a time before the last one written, which the clock cannot
 * count back to, goes whole on the trace's clock), S's id and flags. */
static uint8_t *packet_open(uint8_t *p, uint8_t **mark, struct seq *s, int64_t ns)
{
	p = pb_open(p, TRACE_PACKET, mark);
	if (ns >= s->last_ns) {
		p = pb_uint(p, PACKET_TIMESTAMP, (uint64_t)(ns - s->last_ns));
		s->last_ns = ns;
	} else {
		p = pb_uint(p, PACKET_TIMESTAMP, (uint64_t)ns);
		p = pb_uint(p, PACKET_TIMESTAMP_CLOCK_ID, P.clock);
	}
	p = pb_uint(p, PACKET_SEQUENCE_ID, s->id);
	return pb_uint(p, PACKET_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
}

/* The first packet of S, whose thread track is TRACK, at time NS: its state
 * cleared, its defaults (the clock, the track, the log's counter) and the
 * snapshot that starts its clock at NS on the trace's clock. */
static void seq_start(struct seq *s, uint64_t track, int64_t ns)
{
	uint8_t *p = reserve(), *pkt, *d, *te, *snap, *c;
	p = pb_open(p, TRACE_PACKET, &pkt);
	p = pb_uint(p, PACKET_SEQUENCE_ID, s->id);
	p = pb_uint(p, PACKET_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
	p = pb_open(p, PACKET_DEFAULTS, &d);
	p = pb_uint(p, DEFAULTS_TIMESTAMP_CLOCK_ID, CLOCK_OURS);
	p = pb_open(p, DEFAULTS_TRACK_EVENT, &te);
	p = pb_uint(p, EVENT_DEFAULTS_TRACK_UUID, track);
	if (P.counter)
		p = pb_uint(p, EVENT_DEFAULTS_EXTRA_COUNTER_TRACK_UUIDS, P.counter);
	p = pb_close(d, pb_close(te, p));
	p = pb_open(p, PACKET_CLOCK_SNAPSHOT, &snap);
	p = pb_open(p, SNAPSHOT_CLOCKS, &c);
	p = pb_uint(p, CLOCK_ID, CLOCK_OURS);
	p = pb_uint(p, CLOCK_TIMESTAMP, (uint64_t)ns);
	p = pb_uint(p, CLOCK_IS_INCREMENTAL, 1);
	p = pb_close(c, p);
	p = pb_open(p, SNAPSHOT_CLOCKS, &c);
	p = pb_uint(p, CLOCK_ID, P.clock);
	p = pb_uint(p, CLOCK_TIMESTAMP, (uint64_t)ns);
	p = pb_close(c, p);
	p = pb_uint(p, SNAPSHOT_PRIMARY_TRACE_CLOCK, P.clock);
	commit(pb_close(pkt, pb_close(snap, p)));
	s->last_ns = ns;
}

/* ---- processes and threads ---------------------------------------------------- */

/* A pid or tid that no real one (below 2^22, pid_max) and no other made up
 * can be: PID plus a number of its own times 2^22. */
static int64_t made_up(uint32_t pid)
{
	return (int64_t)pid + ((int64_t)++P.made << 22);
}

/* The tid and name (into NAME of SIZE) of thread THREAD of the log being
 * written. In a log several threads write, its own (tl_reader_thread()),
 * named as the thread is. A log of one thread: the process's main thread
 * (tid = pid) in the first log of its process, else a tid made up past
 * pid_max (2^22), so that no real one is met, and named after the log. */
static int64_t thread_of(uint32_t thread, char *name, size_t size)
{
	struct proc *pr = P.proc;
	const tl_info *i = &P.in->info;
	const char *log = i->format == TL_FORMAT_NATIVE ? i->name : "snabb";
	tl_thread th;
	if (tl_reader_threads(P.in->r) > 1 && tl_reader_thread(P.in->r, thread, &th) == TL_OK &&
	    th.tid) {
		snprintf(name, size, "%s", th.name[0] ? th.name : log);
		pr->threads++;
		return th.tid;
	}
	if (thread)
		snprintf(name, size, "%s thread %u", log, (unsigned)thread);
	else
		snprintf(name, size, "%s", log);
	if (!pr->threads++ && !thread)
		return pr->pid;
	return made_up(pr->real);
}

/* The sequence of thread THREAD of the log being written; its first use
 * (at time NS) writes its thread track and starts it (seq_new). */
static struct seq *seq_new(uint32_t thread, int64_t ns);

static inline struct seq *seq_of(uint32_t thread, int64_t ns)
{
	if (thread < P.nseq && P.seq[thread])
		return P.seq[thread];
	return seq_new(thread, ns);
}

static struct seq *seq_new(uint32_t thread, int64_t ns)
{
	struct seq *s;
	if (thread >= MAX_THREADS)
		thread = MAX_THREADS - 1;
	if (thread < P.nseq && P.seq[thread])
		return P.seq[thread];
	if (thread >= P.nseq) {
		size_t old = P.nseq;
		P.seq = grow(P.seq, &P.nseq, thread + 1, sizeof *P.seq);
		memset(P.seq + old, 0, (P.nseq - old) * sizeof *P.seq);
	}
	if (!(s = P.seq[thread] = calloc(1, sizeof *s)))
		abort();
	s->id = ++P.next_seq;
	{
		char name[128], text[TEXT_BYTES];
		uint8_t *p = reserve(), *pkt, *d, *t;
		int64_t tid = thread_of(thread, name, sizeof name);
		snprintf(text, sizeof text, "%s%s", P.in->path,
			 P.wall ? "" : "; times are TSC ticks shown as nanoseconds");
		s->lanes = grow(NULL, &s->nlanes, 1, sizeof *s->lanes);
		memset(s->lanes, 0, s->nlanes * sizeof *s->lanes);
		s->lanes[0].uuid = ++P.next_uuid;
		p = track_open(p, &pkt, &d, s->lanes[0].uuid, 0, NULL, text);
		p = pb_open(p, TRACK_THREAD, &t);
		p = pb_int(p, THREAD_PID, P.proc->pid);
		p = pb_int(p, THREAD_TID, tid);
		p = pb_bytes(p, THREAD_NAME, name, strlen(name));
		track_close(pb_close(t, p), pkt, d);
		s->nlanes = 1;
	}
	seq_start(s, s->lanes[0].uuid, ns);
	return s;
}

/* Writes the process track of P.proc (once): pid, and its name, with the
 * host when the inputs come from several. */
static void process_track(void)
{
	const tl_info *i = &P.in->info;
	char name[TEXT_BYTES];
	uint8_t *p, *pkt, *d, *pd;
	if (P.proc->written)
		return;
	P.proc->written = 1;
	if (i->format != TL_FORMAT_NATIVE)
		snprintf(name, sizeof name, "%s", P.in->path);
	else if (P.hosts)
		snprintf(name, sizeof name, "%s on %s", i->process, i->host);
	else
		snprintf(name, sizeof name, "%s", i->process);
	p = track_open(reserve(), &pkt, &d, P.proc->uuid, 0, NULL, NULL);
	p = pb_open(p, TRACK_PROCESS, &pd);
	p = pb_int(p, PROCESS_PID, P.proc->pid);
	p = pb_bytes(p, PROCESS_NAME, name, strlen(name));
	track_close(pb_close(pd, p), pkt, d);
}

/* Does input B belong to the process of input A (one host, pid and start)? */
static int same_process(const tl_info *a, const tl_info *b)
{
	return a->format == TL_FORMAT_NATIVE && b->format == TL_FORMAT_NATIVE &&
	       a->pid == b->pid && a->start_ticks == b->start_ticks && !strcmp(a->host, b->host);
}

/* Groups the N inputs IN into processes, each with a pid of its own: its
 * writer's, or one made up past pid_max (2^22) when another process has it
 * or it is unknown. */
static void find_processes(struct input **in, size_t n)
{
	size_t np = 0;
	if (!(P.procs = calloc(n + 1, sizeof *P.procs)) || !(P.proc_of = calloc(n + 1, sizeof(size_t))))
		abort();
	for (size_t k = 0; k < n; k++) {
		size_t j = 0;
		uint32_t pid = input_pid(in[k]);
		while (j < k && !same_process(&in[j]->info, &in[k]->info))
			j++;
		if (j < k) {
			P.proc_of[k] = P.proc_of[j];
			continue;
		}
		int64_t id = pid;
		for (size_t q = 0; q < np && pid; q++)
			if (P.procs[q].real == pid)
				id = made_up(pid);
		if (!pid)   /* unknown (a Snabb file named by no pid): not the kernel's 0 */
			id = made_up(0);
		P.procs[np].real = pid;
		P.procs[np].pid = (int32_t)(id & 0x7fffffff);
		P.procs[np].uuid = ++P.next_uuid;
		P.proc_of[k] = np++;
		if (strcmp(in[k]->info.host, in[0]->info.host))
			P.hosts = 1;
	}
}

/* ---- slices on lanes, and the events written -------------------------------- */

/* InternedData (unless V's strings for this TYPE are on S already), then a
 * TrackEvent of TYPE and NAME (0: none) on lane L of S, with the category
 * and arguments of EV when given; returns where the event's body goes on,
 * *TE marking it. */
static uint8_t *event_open(uint8_t *p, uint8_t **te, struct seq *s, uint32_t l, unsigned type,
			   uint32_t name, struct ev *v, const tl_def *ev)
{
	unsigned use = type == TYPE_INSTANT ? 0 : type == TYPE_SLICE_BEGIN ? 1 : 2;
	if (v->sent[use] != s->id) {
		uint32_t iids[2 + TL_MAX_ARGS];
		uint8_t kinds[2 + TL_MAX_ARGS];
		unsigned n = 0;
		if (name) {
			iids[n] = name, kinds[n++] = NAMES;
			iids[n] = v->cat, kinds[n++] = CATEGORIES;
		}
		for (unsigned i = 0; ev && i < ev->nargs; i++)
			iids[n] = v->arg[i], kinds[n++] = ARG_NAMES;
		p = put_interned(p, s, iids, kinds, n);
		v->sent[use] = s->id;
	}
	p = pb_open(p, PACKET_TRACK_EVENT, te);
	p = pb_uint(p, EVENT_TYPE, type);
	if (l)
		p = pb_uint(p, EVENT_TRACK_UUID, s->lanes[l].uuid);
	if (name) {
		p = pb_uint(p, EVENT_NAME_IID, name);
		p = pb_uint(p, EVENT_CATEGORY_IIDS, v->cat);
	}
	return p;
}

/* The arguments of entry E of EV (names V) as debug annotations. */
static uint8_t *put_args(uint8_t *p, const struct ev *v, const tl_def *ev, const tl_entry *e)
{
	/* each annotation's key and the keys inside take one byte, and its body
	 * (at most 2 + 5 + 1 + 10 bytes) fits the one byte of its length */
	for (unsigned i = 0; i < ev->nargs; i++) {
		uint8_t *m = p + 1;
		p[0] = EVENT_DEBUG_ANNOTATIONS << 3 | PB_LEN;
		p[2] = ANNOTATION_NAME_IID << 3 | PB_VARINT;
		p = pb_varint(p + 3, v->arg[i]);
		if (e->dargs >> i & 1) {
			double d;
			memcpy(&d, &e->args[i], 8);
			p = pb_double(p, ANNOTATION_DOUBLE_VALUE, d);
		} else {
			*p = ANNOTATION_UINT_VALUE << 3 | PB_VARINT;
			p = pb_varint(p + 1, e->args[i]);
		}
		*m = (uint8_t)(p - m - 1);
	}
	return p;
}

/* The packets a second of the log's counter at breath_end E (named V),
 * at NS, since the breath_end before: an extra counter value of its event,
 * whose defaults name the counter track. Nothing for the first. */
static uint8_t *put_rate(uint8_t *p, const struct ev *v, const tl_entry *e, int64_t ns)
{
	uint64_t packets;
	int had = P.rate_seen;
	if (!v->packets)
		return p;
	packets = e->args[v->packets - 1];
	if (had && ns > P.rate_ns && packets >= P.rate_packets)
		p = pb_int(p, EVENT_EXTRA_COUNTER_VALUES,
			   (int64_t)((double)(packets - P.rate_packets) * 1e9 / (double)(ns - P.rate_ns)));
	P.rate_seen = 1;
	P.rate_ns = ns;
	P.rate_packets = packets;
	return p;
}

/* Entry E with its arguments: an instant on its thread's track (END 0), or
 * the end of a slice on lane L of its thread (END 1). */
static void write_entry(const tl_entry *e, int end, uint32_t l)
{
	struct ev *v = names_of(e->msgid);
	const tl_def *ev = v->def;
	int64_t ns = ns_of(e->tsc);
	struct seq *s = seq_of(e->thread, ns);
	uint8_t *p = reserve(), *pkt, *te;
	p = packet_open(p, &pkt, s, ns);
	p = event_open(p, &te, s, l, end ? TYPE_SLICE_END : TYPE_INSTANT, end ? 0 : v->name, v, ev);
	p = put_rate(put_args(p, v, ev, e), v, e, ns);
	commit(pb_close(pkt, pb_close(te, p)));
}

/* A new lane of S, for slices that overlap its others', with its track. */
static uint32_t new_lane(struct seq *s)
{
	char name[160];
	uint8_t *p, *pkt, *d;
	size_t n = s->nlanes, cap = n;
	s->lanes = grow(s->lanes, &cap, n + 1, sizeof *s->lanes);
	memset(&s->lanes[n], 0, sizeof *s->lanes);
	s->lanes[n].uuid = ++P.next_uuid;
	s->nlanes = n + 1;
	snprintf(name, sizeof name, "%s overlapping %zu",
		 P.in->info.format == TL_FORMAT_NATIVE ? P.in->info.name : "snabb", n);
	p = track_open(reserve(), &pkt, &d, s->lanes[n].uuid, P.proc->uuid, name, NULL);
	track_close(p, pkt, d);
	return (uint32_t)n;
}

/* The lane of S a slice ending at place END goes on: the first whose
 * innermost open slice ends after it (or that has none), so that it nests. */
static uint32_t place(struct seq *s, uint64_t end)
{
	struct lane *l;
	uint32_t i = 0;
	while (i < s->nlanes && s->lanes[i].n && s->lanes[i].open[s->lanes[i].n - 1] < end)
		i++;
	if (i == s->nlanes)
		i = new_lane(s);
	l = &s->lanes[i];
	l->open = grow(l->open, &l->cap, l->n + 1, sizeof *l->open);
	l->open[l->n++] = end;
	return i;
}

/* The heap of ends to write: push, and pop the earliest. */
static void end_push(const struct open_end *o)
{
	size_t i = P.nends++;
	P.ends = grow(P.ends, &P.capends, P.nends, sizeof *P.ends);
	for (; i && P.ends[(i - 1) / 2].at > o->at; i = (i - 1) / 2)
		P.ends[i] = P.ends[(i - 1) / 2];
	P.ends[i] = *o;
}

static void end_pop(void)
{
	struct open_end last = P.ends[--P.nends];
	size_t i = 0, c;
	while ((c = 2 * i + 1) < P.nends) {
		if (c + 1 < P.nends && P.ends[c + 1].at < P.ends[c].at)
			c++;
		if (last.at <= P.ends[c].at)
			break;
		P.ends[i] = P.ends[c];
		i = c;
	}
	P.ends[i] = last;
}

/* Writes the ends of slices that come before place AT. */
static void write_ends(uint64_t at)
{
	while (P.nends && P.ends[0].at < at) {
		struct open_end o = P.ends[0];
		struct seq *s = seq_of(o.thread, 0);
		end_pop();
		s->lanes[o.lane].n--;
		write_entry(&o.end, 1, o.lane);
	}
}

/* The mark of IT's lost entries on its log's first thread track, at the
 * time of the entry after them: how many, and their numbers. */
static void write_lost(const struct item *it)
{
	static const char *const words[3] = { "lost", "first_seq", "last_seq" };
	uint64_t n = it->lost_n, v[3] = { n, it->lost_first, it->lost_last };
	const char *what = !n ? "ring full: older entries lost, uncounted"
		: it->lost_first ? "entries lost" : "ring wrapped: entries lost";
	uint32_t iids[5];
	uint8_t kinds[5] = { NAMES, CATEGORIES, ARG_NAMES, ARG_NAMES, ARG_NAMES };
	int64_t ns = ns_of(it->e.tsc);
	struct seq *s = seq_of(0, ns);
	uint8_t *p, *pkt, *te, *m;
	iids[0] = intern(NAMES, what, strlen(what), NAME_BYTES, 1);
	iids[1] = intern(CATEGORIES, "timeline", 8, WORD_BYTES, 1);
	for (int i = 0; i < 3; i++)
		iids[2 + i] = intern(ARG_NAMES, words[i], strlen(words[i]), WORD_BYTES, 1);
	p = packet_open(reserve(), &pkt, s, ns);
	p = put_interned(p, s, iids, kinds, n ? 5 : 2);
	p = pb_open(p, PACKET_TRACK_EVENT, &te);
	p = pb_uint(p, EVENT_TYPE, TYPE_INSTANT);
	p = pb_uint(p, EVENT_NAME_IID, iids[0]);
	p = pb_uint(p, EVENT_CATEGORY_IIDS, iids[1]);
	for (int i = 0; n && i < 3; i++) {
		p = pb_open(p, EVENT_DEBUG_ANNOTATIONS, &m);
		p = pb_uint(p, ANNOTATION_NAME_IID, iids[2 + i]);
		p = pb_close(m, pb_uint(p, ANNOTATION_UINT_VALUE, v[i]));
	}
	commit(pb_close(pkt, pb_close(te, p)));
}

/* Writes item IT, after the ends before it: a span as a slice begun on the
 * first lane it nests in, its end kept for its place; else an instant. */
static void write_item(const struct item *it)
{
	struct ev *v;
	struct seq *s;
	struct open_end o;
	int64_t ns;
	uint8_t *p, *pkt, *te;
	write_ends(it->at);
	if (it->lost) {
		write_lost(it);
		return;
	}
	if (!it->span) {
		write_entry(&it->e, 0, 0);
		return;
	}
	v = names_of(it->e.msgid);
	if (!v->span) {
		char name[NAME_BYTES];
		int n = export_span_name(name, sizeof name, P.x, P.in, v->def,
					 def_of(it->end.msgid)->name);
		v->span = intern(NAMES, name, n < 0 ? 0 : (size_t)n, NAME_BYTES - 1, 0);
	}
	ns = ns_of(it->e.tsc);
	s = seq_of(it->e.thread, ns);
	o = (struct open_end){ it->end_at, it->e.thread < MAX_THREADS ? it->e.thread : MAX_THREADS - 1,
			       place(s, it->end_at), it->end };
	p = packet_open(reserve(), &pkt, s, ns);
	p = event_open(p, &te, s, o.lane, TYPE_SLICE_BEGIN, v->span, v, NULL);
	commit(pb_close(pkt, pb_close(te, p)));
	end_push(&o);
}

/* ---- pairing: entries into spans and instants, in the log's order -----------
 * The rules chrome.c follows: a begin waits for its end (of its thread),
 * which makes it a span; a begin begun again before its end, or never
 * ended, and an end without its begin, are instants. To be replaced by the
 * span stage (analysis/spans.c). */

/* The role of MSGID in the log under the rules of X: the --pair rules (all
 * but the last three), the pairs the log declares, the built-in rules; for
 * an end, its begin (the definition of that name and the same attributes). */
static int role_new(const struct export *x, uint16_t msgid);

static inline int role_of(const struct export *x, uint16_t msgid)
{
	return P.ev[msgid].role ? P.ev[msgid].role : role_new(x, msgid);
}

static int role_new(const struct export *x, uint16_t msgid)
{
	struct ev *v = &P.ev[msgid];
	const tl_def *ev;
	char begin[300];
	size_t n;
	if (v->role)
		return v->role;
	ev = def_of(msgid);
	v->role = 3;
	if (ev->name[0] == '?')
		return v->role;
	int r = export_pair_role(x, P.in, ev->name, begin, sizeof begin);
	if (r == 1)
		v->role = 1;
	if (r == 2) {
		uint16_t *ids = input_definitions(P.in, &n);
		for (size_t i = 0; i < n; i++) {
			const tl_def *b = input_event(P.in, ids[i]);
			if (!strcmp(b->name, begin) && !strcmp(b->attrs, ev->attrs)) {
				v->begin = ids[i];
				v->role = 2;
			}
		}
		free(ids);
	}
	return v->role;
}

/* The pending begins of thread THREAD: by msgid, queue place + 1, or 0. */
static uint64_t *pending_new(uint32_t thread);

static inline uint64_t *pending_of(uint32_t thread)
{
	if (thread < MAX_THREADS && P.pending && P.pending[thread])
		return P.pending[thread];
	return pending_new(thread);
}

static uint64_t *pending_new(uint32_t thread)
{
	if (thread >= MAX_THREADS)
		thread = MAX_THREADS - 1;
	if (!P.pending && !(P.pending = calloc(MAX_THREADS, sizeof *P.pending)))
		abort();
	if (!P.pending[thread] && !(P.pending[thread] = calloc(65536, sizeof **P.pending)))
		abort();
	return P.pending[thread];
}

static struct item *push(void)
{
	if (P.tail - P.head == P.cap) {
		uint64_t cap = P.cap ? 2 * P.cap : 1024;
		struct item *q = malloc(cap * sizeof *q);
		if (!q)
			abort();
		for (uint64_t i = P.head; i < P.tail; i++)
			q[i & (cap - 1)] = P.q[i & (P.cap - 1)];
		free(P.q);
		P.q = q;
		P.cap = cap;
	}
	return &P.q[P.tail++ & (P.cap - 1)];
}

/* Writes the items at the head of the queue that wait for nothing (with
 * ALL, every one: a begin still waiting is an instant). */
static void release(int all)
{
	while (P.head < P.tail) {
		struct item *it = &P.q[P.head & (P.cap - 1)];
		if (it->pending && !all)
			break;
		if (it->pending)
			it->pending = it->span = 0;
		write_item(it);
		P.head++;
	}
}

/* Entry E, the log's AT-th handed, into the queue. */
static void pair_entry(const struct export *x, const tl_entry *e, uint64_t at)
{
	int role = role_of(x, e->msgid);
	uint64_t *pending = pending_of(e->thread);
	struct item *it;
	if (role == 2 && pending[P.ev[e->msgid].begin]) {
		it = &P.q[(pending[P.ev[e->msgid].begin] - 1) & (P.cap - 1)];
		it->end = *e;
		it->end_at = at;
		it->pending = 0;
		pending[P.ev[e->msgid].begin] = 0;
		release(0);
		return;
	}
	if (role != 1 && P.head == P.tail) {
		/* an instant with nothing ahead of it: no need to queue it */
		write_ends(at);
		write_entry(e, 0, 0);
		return;
	}
	if (role == 1 && pending[e->msgid]) {
		struct item *old = &P.q[(pending[e->msgid] - 1) & (P.cap - 1)];
		old->pending = old->span = 0;
	}
	it = push();
	it->e = *e;
	it->at = at;
	it->span = it->pending = it->lost = 0;
	if (role == 1) {
		it->span = it->pending = 1;
		pending[e->msgid] = P.tail;
	}
	release(0);
}

/* ---- the writer --------------------------------------------------------------- */

static int perfetto_begin(const struct export *x, struct input **in, size_t n)
{
	memset(&P, 0, sizeof P);
	P.wall = x->wall;
	P.clock = x->wall ? BUILTIN_CLOCK_REALTIME : BUILTIN_CLOCK_BOOTTIME;
	if (!x->wall && n)
		cli_error("export", "note: %s; timestamps are TSC ticks shown as nanoseconds",
			  "a log has no clock anchor (a Snabb file)");
	find_processes(in, n);
	return 0;
}

/* The log's counter of packets a second (of 10^9 ticks without wall
 * time), when it has breath_end events with totalpackets: its track, under
 * its process. */
static void counter_track(void)
{
	size_t n;
	uint16_t *ids = input_definitions(P.in, &n);
	for (size_t i = 0; i < n && !P.counter; i++) {
		const tl_def *ev = input_event(P.in, ids[i]);
		if (!strstr(ev->name, ".breath_end"))
			continue;
		for (unsigned a = 0; a < ev->nargs && !P.counter; a++)
			if (!strcmp(ev->args[a], "totalpackets"))
				P.counter = ++P.next_uuid;
	}
	free(ids);
	if (P.counter) {
		/* without wall time a second is 10^9 ticks */
		const char *unit = P.wall ? "packets/s" : "packets/Gcycle";
		char name[160];
		uint8_t *p, *pkt, *d, *c;
		snprintf(name, sizeof name, "%s %s",
			 P.in->info.format == TL_FORMAT_NATIVE ? P.in->info.name : "snabb", unit);
		p = track_open(reserve(), &pkt, &d, P.counter, P.proc->uuid, name, NULL);
		p = pb_open(p, TRACK_COUNTER, &c);
		p = pb_bytes(p, COUNTER_UNIT_NAME, unit, strlen(unit));
		track_close(pb_close(c, p), pkt, d);
	}
}

static void perfetto_file(const struct export *x, size_t k, struct input *in)
{
	P.x = x;
	P.in = in;
	P.proc = &P.procs[P.proc_of[k]];
	ns_ready();
	if (!(P.ev = calloc(65536, sizeof *P.ev)))
		abort();
	process_track();
	counter_track();
}

/* Queues the mark of N entries lost before entry E, numbered FIRST to LAST
 * (N 0: a Snabb ring full, said once): written in its place with the rest. */
static void perfetto_lost(const struct export *x, size_t k, struct input *in, uint64_t n,
			  uint64_t first, uint64_t last, const tl_entry *e)
{
	struct item *it;
	(void)x, (void)k, (void)in;
	if (!n && P.lost_said++)
		return;
	it = push();
	memset(it, 0, sizeof *it);
	it->e = *e;
	it->at = P.at;
	it->lost = 1;
	it->lost_n = n;
	it->lost_first = first;
	it->lost_last = last;
	release(0);
}

static void perfetto_entry(const struct export *x, size_t k, struct input *in, const tl_def *ev,
			   const tl_entry *e, int64_t t)
{
	(void)k, (void)in, (void)ev, (void)t;
	pair_entry(x, e, P.at++);
}

/* Frees what the log being written kept. */
static void log_free(void)
{
	for (size_t i = 0; i < P.nseq; i++) {
		struct seq *s = P.seq[i];
		for (size_t l = 0; s && l < s->nlanes; l++)
			free(s->lanes[l].open);
		for (int kind = 0; s && kind < 3; kind++)
			free(s->sent[kind]);
		if (s)
			free(s->lanes);
		free(s);
	}
	for (int kind = 0; kind < 3; kind++) {
		for (uint32_t i = 0; i < P.nstr[kind]; i++)
			free(P.str[kind][i]);
		free(P.str[kind]);
		P.str[kind] = NULL;
		P.nstr[kind] = P.capstr[kind] = 0;
	}
	for (size_t t = 0; P.pending && t < MAX_THREADS; t++)
		free(P.pending[t]);
	free(P.pending);
	free(P.seq);
	free(P.ev);
	P.pending = NULL;
	P.seq = NULL;
	P.ev = NULL;
	P.nseq = 0;
	P.head = P.tail = 0;
	P.counter = 0;
	P.rate_seen = P.lost_said = 0;
	P.at = 0;
}

static void perfetto_file_end(const struct export *x, size_t k, struct input *in)
{
	(void)x, (void)k, (void)in;
	release(1);
	write_ends(UINT64_MAX);
	log_free();
}

static int perfetto_end(const struct export *x)
{
	(void)x;
	free(P.q);
	free(P.ends);
	free(P.procs);
	free(P.proc_of);
	memset(&P, 0, sizeof P);
	return 0;
}

const struct export_format export_perfetto = {
	.name = "perfetto",
	.begin = perfetto_begin,
	.file = perfetto_file,
	.entry = perfetto_entry,
	.lost = perfetto_lost,
	.file_end = perfetto_file_end,
	.end = perfetto_end,
};
