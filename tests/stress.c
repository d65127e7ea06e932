/* stress.c: the writer and the checkers behind tests/torture.sh and the soak:
 * logs self-checking events flat out, then proves what a reader got back is
 * whole and in order. Usage: stress write|soak|check|check-csv (see usage). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>
#include "timeline.h"

static const char def[] = "4,6|stress: i a b c d e\nA self-checking event: every argument follows from i.";

/* Event I's arguments: any torn or mixed entry breaks one of them. */
static void args_of(uint64_t i, uint64_t a[6])
{
	a[0] = i;
	a[1] = ~i;
	a[2] = i * 0x9e3779b97f4a7c15ull;
	a[3] = i ^ 0x5555555555555555ull;
	a[4] = i + 1;
	a[5] = i << 7 | i >> 57;
}

static int whole(const uint64_t got[6])
{
	uint64_t want[6];
	args_of(got[0], want);
	return !memcmp(got, want, sizeof want);
}

static tl_log *open_log(const char *path, uint16_t *id)
{
	tl_options o = { .name = "stress" };   /* the default ring: 2^20 entries */
	tl_error err;
	tl_log *log = tl_open(path, &o, &err);
	if (!log || tl_intern(log, def, id, &err) != TL_OK) {
		fprintf(stderr, "stress: %s\n", err.msg);
		exit(1);
	}
	tl_set_rate(log, 1);
	return log;
}

/* Logs flat out for SECONDS. */
static int cmd_write(const char *path, double seconds)
{
	uint16_t id;
	tl_log *log = open_log(path, &id);
	struct timespec t0, t;
	uint64_t i = 0, a[6];
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		for (int k = 0; k < 4096; k++, i++) {
			args_of(i, a);
			tl_append(log, id, a[0], a[1], a[2], a[3], a[4], a[5]);
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 >= seconds)
			break;
	}
	printf("write: %s: %llu events\n", path, (unsigned long long)i);
	tl_close(log);
	return 0;
}

/* Writes COUNT events, then checks the cursor, the wrap count and the ring. */
static int cmd_soak(const char *path, uint64_t count)
{
	uint16_t id;
	tl_log *log = open_log(path, &id);
	uint64_t a[6], t0, ticks, n = 0, torn = 0, prev = 0;
	tl_reader *r;
	tl_info in;
	tl_entry e;
	tl_error err;
	t0 = __rdtsc();
	for (uint64_t i = 0; i < count; i++) {
		args_of(i, a);
		tl_append(log, id, a[0], a[1], a[2], a[3], a[4], a[5]);
	}
	ticks = __rdtsc() - t0;
	tl_close(log);
	if (!(r = tl_reader_open(path, &err))) {
		fprintf(stderr, "stress: %s\n", err.msg);
		return 1;
	}
	tl_reader_info(r, &in);
	while (tl_reader_next(r, &e)) {
		torn += !whole(e.args) || e.seq != e.args[0] || (n && e.seq != prev + 1);
		prev = e.seq;
		n++;
	}
	printf("soak: %llu events, %.2f ticks each; cursor %llu, wrapped %llu times; "
	       "%llu entries in the ring checked, %llu torn or out of order, oldest %llu\n",
	       (unsigned long long)count, (double)ticks / (double)(count ? count : 1),
	       (unsigned long long)in.cursor, (unsigned long long)(in.cursor / in.entries),
	       (unsigned long long)n, (unsigned long long)torn,
	       (unsigned long long)(n ? prev + 1 - n : 0));
	tl_reader_close(r);
	/* exact: the cursor counts every call, the ring holds the last entries */
	return in.cursor == count && n == (count < in.entries ? count : in.entries) && !torn &&
	       (!n || prev == count - 1) ? 0 : 1;
}

/* Reads each log: every entry whole, seq = i, strictly increasing. */
static int cmd_check(int argc, char **argv)
{
	int bad = 0;
	for (int f = 0; f < argc; f++) {
		tl_error err;
		tl_reader *r = tl_reader_open(argv[f], &err);
		tl_entry e;
		uint64_t n = 0, torn = 0, disorder = 0, prev = 0;
		if (!r) {
			fprintf(stderr, "stress: %s\n", err.msg);
			bad = 1;
			continue;
		}
		while (tl_reader_next(r, &e)) {
			torn += !whole(e.args) || e.seq != e.args[0];
			disorder += n && e.seq <= prev;
			prev = e.seq;
			n++;
		}
		printf("check: %s: %llu entries, %llu torn, %llu out of order, %llu skipped\n", argv[f],
		       (unsigned long long)n, (unsigned long long)torn, (unsigned long long)disorder,
		       (unsigned long long)tl_reader_skipped(r));
		bad |= torn || disorder;
		tl_reader_close(r);
	}
	return bad;
}

/* Reads `timeline dump -f csv` output of stress logs on stdin: the columns
 * file,seq,tsc,time,cpu,numa,event,attrs,arg0..arg5,argnames. */
static int cmd_check_csv(void)
{
	char *line = NULL;
	size_t cap = 0;
	uint64_t n = 0, torn = 0, disorder = 0, prev = 0;
	ssize_t len;
	if (getline(&line, &cap, stdin) < 0 || strncmp(line, "file,seq,tsc,", 13)) {
		fprintf(stderr, "stress: check-csv: no CSV header on stdin\n");
		return 1;
	}
	while ((len = getline(&line, &cap, stdin)) > 0) {
		/* the file is quoted and ours has no quote in it: skip to its end */
		char *p = line[0] == '"' ? strchr(line + 1, '"') : NULL, *q;
		uint64_t seq, a[6];
		int ok = p && p[1] == ',';
		if (ok) {
			seq = strtoull(p + 2, &q, 10);
			for (int c = 0; ok && c < 5; c++)   /* tsc,time,cpu,numa,event,attrs */
				ok = (q = strchr(q + 1, ',')) != NULL;
			ok = ok && (q = strchr(q + 1, ',')) != NULL;
			for (int k = 0; ok && k < 6; k++) {
				errno = 0;
				a[k] = strtoull(q + 1, &q, 10);
				ok = !errno && *q == ',';
			}
		}
		if (!ok || !whole(a) || seq != a[0])
			torn++;
		else {
			disorder += n && seq <= prev;
			prev = seq;
		}
		n++;
	}
	free(line);
	printf("check-csv: %llu rows, %llu torn, %llu out of order\n", (unsigned long long)n,
	       (unsigned long long)torn, (unsigned long long)disorder);
	return torn || disorder;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "write"))
		return cmd_write(argv[2], atof(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "soak"))
		return cmd_soak(argv[2], strtoull(argv[3], NULL, 10));
	if (argc >= 3 && !strcmp(argv[1], "check"))
		return cmd_check(argc - 2, argv + 2);
	if (argc == 2 && !strcmp(argv[1], "check-csv"))
		return cmd_check_csv();
	fprintf(stderr, "usage: stress write LOG SECONDS | soak LOG COUNT | check LOG... | check-csv\n");
	return 2;
}
