/* runs.h: comparing two sets of runs, each run reduced to one number (say
 * its median cycles per packet): the exact Mann-Whitney test over the runs,
 * the Hodges-Lehmann change between the sides with its exact confidence
 * interval, and how many runs a side needs before a test can reach alpha.
 * Runs, not the pairs inside one run, are the unit of replication: only
 * replicated runs can tell a slower build from a slower machine. */
#ifndef TL_RUNS_H
#define TL_RUNS_H
#include <stddef.h>

/* Two-sided p-value of the Mann-Whitney U test of A (NA values) against B
 * (NB), from the exact permutation distribution of the rank sum (mid-ranks
 * for ties) when NA + NB <= RUNS_EXACT_MAX, else the normal approximation
 * with the tie correction. 1 when a side is empty. */
#define RUNS_EXACT_MAX 64
double runs_mwu_p(const double *a, size_t na, const double *b, size_t nb);

/* The smallest two-sided p-value any data can give with NA and NB runs
 * (no ties): 2 / C(NA + NB, NA), at most 1. */
double runs_min_p(size_t na, size_t nb);

/* The fewest runs per side (the same on both) whose smallest p-value is
 * below ALPHA: 4 for 0.05, 5 for 0.01. */
size_t runs_needed(double alpha);

/* The change from A to B as a ratio, B/A - 1: the Hodges-Lehmann estimate
 * (the median of the ratios b/a over all pairs), with the exact
 * distribution-free interval at level 1 - ALPHA from the order statistics
 * of those differences. Values must be > 0. Returns 0 with *CHANGE, *LO and
 * *HI set; 1 with only *CHANGE when the runs are too few for an interval at
 * that level (the interval is then unbounded); -1 when a side is empty or
 * holds a value <= 0, or out of memory. */
int runs_change(const double *a, size_t na, const double *b, size_t nb, double alpha,
		double *change, double *lo, double *hi);

/* Values relative to their run's speed, so that a run on a slower machine,
 * which slows every group of the program alike, is not taken for a change
 * in one group. V[g * NR + r] is group g's value (its median) in run r, for
 * NG groups and NR runs of both sides (0 or NAN: none). The yardstick is
 * made of each group's own part, VS[g * NR + r] (its median self value:
 * its cycles less those of the groups inside it; NULL: V), so that every
 * cycle counts once: a group that holds a changed one does not move it.
 * Each group's median of VS over all the runs is its yardstick; run r's
 * speed seen from group g is the median, over the other groups with a
 * value in run r, of their VS divided by their yardstick, leaving out g
 * and every group inside it (INSIDE[g * NG + h] nonzero when h is g or
 * inside g; NULL: g alone), so that a change in g, or in a part of g,
 * does not hide itself. OUT[g * NR + r] gets V divided by that speed, or V itself
 * where fewer than RUNS_RELATIVE_MIN other groups have a value in run r
 * (three, so that one other group that changed cannot move the median
 * much).
 * With SIDE (0 for a run of side A, 1 for B; NULL: one pass as above) each
 * group's change between the sides (the ratio of its sides' medians) is set
 * against the change most groups share: the median of the tightest half of
 * the changes (a whole side on a slower machine moves them all alike). Each
 * run's speed for group g is then taken only from the other groups nearest
 * that change that have a value in the run: RUNS_RELATIVE_MIN of them or
 * half of the others, the greater. Without it, one slowed group (and a
 * group that contains it, such as the breath around an app) still pulls the
 * median of a handful of others its way: unchanged neighbours of an app
 * slowed 60% read 10-25% faster; and where half the groups moved together
 * in some runs, the unmoved ones read moved.
 * SPEED[r] gets the run's speed over all the groups, or with SIDE over the
 * half nearest the shared change with a value in run r (at least
 * RUNS_RELATIVE_MIN + 1; NAN when fewer than RUNS_RELATIVE_MIN + 1 have a
 * value): what the groups share, whose change between the sides is a whole
 * program faster or slower. Returns how many values were left as they are,
 * or -1 out of memory. */
#define RUNS_RELATIVE_MIN 3
int runs_relative(const double *v, const double *vs, const unsigned char *inside, size_t ng,
		  size_t nr, const unsigned char *side, double *out, double *speed);
#endif
