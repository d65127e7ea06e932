/* compare.h: what `diff` computes and shows: the groups of two engines
 * paired by key, each group's runs side by side (a run's value is its
 * median), the change between the sides with its interval, the test over
 * runs that gives the verdict and the test over pooled samples beside it. */
#ifndef TL_COMPARE_H
#define TL_COMPARE_H
#include "analysis.h"
#include "table.h"

/* One group on one side: its rows, one per run, and what they add up to. */
struct side {
	const struct an_row *row;    /* the first: its key names the group */
	struct hist pooled;          /* every run's values together */
	double *medians;             /* each run's median (runs with values) */
	double *selfs;               /* ... and median of self cycles per unit (an_row_self()) */
	const char **run;            /* the run of each median (its AN_RUN key) */
	double *rel;                 /* each median relative to its run's speed
				      * (runs_relative()), or the median itself */
	size_t runs;
};

/* A group's comparison. */
struct cmp {
	struct side s[2];            /* A and B */
	double ma, mb, pa, pb;       /* pooled medians and p90s */
	double change, lo, hi;       /* B / A - 1 over the runs' values (Hodges-
				      * Lehmann) and its interval at 1 - alpha */
	int ci;                      /* the interval is defined */
	double p;                    /* exact Mann-Whitney over the runs' values:
				      * side.rel, or side.medians when absolute */
	double p_pairs;              /* Mann-Whitney over the pooled samples */
	double impact;               /* mb - ma */
	const char *verdict;
};

/* A group found on one side only. */
struct lone {
	struct side s;
	int side;                    /* 0: A, 1: B */
};

struct comparison {
	const char *cmd;             /* the command, for its notes ("diff", "report") */
	struct an *e[2];             /* the engines of A and B */
	const struct an_options *o;  /* their options (AN_RUN among the keys) */
	double threshold, alpha;
	struct cmp *cmp;             /* the groups on both sides, by impact */
	size_t ncmp;
	struct lone *lone;           /* the groups on one side, in key order */
	size_t nlone;
	int absolute;                /* runs judged by their medians as they are */
	int relative;                /* runs judged relative to their speed (three
				      * groups or more, not absolute) */
	struct cmp all;              /* relative: the runs' speeds, every group
				      * together ("(all)"; no pooled values) */
	int slower;                  /* a group got significantly slower */
	int too_few;                 /* groups whose runs cannot reach alpha */
	size_t runs[2];              /* the runs of each side (their AN_RUN keys) ... */
	size_t logs[2];              /* ... and the logs in them (those of summaries too) */
};

/* Compares the groups of engines EA and EB (made with options O, grouped by
 * AN_RUN too) into C. Unless ABSOLUTE, with four groups or more, a run's
 * value in a group is its median relative to the run's speed as the other
 * groups see it (runs_relative()), and the runs' speeds are compared too,
 * as the group "(all)". A group's verdict: "too few runs" when no test over
 * its runs can give p below ALPHA; "few samples" (with a warning on
 * stderr) when a side has fewer than 10 values; SLOWER or "faster" when p
 * over the runs is below ALPHA and the change is beyond THRESHOLD %; else
 * "no change shown". One note on stderr says how many runs are needed; the
 * lines on stderr are CMD's. */
void compare(struct comparison *c, const char *cmd, struct an *ea, struct an *eb,
	     const struct an_options *o, double threshold, double alpha, int absolute);

/* The table "diff" of C's groups: key, runs, n, p50 and p90 of each side,
 * the change with its interval in %, p over runs, p over pairs, verdict;
 * numbers rounded for text, at full precision for FORMAT csv and json. */
struct table *compare_table(const struct comparison *c, int format);

/* Group M's change% into BUF as the table "diff" gives it in FORMAT: for
 * text signed, to a tenth; for csv and json every digit; "-" if none. */
void compare_change(char buf[32], const struct cmp *m, int format);

/* The table "only" of C's groups on one side: side, key, runs, n. */
struct table *compare_lone_table(const struct comparison *c);

/* Frees what compare() allocated in C. */
void compare_free(struct comparison *c);
#endif
