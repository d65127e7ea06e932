/* follow.c: following logs while they are written: what is new since the
 * last snapshot, thread by thread (tl_reader_since_threads), the gaps a
 * writer's laps leave, Snabb logs by timestamp, the writer's liveness, and
 * the signals that end a follower cleanly. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "follow.h"

/* Room for the threads of F's log at its last snapshot; a thread that came
 * since numbers its entries from 0, all new. */
static void grow(struct follow *f)
{
	size_t n = tl_reader_threads(f->in->r);
	if (n <= f->threads)
		return;
	f->t_first = realloc(f->t_first, n * sizeof *f->t_first);
	f->t_next = realloc(f->t_next, n * sizeof *f->t_next);
	f->t_end = realloc(f->t_end, n * sizeof *f->t_end);
	if (!f->t_first || !f->t_next || !f->t_end)
		abort();
	for (size_t t = f->threads; t < n; t++)
		f->t_first[t] = f->t_next[t] = f->t_end[t] = 0;
	f->threads = n;
}

/* The sums of the threads' first, next and end. */
static void sum(struct follow *f)
{
	f->first = f->next = f->end = 0;
	for (size_t t = 0; t < f->threads; t++) {
		f->first += f->t_first[t];
		f->next += f->t_next[t];
		f->end += f->t_end[t];
	}
}

/* Thread T of F's log at the last snapshot. */
static tl_thread thread_at(const struct follow *f, size_t t)
{
	tl_thread th;
	tl_reader_thread(f->in->r, (unsigned)t, &th);
	return th;
}

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
	tl_reader_since_threads(in->r, NULL, 0, NULL);
	grow(f);
	for (size_t t = 0; t < f->threads; t++) {
		tl_thread th = thread_at(f, t);
		f->t_first[t] = f->t_next[t] = f->t_end[t] = at_end ? th.written : th.oldest;
	}
	sum(f);
}

void follow_start_at(struct follow *f, struct input *in, uint64_t seq, uint64_t tsc)
{
	follow_start(f, in, 0);
	if (f->snabb) {   /* the whole ring's first read passes over what is older */
		f->seen = tsc > 0;
		f->last_tsc = tsc - 1;
	} else {   /* each thread from its first entry at or after the mark, in time order */
		tl_entry e;
		tl_reader_rewind(in->r);
		while (tl_reader_next(in->r, &e) && e.tsc <= tsc && !(e.seq == seq && e.tsc == tsc))
			if (e.thread < f->threads)
				f->t_first[e.thread] = f->t_next[e.thread] = f->t_end[e.thread] = e.seq + 1;
		sum(f);
	}
}

void follow_close(struct follow *f)
{
	input_close(f->in);
	f->in = NULL;
	follow_release(f);
}

void follow_release(struct follow *f)
{
	free(f->t_first);
	free(f->t_next);
	free(f->t_end);
	f->t_first = f->t_next = f->t_end = NULL;
	f->threads = 0;
}

int follow_alive(const struct follow *f)
{
	return f->may_live && input_pid_alive(f->pid);
}

/* With MAX, reads only the newest MAX of the new entries, each thread's
 * newest in its share; the older ones of each are unread, not lost. FROM
 * is where each thread's new entries start. */
static void sample(struct follow *f, const uint64_t *from, uint64_t max, uint64_t *unread)
{
	uint64_t fresh = 0, left = max;
	for (size_t t = 0; t < f->threads; t++)
		fresh += f->t_end[t] - from[t];
	if (!max || fresh <= max)
		return;
	for (size_t t = 0; t < f->threads; t++) {
		uint64_t n = f->t_end[t] - from[t];
		uint64_t keep = t + 1 < f->threads ? (uint64_t)((double)n / fresh * max) : left;
		uint64_t skip = n - (keep < n ? keep : n);
		left -= n - skip;
		/* the entries before FROM are lost; those skipped are no gap */
		f->lost += from[t] - f->t_next[t];
		f->unread += skip;
		f->t_next[t] = from[t] + skip;
		if (unread)
			*unread += skip;
	}
	tl_reader_since_threads(f->in->r, f->t_next, f->threads, NULL);
	grow(f);   /* the snapshot taken again may hold more */
	for (size_t t = 0; t < f->threads; t++)
		f->t_end[t] = thread_at(f, t).written;
}

uint64_t follow_snapshot(struct follow *f, uint64_t max, uint64_t *unread)
{
	uint64_t old = f->end, *from;
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
	tl_reader_since_threads(f->in->r, f->t_end, f->threads, NULL);
	grow(f);
	if (!(from = malloc(f->threads * sizeof *from)))
		abort();
	for (size_t t = 0; t < f->threads; t++) {
		tl_thread th = thread_at(f, t);
		from[t] = th.oldest > f->t_end[t] ? th.oldest : f->t_end[t];
		f->t_end[t] = th.written;
	}
	sample(f, from, max, unread);
	free(from);
	sum(f);
	return f->end - old;
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
	if (!tl_reader_next(f->in->r, e) || e->thread >= f->threads)
		return 0;
	*gap = e->seq - f->t_next[e->thread];
	f->lost += *gap;
	f->next += *gap + 1;
	f->t_next[e->thread] = e->seq + 1;
	if (!f->read++)
		f->t0 = e->tsc;
	return 1;
}

uint64_t follow_gap(struct follow *f)
{
	uint64_t gap;
	if (f->snabb)
		return 0;
	for (size_t t = 0; t < f->threads; t++) {
		if (f->t_next[t] >= f->t_end[t])
			continue;
		gap = f->t_end[t] - f->t_next[t];
		f->gap_thread = (unsigned)t;
		f->gap_first = f->t_next[t];
		f->lost += gap;
		f->next += gap;
		f->t_next[t] = f->t_end[t];
		return gap;
	}
	return 0;
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
	else if (f->threads > 1)   /* each thread numbers its own: no one range */
		fprintf(stderr, "timeline %s: %s: followed %llu entries of %zu threads: %llu read, "
			"%llu lost\n", cmd, f->in->path, (unsigned long long)(f->next - f->first),
			f->threads, (unsigned long long)f->read, (unsigned long long)f->lost);
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
