/* sample.c: per-breath sampling, Snabb's rate distribution drawn with a
 * xorshift64 generator; the rate lives in the mapping so outsiders can set it. */
#include <stdio.h>
#include <string.h>
#include "arm.h"
#include "format.h"
#include "lane.h"
#include "timeline.h"

/* 5^k for k = 0..9; r uniform in 1..5^9. */
static const uint32_t pow5[10] = { 1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125 };

/* Advances the xorshift64 state S (never 0; period 2^64 - 1) and returns it. */
static inline uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/* rate = max(1, ceil(log5(r))): the k with 5^(k-1) < r <= 5^k, or 1 for r <= 5.
 * Counting down from 9 takes about 1.25 compares on average. */
static inline unsigned rate_of(uint32_t r)
{
	unsigned k = 9;
	while (k > 1 && r <= pow5[k - 1])
		k--;
	return k;
}

/* Breaths of the drawing thread between two of its beats, and of any other
 * between two looks at them. */
#define TL_RATE_BEAT 256

/* Breaths of the drawing thread, in a log of several, between two draws. */
#define TL_RATE_HOLD 16

/* Whether the calling thread's breath, the BREATHS-th in its LANE of H,
 * draws the rate. The rate is the log's, in the header line every event
 * reads: one thread draws it, and the others only read it, so that their
 * events miss that line once a change, not once for each thread's own
 * draws as well (bench/README.md, "The rate drawn by one thread"), and
 * draws every TL_RATE_HOLD of its breaths, not each: a change costs every
 * other core a miss, and a draw changes the rate one time in three. That
 * thread beats every TL_RATE_BEAT breaths; another that sees no beat
 * between two of its looks, TL_RATE_BEAT of its breaths apart, takes over,
 * so the rate goes on when the drawer ends or waits. The header as the
 * lane (a log of one writer) always draws; a scratch lane (no magic: a
 * thread refused a lane) never does. */
static int draws(struct tl_header *h, struct tl_header *lane, uint64_t breaths)
{
	struct tl_lane *l = (struct tl_lane *)lane;
	uint32_t me, owner, beat;
	if (lane == h)
		return 1;
	if (l->magic != TL_LANE_MAGIC)
		return 0;
	me = l->thread + 1;
	owner = __atomic_load_n(&h->rate_owner, __ATOMIC_RELAXED);
	if (owner == me) {
		if (breaths % TL_RATE_BEAT == 0)   /* its writer alone: no lock */
			__atomic_store_n(&h->rate_beat,
					 __atomic_load_n(&h->rate_beat, __ATOMIC_RELAXED) + 1,
					 __ATOMIC_RELAXED);
		return breaths % TL_RATE_HOLD == 0;
	}
	if (owner && breaths % TL_RATE_BEAT)
		return 0;
	beat = __atomic_load_n(&h->rate_beat, __ATOMIC_RELAXED);
	if (owner && beat != l->beat_seen) {
		l->beat_seen = beat;   /* the drawer breathes: look again later */
		return 0;
	}
	return __atomic_compare_exchange_n(&h->rate_owner, &owner, me, 0, __ATOMIC_RELAXED,
					   __ATOMIC_RELAXED);
}

/* A rate set from outside (rate_fixed stored first, then rate) is never
 * overwritten: the new rate goes in with a compare-and-swap against the rate
 * read before rate_fixed was checked, so a store that came in between wins.
 * A draw equal to the rate read stores nothing, and so needs no swap: two
 * draws in three (rate 9 is 4/5 of them), and the locked instruction, which
 * waits for every store before it, cost 4-5 TSC ticks a breath on average
 * (bench/README.md, "What the program feels"). */
void tl_breath(tl_log *log)
{
	struct tl_header *h = (struct tl_header *)log, *lane;
	uint64_t breaths;
	uint8_t old;
	uint32_t r;
	if (h->disabled)
		return;
	/* the calling thread's count and draws, in its lane (the header's for
	 * lane 0): no line written by two threads' breaths but the rate's */
	lane = tl_lane_of(log);
	breaths = ++lane->breaths;
	tl_switch_poll(log);   /* switches changed from outside: record them */
	/* the flight recorder: unarmed, this load of the hot line is all */
	if (__builtin_expect(__atomic_load_n(&h->armed, __ATOMIC_RELAXED) != TL_ARM_OFF, 0))
		tl_arm_breath(log, lane);
	old = __atomic_load_n(&h->rate, __ATOMIC_ACQUIRE);
	if (__atomic_load_n(&h->rate_fixed, __ATOMIC_ACQUIRE) || !draws(h, lane, breaths))
		return;
	/* r = 1 + floor(x * 5^9 / 2^64): uniform in 1..5^9 to within 2^-43 */
	r = 1 + (uint32_t)(((unsigned __int128)xorshift64(&lane->prng) * pow5[9]) >> 64);
	{
		uint8_t drawn = (uint8_t)rate_of(r), was = old;
		if (drawn == old)
			return;
		if (__atomic_compare_exchange_n(&h->rate, &old, drawn, 0, __ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED) &&
		    __atomic_load_n(&h->rate_fixed, __ATOMIC_SEQ_CST))
			/* fixed meanwhile, to the value we replaced or to one about to be
			 * stored: give that value back */
			__atomic_compare_exchange_n(&h->rate, &drawn, was, 0, __ATOMIC_SEQ_CST,
						    __ATOMIC_RELAXED);
	}
}

int tl_set_rate(tl_log *log, unsigned rate)
{
	struct tl_header *h = (struct tl_header *)log;
	if (h->disabled || rate > TL_RATE_OFF)
		return TL_E_INVAL;
	/* a rate set by hand ends the flight recorder's arming, and resumes a
	 * frozen log (minor 5; the byte is 0 before) */
	if (__atomic_load_n(&h->armed, __ATOMIC_RELAXED))
		__atomic_store_n(&h->armed, TL_ARM_OFF, __ATOMIC_SEQ_CST);
	if (rate == TL_RATE_AUTO) {
		__atomic_store_n(&h->rate_fixed, 0, __ATOMIC_RELAXED);
		return TL_OK;
	}
	/* rate_fixed first, then rate: the order tl_breath() relies on */
	__atomic_store_n(&h->rate_fixed, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&h->rate, (uint8_t)rate, __ATOMIC_SEQ_CST);
	return TL_OK;
}

void tl_seed(tl_log *log, uint64_t seed)
{
	struct tl_header *h = (struct tl_header *)log;
	if (!h->disabled)
		h->prng = seed ? seed : 1;
}

int tl_rate_parse(const char *s)
{
	if (!s)
		return -1;
	if (!strcmp(s, "all"))
		return 1;
	if (!strcmp(s, "off"))
		return TL_RATE_OFF;
	if (!strcmp(s, "auto"))
		return TL_RATE_AUTO;
	if (s[0] >= '1' && s[0] <= '9' && !s[1])
		return s[0] - '0';
	return -1;
}

size_t tl_rate_name(char *buf, size_t size, unsigned rate, int fixed)
{
	int n;
	if (!fixed)
		n = snprintf(buf, size, "auto");
	else if (rate <= 1)
		n = snprintf(buf, size, "all");
	else if (rate >= TL_RATE_OFF)
		n = snprintf(buf, size, "off");
	else
		n = snprintf(buf, size, "%u", rate);
	return n < 0 ? 0 : (size_t)n;
}
