/* json.c: the JSON writer (see json.h) and the escaping of JSON strings,
 * also behind out_json(). Each call reserves room in out.c's buffer once
 * and writes the separator and the value there. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"
#include "out.h"

/* Bytes of a string escaped per reservation: 6 output bytes at most each. */
#define CHUNK 4096

/* Writes the separator an item needs at P: none after a key or at depth 0,
 * else a comma after the first item (and a line break in a lines array). */
static inline char *sep(struct json *j, char *p)
{
	uint64_t bit = 1ull << j->depth;
	if (j->keyed) {
		j->keyed = 0;
		return p;
	}
	if (!j->depth)
		return p;
	if (j->more & bit)
		*p++ = ',';
	if (j->lines & bit)
		*p++ = '\n';
	j->more |= bit;
	return p;
}

/* S (N bytes) escaped at P: quote and backslash escaped, \n and \t as such,
 * the other control characters as \u00XX; all else (UTF-8 too) as is. */
static char *escape(char *p, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\') {
			*p++ = (char)c;
			continue;
		}
		*p++ = '\\';
		if (c == '"' || c == '\\') {
			*p++ = (char)c;
		} else if (c == '\n') {
			*p++ = 'n';
		} else if (c == '\t') {
			*p++ = 't';
		} else {
			memcpy(p, "u00", 3);
			p[3] = hex[c >> 4];
			p[4] = hex[c & 15];
			p += 5;
		}
	}
	return p;
}

/* The separator, then S quoted and escaped, then TAIL (a ':' or nothing). */
static void quoted(struct json *j, const char *s, const char *tail)
{
	size_t n = strlen(s), k = n < CHUNK ? n : CHUNK, tl = strlen(tail);
	char *p = out_reserve(2 + 1 + 6 * k + 1 + tl);
	p = sep(j, p);
	*p++ = '"';
	for (;;) {
		p = escape(p, s, k);
		s += k;
		n -= k;
		if (!n)
			break;
		out_commit(p);   /* a long string: the next piece */
		k = n < CHUNK ? n : CHUNK;
		p = out_reserve(6 * k + 1 + tl);
	}
	*p++ = '"';
	memcpy(p, tail, tl);
	out_commit(p + tl);
}

/* The separator, then the N bytes of TEXT as they are. */
static void raw(struct json *j, const char *text, size_t n)
{
	char *p = out_reserve(2 + n);
	p = sep(j, p);
	memcpy(p, text, n);
	out_commit(p + n);
}

static void begin(struct json *j, char open, int lines)
{
	uint64_t bit;
	raw(j, &open, 1);
	if (++j->depth > 63)
		abort();   /* deeper than any document of ours */
	bit = 1ull << j->depth;
	j->more &= ~bit;
	j->lines = lines ? j->lines | bit : j->lines & ~bit;
}

static void end(struct json *j, char close)
{
	char *p = out_reserve(2);
	if (j->lines & (1ull << j->depth))
		*p++ = '\n';
	*p++ = close;
	out_commit(p);
	j->depth--;
}

void json_begin_object(struct json *j)
{
	begin(j, '{', 0);
}

void json_end_object(struct json *j)
{
	end(j, '}');
}

void json_begin_array(struct json *j)
{
	begin(j, '[', 0);
}

void json_begin_lines(struct json *j)
{
	begin(j, '[', 1);
}

void json_end_array(struct json *j)
{
	end(j, ']');
}

void json_key(struct json *j, const char *k)
{
	quoted(j, k, ":");
	j->keyed = 1;
}

void json_string(struct json *j, const char *s)
{
	quoted(j, s, "");
}

void json_uint(struct json *j, uint64_t v)
{
	char *p = out_reserve(2 + 20);
	p = sep(j, p);
	out_commit(put_u64(p, v));
}

void json_int(struct json *j, int64_t v)
{
	char *p = out_reserve(2 + 21);
	p = sep(j, p);
	if (v < 0) {
		*p++ = '-';
		out_commit(put_u64(p, (uint64_t)0 - (uint64_t)v));
	} else {
		out_commit(put_u64(p, (uint64_t)v));
	}
}

void json_double(struct json *j, double d)
{
	char tmp[40];
	int n;
	if (!isfinite(d)) {
		raw(j, "null", 4);
		return;
	}
	n = snprintf(tmp, sizeof tmp, "%.17g", d);
	raw(j, tmp, (size_t)n);
}

void json_bool(struct json *j, int b)
{
	if (b)
		raw(j, "true", 4);
	else
		raw(j, "false", 5);
}

void json_null(struct json *j)
{
	raw(j, "null", 4);
}

void json_number(struct json *j, const char *text)
{
	raw(j, text, strlen(text));
}

void out_json(const char *s)
{
	struct json j = JSON_INIT;
	json_string(&j, s);
}
