/* reader.h: the reader's state, shared by lib/reader.c (native logs) and
 * lib/snabb.c (Snabb's format v2/v3). Internal to lib/. */
#ifndef TL_READER_H
#define TL_READER_H
#include <stdint.h>
#include "format.h"
#include "timeline.h"

#define TL_SNABB_MAGIC 0xa3ff7223441d0001ull
#define TL_ZSTD_MAGIC 0xfd2fb528u          /* a zstd frame's first four bytes, LE */
#define TL_MAX_DECOMPRESSED (4ull << 30)   /* a compressed input: at most 4 GiB (2^26 entries) */

/* A lane of a native log as the reader holds it (lib/lanes.c): lane 0 is
 * the header's ring, the others each a lane header and a ring. */
struct tl_lane_rd {
	const struct tl_raw_entry *ring;
	const uint64_t *cursor_p;   /* the writer's cursor of this lane */
	const struct tl_lane *lh;   /* its lane header, NULL for lane 0 */
	uint64_t first;             /* its first entry number, checked */
	uint32_t thread;            /* its thread index, checked */
	/* the snapshot */
	uint64_t cursor;            /* its cursor then (at least first) */
	uint64_t next, left;        /* the next entry number, and how many are left to try */
	uint64_t skipped;           /* incomplete entries in it */
	int first_read;             /* its oldest entry was returned */
	uint64_t chunk;             /* ring chunk being read (tl_reader_release) */
	int has_head;               /* the merge: HEAD is its next entry, read */
	tl_entry head;
	void *map;                  /* a mapping of its own (a lane mapped after open) */
};

struct tl_reader {
	int format;                 /* TL_FORMAT_NATIVE or TL_FORMAT_SNABB */
	const unsigned char *map;   /* the whole file, read-only */
	uint64_t map_bytes;         /* size of the mapping */
	const struct tl_header *h;  /* native: the live header */
	const struct tl_raw_entry *ring; /* native: the ring */
	const unsigned char *slots; /* snabb: the ring, 64-byte slots */
	uint64_t entries, mask;     /* checked copies: the mapping is shared and */
	uint64_t strings_bytes;     /* may change under us, so never re-read these */
	const char *strings;        /* string table (snabb: a private copy) */
	char *strings_copy;         /* snabb: strings_bytes + 1 bytes, NUL-terminated */
	unsigned major, minor;      /* format version found */
	uint64_t next;              /* snabb: the snapshot's next step ... */
	uint64_t left;              /* ... and how many are left to try */
	uint64_t oldest;            /* snabb: slot of the oldest entry */
	uint64_t used;              /* snabb: slots with a timestamp */
	uint64_t disorder;          /* snabb: breaks in time order beyond the wrap's one */
	uint64_t chunk;             /* snabb: ring chunk being read (see tl_reader_release) */
	int following;              /* tl_reader_since()'s snapshot: chunks kept mapped */
	int compressed;             /* read from a zstd copy */
	struct tl_defs *defs;       /* tl_reader_def()'s cache (lib/defs.c) */
	/* native: the lanes (lib/lanes.c) */
	struct tl_lane_rd *lane;    /* nlanes of them: lane0, or an array */
	unsigned nlanes;
	struct tl_lane_rd lane0;
	unsigned last_lane;         /* the lane of the entry tl_reader_next() gave last */
	uint32_t threads;           /* thread indices the lanes name */
	uint64_t lanes_base, lane_bytes;   /* where lane 1 is, and a lane's size */
	char *reopen;               /* the path to map lanes made after open from (the
				     * kernel's for the file opened), or NULL */
	uint64_t dev, ino;          /* ... and the file it must be */
};

/* Native logs' lanes (lib/lanes.c). Checks the lanes the header HEAD (a
 * checked copy) announces against R's mapping and takes them: TL_OK or
 * TL_E_FORMAT with ERR "NAME: problem". */
int tl_lanes_take(tl_reader *r, const struct tl_header *head, const char *name, tl_error *err);
/* Takes the lanes published since, mapping them if the file grew. */
void tl_lanes_refresh(tl_reader *r);
/* The snapshot of lane L from entry number FROM (its first when below);
 * adds to *LOST the entries from FROM its ring overwrote. */
void tl_lane_since(tl_reader *r, struct tl_lane_rd *l, uint64_t from, uint64_t *lost);
/* The whole snapshot of lane L: from its oldest entry, the one at the cursor too. */
void tl_lane_rewind(tl_reader *r, struct tl_lane_rd *l);
/* The next entry of lane L's snapshot into *E: 1, or 0 at its end. */
int tl_lane_next(tl_reader *r, struct tl_lane_rd *l, tl_entry *e);
/* The next entry of the snapshot of a log of several lanes, by time. */
int tl_lanes_next(tl_reader *r, tl_entry *e);
/* Frees what the lanes took. */
void tl_lanes_free(tl_reader *r);

/* Entries per chunk of the ring that the reader gives back to the kernel
 * once it has moved past it, so a pass over many files keeps little
 * resident: 1 MiB of entries. */
#define TL_CHUNK_ENTRIES 16384u

/* Called with the ring slot about to be read: when SLOT starts a new chunk,
 * drops the pages of the previous one from the mapping (the page cache keeps
 * them; a later read faults them back in) and maps the new one's at once. */
void tl_reader_release(tl_reader *r, const unsigned char *ring, uint64_t slot);

/* Checks a Snabb header against the mapping in R and fills R; NAME is for
 * messages. Returns TL_OK or TL_E_FORMAT/TL_E_VERSION/TL_E_NOMEM. */
int tl_snabb_open(tl_reader *r, const char *name, tl_error *err);
uint64_t tl_snabb_rewind(tl_reader *r);
/* Does slot I hold an entry (a whole-number timestamp above 0)? */
int tl_snabb_slot_used(const tl_reader *r, uint64_t i);
int tl_snabb_next(tl_reader *r, tl_entry *e);
/* tl_reader_since() of a Snabb log: from slot FROM - 1 (or FROM, when that
 * one is unused) on, while the timestamps do not go back; returns the slot
 * after the last one taken. */
uint64_t tl_snabb_since(tl_reader *r, uint64_t from);
int tl_snabb_newest(const tl_reader *r, tl_entry *e);
void tl_snabb_info(const tl_reader *r, tl_info *i);
/* The file size a Snabb header HEAD announces. */
uint64_t tl_snabb_bytes(const unsigned char head[64]);

/* The file size the first 64 bytes HEAD of a log announce, or 0 when they
 * are not the start of a log of either format. */
uint64_t tl_announced_bytes(const unsigned char head[64]);

/* Decompresses the zstd file open at FD (from its start) into an unlinked
 * temporary file, stopping at the size the log's header announces, and
 * returns its fd; or -1 with ERR "NAME: problem" (lib/unzstd.c). */
int tl_unzstd(int fd, const char *name, tl_error *err);

/* Decompresses only the start of FD: the enum tl_format of the log whose
 * header it holds, 0 when it holds something else, -1 when the frame is
 * damaged or cut short before the header. */
int tl_unzstd_probe(int fd);

/* Frees tl_reader_def()'s cache (lib/defs.c). */
void tl_defs_free(struct tl_defs *d);
#endif
