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
	uint64_t used = __atomic_load_n(&r->h->strings_used, __ATOMIC_ACQUIRE), last = 0, n;
	char *strings = calloc(1, r->strings_bytes);
	tl_entry e;
	int rc = TL_OK;

	if (!ring || !strings) {
		free(ring);
		free(strings);
		return tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", name);
	}
	if (used > r->strings_bytes)
		used = r->strings_bytes;
	memcpy(strings, r->strings, used);   /* published strings do not change */
	memcpy(&h, r->map, sizeof h);
	n = tl_reader_rewind(r);
	*kept = 0;
	while (tl_reader_next(r, &e)) {
		struct tl_raw_entry *s = &ring[e.seq & r->mask];
		s->tsc = e.tsc;
		s->msgid = e.msgid;
		s->aux = e.aux;
		s->seq = tl_seq_done(e.seq);
		memcpy(s->args, e.args, sizeof s->args);
		last = e.seq + 1;
		(*kept)++;
	}
	h.cursor = last > r->cursor ? last : r->cursor;
	/* what a reader of the copy will find missing: its window minus what it holds */
	*dropped = (h.cursor < r->entries ? h.cursor : r->entries) - *kept;
	h.strings_used = (uint32_t)used;
	(void)n;
	if (write(ctx, &h, sizeof h) || write(ctx, ring, r->entries * sizeof *ring) ||
	    write(ctx, strings, r->strings_bytes))
		rc = tl_fail(err, TL_E_SYS, errno, "%s: cannot write the copy", name);
	free(ring);
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
		uint64_t t;
		if (memcmp(s, r->slots + i * 64, 64)) {
			memset(s, 0, 8);
			(*dropped)++;
		}
		memcpy(&t, s, 8);
		*kept += t != 0;
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
