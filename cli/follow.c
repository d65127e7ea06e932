/* follow.c: following logs while they are written: what is new since the
 * last snapshot (tl_reader_since), the gaps a writer's laps leave, Snabb
 * logs by timestamp, the writer's liveness, and the signals that end a
 * follower cleanly. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "follow.h"

void follow_start(struct follow *f, struct input *in, int at_end)
{
	memset(f, 0, sizeof *f);
	f->in = in;
	f->snabb = in->info.format == TL_FORMAT_SNABB;
	/* the host and the file do not change: looked at once, then the pid */
	f->pid = input_pid(in);
	f->may_live = input_local(in);
	if (f->snabb) {
		tl_entry newest;
		/* by timestamp: the whole ring once, from its oldest entry; from
		 * now on means past the newest entry there is */
		tl_reader_rewind(in->r);
		f->fresh = !at_end;
		if (at_end && tl_reader_newest(in->r, &newest)) {
			f->last_tsc = newest.tsc;
			f->seen = 1;
			f->slot = newest.seq + 1;
			tl_reader_since(in->r, f->slot, NULL);
			f->check_first = 1;
		}
		return;
	}
	f->end = tl_reader_since(in->r, 0, NULL);
	f->first = at_end ? f->end : f->end > in->info.entries ? f->end - in->info.entries : 0;
	f->next = f->end = f->first;
}

void follow_start_at(struct follow *f, struct input *in, uint64_t seq, uint64_t tsc)
{
	follow_start(f, in, 0);
	if (f->snabb) {   /* the whole ring's first read passes over what is older */
		f->seen = tsc > 0;
		f->last_tsc = tsc - 1;
	} else if (seq > f->first) {
		f->first = f->next = f->end = seq;
	}
}

void follow_close(struct follow *f)
{
	input_close(f->in);
	f->in = NULL;
}

int follow_alive(const struct follow *f)
{
	return f->may_live && input_pid_alive(f->pid);
}

uint64_t follow_snapshot(struct follow *f, uint64_t max, uint64_t *unread)
{
	uint64_t c, lapped, from, old = f->end;
	if (unread)
		*unread = 0;
	if (f->snabb) {
		if (f->fresh) {   /* the whole ring, rewound at the start, is read first */
			f->fresh = 0;
			return 0;
		}
		tl_reader_since(f->in->r, f->slot, NULL);
		f->check_first = f->seen;   /* the slot of the last entry read comes first */
		return 0;
	}
	/* what the ring no longer holds shows as a gap in follow_next() */
	c = tl_reader_since(f->in->r, f->end, &lapped);
	from = f->end + lapped;
	if (max && c - from > max) {
		uint64_t skip = c - max - from;
		/* the entries before FROM are lost; those skipped are no gap */
		f->lost += from - f->next;
		f->unread += skip;
		f->next = from + skip;
		if (unread)
			*unread = skip;
		c = tl_reader_since(f->in->r, f->next, NULL);
	}
	f->end = c;
	return c - old;
}

/* Reads the next entry of a Snabb snapshot newer than the last one read.
 * A snapshot of tl_reader_since() starts with the slot of the last entry
 * read: a newer entry there means the writer lapped the reader, and the
 * whole ring is read again, by timestamp, with a gap said. */
static int snabb_next(struct follow *f, tl_entry *e, uint64_t *gap)
{
	*gap = 0;
	while (tl_reader_next(f->in->r, e)) {
		if (f->check_first) {
			f->check_first = 0;
			if (e->tsc > f->last_tsc) {
				*gap = 1;
				f->maybe_lost++;
				tl_reader_rewind(f->in->r);
				continue;
			}
		}
		if (f->seen && e->tsc <= f->last_tsc)
			continue;
		f->last_tsc = e->tsc;
		f->slot = e->seq + 1;
		f->seen = 1;
		if (!f->read++)
			f->t0 = e->tsc;
		return 1;
	}
	return 0;
}

int follow_next(struct follow *f, tl_entry *e, uint64_t *gap)
{
	if (f->snabb)
		return snabb_next(f, e, gap);
	if (!tl_reader_next(f->in->r, e))
		return 0;
	*gap = e->seq - f->next;
	f->lost += *gap;
	f->next = e->seq + 1;
	if (!f->read++)
		f->t0 = e->tsc;
	return 1;
}

uint64_t follow_gap(struct follow *f)
{
	uint64_t gap;
	if (f->snabb || f->next >= f->end)
		return 0;
	gap = f->end - f->next;
	f->lost += gap;
	f->next = f->end;
	return gap;
}

void follow_report(const struct follow *f, const char *cmd)
{
	if (f->snabb)
		fprintf(stderr, "timeline %s: %s: followed by timestamp: %llu entries read; "
			"entries were lost at %llu places, uncounted (a Snabb log has no cursor)\n",
			cmd, f->in->path, (unsigned long long)f->read,
			(unsigned long long)f->maybe_lost);
	else if (f->next == f->first)
		fprintf(stderr, "timeline %s: %s: followed 0 entries\n", cmd, f->in->path);
	else
		fprintf(stderr, "timeline %s: %s: followed %llu entries, %llu to %llu: %llu read, "
			"%llu lost\n", cmd, f->in->path, (unsigned long long)(f->next - f->first),
			(unsigned long long)f->first, (unsigned long long)(f->next - 1),
			(unsigned long long)f->read, (unsigned long long)f->lost);
}

uint64_t follow_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

void follow_sleep(uint64_t ns)
{
	struct timespec t = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };
	nanosleep(&t, NULL);   /* a signal ends it early: the caller looks at its flag */
}

static volatile int *stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	if (stop_flag)
		*stop_flag = 1;
}

void follow_catch_signals(volatile int *flag)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	stop_flag = flag;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}
