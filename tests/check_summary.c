/* check_summary.c: summaries (timeline-summary(5)) through the CLI: what
 * stats and diff print from summaries is, byte for byte, what they print
 * from the logs the summaries were made from, for several --by choices and
 * formats, for summaries of summaries, mixed inputs and diff's sides; a
 * summary made with other fixed options is refused with its exact message. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "util.h"

/* Runs `cd TEST_DIR && timeline ARGS`; returns its stdout, then a line with
 * its exit status, then its stderr, as one string (caller frees). */
static char *tl_all(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *tl_all(const char *fmt, ...)
{
	va_list ap;
	char *args, *cmd, *out, *err, *all;
	int rc;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&args, fmt, ap), 0);
	va_end(ap);
	cmd = xasprintf("cd %s && %s %s", test_dir, timeline_bin(), args);
	rc = run(cmd, &out, &err);
	all = xasprintf("%s\n--- exit %d\n%s", out, rc, err);
	free(args);
	free(cmd);
	free(out);
	free(err);
	return all;
}

/* Checks that `timeline CMD` on the logs (LOGS) and on the summaries (SUMS)
 * print the same bytes, stdout, exit status and stderr, that stdout is not
 * empty and the exit status RC. */
static void same_rc(const char *cmd, const char *logs, const char *sums, int rc)
{
	char *a = tl_all("%s %s", cmd, logs), *b = tl_all("%s %s", cmd, sums);
	char *exit = xasprintf("\n--- exit %d\n", rc);
	ck_assert_msg(!strcmp(a, b), "timeline %s:\n%s\nfrom the logs, but from %s:\n%s", cmd, a,
		      sums, b);
	ck_assert_msg(strlen(a) > 40 && strstr(a, exit), "timeline %s %s:\n%s", cmd, logs, a);
	free(exit);
	free(a);
	free(b);
}

static void same(const char *cmd, const char *logs, const char *sums)
{
	same_rc(cmd, logs, sums, 0);
}

static const char *engine_bin(void)
{
	const char *b = getenv("TIMELINE_ENGINE");
	return b ? b : "build/examples/engine/engine";
}

/* Runs the demo engine into TEST_DIR/SUB with ARGS. */
static void engine(const char *sub, const char *args)
{
	char *cmd = xasprintf("mkdir -p %s/%s && %s --dir %s/%s %s", test_dir, sub, engine_bin(),
			      test_dir, sub, args);
	ck_assert_int_eq(run(cmd, NULL, NULL), 0);
	free(cmd);
}

/* Sets the host name in the header of every log of TEST_DIR/SUB to HOST
 * (bytes 256 to 383, timeline-format(5)): a log written on another host. */
static void set_host(const char *sub, const char *host)
{
	char *cmd = xasprintf("for f in %s/%s/*.timeline; do head -c 128 /dev/zero | dd of=$f bs=1 "
			      "seek=256 conv=notrunc status=none && printf %s | dd of=$f bs=1 seek=256 "
			      "conv=notrunc status=none; done", test_dir, sub, host);
	ck_assert_int_eq(run(cmd, NULL, NULL), 0);
	free(cmd);
}

/* Two sides of four runs each, a/ and b/ (a/0 to a/3, b/0 to b/3; a/0 and
 * b/0 hold two logs), the runs of b/ with a lookup 3 times slower, half of
 * each side on host h1 and half on h2. */
static void fleet(void)
{
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < 4; i++) {
			char sub[16], *args = xasprintf("--breaths 600 --rate all --entries 16384 "
							"--workload imix --seed %d%s", 7 + i,
							s ? " --slow lookup=200" : "");
			snprintf(sub, sizeof sub, "%c/%d", 'a' + s, i);
			engine(sub, args);
			if (i == 0)   /* a run of two logs, for --runs dir */
				engine(sub, s ? "--breaths 300 --rate all --entries 16384 --seed 99 "
						"--slow lookup=200"
					      : "--breaths 300 --rate all --entries 16384 --seed 99");
			set_host(sub, i < 2 ? "h1" : "h2");
			free(args);
		}
}

/* Writes summaries: DIR.sum (of TEST_DIR/DIR) with OPTIONS, for a/ and b/. */
static void save(const char *options)
{
	for (int s = 0; s < 2; s++) {
		char *out = tl_all("stats %s --save %c.sum %c", options, 'a' + s, 'a' + s);
		ck_assert_msg(strstr(out, "--- exit 0\n"), "%s", out);
		free(out);
	}
}

START_TEST(test_stats_of_summaries_is_stats_of_their_logs_byte_for_byte)
{
	static const char *const lag[] = { "stats", "stats --by app,numa", "stats --by process,cpu",
					   "stats --by host -f csv", "stats --by event,host -f json --hist",
					   "stats --by cpu,numa --hist" };
	static const char *const per[] = {
		"stats --per packets --bucket packets=0,1,16,32,inf",
		"stats --per packets --bucket packets=0,1,16,32,inf --by host,numa -f json",
		"stats --per packets --bucket packets=0,1,16,32,inf --by process -f csv --overhead",
		"stats --per packets --bucket packets=0,1,16,32,inf --by app,cpu -f csv --breaths",
	};
	char *out;
	fleet();
	save("");
	for (size_t i = 0; i < sizeof lag / sizeof *lag; i++) {
		same(lag[i], "a b", "a.sum b.sum");
		same(lag[i], "a b", "a.sum b");   /* mixed with logs */
	}
	/* a summary of summaries is the summary of all their logs */
	out = tl_all("stats --save ab.sum a.sum b.sum");
	ck_assert_msg(strstr(out, "--- exit 0\n"), "%s", out);
	free(out);
	same("stats --by host,app -f json", "a b", "ab.sum");
	/* --group relabels a summary's files as it labels logs */
	same("stats --by group,event", "-g canary=a -g rest=b", "-g canary=a.sum -g rest=b.sum");
	save("--per packets --bucket packets=0,1,16,32,inf");
	for (size_t i = 0; i < sizeof per / sizeof *per; i++)
		same(per[i], "a b", "a.sum b.sum");
}
END_TEST

START_TEST(test_diff_of_summaries_is_diff_of_their_logs_byte_for_byte)
{
	char *a, *b;
	fleet();
	save("--per packets");
	same_rc("diff --per packets", "a b", "a.sum b.sum", 1);
	same_rc("diff --per packets --runs dir -f json", "--a a --b b", "--a a.sum --b b.sum", 1);
	/* by app and host each group has 3 or 2 runs a side, too few: exit 0
	 * (--absolute: the row (all), over all 5 runs, would judge the live
	 * engine's noise, which this test is not about) */
	same_rc("diff --per packets --absolute --by app,host -f csv", "a b", "a.sum b", 0);
	/* the sides diff saves give what they were saved from */
	a = tl_all("diff --per packets --save-a da.sum --save-b db.sum a b");
	b = tl_all("diff --per packets a b");
	ck_assert_str_eq(a, b);
	ck_assert_msg(strstr(a, "SLOWER") && strstr(a, "--- exit 1\n"), "%s", a);
	free(a);
	free(b);
	same_rc("diff --per packets -f json", "a b", "da.sum db.sum", 1);
	/* one log, summarized as host h7's and as host h8's: two runs, not one */
	set_host("a/1", "h7");
	a = tl_all("stats --save h7.sum a/1");
	free(a);
	set_host("a/1", "h8");
	a = tl_all("stats --save h8.sum a/1 && %s diff -f csv --a h7.sum --a h8.sum --b b/1 --b b/2",
		   timeline_bin());
	ck_assert_msg(strstr(a, "\n\"app.push\",2,2,"), "%s", a);   /* event, runs_a, runs_b */
	free(a);
}
END_TEST

START_TEST(test_a_summary_made_with_other_fixed_options_is_refused)
{
	char *out, *want;
	fleet();
	save("--per packets --from 1ms");
	out = tl_all("stats --per packets a.sum b/0");
	want = xasprintf("--- exit 2\ntimeline stats: a.sum: made with '--per packets --from "
			 "1000000ns' but read with '--per packets' (a summary fixes --per, --pair, "
			 "--bucket and the window: --from, --to, --last, --event, --app, --cpu and "
			 "--numa; read it with the same)\n");
	ck_assert_msg(strstr(out, want), "%s", out);
	ck_assert_msg(strstr(out, "engine["), "the other input was not read: %s", out);
	free(want);
	free(out);
	/* the same options written another way read it */
	out = tl_all("stats --from 1000000ns --per packets a.sum");
	ck_assert_msg(strstr(out, "--- exit 0\n") && strstr(out, "app.push"), "%s", out);
	free(out);
	out = tl_all("diff --per bytes --from 1ms a.sum b.sum");
	ck_assert_msg(strstr(out, "--- exit 2\ntimeline diff: a.sum: made with '--per packets --from "
			       "1000000ns' but read with '--per bytes --from 1000000ns' ("), "%s", out);
	free(out);
	/* one reason, not two: no warning that the logs (none read) hold no
	 * pairs; and read without a --per it says so, not "read with ''" */
	{
		static const char *const cases[][3] = {
			{ "--per packets", "--per bytes", "with '--per packets' but read with '--per bytes'" },
			{ "--per packets", "", "with '--per packets' but read without fixed options" },
			{ "", "--per packets", "without fixed options but read with '--per packets'" },
		};
		for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			char *want = xasprintf("--- exit 2\ntimeline stats: a.sum: made %s (a summary "
					       "fixes --per, --pair, --bucket and the window: --from, "
					       "--to, --last, --event, --app, --cpu and --numa; read "
					       "it with the same)\n", cases[i][2]);
			save(cases[i][0]);
			out = tl_all("stats %s a.sum", cases[i][1]);
			ck_assert_str_eq(strstr(out, "--- exit"), want);
			free(out);
			free(want);
		}
	}
}
END_TEST

START_TEST(test_save_replaces_the_file_whole_and_reports_where_it_cannot)
{
	struct stat st;
	char *out;
	engine("a", "--breaths 200 --rate all --entries 4096 --seed 3");
	out = tl_all("stats --save s.sum a");
	ck_assert_msg(strstr(out, "--- exit 0\n"), "%s", out);
	free(out);
	ck_assert_int_eq(stat(path_in(test_dir, "s.sum"), &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0644);
	out = tl_all("stats --save nodir/s.sum a");
	ck_assert_msg(strstr(out, "--- exit 2\ntimeline stats: nodir/s.sum: No such file or directory\n"),
		      "%s", out);
	free(out);
	/* only the summary is left in the directory: no temporary file */
	out = tl_all("stats --save s.sum a && ls");
	ck_assert_msg(strstr(out, "\na\ns.sum\n"), "%s", out);
	free(out);
}
END_TEST

/* Writes TEST_DIR/DIR/NAME of LAGS (N) into a ring of ENTRIES, DIR made if new. */
static void lags_in(const char *dir, const char *name, uint64_t entries, const uint64_t *lags,
		    size_t n)
{
	mkdir(path_in(test_dir, dir), 0700);
	lags_log(path_in(test_dir, test_str("%s/%s", dir, name)), entries, lags, n);
}

/* Checks that `timeline ARGS` exits 0 and prints the lines WANT (without
 * the last newline) on stdout. */
static void prints(const char *args, const char *want)
{
	char *out = tl_all("%s", args), *all = xasprintf("%s\n\n--- exit 0\n", want);
	ck_assert_msg(!strncmp(out, all, strlen(all)), "timeline %s:\n%s\nwant:\n%s", args, out, want);
	free(all);
	free(out);
}

/* Lags of exactly 0 and above 2^32 (issue 30): the histogram's zeros and
 * the sum of squares' high limb (2^66 + 1 from 2^33 and 1) written and read
 * back, alone and merged, as stats gives them of the logs. */
START_TEST(test_summaries_of_lags_of_0_and_above_2_32_merge_as_their_logs)
{
	static const uint64_t zeros[] = { 0, 0, 5, 7 }, big[] = { 8589934592ull, 1 };
	lags_in("z", "z.timeline", 256, zeros, 4);
	lags_in("b", "b.timeline", 256, big, 2);
	free(tl_all("stats --save z.sum z && %s stats --save b.sum b && %s stats --save zb.sum "
		    "z.sum b.sum", timeline_bin(), timeline_bin()));
	same("stats -f json --hist", "z", "z.sum");
	same("stats -f json --hist", "b", "b.sum");
	same("stats -f json --hist", "z b", "z.sum b.sum");
	same("stats --hist", "z b", "zb.sum");
	/* by hand: 0 0 1 5 7 2^33; n 6, p50 the 3rd, p90 the 6th; the mean
	 * 8589934605 / 6; the sample deviation sqrt((sum of squares - 6 mean^2)
	 * / 5) = 3506826111.318955 (exact in fractions, rounded once) */
	prints("stats -f json --hist zb.sum",
	       "{\"table\":\"lag\",\"event\":\"e.tick\",\"n\":6,\"min\":0,\"p50\":1,\"p90\":8589934592,"
	       "\"p99\":8589934592,\"p99.9\":8589934592,\"max\":8589934592,\"mean\":1431655767.5,"
	       "\"stddev\":3506826111.3189549,\"min_ns\":0,\"p50_ns\":1,\"p90_ns\":8589934592,"
	       "\"p99_ns\":8589934592,\"p99.9_ns\":8589934592,\"max_ns\":8589934592,"
	       "\"mean_ns\":1431655767.5,\"stddev_ns\":3506826111.3189549}\n"
	       "{\"table\":\"hist\",\"event\":\"e.tick\",\"from\":0,\"below\":0,\"count\":2}\n"
	       "{\"table\":\"hist\",\"event\":\"e.tick\",\"from\":1,\"below\":2,\"count\":1}\n"
	       "{\"table\":\"hist\",\"event\":\"e.tick\",\"from\":4,\"below\":8,\"count\":2}\n"
	       "{\"table\":\"hist\",\"event\":\"e.tick\",\"from\":8589934592,\"below\":17179869184,"
	       "\"count\":1}");
	/* each alone: 0 0 5 7 (deviation sqrt(38)/sqrt(3)), 1 and 2^33 */
	prints("stats b.sum", "lag in cycles (ns where the TSC frequency is known)\n"
	       "event   n  min  p50         p90         p99       p99.9         max        mean      "
	       "stddev  p50_ns      p99_ns\n"
	       "e.tick  2    1    1  8589934592  8589934592  8589934592  8589934592  4294967296  "
	       "6074000999       1  8589934592");
	prints("stats z.sum", "lag in cycles (ns where the TSC frequency is known)\n"
	       "event   n  min  p50  p90  p99  p99.9  max  mean  stddev  p50_ns  p99_ns\n"
	       "e.tick  4    0    0    7    7      7    7     3   3.559       0       7");
}
END_TEST

/* Writes TEST_DIR/DIR/u.timeline of app x: ENDS ends without a begin, a
 * pair of 10 packets in 500 cycles, then BEGINS begins without an end (a
 * begin after a begin leaves the first unmatched). */
static void unmatched_log(const char *dir, int ends, int begins)
{
	static const char *const defs[] = { "5,5|app.push: inpackets", "5,5|app.pushed: inpackets" };
	tl_log *log;
	uint16_t x[2];
	uint64_t t = 1000;
	mkdir(path_in(test_dir, dir), 0700);
	log = open_manual(path_in(test_dir, test_str("%s/u.timeline", dir)), 256);
	ck_assert_int_eq(tl_register(log, defs, 2, "app=x", x, NULL), TL_OK);
	for (int i = 0; i < ends; i++, t += 100) {
		tl_set_manual_clock(log, t, 0);
		tl_append(log, x[1], 0, 0, 0, 0, 0, 0);
	}
	tl_set_manual_clock(log, t += 1000, 0);
	tl_append(log, x[0], 0, 0, 0, 0, 0, 0);
	tl_set_manual_clock(log, t += 500, 0);
	tl_append(log, x[1], 10, 0, 0, 0, 0, 0);
	for (int i = 0; i < begins; i++) {
		tl_set_manual_clock(log, t += 100, 0);
		tl_append(log, x[0], 10, 0, 0, 0, 0, 0);
	}
	tl_close(log);
}

/* Unmatched begins and unmatched ends, in unequal numbers, each kept in
 * its own field through a summary and a merge (issue 30). */
START_TEST(test_a_summary_keeps_unmatched_begins_and_ends_apart)
{
	unmatched_log("u", 1, 3);
	unmatched_log("v", 0, 2);
	free(tl_all("stats --per packets --save u.sum u && %s stats --per packets --save v.sum v",
		    timeline_bin()));
	same("stats --per packets -f json", "u", "u.sum");
	same("stats --per packets", "u v", "u.sum v.sum");
	prints("stats --per packets -f json u.sum",
	       "{\"table\":\"per\",\"event\":\"app.push\",\"app\":\"x\",\"pairs\":1,\"packets\":10,"
	       "\"cycles/packet\":50,\"p50\":50,\"p90\":50,\"p99\":50,\"empty\":0}\n"
	       "{\"table\":\"unmatched\",\"pair\":\"app.push\",\"ends_without_begin\":1,"
	       "\"begins_without_end\":3}");
	prints("stats --per packets -f json u.sum v.sum",
	       "{\"table\":\"per\",\"event\":\"app.push\",\"app\":\"x\",\"pairs\":2,\"packets\":20,"
	       "\"cycles/packet\":50,\"p50\":50,\"p90\":50,\"p99\":50,\"empty\":0}\n"
	       "{\"table\":\"unmatched\",\"pair\":\"app.push\",\"ends_without_begin\":1,"
	       "\"begins_without_end\":5}");
}
END_TEST

/* --bucket without inf leaves its last range open: a pair of exactly the
 * last edge's packets (8) and one above it (10) in "8+", one below (7) in
 * "0-7", an empty pair counted there; read back from a summary. */
START_TEST(test_a_summary_keeps_the_open_last_bucket_range)
{
	static const uint64_t packets[] = { 7, 8, 10, 0 }, cycles[] = { 700, 1600, 500, 300 };
	mkdir(path_in(test_dir, "p"), 0700);
	app_pairs_log(path_in(test_dir, "p/p.timeline"), "x", 4, packets, cycles);
	free(tl_all("stats --per packets --bucket packets=0,8 --save p.sum p"));
	same("stats --per packets --bucket packets=0,8", "p", "p.sum");
	/* 8+: 18 packets in 2100 cycles; p50 of 200 and 50 the 1st */
	prints("stats --per packets --bucket packets=0,8 -f json p.sum",
	       "{\"table\":\"per\",\"event\":\"app.push\",\"app\":\"x\",\"bucket\":\"0-7\",\"pairs\":1,"
	       "\"packets\":7,\"cycles/packet\":100,\"p50\":100,\"p90\":100,\"p99\":100,\"empty\":1}\n"
	       "{\"table\":\"per\",\"event\":\"app.push\",\"app\":\"x\",\"bucket\":\"8+\",\"pairs\":2,"
	       "\"packets\":18,\"cycles/packet\":116.66666666666667,\"p50\":50,\"p90\":200,\"p99\":200,"
	       "\"empty\":0}");
}
END_TEST

/* diff --runs dir with two logs a run saves the sides it judged, each
 * counted once: 4 directories a side, directory i holding 10 lags of
 * FROM + i cycles and 12 of FROM + i + 1 (A from 100, B from 120). */
START_TEST(test_diff_runs_dir_judges_and_saves_each_log_once)
{
	static const char *const want = "\"event\",\"runs_a\",\"runs_b\",\"n_a\",\"n_b\",\"p50_a\","
		"\"p50_b\",\"p90_a\",\"p90_b\",\"change%\",\"ci_lo%\",\"ci_hi%\",\"p\",\"p_pairs\","
		"\"verdict\"\n"
		"\"e.tick\",4,4,88,88,102,122,104,124,19.512621529025754,16.346153846153854,"
		"22.772277227722771,0.028571428571428571,9.4766288912589954e-31,\"SLOWER\"\n"
		"\n--- exit 1\n";
	char *out;
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < 4; i++) {
			uint64_t lag[12], from = (s ? 120 : 100) + (uint64_t)i;
			const char *dir = test_str("%c", 'a' + s);
			mkdir(path_in(test_dir, dir), 0700);
			for (int k = 0; k < 12; k++)
				lag[k] = from;
			lags_in(test_str("%s/%d", dir, i), "x.timeline", 256, lag, 10);
			for (int k = 0; k < 12; k++)
				lag[k] = from + 1;
			lags_in(test_str("%s/%d", dir, i), "y.timeline", 256, lag, 12);
		}
	/* the runs' medians 101..104 and 121..124 (the 11th of 22); pooled,
	 * 88 lags a side, p50 the 44th, p90 the 80th; the change the geometric
	 * mean of 123/103 and 122/102, the interval 121/104 to 124/101, p 2/70 */
	out = tl_all("diff --runs dir -f csv --a a --b b");
	ck_assert_msg(!strncmp(out, want, strlen(want)), "%s", out);
	free(out);
	out = tl_all("diff --runs dir -f csv --save-a da.sum --save-b db.sum --a a --b b");
	ck_assert_msg(!strncmp(out, want, strlen(want)), "%s", out);
	free(out);
	out = tl_all("diff --runs dir -f csv --a da.sum --b db.sum");
	ck_assert_msg(!strncmp(out, want, strlen(want)), "%s", out);
	free(out);
}
END_TEST

/* The entries counters of `stats -f openmetrics ARGS`, without the labels
 * process and host (a pid and this host's name). */
#define COUNTERS " | grep '^timeline_entries_' | sed 's/process=\"[^\"]*\",host=\"[^\"]*\",//'"

/* Prints the inputs table of a report's JSON: group entries read wrapped skipped. */
#define INPUTS " | python3 -c 'import json,sys\n" \
	"for l in sys.stdin:\n" \
	"  c=json.loads(l)\n" \
	"  if c.get(\"chart\")==\"summary-inputs\":\n" \
	"    for r in c[\"rows\"]: print(r[\"group\"],r[\"entries\"],r[\"read\"],r[\"wrapped\"],r[\"skipped\"])'"

/* A log that lost entries (issue 30): lap/, 100 entries into a ring of 64
 * (36 overwritten); torn/, 5 entries under a cursor set to 7 (2 written
 * but incomplete). Every output that shows losses shows them, apart:
 * info, OpenMetrics of the logs, of their summaries and of a summary of
 * both, and the report's inputs table. */
START_TEST(test_a_log_that_lost_entries_shows_its_losses_in_every_output)
{
	static const char counters[] = "timeline_entries_written_total{group=\"lap\"} 100\n"
				       "timeline_entries_written_total{group=\"torn\"} 7\n"
				       "timeline_entries_lost_total{group=\"lap\"} 36\n"
				       "timeline_entries_lost_total{group=\"torn\"} 2";
	uint64_t lag[99], cursor = 7;
	for (int k = 0; k < 99; k++)
		lag[k] = 10;
	lags_in("lap", "l.timeline", 64, lag, 99);
	lags_in("torn", "t.timeline", 256, lag, 4);
	patch_file(path_in(test_dir, "torn/t.timeline"), 64, &cursor, sizeof cursor);   /* cursor */
	prints("info -f json lap torn | python3 -c 'import json,sys\n"
	       "for l in sys.stdin: i=json.loads(l); print(i[\"written\"],i[\"wrapped\"],i[\"used\"])'",
	       "100 36 64\n7 0 5");
	prints("stats -f openmetrics lap torn" COUNTERS, counters);
	free(tl_all("stats --save l.sum lap && %s stats --save t.sum torn && %s stats --save lt.sum "
		    "l.sum t.sum", timeline_bin(), timeline_bin()));
	prints("stats -f openmetrics l.sum t.sum" COUNTERS, counters);
	prints("stats -f openmetrics lt.sum" COUNTERS, counters);
	prints("report -f json lap torn" INPUTS, "lap 64 64 36 0\ntorn 5 5 0 2");
}
END_TEST

/* Summaries at the edges of what they hold (issue 35, review a): a row
 * of level 9 (the largest); a declared breath's unit, the last (and only)
 * file's; the slowest pairs of a pair of 0 cycles (a wall span of 0), of
 * timestamps of 2^63 and above, and of wall times before 1970 (negative,
 * a header whose anchor puts them there), each read back as stats gives
 * them of the log, under the same heading of their unit (not "packet"). */
START_TEST(test_summaries_keep_level_9_breath_units_and_slowest_pairs_at_their_edges)
{
	static const char req[] = "s 5,5|kv.req_begin: id\ns 5,5|kv.req_end: requests\n"
				  "s pair|kv.req: kv.req_begin kv.req_end unit=requests\n";
	static const char *const logs[][2] = {
		{ "lv9", "s 9,9|kv.req_begin: id\ns 9,9|kv.req_end: requests\n"
			 "s pair|kv.req: kv.req_begin kv.req_end unit=requests\n"
			 "e 1000 0 0 1\ne 1100 0 1 2\n" },
		{ "br", "s 1,9|kv.poll_begin: poll\ns 1,9|kv.poll_end: poll requests\n"
			"s pair|kv.poll: kv.poll_begin kv.poll_end unit=requests breath\n"
			"e 1000 0 0 1\ne 1100 0 1 1 3\ne 2000 0 0 2\ne 2300 0 1 2 5\n" },
		{ "zero", "e 1000 0 0 1\ne 1000 0 1 1\ne 2000 0 0 2\ne 2300 0 1 1\n" },
		{ "top", "e 9223372036854776808 0 0 1\ne 9223372036854777808 0 1 1\n"
			 "e 9223372036854778808 0 0 2\ne 9223372036854779008 0 1 1\n" },
	};
	for (size_t k = 0; k < sizeof logs / sizeof *logs; k++) {
		const char *name = logs[k][0];
		char *a, *b;
		spec_log(path_in(test_dir, test_str("%s.timeline", name)), 64,
			 test_str("%s%s", k < 2 ? "" : req, logs[k][1]));
		free(tl_all("stats --save %s.sum %s.timeline", name, name));
		same("stats --by app", test_str("%s.timeline", name), test_str("%s.sum", name));
		same("stats", test_str("%s.timeline", name), test_str("%s.sum", name));
		a = tl_all("stats --slowest 2 -f csv %s.timeline | cut -d, -f1-10", name);
		b = tl_all("stats --slowest 2 -f csv %s.sum | cut -d, -f1-10", name);
		ck_assert_str_eq(b, a);
		ck_assert_msg(strstr(a, "\"cycles/request\",\"cycles\",\"requests\","), "%s", a);
		free(a);
		free(b);
	}
}
END_TEST

Suite *summary_suite(void)
{
	Suite *s = suite_create("summary");
	TCase *t = tcase_create("summary"), *r;
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_stats_of_summaries_is_stats_of_their_logs_byte_for_byte);
	tcase_add_test(t, test_diff_of_summaries_is_diff_of_their_logs_byte_for_byte);
	tcase_add_test(t, test_a_summary_made_with_other_fixed_options_is_refused);
	tcase_add_test(t, test_save_replaces_the_file_whole_and_reports_where_it_cannot);
	tcase_add_test(t, test_summaries_of_lags_of_0_and_above_2_32_merge_as_their_logs);
	tcase_add_test(t, test_a_summary_keeps_unmatched_begins_and_ends_apart);
	tcase_add_test(t, test_a_summary_keeps_the_open_last_bucket_range);
	tcase_add_test(t, test_diff_runs_dir_judges_and_saves_each_log_once);
	tcase_add_test(t, test_a_log_that_lost_entries_shows_its_losses_in_every_output);
	suite_add_tcase(s, t);
	/* review a (issue 35): a case of its own, that mutate.sh runs first */
	r = tcase_create("review");
	tcase_add_checked_fixture(r, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(r, 120);
	tcase_add_test(r, test_summaries_keep_level_9_breath_units_and_slowest_pairs_at_their_edges);
	suite_add_tcase(s, r);
	return s;
}
