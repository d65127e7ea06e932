/* rowkey.h: a row's key (the --by keys of an engine's rows) as the tables
 * of `stats` and `diff` show it: column names, cells, or one string. */
#ifndef TL_ROWKEY_H
#define TL_ROWKEY_H
#include <stddef.h>
#include "analysis.h"

/* The names of O's key columns into COLS, in key order; returns how many. */
int rowkey_names(const struct an_options *o, const char **cols);

/* Row R's key cells (of engine E, options O) into CELLS, in key order;
 * returns how many. The cells point into R and E. */
int rowkey_cells(const struct an *e, const struct an_options *o, const struct an_row *r,
		 char **cells);

/* Row R's key cells joined by spaces into BUF, for messages. */
void rowkey_join(const struct an *e, const struct an_options *o, const struct an_row *r,
		 char *buf, size_t size);
#endif
