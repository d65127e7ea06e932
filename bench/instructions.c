/* instructions.c: N calls of one logger entry point, for counting
 * instructions per call with callgrind (bench/callgrind.sh): the manual
 * clock keeps valgrind away from RDTSC/RDPID, so counts are exact and
 * repeatable. Usage: instructions N MODE (0 tl_append, 1 tl_append_c,
 * 2 tl_event with the rate off, 3 tl_breath, 4 tl_append on the path of
 * the rseq clock, 5 tl_append_c on it, 6 tl_event with the rate on and
 * the event switched off, 7 tl_append of an event on while another of its
 * switch word is off, on the rseq path).
 *
 * Valgrind does not let glibc register rseq, so tl_open() never picks the
 * rseq clock under it; modes 4 and 5 set the header's clock byte and rseq
 * offset by hand. glibc's area is still there in the thread's control
 * block (never written by the kernel here), so the loads read it safely,
 * and valgrind emulates RDTSC: the count is the path's. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include "timeline.h"
#include "format.h"
#if defined(__GLIBC__) && defined(__has_include)
#if __has_include(<sys/rseq.h>)
#include <sys/rseq.h>
#define HAVE_RSEQ_OFFSET 1
#endif
#endif

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
	if (mode == 4 || mode == 5) {
#ifdef HAVE_RSEQ_OFFSET
		struct tl_header *h = (struct tl_header *)l;
		h->rseq_offset = (int64_t)__rseq_offset;
		h->clock = TL_CLOCK_RDTSC_RSEQ;
#else
		fprintf(stderr, "instructions: no <sys/rseq.h>\n");
		return 1;
#endif
	}
	if (mode == 6 || mode == 7)   /* message id 8 off (word 0, bit 2) */
		((struct tl_header *)l)->switches[0] |= 1ull << 2;
	if (mode == 6) {
		for (int i = 0; i < n; i++)
			tl_event(l, tl_event_code(8, 5), i, i, i, i, i, i);
		tl_close(l);
		return 0;
	}
	if (mode == 7) {
#ifdef HAVE_RSEQ_OFFSET
		struct tl_header *h = (struct tl_header *)l;
		h->rseq_offset = (int64_t)__rseq_offset;
		h->clock = TL_CLOCK_RDTSC_RSEQ;
#endif
		mode = 0;
	}
	if (mode >= 4)
		mode -= 4;   /* the same loops: only the header differs */
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
