/* lttng.c: TSC ticks per call of an LTTng-UST tracepoint with six u64
 * arguments, against a bare RDTSC and tl_append() in the same process and
 * run. Usage: lttng MODE, MODE "disabled" (no session) or "enabled" (run by
 * bench/lttng.sh inside a session that records the event). Prints CSV rows
 * name,value,unit,ratio,baseline. */
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

static tl_log *log_on;
static unsigned id;

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

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	void (*fn[3])(void) = { c_rdtsc, c_lttng, c_timeline };
	static double t[3][REPS];
	double med[3];
	char path[] = "/tmp/tlbench-lttng.XXXXXX";
	tl_options o = { .name = "lttng" };
	tl_error err;
	uint16_t id16;
	const char *mode = argc > 1 ? argv[1] : "disabled";
	int fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	if (!(log_on = tl_open(path, &o, &err)) ||
	    tl_intern(log_on, "5,5|bench.six: a b c d e f\nSix.", &id16, &err) != TL_OK) {
		fprintf(stderr, "lttng bench: %s\n", err.msg);
		return 1;
	}
	unlink(path);
	id = id16;
	tl_set_rate(log_on, 1);
	for (int r = 0; r < REPS; r++)
		for (int c = 0; c < 3; c++) {
			uint64_t t0 = ticks();
			fn[c]();
			t[c][r] = (double)(ticks() - t0) / CALLS;
		}
	for (int c = 0; c < 3; c++) {
		qsort(t[c], REPS, sizeof t[c][0], cmp);
		med[c] = t[c][REPS / 2];
	}
	printf("lttng_%s,%.3f,ticks,%.3f,rdtsc\n", mode, med[1], med[1] / med[0]);
	if (!strcmp(mode, "enabled"))
		printf("lttng_enabled_vs_enabled,%.3f,x,%.3f,enabled\n", med[1] / med[2], med[1] / med[2]);
	fprintf(stderr, "lttng %s: rdtsc %.2f, lttng %.2f (%.2fx rdtsc), tl_append %.2f ticks\n", mode,
		med[0], med[1], med[1] / med[0], med[2]);
	tl_close(log_on);
	return 0;
}
