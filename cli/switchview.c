/* switchview.c: what each record of a log's event switches changed, from
 * the records seen before it, as message ids whose names the printers show
 * (switchview.h). */
#include <stdlib.h>
#include "switchview.h"

#define GROUPS (TL_SWITCH_WORDS_PER_LOG / SWITCH_GROUP)   /* 64: a bit each in known */

/* The switches of one input as its records said them. */
struct switch_view {
	uint64_t words[TL_SWITCH_WORDS_PER_LOG];  /* after the last record entry taken */
	uint64_t known;              /* bit g: words 4g..4g+3 are known */
	uint64_t record;             /* bit g: the record being read had an entry of group g */
	int open;                    /* a record was taken from its first entry (first 0) */
};

/* IN's switch view, made at the first record entry: all on and known when
 * WHOLE, else unknown. */
static struct switch_view *view_of(struct input *in, int whole)
{
	if (!in->switches) {
		in->switches = calloc(1, sizeof *in->switches);
		if (!in->switches)
			abort();
		in->switches->known = whole ? ~0ull : 0;
	}
	return in->switches;
}

/* A record starts: the one before it, taken from its first entry and
 * IN_A_ROW (none of its entries left out), left its other groups at 0
 * (timeline-format(5)), so they are known now. */
static void record_starts(struct switch_view *s, int in_a_row)
{
	if (s->open && in_a_row)
		for (unsigned g = 0; g < GROUPS; g++)
			if (!(s->record >> g & 1) && !(s->known >> g & 1)) {
				for (unsigned k = 0; k < SWITCH_GROUP; k++)
					s->words[g * SWITCH_GROUP + k] = 0;
				s->known |= 1ull << g;
			}
	s->open = 1;
	s->record = 0;
}

int switch_view_take(struct input *in, int shown, const tl_entry *e, struct switch_change *c)
{
	struct switch_view *s;
	uint64_t first = e->args[1];
	unsigned g;
	if (first % SWITCH_GROUP || first >= TL_SWITCH_WORDS_PER_LOG)
		return -1;
	s = view_of(in, shown & SWITCH_WHOLE);
	g = (unsigned)(first / SWITCH_GROUP);
	if (first == 0)
		record_starts(s, shown & SWITCH_IN_A_ROW);
	s->record |= 1ull << g;
	c->first = first;
	c->known = (int)(s->known >> g & 1);
	for (unsigned k = 0; k < SWITCH_GROUP; k++) {
		uint64_t before = s->words[first + k], after = e->args[2 + k];
		c->off[k] = after;
		c->went_off[k] = c->known ? after & ~before : 0;
		c->came_on[k] = c->known ? before & ~after : 0;
		s->words[first + k] = after;
	}
	s->known |= 1ull << g;
	return 0;
}

void switch_view_lost(struct input *in)
{
	struct switch_view *s = view_of(in, 0);   /* lost before any record: unknown too */
	s->known = 0;
	s->open = 0;
}

unsigned switch_view_each(struct input *in, uint64_t first, const uint64_t bits[SWITCH_GROUP],
			  void (*put)(void *arg, const tl_def *d), void *arg)
{
	unsigned n = 0;
	for (unsigned k = 0; k < SWITCH_GROUP; k++)
		for (uint64_t b = bits[k]; b; b &= b - 1, n++) {
			/* bit b of word w: the message ids 4 * (64 * w + b) .. + 3 */
			uint64_t id = 4 * (64 * (first + k) + (unsigned)__builtin_ctzll(b));
			put(arg, input_event(in, (uint16_t)id));
		}
	return n;
}

void switch_view_free(struct input *in)
{
	free(in->switches);
	in->switches = NULL;
}
