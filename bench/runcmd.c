/* runcmd.c: runs a command REPS times with stdout to /dev/null and prints
 * the median wall time in seconds, the largest peak RSS in KiB and the
 * median CPU time (user + system) in seconds, from wait4()'s rusage.
 * Usage: runcmd REPS CMD [ARGS...]. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int reps = argc > 2 ? atoi(argv[1]) : 0;
	double t[64], cpu[64];
	long rss = 0;
	if (reps < 1 || reps > 64) {
		fprintf(stderr, "usage: runcmd REPS CMD [ARGS...]\n");
		return 2;
	}
	for (int r = 0; r < reps; r++) {
		struct timespec a, b;
		struct rusage ru;
		int st;
		pid_t pid;
		clock_gettime(CLOCK_MONOTONIC, &a);
		if ((pid = fork()) == 0) {
			int null = open("/dev/null", O_WRONLY);
			dup2(null, 1);
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		wait4(pid, &st, 0, &ru);
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "runcmd: %s failed\n", argv[2]);
			return 1;
		}
		t[r] = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
		cpu[r] = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
			 (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
		if (ru.ru_maxrss > rss)
			rss = ru.ru_maxrss;
	}
	qsort(t, (size_t)reps, sizeof t[0], cmp);
	qsort(cpu, (size_t)reps, sizeof cpu[0], cmp);
	printf("%.6f %ld %.6f\n", t[reps / 2], rss, cpu[reps / 2]);
	return 0;
}
