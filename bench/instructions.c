/* instructions.c: N calls of one logger entry point, for counting
 * instructions per call with callgrind (bench/callgrind.sh): the manual
 * clock keeps valgrind away from RDTSC/RDPID, so counts are exact and
 * repeatable. Usage: instructions N MODE (0 tl_append, 1 tl_append_c,
 * 2 tl_event with the rate off, 3 tl_breath). */
#include <stdio.h>
#include <stdlib.h>
#include "timeline.h"

int main(int argc, char **argv)
{
	tl_options o = { .entries = 1 << 12, .clock = TL_CLOCK_MANUAL };
	tl_error e;
	tl_log *l;
	int n, mode;
	if (argc != 4) {
		fprintf(stderr, "usage: instructions N MODE FILE\n");
		return 2;
	}
	n = atoi(argv[1]);
	mode = atoi(argv[2]);
	if (!(l = tl_open(argv[3], &o, &e))) {
		fprintf(stderr, "instructions: %s\n", e.msg);
		return 1;
	}
	if (mode == 2)
		tl_set_rate(l, TL_RATE_OFF);
	for (int i = 0; i < n; i++) {
		if (mode == 0)
			tl_append(l, 1, i, i, i, i, i, i);
		else if (mode == 1)
			tl_append_c(l, 1, i, i, i, i, i, i);
		else if (mode == 2)
			tl_event(l, tl_event_code(1, 5), i, i, i, i, i, i);
		else
			tl_breath(l);
	}
	tl_close(l);
	return 0;
}
