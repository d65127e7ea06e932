/* gaps.c: what the machine takes from a program that never stops: the gaps
 * in a bare RDTSC loop, by size, with no log and no library. The floor under
 * any flight-recorder threshold (`timeline arm --slower-than`): a breath
 * slower than the machine's own gaps is not always the program's doing.
 * `gaps [SECONDS [CPU]]` (default 10 s, on the CPU it starts on). */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

static const double bound_us[] = { 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000 };
#define NB (sizeof bound_us / sizeof bound_us[0])

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 10, w0, hz;
	uint64_t count[NB] = { 0 }, limit[NB], t0, prev, end, maxgap = 0, spent = 0;
	if (!(secs > 0 && secs <= 3600))
		return fprintf(stderr, "gaps: SECONDS takes 0 to 3600\n"), 2;
	if (argc > 2) {
		cpu_set_t s;
		CPU_ZERO(&s);
		CPU_SET(atoi(argv[2]), &s);
		if (sched_setaffinity(0, sizeof s, &s))
			return perror("gaps: CPU"), 2;
	}
	/* the TSC's rate, from 0.2 s against CLOCK_MONOTONIC */
	w0 = now_s();
	t0 = __rdtsc();
	while (now_s() - w0 < 0.2)
		;
	hz = (double)(__rdtsc() - t0) / (now_s() - w0);
	for (unsigned i = 0; i < NB; i++)
		limit[i] = (uint64_t)(bound_us[i] * 1e-6 * hz);
	t0 = prev = __rdtsc();
	end = t0 + (uint64_t)(secs * hz);
	while (prev < end) {
		uint64_t t = __rdtsc(), g = t - prev;
		if (__builtin_expect(g > limit[0], 0)) {
			for (unsigned i = 0; i < NB && g > limit[i]; i++)
				count[i]++;
			if (g > maxgap)
				maxgap = g;
			spent += g;
		}
		prev = t;
	}
	printf("gaps in a bare RDTSC loop, %.0f s, TSC %.3f GHz\n", secs, hz / 1e9);
	printf("%-10s %10s %10s\n", "longer than", "gaps", "per second");
	for (unsigned i = 0; i < NB; i++)
		printf("%7g us %10llu %10.1f\n", bound_us[i], (unsigned long long)count[i],
		       count[i] / secs);
	printf("the longest %.1f us; gaps over 10 us took %.2f%% of the time\n",
	       maxgap / hz * 1e6, 100.0 * spent / (secs * hz));
	return 0;
}
