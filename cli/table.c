/* table.c: aligned text, CSV and JSON-lines tables (see table.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"
#include "out.h"
#include "table.h"
#include "view.h"

struct table {
	char *name;
	int ncols;
	char **cols;
	char **cells;                /* nrows * ncols */
	size_t nrows, cap;
	unsigned char *words;        /* per column: strings in JSON (table_words()) */
};

static char *dup(const char *s)
{
	char *d = strdup(s ? s : "-");
	if (!d)
		abort();
	return d;
}

struct table *table_new(const char *name, const char *const *cols, int ncols)
{
	struct table *t = calloc(1, sizeof *t);
	if (!t || !(t->cols = calloc((size_t)ncols, sizeof *t->cols)) ||
	    !(t->words = calloc((size_t)ncols, 1)))
		abort();
	t->name = dup(name);
	t->ncols = ncols;
	for (int i = 0; i < ncols; i++)
		t->cols[i] = dup(cols[i]);
	return t;
}

void table_add(struct table *t, char *const *cells)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 32;
		if (!(t->cells = realloc(t->cells, t->cap * (size_t)t->ncols * sizeof *t->cells)))
			abort();
	}
	for (int i = 0; i < t->ncols; i++)
		t->cells[t->nrows * (size_t)t->ncols + (size_t)i] = dup(cells[i]);
	t->nrows++;
}

void table_words(struct table *t, int c)
{
	t->words[c] = 1;
}

size_t table_rows(const struct table *t)
{
	return t->nrows;
}

void table_free(struct table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nrows * (size_t)t->ncols; i++)
		free(t->cells[i]);
	for (int i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	free(t->cells);
	free(t->cols);
	free(t->words);
	free(t->name);
	free(t);
}

static int is_number(const char *s)
{
	char *end;
	if (!*s)
		return 0;
	strtod(s, &end);
	return *end == '\0' && strcmp(s, "inf") && strcmp(s, "nan");
}

void cell_num(char *buf, size_t size, double v)
{
	if (isnan(v) || isinf(v))
		snprintf(buf, size, "-");
	else if (fabs(v) >= 100 || v == floor(v))
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, "%.4g", v);
}

static const char *cell(const struct table *t, size_t r, int c)
{
	return t->cells[r * (size_t)t->ncols + (size_t)c];
}

static void print_text(const struct table *t, const char *title)
{
	size_t *w = calloc((size_t)t->ncols, sizeof *w);
	int *num = calloc((size_t)t->ncols, sizeof *num);
	if (!w || !num)
		abort();
	for (int c = 0; c < t->ncols; c++) {
		w[c] = strlen(t->cols[c]);
		num[c] = t->nrows > 0;
		for (size_t r = 0; r < t->nrows; r++) {
			const char *s = cell(t, r, c);
			if (strlen(s) > w[c])
				w[c] = strlen(s);
			if (!is_number(s) && strcmp(s, "-"))
				num[c] = 0;
		}
	}
	if (title) {
		out_str(title);
		out_char('\n');
	}
	for (size_t r = 0; r <= t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			const char *s = r ? cell(t, r - 1, c) : t->cols[c];
			size_t pad = w[c] - strlen(s);
			if (c)
				out_str("  ");
			if (num[c])
				while (pad--)
					out_char(' ');
			out_str(s);
			if (!num[c] && c + 1 < t->ncols)
				while (pad--)
					out_char(' ');
		}
		out_char('\n');
	}
	free(w);
	free(num);
}

static void print_csv(const struct table *t)
{
	for (size_t r = 0; r <= t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			const char *s = r ? cell(t, r - 1, c) : t->cols[c];
			if (c)
				out_char(',');
			if (r && is_number(s))
				out_str(s);
			else if (r && !strcmp(s, "-"))
				;   /* an empty field: no value */
			else
				out_csv(s);
		}
		out_char('\n');
	}
}

/* Row R of T as the members of the object open in J. */
static void json_members(const struct table *t, size_t r, struct json *j)
{
	for (int c = 0; c < t->ncols; c++) {
		const char *s = cell(t, r, c);
		json_key(j, t->cols[c]);
		if (is_number(s) && !t->words[c])
			json_raw(j, s, strlen(s));
		else if (!strcmp(s, "-"))
			json_null(j);
		else
			json_string(j, s);
	}
}

static void print_json(const struct table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		struct json j = JSON_INIT;
		json_begin_object(&j);
		JSON_KEY_STRING(&j, "table", t->name);
		json_members(t, r, &j);
		json_end_object(&j);
		out_char('\n');
	}
}

void table_json_rows(const struct table *t, struct json *j)
{
	for (size_t r = 0; r < t->nrows; r++) {
		json_begin_object(j);
		json_members(t, r, j);
		json_end_object(j);
	}
}

int table_cols(const struct table *t)
{
	return t->ncols;
}

const char *table_col(const struct table *t, int c)
{
	return t->cols[c];
}

const char *table_cell(const struct table *t, size_t r, int c)
{
	return cell(t, r, c);
}

void table_print(const struct table *t, int format, const char *title)
{
	if (format == FMT_CSV)
		print_csv(t);
	else if (format == FMT_JSON)
		print_json(t);
	else
		print_text(t, title);
}

void cell_value(char *buf, size_t size, double v, int format)
{
	if (format == FMT_TEXT || isnan(v) || isinf(v)) {
		cell_num(buf, size, v);
		return;
	}
	/* the shortest of 15 or 17 significant digits that reads back as V */
	snprintf(buf, size, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, size, "%.17g", v);
}
