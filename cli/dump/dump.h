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

/* `dump --trigger`: prints the window around IN's trigger (trigger.c).
 * Returns 0, 1 for a log without one (said), -1 at the --limit. */
int dump_trigger(struct view *v, struct input *in);
#endif
