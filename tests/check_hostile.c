/* check_hostile.c: the catalogue of hostile inputs. Each one is generated
 * here, then read by the CLI between two good logs: it must give its exact
 * one-line error and exit 2, and the good logs must still be read whole. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include "util.h"

static const char def[] = "4,6|ping: seq len port\nA packet seen.";
static char *good1, *good2;   /* two good logs in fx_dir */

/* Writes a log of 8 entries (4096-byte string table) with N pings from TSC
 * BASE on; MSGID, when nonzero, replaces the message id of the last one. */
static void write_good(const char *path, uint64_t base, int n, unsigned msgid)
{
	tl_log *log = open_manual(path, 8);
	tl_error err;
	uint16_t id;
	ck_assert_int_eq(tl_intern(log, def, &id, &err), TL_OK);
	for (int i = 0; i < n; i++) {
		tl_set_manual_clock(log, base + 100 * (uint64_t)i, (uint16_t)(1 << 12 | i));
		tl_append(log, msgid && i == n - 1 ? msgid : id, (uint64_t)i, 64, 80, 0, 0, 0);
	}
	tl_close(log);
}

static void setup(void)
{
	fx_setup();
	good1 = xasprintf("%s/good1.timeline", fx_dir);
	good2 = xasprintf("%s/good2.timeline", fx_dir);
	write_good(good1, 1000, 5, 0);
	write_good(good2, 5000, 3, 0);
}

/* What `timeline CMD GOOD1 GOOD2` prints, per command, made once a test. */
static struct { const char *cmd; char *out; } ref[8];

static void teardown(void)
{
	free(good1);
	free(good2);
	for (size_t i = 0; i < sizeof ref / sizeof *ref; i++) {
		free(ref[i].out);
		ref[i].cmd = NULL;
		ref[i].out = NULL;
	}
}

/* The output of `timeline CMD GOOD1 OK GOOD2`, which must succeed quietly;
 * with no OK, from the cache. Caller frees. */
static char *good_output(const char *cmd, const char *ok)
{
	size_t i = 0;
	char *c, *out, *err;
	if (!*ok)
		for (; i < sizeof ref / sizeof *ref && ref[i].cmd; i++)
			if (!strcmp(ref[i].cmd, cmd))
				return xasprintf("%s", ref[i].out);
	c = xasprintf("%s %s %s %s %s", timeline_bin(), cmd, good1, ok, good2);
	ck_assert_int_eq(run(c, &out, &err), 0);
	ck_assert_str_eq(err, "");
	if (!*ok && i < sizeof ref / sizeof *ref) {
		ref[i].cmd = cmd;
		ref[i].out = xasprintf("%s", out);
	}
	free(c);
	free(err);
	return out;
}

/* A copy of good1's bytes, LEN of them (the file is 4096 + 8 * 64 + 4096). */
#define GOOD_BYTES (4096 + 8 * 64 + 4096)
static unsigned char *good_bytes(void)
{
	size_t len;
	unsigned char *b = (unsigned char *)read_file(good1, &len);
	ck_assert_uint_eq(len, GOOD_BYTES);
	return b;
}

static void put64(unsigned char *b, size_t off, uint64_t v) { memcpy(b + off, &v, 8); }
static void put32(unsigned char *b, size_t off, uint32_t v) { memcpy(b + off, &v, 4); }
static void put16(unsigned char *b, size_t off, uint16_t v) { memcpy(b + off, &v, 2); }

/* Writes good1 with one change, at fx_dir/NAME; returns the path (static). */
static const char *patched(const char *name, size_t off, int width, uint64_t v)
{
	unsigned char *b = good_bytes();
	const char *p = path_in(fx_dir, name);
	if (width == 8)
		put64(b, off, v);
	else if (width == 4)
		put32(b, off, (uint32_t)v);
	else
		put16(b, off, (uint16_t)v);
	write_file(p, b, GOOD_BYTES);
	free(b);
	return p;
}

/* "timeline CMD: " before each line of LINES ("a\nb\n"); caller frees. */
static char *prefixed(const char *cmd, const char *lines)
{
	char *out = xasprintf("%s", ""), *copy = xasprintf("%s", lines), *save = NULL;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *t = xasprintf("%stimeline %s: %s\n", out, cmd, l);
		free(out);
		out = t;
	}
	free(copy);
	return out;
}

/* Runs `timeline CMD GOOD1 BAD GOOD2` with the command prefix PRE ("" or a
 * setpriv): stderr must be WANT (lines without the "timeline CMD: "), the
 * exit status RC, and stdout what `timeline CMD GOOD1 OK GOOD2` prints. */
static void check_cmd(const char *pre, const char *cmd, const char *bad, const char *ok,
		      const char *want, int rc)
{
	char *c1 = xasprintf("%s%s %s %s %s %s", pre, timeline_bin(), cmd, good1, bad, good2);
	char *name = strndup(cmd, strcspn(cmd, " ")), *w = prefixed(name, want);
	char *out1, *err1, *out2 = good_output(cmd, ok);
	ck_assert_msg(run(c1, &out1, &err1) == rc, "%s: exit status, stderr: %s", c1, err1);
	ck_assert_msg(!strcmp(err1, w), "%s:\nstderr: %s\nwanted: %s", c1, err1, w);
	ck_assert_msg(!strcmp(out1, out2), "%s: the good logs' output changed:\n%s\nwanted:\n%s", c1,
		      out1, out2);
	ck_assert_uint_gt(strlen(out1), 0);
	free(c1);
	free(out1);
	free(err1);
	free(out2);
	free(w);
	free(name);
}

/* A bad input that stops its own reading: every reading command reports
 * PROBLEM ("PATH: ..." is formed here) and still reads the good logs. */
static void check_fatal(const char *bad, const char *problem)
{
	static const char *const cmds[] = { "dump", "info", "merge", "stats", "dump -f csv" };
	char *want = xasprintf("%s: %s\n", bad, problem);
	for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
		check_cmd("", cmds[i], bad, "", want, 2);
	free(want);
}

/* A damaged input that is still read: PROBLEM is reported, exit 2, and the
 * output of dump, as text and JSON lines, is exactly what each file alone gives. */
static void check_damaged(const char *bad, const char *problem)
{
	static const char *const cmds[] = { "dump", "dump -f json" };
	for (size_t i = 0; i < 2; i++) {
		char *c = xasprintf("%s %s %s %s %s", timeline_bin(), cmds[i], good1, bad, good2);
		char *w = xasprintf("timeline dump: %s: %s\n", bad, problem), *out, *err;
		char *o1, *o2, *o3, *e;
		char *c1 = xasprintf("%s %s %s", timeline_bin(), cmds[i], good1);
		char *c2 = xasprintf("%s %s %s", timeline_bin(), cmds[i], bad);
		char *c3 = xasprintf("%s %s %s", timeline_bin(), cmds[i], good2), *all;
		ck_assert_int_eq(run(c, &out, &err), 2);
		ck_assert_str_eq(err, w);
		ck_assert_int_eq(run(c1, &o1, NULL), 0);
		ck_assert_int_eq(run(c2, &o2, &e), 2);
		ck_assert_int_eq(run(c3, &o3, NULL), 0);
		all = xasprintf("%s%s%s", o1, o2, o3);
		ck_assert_str_eq(out, all);
		free(c); free(w); free(out); free(err); free(o1); free(o2); free(o3); free(e);
		free(c1); free(c2); free(c3); free(all);
	}
}

/* The first CUT[i] bytes of the LEN of B, each a file read as a fatal input:
 * shorter than HEADER bytes, not a log; else truncated, as KIND's header says. */
static void check_cuts(const unsigned char *b, size_t len, const size_t *cut, size_t ncut,
		       size_t header, const char *kind)
{
	for (size_t i = 0; i < ncut; i++) {
		char name[32], *problem;
		const char *p;
		snprintf(name, sizeof name, "%scut%zu.timeline", *kind ? "s" : "", cut[i]);
		p = path_in(fx_dir, name);
		write_file(p, b, cut[i]);
		problem = cut[i] < header
			? xasprintf("not a timeline log (%zu bytes, shorter than a header)", cut[i])
			: xasprintf("truncated: %sheader says %zu bytes, file has %zu", kind, len, cut[i]);
		check_fatal(p, problem);
		free(problem);
	}
}

/* ------------------------------------------------------------------------
 * Our format
 * ------------------------------------------------------------------------ */

START_TEST(test_zero_length_file)
{
	const char *p = path_in(fx_dir, "empty.timeline");
	write_file(p, "", 0);
	check_fatal(p, "not a timeline log (0 bytes, shorter than a header)");
}
END_TEST

START_TEST(test_truncated_at_every_section_boundary)
{
	/* inside the magic, the first line, the header, the ring, the strings */
	static const size_t cut[] = { 1, 8, 63, 64, 4095, 4096, 4096 + 64, 4096 + 8 * 64 - 1,
				      4096 + 8 * 64, GOOD_BYTES - 16, GOOD_BYTES - 1 };
	unsigned char *b = good_bytes();
	check_cuts(b, GOOD_BYTES, cut, sizeof cut / sizeof *cut, 4096, "");
	free(b);
}
END_TEST

START_TEST(test_wrong_magic)
{
	check_fatal(patched("magic.timeline", 0, 2, 0x5489 ^ 0x0100),
		    "not a timeline log (bad magic)");
	check_fatal(patched("magic2.timeline", 4, 4, 0x0a1a0a0a), "not a timeline log (bad magic)");
}
END_TEST

START_TEST(test_future_major_version_is_refused_future_minor_is_read)
{
	const char *p;
	check_fatal(patched("v2.timeline", 8, 2, 2),
		    "format version 2.5 is not supported (this reader reads 1.x)");
	p = patched("v1.9.timeline", 10, 2, 9);   /* additions a 1.0 reader may ignore */
	check_cmd("", "dump", p, good1, "", 0);
}
END_TEST

START_TEST(test_sizes_that_overflow_32_and_64_bits)
{
	check_fatal(patched("e32.timeline", 24, 8, 1ull << 32),
		    "damaged header (ring of 4294967296 entries)");
	/* 2^58 entries of 64 bytes are 2^64 bytes: 0 when multiplied in 64 bits */
	check_fatal(patched("e58.timeline", 24, 8, 1ull << 58),
		    "damaged header (ring of 288230376151711744 entries)");
	check_fatal(patched("e64.timeline", 24, 8, UINT64_MAX), "damaged header (ring of "
		    "18446744073709551615 entries)");
	/* offsets and sizes that wrap when added */
	check_fatal(patched("sb.timeline", 48, 8, UINT64_MAX - 15), "damaged header (section offsets)");
	check_fatal(patched("so.timeline", 40, 8, UINT64_MAX - 63), "damaged header (section offsets)");
	check_fatal(patched("fb.timeline", 56, 8, UINT64_MAX - 15), "damaged header (section offsets)");
	check_fatal(patched("hb.timeline", 12, 4, UINT32_MAX), "damaged header (header or entry size)");
	check_fatal(patched("eb.timeline", 16, 4, 1u << 31), "damaged header (header or entry size)");
}
END_TEST

START_TEST(test_entry_count_that_disagrees_with_the_file_size)
{
	/* 16 entries with the offsets that go with them: 512 bytes of ring missing */
	unsigned char *b = good_bytes();
	const char *p = path_in(fx_dir, "count.timeline");
	char *problem;
	put64(b, 24, 16);
	put64(b, 72, 15);
	put64(b, 40, 4096 + 16 * 64);
	put64(b, 56, 4096 + 16 * 64 + 4096);
	write_file(p, b, GOOD_BYTES);
	problem = xasprintf("truncated: header says %d bytes, file has %d", 4096 + 16 * 64 + 4096,
			    GOOD_BYTES);
	check_fatal(p, problem);
	free(problem);
	free(b);
	/* the count and mask changed, the offsets not: the sections no longer add up */
	b = good_bytes();
	put64(b, 24, 4);
	put64(b, 72, 3);
	write_file(p = path_in(fx_dir, "count2.timeline"), b, GOOD_BYTES);
	check_fatal(p, "damaged header (section offsets)");
	free(b);
}
END_TEST

START_TEST(test_message_ids_beyond_the_table)
{
	const char *p = path_in(fx_dir, "msgid.timeline");
	write_good(p, 3000, 4, 0x7fff);   /* 0x7fff * 16 is far past 4096 bytes */
	check_damaged(p, "1 entries with a message id outside the string table");
}
END_TEST

START_TEST(test_string_table_with_no_nul)
{
	unsigned char *b = good_bytes();
	const char *p = path_in(fx_dir, "nonul.timeline");
	memset(b + 4096 + 8 * 64, 'A', 4096);
	write_file(p, b, GOOD_BYTES);
	check_damaged(p, "5 entries with a message id outside the string table");
	free(b);
}
END_TEST

START_TEST(test_cursor_beyond_what_was_written)
{
	/* every slot's sequence number disagrees with a cursor of 2^64 - 1 */
	const char *p = patched("cursor.timeline", 64, 8, UINT64_MAX);
	char *w = xasprintf("%s: 8 incomplete entries skipped\n", p);
	check_cmd("", "dump", p, "", w, 0);
	free(w);
}
END_TEST

/* ------------------------------------------------------------------------
 * Lanes (format 1.4): a log of two threads, its lane table lying
 * ------------------------------------------------------------------------ */

/* The good log of two threads: this one's 2 pings in lane 0, another
 * thread's 2 in lane 1; 4096 + 8 * 64 + 4096 bytes, the lane at 12288
 * (file_bytes to a page), 8192 long (its header and ring to a page). */
#define LANE1 12288
#define LANES_BYTES (LANE1 + 8192)

struct pings {
	tl_log *log;
	uint16_t id;
	uint64_t base;
};

static void *two_pings(void *arg)
{
	struct pings *p = arg;
	for (int i = 0; i < 2; i++) {
		tl_set_manual_clock(p->log, p->base + 100 * (uint64_t)i, 2);
		tl_append(p->log, p->id, (uint64_t)i, 64, 80, 0, 0, 0);
	}
	return NULL;
}

static unsigned char *lanes_bytes(void)
{
	const char *p = path_in(fx_dir, "lanes.timeline");
	tl_log *log = open_manual(p, 8);
	struct pings a, b;
	pthread_t th;
	unsigned char *bytes;
	size_t len;
	ck_assert_int_eq(tl_intern(log, def, &a.id, NULL), TL_OK);
	a.log = log;
	a.base = 1000;
	two_pings(&a);
	b = (struct pings){ log, a.id, 1050 };
	ck_assert_int_eq(pthread_create(&th, NULL, two_pings, &b), 0);
	pthread_join(th, NULL);
	tl_close(log);
	bytes = (unsigned char *)read_file(p, &len);
	ck_assert_uint_eq(len, LANES_BYTES);
	return bytes;
}

/* The two-thread log with one change, at fx_dir/NAME (LEN bytes of it). */
static const char *lanes_patched(const char *name, size_t off, int width, uint64_t v, size_t len)
{
	unsigned char *b = lanes_bytes();
	const char *p = path_in(fx_dir, name);
	if (width == 8)
		put64(b, off, v);
	else if (width == 4)
		put32(b, off, (uint32_t)v);
	write_file(p, b, len);
	free(b);
	return p;
}

/* `timeline dump` of the two-thread log with the u64 at OFF set to V: exit
 * 0, N lines, stderr ERR; THREADS threads. */
static void lanes_dump(const char *name, size_t off, uint64_t v, int n, const char *err,
		       unsigned threads)
{
	const char *p = lanes_patched(name, off, 8, v, LANES_BYTES);
	char *c = xasprintf("%s dump %s", timeline_bin(), p), *out, *e;
	int lines = 0;
	ck_assert_int_eq(run(c, &out, &e), 0);
	for (const char *q = out; *q; q++)
		lines += *q == '\n';
	ck_assert_msg(lines == n, "%s: %d lines:\n%s", name, lines, out);
	ck_assert_str_eq(e, err);
	ck_assert_uint_eq(info_at(p).threads, threads);
	free(c);
	free(out);
	free(e);
}

START_TEST(test_lanes_that_lie)
{
	const char *p;
	char *w;
	/* the good one reads whole: four pings, two threads */
	p = lanes_patched("ok.timeline", 0, 0, 0, LANES_BYTES);
	check_cmd("", "info", p, p, "", 0);
	ck_assert_uint_eq(info_at(p).threads, 2);
	ck_assert_uint_eq(info_at(p).cursor, 4);
	/* the count of lanes: one past the most, one past the file */
	check_fatal(lanes_patched("n256.timeline", 20, 4, 256, LANES_BYTES),
		    "damaged header (256 lanes)");
	check_fatal(lanes_patched("n2.timeline", 20, 4, 2, LANES_BYTES),
		    "truncated: header says 2 lanes, 28672 bytes, file has 20480");
	check_fatal(lanes_patched("cut.timeline", 0, 0, 0, LANE1 + 4096),
		    "truncated: header says 1 lane, 20480 bytes, file has 16384");
	check_fatal(lanes_patched("cut1.timeline", 0, 0, 0, LANES_BYTES - 1),
		    "truncated: header says 1 lane, 20480 bytes, file has 20479");
	/* the lane's header: each field checked */
	check_fatal(lanes_patched("magic.timeline", LANE1, 8, 0x31656e614c4c5488ull, LANES_BYTES),
		    "damaged lane 1 (bad magic)");
	check_fatal(lanes_patched("index.timeline", LANE1 + 8, 4, 2, LANES_BYTES),
		    "damaged lane 1 (lane number)");
	check_fatal(lanes_patched("mask.timeline", LANE1 + 72, 8, 15, LANES_BYTES),
		    "damaged lane 1 (ring size)");
	check_fatal(lanes_patched("thread.timeline", LANE1 + 12, 4, 2, LANES_BYTES),
		    "damaged lane 1 (thread)");
	check_fatal(lanes_patched("first.timeline", LANE1 + 24, 8, (1ull << 62) + 1, LANES_BYTES),
		    "damaged lane 1 (first entry)");
	/* at the edges, read: the largest first (its lane empty, the cursor
	 * below it), a lane of the thread before; a cursor below first, and one
	 * of 2^64 - 1, whose every slot disagrees: no slot taken for an entry */
	lanes_dump("first62.timeline", LANE1 + 24, 1ull << 62, 2, "", 2);
	lanes_dump("thread0.timeline", LANE1 + 12, 0, 4, "", 1);
	lanes_dump("below.timeline", LANE1 + 24, 7, 2, "", 2);
	p = path_in(fx_dir, "cursor.timeline");
	w = xasprintf("timeline dump: %s: 8 incomplete entries skipped\n", p);
	lanes_dump("cursor.timeline", LANE1 + 64, UINT64_MAX, 2, w, 2);
	free(w);
}
END_TEST

/* ------------------------------------------------------------------------
 * Snabb's format
 * ------------------------------------------------------------------------ */

/* A Snabb v3 file of N entries with timestamps TSC, one definition. */
static const char *snabb(const char *name, int n, const double *tsc, const char *table,
			 size_t tlen, size_t *len)
{
	const char *p = path_in(fx_dir, name);
	unsigned char *b;
	*len = 64 + (size_t)n * 64 + tlen;
	b = calloc(1, *len);
	put64(b, 0, 0xa3ff7223441d0001ull);
	put16(b, 8, 3);
	put32(b, 12, (uint32_t)n * 64);
	put32(b, 16, (uint32_t)tlen);
	for (int i = 0; i < n; i++) {
		double a = i;
		memcpy(b + 64 + i * 64, &tsc[i], 8);
		memcpy(b + 64 + i * 64 + 16, &a, 8);
	}
	memcpy(b + 64 + n * 64, table, tlen);
	write_file(p, b, *len);
	free(b);
	return p;
}

static const double four[4] = { 10, 20, 30, 40 };

START_TEST(test_snabb_truncated_at_every_section_boundary)
{
	static const size_t cut[] = { 1, 8, 63, 64, 128, 64 + 4 * 64 - 1, 64 + 4 * 64, 64 + 4 * 64 + 15 };
	size_t len;
	char table[32] = "0,9|x.y: a";
	unsigned char *b;
	snabb("whole.timeline", 4, four, table, sizeof table, &len);
	b = (unsigned char *)read_file(path_in(fx_dir, "whole.timeline"), &len);
	check_cuts(b, len, cut, sizeof cut / sizeof *cut, 64, "Snabb ");
	free(b);
}
END_TEST

START_TEST(test_snabb_future_version_and_sizes_that_overflow_32_bits)
{
	char table[32] = "0,9|x.y: a";
	size_t len;
	const char *p = snabb("s.timeline", 4, four, table, sizeof table, &len);
	unsigned char *b = (unsigned char *)read_file(p, &len);
	char *problem;

	put16(b, 8, 4);
	write_file(p = path_in(fx_dir, "s4.timeline"), b, len);
	check_fatal(p, "Snabb format version 4.0 is not supported (this reader reads 2 and 3)");
	put16(b, 8, 3);
	/* 64 + log + strings is 2^33 - 1: past 2^32 when added in 32 bits */
	put32(b, 12, UINT32_MAX - 63);
	put32(b, 16, UINT32_MAX);
	write_file(p = path_in(fx_dir, "s32.timeline"), b, len);
	problem = xasprintf("truncated: Snabb header says 8589934591 bytes, file has %zu", len);
	check_fatal(p, problem);
	free(problem);
	put32(b, 12, 100);
	write_file(p = path_in(fx_dir, "s100.timeline"), b, len);
	check_fatal(p, "damaged Snabb header (log of 100 bytes)");
	free(b);
}
END_TEST

START_TEST(test_snabb_full_string_table_is_read)
{
	/* the last definition fills the table to its last byte, with no NUL */
	char table[32] = "0,9|a.b: x";
	const double tsc[2] = { 100, 200 };
	size_t len;
	const char *p;
	char *c, *out, *err;
	memcpy(table + 16, "0,9|c.d: abcdefg", 16);
	p = snabb("full.timeline", 2, tsc, table, sizeof table, &len);
	{   /* entry 1 uses the second definition */
		unsigned char *b = (unsigned char *)read_file(p, &len);
		put16(b, 64 + 64 + 8, 1);
		write_file(p, b, len);
		free(b);
	}
	c = xasprintf("%s dump -f csv %s", timeline_bin(), p);
	ck_assert_int_eq(run(c, &out, &err), 0);
	ck_assert_str_eq(err, "");
	free(c);
	c = xasprintf("file,seq,tsc,time,cpu,numa,event,attrs,arg0,arg1,arg2,arg3,arg4,arg5,argnames,"
		      "thread\n"
		      "\"%s\",0,100,0,0,0,\"a.b\",\"\",0,0,0,0,0,0,\"x\",0\n"
		      "\"%s\",1,200,100,0,0,\"c.d\",\"\",1,0,0,0,0,0,\"abcdefg\",0\n", p, p);
	ck_assert_str_eq(out, c);
	free(c);
	free(out);
	free(err);
}
END_TEST

START_TEST(test_snabb_ring_with_two_breaks_in_time_order)
{
	/* a sound ring has one break (newest to oldest); this one has two */
	const double tsc[8] = { 50, 60, 70, 10, 20, 80, 90, 30 };
	char table[16] = "0,9|x.y: a";
	size_t len;
	const char *p = snabb("breaks.timeline", 8, tsc, table, sizeof table, &len);
	char *c = xasprintf("%s dump -f csv %s", timeline_bin(), p), *out, *err, *w;
	check_damaged(p, "Snabb ring out of time order (1 break beyond the wrap), read in ring order");
	/* read from the slot after the newest (90), in ring order */
	ck_assert_int_eq(run(c, &out, &err), 2);
	w = xasprintf("timeline dump: %s: Snabb ring out of time order (1 break beyond the wrap), "
		      "read in ring order\n", p);
	ck_assert_str_eq(err, w);
	free(w);
	w = xasprintf("file,seq,tsc,time,cpu,numa,event,attrs,arg0,arg1,arg2,arg3,arg4,arg5,argnames,"
		      "thread\n");
	for (int k = 0; k < 8; k++) {
		int slot = (7 + k) % 8;
		char *t = xasprintf("%s\"%s\",%d,%.0f,%.0f,0,0,\"x.y\",\"\",%d,0,0,0,0,0,\"a\",0\n", w, p,
				    slot, tsc[slot], tsc[slot] - 30, slot);
		free(w);
		w = t;
	}
	ck_assert_str_eq(out, w);
	free(c);
	free(out);
	free(err);
	free(w);
}
END_TEST

/* ------------------------------------------------------------------------
 * What a file system can hold
 * ------------------------------------------------------------------------ */

START_TEST(test_symlink_loop_in_a_directory_input)
{
	char *d = xasprintf("%s/dir", fx_dir), *loop, *up, *inside, *w;
	ck_assert_int_eq(mkdir(d, 0700), 0);
	loop = xasprintf("%s/loop", d);
	up = xasprintf("%s/up", d);
	inside = xasprintf("%s/log.timeline", d);
	ck_assert_int_eq(symlink("loop", loop), 0);   /* a link to itself */
	ck_assert_int_eq(symlink("..", up), 0);       /* a link back up the tree */
	write_good(inside, 9000, 2, 0);
	w = xasprintf("%s: %s\nnote: skipping %s: a link to a directory\n", loop, strerror(ELOOP), up);
	check_cmd("", "dump", d, inside, w, 2);
	check_cmd("", "stats", d, inside, w, 2);
	free(d);
	free(loop);
	free(up);
	free(inside);
	free(w);
}
END_TEST

START_TEST(test_fifo_named_and_in_a_directory)
{
	char *d = xasprintf("%s/dir", fx_dir), *f = xasprintf("%s/fifo", fx_dir);
	char *g = xasprintf("%s/dir/fifo", fx_dir), *w;
	ck_assert_int_eq(mkdir(d, 0700), 0);
	ck_assert_int_eq(mkfifo(f, 0600), 0);
	ck_assert_int_eq(mkfifo(g, 0600), 0);
	check_fatal(f, "not a regular file");    /* named: an error, and no hang */
	/* found in a directory: a note; the directory, which held no log,
	 * is nothing to read: an error */
	w = xasprintf("note: skipping %s: not a timeline log\n%s: no logs\n", g, d);
	check_cmd("", "dump", d, "", w, 2);
	free(d);
	free(f);
	free(g);
	free(w);
}
END_TEST

START_TEST(test_unreadable_file)
{
	const char *p = patched("locked.timeline", 0, 2, 0x5489);
	/* root reads anything: drop the capabilities that let it */
	const char *pre = geteuid() == 0 ? "setpriv --bounding-set -dac_override,-dac_read_search " : "";
	char *w = xasprintf("%s: %s\n", p, strerror(EACCES));
	ck_assert_int_eq(chmod(p, 0), 0);
	check_cmd(pre, "dump", p, "", w, 2);
	check_cmd(pre, "info", p, "", w, 2);
	check_cmd(pre, "stats", p, "", w, 2);
	free(w);
}
END_TEST

START_TEST(test_directory_of_10000_small_files_one_of_them_cut)
{
	enum { FILES = 10000, CUT = 4999 };
	tl_options o = { .entries = 2, .clock = TL_CLOCK_MANUAL, .tsc_hz = 1000000000,
			 .strings_bytes = 1024, .name = "small" };
	char *d = xasprintf("%s/many", fx_dir), *src = xasprintf("%s/small.timeline", fx_dir);
	char *c, *out, *err, *w;
	unsigned char *b;
	size_t len, lines = 0;
	tl_error e;
	uint16_t id;
	tl_log *log = tl_open(src, &o, &e);
	ck_assert_ptr_nonnull(log);
	ck_assert_int_eq(tl_intern(log, def, &id, &e), TL_OK);
	for (int k = 0; k < 3; k++) {   /* 3 into a ring of 2: 2 kept, 1 lag each */
		tl_set_manual_clock(log, 100 + 10 * (uint64_t)k, 0);
		tl_append(log, id, (uint64_t)k, 0, 0, 0, 0, 0);
	}
	tl_close(log);
	b = (unsigned char *)read_file(src, &len);
	ck_assert_uint_eq(len, 4096 + 2 * 64 + 1024);
	ck_assert_int_eq(mkdir(d, 0700), 0);
	for (int i = 0; i < FILES; i++) {
		char name[32];
		snprintf(name, sizeof name, "s%05d.timeline", i);
		write_file(path_in(d, name), b, i == CUT ? len - 1 : len);
	}
	w = xasprintf("timeline dump: %s/s%05d.timeline: truncated: header says %zu bytes, file has "
		      "%zu\n", d, CUT, len, len - 1);
	c = xasprintf("%s dump %s %s %s", timeline_bin(), good1, d, good2);
	ck_assert_int_eq(run(c, &out, &err), 2);
	ck_assert_str_eq(err, w);
	for (char *s = out; (s = strchr(s, '\n')); s++)
		lines++;
	ck_assert_uint_eq(lines, 5 + 2 * (FILES - 1) + 3);
	free(c);
	free(out);
	free(err);
	free(w);
	/* stats: one lag per small file, each of 10 cycles */
	c = xasprintf("%s stats -f csv %s", timeline_bin(), d);
	ck_assert_int_eq(run(c, &out, &err), 2);
	ck_assert_str_eq(out, "\"event\",\"n\",\"min\",\"p50\",\"p90\",\"p99\",\"p99.9\",\"max\",\"mean\","
			 "\"stddev\",\"min_ns\",\"p50_ns\",\"p90_ns\",\"p99_ns\",\"p99.9_ns\",\"max_ns\","
			 "\"mean_ns\",\"stddev_ns\"\n"
			 "\"ping\",9999,10,10,10,10,10,10,10,0,10,10,10,10,10,10,10,0\n");
	w = xasprintf("timeline stats: %s/s%05d.timeline: truncated: header says %zu bytes, file has "
		      "%zu\n", d, CUT, len, len - 1);
	ck_assert_str_eq(err, w);
	free(w);
	free(c);
	free(out);
	free(err);
	free(b);
	free(src);
	free(d);
}
END_TEST

/* ------------------------------------------------------------------------
 * zstd
 * ------------------------------------------------------------------------ */

/* Compresses LEN bytes of DATA (then EXTRA zero bytes) into PATH as one
 * frame without a content size; returns the frame in a malloc'd buffer. */
static unsigned char *zframe(const void *data, size_t len, size_t extra, size_t *zlen)
{
	ZSTD_CCtx *z = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(len + extra) + 64, pos = 0;
	unsigned char *out = malloc(cap);
	static unsigned char zeros[1 << 16];
	ZSTD_CCtx_setParameter(z, ZSTD_c_contentSizeFlag, 0);
	ZSTD_CCtx_setParameter(z, ZSTD_c_compressionLevel, 1);
	for (size_t done = 0; done < len + extra;) {
		const void *src = done < len ? (const void *)((const char *)data + done) : (const void *)zeros;
		size_t n = done < len ? len - done : (extra - (done - len) < sizeof zeros ?
						     extra - (done - len) : sizeof zeros);
		ZSTD_inBuffer in = { src, n, 0 };
		ZSTD_outBuffer o = { out, cap, pos };
		while (in.pos < in.size)
			ck_assert(!ZSTD_isError(ZSTD_compressStream2(z, &o, &in, ZSTD_e_continue)));
		pos = o.pos;
		done += n;
	}
	{
		ZSTD_inBuffer in = { NULL, 0, 0 };
		ZSTD_outBuffer o = { out, cap, pos };
		size_t left;
		do
			ck_assert(!ZSTD_isError(left = ZSTD_compressStream2(z, &o, &in, ZSTD_e_end)));
		while (left);
		pos = o.pos;
	}
	ZSTD_freeCCtx(z);
	*zlen = pos;
	return out;
}

START_TEST(test_zstd_bombs_and_cut_frames)
{
	static const char text[] = "hello, world: this is not a log at all, but it is long "
				   "enough to be compressed, 64 bytes and more\n";
	unsigned char *b = good_bytes(), *z, *f;
	size_t zlen;
	const char *p;
	char *problem;

	/* a frame whose header claims 2^62 bytes of content */
	z = zframe(b, GOOD_BYTES, 0, &zlen);
	ck_assert_uint_eq(z[4] & 0xe3, 0);   /* no content size, single segment or dictionary */
	f = malloc(zlen + 8);
	memcpy(f, z, 6);
	f[4] |= 0xc0;                        /* an 8-byte content size after the window byte */
	put64(f, 6, 1ull << 62);
	memcpy(f + 14, z + 6, zlen - 6);
	write_file(p = path_in(fx_dir, "claim.zst"), f, zlen + 8);
	check_fatal(p, "damaged zstd data: Data corruption detected");
	free(f);
	/* cut: after the magic, half way, one byte short */
	write_file(p = path_in(fx_dir, "cut4.zst"), z, 4);
	check_fatal(p, "truncated zstd data");
	write_file(p = path_in(fx_dir, "cuthalf.zst"), z, zlen / 2);
	check_fatal(p, "truncated zstd data");
	write_file(p = path_in(fx_dir, "cut1.zst"), z, zlen - 1);
	check_fatal(p, "truncated zstd data");
	free(z);

	/* a real bomb: a small log's header, then 256 MiB of zeros */
	z = zframe(b, GOOD_BYTES, 256u << 20, &zlen);
	ck_assert_uint_lt(zlen, 64 << 10);
	write_file(p = path_in(fx_dir, "bomb.zst"), z, zlen);
	problem = xasprintf("decompresses to more than the %d bytes its header gives", GOOD_BYTES);
	check_fatal(p, problem);
	free(problem);
	free(z);

	/* a header announcing 1 TiB */
	put64(b, 56, 1ull << 40);
	z = zframe(b, GOOD_BYTES, 0, &zlen);
	write_file(p = path_in(fx_dir, "tera.zst"), z, zlen);
	check_fatal(p, "its header announces 1099511627776 bytes, over the 4294967296 a compressed "
		    "input may hold");
	free(z);

	/* compressed text */
	z = zframe(text, sizeof text - 1, 0, &zlen);
	write_file(p = path_in(fx_dir, "text.zst"), z, zlen);
	check_fatal(p, "compressed, but not a timeline log");
	free(z);
	free(b);
}
END_TEST

/* ------------------------------------------------------------------------
 * Summaries (timeline-summary(5)): bodies built here, byte by byte
 * ------------------------------------------------------------------------ */

struct bytes {
	unsigned char b[1024];
	size_t n;
};

/* Appends V as LEB128. */
static void leb(struct bytes *o, uint64_t v)
{
	do {
		o->b[o->n++] = (unsigned char)((v & 0x7f) | (v >> 7 ? 0x80 : 0));
		v >>= 7;
	} while (v);
}

static void raw(struct bytes *o, const void *p, size_t n)
{
	memcpy(o->b + o->n, p, n);
	o->n += n;
}

/* Appends section TAG holding S. */
static void section(struct bytes *o, uint64_t tag, const struct bytes *s)
{
	leb(o, tag);
	leb(o, s->n);
	raw(o, s->b, s->n);
}

/* What a row holds, which each case changes: one event "x.tick" of two
 * values of 5 (bucket 4384: 5 is in [4, 8), sub-bucket 32). */
struct row {
	uint64_t key0, bucket, n, s2, gap, count;
	int nan_min, wide_key;       /* min a NaN; key0 a number of 70 bits */
};
static const struct row ROW = { 1, 0, 2, 50, 4384, 2, 0, 0 };

static void put_row(struct bytes *o, const struct row *r)
{
	static const unsigned char nan[8] = { 0, 0, 0, 0, 0, 0, 0xf8, 0x7f };
	if (r->wide_key)
		raw(o, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 10);
	else
		leb(o, r->key0);
	for (int k = 1; k < 8; k++)
		leb(o, 0);                       /* the other keys: none */
	leb(o, r->bucket);
	leb(o, 1);
	leb(o, 1000000000);                      /* hz_set, lo, hi: the good logs' 1 GHz */
	leb(o, 1000000000);
	for (int k = 0; k < 4; k++)
		leb(o, 0);                       /* cycles, units, empty, diffed */
	leb(o, r->n);
	leb(o, 0);                               /* zeros */
	if (r->nan_min) {
		leb(o, 1);
		raw(o, nan, 8);
	} else {
		leb(o, 10);                      /* min 5 */
	}
	leb(o, 10);                              /* max 5 */
	leb(o, 0);                               /* fractions */
	leb(o, 10), leb(o, 0);                   /* s1 */
	leb(o, r->s2), leb(o, 0), leb(o, 0);     /* s2 */
	for (int k = 0; k < 8; k++)
		leb(o, 0);                       /* f1, f2 */
	leb(o, 1);
	leb(o, r->gap);
	leb(o, r->count);
}

/* The body: options OPTS, the strings "x.tick" (or STR of SLEN bytes), the
 * rows section (NROWS, claimed, then row R), found with NARGS names. */
static void put_body(struct bytes *o, const char *opts, const char *str, size_t slen,
		     uint64_t nrows, const struct row *r, uint64_t nargs)
{
	struct bytes sec = { .n = 0 };
	leb(&sec, strlen(opts));
	raw(&sec, opts, strlen(opts));
	section(o, 1, &sec);
	sec.n = 0;
	leb(&sec, 1);
	leb(&sec, slen);
	raw(&sec, str, slen);
	section(o, 2, &sec);
	sec.n = 0;
	leb(&sec, nrows);
	put_row(&sec, r);
	section(o, 3, &sec);
	sec.n = 0;
	for (int k = 0; k < 4; k++)
		leb(&sec, 0);
	leb(&sec, nargs);
	for (uint64_t k = 0; k < nargs; k++)
		leb(&sec, 1);
	section(o, 6, &sec);
}

/* Writes the summary NAME: the header (MAJOR, FLAGS, the body's size + SIZE_OFF
 * as stored, RAW as its raw size unless 0) then BODY; returns its path. */
static const char *summary(const char *name, const struct bytes *body, uint16_t major,
			   uint32_t flags, int64_t size_off, uint64_t raw_size)
{
	static const unsigned char magic[8] = { 0x89, 'T', 'L', 'S', '\r', '\n', 0x1a, '\n' };
	unsigned char f[32 + sizeof body->b];
	const char *p = path_in(fx_dir, name);
	memcpy(f, magic, 8);
	put16(f, 8, major);
	put16(f, 10, 0);
	put32(f, 12, flags);
	put64(f, 16, (uint64_t)((int64_t)body->n + size_off));
	put64(f, 24, raw_size ? raw_size : body->n);
	memcpy(f + 32, body->b, body->n);
	write_file(p, f, 32 + body->n);
	return p;
}

/* A body with one change from the sound one, in NAME: must be refused with
 * "damaged summary (WHY)" by stats and stats -f json, the good logs read. */
static void check_summary_body(const char *name, const struct bytes *body, const char *why)
{
	const char *p = summary(name, body, 1, 0, 0, 0);
	char *want = xasprintf("%s: damaged summary (%s)\n", p, why);
	check_cmd("", "stats", p, "", want, 2);
	check_cmd("", "stats -f json", p, "", want, 2);
	free(want);
}

START_TEST(test_summary_bodies_that_lie)
{
	struct bytes b = { .n = 0 }, s = { .n = 0 };
	struct row r = ROW;
	char *out, *c, *why;
	/* the sound one is read: its row beside the good logs' */
	put_body(&b, "", "x.tick", 6, 1, &r, 0);
	c = xasprintf("%s stats %s %s %s", timeline_bin(), good1, summary("ok.sum", &b, 1, 0, 0, 0), good2);
	ck_assert_int_eq(run(c, &out, NULL), 0);
	ck_assert_msg(strstr(out, "\nx.tick  2    5    5    5    5      5    5     5       0       5       5\n"),
		      "%s", out);
	free(out);
	free(c);
	/* a section a later minor version adds is skipped */
	section(&b, 10, &(struct bytes){ .b = { 1, 2, 3 }, .n = 3 });
	check_cmd("", "stats", summary("minor.sum", &b, 1, 0, 0, 0), summary("ok.sum", &b, 1, 0, 0, 0), "", 0);
	/* counts, references and buckets */
	b.n = 0;
	put_body(&b, "", "x.tick", 6, 200, &r, 0);
	put_row(&s, &r);
	why = xasprintf("a count of 200 with %zu bytes left", s.n);   /* the row's */
	s.n = 0;
	check_summary_body("count.sum", &b, why);
	free(why);
#define CASE(FIELD, V, NAME, WHY)                                      \
	do {                                                           \
		r = ROW;                                               \
		r.FIELD = V;                                           \
		b.n = 0;                                               \
		put_body(&b, "", "x.tick", 6, 1, &r, 0);               \
		check_summary_body(NAME, &b, WHY);                     \
	} while (0)
	CASE(key0, 5, "ref.sum", "row 0: string 5 of 1");
	CASE(count, 1, "add.sum", "row 0: buckets hold 1 values, the histogram 2");
	CASE(count, 0, "zero.sum", "row 0: bucket 4384 past the last or empty");
	CASE(gap, 13312, "past.sum", "row 0: bucket 13312 past the last or empty");
	CASE(s2, 49, "sums.sum", "row 0: sums no set of 2 values can have");
	CASE(key0, UINT64_MAX, "wide.sum", "row 0: string 18446744073709551615 of 1");
	CASE(nan_min, 1, "nan.sum", "row 0: a value that is negative or not finite");
	CASE(bucket, 1, "range.sum", "row 0: bucket range 0 of 0");
	CASE(wide_key, 1, "long.sum", "row 0: a number over 64 bits");
#undef CASE
	/* strings, sections */
	b.n = 0;
	put_body(&b, "", "x\0y", 3, 1, &ROW, 0);
	check_summary_body("nul.sum", &b, "a NUL inside string 1");
	b.n = 0;
	put_body(&b, "", "x.tick", 6, 1, &ROW, 65);
	check_summary_body("args.sum", &b, "65 argument names found");
	b.n = 0;
	leb(&s, 0);
	leb(&s, 7);                              /* a byte past the options */
	section(&b, 1, &s);
	check_summary_body("left.sum", &b, "1 bytes left over in section 1");
	b.n = 0;
	section(&b, 3, &(struct bytes){ .b = { 0 }, .n = 1 });
	check_summary_body("order.sum", &b, "section 3 before the options and strings");
	b.n = 0;
	leb(&b, 1);
	leb(&b, 1000);
	check_summary_body("long2.sum", &b, "section 1 of 1000 bytes, 0 left");
	b.n = 0;
	check_summary_body("empty.sum", &b, "no options or strings");
	/* the levels of 1.1: one a row, each 0 to 9 */
	b.n = 0;
	put_body(&b, "", "x.tick", 6, 1, &ROW, 0);
	section(&b, 7, &(struct bytes){ .b = { 2, 1, 1 }, .n = 3 });
	check_summary_body("levels.sum", &b, "2 levels for 1 rows");
	b.n = 0;
	put_body(&b, "", "x.tick", 6, 1, &ROW, 0);
	section(&b, 7, &(struct bytes){ .b = { 1, 10 }, .n = 2 });
	check_summary_body("level10.sum", &b, "row 0 of level 10");
	/* the spans of 1.3: as many as the rows, each its unit, its latency, its
	 * self cycles split (0 or 1) and then their histogram */
	b.n = 0;
	put_body(&b, "", "x.tick", 6, 1, &ROW, 0);
	section(&b, 9, &(struct bytes){ .b = { 2 }, .n = 1 });
	check_summary_body("spans.sum", &b, "spans for 2 rows of 1");
	b.n = 0;
	put_body(&b, "", "x.tick", 6, 1, &ROW, 0);
	/* one row, no unit, no thread, 0 self cycles, an empty histogram (19
	 * zeros), split 2 */
	section(&b, 9, &(struct bytes){ .b = { 1, 0, 0, 0, [23] = 2, 0 }, .n = 25 });
	check_summary_body("split.sum", &b, "row 0: self cycles split 2");
	/* the slowest pairs of 1.2: as many lists as rows, each of at most
	 * the number kept, each pair's units not 0, walls 0 or 1, its strings
	 * in the strings section, its cpu and numa under 16 bytes, its wall1
	 * not before its wall0 (by 1 ns; from the smallest wall0, where wall0
	 * + (wall1 - wall0) wraps to the largest) nor past the largest */
	const char *ok = NULL;
	for (int k = 0; k < 14; k++) {
		static const char *const why[] = {
			NULL,
			"slowest pairs for 2 rows of 1, 20 kept",
			"slowest pairs for 1 rows of 1, 2097152 kept",
			"row 0: 2 slowest pairs, 1 kept",
			"row 0: a slowest pair of 0 units, walls 1",
			"row 0: a slowest pair of 10 units, walls 2",
			"row 0: string 5 of 1",
			"row 0: string 0 of 1",
			"row 0: a cpu or numa of 20 bytes",
			"row 0: a number runs past the end of its section",
			"1 bytes left over in section 8",
			"row 0: a slowest pair that ends 1 ns before it begins",
			"row 0: a slowest pair that ends 1 ns before it begins",
			"row 0: a slowest pair that ends past the last wall time "
			"(9223372036854775807 + 1 ns)",
		};
		/* zigzag: wall0 1, INT64_MIN, INT64_MAX; wall1 - wall0 -1, -1, +1 */
		static const uint64_t wall0[] = { 2, UINT64_MAX, UINT64_MAX - 1 }, span[] = { 1, 1, 2 };
		const char *str = k == 8 ? "x.tick-of-20-bytes.." : "x.tick";
		struct bytes sl = { .n = 0 };
		leb(&sl, k == 2 ? 1u << 21 : k == 3 ? 1 : 20);   /* kept */
		leb(&sl, k == 1 ? 2 : 1);                          /* rows */
		leb(&sl, k == 3 ? 2 : 1);                          /* the row's pairs */
		for (int pair = 0; pair < (k == 3 ? 2 : 1); pair++) {
			leb(&sl, 2000), leb(&sl, k == 4 ? 0 : 20); /* cycles 1000, units 10 */
			leb(&sl, 5000), leb(&sl, 1000);            /* tsc1, tsc1 - tsc0 */
			leb(&sl, 0), leb(&sl, 0);                  /* since1 = tsc1, since0 = tsc0 */
			leb(&sl, k == 5 ? 2 : 1);                  /* walls */
			leb(&sl, 1000000000);                      /* hz */
			if (k >= 11)
				leb(&sl, wall0[k - 11]), leb(&sl, span[k - 11]);
			else
				leb(&sl, 2), leb(&sl, 2000);       /* wall0 1, wall1 1001 */
			leb(&sl, k == 6 ? 5 : 1), leb(&sl, 1);     /* cpu, numa */
			leb(&sl, 1);                               /* process */
			if (k != 9)
				leb(&sl, k == 7 ? 0 : 1);          /* path */
		}
		if (k == 10)
			leb(&sl, 0);
		b.n = 0;
		put_body(&b, "", str, strlen(str), 1, &ROW, 0);
		if (!k)
			ok = summary("plain.sum", &b, 1, 0, 0, 0);
		section(&b, 7, &(struct bytes){ .b = { 1, 0 }, .n = 2 });
		section(&b, 8, &sl);
		if (why[k])
			check_summary_body(test_str("slow%d.sum", k), &b, why[k]);
		else   /* the sound one: read, its row as without its pairs */
			check_cmd("", "stats", summary("slow.sum", &b, 1, 0, 0, 0), ok, "", 0);
	}
}
END_TEST

/* A slowest pair whose walls are the ends of int64_t (a summary is
 * untrusted): its dump command's window is held to them, not computed
 * past them (signed overflow: UBSan stopped stats here); its begin and
 * end marked by their TSCs. (A wall1 past the largest is damage:
 * test_summary_bodies_that_lie.) */
START_TEST(test_summary_slowest_walls_at_the_ends)
{
	/* wall0 0, wall1 the largest: the window held at both ends */
	static const char *const want = "on its host: timeline dump --time wall --from "
					"1677-09-21T00:12:43.145224193Z --to "
					"2262-04-11T23:47:16.854775807Z --mark 4000,5000 x.tick";
	struct bytes b = { .n = 0 }, sl = { .n = 0 };
	char *c, *out, *err, *line;
	leb(&sl, 20), leb(&sl, 1), leb(&sl, 1);   /* kept, rows, the row's pairs */
	leb(&sl, 2000), leb(&sl, 20);             /* cycles 1000, units 10 */
	leb(&sl, 5000), leb(&sl, 1000), leb(&sl, 0), leb(&sl, 0);
	leb(&sl, 1), leb(&sl, 1000000000);        /* walls, hz */
	leb(&sl, 0), leb(&sl, UINT64_MAX - 1);    /* zigzag: wall0 0 then +INT64_MAX */
	leb(&sl, 1), leb(&sl, 1), leb(&sl, 1), leb(&sl, 1);   /* cpu numa process path */
	put_body(&b, "--per packets", "x.tick", 6, 1, &ROW, 0);
	section(&b, 7, &(struct bytes){ .b = { 1, 0 }, .n = 2 });
	section(&b, 8, &sl);
	c = xasprintf("%s stats --per packets --slowest 1 -f csv %s", timeline_bin(),
		      summary("walls.sum", &b, 1, 0, 0, 0));
	/* 0, not UBSan's stop (stderr has the warning that this made-up
	 * summary found no pairs in its logs) */
	ck_assert_msg(run(c, &out, &err) == 0, "%s: %s", c, err);
	line = strstr(out, ",\"on its host");
	ck_assert_ptr_nonnull(line);
	ck_assert_str_eq(line + 1, test_str("\"%s\"\n", want));   /* a CSV field */
	free(c);
	free(out);
	free(err);
}
END_TEST

/* A log whose header's anchor puts its one pair's end past the largest
 * wall time (wrapped to 1677, before its begin): the pair keeps no walls,
 * so its summary is no damage to its reader, and stats prints the same of
 * the summary as of the log, its dump command in cycles since the first
 * entry (the pair's 1000 cycles either side of it: 0 to 2000, the pair
 * marked at its begin's and end's TSC), on the summary's host. */
START_TEST(test_a_pair_whose_wall_time_wraps_keeps_no_walls)
{
	static const uint64_t packets[] = { 10 }, cycles[] = { 1000 };
	const char *log = path_in(fx_dir, "wrap.timeline");
	uint64_t anchor[2] = { 0, (uint64_t)INT64_MAX - 1500 };   /* tsc 0 at that ns */
	char *c, *out, *err, *sum_out, *want;
	app_pairs_log(log, "a", 1, packets, cycles);   /* begin at tsc 1000, end 2000 */
	patch_file(log, 136, anchor, sizeof anchor);   /* anchor_tsc, anchor_realtime */
	c = xasprintf("%s stats --per packets --slowest 1 -f csv --save %s/wrap.sum %s", timeline_bin(),
		      fx_dir, log);
	ck_assert_msg(run(c, &out, &err) == 0, "%s: %s", c, err);
	ck_assert_str_eq(err, "");
	free(c);
	c = xasprintf("%s stats --per packets --slowest 1 -f csv %s/wrap.sum", timeline_bin(), fx_dir);
	ck_assert_msg(run(c, &sum_out, NULL) == 0, "%s", c);
	want = xasprintf(",\"timeline dump --from 0 --to 2000 --mark 1000,2000 %s\"\n", log);
	ck_assert_str_eq(strstr(out, ",\"timeline dump"), want);
	free(want);
	want = xasprintf(",\"on %s: timeline dump --from 0 --to 2000 --mark 1000,2000 %s\"\n",
			 info_at(log).host, log);
	ck_assert_str_eq(strstr(sum_out, ",\"on "), want);
	ck_assert_int_eq(strstr(sum_out, ",\"on ") - sum_out, strstr(out, ",\"timeline dump") - out);
	ck_assert_int_eq(strncmp(sum_out, out, (size_t)(strstr(out, ",\"timeline dump") - out)), 0);
	free(want);
	free(c);
	free(sum_out);
	free(out);
	free(err);
}
END_TEST

/* Saves good1's summary made with OPTIONS as fx_dir/NAME; returns its path. */
static const char *save_good1(const char *options, const char *name)
{
	char *c = xasprintf("%s stats %s --save %s/%s %s", timeline_bin(), options, fx_dir, name,
			    good1);
	ck_assert_int_eq(run(c, NULL, NULL), 0);
	free(c);
	return path_in(fx_dir, name);
}

START_TEST(test_summary_headers_cuts_and_frames_that_lie)
{
	struct bytes b = { .n = 0 };
	char *problem;
	const char *p;
	unsigned char *f;
	size_t len;
	put_body(&b, "", "x.tick", 6, 1, &ROW, 0);
	p = summary("v2.sum", &b, 2, 0, 0, 0);
	problem = xasprintf("%s: summary format version 2.0 is not supported (this reader reads 1.x)\n", p);
	check_cmd("", "stats", p, "", problem, 2);
	free(problem);
	p = summary("flags.sum", &b, 1, 2, 0, 0);
	problem = xasprintf("%s: damaged summary header (flags 2, a body of %zu bytes giving %zu)\n", p,
			    b.n, b.n);
	check_cmd("", "stats", p, "", problem, 2);
	free(problem);
	p = summary("claim.sum", &b, 1, 1, 0, 1ull << 40);
	problem = xasprintf("%s: damaged summary header (flags 1, a body of %zu bytes giving "
			    "1099511627776)\n", p, b.n);
	check_cmd("", "stats", p, "", problem, 2);
	free(problem);
	p = summary("short.sum", &b, 1, 0, 5, 0);
	problem = xasprintf("%s: truncated: header says %zu bytes, file has %zu\n", p, 32 + b.n + 5,
			    32 + b.n);
	check_cmd("", "stats", p, "", problem, 2);
	free(problem);
	p = summary("long.sum", &b, 1, 0, -5, 0);
	problem = xasprintf("%s: damaged summary header (%zu bytes, file has %zu)\n", p, 32 + b.n - 5,
			    32 + b.n);
	check_cmd("", "stats", p, "", problem, 2);
	free(problem);
	/* cut inside the header: 8 to 31 bytes are a summary's start, below 8 not */
	for (size_t cut = 8; cut < 32; cut += 23) {
		f = (unsigned char *)read_file(path_in(fx_dir, "long.sum"), &len);
		write_file(p = path_in(fx_dir, "cut.sum"), f, cut);
		problem = xasprintf("%s: truncated: %zu bytes, shorter than a summary header\n", p, cut);
		check_cmd("", "stats", p, "", problem, 2);
		free(problem);
		free(f);
	}
	/* a real summary: its frame's magic damaged; its raw size one short, one over */
	save_good1("", "real.sum");
	for (int k = 0; k < 3; k++) {
		static const char *const why[] = { "Unknown frame descriptor",
						   "Destination buffer is too small",
						   "shorter than its header gives" };
		f = (unsigned char *)read_file(path_in(fx_dir, "real.sum"), &len);
		if (k == 0)
			f[32] ^= 0x5a;
		else
			put64(f, 24, (f[24] | (uint64_t)f[25] << 8) + (k == 1 ? -1 : 1));
		write_file(p = path_in(fx_dir, "frame.sum"), f, len);
		problem = xasprintf("%s: damaged summary body: %s\n", p, why[k]);
		check_cmd("", "stats", p, "", problem, 2);
		free(problem);
		free(f);
	}
	/* made with other fixed options */
	p = save_good1("--per packets", "per.sum");
	problem = xasprintf("%s: made with '--per packets' but read without fixed options (a "
			    "summary fixes --per, --pair, --bucket and the window: --from, --to, "
			    "--last, --event, --app, --cpu and --numa; read it with the same)\n", p);
	check_cmd("", "stats", p, "", problem, 2);
	free(problem);
}
END_TEST

Suite *hostile_suite(void)
{
	Suite *s = suite_create("hostile");
	TCase *t = tcase_create("catalogue");
	tcase_add_unchecked_fixture(t, fx_base_setup, fx_base_teardown);
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_zero_length_file);
	tcase_add_test(t, test_truncated_at_every_section_boundary);
	tcase_add_test(t, test_wrong_magic);
	tcase_add_test(t, test_future_major_version_is_refused_future_minor_is_read);
	tcase_add_test(t, test_sizes_that_overflow_32_and_64_bits);
	tcase_add_test(t, test_entry_count_that_disagrees_with_the_file_size);
	tcase_add_test(t, test_message_ids_beyond_the_table);
	tcase_add_test(t, test_string_table_with_no_nul);
	tcase_add_test(t, test_cursor_beyond_what_was_written);
	tcase_add_test(t, test_lanes_that_lie);
	tcase_add_test(t, test_snabb_truncated_at_every_section_boundary);
	tcase_add_test(t, test_snabb_future_version_and_sizes_that_overflow_32_bits);
	tcase_add_test(t, test_snabb_full_string_table_is_read);
	tcase_add_test(t, test_snabb_ring_with_two_breaks_in_time_order);
	tcase_add_test(t, test_symlink_loop_in_a_directory_input);
	tcase_add_test(t, test_fifo_named_and_in_a_directory);
	tcase_add_test(t, test_unreadable_file);
	tcase_add_test(t, test_directory_of_10000_small_files_one_of_them_cut);
	tcase_add_test(t, test_zstd_bombs_and_cut_frames);
	tcase_add_test(t, test_summary_bodies_that_lie);
	tcase_add_test(t, test_summary_slowest_walls_at_the_ends);
	tcase_add_test(t, test_a_pair_whose_wall_time_wraps_keeps_no_walls);
	tcase_add_test(t, test_summary_headers_cuts_and_frames_that_lie);
	suite_add_tcase(s, t);
	return s;
}
