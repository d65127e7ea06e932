/* lane.c: one log written by any number of threads (format minor 4): the
 * lane each thread writes, found in its cache or made and published here,
 * lane 0 taken from its writer when a second thread comes, and the lock of
 * the writers' rare work. The layout is in lib/format.h, "Lanes". */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "create.h"
#include "error.h"
#include "lane.h"

__thread struct tl_lane_cache tl_lane_tls __attribute__((tls_model("initial-exec")));

/* asm/append.S reads the cache's two fields at these offsets */
_Static_assert(__builtin_offsetof(struct tl_lane_cache, log) == 0 &&
	       __builtin_offsetof(struct tl_lane_cache, lane) == 8, "asm/append.S's lane cache");

_Static_assert(TL_LANES_MAX + 1 == TL_THREADS_MAX, "timeline.h says how many lanes a log holds");

#define RECENT 4   /* lanes a thread keeps at hand besides its cache */

/* A thread that has looked for a lane, in the registry until it ends: its
 * cache, which other threads clear, and the lanes it wrote last. */
struct thread_rec {
	struct thread_rec *next;
	struct tl_lane_cache *cache;
	struct {
		tl_log *log;
		void *lane;
	} recent[RECENT];
	unsigned turn;               /* the next recent[] entry to replace */
	int registered;
};
/* initial-exec, as the cache: a shared library's dynamic TLS would call
 * __tls_get_addr(), and need ld.so as a library of its own */
static __thread struct thread_rec me __attribute__((tls_model("initial-exec")));

/* A lane of a thread refused one: in memory, two slots that keep nothing. */
struct scratch {
	struct scratch *next;
	struct thread_rec *owner;
	void *mem;
};

/* A log this process opened, and its lanes. */
struct logstate {
	struct logstate *next;
	struct tl_header *h;
	int fd;
	int prefault;                /* tl_options.no_prefault not set */
	uint64_t lane_bytes, base;   /* a lane's bytes; where lane 1 starts */
	unsigned lanes;              /* lanes made after lane 0 (= h->lanes) */
	uint32_t threads;            /* thread indices given (lane 0's is 0) */
	int lane0_taken;             /* lane 0 had a writer ... */
	int lane0_closed;            /* ... and takes no more entries */
	struct thread_rec *owner[TL_LANES_MAX + 1];   /* lane k's writer, NULL once it ended */
	uint32_t thread[TL_LANES_MAX + 1];            /* its thread index */
	void *lane[TL_LANES_MAX + 1];
	struct scratch *scratch;
};

static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_key_t key;
static struct thread_rec *threads;   /* the registry */
static struct logstate *logs;

/* Stores NULL in T's cache and recent lanes of LOG: its next entry there
 * takes the slow path. */
static void forget(struct thread_rec *t, const tl_log *log)
{
	for (unsigned i = 0; i < RECENT; i++)
		if (__atomic_load_n(&t->recent[i].log, __ATOMIC_SEQ_CST) == log)
			__atomic_store_n(&t->recent[i].log, NULL, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&t->cache->log, __ATOMIC_SEQ_CST) == log)
		__atomic_store_n(&t->cache->log, NULL, __ATOMIC_SEQ_CST);
}

/* A thread ends: its lanes keep their entries and take no more. */
static void thread_gone(void *p)
{
	struct thread_rec *t = p, **pp;
	tl_writer_lock();
	for (struct logstate *s = logs; s; s = s->next) {
		for (unsigned k = 0; k <= s->lanes; k++)
			if (s->owner[k] == t)
				s->owner[k] = NULL;
		for (struct scratch *c = s->scratch; c; c = c->next)
			if (c->owner == t)
				c->owner = NULL;
	}
	for (pp = &threads; *pp; pp = &(*pp)->next)
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	memset(t, 0, sizeof *t);
	__atomic_store_n(&tl_lane_tls.log, NULL, __ATOMIC_SEQ_CST);
	tl_writer_unlock();
}

/* In the child of a fork the lock, held by the forking thread, is held by
 * a thread id the child does not have: a recursive mutex cannot be
 * unlocked there, only made anew. */
static void child_unlock(void)
{
	static const pthread_mutex_t fresh = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
	memcpy(&lock, &fresh, sizeof lock);
}

static void init_once(void)
{
	pthread_key_create(&key, thread_gone);
	/* a fork while another thread holds the lock leaves it held in the child */
	pthread_atfork(tl_writer_lock, tl_writer_unlock, child_unlock);
}

void tl_writer_lock(void)
{
	pthread_once(&once, init_once);
	pthread_mutex_lock(&lock);
}

void tl_writer_unlock(void)
{
	pthread_mutex_unlock(&lock);
}

/* Puts the calling thread in the registry, once. Under the lock. */
static void register_me(void)
{
	if (me.registered)
		return;
	me.cache = &tl_lane_tls;
	me.next = threads;
	threads = &me;
	me.registered = 1;
	pthread_setspecific(key, &me);   /* thread_gone() when it ends */
}

static struct logstate *state_of(const tl_log *log)
{
	for (struct logstate *s = logs; s; s = s->next)
		if ((const tl_log *)s->h == log)
			return s;
	return NULL;
}

/* The calling thread's name, as pthread_getname_np() gives it, into NAME. */
static void my_name(char name[16], const char *given)
{
	memset(name, 0, 16);
	if (given)
		strncpy(name, given, 15);
	else if (pthread_getname_np(pthread_self(), name, 16) != 0)
		name[0] = '\0';
}

/* A scratch lane for the calling thread, refused a lane of S's log (the
 * header counts it): in memory, two slots that keep nothing. Threads
 * refused memory as well share one. */
static void *scratch_lane(struct logstate *s)
{
	static char shared[TL_LANE_BYTES(2)] __attribute__((aligned(64)));
	struct scratch *c;
	struct tl_lane *l;
	for (c = s->scratch; c; c = c->next)
		if (c->owner == &me)
			return c->mem;
	__atomic_add_fetch(&s->h->lanes_refused, 1, __ATOMIC_RELAXED);
	c = calloc(1, sizeof *c);
	l = c ? aligned_alloc(64, TL_LANE_BYTES(2)) : NULL;
	if (!l) {
		free(c);
		l = (struct tl_lane *)shared;
	} else {
		memset(l, 0, TL_LANE_BYTES(2));
		c->owner = &me;
		c->mem = l;
		c->next = s->scratch;
		s->scratch = c;
	}
	l->mask = 1;
	l->rseq_offset = s->h->rseq_offset;
	return l;
}

/* Lane 0, the header's, for the calling thread: its first writer. */
static void *take_lane0(struct logstate *s, const char *name)
{
	char n[16];
	my_name(n, name);
	memcpy(s->h->thread, n, sizeof n);
	__atomic_store_n(&s->h->tid, (uint32_t)gettid(), __ATOMIC_RELEASE);
	s->owner[0] = &me;
	s->thread[0] = 0;
	s->lane0_taken = 1;
	if (s->threads < 1)
		s->threads = 1;
	return s->h;
}

/* Writes lane K's header at L for the calling thread, thread index THREAD,
 * numbering on from FIRST; the magic last. */
static void init_lane(struct logstate *s, struct tl_lane *l, unsigned k, uint32_t thread,
		      uint64_t first, const char *name)
{
	l->index = k;
	l->thread = thread;
	l->tid = (uint32_t)gettid();
	l->first = first;
	my_name(l->name, name);
	l->cursor = first;
	l->mask = s->h->mask;
	/* a draw of its own, from the log's seed: splitmix64 of seed + k */
	{
		uint64_t z = s->h->prng + 0x9e3779b97f4a7c15ull * k;
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		l->prng = (z ^ (z >> 31)) | 1;
	}
	l->rseq_offset = s->h->rseq_offset;
	__atomic_store_n(&l->magic, TL_LANE_MAGIC, __ATOMIC_RELEASE);
}

/* Lane 0 takes no more entries: its writer, if it runs, goes on in a lane
 * of its own at its next entry. Its cursor stays in the header's hot line,
 * which every thread reads (the rate, the clock) before each entry: a
 * writer storing there would cost each of them a cache miss an entry. */
static void close_lane0(struct logstate *s)
{
	if (s->lane0_closed)
		return;
	s->lane0_closed = 1;
	if (s->owner[0] && s->owner[0] != &me)
		forget(s->owner[0], (tl_log *)s->h);
}

/* Makes lane s->lanes + 1 for the calling thread and publishes it; the
 * scratch lane, with *RC and ERR filled, when it cannot. */
static void *make_lane(struct logstate *s, const char *name, int *rc, tl_error *err)
{
	unsigned k = s->lanes + 1;
	int again = s->owner[0] == &me;   /* lane 0's writer, going on */
	uint64_t off = s->base + (uint64_t)(k - 1) * s->lane_bytes;
	struct tl_lane *l;

	if (k > TL_LANES_MAX) {
		*rc = tl_fail(err, TL_E_FULL, 0, "%s: no lane left for another thread (%u lanes)",
			      s->h->path, TL_LANES_MAX + 1);
		return scratch_lane(s);
	}
	if ((*rc = tl_allocate(s->fd, off, s->lane_bytes, s->h->path, err)) != TL_OK)
		return scratch_lane(s);
	l = mmap(NULL, s->lane_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, (off_t)off);
	if (l == MAP_FAILED) {
		*rc = tl_fail(err, TL_E_SYS, errno, "%s: cannot map a lane", s->h->path);
		return scratch_lane(s);
	}
	if (s->prefault)
		tl_prefault(l, s->lane_bytes);
	close_lane0(s);
	init_lane(s, l, k, again ? 0 : s->threads, again ? s->h->cursor : 0, name);
	s->lane[k] = l;
	s->owner[k] = &me;
	s->thread[k] = again ? 0 : s->threads;
	if (!again)
		s->threads++;
	s->lanes = k;
	__atomic_store_n(&s->h->lanes, k, __ATOMIC_RELEASE);   /* published last */
	return l;
}

/* The calling thread's lane of LOG, found or made: lane 0 for the first
 * writer of a log of one lane (not for ATTACH, which asks for a lane of its
 * own), else a new one. Under the lock. */
static void *find_or_make(tl_log *log, int attach, const char *name, int *rc, tl_error *err)
{
	struct logstate *s = state_of(log);
	*rc = TL_OK;
	if (!s)
		return log;   /* a mapping this process did not open: lane 0, as ever */
	for (unsigned k = 0; k <= s->lanes; k++)
		if (s->owner[k] == &me && !(k == 0 && s->lane0_closed))
			return s->lane[k];
	for (struct scratch *c = s->scratch; c; c = c->next)
		if (c->owner == &me)
			return c->mem;
	if (!attach && !s->lane0_taken && !s->lanes)
		return take_lane0(s, name);
	return make_lane(s, name, rc, err);
}

/* Sets the cache and the recent lanes to LOG's LANE. */
static void remember(tl_log *log, void *lane)
{
	unsigned i = me.turn++ % RECENT;
	__atomic_store_n(&me.recent[i].log, NULL, __ATOMIC_SEQ_CST);
	me.recent[i].lane = lane;
	__atomic_store_n(&me.recent[i].log, log, __ATOMIC_SEQ_CST);
	tl_lane_tls.lane = lane;
	__atomic_store_n(&tl_lane_tls.log, log, __ATOMIC_SEQ_CST);
}

/* LOG's lane among the recent ones, into the cache, without the lock; NULL
 * when it is not there or was forgotten meanwhile. */
static void *recent_lane(tl_log *log)
{
	for (unsigned i = 0; i < RECENT; i++) {
		void *lane;
		if (__atomic_load_n(&me.recent[i].log, __ATOMIC_SEQ_CST) != log)
			continue;
		lane = me.recent[i].lane;
		tl_lane_tls.lane = lane;
		__atomic_store_n(&tl_lane_tls.log, log, __ATOMIC_SEQ_CST);
		/* forget() clears recent[] before the cache: seen cleared now, the
		 * cache may have been set after it was cleared */
		if (__atomic_load_n(&me.recent[i].log, __ATOMIC_SEQ_CST) == log)
			return lane;
		__atomic_store_n(&tl_lane_tls.log, NULL, __ATOMIC_SEQ_CST);
		return NULL;
	}
	return NULL;
}

/* find_or_make() under the lock, its lane put in the cache. */
static void *locked_lane(tl_log *log, int attach, const char *name, int *rc, tl_error *err)
{
	void *lane;
	tl_writer_lock();
	register_me();
	lane = find_or_make(log, attach, name, rc, err);
	remember(log, lane);
	tl_writer_unlock();
	return lane;
}

void *tl_lane_get(tl_log *log)
{
	void *lane;
	int rc;
	if (((struct tl_header *)log)->disabled) {
		/* tl_disabled()'s scratch slot, one for all */
		tl_lane_tls.lane = log;
		__atomic_store_n(&tl_lane_tls.log, log, __ATOMIC_SEQ_CST);
		return log;
	}
	if ((lane = recent_lane(log)))
		return lane;
	return locked_lane(log, 0, NULL, &rc, NULL);
}

int tl_thread_attach(tl_log *log, const char *name, tl_error *err)
{
	int rc;
	tl_ok(err);
	if (!log || ((struct tl_header *)log)->disabled)
		return TL_OK;
	locked_lane(log, 1, name, &rc, err);
	return rc;
}

int tl_lanes_open(tl_log *log, int fd, int prefault, tl_error *err)
{
	struct tl_header *h = (struct tl_header *)log;
	struct logstate *s = calloc(1, sizeof *s);
	if (!s)
		return tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", h->path);
	s->h = h;
	s->fd = fd;
	s->prefault = prefault;
	s->lane_bytes = TL_LANE_BYTES(h->entries);
	s->base = TL_LANES_BASE(h->file_bytes);
	s->lane[0] = h;
	tl_writer_lock();
	/* a cache of an earlier mapping at this address would be taken for it */
	for (struct thread_rec *t = threads; t; t = t->next)
		forget(t, log);
	s->next = logs;
	logs = s;
	tl_writer_unlock();
	return TL_OK;
}

void tl_lanes_close(tl_log *log)
{
	struct logstate *s = NULL, **pp;
	tl_writer_lock();
	for (pp = &logs; *pp; pp = &(*pp)->next)
		if ((tl_log *)(*pp)->h == log) {
			s = *pp;
			*pp = s->next;
			break;
		}
	for (struct thread_rec *t = threads; t; t = t->next)
		forget(t, log);
	tl_writer_unlock();
	if (!s)
		return;
	for (unsigned k = 1; k <= s->lanes; k++)
		munmap(s->lane[k], s->lane_bytes);
	while (s->scratch) {
		struct scratch *c = s->scratch;
		s->scratch = c->next;
		free(c->mem);
		free(c);
	}
	close(s->fd);
	free(s);
}
