/* check_spans.c: a program in its own terms (issues 34 and 36): the span
 * stage of the engine (parents, depth, self cycles, threads kept apart),
 * a declared breath, units named by their singular; on hand-built logs of
 * a small key-value server, a loop (poll) around requests around three
 * stages, each figure computed by hand. */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util.h"
#include "analysis.h"

/* The key-value server's events and pairs: one poll of its loop (the
 * breath) holds requests, each request a parse, a lookup and a reply. */
static const char *const kv_defs[] = {
	"1,9|kv.poll_begin: polls",   "1,9|kv.poll_end: polls requests bytes",
	"3,9|kv.req_begin: n",        "3,9|kv.req_end: requests bytes",
	"5,9|kv.parse_begin: n",      "5,9|kv.parse_end: bytes",
	"5,9|kv.lookup_begin: n",     "5,9|kv.lookup_end: keys",
	"5,9|kv.reply_begin: n",      "5,9|kv.reply_end: bytes",
};
enum { POLL_B, POLL_E, REQ_B, REQ_E, PARSE_B, PARSE_E, LOOKUP_B, LOOKUP_E, REPLY_B, REPLY_E,
       KV_NDEFS };
static const char *const kv_pairs[] = {
	"pair|kv.poll: kv.poll_begin kv.poll_end unit=requests unit=bytes breath",
	"pair|kv.req: kv.req_begin kv.req_end unit=requests unit=bytes",
	"pair|kv.parse: kv.parse_begin kv.parse_end unit=bytes",
	"pair|kv.lookup: kv.lookup_begin kv.lookup_end unit=keys",
	"pair|kv.reply: kv.reply_begin kv.reply_end unit=bytes",
};

/* One entry to write: event, time (ns: the clock is 1 GHz), CPU, args. */
struct step {
	int ev;
	uint64_t t;
	uint16_t cpu;
	uint64_t a0, a1, a2;
};

/* Writes the log PATH of the N steps, ENTRIES slots, manual clock at 1 GHz. */
static void write_kv(const char *path, const struct step *s, size_t n, uint64_t entries)
{
	tl_options o = { .entries = entries, .clock = TL_CLOCK_MANUAL, .tsc_hz = 1000000000,
			 .strings_bytes = 16384, .name = "kv" };
	uint16_t ids[KV_NDEFS], id;
	tl_error err;
	tl_log *log = tl_open(path, &o, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	ck_assert_int_eq(tl_register(log, kv_defs, KV_NDEFS, NULL, ids, &err), TL_OK);
	for (size_t i = 0; i < sizeof kv_pairs / sizeof kv_pairs[0]; i++)
		ck_assert_int_eq(tl_intern(log, kv_pairs[i], &id, &err), TL_OK);
	for (size_t i = 0; i < n; i++) {
		tl_set_manual_clock(log, s[i].t, s[i].cpu);
		tl_append(log, ids[s[i].ev], s[i].a0, s[i].a1, s[i].a2, 0, 0, 0);
	}
	tl_close(log);
}

/* One poll from 1000 to 2000 (1000 cycles) of two requests: the first
 * from 1100 to 1500 (1 request, 100 bytes) holding parse 1120-1170,
 * lookup 1200-1400 (2 keys), reply 1420-1480; the second from 1600 to 1900
 * (1 request, 50 bytes) holding parse 1610-1640, lookup 1650-1800 (3
 * keys), reply 1820-1880. Entry numbers 0 to 17 in this order. */
static const struct step one_poll[] = {
	{ POLL_B, 1000, 0, 1, 0, 0 },
	{ REQ_B, 1100, 0, 0, 0, 0 },    { PARSE_B, 1120, 0, 0, 0, 0 },  { PARSE_E, 1170, 0, 100, 0, 0 },
	{ LOOKUP_B, 1200, 0, 0, 0, 0 }, { LOOKUP_E, 1400, 0, 2, 0, 0 },
	{ REPLY_B, 1420, 0, 0, 0, 0 },  { REPLY_E, 1480, 0, 100, 0, 0 }, { REQ_E, 1500, 0, 1, 100, 0 },
	{ REQ_B, 1600, 0, 0, 0, 0 },    { PARSE_B, 1610, 0, 0, 0, 0 },  { PARSE_E, 1640, 0, 50, 0, 0 },
	{ LOOKUP_B, 1650, 0, 0, 0, 0 }, { LOOKUP_E, 1800, 0, 3, 0, 0 },
	{ REPLY_B, 1820, 0, 0, 0, 0 },  { REPLY_E, 1880, 0, 50, 0, 0 }, { REQ_E, 1900, 0, 1, 50, 0 },
	{ POLL_E, 2000, 0, 1, 2, 150 },
};

/* A span as the engine gave it, its strings copied. */
struct got {
	char label[64], attr[64];
	uint32_t thread;
	uint64_t id, parent, tsc0, tsc1, cycles, self, inner;
	unsigned depth, nunits;
	int breath;
	char unit[TL_MAX_ARGS][32];
	double units[TL_MAX_ARGS];
};

struct spans {
	struct got s[64];
	size_t n;
};

static void collect(void *ctx, const struct an_span *s)
{
	struct spans *sp = ctx;
	struct got *g = &sp->s[sp->n++];
	ck_assert_uint_lt(sp->n, 64);
	snprintf(g->label, sizeof g->label, "%s", s->label);
	snprintf(g->attr, sizeof g->attr, "%s", s->attr);
	g->thread = s->thread;
	g->id = s->id;
	g->parent = s->parent;
	g->tsc0 = s->tsc0;
	g->tsc1 = s->tsc1;
	g->cycles = s->cycles;
	g->self = s->self;
	g->inner = s->inner;
	g->depth = s->depth;
	g->breath = s->breath;
	g->nunits = s->nunits;
	for (unsigned u = 0; u < s->nunits; u++) {
		snprintf(g->unit[u], sizeof g->unit[u], "%s", s->unit_name[u]);
		g->units[u] = s->units[u];
	}
}

static const tl_def *def_of(void *ctx, uint16_t msgid)
{
	return tl_reader_def(ctx, msgid);
}

/* Feeds the log at PATH to an engine of the declared pairs (each in its
 * first unit), every entry's thread set to its CPU when BY_CPU (threads
 * stand in for the lanes a shared log has), and collects its spans. */
static struct an *spans_of(const char *path, int by_cpu, struct spans *sp)
{
	struct an_options o = { .by = 1u << AN_EVENT | 1u << AN_APP, .per = "packets",
				.per_default = 1, .pairs = an_default_pairs, .npairs = 3,
				.span_fn = collect, .span_ctx = sp };
	tl_pair pairs[8];
	tl_error err;
	tl_reader *r = tl_reader_open(path, &err);
	struct an *a = an_new(&o);
	tl_info info;
	tl_entry e;
	ck_assert_msg(r != NULL, "%s", err.msg);
	for (size_t i = 0; i < sizeof kv_pairs / sizeof kv_pairs[0]; i++)
		ck_assert_int_eq(tl_pair_parse(kv_pairs[i], strlen(kv_pairs[i]), &pairs[i], &err),
				 TL_OK);
	tl_reader_info(r, &info);
	struct an_file f = { path, "kv", "-", "-", NULL, info.tsc_hz, 0, info.cursor, 0, &info,
			     pairs, sizeof kv_pairs / sizeof kv_pairs[0], 0 };
	sp->n = 0;
	an_file_begin(a, &f, def_of, r);
	tl_reader_rewind(r);
	while (tl_reader_next(r, &e)) {
		if (by_cpu)
			e.thread = e.cpu;
		ck_assert_int_eq(an_entry(a, &e), 0);
	}
	an_file_end(a);
	tl_reader_close(r);
	return a;
}

/* Asserts span G is LABEL of ID, PARENT and DEPTH, CYCLES and SELF. */
static void is_span(const struct got *g, const char *label, uint64_t id, uint64_t parent,
		    unsigned depth, uint64_t cycles, uint64_t self)
{
	ck_assert_str_eq(g->label, label);
	ck_assert_uint_eq(g->id, id);
	ck_assert_uint_eq(g->parent, parent);
	ck_assert_uint_eq(g->depth, depth);
	ck_assert_uint_eq(g->cycles, cycles);
	ck_assert_uint_eq(g->self, self);
}


/* Runs timeline ARGS in the test's directory; checks its exit status is
 * WANT; returns stdout, and stderr in *ERR (if not NULL). */
static char *tl(int want, char **err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static char *tl(int want, char **err, const char *fmt, ...)
{
	va_list ap;
	char *args, *cmd, *out, *e;
	int rc;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&args, fmt, ap), 0);
	va_end(ap);
	cmd = xasprintf("cd %s && %s %s", test_dir, timeline_bin(), args);
	rc = run(cmd, &out, &e);
	ck_assert_msg(rc == want, "%s: exit %d, want %d: %s", cmd, rc, want, e);
	if (err)
		*err = e;
	else
		free(e);
	free(args);
	free(cmd);
	return out;
}

/* One run of the key-value server, as a process of its own: POLLS polls
 * of two requests each, every cycle count times SPEED (the run's machine:
 * 1.0 normal, 1.2 a fifth slower); a request's parse takes 1000 cycles for
 * its 100 bytes (10 a byte), its lookup LOOKUP cycles for 2 keys, its
 * reply 1000 for 100 bytes, itself 100 more; a poll 200 more than its two
 * requests. */
static void kv_run(const char *path, int polls, double speed, uint64_t lookup)
{
	struct step s[8 + 16 * 8];
	uint64_t t = 1000, c[5] = { 200, 100, 1000, lookup, 1000 };
	size_t n = 0;
	ck_assert_int_le(polls, 8);
	for (int k = 0; k < 5; k++)
		c[k] = (uint64_t)((double)c[k] * speed + 0.5);
	for (int p = 0; p < polls; p++) {
		s[n++] = (struct step){ POLL_B, t, 0, (uint64_t)p + 1, 0, 0 };
		t += c[0];   /* the poll's own */
		for (int q = 0; q < 2; q++) {
			s[n++] = (struct step){ REQ_B, t, 0, 0, 0, 0 };
			t += c[1];   /* the request's own */
			s[n++] = (struct step){ PARSE_B, t, 0, 0, 0, 0 };
			s[n++] = (struct step){ PARSE_E, t += c[2], 0, 100, 0, 0 };
			s[n++] = (struct step){ LOOKUP_B, t, 0, 0, 0, 0 };
			s[n++] = (struct step){ LOOKUP_E, t += c[3], 0, 2, 0, 0 };
			s[n++] = (struct step){ REPLY_B, t, 0, 0, 0, 0 };
			s[n++] = (struct step){ REPLY_E, t += c[4], 0, 100, 0, 0 };
			s[n++] = (struct step){ REQ_E, t, 0, 1, 100, 0 };
		}
		s[n++] = (struct step){ POLL_E, t, 0, (uint64_t)p + 1, 2, 200 };
		t += 10000;
	}
	write_kv(path, s, n, 1024);
	/* as the log of a process of its own: a run */
	uint64_t start = 5000000000ull + (uint64_t)(speed * 1000) * 1000 + lookup + (uint64_t)n * 7;
	static uint64_t k;
	start += k++ * 1000000;
	patch_file(path, 168, &start, sizeof start);
}

/* The CSV field COL (0 first) of the row of diff's CSV OUT whose first
 * field is "EVENT" (quoted), as a string into BUF. */
static const char *field(const char *out, const char *event, int col, char *buf, size_t size)
{
	char *key = xasprintf("\n\"%s\",", event);
	const char *p = strstr(out, key);
	ck_assert_msg(p != NULL, "no row %s in %s", event, out);
	p++;
	for (int k = 0; k < col; k++) {
		if (*p == '"')
			p = strchr(p + 1, '"') + 1;
		else
			p += strcspn(p, ",\n");
		ck_assert(*p == ',');
		p++;
	}
	snprintf(buf, size, "%.*s", (int)strcspn(p, ",\n"), p);
	free(key);
	return buf;
}

START_TEST(test_spans_nest_three_deep_with_parents_and_self_cycles)
{
	const char *path = path_in(test_dir, "kv.timeline");
	struct spans sp;
	struct an *a;
	write_kv(path, one_poll, sizeof one_poll / sizeof one_poll[0], 64);
	a = spans_of(path, 0, &sp);
	ck_assert_uint_eq(sp.n, 9);
	/* children end first: each request's stages, the request, the poll */
	is_span(&sp.s[0], "kv.parse", 2, 1, 2, 50, 50);
	is_span(&sp.s[1], "kv.lookup", 4, 1, 2, 200, 200);
	is_span(&sp.s[2], "kv.reply", 6, 1, 2, 60, 60);
	is_span(&sp.s[3], "kv.req", 1, 0, 1, 400, 90);     /* 400 - 50 - 200 - 60 */
	ck_assert_uint_eq(sp.s[3].inner, 3);
	is_span(&sp.s[4], "kv.parse", 10, 9, 2, 30, 30);
	is_span(&sp.s[5], "kv.lookup", 12, 9, 2, 150, 150);
	is_span(&sp.s[6], "kv.reply", 14, 9, 2, 60, 60);
	is_span(&sp.s[7], "kv.req", 9, 0, 1, 300, 60);     /* 300 - 30 - 150 - 60 */
	is_span(&sp.s[8], "kv.poll", 0, AN_NO_PARENT, 0, 1000, 300);   /* 1000 - 400 - 300 */
	ck_assert_uint_eq(sp.s[8].inner, 2);
	ck_assert_int_eq(sp.s[8].breath, 1);
	ck_assert_int_eq(sp.s[7].breath, 0);
	/* every declared unit, in the order of its unit= words */
	ck_assert_uint_eq(sp.s[8].nunits, 2);
	ck_assert_str_eq(sp.s[8].unit[0], "requests");
	ck_assert_str_eq(sp.s[8].unit[1], "bytes");
	ck_assert(sp.s[8].units[0] == 2 && sp.s[8].units[1] == 150);
	ck_assert(sp.s[3].units[0] == 1 && sp.s[3].units[1] == 100);
	ck_assert_str_eq(sp.s[5].unit[0], "keys");
	ck_assert(sp.s[5].units[0] == 3);
	ck_assert_str_eq(sp.s[0].attr, "-");
	an_free(a);
}
END_TEST


/* A begin that never ends is replaced by the next of its kind on its
 * thread; an end with nothing open is counted, never paired; spans that
 * overlap without nesting are neither's parent. */
START_TEST(test_spans_count_what_does_not_pair_and_keep_overlaps_apart)
{
	static const struct step s[] = {
		{ POLL_B, 1000, 0, 1, 0, 0 },                                 /* 0 */
		{ LOOKUP_B, 1010, 0, 0, 0, 0 },                               /* 1: never ends */
		{ LOOKUP_B, 1100, 0, 0, 0, 0 },                               /* 2 */
		{ LOOKUP_E, 1300, 0, 4, 0, 0 },                               /* 3 */
		{ REPLY_E, 1310, 0, 10, 0, 0 },                               /* 4: no begin */
		{ PARSE_B, 1400, 0, 0, 0, 0 },                                /* 5 */
		{ REPLY_B, 1450, 0, 0, 0, 0 },                                /* 6 */
		{ PARSE_E, 1500, 0, 20, 0, 0 },                               /* 7: reply open */
		{ REPLY_E, 1600, 0, 30, 0, 0 },                               /* 8 */
		{ POLL_E, 1700, 0, 1, 0, 60 },                                /* 9 */
		{ REQ_B, 1800, 0, 0, 0, 0 },                                  /* 10: open at the end */
	};
	const char *path = path_in(test_dir, "kv.timeline");
	struct spans sp;
	struct an *a;
	const struct an_unmatched *u;
	size_t nu;
	write_kv(path, s, sizeof s / sizeof s[0], 64);
	a = spans_of(path, 0, &sp);
	ck_assert_uint_eq(sp.n, 4);
	is_span(&sp.s[0], "kv.lookup", 2, 0, 1, 200, 200);
	/* the parse began before the reply and ended inside it: the reply
	 * (1450-1600) overlaps it without nesting, and its parent is the poll */
	is_span(&sp.s[1], "kv.parse", 5, 0, 1, 100, 100);
	is_span(&sp.s[2], "kv.reply", 6, 0, 1, 150, 150);
	is_span(&sp.s[3], "kv.poll", 0, AN_NO_PARENT, 0, 700, 250);   /* 700 - 200 - 100 - 150 */
	u = an_unmatched_list(a, &nu);
	ck_assert_uint_eq(nu, 3);
	ck_assert_str_eq(u[0].label, "kv.lookup_begin");   /* replaced */
	ck_assert_uint_eq(u[0].begins, 1);
	ck_assert_uint_eq(u[0].ends, 0);
	ck_assert_str_eq(u[1].label, "kv.reply");          /* an end alone */
	ck_assert_uint_eq(u[1].ends, 1);
	ck_assert_str_eq(u[2].label, "kv.req_begin");      /* open at the end */
	ck_assert_uint_eq(u[2].begins, 1);
	an_free(a);
}
END_TEST

/* Two threads run the same pair at once: each end pairs with its own
 * thread's begin, never the other's. */
START_TEST(test_spans_pair_within_their_thread_only)
{
	static const struct step s[] = {
		{ POLL_B, 1000, 0, 1, 0, 0 }, { POLL_B, 1010, 1, 1, 0, 0 },
		{ REQ_B, 1020, 1, 0, 0, 0 },  { REQ_B, 1030, 0, 0, 0, 0 },
		{ REQ_E, 1100, 1, 1, 7, 0 },  { POLL_E, 1200, 0, 1, 0, 0 },
		{ POLL_E, 1500, 1, 1, 1, 7 }, { REQ_E, 1600, 0, 1, 9, 0 },
	};
	const char *path = path_in(test_dir, "kv.timeline");
	struct spans sp;
	struct an *a;
	size_t nu;
	write_kv(path, s, sizeof s / sizeof s[0], 64);
	a = spans_of(path, 1, &sp);
	ck_assert_uint_eq(sp.n, 4);
	is_span(&sp.s[0], "kv.req", 2, 1, 1, 80, 80);          /* thread 1 */
	ck_assert_uint_eq(sp.s[0].thread, 1);
	is_span(&sp.s[1], "kv.poll", 0, AN_NO_PARENT, 0, 200, 200);   /* thread 0: its req
									 * is still open */
	ck_assert_uint_eq(sp.s[1].thread, 0);
	is_span(&sp.s[2], "kv.poll", 1, AN_NO_PARENT, 0, 490, 410);
	ck_assert_uint_eq(sp.s[2].thread, 1);
	is_span(&sp.s[3], "kv.req", 3, AN_NO_PARENT, 0, 570, 570);   /* thread 0's, after
									 * its poll ended */
	ck_assert_uint_eq(sp.s[3].thread, 0);
	an_unmatched_list(a, &nu);
	ck_assert_uint_eq(nu, 0);
	an_free(a);
	/* read as one thread, the same entries pair across the threads: each
	 * second begin replaces the first, and two ends find nothing open */
	a = spans_of(path, 0, &sp);
	an_unmatched_list(a, &nu);
	ck_assert_uint_eq(nu, 4);
	ck_assert_uint_eq(sp.n, 2);
	an_free(a);
}
END_TEST


/* Five runs a side, a run's every pair alike, three of them on a slower
 * machine (speeds 1.2, 1.1 and 0.9 of the others'); B's lookups take 800
 * cycles where A's take 400. The poll and request pairs hold the lookup:
 * they are slower, and a yardstick made of them would read parse and
 * reply faster in B. Made of the groups' own cycles, and never of what a
 * group holds, it reads each run's speed exactly: parse and reply
 * unchanged to the last digit, lookup +100%, the runs' speed (all) +0. */
START_TEST(test_diff_judges_nested_spans_by_their_own_cycles)
{
	static const double speed[2][5] = { { 1.0, 1.2, 1.0, 1.1, 0.9 }, { 1.1, 1.0, 1.2, 0.9, 1.0 } };
	char *out, *err, buf[64];
	ck_assert_int_eq(mkdir(path_in(test_dir, "A"), 0700), 0);
	ck_assert_int_eq(mkdir(path_in(test_dir, "B"), 0700), 0);
	for (int s = 0; s < 2; s++)
		for (int r = 0; r < 5; r++)
			kv_run(path_in(test_dir, test_str("%c/r%d.timeline", "AB"[s], r)), 6, speed[s][r],
			       s ? 800 : 400);
	out = tl(1, &err, "diff -f csv A B");
	/* the columns: event app unit runs_a runs_b n_a n_b p50_a p50_b p90_a
	 * p90_b change% ci_lo% ci_hi% p p_pairs verdict */
	ck_assert_str_eq(field(out, "kv.parse", 11, buf, sizeof buf), "0");
	ck_assert_str_eq(field(out, "kv.parse", 16, buf, sizeof buf), "\"no change shown\"");
	ck_assert_str_eq(field(out, "kv.reply", 11, buf, sizeof buf), "0");
	ck_assert_str_eq(field(out, "kv.reply", 16, buf, sizeof buf), "\"no change shown\"");
	ck_assert_str_eq(field(out, "kv.lookup", 11, buf, sizeof buf), "100");
	ck_assert_str_eq(field(out, "kv.lookup", 14, buf, sizeof buf), "0.0079365079365079361");
	ck_assert_str_eq(field(out, "kv.lookup", 16, buf, sizeof buf), "\"SLOWER\"");
	ck_assert_str_eq(field(out, "kv.lookup", 2, buf, sizeof buf), "\"keys\"");
	/* the request (2500 cycles, 2900 in B) and the poll (2600 a request,
	 * 3000) are slower, as they hold the lookup; but nothing outside them
	 * is left to judge their runs' speed by but the poll's own (fewer than
	 * three groups): as they are, A's run at 1.2 is above two of B's, and
	 * their change (+16%, +15.4%: the median run's) is no finding */
	ck_assert_str_eq(field(out, "kv.req", 16, buf, sizeof buf), "\"no change shown\"");
	ck_assert_msg(fabs(strtod(field(out, "kv.req", 11, buf, sizeof buf), NULL) - 16) < 1e-9, "%s", buf);
	ck_assert_str_eq(field(out, "kv.poll", 16, buf, sizeof buf), "\"no change shown\"");
	ck_assert_msg(fabs(strtod(field(out, "kv.poll", 11, buf, sizeof buf), NULL) - 400.0 / 26) < 1e-9,
		      "%s", buf);
	ck_assert_str_eq(field(out, "(all)", 11, buf, sizeof buf), "0");
	ck_assert_str_eq(field(out, "(all)", 16, buf, sizeof buf), "\"no change shown\"");
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
	/* the title says what was compared: 5 runs of 5 logs a side */
	out = tl(1, NULL, "diff A B");
	ck_assert_msg(strstr(out, "cycles per unit, each pair in its own, A -> B, runs (processes) "
			      "as samples, relative to their speed: A 5 runs of 5 logs, B 5 runs of 5 "
			      "logs (threshold 5%, alpha 0.05, intervals at 95%)\n"), "%s", out);
	free(out);
}
END_TEST

/* The logs of one process are one run: two of each side's processes wrote
 * two logs each; --runs file counts every log, and says which share one. */
START_TEST(test_logs_of_one_process_are_one_run)
{
	char *out, *err;
	uint64_t start[4] = { 6000000001ull, 6000000001ull, 6000000002ull, 6000000002ull };
	ck_assert_int_eq(mkdir(path_in(test_dir, "A"), 0700), 0);
	ck_assert_int_eq(mkdir(path_in(test_dir, "B"), 0700), 0);
	for (int s = 0; s < 2; s++)
		for (int r = 0; r < 4; r++) {
			const char *p = path_in(test_dir, test_str("%c/r%d.timeline", "AB"[s], r));
			kv_run(p, 2, 1.0, 400);
			start[r] += (uint64_t)s * 10;
			patch_file(p, 168, &start[r], sizeof start[r]);
		}
	out = tl(0, &err, "diff A B");
	ck_assert_msg(strstr(out, ": A 2 runs of 4 logs, B 2 runs of 4 logs ("), "%s", out);
	ck_assert_msg(strstr(err, "timeline diff: note: 2 runs in A and 2 in B: no test over runs"),
		      "%s", err);
	free(out);
	free(err);
	out = tl(0, &err, "diff --runs file A B");
	ck_assert_msg(strstr(out, "runs (logs) as samples, relative to their speed: A 4 runs of 4 logs, "
			      "B 4 runs of 4 logs ("), "%s", out);
	tl_info info = info_at(path_in(test_dir, "A/r0.timeline"));
	for (int k = 0; k < 4; k++)   /* a line per process of each side, its pid and host */
		ck_assert_msg(strstr(err, test_str("timeline diff: warning: --runs file: 2 logs of one "
						   "process (pid %u on %s) are 2 runs, though its "
						   "threads share one machine's moments: --runs "
						   "process pools them\n", info.pid, info.host)),
			      "%s", err);
	free(out);
	free(err);
}
END_TEST

/* The report's verdicts are diff's, row for row, each with its unit, and
 * the page names the diff command. */
START_TEST(test_the_reports_verdicts_are_diffs_value_for_value)
{
	static const double speed[2][4] = { { 1.0, 1.2, 1.0, 1.1 }, { 1.1, 1.0, 1.2, 0.9 } };
	char *out;
	ck_assert_int_eq(mkdir(path_in(test_dir, "A"), 0700), 0);
	ck_assert_int_eq(mkdir(path_in(test_dir, "B"), 0700), 0);
	for (int s = 0; s < 2; s++)
		for (int r = 0; r < 4; r++)
			kv_run(path_in(test_dir, test_str("%c/r%d.timeline", "AB"[s], r)), 6, speed[s][r],
			       s ? 600 : 400);
	out = tl(0, NULL, "diff -f json A B > d.json; %s report -f json --a A --b B > r.json; "
		 "python3 -c '\n"
		 "import json\n"
		 "d = [json.loads(l) for l in open(\"d.json\")]\n"
		 "r = [json.loads(l) for l in open(\"r.json\")]\n"
		 "v = [c for c in r if c.get(\"chart\") == \"diff-verdicts\"][0][\"rows\"]\n"
		 "s = [c for c in r if c.get(\"section\") == \"diff\" and \"about\" in c][0]\n"
		 "assert sorted(map(str, v)) == sorted(map(str, [dict((k, x) for k, x in l.items() if k != \"table\") for l in d])), (v, d)\n"
		 "print(len(v), sorted(set(x.get(\"unit\") for x in v if x[\"event\"] != \"(all)\")))\n"
		 "print(\"timeline diff --a A --b B\" in s[\"about\"])\n"
		 "' 2>&1", timeline_bin());
	ck_assert_str_eq(out, "6 ['bytes', 'keys', 'requests']\nTrue\n");
	free(out);
}
END_TEST

/* The lowest CPU this process may run on. */
static int lowest_cpu(void)
{
	cpu_set_t set;
	int cpu = 0;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		while (cpu < CPU_SETSIZE - 1 && !CPU_ISSET(cpu, &set))
			cpu++;
	return cpu;
}

/* examples/kv itself, 5 runs a side on one CPU, interleaved; the slowed
 * side's lookup does five times the work (a count, not a speed: its
 * verdict holds on a loaded machine). Only the lookup and the pairs that
 * hold it read SLOWER; its unchanged siblings read nothing; two sets of
 * normal runs read nothing at all. */
START_TEST(test_the_kv_servers_slowed_lookup_and_nothing_else)
{
	const char *kv = getenv("TIMELINE_KV");
	char *out, *err, buf[64];
	ck_assert_msg(kv != NULL, "TIMELINE_KV unset: run the suite with make check");
	for (int r = 0; r < 5; r++)
		for (int s = 0; s < 3; s++) {
			char *cmd = xasprintf("%s --polls 1500 --rate all --cpu %d --seed %d --dir %s/%c%s",
					      kv, lowest_cpu(), 7 + r, test_dir, "AAB"[s],
					      s == 2 ? " --slow lookup=400" : s == 1 ? "" : "");
			char *o;
			if (s == 1) {   /* a second normal set: A2 */
				free(cmd);
				cmd = xasprintf("%s --polls 1500 --rate all --cpu %d --seed %d --dir %s/A2",
						kv, lowest_cpu(), 7 + r, test_dir);
			}
			ck_assert_int_eq(run(cmd, &o, NULL), 0);
			free(o);
			free(cmd);
		}
	/* a threshold of 20%: on a loaded machine a normal set's runs can all
	 * drift a few per cent from another's, and the claim is that nothing
	 * but the lookup (+400%) and what holds it moved, not that no drift
	 * exists (tests/README.md, "On any machine") */
	out = tl(1, &err, "diff --threshold 20 -f csv A B");
	ck_assert_str_eq(field(out, "kv.lookup", 16, buf, sizeof buf), "\"SLOWER\"");
	for (int k = 0; k < 2; k++) {
		const char *v = field(out, k ? "kv.reply" : "kv.parse", 16, buf, sizeof buf);
		ck_assert_msg(strcmp(v, "\"SLOWER\"") && strcmp(v, "\"faster\""), "%s: %s",
			      k ? "reply" : "parse", out);
	}
	free(out);
	free(err);
	out = tl(0, NULL, "diff --threshold 20 -f csv A A2");
	ck_assert_ptr_null(strstr(out, "SLOWER"));
	ck_assert_ptr_null(strstr(out, "faster"));
	free(out);
}
END_TEST


/* A forwarder's loop declared as its breath, holding port 0's rx and tx
 * pairs: three breaths back to back of 1000 cycles (1 GHz), each rx 200
 * cycles and tx 300 for 10 packets, 600 bytes. Written with Snabb's names
 * too (breath_start/breath_end, app.pull/pulled of app rx, app.push/pushed
 * of app tx), the same entries at the same times. */
static void fwd_log(const char *path, int snabb)
{
	static const char *const fwd[] = { "1,9|fwd.loop_begin: n", "1,9|fwd.loop_end: packets bytes" };
	static const char *const fport[] = { "5,9|fwd.rx_begin: n", "5,9|fwd.rx_end: packets",
					     "5,9|fwd.tx_begin: n", "5,9|fwd.tx_end: packets" };
	static const char *const eng[] = {
		"1,9|engine.breath_start: breath totalpackets totalbytes totaletherbits",
		"1,9|engine.breath_end: breath totalpackets totalbytes totaletherbits",
	};
	static const char *const rx[] = { "5,9|app.pull: outpackets", "5,9|app.pulled: outpackets" };
	static const char *const tx[] = { "5,9|app.push: inpackets", "5,9|app.pushed: inpackets" };
	static const char *const pairs[] = {
		"pair|fwd.loop: fwd.loop_begin fwd.loop_end unit=packets unit=bytes breath",
		"pair|fwd.rx: fwd.rx_begin fwd.rx_end by=port unit=packets",
		"pair|fwd.tx: fwd.tx_begin fwd.tx_end by=port unit=packets",
	};
	tl_options o = { .entries = 64, .clock = TL_CLOCK_MANUAL, .tsc_hz = 1000000000,
			 .strings_bytes = 16384, .name = "fwd" };
	uint16_t b[2], r[4], x[2], id;
	tl_error err;
	tl_log *log = tl_open(path, &o, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	if (snabb) {
		ck_assert_int_eq(tl_register(log, eng, 2, NULL, b, &err), TL_OK);
		ck_assert_int_eq(tl_register(log, rx, 2, "app=rx", r, &err), TL_OK);
		ck_assert_int_eq(tl_register(log, tx, 2, "app=tx", x, &err), TL_OK);
		r[2] = x[0], r[3] = x[1];
	} else {
		ck_assert_int_eq(tl_register(log, fwd, 2, NULL, b, &err), TL_OK);
		ck_assert_int_eq(tl_register(log, fport, 4, "port=0", r, &err), TL_OK);
		for (size_t i = 0; i < 3; i++)
			ck_assert_int_eq(tl_intern(log, pairs[i], &id, &err), TL_OK);
	}
	for (uint64_t k = 0; k < 3; k++) {
		uint64_t t0 = 1000 + 1000 * k, total = 10 * k;
		tl_set_manual_clock(log, t0, 0);
		tl_append(log, b[0], k, total, 60 * total, 0, 0, 0);
		tl_set_manual_clock(log, t0 + 100, 0);
		tl_append(log, r[0], total, 0, 0, 0, 0, 0);
		tl_set_manual_clock(log, t0 + 300, 0);
		tl_append(log, r[1], snabb ? total + 10 : 10, 0, 0, 0, 0, 0);
		tl_set_manual_clock(log, t0 + 400, 0);
		tl_append(log, r[2], total, 0, 0, 0, 0, 0);
		tl_set_manual_clock(log, t0 + 700, 0);
		tl_append(log, r[3], snabb ? total + 10 : 10, 0, 0, 0, 0, 0);
		tl_set_manual_clock(log, t0 + 1000, 0);
		if (snabb)
			tl_append(log, b[1], k + 1, total + 10, 60 * (total + 10), 0, 0, 0);
		else
			tl_append(log, b[1], 10, 600, 0, 0, 0, 0);
	}
	tl_close(log);
}

/* The declared breath gives where the cycles go and the breath summary as
 * Snabb's names do: rx 20%, tx 30%, the breath's own 50%; a packet in 100
 * cycles, 10 a breath, 60 bytes each, 4.8 Gbps, a breath a microsecond.
 * Snabb's summary runs from the first to the last breath_end (2 breaths),
 * the declared breath's counts the breaths logged (3) and their own time:
 * the rates agree. */
START_TEST(test_a_declared_breath_is_counted_as_snabbs)
{
	char *out;
	fwd_log(path_in(test_dir, "d.timeline"), 0);
	fwd_log(path_in(test_dir, "s.timeline"), 1);
	const char *p = test_str("check_timeline[%d]", (int)getpid());
	out = tl(0, NULL, "stats --overhead -f csv d.timeline");
	ck_assert_str_eq(out, test_str("\"process\",\"span\",\"share%%\",\"cycles\",\"breaths\"\n"
				       "\"%s\",\"fwd.tx port=0\",30,900,3\n"
				       "\"%s\",\"fwd.rx port=0\",20,600,3\n"
				       "\"%s\",\"(unattributed)\",50,1500,3\n", p, p, p));
	free(out);
	out = tl(0, NULL, "stats --per packets --overhead -f csv s.timeline");
	ck_assert_str_eq(out, test_str("\"process\",\"app\",\"share%%\",\"cycles\",\"breaths\"\n"
				       "\"%s\",\"tx\",30,900,3\n"
				       "\"%s\",\"rx\",20,600,3\n"
				       "\"%s\",\"(no app)\",50,1500,3\n", p, p, p));
	free(out);
	/* the group is the directory's name */
	out = tl(0, NULL, "stats --breaths -f csv d.timeline");
	ck_assert_str_eq(out, test_str("\"process\",\"group\",\"breaths\",\"breaths/s\","
				       "\"packets/breath\",\"bytes/packet\",\"cycles/packet\",\"Gbps\","
				       "\"us/breath\"\n"
				       "\"%s\",\"%s\",3,1000000,10,60,100,4.8,1\n", p,
				       strrchr(test_dir, '/') + 1));
	free(out);
	/* each breath's packets in the span table: end minus begin of the
	 * running totals Snabb's breath_end and breath_start carry */
	out = tl(0, NULL, "dump --spans -f csv s.timeline | cut -d, -f6,16,18 | grep breath");
	ck_assert_str_eq(out, "\"engine.breath\",1000,10\n\"engine.breath\",1000,10\n"
			      "\"engine.breath\",1000,10\n");
	free(out);
	out = tl(0, NULL, "stats --per packets --breaths -f csv s.timeline");
	ck_assert_str_eq(out, test_str("\"process\",\"group\",\"breaths\",\"breaths/s\","
				       "\"packets/breath\",\"bytes/packet\",\"cycles/packet\",\"Gbps\","
				       "\"us/breath\"\n"
				       "\"%s\",\"%s\",2,1000000,10,60,100,4.8,1\n", p,
				       strrchr(test_dir, '/') + 1));
	free(out);
}
END_TEST


/* The span table: three deep in one log; in another, the same poll and a
 * lookup begun after it, in a ring of 16 that kept the last 16 of its 19
 * entries (the poll's and the first request's begins overwritten): their
 * ends, and the begin that never ended, are counted, never made spans. */
START_TEST(test_dump_spans_gives_each_span_its_parent_and_self_cycles)
{
	static const struct step more = { LOOKUP_B, 2100, 0, 0, 0, 0 };
	struct step wrapped[19];
	char *out, *err;
	write_kv(path_in(test_dir, "kv.timeline"), one_poll, 18, 64);
	memcpy(wrapped, one_poll, sizeof one_poll);
	wrapped[18] = more;
	write_kv(path_in(test_dir, "w.timeline"), wrapped, 19, 16);
	out = tl(0, &err, "dump --spans kv.timeline w.timeline | tr -s ' '");
	ck_assert_str_eq(out,
		"# kv.timeline\n"
		"thread cpu numa span attr id parent depth begin end cycles self bytes keys requests\n"
		" 0 0 0 kv.poll - 0 - 0 0 1000 1000 300 150 - 2\n"
		" 0 0 0 kv.req - 1 0 1 100 500 400 90 100 - 1\n"
		" 0 0 0 kv.parse - 2 1 2 120 170 50 50 100 - -\n"
		" 0 0 0 kv.lookup - 4 1 2 200 400 200 200 - 2 -\n"
		" 0 0 0 kv.reply - 6 1 2 420 480 60 60 100 - -\n"
		" 0 0 0 kv.req - 9 0 1 600 900 300 60 50 - 1\n"
		" 0 0 0 kv.parse - 10 9 2 610 640 30 30 50 - -\n"
		" 0 0 0 kv.lookup - 12 9 2 650 800 150 150 - 3 -\n"
		" 0 0 0 kv.reply - 14 9 2 820 880 60 60 50 - -\n"
		"\n"
		"# w.timeline\n"
		"thread cpu numa span attr id parent depth begin end cycles self bytes keys requests\n"
		" 0 0 0 kv.lookup - 4 - 0 30 230 200 200 - 2 -\n"
		" 0 0 0 kv.reply - 6 - 0 250 310 60 60 100 - -\n"
		" 0 0 0 kv.req - 9 - 0 430 730 300 60 50 - 1\n"
		" 0 0 0 kv.parse - 10 9 1 440 470 30 30 50 - -\n"
		" 0 0 0 kv.lookup - 12 9 1 480 630 150 150 - 3 -\n"
		" 0 0 0 kv.reply - 14 9 1 650 710 60 60 50 - -\n");
	ck_assert_str_eq(err, "timeline dump: note: w.timeline: 1 begin never ended and 3 ends had "
			      "no begin (not spans; stats lists them by pair)\n");
	free(out);
	free(err);
	/* a window keeps the spans whose both ends it keeps; --limit counts spans */
	out = tl(0, NULL, "dump --spans -f csv --from 600 --limit 2 kv.timeline | cut -d, -f6,9-11,16,17");
	ck_assert_str_eq(out, "\"span\",\"id\",\"parent\",\"depth\",\"cycles\",\"self\"\n"
			      "\"kv.req\",9,,0,300,60\n"
			      "\"kv.parse\",10,9,1,30,30\n");
	free(out);
	/* the same rows in Python, and the wall times from the log's clock */
	out = tl(0, NULL, "dump --spans kv.timeline >/dev/null; %s -c '\n"
		 "import sys; sys.path.insert(0, \"%s/python\")\n"
		 "import timeline\n"
		 "d = timeline.spans(\"kv.timeline\")\n"
		 "print(list(d.span), list(d.parent.astype(\"Int64\").fillna(-1)))\n"
		 "print(list(d.self), list(d[\"keys\"].fillna(0)), list(d.requests.fillna(0)))\n"
		 "print(list(d.end_ns - d.begin_ns) == list(d.cycles), str(d.parent.dtype))\n"
		 "'", getenv("TIMELINE_PYTHON") ? getenv("TIMELINE_PYTHON") : "python3",
		 getenv("TIMELINE_SRC") ? getenv("TIMELINE_SRC") : ".");
	ck_assert_str_eq(out, "['kv.poll', 'kv.req', 'kv.parse', 'kv.lookup', 'kv.reply', 'kv.req', "
			      "'kv.parse', 'kv.lookup', 'kv.reply'] [-1, 0, 1, 1, 1, 0, 9, 9, 9]\n"
			      "[300, 90, 50, 200, 60, 60, 30, 150, 60] [0, 0, 0, 2, 0, 0, 0, 3, 0] "
			      "[2, 1, 0, 0, 0, 1, 0, 0, 0]\n"
			      "True Int64\n");
	free(out);
}
END_TEST

/* --self: each pair's own cycles per unit: the request's 90 of 400 and 60
 * of 300 (per request: 75 on average), the poll's 300 of its 2 requests. */
START_TEST(test_stats_self_gives_each_pairs_own_cycles)
{
	char *out, *err;
	write_kv(path_in(test_dir, "kv.timeline"), one_poll, 18, 64);
	out = tl(0, NULL, "stats --self -f csv kv.timeline | cut -d, -f1,3-7");
	ck_assert_str_eq(out, "\"event\",\"unit\",\"pairs\",\"units\",\"cycles_per_unit\",\"p50\"\n"
			      "\"kv.lookup\",\"keys\",2,5,70,50\n"
			      "\"kv.parse\",\"bytes\",2,150,0.53333333333333333,0.5\n"
			      "\"kv.poll\",\"requests\",1,2,150,150\n"
			      "\"kv.reply\",\"bytes\",2,150,0.8,0.6\n"
			      "\"kv.req\",\"requests\",2,2,75,60\n");
	free(out);
	/* the text says which cycles, and that the ns stay the whole span's */
	out = tl(0, NULL, "stats --self kv.timeline | grep '^self' | cut -d'(' -f2");
	ck_assert_str_eq(out, "its cycles less those of the pairs inside it; p50_ns and p99_ns: the whole span)\n"
			      "its cycles less those of the pairs inside it; p50_ns and p99_ns: the whole span)\n"
			      "its cycles less those of the pairs inside it; p50_ns and p99_ns: the whole span)\n");
	free(out);
	out = tl(2, &err, "stats --self --lags kv.timeline");
	ck_assert_str_eq(out, "");
	ck_assert_str_eq(err, "timeline stats: --self goes with pairs: give --per, or leave out --lags\n"
			      "see 'timeline stats --help'\n");
	free(out);
	free(err);
}
END_TEST


/* Where the poll's cycles go, by each span's own cycles: the requests'
 * 90 + 60, the stages' own, and the poll's 300 that no span holds, so
 * that the shares add up to the poll's 1000. A pair without the unit
 * asked for (the lookup, in keys) is no row of it, and never takes its
 * breath's, as Snabb's app pairs do. */
START_TEST(test_the_shares_count_each_cycle_once_and_units_stay_declared)
{
	char *out;
	write_kv(path_in(test_dir, "kv.timeline"), one_poll, 18, 64);
	out = tl(0, NULL, "stats kv.timeline | sed -n '/^process  *span /,/^$/p' | tr -s ' ' | cut -d' ' -f2-4");
	ck_assert_str_eq(out, "span share% cycles\n"
			      "kv.lookup 35 350\n"
			      "kv.req 15 150\n"
			      "kv.reply 12 120\n"
			      "kv.parse 8 80\n"
			      "(unattributed) 30 300\n"
			      "\n");
	free(out);
	out = tl(0, NULL, "stats --per bytes -f csv kv.timeline | cut -d, -f1-4");
	ck_assert_str_eq(out, "\"event\",\"app\",\"pairs\",\"bytes\"\n"
			      "\"kv.parse\",,2,150\n"
			      "\"kv.poll\",,1,150\n"
			      "\"kv.reply\",,2,150\n"
			      "\"kv.req\",,2,150\n");
	free(out);
}
END_TEST

/* Spans begun at one time are listed outermost first: the poll, the
 * request it holds, then the parse. */
START_TEST(test_spans_begun_at_one_time_list_the_outer_first)
{
	static const struct step same[] = {
		{ POLL_B, 1000, 0, 1, 0, 0 },   { REQ_B, 1000, 0, 0, 0, 0 },
		{ PARSE_B, 1000, 0, 0, 0, 0 },  { PARSE_E, 1050, 0, 100, 0, 0 },
		{ REQ_E, 1100, 0, 1, 100, 0 },  { POLL_E, 1100, 0, 1, 1, 100 },
	};
	char *out;
	write_kv(path_in(test_dir, "same.timeline"), same, 6, 64);
	out = tl(0, NULL, "dump --spans -f csv same.timeline | cut -d, -f6,10,11");
	ck_assert_str_eq(out, "\"span\",\"parent\",\"depth\"\n"
			      "\"kv.poll\",,0\n"
			      "\"kv.req\",0,1\n"
			      "\"kv.parse\",1,2\n");
	free(out);
}
END_TEST

/* An event logged once a log has no lag, on either side: diff gives it no
 * row (it gave one of 0 runs a side). */
START_TEST(test_a_group_of_no_value_on_either_side_is_no_row)
{
	uint64_t lags[6] = { 10, 20, 30, 40, 50, 60 };
	char *out;
	ck_assert_int_eq(mkdir(path_in(test_dir, "A"), 0700), 0);
	ck_assert_int_eq(mkdir(path_in(test_dir, "B"), 0700), 0);
	for (int k = 0; k < 8; k++) {
		const char *p = path_in(test_dir, test_str("%c/r%d.timeline", "AB"[k % 2], k / 2));
		tl_log *log = open_manual(p, 64);
		uint16_t started;
		ck_assert_int_eq(tl_intern(log, "0,9|x.started: n", &started, NULL), TL_OK);
		tl_set_manual_clock(log, 500, 0);
		tl_append(log, started, 1, 0, 0, 0, 0, 0);
		close_run(log);
		lags_log(path_in(test_dir, test_str("%c/t%d.timeline", "AB"[k % 2], k / 2)), 64, lags, 6);
	}
	out = tl(0, NULL, "diff -f csv A B | cut -d, -f1-3");
	ck_assert_str_eq(out, "\"event\",\"runs_a\",\"runs_b\"\n\"e.tick\",4,4\n");
	free(out);
}
END_TEST

START_TEST(test_unit_singular_follows_regular_english_plurals)
{
	static const char *const words[][2] = {
		{ "packets", "packet" },   { "requests", "request" }, { "sessions", "session" },
		{ "messages", "message" }, { "queries", "query" },    { "boxes", "box" },
		{ "bytes", "byte" },       { "keys", "key" },         { "rows", "row" },
		{ "passes", "pass" },      { "batches", "batch" },    { "flashes", "flash" },
		{ "buzzes", "buzz" },      { "status", "status" },    { "class", "class" },
		{ "analysis", "analysis" }, { "data", "data" },       { "s", "s" },
		{ "entries", "entry" },    { "indexes", "index" },
	};
	char buf[64];
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t n = an_unit_singular(buf, sizeof buf, words[i][0]);
		ck_assert_msg(!strcmp(buf, words[i][1]), "%s: %s, want %s", words[i][0], buf,
			      words[i][1]);
		ck_assert_uint_eq(n, strlen(words[i][1]));
	}
	/* cut to fit, the length it would have had */
	ck_assert_uint_eq(an_unit_singular(buf, 4, "queries"), 5);
	ck_assert_str_eq(buf, "que");
	an_cycles_per(buf, sizeof buf, "queries");
	ck_assert_str_eq(buf, "cycles/query");
}
END_TEST

Suite *spans_suite(void)
{
	Suite *s = suite_create("spans");
	TCase *t = tcase_create("spans");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_spans_nest_three_deep_with_parents_and_self_cycles);
	tcase_add_test(t, test_spans_count_what_does_not_pair_and_keep_overlaps_apart);
	tcase_add_test(t, test_spans_pair_within_their_thread_only);
	tcase_add_test(t, test_unit_singular_follows_regular_english_plurals);
	tcase_add_test(t, test_a_declared_breath_is_counted_as_snabbs);
	tcase_add_test(t, test_dump_spans_gives_each_span_its_parent_and_self_cycles);
	tcase_add_test(t, test_stats_self_gives_each_pairs_own_cycles);
	tcase_add_test(t, test_the_shares_count_each_cycle_once_and_units_stay_declared);
	tcase_add_test(t, test_spans_begun_at_one_time_list_the_outer_first);
	tcase_add_test(t, test_a_group_of_no_value_on_either_side_is_no_row);
	tcase_add_test(t, test_diff_judges_nested_spans_by_their_own_cycles);
	tcase_add_test(t, test_logs_of_one_process_are_one_run);
	tcase_add_test(t, test_the_reports_verdicts_are_diffs_value_for_value);
	tcase_add_test(t, test_the_kv_servers_slowed_lookup_and_nothing_else);
	suite_add_tcase(s, t);
	return s;
}
