/* openmetrics.h: an engine's rows as Prometheus metrics, in the text
 * exposition format (0.0.4) that node_exporter's textfile collector and
 * promtool read: a histogram per row with `le` buckets that
 * histogram_quantile() can use within a known error, and counters per file.
 * Shared by `stats --format openmetrics` and `top -b --format openmetrics`. */
#ifndef TL_OPENMETRICS_H
#define TL_OPENMETRICS_H
#include <stdio.h>
#include "analysis.h"

/* The bucket edges: 4 per power of two from 1 to 2^32, each at a boundary
 * of the engine's histogram buckets (so the counts are exact), none more
 * than OPENMETRICS_RATIO times the one below it. */
#define OPENMETRICS_OCTAVES 32
#define OPENMETRICS_PER_OCTAVE 4
#define OPENMETRICS_RATIO 1.1908     /* 2 / 1.6796875, the widest step */

/* The I-th edge, I from 0 to OPENMETRICS_OCTAVES * OPENMETRICS_PER_OCTAVE:
 * 2^(I/4) rounded to a multiple of 2^(floor(I/4) - 7). */
double openmetrics_edge(int i);

/* Writes what engine E counted, with options O, to F: the histogram
 * timeline_lag_cycles (lags) or timeline_cycles_per_UNIT (--per UNIT), one
 * series per row, labelled by the row's keys (event or pair, app, process,
 * cpu, numa, host, group, batch); then, per file, the counters
 * timeline_breaths_total and timeline_packets_total (from its last
 * breath_end) and timeline_entries_written_total and
 * timeline_entries_lost_total. Returns 0, or -1 on a write error. */
int openmetrics_write(FILE *f, struct an *e, const struct an_options *o);

/* openmetrics_write()'s two parts, for a writer with several engines
 * (`top`): the histogram of E's rows, its HELP saying they are OVER (e.g.
 * "the entries the logs hold now"); the counters of E's files. */
void openmetrics_histogram(FILE *f, struct an *e, const struct an_options *o, const char *over);
void openmetrics_counters(FILE *f, struct an *e);
#endif
