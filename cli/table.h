/* table.h: the tables of `stats` and `diff`: rows of string cells printed
 * as aligned text (numbers right-aligned), CSV through libcsv, or JSON
 * lines (numbers as numbers, "-" as null), one object per row. */
#ifndef TL_TABLE_H
#define TL_TABLE_H
#include <stddef.h>

struct table;

/* A table called NAME (the "table" field in JSON) with NCOLS columns. */
struct table *table_new(const char *name, const char *const *cols, int ncols);

/* Adds a row of the table's column count of cells (copied). */
void table_add(struct table *t, char *const *cells);

/* Column C holds words, some of which look like numbers (a rate: "all",
 * "2"): in JSON they stay strings, as the other commands print them. */
void table_words(struct table *t, int c);

size_t table_rows(const struct table *t);

/* T's number of columns, the name of column C, the cell of row R in it. */
int table_cols(const struct table *t);
const char *table_col(const struct table *t, int c);
const char *table_cell(const struct table *t, size_t r, int c);

/* Writes T's rows into the JSON array open in J, one object each, as
 * table_print() writes them in JSON but without the "table" member. */
struct json;
void table_json_rows(const struct table *t, struct json *j);

/* Prints T in FORMAT (FMT_TEXT, FMT_CSV or FMT_JSON of view.h). Text
 * starts with TITLE, if any, on its own line. */
void table_print(const struct table *t, int format, const char *title);

void table_free(struct table *t);

/* Formats V in a cell: up to 4 significant decimals below 100, whole above;
 * "-" for NaN. */
void cell_num(char *buf, size_t size, double v);

/* Formats V for FORMAT: as cell_num() for text; for csv and json, every
 * digit that makes it read back as the same double (no rounding). */
void cell_value(char *buf, size_t size, double v, int format);
#endif
