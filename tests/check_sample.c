/* check_sample.c: per-breath sampling follows Snabb's distribution, and
 * fixed rates stay fixed. */
#include <math.h>
#include <stdlib.h>
#include "util.h"

static char *dir;
static void setup(void) { dir = tmpdir_new(); }
static void teardown(void) { rm_rf(dir); free(dir); }

/* P(rate <= k) = P(r <= 5^k) = 5^(k-9): the share of breaths in which an
 * event of rate k is logged. Over 10^6 breaths every count must be within
 * 5 standard deviations (+1 for the rarest) of its expectation. */
START_TEST(test_rate_distribution_matches_snabb)
{
	const unsigned long n = 1000000;
	tl_log *log = open_manual(path_in(dir, "s.timeline"), 2);
	unsigned long count[11] = { 0 };
	tl_seed(log, 12345);
	for (unsigned long i = 0; i < n; i++) {
		tl_breath(log);
		count[tl_rate(log)]++;
	}
	ck_assert_uint_eq(count[0], 0);
	ck_assert_uint_eq(count[10], 0);
	for (int k = 1; k <= 9; k++) {
		unsigned long le = 0;
		for (int j = 1; j <= k; j++)
			le += count[j];
		double p = pow(5, k - 9), mean = n * p, sd = sqrt(n * p * (1 - p));
		ck_assert_msg(fabs((double)le - mean) <= 5 * sd + 1,
			      "P(rate <= %d): %lu of %lu breaths, expected %.1f +- %.1f", k, le, n, mean,
			      5 * sd + 1);
	}
	/* the common cases, tighter: 80% rate 9, 16% rate 8 */
	ck_assert_uint_ge(count[9], 798000);
	ck_assert_uint_le(count[9], 802000);
	tl_close(log);
}
END_TEST

START_TEST(test_fixed_rate_survives_breaths_until_auto)
{
	tl_log *log = open_manual(path_in(dir, "f.timeline"), 2);
	int changed = 0;
	ck_assert_uint_eq(tl_rate(log), 1);   /* a new log logs every event of rate >= 1 */
	ck_assert_int_eq(tl_set_rate(log, 4), TL_OK);
	for (int i = 0; i < 1000; i++) {
		tl_breath(log);
		ck_assert_uint_eq(tl_rate(log), 4);
	}
	ck_assert_int_eq(tl_set_rate(log, TL_RATE_AUTO), TL_OK);
	for (int i = 0; i < 1000; i++) {
		tl_breath(log);
		changed |= tl_rate(log) != 4;
	}
	ck_assert_int_eq(changed, 1);
	ck_assert_int_eq(tl_set_rate(log, 11), TL_E_INVAL);
	ck_assert_int_eq(tl_set_rate(log, TL_RATE_OFF), TL_OK);
	tl_breath(log);
	ck_assert_uint_eq(tl_rate(log), TL_RATE_OFF);
	tl_close(log);
}
END_TEST

START_TEST(test_same_seed_same_rates)
{
	tl_log *a = open_manual(path_in(dir, "a.timeline"), 2);
	tl_log *b = open_manual(path_in(dir, "b.timeline"), 2);
	tl_seed(a, 99);
	tl_seed(b, 99);
	for (int i = 0; i < 10000; i++) {
		tl_breath(a);
		tl_breath(b);
		ck_assert_uint_eq(tl_rate(a), tl_rate(b));
	}
	tl_close(a);
	tl_close(b);
}
END_TEST

Suite *sample_suite(void)
{
	Suite *s = suite_create("sample");
	TCase *t = tcase_create("sample");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_rate_distribution_matches_snabb);
	tcase_add_test(t, test_fixed_rate_survives_breaths_until_auto);
	tcase_add_test(t, test_same_seed_same_rates);
	suite_add_tcase(s, t);
	return s;
}
