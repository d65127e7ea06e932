/* check_follow.c: following logs while they are written: tl_reader_since()
 * entry by entry (the cursor, laps, the entry at the cursor, entries
 * overwritten while read), `dump --follow` against a writer logging flat
 * out with every entry accounted for, Snabb logs followed by timestamp,
 * and `merge --follow` in time order within its hold. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "util.h"
#include "../lib/format.h"

#define DEF "4,6|live.e: i a b c d e\nA self-checking entry: every argument follows from i."

/* Entry I's arguments: a torn or mixed entry breaks one of them. */
static void args_of(uint64_t i, uint64_t a[6])
{
	a[0] = i;
	a[1] = ~i;
	a[2] = i * 0x9e3779b97f4a7c15ull;
	a[3] = i ^ 0x5555aaaa5555aaaaull;
	a[4] = (i << 32) | (i >> 32);
	a[5] = i + 7;
}

/* Appends entries I0 to I1 - 1, arguments from each number, at manual
 * timestamps T0, T0 + STEP, ... */
static void put_at(tl_log *log, uint16_t id, uint64_t i0, uint64_t i1, uint64_t t0, uint64_t step)
{
	for (uint64_t i = i0; i < i1; i++) {
		uint64_t a[6];
		args_of(i, a);
		tl_set_manual_clock(log, t0 + (i - i0) * step, 0);
		tl_append(log, id, a[0], a[1], a[2], a[3], a[4], a[5]);
	}
}

/* Appends entries I0 to I1 - 1 at timestamps 1000 + i. */
static void put(tl_log *log, uint16_t id, uint64_t i0, uint64_t i1)
{
	put_at(log, id, i0, i1, 1000 + i0, 1);
}

/* Paths in the test's directory, kept until its end (path_in's two
 * buffers are too few). */
static char *owned[32];
static size_t nowned;

static const char *P(const char *name)
{
	ck_assert_uint_lt(nowned, 32);
	return owned[nowned++] = xasprintf("%s/%s", test_dir, name);
}

static void teardown(void)
{
	test_kept_free();
	while (nowned)
		free(owned[--nowned]);
	test_dir_teardown();
}

static tl_log *manual_log(const char *path, uint64_t entries, uint16_t *id)
{
	tl_log *log = open_manual(path, entries);
	tl_error err;
	ck_assert_msg(tl_intern(log, DEF, id, &err) == TL_OK, "%s", err.msg);
	return log;
}

static tl_reader *reader(const char *path)
{
	tl_error err;
	tl_reader *r = tl_reader_open(path, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	return r;
}

/* Reads R's snapshot: the seqs into SEQ (at most MAX), each entry checked
 * whole; returns how many. */
static size_t read_seqs(tl_reader *r, uint64_t *seq, size_t max)
{
	tl_entry e;
	size_t n = 0;
	while (tl_reader_next(r, &e)) {
		uint64_t a[6];
		args_of(e.seq, a);
		ck_assert_msg(!memcmp(a, e.args, sizeof a), "entry %llu torn", (unsigned long long)e.seq);
		ck_assert_uint_lt(n, max);
		seq[n++] = e.seq;
	}
	return n;
}

/* ---- tl_reader_since ----------------------------------------------------- */

START_TEST(test_since_reads_from_the_number_given_up_to_the_cursor)
{
	const char *p = P("a.timeline");
	uint16_t id;
	tl_log *log = manual_log(p, 16, &id);
	tl_reader *r = reader(p);
	uint64_t seq[32], lost = 99;
	put(log, id, 0, 5);
	ck_assert_uint_eq(tl_reader_since(r, 0, &lost), 5);
	ck_assert_uint_eq(lost, 0);
	ck_assert_uint_eq(read_seqs(r, seq, 32), 5);
	ck_assert_uint_eq(seq[0], 0);
	ck_assert_uint_eq(seq[4], 4);
	put(log, id, 5, 8);
	ck_assert_uint_eq(tl_reader_since(r, 5, &lost), 8);
	ck_assert_uint_eq(read_seqs(r, seq, 32), 3);
	ck_assert(seq[0] == 5 && seq[1] == 6 && seq[2] == 7);
	/* nothing new: an empty snapshot, the same cursor */
	ck_assert_uint_eq(tl_reader_since(r, 8, &lost), 8);
	ck_assert_uint_eq(read_seqs(r, seq, 32), 0);
	/* beyond the cursor: empty, FROM back */
	ck_assert_uint_eq(tl_reader_since(r, 100, NULL), 100);
	ck_assert_uint_eq(read_seqs(r, seq, 32), 0);
	tl_reader_close(r);
	tl_close(log);
}
END_TEST

START_TEST(test_since_counts_the_entries_a_lap_overwrote_as_lost)
{
	const char *p = P("a.timeline");
	uint16_t id;
	tl_log *log = manual_log(p, 8, &id);
	tl_reader *r = reader(p);
	uint64_t seq[32], lost = 0;
	put(log, id, 0, 20);
	/* the ring holds 12..19: from 3, entries 3..11 are gone */
	ck_assert_uint_eq(tl_reader_since(r, 3, &lost), 20);
	ck_assert_uint_eq(lost, 9);
	ck_assert_uint_eq(read_seqs(r, seq, 32), 8);
	ck_assert_uint_eq(seq[0], 12);
	ck_assert_uint_eq(seq[7], 19);
	ck_assert_uint_eq(tl_reader_skipped(r), 0);
	tl_reader_close(r);
	tl_close(log);
}
END_TEST

START_TEST(test_since_skips_and_counts_entries_overwritten_while_read)
{
	const char *p = P("a.timeline");
	uint16_t id;
	tl_log *log = manual_log(p, 8, &id);
	tl_reader *r = reader(p);
	uint64_t seq[32], lost = 1;
	put(log, id, 0, 8);
	ck_assert_uint_eq(tl_reader_since(r, 0, &lost), 8);
	ck_assert_uint_eq(lost, 0);
	put(log, id, 8, 11);   /* over entries 0..2 before they are read */
	ck_assert_uint_eq(read_seqs(r, seq, 32), 5);
	ck_assert_uint_eq(seq[0], 3);
	ck_assert_uint_eq(tl_reader_skipped(r), 3);
	/* the next call goes on at 8: 8..10, nothing skipped */
	ck_assert_uint_eq(tl_reader_since(r, 8, &lost), 11);
	ck_assert_uint_eq(read_seqs(r, seq, 32), 3);
	ck_assert_uint_eq(seq[0], 8);
	ck_assert_uint_eq(tl_reader_skipped(r), 0);
	tl_reader_close(r);
	tl_close(log);
}
END_TEST

START_TEST(test_since_leaves_the_entry_at_the_cursor_for_the_next_call)
{
	const char *p = P("a.timeline");
	uint16_t id;
	tl_log *log = manual_log(p, 16, &id);
	struct tl_header *h = (struct tl_header *)(void *)log;
	tl_reader *r = reader(p);
	uint64_t seq[32];
	put(log, id, 0, 4);
	/* entry 3 stored whole, the cursor not moved yet */
	h->cursor = 3;
	ck_assert_uint_eq(tl_reader_rewind(r), 3);
	ck_assert_uint_eq(read_seqs(r, seq, 32), 4);   /* rewind takes it */
	ck_assert_uint_eq(tl_reader_since(r, 0, NULL), 3);
	ck_assert_uint_eq(read_seqs(r, seq, 32), 3);   /* since leaves it */
	ck_assert_uint_eq(seq[2], 2);
	h->cursor = 4;
	ck_assert_uint_eq(tl_reader_since(r, 3, NULL), 4);
	ck_assert_uint_eq(read_seqs(r, seq, 32), 1);
	ck_assert_uint_eq(seq[0], 3);
	tl_reader_close(r);
	tl_close(log);
}
END_TEST

/* The seqs (slots) of R's snapshot: the first into *FIRST; returns how many. */
static uint64_t snapshot_slots(tl_reader *r, uint64_t *first)
{
	tl_entry e;
	uint64_t n = 0, prev = 0;
	while (tl_reader_next(r, &e)) {
		if (!n)
			*first = e.seq;
		else
			ck_assert_uint_eq(e.seq, prev + 1);
		prev = e.seq;
		n++;
	}
	return n;
}

START_TEST(test_since_of_a_snabb_log_goes_from_the_last_slot_read_while_time_goes_on)
{
	const char *f = getenv("TIMELINE_FIXTURES"), *p = P("events.timeline");
	char *zst = xasprintf("%s/snabb-v3/engine-short.events.timeline.zst", f && *f ? f : "tests/fixtures");
	tl_reader *r;
	uint64_t lost = 7, first = 99;
	unzstd(zst, p);
	r = reader(p);
	/* slots 0 to 2576 of a million hold entries, in time order */
	ck_assert_uint_eq(tl_reader_since(r, 1234, &lost), 2577);
	ck_assert_uint_eq(lost, 0);
	ck_assert_uint_eq(snapshot_slots(r, &first), 1344);   /* from 1233, the last read */
	ck_assert_uint_eq(first, 1233);
	ck_assert_uint_eq(tl_reader_since(r, 2577, NULL), 2577);
	ck_assert_uint_eq(snapshot_slots(r, &first), 1);      /* the last one again */
	ck_assert_uint_eq(first, 2576);
	/* slot 999999 is unused: from 0 on, the whole log */
	ck_assert_uint_eq(tl_reader_since(r, 0, NULL), 2577);
	ck_assert_uint_eq(snapshot_slots(r, &first), 2577);
	ck_assert_uint_eq(first, 0);
	tl_reader_close(r);
	free(zst);
}
END_TEST

/* ---- a scripted writer --------------------------------------------------- */

/* A child that writes a log at the parent's word: each command is "N" (the
 * next N entries, at manual timestamps 1000 + i), "N T0 STEP" (the next N
 * at T0, T0 + STEP, ...), "F N" (the next N flat out, for a log on the
 * TSC) or "F N MS" (flat out, up to N entries or until MS ms have passed,
 * whichever comes first: bounded however the machine shares its CPUs); it
 * answers each with one byte, and ends at "X". It dies with its parent. */
struct writer {
	pid_t pid;
	int to, from;                /* command pipe, answer pipe */
};

/* Milliseconds on CLOCK_MONOTONIC. */
static uint64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* Appends entries NEXT, NEXT + 1, ... flat out, up to N of them, looking at
 * the clock every 1024 and stopping once MS ms have passed (MS 0: no
 * limit); returns how many it wrote. */
static uint64_t flat_out(tl_log *log, uint16_t id, uint64_t next, uint64_t n, uint64_t ms)
{
	uint64_t end = ms ? now_ms() + ms : 0, i = 0;
	for (; i < n; i++) {
		uint64_t a[6];
		if (ms && !(i & 1023) && i && now_ms() >= end)
			break;
		args_of(next + i, a);
		tl_append(log, id, a[0], a[1], a[2], a[3], a[4], a[5]);
	}
	return i;
}

/* A second thread of the writer: N entries flat out, numbered from 0. */
struct side {
	tl_log *log;
	uint16_t id;
	uint64_t n;
};

static void *side_flat_out(void *arg)
{
	struct side *s = arg;
	flat_out(s->log, s->id, 0, s->n, 0);
	return NULL;
}

static void writer_loop(tl_log *log, uint16_t id, FILE *in, int out)
{
	char line[64];
	uint64_t next = 0, n, t0, step, ms = 0;
	while (fgets(line, sizeof line, in) && line[0] != 'X') {
		if (sscanf(line, "T %llu", (unsigned long long *)&n) == 1) {
			/* a second thread and this one, N each, at once */
			struct side s = { log, id, n };
			pthread_t th;
			if (pthread_create(&th, NULL, side_flat_out, &s))
				_exit(1);
			next += flat_out(log, id, next, n, 0);
			pthread_join(th, NULL);
		} else if (sscanf(line, "F %llu %llu", (unsigned long long *)&n, (unsigned long long *)&ms) >= 1) {
			next += flat_out(log, id, next, n, ms);
			ms = 0;
		} else if (sscanf(line, "%llu %llu %llu", (unsigned long long *)&n,
				  (unsigned long long *)&t0, (unsigned long long *)&step) == 3) {
			put_at(log, id, next, next + n, t0, step);
			next += n;
		} else if (sscanf(line, "%llu", (unsigned long long *)&n) == 1) {
			put(log, id, next, next + n);
			next += n;
		}
		if (write(out, "k", 1) != 1)
			_exit(1);
	}
	_exit(0);
}

/* Starts a writer of a log at PATH with ENTRIES slots; MANUAL: manual
 * timestamps (1000 + i), else the TSC. */
static struct writer writer_start(const char *path, uint64_t entries, int manual)
{
	int to[2], from[2];
	struct writer w;
	pid_t parent = getpid();
	char c;
	/* not inherited by the commands the test runs: a writer ends at "X" */
	ck_assert_int_eq(pipe2(to, O_CLOEXEC), 0);
	ck_assert_int_eq(pipe2(from, O_CLOEXEC), 0);
	w.pid = fork();
	ck_assert_int_ge(w.pid, 0);
	if (w.pid == 0) {
		tl_options o = { .entries = entries, .strings_bytes = 4096, .name = "w",
				 .clock = manual ? TL_CLOCK_MANUAL : TL_CLOCK_AUTO,
				 .tsc_hz = manual ? 1000000000 : 0 };
		tl_log *log;
		uint16_t id;
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		close(to[1]);
		close(from[0]);
		if (!(log = tl_open(path, &o, NULL)) || tl_intern(log, DEF, &id, NULL) ||
		    write(from[1], "r", 1) != 1)
			_exit(1);
		writer_loop(log, id, fdopen(to[0], "r"), from[1]);
	}
	close(to[0]);
	close(from[1]);
	w.to = to[1];
	w.from = from[0];
	ck_assert_int_eq(read(w.from, &c, 1), 1);   /* the log exists */
	return w;
}

/* Tells W to run CMD ("N", "F N" or "T N") and waits until it has. */
static void writer_do(struct writer *w, const char *cmd)
{
	char c;
	ck_assert_int_eq(write(w->to, cmd, strlen(cmd)), (ssize_t)strlen(cmd));
	ck_assert_int_eq(write(w->to, "\n", 1), 1);
	ck_assert_int_eq(read(w->from, &c, 1), 1);
}

/* Ends W and reaps it: its process is gone, as a follower sees it. */
static void writer_end(struct writer *w)
{
	int st;
	ck_assert_int_eq(write(w->to, "X\n", 2), 2);
	close(w->to);
	close(w->from);
	ck_assert_int_eq(waitpid(w->pid, &st, 0), w->pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer failed");
}

/* Lines in file PATH. */
static size_t lines_in(const char *path)
{
	size_t len, n = 0;
	char *s = read_file(path, &len);
	for (size_t i = 0; s && i < len; i++)
		n += s[i] == '\n';
	free(s);
	return n;
}

/* Waits up to 20 s until PATH holds N lines. */
static void wait_lines(const char *path, size_t n)
{
	for (int k = 0; k < 2000 && lines_in(path) < n; k++)
		usleep(10000);
	ck_assert_uint_ge(lines_in(path), n);
}

/* Waits up to 20 s until the file at PATH holds TEXT. */
static void wait_text(const char *path, const char *text)
{
	char *s = read_file(path, NULL);
	for (int k = 0; k < 2000 && !(s && strstr(s, text)); k++) {
		usleep(10000);
		free(s);
		s = read_file(path, NULL);
	}
	ck_assert_msg(s && strstr(s, text), "%s: no '%s' in:\n%s", path, text, s ? s : "");
	free(s);
}

/* Stops PID, which must stop (not end), and waits until it has. */
static void stop_child(pid_t pid)
{
	int st;
	ck_assert_int_eq(kill(pid, SIGSTOP), 0);
	ck_assert_int_eq(waitpid(pid, &st, WUNTRACED), pid);
	ck_assert_msg(WIFSTOPPED(st), "%d ended: %#x", (int)pid, st);
}

/* Ends the writer W, whose end ends the follower F (exit 0); returns what
 * F printed to OUT, and what it printed to ERRP into *ERR if not NULL. */
static char *follower_end(pid_t f, struct writer *w, const char *out, const char *errp, char **err)
{
	writer_end(w);
	ck_assert_int_eq(reap(f), 0);
	if (err)
		*err = read_file(errp, NULL);
	return read_file(out, NULL);
}

/* ---- dump --follow ------------------------------------------------------- */

/* The line a follower says at its end, for PATH: N entries A to B. */
static char *followed(const char *cmd, const char *path, uint64_t n, uint64_t a, uint64_t b,
		      uint64_t read, uint64_t lost)
{
	return xasprintf("timeline %s: %s: followed %llu entries, %llu to %llu: %llu read, "
			 "%llu lost\n", cmd, path, (unsigned long long)n, (unsigned long long)a,
			 (unsigned long long)b, (unsigned long long)read, (unsigned long long)lost);
}

/* What a followed dump printed, checked line by line: each entry whole and
 * the next number after the line before, each lost line the gap. */
struct tally {
	uint64_t next;               /* the entry number expected next */
	uint64_t read, lost, gaps;
};

static void tally_from(const char *out, struct tally *t, uint64_t first)
{
	const char *l = out;
	memset(t, 0, sizeof *t);
	t->next = first;
	while (*l) {
		const char *nl = strchr(l, '\n'), *p;
		unsigned long long n, a, b, v[6];
		ck_assert_ptr_nonnull(nl);
		if (sscanf(l, "--- %*[^[][%*u]: %llu entries lost (%llu to %llu): overwritten before they "
			   "were read", &n, &a, &b) == 3) {
			ck_assert_uint_eq(a, t->next);
			ck_assert_uint_eq(b, a + n - 1);
			t->next = b + 1;
			t->lost += n;
			t->gaps++;
		} else {
			uint64_t want[6];
			ck_assert_msg((p = strstr(l, " live.e i=")) && p < nl, "line: %.*s", (int)(nl - l), l);
			ck_assert_int_eq(sscanf(p, " live.e i=%llu a=%llu b=%llu c=%llu d=%llu e=%llu", &v[0],
						&v[1], &v[2], &v[3], &v[4], &v[5]), 6);
			ck_assert_uint_eq(v[0], t->next);   /* in order, none twice, no gap unsaid */
			args_of(v[0], want);
			for (int i = 0; i < 6; i++)
				ck_assert_msg(v[i] == want[i], "entry %llu torn", v[0]);
			t->next++;
			t->read++;
		}
		l = nl + 1;
	}
}

/* The same from entry 0. */
static void tally_text(const char *out, struct tally *t)
{
	tally_from(out, t, 0);
}

START_TEST(test_dump_follow_of_a_flat_out_writer_accounts_for_every_entry)
{
	const char *p = P("w.timeline"), *out = P("out.txt");
	const char *errp = P("err.txt");
	struct writer w = writer_start(p, 1024, 0);
	char *cmd, *err, *text, *want;
	uint64_t written;
	struct tally t;
	pid_t dump;
	writer_do(&w, "F 1000");
	cmd = xasprintf("exec '%s' dump --follow --lines all %s >%s 2>%s", timeline_bin(), p, out, errp);
	dump = spawn(cmd);
	wait_lines(out, 1000);   /* it follows from entry 0 */
	/* a lap the dump cannot miss: 5000 entries into the ring of 1024
	 * while the dump is stopped, so entries 1000..4975 are gone before it
	 * reads again, however the two processes share the CPUs */
	ck_assert_int_eq(kill(dump, SIGSTOP), 0);
	writer_do(&w, "F 5000");
	ck_assert_int_eq(kill(dump, SIGCONT), 0);
	/* then a race: flat out while the dump prints, bounded by count and by
	 * time (the output stays small, whoever gets the CPU) */
	writer_do(&w, "F 200000 300");
	written = info_at(p).cursor;
	writer_end(&w);          /* its process gone: the dump ends */
	ck_assert_int_eq(reap(dump), 0);
	text = read_file(out, NULL);
	err = read_file(errp, NULL);
	tally_text(text, &t);
	/* whatever the interleaving: every number from 0 to the last written
	 * read or said lost, in order, none twice (tally_text), each whole */
	ck_assert_uint_ge(written, 6000 + 1024);
	ck_assert_uint_eq(t.next, written);
	ck_assert_uint_eq(t.read + t.lost, written);
	want = followed("dump", p, written, 0, written - 1, t.read, t.lost);
	ck_assert_str_eq(err, want);
	/* the first 1000 read before the stop; the lap said as a gap */
	ck_assert_uint_ge(t.read, 1000);
	ck_assert_uint_ge(t.lost, 6000 - 1000 - 1024);
	ck_assert_uint_gt(t.gaps, 0);
	free(want);
	free(cmd);
	free(err);
	free(text);
}
END_TEST

/* What a follower printed of a log of two threads as JSON lines: for each
 * thread, its numbers read or said lost, in order, none twice, each entry
 * whole. */
struct tally2 {
	uint64_t next[4], read[4], lost[4];
};

static void tally_json(const char *text, struct tally2 *t)
{
	memset(t, 0, sizeof *t);
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n'), *k;
		unsigned long long seq, first, last, thread = 0, a[6];
		uint64_t want[6];
		ck_assert_ptr_nonnull(nl);
		if ((k = strstr(l, "\"thread\":")) && k < nl)
			ck_assert_int_eq(sscanf(k, "\"thread\":%llu", &thread), 1);
		ck_assert_uint_lt(thread, 4);
		if ((k = strstr(l, "\"lost\":")) && k < nl) {
			ck_assert_int_eq(sscanf(strstr(l, "\"first_seq\":"), "\"first_seq\":%llu", &first), 1);
			ck_assert_int_eq(sscanf(strstr(l, "\"last_seq\":"), "\"last_seq\":%llu", &last), 1);
			tl_check(first == t->next[thread], "thread %llu: lost from %llu, expected %llu",
				 thread, first, (unsigned long long)t->next[thread]);
			t->lost[thread] += last - first + 1;
			t->next[thread] = last + 1;
		} else {
			k = strstr(l, "\"seq\":");
			ck_assert_int_eq(sscanf(k, "\"seq\":%llu", &seq), 1);
			k = strstr(l, "\"args\":");
			ck_assert_int_eq(sscanf(k, "\"args\":{\"i\":%llu,\"a\":%llu,\"b\":%llu,\"c\":%llu,"
						"\"d\":%llu,\"e\":%llu}", &a[0], &a[1], &a[2], &a[3], &a[4],
						&a[5]), 6);
			args_of(seq, want);
			tl_check(a[0] == want[0] && a[1] == want[1] && a[2] == want[2] && a[3] == want[3] &&
				 a[4] == want[4] && a[5] == want[5], "thread %llu: entry %llu torn", thread,
				 seq);
			tl_check(seq == t->next[thread], "thread %llu: entry %llu, expected %llu", thread,
				 seq, (unsigned long long)t->next[thread]);
			t->read[thread]++;
			t->next[thread] = seq + 1;
		}
		l = nl + 1;
	}
}

/* A log one thread writes, then others: three threads, one after the
 * other, each flat out beside the first through a ring of 1024, their
 * lanes made while the follower runs (mapped after it opened the log),
 * lane 0's writer going on in a lane of its own; the follower stopped
 * while the third writes: each thread's every number read or said lost,
 * apart, and the report of all. */
START_TEST(test_dump_follow_of_two_threads_accounts_for_each_ones_entries)
{
	const char *p = P("w.timeline"), *out = P("out.json"), *errp = P("err.txt");
	struct writer w = writer_start(p, 1024, 0);
	char *cmd, *text, *err, *want;
	struct tally2 t;
	tl_thread th[4];
	tl_reader *r;
	pid_t dump;
	writer_do(&w, "F 500");
	cmd = xasprintf("exec '%s' dump --follow --lines all -f json %s >%s 2>%s", timeline_bin(), p,
			out, errp);
	dump = spawn(cmd);
	wait_lines(out, 500);
	writer_do(&w, "T 3000");         /* read as it comes, or lapped */
	stop_child(dump);
	writer_do(&w, "T 5000");         /* a lap of each thread it cannot miss */
	ck_assert_int_eq(kill(dump, SIGCONT), 0);
	writer_do(&w, "T 2000");
	r = reader(p);
	ck_assert_uint_eq(tl_reader_threads(r), 4);
	for (unsigned k = 0; k < 4; k++)
		tl_reader_thread(r, k, &th[k]);
	tl_reader_close(r);
	text = follower_end(dump, &w, out, errp, &err);
	tally_json(text, &t);
	/* this thread wrote 500 + 10,000, the others 3000, 5000, 2000 */
	ck_assert_uint_eq(th[0].written, 10500);
	ck_assert_uint_eq(th[1].written, 3000);
	ck_assert_uint_eq(th[2].written, 5000);
	ck_assert_uint_eq(th[3].written, 2000);
	for (int k = 0; k < 4; k++) {
		ck_assert_uint_eq(t.next[k], th[k].written);
		ck_assert_uint_eq(t.read[k] + t.lost[k], th[k].written);
	}
	ck_assert_uint_ge(t.lost[0], 5000 - 1024);   /* lapped while it was stopped */
	ck_assert_uint_ge(t.lost[2], 5000 - 1024);
	ck_assert_uint_ge(t.read[0], 500);
	want = xasprintf("timeline dump: %s: followed 20500 entries of 4 threads: %llu read, "
			 "%llu lost\n", p,
			 (unsigned long long)(t.read[0] + t.read[1] + t.read[2] + t.read[3]),
			 (unsigned long long)(t.lost[0] + t.lost[1] + t.lost[2] + t.lost[3]));
	ck_assert_str_eq(err, want);
	free(want);
	free(cmd);
	free(text);
	free(err);
}
END_TEST

/* A ring that wrapped before the follower came: followed from its oldest
 * entry, 12 of 0..19 in a ring of 8, each of 12..19 read once. */
START_TEST(test_dump_follow_of_a_wrapped_ring_starts_at_its_oldest_entry)
{
	const char *p = P("w.timeline"), *out = P("out.txt"), *errp = P("err.txt");
	struct writer w = writer_start(p, 8, 1);
	char *cmd = xasprintf("exec '%s' dump --follow --lines all %s >%s 2>%s", timeline_bin(), p, out,
			      errp);
	char *text, *err, *want = followed("dump", p, 8, 12, 19, 8, 0);
	struct tally t;
	pid_t dump;
	writer_do(&w, "20");
	dump = spawn(cmd);
	wait_text(out, " live.e i=19 ");
	text = follower_end(dump, &w, out, errp, &err);
	tally_from(text, &t, 12);   /* 12, 13, ..., each whole, no loss said */
	ck_assert(t.next == 20 && t.read == 8 && t.lost == 0);
	ck_assert_str_eq(err, want);
	free(want);
	free(cmd);
	free(text);
	free(err);
}
END_TEST

/* A zstd copy of a running writer's log, and a copy of it that says it
 * is of another host, hold all they will ever hold: followed, each ends
 * once it is read, while the writer (of their pid, on this host) runs. */
START_TEST(test_dump_follow_of_a_copy_ends_at_once_while_its_writer_runs)
{
	const char *p = P("w.timeline"), *zst = P("w.timeline.zst"), *other = P("other.timeline");
	struct writer w = writer_start(p, 64, 1);
	const char *copies[] = { zst, other };
	char host[128] = "elsewhere", *cmd, *out, *err, *want;
	writer_do(&w, "15");
	cmd = xasprintf("'%s' copy --zstd %s %s && '%s' copy %s %s", timeline_bin(), p, zst, timeline_bin(),
			p, other);
	ck_assert_int_eq(run(cmd, NULL, NULL), 0);
	free(cmd);
	patch_file(other, 256, host, sizeof host);   /* the header's host */
	for (int k = 0; k < 2; k++) {
		/* a follower that waited for the writer would be killed by timeout
		 * (SIGKILL: on SIGTERM it would end as asked, with its report) */
		size_t lines = 0;
		cmd = xasprintf("timeout -s KILL 20 '%s' dump --follow --lines all %s", timeline_bin(),
				copies[k]);
		ck_assert_int_eq(run(cmd, &out, &err), 0);
		for (const char *l = out; (l = strstr(l, " live.e i=")); l++)
			lines++;
		ck_assert_uint_eq(lines, 15);
		want = followed("dump", copies[k], 15, 0, 14, 15, 0);
		ck_assert_str_eq(err, want);
		ck_assert_int_eq(kill(w.pid, 0), 0);   /* the writer ran all along */
		free(want);
		free(cmd);
		free(out);
		free(err);
	}
	writer_end(&w);
}
END_TEST

/* The CSV dump of the first N entries of a manual writer's log PATH. */
static char *csv_rows(const char *path, uint64_t n)
{
	char *s = xasprintf("file,seq,tsc,time,cpu,numa,event,attrs,arg0,arg1,arg2,arg3,arg4,arg5,"
			    "argnames,thread\n");
	for (uint64_t i = 0; i < n; i++) {
		uint64_t a[6];
		char *t;
		args_of(i, a);
		t = xasprintf("%s\"%s\",%llu,%llu,%llu,0,0,\"live.e\",\"\",%llu,%llu,%llu,%llu,%llu,%llu,"
			      "\"i a b c d e\",0\n",
			      s, path, (unsigned long long)i, (unsigned long long)(1000 + i),
			      (unsigned long long)i, (unsigned long long)a[0], (unsigned long long)a[1],
			      (unsigned long long)a[2], (unsigned long long)a[3], (unsigned long long)a[4],
			      (unsigned long long)a[5]);
		free(s);
		s = t;
	}
	return s;
}

START_TEST(test_dump_follow_limit_ends_at_n_entries_while_the_writer_runs)
{
	const char *p = P("w.timeline");
	struct writer w = writer_start(p, 64, 1);
	char *cmd = xasprintf("'%s' dump --follow --limit 3 -f csv %s", timeline_bin(), p), *out, *err;
	char *want = followed("dump", p, 3, 0, 2, 3, 0), *rows = csv_rows(p, 3);
	writer_do(&w, "5");
	/* it ends at 3 entries, though the writer runs and 2 more are there */
	ck_assert_int_eq(run(cmd, &out, &err), 0);
	ck_assert_str_eq(out, rows);
	ck_assert_str_eq(err, want);
	writer_end(&w);
	free(want);
	free(rows);
	free(cmd);
	free(out);
	free(err);
}
END_TEST

START_TEST(test_dump_follow_ends_on_sigint_with_its_report)
{
	const char *p = P("w.timeline"), *out = P("out.txt");
	const char *errp = P("err.txt");
	struct writer w = writer_start(p, 64, 1);
	char *cmd = xasprintf("exec '%s' dump --follow %s >%s 2>%s", timeline_bin(), p, out, errp);
	char *err, *want = followed("dump", p, 4, 0, 3, 4, 0);
	pid_t dump;
	writer_do(&w, "4");
	dump = spawn(cmd);
	wait_lines(out, 4);
	kill(dump, SIGINT);   /* the writer runs on: only the signal ends it */
	ck_assert_int_eq(reap(dump), 0);
	err = read_file(errp, NULL);
	ck_assert_str_eq(err, want);
	writer_end(&w);
	free(cmd);
	free(err);
	free(want);
}
END_TEST

START_TEST(test_dump_follow_json_says_each_loss_as_an_object_in_the_stream)
{
	const char *p = P("w.timeline"), *out = P("out.json");
	struct writer w = writer_start(p, 8, 1);
	char *cmd = xasprintf("exec '%s' dump --follow -f json %s >%s 2>/dev/null", timeline_bin(), p, out);
	char *py, *got;
	pid_t dump;
	writer_do(&w, "2");
	dump = spawn(cmd);
	wait_lines(out, 2);
	/* 2..21 into a ring of 8 between two polls, the dump stopped meanwhile
	 * (a writer preempted half way would let it read some): 2..13 lost */
	ck_assert_int_eq(kill(dump, SIGSTOP), 0);
	writer_do(&w, "20");
	ck_assert_int_eq(kill(dump, SIGCONT), 0);
	wait_lines(out, 11);
	writer_end(&w);
	ck_assert_int_eq(reap(dump), 0);
	/* parsed strictly: entries 0, 1, then the loss of 2..13, then 14..21 */
	py = xasprintf("python3 -c 'import json,sys\n"
		       "def nan(c): raise ValueError(c)\n"
		       "for l in open(sys.argv[1]):\n"
		       "  o=json.loads(l,parse_constant=nan)\n"
		       "  print(o[\"lost\"], o[\"first_seq\"], o[\"last_seq\"]) if \"lost\" in o else print(o[\"seq\"], o[\"args\"][\"i\"])' %s", out);
	ck_assert_int_eq(run(py, &got, NULL), 0);
	ck_assert_str_eq(got, "0 0\n1 1\n12 2 13\n14 14\n15 15\n16 16\n17 17\n18 18\n19 19\n20 20\n21 21\n");
	free(py);
	free(got);
	free(cmd);
}
END_TEST

/* ---- Snabb logs, by timestamp -------------------------------------------- */

#define SNABB_SLOTS 16

/* A Snabb v3 log of SNABB_SLOTS slots at DIR/PID/events.timeline, where
 * Snabb keeps it, mapped for the test to write; its one definition is
 * "1,9|test.e: i". */
static unsigned char *snabb_log(const char *dir, pid_t pid, char **path)
{
	size_t len = 64 + SNABB_SLOTS * 64 + 64;
	uint64_t magic = 0xa3ff7223441d0001ull;
	uint16_t major = 3;
	uint32_t lb = SNABB_SLOTS * 64, sb = 64;
	unsigned char *b = calloc(1, len), *m;
	char *d = xasprintf("%s/%d", dir, (int)pid);
	int fd;
	ck_assert_int_eq(mkdir(d, 0700), 0);
	*path = xasprintf("%s/events.timeline", d);
	memcpy(b, &magic, 8);
	memcpy(b + 8, &major, 2);
	memcpy(b + 12, &lb, 4);
	memcpy(b + 16, &sb, 4);
	strcpy((char *)b + 64 + SNABB_SLOTS * 64, "1,9|test.e: i");
	write_file(*path, b, len);
	fd = open(*path, O_RDWR);
	ck_assert_int_ge(fd, 0);
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ck_assert(m != MAP_FAILED);
	close(fd);
	free(b);
	free(d);
	return m;
}

/* Writes Snabb entries I0 to I1 - 1 into the ring M: slot i % SNABB_SLOTS,
 * timestamp 100 + i (stored last, as Snabb does), argument i. */
static void snabb_put(unsigned char *m, uint64_t i0, uint64_t i1)
{
	for (uint64_t i = i0; i < i1; i++) {
		unsigned char *s = m + 64 + (i % SNABB_SLOTS) * 64;
		double t = (double)(100 + i), a = (double)i;
		memset(s + 8, 0, 56);
		memcpy(s + 16, &a, 8);
		__atomic_thread_fence(__ATOMIC_RELEASE);
		memcpy(s, &t, 8);
	}
}

START_TEST(test_dump_follow_of_a_snabb_log_goes_by_timestamp_and_says_a_lap)
{
	const char *out = P("out.txt"), *errp = P("err.txt");
	pid_t snabb = spawn("exec sleep 60");   /* the log's process, by its path */
	char *p, *cmd, *text, *err, *want;
	unsigned char *m = snabb_log(test_dir, snabb, &p);
	uint64_t next = 0;
	pid_t dump;
	snabb_put(m, 0, 5);
	cmd = xasprintf("exec '%s' dump --follow %s >%s 2>%s", timeline_bin(), p, out, errp);
	dump = spawn(cmd);
	wait_lines(out, 5);
	snabb_put(m, 5, 10);
	wait_lines(out, 10);
	/* 2.5 rings at once, the dump stopped meanwhile (this process could
	 * be preempted half way): 10..33 overwritten unread */
	ck_assert_int_eq(kill(dump, SIGSTOP), 0);
	snabb_put(m, 10, 50);
	ck_assert_int_eq(kill(dump, SIGCONT), 0);
	wait_lines(out, 12);
	kill(snabb, SIGKILL);
	reap(snabb);
	ck_assert_int_eq(reap(dump), 0);
	text = read_file(out, NULL);
	err = read_file(errp, NULL);
	/* 0..9, one line for the lap, then the ring's 34..49 */
	for (char *l = text; *l; l = strchr(l, '\n') + 1) {
		unsigned long long i, t;
		if (!strncmp(l, "--- ", 4)) {
			ck_assert_uint_eq(next, 10);
			ck_assert(!strncmp(l, "--- ", 4) && strstr(l, ": entries lost (a Snabb log has no "
								 "cursor to count them): overwritten "
								 "before they were read\n"));
			next = 34;
			continue;
		}
		ck_assert_int_eq(sscanf(l, "%llu %*u %*u test.e i=%llu", &t, &i), 2);
		ck_assert_uint_eq(i, next);
		ck_assert_uint_eq(t, i);   /* cycles since the first entry, 100 */
		next++;
	}
	ck_assert_uint_eq(next, 50);
	want = xasprintf("timeline dump: %s: followed by timestamp: 26 entries read; entries were "
			 "lost at 1 places, uncounted (a Snabb log has no cursor)\n", p);
	ck_assert_str_eq(err, want);
	free(want);
	free(text);
	free(err);
	free(cmd);
	free(p);
}
END_TEST

/* --lines 5 of a Snabb log of 11 entries (two rounds of the ring of five
 * marks and one more: the oldest mark at 1, rotated to the front): the
 * newest five, 6 to 10, then what comes; a Snabb log starts by timestamp,
 * from the oldest mark's. */
START_TEST(test_dump_follow_lines_of_a_snabb_log_starts_at_the_oldest_of_the_last_n)
{
	const char *out = P("out.txt"), *errp = P("err.txt");
	pid_t snabb = spawn("exec sleep 60");
	char *p, *cmd, *text;
	unsigned char *m = snabb_log(test_dir, snabb, &p);
	uint64_t next = 6;
	pid_t dump;
	snabb_put(m, 0, 11);
	cmd = xasprintf("exec '%s' dump --follow --lines 5 %s >%s 2>%s", timeline_bin(), p, out, errp);
	dump = spawn(cmd);
	wait_lines(out, 5);
	snabb_put(m, 11, 12);
	wait_lines(out, 6);
	kill(snabb, SIGKILL);
	reap(snabb);
	ck_assert_int_eq(reap(dump), 0);
	text = read_file(out, NULL);
	for (char *l = text; *l; l = strchr(l, '\n') + 1) {
		unsigned long long i;
		ck_assert_msg(sscanf(l, "%*u %*u %*u test.e i=%llu", &i) == 1, "%s", l);
		ck_assert_uint_eq(i, next);
		next++;
	}
	ck_assert_uint_eq(next, 12);
	free(text);
	free(cmd);
	free(p);
}
END_TEST

/* ---- merge --follow ------------------------------------------------------ */

START_TEST(test_merge_follow_interleaves_two_live_logs_in_time_order)
{
	const char *a = P("a.timeline"), *b = P("b.timeline");
	const char *out = P("out.txt"), *errp = P("err.txt");
	struct writer wa = writer_start(a, 64, 1), wb = writer_start(b, 64, 1);
	char *cmd = xasprintf("exec '%s' merge --follow %s %s >%s 2>%s", timeline_bin(), a, b, out, errp);
	char *text, *err, *want;
	pid_t merge = spawn(cmd);
	size_t k = 0;
	/* a: tsc 1000, 1002, ...; b: 1001, 1003, ...; each batch of a written
	 * before b's, with the merge stopped meanwhile: how far apart the two
	 * writers run is no matter, only that the merge looks at both within
	 * its hold of 100 ms */
	for (int round = 0; round < 4; round++) {
		char c[32];
		ck_assert_int_eq(kill(merge, SIGSTOP), 0);
		snprintf(c, sizeof c, "5 %d 2", 1000 + 10 * round);
		writer_do(&wa, c);
		snprintf(c, sizeof c, "5 %d 2", 1001 + 10 * round);
		writer_do(&wb, c);
		ck_assert_int_eq(kill(merge, SIGCONT), 0);
		wait_lines(out, 10 * (size_t)(round + 1));
	}
	writer_end(&wa);
	writer_end(&wb);
	ck_assert_int_eq(reap(merge), 0);
	text = read_file(out, NULL);
	for (char *l = text; *l; l = strchr(l, '\n') + 1, k++) {
		unsigned long long t, i;
		int pid;
		ck_assert_int_eq(sscanf(l, "%*[^[][%d] %llu %*u %*u  live.e i=%llu", &pid, &t, &i), 3);
		ck_assert_uint_eq(t, k);   /* 1000 + k - 1000: one after the other */
		ck_assert_int_eq(pid, k % 2 ? wb.pid : wa.pid);
		ck_assert_uint_eq(i, k / 2);
	}
	ck_assert_uint_eq(k, 40);
	err = read_file(errp, NULL);
	want = xasprintf("timeline merge: %s: followed 20 entries, 0 to 19: 20 read, 0 lost\n"
			 "timeline merge: %s: followed 20 entries, 0 to 19: 20 read, 0 lost\n", a, b);
	ck_assert_str_eq(err, want);
	free(want);
	free(err);
	free(text);
	free(cmd);
}
END_TEST

START_TEST(test_merge_follow_holds_an_entry_100_ms_for_an_idle_live_log)
{
	const char *a = P("a.timeline"), *b = P("b.timeline");
	const char *out = P("out.txt");
	struct writer wa = writer_start(a, 64, 1), wb = writer_start(b, 64, 1);
	char *cmd = xasprintf("exec '%s' merge --follow %s %s >%s 2>/dev/null", timeline_bin(), a, b, out);
	pid_t merge = spawn(cmd);
	struct timespec t0, t1;
	double waited;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	writer_do(&wa, "3");
	/* b runs and writes nothing: a's entries wait 100 ms for it from the
	 * snapshot that read them, which is after T0 however late the merge
	 * started or ran, then go (b never writing, only the hold lets them) */
	wait_lines(out, 3);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	waited = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	ck_assert_uint_eq(lines_in(out), 3);
	ck_assert_msg(waited >= 0.1, "printed after %g s", waited);
	writer_end(&wa);
	writer_end(&wb);
	ck_assert_int_eq(reap(merge), 0);
	free(cmd);
}
END_TEST

/* A lap while merge --follow reads: 2..21 into a ring of 8 with the merge
 * stopped; the loss said from the first entry overwritten, 2 to 13, then
 * 14..21, and the report's counts. */
START_TEST(test_merge_follow_says_a_laps_loss_from_the_first_entry_overwritten)
{
	const char *p = P("w.timeline"), *out = P("out.txt"), *errp = P("err.txt");
	struct writer w = writer_start(p, 8, 1);
	char *cmd = xasprintf("exec '%s' merge --follow %s >%s 2>%s", timeline_bin(), p, out, errp);
	char *text, *err, *want = followed("merge", p, 22, 0, 21, 10, 12), *line;
	struct tally t;
	pid_t merge;
	writer_do(&w, "2");
	merge = spawn(cmd);
	wait_lines(out, 2);
	stop_child(merge);
	writer_do(&w, "20");
	ck_assert_int_eq(kill(merge, SIGCONT), 0);
	wait_text(out, " live.e i=21 ");
	text = follower_end(merge, &w, out, errp, &err);
	tally_text(text, &t);   /* each loss from the entry expected next */
	ck_assert(t.next == 22 && t.read == 10 && t.lost == 12 && t.gaps == 1);
	line = xasprintf("[%d]: 12 entries lost (2 to 13): overwritten before they were read\n",
			 (int)w.pid);
	ck_assert_msg(strstr(text, line) != NULL, "%s", text);
	ck_assert_str_eq(err, want);
	free(line);
	free(want);
	free(cmd);
	free(text);
	free(err);
}
END_TEST

/* Entries of equal time in two live logs: merge --follow gives them in
 * the order of the inputs, as merge does (a's 0, b's 0, a's 1, ...). */
START_TEST(test_merge_follow_keeps_the_inputs_order_at_equal_times)
{
	const char *a = P("a.timeline"), *b = P("b.timeline"), *out = P("out.txt");
	struct writer wa = writer_start(a, 64, 1), wb = writer_start(b, 64, 1);
	char *cmd = xasprintf("exec '%s' merge --follow %s %s >%s 2>/dev/null", timeline_bin(), a, b, out);
	char *text, *plain, *want = xasprintf("%s", "");
	pid_t merge;
	writer_do(&wa, "3 1000 1");
	writer_do(&wb, "3 1000 1");
	merge = spawn(cmd);
	wait_lines(out, 6);
	writer_end(&wa);
	text = follower_end(merge, &wb, out, NULL, NULL);
	for (int k = 0; k < 6; k++) {
		char *n = xasprintf("%s[%d] %d i=%d\n", want, (int)(k % 2 ? wb.pid : wa.pid), k / 2, k / 2);
		free(want);
		want = n;
	}
	plain = xasprintf("%s", "");
	for (char *l = text; *l; l = strchr(l, '\n') + 1) {
		int pid;
		unsigned long long t, i;
		char *n;
		ck_assert_int_eq(sscanf(l, "%*[^[][%d] %llu %*u %*u  live.e i=%llu", &pid, &t, &i), 3);
		n = xasprintf("%s[%d] %llu i=%llu\n", plain, pid, t, i);
		free(plain);
		plain = n;
	}
	ck_assert_str_eq(plain, want);
	free(plain);
	/* and the lines are merge's own over the same logs */
	free(cmd);
	cmd = xasprintf("'%s' merge %s %s", timeline_bin(), a, b);
	ck_assert_int_eq(run(cmd, &plain, NULL), 0);
	ck_assert_str_eq(text, plain);
	free(plain);
	free(want);
	free(cmd);
	free(text);
}
END_TEST

/* The [last] interval counts of the blocks of top's JSON at PATH: the
 * first block's read into *FIRST, all blocks' written and read added up. */
static size_t top_reads(const char *path, uint64_t *first, uint64_t *written, uint64_t *read)
{
	char *text = read_file(path, NULL), *l, *nl;
	size_t n = 0;
	*first = *written = *read = 0;
	for (l = text; l && (nl = strchr(l, '\n')); l = nl + 1, n++) {
		unsigned long long w, r;
		char *at = strstr(l, "\"last\":{");
		ck_assert_msg(at && at < nl && sscanf(at, "\"last\":{\"seconds\":%*g,\"written\":%llu,\"read\":%llu",
						    &w, &r) == 2, "%.300s", l);
		*written += w;
		*read += r;
		if (!n)
			*first = r;
	}
	free(text);
	return n;
}

/* top finds a live Snabb log with 5 entries and follows it from its newest
 * entry, by timestamp: nothing read at first, then exactly the 3 entries
 * written after. */
START_TEST(test_top_follows_a_live_snabb_log_from_its_newest_entry)
{
	const char *logs = P("logs"), *json = P("top.json");
	pid_t snabb = spawn("exec sleep 60"), top;   /* the log's process, by its path */
	uint64_t first, written, read;
	unsigned char *m;
	char *p, *cmd;
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	m = snabb_log(logs, snabb, &p);
	snabb_put(m, 0, 5);
	cmd = xasprintf("exec '%s' top -b -f json -g event -d 0.2 %s >%s", timeline_bin(), logs, json);
	top = spawn(cmd);
	wait_lines(json, 1);
	snabb_put(m, 5, 8);
	for (int k = 0; k < 2000 && (top_reads(json, &first, &written, &read), read < 3); k++)
		usleep(10000);
	kill(top, SIGTERM);
	ck_assert_int_eq(reap(top), 0);
	kill(snabb, SIGKILL);
	reap(snabb);
	ck_assert_uint_ge(top_reads(json, &first, &written, &read), 1);
	ck_assert_uint_eq(first, 0);
	ck_assert_uint_eq(written, 3);
	ck_assert_uint_eq(read, 3);
	free(cmd);
	free(p);
}
END_TEST

/* ---- a log being born ----------------------------------------------------- */

/* Starts a child that opens a log at PATH at once (manual clock), writes N
 * entries at T0, T0 + 2, ... and ends; returns its pid. */
static pid_t born_writer(const char *path, uint64_t n, uint64_t t0)
{
	pid_t parent = getpid(), pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		tl_options o = { .entries = 64, .strings_bytes = 4096, .name = "w",
				 .clock = TL_CLOCK_MANUAL, .tsc_hz = 1000000000 };
		tl_log *log;
		uint16_t id;
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent || !(log = tl_open(path, &o, NULL)) || tl_intern(log, DEF, &id, NULL))
			_exit(1);
		put_at(log, id, 0, n, t0, 2);
		tl_close(log);
		_exit(0);
	}
	return pid;
}

/* Waits for the writer PID, which must have succeeded. */
static void writer_done(pid_t pid)
{
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer failed");
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of S sorted, as one string: what merge --follow prints in an
 * order its hold decides, to compare with a merge after the fact. */
static char *sorted_lines(const char *s)
{
	char *copy = xasprintf("%s", s), *save = NULL, **v = NULL, *out;
	size_t n = 0, len = strlen(s) + 1;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		ck_assert_ptr_nonnull(v = realloc(v, (n + 1) * sizeof *v));
		v[n++] = l;
	}
	qsort(v, n, sizeof *v, by_string);
	ck_assert_ptr_nonnull(out = calloc(1, len));
	for (size_t i = 0; i < n; i++) {
		strcat(out, v[i]);
		strcat(out, "\n");
	}
	free(v);
	free(copy);
	return out;
}

/* Runs CMD, which must exit 0; returns its stdout. */
static char *stdout_of(const char *cmd)
{
	char *out;
	ck_assert_int_eq(run(cmd, &out, NULL), 0);
	return out;
}

/* TEXT with the label of pid FROM[i] made that of pid TO[i] (i = 0, 1):
 * "[FROM]" becomes "[TO]", both in one pass (TO[0] may be FROM[1]: a pid
 * used again). Caller frees. */
static char *relabel(const char *text, const pid_t from[2], const pid_t to[2])
{
	char f[2][32], t[2][32], *s = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&s, &len);
	ck_assert_ptr_nonnull(out);
	for (int i = 0; i < 2; i++) {
		snprintf(f[i], sizeof f[i], "[%d]", (int)from[i]);
		snprintf(t[i], sizeof t[i], "[%d]", (int)to[i]);
	}
	while (*text) {
		int i = !strncmp(text, f[0], strlen(f[0])) ? 0 : !strncmp(text, f[1], strlen(f[1])) ? 1 : -1;
		if (i < 0) {
			fputc(*text++, out);
		} else {
			fputs(t[i], out);
			text += strlen(f[i]);
		}
	}
	ck_assert_int_eq(fclose(out), 0);
	return s;
}

/* What dump and merge print of a log A and of A and B after the fact:
 * what their followers must have printed. */
struct whole {
	char *dump;                  /* dump A */
	char *merge;                 /* merge A B, its lines sorted */
	pid_t pid[2];                /* the writers of A and B */
};

/* Checks what dump --follow A (files IO[0], IO[1]) and merge --follow A B
 * (IO[2], IO[3]) printed, A and B written by PID[0] and PID[1]: each log
 * followed whole, and what W says of other logs of the same entries. */
static void check_followed_whole(const char *a, const char *b, const pid_t pid[2],
				 const struct whole *w, const char *const io[4])
{
	char *got = read_file(io[0], NULL), *want, *m1, *m2;
	ck_assert_str_eq(got, w->dump);
	free(got);
	got = read_file(io[1], NULL);
	want = followed("dump", a, 5, 0, 4, 5, 0);
	ck_assert_str_eq(got, want);   /* no "bad magic", nor any other word */
	free(got);
	free(want);
	got = read_file(io[2], NULL);
	m1 = sorted_lines(got);
	want = relabel(w->merge, w->pid, pid);
	m2 = sorted_lines(want);   /* relabelled, "[10000]" sorts before "[9999]" */
	free(want);
	ck_assert_str_eq(m1, m2);   /* in the order of its hold, which depends on timing */
	free(m1);
	free(m2);
	free(got);
	got = read_file(io[3], NULL);
	m1 = followed("merge", a, 5, 0, 4, 5, 0);
	m2 = followed("merge", b, 5, 0, 4, 5, 0);
	want = xasprintf("%s%s", m1, m2);
	ck_assert_str_eq(got, want);
	free(m1);
	free(m2);
	free(got);
	free(want);
}

/* Waits until process PID sleeps in clock_nanosleep (/proc/PID/syscall):
 * for a follower whose logs do not exist yet, only while it waits for them. */
static void wait_sleeping(pid_t pid)
{
	char *f = xasprintf("/proc/%d/syscall", (int)pid), *s = NULL, want[32];
	snprintf(want, sizeof want, "%ld ", (long)SYS_clock_nanosleep);
	for (int k = 0; k < 20000; k++, free(s), s = NULL) {
		if (!(s = read_file(f, NULL)) || !strncmp(s, want, strlen(want)))
			break;   /* gone, or waiting */
		usleep(1000);
	}
	ck_assert_msg(s && !strncmp(s, want, strlen(want)), "%d does not wait: %s", (int)pid, s ? s : "gone");
	free(s);
	free(f);
}

/* dump --follow starts, as tail -f does, with the newest 10 entries (15 to
 * 24 of a ring of 25), then prints each new one (25 to 29); --lines N with
 * the newest N (all when the ring holds no more), 0 with none, all with
 * the whole ring; --last chooses by itself (it reads the ring from entry 0
 * and keeps 10 to 24, the last 14 ns: more than 10), and --lines then
 * takes the newest of those. The follower is seen waiting before the new
 * ones are written. --lines needs --follow, and no bare-number bound. */
START_TEST(test_dump_follow_starts_with_the_newest_entries_then_follows)
{
	static const struct {
		const char *opts;
		uint64_t first, from;        /* the first entry printed; followed from */
	} cases[] = {
		{ "", 15, 15 }, { "--lines 3", 22, 22 }, { "--lines 1", 24, 24 },
		{ "--lines 0", 25, 25 }, { "--lines all", 0, 0 }, { "--lines 24", 1, 1 },
		{ "--lines 25", 0, 0 }, { "--lines 26", 0, 0 }, { "--last 14ns", 10, 0 },
		{ "--last 14ns --lines 2", 23, 23 }, { "-f csv --lines 2", 23, 23 },
	};
	const char *out = P("out.txt"), *errp = P("err.txt");
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		const char *p = test_str("%s/w%zu.timeline", test_dir, k);
		struct writer w = writer_start(p, 64, 1);
		uint64_t n = 30 - cases[k].first, read = 30 - cases[k].from;
		char *text, *err, *want = followed("dump", p, read, cases[k].from, 29, read, 0);
		int csv = strstr(cases[k].opts, "csv") != NULL;
		struct tally t;
		pid_t dump;
		writer_do(&w, "25");
		dump = spawn(test_str("exec '%s' dump --follow %s %s >%s 2>%s", timeline_bin(),
				      cases[k].opts, p, out, errp));
		wait_sleeping(dump);   /* it printed what it starts with */
		writer_do(&w, "5");
		wait_text(out, csv ? ",29,1029," : " live.e i=29 ");
		text = follower_end(dump, &w, out, errp, &err);
		if (csv) {   /* the header, then a row each from entry 23 */
			ck_assert_str_eq(test_str("%.*s", 9, text), "file,seq,");
			ck_assert_ptr_nonnull(strstr(text, test_str("\n\"%s\",23,1023,0,", p)));
			ck_assert_ptr_null(strstr(text, ",22,1022,"));
		} else {
			tally_from(text, &t, cases[k].first);
			ck_assert_msg(t.next == 30 && t.read == n && !t.lost, "%s", cases[k].opts);
		}
		ck_assert_str_eq(err, want);
		free(want);
		free(text);
		free(err);
	}
	for (int k = 0; k < 2; k++) {
		char *err, *cmd = xasprintf("'%s' dump %s --lines 3 %s", timeline_bin(),
					    k ? "--follow --from 100" : "", P("w0.timeline"));
		ck_assert_int_eq(run(cmd, NULL, &err), 2);
		ck_assert_str_eq(err, k ? "timeline dump: --lines does not go with a bare-number --from "
					  "or --to: give a duration or a wall time\nsee 'timeline dump "
					  "--help'\n"
					: "timeline dump: --lines goes with --follow\nsee 'timeline dump "
					  "--help'\n");
		free(err);
		free(cmd);
	}
}
END_TEST

/* --lines of a log two threads write: the newest N of both, by time, as
 * dump prints them, then what comes after (5 more of the first thread). */
START_TEST(test_dump_follow_lines_of_two_threads_start_with_the_newest_of_both)
{
	const char *p = P("w.timeline"), *out = P("out.csv"), *errp = P("err.txt");
	struct writer w = writer_start(p, 1024, 0);
	char *newest, *text, *err, *cmd, *want;
	int lines = 0;
	pid_t dump;
	writer_do(&w, "T 100");          /* 100 of each thread, at once */
	/* the newest 10 as dump prints them, less the time since the first
	 * entry printed, which differs */
	cmd = xasprintf("'%s' dump -f csv %s | cut -d, -f1-3,5- | tail -n 10", timeline_bin(), p);
	ck_assert_int_eq(run(cmd, &newest, NULL), 0);
	free(cmd);
	dump = spawn(test_str("exec '%s' dump --follow --lines 10 -f csv %s >%s 2>%s", timeline_bin(),
			      p, out, errp));
	wait_sleeping(dump);
	writer_do(&w, "F 5");
	wait_text(out, test_str("\"%s\",104,", p));
	free(follower_end(dump, &w, out, errp, &err));
	cmd = xasprintf("cut -d, -f1-3,5- %s", out);
	ck_assert_int_eq(run(cmd, &text, NULL), 0);
	free(cmd);
	want = xasprintf("file,seq,tsc,cpu,numa,event,attrs,arg0,arg1,arg2,arg3,arg4,arg5,argnames,"
			 "thread\n%s", newest);
	ck_assert_str_eq(test_str("%.*s", (int)strlen(want), text), want);
	for (const char *c = text + strlen(want); *c; c++)
		lines += *c == '\n';
	ck_assert_int_eq(lines, 5);   /* then 100 to 104 of the first thread */
	ck_assert_ptr_nonnull(strstr(text + strlen(want), test_str("\"%s\",100,", p)));
	free(want);
	free(newest);
	free(text);
	free(err);
}
END_TEST

/* Of a Snabb log, followed by timestamp, and with a filter: the newest N
 * the filter keeps, as the last N lines of dump of the same. */
START_TEST(test_dump_follow_lines_of_a_snabb_log_are_its_newest_the_filters_keep)
{
	const char *f = getenv("TIMELINE_FIXTURES"), *p = P("events.timeline");
	char *zst = xasprintf("%s/snabb-v3/engine-short.events.timeline.zst", f && *f ? f : "tests/fixtures");
	static const struct {
		int n;
		const char *filter;
	} cases[] = { { 3, "" }, { 2, "--event 'app.push*'" }, { 1, "--app sink2" } };
	char *follow, *dump, *cmd;
	unzstd(zst, p);
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		cmd = xasprintf("'%s' dump --follow --lines %d -f csv %s %s 2>/dev/null | tail -n +2 | "
				"cut -d, -f2,3,7", timeline_bin(), cases[k].n, cases[k].filter, p);
		ck_assert_int_eq(run(cmd, &follow, NULL), 0);
		free(cmd);
		cmd = xasprintf("'%s' dump -f csv %s %s | tail -n %d | cut -d, -f2,3,7", timeline_bin(),
				cases[k].filter, p, cases[k].n);
		ck_assert_int_eq(run(cmd, &dump, NULL), 0);
		ck_assert_str_eq(follow, dump);
		ck_assert_int_eq((int)strlen(dump) > 20, 1);
		free(cmd);
		free(follow);
		free(dump);
	}
	free(zst);
}
END_TEST

/* Which log of A and B each line of merge's TEXT is of, and its number:
 * "a8 b8 ...". */
static char *merged_of(const char *text, pid_t a)
{
	char got[256] = "", pa[32];
	snprintf(pa, sizeof pa, "[%d]", (int)a);
	for (const char *l = text; *l; l = strchr(l, '\n') + 1) {
		unsigned long long i;
		const char *at = strstr(l, " live.e i="), *of = strstr(l, pa);
		ck_assert_ptr_nonnull(at);
		ck_assert_int_eq(sscanf(at, " live.e i=%llu", &i), 1);
		snprintf(got + strlen(got), sizeof got - strlen(got), "%c%llu ", of && of < at ? 'a' : 'b', i);
	}
	return xasprintf("%s", got);
}

/* merge --follow starts with the newest 4 (--lines) of the merged stream,
 * whichever logs they are of (a's 8 and 9 and b's, at 1080 to 1095), then
 * merges what is written (a's 10 at 2000, b's at 2001); a log none of whose
 * entries is among the newest starts at its end (c's 0 to 4, at 100 to 104). */
START_TEST(test_merge_follow_starts_with_the_newest_entries_of_the_merged_stream)
{
	const char *a = P("a.timeline"), *b = P("b.timeline"), *c = P("c.timeline");
	const char *out = P("out.txt"), *errp = P("err.txt");
	struct writer wa = writer_start(a, 64, 1), wb = writer_start(b, 64, 1), wc = writer_start(c, 64, 1);
	char *text, *err, *want, *got, *fa, *fb;
	pid_t merge;
	writer_do(&wa, "10 1000 10");
	writer_do(&wb, "10 1005 10");
	writer_do(&wc, "5 100 1");
	merge = spawn(test_str("exec '%s' merge --follow --lines 4 %s %s %s >%s 2>%s", timeline_bin(),
			       a, b, c, out, errp));
	wait_sleeping(merge);
	writer_do(&wa, "1 2000 1");
	writer_do(&wb, "1 2001 1");
	writer_end(&wc);
	writer_end(&wa);
	text = follower_end(merge, &wb, out, errp, &err);
	got = merged_of(text, wa.pid);
	ck_assert_str_eq(got, "a8 b8 a9 b9 a10 b10 ");
	fa = followed("merge", a, 3, 8, 10, 3, 0);
	fb = followed("merge", b, 3, 8, 10, 3, 0);
	want = xasprintf("%s%s%s", fa, fb, test_str("timeline merge: %s: followed 0 entries\n", c));
	ck_assert_str_eq(err, want);
	free(fa);
	free(fb);
	free(got);
	free(want);
	free(text);
	free(err);
}
END_TEST

/* A follower started with its writer may find the path missing, the file
 * empty, or its header not written yet: it waits for the log, whichever
 * process runs first, and follows it whole. 50 times, dump --follow of one
 * log and merge --follow of two, started before the writers (and seen to
 * wait for their logs) half the times and after them the other half. */
START_TEST(test_followers_started_with_their_writers_wait_for_the_logs_to_be_born)
{
	const char *io[4] = { P("d.out"), P("d.err"), P("m.out"), P("m.err") };
	struct whole w = { NULL, NULL, { 0, 0 } };
	for (int k = 0; k < 50; k++) {
		char *a = xasprintf("%s/a%d.timeline", test_dir, k), *b = xasprintf("%s/b%d.timeline", test_dir, k);
		char *dump = xasprintf("exec '%s' dump --follow %s >%s 2>%s", timeline_bin(), a, io[0], io[1]);
		char *merge = xasprintf("exec '%s' merge --follow %s %s >%s 2>%s", timeline_bin(), a, b, io[2],
					io[3]);
		pid_t pid[2] = { 0, 0 }, d, m;
		if (k % 2) {
			pid[0] = born_writer(a, 5, 1000);
			pid[1] = born_writer(b, 5, 1001);
		}
		d = spawn(dump);
		m = spawn(merge);
		if (!(k % 2)) {
			wait_sleeping(d);
			wait_sleeping(m);
			pid[0] = born_writer(a, 5, 1000);
			pid[1] = born_writer(b, 5, 1001);
		}
		writer_done(pid[0]);
		writer_done(pid[1]);   /* their processes gone: the followers end */
		ck_assert_int_eq(reap(d), 0);
		ck_assert_int_eq(reap(m), 0);
		if (!k) {   /* the same entries every time: read after the fact once */
			char *merged = stdout_of(test_str("'%s' merge %s %s", timeline_bin(), a, b));
			w.dump = stdout_of(test_str("'%s' dump %s", timeline_bin(), a));
			w.merge = sorted_lines(merged);
			memcpy(w.pid, pid, sizeof pid);
			ck_assert_uint_eq(strlen(w.dump) && strlen(merged), 1);
			free(merged);
		}
		check_followed_whole(a, b, pid, &w, io);
		test_kept_free();
		free(dump);
		free(merge);
		free(a);
		free(b);
	}
	free(w.dump);
	free(w.merge);
}
END_TEST

/* Waits (up to 20 s) for the next IN_CLOSE_NOWRITE on the inotify
 * descriptor FD: a reader of the file closed it. */
static void next_close(int fd)
{
	struct pollfd p = { fd, POLLIN, 0 };
	struct inotify_event ev;
	do {
		ck_assert_msg(poll(&p, 1, 20000) == 1, "the follower did not read the file again");
		ck_assert_int_eq(read(fd, &ev, sizeof ev), (ssize_t)sizeof ev);   /* no name: a file's watch */
	} while (!(ev.mask & IN_CLOSE_NOWRITE));
}

/* Drops the events already queued on the inotify descriptor FD. */
static void drain(int fd)
{
	struct inotify_event ev;
	int fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	while (read(fd, &ev, sizeof ev) == (ssize_t)sizeof ev)
		;
	fcntl(fd, F_SETFL, fl);
}

/* A writer slow to write the header, made step by step: the follower CMD
 * (its output to OUT and ERR) is seen (by inotify) to try the file empty,
 * then sized and zero, before the log (IMAGE, SIZE bytes, a real one) is
 * written into it, the magic last as the library stores it. Returns its
 * exit status. */
static int follow_a_slow_birth(const char *path, const char *cmd, const char *image, size_t size)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600), in = inotify_init1(IN_CLOEXEC);
	unsigned char *map;
	uint64_t magic;
	pid_t f;
	ck_assert_int_ge(fd, 0);
	ck_assert_int_ge(in, 0);
	ck_assert_int_ge(inotify_add_watch(in, path, IN_CLOSE_NOWRITE), 0);
	f = spawn(cmd);
	next_close(in);   /* it read the empty file */
	ck_assert_int_eq(ftruncate(fd, (off_t)size), 0);
	drain(in);
	next_close(in);
	next_close(in);   /* it read the file sized: this read began after the first close */
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(map, MAP_FAILED);
	memcpy(map + 8, image + 8, size - 8);
	memcpy(&magic, image, 8);
	__atomic_store_n((uint64_t *)map, magic, __ATOMIC_RELEASE);
	munmap(map, size);
	close(fd);
	close(in);
	return reap(f);
}

/* The file named, and found in a directory named: dump and merge. */
START_TEST(test_followers_wait_for_a_header_written_late)
{
	const char *made = P("made.timeline"), *out = P("out"), *errp = P("err");
	static const char *const cmds[] = { "dump", "merge", "dump" };
	char *image, *want, *got;
	size_t size;
	writer_done(born_writer(made, 5, 1000));   /* a log, its writer gone */
	image = read_file(made, &size);
	for (int k = 0; k < 3; k++) {
		const char *dir = test_str("%s/%d", test_dir, k), *p = test_str("%s/%s.timeline", dir, cmds[k]);
		ck_assert_int_eq(mkdir(dir, 0700), 0);
		ck_assert_int_eq(follow_a_slow_birth(p, test_str("exec '%s' %s --follow %s >%s 2>%s", timeline_bin(),
								 cmds[k], k == 2 ? dir : p, out, errp),
						     image, size), 0);
		want = stdout_of(test_str("'%s' %s %s", timeline_bin(), cmds[k], p));
		got = read_file(out, NULL);
		ck_assert_str_eq(got, want);   /* every entry */
		free(got);
		free(want);
		want = followed(cmds[k], p, 5, 0, 4, 5, 0);
		got = read_file(errp, NULL);
		ck_assert_str_eq(got, want);
		free(got);
		free(want);
	}
	free(image);
}
END_TEST

/* What is still no log after 2 s gets the usual one line, exit 2: a
 * missing path, and a file whose header was never written. */
START_TEST(test_followers_say_a_path_still_no_log_after_2_s)
{
	const char *zero = P("zero.timeline"), *missing = P("missing.timeline");
	const char *out = P("out"), *errp = P("err"), *mout = P("m.out"), *merrp = P("m.err");
	static const char zeros[4096];
	struct timespec t0, t1;
	pid_t d, m;
	char *s;
	write_file(zero, zeros, sizeof zeros);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	d = spawn(test_str("exec '%s' dump --follow %s %s >%s 2>%s", timeline_bin(), zero, missing, out, errp));
	m = spawn(test_str("exec '%s' merge --follow %s >%s 2>%s", timeline_bin(), zero, mout, merrp));
	ck_assert_int_eq(reap(d), 2);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ck_assert_int_eq(reap(m), 2);
	/* it waited: 2 s for both, not 2 s each */
	ck_assert_int_ge((t1.tv_sec - t0.tv_sec) * 1000000000ll + (t1.tv_nsec - t0.tv_nsec), 2000000000ll);
	ck_assert_str_eq(s = read_file(out, NULL), "");
	free(s);
	ck_assert_str_eq(s = read_file(errp, NULL), test_str("timeline dump: %s: not a timeline log (bad magic)\n"
							       "timeline dump: %s: No such file or directory\n",
							       zero, missing));
	free(s);
	ck_assert_str_eq(s = read_file(mout, NULL), "");
	free(s);
	ck_assert_str_eq(s = read_file(merrp, NULL), test_str("timeline merge: %s: not a timeline log (bad magic)\n",
								zero));
	free(s);
}
END_TEST

Suite *follow_suite(void)
{
	Suite *s = suite_create("follow");
	TCase *l = tcase_create("since"), *d = tcase_create("dump"), *m = tcase_create("merge");
	TCase *b = tcase_create("born");
	TCase *all[] = { l, d, m, b };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		tcase_add_checked_fixture(all[i], test_dir_setup, teardown);
		tcase_set_timeout(all[i], 60);
		suite_add_tcase(s, all[i]);
	}
	tcase_add_test(l, test_since_reads_from_the_number_given_up_to_the_cursor);
	tcase_add_test(l, test_since_counts_the_entries_a_lap_overwrote_as_lost);
	tcase_add_test(l, test_since_skips_and_counts_entries_overwritten_while_read);
	tcase_add_test(l, test_since_leaves_the_entry_at_the_cursor_for_the_next_call);
	tcase_add_test(l, test_since_of_a_snabb_log_goes_from_the_last_slot_read_while_time_goes_on);
	tcase_add_test(d, test_dump_follow_of_a_flat_out_writer_accounts_for_every_entry);
	tcase_add_test(d, test_dump_follow_of_two_threads_accounts_for_each_ones_entries);
	tcase_add_test(d, test_dump_follow_limit_ends_at_n_entries_while_the_writer_runs);
	tcase_add_test(d, test_dump_follow_ends_on_sigint_with_its_report);
	tcase_add_test(d, test_dump_follow_json_says_each_loss_as_an_object_in_the_stream);
	tcase_add_test(d, test_dump_follow_of_a_snabb_log_goes_by_timestamp_and_says_a_lap);
	tcase_add_test(d, test_dump_follow_lines_of_a_snabb_log_starts_at_the_oldest_of_the_last_n);
	tcase_add_test(m, test_merge_follow_interleaves_two_live_logs_in_time_order);
	tcase_add_test(m, test_merge_follow_holds_an_entry_100_ms_for_an_idle_live_log);
	tcase_add_test(m, test_merge_follow_says_a_laps_loss_from_the_first_entry_overwritten);
	tcase_add_test(m, test_merge_follow_keeps_the_inputs_order_at_equal_times);
	tcase_add_test(d, test_dump_follow_of_a_wrapped_ring_starts_at_its_oldest_entry);
	tcase_add_test(d, test_dump_follow_of_a_copy_ends_at_once_while_its_writer_runs);
	tcase_add_test(d, test_top_follows_a_live_snabb_log_from_its_newest_entry);
	tcase_add_test(d, test_dump_follow_starts_with_the_newest_entries_then_follows);
	tcase_add_test(d, test_dump_follow_lines_of_two_threads_start_with_the_newest_of_both);
	tcase_add_test(d, test_dump_follow_lines_of_a_snabb_log_are_its_newest_the_filters_keep);
	tcase_add_test(m, test_merge_follow_starts_with_the_newest_entries_of_the_merged_stream);
	tcase_add_test(b, test_followers_started_with_their_writers_wait_for_the_logs_to_be_born);
	tcase_add_test(b, test_followers_wait_for_a_header_written_late);
	tcase_add_test(b, test_followers_say_a_path_still_no_log_after_2_s);
	return s;
}
