/* proc.h: what /proc says of a process. Internal to lib/. */
#ifndef TL_PROC_H
#define TL_PROC_H
#include <stdint.h>

/* When process PID started: field 22 of /proc/PID/stat, clock ticks
 * (sysconf(_SC_CLK_TCK)) after boot; 0 when /proc does not say. With
 * ZOMBIE not NULL, *ZOMBIE gets 1 when the process has exited but is not
 * yet reaped (state Z or X), else 0. */
uint64_t tl_start_ticks(uint32_t pid, int *zombie);
#endif
