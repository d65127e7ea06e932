/* proc.c: what /proc says of a process: when it started, and whether the
 * process that wrote a log still runs (tl_pid_alive). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "proc.h"
#include "timeline.h"

/* Reads /proc/PID/stat into BUF of SIZE, NUL-terminated; 0 or -1. */
static int read_stat(uint32_t pid, char *buf, size_t size)
{
	char path[32];
	ssize_t n;
	int fd;
	snprintf(path, sizeof path, "/proc/%u/stat", (unsigned)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

uint64_t tl_start_ticks(uint32_t pid, int *zombie)
{
	char buf[2048], *p, *end;
	uint64_t v;
	if (zombie)
		*zombie = 0;
	if (read_stat(pid, buf, sizeof buf) != 0)
		return 0;
	/* "pid (comm) state f4 ... f22 ...": comm may hold spaces and ')' */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return 0;
	p += 2;   /* field 3, the state */
	if (zombie)
		*zombie = *p == 'Z' || *p == 'X';
	for (int field = 3; field < 22; field++) {
		p = strchr(p, ' ');
		if (!p)
			return 0;
		p++;
	}
	errno = 0;
	v = strtoull(p, &end, 10);
	if (end == p || errno || (*end != ' ' && *end != '\n' && *end != '\0'))
		return 0;
	return v;
}

int tl_pid_alive(uint32_t pid, uint64_t start_ticks)
{
	uint64_t now;
	int zombie;
	if (pid == 0 || pid > INT_MAX)
		return TL_GONE;
	if (kill((pid_t)pid, 0) != 0 && errno != EPERM)
		return TL_GONE;
	now = tl_start_ticks(pid, &zombie);
	if (now && zombie)
		return TL_GONE;   /* exited, waiting for its parent: it writes nothing more */
	if (!start_ticks || !now)
		return TL_PID_RUNNING;   /* no start time to compare: the pid alone */
	return now == start_ticks ? TL_RUNNING : TL_GONE;
}
