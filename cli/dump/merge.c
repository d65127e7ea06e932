/* merge.c: `timeline merge`, many logs merged by time into one stream: by
 * TSC when they come from one host and boot, else by wall clock. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "follow.h"
#include "heap.h"
#include "out.h"
#include "view.h"
#include "warm.h"

static const char usage[] =
	"usage: timeline merge [OPTIONS] INPUT...\n"
	"\n"
	"Merges the entries of all inputs into one stream ordered by time, with\n"
	"the file (or process) on every line. Logs of one host and boot merge by\n"
	"TSC, others by wall clock; Snabb logs have no clock anchor and merge by\n"
	"TSC, with a warning. With --follow, the stream's newest 10 first\n"
	"(--lines), then each entry as it is written.\n"
	"\n" VIEW_USAGE;

/* One input and its current entry. */
struct source {
	struct input *in;
	tl_entry e;                  /* the next entry to merge */
	uint64_t key;                /* its sort key: tsc, or wall ns + 2^63 */
	uint64_t t0;                 /* the input's first tsc */
};

struct merge {
	struct view view;
	struct source *src;
	size_t n;
	struct input_list inputs;    /* the inputs, as opened (arg: their path) */
	int problems;
	int by_wall;                 /* 1: merge by wall clock */
};

/* Opens the inputs and makes a source of each. */
static void collect(struct merge *m, char **paths, int npaths)
{
	struct input_list *l = &m->inputs;
	m->problems += input_open_all("merge", paths, npaths, l, view_timed, &m->view);
	if (!(m->src = calloc(l->n ? l->n : 1, sizeof *m->src)))
		abort();
	for (size_t i = 0; i < l->n; i++)
		m->src[i].in = l->in[i];
	m->n = l->n;
}

/* By TSC when every input shares host and boot (or any is a Snabb file),
 * else by wall clock. */
static void choose_clock(struct merge *m)
{
	int snabb = 0, same = 1, nohz = 0;
	for (size_t i = 0; i < m->n; i++) {
		const tl_info *a = &m->src[i].in->info, *b = &m->src[0].in->info;
		if (a->format == TL_FORMAT_SNABB)
			snabb = 1;
		else if (!a->tsc_hz)
			nohz = 1;
		else if (b->format == TL_FORMAT_NATIVE &&
			 !tl_same_tsc(a, b))
			same = 0;
	}
	if (snabb && m->n > 1)
		fprintf(stderr, "timeline merge: warning: Snabb logs have no clock anchor; merging by TSC\n");
	else if (nohz && !same)
		fprintf(stderr, "timeline merge: warning: a log has no TSC frequency; merging by TSC\n");
	m->by_wall = !snabb && !nohz && !same;
	m->view.from_wall = m->by_wall;
}

/* The sort key of entry E of IN: its tsc, or its wall ns + 2^63. */
static uint64_t key_of(const struct merge *m, const struct input *in, const tl_entry *e)
{
	return m->by_wall ? (uint64_t)tl_wall_ns(&in->info, e->tsc) + (1ull << 63) : e->tsc;
}

/* Loads the next entry of S; returns 0 at its end. */
static int advance(struct merge *m, struct source *s)
{
	if (!tl_reader_next(s->in->r, &s->e))
		return 0;
	s->key = key_of(m, s->in, &s->e);
	return 1;
}

/* Merges and prints; returns after the last entry or at --limit. */
static void run(struct merge *m)
{
	struct heap_node *heap = malloc((m->n ? m->n : 1) * sizeof *heap);
	tl_reader **readers = malloc((m->n ? m->n : 1) * sizeof *readers);
	size_t n = 0;
	uint64_t t0 = UINT64_MAX;
	if (!heap || !readers)
		abort();
	for (size_t i = 0; i < m->n; i++) {
		tl_reader_rewind(m->src[i].in->r);
		if (advance(m, &m->src[i])) {
			m->src[i].t0 = m->src[i].e.tsc;
			heap[n++] = (struct heap_node){ m->src[i].key, i };
			if (!m->by_wall && m->src[i].e.tsc < t0)
				t0 = m->src[i].e.tsc;
		}
	}
	heap_make(heap, n);
	for (size_t i = 0; i < m->n; i++)
		readers[i] = m->src[i].in->r;
	warm_start(readers, m->n);
	if (m->by_wall && n)
		m->view.wall0 = (int64_t)(heap[0].key - (1ull << 63));
	while (n) {
		struct source *s = &m->src[heap[0].index];
		if (view_entry(&m->view, s->in, &s->e, m->by_wall ? s->t0 : t0) < 0)
			break;
		if (advance(m, s))
			heap[0].key = s->key;
		else
			heap[0] = heap[--n];
		heap_sift_down(heap, n, 0);
	}
	warm_stop();
	free(readers);
	free(heap);
}

/* ---- --follow -------------------------------------------------------------- */

/* How long merge --follow holds an entry for the other live logs to show
 * an earlier one: 100 ms after the snapshot it was read in was taken. */
#define MERGE_HOLD_NS 100000000ull

/* A followed log and its entry waiting to be printed. */
struct live {
	struct follow f;
	tl_entry e;                  /* the entry waiting, when HAS */
	uint64_t key, gap;           /* its sort key; the entries lost before it */
	int has;
	int drained;                 /* its snapshot is read to the end */
	int last;                    /* its writer had ended before that snapshot */
	uint64_t snap_at;            /* when that snapshot was taken (follow_now(), read
				      * after it: never before an entry it holds was written) */
};

static volatile int stopped;   /* SIGINT, SIGTERM or SIGHUP came */

/* Makes L's next entry its waiting one, taking a new snapshot (at most every
 * FOLLOW_POLL_NS) when the last is read; a log whose writer had ended and
 * whose last snapshot is read is done. Gaps at a snapshot's end are printed
 * when the next snapshot is empty. */
static void refill(struct merge *m, struct live *l, uint64_t now)
{
	uint64_t gap;
	if (l->has || l->f.done)
		return;
	if (!l->drained && follow_next(&l->f, &l->e, &l->gap)) {
		l->key = key_of(m, l->f.in, &l->e);
		l->has = 1;
		return;
	}
	l->drained = 1;
	if (l->last) {
		l->f.done = 1;
	} else if (now - l->snap_at >= FOLLOW_POLL_NS) {
		l->last = !follow_alive(&l->f);
		follow_snapshot(&l->f, 0, NULL);
		/* the hold counts from here: a follower descheduled between NOW
		 * and the snapshot would otherwise hold the entry less */
		l->snap_at = follow_now();
		l->drained = 0;
		refill(m, l, l->snap_at);
		while (!l->has && (gap = follow_gap(&l->f)))
			view_lost(&m->view, l->f.in, l->f.gap_thread, gap, l->f.gap_first);
	}
}

/* The live log whose waiting entry comes first, and whether it may be
 * printed: every log not done has one waiting, or it has waited
 * MERGE_HOLD_NS. NULL when none is waiting; *ALL_DONE when all are done. */
static struct live *first(struct live *l, size_t n, uint64_t now, int *ready, int *all_done)
{
	struct live *min = NULL;
	int all = 1;
	*all_done = 1;
	for (size_t i = 0; i < n; i++) {
		*all_done &= l[i].f.done;
		if (!l[i].f.done && !l[i].has)
			all = 0;
		if (l[i].has && (!min || l[i].key < min->key))
			min = &l[i];
	}
	*ready = min && (all || now - min->snap_at >= MERGE_HOLD_NS);
	return min;
}

/* Prints L's waiting entry (the gap before it first); -1 at the limit.
 * Times count from the first entry printed, T0 (set by the first call). */
static int print_live(struct merge *m, struct live *l, uint64_t *t0, int *t0_set)
{
	l->has = 0;
	if (l->gap)
		view_lost(&m->view, l->f.in, l->e.thread, l->f.snabb ? 0 : l->gap, l->e.seq - l->gap);
	if (!*t0_set) {
		*t0_set = 1;
		*t0 = l->e.tsc;
		m->view.wall0 = tl_wall_ns(&l->f.in->info, l->e.tsc);
	}
	if (view_entry(&m->view, l->f.in, &l->e, m->by_wall ? l->f.t0 : *t0) < 0)
		return -1;
	return view_full(&m->view) ? -1 : 0;
}

/* Merges the live logs L (N) until all writers end, a signal comes or the
 * --limit is printed. */
static void merge_live(struct merge *m, struct live *l, size_t n)
{
	uint64_t t0 = 0;
	int t0_set = 0;
	for (;;) {
		uint64_t now = follow_now();
		int ready, done;
		struct live *min;
		for (size_t i = 0; i < n; i++)
			refill(m, &l[i], now);
		now = follow_now();   /* no snapshot is later than it */
		min = first(l, n, now, &ready, &done);
		if (done || stopped)
			break;
		if (ready) {
			if (print_live(m, min, &t0, &t0_set) < 0)
				break;
			continue;
		}
		out_flush();
		fflush(stdout);
		follow_sleep(min && MERGE_HOLD_NS - (now - min->snap_at) < FOLLOW_POLL_NS
				     ? MERGE_HOLD_NS - (now - min->snap_at)
				     : FOLLOW_POLL_NS);
	}
}

static int by_key_down(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? 1 : a > b ? -1 : 0;
}

/* The key at or above which the newest N entries of the merged stream
 * lie: of the N newest each log keeps (the MARKS of log i, GOT[i] of
 * them), the Nth latest in the merge's order. */
static uint64_t newest_key(const struct merge *m, struct view_mark **marks, const size_t *got,
			   size_t n)
{
	size_t all = 0, k = 0;
	uint64_t *keys, key;
	for (size_t i = 0; i < m->n; i++)
		all += got[i];
	if (!(keys = malloc((all ? all : 1) * sizeof *keys)))
		abort();
	for (size_t i = 0; i < m->n; i++)
		for (size_t j = 0; j < got[i]; j++)
			keys[k++] = key_of(m, m->src[i].in, &(tl_entry){ .tsc = marks[i][j].tsc });
	qsort(keys, all, sizeof *keys, by_key_down);
	key = all >= n ? keys[n - 1] : 0;
	free(keys);
	return key;
}

/* Starts following each source so that the merged stream shows first its
 * newest --lines entries the filters keep, as tail -f does: each log's
 * newest (view_newest()), then of those the latest --lines in the merge's
 * order; a log starts at its first of them, or at its end when it has none
 * (only what it writes from now on). */
static void start_newest(struct merge *m, struct live *l)
{
	size_t n = m->view.lines, *got = calloc(m->n ? m->n : 1, sizeof *got);
	struct view_mark **marks = calloc(m->n ? m->n : 1, sizeof *marks);
	uint64_t *passed = calloc(m->n ? m->n : 1, sizeof *passed), total = 0, key;
	if (!got || !marks || !passed)
		abort();
	for (size_t i = 0; i < m->n; i++) {
		size_t room = n < m->src[i].in->info.entries ? n : m->src[i].in->info.entries;
		if (!(marks[i] = malloc((room ? room : 1) * sizeof **marks)))
			abort();
		got[i] = view_newest(&m->view, m->src[i].in, marks[i], room, &passed[i]);
		total += got[i] + passed[i];
	}
	key = total > n ? newest_key(m, marks, got, n) : 0;
	for (size_t i = 0; i < m->n; i++) {
		size_t j = 0;
		while (j < got[i] && key_of(m, m->src[i].in, &(tl_entry){ .tsc = marks[i][j].tsc }) < key)
			j++;
		if (!j && !passed[i])   /* nothing of it passed over: from its oldest */
			view_follow_from(&l[i].f, m->src[i].in, NULL, 0);
		else   /* from its first of the newest, or from its end */
			view_follow_from(&l[i].f, m->src[i].in, j < got[i] ? &marks[i][j] : NULL, 1);
		free(marks[i]);
	}
	free(marks);
	free(got);
	free(passed);
}

/* merge --follow: the sources, followed from the newest --lines entries of
 * the merged stream (start_newest()). */
static void merge_follow(struct merge *m)
{
	struct live *l = calloc(m->n ? m->n : 1, sizeof *l);
	uint64_t gap;
	if (!l)
		abort();
	if (m->view.lines == VIEW_ALL_LINES || !m->view.lines)
		for (size_t i = 0; i < m->n; i++)
			view_follow_from(&l[i].f, m->src[i].in, NULL, !m->view.lines);
	else
		start_newest(m, l);
	for (size_t i = 0; i < m->n; i++) {
		l[i].drained = 1;   /* the first refill takes a snapshot */
		l[i].snap_at = follow_now() - FOLLOW_POLL_NS;
	}
	follow_catch_signals(&stopped);
	merge_live(m, l, m->n);
	out_flush();
	for (size_t i = 0; i < m->n; i++) {
		while (!l[i].has && (gap = follow_gap(&l[i].f)))
			view_lost(&m->view, l[i].f.in, l[i].f.gap_thread, gap, l[i].f.gap_first);
		out_flush();
		follow_report(&l[i].f, "merge");
		m->src[i].in = l[i].f.in;   /* closed with the others */
		follow_release(&l[i].f);
	}
	free(l);
}

int cmd_merge(int argc, char **argv)
{
	struct merge m;
	int rc;

	memset(&m, 0, sizeof m);
	m.view.with_file = 1;
	if ((rc = view_parse(&m.view, "merge", usage, argc, argv)) >= 0)
		return rc;
	if (m.view.follow)
		input_wait_for_births();   /* a log just created may have no header yet */
	collect(&m, argv + optind, argc - optind);
	choose_clock(&m);
	view_begin(&m.view);
	if (m.view.follow) {
		merge_follow(&m);
	} else {
		run(&m);
		out_flush();
		m.problems += input_window_misses("merge", &m.inputs, argc - optind, &m.view.w);
	}
	out_flush();
	for (size_t i = 0; i < m.n; i++) {
		m.problems += input_report_damage("merge", m.src[i].in);
		if (!m.view.follow)   /* followed: the entries skipped were reported as lost */
			input_note_skipped("merge", m.src[i].in);
		input_close(m.src[i].in);
	}
	view_end(&m.view, m.problems);
	out_flush();
	free(m.src);
	free(m.inputs.in);
	return cli_finish("merge", m.problems ? EXIT_USAGE : EXIT_OK);
}
