/* check_open.c: the library as the one reader: tl_probe() and
 * tl_reader_open() on plain and zstd copies of both formats, cached
 * definitions, time conversion and the rate of a log given by path, all
 * through the public API alone. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>
#include "util.h"

static const char *snabb_zst(void)
{
	static char p[4096];
	const char *fx = getenv("TIMELINE_FIXTURES");
	snprintf(p, sizeof p, "%s/snabb-v3/engine-short.events.timeline.zst", fx ? fx : "tests/fixtures");
	return p;
}

/* Compresses the file SRC into DST at level 1. */
static void compress_file(const char *src, const char *dst)
{
	size_t n, bound;
	char *in = read_file(src, &n), *out;
	bound = ZSTD_compressBound(n);
	out = malloc(bound);
	ck_assert_ptr_nonnull(out);
	n = ZSTD_compress(out, bound, in, n, 1);
	ck_assert(!ZSTD_isError(n));
	write_file(dst, out, n);
	free(in);
	free(out);
}

/* A native log at PATH: two definitions, three entries at TSC 1000, 1500,
 * 4000 (1 GHz), one of them with an id that names nothing. */
static void make_log(const char *path)
{
	tl_log *log = open_manual(path, 16);
	uint16_t a, b;
	ck_assert_int_eq(tl_intern(log, "1,9|engine.breath: n packets\nOne breath.", &a, NULL), TL_OK);
	ck_assert_int_eq(tl_intern(log, "2,9|app.push app=sink: inpackets", &b, NULL), TL_OK);
	tl_set_manual_clock(log, 1000, 3 | 1 << 12);
	tl_append(log, a, 7, 32, 0, 0, 0, 0);
	tl_set_manual_clock(log, 1500, 3 | 1 << 12);
	tl_append(log, b, 64, 0, 0, 0, 0, 0);
	tl_set_manual_clock(log, 4000, 2);
	tl_append(log, 4000, 1, 2, 3, 4, 5, 6);   /* offset 64000: beyond the table */
	tl_close(log);
}

static int probe(const char *path)
{
	int fd = open(path, O_RDONLY), k;
	ck_assert_int_ge(fd, 0);
	k = tl_probe(fd);
	close(fd);
	return k;
}

START_TEST(test_probe_tells_each_kind_by_content)
{
	const char *log = path_in(test_dir, "a.timeline");
	char zst[4096], text[4096], cut[4096], tiny[4096];
	size_t n;
	char *z;
	make_log(log);
	snprintf(zst, sizeof zst, "%s/a.zst", test_dir);
	snprintf(text, sizeof text, "%s/text.zst", test_dir);
	snprintf(cut, sizeof cut, "%s/cut.zst", test_dir);
	snprintf(tiny, sizeof tiny, "%s/tiny", test_dir);
	compress_file(log, zst);
	write_file(tiny, "abc", 3);
	write_file(text, "not a log", 9);
	compress_file(text, text);
	z = read_file(zst, &n);
	write_file(cut, z, 12);   /* a frame header and no block */
	free(z);
	ck_assert_int_eq(probe(log), TL_FORMAT_NATIVE);
	ck_assert_int_eq(probe(zst), TL_FORMAT_ZSTD | TL_FORMAT_NATIVE);
	ck_assert_int_eq(probe(snabb_zst()), TL_FORMAT_ZSTD | TL_FORMAT_SNABB);
	ck_assert_int_eq(probe(text), 0);
	ck_assert_int_eq(probe(tiny), 0);
	ck_assert_int_eq(probe(cut), TL_FORMAT_ZSTD);
}
END_TEST

START_TEST(test_a_zstd_copy_reads_like_the_original_with_definitions_and_ns)
{
	const char *log = path_in(test_dir, "a.timeline");
	char zst[4096];
	tl_error err;
	tl_info info;
	tl_entry e[4];
	tl_reader *r;
	const tl_def *d;
	make_log(log);
	snprintf(zst, sizeof zst, "%s/a.zst", test_dir);
	compress_file(log, zst);
	r = tl_reader_open(zst, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	tl_reader_info(r, &info);
	ck_assert_int_eq(info.compressed, 1);
	ck_assert_int_eq(info.format, TL_FORMAT_NATIVE);
	ck_assert_uint_eq(info.tsc_hz, 1000000000);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(tl_reader_next(r, &e[i]), 1);
	ck_assert_int_eq(tl_reader_next(r, &e[3]), 0);
	d = tl_reader_def(r, e[0].msgid);
	ck_assert_ptr_eq(d, tl_reader_def(r, e[0].msgid));   /* parsed once */
	ck_assert_str_eq(d->name, "engine.breath");
	ck_assert_str_eq(d->attrs, "");
	ck_assert_uint_eq(d->nargs, 2);
	ck_assert_str_eq(d->args[0], "n");
	ck_assert_str_eq(d->args[1], "packets");
	ck_assert_int_eq(d->known, 1);
	ck_assert_uint_eq(d->level, 1);
	ck_assert_str_eq(d->descr, "One breath.");
	d = tl_reader_def(r, e[1].msgid);
	ck_assert_str_eq(d->name, "app.push");
	ck_assert_str_eq(d->attrs, "app=sink");
	ck_assert_str_eq(d->args[0], "inpackets");
	d = tl_reader_def(r, e[2].msgid);
	ck_assert_int_eq(d->known, 0);
	ck_assert_str_eq(d->name, "?msgid=4000");
	ck_assert_uint_eq(d->nargs, 6);
	ck_assert_str_eq(d->args[5], "arg5");
	ck_assert_uint_eq(tl_ticks_to_ns(e[1].tsc - e[0].tsc, info.tsc_hz), 500);
	ck_assert_int_eq(tl_wall_ns(&info, e[2].tsc) - tl_wall_ns(&info, e[0].tsc), 3000);
	tl_reader_close(r);
	ck_assert_ptr_null(tl_reader_open(path_in(test_dir, "none.zst"), &err));
	ck_assert_int_eq(err.code, TL_E_SYS);
}
END_TEST

START_TEST(test_the_snabb_fixture_opens_compressed_with_every_entry)
{
	tl_error err;
	tl_info info;
	tl_entry e;
	uint64_t n = 0;
	tl_reader *r = tl_reader_open(snabb_zst(), &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	tl_reader_info(r, &info);
	ck_assert_int_eq(info.format, TL_FORMAT_SNABB);
	ck_assert_int_eq(info.compressed, 1);
	while (tl_reader_next(r, &e)) {
		if (n == 1)
			ck_assert_str_eq(tl_reader_def(r, e.msgid)->name, "engine.configure");
		ck_assert_int_eq(tl_reader_def(r, e.msgid)->known, 1);
		n++;
	}
	ck_assert_uint_eq(n, 2577);
	tl_reader_close(r);
}
END_TEST

START_TEST(test_wall_time_formats_exactly_on_both_sides_of_the_anchor)
{
	tl_info i;
	char b[64];
	memset(&i, 0, sizeof i);
	i.tsc_hz = 2000000000;
	i.anchor_tsc = 1000;
	i.anchor_realtime_ns = 1700000000123456789ull;
	ck_assert_int_eq(tl_wall_ns(&i, 1000 + 4), 1700000000123456791ll);
	ck_assert_int_eq(tl_wall_ns(&i, 1000 - 4), 1700000000123456787ll);
	ck_assert_uint_eq(tl_format_wall(b, sizeof b, tl_wall_ns(&i, 1000)), 30);
	ck_assert_str_eq(b, "2023-11-14T22:13:20.123456789Z");
	tl_format_wall(b, sizeof b, -1);
	ck_assert_str_eq(b, "1969-12-31T23:59:59.999999999Z");
	ck_assert_uint_eq(tl_ticks_to_ns(1ull << 63, 1ull << 32), 2147483648000000000ull);
	ck_assert_uint_eq(tl_ticks_to_ns(5, 0), 0);
}
END_TEST

START_TEST(test_same_tsc_needs_one_host_and_one_boot)
{
	tl_info a, b;
	memset(&a, 0, sizeof a);
	strcpy(a.host, "lab1");
	a.anchor_realtime_ns = 1700000000000000000ull;
	a.anchor_monotonic_ns = 5000000000ull;
	b = a;
	b.anchor_realtime_ns += 60000000000ull;     /* a minute later, same boot */
	b.anchor_monotonic_ns += 60000000000ull;
	ck_assert_int_ne(tl_same_tsc(&a, &b), 0);
	b.anchor_monotonic_ns -= 30000000000ull;    /* rebooted in between */
	ck_assert_int_eq(tl_same_tsc(&a, &b), 0);
	b = a;
	strcpy(b.host, "lab2");
	ck_assert_int_eq(tl_same_tsc(&a, &b), 0);
}
END_TEST

START_TEST(test_rate_file_sets_and_reads_what_tl_set_rate_would)
{
	const char *log = path_in(test_dir, "a.timeline");
	char zst[4096];
	unsigned now = 0;
	int fixed = -1;
	tl_error err;
	make_log(log);
	ck_assert_int_eq(tl_rate_file(log, 5, &now, &fixed, &err), TL_OK);
	ck_assert_uint_eq(now, 5);
	ck_assert_int_eq(fixed, 1);
	ck_assert_int_eq(tl_rate_file(log, -1, &now, &fixed, &err), TL_OK);
	ck_assert_uint_eq(now, 5);
	ck_assert_int_eq(tl_rate_file(log, TL_RATE_AUTO, &now, &fixed, &err), TL_OK);
	ck_assert_int_eq(fixed, 0);
	ck_assert_int_eq(tl_rate_file(log, TL_RATE_OFF, &now, &fixed, &err), TL_OK);
	ck_assert_uint_eq(now, TL_RATE_OFF);
	/* one above off, the largest: out of range, and the log left as it was */
	ck_assert_int_eq(tl_rate_file(log, 11, &now, &fixed, &err), TL_E_INVAL);
	snprintf(zst, sizeof zst, "%s: rate 11 out of range", log);
	ck_assert_str_eq(err.msg, zst);
	ck_assert_int_eq(tl_rate_file(log, -1, &now, &fixed, &err), TL_OK);
	ck_assert_uint_eq(now, TL_RATE_OFF);
	ck_assert_int_eq(fixed, 1);
	ck_assert_int_eq(tl_rate_file(snabb_zst(), 3, NULL, NULL, &err), TL_E_INVAL);
	snprintf(zst, sizeof zst, "%s/a.zst", test_dir);
	compress_file(log, zst);
	ck_assert_int_eq(tl_rate_file(zst, 3, NULL, NULL, &err), TL_E_INVAL);
	ck_assert_str_eq(strchr(err.msg, ':'), ": a compressed copy has no writer to sample");
}
END_TEST

Suite *open_suite(void)
{
	Suite *s = suite_create("open");
	TCase *t = tcase_create("open");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_add_test(t, test_probe_tells_each_kind_by_content);
	tcase_add_test(t, test_a_zstd_copy_reads_like_the_original_with_definitions_and_ns);
	tcase_add_test(t, test_the_snabb_fixture_opens_compressed_with_every_entry);
	tcase_add_test(t, test_wall_time_formats_exactly_on_both_sides_of_the_anchor);
	tcase_add_test(t, test_same_tsc_needs_one_host_and_one_boot);
	tcase_add_test(t, test_rate_file_sets_and_reads_what_tl_set_rate_would);
	suite_add_tcase(s, t);
	return s;
}
