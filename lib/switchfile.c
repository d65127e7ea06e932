/* switchfile.c: the event switches seen from outside the writer: read from
 * a reader's header and its records (tl_reader_switched_off, tl_switch_apply),
 * and flipped in a log given by path (tl_switch_file), through a shared
 * mapping of its header. Apart from lib/switch.c, the writer's side, so a
 * program that only writes logs does not link the reader. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "error.h"
#include "format.h"
#include "reader.h"

/* Does the log R reads have switches (ours, format 1.2 or later)? */
static int has_switches(const tl_reader *r)
{
	return r->format == TL_FORMAT_NATIVE && r->minor >= 2;
}

/* The events of word W that are off and not asked to go on: their bits. */
static uint64_t off_bits(uint64_t w)
{
	return w & ~TL_SWITCH_ON_REQ & ~((w & TL_SWITCH_ON_REQ) >> 1);
}

void tl_reader_switch_words(const tl_reader *r, uint64_t *words)
{
	for (unsigned w = 0; w < TL_SWITCH_WORDS; w++)
		words[w] = has_switches(r) ? off_bits(__atomic_load_n(&r->h->switches[w],
								       __ATOMIC_ACQUIRE))
					   : 0;
}

int tl_reader_switched_off(const tl_reader *r, uint16_t msgid)
{
	if (!has_switches(r))
		return 0;
	return (int)(off_bits(__atomic_load_n(&r->h->switches[TL_SWITCH_WORD(msgid)],
					      __ATOMIC_ACQUIRE)) >> TL_SWITCH_BIT(msgid) & 1);
}

unsigned tl_reader_switches_off(const tl_reader *r)
{
	unsigned n = 0;
	for (unsigned w = 0; has_switches(r) && w < TL_SWITCH_WORDS; w++)
		n += (unsigned)__builtin_popcountll(off_bits(__atomic_load_n(&r->h->switches[w],
									      __ATOMIC_ACQUIRE)));
	return n;
}

int tl_reader_is_switch_entry(tl_reader *r, const tl_entry *e)
{
	const tl_def *d;
	if (!has_switches(r))
		return 0;
	d = tl_reader_def(r, e->msgid);
	return d && d->known && d->name_len == sizeof TL_SWITCH_EVENT - 1 &&
	       !memcmp(d->name, TL_SWITCH_EVENT, d->name_len) && !*d->attrs;
}

unsigned tl_switch_apply(uint64_t *words, const tl_entry *e)
{
	unsigned changed = 0;
	uint64_t first = e->args[1];
	if (first == 0)   /* a new record: the words it leaves out are 0 */
		for (unsigned w = TL_SWITCH_GROUP; w < TL_SWITCH_WORDS; w++) {
			changed += (unsigned)__builtin_popcountll(words[w]);
			words[w] = 0;
		}
	for (unsigned k = 0; k < TL_SWITCH_GROUP; k++) {
		if (first + k >= TL_SWITCH_WORDS)
			break;
		changed += (unsigned)__builtin_popcountll(words[first + k] ^ e->args[2 + k]);
		words[first + k] = e->args[2 + k];
	}
	return changed;
}

/* Why a log that does not pass as ours cannot be switched: the reader's
 * own message for it. */
static int refuse(int fd, const char *path, tl_error *err)
{
	tl_reader *r = tl_reader_open_fd(fd, path, err);
	if (!r)
		return err ? err->code : TL_E_FORMAT;
	tl_reader_close(r);
	return tl_fail(err, TL_E_FORMAT, 0, "%s: not a log with event switches", path);
}

/* Checks the file open at FD (PATH) as cheaply as a flip allows (only the
 * header is touched): a log of ours, by its magic, of major 1 and minor 2
 * or later; anything else is refused with the reader's message, or for
 * Snabb files, compressed copies and older logs, with why they have no
 * switches. */
static int check_file(int fd, const char *path, tl_error *err)
{
	struct tl_header h;
	struct stat st;
	int kind = tl_probe(fd);
	if (kind & TL_FORMAT_ZSTD)
		return tl_fail(err, TL_E_INVAL, 0, "%s: a compressed copy has no writer to switch", path);
	if (kind == TL_FORMAT_SNABB)
		return tl_fail(err, TL_E_INVAL, 0, "%s: a Snabb log has no event switches", path);
	if (kind != TL_FORMAT_NATIVE || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h || h.major != TL_MAJOR)
		return refuse(fd, path, err);
	if (h.minor < 2)
		return tl_fail(err, TL_E_INVAL, 0,
			       "%s: a log of format 1.%u has no event switches (1.2 has)", path, h.minor);
	return TL_OK;
}

/* Opens PATH for writing, checked; -1 on failure, with *RC the status
 * (ERR filled). Without write access, says why the file cannot be
 * switched anyway when it has no switches, else why it cannot be opened
 * for writing. */
static int open_checked(const char *path, int *rc, tl_error *err)
{
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK), ro, e = errno;
	if (fd < 0) {
		*rc = TL_OK;
		if ((ro = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) >= 0) {
			*rc = check_file(ro, path, err);
			close(ro);
		}
		if (*rc == TL_OK)
			*rc = tl_fail(err, TL_E_SYS, e, "%s", path);
		return -1;
	}
	if ((*rc = check_file(fd, path, err)) != TL_OK) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Switches ID in H off (OFF), at once, or asks its writer to switch it on
 * (the request bit beside it: the writer grants it, records it and only
 * then writes the event); returns 1 if that changed what was asked. */
static int flip(struct tl_header *h, uint16_t id, int off)
{
	uint64_t bit = 1ull << TL_SWITCH_BIT(id), req = bit << 1, old, now;
	uint64_t *w = &h->switches[TL_SWITCH_WORD(id)];
	if (TL_SWITCH_BIT(id) & 1)   /* not the start of a definition */
		return 0;
	old = __atomic_load_n(w, __ATOMIC_ACQUIRE);
	do {
		int was_off = (old & bit) && !(old & req);
		if (was_off == !!off)
			return 0;
		now = off ? (old | bit) & ~req : old | req;
	} while (!__atomic_compare_exchange_n(w, &old, now, 0, __ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE));
	return 1;
}

int tl_switch_file(const char *path, const uint16_t *ids, const uint8_t *off, size_t n,
		   size_t *changed, tl_error *err)
{
	struct tl_header *h;
	size_t moved = 0;
	int fd, rc;

	tl_ok(err);
	if (changed)
		*changed = 0;
	if ((fd = open_checked(path, &rc, err)) < 0)
		return rc;
	h = mmap(NULL, TL_HEADER_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (h == MAP_FAILED)
		return tl_fail(err, TL_E_SYS, errno, "%s: cannot map", path);
	for (size_t i = 0; i < n; i++)
		moved += (size_t)flip(h, ids[i], off[i]);
	/* the bits first, then the count and the flag the writer tests: when
	 * it sees the flag, it sees the bits (x86 keeps stores in order) */
	if (moved) {
		__atomic_fetch_add(&h->switch_gen, 1, __ATOMIC_SEQ_CST);
		__atomic_store_n(&h->switch_pending, 1, __ATOMIC_SEQ_CST);
	}
	munmap(h, TL_HEADER_BYTES);
	if (changed)
		*changed = moved;
	return TL_OK;
}
