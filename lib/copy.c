/* copy.c: a consistent copy of a log that may be written while it is read:
 * only entries that pass the reader's check go in, the rest are counted. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "reader.h"

/* Our format: the header as it is, the cursor of the snapshot, every entry
 * the reader accepts in its slot, other slots zero (never valid). */
static int copy_native(tl_reader *r, tl_writer_fn write, void *ctx, uint64_t *kept,
		       uint64_t *dropped, tl_error *err, const char *name)
{
	struct tl_header h;
	struct tl_raw_entry *ring = calloc(r->entries, sizeof *ring);
	uint8_t *filled = calloc(r->entries / 8 + 1, 1);
	char *strings = calloc(1, r->strings_bytes);
	uint64_t used, last = 0, window;
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
	if (write(ctx, &h, sizeof h) || write(ctx, ring, r->entries * sizeof *ring) ||
	    write(ctx, strings, r->strings_bytes))
		rc = tl_fail(err, TL_E_SYS, errno, "%s: cannot write the copy", name);
out:
	free(ring);
	free(filled);
	free(strings);
	return rc;
}

/* Snabb's format has no per-entry check: copy the bytes, then drop (zero the
 * timestamp of) every slot that changed while they were copied. */
static int copy_snabb(tl_reader *r, tl_writer_fn write, void *ctx, uint64_t *kept,
		      uint64_t *dropped, tl_error *err, const char *name)
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
	if (write(ctx, b, bytes))
		rc = tl_fail(err, TL_E_SYS, errno, "%s: cannot write the copy", name);
	free(b);
	return rc;
}

int tl_reader_copy(tl_reader *r, tl_writer_fn write, void *ctx, uint64_t *kept,
		   uint64_t *dropped, const char *name, tl_error *err)
{
	tl_ok(err);
	if (r->format == TL_FORMAT_SNABB)
		return copy_snabb(r, write, ctx, kept, dropped, err, name);
	return copy_native(r, write, ctx, kept, dropped, err, name);
}
