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

/* Decimal digits of V: from its bit length (log10(2) ~ 1233 / 4096), then
 * one comparison with a power of ten. */
static inline int digits10(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
		10000000000000ull, 100000000000000ull, 1000000000000000ull,
		10000000000000000ull, 100000000000000000ull, 1000000000000000000ull,
		10000000000000000000ull,
	};
	int t = ((64 - __builtin_clzll(v | 1)) * 1233) >> 12;   /* floor(log10 V) or one more */
	return t - ((v | 1) < pow10[t]) + 1;
}

/* The two digits of D (below 100) at P. */
static inline void put2(char *p, unsigned d)
{
	__builtin_memcpy(p, tl_digits2 + 2 * d, 2);
}

/* Exactly four digits of G (below 10000), zeros leading, at P. */
static inline void put4(char *p, unsigned g)
{
	unsigned a = g / 100;
	put2(p, a);
	put2(p + 2, g - a * 100);
}

/* Exactly eight digits of V (below 10^8) at P: two groups of four, whose
 * divisions do not wait for each other. */
static inline void put8(char *p, uint32_t v)
{
	uint32_t a = v / 10000;
	put4(p, a);
	put4(p + 4, v - a * 10000);
}

/* G (below 10000) in as many digits as it has; returns the end. */
static inline char *put_upto4(char *p, unsigned g)
{
	unsigned a;
	if (g < 10) {
		*p = (char)('0' + g);
		return p + 1;
	}
	if (g < 100) {
		put2(p, g);
		return p + 2;
	}
	a = g / 100;
	if (g < 1000) {
		*p = (char)('0' + a);
		put2(p + 1, g - a * 100);
		return p + 3;
	}
	put2(p, a);
	put2(p + 2, g - a * 100);
	return p + 4;
}

/* V (below 10^8) in as many digits as it has; returns the end. */
static inline char *put_upto8(char *p, uint32_t v)
{
	uint32_t a;
	if (v < 10000)
		return put_upto4(p, v);
	a = v / 10000;
	p = put_upto4(p, a);
	put4(p, v - a * 10000);
	return p + 4;
}

/* Writes V in decimal at P, in groups of four and eight digits taken with
 * 32-bit arithmetic, two digits per table lookup (no loop the compiler
 * could turn into a memcpy call); returns the end. */
static inline char *put_u64(char *p, uint64_t v)
{
	uint64_t hi;
	if (v < 100000000)
		return put_upto8(p, (uint32_t)v);
	hi = v / 100000000;
	if (hi < 100000000) {
		p = put_upto8(p, (uint32_t)hi);
	} else {
		p = put_upto4(p, (unsigned)(hi / 100000000));   /* below 1845 */
		put8(p, (uint32_t)(hi % 100000000));
		p += 8;
	}
	put8(p, (uint32_t)(v - hi * 100000000));
	return p + 8;
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
