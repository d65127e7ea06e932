/* toptable.c: the rows of `timeline top` by process, app or event, their
 * short screen numbers (4 digits and K, M, G), sorting, and each line as
 * text. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "natural.h"
#include "toptable.h"
#include "xalloc.h"

/* The columns of each group: keys, then the figures of one span. HEAD and
 * CSV NULL: named by SPECIAL, the column of cycles per the unit in use
 * (toptable_per_names()) or the attribute (its name, as the pairs declare
 * it: attr_names()). */
enum { PLAIN, CYCLES_PER, ATTR };
struct colspec {
	const char *head, *csv;
	int kind, special;
};

static const struct colspec process_cols[] = {
	{ "PID", "pid", COL_NUMBER, PLAIN },          { "LOG", "log", COL_TEXT, PLAIN },
	{ "RATE", "rate", COL_TEXT, PLAIN },          { "ENTRY/S", "entries_per_s", COL_FIGURE, PLAIN },
	{ "LOST", "lost", COL_COUNT, PLAIN },         { "BREATH/S", "breaths_per_s", COL_FIGURE, PLAIN },
	{ "PKT/S", "packets_per_s", COL_FIGURE, PLAIN }, { "GBPS", "gbps", COL_FIGURE, PLAIN },
	{ "CYC/PKT", "cycles_per_packet", COL_FIGURE, PLAIN },
};
static const struct colspec app_cols[] = {
	{ "PID", "pid", COL_NUMBER, PLAIN },          { "LOG", "log", COL_TEXT, PLAIN },
	{ "PAIR", "pair", COL_TEXT, PLAIN },          { NULL, NULL, COL_TEXT, ATTR },
	{ "UNIT", "unit", COL_TEXT, PLAIN },          { "SHARE%", "share_pct", COL_FIGURE, PLAIN },
	{ NULL, NULL, COL_FIGURE, CYCLES_PER },       { "P50", "p50", COL_FIGURE, PLAIN },
	{ "P99", "p99", COL_FIGURE, PLAIN },          { "PAIRS/S", "pairs_per_s", COL_FIGURE, PLAIN },
};
static const struct colspec event_cols[] = {
	{ "PID", "pid", COL_NUMBER, PLAIN },          { "LOG", "log", COL_TEXT, PLAIN },
	{ "EVENT", "event", COL_TEXT, PLAIN },        { "COUNT/S", "per_s", COL_FIGURE, PLAIN },
	{ "LAG-P50", "lag_p50", COL_FIGURE, PLAIN },  { "LAG-P99", "lag_p99", COL_FIGURE, PLAIN },
};

static const struct {
	const struct colspec *cols;
	int ncols, nkeys, sort;
	const char *name;
} groups[] = {
	[TOP_BY_PROCESS] = { process_cols, 9, 3, 3, "process" },
	[TOP_BY_APP] = { app_cols, 10, 5, 5, "app" },
	[TOP_BY_EVENT] = { event_cols, 6, 3, 3, "event" },
};

const char *toptable_group_name(int group)
{
	return groups[group].name;
}

int toptable_default_sort(int group)
{
	return groups[group].sort;
}

/* V in at most 6 columns: "-" for NaN, 4 digits, K, M and G above; whole
 * numbers (COUNT) without a fraction. */
static void short_num(char *buf, size_t size, double v, int count)
{
	static const char suffix[] = " KMGTP";
	int k = 0;
	if (isnan(v) || isinf(v)) {
		snprintf(buf, size, "-");
		return;
	}
	while (fabs(v) >= 9999.5 && k < 5) {
		v /= 1000;
		k++;
	}
	if (count && !k)
		snprintf(buf, size, "%.0f", v);
	else if (fabs(v) >= 99.95)
		snprintf(buf, size, "%.0f%.*s", v, k > 0, &suffix[k]);
	else if (fabs(v) >= 9.995)
		snprintf(buf, size, "%.1f%.*s", v, k > 0, &suffix[k]);
	else
		snprintf(buf, size, "%.2f%.*s", v, k > 0, &suffix[k]);
}

/* ---- the rows ------------------------------------------------------------ */

/* Figure K of a process row over span S. */
static double process_fig(const struct top_span *s, int k)
{
	switch (k) {
	case 0: return s->seconds > 0 ? (double)s->written / s->seconds : NAN;
	case 1: return (double)s->lost;
	case 2: return s->breaths_s;
	case 3: return s->packets_s;
	case 4: return s->gbps;
	}
	return s->cycles_packet;
}

/* The figures of pair PAIR of attribute value APP in span S, or NULL. */
static const struct top_app *find_app(const struct top_span *s, const char *pair, const char *app)
{
	for (size_t i = 0; i < s->napps; i++)
		if (!strcmp(s->apps[i].pair, pair) && !strcmp(s->apps[i].app, app))
			return &s->apps[i];
	return NULL;
}

static double app_fig(const struct top_app *a, int k)
{
	if (!a)
		return NAN;
	switch (k) {
	case 0: return a->share;
	case 1: return a->cycles_packet;
	case 2: return a->p50;
	case 3: return a->p99;
	}
	return a->pairs_s;
}

static const struct top_event *find_event(const struct top_span *s, const char *event)
{
	for (size_t i = 0; i < s->nevents; i++)
		if (!strcmp(s->events[i].event, event))
			return &s->events[i];
	return NULL;
}

static double event_fig(const struct top_event *e, int k)
{
	if (!e)
		return NAN;
	return k == 0 ? e->count_s : k == 1 ? e->p50 : e->p99;
}

/* Figure K of the row of A (by app) or NAME (by event) over span S. */
static double figure(int group, const struct top_span *s, const struct top_app *a,
		     const char *name, int k)
{
	if (group == TOP_BY_PROCESS)
		return process_fig(s, k);
	if (group == TOP_BY_APP)
		return app_fig(find_app(s, a->pair, a->app), k);
	return event_fig(find_event(s, name), k);
}

/* The RATE cell of LOG: its rate, then the events switched off, if any
 * ("all 3off"), then its flight recorder's state ("off frozen"). */
static void rate_cell(char *buf, size_t size, const struct top_log *log)
{
	static const char *const armed[] = { "", " armed", " keeping", " frozen" };
	size_t n = tl_rate_name(buf, size, log->rate, log->rate_fixed);
	if (log->switched_off && n < size)
		n += (size_t)snprintf(buf + n, size - n, " %uoff", log->switched_off);
	if (log->armed > 0 && log->armed <= 3 && n < size)
		snprintf(buf + n, size - n, "%s", armed[log->armed]);
}

/* The key cells of the row of LOG after PID and LOG into CELL: by app
 * the pair, its attribute's value and its unit (A), by event its NAME, by
 * process the rate. Returns how many. */
static int key_cells(const struct top_log *log, const struct top_app *a, const char *name,
		     char **cell)
{
	char buf[64];
	if (a) {
		cell[0] = xstrdup(a->pair);
		cell[1] = xstrdup(a->app);
		cell[2] = xstrdup(a->unit ? a->unit : "-");
		return 3;
	}
	if (name) {
		cell[0] = xstrdup(name);
		return 1;
	}
	if (log->ended)
		snprintf(buf, sizeof buf, "ended");
	else if (log->f.snabb)
		snprintf(buf, sizeof buf, "-");
	else
		rate_cell(buf, sizeof buf, log);
	cell[0] = xstrdup(buf);
	return 1;
}

/* Adds the row of LOG to T: by app A's (the pair and attribute of its
 * window), by event NAME's, by process (both NULL) the log's. */
static void add_row(struct top_table *t, struct top_log *log, const struct top_app *a,
		    const char *name)
{
	struct top_row *r;
	char buf[64];
	int c = 0, k;
	if (!(t->rows = realloc(t->rows, (t->nrows + 1) * sizeof *t->rows)))
		abort();
	r = &t->rows[t->nrows++];
	memset(r, 0, sizeof *r);
	r->log = log;
	snprintf(buf, sizeof buf, "%u", log->pid);
	r->v[c] = log->pid;
	r->cell[c++] = xstrdup(buf);
	r->cell[c++] = xstrdup(log->name);
	c += key_cells(log, a, name, r->cell + c);
	for (k = 1; k < c; k++)
		r->v[k] = NAN;
	for (int span = 0; span < 2; span++)
		for (k = 0; k < t->nfigs; k++, c++) {
			r->v[c] = figure(t->group, span ? &log->window : &log->last, a, name, k);
			short_num(buf, sizeof buf, r->v[c], t->col[c].kind == COL_COUNT);
			r->cell[c] = xstrdup(buf);
		}
}

/* The rows of LOG: one, or one per pair and attribute or event of its
 * window. */
static void add_rows(struct top_table *t, struct top_log *log)
{
	if (t->group == TOP_BY_PROCESS)
		add_row(t, log, NULL, NULL);
	else if (t->group == TOP_BY_APP)
		for (size_t i = 0; i < log->window.napps; i++)
			add_row(t, log, &log->window.apps[i], NULL);
	else
		for (size_t i = 0; i < log->window.nevents; i++)
			add_row(t, log, NULL, log->window.events[i].event);
}

void toptable_per_names(const char *unit, char *head, size_t hsize, char *csv, size_t csize)
{
	char one[64];
	an_unit_singular(one, sizeof one, unit);
	if (!strcmp(unit, "packets")) {
		snprintf(head, hsize, "CYC/PKT");
		snprintf(csv, csize, "cycles_per_packet");
		return;
	}
	snprintf(head, hsize, "CYC/%s", one);
	for (char *p = head; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	snprintf(csv, csize, "cycles_per_%s", one);
}

const char *toptable_attr_name(struct top_log **logs, size_t n, const struct top_log *focus)
{
	const char *common = NULL;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; (!focus || logs[i] == focus) && k < logs[i]->window.napps; k++) {
			const struct top_app *a = &logs[i]->window.apps[k];
			if (!strcmp(a->app, "-"))
				continue;   /* a pair of no value names none */
			if (common && strcmp(common, a->attr))
				return "attr";
			common = a->attr;
		}
	return common ? common : "app";
}

/* The heading and name of column S into COL: cycles per UNIT, or the
 * attribute ATTR, if it is either. */
static void name_col(const char *unit, const char *attr, const struct colspec *s,
		     struct top_col *col)
{
	if (s->special == CYCLES_PER) {
		toptable_per_names(unit, col->head, sizeof col->head, col->csv, sizeof col->csv);
		return;
	}
	if (s->special == ATTR) {
		snprintf(col->head, sizeof col->head, "%s", attr);
		for (char *p = col->head; *p; p++)
			*p = (char)toupper((unsigned char)*p);
		snprintf(col->csv, sizeof col->csv, "%s", attr);
		return;
	}
	snprintf(col->head, sizeof col->head, "%s", s->head);
	snprintf(col->csv, sizeof col->csv, "%s", s->csv);
}

/* T's columns for its group, cycles per UNIT, the attribute named ATTR;
 * their widths come from the cells later. */
static void columns(struct top_table *t, const char *unit, const char *attr)
{
	const struct colspec *cs = groups[t->group].cols;
	t->nkeys = groups[t->group].nkeys;
	t->nfigs = groups[t->group].ncols - t->nkeys;
	t->ncols = t->nkeys + 2 * t->nfigs;
	for (int c = 0; c < t->ncols; c++) {
		const struct colspec *s = &cs[c < t->nkeys ? c : t->nkeys + (c - t->nkeys) % t->nfigs];
		name_col(unit, attr, s, &t->col[c]);
		t->col[c].kind = s->kind;
		t->col[c].window = c >= t->nkeys + t->nfigs;
	}
}

void toptable_build(struct top_table *t, int group, struct top_log **logs, size_t n,
		    const struct top_log *focus)
{
	memset(t, 0, sizeof *t);
	t->group = group;
	columns(t, topstat_unit(logs, n, focus), toptable_attr_name(logs, n, focus));
	for (size_t i = 0; i < n; i++)
		if (!focus || logs[i] == focus)
			add_rows(t, logs[i]);
	for (int c = 0; c < t->ncols; c++) {
		size_t w = strlen(t->col[c].head) + 1;   /* room for the sort mark */
		for (size_t r = 0; r < t->nrows; r++)
			if (strlen(t->rows[r].cell[c]) > w)
				w = strlen(t->rows[r].cell[c]);
		t->col[c].width = (int)w;
	}
}

/* ---- sorting ------------------------------------------------------------- */

static const struct top_table *sort_t;
static int sort_col, sort_rev;

/* Compares column C of rows X and Y: text in natural order (natural.h),
 * numbers ascending, figures descending with NaN last. */
static int cmp_col(const struct top_row *x, const struct top_row *y, int c)
{
	double a = x->v[c], b = y->v[c];
	if (sort_t->col[c].kind == COL_TEXT)
		return natural_cmp(x->cell[c], y->cell[c]);
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	if (sort_t->col[c].kind == COL_NUMBER)
		return (a > b) - (a < b);
	return (a < b) - (a > b);
}

static int cmp_rows(const void *p, const void *q)
{
	const struct top_row *x = p, *y = q;
	int r = cmp_col(x, y, sort_col);
	if (r)
		return sort_rev ? -r : r;
	for (int c = 0; c < sort_t->nkeys; c++)
		if ((r = cmp_col(x, y, c)))
			return r;
	return 0;
}

void toptable_sort(struct top_table *t, int col, int reverse)
{
	sort_t = t;
	sort_col = col < 0 || col >= t->ncols ? 0 : col;
	sort_rev = reverse;
	if (t->nrows)
		qsort(t->rows, t->nrows, sizeof *t->rows, cmp_rows);
}

/* ---- text ---------------------------------------------------------------- */

/* Appends S right-aligned (text left-aligned) in W columns after a space. */
static size_t put(char *buf, size_t size, size_t len, const char *s, int w, int left)
{
	int n = snprintf(buf + (len < size ? len : size), len < size ? size - len : 0, "%s%*s",
			 len ? " " : "", left ? -w : w, s);
	return len + (size_t)(n > 0 ? n : 0);
}

/* The line over the figures: which span each half shows, centred in a
 * run of dashes as wide as the half. */
static size_t span_line(const struct top_table *t, char *buf, size_t size)
{
	static const char *const head[2] = { " last interval ", " window " };
	size_t len = 0;
	int keys = 0, half = 0;
	for (int c = 0; c < t->nkeys; c++)
		keys += t->col[c].width + (c > 0);
	for (int c = t->nkeys; c < t->nkeys + t->nfigs; c++)
		half += t->col[c].width + 1;
	len = put(buf, size, len, "", keys, 1);
	for (int s = 0; s < 2; s++) {
		char mid[512];
		size_t w = (size_t)half - 1 < sizeof mid - 1 ? (size_t)half - 1 : sizeof mid - 1;
		size_t h = strlen(head[s]) < w ? strlen(head[s]) : w;
		memset(mid, '-', w);
		memcpy(mid + (w - h) / 2, head[s], h);
		mid[w] = '\0';
		len = put(buf, size, len, mid, (int)w, 1);
	}
	return len;
}

size_t toptable_line(const struct top_table *t, long line, int sort, char *buf, size_t size)
{
	size_t len = 0;
	if (size)
		buf[0] = '\0';
	if (line == -2)
		return span_line(t, buf, size);
	for (int c = 0; c < t->ncols; c++) {
		char head[96];
		const char *s = head;
		int left = t->col[c].kind == COL_TEXT;
		if (line == -1)
			snprintf(head, sizeof head, "%s%s", t->col[c].head, c == sort ? "*" : "");
		else
			s = t->rows[line].cell[c];
		len = put(buf, size, len, s, t->col[c].width, left);
	}
	return len;
}

void toptable_free(struct top_table *t)
{
	for (size_t r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++)
			free(t->rows[r].cell[c]);
	free(t->rows);
	memset(t, 0, sizeof *t);
}
