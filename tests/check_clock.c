/* check_clock.c: the clock sources' cpu/node word against the kernel's
 * getcpu(2) on every CPU and in concurrent threads, which source AUTO picks
 * on this host and in a child whose rseq glibc was told not to register
 * (GLIBC_TUNABLES=glibc.pthread.rseq=0), and the order of the fallbacks. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "util.h"
#include "../lib/clock.h"
#include "../lib/format.h"
#if TL_HAVE_RSEQ
#include <sys/auxv.h>
#include <sys/rseq.h>
#pragma weak __rseq_size
#ifndef AT_RSEQ_FEATURE_SIZE
#define AT_RSEQ_FEATURE_SIZE 27
#endif
#endif

typedef void (*append_fn)(tl_log *, unsigned, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
			  uint64_t);

/* The kernel's word for the calling thread, node << 12 | cpu, from the
 * system call: glibc's getcpu() and sched_getcpu() may read the rseq area. */
static unsigned kernel_word(void)
{
	unsigned cpu = 0, node = 0;
	if (syscall(SYS_getcpu, &cpu, &node, NULL) != 0)
		return 0xffff;
	return node << 12 | cpu;
}

/* Does this host let glibc's rseq area give the word? Asked independently
 * of the library: glibc registered it and the kernel fills node_id. */
static int host_has_rseq(void)
{
#if TL_HAVE_RSEQ
	return &__rseq_size && __rseq_size > 0 &&
	       getauxval(AT_RSEQ_FEATURE_SIZE) >= TL_RSEQ_FEATURE_NODE;
#else
	return 0;
#endif
}

/* The source AUTO takes where rseq is out: RDTSCP, RDPID, then LSL. */
static int fallback_for(uint32_t cpu_features)
{
	return cpu_features & TL_CPU_RDTSCP   ? TL_CLOCK_RDTSCP
	       : cpu_features & TL_CPU_RDPID  ? TL_CLOCK_RDTSC_RDPID
	       : cpu_features & TL_CPU_LSL    ? TL_CLOCK_RDTSC_LSL
					      : TL_CLOCK_RDTSC;
}

static tl_log *open_clock(const char *p, int clock, uint64_t entries)
{
	tl_options o = { .entries = entries, .clock = clock, .no_prefault = 1,
			 .strings_bytes = 4096 };
	tl_error err;
	tl_log *log = tl_open(p, &o, &err);
	ck_assert_msg(log != NULL, "%s: %s", tl_clock_name(clock), err.msg);
	return log;
}

/* Pinned to each CPU in turn, logs through FN with CLOCK and checks the
 * word against the kernel's, asked before and after (a pinned thread does
 * not move, but the check does not rely on it). */
static void check_every_cpu(int clock, append_fn fn)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	const char *p = path_in(test_dir, "cpus.timeline");
	tl_log *log = open_clock(p, clock, 4096);
	cpu_set_t all, one;
	size_t n, checked = 0;
	tl_entry *v;
	ck_assert_int_eq(sched_getaffinity(0, sizeof all, &all), 0);
	for (long c = 0; c < CPU_SETSIZE && c < 4096; c++) {
		if (!CPU_ISSET(c, &all))
			continue;
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		ck_assert_int_eq(sched_setaffinity(0, sizeof one, &one), 0);
		for (int k = 0; k < 3; k++) {   /* the first after the move, then two more */
			unsigned before = kernel_word();
			fn(log, 1, (uint64_t)c, before, 0, 0, 0, 0);
			fn(log, 2, (uint64_t)c, kernel_word(), 0, 0, 0, 0);
		}
	}
	ck_assert_int_eq(sched_setaffinity(0, sizeof all, &all), 0);
	tl_close(log);
	v = read_all(p, &n, NULL);
	ck_assert_uint_eq(n % 2, 0);
	for (size_t i = 0; i < n; i += 2) {
		/* before == after: the thread was on that CPU around the call */
		if (v[i].args[1] != v[i + 1].args[1])
			continue;
		ck_assert_msg(v[i].aux == v[i].args[1], "%s: word 0x%04x, kernel 0x%04llx on cpu %llu",
			      tl_clock_name(clock), (unsigned)v[i].aux,
			      (unsigned long long)v[i].args[1], (unsigned long long)v[i].args[0]);
		ck_assert_uint_eq(v[i].cpu, v[i].args[0]);
		checked++;
	}
	/* pinned: every call was checked, three on each CPU we may run on */
	ck_assert_uint_eq(checked, 3 * (size_t)CPU_COUNT(&all));
	ck_assert_uint_le((size_t)CPU_COUNT(&all), (size_t)ncpu);
	free(v);
}

START_TEST(test_rseq_word_is_getcpu_on_every_cpu)
{
	if (!host_has_rseq()) {
		/* glibc < 2.35, rseq off, or Linux < 6.3: the source is refused */
		tl_options o = { .entries = 2, .clock = TL_CLOCK_RDTSC_RSEQ, .no_prefault = 1 };
		tl_error err;
		ck_assert_ptr_null(tl_open(path_in(test_dir, "no.timeline"), &o, &err));
		ck_assert_int_eq(err.code, TL_E_INVAL);
		ck_assert_str_eq(err.msg, "clock source 7 needs a TSC and an rseq area with the node "
					  "(glibc 2.35 and Linux 6.3 or later)");
		return;
	}
	check_every_cpu(TL_CLOCK_RDTSC_RSEQ, tl_append);
	check_every_cpu(TL_CLOCK_RDTSC_RSEQ, tl_append_c);
	check_every_cpu(TL_CLOCK_RDTSC_RSEQ_UNORDERED, tl_append);
	check_every_cpu(TL_CLOCK_RDTSC_RSEQ_UNORDERED, tl_append_c);
}
END_TEST

/* The other sources that read a word give the same, where the CPU has them;
 * the monotonic source (getcpu()) everywhere: cpu 1 of node 0 reads cpu 1,
 * numa 0, on any host of two CPUs or more. */
START_TEST(test_other_sources_word_is_getcpu_on_every_cpu)
{
	const char *p = path_in(test_dir, "probe.timeline");
	tl_info in;
	tl_close(open_clock(p, TL_CLOCK_AUTO, 2));
	in = info_at(p);
	check_every_cpu(TL_CLOCK_MONOTONIC, tl_append);
	check_every_cpu(TL_CLOCK_MONOTONIC, tl_append_c);
	if (in.cpu_features & TL_CPU_RDPID)
		check_every_cpu(TL_CLOCK_RDTSC_RDPID, tl_append);
	if (in.cpu_features & TL_CPU_RDTSCP)
		check_every_cpu(TL_CLOCK_RDTSCP, tl_append);
	if (in.cpu_features & TL_CPU_LSL) {
		check_every_cpu(TL_CLOCK_RDTSC_LSL, tl_append);
		check_every_cpu(TL_CLOCK_RDTSC_LSL, tl_append_c);
	}
}
END_TEST

/* Threads, each with a log of its own, log flat out at once, pinned round
 * the CPUs: each reads its own thread's area, and the node is node_id, not
 * the concurrency id beside it (mm_cid, which differs between threads). */
#define THREADS 4
#define PER_THREAD 2000

struct worker {
	tl_log *log;
	int cpu;
	append_fn fn;
};

static pthread_barrier_t start;

static void *work(void *arg)
{
	struct worker *w = arg;
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(w->cpu, &one);
	sched_setaffinity(0, sizeof one, &one);
	pthread_barrier_wait(&start);
	for (int i = 0; i < PER_THREAD; i++) {
		unsigned before = kernel_word();
		w->fn(w->log, 1, (uint64_t)i, before, 0, 0, 0, 0);
		w->fn(w->log, 2, (uint64_t)i, kernel_word(), 0, 0, 0, 0);
	}
	return NULL;
}

START_TEST(test_rseq_word_in_concurrent_threads)
{
	cpu_set_t all;
	int cpus[CPU_SETSIZE], ncpu = 0;
	struct worker w[THREADS];
	pthread_t t[THREADS];
	if (!host_has_rseq())
		return;
	ck_assert_int_eq(sched_getaffinity(0, sizeof all, &all), 0);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &all))
			cpus[ncpu++] = c;
	ck_assert_int_eq(pthread_barrier_init(&start, NULL, THREADS), 0);
	for (int i = 0; i < THREADS; i++) {
		char name[32];
		snprintf(name, sizeof name, "t%d.timeline", i);
		w[i].log = open_clock(path_in(test_dir, name), TL_CLOCK_RDTSC_RSEQ, 8192);
		w[i].cpu = cpus[i % ncpu];
		w[i].fn = i % 2 ? tl_append_c : tl_append;
		ck_assert_int_eq(pthread_create(&t[i], NULL, work, &w[i]), 0);
	}
	for (int i = 0; i < THREADS; i++) {
		char name[32];
		size_t n;
		tl_entry *v;
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
		tl_close(w[i].log);
		snprintf(name, sizeof name, "t%d.timeline", i);
		v = read_all(path_in(test_dir, name), &n, NULL);
		ck_assert_uint_eq(n, 2 * PER_THREAD);
		for (size_t k = 0; k < n; k += 2) {
			ck_assert_uint_eq(v[k].args[1], v[k + 1].args[1]);   /* pinned */
			ck_assert_msg(v[k].aux == v[k].args[1],
				      "thread %d: word 0x%04x, kernel 0x%04llx", i, (unsigned)v[k].aux,
				      (unsigned long long)v[k].args[1]);
			ck_assert_int_eq((int)v[k].cpu, w[i].cpu);
		}
		free(v);
	}
	pthread_barrier_destroy(&start);
}
END_TEST

/* AUTO takes rseq where the host has it, else today's order; asking for
 * rseq where it is missing fails. */
START_TEST(test_auto_picks_rseq_where_the_host_has_it)
{
	const char *p = path_in(test_dir, "auto.timeline");
	tl_info in;
	tl_close(open_clock(p, TL_CLOCK_AUTO, 2));
	in = info_at(p);
	ck_assert_str_eq(tl_clock_name(TL_CLOCK_RDTSC_RSEQ), "rdtsc+rseq");
	if (host_has_rseq()) {
		ck_assert_int_eq(in.clock, TL_CLOCK_RDTSC_RSEQ);
		ck_assert_str_eq(tl_clock_name(in.clock), "rdtsc+rseq");
	} else {
		ck_assert_int_eq(in.clock, fallback_for(in.cpu_features));
	}
	/* not a CPU feature: cpu_features never carries it */
	ck_assert_uint_eq(in.cpu_features & TL_HOST_RSEQ, 0);
}
END_TEST

/* tl_clock_pick over feature sets: each fallback in its place. */
START_TEST(test_auto_fallback_order)
{
	const uint32_t tsc = TL_CPU_TSC, lsl = TL_CPU_LSL, rdpid = TL_CPU_RDPID,
		       rdtscp = TL_CPU_RDTSCP, rseq = TL_HOST_RSEQ;
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_AUTO, tsc | rseq | rdpid | rdtscp | lsl),
			 TL_CLOCK_RDTSC_RSEQ);
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_AUTO, tsc | rseq | lsl), TL_CLOCK_RDTSC_RSEQ);
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_AUTO, tsc | rdpid | rdtscp | lsl), TL_CLOCK_RDTSCP);
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_AUTO, tsc | rdpid | lsl), TL_CLOCK_RDTSC_RDPID);
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_AUTO, tsc | rdtscp | lsl), TL_CLOCK_RDTSCP);
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_AUTO, tsc | lsl), TL_CLOCK_RDTSC_LSL);
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_AUTO, tsc), TL_CLOCK_RDTSC);
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_AUTO, rseq | lsl), TL_CLOCK_MONOTONIC);
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_AUTO, 0), TL_CLOCK_MONOTONIC);
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_RDTSC_RSEQ, tsc | rdpid | lsl), -1);
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_RDTSC_RSEQ, rseq), -1);
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_RDTSC_RSEQ, tsc | rseq), TL_CLOCK_RDTSC_RSEQ);
	/* the unordered source: on request, with what the rseq source needs */
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_RDTSC_RSEQ_UNORDERED, tsc | rdpid | lsl), -1);
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_RDTSC_RSEQ_UNORDERED, rseq), -1);
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_RDTSC_RSEQ_UNORDERED, tsc | rseq),
			 TL_CLOCK_RDTSC_RSEQ_UNORDERED);
	ck_assert_str_eq(tl_clock_name(TL_CLOCK_RDTSC_RSEQ_UNORDERED), "rdtsc+rseq-unordered");
	ck_assert_ptr_null(tl_clock_name(TL_CLOCK_RDTSC_RSEQ_UNORDERED + 1));
}
END_TEST

/* A source asked for by name needs its features, the TSC first: each
 * refused (-1) without any one of them, taken with them all. */
START_TEST(test_pick_of_a_named_source_needs_each_of_its_features)
{
	static const struct { int clock; uint32_t needs; } named[] = {
		{ TL_CLOCK_RDTSC_RDPID, TL_CPU_TSC | TL_CPU_RDPID },
		{ TL_CLOCK_RDTSCP, TL_CPU_TSC | TL_CPU_RDTSCP },
		{ TL_CLOCK_RDTSC, TL_CPU_TSC },
		{ TL_CLOCK_RDTSC_LSL, TL_CPU_TSC | TL_CPU_LSL },
		{ TL_CLOCK_RDTSC_RSEQ, TL_CPU_TSC | TL_HOST_RSEQ },
		{ TL_CLOCK_RDTSC_RSEQ_UNORDERED, TL_CPU_TSC | TL_HOST_RSEQ },
	};
	const uint32_t every = TL_CPU_TSC | TL_CPU_RDTSCP | TL_CPU_RDPID | TL_CPU_INVARIANT |
			       TL_CPU_LSL | TL_HOST_RSEQ;
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
		int c = named[i].clock;
		ck_assert_int_eq(tl_clock_pick(c, named[i].needs), c);
		ck_assert_int_eq(tl_clock_pick(c, every), c);
		ck_assert_int_eq(tl_clock_pick(c, 0), -1);
		for (int bit = 0; bit < 32; bit++) {
			uint32_t one = 1u << bit;
			if (!(named[i].needs & one))
				continue;
			ck_assert_msg(tl_clock_pick(c, named[i].needs & ~one) == -1,
				      "%s without feature %#x: %d", tl_clock_name(c), one,
				      tl_clock_pick(c, named[i].needs & ~one));
			ck_assert_msg(tl_clock_pick(c, every & ~one) == -1,
				      "%s with all but feature %#x: %d", tl_clock_name(c), one,
				      tl_clock_pick(c, every & ~one));
		}
	}
	/* the two that need nothing; and no such source */
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_MONOTONIC, 0), TL_CLOCK_MONOTONIC);
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_MANUAL, 0), TL_CLOCK_MANUAL);
	ck_assert_int_eq(tl_clock_pick(TL_CLOCK_RDTSC_RSEQ_UNORDERED + 1, every), -1);
	ck_assert_int_eq(tl_clock_pick(-1, every), -1);
}
END_TEST

/* The refusal tl_open() gives for source CLOCK where the host lacks what
 * it needs (tl_clock_pick() -1): rseq's two say what they need. */
static const char *refusal_of(int clock)
{
	static char msg[160];
	if (clock == TL_CLOCK_RDTSC_RSEQ || clock == TL_CLOCK_RDTSC_RSEQ_UNORDERED)
		snprintf(msg, sizeof msg, "clock source %d needs a TSC and an rseq area with the node "
					  "(glibc 2.35 and Linux 6.3 or later)", clock);
	else if (!tl_clock_name(clock))
		snprintf(msg, sizeof msg, "clock source %d does not exist", clock);
	else
		snprintf(msg, sizeof msg, "clock source %d is not supported by this CPU", clock);
	return msg;
}

/* Opens a log of every source, and of no source, in DIR and prints to F a
 * line each: "CLOCK: PICKED", or "CLOCK: MESSAGE" when refused; returns
 * how many were refused with another message than refusal_of() or taken
 * as another source than tl_clock_pick() gives for FEATURES. */
static int open_every_source(FILE *f, const char *dir, uint32_t features)
{
	int wrong = 0;
	for (int c = -1; c <= TL_CLOCK_RDTSC_RSEQ_UNORDERED + 1; c++) {
		char p[4096];
		tl_options o = { .entries = 4, .clock = c, .no_prefault = 1, .strings_bytes = 4096 };
		tl_error err;
		tl_log *log;
		int want = tl_clock_name(c) ? tl_clock_pick(c, features) : -1;
		snprintf(p, sizeof p, "%s/source%d.timeline", dir, c);
		if ((log = tl_open(p, &o, &err))) {
			int got = ((const struct tl_header *)log)->clock;
			fprintf(f, "%d: %d\n", c, got);
			wrong += got != want;
			tl_close(log);
		} else {
			fprintf(f, "%d: %s\n", c, err.msg);
			wrong += want >= 0 || err.code != TL_E_INVAL || strcmp(err.msg, refusal_of(c));
		}
	}
	return wrong;
}

/* On this host: every source tl_clock_pick() refuses is refused by
 * tl_open() with its message, the others taken as picked. */
START_TEST(test_open_refuses_each_source_the_host_lacks_with_its_message)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int wrong;
	ck_assert_ptr_nonnull(f);
	wrong = open_every_source(f, test_dir, tl_host_features());
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_msg(wrong == 0, "%s", out);
	/* the sources that need nothing are never refused; no source is */
	ck_assert_ptr_nonnull(strstr(out, "\n4: 4\n5: 5\n"));
	ck_assert_ptr_nonnull(strstr(out, "-1: clock source -1 does not exist\n"));
	ck_assert_ptr_nonnull(strstr(out, "9: clock source 9 does not exist\n"));
	free(out);
}
END_TEST

/* The child of the next test, run as this binary with TL_TEST_CLOCK_CHILD
 * set to a directory: prints what AUTO picked with its cpu features, whether
 * glibc registered rseq, and whether asking for rseq failed as it must.
 * Outside Check's runner: no ck_ macros here. */
int clock_child(const char *dir)
{
	char p[4096], q[4096];
	tl_options o = { .entries = 16, .no_prefault = 1, .strings_bytes = 4096 };
	tl_error err;
	tl_log *log;
	int refused, clock;
	snprintf(p, sizeof p, "%s/child.timeline", dir);
	if (!(log = tl_open(p, &o, &err))) {
		printf("open: %s\n", err.msg);
		return 1;
	}
	o.clock = TL_CLOCK_RDTSC_RSEQ;
	snprintf(q, sizeof q, "%s/rseq.timeline", dir);
	refused = tl_open(q, &o, &err) == NULL && err.code == TL_E_INVAL;
	tl_append(log, 1, kernel_word(), 0, 0, 0, 0, 0);
	clock = ((const struct tl_header *)log)->clock;
	tl_close(log);
	refused = refused && !strcmp(err.msg, "clock source 7 needs a TSC and an rseq area with "
					      "the node (glibc 2.35 and Linux 6.3 or later)");
	printf("clock %d features %u registered %d rseq refused %d\n", clock, tl_cpu_features(),
	       host_has_rseq(), refused);
	/* then every source, the two of rseq refused with what they need */
	printf("wrong %d\n", open_every_source(stdout, dir, tl_cpu_features()));
	return 0;
}

START_TEST(test_auto_falls_back_when_glibc_registers_no_rseq)
{
	char *cmd = xasprintf("TL_TEST_CLOCK_CHILD=%s GLIBC_TUNABLES=glibc.pthread.rseq=0 "
			      "/proc/%d/exe", test_dir, (int)getpid());
	char *out = NULL;
	int clock = -1, registered = -1, refused = -1;
	unsigned features = 0;
	size_t n;
	tl_entry *v;
	ck_assert_int_eq(run(cmd, &out, NULL), 0);
	ck_assert_int_eq(sscanf(out, "clock %d features %u registered %d rseq refused %d", &clock,
				&features, &registered, &refused), 4);
	ck_assert_int_eq(registered, 0);   /* the tunable took */
	ck_assert_int_eq(refused, 1);
	/* every source as this host's CPU allows it, and both of rseq's
	 * refused with what they need, the unordered one too */
	ck_assert_msg(strstr(out, "\nwrong 0\n") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "\n7: clock source 7 needs a TSC and an rseq area with the node "
				  "(glibc 2.35 and Linux 6.3 or later)\n8: clock source 8 needs a TSC "
				  "and an rseq area with the node (glibc 2.35 and Linux 6.3 or later)\n"),
		      "%s", out);
	/* in silence, the next source in the order; here, a KVM guest without
	 * RDPID or RDTSCP, that is RDTSC+LSL */
	ck_assert_int_eq(clock, fallback_for(features));
	v = read_all(path_in(test_dir, "child.timeline"), &n, NULL);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(info_at(path_in(test_dir, "child.timeline")).clock, clock);
	if (clock != TL_CLOCK_RDTSC)
		ck_assert_uint_lt(v[0].cpu, (uint64_t)sysconf(_SC_NPROCESSORS_CONF));
	free(v);
	free(out);
	free(cmd);
}
END_TEST

/* The clock of a log opened at P with CLOCK under TIMELINE_CLOCK=ENV, or
 * -1 with the error in MSG. */
static int clock_under_env(const char *env, int clock, char *msg, size_t size)
{
	const char *p = path_in(test_dir, "env.timeline");
	tl_options o = { .entries = 2, .clock = clock, .no_prefault = 1 };
	tl_error err;
	tl_log *log;
	int got;
	ck_assert_int_eq(setenv(TL_CLOCK_ENV, env, 1), 0);
	log = tl_open(p, &o, &err);
	unsetenv(TL_CLOCK_ENV);
	if (!log) {
		snprintf(msg, size, "%s", err.msg);
		return -1;
	}
	tl_close(log);
	got = info_at(p).clock;
	unlink(p);
	return got;
}

/* Every name tl_clock_name() gives parses back to its source. */
START_TEST(test_clock_names_parse_back)
{
	for (int c = TL_CLOCK_AUTO; c <= TL_CLOCK_RDTSC_RSEQ_UNORDERED; c++)
		ck_assert_int_eq(tl_clock_parse(tl_clock_name(c)), c);
	ck_assert_int_eq(tl_clock_parse("rdtsc+rseq-unordered"), TL_CLOCK_RDTSC_RSEQ_UNORDERED);
	ck_assert_int_eq(tl_clock_parse("RDTSC"), -1);
	ck_assert_int_eq(tl_clock_parse("rdtsc "), -1);
	ck_assert_int_eq(tl_clock_parse(""), -1);
	ck_assert_int_eq(tl_clock_parse(NULL), -1);
}
END_TEST

/* TIMELINE_CLOCK chooses the source of a log opened with AUTO, by name;
 * a source in the options wins; a name that is no source, or "manual",
 * refuses the open with the list of names; empty is unset. */
START_TEST(test_clock_env_chooses_the_source_of_auto_logs)
{
	char msg[sizeof ((tl_error *)0)->msg] = "", *want;
	const char *list = "(TIMELINE_CLOCK): auto, rdtsc+rseq, rdtsc+rseq-unordered, rdtscp, "
			   "rdtsc+rdpid, rdtsc+lsl, rdtsc or monotonic";
	int autoc = clock_under_env("", TL_CLOCK_AUTO, msg, sizeof msg);
	ck_assert_int_ge(autoc, 0);
	ck_assert_int_eq(clock_under_env("auto", TL_CLOCK_AUTO, msg, sizeof msg), autoc);
	ck_assert_int_eq(clock_under_env("monotonic", TL_CLOCK_AUTO, msg, sizeof msg),
			 TL_CLOCK_MONOTONIC);
	/* the program's own choice stands */
	ck_assert_int_eq(clock_under_env("rdtsc+rseq-unordered", TL_CLOCK_MONOTONIC, msg, sizeof msg),
			 TL_CLOCK_MONOTONIC);
	if (host_has_rseq()) {
		ck_assert_int_eq(clock_under_env("rdtsc+rseq-unordered", TL_CLOCK_AUTO, msg, sizeof msg),
				 TL_CLOCK_RDTSC_RSEQ_UNORDERED);
		ck_assert_int_eq(autoc, TL_CLOCK_RDTSC_RSEQ);   /* never picked by AUTO */
	} else {
		ck_assert_int_eq(clock_under_env("rdtsc+rseq-unordered", TL_CLOCK_AUTO, msg, sizeof msg),
				 -1);
		ck_assert_str_eq(msg, "TIMELINE_CLOCK=rdtsc+rseq-unordered needs a TSC and an rseq "
				      "area with the node (glibc 2.35 and Linux 6.3 or later)");
	}
	ck_assert_int_eq(clock_under_env("manual", TL_CLOCK_AUTO, msg, sizeof msg), -1);
	want = xasprintf("no clock source 'manual' %s", list);
	ck_assert_str_eq(msg, want);
	free(want);
	ck_assert_int_eq(clock_under_env("rdtsc+unordered", TL_CLOCK_AUTO, msg, sizeof msg), -1);
	want = xasprintf("no clock source 'rdtsc+unordered' %s", list);
	ck_assert_str_eq(msg, want);
	free(want);
}
END_TEST

/* A stand-in for a thread's rseq area, at the offsets the kernel uses. */
struct stand_in {
	uint32_t cpu_id_start, cpu_id;   /* 0, 4 (TL_RSEQ_CPU_ID) */
	uint64_t rseq_cs;                /* 8 */
	uint32_t flags, node_id, mm_cid; /* 16, 20 (TL_RSEQ_NODE_ID), 24 */
} __attribute__((aligned(32)));
_Static_assert(offsetof(struct stand_in, cpu_id) == TL_RSEQ_CPU_ID &&
	       offsetof(struct stand_in, node_id) == TL_RSEQ_NODE_ID, "rseq layout");

static __thread struct stand_in fake_rseq;

/* AUTO's check of the rseq area at open (tl_rseq_agrees()), given a
 * stand-in: taken only when its cpu_id and its node_id are both what
 * getcpu(2) said; a wrong cpu with the right node, or the other way, is
 * refused on any host, one node or many; and the node is node_id, not
 * mm_cid beside it nor cpu_id_start before. */
START_TEST(test_rseq_check_takes_an_area_only_when_its_cpu_and_node_agree)
{
	struct stand_in a = { .cpu_id_start = 36, .cpu_id = 37, .flags = 4, .node_id = 5,
			      .mm_cid = 9 };
	const volatile uint32_t *rs = (const volatile uint32_t *)&a;
	ck_assert_uint_eq(tl_rseq_agrees(rs, 37, 5), TL_HOST_RSEQ);
	ck_assert_uint_eq(tl_rseq_agrees(rs, 38, 5), 0);   /* the cpu wrong */
	ck_assert_uint_eq(tl_rseq_agrees(rs, 36, 5), 0);   /* ... cpu_id_start's */
	ck_assert_uint_eq(tl_rseq_agrees(rs, 37, 4), 0);   /* the node wrong */
	ck_assert_uint_eq(tl_rseq_agrees(rs, 37, 9), 0);   /* ... mm_cid's */
	ck_assert_uint_eq(tl_rseq_agrees(rs, 0, 0), 0);    /* both */
	/* cpu 0 of node 0, as on a one-node host: an area that says cpu 1 or
	 * node 1 is refused though the other field agrees */
	memset(&a, 0, sizeof a);
	ck_assert_uint_eq(tl_rseq_agrees(rs, 0, 0), TL_HOST_RSEQ);
	a.cpu_id = 1;
	ck_assert_uint_eq(tl_rseq_agrees(rs, 0, 0), 0);
	a.cpu_id = 0;
	a.node_id = 1;
	ck_assert_uint_eq(tl_rseq_agrees(rs, 0, 0), 0);
	a.node_id = 0;
	a.mm_cid = 1;   /* the concurrency id is no part of it */
	ck_assert_uint_eq(tl_rseq_agrees(rs, 0, 0), TL_HOST_RSEQ);
	/* this thread's own area, pinned, where the host has one */
	if (host_has_rseq()) {
		cpu_set_t all, one;
		unsigned cpu, node;
		const volatile uint32_t *own = (const volatile uint32_t *)
			((char *)__builtin_thread_pointer() + tl_rseq_offset());
		ck_assert_int_eq(sched_getaffinity(0, sizeof all, &all), 0);
		for (int c = 0; c < CPU_SETSIZE; c++) {
			if (!CPU_ISSET(c, &all))
				continue;
			CPU_ZERO(&one);
			CPU_SET(c, &one);
			ck_assert_int_eq(sched_setaffinity(0, sizeof one, &one), 0);
			ck_assert_int_eq(syscall(SYS_getcpu, &cpu, &node, NULL), 0);
			ck_assert_uint_eq(cpu, (unsigned)c);
			ck_assert_uint_eq(tl_rseq_agrees(own, cpu, node), TL_HOST_RSEQ);
			ck_assert_uint_eq(tl_rseq_agrees(own, cpu + 1, node), 0);
			ck_assert_uint_eq(tl_rseq_agrees(own, cpu, node + 1), 0);
		}
		ck_assert_int_eq(sched_setaffinity(0, sizeof all, &all), 0);
	}
}
END_TEST

/* The word's layout on any host, one node or many: the writers read the
 * cpu and the node through the offset in the header, here pointed at a
 * stand-in holding cpu 37 and node 5, so a field in the wrong place shows
 * even where every CPU is on node 0. */
START_TEST(test_rseq_word_layout_from_a_stand_in_area)
{
	static const append_fn fns[] = { tl_append, tl_append_c };
	for (int k = 0; k < 4; k++) {
		char name[32];
		tl_log *log;
		snprintf(name, sizeof name, "%d.timeline", k);
		log = open_clock(path_in(test_dir, name), TL_CLOCK_MANUAL, 8);
		struct tl_header *h = (struct tl_header *)log;
		tl_reader *r;
		tl_entry e;
		tl_error err;
		fake_rseq.cpu_id = 37;
		fake_rseq.node_id = 5;
		fake_rseq.mm_cid = 9;   /* beside node_id: no part of the word */
		h->rseq_offset = (int64_t)((char *)&fake_rseq - (char *)__builtin_thread_pointer());
		h->clock = k < 2 ? TL_CLOCK_RDTSC_RSEQ : TL_CLOCK_RDTSC_RSEQ_UNORDERED;
		fns[k % 2](log, 1, 0, 0, 0, 0, 0, 0);
		r = tl_reader_open(tl_path(log), &err);
		ck_assert_msg(r != NULL, "%s", err.msg);
		ck_assert(tl_reader_next(r, &e));
		ck_assert_msg(e.aux == (5 << 12 | 37), "%s, %s: word %#x, want %#x",
			      k % 2 ? "C" : "asm", tl_clock_name(h->clock), (unsigned)e.aux, 5u << 12 | 37);
		ck_assert_uint_gt(e.tsc, 0);
		tl_reader_close(r);
		tl_close(log);
	}
}
END_TEST

Suite *clock_suite(void)
{
	Suite *s = suite_create("clock");
	TCase *t = tcase_create("clock");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_add_test(t, test_rseq_word_is_getcpu_on_every_cpu);
	tcase_add_test(t, test_rseq_word_layout_from_a_stand_in_area);
	tcase_add_test(t, test_other_sources_word_is_getcpu_on_every_cpu);
	tcase_add_test(t, test_rseq_word_in_concurrent_threads);
	tcase_add_test(t, test_auto_picks_rseq_where_the_host_has_it);
	tcase_add_test(t, test_auto_fallback_order);
	tcase_add_test(t, test_rseq_check_takes_an_area_only_when_its_cpu_and_node_agree);
	tcase_add_test(t, test_pick_of_a_named_source_needs_each_of_its_features);
	tcase_add_test(t, test_open_refuses_each_source_the_host_lacks_with_its_message);
	tcase_add_test(t, test_auto_falls_back_when_glibc_registers_no_rseq);
	tcase_add_test(t, test_clock_names_parse_back);
	tcase_add_test(t, test_clock_env_chooses_the_source_of_auto_logs);
	suite_add_tcase(s, t);
	return s;
}
