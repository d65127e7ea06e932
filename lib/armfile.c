/* armfile.c: the flight recorder seen from outside the writer: a log given
 * by path armed (tl_arm_file) or frozen (tl_freeze_file) through a shared
 * mapping of it, and the recorder of a log read (tl_reader_arming). Apart
 * from lib/arm.c so that a program that only writes logs does not link
 * the reader. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <unistd.h>
#include "arm.h"
#include "error.h"
#include "reader.h"

/* Checks the log at PATH as a reader does and refuses what has no writer
 * to arm; fills *ENTRIES and *HZ. TL_OK, or the failure with ERR. */
static int check(const char *path, tl_reader **rp, tl_error *err)
{
	tl_reader *r;
	tl_info in;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), kind;
	if (fd < 0)
		return tl_fail(err, TL_E_SYS, errno, "%s", path);
	kind = tl_probe(fd);
	if (kind & TL_FORMAT_ZSTD) {
		close(fd);
		return tl_fail(err, TL_E_INVAL, 0, "%s: a compressed copy has no writer to arm", path);
	}
	r = tl_reader_open_fd(fd, path, err);
	close(fd);
	if (!r)
		return err ? err->code : TL_E_FORMAT;
	tl_reader_info(r, &in);
	if (in.format == TL_FORMAT_SNABB) {
		tl_reader_close(r);
		return tl_fail(err, TL_E_INVAL, 0, "%s: a Snabb log cannot be armed (no recorder in its format)",
			       path);
	}
	if (in.minor < 5) {
		tl_reader_close(r);
		return tl_fail(err, TL_E_INVAL, 0,
			       "%s: a log of format 1.%u has no flight recorder (1.5 has)", path, in.minor);
	}
	if (in.copy_of) {
		tl_reader_close(r);
		return tl_fail(err, TL_E_INVAL, 0, "%s: a copy has no writer to arm", path);
	}
	*rp = r;
	return TL_OK;
}

/* Maps the header of PATH for writing, under flock(2): NULL with ERR. */
static struct tl_header *map_header(const char *path, int *fdp, tl_error *err)
{
	struct tl_header *h;
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		tl_fail(err, TL_E_SYS, errno, "%s", path);
		return NULL;
	}
	h = mmap(NULL, TL_HEADER_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (h == MAP_FAILED) {
		tl_fail(err, TL_E_SYS, errno, "%s: cannot map", path);
		close(fd);
		return NULL;
	}
	flock(fd, LOCK_EX);
	*fdp = fd;
	return h;
}

static void unmap_header(struct tl_header *h, int fd)
{
	munmap(h, TL_HEADER_BYTES);
	close(fd);   /* and the lock with it */
}

int tl_arm_file(const char *path, const tl_arm_options *o, tl_error *err)
{
	struct tl_header *h;
	struct tl_arm set;
	tl_reader *r = NULL;
	tl_info in;
	int rc, fd;

	tl_ok(err);
	if ((rc = check(path, &r, err)) != TL_OK)
		return rc;
	tl_reader_info(r, &in);
	rc = tl_arm_resolve(r->strings, in.strings_used < in.strings_bytes ? in.strings_used
									   : in.strings_bytes,
			    in.entries, in.tsc_hz, o, &set, path, err);
	tl_reader_close(r);
	if (rc != TL_OK)
		return rc;
	if (!(h = map_header(path, &fd, err)))
		return err ? err->code : TL_E_SYS;
	tl_arm_write(h, &set);
	unmap_header(h, fd);
	return TL_OK;
}

int tl_freeze_file(const char *path, tl_error *err)
{
	struct tl_header *h;
	tl_reader *r = NULL;
	int rc, fd;

	tl_ok(err);
	if ((rc = check(path, &r, err)) != TL_OK)
		return rc;
	tl_reader_close(r);
	if (!(h = map_header(path, &fd, err)))
		return err ? err->code : TL_E_SYS;
	tl_arm_freeze(h);
	unmap_header(h, fd);
	return TL_OK;
}

int tl_reader_arming(const tl_reader *r, tl_arming *a)
{
	const struct tl_arm *s;
	memset(a, 0, sizeof *a);
	if (r->format != TL_FORMAT_NATIVE || r->minor < 5)
		return TL_E_INVAL;
	s = &r->h->arm;
	for (int t = 0; t < 100; t++) {   /* the settings as a seqlock reader */
		uint32_t seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
		a->mode = s->mode;
		memcpy(a->what, s->what, sizeof a->what - 1);
		a->what[sizeof a->what - 1] = '\0';
		a->threshold = s->threshold;
		a->keep = s->keep;
		a->rate = s->rate;
		a->gen = s->gen;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (!(seq & 1) && __atomic_load_n(&s->seq, __ATOMIC_RELAXED) == seq)
			break;
	}
	a->state = __atomic_load_n(&r->h->armed, __ATOMIC_ACQUIRE);
	if (a->state > TL_ARM_FROZEN)
		a->state = TL_ARM_OFF;   /* damaged: none */
	a->kind = __atomic_load_n(&s->kind, __ATOMIC_ACQUIRE);
	if (a->kind > TL_TRIGGER_HAND)
		a->kind = TL_TRIGGER_NONE;
	if (a->kind) {
		a->thread = s->thread;
		a->begin_id = s->begin_id;
		a->end_id = s->end_id;
		a->cycles = s->cycles;
		a->threshold_at = s->threshold_at;
		a->begin_seq = s->begin_seq;
		a->end_seq = s->end_seq;
		a->end_tsc = s->end_tsc;
		a->wall_ns = s->wall_ns;
		a->stop_at = s->stop_at;
	}
	return TL_OK;
}

const char *tl_trigger_name(int kind)
{
	static const char *const names[] = { "none", "pair", "gap", "event", "hand" };
	return kind >= 0 && kind <= TL_TRIGGER_HAND ? names[kind] : "none";
}
