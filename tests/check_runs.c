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


/* Unequal sides (issue 30): the exact p is centred on A's mean rank sum,
 * whichever side is the larger; by enumeration (tests/mwu_exact.py),
 * 3 runs against 5 fully apart: 2 of C(8, 3) = 56 splits as far out; 4
 * against 7 interleaved (W = 16 of 4 x 12 / 2 = 24): 54 of 330. */
START_TEST(test_exact_p_with_unequal_sides_is_centred_on_a_s_mean_rank_sum)
{
	double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6, 7, 8 };
	double c[] = { 1, 3, 5, 7 }, d[] = { 2, 4, 6, 8, 9, 10, 11 };
	ck_assert_double_eq_tol(runs_mwu_p(a, 3, b, 5), 2.0 / 56, EPS);
	ck_assert_double_eq_tol(runs_mwu_p(b, 5, a, 3), 2.0 / 56, EPS);
	ck_assert_double_eq_tol(runs_mwu_p(c, 4, d, 7), 54.0 / 330, EPS);
	ck_assert_double_eq_tol(runs_mwu_p(d, 7, c, 4), 54.0 / 330, EPS);
	/* the smallest p of 3 against 5 is below 0.05, of 5 against 2 not */
	ck_assert_double_eq_tol(runs_min_p(3, 5), 2.0 / 56, EPS);
	ck_assert_double_eq_tol(runs_min_p(5, 2), 2.0 / 21, EPS);
	ck_assert_double_eq_tol(runs_min_p(2, 5), 2.0 / 21, EPS);
}
END_TEST

/* The interval's critical count with unequal sides, by enumerating U
 * (tests/mwu_exact.py): 1 for 3 runs against 5 (P(U = 0) = 1/56 <= 0.025,
 * P(U <= 1) = 2/56 > 0.025) either way round, 4 for 4 against 7 (P(U <= 3)
 * = 7/330, P(U <= 4) = 12/330); the interval is the c-th smallest and
 * largest of the ratios b/a. */
START_TEST(test_interval_with_unequal_sides_takes_a_s_critical_count)
{
	double a[] = { 10, 11, 12 }, b[] = { 13, 14, 15, 16, 17 };
	double c[] = { 100, 110, 120, 130 }, d[] = { 125, 135, 145, 155, 165, 175, 185 };
	double ch, lo, hi;
	ck_assert_int_eq(runs_change(a, 3, b, 5, 0.05, &ch, &lo, &hi), 0);
	ck_assert_double_eq_tol(ch, 15.0 / 11 - 1, EPS);   /* the 8th of 15 ratios */
	ck_assert_double_eq_tol(lo, 13.0 / 12 - 1, EPS);   /* the smallest */
	ck_assert_double_eq_tol(hi, 17.0 / 10 - 1, EPS);   /* the largest */
	ck_assert_int_eq(runs_change(b, 5, a, 3, 0.05, &ch, &lo, &hi), 0);
	ck_assert_double_eq_tol(ch, 11.0 / 15 - 1, EPS);
	ck_assert_double_eq_tol(lo, 10.0 / 17 - 1, EPS);
	ck_assert_double_eq_tol(hi, 12.0 / 13 - 1, EPS);
	/* 28 ratios: the change the geometric mean of the 14th and 15th,
	 * 175/130 and 135/100; the interval the 4th (145/130) and the 25th
	 * (165/100) */
	ck_assert_int_eq(runs_change(c, 4, d, 7, 0.05, &ch, &lo, &hi), 0);
	ck_assert_double_eq_tol(ch, sqrt(175.0 / 130 * 135 / 100) - 1, EPS);
	ck_assert_double_eq_tol(lo, 145.0 / 130 - 1, EPS);
	ck_assert_double_eq_tol(hi, 165.0 / 100 - 1, EPS);
}
END_TEST

/* 64 runs in all, the largest number tested exactly, and 66 by the normal
 * approximation with its continuity correction: A = 100, 102, ..., B =
 * 111, 113, ... (no ties). Exact at 32 a side, by counting the splits in
 * integers (tests/mwu_exact.py): 0.030480999148156992, where the normal
 * approximation would give 0.031157280233589577; at 33 a side the
 * approximation, 0.033265736346818356 (0.032738672448452195 without the
 * correction); 30 against 40, U from A's rank sum either way round,
 * 0.00037882660738853006. */
START_TEST(test_64_runs_are_tested_exactly_and_more_by_the_corrected_normal)
{
	double a[40], b[40];
	for (int i = 0; i < 40; i++) {
		a[i] = 100 + 2 * i;
		b[i] = 111 + 2 * i;
	}
	ck_assert_double_eq_tol(runs_mwu_p(a, 32, b, 32), 0.030480999148156992, EPS);
	ck_assert_double_eq_tol(runs_mwu_p(a, 33, b, 33), 0.033265736346818356, EPS);
	ck_assert_double_eq_tol(runs_mwu_p(a, 30, b, 40), 0.00037882660738853006, EPS);
	ck_assert_double_eq_tol(runs_mwu_p(b, 40, a, 30), 0.00037882660738853006, EPS);
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
	ck_assert_int_eq(runs_relative(four_groups, NULL, NULL, 4, 4, NULL, out, speed), 0);
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
	ck_assert_int_eq(runs_relative(six_groups, NULL, NULL, 6, 4, NULL, out, speed), 0);
	ck_assert_double_eq_tol(out[4], 10 / 0.9, EPS);
	ck_assert_double_eq_tol(out[5], 10 / 0.9, EPS);
	ck_assert_double_eq_tol(out[6], 10 / 1.1, EPS);
	ck_assert_double_eq_tol(out[7], 10 / 1.1, EPS);
	ck_assert_double_eq_tol(out[12], 1 / 0.9, EPS);
	ck_assert_double_eq_tol(out[14], 1 / 1.1, EPS);
	/* with the sides: each group's speed from the three others that moved
	 * least (groups 2, 3 and 4 for group 1; 1, 2 and 4 for group 3): the
	 * median of 0.9, 1 and 1.1 in every run, so neither moves */
	ck_assert_int_eq(runs_relative(six_groups, NULL, NULL, 6, 4, side, out, speed), 0);
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
	ck_assert_int_eq(runs_relative(side_slower, NULL, NULL, 6, 4, side, out, speed), 0);
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

/* Five groups, an odd number, runs 0-1 (side A) and 2-3 (B): groups 2-4
 * 1.3 times dearer on B's machine, groups 0 and 1 unmoved. The change most
 * share comes from the tightest three of the five changes (half rounded
 * up): 1.3, B's machine slower; of two, two unmoved groups would tie with
 * no change. */
START_TEST(test_relative_shared_change_of_five_groups_is_the_tightest_three)
{
	static const unsigned char side[4] = { 0, 0, 1, 1 };
	static const double v[5 * 4] = {
		10, 10, 10, 10,
		20, 20, 20, 20,
		1, 1, 1.3, 1.3,         /* yardstick 1.15 */
		2, 2, 2.6, 2.6,         /* 2.3 */
		3, 3, 3.9, 3.9,         /* 3.45 */
	};
	double out[20], speed[4];
	ck_assert_int_eq(runs_relative(v, NULL, NULL, 5, 4, side, out, speed), 0);
	/* groups 2-4 each from the three nearest the shared change (the other
	 * two of 2-4, then group 0): in A 1/1.15, 1/1.15 and 1, whose median
	 * is 1/1.15; in B 1.3/1.15: each reads its yardstick in every run */
	for (int g = 2; g < 5; g++)
		for (int r = 0; r < 4; r++)
			ck_assert_double_eq_tol(out[g * 4 + r], (g - 1) * 1.15, EPS);
	/* the runs' speeds from the four nearest (groups 2, 3, 4, 0): the
	 * median of 1/1.15 three times and 1 */
	ck_assert_double_eq_tol(speed[0], 20 / 23.0, EPS);
	ck_assert_double_eq_tol(speed[1], 20 / 23.0, EPS);
	ck_assert_double_eq_tol(speed[2], 26 / 23.0, EPS);
	ck_assert_double_eq_tol(speed[3], 26 / 23.0, EPS);
	/* group 0 seen from groups 2-4: 1.3 times cheaper in B */
	ck_assert_double_eq_tol(out[0], 11.5, EPS);
	ck_assert_double_eq_tol(out[2], 10 * 23 / 26.0, EPS);
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
	ck_assert_int_eq(runs_relative(half_moved, NULL, NULL, 6, 8, side, out, speed), 0);
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
	ck_assert_int_eq(runs_relative(v, NULL, NULL, 5, 4, side, out, speed), 0);
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
	ck_assert_int_eq(runs_relative(v, NULL, NULL, 3, 3, NULL, out, speed), 8);
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
	ck_assert_int_eq(runs_relative(v, NULL, NULL, 4, 2, NULL, out, speed), 3);
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
	tcase_add_test(t, test_exact_p_with_unequal_sides_is_centred_on_a_s_mean_rank_sum);
	tcase_add_test(t, test_interval_with_unequal_sides_takes_a_s_critical_count);
	tcase_add_test(t, test_64_runs_are_tested_exactly_and_more_by_the_corrected_normal);
	tcase_add_test(t, test_relative_cancels_the_speed_of_a_run);
	tcase_add_test(t, test_relative_second_pass_leaves_out_the_groups_that_moved);
	tcase_add_test(t, test_relative_second_pass_finds_the_change_most_groups_share);
	tcase_add_test(t, test_relative_second_pass_with_half_the_groups_moved_together);
	tcase_add_test(t, test_relative_shared_change_of_five_groups_is_the_tightest_three);
	tcase_add_test(t, test_relative_a_group_missing_in_a_run_gives_its_place_to_the_next);
	tcase_add_test(t, test_relative_leaves_a_run_with_fewer_than_three_other_groups);
	tcase_add_test(t, test_relative_skips_a_group_without_a_value_in_the_run);
	suite_add_tcase(s, t);
	return s;
}
