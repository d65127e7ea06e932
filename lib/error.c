/* error.c: status codes, their names, and one-line error messages. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "error.h"

const char *tl_strerror(int code)
{
	switch (code) {
	case TL_OK: return "success";
	case TL_E_SYS: return "system call failed";
	case TL_E_INVAL: return "invalid argument";
	case TL_E_FULL: return "string table full";
	case TL_E_SYMLINK: return "refusing to follow a symbolic link";
	case TL_E_UNSAFE: return "unsafe owner or permissions";
	case TL_E_FORMAT: return "not a timeline log, or damaged";
	case TL_E_VERSION: return "unsupported format version";
	case TL_E_PARSE: return "events syntax error";
	case TL_E_FBIG: return "file size limit exceeded";
	case TL_E_NOMEM: return "out of memory";
	case TL_E_EXISTS: return "a log of this process is there already";
	}
	return "unknown error";
}

int tl_fail(tl_error *err, int code, int sys_errno, const char *fmt, ...)
{
	va_list ap;
	size_t n;
	if (!err)
		return code;
	err->code = code;
	err->sys_errno = sys_errno;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	n = strlen(err->msg);
	if (sys_errno && n < sizeof err->msg)
		snprintf(err->msg + n, sizeof err->msg - n, ": %s", strerror(sys_errno));
	return code;
}

void tl_ok(tl_error *err)
{
	if (err) {
		err->code = TL_OK;
		err->sys_errno = 0;
		err->msg[0] = '\0';
	}
}
