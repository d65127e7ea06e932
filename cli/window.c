/* window.c: parsing time bounds and durations, resolving a window to each
 * log's ticks exactly (by bisection on the same conversions the output
 * uses), and the event, app, cpu and numa filters. */
#define _GNU_SOURCE
#include <ctype.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "usage.h"
#include "window.h"

/* Units of a duration, longest suffix first where one ends another. */
static const struct { const char *name; double ns; } units[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "m", 60e9 }, { "h", 3600e9 },
	{ "d", 86400e9 },
};

int window_duration(const char *s, uint64_t *ns)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || !(v >= 0) || isinf(v))
		return -1;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strcmp(end, units[i].name) && v * units[i].ns < 1.8e19) {
			*ns = (uint64_t)llround(v * units[i].ns);
			return 0;
		}
	return -1;
}

/* Parses DIGITS digits of S into *V; returns the characters read or -1. */
static int digits(const char *s, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		*v = *v * 10 + (s[i] - '0');
	}
	return n;
}

/* ISO 8601 "YYYY-MM-DDTHH:MM:SS[.fraction][Z|+HH:MM|-HHMM]" (UTC without a
 * zone) into *NS since the epoch; -1 if S is not one. */
static int iso8601(const char *s, int64_t *ns)
{
	struct tm tm = { 0 };
	int y, mo, d, h, mi, se, zh = 0, zm = 0, sign = 0;
	int64_t frac = 0, scale = 100000000;
	if (digits(s, 4, &y) < 0 || s[4] != '-' || digits(s + 5, 2, &mo) < 0 || s[7] != '-' ||
	    digits(s + 8, 2, &d) < 0 || (s[10] != 'T' && s[10] != ' ') || digits(s + 11, 2, &h) < 0 ||
	    s[13] != ':' || digits(s + 14, 2, &mi) < 0 || s[16] != ':' || digits(s + 17, 2, &se) < 0)
		return -1;
	s += 19;
	if (*s == '.' && isdigit((unsigned char)s[1]))
		for (s++; isdigit((unsigned char)*s); s++, scale /= 10)
			frac += scale ? (*s - '0') * scale : 0;
	if (*s == 'Z') {
		s++;
	} else if (*s == '+' || *s == '-') {
		sign = *s == '-' ? -1 : 1;
		if (digits(s + 1, 2, &zh) < 0)
			return -1;
		s += 3 + (*(s + 3) == ':');
		if (digits(s, 2, &zm) < 0)
			return -1;
		s += 2;
	}
	if (*s || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
		return -1;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = se;
	*ns = ((int64_t)timegm(&tm) - sign * (zh * 3600 + zm * 60)) * 1000000000 + frac;
	return 0;
}

int window_bound(const char *s, struct bound *b)
{
	char *end;
	uint64_t ns;
	memset(b, 0, sizeof *b);
	b->text = s;
	if (iso8601(s, &b->v) == 0)
		return b->kind = W_WALL, 0;
	if (window_duration(s, &ns) == 0) {
		b->v = (int64_t)ns;
		return b->kind = W_NS, 0;
	}
	b->unit = strtod(s, &end);
	if (end == s || *end || !isfinite(b->unit))
		return -1;
	return b->kind = W_UNIT, 0;
}

int window_option(struct window *w, int c, const char *arg, const char **why)
{
	switch (c) {
	case 'F':
	case 'T':
		if (window_bound(arg, c == 'F' ? &w->from : &w->to) < 0) {
			static char msg[128];
			snprintf(msg, sizeof msg, "%s takes %s, a duration (1.5s) or a wall time "
				 "(2026-11-23T14:10:12Z)", c == 'F' ? "--from" : "--to",
				 w->unit_elsewhere ? "a number in the --time unit" : "cycles");
			return *why = msg, -1;
		}
		return 1;
	case 'L':
		/* 0 would be no --last at all: a window of nothing said as one */
		if (window_duration(arg, &w->last_ns) < 0 || !w->last_ns)
			return *why = "--last takes a duration of at least 1ns, e.g. 10s or 500ms", -1;
		w->last_text = arg;
		return 1;
	case 'e':
		w->glob = arg;
		return 1;
	case WINDOW_APP:
		w->app = arg;
		return 1;
	case 'c':
		w->by_cpu = 1;
		return parse_list(arg, w->cpus) ? (*why = "--cpu takes a list like 0,2-5", -1) : 1;
	case 'n':
		w->by_numa = 1;
		return parse_list(arg, w->numas) ? (*why = "--numa takes a list like 0,1", -1) : 1;
	}
	return 0;
}

/* Bound B's place in its own form (for two bounds of one kind). */
static long double place(const struct bound *b)
{
	return b->kind == W_UNIT ? (long double)b->unit : (long double)b->v;
}

int window_check(const struct window *w, const char **why)
{
	static char msg[256];
	if (w->from.kind == W_NONE || w->from.kind != w->to.kind ||
	    place(&w->from) <= place(&w->to))
		return 0;
	snprintf(msg, sizeof msg, "--from %s is after --to %s: the window holds nothing",
		 w->from.text, w->to.text);
	return *why = msg, -1;
}

int window_timed(const struct window *w)
{
	return w->from.kind != W_NONE || w->to.kind != W_NONE || w->last_ns;
}

/* Does W filter entries by what they are (--event, --app, --cpu, --numa)? */
static int filtered(const struct window *w)
{
	return w->glob || w->app || w->by_cpu || w->by_numa;
}

int window_any(const struct window *w)
{
	return window_timed(w) || filtered(w);
}

/* ---- describing ----------------------------------------------------------- */

/* Appends to BUF (SIZE bytes, LEN used) what FMT gives. */
static void add(char *buf, size_t size, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (*len < size)
		*len += (size_t)vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
}

/* Bound B as option NAME: cycles, ns since the first entry, or UTC. */
static void describe_bound(const char *name, const struct bound *b, char *buf, size_t size,
			   size_t *len)
{
	time_t sec;
	struct tm tm;
	char day[32];
	if (b->kind == W_UNIT)
		add(buf, size, len, " %s %.17g", name, b->unit);
	else if (b->kind == W_NS)
		add(buf, size, len, " %s %lldns", name, (long long)b->v);
	if (b->kind != W_WALL)
		return;
	sec = (time_t)(b->v >= 0 ? b->v / 1000000000 : -((-b->v + 999999999) / 1000000000));
	gmtime_r(&sec, &tm);
	strftime(day, sizeof day, "%Y-%m-%dT%H:%M:%S", &tm);
	add(buf, size, len, " %s %s.%09lldZ", name, day, (long long)(b->v - (int64_t)sec * 1000000000));
}

/* The bit set SET (of --cpu or --numa) as a list "0,2-5". */
static void describe_set(const char *name, const uint64_t set[64], char *buf, size_t size,
			 size_t *len)
{
	char sep = ' ';
	add(buf, size, len, " %s", name);
	for (unsigned v = 0; v < 4096; v++) {
		unsigned end = v;
		if (!in_set(set, v))
			continue;
		while (end + 1 < 4096 && in_set(set, end + 1))
			end++;
		add(buf, size, len, end > v ? "%c%u-%u" : "%c%u", sep, v, end);
		sep = ',';
		v = end;
	}
}

/* Appends W's filters to BUF (SIZE bytes, LEN used), each glob between
 * two Qs: " --event 'app.*' --cpu 0-3" with Q "'". */
static void describe_filters(const struct window *w, const char *q, char *buf, size_t size,
			     size_t *len)
{
	if (w->glob)
		add(buf, size, len, " --event %s%s%s", q, w->glob, q);
	if (w->app)
		add(buf, size, len, " --app %s%s%s", q, w->app, q);
	if (w->by_cpu)
		describe_set("--cpu", w->cpus, buf, size, len);
	if (w->by_numa)
		describe_set("--numa", w->numas, buf, size, len);
}

void window_describe(const struct window *w, char *buf, size_t size)
{
	size_t len = strlen(buf);
	describe_bound("--from", &w->from, buf, size, &len);
	describe_bound("--to", &w->to, buf, size, &len);
	if (w->last_ns)
		add(buf, size, &len, " --last %lluns", (unsigned long long)w->last_ns);
	describe_filters(w, "", buf, size, &len);
}

/* ---- saying what a window held ------------------------------------------- */

/* NS as seconds, without trailing zeros: "0s", "2.5s", "2.399999999s". */
static void seconds(char *buf, size_t size, uint64_t ns)
{
	int n = snprintf(buf, size, "%llu.%09llu", (unsigned long long)(ns / 1000000000),
			 (unsigned long long)(ns % 1000000000));
	while (n > 0 && (size_t)n < size && buf[n - 1] == '0')
		n--;
	if (n > 0 && (size_t)n < size && buf[n - 1] == '.')
		n--;
	snprintf(buf + n, size - (size_t)n, "s");
}

void window_place_span(struct input *in, int kind, uint64_t first, uint64_t newest)
{
	char a[48], b[48];
	if (kind == W_WALL) {
		tl_format_wall(a, sizeof a, tl_wall_ns(&in->info, first));
		tl_format_wall(b, sizeof b, tl_wall_ns(&in->info, newest));
		snprintf(in->window_span, sizeof in->window_span, "%s to %s", a, b);
	} else if (kind == W_NS) {
		seconds(b, sizeof b, tl_ticks_to_ns(newest - first, in->info.tsc_hz));
		snprintf(in->window_span, sizeof in->window_span, "0s to %s", b);
	} else {
		snprintf(in->window_span, sizeof in->window_span, "0 to %llu cycles",
			 (unsigned long long)(newest - first));
	}
}

/* Is bound B placed by window_begin() (not left to the caller's unit)? */
static int placed(const struct window *w, const struct bound *b)
{
	return b->kind != W_NONE && !(b->kind == W_UNIT && w->unit_elsewhere);
}

/* Marks IN when S, W's span of it, holds none of its entries, T0 to MAX;
 * its span then in the form of W's first bound placed here. */
static void mark_empty(const struct window *w, struct input *in, uint64_t t0, uint64_t max,
		       const struct span *s)
{
	int kind = placed(w, &w->from) ? w->from.kind : placed(w, &w->to) ? w->to.kind : W_NS;
	if (!placed(w, &w->from) && !placed(w, &w->to) && !w->last_ns)
		return;   /* the caller's own unit: its to judge */
	if (s->lo > s->hi || s->lo > max || s->hi < t0) {
		in->window_empty = 1;
		window_place_span(in, kind, t0, max);
	}
}

/* The line of window_missed() for filters that kept none of IN's entries
 * in the time bounds: what they are, how many entries there were. */
static void filters_missed(const struct window *w, const struct input *in, const char *cmd,
			   char **line)
{
	char what[512] = "";
	size_t len = 0;
	describe_filters(w, "'", what, sizeof what, &len);
	if (asprintf(line, "timeline %s:%s keep%s none of the %llu entr%s of %s%s\n", cmd, what,
		     (w->glob != NULL) + (w->app != NULL) + w->by_cpu + w->by_numa > 1 ? "" : "s",
		     (unsigned long long)in->window_seen, in->window_seen == 1 ? "y" : "ies",
		     in->path, window_timed(w) ? " in the time window" : "") < 0)
		abort();
}

int window_missed(const struct window *w, const struct input *in, const char *cmd, char **line)
{
	char when[256] = "";
	int n = 0;
	if (!window_any(w) || !in->span_set || in->span_bad)
		return -1;
	if (!in->window_empty && filtered(w) && in->window_seen && !in->window_kept) {
		filters_missed(w, in, cmd, line);
		return 2;
	}
	if (!in->window_empty)
		return 0;
	if (w->from.kind != W_NONE && w->to.kind != W_NONE)
		n = snprintf(when, sizeof when, " between %s and %s", w->from.text, w->to.text);
	else if (w->from.kind != W_NONE)
		n = snprintf(when, sizeof when, " at or after %s", w->from.text);
	else if (w->to.kind != W_NONE)
		n = snprintf(when, sizeof when, " at or before %s", w->to.text);
	if (w->last_ns && n >= 0 && (size_t)n < sizeof when)
		snprintf(when + n, sizeof when - (size_t)n, " in the last %s", w->last_text);
	if (asprintf(line, "timeline %s: no entries%s; %s spans %s\n", cmd, when, in->path,
		     in->window_span) < 0)
		abort();
	return 1;
}

/* What the filters kept of all the logs of the command, until it ends: the
 * lines of those they kept nothing of, and how many they kept some of.
 * Only the main thread counts (window_misses_count()). */
static struct window_misses filters;

/* Appends LINE to M's lines. */
static void add_line(struct window_misses *m, const char *line)
{
	size_t n = strlen(line);
	if (!(m->lines = realloc(m->lines, m->len + n + 1)))
		abort();
	memcpy(m->lines + m->len, line, n + 1);
	m->len += n;
}

void window_misses_count(struct window_misses *m, int missed, const char *line)
{
	if (missed == 0 || missed == 2)
		m->hits++;   /* the time window held entries */
	if (missed == 0)
		filters.hits++;
	if (missed == 1)
		add_line(m, line);
	else if (missed == 2)
		add_line(&filters, line);
}

int window_filters_missed(void)
{
	return !filters.hits && filters.len;
}

int window_filters_end(void)
{
	int missed = window_filters_missed();
	if (missed)
		fputs(filters.lines, stderr);
	free(filters.lines);
	memset(&filters, 0, sizeof filters);
	return missed;
}

void window_misses_add(struct window_misses *m, const struct window *w, const struct input *in,
		       const char *cmd)
{
	char *line = NULL;
	int missed = window_missed(w, in, cmd, &line);
	window_misses_count(m, missed, line);
	free(line);
}

int window_misses_end(struct window_misses *m)
{
	int missed = !m->hits && m->len;
	if (missed)
		fputs(m->lines, CLI_ERR);
	free(m->lines);
	memset(m, 0, sizeof *m);
	return missed;
}

/* ---- resolving ------------------------------------------------------------ */

/* A bound's measure of a timestamp, nondecreasing in it. */
struct measure {
	int kind;                    /* W_TICKS, W_NS, W_WALL */
	uint64_t t0;                 /* the log's first entry */
	const tl_info *info;
};

static long double measure(const struct measure *m, uint64_t tsc)
{
	if (m->kind == W_WALL)
		return tl_wall_ns(m->info, tsc);
	if (m->kind == W_NS)
		return tsc >= m->t0 ? (long double)tl_ticks_to_ns(tsc - m->t0, m->info->tsc_hz)
				    : -(long double)tl_ticks_to_ns(m->t0 - tsc, m->info->tsc_hz);
	return tsc >= m->t0 ? (long double)(tsc - m->t0) : -(long double)(m->t0 - tsc);
}

/* The least timestamp in 0..MAX whose measure is at least V, or MAX + 1. */
static uint64_t least_at(const struct measure *m, long double v, uint64_t max)
{
	uint64_t lo = 0, hi = max;
	if (measure(m, max) < v)
		return max + 1;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (measure(m, mid) >= v)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Why log IN cannot place bound kind KIND in time, or NULL. */
static const char *unplaceable(int kind, const struct input *in)
{
	if (kind == W_WALL && in->info.format != TL_FORMAT_NATIVE)
		return "a wall time needs a clock anchor, which Snabb's logs do not have: "
		       "give the bound in cycles";
	if ((kind == W_WALL || kind == W_NS) && !in->info.tsc_hz)
		return "a time in seconds needs the TSC frequency, which this log does not have: "
		       "give the bound in cycles";
	return NULL;
}

/* Narrows S by bound B (FROM: a lower bound, else upper) of IN; 0 or -1. */
static int narrow(const struct bound *b, int w_unit_elsewhere, int from, struct input *in,
		  uint64_t t0, uint64_t max, struct span *s, const char *cmd)
{
	struct measure m = { b->kind == W_UNIT ? W_TICKS : b->kind, t0, &in->info };
	long double v = b->kind == W_UNIT ? (long double)b->unit : (long double)b->v;
	const char *why = unplaceable(m.kind, in);
	uint64_t t;
	if (b->kind == W_NONE || (b->kind == W_UNIT && w_unit_elsewhere))
		return 0;
	if (why) {
		cli_error(cmd, "%s: %s", in->path, why);
		return -1;
	}
	if (from) {
		t = least_at(&m, v, max);
		s->lo = t > s->lo ? t : s->lo;
	} else {
		/* the last timestamp whose measure is at most v: one before the
		 * least whose measure is above it */
		t = least_at(&m, nextafterl(v, INFINITY), max);
		if (t == 0)
			s->lo = 1, s->hi = 0;   /* empty */
		else if (t - 1 < s->hi)
			s->hi = t - 1;
	}
	return 0;
}

int window_begin(const struct window *w, struct input *in, uint64_t t0, struct span *s,
		 const char *cmd)
{
	tl_entry newest;
	uint64_t max;
	s->lo = 0;
	s->hi = UINT64_MAX;
	if (!window_timed(w))
		return 0;
	if (!tl_reader_newest(in->r, &newest))
		return 0;
	max = newest.tsc > t0 ? newest.tsc : t0;
	if (narrow(&w->from, w->unit_elsewhere, 1, in, t0, max, s, cmd) < 0 ||
	    narrow(&w->to, w->unit_elsewhere, 0, in, t0, max, s, cmd) < 0)
		return -1;
	if (w->last_ns) {
		/* the last D: entries whose distance to the newest is at most D ns */
		struct bound b = { .kind = W_NS };
		const char *why = unplaceable(W_NS, in);
		if (why) {
			cli_error(cmd, "%s: --last: %s", in->path, why);
			return -1;
		}
		b.v = (int64_t)tl_ticks_to_ns(newest.tsc - t0, in->info.tsc_hz) - (int64_t)w->last_ns;
		if (newest.tsc >= t0 && narrow(&b, 0, 1, in, t0, max, s, cmd) < 0)
			return -1;
	}
	mark_empty(w, in, t0, max, s);
	return 0;
}

int window_take(const struct window *w, struct input *in, const tl_entry *e, const char *cmd)
{
	if (!in->span_set) {
		in->span_set = 1;
		in->span_bad = window_begin(w, in, e->tsc, &in->span, cmd) < 0;
	}
	return !in->span_bad && window_keep(w, &in->span, in, e);
}

/* The app of definition D: the value of its app= attribute, "" if none. */
static void app_of(const tl_def *d, char *buf, size_t size)
{
	const char *p = strstr(d->attrs, "app=");
	while (p && p != d->attrs && p[-1] != ' ')
		p = strstr(p + 1, "app=");
	snprintf(buf, size, "%.*s", p ? (int)strcspn(p + 4, " ") : 0, p ? p + 4 : "");
}

int window_def_kept(const struct window *w, const tl_def *d)
{
	struct shown *sh = shown_of(d);
	if (sh->keep == 0) {
		char app[128];
		app_of(d, app, sizeof app);
		sh->keep = (!w->glob || fnmatch(w->glob, d->name, 0) == 0) &&
			   (!w->app || (*app && fnmatch(w->app, app, 0) == 0)) ? 1 : 2;
	}
	return sh->keep == 1;
}
