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

/* Our format: the header as it is, the cursor of the snapshot, every entry
 * the reader accepts in its slot, other slots zero (never valid). A log
 * that never wrapped goes into a ring just big enough for the entries up
 * to its cursor, where each keeps its number and slot; a wrapped one into
 * a ring as big as its own. */
static int copy_native(tl_reader *r, tl_writer_fn write, void *ctx, uint64_t *kept,
		       uint64_t *dropped, tl_error *err, const char *name)
{
	struct tl_header h;
	struct tl_raw_entry *ring = calloc(r->entries, sizeof *ring);
	uint8_t *filled = calloc(r->entries / 8 + 1, 1);
	char *strings = calloc(1, r->strings_bytes);
	uint64_t used, last = 0, window, size;
	tl_entry e;
	int rc = TL_OK;

	if (!ring || !strings || !filled) {
		rc = tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", name);
		goto out;
	}
	memcpy(&h, r->map, sizeof h);
	tl_reader_rewind(r);
	*kept = 0;
	while (tl_reader_next(r, &e)) {
		uint64_t i = e.seq & r->mask;
		struct tl_raw_entry *s = &ring[i];
		s->tsc = e.tsc;
		s->msgid = e.msgid;
		s->aux = e.aux;
		s->seq = tl_seq_done(e.seq);
		memcpy(s->args, e.args, sizeof s->args);
		filled[i / 8] |= (uint8_t)(1u << (i % 8));
		last = e.seq + 1;
		(*kept)++;
	}
	/* strings after entries: every string an entry names is in the table */
	used = __atomic_load_n(&r->h->strings_used, __ATOMIC_ACQUIRE);
	if (used > r->strings_bytes)
		used = r->strings_bytes;
	memcpy(strings, r->strings, used);   /* published strings do not change */
	h.cursor = last > r->cursor ? last : r->cursor;
	h.strings_used = (uint32_t)used;
	/* slots left empty carry the busy marker of the entry they would hold:
	 * a zero seq would pass as entry n where n + 1 = 0 (mod 2^32) */
	window = h.cursor < r->entries ? h.cursor : r->entries;
	for (uint64_t n = h.cursor - window; n < h.cursor; n++)
		if (!(filled[(n & r->mask) / 8] >> ((n & r->mask) % 8) & 1))
			ring[n & r->mask].seq = tl_seq_busy(n);
	/* what a reader of the copy will find missing: its window minus what it holds */
	*dropped = window - *kept;
	size = ring_for(window);   /* below the cursor n & mask is n when it never wrapped */
	copy_header(&h, r, size);
	if (write(ctx, &h, sizeof h) || write(ctx, ring, size * sizeof *ring) ||
	    write(ctx, strings, r->strings_bytes))
		rc = tl_fail(err, TL_E_SYS, errno, "%s: cannot write the copy", name);
out:
	free(ring);
	free(filled);
	free(strings);
	return rc;
}

/* A filtered copy of ours: the entries KEEP keeps, renumbered from 0 in a
 * ring just big enough (the next power of two, at least 2), cursor their
 * count; the header says so. */
static int write_zeros(tl_writer_fn write, void *ctx, uint64_t n);

static int copy_native_if(tl_reader *r, tl_keep_fn keep, void *kctx, tl_writer_fn write,
			  void *ctx, uint64_t *kept, uint64_t *dropped, tl_error *err,
			  const char *name)
{
	struct tl_header h;
	struct tl_raw_entry *ring = NULL;
	uint64_t n = 0, cap = 0, size, used;
	tl_entry e;
	int rc = TL_OK;

	memcpy(&h, r->map, sizeof h);
	tl_reader_rewind(r);
	while (tl_reader_next(r, &e)) {
		struct tl_raw_entry *s;
		if (!keep(kctx, &e))
			continue;
		if (n == cap) {
			struct tl_raw_entry *g = realloc(ring, (cap = cap ? 2 * cap : 1024) * sizeof *ring);
			if (!g) {
				free(ring);
				return tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", name);
			}
			ring = g;
		}
		s = &ring[n];
		memset(s, 0, sizeof *s);
		s->tsc = e.tsc;
		s->msgid = e.msgid;
		s->aux = e.aux;
		s->seq = tl_seq_done(n);
		memcpy(s->args, e.args, sizeof s->args);
		n++;
	}
	*kept = n;
	*dropped = tl_reader_skipped(r);
	size = ring_for(n);
	used = __atomic_load_n(&r->h->strings_used, __ATOMIC_ACQUIRE);
	if (used > r->strings_bytes)
		used = r->strings_bytes;
	copy_header(&h, r, size);
	h.cursor = n;
	h.strings_used = (uint32_t)used;
	if (write(ctx, &h, sizeof h) || (n && write(ctx, ring, n * sizeof *ring)))
		rc = tl_fail(err, TL_E_SYS, errno, "%s: cannot write the copy", name);
	free(ring);
	/* the slots past the entries, zero, then the string table */
	if (rc == TL_OK && (write_zeros(write, ctx, (size - n) * sizeof *ring) ||
			    write(ctx, r->strings, used) ||
			    write_zeros(write, ctx, h.strings_bytes - used)))
		rc = tl_fail(err, TL_E_SYS, errno, "%s: cannot write the copy", name);
	return rc;
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
