/* rowkey.c: a row's key as `stats` and `diff` show it: the names of the
 * --by keys as columns (the attribute's as the pairs declare it), a row's
 * values of them as cells or one string. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rowkey.h"

/* The pairs the logs read declare: each label and the attribute it names
 * its instances by (rowkey_declare()), for rowkey_attr(). */
struct declared {
	const char *label, *by;      /* kept to the end: rowkey_attr() and
				      * rowkey_breath() give them */
	int breath;                  /* declared the program's breath */
};
static struct declared *decl;
static size_t ndecl;
static pthread_mutex_t decl_lock = PTHREAD_MUTEX_INITIALIZER;

void rowkey_declare(const tl_pair *p, size_t n)
{
	pthread_mutex_lock(&decl_lock);
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		while (k < ndecl && strcmp(decl[k].label, p[i].label))
			k++;
		if (k < ndecl)
			continue;   /* the first declaration of a label names it */
		if (!(decl = realloc(decl, (ndecl + 1) * sizeof *decl)))
			abort();
		decl[ndecl].breath = p[i].breath;
		if (!(decl[ndecl].label = strdup(p[i].label)) ||
		    !(decl[ndecl++].by = strdup(p[i].by[0] ? p[i].by : "app")))
			abort();
	}
	pthread_mutex_unlock(&decl_lock);
}

const char *rowkey_by(const char *label)
{
	const char *by = "app";
	pthread_mutex_lock(&decl_lock);
	for (size_t k = 0; k < ndecl; k++)
		if (!strcmp(decl[k].label, label))
			by = decl[k].by;
	pthread_mutex_unlock(&decl_lock);
	return by;
}

const char *rowkey_breath(void)
{
	const char *label = NULL;
	pthread_mutex_lock(&decl_lock);
	for (size_t k = 0; k < ndecl && !label; k++)
		if (decl[k].breath)
			label = decl[k].label;
	pthread_mutex_unlock(&decl_lock);
	return label;
}

int rowkey_share_name(char *buf, size_t size, const char *label, const char *app)
{
	int declared = 0, dash = !strcmp(app, "-");
	const char *by = "app";
	pthread_mutex_lock(&decl_lock);
	for (size_t k = 0; k < ndecl; k++)
		if (!strcmp(decl[k].label, label)) {
			declared = 1;
			by = decl[k].by;
		}
	pthread_mutex_unlock(&decl_lock);
	if (!declared)   /* Snabb's apps by their name; a breath has no share */
		return dash ? -1 : snprintf(buf, size, "%s", app);
	return snprintf(buf, size, "%s%s%s%s%s", label, dash ? "" : " ", dash ? "" : by,
			dash ? "" : "=", dash ? "" : app);
}

/* NAME folded into *COMMON: the first taken, another makes it "attr". */
static void fold(const char **common, const char *name)
{
	if (!*common)
		*common = name;
	else if (strcmp(*common, name))
		*common = "attr";
}

/* Has one of E's rows an attribute value (not "-")? */
static int valued(const struct an *e)
{
	size_t n;
	struct an_row **rows = an_rows((struct an *)e, &n);   /* sorts, no more */
	for (size_t i = 0; i < n; i++)
		if (rows[i]->key[AN_APP] && strcmp(rows[i]->key[AN_APP], "-"))
			return 1;
	return 0;
}

const char *rowkey_attr(const struct an *e, const struct an_options *o)
{
	const char *common = NULL;
	if (!o->per && !o->declared_only)
		return "app";   /* lags: each event's own app= */
	if (o->by & 1u << AN_EVENT) {   /* the rows' own pairs, those with a value */
		size_t n;
		struct an_row **rows = an_rows((struct an *)e, &n);   /* sorts, no more */
		for (size_t i = 0; i < n; i++)
			if (strcmp(rows[i]->key[AN_APP], "-"))
				fold(&common, rowkey_by(rows[i]->key[AN_EVENT]));
		return common ? common : "app";
	}
	if (e && !valued(e))
		return "app";   /* no value to name (a summary knows no declaration) */
	pthread_mutex_lock(&decl_lock);   /* every pair declared by another name */
	for (size_t k = 0; k < ndecl; k++)
		if (strcmp(decl[k].by, "app"))
			fold(&common, decl[k].by);
	pthread_mutex_unlock(&decl_lock);
	return common ? common : "app";
}

int rowkey_names(const struct an *e, const struct an_options *o, const char **cols)
{
	int n = 0;
	for (int k = 0; k < AN_NKEYS; k++)
		if (o->by & AN_SHOWN_KEYS & (1u << k))
			cols[n++] = k == AN_APP ? rowkey_attr(e, o) : an_key_names[k];
	return n;
}

void rowkey_words(struct table *t, const struct an_options *o, int first)
{
	int c = first;
	for (int k = 0; k < AN_NKEYS; k++)
		if (o->by & AN_SHOWN_KEYS & (1u << k)) {
			if (k == AN_APP || k == AN_HOST || k == AN_GROUP)
				table_words(t, c);
			c++;
		}
}

struct table *rowkey_table(const char *name, const struct an_options *o, const char *const *cols,
			   int nc)
{
	struct table *t = table_new(name, cols, nc);
	rowkey_words(t, o, 0);
	return t;
}

int rowkey_col(const struct an_options *o, int key)
{
	int c = 0;
	if (!(o->by & AN_SHOWN_KEYS & (1u << key)))
		return -1;
	for (int k = 0; k < key; k++)
		c += (o->by & AN_SHOWN_KEYS & (1u << k)) != 0;
	return c;
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
