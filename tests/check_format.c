/* check_format.c: the file format end to end: entries and header read back
 * field by field, wrap-around, incomplete entries, the string table. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util.h"
#include "../lib/format.h"

static char *dir;

static void setup(void) { dir = tmpdir_new(); }
static void teardown(void) { rm_rf(dir); free(dir); }

/* Appends entry number I with values derived from I. */
static void put(tl_log *log, uint16_t msgid, uint64_t i)
{
	tl_set_manual_clock(log, 1000 + 10 * i, (uint16_t)((i % 3) << 12 | (i % 7)));
	tl_append(log, msgid, i, i * 2, i * 3, ~i, i << 32, 0xfedcba9876543210ull ^ i);
}

static void assert_entry(const tl_entry *e, uint16_t msgid, uint64_t i)
{
	ck_assert_uint_eq(e->seq, i);
	ck_assert_uint_eq(e->tsc, 1000 + 10 * i);
	ck_assert_uint_eq(e->msgid, msgid);
	ck_assert_uint_eq(e->cpu, i % 7);
	ck_assert_uint_eq(e->numa, i % 3);
	ck_assert_uint_eq(e->aux, (i % 3) << 12 | (i % 7));
	ck_assert_uint_eq(e->args[0], i);
	ck_assert_uint_eq(e->args[1], i * 2);
	ck_assert_uint_eq(e->args[2], i * 3);
	ck_assert_uint_eq(e->args[3], ~i);
	ck_assert_uint_eq(e->args[4], i << 32);
	ck_assert_uint_eq(e->args[5], 0xfedcba9876543210ull ^ i);
}

START_TEST(test_entries_round_trip_field_by_field)
{
	const char *p = path_in(dir, "rt.timeline");
	tl_log *log = open_manual(p, 64);
	uint16_t id;
	size_t n;
	uint64_t skipped;
	tl_entry *v;
	ck_assert_int_eq(tl_intern(log, "9,9|test.ev: a b c d e f", &id, NULL), TL_OK);
	for (uint64_t i = 0; i < 10; i++)
		put(log, id, i);
	tl_close(log);
	v = read_all(p, &n, &skipped);
	ck_assert_uint_eq(n, 10);
	ck_assert_uint_eq(skipped, 0);
	for (uint64_t i = 0; i < 10; i++)
		assert_entry(&v[i], id, i);
	free(v);
}
END_TEST

START_TEST(test_header_describes_the_writer)
{
	const char *p = path_in(dir, "hdr.timeline");
	tl_log *log = open_manual(p, 32);
	tl_error err;
	tl_reader *r;
	tl_info in;
	uint16_t id;
	ck_assert_int_eq(tl_intern(log, "1,2|x.y:", &id, NULL), TL_OK);
	put(log, id, 0);
	tl_set_rate(log, 7);
	tl_breath(log);
	r = tl_reader_open(p, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	tl_reader_info(r, &in);
	ck_assert_uint_eq(in.major, 1);
	ck_assert_uint_eq(in.minor, 5);
	ck_assert_uint_eq(in.copy_of, 0);
	ck_assert_uint_eq(in.entries, 32);
	ck_assert_uint_eq(in.cursor, 1);
	ck_assert_uint_eq(in.strings_bytes, 4096);
	ck_assert_uint_eq(in.strings_used, 16);
	ck_assert_uint_eq(in.tsc_hz, 1000000000);
	ck_assert_uint_eq(in.rate, 7);
	ck_assert_int_eq(in.rate_fixed, 1);
	ck_assert_uint_eq(in.breaths, 1);
	ck_assert_int_eq(in.clock, TL_CLOCK_MANUAL);
	ck_assert_uint_eq(in.pid, (uint64_t)getpid());
	ck_assert_str_eq(in.name, "test");
	ck_assert_str_eq(in.path, p);
	ck_assert_str_eq(in.process, program_invocation_short_name);
	ck_assert_str_eq(tl_path(log), p);
	ck_assert(in.anchor_realtime_ns > 1600000000ull * 1000000000ull);
	ck_assert_str_eq(tl_reader_string(r, id), "1,2|x.y:");
	tl_reader_close(r);
	tl_close(log);
}
END_TEST

START_TEST(test_ring_wraps_around)
{
	const char *p = path_in(dir, "wrap.timeline");
	tl_log *log = open_manual(p, 8);
	size_t n;
	uint64_t skipped;
	tl_entry *v;
	for (uint64_t i = 0; i < 3 * 8 + 3; i++)
		put(log, 0, i);
	tl_close(log);
	v = read_all(p, &n, &skipped);
	ck_assert_uint_eq(n, 8);
	ck_assert_uint_eq(skipped, 0);
	for (uint64_t k = 0; k < 8; k++)   /* oldest 19 .. newest 26 */
		assert_entry(&v[k], 0, 19 + k);
	free(v);
}
END_TEST

/* Opens P and returns its mapping for tests that play a crashed writer. */
static struct tl_header *raw(tl_log *log)
{
	return (struct tl_header *)log;
}

START_TEST(test_entry_cut_off_mid_write_is_rejected)
{
	const char *p = path_in(dir, "torn.timeline");
	tl_log *log = open_manual(p, 16);
	struct tl_raw_entry *e;
	size_t n;
	uint64_t skipped;
	tl_entry *v;
	for (uint64_t i = 0; i < 5; i++)
		put(log, 0, i);
	/* a writer killed after storing entry 5's busy marker and two arguments */
	e = &tl_ring(raw(log))[5];
	e->seq = tl_seq_busy(5);
	e->args[0] = 5;
	e->args[1] = 10;
	tl_close(log);
	v = read_all(p, &n, &skipped);
	ck_assert_uint_eq(n, 5);
	ck_assert_uint_eq(skipped, 1);
	assert_entry(&v[4], 0, 4);
	free(v);
}
END_TEST

START_TEST(test_overwrite_cut_off_loses_only_the_oldest_entry)
{
	const char *p = path_in(dir, "torn2.timeline");
	tl_log *log = open_manual(p, 4);
	struct tl_raw_entry *e;
	size_t n;
	uint64_t skipped;
	tl_entry *v;
	for (uint64_t i = 0; i < 6; i++)
		put(log, 0, i);
	/* entry 6 goes to slot 2 over entry 2: killed mid-payload */
	e = &tl_ring(raw(log))[6 & 3];
	e->seq = tl_seq_busy(6);
	e->args[3] = 12345;
	tl_close(log);
	v = read_all(p, &n, &skipped);
	ck_assert_uint_eq(n, 3);            /* entries 3, 4, 5 */
	ck_assert_uint_eq(skipped, 2);      /* entry 2 (overwritten) and 6 (torn) */
	for (uint64_t k = 0; k < 3; k++)
		assert_entry(&v[k], 0, 3 + k);
	free(v);
}
END_TEST

START_TEST(test_complete_entry_past_the_cursor_is_read)
{
	const char *p = path_in(dir, "done.timeline");
	tl_log *log = open_manual(p, 16);
	size_t n;
	uint64_t skipped;
	tl_entry *v;
	for (uint64_t i = 0; i < 4; i++)
		put(log, 0, i);
	/* killed after step 4 (seq stored) but before step 5 (cursor) */
	raw(log)->cursor = 3;
	tl_close(log);
	v = read_all(p, &n, &skipped);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(skipped, 0);
	assert_entry(&v[3], 0, 3);
	free(v);
}
END_TEST

START_TEST(test_strings_are_interned_once_and_aligned)
{
	const char *p = path_in(dir, "str.timeline");
	tl_log *log = open_manual(p, 4);
	uint16_t a, b, c;
	tl_error err;
	tl_reader *r;
	ck_assert_int_eq(tl_intern(log, "0,9|t.a: x", &a, NULL), TL_OK);
	ck_assert_int_eq(tl_intern(log, "0,9|t.b: a 16-byte-long-or-more string", &b, NULL), TL_OK);
	ck_assert_int_eq(tl_intern(log, "0,9|t.a: x", &c, NULL), TL_OK);
	ck_assert_uint_eq(a, 0);
	ck_assert_uint_eq(b, 8);   /* "0,9|t.a: x" + NUL = 11 bytes; the next starts at 128 */
	ck_assert_uint_eq(c, a);
	ck_assert_int_eq(tl_intern(log, "", &c, &err), TL_E_INVAL);
	tl_close(log);
	r = tl_reader_open(p, &err);
	ck_assert_str_eq(tl_reader_string(r, a), "0,9|t.a: x");
	ck_assert_str_eq(tl_reader_string(r, b), "0,9|t.b: a 16-byte-long-or-more string");
	ck_assert_ptr_null(tl_reader_string(r, 2));      /* the zeros between a and b */
	ck_assert_ptr_null(tl_reader_string(r, 9));      /* middle of string b */
	ck_assert_ptr_null(tl_reader_string(r, 11));     /* past the used part (176 bytes) */
	ck_assert_ptr_null(tl_reader_string(r, 65535));
	tl_reader_close(r);
}
END_TEST

START_TEST(test_full_string_table_fails_cleanly)
{
	const char *p = path_in(dir, "full.timeline");
	tl_options o = { .entries = 4, .strings_bytes = 512, .clock = TL_CLOCK_MANUAL };
	tl_error err;
	tl_log *log = tl_open(p, &o, &err);
	char s[32], want[256];
	uint16_t id;
	ck_assert_ptr_nonnull(log);
	for (int i = 0; i < 4; i++) {   /* four 16-byte strings, 128 bytes apart */
		snprintf(s, sizeof s, "0,9|t.e%d:", i);
		ck_assert_int_eq(tl_intern(log, s, &id, NULL), TL_OK);
		ck_assert_uint_eq(id, 8 * i);
	}
	ck_assert_int_eq(tl_intern(log, "0,9|t.more:", &id, &err), TL_E_FULL);
	snprintf(want, sizeof want,
		 "%s: string table full (400 of 512 bytes used), cannot add '0,9|t.more:'", p);
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(err.code, TL_E_FULL);
	ck_assert_uint_eq(raw(log)->strings_used, 400);
	/* what is there still interns */
	ck_assert_int_eq(tl_intern(log, "0,9|t.e2:", &id, NULL), TL_OK);
	ck_assert_uint_eq(id, 16);
	tl_close(log);
}
END_TEST

START_TEST(test_register_adds_attributes_and_reports_full)
{
	const char *p = path_in(dir, "reg.timeline");
	tl_options o = { .entries = 4, .strings_bytes = 400, .clock = TL_CLOCK_MANUAL };
	static const char *const defs[] = { "5,5|app.pull: a b\nDescr.", "5,5|app.pulled: a b" };
	tl_error err;
	tl_log *log = tl_open(p, &o, &err);
	tl_reader *r;
	uint16_t ids[2], ids2[2];
	ck_assert_int_eq(tl_register(log, defs, 2, "app=source", ids, &err), TL_OK);
	ck_assert_uint_eq(ids[0], 0);
	ck_assert_uint_eq(ids[1], 8);   /* 36 bytes round to 48, the next starts at 128 */
	ck_assert_int_eq(tl_register(log, defs, 2, "app=sink", ids2, &err), TL_E_FULL);
	ck_assert_uint_eq(ids2[0], 16);   /* fits: 256 + 48 = 304; the second, at 384, does not */
	ck_assert_str_eq(err.msg + strlen(p), ": string table full (304 of 400 bytes used), "
					       "cannot add '5,5|app.pulled app=sink: a b'");
	ck_assert_int_eq(tl_register(log, defs, 2, "a:b", ids2, &err), TL_E_INVAL);
	ck_assert_str_eq(err.msg, "attributes 'a:b' contain ':' or a newline");
	r = tl_reader_open(p, &err);
	ck_assert_str_eq(tl_reader_string(r, ids[0]), "5,5|app.pull app=source: a b\nDescr.");
	ck_assert_str_eq(tl_reader_string(r, ids[1]), "5,5|app.pulled app=source: a b");
	ck_assert_str_eq(tl_reader_string(r, ids2[0]), "5,5|app.pull app=sink: a b\nDescr.");
	tl_reader_close(r);
	tl_close(log);
}
END_TEST

/* Writes a copy of a fresh log with BYTES of it, then edits it with EDIT. */
static const char *bad_copy(const char *name, long bytes, void (*edit)(struct tl_header *))
{
	const char *src = path_in(dir, "good.timeline");
	tl_log *log = open_manual(src, 4);
	size_t len;
	char *buf, *p = strdup(path_in(dir, name));
	static char out[4096];
	tl_close(log);
	buf = read_file(src, &len);
	if (edit)
		edit((struct tl_header *)buf);
	write_file(p, buf, bytes < 0 ? len : (size_t)bytes);
	free(buf);
	snprintf(out, sizeof out, "%s", p);
	free(p);
	return out;
}

static void wrong_magic(struct tl_header *h) { h->magic ^= 1; }
static void future_major(struct tl_header *h) { h->major = 2; }
static void huge_ring(struct tl_header *h) { h->entries = 1ull << 40; h->mask = h->entries - 1; }

/* Opening PATH fails with CODE and the message "PATH: WHY". */
static void assert_refused(const char *path, int code, const char *why)
{
	tl_error err;
	char want[4200];
	ck_assert_ptr_null(tl_reader_open(path, &err));
	ck_assert_int_eq(err.code, code);
	snprintf(want, sizeof want, "%s: %s", path, why);
	ck_assert_str_eq(err.msg, want);
}

START_TEST(test_reader_refuses_bad_files_with_one_line)
{
	assert_refused(bad_copy("empty", 0, NULL), TL_E_FORMAT,
		       "not a timeline log (0 bytes, shorter than a header)");
	assert_refused(bad_copy("magic", -1, wrong_magic), TL_E_FORMAT,
		       "not a timeline log (bad magic)");
	assert_refused(bad_copy("future", -1, future_major), TL_E_VERSION,
		       "format version 2.5 is not supported (this reader reads 1.x)");
	assert_refused(bad_copy("huge", -1, huge_ring), TL_E_FORMAT,
		       "damaged header (ring of 1099511627776 entries)");
	assert_refused(bad_copy("cut", 4096 + 64, NULL), TL_E_FORMAT,
		       "truncated: header says 8448 bytes, file has 4160");
	assert_refused(dir, TL_E_FORMAT, "not a regular file");
}
END_TEST

/* A writer that rewrites the sizes after the reader checked them cannot make
 * it read outside the mapping: the reader keeps its checked copies. */
START_TEST(test_reader_ignores_sizes_changed_after_open)
{
	const char *p = path_in(dir, "toctou.timeline");
	tl_log *log = open_manual(p, 8);
	tl_error err;
	tl_reader *r;
	tl_entry e;
	tl_info in;
	uint16_t id;
	ck_assert_int_eq(tl_intern(log, "1,1|t.x:", &id, NULL), TL_OK);
	for (uint64_t i = 0; i < 3; i++)
		put(log, id, i);
	r = tl_reader_open(p, &err);
	ck_assert_ptr_nonnull(r);
	raw(log)->entries = 1ull << 31;
	raw(log)->mask = (1ull << 31) - 1;
	raw(log)->strings_bytes = 1 << 20;
	raw(log)->strings_used = 1 << 20;
	raw(log)->cursor = (1ull << 40) + 100;   /* far ahead: every slot judged by its seq */
	ck_assert_uint_eq(tl_reader_rewind(r), 8);
	while (tl_reader_next(r, &e))
		ck_abort_msg("entry %llu read with a stale seq", (unsigned long long)e.seq);
	ck_assert_uint_eq(tl_reader_skipped(r), 8);
	tl_reader_info(r, &in);
	ck_assert_uint_eq(in.entries, 8);
	ck_assert_uint_eq(in.strings_bytes, 4096);
	ck_assert_uint_eq(in.strings_used, 4096);
	ck_assert_str_eq(tl_reader_string(r, id), "1,1|t.x:");
	ck_assert_ptr_null(tl_reader_string(r, 4096 / 16));
	tl_reader_close(r);
	tl_close(log);
}
END_TEST

static int write_fd(void *ctx, const void *buf, size_t len)
{
	return write(*(int *)ctx, buf, len) == (ssize_t)len ? 0 : -1;
}

/* Near entry 2^32 the complete seq of entry 2^32 - 1 is 0: a copy must not
 * leave a dropped entry's slot zero, or it would read back as that entry. */
START_TEST(test_copy_past_2_to_the_32_never_passes_a_dropped_slot)
{
	const char *p = path_in(dir, "big.timeline"), *c = path_in(dir, "copy.timeline");
	tl_log *log = open_manual(p, 8);
	const uint64_t start = (1ull << 32) - 6;
	uint64_t kept, dropped, skipped;
	struct tl_raw_entry *e;
	tl_error err;
	tl_reader *r;
	tl_entry *v;
	size_t n;
	int fd;
	raw(log)->cursor = start;
	for (uint64_t i = start; i < start + 8; i++)
		put(log, 0, i);
	/* entry 2^32 - 1 torn by a crash: busy marker, half a payload */
	e = &tl_ring(raw(log))[((1ull << 32) - 1) & 7];
	e->seq = tl_seq_busy((1ull << 32) - 1);
	e->args[0] = 0;
	r = tl_reader_open(p, &err);
	ck_assert_ptr_nonnull(r);
	fd = open(c, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_eq(tl_reader_copy(r, write_fd, &fd, &kept, &dropped, c, &err), TL_OK);
	ck_assert_int_eq(close(fd), 0);
	tl_reader_close(r);
	tl_close(log);
	ck_assert_uint_eq(kept, 7);
	ck_assert_uint_eq(dropped, 1);
	v = read_all(c, &n, &skipped);
	ck_assert_uint_eq(n, 7);
	ck_assert_uint_eq(skipped, 1);
	for (size_t k = 0; k < n; k++)
		ck_assert_uint_ne(v[k].seq, (1ull << 32) - 1);
	assert_entry(&v[n - 1], 0, start + 7);
	free(v);
}
END_TEST

/* Events loaded from a file at run time, logged through tl_event(). */
START_TEST(test_events_file_loaded_at_run_time_logs_by_rate)
{
	const char *src = getenv("TIMELINE_SRC"), *p = path_in(dir, "rt2.timeline");
	char file[4096];
	tl_error err;
	tl_events *ev;
	tl_log *log = open_manual(p, 16);
	tl_reader *r;
	tl_entry e;
	uint16_t ids[8];
	snprintf(file, sizeof file, "%s/events/app.events", src ? src : ".");
	ev = tl_events_load(file, &err);
	ck_assert_msg(ev != NULL, "%s", err.msg);
	ck_assert_uint_eq(ev->ndefs, 4);
	ck_assert_int_eq(tl_register(log, (const char *const *)ev->canon, ev->ndefs, "app=nic",
				     ids, &err), TL_OK);
	tl_set_rate(log, 6);   /* app events are rate 5: not logged */
	tl_event(log, tl_event_code(ids[0], ev->defs[0].rate), 1, 2, 3, 4, 0, 0);
	tl_set_rate(log, 5);
	tl_event(log, tl_event_code(ids[1], ev->defs[1].rate), 5, 6, 7, 8, 0, 0);
	tl_close(log);
	r = tl_reader_open(p, &err);
	ck_assert_uint_eq(tl_reader_rewind(r), 1);
	ck_assert_int_eq(tl_reader_next(r, &e), 1);
	ck_assert_uint_eq(e.args[0], 5);
	ck_assert_uint_eq(e.args[3], 8);
	ck_assert_str_eq(tl_reader_string(r, e.msgid),
			 "5,5|app.pulled app=nic: inpackets inbytes outpackets outbytes\n"
			 "The app's pull callback returned. Same running totals as 'pull', taken\n"
			 "just after the call.");
	ck_assert_int_eq(tl_reader_next(r, &e), 0);
	tl_reader_close(r);
	tl_events_free(ev);
}
END_TEST

/* Resident kilobytes of the mapping that starts at ADDR, from smaps. */
static long rss_kb(const void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512], want[32];
	long kb = -1;
	int in = 0;
	snprintf(want, sizeof want, "%lx-", (unsigned long)addr);
	while (f && fgets(line, sizeof line, f)) {
		if (strchr(line, '-') && strchr(line, '-') < strchr(line, ' '))
			in = !strncmp(line, want, strlen(want));
		else if (in && !strncmp(line, "Rss:", 4))
			kb = strtol(line + 4, NULL, 10);
	}
	if (f)
		fclose(f);
	return kb;
}

START_TEST(test_ring_is_prefaulted_unless_asked_not_to)
{
	tl_options o = { .entries = 1 << 14, .strings_bytes = 4096 };   /* 1 MiB of ring */
	tl_error err;
	tl_log *log = tl_open(path_in(dir, "pf.timeline"), &o, &err);
	ck_assert_ptr_nonnull(log);
	ck_assert_int_eq(rss_kb(log), (4096 + (1 << 14) * 64 + 4096) / 1024);
	tl_close(log);
	o.no_prefault = 1;
	log = tl_open(path_in(dir, "npf.timeline"), &o, &err);
	ck_assert_ptr_nonnull(log);
	ck_assert_int_eq(rss_kb(log), 4);   /* the header page, written at creation */
	tl_close(log);
}
END_TEST

Suite *format_suite(void)
{
	Suite *s = suite_create("format");
	TCase *t = tcase_create("format");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_entries_round_trip_field_by_field);
	tcase_add_test(t, test_header_describes_the_writer);
	tcase_add_test(t, test_ring_wraps_around);
	tcase_add_test(t, test_entry_cut_off_mid_write_is_rejected);
	tcase_add_test(t, test_overwrite_cut_off_loses_only_the_oldest_entry);
	tcase_add_test(t, test_complete_entry_past_the_cursor_is_read);
	tcase_add_test(t, test_strings_are_interned_once_and_aligned);
	tcase_add_test(t, test_full_string_table_fails_cleanly);
	tcase_add_test(t, test_register_adds_attributes_and_reports_full);
	tcase_add_test(t, test_reader_refuses_bad_files_with_one_line);
	tcase_add_test(t, test_events_file_loaded_at_run_time_logs_by_rate);
	tcase_add_test(t, test_reader_ignores_sizes_changed_after_open);
	tcase_add_test(t, test_copy_past_2_to_the_32_never_passes_a_dropped_slot);
	tcase_add_test(t, test_ring_is_prefaulted_unless_asked_not_to);
	suite_add_tcase(s, t);
	return s;
}
