/* engine.c: the demo engine's main: options, the breath loop and its
 * instrumentation. Every breath draws a new sampling rate (or keeps the
 * one fixed by --rate), pulls the source, pushes every other app, and logs
 * breath and app events through the generated functions. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "engine.h"
#include "engine_events.h"

static const uint16_t small_sizes[] = { 64, 64, 64, 128 };
static const uint16_t imix_sizes[] = { 64, 64, 64, 64, 64, 64, 64, 576, 576, 576, 576, 1500 };
static const uint16_t large_sizes[] = { 1500 };
static const uint16_t mixed_sizes[] = { 64, 256, 512, 1024, 1500 };

static const struct workload workloads[] = {
	{ "small", "64-128 byte packets, batches of 1-32", small_sizes, 4, 1, 32, 0 },
	{ "imix", "7:4:1 of 64, 576 and 1500 bytes, batches of 1-64", imix_sizes, 12, 1, 64, 0 },
	{ "large", "1500 byte packets, batches of 16-96", large_sizes, 1, 16, 96, 0 },
	{ "bursty", "mixed sizes, batches of 1-128, idle 30% of breaths", mixed_sizes, 5, 1, 128, 30 },
};
#define NWORKLOADS (sizeof workloads / sizeof workloads[0])

static const char usage[] =
	"usage: engine [OPTIONS]\n"
	"\n"
	"A small packet-processing engine: source -> checksum -> rewrite -> lookup\n"
	"-> sink, in a breath loop, logging through libtimeline.\n"
	"\n"
	"   -c, --cpu N          pin to CPU N\n"
	"   -s, --seconds S      run for S seconds (default 2)\n"
	"   -n, --breaths N      stop after N breaths instead\n"
	"   -w, --workload NAME  small, imix (default), large or bursty\n"
	"   -S, --slow APP=PCT   PCT% more work per packet in APP (checksum, rewrite,\n"
	"                        lookup), e.g. --slow lookup=40\n"
	"   -d, --dir DIR        write the log to DIR/NAME-PID.timeline (default: the\n"
	"                        library's path, $TIMELINE_ROOT/PID/NAME.timeline)\n"
	"   -N, --name NAME      the log's name (default engine)\n"
	"   -r, --rate RATE      the log's rate, as `timeline rate` takes it: all (log\n"
	"                        every event), 1 to 9 (events of that rate and above),\n"
	"                        off, or auto (drawn every breath; the default)\n"
	"   -e, --entries N      ring entries, a power of two (default 1048576)\n"
	"   -p, --pace N         at most N breaths a second, sleeping between them as\n"
	"                        an engine with little traffic does (default: flat out)\n"
	"       --seed N         the random generator's seed (default: from the pid)\n"
	"       --arm US         arm the log's flight recorder (tl_arm()) at the\n"
	"                        1000th breath, after the cold start: a breath\n"
	"                        slower than US microseconds freezes it (timeline arm)\n"
	"   -k, --clock NAME     the log's clock source, as `timeline info` names it:\n"
	"                        auto (the default: $TIMELINE_CLOCK if set, else the\n"
	"                        cheapest ordered source), rdtsc+rseq,\n"
	"                        rdtsc+rseq-unordered (no LFENCE: cheaper, and a time\n"
	"                        may fall before the end of the work ahead of it),\n"
	"                        rdtsc+rdpid, rdtscp, rdtsc+lsl, rdtsc or monotonic\n"
	"   -h, --help           show this help\n"
	"\n"
	"At exit it prints the breaths and packets, per app the packets it received\n"
	"and sent, and the seconds the breath loop took, on the clock and of CPU.\n";

static const struct option options[] = {
	{ "cpu", required_argument, NULL, 'c' },     { "seconds", required_argument, NULL, 's' },
	{ "breaths", required_argument, NULL, 'n' }, { "workload", required_argument, NULL, 'w' },
	{ "slow", required_argument, NULL, 'S' },    { "dir", required_argument, NULL, 'd' },
	{ "name", required_argument, NULL, 'N' },    { "rate", required_argument, NULL, 'r' },
	{ "entries", required_argument, NULL, 'e' }, { "seed", required_argument, NULL, 'x' },
	{ "pace", required_argument, NULL, 'p' },    { "clock", required_argument, NULL, 'k' },
	{ "arm", required_argument, NULL, 'A' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

#define NAPPS 5
static struct link links[NAPPS - 1];
static struct app apps[NAPPS] = {
	{ .name = "source", .pull = source_pull },
	{ .name = "checksum", .push = checksum_push },
	{ .name = "rewrite", .push = rewrite_push },
	{ .name = "lookup", .push = lookup_push },
	{ .name = "sink", .push = sink_push },
};

static double seconds_of(clockid_t clock)
{
	struct timespec t;
	clock_gettime(clock, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double now(void)
{
	return seconds_of(CLOCK_MONOTONIC);
}

static int fail(const char *msg, const char *arg)
{
	fprintf(stderr, "engine: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	fputs(usage, stderr);
	return 2;
}

/* With --pace: sleeps until breath BREATH of a run started at T0 is due,
 * logging the sleep as the engine does when idle. */
static void pace(tl_log *log, struct engine_events *eng, uint64_t breath, double t0, double per_s)
{
	double due = t0 + (double)breath / per_s, t = now();
	if (due > t + 0.0001) {
		struct timespec nap = { (time_t)(due - t), (long)((due - t - (double)(time_t)(due - t)) * 1e9) };
		engine_sleep(log, eng, (uint64_t)((due - t) * 1e6));
		nanosleep(&nap, NULL);
		engine_wakeup(log, eng, (uint64_t)((now() - t) * 1e6));
	}
}

/* The enum tl_clock whose name is NAME, or -1; the manual clock, which
 * only tests set, is not offered. */
static int clock_by_name(const char *name)
{
	int c = tl_clock_parse(name);
	return c == TL_CLOCK_MANUAL ? -1 : c;
}

static int number(const char *s, double *v)
{
	char *end;
	*v = strtod(s, &end);
	return end == s || *end || *v < 0;
}

/* The total packets and bytes the engine has moved: those the sink took. */
static void totals(uint64_t *packets, uint64_t *bytes)
{
	*packets = apps[NAPPS - 1].inpackets;
	*bytes = apps[NAPPS - 1].inbytes;
}

/* --arm arms the log at this breath, not before the loop: the first
 * breaths are cold (buffers touched for the first time: breaths 1, 4, 5
 * and 22 of the small workload took 33 us to 1.5 ms in three runs, against
 * a p99 of 2.8 us), and armed before them the recorder would freeze on
 * the cold start. */
#define ARM_AT 1000

/* Arms LOG's flight recorder on the breath at US microseconds, at RATE
 * while armed (all if auto: RATE < 0). */
static void arm(tl_log *log, double us, int rate)
{
	tl_error err;
	tl_arm_options ao = { .slower_than_ns = (uint64_t)(us * 1000),
			      .rate = rate > 0 && rate < TL_RATE_OFF ? (unsigned)rate : 0 };
	if (tl_arm(log, &ao, &err) != TL_OK)
		fprintf(stderr, "engine: %s\n", err.msg);
}

int main(int argc, char **argv)
{
	const struct workload *w = &workloads[1];
	const char *dir = NULL, *name = "engine";
	double seconds = 2, v, t_end, t0, cpu0, pace_per_s = 0, loop_s, loop_cpu_s, arm_us = 0;
	uint64_t max_breaths = 0, breath, entries = 0, seed = 0, packets, bytes;
	int cpu = -1, rate = -1, c;
	char path[4096];
	tl_options o = { 0 };
	struct engine_events eng;
	tl_error err;
	tl_log *log;
	unsigned numa = 0, cpu_now = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:s:n:w:S:d:N:r:e:p:k:h", options, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (number(optarg, &v) || v > 4095) return fail("--cpu takes a CPU number", optarg);
			cpu = (int)v;
			break;
		case 's':
			if (number(optarg, &seconds) || seconds <= 0) return fail("--seconds takes a positive number", optarg);
			break;
		case 'n':
			if (number(optarg, &v) || v < 1) return fail("--breaths takes a positive number", optarg);
			max_breaths = (uint64_t)v;
			break;
		case 'w':
			for (w = NULL, v = 0; v < NWORKLOADS; v++)
				if (!strcmp(optarg, workloads[(int)v].name))
					w = &workloads[(int)v];
			if (!w) return fail("unknown workload (small, imix, large, bursty)", optarg);
			break;
		case 'S': {
			const char *eq = strchr(optarg, '=');
			int found = 0;
			if (!eq || number(eq + 1, &v) || v > 10000) return fail("--slow takes APP=PCT", optarg);
			for (int i = 1; i < NAPPS - 1; i++)
				if (strlen(apps[i].name) == (size_t)(eq - optarg) &&
				    !strncmp(apps[i].name, optarg, (size_t)(eq - optarg))) {
					apps[i].slow_pct = (unsigned)v;
					found = 1;
				}
			if (!found) return fail("--slow: no such app (checksum, rewrite, lookup)", optarg);
			break;
		}
		case 'd': dir = optarg; break;
		case 'N': name = optarg; break;
		case 'r':
			if ((rate = tl_rate_parse(optarg)) < 0)
				return fail("--rate takes all, 1 to 9, off or auto", optarg);
			break;
		case 'p':
			if (number(optarg, &pace_per_s) || pace_per_s < 1) return fail("--pace takes breaths per second", optarg);
			break;
		case 'e':
			if (number(optarg, &v)) return fail("--entries takes a power of two", optarg);
			entries = (uint64_t)v;
			break;
		case 'x':
			if (number(optarg, &v)) return fail("--seed takes a number", optarg);
			seed = (uint64_t)v;
			break;
		case 'A':
			if (number(optarg, &arm_us) || arm_us <= 0)
				return fail("--arm takes microseconds above 0", optarg);
			break;
		case 'k':
			if ((o.clock = clock_by_name(optarg)) < 0)
				return fail("--clock: no such clock source (see --help)", optarg);
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		case ':':
			return fail("option requires an argument", argv[optind - 1]);
		default:
			return fail("unknown option", argv[optind - 1]);
		}
	}
	if (optind != argc)
		return fail("unexpected argument", argv[optind]);
	if (cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof set, &set))
			fprintf(stderr, "engine: cannot pin to CPU %d: %s (running unpinned)\n", cpu,
				strerror(errno));
	}
	o.name = name;
	o.entries = entries;
	if (dir) {
		if (mkdir(dir, 0700) && errno != EEXIST) {
			fprintf(stderr, "engine: %s: %s\n", dir, strerror(errno));
			return 1;
		}
		size_t n = strlen(dir);
		while (n > 0 && dir[n - 1] == '/')
			n--;   /* DIR/ gives DIR/NAME-PID.timeline, not DIR//... */
		snprintf(path, sizeof path, "%.*s/%s-%d.timeline", (int)n, dir, name, (int)getpid());
	}
	/* a log that cannot be created must not stop the engine: log nothing */
	if (!(log = tl_open(dir ? path : NULL, &o, &err))) {
		fprintf(stderr, "engine: %s (running without a log)\n", err.msg);
		log = tl_disabled();
	}
	if (engine_events_register(log, &eng, NULL, &err) != TL_OK)
		fprintf(stderr, "engine: %s\n", err.msg);
	apps_init();
	for (int i = 0; i < NAPPS; i++) {
		char attrs[64];
		snprintf(attrs, sizeof attrs, "app=%s", apps[i].name);
		if (app_events_register(log, &apps[i].ev, attrs, &err) != TL_OK)
			fprintf(stderr, "engine: %s\n", err.msg);
		apps[i].in = i > 0 ? &links[i - 1] : NULL;
		apps[i].out = i < NAPPS - 1 ? &links[i] : NULL;
	}
	source_setup(w, seed ? seed : (uint64_t)getpid() * 2654435761u);
	tl_seed(log, seed ? seed : (uint64_t)getpid());
	tl_set_rate(log, rate < 0 ? TL_RATE_AUTO : (unsigned)rate);
	if (getcpu(&cpu_now, &numa))
		cpu_now = numa = 0;
	engine_started(log, &eng, cpu_now, numa);

	t0 = now();
	cpu0 = seconds_of(CLOCK_THREAD_CPUTIME_ID);
	t_end = t0 + seconds;
	/* the clock read every 256th breath, or every breath when paced */
	for (breath = 1;
	     max_breaths ? breath <= max_breaths : ((breath & 255) && !pace_per_s) || now() < t_end;
	     breath++) {
		uint64_t before;
		if (breath == ARM_AT && arm_us > 0)
			arm(log, arm_us, rate);
		tl_breath(log);   /* a new rate (auto), and an armed log's check (timeline arm) */
		totals(&packets, &bytes);
		before = packets;
		engine_breath_start(log, &eng, breath, packets, bytes, bytes * 8 + packets * 160);
		for (int i = 0; i < NAPPS; i++) {
			struct app *a = &apps[i];
			if (!a->pull)
				continue;
			app_pull(log, &a->ev, a->inpackets, a->inbytes, a->outpackets, a->outbytes);
			a->pull(a);
			app_pulled(log, &a->ev, a->inpackets, a->inbytes, a->outpackets, a->outbytes);
		}
		for (int i = 0; i < NAPPS; i++) {
			struct app *a = &apps[i];
			if (!a->push)
				continue;
			app_push(log, &a->ev, a->inpackets, a->inbytes, a->outpackets, a->outbytes);
			a->push(a);
			app_pushed(log, &a->ev, a->inpackets, a->inbytes, a->outpackets, a->outbytes);
		}
		totals(&packets, &bytes);
		engine_breath_end(log, &eng, breath, packets, bytes, bytes * 8 + packets * 160);
		if (packets == before) {
			/* nothing moved: sleep a little, as Snabb does when idle */
			struct timespec nap = { 0, 20000 };
			double t0 = now();
			engine_sleep(log, &eng, 20);
			nanosleep(&nap, NULL);
			engine_wakeup(log, &eng, (uint64_t)((now() - t0) * 1e6));
		}
		if (pace_per_s > 0 && !(breath & 15))
			pace(log, &eng, breath, t0, pace_per_s);
	}
	totals(&packets, &bytes);
	engine_stopped(log, &eng, breath - 1, packets, bytes);
	/* CPU read before the clock, so the CPU interval lies inside the wall one */
	loop_cpu_s = seconds_of(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	loop_s = now() - t0;
	printf("engine %s pid %d cpu %u numa %u workload %s: %llu breaths, %llu packets, %llu bytes\n",
	       name, (int)getpid(), cpu_now, numa, w->name, (unsigned long long)(breath - 1),
	       (unsigned long long)packets, (unsigned long long)bytes);
	for (int i = 0; i < NAPPS; i++)
		printf("app %s in %llu out %llu slow %u%%\n", apps[i].name,
		       (unsigned long long)apps[i].inpackets, (unsigned long long)apps[i].outpackets,
		       apps[i].slow_pct);
	/* what a benchmark divides by: a CPU shared with another process halves
	 * the packets a second on the clock, not those a second of CPU */
	printf("loop %.6f s, %.6f s of CPU\n", loop_s, loop_cpu_s);
	tl_close(log);
	return 0;
}
