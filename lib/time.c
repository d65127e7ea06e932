/* time.c: a log's timestamps in nanoseconds and on the wall clock, from the
 * TSC frequency and the anchor in its header, and whether two logs share a
 * TSC (one host, one boot). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "timeline.h"

uint64_t tl_ticks_to_ns(uint64_t ticks, uint64_t hz)
{
	if (!hz)
		return 0;
	return (uint64_t)((unsigned __int128)ticks * 1000000000u / hz);
}

int64_t tl_wall_ns(const tl_info *i, uint64_t tsc)
{
	if (tsc >= i->anchor_tsc)
		return (int64_t)(i->anchor_realtime_ns + tl_ticks_to_ns(tsc - i->anchor_tsc, i->tsc_hz));
	return (int64_t)i->anchor_realtime_ns - (int64_t)tl_ticks_to_ns(i->anchor_tsc - tsc, i->tsc_hz);
}

size_t tl_format_wall(char *buf, size_t size, int64_t ns)
{
	time_t sec = (time_t)(ns / 1000000000);
	long frac = (long)(ns % 1000000000);
	struct tm tm;
	char base[32];
	int n;
	if (frac < 0) {
		frac += 1000000000;
		sec--;
	}
	if (!gmtime_r(&sec, &tm) || !strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm))
		strcpy(base, "?");
	n = snprintf(buf, size, "%s.%09ldZ", base, frac);
	return n < 0 ? 0 : (size_t)n;
}

/* The boot's moment in whole seconds since the epoch: CLOCK_REALTIME -
 * CLOCK_MONOTONIC at the anchor. */
static int64_t boot_s(const tl_info *i)
{
	return ((int64_t)i->anchor_realtime_ns - (int64_t)i->anchor_monotonic_ns) / 1000000000;
}

int tl_same_tsc(const tl_info *a, const tl_info *b)
{
	return !strcmp(a->host, b->host) && llabs(boot_s(a) - boot_s(b)) <= 1;
}
