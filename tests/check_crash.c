/* check_crash.c: writers SIGKILLed at 1,002 random moments, three processes
 * at a time, never lose an event whose call returned, and no incomplete entry
 * ever reads as complete, after a crash or while a live writer laps a reader. */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "util.h"

#define RING 4096
#define ROUNDS 334   /* rounds of WRITERS processes: 1,002 kills */
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

/* Checks the log at P after its writer, which had returned from R calls,
 * was killed; returns the entries checked. */
static size_t check_killed(const char *p, uint64_t r, unsigned seed)
{
	size_t n;
	uint64_t skipped, first = r > RING ? r - RING : 0;
	tl_entry *v = read_all(p, &n, &skipped);
	/* at most the entry being written and, once wrapped, the oldest it overwrote */
	ck_assert_uint_le(skipped, r >= RING ? 2 : 1);
	/* every returned event still in the ring is there, in order */
	ck_assert_uint_ge(n, r - first - (r > RING));
	for (size_t k = 0; k < n; k++) {
		ck_assert_msg(consistent(&v[k]), "round %u: entry %llu torn", seed,
			      (unsigned long long)v[k].seq);
		if (k)
			ck_assert_uint_eq(v[k].seq, v[k - 1].seq + 1);
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

/* One round: fork WRITERS writers, each into its own log, kill each after
 * its own random pause, check every file. Returns the entries checked. */
static size_t crash_round(volatile uint64_t *returned, unsigned seed)
{
	tl_options o = { .entries = RING, .clock = TL_CLOCK_AUTO, .no_prefault = 1,
			 .strings_bytes = 4096 };
	tl_error err;
	tl_log *log[WRITERS];
	pid_t pid[WRITERS];
	long pause[WRITERS];
	size_t checked = 0;
	for (int w = 0; w < WRITERS; w++) {
		log[w] = tl_open(path_in(test_dir, w ? (w == 1 ? "b.timeline" : "c.timeline") : "a.timeline"),
				 &o, &err);
		ck_assert_msg(log[w] != NULL, "%s", err.msg);
		returned[w] = 0;
		pause[w] = (long)((seed >> (4 * w)) % 2000) * 1000;   /* 0 to 2 ms */
		if ((pid[w] = fork()) == 0) {
			/* more writers than cores: let the killer wake on time */
			if (nice(19) == -1)
				_exit(1);
			writer(log[w], &returned[w]);
		}
	}
	/* kill in order of pause, each at its own moment */
	for (long slept = 0, left = WRITERS; left > 0; left--) {
		int next = -1;
		for (int w = 0; w < WRITERS; w++)
			if (pid[w] > 0 && (next < 0 || pause[w] < pause[next]))
				next = w;
		struct timespec ts = { 0, pause[next] - slept };
		nanosleep(&ts, NULL);
		slept = pause[next];
		kill(pid[next], SIGKILL);
		waitpid(pid[next], NULL, 0);
		pid[next] = 0;
	}
	for (int w = 0; w < WRITERS; w++) {
		tl_close(log[w]);
		checked += check_killed(path_in(test_dir, w ? (w == 1 ? "b.timeline" : "c.timeline")
						     : "a.timeline"),
					__atomic_load_n(&returned[w], __ATOMIC_ACQUIRE), seed);
	}
	return checked;
}

START_TEST(test_sigkill_never_loses_a_returned_event)
{
	volatile uint64_t *returned = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	size_t checked = 0;
	ck_assert_ptr_ne((void *)returned, MAP_FAILED);
	srand(7);
	for (unsigned i = 0; i < ROUNDS; i++)
		checked += crash_round(returned, (unsigned)rand());
	munmap((void *)returned, 4096);
	/* the figures tests/README.md quotes */
	fprintf(stderr, "crash: %d writers killed, %zu entries checked, 0 torn\n",
		ROUNDS * WRITERS, checked);
}
END_TEST

/* A writer laps a small ring while the reader takes snapshots: every entry
 * returned is complete and in order, and skipped ones are counted. */
START_TEST(test_live_reader_never_returns_a_torn_entry)
{
	const char *p = path_in(test_dir, "live.timeline");
	tl_options o = { .entries = 1 << 16, .clock = TL_CLOCK_AUTO };
	tl_error err;
	tl_log *log = tl_open(p, &o, &err);
	tl_reader *r;
	tl_entry e;
	uint64_t seen = 0, skipped = 0, prev;
	pid_t pid;
	ck_assert_ptr_nonnull(log);
	pid = fork();
	if (pid == 0) {
		uint64_t dummy;
		writer(log, &dummy);
	}
	r = tl_reader_open(p, &err);
	ck_assert_ptr_nonnull(r);
	while (tl_reader_rewind(r) < (1 << 16))   /* let the writer fill the ring once */
		sched_yield();
	/* at least 300 snapshots, and more until the reader both read entries
	 * and was lapped (how often depends on the machine), for at most 30 s */
	time_t stop = time(NULL) + 30;
	for (int snap = 0; snap < 300 || ((seen < 300 || !skipped) && time(NULL) < stop); snap++) {
		int first = 1;
		tl_reader_rewind(r);
		while (tl_reader_next(r, &e)) {
			ck_assert_msg(consistent(&e), "torn entry %llu", (unsigned long long)e.seq);
			ck_assert(first || e.seq > prev);
			prev = e.seq;
			first = 0;
			seen++;
		}
		skipped += tl_reader_skipped(r);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	tl_reader_close(r);
	tl_close(log);
	ck_assert_uint_ge(seen, 300);           /* it read while the writer wrote */
	ck_assert_uint_gt(skipped, 0);          /* and was lapped: the check was exercised */
}
END_TEST

Suite *crash_suite(void)
{
	Suite *s = suite_create("crash");
	TCase *t = tcase_create("crash");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 240);   /* 1,002 kills take about 20 s, 3 times that sanitized */
	tcase_add_test(t, test_sigkill_never_loses_a_returned_event);
	tcase_add_test(t, test_live_reader_never_returns_a_torn_entry);
	suite_add_tcase(s, t);
	return s;
}
