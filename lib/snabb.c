/* snabb.c: reading Snabb's timeline files (format v3: doubles; v2: u64), which
 * have no write cursor: the ring's order comes from the timestamps. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "reader.h"

/* Snabb's 64-byte header. */
struct snabb_header {
	uint64_t magic;          /*  0: TL_SNABB_MAGIC */
	uint16_t major;          /*  8: 3 (2: u64 fields instead of doubles) */
	uint16_t minor;          /* 10: 0 */
	uint32_t log_bytes;      /* 12: entries * 64 */
	uint32_t strings_bytes;  /* 16: string table size */
	uint8_t reserved[44];    /* 20: 0 */
};

/* Snabb's entry: the same 64 bytes as ours, with doubles (v3). */
struct snabb_entry {
	unsigned char tsc[8];    /*  0: f64 (v2: u64) */
	uint16_t msgid;          /*  8: string offset / 16 */
	uint16_t core_numa;      /* 10: cpu bits 0-11, node bits 12-15 */
	uint32_t reserved;       /* 12: 0 */
	unsigned char args[6][8];/* 16: f64 (v2: u64) */
};

_Static_assert(sizeof(struct snabb_header) == 64, "snabb header");
_Static_assert(sizeof(struct snabb_entry) == 64, "snabb entry");

uint64_t tl_snabb_bytes(const unsigned char head[64])
{
	struct snabb_header h;
	memcpy(&h, head, sizeof h);
	return sizeof h + (uint64_t)h.log_bytes + h.strings_bytes;
}

int tl_snabb_open(tl_reader *r, const char *name, tl_error *err)
{
	struct snabb_header h;
	memcpy(&h, r->map, sizeof h);
	if (h.major != 3 && h.major != 2)
		return tl_fail(err, TL_E_VERSION, 0,
			       "%s: Snabb format version %u.%u is not supported (this reader reads 2 and 3)",
			       name, h.major, h.minor);
	if (h.log_bytes < 64 || h.log_bytes % 64)
		return tl_fail(err, TL_E_FORMAT, 0, "%s: damaged Snabb header (log of %u bytes)", name,
			       h.log_bytes);
	if (64 + (uint64_t)h.log_bytes + h.strings_bytes > r->map_bytes)
		return tl_fail(err, TL_E_FORMAT, 0,
			       "%s: truncated: Snabb header says %llu bytes, file has %llu", name,
			       (unsigned long long)(64 + (uint64_t)h.log_bytes + h.strings_bytes),
			       (unsigned long long)r->map_bytes);
	r->format = TL_FORMAT_SNABB;
	r->major = h.major;
	r->minor = h.minor;
	r->slots = r->map + 64;
	r->entries = h.log_bytes / 64;
	r->strings_bytes = h.strings_bytes;
	/* a private copy with a NUL after it: the table may be full to its last byte */
	if (!(r->strings_copy = malloc((size_t)h.strings_bytes + 1)))
		return tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", name);
	memcpy(r->strings_copy, r->map + 64 + h.log_bytes, h.strings_bytes);
	r->strings_copy[h.strings_bytes] = '\0';
	r->strings = r->strings_copy;
	return TL_OK;
}

/* A stored number as u64: v2 stores u64, v3 a double; *IS_DOUBLE is set when
 * a double is not a whole number from 0 to 2^64, and its bits are returned. */
static uint64_t number(const tl_reader *r, const unsigned char *p, int *is_double)
{
	uint64_t u;
	double d;
	memcpy(&u, p, 8);
	*is_double = 0;
	if (r->major == 2)
		return u;
	memcpy(&d, p, 8);
	if (d >= 0 && d < 18446744073709551616.0 && d == (double)(uint64_t)d)
		return (uint64_t)d;   /* a whole number: the cast is exact */
	*is_double = 1;
	return u;
}

static uint64_t slot_tsc(const tl_reader *r, uint64_t i)
{
	int dbl;
	uint64_t t = number(r, r->slots + i * 64, &dbl);
	return dbl ? 0 : t;   /* a negative or broken timestamp counts as unused */
}

int tl_snabb_slot_used(const tl_reader *r, uint64_t i)
{
	return slot_tsc(r, i) != 0;
}

/* Finds the oldest slot: the one after the highest timestamp (the newest);
 * slots with timestamp 0 were never written and are skipped when read.
 * Counts the breaks in time order around the ring: a sound ring, wrapped or
 * not, has one (newest to oldest); each further one is disorder. */
uint64_t tl_snabb_rewind(tl_reader *r)
{
	uint64_t newest = 0, max = 0, used = 0, first = 0, prev = 0, breaks = 0;
	r->left = r->entries;   /* a scan of the whole ring: chunks are mapped whole */
	r->following = 0;
	for (uint64_t i = 0; i < r->entries; i++) {
		uint64_t t;
		tl_reader_release(r, r->slots, i);
		if (!(t = slot_tsc(r, i)))
			continue;
		if (!used++)
			first = t;
		else
			breaks += t < prev;
		prev = t;
		if (t > max) {
			max = t;
			newest = i;
		}
	}
	breaks += used && first < prev;   /* last used slot to first: the wrap */
	r->disorder = breaks > 1 ? breaks - 1 : 0;
	r->oldest = used ? (newest + 1) % r->entries : 0;
	r->used = used;
	r->next = 0;
	r->left = r->entries;
	return used;
}

uint64_t tl_snabb_since(tl_reader *r, uint64_t from)
{
	uint64_t n = r->entries, start = from % n, p = (start + n - 1) % n, prev = 0, count = 0;
	/* from the slot before FROM, the caller's last entry, if there is one:
	 * a caller that finds a newer entry there knows the writer lapped it */
	if (slot_tsc(r, p))
		start = p;
	/* then around the ring while the timestamps go on (equal ones: a
	 * double's rounding); the first that goes back is older than them */
	for (uint64_t s = start; count < n; s = (s + 1) % n) {
		uint64_t t = slot_tsc(r, s);
		if (!t || t < prev)
			break;
		prev = t;
		count++;
	}
	r->following = 1;
	r->oldest = start;
	r->next = 0;
	r->left = count;
	return (start + count) % n;
}

/* Decodes SLOT into *E; 0 when it is unused (timestamp 0). */
static int decode(const tl_reader *r, uint64_t slot, tl_entry *e)
{
	const struct snabb_entry *s = (const void *)(r->slots + slot * 64);
	int dbl;
	if ((e->tsc = slot_tsc(r, slot)) == 0)
		return 0;
	e->seq = slot;
	e->msgid = s->msgid;
	e->aux = s->core_numa;
	e->cpu = e->aux & 0xfff;
	e->numa = e->aux >> 12;
	e->dargs = 0;
	e->thread = 0;
	for (int i = 0; i < TL_MAX_ARGS; i++) {
		e->args[i] = number(r, s->args[i], &dbl);
		e->dargs |= (uint8_t)(dbl << i);
	}
	return 1;
}

int tl_snabb_next(tl_reader *r, tl_entry *e)
{
	while (r->left > 0) {
		uint64_t slot = (r->oldest + r->next) % r->entries;
		if (!r->following)
			tl_reader_release(r, r->slots, slot);
		__atomic_store_n(&r->next, r->next + 1, __ATOMIC_RELAXED);   /* see tl_reader_warm() */
		r->left--;
		if (decode(r, slot, e))
			return 1;
	}
	return 0;
}

int tl_snabb_newest(const tl_reader *r, tl_entry *e)
{
	return r->used && decode(r, (r->oldest + r->entries - 1) % r->entries, e);
}

void tl_snabb_info(const tl_reader *r, tl_info *i)
{
	memset(i, 0, sizeof *i);
	i->format = TL_FORMAT_SNABB;
	i->major = r->major;
	i->minor = r->minor;
	i->entries = r->entries;
	i->cursor = r->used;
	i->used = r->used;
	i->strings_bytes = r->strings_bytes;
	i->strings_used = r->strings_bytes;
	i->rate = 0;
	i->disorder = r->disorder;
}
