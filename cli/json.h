/* json.h: the CLI's one JSON writer: objects, arrays, keys, escaped strings,
 * numbers, booleans and null, written into out.h's buffer. It places the
 * commas; values at depth 0 are separate documents (JSON lines). */
#ifndef TL_JSON_H
#define TL_JSON_H
#include <stdint.h>

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
void json_uint(struct json *j, uint64_t v);
void json_double(struct json *j, double d);        /* %.17g; NaN and infinities: null */
void json_bool(struct json *j, int b);
void json_null(struct json *j);
/* A number the caller formatted (TEXT must be valid JSON number syntax). */
void json_number(struct json *j, const char *text);
#endif
