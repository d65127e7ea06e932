/* copy.c: a consistent copy of a log that may be written while it is read:
 * only entries that pass the reader's check go in, the rest are counted. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "reader.h"

/* The smallest ring for N entries: the next power of two, at least 2. */
static uint64_t ring_for(uint64_t n)
{
	uint64_t size = 2;
	while (size < n)
		size *= 2;
	return size;
}

/* Makes H, the header of R's log, the header of a copy of it with a ring of
 * SIZE entries: the sections moved to fit, and copy_of set to the ring of
 * the log first copied (a copy of a copy keeps its source's). A source of
 * minor 0 has neither field: the copy is of the minor that has them. */
static void copy_header(struct tl_header *h, const tl_reader *r, uint64_t size)
{
	if (h->minor < 1) {
		h->minor = 1;
		h->start_ticks = 0;   /* unknown: reserved bytes in minor 0 */
		h->copy_of = 0;
	}
	if (!h->copy_of)
		h->copy_of = r->entries;
	h->entries = size;
	h->mask = size - 1;
	h->strings_bytes = r->strings_bytes;
	h->strings_offset = TL_HEADER_BYTES + size * TL_ENTRY_BYTES;
	h->file_bytes = h->strings_offset + h->strings_bytes;
}

/* Writes N zero bytes to WRITE(CTX); nonzero on failure. */
static int write_zeros(tl_writer_fn write, void *ctx, uint64_t n)
{
	static const char zero[4096];
	for (; n > 0; n -= n < sizeof zero ? n : sizeof zero)
		if (write(ctx, zero, n < sizeof zero ? n : sizeof zero))
			return -1;
	return 0;
}

/* Writes the copy's lane K header, R's own with CURSOR and a ring of SIZE
 * and, for a filtered copy, FIRST (else its own). */
static int write_lane_header(tl_writer_fn write, void *ctx, const struct tl_lane_rd *l,
			     uint64_t first, uint64_t cursor, uint64_t size)
{
	struct tl_lane lh;
	memcpy(&lh, l->lh, sizeof lh);
	lh.first = first;
	lh.cursor = cursor;
	lh.mask = size - 1;
	return write(ctx, &lh, sizeof lh);
}

/* The zeros after a lane's ring of SIZE entries, to a whole page. */
static uint64_t lane_pad(uint64_t size)
{
	return TL_LANE_BYTES(size) - TL_HEADER_BYTES - size * TL_ENTRY_BYTES;
}

/* The zeros from the end of a copy's string table (header H) to its first lane. */
static uint64_t lanes_pad(const struct tl_header *h)
{
	return TL_LANES_BASE(h->file_bytes) - h->file_bytes;
}

/* Puts E, entry number N, into slot N & (SIZE - 1) of RING, marked in FILLED. */
static void place(struct tl_raw_entry *ring, uint8_t *filled, uint64_t size, uint64_t n,
		  const tl_entry *e)
{
	uint64_t i = n & (size - 1);
	struct tl_raw_entry *s = &ring[i];
	s->tsc = e->tsc;
	s->msgid = e->msgid;
	s->aux = e->aux;
	s->seq = tl_seq_done(n);
	memcpy(s->args, e->args, sizeof s->args);
	if (filled)
		filled[i / 8] |= (uint8_t)(1u << (i % 8));
}

/* Reads lane L's snapshot into RING of SIZE slots (zeroed; each entry in its
 * slot), counting into *KEPT; *CURSOR gets the copy's cursor for it. Slots
 * of its window left empty carry the busy marker of the entry they would
 * hold: a zero seq would pass as entry n where n + 1 = 0 (mod 2^32).
 * Returns the window: the entries a reader of the copy looks for. */
static uint64_t fill_lane(tl_reader *r, struct tl_lane_rd *l, struct tl_raw_entry *ring,
			  uint8_t *filled, uint64_t size, uint64_t *cursor, uint64_t *kept)
{
	uint64_t last = 0, window;
	tl_entry e;
	memset(ring, 0, size * sizeof *ring);
	memset(filled, 0, size / 8 + 1);
	while (tl_lane_next(r, l, &e)) {
		place(ring, filled, size, e.seq, &e);
		last = e.seq + 1;
		(*kept)++;
	}
	*cursor = last > l->cursor ? last : l->cursor;
	window = *cursor - l->first < r->entries ? *cursor - l->first : r->entries;
	for (uint64_t n = *cursor - window; n < *cursor; n++) {
		uint64_t i = n & (size - 1);
		if (!(filled[i / 8] >> (i % 8) & 1))
			ring[i].seq = tl_seq_busy(n);
	}
	return window;
}

/* Bytes of R's string table in use. */
static uint32_t strings_in_use(const tl_reader *r)
{
	uint64_t used = __atomic_load_n(&r->h->strings_used, __ATOMIC_ACQUIRE);
	return (uint32_t)(used > r->strings_bytes ? r->strings_bytes : used);
}

/* The strings of R in use, into STRINGS (strings_bytes); returns how many. */
static uint32_t take_strings(const tl_reader *r, char *strings)
{
	uint32_t used = strings_in_use(r);
	memcpy(strings, r->strings, used);   /* published strings do not change */
	return used;
}

/* A copy of a log of several lanes: each lane's entries in their slots of
 * rings of one size, big enough for the widest window. */
static int copy_lanes(tl_reader *r, struct tl_header *h, struct tl_raw_entry *ring, uint8_t *filled,
		      char *strings, tl_writer_fn write, void *ctx, uint64_t *kept,
		      uint64_t *dropped)
{
	uint64_t size = 2, cursor, window = 0;
	for (unsigned k = 0; k < r->nlanes; k++) {
		const struct tl_lane_rd *l = &r->lane[k];
		uint64_t w = l->cursor - l->first + 1;   /* the entry at the cursor too */
		if (ring_for(w < r->entries ? w : r->entries) > size)
			size = ring_for(w < r->entries ? w : r->entries);
	}
	*kept = 0;
	window = fill_lane(r, &r->lane[0], ring, filled, size, &cursor, kept);
	h->strings_used = take_strings(r, strings);
	copy_header(h, r, size);
	h->cursor = cursor;
	h->lanes = r->nlanes - 1;
	if (write(ctx, h, sizeof *h) || write(ctx, ring, size * sizeof *ring) ||
	    write(ctx, strings, r->strings_bytes) || write_zeros(write, ctx, lanes_pad(h)))
		return -1;
	for (unsigned k = 1; k < r->nlanes; k++) {
		struct tl_lane_rd *l = &r->lane[k];
		window += fill_lane(r, l, ring, filled, size, &cursor, kept);
		if (write_lane_header(write, ctx, l, l->first, cursor, size) ||
		    write(ctx, ring, size * sizeof *ring) || write_zeros(write, ctx, lane_pad(size)))
			return -1;
	}
	*dropped = window - *kept;
	return 0;
}

/* Our format: the header as it is, the cursor of the snapshot, every entry
 * the reader accepts in its slot, other slots zero (never valid). A log
 * that never wrapped goes into a ring just big enough for the entries up
 * to its cursor, where each keeps its number and slot; a wrapped one into
 * a ring as big as its own. Every lane of a log of several, so. */
static int copy_native(tl_reader *r, tl_writer_fn write, void *ctx, uint64_t *kept,
		       uint64_t *dropped, tl_error *err, const char *name)
{
	struct tl_header h;
	struct tl_raw_entry *ring = calloc(r->entries, sizeof *ring);
	uint8_t *filled = calloc(r->entries / 8 + 1, 1);
	char *strings = calloc(1, r->strings_bytes);
	uint64_t window, size, cursor;
	int rc = TL_OK, bad;

	if (!ring || !strings || !filled) {
		rc = tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", name);
		goto out;
	}
	memcpy(&h, r->map, sizeof h);
	tl_reader_rewind(r);
	if (r->nlanes > 1) {
		bad = copy_lanes(r, &h, ring, filled, strings, write, ctx, kept, dropped);
	} else {
		*kept = 0;
		window = fill_lane(r, &r->lane[0], ring, filled, r->entries, &cursor, kept);
		/* strings after entries: every string an entry names is in the table */
		h.strings_used = take_strings(r, strings);
		h.cursor = cursor;
		/* what a reader of the copy will find missing: its window minus what it holds */
		*dropped = window - *kept;
		size = ring_for(window);   /* below the cursor n & mask is n when it never wrapped */
		copy_header(&h, r, size);
		bad = write(ctx, &h, sizeof h) || write(ctx, ring, size * sizeof *ring) ||
		      write(ctx, strings, r->strings_bytes);
	}
	if (bad)
		rc = tl_fail(err, TL_E_SYS, errno, "%s: cannot write the copy", name);
out:
	free(ring);
	free(filled);
	free(strings);
	return rc;
}

/* The entries KEEP keeps of each lane of R, in time order: a growing array a lane. */
struct kept {
	tl_entry *e;
	uint64_t n, cap;
	uint64_t first;              /* its first number in the copy */
};

static int keep_entry(struct kept *k, const tl_entry *e)
{
	if (k->n == k->cap) {
		tl_entry *g = realloc(k->e, (k->cap = k->cap ? 2 * k->cap : 1024) * sizeof *g);
		if (!g)
			return -1;
		k->e = g;
	}
	k->e[k->n++] = *e;
	return 0;
}

/* Writes a ring of SIZE slots holding K's entries, each numbered from its
 * first in its slot, the others zero; nonzero on failure. */
static int write_kept(tl_writer_fn write, void *ctx, const struct kept *k, uint64_t size)
{
	struct tl_raw_entry *ring = calloc(size, sizeof *ring);
	int bad;
	if (!ring)
		return -1;
	for (uint64_t i = 0; i < k->n; i++)
		place(ring, NULL, size, k->first + i, &k->e[i]);
	bad = write(ctx, ring, size * sizeof *ring);
	free(ring);
	return bad;
}

/* A filtered copy of ours: the entries KEEP keeps, renumbered from 0 for
 * each thread in a ring just big enough (the next power of two, at least
 * 2), each lane's cursor its count; the header says so. */
static int copy_native_if(tl_reader *r, tl_keep_fn keep, void *kctx, tl_writer_fn write,
			  void *ctx, uint64_t *kept, uint64_t *dropped, tl_error *err,
			  const char *name)
{
	struct tl_header h;
	struct kept *k;
	uint64_t size = 2, *count;
	uint32_t used;
	tl_entry e;
	int rc = TL_OK, bad = 0;

	memcpy(&h, r->map, sizeof h);
	tl_reader_rewind(r);
	k = calloc(r->nlanes, sizeof *k);
	count = calloc(r->threads, sizeof *count);
	if (!k || !count) {
		rc = tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", name);
		goto out;
	}
	*kept = 0;
	while (tl_reader_next(r, &e))
		if (keep(kctx, &e)) {
			if (keep_entry(&k[r->last_lane], &e)) {
				rc = tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", name);
				goto out;
			}
			(*kept)++;
		}
	*dropped = tl_reader_skipped(r);
	/* each thread numbers on across its lanes, in their order */
	for (unsigned l = 0; l < r->nlanes; l++) {
		k[l].first = count[r->lane[l].thread];
		count[r->lane[l].thread] += k[l].n;
		if (ring_for(k[l].n) > size)
			size = ring_for(k[l].n);
	}
	used = strings_in_use(r);
	copy_header(&h, r, size);
	h.cursor = k[0].n;
	h.strings_used = used;
	if (r->minor >= 4)
		h.lanes = r->nlanes - 1;
	/* the header, lane 0, the string table, then the other lanes */
	bad = write(ctx, &h, sizeof h) || write_kept(write, ctx, &k[0], size) ||
	      write(ctx, r->strings, used) || write_zeros(write, ctx, h.strings_bytes - used);
	if (r->nlanes > 1)
		bad = bad || write_zeros(write, ctx, lanes_pad(&h));
	for (unsigned l = 1; l < r->nlanes && !bad; l++)
		bad = write_lane_header(write, ctx, &r->lane[l], k[l].first, k[l].first + k[l].n,
					size) ||
		      write_kept(write, ctx, &k[l], size) || write_zeros(write, ctx, lane_pad(size));
	if (bad)
		rc = tl_fail(err, TL_E_SYS, errno, "%s: cannot write the copy", name);
out:
	for (unsigned l = 0; k && l < r->nlanes; l++)
		free(k[l].e);
	free(k);
	free(count);
	return rc;
}

/* Zeroes the timestamp (unused) of every entry of R that KEEP leaves out
 * in the copy B; returns how many, among those the copy still holds. */
static uint64_t leave_out(tl_reader *r, unsigned char *b, tl_keep_fn keep, void *kctx)
{
	uint64_t out = 0;
	tl_entry e;
	tl_reader_rewind(r);
	while (tl_reader_next(r, &e))
		if (!keep(kctx, &e)) {
			unsigned char *s = b + 64 + e.seq * 64;   /* Snabb: seq is the slot */
			int held = s[0] | s[1] | s[2] | s[3] | s[4] | s[5] | s[6] | s[7];
			memset(s, 0, 8);
			out += held != 0;
		}
	return out;
}

/* Snabb's format has no per-entry check: copy the bytes, then drop (zero the
 * timestamp of) every slot that changed while they were copied. */
static int copy_snabb(tl_reader *r, tl_keep_fn keep, void *kctx, tl_writer_fn write, void *ctx,
		      uint64_t *kept, uint64_t *dropped, tl_error *err, const char *name)
{
	uint64_t bytes = 64 + r->entries * 64 + r->strings_bytes;
	unsigned char *b = malloc(bytes);
	int rc = TL_OK;
	if (!b)
		return tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", name);
	memcpy(b, r->map, bytes);
	*kept = *dropped = 0;
	for (uint64_t i = 0; i < r->entries; i++) {
		unsigned char *s = b + 64 + i * 64;
		if (memcmp(s, r->slots + i * 64, 64)) {
			memset(s, 0, 8);
			(*dropped)++;
		} else {
			*kept += tl_snabb_slot_used(r, i);   /* counted as the reader will */
		}
	}
	if (keep)
		*kept -= leave_out(r, b, keep, kctx);
	if (write(ctx, b, bytes))
		rc = tl_fail(err, TL_E_SYS, errno, "%s: cannot write the copy", name);
	free(b);
	return rc;
}

int tl_reader_copy_if(tl_reader *r, tl_keep_fn keep, void *kctx, tl_writer_fn write,
		      void *ctx, uint64_t *kept, uint64_t *dropped, const char *name, tl_error *err)
{
	tl_ok(err);
	if (r->format == TL_FORMAT_SNABB)
		return copy_snabb(r, keep, kctx, write, ctx, kept, dropped, err, name);
	if (keep)
		return copy_native_if(r, keep, kctx, write, ctx, kept, dropped, err, name);
	return copy_native(r, write, ctx, kept, dropped, err, name);
}

int tl_reader_copy(tl_reader *r, tl_writer_fn write, void *ctx, uint64_t *kept,
		   uint64_t *dropped, const char *name, tl_error *err)
{
	return tl_reader_copy_if(r, NULL, NULL, write, ctx, kept, dropped, name, err);
}
