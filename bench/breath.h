/* breath.h: Snabb's breath as the benchmarks log it (bench/logger.c's
 * sampled row, bench/threads.c's sampled_*): 10 generated events at rates
 * 3..9, then tl_breath() draws a new rate. */
#ifndef TL_BENCH_BREATH_H
#define TL_BENCH_BREATH_H
#include "bench_events.h"

/* Breath I of log L (events E): its 10 events and the draw. */
static inline __attribute__((always_inline)) void bench_breath(tl_log *l,
							       const struct bench_events *e,
							       uint64_t i)
{
	bench_r9(l, e, i, 1, 2, 3, 4, 5);
	bench_r8(l, e, i, 1, 2, 3, 4, 5);
	bench_r7(l, e, i, 1, 2, 3, 4, 5);
	bench_r6(l, e, i, 1, 2, 3, 4, 5);
	bench_r5(l, e, i, 1, 2, 3, 4, 5);
	bench_r4(l, e, i, 1, 2, 3, 4, 5);
	bench_r3(l, e, i, 1, 2, 3, 4, 5);
	bench_r5(l, e, i, 1, 2, 3, 4, 5);
	bench_r7(l, e, i, 1, 2, 3, 4, 5);
	bench_r9(l, e, i, 1, 2, 3, 4, 5);
	tl_breath(l);
}
#endif
