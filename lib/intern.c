/* intern.c: the string table of a log being written: each distinct string
 * stored once, 128-byte aligned (so that each has the two bits of an
 * event switch of its own, lib/format.h), its message id = offset / 16. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "format.h"
#include "lane.h"
#include "rules.h"

static size_t round16(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

/* Offset of S (LEN bytes) among the first USED bytes of TABLE, or -1. */
static long find(const char *table, uint32_t used, const char *s, size_t len)
{
	uint32_t off = 0;
	while (off < used) {
		size_t n = strnlen(table + off, used - off);
		if (n == len && memcmp(table + off, s, len) == 0)
			return off;
		off += (uint32_t)round16(n + 1);
	}
	return -1;
}

/* The first line of S, for error messages. */
static int line_len(const char *s)
{
	const char *nl = strchr(s, '\n');
	size_t n = nl ? (size_t)(nl - s) : strlen(s);
	return n > 80 ? 80 : (int)n;
}

/* tl_intern()'s work, under the writers' lock. */
static int intern(tl_log *log, const char *s, uint16_t *id, tl_error *err)
{
	struct tl_header *h = (struct tl_header *)log;
	char *table;
	size_t len = strlen(s), need = round16(len + 1);
	uint32_t used, start;
	long off;

	*id = 0;
	tl_ok(err);
	if (h->disabled)
		return TL_OK;
	if (len == 0)
		return tl_fail(err, TL_E_INVAL, 0, "%s: cannot intern an empty string", h->path);
	table = (char *)h + h->strings_offset;
	used = h->strings_used;
	off = find(table, used, s, len);
	if (off >= 0) {
		*id = (uint16_t)(off / 16);
		return TL_OK;
	}
	start = (used + TL_STRING_ALIGN - 1) & ~(uint32_t)(TL_STRING_ALIGN - 1);   /* zeros between */
	if (start > h->strings_bytes || need > h->strings_bytes - start)
		return tl_fail(err, TL_E_FULL, 0,
			       "%s: string table full (%u of %llu bytes used), cannot add '%.*s'",
			       h->path, used, (unsigned long long)h->strings_bytes, line_len(s), s);
	/* copy the string, then publish it by moving strings_used */
	memcpy(table + start, s, len + 1);
	__atomic_store_n(&h->strings_used, start + (uint32_t)need, __ATOMIC_RELEASE);
	*id = (uint16_t)(start / 16);
	tl_rules_register(h);   /* a new event: the rules set in advance */
	return TL_OK;
}

int tl_intern(tl_log *log, const char *s, uint16_t *id, tl_error *err)
{
	int rc;
	if (((struct tl_header *)log)->disabled) {
		*id = 0;
		tl_ok(err);
		return TL_OK;
	}
	/* threads of one log register events at once: one table, one writer */
	tl_writer_lock();
	rc = intern(log, s, id, err);
	tl_writer_unlock();
	return rc;
}

/* DEF with " ATTRS" inserted before its first ':', in a new string. */
static char *with_attrs(const char *def, const char *attrs)
{
	const char *colon = strchr(def, ':');
	size_t head, alen = strlen(attrs), len = strlen(def);
	char *s;
	if (!colon)
		return NULL;
	head = (size_t)(colon - def);
	s = malloc(len + alen + 2);
	if (!s)
		return NULL;
	memcpy(s, def, head);
	s[head] = ' ';
	memcpy(s + head + 1, attrs, alen);
	memcpy(s + head + 1 + alen, def + head, len - head + 1);
	return s;
}

int tl_register(tl_log *log, const char *const *defs, size_t n, const char *attrs,
		uint16_t *ids, tl_error *err)
{
	int rc = TL_OK;
	tl_ok(err);
	if (attrs && !*attrs)
		attrs = NULL;
	if (attrs && strpbrk(attrs, ":\n"))
		return tl_fail(err, TL_E_INVAL, 0, "attributes '%s' contain ':' or a newline", attrs);
	for (size_t i = 0; i < n; i++)
		if (!strchr(defs[i], ':'))
			return tl_fail(err, TL_E_INVAL, 0, "definition '%.*s' has no ':'",
				       line_len(defs[i]), defs[i]);
	for (size_t i = 0; i < n && rc == TL_OK; i++) {
		char *s = attrs ? with_attrs(defs[i], attrs) : NULL;
		if (attrs && !s)
			return tl_fail(err, TL_E_NOMEM, ENOMEM, "%s: cannot register '%.*s'",
				       ((struct tl_header *)log)->path, line_len(defs[i]), defs[i]);
		rc = tl_intern(log, s ? s : defs[i], &ids[i], err);
		free(s);
	}
	return rc;
}
