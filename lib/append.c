/* append.c: the portable C twin of asm/append.S, tl_append_c() and tl_event_c().
 * Same stores in the same order; on machines without the asm it also
 * provides tl_append() and tl_event() themselves. */
#include "timeline.h"
#include "format.h"
#include "clock.h"
#include "lane.h"
#include "switch.h"

#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

/* Reads the log's clock source: *TSC and the cpu/node word *AUX. */
static inline __attribute__((always_inline)) void read_clock(const struct tl_header *h,
							    uint64_t *tsc, uint16_t *aux)
{
	switch (h->clock) {
#if defined(__x86_64__)
	case TL_CLOCK_RDTSC_RDPID:
		*tsc = tl_rdtsc_ordered();
		*aux = (uint16_t)tl_rdpid();
		return;
	case TL_CLOCK_RDTSCP:
		*tsc = tl_rdtscp(aux);
		return;
	case TL_CLOCK_RDTSC:
		*tsc = tl_rdtsc_ordered();
		*aux = 0xffff;
		return;
	case TL_CLOCK_RDTSC_LSL:
		*tsc = tl_rdtsc_ordered();
		tl_lsl(aux);
		return;
#if TL_HAVE_RSEQ
	case TL_CLOCK_RDTSC_RSEQ:
		*tsc = tl_rdtsc_ordered();
		*aux = tl_rseq_word(h->rseq_offset);
		return;
	case TL_CLOCK_RDTSC_RSEQ_UNORDERED:
		*tsc = tl_rdtsc();
		*aux = tl_rseq_word(h->rseq_offset);
		return;
#endif
#endif
	case TL_CLOCK_MANUAL:
		*tsc = h->manual_tsc;
		*aux = h->manual_aux;
		return;
	default: {
		struct tl_clock_read c = tl_slow_clock((const tl_log *)h);
		*tsc = c.tsc;
		*aux = (uint16_t)c.aux;
	}
	}
}

/* The entry, written into LANE, the calling thread's of LOG (lib/lane.h):
 * steps 1 to 5 of the store order, no switch test. */
static inline __attribute__((always_inline)) void append_raw(tl_log *log, struct tl_header *lane,
		unsigned msgid, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
		uint64_t a5)
{
	struct tl_header *h = (struct tl_header *)log;
	uint64_t n = __atomic_load_n(&lane->cursor, __ATOMIC_RELAXED), tsc;
	struct tl_raw_entry *e = &tl_ring(lane)[n & lane->mask];
	uint16_t aux;

	/* 1. busy marker, ordered before the payload */
	STORE(&e->seq, tl_seq_busy(n));
	__atomic_thread_fence(__ATOMIC_RELEASE);
	/* 2. payload */
	STORE(&e->args[0], a0);
	STORE(&e->args[1], a1);
	STORE(&e->args[2], a2);
	STORE(&e->args[3], a3);
	STORE(&e->args[4], a4);
	STORE(&e->args[5], a5);
	STORE(&e->msgid, (uint16_t)msgid);
	/* 3. clock: read here, once the arguments are stored, so that no
	 * register has to keep them across it (read first, as the asm's rseq
	 * path does, gcc saves five registers: 8 instructions more) */
	read_clock(h, &tsc, &aux);
	STORE(&e->tsc, tsc);
	STORE(&e->aux, aux);
	/* 4. complete, 5. published */
	__atomic_store_n(&e->seq, tl_seq_done(n), __ATOMIC_RELEASE);
	__atomic_store_n(&lane->cursor, n + 1, __ATOMIC_RELEASE);
}

/* The switches changed: record (and grant) them first (lib/switch.c),
 * then append as asked. Apart, so that tl_append_c() saves no register
 * for a call it rarely makes (a tail call to here). */
static __attribute__((noinline)) void append_after_record(tl_log *log, unsigned msgid,
		uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	tl_switch_record(log);
	tl_append_c(log, msgid, a0, a1, a2, a3, a4, a5);
}

/* No lane of LOG in the thread's cache: find or make it (lib/lane.c),
 * then append. Apart, for the same reason. */
static __attribute__((noinline)) void append_after_lane(tl_log *log, unsigned msgid,
		uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	append_raw(log, tl_lane_get(log), msgid, a0, a1, a2, a3, a4, a5);
}

void tl_append_c(tl_log *log, unsigned msgid, uint64_t a0, uint64_t a1, uint64_t a2,
		 uint64_t a3, uint64_t a4, uint64_t a5)
{
	struct tl_header *h = (struct tl_header *)log;

	/* 0. the changes of the switches recorded first, rarely; then the
	 * event's switch (an outside process may flip it) */
	if (__builtin_expect(__atomic_load_n(&h->switch_pending, __ATOMIC_ACQUIRE), 0)) {
		append_after_record(log, msgid, a0, a1, a2, a3, a4, a5);
		return;
	}
	if (__atomic_load_n(&h->switches[TL_SWITCH_WORD(msgid)], __ATOMIC_ACQUIRE) >>
	    TL_SWITCH_BIT(msgid) & 1)
		return;
	if (__builtin_expect(__atomic_load_n(&tl_lane_tls.log, __ATOMIC_RELAXED) != log, 0)) {
		append_after_lane(log, msgid, a0, a1, a2, a3, a4, a5);
		return;
	}
	append_raw(log, tl_lane_tls.lane, msgid, a0, a1, a2, a3, a4, a5);
}

void tl_append_raw(tl_log *log, unsigned msgid, uint64_t a0, uint64_t a1, uint64_t a2,
		   uint64_t a3, uint64_t a4, uint64_t a5)
{
	append_raw(log, tl_lane_of(log), msgid, a0, a1, a2, a3, a4, a5);
}

void tl_event_c(tl_log *log, unsigned event, uint64_t a0, uint64_t a1, uint64_t a2,
		uint64_t a3, uint64_t a4, uint64_t a5)
{
	if ((event & 0xff) < tl_rate(log))
		return;
	tl_append_c(log, event >> 8, a0, a1, a2, a3, a4, a5);
}

#if !defined(__x86_64__) || defined(TL_NO_ASM)
void tl_append(tl_log *log, unsigned msgid, uint64_t a0, uint64_t a1, uint64_t a2,
	       uint64_t a3, uint64_t a4, uint64_t a5)
	__attribute__((alias("tl_append_c")));
void tl_event(tl_log *log, unsigned event, uint64_t a0, uint64_t a1, uint64_t a2,
	      uint64_t a3, uint64_t a4, uint64_t a5)
	__attribute__((alias("tl_event_c")));
#endif
