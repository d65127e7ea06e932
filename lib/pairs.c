/* pairs.c: pair declarations, "pair|label: begin end [by=ATTR] [unit=ARG]... [breath]",
 * in an events file (checked against its events) and in the canonical form
 * a log interns with its events (timeline-events(5), timeline-format(5)). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "pairs.h"

#define PAIR_WORD_MAX 127            /* a qualified name, "category.name" */

int tl_pair_line(const char *s, size_t len)
{
	return len >= 5 && !memcmp(s, "pair|", 5);
}

/* Copies the word of LEN bytes at W into DST (of SIZE); -1 if too long or
 * not an identifier (DOTS: "category.name" too). */
static int word(char *dst, size_t size, const char *w, size_t len, int dots)
{
	if (!len || len >= size || !(isalpha((unsigned char)w[0]) || w[0] == '_'))
		return -1;
	for (size_t i = 0; i < len; i++)
		if (!(isalnum((unsigned char)w[i]) || w[i] == '_' || (dots && w[i] == '.')))
			return -1;
	memcpy(dst, w, len);
	dst[len] = '\0';
	return 0;
}

/* Parses the words after the ':' (P..END) into PAIR; WHY on error. */
static int parse_words(const char *p, const char *end, int dots, tl_pair *pair, char *why,
		       size_t wsz)
{
	int n = 0;
	while (p < end) {
		const char *w;
		size_t len;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= end)
			break;
		for (w = p; p < end && *p != ' ' && *p != '\t'; p++)
			;
		len = (size_t)(p - w);
		if (n == 0 || n == 1) {
			if (word(n ? pair->end : pair->begin, PAIR_WORD_MAX + 1, w, len, dots) < 0)
				return snprintf(why, wsz, "bad %s event '%.*s'", n ? "end" : "begin",
						(int)(len > 64 ? 64 : len), w), -1;
		} else if (len > 3 && !memcmp(w, "by=", 3)) {
			if (word(pair->by, sizeof pair->by, w + 3, len - 3, 0) < 0)
				return snprintf(why, wsz, "bad attribute in '%.*s'", (int)(len > 64 ? 64 : len),
						w), -1;
		} else if (len > 5 && !memcmp(w, "unit=", 5)) {
			if (pair->nunits == TL_MAX_ARGS)
				return snprintf(why, wsz, "more than %d units", TL_MAX_ARGS), -1;
			if (word(pair->units[pair->nunits], sizeof pair->units[0], w + 5, len - 5, 0) < 0)
				return snprintf(why, wsz, "bad unit in '%.*s'", (int)(len > 64 ? 64 : len),
						w), -1;
			pair->nunits++;
		} else if (len == 6 && !memcmp(w, "breath", 6)) {
			pair->breath = 1;   /* the program's loop: one turn of it */
		} else {
			return snprintf(why, wsz, "'%.*s' is not by=ATTR, unit=ARG or breath",
					(int)(len > 64 ? 64 : len), w), -1;
		}
		n++;
	}
	if (n < 2)
		return snprintf(why, wsz, "expected 'pair|label: begin end [by=ATTR] [unit=ARG]... "
				"[breath]'"), -1;
	if (!strcmp(pair->begin, pair->end))
		return snprintf(why, wsz, "begin and end are the same event '%s'", pair->begin), -1;
	return 0;
}

/* Parses the line S..END; DOTS: the canonical form's qualified names. */
static int parse_pair(const char *s, const char *end, int dots, tl_pair *pair, char *why,
		      size_t wsz)
{
	const char *colon;
	memset(pair, 0, sizeof *pair);
	strcpy(pair->by, "app");
	if (!tl_pair_line(s, (size_t)(end - s)))
		return snprintf(why, wsz, "not a pair declaration"), -1;
	s += 5;
	if (!(colon = memchr(s, ':', (size_t)(end - s))))
		return snprintf(why, wsz, "expected 'pair|label: begin end [by=ATTR] [unit=ARG]... "
				"[breath]' (no ':')"), -1;
	if (word(pair->label, sizeof pair->label, s, (size_t)(colon - s), dots) < 0)
		return snprintf(why, wsz, "bad pair label '%.*s'",
				(int)(colon - s > 64 ? 64 : colon - s), s), -1;
	return parse_words(colon + 1, end, dots, pair, why, wsz);
}

int tl_pair_parse(const char *s, size_t len, tl_pair *pair, tl_error *err)
{
	const char *nl = memchr(s, '\n', len), *end = nl ? nl : s + len;
	char why[256];
	if (parse_pair(s, end, 1, pair, why, sizeof why) < 0)
		return tl_fail(err, TL_E_PARSE, 0, "pair declaration '%.*s': %s",
			       (int)((end - s) > 60 ? 60 : end - s), s, why);
	return TL_OK;
}

/* The definition named NAME in EV, or NULL. */
static const tl_def *def_named(const tl_events *ev, const char *name)
{
	for (size_t i = 0; i < ev->ndefs; i++)
		if (strlen(name) == ev->defs[i].name_len && !memcmp(ev->defs[i].name, name, strlen(name)))
			return &ev->defs[i];
	return NULL;
}

/* Does D have the argument NAME? */
static int has_arg(const tl_def *d, const char *name)
{
	for (unsigned i = 0; i < d->nargs; i++)
		if (strlen(name) == d->args_len[i] && !memcmp(d->args[i], name, d->args_len[i]))
			return 1;
	return 0;
}

/* Checks PAIR (declared at LINE of FILE) against EV's events and pairs. */
static int check_pair(const tl_events *ev, const tl_pair *pair, unsigned line, const char *file,
		      tl_error *err)
{
	const tl_def *end;
	if (!def_named(ev, pair->begin))
		return tl_fail(err, TL_E_PARSE, 0, "%s:%u: pair '%s': no event '%s' in this file", file,
			       line, pair->label, pair->begin);
	if (!(end = def_named(ev, pair->end)))
		return tl_fail(err, TL_E_PARSE, 0, "%s:%u: pair '%s': no event '%s' in this file", file,
			       line, pair->label, pair->end);
	for (unsigned u = 0; u < pair->nunits; u++)
		if (!has_arg(end, pair->units[u]))
			return tl_fail(err, TL_E_PARSE, 0, "%s:%u: pair '%s': its end '%s' has no "
				       "argument '%s'", file, line, pair->label, pair->end,
				       pair->units[u]);
	for (size_t i = 0; i < ev->npairs; i++) {
		if (!strcmp(ev->pairs[i].label, pair->label))
			return tl_fail(err, TL_E_PARSE, 0, "%s:%u: duplicate pair '%s'", file, line,
				       pair->label);
		if (pair->breath && ev->pairs[i].breath)
			return tl_fail(err, TL_E_PARSE, 0, "%s:%u: pair '%s': a second breath (pair "
				       "'%s' is the breath)", file, line, pair->label,
				       ev->pairs[i].label);
	}
	return TL_OK;
}

/* The canonical form of PAIR in category CAT. */
static char *pair_canonical(const tl_pair *pair, const char *cat)
{
	char buf[1024];
	size_t n = (size_t)snprintf(buf, sizeof buf, "pair|%s.%s: %s.%s %s.%s", cat, pair->label, cat,
				    pair->begin, cat, pair->end);
	if (strcmp(pair->by, "app"))
		n += (size_t)snprintf(buf + n, sizeof buf - n, " by=%s", pair->by);
	for (unsigned u = 0; u < pair->nunits; u++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, " unit=%s", pair->units[u]);
	if (pair->breath)
		snprintf(buf + n, sizeof buf - n, " breath");
	return strdup(buf);
}

int tl_events_add_pair(tl_events *ev, const char *s, size_t len, unsigned line, const char *file,
		       tl_error *err)
{
	tl_pair pair, *p;
	char why[256];
	if (parse_pair(s, s + len, 0, &pair, why, sizeof why) < 0)
		return tl_fail(err, TL_E_PARSE, 0, "%s:%u: %s", file, line, why);
	pair.line = line;
	if (!(p = realloc(ev->pairs, (ev->npairs + 1) * sizeof *p)))
		return tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", file);
	ev->pairs = p;
	ev->pairs[ev->npairs++] = pair;
	return TL_OK;
}

int tl_events_check_pairs(tl_events *ev, const char *file, tl_error *err)
{
	size_t n = ev->npairs;
	if (!n)
		return TL_OK;
	if (!(ev->pair_canon = calloc(n, sizeof *ev->pair_canon)))
		return tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", file);
	ev->npairs = 0;   /* each checked against those before it */
	for (size_t i = 0; i < n; i++) {
		if (check_pair(ev, &ev->pairs[i], ev->pairs[i].line, file, err) != TL_OK) {
			ev->npairs = n;
			return TL_E_PARSE;
		}
		ev->npairs++;
		if (!(ev->pair_canon[i] = pair_canonical(&ev->pairs[i], ev->category)))
			return tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", file);
	}
	return TL_OK;
}
