/* otlp.h: what the OTLP writers share. otlp.c turns the engine's spans into
 * finished spans with their ids, times and attributes; an encoder writes
 * them: protobuf (otlppb.c, into requests of bounded size for a file or a
 * collector, post.c) or OTLP's JSON (otlpjson.c). */
#ifndef TL_OTLP_H
#define TL_OTLP_H
#include <stdint.h>
#include "export.h"

/* What the spans of one pair and attribute are named and carry: their
 * name ("app.push source"), the pair's attribute (app=source) and the names
 * of the units they move. */
struct otlp_kind {
	char *name;                      /* label, then the attribute's value if any */
	size_t name_len;
	char *attr_name, *attr;          /* NULL: no attribute */
	size_t attr_name_len, attr_len;  /* their lengths, cut at OTLP_WORD_BYTES */
	unsigned nunits;
	char *unit_name[TL_MAX_ARGS];
	size_t unit_len[TL_MAX_ARGS];    /* ... cut the same */
};

/* An attribute's key or string value is cut at this many bytes. */
#define OTLP_WORD_BYTES 128

/* A span as the encoders write it. */
struct otlp_span {
	const struct otlp_kind *kind;
	uint8_t trace_id[16], span_id[8], parent_id[8];
	int has_parent;
	uint64_t start_ns, end_ns;       /* wall clock, ns since the epoch */
	uint64_t cycles, self;           /* its cycles, and those of no span inside it */
	double units[TL_MAX_ARGS];       /* by kind->unit_name; NAN: the end lacks it */
	int cpu, numa;                   /* of its end; -1 unknown */
	uint32_t thread;                 /* tl_entry.thread */
};

/* A process: the resource its spans are given. */
struct otlp_resource {
	const char *service;             /* service.name */
	const char *host;                /* host.name, "" unknown */
	uint32_t pid;                    /* process.pid, 0 unknown */
};

/* An encoder: begin once, then spans each after the resource they belong
 * to (the same resource may come again, after others), then end. */
struct otlp_enc {
	int (*begin)(const struct export *x);
	void (*resource)(const struct otlp_resource *r);
	void (*span)(const struct otlp_span *s);
	/* Finishes the output: -1 (reported) when it could not be written or sent. */
	int (*end)(void);
};
extern const struct otlp_enc otlp_pb, otlp_json;

/* The HTTP client of --endpoint (post.c). */
struct post;
/* A client that POSTs to URL/v1/traces; NULL (reported) when it cannot be made. */
struct post *post_new(const char *url);
/* Sends the N bytes at BODY, one ExportTraceServiceRequest of SPANS spans,
 * retrying as OTLP/HTTP says; reports a partial success as a warning.
 * Returns 0 when the collector took it, -1 (reported) when not. */
int post_send(struct post *p, const uint8_t *body, size_t n, uint64_t spans);
/* Frees P; with what it sent so far said if a request failed. */
void post_free(struct post *p);
#endif
