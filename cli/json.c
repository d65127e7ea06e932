/* json.c: the JSON writer (see json.h; its per-field fast paths are inline
 * there) and the escaping of JSON strings, also behind out_json(). Each call
 * reserves room in out.c's buffer once and writes separator and value. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"

/* Bytes of a string escaped per reservation: 6 output bytes at most each. */
#define CHUNK 4096

/* Does any of the 8 bytes of X need escaping: below 0x20, '"' or '\\'? */
static inline int special8(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
	return (((x - ones * 0x20) | (q - ones) | (b - ones)) & ~x & highs) != 0;
}

/* S (N bytes) escaped at P: quote and backslash escaped, \n and \t as such,
 * the other control characters as \u00XX; all else (UTF-8 too) as is.
 * Eight bytes at a time while none needs escaping. */
static char *escape(char *p, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0;
	while (i < n) {
		unsigned char c;
		uint64_t x;
		if (i + 8 <= n) {
			memcpy(&x, s + i, 8);
			if (!special8(x)) {
				memcpy(p, &x, 8);
				p += 8;
				i += 8;
				continue;
			}
		}
		c = (unsigned char)s[i++];
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

/* The separator, then S quoted and escaped, then COLON if nonzero. */
static void quoted(struct json *j, const char *s, char colon)
{
	size_t n = strlen(s), k = n < CHUNK ? n : CHUNK;
	char *p = json_sep(j, out_reserve(2 + 1 + 6 * k + 2));
	*p++ = '"';
	for (;;) {
		p = escape(p, s, k);
		s += k;
		n -= k;
		if (!n)
			break;
		out_commit(p);   /* a long string: the next piece */
		k = n < CHUNK ? n : CHUNK;
		p = out_reserve(6 * k + 2);
	}
	*p++ = '"';
	*p = colon;
	out_commit(p + (colon != 0));
}

static void begin(struct json *j, char open, int lines)
{
	uint64_t bit;
	json_raw(j, &open, 1);
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
	quoted(j, k, ':');
	j->keyed = 1;
}

void json_string(struct json *j, const char *s)
{
	quoted(j, s, 0);
}

void json_int(struct json *j, int64_t v)
{
	char *p = json_sep(j, out_reserve(2 + 21));
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
		json_raw(j, "null", 4);
		return;
	}
	n = snprintf(tmp, sizeof tmp, "%.17g", d);
	json_raw(j, tmp, (size_t)n);
}

void json_bool(struct json *j, int b)
{
	if (b)
		json_raw(j, "true", 4);
	else
		json_raw(j, "false", 5);
}

void json_null(struct json *j)
{
	json_raw(j, "null", 4);
}

void out_json(const char *s)
{
	struct json j = JSON_INIT;
	json_string(&j, s);
}
