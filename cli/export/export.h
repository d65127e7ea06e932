/* export.h: `timeline export`'s writers, one per --format, each a struct
 * export_format in its own file: Chrome trace JSON (chrome.c), CTF 1.8
 * (ctf.c), CSV (csv.c). export.c reads the inputs, applies the filters, and
 * hands each kept entry to the writer. Adding a format: write its file with
 * its struct export_format, declare it below, add it to export.c's table. */
#ifndef TL_EXPORT_H
#define TL_EXPORT_H
#include <stdint.h>
#include "analysis.h"
#include "input.h"
#include "view.h"

/* What every writer is given. */
struct export {
	const char *out;                 /* -o: a file, or a directory (dir writers) */
	struct view *view;               /* the filters, and how CSV rows look (csv.c:
					  * its header due) */
	const struct an_pair *pairs;     /* span rules */
	size_t npairs;
	int wall;                        /* 1: all inputs have a TSC frequency and anchor */
};

/* A writer. export.c calls begin, then for each input K file, entry for
 * each entry the filters keep (at time T in the view's unit), file_end;
 * then end. file, file_end and end may be NULL. */
struct export_format {
	const char *name;                /* its --format */
	int dir;                         /* 1: OUT is a directory begin makes; 0: a file
					  * export.c opens as standard output (- is stdout) */
	/* Starts the output for the N inputs IN: -1 (reported) when it cannot. */
	int (*begin)(const struct export *x, struct input **in, size_t n);
	void (*file)(const struct export *x, size_t k, struct input *in);
	void (*entry)(const struct export *x, size_t k, struct input *in, const tl_def *ev,
		      const tl_entry *e, int64_t t);
	void (*file_end)(const struct export *x, size_t k, struct input *in);
	/* Finishes the output: -1 (reported) when it could not be written. */
	int (*end)(const struct export *x);
};

/* Chrome JSON: spans (X), instants (i), counters (C), in one file. */
extern const struct export_format export_chrome;
/* CTF: a trace directory with metadata and one stream per input. */
extern const struct export_format export_ctf;
/* CSV: the rows of dump --format csv. */
extern const struct export_format export_csv;
#endif
