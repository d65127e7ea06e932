/* check_live.c: the commands that work on many logs or on logs still being
 * written, run as a user runs them: `timeline merge` (k-way merge by TSC or
 * wall clock), `timeline ls` (logs under roots, alive or not), `timeline
 * copy` (consistent snapshots of live logs, plain or zstd, trees) and
 * `timeline rate` (the sampling rate shown or set in a running process). */
#define _GNU_SOURCE
#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "util.h"
#include "../lib/format.h"

/* Each test gets a fresh DIR inside BASE; the runner removes BASE after each
 * test case, so a failed test (whose checked teardown does not run) leaves
 * nothing behind either. */
#define base fx_base   /* the shared fixture of tests/util.c */
#define dir fx_dir

/* Strings made with S(), freed at teardown. */
static char **owned;
static size_t nowned;


static void teardown(void)
{
	rm_rf(dir);
	free(dir);
	for (size_t i = 0; i < nowned; i++)
		free(owned[i]);
	free(owned);
	owned = NULL;
	nowned = 0;
}

/* A formatted string that lives until the end of the test. */
static const char *S(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *S(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	ck_assert_int_ge(n, 0);
	if (!(owned = realloc(owned, (nowned + 1) * sizeof *owned)))
		abort();
	owned[nowned++] = s;
	return s;
}

/* DIR/NAME. */
static const char *P(const char *name) { return S("%s/%s", dir, name); }

/* Takes ownership of a malloc'd string (from run()) until the end of the test. */
static const char *own(char *s)
{
	if (!(owned = realloc(owned, (nowned + 1) * sizeof *owned)))
		abort();
	owned[nowned++] = s;
	return s;
}

/* The result of one command. */
struct res {
	int rc;
	const char *out, *err;
};

/* Runs the built program with ARGS (shell words) in DIR. */
static struct res tl(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static struct res tl(const char *fmt, ...)
{
	va_list ap;
	char *args, *out, *err;
	struct res r;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&args, fmt, ap), 0);
	va_end(ap);
	r.rc = run(S("cd '%s' && '%s' %s", dir, timeline_bin(), args), &out, &err);
	free(args);
	r.out = own(out);
	r.err = own(err);
	return r;
}

/* Runs the shell command CMD (formatted) in DIR. */
static struct res sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static struct res sh(const char *fmt, ...)
{
	va_list ap;
	char *cmd, *out, *err;
	struct res r;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&cmd, fmt, ap), 0);
	va_end(ap);
	r.rc = run(S("cd '%s' && %s", dir, cmd), &out, &err);
	free(cmd);
	r.out = own(out);
	r.err = own(err);
	return r;
}

/* The command succeeded silently on stderr; returns its stdout. */
#define OK(r) ok_((r), __LINE__)
static const char *ok_(struct res r, int line)
{
	ck_assert_msg(r.rc == 0 && !strcmp(r.err, ""), "line %d: exit %d, stderr: %s", line, r.rc,
		      r.err);
	return r.out;
}

static void mkdirs(const char *path)
{
	char *p = strdup(path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		ck_assert_msg(mkdir(p, 0700) == 0 || errno == EEXIST, "mkdir %s: %s", p, strerror(errno));
		*s = '/';
	}
	ck_assert_msg(mkdir(p, 0700) == 0 || errno == EEXIST, "mkdir %s: %s", p, strerror(errno));
	free(p);
}

static const char *fixture(void)
{
	const char *f = getenv("TIMELINE_FIXTURES");
	return S("%s/snabb-v3/engine-short.events.timeline.zst", f && *f ? f : "tests/fixtures");
}

/* Decompresses the Snabb fixture to PATH (65,000,064 bytes, 2,577 entries). */
static void snabb_at(const char *path)
{
	ck_assert_uint_eq(unzstd(fixture(), path), 65000064);
}

/* The name the test program's logs carry as their process. */
static const char *self_name(void) { return program_invocation_short_name; }

/* ------------------------------------------------------------------------
 * Writing logs
 * ------------------------------------------------------------------------ */

#define TICK "0,9|live.tick: n\nOne numbered tick."
#define PAIR "0,9|live.pair app=x: a b\nTwo values, with an attribute."

/* One entry to write: timestamp, cpu/node word, event (0 tick, 1 pair), args. */
struct ent {
	uint64_t tsc;
	uint16_t aux;
	int pair;
	uint64_t a, b;
};

#define AUX(cpu, numa) ((uint16_t)((cpu) | (numa) << 12))

static tl_log *open_log(const char *path, uint64_t entries)
{
	tl_options o = { .entries = entries, .clock = TL_CLOCK_MANUAL, .tsc_hz = 1000000000,
			 .strings_bytes = 4096, .name = "test" };
	return tl_open(path, &o, NULL);
}

/* Writes the N entries V into LOG; returns 0, or -1 if interning failed. */
static int put_entries(tl_log *log, const struct ent *v, size_t n)
{
	uint16_t tick, pair;
	if (tl_intern(log, TICK, &tick, NULL) != TL_OK || tl_intern(log, PAIR, &pair, NULL) != TL_OK)
		return -1;
	for (size_t i = 0; i < n; i++) {
		tl_set_manual_clock(log, v[i].tsc, v[i].aux);
		tl_append(log, v[i].pair ? pair : tick, v[i].a, v[i].pair ? v[i].b : 0, 0, 0, 0, 0);
	}
	return 0;
}

/* Writes a log of ENTRIES slots at PATH holding V, from this process. */
static void log_here(const char *path, uint64_t entries, const struct ent *v, size_t n)
{
	tl_log *log = open_log(path, entries);
	ck_assert_msg(log != NULL, "cannot create %s", path);
	ck_assert_int_eq(put_entries(log, v, n), 0);
	tl_close(log);
}

/* The same from a child process, which then exits; returns its (dead) pid. */
static pid_t log_in_child(const char *path, uint64_t entries, const struct ent *v, size_t n)
{
	int st;
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		tl_log *log = open_log(path, entries);
		if (!log || put_entries(log, v, n))
			_exit(1);
		tl_close(log);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child writing %s failed", path);
	return pid;
}

/* Overwrites bytes of a log's header, as another host's log would have them. */
static void patch(const char *path, off_t off, const void *p, size_t len)
{
	int fd = open(path, O_WRONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, p, len, off), (ssize_t)len);
	ck_assert_int_eq(close(fd), 0);
}

static void patch_u64(const char *path, off_t off, uint64_t v)
{
	unsigned char b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	patch(path, off, b, 8);
}

static void patch_host(const char *path, const char *host)
{
	char b[128] = { 0 };
	strncpy(b, host, sizeof b - 1);
	patch(path, 256, b, sizeof b);
}

/* anchor_tsc (136), anchor_realtime (144), anchor_monotonic (152). */
static void patch_anchor(const char *path, uint64_t tsc, uint64_t real, uint64_t mono)
{
	patch_u64(path, 136, tsc);
	patch_u64(path, 144, real);
	patch_u64(path, 152, mono);
}

/* ------------------------------------------------------------------------
 * merge
 * ------------------------------------------------------------------------ */

/* Three logs from three processes, timestamps interleaved across files. */
static const struct ent merge_a[] = {   /* cpu 1, node 0 */
	{ 100, AUX(1, 0), 0, 11, 0 }, { 400, AUX(1, 0), 0, 12, 0 },
	{ 401, AUX(1, 0), 0, 13, 0 }, { 900, AUX(1, 0), 0, 14, 0 },
};
static const struct ent merge_b[] = {   /* cpu 2, node 1; one pair event */
	{ 150, AUX(2, 1), 0, 21, 0 }, { 300, AUX(2, 1), 1, 22, 220 }, { 950, AUX(2, 1), 0, 23, 0 },
};
static const struct ent merge_c[] = {   /* cpu 3, node 0 */
	{ 50, AUX(3, 0), 0, 31, 0 }, { 500, AUX(3, 0), 0, 32, 0 },
	{ 600, AUX(3, 0), 0, 33, 0 }, { 700, AUX(3, 0), 0, 34, 0 },
};

/* The expected merge of a.timeline, b.timeline, c.timeline: file, entry. */
struct step {
	int file;                    /* 0 a, 1 b, 2 c */
	const struct ent *e;
};
static const struct step merged[] = {
	{ 2, &merge_c[0] }, { 0, &merge_a[0] }, { 1, &merge_b[0] }, { 1, &merge_b[1] },
	{ 0, &merge_a[1] }, { 0, &merge_a[2] }, { 2, &merge_c[1] }, { 2, &merge_c[2] },
	{ 2, &merge_c[3] }, { 0, &merge_a[3] }, { 1, &merge_b[2] },
};
#define NMERGED (sizeof merged / sizeof merged[0])

static pid_t merge_pids[3];

static void three_processes(void)
{
	merge_pids[0] = log_in_child(P("a.timeline"), 64, merge_a, 4);
	merge_pids[1] = log_in_child(P("b.timeline"), 64, merge_b, 3);
	merge_pids[2] = log_in_child(P("c.timeline"), 64, merge_c, 4);
}

/* The text line of one merged entry: "process[pid] time cpu numa  event args". */
static const char *text_line(const char *label, uint64_t t, const struct ent *e)
{
	if (e->pair)
		return S("%s %14llu%4u%3u  live.pair app=x a=%llu b=%llu\n", label,
			 (unsigned long long)t, e->aux & 0xfff, e->aux >> 12, (unsigned long long)e->a,
			 (unsigned long long)e->b);
	return S("%s %14llu%4u%3u  live.tick n=%llu\n", label, (unsigned long long)t,
		 e->aux & 0xfff, e->aux >> 12, (unsigned long long)e->a);
}

/* The text of the merged steps KEEP selects (all when NULL), at most LIMIT
 * lines (0: all); time counts in cycles from the first entry, tsc 50. */
static const char *merged_text(int (*keep)(const struct step *), size_t limit)
{
	const char *s = "";
	size_t lines = 0;
	for (size_t i = 0; i < NMERGED && (!limit || lines < limit); i++) {
		const struct step *m = &merged[i];
		if (keep && !keep(m))
			continue;
		s = S("%s%s", s, text_line(S("%s[%d]", self_name(), (int)merge_pids[m->file]),
					   m->e->tsc - 50, m->e));
		lines++;
	}
	return s;
}

START_TEST(test_merge_orders_three_processes_logs_by_tsc_exactly)
{
	three_processes();
	ck_assert_str_eq(OK(tl("merge a.timeline b.timeline c.timeline")), merged_text(NULL, 0));
	/* the order of the inputs does not change the order of the entries */
	ck_assert_str_eq(OK(tl("merge c.timeline a.timeline b.timeline")), merged_text(NULL, 0));
}
END_TEST

START_TEST(test_merge_of_a_directory_merges_every_log_in_it)
{
	const char *want;
	mkdirs(P("logs"));
	merge_pids[0] = log_in_child(P("logs/a.timeline"), 64, merge_a, 4);
	merge_pids[1] = log_in_child(P("logs/b.timeline"), 64, merge_b, 3);
	merge_pids[2] = log_in_child(P("logs/c.timeline"), 64, merge_c, 4);
	want = merged_text(NULL, 0);
	ck_assert_str_eq(OK(tl("merge logs")), want);
}
END_TEST

START_TEST(test_merge_with_equal_timestamps_keeps_input_order)
{
	const struct ent z[] = { { 100, 0, 0, 1, 0 }, { 100, 0, 0, 2, 0 }, { 200, 0, 0, 3, 0 } };
	const struct ent a[] = { { 100, 0, 0, 4, 0 }, { 100, 0, 0, 5, 0 }, { 200, 0, 0, 6, 0 } };
	const struct ent m[] = { { 100, 0, 0, 7, 0 }, { 100, 0, 0, 8, 0 }, { 200, 0, 0, 9, 0 } };
	const char *label = S("%s[%d]", self_name(), (int)getpid()), *want = "";
	static const int order[] = { 1, 2, 4, 5, 7, 8, 3, 6, 9 };   /* z z a a m m z a m */
	log_here(P("z.timeline"), 64, z, 3);
	log_here(P("a.timeline"), 64, a, 3);
	log_here(P("m.timeline"), 64, m, 3);
	for (int i = 0; i < 9; i++) {
		struct ent e = { order[i] % 3 ? 100 : 200, 0, 0, (uint64_t)order[i], 0 };
		want = S("%s%s", want, text_line(label, e.tsc - 100, &e));
	}
	ck_assert_str_eq(OK(tl("merge z.timeline a.timeline m.timeline")), want);
}
END_TEST

/* Log A and log B with anchors R + 0 and R + 250 ns, TSCs 7e12 apart:
 * by wall clock their entries interleave; by TSC all of A comes first. The
 * argument of every entry is its wall time minus R. */
#define WALL_R 1700000000000000000ull   /* 2023-11-14T22:13:20Z */
static const struct ent wall_a[] = {
	{ 1001000, 0, 0, 1000, 0 }, { 1003000, 0, 0, 3000, 0 }, { 1005000, 0, 0, 5000, 0 },
};
static const struct ent wall_b[] = {
	{ 7000000000500, AUX(4, 1), 0, 750, 0 }, { 7000000002500, AUX(4, 1), 0, 2750, 0 },
	{ 7000000004500, AUX(4, 1), 0, 4750, 0 }, { 7000000006500, AUX(4, 1), 0, 6750, 0 },
};

/* Writes A and B with anchors: A (1e6, R, 5 s), B (7e12, R + 250, BMONO). */
static void two_anchored_logs(uint64_t bmono)
{
	log_here(P("a.timeline"), 64, wall_a, 3);
	log_here(P("b.timeline"), 64, wall_b, 4);
	patch_anchor(P("a.timeline"), 1000000, WALL_R, 5000000000ull);
	patch_anchor(P("b.timeline"), 7000000000000ull, WALL_R + 250, bmono);
}

/* The merge by wall clock: B A B A B A B; TIME "wall" or "ns". */
static const char *by_wall(const char *time)
{
	static const struct { int b; int k; } seq[] = {
		{ 1, 0 }, { 0, 0 }, { 1, 1 }, { 0, 1 }, { 1, 2 }, { 0, 2 }, { 1, 3 },
	};
	const char *label = S("%s[%d]", self_name(), (int)getpid()), *want = "";
	for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
		const struct ent *e = seq[i].b ? &wall_b[seq[i].k] : &wall_a[seq[i].k];
		if (!strcmp(time, "wall"))
			want = S("%s%s 2023-11-14T22:13:20.%09lluZ%4u%3u  live.tick n=%llu\n", want, label,
				 (unsigned long long)e->a, e->aux & 0xfff, e->aux >> 12,
				 (unsigned long long)e->a);
		else
			want = S("%s%s", want, text_line(label, e->a - 750, e));
	}
	return want;
}

START_TEST(test_merge_of_two_hosts_orders_by_wall_clock_not_tsc)
{
	two_anchored_logs(9000000000ull);
	patch_host(P("a.timeline"), "alpha.example");
	patch_host(P("b.timeline"), "beta.example");
	ck_assert_str_eq(OK(tl("merge --time wall a.timeline b.timeline")), by_wall("wall"));
	ck_assert_str_eq(OK(tl("merge --time ns a.timeline b.timeline")), by_wall("ns"));
	ck_assert_str_eq(OK(tl("merge --time ns b.timeline a.timeline")), by_wall("ns"));
}
END_TEST

START_TEST(test_merge_of_two_boots_of_one_host_orders_by_wall_clock)
{
	/* realtime - monotonic differs by two hours: another boot */
	two_anchored_logs(5000000000ull + 250 + 7200000000000ull);
	ck_assert_str_eq(OK(tl("merge --time wall a.timeline b.timeline")), by_wall("wall"));
}
END_TEST

START_TEST(test_merge_of_one_host_and_boot_orders_by_tsc_even_when_walls_interleave)
{
	const char *label = S("%s[%d]", self_name(), (int)getpid()), *want = "";
	/* realtime - monotonic equal: one boot; the TSC orders, all of A first */
	two_anchored_logs(5000000000ull + 250);
	for (int i = 0; i < 3; i++)
		want = S("%s%s", want, text_line(label, wall_a[i].tsc - 1001000, &wall_a[i]));
	for (int i = 0; i < 4; i++)
		want = S("%s%s", want, text_line(label, wall_b[i].tsc - 1001000, &wall_b[i]));
	ck_assert_str_eq(OK(tl("merge a.timeline b.timeline")), want);
}
END_TEST

START_TEST(test_merge_with_a_snabb_log_merges_by_tsc_with_one_warning_line)
{
	const char *snabb = P("events.timeline"), *want = "";
	uint64_t t[3] = { 0, 0, 0 }, k = 0;
	tl_error err;
	tl_reader *r;
	tl_entry e;
	struct res res;
	snabb_at(snabb);
	r = tl_reader_open(snabb, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	ck_assert_uint_eq(tl_reader_rewind(r), 2577);
	while (tl_reader_next(r, &e)) {
		if (k == 0)
			t[0] = e.tsc;
		if (k == 1)
			t[1] = e.tsc;
		t[2] = e.tsc;
		k++;
	}
	tl_reader_close(r);
	ck_assert_uint_eq(k, 2577);
	ck_assert_uint_gt(t[1], t[0] + 1);
	{
		/* one entry before the first Snabb entry, one between its first two,
		 * one after its last */
		const struct ent mine[] = { { t[0] - 1, 0, 0, 1, 0 }, { (t[0] + t[1]) / 2, 0, 0, 2, 0 },
					    { t[2] + 1, 0, 0, 3, 0 } };
		log_here(P("mine.timeline"), 64, mine, 3);
	}
	want = "mine.timeline 0\nevents.timeline 0\nmine.timeline 1\n";
	for (int s = 1; s < 2577; s++)
		want = S("%sevents.timeline %d\n", want, s);
	want = S("%smine.timeline 2\n", want);
	res = sh("'%s' merge -f json mine.timeline events.timeline | jq -r '\"\\(.file) \\(.seq)\"'",
		 timeline_bin());
	ck_assert_int_eq(res.rc, 0);
	ck_assert_str_eq(res.out, want);
	ck_assert_str_eq(res.err,
			 "timeline merge: warning: Snabb logs have no clock anchor; merging by TSC\n");
	/* the warning is the only thing on stderr, and the exit status is 0 */
	res = tl("merge --limit 2 mine.timeline events.timeline");
	ck_assert_int_eq(res.rc, 0);
	ck_assert_str_eq(res.err,
			 "timeline merge: warning: Snabb logs have no clock anchor; merging by TSC\n");
	ck_assert_str_eq(res.out, S("%s[%d] %14d%4d%3d  live.tick n=1\n"
				    "events.timeline %14d%4d%3d  engine.config_actions_computed\n",
				    self_name(), (int)getpid(), 0, 0, 0, 1, 1, 0));
}
END_TEST

START_TEST(test_merge_limit_stops_after_n_merged_entries)
{
	three_processes();
	ck_assert_str_eq(OK(tl("merge --limit 4 a.timeline b.timeline c.timeline")),
			 merged_text(NULL, 4));
	ck_assert_str_eq(OK(tl("merge -l 1 a.timeline b.timeline c.timeline")), merged_text(NULL, 1));
	ck_assert_str_eq(OK(tl("merge --limit 100 a.timeline b.timeline c.timeline")),
			 merged_text(NULL, 0));
}
END_TEST

static int on_cpu_1_or_3(const struct step *m) { return (m->e->aux & 0xfff) != 2; }
static int on_node_1(const struct step *m) { return m->e->aux >> 12 == 1; }
static int is_pair(const struct step *m) { return m->e->pair; }
static int is_tick(const struct step *m) { return !m->e->pair; }
static int from_100_to_550(const struct step *m) { return m->e->tsc >= 150 && m->e->tsc <= 600; }
static int on_cpu_2(const struct step *m) { return (m->e->aux & 0xfff) == 2; }

START_TEST(test_merge_filters_like_dump)
{
	three_processes();
	ck_assert_str_eq(OK(tl("merge --cpu 1,3 a.timeline b.timeline c.timeline")),
			 merged_text(on_cpu_1_or_3, 0));
	ck_assert_str_eq(OK(tl("merge --numa 1 a.timeline b.timeline c.timeline")),
			 merged_text(on_node_1, 0));
	ck_assert_str_eq(OK(tl("merge --event 'live.p*' a.timeline b.timeline c.timeline")),
			 merged_text(is_pair, 0));
	ck_assert_str_eq(OK(tl("merge -e live.tick a.timeline b.timeline c.timeline")),
			 merged_text(is_tick, 0));
	/* --from and --to in cycles since the first merged entry (tsc 50) */
	ck_assert_str_eq(OK(tl("merge --from 100 --to 550 a.timeline b.timeline c.timeline")),
			 merged_text(from_100_to_550, 0));
	/* --limit counts the lines the filters keep */
	ck_assert_str_eq(OK(tl("merge --cpu 2 --limit 2 a.timeline b.timeline c.timeline")),
			 merged_text(on_cpu_2, 2));
}
END_TEST

/* Two logs whose names need quoting, for the CSV and JSON tests. */
#define CSV_1 "a,1.timeline"
#define CSV_2 "b \"2\".timeline"
static void quoted_names(void)
{
	const struct ent one[] = { { 10, AUX(5, 2), 0, 7, 0 }, { 30, 0, 1, 8, 9 } };
	const struct ent two[] = { { 20, 0, 0, 1, 0 } };
	log_here(P(CSV_1), 64, one, 2);
	log_here(P(CSV_2), 64, two, 1);
}

/* Collects parsed CSV fields, one row per line. */
struct table {
	char *rows[16][16];
	int nrows, nfields[16];
};

static void csv_field(void *s, size_t len, void *arg)
{
	struct table *t = arg;
	ck_assert_int_lt(t->nrows, 16);
	ck_assert_int_lt(t->nfields[t->nrows], 17);
	t->rows[t->nrows][t->nfields[t->nrows]++] = strndup(s, len);
}

static void csv_row(int c, void *arg)
{
	struct table *t = arg;
	(void)c;
	t->nrows++;
}

START_TEST(test_merge_csv_parses_back_with_quoted_file_names)
{
	static const char *const want[4][16] = {
		{ "file", "seq", "tsc", "time", "cpu", "numa", "event", "attrs", "arg0", "arg1", "arg2",
		  "arg3", "arg4", "arg5", "argnames", "thread" },
		{ CSV_1, "0", "10", "0", "5", "2", "live.tick", "", "7", "0", "0", "0", "0", "0", "n",
		  "0" },
		{ CSV_2, "0", "20", "10", "0", "0", "live.tick", "", "1", "0", "0", "0", "0", "0", "n",
		  "0" },
		{ CSV_1, "1", "30", "20", "0", "0", "live.pair", "app=x", "8", "9", "0", "0", "0", "0",
		  "a b", "0" },
	};
	struct csv_parser p;
	struct table t;
	const char *out;
	quoted_names();
	out = OK(tl("merge --format csv '" CSV_1 "' '" CSV_2 "'"));
	memset(&t, 0, sizeof t);
	ck_assert_int_eq(csv_init(&p, CSV_STRICT | CSV_STRICT_FINI), 0);
	ck_assert_uint_eq(csv_parse(&p, out, strlen(out), csv_field, csv_row, &t), strlen(out));
	ck_assert_int_eq(csv_fini(&p, csv_field, csv_row, &t), 0);
	csv_free(&p);
	ck_assert_int_eq(t.nrows, 4);
	for (int r = 0; r < 4; r++) {
		ck_assert_int_eq(t.nfields[r], 16);
		for (int f = 0; f < 16; f++) {
			ck_assert_msg(!strcmp(t.rows[r][f], want[r][f]), "row %d field %d: '%s', want '%s'",
				      r, f, t.rows[r][f], want[r][f]);
			free(t.rows[r][f]);
		}
	}
}
END_TEST

START_TEST(test_merge_json_parses_back_through_jq)
{
	struct res r;
	quoted_names();
	r = sh("'%s' merge -f json '" CSV_1 "' '" CSV_2 "' | jq -r '[.file, .seq, .tsc, .time, .cpu, "
	       ".numa, .event, .attrs, (.args | tojson)] | @tsv'", timeline_bin());
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.err, "");
	ck_assert_str_eq(r.out, CSV_1 "\t0\t10\t0\t5\t2\tlive.tick\t\t{\"n\":7}\n"
				CSV_2 "\t0\t20\t10\t0\t0\tlive.tick\t\t{\"n\":1}\n"
				CSV_1 "\t1\t30\t20\t0\t0\tlive.pair\tapp=x\t{\"a\":8,\"b\":9}\n");
	/* and --time wall gives every line a wall-clock string jq can read */
	patch_anchor(P(CSV_1), 0, WALL_R, 5000000000ull);
	patch_anchor(P(CSV_2), 0, WALL_R, 5000000000ull);
	r = sh("'%s' merge -f json -t wall '" CSV_1 "' '" CSV_2 "' | jq -r '.time'", timeline_bin());
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "2023-11-14T22:13:20.000000010Z\n2023-11-14T22:13:20.000000020Z\n"
				"2023-11-14T22:13:20.000000030Z\n");
}
END_TEST

START_TEST(test_merge_with_bad_inputs_merges_the_good_ones_and_exits_2)
{
	const char *label = S("%s[%d]", self_name(), (int)getpid()), *want = "";
	const char junk[] = "this is text, not a timeline log\n";
	struct res r;
	log_here(P("a.timeline"), 64, merge_a, 4);
	log_here(P("c.timeline"), 64, merge_c, 4);
	write_file(P("junk.txt"), junk, strlen(junk));
	log_here(P("cut.timeline"), 64, merge_b, 3);
	ck_assert_int_eq(truncate(P("cut.timeline"), 8192), 0);
	for (size_t i = 0; i < NMERGED; i++)
		if (merged[i].file != 1)
			want = S("%s%s", want, text_line(label, merged[i].e->tsc - 50, merged[i].e));
	r = tl("merge a.timeline missing.timeline junk.txt cut.timeline c.timeline");
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.out, want);
	ck_assert_str_eq(r.err, "timeline merge: missing.timeline: No such file or directory\n"
				"timeline merge: junk.txt: not a timeline log (33 bytes, shorter than a header)\n"
				"timeline merge: cut.timeline: truncated: header says 12288 bytes, file has 8192\n");
}
END_TEST

START_TEST(test_merge_without_inputs_is_a_usage_error)
{
	struct res r = tl("merge");
	struct res h = tl("merge --help");
	ck_assert_int_eq(h.rc, 0);
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, S("timeline merge: missing input\nsee 'timeline merge --help'\n"));
	r = tl("merge --limit many a.timeline");
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.err, S("timeline merge: --limit takes a whole number\nsee 'timeline merge --help'\n"));
}
END_TEST

/* ------------------------------------------------------------------------
 * ls
 * ------------------------------------------------------------------------ */

static void info_of(const char *path, tl_info *i)
{
	*i = info_at(path);
}

/* The size of the file at PATH. */
static uint64_t size_of(const char *path)
{
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	return (uint64_t)st.st_size;
}

/* The rows of `timeline ls` text output OUT, after its header line, whose
 * words must be the column names. */
static const char *ls_rows(const char *out)
{
	const char *nl = strchr(out, '\n');
	char words[128] = "";
	ck_assert_msg(nl != NULL, "no header line in: %s", out);
	ck_assert_uint_lt((size_t)(nl - out), 100);
	for (const char *p = out; p < nl;) {
		size_t n;
		while (p < nl && *p == ' ')
			p++;
		n = strcspn(p, " \n");
		if (!n)
			break;
		strncat(words, p, n);
		strcat(words, " ");
		p += n;
	}
	ck_assert_str_eq(words, "PID ALIVE WRITTEN SIZE RATE CLOCK PROCESS FS PATH ");
	return nl + 1;
}

/* The file system of PATH as ls and info name it, from statfs(2)'s magic
 * number: tmpfs where most tests run their logs, ext4 and the others a
 * machine's TMPDIR may be on. */
static const char *fs_of(const char *path)
{
	struct statfs s;
	ck_assert_int_eq(statfs(path, &s), 0);
	switch ((unsigned long)s.f_type) {
	case 0x01021994: return "tmpfs";
	case 0xef53: return "ext4";
	case 0x58465342: return "xfs";
	case 0x9123683e: return "btrfs";
	case 0x794c7630: return "overlay";
	}
	return S("0x%lx", (unsigned long)s.f_type);
}

/* One `timeline ls` text line; ALIVE is "yes", "yes?" (the pid alone) or "no". */
static const char *ls_line_clock(unsigned pid, const char *alive, unsigned long long written,
				 const char *rate, const char *clock, const char *process,
				 const char *path)
{
	return S("%7u %-5s%12llu%9s %-9s%-21s%-16s %-8s %s\n", pid, alive, written,
		 own(disk_word(P(path), NULL)), rate, clock, process, fs_of(P(path)), path);
}

/* The same for a log of open_log(), whose clock is the manual one. */
static const char *ls_line(unsigned pid, const char *alive, unsigned long long written,
			   const char *rate, const char *process, const char *path)
{
	return ls_line_clock(pid, alive, written, rate, "manual", process, path);
}

/* What ls prints after its rows when one said "yes?". */
#define LS_PID_ONLY                                                                       \
	"yes?: the pid runs, but the log does not say when its writer started (format 1.0, " \
	"Snabb): it may be another process\n"

/* ROOT with: a Snabb log at ROOT/<our pid>/events.timeline, a log written by
 * a child that exited (37 entries, rate 7 fixed), and three logs of ours:
 * 5 entries at the default rate, 4100 entries in a ring of 1024 with rate 4
 * fixed, and none with the rate off, whose clock is the unordered source
 * where the host has it, else monotonic (ls_off_clock). Our logs stay open. */
static tl_log *ls_logs[3];
static pid_t ls_dead;
static const char *ls_off_clock;

static void ls_root(void)
{
	struct ent e[4100];
	pid_t pid;
	int st;
	mkdirs(P("root/logs"));
	mkdirs(S("%s/root/%d", dir, (int)getpid()));
	snabb_at(S("%s/root/%d/events.timeline", dir, (int)getpid()));
	write_file(P("root/logs/notes.txt"), "not a log\n", 10);
	for (int i = 0; i < 4100; i++)
		e[i] = (struct ent){ (uint64_t)i, 0, 0, (uint64_t)i, 0 };
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		tl_log *log = open_log(P("root/logs/dead.timeline"), 64);
		if (!log || put_entries(log, e, 37) || tl_set_rate(log, 7) != TL_OK)
			_exit(1);
		_exit(0);   /* without tl_close: the process just ends */
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ls_dead = pid;
	ck_assert_ptr_nonnull(ls_logs[0] = open_log(P("root/logs/self-auto.timeline"), 64));
	ck_assert_int_eq(put_entries(ls_logs[0], e, 5), 0);
	ck_assert_ptr_nonnull(ls_logs[1] = open_log(P("root/logs/self-fixed.timeline"), 1024));
	ck_assert_int_eq(put_entries(ls_logs[1], e, 4100), 0);
	ck_assert_int_eq(tl_set_rate(ls_logs[1], 4), TL_OK);
	{
		tl_options o = { .entries = 64, .clock = TL_CLOCK_RDTSC_RSEQ_UNORDERED,
				 .strings_bytes = 4096, .name = "test" };
		ls_off_clock = "rdtsc+rseq-unordered";
		if (!(ls_logs[2] = tl_open(P("root/logs/self-off.timeline"), &o, NULL))) {
			o.clock = TL_CLOCK_MONOTONIC;   /* no rseq area on this host */
			ls_off_clock = "monotonic";
			ls_logs[2] = tl_open(P("root/logs/self-off.timeline"), &o, NULL);
		}
	}
	ck_assert_ptr_nonnull(ls_logs[2]);
	ck_assert_int_eq(tl_set_rate(ls_logs[2], TL_RATE_OFF), TL_OK);
}

START_TEST(test_ls_lists_pid_liveness_written_and_rate_of_each_log)
{
	const char *want;
	unsigned me = (unsigned)getpid();
	ls_root();
	want = S("%s%s%s%s%s%s",
		 ls_line_clock(me, "yes?", 2577, "-", "-", "(snabb)", S("root/%u/events.timeline", me)),
		 ls_line((unsigned)ls_dead, "no", 37, "7", self_name(), "root/logs/dead.timeline"),
		 ls_line(me, "yes", 5, "auto", self_name(), "root/logs/self-auto.timeline"),
		 ls_line(me, "yes", 4100, "4", self_name(), "root/logs/self-fixed.timeline"),
		 ls_line_clock(me, "yes", 0, "off", ls_off_clock, self_name(),
			       "root/logs/self-off.timeline"),
		 LS_PID_ONLY);
	/* the sizes: 4096 + 64 x 64 + 4096 and 4096 + 1024 x 64 + 4096 bytes */
	ck_assert_uint_eq(size_of(P("root/logs/dead.timeline")), 12288);
	ck_assert_uint_eq(size_of(P("root/logs/self-fixed.timeline")), 73728);
	ck_assert_str_eq(ls_rows(OK(tl("ls root"))), want);
	for (int i = 0; i < 3; i++)
		tl_close(ls_logs[i]);
}
END_TEST

START_TEST(test_ls_reads_a_snabb_logs_pid_from_its_path)
{
	mkdirs(P("root/run"));
	mkdirs(P("root2"));
	ls_dead = log_in_child(P("root2/x.timeline"), 64, NULL, 0);   /* a pid that is gone */
	mkdirs(S("%s/root/run/%d", dir, (int)ls_dead));
	snabb_at(S("%s/root/run/%d/events.timeline", dir, (int)ls_dead));
	ck_assert_str_eq(ls_rows(OK(tl("ls root"))),
			 ls_line_clock((unsigned)ls_dead, "no", 2577, "-", "-", "(snabb)",
				       S("root/run/%d/events.timeline", (int)ls_dead)));
}
END_TEST

START_TEST(test_ls_json_lists_every_log_through_jq)
{
	struct res r;
	unsigned me = (unsigned)getpid();
	const char *p = self_name();
	ls_root();
	r = sh("'%s' ls --format json root | jq -r '[.path, .format, .pid, .alive, .process, "
	       ".written, .rate, .clock] | @tsv'", timeline_bin());
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.err, "");
	ck_assert_str_eq(r.out,
			 S("root/%u/events.timeline\tsnabb\t%u\ttrue\t\t2577\t-\t-\n"
			   "root/logs/dead.timeline\ttimeline\t%u\tfalse\t%s\t37\t7\tmanual\n"
			   "root/logs/self-auto.timeline\ttimeline\t%u\ttrue\t%s\t5\tauto\tmanual\n"
			   "root/logs/self-fixed.timeline\ttimeline\t%u\ttrue\t%s\t4100\t4\tmanual\n"
			   "root/logs/self-off.timeline\ttimeline\t%u\ttrue\t%s\t0\toff\t%s\n",
			   me, me, (unsigned)ls_dead, p, me, p, me, p, me, p, ls_off_clock));
	for (int i = 0; i < 3; i++)
		tl_close(ls_logs[i]);
}
END_TEST

START_TEST(test_ls_of_roots_without_logs_says_no_logs_found)
{
	mkdirs(P("empty"));
	mkdirs(P("other/deep"));
	write_file(P("other/deep/readme"), "no log here\n", 12);
	ck_assert_str_eq(OK(tl("ls empty")), "no logs found\n");
	ck_assert_str_eq(OK(tl("ls empty other")), "no logs found\n");
	ck_assert_str_eq(OK(tl("ls --format json empty other")), "");
}
END_TEST

START_TEST(test_ls_counts_written_entries_of_several_roots_in_order)
{
	const struct ent two[] = { { 1, 0, 0, 1, 0 }, { 2, 0, 0, 2, 0 } };
	unsigned me = (unsigned)getpid();
	mkdirs(P("r1"));
	mkdirs(P("r2/sub"));
	log_here(P("r2/sub/b.timeline"), 64, two, 2);
	log_here(P("r1/a.timeline"), 64, two, 1);
	ck_assert_str_eq(ls_rows(OK(tl("ls r2 r1"))),
			 S("%s%s", ls_line(me, "yes", 2, "auto", self_name(), "r2/sub/b.timeline"),
			   ls_line(me, "yes", 1, "auto", self_name(), "r1/a.timeline")));
}
END_TEST

/* The start time a log at DIR/REL records for its writer. */
static uint64_t start_in(const char *rel)
{
	tl_info i;
	info_of(P(rel), &i);
	return i.start_ticks;
}

/* A log of this process whose header says another process started at
 * another time wrote it (a reused pid), and one of format 1.0, which says
 * nothing of its writer's start: ls tells the first from the writer and
 * says of the second that it took the pid alone. */
START_TEST(test_ls_tells_a_reused_pid_from_the_writer_and_says_when_it_has_the_pid_alone)
{
	const struct ent one[] = { { 1, 0, 0, 1, 0 } };
	unsigned me = (unsigned)getpid();
	uint64_t other;
	uint16_t minor = 0;
	struct stat st;
	struct res r;
	mkdirs(P("r"));
	log_here(P("r/a-live.timeline"), 64, one, 1);
	log_here(P("r/b-reused.timeline"), 64, one, 1);
	log_here(P("r/c-old.timeline"), 64, one, 1);
	other = start_in("r/a-live.timeline") - 1;
	patch_file(P("r/b-reused.timeline"), offsetof(struct tl_header, start_ticks), &other, 8);
	patch_file(P("r/c-old.timeline"), offsetof(struct tl_header, minor), &minor, 2);
	ck_assert_str_eq(ls_rows(OK(tl("ls r"))),
			 S("%s%s%s%s", ls_line(me, "yes", 1, "auto", self_name(), "r/a-live.timeline"),
			   ls_line(me, "no", 1, "auto", self_name(), "r/b-reused.timeline"),
			   ls_line(me, "yes?", 1, "auto", self_name(), "r/c-old.timeline"),
			   LS_PID_ONLY));
	/* the same in JSON, read by Python's strict parser */
	r = sh("'%s' ls --format json r | python3 -c 'import json,sys\n"
	       "for l in sys.stdin:\n"
	       " d = json.loads(l)\n"
	       " print(d[\"path\"], d[\"alive\"], d[\"alive_by\"], d[\"start_ticks\"], d[\"pid\"], "
	       "d[\"disk_bytes\"], d[\"bytes\"], sep=\"|\")'",
	       timeline_bin());
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.err, "");
	ck_assert_int_eq(lstat(P("r/a-live.timeline"), &st), 0);
	ck_assert_str_eq(r.out,
			 S("r/a-live.timeline|True|pid and start time|%llu|%u|%lld|12288\n"
			   "r/b-reused.timeline|False|pid and start time|%llu|%u|%lld|12288\n"
			   "r/c-old.timeline|True|pid only|0|%u|%lld|12288\n",
			   (unsigned long long)start_in("r/a-live.timeline"), me,
			   (long long)st.st_blocks * 512, (unsigned long long)other, me,
			   (long long)st.st_blocks * 512, me, (long long)st.st_blocks * 512));
}
END_TEST

static const char *line_of(const char *out, const char *prefix);

/* The first of DIRS (N) on a file system that is (MEMORY) or is not a tmpfs. */
static const char *dir_on(const char *const *dirs, size_t n, int memory)
{
	for (size_t k = 0; k < n; k++) {
		struct statfs s;
		if (dirs[k] && statfs(dirs[k], &s) == 0 &&
		    ((unsigned long)s.f_type == 0x01021994) == memory)
			return dirs[k];
	}
	ck_abort_msg("no directory %s tmpfs among those tried", memory ? "on" : "off");
	return NULL;
}

/* info and ls say where a log lives: tmpfs in memory, a disk's not. */
START_TEST(test_info_and_ls_say_the_file_system_each_log_lives_on)
{
	const char *mem[] = { "/dev/shm", getenv("XDG_RUNTIME_DIR"), "/run", dir };
	const char *disk[] = { dir, "/var/tmp", getenv("TIMELINE_SRC") };
	const char *where[2] = { dir_on(mem, 4, 1), dir_on(disk, 3, 0) };
	const struct ent one[] = { { 1, 0, 0, 1, 0 } };
	for (int k = 0; k < 2; k++) {
		char sub[] = "/tlfs.XXXXXX";
		const char *d = S("%s%s", where[k], sub), *p, *want;
		ck_assert_ptr_nonnull(mkdtemp((char *)d));
		p = S("%s/a.timeline", d);
		log_here(p, 64, one, 1);
		want = k ? S("%s (not in memory: its write-back makes each entry dearer)", fs_of(p))
			 : "tmpfs (in memory)";
		ck_assert_str_eq(line_of(OK(tl("info %s", p)), "  file system"),
				 S("  file system  %s", want));
		ck_assert_ptr_nonnull(strstr(OK(tl("info -f json %s", p)),
					     S(",\"file_system\":\"%s\",\"in_memory\":%s,", fs_of(p),
					       k ? "false" : "true")));
		ck_assert_ptr_nonnull(strstr(OK(tl("ls %s", d)), S(" %-8s %s/a.timeline\n", fs_of(p), d)));
		ck_assert_ptr_nonnull(strstr(OK(tl("ls -f json %s", d)),
					     S(",\"file_system\":\"%s\",\"in_memory\":%s,\"threads\":1}",
					       fs_of(p), k ? "false" : "true")));
		unlink(p);
		rmdir(d);
	}
}
END_TEST

START_TEST(test_ls_header_labels_line_up_with_their_columns)
{
	const char *out, *nl;
	const struct ent one[] = { { 1, 0, 0, 1, 0 } };
	mkdirs(P("r"));
	log_here(P("r/a.timeline"), 64, one, 1);
	out = OK(tl("ls r"));
	nl = strchr(out, '\n');
	ck_assert_ptr_nonnull(nl);
	/* PID, WRITTEN and SIZE end where their right-aligned values end;
	 * ALIVE, RATE, CLOCK, PROCESS, FS and PATH start where their values start */
	ck_assert_str_eq(S("%.*s", (int)(nl + 1 - out), out),
			 S("%7s %-5s%12s%9s %-9s%-21s%-16s %-8s %s\n", "PID", "ALIVE", "WRITTEN", "SIZE",
			   "RATE", "CLOCK", "PROCESS", "FS", "PATH"));
	ck_assert_str_eq(nl + 1, ls_line((unsigned)getpid(), "yes", 1, "auto", self_name(), "r/a.timeline"));
}
END_TEST

/* ------------------------------------------------------------------------
 * copy
 * ------------------------------------------------------------------------ */

/* A quiet log at DIR/REL that wrapped: 300 entries in a ring of 256, ticks
 * and pairs on assorted CPUs and nodes, timestamps 1000 + 37 i. */
static void quiet_log(const char *rel)
{
	struct ent e[300];
	for (int i = 0; i < 300; i++)
		e[i] = (struct ent){ 1000 + 37 * (uint64_t)i, AUX(i % 5, i % 3), i % 4 == 0,
				     (uint64_t)i * 1000003, ~(uint64_t)i };
	log_here(P(rel), 256, e, 300);
	patch_anchor(P(rel), 500, WALL_R, 5000000000ull);
}

/* `timeline dump ARGS NAME`, run in DIR/SUB: the same output for two logs
 * of the same NAME in two directories means the same entries. */
static const char *dump_in(const char *sub, const char *args, const char *name)
{
	struct res r = sh("cd '%s' && '%s' dump %s '%s'", sub, timeline_bin(), args, name);
	ck_assert_msg(r.rc == 0 && !strcmp(r.err, ""), "dump %s %s/%s: exit %d: %s", args, sub, name,
		      r.rc, r.err);
	return r.out;
}

static const char *const formats[] = { "-f text", "-f csv", "-f json", "-f json -t wall",
				       "-t ns" };

static void assert_same_dumps(const char *sub1, const char *sub2, const char *name)
{
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		const char *a = dump_in(sub1, formats[i], name), *b = dump_in(sub2, formats[i], name);
		ck_assert_msg(strlen(a) > 0, "empty dump");
		ck_assert_msg(!strcmp(a, b), "dump %s differs:\n%s\n--- vs ---\n%s", formats[i], a, b);
	}
}


/* The header of the copy B says what the log A's does, but that it is a
 * copy of A's ring, in a ring of its own just big enough for the entries
 * up to its cursor (the next power of two, at least 2) or, if A wrapped,
 * as big as A's. */
static void assert_same_header(const char *a, const char *b)
{
	tl_info x, y;
	uint64_t ring = 2;
	info_of(a, &x);
	info_of(b, &y);
	while (ring < y.cursor && ring < x.entries)
		ring *= 2;
	ck_assert_int_eq(x.format, y.format);
	ck_assert_uint_eq(x.major, y.major);
	ck_assert_uint_eq(x.minor, y.minor);
	ck_assert_uint_eq(x.copy_of, 0);
	ck_assert_uint_eq(y.copy_of, x.entries);
	ck_assert_uint_eq(y.entries, ring);
	ck_assert_uint_eq(x.start_ticks, y.start_ticks);
	ck_assert_uint_eq(x.cursor, y.cursor);
	ck_assert_uint_eq(x.used, y.used);
	ck_assert_uint_eq(x.strings_bytes, y.strings_bytes);
	ck_assert_uint_eq(x.strings_used, y.strings_used);
	ck_assert_uint_eq(x.tsc_hz, y.tsc_hz);
	ck_assert_uint_eq(x.anchor_tsc, y.anchor_tsc);
	ck_assert_uint_eq(x.anchor_realtime_ns, y.anchor_realtime_ns);
	ck_assert_uint_eq(x.anchor_monotonic_ns, y.anchor_monotonic_ns);
	ck_assert_uint_eq(x.breaths, y.breaths);
	ck_assert_uint_eq(x.rate, y.rate);
	ck_assert_int_eq(x.rate_fixed, y.rate_fixed);
	ck_assert_int_eq(x.clock, y.clock);
	ck_assert_uint_eq(x.cpu_features, y.cpu_features);
	ck_assert_uint_eq(x.pid, y.pid);
	ck_assert_str_eq(x.process, y.process);
	ck_assert_str_eq(x.host, y.host);
	ck_assert_str_eq(x.name, y.name);
	ck_assert_str_eq(x.path, y.path);
}

/* Every entry of A equals the one of B at the same position, and no more. */
static void assert_same_entries(const char *a, const char *b)
{
	size_t na, nb;
	uint64_t sa, sb;
	tl_entry *x = read_all(a, &na, &sa), *y = read_all(b, &nb, &sb);
	ck_assert_uint_eq(na, nb);
	ck_assert_uint_eq(sa, 0);
	ck_assert_uint_eq(sb, 0);
	for (size_t i = 0; i < na; i++) {
		tl_check(x[i].seq == y[i].seq && x[i].tsc == y[i].tsc && x[i].msgid == y[i].msgid &&
			 x[i].aux == y[i].aux && !memcmp(x[i].args, y[i].args, sizeof x[i].args),
			 "entry %zu: seq %llu and %llu differ", i, (unsigned long long)x[i].seq,
			 (unsigned long long)y[i].seq);
	}
	free(x);
	free(y);
}

START_TEST(test_copy_of_a_quiet_log_dumps_identically_in_every_format)
{
	mkdirs(P("orig"));
	mkdirs(P("copy"));
	quiet_log("orig/q.timeline");
	ck_assert_str_eq(OK(tl("copy orig/q.timeline copy/q.timeline")),
			 "orig/q.timeline -> copy/q.timeline: 256 entries, 0 dropped\n");
	assert_same_dumps("orig", "copy", "q.timeline");
	assert_same_entries(P("orig/q.timeline"), P("copy/q.timeline"));
}
END_TEST

START_TEST(test_copy_keeps_the_header_process_pid_host_clock_and_anchor)
{
	tl_info i;
	mkdirs(P("orig"));
	quiet_log("orig/q.timeline");
	patch_host(P("orig/q.timeline"), "far.away.example");
	OK(tl("copy orig/q.timeline q-copy.timeline"));
	assert_same_header(P("orig/q.timeline"), P("q-copy.timeline"));
	info_of(P("q-copy.timeline"), &i);
	ck_assert_str_eq(i.host, "far.away.example");
	ck_assert_str_eq(i.process, self_name());
	ck_assert_uint_eq(i.pid, (unsigned)getpid());
	ck_assert_uint_eq(i.tsc_hz, 1000000000);
	ck_assert_uint_eq(i.anchor_tsc, 500);
	ck_assert_uint_eq(i.anchor_realtime_ns, WALL_R);
	ck_assert_uint_eq(i.anchor_monotonic_ns, 5000000000ull);
	ck_assert_uint_eq(i.cursor, 300);
	ck_assert_uint_eq(i.copy_of, 256);   /* it wrapped: a ring as big as its own */
	ck_assert_str_eq(i.path, P("orig/q.timeline"));
	/* `timeline info` says the same of both, and that one is a copy */
	ck_assert_str_eq(OK(tl("info q-copy.timeline")),
			 OK(sh("'%s' info orig/q.timeline | sed -e 's|orig/q.timeline|q-copy.timeline|' "
			       "-e 's|in a ring of 256;|in a ring of 256 (a copy of a ring of 256);|'",
			       timeline_bin())));
}
END_TEST

/* The copy's header says what the original's does, but its CURSOR (and
 * the slots USED that follow from it), its ring of ENTRIES, and that it is
 * a copy of the original's ring. */
static void assert_header_but_cursor(const char *orig, const char *copy, uint64_t cursor,
				     uint64_t used, uint64_t entries)
{
	tl_info x, y;
	info_of(orig, &x);
	info_of(copy, &y);
	ck_assert_uint_eq(y.cursor, cursor);
	ck_assert_uint_eq(y.used, used);
	ck_assert_uint_eq(y.entries, entries);
	ck_assert_uint_eq(x.copy_of, 0);
	ck_assert_uint_eq(y.copy_of, x.entries);
	x.cursor = y.cursor;
	x.used = y.used;
	x.entries = y.entries;
	x.copy_of = y.copy_of;
	ck_assert_msg(!memcmp(&x, &y, sizeof x), "%s: the header differs in more than its cursor", copy);
}

/* The entries of the log at PATH: their seqs must be FIRST, FIRST + 1, ...,
 * N of them, each as crash_log() wrote it, with SKIPPED counted. */
static void assert_entries(const char *path, uint64_t first, size_t n, uint64_t skipped)
{
	size_t got;
	uint64_t sk;
	tl_entry *v = read_all(path, &got, &sk);
	ck_assert_msg(got == n && sk == skipped, "%s: %zu entries, %llu skipped; want %zu, %llu", path,
		      got, (unsigned long long)sk, n, (unsigned long long)skipped);
	for (size_t k = 0; k < n; k++) {
		ck_assert_uint_eq(v[k].seq, first + k);
		ck_assert_uint_eq(v[k].tsc, 1000 + 10 * (first + k));
		ck_assert_uint_eq(v[k].args[0], first + k);
	}
	free(v);
}

/* A log at NAME of RING slots whose writer died after writing entries 0 ..
 * N - 1, the last one as STATE says: 'c' complete but the cursor never moved
 * (killed between storing seq and cursor), 't' torn (killed after the busy
 * marker and two arguments). */
static void crash_log(const char *name, uint64_t ring, uint64_t n, int state)
{
	tl_log *log = open_log(P(name), ring);
	struct tl_header *h = (struct tl_header *)log;
	uint16_t id;
	ck_assert_ptr_nonnull(log);
	ck_assert_int_eq(tl_intern(log, TICK, &id, NULL), TL_OK);
	for (uint64_t i = 0; i + 1 < n; i++) {
		tl_set_manual_clock(log, 1000 + 10 * i, 0);
		tl_append(log, id, i, 0, 0, 0, 0, 0);
	}
	if (state == 'c') {
		tl_set_manual_clock(log, 1000 + 10 * (n - 1), 0);
		tl_append(log, id, n - 1, 0, 0, 0, 0, 0);
		h->cursor = n - 1;
	} else {
		struct tl_raw_entry *e = &tl_ring(h)[(n - 1) & (ring - 1)];
		e->seq = tl_seq_busy(n - 1);
		e->args[0] = n - 1;
		e->args[1] = 12345;
	}
	tl_close(log);
}

/* A crashed writer leaves one of two states behind; a copy keeps what a
 * reader of the log finds whole, moves the cursor past an entry complete
 * beyond it, and counts as dropped exactly what a reader of the copy will
 * find missing. */
START_TEST(test_copy_of_a_crashed_log_prints_exact_counts_and_writes_its_header)
{
	/* 4 entries in 16 slots, the cursor left at 3: all four, cursor 4, in
	 * a ring of 4 (it never wrapped) */
	crash_log("c.timeline", 16, 4, 'c');
	assert_entries(P("c.timeline"), 0, 4, 0);
	ck_assert_str_eq(OK(tl("copy c.timeline c-copy.timeline")),
			 "c.timeline -> c-copy.timeline: 4 entries, 0 dropped\n");
	assert_header_but_cursor(P("c.timeline"), P("c-copy.timeline"), 4, 4, 4);
	assert_entries(P("c-copy.timeline"), 0, 4, 0);
	/* 12 entries in 8 slots, cursor 11: entry 11 took entry 3's slot, so
	 * the log reads 4..11 and counts 3 lost; the copy, cursor 12, has 8 */
	crash_log("w.timeline", 8, 12, 'c');
	assert_entries(P("w.timeline"), 4, 8, 1);
	ck_assert_str_eq(OK(tl("copy w.timeline w-copy.timeline")),
			 "w.timeline -> w-copy.timeline: 8 entries, 0 dropped\n");
	assert_header_but_cursor(P("w.timeline"), P("w-copy.timeline"), 12, 8, 8);
	assert_entries(P("w-copy.timeline"), 4, 8, 0);
	/* entry 5 of 16 slots torn: entries 0..4, cursor 5, in a ring of 8 */
	crash_log("t.timeline", 16, 6, 't');
	assert_entries(P("t.timeline"), 0, 5, 1);   /* the busy marker past the cursor */
	ck_assert_str_eq(OK(tl("copy t.timeline t-copy.timeline")),
			 "t.timeline -> t-copy.timeline: 5 entries, 0 dropped\n");
	assert_header_but_cursor(P("t.timeline"), P("t-copy.timeline"), 5, 5, 8);
	assert_entries(P("t-copy.timeline"), 0, 5, 0);
	/* entry 11 of 8 slots torn over entry 3: 4..10, and entry 3 missing
	 * from the copy's window of 8 */
	crash_log("tw.timeline", 8, 12, 't');
	assert_entries(P("tw.timeline"), 4, 7, 2);
	ck_assert_str_eq(OK(tl("copy tw.timeline tw-copy.timeline")),
			 "tw.timeline -> tw-copy.timeline: 7 entries, 1 dropped\n");
	assert_header_but_cursor(P("tw.timeline"), P("tw-copy.timeline"), 11, 8, 8);
	assert_entries(P("tw-copy.timeline"), 4, 7, 1);
}
END_TEST

/* The line of OUT that starts with PREFIX, without its newline. */
static const char *line_of(const char *out, const char *prefix)
{
	const char *l = strstr(out, prefix);
	ck_assert_msg(l != NULL, "no '%s' in:\n%s", prefix, out);
	return S("%.*s", (int)strcspn(l, "\n"), l);
}

/* A log at REL of the default sizes (2^20 entries, 1 MiB of strings)
 * holding N ticks, timestamps 1000 + 10 i. */
static void default_size_log(const char *rel, size_t n)
{
	tl_options o = { .clock = TL_CLOCK_MANUAL, .tsc_hz = 1000000000, .name = "big",
			 .no_prefault = 1 };
	struct ent *e = calloc(n + 1, sizeof *e);
	tl_log *log = tl_open(P(rel), &o, NULL);
	ck_assert_ptr_nonnull(log);
	for (size_t i = 0; i < n; i++)
		e[i] = (struct ent){ 1000 + 10 * (uint64_t)i, AUX(1, 0), 0, (uint64_t)i, 0 };
	ck_assert_int_eq(put_entries(log, e, n), 0);
	tl_close(log);
	free(e);
}

/* 5,828 entries of a 64 MiB ring: the copy holds a ring of 8,192 slots,
 * 1.5 MiB in all, and says whose copy it is; a copy of it says the same. */
START_TEST(test_copy_of_a_log_that_never_wrapped_holds_a_ring_just_big_enough)
{
	struct res r;
	mkdirs(P("orig"));
	mkdirs(P("copy"));
	default_size_log("orig/big.timeline", 5828);
	ck_assert_uint_eq(size_of(P("orig/big.timeline")), 4096 + (1u << 20) * 64 + (1u << 20));
	ck_assert_str_eq(OK(tl("copy orig/big.timeline copy/big.timeline")),
			 "orig/big.timeline -> copy/big.timeline: 5828 entries, 0 dropped\n");
	ck_assert_uint_eq(size_of(P("copy/big.timeline")), 4096 + 8192 * 64 + (1u << 20));   /* 1576960 */
	assert_same_entries(P("orig/big.timeline"), P("copy/big.timeline"));
	assert_same_dumps("orig", "copy", "big.timeline");
	ck_assert_str_eq(line_of(OK(tl("info orig/big.timeline")), "  entries"),
			 "  entries      5828 in a ring of 1048576; 5828 written, 0 wrapped away");
	ck_assert_str_eq(line_of(OK(tl("info copy/big.timeline")), "  entries"),
			 "  entries      5828 in a ring of 8192 (a copy of a ring of 1048576); "
			 "5828 written, 0 wrapped away");
	/* a copy of the copy keeps the size of the ring first copied */
	ck_assert_str_eq(OK(tl("copy copy/big.timeline cc.timeline")),
			 "copy/big.timeline -> cc.timeline: 5828 entries, 0 dropped\n");
	ck_assert_uint_eq(size_of(P("cc.timeline")), 1576960);
	ck_assert_str_eq(line_of(OK(tl("info cc.timeline")), "  entries"),
			 "  entries      5828 in a ring of 8192 (a copy of a ring of 1048576); "
			 "5828 written, 0 wrapped away");
	/* compressed, it decompresses to the same small log */
	OK(tl("copy --zstd orig/big.timeline z.timeline"));
	ck_assert_uint_eq(unzstd(P("z.timeline"), P("z-plain.timeline")), 1576960);
	assert_same_entries(P("orig/big.timeline"), P("z-plain.timeline"));
	r = sh("'%s' info --format json copy/big.timeline | python3 -c 'import json,sys; d=json.load(sys.stdin); "
	       "print(d[\"entries\"], d[\"copy_of\"], d[\"written\"], d[\"used\"], d[\"minor\"])'",
	       timeline_bin());
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "8192 1048576 5828 5828 5\n");
}
END_TEST

/* The ring of a copy, by the entries up to the cursor of a log of 16 slots:
 * the next power of two, at least 2; once the log wrapped, its own 16. */
/* ARG's thread: N entries of the manual clock at T0, T0 + 10, ... into the
 * log, arguments i and 100 + i. */
struct side {
	tl_log *log;
	uint16_t id;
	uint64_t n, t0;
	pid_t tid;                   /* out */
};

static void *side_entries(void *arg)
{
	struct side *s = arg;
	s->tid = gettid();
	for (uint64_t i = 0; i < s->n; i++) {
		tl_set_manual_clock(s->log, s->t0 + 10 * i, 3);
		tl_append(s->log, s->id, i, 100 + i, 0, 0, 0, 0);
	}
	return NULL;
}

static void *side_thread(void *arg)
{
	pthread_setname_np(pthread_self(), "side");
	return side_entries(arg);
}

/* A log of two threads at PATH, ring 16, manual clock: this thread's 3
 * entries (lane 0), another's 5 (lane 1, the thread named "side"), then
 * this one's 4 more (lane 2, numbered on from 3). Returns the other's tid. */
static pid_t two_threads_log(const char *path)
{
	tl_log *log = open_log(P(path), 16);
	struct side a, b;
	pthread_t th;
	uint16_t id;
	ck_assert_int_eq(tl_intern(log, "4,6|live.t: i j\nAn entry of a thread.", &id, NULL), TL_OK);
	a = (struct side){ log, id, 3, 1000, 0 };
	side_entries(&a);
	b = (struct side){ log, id, 5, 1005, 0 };
	ck_assert_int_eq(pthread_create(&th, NULL, side_thread, &b), 0);
	pthread_join(th, NULL);
	for (uint64_t i = 3; i < 7; i++) {
		tl_set_manual_clock(log, 2000 + i, 1);
		tl_append(log, id, i, 100 + i, 0, 0, 0, 0);
	}
	tl_close(log);
	return b.tid;
}

START_TEST(test_copy_of_a_log_of_two_threads_keeps_its_lanes)
{
	struct tl_header h;
	size_t len;
	char *b;
	pid_t side;
	const char *me;
	mkdirs(P("orig"));
	mkdirs(P("copy"));
	side = two_threads_log("orig/t.timeline");
	me = S("%s[%d]", program_invocation_short_name, (int)gettid());
	/* each line names its thread; info lists them */
	ck_assert_str_eq(OK(tl("dump --limit 4 orig/t.timeline")),
			 S("             0   3  0  %s  live.t i=0 j=100\n"
			   "             5   3  0  side[%d]  live.t i=0 j=100\n"
			   "            10   3  0  %s  live.t i=1 j=101\n"
			   "            15   3  0  side[%d]  live.t i=1 j=101\n",
			   me, (int)side, me, (int)side));
	ck_assert_str_eq(line_of(OK(tl("info orig/t.timeline")), "  threads"),
			 "  threads      2, a ring each");
	ck_assert_ptr_nonnull(strstr(OK(tl("info orig/t.timeline")),
				     S("\n            0  %s: 7 written, 0 wrapped away\n"
				       "            1  side[%d]: 5 written, 0 wrapped away\n",
				       me, (int)side)));
	ck_assert_ptr_nonnull(strstr(OK(tl("dump -f json --limit 1 orig/t.timeline")),
				     S(",\"numa\":0,\"thread\":0,\"thread_name\":\"%s\",", me)));
	ck_assert_str_eq(OK(tl("copy orig/t.timeline copy/t.timeline")),
			 "orig/t.timeline -> copy/t.timeline: 12 entries, 0 dropped\n");
	assert_same_entries(P("orig/t.timeline"), P("copy/t.timeline"));
	assert_same_dumps("orig", "copy", "t.timeline");   /* its threads named alike */
	/* its three lanes in rings just big enough: the widest is the other
	 * thread's, 5 and the entry at its cursor, 6 in 8 */
	b = read_file(P("copy/t.timeline"), &len);
	memcpy(&h, b, sizeof h);
	ck_assert_uint_eq(h.lanes, 2);
	ck_assert_uint_eq(h.entries, 8);
	ck_assert_uint_eq(h.copy_of, 16);
	ck_assert_uint_eq(h.cursor, 3);
	ck_assert_uint_eq(len, TL_LANES_BASE(h.file_bytes) + 2 * TL_LANE_BYTES(8));
	free(b);
	ck_assert_str_eq(line_of(OK(tl("info copy/t.timeline")), "  entries"),
			 "  entries      12 in a ring of 8 per thread (a copy of a ring of 16); "
			 "12 written, 0 wrapped away");
	/* compressed, it decompresses to the same lanes */
	OK(tl("copy --zstd orig/t.timeline z.timeline"));
	ck_assert_uint_eq(unzstd(P("z.timeline"), P("z-plain.timeline")), len);
	assert_same_entries(P("orig/t.timeline"), P("z-plain.timeline"));
	ck_assert_str_eq(OK(tl("dump z.timeline")), OK(tl("dump orig/t.timeline")));
	/* a window: each thread's entries kept numbered from 0, on across its
	 * lanes (this thread's 2 .. 6 as 0 .. 4), the other's 2 .. 4 as 0 .. 2 */
	ck_assert_str_eq(OK(tl("copy --from 20 orig/t.timeline w.timeline")),
			 "orig/t.timeline -> w.timeline: 8 entries, 0 dropped\n");
	ck_assert_str_eq(OK(tl("dump -f csv w.timeline | cut -d, -f2,9,16")),
			 "seq,arg0,thread\n0,2,0\n0,2,1\n1,3,1\n2,4,1\n1,3,0\n2,4,0\n3,5,0\n"
			 "4,6,0\n");
	ck_assert_uint_eq(info_at(P("w.timeline")).threads, 2);
}
END_TEST

START_TEST(test_copy_ring_is_the_next_power_of_two_of_the_entries_at_least_2)
{
	static const struct { size_t n; uint64_t ring; } cases[] = {
		{ 0, 2 }, { 1, 2 }, { 2, 2 }, { 3, 4 }, { 5, 8 }, { 9, 16 }, { 16, 16 }, { 17, 16 },
		{ 40, 16 },
	};
	struct ent e[40];
	for (int i = 0; i < 40; i++)
		e[i] = (struct ent){ 1000 + 10 * (uint64_t)i, 0, 0, (uint64_t)i, 0 };
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const char *log = S("l%zu.timeline", cases[k].n), *c = S("c%zu.timeline", cases[k].n);
		tl_info i;
		log_here(P(log), 16, e, cases[k].n);
		OK(tl("copy %s %s", log, c));
		info_of(P(c), &i);
		ck_assert_msg(i.entries == cases[k].ring, "%zu entries: a ring of %llu, want %llu",
			      cases[k].n, (unsigned long long)i.entries,
			      (unsigned long long)cases[k].ring);
		ck_assert_uint_eq(i.copy_of, 16);
		ck_assert_uint_eq(i.cursor, cases[k].n);
		ck_assert_uint_eq(size_of(P(c)), 4096 + cases[k].ring * 64 + 4096);
		if (cases[k].n)
			assert_same_entries(P(log), P(c));
	}
}
END_TEST

START_TEST(test_copy_zstd_decodes_to_the_same_log)
{
	unsigned char magic[4];
	int fd;
	mkdirs(P("orig"));
	mkdirs(P("z"));
	mkdirs(P("z19"));
	quiet_log("orig/q.timeline");
	ck_assert_str_eq(OK(tl("copy --zstd orig/q.timeline z/q.timeline")),
			 "orig/q.timeline -> z/q.timeline: 256 entries, 0 dropped\n");
	ck_assert_str_eq(OK(tl("copy --zstd=19 orig/q.timeline z19/q.timeline")),
			 "orig/q.timeline -> z19/q.timeline: 256 entries, 0 dropped\n");
	/* a zstd frame, not a plain log */
	fd = open(P("z/q.timeline"), O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(read(fd, magic, 4), 4);
	close(fd);
	ck_assert_uint_eq(magic[0], 0x28);
	ck_assert_uint_eq(magic[1], 0xb5);
	ck_assert_uint_eq(magic[2], 0x2f);
	ck_assert_uint_eq(magic[3], 0xfd);
	assert_same_dumps("orig", "z", "q.timeline");
	assert_same_dumps("orig", "z19", "q.timeline");
	/* decompressed, each is a valid log with the same header and entries */
	ck_assert_uint_eq(unzstd(P("z/q.timeline"), P("plain.timeline")), 4096 + 256 * 64 + 4096);
	assert_same_header(P("orig/q.timeline"), P("plain.timeline"));
	assert_same_entries(P("orig/q.timeline"), P("plain.timeline"));
	ck_assert_uint_eq(unzstd(P("z19/q.timeline"), P("plain19.timeline")), 4096 + 256 * 64 + 4096);
	assert_same_entries(P("orig/q.timeline"), P("plain19.timeline"));
}
END_TEST

/* The files under D, relative, sorted, one a line. */
static const char *tree_of(const char *d)
{
	struct res r = sh("cd '%s' && find . -type f | sed 's|^\\./||' | LC_ALL=C sort", d);
	ck_assert_int_eq(r.rc, 0);
	return r.out;
}

static void three_level_tree(void)
{
	const struct ent x[] = { { 1, 0, 0, 1, 0 }, { 2, 0, 0, 2, 0 } };
	const struct ent y[] = { { 5, AUX(1, 1), 1, 3, 4 } };
	const struct ent z[] = { { 7, 0, 0, 5, 0 }, { 8, 0, 0, 6, 0 }, { 9, 0, 0, 7, 0 } };
	mkdirs(P("src/a/b"));
	log_here(P("src/a/x.timeline"), 64, x, 2);
	log_here(P("src/a/b/y.timeline"), 64, y, 1);
	log_here(P("src/z.timeline"), 64, z, 3);
}

START_TEST(test_copy_of_a_directory_keeps_relative_paths)
{
	static const char *const rel[] = { "a/b/y.timeline", "a/x.timeline", "z.timeline" };
	three_level_tree();
	ck_assert_str_eq(OK(tl("copy src dest")),
			 "src/a/b/y.timeline -> dest/a/b/y.timeline: 1 entries, 0 dropped\n"
			 "src/a/x.timeline -> dest/a/x.timeline: 2 entries, 0 dropped\n"
			 "src/z.timeline -> dest/z.timeline: 3 entries, 0 dropped\n");
	ck_assert_str_eq(tree_of("dest"), "a/b/y.timeline\na/x.timeline\nz.timeline\n");
	for (int i = 0; i < 3; i++) {
		assert_same_entries(P(S("src/%s", rel[i])), P(S("dest/%s", rel[i])));
		assert_same_header(P(S("src/%s", rel[i])), P(S("dest/%s", rel[i])));
	}
	/* a trailing slash on SRC changes nothing */
	ck_assert_str_eq(OK(tl("copy src/ dest2")),
			 "src/a/b/y.timeline -> dest2/a/b/y.timeline: 1 entries, 0 dropped\n"
			 "src/a/x.timeline -> dest2/a/x.timeline: 2 entries, 0 dropped\n"
			 "src/z.timeline -> dest2/z.timeline: 3 entries, 0 dropped\n");
	ck_assert_str_eq(tree_of("dest2"), "a/b/y.timeline\na/x.timeline\nz.timeline\n");
}
END_TEST

START_TEST(test_copy_zstd_of_a_directory_adds_zst_to_relative_paths)
{
	static const char *const rel[] = { "a/b/y.timeline", "a/x.timeline", "z.timeline" };
	three_level_tree();
	ck_assert_str_eq(OK(tl("copy --zstd src dest")),
			 "src/a/b/y.timeline -> dest/a/b/y.timeline.zst: 1 entries, 0 dropped\n"
			 "src/a/x.timeline -> dest/a/x.timeline.zst: 2 entries, 0 dropped\n"
			 "src/z.timeline -> dest/z.timeline.zst: 3 entries, 0 dropped\n");
	ck_assert_str_eq(tree_of("dest"), "a/b/y.timeline.zst\na/x.timeline.zst\nz.timeline.zst\n");
	for (int i = 0; i < 3; i++) {
		const char *plain = P(S("plain%d.timeline", i));
		unzstd(P(S("dest/%s.zst", rel[i])), plain);
		assert_same_entries(P(S("src/%s", rel[i])), plain);
		assert_same_header(P(S("src/%s", rel[i])), plain);
	}
	/* the compressed tree dumps like the original one */
	ck_assert_str_eq(OK(tl("dump dest")), OK(tl("dump src")));
}
END_TEST

START_TEST(test_copy_of_several_sources_goes_into_a_directory)
{
	three_level_tree();
	ck_assert_str_eq(OK(tl("copy src/z.timeline src/a/x.timeline out")),
			 "src/z.timeline -> out/z.timeline: 3 entries, 0 dropped\n"
			 "src/a/x.timeline -> out/x.timeline: 2 entries, 0 dropped\n");
	ck_assert_str_eq(tree_of("out"), "x.timeline\nz.timeline\n");
	assert_same_entries(P("src/z.timeline"), P("out/z.timeline"));
	assert_same_entries(P("src/a/x.timeline"), P("out/x.timeline"));
}
END_TEST

/* Paths are joined without "//": a DEST, a SRC or an input directory given
 * with trailing slashes names the same files as without them. */
START_TEST(test_paths_given_with_trailing_slashes_are_joined_without_a_double_slash)
{
	three_level_tree();
	mkdirs(P("out/"));
	ck_assert_str_eq(OK(tl("copy src/z.timeline out/")),
			 "src/z.timeline -> out/z.timeline: 3 entries, 0 dropped\n");
	ck_assert_str_eq(OK(tl("copy src/z.timeline src/a/x.timeline out2//")),
			 "src/z.timeline -> out2/z.timeline: 3 entries, 0 dropped\n"
			 "src/a/x.timeline -> out2/x.timeline: 2 entries, 0 dropped\n");
	ck_assert_str_eq(OK(tl("copy src// out3/")),
			 "src/a/b/y.timeline -> out3/a/b/y.timeline: 1 entries, 0 dropped\n"
			 "src/a/x.timeline -> out3/a/x.timeline: 2 entries, 0 dropped\n"
			 "src/z.timeline -> out3/z.timeline: 3 entries, 0 dropped\n");
	/* a walk names what it finds below the directory as given, once slashed */
	ck_assert_str_eq(OK(tl("info src/a// | grep '^src'")),
			 "src/a/b/y.timeline\nsrc/a/x.timeline\n");
	ck_assert_ptr_nonnull(strstr(OK(tl("ls src/a/")), " src/a/x.timeline\n"));
}
END_TEST

#define LIVE_RING 4096
#define LIVE_COPIES 50
#define GOLDEN 0x9e3779b97f4a7c15ull

/* Entry I of the live writer: every argument derived from I. */
static void live_args(uint64_t i, uint64_t a[6])
{
	a[0] = i;
	a[1] = ~i;
	a[2] = i * GOLDEN;
	a[3] = i ^ 0x5555aaaa5555aaaaull;
	a[4] = (i << 32) | (i >> 32);
	a[5] = i + GOLDEN;
}

/* Forks a writer that logs flat out into a ring of LIVE_RING at PATH until
 * killed (or its parent dies, or two minutes pass). Returns its pid once the
 * log exists. */
static pid_t live_writer(const char *path)
{
	int ready[2];
	pid_t parent = getpid(), pid;
	char c;
	ck_assert_int_eq(pipe(ready), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		tl_options o = { .entries = LIVE_RING, .strings_bytes = 4096, .name = "live" };
		tl_log *log;
		uint16_t id;
		time_t stop = time(NULL) + 120;
		close(ready[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		log = tl_open(path, &o, NULL);
		if (!log || tl_intern(log, "0,9|live.flat: a b c d e f\nFlat out.", &id, NULL))
			_exit(1);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		for (uint64_t i = 0;; i++) {
			uint64_t a[6];
			live_args(i, a);
			tl_append(log, id, a[0], a[1], a[2], a[3], a[4], a[5]);
			if (!(i & 0xfffff) && time(NULL) > stop)
				_exit(0);
		}
	}
	close(ready[1]);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	close(ready[0]);
	return pid;
}

/* What one copy of the live log printed and what a reader finds in it. */
struct live_copy {
	unsigned long long kept, dropped;   /* printed by `timeline copy` */
	uint64_t found, skipped;            /* read back from the copy */
	uint64_t cursor;                    /* the copy's cursor */
};

/* Waits (at most 20 s) until the writer of the log at PATH has written
 * entry N. */
static void wait_written(const char *path, uint64_t n)
{
	time_t stop = time(NULL) + 20;
	tl_info i;
	for (info_of(path, &i); i.cursor < n && time(NULL) < stop; info_of(path, &i))
		usleep(1000);
	ck_assert_uint_ge(i.cursor, n);
}

/* Copies a log written flat out LIVE_COPIES times into C. Every entry of
 * every copy must be whole (its six arguments those of its seq), within the
 * copy's ring window, with seqs strictly increasing. Before each copy the
 * writer has written a ring more than the last copy holds; every tenth is
 * taken with the writer stopped (SIGSTOP), so that it holds a whole ring
 * whatever the machine does; the others race the writer. Returns the
 * writer's progress during the copies. */
static uint64_t copy_live_log(struct live_copy *c)
{
	const char *log = P("live.timeline"), *copy = P("copy.timeline");
	tl_info before, after;
	pid_t pid = live_writer(log);
	info_of(log, &before);
	for (int k = 0; k < LIVE_COPIES; k++) {
		const char *out;
		uint64_t prev = 0;
		tl_error err;
		tl_reader *r;
		tl_entry e;
		tl_info ci;
		wait_written(log, (k ? c[k - 1].cursor : before.cursor) + LIVE_RING + 1);
		if (k % 10 == 0) {
			ck_assert_int_eq(kill(pid, SIGSTOP), 0);
			ck_assert_int_eq(waitpid(pid, NULL, WUNTRACED), pid);
		}
		out = OK(tl("copy live.timeline copy.timeline"));
		if (k % 10 == 0)
			ck_assert_int_eq(kill(pid, SIGCONT), 0);
		ck_assert_msg(sscanf(out, "live.timeline -> copy.timeline: %llu entries, %llu dropped",
				     &c[k].kept, &c[k].dropped) == 2, "copy printed: %s", out);
		ck_assert_str_eq(out, S("live.timeline -> copy.timeline: %llu entries, %llu dropped\n",
					c[k].kept, c[k].dropped));
		r = tl_reader_open(copy, &err);
		ck_assert_msg(r != NULL, "%s", err.msg);
		tl_reader_info(r, &ci);
		c[k].cursor = ci.cursor;
		c[k].found = 0;
		ck_assert_uint_le(tl_reader_rewind(r), LIVE_RING);
		while (tl_reader_next(r, &e)) {
			uint64_t a[6];
			live_args(e.seq, a);
			for (int i = 0; i < 6; i++)
				tl_check(e.args[i] == a[i], "copy %d: entry %llu arg %d is %#llx, want %#llx",
					 k, (unsigned long long)e.seq, i, (unsigned long long)e.args[i],
					 (unsigned long long)a[i]);
			tl_check(c[k].found == 0 || e.seq > prev, "copy %d: seq %llu after %llu", k,
				 (unsigned long long)e.seq, (unsigned long long)prev);
			tl_check(e.seq + LIVE_RING >= ci.cursor && e.seq <= ci.cursor,
				 "copy %d: seq %llu outside the ring under cursor %llu", k,
				 (unsigned long long)e.seq, (unsigned long long)ci.cursor);
			prev = e.seq;
			c[k].found++;
		}
		c[k].skipped = tl_reader_skipped(r);
		tl_reader_close(r);
		/* stopped: a whole ring, but for the entry it may have stopped in */
		if (k % 10 == 0)
			ck_assert_msg(c[k].kept >= LIVE_RING - 1 && c[k].dropped <= 1,
				      "copy %d of a stopped writer: %llu entries, %llu dropped", k, c[k].kept,
				      c[k].dropped);
	}
	info_of(log, &after);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return after.cursor - before.cursor;
}

/* What a copy of a live log must be whatever the interleaving (checked in
 * copy_live_log): whole entries, in order, in its ring's window. How many
 * a racing copy drops depends on how the copy and the writer share the
 * CPUs; the drops themselves are made by hand in crash:torn
 * (tl_reader_copy() of torn slots) and in the crashed-log test here. */
START_TEST(test_copy_of_a_log_written_flat_out_holds_only_whole_entries_in_order)
{
	struct live_copy c[LIVE_COPIES];
	uint64_t found = 0, progress = copy_live_log(c);
	/* the writer was running: a ring and more between copies */
	ck_assert_uint_gt(progress, (uint64_t)LIVE_COPIES * LIVE_RING);
	for (int k = 0; k < LIVE_COPIES; k++) {
		if (k)
			ck_assert_uint_gt(c[k].cursor, c[k - 1].cursor + LIVE_RING);
		found += c[k].found;
	}
	/* entries to check: at least the copies of the writer stopped */
	ck_assert_uint_ge(found, (uint64_t)LIVE_COPIES / 10 * (LIVE_RING - 1));
}
END_TEST

START_TEST(test_copy_of_a_log_written_flat_out_prints_the_counts_the_copy_holds)
{
	struct live_copy c[LIVE_COPIES];
	int bad = 0, first = -1;
	copy_live_log(c);
	/* "N entries, M dropped": the copy holds exactly N entries, and the M
	 * left out read as incomplete in it, no more and no fewer */
	for (int k = 0; k < LIVE_COPIES; k++) {
		if (c[k].found != c[k].kept || c[k].skipped != c[k].dropped) {
			bad++;
			if (first < 0)
				first = k;
		}
	}
	ck_assert_msg(bad == 0, "%d of %d copies: e.g. copy %d printed %llu entries, %llu dropped; "
		      "it holds %llu entries, %llu incomplete", bad, LIVE_COPIES, first,
		      first < 0 ? 0 : c[first].kept, first < 0 ? 0 : c[first].dropped,
		      first < 0 ? 0ull : (unsigned long long)c[first].found,
		      first < 0 ? 0ull : (unsigned long long)c[first].skipped);
}
END_TEST

START_TEST(test_copy_of_the_snabb_fixture_is_identical)
{
	mkdirs(P("a"));
	mkdirs(P("b"));
	snabb_at(P("a/events.timeline"));
	ck_assert_str_eq(OK(tl("copy a/events.timeline b/events.timeline")),
			 "a/events.timeline -> b/events.timeline: 2577 entries, 0 dropped\n");
	ck_assert_str_eq(dump_in("a", "-f csv", "events.timeline"),
			 dump_in("b", "-f csv", "events.timeline"));
	ck_assert_str_eq(dump_in("a", "-f text", "events.timeline"),
			 dump_in("b", "-f text", "events.timeline"));
	/* a quiet Snabb log is copied byte for byte (cmp: 65 MB, not read in) */
	ck_assert_uint_eq(size_of(P("a/events.timeline")), 65000064);
	ck_assert_str_eq(OK(sh("cmp a/events.timeline b/events.timeline && echo same")), "same\n");
	/* the compressed fixture is read and copied too */
	ck_assert_str_eq(OK(tl("copy '%s' c.timeline", fixture())),
			 S("%s -> c.timeline: 2577 entries, 0 dropped\n", fixture()));
	ck_assert_str_eq(dump_in(".", "-f text", "c.timeline"),
			 dump_in("a", "-f text", "events.timeline"));
}
END_TEST

START_TEST(test_copy_usage_errors_exit_2)
{
	struct res h = tl("copy --help"), r;
	ck_assert_int_eq(h.rc, 0);
	mkdirs(P("orig"));
	quiet_log("orig/q.timeline");
	r = tl("copy orig/q.timeline");
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, S("timeline copy: missing DEST\nsee 'timeline copy --help'\n"));
	r = tl("copy");
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.err, S("timeline copy: missing SRC and DEST\nsee 'timeline copy --help'\n"));
	r = tl("copy --zstd=20 orig/q.timeline out.timeline");
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.err, S("timeline copy: --zstd level must be 1 to 19\nsee 'timeline copy --help'\n"));
	ck_assert_int_eq(access(P("out.timeline"), F_OK), -1);
	r = tl("copy missing.timeline out.timeline");
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "timeline copy: missing.timeline: No such file or directory\n");
}
END_TEST

/* ------------------------------------------------------------------------
 * rate
 * ------------------------------------------------------------------------ */

static tl_log *rate_log(void)
{
	tl_log *log = open_manual(P("r.timeline"), 64);
	tl_seed(log, 12345);
	return log;
}

START_TEST(test_rate_set_to_4_is_seen_by_the_writer_and_kept_by_breaths)
{
	tl_log *log = rate_log();
	tl_info i;
	ck_assert_uint_eq(tl_rate(log), 1);
	ck_assert_str_eq(OK(tl("rate r.timeline 4")), "r.timeline: 4, fixed (events of rate 4 to 9 are logged)\n");
	ck_assert_uint_eq(tl_rate(log), 4);
	for (int k = 0; k < 1000; k++) {
		tl_breath(log);
		ck_assert_msg(tl_rate(log) == 4, "breath %d drew rate %u", k, tl_rate(log));
	}
	info_of(P("r.timeline"), &i);
	ck_assert_uint_eq(i.rate, 4);
	ck_assert_int_ne(i.rate_fixed, 0);
	ck_assert_uint_eq(i.breaths, 1000);
	tl_close(log);
}
END_TEST

START_TEST(test_rate_auto_lets_breaths_draw_again)
{
	tl_log *log = rate_log();
	tl_info i;
	int k;
	ck_assert_int_eq(tl_set_rate(log, 9), TL_OK);
	ck_assert_str_eq(OK(tl("rate r.timeline auto")), "r.timeline: auto, drawn every breath, now 9\n");
	info_of(P("r.timeline"), &i);
	ck_assert_int_eq(i.rate_fixed, 0);
	for (k = 0; k < 1000 && tl_rate(log) == 9; k++)
		tl_breath(log);
	ck_assert_msg(tl_rate(log) != 9, "1000 breaths all kept rate 9");
	ck_assert_uint_ge(tl_rate(log), 1);
	ck_assert_uint_le(tl_rate(log), 9);
	tl_close(log);
}
END_TEST

START_TEST(test_rate_off_stops_logging_in_the_writer)
{
	tl_log *log = rate_log();
	uint16_t id;
	tl_info i;
	ck_assert_int_eq(tl_intern(log, TICK, &id, NULL), TL_OK);
	ck_assert_str_eq(OK(tl("rate r.timeline off")), "r.timeline: off, fixed (nothing is logged)\n");
	ck_assert_uint_eq(tl_rate(log), TL_RATE_OFF);
	for (int k = 0; k < 100; k++) {
		tl_breath(log);
		tl_event(log, tl_event_code(id, 9), 1, 2, 3, 4, 5, 6);
	}
	ck_assert_uint_eq(tl_rate(log), TL_RATE_OFF);
	info_of(P("r.timeline"), &i);
	ck_assert_uint_eq(i.cursor, 0);
	ck_assert_uint_eq(i.rate, 10);
	tl_close(log);
}
END_TEST

START_TEST(test_rate_without_rate_shows_it_exactly_and_changes_nothing)
{
	tl_log *log = rate_log();
	ck_assert_str_eq(OK(tl("rate r.timeline")), "r.timeline: auto, drawn every breath, now all\n");
	ck_assert_int_eq(tl_set_rate(log, 6), TL_OK);
	ck_assert_str_eq(OK(tl("rate r.timeline")), "r.timeline: 6, fixed (events of rate 6 to 9 are logged)\n");
	ck_assert_uint_eq(tl_rate(log), 6);
	ck_assert_int_eq(tl_set_rate(log, TL_RATE_OFF), TL_OK);
	ck_assert_str_eq(OK(tl("rate r.timeline")), "r.timeline: off, fixed (nothing is logged)\n");
	ck_assert_uint_eq(tl_rate(log), TL_RATE_OFF);
	ck_assert_str_eq(OK(tl("rate r.timeline all")),
			 "r.timeline: all, fixed (every event of rate 1 to 9 is logged)\n");
	ck_assert_uint_eq(tl_rate(log), 1);
	ck_assert_int_eq(tl_set_rate(log, TL_RATE_OFF), TL_OK);
	ck_assert_int_eq(tl_set_rate(log, TL_RATE_AUTO), TL_OK);
	ck_assert_str_eq(OK(tl("rate r.timeline")),
			 "r.timeline: auto, drawn every breath, now off\n");
	tl_close(log);
}
END_TEST

/* The word of each RATE timeline rate takes, as every place shows it: the
 * setting (auto, all, 2 to 9, off) and what is logged now (all, 2 to 9,
 * off), and rate's own line. */
static const struct { const char *rate, *word, *line; } rate_words[] = {
	{ "1", "all", "all, fixed (every event of rate 1 to 9 is logged)" },
	{ "2", "2", "2, fixed (events of rate 2 to 9 are logged)" },
	{ "3", "3", "3, fixed (events of rate 3 to 9 are logged)" },
	{ "4", "4", "4, fixed (events of rate 4 to 9 are logged)" },
	{ "5", "5", "5, fixed (events of rate 5 to 9 are logged)" },
	{ "6", "6", "6, fixed (events of rate 6 to 9 are logged)" },
	{ "7", "7", "7, fixed (events of rate 7 to 9 are logged)" },
	{ "8", "8", "8, fixed (events of rate 8 to 9 are logged)" },
	{ "9", "9", "9, fixed (events of rate 9 are logged)" },
	{ "all", "all", "all, fixed (every event of rate 1 to 9 is logged)" },
	{ "off", "off", "off, fixed (nothing is logged)" },
};

/* The word of r.timeline's rate in every place that shows it is SET (the
 * setting) and NOW (what is logged now), and rate shows it as LINE. */
static void rate_shown(const char *set, const char *now, const char *line)
{
	tl_info i = info_at(P("r.timeline"));
	const char *out, *row;
	struct res r;
	ck_assert_str_eq(OK(tl("rate r.timeline")), S("r.timeline: %s\n", line));
	out = OK(tl("info r.timeline"));
	ck_assert_ptr_nonnull(strstr(out, strcmp(set, "auto") ?
					  S("\n  rate         %s, fixed (0 breaths)\n", set) :
					  S("\n  rate         auto, drawn every breath, now %s (0 breaths)\n", now)));
	ck_assert_ptr_nonnull(strstr(OK(tl("info -f json r.timeline")),
				     S(",\"rate\":\"%s\",\"rate_now\":\"%s\",", set, now)));
	ck_assert_ptr_nonnull(strstr(OK(tl("ls -f json .")),
				     S(",\"rate\":\"%s\",\"clock\":\"%s\",", set, tl_clock_name(i.clock))));
	ck_assert_ptr_nonnull(strstr(ls_rows(OK(tl("ls ."))), S(" %-9s%-21s%-16s %-8s ./r.timeline\n",
								set, tl_clock_name(i.clock), i.process,
								fs_of(P("r.timeline")))));
	ck_assert_ptr_nonnull(strstr(OK(tl("top -b -n 1 -d 0.1 -f json .")),
				     S(",\"running\":true,\"rate\":\"%s\",", set)));
	/* the report's table of inputs (it warns that the log has no pairs) */
	r = tl("report -f json .");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_msg(strstr(r.out, S(",\"rate\":\"%s\",\"entries\":1,", set)) != NULL,
		      "report: rate %s not in:\n%.300s", set, strstr(r.out, "summary-inputs"));
	/* top's row of the log: PID LOG RATE ... */
	out = OK(tl("top -b -n 1 -d 0.1 -g process ."));
	row = strstr(out, S("%u %s ", (unsigned)getpid(), i.name));
	ck_assert_msg(row != NULL, "top: no row of the log in:\n%s", out);
	row += strlen(S("%u %s ", (unsigned)getpid(), i.name));
	row += strspn(row, " ");
	ck_assert_msg(!strncmp(row, set, strlen(set)) && row[strlen(set)] == ' ',
		      "top: rate %s not in:\n%s", set, out);
}

/* One vocabulary: every value timeline rate takes, then auto after it, is
 * one word in rate, info, ls, top, the report and their JSON (1 is all;
 * the number where that is what was set). 0 is no rate (tl_rate_parse()). */
START_TEST(test_rate_has_one_vocabulary_in_rate_info_ls_top_and_json)
{
	tl_log *log = rate_log();
	struct res r = tl("rate r.timeline 0");
	uint16_t id;
	/* an entry, for the report to read */
	ck_assert_int_eq(tl_intern(log, TICK, &id, NULL), TL_OK);
	tl_append(log, id, 1, 2, 3, 4, 5, 6);
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.err, "timeline rate: RATE must be all, 1 to 9, off or auto\n"
				"see 'timeline rate --help'\n");
	rate_shown("auto", "all", "auto, drawn every breath, now all");
	for (size_t k = 0; k < sizeof rate_words / sizeof rate_words[0]; k++) {
		const char *w = rate_words[k].word;
		ck_assert_str_eq(OK(tl("rate r.timeline %s", rate_words[k].rate)),
				 S("r.timeline: %s\n", rate_words[k].line));
		rate_shown(w, w, rate_words[k].line);
		/* auto keeps the rate until the next breath draws one */
		ck_assert_str_eq(OK(tl("rate r.timeline auto")),
				 S("r.timeline: auto, drawn every breath, now %s\n", w));
		rate_shown("auto", w, S("auto, drawn every breath, now %s", w));
	}
	tl_close(log);
}
END_TEST

/* A rate set on the log of a writer that has ended is read by no process:
 * rate says so (on stderr; the file is changed, exit 0). Shown, it is
 * what the log says. */
START_TEST(test_rate_of_a_dead_writers_log_warns_that_no_process_will_read_it)
{
	pid_t pid = fork();
	struct res r;
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		tl_close(rate_log());
		_exit(0);
	}
	ck_assert_int_eq(reap(pid), 0);
	r = tl("rate r.timeline 5");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "r.timeline: 5, fixed (events of rate 5 to 9 are logged)\n");
	ck_assert_str_eq(r.err, S("timeline rate: warning: r.timeline: no process will read the new "
				  "rate: its writer (%s, pid %d) has ended\n", info_at(P("r.timeline")).process,
				  (int)pid));
	ck_assert_uint_eq(info_at(P("r.timeline")).rate, 5);
	ck_assert_str_eq(OK(tl("rate r.timeline")),
			 "r.timeline: 5, fixed (events of rate 5 to 9 are logged)\n");
}
END_TEST

/* A rate set in a log whose header names another host (copied home, or
 * on shared storage) is read by no writer here, and its own maps another
 * copy: rate says so in one line naming the log and the host (on stderr;
 * the file is changed, exit 0, as for a writer that has ended). Shown,
 * the rate is news to no one: no warning. */
START_TEST(test_rate_of_another_hosts_log_warns_that_its_writer_will_not_see_it)
{
	tl_log *log = rate_log();
	struct res r;
	patch_host(P("r.timeline"), "far.away.example");
	r = tl("rate r.timeline 7");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "r.timeline: 7, fixed (events of rate 7 to 9 are logged)\n");
	ck_assert_str_eq(r.err, "timeline rate: warning: r.timeline: written on host "
				"'far.away.example', not this one: its writer will not see the new "
				"rate\n");
	ck_assert_uint_eq(info_at(P("r.timeline")).rate, 7);
	ck_assert_str_eq(OK(tl("rate r.timeline")),
			 "r.timeline: 7, fixed (events of rate 7 to 9 are logged)\n");
	tl_close(log);
}
END_TEST

START_TEST(test_rate_of_a_snabb_log_is_refused_exactly)
{
	struct res r;
	snabb_at(P("events.timeline"));
	r = tl("rate events.timeline");
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "timeline rate: events.timeline: a Snabb log keeps its rate in the "
				"process, not the file\n");
	r = tl("rate events.timeline 4");
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "timeline rate: events.timeline: a Snabb log keeps its rate in the "
				"process, not the file\n");
}
END_TEST

START_TEST(test_rate_bad_value_exits_2_with_the_reason)
{
	static const char *const bad[] = { "0", "10", "fast", "4x", "''", "OFF" };
	tl_log *log = rate_log();
	struct res h = tl("rate --help");
	tl_info i;
	ck_assert_int_eq(h.rc, 0);
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		struct res r = tl("rate r.timeline %s", bad[k]);
		ck_assert_msg(r.rc == 2, "rate %s: exit %d", bad[k], r.rc);
		ck_assert_str_eq(r.out, "");
		ck_assert_str_eq(r.err, S("timeline rate: RATE must be all, 1 to 9, off or auto\nsee 'timeline rate --help'\n"));
	}
	ck_assert_uint_eq(tl_rate(log), 1);
	info_of(P("r.timeline"), &i);
	ck_assert_int_eq(i.rate_fixed, 0);
	tl_close(log);
}
END_TEST

START_TEST(test_rate_usage_errors_exit_2)
{
	struct res r;
	tl_log *log = rate_log();
	r = tl("rate");
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.err, S("timeline rate: missing log file\nsee 'timeline rate --help'\n"));
	r = tl("rate r.timeline 4 5");
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.err, S("timeline rate: too many arguments\nsee 'timeline rate --help'\n"));
	ck_assert_uint_eq(tl_rate(log), 1);
	r = tl("rate missing.timeline 4");
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "timeline rate: missing.timeline: No such file or directory\n");
	tl_close(log);
}
END_TEST

/* rate takes logs and directories, as enable does (issue 36): each log
 * under them shown or set, a line each in walk order; what is no log in a
 * directory passed over with a note; a directory of no log said, the
 * others still set. */
START_TEST(test_rate_takes_directories_and_several_logs)
{
	static const char four[] = "4, fixed (events of rate 4 to 9 are logged)";
	tl_log *a, *b, *c;
	struct res r;
	mkdirs(P("d/sub/"));
	mkdirs(P("empty/"));
	a = open_manual(P("d/a.timeline"), 64);
	b = open_manual(P("d/sub/b.timeline"), 64);
	c = open_manual(P("c.timeline"), 64);
	write_file(P("d/notes.txt"), "hi\n", 3);
	r = tl("rate d c.timeline 4");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, S("d/a.timeline: %s\nd/sub/b.timeline: %s\nc.timeline: %s\n", four,
				  four, four));
	ck_assert_str_eq(r.err, "timeline rate: note: skipping d/notes.txt: not a timeline log\n");
	ck_assert_uint_eq(tl_rate(a), 4);
	ck_assert_uint_eq(tl_rate(b), 4);
	ck_assert_uint_eq(tl_rate(c), 4);
	r = tl("rate c.timeline d/sub");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, S("c.timeline: %s\nd/sub/b.timeline: %s\n", four, four));
	r = tl("rate empty d/sub off");
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.out, "d/sub/b.timeline: off, fixed (nothing is logged)\n");
	ck_assert_str_eq(r.err, "timeline rate: empty: no logs\n");
	ck_assert_uint_eq(tl_rate(a), 4);
	ck_assert_uint_eq(tl_rate(b), TL_RATE_OFF);
	r = tl("rate d c.timeline 4 5");
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.err, "timeline rate: too many arguments\nsee 'timeline rate --help'\n");
	tl_close(a);
	tl_close(b);
	tl_close(c);
}
END_TEST

/* tl_reader_warm() reads ahead of the reader's position, never past the
 * snapshot, and tells where to go on from. */
START_TEST(test_reader_warm_stays_between_the_position_and_the_snapshot_end)
{
	const char *p = P("warm.timeline");
	tl_log *log = open_manual(p, 16);
	tl_error err;
	tl_reader *r;
	tl_entry e;
	ck_assert_ptr_nonnull(log);
	for (uint64_t i = 0; i < 40; i++)
		tl_append(log, 0, i, 0, 0, 0, 0, 0);
	tl_close(log);
	r = tl_reader_open(p, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	ck_assert_uint_eq(tl_reader_rewind(r), 16);     /* entries 24..39, and 40 if complete */
	ck_assert_uint_eq(tl_reader_warm(r, 0, 8), 32);  /* from the position, 24, 8 ahead */
	ck_assert_uint_eq(tl_reader_warm(r, 32, 8), 32); /* nothing new within 8 */
	ck_assert_uint_eq(tl_reader_warm(r, 32, 100), 41); /* never past the cursor's entry */
	for (int i = 0; i < 10; i++)
		ck_assert_int_eq(tl_reader_next(r, &e), 1);
	ck_assert_uint_eq(e.args[0], 33);
	ck_assert_uint_eq(tl_reader_warm(r, 0, 4), 38);  /* position 34 now */
	ck_assert_uint_eq(tl_reader_warm(r, 41, 4), 41); /* all done: FROM comes back */
	tl_reader_close(r);
}
END_TEST

/* A merge with the read-ahead thread prints exactly what one without does:
 * the same lines as the inputs' dumps, interleaved by time. */
START_TEST(test_merge_of_large_logs_with_read_ahead_holds_every_entry_once_in_order)
{
	uint64_t total = 0, prev = 0, lines = 0, first = 0;
	char *out;
	for (int f = 0; f < 3; f++) {
		tl_log *log = open_manual(S("%s/big%d.timeline", dir, f), 1 << 16);
		uint16_t id;
		ck_assert_ptr_nonnull(log);
		ck_assert_int_eq(tl_intern(log, "0,9|t.big: i f\nBig.", &id, NULL), TL_OK);
		for (uint64_t i = 0; i < 100000; i++) {   /* wraps: the last 65536 stay */
			tl_set_manual_clock(log, 1000 + 3 * i + (uint64_t)f, 0);
			tl_append(log, id, i, (uint64_t)f, 0, 0, 0, 0);
		}
		tl_close(log);
		total += 1 << 16;
	}
	ck_assert_int_eq(run(S("%s merge -f csv %s/big0.timeline %s/big1.timeline %s/big2.timeline",
			       timeline_bin(), dir, dir, dir), &out, NULL), 0);
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned long long seq, tsc;
		if (lines++ == 0)
			continue;   /* the header row */
		tl_check(sscanf(strchr(line, ',') + 1, "%llu,%llu", &seq, &tsc) == 2, "line %s", line);
		/* every tsc differs: strictly increasing */
		tl_check(tsc > prev, "tsc %llu after %llu", tsc, (unsigned long long)prev);
		prev = tsc;
		if (lines == 2)
			first = tsc;
	}
	ck_assert_uint_eq(lines - 1, total);
	/* first: file 0's oldest kept entry, number 100000 - 65536; last: file 2's last */
	ck_assert_uint_eq(first, 1000 + 3 * (100000 - 65536));
	ck_assert_uint_eq(prev, 1000 + 3 * 99999 + 2);
	free(out);
}
END_TEST

Suite *live_suite(void)
{
	Suite *s = suite_create("live");
	TCase *m = tcase_create("merge"), *l = tcase_create("ls"), *c = tcase_create("copy"),
	      *r = tcase_create("rate");
	TCase *all[] = { m, l, c, r };
	for (int i = 0; i < 4; i++) {
		tcase_add_unchecked_fixture(all[i], fx_base_setup, fx_base_teardown);
		tcase_add_checked_fixture(all[i], fx_setup, teardown);
		tcase_set_timeout(all[i], 120);
	}
	tcase_add_test(m, test_merge_orders_three_processes_logs_by_tsc_exactly);
	tcase_add_test(m, test_merge_of_a_directory_merges_every_log_in_it);
	tcase_add_test(m, test_merge_with_equal_timestamps_keeps_input_order);
	tcase_add_test(m, test_merge_of_two_hosts_orders_by_wall_clock_not_tsc);
	tcase_add_test(m, test_merge_of_two_boots_of_one_host_orders_by_wall_clock);
	tcase_add_test(m, test_merge_of_one_host_and_boot_orders_by_tsc_even_when_walls_interleave);
	tcase_add_test(m, test_merge_with_a_snabb_log_merges_by_tsc_with_one_warning_line);
	tcase_add_test(m, test_merge_limit_stops_after_n_merged_entries);
	tcase_add_test(m, test_merge_filters_like_dump);
	tcase_add_test(m, test_merge_csv_parses_back_with_quoted_file_names);
	tcase_add_test(m, test_merge_json_parses_back_through_jq);
	tcase_add_test(m, test_merge_with_bad_inputs_merges_the_good_ones_and_exits_2);
	tcase_add_test(m, test_merge_without_inputs_is_a_usage_error);
	tcase_add_test(m, test_reader_warm_stays_between_the_position_and_the_snapshot_end);
	tcase_add_test(m, test_merge_of_large_logs_with_read_ahead_holds_every_entry_once_in_order);
	tcase_add_test(l, test_ls_lists_pid_liveness_written_and_rate_of_each_log);
	tcase_add_test(l, test_ls_reads_a_snabb_logs_pid_from_its_path);
	tcase_add_test(l, test_ls_json_lists_every_log_through_jq);
	tcase_add_test(l, test_ls_of_roots_without_logs_says_no_logs_found);
	tcase_add_test(l, test_ls_counts_written_entries_of_several_roots_in_order);
	tcase_add_test(l, test_ls_header_labels_line_up_with_their_columns);
	tcase_add_test(l, test_info_and_ls_say_the_file_system_each_log_lives_on);
	tcase_add_test(l, test_ls_tells_a_reused_pid_from_the_writer_and_says_when_it_has_the_pid_alone);
	tcase_add_test(c, test_copy_of_a_quiet_log_dumps_identically_in_every_format);
	tcase_add_test(c, test_copy_keeps_the_header_process_pid_host_clock_and_anchor);
	tcase_add_test(c, test_copy_of_a_crashed_log_prints_exact_counts_and_writes_its_header);
	tcase_add_test(c, test_copy_of_a_log_that_never_wrapped_holds_a_ring_just_big_enough);
	tcase_add_test(c, test_copy_ring_is_the_next_power_of_two_of_the_entries_at_least_2);
	tcase_add_test(c, test_copy_of_a_log_of_two_threads_keeps_its_lanes);
	tcase_add_test(c, test_copy_zstd_decodes_to_the_same_log);
	tcase_add_test(c, test_copy_of_a_directory_keeps_relative_paths);
	tcase_add_test(c, test_copy_zstd_of_a_directory_adds_zst_to_relative_paths);
	tcase_add_test(c, test_copy_of_several_sources_goes_into_a_directory);
	tcase_add_test(c, test_copy_of_a_log_written_flat_out_holds_only_whole_entries_in_order);
	tcase_add_test(c, test_copy_of_a_log_written_flat_out_prints_the_counts_the_copy_holds);
	tcase_add_test(c, test_copy_of_the_snabb_fixture_is_identical);
	tcase_add_test(c, test_copy_usage_errors_exit_2);
	tcase_add_test(c, test_paths_given_with_trailing_slashes_are_joined_without_a_double_slash);
	tcase_add_test(r, test_rate_set_to_4_is_seen_by_the_writer_and_kept_by_breaths);
	tcase_add_test(r, test_rate_auto_lets_breaths_draw_again);
	tcase_add_test(r, test_rate_off_stops_logging_in_the_writer);
	tcase_add_test(r, test_rate_without_rate_shows_it_exactly_and_changes_nothing);
	tcase_add_test(r, test_rate_of_a_snabb_log_is_refused_exactly);
	tcase_add_test(r, test_rate_bad_value_exits_2_with_the_reason);
	tcase_add_test(r, test_rate_has_one_vocabulary_in_rate_info_ls_top_and_json);
	tcase_add_test(r, test_rate_of_a_dead_writers_log_warns_that_no_process_will_read_it);
	tcase_add_test(r, test_rate_of_another_hosts_log_warns_that_its_writer_will_not_see_it);
	tcase_add_test(r, test_rate_usage_errors_exit_2);
	tcase_add_test(r, test_rate_takes_directories_and_several_logs);
	suite_add_tcase(s, m);
	suite_add_tcase(s, l);
	suite_add_tcase(s, c);
	suite_add_tcase(s, r);
	return s;
}
