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

Suite *summary_suite(void)
{
	Suite *s = suite_create("summary");
	TCase *t = tcase_create("summary");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_stats_of_summaries_is_stats_of_their_logs_byte_for_byte);
	tcase_add_test(t, test_diff_of_summaries_is_diff_of_their_logs_byte_for_byte);
	tcase_add_test(t, test_a_summary_made_with_other_fixed_options_is_refused);
	tcase_add_test(t, test_save_replaces_the_file_whole_and_reports_where_it_cannot);
	suite_add_tcase(s, t);
	return s;
}
