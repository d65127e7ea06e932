/* fwd.c: a DPDK forwarder instrumented with timeline as a DPDK user would:
 * one log opened in main() before the lcores are launched, each worker
 * lcore logging into it from its own thread (tl_thread_attach), the events
 * of examples/dpdk/fwd.events. Worker k receives bursts from port k mod P
 * and sends them out of the next port, with --work rounds of extra work
 * per packet; at exit each lcore's packets and cycles per packet, from the
 * TSC read around each turn of its loop, to check what timeline says. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pause.h>
#include "fwd_events.h"

static const char usage[] =
	"usage: fwd [EAL OPTIONS] -- [OPTIONS]\n"
	"\n"
	"A DPDK forwarder: each worker lcore receives bursts from a port and sends\n"
	"them out of the next, logging through libtimeline into one log the events\n"
	"examples/dpdk/fwd.events declares. Without a NIC or hugepages:\n"
	"  fwd --no-huge --no-pci -m 256 --lcores=0@0,1@0,2@1 \\\n"
	"      --vdev=net_null0 --vdev=net_null1 -- -s 1\n"
	"\n"
	"   -s, --seconds S      run S seconds (default 1; fractions allowed)\n"
	"   -n, --breaths N      stop each lcore after N turns of its loop (0: no limit)\n"
	"   -w, --work N         N rounds of extra work per packet (default 0)\n"
	"   -b, --burst N        packets per receive, 1 to 256 (default 32)\n"
	"   -d, --dir DIR        write the log to DIR/fwd-PID.timeline (default: the\n"
	"                        library's path, $TIMELINE_ROOT/PID/fwd.timeline)\n"
	"   -r, --rate RATE      the log's rate: all, 1 to 9, off or auto (the default)\n"
	"   -e, --entries N      ring entries of each lcore, a power of two\n"
	"                        (default 1048576)\n"
	"   -h, --help           show this help\n"
	"\n"
	"At exit it prints, for each lcore, its turns, packets and cycles per\n"
	"packet as it measured them itself (the TSC read around each turn).\n";

static const struct option options[] = {
	{ "seconds", required_argument, NULL, 's' }, { "breaths", required_argument, NULL, 'n' },
	{ "work", required_argument, NULL, 'w' },    { "burst", required_argument, NULL, 'b' },
	{ "dir", required_argument, NULL, 'd' },     { "rate", required_argument, NULL, 'r' },
	{ "entries", required_argument, NULL, 'e' }, { "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

#define MAX_PORTS 16
#define RING_SIZE 1024
#define MBUFS_PER_QUEUE 4095
#define MBUF_CACHE 256

/* What each worker is given and counts, on a cache line of its own. */
struct worker {
	unsigned lcore;
	uint16_t rx_port, tx_port, queue;
	uint64_t breaths, packets, sent, cycles;   /* its own accounting */
	double cpu;                                /* seconds of CPU its loop took */
	uint64_t sink;                             /* what the extra work computes */
	int attach_status;
} __rte_cache_aligned;

static struct {
	uint64_t max_breaths, work;
	unsigned burst;
	tl_log *log;
	struct fwd_events ev[MAX_PORTS];   /* the events of each port (port=N) */
	struct worker w[RTE_MAX_LCORE];
} S = { .burst = 32 };

static volatile int stop;
static unsigned ready, go;   /* lcores with their lane; the main lcore's start */

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* --work: N dependent rounds over the packet's length and address. */
static uint64_t work(const struct rte_mbuf *m, uint64_t n)
{
	uint64_t h = (uint64_t)m->pkt_len ^ (uintptr_t)m;
	for (uint64_t i = 0; i < n; i++)
		h = h * 0x9e3779b97f4a7c15ull + i;
	return h;
}

/* One turn: a burst received, worked on and sent. Its cycles are counted
 * from before loop_begin to before loop_end, as the log's timestamps
 * are, each behind its append's head. */
static void turn(struct worker *w, struct rte_mbuf **pkts)
{
	tl_log *log = S.log;
	const struct fwd_events *rx = &S.ev[w->rx_port], *tx = &S.ev[w->tx_port];
	uint64_t t0 = rte_rdtsc(), t1;
	uint16_t n, sent;
	fwd_loop_begin(log, rx, w->lcore);
	fwd_rx_begin(log, rx, w->queue);
	n = rte_eth_rx_burst(w->rx_port, w->queue, pkts, (uint16_t)S.burst);
	fwd_rx_end(log, rx, w->queue, n);
	if (S.work)
		for (uint16_t i = 0; i < n; i++)
			w->sink += work(pkts[i], S.work);
	fwd_tx_begin(log, tx, w->queue, n);
	sent = n ? rte_eth_tx_burst(w->tx_port, w->queue, pkts, n) : 0;
	fwd_tx_end(log, tx, w->queue, sent);
	for (uint16_t i = sent; i < n; i++)
		rte_pktmbuf_free(pkts[i]);
	t1 = rte_rdtsc();
	fwd_loop_end(log, rx, w->lcore, n);
	tl_breath(log);
	w->cycles += t1 - t0;
	w->packets += n;
	w->sent += sent;
	w->breaths++;
}

/* An lcore's loop, until the main lcore says stop or --breaths is reached. */
static int worker_main(void *arg)
{
	struct worker *w = arg;
	struct rte_mbuf *pkts[256];
	struct timespec c0, c1;
	char name[16];
	snprintf(name, sizeof name, "lcore-worker-%u", w->lcore);
	w->attach_status = tl_thread_attach(S.log, name, NULL);
	__atomic_add_fetch(&ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE) && !stop)
		rte_pause();
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	while (!stop && (!S.max_breaths || w->breaths < S.max_breaths))
		turn(w, pkts);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
	w->cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) / 1e9;
	return 0;
}

/* rte_eal_cleanup(), then the runtime directory EAL made, empty with
 * --no-shconf, removed: a run then leaves nothing in /var/run/dpdk. */
static void eal_cleanup(void)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", rte_eal_get_runtime_dir());
	rte_eal_cleanup();
	rmdir(dir);
}

static int fail(const char *msg, const char *arg)
{
	fprintf(stderr, "fwd: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
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

/* Configures PORT with Q queues each way, receiving into POOL, and starts it. */
static int port_init(uint16_t port, uint16_t q, struct rte_mempool *pool)
{
	struct rte_eth_conf conf;
	int socket = rte_eth_dev_socket_id(port), rc;
	memset(&conf, 0, sizeof conf);
	if ((rc = rte_eth_dev_configure(port, q, q, &conf)) != 0)
		return rc;
	for (uint16_t i = 0; i < q; i++)
		if ((rc = rte_eth_rx_queue_setup(port, i, RING_SIZE, socket, NULL, pool)) < 0 ||
		    (rc = rte_eth_tx_queue_setup(port, i, RING_SIZE, socket, NULL)) < 0)
			return rc;
	return rte_eth_dev_start(port);
}

/* Opens the log: DIR/fwd-PID.timeline, or the library's default path; a
 * log that cannot be made leaves the forwarder running, logging nothing. */
static tl_log *open_log(const char *dir, uint64_t entries, int rate)
{
	char path[4096];
	tl_options o = { .name = "fwd", .entries = entries };
	tl_error err;
	tl_log *log;
	if (dir) {
		if (mkdir(dir, 0700) && errno != EEXIST)
			fprintf(stderr, "fwd: %s: %s\n", dir, strerror(errno));
		snprintf(path, sizeof path, "%s/fwd-%d.timeline", dir, (int)getpid());
	}
	if (!(log = tl_open(dir ? path : NULL, &o, &err))) {
		fprintf(stderr, "fwd: %s (running without a log)\n", err.msg);
		log = tl_disabled();
	}
	tl_set_rate(log, (unsigned)rate);
	return log;
}

/* Each port's events, registered with the attribute port=N. */
static void register_events(uint16_t nports)
{
	char attrs[32];
	tl_error err;
	for (uint16_t p = 0; p < nports; p++) {
		snprintf(attrs, sizeof attrs, "port=%u", p);
		if (fwd_events_register(S.log, &S.ev[p], attrs, &err) != TL_OK)
			fprintf(stderr, "fwd: %s\n", err.msg);
	}
}

static void report(unsigned workers, double seconds)
{
	uint64_t total = 0;
	double cpu = 0;
	unsigned lcore;
	RTE_LCORE_FOREACH_WORKER(lcore) {
		const struct worker *w = &S.w[lcore];
		printf("fwd: lcore %u lcore-worker-%u port %u->%u: %lu breaths, %lu packets, %lu sent, "
		       "%.2f cycles per packet, %.3f s of CPU%s\n", lcore, lcore, w->rx_port,
		       w->tx_port, (unsigned long)w->breaths, (unsigned long)w->packets,
		       (unsigned long)w->sent, w->packets ? (double)w->cycles / (double)w->packets : 0.0,
		       w->cpu, w->attach_status ? " (no lane: logged nothing)" : "");
		total += w->packets;
		cpu += w->cpu;
	}
	printf("fwd: %u lcores, %lu packets in %.3f s, %.2f Mpps, %.2f M packets per CPU second, "
	       "TSC %lu Hz\n", workers, (unsigned long)total, seconds,
	       seconds > 0 ? (double)total / seconds / 1e6 : 0.0, cpu > 0 ? (double)total / cpu / 1e6 : 0.0,
	       (unsigned long)rte_get_tsc_hz());
	if (S.log != tl_disabled())
		printf("fwd: log %s\n", tl_path(S.log));
	fflush(stdout);
}

/* The options after EAL's into S; the log's directory, entries and rate. */
static int parse_options(int argc, char **argv, double *secs, const char **dir,
			 uint64_t *entries, int *rate)
{
	uint64_t v;
	char *end;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":s:n:w:b:d:r:e:h", options, NULL)) != -1) {
		switch (c) {
		case 's':
			*secs = strtod(optarg, &end);
			if (end == optarg || *end || !(*secs > 0) || *secs > 1e6)
				return fail("--seconds takes a positive number", optarg);
			break;
		case 'n':
			if (number(optarg, &S.max_breaths)) return fail("--breaths takes a number", optarg);
			break;
		case 'w':
			if (number(optarg, &S.work) || S.work > 1000000)
				return fail("--work takes a number up to 1000000", optarg);
			break;
		case 'b':
			if (number(optarg, &v) || !v || v > 256) return fail("--burst takes 1 to 256", optarg);
			S.burst = (unsigned)v;
			break;
		case 'd': *dir = optarg; break;
		case 'e':
			if (number(optarg, entries)) return fail("--entries takes a power of two", optarg);
			break;
		case 'r':
			if ((*rate = tl_rate_parse(optarg)) < 0)
				return fail("--rate takes all, 1 to 9, off or auto", optarg);
			break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		case ':':
			return fail("option requires an argument", argv[optind - 1]);
		default:
			return fail("unknown option", argv[optind - 1]);
		}
	}
	if (optind != argc)
		return fail("unexpected argument", argv[optind]);
	return 0;
}

/* Gives worker lcores their ports and queues: worker k receives from port
 * k mod P, queue k / P, and sends from the next port's queue of that
 * number. Returns the queues each port needs. */
static uint16_t assign(uint16_t nports, unsigned workers)
{
	unsigned lcore, k = 0;
	RTE_LCORE_FOREACH_WORKER(lcore) {
		struct worker *w = &S.w[lcore];
		w->lcore = lcore;
		w->rx_port = (uint16_t)(k % nports);
		w->tx_port = (uint16_t)((k + 1) % nports);
		w->queue = (uint16_t)(k / nports);
		k++;
	}
	return (uint16_t)((workers + nports - 1) / nports);
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The main lcore waits for every worker's lane (creating one takes tens
 * of ms, more on a loaded machine), starts them, and waits SECS (or a
 * signal, or every lcore's --breaths). Returns when it started them. */
static double wait_run(unsigned workers, double secs)
{
	double t0, end;
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) < workers && !stop)
		usleep(1000);
	t0 = now();
	end = t0 + secs;
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	while (!stop && now() < end) {
		unsigned lcore, running = 0;
		RTE_LCORE_FOREACH_WORKER(lcore)
			running += rte_eal_get_lcore_state(lcore) == RUNNING;
		if (!running)
			break;
		usleep(10000);   /* 100 wakeups a second: the main lcore may share a CPU */
	}
	stop = 1;
	return t0;
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	uint64_t entries = 0;
	double secs = 1, t0;
	int rate = TL_RATE_AUTO, n;
	unsigned workers, lcore;
	uint16_t nports, q;
	struct rte_mempool *pool;
	if ((n = rte_eal_init(argc, argv)) < 0) {
		fprintf(stderr, "fwd: cannot initialise EAL: %s\n", rte_strerror(rte_errno));
		return 2;
	}
	argv[n] = argv[0];
	if ((n = parse_options(argc - n, argv + n, &secs, &dir, &entries, &rate)) != 0)
		return eal_cleanup(), n;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	workers = rte_lcore_count() - 1;
	nports = rte_eth_dev_count_avail();
	if (!workers || !nports || nports > MAX_PORTS) {
		fprintf(stderr, "fwd: needs a worker lcore and 1 to %d ports (-l, --vdev): "
			"%u workers, %u ports\n", MAX_PORTS, workers, nports);
		return eal_cleanup(), 2;
	}
	q = assign(nports, workers);
	pool = rte_pktmbuf_pool_create("fwd_pool", MBUFS_PER_QUEUE * nports * q, MBUF_CACHE, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	if (!pool) {
		fprintf(stderr, "fwd: cannot create the mbuf pool: %s\n", rte_strerror(rte_errno));
		return eal_cleanup(), 2;
	}
	for (uint16_t p = 0; p < nports; p++)
		if ((n = port_init(p, q, pool)) != 0) {
			fprintf(stderr, "fwd: port %u: cannot start: %s\n", p, rte_strerror(-n));
			return eal_cleanup(), 2;
		}
	S.log = open_log(dir, entries, rate);   /* one log, before the lcores launch */
	register_events(nports);
	RTE_LCORE_FOREACH_WORKER(lcore)
		rte_eal_remote_launch(worker_main, &S.w[lcore], lcore);
	t0 = wait_run(workers, secs);
	rte_eal_mp_wait_lcore();
	report(workers, now() - t0);
	tl_close(S.log);
	for (uint16_t p = 0; p < nports; p++) {
		rte_eth_dev_stop(p);
		rte_eth_dev_close(p);
	}
	eal_cleanup();
	return 0;
}
