/* arm.c: the flight recorder, the writer's side: what tl_breath() does in
 * an armed log (the entries of the calling thread since its last breath
 * looked at for a slow pair, the trigger recorded, KEEP more entries, the
 * freeze), tl_arm(), and the settings any arming process resolves and
 * writes (timeline-format(5), "The flight recorder"). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "arm.h"
#include "clock.h"
#include "error.h"
#include "lane.h"

/* ---- the writer, at its breaths ---- */

/* What a thread keeps of the log it breathes into while it is armed: a
 * copy of the settings, where its scan stopped, the pairs it saw begin and
 * not end yet, the breaths' last ends (for the gaps between breaths). A
 * thread breathing into two armed logs in turn starts afresh at each
 * change: a pair across the change is not seen. */
struct arm_thread {
	tl_log *log;
	void *lane;
	uint64_t born;               /* the log's anchor_realtime: a log mapped where a
				      * closed one was is another */
	uint32_t gen;                /* the settings' generation copied */
	uint8_t mode, ninst;
	uint8_t one_breath;          /* mode breath, one instance: the fast path */
	uint8_t open, ended;         /* bit i: begin[i] seen, not ended; end[i] seen */
	int keeper;                  /* 1: this thread triggered; 2: another did, and
				      * this one keeps as many of its own: either
				      * freezes the log at its stop_at */
	uint64_t threshold, keep, from, stop_at;
	uint16_t begin[TL_ARM_INST], end[TL_ARM_INST];
	uint64_t ids;                /* bit (id >> 3) & 63 of each id watched: most
				      * entries are passed over on one test */
	uint64_t open_tsc[TL_ARM_INST], open_seq[TL_ARM_INST];
	uint64_t end_tsc[TL_ARM_INST], end_seq[TL_ARM_INST];
};
/* initial-exec, as lane.h's cache: no __tls_get_addr() call a breath */
static __thread struct arm_thread me __attribute__((tls_model("initial-exec")));

/* Copies H's settings into T as a seqlock reader; 0 when they are being
 * changed or changed under the copy (the next breath tries again). */
static int load_settings(const struct tl_header *h, struct arm_thread *t)
{
	const struct tl_arm *a = &h->arm;
	uint32_t seq = __atomic_load_n(&a->seq, __ATOMIC_ACQUIRE);
	if (seq & 1)
		return 0;
	t->gen = __atomic_load_n(&a->gen, __ATOMIC_RELAXED);
	t->mode = a->mode;
	t->ninst = a->ninst > TL_ARM_INST ? TL_ARM_INST : a->ninst;
	t->threshold = a->threshold;
	t->keep = a->keep;
	memcpy(t->begin, a->begin, sizeof t->begin);
	memcpy(t->end, a->end, sizeof t->end);
	t->one_breath = t->mode == TL_ARMED_BREATH && t->ninst == 1;
	t->ids = 0;
	for (unsigned i = 0; i < TL_ARM_INST && i < t->ninst; i++)
		t->ids |= 1ull << (t->begin[i] >> 3 & 63) | 1ull << (t->end[i] >> 3 & 63);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&a->seq, __ATOMIC_RELAXED) == seq;
}

/* The thread index of LANE, the calling thread's lane of H. */
static uint32_t thread_of(const struct tl_header *h, const struct tl_header *lane)
{
	return lane == h ? 0 : ((const struct tl_lane *)lane)->thread;
}

/* Whether T's copy of the settings is of H's arming now, for LANE of LOG
 * (H): else it was armed anew, or T breathed into another log. */
static int current(const struct arm_thread *t, tl_log *log, const struct tl_header *lane)
{
	const struct tl_header *h = (const struct tl_header *)log;
	return t->log == log && t->lane == lane && t->born == h->anchor_realtime &&
	       t->gen == __atomic_load_n(&h->arm.gen, __ATOMIC_ACQUIRE);
}

/* Rate off, then frozen, unless H was armed anew meanwhile. */
static void writer_freeze(struct tl_header *h)
{
	uint8_t keeping = TL_ARM_KEEPING;
	if (__atomic_compare_exchange_n(&h->armed, &keeping, TL_ARM_FROZEN, 0, __ATOMIC_SEQ_CST,
					__ATOMIC_RELAXED)) {
		__atomic_store_n(&h->rate_fixed, 1, __ATOMIC_SEQ_CST);
		__atomic_store_n(&h->rate, TL_RATE_OFF, __ATOMIC_SEQ_CST);
	}
}

/* The trigger: KIND, instance I, from entry BSEQ to ESEQ (at ETSC), CYCLES
 * long. Recorded once, by the first thread to claim it under the settings
 * it copied; that thread then keeps T's keep entries and freezes. */
static void trigger(struct tl_header *h, struct tl_header *lane, struct arm_thread *t, int kind,
		    unsigned i, uint64_t bseq, uint64_t eseq, uint64_t cycles, uint64_t etsc)
{
	struct tl_arm *a = &h->arm;
	uint32_t zero = 0;
	uint8_t armed = TL_ARM_ARMED;
	if (__atomic_load_n(&a->gen, __ATOMIC_ACQUIRE) != t->gen ||
	    !__atomic_compare_exchange_n(&a->claim, &zero, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		return;
	a->inst = (uint8_t)i;
	/* a gap goes from the breath's end to the next begin */
	a->begin_id = kind == TL_TRIGGER_GAP ? t->end[i] : t->begin[i];
	a->end_id = kind == TL_TRIGGER_PAIR ? t->end[i] : t->begin[i];
	a->thread = thread_of(h, lane);
	a->cycles = cycles;
	a->threshold_at = t->threshold;
	a->begin_seq = bseq;
	a->end_seq = eseq;
	a->end_tsc = etsc;
	a->wall_ns = (int64_t)tl_ns(CLOCK_REALTIME);
	a->stop_at = eseq + 1 + t->keep;
	__atomic_store_n(&a->kind, (uint8_t)kind, __ATOMIC_RELEASE);
	if (!__atomic_compare_exchange_n(&h->armed, &armed, TL_ARM_KEEPING, 0, __ATOMIC_SEQ_CST,
					 __ATOMIC_RELAXED))
		return;   /* frozen by hand, or disarmed, meanwhile */
	t->keeper = 1;
	t->stop_at = a->stop_at;
}

/* Entry N (at TSC, of message ID) of T's thread: a begin, an end, an event. */
static inline __attribute__((always_inline)) int look(struct tl_header *h, struct tl_header *lane,
						      struct arm_thread *t, uint64_t n, uint16_t id,
						      uint64_t tsc)
{
	for (unsigned i = 0; i < t->ninst; i++) {
		uint8_t bit = (uint8_t)(1u << i);
		if (id == t->begin[i]) {
			if (t->mode == TL_ARMED_ON) {
				trigger(h, lane, t, TL_TRIGGER_EVENT, i, n, n, 0, tsc);
				return 1;
			}
			if ((t->ended & bit) && tsc - t->end_tsc[i] > t->threshold) {
				trigger(h, lane, t, TL_TRIGGER_GAP, i, t->end_seq[i], n,
					tsc - t->end_tsc[i], tsc);
				return 1;
			}
			t->open |= bit;
			t->open_tsc[i] = tsc;
			t->open_seq[i] = n;
		} else if (id == t->end[i] && (t->open & bit)) {
			t->open &= (uint8_t)~bit;
			if (tsc - t->open_tsc[i] > t->threshold) {
				trigger(h, lane, t, TL_TRIGGER_PAIR, i, t->open_seq[i], n,
					tsc - t->open_tsc[i], tsc);
				return 1;
			}
			if (t->mode == TL_ARMED_BREATH) {
				t->ended |= bit;
				t->end_tsc[i] = tsc;
				t->end_seq[i] = n;
			}
		}
	}
	return 0;
}

/* The entries LANE got from T's last breath to CURSOR, its own, complete
 * and in its cache: a ring lapped since keeps only its last ring's worth,
 * and what was open before is forgotten. */
static void scan(struct tl_header *h, struct tl_header *lane, struct arm_thread *t, uint64_t cursor)
{
	const struct tl_raw_entry *ring = tl_ring(lane);
	uint64_t n = t->from;
	if (cursor - n > lane->mask + 1) {
		n = cursor - (lane->mask + 1);
		t->open = t->ended = 0;
	}
	for (; n < cursor; n++) {
		const struct tl_raw_entry *e = &ring[n & lane->mask];
		uint16_t id = e->msgid;
		if ((t->ids >> (id >> 3 & 63) & 1) && look(h, lane, t, n, id, e->tsc))
			break;
	}
	t->from = cursor;
}

/* Everything but the fast path: a log keeping, armed anew, another log,
 * a breath not framed by its own ends, a trigger. */
static __attribute__((noinline)) void breath_slow(tl_log *log, struct tl_header *lane,
						  uint8_t state, uint64_t cursor)
{
	struct tl_header *h = (struct tl_header *)log;
	struct arm_thread *t = &me;

	if (state == TL_ARM_KEEPING) {
		if (!current(t, log, lane))
			return;
		if (!t->keeper) {
			/* Another thread triggered: this one logs as many entries of its
			 * own from here, and freezes the log if it gets there first, so
			 * that a triggering thread that dies or stops breathing does not
			 * leave the others overwriting their share of the evidence. */
			t->keeper = 2;
			t->stop_at = cursor + t->keep;
		}
		if (cursor >= t->stop_at)
			writer_freeze(h);
		return;
	}
	if (state != TL_ARM_ARMED)
		return;
	if (!current(t, log, lane)) {
		/* armed anew, or another log: start from here */
		memset(t, 0, sizeof *t);
		if (!load_settings(h, t))
			return;
		t->log = log;
		t->lane = lane;
		t->born = h->anchor_realtime;
		t->from = cursor;
		return;
	}
	scan(h, lane, t, cursor);
	if (t->keeper && cursor >= t->stop_at)   /* keep 0: at once */
		writer_freeze(h);
}

/* An armed breath, most often: the settings current, the breath armed on
 * with one instance, nothing open, the last breath's end seen, the first
 * entry since the last tl_breath() the breath's begin and the last its
 * end, and neither the gap before that begin nor the span from it to that
 * end over the threshold. Then no pair or gap between them is over it
 * either, and what scan() would do comes to keeping the end: some 70
 * instructions with tl_breath()'s call (343 through scan(),
 * bench/README.md). Anything else goes the slow way, which scans the same
 * entries afresh. */
void tl_arm_breath(tl_log *log, struct tl_header *lane)
{
	struct tl_header *h = (struct tl_header *)log;
	struct arm_thread *t = &me;
	uint8_t state = __atomic_load_n(&h->armed, __ATOMIC_ACQUIRE);
	uint64_t cursor = __atomic_load_n(&lane->cursor, __ATOMIC_RELAXED);
	uint64_t n = t->from, mask = lane->mask;

	if (state == TL_ARM_ARMED && t->one_breath && (t->ended & ~t->open & 1) &&
	    cursor - n >= 2 && cursor - n <= mask + 1 && current(t, log, lane)) {
		const struct tl_raw_entry *ring = tl_ring(lane);
		const struct tl_raw_entry *b = &ring[n & mask], *e = &ring[(cursor - 1) & mask];
		uint64_t btsc = b->tsc, etsc = e->tsc;
		if (b->msgid == t->begin[0] && e->msgid == t->end[0] &&
		    btsc - t->end_tsc[0] <= t->threshold && etsc - btsc <= t->threshold) {
			t->end_tsc[0] = etsc;
			t->end_seq[0] = cursor - 1;
			t->from = cursor;
			return;
		}
	}
	breath_slow(log, lane, state, cursor);
}

/* ---- the settings: resolved, written, frozen by hand ---- */

/* The value of attribute BY in ATTRS (LEN bytes): *V and *VLEN; 0 if absent. */
static int attr_value(const char *attrs, size_t len, const char *by, const char **v, size_t *vlen)
{
	size_t blen = strlen(by), i = 0;
	while (i < len) {
		size_t n = 0;
		while (i + n < len && attrs[i + n] != ' ')
			n++;
		if (n > blen && attrs[i + blen] == '=' && !memcmp(attrs + i, by, blen)) {
			*v = attrs + i + blen + 1;
			*vlen = n - blen - 1;
			return 1;
		}
		i += n + 1;
	}
	*v = "";
	*vlen = 0;
	return 0;
}

static int name_is(const tl_def *d, const char *name)
{
	return d->name_len == strlen(name) && !memcmp(d->name, name, d->name_len);
}

/* Calls FN(CTX, id, string, length) for each string of TABLE (USED bytes). */
static void walk(const char *table, size_t used, void (*fn)(void *, uint16_t, const char *, size_t),
		 void *ctx)
{
	for (size_t at = 0; at < used;) {
		size_t slen = strnlen(table + at, used - at);
		if (slen)
			fn(ctx, (uint16_t)(at / 16), table + at, slen);
		at += slen ? (slen + 16) & ~(size_t)15 : 16;
	}
}

/* What resolving looks for and finds. */
struct find {
	const tl_arm_options *o;
	tl_pair pair;                /* the pair chosen */
	int have_pair, breath, too_many;
	const char *table;
	size_t used;
	struct tl_arm *set;
};

/* walk()'s: the pair O names, or the declared breath. */
static void find_pair(void *ctx, uint16_t id, const char *s, size_t len)
{
	struct find *f = ctx;
	tl_pair p;
	const char *dot;
	(void)id;
	if (len < 5 || memcmp(s, "pair|", 5) || tl_pair_parse(s, len, &p, NULL) != TL_OK)
		return;
	dot = strchr(p.label, '.');
	if (f->o->pair ? !strcmp(p.label, f->o->pair) || (dot && !strcmp(dot + 1, f->o->pair))
		       : p.breath) {
		if (!f->have_pair)
			f->pair = p;
		f->have_pair = 1;
	}
}

/* A definition's id and its value of the pair's attribute. */
struct end_find {
	struct find *f;
	const char *v;
	size_t vlen;
	int found;
	uint16_t id;
};

/* walk()'s: the end of the pair with the begin's value. */
static void find_end(void *ctx, uint16_t id, const char *s, size_t len)
{
	struct end_find *e = ctx;
	const char *v;
	size_t vlen;
	tl_def d;
	if (e->found || tl_def_parse(s, len, &d, NULL) != TL_OK || !name_is(&d, e->f->pair.end))
		return;
	attr_value(d.attrs ? d.attrs : "", d.attrs ? d.attrs_len : 0, e->f->pair.by, &v, &vlen);
	if (vlen == e->vlen && !memcmp(v, e->v, vlen)) {
		e->found = 1;
		e->id = id;
	}
}

/* walk()'s: each begin of the pair, with its end, an instance. */
static void find_begin(void *ctx, uint16_t id, const char *s, size_t len)
{
	struct find *f = ctx;
	struct end_find e = { f, NULL, 0, 0, 0 };
	tl_def d;
	if (tl_def_parse(s, len, &d, NULL) != TL_OK || !name_is(&d, f->pair.begin))
		return;
	attr_value(d.attrs ? d.attrs : "", d.attrs ? d.attrs_len : 0, f->pair.by, &e.v, &e.vlen);
	walk(f->table, f->used, find_end, &e);
	if (!e.found)
		return;
	if (f->set->ninst == TL_ARM_INST) {
		f->too_many = 1;
		return;
	}
	f->set->begin[f->set->ninst] = id;
	f->set->end[f->set->ninst++] = e.id;
}

/* walk()'s: each definition matching the pattern on. */
static void find_on(void *ctx, uint16_t id, const char *s, size_t len)
{
	struct find *f = ctx;
	char name[256];
	tl_def d;
	if (tl_def_parse(s, len, &d, NULL) != TL_OK || d.name_len >= sizeof name)
		return;
	/* tl_def_matches() takes a definition whose strings end in NUL */
	memcpy(name, d.name, d.name_len);
	name[d.name_len] = '\0';
	d.name = name;
	{
		char attrs[256];
		size_t alen = d.attrs ? d.attrs_len : 0;
		if (alen >= sizeof attrs)
			return;
		memcpy(attrs, d.attrs ? d.attrs : "", alen);
		attrs[alen] = '\0';
		d.attrs = attrs;
		d.attrs_len = alen;
		if (!tl_def_matches(&d, f->o->on))
			return;
	}
	if (f->set->ninst == TL_ARM_INST) {
		f->too_many = 1;
		return;
	}
	f->set->begin[f->set->ninst] = id;
	f->set->end[f->set->ninst++] = id;
}

/* Resolves the pair of O (the breath when none) into F->set. */
static int resolve_pair(struct find *f, const char *name, tl_error *err)
{
	const tl_arm_options *o = f->o;
	walk(f->table, f->used, find_pair, f);
	if (!f->have_pair && o->pair)
		return tl_fail(err, TL_E_INVAL, 0, "%s: no pair '%s' declared in the log", name, o->pair);
	if (!f->have_pair) {   /* Snabb's breath by its names */
		memset(&f->pair, 0, sizeof f->pair);
		snprintf(f->pair.label, sizeof f->pair.label, "engine.breath");
		snprintf(f->pair.begin, sizeof f->pair.begin, "engine.breath_start");
		snprintf(f->pair.end, sizeof f->pair.end, "engine.breath_end");
		snprintf(f->pair.by, sizeof f->pair.by, "app");
		f->pair.breath = 1;
	}
	walk(f->table, f->used, find_begin, f);
	if (f->too_many)
		return tl_fail(err, TL_E_INVAL, 0, "%s: pair '%s' has more than %d instances", name,
			       f->pair.label, TL_ARM_INST);
	if (!f->set->ninst)
		return tl_fail(err, TL_E_INVAL, 0,
			       o->pair ? "%s: pair '%s' has no events in the log"
				       : "%s: the log declares no breath (%s): give a pair",
			       name, o->pair ? o->pair : "engine.breath_start/breath_end");
	f->set->mode = f->pair.breath ? TL_ARMED_BREATH : TL_ARMED_PAIR;
	snprintf(f->set->what, sizeof f->set->what, "%.63s", f->pair.label);
	return TL_OK;
}

int tl_arm_resolve(const char *table, size_t used, uint64_t entries, uint64_t hz,
		   const tl_arm_options *o, struct tl_arm *set, const char *name, tl_error *err)
{
	struct find f = { .o = o, .table = table, .used = used, .set = set };
	int rc;
	memset(set, 0, sizeof *set);
	if (o->on && o->pair)
		return tl_fail(err, TL_E_INVAL, 0, "%s: arm on an event or a pair, not both", name);
	if (!o->on && !o->slower_than_ns)
		return tl_fail(err, TL_E_INVAL, 0, "%s: a threshold of 0 would trigger at once", name);
	if (o->keep_set && o->keep >= entries)
		return tl_fail(err, TL_E_INVAL, 0,
			       "%s: keep %llu is not below the ring size %llu (the slow pair would "
			       "be overwritten)",
			       name, (unsigned long long)o->keep, (unsigned long long)entries);
	if (o->rate > 9)
		return tl_fail(err, TL_E_INVAL, 0, "%s: rate %u: arm at 1 (all) to 9", name, o->rate);
	if (!o->on && !hz)
		return tl_fail(err, TL_E_INVAL, 0, "%s: the log's clock rate is unknown", name);
	if (o->on) {
		walk(table, used, find_on, &f);
		if (f.too_many)
			return tl_fail(err, TL_E_INVAL, 0, "%s: '%s' matches more than %d events", name,
				       o->on, TL_ARM_INST);
		if (!set->ninst)
			return tl_fail(err, TL_E_INVAL, 0, "%s: no event '%s' in the log", name, o->on);
		set->mode = TL_ARMED_ON;
		snprintf(set->what, sizeof set->what, "%.63s", o->on);
	} else if ((rc = resolve_pair(&f, name, err)) != TL_OK) {
		return rc;
	}
	/* ns to ticks, at least 1 */
	/* rounded up: the threshold is never under the time asked, and reads
	 * back as it was given (300us, not 299.999 us) */
	set->threshold = o->on ? 0 : (uint64_t)(((unsigned __int128)o->slower_than_ns * hz +
						  999999999u) / 1000000000u);
	if (!o->on && !set->threshold)
		set->threshold = 1;
	set->keep = o->keep_set ? o->keep : entries / 10;
	set->rate = (uint8_t)(o->rate ? o->rate : 1);
	return TL_OK;
}

/* Makes H's recorder seq odd, as one changer at a time: a changer that
 * died with it odd is taken over after about a second. */
static uint32_t lock_seq(struct tl_arm *a)
{
	for (int t = 0;; t++) {
		uint32_t s = __atomic_load_n(&a->seq, __ATOMIC_ACQUIRE);
		if ((!(s & 1) || t >= 1000) &&
		    __atomic_compare_exchange_n(&a->seq, &s, (s | 1) + ((s & 1) ? 2 : 0), 0,
						__ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
			return __atomic_load_n(&a->seq, __ATOMIC_RELAXED);
		if (t < 1000 && (s & 1)) {
			struct timespec ms = { 0, 1000000 };
			nanosleep(&ms, NULL);
		}
	}
}

static void unlock_seq(struct tl_arm *a, uint32_t odd)
{
	__atomic_store_n(&a->seq, odd + 1, __ATOMIC_RELEASE);
}

void tl_arm_write(struct tl_header *h, const struct tl_arm *set)
{
	struct tl_arm *a = &h->arm;
	uint32_t odd;
	__atomic_store_n(&h->armed, TL_ARM_OFF, __ATOMIC_SEQ_CST);   /* writers stop looking */
	odd = lock_seq(a);
	a->threshold = set->threshold;
	a->keep = set->keep;
	a->mode = set->mode;
	a->rate = set->rate;
	a->ninst = set->ninst;
	memcpy(a->begin, set->begin, sizeof a->begin);
	memcpy(a->end, set->end, sizeof a->end);
	memcpy(a->what, set->what, sizeof a->what);
	/* the trigger cleared, kind first: a reader sees none, then zeros */
	__atomic_store_n(&a->kind, 0, __ATOMIC_SEQ_CST);
	memset((char *)a + 133, 0, sizeof *a - 133);
	__atomic_fetch_add(&a->gen, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&a->claim, 0, __ATOMIC_SEQ_CST);
	unlock_seq(a, odd);
	/* the rate while armed, as tl_set_rate() stores it; then armed */
	__atomic_store_n(&h->rate_fixed, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&h->rate, set->rate, __ATOMIC_SEQ_CST);
	__atomic_store_n(&h->armed, TL_ARM_ARMED, __ATOMIC_SEQ_CST);
}

void tl_arm_freeze(struct tl_header *h)
{
	struct tl_arm *a = &h->arm;
	uint32_t zero = 0;
	if (__atomic_compare_exchange_n(&a->claim, &zero, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
		memset((char *)a + 133, 0, sizeof *a - 133);
		a->wall_ns = (int64_t)tl_ns(CLOCK_REALTIME);
		__atomic_store_n(&a->kind, TL_TRIGGER_HAND, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&h->armed, TL_ARM_FROZEN, __ATOMIC_SEQ_CST);
	__atomic_store_n(&h->rate_fixed, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&h->rate, TL_RATE_OFF, __ATOMIC_SEQ_CST);
}

int tl_arm(tl_log *log, const tl_arm_options *o, tl_error *err)
{
	struct tl_header *h = (struct tl_header *)log;
	struct tl_arm set;
	int rc;
	tl_ok(err);
	if (!log || h->disabled || !o)
		return tl_fail(err, TL_E_INVAL, 0, "the disabled log cannot be armed");
	rc = tl_arm_resolve((const char *)h + h->strings_offset,
			    __atomic_load_n(&h->strings_used, __ATOMIC_ACQUIRE), h->entries, h->tsc_hz,
			    o, &set, h->path, err);
	if (rc == TL_OK)
		tl_arm_write(h, &set);
	return rc;
}
