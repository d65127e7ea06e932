/* format.h: the on-disk layout of a timeline log, shared by the C code and
 * asm/append.S (the #defines are assembler-safe). Internal: the public story
 * is man/timeline-format.5, which documents every byte listed here. */
#ifndef TL_FORMAT_H
#define TL_FORMAT_H

/* File = header (4096 bytes) | ring (entries * 64) | string table, then,
 * from minor 4, the lanes of the threads after the first: each a lane
 * header (4096 bytes) and a ring of its own (lib/lane.c, "Lanes" below). */
#define TL_MAGIC_0 0x0a1a0a0d4e4c5489ull   /* bytes 89 'T' 'L' 'N' \r \n 1a \n */
#define TL_MAJOR 1              /* = TL_FORMAT_MAJOR in timeline.h */
#define TL_MINOR 5              /* 1: start_ticks and copy_of (offsets 168, 176);
				 * 2: the event switches (offsets 108, 448-471, 2048-4095);
				 * 3: the rules for events registered later (472-999);
				 * 4: lanes, a ring per thread (offsets 20, 1000-1023);
				 * 5: the flight recorder (offsets 106, 1792-2047; the
				 *    path then 768 bytes) */
#define TL_HEADER_BYTES 4096
#define TL_ENTRY_BYTES 64
#define TL_ENTRY_SHIFT 6

/* Header offsets (bytes from the start of the file). */
#define TL_HDR_CURSOR 64           /* u64: entries ever written */
#define TL_HDR_MASK 72             /* u64: entries - 1 */
#define TL_HDR_RATE 80             /* u8: current rate 1..10 (= TL_HDR_RATE_OFFSET) */
#define TL_HDR_RATE_FIXED 81       /* u8: 1 = breaths keep the rate */
#define TL_HDR_CLOCK 82            /* u8: enum tl_clock in use */
#define TL_HDR_DISABLED 83         /* u8: 1 only in tl_disabled()'s stub */
#define TL_HDR_MANUAL_TSC 96       /* u64: timestamp for TL_CLOCK_MANUAL */
#define TL_HDR_MANUAL_AUX 104      /* u16: cpu/node word for TL_CLOCK_MANUAL */
#define TL_HDR_RSEQ 120            /* i64: the writer's __rseq_offset, for TL_CLOCK_RDTSC_RSEQ */
#define TL_HDR_SWITCHES 2048       /* u64[256]: event switches, bit set = off (minor 2;
				    * = TL_HDR_SWITCHES_OFFSET) */

/* Event switches (minor 2). Definitions are interned 128-byte aligned, so
 * their message ids are multiples of 8, and each has two bits of its own in
 * switches[]: its switch, bit b = (msgid >> 2) & 63 of word msgid >> 8, and
 * beside it, bit b + 1, a request to switch it on. tl_append() tests bit b
 * alone: set, it writes nothing. Outside processes set bit b (off) at once,
 * clearing b + 1; to switch on they set b + 1 only, and the writer clears
 * both, records the switches in its ring, then writes the entry: no entry
 * of an event comes after the record that says it is off, and none before
 * the one that says it is on again. 16,384 bits, 8,192 definitions: the
 * 1 MiB string table holds no more. An outside process then adds 1 to
 * switch_gen and stores 1 in switch_pending; the writer's next tl_append()
 * (on or off), generated event off or tl_breath() sees switch_pending,
 * stores 0 in it and records the switches (lib/switch.c). */
#define TL_STRING_ALIGN 128        /* offset of each new string, minor 2 */
#define TL_SWITCH_WORDS 256        /* = 2048 bytes */
#define TL_SWITCH_GROUP 4          /* words per record entry */
#define TL_SWITCH_WORD(id) ((unsigned)((id) & 0xffff) >> 8)
#define TL_SWITCH_BIT(id) ((((unsigned)(id) & 0xffff) >> 2) & 63)
#define TL_SWITCH_ON_REQ 0xaaaaaaaaaaaaaaaaull   /* the request bits: odd ones */
#define TL_HDR_SWITCH_PENDING 108  /* u32: 1 = switches changed, not yet recorded */

/* Rules (minor 3): what `timeline disable` and `enable --only` asked of
 * events not registered yet, kept in rules[] as records "-PATTERN\0"
 * (off) or "+PATTERN\0" (on), the last whose pattern matches an event
 * deciding (none: on). Outside processes change them under flock(2) of
 * the file, between rules_seq made odd and made even again; the writer
 * matches each new definition against them (lib/rules.c, the race in
 * its comment and in timeline-format(5)). */
#define TL_RULES_BYTES 512         /* rules[] */
#define TL_RULE_MAX 255            /* bytes of one pattern */

/* Clock sources, the values of enum tl_clock (timeline.h) that asm/append.S
 * tests the header's clock byte against; lib/clock.c asserts they agree.
 * A new source: an enum entry, a define here, its case in asm/append.S,
 * lib/append.c and tl_clock_name(). */
#define TL_CLK_AUTO 0
#define TL_CLK_RDTSC_RDPID 1
#define TL_CLK_RDTSCP 2
#define TL_CLK_RDTSC 3
#define TL_CLK_MONOTONIC 4
#define TL_CLK_MANUAL 5
#define TL_CLK_RDTSC_LSL 6
#define TL_CLK_RDTSC_RSEQ 7
#define TL_CLK_RDTSC_RSEQ_UNORDERED 8

/* TL_CLOCK_RDTSC_RSEQ reads the cpu/node word from the calling thread's
 * restartable-sequences area, which glibc (>= 2.35) registers for every
 * thread at the thread pointer + __rseq_offset, and which the kernel
 * rewrites at every migration. The header's rseq field (TL_HDR_RSEQ, in the
 * hot line the logger loads anyway) holds __rseq_offset, so the asm reads
 * the fields with one load from the header and two through %fs:
 *   rseq = TL_HDR_RSEQ(log); cpu = %fs:TL_RSEQ_CPU_ID(rseq); node = %fs:TL_RSEQ_NODE_ID(rseq)
 * Offsets in struct rseq (linux/rseq.h); node_id is filled from Linux 6.3,
 * when AT_RSEQ_FEATURE_SIZE >= TL_RSEQ_FEATURE_NODE. (Offset 24 is mm_cid,
 * the concurrency id, not the node.) */
#define TL_RSEQ_CPU_ID 4           /* u32 cpu_id: -1 unregistered, -2 registration failed */
#define TL_RSEQ_NODE_ID 20         /* u32 node_id */
#define TL_RSEQ_FEATURE_NODE 24    /* feature size that covers node_id (offsetofend) */

/* Lanes (minor 4): a log that several threads write keeps a ring per
 * thread. Lane 0 is the header's own ring and cursor, so a log that one
 * thread writes is laid out as before; each other thread's lane k (1 ..
 * lanes) is a lane header and a ring of the same size, appended at
 *   TL_LANES_BASE(file_bytes) + (k - 1) * TL_LANE_BYTES(entries),
 * (TL_LANE_BYTES: the header and the ring to a whole page, for rings of
 * fewer than 64 entries), its space allocated before it is published: the
 * header's lanes field is stored last. A lane header keeps the cursor, mask, prng, breaths and
 * rseq_offset at the main header's offsets, so asm/append.S writes any
 * lane as it writes lane 0. Entries carry each thread's own numbers: a
 * thread that goes on in a new lane (lane 0's writer, moved out when a
 * second thread comes, lib/lane.c) numbers on from its first lane's
 * cursor, kept in the new lane's first. */
#define TL_LANES_MAX 255           /* lanes after lane 0 */
#define TL_LANE_MAGIC 0x31656e614c4c5489ull   /* bytes 89 'T' 'L' 'L' 'a' 'n' 'e' '1' */
/* a lane's header and ring, to a whole page: each lane is mapped on its own */
#define TL_LANE_BYTES(entries) \
	(((uint64_t)TL_HEADER_BYTES + (uint64_t)(entries) * TL_ENTRY_BYTES + 4095) & ~(uint64_t)4095)
#define TL_LANES_BASE(file_bytes) (((uint64_t)(file_bytes) + 4095) & ~(uint64_t)4095)

/* Entry offsets. */
#define TL_ENT_TSC 0               /* u64 timestamp */
#define TL_ENT_MSGID 8             /* u16 string offset / 16 */
#define TL_ENT_AUX 10              /* u16 cpu (bits 0-11) | node (bits 12-15) */
#define TL_ENT_SEQ 12              /* u32 low 32 bits of seq+1 when complete, stored last */
#define TL_ENT_ARG0 16             /* 6 x u64 arguments */

#ifndef __ASSEMBLER__
#include <stdint.h>

/* The flight recorder (minor 5, lib/arm.c, lib/armfile.c): the settings
 * an outside process (or tl_arm()) writes, under flock(2) of the file and
 * between seq made odd and made even again, as the rules are; then the
 * trigger, which the first thread to see a pair slower than the threshold
 * (or the event, or `timeline freeze`) claims (claim 0 -> 1), fills, and
 * publishes by storing kind last. The header's armed byte says where the
 * log is: off, armed, keeping (triggered: the thread that triggered logs
 * keep more entries), frozen (the rate off, nothing overwrites the ring). */
#define TL_ARM_OFF 0
#define TL_ARM_ARMED 1
#define TL_ARM_KEEPING 2
#define TL_ARM_FROZEN 3
#define TL_ARM_INST 8              /* instances of a pair (or events of --on) watched */
#define TL_PATH_BYTES 768          /* the header's path, minor 5 */
#define TL_HDR_ARM 1792            /* offset of struct tl_arm */

struct tl_arm {
	uint32_t seq;               /*   0: outside writers': odd while they change it */
	uint32_t gen;               /*   4: arms made (1 + the last's) */
	uint64_t threshold;         /*   8: ticks a pair must exceed; 0 with mode on */
	uint64_t keep;              /*  16: entries the triggering thread logs after */
	uint8_t mode;               /*  24: TL_ARMED_PAIR, _BREATH (gaps between breaths
				     *      count too), _ON (an event triggers) */
	uint8_t rate;               /*  25: the rate while armed, 1..9 */
	uint8_t ninst;              /*  26: entries of begin[] and end[] in use */
	uint8_t reserved0[5];       /*  27: 0 */
	uint16_t begin[TL_ARM_INST];/*  32: message ids of the pair's begins (mode on:
				     *      the events) ... */
	uint16_t end[TL_ARM_INST];  /*  48: ... and of its ends, instance by instance */
	char what[64];              /*  64: the pair's label or the event pattern */
	/* the trigger */
	uint32_t claim;             /* 128: 0, or 1 once a trigger is being recorded */
	uint8_t kind;               /* 132: TL_TRIGGER_*: 0 none; stored last */
	uint8_t inst;               /* 133: the instance (index in begin[]) */
	uint16_t begin_id;          /* 134: message id of the slow pair's begin ... */
	uint16_t end_id;            /* 136: ... and of its end */
	uint16_t reserved1;         /* 138: 0 */
	uint32_t thread;            /* 140: the thread (index) that triggered */
	uint64_t cycles;            /* 144: the pair's length in ticks */
	uint64_t threshold_at;      /* 152: the threshold it exceeded */
	uint64_t begin_seq;         /* 160: the thread's entry numbers of the begin ... */
	uint64_t end_seq;           /* 168: ... and of the end */
	uint64_t end_tsc;           /* 176: the end's timestamp */
	int64_t wall_ns;            /* 184: CLOCK_REALTIME when recorded */
	uint64_t stop_at;           /* 192: the thread's entry number at which it freezes */
	uint8_t reserved2[56];      /* 200: 0 */
};
#define TL_ARMED_PAIR 1
#define TL_ARMED_BREATH 2
#define TL_ARMED_ON 3

/* The header, 4096 bytes, little-endian. Line 0 never changes after
 * creation; line 1 is the writer's hot line; the rest is identity. */
struct tl_header {
	/* line 0: layout, written once (magic last) */
	uint64_t magic;             /*   0: TL_MAGIC_0 */
	uint16_t major;             /*   8: TL_MAJOR; readers refuse other majors */
	uint16_t minor;             /*  10: TL_MINOR; additions readers may ignore */
	uint32_t header_bytes;      /*  12: 4096 */
	uint32_t entry_bytes;       /*  16: 64 */
	uint32_t lanes;             /*  20: lanes published after lane 0 (minor 4; 0
				     *      before): the one field of line 0 that moves */
	uint64_t entries;           /*  24: ring slots, a power of two, 2..2^31 */
	uint64_t ring_offset;       /*  32: 4096 */
	uint64_t strings_offset;    /*  40: ring_offset + entries * 64 */
	uint64_t strings_bytes;     /*  48: multiple of 16, <= 1 MiB */
	uint64_t file_bytes;        /*  56: strings_offset + strings_bytes */
	/* line 1: written while logging */
	uint64_t cursor;            /*  64: entries ever written; slot = cursor & mask */
	uint64_t mask;              /*  72: entries - 1 */
	uint8_t rate;               /*  80: current rate, 1..10 (10: off) */
	uint8_t rate_fixed;         /*  81: 1 when tl_breath() keeps the rate */
	uint8_t clock;              /*  82: enum tl_clock */
	uint8_t disabled;           /*  83: 0 in files */
	uint32_t strings_used;      /*  84: bytes of the string table in use, multiple of 16 */
	uint64_t prng;              /*  88: xorshift64 state for tl_breath() */
	uint64_t manual_tsc;        /*  96: timestamp used by TL_CLOCK_MANUAL */
	uint16_t manual_aux;        /* 104: cpu/node word used by TL_CLOCK_MANUAL */
	uint8_t armed;              /* 106: TL_ARM_OFF, _ARMED, _KEEPING, _FROZEN (minor 5;
				     *      0 before): tl_breath() tests it, nothing else */
	uint8_t reserved1;          /* 107: 0 */
	uint32_t switch_pending;    /* 108: an outside process stores 1 after it changed
				     *      switches[]; the writer stores 0 and records
				     *      them (minor 2) */
	uint64_t breaths;           /* 112: tl_breath() calls */
	int64_t rseq_offset;        /* 120: the writer's __rseq_offset with an rseq source, else 0 */
	/* line 2: clock */
	uint64_t tsc_hz;            /* 128: ticks per second, calibrated at creation */
	uint64_t anchor_tsc;        /* 136: TSC at creation ... */
	uint64_t anchor_realtime;   /* 144: ... CLOCK_REALTIME ns at that moment */
	uint64_t anchor_monotonic;  /* 152: ... CLOCK_MONOTONIC ns at that moment */
	uint32_t cpu_features;      /* 160: TL_CPU_* bits */
	uint32_t pid;               /* 164: writer's pid */
	uint64_t start_ticks;       /* 168: when the writer started: field 22 of /proc/PID/stat,
				     *      clock ticks after boot; 0 unknown (always in minor 0) */
	uint64_t copy_of;           /* 176: 0 in a log its process writes; in a copy that
				     *      tl_reader_copy() wrote, the ring size (entries) of
				     *      the log first copied (minor 1) */
	uint32_t rate_owner;        /* 184: the writers': 1 + the index of the thread whose
				     *      breaths draw the rate, 0 none yet (lib/sample.c) */
	uint32_t rate_beat;         /* 188: the writers': that thread adds 1 every
				     *      TL_RATE_BEAT of its breaths */
	/* identity strings, NUL-terminated, zero-padded */
	char process[64];           /* 192: program_invocation_short_name */
	char host[128];             /* 256: gethostname() */
	char name[64];              /* 384: log name */
	/* event switches, minor 2 (reserved, 0, before) */
	uint32_t switch_gen;        /* 448: flips made: an outside process adds 1 after
				     *      it changed switches[] */
	uint32_t switch_seen;       /* 452: the writer's: switch_gen read at its last
				     *      record of the switches in the ring */
	uint32_t switch_def;        /* 456: the writer's: 1 + the message id of
				     *      timeline.switches, 0 until interned */
	uint32_t switch_lost;       /* 460: the writer's: records it could not make
				     *      (string table full) */
	uint64_t switch_groups;     /* 464: the writer's: bit g set when words 4g..4g+3
				     *      of switches[] were not all 0 at the last record */
	/* rules for events registered later, minor 3 (reserved, 0, before) */
	uint32_t rules_seq;         /* 472: outside processes': odd while they change
				     *      rules_used and rules[], even otherwise */
	uint32_t rules_checked;     /* 476: the writer's: bytes of the string table whose
				     *      definitions it matched against the rules */
	uint16_t rules_used;        /* 480: bytes of rules[] in use, <= TL_RULES_BYTES */
	uint8_t reserved5[6];       /* 482: 0 */
	char rules[TL_RULES_BYTES]; /* 488: records "-PATTERN\0" or "+PATTERN\0" */
	/* lane 0's writer, minor 4 (reserved, 0, before) */
	uint32_t tid;               /* 1000: its thread id (gettid()), 0 before its first entry */
	char thread[16];            /* 1004: its name (pthread_getname_np()), NUL-terminated */
	uint32_t lanes_refused;     /* 1020: threads that asked for a lane and got none
				     *      (TL_LANES_MAX reached, or no space): they log
				     *      nothing */
	char path[TL_PATH_BYTES];   /* 1024: path at creation (1024 bytes before minor 5) */
	struct tl_arm arm;          /* 1792: the flight recorder (minor 5; path before) */
	uint64_t switches[TL_SWITCH_WORDS]; /* 2048: per event, off and on-requested (above) */
};

/* A lane's header, 4096 bytes, ahead of its ring (minor 4). Line 0 is
 * written once, magic last, before the lane is published; line 1 is its
 * writer's, at the offsets the main header's line 1 has. */
struct tl_lane {
	uint64_t magic;             /*   0: TL_LANE_MAGIC */
	uint32_t index;             /*   8: k, its place among the lanes (1 ..) */
	uint32_t thread;            /*  12: the writing thread's index in the log (<= k) */
	uint32_t tid;               /*  16: its thread id (gettid()) */
	uint32_t reserved0;         /*  20: 0 */
	uint64_t first;             /*  24: the thread's first entry number in this lane:
				     *      0, or the cursor of the lane it wrote before */
	char name[16];              /*  32: its name (pthread_getname_np()), NUL-terminated */
	uint8_t reserved1[16];      /*  48: 0 */
	uint64_t cursor;            /*  64: the thread's entries ever written, first included */
	uint64_t mask;              /*  72: entries - 1, as the main header's */
	uint64_t reserved2;         /*  80: 0 */
	uint64_t prng;              /*  88: its tl_breath() draws */
	uint32_t beat_seen;         /*  96: rate_beat at its last look (lib/sample.c) */
	uint8_t reserved3[12];      /* 100: 0 */
	uint64_t breaths;           /* 112: its tl_breath() calls */
	int64_t rseq_offset;        /* 120: as the main header's */
	uint8_t reserved4[TL_HEADER_BYTES - 128];   /* 128: 0 */
};

/* One ring entry, 64 bytes, cache-line aligned. */
struct tl_raw_entry {
	uint64_t tsc;               /*  0: timestamp */
	uint16_t msgid;             /*  8: string offset / 16 */
	uint16_t aux;               /* 10: cpu bits 0-11, numa node bits 12-15 */
	uint32_t seq;               /* 12: (uint32_t)(n + 1) complete; ~(n + 1) being written */
	uint64_t args[6];           /* 16: arguments */
};

_Static_assert(sizeof(struct tl_header) == TL_HEADER_BYTES, "header is one page");
_Static_assert(sizeof(struct tl_raw_entry) == TL_ENTRY_BYTES, "entry is a cache line");
_Static_assert(__builtin_offsetof(struct tl_header, cursor) == TL_HDR_CURSOR, "cursor");
_Static_assert(__builtin_offsetof(struct tl_header, mask) == TL_HDR_MASK, "mask");
_Static_assert(__builtin_offsetof(struct tl_header, rate) == TL_HDR_RATE, "rate");
_Static_assert(__builtin_offsetof(struct tl_header, clock) == TL_HDR_CLOCK, "clock");
_Static_assert(__builtin_offsetof(struct tl_header, manual_tsc) == TL_HDR_MANUAL_TSC, "mtsc");
_Static_assert(__builtin_offsetof(struct tl_header, manual_aux) == TL_HDR_MANUAL_AUX, "maux");
_Static_assert(__builtin_offsetof(struct tl_header, rseq_offset) == TL_HDR_RSEQ, "rseq");
_Static_assert(__builtin_offsetof(struct tl_header, tsc_hz) == 128, "clock line");
_Static_assert(__builtin_offsetof(struct tl_header, start_ticks) == 168, "start_ticks");
_Static_assert(__builtin_offsetof(struct tl_header, copy_of) == 176, "copy_of");
_Static_assert(__builtin_offsetof(struct tl_header, switch_gen) == 448, "switch_gen");
_Static_assert(__builtin_offsetof(struct tl_header, switch_pending) == TL_HDR_SWITCH_PENDING,
	       "switch_pending");
_Static_assert(__builtin_offsetof(struct tl_header, rules_seq) == 472, "rules_seq");
_Static_assert(__builtin_offsetof(struct tl_header, rules) == 488, "rules");
_Static_assert(__builtin_offsetof(struct tl_header, path) == 1024, "path");
_Static_assert(__builtin_offsetof(struct tl_header, armed) == 106, "armed");
_Static_assert(__builtin_offsetof(struct tl_header, arm) == TL_HDR_ARM, "arm");
_Static_assert(sizeof(struct tl_arm) == 256, "arm block");
_Static_assert(__builtin_offsetof(struct tl_header, switches) == TL_HDR_SWITCHES, "switches");
_Static_assert(__builtin_offsetof(struct tl_raw_entry, seq) == TL_ENT_SEQ, "seq");
_Static_assert(__builtin_offsetof(struct tl_header, lanes) == 20, "lanes");
_Static_assert(__builtin_offsetof(struct tl_header, tid) == 1000, "tid");
_Static_assert(__builtin_offsetof(struct tl_header, lanes_refused) == 1020, "lanes_refused");
_Static_assert(sizeof(struct tl_lane) == TL_HEADER_BYTES, "lane header is one page");
_Static_assert(__builtin_offsetof(struct tl_lane, cursor) == TL_HDR_CURSOR &&
	       __builtin_offsetof(struct tl_lane, mask) == TL_HDR_MASK &&
	       __builtin_offsetof(struct tl_lane, prng) == __builtin_offsetof(struct tl_header, prng) &&
	       __builtin_offsetof(struct tl_lane, breaths) ==
		       __builtin_offsetof(struct tl_header, breaths) &&
	       __builtin_offsetof(struct tl_lane, rseq_offset) == TL_HDR_RSEQ,
	       "a lane's line 1 at the main header's offsets");

/* The value a complete entry number N carries in its seq field, and the
 * marker stored while it is written: never equal to the complete value of N
 * or of N - entries (2x = entries - 1 (mod 2^32) has no solution). With at
 * most 2^31 entries the complete values of N and N - entries differ too, and
 * a never-written slot (seq 0) can only be met below the first wrap, where
 * N + 1 <= 2^31 is not 0. */
static inline uint32_t tl_seq_done(uint64_t n) { return (uint32_t)(n + 1); }
static inline uint32_t tl_seq_busy(uint64_t n) { return ~(uint32_t)(n + 1); }

static inline struct tl_raw_entry *tl_ring(struct tl_header *h)
{
	return (struct tl_raw_entry *)((char *)h + TL_HEADER_BYTES);
}
#endif
#endif
