/* out.h: buffered output for the reading commands: numbers without printf,
 * CSV fields quoted by libcsv (JSON: json.h). Write errors (a full disk, a
 * closed pipe) are remembered and reported by cli_finish(). */
#ifndef TL_OUT_H
#define TL_OUT_H
#include <stddef.h>
#include <stdint.h>

void out_bytes(const char *s, size_t n);
void out_str(const char *s);
void out_char(char c);
void out_u64(uint64_t v);
void out_i64(int64_t v);
void out_double(double d);           /* %.17g: round-trips */
void out_csv(const char *s);          /* one CSV field, quoted when needed */
void out_json(const char *s);         /* a JSON string with its quotes (json.c) */
void out_pad(uint64_t v, int width);  /* v right-aligned in WIDTH columns */
void out_flush(void);

/* The buffer, for the inline fast path below. */
#define OUT_SIZE (1 << 18)
extern char out_buf[OUT_SIZE];
extern size_t out_len;

/* The fast path for a whole line: reserve room for N bytes (N at most
 * OUT_SIZE / 2), write with the put_* helpers, then commit the end pointer. */
static inline char *out_reserve(size_t n)
{
	if (out_len + n > OUT_SIZE)
		out_flush();
	return out_buf + out_len;
}

static inline void out_commit(char *end)
{
	out_len = (size_t)(end - out_buf);
}

extern const char tl_digits2[200];   /* "000102...99" */

/* Decimal digits of V. */
static inline int digits10(uint64_t v)
{
	int n = 1;
	for (; v >= 10000; v /= 10000)
		n += 4;
	if (v >= 100) {
		n += 2;
		v /= 100;
	}
	return n + (v >= 10);
}

/* Writes V in decimal at P, two digits at a time from the end, in place (no
 * loop the compiler could turn into a memcpy call); returns the end. */
static inline char *put_u64(char *p, uint64_t v)
{
	char *e = p + digits10(v), *q = e;
	while (v >= 100) {
		unsigned d = (unsigned)(v % 100) * 2;
		v /= 100;
		*--q = tl_digits2[d + 1];
		*--q = tl_digits2[d];
	}
	if (v >= 10) {
		*--q = tl_digits2[v * 2 + 1];
		*--q = tl_digits2[v * 2];
	} else {
		*--q = (char)('0' + v);
	}
	return e;
}

/* V right-aligned in WIDTH (at most 24) columns; needs 24 bytes of room. */
static inline char *put_pad(char *p, uint64_t v, int width)
{
	int n = digits10(v);
	if (n < width) {
		__builtin_memcpy(p, "                        ", 24);   /* a fixed-size copy */
		p += width - n;
	}
	return put_u64(p, v);
}

static inline char *put_str(char *p, const char *s, size_t n)
{
	__builtin_memcpy(p, s, n);
	return p + n;
}

/* Like put_str for a string in an array of at least 32 bytes: short strings
 * are copied as one 32-byte block (the extra bytes are overwritten next). */
static inline char *put_field(char *p, const char *s, size_t n)
{
	if (n <= 32) {
		__builtin_memcpy(p, s, 32);
		return p + n;
	}
	return put_str(p, s, n);
}
#endif
