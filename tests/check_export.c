/* check_export.c: `timeline export` against the real tools: CTF read back
 * by babeltrace2 and compared with dump, each event with its writer's vpid,
 * procname and hostname, Chrome JSON parsed by jq with the fields each
 * phase needs, spans nested per track, and CSV as dump's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util.h"
#include "../lib/format.h"


START_TEST(test_export_usage_errors_exit_2_with_a_reason)
{
	static const struct { const char *args, *why; } bad[] = {
		{ "-o x.json in", "missing --format chrome|perfetto|ctf|csv|otlp|otlp-json" },
		{ "-f chrome in", "missing -o OUT" },
		{ "-f chrome -o x.json", "missing input" },
		{ "-f svg -o x in", "--format must be chrome, perfetto, ctf, csv, otlp or otlp-json" },
		{ "-f chrome --pair push -o x in", "--pair takes BEGIN=END, e.g. rx_start=rx_end" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *cmd = xasprintf("cd %s && %s export %s", test_dir, timeline_bin(), bad[i].args), *err;
		char *want = xasprintf("timeline export: %s\nsee 'timeline export --help'\n", bad[i].why);
		ck_assert_int_eq(run(cmd, NULL, &err), 2);
		ck_assert_msg(!strcmp(err, want), "%s: %s", bad[i].args, err);
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
	char *out, *line, *save = NULL, host[128] = "", *who;
	int64_t w, n = 0;
	small_log("a.timeline", 0);
	w = wall0("a.timeline");
	free(sh(0, "%s export -f ctf -o a.ctf a.timeline", timeline_bin()));
	out = sh(0, "babeltrace2 --clock-seconds a.ctf");
	/* whose: this test's process, which wrote the log */
	gethostname(host, sizeof host - 1);
	who = xasprintf("vpid = %d, vtid = %d, procname = \"%s\", hostname = \"%s\"", (int)getpid(),
			(int)getpid(), program_invocation_short_name, host);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save), n++) {
		const char *tail[] = {
			test_str("app.push: { %s, cpu = 2, numa = 0, app = \"x\", "
			"pair = \"app.push x\", "
				 "attrs = \"app=x\" }, { inpackets = 7, inbytes = 700 }", who),
			test_str("app.pushed: { %s, cpu = 2, numa = 0, app = \"x\", "
			"pair = \"app.push x\", "
				 "attrs = \"app=x\" }, { inpackets = 17, inbytes = 1700 }", who),
			test_str("app.pushed: { %s, cpu = 5, numa = 1, app = \"y\", "
			"pair = \"app.push y\", "
				 "attrs = \"app=y\" }, { inpackets = 3, inbytes = 300 }", who),
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
	free(who);
	free(out);
}
END_TEST

/* ------------------------------------------------------------------------
 * Absolute times in every clock an export can carry
 * ------------------------------------------------------------------------ */

/* Overwrites LEN bytes of the header of the log at PATH at OFF. */
static void patch(const char *path, size_t off, const void *p, size_t len)
{
	int fd = open(path, O_WRONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, p, len, (off_t)off), (ssize_t)len);
	ck_assert_int_eq(close(fd), 0);
}

/* A log NAME of HZ ticks a second whose header says it was written on HOST
 * and took tick ATSC at wall time AREAL (ns; monotonic 5 s): x's push at
 * T0 + 1000 and pushed at T0 + 1500, y's pushed alone at T0 + 2250. */
static void clock_log(const char *name, uint64_t hz, const char *host, uint64_t atsc,
		      uint64_t areal, uint64_t t0)
{
	tl_options o = { .entries = 16, .clock = TL_CLOCK_MANUAL, .tsc_hz = hz,
			 .strings_bytes = 4096, .name = "clock" };
	static const char *const defs[] = { "5,5|app.push: inpackets inbytes\nPush.",
					    "5,5|app.pushed: inpackets inbytes\nPushed." };
	const char *p = path_in(test_dir, name);
	char h[128] = { 0 };
	uint64_t mono = 5000000000ull;
	uint16_t x[2], y[2];
	tl_error err;
	tl_log *log = tl_open(p, &o, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	ck_assert_int_eq(tl_register(log, defs, 2, "app=x", x, NULL), TL_OK);
	ck_assert_int_eq(tl_register(log, defs, 2, "app=y", y, NULL), TL_OK);
	tl_set_manual_clock(log, t0 + 1000, 2);
	tl_append(log, x[0], 7, 700, 0, 0, 0, 0);
	tl_set_manual_clock(log, t0 + 1500, 2);
	tl_append(log, x[1], 17, 1700, 0, 0, 0, 0);
	tl_set_manual_clock(log, t0 + 2250, 1 << 12 | 5);
	tl_append(log, y[1], 3, 300, 0, 0, 0, 0);
	tl_close(log);
	snprintf(h, sizeof h, "%s", host);
	patch(p, offsetof(struct tl_header, host), h, sizeof h);
	patch(p, offsetof(struct tl_header, anchor_tsc), &atsc, 8);
	patch(p, offsetof(struct tl_header, anchor_realtime), &areal, 8);
	patch(p, offsetof(struct tl_header, anchor_monotonic), &mono, 8);
}

/* Makes the header of the log NAME say that process PROCESS, pid PID,
 * wrote it. */
static void set_writer(const char *name, uint32_t pid, const char *process)
{
	char proc[64] = { 0 };
	const char *p = path_in(test_dir, name);
	snprintf(proc, sizeof proc, "%s", process);
	patch(p, offsetof(struct tl_header, pid), &pid, sizeof pid);
	patch(p, offsetof(struct tl_header, process), proc, sizeof proc);
}

/* What the header of the log NAME says (NAME: in the test's directory,
 * unless it starts with '/'). */
static tl_info info_of(const char *name)
{
	tl_error err;
	tl_reader *r = tl_reader_open(name[0] == '/' ? name : path_in(test_dir, name), &err);
	tl_info in;
	ck_assert_msg(r != NULL, "%s", err.msg);
	tl_reader_info(r, &in);
	tl_reader_close(r);
	return in;
}

/* A formatted string that lives until the next call. */
static const char *S(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *S(const char *fmt, ...)
{
	static char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return buf;
}

/* babeltrace2's --clock-seconds stamp of NS since the epoch. */
static const char *stamp(int64_t ns)
{
	static char buf[64];
	snprintf(buf, sizeof buf, "[%lld.%09lld]", (long long)(ns / 1000000000),
		 (long long)(ns % 1000000000));
	return buf;
}

/* Event K of those clock_log() writes, as babeltrace2 prints it after the
 * stamp, written by "clock" (set_writer()), pid PID, on HOST. */
static const char *clock_tail(int k, uint32_t pid, const char *host)
{
	static const char *const event[] = { "app.push", "app.pushed", "app.pushed" };
	static const char *const where[] = {
		"cpu = 2, numa = 0, app = \"x\", pair = \"app.push x\", attrs = \"app=x\"",
		"cpu = 2, numa = 0, app = \"x\", pair = \"app.push x\", attrs = \"app=x\"",
		"cpu = 5, numa = 1, app = \"y\", pair = \"app.push y\", attrs = \"app=y\"",
	};
	static const char *const args[] = { "inpackets = 7, inbytes = 700", "inpackets = 17, inbytes = 1700",
					    "inpackets = 3, inbytes = 300" };
	return test_str("%s: { vpid = %u, vtid = %u, procname = \"clock\", hostname = \"%s\", %s }, "
			"{ %s }", event[k], pid, pid, host, where[k], args[k]);
}
static const uint64_t clock_at[] = { 1000, 1500, 2250 };

/* Checks `babeltrace2 --clock-seconds TRACE`: line k starts with the stamp
 * WANT[k] and ends with TAIL[k], N lines. */
static void check_seconds(const char *trace, const int64_t *want, const char *const *tail, int n)
{
	char *out = sh(0, "babeltrace2 --clock-seconds %s", trace), *line, *save = NULL;
	int k = 0;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save), k++) {
		const char *st, *end;
		ck_assert_msg(k < n, "line %d of %s: %s", k, trace, line);
		st = stamp(want[k]);
		ck_assert_msg(!strncmp(line, st, strlen(st)), "%s: %s, want %s", trace, line, st);
		end = line + strlen(line) - strlen(tail[k]);
		ck_assert_msg(end >= line && !strcmp(end, tail[k]), "%s: %s, want ... %s", trace, line,
			      tail[k]);
	}
	ck_assert_int_eq(k, n);
	free(out);
}

/* One host and boot, 2.5 GHz: the clock is the TSC, its frequency the log's
 * and its offset the header's anchor (an odd fraction of a second), and
 * every time is the wall time tl_wall_ns() gives, to the nanosecond. */
START_TEST(test_ctf_tsc_clock_at_2_5_ghz_shows_each_entrys_wall_time_from_the_anchor)
{
	int64_t want[3];
	const char *tail[3];
	tl_info in;
	char *meta;
	/* the anchor: tick 2.5e9 (1 s) at ...01.123456788 s: tick 0 at ...00.123456788 */
	clock_log("a.timeline", 2500000000ull, "here", 2500000000ull, 1700000001123456788ull,
		  2500000005ull);
	set_writer("a.timeline", 4242, "clock");
	in = info_of("a.timeline");
	ck_assert_uint_eq(in.tsc_hz, 2500000000ull);
	for (int k = 0; k < 3; k++)
		want[k] = tl_wall_ns(&in, 2500000005ull + clock_at[k]);
	/* 1000 ticks after tick 2500000005: 1 s + 2 ns + 400 ns after tick 0 */
	ck_assert_int_eq(want[0], 1700000001123457190ll);
	free(sh(0, "%s export -f ctf -o a.ctf a.timeline", timeline_bin()));
	meta = sh(0, "grep -E '^\tname = \"tsc\"|freq|offset' a.ctf/metadata");
	ck_assert_str_eq(meta, "\tname = \"tsc\";\n\tfreq = 2500000000;\n\toffset_s = 1700000000;\n"
			       "\toffset = 308641970;\n");
	free(meta);
	/* one host: the trace's environment names it */
	meta = sh(0, "sed -n '/^env {/,/^};/p' a.ctf/metadata");
	ck_assert_str_eq(meta, "env {\n\thostname = \"here\";\n\ttracer_name = \"timeline\";\n};\n");
	free(meta);
	for (int k = 0; k < 3; k++)
		tail[k] = clock_tail(k, 4242, "here");
	check_seconds("a.ctf", want, tail, 3);
}
END_TEST

/* Logs a.timeline and b.timeline of two hosts: a written by process PA,
 * pid 4242, on alpha.example at 2.5 GHz, b by PB, pid 5353, on
 * beta.example at 1 GHz, anchored at the same wall time, b's ticks 7000 s
 * ahead of a's: their entries interleave. */
static void two_hosts(const char *pa, const char *pb)
{
	clock_log("a.timeline", 2500000000ull, "alpha.example", 2500000000ull,
		  1700000001123456788ull, 2500000005ull);
	clock_log("b.timeline", 1000000000ull, "beta.example", 7000000000000ull,
		  1700000001123456788ull, 7000000000000ull - 500);
	set_writer("a.timeline", 4242, pa);
	set_writer("b.timeline", 5353, pb);
}

/* Two hosts: no TSC in common, so the clock is wall nanoseconds, each
 * log's entries placed by its own anchor and frequency (2.5 GHz and 1 GHz),
 * and the two streams interleave by those times although b's ticks are
 * 7000 s ahead of a's. */
START_TEST(test_ctf_wall_clock_of_two_hosts_shows_each_entrys_wall_time_from_its_own_anchor)
{
	/* a's entries 402, 602 and 902 ns after ...01.123456788, b's 500, 1000
	 * and 1750: a b a a b b */
	static const int order[6] = { 0, 3, 1, 2, 4, 5 };   /* 0-2: a's, 3-5: b's */
	int64_t want[6], t[6];
	const char *tail[6];
	tl_info a, b;
	char *meta;
	two_hosts("clock", "clock");
	a = info_of("a.timeline");
	b = info_of("b.timeline");
	for (int k = 0; k < 3; k++) {
		t[k] = tl_wall_ns(&a, 2500000005ull + clock_at[k]);
		t[3 + k] = tl_wall_ns(&b, 7000000000000ull - 500 + clock_at[k]);
	}
	ck_assert_int_eq(t[0], 1700000001123457190ll);
	ck_assert_int_eq(t[3], 1700000001123457288ll);
	free(sh(0, "%s export -f ctf -o ab.ctf a.timeline b.timeline", timeline_bin()));
	meta = sh(0, "grep -E '^\tname = \"wall\"|freq|offset' ab.ctf/metadata");
	ck_assert_str_eq(meta, "\tname = \"wall\";\n\tfreq = 1000000000;\n\toffset_s = 0;\n"
			       "\toffset = 0;\n");
	free(meta);
	for (int k = 0; k < 6; k++) {
		want[k] = t[order[k]];
		tail[k] = order[k] < 3 ? clock_tail(order[k], 4242, "alpha.example")
				       : clock_tail(order[k] - 3, 5353, "beta.example");
	}
	check_seconds("ab.ctf", want, tail, 6);
}
END_TEST

/* Two processes of two hosts merged in one export: every event says whose
 * it is in its context, as LTTng-UST's _vpid and _procname contexts do
 * (Trace Compass keys its process views on context._vpid), with the host
 * beside them; the trace's environment, one for the whole trace, names no
 * host. babeltrace2's whole output, to the byte. */
START_TEST(test_ctf_merged_export_says_each_events_vpid_procname_and_hostname)
{
	static const char want[] =
		"[22:13:21.123457190] (+?.????????\?) app.push: { vpid = 4242, vtid = 4242, procname = \"engine\", "
		"hostname = \"alpha.example\", cpu = 2, numa = 0, app = \"x\", "
		"pair = \"app.push x\", attrs = \"app=x\" }, { inpackets = 7, inbytes = 700 }\n"
		"[22:13:21.123457288] (+0.000000098) app.push: { vpid = 5353, vtid = 5353, procname = \"router\", "
		"hostname = \"beta.example\", cpu = 2, numa = 0, app = \"x\", "
		"pair = \"app.push x\", attrs = \"app=x\" }, { inpackets = 7, inbytes = 700 }\n"
		"[22:13:21.123457390] (+0.000000102) app.pushed: { vpid = 4242, vtid = 4242, procname = \"engine\", "
		"hostname = \"alpha.example\", cpu = 2, numa = 0, app = \"x\", "
		"pair = \"app.push x\", attrs = \"app=x\" }, { inpackets = 17, inbytes = 1700 }\n"
		"[22:13:21.123457690] (+0.000000300) app.pushed: { vpid = 4242, vtid = 4242, procname = \"engine\", "
		"hostname = \"alpha.example\", cpu = 5, numa = 1, app = \"y\", "
		"pair = \"app.push y\", attrs = \"app=y\" }, { inpackets = 3, inbytes = 300 }\n"
		"[22:13:21.123457788] (+0.000000098) app.pushed: { vpid = 5353, vtid = 5353, procname = \"router\", "
		"hostname = \"beta.example\", cpu = 2, numa = 0, app = \"x\", "
		"pair = \"app.push x\", attrs = \"app=x\" }, { inpackets = 17, inbytes = 1700 }\n"
		"[22:13:21.123458538] (+0.000000750) app.pushed: { vpid = 5353, vtid = 5353, procname = \"router\", "
		"hostname = \"beta.example\", cpu = 5, numa = 1, app = \"y\", "
		"pair = \"app.push y\", attrs = \"app=y\" }, { inpackets = 3, inbytes = 300 }\n";
	char *out;
	two_hosts("engine", "router");
	free(sh(0, "%s export -f ctf -o ab.ctf a.timeline b.timeline", timeline_bin()));
	out = sh(0, "TZ=UTC babeltrace2 ab.ctf");
	ck_assert_str_eq(out, want);
	free(out);
	/* where: the stream's event context, the names Trace Compass reads
	 * (context._vpid, context._procname) */
	out = sh(0, "sed -n '/^\tevent.context/,/^\t};/p;/^env {/,/^};/p' ab.ctf/metadata");
	ck_assert_str_eq(out, "env {\n\ttracer_name = \"timeline\";\n};\n"
			      "\tevent.context := struct {\n\t\tint32_t _vpid;\n\t\tint32_t _vtid;\n"
			      "\t\tstring _procname;\n"
			      "\t\tstring _hostname;\n\t\tuint16_t cpu;\n\t\tuint8_t numa;\n"
			      "\t\tstring app;\n\t\tstring pair;\n\t\tstring attrs;\n\t};\n");
	free(out);
}
END_TEST

/* A header's strings go into the metadata's TSDL escaped: a host name
 * with a quote and a backslash (which broke it) reads back whole. */
START_TEST(test_ctf_of_a_host_name_with_a_quote_and_a_backslash_reads_back)
{
	char host[128] = "quo\"te\\back", *out, *want;
	small_log("a.timeline", 0);
	patch(path_in(test_dir, "a.timeline"), offsetof(struct tl_header, host), host, sizeof host);
	set_writer("a.timeline", 4242, "engine");
	free(sh(0, "%s export -f ctf -o a.ctf a.timeline", timeline_bin()));
	out = sh(0, "babeltrace2 a.ctf | cut -d' ' -f3-");
	want = xasprintf("%s app.push: { vpid = 4242, vtid = 4242, procname = \"engine\", hostname = \"quo\\\"te\\\\back\", "
			 "cpu = 2, numa = 0, app = \"x\", "
			 "pair = \"app.push x\", attrs = \"app=x\" }, { inpackets = 7, inbytes = 700 }\n"
			 "%s app.pushed: { vpid = 4242, vtid = 4242, procname = \"engine\", hostname = \"quo\\\"te\\\\back\", "
			 "cpu = 2, numa = 0, app = \"x\", "
			 "pair = \"app.push x\", attrs = \"app=x\" }, { inpackets = 17, inbytes = 1700 }\n"
			 "%s app.pushed: { vpid = 4242, vtid = 4242, procname = \"engine\", hostname = \"quo\\\"te\\\\back\", "
			 "cpu = 5, numa = 1, app = \"y\", "
			 "pair = \"app.push y\", attrs = \"app=y\" }, { inpackets = 3, inbytes = 300 }\n", host, host, host);
	ck_assert_str_eq(out, want);
	free(want);
	free(out);
}
END_TEST

/* Snabb's file has no anchor and no frequency: its ticks are shown as
 * nanoseconds, so babeltrace2's seconds are the ticks over 10^9. */
START_TEST(test_ctf_of_the_snabb_fixture_shows_its_ticks_as_nanoseconds)
{
	const char *f = getenv("TIMELINE_FIXTURES");
	char *fx = xasprintf("%s/snabb-v3/engine-short.events.timeline.zst", f && *f ? f : "tests/fixtures");
	char *out, *line, *save = NULL;
	tl_error err;
	tl_reader *r = tl_reader_open(fx, &err);
	tl_entry e;
	uint64_t last = 0;
	int n = 0;
	ck_assert_msg(r != NULL, "%s", err.msg);
	free(sh(0, "%s export -f ctf -o s.ctf %s", timeline_bin(), fx));
	out = sh(0, "babeltrace2 --clock-seconds s.ctf");
	ck_assert_msg(!strncmp(out, "[1030.671", 9), "%.40s", out);   /* not 1030671 s */
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save), n++) {
		const char *st;
		ck_assert_int_eq(tl_reader_next(r, &e), 1);
		last = e.tsc > last ? e.tsc : last;   /* a stream's clock never goes back */
		st = stamp((int64_t)last);
		ck_assert_msg(!strncmp(line, st, strlen(st)), "entry %d: %s, want %s", n, line, st);
	}
	ck_assert_int_eq(tl_reader_next(r, &e), 0);
	ck_assert_int_eq(n, 2577);
	ck_assert_uint_eq(last, 1035564565157ull);   /* 4.9 s later */
	tl_reader_close(r);
	free(out);
	/* whose: Snabb's pid from a path as Snabb makes them, "snabb", no host */
	ck_assert_int_eq(mkdir(path_in(test_dir, "4242"), 0700), 0);
	unzstd(fx, path_in(test_dir, "4242/events.timeline"));
	out = sh(0, "%s export -f ctf -o p.ctf 4242/events.timeline && TZ=UTC babeltrace2 p.ctf | head -1",
		 timeline_bin());
	ck_assert_str_eq(out, "[00:17:10.671027939] (+?.????????\?) engine.config_actions_computed: "
			      "{ vpid = 4242, vtid = 4242, procname = \"snabb\", hostname = \"\", cpu = 1, numa = 0, "
			      "app = \"\", pair = \"\", attrs = \"\" }, { }\n");
	free(out);
	free(fx);
}
END_TEST

/* The "ts" values of Chrome JSON TEXT in order, from the text itself (a
 * JSON parser would round them through doubles); events of phase M have
 * none. Returns how many, at most MAX. */
static int raw_ts(const char *text, char ts[][32], int max)
{
	int n = 0;
	for (const char *p = text; (p = strstr(p, "\"ts\":")) != NULL; p += 5) {
		ck_assert_int_lt(n, max);
		ck_assert_int_eq(sscanf(p + 5, "%31[-0-9.]", ts[n]), 1);
		n++;
	}
	return n;
}

/* NS as microseconds with three decimals, as Chrome's "ts" and "dur" carry them. */
static const char *us(int64_t ns)
{
	static char buf[4][40];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s%lld.%03lld", ns < 0 ? "-" : "", llabs(ns) / 1000,
		 llabs(ns) % 1000);
	return buf[k];
}

/* Chrome's ts: microseconds from the origin otherData gives (the whole
 * second at or before the earliest anchor), so origin + ts is each entry's
 * wall time; dur is the span's wall-clock length. */
START_TEST(test_chrome_ts_plus_the_origin_is_each_entrys_wall_time)
{
	tl_info a, b;
	char *json, ts[16][32], *meta;
	int64_t origin = 1700000000000000000ll, t[6];
	clock_log("a.timeline", 2500000000ull, "alpha.example", 2500000000ull,
		  1700000001123456788ull, 2500000005ull);
	clock_log("b.timeline", 1000000000ull, "beta.example", 7000000000000ull,
		  1700000000987654321ull, 7000000000000ull - 500);
	a = info_of("a.timeline");
	b = info_of("b.timeline");
	for (int k = 0; k < 3; k++) {
		t[k] = tl_wall_ns(&a, 2500000005ull + clock_at[k]);
		t[3 + k] = tl_wall_ns(&b, 7000000000000ull - 500 + clock_at[k]);
	}
	free(sh(0, "%s export -f chrome -o ab.json a.timeline b.timeline", timeline_bin()));
	meta = sh(0, "grep -o '\"otherData\":{[^}]*}' ab.json");   /* jq would round the ns */
	ck_assert_str_eq(meta, "\"otherData\":{\"generator\":\"timeline export\",\"ts_origin\":"
			       "\"2023-11-14T22:13:20.000000000Z\",\"ts_origin_ns\":1700000000000000000}\n");
	free(meta);
	json = sh(0, "cat ab.json");
	/* per file: x's span (ts of its push), then y's instant */
	ck_assert_int_eq(raw_ts(json, ts, 16), 4);
	ck_assert_str_eq(ts[0], us(t[0] - origin));
	ck_assert_str_eq(ts[0], "1123457.190");
	ck_assert_str_eq(ts[1], us(t[2] - origin));
	ck_assert_str_eq(ts[2], us(t[3] - origin));
	ck_assert_str_eq(ts[2], "987654.821");
	ck_assert_str_eq(ts[3], us(t[5] - origin));
	free(json);
	/* the spans' durations: 500 ticks, at 2.5 GHz and at 1 GHz */
	json = sh(0, "jq -c '[.traceEvents[] | select(.ph == \"X\") | .dur]' ab.json");
	ck_assert_str_eq(json, "[0.2,0.5]\n");
	free(json);
}
END_TEST

/* Without an anchor (Snabb) ts counts ticks taken as ns, from the first
 * tick's whole 10^9 (ts_origin_ticks): every ts is an entry's. */
START_TEST(test_chrome_ts_of_the_snabb_fixture_are_its_ticks_as_nanoseconds)
{
	const char *f = getenv("TIMELINE_FIXTURES");
	char *fx = xasprintf("%s/snabb-v3/engine-short.events.timeline.zst", f && *f ? f : "tests/fixtures");
	static char ts[8192][32];
	char *json, *meta;
	tl_error err;
	tl_reader *r = tl_reader_open(fx, &err);
	static uint64_t tick[4096];
	int64_t origin;
	int n = 0, m;
	tl_entry e;
	ck_assert_msg(r != NULL, "%s", err.msg);
	while (n < 4096 && tl_reader_next(r, &e))
		tick[n++] = e.tsc;
	tl_reader_close(r);
	ck_assert_int_eq(n, 2577);
	free(sh(0, "%s export -f chrome -o s.json %s 2>/dev/null", timeline_bin(), fx));
	meta = sh(0, "jq -c .otherData s.json");
	origin = (int64_t)(tick[0] - tick[0] % 1000000000);
	ck_assert_str_eq(meta, S("{\"generator\":\"timeline export\",\"ts_origin_ticks\":%lld}\n",
				 (long long)origin));
	free(meta);
	json = sh(0, "cat s.json");
	m = raw_ts(json, ts, 8192);
	ck_assert_int_gt(m, 1000);
	ck_assert_str_eq(ts[0], us((int64_t)tick[0] - origin));
	for (int k = 0; k < m; k++) {
		int found = 0;
		for (int i = 0; i < n && !found; i++)
			found = !strcmp(ts[k], us((int64_t)tick[i] - origin));
		ck_assert_msg(found, "ts %s is no entry's tick in us", ts[k]);
	}
	free(json);
	free(fx);
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

/* The spans (ph X) of the Chrome trace argv[1] that end after the end of
 * an earlier span of their track they start in (by more than 0.001 us):
 * their count. */
static const char nest_py[] =
	"import bisect,json,sys\n"
	"tracks={}\n"
	"for e in json.load(open(sys.argv[1]))['traceEvents']:\n"
	"  if e.get('ph')=='X': tracks.setdefault((e['pid'],e['tid']),[]).append(e)\n"
	"bad=0\n"
	"for t in tracks.values():\n"
	"  ends=[]\n"
	"  for s in sorted(t,key=lambda e:e['ts']):\n"
	"    k=bisect.bisect_right(ends,s['ts'])\n"
	"    if k<len(ends) and s['ts']+s['dur']>ends[k]+0.001: bad+=1\n"
	"    bisect.insort(ends,s['ts']+s['dur'])\n"
	"print(bad)\n";

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
	/* spans on one track nest: each X ends by the end of every X it starts
	 * in (in ts order, ties in file order). Against every earlier span of
	 * the track at once: the earliest end after this start is the one to
	 * keep, found by bisection in the sorted ends (jq's pairs took 10 s) */
	write_file(path_in(test_dir, "nest.py"), nest_py, strlen(nest_py));
	out = sh(0, "python3 nest.py t.json");
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

/* A span whose begin is the 4,201st definition of its log: the end finds
 * its begin among every definition, not the first 4,096 (the list was
 * a stack array of 4,096 ids, and the loop read past it by the count the
 * library returned). */
START_TEST(test_chrome_span_finds_a_begin_past_the_first_4096_definitions)
{
	static const char *const defs[] = { "5,5|app.push: inpackets\nPush.",
					     "5,5|app.pushed: inpackets\nPushed." };
	tl_options o = { .entries = 16, .clock = TL_CLOCK_MANUAL, .tsc_hz = 1000000000,
			 .strings_bytes = 1 << 20, .name = "test" };
	tl_log *log = tl_open(path_in(test_dir, "many.timeline"), &o, NULL);
	uint16_t id, x[2];
	char *out;
	ck_assert_ptr_nonnull(log);
	for (int k = 0; k < 4200; k++) {
		char def[48];
		const char *d = def;
		snprintf(def, sizeof def, "5,5|filler.e%d: n\nA filler.", k);
		ck_assert_int_eq(tl_register(log, &d, 1, NULL, &id, NULL), TL_OK);
	}
	ck_assert_int_eq(tl_register(log, defs, 2, "app=x", x, NULL), TL_OK);
	tl_set_manual_clock(log, 1000, 0);
	tl_append(log, x[0], 7, 0, 0, 0, 0, 0);
	tl_set_manual_clock(log, 1500, 0);
	tl_append(log, x[1], 17, 0, 0, 0, 0, 0);
	tl_close(log);
	free(sh(0, "%s export -f chrome -o many.json many.timeline", timeline_bin()));
	out = sh(0, "python3 -c 'import json; print([(e[\"ph\"], e[\"name\"], e.get(\"dur\")) for e in "
		 "json.load(open(\"many.json\"))[\"traceEvents\"] if e[\"ph\"] != \"M\"])'");
	ck_assert_str_eq(out, "[('X', 'app.push x', 0.5)]\n");
	free(out);
}
END_TEST

/* A log two threads write, one after the other (the clock is the log's):
 * "rx" pushes 7 packets from tick 1000 to 1500 on CPU 2, then "tx" 3
 * from 2000 to 2250 on CPU 2 too; then "lone" begins a push at 3000 that
 * it never ends, and "end" ends one at 3100 that it never began. */
struct push_thread {
	tl_log *log;
	const uint16_t *id;
	const char *name;
	uint64_t t0, t1, n;
	pid_t tid;
};

static void *push_thread_run(void *arg)
{
	struct push_thread *p = arg;
	p->tid = gettid();
	ck_assert_int_eq(tl_thread_attach(p->log, p->name, NULL), TL_OK);
	if (p->t0) {
		tl_set_manual_clock(p->log, p->t0, 2);
		tl_append(p->log, p->id[0], p->n, 100 * p->n, 0, 0, 0, 0);
	}
	if (p->t1) {
		tl_set_manual_clock(p->log, p->t1, 2);
		tl_append(p->log, p->id[1], p->n, 100 * p->n, 0, 0, 0, 0);
	}
	return NULL;
}

/* Chrome: a track per thread, its tid and name, each span on its own
 * thread's track, not its CPU's, a begin and an end of two threads no
 * span; CTF: each event's vtid, read by babeltrace2. */
START_TEST(test_exports_of_a_log_of_two_threads_give_each_its_track_and_vtid)
{
	static const char *const defs[] = { "5,5|app.push: inpackets inbytes\nPush.",
					    "5,5|app.pushed: inpackets inbytes\nPushed." };
	tl_log *log = open_manual(path_in(test_dir, "t.timeline"), 16);
	struct push_thread p[4] = { { .name = "rx", .t0 = 1000, .t1 = 1500, .n = 7 },
				    { .name = "tx", .t0 = 2000, .t1 = 2250, .n = 3 },
				    { .name = "lone", .t0 = 3000, .n = 1 },
				    { .name = "end", .t1 = 3100, .n = 1 } };
	uint16_t id[2];
	char *out;
	ck_assert_int_eq(tl_register(log, defs, 2, "app=x", id, NULL), TL_OK);
	for (int k = 0; k < 4; k++) {
		pthread_t th;
		p[k].log = log;
		p[k].id = id;
		ck_assert_int_eq(pthread_create(&th, NULL, push_thread_run, &p[k]), 0);
		ck_assert_int_eq(pthread_join(th, NULL), 0);
	}
	tl_close(log);
	free(sh(0, "%s export -f chrome -o t.json t.timeline", timeline_bin()));
	out = sh(0, "python3 -c 'import json\n"
		    "for e in json.load(open(\"t.json\"))[\"traceEvents\"]:\n"
		    "  if e[\"ph\"] == \"X\" or e[\"name\"] == \"thread_name\": print(e[\"ph\"], e[\"tid\"], e.get(\"args\", {}).get(\"name\", \"\"),"
		    " e[\"name\"], e.get(\"dur\", \"\"))'");
	ck_assert_str_eq(out, test_str("M %d rx thread_name \nX %d  app.push x 0.5\n"
				       "M %d tx thread_name \nX %d  app.push x 0.25\n"
				       "M %d lone thread_name \nM %d end thread_name \n",
				       (int)p[0].tid, (int)p[0].tid, (int)p[1].tid, (int)p[1].tid,
				       (int)p[2].tid, (int)p[3].tid));
	free(out);
	free(sh(0, "%s export -f ctf -o t.ctf t.timeline", timeline_bin()));
	out = sh(0, "babeltrace2 t.ctf | grep -o 'app.push[a-z]*: { vpid = [0-9]*, vtid = [0-9]*'"
		    " | sed 's/vpid = [0-9]*, //'");
	ck_assert_str_eq(out, test_str("app.push: { vtid = %d\napp.pushed: { vtid = %d\n"
				       "app.push: { vtid = %d\napp.pushed: { vtid = %d\n"
				       "app.push: { vtid = %d\napp.pushed: { vtid = %d\n",
				       (int)p[0].tid, (int)p[0].tid, (int)p[1].tid, (int)p[1].tid,
				       (int)p[2].tid, (int)p[3].tid));
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

static void teardown(void)
{
	test_kept_free();
	test_dir_teardown();
}

Suite *export_suite(void)
{
	Suite *s = suite_create("export");
	TCase *t = tcase_create("export");
	tcase_add_checked_fixture(t, test_dir_setup, teardown);
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_export_usage_errors_exit_2_with_a_reason);
	tcase_add_test(t, test_chrome_span_finds_a_begin_past_the_first_4096_definitions);
	tcase_add_test(t, test_ctf_export_reads_back_in_babeltrace2_with_exact_times_names_and_values);
	tcase_add_test(t, test_ctf_tsc_clock_at_2_5_ghz_shows_each_entrys_wall_time_from_the_anchor);
	tcase_add_test(t, test_ctf_wall_clock_of_two_hosts_shows_each_entrys_wall_time_from_its_own_anchor);
	tcase_add_test(t, test_ctf_merged_export_says_each_events_vpid_procname_and_hostname);
	tcase_add_test(t, test_ctf_of_a_host_name_with_a_quote_and_a_backslash_reads_back);
	tcase_add_test(t, test_ctf_of_the_snabb_fixture_shows_its_ticks_as_nanoseconds);
	tcase_add_test(t, test_chrome_ts_plus_the_origin_is_each_entrys_wall_time);
	tcase_add_test(t, test_chrome_ts_of_the_snabb_fixture_are_its_ticks_as_nanoseconds);
	tcase_add_test(t, test_babeltrace2_merges_two_exports_and_two_streams_in_one_export);
	tcase_add_test(t, test_the_snabb_fixture_exports_to_ctf_with_every_entry);
	tcase_add_test(t, test_chrome_export_has_each_phases_fields_ordered_times_and_nested_spans);
	tcase_add_test(t, test_chrome_span_carries_its_cycles_and_unpaired_ends_are_instants);
	tcase_add_test(t, test_exports_of_a_log_of_two_threads_give_each_its_track_and_vtid);
	tcase_add_test(t, test_event_and_cpu_filters_restrict_exports);
	tcase_add_test(t, test_csv_export_is_dumps_csv_byte_for_byte);
	tcase_add_test(t, test_export_with_a_bad_input_exports_the_rest_and_exits_2);
	suite_add_tcase(s, t);
	return s;
}
