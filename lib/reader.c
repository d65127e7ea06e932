/* reader.c: opening any log for reading, and reading a native log, live or
 * after a crash: header checks against the file size, the seqlock-style
 * entry check, oldest-first order. Snabb's format is in lib/snabb.c. */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "error.h"
#include "format.h"
#include "reader.h"

/* tl_entry as python/timeline/_lib.py (ENTRY) reads it from tl_reader_read() */
_Static_assert(sizeof(tl_entry) == 80 && __builtin_offsetof(tl_entry, thread) == 28 &&
	       __builtin_offsetof(tl_entry, args) == 32, "tl_entry: python's ENTRY dtype");



#define LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22   /* <linux/mman.h>, Linux 5.14 */
#endif

/* Checks every size and offset of header H against FILE_BYTES. */
static int check_header(const struct tl_header *h, uint64_t file_bytes, const char *path,
			tl_error *err)
{
	uint64_t n = h->entries;
	if (h->magic != TL_MAGIC_0)
		return tl_fail(err, TL_E_FORMAT, 0, "%s: not a timeline log (bad magic)", path);
	if (h->major != TL_MAJOR)
		return tl_fail(err, TL_E_VERSION, 0,
			       "%s: format version %u.%u is not supported (this reader reads %u.x)",
			       path, h->major, h->minor, TL_MAJOR);
	if (h->header_bytes != TL_HEADER_BYTES || h->entry_bytes != TL_ENTRY_BYTES ||
	    h->ring_offset != TL_HEADER_BYTES)
		return tl_fail(err, TL_E_FORMAT, 0, "%s: damaged header (header or entry size)", path);
	if (n < 2 || n > (1ull << 31) || (n & (n - 1)) || h->mask != n - 1)
		return tl_fail(err, TL_E_FORMAT, 0, "%s: damaged header (ring of %llu entries)", path,
			       (unsigned long long)n);
	if (h->strings_offset != TL_HEADER_BYTES + n * TL_ENTRY_BYTES ||
	    h->strings_bytes > TL_MAX_STRINGS || h->strings_bytes % 16 ||
	    h->file_bytes != h->strings_offset + h->strings_bytes)
		return tl_fail(err, TL_E_FORMAT, 0, "%s: damaged header (section offsets)", path);
	if (h->file_bytes > file_bytes)
		return tl_fail(err, TL_E_FORMAT, 0,
			       "%s: truncated: header says %llu bytes, file has %llu", path,
			       (unsigned long long)h->file_bytes, (unsigned long long)file_bytes);
	return TL_OK;
}

/* Maps the regular file open at FD read-only; fills *BYTES and the file's
 * *DEV and *INO. Returns the mapping or NULL. */
static void *map_fd(int fd, const char *name, uint64_t *bytes, uint64_t *dev, uint64_t *ino,
		    tl_error *err)
{
	struct stat st;
	void *p;
	if (fstat(fd, &st) != 0) {
		tl_fail(err, TL_E_SYS, errno, "%s", name);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		tl_fail(err, TL_E_FORMAT, 0, "%s: not a regular file", name);
		return NULL;
	}
	if ((uint64_t)st.st_size < 64) {
		tl_fail(err, TL_E_FORMAT, 0, "%s: not a timeline log (%llu bytes, shorter than a header)",
			name, (unsigned long long)st.st_size);
		return NULL;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		tl_fail(err, TL_E_SYS, errno, "%s: cannot map", name);
		return NULL;
	}
	*bytes = (uint64_t)st.st_size;
	*dev = (uint64_t)st.st_dev;
	*ino = (uint64_t)st.st_ino;
	return p;
}

/* Checks a native header against the mapping in R and fills R. */
static int native_open(tl_reader *r, const char *name, tl_error *err)
{
	struct tl_header copy;   /* checked and used: a writer cannot change it after */
	if (r->map_bytes < TL_HEADER_BYTES)
		return tl_fail(err, TL_E_FORMAT, 0,
			       "%s: not a timeline log (%llu bytes, shorter than a header)", name,
			       (unsigned long long)r->map_bytes);
	memcpy(&copy, r->map, sizeof copy);
	if (check_header(&copy, r->map_bytes, name, err) != TL_OK)
		return err ? err->code : TL_E_FORMAT;
	r->format = TL_FORMAT_NATIVE;
	r->h = (const struct tl_header *)r->map;
	r->major = copy.major;
	r->minor = copy.minor;
	r->ring = (const struct tl_raw_entry *)(r->map + TL_HEADER_BYTES);
	r->entries = copy.entries;
	r->mask = r->entries - 1;
	r->strings_bytes = copy.strings_bytes;
	r->strings = (const char *)r->map + TL_HEADER_BYTES + r->entries * TL_ENTRY_BYTES;
	return tl_lanes_take(r, &copy, name, err);
}

/* The bytes the lanes after the string table take, by the first 64 bytes
 * HEAD of a native header (format 1.4; 0 before, and when the header's
 * numbers are out of range: the reader then says what is wrong). */
static uint64_t lanes_bytes(const unsigned char head[64])
{
	uint64_t entries, file_bytes;
	uint32_t lanes;
	uint16_t minor;
	memcpy(&minor, head + offsetof(struct tl_header, minor), sizeof minor);
	memcpy(&lanes, head + offsetof(struct tl_header, lanes), sizeof lanes);
	memcpy(&entries, head + offsetof(struct tl_header, entries), sizeof entries);
	memcpy(&file_bytes, head + offsetof(struct tl_header, file_bytes), sizeof file_bytes);
	if (minor < 4 || !lanes || lanes > TL_LANES_MAX || entries > (1ull << 31) ||
	    file_bytes > TL_MAX_DECOMPRESSED)
		return 0;
	return TL_LANES_BASE(file_bytes) - file_bytes + lanes * TL_LANE_BYTES(entries);
}

uint64_t tl_announced_bytes(const unsigned char head[64])
{
	uint64_t magic, bytes;
	memcpy(&magic, head, sizeof magic);
	if (magic == TL_SNABB_MAGIC)
		return tl_snabb_bytes(head);
	if (magic != TL_MAGIC_0)
		return 0;
	memcpy(&bytes, head + offsetof(struct tl_header, file_bytes), sizeof bytes);
	return bytes + lanes_bytes(head);
}

int tl_probe(int fd)
{
	unsigned char b[8];
	uint64_t magic;
	uint32_t z;
	ssize_t got = pread(fd, b, sizeof b, 0);
	int inner;
	if (got < 4)
		return 0;
	memcpy(&z, b, sizeof z);
	if (got == 8) {
		memcpy(&magic, b, sizeof magic);
		if (magic == TL_SNABB_MAGIC)
			return TL_FORMAT_SNABB;
		if (magic == TL_MAGIC_0)
			return TL_FORMAT_NATIVE;
	}
	if (z != TL_ZSTD_MAGIC)
		return 0;
	if ((inner = tl_unzstd_probe(fd)) < 0)
		return TL_FORMAT_ZSTD;   /* damaged or cut: opening it says why */
	return inner ? TL_FORMAT_ZSTD | inner : 0;
}

/* The path of the file open at FD, as the kernel has it, to map the lanes a
 * live writer publishes later from (lib/lanes.c, which checks that it is
 * still the same file); NULL when there is none (a file removed). */
static char *path_of(int fd)
{
	char link[64], buf[PATH_MAX];
	ssize_t n;
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	n = readlink(link, buf, sizeof buf - 1);
	if (n <= 0 || buf[0] != '/')
		return NULL;
	buf[n] = '\0';
	return strdup(buf);
}

/* Maps FD (a log, not compressed) and checks its header. */
static tl_reader *open_plain(int fd, const char *name, tl_error *err)
{
	tl_reader *r = calloc(1, sizeof *r);
	uint64_t magic;
	int rc;

	if (!r) {
		tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", name);
		return NULL;
	}
	if (!(r->map = map_fd(fd, name, &r->map_bytes, &r->dev, &r->ino, err))) {
		free(r);
		return NULL;
	}
	memcpy(&magic, r->map, sizeof magic);
	rc = magic == TL_SNABB_MAGIC ? tl_snabb_open(r, name, err) : native_open(r, name, err);
	if (rc != TL_OK) {
		tl_reader_close(r);
		return NULL;
	}
	if (r->format == TL_FORMAT_NATIVE && r->minor >= 4)
		r->reopen = path_of(fd);
	tl_reader_rewind(r);
	return r;
}

tl_reader *tl_reader_open_fd(int fd, const char *name, tl_error *err)
{
	unsigned char b[4];
	uint32_t z = 0;
	tl_reader *r;
	int tmp;

	tl_ok(err);
	if (pread(fd, b, sizeof b, 0) == (ssize_t)sizeof b)
		memcpy(&z, b, sizeof z);
	if (z != TL_ZSTD_MAGIC)
		return open_plain(fd, name, err);
	if ((tmp = tl_unzstd(fd, name, err)) < 0)
		return NULL;
	r = open_plain(tmp, name, err);
	close(tmp);
	if (r)
		r->compressed = 1;
	return r;
}

tl_reader *tl_reader_open(const char *path, tl_error *err)
{
	tl_reader *r;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		tl_ok(err);
		tl_fail(err, TL_E_SYS, errno, "%s", path);
		return NULL;
	}
	r = tl_reader_open_fd(fd, path, err);
	close(fd);
	return r;
}

void tl_reader_close(tl_reader *r)
{
	if (r) {
		tl_lanes_free(r);
		if (r->map)
			munmap((void *)r->map, r->map_bytes);
		free(r->reopen);
		free(r->strings_copy);
		tl_defs_free(r->defs);
		free(r);
	}
}

void tl_lane_rewind(tl_reader *r, struct tl_lane_rd *l)
{
	uint64_t c = __atomic_load_n(l->cursor_p, __ATOMIC_ACQUIRE);
	int damaged = c < l->first;   /* a lane of no entry, not even at its cursor */
	if (damaged)
		c = l->first;
	l->cursor = c;
	l->next = c - l->first > r->entries ? c - r->entries : l->first;
	l->left = damaged ? 0 : c - l->next + 1;  /* entry c too, if complete: written,
						   * cursor not yet moved */
	l->skipped = 0;
	l->first_read = 0;
	l->has_head = 0;
}

uint64_t tl_reader_rewind(tl_reader *r)
{
	uint64_t n = 0;
	if (r->format == TL_FORMAT_SNABB)
		return tl_snabb_rewind(r);
	tl_lanes_refresh(r);
	r->following = 0;
	for (unsigned k = 0; k < r->nlanes; k++) {
		tl_lane_rewind(r, &r->lane[k]);
		n += r->lane[k].cursor - r->lane[k].next;
	}
	return n;
}

void tl_lane_since(tl_reader *r, struct tl_lane_rd *l, uint64_t from, uint64_t *lost)
{
	uint64_t c = __atomic_load_n(l->cursor_p, __ATOMIC_ACQUIRE), start;
	if (c < l->first)
		c = l->first;
	start = c - l->first > r->entries ? c - r->entries : l->first;
	l->skipped = 0;
	l->first_read = 0;
	l->has_head = 0;
	l->cursor = c;
	if (from < l->first)
		from = l->first;   /* numbers below are an earlier lane's of the thread */
	if (from > c) {
		l->left = 0;
		return;
	}
	if (from < start) {
		*lost += start - from;
		from = start;
	}
	l->next = from;
	l->left = c - from;   /* below the cursor: the entry at it is the next call's */
}

uint64_t tl_reader_since(tl_reader *r, uint64_t from, uint64_t *lost)
{
	uint64_t c;
	if (lost)
		*lost = 0;
	if (r->format == TL_FORMAT_SNABB)
		return tl_snabb_since(r, from);
	if (r->nlanes > 1 || r->minor >= 4)
		tl_lanes_refresh(r);
	/* a follower reads a little at a time, where it left off or at the
	 * newest: giving chunks back (MADV_DONTNEED) at each look costs more
	 * than reading what is new, so it keeps the ring mapped */
	r->following = 1;
	if (r->nlanes > 1)
		return tl_reader_since_threads(r, &from, 1, lost);
	{
		uint64_t dummy = 0;
		tl_lane_since(r, &r->lane[0], from, lost ? lost : &dummy);
	}
	c = r->lane[0].cursor;
	return from > c ? from : c;
}

/* Applies madvise ADVICE to chunk K of RING (clamped to the ring), rounded
 * to whole pages: INWARD for advice that must not touch a neighbour's pages,
 * else outward. */
static void advise_chunk(const tl_reader *r, const unsigned char *ring, uint64_t k, int inward,
			 int advice)
{
	static long page;
	uintptr_t start = (uintptr_t)(ring + k * TL_CHUNK_ENTRIES * 64);
	uintptr_t end = (uintptr_t)(ring + (k + 1) * TL_CHUNK_ENTRIES * 64), mask;
	if (!page)
		page = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;
	mask = ~(uintptr_t)(page - 1);
	if (end > (uintptr_t)(ring + r->entries * 64))
		end = (uintptr_t)(ring + r->entries * 64);
	start = inward ? (start + (uintptr_t)page - 1) & mask : start & mask;
	if (inward)
		end &= mask;
	if (end > start)
		madvise((void *)start, end - start, advice);
}

/* Drops the pages of chunk *CHUNK of RING and maps those of SLOT's chunk,
 * when SLOT starts a new one; LEFT entries are left to read. */
static void release(tl_reader *r, const unsigned char *ring, uint64_t *chunk, uint64_t slot,
		    uint64_t left)
{
	uint64_t k = slot / TL_CHUNK_ENTRIES;
	if (k == *chunk)
		return;
	advise_chunk(r, ring, *chunk, 1, MADV_DONTNEED);
	*chunk = k;
	/* map the new chunk's pages in one call rather than a fault per page
	 * (Linux 5.14 on; older kernels say EINVAL and fault as before), when
	 * the read goes on through much of it: a follower reading what is new
	 * since its last look takes a fault per page it reads instead */
	if (left >= TL_CHUNK_ENTRIES / 2)
		advise_chunk(r, ring, k, 0, MADV_POPULATE_READ);
}

void tl_reader_release(tl_reader *r, const unsigned char *ring, uint64_t slot)
{
	release(r, ring, &r->chunk, slot, r->left);
}

/* Copies entry number N of lane L into *E if its slot holds it complete
 * and unchanged. */
static inline __attribute__((always_inline)) int read_entry(const tl_reader *r,
							      const struct tl_lane_rd *l, uint64_t n,
							      tl_entry *e)
{
	const struct tl_raw_entry *s = &l->ring[n & r->mask];
	uint32_t want = tl_seq_done(n);
	if (__atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) != want)
		return 0;
	e->seq = n;
	e->tsc = LOAD(&s->tsc);
	e->msgid = LOAD(&s->msgid);
	e->aux = LOAD(&s->aux);
	/* written out: GCC keeps a loop of atomic loads a loop */
	e->args[0] = LOAD(&s->args[0]);
	e->args[1] = LOAD(&s->args[1]);
	e->args[2] = LOAD(&s->args[2]);
	e->args[3] = LOAD(&s->args[3]);
	e->args[4] = LOAD(&s->args[4]);
	e->args[5] = LOAD(&s->args[5]);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (LOAD(&s->seq) != want)
		return 0;
	/* Entry 2^32 - 1 is marked 0, like a slot never written: possible only
	 * after a wrap, unless the cursor lies. An all-zero slot is not an entry. */
	if (!want && !(e->tsc | e->msgid | e->aux | e->args[0] | e->args[1] | e->args[2] |
		       e->args[3] | e->args[4] | e->args[5]))
		return 0;
	e->cpu = e->aux & 0xfff;
	e->numa = e->aux >> 12;
	e->dargs = 0;
	e->thread = l->thread;
	return 1;
}

/* The newest complete entry of lane L's snapshot into *E: 1, or 0. */
static int lane_newest(const tl_reader *r, const struct tl_lane_rd *l, tl_entry *e)
{
	uint64_t start = l->cursor - l->first > r->entries ? l->cursor - r->entries : l->first;
	/* entry cursor if it is complete (stored, cursor not yet moved), else
	 * the one below it that reads complete */
	for (uint64_t n = l->cursor + 1; n-- > start;)
		if (read_entry(r, l, n, e))
			return 1;
	return 0;
}

int tl_reader_newest(const tl_reader *r, tl_entry *e)
{
	int got = 0;
	if (r->format == TL_FORMAT_SNABB)
		return tl_snabb_newest(r, e);
	for (unsigned k = 0; k < r->nlanes; k++) {
		tl_entry x;
		if (lane_newest(r, &r->lane[k], &x) && (!got || x.tsc > e->tsc)) {
			*e = x;
			got = 1;
		}
	}
	return got;
}

int tl_lane_next(tl_reader *r, struct tl_lane_rd *l, tl_entry *e)
{
	while (l->left > 0) {
		uint64_t n = l->next;
		__atomic_store_n(&l->next, n + 1, __ATOMIC_RELAXED);   /* tl_reader_warm() reads it */
		l->left--;
		if ((n & r->mask) / TL_CHUNK_ENTRIES != l->chunk && !r->following)
			release(r, (const unsigned char *)l->ring, &l->chunk, n & r->mask, l->left);
		/* ahead of the hardware prefetcher, which loses track of many files */
		__builtin_prefetch(&l->ring[(n + 16) & r->mask]);
		/* entry c shares its slot with c - entries: never return both */
		if (n == l->cursor && l->cursor - l->first >= r->entries && l->first_read)
			return 0;
		if (read_entry(r, l, n, e)) {
			if (l->cursor - l->first >= r->entries && n == l->cursor - r->entries)
				l->first_read = 1;
			return 1;
		}
		/* past the cursor only a busy marker counts: a write cut off or under way */
		if (n < l->cursor || LOAD(&l->ring[n & r->mask].seq) == tl_seq_busy(n))
			l->skipped++;
	}
	return 0;
}

int tl_reader_next(tl_reader *r, tl_entry *e)
{
	if (r->format == TL_FORMAT_SNABB)
		return tl_snabb_next(r, e);
	if (r->nlanes == 1)
		return tl_lane_next(r, &r->lane[0], e);
	return tl_lanes_next(r, e);
}

/* Touches lane L's entries from FROM to END (entry numbers) and beyond its snapshot no further. */
static void warm_lane(const tl_reader *r, const struct tl_lane_rd *l, uint64_t from, uint64_t end)
{
	unsigned char sink = 0;
	if (end > l->cursor + 1)
		end = l->cursor + 1;
	for (uint64_t k = from; k < end; k++)
		sink ^= *(volatile const unsigned char *)&l->ring[k & r->mask];
	(void)sink;
}

uint64_t tl_reader_warm(const tl_reader *r, uint64_t from, uint64_t ahead)
{
	uint64_t pos = 0, end, last;
	if (r->format == TL_FORMAT_SNABB) {
		unsigned char sink = 0;
		pos = __atomic_load_n(&r->next, __ATOMIC_RELAXED);
		end = pos + ahead > r->entries ? r->entries : pos + ahead;
		from = from < pos ? pos : from;
		for (uint64_t k = from; k < end; k++)
			sink ^= *(volatile const unsigned char *)(r->slots + (r->oldest + k) % r->entries * 64);
		(void)sink;
		return end > from ? end : from;
	}
	if (r->nlanes == 1) {
		const struct tl_lane_rd *l = &r->lane[0];
		pos = __atomic_load_n(&l->next, __ATOMIC_RELAXED);
		last = l->cursor + 1;   /* the snapshot's end: the entry at the cursor */
		end = pos + ahead > last ? last : pos + ahead;
		from = from < pos ? pos : from;
		warm_lane(r, l, from, end);
		return end > from ? end : from;
	}
	/* several lanes, read by time: each its share ahead of where it is;
	 * the position is the entries taken from them all */
	for (unsigned k = 0; k < r->nlanes; k++)
		pos += __atomic_load_n(&r->lane[k].next, __ATOMIC_RELAXED) - r->lane[k].first;
	for (unsigned k = 0; k < r->nlanes; k++) {
		uint64_t at = __atomic_load_n(&r->lane[k].next, __ATOMIC_RELAXED);
		warm_lane(r, &r->lane[k], at, at + ahead / r->nlanes + 1);
	}
	end = pos + ahead;
	return end > from ? end : from;
}

uint64_t tl_reader_skipped(const tl_reader *r)
{
	uint64_t n = 0;
	if (r->format == TL_FORMAT_SNABB)
		return 0;   /* no seq to tell a torn slot by */
	for (unsigned k = 0; k < r->nlanes; k++)
		n += r->lane[k].skipped;
	return n;
}

/* Bytes of the string table in use: all of Snabb's, strings_used of ours. */
static uint64_t strings_used(const tl_reader *r)
{
	uint64_t used;
	if (r->format == TL_FORMAT_SNABB)
		return r->strings_bytes;
	used = __atomic_load_n(&r->h->strings_used, __ATOMIC_ACQUIRE);
	return used > r->strings_bytes ? r->strings_bytes : used;
}

const char *tl_reader_string(const tl_reader *r, uint16_t msgid)
{
	uint64_t off = (uint64_t)msgid * 16;
	uint64_t used = strings_used(r);
	if (off >= used || (off > 0 && r->strings[off - 1] != '\0'))
		return NULL;
	if (r->strings[off] == '\0' || !memchr(r->strings + off, '\0', used - off + (r->strings_copy != NULL)))
		return NULL;
	return r->strings + off;
}

size_t tl_reader_definitions(const tl_reader *r, uint16_t *ids, size_t max)
{
	uint64_t used = strings_used(r), off = 0;
	size_t n = 0;
	while (off < used) {
		size_t len = strnlen(r->strings + off, used - off);
		if (len == 0) {
			off += 16;
			continue;
		}
		if (len == used - off && r->strings_copy == NULL)
			break;   /* no NUL before the end of the used table: not a string */
		if (n < max)
			ids[n] = (uint16_t)(off / 16);
		n++;
		off += (len + 16) & ~(uint64_t)15;
	}
	return n;
}

void tl_reader_info(const tl_reader *r, tl_info *i)
{
	const struct tl_header *h = r->h;
	if (r->format == TL_FORMAT_SNABB) {
		tl_snabb_info(r, i);
		i->compressed = r->compressed;
		i->threads = 1;
		return;
	}
	memset(i, 0, sizeof *i);
	i->compressed = r->compressed;
	i->format = TL_FORMAT_NATIVE;
	i->major = h->major;
	i->minor = h->minor;
	i->entries = r->entries;
	/* every lane's: entries written, held, breaths */
	for (unsigned k = 0; k < r->nlanes; k++) {
		const struct tl_lane_rd *l = &r->lane[k];
		uint64_t c = __atomic_load_n(l->cursor_p, __ATOMIC_ACQUIRE);
		uint64_t w = c > l->first ? c - l->first : 0;
		i->cursor += w;
		i->used += w < r->entries ? w : r->entries;
		if (l->lh)
			i->breaths += LOAD(&l->lh->breaths);
	}
	i->threads = r->threads;
	if (r->minor >= 4)
		i->threads_refused = LOAD(&h->lanes_refused);
	i->strings_bytes = r->strings_bytes;
	i->strings_used = LOAD(&h->strings_used);
	if (i->strings_used > r->strings_bytes)
		i->strings_used = r->strings_bytes;
	i->tsc_hz = h->tsc_hz;
	i->anchor_tsc = h->anchor_tsc;
	i->anchor_realtime_ns = h->anchor_realtime;
	i->anchor_monotonic_ns = h->anchor_monotonic;
	i->breaths += LOAD(&h->breaths);
	i->rate = LOAD(&h->rate);
	i->rate_fixed = LOAD(&h->rate_fixed);
	i->clock = h->clock;
	i->cpu_features = h->cpu_features;
	i->pid = h->pid;
	if (r->minor >= 1) {   /* reserved, zero, in minor 0 */
		i->start_ticks = h->start_ticks;
		i->copy_of = h->copy_of;
	}
	if (r->minor >= 2) {   /* reserved, zero, before minor 2 */
		i->switched_off = tl_reader_switches_off(r);
		i->switch_gen = LOAD(&h->switch_gen);
		i->switch_seen = LOAD(&h->switch_seen);
	}
	memcpy(i->process, h->process, sizeof i->process - 1);
	memcpy(i->host, h->host, sizeof i->host - 1);
	memcpy(i->name, h->name, sizeof i->name - 1);
	/* the path's bytes: 1024 before minor 5, then 768 and the flight recorder */
	memcpy(i->path, h->path, r->minor >= 5 ? sizeof h->path - 1 : sizeof i->path - 1);
	i->armed = r->minor >= 5 ? LOAD(&h->armed) : 0;
}
