/* reporthtml.c: `timeline report`'s page: one self-contained HTML file,
 * its charts inline SVG drawn here, its style and its few lines of script
 * inline and allowed by hash in a Content-Security-Policy that forbids
 * every request outside the file. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "out.h"
#include "report.h"
#include "sha256.h"
#include "svg.h"
#include "view.h"

#define W 960                    /* a chart's width, px */

static const char style[] =
	"body{font:14px/1.45 'Liberation Sans',Arial,sans-serif;margin:0;color:#222;background:#fff}"
	"header,main{max-width:1000px;margin:0 auto;padding:0 16px}"
	"h1{font-size:22px;margin:18px 0 2px}"
	"h2{font-size:18px;margin:34px 0 4px;border-bottom:1px solid #ccc;padding-bottom:3px}"
	".about{color:#555;margin:2px 0 10px;max-width:760px}"
	"nav a{margin-right:12px;color:#2a5599}"
	"figure{margin:16px 0}"
	"figcaption{font-weight:600;margin-bottom:4px}"
	"svg.plot{display:block;max-width:100%;height:auto;font:11px 'Liberation Sans',Arial,sans-serif}"
	".grid{stroke:#e8e8e8}.base{stroke:#777}.tick{fill:#555}"
	".axis-label{fill:#222;font-size:12px}.ptitle{fill:#222;font-weight:600}"
	".seg{fill:#fff;font-size:10px}.cap{fill:#444;font-size:10px}"
	".med{stroke:#222;stroke-width:2}.whisk{stroke:#555}.cdf{fill:none;stroke-width:1.2}"
	".p50{stroke-dasharray:4 3;stroke-width:1.5}"
	".line{fill:none;stroke-width:1.3}"
	".clip{fill:#c00}.clip-label{fill:#c00;font-size:10px;font-weight:600}"
	".trig{color:#c00;font-size:12px}.trig-band{fill:#c00;fill-opacity:0.16;pointer-events:none}"
	".trig-line{stroke:#c00;stroke-dasharray:4 3;pointer-events:none}"
	"table{border-collapse:collapse;font-size:12px}"
	"th,td{padding:2px 8px;border-bottom:1px solid #eee;text-align:left;white-space:nowrap}"
	"th{border-bottom:1px solid #999}td.n{text-align:right;font-variant-numeric:tabular-nums}"
	".scroll{overflow-x:auto}.slower{color:#c00;font-weight:700}.faster{color:#070}"
	".nochange{color:#555}.toofew{color:#9a5b00;font-style:italic}"
	".fewsamples{color:#6a3d9a;font-style:italic}"
	".note{color:#555;font-style:italic}"
	".tip{position:absolute;background:#fff;border:1px solid #999;padding:4px 6px;"
	"font:12px 'Liberation Mono',monospace;white-space:pre;pointer-events:none;"
	"box-shadow:0 1px 4px rgba(0,0,0,.25)}";

/* What a page of two sides adds to the style: the letters A and B over
 * the columns of each side, each in its side's colour (SIDE_A, SIDE_B),
 * on the right as the numbers under them; a chart of one side (a process
 * over time) lettered in its caption and edged in its side's colour. */
static const char sides_style[] =
	"th.side-a,th.side-b{text-align:right}th.side-a{color:#4e79a7}th.side-b{color:#e15759}"
	"th[colspan]{text-align:center;border-bottom:1px solid #ccc}"
	"figure.side-a,figure.side-b{border-left:4px solid #4e79a7;padding-left:10px}"
	"figure.side-b{border-left-color:#e15759}"
	"b.side-a{color:#4e79a7}b.side-b{color:#e15759}";

/* Shows the values of the bin under the pointer of an over-time chart,
 * from the JSON block that follows it. */
static const char script[] =
	"(function(){var tip=document.getElementById('tip');"
	"function f(v){return v===null?'-':String(v);}"
	"document.querySelectorAll('svg.timeline').forEach(function(svg){var d=null;"
	"svg.addEventListener('mousemove',function(ev){"
	"if(!d)d=JSON.parse(document.getElementById('d-'+svg.id).textContent);"
	"var p=svg.createSVGPoint();p.x=ev.clientX;p.y=ev.clientY;"
	"var q=p.matrixTransform(svg.getScreenCTM().inverse());"
	"var x=(q.x-d.px[0])/d.px[1];"
	"if(x<0||x>=1){tip.hidden=true;return;}"
	"var l=['time '+(x*d.span).toPrecision(4)+' '+d.xu];"
	"d.p.forEach(function(s){var i=Math.floor(x*s.nb);if(s.q)l.push(s.t+': '+(s.n[i]?'p50 '+f(s.q[2][i])+', 25-75% '+"
	"f(s.q[1][i])+' to '+f(s.q[3][i])+', 5-95% '+f(s.q[0][i])+' to '+f(s.q[4][i])+', n '+s.n[i]"
	":'none'));else l.push(s.t+': '+f(s.v[i])+' '+s.u);});"
	"tip.textContent=l.join('\\n');tip.hidden=false;"
	"tip.style.left=(ev.pageX+14)+'px';tip.style.top=(ev.pageY+14)+'px';});"
	"svg.addEventListener('mouseleave',function(){tip.hidden=true;});});})();";

/* The page's state while it is written. */
static int in_section, nsections;

/* The colours apps are hashed into: Tableau's, without its greys, and
 * without the blue and the red that letter sides A and B (SIDE_A and
 * SIDE_B below), so no app's line reads as a side's. */
#define REPORT_PALETTE 17

/* The color of APP, fixed by its name: the same in every chart of every
 * page, whatever other apps a page has. The high half of the name's FNV-1a
 * hash (its low bits mix poorly) modulo the palette's 17, a prime; two
 * apps may share a colour, but the demo's and Snabb's own apps do not. */
static const char *color_of(const char *app)
{
	static const char *const palette[REPORT_PALETTE] = {
		"#f28e2b", "#59a14f", "#b07aa1", "#9c755f", "#edc948", "#76b7b2",
		"#ff9da7", "#d37295", "#a0cbe8", "#ffbe7d", "#8cd17d", "#b6992d",
		"#499894", "#fabfd2", "#d4a6c8", "#86bcb6", "#d7b5a6",
	};
	if (!strcmp(app, "(no app)") || !strcmp(app, "(unattributed)"))
		return "#c4c4c4";
	if (!strcmp(app, "-"))
		return "#5b5b5b";
	return palette[(an_hash_str(app) >> 32) % REPORT_PALETTE];
}

/* The colours of the sides of a report of two sides, in every chart that
 * shows them apart: A blue, B red; a lighter one of each fills boxes. */
#define SIDE_A "#4e79a7"
#define SIDE_B "#e15759"
#define SIDE_A_FILL "#a9c4e0"
#define SIDE_B_FILL "#f4b4b5"

/* The colour of SIDE ("B": B's, else A's, as a chart of one side draws). */
static const char *side_stroke(const char *side)
{
	return side && !strcmp(side, "B") ? SIDE_B : SIDE_A;
}

/* The side of a row of a chart of two sides, its letter in its colour
 * (not a square: apps have squares), ending at X on the baseline Y. */
static void side_letter(double x, double y, const char *side)
{
	svg_printf("<text class=\"side\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\" "
		   "font-weight=\"700\">%s</text>", x, y, side_stroke(side), side);
}

/* The key of the sides at X, Y (the top of a line): their letters, and
 * what A and B are. */
static void side_key(double x, double y)
{
	for (int k = 0; k < 2; k++) {
		side_letter(x + 150 * k + 9, y + 10, k ? "B" : "A");
		svg_printf("<text x=\"%.1f\" y=\"%.1f\">the --%c inputs</text>", x + 150 * k + 13,
			   y + 10, k ? 'b' : 'a');
	}
	out_char('\n');
}

/* The tops of the N rows of a chart from TOP, each ROW px high into Y,
 * when SIDED (rows of two sides: LABELS say each row's place) the rows of
 * one place closer, those of the next GAP further; returns the bottom. */
static double row_tops(double *y, size_t n, double top, double row, double gap, int sided,
		       const char *(*label)(const void *rows, size_t i), const void *rows)
{
	double at = top;
	for (size_t i = 0; i < n; i++) {
		if (sided && i && strcmp(label(rows, i), label(rows, i - 1)))
			at += gap;
		y[i] = sided ? at : top + (double)i * row;
		at += row;
	}
	return sided ? at : top + (double)n * row;
}

/* ---- page, sections, figures --------------------------------------------- */

static void begin(const struct rp_out *o, const char *title, const char *about, int sides)
{
	char st[64], sc[64], css[sizeof style + sizeof sides_style];
	(void)o;
	in_section = nsections = 0;
	snprintf(css, sizeof css, "%s%s", style, sides ? sides_style : "");
	sha256_csp(css, st, sizeof st);
	sha256_csp(script, sc, sizeof sc);
	svg_printf("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		   "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		   "style-src %s; script-src %s; img-src data:\">\n"
		   "<meta name=\"viewport\" content=\"width=device-width\">\n"
		   "<link rel=\"icon\" href=\"data:,\">\n<title>", st, sc);
	svg_text(title);
	svg_printf("</title>\n<style>%s</style>\n</head>\n<body>\n<header>\n<h1>", css);
	svg_text(title);
	out_str("</h1>\n<p class=\"about\">");
	svg_text(about);
	out_str("</p>\n</header>\n<main>\n");
}

static void section(const struct rp_out *o, const char *id, const char *title, const char *about)
{
	(void)o;
	if (in_section)
		out_str("</section>\n");
	in_section = 1;
	svg_printf("<section id=\"s-%s\" class=\"section\" data-section=\"%s\">\n<h2>%d. ", id, id,
		   ++nsections);
	svg_text(title);
	out_str("</h2>\n<p class=\"about\">");
	svg_text(about);
	out_str("</p>\n");
}

static void end(const struct rp_out *o)
{
	(void)o;
	if (in_section)
		out_str("</section>\n");
	svg_printf("</main>\n<div id=\"tip\" class=\"tip\" hidden></div>\n<script>%s</script>\n"
		   "</body>\n</html>\n", script);
}

static void note(const struct rp_out *o, const char *text)
{
	(void)o;
	out_str("<p class=\"note\">");
	svg_text(text);
	out_str("</p>\n");
}

/* Opens the figure of chart C, an SVG of class CLS, WIDTH x HEIGHT px;
 * a chart of one side of two, SIDE ("A" or "B"; else NULL), edged in its
 * colour, its caption lettered with it and naming its inputs; NOTE (if
 * not NULL) a line in red under the caption. */
static void fig_open_note(const struct rp_chart *c, const char *cls, double height,
			  const char *side, const char *note)
{
	char k = side && !strcmp(side, "B") ? 'b' : 'a';
	if (side)
		svg_printf("<figure class=\"chart side-%c\"><figcaption><b class=\"side-%c\">%s</b> ",
			   k, k, side);
	else
		out_str("<figure class=\"chart\"><figcaption>");
	svg_text(c->title);
	if (side)
		svg_printf("<span class=\"note\">, of the --%c inputs</span>", k);
	if (note) {
		out_str("<br><span class=\"trig\">");
		svg_text(note);
		out_str("</span>");
	}
	svg_printf("</figcaption>\n<svg class=\"plot %s\" id=\"%s\" viewBox=\"0 0 %d %.0f\" "
		   "width=\"%d\" height=\"%.0f\" role=\"img\">\n", cls, c->id, W, height, W, height);
}

static void fig_open_side(const struct rp_chart *c, const char *cls, double height,
			  const char *side)
{
	fig_open_note(c, cls, height, side, NULL);
}

static void fig_open(const struct rp_chart *c, const char *cls, double height)
{
	fig_open_side(c, cls, height, NULL);
}

static void fig_close(void)
{
	out_str("</svg>\n</figure>\n");
}

/* ---- axes ---------------------------------------------------------------- */

/* The x axis S under a plot from TOP to BOTTOM: gridlines, ticks, labels,
 * and LABEL (with its unit) centred below. */
static void axis_x(const struct scale *s, double top, double bottom, const char *label)
{
	double t[40];
	size_t n = scale_ticks(s, t, 40);
	out_str("<g class=\"axis x\">");
	for (size_t i = 0; i < n; i++) {
		char num[32];
		double x = scale_at(s, t[i]);
		svg_num(num, sizeof num, t[i]);
		svg_printf("<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			   "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>",
			   x, top, x, bottom, x, bottom + 14, num);
	}
	svg_printf("<line class=\"base\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
		   s->r0, bottom, s->r1, bottom);
	svg_printf("<text class=\"axis-label num x\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		   (s->r0 + s->r1) / 2, bottom + 32);
	svg_text(label);
	out_str("</text></g>\n");
}

/* The y axis S at X, from LEFT to RIGHT gridlines (none if equal), tick
 * labels on the left (RIGHT_SIDE: on the right), and LABEL (if not NULL)
 * turned along it at LX. */
static void axis_y(const struct scale *s, double left, double right, double x, double lx,
		   const char *label, int right_side)
{
	double t[40];
	size_t n = scale_ticks(s, t, 40);
	out_str("<g class=\"axis y\">");
	for (size_t i = 0; i < n; i++) {
		char num[32];
		double y = scale_at(s, t[i]);
		svg_num(num, sizeof num, t[i]);
		if (right > left)
			svg_printf("<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
				   left, y, right, y);
		svg_printf("<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>",
			   right_side ? x + 5 : x - 5, y + 4, right_side ? "start" : "end", num);
	}
	svg_printf("<line class=\"base\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x,
		   s->r0, x, s->r1);
	if (label) {
		svg_printf("<text class=\"axis-label num y\" transform=\"translate(%.1f %.1f) "
			   "rotate(%d)\" text-anchor=\"middle\">", lx, (s->r0 + s->r1) / 2,
			   right_side ? 90 : -90);
		svg_text(label);
		out_str("</text>");
	}
	out_str("</g>\n");
}

/* A category axis's LABEL over the category labels, at the left edge, Y. */
static void axis_cat(double y, const char *label)
{
	if (!label || !*label)
		return;
	svg_printf("<text class=\"axis-label cat\" x=\"4\" y=\"%.1f\">", y);
	svg_text(label);
	out_str("</text>\n");
}

/* LABEL at X, Y, anchored at its end, cut to its last MAX characters. */
static void cat_label(double x, double y, const char *label, size_t max)
{
	size_t n = strlen(label);
	svg_printf("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", x, y);
	if (n > max) {
		const char *end = label + n - (max - 1);
		while ((*end & 0xc0) == 0x80)   /* not inside a UTF-8 character */
			end++;
		out_str("\xe2\x80\xa6");   /* an ellipsis, then the end: a path's file name */
		svg_text(end);
	} else {
		svg_text(label);
	}
	out_str("<title>");
	svg_text(label);
	out_str("</title></text>");
}

/* The width in px of category labels of at most MAX characters. */
static double label_width(size_t max)
{
	return 12 + 6.2 * (double)max;
}

/* ---- tables -------------------------------------------------------------- */

/* The class of a verdict's cell (timeline(1), report): each verdict of
 * diff its own colour; NULL for a word that is no verdict. */
static const char *verdict_class(const char *s)
{
	static const char *const v[][2] = {
		{ "SLOWER", "slower" },         /* red, bold */
		{ "faster", "faster" },         /* green */
		{ "no change shown", "nochange" },   /* grey */
		{ "too few runs", "toofew" },   /* amber, italic: no test could decide */
		{ "few samples", "fewsamples" },   /* purple, italic: likewise */
	};
	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		if (!strcmp(s, v[i][0]))
			return v[i][1];
	return NULL;
}

static int numeric(const char *s)
{
	char *end;
	if (!*s || !strcmp(s, "-"))
		return 1;
	strtod(s, &end);
	return !*end;
}

/* Whether columns K and K + 1 of T are a pair of sides: NAME_a, NAME_b. */
static int side_pair(const struct table *t, int k)
{
	const char *a = table_col(t, k), *b;
	size_t n = strlen(a);
	if (k + 1 >= table_cols(t) || n < 3 || strcmp(a + n - 2, "_a"))
		return 0;
	b = table_col(t, k + 1);
	return strlen(b) == n && !strncmp(a, b, n - 2) && !strcmp(b + n - 2, "_b");
}

/* T's header: each column's name; with pairs of sides (side_pair()), two
 * rows, NAME over the pair's A and B, each letter in its side's colour. */
static void header(const struct table *t)
{
	int nc = table_cols(t), pairs = 0;
	for (int k = 0; k < nc; k++)
		pairs |= side_pair(t, k);
	out_str("<thead><tr>");
	for (int k = 0; k < nc; k++) {
		const char *name = table_col(t, k);
		if (pairs && side_pair(t, k)) {
			char what[128];
			snprintf(what, sizeof what, "%.*s", (int)strlen(name) - 2, name);
			out_str("<th colspan=\"2\">");
			svg_text(what);
			k++;
		} else {
			out_str(pairs ? "<th rowspan=\"2\">" : "<th>");
			svg_text(name);
		}
		out_str("</th>");
	}
	if (pairs) {
		out_str("</tr>\n<tr>");
		for (int k = 0; k < nc; k++)
			if (side_pair(t, k)) {
				out_str("<th class=\"n side-a\">A</th><th class=\"n side-b\">B</th>");
				k++;
			}
	}
	out_str("</tr></thead>\n");
}

/* Table T's column NAME, -1 if none. */
static int column(const struct table *t, const char *name)
{
	for (int k = 0; k < table_cols(t); k++)
		if (!strcmp(table_col(t, k), name))
			return k;
	return -1;
}

/* A table's cells: a verdict in its class's colour, and the change% of its
 * row (diff's, the A/B summary's) in the colour of the row's verdict;
 * numbers on the right. */
static void table(const struct rp_out *o, const struct rp_chart *c, const struct table *t)
{
	int nc = table_cols(t), vc = column(t, "verdict"), cc = column(t, "change%");
	(void)o;
	svg_printf("<figure class=\"table\" id=\"%s\"><figcaption>", c->id);
	svg_text(c->title);
	out_str("</figcaption>\n<div class=\"scroll\"><table>\n");
	header(t);
	out_str("<tbody>\n");
	for (size_t r = 0; r < table_rows(t); r++) {
		out_str("<tr>");
		for (int k = 0; k < nc; k++) {
			const char *s = table_cell(t, r, k);
			const char *v = k == vc ? verdict_class(s) : NULL;
			const char *cv = k == cc && vc >= 0 ? verdict_class(table_cell(t, r, vc)) : NULL;
			if (v)
				svg_printf("<td class=\"%s\">", v);
			else if (cv)
				svg_printf("<td class=\"n %s\">", cv);
			else
				out_str(numeric(s) ? "<td class=\"n\">" : "<td>");
			if (k == cc && numeric(s) && strcmp(s, "-") && *s != '-' && *s != '+')
				out_char('+');   /* a change: its sign, either way */
			svg_text(s);
			out_str("</td>");
		}
		out_str("</tr>\n");
	}
	out_str("</tbody></table></div>\n</figure>\n");
}

/* ---- stacked bars -------------------------------------------------------- */

/* The apps of the N stacks S, in order of first sight, into SEEN (at
 * most 64); returns how many. */
static size_t apps_of(const struct rp_stack *s, size_t n, const char **seen)
{
	size_t ns = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < s[i].n; k++) {
			size_t j;
			for (j = 0; j < ns && strcmp(seen[j], s[i].apps[k]); j++)
				;
			if (j == ns && ns < 64)
				seen[ns++] = s[i].apps[k];
		}
	return ns;
}

/* The legend of the N names NAMES in rows from LEFT, TOP, drawn when DRAW;
 * returns the height it takes. */
static double legend(const char **names, size_t n, double left, double top, int draw)
{
	double x = left, y = top;
	for (size_t j = 0; j < n; j++) {
		double w = 30 + 6.5 * (double)strlen(names[j]);
		if (x + w > W - 10 && x > left) {
			x = left;
			y += 18;
		}
		if (draw) {
			svg_printf("<rect x=\"%.1f\" y=\"%.1f\" width=\"11\" height=\"11\" fill=\"%s\"/>"
				   "<text x=\"%.1f\" y=\"%.1f\">", x, y, color_of(names[j]), x + 15, y + 10);
			svg_text(names[j]);
			out_str("</text>");
		}
		x += w;
	}
	if (draw)
		out_char('\n');
	return y - top + 24;
}

/* One stack S across the bar from Y, BAR px high, on the axis X. */
static void stack_bar(const struct rp_stack *s, const struct scale *x, double y, double bar)
{
	double at = 0;
	for (size_t k = 0; k < s->n; k++) {
		double pct = 100 * s->app_cycles[k] / s->cycles;
		double x0 = scale_at(x, at), x1 = scale_at(x, at + pct);
		char v[32], cy[32];
		at += pct;
		svg_val(v, sizeof v, pct);
		svg_val(cy, sizeof cy, s->app_cycles[k]);
		svg_printf("<rect class=\"mark\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
			   "fill=\"%s\"><title>", x0, y, x1 - x0, bar, color_of(s->apps[k]));
		svg_text(s->label);
		svg_printf("%s%s: ", s->side ? " " : "", s->side ? s->side : "");
		svg_text(s->apps[k]);
		svg_printf(" %s%% of the breaths' cycles (%s cycles in %llu breaths)</title></rect>", v,
			   cy, (unsigned long long)s->breaths);
		if (x1 - x0 > 40)
			svg_printf("<text class=\"seg\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
				   "%.3g%%</text>", (x0 + x1) / 2, y + bar / 2 + 4, pct);
	}
	out_char('\n');
}

static const char *stack_label(const void *s, size_t i)
{
	return ((const struct rp_stack *)s)[i].label;
}

/* Stacks S, one bar each; of two sides (S[0].side set) the bars of a place
 * together, A's and B's, each lettered in its side's colour, under a key. */
static void stacks(const struct rp_out *o, const struct rp_chart *c, const struct rp_stack *s,
		   size_t n)
{
	const char *names[64];
	size_t longest = 8, na = apps_of(s, n, names);
	int sided = n && s[0].side;
	double bar = 22, gap = 10, lw, top, bottom, *y = malloc((n + 1) * sizeof *y);
	struct scale x;
	(void)o;
	if (!y)
		abort();
	for (size_t i = 0; i < n; i++)
		longest = strlen(s[i].label) > longest ? strlen(s[i].label) : longest;
	longest = longest > 32 ? 32 : longest;
	lw = label_width(longest) + (sided ? 16 : 0);
	top = 8 + legend(names, na, lw, 8, 0) + (sided ? 20 : 0);
	bottom = row_tops(y, n, top + gap / 2, bar + (sided ? 3 : gap), gap, sided, stack_label, s);
	bottom = sided ? bottom - 3 + gap / 2 : top + (double)n * (bar + gap);
	fig_open(c, "stacks", bottom + 44);
	legend(names, na, lw, 8, 1);
	if (sided)
		side_key(lw, top - 26);
	x = (struct scale){ 0, 100, lw, W - 24, 0 };
	axis_x(&x, top, bottom, c->x);
	axis_cat(top - 6, c->y);
	for (size_t i = 0; i < n; i++) {
		cat_label(lw - 6 - (sided ? 16 : 0), y[i] + bar / 2 + 4, s[i].label, longest);
		if (sided)
			side_letter(lw - 6, y[i] + bar / 2 + 4, s[i].side);
		stack_bar(&s[i], &x, y[i], bar);
	}
	free(y);
	fig_close();
}

/* ---- histograms ---------------------------------------------------------- */

/* The colors of the histograms of one chart: a single one, or A and B
 * (a side drawn alone keeps its colour). */
static const char *side_color(const struct rp_hist *h, size_t k, size_t n)
{
	if (!strcmp(h->label, "B") || (n > 1 && k == 1))
		return SIDE_B;
	return SIDE_A;
}

/* Bin B of H as the height on the y axis: its count, or (SHARE) its % of H. */
static double bin_height(const struct rp_hist *h, const struct rp_hbin *b, int share)
{
	return share ? 100.0 * (double)b->n / (double)h->n : (double)b->n;
}

/* The bars of H (the K-th of N) on X and Y, their tooltips saying UNIT. */
static void hist_bars(const struct rp_hist *h, size_t k, size_t n, const struct scale *x,
		      const struct scale *y, const char *unit)
{
	uint64_t below = h->zeros;
	for (size_t b = 0; b < h->nbins; b++) {
		const struct rp_hbin *bin = &h->bins[b];
		double x0 = scale_at(x, bin->lo), x1 = scale_at(x, bin->hi);
		double y0 = scale_at(y, bin_height(h, bin, n > 1));
		char lo[32], hi[32], pct[32], cdf[32];
		below += bin->n;
		svg_val(lo, sizeof lo, bin->lo);
		svg_val(hi, sizeof hi, bin->hi);
		svg_val(pct, sizeof pct, 100.0 * (double)bin->n / (double)h->n);
		svg_val(cdf, sizeof cdf, 100.0 * (double)below / (double)h->n);
		svg_printf("<rect class=\"mark\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
			   "fill=\"%s\" fill-opacity=\"%s\"><title>%s%s%s to %s %s: %llu pairs (%s%%), "
			   "%s%% at or below</title></rect>", x0, y0, x1 - x0 > 1 ? x1 - x0 : 1,
			   scale_at(y, 0) - y0, side_color(h, k, n), n > 1 ? "0.45" : "0.85",
			   n > 1 ? h->label : "", n > 1 ? ": " : "", lo, hi, unit,
			   (unsigned long long)bin->n, pct, cdf);
	}
	out_char('\n');
}

/* The cumulative share of H on X and C (0 to 100), as a step line, and
 * its median as a dashed line from TOP to BOTTOM, labelled at LY. */
static void hist_cdf(const struct rp_hist *h, size_t k, size_t n, const struct scale *x,
		     const struct scale *c, double top, double bottom, double ly)
{
	uint64_t below = h->zeros;
	char med[32];
	if (!h->nbins)
		return;
	svg_printf("<path class=\"cdf\" stroke=\"%s\" d=\"M%.1f %.1f", n > 1 ? side_color(h, k, n) : "#222",
		   scale_at(x, h->bins[0].lo), scale_at(c, 100.0 * (double)below / (double)h->n));
	for (size_t b = 0; b < h->nbins; b++) {
		below += h->bins[b].n;
		svg_printf("H%.1fV%.1f", scale_at(x, h->bins[b].hi),
			   scale_at(c, 100.0 * (double)below / (double)h->n));
	}
	out_str("\"/>\n");
	svg_val(med, sizeof med, h->p50);
	svg_printf("<line class=\"p50\" stroke=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\">"
		   "<title>%s%sp50 %s</title></line>\n", n > 1 ? side_color(h, k, n) : "#222",
		   scale_at(x, h->p50), top, scale_at(x, h->p50), bottom, n > 1 ? h->label : "",
		   n > 1 ? " " : "", med);
	if (n == 1)   /* overlays name their medians in the legend */
		svg_printf("<text class=\"cap\" x=\"%.1f\" y=\"%.1f\">p50 %s</text>\n",
			   scale_at(x, h->p50) + 4, ly, med);
}

/* The runs' values of H (the K-th of N) as dots on X in a strip at Y, the
 * verdict's values, each named in its tooltip. */
static void run_dots(const struct rp_hist *h, size_t k, size_t n, const struct scale *x, double y)
{
	char v[32];
	svg_printf("<text class=\"cap\" x=\"%d\" y=\"%.1f\">%s runs</text>", 22, y + 3.5, h->label);
	for (size_t r = 0; r < h->nruns; r++) {
		if (!(h->runs[r] > 0))
			continue;
		svg_val(v, sizeof v, h->runs[r]);
		svg_printf("<circle class=\"mark run\" cx=\"%.2f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" "
			   "fill-opacity=\"0.8\" stroke=\"#222\" stroke-width=\"0.5\"><title>%s run ",
			   scale_at(x, h->runs[r]), y, side_color(h, k, n), h->label);
		svg_text(h->run_names && h->run_names[r] ? h->run_names[r] + strcspn(h->run_names[r],
											 "\x1f") +
			 (h->run_names[r][strcspn(h->run_names[r], "\x1f")] != 0) : "?");
		svg_printf(": %s (the verdict's value)</title></circle>", v);
	}
	out_char('\n');
}

static void hists(const struct rp_out *o, const struct rp_chart *c, const struct rp_hist *h,
		  size_t n)
{
	double lo = INFINITY, hi = 0, ymax = 0, top = n > 1 ? 30 : 14, ph = 190, bottom;
	struct scale x, y, cdf;
	char unit[96];
	int dots = 0;
	(void)o;
	for (size_t k = 0; k < n; k++)
		for (size_t b = 0; b < h[k].nbins; b++) {
			lo = h[k].bins[b].lo < lo ? h[k].bins[b].lo : lo;
			hi = h[k].bins[b].hi > hi ? h[k].bins[b].hi : hi;
			ymax = fmax(ymax, bin_height(&h[k], &h[k].bins[b], n > 1));
		}
	for (size_t k = 0; k < n; k++)   /* the runs' dots: on the same axis, above the bars */
		for (size_t r = 0; h[k].runs && r < h[k].nruns; r++)
			if (h[k].runs[r] > 0) {
				lo = fmin(lo, h[k].runs[r]);
				hi = fmax(hi, h[k].runs[r]);
				dots = 1;
			}
	if (dots)
		top += 12.0 * (double)n + 8;
	if (!(hi > 0))
		return;
	snprintf(unit, sizeof unit, "%.*s", (int)strcspn(c->x, "("), c->x);
	bottom = top + ph;
	x = (struct scale){ lo, hi, 70, W - 70, 1 };
	y = (struct scale){ 0, ymax, bottom, top, 0 };
	cdf = (struct scale){ 0, 100, bottom, top, 0 };
	scale_nice(&x);
	scale_nice(&y);
	fig_open(c, "hist", bottom + 44);
	for (size_t k = 0; n > 1 && k < n; k++) {
		char med[32];
		svg_val(med, sizeof med, h[k].p50);
		svg_printf("<rect x=\"%.0f\" y=\"6\" width=\"11\" height=\"11\" fill=\"%s\"/>"
			   "<text x=\"%.0f\" y=\"16\">", 70 + 260.0 * (double)k, side_color(&h[k], k, n),
			   85 + 260.0 * (double)k);
		svg_text(h[k].label);
		svg_printf(": %llu pairs, p50 %s</text>", (unsigned long long)h[k].n, med);
	}
	axis_x(&x, top, bottom, c->x);
	axis_y(&y, 70, W - 70, 70, 22, c->y, 0);
	axis_y(&cdf, W - 70, W - 70, W - 70, W - 22, "at or below (% of pairs)", 1);
	for (size_t k = 0; k < n; k++)
		hist_bars(&h[k], k, n, &x, &y, unit);
	for (size_t k = 0; k < n; k++)
		hist_cdf(&h[k], k, n, &x, &cdf, top, bottom, top + 12 + 12.0 * (double)k);
	for (size_t k = 0; dots && k < n; k++)
		run_dots(&h[k], k, n, &x, top - 12.0 * (double)(n - k) - 2);
	fig_close();
}

/* ---- box plots ----------------------------------------------------------- */

/* Box B as row Y (its middle), on X; the tooltip names every value. */
static void box(const struct rp_box *b, const struct scale *x, double y)
{
	double v[BOX_NV];
	char num[32];
	for (int k = 0; k < BOX_NV; k++)
		v[k] = scale_at(x, b->v[k]);
	out_str("<g class=\"box\"><title>");
	svg_text(b->label);
	svg_printf("%s%s: n %llu", b->side ? " " : "", b->side ? b->side : "", (unsigned long long)b->n);
	for (int k = 0; k < BOX_NV; k++) {
		svg_val(num, sizeof num, b->v[k]);
		svg_printf(", %s %s", rp_box_names[k], num);
	}
	svg_printf("</title><line class=\"whisk\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		   "<line class=\"whisk\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		   "<line class=\"whisk\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
		   v[BOX_P5], y, v[BOX_P95], y, v[BOX_P5], y - 5, v[BOX_P5], y + 5, v[BOX_P95], y - 5,
		   v[BOX_P95], y + 5);
	svg_printf("<rect class=\"mark\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"14\" "
		   "fill=\"%s\" stroke=\"%s\"/>"
		   "<line class=\"med\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
		   v[BOX_P25], y - 7, v[BOX_P75] - v[BOX_P25] > 1 ? v[BOX_P75] - v[BOX_P25] : 1,
		   b->side && !strcmp(b->side, "B") ? SIDE_B_FILL : SIDE_A_FILL, side_stroke(b->side),
		   v[BOX_P50], y - 8, v[BOX_P50], y + 8);
	svg_val(num, sizeof num, b->v[BOX_P50]);
	svg_printf("<text class=\"cap\" x=\"%.1f\" y=\"%.1f\">p50 %s, n %llu</text></g>\n",
		   v[BOX_P95] + 8, y + 4, num, (unsigned long long)b->n);
}

static const char *box_label(const void *b, size_t i)
{
	return ((const struct rp_box *)b)[i].label;
}

/* Boxes B, a row each; of two sides (B[0].side set) the rows of a label
 * together, A's and B's, each lettered and drawn in its side's colour,
 * under a key. */
static void boxes(const struct rp_out *o, const struct rp_chart *c, const struct rp_box *b,
		  size_t n)
{
	size_t longest = 6;
	int sided = n && b[0].side;
	double lo = INFINITY, hi = 0, row = sided ? 22 : 28, top = sided ? 40 : 20, lw, bottom;
	double *y = malloc((n + 1) * sizeof *y);
	struct scale x;
	(void)o;
	if (!y)
		abort();
	for (size_t i = 0; i < n; i++) {
		longest = strlen(b[i].label) > longest ? strlen(b[i].label) : longest;
		for (int k = BOX_P5; k <= BOX_P95; k++)
			if (b[i].v[k] > 0)
				lo = fmin(lo, b[i].v[k]);
		hi = fmax(hi, b[i].v[BOX_P95]);
	}
	longest = longest > 32 ? 32 : longest;
	lw = label_width(longest) + (sided ? 16 : 0);
	bottom = row_tops(y, n, top, row, 8, sided, box_label, b) + (sided ? 4 : 0);
	x = (struct scale){ isinf(lo) ? 1 : lo, hi > 0 ? hi : 10, lw, W - 150, 1 };
	scale_nice(&x);
	fig_open(c, "boxes", bottom + 44);
	if (sided)
		side_key(lw, 6);
	axis_x(&x, top, bottom, c->x);
	axis_cat(top - 2, c->y);
	for (size_t i = 0; i < n; i++) {
		double mid = sided ? y[i] + row / 2 : top + row / 2 + (double)i * row;
		cat_label(lw - 6 - (sided ? 16 : 0), mid + 4, b[i].label, longest);
		if (sided)
			side_letter(lw - 6, mid + 4, b[i].side);
		box(&b[i], &x, mid);
	}
	free(y);
	fig_close();
}

/* ---- over time ----------------------------------------------------------- */

/* One panel of an over-time chart: a series of bins (ribbons and median)
 * or of values (a line). */
struct panel {
	char name[160];              /* its title */
	char y[64];                  /* its axis label, with the unit */
	char unit[48];               /* the unit alone, for the tooltip */
	size_t nb;                   /* its bins, across the time axis */
	const struct bin *b;         /* bins, or NULL ... */
	double *v;                   /* ... values (NaN: none) */
	const char *color;
};

#define PANEL_H 96               /* a panel's plot height, px */
#define PANEL_GAP 34             /* above each: its title */
#define PLOT_X0 78               /* the plot's left edge */
#define PLOT_W (W - PLOT_X0 - 24)

/* The value K of bin I of P (K < 0 or no bins: its value), NaN if none. */
static double value(const struct panel *p, size_t i, int k)
{
	if (!p->b)
		return p->v[i];
	return p->b[i].n ? p->b[i].q[k] : NAN;
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

/* The 95th percentile (nearest rank) of the N values V (sorted here). */
static double p95(double *v, size_t n)
{
	qsort(v, n, sizeof *v, by_value);
	return v[(size_t)ceil(0.95 * (double)n) - 1];
}

/* The top of P's axis: the largest 95th percentile of its bins (or
 * value), but when over 20 bins have one, no more than 1.1 times the 95th
 * percentile of those, nor than 4 times the 95th percentile of their
 * medians: a few outlying bins, or stalls that fill the tails of many, are
 * drawn at the top, marked and labelled (clipped()), rather than squashing
 * the medians of all the others against the axis's foot. */
static double panel_max(const struct panel *p, size_t nb)
{
	double *top = malloc((nb ? nb : 1) * sizeof *top), *med = malloc((nb ? nb : 1) * sizeof *med);
	double hi;
	size_t n = 0;
	if (!top || !med)
		abort();
	for (size_t i = 0; i < nb; i++) {
		double v = value(p, i, BIN_NQ - 1);
		if (isnan(v))
			continue;
		top[n] = v;
		med[n++] = value(p, i, p->b ? 2 : -1);
	}
	if (!n) {
		hi = 1;
	} else {
		double tails = p95(top, n), mids = p95(med, n);   /* both sort */
		hi = n <= 20 ? top[n - 1] : fmin(fmin(top[n - 1], 1.1 * tails), fmax(4 * mids, DBL_MIN));
	}
	free(top);
	free(med);
	return hi;
}

/* Bin I's left edge in tenths of a px inside the plot (paths are drawn in
 * a group scaled by 0.1 along x), and the y of V in px inside it. */
static long xt(size_t i, size_t nb)
{
	return lround((double)i * PLOT_W * 10.0 / (double)nb);
}

static long yt(const struct scale *y, double v)
{
	return lround(scale_at(y, v) - y->r1);
}

/* A relative move by DX, DY, after an "l" when FIRST (a space only where
 * a number needs one). */
static void rel(long dx, long dy, int first)
{
	out_char(first ? 'l' : ' ');
	out_i64(dx);
	if (dy >= 0)
		out_char(' ');
	out_i64(dy);
}

/* P's value K along the run of bins [I, J) that all have one, through the
 * bins' middles (one bin: across its width): forward from nowhere (an M),
 * or (BACK) backward from *X, *Y, where the forward run ended. */
static void run(const struct panel *p, int k, size_t i, size_t j, size_t nb,
		const struct scale *y, int back, long *x, long *yy)
{
	if (j - i == 1) {
		long l = xt(i, nb), r = xt(i + 1, nb), ny = yt(y, value(p, i, k));
		if (back) {
			rel(0, ny - *yy, 1);
			rel(l - r, 0, 0);
		} else {
			svg_printf("M%ld %ld", l, ny);
			rel(r - l, 0, 1);
		}
		*x = back ? l : r;
		*yy = ny;
		return;
	}
	for (size_t m = 0; m < j - i; m++) {
		size_t b = back ? j - 1 - m : i + m;
		long nx = (xt(b, nb) + xt(b + 1, nb)) / 2, ny = yt(y, value(p, b, k));
		if (!back && m == 0)
			svg_printf("M%ld %ld", nx, ny);
		else
			rel(nx - *x, ny - *yy, m == 0 || (!back && m == 1));
		*x = nx;
		*yy = ny;
	}
}

/* P's value K, or (LO >= 0) the ribbon from value LO up to K, over the
 * runs of bins that have them: a path for each run, gaps left empty. */
static void runs(const struct panel *p, size_t nb, const struct scale *y, int k, int lo)
{
	for (size_t i = 0, j; i < nb; i = j) {
		long x = 0, yy = 0;
		if (isnan(value(p, i, k))) {
			j = i + 1;
			continue;
		}
		for (j = i; j < nb && !isnan(value(p, j, k)); j++)
			;
		run(p, k, i, j, nb, y, 0, &x, &yy);
		if (lo >= 0) {
			run(p, lo, i, j, nb, y, 1, &x, &yy);
			out_char('z');
		}
	}
}

/* A ribbon between P's quantiles LO and HI, filled with OPACITY. */
static void ribbon(const struct panel *p, size_t nb, const struct scale *y, int lo, int hi,
		   const char *opacity)
{
	svg_printf("<path class=\"mark\" fill=\"%s\" fill-opacity=\"%s\" d=\"", p->color, opacity);
	runs(p, nb, y, hi, lo);
	out_str("\"/>\n");
}

/* The median line of P (or its values). */
static void midline(const struct panel *p, size_t nb, const struct scale *y)
{
	svg_printf("<path class=\"mark line\" stroke=\"%s\" vector-effect=\"non-scaling-stroke\" d=\"",
		   p->color);
	runs(p, nb, y, p->b ? 2 : -1, -1);
	out_str("\"/>\n");
}

/* V in three significant digits, k, M or G after: "9440", "6.95M". */
static void short_value(char *buf, size_t size, double v)
{
	static const char suffix[] = " kMGT";
	int k = 0;
	while (fabs(v) >= 9999.5 && k < 4) {
		v /= 1000;
		k++;
	}
	snprintf(buf, size, "%.*f%.*s", fabs(v) >= 100 || !k ? 0 : fabs(v) >= 10 ? 1 : 2, v, k > 0,
		 &suffix[k]);
}

/* Puts bin I of value V among the three largest BIG[*N] of P (values of
 * quantile K), kept in bin order. */
static void keep_big(const struct panel *p, int k, size_t *big, size_t *n, size_t i, double v)
{
	size_t m = 0;
	if (*n < 3) {
		big[(*n)++] = i;
		return;
	}
	for (size_t q = 1; q < 3; q++)
		if (value(p, big[q], k) < value(p, big[m], k))
			m = q;
	if (v <= value(p, big[m], k))
		return;
	memmove(big + m, big + m + 1, (2 - m) * sizeof *big);
	big[2] = i;
}

/* Marks on the top edge of a clipped axis Y (the plot's top at TOP) the
 * bins of P whose top (the 95th percentile, or the value) is above it: a
 * red bar across each, and the largest three (less those too close to
 * the one before) a triangle and their value ("p95 12.6M"). Returns how
 * many bins it marked. */
static size_t clipped(const struct panel *p, size_t nb, const struct scale *y, double top)
{
	size_t n = 0, big[3], nbig = 0;
	int k = p->b ? BIN_NQ - 1 : -1;
	double bw = PLOT_W / (double)nb;
	for (size_t i = 0; i < nb; i++) {
		double v = value(p, i, k);
		if (!(v > y->d1))
			continue;
		n++;
		svg_printf("<rect class=\"clip\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"2\"/>",
			   PLOT_X0 + (double)i * bw, top, fmax(bw, 1));
		keep_big(p, k, big, &nbig, i, v);
	}
	for (size_t j = 0; j < nbig; j++) {
		char num[32];
		double x = PLOT_X0 + ((double)big[j] + 0.5) * bw;
		if (j && x - (PLOT_X0 + ((double)big[j - 1] + 0.5) * bw) < 90)
			continue;   /* too close to the label before it to be read */
		short_value(num, sizeof num, value(p, big[j], k));
		svg_printf("<path class=\"clip\" d=\"M%.1f %.1fl-4 7h8z\"/><text class=\"clip-label\" "
			   "x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s%s</text>", x, top, x +
			   (x > W - 120 ? -6 : 6), top + 9, x > W - 120 ? "end" : "start",
			   p->b ? "p95 " : "", num);
	}
	return n;
}

/* Panel P, its plot's top at TOP, over the time axis T: its title (after
 * the letter of its SIDE, if not NULL) and its axis's label (with the
 * unit) above it, its values below, those above the axis marked on its
 * top edge (a linear axis clipped there: panel_max(); a log axis was
 * tried, and squashed the medians' changes into a few pixels). */
static void panel(const struct panel *p, double top, const struct scale *t, const char *side)
{
	size_t nb = p->nb;
	struct scale y = { 0, panel_max(p, nb), top + PANEL_H, top, 0 };
	double tk[40];
	size_t n = scale_ticks(t, tk, 40);
	scale_nice(&y);
	if (side)
		side_letter(PLOT_X0 - 6, top - 8, side);
	svg_printf("<text class=\"ptitle\" x=\"%d\" y=\"%.1f\">", PLOT_X0, top - 8);
	svg_text(p->name);
	svg_printf("</text><text class=\"axis-label num y\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
		   W - 24, top - 8);
	svg_text(p->y);
	out_str("</text>\n");
	axis_y(&y, PLOT_X0, W - 24, PLOT_X0, 0, NULL, 0);
	for (size_t i = 0; i < n; i++)
		svg_printf("<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
			   scale_at(t, tk[i]), top, scale_at(t, tk[i]), top + PANEL_H);
	svg_printf("<g transform=\"translate(%d %.1f) scale(0.1 1)\">\n", PLOT_X0, top);
	if (p->b) {
		ribbon(p, nb, &y, 0, 4, "0.22");
		ribbon(p, nb, &y, 1, 3, "0.45");
	}
	midline(p, nb, &y);
	out_str("</g>\n");
	clipped(p, nb, &y, top);
}

/* A number for the tooltip's JSON: as the tables round it (cell_num()),
 * null for NaN; whole numbers without printf, most values are. */
static void json_num(double v)
{
	char buf[32];
	if (isnan(v) || isinf(v)) {
		out_str("null");
	} else if (v == floor(v) && fabs(v) < 9e15) {
		out_i64((int64_t)v);
	} else if (fabs(v) >= 100) {
		out_i64((int64_t)nearbyint(v));   /* as %.0f: to nearest, ties to even */
	} else {
		cell_num(buf, sizeof buf, v);
		out_str(buf);
	}
}

/* S as a JSON string inside a <script> element: quote, backslash and
 * control characters escaped, and < and & too, so that nothing in it can
 * end the element or read as markup. */
static void script_string(const char *s)
{
	out_char('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c == '<' || c == '&')
			svg_printf("\\u%04x", c);
		else if (c == '"' || c == '\\')
			out_char('\\'), out_char((char)c);
		else
			out_char((char)c);
	}
	out_char('"');
}

/* The tooltip's data of the NP panels P of an over-time chart C: the
 * time axis (SPAN in XU over the plot's x and width px), and each panel's
 * title (after its SIDE, if not NULL) and bins (NB of them across the
 * axis) or values. */
static void time_data(const struct rp_chart *c, const struct panel *p, size_t np, double span,
		      const char *xu, const char *side)
{
	svg_printf("<script type=\"application/json\" id=\"d-%s\">{\"span\":%.17g,\"xu\":\"%s\","
		   "\"px\":[%d,%d],\"p\":[", c->id, span, xu, PLOT_X0, PLOT_W);
	for (size_t k = 0; k < np; k++) {
		size_t nb = p[k].nb;
		char name[sizeof p[k].name + 8];
		snprintf(name, sizeof name, "%s%s%s", side ? side : "", side ? " " : "", p[k].name);
		out_str(k ? ",{\"t\":" : "{\"t\":");
		script_string(name);
		out_str(",\"u\":");
		script_string(p[k].unit);
		svg_printf(",\"nb\":%zu", nb);
		if (p[k].b) {
			out_str(",\"n\":[");
			for (size_t i = 0; i < nb; i++) {
				if (i)
					out_char(',');
				out_u64(p[k].b[i].n);
			}
			out_str("],\"q\":[");
			for (int q = 0; q < BIN_NQ; q++) {
				out_str(q ? ",[" : "[");
				for (size_t i = 0; i < nb; i++) {
					if (i)
						out_char(',');
					json_num(p[k].b[i].q[q]);
				}
				out_char(']');
			}
			out_char(']');
		} else {
			out_str(",\"v\":[");
			for (size_t i = 0; i < nb; i++) {
				if (i)
					out_char(',');
				json_num(p[k].v[i]);
			}
			out_char(']');
		}
		out_char('}');
	}
	out_str("]}</script>\n");
}

/* The throughput panels of T into P (values in *V, to free): Gbps and
 * Mpps with a TSC frequency, else bits and packets per cycle. Returns
 * how many (0: no breath_end totals). */
static size_t rate_panels(const struct an_timeline *t, struct panel *p, double **v)
{
	double hz = (double)t->hz;
	if (!report_has_totals(t))
		return 0;
	v[0] = calloc(t->nbins, sizeof **v);
	v[1] = calloc(t->nbins, sizeof **v);
	if (!v[0] || !v[1])
		abort();
	for (size_t i = 0; i < t->nbins; i++) {
		double cy = t->cycles[i];
		v[0][i] = cy > 0 ? (hz ? t->bytes[i] * 8 * hz / cy / 1e9 : t->bytes[i] * 8 / cy) : NAN;
		v[1][i] = cy > 0 ? (hz ? t->packets[i] * hz / cy / 1e6 : t->packets[i] * 1000 / cy) : NAN;
	}
	memset(p, 0, 2 * sizeof *p);
	snprintf(p[0].name, sizeof p[0].name, "throughput, from the breaths' running totals");
	snprintf(p[0].y, sizeof p[0].y, hz ? "rate (Gbit/s)" : "rate (bits/cycle)");
	snprintf(p[0].unit, sizeof p[0].unit, hz ? "Gbit/s" : "bits/cycle");
	snprintf(p[1].name, sizeof p[1].name, "packet rate, from the breaths' running totals");
	snprintf(p[1].y, sizeof p[1].y, hz ? "rate (Mpackets/s)" : "rate (packets/kcycle)");
	snprintf(p[1].unit, sizeof p[1].unit, hz ? "Mpackets/s" : "packets/kcycle");
	p[0].v = v[0];
	p[1].v = v[1];
	p[0].nb = p[1].nb = t->nbins;
	p[0].color = "#2a5599";
	p[1].color = "#7a4f9a";
	return 2;
}

/* The panels of timeline T into P (at most 2 per series + 2): each app's
 * cycles per unit, the breath's, its units per breath, the throughput. */
/* The panels of series S (of unit UNITS, its pairs' own, plural) of an
 * over-time chart into P: its cycles per unit, and for the breath pair
 * the units each moved, per LOOP (its name: "breath", "poll"). Returns
 * how many (1 or 2). */
static size_t series_panels(const struct an_series *s, const char *units, const char *loop,
			    struct panel *p)
{
	char unit[32];
	an_unit_singular(unit, sizeof unit, units);
	memset(p, 0, 2 * sizeof *p);
	snprintf(p[0].name, sizeof p[0].name, "%s%s%s: cycles per %s", s->label,
		 strcmp(s->app, "-") ? " " : "", strcmp(s->app, "-") ? s->app : "", unit);
	snprintf(p[0].y, sizeof p[0].y, "cost (cycles/%s)", unit);
	snprintf(p[0].unit, sizeof p[0].unit, "cycles/%s", unit);
	p[0].b = s->v;
	p[0].nb = s->nbins;
	p[0].color = color_of(s->app);
	if (!s->units)
		return 1;
	snprintf(p[1].name, sizeof p[1].name, "%s: %s per %s", s->label, units, loop);
	snprintf(p[1].y, sizeof p[1].y, "batch (%s/%s)", units, loop);
	snprintf(p[1].unit, sizeof p[1].unit, "%s/%s", units, loop);
	p[1].b = s->units;
	p[1].nb = s->nbins;
	p[1].color = "#5b5b5b";
	return 2;
}

/* The panels of timeline T into P (at most 2 per series + 2): each app's
 * cycles per unit, the breath's, its units per breath, the throughput. */
static size_t time_panels(const struct rp_time *rt, struct panel *p, double **v)
{
	const struct an_timeline *t = rt->t;
	const char *loop = rt->loop ? rt->loop + strcspn(rt->loop, ".") : "breath";
	size_t np = 0;
	loop += *loop == '.';   /* "kv.poll": a poll */
	/* apps first, the breath (app "-") after them */
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < t->ns; k++) {
			const struct an_series *s = &t->s[k];
			if ((pass == 0) != (strcmp(s->app, "-") != 0))
				continue;
			np += series_panels(s, rt->units && rt->units[k] ? rt->units[k] : rt->unit,
					    *loop ? loop : rt->loop, p + np);
		}
	return np + rate_panels(t, p + np, v);
}

/* The flight recorder's trigger of RT on the time axis X (in UNIT ticks
 * from the timeline's first entry), across the panels from TOP to BOTTOM:
 * a band from the slow pair's begin to its end (an event's entry: a line),
 * a dashed line at its end, and "trigger" above at LABEL_Y. Nothing when
 * the trigger has no timestamp (a freeze by hand) or lies outside the
 * chart's window. */
static void trigger_mark(const struct rp_time *rt, const struct scale *x, double unit, double top,
			 double bottom, double label_y)
{
	const tl_arming *a = rt->trigger;
	double b, e, xb, xe;
	if (!a || !a->end_tsc || a->end_tsc < rt->t->t0)
		return;
	e = (double)(a->end_tsc - rt->t->t0) / unit;
	b = e - (double)a->cycles / unit;
	if (b > x->d1)
		return;   /* after the window: the trigger is not in this chart */
	xb = scale_at(x, fmax(b, 0));
	xe = scale_at(x, fmin(e, x->d1));
	svg_printf("<rect class=\"trig-band\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>"
		   "<line class=\"trig-line\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		   "<path class=\"clip\" d=\"M%.1f %.1fl-4 -7h8z\"/><text class=\"clip-label\" "
		   "x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">trigger</text>\n", xb, top,
		   fmax(xe - xb, 2), bottom - top, xe, top, xe, bottom, xe, label_y + 3,
		   xe + (xe > W - 120 ? -7 : 7), label_y, xe > W - 120 ? "end" : "start");
}

static void time_chart(const struct rp_out *o, const struct rp_chart *c, const struct rp_time *rt)
{
	const struct an_timeline *t = rt->t;
	struct panel *p = calloc(2 * t->ns + 2, sizeof *p);
	double *v[2] = { NULL, NULL }, head = rt->trigger ? 14 : 0, top = PANEL_GAP + head, span,
	       unit;
	const char *unit_name;
	char note[400];
	size_t np;
	struct scale x;
	(void)o;
	if (!p)
		abort();
	np = time_panels(rt, p, v);
	unit = report_time_unit(t, &unit_name);
	span = (double)t->span / unit;
	x = (struct scale){ 0, span, PLOT_X0, PLOT_X0 + PLOT_W, 0 };
	if (rt->trigger)
		snprintf(note, sizeof note, "flight recorder's trigger: %s", rt->trigger_text);
	fig_open_note(c, "timeline", (double)np * (PANEL_H + PANEL_GAP) + PANEL_GAP + 30 + head,
		      rt->side, rt->trigger ? note : NULL);
	for (size_t k = 0; k < np; k++) {
		panel(&p[k], top, &x, rt->side);
		top += PANEL_H + PANEL_GAP;
	}
	trigger_mark(rt, &x, unit, PANEL_GAP + head - 6, top - PANEL_GAP, 10);
	axis_x(&x, top - PANEL_GAP, top - PANEL_GAP, c->x);
	out_str("</svg>\n");
	time_data(c, p, np, span, unit_name, rt->side);
	out_str("</figure>\n");
	free(v[0]);
	free(v[1]);
	free(p);
}

const struct rp_out rp_html = { FMT_TEXT, begin, section, table, stacks, time_chart, hists,
				boxes, note, end };
