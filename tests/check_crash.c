/* check_crash.c: writers SIGKILLed at 1,008 random moments, three processes
 * at a time, never lose an event whose call returned, and no incomplete entry
 * ever reads as complete, after a crash or while a live writer laps a reader.
 * Beside these timing-dependent tests, deterministic ones (tcase "torn"):
 * every torn slot state built by hand, read and copied; the writer stopped
 * after each instruction (ptrace single-steps) with the slot checked against
 * its ordering rules; the reader stopped after each instruction while a
 * writer laps or completes the slot it reads. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "util.h"
#include "../lib/format.h"

#define RING 4096
#define ROUNDS 84    /* rounds of WRITERS processes a quarter: 1,008 kills in four */
#define WRITERS 3


/* Event I carries arguments derived from I, so a torn entry cannot pass. */
static void log_one(tl_log *log, uint64_t i)
{
	tl_append(log, (unsigned)(i & 0xffff), i, ~i, i * 0x9e3779b97f4a7c15ull, i ^ 0x5555,
		  i + 1, i << 7);
}

static int consistent(const tl_entry *e)
{
	uint64_t i = e->seq;
	return e->msgid == (i & 0xffff) && e->args[0] == i && e->args[1] == ~i &&
	       e->args[2] == i * 0x9e3779b97f4a7c15ull && e->args[3] == (i ^ 0x5555) &&
	       e->args[4] == i + 1 && e->args[5] == i << 7;
}

/* Logs flat out, publishing in *RETURNED how many calls have returned. */
static void __attribute__((noreturn)) writer(tl_log *log, volatile uint64_t *returned)
{
	for (uint64_t i = 0;; i++) {
		log_one(log, i);
		__atomic_store_n(returned, i + 1, __ATOMIC_RELEASE);
	}
}

/* The writer of a round, in a child: a timer on its own CPU time sends it
 * SIGKILL once it has run PAUSE ns (and the next scheduler tick comes), at
 * whatever instruction it is then. Its moment of death is its own: it
 * does not wait on when a killer gets the CPU, which a loaded machine
 * delays by tens of ms. Exits 2 if the timer cannot be set. */
static void __attribute__((noreturn)) doomed_writer(tl_log *log, volatile uint64_t *returned, long pause)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGKILL };
	struct itimerspec its = { .it_value = { pause / 1000000000, pause > 0 ? pause % 1000000000 : 1 } };
	timer_t t;
	if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &sev, &t) || timer_settime(t, 0, &its, NULL))
		_exit(2);
	writer(log, returned);
}

/* Checks the log at P after its writer, which had returned from R calls,
 * was killed; returns the entries checked. */
static size_t check_killed(const char *p, uint64_t r, unsigned seed)
{
	size_t n;
	uint64_t skipped, first = r > RING ? r - RING : 0;
	tl_entry *v = read_all(p, &n, &skipped);
	/* at most the entry being written and, once wrapped, the oldest it overwrote */
	ck_assert_uint_le(skipped, r >= RING ? 2 : 1);
	/* every returned event still in the ring is there, in order (once the ring
	 * is full, entry RING may be under way over entry 0: r == RING counts) */
	ck_assert_uint_ge(n, r - first - (r >= RING));
	for (size_t k = 0; k < n; k++) {
		tl_check(consistent(&v[k]), "round %u: entry %llu torn", seed, (unsigned long long)v[k].seq);
		tl_check(!k || v[k].seq == v[k - 1].seq + 1, "round %u: entry %llu after %llu", seed,
			 (unsigned long long)v[k].seq, (unsigned long long)v[k - 1].seq);
	}
	if (r > 0) {
		ck_assert_uint_gt(n, 0);
		ck_assert_uint_ge(v[n - 1].seq + 1, r);    /* the newest returned is present */
		ck_assert_uint_le(v[n - 1].seq, r);        /* at most one not yet returned */
		ck_assert_uint_le(v[0].seq, first + 1);
	}
	free(v);
	return n;
}

/* One round: fork WRITERS writers, each into its own log and killed after
 * its own random run of 0 to 2 ms of CPU, check every file. Returns the
 * entries checked; *UNWRAPPED counts the writers killed before their ring
 * wrapped. */
static size_t crash_round(volatile uint64_t *returned, unsigned seed, unsigned *unwrapped)
{
	tl_options o = { .entries = RING, .clock = TL_CLOCK_AUTO, .no_prefault = 1,
			 .strings_bytes = 4096 };
	tl_error err;
	tl_log *log[WRITERS];
	pid_t pid[WRITERS];
	size_t checked = 0;
	for (int w = 0; w < WRITERS; w++) {
		log[w] = tl_open(path_in(test_dir, w ? (w == 1 ? "b.timeline" : "c.timeline") : "a.timeline"),
				 &o, &err);
		ck_assert_msg(log[w] != NULL, "%s", err.msg);
		returned[w] = 0;
		if ((pid[w] = fork()) == 0)
			doomed_writer(log[w], &returned[w], (long)((seed >> (4 * w)) % 2000) * 1000);
	}
	for (int w = 0; w < WRITERS; w++) {
		int st;
		uint64_t r;
		ck_assert_int_eq(waitpid(pid[w], &st, 0), pid[w]);
		ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "writer %d: status %#x", w, st);
		tl_close(log[w]);
		r = __atomic_load_n(&returned[w], __ATOMIC_ACQUIRE);
		*unwrapped += r < RING;
		checked += check_killed(path_in(test_dir, w ? (w == 1 ? "b.timeline" : "c.timeline")
						     : "a.timeline"), r, seed);
	}
	return checked;
}

/* Run four times (a loop test, _i 0 to 3), each a quarter of the 1,008
 * kills with its own seed: each a test of its own, a few seconds long on a
 * loaded machine. */
START_TEST(test_sigkill_never_loses_a_returned_event)
{
	volatile uint64_t *returned = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	size_t checked = 0;
	unsigned unwrapped = 0;
	ck_assert_ptr_ne((void *)returned, MAP_FAILED);
	srand(7 + (unsigned)_i);
	for (unsigned i = 0; i < ROUNDS; i++)
		checked += crash_round(returned, (unsigned)rand(), &unwrapped);
	munmap((void *)returned, 4096);
	/* the figures tests/README.md quotes */
	fprintf(stderr, "crash: quarter %d: %d writers killed (%u before their ring wrapped), %zu "
		"entries checked, 0 torn\n", _i + 1, ROUNDS * WRITERS, unwrapped, checked);
}
END_TEST

#define LIVE_RING (1u << 16)
#define LIVE_SNAPS 300    /* snapshots read; every tenth with a lap made */
#define LIVE_FIRST 4096   /* entries read of a snapshot before its lap */

/* The log's cursor, as the writer publishes it. */
static uint64_t cursor_of(tl_log *log)
{
	return __atomic_load_n(&((struct tl_header *)(void *)log)->cursor, __ATOMIC_ACQUIRE);
}

/* Waits (at most 20 s) until the writer of LOG has written entry N. */
static void wait_cursor(tl_log *log, uint64_t n)
{
	time_t stop = time(NULL) + 20;
	while (cursor_of(log) < n && time(NULL) < stop)
		sched_yield();
	ck_assert_uint_ge(cursor_of(log), n);
}

/* Reads R's snapshot on from where it is: every entry whole and after the
 * one before (*PREV, *FIRST); at most MAX entries; returns how many. */
static uint64_t read_live(tl_reader *r, uint64_t max, uint64_t *prev, int *first)
{
	uint64_t n = 0;
	tl_entry e;
	while (n < max && tl_reader_next(r, &e)) {
		tl_check(consistent(&e), "torn entry %llu", (unsigned long long)e.seq);
		tl_check(*first || e.seq > *prev, "entry %llu after %llu", (unsigned long long)e.seq,
			 (unsigned long long)*prev);
		*prev = e.seq;
		*first = 0;
		n++;
	}
	return n;
}

/* A writer laps a ring while the reader takes snapshots: every entry
 * returned is complete and in order, and skipped ones are counted. How the
 * two share the CPUs decides what the free snapshots see; every tenth is
 * made to be lapped: the writer stopped (SIGSTOP) while the reader takes it
 * and reads its first LIVE_FIRST entries, then let go until it has
 * overwritten the whole snapshot, whose other entries must all read as
 * skipped, none returned. */
START_TEST(test_live_reader_never_returns_a_torn_entry)
{
	const char *p = path_in(test_dir, "live.timeline");
	tl_options o = { .entries = LIVE_RING, .clock = TL_CLOCK_AUTO };
	tl_error err;
	tl_log *log = tl_open(p, &o, &err);
	tl_reader *r;
	uint64_t seen = 0, skipped = 0, prev = 0;
	pid_t pid;
	ck_assert_ptr_nonnull(log);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		uint64_t dummy;
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		doomed_writer(log, &dummy, 60000000000);   /* 60 s of CPU at most */
	}
	r = tl_reader_open(p, &err);
	ck_assert_ptr_nonnull(r);
	wait_cursor(log, LIVE_RING);   /* the ring filled once */
	for (int snap = 0; snap < LIVE_SNAPS; snap++) {
		int first = 1;
		if (snap % 10) {   /* free: whatever the writer does meanwhile */
			tl_reader_rewind(r);
			seen += read_live(r, UINT64_MAX, &prev, &first);
			skipped += tl_reader_skipped(r);
		} else {
			uint64_t c, n;
			ck_assert_int_eq(kill(pid, SIGSTOP), 0);
			ck_assert_int_eq(waitpid(pid, NULL, WUNTRACED), pid);
			c = cursor_of(log);   /* stopped: the snapshot's cursor */
			ck_assert_uint_eq(tl_reader_rewind(r), LIVE_RING);
			/* the oldest slot may hold the entry under way: skipped */
			ck_assert_uint_eq(read_live(r, LIVE_FIRST, &prev, &first), LIVE_FIRST);
			ck_assert_uint_le(tl_reader_skipped(r), 1);
			ck_assert_int_eq(kill(pid, SIGCONT), 0);
			wait_cursor(log, c + LIVE_RING + 1);
			n = read_live(r, UINT64_MAX, &prev, &first);
			ck_assert_uint_eq(n, 0);
			ck_assert_uint_eq(LIVE_FIRST + tl_reader_skipped(r), LIVE_RING);
			seen += LIVE_FIRST;
			skipped += tl_reader_skipped(r);
		}
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	tl_reader_close(r);
	tl_close(log);
	ck_assert_uint_ge(seen, LIVE_SNAPS / 10 * LIVE_FIRST);
	ck_assert_uint_ge(skipped, LIVE_SNAPS / 10 * (LIVE_RING - LIVE_FIRST));
}
END_TEST

/* ------------------------------------------------------------------------
 * Deterministic: torn slot states by hand, and single-stepped writers and
 * readers
 * ------------------------------------------------------------------------ */

#define SLOTS 8
#define OLD_ID 1   /* msgid of entries written before the one under test */
#define NEW_ID 2   /* msgid of the entry under test */

/* Entry I as put() writes it with message id ID: every field follows from
 * I, so two entries differ in every field. */
static struct tl_raw_entry want_entry(uint64_t i, uint16_t id)
{
	struct tl_raw_entry w = { 1000 + 10 * i, id, (uint16_t)((i % 3) << 12 | (i % 7)), tl_seq_done(i),
				  { i, i * 2, i * 3, ~i, i << 32, 0xfedcba9876543210ull ^ i } };
	return w;
}

static void put(tl_log *log, uint64_t i, uint16_t id)
{
	struct tl_raw_entry w = want_entry(i, id);
	tl_set_manual_clock(log, w.tsc, w.aux);
	tl_append(log, id, w.args[0], w.args[1], w.args[2], w.args[3], w.args[4], w.args[5]);
}

static struct tl_header *hdr(tl_log *log) { return (struct tl_header *)log; }

/* Is E entry I, whole, as put() wrote it with ID? */
static int whole(const tl_entry *e, uint64_t i, uint16_t id)
{
	struct tl_raw_entry w = want_entry(i, id);
	return e->seq == i && e->tsc == w.tsc && e->msgid == id && e->aux == w.aux &&
	       !memcmp(e->args, w.args, sizeof w.args);
}

/* A hand-made state of the ring: what a writer stopped (or killed) there
 * leaves, and what a reader must make of it. */
struct torn {
	const char *what;
	uint64_t base;           /* the cursor before the entries written whole */
	uint64_t written;        /* entries base .. base + written - 1 written whole */
	void (*edit)(tl_log *);  /* then this */
	uint64_t first, n;       /* tl_reader_next(): entries first .. first + n - 1, whole */
	uint64_t skipped;        /* and tl_reader_skipped() */
	uint64_t kept, dropped;  /* tl_reader_copy() */
};

/* The slot of entry N, and a partly written entry N in it (busy marker,
 * the first K arguments); the rest of the slot as it was. */
static struct tl_raw_entry *slot(tl_log *log, uint64_t n) { return &tl_ring(hdr(log))[n % SLOTS]; }
static void partial(tl_log *log, uint64_t n, int k)
{
	struct tl_raw_entry w = want_entry(n, NEW_ID), *e = slot(log, n);
	e->seq = tl_seq_busy(n);
	for (int i = 0; i < k; i++)
		e->args[i] = w.args[i];
}

static void marker_only(tl_log *log) { partial(log, 5, 0); }
static void marker_args(tl_log *log) { partial(log, 5, 3); }
static void all_but_seq(tl_log *log)
{
	struct tl_raw_entry w = want_entry(5, NEW_ID);
	w.seq = tl_seq_busy(5);
	*slot(log, 5) = w;
}
static void no_cursor(tl_log *log) { *slot(log, 5) = want_entry(5, NEW_ID); }
static void seq_stale(tl_log *log)
{
	/* entry 11 stored over entry 3 but for its seq, then the cursor moved */
	struct tl_raw_entry w = want_entry(11, NEW_ID);
	w.seq = tl_seq_done(3);
	*slot(log, 11) = w;
	hdr(log)->cursor = 12;
}
static void lapped_no_cursor(tl_log *log) { *slot(log, 11) = want_entry(11, NEW_ID); }
static void lapped_torn(tl_log *log) { partial(log, 11, 2); }
static void lying_cursor(tl_log *log) { hdr(log)->cursor = 5; }
static void zero_ring_at_2_32(tl_log *log) { hdr(log)->cursor = (1ull << 32) + 2; }

static const struct torn torn_states[] = {
	{ "entry 5 not begun", 0, 5, NULL, 0, 5, 0, 5, 0 },
	{ "entry 5: busy marker only", 0, 5, marker_only, 0, 5, 1, 5, 0 },
	{ "entry 5: busy marker, 3 arguments", 0, 5, marker_args, 0, 5, 1, 5, 0 },
	{ "entry 5: all but seq", 0, 5, all_but_seq, 0, 5, 1, 5, 0 },
	{ "entry 5 complete, cursor not moved", 0, 5, no_cursor, 0, 6, 0, 6, 0 },
	{ "entry 11 over 3: cursor moved, seq still entry 3's", 0, 11, seq_stale, 4, 7, 1, 7, 1 },
	{ "entry 11 over 3 complete, cursor not moved", 0, 11, lapped_no_cursor, 4, 8, 1, 8, 0 },
	{ "entry 11 over 3: busy marker, 2 arguments", 0, 11, lapped_torn, 4, 7, 2, 7, 1 },
	{ "cursor 5 over 3 entries: two all-zero slots", 0, 3, lying_cursor, 0, 3, 2, 3, 2 },
	{ "cursor 2^32 + 2 over an all-zero ring (entry 2^32 - 1 has seq 0)", 0, 0,
	  zero_ring_at_2_32, 0, 0, 8, 0, 8 },
	{ "entries up to 2^32 - 1, whose seq is 0; 4 slots never written", (1ull << 32) - 4, 4, NULL,
	  (1ull << 32) - 4, 4, 4, 4, 4 },
};

static int write_fd(void *ctx, const void *buf, size_t len)
{
	return write(*(int *)ctx, buf, len) == (ssize_t)len ? 0 : -1;
}

/* Reads the log at P: the entries must be T's, whole, and so the newest. */
static void check_read(const struct torn *t, const char *p, uint64_t skipped)
{
	tl_error err;
	tl_reader *r = tl_reader_open(p, &err);
	tl_entry e;
	uint64_t k = 0;
	ck_assert_msg(r != NULL, "%s: %s", t->what, err.msg);
	while (tl_reader_next(r, &e)) {
		uint64_t i = t->first + k;
		ck_assert_msg(k < t->n, "%s: %s: more than %llu entries", t->what, p,
			      (unsigned long long)t->n);
		ck_assert_msg(whole(&e, i, i >= t->base + t->written ? NEW_ID : OLD_ID),
			      "%s: %s: entry %llu is not whole entry %llu", t->what,
			      p, (unsigned long long)e.seq, (unsigned long long)i);
		k++;
	}
	ck_assert_msg(k == t->n, "%s: %s: %llu entries, want %llu", t->what, p, (unsigned long long)k,
		      (unsigned long long)t->n);
	ck_assert_msg(tl_reader_skipped(r) == skipped, "%s: %s: %llu skipped, want %llu", t->what, p,
		      (unsigned long long)tl_reader_skipped(r), (unsigned long long)skipped);
	if (t->n) {
		ck_assert_int_eq(tl_reader_newest(r, &e), 1);
		ck_assert_msg(e.seq == t->first + t->n - 1, "%s: newest %llu", t->what,
			      (unsigned long long)e.seq);
	} else {
		ck_assert_int_eq(tl_reader_newest(r, &e), 0);
	}
	tl_reader_close(r);
}

/* In the copy at P, each slot of its window holds its entry complete or
 * that entry's busy marker: never zero, which would read as entry 2^32 - 1
 * to a reader that did not also refuse all-zero slots. */
static void check_copy_slots(const struct torn *t, const char *p)
{
	size_t len;
	char *b = read_file(p, &len);
	const struct tl_header *h = (const struct tl_header *)b;
	const struct tl_raw_entry *ring = (const struct tl_raw_entry *)(b + TL_HEADER_BYTES);
	uint64_t window = h->cursor < SLOTS ? h->cursor : SLOTS, busy = 0;
	ck_assert_uint_ge(len, TL_HEADER_BYTES + SLOTS * sizeof *ring);
	for (uint64_t n = h->cursor - window; n < h->cursor; n++) {
		uint32_t seq = ring[n % SLOTS].seq;
		ck_assert_msg(seq == tl_seq_done(n) || seq == tl_seq_busy(n),
			      "%s: the copy's slot of entry %llu holds seq %#x", t->what,
			      (unsigned long long)n, seq);
		busy += seq == tl_seq_busy(n);
	}
	ck_assert_uint_eq(busy, t->dropped);
	free(b);
}

START_TEST(test_each_torn_slot_state_is_read_and_copied_exactly)
{
	for (size_t i = 0; i < sizeof torn_states / sizeof torn_states[0]; i++) {
		const struct torn *t = &torn_states[i];
		const char *p = path_in(test_dir, "t.timeline"), *c = path_in(test_dir, "c.timeline");
		tl_log *log = open_manual(p, SLOTS);
		uint64_t kept, dropped;
		tl_error err;
		tl_reader *r;
		int fd;
		hdr(log)->cursor = t->base;
		for (uint64_t k = 0; k < t->written; k++)
			put(log, t->base + k, OLD_ID);
		if (t->edit)
			t->edit(log);
		check_read(t, p, t->skipped);
		r = tl_reader_open(p, &err);
		ck_assert_msg(r != NULL, "%s", err.msg);
		fd = open(c, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(tl_reader_copy(r, write_fd, &fd, &kept, &dropped, c, &err), TL_OK);
		ck_assert_int_eq(close(fd), 0);
		tl_reader_close(r);
		tl_close(log);
		ck_assert_msg(kept == t->kept && dropped == t->dropped,
			      "%s: copy kept %llu, dropped %llu; want %llu, %llu", t->what,
			      (unsigned long long)kept, (unsigned long long)dropped,
			      (unsigned long long)t->kept, (unsigned long long)t->dropped);
		/* the copy holds the entries a reader found, and misses what it dropped */
		check_read(t, c, t->dropped);
		check_copy_slots(t, c);
	}
}
END_TEST

/* Forks a child that stops itself under ptrace, then runs BODY(ARG) and
 * exits; returns its pid, stopped before BODY. */
static pid_t traced(void (*body)(void *), void *arg)
{
	int st;
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
			_exit(3);
		raise(SIGSTOP);
		body(arg);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(!WIFEXITED(st) || WEXITSTATUS(st) != 3,
		      "ptrace(PTRACE_TRACEME) refused: these tests single-step a child");
	ck_assert_msg(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, "child status %#x", st);
	return pid;
}

/* Runs PID one instruction on: 1 stopped after it, 0 exited (status 0). */
static int step(pid_t pid)
{
	int st;
	ck_assert_msg(ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) == 0, "single-step: %s", strerror(errno));
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	if (WIFEXITED(st)) {
		ck_assert_int_eq(WEXITSTATUS(st), 0);
		return 0;
	}
	ck_assert_msg(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP, "child stopped by signal %d",
		      WIFSTOPPED(st) ? WSTOPSIG(st) : -1);
	return 1;
}

/* x86-64: single-steps PID to the first instruction of FN (the child is a
 * fork: FN is at the same address there) and returns the stack pointer
 * there; elsewhere returns 0 and the steps count from the child's stop. */
static uint64_t run_to(pid_t pid, uintptr_t fn)
{
#if defined(__x86_64__)
	struct user_regs_struct regs;
	for (int i = 0; i < 1000000; i++) {
		ck_assert_int_eq(ptrace(PTRACE_GETREGS, pid, NULL, &regs), 0);
		if (regs.rip == fn)
			return regs.rsp;
		ck_assert_msg(step(pid), "the child ended before it reached the function");
	}
	ck_abort_msg("the child never reached the function");
#endif
	(void)pid;
	(void)fn;
	return 0;
}

/* Has PID returned from the function entered with stack pointer SP? */
static int returned(pid_t pid, uint64_t sp)
{
#if defined(__x86_64__)
	struct user_regs_struct regs;
	ck_assert_int_eq(ptrace(PTRACE_GETREGS, pid, NULL, &regs), 0);
	return sp && regs.rsp > sp;
#else
	(void)pid;
	(void)sp;
	return 0;
#endif
}

/* Lets PID run to its end. */
static void finish(pid_t pid)
{
	int st;
	ck_assert_int_eq(ptrace(PTRACE_CONT, pid, NULL, NULL), 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x", st);
}

typedef void append_fn(tl_log *, unsigned, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
		       uint64_t);

struct writer_call {
	append_fn *fn;
	tl_log *log;
	unsigned code;   /* msgid, or tl_event's event code */
};

/* Entry 11 as the child writes it: NEW_ID over entry 3 in slot 3. */
static void write_entry_11(void *arg)
{
	struct writer_call *w = arg;
	struct tl_raw_entry e = want_entry(11, NEW_ID);
	w->fn(w->log, w->code, e.args[0], e.args[1], e.args[2], e.args[3], e.args[4], e.args[5]);
}

/* Switches LOG's header to the rseq clock source, as tl_open() sets it
 * (the source and this process's __rseq_offset, which a fork keeps), so
 * that tl_append and tl_event take the rseq path. Returns 0, LOG unchanged,
 * on a host without that source, having checked that tl_open() refuses it. */
static int use_rseq(tl_log *log, int clock)
{
	tl_options o = { .entries = 2, .clock = clock, .no_prefault = 1 };
	tl_error err;
	tl_log *probe = tl_open(path_in(test_dir, "rseq.timeline"), &o, &err);
	if (!probe) {   /* glibc < 2.35, rseq off, or Linux < 6.3 */
		assert_rseq_refused(&err, clock);
		return 0;
	}
	hdr(log)->rseq_offset = hdr(probe)->rseq_offset;
	hdr(log)->clock = hdr(probe)->clock;
	tl_close(probe);
	return 1;
}

/* Does E hold the new entry's timestamp and cpu/node word? With the manual
 * clock they are NOW's; with a real clock (REAL) any time but entry 3's. */
static int new_time(const struct tl_raw_entry *e, const struct tl_raw_entry *now, int real)
{
	return real ? e->tsc != 1000 + 10 * 3 : e->tsc == now->tsc && e->aux == now->aux;
}

/* Single-steps FN writing entry 11 over entry 3 of a ring of 8, with the
 * manual clock or (REAL: a clock source) the rseq path's real clock. After every
 * instruction: the busy marker is stored before any of the payload changes,
 * seq = n + 1 only once all of it is stored, the cursor moves only after
 * that; and a reader finds entries 4..10 whole, entry 3 only while its slot
 * is untouched, entry 11 only whole. */
static void step_writer(append_fn *fn, unsigned code, const char *name, int real)
{
	const char *p = path_in(test_dir, "w.timeline");
	tl_log *log = open_manual(p, SLOTS);
	struct writer_call w = { fn, log, code };
	struct tl_raw_entry was = want_entry(3, OLD_ID), now = want_entry(11, NEW_ID), last = { 0 };
	uint64_t last_cursor = 0;
	int states = 0, busy_seen = 0, steps = 0;
	pid_t pid;
	for (uint64_t i = 0; i < 11; i++)
		put(log, i, OLD_ID);
	tl_set_rate(log, 1);
	tl_set_manual_clock(log, now.tsc, now.aux);
	if (real && !use_rseq(log, real)) {
		tl_close(log);
		return;
	}
	pid = traced(write_entry_11, &w);
	for (int more = 1; more; steps++) {
		struct tl_raw_entry e;
		uint64_t cursor = __atomic_load_n(&hdr(log)->cursor, __ATOMIC_ACQUIRE);
		int changed;
		memcpy(&e, slot(log, 11), sizeof e);
		ck_assert_msg(steps < 100000, "%s: no end after %d instructions", name, steps);
		if (steps > 0 && !memcmp(&e, &last, sizeof e) && cursor == last_cursor) {
			more = step(pid);
			continue;
		}
		last = e;
		last_cursor = cursor;
		states++;
		changed = e.tsc != was.tsc || e.msgid != was.msgid || e.aux != was.aux ||
			  memcmp(e.args, was.args, sizeof e.args);
		/* each field is the old entry's or the new one's, nothing else */
		ck_assert_msg((e.tsc == was.tsc || real || e.tsc == now.tsc) &&
			      (e.msgid == was.msgid || e.msgid == now.msgid) &&
			      (e.aux == was.aux || real || e.aux == now.aux),
			      "%s: step %d: a field is garbage", name, steps);
		for (int k = 0; k < 6; k++)
			ck_assert_msg(e.args[k] == was.args[k] || e.args[k] == now.args[k],
				      "%s: step %d: argument %d is garbage", name, steps, k);
		busy_seen |= e.seq == tl_seq_busy(11);
		/* 1. the busy marker first: no payload changes under the old seq */
		ck_assert_msg(!changed || e.seq != tl_seq_done(3),
			      "%s: step %d: the payload changed under entry 3's seq", name, steps);
		ck_assert_msg(e.seq == tl_seq_done(3) || e.seq == tl_seq_busy(11) ||
			      e.seq == tl_seq_done(11), "%s: step %d: seq %#x", name, steps, e.seq);
		/* 4. seq = n + 1 last: only over the whole new entry */
		ck_assert_msg(e.seq != tl_seq_done(11) ||
			      (new_time(&e, &now, real) && e.msgid == now.msgid &&
			       !memcmp(e.args, now.args, sizeof e.args)),
			      "%s: step %d: seq says complete over a partial entry", name, steps);
		/* 5. the cursor after */
		ck_assert_msg(cursor == 11 || (cursor == 12 && e.seq == tl_seq_done(11)),
			      "%s: step %d: cursor %llu with seq %#x", name, steps,
			      (unsigned long long)cursor, e.seq);
		/* and a reader of this state finds only whole entries */
		{
			tl_error err;
			tl_reader *r = tl_reader_open(p, &err);
			tl_entry x;
			uint64_t next = cursor == 12 ? 4 : 3;
			ck_assert_msg(r != NULL, "%s", err.msg);
			while (tl_reader_next(r, &x)) {
				if (x.seq == 3 && next == 3) {
					ck_assert_msg(!changed && whole(&x, 3, OLD_ID), "%s: step %d: torn entry 3",
						      name, steps);
				} else if (x.seq == 11) {
					struct tl_raw_entry got = { x.tsc, x.msgid, x.aux, 0, { 0 } };
					memcpy(got.args, x.args, sizeof got.args);
					ck_assert_msg(real ? new_time(&got, &now, 1) && x.msgid == NEW_ID &&
						      !memcmp(x.args, now.args, sizeof x.args) :
						      whole(&x, 11, NEW_ID),
						      "%s: step %d: torn entry 11", name, steps);
				} else {
					ck_assert_msg(x.seq > 3 && x.seq < 11 && whole(&x, x.seq, OLD_ID),
						      "%s: step %d: entry %llu", name, steps,
						      (unsigned long long)x.seq);
				}
				ck_assert_msg(x.seq >= next, "%s: step %d: entry %llu out of order", name,
					      steps, (unsigned long long)x.seq);
				next = x.seq + 1;
			}
			tl_reader_close(r);
		}
		more = step(pid);
	}
	ck_assert_msg(busy_seen, "%s: the busy marker was never stored", name);
	{
		struct tl_raw_entry *e = slot(log, 11);
		ck_assert_msg(new_time(e, &now, real) && e->msgid == now.msgid &&
			      e->seq == now.seq && !memcmp(e->args, now.args, sizeof now.args) &&
			      hdr(log)->cursor == 12, "%s: entry 11 not complete at the end", name);
	}
	/* marker, 6 arguments, msgid, tsc, aux, seq, cursor: at least 4 states
	 * (stores of one cache line may be merged by the compiler) */
	ck_assert_msg(states >= 4, "%s: %d states", name, states);
	tl_close(log);
}

START_TEST(test_writer_stopped_after_each_instruction_keeps_the_store_order)
{
	step_writer(tl_append, NEW_ID, "tl_append", 0);
	step_writer(tl_append_c, NEW_ID, "tl_append_c", 0);
	step_writer(tl_event, tl_event_code(NEW_ID, 9), "tl_event", 0);
	step_writer(tl_event_c, tl_event_code(NEW_ID, 9), "tl_event_c", 0);
	/* the rseq source's own path through the assembly and the C twin */
	step_writer(tl_append, NEW_ID, "tl_append (rseq)", TL_CLOCK_RDTSC_RSEQ);
	step_writer(tl_append_c, NEW_ID, "tl_append_c (rseq)", TL_CLOCK_RDTSC_RSEQ);
	step_writer(tl_event, tl_event_code(NEW_ID, 9), "tl_event (rseq)", TL_CLOCK_RDTSC_RSEQ);
	step_writer(tl_append, NEW_ID, "tl_append (unordered)", TL_CLOCK_RDTSC_RSEQ_UNORDERED);
}
END_TEST

/* What the traced reader got: from shared memory. */
struct read_result {
	int got;
	tl_entry e;
	uint64_t skipped;
};

struct reader_call {
	tl_reader *r;
	int before;                  /* entries read before the traced call */
	struct read_result *res;
};

static void read_one(void *arg)
{
	struct reader_call *c = arg;
	c->res->got = tl_reader_next(c->r, &c->res->e);
	c->res->skipped = tl_reader_skipped(c->r);
}

/* Writes entries 0 .. N - 1 whole into LOG from cursor 0, over a zeroed ring. */
static void reset(tl_log *log, uint64_t n)
{
	memset(tl_ring(hdr(log)), 0, SLOTS * sizeof(struct tl_raw_entry));
	hdr(log)->cursor = 0;
	for (uint64_t i = 0; i < n; i++)
		put(log, i, OLD_ID);
}

/* The writer, while the reader is stopped: 'l' laps slot 0 with entry 8
 * complete, 'm' stores entry 8's busy marker and 3 arguments there, 'c'
 * completes entry 4 (whose marker and 3 arguments were stored). */
static void writer_acts(tl_log *log, int how)
{
	struct tl_raw_entry w = want_entry(how == 'c' ? 4 : 8, NEW_ID);
	if (how == 'l') {
		put(log, 8, NEW_ID);
	} else if (how == 'm') {
		partial(log, 8, 3);
	} else {
		*slot(log, 4) = w;
		hdr(log)->cursor = 5;
	}
}

/* Single-steps tl_reader_next() reading slot 0 (HOW 'l', 'm') or the entry
 * under way at the cursor (HOW 'c'), and has the writer act after its K-th
 * instruction, for every K in turn, in a fresh child each time: the reader
 * must return the entry whole or not at all, and both must happen. */
static void step_reader(int how, const char *name)
{
	const char *p = path_in(test_dir, "r.timeline");
	tl_log *log = open_manual(p, SLOTS);
	struct read_result *res = mmap(NULL, sizeof *res, PROT_READ | PROT_WRITE,
				       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	tl_error err;
	tl_reader *r;
	int whole_seen = 0, none_seen = 0, k;
	ck_assert_ptr_ne(res, MAP_FAILED);
	reset(log, how == 'c' ? 4 : 8);
	if (how == 'c')
		partial(log, 4, 3);
	r = tl_reader_open(p, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	for (k = 0;; k++) {
		struct reader_call c = { r, how == 'c' ? 4 : 0, res };
		tl_entry e;
		int running = 1, done = 0;
		uint64_t sp;
		pid_t pid;
		ck_assert_msg(k < 20000, "%s: no end", name);
		reset(log, how == 'c' ? 4 : 8);
		if (how == 'c')
			partial(log, 4, 3);
		tl_reader_rewind(r);
		for (int i = 0; i < c.before; i++)
			ck_assert_int_eq(tl_reader_next(r, &e), 1);
		memset(res, 0, sizeof *res);
		pid = traced(read_one, &c);
		sp = run_to(pid, (uintptr_t)tl_reader_next);
		for (int i = 0; i < k && running; i++)
			running = step(pid);
		if (running) {
			done = returned(pid, sp);   /* the last time: the call is over */
			writer_acts(log, how);
			finish(pid);
		}
		if (how == 'c') {
			/* entry 4 whole, or the end of the snapshot */
			ck_assert_msg(!res->got || whole(&res->e, 4, NEW_ID),
				      "%s: writer at instruction %d: entry %llu torn", name, k,
				      (unsigned long long)res->e.seq);
			whole_seen |= res->got;
			none_seen |= !res->got;
		} else {
			/* entry 0 whole, or entry 1 with entry 0 counted as skipped */
			ck_assert_int_eq(res->got, 1);
			ck_assert_msg((res->e.seq == 0 && whole(&res->e, 0, OLD_ID) && !res->skipped) ||
				      (res->e.seq == 1 && whole(&res->e, 1, OLD_ID) && res->skipped == 1),
				      "%s: writer at instruction %d: entry %llu, %llu skipped", name, k,
				      (unsigned long long)res->e.seq, (unsigned long long)res->skipped);
			whole_seen |= res->e.seq == 0;
			none_seen |= res->e.seq == 1;
		}
		if (!running || done)
			break;   /* the reader's call ended before the writer acted */
	}
	ck_assert_msg(whole_seen && none_seen, "%s: over %d instructions the reader always %s", name,
		      k, whole_seen ? "read the entry" : "skipped the entry");
	tl_reader_close(r);
	tl_close(log);
	munmap(res, sizeof *res);
}

START_TEST(test_reader_stopped_after_each_instruction_returns_only_whole_entries)
{
	step_reader('l', "lapped by a whole entry");
	step_reader('m', "lapped by a busy marker and 3 arguments");
	step_reader('c', "the entry under way completed");
}
END_TEST

Suite *crash_suite(void)
{
	Suite *s = suite_create("crash");
	TCase *t = tcase_create("crash");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 120);   /* a quarter of the kills: seconds, 3 times that sanitized */
	tcase_add_loop_test(t, test_sigkill_never_loses_a_returned_event, 0, 4);
	tcase_add_test(t, test_live_reader_never_returns_a_torn_entry);
	suite_add_tcase(s, t);
	t = tcase_create("torn");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_each_torn_slot_state_is_read_and_copied_exactly);
	tcase_add_test(t, test_writer_stopped_after_each_instruction_keeps_the_store_order);
	tcase_add_test(t, test_reader_stopped_after_each_instruction_returns_only_whole_entries);
	suite_add_tcase(s, t);
	return s;
}
