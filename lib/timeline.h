/* timeline.h: the public API of libtimeline, the writer and reader of timeline logs.
 * A log is a file of fixed 64-byte entries in a ring, mapped MAP_SHARED, plus a
 * table of interned event definitions; see timeline(3) and timeline-format(5).
 *
 * In the order a program meets it: errors; writing a log (opening it,
 * sampling, logging events, their definitions); reading logs (a reader,
 * time, the rate of a log given by path, whether its writer runs). Hooks
 * for tests, benchmarks and replays come last, apart: a program that logs
 * or reads needs none of them. */
#ifndef TIMELINE_H
#define TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What this header declares is what libtimeline.so exports; the library is
 * built with -fvisibility=hidden, so everything else in it stays inside. */
#pragma GCC visibility push(default)

#define TL_VERSION_MAJOR 0
#define TL_VERSION_MINOR 1
#define TL_VERSION_STRING "0.1.0"
#define TL_FORMAT_MAJOR 1   /* the file format this library writes and reads */
#define TL_FORMAT_MINOR 5

/* ------------------------------------------------------------------------
 * Errors
 *
 * Every call that can fail returns a status (TL_OK or a negative TL_E_*) and,
 * when given a tl_error, fills it with a one-line message naming the file and
 * the problem, e.g. "/var/run/timeline/42/engine.timeline: cannot allocate
 * 68161536 bytes: No space left on device". Errors in tl_options, which come
 * before any file, name the option instead.
 * The library never prints and never aborts the host process.
 * ------------------------------------------------------------------------ */
enum tl_status {
	TL_OK = 0,
	TL_E_SYS = -1,       /* a system call failed; tl_error.sys_errno says why */
	TL_E_INVAL = -2,     /* an argument is out of range */
	TL_E_FULL = -3,      /* the string table has no room for another definition */
	TL_E_SYMLINK = -4,   /* the path or one of its directories is a symbolic link */
	TL_E_UNSAFE = -5,    /* a directory or file is owned by or writable for others */
	TL_E_FORMAT = -6,    /* the file is not a timeline log, or is damaged */
	TL_E_VERSION = -7,   /* the file is a timeline log of an unknown major version */
	TL_E_PARSE = -8,     /* an events file or definition does not follow the grammar */
	TL_E_FBIG = -10,     /* the log would exceed RLIMIT_FSIZE */
	TL_E_NOMEM = -11,    /* out of memory */
	TL_E_EXISTS = -12,   /* tl_open(NULL, ...): this process has a log at the default
	                        path of that name already */
};

typedef struct tl_error {
	int code;            /* the tl_status of the failure, TL_OK when none */
	int sys_errno;       /* errno of the failed system call, or 0 */
	char msg[512];       /* one line, no newline: "FILE: problem" */
} tl_error;

/* Returns a static string describing a tl_status code, e.g. "string table full". */
const char *tl_strerror(int code);

/* ------------------------------------------------------------------------
 * Writing a log
 * ------------------------------------------------------------------------ */

/* A log being written. The handle is the base of the shared mapping: the
 * generated event functions read the current rate at TL_HDR_RATE_OFFSET. */
typedef struct tl_log tl_log;

/* Timestamp sources, recorded in the file header. */
enum tl_clock {
	TL_CLOCK_AUTO = 0,          /* the cheapest correct source, checked at tl_open():
	                               RDTSC+rseq, else RDTSCP, else RDTSC+RDPID, else
	                               RDTSC+LSL, else RDTSC, else MONOTONIC */
	TL_CLOCK_RDTSC_RDPID = 1,   /* LFENCE+RDTSC for time, RDPID for the cpu/node word */
	TL_CLOCK_RDTSCP = 2,        /* RDTSCP: time and cpu/node in one ordered instruction */
	TL_CLOCK_RDTSC = 3,         /* LFENCE+RDTSC only; the cpu/node word is 0xffff (unknown) */
	TL_CLOCK_MONOTONIC = 4,     /* clock_gettime(CLOCK_MONOTONIC) ns, for CPUs without a TSC */
	TL_CLOCK_MANUAL = 5,        /* time and cpu/node set by tl_set_manual_clock()
	                               (the hooks at the end): tests, replays */
	TL_CLOCK_RDTSC_LSL = 6,     /* LFENCE+RDTSC for time, the cpu/node word from Linux's per-CPU
	                               segment limit (LSL), as the vDSO's getcpu() reads it
	                               where RDPID is missing (e.g. many KVM guests) */
	TL_CLOCK_RDTSC_RSEQ = 7,    /* RDTSC for time, the cpu/node word from the calling
	                               thread's restartable-sequences area (glibc >= 2.35
	                               registers it, Linux >= 6.3 fills its node): two loads;
	                               the RDTSC waits for the work before it (LFENCE) */
	TL_CLOCK_RDTSC_RSEQ_UNORDERED = 8, /* the same without the LFENCE, on request only
	                               (AUTO never picks it): the cheapest source, but the
	                               time of an event may fall before the tail of the work
	                               ahead of it, which then counts in the next interval */
};

/* The name of clock source CLOCK ("rdtsc+rdpid", "monotonic", ...), the
 * word timeline(1) shows for tl_info.clock, or NULL if CLOCK is no enum
 * tl_clock value. */
const char *tl_clock_name(int clock);

/* The enum tl_clock named NAME as tl_clock_name() gives it, or -1. */
int tl_clock_parse(const char *name);

/* The environment variable that chooses the clock source of the logs a
 * process opens with TL_CLOCK_AUTO, by name: TIMELINE_CLOCK=rdtsc+rseq-unordered
 * takes the unordered source without a change to the program. A source
 * given in tl_options wins over it; "manual" is refused. */
#define TL_CLOCK_ENV "TIMELINE_CLOCK"

#define TL_DEFAULT_ENTRIES (1u << 20)        /* ring entries: 64 MiB of entries */
#define TL_DEFAULT_STRINGS (1u << 20)        /* string table bytes: 65,536 ids */
#define TL_MAX_STRINGS     (1u << 20)        /* msgid = offset / 16 must fit 16 bits */
#define TL_MAX_ARGS 6

/* Options for tl_open(). A zeroed struct (or NULL) asks for the defaults. */
typedef struct tl_options {
	uint64_t entries;        /* ring size: a power of two from 2 to 2^31; 0 = 2^20 */
	uint32_t strings_bytes;  /* string table size: a multiple of 16 up to 1 MiB; 0 = 1 MiB */
	int clock;               /* an enum tl_clock; TL_CLOCK_AUTO takes $TIMELINE_CLOCK if
				  * set, else picks by CPU features */
	const char *name;        /* log name for the default path and header, [A-Za-z0-9._-]
				  * up to 63 characters, no leading dot; NULL = "timeline" */
	uint64_t tsc_hz;         /* ticks per second to record; 0 = calibrate (MANUAL: 0 = unknown) */
	int no_prefault;         /* nonzero: do not touch every page of the ring at creation */
} tl_options;

/* Creates a log and maps it. With PATH NULL the file is
 * $TIMELINE_ROOT/<pid>/<name>.timeline for the main thread and
 * $TIMELINE_ROOT/<pid>/<name>-<tid>.timeline for another thread, where the
 * root defaults to /var/run/timeline, then $XDG_RUNTIME_DIR/timeline, then
 * /tmp/timeline-<uid>, the first one this process can write to. A default
 * path that holds a log this very process wrote (its pid and start time)
 * is refused with TL_E_EXISTS, so a second open cannot wipe the first log;
 * a file left by an earlier process with the same pid is replaced.
 *
 * Directories the library creates are 0700 and the file is 0600. No symbolic
 * link is followed, an existing regular file of this user at a PATH given is replaced,
 * and a directory writable by other users (without the sticky bit) is refused.
 * The file's space is allocated up front, so a full disk fails here, not
 * later with SIGBUS; a half-created file is removed.
 *
 * @return the log, or NULL with ERR filled. On failure the caller keeps
 *         running: pass tl_disabled() to the event functions instead. */
tl_log *tl_open(const char *path, const tl_options *opt, tl_error *err);

/* Unmaps the log. Every event already logged stays in the file. LOG may be
 * NULL or tl_disabled(); either is a no-op. After the call LOG is invalid. */
void tl_close(tl_log *log);

/* A log that logs nothing: its rate is TL_RATE_OFF and tl_breath() and
 * tl_set_rate() leave it so. Interning into it succeeds with id 0 and stores
 * nothing, so code written for a real log runs unchanged. */
tl_log *tl_disabled(void);

/* The path the log was created at (a string inside the mapping). */
const char *tl_path(const tl_log *log);

/* Threads. Any number of threads may log into one log: each writes a lane
 * of its own, a ring in the same file (timeline-format(5)), so no entry is
 * lost or torn by sharing and each entry's thread is known to readers
 * (tl_entry.thread, tl_reader_thread()). The first thread to log writes
 * the log's first ring; each other thread gets its lane at its first entry,
 * which then costs the lane's creation (allocating and touching a ring, tens
 * of ms for the default 64 MiB), or, before its loop, from tl_thread_attach().
 * When a second thread comes, the first goes on in a lane of its own too.
 * A log holds TL_THREADS_MAX lanes; a thread past them, or refused the space
 * for its lane (a full disk), logs nothing, and the log counts it
 * (tl_info.threads_refused). A thread's lane is only its own: a lane is not
 * reused when its thread ends. */
#define TL_THREADS_MAX 256

/* Gives the calling thread its lane of LOG now, named NAME (up to 15 bytes;
 * NULL: the thread's own name, pthread_getname_np(), e.g. DPDK's
 * "lcore-worker-1"), so that its first entry costs no more than the others:
 * for a thread about to enter its loop. A thread that has a lane keeps it
 * (and its name). The first thread of a log to log without this call takes
 * the log's first ring; one that calls it gets a lane of its own. LOG may be
 * tl_disabled().
 * @return TL_OK; TL_E_FULL when the log has TL_THREADS_MAX lanes, TL_E_SYS
 *         or TL_E_FBIG when the file cannot grow by a lane: the thread
 *         then logs nothing into LOG. */
int tl_thread_attach(tl_log *log, const char *name, tl_error *err);

/* ------------------------------------------------------------------------
 * Sampling: an event of rate R (0-9) is logged iff R >= the current rate.
 * Rate 0 is never logged, rate 9 always (unless the rate is TL_RATE_OFF).
 * ------------------------------------------------------------------------ */
#define TL_RATE_AUTO 0   /* tl_set_rate(): draw a new rate at every tl_breath() */
#define TL_RATE_OFF 10   /* a current rate above every event's: log nothing */

/* Offset of the current rate (one byte, 1..10) in the mapping: part of the
 * file format, so that the generated inline functions read it in one load. */
#define TL_HDR_RATE_OFFSET 80

/* The current rate, 1..10. One relaxed load: an outside process may change it. */
static inline unsigned tl_rate(const tl_log *log)
{
	return __atomic_load_n((const uint8_t *)log + TL_HDR_RATE_OFFSET, __ATOMIC_RELAXED);
}

/* Offset of the event switches in the mapping (format 1.2): 256 u64 words,
 * bit (msgid >> 2) & 63 of word msgid >> 8 set when MSGID is switched off
 * (timeline-format(5)); part of the format, so that generated functions
 * test it inline. */
#define TL_HDR_SWITCHES_OFFSET 2048

/* Offset of switch_pending (u32): 1 when an outside process changed the
 * switches and the writer has not recorded them yet. */
#define TL_HDR_SWITCH_PENDING_OFFSET 108

/* Is MSGID switched off in LOG, which an outside process may change at any
 * time? One relaxed load. tl_append() tests it too; the generated functions
 * test it first, so that an event switched off costs no call. */
static inline int tl_switched_off(const tl_log *log, unsigned msgid)
{
	const uint64_t *w = (const uint64_t *)((const char *)log + TL_HDR_SWITCHES_OFFSET);
	return (int)(__atomic_load_n(&w[(msgid & 0xffff) >> 8], __ATOMIC_RELAXED) >>
		     ((msgid >> 2) & 63) & 1);
}

/* Grants the requests to switch events on that outside processes made in
 * LOG, and records the switches in its ring as entries of TL_SWITCH_EVENT,
 * when they changed; tl_switch_poll() calls it, as do tl_append(),
 * tl_event() and tl_breath(). The writer's thread only (it appends). */
void tl_switch_sync(tl_log *log);

/* tl_switch_sync() if an outside process changed LOG's switches: one load. */
static inline void tl_switch_poll(tl_log *log)
{
	if (__atomic_load_n((const uint32_t *)((const char *)log + TL_HDR_SWITCH_PENDING_OFFSET),
			    __ATOMIC_RELAXED))
		tl_switch_sync(log);
}

/* Ends one breath (event-loop iteration): unless the rate is fixed, draws a
 * new rate exactly as Snabb does, rate = max(1, ceil(log5(r))) for r uniform
 * in 1..5^9, so an event of rate k is logged in a fraction 5^(k-9) of the
 * breaths. Cost: a xorshift step and at most nine compares. */
void tl_breath(tl_log *log);

/* Fixes the current rate to RATE (1..9, or TL_RATE_OFF), or with TL_RATE_AUTO
 * returns to drawing a rate every breath. The setting lives in the file, so
 * `timeline` or any process mapping the file can change it at run time: it
 * stores 1 in rate_fixed (offset 81) first, then the rate (offset 80); a
 * breath under way then never overwrites it (tl_breath uses a CAS).
 * @return TL_OK, or TL_E_INVAL for a rate above 10 or the disabled log. */
int tl_set_rate(tl_log *log, unsigned rate);

/* Reads a rate written in words, for a program that takes one as an
 * option or from its user: "all" (1: every event of rate 1 to 9 is
 * logged), "1".."9" (events of that rate and above), "off" (TL_RATE_OFF:
 * nothing) and "auto" (TL_RATE_AUTO: a rate drawn every breath, Snabb's
 * way). timeline(1) takes and shows rates in the same words.
 * @return the rate for tl_set_rate(), or -1 for anything else. */
int tl_rate_parse(const char *s);

/* Writes the word for a log's rate (tl_info.rate and .rate_fixed), the
 * one tl_rate_parse() reads back: "auto" when not FIXED, else "all",
 * "2".."9" or "off"; into BUF of SIZE as snprintf does. For a program that
 * shows the rate of its own log or of one it reads.
 * @return its length. */
size_t tl_rate_name(char *buf, size_t size, unsigned rate, int fixed);

/* ------------------------------------------------------------------------
 * Logging events. These are what the generated functions call.
 * ------------------------------------------------------------------------ */

/* Appends one entry: timestamp, cpu/node word, MSGID and six arguments,
 * unconditionally (the caller has checked the rate), into the calling
 * thread's lane (see Threads above). Hand-written x86-64 assembly; about the
 * cost of one RDTSC. */
void tl_append(tl_log *log, unsigned msgid, uint64_t a0, uint64_t a1, uint64_t a2,
	       uint64_t a3, uint64_t a4, uint64_t a5);

/* Like tl_append, but first checks the rate: EVENT is tl_event_code(msgid,
 * rate). For events looked up at run time rather than generated. */
void tl_event(tl_log *log, unsigned event, uint64_t a0, uint64_t a1, uint64_t a2,
	      uint64_t a3, uint64_t a4, uint64_t a5);

static inline unsigned tl_event_code(unsigned msgid, unsigned rate)
{
	/* the rate in the low byte: tl_event compares it with one instruction */
	return (msgid & 0xffffu) << 8 | (rate > 9 ? 9 : rate);   /* event rates are 0..9 */
}

/* ------------------------------------------------------------------------
 * Event definitions and the string table
 * ------------------------------------------------------------------------ */

/* Interns the NUL-terminated string S (each distinct string is stored once,
 * 128-byte aligned, so that message ids are multiples of 8 and each has an
 * event switch of its own) and stores its message id (offset / 16) in *ID.
 * @return TL_OK, TL_E_FULL when the table has no room (the file is unchanged),
 *         TL_E_INVAL for an empty string. */
int tl_intern(tl_log *log, const char *s, uint16_t *id, tl_error *err);

/* One parsed event definition. Pointers point into the parsed text. */
typedef struct tl_def {
	unsigned level;              /* 0 (outermost) .. 9 */
	unsigned rate;               /* 0 (never) .. 9 (always) */
	const char *name;            /* "category.name" or, in an events file, "name" */
	size_t name_len;
	const char *attrs;           /* e.g. "app=source", or NULL */
	size_t attrs_len;
	unsigned nargs;              /* 0 .. 6 */
	const char *args[TL_MAX_ARGS];
	size_t args_len[TL_MAX_ARGS];
	const char *descr;           /* description text (may be empty) */
	size_t descr_len;
	unsigned line;               /* line of the header in its events file */
	int known;                   /* 1; 0 in tl_reader_def()'s stand-in for an id that
				      * names no definition */
	void *user;                  /* the caller's: NULL until it stores a pointer here
				      * (in tl_reader_def()'s definitions, which it may
				      * change); the library never reads or frees it */
} tl_def;

/* Parses one interned definition, "L,R|category.name[ attrs]: a b c\ndescription".
 * @return TL_OK or TL_E_PARSE with ERR naming the problem. */
int tl_def_parse(const char *s, size_t len, tl_def *def, tl_error *err);

/* A pair declaration (timeline-events(5)): the events that begin and end a
 * span, the attribute that tells its instances apart, and the arguments of
 * its end that count units, "pair|label: begin end by=ATTR unit=ARG", and
 * whether it is the program's breath ("breath"). In an events file the
 * names have no category; in a log (the canonical form,
 * "pair|cat.label: cat.begin cat.end[ by=ATTR][ unit=ARG]...[ breath]")
 * they have. */
typedef struct tl_pair {
	char label[128];             /* the rows' label, e.g. "pf.stage" */
	char begin[128], end[128];   /* the events' names */
	char by[64];                 /* the attribute naming an instance ("app" unless by=) */
	unsigned nunits;             /* 0 .. 6 */
	char units[TL_MAX_ARGS][64]; /* the end's arguments that count units, the first the
				      * one used when no --per names another */
	unsigned line;               /* in an events file, the line of the declaration */
	int breath;                  /* 1: declared "breath", the program's loop, whose one
				      * turn every breath-based view counts as Snabb's
				      * breath_start/breath_end (at most one per file) */
} tl_pair;

/* Parses one interned pair declaration, "pair|cat.label: cat.begin cat.end ...".
 * @return TL_OK or TL_E_PARSE with ERR "pair declaration 'TEXT': problem". */
int tl_pair_parse(const char *s, size_t len, tl_pair *pair, tl_error *err);

/* A parsed events file: its category and definitions, in file order. */
typedef struct tl_events {
	char *category;              /* the file's base name without ".events" */
	char *text;                  /* the file text; defs point into it */
	size_t ndefs;
	tl_def *defs;
	char **canon;                /* ndefs interned forms, "L,R|category.name: args\ndescr" */
	size_t npairs;               /* its pair declarations, in file order ... */
	tl_pair *pairs;
	char **pair_canon;           /* ... and their interned forms ("pair|cat.label: ...") */
} tl_events;

/* Parses an events file (Snabb's grammar; see timeline-events(5)).
 * @return the events, or NULL with ERR "FILE:LINE: problem". */
tl_events *tl_events_load(const char *path, tl_error *err);

/* The same, from TEXT of LEN bytes; NAME is used in messages and for the category. */
tl_events *tl_events_parse(const char *text, size_t len, const char *name, tl_error *err);

void tl_events_free(tl_events *ev);

/* Interns N canonical definitions DEFS into LOG, inserting ATTRS (e.g.
 * "app=source", or NULL) after each name, and stores the message ids in IDS.
 * Ids belong to one log: keep one IDS array per log.
 * @return TL_OK, TL_E_FULL (the ids before the failing one are set), TL_E_INVAL
 *         (ATTRS contains ':' or a newline, or a definition has no ':'),
 *         TL_E_NOMEM. */
int tl_register(tl_log *log, const char *const *defs, size_t n, const char *attrs,
		uint16_t *ids, tl_error *err);

/* ------------------------------------------------------------------------
 * Reading a log: any process, while it is written or after the writer died.
 * ------------------------------------------------------------------------ */

typedef struct tl_reader tl_reader;

/* File formats a reader understands. */
enum tl_format {
	TL_FORMAT_NATIVE = 1,        /* ours: timeline-format(5) */
	TL_FORMAT_SNABB = 2,         /* Snabb's events.timeline, major version 2 or 3 */
	TL_FORMAT_ZSTD = 0x100,      /* tl_probe(): a flag, compressed with zstd */
};

/* One decoded entry. */
typedef struct tl_entry {
	uint64_t seq;                /* entry number: 0 for the first entry its thread
				      * ever wrote; in a Snabb file, the slot number */
	uint64_t tsc;                /* timestamp in ticks of tl_info.tsc_hz */
	uint16_t msgid;              /* string table offset / 16 */
	uint16_t cpu;                /* bits 0-11 of the cpu/node word */
	uint16_t numa;               /* bits 12-15 of the cpu/node word */
	uint16_t aux;                /* the raw cpu/node word (0xffff: unknown) */
	uint8_t dargs;               /* bit i set: args[i] holds the bits of a double (a
				      * Snabb value that is not a whole number >= 0) */
	uint32_t thread;             /* the writing thread's index in its log, 0 for
				      * the first (and every entry of a log that one
				      * thread writes, and of a Snabb log); seq counts
				      * each thread's entries apart (tl_reader_thread()) */
	uint64_t args[TL_MAX_ARGS];
} tl_entry;

/* What the header says, checked against the file. */
typedef struct tl_info {
	int format;                  /* enum tl_format */
	unsigned major, minor;       /* format version */
	uint64_t entries;            /* ring slots */
	uint64_t cursor;             /* entries ever written (Snabb: slots in use) */
	uint64_t used;               /* slots holding an entry */
	uint64_t strings_bytes;      /* string table size */
	uint64_t strings_used;       /* bytes of it in use */
	uint64_t tsc_hz;             /* ticks per second, calibrated at creation (Snabb: 0) */
	uint64_t anchor_tsc;         /* TSC read at creation ... */
	uint64_t anchor_realtime_ns; /* ... and CLOCK_REALTIME at the same moment */
	uint64_t anchor_monotonic_ns;/* ... and CLOCK_MONOTONIC */
	uint64_t breaths;            /* tl_breath() calls */
	unsigned rate;               /* current rate, 1..10 */
	int rate_fixed;              /* nonzero when breaths do not redraw the rate */
	int clock;                   /* enum tl_clock used by the writer */
	uint32_t cpu_features;       /* TL_CPU_* bits seen at creation */
	uint32_t pid;                /* the writer's process id */
	uint64_t start_ticks;        /* when the writer started, in clock ticks after boot
				      * (field 22 of /proc/PID/stat): with the pid it tells
				      * the writer from a later process given the same pid
				      * (tl_pid_alive()); 0 unknown: format 1.0, Snabb */
	uint64_t copy_of;            /* 0, or in a copy tl_reader_copy() wrote, the ring
				      * size of the log first copied (its own ring,
				      * entries, may be smaller) */
	char process[64];            /* program_invocation_short_name, NUL-terminated */
	char host[128];              /* host name, NUL-terminated */
	char name[64];               /* log name, NUL-terminated */
	char path[1024];             /* path at creation, NUL-terminated */
	uint64_t disorder;           /* Snabb: places where a timestamp is below the one
				      * before it in ring order, beyond the one a wrapped
				      * ring has: 0 in a sound file; entries are still read
				      * in ring order (ours: always 0, the cursor orders) */
	int compressed;              /* 1: read from a zstd copy, decompressed into an
				      * unlinked temporary file */
	unsigned switched_off;       /* event switches off now (format 1.2; 0 before) */
	uint32_t switch_gen;         /* switch changes ever made by outside processes */
	uint32_t switch_seen;        /* ... of which the writer recorded the last at
				      * its breath: switch_gen != switch_seen means
				      * a change not yet recorded in the ring */
	uint32_t threads;            /* threads that wrote into it (format 1.4): thread
				      * indices 0 .. threads - 1 (tl_reader_thread());
				      * 1 for formats before 1.4 and Snabb's. Entries,
				      * written and held (cursor, used) and breaths above
				      * are those of every thread */
	uint32_t threads_refused;    /* threads that wanted a lane and got none: they
				      * logged nothing (format 1.4; timeline(3), Threads) */
	int armed;                   /* the flight recorder (format 1.5): TL_RECORDER_OFF,
				      * _ARMED, _KEEPING or _FROZEN (tl_reader_arming()) */
} tl_info;

#define TL_CPU_TSC       (1u << 0)
#define TL_CPU_RDTSCP    (1u << 1)
#define TL_CPU_RDPID     (1u << 2)
#define TL_CPU_INVARIANT (1u << 3)
#define TL_CPU_LSL       (1u << 4)   /* Linux's per-CPU segment answers LSL */

/* What the file open at FD holds, by its content (its first bytes; for a
 * zstd frame, the first 64 bytes it decompresses to): TL_FORMAT_NATIVE,
 * TL_FORMAT_SNABB, either ORed with TL_FORMAT_ZSTD for a compressed copy,
 * TL_FORMAT_ZSTD alone for a zstd frame too damaged or short to tell, or 0
 * for anything else (including files shorter than 4 bytes). For a program
 * that walks directories: skip what gives 0, open the rest and report why
 * they fail. Reads with pread(); a zstd frame moves FD's offset. */
int tl_probe(int fd);

/* Opens and checks the log at PATH read-only: ours or Snabb's format v2/v3,
 * plain or as a zstd-compressed copy, each recognized by its content (see
 * tl_probe()). Every size and offset in a header is checked against the
 * file before it is used. A compressed copy is decompressed into an
 * unlinked temporary file in $TMPDIR (else /tmp), never beyond the size its
 * own header announces nor beyond 4 GiB, so a zstd bomb costs no more than
 * a real log.
 * @return the reader, or NULL with ERR "PATH: problem" (TL_E_FORMAT for a
 *         file that is not a timeline log, or is damaged, truncated, or
 *         compressed but not a log; TL_E_VERSION; TL_E_SYS). */
tl_reader *tl_reader_open(const char *path, tl_error *err);

/* The same for the regular file open at FD; NAME is used in messages. FD
 * may be closed after the call. */
tl_reader *tl_reader_open_fd(int fd, const char *name, tl_error *err);

/* Fills IDS with up to MAX message ids of the interned definitions, in table
 * order. @return how many there are (may exceed MAX). */
size_t tl_reader_definitions(const tl_reader *r, uint16_t *ids, size_t max);

/* Reads the header; a live writer may move cursor and rate between calls. */
void tl_reader_info(const tl_reader *r, tl_info *info);

/* Takes a snapshot of the ring: entries from the oldest still in the ring to
 * the newest complete one, oldest first; of a log several threads write,
 * of each thread's ring, merged by timestamp (a lane made since the last
 * snapshot included). Call again to follow a live writer.
 * Entries a live writer overwrites during the read, and entries a crashed
 * writer left incomplete, are counted, never returned.
 * @return the number of entries below the cursor in the snapshot; one more
 *         may be read if the writer had stored it but not yet moved the cursor. */
uint64_t tl_reader_rewind(tl_reader *r);

/* Follows a live log from entry number FROM (a tl_entry.seq): takes a
 * snapshot of the entries from FROM up to the cursor, oldest first, for
 * tl_reader_next(). The entry at the cursor, which the writer may be
 * storing, is left for the next call. Entries from FROM that the writer has
 * already overwritten (it lapped the reader) are not in the snapshot:
 * *LOST (if not NULL) gets their number. Entries overwritten while the
 * snapshot is read are skipped and counted by tl_reader_skipped(); so every
 * number from FROM to the cursor is either read, counted in *LOST, or
 * skipped, and a caller that keeps the seq it expects next sees each gap.
 * A FROM beyond the cursor gives an empty snapshot. Cost: one load of the
 * cursor; reading only what is new makes following cheap. A follower keeps
 * the pages of the ring it has read mapped (tl_reader_rewind() gives them
 * back as it goes): looking often, that costs less than giving them back.
 * A Snabb log has no cursor, and its entry numbers are slots: FROM is the
 * slot after the last entry read (its seq + 1). The snapshot starts one
 * slot before, with that entry again if it is still there, and goes on
 * around the ring while the timestamps do not go back: what is new costs
 * what it holds, not a scan of the ring. A first entry newer than the one
 * read last means the writer lapped the reader: take a tl_reader_rewind()
 * snapshot and go on by timestamp. *LOST is 0 (a Snabb log cannot count
 * them).
 * @return the cursor at the snapshot, the FROM of the next call; FROM
 *         itself when FROM is beyond the cursor; for a Snabb log, the slot
 *         after the snapshot's last entry. */
uint64_t tl_reader_since(tl_reader *r, uint64_t from, uint64_t *lost);

/* A thread that writes or wrote into a log, as tl_reader_thread() gives it. */
typedef struct tl_thread {
	uint32_t tid;                /* its thread id (gettid()); 0 unknown: a log of format
				      * 1.3 or before, Snabb's, a thread yet to log */
	char name[16];               /* its name when it took its lane (pthread_getname_np()),
				      * NUL-terminated; "" unknown */
	uint64_t written;            /* its entries ever written, at the reader's last
				      * snapshot: the number (tl_entry.seq) of its next */
	uint64_t oldest;             /* the number of its oldest entry the file holds
				      * then (written when it holds none) */
	uint64_t lost;               /* of them, those its ring overwrote before that
				      * snapshot */
	uint64_t skipped;            /* of those in that snapshot, those skipped as
				      * incomplete */
} tl_thread;

/* How many threads the log R reads had at its last snapshot (tl_reader_rewind(),
 * tl_reader_since()): thread indices 0 .. n - 1, as tl_entry.thread gives
 * them. A log one thread writes, a log of format 1.3 or before and a Snabb
 * log have one. Thread 0 writes the log's first ring; when threads came
 * with tl_thread_attach() before any logged, it may have written nothing. */
unsigned tl_reader_threads(const tl_reader *r);

/* Fills *T with thread THREAD of the log R reads, as of its last snapshot.
 * @return TL_OK, or TL_E_INVAL for THREAD not below tl_reader_threads(). */
int tl_reader_thread(const tl_reader *r, unsigned thread, tl_thread *t);

/* tl_reader_since() thread by thread, for a log that several threads write
 * (format 1.4; any log will do): each thread numbers its own entries
 * (tl_entry.seq) from 0, and FROM[t] is the number of the next entry
 * expected of thread t (0, or the last one's seq + 1) for each t below N;
 * a thread at or past N is read from its first entry. The snapshot holds
 * every thread's entries from FROM[t] up to its cursor, the entry at the
 * cursor left for the next call, in time order (tl_reader_next()); a thread
 * that appeared since the last snapshot is in it. *LOST (if not NULL) gets
 * the entries from FROM that the writers overwrote before they were read,
 * all threads together; entries overwritten while read are skipped and
 * counted by tl_reader_skipped(). So every number of each thread from
 * FROM[t] to its written (tl_reader_thread()) is read, counted in *LOST or
 * skipped, and a caller that keeps the number it expects next of each
 * thread sees each gap. tl_reader_since(r, from, lost) of a log of several
 * threads is this call with thread 0's FROM alone.
 * @return the entries of every thread written at the snapshot (tl_info.cursor
 *         for a log of one thread). */
uint64_t tl_reader_since_threads(tl_reader *r, const uint64_t *from, size_t n, uint64_t *lost);

/* Copies the next entry of the snapshot into *E.
 * In a Snabb file, which has no cursor, the oldest entry follows the one with
 * the highest timestamp, and slots with timestamp 0 are unused.
 * @return 1 when an entry was read, 0 at the end of the snapshot. */
int tl_reader_next(tl_reader *r, tl_entry *e);

/* Copies up to N next entries of the snapshot into BUF, oldest first, as N
 * calls of tl_reader_next() would, in one call: for a binding to another
 * language that reads a log in bulk (a call per entry costs it more than
 * the entry). Call again with the same or another buffer for the rest;
 * entries skipped as incomplete are counted by tl_reader_skipped() as ever.
 * @return how many entries BUF got: N while the snapshot has more, fewer
 *         (0 included) at its end. */
size_t tl_reader_read(tl_reader *r, tl_entry *buf, size_t n);

/* Copies the newest entry of the snapshot (the last that tl_reader_next()
 * would return, if a live writer does not overwrite it first) into *E
 * without moving the reader: for a window counted back from a log's end.
 * Cost: one entry read (a few more if the newest are being written).
 * @return 1, or 0 when the snapshot holds no complete entry. */
int tl_reader_newest(const tl_reader *r, tl_entry *e);

/* Entries of the snapshot skipped as incomplete (torn, or overwritten while read). */
uint64_t tl_reader_skipped(const tl_reader *r);

/* For a helper thread: reads R's entries ahead of where tl_reader_next() is,
 * so that they come from the cache rather than memory when it gets there
 * (and page faults are taken by the helper): reading many large logs at
 * once is bound by memory latency, and a second core hides it. Touches the entries from
 * max(FROM, the reader's position) to AHEAD entries past the position, at
 * most to the end of the snapshot. The only call that may run while another
 * thread calls tl_reader_next() on R; never while R is rewound or closed.
 * @return where to go on from next time: FROM again when nothing was left. */
uint64_t tl_reader_warm(const tl_reader *r, uint64_t from, uint64_t ahead);

/* The interned string with message id MSGID, or NULL when the id does not
 * point at the start of a NUL-terminated string inside the used table. */
const char *tl_reader_string(const tl_reader *r, uint16_t msgid);

/* The definition of MSGID, parsed once and kept until tl_reader_close():
 * the same pointer at every call. Unlike tl_def_parse()'s, its strings are
 * NUL-terminated copies, and attrs is "" when there are none. For an id that
 * names no parseable definition it is a stand-in: known 0, name "?msgid=N",
 * level and rate 0, six arguments "arg0".."arg5". Only the user field may be
 * changed. Cost: a hash lookup.
 * @return the definition, or NULL when out of memory. */
tl_def *tl_reader_def(tl_reader *r, uint16_t msgid);

/* Where tl_reader_copy() writes: returns 0, or nonzero with errno set. */
typedef int (*tl_writer_fn)(void *ctx, const void *buf, size_t len);

/* Writes a consistent copy of the log to WRITE(CTX, ...), in the log's own
 * format, while its writer may keep running. Ours: the snapshot's entries,
 * each checked as tl_reader_next() does, in their slots, the rest of the
 * ring zero; a log that never wrapped goes into a ring just big enough for
 * the entries up to its cursor (the next power of two, at least 2), where
 * each keeps its number and slot, and the header's copy_of (tl_info) says
 * the ring it came from. Snabb's: the file's bytes, with the timestamp of every slot
 * that changed during the copy set to 0 (unused). *KEPT gets the entries
 * copied, *DROPPED those left out as torn or overwritten during the copy:
 * for ours, exactly the incomplete entries a reader of the copy will count.
 * NAME is used in messages. Memory: one ring and one string table.
 * @return TL_OK, TL_E_NOMEM, or TL_E_SYS when WRITE failed. */
int tl_reader_copy(tl_reader *r, tl_writer_fn write, void *ctx, uint64_t *kept,
		   uint64_t *dropped, const char *name, tl_error *err);

/* Says whether entry E goes into a copy (nonzero) or is left out. */
typedef int (*tl_keep_fn)(void *ctx, const tl_entry *e);

/* tl_reader_copy() of the entries KEEP(KCTX, e) keeps (KEEP NULL: all).
 * Ours: the kept entries renumbered from 0, oldest first, in a ring just
 * big enough for them (the next power of two, at least 2) after a header
 * that says so, the string table whole; *DROPPED counts the entries torn or
 * overwritten while read. Snabb's: the file's bytes, with the timestamp of
 * every slot left out set to 0 (unused). *KEPT counts what the copy holds.
 * For a copy of a time window, or of some events only, that a reader of
 * it finds as it would find a log holding just those entries.
 * @return as tl_reader_copy(). */
int tl_reader_copy_if(tl_reader *r, tl_keep_fn keep, void *kctx, tl_writer_fn write,
		      void *ctx, uint64_t *kept, uint64_t *dropped, const char *name, tl_error *err);

void tl_reader_close(tl_reader *r);

/* ------------------------------------------------------------------------
 * Time, whether a log's writer runs, and the rate of a log given by path
 * ------------------------------------------------------------------------ */

/* TICKS of a clock of HZ ticks per second in nanoseconds, without overflow
 * (0 when HZ is 0: unknown). */
uint64_t tl_ticks_to_ns(uint64_t ticks, uint64_t hz);

/* The wall-clock time (ns since the epoch, CLOCK_REALTIME) of timestamp TSC
 * of the log INFO describes, from its anchor and frequency. Meaningless for
 * a Snabb log (no anchor, tsc_hz 0). */
int64_t tl_wall_ns(const tl_info *info, uint64_t tsc);

/* Formats NS since the epoch (a tl_wall_ns() time) as
 * "2026-11-22T04:13:00.123456789Z" (UTC, nanoseconds; 31 bytes with the NUL)
 * into BUF of SIZE, as snprintf does: the form timeline(1) prints and takes,
 * so that times a program prints can be given back to it (--from, --to).
 * @return the length it has or would have had. */
size_t tl_format_wall(char *buf, size_t size, int64_t ns);

/* Nonzero when the logs A and B were written on one host in one boot (same
 * host name; CLOCK_REALTIME - CLOCK_MONOTONIC at their anchors within a
 * second), so that their TSC values can be compared directly. A program
 * that orders the entries of several logs compares their tsc when it is,
 * and their tl_wall_ns() times when it is not. */
int tl_same_tsc(const tl_info *a, const tl_info *b);

/* Whether the process that wrote a log runs, as tl_pid_alive() finds it. */
enum tl_liveness {
	TL_GONE = 0,          /* no process has the pid, the one that has it has exited
	                         (a zombie), or it started at another time than the
	                         writer: the log is written no more */
	TL_RUNNING = 1,       /* the pid runs and started when the writer did */
	TL_PID_RUNNING = 2,   /* the pid runs, but whether it is the writer is unknown:
	                         START_TICKS is 0 (a log of format 1.0, a Snabb log)
	                         or /proc does not say when the process started */
};

/* Whether the process PID, started at START_TICKS (tl_info.start_ticks; 0:
 * unknown), still runs on this host: kill(PID, 0), then the start time in
 * /proc/PID/stat, so that a process given the same pid later is not taken
 * for the writer. For a log from another host or pid namespace the answer
 * means nothing. Cost: a system call and a read of /proc.
 * @return an enum tl_liveness. */
int tl_pid_alive(uint32_t pid, uint64_t start_ticks);

/* The rate of the log at PATH, whose writer may be running, as the writer's
 * tl_set_rate() would set it: RATE 1..9, TL_RATE_OFF or TL_RATE_AUTO; or
 * with RATE -1 only read. Fills *NOW (1..10) and *FIXED (nonzero: breaths
 * keep the rate) with what the file says after the call (either may be
 * NULL). Needs write permission to set.
 * @return TL_OK; TL_E_INVAL for a Snabb log (its rate lives in its
 *         process), a compressed copy, or a rate above TL_RATE_OFF; or the
 *         failure of opening it. */
int tl_rate_file(const char *path, int rate, unsigned *now, int *fixed, tl_error *err);

/* ------------------------------------------------------------------------
 * Event switches (format 1.2, timeline-format(5)): each message id of a log
 * is on or off, and an outside process may flip it while the writer runs.
 * tl_append() and tl_event() drop an entry whose event is off. The writer
 * records each change in its ring at its next tl_breath(), as entries of
 * the event TL_SWITCH_EVENT: generation, first, off0..off3, the switch
 * words first..first+3 after the change (bit b of off_k set: message ids
 * 4 * (64 * (first + k) + b) .. + 3 off).
 * ------------------------------------------------------------------------ */
#define TL_SWITCH_EVENT "timeline.switches"
#define TL_SWITCH_WORDS_PER_LOG 256  /* u64 words: 16,384 switches */

/* Is MSGID switched off in the log R reads, now, and not asked to go on?
 * Always 0 for Snabb files, and for logs of format 1.0 and 1.1 (every
 * event on). */
int tl_reader_switched_off(const tl_reader *r, uint16_t msgid);

/* How many events are switched off in the log R reads, now (as
 * tl_info.switched_off). */
unsigned tl_reader_switches_off(const tl_reader *r);

/* Is E an entry of TL_SWITCH_EVENT (a record of the switches)? */
int tl_reader_is_switch_entry(tl_reader *r, const tl_entry *e);

/* Applies an entry E of a record of the switches (tl_reader_is_switch_entry)
 * to WORDS (TL_SWITCH_WORDS_PER_LOG u64, the switches before it; start from
 * all 0). A record starts with the entry of first = 0, which also clears
 * the words the record leaves out (they are 0), so after a whole record
 * WORDS are the log's switches whatever they held. @return the number of
 * switches it changed. */
unsigned tl_switch_apply(uint64_t *words, const tl_entry *e);

/* Copies the switch words of the log R reads, now, into WORDS: bit
 * (msgid >> 2) & 63 of word msgid >> 8 set when MSGID is off (all 0 for
 * Snabb files and formats before 1.2). */
void tl_reader_switch_words(const tl_reader *r, uint64_t *words);

/* Is MSGID off in WORDS? */
static inline int tl_switch_is_off(const uint64_t *words, uint16_t msgid)
{
	return (int)(words[msgid >> 8] >> ((msgid >> 2) & 63) & 1);
}

/* Switches the N message ids IDS of the log at PATH, whose writer may be
 * running: off where OFF[i] is nonzero, at once; on where it is 0, asked
 * of the writer, which grants it and records it before its next entry (or
 * in tl_breath()). Needs write permission. When one changed, adds 1 to the
 * log's switch generation and stores 1 in its switch_pending, so that the
 * writer records the change. *CHANGED (may be NULL) gets how many changed.
 * @return TL_OK; TL_E_INVAL for a Snabb log (no switches), a compressed
 *         copy, or a log of format 1.0 or 1.1 (written before switches);
 *         or the failure of opening it (TL_E_SYS with EACCES, EROFS...). */
int tl_switch_file(const char *path, const uint16_t *ids, const uint8_t *off, size_t n,
		   size_t *changed, tl_error *err);

/* ------------------------------------------------------------------------
 * Rules for events registered later (format 1.3, timeline-format(5)): an
 * outside process may ask for events that its writer has not registered
 * yet to be off (`timeline disable`, `enable --only`). The log keeps the
 * patterns, records "-PATTERN" (off) or "+PATTERN" (on), and the writer
 * matches each definition it registers against them: the last record
 * whose pattern matches decides, none means on.
 * ------------------------------------------------------------------------ */
#define TL_RULES_BYTES_PER_LOG 512   /* the rules area: records "-P\0" / "+P\0" */

/* Does PATTERN match the definition D? PATTERN is "NAME-GLOB[ ATTR-GLOB
 * ...]": fnmatch(3) globs, the first against D's name ("app.push"), each
 * other against some word of its attributes ("app=lookup"). 1 or 0 (also
 * for a pattern or name above 255 bytes). */
int tl_def_matches(const tl_def *d, const char *pattern);

/* Copies the rules of the log R reads into BUF (TL_RULES_BYTES_PER_LOG
 * bytes), *LEN the bytes used: NUL-terminated records, each '-' (off) or
 * '+' (on) then the pattern.
 * @return TL_OK; TL_E_INVAL for a log without rules (Snabb's, formats
 *         before 1.3); TL_E_FORMAT with ERR "FILE: problem" when the area
 *         is damaged (its writer ignores it) or was left half-changed. */
int tl_reader_rules(const tl_reader *r, char *buf, size_t *len, tl_error *err);

/* Changes the rules of the log at PATH, whose writer may be running:
 * starting from none when CLEAR, else from its rules (from none when they
 * are damaged), each of the N records RULES ("-PATTERN" or "+PATTERN")
 * replaces those of the same pattern and is added last, a "+" record only
 * when a "-" record stays before it. Outside processes take flock(2) of
 * the file to change them. Then it switches off each definition its writer
 * has not matched against the rules yet and the new rules say off; after
 * it returns, the caller reads the definitions again to switch those
 * already registered (as `timeline disable` does), so that an event
 * registered meanwhile is matched by the one or the other. *APPLIED (may be
 * NULL) gets how many it switched off. Needs write permission. Rules found
 * damaged are replaced (the change starts from none, CLEAR or not) and
 * said as a warning: TL_OK, with ERR's msg "PATH: rules area damaged;
 * starting afresh" (empty otherwise).
 * @return TL_OK; TL_E_INVAL for a log of format 1.2 (it keeps no rules),
 *         or as tl_switch_file(); TL_E_FULL when the rules would not fit
 *         in TL_RULES_BYTES_PER_LOG bytes (nothing changed); TL_E_INVAL
 *         for a record that is not '-' or '+' then 1 to 255 bytes. */
int tl_rules_file(const char *path, int clear, const char *const *rules, size_t n,
		  size_t *applied, tl_error *err);

/* ------------------------------------------------------------------------
 * The flight recorder (format 1.5, timeline-format(5)): a log armed keeps
 * the first pair slower than a threshold (or the first entry of an event)
 * and what came around it. At each tl_breath() the writer looks at the
 * entries its thread wrote since its last breath, the pair's begins and
 * ends, and their timestamps: no clock read of its own. The first thread
 * to see a pair longer than the threshold records the trigger in the
 * header, logs KEEP more entries (checked at its breaths: it stops at the
 * first breath that reaches them), then freezes the log: the rate off, so
 * that nothing overwrites the evidence. Every other thread armed logs as
 * many of its own from its first breath after the trigger, and freezes
 * the log if it gets there first (the triggering thread died or waits).
 * For the breath pair (declared
 * "breath", or engine.breath_start/breath_end), the time between one
 * breath's end and the next one's begin counts as well: a stall between
 * breaths is caught too. Unarmed, it costs tl_breath() one load.
 * Setting a rate (tl_set_rate(), tl_rate_file()) or arming again resumes.
 * ------------------------------------------------------------------------ */
enum tl_recorder_state {
	TL_RECORDER_OFF = 0,       /* not armed (a trigger may remain from before) */
	TL_RECORDER_ARMED = 1,     /* watching */
	TL_RECORDER_KEEPING = 2,   /* triggered: its thread logs KEEP more entries */
	TL_RECORDER_FROZEN = 3,    /* the rate off: the ring keeps what it has */
};

enum tl_trigger_kind {
	TL_TRIGGER_NONE = 0,
	TL_TRIGGER_PAIR = 1,       /* a pair longer than the threshold */
	TL_TRIGGER_GAP = 2,        /* the time from a breath's end to the next begin */
	TL_TRIGGER_EVENT = 3,      /* an entry of the event armed with on */
	TL_TRIGGER_HAND = 4,       /* tl_freeze_file(), `timeline freeze` */
};

/* How to arm: a zeroed struct arms on the breath with no threshold, which
 * is refused; give slower_than_ns, or on. */
typedef struct tl_arm_options {
	uint64_t slower_than_ns;     /* the threshold: a pair longer triggers (> 0) */
	const char *pair;            /* the pair's label ("pf.stage", or "stage"); NULL:
				      * the breath */
	const char *on;              /* instead: an event pattern (tl_def_matches()),
				      * whose first entry triggers */
	uint64_t keep;               /* entries logged after the trigger's end, below
				      * the ring size ... */
	int keep_set;                /* ... when nonzero; else a tenth of the ring */
	unsigned rate;               /* the rate while armed, 1..9; 0: all (1) */
} tl_arm_options;

/* What a log's flight recorder says (tl_reader_arming()). */
typedef struct tl_arming {
	int state;                   /* enum tl_recorder_state */
	int mode;                    /* 1 a pair, 2 the breath pair (gaps count), 3 an event */
	char what[64];               /* the pair's label or the event pattern */
	uint64_t threshold;          /* ticks of tl_info.tsc_hz */
	uint64_t keep;               /* entries after the trigger */
	unsigned rate;               /* the rate while armed */
	uint32_t gen;                /* times armed */
	/* the trigger, when kind is not TL_TRIGGER_NONE */
	int kind;                    /* enum tl_trigger_kind */
	uint32_t thread;             /* the thread that triggered (tl_entry.thread) */
	uint16_t begin_id, end_id;   /* message ids of the slow pair's begin and end (the
				      * event: both its id; by hand: 0) */
	uint64_t cycles;             /* its length in ticks (event, by hand: 0) */
	uint64_t threshold_at;       /* the threshold it exceeded */
	uint64_t begin_seq, end_seq; /* its entries' numbers (tl_entry.seq, of thread) */
	uint64_t end_tsc;            /* the end's timestamp */
	int64_t wall_ns;             /* when it was recorded, ns since the epoch */
	uint64_t stop_at;            /* the thread's entry number it logs up to */
} tl_arming;

/* Arms LOG, the calling program's own, as O says (one call, for a program
 * in production without an outside process). Resolves the pair among the
 * log's declarations (or the event among its definitions), clears any
 * trigger, fixes the rate at O->rate, and arms.
 * @return TL_OK; TL_E_INVAL with ERR for a threshold of 0, a pair the log
 *         does not declare (or more than 8 instances of it), no event
 *         matching, a KEEP not below the ring size, a rate above 9, the
 *         disabled log. */
int tl_arm(tl_log *log, const tl_arm_options *o, tl_error *err);

/* The same for the log at PATH, whose writer may be running (`timeline
 * arm`). Needs write permission.
 * @return as tl_arm(); TL_E_INVAL too for a Snabb log, a copy (plain or
 *         compressed), a log of format 1.4 or before; or the failure of
 *         opening it. */
int tl_arm_file(const char *path, const tl_arm_options *o, tl_error *err);

/* Freezes the log at PATH now (`timeline freeze`): records a trigger by
 * hand unless one is recorded, then the rate off and the state frozen.
 * @return as tl_arm_file(). */
int tl_freeze_file(const char *path, tl_error *err);

/* Fills *A with the flight recorder of the log R reads.
 * @return TL_OK, or TL_E_INVAL (*A zeroed) for a log without one: Snabb's,
 *         formats before 1.5. */
int tl_reader_arming(const tl_reader *r, tl_arming *a);

/* The name of a trigger kind, "pair", "gap", "event", "hand" ("none"). */
const char *tl_trigger_name(int kind);

/* ------------------------------------------------------------------------
 * Hooks for tests, benchmarks and replays. A program that logs or reads
 * needs none of these: they fix what is otherwise drawn or measured, and
 * give the C twin of the assembly to compare it with.
 * ------------------------------------------------------------------------ */

/* Seeds the breath PRNG, so that a run draws the same rates again (tests,
 * the demo engine's --seed); seed 0 is replaced by 1. A new log is seeded
 * from the clock and the pid. */
void tl_seed(tl_log *log, uint64_t seed);

/* With TL_CLOCK_MANUAL: the next events get timestamp TSC and cpu/node word AUX. */
void tl_set_manual_clock(tl_log *log, uint64_t tsc, uint16_t aux);

/* The portable C twins of tl_append and tl_event: the same stores in the same
 * order. On x86-64 they exist for differential tests and benchmarks; with
 * TL_NO_ASM, or on other machines, tl_append and tl_event are these. */
void tl_append_c(tl_log *log, unsigned msgid, uint64_t a0, uint64_t a1, uint64_t a2,
		 uint64_t a3, uint64_t a4, uint64_t a5);
void tl_event_c(tl_log *log, unsigned event, uint64_t a0, uint64_t a1, uint64_t a2,
		uint64_t a3, uint64_t a4, uint64_t a5);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif
