/* svg.c: axes, ticks and escaped text for the report's inline SVG. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "out.h"
#include "svg.h"
#include "table.h"

double scale_at(const struct scale *s, double v)
{
	double f;
	if (s->log)
		f = v > 0 ? (log10(v) - log10(s->d0)) / (log10(s->d1) - log10(s->d0)) : 0;
	else
		f = s->d1 != s->d0 ? (v - s->d0) / (s->d1 - s->d0) : 0;
	if (!(f > 0))
		f = 0;
	if (f > 1)
		f = 1;
	return s->r0 + f * (s->r1 - s->r0);
}

/* The nice step for RANGE in about N steps: 1, 2 or 5 times a power of 10. */
static double nice_step(double range, double n)
{
	double raw = range / n, p = pow(10, floor(log10(raw))), m = raw / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* The number of ticks S has room for: one every 90 px or so, 3 at least. */
static double room(const struct scale *s)
{
	double n = fabs(s->r1 - s->r0) / 90;
	return n < 3 ? 3 : n;
}

void scale_nice(struct scale *s)
{
	if (s->log) {
		if (!(s->d0 > 0))
			s->d0 = s->d1 > 0 ? s->d1 / 10 : 1;
		if (!(s->d1 > s->d0))
			s->d1 = s->d0 * 10;
		s->d0 = pow(10, floor(log10(s->d0) + 1e-9));
		s->d1 = pow(10, ceil(log10(s->d1) - 1e-9));
		if (s->d1 <= s->d0)
			s->d1 = s->d0 * 10;
		return;
	}
	if (s->d0 > 0)
		s->d0 = 0;
	if (!(s->d1 > s->d0))
		s->d1 = s->d0 + 1;
	{
		double step = nice_step(s->d1 - s->d0, room(s));
		s->d1 = ceil(s->d1 / step - 1e-9) * step;
	}
}

size_t scale_ticks(const struct scale *s, double *t, size_t max)
{
	size_t n = 0;
	if (s->log) {
		int few = log10(s->d1 / s->d0) < 3;
		for (double p = s->d0; p <= s->d1 * (1 + 1e-9) && n < max; p *= 10) {
			t[n++] = p;
			if (few && p * 2 <= s->d1 && n < max)
				t[n++] = p * 2;
			if (few && p * 5 <= s->d1 && n < max)
				t[n++] = p * 5;
		}
		return n;
	}
	{
		double step = nice_step(s->d1 - s->d0, room(s));
		for (double v = ceil(s->d0 / step - 1e-9) * step; v <= s->d1 + step * 1e-9 && n < max;
		     v += step)
			t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	}
	return n;
}

void svg_num(char *buf, size_t size, double v)
{
	double a = fabs(v);
	if (a >= 1e9)
		snprintf(buf, size, "%gG", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, size, "%gM", v / 1e6);
	else if (a >= 1e4)
		snprintf(buf, size, "%gk", v / 1e3);
	else
		snprintf(buf, size, "%g", v);
}

void svg_val(char *buf, size_t size, double v)
{
	cell_num(buf, size, v);
}

void svg_printf(const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n > 0)
		out_bytes(buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

void svg_text(const char *s)
{
	for (; *s; s++) {
		size_t n = strcspn(s, "&<>\"'");
		out_bytes(s, n);
		s += n;
		if (!*s)
			break;
		out_str(*s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" :
			*s == '"' ? "&quot;" : "&#39;");
	}
}
