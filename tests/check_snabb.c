/* check_snabb.c: Snabb's format read through the same reader: the real
 * fixture against its independent reference dump, slot by slot, and small
 * hand-made files for wrap-around, a full string table, v2 and bad headers. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util.h"


static const char *fixture(const char *name)
{
	static char p[4096];
	const char *f = getenv("TIMELINE_FIXTURES");
	snprintf(p, sizeof p, "%s/snabb-v3/%s", f && *f ? f : "tests/fixtures", name);
	return p;
}

/* Unescapes "\n" and "\\" in S in place. */
static void unescape(char *s)
{
	char *d = s;
	for (; *s; s++) {
		if (*s == '\\' && (s[1] == 'n' || s[1] == '\\'))
			*d++ = *++s == 'n' ? '\n' : '\\';
		else
			*d++ = *s;
	}
	*d = '\0';
}

/* A %.17g field as the u64 the reader gives for a whole number. */
static uint64_t whole(const char *s)
{
	double d = strtod(s, NULL);
	ck_assert_msg(d >= 0 && d == (double)(uint64_t)d, "'%s' is not a whole number", s);
	return (uint64_t)d;
}

START_TEST(test_fixture_matches_the_reference_dump_entry_by_entry)
{
	const char *log = path_in(test_dir, "events.timeline"), *ref = path_in(test_dir, "ref.txt");
	char *text, *line, *save = NULL;
	tl_error err;
	tl_reader *r;
	tl_info in;
	tl_entry e;
	size_t entries = 0, strings = 0;
	ck_assert_uint_eq(unzstd(fixture("engine-short.events.timeline.zst"), log), 65000064);
	unzstd(fixture("engine-short.decoded.txt.zst"), ref);
	log = path_in(test_dir, "events.timeline");
	r = tl_reader_open(log, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	tl_reader_info(r, &in);
	ck_assert_int_eq(in.format, TL_FORMAT_SNABB);
	ck_assert_uint_eq(in.major, 3);
	ck_assert_uint_eq(in.entries, 1000000);
	ck_assert_uint_eq(in.used, 2577);
	ck_assert_uint_eq(tl_reader_definitions(r, NULL, 0), 68);
	text = read_file(path_in(test_dir, "ref.txt"), NULL);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[16];
		int n = 0;
		for (char *p = line, *t; n < 16 && (t = strsep(&p, "\t"));)
			f[n++] = t;
		if (line[0] == 'S') {
			const char *s = tl_reader_string(r, (uint16_t)atoi(f[1]));
			unescape(f[2]);
			ck_assert_ptr_nonnull(s);
			ck_assert_str_eq(s, f[2]);
			strings++;
		} else if (line[0] == 'E') {
			const char *s;
			ck_assert_int_eq(n, 15);
			ck_assert_int_eq(tl_reader_next(r, &e), 1);
			ck_assert_uint_eq(e.seq, strtoull(f[1], NULL, 10));
			ck_assert_uint_eq(e.tsc, whole(f[2]));
			ck_assert_uint_eq(e.msgid, strtoul(f[3], NULL, 10));
			ck_assert_uint_eq(e.aux, strtoul(f[4], NULL, 16));
			ck_assert_uint_eq(e.cpu, strtoul(f[5], NULL, 10));
			ck_assert_uint_eq(e.numa, strtoul(f[6], NULL, 10));
			ck_assert_uint_eq(e.dargs, 0);
			for (int a = 0; a < 6; a++)
				ck_assert_uint_eq(e.args[a], whole(f[8 + a]));
			s = tl_reader_string(r, e.msgid);
			ck_assert_ptr_nonnull(s);
			ck_assert_int_eq(strncmp(s, f[14], strlen(f[14])), 0);
			entries++;
		}
	}
	ck_assert_int_eq(tl_reader_next(r, &e), 0);
	ck_assert_uint_eq(entries, 2577);
	ck_assert_uint_eq(strings, 68);
	free(text);
	tl_reader_close(r);
}
END_TEST

/* Writes a Snabb v3 file of N slots with timestamps TSC[] (0: unused), msgid
 * 0 and argument 0 = the slot number, and the TLEN bytes of TABLE as its
 * string table. */
static const char *make_snabb(const char *name, unsigned major, int n, const double *tsc,
			      const char *table, size_t tlen)
{
	size_t len = 64 + (size_t)n * 64 + tlen;
	unsigned char *b = calloc(1, len);
	uint64_t magic = 0xa3ff7223441d0001ull;
	uint16_t mj = (uint16_t)major;
	uint32_t lb = (uint32_t)n * 64, sb = (uint32_t)tlen;
	const char *p = path_in(test_dir, name);
	memcpy(b, &magic, 8);
	memcpy(b + 8, &mj, 2);
	memcpy(b + 12, &lb, 4);
	memcpy(b + 16, &sb, 4);
	for (int i = 0; i < n; i++) {
		unsigned char *s = b + 64 + i * 64;
		double a0 = i, half = 0.5;
		uint16_t aux = (uint16_t)(1 << 12 | i);
		if (major == 2) {
			uint64_t t = (uint64_t)tsc[i], a = (uint64_t)i;
			memcpy(s, &t, 8);
			memcpy(s + 16, &a, 8);
		} else {
			memcpy(s, &tsc[i], 8);
			memcpy(s + 16, &a0, 8);
			memcpy(s + 24, &half, 8);
		}
		memcpy(s + 10, &aux, 2);
	}
	memcpy(b + 64 + n * 64, table, tlen);
	write_file(p, b, len);
	free(b);
	return p;
}

START_TEST(test_wrapped_ring_reads_oldest_first)
{
	/* written 0..7 then wrapped over slots 0..2: newest is slot 2 */
	const double tsc[8] = { 900, 1000, 1100, 400, 500, 600, 700, 800 };
	static const char table[16] = "0,9|x.y: a b";
	const char *p = make_snabb("wrap.timeline", 3, 8, tsc, table, sizeof table);
	tl_error err;
	tl_reader *r = tl_reader_open(p, &err);
	tl_entry e;
	const uint64_t want[8] = { 3, 4, 5, 6, 7, 0, 1, 2 };
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(tl_reader_rewind(r), 8);
	for (int i = 0; i < 8; i++) {
		ck_assert_int_eq(tl_reader_next(r, &e), 1);
		ck_assert_uint_eq(e.seq, want[i]);
		ck_assert_uint_eq(e.tsc, (uint64_t)tsc[want[i]]);
		ck_assert_uint_eq(e.args[0], want[i]);
		ck_assert_uint_eq(e.cpu, want[i]);
		ck_assert_uint_eq(e.numa, 1);
		ck_assert_uint_eq(e.dargs, 2);   /* args[1] = 0.5 is kept as a double */
		double d;
		memcpy(&d, &e.args[1], 8);
		ck_assert(d == 0.5);
	}
	ck_assert_int_eq(tl_reader_next(r, &e), 0);
	tl_reader_close(r);
}
END_TEST

START_TEST(test_unwrapped_ring_skips_unused_slots)
{
	const double tsc[6] = { 10, 20, 30, 0, 0, 0 };
	static const char table[16] = "0,9|x.y:";
	const char *p = make_snabb("part.timeline", 3, 6, tsc, table, sizeof table);
	tl_error err;
	tl_reader *r = tl_reader_open(p, &err);
	tl_entry e;
	ck_assert_uint_eq(tl_reader_rewind(r), 3);
	for (uint64_t i = 0; i < 3; i++) {
		ck_assert_int_eq(tl_reader_next(r, &e), 1);
		ck_assert_uint_eq(e.seq, i);
	}
	ck_assert_int_eq(tl_reader_next(r, &e), 0);
	tl_reader_close(r);
}
END_TEST

START_TEST(test_full_string_table_without_terminator_is_read_safely)
{
	/* 32 bytes: "0,9|a.b:" + NUL + padding, then 16 bytes with no NUL at all */
	char table[32] = "0,9|a.b:";
	const double tsc[2] = { 1, 2 };
	const char *p;
	tl_error err;
	tl_reader *r;
	memcpy(table + 16, "0,9|c.d: abcdefg", 16);
	p = make_snabb("full.timeline", 3, 2, tsc, table, sizeof table);
	r = tl_reader_open(p, &err);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(tl_reader_string(r, 0), "0,9|a.b:");
	ck_assert_str_eq(tl_reader_string(r, 1), "0,9|c.d: abcdefg");
	ck_assert_ptr_null(tl_reader_string(r, 2));
	ck_assert_ptr_null(tl_reader_string(r, 0xffff));
	ck_assert_uint_eq(tl_reader_definitions(r, NULL, 0), 2);
	tl_reader_close(r);
}
END_TEST

START_TEST(test_version_2_stores_integers)
{
	const double tsc[3] = { 5, 6, 7 };
	static const char table[16] = "0,9|x.y:";
	const char *p = make_snabb("v2.timeline", 2, 3, tsc, table, sizeof table);
	tl_error err;
	tl_reader *r = tl_reader_open(p, &err);
	tl_entry e;
	tl_info in;
	ck_assert_ptr_nonnull(r);
	tl_reader_info(r, &in);
	ck_assert_uint_eq(in.major, 2);
	ck_assert_int_eq(tl_reader_next(r, &e), 1);
	ck_assert_uint_eq(e.tsc, 5);
	ck_assert_uint_eq(e.args[0], 0);
	ck_assert_uint_eq(e.dargs, 0);
	tl_reader_close(r);
}
END_TEST

START_TEST(test_bad_snabb_headers_are_refused_with_one_line)
{
	const double tsc[2] = { 1, 2 };
	char want[4200];
	tl_error err;
	static const char table[16] = "0,9|x.y:";
	const char *p = make_snabb("v4.timeline", 4, 2, tsc, table, 0);
	ck_assert_ptr_null(tl_reader_open(p, &err));
	snprintf(want, sizeof want,
		 "%s: Snabb format version 4.0 is not supported (this reader reads 2 and 3)", p);
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(err.code, TL_E_VERSION);
	p = make_snabb("cut.timeline", 3, 2, tsc, table, sizeof table);
	ck_assert_int_eq(truncate(p, 64 + 64), 0);
	ck_assert_ptr_null(tl_reader_open(p, &err));
	snprintf(want, sizeof want, "%s: truncated: Snabb header says 208 bytes, file has 128", p);
	ck_assert_str_eq(err.msg, want);
}
END_TEST

/* `timeline stats` on the fixture agrees with a lag computed here, by hand,
 * for app.pull: the distance to the previous entry whose level is at most
 * app.pull's (Snabb's definition), from the reader and the definitions. */
START_TEST(test_stats_lag_of_app_pull_on_the_fixture_matches_a_hand_computation)
{
	const char *log = path_in(test_dir, "events.timeline");
	char *cmd, *out, *line;
	tl_error err;
	tl_reader *r;
	tl_entry e;
	uint64_t last[10] = { 0 }, n = 0, min = UINT64_MAX, max = 0;
	unsigned seen = 0, found = 0;
	unsigned long long sn, smin, smax;
	ck_assert_uint_eq(unzstd(fixture("engine-short.events.timeline.zst"), log), 65000064);
	r = tl_reader_open(log, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	tl_reader_rewind(r);
	while (tl_reader_next(r, &e)) {
		const char *s = tl_reader_string(r, e.msgid);
		tl_def d;
		uint64_t prev = 0;
		int have = 0;
		ck_assert_ptr_nonnull(s);
		ck_assert_int_eq(tl_def_parse(s, strlen(s), &d, NULL), TL_OK);
		for (unsigned l = 0; l <= d.level; l++)
			if ((seen >> l & 1) && (!have || last[l] > prev)) {
				prev = last[l];
				have = 1;
			}
		if (have && d.name_len == 8 && !memcmp(d.name, "app.pull", 8)) {
			uint64_t lag = e.tsc - prev;
			n++;
			min = lag < min ? lag : min;
			max = lag > max ? lag : max;
		}
		last[d.level] = e.tsc;
		seen |= 1u << d.level;
	}
	tl_reader_close(r);
	ck_assert_uint_eq(n, 38);
	cmd = xasprintf("%s stats -f csv %s", timeline_bin(), log);
	ck_assert_int_eq(run(cmd, &out, NULL), 0);
	for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
		if (sscanf(line, "\"app.pull\",%llu,%llu,%*[^,],%*[^,],%*[^,],%*[^,],%llu", &sn, &smin,
			   &smax) == 3) {
			found = 1;
			ck_assert_uint_eq(sn, n);
			ck_assert_uint_eq(smin, min);   /* min and max are exact */
			ck_assert_uint_eq(smax, max);
		}
	ck_assert_msg(found, "no app.pull row in: %s", out);
	free(cmd);
	free(out);
}
END_TEST

Suite *snabb_suite(void)
{
	Suite *s = suite_create("snabb");
	TCase *t = tcase_create("snabb");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_fixture_matches_the_reference_dump_entry_by_entry);
	tcase_add_test(t, test_stats_lag_of_app_pull_on_the_fixture_matches_a_hand_computation);
	tcase_add_test(t, test_wrapped_ring_reads_oldest_first);
	tcase_add_test(t, test_unwrapped_ring_skips_unused_slots);
	tcase_add_test(t, test_full_string_table_without_terminator_is_read_safely);
	tcase_add_test(t, test_version_2_stores_integers);
	tcase_add_test(t, test_bad_snabb_headers_are_refused_with_one_line);
	suite_add_tcase(s, t);
	return s;
}
