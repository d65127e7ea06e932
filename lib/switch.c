/* switch.c: the writer's side of the event switches: recording them in the
 * ring when an outside process changed them (the layout is lib/format.h,
 * the story timeline-format(5), "Event switches"). */
#include "error.h"
#include "format.h"
#include "lane.h"
#include "switch.h"

_Static_assert(TL_HDR_SWITCH_PENDING == TL_HDR_SWITCH_PENDING_OFFSET, "switch_pending");
_Static_assert(TL_HDR_SWITCHES == TL_HDR_SWITCHES_OFFSET, "switches");

const char tl_switch_def[] =
	"9,9|" TL_SWITCH_EVENT ": generation first off0 off1 off2 off3\n"
	"The event switches of this log after an outside process changed them\n"
	"(timeline enable, timeline disable), recorded by the writer before its\n"
	"next entry: generation counts the changes made; off0 to off3 are the\n"
	"switch words first to first + 3, where bit b of word w set means the\n"
	"message ids 4 * (64 * w + b) to that + 3 are off. A record starts\n"
	"with first = 0; the words it leaves out are 0.\n";

/* Word W of H's switches with the requests to switch on granted: each
 * event whose request bit is set gets both bits cleared, in one
 * compare-and-swap against outside processes flipping the same word. */
static uint64_t grant(struct tl_header *h, unsigned w)
{
	uint64_t old = __atomic_load_n(&h->switches[w], __ATOMIC_ACQUIRE), now;
	do {
		if (!(old & TL_SWITCH_ON_REQ))
			return old;
		now = old & ~TL_SWITCH_ON_REQ & ~((old & TL_SWITCH_ON_REQ) >> 1);
	} while (!__atomic_compare_exchange_n(&h->switches[w], &old, now, 0, __ATOMIC_SEQ_CST,
					      __ATOMIC_ACQUIRE));
	return now;
}

/* Records words 4G..4G+3, their requests granted, when G is 0 (a record
 * starts with group 0) or they are not all 0 now or were not at the last
 * record. A request made meanwhile waits for the next record (its flipper
 * stores switch_pending after it). */
static void record_group(struct tl_header *h, uint16_t id, uint32_t gen, unsigned g)
{
	uint64_t w[TL_SWITCH_GROUP], any = 0;
	for (unsigned k = 0; k < TL_SWITCH_GROUP; k++)
		any |= w[k] = grant(h, g * TL_SWITCH_GROUP + k) & ~TL_SWITCH_ON_REQ;
	if (g && !any && !(h->switch_groups >> g & 1))
		return;
	tl_append_raw((tl_log *)h, id, gen, g * TL_SWITCH_GROUP, w[0], w[1], w[2], w[3]);
	h->switch_groups = any ? h->switch_groups | 1ull << g : h->switch_groups & ~(1ull << g);
}

void tl_switch_sync(tl_log *log)
{
	tl_switch_record(log);
}

/* tl_switch_record()'s work, under the writers' lock: threads of one log
 * that see switch_pending together record one after the other. */
static void record(tl_log *log)
{
	struct tl_header *h = (struct tl_header *)log;
	uint32_t gen;
	uint16_t id;

	/* 0 first: a change stored after this is recorded again */
	__atomic_store_n(&h->switch_pending, 0, __ATOMIC_SEQ_CST);
	gen = __atomic_load_n(&h->switch_gen, __ATOMIC_ACQUIRE);
	if (h->disabled)
		return;
	if (!h->switch_def) {
		if (tl_intern(log, tl_switch_def, &id, NULL) != TL_OK) {
			/* no record: the switches are granted all the same */
			for (unsigned w = 0; w < TL_SWITCH_WORDS; w++)
				grant(h, w);
			h->switch_lost++;
			h->switch_seen = gen;
			return;
		}
		h->switch_def = 1u + id;
	}
	id = (uint16_t)(h->switch_def - 1);
	for (unsigned g = 0; g < TL_SWITCH_WORDS / TL_SWITCH_GROUP; g++)
		record_group(h, id, gen, g);
	h->switch_seen = gen;
}

void tl_switch_record(tl_log *log)
{
	tl_writer_lock();
	record(log);
	tl_writer_unlock();
}
