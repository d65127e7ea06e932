/* dpdk_trace.c: DPDK's own trace library (rte_trace) against timeline in
 * one binary and one run: TSC ticks per call of a fast-path tracepoint of
 * six u64 (bench/dpdk_tp.h), disabled and enabled, against the generated
 * event of six u64 into a log off (disabled) and into one logging it with
 * the default clock and with the unordered rseq clock (rte_trace takes an
 * unfenced RDTSC), and a bare RDTSC. Medians of REPS repetitions of CALLS
 * calls, the cases interleaved. Usage: dpdk_trace EAL-OPTIONS -- [CALLS
 * [REPS]] (default 10^7 x 5), with --trace=tlbench --trace-dir=DIR so
 * that EAL makes rte_trace's buffers. Prints CSV rows
 * name,value,unit,ratio,baseline, the comparison on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include "dpdk_tp.h"
#include "timeline.h"
#include "bench_events.h"

#define MAX_REPS 21

static uint64_t calls = 10000000;
static tl_log *log_off, *log_on, *log_unord;
static struct bench_events ev_off, ev_on, ev_unord;

static inline uint64_t ticks(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

static void c_rdtsc(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++) {
		uint32_t lo, hi;
		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	}
}

static void c_rte(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++)
		tlbench_six(i, i, i, i, i, i);
}

static void c_rte_disabled(void)
{
	rte_trace_point_disable(&__tlbench_six);
	c_rte();
	rte_trace_point_enable(&__tlbench_six);
}

static void c_disabled(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++)
		bench_six(log_off, &ev_off, i, i, i, i, i, i);
}

static void c_enabled(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++)
		bench_six(log_on, &ev_on, i, i, i, i, i, i);
}

static void c_unordered(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++)
		bench_six(log_unord, &ev_unord, i, i, i, i, i, i);
}

static const struct {
	const char *name, *what;
	void (*fn)(void);
} cases[] = {
	{ "rdtsc", "a bare RDTSC", c_rdtsc },
	{ "rte_trace_disabled", "rte_trace, the tracepoint disabled", c_rte_disabled },
	{ "rte_trace_enabled", "rte_trace, enabled", c_rte },
	{ "tl_disabled", "timeline, the log off", c_disabled },
	{ "tl_enabled", "timeline, default clock", c_enabled },
	{ "tl_enabled_unordered", "timeline, unordered clock", c_unordered },
};
#define NCASES (sizeof cases / sizeof cases[0])

/* A log of 2^20 entries in /dev/shm (unlinked once open) with the bench
 * events, rate all, clock CLOCK; NULL when that clock is not there. */
static tl_log *open_log(int clock, struct bench_events *ev)
{
	char path[] = "/dev/shm/tlbench-dpdk.XXXXXX";
	tl_options o = { .name = "dpdk", .clock = clock };
	tl_error err;
	tl_log *log;
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	close(fd);
	log = tl_open(path, &o, &err);
	unlink(path);
	if (!log || bench_events_register(log, ev, NULL, &err) != TL_OK) {
		fprintf(stderr, "dpdk_trace: %s\n", err.msg);
		tl_close(log);
		return NULL;
	}
	tl_set_rate(log, 1);
	return log;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static double t[NCASES][MAX_REPS];
	static char rundir[4096];
	double med[NCASES];
	int n = rte_eal_init(argc, argv), reps = 5;
	tl_error err;
	if (n < 0)
		return fprintf(stderr, "dpdk_trace: EAL: %s\n", rte_strerror(rte_errno)), 2;
	if (argc - n > 1 && (calls = strtoull(argv[n + 1], NULL, 10)) < 10)
		return fprintf(stderr, "dpdk_trace: CALLS takes a number of at least 10\n"), 2;
	if (argc - n > 2 && ((reps = atoi(argv[n + 2])) < 1 || reps > MAX_REPS))
		return fprintf(stderr, "dpdk_trace: REPS takes 1 to %d\n", MAX_REPS), 2;
	if (!rte_trace_point_is_enabled(&__tlbench_six))
		return fprintf(stderr, "dpdk_trace: tlbench.six is not enabled (--trace=tlbench)\n"), 2;
	log_off = tl_disabled();
	bench_events_register(log_off, &ev_off, NULL, &err);
	if (!(log_on = open_log(TL_CLOCK_AUTO, &ev_on)))
		return 1;
	log_unord = open_log(TL_CLOCK_RDTSC_RSEQ_UNORDERED, &ev_unord);
	for (int r = 0; r < reps; r++)
		for (size_t c = 0; c < NCASES; c++) {
			uint64_t t0;
			if (!strcmp(cases[c].name, "tl_enabled_unordered") && !log_unord)
				continue;
			t0 = ticks();
			cases[c].fn();
			t[c][r] = (double)(ticks() - t0) / (double)calls;
		}
	for (size_t c = 0; c < NCASES; c++) {
		qsort(t[c], (size_t)reps, sizeof t[c][0], cmp);
		med[c] = t[c][reps / 2];
		if (log_unord || strcmp(cases[c].name, "tl_enabled_unordered"))
			printf("dpdk_%s,%.3f,ticks,%.3f,rdtsc\n", cases[c].name, med[c], med[c] / med[0]);
		fprintf(stderr, "dpdk_trace: %-22s %7.2f ticks  %s\n", cases[c].name, med[c],
			cases[c].what);
	}
	printf("dpdk_tl_vs_rte_enabled,%.3f,x,,rte_trace_enabled\n", med[4] / med[2]);
	if (log_unord)
		printf("dpdk_tl_unordered_vs_rte_enabled,%.3f,x,,rte_trace_enabled\n", med[5] / med[2]);
	printf("dpdk_tl_minus_rte_disabled,%.3f,ticks,,rte_trace_disabled\n", med[3] - med[1]);
	tl_close(log_on);
	tl_close(log_unord);
	snprintf(rundir, sizeof rundir, "%s", rte_eal_get_runtime_dir());
	rte_eal_cleanup();
	rmdir(rundir);   /* EAL's, empty with --no-shconf */
	return 0;
}
