/* seeds.c: writes the harnesses' seed corpora into DIR/<harness>/: small
 * logs of ours (plain, wrapped, with attributes), small Snabb v2 and v3
 * files, their zstd copies, definitions and events files, and summaries
 * (timeline-summary(5)) of a small log, whole and as bare bodies. Run by
 * `make fuzz` before fuzzing; the corpora are generated, not committed.
 * native/ and snabb/ seeds lack their first 8 bytes: the harness adds them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include <math.h>
#include <pthread.h>
#include "summary.h"
#include "timeline.h"

static const char *dir;

static void put(const char *sub, const char *name, const void *data, size_t len)
{
	char p[4096];
	FILE *f;
	snprintf(p, sizeof p, "%s/%s", dir, sub);
	mkdir(p, 0755);
	snprintf(p, sizeof p, "%s/%s/%s", dir, sub, name);
	if (!(f = fopen(p, "wb")) || fwrite(data, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "seeds: %s: cannot write\n", p);
		exit(1);
	}
}

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)n)) || fread(buf, 1, (size_t)n, f) != (size_t)n)
		exit(1);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The second thread of a seed of several threads: two events into LOG. */
static void *second_thread(void *log)
{
	for (uint64_t i = 0; i < 2; i++) {
		tl_set_manual_clock(log, 5000 + i, 1);
		tl_append(log, 8, i, 7, 7, 7, 7, 7);
	}
	return NULL;
}

/* A log of ours with ENTRIES slots and N events, as NAME in reader/ and
 * zstd/; with THREADS, then a second thread's two and one more of this
 * one (format 1.4: three lanes). */
static void native(const char *name, uint64_t entries, int n, int threads)
{
	char p[4096], zname[128];
	tl_options o = { .entries = entries, .strings_bytes = 256, .clock = TL_CLOCK_MANUAL,
			 .tsc_hz = 1000000000, .name = "seed", .no_prefault = 1 };
	tl_error err;
	tl_log *log;
	uint16_t ids[2];
	static const char *const defs[] = { "1,6|engine.breath: breath packets\nA breath.",
					    "5,5|app.push: in out\nA push." };
	size_t len, zlen;
	void *data, *z;
	snprintf(p, sizeof p, "%s/tmp.timeline", dir);
	if (!(log = tl_open(p, &o, &err)) || tl_register(log, defs, 2, "app=x", ids, &err)) {
		fprintf(stderr, "seeds: %s\n", err.msg);
		exit(1);
	}
	for (int i = 0; i < n; i++) {
		tl_set_manual_clock(log, 1000 + 10 * (uint64_t)i, (uint16_t)(i % 3));
		tl_append(log, ids[i % 2], (uint64_t)i, 2, 3, 4, 5, 6);
	}
	if (threads) {   /* a second thread: lane 1, and this one's lane 2 after it */
		pthread_t th;
		pthread_create(&th, NULL, second_thread, log);
		pthread_join(th, NULL);
		tl_append(log, ids[0], 99, 2, 3, 4, 5, 6);
	}
	tl_close(log);
	data = slurp(p, &len);
	unlink(p);
	put("native", name, (char *)data + 8, len - 8);   /* the harness adds the magic */
	put("zstd", name, data, len);
	z = malloc(ZSTD_compressBound(len));
	zlen = ZSTD_compress(z, ZSTD_compressBound(len), data, len, 3);
	snprintf(zname, sizeof zname, "%s.zst", name);
	put("zstd", zname, z, zlen);
	free(z);
	free(data);
}

/* The definition of MSGID, for the engine: the reader's. */
static const tl_def *def_of(void *r, uint16_t msgid)
{
	return tl_reader_def(r, msgid);
}

/* Summaries of a small log of breaths and pushes, read into an engine made
 * with K's options (0: lags; 1: --per packets --bucket): summary/ gets the
 * whole file (first byte 1) and its body uncompressed (first byte 0), as
 * the harness takes them. */
static void summary(const char *log, int k)
{
	static const double edges[] = { 0, 1, 16, INFINITY };
	struct an_options o = { .by = AN_SUMMARY_KEYS, .pairs = an_default_pairs, .npairs = 3 };
	struct an_file f = { .path = log, .process = "seed[1]", .host = "host", .group = "group",
			     .tsc_hz = 1000000000, .written = 150, .lost = 4 };
	const char *fixed = k ? "--per packets --bucket packets=0,1,16,inf" : "";
	unsigned char *file, *body;
	size_t n, raw;
	tl_error err;
	tl_reader *r = tl_reader_open(log, &err);
	tl_entry e;
	struct an *a;
	char name[32];
	if (k)
		o.per = "packets", o.bucket_arg = "packets", o.edges = edges, o.nedges = 4;
	if (!r || !(a = an_new(&o)))
		exit(1);
	an_file_begin(a, &f, def_of, r);
	while (tl_reader_next(r, &e))
		an_entry(a, &e);
	an_file_end(a);
	if (an_summary_write(a, fixed, &file, &n) < 0)
		exit(1);
	raw = (size_t)file[24] | (size_t)file[25] << 8 | (size_t)file[26] << 16;
	if (!(body = malloc(raw + 1)) || ZSTD_decompress(body + 1, raw, file + 32, n - 32) != raw)
		exit(1);
	body[0] = 0;
	snprintf(name, sizeof name, "body%d", k);
	put("summary", name, body, raw + 1);
	file = realloc(file, n + 1);
	memmove(file + 1, file, n);
	file[0] = 1;
	snprintf(name, sizeof name, "file%d", k);
	put("summary", name, file, n + 1);
	free(file);
	free(body);
	an_free(a);
	tl_reader_close(r);
}

/* A log of N breaths, each with two pushes of app lookup, for summary(). */
static void breaths(int n)
{
	char p[4096];
	tl_options o = { .entries = 256, .strings_bytes = 1024, .clock = TL_CLOCK_MANUAL,
			 .tsc_hz = 1000000000, .name = "seed", .no_prefault = 1 };
	static const char *const defs[] = {
		"1,6|engine.breath_start: breath totalpackets totalbytes\nA breath.",
		"1,6|engine.breath_end: breath totalpackets totalbytes\nIts end.",
		"5,5|app.push: inpackets\nPush.", "5,5|app.pushed: inpackets\nPushed.",
	};
	uint16_t ids[4];
	uint64_t t = 1000, pk = 0;
	tl_error err;
	tl_log *log;
	snprintf(p, sizeof p, "%s/breaths.timeline", dir);
	if (!(log = tl_open(p, &o, &err)) || tl_register(log, defs, 2, NULL, ids, &err) ||
	    tl_register(log, defs + 2, 2, "app=lookup", ids + 2, &err))
		exit(1);
	for (int b = 0; b < n; b++) {
		tl_set_manual_clock(log, t += 100, (uint16_t)(b % 2));
		tl_append(log, ids[0], (uint64_t)b, pk, pk * 60, 0, 0, 0);
		for (int i = 0; i < 2; i++) {
			tl_set_manual_clock(log, t += 7, (uint16_t)(b % 2));
			tl_append(log, ids[2], pk, 0, 0, 0, 0, 0);
			pk += (uint64_t)(b * 7 + i) % 33;
			tl_set_manual_clock(log, t += 40 + (uint64_t)b % 13, (uint16_t)(b % 2));
			tl_append(log, ids[3], pk, 0, 0, 0, 0, 0);
		}
		tl_set_manual_clock(log, t += 20, (uint16_t)(b % 2));
		tl_append(log, ids[1], (uint64_t)b, pk, pk * 60, 0, 0, 0);
	}
	tl_close(log);
	summary(p, 0);
	summary(p, 1);
	unlink(p);
}

/* A Snabb file of version MAJOR with 8 slots, 5 used, wrapped after 3. */
static void snabb(const char *name, unsigned major)
{
	unsigned char buf[64 + 8 * 64 + 64];
	uint64_t magic = 0xa3ff7223441d0001ull;
	uint16_t mj = (uint16_t)major, mn = 0;
	uint32_t log_bytes = 8 * 64, str_bytes = 64;
	static const char table[64] = "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0" "9,9|x.y: a b\nAn event.";
	memset(buf, 0, sizeof buf);
	memcpy(buf, &magic, 8);
	memcpy(buf + 8, &mj, 2);
	memcpy(buf + 10, &mn, 2);
	memcpy(buf + 12, &log_bytes, 4);
	memcpy(buf + 16, &str_bytes, 4);
	for (int s = 0; s < 5; s++) {
		unsigned char *e = buf + 64 + (size_t)s * 64;
		double t = (double)(s < 3 ? 500 + s : 100 + s), a = s * 1.5;
		uint64_t ti = (uint64_t)t, ai = (uint64_t)s;
		uint16_t msgid = 1;
		if (major >= 3) {
			memcpy(e, &t, 8);
			memcpy(e + 16, &a, 8);
		} else {
			memcpy(e, &ti, 8);
			memcpy(e + 16, &ai, 8);
		}
		memcpy(e + 8, &msgid, 2);
	}
	memcpy(buf + 64 + log_bytes, table, 64);
	put("snabb", name, buf + 8, sizeof buf - 8);   /* the harness adds the magic */
	put("zstd", name, buf, sizeof buf);
}

int main(int argc, char **argv)
{
	static const char *const defs[] = {
		"1,6|engine.breath_start: breath totalpackets totalbytes totaletherbits\nA breath.",
		"5,5|app.push app=lookup: inpackets inbytes outpackets outbytes\nPush.",
		"7,3|packet.batch: packets bytes", "3|old.form: a",
	};
	static const char events[] =
		"# an events file\n"
		"1,6|breath_start: breath totalpackets\nA breath begins.\n\n"
		"5,5|push: inpackets inbytes\r\nThe app pushes.\r\n\n"
		"0,9|started: cpu numa\nLogged once.\n";
	if (argc != 2) {
		fprintf(stderr, "usage: seeds DIR\n");
		return 2;
	}
	dir = argv[1];
	mkdir(dir, 0755);
	native("small.timeline", 4, 3, 0);
	native("wrapped.timeline", 4, 11, 0);
	native("empty.timeline", 2, 0, 0);
	native("lanes.timeline", 4, 5, 1);
	snabb("snabb3.timeline", 3);
	snabb("snabb2.timeline", 2);
	for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++) {
		char name[32];
		snprintf(name, sizeof name, "def%zu", i);
		put("defs", name, defs[i], strlen(defs[i]));
	}
	put("events", "engine.events", events, sizeof events - 1);
	breaths(30);
	return 0;
}
