/* follow.h: following logs while they are written, for `dump --follow`,
 * `merge --follow` and `top`: each log read from where the last read ended
 * (tl_reader_since), the entries a writer's laps overwrote counted exactly,
 * Snabb logs followed by timestamp, and whether the writer still runs. */
#ifndef TL_FOLLOW_H
#define TL_FOLLOW_H
#include <stdint.h>
#include "input.h"

#define FOLLOW_POLL_NS 10000000ull  /* an idle follower looks again after 10 ms */

struct follow {
	struct input *in;
	int snabb;                   /* a Snabb log: followed by timestamp */
	/* ours, thread by thread (each numbers its own entries; a log of one
	 * thread has one), and their sums: */
	uint64_t first;              /* the entry number following started at */
	uint64_t next;               /* the entry number expected next: every one
				      * below it was read or counted as lost */
	uint64_t end;                /* the cursor at the last snapshot */
	size_t threads;              /* threads known, and for each: */
	uint64_t *t_first, *t_next, *t_end;   /* ... first, next, end as above */
	unsigned gap_thread;         /* the thread of the gap follow_gap() gave last ... */
	uint64_t gap_first;          /* ... and its first entry number */
	uint64_t last_tsc;           /* Snabb: the newest timestamp read ... */
	uint64_t slot;               /* ... the slot after it ... */
	int seen;                    /* ... and whether there is one */
	int check_first;             /* Snabb: the snapshot's first entry is the slot of
				      * the last read: newer, the writer lapped us */
	int fresh;                   /* Snabb: the whole ring, rewound at the start, is
				      * the first snapshot */
	uint64_t read;               /* entries returned */
	uint64_t lost;               /* entries overwritten before they were read */
	uint64_t unread;             /* entries left unread on purpose (follow_snapshot's MAX) */
	uint64_t maybe_lost;         /* Snabb: snapshots that began past the newest entry
				      * read: some were overwritten, how many is unknown */
	int done;                    /* the writer had ended before the last snapshot */
	unsigned pid;                /* the writer's (input_pid()) ... */
	int may_live;                /* ... and whether it can be running: on this host */
	uint64_t t0;                 /* the tsc of the first entry read (0: none yet) */
};

/* Starts following IN (which F then owns): from the oldest entry in its
 * ring, or, with AT_END, from its cursor (only what is written from now). */
void follow_start(struct follow *f, struct input *in, int at_end);

/* Starts following IN as follow_start() does, from its entry number SEQ
 * (for a Snabb log, followed by timestamp, from its first entry of time
 * TSC or later) instead of its oldest: the older ones are not read. In a
 * log of several threads, SEQ is a number of the thread of that entry, and
 * each thread starts at its first entry after the older ones (by time). */
void follow_start_at(struct follow *f, struct input *in, uint64_t seq, uint64_t tsc);

/* Closes F's input. */
void follow_close(struct follow *f);

/* Frees what F keeps of its threads, leaving its input open. */
void follow_release(struct follow *f);

/* Whether the process that writes F's log runs (input_writer_alive()). */
int follow_alive(const struct follow *f);

/* Takes a snapshot of what is new in F's log. MAX, if not 0, reads only the
 * newest MAX entries of a native log: the older new ones are counted in
 * f->unread and *UNREAD (if not NULL) and are not a gap. Returns the number
 * of new entries the writer published since the last snapshot (for a Snabb
 * log 0: they are known as they are read). */
uint64_t follow_snapshot(struct follow *f, uint64_t max, uint64_t *unread);

/* The next new entry of the snapshot into *E: returns 1, with *GAP the
 * entries of its thread lost just before it (overwritten before they were
 * read; for a Snabb log, 1 when some may have been, uncounted), or 0 at
 * its end. */
int follow_next(struct follow *f, tl_entry *e, uint64_t *gap);

/* The entries lost at the end of the last snapshot, not yet reported with a
 * later entry: counted, and F goes on past them. Returns their number, one
 * thread's at a time (f->gap_thread, from f->gap_first): call it until 0. */
uint64_t follow_gap(struct follow *f);

/* Says on stderr, as "timeline CMD: PATH: ...", what following F read and
 * lost: of the entries from the one it started at to the last one it
 * passed, how many were read and how many lost (they add up). */
void follow_report(const struct follow *f, const char *cmd);

/* Sleeps NS nanoseconds, or less when a signal comes. */
void follow_sleep(uint64_t ns);

/* Nanoseconds of CLOCK_MONOTONIC. */
uint64_t follow_now(void);

/* Makes SIGINT and SIGTERM (and SIGHUP) set *FLAG instead of ending the
 * process, so that a follower prints what it has and reports before it
 * ends. */
void follow_catch_signals(volatile int *flag);
#endif
