/* lanes.c: the reader's side of a log that several threads write (format
 * minor 4): each lane checked against the file before it is read, lanes
 * published after open mapped as they come, their entries merged by time,
 * and what the log says of each thread. lib/reader.c reads a lane. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "error.h"
#include "reader.h"

/* Lane 0, the header's ring. */
static void take_lane0(tl_reader *r)
{
	struct tl_lane_rd *l = &r->lane0;
	memset(l, 0, sizeof *l);
	l->ring = r->ring;
	l->cursor_p = &r->h->cursor;
	r->lane = l;
	r->nlanes = 1;
	r->threads = 1;
}

/* Checks lane K's header at LH (a mapping of its lane_bytes) against R:
 * TL_OK, or TL_E_FORMAT with ERR "NAME: damaged lane K (what)". */
static int check_lane(const tl_reader *r, const struct tl_lane *lh, unsigned k, const char *name,
		      tl_error *err)
{
	struct tl_lane c;
	const char *what = NULL;
	memcpy(&c, lh, 128);   /* line 0, and the mask: written before it was published */
	if (c.magic != TL_LANE_MAGIC)
		what = "bad magic";
	else if (c.index != k)
		what = "lane number";
	else if (c.mask != r->mask)
		what = "ring size";
	else if (c.thread > k || c.thread > r->threads)   /* indices are given in turn */
		what = "thread";
	else if (c.first > (1ull << 62))
		what = "first entry";
	if (what)
		return tl_fail(err, TL_E_FORMAT, 0, "%s: damaged lane %u (%s)", name, k, what);
	return TL_OK;
}

/* Room in R's array for N lanes; 0, or -1 when out of memory. */
static int room(tl_reader *r, unsigned n)
{
	struct tl_lane_rd *a;
	if (r->lane != &r->lane0) {
		if (!(a = realloc(r->lane, n * sizeof *a)))
			return -1;
	} else {
		if (!(a = malloc(n * sizeof *a)))
			return -1;
		a[0] = r->lane0;
	}
	r->lane = a;
	return 0;
}

/* Appends lane K, whose header is at LH (checked), to R's lanes; MAP is its
 * own mapping, or NULL inside R's. */
static void add_lane(tl_reader *r, const struct tl_lane *lh, unsigned k, void *map)
{
	struct tl_lane_rd *l = &r->lane[k];
	memset(l, 0, sizeof *l);
	l->lh = lh;
	l->ring = (const struct tl_raw_entry *)((const char *)lh + TL_HEADER_BYTES);
	l->cursor_p = &lh->cursor;
	l->first = lh->first;
	l->thread = lh->thread;
	l->map = map;
	if (l->thread + 1 > r->threads)
		r->threads = l->thread + 1;
	r->nlanes = k + 1;
}

int tl_lanes_take(tl_reader *r, const struct tl_header *head, const char *name, tl_error *err)
{
	uint64_t end;
	take_lane0(r);
	if (head->minor < 4 || !head->lanes)
		return TL_OK;
	r->lanes_base = TL_LANES_BASE(head->file_bytes);
	r->lane_bytes = TL_LANE_BYTES(r->entries);
	if (head->lanes > TL_LANES_MAX)
		return tl_fail(err, TL_E_FORMAT, 0, "%s: damaged header (%u lanes)", name, head->lanes);
	end = r->lanes_base + head->lanes * r->lane_bytes;
	if (end > r->map_bytes)
		return tl_fail(err, TL_E_FORMAT, 0,
			       "%s: truncated: header says %u lane%s, %llu bytes, file has %llu", name,
			       head->lanes, head->lanes == 1 ? "" : "s", (unsigned long long)end,
			       (unsigned long long)r->map_bytes);
	if (room(r, head->lanes + 1))
		return tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", name);
	for (unsigned k = 1; k <= head->lanes; k++) {
		const struct tl_lane *lh = (const void *)(r->map + r->lanes_base +
							   (k - 1) * r->lane_bytes);
		int rc = check_lane(r, lh, k, name, err);
		if (rc != TL_OK)
			return rc;
		add_lane(r, lh, k, NULL);
	}
	return TL_OK;
}

/* Maps lane K of the file open at FD (SIZE bytes), checked; NULL when it
 * is not there or not sound. */
static void *map_lane(tl_reader *r, int fd, uint64_t size, unsigned k)
{
	uint64_t off = r->lanes_base + (k - 1) * r->lane_bytes;
	void *p;
	if (off + r->lane_bytes > size)
		return NULL;
	p = mmap(NULL, r->lane_bytes, PROT_READ, MAP_SHARED, fd, (off_t)off);
	if (p == MAP_FAILED)
		return NULL;
	if (check_lane(r, p, k, "", NULL) != TL_OK) {
		munmap(p, r->lane_bytes);
		return NULL;
	}
	return p;
}

/* Lanes K .. N, published after R was opened and past its mapping, mapped
 * from its file again (the same one: device and inode), as far as they go. */
static void map_new(tl_reader *r, unsigned k, unsigned n)
{
	struct stat st;
	int fd;
	if (!r->reopen || (fd = open(r->reopen, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return;
	if (fstat(fd, &st) == 0 && (uint64_t)st.st_dev == r->dev && (uint64_t)st.st_ino == r->ino)
		for (; k <= n; k++) {
			void *p = map_lane(r, fd, (uint64_t)st.st_size, k);
			if (!p)
				break;
			add_lane(r, p, k, p);
		}
	close(fd);
}

void tl_lanes_refresh(tl_reader *r)
{
	unsigned n, k = r->nlanes;
	if (r->format != TL_FORMAT_NATIVE || r->minor < 4)
		return;
	n = __atomic_load_n(&r->h->lanes, __ATOMIC_ACQUIRE);
	if (n > TL_LANES_MAX)
		n = TL_LANES_MAX;
	if (n < k || room(r, n + 1))
		return;
	if (!r->lane_bytes) {
		r->lanes_base = TL_LANES_BASE(r->h->file_bytes);
		r->lane_bytes = TL_LANE_BYTES(r->entries);
	}
	/* those inside the mapping of the file as it was at open */
	for (; k <= n && r->lanes_base + k * r->lane_bytes <= r->map_bytes; k++) {
		const struct tl_lane *lh = (const void *)(r->map + r->lanes_base +
							   (k - 1) * r->lane_bytes);
		if (check_lane(r, lh, k, "", NULL) != TL_OK)
			return;
		add_lane(r, lh, k, NULL);
	}
	if (k <= n)
		map_new(r, k, n);
}

int tl_lanes_next(tl_reader *r, tl_entry *e)
{
	struct tl_lane_rd *best = NULL;
	for (unsigned k = 0; k < r->nlanes; k++) {
		struct tl_lane_rd *l = &r->lane[k];
		if (!l->has_head && !(l->has_head = tl_lane_next(r, l, &l->head)))
			continue;
		/* the earliest; of equal times, the lower lane */
		if (!best || l->head.tsc < best->head.tsc)
			best = l;
	}
	if (!best)
		return 0;
	*e = best->head;
	best->has_head = 0;
	r->last_lane = (unsigned)(best - r->lane);
	return 1;
}

void tl_lanes_free(tl_reader *r)
{
	if (!r->lane || r->lane == &r->lane0)
		return;
	for (unsigned k = 1; k < r->nlanes; k++)
		if (r->lane[k].map)
			munmap(r->lane[k].map, r->lane_bytes);
	free(r->lane);
	r->lane = NULL;
}

unsigned tl_reader_threads(const tl_reader *r)
{
	return r->format == TL_FORMAT_NATIVE ? r->threads : 1;
}

int tl_reader_thread(const tl_reader *r, unsigned thread, tl_thread *t)
{
	memset(t, 0, sizeof *t);
	if (thread >= tl_reader_threads(r))
		return TL_E_INVAL;
	if (r->format != TL_FORMAT_NATIVE) {
		t->written = r->used;
		return TL_OK;
	}
	t->oldest = UINT64_MAX;
	for (unsigned k = 0; k < r->nlanes; k++) {
		const struct tl_lane_rd *l = &r->lane[k];
		uint64_t w = l->cursor - l->first;
		if (l->thread != thread)
			continue;
		if (w && (w > r->entries ? l->cursor - r->entries : l->first) < t->oldest)
			t->oldest = w > r->entries ? l->cursor - r->entries : l->first;
		/* its name and id from its last lane: lane 0's in the header */
		if (l->lh) {
			t->tid = l->lh->tid;
			memcpy(t->name, l->lh->name, sizeof t->name - 1);
		} else if (r->minor >= 4) {
			t->tid = r->h->tid;
			memcpy(t->name, r->h->thread, sizeof t->name - 1);
		}
		if (l->cursor > t->written)
			t->written = l->cursor;
		t->lost += w > r->entries ? w - r->entries : 0;
		t->skipped += l->skipped;
	}
	if (t->oldest > t->written)
		t->oldest = t->written;   /* it holds none */
	return TL_OK;
}

uint64_t tl_reader_since_threads(tl_reader *r, const uint64_t *from, size_t n, uint64_t *lost)
{
	uint64_t gone = 0, total = 0;
	if (r->format != TL_FORMAT_NATIVE)
		return tl_reader_since(r, n ? from[0] : 0, lost);
	tl_lanes_refresh(r);
	r->following = 1;   /* as tl_reader_since(): the rings stay mapped */
	for (unsigned k = 0; k < r->nlanes; k++) {
		struct tl_lane_rd *l = &r->lane[k];
		tl_lane_since(r, l, l->thread < n ? from[l->thread] : 0, &gone);
		total += l->cursor - l->first;
	}
	if (lost)
		*lost = gone;
	return total;
}
