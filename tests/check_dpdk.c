/* check_dpdk.c: the DPDK forwarder (examples/dpdk) as its user sees it:
 * two lcores logging into one log opened in main(), each lcore's packets
 * and turns in the log equal to the forwarder's own counts, and its cycles
 * per packet within 5% of the forwarder's own TSC accounting. Run only
 * where libdpdk was found (TIMELINE_FWD set; main.c says so otherwise),
 * with net_null ports and no hugepages, under timeout(1). */
#define _GNU_SOURCE
#include <csv.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util.h"

#define LCORES 2
/* Long turns (bursts of 256, 100 rounds of work a packet): a preemption
 * of a loaded machine that falls between the forwarder's TSC read and the
 * log's timestamp (tens of cycles each turn) then moves the figures apart
 * by a few parts in 10,000, where turns of 32 light packets moved them 5%
 * (seen with the load at 10). At most BREATHS turns of 6 entries: 180,000
 * in a ring of 262,144, never wrapped, whatever the machine's speed. */
#define BREATHS 30000

/* What the forwarder printed for lcore N, or what the log says of its thread. */
struct lcore {
	unsigned id;
	char name[16];
	uint64_t breaths, packets, cycles, open_tsc;
	int open;
	double cpp;   /* cycles per packet */
};

/* The EAL options of a run on this process's two lowest CPUs (the main
 * lcore beside worker 1), with a runtime directory of its own, so that
 * runs of other trees at the same time do not meet. */
static const char *eal_options(void)
{
	static char buf[512];
	cpu_set_t set;
	int cpus[2] = { -1, -1 }, k = 0;
	ck_assert_int_eq(sched_getaffinity(0, sizeof set, &set), 0);
	for (int c = 0; c < CPU_SETSIZE && k < 2; c++)
		if (CPU_ISSET(c, &set))
			cpus[k++] = c;
	if (k == 1)
		cpus[1] = cpus[0];
	snprintf(buf, sizeof buf, "--no-huge --no-pci -m 256 --no-shconf --no-telemetry "
		 "--file-prefix=tltest%d --log-level=error --lcores=0@%d,1@%d,2@%d "
		 "--vdev=net_null0 --vdev=net_null1", (int)getpid(), cpus[0], cpus[0], cpus[1]);
	return buf;
}

/* The runtime directory EAL makes for this process's --file-prefix:
 * /var/run/dpdk/PREFIX for root, else under $XDG_RUNTIME_DIR or /tmp. */
static const char *runtime_dir(void)
{
	const char *x = getenv("XDG_RUNTIME_DIR");
	return test_str("%s/dpdk/tltest%d", geteuid() == 0 ? "/var/run" : x && *x ? x : "/tmp",
			(int)getpid());
}

/* Runs the forwarder with ARGS into TEST_DIR/logs; its stdout (caller frees). */
static char *forward(const char *args)
{
	char *cmd = xasprintf("timeout -k 5 60 %s %s -- -d %s/logs %s", getenv("TIMELINE_FWD"),
			      eal_options(), test_dir, args), *out, *err;
	int rc = run(cmd, &out, &err);
	ck_assert_msg(rc == 0, "%s: exit %d: %s%s", cmd, rc, out, err);
	free(cmd);
	free(err);
	return out;
}

/* The forwarder's own line for each of its lcores, in lcore order. */
static void own_counts(const char *out, struct lcore *own)
{
	const char *p = out;
	for (int i = 0; i < LCORES; i++) {
		unsigned long b, n, sent;
		ck_assert_msg((p = strstr(p, "fwd: lcore ")) != NULL, "lcore %d missing in: %s", i, out);
		ck_assert_msg(sscanf(p, "fwd: lcore %u %15s port %*u->%*u: %lu breaths, %lu packets, "
				     "%lu sent, %lf cycles per packet", &own[i].id, own[i].name, &b, &n,
				     &sent, &own[i].cpp) == 6, "unexpected: %s", p);
		ck_assert_msg(!strstr(p, "no lane"), "%s", p);
		own[i].breaths = b;
		own[i].packets = n;
		ck_assert_uint_eq(sent, n);   /* net_null takes every packet */
		p++;
	}
}

/* The log's file in TEST_DIR/logs, the only one. */
static char *log_path(void)
{
	char *cmd = xasprintf("ls %s/logs/fwd-*.timeline", test_dir), *out;
	ck_assert_int_eq(run(cmd, &out, NULL), 0);
	ck_assert_msg(strchr(out, '\n') == strrchr(out, '\n'), "more than one log: %s", out);
	*strchr(out, '\n') = 0;
	free(cmd);
	return out;
}

/* The name of each thread index, from `timeline info`'s lines
 * "  I  NAME[TID]: N written, ...". */
static void thread_names(const char *path, struct lcore *got)
{
	char *cmd = xasprintf("%s info %s", timeline_bin(), path), *out;
	const char *p;
	ck_assert_int_eq(run(cmd, &out, NULL), 0);
	ck_assert_msg((p = strstr(out, "threads      2, a ring each\n")) != NULL, "%s", out);
	for (int i = 0; i < LCORES; i++) {
		unsigned idx;
		p = strchr(p, '\n') + 1;
		ck_assert_msg(sscanf(p, " %u %15[^[]", &idx, got[i].name) == 2 && idx == (unsigned)i,
			      "thread %d: %s", i, p);
	}
	free(cmd);
	free(out);
}

/* The loop's pairs of each thread, from the rows of `timeline dump -f csv`:
 * event (field 6), tsc (2), packets (arg1, 9), thread (15). */
struct dump {
	struct lcore *lc;
	int field;
	char event[64];
	uint64_t tsc, packets;
	unsigned thread;
	long rows;
};

static void on_field(void *s, size_t len, void *arg)
{
	struct dump *d = arg;
	char buf[64];
	snprintf(buf, sizeof buf, "%.*s", (int)len, (const char *)s);
	if (d->field == 6)
		snprintf(d->event, sizeof d->event, "%s", buf);
	else if (d->field == 2)
		d->tsc = strtoull(buf, NULL, 10);
	else if (d->field == 9)
		d->packets = strtoull(buf, NULL, 10);
	else if (d->field == 15)
		d->thread = (unsigned)strtoul(buf, NULL, 10);
	d->field++;
}

static void on_row(int c, void *arg)
{
	struct dump *d = arg;
	struct lcore *l;
	(void)c;
	if (d->rows++ > 0) {
		tl_check(d->field == 16 && d->thread < LCORES, "row %ld: %d fields, thread %u",
			 d->rows, d->field, d->thread);
		l = &d->lc[d->thread];
		if (!strcmp(d->event, "fwd.loop_begin")) {
			l->open_tsc = d->tsc;
			l->open = 1;
		} else if (!strcmp(d->event, "fwd.loop_end") && l->open) {
			l->cycles += d->tsc - l->open_tsc;
			l->packets += d->packets;
			l->breaths++;
			l->open = 0;
		}
	}
	d->field = 0;
}

static void log_counts(const char *path, struct lcore *got)
{
	char *cmd = xasprintf("%s dump -f csv -e 'fwd.loop_*' %s", timeline_bin(), path), *csv;
	struct csv_parser p;
	struct dump d = { .lc = got };
	ck_assert_int_eq(run(cmd, &csv, NULL), 0);
	ck_assert_int_eq(csv_init(&p, CSV_APPEND_NULL), 0);
	ck_assert_uint_eq(csv_parse(&p, csv, strlen(csv), on_field, on_row, &d), strlen(csv));
	csv_fini(&p, on_field, on_row, &d);
	csv_free(&p);
	for (int i = 0; i < LCORES; i++)
		got[i].cpp = got[i].packets ? (double)got[i].cycles / (double)got[i].packets : 0;
	free(cmd);
	free(csv);
}

/* The log's thread named NAME. */
static const struct lcore *thread_of(const struct lcore *got, const char *name)
{
	for (int i = 0; i < LCORES; i++)
		if (!strcmp(got[i].name, name))
			return &got[i];
	ck_abort_msg("no thread named %s in the log", name);
	return NULL;
}

/* `stats -f csv`'s cycles per packet of the loop pair, both lcores pooled. */
static double stats_loop_cpp(const char *path)
{
	char *cmd = xasprintf("%s stats -f csv -e 'fwd.loop_*' %s", timeline_bin(), path), *out;
	const char *p;
	double cpp;
	unsigned long pairs, units;
	ck_assert_int_eq(run(cmd, &out, NULL), 0);
	ck_assert_msg((p = strstr(out, "\n\"fwd.loop\",,\"packets\",")) != NULL, "%s", out);
	ck_assert_int_eq(sscanf(p, "\n\"fwd.loop\",,\"packets\",%lu,%lu,%lf", &pairs, &units, &cpp), 3);
	free(cmd);
	free(out);
	return cpp;
}

/* `stats --by thread -f csv`'s row of the loop pair of thread NAME (its
 * "name[tid]" key): its pairs, packets and cycles per packet. */
static void stats_of_thread(const char *path, const char *name, struct lcore *l)
{
	char *cmd = xasprintf("%s stats --by thread -f csv -e 'fwd.loop_*' %s", timeline_bin(), path),
	     *out;
	const char *p;
	unsigned long pairs, units;
	ck_assert_int_eq(run(cmd, &out, NULL), 0);
	ck_assert_msg((p = strstr(out, test_str("\n\"%s[", name))) != NULL, "%s: %s", name, out);
	ck_assert_int_eq(sscanf(strchr(p, ']'), "]\",\"packets\",%lu,%lu,%lf", &pairs, &units, &l->cpp),
			 3);
	l->breaths = pairs;
	l->packets = units;
	free(cmd);
	free(out);
}

START_TEST(test_each_lcore_logs_its_own_packets_and_cycles_into_one_log)
{
	struct lcore own[LCORES], got[LCORES];
	char *out, *path;
	double own_cycles = 0;
	uint64_t own_packets = 0;
	memset(own, 0, sizeof own);
	memset(got, 0, sizeof got);
	out = forward(test_str("-s 1 -n %d -b 256 -w 100 -r all -e 262144", BREATHS));
	own_counts(out, own);
	path = log_path();
	thread_names(path, got);
	log_counts(path, got);
	for (int i = 0; i < LCORES; i++) {
		const struct lcore *l = thread_of(got, own[i].name);
		ck_assert_str_eq(own[i].name, test_str("lcore-worker-%u", own[i].id));
		ck_assert_uint_gt(own[i].packets, 0);
		ck_assert_uint_le(own[i].breaths, BREATHS);
		ck_assert_uint_eq(l->breaths, own[i].breaths);
		ck_assert_uint_eq(l->packets, own[i].packets);
		ck_assert_msg(fabs(l->cpp / own[i].cpp - 1) <= 0.05, "%s: %.2f cycles per packet in "
			      "the log, %.2f by its own count", own[i].name, l->cpp, own[i].cpp);
		/* stats --by thread says the same of each lcore */
		struct lcore st;
		stats_of_thread(path, own[i].name, &st);
		ck_assert_uint_eq(st.breaths, own[i].breaths);
		ck_assert_uint_eq(st.packets, own[i].packets);
		ck_assert_msg(fabs(st.cpp / own[i].cpp - 1) <= 0.05, "%s: %.2f cycles per packet by "
			      "stats --by thread, %.2f by its own count", own[i].name, st.cpp, own[i].cpp);
		own_cycles += own[i].cpp * (double)own[i].packets;
		own_packets += own[i].packets;
	}
	/* and stats, pooling the two, says what the forwarder says of both */
	double cpp = stats_loop_cpp(path), want = own_cycles / (double)own_packets;
	ck_assert_msg(fabs(cpp / want - 1) <= 0.05, "stats: %.2f cycles per packet, the forwarder's "
		      "own %.2f", cpp, want);
	ck_assert_int_ne(access(runtime_dir(), F_OK), 0);
	free(out);
	free(path);
}
END_TEST

/* The forwarder refuses what it cannot run, exit 2 and one line, and
 * leaves its runtime directory behind neither way. */
START_TEST(test_the_forwarder_refuses_bad_options_with_exit_2)
{
	static const char *const bad[][2] = {
		{ "-w x", "fwd: --work takes a number up to 1000000: x" },
		{ "-b 0", "fwd: --burst takes 1 to 256: 0" },
		{ "-b 257", "fwd: --burst takes 1 to 256: 257" },
		{ "-r often", "fwd: --rate takes all, 1 to 9, off or auto: often" },
		{ "-s 0", "fwd: --seconds takes a positive number: 0" },
		{ "extra", "fwd: unexpected argument: extra" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		/* (-d: a forwarder that ran after all leaves no log at the default root) */
		char *cmd = xasprintf("timeout -k 5 60 %s %s -- -s 0.1 -d %s/logs %s",
				      getenv("TIMELINE_FWD"), eal_options(), test_dir, bad[i][0]), *err;
		ck_assert_int_eq(run(cmd, NULL, &err), 2);
		ck_assert_msg(!strncmp(err, bad[i][1], strlen(bad[i][1])) &&
			      err[strlen(bad[i][1])] == '\n', "%s: %s", bad[i][0], err);
		free(cmd);
		free(err);
	}
	ck_assert_int_ne(access(runtime_dir(), F_OK), 0);
}
END_TEST

Suite *dpdk_suite(void)
{
	Suite *s = suite_create("dpdk");
	TCase *t = tcase_create("dpdk");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_each_lcore_logs_its_own_packets_and_cycles_into_one_log);
	tcase_add_test(t, test_the_forwarder_refuses_bad_options_with_exit_2);
	suite_add_tcase(s, t);
	return s;
}
