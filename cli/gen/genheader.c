/* genheader.c: the C header `timeline gen` makes of an events file: an
 * enum of the events, the registration function, one static inline function
 * per event; and the checks that the names make valid C that cannot clash. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "genheader.h"
#include "usage.h"

static const char *const c_keywords[] = {
	"auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
	"enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
	"restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
	"typedef", "union", "unsigned", "void", "volatile", "while", "uint64_t", "asm",
	"typeof", "unix", "linux", "bool", "true", "false", "errno", NULL,
};

/* Is the argument name S (LEN bytes) unusable as a C parameter name? C
 * keywords, names reserved to the implementation (_X, __x), our tl_, and
 * names in capitals, which may be macros (NULL, UINT64_MAX). */
static int bad_param(const char *s, size_t len)
{
	size_t caps = 0;
	for (size_t i = 0; i < len; i++)
		caps += !islower((unsigned char)s[i]);
	if (caps == len)
		return 1;
	if (len >= 3 && !strncmp(s, "tl_", 3))
		return 1;
	if (len >= 2 && s[0] == '_' && (s[1] == '_' || isupper((unsigned char)s[1])))
		return 1;
	for (int i = 0; c_keywords[i]; i++)
		if (strlen(c_keywords[i]) == len && !strncmp(c_keywords[i], s, len))
			return 1;
	return 0;
}

/* Writes S (LEN bytes) as a C string literal, one source line per text line. */
static void put_literal(FILE *f, const char *s, size_t len)
{
	fputs("\t\t\"", f);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n')
			fputs(i + 1 < len ? "\\n\"\n\t\t\"" : "\\n", f);
		else if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '?' && i + 1 < len && s[i + 1] == '?')
			fputs("?\\", f);   /* no trigraphs under strict -std=c11 */
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\%03o", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Writes S (LEN bytes) inside a comment, defusing what would end it or
 * warn: "*" "/" and "/" "*" get a space between, and so does "??" (a trigraph
 * under strict C). Newlines continue the comment with " * ". */
static void put_comment_safe(FILE *f, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		int next = i + 1 < len ? s[i + 1] : 0;
		if (s[i] == '\n')
			fputs(next && next != '\n' ? "\n * " : "\n *", f);
		else if ((s[i] == '*' && next == '/') || (s[i] == '/' && next == '*') ||
			 (s[i] == '?' && next == '?'))
			fprintf(f, "%c ", s[i]);
		else
			fputc(s[i], f);
	}
}

/* Writes the description as comment lines. */
static void put_comment_text(FILE *f, const char *s, size_t len)
{
	fputs(" * ", f);
	put_comment_safe(f, s, len);
	fputc('\n', f);
}

static void upper(char *dst, const char *src, size_t len)
{
	for (size_t i = 0; i < len; i++)
		dst[i] = (char)toupper((unsigned char)src[i]);
	dst[len] = '\0';
}

static void put_enum(FILE *f, const tl_events *ev, const char *prefix, const char *up)
{
	char name[128];
	fprintf(f, "/* Index of each event in struct %s_events.id. */\nenum {\n", prefix);
	for (size_t i = 0; i < ev->ndefs; i++) {
		upper(name, ev->defs[i].name, ev->defs[i].name_len);
		fprintf(f, "\t%s_%s,\n", up, name);
	}
	fprintf(f, "\t%s_EVENTS_COUNT\n};\n\n", up);
}

/* The end of the registration function of a file that declares pairs:
 * the events registered, then each pair declaration interned, so that the
 * log says which of its events begin and end a span (timeline-events(5)). */
static void put_pairs(FILE *f, const tl_events *ev, const char *up)
{
	fprintf(f, "\tstatic const char *const pairs[%zu] = {\n", ev->npairs);
	for (size_t i = 0; i < ev->npairs; i++) {
		put_literal(f, ev->pair_canon[i], strlen(ev->pair_canon[i]));
		fputs(",\n", f);
	}
	fprintf(f, "\t};\n\tuint16_t id;\n"
		   "\tint rc = tl_register(log, defs, %s_EVENTS_COUNT, attrs, ev->id, err);\n"
		   "\tfor (unsigned i = 0; rc == TL_OK && i < %zu; i++)\n"
		   "\t\trc = tl_intern(log, pairs[i], &id, err);\n"
		   "\treturn rc;\n}\n\n", up, ev->npairs);
}

static void put_register(FILE *f, const tl_events *ev, const char *prefix, const char *up)
{
	fprintf(f,
		"/* Message ids of the %s events in one log: keep one per log. */\n"
		"struct %s_events {\n\tuint16_t id[%s_EVENTS_COUNT];\n};\n\n",
		ev->category, prefix, up);
	fprintf(f,
		"/* Interns the %zu %s event definitions into LOG, with ATTRS (e.g.\n"
		" * \"app=source\", or NULL) after each name, and fills EV's ids%s.\n"
		" * @return TL_OK, or a TL_E_* status with ERR filled (TL_E_FULL: the\n"
		" *         string table is full). */\n"
		"static inline int %s_events_register(tl_log *log, struct %s_events *ev,\n"
		"\t\t\t\t     const char *attrs, tl_error *err)\n{\n"
		"\tstatic const char *const defs[%s_EVENTS_COUNT] = {\n",
		ev->ndefs, ev->category, ev->npairs ? ";\n * then its pair declarations" : "", prefix,
		prefix, up);
	for (size_t i = 0; i < ev->ndefs; i++) {
		put_literal(f, ev->canon[i], strlen(ev->canon[i]));
		fputs(",\n", f);
	}
	fprintf(f, "\t};\n");
	if (ev->npairs)
		put_pairs(f, ev, up);
	else
		fprintf(f, "\treturn tl_register(log, defs, %s_EVENTS_COUNT, attrs, ev->id, err);\n}\n\n",
			up);
}

/* Writes the inline function of event D. */
static void put_event(FILE *f, const tl_def *d, const char *cat, const char *prefix, const char *up)
{
	char name[128];
	upper(name, d->name, d->name_len);
	fprintf(f, "/* %s.%.*s (level %u, rate %u):", cat, (int)d->name_len, d->name, d->level, d->rate);
	for (unsigned i = 0; i < d->nargs; i++)
		fprintf(f, " %.*s", (int)d->args_len[i], d->args[i]);
	fputs("\n *\n", f);
	if (d->descr_len)
		put_comment_text(f, d->descr, d->descr_len);
	else
		fputs(" * (no description)\n", f);
	fprintf(f, " */\nstatic inline void %s_%.*s(tl_log *tl_l, const struct %s_events *tl_ev",
		prefix, (int)d->name_len, d->name, prefix);
	for (unsigned i = 0; i < d->nargs; i++)
		fprintf(f, ",\n\t\tuint64_t %.*s", (int)d->args_len[i], d->args[i]);
	fputs(")\n{\n", f);
	if (d->rate == 0) {
		fputs("\t/* rate 0: never logged */\n\t(void)tl_l;\n\t(void)tl_ev;\n", f);
		for (unsigned i = 0; i < d->nargs; i++)
			fprintf(f, "\t(void)%.*s;\n", (int)d->args_len[i], d->args[i]);
		fputs("}\n\n", f);
		return;
	}
	/* the disabled path: one load, one compare, one predicted branch */
	fprintf(f, "\tif (__builtin_expect(tl_rate(tl_l) > %u, %d))\n\t\treturn;\n", d->rate,
		d->rate < 9);
	/* switched off from outside: no call, but for a change to record, which
	 * may switch it on (the writer grants it): then it is logged */
	fprintf(f, "\tif (__builtin_expect(tl_switched_off(tl_l, tl_ev->id[%s_%s]), 0)) {\n"
		   "\t\ttl_switch_poll(tl_l);\n"
		   "\t\tif (tl_switched_off(tl_l, tl_ev->id[%s_%s]))\n\t\t\treturn;\n\t}\n",
		up, name, up, name);
	fprintf(f, "\ttl_append(tl_l, tl_ev->id[%s_%s]", up, name);
	for (unsigned i = 0; i < TL_MAX_ARGS; i++) {
		if (i < d->nargs)
			fprintf(f, ", %.*s", (int)d->args_len[i], d->args[i]);
		else
			fputs(", 0", f);
	}
	fputs(");\n}\n\n", f);
}

/* Do event names A and B (lengths LA, LB) differ only in case? */
static int same_upper(const char *a, size_t la, const char *b, size_t lb)
{
	return la == lb && !strncasecmp(a, b, la);
}

/* Event names whose generated identifiers would clash with each other or
 * with the generated register function and count constant. */
static int check_names(const tl_events *ev, const char *file)
{
	for (size_t i = 0; i < ev->ndefs; i++) {
		const tl_def *d = &ev->defs[i];
		if (same_upper(d->name, d->name_len, "events_register", 15) ||
		    same_upper(d->name, d->name_len, "events_count", 12) ||
		    same_upper(d->name, d->name_len, "events_h", 8)) {
			cli_error("gen", "%s:%u: event name '%.*s' is reserved by timeline gen", file,
				  d->line, (int)d->name_len, d->name);
			return -1;
		}
		for (size_t j = 0; j < i; j++)
			if (same_upper(d->name, d->name_len, ev->defs[j].name, ev->defs[j].name_len)) {
				cli_error("gen", "%s:%u: event '%.*s' differs from '%.*s' (line %u) only in case",
					  file, d->line, (int)d->name_len, d->name,
					  (int)ev->defs[j].name_len, ev->defs[j].name, ev->defs[j].line);
				return -1;
			}
	}
	return 0;
}

int genheader_check(const tl_events *ev, const char *file)
{
	if (check_names(ev, file))
		return -1;
	for (size_t i = 0; i < ev->ndefs; i++)
		for (unsigned a = 0; a < ev->defs[i].nargs; a++)
			if (bad_param(ev->defs[i].args[a], ev->defs[i].args_len[a])) {
				cli_error("gen", "%s:%u: argument name '%.*s' is reserved in C or by timeline",
					  file, ev->defs[i].line, (int)ev->defs[i].args_len[a],
					  ev->defs[i].args[a]);
				return -1;
			}
	if (ev->ndefs == 0) {
		cli_error("gen", "%s: no events defined", file);
		return -1;
	}
	return 0;
}

void genheader_write(FILE *f, const tl_events *ev, const char *file, const char *prefix)
{
	char up[64];
	upper(up, prefix, strlen(prefix));
	fprintf(f, "/* %s_events.h: generated by `timeline gen` from ", prefix);
	put_comment_safe(f, file, strlen(file));
	fprintf(f, "; do not edit.\n"
		   " * One static inline function per %s event; see timeline-events(5). */\n"
		   "#ifndef %s_EVENTS_H\n#define %s_EVENTS_H\n\n#include <stdint.h>\n"
		   "#include <timeline.h>\n\n",
		ev->category, up, up);
	put_enum(f, ev, prefix, up);
	put_register(f, ev, prefix, up);
	for (size_t i = 0; i < ev->ndefs; i++)
		put_event(f, &ev->defs[i], ev->category, prefix, up);
	fprintf(f, "#endif\n");
}
