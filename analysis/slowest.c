/* slowest.c: the slowest pairs of each row (an_options.slowest): the N of
 * most cycles per unit, each with where and when it ran, kept in order as
 * pairs are counted and rows merged, for `stats --slowest` and `report`. */
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "natural.h"
#include "xalloc.h"

/* Does X come before Y: more cycles per unit, then more cycles, then
 * earlier, then by path in natural order (the same order however the files were shared
 * among engines)? */
static int before(const struct an_slow *x, const struct an_slow *y)
{
	if (x->per_unit != y->per_unit)
		return x->per_unit > y->per_unit;
	if (x->cycles != y->cycles)
		return x->cycles > y->cycles;
	if (x->tsc0 != y->tsc0)
		return x->tsc0 < y->tsc0;
	return natural_cmp(x->path, y->path) < 0;
}

/* Inserts a copy of S into R's list of at most N, in order; the strings
 * are copied. */
static void insert(struct an_row *r, const struct an_slow *s, unsigned n)
{
	size_t k = r->nslow;
	if (!n || (k == n && !before(s, &r->slow[k - 1])))
		return;
	if (!r->slow)
		r->slow = xcalloc(n, sizeof *r->slow);
	if (k == n) {   /* the last one goes */
		k--;
		free(r->slow[k].process);
		free(r->slow[k].path);
		free(r->slow[k].host);
	} else {
		r->nslow++;
	}
	while (k > 0 && before(s, &r->slow[k - 1])) {
		r->slow[k] = r->slow[k - 1];
		k--;
	}
	r->slow[k] = *s;
	r->slow[k].process = xstrdup(s->process);
	r->slow[k].path = xstrdup(s->path);
	r->slow[k].host = s->host ? xstrdup(s->host) : NULL;
}

/* S's wall times from INFO's clock, when it places S in order: a header
 * whose anchor and frequency put a wall time past the ends of int64_t
 * (wrapped) has none to give, and a summary reader would call the pair
 * damaged (timeline-summary(5)). */
static void set_walls(struct an_slow *s, const tl_info *info)
{
	int64_t span;
	s->wall0 = tl_wall_ns(info, s->tsc0);
	s->wall1 = tl_wall_ns(info, s->tsc1);
	s->walls = !__builtin_sub_overflow(s->wall1, s->wall0, &span) && span >= 0;
	if (!s->walls)
		s->wall0 = s->wall1 = 0;
}

void slow_add(struct an *a, struct an_row *r, const tl_entry *e, double cycles, double units)
{
	struct an_slow s;
	uint64_t c = (uint64_t)cycles;
	double per_unit = cycles / units;
	/* most pairs are not among the slowest kept: they end here, before
	 * anything is built */
	if (r->nslow >= a->opts.slowest && (!r->nslow || per_unit < r->slow[r->nslow - 1].per_unit))
		return;
	memset(&s, 0, sizeof s);
	s.per_unit = per_unit;
	s.cycles = cycles;
	s.tsc1 = e->tsc;
	s.tsc0 = e->tsc - c;
	s.path = (char *)a->file.path;
	if (r->nslow >= a->opts.slowest && !before(&s, &r->slow[r->nslow - 1]))
		return;
	s.units = units;
	s.since0 = s.tsc0 >= a->first_tsc ? s.tsc0 - a->first_tsc : 0;
	s.since1 = s.tsc1 >= a->first_tsc ? s.tsc1 - a->first_tsc : 0;
	s.hz = a->file.tsc_hz;
	if (a->file.info && a->file.info->tsc_hz)
		set_walls(&s, a->file.info);
	cpu_numa(e, s.cpu, s.numa);
	s.process = (char *)a->file.process;
	insert(r, &s, a->opts.slowest);
}

void slow_merge(struct an_row *r, const struct an_row *f, unsigned n)
{
	for (size_t i = 0; i < f->nslow; i++)
		insert(r, &f->slow[i], n);
}

void slow_free(struct an_row *r)
{
	for (size_t i = 0; i < r->nslow; i++) {
		free(r->slow[i].process);
		free(r->slow[i].path);
		free(r->slow[i].host);
	}
	free(r->slow);
	r->slow = NULL;
	r->nslow = 0;
}

void an_row_slow(struct an *a, struct an_row *r, const struct an_slow *s)
{
	insert(r, s, a->opts.slowest);
}

unsigned an_slowest_kept(const struct an *a)
{
	if (a->slow_cap && a->slow_cap - 1 < a->opts.slowest)
		return a->slow_cap - 1;
	return a->opts.slowest;
}

void an_slowest_cap(struct an *a, unsigned n)
{
	if (!a->slow_cap || n < a->slow_cap - 1)
		a->slow_cap = n + 1;
}
