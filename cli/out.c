/* out.c: a 256 KiB output buffer in front of stdout, with the formatting the
 * reading commands need per entry (millions of lines per second). */
#include <csv.h>
#include <stdio.h>
#include <string.h>
#include "out.h"

char out_buf[OUT_SIZE];
size_t out_len;

void out_flush(void)
{
	if (out_len && fwrite(out_buf, 1, out_len, stdout) != out_len) {
		/* stdout's error flag is set; cli_finish() reports it */
	}
	out_len = 0;
}

const char tl_digits2[200] =
	"0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
	"5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

void out_bytes(const char *s, size_t n)
{
	if (n > sizeof out_buf / 2) {
		out_flush();
		fwrite(s, 1, n, stdout);
		return;
	}
	memcpy(out_reserve(n), s, n);
	out_len += n;
}

void out_str(const char *s)
{
	out_bytes(s, strlen(s));
}

void out_char(char c)
{
	*out_reserve(1) = c;
	out_len++;
}

void out_u64(uint64_t v)
{
	char tmp[20], *p = tmp + sizeof tmp;
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	out_bytes(p, (size_t)(tmp + sizeof tmp - p));
}

void out_i64(int64_t v)
{
	if (v < 0) {
		out_char('-');
		out_u64((uint64_t)0 - (uint64_t)v);
	} else {
		out_u64((uint64_t)v);
	}
}

void out_pad(uint64_t v, int width)
{
	char tmp[24];
	int n = 0;
	do
		tmp[n++] = (char)('0' + v % 10);
	while (v /= 10);
	for (int i = n; i < width; i++)
		out_char(' ');
	while (n)
		out_char(tmp[--n]);
}

void out_double(double d)
{
	char tmp[40];
	int n = snprintf(tmp, sizeof tmp, "%.17g", d);
	out_bytes(tmp, (size_t)n);
}

void out_csv(const char *s)
{
	size_t n = strlen(s);
	char *p = out_reserve(2 * n + 2);
	out_len += csv_write(p, 2 * n + 2, s, n);
}
