/* natural.h: the one order of labels in what we print (natural.c): rows,
 * groups, unmatched pairs, top's text columns and the files of a walked
 * directory, with the numbers in a label in the order of their values. */
#ifndef TL_NATURAL_H
#define TL_NATURAL_H

/* Compares strings A and B as strcmp(3) does, but each run of digits as
 * the number it spells: "w[9999]" before "w[10000]", "cpu2" before
 * "cpu10", "host01" and "host1" before "host02". A digit run against any
 * other byte compares as its first digit does, so the order is total and
 * transitive; strings equal so (runs of equal value) are ordered by
 * strcmp ("host01" before "host1"), and 0 means A and B are the same
 * bytes. Unlike strverscmp(3), leading zeros do not make a run a
 * fraction ("02" is not before "1"). Returns <0, 0 or >0. */
int natural_cmp(const char *a, const char *b);

/* natural_cmp() of the strings that X and Y point to: for qsort(3) of an
 * array of char pointers. */
int natural_cmp_ptr(const void *x, const void *y);
#endif
