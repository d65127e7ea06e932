/* svg.h: what the report's charts are drawn with: axes mapping data onto
 * pixels (linear or log), their "nice" ticks and labels, and text written
 * into out.h's buffer, escaped for HTML and SVG. */
#ifndef TL_SVG_H
#define TL_SVG_H
#include <stddef.h>

/* An axis: data D0..D1 onto pixels R0..R1, linearly or (LOG) by log10. */
struct scale {
	double d0, d1, r0, r1;
	int log;
};

/* The pixel of V on S (values outside the data range are clamped; on a
 * log axis, values <= 0 go to D0). */
double scale_at(const struct scale *s, double v);

/* Widens S's data range to whole ticks: a linear axis from 0 (or its
 * lower end, if negative) to a nice number, a log axis to powers of 10. */
void scale_nice(struct scale *s);

/* The ticks of S, at most MAX of them, into T: multiples of 1, 2 or 5
 * times a power of 10 (linear), or powers of 10, with 2 and 5 times them
 * when S spans less than three decades (log). Returns how many. */
size_t scale_ticks(const struct scale *s, double *t, size_t max);

/* A tick label for V: "0", "0.25", "40", "2500", "25k", "1.5M". */
void svg_num(char *buf, size_t size, double v);

/* A value for a tooltip: whole numbers whole, others to 4 significant
 * digits (as `stats` prints them in text). */
void svg_val(char *buf, size_t size, double v);

/* Writes formatted text, and text escaped for HTML (& < > " '). */
void svg_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void svg_text(const char *s);
#endif
