/* clock.h: timestamp sources, CPU feature detection and TSC calibration.
 * Internal to lib/. */
#ifndef TL_CLOCK_H
#define TL_CLOCK_H
#include <stdint.h>
#include "timeline.h"
#include "format.h"

/* The rseq clock needs glibc's <sys/rseq.h> (2.35) and x86-64 (RDTSC, %fs). */
#if defined(__x86_64__) && defined(__GLIBC__) && defined(__has_include)
#if __has_include(<sys/rseq.h>)
#define TL_HAVE_RSEQ 1
#endif
#endif
#ifndef TL_HAVE_RSEQ
#define TL_HAVE_RSEQ 0
#endif

#if defined(__x86_64__)
static inline uint64_t tl_rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

/* RDTSC once the instructions before it are done (LFENCE is dispatch
 * serializing on AMD Zen 2 and later and on Intel): the clock of the rseq
 * source (TL_CLOCK_RDTSC_RSEQ_UNORDERED reads plain tl_rdtsc()). */
static inline uint64_t tl_rdtsc_ordered(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t tl_rdtscp(uint16_t *aux)
{
	uint32_t lo, hi, c;
	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(c));
	*aux = (uint16_t)c;
	return ((uint64_t)hi << 32) | lo;
}

/* The cpu/node word from the limit of Linux's per-CPU GDT segment (selector
 * 0x7b, the vDSO's getcpu() without RDPID). Returns 0 if LSL fails. */
static inline int tl_lsl(uint16_t *aux)
{
	uint32_t p = 0;
	uint8_t ok;
	__asm__ volatile("lsl %[seg], %[p]\n\tsetz %[ok]"
			 : [p] "+r"(p), [ok] "=q"(ok) : [seg] "r"(0x7bu) : "cc");
	*aux = (uint16_t)p;
	return ok;
}

static inline uint64_t tl_rdpid(void)
{
	uint64_t p;
	__asm__ volatile("rdpid %0" : "=r"(p));
	return p;
}

/* The cpu/node word from the calling thread's rseq area, at the thread
 * pointer + OFFSET (the header's rseq_offset): cpu_id | node_id << 12. */
static inline uint16_t tl_rseq_word(int64_t offset)
{
	const uint32_t *rs = (const uint32_t *)((char *)__builtin_thread_pointer() + offset);
	uint32_t cpu = __atomic_load_n(&rs[TL_RSEQ_CPU_ID / 4], __ATOMIC_RELAXED);
	uint32_t node = __atomic_load_n(&rs[TL_RSEQ_NODE_ID / 4], __ATOMIC_RELAXED);
	return (uint16_t)(cpu | node << 12);
}
#endif

/* Time and cpu/node word from the slow sources; returned in rax:rdx. */
struct tl_clock_read {
	uint64_t tsc;   /* timestamp in the log's ticks */
	uint64_t aux;   /* cpu/node word, node << 12 | cpu */
};

/* Reads CLOCK_MONOTONIC (ns) and getcpu(); used by TL_CLOCK_MONOTONIC and
 * called from asm/append.S. */
struct tl_clock_read tl_slow_clock(const tl_log *log);

/* Does CLOCK count TSC ticks? */
static inline int tl_clock_is_tsc(int clock)
{
	return (clock >= TL_CLOCK_RDTSC_RDPID && clock <= TL_CLOCK_RDTSC) ||
	       clock == TL_CLOCK_RDTSC_LSL || clock == TL_CLOCK_RDTSC_RSEQ ||
	       clock == TL_CLOCK_RDTSC_RSEQ_UNORDERED;
}

/* TL_CPU_* bits of this CPU (what the header's cpu_features records). */
uint32_t tl_cpu_features(void);

/* Not a CPU feature, so never in cpu_features: the calling thread's rseq
 * area gives the cpu/node word and agrees with getcpu(2). */
#define TL_HOST_RSEQ (1u << 31)

/* Does the rseq area at RS (the fields at TL_RSEQ_CPU_ID and
 * TL_RSEQ_NODE_ID) say cpu C0 and node N0, getcpu(2)'s answer for the
 * calling thread? TL_HOST_RSEQ if both agree, else 0. The check AUTO makes
 * at tl_open() of the thread's own area, called with it between two
 * getcpu(2); a test calls it with a stand-in. */
uint32_t tl_rseq_agrees(const volatile uint32_t *rs, unsigned c0, unsigned n0)
	__attribute__((visibility("hidden")));

/* tl_cpu_features() and TL_HOST_RSEQ, checked now: what TL_CLOCK_AUTO picks from. */
uint32_t tl_host_features(void);

/* glibc's __rseq_offset if glibc registered the threads' rseq areas, else 0. */
int64_t tl_rseq_offset(void);

/* Resolves TL_CLOCK_AUTO for FEATURES; returns -1 if CLOCK needs what the CPU lacks. */
int tl_clock_pick(int clock, uint32_t features);

/* Reads CLOCK's timestamp now. */
uint64_t tl_clock_now(int clock);

/* Ticks per second of CLOCK: measured once per process for the TSC
 * (against CLOCK_MONOTONIC_RAW over about 10 ms), 1e9 for MONOTONIC. */
uint64_t tl_clock_hz(int clock);

uint64_t tl_ns(int clockid);
#endif
