/* logger.c: the logger's cost in TSC ticks per call, each case a ratio to
 * a bare RDTSC loop and to the ordered floor (the cheapest ordered read of
 * the TSC and the cpu/node word AUTO could pick here) measured in the same
 * run: medians and p99 of 21 repetitions of 10^6 calls (`logger [CALLS
 * [REPS]]` for fewer, as `make bench-quick` runs it). Writes $BENCH_CSV,
 * else bench/results/latest.csv. Built with every loop at a 64-byte
 * boundary (Makefile), so that no case pays for straddling two fetch
 * windows by where the linker happened to put it. */
#define _GNU_SOURCE
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include "bench_events.h"
#include "breath.h"
#include "format.h"

#define MAX_REPS 21

static uint64_t calls = 1000000;     /* calls a repetition: argv[1] */
static int reps = MAX_REPS;          /* repetitions: argv[2], at most MAX_REPS */

static tl_log *log_on, *log_rdpid, *log_rdtscp, *log_lsl, *log_unord, *log_hot, *log_auto, *log_off;
static tl_log *log_disk;               /* enabled's, on a disk's file system (NULL: none here) */
static unsigned six_disk;
static char disk_fs[64] = "none";     /* where log_disk lives */
static uint64_t tsc_hz;              /* as the library calibrated it */
static int auto_clock = -1;          /* what TL_CLOCK_AUTO picked */
static struct bench_events ev_on, ev_rdpid, ev_rdtscp, ev_lsl, ev_unord, ev_hot, ev_auto, ev_off;
static unsigned six_on, six_rdpid, six_rdtscp, six_lsl, six_unord, six_hot;

static long rseq_off;                /* glibc's __rseq_offset, from the AUTO log's header */

static inline uint64_t ticks(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

/* The cases; each makes `calls` calls and keeps its loop variable live. */
static void c_empty(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++)
		__asm__ volatile("" ::"r"(i));
}

static void c_rdtsc(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++) {
		uint32_t lo, hi;
		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	}
}

static void c_rdtscp(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++) {
		uint32_t lo, hi, c;
		__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(c));
	}
}

static void c_rdtsc_rdpid(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++) {
		uint32_t lo, hi;
		uint64_t p;
		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		__asm__ volatile("rdpid %0" : "=r"(p));
	}
}

/* The floor where RDPID is missing: Linux's per-CPU segment limit. */
static void c_rdtsc_lsl(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++) {
		uint32_t lo, hi, p = 0x7b;
		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		__asm__ volatile("lsl %0, %0" : "+r"(p)::"cc");
	}
}

/* The floor with the rseq clock: RDTSC and the two loads of the cpu and
 * node fields of this thread's rseq area through %fs (where glibc registers
 * none, the loads still run, from the same offsets: the cost is the same). */
static void c_rdtsc_rseq(void)
{
	long off = rseq_off;
	for (uint64_t i = 0, n = calls; i < n; i++) {
		uint32_t lo, hi, cpu, node;
		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		__asm__ volatile("movl %%fs:4(%2), %0\n\tmovl %%fs:20(%2), %1"
				 : "=r"(cpu), "=r"(node) : "r"(off));
	}
}

/* The ordered floor with RDPID: LFENCE, RDTSC, RDPID, as the RDPID source
 * reads them. */
static void c_lfence_rdtsc_rdpid(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++) {
		uint32_t lo, hi;
		uint64_t p;
		__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi));
		__asm__ volatile("rdpid %0" : "=r"(p));
	}
}

/* The floor of the rseq source as the library reads it: LFENCE, so that
 * RDTSC waits for the work before it (asm/append.S), then the two loads. */
static void c_lfence_rdtsc_rseq(void)
{
	long off = rseq_off;
	for (uint64_t i = 0, n = calls; i < n; i++) {
		uint32_t lo, hi, cpu, node;
		__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi));
		__asm__ volatile("movl %%fs:4(%2), %0\n\tmovl %%fs:20(%2), %1"
				 : "=r"(cpu), "=r"(node) : "r"(off));
	}
}

static void c_disabled_inline(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++)
		bench_six(log_off, &ev_off, i, i, i, i, i, i);
}

static void c_disabled_call(void)
{
	unsigned code = tl_event_code(ev_off.id[BENCH_SIX], 5);
	for (uint64_t i = 0, n = calls; i < n; i++)
		tl_event(log_off, code, i, i, i, i, i, i);
}

static void c_enabled(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++)
		tl_append(log_on, six_on, i, i, i, i, i, i);
}

static void c_enabled_generated(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++)
		bench_six(log_on, &ev_on, i, i, i, i, i, i);
}

/* A 4096-entry ring stays in L2: the cost without the memory traffic of
 * streaming 64 MiB, closer to a real loop that logs a few events a breath. */
static void c_enabled_hot(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++)
		tl_append(log_hot, six_hot, i, i, i, i, i, i);
}

static void c_enabled_rdpid(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++)
		tl_append(log_rdpid, six_rdpid, i, i, i, i, i, i);
}

static void c_enabled_rdtscp(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++)
		tl_append(log_rdtscp, six_rdtscp, i, i, i, i, i, i);
}

static void c_enabled_lsl(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++)
		tl_append(log_lsl, six_lsl, i, i, i, i, i, i);
}

/* The rseq source without its LFENCE (TL_CLOCK_RDTSC_RSEQ_UNORDERED), on a
 * 64 MiB ring like enabled's: the floor a logger reaches when it lets the
 * clock run ahead of the work before it. */
static void c_enabled_unordered(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++)
		tl_append(log_unord, six_unord, i, i, i, i, i, i);
}

/* enabled's on a disk's file system (ext4 here): the kernel writes the
 * ring's dirty pages back every few seconds and write-protects them, and
 * the next store to each takes a fault (README.md: keep logs on a tmpfs) */
static void c_enabled_disk(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++)
		tl_append(log_disk, six_disk, i, i, i, i, i, i);
}

static void c_enabled_c(void)
{
	for (uint64_t i = 0, n = calls; i < n; i++)
		tl_append_c(log_on, six_on, i, i, i, i, i, i);
}

/* Switches ID of LOG off (OFF) or on as tl_switch_file() does from
 * outside, but directly and without the flag that has the writer record
 * it: the loops measure the test alone. */
static void set_switch(tl_log *log, uint16_t id, int off)
{
	struct tl_header *h = (struct tl_header *)log;
	uint64_t bit = 1ull << TL_SWITCH_BIT(id);
	if (off)
		__atomic_fetch_or(&h->switches[TL_SWITCH_WORD(id)], bit, __ATOMIC_SEQ_CST);
	else
		__atomic_fetch_and(&h->switches[TL_SWITCH_WORD(id)], ~bit, __ATOMIC_SEQ_CST);
}

/* enabled's event, on, into enabled's ring, while two others are switched
 * off (r9, in the same switch word, and r3): the test finds its bit clear. */
static void c_enabled_switch_on(void)
{
	set_switch(log_on, ev_on.id[BENCH_R9], 1);
	set_switch(log_on, ev_on.id[BENCH_R3], 1);
	for (uint64_t i = 0, n = calls; i < n; i++)
		tl_append(log_on, six_on, i, i, i, i, i, i);
	set_switch(log_on, ev_on.id[BENCH_R9], 0);
	set_switch(log_on, ev_on.id[BENCH_R3], 0);
}

/* A generated event whose rate is on and whose switch is off: the rate
 * check, the switch test inline and the flag's; no call, nothing written. */
static void c_switched_off(void)
{
	set_switch(log_on, ev_on.id[BENCH_R3], 1);
	for (uint64_t i = 0, n = calls; i < n; i++)
		bench_r3(log_on, &ev_on, i, i, i, i, i, i);
	set_switch(log_on, ev_on.id[BENCH_R3], 0);
}

/* Snabb-style: a breath of 10 events at rates 3..9, then a new rate draw.
 * calls / 10 breaths, so the per-call figure is per event. */
static void c_sampled(void)
{
	for (uint64_t i = 0, n = calls / 10; i < n; i++)
		bench_breath(log_auto, &ev_auto, i);
}

enum { NEED_RDTSCP = 1, NEED_RDPID = 2, NEED_RSEQ = 4, NEED_DISK = 8 };

struct bcase {
	const char *name;
	void (*fn)(void);
	const char *what;
	int need;                    /* NEED_*: skipped on CPUs without it */
	double med, p99;
};

static struct bcase cases[] = {
	{ "empty", c_empty, "empty loop", 0, 0, 0 },
	{ "rdtsc", c_rdtsc, "bare RDTSC", 0, 0, 0 },
	{ "rdtscp", c_rdtscp, "bare RDTSCP", NEED_RDTSCP, 0, 0 },
	{ "rdtsc_rdpid", c_rdtsc_rdpid, "bare RDTSC + RDPID", NEED_RDPID, 0, 0 },
	{ "rdtsc_lsl", c_rdtsc_lsl, "bare RDTSC + LSL", 0, 0, 0 },
	{ "rdtsc_rseq", c_rdtsc_rseq, "bare RDTSC + rseq loads", 0, 0, 0 },
	{ "lfence_rdtsc_rdpid", c_lfence_rdtsc_rdpid, "LFENCE+RDTSC + RDPID: ordered", NEED_RDPID, 0,
	  0 },
	{ "lfence_rdtsc_rseq", c_lfence_rdtsc_rseq, "LFENCE+RDTSC + rseq: ordered", NEED_RSEQ, 0, 0 },
	{ "disabled_inline", c_disabled_inline, "generated event, rate off", 0, 0, 0 },
	{ "disabled_call", c_disabled_call, "tl_event() call, rate off", 0, 0, 0 },
	{ "enabled", c_enabled, "tl_append(), AUTO clock", 0, 0, 0 },
	{ "enabled_generated", c_enabled_generated, "generated event, rate on", 0, 0, 0 },
	{ "enabled_hot", c_enabled_hot, "tl_append(), ring in cache", 0, 0, 0 },
	{ "enabled_rdpid", c_enabled_rdpid, "tl_append(), LFENCE+RDTSC+RDPID", NEED_RDPID, 0, 0 },
	{ "enabled_rdtscp", c_enabled_rdtscp, "tl_append(), RDTSCP", NEED_RDTSCP, 0, 0 },
	{ "enabled_lsl", c_enabled_lsl, "tl_append(), LFENCE+RDTSC+LSL", 0, 0, 0 },
	{ "enabled_unordered", c_enabled_unordered, "tl_append(), rseq without LFENCE", NEED_RSEQ, 0,
	  0 },
	{ "enabled_c", c_enabled_c, "tl_append_c(), C twin", 0, 0, 0 },
	{ "enabled_disk", c_enabled_disk, "tl_append(), the log on a disk's fs", NEED_DISK, 0, 0 },
	{ "enabled_switch_on", c_enabled_switch_on, "tl_append(), on, two others off", 0, 0, 0 },
	{ "switched_off", c_switched_off, "generated event, rate on, off", 0, 0, 0 },
	{ "sampled", c_sampled, "breath of 10 events, rates 3-9", 0, 0, 0 },
};
#define NCASES (sizeof cases / sizeof cases[0])

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* NEED_* bits this CPU has, from CPUID (KVM guests often hide both). */
static int cpu_has(void)
{
	unsigned a, b, c, d;
	int f = 0;
	if (__get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27)))
		f |= NEED_RDTSCP;
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (c & (1u << 22)))
		f |= NEED_RDPID;
	if (auto_clock == TL_CLOCK_RDTSC_RSEQ)   /* AUTO found the rseq area (log_on, opened first) */
		f |= NEED_RSEQ;
	if (log_disk)
		f |= NEED_DISK;
	return f;
}

static int runs(const struct bcase *c)
{
	return (c->need & cpu_has()) == c->need;
}

/* Runs every case reps times, interleaved, so drift hits all alike. */
static void measure(void)
{
	static double t[NCASES][MAX_REPS];
	for (int r = 0; r < reps; r++)
		for (size_t c = 0; c < NCASES; c++) {
			if (!runs(&cases[c]))
				continue;
			uint64_t t0 = ticks();
			cases[c].fn();
			t[c][r] = (double)(ticks() - t0) / calls;
		}
	for (size_t c = 0; c < NCASES; c++) {
		qsort(t[c], reps, sizeof t[c][0], cmp_double);
		cases[c].med = t[c][reps / 2];
		cases[c].p99 = t[c][reps - 1];   /* the slowest repetition */
	}
}

static struct bcase *find(const char *name)
{
	for (size_t c = 0; c < NCASES; c++)
		if (!strcmp(cases[c].name, name))
			return &cases[c];
	abort();
}

static void cpu_model(char *buf, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];
	snprintf(buf, size, "unknown");
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
			snprintf(buf, size, "%s", strchr(line, ':') + 2);
			buf[strcspn(buf, "\n")] = '\0';
			break;
		}
	if (f)
		fclose(f);
}

/* Opens a log in DIR with ENTRIES (0: default) and CLOCK, registers the
 * bench events into EV and fixes the rate to RATE (TL_RATE_AUTO: draws).
 * The file is unlinked at once; the mapping stays valid. */
static tl_log *bench_log(const char *dir, const char *name, uint64_t entries, int clock,
			 unsigned rate, struct bench_events *ev)
{
	tl_options o = { .name = name, .entries = entries, .clock = clock };
	tl_error err;
	char p[128];
	tl_log *log;
	snprintf(p, sizeof p, "%s/%s.timeline", dir, name);
	log = tl_open(p, &o, &err);
	if (!log || bench_events_register(log, ev, NULL, &err) != TL_OK) {
		fprintf(stderr, "bench: %s\n", err.msg);
		exit(1);
	}
	if (!tsc_hz) {
		tl_reader *r = tl_reader_open(p, &err);
		tl_info in;
		if (r) {
			tl_reader_info(r, &in);
			tsc_hz = in.tsc_hz;
			auto_clock = in.clock;
			tl_reader_close(r);
		}
		rseq_off = (long)((const struct tl_header *)log)->rseq_offset;
	}
	tl_set_rate(log, rate);
	unlink(p);
	return log;
}

static char disk_dir[256], disk_path[300];

static void remove_disk_log(void)
{
	unlink(disk_path);
	rmdir(disk_dir);
}

/* enabled's log once more, in the first of $BENCH_DISK_DIR, /var/tmp and
 * the working directory that is not in memory: log_disk, or NULL. It stays
 * linked until the end, as a log does: the kernel writes back the pages of
 * a file, and takes their write access away until the next store. */
static void open_disk_log(void)
{
	const char *dirs[] = { getenv("BENCH_DISK_DIR"), "/var/tmp", "." };
	for (size_t k = 0; k < sizeof dirs / sizeof dirs[0]; k++) {
		tl_options o = { .name = "disk" };
		struct bench_events ev;
		struct statfs s;
		tl_error err;
		if (!dirs[k] || statfs(dirs[k], &s) != 0 || s.f_type == 0x01021994 /* tmpfs */)
			continue;
		snprintf(disk_dir, sizeof disk_dir, "%s/tlbench.XXXXXX", dirs[k]);
		if (!mkdtemp(disk_dir))
			continue;
		snprintf(disk_path, sizeof disk_path, "%s/disk.timeline", disk_dir);
		atexit(remove_disk_log);
		if (!(log_disk = tl_open(disk_path, &o, &err)) ||
		    bench_events_register(log_disk, &ev, NULL, &err) != TL_OK) {
			fprintf(stderr, "bench: %s\n", err.msg);
			exit(1);
		}
		tl_set_rate(log_disk, 1);
		six_disk = ev.id[BENCH_SIX];
		snprintf(disk_fs, sizeof disk_fs, "%s (f_type 0x%lx)", dirs[k], (unsigned long)s.f_type);
		return;
	}
}

/* The logs live in memory (/dev/shm, tmpfs), as they do under /run: on a
 * disk file system the kernel writes a MAP_SHARED ring's dirty pages back
 * every few seconds and write-protects them, and the next store to each
 * page takes a fault, which made some repetitions of a 64 MiB ring 1.5x
 * dearer here (ext4). */
static void open_logs(void)
{
	char shm[] = "/dev/shm/tlbench.XXXXXX", tmp[] = "/tmp/tlbench.XXXXXX";
	char *dir = mkdtemp(shm) ? shm : mkdtemp(tmp);
	tl_error err;
	if (!dir)
		exit(1);
	log_on = bench_log(dir, "on", 0, TL_CLOCK_AUTO, 1, &ev_on);
	if (cpu_has() & NEED_RDPID)
		log_rdpid = bench_log(dir, "rdpid", 0, TL_CLOCK_RDTSC_RDPID, 1, &ev_rdpid);
	if (cpu_has() & NEED_RDTSCP)
		log_rdtscp = bench_log(dir, "rdtscp", 0, TL_CLOCK_RDTSCP, 1, &ev_rdtscp);
	log_lsl = bench_log(dir, "lsl", 0, TL_CLOCK_RDTSC_LSL, 1, &ev_lsl);
	if (cpu_has() & NEED_RSEQ)
		log_unord = bench_log(dir, "unord", 0, TL_CLOCK_RDTSC_RSEQ_UNORDERED, 1, &ev_unord);
	log_hot = bench_log(dir, "hot", 4096, TL_CLOCK_AUTO, 1, &ev_hot);
	log_auto = bench_log(dir, "auto", 0, TL_CLOCK_AUTO, TL_RATE_AUTO, &ev_auto);
	rmdir(dir);
	open_disk_log();
	log_off = tl_disabled();
	bench_events_register(log_off, &ev_off, NULL, &err);
	six_on = ev_on.id[BENCH_SIX];
	six_rdpid = ev_rdpid.id[BENCH_SIX];
	six_rdtscp = ev_rdtscp.id[BENCH_SIX];
	six_lsl = ev_lsl.id[BENCH_SIX];
	six_unord = ev_unord.id[BENCH_SIX];
	six_hot = ev_hot.id[BENCH_SIX];
	tl_seed(log_auto, 1);
}

/* The ordered floor: the cheapest of the ordered reads AUTO could pick on
 * this host (RDTSC+rseq, RDTSCP, LFENCE+RDTSC+RDPID; LSL, twice RDTSC on
 * every class seen, is never the cheapest). */
static const struct bcase *ordered_floor(void)
{
	static const char *const reads[] = { "lfence_rdtsc_rseq", "rdtscp", "lfence_rdtsc_rdpid" };
	const struct bcase *best = NULL;
	for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++) {
		const struct bcase *c = find(reads[i]);
		if (runs(c) && (!best || c->med < best->med))
			best = c;
	}
	return best;
}

/* Is C an ordered read or an ordered logger, measured against the floor? */
static int against_floor(const struct bcase *c)
{
	return !strncmp(c->name, "lfence_", 7) || !strcmp(c->name, "rdtscp") ||
	       (!strncmp(c->name, "enabled", 7) && strcmp(c->name, "enabled_unordered"));
}

/* Targets from issues 2 and 27, as (case, limit, what the limit is). */
static const char *verdict(const struct bcase *c, double floor, double empty)
{
	if (!strcmp(c->name, "enabled"))
		return !floor ? "" : c->med <= 1.15 * floor ? "target <= 1.15x floor: met"
							   : "target <= 1.15x floor: MISSED";
	if (!strcmp(c->name, "disabled_inline"))
		return c->med <= empty + 1 ? "target <= empty + 1 tick: met"
					   : "target <= empty + 1 tick: MISSED";
	if (!strcmp(c->name, "disabled_call"))
		return c->med <= 5 ? "target <= 5 ticks: met" : "target <= 5 ticks: MISSED";
	if (!strcmp(c->name, "enabled_switch_on"))
		return c->med <= find("enabled")->med + 1 ? "target <= enabled + 1 tick: met"
							   : "target <= enabled + 1 tick: MISSED";
	if (!strcmp(c->name, "switched_off"))
		return c->med <= find("disabled_call")->med ? "target <= disabled_call: met"
							     : "target <= disabled_call: MISSED";
	return "";
}

int main(int argc, char **argv)
{
	char model[256], date[64];
	time_t now = time(NULL);
	double rdtsc, empty, floor;
	const struct bcase *fl;
	const char *path = getenv("BENCH_CSV");
	FILE *csv;

	if (argc > 1 && (calls = strtoull(argv[1], NULL, 10)) < 10)
		return fprintf(stderr, "logger: CALLS takes a number of at least 10\n"), 2;
	if (argc > 2 && ((reps = atoi(argv[2])) < 1 || reps > MAX_REPS))
		return fprintf(stderr, "logger: REPS takes 1 to %d\n", MAX_REPS), 2;
	if (!path || !*path)
		path = "bench/results/latest.csv";
	open_logs();
	measure();
	rdtsc = find("rdtsc")->med;
	empty = find("empty")->med;
	fl = ordered_floor();
	floor = fl ? fl->med : 0;
	cpu_model(model, sizeof model);
	strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
	printf("timeline logger benchmark, %s\n%s, %ld CPUs, TSC %.3f GHz; AUTO clock: %s\n", date,
	       model, sysconf(_SC_NPROCESSORS_ONLN), (double)tsc_hz / 1e9,
	       tl_clock_name(auto_clock) ? tl_clock_name(auto_clock) : "unknown");
	printf("TSC ticks per call: median and max of %d repetitions of %llu calls; the ordered\n"
	       "floor: %s\n\n", reps, (unsigned long long)calls,
	       fl ? fl->name : "none (no ordered read here)");
	printf("%-18s %9s %9s %8s %8s  %-32s %s\n", "case", "median", "p99", "x rdtsc", "x floor",
	       "what", "");
	if (!getenv("BENCH_CSV"))
		mkdir("bench/results", 0755);
	csv = fopen(path, "w");
	if (csv)
		fprintf(csv, "name,value,unit,ratio,baseline\nmeta_date,%s,date,,\n"
			     "meta_cpu,\"%s\",model,,\nmeta_tsc_hz,%llu,Hz,,\nmeta_auto_clock,%s,name,,\n"
			     "meta_ordered_floor,%s,name,,\n",
			date, model, (unsigned long long)tsc_hz,
			tl_clock_name(auto_clock) ? tl_clock_name(auto_clock) : "unknown",
			fl ? fl->name : "none");
	for (size_t c = 0; c < NCASES; c++) {
		struct bcase *b = &cases[c];
		if (!runs(b)) {
			printf("%-18s %9s %9s %8s %8s  %-32s skipped: this CPU lacks %s\n", b->name, "-",
			       "-", "-", "-", b->what,
			       b->need & NEED_RDPID ? "RDPID" : b->need & NEED_RSEQ ? "an rseq area" :
			       b->need & NEED_DISK ? "a directory not in memory" : "RDTSCP");
			continue;
		}
		char xf[16] = "";
		if (floor && against_floor(b))
			snprintf(xf, sizeof xf, "%.2f", b->med / floor);
		printf("%-18s %9.2f %9.2f %8.2f %8s  %-32s %s\n", b->name, b->med, b->p99,
		       b->med / rdtsc, xf, b->what, verdict(b, floor, empty));
		if (csv)
			fprintf(csv, "%s,%.3f,ticks,%.3f,rdtsc\n", b->name, b->med, b->med / rdtsc);
		if (csv && *xf)
			fprintf(csv, "%s_vs_floor,%.3f,x,%.3f,%s\n", b->name, b->med / floor,
				b->med / floor, fl->name);
	}
	printf("\nenabled_disk's log: %s\n", disk_fs);
	if (csv && fclose(csv) == 0)
		printf("\nwritten: %s\n", path);
	return 0;
}
