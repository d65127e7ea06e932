/* firstlap.c: the first lap of a fresh ring against the laps after it, in
 * TSC ticks per event, and what each way of readying the ring costs
 * tl_open (issue 37): on these KVM guests the first touch of each page of a
 * new mapping costs about 5 us, populated or not, so a short run is all
 * first lap. Each repetition opens a fresh 64 MiB log on /dev/shm and
 * writes two laps; the ways, interleaved: the library's (page tables
 * populated, then a store a page), populated only (the library before),
 * nothing, the whole ring written at open, and populated with a thread
 * storing a byte a page while the writer starts at once. Medians of REPS
 * (`firstlap [REPS]`, default 5). Appends to $BENCH_CSV, else
 * bench/results/latest.csv. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "timeline.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#define MAX_REPS 21
#define RING (1u << 20)
#define RING_BYTES ((size_t)RING * 64)

static int reps = 5;
static double hz;                     /* TSC ticks per second, from the first log */

static inline uint64_t ticks(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

/* The ring of LOG: 4096 bytes on, RING_BYTES long. */
static char *ring_of(tl_log *log)
{
	return (char *)log + 4096;
}

static void *toucher(void *ring)
{
	for (size_t o = 0; o < RING_BYTES; o += 4096)
		__atomic_store_n((volatile char *)ring + o, 0, __ATOMIC_RELAXED);
	return NULL;
}

enum way { W_LIB, W_POPULATE, W_NONE, W_WRITE, W_THREAD, NWAYS };
static const char *const way_name[NWAYS] = { "touch", "populate", "none", "write", "thread" };
static const char *const way_what[NWAYS] = {
	"the library: populated, a store a page",
	"populated only (MADV_POPULATE_WRITE)",
	"nothing: a fault a page in the lap",
	"populated, the whole ring written",
	"populated, a thread storing a page",
};

struct result {
	double open_ms[MAX_REPS], lap0[MAX_REPS], lap1[MAX_REPS];
	double med_open, med0, med1;
};
static struct result res[NWAYS];

/* One repetition of WAY: open, ready, two laps. */
static void one(enum way way, int r)
{
	tl_options o = { .entries = RING, .no_prefault = way != W_LIB };
	char p[64];
	tl_error err;
	tl_log *log;
	uint16_t id;
	pthread_t th;
	uint64_t t0 = ticks(), t1;
	snprintf(p, sizeof p, "/dev/shm/tlfirstlap-%d.timeline", (int)getpid());
	if (!(log = tl_open(p, &o, &err))) {
		fprintf(stderr, "firstlap: %s\n", err.msg);
		exit(1);
	}
	if (way == W_POPULATE || way == W_WRITE || way == W_THREAD)
		madvise(ring_of(log), RING_BYTES, MADV_POPULATE_WRITE);
	if (way == W_WRITE)
		memset(ring_of(log), 0, RING_BYTES);
	if (way == W_THREAD)
		pthread_create(&th, NULL, toucher, ring_of(log));
	t1 = ticks();
	tl_intern(log, "9,9|bench.six: a b c d e f", &id, NULL);
	for (int lap = 0; lap < 2; lap++) {
		uint64_t s = ticks();
		for (uint64_t i = 0; i < RING; i++)
			tl_append(log, id, i, i, i, i, i, i);
		(lap ? res[way].lap1 : res[way].lap0)[r] = (double)(ticks() - s) / RING;
	}
	if (way == W_THREAD)
		pthread_join(th, NULL);
	if (!hz) {
		tl_reader *rd = tl_reader_open(p, &err);
		tl_info in;
		if (rd) {
			tl_reader_info(rd, &in);
			hz = (double)in.tsc_hz;
			tl_reader_close(rd);
		}
	}
	res[way].open_ms[r] = (double)(t1 - t0);   /* ticks until hz is known */
	tl_close(log);
	unlink(p);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v)
{
	qsort(v, (size_t)reps, sizeof *v, cmp_double);
	return v[reps / 2];
}

int main(int argc, char **argv)
{
	const char *path = getenv("BENCH_CSV");
	FILE *csv;
	if (argc > 1 && ((reps = atoi(argv[1])) < 1 || reps > MAX_REPS))
		return fprintf(stderr, "firstlap: REPS takes 1 to %d\n", MAX_REPS), 2;
	if (!path || !*path)
		path = "bench/results/latest.csv";
	for (int r = 0; r < reps; r++)
		for (int w = 0; w < NWAYS; w++)
			one((enum way)w, r);
	printf("timeline first-lap benchmark: a fresh ring of 2^20 entries (64 MiB) on /dev/shm,\n"
	       "TSC ticks per event of its first and second laps, and tl_open with the way's\n"
	       "readying in ms; medians of %d repetitions\n\n", reps);
	printf("%-9s %9s %9s %9s %9s  %s\n", "way", "open ms", "lap 0", "lap 1", "0 / 1", "what");
	if (!getenv("BENCH_CSV"))
		mkdir("bench/results", 0755);
	csv = fopen(path, "a");
	for (int w = 0; w < NWAYS; w++) {
		struct result *x = &res[w];
		for (int r = 0; r < reps; r++)
			x->open_ms[r] = hz ? x->open_ms[r] / hz * 1e3 : 0;
		x->med_open = median(x->open_ms);
		x->med0 = median(x->lap0);
		x->med1 = median(x->lap1);
		printf("%-9s %9.1f %9.1f %9.1f %9.2f  %s\n", way_name[w], x->med_open, x->med0, x->med1,
		       x->med0 / x->med1, way_what[w]);
		if (csv)
			fprintf(csv, "firstlap_%s_open,%.1f,ms,,\nfirstlap_%s_lap0,%.2f,ticks,%.3f,lap1\n"
				     "firstlap_%s_lap1,%.2f,ticks,,\n",
				way_name[w], x->med_open, way_name[w], x->med0, x->med0 / x->med1,
				way_name[w], x->med1);
	}
	if (csv && fclose(csv) == 0)
		printf("\nappended: %s\n", path);
	return 0;
}
