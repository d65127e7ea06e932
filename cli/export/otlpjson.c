/* otlpjson.c: OTLP in JSON (`export -f otlp-json`), the protobuf JSON
 * mapping with OTLP's exceptions (opentelemetry-proto, docs/specification.md,
 * "JSON Protobuf Encoding"): lowerCamelCase keys, trace and span ids as hex
 * strings, enums as numbers, 64-bit integers (times, int values) as decimal
 * strings. One ExportTraceServiceRequest, a ResourceSpans for every run of
 * one process's spans. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "json.h"
#include "otlp.h"

static struct {
	struct json j;
	int open;                        /* a ResourceSpans is open */
} J;

/* N bytes at ID as lower-case hex. */
static void put_hex(const uint8_t *id, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	char s[33];
	for (size_t i = 0; i < n; i++) {
		s[2 * i] = hex[id[i] >> 4];
		s[2 * i + 1] = hex[id[i] & 15];
	}
	s[2 * n] = '\0';
	json_string(&J.j, s);
}

/* V as the mapping writes an int64 or a fixed64: a decimal string. */
static void put_int64(int64_t v)
{
	char s[24];
	snprintf(s, sizeof s, "%lld", (long long)v);
	json_string(&J.j, s);
}

static void put_uint64(uint64_t v)
{
	char s[24];
	snprintf(s, sizeof s, "%llu", (unsigned long long)v);
	json_string(&J.j, s);
}

/* A KeyValue of KEY, its AnyValue opened with its one field TYPE. */
static void kv_open(const char *key, const char *type)
{
	json_begin_object(&J.j);
	json_key(&J.j, "key");
	json_string(&J.j, key);
	json_key(&J.j, "value");
	json_begin_object(&J.j);
	json_key(&J.j, type);
}

static void kv_close(void)
{
	json_end_object(&J.j);
	json_end_object(&J.j);
}

static void kv_str(const char *key, const char *v)
{
	kv_open(key, "stringValue");
	json_string(&J.j, v);
	kv_close();
}

static void kv_int(const char *key, int64_t v)
{
	kv_open(key, "intValue");
	put_int64(v);
	kv_close();
}

/* A unit's value as otlppb.c gives it: an int when whole, else a double. */
static void kv_units(const char *key, double v)
{
	if (!isfinite(v))
		return;
	if (v == floor(v) && fabs(v) < 9.2e18) {
		kv_int(key, (int64_t)v);
		return;
	}
	kv_open(key, "doubleValue");
	json_double(&J.j, v);
	kv_close();
}

static void rs_close(void)
{
	if (!J.open)
		return;
	json_end_array(&J.j);    /* spans */
	json_end_object(&J.j);   /* the ScopeSpans */
	json_end_array(&J.j);    /* scopeSpans */
	json_end_object(&J.j);   /* the ResourceSpans */
	J.open = 0;
}

static void js_resource(const struct otlp_resource *r)
{
	rs_close();
	json_begin_object(&J.j);
	json_key(&J.j, "resource");
	json_begin_object(&J.j);
	json_key(&J.j, "attributes");
	json_begin_array(&J.j);
	kv_str("service.name", r->service);
	if (r->host[0])
		kv_str("host.name", r->host);
	if (r->pid)
		kv_int("process.pid", r->pid);
	json_end_array(&J.j);
	json_end_object(&J.j);
	json_key(&J.j, "scopeSpans");
	json_begin_array(&J.j);
	json_begin_object(&J.j);
	json_key(&J.j, "scope");
	json_begin_object(&J.j);
	json_key(&J.j, "name");
	json_string(&J.j, "timeline");
	json_key(&J.j, "version");
	json_string(&J.j, TL_VERSION_STRING);
	json_end_object(&J.j);
	json_key(&J.j, "spans");
	json_begin_lines(&J.j);
	J.open = 1;
}

static void js_span(const struct otlp_span *s)
{
	const struct otlp_kind *q = s->kind;
	json_begin_object(&J.j);
	json_key(&J.j, "traceId");
	put_hex(s->trace_id, 16);
	json_key(&J.j, "spanId");
	put_hex(s->span_id, 8);
	if (s->has_parent) {
		json_key(&J.j, "parentSpanId");
		put_hex(s->parent_id, 8);
	}
	json_key(&J.j, "name");
	json_string(&J.j, q->name);
	json_key(&J.j, "kind");
	json_int(&J.j, 1);   /* SPAN_KIND_INTERNAL: an enum as its number */
	json_key(&J.j, "startTimeUnixNano");
	put_uint64(s->start_ns);
	json_key(&J.j, "endTimeUnixNano");
	put_uint64(s->end_ns);
	json_key(&J.j, "attributes");
	json_begin_array(&J.j);
	if (q->attr)
		kv_str(q->attr_name, q->attr);
	for (unsigned u = 0; u < q->nunits; u++)
		kv_units(q->unit_name[u], s->units[u]);
	kv_int("cycles", s->cycles > INT64_MAX ? INT64_MAX : (int64_t)s->cycles);
	kv_int("self_cycles", s->self > INT64_MAX ? INT64_MAX : (int64_t)s->self);
	if (s->cpu >= 0)
		kv_int("cpu", s->cpu);
	if (s->numa >= 0)
		kv_int("numa", s->numa);
	if (s->thread)
		kv_int("thread", s->thread);
	json_end_array(&J.j);
	json_end_object(&J.j);
}

static int js_begin(const struct export *x)
{
	struct json init = JSON_INIT;
	(void)x;
	memset(&J, 0, sizeof J);
	J.j = init;
	json_begin_object(&J.j);
	json_key(&J.j, "resourceSpans");
	json_begin_lines(&J.j);
	return 0;
}

static int js_end(void)
{
	rs_close();
	json_end_array(&J.j);
	json_end_object(&J.j);
	out_char('\n');
	return 0;
}

const struct otlp_enc otlp_json = {
	.begin = js_begin,
	.resource = js_resource,
	.span = js_span,
	.end = js_end,
};
