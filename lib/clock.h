/* clock.h: timestamp sources, CPU feature detection and TSC calibration.
 * Internal to lib/. */
#ifndef TL_CLOCK_H
#define TL_CLOCK_H
#include <stdint.h>
#include "timeline.h"

#if defined(__x86_64__)
static inline uint64_t tl_rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
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
#endif

/* Time and cpu/node word from the slow sources; returned in rax:rdx. */
struct tl_clock_read {
	uint64_t tsc;   /* timestamp in the log's ticks */
	uint64_t aux;   /* cpu/node word, node << 12 | cpu */
};

/* Reads CLOCK_MONOTONIC (ns) and getcpu(); used by TL_CLOCK_MONOTONIC and
 * called from asm/append.S. */
struct tl_clock_read tl_slow_clock(const tl_log *log) __attribute__((visibility("hidden")));

/* Does CLOCK count TSC ticks? */
static inline int tl_clock_is_tsc(int clock)
{
	return (clock >= TL_CLOCK_RDTSC_RDPID && clock <= TL_CLOCK_RDTSC) ||
	       clock == TL_CLOCK_RDTSC_LSL;
}

/* TL_CPU_* bits of this CPU. */
uint32_t tl_cpu_features(void) __attribute__((visibility("hidden")));

/* Resolves TL_CLOCK_AUTO for FEATURES; returns -1 if CLOCK needs what the CPU lacks. */
int tl_clock_pick(int clock, uint32_t features) __attribute__((visibility("hidden")));

/* Reads CLOCK's timestamp now. */
uint64_t tl_clock_now(int clock) __attribute__((visibility("hidden")));

/* Ticks per second of CLOCK: measured once per process for the TSC
 * (against CLOCK_MONOTONIC_RAW over about 10 ms), 1e9 for MONOTONIC. */
uint64_t tl_clock_hz(int clock) __attribute__((visibility("hidden")));

uint64_t tl_ns(int clockid) __attribute__((visibility("hidden")));
#endif
