/* defs.c: the definitions of a reader's message ids, each parsed once and
 * kept until the reader is closed (tl_reader_def), with NUL-terminated
 * copies of its strings; a stand-in for ids that name no definition. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reader.h"

/* One parsed definition and the copy of its text the pointers point into. */
struct def {
	tl_def d;
	uint16_t msgid;
	char text[];
};

/* The cache: definitions (never moved once made), hashed by message id. */
struct tl_defs {
	struct def **defs;
	uint32_t *slots;             /* index + 1, or 0; linear probing */
	uint32_t n, nslots;          /* nslots: a power of two > 2 * n */
};

static const char *const stand_in_args[TL_MAX_ARGS] = {
	"arg0", "arg1", "arg2", "arg3", "arg4", "arg5",
};

static uint32_t hash16(uint16_t id, uint32_t mask)
{
	return ((uint32_t)id * 2654435761u >> 8) & mask;
}

/* Terminates each string of D inside its copied text: the character after
 * each one is a separator (' ', ':' or '\n') that no other field uses. */
static void terminate(tl_def *d)
{
	((char *)d->name)[d->name_len] = '\0';
	if (d->attrs)
		((char *)d->attrs)[d->attrs_len] = '\0';
	else
		d->attrs = "";
	for (unsigned i = 0; i < d->nargs; i++)
		((char *)d->args[i])[d->args_len[i]] = '\0';
}

/* Parses the string S (NULL: none) as the definition of MSGID; a stand-in
 * when it does not parse. Returns NULL when out of memory. */
static struct def *make(const char *s, uint16_t msgid)
{
	size_t len = s ? strlen(s) : 0;
	struct def *x = malloc(sizeof *x + (len > 16 ? len : 16) + 1);
	if (!x)
		return NULL;
	x->msgid = msgid;
	memcpy(x->text, s ? s : "", len + 1);
	if (s && tl_def_parse(x->text, len, &x->d, NULL) == TL_OK) {
		x->d.known = 1;
		terminate(&x->d);
		return x;
	}
	memset(&x->d, 0, sizeof x->d);
	snprintf(x->text, 17, "?msgid=%u", msgid);
	x->d.name = x->text;
	x->d.name_len = strlen(x->text);
	x->d.attrs = x->d.descr = "";
	x->d.nargs = TL_MAX_ARGS;   /* unnamed: all six, as arg0..arg5 */
	for (unsigned i = 0; i < TL_MAX_ARGS; i++) {
		x->d.args[i] = stand_in_args[i];
		x->d.args_len[i] = 4;
	}
	return x;
}

static void put_slot(struct tl_defs *c, uint16_t id, uint32_t k)
{
	uint32_t mask = c->nslots - 1, h = hash16(id, mask);
	while (c->slots[h])
		h = (h + 1) & mask;
	c->slots[h] = k + 1;
}

/* Doubles the slots (and the room for definitions). Returns 0 or -1. */
static int grow(struct tl_defs *c)
{
	uint32_t n = c->nslots ? c->nslots * 2 : 64;
	uint32_t *slots = calloc(n, sizeof *slots);
	struct def **defs = realloc(c->defs, n / 2 * sizeof *defs);
	if (defs)
		c->defs = defs;
	if (!slots || !defs) {
		free(slots);
		return -1;
	}
	free(c->slots);
	c->slots = slots;
	c->nslots = n;
	for (uint32_t k = 0; k < c->n; k++)
		put_slot(c, c->defs[k]->msgid, k);
	return 0;
}

tl_def *tl_reader_def(tl_reader *r, uint16_t msgid)
{
	struct tl_defs *c = r->defs;
	uint32_t mask, h;
	if (!c && !(c = r->defs = calloc(1, sizeof *c)))
		return NULL;
	if (c->nslots) {
		mask = c->nslots - 1;
		for (h = hash16(msgid, mask); c->slots[h]; h = (h + 1) & mask)
			if (c->defs[c->slots[h] - 1]->msgid == msgid)
				return &c->defs[c->slots[h] - 1]->d;
	}
	if (2 * (c->n + 1) >= c->nslots && grow(c) != 0)
		return NULL;
	if (!(c->defs[c->n] = make(tl_reader_string(r, msgid), msgid)))
		return NULL;
	put_slot(c, msgid, c->n);
	return &c->defs[c->n++]->d;
}

void tl_defs_free(struct tl_defs *c)
{
	if (!c)
		return;
	for (uint32_t k = 0; k < c->n; k++)
		free(c->defs[k]);
	free(c->defs);
	free(c->slots);
	free(c);
}
