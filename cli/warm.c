/* warm.c: the read-ahead thread of `timeline merge`. A merge of files that
 * do not fit the cache is bound by memory latency: the merging thread stalls
 * on every entry while its own work waits. A second core that touches each
 * file some way ahead turns those misses into cache hits. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "warm.h"

/* Entries kept warm across all inputs: 8 MiB, within a shared L3. */
#define WARM_TOTAL 131072u

static struct {
	tl_reader *const *r;
	size_t n;
	uint64_t *from;                  /* per reader: the first entry not yet touched */
	uint64_t ahead;                  /* entries per reader */
	int stop;                        /* atomic: set by warm_stop() */
	int running;
	pthread_t th;
} W;

static void *warm_main(void *arg)
{
	struct timespec nap = { 0, 100 * 1000 };
	(void)arg;
	while (!__atomic_load_n(&W.stop, __ATOMIC_RELAXED)) {
		uint64_t moved = 0;
		for (size_t i = 0; i < W.n; i++) {
			uint64_t f = tl_reader_warm(W.r[i], W.from[i], W.ahead);
			moved += f - W.from[i];
			W.from[i] = f;
		}
		/* little to do: let the merge use a quarter of the window before
		 * the next pass, so this thread mostly sleeps and leaves its CPU
		 * to others (such as the formatting threads) */
		if (moved < W.ahead / 4)
			nanosleep(&nap, NULL);
	}
	return NULL;
}

void warm_start(tl_reader *const *r, size_t n)
{
	if (W.running || n == 0 || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return;
	if (!(W.from = calloc(n, sizeof *W.from)))
		return;
	W.r = r;
	W.n = n;
	W.ahead = WARM_TOTAL / n > 1024 ? WARM_TOTAL / n : 1024;
	W.stop = 0;
	if (pthread_create(&W.th, NULL, warm_main, NULL)) {
		free(W.from);
		return;
	}
	W.running = 1;
}

void warm_stop(void)
{
	if (!W.running)
		return;
	__atomic_store_n(&W.stop, 1, __ATOMIC_RELAXED);
	pthread_join(W.th, NULL);
	free(W.from);
	W.from = NULL;
	W.running = 0;
}
