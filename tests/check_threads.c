/* check_threads.c: threads sharing one log (format 1.4, issue 37). Every
 * thread's entries whole, in its own order and counted exactly, with the
 * threads started together, past the ring, beside a busy loop, and killed
 * at random moments; lane 0 handed over when a second thread comes; the
 * cap of 256 lanes and a file that cannot grow (a thread refused, counted);
 * a thread that ends, a log closed under another thread's cache, a thread
 * alternating between logs; following thread by thread (tl_reader_since_threads)
 * exactly, lanes made after the reader opened the log included. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "util.h"
#include "../lib/format.h"

#define WORKERS 4
#define DEF "9,9|thr.e: w i a b c d\nOne entry of worker w, its number i; the rest follow."

/* Entry I of worker W: every argument follows from them, so a torn entry
 * (two writers' stores in one slot) cannot pass. */
static void log_w(tl_log *log, uint16_t id, unsigned w, uint64_t i)
{
	tl_append(log, id, w, i, ~i ^ w, i * 0x9e3779b97f4a7c15ull + w, (uint64_t)w << 40 | i,
		  i + 7 * w);
}

static int whole(const tl_entry *e)
{
	uint64_t w = e->args[0], i = e->args[1];
	return w < 1024 && e->args[2] == (~i ^ w) && e->args[3] == i * 0x9e3779b97f4a7c15ull + w &&
	       e->args[4] == (w << 40 | i) && e->args[5] == i + 7 * w;
}

/* A worker: it names itself, waits for the others, then logs COUNT
 * entries (with ATTACH, taking its lane first), publishing how many calls
 * returned in *RETURNED when not NULL. */
struct worker {
	tl_log *log;
	uint16_t id;
	unsigned w;
	uint64_t count;
	int attach;
	pthread_barrier_t *go;
	volatile uint64_t *returned;
	pid_t tid;                   /* out: its thread id */
	int attached;                /* out: tl_thread_attach()'s status */
};

static void *work(void *arg)
{
	struct worker *k = arg;
	char name[16];
	snprintf(name, sizeof name, "worker-%u", k->w);
	pthread_setname_np(pthread_self(), name);
	k->tid = gettid();
	if (k->attach)
		k->attached = tl_thread_attach(k->log, NULL, NULL);
	if (k->go)
		pthread_barrier_wait(k->go);
	for (uint64_t i = 0; i < k->count; i++) {
		log_w(k->log, k->id, k->w, i);
		if (k->returned)
			__atomic_store_n(k->returned, i + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* Runs N workers (W 0 .. N-1) of COUNT entries into LOG, started together. */
static void run_workers(tl_log *log, uint16_t id, struct worker *k, unsigned n, uint64_t count,
			int attach)
{
	pthread_t th[WORKERS];
	pthread_barrier_t go;
	ck_assert_uint_le(n, WORKERS);
	pthread_barrier_init(&go, NULL, n);
	for (unsigned w = 0; w < n; w++) {
		k[w] = (struct worker){ log, id, w, count, attach, &go, NULL, 0, 0 };
		ck_assert_int_eq(pthread_create(&th[w], NULL, work, &k[w]), 0);
	}
	for (unsigned w = 0; w < n; w++)
		pthread_join(th[w], NULL);
	pthread_barrier_destroy(&go);
}

static tl_log *open_log(const char *name, uint64_t entries, uint16_t *id)
{
	tl_options o = { .entries = entries, .strings_bytes = 4096, .no_prefault = 1 };
	tl_error err;
	tl_log *log = tl_open(path_in(test_dir, name), &o, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	ck_assert_int_eq(tl_intern(log, DEF, id, &err), TL_OK);
	return log;
}

/* What a read of a log found of each worker. */
struct seen {
	uint64_t n;                  /* its entries read */
	uint32_t thread;             /* its thread index (the same on every entry) */
	uint64_t first, last;        /* its first and last seq read */
};

/* Reads PATH whole: every entry whole, each worker's in its order under one
 * thread index, all in time order; fills S (WORKERS) and returns the count. */
static uint64_t read_workers(const char *path, struct seen *s, uint64_t *skipped)
{
	size_t n;
	tl_entry *v = read_all(path, &n, skipped);
	memset(s, 0, WORKERS * sizeof *s);
	for (size_t k = 0; k < n; k++) {
		const tl_entry *e = &v[k];
		struct seen *x;
		tl_check(whole(e), "entry %zu torn: w %llu i %llu", k, (unsigned long long)e->args[0],
			 (unsigned long long)e->args[1]);
		tl_check(e->args[0] < WORKERS, "entry %zu: no worker %llu", k,
			 (unsigned long long)e->args[0]);
		tl_check(!k || e->tsc >= v[k - 1].tsc, "entry %zu before the one above it", k);
		x = &s[e->args[0]];
		tl_check(e->seq == e->args[1], "worker %llu: entry %llu read as seq %llu",
			 (unsigned long long)e->args[0], (unsigned long long)e->args[1],
			 (unsigned long long)e->seq);
		tl_check(!x->n || (e->thread == x->thread && e->seq > x->last),
			 "worker %llu: entry %llu after %llu, thread %u and %u",
			 (unsigned long long)e->args[0], (unsigned long long)e->seq,
			 (unsigned long long)x->last, e->thread, x->thread);
		if (!x->n++) {
			x->thread = e->thread;
			x->first = e->seq;
		}
		x->last = e->seq;
	}
	free(v);
	return n;
}

/* Thread T of the log at PATH, as tl_reader_thread() gives it. */
static tl_thread thread_of(const char *path, unsigned t, unsigned *threads)
{
	tl_error err;
	tl_thread th;
	tl_reader *r = tl_reader_open(path, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	ck_assert_int_eq(tl_reader_thread(r, t, &th), TL_OK);
	if (threads)
		*threads = tl_reader_threads(r);
	ck_assert_int_eq(tl_reader_thread(r, tl_reader_threads(r), &th) == TL_E_INVAL, 1);
	ck_assert_int_eq(tl_reader_thread(r, t, &th), TL_OK);
	tl_reader_close(r);
	return th;
}

/* The header of the log at PATH, as the file holds it. */
static struct tl_header header_of(const char *path)
{
	struct tl_header h;
	size_t len;
	char *b = read_file(path, &len);
	ck_assert_uint_ge(len, sizeof h);
	memcpy(&h, b, sizeof h);
	free(b);
	return h;
}

/* Checks that WORKERS workers K, COUNT entries each, were read whole from
 * PATH (a ring that held them all): each thread's counts, ids and names. */
static void check_all_read(const char *path, const struct worker *k, uint64_t count)
{
	struct seen s[WORKERS];
	uint64_t skipped;
	unsigned threads, seen_threads = 0;
	tl_info in = info_at(path);
	ck_assert_uint_eq(read_workers(path, s, &skipped), WORKERS * count);
	ck_assert_uint_eq(skipped, 0);
	ck_assert_uint_eq(in.cursor, WORKERS * count);
	ck_assert_uint_eq(in.used, WORKERS * count);
	ck_assert_uint_eq(in.threads, WORKERS);
	ck_assert_uint_eq(in.threads_refused, 0);
	for (unsigned w = 0; w < WORKERS; w++) {
		tl_thread th = thread_of(path, s[w].thread, &threads);
		char name[16];
		ck_assert_uint_eq(s[w].n, count);
		ck_assert_uint_eq(s[w].first, 0);
		ck_assert_uint_eq(s[w].last, count - 1);
		ck_assert_uint_eq(threads, WORKERS);
		snprintf(name, sizeof name, "worker-%u", w);
		ck_assert_str_eq(th.name, name);
		ck_assert_uint_eq(th.tid, (uint32_t)k[w].tid);
		ck_assert_uint_eq(th.written, count);
		ck_assert_uint_eq(th.oldest, 0);
		ck_assert_uint_eq(th.lost, 0);
		ck_assert_uint_eq(th.skipped, 0);
		seen_threads |= 1u << s[w].thread;
	}
	ck_assert_uint_eq(seen_threads, (1u << WORKERS) - 1);   /* each its own index */
}

START_TEST(test_threads_started_together_keep_every_entry_whole_and_counted)
{
	struct worker k[WORKERS];
	uint16_t id;
	tl_log *log = open_log("t.timeline", 8192, &id);
	run_workers(log, id, k, WORKERS, 5000, 0);
	tl_close(log);
	check_all_read(path_in(test_dir, "t.timeline"), k, 5000);
}
END_TEST

START_TEST(test_threads_that_take_their_lanes_first_leave_lane_0_empty)
{
	struct worker k[WORKERS];
	const char *p = path_in(test_dir, "a.timeline");
	uint16_t id;
	tl_log *log = open_log("a.timeline", 8192, &id);
	struct tl_header h;
	run_workers(log, id, k, WORKERS, 3000, 1);
	tl_close(log);
	for (unsigned w = 0; w < WORKERS; w++)
		ck_assert_int_eq(k[w].attached, TL_OK);
	h = header_of(p);
	/* a lane each, the first ring unwritten: the first to attach is thread 0 */
	ck_assert_uint_eq(h.lanes, WORKERS);
	ck_assert_uint_eq(h.cursor, 0);
	ck_assert_uint_eq(h.tid, 0);
	check_all_read(p, k, 3000);
}
END_TEST

/* A child spinning on CPU C until killed: the load of a neighbour. */
static pid_t busy_loop(int c)
{
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		cpu_set_t s;
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		CPU_ZERO(&s);
		CPU_SET(c, &s);
		sched_setaffinity(0, sizeof s, &s);
		for (volatile unsigned long n = 0;; n++)
			;
	}
	return pid;
}

START_TEST(test_threads_beside_a_busy_loop_keep_every_entry_whole_and_counted)
{
	struct worker k[WORKERS];
	cpu_set_t all;
	int c = 0;
	uint16_t id;
	tl_log *log = open_log("b.timeline", 8192, &id);
	pid_t busy;
	ck_assert_int_eq(sched_getaffinity(0, sizeof all, &all), 0);
	while (c < CPU_SETSIZE - 1 && !CPU_ISSET(c, &all))
		c++;
	busy = busy_loop(c);
	run_workers(log, id, k, WORKERS, 5000, 0);
	kill(busy, SIGKILL);
	waitpid(busy, NULL, 0);
	tl_close(log);
	check_all_read(path_in(test_dir, "b.timeline"), k, 5000);
}
END_TEST

/* The entries a ring of E keeps of a thread that wrote N into one lane. */
static uint64_t kept_of(uint64_t n, uint64_t e)
{
	return n < e ? n : e;
}

START_TEST(test_threads_past_the_ring_keep_their_newest_and_count_the_rest)
{
	enum { E = 1024, N = 10000 };
	struct worker k[3];
	struct seen s[WORKERS];
	const char *p = path_in(test_dir, "w.timeline");
	uint64_t skipped, read = 0;
	uint16_t id;
	tl_log *log = open_log("w.timeline", E, &id);
	struct tl_header h;
	run_workers(log, id, k, 3, N, 0);
	tl_close(log);
	h = header_of(p);
	read_workers(p, s, &skipped);
	ck_assert_uint_eq(skipped, 0);
	for (unsigned w = 0; w < 3; w++) {
		tl_thread th = thread_of(p, s[w].thread, NULL);
		uint64_t want = kept_of(N, E);
		ck_assert_uint_eq(th.written, N);
		ck_assert_uint_eq(s[w].last, N - 1);
		if (s[w].thread == 0 && h.cursor < N) {
			/* lane 0's writer went on in a lane of its own at entry
			 * c0 = h.cursor: lane 0 keeps c0 - E .. c0 - 1, its new
			 * lane the newest of c0 .. N - 1 */
			want = kept_of(h.cursor, E) + kept_of(N - h.cursor, E);
			ck_assert_uint_eq(s[w].first, h.cursor > E ? h.cursor - E : 0);
		} else {
			ck_assert_uint_eq(s[w].first, N - E);
		}
		ck_assert_uint_eq(s[w].n, want);
		ck_assert_uint_eq(th.lost, N - want);
		ck_assert_uint_eq(th.oldest, s[w].first);
		read += s[w].n;
	}
	ck_assert_uint_eq(info_at(p).used, read);
	ck_assert_uint_eq(info_at(p).cursor, 3 * N);
}
END_TEST

/* T's thread: logs one entry of worker W into LOG. */
struct one {
	tl_log *log;
	uint16_t id;
	unsigned w;
	uint64_t i;
	int attach, attached;
	pid_t tid;
};

static void *log_one_entry(void *arg)
{
	struct one *o = arg;
	o->tid = gettid();
	if (o->attach)
		o->attached = tl_thread_attach(o->log, "one", NULL);
	log_w(o->log, o->id, o->w, o->i);
	return NULL;
}

static struct one in_a_thread(tl_log *log, uint16_t id, unsigned w, uint64_t i, int attach)
{
	pthread_t th;
	struct one o = { log, id, w, i, attach, 0, 0 };
	ck_assert_int_eq(pthread_create(&th, NULL, log_one_entry, &o), 0);
	pthread_join(th, NULL);
	return o;
}

START_TEST(test_lane_0s_writer_goes_on_in_a_lane_of_its_own_when_a_second_thread_comes)
{
	const char *p = path_in(test_dir, "m.timeline");
	uint16_t id;
	tl_log *log = open_log("m.timeline", 64, &id);
	struct seen s[WORKERS];
	struct tl_header h;
	uint64_t skipped;
	for (uint64_t i = 0; i < 100; i++)
		log_w(log, id, 0, i);
	in_a_thread(log, id, 1, 0, 0);
	for (uint64_t i = 100; i < 130; i++)
		log_w(log, id, 0, i);
	tl_close(log);
	h = header_of(p);
	/* lane 0 took 100 and no more; lane 1 is the other thread's, lane 2
	 * the first thread's from entry 100 on */
	ck_assert_uint_eq(h.cursor, 100);
	ck_assert_uint_eq(h.lanes, 2);
	ck_assert_uint_eq(h.tid, (uint32_t)getpid());   /* this thread: the main one */
	read_workers(p, s, &skipped);
	ck_assert_uint_eq(s[0].thread, 0);
	ck_assert_uint_eq(s[1].thread, 1);
	ck_assert_uint_eq(s[1].n, 1);
	/* of the 130, lane 0 keeps 36 .. 99 (64), the new lane 100 .. 129 */
	ck_assert_uint_eq(s[0].n, 64 + 30);
	ck_assert_uint_eq(s[0].first, 36);
	ck_assert_uint_eq(s[0].last, 129);
	ck_assert_uint_eq(thread_of(p, 0, NULL).written, 130);
	ck_assert_uint_eq(thread_of(p, 0, NULL).lost, 36);
	ck_assert_uint_eq(thread_of(p, 0, NULL).tid, (uint32_t)getpid());
}
END_TEST

START_TEST(test_a_thread_past_256_lanes_logs_nothing_and_is_counted)
{
	const char *p = path_in(test_dir, "cap.timeline");
	uint16_t id;
	tl_log *log = open_log("cap.timeline", 2, &id);
	struct one o;
	tl_info in;
	size_t n;
	tl_entry *v;
	/* thread 1 takes lane 0, the next 255 lanes 1 .. 255, one each */
	for (unsigned t = 0; t < TL_THREADS_MAX; t++)
		in_a_thread(log, id, 0, t, 0);
	/* the 257th and 258th log nothing; one asking, told why */
	in_a_thread(log, id, 1, 0, 0);
	o = in_a_thread(log, id, 2, 0, 1);
	ck_assert_int_eq(o.attached, TL_E_FULL);
	tl_close(log);
	in = info_at(p);
	ck_assert_uint_eq(in.threads, TL_THREADS_MAX);
	ck_assert_uint_eq(in.threads_refused, 2);
	ck_assert_uint_eq(header_of(p).lanes, TL_THREADS_MAX - 1);
	v = read_all(p, &n, NULL);
	ck_assert_uint_eq(n, TL_THREADS_MAX);    /* one entry a thread, none of the refused */
	for (size_t k = 0; k < n; k++) {
		ck_assert_uint_eq(v[k].args[0], 0);
		ck_assert_uint_eq(v[k].args[1], v[k].thread);   /* thread t logged entry t */
		ck_assert_uint_eq(v[k].seq, 0);
	}
	free(v);
}
END_TEST

START_TEST(test_tl_thread_attach_says_why_a_thread_gets_no_lane)
{
	tl_options o = { .entries = 2, .strings_bytes = 4096, .no_prefault = 1 };
	tl_error err;
	const char *p = path_in(test_dir, "full.timeline");
	tl_log *log = tl_open(p, &o, &err);
	ck_assert_ptr_nonnull(log);
	for (unsigned t = 0; t < TL_LANES_MAX; t++) {
		struct one x = in_a_thread(log, 0, 0, t, 1);
		ck_assert_int_eq(x.attached, TL_OK);
	}
	/* the 256th lane would be one too many: lane 0 is the header's */
	{
		struct one x = { log, 0, 0, 0, 1, 0, 0 };
		pthread_t th;
		ck_assert_int_eq(pthread_create(&th, NULL, log_one_entry, &x), 0);
		pthread_join(th, NULL);
		ck_assert_int_eq(x.attached, TL_E_FULL);
	}
	ck_assert_int_eq(tl_thread_attach(log, NULL, &err), TL_E_FULL);
	ck_assert_str_eq(err.msg, test_str("%s: no lane left for another thread (256 lanes)", p));
	/* a second call of the refused thread: it has its scratch lane, no error */
	ck_assert_int_eq(tl_thread_attach(log, NULL, &err), TL_OK);
	ck_assert_int_eq(tl_thread_attach(tl_disabled(), NULL, &err), TL_OK);
	/* its breaths draw no rate (its scratch lane's prng is 0: each draw
	 * would be rate 1, all, for every thread) */
	((struct tl_header *)log)->rate = 9;
	for (int i = 0; i < 300; i++)
		tl_breath(log);
	ck_assert_uint_eq(tl_rate(log), 9);
	ck_assert_uint_eq(((struct tl_header *)log)->rate_owner, 0);
	tl_close(log);
	ck_assert_uint_eq(info_at(p).threads_refused, 2);
	ck_assert_uint_eq(info_at(p).threads, TL_LANES_MAX);
	test_kept_free();
}
END_TEST

START_TEST(test_a_file_that_cannot_grow_refuses_the_thread_and_counts_it)
{
	const char *p = path_in(test_dir, "fsize.timeline");
	pid_t pid = fork();
	int st;
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* the log fits; a lane would pass the file size limit */
		tl_options o = { .entries = 64, .strings_bytes = 4096, .no_prefault = 1 };
		struct rlimit rl = { 4096 + 64 * 64 + 4096 + 2048, RLIM_INFINITY };
		tl_error err;
		tl_log *log;
		uint16_t id;
		struct one x;
		if (setrlimit(RLIMIT_FSIZE, &rl) || !(log = tl_open(p, &o, &err)) ||
		    tl_intern(log, DEF, &id, &err) != TL_OK)
			_exit(3);
		log_w(log, id, 0, 0);
		x = in_a_thread(log, id, 1, 0, 1);
		log_w(log, id, 0, 1);
		tl_close(log);
		_exit(x.attached == TL_E_FBIG ? 0 : 4);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x", st);   /* no SIGXFSZ */
	ck_assert_uint_eq(info_at(p).threads_refused, 1);
	ck_assert_uint_eq(info_at(p).threads, 1);
	ck_assert_uint_eq(info_at(p).cursor, 2);   /* the first thread's two, in lane 0 */
	ck_assert_uint_eq(header_of(p).lanes, 0);
}
END_TEST

START_TEST(test_a_thread_that_ends_leaves_its_lane_and_the_next_gets_another)
{
	const char *p = path_in(test_dir, "end.timeline");
	uint16_t id;
	tl_log *log = open_log("end.timeline", 64, &id);
	struct one a = in_a_thread(log, id, 0, 0, 0), b = in_a_thread(log, id, 1, 0, 0);
	struct seen s[WORKERS];
	uint64_t skipped;
	tl_close(log);
	ck_assert_uint_eq(read_workers(p, s, &skipped), 2);
	ck_assert_uint_eq(s[0].thread, 0);
	ck_assert_uint_eq(s[1].thread, 1);
	ck_assert_uint_eq(thread_of(p, 0, NULL).tid, (uint32_t)a.tid);
	ck_assert_uint_eq(thread_of(p, 1, NULL).tid, (uint32_t)b.tid);
	ck_assert_uint_eq(header_of(p).lanes, 1);
}
END_TEST

/* A thread that logs into LOG until told, then into whatever log *NEXT
 * holds: its cache of a closed log must be forgotten. */
struct stale {
	tl_log *volatile log;
	uint16_t id;
	volatile int phase;          /* 0 log once, 1 done; 2 log once more, 3 done */
};

static void *stale_writer(void *arg)
{
	struct stale *s = arg;
	log_w(s->log, s->id, 1, 0);
	__atomic_store_n(&s->phase, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&s->phase, __ATOMIC_ACQUIRE) != 2)
		sched_yield();
	log_w(s->log, s->id, 1, 0);
	__atomic_store_n(&s->phase, 3, __ATOMIC_RELEASE);
	return NULL;
}

START_TEST(test_a_log_closed_and_another_opened_where_it_was_is_written_right)
{
	const char *p1 = test_str("%s/one.timeline", test_dir);
	const char *p2 = test_str("%s/two.timeline", test_dir);
	uint16_t id;
	tl_options o = { .entries = 64, .strings_bytes = 4096, .no_prefault = 1 };
	tl_log *a = tl_open(p1, &o, NULL), *b;
	struct stale s;
	pthread_t th;
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(tl_intern(a, DEF, &id, NULL), TL_OK);
	log_w(a, id, 0, 0);   /* this thread has lane 0; the other gets lane 1 */
	s = (struct stale){ a, id, 0 };
	ck_assert_int_eq(pthread_create(&th, NULL, stale_writer, &s), 0);
	while (__atomic_load_n(&s.phase, __ATOMIC_ACQUIRE) != 1)
		sched_yield();
	tl_close(a);
	b = tl_open(p2, &o, NULL);
	ck_assert_ptr_nonnull(b);
	/* the same size mapped again takes the hole the first left: the other
	 * thread's cache says this address */
	ck_assert_ptr_eq(a, b);
	ck_assert_int_eq(tl_intern(b, DEF, &id, NULL), TL_OK);
	s.log = b;
	__atomic_store_n(&s.phase, 2, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	tl_close(b);
	ck_assert_uint_eq(info_at(p1).cursor, 2);   /* one a thread, as before */
	ck_assert_uint_eq(info_at(p2).cursor, 1);   /* the other thread's, in its lane 0 */
	ck_assert_uint_eq(info_at(p2).threads, 1);
	ck_assert_uint_eq(header_of(p2).lanes, 0);
	test_kept_free();
}
END_TEST

/* A thread of three entries into A (worker 2) and B (worker 3), in turn. */
struct alternate {
	tl_log *a, *b;
	uint16_t ia, ib;
};

static void *alternate(void *arg)
{
	struct alternate *t = arg;
	for (uint64_t i = 0; i < 3; i++) {
		log_w(t->a, t->ia, 2, i);
		log_w(t->b, t->ib, 3, i);
	}
	return NULL;
}

START_TEST(test_a_thread_alternating_between_logs_writes_each_whole)
{
	const char *pa = test_str("%s/x.timeline", test_dir), *pb = test_str("%s/y.timeline", test_dir);
	uint16_t ia, ib;
	tl_log *a = open_log("x.timeline", 4096, &ia), *b = open_log("y.timeline", 4096, &ib);
	struct seen s[WORKERS];
	uint64_t skipped;
	for (uint64_t i = 0; i < 3000; i++) {
		log_w(a, ia, 0, i);
		log_w(b, ib, 1, i);
	}
	/* and a second thread into both, in turn */
	{
		struct alternate t = { a, b, ia, ib };
		pthread_t th;
		ck_assert_int_eq(pthread_create(&th, NULL, alternate, &t), 0);
		pthread_join(th, NULL);
	}
	tl_close(a);
	tl_close(b);
	ck_assert_uint_eq(read_workers(pa, s, &skipped), 3003);
	ck_assert_uint_eq(s[0].n, 3000);
	ck_assert_uint_eq(s[2].n, 3);
	ck_assert_uint_eq(read_workers(pb, s, &skipped), 3003);
	ck_assert_uint_eq(s[1].n, 3000);
	ck_assert_uint_eq(s[3].n, 3);
	ck_assert_uint_eq(info_at(pa).threads, 2);
	ck_assert_uint_eq(info_at(pb).threads, 2);
	test_kept_free();
}
END_TEST

/* Lane K's header in the log file at P. */
static struct tl_lane lane_of(const char *p, unsigned k)
{
	struct tl_header h = header_of(p);
	struct tl_lane l;
	size_t len;
	char *f = read_file(p, &len);
	memcpy(&l, f + TL_LANES_BASE(h.file_bytes) + (k - 1) * TL_LANE_BYTES(h.entries), sizeof l);
	free(f);
	return l;
}

/* A thread of BREATHS breaths into LOG, started with the others. */
struct breather {
	tl_log *log;
	pthread_barrier_t *go;
};

#define BREATHS 200000

static void *breathe(void *arg)
{
	struct breather *b = arg;
	ck_assert_int_eq(tl_thread_attach(b->log, NULL, NULL), TL_OK);
	pthread_barrier_wait(b->go);
	for (int i = 0; i < BREATHS; i++)
		tl_breath(b->log);
	return NULL;
}

START_TEST(test_breaths_of_threads_at_once_are_each_counted)
{
	const char *p = path_in(test_dir, "br.timeline");
	uint16_t id;
	tl_log *log = open_log("br.timeline", 64, &id);
	pthread_barrier_t go;
	struct breather b[2];
	pthread_t th[2];
	pthread_barrier_init(&go, NULL, 2);
	for (int k = 0; k < 2; k++) {
		b[k] = (struct breather){ log, &go };
		ck_assert_int_eq(pthread_create(&th[k], NULL, breathe, &b[k]), 0);
	}
	for (int k = 0; k < 2; k++)
		pthread_join(th[k], NULL);
	pthread_barrier_destroy(&go);
	tl_close(log);
	/* each thread counts its own, in its lane (lanes 1 and 2: they attached
	 * first), none in the header's line: none lost to the other */
	ck_assert_uint_eq(info_at(p).breaths, 2 * BREATHS);
	ck_assert_uint_eq(info_at(p).threads, 2);
	ck_assert_uint_eq(header_of(p).lanes, 2);
	ck_assert_uint_eq(header_of(p).breaths, 0);
	for (unsigned k = 1; k <= 2; k++)
		ck_assert_uint_eq(lane_of(p, k).breaths, BREATHS);
}
END_TEST

/* A second thread breathing on demand: each post of GO attaches it (its
 * first) or runs N breaths; DONE is posted after. */
struct stepped {
	tl_log *log;
	sem_t go, done;
	int n, stop;
};

static void *stepped_breaths(void *arg)
{
	struct stepped *b = arg;
	sem_wait(&b->go);
	tl_thread_attach(b->log, "second", NULL);
	sem_post(&b->done);
	for (;;) {
		sem_wait(&b->go);
		if (b->stop)
			return NULL;
		for (int i = 0; i < b->n; i++)
			tl_breath(b->log);
		sem_post(&b->done);
	}
}

static void breaths_of(struct stepped *b, int n)
{
	b->n = n;
	sem_post(&b->go);
	sem_wait(&b->done);
}

/* The rate of a log of two threads is drawn by one of them, one of its
 * breaths in 16: the other's breaths draw nothing while the drawer beats
 * (once in 256 of its breaths), and take the draws over after 256 of their
 * own without a beat. Thread 0 (lane 1) is this one, thread 1 (lane 2) the second. */
START_TEST(test_one_thread_at_a_time_draws_the_rate)
{
	const char *p = path_in(test_dir, "rt.timeline");
	uint16_t id;
	tl_log *log = open_log("rt.timeline", 64, &id);
	struct stepped b = { .log = log };
	pthread_t th;
	uint64_t prng0, prng1;
	sem_init(&b.go, 0, 0);
	sem_init(&b.done, 0, 0);
	ck_assert_int_eq(tl_thread_attach(log, "first", NULL), TL_OK);
	ck_assert_int_eq(pthread_create(&th, NULL, stepped_breaths, &b), 0);
	breaths_of(&b, 0);                        /* attached */
	ck_assert_uint_eq(header_of(p).lanes, 2);
	ck_assert_uint_eq(header_of(p).rate_owner, 0);
	prng1 = lane_of(p, 2).prng;
	tl_breath(log);                           /* the first to breathe draws */
	ck_assert_uint_eq(header_of(p).rate_owner, 1);
	prng0 = lane_of(p, 1).prng;
	breaths_of(&b, 255);                      /* no draw: not its turn to look */
	ck_assert_uint_eq(header_of(p).rate_owner, 1);
	ck_assert_uint_eq(lane_of(p, 2).prng, prng1);
	ck_assert_uint_eq(lane_of(p, 2).breaths, 255);
	breaths_of(&b, 1);                        /* its 256th: no beat seen, takes over */
	ck_assert_uint_eq(header_of(p).rate_owner, 2);
	ck_assert_uint_ne(lane_of(p, 2).prng, prng1);
	ck_assert_uint_eq(header_of(p).rate_beat, 0);
	prng1 = lane_of(p, 2).prng;
	breaths_of(&b, 15);                       /* the drawer draws one breath in 16 */
	ck_assert_uint_eq(lane_of(p, 2).prng, prng1);
	breaths_of(&b, 1);                        /* its 272nd */
	ck_assert_uint_ne(lane_of(p, 2).prng, prng1);
	breaths_of(&b, 240);                      /* its 512th beats */
	ck_assert_uint_eq(header_of(p).rate_beat, 1);
	tl_breath(log);
	ck_assert_uint_eq(lane_of(p, 1).prng, prng0);   /* this thread draws no more */
	for (int i = 2; i < 255; i++)
		tl_breath(log);
	ck_assert_uint_eq(lane_of(p, 1).breaths, 255);
	tl_breath(log);                           /* its 256th: a beat since its last look */
	ck_assert_uint_eq(header_of(p).rate_owner, 2);
	ck_assert_uint_eq(lane_of(p, 1).beat_seen, 1);
	ck_assert_uint_eq(lane_of(p, 1).prng, prng0);
	for (int i = 0; i < 255; i++)
		tl_breath(log);
	ck_assert_uint_eq(header_of(p).rate_owner, 2);
	tl_breath(log);                           /* its 512th: no beat since: takes over */
	ck_assert_uint_eq(header_of(p).rate_owner, 1);
	ck_assert_uint_ne(lane_of(p, 1).prng, prng0);
	b.stop = 1;
	sem_post(&b.go);
	pthread_join(th, NULL);
	sem_destroy(&b.go);
	sem_destroy(&b.done);
	tl_close(log);
}
END_TEST

/* ------------------------------------------------------------------------
 * SIGKILL: threads flat out into one log, their process killed at random
 * ------------------------------------------------------------------------ */

#define KILL_RING 4096
#define KILL_ROUNDS 40
#define KILL_THREADS 3

/* The entries of thread W's numbers 0 .. N - 1 that its lanes still hold:
 * lane 0's writer (T0, with lane 0's cursor C0 below N) went on in a lane
 * of its own; each lane keeps its newest KILL_RING. */
static int held(uint64_t i, uint64_t n, int t0, uint64_t c0)
{
	if (t0 && c0 < n)
		return i < c0 ? i + KILL_RING >= c0 : i + KILL_RING >= n;
	return i + KILL_RING >= n;
}

/* Reads a killed round's log P: each worker's entries whole and in order,
 * its written count the calls that returned or one more (the call under way
 * when the kill came), its newest returned entry there, and every number
 * its lanes still hold read but the one the entry under way was
 * overwriting, each counted as skipped (as is that entry, torn, at its
 * cursor). Returns the entries checked. */
static uint64_t check_killed(const char *p, const volatile uint64_t *returned, unsigned round)
{
	size_t n;
	uint64_t skipped, missing = 0;
	tl_entry *v = read_all(p, &n, &skipped);
	struct tl_header h = header_of(p);
	uint64_t next[KILL_THREADS] = { 0 };
	int thread_of_w[KILL_THREADS];
	memset(thread_of_w, 0xff, sizeof thread_of_w);
	for (size_t k = 0; k < n; k++) {
		const tl_entry *e = &v[k];
		unsigned w = (unsigned)e->args[0];
		tl_check(whole(e) && w < KILL_THREADS && e->seq == e->args[1],
			 "round %u: entry %zu torn", round, k);
		tl_check(thread_of_w[w] < 0 || (unsigned)thread_of_w[w] == e->thread,
			 "round %u: worker %u in two threads", round, w);
		thread_of_w[w] = (int)e->thread;
		tl_check(e->seq >= next[w], "round %u: worker %u's %llu after %llu", round, w,
			 (unsigned long long)e->seq, (unsigned long long)next[w]);
		next[w] = e->seq + 1;
	}
	for (unsigned w = 0; w < KILL_THREADS; w++) {
		uint64_t r = returned[w], got = 0, beyond = 0;
		int t0;
		tl_thread th;
		if (thread_of_w[w] < 0) {
			/* nothing read: no call of it returned */
			tl_check(r == 0, "round %u: worker %u returned %llu, none read", round, w,
				 (unsigned long long)r);
			continue;
		}
		th = thread_of(p, (unsigned)thread_of_w[w], NULL);
		tl_check(th.written == r || th.written == r + 1, "round %u: worker %u wrote %llu, "
			 "returned %llu", round, w, (unsigned long long)th.written, (unsigned long long)r);
		tl_check(next[w] >= r, "round %u: worker %u's returned entry %llu lost", round, w,
			 (unsigned long long)r);
		for (size_t k = 0; k < n; k++)
			if (v[k].args[0] == w) {
				got += v[k].seq < th.written;
				beyond += v[k].seq >= th.written;   /* stored, cursor not moved */
			}
		tl_check(beyond <= 1 && next[w] <= th.written + 1, "round %u: worker %u: %llu beyond "
			 "its cursor", round, w, (unsigned long long)beyond);
		/* lane 0's writer went on in a lane of its own past lane 0's cursor */
		t0 = thread_of_w[w] == 0 && h.lanes;
		for (uint64_t i = 0; i < th.written; i++)
			missing += held(i, th.written, t0, h.cursor);
		tl_check(missing >= got, "round %u: worker %u: more read than held", round, w);
		missing -= got;
	}
	/* held but not read: only the oldest slot of a wrapped lane, which the
	 * entry under way was overwriting; skipped counts those and the torn
	 * entries under way, one a thread at most */
	tl_check(missing <= KILL_THREADS && missing <= skipped && skipped <= missing + KILL_THREADS,
		 "round %u: %llu held entries not read, %llu skipped", round,
		 (unsigned long long)missing, (unsigned long long)skipped);
	free(v);
	return n;
}

/* The process of a round: KILL_THREADS threads flat out into LOG, killed by
 * a timer on its own CPU time after PAUSE ns, counted from the start, or
 * (WRITING) from when every thread has returned an entry: under ASan the
 * threads' start alone can take the whole pause, and a round that kills
 * them all before their first entry checks nothing. */
static void __attribute__((noreturn)) doomed(tl_log *log, uint16_t id, volatile uint64_t *returned,
					     long pause, int writing)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGKILL };
	struct itimerspec its = { .it_value = { pause / 1000000000, pause > 0 ? pause % 1000000000 : 1 } };
	struct worker k[KILL_THREADS];
	pthread_t th[KILL_THREADS];
	timer_t t;
	if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &sev, &t) ||
	    (!writing && timer_settime(t, 0, &its, NULL)))
		_exit(2);
	for (unsigned w = 0; w < KILL_THREADS; w++) {
		k[w] = (struct worker){ log, id, w, UINT64_MAX, 0, NULL, &returned[w], 0, 0 };
		if (pthread_create(&th[w], NULL, work, &k[w]))
			_exit(3);
	}
	for (unsigned w = 0; writing && w < KILL_THREADS; w++)
		while (!returned[w])
			sched_yield();
	if (writing && timer_settime(t, 0, &its, NULL))
		_exit(2);
	pthread_join(th[0], NULL);
	_exit(4);
}

START_TEST(test_threads_killed_at_random_lose_no_returned_entry_and_tear_none)
{
	volatile uint64_t *returned = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	uint64_t checked = 0;
	ck_assert_ptr_ne((void *)returned, MAP_FAILED);
	srand(37);
	for (unsigned round = 0; round < KILL_ROUNDS; round++) {
		const char *p = path_in(test_dir, "k.timeline");
		uint16_t id;
		tl_log *log = open_log("k.timeline", KILL_RING, &id);
		pid_t pid;
		int st;
		for (unsigned w = 0; w < KILL_THREADS; w++)
			returned[w] = 0;
		if ((pid = fork()) == 0)   /* half the rounds killed from the start */
			doomed(log, id, returned, (long)(rand() % 3000) * 1000, round % 2);
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "round %u: status %#x",
			      round, st);
		tl_close(log);
		checked += check_killed(p, returned, round);
	}
	munmap((void *)returned, 4096);
	fprintf(stderr, "threads: %d processes of %d threads killed, %llu entries checked, 0 torn\n",
		KILL_ROUNDS, KILL_THREADS, (unsigned long long)checked);
	/* each of the rounds killed while writing had written some */
	ck_assert_uint_ge(checked, KILL_ROUNDS / 2 * KILL_THREADS);
}
END_TEST

/* ------------------------------------------------------------------------
 * Following thread by thread
 * ------------------------------------------------------------------------ */

/* Entries of R's snapshot: the workers and numbers, "w:i w:i ...". */
static char *snapshot(tl_reader *r)
{
	char *s = xasprintf("%s", ""), *t;
	tl_entry e;
	while (tl_reader_next(r, &e)) {
		t = xasprintf("%s%s%llu:%llu", s, *s ? " " : "", (unsigned long long)e.args[0],
			      (unsigned long long)e.seq);
		free(s);
		s = t;
	}
	return s;
}

/* tl_reader_since_threads(R) from thread 0's F0 and thread 1's F1 (N of
 * them given): returns WRITTEN, *LOST is LOST, and the snapshot reads WANT. */
static void since(tl_reader *r, uint64_t f0, uint64_t f1, size_t n, uint64_t written,
		  uint64_t lost, const char *want)
{
	uint64_t from[2] = { f0, f1 }, got;
	char *s;
	ck_assert_uint_eq(tl_reader_since_threads(r, from, n, &got), written);
	ck_assert_uint_eq(got, lost);
	s = snapshot(r);
	ck_assert_str_eq(s, want);
	free(s);
}

START_TEST(test_since_threads_reads_every_number_or_counts_it_lost)
{
	const char *p = path_in(test_dir, "f.timeline");
	uint16_t id;
	tl_log *log = open_manual(p, 4);
	tl_error err;
	tl_reader *r = tl_reader_open(p, &err);
	uint64_t lost;
	char *s;
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(tl_intern(log, DEF, &id, NULL), TL_OK);
	for (uint64_t i = 0; i < 3; i++) {
		tl_set_manual_clock(log, 100 + i, 0);
		log_w(log, id, 0, i);
	}
	/* one thread: as tl_reader_since() */
	since(r, 1, 0, 1, 3, 0, "0:1 0:2");
	ck_assert_uint_eq(tl_reader_threads(r), 1);
	/* a second thread comes (a lane made after the reader opened the log),
	 * and this one goes on in a lane of its own: 3 .. 9, of which its ring
	 * of 4 keeps 6 .. 9 */
	tl_set_manual_clock(log, 200, 0);
	in_a_thread(log, id, 1, 0, 0);
	for (uint64_t i = 3; i < 10; i++) {
		tl_set_manual_clock(log, 300 + i, 0);
		log_w(log, id, 0, i);
	}
	/* 10 of thread 0 and 1 of thread 1 written; 3, 4 and 5 overwritten
	 * before they were read; thread 1's entry 0, new, from its first,
	 * thread 0's 6 .. 9, in time order (its cursor, 10, the next call's) */
	since(r, 3, 0, 1, 11, 3, "1:0 0:6 0:7 0:8 0:9");
	ck_assert_uint_eq(tl_reader_threads(r), 2);
	/* from the cursors: nothing; from 0 again: lane 0 keeps 0 .. 2 */
	since(r, 10, 1, 2, 11, 0, "");
	since(r, 0, 1, 2, 11, 3, "0:0 0:1 0:2 0:6 0:7 0:8 0:9");
	/* tl_reader_since() of a log of several threads: thread 0's FROM, the
	 * others whole */
	ck_assert_uint_eq(tl_reader_since(r, 8, &lost), 11);
	ck_assert_uint_eq(lost, 0);
	s = snapshot(r);
	ck_assert_str_eq(s, "1:0 0:8 0:9");
	free(s);
	/* a whole snapshot: every lane, the entry at each cursor too */
	ck_assert_uint_eq(tl_reader_rewind(r), 3 + 4 + 1);
	s = snapshot(r);
	ck_assert_str_eq(s, "0:0 0:1 0:2 1:0 0:6 0:7 0:8 0:9");
	free(s);
	tl_reader_close(r);
	tl_close(log);
}
END_TEST

Suite *threads_suite(void)
{
	Suite *s = suite_create("threads");
	TCase *t = tcase_create("share");
	TCase *k = tcase_create("kill");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_threads_started_together_keep_every_entry_whole_and_counted);
	tcase_add_test(t, test_threads_that_take_their_lanes_first_leave_lane_0_empty);
	tcase_add_test(t, test_threads_beside_a_busy_loop_keep_every_entry_whole_and_counted);
	tcase_add_test(t, test_threads_past_the_ring_keep_their_newest_and_count_the_rest);
	tcase_add_test(t, test_lane_0s_writer_goes_on_in_a_lane_of_its_own_when_a_second_thread_comes);
	tcase_add_test(t, test_a_thread_past_256_lanes_logs_nothing_and_is_counted);
	tcase_add_test(t, test_tl_thread_attach_says_why_a_thread_gets_no_lane);
	tcase_add_test(t, test_a_file_that_cannot_grow_refuses_the_thread_and_counts_it);
	tcase_add_test(t, test_a_thread_that_ends_leaves_its_lane_and_the_next_gets_another);
	tcase_add_test(t, test_a_log_closed_and_another_opened_where_it_was_is_written_right);
	tcase_add_test(t, test_a_thread_alternating_between_logs_writes_each_whole);
	tcase_add_test(t, test_since_threads_reads_every_number_or_counts_it_lost);
	tcase_add_test(t, test_breaths_of_threads_at_once_are_each_counted);
	tcase_add_test(t, test_one_thread_at_a_time_draws_the_rate);
	suite_add_tcase(s, t);
	tcase_add_checked_fixture(k, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(k, 120);
	tcase_add_test(k, test_threads_killed_at_random_lose_no_returned_entry_and_tear_none);
	suite_add_tcase(s, k);
	return s;
}
