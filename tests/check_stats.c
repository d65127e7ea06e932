/* check_stats.c: the analysis engine behind `timeline stats` and `diff`,
 * with exact answers: histogram moments and quantiles, Mann-Whitney p-values
 * computed by hand, Snabb's lag on a hand-built log, cycles per packet with
 * buckets and NUMA splits, unmatched pairs, the breath summary, and diff's
 * verdicts and exit status on a 20% slowdown and on two equal samples. */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"
#include "natural.h"
#include "engine.h"
#include "util.h"


START_TEST(test_hist_gives_exact_moments_and_quantiles_within_0_39_percent)
{
	struct hist h;
	memset(&h, 0, sizeof h);
	for (int v = 1; v <= 1000; v++)
		ck_assert_int_eq(hist_add(&h, v), 0);
	ck_assert_uint_eq(h.n, 1000);
	ck_assert(h.min == 1 && h.max == 1000);
	ck_assert(hist_mean(&h) == 500.5);
	ck_assert(fabs(hist_stddev(&h) - 288.8194360957494) < 1e-6);
	/* nearest rank: p50 is the 500th value, p90 the 900th, p99 the 990th */
	ck_assert(fabs(hist_quantile(&h, 0.5) - 500) <= 500 * 0.0039);
	ck_assert(fabs(hist_quantile(&h, 0.9) - 900) <= 900 * 0.0039);
	ck_assert(fabs(hist_quantile(&h, 0.99) - 990) <= 990 * 0.0039);
	ck_assert(hist_quantile(&h, 0) == 1 && hist_quantile(&h, 1) == 1000);
	hist_free(&h);
}
END_TEST

START_TEST(test_hist_add_whole_is_hist_add_for_whole_numbers)
{
	/* small numbers, both sides of powers of two, and values more than 2^32
	 * from the first (which take hist_add()'s path); each exact as a double */
	struct hist a, b, m, w;
	uint64_t v[2000];
	int n = 0;
	for (uint64_t x = 0; x < 600; x++)
		v[n++] = x;
	for (int e = 1; e < 64; e++) {   /* as doubles: exact up to 2^53 */
		v[n++] = 1ull << e;
		if (e < 53) {
			v[n++] = (1ull << e) - 1;
			v[n++] = (1ull << e) + 1;
		}
	}
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	for (int i = 0; i < n; i++) {
		ck_assert_int_eq(hist_add(&a, (double)v[i]), 0);
		ck_assert_int_eq(hist_add_whole(&b, v[i]), 0);
	}
	ck_assert_uint_eq(a.n, b.n);
	ck_assert_uint_eq(a.zeros, b.zeros);
	ck_assert(a.min == b.min && a.max == b.max);
	for (int x = 0; x < HIST_EXPS; x++) {
		ck_assert_int_eq(!a.block[x], !b.block[x]);
		for (int k = 0; a.block[x] && k < HIST_SUB; k++)
			ck_assert_msg(a.block[x][k] == b.block[x][k], "bucket %d.%d", x, k);
	}
	ck_assert(fabs(hist_mean(&a) - hist_mean(&b)) <= 1e-12 * hist_mean(&a));
	ck_assert(fabs(hist_stddev(&a) - hist_stddev(&b)) <= 1e-9 * hist_stddev(&a));
	/* exact moments of 1..1000 through the whole path, and through a merge */
	memset(&w, 0, sizeof w);
	memset(&m, 0, sizeof m);
	for (uint64_t x = 1; x <= 1000; x++)
		ck_assert_int_eq(hist_add_whole(&w, x + 1000000000000ull), 0);
	ck_assert(hist_mean(&w) == 1000000000500.5);
	ck_assert(fabs(hist_stddev(&w) - 288.8194360957494) < 1e-6);
	ck_assert_int_eq(hist_add(&m, 1000000000000.0), 0);
	ck_assert_int_eq(hist_merge(&m, &w), 0);
	ck_assert_uint_eq(m.n, 1001);
	ck_assert(fabs(hist_mean(&m) - (1000000000500.5 * 1000 + 1e12) / 1001) < 1e-3);
	hist_free(&a);
	hist_free(&b);
	hist_free(&w);
	hist_free(&m);
}
END_TEST

START_TEST(test_hist_moments_are_the_same_to_the_bit_whatever_the_merge_order)
{
	/* lags far apart (1 to 2^62), fractions of cycles per packet: one
	 * histogram fed in order against four merged in two orders */
	struct hist all, part[4], m1, m2;
	double mean, sd;
	memset(&all, 0, sizeof all);
	memset(part, 0, sizeof part);
	memset(&m1, 0, sizeof m1);
	memset(&m2, 0, sizeof m2);
	for (uint64_t i = 0; i < 4000; i++) {
		/* 2^64 - 1 in parts 0 and 1: squares whose sum carries past 128 bits
		 * in every merge of the two */
		uint64_t v = i < 2 ? UINT64_MAX
				   : (i * 2654435761u) % 100000 + (i % 7 == 0 ? 1ull << (i % 63) : 0);
		double f = (double)((i * 40503u) % 70001) / (double)(i % 29 + 3);
		ck_assert_int_eq(hist_add_whole(&all, v), 0);
		ck_assert_int_eq(hist_add(&all, f), 0);
		ck_assert_int_eq(hist_add_whole(&part[i % 4], v), 0);
		ck_assert_int_eq(hist_add(&part[(i + 1) % 4], f), 0);
	}
	for (int k = 0; k < 4; k++) {
		ck_assert_int_eq(hist_merge(&m1, &part[k]), 0);
		ck_assert_int_eq(hist_merge(&m2, &part[(k * 3 + 2) % 4]), 0);
	}
	mean = hist_mean(&all);
	sd = hist_stddev(&all);
	ck_assert(memcmp(&mean, &(double){ hist_mean(&m1) }, sizeof mean) == 0);
	ck_assert(memcmp(&mean, &(double){ hist_mean(&m2) }, sizeof mean) == 0);
	ck_assert(memcmp(&sd, &(double){ hist_stddev(&m1) }, sizeof sd) == 0);
	ck_assert(memcmp(&sd, &(double){ hist_stddev(&m2) }, sizeof sd) == 0);
	ck_assert_uint_eq(m1.n, 8000);
	/* a merge whose sums of squares carry past 128 bits: 2^64 - 1 and
	 * 2^64 - 1 - 2^40, each alone, merged: deviation 2^40 / sqrt(2) */
	hist_free(&m2);
	memset(&m2, 0, sizeof m2);
	hist_free(&part[0]);
	memset(&part[0], 0, sizeof part[0]);
	ck_assert_int_eq(hist_add_whole(&m2, UINT64_MAX), 0);
	ck_assert_int_eq(hist_add_whole(&part[0], UINT64_MAX - (1ull << 40)), 0);
	ck_assert_int_eq(hist_merge(&m2, &part[0]), 0);
	ck_assert(hist_stddev(&m2) == sqrt(0x1p79));   /* m2 = 2^80 / 2 */
	/* fractions are summed exactly too: k + 0.25 for k = 1..1000 */
	hist_free(&m1);
	memset(&m1, 0, sizeof m1);
	for (uint64_t x = 1; x <= 1000; x++)
		ck_assert_int_eq(hist_add(&m1, (double)x + 0.25), 0);
	ck_assert(hist_mean(&m1) == 500.75);
	ck_assert(fabs(hist_stddev(&m1) - 288.8194360957494) < 1e-9);
	/* and above 2^32, where v 2^32 takes two limbs and its square three
	 * products, the low limb near 2^64 so that twice the cross product
	 * and the low square both carry: 2^40 + 2^32 - 2048 + k + 0.5 */
	hist_free(&m1);
	memset(&m1, 0, sizeof m1);
	for (uint64_t x = 1; x <= 1000; x++)
		ck_assert_int_eq(hist_add(&m1, 0x1p40 + 0x1p32 - 2048 + (double)x + 0.5), 0);
	ck_assert(hist_mean(&m1) == 0x1p40 + 0x1p32 - 2048 + 501);
	ck_assert(fabs(hist_stddev(&m1) - 288.8194360957494) < 1e-6);
	hist_free(&all);
	hist_free(&m1);
	hist_free(&m2);
	for (int k = 0; k < 4; k++)
		hist_free(&part[k]);
}
END_TEST

static void fill(struct hist *h, const double *v, int n)
{
	memset(h, 0, sizeof *h);
	for (int i = 0; i < n; i++)
		hist_add(h, v[i]);
}

START_TEST(test_mann_whitney_p_values_match_hand_computations)
{
	struct hist a, b;
	/* A = 1..5, B = 6..10: U = 0, mean 12.5, variance 25 * 11 / 12, z with
	 * the continuity correction 12 / 4.7871 = 2.5067: p = 0.0121858 */
	static const double a1[] = { 1, 2, 3, 4, 5 }, b1[] = { 6, 7, 8, 9, 10 };
	/* A = {1, 1, 2}, B = {2, 3, 3}: U = 0.5, mean 4.5; three tie groups of 2
	 * give sum(t^3 - t) = 18, variance 9/12 * (7 - 18/30) = 4.8, z = 3.5 /
	 * 2.19089 = 1.59752: p = 0.110149 */
	static const double a2[] = { 1, 1, 2 }, b2[] = { 2, 3, 3 };
	fill(&a, a1, 5);
	fill(&b, b1, 5);
	ck_assert_msg(fabs(hist_mwu_p(&a, &b) - 0.0121858) < 1e-6, "p = %g", hist_mwu_p(&a, &b));
	ck_assert(fabs(hist_mwu_p(&b, &a) - 0.0121858) < 1e-6);   /* two-sided */
	hist_free(&a);
	hist_free(&b);
	fill(&a, a2, 3);
	fill(&b, b2, 3);
	ck_assert_msg(fabs(hist_mwu_p(&a, &b) - 0.110149) < 1e-5, "p = %g", hist_mwu_p(&a, &b));
	/* identical samples: p = 1; an empty side: p = 1 */
	ck_assert(fabs(hist_mwu_p(&a, &a) - 1) < 1e-12);
	hist_free(&b);
	ck_assert(hist_mwu_p(&a, &b) == 1);
	ck_assert(hist_mwu_p(&b, &a) == 1);
	hist_free(&a);
}
END_TEST

/* Runs `timeline ARGS` (ARGS may name files in DIR as %s); returns stdout. */
static char *tl(int want, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *tl(int want, const char *fmt, ...)
{
	va_list ap;
	char *args, *cmd, *out, *err;
	int rc;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&args, fmt, ap), 0);
	va_end(ap);
	cmd = xasprintf("cd %s && %s %s", test_dir, timeline_bin(), args);
	rc = run(cmd, &out, &err);
	ck_assert_msg(rc == want, "%s: exit %d, want %d: %s", cmd, rc, want, err);
	free(args);
	free(cmd);
	free(err);
	return out;
}

/* The line of OUT that starts with PREFIX (a static copy). */
static const char *line_of(const char *out, const char *prefix)
{
	static char buf[1024];
	const char *p = out;
	while (p && *p) {
		size_t n = strcspn(p, "\n");
		if (!strncmp(p, prefix, strlen(prefix))) {
			snprintf(buf, sizeof buf, "%.*s", (int)n, p);
			return buf;
		}
		p += n + (p[n] == '\n');
	}
	ck_abort_msg("no line starting with '%s' in:\n%s", prefix, out);
	return NULL;
}

static void starts(const char *line, const char *prefix)
{
	ck_assert_msg(!strncmp(line, prefix, strlen(prefix)), "'%s' does not start with '%s'", line,
		      prefix);
}

START_TEST(test_stats_lag_takes_the_nearest_previous_entry_of_a_lower_or_equal_level)
{
	tl_log *log = open_manual(path_in(test_dir, "lag.timeline"), 64);
	uint16_t a, b, c;
	/* levels 1, 5 and 6; the lags by hand, in the comments */
	static const struct { int ev; uint64_t tsc; } seq[] = {
		{ 0, 100 },   /* a: nothing before it */
		{ 1, 110 },   /* b: a@100 -> 10 */
		{ 2, 115 },   /* c (level 6): b@110 -> 5 */
		{ 1, 130 },   /* b: not c (level 6 > 5), b@110 -> 20 */
		{ 0, 200 },   /* a (level 1): a@100 -> 100 */
		{ 1, 205 },   /* b: a@200 -> 5 */
		{ 2, 209 },   /* c: b@205 -> 4 */
	};
	char *out;
	ck_assert_int_eq(tl_intern(log, "1,9|e.a: x\nA.", &a, NULL), TL_OK);
	ck_assert_int_eq(tl_intern(log, "5,9|e.b: x\nB.", &b, NULL), TL_OK);
	ck_assert_int_eq(tl_intern(log, "6,9|e.c: x\nC.", &c, NULL), TL_OK);
	for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
		uint16_t id[] = { a, b, c };
		tl_set_manual_clock(log, seq[i].tsc, 0);
		tl_append(log, id[seq[i].ev], i, 0, 0, 0, 0, 0);
	}
	tl_close(log);
	out = tl(0, "stats -f csv lag.timeline");
	/* event,n,min,p50,p90,p99,p99.9,max,mean,stddev,... */
	ck_assert_str_eq(line_of(out, "\"e.a\","), "\"e.a\",1,100,100,100,100,100,100,100,0,100,100,100,100,100,100,100,0");
	starts(line_of(out, "\"e.b\","), "\"e.b\",3,5,10,20,20,20,20,11.666666666666666,");
	starts(line_of(out, "\"e.c\","), "\"e.c\",2,4,4,5,5,5,5,4.5,");
	free(out);
}
END_TEST

/* A log of app push/pushed pairs for apps x (numa 0) and y (numa 1). */
static void pairs_log(const char *name)
{
	tl_log *log = open_manual(path_in(test_dir, name), 64);
	static const char *const defs[] = { "5,5|app.push: inpackets inbytes\nPush.",
					    "5,5|app.pushed: inpackets inbytes\nPushed." };
	uint16_t x[2], y[2];
	ck_assert_int_eq(tl_register(log, defs, 2, "app=x", x, NULL), TL_OK);
	ck_assert_int_eq(tl_register(log, defs, 2, "app=y", y, NULL), TL_OK);
	/* x: 10 packets in 500 cycles (50/packet), then 30 in 600 (20/packet) */
	tl_set_manual_clock(log, 1000, 0);
	tl_append(log, x[0], 0, 0, 0, 0, 0, 0);
	tl_set_manual_clock(log, 1500, 0);
	tl_append(log, x[1], 10, 640, 0, 0, 0, 0);
	tl_set_manual_clock(log, 2000, 0);
	tl_append(log, x[0], 10, 640, 0, 0, 0, 0);
	tl_set_manual_clock(log, 2600, 0);
	tl_append(log, x[1], 40, 2560, 0, 0, 0, 0);
	/* y, on cpu 3 of node 1: an end with no begin, then 5 packets in 100,
	 * then a pair that moved nothing */
	tl_set_manual_clock(log, 2700, 1 << 12 | 3);
	tl_append(log, y[1], 0, 0, 0, 0, 0, 0);
	tl_set_manual_clock(log, 3000, 1 << 12 | 3);
	tl_append(log, y[0], 0, 0, 0, 0, 0, 0);
	tl_set_manual_clock(log, 3100, 1 << 12 | 3);
	tl_append(log, y[1], 5, 300, 0, 0, 0, 0);
	tl_set_manual_clock(log, 3200, 1 << 12 | 3);
	tl_append(log, y[0], 5, 300, 0, 0, 0, 0);
	tl_set_manual_clock(log, 3250, 1 << 12 | 3);
	tl_append(log, y[1], 5, 300, 0, 0, 0, 0);
	tl_close(log);
}

START_TEST(test_stats_per_packets_counts_pairs_units_buckets_numa_and_unmatched_exactly)
{
	char *out;
	pairs_log("pairs.timeline");
	out = tl(0, "stats --per packets --by app,numa -f csv pairs.timeline");
	/* app,numa,pairs,packets,cycles/packet,p50,p90,p99,empty */
	ck_assert_str_eq(line_of(out, "\"x\","), "\"x\",0,2,40,27.5,20,50,50,0");
	ck_assert_str_eq(line_of(out, "\"y\","), "\"y\",1,1,5,20,20,20,20,1");
	free(out);
	out = tl(0, "stats --per packets --by app --bucket packets=0,1,16,32,64,inf -f csv pairs.timeline");
	ck_assert_str_eq(line_of(out, "\"x\",\"1-15\","), "\"x\",\"1-15\",1,10,50,50,50,50,0");
	ck_assert_str_eq(line_of(out, "\"x\",\"16-31\","), "\"x\",\"16-31\",1,30,20,20,20,20,0");
	ck_assert_str_eq(line_of(out, "\"y\",0,"), "\"y\",0,0,0,,,,,1");   /* bucket "0": a number */
	ck_assert_str_eq(line_of(out, "\"y\",\"1-15\","), "\"y\",\"1-15\",1,5,20,20,20,20,0");
	free(out);
	/* the end of y's that had no begin is reported, not dropped */
	out = tl(0, "stats --per packets pairs.timeline");
	ck_assert_str_eq(line_of(out, "unmatched: "),
			 "unmatched: app.push: 1 ends without a begin, 0 begins without an end");
	free(out);
}
END_TEST

START_TEST(test_breath_summary_is_exact_from_first_to_last_breath_end)
{
	tl_log *log = open_manual(path_in(test_dir, "b.timeline"), 256);
	uint16_t id;
	char *out;
	ck_assert_int_eq(tl_intern(log, "1,6|engine.breath_end: breath totalpackets totalbytes\nEnd.",
				   &id, NULL), TL_OK);
	/* 100 breaths of 50 packets of 600 bytes, 2000 cycles (2 us at 1 GHz) each */
	for (uint64_t i = 0; i <= 100; i++) {
		tl_set_manual_clock(log, 1000 + 2000 * i, 0);
		tl_append(log, id, 1 + i, 50 * i, 30000 * i, 0, 0, 0);
	}
	tl_close(log);
	out = tl(0, "stats --breaths -f csv b.timeline");
	/* process,group,breaths,breaths/s,packets/breath,bytes/packet,cycles/packet,Gbps,us/breath:
	 * 100 breaths in 200 us = 500000/s, 50 packets, 600 bytes, 40 cycles a packet,
	 * 3 MB in 200 us = 120 Gbps, 2 us a breath */
	ck_assert(strstr(out, ",100,500000,50,600,40,120,2\n") != NULL);
	free(out);
}
END_TEST

/* Writes NAME: 11 breath_end entries, 1000 cycles and K packets apart. */
static void breath_log(const char *name, uint64_t k)
{
	tl_log *log = open_manual(path_in(test_dir, name), 64);
	uint16_t id;
	ck_assert_int_eq(tl_intern(log, "1,6|engine.breath_end: breath totalpackets totalbytes\nEnd.",
				   &id, NULL), TL_OK);
	for (uint64_t i = 0; i <= 10; i++) {
		tl_set_manual_clock(log, 1000 * (i + 1), 0);
		tl_append(log, id, 1 + i, k * i, 100 * k * i, 0, 0, 0);
	}
	close_run(log);
}

START_TEST(test_files_read_in_parallel_report_in_input_order)
{
	/* 12 logs and 3 bad inputs among them: whatever thread reads what, the
	 * breath rows follow the inputs, and so do the messages */
	char names[12][32], *args = xasprintf("%s", ""), *cmd, *out, *err, *t, *line;
	int rc;
	write_file(path_in(test_dir, "bad1.timeline"), "x", 1);
	write_file(path_in(test_dir, "bad2.timeline"), "", 0);
	for (int i = 0; i < 12; i++) {
		snprintf(names[i], sizeof names[i], "p%02d.timeline", i);
		breath_log(names[i], 10 + (uint64_t)i);
		t = xasprintf("%s %s%s", args, names[i], i == 3 ? " bad1.timeline" :
			      i == 7 ? " missing.timeline bad2.timeline" : "");
		free(args);
		args = t;
	}
	cmd = xasprintf("cd %s && %s stats --breaths -f csv%s", test_dir, timeline_bin(), args);
	rc = run(cmd, &out, &err);
	ck_assert_int_eq(rc, 2);
	ck_assert_str_eq(err, "timeline stats: bad1.timeline: not a timeline log (1 bytes, shorter than a header)\n"
			      "timeline stats: missing.timeline: No such file or directory\n"
			      "timeline stats: bad2.timeline: not a timeline log (0 bytes, shorter than a header)\n");
	/* after the header, row i is file i's: 10 breaths in 10000 cycles at
	 * 1 GHz (1000000/s), 10 + i packets a breath of 100 bytes each */
	line = strchr(out, '\n');
	for (int i = 0; i < 12; i++) {
		char pk[48], *end;
		ck_assert_ptr_nonnull(line);
		end = strchr(line + 1, '\n');
		ck_assert_ptr_nonnull(end);
		*end = '\0';
		snprintf(pk, sizeof pk, ",10,1000000,%d,100,", 10 + i);
		ck_assert_msg(strstr(line + 1, pk) != NULL, "row %d: %s", i, line + 1);
		line = end;
	}
	ck_assert_str_eq(line + 1, "");
	free(args);
	free(cmd);
	free(out);
	free(err);
}
END_TEST

/* A log (run RUN of directory SUB) of N pairs of app.push for app "a" whose
 * cycles are SCALE times a spread of 900..1099, in a pseudo-random order
 * from SEED. */
static void cost_run(const char *sub, int run, double scale, unsigned seed, int n)
{
	char *d = xasprintf("%s/%s", test_dir, sub), *p;
	tl_log *log;
	uint16_t ids[2];
	static const char *const defs[] = { "5,5|app.push: inpackets\nPush.",
					    "5,5|app.pushed: inpackets\nPushed." };
	uint64_t tsc = 1000, packets = 0, r = seed;
	ck_assert_int_eq(mkdir(d, 0700) == 0 || run > 0, 1);
	p = xasprintf("%s/cost%d.timeline", d, run);
	log = open_manual(p, 4096);
	ck_assert_int_eq(tl_register(log, defs, 2, "app=a", ids, NULL), TL_OK);
	for (int i = 0; i < n; i++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		tl_set_manual_clock(log, tsc, 0);
		tl_append(log, ids[0], packets, 0, 0, 0, 0, 0);
		tsc += (uint64_t)(scale * (double)(900 + (r >> 33) % 200)) * 10;
		packets += 10;
		tl_set_manual_clock(log, tsc, 0);
		tl_append(log, ids[1], packets, 0, 0, 0, 0, 0);
		tsc += 50;
	}
	close_run(log);
	free(p);
	free(d);
}

/* RUNS runs of cost_run() in SUB, seeds SEED, SEED + 1, ... */
static void cost_log(const char *sub, int runs, double scale, unsigned seed, int n)
{
	for (int i = 0; i < runs; i++)
		cost_run(sub, i, scale, seed + (unsigned)i, n);
}

START_TEST(test_diff_flags_a_20_percent_slowdown_and_exits_1)
{
	char *out;
	const char *row;
	double change, lo, hi;
	cost_log("a", 5, 1.0, 1, 300);
	cost_log("b", 5, 1.2, 20, 300);
	out = tl(1, "diff --per packets a b");
	row = line_of(out, "app.push ");
	ck_assert_msg(strstr(row, " 0.0079 ") && strstr(row, " SLOWER"), "%s", row);
	/* event app runs_a runs_b n_a n_b p50_a p50_b p90_a p90_b change ci_lo ci_hi p ... */
	ck_assert_int_eq(sscanf(row, "app.push %*s 5 5 1500 1500 %*s %*s %*s %*s %lf %lf %lf", &change,
				&lo, &hi), 3);
	ck_assert_msg(change > 17 && change < 23 && lo < 20 && hi > 20, "%s", row);
	free(out);
	/* a threshold above the change makes it no finding */
	out = tl(0, "diff --per packets --threshold 30 a b");
	ck_assert_ptr_null(strstr(out, "SLOWER"));
	free(out);
}
END_TEST

START_TEST(test_diff_of_two_samples_of_one_distribution_exits_0)
{
	char *out;
	cost_log("a", 5, 1.0, 1, 300);
	cost_log("b", 5, 1.0, 99, 300);
	out = tl(0, "diff --per packets a b");
	ck_assert_msg(strstr(line_of(out, "app.push "), " no change shown"), "%s", out);
	free(out);
}
END_TEST

START_TEST(test_diff_lists_one_sided_groups_and_warns_below_10_samples)
{
	char *cmd, *out, *err;
	cost_log("a", 4, 1.0, 1, 2);
	cost_log("b", 4, 1.0, 2, 2);
	pairs_log("b/pairs.timeline");
	cmd = xasprintf("cd %s && %s diff --per packets a b", test_dir, timeline_bin());
	ck_assert_int_eq(run(cmd, &out, &err), 0);
	ck_assert_ptr_nonnull(strstr(err, "timeline diff: warning: app.push a: fewer than 10 samples (A 8, B 8)\n"));
	ck_assert_ptr_nonnull(strstr(line_of(out, "app.push "), "few samples"));
	ck_assert_str_eq(line_of(out, "B     app.push x"), "B     app.push x     1  2");   /* 1 run, 2 pairs */
	free(cmd);
	free(out);
	free(err);
}
END_TEST

/* -a and -b are --a and --b, the sides, as a newcomer reading "--a PATH,
 * --b PATH" types them: the same table as the long forms and as A B.
 * --alpha and --by are long only; stats, with no sides, keeps -b for
 * --by. -a or -b meant for --alpha or --by is a one-line error naming
 * --a and --b. */
START_TEST(test_diff_dash_a_and_dash_b_are_the_sides)
{
	static const char *const bad[][2] = {
		{ "-a 0.01 a b", "with --a and --b (-a, -b), give the inputs there only "
				 "(--alpha and --by have no short form)" },
		{ "-b app a b", "with --a and --b (-a, -b), give the inputs there only "
				"(--alpha and --by have no short form)" },
		{ "-a a", "give --a and --b (-a, -b), with one or more each" },
		{ "--b b", "give --a and --b (-a, -b), with one or more each" },
		{ "-a a -b", "option '-b' requires an argument" },
	};
	char *pos, *lng, *shrt, *by, *b;
	cost_log("a", 5, 1.0, 1, 300);
	cost_log("b", 5, 1.2, 20, 300);
	pos = tl(1, "diff --per packets --alpha 0.01 --by event a b");
	lng = tl(1, "diff --per packets --alpha 0.01 --by event --a a --b b");
	shrt = tl(1, "diff --per packets --alpha 0.01 --by event -a a -b b");
	ck_assert_str_eq(lng, pos);
	ck_assert_str_eq(shrt, pos);
	ck_assert_ptr_nonnull(strstr(pos, "(threshold 5%, alpha 0.01, intervals at 99%)\n"));
	ck_assert_ptr_nonnull(strstr(line_of(pos, "app.push "), " SLOWER"));
	by = tl(0, "stats --per packets --by app a");
	b = tl(0, "stats --per packets -b app a");
	ck_assert_str_eq(b, by);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *cmd = xasprintf("cd %s && %s diff %s", test_dir, timeline_bin(), bad[i][0]);
		char *want = xasprintf("timeline diff: %s\nsee 'timeline diff --help'\n", bad[i][1]);
		char *out, *err;
		ck_assert_int_eq(run(cmd, &out, &err), 2);
		ck_assert_str_eq(err, want);
		ck_assert_str_eq(out, "");
		free(cmd);
		free(want);
		free(out);
		free(err);
	}
	free(pos);
	free(lng);
	free(shrt);
	free(by);
	free(b);
}
END_TEST

/* The units an engine notes: each once, in byte order whatever order they
 * come in (threads read files in any order), a prefix before the longer
 * word; the declared ones (no --per) as the note lists them. */
START_TEST(test_units_noted_once_each_in_byte_order)
{
	static const char *const order[][6] = {
		{ "rows", "bytes", "files", "bytes", "rows", NULL },
		{ "files", "rows", "bytes", NULL },
		{ "row", "rows", "ro", "rows", NULL },
		{ "z", "a", "m", "b", "y", NULL },
	};
	static const char *const want[] = { "bytes files rows", "bytes files rows", "ro row rows",
					     "a b m y z" };
	for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
		struct an_options o = { 0 };
		struct an *a = an_new(&o);
		for (size_t i = 0; order[k][i]; i++)
			an_note_unit(a, order[k][i]);
		ck_assert_str_eq(an_declared_units(a), want[k]);
		ck_assert_str_eq(an_noted_unit(a), "unit");   /* several: mixed */
		an_free(a);
	}
}
END_TEST

START_TEST(test_natural_cmp_orders_runs_of_digits_by_their_value)
{
	/* shuffled; the order below by hand: a run against another byte as
	 * its first digit ('-' < '0'..'9' < '?' < 'a'), runs of one value by
	 * their bytes (01 before 1), a prefix first; bytes of 0x80 and above
	 * (UTF-8: "\xc3\xa9" is e acute) after every ASCII byte, as unsigned */
	const char *v[] = { "w[10000]", "host1", "q10.push app=x", "cpu10", "?", "host02", "w[9999]",
			    "12", "host01", "-", "cpu2", "q9.push app=x", "host10", "9", "",
			    "q9.push", "host00", "host0", "w[9999] z", "cpu", "007", "7",
			    "\xc3\xa9" "10", "z", "\xff", "\xc3\xa9" "9", "\xc3\xa9", "\x7f" };
	static const char *const want[] = { "", "-", "007", "7", "9", "12", "?", "cpu", "cpu2",
					    "cpu10", "host0", "host00", "host01", "host1", "host02",
					    "host10", "q9.push", "q9.push app=x", "q10.push app=x",
					    "w[9999]", "w[9999] z", "w[10000]", "z", "\x7f", "\xc3\xa9",
					    "\xc3\xa9" "9", "\xc3\xa9" "10", "\xff" };
	const size_t n = sizeof v / sizeof v[0];
	ck_assert_uint_eq(n, sizeof want / sizeof want[0]);
	qsort(v, n, sizeof v[0], natural_cmp_ptr);
	for (size_t i = 0; i < n; i++)
		ck_assert_str_eq(v[i], want[i]);
	for (size_t i = 0; i < n; i++)   /* 0 only for the same bytes; antisymmetric */
		for (size_t j = 0; j < n; j++) {
			int c = natural_cmp(v[i], v[j]);
			ck_assert_int_eq(c < 0 ? -1 : c > 0, i < j ? -1 : i > j);
		}
}
END_TEST

/* Writes TEST_DIR/NAME: a log of process "w" with pid PID on host HOST
 * (the header's fields patched, timeline-format(5)), on CPU CPU: an end
 * of CAT.pushed of app APP with no begin, then a pair of CAT.push of 10
 * packets in CYCLES. */
static void labelled_log(const char *name, uint32_t pid, const char *host, unsigned cpu,
			 const char *app, const char *cat, uint64_t cycles)
{
	const char *path = path_in(test_dir, name);
	tl_log *log = open_manual(path, 64);
	const char *defs[] = { test_str("5,5|%s.push: inpackets inbytes\nPush.", cat),
			       test_str("5,5|%s.pushed: inpackets inbytes\nPushed.", cat) };
	char process[64] = "w", h[128] = { 0 };
	uint16_t id[2];
	ck_assert_int_eq(tl_register(log, defs, 2, test_str("app=%s", app), id, NULL), TL_OK);
	tl_set_manual_clock(log, 900, cpu);
	tl_append(log, id[1], 0, 0, 0, 0, 0, 0);
	tl_set_manual_clock(log, 1000, cpu);
	tl_append(log, id[0], 0, 0, 0, 0, 0, 0);
	tl_set_manual_clock(log, 1000 + cycles, cpu);
	tl_append(log, id[1], 10, 640, 0, 0, 0, 0);
	close_run(log);
	snprintf(h, sizeof h, "%s", host);
	patch_file(path, 164, &pid, sizeof pid);   /* pid, process, host */
	patch_file(path, 192, process, sizeof process);
	patch_file(path, 256, h, sizeof h);
}

START_TEST(test_labels_order_the_numbers_in_them_by_value)
{
	/* each label of a (pid 10000, host10, cpu 10, app x10, q10.push)
	 * crosses a digit count from b's (9999, host9, 2, x2, q9.push): as
	 * strings and in the inputs' order a's would come first */
	char *out;
	labelled_log("a.timeline", 10000, "host10", 10, "x10", "q10", 500);
	labelled_log("b.timeline", 9999, "host9", 2, "x2", "q9", 200);
	out = tl(0, "stats --per packets --by process -f csv a.timeline b.timeline");
	ck_assert_str_eq(out, "\"process\",\"pairs\",\"packets\",\"cycles/packet\",\"p50\",\"p90\",\"p99\",\"empty\"\n"
			      "\"w[9999]\",1,10,20,20,20,20,0\n"
			      "\"w[10000]\",1,10,50,50,50,50,0\n");
	free(out);
	/* each key alone, so that no other decides: host, app, cpu */
	for (int k = 0; k < 3; k++) {
		static const char *const key[][3] = { { "host", "\"host9\"", "\"host10\"" },
						      { "app", "\"x2\"", "\"x10\"" },
						      { "cpu", "2", "10" } };
		out = tl(0, "stats --per packets --by %s -f csv a.timeline b.timeline | tail -n +2",
			 key[k][0]);
		ck_assert_str_eq(out, test_str("%s,1,10,20,20,20,20,0\n%s,1,10,50,50,50,50,0\n",
					       key[k][1], key[k][2]));
		free(out);
	}
	/* the event key, and the unmatched ends by their pairs' labels */
	out = tl(0, "stats --per packets a.timeline b.timeline");
	ck_assert_str_eq(out, "cycles per packet, per begin/end pair\n"
			      "event     app  pairs  packets  cycles/packet  p50  p90  p99  empty\n"
			      "q9.push   x2       1       10             20   20   20   20      0\n"
			      "q10.push  x10      1       10             50   50   50   50      0\n"
			      "unmatched: q9.push: 1 ends without a begin, 0 begins without an end\n"
			      "unmatched: q10.push: 1 ends without a begin, 0 begins without an end\n");
	free(out);
	/* a directory walked in name order, 9999/ before 10000/ (ls, info) */
	ck_assert_int_eq(mkdir(path_in(test_dir, "d"), 0700), 0);
	ck_assert_int_eq(mkdir(path_in(test_dir, "d/10000"), 0700), 0);
	ck_assert_int_eq(mkdir(path_in(test_dir, "d/9999"), 0700), 0);
	ck_assert_int_eq(rename(path_in(test_dir, "a.timeline"),
				path_in(test_dir, "d/10000/w.timeline")), 0);
	ck_assert_int_eq(rename(path_in(test_dir, "b.timeline"),
				path_in(test_dir, "d/9999/w.timeline")), 0);
	out = tl(0, "ls d | awk '{ print $1, $NF }'");
	ck_assert_str_eq(out, "PID PATH\n9999 d/9999/w.timeline\n10000 d/10000/w.timeline\n");
	free(out);
	out = tl(0, "info d | grep -v '^ '");
	ck_assert_str_eq(out, "d/9999/w.timeline\nd/10000/w.timeline\n");
	free(out);
}
END_TEST

/* Labels with bytes of 0x80 and above (UTF-8 app and host names) come
 * after ASCII ones, byte by byte as unsigned, their numbers by value: z,
 * then e9, then e10 (e acute); the same for rows by app and by host, and
 * for a directory walked by ls and info. */
START_TEST(test_labels_with_bytes_above_0x7f_order_after_ascii_ones)
{
	static const char *const app[3] = { "\xc3\xa9" "10", "z", "\xc3\xa9" "9" };
	static const char *const host[3] = { "h\xc3\xb4te10", "hz", "h\xc3\xb4te9" };
	static const char *const dir[3] = { "d/\xc3\xa9" "10", "d/z", "d/\xc3\xa9" "9" };
	static const uint64_t cycles[3] = { 500, 300, 200 };
	char *out;
	ck_assert_int_eq(mkdir(path_in(test_dir, "d"), 0700), 0);
	for (int k = 0; k < 3; k++) {
		char name[16];
		snprintf(name, sizeof name, "%c.timeline", 'a' + k);
		labelled_log(name, 100 + (uint32_t)k, host[k], 1, app[k], "q", cycles[k]);
	}
	out = tl(0, "stats --per packets --by app -f csv a.timeline b.timeline c.timeline | "
		 "tail -n +2 | cut -d, -f1,4");
	ck_assert_str_eq(out, "\"z\",30\n\"\xc3\xa9" "9\",20\n\"\xc3\xa9" "10\",50\n");
	free(out);
	out = tl(0, "stats --per packets --by host -f csv a.timeline b.timeline c.timeline | "
		 "tail -n +2 | cut -d, -f1,4");
	ck_assert_str_eq(out, "\"hz\",30\n\"h\xc3\xb4te9\",20\n\"h\xc3\xb4te10\",50\n");
	free(out);
	for (int k = 0; k < 3; k++) {
		char name[16];
		snprintf(name, sizeof name, "%c.timeline", 'a' + k);
		ck_assert_int_eq(mkdir(path_in(test_dir, dir[k]), 0700), 0);
		ck_assert_int_eq(rename(path_in(test_dir, name),
					path_in(test_dir, test_str("%s/w.timeline", dir[k]))), 0);
	}
	out = tl(0, "info d | grep -v '^ '");
	ck_assert_str_eq(out, "d/z/w.timeline\nd/\xc3\xa9" "9/w.timeline\nd/\xc3\xa9" "10/w.timeline\n");
	free(out);
	out = tl(0, "ls d | awk 'NR > 1 { print $NF }'");
	ck_assert_str_eq(out, "d/z/w.timeline\nd/\xc3\xa9" "9/w.timeline\nd/\xc3\xa9" "10/w.timeline\n");
	free(out);
}
END_TEST

START_TEST(test_stats_and_diff_usage_errors_exit_2)
{
	static const char *const bucket = "--bucket takes ARG=EDGES with increasing edges, e.g. "
					  "packets=0,1,16,32,64,inf";
	static const char *const bad[][2] = {
		{ "stats", "missing input" },
		{ "stats --by nope x",
		  "--by: unknown key 'nope' (event, app, process, thread, cpu, numa, host, group)" },
		{ "stats --bucket packets x", bucket },
		{ "stats --bucket p=5,1 x", bucket },
		{ "diff one", "give two inputs A B, or --a and --b (-a, -b) with one or more each" },
		{ "diff --alpha 2 a b", "--alpha takes a level between 0 and 1, e.g. 0.05" },
		{ "diff --threshold x a b", "--threshold takes a percentage, e.g. 5" },
		{ "stats --pair a x", "--pair takes BEGIN=END, e.g. rx_start=rx_end" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *cmd = xasprintf("%s %s", timeline_bin(), bad[i][0]), *err, *want;
		size_t n = strcspn(bad[i][0], " ");
		/* the reason, then where the usage is: not the usage itself */
		want = xasprintf("timeline %.*s: %s\nsee 'timeline %.*s --help'\n", (int)n, bad[i][0],
				 bad[i][1], (int)n, bad[i][0]);
		ck_assert_int_eq(run(cmd, NULL, &err), 2);
		ck_assert_str_eq(err, want);
		free(want);
		free(cmd);
		free(err);
	}
}
END_TEST

/* Grouping at its edges (issue 35, review a): CPU 300 (above a byte), the
 * unknown CPU and node (the word 0xffff) as "?", node 15 (the largest) of
 * CPU 3 as 15; --bucket ranges with a batch exactly at each edge (2 and
 * 8 open their ranges) and the open last range labelled "8+". */
START_TEST(test_cpus_above_255_node_15_the_unknown_cpu_and_batches_at_bucket_edges)
{
	static const char pair[] = "s 5,5|kv.req_begin: id\ns 5,5|kv.req_end: requests\n"
				   "s pair|kv.req: kv.req_begin kv.req_end unit=requests\n";
	char *out;
	spec_log(path_in(test_dir, "cpus.timeline"), 64,
		 test_str("%se 1000 300 0 1\ne 1100 300 1 1\ne 2000 65535 0 2\ne 2200 65535 1 1\n"
			  "e 3000 61443 0 3\ne 3300 61443 1 1\ne 4000 8197 0 4\ne 4400 8197 1 1\n", pair));
	out = tl(0, "stats --by cpu,numa -f csv cpus.timeline | tail -n +2 | cut -d, -f1,2,4,6");
	ck_assert_str_eq(out, "3,15,1,300\n5,2,1,400\n300,0,1,100\n\"?\",\"?\",1,200\n");
	free(out);
	spec_log(path_in(test_dir, "edges.timeline"), 64,
		 test_str("%se 1000 0 0 1\ne 1100 0 1 1\ne 2000 0 0 2\ne 2200 0 1 2\ne 3000 0 0 3\n"
			  "e 3400 0 1 4\ne 4000 0 0 4\ne 4800 0 1 8\ne 5000 0 0 5\ne 5900 0 1 9\n", pair));
	out = tl(0, "stats --per requests --bucket requests=1,2,8 -f csv edges.timeline | "
		 "tail -n +2 | cut -d, -f3-5");
	ck_assert_str_eq(out, "1,1,1\n\"2-7\",2,6\n\"8+\",2,17\n");
	free(out);
}
END_TEST

Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *t = tcase_create("stats");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_hist_gives_exact_moments_and_quantiles_within_0_39_percent);
	tcase_add_test(t, test_hist_add_whole_is_hist_add_for_whole_numbers);
	tcase_add_test(t, test_hist_moments_are_the_same_to_the_bit_whatever_the_merge_order);
	tcase_add_test(t, test_mann_whitney_p_values_match_hand_computations);
	tcase_add_test(t, test_stats_lag_takes_the_nearest_previous_entry_of_a_lower_or_equal_level);
	tcase_add_test(t, test_stats_per_packets_counts_pairs_units_buckets_numa_and_unmatched_exactly);
	tcase_add_test(t, test_breath_summary_is_exact_from_first_to_last_breath_end);
	tcase_add_test(t, test_files_read_in_parallel_report_in_input_order);
	tcase_add_test(t, test_diff_flags_a_20_percent_slowdown_and_exits_1);
	tcase_add_test(t, test_diff_of_two_samples_of_one_distribution_exits_0);
	tcase_add_test(t, test_diff_lists_one_sided_groups_and_warns_below_10_samples);
	tcase_add_test(t, test_stats_and_diff_usage_errors_exit_2);
	tcase_add_test(t, test_natural_cmp_orders_runs_of_digits_by_their_value);
	tcase_add_test(t, test_units_noted_once_each_in_byte_order);
	tcase_add_test(t, test_labels_order_the_numbers_in_them_by_value);
	tcase_add_test(t, test_labels_with_bytes_above_0x7f_order_after_ascii_ones);
	tcase_add_test(t, test_diff_dash_a_and_dash_b_are_the_sides);
	tcase_add_test(t, test_cpus_above_255_node_15_the_unknown_cpu_and_batches_at_bucket_edges);
	suite_add_tcase(s, t);
	return s;
}
