/* lttng.c: TSC ticks per call of an LTTng-UST tracepoint with six u64
 * arguments, against a bare RDTSC and tl_append() in the same process and
 * run, and tl_append() with the unordered rseq source where the host has it.
 * Usage: lttng MODE, MODE "disabled" (no session) or "enabled" (run by
 * bench/lttng.sh inside a session that records the event). Prints CSV rows
 * name,value,unit,ratio,baseline; the ratio to AUTO's logger last. */
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lttng_tp.h"
#include "timeline.h"

#define CALLS 200000
#define REPS 21

static inline uint64_t ticks(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

static tl_log *log_on, *log_unord;
static unsigned id, id_unord;

static void c_rdtsc(void)
{
	for (uint64_t i = 0; i < CALLS; i++) {
		uint32_t lo, hi;
		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	}
}

static void c_lttng(void)
{
	for (uint64_t i = 0; i < CALLS; i++)
		lttng_ust_tracepoint(tlbench, six, i, i, i, i, i, i);
}

static void c_timeline(void)
{
	for (uint64_t i = 0; i < CALLS; i++)
		tl_append(log_on, id, i, i, i, i, i, i);
}

static void c_unordered(void)
{
	for (uint64_t i = 0; i < CALLS; i++)
		tl_append(log_unord, id_unord, i, i, i, i, i, i);
}

/* A log of 2^20 entries at PATH (unlinked once open) with the six-argument
 * event, rate 1, clock CLOCK; NULL (ERR set) when CLOCK is not there. */
static tl_log *open_log(char *path, int clock, unsigned *six, tl_error *err)
{
	tl_options o = { .name = "lttng", .clock = clock };
	uint16_t id16;
	tl_log *log;
	int fd = mkstemp(path);
	if (fd < 0) {   /* no /dev/shm: the same name under /tmp */
		memcpy(path, "/tmp/tlbench-lttng.XXXXXX", sizeof "/tmp/tlbench-lttng.XXXXXX");
		fd = mkstemp(path);
	}
	if (fd < 0)
		return NULL;
	close(fd);
	log = tl_open(path, &o, err);
	unlink(path);
	if (log && tl_intern(log, "5,5|bench.six: a b c d e f\nSix.", &id16, err) != TL_OK) {
		tl_close(log);
		return NULL;
	}
	if (log)
		tl_set_rate(log, 1);
	*six = id16;
	return log;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	void (*fn[4])(void) = { c_rdtsc, c_lttng, c_timeline, c_unordered };
	static double t[4][REPS];
	double med[4];
	/* in memory, as under /run, where no writeback faults the ring's pages
	 * (bench/logger.c) */
	char path[] = "/dev/shm/tlbench-lttng.XXXXXX", upath[] = "/dev/shm/tlbench-lttng.XXXXXX";
	tl_error err;
	const char *mode = argc > 1 ? argv[1] : "disabled";
	int n;
	if (!(log_on = open_log(path, TL_CLOCK_AUTO, &id, &err))) {
		fprintf(stderr, "lttng bench: %s\n", err.msg);
		return 1;
	}
	log_unord = open_log(upath, TL_CLOCK_RDTSC_RSEQ_UNORDERED, &id_unord, &err);
	n = log_unord ? 4 : 3;
	for (int r = 0; r < REPS; r++)
		for (int c = 0; c < n; c++) {
			uint64_t t0 = ticks();
			fn[c]();
			t[c][r] = (double)(ticks() - t0) / CALLS;
		}
	for (int c = 0; c < n; c++) {
		qsort(t[c], REPS, sizeof t[c][0], cmp);
		med[c] = t[c][REPS / 2];
	}
	printf("lttng_%s,%.3f,ticks,%.3f,rdtsc\n", mode, med[1], med[1] / med[0]);
	if (!strcmp(mode, "enabled") && log_unord)
		printf("lttng_enabled_vs_enabled_unordered,%.3f,x,%.3f,enabled_unordered\n",
		       med[1] / med[3], med[1] / med[3]);
	if (!strcmp(mode, "enabled"))
		printf("lttng_enabled_vs_enabled,%.3f,x,%.3f,enabled\n", med[1] / med[2], med[1] / med[2]);
	fprintf(stderr, "lttng %s: rdtsc %.2f, lttng %.2f (%.2fx rdtsc), tl_append %.2f ticks\n", mode,
		med[0], med[1], med[1] / med[0], med[2]);
	tl_close(log_on);
	tl_close(log_unord);
	return 0;
}
