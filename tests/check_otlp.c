/* check_otlp.c: `timeline export -f otlp` and `-f otlp-json`, read back by
 * protoc against tests/otlp.proto (OTLP's field numbers) and by Python's
 * json through tests/otlp_check.py, which checks ids, parents and times and
 * prints each trace as a tree: hand-built logs (nesting, unmatched pairs,
 * two processes, --slowest, the filters) span by span, the Snabb fixture
 * and the demo engine against their entries paired from `dump`; and in
 * tcase `post`, --endpoint against tests/otlp_server.py, which stands in
 * for a collector: splitting, retries after Retry-After, a 400, a partial
 * success, an endpoint that is not there. */
#define _GNU_SOURCE
#include <check.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "format.h"
#include "util.h"

#define BASE 1700000000000000000ull   /* the wall ns of tick 0 of the hand-built logs */

static const char *src(void)
{
	const char *s = getenv("TIMELINE_SRC");
	return s && *s ? s : ".";
}

/* Runs CMD in the test's directory; fails unless it exits WANT. Returns its
 * stdout (the caller frees); *ERR, if not NULL, gets its stderr. */
static char *sh(int want, char **err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static char *sh(int want, char **err, const char *fmt, ...)
{
	va_list ap;
	char *cmd, *full, *out, *e;
	int rc;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&cmd, fmt, ap), 0);
	va_end(ap);
	full = xasprintf("cd %s && %s", test_dir, cmd);
	rc = run(full, &out, &e);
	ck_assert_msg(rc == want, "%s: exit %d, want %d: %s%s", cmd, rc, want, out, e);
	free(cmd);
	free(full);
	if (err)
		*err = e;
	else
		free(e);
	return out;
}

/* tests/otlp_check.py on FILE with ARGS: its lines. */
static char *check(const char *file, const char *args)
{
	return sh(0, NULL, "TIMELINE_BIN=%s python3 %s/tests/otlp_check.py %s %s", timeline_bin(), src(),
		  file, args);
}

/* Exports INPUTS to FILE in protobuf and in JSON, and checks that both
 * read back as the same trees; returns them (--tree --base BASE). */
static char *both(const char *opts, const char *inputs)
{
	char *pb, *js;
	free(sh(0, NULL, "%s export -f otlp %s -o x.otlp %s", timeline_bin(), opts, inputs));
	free(sh(0, NULL, "%s export -f otlp-json %s -o x.json %s", timeline_bin(), opts, inputs));
	pb = check("x.otlp", test_str("--tree --base %llu", BASE));
	js = check("x.json", test_str("--json --tree --base %llu", BASE));
	ck_assert_str_eq(pb, js);
	free(js);
	return pb;
}

/* A log NAME at 1 GHz, tick T at wall time BASE + T ns, written by process
 * "proc" (pid PID, started at tick 77) on HOST. */
static tl_log *log_new(const char *name, uint64_t entries)
{
	tl_options o = { .entries = entries, .clock = TL_CLOCK_MANUAL, .tsc_hz = 1000000000,
			 .strings_bytes = 8192, .name = name };
	tl_error err;
	tl_log *log = tl_open(path_in(test_dir, test_str("%s.timeline", name)), &o, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	return log;
}

static void log_writer(const char *name, uint32_t pid, const char *host)
{
	const char *p = path_in(test_dir, test_str("%s.timeline", name));
	char proc[64] = "proc", h[128] = { 0 };
	uint64_t zero = 0, base = BASE, start = 77;
	snprintf(h, sizeof h, "%s", host);
	patch_file(p, offsetof(struct tl_header, pid), &pid, sizeof pid);
	patch_file(p, offsetof(struct tl_header, process), proc, sizeof proc);
	patch_file(p, offsetof(struct tl_header, host), h, sizeof h);
	patch_file(p, offsetof(struct tl_header, start_ticks), &start, 8);
	patch_file(p, offsetof(struct tl_header, anchor_tsc), &zero, 8);
	patch_file(p, offsetof(struct tl_header, anchor_realtime), &base, 8);
}

static void put(tl_log *log, uint64_t tsc, uint16_t id, uint64_t a0, uint64_t a1)
{
	tl_set_manual_clock(log, tsc, 3);
	tl_append(log, id, a0, a1, 0, 0, 0, 0);
}

/* The events of the hand-built logs: a breath, a push of app a, and a
 * declared pair kv.req counting rows. */
enum { B0, B1, P0, P1, R0, R1 };
static void events(tl_log *log, uint16_t id[6])
{
	static const char *const eng[] = { "1,6|engine.breath_start: breath totalpackets\nB.",
					   "1,6|engine.breath_end: breath totalpackets\nE." };
	static const char *const app[] = { "5,5|app.push: inpackets\nPush.",
					   "5,5|app.pushed: inpackets\nPushed." };
	static const char *const kv[] = { "5,5|kv.req_begin: key\nA request.",
					  "5,5|kv.req_end: key rows\nIts end." };
	ck_assert_int_eq(tl_register(log, eng, 2, NULL, id + B0, NULL), TL_OK);
	ck_assert_int_eq(tl_register(log, app, 2, "app=a", id + P0, NULL), TL_OK);
	ck_assert_int_eq(tl_register(log, kv, 2, NULL, id + R0, NULL), TL_OK);
	ck_assert_int_eq(tl_intern(log, "pair|kv.req: kv.req_begin kv.req_end unit=rows",
				   &(uint16_t){ 0 }, NULL), TL_OK);
}

/* Log "one": a breath holding a push holding a request, and a request of
 * its own after them. */
static void log_one(uint32_t pid, const char *host)
{
	tl_log *log = log_new("one", 64);
	uint16_t id[6];
	events(log, id);
	put(log, 100, id[B0], 1, 0);
	put(log, 200, id[P0], 0, 0);
	put(log, 300, id[R0], 7, 0);
	put(log, 400, id[R1], 7, 3);
	put(log, 500, id[P1], 5, 0);
	put(log, 700, id[B1], 1, 5);
	put(log, 900, id[R0], 8, 0);
	put(log, 950, id[R1], 8, 1);
	tl_close(log);
	log_writer("one", pid, host);
}

static const char one_tree[] =
	"  engine.breath +100..+700 packets=5 cycles=600 self_cycles=300 cpu=3 numa=0\n"
	"    app.push a +200..+500 app=a packets=5 cycles=300 self_cycles=200 cpu=3 numa=0\n"
	"      kv.req +300..+400 rows=3 cycles=100 self_cycles=100 cpu=3 numa=0\n"
	"  kv.req +900..+950 rows=1 cycles=50 self_cycles=50 cpu=3 numa=0\n";

/* Nesting: each span's name (the pair's label and attribute), times (the
 * tick in ns from the anchor), parent, units, cycles, self cycles, cpu and
 * node; one trace per outermost span; the resource and scope; the same in
 * protobuf and JSON. */
START_TEST(test_otlp_nesting_span_by_span_in_protobuf_and_json)
{
	char *out, *want;
	log_one(4242, "alpha");
	out = both("", "one.timeline");
	want = xasprintf("resources 1 traces 2 spans 4\n"
			 "resource service.name=proc host.name=alpha process.pid=4242\n%s", one_tree);
	ck_assert_str_eq(out, want);
	free(out);
	free(want);
	out = sh(0, NULL, "protoc --decode=otlp.ExportTraceServiceRequest -I%s/tests otlp.proto "
		 "< x.otlp | grep -A3 '^    scope {'", src());
	ck_assert_str_eq(out, "    scope {\n      name: \"timeline\"\n      version: \"" TL_VERSION_STRING
			      "\"\n    }\n");
	free(out);
	/* the first span written is the breath, whole: an 8-byte fixed64 time
	 * is the tick in ns after BASE */
	out = sh(0, NULL, "protoc --decode=otlp.ExportTraceServiceRequest -I%s/tests otlp.proto "
		 "< x.otlp | grep -m1 -A5 'name: \"engine.breath\"'", src());
	ck_assert_str_eq(out, "      name: \"engine.breath\"\n      kind: SPAN_KIND_INTERNAL\n"
			      "      start_time_unix_nano: 1700000000000000100\n"
			      "      end_time_unix_nano: 1700000000000000700\n"
			      "      attributes {\n        key: \"packets\"\n");
	free(out);
}
END_TEST

/* Ids are the same for the same log, whatever is exported beside it, and
 * differ between logs: span ids from the log's host, writer and name and
 * each begin's entry number, trace ids from the outermost span's. */
START_TEST(test_otlp_ids_are_deterministic_and_unique)
{
	char *a;
	log_one(4242, "alpha");
	free(sh(0, NULL, "%s export -f otlp -o a.otlp one.timeline && %s export -f otlp -o b.otlp "
		"one.timeline && cmp a.otlp b.otlp && cp one.timeline two.timeline", timeline_bin(),
		timeline_bin()));
	/* "two" differs from "one" by its name alone */
	patch_file(path_in(test_dir, "two.timeline"), offsetof(struct tl_header, name), "two", 4);
	free(sh(0, NULL, "%s export -f otlp -o c.otlp one.timeline two.timeline", timeline_bin()));
	/* the ids of "one" alone: 2 traces, 4 spans */
	a = sh(0, NULL, "protoc --decode=otlp.ExportTraceServiceRequest -I%s/tests otlp.proto "
	       "< a.otlp | grep -E '^ *(trace_id|span_id)' | sed 's/^ *//' | sort -u > a.ids && "
	       "wc -l < a.ids", src());
	ck_assert_str_eq(a, "6\n");
	free(a);
	/* beside "two", the same ids, and "two"'s, none of them one's */
	a = sh(0, NULL, "protoc --decode=otlp.ExportTraceServiceRequest -I%s/tests otlp.proto "
	       "< c.otlp | grep -E '^ *(trace_id|span_id)' | sed 's/^ *//' | sort -u > c.ids && "
	       "wc -l < c.ids && comm -23 a.ids c.ids | wc -l", src());
	ck_assert_str_eq(a, "12\n0\n");
	free(a);
	a = check("c.otlp", "");
	ck_assert_str_eq(a, "resources 2 traces 4 spans 8\n");
	free(a);
}
END_TEST

/* Unmatched pairs: an end without its begin makes nothing; a request whose
 * breath was begun again (the first begin never ended) is a trace of its
 * own; the breath begun again holds its push; a begin never ended makes
 * nothing. */
START_TEST(test_otlp_unmatched_pairs_make_no_span_and_orphans_their_own_trace)
{
	tl_log *log = log_new("two", 64);
	uint16_t id[6];
	char *out;
	events(log, id);
	put(log, 10, id[P1], 4, 0);
	put(log, 100, id[B0], 1, 0);
	put(log, 200, id[R0], 1, 0);
	put(log, 300, id[R1], 1, 2);
	put(log, 400, id[B0], 2, 0);
	put(log, 500, id[P0], 0, 0);
	put(log, 600, id[P1], 4, 0);
	put(log, 700, id[B1], 2, 4);
	put(log, 800, id[R0], 2, 0);
	tl_close(log);
	log_writer("two", 9, "beta");
	out = both("", "two.timeline");
	ck_assert_str_eq(out, "resources 1 traces 2 spans 3\n"
			      "resource service.name=proc host.name=beta process.pid=9\n"
			      "  kv.req +200..+300 rows=2 cycles=100 self_cycles=100 cpu=3 numa=0\n"
			      "  engine.breath +400..+700 packets=4 cycles=300 self_cycles=200 cpu=3 numa=0\n"
			      "    app.push a +500..+600 app=a packets=4 cycles=100 self_cycles=100 "
			      "cpu=3 numa=0\n");
	free(out);
	/* --slowest ranks outermost spans: the orphan is none */
	out = both("--slowest 5", "two.timeline");
	ck_assert_str_eq(out, "resources 1 traces 1 spans 2\n"
			      "resource service.name=proc host.name=beta process.pid=9\n"
			      "  engine.breath +400..+700 packets=4 cycles=300 self_cycles=200 cpu=3 numa=0\n"
			      "    app.push a +500..+600 app=a packets=4 cycles=100 self_cycles=100 "
			      "cpu=3 numa=0\n");
	free(out);
}
END_TEST

/* Two processes, of two hosts: a resource each, in input order; --service
 * names both. */
START_TEST(test_otlp_two_processes_are_two_resources)
{
	char *out, *want;
	log_one(4242, "alpha");
	ck_assert_int_eq(rename(path_in(test_dir, "one.timeline"), path_in(test_dir, "a.timeline")), 0);
	log_one(77, "beta");
	out = both("", "a.timeline one.timeline");
	want = xasprintf("resources 2 traces 4 spans 8\n"
			 "resource service.name=proc host.name=alpha process.pid=4242\n%s"
			 "resource service.name=proc host.name=beta process.pid=77\n%s", one_tree, one_tree);
	ck_assert_str_eq(out, want);
	free(out);
	free(want);
	out = both("--service 'packet filter'", "a.timeline one.timeline");
	want = xasprintf("resources 2 traces 4 spans 8\n"
			 "resource service.name=packet filter host.name=alpha process.pid=4242\n%s"
			 "resource service.name=packet filter host.name=beta process.pid=77\n%s",
			 one_tree, one_tree);
	ck_assert_str_eq(out, want);
	free(out);
	free(want);
}
END_TEST

/* Log "many": six breaths, each holding a push, of (cycles, packets)
 * (1000, 10), (3000, 100), (500, 1), (2000, 10), (800, 0), (400, 2), and
 * three pushes of their own after them, of (90, 3), (300, 2), (100, 4). */
static void log_many(void)
{
	static const uint64_t cyc[6] = { 1000, 3000, 500, 2000, 800, 400 }, pk[6] = { 10, 100, 1, 10, 0, 2 };
	static const uint64_t pcyc[3] = { 90, 300, 100 }, ppk[3] = { 3, 2, 4 };
	tl_log *log = log_new("many", 128);
	uint16_t id[6];
	uint64_t t = 1000;
	events(log, id);
	for (int i = 0; i < 6; i++, t += 10000) {
		put(log, t, id[B0], (uint64_t)i + 1, 0);
		put(log, t + 10, id[P0], 0, 0);
		put(log, t + 20, id[P1], pk[i], 0);
		put(log, t + cyc[i], id[B1], (uint64_t)i + 1, pk[i]);
	}
	for (int i = 0; i < 3; i++, t += 1000) {
		put(log, t, id[P0], 0, 0);
		put(log, t + pcyc[i], id[P1], ppk[i], 0);
	}
	tl_close(log);
	log_writer("many", 5, "alpha");
}

/* --slowest N: the N outermost spans of most cycles per packet of each
 * pair and app, with what they hold, in time order: breaths 3 (500 a
 * packet) and 4 (200, as 6, but of more cycles), not 5 (no packet); the
 * pushes of their own of 150 and 30 a packet. */
START_TEST(test_otlp_slowest_keeps_the_n_slowest_outermost_spans_and_what_they_hold)
{
	char *out;
	log_many();
	out = both("--slowest 2", "many.timeline");
	ck_assert_str_eq(out, "resources 1 traces 4 spans 6\n"
			      "resource service.name=proc host.name=alpha process.pid=5\n"
			      "  engine.breath +21000..+21500 packets=1 cycles=500 self_cycles=490 cpu=3 numa=0\n"
			      "    app.push a +21010..+21020 app=a packets=1 cycles=10 self_cycles=10 cpu=3 numa=0\n"
			      "  engine.breath +31000..+33000 packets=10 cycles=2000 self_cycles=1990 cpu=3 numa=0\n"
			      "    app.push a +31010..+31020 app=a packets=10 cycles=10 self_cycles=10 cpu=3 numa=0\n"
			      "  app.push a +61000..+61090 app=a packets=3 cycles=90 self_cycles=90 cpu=3 numa=0\n"
			      "  app.push a +62000..+62300 app=a packets=2 cycles=300 self_cycles=300 cpu=3 numa=0\n");
	free(out);
	/* one: the slowest of each, at the edge */
	out = both("--slowest 1 --per packets", "many.timeline");
	ck_assert_str_eq(out, "resources 1 traces 2 spans 3\n"
			      "resource service.name=proc host.name=alpha process.pid=5\n"
			      "  engine.breath +21000..+21500 packets=1 cycles=500 self_cycles=490 cpu=3 numa=0\n"
			      "    app.push a +21010..+21020 app=a packets=1 cycles=10 self_cycles=10 cpu=3 numa=0\n"
			      "  app.push a +62000..+62300 app=a packets=2 cycles=300 self_cycles=300 cpu=3 numa=0\n");
	free(out);
	/* as many as there are, and more: all that moved a packet */
	out = check("x.otlp", "");
	free(out);
	free(sh(0, NULL, "%s export -f otlp --slowest 10000 -o y.otlp many.timeline", timeline_bin()));
	out = check("y.otlp", "");
	ck_assert_str_eq(out, "resources 1 traces 8 spans 13\n");
	free(out);
}
END_TEST

/* The filters and windows of export apply before pairing: --event keeps
 * the requests alone, each outermost now; --from cuts the spans begun
 * before it; --cpu of another CPU keeps none, said, and writes an empty
 * request. */
START_TEST(test_otlp_takes_the_filters_and_window_of_export)
{
	char *out, *err;
	log_one(4242, "alpha");
	out = both("-e 'kv.*'", "one.timeline");
	ck_assert_str_eq(out, "resources 1 traces 2 spans 2\n"
			      "resource service.name=proc host.name=alpha process.pid=4242\n"
			      "  kv.req +300..+400 rows=3 cycles=100 self_cycles=100 cpu=3 numa=0\n"
			      "  kv.req +900..+950 rows=1 cycles=50 self_cycles=50 cpu=3 numa=0\n");
	free(out);
	out = both("--from 250", "one.timeline");
	ck_assert_str_eq(out, "resources 1 traces 1 spans 1\n"
			      "resource service.name=proc host.name=alpha process.pid=4242\n"
			      "  kv.req +900..+950 rows=1 cycles=50 self_cycles=50 cpu=3 numa=0\n");
	free(out);
	free(sh(2, &err, "%s export -f otlp --cpu 1 -o z.otlp one.timeline", timeline_bin()));
	ck_assert_str_eq(err, "timeline export: --cpu 1 keeps none of the 8 entries of one.timeline\n");
	free(err);
	out = sh(0, NULL, "wc -c < z.otlp");
	ck_assert_str_eq(out, "0\n");
	free(out);
}
END_TEST

static char *fixture(void)
{
	const char *f = getenv("TIMELINE_FIXTURES");
	return xasprintf("%s/snabb-v3/engine-short.events.timeline.zst", f && *f ? f : "tests/fixtures");
}

/* The Snabb fixture: refused without a frequency, in one line, the other
 * input still exported; with --tsc-hz every pair a span once (992, as many
 * as the Perfetto export's slices), its parent and times those of its
 * entries paired from dump (the last entry at the file's time). */
START_TEST(test_otlp_of_the_snabb_fixture_is_every_pair_once)
{
	char *fx = fixture(), *out, *err, *want;
	log_one(4242, "alpha");
	free(sh(2, &err, "%s export -f otlp -o s.otlp %s one.timeline", timeline_bin(), fx));
	want = xasprintf("timeline export: %s: no TSC frequency (a Snabb log), and otlp needs wall "
			 "time: give it with --tsc-hz HZ\n", fx);
	ck_assert_str_eq(err, want);
	free(want);
	free(err);
	out = check("s.otlp", "");
	ck_assert_str_eq(out, "resources 1 traces 2 spans 4\n");
	free(out);
	free(sh(0, &err, "%s export -f otlp --tsc-hz 2400000000 -o s.otlp %s", timeline_bin(), fx));
	want = xasprintf("timeline export: note: %s: no clock anchor (a Snabb log): its last entry "
			 "taken as written at the file's modification time, ", fx);
	ck_assert_msg(!strncmp(err, want, strlen(want)) && !strchr(err, '\n')[1], "%s", err);
	free(want);
	free(err);
	out = check("s.otlp", test_str("--against %s --tsc-hz 2400000000", fx));
	ck_assert_str_eq(out, "resources 1 traces 840 spans 992\n"
			      "against: 992 spans, names, times and parents as paired from dump\n");
	free(out);
	free(sh(0, NULL, "%s export -f otlp-json --tsc-hz 2400000000 -o s.json %s 2>/dev/null",
		timeline_bin(), fx));
	out = check("s.json", test_str("--json --against %s --tsc-hz 2400000000", fx));
	ck_assert_str_eq(out, "resources 1 traces 840 spans 992\n"
			      "against: 992 spans, names, times and parents as paired from dump\n");
	free(out);
	free(fx);
}
END_TEST

/* The demo engine's log, every event logged: every pair a span once, its
 * name, parent and wall times (its calibrated frequency) those of its
 * entries paired from dump; protobuf and JSON alike. */
START_TEST(test_otlp_of_the_demo_engine_is_every_pair_once)
{
	const char *engine = getenv("TIMELINE_ENGINE");
	char *out, *js;
	free(sh(0, NULL, "%s --breaths 300 --rate all --workload imix --seed 5 --dir e --name imix "
		"> /dev/null", engine && *engine ? engine : "build/examples/engine/engine"));
	free(sh(0, NULL, "%s export -f otlp -o e.otlp e && %s export -f otlp-json -o e.json e",
		timeline_bin(), timeline_bin()));
	out = check("e.otlp", "--against e");
	ck_assert_msg(strstr(out, "resources 1 traces 300 spans ") == out, "%s", out);
	ck_assert_msg(strstr(out, "\nagainst: ") != NULL, "%s", out);
	js = check("e.json", "--json --against e");
	ck_assert_str_eq(out, js);
	free(js);
	free(out);
	out = check("e.otlp", "--tree");
	js = check("e.json", "--json --tree");
	ck_assert_str_eq(out, js);
	free(js);
	free(out);
}
END_TEST

/* Usage: the otlp options with another format, --endpoint with JSON,
 * --max-request without --endpoint or out of range, each one line. */
START_TEST(test_otlp_usage_errors_exit_2_with_a_reason)
{
	static const struct { const char *args, *why; } bad[] = {
		{ "-f chrome --service x -o x in", "--endpoint, --max-request, --service and --tsc-hz "
						   "go with -f otlp or otlp-json" },
		{ "-f otlp-json --endpoint http://h in", "--endpoint sends -f otlp (protobuf)" },
		{ "-f otlp --max-request 4M -o x in", "--max-request goes with --endpoint" },
		{ "-f otlp --endpoint http://h --max-request 4095 in", "--max-request takes a size from "
								      "4K to 64M, e.g. 4M" },
		{ "-f otlp --endpoint http://h --max-request 65537K in", "--max-request takes a size from "
									"4K to 64M, e.g. 4M" },
		{ "-f otlp --tsc-hz 0 -o x in", "--tsc-hz takes ticks per second, e.g. 2100000000" },
		{ "-f otlp in", "missing -o OUT" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *err, *want = xasprintf("timeline export: %s\nsee 'timeline export --help'\n",
					     bad[i].why);
		free(sh(2, &err, "%s export %s", timeline_bin(), bad[i].args));
		ck_assert_msg(!strcmp(err, want), "%s: %s", bad[i].args, err);
		free(err);
		free(want);
	}
}
END_TEST

/* ---- --endpoint, against tests/otlp_server.py ---------------------------------- */

static pid_t server;

/* Starts the stand-in collector answering as SCRIPT; returns its URL. */
static const char *serve(const char *script)
{
	char *port;
	server = spawn(test_str("cd %s && TIMELINE_SRC=%s exec python3 %s/tests/otlp_server.py port "
				"requests.log '%s'", test_dir, src(), src(), script));
	for (int i = 0; i < 1000 && access(path_in(test_dir, "port"), F_OK); i++)
		usleep(10000);
	port = read_file(path_in(test_dir, "port"), NULL);
	return test_str("http://127.0.0.1:%s", test_keep(port));
}

static void unserve(void)
{
	kill(server, SIGTERM);
	reap(server);
	unlink(path_in(test_dir, "port"));
}

/* The requests the collector saw, a line each: try, path, type, bytes,
 * spans, status, and "waited" when it came WAIT s or more after the one
 * before (a lower bound: a loaded machine may take longer). */
static char *seen(double wait)
{
	return sh(0, NULL, "python3 -c 'import json, sys\n"
		  "for l in open(\"requests.log\"):\n"
		  "    r = json.loads(l)\n"
		  "    print(r[\"try\"], r[\"path\"], r[\"type\"], r[\"bytes\"], r[\"spans\"], r[\"status\"],"
		  " \"waited\" if r[\"since\"] >= %g else \"\")'", wait);
}

/* Log "big": 200 requests of their own, each a trace of one span. */
static void log_big(void)
{
	tl_log *log = log_new("big", 1024);
	uint16_t id[6];
	events(log, id);
	for (uint64_t i = 0; i < 200; i++) {
		put(log, 1000 + i * 100, id[R0], i, 0);
		put(log, 1050 + i * 100, id[R1], i, 1);
	}
	tl_close(log);
	log_writer("big", 11, "alpha");
}

/* A large export in requests of at most --max-request bytes, each taken
 * once, a 503 in the middle retried after its Retry-After of 2 s: the
 * spans sent are the file's, every one once. */
START_TEST(test_otlp_post_splits_into_requests_and_retries_a_503)
{
	const char *url;
	char *out, *err;
	size_t file;
	log_big();
	free(sh(0, NULL, "%s export -f otlp -o big.otlp big.timeline", timeline_bin()));
	free(read_file(path_in(test_dir, "big.otlp"), &file));
	url = serve("200,503:2,200");
	free(sh(0, &err, "%s export -f otlp --endpoint %s/ --max-request 4K big.timeline",
		timeline_bin(), url));
	unserve();
	ck_assert_str_eq(err, "");
	free(err);
	/* 200 spans of 126 to 129 bytes, and a resource, in requests of at
	 * most 4096: 31 a request; the second sent again after its 503, 2 s
	 * later as its Retry-After says (a backoff would wait 1 s) */
	out = seen(1.9);
	ck_assert_str_eq(out, "1 /v1/traces application/x-protobuf 3998 31 200 \n"
			      "2 /v1/traces application/x-protobuf 3998 31 503 \n"
			      "3 /v1/traces application/x-protobuf 3998 31 200 waited\n"
			      "4 /v1/traces application/x-protobuf 3998 31 200 \n"
			      "5 /v1/traces application/x-protobuf 3998 31 200 \n"
			      "6 /v1/traces application/x-protobuf 3998 31 200 \n"
			      "7 /v1/traces application/x-protobuf 3998 31 200 \n"
			      "8 /v1/traces application/x-protobuf 1856 14 200 \n");
	free(out);
	/* the file is one request of them all: the spans of the 7 taken */
	out = check("big.otlp", "");
	ck_assert_str_eq(out, "resources 1 traces 200 spans 200\n");
	ck_assert_uint_lt(file, 3998 * 7 + 1856);
	free(out);
}
END_TEST

/* Retry-After as an HTTP date (429), a partial success said as a warning
 * and not sent again. */
START_TEST(test_otlp_post_takes_a_date_and_says_a_partial_success)
{
	const char *url;
	char *out, *err, *want;
	log_one(4242, "alpha");
	url = serve("429:date:1,partial:3:spans too old");
	free(sh(0, &err, "%s export -f otlp --endpoint %s one.timeline", timeline_bin(), url));
	unserve();
	want = xasprintf("timeline export: warning: %s/v1/traces: the collector rejected 3 of 4 spans: "
			 "spans too old\n", url);
	ck_assert_str_eq(err, want);
	free(want);
	free(err);
	out = seen(0.9);
	ck_assert_str_eq(out, "1 /v1/traces application/x-protobuf 653 4 429 \n"
			      "2 /v1/traces application/x-protobuf 653 4 200 waited\n");
	free(out);
}
END_TEST

/* A 400 is said in one line with the collector's message, exit 2, and
 * nothing after it is sent; a 503 each time is tried 5 times. */
START_TEST(test_otlp_post_says_a_400_and_gives_up_after_5_tries)
{
	const char *url;
	char *out, *err, *want;
	log_big();
	url = serve("200,400:bad span");
	free(sh(2, &err, "%s export -f otlp --endpoint %s --max-request 4K big.timeline",
		timeline_bin(), url));
	unserve();
	want = xasprintf("timeline export: %s/v1/traces: HTTP 400: bad span; 1 request (31 spans) "
			 "taken before it, none sent after\n", url);
	ck_assert_str_eq(err, want);
	free(want);
	free(err);
	out = seen(0.9);
	ck_assert_str_eq(out, "1 /v1/traces application/x-protobuf 3998 31 200 \n"
			      "2 /v1/traces application/x-protobuf 3998 31 400 \n");
	free(out);
	unlink(path_in(test_dir, "requests.log"));
	log_one(4242, "alpha");
	url = serve("503:1");
	free(sh(2, &err, "%s export -f otlp --endpoint %s one.timeline", timeline_bin(), url));
	unserve();
	want = xasprintf("timeline export: %s/v1/traces: HTTP 503 after 5 tries; 0 requests (0 spans) "
			 "taken before it, none sent after\n", url);
	ck_assert_str_eq(err, want);
	free(want);
	free(err);
	out = seen(0.9);
	ck_assert_str_eq(out, "1 /v1/traces application/x-protobuf 653 4 503 \n"
			      "2 /v1/traces application/x-protobuf 653 4 503 waited\n"
			      "3 /v1/traces application/x-protobuf 653 4 503 waited\n"
			      "4 /v1/traces application/x-protobuf 653 4 503 waited\n"
			      "5 /v1/traces application/x-protobuf 653 4 503 waited\n");
	free(out);
}
END_TEST

/* An endpoint where nothing listens, and one that is no URL: one line each,
 * exit 2. */
START_TEST(test_otlp_post_to_no_collector_says_one_line)
{
	const char *url;
	char *err;
	log_one(4242, "alpha");
	url = serve("200");
	unserve();   /* its port is closed now */
	free(sh(2, &err, "%s export -f otlp --endpoint %s one.timeline", timeline_bin(), url));
	ck_assert_msg(!strncmp(err, test_str("timeline export: %s/v1/traces: Failed to connect to "
					     "127.0.0.1 port ", url), strlen(url) + 56), "%s", err);
	ck_assert_msg(strstr(err, ": Couldn't connect to server; 0 requests (0 spans) taken before it, "
				  "none sent after\n") && !strchr(err, '\n')[1], "%s", err);
	free(err);
	free(sh(2, &err, "%s export -f otlp --endpoint collector:4318 one.timeline", timeline_bin()));
	ck_assert_str_eq(err, "timeline export: collector:4318: not an http:// or https:// URL\n");
	free(err);
}
END_TEST

Suite *otlp_suite(void)
{
	Suite *s = suite_create("otlp");
	TCase *tc = tcase_create("otlp"), *post = tcase_create("post");
	tcase_add_checked_fixture(tc, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_otlp_nesting_span_by_span_in_protobuf_and_json);
	tcase_add_test(tc, test_otlp_ids_are_deterministic_and_unique);
	tcase_add_test(tc, test_otlp_unmatched_pairs_make_no_span_and_orphans_their_own_trace);
	tcase_add_test(tc, test_otlp_two_processes_are_two_resources);
	tcase_add_test(tc, test_otlp_slowest_keeps_the_n_slowest_outermost_spans_and_what_they_hold);
	tcase_add_test(tc, test_otlp_takes_the_filters_and_window_of_export);
	tcase_add_test(tc, test_otlp_of_the_snabb_fixture_is_every_pair_once);
	tcase_add_test(tc, test_otlp_of_the_demo_engine_is_every_pair_once);
	tcase_add_test(tc, test_otlp_usage_errors_exit_2_with_a_reason);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(post, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(post, 30);
	tcase_add_test(post, test_otlp_post_splits_into_requests_and_retries_a_503);
	tcase_add_test(post, test_otlp_post_takes_a_date_and_says_a_partial_success);
	tcase_add_test(post, test_otlp_post_says_a_400_and_gives_up_after_5_tries);
	tcase_add_test(post, test_otlp_post_to_no_collector_says_one_line);
	suite_add_tcase(s, post);
	return s;
}
