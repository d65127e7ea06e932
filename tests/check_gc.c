/* check_gc.c: `timeline gc` run as a user runs it: the logs of processes
 * gone removed (archived first when asked, the archive read back), live
 * logs, copies and Snabb's never touched, --older-than and --dry-run, and
 * errors that name the file and leave its log; then the default roots of
 * ls and gc, as a normal user (roots it may not read passed over) and as
 * root (every user's fallback roots). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "util.h"
#include "../lib/format.h"

/* Where commands run: the test's directory, or one others may enter. */
static const char *cwd;
static char *out, *err;   /* of the last command */

static void setup(void)
{
	fx_setup();
	cwd = fx_dir;
}

static void teardown(void)
{
	rm_rf(fx_dir);
	free(fx_dir);
	free(out);
	free(err);
	out = err = NULL;
	test_kept_free();
}


/* CWD/REL. */
static const char *P(const char *rel) { return test_str("%s/%s", cwd, rel); }

/* Runs the shell command FMT in CWD, with $T the timeline program; OUT and
 * ERR get what it printed. Returns its exit status. */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	va_list ap;
	char *cmd, *full;
	int rc;
	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&cmd, fmt, ap), 0);
	va_end(ap);
	full = xasprintf("cd '%s' && export T='%s' && %s", cwd, timeline_bin(), cmd);
	free(out);
	free(err);
	rc = run(full, &out, &err);
	free(cmd);
	free(full);
	return rc;
}

/* Opens a log at CWD/REL of ENTRIES slots (manual clock, HZ ticks per
 * second) and writes N entries, at 1000 + 10 i with arguments i (and with
 * RANDOM five more random ones, which zstd cannot shrink). */
static tl_log *put_log(const char *rel, uint64_t entries, uint64_t hz, int n, int random)
{
	tl_options o = { .entries = entries, .clock = TL_CLOCK_MANUAL, .tsc_hz = hz,
			 .strings_bytes = 4096, .name = "gc" };
	tl_log *log = tl_open(P(rel), &o, NULL);
	uint64_t x = 88172645463325252ull;
	uint16_t id;
	if (!log || tl_intern(log, "1,9|gc.n: n a b c d e", &id, NULL) != TL_OK)
		return NULL;
	for (int i = 0; i < n; i++) {
		uint64_t r[5] = { 0 };
		for (int k = 0; random && k < 5; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			r[k] = x;
		}
		tl_set_manual_clock(log, 1000 + 10 * (uint64_t)i, 0);
		tl_append(log, id, (uint64_t)i, r[0], r[1], r[2], r[3], r[4]);
	}
	return log;
}

/* A log at CWD/REL of 16 slots with N entries, written by a child process
 * that has exited and been reaped; "%d" in REL is the child's pid (its
 * directory is made 0700). Returns the pid. */
static pid_t dead_log(const char *rel, int n)
{
	int st;
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char *path = xasprintf(rel, (int)getpid()), *slash = strrchr(path, '/');
		*slash = '\0';
		mkdir(P(path), 0700);
		*slash = '/';
		_exit(put_log(path, 16, 1000000000, n, 0) ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child writing %s failed", rel);
	return pid;
}

/* The same for a log of RING slots with N entries of random arguments. */
static void dead_big_log(const char *rel, uint64_t ring, int n)
{
	int st;
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(put_log(rel, ring, 1000000000, n, 1) ? 0 : 1);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static int exists(const char *rel)
{
	struct stat st;
	return lstat(P(rel), &st) == 0;
}

static unsigned mode_of(const char *rel)
{
	struct stat st;
	ck_assert_int_eq(lstat(P(rel), &st), 0);
	return st.st_mode & 07777;
}

/* "REL: VERB (SIZE)\n" for the log at CWD/REL, and its bytes on disk added
 * to *TOTAL. */
static const char *line(const char *rel, const char *verb, uint64_t *total)
{
	uint64_t disk;
	char *w = disk_word(P(rel), &disk);
	const char *l = test_str("%s: %s (%s)\n", rel, verb, w);
	free(w);
	*total += disk;
	return l;
}

/* gc's last line. */
static const char *total_line(int removed, int kept, int failed, uint64_t bytes, int dry)
{
	char *w = bytes_word(bytes);
	const char *l = test_str("gc: %d log%s %s, %d kept, %d failed; %llu bytes (%s) %s\n", removed,
			  removed == 1 ? "" : "s", dry ? "would be removed" : "removed", kept, failed,
			  (unsigned long long)bytes, w, dry ? "would be freed" : "freed");
	free(w);
	return l;
}

/* Does S start with PREFIX? */
static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void patch_u16(const char *rel, size_t off, uint16_t v) { patch_file(P(rel), (long)off, &v, 2); }

static const char *fixture(void)
{
	const char *f = getenv("TIMELINE_FIXTURES");
	return test_str("%s/snabb-v3/engine-short.events.timeline.zst", f && *f ? f : "tests/fixtures");
}

/* ROOT r: a dead process's log in its <pid> directory and another
 * elsewhere, a live log of ours, ours with another start time (a reused
 * pid), ours of format 1.0 (the pid alone), two copies, a Snabb log and a
 * text file. Returns our live log and the dead <pid>. */
static tl_log *gc_root(pid_t *dead)
{
	static const char far[128] = "far.away.example";   /* another host's pid means nothing */
	tl_log *live;
	uint64_t other;
	ck_assert_int_eq(sh("mkdir -p r/a r/b r/c r/s/%d && echo notes > r/c/notes.txt", (int)getpid()), 0);
	*dead = dead_log("r/%d/eng.timeline", 3);
	dead_log("r/a/dead.timeline", 3);
	ck_assert_ptr_nonnull(live = put_log("r/b/alive.timeline", 16, 1000000000, 2, 0));
	dead_log("r/b/far.timeline", 2);
	patch_file(P("r/b/far.timeline"), offsetof(struct tl_header, host), far, sizeof far);
	tl_close(put_log("r/b/old.timeline", 16, 1000000000, 2, 0));
	patch_u16("r/b/old.timeline", offsetof(struct tl_header, minor), 0);
	tl_close(put_log("r/b/reused.timeline", 16, 1000000000, 2, 0));
	other = info_at(P("r/b/reused.timeline")).start_ticks - 1;
	patch_file(P("r/b/reused.timeline"), offsetof(struct tl_header, start_ticks), &other, 8);
	ck_assert_int_eq(sh("$T copy r/a/dead.timeline r/c/copy.timeline >/dev/null && "
			    "$T copy --zstd r/a/dead.timeline r/c/copy.zst >/dev/null"), 0);
	ck_assert_uint_eq(unzstd(fixture(), P(test_str("r/s/%d/events.timeline", (int)getpid()))), 65000064);
	return live;
}

START_TEST(test_gc_removes_the_logs_of_processes_gone_and_nothing_else)
{
	pid_t dead;
	tl_log *live = gc_root(&dead);
	unsigned me = (unsigned)getpid();
	uint64_t total = 0, t2 = 0;
	const char *pid_log = test_str("r/%d/eng.timeline", (int)dead);
	const char *kept = test_str("r/b/alive.timeline: kept: alive (pid %u)\n"
			     "r/b/far.timeline: kept: written on host far.away.example, not this one\n"
			     "r/b/old.timeline: kept: pid %u runs, and the log does not say when its "
			     "writer started\n",
			     me, me);
	const char *tail = test_str("r/c/copy.timeline: kept: a copy\n"
			     "r/c/copy.zst: kept: a copy\n"
			     "r/s/%u/events.timeline: kept: a Snabb log (snabb gc cleans those)\n",
			     me);
	const char *d1 = line(pid_log, "would remove", &total);
	const char *d2 = line("r/a/dead.timeline", "would remove", &total);
	const char *d3 = line("r/b/reused.timeline", "would remove", &total);
	const char *r1 = line(pid_log, "removed", &t2);
	const char *r2 = line("r/a/dead.timeline", "removed", &t2);
	const char *r3 = line("r/b/reused.timeline", "removed", &t2);
	const char *dry = test_str("%s%s%s%s%s%s", d1, d2, kept, d3, tail, total_line(3, 6, 0, total, 1));
	const char *done = test_str("%s%s%s%s%s%s", r1, r2, kept, r3, tail, total_line(3, 6, 0, t2, 0));
	/* a dry run prints what it would do and changes nothing */
	ck_assert_int_eq(sh("$T gc --dry-run r"), 0);
	ck_assert_str_eq(err, "");
	ck_assert_str_eq(out, dry);
	ck_assert(exists(pid_log) && exists("r/a/dead.timeline") && exists("r/b/reused.timeline"));
	ck_assert_int_eq(sh("$T gc r"), 0);
	ck_assert_str_eq(err, "");
	ck_assert_str_eq(out, done);
	/* the logs are gone, and the <pid> directory they emptied */
	ck_assert(!exists(pid_log) && !exists(test_str("r/%d", (int)dead)));
	ck_assert(!exists("r/a/dead.timeline") && exists("r/a"));
	ck_assert(!exists("r/b/reused.timeline"));
	ck_assert(exists("r/b/alive.timeline") && exists("r/b/old.timeline") &&
		  exists("r/b/far.timeline") &&
		  exists("r/c/copy.timeline") && exists("r/c/copy.zst") && exists("r/c/notes.txt") &&
		  exists(test_str("r/s/%u/events.timeline", me)));
	/* the live log still logs, and a second gc finds nothing to do */
	tl_append(live, 16, 1, 2, 3, 4, 5, 6);
	tl_close(live);
	ck_assert_int_eq(sh("$T gc r"), 0);
	ck_assert_str_eq(out, test_str("%s%s%s", kept, tail, total_line(0, 6, 0, 0, 0)));
}
END_TEST

/* The entries of the log at PATH, read back whole. */
static tl_entry *entries_of(const char *path, size_t *n)
{
	uint64_t skipped;
	tl_entry *e = read_all(path, n, &skipped);
	ck_assert_uint_eq(skipped, 0);
	return e;
}

static void assert_archive_holds(const char *zst, const tl_entry *want, size_t n)
{
	size_t got;
	tl_entry *e = entries_of(zst, &got);
	tl_info i = info_at(zst);
	ck_assert_int_eq(i.compressed, 1);
	ck_assert_uint_eq(i.copy_of, 16);
	ck_assert_uint_eq(got, n);
	for (size_t k = 0; k < n; k++)
		ck_assert(e[k].seq == want[k].seq && e[k].tsc == want[k].tsc &&
			  !memcmp(e[k].args, want[k].args, sizeof e[k].args));
	free(e);
}

START_TEST(test_gc_archive_writes_a_zstd_copy_it_read_back_then_removes)
{
	size_t n1, n2;
	uint64_t total = 0;
	pid_t dead;
	tl_entry *e1, *e2;
	tl_log *live;
	const char *pid_log;
	ck_assert_int_eq(sh("mkdir -p r/a r/b"), 0);
	dead = dead_log("r/%d/eng.timeline", 5);
	pid_log = test_str("r/%d/eng.timeline", (int)dead);
	dead_log("r/a/dead.timeline", 20);   /* wrapped: 16 of 20 in the ring */
	ck_assert_ptr_nonnull(live = put_log("r/b/alive.timeline", 16, 1000000000, 2, 0));
	e1 = entries_of(P(pid_log), &n1);
	e2 = entries_of(P("r/a/dead.timeline"), &n2);
	ck_assert_uint_eq(n1, 5);
	ck_assert_uint_eq(n2, 16);
	{
		const char *l1 = line(pid_log, test_str("archived to arch/%d/eng.timeline.zst, removed",
						 (int)dead), &total);
		const char *l2 = line("r/a/dead.timeline",
				      "archived to arch/a/dead.timeline.zst, removed", &total);
		ck_assert_int_eq(sh("$T gc --archive arch r"), 0);
		ck_assert_str_eq(err, "");
		ck_assert_str_eq(out, test_str("%s%sr/b/alive.timeline: kept: alive (pid %d)\n%s", l1, l2,
					(int)getpid(), total_line(2, 1, 0, total, 0)));
	}
	ck_assert(!exists(pid_log) && !exists(test_str("r/%d", (int)dead)) && !exists("r/a/dead.timeline"));
	ck_assert_uint_eq(mode_of("arch"), 0700);
	ck_assert_uint_eq(mode_of(test_str("arch/%d", (int)dead)), 0700);
	ck_assert_uint_eq(mode_of("arch/a"), 0700);
	ck_assert_uint_eq(mode_of(test_str("arch/%d/eng.timeline.zst", (int)dead)), 0600);
	ck_assert_uint_eq(mode_of("arch/a/dead.timeline.zst"), 0600);
	assert_archive_holds(P(test_str("arch/%d/eng.timeline.zst", (int)dead)), e1, n1);
	assert_archive_holds(P("arch/a/dead.timeline.zst"), e2, n2);
	/* a later log of the same name does not overwrite the first archive;
	 * an archive given with a trailing slash is joined without "//" */
	dead_log("r/a/dead.timeline", 4);
	{
		uint64_t t3 = 0;
		const char *l = line("r/a/dead.timeline",
				     "archived to arch/a/dead.timeline.1.zst, removed", &t3);
		ck_assert_int_eq(sh("$T gc --archive arch/ r"), 0);
		ck_assert_str_eq(out, test_str("%sr/b/alive.timeline: kept: alive (pid %d)\n%s", l,
					(int)getpid(), total_line(1, 1, 0, t3, 0)));
	}
	assert_archive_holds(P("arch/a/dead.timeline.zst"), e2, n2);
	{
		size_t n3;
		tl_entry *e3 = entries_of(P("arch/a/dead.timeline.1.zst"), &n3);
		ck_assert_uint_eq(n3, 4);
		ck_assert_uint_eq(e3[3].seq, 3);
		ck_assert_uint_eq(e3[3].args[0], 3);
		free(e3);
	}
	/* an archive that is a symbolic link is refused before anything is done */
	dead_log("r/a/dead.timeline", 2);
	ck_assert_int_eq(sh("ln -s arch arch-link && $T gc --archive arch-link r"), 2);
	ck_assert_str_eq(err, "timeline gc: arch-link: is a symbolic link; refusing to follow it\n");
	ck_assert_str_eq(out, "");
	ck_assert(exists("r/a/dead.timeline"));
	free(e1);
	free(e2);
	tl_close(live);
}
END_TEST

/* Sets the mtime of CWD/REL to SECONDS ago. */
static void age(const char *rel, long seconds)
{
	struct timespec t[2];
	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= seconds;
	t[1] = t[0];
	ck_assert_int_eq(utimensat(AT_FDCWD, P(rel), t, 0), 0);
}

/* A dead process's log at CWD/REL without a clock frequency, so that only
 * its mtime tells when it was written. */
static void dead_log_without_hz(const char *rel)
{
	int st;
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(put_log(rel, 16, 0, 3, 0) ? 0 : 1);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* --older-than goes by the later of the mtime and the last entry's time. */
START_TEST(test_gc_older_than_takes_logs_by_mtime_and_last_entry)
{
	uint64_t total = 0;
	ck_assert_int_eq(sh("mkdir r"), 0);
	dead_log_without_hz("r/a.timeline");   /* mtime 3 h ago, no entry time */
	age("r/a.timeline", 3 * 3600);
	dead_log("r/b.timeline", 3);           /* mtime 3 h ago, entries now */
	age("r/b.timeline", 3 * 3600);
	dead_log("r/c.timeline", 3);           /* both now */
	ck_assert_int_eq(sh("$T gc --older-than 4h r"), 0);
	ck_assert_str_eq(out, test_str("r/a.timeline: kept: last written less than 4h ago\n"
				"r/b.timeline: kept: last written less than 4h ago\n"
				"r/c.timeline: kept: last written less than 4h ago\n%s",
				total_line(0, 3, 0, 0, 0)));
	ck_assert_int_eq(sh("$T gc -n --older-than 7d r"), 0);
	ck_assert_str_eq(out, test_str("r/a.timeline: kept: last written less than 7d ago\n"
				"r/b.timeline: kept: last written less than 7d ago\n"
				"r/c.timeline: kept: last written less than 7d ago\n%s",
				total_line(0, 3, 0, 0, 1)));
	{
		const char *l = line("r/a.timeline", "removed", &total);
		ck_assert_int_eq(sh("$T gc --older-than 2h r"), 0);
		ck_assert_str_eq(err, "");
		ck_assert_str_eq(out, test_str("%sr/b.timeline: kept: last written less than 2h ago\n"
					"r/c.timeline: kept: last written less than 2h ago\n%s",
					l, total_line(1, 2, 0, total, 0)));
	}
	ck_assert(!exists("r/a.timeline") && exists("r/b.timeline") && exists("r/c.timeline"));
	/* usage errors: the reason, where the usage is, exit 2, nothing done */
	ck_assert_int_eq(sh("$T gc --older-than 2x r"), 2);
	ck_assert_str_eq(err, "timeline gc: --older-than takes a duration, e.g. 10m, 2h or 7d\n"
			      "see 'timeline gc --help'\n");
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(sh("$T gc --bogus r"), 2);
	ck_assert_str_eq(err, "timeline gc: unknown option '--bogus'\nsee 'timeline gc --help'\n");
	ck_assert(exists("r/b.timeline") && exists("r/c.timeline"));
	ck_assert_int_eq(sh("$T gc --help"), 0);
	ck_assert_msg(starts(out, "usage: timeline gc [--archive DIR] [--older-than DURATION] "
				  "[--dry-run] [ROOT...]\n"), "%s", out);
}
END_TEST

/* A log gc cannot read, one it cannot archive (a full disk): each named on
 * stderr and left in place, the others still processed, exit 2. */
START_TEST(test_gc_errors_name_the_file_leave_its_log_and_go_on)
{
	uint64_t total = 0;
	const char *pre = geteuid() == 0 ? "setpriv --bounding-set -dac_override,-dac_read_search " : "";
	char *cut;
	size_t len;
	ck_assert_int_eq(sh("mkdir r"), 0);
	dead_log("r/a.timeline", 3);
	dead_log("r/b-cut.timeline", 3);
	cut = read_file(P("r/b-cut.timeline"), &len);
	write_file(P("r/b-cut.timeline"), cut, 4096 + 64);
	free(cut);
	dead_log("r/c-locked.timeline", 3);
	ck_assert_int_eq(chmod(P("r/c-locked.timeline"), 0), 0);
	dead_log("r/d.timeline", 3);
	{
		const char *la = line("r/a.timeline", "removed", &total);
		const char *ld = line("r/d.timeline", "removed", &total);
		ck_assert_int_eq(sh("%s$T gc r", pre), 2);
		ck_assert_str_eq(err, test_str("timeline gc: r/b-cut.timeline: truncated: header says 9216 "
					"bytes, file has 4160\n"
					"timeline gc: r/c-locked.timeline: Permission denied\n"));
		ck_assert_str_eq(out, test_str("%s%s%s", la, ld, total_line(2, 0, 2, total, 0)));
	}
	ck_assert(exists("r/b-cut.timeline") && exists("r/c-locked.timeline"));
	ck_assert(!exists("r/a.timeline") && !exists("r/d.timeline"));
}
END_TEST

/* Archiving into a file system with 64 KiB: a small log fits, a log of
 * random numbers does not (No space left on device, or where the test
 * cannot mount one, a file size limit); its archive is removed, the log
 * kept, and the next one archived. */
START_TEST(test_gc_archive_on_a_full_disk_keeps_the_log_and_goes_on)
{
	int tmpfs = run("unshare -m true", NULL, NULL) == 0;
	const char *why = tmpfs ? "No space left on device" : "File too large";
	uint64_t total = 0;
	ck_assert_int_eq(sh("mkdir r arch"), 0);
	dead_log("r/a.timeline", 3);
	dead_big_log("r/b-big.timeline", 4096, 4096);
	dead_log("r/c.timeline", 3);
	{
		const char *la = line("r/a.timeline", "archived to arch/a.timeline.zst, removed", &total);
		const char *lc = line("r/c.timeline", "archived to arch/c.timeline.zst, removed", &total);
		const char *run = tmpfs ? "unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs arch && "
					  "$T gc --archive arch r; echo rc=$?; ls -A arch'"
					: "sh -c 'trap \"\" XFSZ; ulimit -f 128; $T gc --archive arch r; "
					  "echo rc=$?; ls -A arch'";
		ck_assert_int_eq(sh("%s", run), 0);
		ck_assert_str_eq(err, test_str("timeline gc: arch/b-big.timeline.zst: cannot write the copy: "
					"%s\n", why));
		ck_assert_str_eq(out, test_str("%sr/b-big.timeline: kept: not archived\n%s%src=2\n"
					"a.timeline.zst\nc.timeline.zst\n",
					la, lc, total_line(2, 0, 1, total, 0)));
	}
	ck_assert(exists("r/b-big.timeline") && !exists("r/a.timeline") && !exists("r/c.timeline"));
}
END_TEST

/* An archive written whole that cannot be read back (here: no room to
 * decompress it, TMPDIR missing) is removed, and its log kept. */
START_TEST(test_gc_keeps_a_log_whose_archive_does_not_read_back)
{
	ck_assert_int_eq(sh("mkdir r"), 0);
	dead_log("r/a.timeline", 3);
	ck_assert_int_eq(sh("TMPDIR=/nonexistent $T gc --archive arch r"), 2);
	ck_assert_str_eq(err, "timeline gc: cannot read the archive back: arch/a.timeline.zst: "
			      "cannot make a temporary file: No such file or directory\n");
	ck_assert_str_eq(out, test_str("r/a.timeline: kept: not archived\n%s", total_line(0, 0, 1, 0, 0)));
	ck_assert(exists("r/a.timeline") && exists("arch") && !exists("arch/a.timeline.zst"));
}
END_TEST

/* A directory others may enter, as /var/run is: made 0755 under $TMPDIR
 * and set as CWD; removed at the end of the test by rm_rf(). */
static char *open_top(void)
{
	char *top = tmpdir_new();
	ck_assert_int_eq(chmod(top, 0755), 0);
	cwd = top;
	return top;
}

/* As a normal user (nobody, when the test runs as root), with a root
 * -owned 0700 /var/run/timeline holding a dead process's log: ls and gc
 * pass over the default root they may not read, and report it only when
 * the user named it. */
START_TEST(test_ls_and_gc_as_a_normal_user_pass_over_a_default_root_they_cannot_read)
{
	char *top = open_top();
	int root = geteuid() == 0;
	const char *as = root ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
	const char *env = "env -u TIMELINE_ROOT -u XDG_RUNTIME_DIR TIMELINE_TEST_SYSROOT=sys ";
	const char *closed = "sys/var/run/timeline";
	pid_t dead;
	ck_assert_int_eq(sh("mkdir -p sys/var/run/timeline && chmod 755 sys sys/var sys/var/run && "
			    "chmod 700 sys/var/run/timeline"), 0);
	dead = dead_log("sys/var/run/timeline/%d/eng.timeline", 3);
	if (!root)
		ck_assert_int_eq(chmod(P(closed), 0), 0);   /* closed to its owner too */
	ck_assert_int_eq(sh("%s%s$T ls", env, as), 0);
	ck_assert_str_eq(err, "");
	ck_assert_str_eq(out, "no logs found\n");
	ck_assert_int_eq(sh("%s%s$T ls --format json", env, as), 0);
	ck_assert_str_eq(err, "");
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(sh("%s%s$T gc", env, as), 0);
	ck_assert_str_eq(err, "");
	ck_assert_str_eq(out, total_line(0, 0, 0, 0, 0));
	/* $TIMELINE_ROOT is a default root too */
	ck_assert_int_eq(sh("TIMELINE_ROOT=%s %s$T ls", closed, as), 0);
	ck_assert_str_eq(out, "no logs found\n");
	ck_assert_str_eq(err, "");
	/* named, it is an error */
	ck_assert_int_eq(sh("%s%s$T ls %s", env, as, closed), 2);
	ck_assert_str_eq(err, test_str("timeline ls: %s: Permission denied\n", closed));
	ck_assert_str_eq(out, "no logs found\n");
	ck_assert_int_eq(sh("%s%s$T gc %s", env, as, closed), 2);
	ck_assert_str_eq(err, test_str("timeline gc: %s: Permission denied\n", closed));
	ck_assert_str_eq(out, total_line(0, 0, 1, 0, 0));
	/* the log is still there, and its owner sees and removes it */
	if (!root)
		ck_assert_int_eq(chmod(P(closed), 0700), 0);
	ck_assert(exists(test_str("%s/%d/eng.timeline", closed, (int)dead)));
	{
		uint64_t total = 0;
		const char *l = line(test_str("%s/%d/eng.timeline", closed, (int)dead), "would remove", &total);
		ck_assert_int_eq(sh("%s$T gc -n", env), 0);
		ck_assert_str_eq(err, "");
		ck_assert_str_eq(out, test_str("%s%s", l, total_line(1, 0, 0, total, 1)));
	}
	cwd = fx_dir;
	rm_rf(top);
	free(top);
}
END_TEST

/* The paths and liveness `ls --format json` lists, one "PATH ALIVE" line
 * each, read by Python's strict parser. */
static const char *ls_paths(const char *env)
{
	ck_assert_int_eq(sh("%s$T ls --format json | python3 -c 'import json,sys\n"
			    "for l in sys.stdin:\n"
			    " d = json.loads(l)\n"
			    " print(d[\"path\"], d[\"alive\"])'", env), 0);
	ck_assert_str_eq(err, "");
	return test_str("%s", out);
}

/* Root's ls and gc find the fallback roots of every user: each user's
 * /run/user/UID/timeline and /tmp/timeline-UID, when it is a directory of
 * that user and not a link; a normal user's look only at their own. */
START_TEST(test_roots_ls_and_gc_find_every_users_fallback_roots)
{
	char *top = open_top();
	int root = geteuid() == 0;
	const char *env = "env -u TIMELINE_ROOT -u XDG_RUNTIME_DIR TIMELINE_TEST_SYSROOT=sys ";
	pid_t a, b, c, d;
	uint64_t total = 0;
	const char *la, *lb, *lc;
	ck_assert_int_eq(sh("mkdir -p sys/var/run/timeline sys/run/user/1000/timeline "
			    "sys/tmp/timeline-1000 sys/tmp/timeline-1001 sys/tmp/timeline-x && "
			    "ln -s timeline-1000 sys/tmp/timeline-1002"), 0);
	a = dead_log("sys/var/run/timeline/%d/a.timeline", 1);
	b = dead_log("sys/run/user/1000/timeline/%d/b.timeline", 1);
	c = dead_log("sys/tmp/timeline-1000/%d/c.timeline", 1);
	d = dead_log("sys/tmp/timeline-1001/%d/d.timeline", 1);   /* not 1001's: passed over */
	dead_log("sys/tmp/timeline-x/%d/e.timeline", 1);          /* no uid: passed over */
	la = line(test_str("sys/var/run/timeline/%d/a.timeline", (int)a), "would remove", &total);
	if (!root) {
		/* another user's roots are not looked at */
		ck_assert_str_eq(ls_paths(env), test_str("sys/var/run/timeline/%d/a.timeline False\n", (int)a));
		ck_assert_int_eq(sh("%s$T gc -n", env), 0);
		ck_assert_str_eq(out, test_str("%s%s", la, total_line(1, 0, 0, total, 1)));
	} else {
		ck_assert_int_eq(sh("chown -h 1000 sys/run/user/1000/timeline sys/tmp/timeline-1000 "
				    "sys/tmp/timeline-1001 sys/tmp/timeline-x sys/tmp/timeline-1002"),
				 0);
		ck_assert_str_eq(ls_paths(env),
				 test_str("sys/var/run/timeline/%d/a.timeline False\n"
				   "sys/run/user/1000/timeline/%d/b.timeline False\n"
				   "sys/tmp/timeline-1000/%d/c.timeline False\n",
				   (int)a, (int)b, (int)c));
		lb = line(test_str("sys/run/user/1000/timeline/%d/b.timeline", (int)b), "would remove", &total);
		lc = line(test_str("sys/tmp/timeline-1000/%d/c.timeline", (int)c), "would remove", &total);
		ck_assert_int_eq(sh("%s$T gc -n", env), 0);
		ck_assert_str_eq(err, "");
		ck_assert_str_eq(out, test_str("%s%s%s%s", la, lb, lc, total_line(3, 0, 0, total, 1)));
	}
	ck_assert(exists(test_str("sys/tmp/timeline-1001/%d/d.timeline", (int)d)));
	cwd = fx_dir;
	rm_rf(top);
	free(top);
}
END_TEST

Suite *gc_suite(void)
{
	Suite *s = suite_create("gc");
	TCase *t = tcase_create("gc");
	tcase_add_unchecked_fixture(t, fx_base_setup, fx_base_teardown);
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_gc_removes_the_logs_of_processes_gone_and_nothing_else);
	tcase_add_test(t, test_gc_archive_writes_a_zstd_copy_it_read_back_then_removes);
	tcase_add_test(t, test_gc_older_than_takes_logs_by_mtime_and_last_entry);
	tcase_add_test(t, test_gc_errors_name_the_file_leave_its_log_and_go_on);
	tcase_add_test(t, test_gc_archive_on_a_full_disk_keeps_the_log_and_goes_on);
	tcase_add_test(t, test_gc_keeps_a_log_whose_archive_does_not_read_back);
	tcase_add_test(t, test_ls_and_gc_as_a_normal_user_pass_over_a_default_root_they_cannot_read);
	tcase_add_test(t, test_roots_ls_and_gc_find_every_users_fallback_roots);
	suite_add_tcase(s, t);
	return s;
}
