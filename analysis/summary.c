/* summary.c: the summary file (timeline-summary(5)): an engine's rows,
 * breath summaries, unmatched pairs and what its options found, written as
 * tagged sections of LEB128 numbers behind a 32-byte header, zstd-compressed;
 * and read back with every count and index checked before it is used. */
#define _GNU_SOURCE
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "engine.h"    /* an_note_unit(): a summary's units noted as its logs' */
#include "summary.h"

const unsigned char an_summary_magic[8] = { 0x89, 'T', 'L', 'S', '\r', '\n', 0x1a, '\n' };

/* Sections, in this order; a reader skips tags it does not know. */
enum { SEC_OPTIONS = 1, SEC_STRINGS, SEC_ROWS, SEC_BREATHS, SEC_UNMATCHED, SEC_FOUND,
       SEC_LEVELS /* 1.1: each row's level, in row order (readers of 1.0 skip it) */,
       SEC_SLOWEST /* 1.2: each row's slowest pairs, in row order (older readers skip it) */,
       SEC_SPANS /* 1.3: each row's unit, latency and self cycles, in row order; then
		  * which pairs held which (older readers skip it) */ };

#define BREATH_NUMBERS 11            /* hz ... lost: the numbers of a file's record */
#define NROWKEYS 8                   /* event, app, process, cpu, numa, host, group, run */
static const int row_keys[NROWKEYS] = { AN_EVENT, AN_APP,  AN_PROCESS, AN_CPU,
					AN_NUMA,  AN_HOST, AN_GROUP,   AN_RUN };

int an_summary_probe(const unsigned char *p, size_t n)
{
	return n >= sizeof an_summary_magic && !memcmp(p, an_summary_magic, sizeof an_summary_magic);
}

/* ------------------------------------------------------------------------
 * Writing
 * ------------------------------------------------------------------------ */

struct enc {
	unsigned char *p;
	size_t len, cap;
};

static void put_bytes(struct enc *e, const void *s, size_t n)
{
	if (!n)
		return;
	if (e->len + n > e->cap) {
		e->cap = 2 * (e->len + n) + 256;
		if (!(e->p = realloc(e->p, e->cap)))
			abort();
	}
	memcpy(e->p + e->len, s, n);
	e->len += n;
}

/* V as LEB128: 7 bits a byte, low first, the top bit set on all but the
 * last; straight into the buffer (one of these per count written). */
static void put_var(struct enc *e, uint64_t v)
{
	unsigned char *p;
	if (e->len + 10 > e->cap) {
		e->cap = 2 * e->len + 256;
		if (!(e->p = realloc(e->p, e->cap)))
			abort();
	}
	p = e->p + e->len;
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	e->len = (size_t)(p - e->p);
}

/* A double: 2 W for a whole W below 2^62, else 1 and its 8 bytes. */
static void put_num(struct enc *e, double v)
{
	uint64_t bits;
	if (v >= 0 && v < 0x1p62 && v == floor(v)) {
		put_var(e, 2 * (uint64_t)v);
		return;
	}
	memcpy(&bits, &v, 8);
	put_var(e, 1);
	for (int i = 0; i < 8; i++)
		put_bytes(e, &(unsigned char){ (unsigned char)(bits >> (8 * i)) }, 1);
}

static void put_limbs(struct enc *e, const uint64_t *w, int n)
{
	for (int i = 0; i < n; i++)
		put_var(e, w[i]);
}

/* Appends section TAG holding S to E; frees S. */
static void put_section(struct enc *e, int tag, struct enc *s)
{
	put_var(e, (uint64_t)tag);
	put_var(e, s->len);
	put_bytes(e, s->p, s->len);
	free(s->p);
	memset(s, 0, sizeof *s);
}

/* The strings a summary names, each once: an index + 1 per string (0 is
 * "none"), by hash. */
struct strtab {
	struct enc body;             /* the strings section's contents, but the count */
	char **s;
	size_t n, cap;
	size_t *slot, nslots;        /* index + 1 */
};

static void strtab_grow(struct strtab *t)
{
	size_t n = t->nslots ? 2 * t->nslots : 1024;
	free(t->slot);
	if (!(t->slot = calloc(n, sizeof *t->slot)))
		abort();
	t->nslots = n;
	for (size_t i = 0; i < t->n; i++) {
		size_t h = an_hash_str(t->s[i]) & (n - 1);
		while (t->slot[h])
			h = (h + 1) & (n - 1);
		t->slot[h] = i + 1;
	}
}

/* The number of S in T (index + 1), added if new; 0 for NULL. */
static uint64_t strtab_id(struct strtab *t, const char *s)
{
	size_t h;
	if (!s)
		return 0;
	if (2 * (t->n + 1) > t->nslots)
		strtab_grow(t);
	for (h = an_hash_str(s) & (t->nslots - 1); t->slot[h]; h = (h + 1) & (t->nslots - 1))
		if (!strcmp(t->s[t->slot[h] - 1], s))
			return t->slot[h];
	if (t->n == t->cap && !(t->s = realloc(t->s, (t->cap = 2 * t->cap + 64) * sizeof *t->s)))
		abort();
	t->s[t->n++] = (char *)s;
	t->slot[h] = t->n;
	put_var(&t->body, strlen(s));
	put_bytes(&t->body, s, strlen(s));
	return t->n;
}

static void put_hist(struct enc *e, const struct hist *h)
{
	uint64_t s1[2] = { (uint64_t)h->s1, (uint64_t)(h->s1 >> 64) };
	uint64_t s2[3] = { (uint64_t)h->s2, (uint64_t)(h->s2 >> 64), h->s2hi };
	uint64_t nb = 0;
	int prev = -1;
	put_var(e, h->n);
	put_var(e, h->zeros);
	put_num(e, h->min);
	put_num(e, h->max);
	put_var(e, (uint64_t)h->fractions);
	put_limbs(e, s1, 2);
	put_limbs(e, s2, 3);
	put_limbs(e, h->f1, 4);
	put_limbs(e, h->f2, 4);
	for (int x = 0; x < HIST_EXPS; x++)
		for (int s = 0; h->block[x] && s < HIST_SUB; s++)
			nb += h->block[x][s] != 0;
	put_var(e, nb);
	for (int x = 0; x < HIST_EXPS; x++)
		for (int s = 0; h->block[x] && s < HIST_SUB; s++) {
			int i = x * HIST_SUB + s;
			if (!h->block[x][s])
				continue;
			put_var(e, (uint64_t)(i - prev - 1));   /* the gap since the last */
			put_var(e, h->block[x][s]);
			prev = i;
		}
}

/* A signed number as an unsigned one: 0, -1, 1, -2 ... as 0, 1, 2, 3 ... */
static uint64_t zigzag(int64_t v)
{
	return v < 0 ? 2 * ~(uint64_t)v + 1 : 2 * (uint64_t)v;
}

/* The slowest pairs section: how many each row keeps, then per row its
 * pairs (at most that many). */
static void put_slowest(struct enc *e, struct an *a, struct an_row **rows, size_t n,
			struct strtab *t)
{
	unsigned kept = an_slowest_kept(a);
	put_var(e, kept);
	put_var(e, n);
	for (size_t i = 0; i < n; i++) {
		size_t m = rows[i]->nslow < kept ? rows[i]->nslow : kept;
		put_var(e, m);
		for (size_t k = 0; k < m; k++) {
			const struct an_slow *s = &rows[i]->slow[k];
			put_num(e, s->cycles);
			put_num(e, s->units);
			/* differences, modulo 2^64, that are small or the same for
			 * every pair of a file: zstd keeps them in a few bits */
			put_limbs(e, (uint64_t[]){ s->tsc1, s->tsc1 - s->tsc0, s->tsc1 - s->since1,
						   (s->since1 - s->since0) - (s->tsc1 - s->tsc0),
						   (uint64_t)s->walls, s->hz }, 6);
			if (s->walls) {
				put_var(e, zigzag(s->wall0));
				put_var(e, zigzag((int64_t)((uint64_t)s->wall1 - (uint64_t)s->wall0)));
			}
			put_var(e, strtab_id(t, s->cpu));
			put_var(e, strtab_id(t, s->numa));
			put_var(e, strtab_id(t, s->process));
			put_var(e, strtab_id(t, s->path));
		}
	}
}

static void put_rows(struct enc *e, struct enc *levels, struct enc *slowest, struct an *a,
		     struct strtab *t)
{
	size_t n;
	struct an_row **rows = an_rows(a, &n);
	put_var(e, n);
	put_var(levels, n);
	for (size_t i = 0; i < n; i++)
		put_var(levels, rows[i]->level);
	put_slowest(slowest, a, rows, n, t);
	for (size_t i = 0; i < n; i++) {
		const struct an_row *r = rows[i];
		for (int k = 0; k < NROWKEYS; k++)
			put_var(e, strtab_id(t, r->key[row_keys[k]]));
		put_var(e, (uint64_t)(r->bucket + 1));
		put_var(e, (uint64_t)r->hz_set);
		put_var(e, r->hz_min);
		put_var(e, r->hz_max);
		put_num(e, r->cycles);
		put_num(e, r->units);
		put_var(e, r->empty);
		put_var(e, r->empty_diffed);
		put_hist(e, &r->h);
	}
}

static void put_breaths(struct enc *e, struct an *a, struct strtab *t)
{
	size_t n;
	const struct an_breaths *b = an_breath_list(a, &n);   /* in file order: their ranks */
	put_var(e, n);
	for (size_t i = 0; i < n; i++) {
		put_var(e, strtab_id(t, b[i].process));
		put_var(e, strtab_id(t, b[i].path));
		put_var(e, strtab_id(t, b[i].group));
		put_var(e, strtab_id(t, b[i].host));
		put_limbs(e, (uint64_t[]){ b[i].hz, b[i].n, b[i].breaths, b[i].packets, b[i].bytes,
					   b[i].cycles, b[i].share_breaths, b[i].last_breath,
					   b[i].last_packets, b[i].written, b[i].lost }, BREATH_NUMBERS);
		put_num(e, b[i].share_cycles);
		put_var(e, b[i].nshares);
		for (size_t k = 0; k < b[i].nshares; k++) {
			put_var(e, strtab_id(t, b[i].shares[k].app));
			put_num(e, b[i].shares[k].cycles);
		}
	}
}

static void put_unmatched(struct enc *e, struct an *a, struct strtab *t)
{
	size_t n;
	const struct an_unmatched *u = an_unmatched_list(a, &n);
	put_var(e, n);
	for (size_t i = 0; i < n; i++) {
		put_var(e, strtab_id(t, u[i].label));
		put_var(e, u[i].ends);
		put_var(e, u[i].begins);
	}
}

static void put_found(struct enc *e, const struct an_found *f, struct strtab *t)
{
	put_limbs(e, (uint64_t[]){ f->rules, f->ends, f->ends_with_unit, f->ends_with_bucket,
				   f->nargs }, 5);
	for (size_t i = 0; i < f->nargs; i++)
		put_var(e, strtab_id(t, f->args[i]));
}

/* The spans section: per row its unit (string or none), its spans'
 * cycles, whether its self cycles split from its values and then their
 * histogram; then the nesting, four strings a pair held in another. */
static void put_spans(struct enc *e, struct an *a, struct strtab *t)
{
	size_t n, nn;
	struct an_row **rows = an_rows(a, &n);
	const struct an_nest *nest = an_nesting(a, &nn);
	put_var(e, n);
	for (size_t i = 0; i < n; i++) {
		put_var(e, rows[i]->unit ? strtab_id(t, rows[i]->unit) : 0);
		put_var(e, rows[i]->key[AN_THREAD] ? strtab_id(t, rows[i]->key[AN_THREAD]) : 0);
		put_num(e, rows[i]->self_cycles);
		put_hist(e, &rows[i]->span);
		put_var(e, (uint64_t)rows[i]->self_split);
		if (rows[i]->self_split)
			put_hist(e, &rows[i]->self);
	}
	put_var(e, nn);
	for (size_t i = 0; i < nn; i++) {
		put_var(e, strtab_id(t, nest[i].outer));
		put_var(e, strtab_id(t, nest[i].outer_attr));
		put_var(e, strtab_id(t, nest[i].inner));
		put_var(e, strtab_id(t, nest[i].inner_attr));
	}
	{   /* each file record's breath unit (none: Snabb's counters) */
		size_t nb;
		const struct an_breaths *b = an_breath_list(a, &nb);
		put_var(e, nb);
		for (size_t i = 0; i < nb; i++)
			put_var(e, b[i].unit ? strtab_id(t, b[i].unit) : 0);
	}
}

/* The body of A's summary, uncompressed. */
static void put_body(struct enc *body, struct an *a, const char *fixed)
{
	struct strtab t;
	struct enc s[8];
	memset(&t, 0, sizeof t);
	memset(s, 0, sizeof s);
	put_var(&s[0], strlen(fixed));
	put_bytes(&s[0], fixed, strlen(fixed));
	put_rows(&s[1], &s[5], &s[6], a, &t);
	put_breaths(&s[2], a, &t);
	put_unmatched(&s[3], a, &t);
	put_found(&s[4], an_found(a), &t);
	put_spans(&s[7], a, &t);
	put_section(body, SEC_OPTIONS, &s[0]);
	/* the strings go before what names them */
	put_var(body, SEC_STRINGS);
	{
		struct enc count = { 0 };
		put_var(&count, t.n);
		put_var(body, count.len + t.body.len);
		put_bytes(body, count.p, count.len);
		put_bytes(body, t.body.p, t.body.len);
		free(count.p);
	}
	put_section(body, SEC_ROWS, &s[1]);
	put_section(body, SEC_BREATHS, &s[2]);
	put_section(body, SEC_UNMATCHED, &s[3]);
	put_section(body, SEC_FOUND, &s[4]);
	put_section(body, SEC_LEVELS, &s[5]);
	put_section(body, SEC_SLOWEST, &s[6]);
	put_section(body, SEC_SPANS, &s[7]);
	free(t.body.p);
	free(t.s);
	free(t.slot);
}

static void put_u64le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

int an_summary_write(struct an *a, const char *fixed, unsigned char **file, size_t *size)
{
	struct enc body = { 0 };
	size_t bound, z;
	unsigned char *f;
	put_body(&body, a, fixed);
	bound = ZSTD_compressBound(body.len);
	if (!(f = malloc(AN_SUMMARY_HEADER + bound))) {
		free(body.p);
		return -1;
	}
	z = ZSTD_compress(f + AN_SUMMARY_HEADER, bound, body.p, body.len, 3);
	if (ZSTD_isError(z)) {
		free(body.p);
		free(f);
		return -1;
	}
	memcpy(f, an_summary_magic, 8);
	put_u64le(f + 8, AN_SUMMARY_MAJOR, 2);
	put_u64le(f + 10, AN_SUMMARY_MINOR, 2);
	put_u64le(f + 12, 1, 4);             /* flags: the body is zstd-compressed */
	put_u64le(f + 16, z, 8);
	put_u64le(f + 24, body.len, 8);
	free(body.p);
	*file = f;
	*size = AN_SUMMARY_HEADER + z;
	return 0;
}

/* ------------------------------------------------------------------------
 * Reading: a cursor that checks every step against the end
 * ------------------------------------------------------------------------ */

struct dec {
	const unsigned char *p, *end;
	char *err;                   /* the message, once something is wrong */
	size_t errsize;
	int bad;
	char **str;                  /* the strings section, NUL-terminated copies */
	uint64_t nstr;
	struct an *a;                /* the engine read into: its options are checked against */
	int apply;                   /* 0: only check; 1: add to A */
	const struct an_summary_map *m;
	const char *where;           /* the section or item being read, for messages */
	uint64_t item;
	struct levels *lv;           /* the rows' levels, read in the checking pass */
};

/* The levels section (1.1), kept from the pass that checks to the one that
 * adds: rows of a summary without it are of level 0. */
struct levels {
	unsigned *v;
	uint64_t n;
	uint64_t rows;               /* the rows section's count */
	/* in the pass that adds: each row's row of the engine, and its host */
	struct an_row **row;
	const char **host;
	int slowest;                 /* the slowest pairs section was read (1.2) ... */
	uint64_t kept;               /* ... keeping this many of each row */
	unsigned char *split;        /* the spans section (1.3), read in the checking
				      * pass: each row's self cycles split from its
				      * values (row order; NSPLIT of them) ... */
	uint64_t nsplit;
	char **bunit;                /* ... and each file record's breath unit (NULL
				      * none; NBUNIT of them), for read_breath() ... */
	char **thread;               /* ... and each row's thread key (NULL none, as many
				      * as NSPLIT), for read_row() */
	uint64_t nbunit;
	uint64_t records;            /* the breaths section's count */
};

/* Marks D damaged, saying WHY (with the item being read); returns -1. */
static int damaged(struct dec *d, const char *why, ...) __attribute__((format(printf, 2, 3)));
static int damaged(struct dec *d, const char *why, ...)
{
	char what[160];
	va_list ap;
	if (d->bad++)
		return -1;
	va_start(ap, why);
	vsnprintf(what, sizeof what, why, ap);
	va_end(ap);
	if (d->where)
		snprintf(d->err, d->errsize, "damaged summary (%s %llu: %s)", d->where,
			 (unsigned long long)d->item, what);
	else
		snprintf(d->err, d->errsize, "damaged summary (%s)", what);
	return -1;
}

static int get_var(struct dec *d, uint64_t *v)
{
	if (d->p < d->end && !(*d->p & 0x80)) {   /* most numbers: one byte */
		*v = *d->p++;
		return 0;
	}
	*v = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		unsigned b;
		if (d->p >= d->end)
			return damaged(d, "a number runs past the end of its section");
		b = *d->p++;
		if (shift == 63 && b > 1)
			return damaged(d, "a number over 64 bits");
		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
	}
	return damaged(d, "a number over 64 bits");
}

/* A count of things of at least one byte each: no more than remain. */
static int get_count(struct dec *d, uint64_t *n)
{
	if (get_var(d, n) < 0)
		return -1;
	if (*n > (uint64_t)(d->end - d->p))
		return damaged(d, "a count of %llu with %zu bytes left", (unsigned long long)*n,
			       (size_t)(d->end - d->p));
	return 0;
}

static int get_num(struct dec *d, double *v)
{
	uint64_t w, bits = 0;
	if (get_var(d, &w) < 0)
		return -1;
	if (!(w & 1)) {
		*v = (double)(w / 2);
		return 0;
	}
	if (w != 1 || d->end - d->p < 8)
		return damaged(d, "a bad number");
	for (int i = 0; i < 8; i++)
		bits |= (uint64_t)*d->p++ << (8 * i);
	memcpy(v, &bits, 8);
	return 0;
}

/* A non-negative, finite number. */
static int get_value(struct dec *d, double *v)
{
	if (get_num(d, v) < 0)
		return -1;
	return isfinite(*v) && *v >= 0 ? 0 : damaged(d, "a value that is negative or not finite");
}

static int get_limbs(struct dec *d, uint64_t *w, int n)
{
	for (int i = 0; i < n; i++)
		if (get_var(d, &w[i]) < 0)
			return -1;
	return 0;
}

/* A string of the strings section by its number (0: none, if NONE_OK). */
static int get_str(struct dec *d, const char **s, int none_ok)
{
	uint64_t i;
	if (get_var(d, &i) < 0)
		return -1;
	if (i > d->nstr || (i == 0 && !none_ok))
		return damaged(d, "string %llu of %llu", (unsigned long long)i,
			       (unsigned long long)d->nstr);
	*s = i ? d->str[i - 1] : NULL;
	return 0;
}

/* The section at D's cursor: its tag and a cursor over its contents. */
static int get_section(struct dec *d, uint64_t *tag, struct dec *s)
{
	uint64_t len;
	if (get_var(d, tag) < 0 || get_var(d, &len) < 0)
		return -1;
	if (len > (uint64_t)(d->end - d->p))
		return damaged(d, "section %llu of %llu bytes, %zu left", (unsigned long long)*tag,
			       (unsigned long long)len, (size_t)(d->end - d->p));
	*s = *d;
	s->end = d->p + len;
	d->p += len;
	return 0;
}

/* ---- the sections -------------------------------------------------------- */

/* "with 'OPTS'" for the N bytes of OPTS, or "without fixed options". */
static void with(char *buf, size_t size, const char *opts, size_t n)
{
	if (n)
		snprintf(buf, size, "with '%.*s'", (int)(n < 200 ? n : 200), opts);
	else
		snprintf(buf, size, "without fixed options");
}

static int read_options(struct dec *d)
{
	uint64_t n;
	const char *want = d->m->fixed ? d->m->fixed : "", *alt = d->m->alt_fixed;
	char made[256], read[256];
	if (get_count(d, &n) < 0)
		return -1;
	if (alt && n == strlen(alt) && !memcmp(d->p, alt, n)) {   /* for the other engine */
		*d->m->alt_chosen = 1;
		want = alt;
	}
	if (n != strlen(want) || memcmp(d->p, want, n)) {
		with(made, sizeof made, (const char *)d->p, n);
		with(read, sizeof read, want, strlen(want));
		if (!d->bad++)
			snprintf(d->err, d->errsize, "made %s but read %s (a summary fixes --per, "
				 "--pair, --bucket and the window: --from, --to, --last, --event, "
				 "--app, --cpu and --numa; read it with the same)", made, read);
		return -1;
	}
	d->p += n;
	return 0;
}

static int read_strings(struct dec *d)
{
	uint64_t n, len;
	if (get_count(d, &n) < 0)
		return -1;
	if (!(d->str = calloc(n ? n : 1, sizeof *d->str)))
		return damaged(d, "out of memory");
	for (d->nstr = 0; d->nstr < n; d->nstr++) {
		if (get_count(d, &len) < 0)
			return -1;
		if (memchr(d->p, 0, len))
			return damaged(d, "a NUL inside string %llu", (unsigned long long)d->nstr + 1);
		if (!(d->str[d->nstr] = strndup((const char *)d->p, len)))
			return damaged(d, "out of memory");
		d->p += len;
	}
	return 0;
}

/* Reads a histogram's scalars into H (no buckets) and checks them. */
static int read_hist_sums(struct dec *d, struct hist *h)
{
	uint64_t s1[2], s2[3], fr;
	memset(h, 0, sizeof *h);
	if (get_var(d, &h->n) < 0 || get_var(d, &h->zeros) < 0 || get_value(d, &h->min) < 0 ||
	    get_value(d, &h->max) < 0 || get_var(d, &fr) < 0 || get_limbs(d, s1, 2) < 0 ||
	    get_limbs(d, s2, 3) < 0 || get_limbs(d, h->f1, 4) < 0 || get_limbs(d, h->f2, 4) < 0)
		return -1;
	h->fractions = fr != 0;
	h->s1 = (unsigned __int128)s1[1] << 64 | s1[0];
	h->s2 = (unsigned __int128)s2[1] << 64 | s2[0];
	h->s2hi = s2[2];
	if (fr > 1 || h->zeros > h->n || (h->n && h->min > h->max))
		return damaged(d, "histogram of %llu values, %llu zeros, from %g to %g",
			       (unsigned long long)h->n, (unsigned long long)h->zeros, h->min, h->max);
	if (!hist_sums_sound(h))
		return damaged(d, "sums no set of %llu values can have", (unsigned long long)h->n);
	return 0;
}

/* Reads the bucket counts of a histogram of N values, ZEROS of them zeros,
 * adding them to INTO if not NULL. */
static int read_buckets(struct dec *d, uint64_t n, uint64_t zeros, struct hist *into)
{
	uint64_t nb, gap, count, total = zeros;
	int64_t i = -1;
	if (get_count(d, &nb) < 0)
		return -1;
	for (uint64_t k = 0; k < nb; k++) {
		if (get_var(d, &gap) < 0 || get_var(d, &count) < 0)
			return -1;
		if (gap >= (uint64_t)HIST_EXPS * HIST_SUB - (uint64_t)(i + 1) || !count ||
		    __builtin_add_overflow(total, count, &total))
			return damaged(d, "bucket %llu past the last or empty",
				       (unsigned long long)(i + 1 + (int64_t)gap));
		i += 1 + (int64_t)gap;
		if (into && !into->block[i / HIST_SUB] && hist_new_block(into, (int)(i / HIST_SUB)) < 0)
			return damaged(d, "out of memory");
		if (into)
			into->block[i / HIST_SUB][i % HIST_SUB] += count;
	}
	if (total != n)
		return damaged(d, "buckets hold %llu values, the histogram %llu",
			       (unsigned long long)total, (unsigned long long)n);
	return 0;
}

/* The key values of a row, as the reader's map places them: KEY[k] for
 * summary key k, the run of the reader's kind (an_run_of()) into RUN. */
static void map_keys(struct dec *d, const char *const key[NROWKEYS], int bucket,
		     char *kv[AN_NKEYS], char **run)
{
	memset(kv, 0, AN_NKEYS * sizeof *kv);
	for (int k = 0; k < NROWKEYS; k++)
		kv[row_keys[k]] = (char *)key[k];
	if (d->m->group)
		kv[AN_GROUP] = (char *)d->m->group;
	if (d->item < d->lv->nsplit)   /* 1.3: each row's thread (spans section) */
		kv[AN_THREAD] = d->lv->thread[d->item];
	if (kv[AN_RUN])
		kv[AN_RUN] = *run = an_run_of(d->m->runs, kv[AN_RUN]);
	kv[AN_BUCKET] = (char *)an_bucket_label(d->a, bucket);
}

/* The --bucket range B (0: none) of a row, checked against the reader's. */
static int get_bucket(struct dec *d, int *bucket)
{
	uint64_t b;
	const struct an_options *o = an_opts(d->a);
	if (get_var(d, &b) < 0)
		return -1;
	if (b && (b > o->nedges || isinf(o->edges[b - 1])))
		return damaged(d, "bucket range %llu of %zu", (unsigned long long)b - 1, o->nedges);
	*bucket = (int)b - 1;
	return 0;
}

static int read_row(struct dec *d)
{
	const char *key[NROWKEYS];
	uint64_t hz_set, lo, hi, empty, diffed;
	double cycles, units;
	struct hist h;
	struct an_row *r = NULL;
	char *kv[AN_NKEYS], *dir = NULL;
	int bucket = -1;
	for (int k = 0; k < NROWKEYS; k++)
		if (get_str(d, &key[k], 1) < 0)
			return -1;
	if (get_bucket(d, &bucket) < 0 || get_var(d, &hz_set) < 0 || get_var(d, &lo) < 0 ||
	    get_var(d, &hi) < 0 || get_value(d, &cycles) < 0 || get_value(d, &units) < 0 ||
	    get_var(d, &empty) < 0 || get_var(d, &diffed) < 0 || read_hist_sums(d, &h) < 0)
		return -1;
	if (hz_set > 1 || (hz_set && lo > hi) || diffed > empty)
		return damaged(d, "frequencies %llu to %llu, %llu of %llu empty pairs",
			       (unsigned long long)lo, (unsigned long long)hi,
			       (unsigned long long)diffed, (unsigned long long)empty);
	if (d->apply) {
		map_keys(d, key, bucket, kv, &dir);
		r = an_row_at(d->a, kv, bucket, d->item < d->lv->n ? d->lv->v[d->item] : 0);
		free(dir);
		d->lv->row[d->item] = r;
		d->lv->host[d->item] = key[5];   /* the host key (row_keys) */
		/* its self cycles: apart from its values from now on when the
		 * summary's row has them apart (read in the spans section) */
		if (d->item < d->lv->nsplit && d->lv->split[d->item] && !r->self_split &&
		    an_row_split(r) < 0)
			return damaged(d, "out of memory");
		hist_merge_sums(&r->h, &h);
		r->cycles += cycles;
		r->units += units;
		r->empty += empty;
		r->empty_diffed += diffed;
		if (hz_set)
			an_row_hz(r, lo, hi);
	}
	{
		const unsigned char *at = d->p;
		if (read_buckets(d, h.n, h.zeros, r ? &r->h : NULL) < 0)
			return -1;
		/* the summary's pairs are their own self: into R's, if apart */
		if (r && r->self_split && !(d->item < d->lv->nsplit && d->lv->split[d->item])) {
			d->p = at;
			hist_merge_sums(&r->self, &h);
			return read_buckets(d, h.n, h.zeros, &r->self);
		}
	}
	return 0;
}

static int read_rows(struct dec *d)
{
	uint64_t n;
	if (get_count(d, &n) < 0)
		return -1;
	d->lv->rows = n;
	if (d->apply) {   /* for the slowest pairs section: the rows they go to */
		free(d->lv->row);
		free(d->lv->host);
		d->lv->row = calloc(n ? n : 1, sizeof *d->lv->row);
		d->lv->host = calloc(n ? n : 1, sizeof *d->lv->host);
		if (!d->lv->row || !d->lv->host)
			return damaged(d, "out of memory");
	}
	d->where = "row";
	for (d->item = 0; d->item < n; d->item++)
		if (read_row(d) < 0)
			return -1;
	d->where = NULL;
	return 0;
}

static int read_breath(struct dec *d, uint64_t rank)
{
	struct an_breaths b;
	uint64_t v[BREATH_NUMBERS], n;
	const char *group;
	memset(&b, 0, sizeof b);
	if (get_str(d, (const char **)&b.process, 0) < 0 || get_str(d, (const char **)&b.path, 0) < 0 ||
	    get_str(d, &group, 0) < 0 || get_str(d, (const char **)&b.host, 0) < 0 ||
	    get_limbs(d, v, BREATH_NUMBERS) < 0 || get_value(d, &b.share_cycles) < 0 ||
	    get_count(d, &n) < 0)
		return -1;
	b.group = (char *)(d->m->group ? d->m->group : group);
	b.hz = v[0], b.n = v[1], b.breaths = v[2], b.packets = v[3], b.bytes = v[4];
	b.cycles = v[5], b.share_breaths = v[6], b.last_breath = v[7], b.last_packets = v[8];
	b.written = v[9], b.lost = v[10];
	b.unit = rank < d->lv->nbunit ? d->lv->bunit[rank] : NULL;
	b.order = d->m->order + rank;
	if (!(b.shares = calloc(n ? n : 1, sizeof *b.shares)))
		return damaged(d, "out of memory");
	for (b.nshares = 0; b.nshares < n; b.nshares++)
		if (get_str(d, (const char **)&b.shares[b.nshares].app, 0) < 0 ||
		    get_value(d, &b.shares[b.nshares].cycles) < 0) {
			free(b.shares);
			return -1;
		}
	if (d->apply)
		an_add_breaths(d->a, &b);
	free(b.shares);
	return 0;
}

static int read_breaths(struct dec *d)
{
	uint64_t n;
	if (get_count(d, &n) < 0)
		return -1;
	if (n >> 32)
		return damaged(d, "%llu file records", (unsigned long long)n);
	d->lv->records = n;
	d->where = "file";
	for (d->item = 0; d->item < n; d->item++)
		if (read_breath(d, d->item) < 0)
			return -1;
	d->where = NULL;
	return 0;
}

static int read_unmatched(struct dec *d)
{
	uint64_t n, ends, begins;
	const char *label;
	if (get_count(d, &n) < 0)
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		if (get_str(d, &label, 0) < 0 || get_var(d, &ends) < 0 || get_var(d, &begins) < 0)
			return -1;
		if (d->apply)
			an_add_unmatched(d->a, label, ends, begins);
	}
	return 0;
}

/* The levels section: as many as the rows, each at most 9. */
static int read_levels(struct dec *d)
{
	uint64_t n, v;
	if (get_count(d, &n) < 0)
		return -1;
	if (d->apply)
		return d->p = d->end, 0;   /* read in the checking pass */
	if (n != d->lv->rows)
		return damaged(d, "%llu levels for %llu rows", (unsigned long long)n,
			       (unsigned long long)d->lv->rows);
	free(d->lv->v);
	d->lv->n = 0;
	d->lv->v = calloc(n ? n : 1, sizeof *d->lv->v);
	if (!d->lv->v)
		return damaged(d, "out of memory");
	for (uint64_t i = 0; i < n; i++) {
		if (get_var(d, &v) < 0)
			return -1;
		if (v > 9)
			return damaged(d, "row %llu of level %llu", (unsigned long long)i,
				       (unsigned long long)v);
		d->lv->v[i] = (unsigned)v;
	}
	d->lv->n = n;
	return 0;
}

/* The signed number V is the zigzag() of. */
static int64_t unzigzag(uint64_t v)
{
	return v & 1 ? -(int64_t)(v >> 1) - 1 : (int64_t)(v >> 1);
}

/* A string of at most MAX bytes, not none, into BUF. */
static int get_key(struct dec *d, char *buf, size_t max)
{
	const char *s;
	if (get_str(d, &s, 0) < 0)
		return -1;
	if (strlen(s) >= max)
		return damaged(d, "a cpu or numa of %zu bytes", strlen(s));
	memcpy(buf, s, strlen(s) + 1);
	return 0;
}

/* A slowest pair's walls W (zigzag wall0, then wall1 - wall0) into S: a
 * pair that ends before it begins, or past the last wall time an int64_t
 * holds, is damage (its writer took both from one clock, in order). */
static int read_walls(struct dec *d, struct an_slow *s, const uint64_t *w)
{
	int64_t span = unzigzag(w[1]);
	s->wall0 = unzigzag(w[0]);
	if (span < 0)
		return damaged(d, "a slowest pair that ends %llu ns before it begins",
			       (unsigned long long)-(uint64_t)span);
	if (__builtin_add_overflow(s->wall0, span, &s->wall1))
		return damaged(d, "a slowest pair that ends past the last wall time (%lld + %lld ns)",
			       (long long)s->wall0, (long long)span);
	return 0;
}

/* One of the slowest pairs into S (its strings the section's). */
static int read_slow(struct dec *d, struct an_slow *s)
{
	uint64_t v[6], w[2];
	memset(s, 0, sizeof *s);
	if (get_value(d, &s->cycles) < 0 || get_value(d, &s->units) < 0 || get_limbs(d, v, 6) < 0)
		return -1;
	if (!(s->units > 0) || v[4] > 1)
		return damaged(d, "a slowest pair of %g units, walls %llu", s->units,
			       (unsigned long long)v[4]);
	s->per_unit = s->cycles / s->units;
	/* as written (put_slowest()): modulo 2^64 */
	s->tsc1 = v[0], s->tsc0 = v[0] - v[1];
	s->since1 = v[0] - v[2], s->since0 = s->since1 - (v[3] + v[1]);
	s->walls = (int)v[4], s->hz = v[5];
	if (s->walls && get_limbs(d, w, 2) < 0)
		return -1;
	if (s->walls && read_walls(d, s, w) < 0)
		return -1;
	if (get_key(d, s->cpu, sizeof s->cpu) < 0 || get_key(d, s->numa, sizeof s->numa) < 0 ||
	    get_str(d, (const char **)&s->process, 0) < 0 || get_str(d, (const char **)&s->path, 0) < 0)
		return -1;
	return 0;
}

/* The slowest pairs section (1.2): how many each row keeps, then as many
 * lists as the rows, each of at most that many pairs, added to the rows
 * read in the pass that adds. */
static int read_slowest(struct dec *d)
{
	uint64_t kept, n, m;
	struct an_slow s;
	if (get_var(d, &kept) < 0 || get_count(d, &n) < 0)
		return -1;
	if (n != d->lv->rows || kept > 1u << 20)
		return damaged(d, "slowest pairs for %llu rows of %llu, %llu kept",
			       (unsigned long long)n, (unsigned long long)d->lv->rows,
			       (unsigned long long)kept);
	d->lv->slowest = 1;
	d->lv->kept = kept;
	d->where = "row";
	for (d->item = 0; d->item < n; d->item++) {
		if (get_count(d, &m) < 0)
			return -1;
		if (m > kept)
			return damaged(d, "%llu slowest pairs, %llu kept", (unsigned long long)m,
				       (unsigned long long)kept);
		for (uint64_t k = 0; k < m; k++) {
			if (read_slow(d, &s) < 0)
				return -1;
			if (d->apply && an_opts(d->a)->slowest) {
				s.host = (char *)(d->lv->host[d->item] ? d->lv->host[d->item] : "");
				an_row_slow(d->a, d->lv->row[d->item], &s);
			}
		}
	}
	d->where = NULL;
	return 0;
}

/* A histogram, sums and buckets, into INTO (NULL: checked only). */
static int read_hist(struct dec *d, struct hist *into)
{
	struct hist h;
	if (read_hist_sums(d, &h) < 0)
		return -1;
	if (into)
		hist_merge_sums(into, &h);
	return read_buckets(d, h.n, h.zeros, into);
}

/* The spans section (1.3): as many rows as the rows section, each its
 * unit, latency and self cycles (their split noted in the checking pass,
 * for read_row()), then the nesting. */
static int read_spans(struct dec *d)
{
	uint64_t n, split;
	double self;
	const char *unit, *thread, *s[4];
	if (get_var(d, &n) < 0)
		return -1;
	if (n != d->lv->rows)
		return damaged(d, "spans for %llu rows of %llu", (unsigned long long)n,
			       (unsigned long long)d->lv->rows);
	if (!d->apply && (!(d->lv->split = calloc(n ? n : 1, 1)) ||
			  !(d->lv->thread = calloc(n ? n : 1, sizeof *d->lv->thread))))
		return damaged(d, "out of memory");
	d->lv->nsplit = n;   /* the arrays' length, freed whatever follows */
	d->where = "row";
	for (d->item = 0; d->item < n; d->item++) {
		struct an_row *r = d->apply ? d->lv->row[d->item] : NULL;
		if (get_str(d, &unit, 1) < 0 || get_str(d, &thread, 1) < 0 ||
		    get_value(d, &self) < 0 ||
		    read_hist(d, r ? &r->span : NULL) < 0 || get_var(d, &split) < 0)
			return -1;
		if (r)
			r->self_cycles += self;
		if (split > 1)
			return damaged(d, "self cycles split %llu", (unsigned long long)split);
		if (!d->apply)
			d->lv->split[d->item] = (unsigned char)split;
		if (!d->apply && thread && !(d->lv->thread[d->item] = strdup(thread)))
			return damaged(d, "out of memory");
		if (split && read_hist(d, r ? &r->self : NULL) < 0)
			return -1;
		if (r && unit)
			an_row_unit(r, unit);
		if (r && unit && strcmp(unit, "unit"))   /* the headings' unit, as of the logs */
			an_note_unit(d->a, unit);
	}
	d->lv->nsplit = n;
	d->where = NULL;
	if (get_count(d, &n) < 0)
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		for (int k = 0; k < 4; k++)
			if (get_str(d, &s[k], 0) < 0)
				return -1;
		if (d->apply)
			an_add_nest(d->a, s[0], s[1], s[2], s[3]);
	}
	if (get_var(d, &n) < 0)
		return -1;
	if (n != d->lv->records)
		return damaged(d, "breath units for %llu files of %llu", (unsigned long long)n,
			       (unsigned long long)d->lv->records);
	if (!d->apply && !(d->lv->bunit = calloc(n ? n : 1, sizeof *d->lv->bunit)))
		return damaged(d, "out of memory");
	d->where = "file";
	for (d->item = 0; d->item < n; d->item++) {
		if (get_str(d, &unit, 1) < 0)
			return -1;
		if (!d->apply && unit && !(d->lv->bunit[d->item] = strdup(unit)))
			return damaged(d, "out of memory");
		d->lv->nbunit = d->item + 1;
	}
	d->where = NULL;
	return 0;
}

static int read_found(struct dec *d)
{
	struct an_found f;
	uint64_t v[5];
	memset(&f, 0, sizeof f);
	if (get_limbs(d, v, 5) < 0)
		return -1;
	if (v[4] > sizeof f.args / sizeof f.args[0])
		return damaged(d, "%llu argument names found", (unsigned long long)v[4]);
	f.rules = v[0], f.ends = v[1], f.ends_with_unit = v[2], f.ends_with_bucket = v[3];
	for (f.nargs = 0; f.nargs < v[4]; f.nargs++)
		if (get_str(d, (const char **)&f.args[f.nargs], 0) < 0)
			return -1;
	if (d->apply)
		an_add_found(d->a, &f);
	return 0;
}

/* Reads the sections of BODY: options and strings first, the others in
 * order, unknown tags skipped (a later minor version's additions). */
static int read_body(struct dec *d)
{
	static int (*const readers[])(struct dec *) = { NULL, read_options, read_strings, read_rows,
							read_breaths, read_unmatched, read_found,
							read_levels, read_slowest, read_spans };
	uint64_t tag, last = 0;
	struct dec s;
	while (d->p < d->end) {
		if (get_section(d, &tag, &s) < 0)
			return -1;
		if (tag <= last)
			return damaged(d, "section %llu after section %llu", (unsigned long long)tag,
				       (unsigned long long)last);
		if (tag > SEC_STRINGS && last < SEC_STRINGS)
			return damaged(d, "section %llu before the options and strings",
				       (unsigned long long)tag);
		last = tag;
		if (tag > SEC_SPANS)
			continue;
		s.str = d->str;
		if (readers[tag](&s) < 0 || (s.p != s.end && damaged(&s, "%zu bytes left over in "
								       "section %llu", (size_t)(s.end - s.p),
								       (unsigned long long)tag) < 0)) {
			d->bad = 1;
			d->str = s.str, d->nstr = s.nstr;
			return -1;
		}
		d->str = s.str, d->nstr = s.nstr;
	}
	return last >= SEC_STRINGS ? 0 : damaged(d, "no options or strings");
}

/* ---- the header and the whole ----------------------------------------------- */

static uint64_t get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Checks the header of FILE (SIZE bytes) and gives the body, decompressed
 * into a malloc'd *BODY of *LEN bytes. Returns 0 or -1 with ERR set. */
static int open_body(const unsigned char *file, size_t size, unsigned char **body, size_t *len,
		     char *err, size_t errsize)
{
	uint64_t major, flags, stored, raw;
	size_t got;
	if (size < AN_SUMMARY_HEADER || !an_summary_probe(file, size))
		return snprintf(err, errsize, size < AN_SUMMARY_HEADER && an_summary_probe(file, size)
				? "truncated: %zu bytes, shorter than a summary header"
				: "not a timeline summary", size), -1;
	major = get_le(file + 8, 2), flags = get_le(file + 12, 4);
	stored = get_le(file + 16, 8), raw = get_le(file + 24, 8);
	if (major != AN_SUMMARY_MAJOR)
		return snprintf(err, errsize, "summary format version %llu.%llu is not supported (this "
				"reader reads %d.x)", (unsigned long long)major,
				(unsigned long long)get_le(file + 10, 2), AN_SUMMARY_MAJOR), -1;
	if (stored != size - AN_SUMMARY_HEADER)
		return snprintf(err, errsize, stored > size - AN_SUMMARY_HEADER
				? "truncated: header says %llu bytes, file has %zu"
				: "damaged summary header (%llu bytes, file has %zu)",
				(unsigned long long)stored + AN_SUMMARY_HEADER, size), -1;
	if (flags > 1 || raw > AN_SUMMARY_MAX_BODY || (!flags && raw != stored) ||
	    (flags && raw > 256 * stored + (1u << 20)))
		return snprintf(err, errsize, "damaged summary header (flags %llu, a body of %llu "
				"bytes giving %llu)", (unsigned long long)flags,
				(unsigned long long)stored, (unsigned long long)raw), -1;
	if (!(*body = malloc(raw ? raw : 1)))
		return snprintf(err, errsize, "out of memory"), -1;
	*len = raw;
	if (!flags) {
		memcpy(*body, file + AN_SUMMARY_HEADER, raw);
		return 0;
	}
	got = ZSTD_decompress(*body, raw, file + AN_SUMMARY_HEADER, stored);
	if (ZSTD_isError(got) || got != raw) {
		snprintf(err, errsize, "damaged summary body: %s", ZSTD_isError(got)
			 ? ZSTD_getErrorName(got) : "shorter than its header gives");
		free(*body);
		return -1;
	}
	return 0;
}

static void free_strings(struct dec *d)
{
	for (uint64_t i = 0; i < d->nstr; i++)
		free(d->str[i]);
	free(d->str);
	d->str = NULL;
	d->nstr = 0;
}

int an_summary_read(struct an *a, const unsigned char *file, size_t size,
		    const struct an_summary_map *m, char *err, size_t errsize)
{
	unsigned char *body;
	size_t len;
	int rc = 0;
	if (open_body(file, size, &body, &len, err, errsize) < 0)
		return -1;
	struct levels lv = { 0 };
	/* twice: to check all of it, then to add it */
	for (int pass = 0; pass < 2 && rc == 0; pass++) {
		struct dec d = { body, body + len, err, errsize, 0, NULL, 0, a, pass, m, NULL, 0, &lv };
		if (pass && m->alt_chosen && *m->alt_chosen)   /* made with the other options */
			d.a = a = m->alt;
		rc = read_body(&d);
		free_strings(&d);
	}
	if (rc == 0) {   /* how many of each row's slowest pairs A holds for sure */
		an_slowest_cap(a, lv.slowest ? (unsigned)lv.kept : 0);
		if (m->kept)
			*m->kept = lv.slowest ? lv.kept : AN_SUMMARY_NO_SLOWEST;
	}
	free(lv.v);
	for (uint64_t i = 0; lv.thread && i < lv.nsplit; i++)
		free(lv.thread[i]);
	free(lv.thread);
	free(lv.split);
	for (uint64_t i = 0; i < lv.nbunit; i++)
		free(lv.bunit[i]);
	free(lv.bunit);
	free(lv.row);
	free(lv.host);
	free(body);
	return rc;
}
