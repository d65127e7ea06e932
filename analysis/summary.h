/* summary.h: an engine's counts as a summary file (timeline-summary(5))
 * and back: everything `stats` and `diff` need, kept at the finest grain so
 * that --by stays open, in a form that merges exactly. Memory in, memory
 * out: the caller reads and writes the file. */
#ifndef TL_SUMMARY_H
#define TL_SUMMARY_H
#include <stddef.h>
#include <stdint.h>
#include "analysis.h"

#define AN_SUMMARY_MAJOR 1
#define AN_SUMMARY_MINOR 3
#define AN_SUMMARY_HEADER 32          /* bytes of the header before the body */
#define AN_SUMMARY_MAX_BODY (1ull << 30)   /* the most a body may decompress to */

/* The magic: \x89 "TLS" \r \n \x1a \n, like a log's with S for summary. */
extern const unsigned char an_summary_magic[8];

/* The keys a summary keeps: every one but the bucket (which --bucket adds),
 * the run being each file's path. Engines that write summaries group by
 * these. */
#define AN_SUMMARY_KEYS (((1u << AN_NKEYS) - 1) & ~(1u << AN_BUCKET))

/* How a reader places a summary among its inputs. */
struct an_summary_map {
	const char *fixed;           /* the reader's fixed options, as an_summary_write() took them */
	const char *group;           /* NULL: each file keeps its group; else this label */
	int runs;                    /* what a run is (enum an_runs): each summary keeps its
				      * files' runs in full (an_run_of()) */
	uint64_t order;              /* breath summaries are ordered ORDER + their rank */
	uint64_t *kept;              /* if not NULL, gets how many slowest pairs of each row
				      * the summary keeps (AN_SUMMARY_NO_SLOWEST: none, a
				      * summary before 1.2) */
	const char *alt_fixed;       /* if not NULL, a summary made with these options goes
				      * to ALT instead, and *ALT_CHOSEN gets 1 */
	struct an *alt;
	int *alt_chosen;
};

/* The slowest pairs of each row a summary keeps when its maker was not
 * given --slowest: enough for `stats --slowest 20` over a fleet, at about
 * a third more bytes (timeline-summary(5), "Size"). */
#define AN_SUMMARY_SLOWEST 20
#define AN_SUMMARY_NO_SLOWEST UINT64_MAX

/* Writes what engine A counted (A made with keys AN_SUMMARY_KEYS, or a
 * subset) and FIXED, the options it was made with that a reader must share
 * (canonical text, "" for none), as a whole summary file in a malloc'd
 * *FILE of *SIZE bytes, the body compressed with zstd. Returns 0, or -1
 * out of memory. Sorts A's rows (an_rows()). */
int an_summary_write(struct an *a, const char *fixed, unsigned char **file, size_t *size);

/* Adds the summary FILE of SIZE bytes (the whole file) to engine A, as M
 * says: its rows projected to A's keys, its breath summaries, unmatched
 * pairs and what options found. Every size, count, offset and index is
 * checked against the file before it is used, and nothing is added unless
 * all of it is sound. Returns 0, or -1 with a message in ERR (of ERRSIZE):
 * "not a timeline summary ...", "truncated: ...", "damaged summary (...)",
 * "summary format version ...", or, for a summary made with other fixed
 * options than M->fixed, "made with ...". */
int an_summary_read(struct an *a, const unsigned char *file, size_t size,
		    const struct an_summary_map *m, char *err, size_t errsize);

/* Nonzero if the N bytes at P start like a summary (its magic). */
int an_summary_probe(const unsigned char *p, size_t n);
#endif
