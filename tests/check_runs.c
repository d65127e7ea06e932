/* check_runs.c: the tests over runs (analysis/runs.c) against values
 * counted by hand: exact p-values by enumerating every split of the ranks
 * (tests/mwu_exact.py, a few lines of Python, did it), the smallest
 * p-value a number of runs allows, and the Hodges-Lehmann change with its
 * exact interval. */
#include <math.h>
#include "runs.h"
#include "util.h"

#define EPS 1e-12

START_TEST(test_exact_p_of_complete_separation_is_two_in_c_10_5)
{
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	ck_assert_double_eq_tol(runs_mwu_p(a, 5, b, 5), 2.0 / 252, EPS);
	ck_assert_double_eq_tol(runs_mwu_p(b, 5, a, 5), 2.0 / 252, EPS);
	ck_assert_double_eq_tol(runs_mwu_p(a, 3, b, 3), 0.1, EPS);
	ck_assert_double_eq_tol(runs_mwu_p(a, 0, b, 3), 1, EPS);
}
END_TEST

START_TEST(test_exact_p_with_ties_uses_mid_ranks)
{
	double a[] = { 1, 2, 2, 3 }, b[] = { 2, 3, 4, 5 };
	double c[] = { 10.5, 11.2, 10.1, 12.0, 11.7 }, d[] = { 11.9, 12.5, 13.1, 12.2, 14.0 };
	ck_assert_double_eq_tol(runs_mwu_p(a, 4, b, 4), 14.0 / 70, EPS);
	ck_assert_double_eq_tol(runs_mwu_p(c, 5, d, 5), 4.0 / 252, EPS);
}
END_TEST

START_TEST(test_runs_needed_to_reach_alpha)
{
	ck_assert_double_eq_tol(runs_min_p(5, 5), 2.0 / 252, EPS);
	ck_assert_double_eq_tol(runs_min_p(1, 1), 1, EPS);
	ck_assert_uint_eq(runs_needed(0.05), 4);   /* 2/70 = 0.029; 3 runs: 2/20 = 0.1 */
	ck_assert_uint_eq(runs_needed(0.01), 5);   /* 2/252 = 0.0079; 4: 0.029 */
	ck_assert_uint_eq(runs_needed(0.1), 4);    /* 3 runs give exactly 0.1: not below */
}
END_TEST

START_TEST(test_change_and_its_exact_interval)
{
	double a[] = { 10.5, 11.2, 10.1, 12.0, 11.7 }, b[] = { 11.9, 12.5, 13.1, 12.2, 14.0 };
	double ch, lo, hi;
	ck_assert_int_eq(runs_change(a, 5, b, 5, 0.05, &ch, &lo, &hi), 0);
	ck_assert_double_eq_tol(ch, 0.16190476190476197, 1e-12);
	ck_assert_double_eq_tol(lo, 0.017094017094017144, 1e-12);   /* 3rd of 25 ratios */
	ck_assert_double_eq_tol(hi, 0.29702970297029685, 1e-12);    /* 23rd */
	/* three runs a side: no interval at 95% (P(U = 0) = 1/20 > 0.025) */
	ck_assert_int_eq(runs_change(a, 3, b, 3, 0.05, &ch, &lo, &hi), 1);
	ck_assert_int_eq(runs_change(a, 0, b, 3, 0.05, &ch, &lo, &hi), -1);
}
END_TEST

/* Four runs a side: 16 ratios, an even number; the change is the geometric
 * mean of the middle two, 170/120 and 160/110, not either of them. */
START_TEST(test_change_of_an_even_number_of_ratios_is_the_geometric_mean_of_the_middle_two)
{
	double a[] = { 100, 110, 120, 130 }, b[] = { 150, 160, 170, 180 };
	double ch, lo, hi;
	ck_assert_int_eq(runs_change(a, 4, b, 4, 0.05, &ch, &lo, &hi), 0);
	ck_assert_double_eq_tol(ch, 0.4354811251305468, 1e-12);
	ck_assert_double_eq_tol(lo, 0.15384615384615374, 1e-12);   /* 1st of 16: 150/130 */
	ck_assert_double_eq_tol(hi, 0.8, 1e-12);                    /* 16th: 180/100 */
}
END_TEST


/* Four groups, runs 0 and 2 at speed 1, runs 1 and 3 twice as slow; group
 * 2 costs 1.5 times more in runs 2 and 3 (side B). */
static const double four_groups[4 * 4] = {
	10, 20, 10, 20,         /* yardstick 15 */
	100, 200, 100, 200,     /* yardstick 150 */
	1, 2, 1.5, 3,           /* yardstick 1.75 */
	1000, 2000, 1000, 2000, /* yardstick 1500 */
};

START_TEST(test_relative_cancels_the_speed_of_a_run)
{
	double out[16], speed[4], change, lo, hi;
	ck_assert_int_eq(runs_relative(four_groups, 4, 4, NULL, out, speed), 0);
	/* group 2 seen from groups 0, 1 and 3, which agree on every run's speed */
	ck_assert_double_eq_tol(out[8], 1.5, EPS);
	ck_assert_double_eq_tol(out[9], 1.5, EPS);
	ck_assert_double_eq_tol(out[10], 2.25, EPS);
	ck_assert_double_eq_tol(out[11], 2.25, EPS);
	/* group 0 in run 0: the median of 100/150, 1/1.75 and 1000/1500, where
	 * group 2's changed value cannot reach */
	for (int r = 0; r < 4; r++) {
		ck_assert_double_eq_tol(out[r], 15, EPS);
		ck_assert_double_eq_tol(out[4 + r], 150, EPS);
		ck_assert_double_eq_tol(out[12 + r], 1500, EPS);
	}
	/* the runs' speeds: the median of the four ratios */
	ck_assert_double_eq_tol(speed[0], 2 / 3.0, EPS);
	ck_assert_double_eq_tol(speed[1], 4 / 3.0, EPS);
	ck_assert_double_eq_tol(speed[2], 2 / 3.0, EPS);
	ck_assert_double_eq_tol(speed[3], 4 / 3.0, EPS);
	/* the change of group 2 is exactly its own, +50%, in every pair of runs */
	ck_assert_int_eq(runs_change(out + 8, 2, out + 10, 2, 0.05, &change, &lo, &hi), 1);
	ck_assert_double_eq_tol(change, 0.5, EPS);
}
END_TEST

/* Six groups over runs 0-1 (side A) and 2-3 (B) of one speed: group 0
 * four times dearer in B, group 5 (the breath around it) twice; groups 2-4
 * jitter by 10% (2 and 4 the opposite ways), groups 1 and 3 do not move. */
static const double six_groups[6 * 4] = {
	1, 1, 4, 4,             /* yardstick 2.5 */
	10, 10, 10, 10,
	1.1, 1.1, 0.9, 0.9,     /* yardstick 1 */
	1, 1, 1, 1,
	0.9, 0.9, 1.1, 1.1,     /* yardstick 1 */
	1, 1, 2, 2,             /* yardstick 1.5 */
};

START_TEST(test_relative_second_pass_leaves_out_the_groups_that_moved)
{
	static const unsigned char side[4] = { 0, 0, 1, 1 };
	double out[24], speed[4];
	/* one pass: the median of group 1's five others is the highest of the
	 * three unmoved ones in B (groups 0 and 5 above them), the lowest in A:
	 * 1.1 and 0.9, so group 1 reads 18% cheaper in B though it did not move */
	ck_assert_int_eq(runs_relative(six_groups, 6, 4, NULL, out, speed), 0);
	ck_assert_double_eq_tol(out[4], 10 / 0.9, EPS);
	ck_assert_double_eq_tol(out[5], 10 / 0.9, EPS);
	ck_assert_double_eq_tol(out[6], 10 / 1.1, EPS);
	ck_assert_double_eq_tol(out[7], 10 / 1.1, EPS);
	ck_assert_double_eq_tol(out[12], 1 / 0.9, EPS);
	ck_assert_double_eq_tol(out[14], 1 / 1.1, EPS);
	/* with the sides: each group's speed from the three others that moved
	 * least (groups 2, 3 and 4 for group 1; 1, 2 and 4 for group 3): the
	 * median of 0.9, 1 and 1.1 in every run, so neither moves */
	ck_assert_int_eq(runs_relative(six_groups, 6, 4, side, out, speed), 0);
	for (int r = 0; r < 4; r++) {
		ck_assert_double_eq_tol(out[4 + r], 10, EPS);
		ck_assert_double_eq_tol(out[12 + r], 1, EPS);
	}
	/* group 0 keeps its change: four times, seen from unmoved groups */
	ck_assert_double_eq_tol(out[2] / out[0], 4, EPS);
	/* the runs' speeds from the four groups nearest the change most share
	 * (none: 1, 0, 0 and 2, 3, 4 are the tightest three), groups 1-4: run
	 * 0's ratios 1, 1.1, 1 and 0.9, whose median is 1; over every group it
	 * would be 0.95 (0.4 and 0.667 from groups 0 and 5 with them) */
	ck_assert_double_eq_tol(speed[0], 1, EPS);
	ck_assert_double_eq_tol(speed[2], 1, EPS);
}
END_TEST

/* Six groups, runs 0-1 (side A) and 2-3 (B): B's machine 1.3 times slower
 * for groups 2-5, while groups 0 and 1 got 25% cheaper on it (0.975 as
 * they stand). Most groups moved by 1.3: that is the speed change, and the
 * two that moved least as they stand are the two that changed. */
static const double side_slower[6 * 4] = {
	10, 10, 9.75, 9.75,     /* yardstick 9.875 */
	20, 20, 19.5, 19.5,
	1, 1, 1.3, 1.3,         /* yardstick 1.15 */
	2, 2, 2.6, 2.6,
	3, 3, 3.9, 3.9,
	4, 4, 5.2, 5.2,
};

START_TEST(test_relative_second_pass_finds_the_change_most_groups_share)
{
	static const unsigned char side[4] = { 0, 0, 1, 1 };
	double out[24], speed[4];
	ck_assert_int_eq(runs_relative(side_slower, 6, 4, side, out, speed), 0);
	/* groups 2-5 from three of the others of 2-5: 1/1.15 in A, 1.3/1.15
	 * in B, so each reads its yardstick in every run */
	for (int g = 2; g < 6; g++)
		for (int r = 0; r < 4; r++)
			ck_assert_double_eq_tol(out[g * 4 + r], (g - 1) * 1.15, EPS);
	/* group 0 from groups 2, 3 and 4: 25% cheaper, 10 * 1.15 -> 9.75 * 1.15 / 1.3 */
	ck_assert_double_eq_tol(out[0], 11.5, EPS);
	ck_assert_double_eq_tol(out[1], 11.5, EPS);
	ck_assert_double_eq_tol(out[2], 8.625, EPS);
	ck_assert_double_eq_tol(out[3], 8.625, EPS);
}
END_TEST

/* Medians of cycles per packet of an A/A run of the demo engine that made
 * diff flag the source SLOWER (+24%): in runs 6 and 7 three cheap apps
 * (lookup, rewrite, sink) ran 35-50% faster together, the others did not.
 * Rows: breath, checksum, lookup, rewrite, sink, source; runs 0-3 side A. */
static const double half_moved[6 * 8] = {
	224, 222, 222, 222, 222, 224, 216, 214,
	152, 150, 150, 152, 152, 152, 148, 150,
	18.81, 18.19, 18.56, 18.56, 17.06, 16.81, 11.34, 11.28,
	21.31, 19.81, 19.44, 21.31, 18.31, 20.06, 12.97, 13.16,
	11.53, 12.09, 12.03, 12.03, 10.78, 11.41, 5.859, 6.203,
	39.62, 38.38, 39.12, 39.38, 40.12, 40.38, 36.62, 34.88,
};

START_TEST(test_relative_second_pass_with_half_the_groups_moved_together)
{
	static const unsigned char side[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	double out[48], speed[8], change, lo, hi;
	ck_assert_int_eq(runs_relative(half_moved, 6, 8, side, out, speed), 0);
	/* the changes of the sides' medians: breath -1.35%, checksum 0, source
	 * -2.2% (the tightest three) against lookup -24%, rewrite -23%, sink
	 * -29%; the source's voters are the breath, the checksum and the
	 * rewrite (the nearest of the rest). Run 6: the median of 216/222,
	 * 148/151 and 12.97/19.625 is 216/222 */
	ck_assert_double_eq_tol(out[5 * 8 + 6], 36.62 * 222 / 216, EPS);
	ck_assert_double_eq_tol(out[5 * 8 + 7], 34.88 * 222 / 214, EPS);
	ck_assert_double_eq_tol(out[5 * 8 + 0], 39.62 * 222 / 224, EPS);
	/* so the source did not move: its change is the geometric mean of the
	 * middle two of the 16 ratios B/A, run 6 over run 1 and run 5 over run
	 * 2 (whose speeds are 224/222 and 150/151), -0.17% */
	ck_assert_int_eq(runs_change(out + 40, 4, out + 44, 4, 0.05, &change, &lo, &hi), 0);
	ck_assert_double_eq_tol(change,
				sqrt(36.62 * 222 / 216 / 38.38 * (40.38 * 222 / 224) /
				     (39.12 * 151 / 150)) - 1, EPS);
}
END_TEST

/* Five unchanged groups, runs 0 (side A) and 2 (B) twice as slow as runs
 * 1 and 3, group 1 without a value in run 0 (and none of the groups
 * moving between the sides: all are nearest alike, in index order). The
 * next group takes group 1's place among the nearest, for the run's speed
 * and for each group's. */
START_TEST(test_relative_a_group_missing_in_a_run_gives_its_place_to_the_next)
{
	static const unsigned char side[4] = { 0, 0, 1, 1 };
	double v[5 * 4] = { 20, 10, 20, 10, 0, 30, 40, 20, 60, 30, 60, 30,
			    80, 40, 80, 40, 100, 50, 100, 50 };
	double out[20], speed[4];
	ck_assert_int_eq(runs_relative(v, 5, 4, side, out, speed), 0);
	/* run 0's speed from groups 0, 2, 3 and 4 (four wanted, 1 has none):
	 * each at 4/3 of its yardstick (15, 45, 60, 75) */
	ck_assert_double_eq_tol(speed[0], 4 / 3.0, EPS);
	ck_assert_double_eq_tol(speed[1], 2 / 3.0, EPS);
	/* group 0 from 2, 3 and 4 in run 0, group 2 from 0, 3 and 4: each its
	 * yardstick */
	ck_assert_double_eq_tol(out[0], 15, EPS);
	ck_assert_double_eq_tol(out[8], 45, EPS);
	ck_assert_double_eq(out[4], 0);   /* no value stays none */
}
END_TEST

START_TEST(test_relative_leaves_a_run_with_fewer_than_three_other_groups)
{
	double v[3 * 3] = { 10, 20, 30, 1, 2, 0, 5, 5, 5 }, out[9], speed[3];
	/* three groups: two others each, so every value stays as it is */
	ck_assert_int_eq(runs_relative(v, 3, 3, NULL, out, speed), 8);
	for (int i = 0; i < 9; i++)
		ck_assert_double_eq(out[i], v[i]);
	for (int r = 0; r < 3; r++)
		ck_assert(isnan(speed[r]));
}
END_TEST

START_TEST(test_relative_skips_a_group_without_a_value_in_the_run)
{
	/* group 1 has no value in run 1: the others there have two others */
	double v[4 * 2] = { 10, 10, 100, NAN, 1, 2, 7, 7 }, out[8], speed[2];
	ck_assert_int_eq(runs_relative(v, 4, 2, NULL, out, speed), 3);
	ck_assert_double_eq(out[1], 10);            /* left as they are, counted */
	ck_assert_double_eq(out[5], 2);
	ck_assert_double_eq(out[7], 7);
	ck_assert(isnan(out[3]));                   /* no value stays none */
	/* run 0, group 2: others 10/10, 100/100 and 7/7 */
	ck_assert_double_eq_tol(out[4], 1, EPS);
	ck_assert_double_eq_tol(speed[0], 1, EPS);
	ck_assert(isnan(speed[1]));                 /* three groups: fewer than four */
}
END_TEST

Suite *runs_suite(void)
{
	Suite *s = suite_create("runs");
	TCase *t = tcase_create("runs");
	tcase_add_test(t, test_exact_p_of_complete_separation_is_two_in_c_10_5);
	tcase_add_test(t, test_exact_p_with_ties_uses_mid_ranks);
	tcase_add_test(t, test_runs_needed_to_reach_alpha);
	tcase_add_test(t, test_change_and_its_exact_interval);
	tcase_add_test(t, test_change_of_an_even_number_of_ratios_is_the_geometric_mean_of_the_middle_two);
	tcase_add_test(t, test_relative_cancels_the_speed_of_a_run);
	tcase_add_test(t, test_relative_second_pass_leaves_out_the_groups_that_moved);
	tcase_add_test(t, test_relative_second_pass_finds_the_change_most_groups_share);
	tcase_add_test(t, test_relative_second_pass_with_half_the_groups_moved_together);
	tcase_add_test(t, test_relative_a_group_missing_in_a_run_gives_its_place_to_the_next);
	tcase_add_test(t, test_relative_leaves_a_run_with_fewer_than_three_other_groups);
	tcase_add_test(t, test_relative_skips_a_group_without_a_value_in_the_run);
	suite_add_tcase(s, t);
	return s;
}
