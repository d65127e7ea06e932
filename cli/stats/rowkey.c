/* rowkey.c: a row's key as `stats` and `diff` show it: the names of the
 * --by keys as columns, a row's values of them as cells or one string. */
#include <stdio.h>
#include "rowkey.h"

int rowkey_names(const struct an_options *o, const char **cols)
{
	int n = 0;
	for (int k = 0; k < AN_NKEYS; k++)
		if (o->by & AN_SHOWN_KEYS & (1u << k))
			cols[n++] = an_key_names[k];
	return n;
}

int rowkey_cells(const struct an *e, const struct an_options *o, const struct an_row *r,
		 char **cells)
{
	int n = 0;
	for (int k = 0; k < AN_NKEYS; k++)
		if (o->by & AN_SHOWN_KEYS & (1u << k))
			cells[n++] = k == AN_BUCKET ? (char *)an_bucket_label(e, r->bucket) : r->key[k];
	return n;
}

void rowkey_join(const struct an *e, const struct an_options *o, const struct an_row *r,
		 char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int k = 0; k < AN_NKEYS && len < size; k++)
		if (o->by & AN_SHOWN_KEYS & (1u << k))
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? " " : "",
						k == AN_BUCKET ? an_bucket_label(e, r->bucket) : r->key[k]);
}
