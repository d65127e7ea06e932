/* events.c: the events-file grammar (Snabb's), "LEVEL,RATE|name: args" headers
 * followed by description lines, and the interned "category.name" form. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "pairs.h"

#define NAME_MAX_LEN 63          /* an event name, or a category */
#define QUALIFIED_MAX_LEN 127    /* "category.name" */

static int is_ident_start(int c) { return isalpha(c) || c == '_'; }
static int is_ident(int c) { return isalnum(c) || c == '_'; }

/* Does LINE (LEN bytes) look like a header, "digits[,digits]|"? */
static int header_like(const char *p, size_t len)
{
	size_t i = 0;
	while (i < len && isdigit((unsigned char)p[i]))
		i++;
	if (i == 0)
		return 0;
	if (i < len && p[i] == ',') {
		size_t j = ++i;
		while (i < len && isdigit((unsigned char)p[i]))
			i++;
		if (i == j)
			return 0;
	}
	return i < len && p[i] == '|';
}

/* Parses a digit field "D" at *P for WHAT; one digit 0-9. */
static int digit(const char **p, const char *end, const char *what, char *why, size_t wsz)
{
	const char *s = *p;
	while (*p < end && isdigit((unsigned char)**p))
		(*p)++;
	if (*p - s != 1) {
		snprintf(why, wsz, "%s '%.*s' is not a single digit 0-9", what, (int)(*p - s), s);
		return -1;
	}
	return *s - '0';
}

/* Parses "name[ attrs]: a b c" at P..END into D; DOTS allows "category.name". */
static int parse_rest(const char *p, const char *end, int dots, tl_def *d, char *why, size_t wsz)
{
	const char *colon = memchr(p, ':', (size_t)(end - p));
	const char *n = p;
	if (!colon) {
		snprintf(why, wsz, "bad header: expected 'LEVEL,RATE|name: arg ...' (no ':')");
		return -1;
	}
	if (!is_ident_start((unsigned char)*p)) {
		snprintf(why, wsz, "bad event name: must start with a letter or '_'");
		return -1;
	}
	while (p < colon && (is_ident((unsigned char)*p) || (dots && *p == '.')))
		p++;
	d->name = n;
	d->name_len = (size_t)(p - n);
	if (d->name_len > (dots ? QUALIFIED_MAX_LEN : NAME_MAX_LEN)) {
		snprintf(why, wsz, "event name '%.*s...' is longer than %d characters", 16, n,
			 dots ? QUALIFIED_MAX_LEN : NAME_MAX_LEN);
		return -1;
	}
	d->attrs = NULL;
	d->attrs_len = 0;
	if (p < colon && *p == ' ') {
		while (p < colon && *p == ' ')
			p++;
		d->attrs = p;
		d->attrs_len = (size_t)(colon - p);
		while (d->attrs_len && d->attrs[d->attrs_len - 1] == ' ')
			d->attrs_len--;
		if (!dots) {
			snprintf(why, wsz, "bad event name '%.*s': attributes are added at registration",
				 (int)(colon - n), n);
			return -1;
		}
	} else if (p != colon) {
		snprintf(why, wsz, "bad event name: '%c' is not allowed in a name", *p);
		return -1;
	}
	d->nargs = 0;
	for (p = colon + 1;;) {
		const char *a;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= end)
			break;
		a = p;
		if (!is_ident_start((unsigned char)*p)) {
			snprintf(why, wsz, "bad argument name at '%.*s'", (int)(end - p), p);
			return -1;
		}
		while (p < end && is_ident((unsigned char)*p))
			p++;
		if (p < end && *p != ' ' && *p != '\t') {
			snprintf(why, wsz, "bad argument name at '%.*s'", (int)(end - a), a);
			return -1;
		}
		if (d->nargs == TL_MAX_ARGS) {
			int more = 1;
			for (; p < end; p++)
				more += (p[0] != ' ' && p[0] != '\t') && (p[-1] == ' ' || p[-1] == '\t');
			snprintf(why, wsz, "event '%.*s' has %u arguments; at most %d are allowed",
				 (int)d->name_len, d->name, TL_MAX_ARGS + more, TL_MAX_ARGS);
			return -1;
		}
		for (unsigned i = 0; i < d->nargs; i++)
			if (d->args_len[i] == (size_t)(p - a) && !memcmp(d->args[i], a, d->args_len[i])) {
				snprintf(why, wsz, "argument '%.*s' appears twice", (int)(p - a), a);
				return -1;
			}
		d->args[d->nargs] = a;
		d->args_len[d->nargs++] = (size_t)(p - a);
	}
	return 0;
}

/* Parses header line P..END into D. */
static int parse_header(const char *p, const char *end, int dots, tl_def *d, char *why, size_t wsz)
{
	const char *bar = memchr(p, '|', (size_t)(end - p));
	int old = !memchr(p, ',', (size_t)(bar - p));   /* "RATE|name:" */
	int a = digit(&p, end, old ? "rate" : "level", why, wsz), b;
	if (a < 0)
		return -1;
	if (*p == ',') {
		p++;
		b = digit(&p, end, "rate", why, wsz);
		if (b < 0)
			return -1;
		d->level = (unsigned)a;
		d->rate = (unsigned)b;
	} else {
		d->level = d->rate = (unsigned)a;   /* old form "RATE|name:" */
	}
	return parse_rest(p + 1, end, dots, d, why, wsz);
}

int tl_def_parse(const char *s, size_t len, tl_def *d, tl_error *err)
{
	const char *nl = memchr(s, '\n', len), *end = nl ? nl : s + len;
	char why[256];
	memset(d, 0, sizeof *d);
	if (!header_like(s, (size_t)(end - s)) ||
	    parse_header(s, end, 1, d, why, sizeof why) != 0) {
		if (!header_like(s, (size_t)(end - s)))
			snprintf(why, sizeof why, "bad header: expected 'LEVEL,RATE|name: arg ...'");
		return tl_fail(err, TL_E_PARSE, 0, "definition '%.*s': %s",
			       (int)((end - s) > 60 ? 60 : end - s), s, why);
	}
	d->descr = nl ? nl + 1 : s + len;
	d->descr_len = nl ? len - (size_t)(nl + 1 - s) : 0;
	return TL_OK;
}

/* ------------------------------------------------------------------------ */

/* A line of the file: start, length (no newline, no '\r'), number. */
struct line {
	const char *p;
	size_t len;
	unsigned no;
};

static int blank(const struct line *l)
{
	for (size_t i = 0; i < l->len; i++)
		if (!isspace((unsigned char)l->p[i]))
			return 0;
	return 1;
}

/* Splits TEXT into lines; returns the array (count in *N) or NULL. */
static struct line *split_lines(char *text, size_t len, size_t *n)
{
	size_t cap = 64, k = 0;
	struct line *v = malloc(cap * sizeof *v);
	const char *p = text, *end = text + len;
	while (v && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		if (k == cap) {
			struct line *w = realloc(v, (cap *= 2) * sizeof *v);
			if (!w) {
				free(v);
				return NULL;
			}
			v = w;
		}
		v[k].p = p;
		v[k].len = (size_t)(e - p);
		v[k].no = (unsigned)k + 1;
		k++;
		p = nl ? nl + 1 : end;
	}
	*n = k;
	return v;
}

/* The category from a file name: base name without ".events". */
static int category_of(const char *name, char **out, tl_error *err)
{
	const char *b = strrchr(name, '/');
	size_t len;
	b = b ? b + 1 : name;
	len = strlen(b);
	if (len >= 7 && !strcmp(b + len - 7, ".events"))
		len -= 7;
	if (len > NAME_MAX_LEN)
		return tl_fail(err, TL_E_PARSE, 0,
			       "%s: category '%.*s...' (the file's base name) is longer than %d characters",
			       name, 16, b, NAME_MAX_LEN);
	if (len == 0 || !is_ident_start((unsigned char)b[0]))
		return tl_fail(err, TL_E_PARSE, 0,
			       "%s: category '%.*s' (the file's base name) is not a C identifier",
			       name, (int)len, b);
	for (size_t i = 0; i < len; i++)
		if (!is_ident((unsigned char)b[i]))
			return tl_fail(err, TL_E_PARSE, 0,
				       "%s: category '%.*s' (the file's base name) is not a C identifier",
				       name, (int)len, b);
	*out = strndup(b, len);
	return *out ? TL_OK : tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", name);
}

/* The canonical interned form of D in category CAT. */
static char *canonical(const tl_def *d, const char *cat)
{
	size_t cap = strlen(cat) + d->name_len + d->descr_len + 32;
	char *s, *p;
	for (unsigned i = 0; i < d->nargs; i++)
		cap += d->args_len[i] + 1;
	s = p = malloc(cap);
	if (!s)
		return NULL;
	p += sprintf(p, "%u,%u|%s.%.*s:", d->level, d->rate, cat, (int)d->name_len, d->name);
	for (unsigned i = 0; i < d->nargs; i++)
		p += sprintf(p, " %.*s", (int)d->args_len[i], d->args[i]);
	if (d->descr_len) {
		*p++ = '\n';
		memcpy(p, d->descr, d->descr_len);
		p += d->descr_len;
	}
	*p = '\0';
	return s;
}

/* Trims blank lines around the description lines L[first..last) into D. */
static void set_descr(tl_def *d, const struct line *l, size_t first, size_t last)
{
	while (first < last && blank(&l[first]))
		first++;
	while (last > first && blank(&l[last - 1]))
		last--;
	d->descr = first < last ? l[first].p : "";
	d->descr_len = first < last ? (size_t)(l[last - 1].p + l[last - 1].len - l[first].p) : 0;
}

static int add_def(tl_events *ev, const tl_def *d, const char *file, tl_error *err)
{
	for (size_t i = 0; i < ev->ndefs; i++)
		if (ev->defs[i].name_len == d->name_len && !memcmp(ev->defs[i].name, d->name, d->name_len))
			return tl_fail(err, TL_E_PARSE, 0,
				       "%s:%u: duplicate event '%.*s' (first defined at line %u)", file,
				       d->line, (int)d->name_len, d->name, ev->defs[i].line);
	ev->defs[ev->ndefs++] = *d;
	return TL_OK;
}

/* Parses the lines into EV->defs. */
static int parse_lines(tl_events *ev, const struct line *l, size_t n, const char *file, tl_error *err)
{
	char why[256];
	size_t i = 0, start;
	while (i < n && (blank(&l[i]) || l[i].p[0] == '#'))
		i++;
	if (i < n && !header_like(l[i].p, l[i].len) && !tl_pair_line(l[i].p, l[i].len))
		return tl_fail(err, TL_E_PARSE, 0,
			       "%s:%u: bad header: expected 'LEVEL,RATE|name: arg ...'", file, l[i].no);
	while (i < n) {
		tl_def d;
		if (tl_pair_line(l[i].p, l[i].len)) {   /* a pair declaration (pairs.c) */
			if (tl_events_add_pair(ev, l[i].p, l[i].len, l[i].no, file, err) != TL_OK)
				return TL_E_PARSE;
			i++;
			continue;
		}
		memset(&d, 0, sizeof d);
		d.line = l[i].no;
		if (parse_header(l[i].p, l[i].p + l[i].len, 0, &d, why, sizeof why) != 0)
			return tl_fail(err, TL_E_PARSE, 0, "%s:%u: %s", file, l[i].no, why);
		start = ++i;
		while (i < n && !header_like(l[i].p, l[i].len) && !tl_pair_line(l[i].p, l[i].len))
			i++;
		set_descr(&d, l, start, i);
		if (add_def(ev, &d, file, err) != TL_OK)
			return TL_E_PARSE;
	}
	return TL_OK;
}

static int make_canon(tl_events *ev, const char *file, tl_error *err)
{
	ev->canon = calloc(ev->ndefs ? ev->ndefs : 1, sizeof *ev->canon);
	if (!ev->canon)
		return tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", file);
	for (size_t i = 0; i < ev->ndefs; i++)
		if (!(ev->canon[i] = canonical(&ev->defs[i], ev->category)))
			return tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", file);
	return TL_OK;
}

/* Line number of position AT in TEXT. */
static unsigned line_of(const char *text, const char *at)
{
	unsigned n = 1;
	for (; text < at; text++)
		n += *text == '\n';
	return n;
}

/* Copies LEN bytes of SRC to DST turning CRLF into LF (and dropping a final
 * CR); returns the new length. */
static size_t copy_lf(char *dst, const char *src, size_t len)
{
	size_t k = 0;
	for (size_t i = 0; i < len; i++)
		if (!(src[i] == '\r' && (i + 1 == len || src[i + 1] == '\n')))
			dst[k++] = src[i];
	dst[k] = '\0';
	return k;
}

tl_events *tl_events_parse(const char *text, size_t len, const char *name, tl_error *err)
{
	tl_events *ev = calloc(1, sizeof *ev);
	struct line *lines = NULL;
	size_t n = 0;
	int rc = TL_E_NOMEM;

	tl_ok(err);
	if (!ev || !(ev->text = malloc(len + 1)))
		goto fail;
	if (memchr(text, '\0', len)) {
		rc = tl_fail(err, TL_E_PARSE, 0, "%s:%u: contains a NUL byte; not an events file",
			     name, line_of(text, (const char *)memchr(text, '\0', len)));
		goto fail;
	}
	len = copy_lf(ev->text, text, len);
	rc = category_of(name, &ev->category, err);
	if (rc != TL_OK)
		goto fail;
	rc = TL_E_NOMEM;
	if (!(lines = split_lines(ev->text, len, &n)) && len)
		goto fail;
	if (!(ev->defs = calloc(n ? n : 1, sizeof *ev->defs)))
		goto fail;
	rc = parse_lines(ev, lines, n, name, err);
	if (rc == TL_OK)
		rc = make_canon(ev, name, err);
	if (rc == TL_OK)
		rc = tl_events_check_pairs(ev, name, err);
	if (rc != TL_OK)
		goto fail;
	free(lines);
	return ev;
fail:
	if (rc == TL_E_NOMEM)
		tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", name);
	free(lines);
	tl_events_free(ev);
	return NULL;
}

tl_events *tl_events_load(const char *path, tl_error *err)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;
	tl_events *ev;

	if (!f) {
		tl_fail(err, TL_E_SYS, errno, "%s", path);
		return NULL;
	}
	do {
		if (len == cap) {
			char *b = realloc(buf, cap = cap ? cap * 2 : 8192);
			if (!b) {
				free(buf);
				fclose(f);
				tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", path);
				return NULL;
			}
			buf = b;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
	} while (got > 0);
	if (ferror(f)) {
		tl_fail(err, TL_E_SYS, errno ? errno : EIO, "%s: read error", path);
		ev = NULL;
	} else {
		ev = tl_events_parse(buf, len, path, err);
	}
	fclose(f);
	free(buf);
	return ev;
}

void tl_events_free(tl_events *ev)
{
	if (!ev)
		return;
	if (ev->canon)
		for (size_t i = 0; i < ev->ndefs; i++)
			free(ev->canon[i]);
	free(ev->canon);
	for (size_t i = 0; ev->pair_canon && i < ev->npairs; i++)
		free(ev->pair_canon[i]);
	free(ev->pair_canon);
	free(ev->pairs);
	free(ev->defs);
	free(ev->category);
	free(ev->text);
	free(ev);
}
