/* reportdata.c: the sections of `timeline report`, in order, and the data
 * behind each chart, taken from the engines as `stats` and `diff` take
 * theirs (the same rows, through the same tables), then handed to a
 * writer (HTML or JSON). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "natural.h"
#include "report.h"
#include "stats/rowkey.h"
#include "stats/statsout.h"
#include "view.h"
#include "xalloc.h"

const char *const rp_box_names[BOX_NV] = { "min", "p5",  "p25", "p50", "p75",
					   "p90", "p95", "p99", "max" };

/* A projection of engine E on KEYS (aborts out of memory). */
static struct an *project(const struct an *e, unsigned keys)
{
	struct an *a = an_project(e, keys);
	if (!a)
		abort();
	return a;
}

/* The rows of the two sides of a diff report, each side's engine projected
 * on the same keys, walked in key order (sides_next()). */
struct sides {
	struct an *e[2];
	struct an_row **rows[2];
	size_t n[2];                 /* each side's rows */
	size_t at[2];                /* ... and the first not yet walked */
};

/* W of the engines E[0] (A) and E[1] (B), projected on BY. */
static void sides_init(struct sides *w, struct an *const *e, unsigned by)
{
	for (int k = 0; k < 2; k++) {
		w->e[k] = project(e[k], by);
		w->rows[k] = an_rows(w->e[k], &w->n[k]);
		w->at[k] = 0;
	}
}

static void sides_free(struct sides *w)
{
	an_free(w->e[0]);
	an_free(w->e[1]);
}

/* The next group of W's rows that agree on the keys KEYS (both sides
 * sorted so, those of a group are together): side k's are [FROM[k],
 * TO[k]), none on a side without the group. Returns 0 when all are
 * walked. */
static int sides_next(struct sides *w, unsigned keys, size_t *from, size_t *to)
{
	int c;
	if (w->at[0] == w->n[0] && w->at[1] == w->n[1])
		return 0;
	c = w->at[0] == w->n[0] ? 1 : w->at[1] == w->n[1] ? -1 :
		an_row_cmp_keys(w->e[0], w->rows[0][w->at[0]], w->rows[1][w->at[1]], keys);
	for (int k = 0; k < 2; k++) {
		from[k] = to[k] = w->at[k];
		if (k ? c < 0 : c > 0)
			continue;
		while (to[k] < w->n[k] &&
		       !an_row_cmp_keys(w->e[k], w->rows[k][from[k]], w->rows[k][to[k]], keys))
			to[k]++;
		w->at[k] = to[k];
	}
	return 1;
}

/* The first row of the group FROM of W (A's if it has one). */
static const struct an_row *sides_row(const struct sides *w, const size_t *from, const size_t *to)
{
	return from[0] < to[0] ? w->rows[0][from[0]] : w->rows[1][from[1]];
}

/* The words of the report: the program's own when the logs declare its
 * breath (the loop, "kv.poll"), Snabb's otherwise (words_of()). */
static struct {
	const char *loop;            /* the breath's label, NULL: Snabb's breaths */
	const char *part;            /* what a share is of: "app", or "pair" */
	const char *rest;            /* a stack's rest: "(no app)", "(unattributed)" */
	char cycles[192];            /* whose cycles: "the breaths' cycles", "kv.poll's
				      * cycles" */
	char breaths[160];           /* the loop's turns: "breaths", "kv.poll pairs" */
	char each[96];               /* what a row is of: "pair and app", "pair and
				      * port", "pair" (no pair names an attribute) */
} W;

/* Sets W for IN: a declared breath (rowkey_breath()) gives its words; the
 * attribute its rows name, rowkey_attr()'s. */
static void words_of(const struct rp_input *in)
{
	struct an_options o = *in->o;
	size_t n, named = 0;
	struct an_row **rows = an_rows(in->e, &n);
	for (size_t i = 0; i < n && !named; i++)
		named = strcmp(rows[i]->key[AN_APP], "-") != 0;
	o.by = 1u << AN_EVENT | 1u << AN_APP;
	W.loop = rowkey_breath();
	W.part = W.loop ? "pair" : "app";
	W.rest = W.loop ? "(unattributed)" : "(no app)";
	snprintf(W.breaths, sizeof W.breaths, "%.150s%s", W.loop ? W.loop : "breaths",
		 W.loop ? " pairs" : "");
	if (W.loop && !named)
		snprintf(W.each, sizeof W.each, "pair");
	else
		snprintf(W.each, sizeof W.each, "pair and %.80s", W.loop ? rowkey_attr(in->e, &o) : "app");
	if (W.loop)
		snprintf(W.cycles, sizeof W.cycles, "%.150s's cycles", W.loop);
	else
		snprintf(W.cycles, sizeof W.cycles, "the breaths' cycles");
}

/* "cycles per packet" for the unit "packets". */
static void per_unit(char *buf, size_t size, const char *unit)
{
	size_t n = (size_t)snprintf(buf, size, "cycles per ");
	if (n < size)
		an_unit_singular(buf + n, size - n, unit);
}

/* "cycles per byte" for row R's own unit (a declared pair's), else for
 * DFLT (the report's). */
static void row_per(char *buf, size_t size, const struct an_row *r, const char *dflt)
{
	per_unit(buf, size, r && r->unit && strcmp(r->unit, "unit") ? r->unit : dflt);
}

/* C's section, id (made unique by its section), title and axes. */
static void chart(struct rp_chart *c, const char *section, const char *id, const char *title,
		  const char *x, const char *y)
{
	memset(c, 0, sizeof *c);
	c->section = section;
	snprintf(c->id, sizeof c->id, "%s-%s", section, id);
	for (char *p = c->id; *p; p++)   /* an id and a JSON key: no odd characters */
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9'))
			*p = '-';
	snprintf(c->title, sizeof c->title, "%s", title);
	snprintf(c->x, sizeof c->x, "%s", x ? x : "");
	snprintf(c->y, sizeof c->y, "%s", y ? y : "");
}

/* Row R's key (of engine E, grouped by O's keys) as words, leaving out
 * the "-" of a key it has none of (the breath's app), the attribute of a
 * pair declared by another name than app named (fwd.rx port=0), into BUF. */
static void row_name(const struct an *e, const struct an_options *o, const struct an_row *r,
		     char *buf, size_t size)
{
	char *cells[AN_NKEYS];
	int n = rowkey_cells(e, o, r, cells), app = rowkey_col(o, AN_APP);
	const char *by = o->by & 1u << AN_EVENT ? rowkey_by(r->key[AN_EVENT]) : "app";
	size_t len = 0;
	buf[0] = '\0';
	for (int k = 0; k < n && len < size; k++)
		if (strcmp(cells[k], "-"))
			len += (size_t)snprintf(buf + len, size - len, "%s%s%s%s", len ? " " : "",
						k == app && strcmp(by, "app") ? by : "",
						k == app && strcmp(by, "app") ? "=" : "", cells[k]);
}

/* ---- where the cycles go: stacked bars ----------------------------------- */

/* A list of apps and their cycles, added to by name. */
struct apps {
	const char **name;
	double *cycles;
	size_t n;
};

static void apps_add(struct apps *a, const char *name, double cycles)
{
	size_t i;
	for (i = 0; i < a->n && strcmp(a->name[i], name); i++)
		;
	if (i == a->n) {
		if (!(a->name = realloc(a->name, (a->n + 1) * sizeof *a->name)) ||
		    !(a->cycles = realloc(a->cycles, (a->n + 1) * sizeof *a->cycles)))
			abort();
		a->name[a->n] = name;
		a->cycles[a->n++] = 0;
	}
	a->cycles[i] += cycles;
}

/* Whether app I of A comes before app J in a stack: more cycles, or as
 * many and a name first in natural order. */
static int before(const struct apps *a, size_t i, size_t j)
{
	if (a->cycles[i] != a->cycles[j])
		return a->cycles[i] > a->cycles[j];
	return natural_cmp(a->name[i], a->name[j]) < 0;
}

/* Stack S of LABEL: BREATHS of CYCLES, apps A (taken) largest first, then
 * W.rest ("(no app)") with what they leave, as `stats` shows a process's
 * shares. */
static void make_stack(struct rp_stack *s, const char *label, uint64_t breaths, double cycles,
		       struct apps *a)
{
	double rest = cycles;
	memset(s, 0, sizeof *s);
	snprintf(s->label, sizeof s->label, "%s", label);
	s->breaths = breaths;
	s->cycles = cycles;
	/* largest first, ties in natural order of their names: the order of
	 * `stats --overhead` (statsout.c by_cycles), so page and table agree */
	for (size_t i = 1; i < a->n; i++)
		for (size_t j = i; j > 0 && before(a, j, j - 1); j--) {
			const char *n = a->name[j];
			double c = a->cycles[j];
			a->name[j] = a->name[j - 1];
			a->cycles[j] = a->cycles[j - 1];
			a->name[j - 1] = n;
			a->cycles[j - 1] = c;
		}
	for (size_t i = 0; i < a->n; i++)
		rest -= a->cycles[i];
	apps_add(a, W.rest, rest > 0 ? rest : 0);
	s->n = a->n;
	s->apps = a->name;
	s->app_cycles = a->cycles;
}

static void free_stacks(struct rp_stack *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].apps);
		free(s[i].app_cycles);
	}
	free(s);
}

/* One stack per file of E with breaths to share (as `stats` lists them);
 * *N gets how many. */
static struct rp_stack *process_stacks(const struct an *e, size_t *n)
{
	size_t nb;
	const struct an_breaths *b = an_breath_list(e, &nb);
	struct rp_stack *s = xcalloc(nb, sizeof *s);
	*n = 0;
	for (size_t i = 0; i < nb; i++) {
		struct apps a = { NULL, NULL, 0 };
		if (!b[i].share_breaths || !(b[i].share_cycles > 0))
			continue;
		for (size_t k = 0; k < b[i].nshares; k++)
			apps_add(&a, b[i].shares[k].app, b[i].shares[k].cycles);
		make_stack(&s[(*n)++], b[i].process, b[i].share_breaths, b[i].share_cycles, &a);
	}
	return s;
}

/* One stack per group of the files of E (ONE: one of them all), in the
 * order of their first file, labelled "group NAME" (one group: "all
 * processes"); *N gets how many. */
static struct rp_stack *group_stacks(const struct an *e, int one, size_t *n)
{
	size_t nb, ng = 0;
	const struct an_breaths *b = an_breath_list(e, &nb);
	struct { const char *group; uint64_t breaths; double cycles; struct apps a; } *g = NULL;
	struct rp_stack *s;
	for (size_t i = 0; i < nb; i++) {
		size_t j;
		if (!b[i].share_breaths || !(b[i].share_cycles > 0))
			continue;
		for (j = 0; j < ng && !one && strcmp(g[j].group, b[i].group); j++)
			;
		if (j == ng) {
			if (!(g = realloc(g, (ng + 1) * sizeof *g)))
				abort();
			memset(&g[ng++], 0, sizeof *g);
			g[j].group = b[i].group;
		}
		g[j].breaths += b[i].share_breaths;
		g[j].cycles += b[i].share_cycles;
		for (size_t k = 0; k < b[i].nshares; k++)
			apps_add(&g[j].a, b[i].shares[k].app, b[i].shares[k].cycles);
	}
	s = xcalloc(ng, sizeof *s);
	for (size_t j = 0; j < ng; j++) {
		char label[160];
		snprintf(label, sizeof label, ng == 1 ? "all processes" : "group %s", g[j].group);
		make_stack(&s[j], label, g[j].breaths, g[j].cycles, &g[j].a);
	}
	*n = ng;
	free(g);
	return s;
}

/* The breaths of one CPU or node, and their apps. */
struct place {
	char key[16];
	uint64_t breaths;
	double cycles;
	struct apps a;
};

/* CPUs or nodes X and Y in order: by number (natural.h), "?" (unknown)
 * after every number. */
static int by_key(const void *x, const void *y)
{
	return natural_cmp(((const struct place *)x)->key, ((const struct place *)y)->key);
}

/* The stacks S[0] of A (N[0] of them) and S[1] of B, both labelled "WORD
 * NUMBER" in order (where_stacks()), together in that order, A's before
 * B's of the same place, each with its side; *NA gets how many. They
 * share S's apps: free S only. */
static struct rp_stack *side_stacks(struct rp_stack *const *s, const size_t *n, size_t *na)
{
	struct rp_stack *all = xcalloc(n[0] + n[1] + 1, sizeof *all);
	size_t i[2] = { 0, 0 };
	*na = 0;
	while (i[0] < n[0] || i[1] < n[1]) {
		int k = i[0] == n[0] ? 1 : i[1] == n[1] ? 0 :
			natural_cmp(strchr(s[0][i[0]].label, ' ') + 1, strchr(s[1][i[1]].label, ' ') + 1) > 0;
		all[*na] = s[k][i[k]++];
		all[(*na)++].side = k ? "B" : "A";
	}
	return all;
}

/* The stacks S[0] of A (N[0] of them) and S[1] of B (each freed here,
 * not their apps) as one list, A's then B's, each with its side; *NA gets
 * how many. Free it with free_stacks(). */
static struct rp_stack *sides_after(struct rp_stack *const *s, const size_t *n, size_t *na)
{
	struct rp_stack *all = xcalloc(n[0] + n[1] + 1, sizeof *all);
	*na = 0;
	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; i < n[k]; i++) {
			all[*na] = s[k][i];
			all[(*na)++].side = k ? "B" : "A";
		}
		free(s[k]);
	}
	return all;
}

/* One stack per CPU (NUMA set: per node) over the files of E, from each
 * file's split of its breaths by CPU, in order; *N gets how many. */
static struct rp_stack *where_stacks(const struct an *e, int numa, size_t *n)
{
	size_t nb, nk = 0;
	const struct an_breaths *b = an_breath_list(e, &nb);
	struct place *k = NULL;
	struct rp_stack *s;
	for (size_t i = 0; i < nb; i++)
		for (size_t w = 0; w < b[i].nwhere; w++) {
			const struct an_where *wh = &b[i].where[w];
			const char *key = numa ? wh->numa : wh->cpu;
			size_t j;
			for (j = 0; j < nk && strcmp(k[j].key, key); j++)
				;
			if (j == nk) {
				if (!(k = realloc(k, (nk + 1) * sizeof *k)))
					abort();
				memset(&k[nk++], 0, sizeof *k);
				snprintf(k[j].key, sizeof k[j].key, "%s", key);
			}
			k[j].breaths += wh->breaths;
			k[j].cycles += wh->cycles;
			for (size_t x = 0; x < wh->napps; x++)
				apps_add(&k[j].a, b[i].shares[x].app, wh->apps[x]);
		}
	if (nk)
		qsort(k, nk, sizeof *k, by_key);
	s = xcalloc(nk, sizeof *s);
	for (size_t j = 0; j < nk; j++) {
		char label[48];
		snprintf(label, sizeof label, "%s %s", numa ? "node" : "cpu", k[j].key);
		make_stack(&s[j], label, k[j].breaths, k[j].cycles, &k[j].a);
	}
	*n = nk;
	free(k);
	return s;
}

/* ---- tables -------------------------------------------------------------- */

/* The share of the breaths' cycles of APP in stack S, NaN if not there. */
static double share_in(const struct rp_stack *s, const char *app)
{
	for (size_t i = 0; i + 1 < s->n; i++)
		if (!strcmp(s->apps[i], app))
			return 100 * s->app_cycles[i] / s->cycles;
	return NAN;
}

/* The share% of pairs LABEL of attribute value APP in stack ST (NaN: no
 * stack, or a pair of no share, as a breath). */
static double pair_share(const struct rp_stack *st, const char *label, const char *app)
{
	char name[512];
	return st && rowkey_share_name(name, sizeof name, label, app) >= 0 ? share_in(st, name) : NAN;
}

/* The rows of `stats --per` over E (grouped by O's keys; when the pairs'
 * units differ, as `stats` gives the declared pairs, a column unit and
 * each in its own) with, after the keys, the pair's share% of the
 * breaths' cycles in the stack of the row's KEY (AN_GROUP, AN_NUMA,
 * AN_CPU: the stack labelled "WORD VALUE"; AN_NKEYS: the one stack S[0]). */
static struct table *per_table(struct an *e, const struct an_options *o, int format,
			       const struct rp_stack *s, size_t ns, int key)
{
	char title[128];
	struct table *per = strcmp(o->per, "unit") ?
		statsout_per(e, o, title, sizeof title, format, 0) :
		statsout_declared(e, o, NULL, title, sizeof title, format, 0), *t;
	const char *cols[64];
	int nc = table_cols(per), app = rowkey_col(o, AN_APP), ev = rowkey_col(o, AN_EVENT);
	int kc = key == AN_NKEYS ? -1 : rowkey_col(o, key), at = -1;   /* share% goes before
									  * column AT */
	for (int c = 0, k = 0; c < nc; c++) {
		if (!strcmp(table_col(per, c), "pairs"))
			at = c;
		if (c == at)
			cols[k++] = "share%";
		cols[k++] = table_col(per, c);
	}
	t = rowkey_table("per", o, cols, nc + 1);
	for (size_t r = 0; r < table_rows(per); r++) {
		char *cells[64], share[32];
		const struct rp_stack *st = NULL;
		for (size_t i = 0; i < ns && kc >= 0; i++)
			if (!strcmp(s[i].label + strcspn(s[i].label, " ") + 1, table_cell(per, r, kc)))
				st = &s[i];
		if (key == AN_NKEYS && ns)
			st = &s[0];
		cell_value(share, sizeof share, app >= 0 && ev >= 0 ?
			   pair_share(st, table_cell(per, r, ev), table_cell(per, r, app)) : NAN, format);
		for (int c = 0, k = 0; c < nc; c++) {
			if (c == at)
				cells[k++] = share;
			cells[k++] = (char *)table_cell(per, r, c);
		}
		table_add(t, cells);
	}
	table_free(per);
	return t;
}

/* How many of IN's inputs were summaries, which keep no bins over time,
 * lags or per-CPU shares. */
static size_t summaries(const struct rp_input *in)
{
	size_t n = 0;
	for (size_t i = 0; i < in->nfiles; i++)
		n += in->files[i].summary != 0;
	return n;
}

/* The side of file F in a report of two sides: "A" when it fed A's
 * comparison engine, else "B". */
static char *side_of(const struct rp_input *in, const struct readall_file *f)
{
	return f->engine == in->fed[0] ? "A" : "B";
}

/* The table of the files read: process, host, group, span, rate, entries;
 * in a report of two sides, each file's side first. */
static struct table *inputs_table(const struct rp_input *in, int format)
{
	static const char *const cols[] = { "side", "process", "host", "group", "span_s",
					     "span_cycles", "rate", "entries", "read", "wrapped",
					     "skipped", "path" };
	int two = in->cmp != NULL;
	struct table *t = table_new("inputs", cols + !two, 11 + two);
	table_words(t, 5 + two);   /* the rate: "2" as ls -f json gives it, beside "all" */
	table_words(t, 2 + two);   /* the group: a label, "2026" too */
	for (size_t i = 0; i < in->nfiles; i++) {
		const struct readall_file *f = &in->files[i];
		const tl_info *info = &f->info;
		int native = info->format == TL_FORMAT_NATIVE;
		uint64_t span = f->kept ? f->last - f->first : 0;
		char v[7][32], *c[12], **cells = c + two;
		cell_value(v[0], 32, info->tsc_hz ? (double)span / (double)info->tsc_hz : NAN, format);
		snprintf(v[1], 32, "%llu", (unsigned long long)span);
		if (native)
			tl_rate_name(v[2], 32, info->rate, info->rate_fixed);
		else
			snprintf(v[2], 32, "-");
		snprintf(v[3], 32, "%llu", (unsigned long long)f->kept);
		snprintf(v[4], 32, "%llu", (unsigned long long)f->read);
		if (native)
			snprintf(v[5], 32, "%llu", (unsigned long long)(info->cursor > info->entries ?
									 info->cursor - info->entries : 0));
		else
			snprintf(v[5], 32, "-");
		snprintf(v[6], 32, "%llu", (unsigned long long)f->skipped);
		if (f->summary)   /* what it counted is in the rows; its logs are not here */
			for (int k = 0; k < 7; k++)
				snprintf(v[k], 32, "-");
		native &= !f->summary;
		cells[0] = f->label;
		cells[1] = native ? (char *)info->host : "-";
		cells[2] = f->group;
		for (int k = 0; k < 7; k++)
			cells[3 + k] = v[k];
		cells[10] = f->path;
		if (two)
			c[0] = side_of(in, f);
		table_add(t, c);
	}
	return t;
}

/* ---- the sections -------------------------------------------------------- */

/* A section's ABOUT, and in a report of two sides SIDES after it, into BUF. */
static const char *about(char *buf, size_t size, const struct rp_input *in, const char *about,
			 const char *sides)
{
	snprintf(buf, size, "%s%s%s", about, in->sides[0] ? " " : "", in->sides[0] ? sides : "");
	return buf;
}

/* The table T[0] of A and T[1] of B (each keyed by O's keys) as one, a
 * column "side" first. */
static struct table *side_table(struct table *const *t, const struct an_options *o)
{
	const char *cols[65] = { "side" };
	int nc = table_cols(t[0]);
	struct table *all;
	for (int c = 0; c < nc && c < 64; c++)
		cols[c + 1] = table_col(t[0], c);
	all = table_new("per", cols, nc + 1);
	rowkey_words(all, o, 1);
	for (int k = 0; k < 2; k++)
		for (size_t r = 0; r < table_rows(t[k]); r++) {
			char *cells[65] = { k ? "B" : "A" };
			for (int c = 0; c < nc && c < 64; c++)
				cells[c + 1] = (char *)table_cell(t[k], r, c);
			table_add(all, cells);
		}
	return all;
}

/* ---- the summary of two sides -------------------------------------------- */

/* Diff's comparison of the group of pair EVENT and app APP in C (its
 * change and verdict), when C groups by pair and app alone; NULL when it
 * has no such group or groups by other keys. */
static const struct cmp *cmp_of(const struct comparison *c, const char *event, const char *app)
{
	if ((c->o->by & ~(1u << AN_RUN)) != (1u << AN_EVENT | 1u << AN_APP))
		return NULL;
	for (size_t i = 0; i < c->ncmp; i++) {
		const struct an_row *r = c->cmp[i].s[0].row;
		if (!strcmp(r->key[AN_EVENT], event) && !strcmp(r->key[AN_APP], app))
			return &c->cmp[i];
	}
	return NULL;
}

/* The column names of side_apps(): NAME_a and NAME_b into COLS[0] and
 * [1] (in BUF, 2 x 64 bytes). */
static void side_cols(const char **cols, char *buf, const char *name)
{
	snprintf(buf, 64, "%.61s_a", name);
	snprintf(buf + 64, 64, "%.61s_b", name);
	cols[0] = buf;
	cols[1] = buf + 64;
}

/* The values of side_apps() of row R (NULL: the side has no such row),
 * its app's share% S of its side's breaths: cycles per unit, share%,
 * pairs, units, p50, p99 (NaN: none). */
static void side_values(const struct an_row *r, double share, double *v)
{
	v[0] = r && r->units > 0 ? r->cycles / r->units : NAN;
	v[1] = r ? share : NAN;
	v[2] = r ? (double)r->h.n : NAN;
	v[3] = r ? r->units : NAN;
	v[4] = r && r->h.n ? hist_quantile(&r->h, 0.5) : NAN;
	v[5] = r && r->h.n ? hist_quantile(&r->h, 0.99) : NAN;
}

/* The table of cycles per unit of each pair and app of IN, A and B side
 * by side as `stats --per` gives each: after the keys, cycles per unit of
 * A and of B, diff's change in % and verdict on the group (cmp_of(): the
 * change over the runs' values that the verdict judges, as diff prints
 * it, not the ratio of the two columns before it; "A only" or "B only"
 * for a group of one side; else none), then share% of the side's
 * breaths' cycles (its stack in S, of two, A's and B's), pairs, units,
 * p50 and p99 of each. */
static struct table *side_apps(const struct rp_input *in, int format, const struct rp_stack *s,
			       size_t ns)
{
	static const char *const names[6] = { NULL, "share%", "pairs", NULL, "p50", "p99" };
	unsigned by = 1u << AN_EVENT | 1u << AN_APP;
	struct an_options o = *in->o;
	struct sides w;
	size_t from[2], to[2];
	const char *cols[AN_NKEYS + 17];
	char buf[6][128], per[64];
	int nk, mixed = !strcmp(in->o->per, "unit");   /* each pair in its own: which */
	struct table *t;
	o.by = by;
	nk = rowkey_names(in->sides[0], &o, cols);
	if (mixed)
		cols[nk++] = "unit";
	an_cycles_per(per, sizeof per, in->o->per);
	for (int k = 0, c = nk; k < 6; k++, c += 2) {
		side_cols(cols + c, buf[k], k == 0 ? per : k == 3 ? mixed ? "units" : in->o->per :
			  names[k]);
		if (k == 0) {   /* the headline: then the change and the verdict */
			cols[c + 2] = "change%";
			cols[c + 3] = "verdict";
			c += 2;
		}
	}
	t = rowkey_table("per", &o, cols, nk + 14);
	sides_init(&w, in->sides, by);
	while (sides_next(&w, by, from, to)) {
		const struct an_row *r[2] = { from[0] < to[0] ? w.rows[0][from[0]] : NULL,
					      from[1] < to[1] ? w.rows[1][from[1]] : NULL };
		char *cells[AN_NKEYS + 17], v[14][32];
		double x[2][6];
		const struct cmp *m = r[0] && r[1] ?
			cmp_of(in->cmp, r[0]->key[AN_EVENT], r[0]->key[AN_APP]) : NULL;
		const char *verdict = !r[0] ? "B only" : !r[1] ? "A only" : m ? m->verdict : "-";
		const struct an_row *one = sides_row(&w, from, to);
		int c = rowkey_cells(w.e[0], &o, one, cells);
		if (mixed)
			cells[c++] = one->unit ? one->unit : "-";
		for (int k = 0; k < 2; k++) {
			const struct rp_stack *st = NULL;
			for (size_t i = 0; i < ns; i++)
				if (!strcmp(s[i].side, k ? "B" : "A"))
					st = &s[i];
			side_values(r[k], r[k] ? pair_share(st, r[k]->key[AN_EVENT], r[k]->key[AN_APP]) :
				    NAN, x[k]);
		}
		for (int k = 0, j = 0; k < 6; k++) {
			cell_value(v[j], 32, x[0][k], format);
			cells[c++] = v[j++];
			cell_value(v[j], 32, x[1][k], format);
			cells[c++] = v[j++];
			if (k == 0) {
				if (m)
					compare_change(v[12], m, format);
				else
					snprintf(v[12], 32, "-");
				cells[c++] = v[12];
				cells[c++] = (char *)verdict;
			}
		}
		table_add(t, cells);
	}
	sides_free(&w);
	return t;
}

/* The slowest pairs of each pair and app of each side of IN, A's rows
 * then B's, a column side first; NULL when neither side has any. */
static struct table *side_slowest(const struct rp_input *in, int format)
{
	struct an_options o = *in->o;
	struct table *t[2], *all;
	o.by = 1u << AN_EVENT | 1u << AN_APP;
	for (int k = 0; k < 2; k++) {
		struct an *e = project(in->sides[k], o.by);
		t[k] = statsout_slowest(e, &o, format);
		an_free(e);
	}
	all = table_rows(t[0]) + table_rows(t[1]) ? side_table(t, &o) : NULL;
	table_free(t[0]);
	table_free(t[1]);
	return all;
}

/* Why the summary has no bar of shares (WHERE: " on either side", or
 * ""), into BUF. */
static const char *no_shares(char *buf, size_t size, const char *where)
{
	if (W.loop)
		snprintf(buf, size, "No %s held a pair%s: no shares of %s.", W.loop, where, W.cycles);
	else
		snprintf(buf, size, "No breath held an app pair (breath_start, then an app's begin and "
			 "end, then breath_end)%s: no shares of the breaths' cycles.", where);
	return buf;
}

/* The summary of a report of two sides: the inputs with their sides, a
 * bar of each side's breaths, all its processes together, the table of
 * side_apps(), then the slowest pairs of each side. */
static void side_summary(const struct rp_out *out, const struct rp_input *in)
{
	struct rp_stack *g[2];
	size_t n[2], ns;
	struct rp_stack *s;
	struct rp_chart c;
	struct table *t;
	char per[64], title[512], x[256];
	char text[1280];
	int sums = 0;
	for (size_t i = 0; i < in->nfiles; i++)
		sums += in->files[i].summary;
	per_unit(per, sizeof per, in->o->per);
	snprintf(text, sizeof text, "The inputs and their sides; where the cycles go, a bar of A's "
		 "%s and one of B's, each of its side's processes together; then each pair's "
		 "cycles per unit as `stats --per` gives them over A and over B, side by side, with "
		 "the change from A to B and the verdict of the A against B section, and the %s's "
		 "share of the cycles of its side's %s; then the slowest pairs of each side, "
		 "each with the dump command that shows it. The change and the verdict are "
		 "`timeline diff`'s: both come from the runs' values (a run's median, relative to "
		 "the run's speed unless --absolute), not from the cycles per unit beside them, "
		 "which pool each side's pairs, so the change may differ from their ratio; "
		 "neither is given when --by groups the comparison by other keys.%s", W.breaths,
		 W.part, W.breaths, sums ?
		 " Summaries among the inputs count in the A against B section only: this "
		 "section and the ones after it show the logs alone." : "");
	out->section(out, "summary", "Summary", text);
	t = inputs_table(in, out->format);
	chart(&c, "summary", "inputs", "inputs: the logs read, and their sides", NULL, NULL);
	out->table(out, &c, t);
	table_free(t);
	for (int k = 0; k < 2; k++)
		g[k] = group_stacks(in->sides[k], 1, &n[k]);
	s = sides_after(g, n, &ns);
	snprintf(x, sizeof x, "share of %s (%%)", W.cycles);
	chart(&c, "summary", "share", "where the cycles go, A and B apart", x, NULL);
	if (ns)
		out->stacks(out, &c, s, ns);
	else
		out->note(out, no_shares(text, sizeof text, " on either side"));
	t = side_apps(in, out->format, s, ns);
	snprintf(title, sizeof title, "%s per begin/end pair, A and B side by side, and each %s's "
		 "share of its side's %s", per, W.part, W.cycles);
	chart(&c, "summary", "apps", title, NULL, NULL);
	out->table(out, &c, t);
	table_free(t);
	free_stacks(s, ns);
	if (!in->o->slowest)
		return;
	t = side_slowest(in, out->format);
	snprintf(title, sizeof title, "the %u slowest pairs of each %s (%s) of each side, "
		 "and the timeline dump command that shows each", in->o->slowest, W.each, per);
	chart(&c, "summary", "slowest", title, NULL, NULL);
	if (t)
		out->table(out, &c, t);
	else
		out->note(out, "No pair moved a unit: no slowest pairs (summaries do not keep them).");
	table_free(t);
}

static void summary(const struct rp_out *out, const struct rp_input *in)
{
	struct rp_chart c;
	size_t ng;
	struct rp_stack *g;
	struct an_options o = *in->o;
	struct an *ea;
	struct table *t;
	char per[64], title[512], text[1024], x[256];
	if (in->sides[0]) {
		side_summary(out, in);
		return;
	}
	g = group_stacks(in->e, 0, &ng);
	per_unit(per, sizeof per, in->o->per);
	snprintf(text, sizeof text, "The inputs; where the cycles go over all of them; then each "
		 "pair's cycles per unit as `stats --per` gives them, with its %s's share of the "
		 "cycles of the %s it ran in (per group when the inputs have several); then the "
		 "slowest pairs, each with the dump command that shows it.", W.part,
		 W.breaths);
	out->section(out, "summary", "Summary", text);
	t = inputs_table(in, out->format);
	chart(&c, "summary", "inputs", "inputs: the logs read", NULL, NULL);
	out->table(out, &c, t);
	table_free(t);
	snprintf(x, sizeof x, "share of %s (%%)", W.cycles);
	chart(&c, "summary", "share", "where the cycles go, all processes together", x,
	      ng > 1 ? "group" : NULL);
	if (ng)
		out->stacks(out, &c, g, ng);
	else
		out->note(out, no_shares(text, sizeof text, ""));
	o.by = 1u << AN_EVENT | 1u << AN_APP | (ng > 1 ? 1u << AN_GROUP : 0);
	ea = project(in->e, o.by);
	t = per_table(ea, &o, out->format, g, ng, ng > 1 ? AN_GROUP : AN_NKEYS);
	snprintf(title, sizeof title, "%s per begin/end pair, and each %s's share of %s", per,
		 W.part, W.cycles);
	chart(&c, "summary", "apps", title, NULL, NULL);
	out->table(out, &c, t);
	table_free(t);
	if (in->o->slowest) {   /* as stats --slowest: per pair and app */
		o.by = 1u << AN_EVENT | 1u << AN_APP;
		an_free(ea);
		ea = project(in->e, o.by);
		t = statsout_slowest(ea, &o, out->format);
		snprintf(title, sizeof title, "the %u slowest pairs of each %s (%s), and "
			 "the timeline dump command that shows each", in->o->slowest, W.each, per);
		chart(&c, "summary", "slowest", title, NULL, NULL);
		if (table_rows(t))
			out->table(out, &c, t);
		else
			out->note(out, "No pair moved a unit: no slowest pairs (summaries made before "
				  "summary format 1.2 do not keep them).");
		table_free(t);
	}
	free_stacks(g, ng);
	an_free(ea);
}

/* The explanation of where the cycles go, in the program's terms, into
 * BUF: of a declared breath, its pairs by self cycles and its own as
 * unattributed; of Snabb's, the apps and what no app accounts for. */
static const char *cycles_about(char *buf, size_t size)
{
	if (W.loop)
		snprintf(buf, size, "Per process, where the cycles of each %s (the program's loop, "
			 "its breath) go: each pair that ran inside it by its self cycles (its "
			 "cycles less those of the pairs it holds, so that every cycle counts once), "
			 "and the %s's own cycles, outside any pair, as unattributed.", W.loop, W.loop);
	else
		snprintf(buf, size, "Per process, each app's share of the cycles of the breaths it "
			 "ran in, and the share no app accounts for (the engine itself, and the "
			 "logging), as `stats --per` leads with.");
	return buf;
}

/* Why there are no shares to show, into BUF. */
static const char *none_held(char *buf, size_t size)
{
	if (W.loop)
		snprintf(buf, size, "No %s held a pair: nothing to share out.", W.loop);
	else
		snprintf(buf, size, "No breath held an app pair: nothing to share out.");
	return buf;
}

static void cycles(const struct rp_out *out, const struct rp_input *in)
{
	struct rp_chart c;
	size_t n;
	struct rp_stack *s;
	char buf[1024], what[512], title[512], x[256];
	if (in->sides[0]) {   /* A's processes, then B's */
		struct rp_stack *g[2];
		size_t ng[2];
		for (int k = 0; k < 2; k++)
			g[k] = process_stacks(in->sides[k], &ng[k]);
		s = sides_after(g, ng, &n);
	} else {
		s = process_stacks(in->e, &n);
	}
	out->section(out, "cycles", "Where the cycles go",
		     about(buf, sizeof buf, in, cycles_about(what, sizeof what), "A and B "
			   "apart: the bars of A's processes, then those of B's, each lettered with "
			   "its side."));
	snprintf(title, sizeof title, "each %s's share of %s, per process%s", W.part, W.cycles,
		 in->sides[0] ? ", A and B apart" : "");
	snprintf(x, sizeof x, "share of %s (%%)", W.cycles);
	chart(&c, "cycles", "processes", title, x, "process");
	if (n)
		out->stacks(out, &c, s, n);
	else
		out->note(out, none_held(what, sizeof what));
	free_stacks(s, n);
}

int report_has_totals(const struct an_timeline *t)
{
	for (size_t i = 0; i < t->nbins; i++)
		if (t->cycles[i] > 0)
			return 1;
	return 0;
}

double report_time_unit(const struct an_timeline *t, const char **name)
{
	static const char *const secs[] = { "s", "ms", "us" }, *const cycles[] = { "Gcycles", "Mcycles",
										   "kcycles" };
	double unit = t->hz ? (double)t->hz : 1e9;
	int k = 0;
	while (k < 2 && (double)t->span < unit) {
		unit /= 1000;
		k++;
	}
	*name = t->hz ? secs[k] : cycles[k];
	return unit;
}

/* The file timeline T was read from (NULL: none). */
static const struct readall_file *time_file(const struct rp_input *in,
					    const struct an_timeline *t)
{
	for (size_t i = 0; i < in->nfiles; i++)
		if (in->files[i].order == t->order)
			return &in->files[i];
	return NULL;
}

/* The unit the pairs LABEL are counted in among E's rows (a declared
 * pair's own), or NULL when none says (the report's unit then). */
static const char *unit_of(struct an *e, const char *label)
{
	size_t n;
	struct an_row **rows = an_rows(e, &n);
	for (size_t i = 0; i < n; i++)
		if (rows[i]->unit && strcmp(rows[i]->unit, "unit") &&
		    !strcmp(rows[i]->key[AN_EVENT], label))
			return rows[i]->unit;
	return NULL;
}

/* What the over-time charts show, in the program's terms, into BUF. */
static const char *time_about(char *buf, size_t size)
{
	if (W.loop)
		snprintf(buf, size, "Per process, on one time axis: each pair's cycles per unit "
			 "(its own) binned in time, the median line and the 25-75 and 5-95 "
			 "percentile ribbons of each bin, and the units each %s moved. A bin far "
			 "above the others (a stall) is drawn at the axis's top, marked with its "
			 "value. A log frozen by its flight recorder (timeline arm) has its "
			 "trigger marked: a red band from the slow pair's begin to its end. Hover "
			 "for a bin's values.", W.loop);
	else
		snprintf(buf, size, "Per process, on one time axis: each pair's cycles per unit "
			 "binned in time, the median line and the 25-75 and 5-95 percentile "
			 "ribbons of each bin; the breaths' units per breath; and the throughput "
			 "from the breaths' running totals. A bin far above the others (a stall) "
			 "is drawn at the axis's top, marked with its value. A log frozen by its "
			 "flight recorder (timeline arm) has its trigger marked: a red band from "
			 "the slow pair's begin to its end. Hover for a bin's values.");
	return buf;
}

static void over_time(const struct rp_out *out, const struct rp_input *in)
{
	size_t n;
	const struct an_timeline *t = an_timelines(in->e, &n);
	char buf[1024], what[768];
	out->section(out, "time", "Over time",
		     about(buf, sizeof buf, in, time_about(what, sizeof what),
			   "A process is of one side: A's charts, then B's, each lettered with "
			   "its side in its side's colour, A blue and B red."));
	for (size_t i = 0; i < n; i++) {
		struct rp_chart c;
		const struct readall_file *f = time_file(in, &t[i]);
		/* a report of two sides: the side of the file it was read from */
		struct rp_time rt = { &t[i], in->o->per, in->cmp && f ? side_of(in, f) : NULL, NULL,
				      W.loop, NULL, NULL };
		char id[32], title[256], x[64];
		const char *unit;
		if (f && f->trigger.kind) {   /* the flight recorder's trigger, marked */
			rt.trigger = &f->trigger;
			rt.trigger_text = f->trigger_text;
		}
		snprintf(id, sizeof id, "p%zu", i);
		const char *base = strrchr(t[i].path, '/') ? strrchr(t[i].path, '/') + 1 : t[i].path;
		snprintf(title, sizeof title, "%.100s (%.100s, group %.40s)", t[i].process, base,
			 t[i].group);
		report_time_unit(&t[i], &unit);
		snprintf(x, sizeof x, "time since the first entry (%s)", unit);
		chart(&c, "time", id, title, x, NULL);
		rt.units = xcalloc(t[i].ns + 1, sizeof *rt.units);
		for (size_t k = 0; k < t[i].ns; k++)
			rt.units[k] = unit_of(in->e, t[i].s[k].label);
		out->time(out, &c, &rt);
		free(rt.units);
	}
	if (summaries(in))
		out->note(out, "Summaries keep no bins over time: the logs summarized have no "
			  "panels here; give the logs themselves for them.");
	else if (!n)
		out->note(out, "No begin/end pair and no breath in the inputs.");
}

/* The rp_hist of H, labelled LABEL, median P50. */
static void make_hist(struct rp_hist *r, const struct hist *h, const char *label, double p50)
{
	memset(r, 0, sizeof *r);
	snprintf(r->label, sizeof r->label, "%.63s", label);
	r->n = h->n;
	r->zeros = h->zeros;
	r->p50 = p50;
	report_hbins(h, &r->bins, &r->nbins);
}

/* The distributions of a diff report: per pair and app, A and B apart,
 * each as a share of its side's pairs (groups of one side alone too). */
static void side_distributions(const struct rp_out *out, const struct rp_input *in)
{
	unsigned by = 1u << AN_EVENT | 1u << AN_APP;
	struct an_options o = *in->cmp->o;
	struct sides w;
	size_t from[2], to[2], id = 0;
	char per[64], x[96], text[512];
	o.by = by;
	per_unit(per, sizeof per, in->o->per);
	snprintf(x, sizeof x, "%s (cycles, log scale)", per);
	snprintf(text, sizeof text, "Per %s, how many pairs took how many cycles per unit, A and "
		 "B apart, each as a share of its own side's pairs, on a log axis (8 bins per "
		 "power of two), with the cumulative share of each.", W.each);
	out->section(out, "dist", "Distributions", text);
	sides_init(&w, in->cmp->e, by);
	while (sides_next(&w, by, from, to)) {   /* a row of each side, or of one */
		const struct an_row *r[2] = { from[0] < to[0] ? w.rows[0][from[0]] : NULL,
					      from[1] < to[1] ? w.rows[1][from[1]] : NULL };
		struct rp_hist h[2];
		struct rp_chart ch;
		char key[256], title[400], cid[32];
		size_t nh = 0;
		row_name(w.e[0], &o, sides_row(&w, from, to), key, sizeof key);
		row_per(per, sizeof per, sides_row(&w, from, to), in->o->per);
		snprintf(x, sizeof x, "%s (cycles, log scale)", per);
		snprintf(title, sizeof title, "%.200s: %.60s (A %llu pairs, B %llu pairs)", key, per,
			 (unsigned long long)(r[0] ? r[0]->h.n : 0),
			 (unsigned long long)(r[1] ? r[1]->h.n : 0));
		for (int k = 0; k < 2; k++)
			if (r[k] && r[k]->h.n)
				make_hist(&h[nh++], &r[k]->h, k ? "B" : "A", hist_quantile(&r[k]->h, 0.5));
		if (nh) {
			snprintf(cid, sizeof cid, "%zu", id++);
			chart(&ch, "dist", cid, title, x, nh > 1 ? "pairs (% of the side's)" : "pairs (count)");
			out->hists(out, &ch, h, nh);
		}
		for (size_t k = 0; k < nh; k++)
			free(h[k].bins);
	}
	sides_free(&w);
}

static void distributions(const struct rp_out *out, const struct rp_input *in)
{
	struct an_options o = *in->o;
	struct an *ea = project(in->e, 1u << AN_EVENT | 1u << AN_APP);
	size_t n;
	struct an_row **rows = an_rows(ea, &n);
	char per[64], x[96], text[512];
	per_unit(per, sizeof per, in->o->per);
	snprintf(x, sizeof x, "%s (cycles, log scale)", per);
	o.by = 1u << AN_EVENT | 1u << AN_APP;
	snprintf(text, sizeof text, "Per %s, how many pairs took how many cycles per unit, on a "
		 "log axis (8 bins per power of two), with the cumulative share.", W.each);
	out->section(out, "dist", "Distributions", text);
	for (size_t i = 0; i < n; i++) {
		struct rp_chart c;
		struct rp_hist h;
		char key[256], title[320];
		if (!rows[i]->h.n)
			continue;
		char id[32];
		row_per(per, sizeof per, rows[i], in->o->per);
		snprintf(x, sizeof x, "%s (cycles, log scale)", per);
		row_name(ea, &o, rows[i], key, sizeof key);
		snprintf(title, sizeof title, "%.200s: %.60s (%llu pairs)", key, per,
			 (unsigned long long)rows[i]->h.n);
		snprintf(id, sizeof id, "%zu", i);
		chart(&c, "dist", id, title, x, "pairs (count)");
		make_hist(&h, &rows[i]->h, key, hist_quantile(&rows[i]->h, 0.5));
		out->hists(out, &c, &h, 1);
		free(h.bins);
	}
	an_free(ea);
}

/* The box of H, labelled LABEL. */
static void make_box(struct rp_box *b, const struct hist *h, const char *label)
{
	static const double q[] = { 0.05, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99 };
	memset(b, 0, sizeof *b);
	snprintf(b->label, sizeof b->label, "%s", label);
	b->n = h->n;
	b->v[BOX_MIN] = h->min;
	b->v[BOX_MAX] = h->max;
	for (int k = 0; k < 7; k++)
		b->v[BOX_P5 + k] = hist_quantile(h, q[k]);
}

/* The boxes of the group [FROM, TO) of W (sides_next()) into B, in key
 * order, A's before B's of the same key, each labelled by its key K
 * (AN_BUCKET: its range) and its side; N[s] gets side s's values. Rows
 * without values give none. Returns how many. */
static size_t side_boxes(const struct sides *w, const size_t *from, const size_t *to, int k,
			 struct rp_box *b, uint64_t *n)
{
	size_t i[2] = { from[0], from[1] }, nb = 0;
	n[0] = n[1] = 0;
	while (i[0] < to[0] || i[1] < to[1]) {
		int s = i[0] == to[0] ? 1 : i[1] == to[1] ? 0 :
			an_row_cmp(w->e[0], w->rows[0][i[0]], w->rows[1][i[1]]) > 0;
		const struct an_row *r = w->rows[s][i[s]++];
		if (!r->h.n)
			continue;
		make_box(&b[nb], &r->h, k == AN_BUCKET ? an_bucket_label(w->e[s], r->bucket) : r->key[k]);
		b[nb++].side = s ? "B" : "A";
		n[s] += r->h.n;
	}
	return nb;
}

/* The batch charts of a diff report: per pair and app (O's keys), each
 * range's box of A and of B, each of its own side's pairs, in the pair's
 * unit; Y as batch() words it. */
static void side_batch(const struct rp_out *out, const struct rp_input *in,
		       const struct an_options *o, const char *y)
{
	struct sides w;
	size_t from[2], to[2], id = 0;
	sides_init(&w, in->sides, o->by | 1u << AN_BUCKET);
	while (sides_next(&w, o->by, from, to)) {
		struct rp_box *b = xcalloc(to[0] - from[0] + to[1] - from[1], sizeof *b);
		struct rp_chart c;
		uint64_t n[2];
		size_t nb = side_boxes(&w, from, to, AN_BUCKET, b, n);
		char key[256], title[400], cid[32], rper[64], rx[96];
		row_name(w.e[0], o, sides_row(&w, from, to), key, sizeof key);
		row_per(rper, sizeof rper, sides_row(&w, from, to), in->o->per);
		snprintf(rx, sizeof rx, "%s (cycles, log scale)", rper);
		snprintf(title, sizeof title, "%.200s: %.60s by %.40s per batch (A %llu pairs, B %llu "
			 "pairs)", key, rper, in->o->bucket_arg, (unsigned long long)n[0],
			 (unsigned long long)n[1]);
		snprintf(cid, sizeof cid, "%zu", id++);
		chart(&c, "batch", cid, title, rx, y);
		if (nb)
			out->boxes(out, &c, b, nb);
		free(b);
	}
	sides_free(&w);
}

/* Why the batch section is left out, into BUF: no pair's end carries
 * the --bucket argument (its default, Snabb's, unnamed: a page of a
 * program without packets says no word of them); what their ends carry
 * instead, which --bucket can name. */
static const char *no_batches(char *buf, size_t size, const struct rp_input *in)
{
	const struct an_found *f = an_found(in->e);
	size_t len = (size_t)snprintf(buf, size, "Left out: the pairs' ends carry no batch size "
				      "to sort them by");
	for (size_t i = 0; i < f->nargs && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? i + 1 == f->nargs ?
					" or " : ", " : " (--bucket ARG=EDGES can name one: ",
					f->args[i]);
	if (len < size)
		snprintf(buf + len, size - len, "%s.", f->nargs ? ")" : "");
	return buf;
}

/* What the batch section shows, into BUF. */
static const char *batch_about(char *buf, size_t size)
{
	snprintf(buf, size, "Per %s, cycles per unit against the batch a pair moved (--bucket "
		 "ranges): the box spans the 25th to 75th percentile, the line inside is the "
		 "median, the whiskers reach the 5th and 95th.", W.each);
	return buf;
}

static void batch(const struct rp_out *out, const struct rp_input *in)
{
	struct an_options o = *in->o;
	struct an *eb;
	size_t n, i = 0;
	struct an_row **rows;
	struct rp_box *b;
	char per[64], x[96], y[96], buf[1024], text[512];
	per_unit(per, sizeof per, in->o->per);
	snprintf(x, sizeof x, "%s (cycles, log scale)", per);
	snprintf(y, sizeof y, "%s per batch (%s)", in->o->bucket_arg, in->o->bucket_arg);
	o.by = 1u << AN_EVENT | 1u << AN_APP;
	out->section(out, "batch", "Batch size",
		     about(buf, sizeof buf, in, batch_about(text, sizeof text), "A and B apart: each range has a box of A's pairs and one "
			   "of B's, each of its own side's pairs alone."));
	if (!an_found(in->e)->ends_with_bucket) {
		out->note(out, no_batches(buf, sizeof buf, in));
		return;
	}
	if (in->sides[0]) {
		side_batch(out, in, &o, y);
		return;
	}
	eb = project(in->e, 1u << AN_EVENT | 1u << AN_APP | 1u << AN_BUCKET);
	rows = an_rows(eb, &n);
	b = xcalloc(n, sizeof *b);
	while (i < n) {
		struct rp_chart c;
		char key[256], title[320], id[32];
		size_t j = i, nb = 0;
		snprintf(id, sizeof id, "%zu", i);
		row_name(eb, &o, rows[i], key, sizeof key);
		for (; j < n && !an_row_cmp_keys(eb, rows[i], rows[j], o.by); j++)
			if (rows[j]->h.n)
				make_box(&b[nb++], &rows[j]->h, an_bucket_label(eb, rows[j]->bucket));
		row_per(per, sizeof per, rows[i], in->o->per);
		snprintf(x, sizeof x, "%s (cycles, log scale)", per);
		snprintf(title, sizeof title, "%.200s: %.60s by %.40s per batch", key, per,
			 in->o->bucket_arg);
		chart(&c, "batch", id, title, x, y);
		if (nb)
			out->boxes(out, &c, b, nb);
		i = j;
	}
	free(b);
	an_free(eb);
}

/* The lag boxes of IN into *B (to free): per event, or in a report of two
 * sides per event A's box and B's, each of its own side's lags. Returns
 * how many. */
static size_t lag_boxes(const struct rp_input *in, struct rp_box **b)
{
	size_t n, nb = 0;
	struct an_row **rows;
	if (in->sides[0]) {
		struct sides w;
		size_t from[2], to[2];
		uint64_t count[2];
		sides_init(&w, in->side_lags, 1u << AN_EVENT);
		*b = xcalloc(w.n[0] + w.n[1] + 1, sizeof **b);
		if (sides_next(&w, 0, from, to))   /* no keys: all rows, one group */
			nb = side_boxes(&w, from, to, AN_EVENT, *b, count);
		sides_free(&w);
		return nb;
	}
	rows = an_rows(in->lags, &n);
	*b = xcalloc(n, sizeof **b);
	for (size_t i = 0; i < n; i++)
		if (rows[i]->h.n)
			make_box(&(*b)[nb++], &rows[i]->h, rows[i]->key[AN_EVENT]);
	return nb;
}

static void lags(const struct rp_out *out, const struct rp_input *in)
{
	size_t nb;
	struct rp_box *b;
	struct rp_chart c;
	char buf[512];
	out->section(out, "lags", "Event lags",
		     about(buf, sizeof buf, in, W.loop ? "Per event, its lag: the cycles since the "
			   "previous entry of the same or a lower level, on a log axis (box: 25th "
			   "to 75th percentile, line: median, whiskers: 5th and 95th)." : "Per "
			   "event, Snabb's lag: the cycles since the previous entry of the same or a lower level, on a log axis (box: 25th "
			   "to 75th percentile, line: median, whiskers: 5th and 95th).",
			   "A and B apart: each event has a box of A's lags and one of B's."));
	nb = lag_boxes(in, &b);
	chart(&c, "lags", "events", in->sides[0] ? "lag per event, A and B apart" : "lag per event",
	      "lag (cycles, log scale)", "event");
	if (nb)
		out->boxes(out, &c, b, nb);
	if (summaries(in)) {
		char why[200];
		snprintf(why, sizeof why, "Summaries keep no lags (a summary holds what one engine "
			 "counted, here cycles per %.40s): the logs summarized add nothing here.",
			 in->o->per ? in->o->per : "unit");
		out->note(out, why);
	} else if (!nb)
		out->note(out, "No event has a lag (each needs an entry of its level or lower before it).");
	free(b);
}

/* The distinct values of key K among E's rows, at most 2 counted. */
static int distinct(struct an *e, int k)
{
	size_t n;
	struct an_row **rows = an_rows(e, &n);
	for (size_t i = 1; i < n; i++)
		if (strcmp(rows[i]->key[k], rows[0]->key[k]))
			return 2;
	return n ? 1 : 0;
}

/* The NUMA (K = AN_NUMA) or CPU (AN_CPU) part of the last section: its
 * bars and table, in a report of two sides A's and B's apart. */
static void split_by(const struct rp_out *out, const struct rp_input *in, int k)
{
	int numa = k == AN_NUMA, two = in->sides[0] != NULL;
	struct an_options o = *in->o;
	size_t n[2] = { 0, 0 }, na;
	struct rp_stack *s[2] = { NULL, NULL }, *all;
	struct rp_chart c;
	struct table *t[2] = { NULL, NULL }, *tt;
	char per[64], title[512], axis[256];
	o.by = 1u << AN_EVENT | 1u << AN_APP | 1u << k;
	for (int x = 0; x < 1 + two; x++) {   /* each side's bars, and its table's share% */
		struct an *src = two ? in->sides[x] : in->e, *e = project(src, o.by);
		s[x] = where_stacks(src, numa, &n[x]);
		t[x] = per_table(e, &o, out->format, s[x], n[x], k);
		an_free(e);
	}
	if (two) {
		all = side_stacks(s, n, &na);
	} else {
		all = s[0];
		na = n[0];
	}
	per_unit(per, sizeof per, in->o->per);
	snprintf(title, sizeof title, "each %s's share of %s, per %s%s", W.part, W.cycles,
		 numa ? "NUMA node" : "CPU", two ? ", A and B apart" : "");
	snprintf(axis, sizeof axis, "share of %s (%%)", W.cycles);
	chart(&c, "numa", numa ? "nodes" : "cpus", title, axis, numa ? "NUMA node" : "CPU");
	if (na)
		out->stacks(out, &c, all, na);
	if (summaries(in))
		out->note(out, numa ? "Summaries keep no shares per NUMA node: theirs are not in "
				      "the bars, nor in the table's share%."
				    : "Summaries keep no shares per CPU: theirs are not in the bars, "
				      "nor in the table's share%.");
	tt = two ? side_table(t, &o) : t[0];
	snprintf(title, sizeof title, "%s per begin/end pair, per %s%s", per,
		 numa ? "NUMA node" : "CPU", two ? ", A and B apart" : "");
	chart(&c, "numa", numa ? "node-table" : "cpu-table", title, NULL, NULL);
	out->table(out, &c, tt);
	for (int x = 0; x < 1 + two; x++) {
		table_free(t[x]);
		free_stacks(s[x], n[x]);
	}
	if (two) {
		table_free(tt);
		free(all);
	}
}

static void numa_cpu(const struct rp_out *out, const struct rp_input *in)
{
	struct an *nodes = project(in->e, 1u << AN_NUMA), *cpus = project(in->e, 1u << AN_CPU);
	int many_nodes = distinct(nodes, AN_NUMA) > 1, many_cpus = distinct(cpus, AN_CPU) > 1;
	char buf[1024], text[512], side[512];
	snprintf(text, sizeof text, "The same overhead table, by the node and the CPU each of %s "
		 "ended on, and each pair's cycles per unit by the node and CPU of its end.",
		 W.loop ? W.breaths : "the breaths");
	snprintf(side, sizeof side, "A and B apart: a bar of A's %s and one of B's per node and "
		 "CPU, each of its own side's %s, and the table's rows of each side, its column "
		 "side first.", W.breaths, W.breaths);
	if (many_nodes || many_cpus)
		out->section(out, "numa", "NUMA nodes and CPUs",
			     about(buf, sizeof buf, in, text, side));
	else
	{
		out->section(out, "numa", "NUMA nodes and CPUs", "The cycles by the NUMA node and "
			     "the CPU each pair ended on.");
		out->note(out, "Left out: every pair in the inputs ended on one NUMA node and one "
			  "CPU, nothing to tell apart by them.");
	}
	if (many_nodes)
		split_by(out, in, AN_NUMA);
	if (many_cpus)
		split_by(out, in, AN_CPU);
	an_free(nodes);
	an_free(cpus);
}

/* The comparison of a diff report: the verdicts as `diff` gives them, then
 * each group's A and B distributions, overlaid, medians marked. */
static void compared(const struct rp_out *out, const struct rp_input *in)
{
	const struct comparison *cmp = in->cmp;
	struct table *t = compare_table(cmp, out->format), *lone = compare_lone_table(cmp);
	struct rp_chart c;
	char per[64], x[96], about[4600];
	snprintf(about, sizeof about, "The verdicts of `%s` (the same numbers, words and exit "
		 "status), the slowed groups first%s; then each group's distributions, A over B, "
		 "each as a share of its side's pairs, with their medians, and above them a dot "
		 "per run: the run's value the verdict is made from (its median, relative to the "
		 "run's speed unless --absolute).", in->diff_command,
		 cmp->o->declared_only ? ", each pair in its own unit" : "");
	out->section(out, "diff", "A against B", about);
	chart(&c, "diff", "verdicts", in->diff_title, NULL, NULL);
	out->table(out, &c, t);
	if (table_rows(lone)) {
		chart(&c, "diff", "only", "groups on one side only", NULL, NULL);
		out->table(out, &c, lone);
	}
	for (size_t i = 0; i < cmp->ncmp; i++) {
		const struct cmp *m = &cmp->cmp[i];
		struct rp_hist h[2];
		char key[256], title[400], change[32], id[32];
		const char *unit = m->s[0].row->unit ? m->s[0].row->unit : m->s[1].row->unit;
		per_unit(per, sizeof per, cmp->o->declared_only && unit ? unit : cmp->o->per);
		snprintf(x, sizeof x, "%s (cycles, log scale)", per);
		row_name(cmp->e[0], cmp->o, m->s[0].row, key, sizeof key);
		snprintf(change, sizeof change, "%+.1f%%", m->change * 100);
		snprintf(title, sizeof title, "%s: %s, A against B: change %s, %s", key, per,
			 isnan(m->change) ? "-" : change, m->verdict);
		snprintf(id, sizeof id, "%zu", i);
		chart(&c, "diff", id, title, x, "pairs (% of the side's)");
		make_hist(&h[0], &m->s[0].pooled, "A", m->ma);
		make_hist(&h[1], &m->s[1].pooled, "B", m->mb);
		for (int k = 0; k < 2; k++) {   /* the dots: what the verdict compares */
			h[k].runs = m->s[k].rel ? m->s[k].rel : m->s[k].medians;
			h[k].run_names = m->s[k].run;
			h[k].nruns = m->s[k].runs;
		}
		out->hists(out, &c, h, 2);
		free(h[0].bins);
		free(h[1].bins);
	}
	table_free(t);
	table_free(lone);
}

void report_write(const struct rp_out *out, const struct rp_input *in)
{
	char about[512], what[96];
	size_t ns = summaries(in), nl = in->nfiles - ns;
	if (!ns)
		snprintf(what, sizeof what, "%zu log%s", nl, nl == 1 ? "" : "s");
	else if (!nl)
		snprintf(what, sizeof what, "%zu summar%s", ns, ns == 1 ? "y" : "ies");
	else
		snprintf(what, sizeof what, "%zu log%s and %zu summar%s", nl, nl == 1 ? "" : "s", ns,
			 ns == 1 ? "y" : "ies");
	snprintf(about, sizeof about, "%s read by `%s`", what, in->command);
	words_of(in);
	out->begin(out, "timeline report", about, in->cmp != NULL);
	if (in->cmp)
		compared(out, in);
	summary(out, in);
	cycles(out, in);
	over_time(out, in);
	if (in->cmp)
		side_distributions(out, in);
	else
		distributions(out, in);
	batch(out, in);
	lags(out, in);
	numa_cpu(out, in);
	out->end(out);
}

void report_hbins(const struct hist *h, struct rp_hbin **b, size_t *n)
{
	size_t cap = 0;
	*b = NULL;
	*n = 0;
	for (int x = 0; x < HIST_EXPS; x++) {
		for (int g = 0; h->block[x] && g < 8; g++) {
			uint64_t count = 0;
			/* bucket (x, s) holds [2^(x+EMIN) (1 + s/128), ...): 16 of them
			 * make an eighth of the power of two */
			for (int s = 16 * g; s < 16 * g + 16; s++)
				count += h->block[x][s];
			if (!count)
				continue;
			if (*n == cap && !(*b = realloc(*b, (cap = cap ? 2 * cap : 64) * sizeof **b)))
				abort();
			(*b)[*n].lo = ldexp(1 + g / 8.0, x + HIST_EMIN);
			(*b)[*n].hi = ldexp(1 + (g + 1) / 8.0, x + HIST_EMIN);
			(*b)[(*n)++].n = count;
		}
	}
}
