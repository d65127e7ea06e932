/* threads.c: threads logging flat out into one log, each thread's TSC
 * ticks per event against the ordered floor of the same run, for the ways
 * to share a log measured for issue 37: a lane per thread (the library's),
 * the first thread kept in the header's ring while another thread reads
 * that header line before each entry (the design before lane 0's writer
 * moved out), one ring shared through an atomic add on its cursor
 * (LTTng-UST-like), and per-CPU rings claimed in an rseq critical section
 * (tcmalloc's and librseq's way). Threads are pinned to the process's two
 * lowest CPUs; medians of REPS interleaved repetitions of CALLS calls
 * (`threads [CALLS [REPS]]`). Appends to $BENCH_CSV, else
 * bench/results/latest.csv. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/rseq.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bench_events.h"
#include "breath.h"
#include "format.h"

#define MAX_REPS 21
#define RING_SHIFT 20                 /* 2^20 entries, 64 MiB: the default ring */
#define RING (1ull << RING_SHIFT)

static uint64_t calls = 1000000;
static int reps = 11;
static int cpus[2];                   /* the two lowest CPUs we may run on */
static int ncpus;

static tl_log *log_one, *log_two, *log_kept, *log_other, *log_auto;
static unsigned six_one, six_two, six_kept, six_other, six_auto;
static struct bench_events ev_auto;   /* the generated events of log_auto */

static inline uint64_t ticks(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

/* ---- the ordered floor: LFENCE, RDTSC and the two rseq loads -------------- */

static void floor_loop(int k)
{
	long off = __rseq_offset;
	(void)k;
	for (uint64_t i = 0, n = calls; i < n; i++) {
		uint32_t lo, hi, cpu, node;
		__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi));
		__asm__ volatile("movl %%fs:4(%2), %0\n\tmovl %%fs:20(%2), %1"
				 : "=r"(cpu), "=r"(node) : "r"(off));
	}
}

/* ---- the library: a lane per thread ---------------------------------------- */

static void lib_one(int k)
{
	(void)k;
	for (uint64_t i = 0, n = calls; i < n; i++)
		tl_append(log_one, six_one, i, i, i, i, i, i);
}

/* both threads into one log, each in its lane (attached before) */
static void lib_two(int k)
{
	(void)k;
	for (uint64_t i = 0, n = calls; i < n; i++)
		tl_append(log_two, six_two, i, i, i, i, i, i);
}

/* lane 0 kept by its writer (thread 0, the only writer of log_kept) while
 * thread 1 reads its header line before each entry, as it would to write a
 * lane of that log (the generated code's rate check, the clock byte and
 * switch_pending are in it): thread 1 writes log_other */
static void lib_kept(int k)
{
	if (k == 0) {
		for (uint64_t i = 0, n = calls; i < n; i++)
			tl_append(log_kept, six_kept, i, i, i, i, i, i);
		return;
	}
	for (uint64_t i = 0, n = calls; i < n; i++) {
		if (__builtin_expect(tl_rate(log_kept) > 9, 0))
			abort();
		tl_append(log_other, six_other, i, i, i, i, i, i);
	}
}

/* Snabb-style, as bench/logger's sampled: a breath of 10 events at rates
 * 3..9, then a new rate drawn, into one log whose rate every breath draws
 * (the log's, so each thread's draw sets it for both); per event */
static void sampled(int k)
{
	(void)k;
	for (uint64_t i = 0, n = calls / 10; i < n; i++)
		bench_breath(log_auto, &ev_auto, i);
}

/* ---- one shared ring, its slots claimed with an atomic add ----------------- */

struct shared {
	uint64_t cursor __attribute__((aligned(64)));
	struct tl_raw_entry *ring;
};
static struct shared shared;

static void atomic_loop(int k)
{
	struct tl_raw_entry *ring = shared.ring;
	for (uint64_t i = 0, n = calls; i < n; i++) {
		uint64_t c = __atomic_fetch_add(&shared.cursor, 1, __ATOMIC_RELAXED), tsc;
		struct tl_raw_entry *e = &ring[c & (RING - 1)];
		uint32_t lo, hi;
		__atomic_store_n(&e->seq, tl_seq_busy(c), __ATOMIC_RELAXED);
		for (int a = 0; a < 6; a++)
			__atomic_store_n(&e->args[a], i, __ATOMIC_RELAXED);
		__atomic_store_n(&e->msgid, (uint16_t)k, __ATOMIC_RELAXED);   /* the thread */
		__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi));
		tsc = (uint64_t)hi << 32 | lo;
		__atomic_store_n(&e->tsc, tsc, __ATOMIC_RELAXED);
		__atomic_store_n(&e->seq, tl_seq_done(c), __ATOMIC_RELEASE);
	}
}

/* ---- per-CPU rings, claimed in an rseq critical section -------------------- */

/* A ring per CPU (RING entries) and its cursor on a line of its own. The
 * critical section reads the CPU number, claims the CPU's next slot, writes
 * the entry and, last, stores the cursor: the commit. Preempted, moved or
 * signalled before the commit, the thread restarts it (the kernel moves its
 * instruction pointer to the abort handler), so no atomic is needed; a slot
 * written in part is written again, whole, by the next claim of it. The
 * entry carries the thread (here in msgid), since a CPU's ring holds
 * every thread that ran there. */
static uint64_t *pcpu_cursor;         /* cursor of CPU c at [c * 8] */
static struct tl_raw_entry *pcpu_rings;

static void rseq_loop(int k)
{
	char *abi = (char *)__builtin_thread_pointer() + __rseq_offset;
	for (uint64_t i = 0, n = calls; i < n; i++) {
		__asm__ volatile(
			".pushsection __rseq_cs, \"aw\"\n\t"
			".balign 32\n"
			"33:\n\t"
			".long 0, 0\n\t"
			".quad 31f, (32f - 31f), 34f\n\t"
			".popsection\n"
			"35:\n\t"
			"leaq 33b(%%rip), %%rax\n\t"
			"movq %%rax, 8(%[abi])\n"                   /* rseq->rseq_cs */
			"31:\n\t"
			"lfence\n\t"
			"rdtsc\n\t"
			"shlq $32, %%rdx\n\t"
			"orq %%rax, %%rdx\n\t"                      /* rdx = TSC */
			"movl 4(%[abi]), %%eax\n\t"                 /* rax = cpu_id */
			"movq %%rax, %%r8\n\t"
			"shlq $6, %%r8\n\t"
			"addq %[cur], %%r8\n\t"                     /* r8 = &cursor[cpu] */
			"movq (%%r8), %%r9\n\t"                     /* r9 = n */
			"shlq $%c[rs], %%rax\n\t"
			"addq %[rings], %%rax\n\t"                  /* rax = the cpu's ring */
			"movq %%r9, %%r10\n\t"
			"andq %[mask], %%r10\n\t"
			"shlq $6, %%r10\n\t"
			"addq %%r10, %%rax\n\t"                     /* rax = slot */
			"leaq 1(%%r9), %%r10\n\t"                   /* r10 = n + 1 */
			"movl %%r10d, %%r11d\n\t"
			"notl %%r11d\n\t"
			"movl %%r11d, 12(%%rax)\n\t"                /* busy */
			"movq %[i], 16(%%rax)\n\t"
			"movq %[i], 24(%%rax)\n\t"
			"movq %[i], 32(%%rax)\n\t"
			"movq %[i], 40(%%rax)\n\t"
			"movq %[i], 48(%%rax)\n\t"
			"movq %[i], 56(%%rax)\n\t"
			"movw %w[k], 8(%%rax)\n\t"                  /* the thread */
			"movq %%rdx, 0(%%rax)\n\t"                  /* tsc */
			"movl %%r10d, 12(%%rax)\n\t"                /* seq: complete */
			"movq %%r10, (%%r8)\n"                      /* commit */
			"32:\n\t"
			".pushsection __rseq_failure, \"ax\"\n\t"
			".byte 0x0f, 0xb9, 0x3d\n\t"                /* ud1, and the signature */
			".long 0x53053053\n"
			"34:\n\t"
			"jmp 35b\n\t"
			".popsection\n"
			:
			: [abi] "r"(abi), [cur] "r"(pcpu_cursor), [rings] "r"(pcpu_rings),
			  [mask] "r"(RING - 1), [i] "r"(i), [k] "r"(k), [rs] "i"(RING_SHIFT + 6)
			: "rax", "rdx", "r8", "r9", "r10", "r11", "memory", "cc");
	}
}

/* ---- the cases, run on one thread or two at once --------------------------- */

struct bcase {
	const char *name;
	void (*fn)(int k);
	int threads;                 /* 1 or 2 */
	const char *what;
	double t[2][MAX_REPS];       /* ticks per call, per thread */
	double med[2];
	double x1, x2;               /* the slower thread against the floors, paired */
};

static struct bcase cases[] = {
	{ "floor", floor_loop, 1, "LFENCE+RDTSC + rseq loads (the ordered floor)", { { 0 } }, { 0 }, 0, 0 },
	{ "lane_one", lib_one, 1, "tl_append(), one thread", { { 0 } }, { 0 }, 0, 0 },
	{ "atomic_one", atomic_loop, 1, "shared ring, atomic add, one thread", { { 0 } }, { 0 }, 0, 0 },
	{ "rseq_one", rseq_loop, 1, "per-CPU rings, rseq, one thread", { { 0 } }, { 0 }, 0, 0 },
	{ "floor_two", floor_loop, 2, "the floor on both CPUs at once", { { 0 } }, { 0 }, 0, 0 },
	{ "lanes_two", lib_two, 2, "tl_append(), a lane each, one log", { { 0 } }, { 0 }, 0, 0 },
	{ "kept_two", lib_kept, 2, "lane 0 kept, its line read by the other", { { 0 } }, { 0 }, 0, 0 },
	{ "atomic_two", atomic_loop, 2, "shared ring, atomic add, two threads", { { 0 } }, { 0 }, 0, 0 },
	{ "rseq_two", rseq_loop, 2, "per-CPU rings, rseq, two threads", { { 0 } }, { 0 }, 0, 0 },
	{ "sampled_one", sampled, 1, "breath of 10 events, rates 3-9, one", { { 0 } }, { 0 }, 0, 0 },
	{ "sampled_two", sampled, 2, "the same, two threads, one log's rate", { { 0 } }, { 0 }, 0, 0 },
};
#define NCASES (sizeof cases / sizeof cases[0])

static pthread_barrier_t start, done;
static struct bcase *current;
static int rep;                      /* the repetition under way */
static int stop;

static void pin(int cpu)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof s, &s);
}

/* Worker K: its lanes made before any measure, then every case given it. */
static void *worker(void *arg)
{
	int k = (int)(long)arg;
	tl_error err;
	pin(cpus[k]);
	if (tl_thread_attach(log_two, k ? "bench-1" : "bench-0", &err) != TL_OK ||
	    tl_thread_attach(log_auto, k ? "bench-1" : "bench-0", &err) != TL_OK)
		fprintf(stderr, "threads: %s\n", err.msg);
	tl_append(k ? log_other : log_kept, k ? six_other : six_kept, 0, 0, 0, 0, 0, 0);
	if (!k)
		tl_append(log_one, six_one, 0, 0, 0, 0, 0, 0);
	for (;;) {
		pthread_barrier_wait(&start);
		if (stop)
			return NULL;
		if (k < current->threads) {
			uint64_t t0 = ticks();
			current->fn(k);
			current->t[k][rep] = (double)(ticks() - t0) / (double)calls;
		}
		pthread_barrier_wait(&done);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median over the repetitions of C's slower thread against the floor
 * of one thread (x1) and the floor on both CPUs (x2) of the same round:
 * pairs, so that the load of the machine, which moves from round to
 * round, moves both sides of each ratio alike. */
static void paired(struct bcase *c)
{
	double x1[MAX_REPS], x2[MAX_REPS];
	const struct bcase *f1 = &cases[0], *f2 = &cases[4];
	for (int r = 0; r < reps; r++) {
		double worst = c->threads == 2 && c->t[1][r] > c->t[0][r] ? c->t[1][r] : c->t[0][r];
		x1[r] = worst / f1->t[0][r];
		x2[r] = worst / ((f2->t[0][r] + f2->t[1][r]) / 2);
	}
	qsort(x1, (size_t)reps, sizeof(double), cmp_double);
	qsort(x2, (size_t)reps, sizeof(double), cmp_double);
	c->x1 = x1[reps / 2];
	c->x2 = x2[reps / 2];
}

/* C's line, and its rows in CSV. */
static void report(const struct bcase *b, FILE *csv)
{
	double worst = b->threads == 2 && b->med[1] > b->med[0] ? b->med[1] : b->med[0];
	char t1[16] = "-", x2[16] = "-";
	if (b->threads == 2) {
		snprintf(t1, sizeof t1, "%.2f", b->med[1]);
		snprintf(x2, sizeof x2, "%.2f", b->x2);
	}
	printf("%-12s %10.2f %10s %9.2f %9s  %s\n", b->name, b->med[0], t1, b->x1, x2, b->what);
	if (!csv)
		return;
	fprintf(csv, "threads_%s,%.3f,ticks,%.3f,floor\n", b->name, worst, b->x1);
	if (b->threads == 2)
		fprintf(csv, "threads_%s_vs_floor_two,%.3f,x,%.3f,floor_two\n", b->name, b->x2, b->x2);
}

static tl_log *bench_log(const char *dir, const char *name, unsigned *six, unsigned rate,
			 struct bench_events *evp)
{
	tl_options o = { .name = name };
	struct bench_events ev, *e = evp ? evp : &ev;
	tl_error err;
	char p[128];
	tl_log *log;
	snprintf(p, sizeof p, "%s/%s.timeline", dir, name);
	log = tl_open(p, &o, &err);
	if (!log || bench_events_register(log, e, NULL, &err) != TL_OK) {
		fprintf(stderr, "threads: %s\n", err.msg);
		exit(1);
	}
	tl_set_rate(log, rate);
	unlink(p);
	*six = e->id[BENCH_SIX];
	return log;
}

/* Shared, touched memory of BYTES (as the library's rings are). */
static void *ring_memory(uint64_t bytes)
{
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		exit(1);
	for (uint64_t o = 0; o < bytes; o += 4096)
		p[o] = 0;
	return p;
}

static void setup(void)
{
	char dir[] = "/dev/shm/tlthreads.XXXXXX";
	cpu_set_t s;
	long nconf;
	sched_getaffinity(0, sizeof s, &s);
	for (int c = 0; c < CPU_SETSIZE && ncpus < 2; c++)
		if (CPU_ISSET(c, &s))
			cpus[ncpus++] = c;
	/* the rings of the CPUs the threads are pinned to, and those below */
	nconf = (ncpus ? cpus[ncpus - 1] : 0) + 1;
	if (!mkdtemp(dir))
		exit(1);
	log_one = bench_log(dir, "one", &six_one, 1, NULL);
	log_two = bench_log(dir, "two", &six_two, 1, NULL);
	log_kept = bench_log(dir, "kept", &six_kept, 1, NULL);
	log_other = bench_log(dir, "other", &six_other, 1, NULL);
	log_auto = bench_log(dir, "auto", &six_auto, TL_RATE_AUTO, &ev_auto);
	tl_seed(log_auto, 1);
	rmdir(dir);
	shared.ring = ring_memory(RING * 64);
	pcpu_cursor = ring_memory((uint64_t)nconf * 64);
	pcpu_rings = ring_memory((uint64_t)nconf * RING * 64);
}

int main(int argc, char **argv)
{
	const char *path = getenv("BENCH_CSV");
	pthread_t th[2];
	FILE *csv;
	if (argc > 1 && (calls = strtoull(argv[1], NULL, 10)) < 10)
		return fprintf(stderr, "threads: CALLS takes a number of at least 10\n"), 2;
	if (argc > 2 && ((reps = atoi(argv[2])) < 1 || reps > MAX_REPS))
		return fprintf(stderr, "threads: REPS takes 1 to %d\n", MAX_REPS), 2;
	if (!path || !*path)
		path = "bench/results/latest.csv";
	setup();
	if (ncpus < 2) {
		printf("threads: one CPU here: the cases of two threads need two\n");
		return 0;
	}
	pthread_barrier_init(&start, NULL, 3);
	pthread_barrier_init(&done, NULL, 3);
	for (long k = 0; k < 2; k++)
		pthread_create(&th[k], NULL, worker, (void *)k);
	for (rep = 0; rep < reps; rep++)
		for (size_t c = 0; c < NCASES; c++) {
			current = &cases[c];
			pthread_barrier_wait(&start);
			pthread_barrier_wait(&done);
		}
	stop = 1;
	pthread_barrier_wait(&start);
	for (int k = 0; k < 2; k++)
		pthread_join(th[k], NULL);
	for (size_t c = 0; c < NCASES; c++)
		paired(&cases[c]);
	for (size_t c = 0; c < NCASES; c++)
		for (int k = 0; k < cases[c].threads; k++) {
			qsort(cases[c].t[k], (size_t)reps, sizeof(double), cmp_double);
			cases[c].med[k] = cases[c].t[k][reps / 2];
		}
	printf("timeline threads benchmark: TSC ticks per event on CPUs %d and %d, medians of %d "
	       "repetitions of %llu calls a thread\n\n", cpus[0], cpus[1], reps,
	       (unsigned long long)calls);
	printf("%-12s %10s %10s %9s %9s  %s\n", "case", "thread 0", "thread 1", "x floor",
	       "x floor2", "what");
	if (!getenv("BENCH_CSV"))
		mkdir("bench/results", 0755);
	csv = fopen(path, "a");
	for (size_t c = 0; c < NCASES; c++)
		report(&cases[c], csv);
	printf("\nx floor: the slower thread against the floor of one thread alone, x floor2:\n"
	       "against the floor run on both CPUs at once, each the median of the ratios of\n"
	       "one repetition to the floor's in the same round. Targets (issue 37): lane_one\n"
	       "<= 1.15x, lanes_two <= 1.25x (each thread): %s, %s\n",
	       cases[1].x1 <= 1.15 ? "met" : "MISSED", cases[5].x1 <= 1.25 ? "met" : "MISSED");
	if (csv && fclose(csv) == 0)
		printf("appended: %s\n", path);
	return 0;
}
