/* post.c: `export --endpoint`, OTLP/HTTP's client (opentelemetry-proto,
 * docs/specification.md): each request POSTed to URL/v1/traces as
 * application/x-protobuf through libcurl (TLS, proxies from the
 * environment, HTTP/1.1 and 2, redirects, timeouts); 429, 502, 503 and 504
 * retried after the Retry-After the collector gives or a backoff, a bounded
 * number of times; a partial success said as a warning; anything else one
 * line, and no request sent after it. libcurl is loaded when --endpoint is
 * given, not linked: linked, every command paid for loading it and the
 * thirty libraries behind it at start. */
#define _GNU_SOURCE
#include <curl/curl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "otlp.h"
#include "pbuf.h"
#include "usage.h"

#define TRIES 5                          /* a request sent at most this many times */
#define WAIT_MAX 30                      /* seconds waited before a try at most */
#define RESPONSE_MAX (4u << 20)          /* the response read at most (the spec's 4 MiB) */
#define MESSAGE_MAX 200                  /* a collector's message shown at most */

/* The libcurl functions used, from the library loaded (curl_load()). The
 * names are not curl's own, which curl.h may define as macros. */
static struct {
	void *lib;
	CURLcode (*global_init)(long);
	void (*global_cleanup)(void);
	CURL *(*init)(void);
	CURLcode (*setopt)(CURL *, CURLoption, ...);
	CURLcode (*perform)(CURL *);
	CURLcode (*getinfo)(CURL *, CURLINFO, ...);
	void (*cleanup)(CURL *);
	const char *(*strerror)(CURLcode);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
	CURLU *(*url)(void);
	CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
	CURLUcode (*url_get)(const CURLU *, CURLUPart, char **, unsigned int);
	void (*url_cleanup)(CURLU *);
	void (*free)(void *);
} C;

/* Loads libcurl (Debian's libcurl4: libcurl.so.4, else the GnuTLS build's
 * libcurl-gnutls.so.4) and its functions; -1, said, when it cannot. */
static int curl_load(void)
{
	static const char *const names[] = { "libcurl.so.4", "libcurl-gnutls.so.4" };
	struct { void *fn; const char *name; } f[] = {
		{ &C.global_init, "curl_global_init" }, { &C.global_cleanup, "curl_global_cleanup" },
		{ &C.init, "curl_easy_init" }, { &C.setopt, "curl_easy_setopt" },
		{ &C.perform, "curl_easy_perform" }, { &C.getinfo, "curl_easy_getinfo" },
		{ &C.cleanup, "curl_easy_cleanup" }, { &C.strerror, "curl_easy_strerror" },
		{ &C.slist_append, "curl_slist_append" }, { &C.slist_free_all, "curl_slist_free_all" },
		{ &C.url, "curl_url" }, { &C.url_set, "curl_url_set" }, { &C.url_get, "curl_url_get" },
		{ &C.url_cleanup, "curl_url_cleanup" }, { &C.free, "curl_free" },
	};
	for (size_t i = 0; i < 2 && !C.lib; i++)
		C.lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!C.lib) {
		cli_error("export", "--endpoint needs libcurl: %s", dlerror());
		return -1;
	}
	for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
		void *sym = dlsym(C.lib, f[i].name);
		if (!sym) {
			cli_error("export", "--endpoint needs libcurl 7.62 or later: no %s", f[i].name);
			return -1;
		}
		memcpy(f[i].fn, &sym, sizeof sym);
	}
	return 0;
}

struct post {
	CURL *curl;
	char *url;                       /* URL/v1/traces */
	struct curl_slist *headers;
	char err[CURL_ERROR_SIZE];
	uint8_t *body;                   /* the response */
	size_t nbody;
	int too_big;                     /* ... was cut at RESPONSE_MAX */
	int protobuf;                    /* ... is application/x-protobuf */
	uint64_t requests, spans;        /* taken so far */
};

static size_t on_body(char *data, size_t size, size_t n, void *ctx)
{
	struct post *p = ctx;
	size_t len = size * n;
	if (p->nbody + len > RESPONSE_MAX) {
		p->too_big = 1;
		return 0;   /* ends the transfer */
	}
	if (!(p->body = realloc(p->body, p->nbody + len + 1)))
		abort();
	memcpy(p->body + p->nbody, data, len);
	p->nbody += len;
	return len;
}

static size_t on_header(char *data, size_t size, size_t n, void *ctx)
{
	struct post *p = ctx;
	static const char ct[] = "content-type:";
	size_t len = size * n;
	if (len > sizeof ct && !strncasecmp(data, ct, sizeof ct - 1))
		p->protobuf = memmem(data, len, "application/x-protobuf", 22) != NULL;
	return len;
}

/* URL with /v1/traces after it (its trailing slashes dropped), or NULL,
 * said, when libcurl's parser refuses it or its scheme is not HTTP(S). */
static char *traces_url(const char *url)
{
	CURLU *u = C.url();
	char *scheme = NULL, *full = NULL;
	size_t n = strlen(url);
	while (n && url[n - 1] == '/')
		n--;
	if (u && C.url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    C.url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
	    (!strcmp(scheme, "http") || !strcmp(scheme, "https")) && (full = malloc(n + 11))) {
		memcpy(full, url, n);
		memcpy(full + n, "/v1/traces", 11);
	} else {
		cli_error("export", "%s: not an http:// or https:// URL", url);
	}
	C.free(scheme);
	C.url_cleanup(u);
	return full;
}

struct post *post_new(const char *url)
{
	struct post *p;
	if (!C.lib && curl_load() < 0)
		return NULL;
	if (C.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		cli_error("export", "%s: libcurl cannot start", url);
		return NULL;
	}
	if (!(p = calloc(1, sizeof *p)))
		abort();
	if (!(p->url = traces_url(url)) || !(p->curl = C.init())) {
		post_free(p);
		return NULL;
	}
	p->headers = C.slist_append(NULL, "Content-Type: application/x-protobuf");
	p->headers = C.slist_append(p->headers, "Expect:");   /* no wait for 100-continue */
	C.setopt(p->curl, CURLOPT_URL, p->url);
	C.setopt(p->curl, CURLOPT_HTTPHEADER, p->headers);
	C.setopt(p->curl, CURLOPT_USERAGENT, "timeline/" TL_VERSION_STRING);
	C.setopt(p->curl, CURLOPT_PROTOCOLS_STR, "http,https");
	C.setopt(p->curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	C.setopt(p->curl, CURLOPT_FOLLOWLOCATION, 1L);
	C.setopt(p->curl, CURLOPT_MAXREDIRS, 5L);
	C.setopt(p->curl, CURLOPT_POSTREDIR, (long)CURL_REDIR_POST_ALL);
	C.setopt(p->curl, CURLOPT_CONNECTTIMEOUT, 10L);
	C.setopt(p->curl, CURLOPT_TIMEOUT, 60L);
	C.setopt(p->curl, CURLOPT_NOSIGNAL, 1L);
	C.setopt(p->curl, CURLOPT_ERRORBUFFER, p->err);
	C.setopt(p->curl, CURLOPT_WRITEFUNCTION, on_body);
	C.setopt(p->curl, CURLOPT_WRITEDATA, p);
	C.setopt(p->curl, CURLOPT_HEADERFUNCTION, on_header);
	C.setopt(p->curl, CURLOPT_HEADERDATA, p);
	return p;
}

void post_free(struct post *p)
{
	if (!p)
		return;
	C.slist_free_all(p->headers);
	if (p->curl)
		C.cleanup(p->curl);
	free(p->url);
	free(p->body);
	free(p);
	C.global_cleanup();
}

/* ---- reading the collector's answer ------------------------------------------ */

/* A varint at *P before END into *V; 0, or -1 when it does not end there. */
static int get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	*v = 0;
	for (unsigned shift = 0; *p < end && shift < 64; shift += 7) {
		uint8_t b = *(*p)++;
		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
	}
	return -1;
}

/* The fields of the message of N bytes at P: each FIELD's value (a
 * varint's in *V, else *V its length and *AT its bytes) to FN with CTX,
 * until the end or bytes that are not protobuf (-1). */
static int fields(const uint8_t *p, size_t n, void (*fn)(void *, unsigned, uint64_t, const uint8_t *),
		  void *ctx)
{
	const uint8_t *end = p + n;
	while (p < end) {
		uint64_t key, v;
		const uint8_t *at = NULL;
		if (get_varint(&p, end, &key) < 0)
			return -1;
		switch (key & 7) {
		case PB_VARINT:
			if (get_varint(&p, end, &v) < 0)
				return -1;
			break;
		case PB_I64:
			if (end - p < 8)
				return -1;
			p += 8;
			v = 0;
			break;
		case PB_LEN:
			if (get_varint(&p, end, &v) < 0 || v > (uint64_t)(end - p))
				return -1;
			at = p;
			p += v;
			break;
		case 5:   /* I32 */
			if (end - p < 4)
				return -1;
			p += 4;
			v = 0;
			break;
		default:
			return -1;
		}
		fn(ctx, (unsigned)(key >> 3), v, at);
	}
	return 0;
}

/* What an answer says: ExportTracePartialSuccess, or a Status's message. */
struct said {
	int partial;                     /* partial_success is there */
	int64_t rejected;
	char message[MESSAGE_MAX + 1];   /* error_message, or Status.message */
};

/* The N bytes at S as one line of text: cut, control bytes as '?'. */
static void text_of(char *out, const uint8_t *s, size_t n)
{
	size_t i = 0;
	for (; i < n && i < MESSAGE_MAX && s[i] != '\n'; i++)
		out[i] = s[i] < 0x20 || s[i] == 0x7f ? '?' : (char)s[i];
	out[i] = '\0';
}

static void on_partial(void *ctx, unsigned field, uint64_t v, const uint8_t *at)
{
	struct said *w = ctx;
	if (field == OTLP_PARTIAL_REJECTED_SPANS && !at)
		w->rejected = (int64_t)v;
	if (field == OTLP_PARTIAL_ERROR_MESSAGE && at)
		text_of(w->message, at, v);
}

static void on_response(void *ctx, unsigned field, uint64_t v, const uint8_t *at)
{
	struct said *w = ctx;
	if (field == OTLP_RESPONSE_PARTIAL_SUCCESS && at) {
		w->partial = 1;
		fields(at, v, on_partial, w);
	}
}

static void on_status(void *ctx, unsigned field, uint64_t v, const uint8_t *at)
{
	struct said *w = ctx;
	if (field == RPC_STATUS_MESSAGE && at)
		text_of(w->message, at, v);
}

/* Says a 2xx answer's partial success, when there is one, as a warning
 * (the spec: not to be retried). */
static void say_partial(struct post *p, uint64_t spans)
{
	struct said w = { 0 };
	if (!p->protobuf || fields(p->body, p->nbody, on_response, &w) < 0 || !w.partial ||
	    (!w.rejected && !w.message[0]))
		return;
	cli_error("export", "warning: %s: the collector rejected %lld of %llu spans%s%s", p->url,
		  (long long)w.rejected, (unsigned long long)spans, w.message[0] ? ": " : "",
		  w.message);
}

/* ---- sending -------------------------------------------------------------------- */

/* Is STATUS one to try again (the spec's retryable codes)? */
static int retryable(long status)
{
	return status == 429 || status == 502 || status == 503 || status == 504;
}

/* The seconds to wait before try TRY + 1: the collector's Retry-After
 * (seconds or an HTTP date, libcurl parses both), else 1, 2, 4, 8 ... */
static long wait_of(struct post *p, int try)
{
	curl_off_t after = 0;
	long s = 1L << (try - 1);
	if (C.getinfo(p->curl, CURLINFO_RETRY_AFTER, &after) == CURLE_OK && after > 0)
		s = after > WAIT_MAX ? WAIT_MAX : (long)after;
	return s > WAIT_MAX ? WAIT_MAX : s;
}

/* Says why request P->requests + 1 was not taken, in one line. */
static void say_failed(struct post *p, const char *why)
{
	cli_error("export", "%s: %s; %llu request%s (%llu spans) taken before it, none sent after",
		  p->url, why, (unsigned long long)p->requests, p->requests == 1 ? "" : "s",
		  (unsigned long long)p->spans);
}

/* A transfer that ended with RC (no answer): worth another try when the
 * connection was made and then lost, not when none could be made. */
static int lost_connection(CURLcode rc)
{
	return rc == CURLE_GOT_NOTHING || rc == CURLE_SEND_ERROR || rc == CURLE_RECV_ERROR ||
	       rc == CURLE_PARTIAL_FILE || rc == CURLE_OPERATION_TIMEDOUT;
}

/* One try: 0 taken, 1 to try again, -1 refused (said). *STATUS gets the
 * HTTP status, 0 when there was no answer. */
static int try_once(struct post *p, const uint8_t *body, size_t n, uint64_t spans, long *status)
{
	CURLcode rc;
	char why[MESSAGE_MAX + 64];
	struct said w = { 0 };
	p->nbody = 0;
	p->too_big = p->protobuf = 0;
	p->err[0] = '\0';
	*status = 0;
	C.setopt(p->curl, CURLOPT_POSTFIELDS, body);
	C.setopt(p->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)n);
	rc = C.perform(p->curl);
	C.getinfo(p->curl, CURLINFO_RESPONSE_CODE, status);
	if (p->too_big) {
		say_failed(p, "its answer is over 4 MiB");
		return -1;
	}
	if (rc != CURLE_OK) {
		if (lost_connection(rc))
			return 1;
		snprintf(why, sizeof why, "%s", p->err[0] ? p->err : C.strerror(rc));
		say_failed(p, why);
		return -1;
	}
	if (*status >= 200 && *status < 300) {
		say_partial(p, spans);
		return 0;
	}
	if (retryable(*status))
		return 1;
	if (p->protobuf)
		fields(p->body, p->nbody, on_status, &w);
	else if (p->nbody)
		text_of(w.message, p->body, p->nbody);
	snprintf(why, sizeof why, "HTTP %ld%s%s", *status, w.message[0] ? ": " : "", w.message);
	say_failed(p, why);
	return -1;
}

int post_send(struct post *p, const uint8_t *body, size_t n, uint64_t spans)
{
	long status = 0;
	for (int try = 1;; try++) {
		int rc = try_once(p, body, n, spans, &status);
		if (rc < 0)
			return -1;
		if (!rc) {
			p->requests++;
			p->spans += spans;
			return 0;
		}
		if (try == TRIES) {
			char why[64];
			if (status)
				snprintf(why, sizeof why, "HTTP %ld after %d tries", status, TRIES);
			else
				snprintf(why, sizeof why, "no answer after %d tries", TRIES);
			say_failed(p, why);
			return -1;
		}
		struct timespec t = { wait_of(p, try), 0 };
		while (nanosleep(&t, &t) < 0)
			;
	}
}
