/* statsout.h: what `stats` shows of an engine: the lag, per-unit and
 * breath tables, each row's histogram drawn as text, the unmatched pairs. */
#ifndef TL_STATSOUT_H
#define TL_STATSOUT_H
#include <stddef.h>
#include "analysis.h"
#include "table.h"

/* Lag rows of E: every statistic in cycles, then in ns where the TSC
 * frequency is known (FORMAT text shows p50 and p99 in ns only). */
struct table *statsout_lag(struct an *e, const struct an_options *o, int format);

/* Per-unit rows of E (O has per): pairs, units, cycles per unit over all
 * of them, the distribution of each pair's cycles per unit; SELF: their
 * self cycles instead (less those of the pairs inside each). The table's
 * title goes to TITLE. */
struct table *statsout_per(struct an *e, const struct an_options *o, char *title, size_t size,
			   int format, int self);

/* The units of E's per-unit rows that hold pairs (an_row.unit), each once,
 * in natural order, into UNITS (at most MAX; strings E's): how many. */
size_t statsout_units(struct an *e, const char **units, size_t max);

/* Per-unit rows of E counted in UNIT (each declared pair in its own unit,
 * an_options.declared_only), as statsout_per() gives them, then the p50
 * and p99 of the pairs' own length in ns (their latency, where the TSC
 * frequency is known). UNIT NULL: every unit, in a column of its own
 * (CSV, JSON). The title goes to TITLE. */
struct table *statsout_declared(struct an *e, const struct an_options *o, const char *unit,
				char *title, size_t size, int format, int self);

/* The breath summary of each process of E (and of ALSO, if not NULL: the
 * files of both in input order). */
struct table *statsout_breaths(struct an *e, struct an *also, int format);

/* The title of that table: how its figures were made (Snabb's breath_end
 * counters, a declared breath's spans, or both). */
const char *statsout_breaths_title(struct an *e, struct an *also);

/* The slowest pairs of each row of E (an_options.slowest), most cycles per
 * unit first: the row's keys, rank, cycles per unit, cycles, units,
 * process, cpu, numa, the wall time of its begin ("-" unknown) and the
 * `timeline dump` command that shows the entries around it (from one
 * pair's length before it to one after). */
struct table *statsout_slowest(struct an *e, const struct an_options *o, int format);

/* The command `timeline dump --from F --to T PATH` that shows the entries
 * around slow pair S into BUF of SIZE; "on HOST: " before it for a pair
 * read from a summary (PATH is a path on the host that made it). */
void statsout_dump_line(const struct an_slow *s, char *buf, size_t size);

/* The table "overhead", where the breaths' cycles go (--per), as perf
 * report leads with: per process, each app's share of the cycles of the
 * breaths that hold its pairs (of a declared breath, each kind of span's
 * by its self cycles), largest first, then "(no app)" (a declared
 * breath's: "(unattributed)"), the rest; with the cycles and how many
 * breaths they come from. */
struct table *statsout_overhead(struct an *e, int format);

/* Its title: of apps, or (all breaths declared) of kinds of span. */
const char *statsout_overhead_title(struct an *e);

/* The table "hist" of E's rows: per row, its values counted by power of
 * two, [from, below), the bins --hist draws (those with a count); the zeros
 * as from 0 below 0. */
struct table *statsout_hist_table(struct an *e, const struct an_options *o);

/* Each row's values on a log scale, one line per power of two, to stdout. */
void statsout_hist(struct an *e, const struct an_options *o);

/* When the logs had events switched off during their spans (timeline
 * disable): how many, the records of changes, and the spans skipped for a
 * change between their begin and end; a line first in text, an object
 * {"table":"switches"} in JSON, a note on stderr with CSV. */
void statsout_switches(struct an *e, int format);

/* Unmatched pairs: reported on stdout in text and JSON, on stderr for CSV. */
void statsout_unmatched(struct an *e, int format);
#endif
