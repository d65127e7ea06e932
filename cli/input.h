/* input.h: what the reading commands share: walking files and directories,
 * opening what they find through the library (which recognizes the
 * formats), and what printing caches per definition. */
#ifndef TL_INPUT_H
#define TL_INPUT_H
#include <stdint.h>
#include "timeline.h"

/* What printing keeps for each definition, hung on its tl_def.user by
 * input_event(): the --event filter's answer, and the constant CSV fields
 * quoted once, ",name,attrs" and ",argnames\n". */
struct shown {
	int keep;                    /* --event filter cache: 0 unknown, 1 keep, 2 drop */
	int is_switch;               /* a record of the event switches (timeline.switches) */
	char *csv_head, *csv_tail;
	size_t csv_head_len, csv_tail_len;
	size_t text_room;            /* bytes of the definition's strings, for a text line */
	/* the text line's constant parts, each followed by 32 spare bytes for
	 * put_field()'s block copies: "name[ attrs]" and " argname=" per argument */
	char *text_head, *text_arg[TL_MAX_ARGS];
	size_t text_head_len, text_arg_len[TL_MAX_ARGS];
	struct shown *next;          /* the input's list, for input_close() */
};

static inline struct shown *shown_of(const tl_def *d)
{
	return (struct shown *)d->user;
}

/* One log's time window in its own ticks, resolved by window_begin(). */
struct span {
	uint64_t lo, hi;             /* entries with lo <= tsc <= hi are in */
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
	struct shown *shown;         /* what input_event() hung on definitions */
#define INPUT_RECENT 64
	/* 32 sets of 2 by msgid % 32, the newer first: most lookups end here
	 * (one way each lost a third of a log's lookups to two hot ids) */
	const tl_def *recent[INPUT_RECENT];
	uint16_t recent_id[INPUT_RECENT];
	struct span span;            /* the printing commands' window, once set */
	int span_set, span_bad;      /* set; the log cannot place it (reported) */
	int window_empty;            /* the window's time bounds hold none of its entries */
	uint64_t window_seen;        /* window_take(): entries in its time bounds ... */
	uint64_t window_kept;        /* ... and of them, those its filters kept */
	char window_span[128];       /* then, its entries' span (window_place_span()) */
	int arg;                     /* input_open_all(): the index of the path it was
				      * found under */
	uint64_t unknown;            /* entries printed whose msgid names no definition */
	tl_pair *pairs;              /* the pairs it declares (input_pairs()) ... */
	size_t npairs;
	int pairs_read;              /* ... once read */
	struct switch_view *switches;   /* its records of switches as printed (switchview.c) */
	char **thread_label;         /* its threads as printed, "name[tid]" (input_thread()) */
	size_t thread_labels;
	const char **thread_key;     /* their --by thread keys (input_threads()) */
};

/* Reports, once each, what is damaged in IN: a Snabb ring out of time order,
 * entries whose message id is outside its string table (or names no
 * parseable definition). Returns the number of problems reported. */
int input_report_damage(const char *cmd, const struct input *in);

/* Notes on stderr how many incomplete entries (torn by a writer) reading IN
 * skipped, if any: "timeline CMD: PATH: N incomplete entries skipped". */
void input_note_skipped(const char *cmd, const struct input *in);

/* The length of directory DIR without its trailing slashes (0 for "/"),
 * for joining it to a name without "//":
 * printf("%.*s/%s", input_dir_len(dir), dir, name). */
int input_dir_len(const char *dir);

/* How many of the N ARGS, from the first, name files or directories that
 * are there: the logs of a command whose arguments after them are not
 * paths (enable's patterns, rate's RATE). */
int input_leading_paths(char **args, int n);

/* Calls FN(PATH, ARG) for every file named in PATHS, walking directories
 * recursively in name order (symbolic links to directories are not
 * followed). Problems walking are reported as "timeline CMD: PATH: problem"
 * and counted. Returns the number of problems; stops early if FN returns < 0. */
int input_walk(const char *cmd, char **paths, int npaths,
	       int (*fn)(const char *path, int named, void *arg), void *arg);

/* At the end of input path PATH: a walk that found no log (LOGS 0) and
 * reported no problem (PROBLEMS 0) is said as "timeline CMD: PATH: no
 * logs", for nothing to read is an error. Returns 1 then (a problem to
 * count), else 0. */
int input_none(const char *cmd, const char *path, size_t logs, int problems);

/* The inputs of a command that opens them all before reading (export, merge). */
struct input_list {
	struct input **in;
	size_t n, cap;
};

/* Opens every log under PATHS (as input_walk() finds them) into LIST, in
 * order, each with the index of its path in its arg. KEEP, if not NULL,
 * vets each input once open: it returns 0 to leave it out, having
 * reported why. Returns the number of problems (reported): paths not
 * walked, files not opened, inputs left out, paths with no log
 * (input_none()). */
int input_open_all(const char *cmd, char **paths, int npaths, struct input_list *list,
		   int (*keep)(const struct input *in, const char *cmd, void *arg), void *arg);

/* After the inputs of LIST were read through window W: for each of the
 * NPATHS paths they were found under, when the window kept nothing of any
 * of its logs, says so (window_misses_end()). Returns the problems. */
struct window;
int input_window_misses(const char *cmd, const struct input_list *list, int npaths,
			const struct window *w);

/* Closes the inputs of LIST and frees it. */
void input_close_all(struct input_list *list);

/* Nonzero: input_open() skips non-logs found in directories without a note. */
extern int input_quiet;

/* Nonzero: directories and files found in a walk that this user may not
 * read (EACCES, EPERM) are passed over in silence, not reported: for the
 * default roots of ls and gc, which may hold other users' logs. */
extern int input_skip_denied;

/* How long a follower waits for a log being born (timeline(1), FOLLOWING
 * LIVE LOGS): a path named to exist, a file's header to be written. */
#define INPUT_BIRTH_NS 2000000000ull

/* Whether PATH may be a log being born: NAMED and not there yet, or a file
 * of fewer than 8 bytes or whose first 8 are zero (writers store the magic
 * last: timeline-format(5)). A file that is no log for any other reason is
 * not one. Costs an open and a read of 8 bytes. */
int input_unborn(const char *path, int named);

/* From now until INPUT_BIRTH_NS later, input_open() (and so input_walk()
 * and input_open_all()) waits for each path that may be a log being born
 * (input_unborn()), looking again every 10 ms; then it goes on with what
 * is there, and what is still no log gets the usual error. For the
 * followers. */
void input_wait_for_births(void);

/* Thread THREAD of IN as printed: "name[tid]", "thread N" when its id is
 * unknown; *LEN gets its length. Kept with IN until input_close(). */
const char *input_thread(struct input *in, unsigned thread, size_t *len);

/* The --by thread keys of all IN's threads as its reader knows them now,
 * *N of them (an_file_threads()): each one's label, "-" where its id is
 * unknown (a log before format 1.4, Snabb's). */
const char *const *input_threads(struct input *in, size_t *n);

/* Opens PATH (native, Snabb or zstd). NAMED: the user named the file, so
 * anything else is an error; otherwise a file that is not a timeline log is
 * skipped with a note on stderr. Returns the input, or NULL (*SKIPPED set
 * when it was only skipped). */
struct input *input_open(const char *cmd, const char *path, int named, int *skipped);
void input_close(struct input *in);

/* The pairs IN's log declares (its "pair|" strings, timeline-events(5)),
 * in string-table order, read once; *N gets how many. A string that
 * starts "pair|" but does not parse is left out. */
const tl_pair *input_pairs(struct input *in, size_t *n);

/* The message ids of IN's definitions, in table order, in a new array the
 * caller frees (room for one more). *N gets how many it holds: never more
 * than it was made for, though a live writer may intern more between the
 * count and the listing. NULL, *N 0, when out of memory. */
uint16_t *input_definitions(const struct input *in, size_t *n);

/* The definition of MSGID in IN (tl_reader_def(): never NULL, a stand-in
 * for unknown ids), with its struct shown; it stays where it is until
 * input_close(). The library's lookup, then input_event()'s cache: the
 * newer way of MSGID's set, the older moved to the second. */
const tl_def *input_slow_event(struct input *in, uint16_t msgid);

/* The first of the two ways of MSGID's set in struct input's recent[]. */
static inline unsigned input_recent_set(uint16_t msgid)
{
	return msgid % (INPUT_RECENT / 2) * 2;
}

/* input_slow_event() behind a 2-way cache of recent ids: a dump or a stats
 * pass asks for every entry, mostly among a few ids. */
static inline const tl_def *input_event(struct input *in, uint16_t msgid)
{
	unsigned set = input_recent_set(msgid);
	if (in->recent_id[set] == msgid && in->recent[set])
		return in->recent[set];
	if (in->recent_id[set + 1] == msgid && in->recent[set + 1])
		return in->recent[set + 1];
	return input_slow_event(in, msgid);
}


/* The pid of the process that writes IN: the header's, or for a Snabb log
 * the number in .../<pid>/events.timeline or .../<pid>/engine/timeline;
 * 0 when unknown. */
unsigned input_pid(const struct input *in);

/* Whether process PID runs on this host (0: no). */
int input_pid_alive(unsigned pid);

/* Whether a process of this host may write IN: not a zstd copy, and a
 * Snabb log or a log whose header names this host. */
int input_local(const struct input *in);

/* Whether the writer of IN may still write it: its process runs on this
 * host. A zstd copy, a log of another host and a Snabb log whose path
 * names no pid count as ended (they are most likely copies). */
int input_writer_alive(const struct input *in);

/* Warns, as CMD, when no process will read the change WHAT ("the new
 * rate", "the switches") just made to the log at PATH whose header is I:
 * it was written on another host (its writer, if it runs, maps another
 * copy), or its writer, of this host, has ended. One line on stderr;
 * nothing when the header names no host or this host cannot name itself. */
void input_warn_unread(const char *cmd, const char *path, const tl_info *i, const char *what);

/* Parses a list "0,2-5" into the bit set SET (values 0..4095). */
int parse_list(const char *s, uint64_t set[64]);

static inline int in_set(const uint64_t set[64], unsigned v)
{
	return v < 4096 && (set[v / 64] >> (v % 64)) & 1;
}

/* Parses a whole number with strtoull's end pointer; 0 on success. */
int parse_u64(const char *s, uint64_t *v);
#endif
