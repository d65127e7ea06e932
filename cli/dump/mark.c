/* mark.c: dump --mark FROM,TO, the window stats --slowest leads to: the
 * entries at TSC FROM and TO (a pair's begin and end) marked with a
 * leading '>', every entry between them, and at most MARK_AROUND of the
 * entries kept before FROM and after TO, the others left out (said). */
#include <stdio.h>
#include <string.h>
#include "dump.h"
#include "out.h"

/* Prints entry E (of definition EV, time T) of IN, marked or not. */
static void marked_line(struct mark *m, struct input *in, const tl_def *ev, const tl_entry *e,
			int64_t t)
{
	int at = e->tsc == m->v->mark[0] || e->tsc == m->v->mark[1];
	out_str(at ? "> " : "  ");
	view_print(m->v, in, ev, e, t);
}

/* The entries held before FROM, oldest first, after a line saying how
 * many were left out before them. */
static void flush(struct mark *m, struct input *in)
{
	char line[128];
	if (m->dropped) {
		snprintf(line, sizeof line, "  (%llu earlier entries left out)\n",
			 (unsigned long long)m->dropped);
		out_str(line);
	}
	for (size_t i = 0; i < m->n; i++) {
		size_t k = (m->head + i) % MARK_AROUND;
		marked_line(m, in, m->ev[k], &m->e[k], m->t[k]);
	}
	m->n = m->dropped = 0;
}

void mark_begin(struct mark *m, struct view *v)
{
	memset(m, 0, sizeof *m);
	m->v = v;
}

int mark_entry(struct mark *m, struct input *in, const tl_entry *e, uint64_t t0)
{
	const tl_def *ev;
	int64_t t;
	int rc = view_keep(m->v, in, e, t0, &ev, &t);
	if (rc <= 0)
		return rc;
	if (m->phase == 0 && e->tsc < m->v->mark[0]) {   /* before FROM: held, the oldest
							   * dropped */
		size_t k = (m->head + m->n) % MARK_AROUND;
		if (m->n == MARK_AROUND) {
			m->head = (m->head + 1) % MARK_AROUND;
			m->dropped++;
		} else {
			m->n++;
		}
		m->e[k] = *e;
		m->ev[k] = ev;
		m->t[k] = t;
		return 1;
	}
	if (m->phase == 0) {
		flush(m, in);
		m->phase = 1;
	}
	if (m->phase == 1 && e->tsc > m->v->mark[1])
		m->phase = 2;
	if (m->phase == 2 && m->after++ == MARK_AROUND)
		return -1;   /* enough after TO */
	marked_line(m, in, ev, e, t);
	return 1;
}

void mark_end(struct mark *m, struct input *in)
{
	flush(m, in);   /* FROM never came: the last of those before it */
	m->phase = 0;
	m->after = 0;
}
