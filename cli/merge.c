/* merge.c: `timeline merge`, many logs merged by time into one stream: by
 * TSC when they come from one host and boot, else by wall clock. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
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
	"TSC, with a warning.\n"
	"\n" VIEW_USAGE
	"   -h, --help          show this help\n";

static const struct option options[] = {
	VIEW_OPTIONS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

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
	int problems;
	int by_wall;                 /* 1: merge by wall clock */
};

/* Opens the inputs and makes a source of each. */
static void collect(struct merge *m, char **paths, int npaths)
{
	struct input_list l = { NULL, 0, 0 };
	m->problems += input_open_all("merge", paths, npaths, &l, view_timed, &m->view);
	if (!(m->src = calloc(l.n ? l.n : 1, sizeof *m->src)))
		abort();
	for (size_t i = 0; i < l.n; i++)
		m->src[i].in = l.in[i];
	m->n = l.n;
	free(l.in);
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

/* Loads the next entry of S; returns 0 at its end. */
static int advance(struct merge *m, struct source *s)
{
	if (!tl_reader_next(s->in->r, &s->e))
		return 0;
	s->key = m->by_wall ? (uint64_t)tl_wall_ns(&s->in->info, s->e.tsc) + (1ull << 63) : s->e.tsc;
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

int cmd_merge(int argc, char **argv)
{
	struct merge m;
	int rc;

	memset(&m, 0, sizeof m);
	m.view.with_file = 1;
	if ((rc = view_parse(&m.view, "merge", usage, options, argc, argv)) >= 0)
		return rc;
	collect(&m, argv + optind, argc - optind);
	choose_clock(&m);
	view_begin(&m.view);
	run(&m);
	out_flush();
	for (size_t i = 0; i < m.n; i++) {
		m.problems += input_report_damage("merge", m.src[i].in);
		input_note_skipped("merge", m.src[i].in);
		input_close(m.src[i].in);
	}
	free(m.src);
	return cli_finish("merge", m.problems ? EXIT_USAGE : EXIT_OK);
}
