/* error.h: filling a tl_error. Internal to lib/. */
#ifndef TL_ERROR_H
#define TL_ERROR_H
#include "timeline.h"

/* Fills ERR (if not NULL) with CODE, SYS_ERRNO and the printf-style message;
 * a nonzero SYS_ERRNO appends ": strerror(errno)". Returns CODE. */
int tl_fail(tl_error *err, int code, int sys_errno, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Clears ERR (if not NULL) to TL_OK. */
void tl_ok(tl_error *err);
#endif
