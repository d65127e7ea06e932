/* toptable.h: the table `timeline top` shows, by process, app or event:
 * key columns, then each figure for the last interval and for the window;
 * cells formatted for the screen, values kept for sorting and for CSV. */
#ifndef TL_TOPTABLE_H
#define TL_TOPTABLE_H
#include <stddef.h>
#include "topstat.h"

enum { TOP_BY_PROCESS, TOP_BY_APP, TOP_BY_EVENT };

#define TOP_MAX_COLS 16

/* What a column holds. */
enum { COL_TEXT, COL_NUMBER, COL_FIGURE, COL_COUNT };

struct top_col {
	char head[80];               /* heading on the screen, e.g. "GBPS", "CYC/ROW" */
	char csv[96];                /* name in CSV and JSON, e.g. "gbps", "cycles_per_row" */
	int kind;                    /* COL_*: text and numbers are keys */
	int window;                  /* a figure of the window (else of the last interval) */
	int width;                   /* columns on the screen */
};

struct top_row {
	struct top_log *log;
	char *cell[TOP_MAX_COLS];    /* as shown */
	double v[TOP_MAX_COLS];      /* figures and numbers; NaN where none */
};

struct top_table {
	int group;                   /* TOP_BY_* */
	int ncols, nkeys;            /* columns; the first NKEYS are keys */
	int nfigs;                   /* figures per span: after the keys come NFIGS of
				      * the last interval, then NFIGS of the window */
	struct top_col col[TOP_MAX_COLS];
	struct top_row *rows;
	size_t nrows;
};

/* Builds T by GROUP from the N LOGS (only FOCUS's when not NULL). By app,
 * a row per pair and attribute value (port 0's rx and tx apart), keyed
 * PAIR, the attribute (toptable_attr_name()) and UNIT, and the cycles per
 * unit named by the unit of those logs (topstat_unit(),
 * toptable_per_names()). */
void toptable_build(struct top_table *t, int group, struct top_log **logs, size_t n,
		    const struct top_log *focus);

/* The heading (into HEAD of HSIZE) and the CSV and JSON name (into CSV of
 * CSIZE) of cycles per UNIT: CYC/PKT and cycles_per_packet for packets,
 * else CYC/ and cycles_per_ and the unit singular as stats names it
 * (rows: CYC/ROW and cycles_per_row, bytes: CYC/BYTE, cycles_per_byte). */
void toptable_per_names(const char *unit, char *head, size_t hsize, char *csv, size_t csize);

/* The name of the attribute of the pairs of the N LOGS (only FOCUS's when
 * not NULL), as they declare it (by=port: "port"; "app" unless they say),
 * "attr" when they name theirs differently: the heading of its column
 * (upper case) and its name in CSV and JSON. */
const char *toptable_attr_name(struct top_log **logs, size_t n, const struct top_log *focus);

/* The column a table by GROUP is sorted by at first: its main figure. */
int toptable_default_sort(int group);

/* Sorts T's rows by column COL: keys ascending, figures descending (NaN
 * last), the other way round with REVERSE; ties by the keys. */
void toptable_sort(struct top_table *t, int col, int reverse);

/* Writes line LINE of T as text into BUF of SIZE, as snprintf does: -2 the
 * span headings, -1 the column headings, 0.. the rows. SORT, if >= 0, is
 * the column sorted by, marked in its heading. Returns the length. */
size_t toptable_line(const struct top_table *t, long line, int sort, char *buf, size_t size);

/* The group's name for GROUP: "process", "app" or "event". */
const char *toptable_group_name(int group);

void toptable_free(struct top_table *t);
#endif
