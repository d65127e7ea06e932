/* check_perfetto.c: `timeline export -f perfetto`, read back by protoc
 * against tests/perfetto.proto (Perfetto's field numbers) through
 * tests/perfetto_check.py, which rebuilds the tracks, interned names, clocks
 * and slices as a Perfetto reader does: hand-built logs (nesting, overlap,
 * a wrapped ring, an entry lost while read, two logs of one process as its
 * threads, two hosts) event by event, the Snabb fixture against `dump` and
 * the Chrome export, and bad inputs. */
#define _GNU_SOURCE
#include <check.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "format.h"
#include "util.h"

/* Runs CMD in the test's directory; fails unless it exits WANT. Returns its
 * stdout (the caller frees); *ERR, if not NULL, gets its stderr. */
static char *sh_err(int want, char **err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static char *sh_err(int want, char **err, const char *fmt, ...)
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

/* tests/perfetto_check.py in the source tree, run with ARGS on TRACE. */
static char *check(const char *trace, const char *args)
{
	const char *src = getenv("TIMELINE_SRC");
	return sh_err(0, NULL, "TIMELINE_BIN=%s python3 %s/tests/perfetto_check.py %s %s",
		      timeline_bin(), src && *src ? src : ".", trace, args);
}

static void patch(const char *path, size_t off, const void *p, size_t n)
{
	patch_file(path, (long)off, p, n);
}

/* A log NAME at 1 GHz whose tick T is wall time 1.7e18 + T ns, written by
 * process "proc", pid PID, started at tick 77, on HOST. */
static tl_log *open_log(const char *name, uint64_t entries)
{
	tl_options o = { .entries = entries, .clock = TL_CLOCK_MANUAL, .tsc_hz = 1000000000,
			 .strings_bytes = 4096, .name = name };
	tl_error err;
	char file[64];
	tl_log *log;
	snprintf(file, sizeof file, "%s.timeline", name);
	log = tl_open(path_in(test_dir, file), &o, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	return log;
}

static void set_writer(const char *name, uint32_t pid, const char *host)
{
	char file[64], proc[64] = "proc", h[128] = { 0 };
	uint64_t atsc = 0, areal = 1700000000000000000ull, mono = 5000000000ull, start = 77;
	const char *p;
	snprintf(file, sizeof file, "%s.timeline", name);
	p = path_in(test_dir, file);
	snprintf(h, sizeof h, "%s", host);
	patch(p, offsetof(struct tl_header, pid), &pid, sizeof pid);
	patch(p, offsetof(struct tl_header, process), proc, sizeof proc);
	patch(p, offsetof(struct tl_header, host), h, sizeof h);
	patch(p, offsetof(struct tl_header, start_ticks), &start, 8);
	patch(p, offsetof(struct tl_header, anchor_tsc), &atsc, 8);
	patch(p, offsetof(struct tl_header, anchor_realtime), &areal, 8);
	patch(p, offsetof(struct tl_header, anchor_monotonic), &mono, 8);
}

static void at(tl_log *log, uint64_t tsc, uint16_t id, uint64_t a0, uint64_t a1)
{
	tl_set_manual_clock(log, tsc, 3);
	tl_append(log, id, a0, a1, 0, 0, 0, 0);
}

static const char *const app_defs[] = { "5,5|app.push: inpackets\nPush.",
					"5,5|app.pushed: inpackets\nPushed." };
static const char *const t_defs[] = { "5,5|t.job_begin: id\nA job starts.",
				      "5,5|t.job_end: id\nIt ends.", "5,5|t.mark: x\nA mark." };

/* Log "one", a ring of 16: two marks wrapped away, a breath holding a push
 * and a job that overlaps the push without nesting, a mark, a second
 * breath, marks of which the third (entry 13) is zeroed as if torn. */
static void log_one(uint32_t pid, const char *host)
{
	static const char *const eng[] = { "1,6|engine.breath_start: breath totalpackets\nB.",
					   "1,6|engine.breath_end: breath totalpackets\nE." };
	tl_log *log = open_log("one", 16);
	uint16_t e[2], a[2], t[3];
	unsigned char zero[64] = { 0 };
	ck_assert_int_eq(tl_register(log, eng, 2, NULL, e, NULL), TL_OK);
	ck_assert_int_eq(tl_register(log, app_defs, 2, "app=a", a, NULL), TL_OK);
	ck_assert_int_eq(tl_register(log, t_defs, 3, NULL, t, NULL), TL_OK);
	ck_assert_int_eq(tl_intern(log, "pair|t.job: t.job_begin t.job_end", &(uint16_t){ 0 },
				   NULL), TL_OK);
	at(log, 10, t[2], 0, 0);
	at(log, 20, t[2], 1, 0);
	at(log, 100, e[0], 1, 0);
	at(log, 200, a[0], 0, 0);
	at(log, 300, t[0], 1, 0);
	at(log, 400, a[1], 5, 0);
	at(log, 500, t[2], 42, 0);
	at(log, 600, t[1], 1, 0);
	at(log, 700, e[1], 1, 5);
	at(log, 800, e[0], 2, 5);
	at(log, 900, e[1], 2, 25);
	for (uint64_t x = 11; x <= 17; x++)
		at(log, 1000 + (x - 11) * 100, t[2], x, 0);
	tl_close(log);
	set_writer("one", pid, host);
	patch(path_in(test_dir, "one.timeline"), TL_HEADER_BYTES + 13 * 64, zero, 64);
}

/* Log "two": a push of app b and a mark. */
static void log_two(uint32_t pid, const char *host)
{
	tl_log *log = open_log("two", 16);
	uint16_t a[2], t[3];
	ck_assert_int_eq(tl_register(log, app_defs, 2, "app=b", a, NULL), TL_OK);
	ck_assert_int_eq(tl_register(log, t_defs, 3, NULL, t, NULL), TL_OK);
	at(log, 250, a[0], 0, 0);
	at(log, 350, a[1], 3, 0);
	at(log, 450, t[2], 99, 0);
	tl_close(log);
	set_writer("two", pid, host);
}

/* A log two threads write, one after the other (the clock is the log's):
 * a thread track each with the thread's own tid and name, under the one
 * process, each slice on its thread's track. */
struct pf_thread {
	tl_log *log;
	const uint16_t *id;
	const char *name;
	uint64_t t0;
	pid_t tid;
};

static void *pf_thread_run(void *arg)
{
	struct pf_thread *p = arg;
	p->tid = gettid();
	ck_assert_int_eq(tl_thread_attach(p->log, p->name, NULL), TL_OK);
	at(p->log, p->t0, p->id[0], 4, 0);
	at(p->log, p->t0 + 100, p->id[1], 4, 0);
	return NULL;
}

START_TEST(test_perfetto_threads_of_one_log_are_tracks_of_their_own_tid_and_name)
{
	tl_log *log = open_log("lanes", 16);
	struct pf_thread p[2] = { { .name = "rx", .t0 = 100 }, { .name = "tx", .t0 = 300 } };
	uint16_t id[2];
	char *out;
	ck_assert_int_eq(tl_register(log, app_defs, 2, "app=a", id, NULL), TL_OK);
	for (int k = 0; k < 2; k++) {
		pthread_t th;
		p[k].log = log;
		p[k].id = id;
		ck_assert_int_eq(pthread_create(&th, NULL, pf_thread_run, &p[k]), 0);
		ck_assert_int_eq(pthread_join(th, NULL), 0);
	}
	tl_close(log);
	set_writer("lanes", 7, "alpha");
	free(sh_err(0, NULL, "%s export -f perfetto -o l.pftrace lanes.timeline", timeline_bin()));
	out = check("l.pftrace", "--dump --list");
	ck_assert_str_eq(out, test_str("clock BUILTIN_CLOCK_REALTIME\nslices 2 instants 0 deepest 1\n"
				       "track process 'proc' pid=7\n"
				       "track thread 'rx' pid=7 tid=%d\ntrack thread 'tx' pid=7 tid=%d\n"
				       "rx B +0 app.push a\nrx E +100 inpackets=4\n"
				       "tx B +200 app.push a\ntx E +300 inpackets=4\n",
				       (int)p[0].tid, (int)p[1].tid));
	free(out);
}
END_TEST

/* Two logs of one process are its two threads: one process track, a thread
 * track each (the first the main thread, tid = pid; the second a tid made
 * up past pid_max), slices nested on each thread, the job that overlaps the
 * push without nesting on a track of its own, instants with their
 * arguments, the wrapped ring and the entry lost while read marked where
 * they were, the packets/s counter at the second breath_end; every time the
 * tick in ns on the wall clock, every field one of Perfetto's. */
START_TEST(test_perfetto_threads_nesting_overlap_and_losses_event_by_event)
{
	char *out, *err;
	log_one(4242, "alpha");
	log_two(4242, "alpha");
	free(sh_err(0, &err, "%s export -f perfetto -o t.pftrace one.timeline two.timeline",
		    timeline_bin()));
	ck_assert_str_eq(err, "");
	free(err);
	out = check("t.pftrace", "--list --dump");
	ck_assert_str_eq(out,
		"clock BUILTIN_CLOCK_REALTIME\n"
		"slices 5 instants 8 deepest 2\n"
		"track process 'proc' pid=4242\n"
		"track counter 'one packets/s' unit=packets/s under 'proc'\n"
		"track thread 'one' pid=4242 tid=4242\n"
		"track track 'one overlapping 1' under 'proc'\n"
		"track thread 'two' pid=4242 tid=4198546\n"
		"one I +0 ring wrapped: entries lost lost=2 first_seq=0 last_seq=1\n"
		"one B +0 engine.breath\n"
		"one B +100 app.push a\n"
		"one overlapping 1 B +200 t.job\n"
		"one E +300 inpackets=5\n"
		"one I +400 t.mark x=42\n"
		"one overlapping 1 E +500 id=1\n"
		"one E +600 breath=1 totalpackets=5\n"
		"one B +700 engine.breath\n"
		"one E +800 breath=2 totalpackets=25 [one packets/s]=100000000\n"
		"one I +900 t.mark x=11\n"
		"one I +1000 t.mark x=12\n"
		"one I +1200 entries lost lost=1 first_seq=13 last_seq=13\n"
		"one I +1200 t.mark x=14\n"
		"one I +1300 t.mark x=15\n"
		"one I +1400 t.mark x=16\n"
		"one I +1500 t.mark x=17\n"
		"two B +150 app.push b\n"
		"two E +250 inpackets=3\n"
		"two I +350 t.mark x=99\n");
	free(out);
	/* the first time of all is tick 100 of log one: 1.7e18 + 100 ns */
	out = sh_err(0, NULL, "protoc --decode=perfetto.protos.Trace -I%s/tests perfetto.proto "
		     "< t.pftrace | grep -A2 'clock_id: 64' | head -3",
		     getenv("TIMELINE_SRC") && *getenv("TIMELINE_SRC") ? getenv("TIMELINE_SRC") : ".");
	ck_assert_str_eq(out, "      clock_id: 64\n      timestamp: 1700000000000000100\n"
			      "      is_incremental: true\n");
	free(out);
}
END_TEST

/* The filters and windows of export apply: --event keeps the job (now
 * alone on its thread's track) and the marks, and the ring's losses are
 * said before the first entry kept; --from drops what comes before. */
START_TEST(test_perfetto_takes_the_filters_and_window_of_export)
{
	char *out;
	log_one(4242, "alpha");
	free(sh_err(0, NULL, "%s export -f perfetto -e 't.*' -o t.pftrace one.timeline",
		    timeline_bin()));
	out = check("t.pftrace", "--list");
	ck_assert_str_eq(out,
		"clock BUILTIN_CLOCK_REALTIME\n"
		"slices 1 instants 7 deepest 1\n"
		"track process 'proc' pid=4242\n"
		"track counter 'one packets/s' unit=packets/s under 'proc'\n"
		"track thread 'one' pid=4242 tid=4242\n"
		"one I +0 ring wrapped: entries lost lost=2 first_seq=0 last_seq=1\n"
		"one B +0 t.job\n"
		"one I +200 t.mark x=42\n"
		"one E +300 id=1\n"
		"one I +700 t.mark x=11\n"
		"one I +800 t.mark x=12\n"
		"one I +1000 entries lost lost=1 first_seq=13 last_seq=13\n"
		"one I +1000 t.mark x=14\n"
		"one I +1100 t.mark x=15\n"
		"one I +1200 t.mark x=16\n"
		"one I +1300 t.mark x=17\n");
	free(out);
	free(sh_err(0, NULL, "%s export -f perfetto --from 1350 -o f.pftrace one.timeline",
		    timeline_bin()));
	out = check("f.pftrace", "--list");
	ck_assert_str_eq(out,
		"clock BUILTIN_CLOCK_REALTIME\n"
		"slices 0 instants 2 deepest 0\n"
		"track process 'proc' pid=4242\n"
		"track counter 'one packets/s' unit=packets/s under 'proc'\n"
		"track thread 'one' pid=4242 tid=4242\n"
		"one I +0 ring wrapped: entries lost lost=3 first_seq=0 last_seq=13\n"
		"one I +0 t.mark x=16\n"
		"one I +100 t.mark x=17\n");
	free(out);
}
END_TEST

/* Logs of two hosts: each process named with its host, and the second of
 * the same pid given one of its own past pid_max. */
START_TEST(test_perfetto_names_the_host_when_logs_come_from_two)
{
	char *out;
	log_two(100, "alpha");
	ck_assert_int_eq(rename(path_in(test_dir, "two.timeline"), path_in(test_dir, "a.timeline")), 0);
	log_two(100, "beta");
	free(sh_err(0, NULL, "%s export -f perfetto -o h.pftrace a.timeline two.timeline",
		    timeline_bin()));
	out = check("h.pftrace", "--dump");
	ck_assert_str_eq(out,
		"clock BUILTIN_CLOCK_REALTIME\n"
		"slices 2 instants 2 deepest 1\n"
		"track process 'proc on alpha' pid=100\n"
		"track process 'proc on beta' pid=4194404\n"
		"track thread 'two' pid=100 tid=100\n"
		"track thread 'two' pid=4194404 tid=4194404\n");
	free(out);
}
END_TEST

/* At 2.5 GHz a tick is 0.4 ns: ticks 5, 10 and 1000005 after the anchor
 * are 2, 4 and 400002 ns after it, exactly (the reciprocal the export
 * multiplies by falls short of 0.4, so its answer is corrected up where the
 * division is exact), and 3 ticks are 1.2 ns, 1 ns rounded down as dump
 * does; ticks before the anchor count back from it, as in dump. */
START_TEST(test_perfetto_times_at_2_5_ghz_are_dumps_to_the_nanosecond)
{
	tl_options o = { .entries = 16, .clock = TL_CLOCK_MANUAL, .tsc_hz = 2500000000u,
			 .strings_bytes = 4096, .name = "fast" };
	tl_error err;
	tl_log *log = tl_open(path_in(test_dir, "fast.timeline"), &o, &err);
	uint16_t t[3];
	char *out;
	uint64_t atsc = 1000, areal = 1700000000000000000ull;
	ck_assert_msg(log != NULL, "%s", err.msg);
	ck_assert_int_eq(tl_register(log, t_defs, 3, NULL, t, NULL), TL_OK);
	at(log, 1000 - 7, t[2], 1, 0);
	at(log, 1000 + 3, t[2], 2, 0);
	at(log, 1000 + 5, t[2], 3, 0);
	at(log, 1000 + 10, t[2], 4, 0);
	at(log, 1000 + 1000005, t[2], 5, 0);
	tl_close(log);
	patch(path_in(test_dir, "fast.timeline"), offsetof(struct tl_header, anchor_tsc), &atsc, 8);
	patch(path_in(test_dir, "fast.timeline"), offsetof(struct tl_header, anchor_realtime), &areal, 8);
	free(sh_err(0, NULL, "%s export -f perfetto -o f.pftrace fast.timeline", timeline_bin()));
	out = check("f.pftrace", "--dump --list");
	ck_assert_msg(strstr(out, "fast I +0 t.mark x=1\nfast I +3 t.mark x=2\nfast I +4 t.mark x=3\n"
				  "fast I +6 t.mark x=4\nfast I +400004 t.mark x=5\n") != NULL, "%s", out);
	free(out);
	out = sh_err(0, NULL, "protoc --decode=perfetto.protos.Trace -I%s/tests perfetto.proto "
		     "< f.pftrace | grep -A1 'clock_id: 64' | sed -n 2p",
		     getenv("TIMELINE_SRC") && *getenv("TIMELINE_SRC") ? getenv("TIMELINE_SRC") : ".");
	/* -7 ticks, -2.8 ns: 2 ns counted back from the anchor, as dump does */
	ck_assert_str_eq(out, "      timestamp: 1699999999999999998\n");
	free(out);
}
END_TEST

/* The demo engine's log, every event logged: each entry once, in order,
 * at its wall time to the ns (its calibrated frequency), its name and
 * arguments those of dump, and as many slices and instants as the Chrome
 * export's spans and instants. */
START_TEST(test_perfetto_of_the_demo_engine_agrees_with_dump_and_chrome)
{
	const char *engine = getenv("TIMELINE_ENGINE");
	char *out;
	free(sh_err(0, NULL, "%s --breaths 300 --rate all --workload imix --seed 5 --dir e "
		    "--name imix > /dev/null", engine && *engine ? engine : "build/examples/engine/engine"));
	free(sh_err(0, NULL, "%s export -f perfetto -o e.pftrace e && %s export -f chrome -o e.json e",
		    timeline_bin(), timeline_bin()));
	out = check("e.pftrace", "--dump --chrome e.json");
	ck_assert_msg(strstr(out, "clock BUILTIN_CLOCK_REALTIME\nslices ") == out, "%s", out);
	ck_assert_msg(strstr(out, "\ntrack process 'engine' pid=") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "\ntrack counter 'imix packets/s' unit=packets/s under 'engine'\n"
				  "track thread 'imix' pid=") != NULL, "%s", out);
	free(out);
}
END_TEST

/* At the edges: a log of no entry has its process track and nothing else;
 * an entry stamped before the one written before it (a clock that went
 * back) is written with its whole time on the trace's clock, the next ones
 * again as deltas from the last time of the sequence's clock, each at its
 * own time. */
START_TEST(test_perfetto_of_no_entry_and_of_a_time_that_goes_back)
{
	tl_log *log = open_log("back", 16);
	uint16_t t[3];
	char *out;
	ck_assert_int_eq(tl_register(log, t_defs, 3, NULL, t, NULL), TL_OK);
	tl_close(log);
	set_writer("back", 7, "alpha");
	free(sh_err(0, NULL, "%s export -f perfetto -o e.pftrace back.timeline", timeline_bin()));
	out = check("e.pftrace", "--dump --list");
	ck_assert_str_eq(out, "clock None\nslices 0 instants 0 deepest 0\n"
			      "track process 'proc' pid=7\n");
	free(out);
	log = open_log("back", 16);
	ck_assert_int_eq(tl_register(log, t_defs, 3, NULL, t, NULL), TL_OK);
	at(log, 500, t[2], 1, 0);
	at(log, 300, t[2], 2, 0);
	at(log, 600, t[2], 3, 0);
	at(log, 400, t[2], 4, 0);
	tl_close(log);
	set_writer("back", 7, "alpha");
	free(sh_err(0, NULL, "%s export -f perfetto -o b.pftrace back.timeline", timeline_bin()));
	out = check("b.pftrace", "--dump --list");
	ck_assert_str_eq(out, "clock BUILTIN_CLOCK_REALTIME\nslices 0 instants 4 deepest 0\n"
			      "track process 'proc' pid=7\ntrack thread 'back' pid=7 tid=7\n"
			      "back I +200 t.mark x=1\nback I +0 t.mark x=2\n"
			      "back I +300 t.mark x=3\nback I +100 t.mark x=4\n");
	free(out);
	out = sh_err(0, NULL, "protoc --decode=perfetto.protos.Trace -I%s/tests perfetto.proto "
		     "< b.pftrace | grep -c 'timestamp_clock_id: 1$'",
		     getenv("TIMELINE_SRC") && *getenv("TIMELINE_SRC") ? getenv("TIMELINE_SRC") : ".");
	ck_assert_str_eq(out, "2\n");
	free(out);
}
END_TEST

static char *fixture(void)
{
	const char *f = getenv("TIMELINE_FIXTURES");
	return xasprintf("%s/snabb-v3/engine-short.events.timeline.zst", f && *f ? f : "tests/fixtures");
}

/* The Snabb fixture: every entry once, in order, at its tick taken as ns
 * (no clock anchor), each instant's name and arguments and each end's
 * arguments those of dump; as many slices and instants as the Chrome
 * export has spans and instants; the note on stderr. */
START_TEST(test_perfetto_of_the_snabb_fixture_agrees_with_dump_and_chrome)
{
	char *fx = fixture(), *out, *err, *want;
	free(sh_err(0, &err, "%s export -f perfetto -o s.pftrace %s", timeline_bin(), fx));
	ck_assert_str_eq(err, "timeline export: note: a log has no clock anchor (a Snabb file); "
			      "timestamps are TSC ticks shown as nanoseconds\n");
	free(err);
	free(sh_err(0, NULL, "%s export -f chrome -o s.json %s 2>/dev/null", timeline_bin(), fx));
	out = check("s.pftrace", "--dump --chrome s.json");
	want = xasprintf("clock BUILTIN_CLOCK_BOOTTIME\n"
			 "slices 992 instants 593 deepest 2\n"
			 "track process '%s' pid=4194304\n"
			 "track counter 'snabb packets/Gcycle' unit=packets/Gcycle under '%s'\n"
			 "track thread 'snabb' pid=4194304 tid=4194304\n", fx, fx);
	ck_assert_str_eq(out, want);
	free(out);
	free(want);
	free(fx);
}
END_TEST

/* A file that is no log, and one cut short: one line each, exit 2, and the
 * good log between them still exported. */
START_TEST(test_perfetto_of_bad_inputs_says_one_line_each_and_goes_on)
{
	char *err, *out, *want;
	log_two(100, "alpha");
	write_file(path_in(test_dir, "junk.timeline"), "not a log at all, not one", 25);
	out = sh_err(0, NULL, "head -c 5000 two.timeline > cut.timeline && echo ok");
	free(out);
	free(sh_err(2, &err, "%s export -f perfetto -o b.pftrace junk.timeline two.timeline "
		    "cut.timeline", timeline_bin()));
	want = xasprintf("timeline export: junk.timeline: not a timeline log (25 bytes, shorter "
			 "than a header)\ntimeline export: cut.timeline: truncated: header says %zu bytes, "
			 "file has 5000\n", (size_t)(TL_HEADER_BYTES + 16 * 64 + 4096));
	ck_assert_str_eq(err, want);
	free(want);
	free(err);
	out = check("b.pftrace", "--dump");
	ck_assert_str_eq(out, "clock BUILTIN_CLOCK_REALTIME\n"
			      "slices 1 instants 1 deepest 1\n"
			      "track process 'proc' pid=100\n"
			      "track thread 'two' pid=100 tid=100\n");
	free(out);
	/* -o into a directory that is not there: one line, exit 2 */
	free(sh_err(2, &err, "%s export -f perfetto -o no/such/x.pftrace two.timeline", timeline_bin()));
	ck_assert_str_eq(err, "timeline export: no/such/x.pftrace: No such file or directory\n");
	free(err);
}
END_TEST

Suite *perfetto_suite(void)
{
	Suite *s = suite_create("perfetto");
	TCase *tc = tcase_create("perfetto");
	tcase_add_checked_fixture(tc, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_perfetto_threads_nesting_overlap_and_losses_event_by_event);
	tcase_add_test(tc, test_perfetto_threads_of_one_log_are_tracks_of_their_own_tid_and_name);
	tcase_add_test(tc, test_perfetto_takes_the_filters_and_window_of_export);
	tcase_add_test(tc, test_perfetto_names_the_host_when_logs_come_from_two);
	tcase_add_test(tc, test_perfetto_times_at_2_5_ghz_are_dumps_to_the_nanosecond);
	tcase_add_test(tc, test_perfetto_of_the_demo_engine_agrees_with_dump_and_chrome);
	tcase_add_test(tc, test_perfetto_of_no_entry_and_of_a_time_that_goes_back);
	tcase_add_test(tc, test_perfetto_of_the_snabb_fixture_agrees_with_dump_and_chrome);
	tcase_add_test(tc, test_perfetto_of_bad_inputs_says_one_line_each_and_goes_on);
	suite_add_tcase(s, tc);
	return s;
}
