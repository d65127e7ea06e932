/* switchview.h: the records of the event switches (entries of
 * timeline.switches, timeline-format(5)) read as the events they switched,
 * by name, for the commands that print entries (dump, merge). */
#ifndef TL_SWITCHVIEW_H
#define TL_SWITCHVIEW_H
#include <stdint.h>
#include "input.h"

#define SWITCH_GROUP 4               /* words a record entry holds (timeline-format(5)) */

/* What one record entry says, by message id. */
struct switch_change {
	uint64_t first;              /* the entry's first word: 0, 4, ... 252 */
	int known;                   /* the switches before it are known */
	uint64_t off[SWITCH_GROUP];  /* its words: off after it */
	uint64_t went_off[SWITCH_GROUP];  /* known: off after it, on before */
	uint64_t came_on[SWITCH_GROUP];   /* known: on after it, off before */
};

/* What the caller shows of a log, for switch_view_take(). */
enum {
	SWITCH_WHOLE = 1,            /* every entry from the log's first (entry 0) */
	SWITCH_IN_A_ROW = 2,         /* every entry of a record it shows part of: the
				      * writer writes them in a row, so only --cpu and
				      * --numa can split one */
};

/* Takes entry E of IN, a record entry of its switches, in log order, and
 * says what it changed in *C. SHOWN (SWITCH_*): with SWITCH_WHOLE the
 * switches before the log's first record were all on (a new log's).
 * Otherwise a group of four words is known once a record entry of it was
 * taken, or, with SWITCH_IN_A_ROW, once a record taken from its first
 * entry left it out (the words a record leaves out are 0). Returns 0, or
 * -1 for an entry whose first is no group (a damaged entry: print its
 * numbers). */
int switch_view_take(struct input *in, int shown, const tl_entry *e, struct switch_change *c);

/* Entries of IN were lost (a lap, a gap of --follow): what its switches
 * were is no longer known. */
void switch_view_lost(struct input *in);

/* Calls PUT(ARG, D) for the definition D of each message id set in BITS,
 * the SWITCH_GROUP words from word FIRST, in message id order. Returns how
 * many. */
unsigned switch_view_each(struct input *in, uint64_t first, const uint64_t bits[SWITCH_GROUP],
			  void (*put)(void *arg, const tl_def *d), void *arg);

/* Frees what switch_view_take() kept for IN (input_close() calls it). */
void switch_view_free(struct input *in);
#endif
