/* switches.c: the records of the event switches in a file (timeline
 * enable, disable; timeline-format(5), "Event switches"): a begin still
 * waiting for its end when the switches change is dropped, for its end
 * (or a later begin) may have been switched off meanwhile, and counted as
 * a span skipped; what a run of files had of them, for stats to say. */
#include <string.h>
#include "engine.h"

int switch_is_record(const tl_def *d)
{
	return d->known && !strcmp(d->name, TL_SWITCH_EVENT) && (!d->attrs || !*d->attrs);
}

void switch_record(struct an *a, const tl_entry *e)
{
	unsigned changed = tl_switch_apply(a->switch_words, e);
	if (e->args[1] == 0) {   /* a record starts */
		a->switches.records++;
		a->file_switched = 1;
	}
	if (!changed)
		return;
	/* no pair across a change: its begin or end may have been off; the
	 * breaths under way lose their deferred pairs, whose units may be
	 * missing */
	spans_drop(a, 1, 0);
}

void switch_file_begin(struct an *a, unsigned off_now)
{
	memset(a->switch_words, 0, sizeof a->switch_words);
	a->file_switched = off_now > 0;
}

void switch_file_end(struct an *a)
{
	a->switches.logs += (uint64_t)a->file_switched;
	a->file_switched = 0;
}

const struct an_switches *an_switches(const struct an *a)
{
	return &a->switches;
}
