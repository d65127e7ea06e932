/* export.h: `timeline export`'s writers: Chrome trace JSON (chrome.c) and
 * CTF 1.8 (ctf.c). export.c reads the inputs, applies the filters, and
 * hands each kept entry to the writer. */
#ifndef TL_EXPORT_H
#define TL_EXPORT_H
#include <stdint.h>
#include "analysis.h"
#include "input.h"
#include "view.h"

/* What every writer is given. */
struct export {
	const char *out;                 /* -o: a file (chrome) or directory (ctf) */
	const struct an_pair *pairs;     /* span rules */
	size_t npairs;
	int wall;                        /* 1: all inputs have a TSC frequency and anchor */
	int64_t origin_ns;               /* chrome: time 0 (wall ns, or ticks without wall) */
};

/* Chrome JSON: spans (X), instants (i), counters (C), on stdout. */
void chrome_begin(const struct export *x);
void chrome_file(const struct export *x, struct input *in, unsigned index);
void chrome_entry(const struct export *x, struct input *in, const tl_def *ev,
		  const tl_entry *e);
void chrome_file_end(const struct export *x, struct input *in);
void chrome_end(const struct export *x);

/* CTF: a trace directory X->out with metadata and one stream per input.
 * ctf_begin() returns -1 (reported) when the directory cannot be made. */
int ctf_begin(const struct export *x, struct input **inputs, size_t n);
void ctf_entry(const struct export *x, size_t file, struct input *in, const tl_def *ev,
	       const tl_entry *e);
int ctf_end(const struct export *x);
#endif
