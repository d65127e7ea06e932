/* json.h: the CLI's one JSON writer: objects, arrays, keys, escaped strings,
 * numbers, booleans and null, written into out.h's buffer. It places the
 * commas; values at depth 0 are separate documents (JSON lines). */
#ifndef TL_JSON_H
#define TL_JSON_H
#include <stdint.h>
#include <string.h>
#include "out.h"

/* A document being written; start from JSON_INIT. */
struct json {
	unsigned depth;              /* containers open (at most 63) */
	uint64_t more;               /* bit D: the container at depth D has an item */
	uint64_t lines;              /* bit D: that array puts each item on its own line */
	int keyed;                   /* a key was written: its value comes next */
};

#define JSON_INIT { 0, 0, 0, 0 }

void json_begin_object(struct json *j);
void json_end_object(struct json *j);
void json_begin_array(struct json *j);
/* An array with each item on a line of its own: "[\nA,\nB\n]". */
void json_begin_lines(struct json *j);
void json_end_array(struct json *j);

/* The key of the next member of an object. */
void json_key(struct json *j, const char *k);

void json_string(struct json *j, const char *s);   /* escaped, with its quotes */
void json_int(struct json *j, int64_t v);
void json_double(struct json *j, double d);        /* %.17g; NaN and infinities: null */
void json_bool(struct json *j, int b);
void json_null(struct json *j);
static inline void json_uint(struct json *j, uint64_t v);
static inline void json_raw(struct json *j, const char *text, size_t n);

/* A key or a string known when compiling, a literal with nothing to escape:
 * the compiler makes its quoted text. */
#define JSON_KEY(j, lit) json_raw_key((j), "\"" lit "\":", sizeof(lit) + 2)
#define JSON_STRING(j, lit) json_raw((j), "\"" lit "\"", sizeof(lit) + 1)

/* A member of an object in one call: the key LIT (as JSON_KEY) and its
 * value, written as json_string(), json_uint() ... would write it. */
#define JSON_KEY_STRING(j, lit, s) (JSON_KEY((j), lit), json_string((j), (s)))
#define JSON_KEY_UINT(j, lit, v) (JSON_KEY((j), lit), json_uint((j), (v)))
#define JSON_KEY_INT(j, lit, v) (JSON_KEY((j), lit), json_int((j), (v)))
#define JSON_KEY_DOUBLE(j, lit, d) (JSON_KEY((j), lit), json_double((j), (d)))
#define JSON_KEY_BOOL(j, lit, b) (JSON_KEY((j), lit), json_bool((j), (b)))
#define JSON_KEY_NULL(j, lit) (JSON_KEY((j), lit), json_null(j))

/* Inline below: what runs for every field of every entry. */

/* Writes the separator the next item needs at P: none after a key or at
 * depth 0, else a comma after the first item, and in a lines array a line
 * break. Returns the end. */
static inline char *json_sep(struct json *j, char *p)
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

/* A value already in JSON syntax, the N bytes of TEXT: a number the caller
 * formatted, a literal's quoted text. */
static inline void json_raw(struct json *j, const char *text, size_t n)
{
	char *p;
	if (n > 4096) {
		out_commit(json_sep(j, out_reserve(2)));
		out_bytes(text, n);
		return;
	}
	p = json_sep(j, out_reserve(2 + n));
	memcpy(p, text, n);
	out_commit(p + n);
}

/* A key already quoted, with its colon (JSON_KEY). */
static inline void json_raw_key(struct json *j, const char *text, size_t n)
{
	json_raw(j, text, n);
	j->keyed = 1;
}

static inline void json_uint(struct json *j, uint64_t v)
{
	char *p = json_sep(j, out_reserve(2 + 20));
	out_commit(put_u64(p, v));
}
#endif
