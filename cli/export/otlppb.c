/* otlppb.c: OTLP in protobuf (`export -f otlp`): ExportTraceServiceRequests
 * of at most --max-request bytes, each holding a ResourceSpans for every run
 * of one process's spans, with the ScopeSpans of scope "timeline". They go
 * to the file one after another, which a protobuf reader takes as one
 * request (its repeated resource_spans joined), and to --endpoint one POST
 * each (post.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "otlp.h"
#include "out.h"
#include "pbuf.h"
#include "usage.h"

#define DEFAULT_MAX (4u << 20)           /* a request's bytes at most: 4 MiB */
#define SPAN_ROOM 4096                   /* a span's bytes at most (strings cut to fit) */
#define CLOSE_ROOM 8                     /* what closing the two open lengths may add */

static struct {
	const struct export *x;
	uint8_t *buf;                    /* the request being made */
	size_t len, max;
	uint8_t *rs, *ss;                /* the open ResourceSpans' and ScopeSpans' marks */
	const struct otlp_resource *res; /* theirs (NULL: none open) */
	uint64_t spans;                  /* spans in the request */
	struct post *post;               /* --endpoint */
	int failed;                      /* a request was not taken: no more are sent */
	uint64_t sent;                   /* requests delivered */
} B;

/* A KeyValue FIELD of KEY whose AnyValue is opened; returns where the value
 * goes, *KV and *ANY marking the two for kv_close(). */
static uint8_t *kv_open(uint8_t *p, unsigned field, const char *key, uint8_t **kv, uint8_t **any)
{
	p = pb_open(p, field, kv);
	p = pb_bytes(p, OTLP_KEY_VALUE_KEY, key, strnlen(key, OTLP_WORD_BYTES));
	return pb_open(p, OTLP_KEY_VALUE_VALUE, any);
}

static uint8_t *kv_close(uint8_t *p, uint8_t *kv, uint8_t *any)
{
	return pb_close(kv, pb_close(any, p));
}

/* The fast path of a span's attribute: the KeyValue of KEY (N bytes, at
 * most SHORT_KEY) whose AnyValue is the int V, every length one byte. */
#define SHORT_KEY 100
static inline uint8_t *attr_int(uint8_t *p, const char *key, size_t n, int64_t v)
{
	uint8_t *kv = p + 1, *any;
	p[0] = OTLP_SPAN_ATTRIBUTES << 3 | PB_LEN;
	p[2] = OTLP_KEY_VALUE_KEY << 3 | PB_LEN;
	p[3] = (uint8_t)n;
	memcpy(p + 4, key, n);
	p += 4 + n;
	p[0] = OTLP_KEY_VALUE_VALUE << 3 | PB_LEN;
	any = p + 1;
	p = pb_int(p + 2, OTLP_ANY_INT_VALUE, v);
	*any = (uint8_t)(p - any - 1);
	*kv = (uint8_t)(p - kv - 1);
	return p;
}

/* The same for the string V of M bytes (N + M at most SHORT_KEY + 20). */
static inline uint8_t *attr_str(uint8_t *p, const char *key, size_t n, const char *v, size_t m)
{
	p[0] = OTLP_SPAN_ATTRIBUTES << 3 | PB_LEN;
	p[1] = (uint8_t)(2 + n + 4 + m);
	p[2] = OTLP_KEY_VALUE_KEY << 3 | PB_LEN;
	p[3] = (uint8_t)n;
	memcpy(p + 4, key, n);
	p += 4 + n;
	p[0] = OTLP_KEY_VALUE_VALUE << 3 | PB_LEN;
	p[1] = (uint8_t)(2 + m);
	p[2] = OTLP_ANY_STRING_VALUE << 3 | PB_LEN;
	p[3] = (uint8_t)m;
	memcpy(p + 4, v, m);
	return p + 4 + m;
}

static uint8_t *kv_str(uint8_t *p, unsigned field, const char *key, const char *v, size_t max)
{
	uint8_t *kv, *any;
	p = kv_open(p, field, key, &kv, &any);
	p = pb_bytes(p, OTLP_ANY_STRING_VALUE, v, strnlen(v, max));
	return kv_close(p, kv, any);
}

static uint8_t *kv_int(uint8_t *p, unsigned field, const char *key, int64_t v)
{
	uint8_t *kv, *any;
	p = kv_open(p, field, key, &kv, &any);
	p = pb_int(p, OTLP_ANY_INT_VALUE, v);
	return kv_close(p, kv, any);
}

/* A unit's value: an int when it is a whole number, else a double; NaN (the
 * end lacks it) and infinities are left out. KEY is N bytes long. */
static uint8_t *kv_units(uint8_t *p, const char *key, size_t n, double v)
{
	uint8_t *kv, *any;
	if (!isfinite(v))
		return p;
	if (v == floor(v) && fabs(v) < 9.2e18 && n <= SHORT_KEY)
		return attr_int(p, key, n, (int64_t)v);
	p = kv_open(p, OTLP_SPAN_ATTRIBUTES, key, &kv, &any);
	if (v == floor(v) && fabs(v) < 9.2e18)
		p = pb_int(p, OTLP_ANY_INT_VALUE, (int64_t)v);
	else
		p = pb_double(p, OTLP_ANY_DOUBLE_VALUE, v);
	return kv_close(p, kv, any);
}

/* Opens a ResourceSpans of R at the end of the request: the resource's
 * attributes, then a ScopeSpans of scope "timeline" and its version. */
static void rs_open(const struct otlp_resource *r)
{
	uint8_t *p = B.buf + B.len, *m;
	p = pb_open(p, OTLP_REQUEST_RESOURCE_SPANS, &B.rs);
	p = pb_open(p, OTLP_RESOURCE_SPANS_RESOURCE, &m);
	p = kv_str(p, OTLP_RESOURCE_ATTRIBUTES, "service.name", r->service, 256);
	if (r->host[0])
		p = kv_str(p, OTLP_RESOURCE_ATTRIBUTES, "host.name", r->host, 256);
	if (r->pid)
		p = kv_int(p, OTLP_RESOURCE_ATTRIBUTES, "process.pid", r->pid);
	p = pb_close(m, p);
	p = pb_open(p, OTLP_RESOURCE_SPANS_SCOPE_SPANS, &B.ss);
	p = pb_open(p, OTLP_SCOPE_SPANS_SCOPE, &m);
	p = pb_bytes(p, OTLP_SCOPE_NAME, "timeline", 8);
	p = pb_bytes(p, OTLP_SCOPE_VERSION, TL_VERSION_STRING, strlen(TL_VERSION_STRING));
	p = pb_close(m, p);
	B.len = (size_t)(p - B.buf);
	B.res = r;
}

static void rs_close(void)
{
	if (B.res)
		B.len = (size_t)(pb_close(B.rs, pb_close(B.ss, B.buf + B.len)) - B.buf);
	B.res = NULL;
}

/* Delivers the request made so far: to the file, and POSTed. */
static void deliver(void)
{
	rs_close();
	if (B.x->out)
		out_bytes((const char *)B.buf, B.len);
	if (B.post && !B.failed && post_send(B.post, B.buf, B.len, B.spans) < 0)
		B.failed = 1;
	B.sent++;
	B.len = 0;
	B.spans = 0;
}

/* Ends the span whose body runs from M + 2 to END, M the place of its
 * length of two bytes; returns the end, one byte less when the length
 * takes one (or moved on when it takes three: pb_close()). */
static uint8_t *span_close(uint8_t *m, uint8_t *end)
{
	size_t n = (size_t)(end - m - 2);
	if (n >= 0x80 && n < 0x4000) {
		m[0] = (uint8_t)(n | 0x80);
		m[1] = (uint8_t)(n >> 7);
		return end;
	}
	memmove(m + 1, m + 2, n);
	return pb_close(m, end - 1);
}

/* V as an int64 attribute takes it: at most INT64_MAX. */
static int64_t int64_of(uint64_t v)
{
	return v > INT64_MAX ? INT64_MAX : (int64_t)v;
}

/* Span S at P. */
static uint8_t *put_span(uint8_t *p, const struct otlp_span *s)
{
	const struct otlp_kind *q = s->kind;
	uint8_t *m = p + 1;
	/* the span's length gets two bytes, as a span of 128 to 16383 bytes
	 * (the usual, about 150) takes: nothing moves when it is closed */
	p[0] = OTLP_SCOPE_SPANS_SPANS << 3 | PB_LEN;
	p += 3;
	/* the ids: keys and lengths of one byte, copies of a known size */
	p[0] = OTLP_SPAN_TRACE_ID << 3 | PB_LEN;
	p[1] = 16;
	memcpy(p + 2, s->trace_id, 16);
	p[18] = OTLP_SPAN_SPAN_ID << 3 | PB_LEN;
	p[19] = 8;
	memcpy(p + 20, s->span_id, 8);
	p += 28;
	if (s->has_parent) {
		p[0] = OTLP_SPAN_PARENT_SPAN_ID << 3 | PB_LEN;
		p[1] = 8;
		memcpy(p + 2, s->parent_id, 8);
		p += 10;
	}
	p = pb_bytes(p, OTLP_SPAN_NAME, q->name, q->name_len);
	p = pb_uint(p, OTLP_SPAN_KIND, OTLP_SPAN_KIND_INTERNAL);
	p = pb_fixed64(p, OTLP_SPAN_START_TIME_UNIX_NANO, s->start_ns);
	p = pb_fixed64(p, OTLP_SPAN_END_TIME_UNIX_NANO, s->end_ns);
	if (q->attr && q->attr_name_len + q->attr_len <= SHORT_KEY + 20)
		p = attr_str(p, q->attr_name, q->attr_name_len, q->attr, q->attr_len);
	else if (q->attr)
		p = kv_str(p, OTLP_SPAN_ATTRIBUTES, q->attr_name, q->attr, OTLP_WORD_BYTES);
	for (unsigned u = 0; u < q->nunits; u++)
		p = kv_units(p, q->unit_name[u], q->unit_len[u], s->units[u]);
	p = attr_int(p, "cycles", 6, int64_of(s->cycles));
	p = attr_int(p, "self_cycles", 11, int64_of(s->self));
	if (s->cpu >= 0)
		p = attr_int(p, "cpu", 3, s->cpu);
	if (s->numa >= 0)
		p = attr_int(p, "numa", 4, s->numa);
	/* a log's threads: the index today; their tid and name (thread.id,
	 * thread.name) once logs record them */
	if (s->thread)
		p = attr_int(p, "thread", 6, s->thread);
	return span_close(m, p);
}

/* Span S into the request; when it would take the request past its
 * limit, the request goes first and S starts the next. */
static void pb_span(const struct otlp_span *s)
{
	uint8_t *start = B.buf + B.len, *end = put_span(start, s);
	size_t n = (size_t)(end - start);
	if (B.spans && B.len + n + CLOSE_ROOM > B.max) {
		const struct otlp_resource *r = B.res;
		uint8_t *keep = malloc(n);
		if (!keep)
			abort();
		memcpy(keep, start, n);
		deliver();
		rs_open(r);
		memcpy(B.buf + B.len, keep, n);
		free(keep);
	}
	B.len += n;
	B.spans++;
}

static void pb_resource(const struct otlp_resource *r)
{
	rs_close();
	rs_open(r);
}

static int pb_begin(const struct export *x)
{
	memset(&B, 0, sizeof B);
	B.x = x;
	B.max = x->max_request ? x->max_request : DEFAULT_MAX;
	if (!(B.buf = malloc(B.max + SPAN_ROOM + 1024)))
		abort();
	if (x->endpoint && !(B.post = post_new(x->endpoint))) {
		free(B.buf);
		B.buf = NULL;
		return -1;
	}
	return 0;
}

static int pb_end(void)
{
	int failed;
	if (B.spans)
		deliver();
	else if (B.post && !B.sent)
		cli_error("export", "warning: %s: no span to send", B.x->endpoint);
	failed = B.failed;
	post_free(B.post);
	free(B.buf);
	memset(&B, 0, sizeof B);
	return failed ? -1 : 0;
}

const struct otlp_enc otlp_pb = {
	.begin = pb_begin,
	.resource = pb_resource,
	.span = pb_span,
	.end = pb_end,
};
