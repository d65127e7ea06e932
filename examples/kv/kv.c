/* kv.c: a small key-value server's loop, instrumented as a new user of
 * timeline would (examples/kv/kv.events): each poll of its clients (its
 * breath) serves a few requests, and each request is parsed, its keys
 * looked up in a table, and a reply written. Nothing here is Snabb's
 * shape: its own names, spans nested three deep, and requests, bytes and
 * keys as its units. The requests are made up from a seeded generator, so
 * two runs of one seed do the same work; --slow makes one stage do more
 * of it, and the program measures each stage itself with the TSC to check
 * what timeline says against. */
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
#include <x86intrin.h>
#include "kv_events.h"

static const char usage[] =
	"usage: kv [OPTIONS]\n"
	"\n"
	"A small key-value server's loop: each poll serves 1 to 8 requests, each\n"
	"parsed (bytes), looked up (keys) and answered (bytes), logging through\n"
	"libtimeline the spans examples/kv/kv.events declares.\n"
	"\n"
	"   -n, --polls N        stop after N polls (default 20000)\n"
	"   -S, --slow STAGE=PCT PCT% more work in STAGE (parse, lookup or reply),\n"
	"                        e.g. --slow lookup=60\n"
	"       --stall N=US     every Nth request stalls US microseconds between\n"
	"                        its lookup and its reply (in no stage: the request's\n"
	"                        own time)\n"
	"   -c, --cpu N          pin to CPU N\n"
	"   -d, --dir DIR        write the log to DIR/kv-PID.timeline (default: the\n"
	"                        library's path, $TIMELINE_ROOT/PID/kv.timeline)\n"
	"   -r, --rate RATE      the log's rate: all, 1 to 9, off or auto (the default)\n"
	"   -e, --entries N      ring entries, a power of two (default 1048576)\n"
	"       --seed N         the requests' seed (default 1)\n"
	"   -h, --help           show this help\n"
	"\n"
	"At exit it prints what it served and each stage's cycles per unit as it\n"
	"measured them itself (the TSC read around each stage).\n";

static const struct option options[] = {
	{ "polls", required_argument, NULL, 'n' }, { "slow", required_argument, NULL, 'S' },
	{ "stall", required_argument, NULL, 'T' }, { "cpu", required_argument, NULL, 'c' },
	{ "dir", required_argument, NULL, 'd' },   { "rate", required_argument, NULL, 'r' },
	{ "seed", required_argument, NULL, 'x' },  { "entries", required_argument, NULL, 'e' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

enum { PARSE, LOOKUP, REPLY, NSTAGES };
static const char *const stage_names[NSTAGES] = { "parse", "lookup", "reply" };

#define TABLE_SLOTS (1u << 19)       /* 4 MiB of keys: beyond the L2 cache */
#define PROBES 32                    /* dependent probes a key's lookup makes */
#define MSG_MAX 1024                 /* a request's bytes, at most */

static struct {
	uint64_t rng;
	unsigned slow[NSTAGES];      /* --slow: extra work in %, per stage */
	uint64_t stall_every, stall_us;
	uint64_t table[TABLE_SLOTS];
	uint8_t msg[MSG_MAX], reply[MSG_MAX];
	uint64_t sink;               /* what the work computes, so it is done */
	/* the program's own accounting */
	uint64_t polls, requests, bytes, keys;
	uint64_t cycles[NSTAGES], units[NSTAGES];
} S = { .rng = 1 };

static uint64_t rnd(void)
{
	S.rng ^= S.rng << 13;
	S.rng ^= S.rng >> 7;
	S.rng ^= S.rng << 17;
	return S.rng;
}

/* The rounds of a stage's work for N units with PCT% more of it. */
static uint64_t rounds(uint64_t n, unsigned pct)
{
	return (n * (100 + pct) + 50) / 100;
}

/* Parsing: a checksum over the request's BYTES bytes. */
static void parse(uint64_t bytes)
{
	uint64_t a = 1, b = 0, n = rounds(bytes, S.slow[PARSE]);
	for (uint64_t i = 0; i < n; i++) {
		a += S.msg[i % bytes];
		b += a;
	}
	S.sink += a ^ b;
}

/* The lookup of KEYS keys: each a chain of PROBES dependent probes of the
 * table (each load's address from the one before), more with --slow. */
static void lookup(uint64_t keys)
{
	uint64_t probes = rounds(PROBES, S.slow[LOOKUP]);
	for (uint64_t i = 0; i < keys; i++) {
		uint64_t h = S.msg[i % 64] * 0x9e3779b97f4a7c15ull + i;
		for (uint64_t p = 0; p < probes; p++)
			h = S.table[h & (TABLE_SLOTS - 1)] ^ (h >> 7);
		S.sink += h;
	}
}

/* The reply: BYTES bytes copied and summed. */
static void reply(uint64_t bytes)
{
	uint64_t n = rounds(bytes, S.slow[REPLY]), s = 0;
	for (uint64_t i = 0; i < n; i++) {
		S.reply[i % bytes] = (uint8_t)(S.msg[i % bytes] + 1);
		s += S.reply[i % bytes];
	}
	S.sink += s;
}

/* Stage K of N units, logged and measured. */
#define STAGE(k, begin, end, work, n)                       \
	do {                                                \
		uint64_t t0 = __rdtsc();                    \
		begin;                                      \
		work(n);                                    \
		end;                                        \
		S.cycles[k] += __rdtsc() - t0;              \
		S.units[k] += (n);                          \
	} while (0)

/* One request: its size and keys drawn, its three stages. */
static void request(tl_log *log, const struct kv_events *ev)
{
	uint64_t id = ++S.requests, bytes = 64 + rnd() % (MSG_MAX - 64), keys = 1 + rnd() % 4;
	for (uint64_t i = 0; i < bytes; i += 8) {
		uint64_t r = rnd();
		memcpy(S.msg + i, &r, bytes - i < 8 ? bytes - i : 8);
	}
	kv_req_begin(log, ev, id);
	STAGE(PARSE, kv_parse_begin(log, ev, id), kv_parse_end(log, ev, bytes), parse, bytes);
	STAGE(LOOKUP, kv_lookup_begin(log, ev, id), kv_lookup_end(log, ev, keys), lookup, keys);
	if (S.stall_every && id % S.stall_every == 0)
		usleep((useconds_t)S.stall_us);
	STAGE(REPLY, kv_reply_begin(log, ev, id), kv_reply_end(log, ev, bytes), reply, bytes);
	kv_req_end(log, ev, 1, bytes);
	S.bytes += bytes;
	S.keys += keys;
}

/* One poll: 1 to 8 requests. */
static void poll_once(tl_log *log, const struct kv_events *ev)
{
	uint64_t n = 1 + rnd() % 8, req0 = S.requests, bytes0 = S.bytes;
	kv_poll_begin(log, ev, ++S.polls);
	for (uint64_t i = 0; i < n; i++)
		request(log, ev);
	kv_poll_end(log, ev, S.polls, S.requests - req0, S.bytes - bytes0);
	tl_breath(log);
}

static int fail(const char *msg, const char *arg)
{
	fprintf(stderr, "kv: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	fputs(usage, stderr);
	return 2;
}

/* A whole number from S into *V; nonzero if S is not one. */
static int number(const char *s, uint64_t *v)
{
	char *end;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return end == s || *end || errno || *s == '-';
}

/* --slow STAGE=PCT into S.slow; nonzero if it names no stage. */
static int slow_option(const char *arg)
{
	const char *eq = strchr(arg, '=');
	uint64_t pct;
	if (!eq || number(eq + 1, &pct) || pct > 100000)
		return 1;
	for (int k = 0; k < NSTAGES; k++)
		if (strlen(stage_names[k]) == (size_t)(eq - arg) && !strncmp(stage_names[k], arg, eq - arg))
			return S.slow[k] = (unsigned)pct, 0;
	return 1;
}

/* Opens the log: DIR/kv-PID.timeline, or the library's default path; a
 * log that cannot be made leaves the server running, logging nothing. */
static tl_log *open_log(const char *dir, uint64_t entries)
{
	char path[4096];
	tl_options o = { .name = "kv", .entries = entries };
	tl_error err;
	tl_log *log;
	if (dir) {
		if (mkdir(dir, 0700) && errno != EEXIST)
			fprintf(stderr, "kv: %s: %s\n", dir, strerror(errno));
		snprintf(path, sizeof path, "%s/kv-%d.timeline", dir, (int)getpid());
	}
	if (!(log = tl_open(dir ? path : NULL, &o, &err))) {
		fprintf(stderr, "kv: %s (running without a log)\n", err.msg);
		log = tl_disabled();
	}
	return log;
}

static void report(double seconds)
{
	printf("kv: %llu polls, %llu requests, %llu bytes, %llu keys in %.3f s\n",
	       (unsigned long long)S.polls, (unsigned long long)S.requests,
	       (unsigned long long)S.bytes, (unsigned long long)S.keys, seconds);
	printf("kv: its own cycles per unit: parse %.2f/byte, lookup %.2f/key, reply %.2f/byte\n",
	       (double)S.cycles[PARSE] / (double)S.units[PARSE],
	       (double)S.cycles[LOOKUP] / (double)S.units[LOOKUP],
	       (double)S.cycles[REPLY] / (double)S.units[REPLY]);
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	uint64_t polls = 20000, entries = 0, v;
	int rate = TL_RATE_AUTO, c;
	struct kv_events ev;
	struct timespec t0, t1;
	tl_error err;
	tl_log *log;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":n:S:c:d:r:e:h", options, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (number(optarg, &polls) || !polls) return fail("--polls takes a positive number", optarg);
			break;
		case 'S':
			if (slow_option(optarg)) return fail("--slow takes STAGE=PCT (parse, lookup, reply)", optarg);
			break;
		case 'T':
			if (!strchr(optarg, '=') || sscanf(optarg, "%lu=%lu", &S.stall_every, &S.stall_us) != 2 ||
			    !S.stall_every)
				return fail("--stall takes N=US", optarg);
			break;
		case 'c': {
			cpu_set_t set;
			if (number(optarg, &v) || v >= CPU_SETSIZE) return fail("--cpu takes a CPU number", optarg);
			CPU_ZERO(&set);
			CPU_SET(v, &set);
			if (sched_setaffinity(0, sizeof set, &set))
				fprintf(stderr, "kv: cannot pin to CPU %s: %s\n", optarg, strerror(errno));
			break;
		}
		case 'd': dir = optarg; break;
		case 'e':
			if (number(optarg, &entries)) return fail("--entries takes a power of two", optarg);
			break;
		case 'r':
			if ((rate = tl_rate_parse(optarg)) < 0) return fail("--rate takes all, 1 to 9, off or auto", optarg);
			break;
		case 'x':
			if (number(optarg, &S.rng) || !S.rng) return fail("--seed takes a positive number", optarg);
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
	for (uint64_t i = 0; i < TABLE_SLOTS; i++)
		S.table[i] = rnd();
	log = open_log(dir, entries);
	if (kv_events_register(log, &ev, NULL, &err) != TL_OK)
		fprintf(stderr, "kv: %s\n", err.msg);
	tl_seed(log, S.rng);
	tl_set_rate(log, (unsigned)rate);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (uint64_t i = 0; i < polls; i++)
		poll_once(log, &ev);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tl_close(log);
	report((double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	return S.sink == 42;   /* never: the work is used */
}
