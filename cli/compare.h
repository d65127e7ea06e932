/* compare.h: what `diff` computes and shows: the rows of two engines
 * paired by key, each pair's medians, p90s, change of the median with its
 * 95% confidence interval, Mann-Whitney p-value and verdict, as tables. */
#ifndef TL_COMPARE_H
#define TL_COMPARE_H
#include "analysis.h"
#include "table.h"

/* A group's comparison. */
struct cmp {
	const struct an_row *a, *b;
	double ma, mb, pa, pb;       /* medians and p90s */
	double change, lo, hi;       /* median(B) / median(A) - 1, and its CI */
	int ci;                      /* the CI is defined */
	double p;                    /* Mann-Whitney */
	double impact;               /* mb - ma */
	const char *verdict;
};

/* A group found on one side only. */
struct lone {
	const struct an_row *row;
	int side;                    /* 0: A, 1: B */
};

struct comparison {
	struct an *e[2];             /* the engines of A and B */
	const struct an_options *o;  /* their options */
	struct cmp *cmp;             /* the groups on both sides, by impact */
	size_t ncmp;
	struct lone *lone;           /* the groups on one side, in key order */
	size_t nlone;
	int slower;                  /* a group got significantly slower */
};

/* Compares the rows of engines EA and EB (made with options O) group by
 * group into C. A pair's verdict is SLOWER or faster when its p is below
 * ALPHA and its median moved by more than THRESHOLD %, "few samples" (with
 * a warning on stderr) when a side has fewer than 10, else same. */
void compare(struct comparison *c, struct an *ea, struct an *eb, const struct an_options *o,
	     double threshold, double alpha);

/* The table "diff" of C's pairs: their key, n, p50 and p90 of each side,
 * the change with its CI in %, p and the verdict. */
struct table *compare_table(const struct comparison *c);

/* The table "only" of C's groups on one side: side, key, n. */
struct table *compare_lone_table(const struct comparison *c);

/* Frees what compare() allocated in C. */
void compare_free(struct comparison *c);
#endif
