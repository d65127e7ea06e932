/* dump.h: what dump's files share: the span table (spans.c) that
 * `dump --spans` prints instead of the entries. */
#ifndef TL_DUMP_H
#define TL_DUMP_H
#include "input.h"
#include "view.h"

struct spantab;

/* A span table for the inputs printed with V's format, time and filters. */
struct spantab *spantab_new(struct view *v);

/* Adds IN's spans (the entries V keeps), the spans of each thread in the
 * order they began; says on stderr how many begins and ends paired with
 * nothing. Returns 0. */
int spantab_input(struct spantab *s, struct input *in);

/* Prints every input's spans (text: a table per input under its name;
 * CSV and JSON: one table, a column per unit met); at most V's --limit. */
void spantab_print(struct spantab *s);
void spantab_free(struct spantab *s);

/* dump --mark (mark.c): the entries kept before the mark's FROM held, at
 * most MARK_AROUND of them, and as many after its TO printed. */
#define MARK_AROUND 100
struct mark {
	struct view *v;              /* its options: v->mark */
	tl_entry e[MARK_AROUND];     /* the entries held before FROM, a ring ... */
	const tl_def *ev[MARK_AROUND];
	int64_t t[MARK_AROUND];
	size_t head, n;              /* ... its oldest and how many */
	uint64_t dropped;            /* entries kept before FROM left out */
	int phase;                   /* 0 before FROM, 1 from FROM to TO, 2 after TO */
	size_t after;                /* entries printed after TO */
};
void mark_begin(struct mark *m, struct view *v);

/* Entry E of IN (T0 as for view_entry()) through V's filters, then held
 * or printed: 1 kept, 0 left out, -1 when no more is due (MARK_AROUND
 * after TO, or the --limit). */
int mark_entry(struct mark *m, struct input *in, const tl_entry *e, uint64_t t0);

/* The end of IN: what is still held printed; ready for the next input. */
void mark_end(struct mark *m, struct input *in);
/* `dump --trigger`: prints the window around IN's trigger (trigger.c).
 * Returns 0, 1 for a log without one (said), -1 at the --limit. */
int dump_trigger(struct view *v, struct input *in);
#endif
