/* log.c: opening and closing a log being written: file size, header,
 * prefaulting, and the disabled stub that failed opens fall back to. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"
#include "create.h"
#include "error.h"
#include "format.h"
#include "lane.h"
#include "proc.h"

/* The disabled log: rate off, one scratch slot for stray tl_append() calls. */
static struct {
	struct tl_header h;
	struct tl_raw_entry slot[1];
} stub __attribute__((aligned(64))) = {
	.h = { .rate = TL_RATE_OFF, .rate_fixed = 1, .disabled = 1, .clock = TL_CLOCK_MANUAL },
};

tl_log *tl_disabled(void)
{
	return (tl_log *)&stub;
}

static int is_disabled(const tl_log *log)
{
	return ((const struct tl_header *)log)->disabled != 0;
}

/* A log name is a file name component: [A-Za-z0-9._-], no leading dot. */
static int valid_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 63 || s[0] == '.')
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n;
}

/* Fills *CLOCK with the source WANT (an enum tl_clock) gives on this host:
 * with TL_CLOCK_AUTO, the one $TIMELINE_CLOCK names if it is set. */
static int pick_clock(int want, int *clock, tl_error *err)
{
	const char *env = want == TL_CLOCK_AUTO ? getenv(TL_CLOCK_ENV) : NULL;
	char what[96];
	if (env && *env) {
		want = tl_clock_parse(env);
		if (want < 0 || want == TL_CLOCK_MANUAL)
			return tl_fail(err, TL_E_INVAL, 0,
				       "no clock source '%.40s' (" TL_CLOCK_ENV "): auto, rdtsc+rseq, "
				       "rdtsc+rseq-unordered, rdtscp, rdtsc+rdpid, rdtsc+lsl, rdtsc "
				       "or monotonic",
				       env);
		snprintf(what, sizeof what, TL_CLOCK_ENV "=%s", env);
	} else {
		snprintf(what, sizeof what, "clock source %d", want);
	}
	*clock = tl_clock_pick(want, tl_host_features());
	if (*clock < 0 && (want == TL_CLOCK_RDTSC_RSEQ || want == TL_CLOCK_RDTSC_RSEQ_UNORDERED))
		return tl_fail(err, TL_E_INVAL, 0,
			       "%s needs a TSC and an rseq area with the node "
			       "(glibc 2.35 and Linux 6.3 or later)",
			       what);
	if (*clock < 0)
		return tl_fail(err, TL_E_INVAL, 0, "%s is not supported by this CPU", what);
	return TL_OK;
}

/* Checks OPT and fills the effective sizes and clock. */
static int check_options(const tl_options *o, uint64_t *entries, uint32_t *strings, int *clock,
			 tl_error *err)
{
	*entries = o->entries ? o->entries : TL_DEFAULT_ENTRIES;
	*strings = o->strings_bytes ? o->strings_bytes : TL_DEFAULT_STRINGS;
	if (*entries < 2 || *entries > (1ull << 31) || (*entries & (*entries - 1)))
		return tl_fail(err, TL_E_INVAL, 0,
			       "ring size %llu is not a power of two from 2 to 2^31",
			       (unsigned long long)*entries);
	if (o->name && !valid_name(o->name))
		return tl_fail(err, TL_E_INVAL, 0,
			       "log name '%s' must be 1 to 63 of [A-Za-z0-9._-], not starting with '.'",
			       o->name);
	if (*strings % 16 || *strings > TL_MAX_STRINGS)
		return tl_fail(err, TL_E_INVAL, 0,
			       "string table size %u is not a multiple of 16 up to %u", *strings,
			       TL_MAX_STRINGS);
	if (!tl_clock_name(o->clock))
		return tl_fail(err, TL_E_INVAL, 0, "clock source %d does not exist", o->clock);
	return pick_clock(o->clock, clock, err);
}

static void copy_str(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

/* Fills a zeroed header; the magic is stored last, so a reader never takes
 * a half-made header for a log. */
static void init_header(struct tl_header *h, const char *path, const char *name, uint64_t entries,
			uint32_t strings, int clock, uint64_t hz)
{
	h->major = TL_MAJOR;
	h->minor = TL_MINOR;
	h->header_bytes = TL_HEADER_BYTES;
	h->entry_bytes = TL_ENTRY_BYTES;
	h->entries = entries;
	h->ring_offset = TL_HEADER_BYTES;
	h->strings_offset = TL_HEADER_BYTES + entries * TL_ENTRY_BYTES;
	h->strings_bytes = strings;
	h->file_bytes = h->strings_offset + strings;
	h->mask = entries - 1;
	h->rate = 1;
	h->clock = (uint8_t)clock;
	h->rseq_offset = clock == TL_CLOCK_RDTSC_RSEQ || clock == TL_CLOCK_RDTSC_RSEQ_UNORDERED
				 ? tl_rseq_offset()
				 : 0;
	h->prng = (tl_clock_now(TL_CLOCK_MONOTONIC) ^ ((uint64_t)getpid() << 32)) | 1;
	h->tsc_hz = hz ? hz : tl_clock_hz(clock);
	h->anchor_realtime = tl_ns(CLOCK_REALTIME);
	h->anchor_tsc = tl_clock_now(clock);
	h->anchor_monotonic = tl_ns(CLOCK_MONOTONIC);
	h->cpu_features = tl_cpu_features();
	h->pid = (uint32_t)getpid();
	h->start_ticks = tl_start_ticks(h->pid, NULL);
	copy_str(h->process, sizeof h->process, program_invocation_short_name);
	gethostname(h->host, sizeof h->host - 1);
	copy_str(h->name, sizeof h->name, name);
	copy_str(h->path, sizeof h->path, path);
	__atomic_store_n(&h->magic, TL_MAGIC_0, __ATOMIC_RELEASE);
}

tl_log *tl_open(const char *path, const tl_options *opt, tl_error *err)
{
	static const tl_options defaults;
	const tl_options *o = opt ? opt : &defaults;
	const char *name = o->name ? o->name : "timeline";   /* "" is refused below */
	char buf[sizeof ((struct tl_header *)0)->path];
	uint64_t entries = 0, bytes;
	uint32_t strings = 0;
	int clock = 0, fd;
	void *base;

	tl_ok(err);
	if (check_options(o, &entries, &strings, &clock, err) != TL_OK)
		return NULL;
	if (!path) {
		if (tl_default_path(name, buf, sizeof buf, err) != TL_OK ||
		    tl_check_not_ours(buf, err) != TL_OK)
			return NULL;
		path = buf;
	}
	if (strlen(path) >= sizeof buf) {
		tl_fail(err, TL_E_INVAL, ENAMETOOLONG, "%.64s...", path);
		return NULL;
	}
	bytes = TL_HEADER_BYTES + entries * TL_ENTRY_BYTES + strings;
	fd = tl_create_file(path, bytes, err);
	if (fd < 0)
		return NULL;
	base = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		tl_fail(err, TL_E_SYS, errno, "%s: cannot map %llu bytes", path,
			(unsigned long long)bytes);
		unlink(path);
		close(fd);
		return NULL;
	}
	if (!o->no_prefault)
		tl_prefault(base, bytes);
	init_header(base, path, name, entries, strings, clock, o->tsc_hz);
	/* the file stays open: other threads' lanes are added to it */
	if (tl_lanes_open(base, fd, !o->no_prefault, err) != TL_OK) {
		munmap(base, bytes);
		unlink(path);
		close(fd);
		return NULL;
	}
	return base;
}

void tl_close(tl_log *log)
{
	if (!log || is_disabled(log))
		return;
	tl_lanes_close(log);
	munmap(log, ((struct tl_header *)log)->file_bytes);
}

const char *tl_path(const tl_log *log)
{
	return ((const struct tl_header *)log)->path;
}

void tl_set_manual_clock(tl_log *log, uint64_t tsc, uint16_t aux)
{
	struct tl_header *h = (struct tl_header *)log;
	if (is_disabled(log))
		return;
	__atomic_store_n(&h->manual_tsc, tsc, __ATOMIC_RELAXED);
	__atomic_store_n(&h->manual_aux, aux, __ATOMIC_RELAXED);
}
