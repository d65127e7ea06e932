/* input.h: what the reading commands share: walking files and directories,
 * opening native, Snabb and zstd-compressed logs, naming events and
 * converting time. */
#ifndef TL_INPUT_H
#define TL_INPUT_H
#include <stdint.h>
#include "timeline.h"

/* One event definition, parsed once per message id. */
struct event {
	char name[128];              /* "category.name", or "?msgid=N" when unknown */
	char attrs[128];             /* "app=source", or "" */
	unsigned level, rate;        /* 0..9; rate 0 and level 0 when unknown */
	unsigned nargs;
	char args[TL_MAX_ARGS][64];  /* argument names */
	size_t name_len, args_len[TL_MAX_ARGS];
	int keep;                    /* --event filter cache: 0 unknown, 1 keep, 2 drop */
	/* the constant CSV fields, quoted once: ",name,attrs" and ",argnames\n" */
	char csv_head[2 * 256 + 16], csv_tail[2 * TL_MAX_ARGS * 64 + 16];
	size_t csv_head_len, csv_tail_len;
};

/* An open input file. */
struct input {
	const char *path;            /* as the user named it (or found under a directory) */
	char label[96];              /* "process[pid]", or the path of a Snabb file */
	size_t label_len;
	char *csv_path;              /* the path as one CSV field, quoted if needed */
	size_t csv_path_len;
	tl_reader *r;
	tl_info info;
	int compressed;              /* 1 when read from a zstd copy */
	struct event **events;       /* definitions parsed so far (never moved) ... */
	uint16_t *ids;               /* ... their message ids ... */
	uint32_t *slots;             /* ... hashed by msgid: index + 1, or 0 */
	uint32_t nevents, nslots;    /* nslots: a power of two > 2 * nevents */
	uint64_t unknown;            /* entries printed whose msgid names no definition */
};

/* Reports, once each, what is damaged in IN: a Snabb ring out of time order,
 * entries whose message id is outside its string table (or names no
 * parseable definition). Returns the number of problems reported. */
int input_report_damage(const char *cmd, const struct input *in);

/* Calls FN(PATH, ARG) for every file named in PATHS, walking directories
 * recursively in name order (symbolic links to directories are not
 * followed). Problems walking are reported as "timeline CMD: PATH: problem"
 * and counted. Returns the number of problems; stops early if FN returns < 0. */
int input_walk(const char *cmd, char **paths, int npaths,
	       int (*fn)(const char *path, int named, void *arg), void *arg);

/* Nonzero: input_open() skips non-logs found in directories without a note. */
extern int input_quiet;

/* Opens PATH (native, Snabb or zstd). NAMED: the user named the file, so
 * anything else is an error; otherwise a file that is not a timeline log is
 * skipped with a note on stderr. Returns the input, or NULL (*SKIPPED set
 * when it was only skipped). */
struct input *input_open(const char *cmd, const char *path, int named, int *skipped);
void input_close(struct input *in);

/* The definition of MSGID in IN (never NULL); it stays where it is until
 * input_close(). */
const struct event *input_event(struct input *in, uint16_t msgid);

/* Nanoseconds from TSC ticks: DELTA * 1e9 / HZ without overflow. */
uint64_t ticks_to_ns(uint64_t delta, uint64_t hz);

/* Wall-clock nanoseconds since the epoch of TSC in IN (needs tsc_hz). */
int64_t input_wall_ns(const struct input *in, uint64_t tsc);

/* Formats NS since the epoch as "2026-11-22T04:13:00.123456789Z". */
void format_wall(char *buf, size_t size, int64_t ns);

/* Parses a list "0,2-5" into the bit set SET (values 0..4095). */
int parse_list(const char *s, uint64_t set[64]);

static inline int in_set(const uint64_t set[64], unsigned v)
{
	return v < 4096 && (set[v / 64] >> (v % 64)) & 1;
}

/* Parses a whole number with strtoull's end pointer; 0 on success. */
int parse_u64(const char *s, uint64_t *v);
#endif
