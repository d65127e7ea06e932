/* otlp.c: OpenTelemetry traces from the engine's spans (`export -f otlp`
 * and `-f otlp-json`): a span per pair instance, its parent the span it
 * nests in, one trace per outermost span, ids derived from where each span
 * was logged, times in wall-clock ns, a resource per process; --slowest
 * keeps the N slowest outermost spans of each pair and attribute with all
 * they hold. The encoders write them (otlppb.c, otlpjson.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "otlp.h"
#include "usage.h"

#define NAME_BYTES 400                   /* a span's name at most, as chrome.c's */
#define NONE UINT32_MAX

/* A span the engine closed, waiting for its parent or for its tree to be
 * written. Nodes are indexes into O.nodes. */
struct node {
	uint64_t id, parent;             /* the engine's: its begin's entry number, its
					  * parent's or AN_NO_PARENT */
	uint64_t sid, psid;              /* their span ids (span_id()) */
	uint64_t tsc0, tsc1, cycles, self;
	double units[TL_MAX_ARGS];
	uint32_t kind, thread, k;        /* its kind, thread and input */
	int16_t cpu, numa;               /* of its end, -1 unknown */
	uint32_t kids, next;             /* its first child and next sibling, NONE */
	uint32_t hnext;                  /* waiting: the next in its bucket */
};

/* An input: its clock, the key its ids are made from, its resource. */
struct src {
	struct export_clock clock;       /* its header's, or with --tsc-hz a made one */
	uint64_t key;                    /* a hash of where the log was written */
	uint64_t key0;                   /* thread_key() of its first thread */
	struct otlp_resource r;
	char *service, *host;
};

/* A root kept by --slowest, by how slow it is. */
struct rank {
	double per_unit;                 /* cycles per unit, or cycles when it has none */
	uint64_t cycles;
	uint32_t node;
};

static struct {
	const struct otlp_enc *enc;
	const struct export *x;
	struct otlp_kind *kinds;
	size_t nkinds, capkinds;
	uint32_t *kind_of;               /* by end msgid of the log being read: kind + 1 */
	struct src *src;                 /* by input */
	size_t nsrc;
	long cur;                        /* the input whose resource the encoder has, -1 */
	struct node *nodes;
	size_t nnodes, capnodes;
	uint32_t free_list;
	uint32_t *bucket;                /* the nodes waiting for their parent, by hash */
	size_t nbuckets, nwaiting;
	struct rank **kept;              /* --slowest: by kind, a min-heap of the slowest */
	size_t *nkept;
	size_t capkept;
	uint32_t *stack;                 /* tree walks */
	size_t capstack;
} O;

static char *dup(const char *s)
{
	char *d = strdup(s);
	if (!d)
		abort();
	return d;
}

/* ---- ids ---------------------------------------------------------------- */

/* SplitMix64's finalizer: a bijection of 64-bit words that mixes every bit. */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 0x100000001b3ull;
	return h;
}

/* The key of IN's ids: its host, writer (pid and start), log name and
 * anchor, what tells it from every other log; a Snabb log's path too. */
static uint64_t log_key(const struct input *in)
{
	const tl_info *i = &in->info;
	uint32_t pid = input_pid(in);
	uint64_t h = 0xcbf29ce484222325ull;
	h = fnv(h, i->host, strlen(i->host) + 1);
	h = fnv(h, &pid, sizeof pid);
	h = fnv(h, &i->start_ticks, 8);
	h = fnv(h, i->name, strlen(i->name) + 1);
	h = fnv(h, &i->anchor_tsc, 8);
	if (i->format != TL_FORMAT_NATIVE)
		h = fnv(h, in->path, strlen(in->path));
	return mix(h);
}

/* The offset of the ids of thread THREAD of the log of KEY. */
static uint64_t thread_key(uint64_t key, uint32_t thread)
{
	return mix(key + (thread + 1ull) * 0x9e3779b97f4a7c15ull);
}

/* The span id of the span begun by entry ID of THREAD of input K: for one
 * thread of one log a bijection of ID (ids differ as entry numbers do);
 * across logs and threads, offsets 2^64 apart at random. Never 0. */
static uint64_t span_id(uint32_t k, uint32_t thread, uint64_t id)
{
	uint64_t s = mix(id + (thread ? thread_key(O.src[k].key, thread) : O.src[k].key0));
	return s ? s : 1;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
}

/* ---- kinds -------------------------------------------------------------- */

/* The kind of span S, made at its end event's first span in the log. */
static uint32_t kind_of(const struct an_span *s)
{
	uint32_t *slot = &O.kind_of[s->end->msgid];
	struct otlp_kind *q;
	char name[NAME_BYTES];
	int attr = strcmp(s->attr, "-") != 0;
	int n;
	if (*slot)
		return *slot - 1;
	n = snprintf(name, sizeof name, "%s%s%s", s->label, attr ? " " : "", attr ? s->attr : "");
	for (size_t i = 0; i < O.nkinds; i++) {   /* a kind of an earlier log */
		q = &O.kinds[i];
		if (strcmp(q->name, name) || q->nunits != s->nunits ||
		    (attr && strcmp(q->attr_name, s->attr_name)))
			continue;
		unsigned u = 0;
		while (u < q->nunits && !strcmp(q->unit_name[u], s->unit_name[u]))
			u++;
		if (u == q->nunits)
			return (*slot = (uint32_t)i + 1) - 1;
	}
	O.kinds = export_grow(O.kinds, &O.capkinds, O.nkinds + 1, sizeof *O.kinds);
	q = &O.kinds[O.nkinds];
	memset(q, 0, sizeof *q);
	q->name = dup(name);
	q->name_len = n < 0 ? 0 : (size_t)n >= sizeof name ? sizeof name - 1 : (size_t)n;
	if (attr) {
		q->attr_name = dup(s->attr_name);
		q->attr = dup(s->attr);
		q->attr_name_len = strnlen(q->attr_name, OTLP_WORD_BYTES);
		q->attr_len = strnlen(q->attr, OTLP_WORD_BYTES);
	}
	q->nunits = s->nunits;
	for (unsigned u = 0; u < s->nunits; u++) {
		q->unit_name[u] = dup(s->unit_name[u]);
		q->unit_len[u] = strnlen(q->unit_name[u], OTLP_WORD_BYTES);
	}
	return (*slot = (uint32_t)++O.nkinds) - 1;
}

/* ---- nodes and trees ------------------------------------------------------ */

static uint32_t node_new(void)
{
	uint32_t i;
	if (O.free_list != NONE) {
		i = O.free_list;
		O.free_list = O.nodes[i].next;
		return i;
	}
	O.nodes = export_grow(O.nodes, &O.capnodes, O.nnodes + 1, sizeof *O.nodes);
	return (uint32_t)O.nnodes++;
}

static size_t hash_of(uint32_t thread, uint64_t parent)
{
	return mix(parent ^ (uint64_t)thread << 40) & (O.nbuckets - 1);
}

/* Node N waits for its parent. */
static void wait_parent(uint32_t n)
{
	struct node *d = &O.nodes[n];
	size_t h;
	if (O.nwaiting >= O.nbuckets) {   /* twice the buckets, the nodes rehashed */
		size_t old = O.nbuckets;
		uint32_t *b = O.bucket;
		O.nbuckets = old ? 2 * old : 1024;
		if (!(O.bucket = malloc(O.nbuckets * sizeof *O.bucket)))
			abort();
		memset(O.bucket, 0xff, O.nbuckets * sizeof *O.bucket);
		for (size_t i = 0; i < old; i++)
			for (uint32_t m = b[i], next; m != NONE; m = next) {
				next = O.nodes[m].hnext;
				h = hash_of(O.nodes[m].thread, O.nodes[m].parent);
				O.nodes[m].hnext = O.bucket[h];
				O.bucket[h] = m;
			}
		free(b);
	}
	h = hash_of(d->thread, d->parent);
	d->hnext = O.bucket[h];
	O.bucket[h] = n;
	O.nwaiting++;
}

/* Takes the nodes waiting for node N as its children. */
static void adopt(uint32_t n)
{
	struct node *p = &O.nodes[n];
	uint32_t *link;
	if (!O.nwaiting)
		return;
	link = &O.bucket[hash_of(p->thread, p->id)];
	while (*link != NONE) {
		struct node *c = &O.nodes[*link];
		if (c->parent != p->id || c->thread != p->thread) {
			link = &c->hnext;
			continue;
		}
		uint32_t m = *link;
		*link = c->hnext;
		c->next = p->kids;
		p->kids = m;
		O.nwaiting--;
	}
}

/* The nodes of the tree under ROOT, root first, into O.stack; their count. */
static size_t walk(uint32_t root)
{
	size_t n = 0, at = 0;
	O.stack = export_grow(O.stack, &O.capstack, 1, sizeof *O.stack);
	O.stack[n++] = root;
	while (at < n) {
		for (uint32_t c = O.nodes[O.stack[at]].kids; c != NONE; c = O.nodes[c].next) {
			O.stack = export_grow(O.stack, &O.capstack, n + 1, sizeof *O.stack);
			O.stack[n++] = c;
		}
		at++;
	}
	return n;
}

/* Frees the N nodes listed in O.stack. */
static void stack_free(size_t n)
{
	for (size_t i = 0; i < n; i++) {
		O.nodes[O.stack[i]].next = O.free_list;
		O.free_list = O.stack[i];
	}
}

static void tree_free(uint32_t root)
{
	stack_free(walk(root));
}

/* Wall-clock ns of tick TSC of input K (none before the epoch). */
static uint64_t wall(uint32_t k, uint64_t tsc)
{
	int64_t ns = export_wall(&O.src[k].clock, tsc);
	return ns < 0 ? 0 : (uint64_t)ns;
}

/* Node D of trace TRACE, its parent's span id PARENT (0: none), as written. */
static void put_node(const struct node *d, const uint8_t trace[16], uint64_t parent)
{
	struct otlp_span s;
	s.kind = &O.kinds[d->kind];
	memcpy(s.trace_id, trace, 16);
	put_be64(s.span_id, d->sid);
	s.has_parent = parent != 0;
	put_be64(s.parent_id, parent);
	s.start_ns = wall(d->k, d->tsc0);
	s.end_ns = d->cycles ? wall(d->k, d->tsc1) : s.start_ns;
	if (s.end_ns < s.start_ns)
		s.end_ns = s.start_ns;
	s.cycles = d->cycles;
	s.self = d->self;
	memcpy(s.units, d->units, sizeof s.units);
	s.cpu = d->cpu;
	s.numa = d->numa;
	s.thread = d->thread;
	if (O.cur != (long)d->k) {
		O.enc->resource(&O.src[d->k].r);
		O.cur = (long)d->k;
	}
	O.enc->span(&s);
}

/* Writes the tree under ROOT, a trace of its own: its id from the root's
 * span id and its log's key, each span's parent the one it nests in. */
static void tree_write(uint32_t root)
{
	const struct node *r = &O.nodes[root];
	uint8_t trace[16];
	size_t n;
	put_be64(trace, r->sid);
	put_be64(trace + 8, mix(r->sid ^ O.src[r->k].key ^ 0x6a09e667f3bcc909ull));
	n = walk(root);
	for (size_t i = 0; i < n; i++) {
		const struct node *d = &O.nodes[O.stack[i]];
		/* the root's parent, if any, never ended: it is none here */
		put_node(d, trace, i ? d->psid : 0);
	}
	stack_free(n);
}

/* ---- --slowest ---------------------------------------------------------------- */

/* Is X slower than Y: more cycles per unit, then more cycles, then
 * earlier, then of an earlier input. */
static int slower(const struct rank *x, const struct rank *y)
{
	const struct node *a = &O.nodes[x->node], *b = &O.nodes[y->node];
	if (x->per_unit != y->per_unit)
		return x->per_unit > y->per_unit;
	if (x->cycles != y->cycles)
		return x->cycles > y->cycles;
	if (a->k != b->k)
		return a->k < b->k;
	return a->tsc0 < b->tsc0;
}

/* How slow root N is (0: not ranked, a span of no unit moved when its kind
 * has units: stats --slowest leaves those out too). */
static int rank_of(uint32_t n, struct rank *r)
{
	const struct node *d = &O.nodes[n];
	const struct otlp_kind *q = &O.kinds[d->kind];
	unsigned u = 0;
	r->node = n;
	r->cycles = d->cycles;
	if (!q->nunits) {
		r->per_unit = (double)d->cycles;
		return 1;
	}
	while (O.x->per && u < q->nunits && strcmp(q->unit_name[u], O.x->per))
		u++;
	if (u == q->nunits || !(d->units[u] > 0))
		return 0;
	r->per_unit = (double)d->cycles / d->units[u];
	return 1;
}

/* The heap H of N ranks, the least slow on top: sifts from I down. */
static void sift(struct rank *h, size_t n, size_t i)
{
	for (size_t c; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && slower(&h[c], &h[c + 1]))
			c++;
		if (!slower(&h[i], &h[c]))
			break;
		struct rank t = h[i];
		h[i] = h[c];
		h[c] = t;
	}
}

/* Keeps root N among its kind's slowest, or frees it (or the one it beats). */
static void keep(uint32_t n)
{
	uint32_t q = O.nodes[n].kind;
	struct rank r, *h;
	size_t *k;
	if (!rank_of(n, &r)) {
		tree_free(n);
		return;
	}
	if (q >= O.capkept) {   /* a heap for every kind made so far */
		size_t old = O.capkept;
		O.capkept = O.nkinds;
		if (!(O.kept = realloc(O.kept, O.capkept * sizeof *O.kept)) ||
		    !(O.nkept = realloc(O.nkept, O.capkept * sizeof *O.nkept)))
			abort();
		memset(O.kept + old, 0, (O.capkept - old) * sizeof *O.kept);
		memset(O.nkept + old, 0, (O.capkept - old) * sizeof *O.nkept);
	}
	if (!O.kept[q] && !(O.kept[q] = malloc(O.x->slowest * sizeof **O.kept)))
		abort();
	h = O.kept[q];
	k = &O.nkept[q];
	if (*k < O.x->slowest) {   /* up from the bottom */
		size_t i = (*k)++;
		h[i] = r;
		for (; i && slower(&h[(i - 1) / 2], &h[i]); i = (i - 1) / 2) {
			struct rank t = h[i];
			h[i] = h[(i - 1) / 2];
			h[(i - 1) / 2] = t;
		}
		return;
	}
	if (!slower(&r, &h[0])) {
		tree_free(n);
		return;
	}
	tree_free(h[0].node);
	h[0] = r;
	sift(h, *k, 0);
}

static int by_place(const void *a, const void *b)
{
	const struct node *x = &O.nodes[*(const uint32_t *)a], *y = &O.nodes[*(const uint32_t *)b];
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	if (x->tsc0 != y->tsc0)
		return x->tsc0 < y->tsc0 ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Writes the roots kept, by input, then in time order. */
static void write_kept(void)
{
	size_t n = 0, at = 0;
	uint32_t *roots;
	for (size_t q = 0; q < O.capkept; q++)
		n += O.nkept[q];
	if (!(roots = malloc((n + 1) * sizeof *roots)))
		abort();
	for (size_t q = 0; q < O.capkept; q++)
		for (size_t i = 0; i < O.nkept[q]; i++)
			roots[at++] = O.kept[q][i].node;
	qsort(roots, n, sizeof *roots, by_place);
	for (size_t i = 0; i < n; i++)
		tree_write(roots[i]);
	free(roots);
}

/* A tree whose outermost span is done: written now, or with --slowest
 * ranked; ORPHAN: its top span's parent never ended (cut by a loss or the
 * log's end), so it is outermost in no trace but its own. */
static void tree_done(uint32_t root, int orphan)
{
	if (!O.x->slowest)
		tree_write(root);
	else if (orphan)
		tree_free(root);
	else
		keep(root);
}

/* The trees waiting for a parent that will not end: each its own trace, in
 * time order. */
static void orphans(void)
{
	uint32_t *tops;
	size_t n = 0;
	if (!O.nwaiting)
		return;
	if (!(tops = malloc(O.nwaiting * sizeof *tops)))
		abort();
	for (size_t b = 0; b < O.nbuckets; b++) {
		for (uint32_t m = O.bucket[b]; m != NONE; m = O.nodes[m].hnext)
			tops[n++] = m;
		O.bucket[b] = NONE;
	}
	O.nwaiting = 0;
	qsort(tops, n, sizeof *tops, by_place);
	for (size_t i = 0; i < n; i++)
		tree_done(tops[i], 1);
	free(tops);
}

/* ---- the writer ------------------------------------------------------------- */

/* The clock of a log without a frequency, with --tsc-hz: its last entry at
 * the file's modification time (a Snabb log has no anchor). */
static void made_clock(tl_info *c, struct input *in, uint64_t hz)
{
	struct stat st;
	tl_entry e;
	uint64_t last = 0;
	char when[40];
	c->tsc_hz = hz;
	if (in->info.format == TL_FORMAT_NATIVE)
		return;   /* its own anchor */
	tl_reader_rewind(in->r);
	while (tl_reader_next(in->r, &e))
		last = e.tsc;
	c->anchor_tsc = last;
	c->anchor_realtime_ns = 0;
	if (!stat(in->path, &st))
		c->anchor_realtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000u +
					(uint64_t)st.st_mtim.tv_nsec;
	tl_format_wall(when, sizeof when, (int64_t)c->anchor_realtime_ns);
	cli_error("export", "note: %s: no clock anchor (a Snabb log): its last entry taken as "
		  "written at the file's modification time, %s", in->path, when);
}

/* The resource and clock of input K. */
static void src_new(size_t k, struct input *in)
{
	struct src *c = &O.src[k];
	const tl_info *i = &in->info;
	tl_info clock = *i;
	if (!i->tsc_hz)
		made_clock(&clock, in, O.x->tsc_hz);
	export_clock_init(&c->clock, &clock);
	c->key = log_key(in);
	c->key0 = thread_key(c->key, 0);
	c->service = dup(O.x->service ? O.x->service
			 : i->format == TL_FORMAT_NATIVE && i->process[0] ? i->process : "snabb");
	c->host = dup(i->host);
	c->r = (struct otlp_resource){ c->service, c->host, input_pid(in) };
}

static int otlp_begin_with(const struct otlp_enc *enc, const struct export *x, size_t n)
{
	memset(&O, 0, sizeof O);
	O.enc = enc;
	O.x = x;
	O.cur = -1;
	O.free_list = NONE;
	O.nsrc = n;
	if (!(O.src = calloc(n + 1, sizeof *O.src)) || !(O.kind_of = malloc(65536 * sizeof *O.kind_of)))
		abort();
	if (enc->begin(x) < 0) {   /* said: nothing is read */
		free(O.src);
		free(O.kind_of);
		memset(&O, 0, sizeof O);
		return -1;
	}
	return 0;
}

static int otlp_begin(const struct export *x, struct input **in, size_t n)
{
	(void)in;
	return otlp_begin_with(&otlp_pb, x, n);
}

static int otlp_json_begin(const struct export *x, struct input **in, size_t n)
{
	(void)in;
	return otlp_begin_with(&otlp_json, x, n);
}

static void otlp_file(const struct export *x, size_t k, struct input *in)
{
	(void)x;
	memset(O.kind_of, 0, 65536 * sizeof *O.kind_of);
	src_new(k, in);
}

/* Span S of input K: it takes the spans waiting for it; an outermost one
 * ends its tree, any other waits for its parent. */
static void otlp_span(const struct export *x, size_t k, struct input *in, const struct an_span *s)
{
	uint32_t n = node_new();
	struct node *d = &O.nodes[n];
	(void)x, (void)in;
	*d = (struct node){ .id = s->id, .parent = s->parent, .tsc0 = s->tsc0, .tsc1 = s->tsc1,
			    .cycles = s->cycles, .self = s->self, .kind = kind_of(s),
			    .thread = s->thread, .k = (uint32_t)k,
			    .cpu = s->end->cpu == 0xfff ? -1 : (int16_t)s->end->cpu,
			    .numa = s->end->cpu == 0xfff && s->end->numa == 0xf ? -1 : (int16_t)s->end->numa,
			    .kids = NONE, .next = NONE, .hnext = NONE };
	for (unsigned u = 0; u < TL_MAX_ARGS; u++)
		d->units[u] = u < s->nunits ? s->units[u] : NAN;
	d->sid = span_id(d->k, d->thread, d->id);
	d->psid = s->parent == AN_NO_PARENT ? 0 : span_id(d->k, d->thread, s->parent);
	adopt(n);
	if (s->parent == AN_NO_PARENT)
		tree_done(n, 0);
	else
		wait_parent(n);
}

/* Entries were lost before the next kept one: the engine drops the begins
 * open (an_gap), so the spans waiting for them are orphans. */
static void otlp_lost(const struct export *x, size_t k, struct input *in, uint64_t n,
		      uint64_t first, uint64_t last, const tl_entry *e)
{
	(void)x, (void)k, (void)in, (void)first, (void)last, (void)e;
	if (n)
		orphans();
}

static void otlp_file_end(const struct export *x, size_t k, struct input *in)
{
	(void)x, (void)k, (void)in;
	orphans();
}

static int otlp_end(const struct export *x)
{
	int rc;
	(void)x;
	if (O.x->slowest)
		write_kept();
	rc = O.enc->end();
	for (size_t i = 0; i < O.nkinds; i++) {
		free(O.kinds[i].name);
		free(O.kinds[i].attr_name);
		free(O.kinds[i].attr);
		for (unsigned u = 0; u < O.kinds[i].nunits; u++)
			free(O.kinds[i].unit_name[u]);
	}
	for (size_t k = 0; k < O.nsrc; k++) {
		free(O.src[k].service);
		free(O.src[k].host);
	}
	for (size_t q = 0; q < O.capkept; q++)
		free(O.kept[q]);
	free(O.kept);
	free(O.nkept);
	free(O.kinds);
	free(O.kind_of);
	free(O.src);
	free(O.nodes);
	free(O.bucket);
	free(O.stack);
	memset(&O, 0, sizeof O);
	return rc;
}

const struct export_format export_otlp = {
	.name = "otlp",
	.wall = 1,
	.begin = otlp_begin,
	.file = otlp_file,
	.span = otlp_span,
	.lost = otlp_lost,
	.file_end = otlp_file_end,
	.end = otlp_end,
};

const struct export_format export_otlp_json = {
	.name = "otlp-json",
	.wall = 1,
	.begin = otlp_json_begin,
	.file = otlp_file,
	.span = otlp_span,
	.lost = otlp_lost,
	.file_end = otlp_file_end,
	.end = otlp_end,
};
