/* check_metrics.c: `stats --format openmetrics`: every `le` bucket counts
 * exactly the values below its edge, the edges are no more than 1.1908
 * apart (the documented error of histogram_quantile), promtool check
 * metrics accepts what is printed (names and labels with quotes and
 * backslashes too), and --interval rewrites the file whole. The run against
 * node_exporter and Prometheus is tests/prometheus.sh. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util.h"

/* Runs `cd TEST_DIR && CMD` with "TL" in CMD the timeline program; checks
 * the exit status is WANT; returns stdout. */
static char *sh(int want, const char *cmd)
{
	char *c = xasprintf("cd %s && TL=%s && { %s; }", test_dir, timeline_bin(), cmd), *out, *err;
	int rc = run(c, &out, &err);
	ck_assert_msg(rc == want, "%s: exit %d, want %d: %s", c, rc, want, err);
	free(c);
	free(err);
	return out;
}

/* A log, TEST_DIR/NAME, of the manual clock at 1 GHz: e.tick after each lag
 * 1, 2, ..., 100 in the order 37 k mod 101 walks them. */
static void lags_1_to_100(const char *name)
{
	tl_log *log = open_manual(path_in(test_dir, name), 256);
	uint64_t t = 1000;
	uint16_t id;
	ck_assert_int_eq(tl_intern(log, "1,9|e.tick: n", &id, NULL), TL_OK);
	for (int k = 0; k <= 100; k++) {
		t += k ? (uint64_t)(37 * k % 101) : 0;
		tl_set_manual_clock(log, t, 0);
		tl_append(log, id, (uint64_t)k, 0, 0, 0, 0, 0);
	}
	tl_close(log);
}

START_TEST(test_le_buckets_count_exactly_the_values_below_each_edge)
{
	char *out, *line, *save = NULL;
	double prev = 0;
	int nle = 0, inf = 0;
	lags_1_to_100("a.timeline");
	out = sh(0, "$TL stats -f openmetrics a.timeline");
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		double le;
		unsigned long long count;
		if (sscanf(line, "timeline_lag_cycles_bucket{event=\"e.tick\",le=\"+Inf\"} %llu", &count) == 1) {
			ck_assert_uint_eq(count, 100);
			inf++;
		} else if (sscanf(line, "timeline_lag_cycles_bucket{event=\"e.tick\",le=\"%lf\"} %llu", &le,
				  &count) == 2) {
			/* the lags below le: 1 .. ceil(le) - 1 */
			double want = fmin(fmax(ceil(le) - 1, 0), 100);
			ck_assert_msg(count == (unsigned long long)want, "le %g: %llu", le, count);
			ck_assert_msg(nle == 0 ? le == 1 : le > prev && le <= prev * 1.1908, "le %g after %g",
				      le, prev);
			prev = le;
			nle++;
		}
	}
	ck_assert_int_eq(nle, 129);
	ck_assert(prev == 4294967296.0);
	ck_assert_int_eq(inf, 1);
	free(out);
	out = sh(0, "$TL stats -f openmetrics a.timeline | grep -v -e _bucket -e '{process='");
	ck_assert_str_eq(out,
		"# HELP timeline_lag_cycles Cycles since the previous entry of the same or a lower "
		"level, over the entries the logs hold now (a snapshot: histogram_quantile() of the "
		"buckets, not of their rate)\n"
		"# TYPE timeline_lag_cycles histogram\n"
		"timeline_lag_cycles_sum{event=\"e.tick\"} 5050\n"
		"timeline_lag_cycles_count{event=\"e.tick\"} 100\n"
		"# HELP timeline_breaths_total The breath number of the last breath_end of each log\n"
		"# TYPE timeline_breaths_total counter\n"
		"# HELP timeline_packets_total The totalpackets of the last breath_end of each log\n"
		"# TYPE timeline_packets_total counter\n"
		"# HELP timeline_entries_written_total Entries each log's writer wrote\n"
		"# TYPE timeline_entries_written_total counter\n"
		"# HELP timeline_entries_lost_total Entries written but not read: overwritten by the "
		"ring before the read, or incomplete\n"
		"# TYPE timeline_entries_lost_total counter\n");
	free(out);
	/* the log's counters: 101 written into 256 slots, none lost */
	out = sh(0, "$TL stats -f openmetrics a.timeline | grep '{process=' | sed 's/{.*}//'");
	ck_assert_str_eq(out, "timeline_entries_written_total 101\ntimeline_entries_lost_total 0\n");
	free(out);
}
END_TEST

START_TEST(test_promtool_accepts_every_kind_of_output)
{
	static const char *const opts[] = {
		"", "--by event,process,cpu,numa,host,group",
		"--per packets --bucket packets=0,1,16,32,inf --by app,numa,host,group,process,cpu",
	};
	char *engine = xasprintf("%s --dir %s/we --breaths 300 --rate all --entries 8192 --seed 5 "
				 ">/dev/null", getenv("TIMELINE_ENGINE"), test_dir);
	ck_assert_int_eq(run(engine, NULL, NULL), 0);
	free(engine);
	for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
		/* a group label with a quote and a backslash, escaped */
		char *c = xasprintf("$TL stats -f openmetrics %s -g 'we\"ird\\=we' > m.prom && "
				    "grep -cF 'group=\"we\\\"ird\\\\\"' m.prom && promtool check "
				    "metrics < m.prom 2>&1", opts[i]);
		char *out = sh(0, c);
		ck_assert_msg(atoi(out) > 0 && !strchr(strchr(out, '\n') + 1, '\n') &&
			      strlen(strchr(out, '\n')) == 1, "%s: %s", c, out);
		free(out);
		free(c);
	}
}
END_TEST

START_TEST(test_interval_rewrites_the_file_whole_until_count_or_a_signal)
{
	struct stat st;
	char *once, *file, *out;
	size_t len;
	lags_1_to_100("a.timeline");
	once = sh(0, "$TL stats -f openmetrics a.timeline");
	out = sh(0, "$TL stats -f openmetrics --interval 0.2 --count 3 -o t.prom a.timeline && ls");
	ck_assert_str_eq(out, "a.timeline\nt.prom\n");   /* no temporary file left */
	free(out);
	file = read_file(path_in(test_dir, "t.prom"), &len);
	ck_assert_str_eq(file, once);
	free(file);
	ck_assert_int_eq(stat(path_in(test_dir, "t.prom"), &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0644);
	/* without --count, SIGTERM ends it after the write under way: exit 0.
	 * The signal comes once the first file is there (its handler is set
	 * before), however long the start takes: at most 30 s */
	unlink(path_in(test_dir, "t.prom"));
	out = sh(0, "$TL stats -f openmetrics --interval 0.1 -o t.prom a.timeline & "
		    "i=0; while [ ! -e t.prom ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done; "
		    "kill -TERM $!; wait $!; echo $?; ls");
	ck_assert_str_eq(out, "0\na.timeline\nt.prom\n");
	free(out);
	file = read_file(path_in(test_dir, "t.prom"), &len);
	ck_assert_str_eq(file, once);
	free(file);
	free(once);
	/* a link at -o's path is replaced, its target untouched */
	unlink(path_in(test_dir, "t.prom"));
	write_file(path_in(test_dir, "target"), "kept\n", 5);
	ck_assert_int_eq(symlink("target", path_in(test_dir, "t.prom")), 0);
	out = sh(0, "$TL stats -f openmetrics -o t.prom a.timeline && cat target && "
		    "test ! -L t.prom && cmp -s t.prom - <<EOF\n$($TL stats -f openmetrics a.timeline)\nEOF\n"
		    "echo $?");
	ck_assert_str_eq(out, "kept\n0\n");
	free(out);
	out = sh(0, "$TL stats --interval 1 a.timeline 2>&1 | head -1; $TL stats --count 2 "
		    "a.timeline 2>/dev/null; echo $?");
	ck_assert_str_eq(out, "timeline stats: -o and --interval go with --format openmetrics\n2\n");
	free(out);
}
END_TEST

/* Lags of exactly 0 and above the last edge, 2^32 (issue 30): 0 0 1 5 7
 * 2^33. Each le bucket holds exactly the values below its edge, so the
 * zeros are in every one and 2^33 in none; +Inf holds all six, as
 * _count; _sum is exact, 8589934605, past the 6 digits of %g. */
START_TEST(test_lags_of_0_and_above_the_last_edge_in_every_bucket_exactly)
{
	static const uint64_t lags[] = { 0, 7, 0, 8589934592ull, 5, 1 };
	char *out, *line, *save = NULL;
	unsigned long long prev = 0, inf = 0;
	int nle = 0;
	lags_log(path_in(test_dir, "e.timeline"), 256, lags, 6);
	out = sh(0, "$TL stats -f openmetrics e.timeline");
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		double le;
		unsigned long long count, want = 0;
		if (sscanf(line, "timeline_lag_cycles_bucket{event=\"e.tick\",le=\"+Inf\"} %llu", &inf) == 1)
			continue;
		if (sscanf(line, "timeline_lag_cycles_bucket{event=\"e.tick\",le=\"%lf\"} %llu", &le,
			   &count) != 2)
			continue;
		for (int i = 0; i < 6; i++)
			want += (double)lags[i] < le;
		ck_assert_msg(count == want, "le %g: %llu, want %llu", le, count, want);
		ck_assert_msg(count >= prev, "le %g: %llu after %llu", le, count, prev);
		ck_assert_msg(nle || count == 2, "le %g, the first: %llu", le, count);
		prev = count;
		nle++;
	}
	ck_assert_int_eq(nle, 129);
	ck_assert_uint_eq(prev, 5);   /* le="4294967296": all but 2^33 */
	ck_assert_uint_eq(inf, 6);
	free(out);
	out = sh(0, "$TL stats -f openmetrics e.timeline | grep -e '_sum{' -e '_count{' -e "
		    "'le=\"1\"' -e 'le=\"4294967296\"' -e 'le=\"+Inf\"'");
	ck_assert_str_eq(out, "timeline_lag_cycles_bucket{event=\"e.tick\",le=\"1\"} 2\n"
			      "timeline_lag_cycles_bucket{event=\"e.tick\",le=\"4294967296\"} 5\n"
			      "timeline_lag_cycles_bucket{event=\"e.tick\",le=\"+Inf\"} 6\n"
			      "timeline_lag_cycles_sum{event=\"e.tick\"} 8589934605\n"
			      "timeline_lag_cycles_count{event=\"e.tick\"} 6\n");
	free(out);
}
END_TEST

/* Every character a label value escapes: a quote, a backslash and a
 * newline (the group a"b\c, newline, d), each as \", \\ and \n, and
 * promtool takes the result. */
START_TEST(test_a_label_escapes_a_quote_a_backslash_and_a_newline)
{
	static const uint64_t lags[] = { 3, 4 };
	char *out;
	ck_assert_int_eq(mkdir(path_in(test_dir, "z"), 0700), 0);
	lags_log(path_in(test_dir, "z/e.timeline"), 256, lags, 2);
	out = sh(0, "$TL stats -f openmetrics --by event,group -g \"$(printf 'a\"b\\\\c\\nd')=z\" "
		    "> m.prom && grep -e '_count{' -e '_lost_total{' m.prom | sed 's/process=\"[^\"]*\",host=\"[^\"]*\",//' "
		    "&& promtool check metrics < m.prom 2>&1");
	ck_assert_str_eq(out, "timeline_lag_cycles_count{event=\"e.tick\",group=\"a\\\"b\\\\c\\nd\"} 2\n"
			      "timeline_entries_lost_total{group=\"a\\\"b\\\\c\\nd\"} 0\n");
	free(out);
}
END_TEST

/* With --per, a row's labels are its pair and its app (each key of the
 * rows its own label), and a pair of 0 cycles a packet is in every le
 * bucket: pairs of 0, 50 and 50 cycles a packet. */
START_TEST(test_per_rows_label_the_pair_and_the_app_and_count_0_in_every_bucket)
{
	static const uint64_t packets[] = { 5, 10, 10 }, cycles[] = { 0, 500, 500 };
	char *out;
	app_pairs_log(path_in(test_dir, "p.timeline"), "x", 3, packets, cycles);
	out = sh(0, "$TL stats -f openmetrics --per packets --by event,app p.timeline | grep -e "
		    "'_sum{' -e '_count{' -e 'le=\"1\"' -e 'le=\"4294967296\"' -e 'le=\"+Inf\"'");
	ck_assert_str_eq(out, "timeline_cycles_per_packet_bucket{pair=\"app.push\",app=\"x\",le=\"1\"} 1\n"
			      "timeline_cycles_per_packet_bucket{pair=\"app.push\",app=\"x\",le=\"4294967296\"} 3\n"
			      "timeline_cycles_per_packet_bucket{pair=\"app.push\",app=\"x\",le=\"+Inf\"} 3\n"
			      "timeline_cycles_per_packet_sum{pair=\"app.push\",app=\"x\"} 100\n"
			      "timeline_cycles_per_packet_count{pair=\"app.push\",app=\"x\"} 3\n");
	free(out);
}
END_TEST

Suite *metrics_suite(void)
{
	Suite *s = suite_create("metrics");
	TCase *t = tcase_create("metrics");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_le_buckets_count_exactly_the_values_below_each_edge);
	tcase_add_test(t, test_lags_of_0_and_above_the_last_edge_in_every_bucket_exactly);
	tcase_add_test(t, test_a_label_escapes_a_quote_a_backslash_and_a_newline);
	tcase_add_test(t, test_per_rows_label_the_pair_and_the_app_and_count_0_in_every_bucket);
	tcase_add_test(t, test_promtool_accepts_every_kind_of_output);
	tcase_add_test(t, test_interval_rewrites_the_file_whole_until_count_or_a_signal);
	suite_add_tcase(s, t);
	return s;
}
