/* clock.c: which timestamp source a log uses, how fast it ticks, and the
 * slow source for CPUs without a usable TSC. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "clock.h"
#include "format.h"
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#if TL_HAVE_RSEQ
#include <stddef.h>
#include <sys/auxv.h>
#include <sys/rseq.h>
/* Weak, so that the library still loads under a glibc older than 2.35,
 * where the symbols are missing (their addresses are then 0). */
#pragma weak __rseq_offset
#pragma weak __rseq_size
#ifndef AT_RSEQ_FEATURE_SIZE
#define AT_RSEQ_FEATURE_SIZE 27    /* Linux 6.3, <linux/auxvec.h> */
#endif
_Static_assert(offsetof(struct rseq, cpu_id) == TL_RSEQ_CPU_ID, "rseq cpu_id");
_Static_assert(offsetof(struct rseq, flags) + 4 == TL_RSEQ_NODE_ID, "rseq node_id follows flags");
_Static_assert(TL_RSEQ_NODE_ID + 4 == TL_RSEQ_FEATURE_NODE, "rseq feature size with node_id");
#endif

/* asm/append.S picks the clock by format.h's TL_CLK_* numbers: each must be
 * its enum tl_clock value. */
_Static_assert(TL_CLK_AUTO == TL_CLOCK_AUTO, "TL_CLK_AUTO");
_Static_assert(TL_CLK_RDTSC_RDPID == TL_CLOCK_RDTSC_RDPID, "TL_CLK_RDTSC_RDPID");
_Static_assert(TL_CLK_RDTSCP == TL_CLOCK_RDTSCP, "TL_CLK_RDTSCP");
_Static_assert(TL_CLK_RDTSC == TL_CLOCK_RDTSC, "TL_CLK_RDTSC");
_Static_assert(TL_CLK_MONOTONIC == TL_CLOCK_MONOTONIC, "TL_CLK_MONOTONIC");
_Static_assert(TL_CLK_MANUAL == TL_CLOCK_MANUAL, "TL_CLK_MANUAL");
_Static_assert(TL_CLK_RDTSC_LSL == TL_CLOCK_RDTSC_LSL, "TL_CLK_RDTSC_LSL");
_Static_assert(TL_CLK_RDTSC_RSEQ == TL_CLOCK_RDTSC_RSEQ, "TL_CLK_RDTSC_RSEQ");
_Static_assert(TL_CLK_RDTSC_RSEQ_UNORDERED == TL_CLOCK_RDTSC_RSEQ_UNORDERED,
	       "TL_CLK_RDTSC_RSEQ_UNORDERED");

/* The switch has a case for every enum tl_clock and no default, so that
 * -Wswitch (-Wall, an error with -Werror) names a source added without a name. */
const char *tl_clock_name(int clock)
{
	switch ((enum tl_clock)clock) {
	case TL_CLOCK_AUTO: return "auto";
	case TL_CLOCK_RDTSC_RDPID: return "rdtsc+rdpid";
	case TL_CLOCK_RDTSCP: return "rdtscp";
	case TL_CLOCK_RDTSC: return "rdtsc";
	case TL_CLOCK_MONOTONIC: return "monotonic";
	case TL_CLOCK_MANUAL: return "manual";
	case TL_CLOCK_RDTSC_LSL: return "rdtsc+lsl";
	case TL_CLOCK_RDTSC_RSEQ: return "rdtsc+rseq";
	case TL_CLOCK_RDTSC_RSEQ_UNORDERED: return "rdtsc+rseq-unordered";
	}
	return NULL;
}

int tl_clock_parse(const char *name)
{
	for (int c = TL_CLOCK_AUTO; name && tl_clock_name(c); c++)
		if (!strcmp(tl_clock_name(c), name))
			return c;
	return -1;
}

uint64_t tl_ns(int clockid)
{
	struct timespec ts;
	clock_gettime(clockid, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct tl_clock_read tl_slow_clock(const tl_log *log)
{
	unsigned cpu = 0, node = 0;
	struct tl_clock_read r;
	(void)log;
	r.tsc = tl_ns(CLOCK_MONOTONIC);
	if (getcpu(&cpu, &node) != 0)
		r.aux = 0xffff;
	else
		r.aux = ((node & 0xfu) << 12) | (cpu & 0xfffu);
	return r;
}

#if defined(__x86_64__)
/* Does LSL of the per-CPU segment work? Probed once, under a temporary
 * SIGILL handler: emulators such as valgrind do not know the instruction,
 * and a library must not kill its host for asking (OpenSSL probes CPU
 * features the same way). */
static sigjmp_buf lsl_jump;
static int lsl_works;

static void lsl_sigill(int sig)
{
	(void)sig;
	siglongjmp(lsl_jump, 1);
}

static void lsl_probe(void)
{
	struct sigaction sa, old;
	uint16_t aux;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = lsl_sigill;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGILL, &sa, &old) != 0)
		return;
	if (sigsetjmp(lsl_jump, 1) == 0)
		lsl_works = tl_lsl(&aux);
	sigaction(SIGILL, &old, NULL);
}
#endif

/* Did glibc register the threads' rseq areas? (__rseq_size is 0 if not.) */
static int rseq_registered(void)
{
#if TL_HAVE_RSEQ
	return &__rseq_offset && &__rseq_size && __rseq_size > 0;
#else
	return 0;
#endif
}

int64_t tl_rseq_offset(void)
{
#if TL_HAVE_RSEQ
	if (rseq_registered())
		return (int64_t)__rseq_offset;
#endif
	return 0;
}

uint32_t tl_rseq_agrees(const volatile uint32_t *rs, unsigned c0, unsigned n0)
{
	uint32_t cpu, node;
	cpu = rs[TL_RSEQ_CPU_ID / 4];
	node = rs[TL_RSEQ_NODE_ID / 4];
	return cpu == c0 && node == n0 ? TL_HOST_RSEQ : 0;
}

/* Can the cpu/node word come from the calling thread's rseq area? Only if
 * glibc registered it (__rseq_size > 0: not with glibc < 2.35, nor with
 * GLIBC_TUNABLES=glibc.pthread.rseq=0, nor under valgrind, which refuses
 * the system call), the kernel fills node_id (Linux >= 6.3), and what the
 * area says agrees with the kernel's own getcpu(2), asked before and after
 * (asked again if the thread moved in between). glibc's getcpu() and
 * sched_getcpu() may answer from the area itself, so the system call. */
static uint32_t rseq_usable(void)
{
#if TL_HAVE_RSEQ
	const volatile uint32_t *rs;
	if (!rseq_registered() || getauxval(AT_RSEQ_FEATURE_SIZE) < TL_RSEQ_FEATURE_NODE)
		return 0;
	rs = (const volatile uint32_t *)((char *)__builtin_thread_pointer() + tl_rseq_offset());
	for (int tries = 0; tries < 8; tries++) {
		unsigned c0, n0, c1, n1;
		uint32_t agrees;
		if (syscall(SYS_getcpu, &c0, &n0, NULL) != 0)
			return 0;
		agrees = tl_rseq_agrees(rs, c0, n0);
		if (syscall(SYS_getcpu, &c1, &n1, NULL) != 0)
			return 0;
		if (c0 == c1 && n0 == n1)
			return agrees;
	}
#endif
	return 0;
}

uint32_t tl_host_features(void)
{
	return tl_cpu_features() | rseq_usable();
}

uint32_t tl_cpu_features(void)
{
	uint32_t f = 0;
#if defined(__x86_64__)
	unsigned a, b, c, d;
	if (__get_cpuid(1, &a, &b, &c, &d) && (d & (1u << 4)))
		f |= TL_CPU_TSC;
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (c & (1u << 22)))
		f |= TL_CPU_RDPID;
	if (__get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27)))
		f |= TL_CPU_RDTSCP;
	if (__get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8)))
		f |= TL_CPU_INVARIANT;
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, lsl_probe);
	if (lsl_works)
		f |= TL_CPU_LSL;
#endif
	return f;
}

int tl_clock_pick(int clock, uint32_t f)
{
	int tsc = (f & TL_CPU_TSC) != 0;
	switch (clock) {
	case TL_CLOCK_AUTO:
		if (tsc && (f & TL_HOST_RSEQ))
			return TL_CLOCK_RDTSC_RSEQ;
		if (tsc && (f & TL_CPU_RDTSCP))
			return TL_CLOCK_RDTSCP;
		if (tsc && (f & TL_CPU_RDPID))
			return TL_CLOCK_RDTSC_RDPID;
		if (tsc && (f & TL_CPU_LSL))
			return TL_CLOCK_RDTSC_LSL;
		return tsc ? TL_CLOCK_RDTSC : TL_CLOCK_MONOTONIC;
	case TL_CLOCK_RDTSC_RDPID:
		return tsc && (f & TL_CPU_RDPID) ? clock : -1;
	case TL_CLOCK_RDTSCP:
		return tsc && (f & TL_CPU_RDTSCP) ? clock : -1;
	case TL_CLOCK_RDTSC:
		return tsc ? clock : -1;
	case TL_CLOCK_RDTSC_LSL:
		return tsc && (f & TL_CPU_LSL) ? clock : -1;
	case TL_CLOCK_RDTSC_RSEQ:
	case TL_CLOCK_RDTSC_RSEQ_UNORDERED:
		return tsc && (f & TL_HOST_RSEQ) ? clock : -1;
	case TL_CLOCK_MONOTONIC:
	case TL_CLOCK_MANUAL:
		return clock;
	}
	return -1;
}

uint64_t tl_clock_now(int clock)
{
#if defined(__x86_64__)
	if (tl_clock_is_tsc(clock))
		return tl_rdtsc();
#endif
	if (clock == TL_CLOCK_MANUAL)
		return 0;
	return tl_ns(CLOCK_MONOTONIC);
}

#if defined(__x86_64__)
/* One (tsc, ns) pair read as close together as the machine allows: the
 * tightest of a few brackets of CLOCK_MONOTONIC_RAW around RDTSC. */
static void paired_read(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 8; i++) {
		uint64_t n0 = tl_ns(CLOCK_MONOTONIC_RAW);
		uint64_t t = tl_rdtsc();
		uint64_t n1 = tl_ns(CLOCK_MONOTONIC_RAW);
		if (n1 - n0 < best) {
			best = n1 - n0;
			*tsc = t;
			*ns = n0 + (n1 - n0) / 2;
		}
	}
}

static uint64_t tsc_hz;

static void calibrate(void)
{
	uint64_t t0, n0, t1, n1;
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	paired_read(&t0, &n0);
	nanosleep(&pause, NULL);
	paired_read(&t1, &n1);
	tsc_hz = n1 > n0 ? (uint64_t)((double)(t1 - t0) * 1e9 / (double)(n1 - n0) + 0.5) : 0;
}
#endif

uint64_t tl_clock_hz(int clock)
{
#if defined(__x86_64__)
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	if (tl_clock_is_tsc(clock)) {
		pthread_once(&once, calibrate);
		return tsc_hz;
	}
#endif
	return clock == TL_CLOCK_MANUAL ? 0 : 1000000000u;
}
