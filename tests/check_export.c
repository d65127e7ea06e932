/* check_export.c: `timeline export` against the real tools: CTF read back
 * by babeltrace2 and compared with dump, Chrome JSON parsed by jq with the
 * fields each phase needs, spans nested per track, and CSV as dump's. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"


START_TEST(test_export_usage_errors_exit_2_with_a_reason)
{
	static const struct { const char *args, *why; } bad[] = {
		{ "-o x.json in", "missing --format chrome|ctf|csv" },
		{ "-f chrome in", "missing -o OUT" },
		{ "-f chrome -o x.json", "missing input" },
		{ "-f svg -o x in", "--format must be chrome, ctf or csv" },
		{ "-f chrome --pair push -o x in", "--pair takes BEGIN=END, e.g. rx_start=rx_end" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *cmd = xasprintf("cd %s && %s export %s", test_dir, timeline_bin(), bad[i].args), *err;
		char *want = xasprintf("timeline export: %s\n", bad[i].why);
		ck_assert_int_eq(run(cmd, NULL, &err), 2);
		ck_assert_msg(!strncmp(err, want, strlen(want)), "%s: %s", bad[i].args, err);
		free(cmd);
		free(err);
		free(want);
	}
}
END_TEST

/* Runs CMD in DIR; returns stdout, asserting exit status WANT. */
static char *sh(int want, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *sh(int want, const char *fmt, ...)
{
	va_list ap;
	char *cmd, *full, *out, *err;
	int rc;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&cmd, fmt, ap), 0);
	va_end(ap);
	full = xasprintf("cd %s && %s", test_dir, cmd);
	rc = run(full, &out, &err);
	ck_assert_msg(rc == want, "%s: exit %d, want %d: %s", cmd, rc, want, err);
	free(cmd);
	free(full);
	free(err);
	return out;
}

/* A log of three app events of apps x and y, at known ticks (1 GHz). */
static void small_log(const char *name, uint64_t t0)
{
	tl_log *log = open_manual(path_in(test_dir, name), 16);
	static const char *const defs[] = { "5,5|app.push: inpackets inbytes\nPush.",
					    "5,5|app.pushed: inpackets inbytes\nPushed." };
	uint16_t x[2], y[2];
	ck_assert_int_eq(tl_register(log, defs, 2, "app=x", x, NULL), TL_OK);
	ck_assert_int_eq(tl_register(log, defs, 2, "app=y", y, NULL), TL_OK);
	tl_set_manual_clock(log, t0 + 1000, 2);
	tl_append(log, x[0], 7, 700, 0, 0, 0, 0);
	tl_set_manual_clock(log, t0 + 1500, 2);
	tl_append(log, x[1], 17, 1700, 0, 0, 0, 0);
	tl_set_manual_clock(log, t0 + 2250, 1 << 12 | 5);
	tl_append(log, y[1], 3, 300, 0, 0, 0, 0);
	tl_close(log);
}

/* The header's anchor: wall ns of tick 0 at 1 GHz. */
static int64_t wall0(const char *name)
{
	tl_error err;
	tl_reader *r = tl_reader_open(path_in(test_dir, name), &err);
	tl_info in;
	ck_assert_msg(r != NULL, "%s", err.msg);
	tl_reader_info(r, &in);
	tl_reader_close(r);
	ck_assert_uint_eq(in.tsc_hz, 1000000000);
	return (int64_t)in.anchor_realtime_ns - (int64_t)in.anchor_tsc;
}

START_TEST(test_ctf_export_reads_back_in_babeltrace2_with_exact_times_names_and_values)
{
	char *out, *line, *save = NULL;
	int64_t w, n = 0;
	small_log("a.timeline", 0);
	w = wall0("a.timeline");
	free(sh(0, "%s export -f ctf -o a.ctf a.timeline", timeline_bin()));
	out = sh(0, "babeltrace2 --clock-seconds a.ctf");
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save), n++) {
		static const char *const tail[] = {
			"app.push: { cpu = 2, numa = 0, app = \"x\" }, { inpackets = 7, inbytes = 700 }",
			"app.pushed: { cpu = 2, numa = 0, app = \"x\" }, { inpackets = 17, inbytes = 1700 }",
			"app.pushed: { cpu = 5, numa = 1, app = \"y\" }, { inpackets = 3, inbytes = 300 }",
		};
		static const int64_t at[] = { 1000, 1500, 2250 };
		char stamp[64];
		ck_assert_int_lt(n, 3);
		/* the time to the nanosecond: the anchor plus the ticks at 1 GHz */
		snprintf(stamp, sizeof stamp, "[%lld.%09lld]", (long long)((w + at[n]) / 1000000000),
			 (long long)((w + at[n]) % 1000000000));
		ck_assert_msg(!strncmp(line, stamp, strlen(stamp)), "%s, want %s", line, stamp);
		ck_assert_msg(strstr(line, tail[n]) && !strcmp(strstr(line, tail[n]), tail[n]), "%s", line);
	}
	ck_assert_int_eq(n, 3);
	free(out);
}
END_TEST

START_TEST(test_babeltrace2_merges_two_exports_and_two_streams_in_one_export)
{
	char *out, *line, *save = NULL;
	double prev = 0;
	int n = 0;
	small_log("a.timeline", 0);
	small_log("b.timeline", 100);
	free(sh(0, "%s export -f ctf -o a.ctf a.timeline", timeline_bin()));
	free(sh(0, "%s export -f ctf -o b.ctf b.timeline", timeline_bin()));
	free(sh(0, "%s export -f ctf -o both.ctf a.timeline b.timeline", timeline_bin()));
	/* one export, two streams, one clock: one uuid line in the clock block */
	out = sh(0, "ls both.ctf; grep -c 'uuid = ' both.ctf/metadata");
	ck_assert_str_eq(out, "metadata\nstream_000\nstream_001\n2\n");   /* trace + clock */
	free(out);
	out = sh(0, "babeltrace2 --clock-seconds a.ctf b.ctf");
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save), n++) {
		double t = strtod(line + 1, NULL);
		ck_assert_msg(t >= prev, "%s after %f", line, prev);
		prev = t;
	}
	ck_assert_int_eq(n, 6);
	free(out);
	out = sh(0, "babeltrace2 both.ctf | wc -l");
	ck_assert_str_eq(out, "6\n");
	free(out);
}
END_TEST

START_TEST(test_the_snabb_fixture_exports_to_ctf_with_every_entry)
{
	const char *f = getenv("TIMELINE_FIXTURES");
	char *out, *dump;
	out = sh(0, "%s export -f ctf -o s.ctf %s/snabb-v3/engine-short.events.timeline.zst && babeltrace2 s.ctf | wc -l",
		 timeline_bin(), f && *f ? f : "tests/fixtures");
	dump = sh(0, "%s dump %s/snabb-v3/engine-short.events.timeline.zst | wc -l", timeline_bin(),
		  f && *f ? f : "tests/fixtures");
	ck_assert_str_eq(out, dump);
	ck_assert_str_eq(out, "2577\n");
	free(out);
	free(dump);
}
END_TEST

START_TEST(test_chrome_export_has_each_phases_fields_ordered_times_and_nested_spans)
{
	const char *engine = getenv("TIMELINE_ENGINE");
	char *out, *stats;
	unsigned long long x, pairs, empty;
	free(sh(0, "%s --breaths 400 --rate all --workload small --seed 3 --dir e > /dev/null",
		engine && *engine ? engine : "build/examples/engine/engine"));
	free(sh(0, "%s export -f chrome -o t.json e", timeline_bin()));
	/* every event has the fields of its phase */
	out = sh(0, "jq '[.traceEvents[] | select("
		    "(.ph == \"X\" and (.name and .ts and .dur != null and .pid and .tid != null | not)) or "
		    "(.ph == \"i\" and (.name and .ts and .pid and .tid != null and .s | not)) or "
		    "(.ph == \"C\" and (.name and .ts and .pid and .args | not)) or "
		    "(.ph == \"M\" and (.name and .pid and .args | not)))] | length' t.json");
	ck_assert_str_eq(out, "0\n");
	free(out);
	/* per process, times never go back */
	out = sh(0, "jq '[.traceEvents[] | select(.ts) | {pid, ts}] | group_by(.pid) | "
		    "map(. as $e | [range(1; length)] | map(select($e[.].ts < $e[. - 1].ts)) | length) | add' t.json");
	ck_assert_str_eq(out, "0\n");
	free(out);
	/* spans on one track nest: each X ends by the end of every X it starts in */
	out = sh(0, "jq '[.traceEvents[] | select(.ph == \"X\")] | group_by([.pid, .tid]) | map("
		    "sort_by(.ts) | . as $s | [range(0; length) as $i | range($i + 1; length) as $j | "
		    "select($s[$j].ts < $s[$i].ts + $s[$i].dur and "
		    "$s[$j].ts + $s[$j].dur > $s[$i].ts + $s[$i].dur + 0.001)] | length) | add' t.json");
	ck_assert_str_eq(out, "0\n");
	free(out);
	/* as many lookup push spans as stats counts pairs (with and without packets) */
	out = sh(0, "jq '[.traceEvents[] | select(.ph == \"X\" and .name == \"app.push lookup\")] | length' t.json");
	stats = sh(0, "%s stats --per packets -f csv e | grep '^\"app.push\",\"lookup\"'", timeline_bin());
	ck_assert_int_eq(sscanf(stats, "\"app.push\",\"lookup\",%llu,%*[^,],%*[^,],%*[^,],%*[^,],%*[^,],%llu", &pairs, &empty), 2);
	ck_assert_int_eq(sscanf(out, "%llu", &x), 1);
	ck_assert_uint_eq(x, pairs + empty);
	ck_assert_uint_eq(x, 400);   /* --rate all: every breath's push */
	free(out);
	free(stats);
	/* breath counters: one totalpackets value per breath_end */
	out = sh(0, "jq '[.traceEvents[] | select(.ph == \"C\" and .name == \"totalpackets\")] | length' t.json");
	ck_assert_str_eq(out, "400\n");
	free(out);
}
END_TEST

START_TEST(test_chrome_span_carries_its_cycles_and_unpaired_ends_are_instants)
{
	char *out;
	small_log("a.timeline", 0);
	free(sh(0, "%s export -f chrome -o a.json a.timeline", timeline_bin()));
	out = sh(0, "jq -c '[.traceEvents[] | select(.ph != \"M\") | [.ph, .name, .args.cycles // null, .dur // null]]' a.json");
	/* x's push at 1000 and pushed at 1500: a span of 500 ticks (0.5 us);
	 * y's pushed alone: an instant */
	ck_assert_str_eq(out, "[[\"X\",\"app.push x\",500,0.5],[\"i\",\"app.pushed y\",null,null]]\n");
	free(out);
}
END_TEST

START_TEST(test_event_and_cpu_filters_restrict_exports)
{
	char *out;
	small_log("a.timeline", 0);
	free(sh(0, "%s export -f ctf --event 'app.pushed' -o p.ctf a.timeline", timeline_bin()));
	out = sh(0, "babeltrace2 p.ctf | wc -l");
	ck_assert_str_eq(out, "2\n");
	free(out);
	free(sh(0, "%s export -f chrome --cpu 5 -o c.json a.timeline", timeline_bin()));
	out = sh(0, "jq '[.traceEvents[] | select(.ph != \"M\")] | length' c.json");
	ck_assert_str_eq(out, "1\n");
	free(out);
	free(sh(0, "%s export -f csv --from 400 -o f.csv a.timeline", timeline_bin()));
	out = sh(0, "wc -l < f.csv");
	ck_assert_str_eq(out, "3\n");   /* header, and the two entries 500 and 1250 ticks in */
	free(out);
}
END_TEST

START_TEST(test_csv_export_is_dumps_csv_byte_for_byte)
{
	char *out;
	small_log("a.timeline", 0);
	small_log("b.timeline", 7);
	free(sh(0, "%s export -f csv -o x.csv a.timeline b.timeline", timeline_bin()));
	out = sh(0, "%s dump -f csv a.timeline b.timeline | cmp - x.csv && echo same", timeline_bin());
	ck_assert_str_eq(out, "same\n");
	free(out);
}
END_TEST

START_TEST(test_export_with_a_bad_input_exports_the_rest_and_exits_2)
{
	char *cmd, *out, *err;
	small_log("a.timeline", 0);
	write_file(path_in(test_dir, "junk.timeline"), "not a log at all", 16);
	cmd = xasprintf("cd %s && %s export -f chrome -o x.json junk.timeline a.timeline", test_dir,
			timeline_bin());
	ck_assert_int_eq(run(cmd, NULL, &err), 2);
	ck_assert_ptr_nonnull(strstr(err, "timeline export: junk.timeline: "));
	free(cmd);
	free(err);
	out = sh(0, "jq '[.traceEvents[] | select(.ph != \"M\")] | length' x.json");
	ck_assert_str_eq(out, "2\n");
	free(out);
	/* a directory that already holds a trace is refused */
	free(sh(0, "%s export -f ctf -o t.ctf a.timeline", timeline_bin()));
	cmd = xasprintf("cd %s && %s export -f ctf -o t.ctf a.timeline", test_dir, timeline_bin());
	ck_assert_int_eq(run(cmd, NULL, &err), 2);
	ck_assert_str_eq(err, "timeline export: t.ctf: already holds a trace (metadata): choose a new directory\n");
	free(cmd);
	free(err);
}
END_TEST

Suite *export_suite(void)
{
	Suite *s = suite_create("export");
	TCase *t = tcase_create("export");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_export_usage_errors_exit_2_with_a_reason);
	tcase_add_test(t, test_ctf_export_reads_back_in_babeltrace2_with_exact_times_names_and_values);
	tcase_add_test(t, test_babeltrace2_merges_two_exports_and_two_streams_in_one_export);
	tcase_add_test(t, test_the_snabb_fixture_exports_to_ctf_with_every_entry);
	tcase_add_test(t, test_chrome_export_has_each_phases_fields_ordered_times_and_nested_spans);
	tcase_add_test(t, test_chrome_span_carries_its_cycles_and_unpaired_ends_are_instants);
	tcase_add_test(t, test_event_and_cpu_filters_restrict_exports);
	tcase_add_test(t, test_csv_export_is_dumps_csv_byte_for_byte);
	tcase_add_test(t, test_export_with_a_bad_input_exports_the_rest_and_exits_2);
	suite_add_tcase(s, t);
	return s;
}
