/* check_trust.c: stats and diff as a CI job and a newcomer rely on them:
 * ns values across processes that calibrated their TSC apart, row labels
 * of --pair rules, and (as they land) the other cases of the issue that
 * asked for them, each with its exact output. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util.h"

/* Runs timeline ARGS in the test's directory; checks the exit status is
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

/* A log NAME of the manual clock at HZ: event e.tick every LAG ticks, N times. */
static void tick_log(const char *name, uint64_t hz, uint64_t lag, int n)
{
	tl_options o = { .entries = 64, .clock = TL_CLOCK_MANUAL, .tsc_hz = hz,
			 .strings_bytes = 4096, .name = "t" };
	tl_error err;
	tl_log *log = tl_open(path_in(test_dir, name), &o, &err);
	uint16_t id;
	ck_assert_msg(log != NULL, "%s", err.msg);
	ck_assert_int_eq(tl_intern(log, "1,9|e.tick: n", &id, NULL), TL_OK);
	for (int i = 0; i < n; i++) {
		tl_set_manual_clock(log, 1000 + (uint64_t)i * lag, 0);
		tl_append(log, id, (uint64_t)i, 0, 0, 0, 0, 0);
	}
	close_run(log);
}

/* The hundred lags FROM + 1 .. FROM + 100, shuffled (37 k mod 101 walks 1..100). */
static void hundred_lags(uint64_t *v, uint64_t from)
{
	for (int k = 1; k <= 100; k++)
		v[k - 1] = from + (uint64_t)(37 * k % 101);
}

START_TEST(test_ns_columns_stay_when_frequencies_agree_within_0_1_percent)
{
	char *out, *err;
	/* two processes of one host: 2096022899 and 2096022936 Hz */
	tick_log("a.timeline", 2096022899ull, 1000, 3);
	tick_log("b.timeline", 2096022936ull, 1000, 3);
	out = tl(0, &err, "stats a.timeline b.timeline");
	/* 1000 cycles at the midpoint 2096022917 Hz: 477.09 ns */
	ck_assert_str_eq(out, "lag in cycles (ns where the TSC frequency is known)\n"
			      "event   n   min   p50   p90   p99  p99.9   max  mean  stddev  p50_ns  p99_ns\n"
			      "e.tick  4  1000  1000  1000  1000   1000  1000  1000       0     477     477\n");
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
	/* 1% apart: no ns, and a note that says why */
	tick_log("c.timeline", 2117000000ull, 1000, 3);
	out = tl(0, &err, "stats a.timeline c.timeline");
	ck_assert_str_eq(out, "lag in cycles (ns where the TSC frequency is known)\n"
			      "event   n   min   p50   p90   p99  p99.9   max  mean  stddev  p50_ns  p99_ns\n"
			      "e.tick  4  1000  1000  1000  1000   1000  1000  1000       0       -       -\n");
	ck_assert_str_eq(err, "timeline stats: note: no ns values in 1 row: their logs' TSC frequencies "
			      "differ by more than 0.1% (2096022899 to 2117000000 Hz)\n");
	free(out);
	free(err);
}
END_TEST

START_TEST(test_a_pair_rule_with_categories_labels_its_rows_once)
{
	tl_log *log = open_manual(path_in(test_dir, "s.timeline"), 64);
	uint16_t b, e;
	char *out;
	ck_assert_int_eq(tl_intern(log, "5,9|stage.begin: items", &b, NULL), TL_OK);
	ck_assert_int_eq(tl_intern(log, "5,9|stage.end: items", &e, NULL), TL_OK);
	tl_set_manual_clock(log, 1000, 0);
	tl_append(log, b, 0, 0, 0, 0, 0, 0);
	tl_set_manual_clock(log, 1400, 0);
	tl_append(log, e, 4, 0, 0, 0, 0, 0);
	tl_close(log);
	out = tl(0, NULL, "stats -f csv --per items --pair stage.begin=stage.end s.timeline");
	ck_assert_str_eq(out, "\"event\",\"app\",\"pairs\",\"items\",\"cycles/item\",\"p50\",\"p90\",\"p99\",\"empty\"\n"
			      "\"stage.begin/end\",,1,4,100,100,100,100,0\n");
	free(out);
}
END_TEST

/* A formatted string that lives until the next call (a static buffer). */
static const char *S(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *S(const char *fmt, ...)
{
	static char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return buf;
}

/* The n of e.tick's lag row in `stats -f csv ARGS w.timeline`. */
static int ticks_in(const char *args)
{
	char *out = tl(0, NULL, "stats -f csv %s w.timeline", args), *row = strstr(out, "\"e.tick\",");
	int n = -1;
	if (row)
		sscanf(row, "\"e.tick\",%d,", &n);
	free(out);
	return n;
}

START_TEST(test_windows_in_cycles_durations_wall_time_and_last)
{
	tl_reader *r;
	tl_info info;
	tl_error err;
	char iso[64], *cmd, zoned[64];
	/* 1 GHz: a tick is a ns; entries at 1000, 2000, ... 10000; each has a
	 * lag of 1000 but the first, so n = entries kept - 1 */
	tick_log("w.timeline", 1000000000ull, 1000, 10);
	ck_assert_int_eq(ticks_in(""), 9);
	ck_assert_int_eq(ticks_in("--from 3000"), 6);       /* cycles since the first: >= 4000 */
	ck_assert_int_eq(ticks_in("--from 3us"), 6);
	ck_assert_int_eq(ticks_in("--from 2999"), 6);       /* >= 3999: the same 4000.. */
	ck_assert_int_eq(ticks_in("--from 3001"), 5);       /* >= 4001 */
	ck_assert_int_eq(ticks_in("--to 2.5us"), 2);        /* <= 3500: 1000, 2000, 3000 */
	ck_assert_int_eq(ticks_in("--from 1us --to 3000ns"), 2);
	ck_assert_int_eq(ticks_in("--last 2us"), 2);        /* >= 8000 */
	ck_assert_int_eq(ticks_in("--last 1h"), 9);

	/* wall time, as `dump --time wall` prints it, and with a zone */
	r = tl_reader_open(path_in(test_dir, "w.timeline"), &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	tl_reader_info(r, &info);
	tl_reader_close(r);
	tl_format_wall(iso, sizeof iso, tl_wall_ns(&info, 5000));
	cmd = xasprintf("--from %s", iso);
	ck_assert_int_eq(ticks_in(cmd), 5);                 /* >= 5000 */
	free(cmd);
	tl_format_wall(iso, sizeof iso, tl_wall_ns(&info, 5000) + 3600000000000ll);
	snprintf(zoned, sizeof zoned, "%.29s+01:00", iso);  /* the same moment, an hour east */
	cmd = xasprintf("--to '%s'", zoned);
	ck_assert_int_eq(ticks_in(cmd), 4);                 /* <= 5000 */
	free(cmd);
}
END_TEST

START_TEST(test_a_window_a_log_cannot_place_is_an_error_naming_it)
{
	char *err, *out;
	const char *fx = getenv("TIMELINE_FIXTURES");
	out = tl(2, &err, "stats --last 1s %s/snabb-v3/engine-short.events.timeline.zst", fx);
	ck_assert_str_eq(err, S("timeline stats: %s/snabb-v3/engine-short.events.timeline.zst: --last: "
				"a time in seconds needs the TSC frequency, which this log does not have: "
				"give the bound in cycles\n", fx));
	free(out);
	free(err);
	out = tl(2, &err, "stats --from yesterday x");
	ck_assert_ptr_nonnull(strstr(err, "--from takes cycles, a duration (1.5s) or a wall time"));
	free(out);
	free(err);
}
END_TEST

/* Runs python3 with SCRIPT on the output of timeline ARGS (in the test's
 * directory); returns what the script printed. */
static char *py(const char *script, const char *args)
{
	char *cmd = xasprintf("cd %s && %s %s | python3 -c '%s'", test_dir, timeline_bin(), args, script);
	char *out, *err;
	int rc = run(cmd, &out, &err);
	ck_assert_msg(rc == 0, "%s: exit %d: %s", cmd, rc, err);
	free(cmd);
	free(err);
	return out;
}

/* Every line a strict JSON parser accepts: prints how many there were. */
#define JSON_LINES "import json,sys\nn=0\nfor l in sys.stdin:\n  json.loads(l); n+=1\nprint(n)"

START_TEST(test_every_json_line_parses_strictly_and_carries_full_precision)
{
	char *out;
	/* four runs a side, lags of 1000 against 2911 cycles: change +191.1% */
	for (int i = 0; i < 4; i++) {
		char a[32], b[32];
		snprintf(a, sizeof a, "a%d.timeline", i);
		snprintf(b, sizeof b, "b%d.timeline", i);
		tick_log(a, 1000000000ull, 1000, 12);
		tick_log(b, 1000000000ull, 2911, 12);
	}
	ck_assert_int_eq(mkdir(path_in(test_dir, "A"), 0700), 0);
	ck_assert_int_eq(mkdir(path_in(test_dir, "B"), 0700), 0);
	free(tl(0, NULL, "copy a0.timeline a1.timeline a2.timeline a3.timeline A/"));
	free(tl(0, NULL, "copy b0.timeline b1.timeline b2.timeline b3.timeline B/"));
	out = py("import json,sys\nfor l in sys.stdin:\n  r=json.loads(l)\n  print(repr(r[\"change%\"]), r[\"p\"], r[\"verdict\"])",
		 "diff -f json A B");
	ck_assert_str_eq(out, "191.1 0.02857142857142857 SLOWER\n");
	free(out);
	out = py("import json,sys\nprint(\" \".join(json.loads(l)[\"table\"] for l in sys.stdin))",
		 "stats -f json --hist a0.timeline b0.timeline");
	ck_assert_str_eq(out, "lag hist hist\n");   /* e.tick, its lags' two bins */
	free(out);
	out = py("import json,sys\nr=json.loads(sys.stdin.readline())\nprint(repr(r[\"mean_ns\"]))",
		 "stats -f json a0.timeline b0.timeline");
	ck_assert_str_eq(out, "1955.5\n");
	free(out);
	out = py(JSON_LINES, "dump -f json a0.timeline");
	ck_assert_str_eq(out, "12\n");
	free(out);
	out = py(JSON_LINES, "merge -f json a0.timeline b0.timeline");
	ck_assert_str_eq(out, "24\n");
	free(out);
	out = py("import json,sys\njson.load(sys.stdin)\nprint(1)", "info -f json a0.timeline");
	ck_assert_str_eq(out, "1\n");
	free(out);
}
END_TEST

START_TEST(test_hist_in_csv_is_rows_of_bins)
{
	char *out;
	tick_log("w.timeline", 1000000000ull, 1000, 4);
	out = tl(0, NULL, "stats -f csv --hist w.timeline");
	/* 1000 lies in [512, 1024) */
	ck_assert_str_eq(out, "\"event\",\"from\",\"below\",\"count\"\n\"e.tick\",512,1024,3\n");
	free(out);
}
END_TEST

/* A log of app x's push/pushed pairs that both carry the batch size as
 * "packets" (4 each), where a running total was meant. */
static void batch_log(const char *name)
{
	tl_log *log = open_manual(path_in(test_dir, name), 64);
	static const char *const defs[] = { "5,5|app.push: packets", "5,5|app.pushed: packets" };
	uint16_t x[2];
	ck_assert_int_eq(tl_register(log, defs, 2, "app=x", x, NULL), TL_OK);
	for (uint64_t i = 0; i < 3; i++) {
		tl_set_manual_clock(log, 1000 + 100 * i, 0);
		tl_append(log, x[0], 4, 0, 0, 0, 0, 0);
		tl_set_manual_clock(log, 1050 + 100 * i, 0);
		tl_append(log, x[1], 4, 0, 0, 0, 0, 0);
	}
	tl_close(log);
}

START_TEST(test_options_that_find_nothing_say_so)
{
	char *out, *err;
	batch_log("b.timeline");
	ck_assert_int_eq(mkdir(path_in(test_dir, "empty"), 0700), 0);
	/* a unit no pair counts is refused, naming those they count */
	out = tl(2, &err, "stats --per frames b.timeline");
	ck_assert_str_eq(out, "");
	ck_assert_str_eq(err, "timeline stats: --per frames: no pair counts frames; the logs' pairs "
			      "count packets\n");
	free(out);
	free(err);
	out = tl(0, &err, "stats --per packets --pair nosuch=other b.timeline");
	ck_assert_str_eq(err, "timeline stats: warning: --pair nosuch=other: no event in the logs is "
			      "named nosuch or other\n"
			      "timeline stats: warning: app.push x: all 3 pairs moved no packets: both "
			      "ends carry it, and a pair counts end minus begin, so it must be a "
			      "running total (or left off the begin)\n");
	free(out);
	free(err);
	out = tl(0, &err, "stats --per packets --bucket frames=0,8 -f csv b.timeline");
	ck_assert_str_eq(err, "timeline stats: warning: --bucket frames: no pair's end carries frames; "
			      "their ends carry: packets\n"
			      "timeline stats: warning: app.push x: all 3 pairs moved no packets: both "
			      "ends carry it, and a pair counts end minus begin, so it must be a "
			      "running total (or left off the begin)\n");
	free(out);
	free(err);
	out = tl(2, &err, "stats --bucket packets=0,8 b.timeline");
	ck_assert_str_eq(err, "timeline stats: --bucket needs --per: it sorts begin/end "
			      "pairs by what they moved\nsee 'timeline stats --help'\n");
	free(out);
	free(err);
	/* nothing to read is an error, with one reason: not also a warning
	 * that the logs hold no pairs */
	out = tl(2, &err, "stats --per packets empty");
	ck_assert_str_eq(err, "timeline stats: empty: no logs\n");
	free(out);
	free(err);
}
END_TEST

/* The wall time of TSC in log NAME: as `dump --time wall` prints it into
 * ISO (48 bytes), and as Unix seconds with 9 decimals into SECS. */
static void wall_of(const char *name, uint64_t tsc, char *iso, char *secs)
{
	tl_info info = info_at(path_in(test_dir, name));
	int64_t ns = tl_wall_ns(&info, tsc);
	tl_format_wall(iso, 48, ns);
	snprintf(secs, 48, "%lld.%09lld", (long long)(ns / 1000000000), (long long)(ns % 1000000000));
}

/* Runs timeline ARGS, which must exit 2 having read nothing, and checks
 * its stderr is exactly WANT ("timeline " and the command before it). */
static void says(const char *args, const char *want)
{
	char *err, *out = tl(2, &err, "%s", args);
	char *line = xasprintf("timeline %.*s: %s\n", (int)strcspn(args, " "), args, want);
	ck_assert_str_eq(err, line);
	free(line);
	free(out);
	free(err);
}

/* A window that holds none of a path's entries says so, with each log's
 * span in the bound's own form (wall times as dump --time wall prints
 * them, durations in seconds since the log's first entry, cycles since
 * it, dump's bare numbers in its --time unit), and exits 2: nothing was
 * read. Where one log of the path has entries in it, the others are no
 * news. */
START_TEST(test_an_empty_window_says_so_with_each_logs_span)
{
	static const char *const secs = "w.timeline spans 0s to 0.000009s";
	char a[48], b[48], sa[48], sb[48], *out;
	/* 1 GHz: entries at 1000 .. 10000 ticks, 0 .. 9 us after the first */
	tick_log("w.timeline", 1000000000ull, 1000, 10);
	wall_of("w.timeline", 1000, a, sa);
	wall_of("w.timeline", 10000, b, sb);
	says("stats --from 1h w.timeline", S("no entries at or after 1h; %s", secs));
	/* the case of the issue: one reason, not also "no begin/end pairs" */
	says("stats --per packets --from 2030-01-01T00:00:00Z w.timeline",
	     S("no entries at or after 2030-01-01T00:00:00Z; w.timeline spans %s to %s", a, b));
	says("stats --from 20000 --to 30000 w.timeline",
	     "no entries between 20000 and 30000; w.timeline spans 0 to 9000 cycles");
	says("stats --to 2000-01-01T00:00:00Z --last 1us w.timeline",
	     S("no entries at or before 2000-01-01T00:00:00Z in the last 1us; w.timeline spans %s "
	       "to %s", a, b));
	/* dump's bare numbers are in its --time unit; its other forms as above */
	says("dump --from 20000 w.timeline",
	     "no entries at or after 20000; w.timeline spans 0 to 9000 cycles");
	says("dump -t ns --to -1 w.timeline",
	     "no entries at or before -1; w.timeline spans 0 to 9000 ns");
	says("dump -t wall --to 1 w.timeline",
	     S("no entries at or before 1; w.timeline spans %s to %s Unix seconds", sa, sb));
	says("dump --from 1s w.timeline", S("no entries at or after 1s; %s", secs));
	/* merge, copy, export alike */
	says("merge --from 1s w.timeline", S("no entries at or after 1s; %s", secs));
	says("export -f csv -o - --from 1s w.timeline", S("no entries at or after 1s; %s", secs));
	says("copy --from 1s w.timeline c.timeline", S("no entries at or after 1s; %s", secs));
	/* a second log 0 .. 90 us long: in one path with w.timeline, a window
	 * past w's end but not its end is no news; in a path of its own (a
	 * side of diff; report), w's is */
	ck_assert_int_eq(mkdir(path_in(test_dir, "d"), 0700), 0);
	tick_log("d/long.timeline", 1000000000ull, 10000, 10);
	ck_assert_int_eq(rename(path_in(test_dir, "w.timeline"), path_in(test_dir, "d/w.timeline")), 0);
	free(tl(0, NULL, "dump --from 50us d"));
	says("diff --from 50us d/w.timeline d/long.timeline",
	     S("no entries at or after 50us; d/%s", secs));
	says("report -f json -o - --from 50us d/w.timeline",
	     S("no entries at or after 50us; d/%s", secs));
	/* nothing read: no page of nothing */
	out = tl(2, NULL, "report -f json -o - --from 50us d/w.timeline");
	ck_assert_str_eq(out, "");
	free(out);
}
END_TEST

/* When nothing is kept (a window past the end of every log, filters that
 * keep none of any log's entries, a path of no logs), stats and diff
 * print no table, not even its title and header, in text, CSV or JSON,
 * and report no page: only the lines that say why, exit 2. A window that
 * keeps two entries still prints the table of their one lag. */
START_TEST(test_stats_diff_and_report_print_nothing_when_nothing_is_kept)
{
	static const char *const cmds[] = {
		"stats", "stats -f csv", "stats -f json", "stats --per packets",
		"stats --per packets -f csv", "stats --per packets -f json",
		"stats --per packets --slowest 3", "stats --hist", "stats -f csv --breaths",
		"stats --per packets -f csv --overhead", "diff", "diff -f csv", "diff -f json",
		"diff --per packets", "diff --per packets -f csv", "diff --per packets -f json",
		"report -f json -o -", "report -o -", "dump", "dump -f csv", "dump -f json",
		"merge", "merge -f csv", "merge -f json", "export -f csv -o -",
	};
	static const char *const opts[] = { "--from 1h", "--event nope", "" };
	static const char *const why[] = {
		"no entries at or after 1h; w.timeline spans 0s to 0.000009s",
		"--event 'nope' keeps none of the 10 entries of w.timeline",
		"empty: no logs",
	};
	char *out, *err;
	tick_log("w.timeline", 1000000000ull, 1000, 10);
	ck_assert_int_eq(mkdir(path_in(test_dir, "empty"), 0700), 0);
	for (size_t c = 0; c < sizeof cmds / sizeof *cmds; c++)
		for (size_t k = 0; k < sizeof why / sizeof *why; k++) {
			const char *in = k == 2 ? "empty" : "w.timeline";
			int diff = !strncmp(cmds[c], "diff", 4);
			size_t n = strcspn(cmds[c], " ");
			char *line = xasprintf("timeline %.*s: %s\n", (int)n, cmds[c], why[k]);
			char *want = xasprintf("%s%s", line, diff ? line : "");   /* diff: each side */
			out = tl(2, &err, "%s %s %s%s%s", cmds[c], opts[k], in, diff ? " " : "",
				 diff ? in : "");
			ck_assert_str_eq(err, want);
			ck_assert_msg(!strcmp(out, ""), "%s %s: printed '%s'", cmds[c], opts[k], out);
			free(want);
			free(line);
			free(out);
			free(err);
		}
	/* copy: no line, and no copy left */
	for (size_t k = 0; k < sizeof why / sizeof *why; k++) {
		out = tl(2, &err, "copy %s %s c.timeline", opts[k], k == 2 ? "empty" : "w.timeline");
		ck_assert_str_eq(err, S("timeline copy: %s\n", why[k]));
		ck_assert_str_eq(out, "");
		ck_assert_int_eq(access(path_in(test_dir, "c.timeline"), F_OK), -1);
		free(out);
		free(err);
	}
	/* a log of no entries, and no window: a CSV of its header alone */
	tick_log("none.timeline", 1000000000ull, 1000, 0);
	for (size_t c = 0; c < 3; c++) {
		static const char *const csv[] = { "dump -f csv", "merge -f csv", "export -f csv -o -" };
		out = tl(0, NULL, "%s none.timeline", csv[c]);
		ck_assert_str_eq(out, "file,seq,tsc,time,cpu,numa,event,attrs,arg0,arg1,arg2,arg3,arg4,"
				      "arg5,argnames\n");
		free(out);
	}
	/* the last two entries, 8 and 9 us after the first, kept: one lag of
	 * 1000 cycles, 1000 ns at 1 GHz */
	out = tl(0, NULL, "stats -f csv --from 8us w.timeline");
	ck_assert_str_eq(out, "\"event\",\"n\",\"min\",\"p50\",\"p90\",\"p99\",\"p99.9\",\"max\","
			      "\"mean\",\"stddev\",\"min_ns\",\"p50_ns\",\"p90_ns\",\"p99_ns\","
			      "\"p99.9_ns\",\"max_ns\",\"mean_ns\",\"stddev_ns\"\n"
			      "\"e.tick\",1,1000,1000,1000,1000,1000,1000,1000,0,1000,1000,1000,1000,"
			      "1000,1000,1000,0\n");
	free(out);
}
END_TEST

/* Filters (--event, --app, --cpu, --numa) that keep none of the entries
 * of any log read say so, with how many entries they had to choose from,
 * and exit 2 as an empty window does (a typo in a glob is not an empty
 * table and exit 0); where one log has entries they keep, in the same
 * path or another, the others are no news. */
START_TEST(test_filters_that_keep_nothing_say_so)
{
	tl_log *log;
	uint16_t id;
	char *out, *err;
	/* 10 entries of e.tick, 1 us apart, on CPU 0 and node 0 */
	tick_log("w.timeline", 1000000000ull, 1000, 10);
	says("stats --event 'x.*' w.timeline", "--event 'x.*' keeps none of the 10 entries of w.timeline");
	says("stats --per packets --app lookup w.timeline",
	     "--app 'lookup' keeps none of the 10 entries of w.timeline");
	says("dump --cpu 3 --numa 1-2 w.timeline",
	     "--cpu 3 --numa 1-2 keep none of the 10 entries of w.timeline");
	/* with a time window: the entries in it (5 us .. 9 us: 5) */
	says("dump --from 5us --event nope w.timeline",
	     "--event 'nope' keeps none of the 5 entries of w.timeline in the time window");
	says("merge --event nope w.timeline", "--event 'nope' keeps none of the 10 entries of w.timeline");
	says("export -f csv -o - --cpu 1 w.timeline", "--cpu 1 keeps none of the 10 entries of w.timeline");
	says("copy --numa 2 w.timeline c.timeline", "--numa 2 keeps none of the 10 entries of w.timeline");
	says("report -f json -o - --event nope w.timeline",
	     "--event 'nope' keeps none of the 10 entries of w.timeline");
	/* diff: each side says it */
	out = tl(2, &err, "diff --cpu 5 w.timeline w.timeline");
	ck_assert_str_eq(err, "timeline diff: --cpu 5 keeps none of the 10 entries of w.timeline\n"
			      "timeline diff: --cpu 5 keeps none of the 10 entries of w.timeline\n");
	free(out);
	free(err);
	/* a second log of e.tock in the same directory: the filter keeps its
	 * entry, so w's keeping none is no news */
	ck_assert_int_eq(mkdir(path_in(test_dir, "d"), 0700), 0);
	ck_assert_int_eq(rename(path_in(test_dir, "w.timeline"), path_in(test_dir, "d/w.timeline")), 0);
	log = open_manual(path_in(test_dir, "d/k.timeline"), 64);
	ck_assert_int_eq(tl_intern(log, "1,9|e.tock: n", &id, NULL), TL_OK);
	tl_set_manual_clock(log, 5000, 0);
	tl_append(log, id, 7, 0, 0, 0, 0, 0);
	tl_close(log);
	out = tl(0, &err, "dump --event e.tock d");
	ck_assert_str_eq(err, "");
	ck_assert_ptr_nonnull(strstr(out, " e.tock n=7\n"));
	ck_assert_ptr_eq(strchr(out, '\n') + 1, out + strlen(out));   /* its one line */
	free(out);
	free(err);
	/* ... and in two paths, stats no more warns that the logs lack pairs */
	out = tl(0, &err, "stats --per packets --event e.tock d/w.timeline d/k.timeline");
	ck_assert_ptr_null(strstr(err, "keeps none"));
	free(out);
	free(err);
	says("stats --per packets --event e.tack d/w.timeline d/k.timeline",
	     "--event 'e.tack' keeps none of the 10 entries of d/w.timeline\n"
	     "timeline stats: --event 'e.tack' keeps none of the 1 entry of d/k.timeline");
}
END_TEST

/* --from after --to, in one form, holds nothing: a usage error of every
 * command that takes a window. */
START_TEST(test_from_after_to_is_a_usage_error_of_every_windowed_command)
{
	static const char *const cmds[] = { "dump", "merge", "stats", "diff", "report -o r.html",
					    "copy", "export -f csv -o x.csv" };
	static const char *const bounds[][3] = {
		{ "5s", "2s", "5s is after --to 2s" },
		{ "3000", "2000", "3000 is after --to 2000" },
		{ "2026-11-23T14:10:12Z", "2026-11-23T14:10:11.5Z",
		  "2026-11-23T14:10:12Z is after --to 2026-11-23T14:10:11.5Z" },
	};
	tick_log("w.timeline", 1000000000ull, 1000, 10);
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		for (size_t k = 0; k < sizeof bounds / sizeof bounds[0]; k++) {
			size_t n = strcspn(cmds[i], " ");
			char *err, *out = tl(2, &err, "%s --from %s --to %s w.timeline w.timeline x", cmds[i],
					     bounds[k][0], bounds[k][1]);
			ck_assert_str_eq(err, S("timeline %.*s: --from %s: the window holds nothing\n"
						"see 'timeline %.*s --help'\n", (int)n, cmds[i],
						bounds[k][2], (int)n, cmds[i]));
			ck_assert_str_eq(out, "");
			free(out);
			free(err);
		}
	/* equal bounds are a window of one instant; bounds of two forms are
	 * placed in each log */
	free(tl(0, NULL, "dump --from 3000 --to 3000 w.timeline"));
	free(tl(0, NULL, "dump --from 1us --to 2000 w.timeline"));
}
END_TEST

/* --last of less than 1ns (0ns, 0.4ns: 0 once rounded) would be no
 * window at all: a usage error of every windowed command. 1ns keeps the
 * newest entry alone, 1000ns the one 1000 ns before it too. */
START_TEST(test_last_below_1ns_is_a_usage_error_of_every_windowed_command)
{
	static const char *const cmds[] = { "dump", "merge", "stats", "diff", "report -o r.html",
					    "copy", "export -f csv -o x.csv" };
	static const char *const d[] = { "0ns", "0.4ns", "0s" };
	char *out;
	tick_log("w.timeline", 1000000000ull, 1000, 10);
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		for (size_t k = 0; k < sizeof d / sizeof d[0]; k++) {
			size_t n = strcspn(cmds[i], " ");
			char *err;
			out = tl(2, &err, "%s --last %s w.timeline w.timeline x", cmds[i], d[k]);
			ck_assert_str_eq(err, S("timeline %.*s: --last takes a duration of at least 1ns, "
						"e.g. 10s or 500ms\nsee 'timeline %.*s --help'\n", (int)n,
						cmds[i], (int)n, cmds[i]));
			ck_assert_str_eq(out, "");
			free(out);
			free(err);
		}
	out = tl(0, NULL, "dump --last 1ns w.timeline");
	ck_assert_str_eq(out, "          9000   0  0  e.tick n=9\n");
	free(out);
	out = tl(0, NULL, "dump --last 1000ns w.timeline | wc -l");
	ck_assert_str_eq(out, "2\n");
	free(out);
}
END_TEST

START_TEST(test_one_run_a_side_is_too_few_and_the_interval_follows_alpha)
{
	char *out, *err;
	for (int i = 0; i < 4; i++) {
		char a[32], b[32];
		snprintf(a, sizeof a, "A/a%d.timeline", i);
		snprintf(b, sizeof b, "B/b%d.timeline", i);
		if (!i) {
			ck_assert_int_eq(mkdir(path_in(test_dir, "A"), 0700), 0);
			ck_assert_int_eq(mkdir(path_in(test_dir, "B"), 0700), 0);
		}
		tick_log(a, 1000000000ull, 1000 + (uint64_t)i, 12);
		tick_log(b, 1000000000ull, 2000 + (uint64_t)i, 12);
	}
	/* one log a side: the pooled test would say p = 1e-5, runs cannot */
	out = tl(0, &err, "diff -f csv A/a0.timeline B/b0.timeline");
	ck_assert_str_eq(out, "\"event\",\"runs_a\",\"runs_b\",\"n_a\",\"n_b\",\"p50_a\",\"p50_b\","
			      "\"p90_a\",\"p90_b\",\"change%\",\"ci_lo%\",\"ci_hi%\",\"p\",\"p_pairs\",\"verdict\"\n"
			      "\"e.tick\",1,1,11,11,1000,2000,1000,2000,100,,,1,5.501272293080903e-06,"
			      "\"too few runs\"\n");
	ck_assert_str_eq(err, "timeline diff: note: 1 run in A and 1 in B: no test over runs can reach "
			      "alpha 0.05 (the smallest p is 1); give at least 4 runs a side (each "
			      "process is a run, its logs pooled; --runs file: each log, --runs dir: "
			      "each directory)\n");
	free(out);
	free(err);
	/* four a side reach 0.05 (p = 2/70), not 0.01; the interval is at 99% */
	out = tl(1, NULL, "diff A B");
	ck_assert_ptr_nonnull(strstr(out, "intervals at 95%"));
	ck_assert_ptr_nonnull(strstr(out, " 0.0286 "));
	free(out);
	out = tl(0, &err, "diff --alpha 0.01 A B");
	ck_assert_ptr_nonnull(strstr(out, "(threshold 5%, alpha 0.01, intervals at 99%)"));
	ck_assert_ptr_nonnull(strstr(out, "too few runs"));
	ck_assert_ptr_nonnull(strstr(err, "give at least 5 runs a side"));
	free(out);
	free(err);
	/* --runs dir: each side is then one run */
	out = tl(0, NULL, "diff --runs dir -f csv A B");
	ck_assert_ptr_nonnull(strstr(out, "\"e.tick\",1,1,44,44,"));
	free(out);
}
END_TEST

START_TEST(test_overhead_shares_the_breaths_cycles_among_apps)
{
	tl_log *log = open_manual(path_in(test_dir, "o.timeline"), 64);
	static const char *const eng[] = { "1,6|engine.breath_start: breath totalpackets totalbytes",
					   "1,6|engine.breath_end: breath totalpackets totalbytes" };
	static const char *const app[] = { "5,5|app.pull: outpackets", "5,5|app.pulled: outpackets",
					   "5,5|app.push: inpackets", "5,5|app.pushed: inpackets" };
	uint16_t b[2], src[4], x[4];
	static const struct { int ev; uint64_t tsc, v; } seq[] = {
		/* breath 1 (200 cycles): source pulls for 30, x pushes for 100 */
		{ 0, 0, 0 }, { 1, 10, 0 }, { 2, 40, 8 }, { 3, 50, 0 }, { 4, 150, 8 }, { 5, 200, 8 },
		/* breath 2 (1000 cycles) logged no app event: not counted */
		{ 0, 300, 8 }, { 5, 1300, 8 },
		/* breath 3 (100 cycles): x pushes for 20 */
		{ 0, 2000, 8 }, { 3, 2010, 8 }, { 4, 2030, 16 }, { 5, 2100, 16 },
	};
	char *out;
	ck_assert_int_eq(tl_register(log, eng, 2, NULL, b, NULL), TL_OK);
	ck_assert_int_eq(tl_register(log, app, 4, "app=source", src, NULL), TL_OK);
	ck_assert_int_eq(tl_register(log, app, 4, "app=x", x, NULL), TL_OK);
	for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
		uint16_t id[] = { b[0], src[0], src[1], x[2], x[3], b[1] };
		tl_set_manual_clock(log, seq[i].tsc, 0);
		tl_append(log, id[seq[i].ev], i, seq[i].v, 0, 0, 0, 0);
	}
	tl_close(log);
	/* 300 cycles in breaths 1 and 3: x 120 (40%), source 30 (10%), the rest 150 */
	out = tl(0, NULL, "stats --per packets --overhead -f csv o.timeline");
	ck_assert_str_eq(out, S("\"process\",\"app\",\"share%%\",\"cycles\",\"breaths\"\n"
				"\"check_timeline[%d]\",\"x\",40,120,2\n"
				"\"check_timeline[%d]\",\"source\",10,30,2\n"
				"\"check_timeline[%d]\",\"(no app)\",50,150,2\n",
				(int)getpid(), (int)getpid(), (int)getpid()));
	free(out);
}
END_TEST

START_TEST(test_dump_takes_back_the_wall_time_it_prints_and_copy_takes_a_window)
{
	char *out, line[256], from[64];
	tl_reader *r;
	tl_info info;
	tl_error err;
	const char *third;
	tick_log("w.timeline", 1000000000ull, 1000, 10);
	/* the third line's time, as printed, pasted back as --from */
	out = tl(0, NULL, "dump --time wall w.timeline");
	third = strchr(strchr(out, '\n') + 1, '\n') + 1;
	ck_assert_int_eq(sscanf(third, "%63s", from), 1);
	free(out);
	out = tl(0, NULL, "dump --time wall --from %s w.timeline", from);
	snprintf(line, sizeof line, "%s ", from);
	ck_assert_msg(!strncmp(out, line, strlen(line)), "%s", out);
	free(out);
	out = tl(0, NULL, "dump --time wall --from %s -f csv w.timeline", from);
	{
		int lines = 0;
		for (const char *p = out; *p; p++)
			lines += *p == '\n';
		ck_assert_int_eq(lines, 1 + 8);   /* header, entries 3..10 */
	}
	free(out);
	/* copy the last 3 us: 7000 to 10000, 4 entries in a ring of 4 */
	out = tl(0, NULL, "copy --last 3us w.timeline c.timeline");
	ck_assert_str_eq(out, "w.timeline -> c.timeline: 4 entries, 0 dropped\n");
	free(out);
	r = tl_reader_open(path_in(test_dir, "c.timeline"), &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	tl_reader_info(r, &info);
	ck_assert_uint_eq(info.entries, 4);
	ck_assert_uint_eq(info.cursor, 4);
	tl_reader_close(r);
	out = tl(0, NULL, "dump c.timeline");
	ck_assert_str_eq(out, "             0   0  0  e.tick n=6\n"
			      "          1000   0  0  e.tick n=7\n"
			      "          2000   0  0  e.tick n=8\n"
			      "          3000   0  0  e.tick n=9\n");
	free(out);
}
END_TEST

/* Nearest rank on a hundred distinct whole values below 256, which the
 * histogram holds exactly: the q-quantile is the ceil(100 q)-th value. */
START_TEST(test_percentiles_of_lags_1_to_100_are_the_50th_90th_and_99th_values)
{
	uint64_t lags[100];
	char *out;
	hundred_lags(lags, 0);
	lags_log(path_in(test_dir, "h.timeline"), 256, lags, 100);
	out = tl(0, NULL, "stats -f csv h.timeline");
	/* n min p50 p90 p99 p99.9 max mean stddev, then the same in ns (1 GHz) */
	ck_assert_str_eq(out, "\"event\",\"n\",\"min\",\"p50\",\"p90\",\"p99\",\"p99.9\",\"max\","
			      "\"mean\",\"stddev\",\"min_ns\",\"p50_ns\",\"p90_ns\",\"p99_ns\","
			      "\"p99.9_ns\",\"max_ns\",\"mean_ns\",\"stddev_ns\"\n"
			      "\"e.tick\",100,1,50,90,99,100,100,50.5,29.011491975882016,"
			      "1,50,90,99,100,100,50.5,29.011491975882016\n");
	free(out);
	out = tl(0, NULL, "stats h.timeline");
	ck_assert_str_eq(out, "lag in cycles (ns where the TSC frequency is known)\n"
			      "event     n  min  p50  p90  p99  p99.9  max  mean  stddev  p50_ns  p99_ns\n"
			      "e.tick  100    1   50   90   99    100  100  50.5   29.01      50      99\n");
	free(out);
}
END_TEST

/* The same ranks in --per: a hundred pairs of one packet each, 1..100 cycles. */
START_TEST(test_percentiles_of_100_pairs_per_packet_are_the_50th_90th_and_99th_values)
{
	tl_log *log = open_manual(path_in(test_dir, "p.timeline"), 256);
	static const char *const defs[] = { "5,5|app.push: inpackets", "5,5|app.pushed: inpackets" };
	uint64_t cost[100], t = 1000;
	uint16_t x[2];
	char *out;
	hundred_lags(cost, 0);
	ck_assert_int_eq(tl_register(log, defs, 2, "app=x", x, NULL), TL_OK);
	for (int i = 0; i < 100; i++) {
		tl_set_manual_clock(log, t, 0);
		tl_append(log, x[0], (uint64_t)i, 0, 0, 0, 0, 0);
		tl_set_manual_clock(log, t += cost[i], 0);
		tl_append(log, x[1], (uint64_t)i + 1, 0, 0, 0, 0, 0);
		t += 7;
	}
	close_run(log);
	out = tl(0, NULL, "stats --per packets -f csv p.timeline");
	/* 100 packets in 5050 cycles: 50.5 a packet */
	ck_assert_str_eq(out, "\"event\",\"app\",\"pairs\",\"packets\",\"cycles/packet\",\"p50\","
			      "\"p90\",\"p99\",\"empty\"\n"
			      "\"app.push\",\"x\",100,100,50.5,50,90,99,0\n");
	free(out);
}
END_TEST

/* Runs of e.tick in DIR: 4 logs whose lags are FROM + 1 .. FROM + 100. */
static void hundred_runs(const char *dir, uint64_t from)
{
	uint64_t lags[100];
	ck_assert_int_eq(mkdir(path_in(test_dir, dir), 0700), 0);
	hundred_lags(lags, from);
	for (int i = 0; i < 4; i++)
		lags_log(path_in(test_dir, S("%s/r%d.timeline", dir, i)), 256, lags, 100);
}

/* The first line of diff's CSV: its columns. */
#define DIFF_CSV_HEAD "\"event\",\"runs_a\",\"runs_b\",\"n_a\",\"n_b\",\"p50_a\",\"p50_b\"," \
	"\"p90_a\",\"p90_b\",\"change%\",\"ci_lo%\",\"ci_hi%\",\"p\",\"p_pairs\",\"verdict\"\n"

/* diff's CSV row of e.tick up to its p column (p_pairs, a normal
 * approximation over the pooled pairs, is left out), then its verdict. */
static void diff_row(const char *out, const char *head, const char *verdict)
{
	const char *row = strchr(out, '\n'), *v;
	ck_assert_msg(!strncmp(out, DIFF_CSV_HEAD, strlen(DIFF_CSV_HEAD)), "%s", out);
	ck_assert_msg(row && !strncmp(row + 1, head, strlen(head)), "%s, want %s", row, head);
	v = strrchr(row + 1 + strlen(head), ',');
	ck_assert_msg(v && !strcmp(v + 1, verdict), "%s: verdict %s, want %s", row, v, verdict);
}

/* Each log a run: A's lags 51..150 (median 100, p90 140), B's 101..200
 * (median 150, p90 190): a change of exactly +50%, 4 runs a side fully
 * apart: p = 2/70. A change must exceed the threshold, strictly. */
START_TEST(test_diff_at_exactly_the_threshold_is_no_finding_just_below_it_slower)
{
	char *out;
	hundred_runs("A", 50);
	hundred_runs("B", 100);
	/* pooled: 400 lags a side, each value 4 times; the interval at 95% is
	 * the extreme ratios, both 150/100 */
	out = tl(0, NULL, "diff -f csv --threshold 50 A B");
	diff_row(out, "\"e.tick\",4,4,400,400,100,150,140,190,50,50,50,0.028571428571428571,",
		 "\"no change shown\"\n");
	free(out);
	out = tl(1, NULL, "diff -f csv --threshold 49.9 A B");
	diff_row(out, "\"e.tick\",4,4,400,400,100,150,140,190,50,50,50,0.028571428571428571,",
		 "\"SLOWER\"\n");
	free(out);
	/* the other way round: -33.3%, beyond a threshold of 33.3, not of itself */
	out = tl(0, NULL, "diff -f csv --threshold 33.3 B A");
	diff_row(out, "\"e.tick\",4,4,400,400,150,100,190,140,-33.333333333333336,"
		      "-33.333333333333336,-33.333333333333336,0.028571428571428571,", "\"faster\"\n");
	free(out);
	out = tl(0, NULL, "diff -f csv --threshold 33.333333333333336 B A");   /* exactly the change */
	diff_row(out, "\"e.tick\",4,4,400,400,150,100,190,140,-33.333333333333336,"
		      "-33.333333333333336,-33.333333333333336,0.028571428571428571,",
		 "\"no change shown\"\n");
	free(out);
	out = tl(0, NULL, "diff -f csv --threshold 50 B A");
	diff_row(out, "\"e.tick\",4,4,400,400,150,100,190,140,-33.333333333333336,"
		      "-33.333333333333336,-33.333333333333336,0.028571428571428571,",
		 "\"no change shown\"\n");
	free(out);
	/* in text, the row a CI log shows */
	out = tl(1, NULL, "diff --threshold 49.9 A B");
	ck_assert_ptr_nonnull(strstr(out, " +50.0 "));
	ck_assert_ptr_nonnull(strstr(out, " 0.0286 "));
	ck_assert_ptr_nonnull(strstr(out, " SLOWER\n"));
	free(out);
}
END_TEST

/* A result must fall below alpha, strictly: p exactly at alpha is no
 * finding. Four runs a side can give no p below 2/70, the smallest there
 * is; six a side with one swap give p = 4/924. */
START_TEST(test_diff_with_p_exactly_at_alpha_is_no_finding)
{
	static const uint64_t a[] = { 100, 101, 102, 103, 104, 151 },
			      b[] = { 150, 152, 153, 154, 155, 156 };
	char *out, *err;
	hundred_runs("A", 50);
	hundred_runs("B", 100);
	out = tl(0, &err, "diff -f csv --alpha 0.028571428571428571 A B");
	diff_row(out, "\"e.tick\",4,4,400,400,100,150,140,190,50,50,50,0.028571428571428571,",
		 "\"too few runs\"\n");
	ck_assert_str_eq(err, "timeline diff: note: 4 runs in A and 4 in B: no test over runs can "
			      "reach alpha 0.0285714 (the smallest p is 0.0286); give at least 5 runs a "
			      "side (each process is a run, its logs pooled; --runs file: each log, "
			      "--runs dir: each directory)\n");
	free(out);
	free(err);
	out = tl(1, NULL, "diff -f csv --alpha 0.0286 A B");
	diff_row(out, "\"e.tick\",4,4,400,400,100,150,140,190,50,", "\"SLOWER\"\n");
	free(out);
	/* six runs a side, each of one lag repeated: A's medians 100..104 and
	 * 151, B's 150 and 152..156; only 151 > 150 is out of order: U = 1 */
	ck_assert_int_eq(mkdir(path_in(test_dir, "C"), 0700), 0);
	ck_assert_int_eq(mkdir(path_in(test_dir, "D"), 0700), 0);
	for (int i = 0; i < 6; i++) {
		tick_log(S("C/c%d.timeline", i), 1000000000ull, a[i], 12);
		tick_log(S("D/d%d.timeline", i), 1000000000ull, b[i], 12);
	}
	out = tl(0, NULL, "diff -f csv --alpha 0.004329004329004329 C D");
	diff_row(out, "\"e.tick\",6,6,66,66,102,153,151,156,", "\"no change shown\"\n");
	ck_assert_ptr_nonnull(strstr(out, ",0.004329004329004329,"));
	free(out);
	out = tl(1, NULL, "diff -f csv --alpha 0.00433 C D");
	diff_row(out, "\"e.tick\",6,6,66,66,102,153,151,156,", "\"SLOWER\"\n");
	free(out);
}
END_TEST

/* Runs of e.tick in DIR: N logs, log i of 20 lags of FROM + i cycles each. */
static void flat_runs(const char *dir, int n, uint64_t from)
{
	ck_assert_int_eq(mkdir(path_in(test_dir, dir), 0700), 0);
	for (int i = 0; i < n; i++)
		tick_log(S("%s/r%d.timeline", dir, i), 1000000000ull, from + (uint64_t)i, 21);
}

/* Unequal sides (issue 30): 3 runs (medians 100, 101, 102) against 5
 * (110..114) can reach alpha 0.05 (the smallest p is 2/56) and do; 5
 * against 2 cannot (2/21): too few runs, whichever side has the two
 * (tests/mwu_exact.py). */
START_TEST(test_diff_over_3_runs_against_5_is_tested_and_5_against_2_is_too_few)
{
	char *out, *err;
	flat_runs("A", 3, 100);
	flat_runs("B", 5, 110);
	flat_runs("C", 2, 110);
	/* p = 2/56, fully apart; the change the 8th of 15 ratios, 112/101; the
	 * interval (critical count 1) the smallest, 110/102, and the largest,
	 * 114/100 */
	out = tl(1, NULL, "diff -f csv A B");
	diff_row(out, "\"e.tick\",3,5,60,100,101,112,102,114,10.8910891089109,7.8431372549019551,"
		      "13.999999999999989,0.035714285714285712,", "\"SLOWER\"\n");
	free(out);
	/* 5 against 3: the same p, the change 101/112, the interval 100/114
	 * to 102/110 */
	out = tl(0, NULL, "diff -f csv B A");
	diff_row(out, "\"e.tick\",5,3,100,60,112,101,114,102,-9.82142857142857,"
		      "-12.280701754385969,-7.2727272727272751,0.035714285714285712,", "\"faster\"\n");
	free(out);
	/* 5 against 2: p 8/21 here, and no data could go below 2/21 */
	out = tl(0, &err, "diff -f csv B C");
	diff_row(out, "\"e.tick\",5,2,100,40,112,110,114,111,-1.336362958097459,,,"
		      "0.38095238095238093,", "\"too few runs\"\n");
	ck_assert_ptr_nonnull(strstr(err, "5 runs in A and 2 in B: no test over runs can reach alpha "
					  "0.05 (the smallest p is 0.0952)"));
	free(out);
	free(err);
	out = tl(0, NULL, "diff -f csv C B");
	diff_row(out, "\"e.tick\",2,5,40,100,110,112,111,114,", "\"too few runs\"\n");
	free(out);
}
END_TEST

/* Fewer than 10 samples on either side: no verdict on the group, whatever
 * its runs say; 10 are enough. A: 4 runs of 20 lags (100..103 cycles); B:
 * 4 runs of 120..123 cycles with 2, 2, 2 and 3 lags (9 in all), or 2, 2,
 * 3 and 3 (10). The runs are fully apart (p = 2/70): SLOWER with enough. */
START_TEST(test_diff_with_fewer_than_10_samples_on_either_side_gives_few_samples)
{
	static const int nine[4] = { 2, 2, 2, 3 }, ten[4] = { 2, 2, 3, 3 };
	char *out, *err;
	flat_runs("A", 4, 100);
	ck_assert_int_eq(mkdir(path_in(test_dir, "B9"), 0700), 0);
	ck_assert_int_eq(mkdir(path_in(test_dir, "B10"), 0700), 0);
	for (int i = 0; i < 4; i++) {
		tick_log(S("B9/r%d.timeline", i), 1000000000ull, 120 + (uint64_t)i, nine[i] + 1);
		tick_log(S("B10/r%d.timeline", i), 1000000000ull, 120 + (uint64_t)i, ten[i] + 1);
	}
	/* B9 pooled: 120 120 121 121 122 122 123 123 123, p50 the 5th, p90 the
	 * 9th; the change the geometric mean of 121/101 and 122/102, the
	 * interval 120/103 to 123/100 */
	out = tl(0, &err, "diff -f csv A B9");
	diff_row(out, "\"e.tick\",4,4,80,9,101,122,103,123,19.704872311269227,16.50485436893203,23,"
		      "0.028571428571428571,", "\"few samples\"\n");
	ck_assert_ptr_nonnull(strstr(err, "e.tick: fewer than 10 samples (A 80, B 9)\n"));
	free(out);
	free(err);
	out = tl(0, &err, "diff -f csv B9 A");
	diff_row(out, "\"e.tick\",4,4,9,80,122,101,123,103,", "\"few samples\"\n");
	ck_assert_ptr_nonnull(strstr(err, "e.tick: fewer than 10 samples (A 9, B 80)\n"));
	free(out);
	free(err);
	out = tl(1, &err, "diff -f csv A B10");
	diff_row(out, "\"e.tick\",4,4,80,10,101,122,103,123,19.704872311269227,16.50485436893203,23,"
		      "0.028571428571428571,", "\"SLOWER\"\n");
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
}
END_TEST

/* A log NAME of four events whose lags are 10, 20, 30 and 40 cycles times
 * SPEED (the whole run slower or faster), the last also times F. */
static void four_log(const char *name, uint64_t speed, double f)
{
	static const char *const defs[] = { "1,9|e.a: n", "1,9|e.b: n", "1,9|e.c: n",
					     "1,9|e.d: n" };
	tl_log *log = open_manual(path_in(test_dir, name), 256);
	uint64_t t = 1000;
	uint16_t id[4];
	ck_assert_int_eq(tl_register(log, defs, 4, NULL, id, NULL), TL_OK);
	for (int i = 0; i < 12; i++)
		for (int k = 0; k < 4; k++) {
			t += (uint64_t)((double)(10 * (k + 1) * speed) * (k == 3 ? f : 1));
			tl_set_manual_clock(log, t, 0);
			tl_append(log, id[k], (uint64_t)i, 0, 0, 0, 0, 0);
		}
	close_run(log);
}

/* Five runs a side; A's runs at speeds 1 2 1 2 1, B's at 2 1 2 1 2 (a
 * busier machine every other run); e.d costs 1.5 times more in B. Judged
 * as they are, e.d's runs overlap (A 40 80 40 80 40, B 120 60 120 60 120);
 * relative to the speed the other three events show in each run, every B
 * run is 1.5 times every A run. */
START_TEST(test_diff_judges_each_run_relative_to_its_speed)
{
	char *out;
	ck_assert_int_eq(mkdir(path_in(test_dir, "A"), 0700), 0);
	ck_assert_int_eq(mkdir(path_in(test_dir, "B"), 0700), 0);
	for (int i = 0; i < 5; i++) {
		uint64_t speed = i == 2 || i == 4 ? 1 : 2;
		four_log(S("A/a%d.timeline", i), speed, 1);
		four_log(S("B/b%d.timeline", i), 3 - speed, 1.5);
	}
	/* pooled, e.d looks faster (p50 80 -> 60); relative, each B run is 1.5
	 * times its A runs: p = 2/252, and the interval is exactly +50% */
	out = tl(1, NULL, "diff -f csv A B");
	ck_assert_str_eq(out, DIFF_CSV_HEAD
		"\"e.c\",5,5,60,60,60,30,60,60,0,0,0,1,0.029353053011878523,\"no change shown\"\n"
		"\"e.b\",5,5,60,60,40,20,40,40,0,0,0,1,0.029353053011878523,\"no change shown\"\n"
		"\"e.d\",5,5,60,60,80,60,80,120,50,50,50,0.0079365079365079361,0.0061393149073983959,"
		"\"SLOWER\"\n"
		"\"e.a\",5,5,55,55,20,10,20,20,0,0,0,1,0.037104719591658557,\"no change shown\"\n"
		"\"(all)\",5,5,,,,,,,0,-50,100,1,,\"no change shown\"\n");
	free(out);
	/* as they are: e.d's ratios B/A are 0.75 (9 of 25), 1.5 (12) and 3 (4) */
	out = tl(0, NULL, "diff --absolute -f csv A B");
	ck_assert_str_eq(out, DIFF_CSV_HEAD
		"\"e.c\",5,5,60,60,60,30,60,60,0,-50,100,1,0.029353053011878523,\"no change shown\"\n"
		"\"e.b\",5,5,60,60,40,20,40,40,0,-50,100,1,0.029353053011878523,\"no change shown\"\n"
		"\"e.d\",5,5,60,60,80,60,80,120,50,-25,200,0.57142857142857129,0.0061393149073983959,"
		"\"no change shown\"\n"
		"\"e.a\",5,5,55,55,20,10,20,20,0,-50,100,1,0.037104719591658557,\"no change shown\"\n");
	free(out);
	out = tl(1, NULL, "diff A B");
	ck_assert_str_eq(out,
		"lag in cycles, A -> B, runs (processes) as samples, relative to their speed: A 5 runs "
		"of 5 logs, B 5 runs of 5 logs (threshold 5%, alpha 0.05, intervals at 95%)\n"
		"event  runs_a  runs_b  n_a  n_b  p50_a  p50_b  p90_a  p90_b  change%  ci_lo%  ci_hi%  "
		"     p  p_pairs  verdict\n"
		"e.c         5       5   60   60     60     30     60     60     +0.0    +0.0    +0.0  "
		"1.0000   0.0294  no change shown\n"
		"e.b         5       5   60   60     40     20     40     40     +0.0    +0.0    +0.0  "
		"1.0000   0.0294  no change shown\n"
		"e.d         5       5   60   60     80     60     80    120    +50.0   +50.0   +50.0  "
		"0.0079   0.0061  SLOWER\n"
		"e.a         5       5   55   55     20     10     20     20     +0.0    +0.0    +0.0  "
		"1.0000   0.0371  no change shown\n"
		"(all)       5       5    -    -      -      -      -      -     +0.0   -50.0  +100.0  "
		"1.0000        -  no change shown\n");
	free(out);
	/* three groups are too few to judge a run's speed: taken as they are
	 * (e.d's lag now runs from e.b: 30 + 40 x 1.5 per unit of speed) */
	out = tl(0, NULL, "diff -f csv --event 'e.[abd]' A B");
	ck_assert_ptr_null(strstr(out, "(all)"));
	ck_assert_ptr_nonnull(strstr(out, "\n\"e.d\",5,5,60,60,140,90,140,180,"));
	ck_assert_ptr_nonnull(strstr(out, ",0.57142857142857129,0.0061393149073983959,"
					  "\"no change shown\"\n"));
	free(out);
}
END_TEST

Suite *trust_suite(void)
{
	Suite *s = suite_create("trust");
	TCase *t = tcase_create("trust");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_ns_columns_stay_when_frequencies_agree_within_0_1_percent);
	tcase_add_test(t, test_a_pair_rule_with_categories_labels_its_rows_once);
	tcase_add_test(t, test_windows_in_cycles_durations_wall_time_and_last);
	tcase_add_test(t, test_a_window_a_log_cannot_place_is_an_error_naming_it);
	tcase_add_test(t, test_every_json_line_parses_strictly_and_carries_full_precision);
	tcase_add_test(t, test_hist_in_csv_is_rows_of_bins);
	tcase_add_test(t, test_options_that_find_nothing_say_so);
	tcase_add_test(t, test_an_empty_window_says_so_with_each_logs_span);
	tcase_add_test(t, test_stats_diff_and_report_print_nothing_when_nothing_is_kept);
	tcase_add_test(t, test_filters_that_keep_nothing_say_so);
	tcase_add_test(t, test_from_after_to_is_a_usage_error_of_every_windowed_command);
	tcase_add_test(t, test_last_below_1ns_is_a_usage_error_of_every_windowed_command);
	tcase_add_test(t, test_one_run_a_side_is_too_few_and_the_interval_follows_alpha);
	tcase_add_test(t, test_overhead_shares_the_breaths_cycles_among_apps);
	tcase_add_test(t, test_dump_takes_back_the_wall_time_it_prints_and_copy_takes_a_window);
	tcase_add_test(t, test_percentiles_of_lags_1_to_100_are_the_50th_90th_and_99th_values);
	tcase_add_test(t, test_percentiles_of_100_pairs_per_packet_are_the_50th_90th_and_99th_values);
	tcase_add_test(t, test_diff_at_exactly_the_threshold_is_no_finding_just_below_it_slower);
	tcase_add_test(t, test_diff_with_p_exactly_at_alpha_is_no_finding);
	tcase_add_test(t, test_diff_over_3_runs_against_5_is_tested_and_5_against_2_is_too_few);
	tcase_add_test(t, test_diff_with_fewer_than_10_samples_on_either_side_gives_few_samples);
	tcase_add_test(t, test_diff_judges_each_run_relative_to_its_speed);
	suite_add_tcase(s, t);
	return s;
}
