/* check_batch.c: tl_reader_read, a snapshot read in batches: the same
 * entries, in the same order, as tl_reader_next() one at a time, whatever
 * the batch size, for our logs (wrapped or not, followed) and Snabb's. */
#include <stdlib.h>
#include <string.h>
#include "util.h"

/* Writes a log at PATH of ENTRIES slots holding N entries (it wraps when N
 * is larger): entry i at tsc 1000 + 10 i on cpu i % 4, args i, 2i, ... 6i. */
static void numbered_log(const char *path, uint64_t entries, uint64_t n)
{
	tl_log *log = open_manual(path, entries);
	uint16_t id;
	ck_assert_int_eq(tl_intern(log, "1,9|t.n: a b c d e f", &id, NULL), TL_OK);
	for (uint64_t i = 0; i < n; i++) {
		tl_set_manual_clock(log, 1000 + 10 * i, (uint16_t)(i % 4));
		tl_append(log, id, i, 2 * i, 3 * i, 4 * i, 5 * i, 6 * i);
	}
	tl_close(log);
}

/* Reads PATH's snapshot in batches of BATCH into a malloc'd array; *N gets
 * the count. */
static tl_entry *read_batches(const char *path, size_t batch, size_t *n)
{
	tl_error err;
	tl_reader *r = tl_reader_open(path, &err);
	size_t cap, k = 0, got;
	tl_entry *v;
	ck_assert_msg(r != NULL, "tl_reader_open: %s", err.msg);
	cap = (size_t)tl_reader_rewind(r) + 1 + batch;
	v = calloc(cap, sizeof *v);
	do {
		got = tl_reader_read(r, v + k, batch);
		ck_assert_uint_le(got, batch);
		k += got;
	} while (got == batch);
	ck_assert_uint_eq(tl_reader_read(r, v, batch), 0);   /* the end stays the end */
	tl_reader_close(r);
	*n = k;
	return v;
}

/* Whether A and B hold the same entry, field by field (not their padding). */
static int same_entry(const tl_entry *a, const tl_entry *b)
{
	return a->seq == b->seq && a->tsc == b->tsc && a->msgid == b->msgid && a->cpu == b->cpu &&
	       a->numa == b->numa && a->aux == b->aux && a->dargs == b->dargs &&
	       !memcmp(a->args, b->args, sizeof a->args);
}

/* Checks that PATH reads the same in batches of every size in SIZES as
 * entry by entry; returns the count. */
static size_t same_in_batches(const char *path, const size_t *sizes, size_t nsizes)
{
	size_t n1, n2;
	tl_entry *one = read_all(path, &n1, NULL);
	for (size_t s = 0; s < nsizes; s++) {
		tl_entry *b = read_batches(path, sizes[s], &n2);
		ck_assert_uint_eq(n2, n1);
		for (size_t i = 0; i < n1; i++)
			ck_assert_msg(same_entry(&one[i], &b[i]), "batches of %zu: entry %zu differs",
				      sizes[s], i);
		free(b);
	}
	free(one);
	return n1;
}

static const size_t SIZES[] = { 1, 7, 32, 33, 65536 };

START_TEST(test_a_wrapped_log_reads_in_batches_as_entry_by_entry)
{
	const char *p = path_in(test_dir, "wrapped.timeline");
	size_t n;
	tl_entry *e;
	numbered_log(p, 32, 50);
	ck_assert_uint_eq(same_in_batches(p, SIZES, 5), 32);
	/* and what they read is the last 32 entries written, oldest first */
	e = read_batches(p, 7, &n);
	for (size_t i = 0; i < n; i++) {
		uint64_t k = 18 + i;
		ck_assert_uint_eq(e[i].seq, k);
		ck_assert_uint_eq(e[i].tsc, 1000 + 10 * k);
		ck_assert_uint_eq(e[i].cpu, k % 4);
		ck_assert_uint_eq(e[i].args[0], k);
		ck_assert_uint_eq(e[i].args[5], 6 * k);
	}
	free(e);
}
END_TEST

START_TEST(test_a_log_that_never_wrapped_reads_in_batches_as_entry_by_entry)
{
	const char *p = path_in(test_dir, "part.timeline");
	numbered_log(p, 64, 20);
	ck_assert_uint_eq(same_in_batches(p, SIZES, 5), 20);
}
END_TEST

START_TEST(test_a_batch_of_none_moves_nothing)
{
	const char *p = path_in(test_dir, "none.timeline");
	tl_error err;
	tl_reader *r;
	tl_entry e[4];
	numbered_log(p, 16, 3);
	r = tl_reader_open(p, &err);
	ck_assert_ptr_nonnull(r);
	tl_reader_rewind(r);
	ck_assert_uint_eq(tl_reader_read(r, e, 0), 0);
	ck_assert_uint_eq(tl_reader_read(r, e, 4), 3);
	ck_assert_uint_eq(e[0].seq, 0);
	ck_assert_uint_eq(e[2].seq, 2);
	/* a rewind reads the snapshot again */
	tl_reader_rewind(r);
	ck_assert_uint_eq(tl_reader_read(r, e, 2), 2);
	ck_assert_uint_eq(e[1].seq, 1);
	tl_reader_close(r);
}
END_TEST

START_TEST(test_a_followed_log_reads_only_what_is_new_in_batches)
{
	const char *p = path_in(test_dir, "follow.timeline");
	tl_log *log = open_manual(p, 64);
	tl_error err;
	tl_reader *r;
	tl_entry e[16];
	uint16_t id;
	uint64_t from;
	ck_assert_int_eq(tl_intern(log, "1,9|t.n: a", &id, NULL), TL_OK);
	for (uint64_t i = 0; i < 5; i++)
		tl_append(log, id, i, 0, 0, 0, 0, 0);
	r = tl_reader_open(p, &err);
	ck_assert_ptr_nonnull(r);
	from = tl_reader_since(r, 0, NULL);
	ck_assert_uint_eq(tl_reader_read(r, e, 16), 5);
	for (uint64_t i = 5; i < 8; i++)
		tl_append(log, id, i, 0, 0, 0, 0, 0);
	tl_reader_since(r, from, NULL);
	ck_assert_uint_eq(tl_reader_read(r, e, 16), 3);
	ck_assert_uint_eq(e[0].seq, 5);
	ck_assert_uint_eq(e[0].args[0], 5);
	ck_assert_uint_eq(e[2].seq, 7);
	tl_reader_close(r);
	tl_close(log);
}
END_TEST

START_TEST(test_the_snabb_fixture_reads_in_batches_as_entry_by_entry)
{
	const char *fx = getenv("TIMELINE_FIXTURES");
	const char *z = test_str("%s/snabb-v3/engine-short.events.timeline.zst", fx ? fx : "tests/fixtures");
	const char *p = path_in(test_dir, "snabb.timeline");
	static const size_t sizes[] = { 7, 65536 };
	/* decompressed once: each read of the copy would decompress it again */
	unzstd(z, p);
	ck_assert_uint_gt(same_in_batches(p, sizes, 2), 1000);
}
END_TEST

Suite *batch_suite(void)
{
	Suite *s = suite_create("batch");
	TCase *t = tcase_create("batch");
	tcase_add_checked_fixture(t, test_dir_setup, test_dir_teardown);
	/* the Snabb fixture is a ring of a million slots: on a loaded machine
	 * its three reads take seconds */
	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_a_wrapped_log_reads_in_batches_as_entry_by_entry);
	tcase_add_test(t, test_a_log_that_never_wrapped_reads_in_batches_as_entry_by_entry);
	tcase_add_test(t, test_a_batch_of_none_moves_nothing);
	tcase_add_test(t, test_a_followed_log_reads_only_what_is_new_in_batches);
	tcase_add_test(t, test_the_snabb_fixture_reads_in_batches_as_entry_by_entry);
	suite_add_tcase(s, t);
	return s;
}
