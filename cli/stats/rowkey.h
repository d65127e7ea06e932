/* rowkey.h: a row's key (the --by keys of an engine's rows) as the tables
 * of `stats` and `diff` show it: column names, cells, or one string; and
 * the attribute key's name, as the pairs read declare it (by=). */
#ifndef TL_ROWKEY_H
#define TL_ROWKEY_H
#include <stddef.h>
#include "analysis.h"
#include "table.h"

/* The names of O's key columns into COLS, in key order; returns how many.
 * The attribute key (AN_APP) is headed by rowkey_attr(E, O). */
int rowkey_names(const struct an *e, const struct an_options *o, const char **cols);

/* A new table NAME of the NC columns COLS whose first are O's key
 * columns (rowkey_names()): those of labels (the attribute, the host, the
 * group) are strings in JSON whatever their values look like (port "0",
 * group "2026"), "-" null. */
struct table *rowkey_table(const char *name, const struct an_options *o, const char *const *cols,
			   int nc);

/* The same for the key columns of table T from column FIRST on. */
void rowkey_words(struct table *t, const struct an_options *o, int first);

/* The column of key KEY (AN_*) among O's key columns, -1 when O does not
 * group by it. */
int rowkey_col(const struct an_options *o, int key);

/* Row R's key cells (of engine E, options O) into CELLS, in key order;
 * returns how many. The cells point into R and E. */
int rowkey_cells(const struct an *e, const struct an_options *o, const struct an_row *r,
		 char **cells);

/* Row R's key cells joined by spaces into BUF, for messages. */
void rowkey_join(const struct an *e, const struct an_options *o, const struct an_row *r,
		 char *buf, size_t size);

/* Notes the N pairs P a log read declares (input_pairs()): which
 * attribute each label names its instances by. Any thread. */
void rowkey_declare(const tl_pair *p, size_t n);

/* The attribute pair LABEL names its instances by: its declaration's by=
 * in the logs read, "app" when none declares it (Snabb's pairs, --pair
 * rules). */
const char *rowkey_by(const char *label);

/* The label of the pair the logs read declare the program's breath (the
 * first), or NULL: Snabb's breath, or none. */
const char *rowkey_breath(void);

/* The name of the share of the breaths' cycles (an_share.app) of the
 * pairs LABEL of attribute value APP, as the engine names it, into BUF of
 * SIZE (as snprintf): a declared pair's "LABEL[ ATTR=VALUE]" ("fwd.rx
 * port=0", "kv.parse"), one of Snabb's app pairs by its value; -1 for a
 * pair that has none (a breath, a rule's pair without an app). */
int rowkey_share_name(char *buf, size_t size, const char *label, const char *app);

/* The name of the attribute key of engine E's rows (options O), what its
 * column is headed: the attribute its pairs are declared by= ("port"),
 * "app" for pairs that do not say (Snabb's, --pair rules) and for lags;
 * "attr" when its pairs name theirs differently. Rows grouped by the
 * event key are named by their own pairs (those with a value: a loop
 * pair's "-" names nothing); otherwise by the pairs the logs read declare
 * by a name other than app. */
const char *rowkey_attr(const struct an *e, const struct an_options *o);
#endif
