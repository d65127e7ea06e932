/* check_append.c: the asm logger against its C twin, byte for byte, the
 * rate check of tl_event, every clock source, and the disabled log. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "util.h"
#include "../lib/format.h"

typedef void (*append_fn)(tl_log *, unsigned, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
			  uint64_t);

static char *dir;
static void setup(void) { dir = tmpdir_new(); }
static void teardown(void) { rm_rf(dir); free(dir); }

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Drives LOG with APPEND and EVENT over the same pseudo-random inputs. */
static void drive(tl_log *log, append_fn append, append_fn event, uint64_t seed)
{
	rng = seed;
	for (int i = 0; i < 100; i++) {   /* 100 > 32 entries: wraps three times */
		uint64_t a = next(), b = next();
		tl_set_manual_clock(log, next(), (uint16_t)next());
		if (i % 2)
			append(log, (unsigned)(a & 0xffff) | 0xabc0000u, a, b, ~a, a ^ b, a + b, a * b);
		else
			event(log, tl_event_code((unsigned)b & 0xffff, (unsigned)(a % 11)), b, a, a, b,
			      0, ~0ull);
		if (i % 10 == 0)
			tl_set_rate(log, 1 + (unsigned)(b % 10));
	}
}

START_TEST(test_asm_and_c_write_byte_identical_logs)
{
	const char *pa = path_in(dir, "asm.timeline"), *pc = path_in(dir, "c.timeline");
	tl_log *a = open_manual(pa, 32), *c = open_manual(pc, 32);
	const struct tl_header *ha = (void *)a, *hc = (void *)c;
	drive(a, tl_append, tl_event, 42);
	drive(c, tl_append_c, tl_event_c, 42);
	ck_assert_uint_gt(ha->cursor, 50);
	ck_assert_uint_lt(ha->cursor, 100);   /* some events were below the rate */
	ck_assert_uint_eq(ha->cursor, hc->cursor);
	ck_assert_int_eq(memcmp(tl_ring((void *)a), tl_ring((void *)c), 32 * 64), 0);
	tl_close(a);
	tl_close(c);
}
END_TEST

/* Logs one event of each rate 0..9 through FN at current rate RATE and
 * returns the bit set of the rates that were logged. */
static unsigned logged_rates(append_fn fn, unsigned rate)
{
	tl_log *log = open_manual(path_in(dir, "rate.timeline"), 16);
	const struct tl_header *h = (void *)log;
	unsigned set = 0;
	tl_set_rate(log, rate);
	for (unsigned r = 0; r <= 9; r++) {
		uint64_t before = h->cursor;
		fn(log, tl_event_code(7, r), r, 0, 0, 0, 0, 0);
		if (h->cursor != before)
			set |= 1u << r;
	}
	tl_close(log);
	return set;
}

START_TEST(test_event_logs_rates_at_or_above_the_current_rate)
{
	append_fn fns[2] = { tl_event, tl_event_c };
	for (int f = 0; f < 2; f++) {
		ck_assert_uint_eq(logged_rates(fns[f], 1), 0x3fe);   /* 1..9, never 0 */
		ck_assert_uint_eq(logged_rates(fns[f], 5), 0x3e0);   /* 5..9 */
		ck_assert_uint_eq(logged_rates(fns[f], 9), 0x200);   /* 9 only */
		ck_assert_uint_eq(logged_rates(fns[f], TL_RATE_OFF), 0);
	}
}
END_TEST

/* Logs two events with CLOCK through FN and checks time and cpu word. */
static void check_clock(int clock, append_fn fn)
{
	tl_options o = { .entries = 4, .clock = clock };
	tl_error err;
	const char *p = path_in(dir, "clock.timeline");
	struct timespec t0, t1;
	double took;
	tl_log *log;
	size_t n;
	tl_entry *v;
	tl_info in;
	tl_reader *r;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	log = tl_open(p, &o, &err);
	ck_assert_msg(log != NULL, "%s", err.msg);
	fn(log, 1, 0, 0, 0, 0, 0, 0);
	fn(log, 2, 0, 0, 0, 0, 0, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tl_close(log);
	v = read_all(p, &n, NULL);
	r = tl_reader_open(p, &err);
	tl_reader_info(r, &in);
	tl_reader_close(r);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(in.clock, clock);
	ck_assert_uint_le(in.anchor_tsc, v[0].tsc);
	ck_assert_uint_le(v[0].tsc, v[1].tsc);
	ck_assert_uint_gt(in.tsc_hz, 100000000);   /* a real clock: over 100 MHz */
	/* within a second more than the open and the two calls took on
	 * CLOCK_MONOTONIC (the test may get no CPU for a while between them;
	 * the second covers the two clocks' disagreement) */
	took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	ck_assert_msg((double)(v[1].tsc - in.anchor_tsc) < (double)in.tsc_hz * (1 + took),
		      "%llu ticks of %llu Hz after the anchor, in %g s",
		      (unsigned long long)(v[1].tsc - in.anchor_tsc), (unsigned long long)in.tsc_hz, took);
	if (clock == TL_CLOCK_RDTSC)
		ck_assert_uint_eq(v[0].aux, 0xffff);
	else
		ck_assert_uint_lt(v[0].cpu, (uint64_t)sysconf(_SC_NPROCESSORS_CONF));
	free(v);
}

START_TEST(test_every_clock_source_stamps_time_and_cpu)
{
	int clocks[] = { TL_CLOCK_RDTSC_RDPID, TL_CLOCK_RDTSCP, TL_CLOCK_RDTSC_LSL, TL_CLOCK_RDTSC,
			 TL_CLOCK_MONOTONIC };
	uint32_t need[] = { TL_CPU_RDPID, TL_CPU_RDTSCP, TL_CPU_TSC | TL_CPU_LSL, TL_CPU_TSC, 0 };
	tl_options probe = { .entries = 2, .no_prefault = 1 };
	tl_error err;
	tl_log *log = tl_open(path_in(dir, "probe.timeline"), &probe, &err);
	tl_reader *r;
	tl_info in;
	tl_close(log);
	r = tl_reader_open(path_in(dir, "probe.timeline"), &err);
	tl_reader_info(r, &in);
	tl_reader_close(r);
	for (int i = 0; i < 5; i++) {
		tl_options o = { .entries = 2, .clock = clocks[i], .no_prefault = 1 };
		if ((in.cpu_features & need[i]) != need[i]) {
			/* not on this CPU: asking for it fails, AUTO never picks it */
			ck_assert_ptr_null(tl_open(path_in(dir, "no.timeline"), &o, &err));
			ck_assert_int_eq(err.code, TL_E_INVAL);
			ck_assert_int_ne(in.clock, clocks[i]);
			continue;
		}
		check_clock(clocks[i], tl_append);
		check_clock(clocks[i], tl_append_c);
	}
	if (in.clock == TL_CLOCK_RDTSC_RSEQ) {   /* not a CPU feature: where AUTO took it */
		check_clock(TL_CLOCK_RDTSC_RSEQ, tl_append);
		check_clock(TL_CLOCK_RDTSC_RSEQ, tl_append_c);
	}
#if defined(__x86_64__) && defined(__linux__)
	/* every x86-64 Linux has the TSC and the per-CPU segment; of the CPU's
	 * sources AUTO takes the best: RDTSCP, RDPID (rare without RDTSCP),
	 * then LSL (KVM guests that hide both, as this project's CI machines do) */
	ck_assert_uint_eq(in.cpu_features & (TL_CPU_TSC | TL_CPU_LSL), TL_CPU_TSC | TL_CPU_LSL);
	/* ahead of those, the rseq area where glibc and Linux give it (the
	 * clock suite checks when) */
	if (in.clock != TL_CLOCK_RDTSC_RSEQ)
		ck_assert_int_eq(in.clock, in.cpu_features & TL_CPU_RDTSCP   ? TL_CLOCK_RDTSCP
					   : in.cpu_features & TL_CPU_RDPID ? TL_CLOCK_RDTSC_RDPID
									    : TL_CLOCK_RDTSC_LSL);
#endif
}
END_TEST

/* The rseq path keeps the cursor in a 64-bit register across the busy
 * marker (a 32-bit complement there would cut entry numbers at 2^32): six
 * entries from 2^32 - 3 through FN with CLOCK, each whole, in order, with
 * its arguments, and the cursor after them. 0 where tl_open() refuses CLOCK. */
static int rseq_across_2_32(int clock, append_fn fn, unsigned code)
{
	tl_options o = { .entries = 8, .clock = clock, .no_prefault = 1 };
	const char *p = path_in(dir, "big.timeline");
	const uint64_t start = (1ull << 32) - 3;
	tl_error err;
	tl_log *log = tl_open(p, &o, &err);
	size_t n;
	tl_entry *v;
	if (!log) {   /* glibc < 2.35, rseq off, or Linux < 6.3 */
		assert_rseq_refused(&err, clock);
		return 0;
	}
	((struct tl_header *)log)->cursor = start;
	tl_set_rate(log, 1);
	for (uint64_t i = start; i < start + 6; i++)
		fn(log, code, i, ~i, i << 1, i >> 1, i * 3, i ^ 0x5555);
	ck_assert_uint_eq(((struct tl_header *)log)->cursor, start + 6);
	tl_close(log);
	v = read_all(p, &n, NULL);
	ck_assert_uint_eq(n, 6);
	for (size_t k = 0; k < n; k++) {
		uint64_t i = start + k;
		uint64_t want[6] = { i, ~i, i << 1, i >> 1, i * 3, i ^ 0x5555 };
		ck_assert_uint_eq(v[k].seq, i);
		ck_assert_uint_eq(v[k].msgid, 9);
		ck_assert_int_eq(memcmp(v[k].args, want, sizeof want), 0);
		ck_assert_uint_lt(v[k].cpu, (uint64_t)sysconf(_SC_NPROCESSORS_CONF));
		if (k)
			ck_assert_uint_le(v[k - 1].tsc, v[k].tsc);
	}
	free(v);
	return 1;
}

START_TEST(test_rseq_path_numbers_entries_past_2_to_the_32)
{
	int clocks[2] = { TL_CLOCK_RDTSC_RSEQ, TL_CLOCK_RDTSC_RSEQ_UNORDERED };
	for (int c = 0; c < 2; c++) {
		if (!rseq_across_2_32(clocks[c], tl_append, 9))
			continue;   /* refused, as checked: no rseq path to take */
		ck_assert(rseq_across_2_32(clocks[c], tl_append_c, 9));
		ck_assert(rseq_across_2_32(clocks[c], tl_event, tl_event_code(9, 5)));
		ck_assert(rseq_across_2_32(clocks[c], tl_event_c, tl_event_code(9, 5)));
	}
}
END_TEST

START_TEST(test_auto_clock_cpu_word_matches_the_running_cpu)
{
	tl_options o = { .entries = 16, .clock = TL_CLOCK_AUTO };
	tl_error err;
	const char *p = path_in(dir, "cpu.timeline");
	tl_log *log = tl_open(p, &o, &err);
	cpu_set_t set;
	size_t n;
	tl_entry *v;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	ck_assert_ptr_nonnull(log);
	for (long c = 0; c < ncpu && c < 8; c++) {
		CPU_ZERO(&set);
		CPU_SET(c, &set);
		ck_assert_int_eq(sched_setaffinity(0, sizeof set, &set), 0);
		tl_append(log, 0, (uint64_t)c, 0, 0, 0, 0, 0);
	}
	CPU_ZERO(&set);
	for (long c = 0; c < ncpu; c++)
		CPU_SET(c, &set);
	sched_setaffinity(0, sizeof set, &set);
	tl_close(log);
	v = read_all(p, &n, NULL);
	ck_assert_uint_eq(n, (size_t)(ncpu < 8 ? ncpu : 8));
	for (size_t i = 0; i < n; i++)
		ck_assert_uint_eq(v[i].cpu, v[i].args[0]);
	free(v);
}
END_TEST

START_TEST(test_disabled_log_logs_nothing_and_never_fails)
{
	tl_log *log = tl_disabled();
	static const char *const defs[] = { "1,9|x.y: a" };
	uint16_t ids[1] = { 77 };
	tl_error err;
	ck_assert_uint_eq(tl_rate(log), TL_RATE_OFF);
	tl_breath(log);
	ck_assert_uint_eq(tl_rate(log), TL_RATE_OFF);
	ck_assert_int_eq(tl_set_rate(log, 9), TL_E_INVAL);
	ck_assert_uint_eq(tl_rate(log), TL_RATE_OFF);
	ck_assert_int_eq(tl_register(log, defs, 1, NULL, ids, &err), TL_OK);
	ck_assert_uint_eq(ids[0], 0);
	tl_event(log, tl_event_code(0, 9), 1, 2, 3, 4, 5, 6);
	tl_append(log, 0, 1, 2, 3, 4, 5, 6);   /* lands in the stub's scratch slot */
	tl_close(log);
	ck_assert_ptr_eq(tl_disabled(), log);
}
END_TEST

Suite *append_suite(void)
{
	Suite *s = suite_create("append");
	TCase *t = tcase_create("append");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_asm_and_c_write_byte_identical_logs);
	tcase_add_test(t, test_event_logs_rates_at_or_above_the_current_rate);
	tcase_add_test(t, test_every_clock_source_stamps_time_and_cpu);
	tcase_add_test(t, test_auto_clock_cpu_word_matches_the_running_cpu);
	tcase_add_test(t, test_rseq_path_numbers_entries_past_2_to_the_32);
	tcase_add_test(t, test_disabled_log_logs_nothing_and_never_fails);
	suite_add_tcase(s, t);
	return s;
}
