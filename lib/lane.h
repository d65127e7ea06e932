/* lane.h: which lane of a log the calling thread writes (lib/lane.c): the
 * thread's cache that asm/append.S and lib/append.c look at before each
 * entry, the slow path behind it, and the lock of the writers' rare work.
 * Internal to lib/. */
#ifndef TL_LANE_H
#define TL_LANE_H
#include "format.h"
#include "timeline.h"

/* The calling thread's last lane: LOG's lane LANE (the header itself for
 * lane 0). asm/append.S reads it at %fs (lane.c has its offsets); another
 * thread may store NULL in LOG (lane 0 taken from its writer, the log
 * closed), never anything else. */
struct tl_lane_cache {
	tl_log *log;
	void *lane;
};
extern __thread struct tl_lane_cache tl_lane_tls
	__attribute__((tls_model("initial-exec"), visibility("hidden")));

/* The calling thread's lane of LOG, found or made (its first entry, or
 * tl_thread_attach()), and put in the cache. Never fails: a thread refused
 * a lane (TL_LANES_MAX reached, no space) gets a scratch lane of its own
 * in memory, which keeps nothing, and the header counts it. */
void *tl_lane_get(tl_log *log) __attribute__((visibility("hidden")));

/* The calling thread's lane of LOG: the cache, else tl_lane_get(). */
static inline struct tl_header *tl_lane_of(tl_log *log)
{
	if (__builtin_expect(__atomic_load_n(&tl_lane_tls.log, __ATOMIC_RELAXED) == log, 1))
		return (struct tl_header *)tl_lane_tls.lane;
	return (struct tl_header *)tl_lane_get(log);
}

/* tl_open()'s: LOG, mapped, with FD open on its file, is ready for lanes,
 * which keep FD and are prefaulted as the log was when PREFAULT. TL_OK, or
 * TL_E_NOMEM with ERR filled. */
int tl_lanes_open(tl_log *log, int fd, int prefault, tl_error *err)
	__attribute__((visibility("hidden")));

/* tl_close()'s: unmaps LOG's lanes, closes its file and clears every
 * thread's cache of it. */
void tl_lanes_close(tl_log *log) __attribute__((visibility("hidden")));

/* The lock of the writers' rare work on any log: lanes made, strings
 * interned, switches recorded. Recursive: recording interns. */
void tl_writer_lock(void) __attribute__((visibility("hidden")));
void tl_writer_unlock(void) __attribute__((visibility("hidden")));
#endif
