/* ctf.c: CTF 1.8 trace directories for babeltrace2 and Trace Compass: a
 * metadata file in TSDL and one data stream per input, in packets with
 * timestamp_begin and timestamp_end, each event saying whose it is (vpid,
 * vtid, procname, hostname, as LTTng-UST's contexts) and, for the begin or end
 * of a pair, the pair's name as the other exports give it (its declared
 * label and attributes). One event class per event definition (fields
 * named from its arguments), one clock for the export. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include "export.h"
#include "sink.h"
#include "usage.h"

#define CTF_MAGIC 0xC1FC1FC1u
#define PACKET_BYTES (64 * 1024)
#define HEADER_BYTES 32              /* magic, uuid, stream_id, stream_instance_id */
#define CONTEXT_BYTES 40             /* begin, end, content_size, packet_size, discarded */

/* An event class: a definition's name and argument names. */
struct cls {
	char name[128];
	unsigned nargs;
	char args[TL_MAX_ARGS][64];
};

/* The identity every event of a stream carries: _vpid (4 bytes), then
 * _procname and _hostname, NUL-terminated. */
#define IDENTITY_BYTES (4 + sizeof ((tl_info *)0)->process + sizeof ((tl_info *)0)->host)

/* A data stream being written. */
struct stream {
	int fd;
	unsigned char id[IDENTITY_BYTES];  /* its input's identity, as events carry it */
	size_t idlen;
	unsigned char buf[PACKET_BYTES];
	size_t len;                      /* bytes in the packet so far */
	uint64_t begin, end, last;       /* timestamps of the packet, and the last event */
	int any;                         /* an event is in the packet */
};

static struct {
	int dirfd;
	unsigned char uuid[16];
	struct cls *cls;
	size_t ncls, cap;
	uint32_t *cls_of;                /* per input: msgid -> class id + 1 */
	char **pair_of;                  /* ... and the name of the pair it begins or ends,
					  * "" for none (pair_name()) */
	size_t file;                     /* the input cls_of is for */
	struct input *in;                /* ... itself */
	struct stream s;
	int by_tsc;                      /* 1: raw TSC with the first input's frequency */
	uint64_t freq;
	int64_t offset_ns;               /* wall time of clock value 0, in ns */
	int failed;
	char host[256];                  /* the inputs' one host, or "" when they differ */
	char pairs[4096];                /* the pairs the inputs declare, "; " between */
} T;

static void put_le(unsigned char *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void fail(const char *what)
{
	if (!T.failed)
		cli_error("export", "%s: %s: %s", "ctf", what, strerror(errno ? errno : EIO));
	T.failed = 1;
}

/* A file in the trace directory, created new (never through a link). */
static int create(const char *name)
{
	int fd = openat(T.dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		fail(name);
	return fd;
}

static void format_uuid(char *buf, size_t size, const unsigned char *u)
{
	snprintf(buf, size,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
		 u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14],
		 u[15]);
}

/* The pairs the N inputs IN declare (timeline-events(5)), each once, in
 * their canonical form without "pair|", "; " between, into T.pairs: the
 * trace's environment says which events begin and end a span. */
static void declared_pairs(struct input **in, size_t n)
{
	size_t len = 0;
	T.pairs[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		size_t np;
		const tl_pair *p = input_pairs(in[i], &np);
		for (size_t k = 0; k < np; k++) {
			char one[1024];
			int m = snprintf(one, sizeof one, "%s: %s %s", p[k].label, p[k].begin, p[k].end);
			if (strcmp(p[k].by, "app"))
				m += snprintf(one + m, sizeof one - (size_t)m, " by=%s", p[k].by);
			for (unsigned u = 0; u < p[k].nunits; u++)
				m += snprintf(one + m, sizeof one - (size_t)m, " unit=%s", p[k].units[u]);
			if (strstr(T.pairs, one) || len + strlen(one) + 3 > sizeof T.pairs)
				continue;
			len += (size_t)snprintf(T.pairs + len, sizeof T.pairs - len, "%s%s",
						len ? "; " : "", one);
		}
	}
}

static int ctf_begin(const struct export *x, struct input **in, size_t n)
{
	memset(&T, 0, sizeof T);
	T.dirfd = -1;
	T.s.fd = -1;
	if (mkdir(x->out, 0700) != 0 && errno != EEXIST) {
		cli_error("export", "%s: %s", x->out, strerror(errno));
		return -1;
	}
	T.dirfd = open(x->out, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (T.dirfd < 0) {
		cli_error("export", "%s: %s", x->out, strerror(errno));
		return -1;
	}
	if (faccessat(T.dirfd, "metadata", F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
		cli_error("export", "%s: already holds a trace (metadata): choose a new directory", x->out);
		close(T.dirfd);
		return -1;
	}
	if (getrandom(T.uuid, sizeof T.uuid, 0) != (ssize_t)sizeof T.uuid)
		for (int i = 0; i < 16; i++)
			T.uuid[i] = (unsigned char)(rand() >> 8);
	T.uuid[6] = (unsigned char)((T.uuid[6] & 0x0f) | 0x40);   /* a version 4 UUID */
	T.uuid[8] = (unsigned char)((T.uuid[8] & 0x3f) | 0x80);
	/* one clock: the TSC when every input shares a host and boot, else wall ns */
	T.by_tsc = n > 0 && x->wall;
	for (size_t i = 1; i < n && T.by_tsc; i++)
		if (!tl_same_tsc(&in[i]->info, &in[0]->info))
			T.by_tsc = 0;
	if (T.by_tsc) {
		T.freq = in[0]->info.tsc_hz;
		T.offset_ns = tl_wall_ns(&in[0]->info, 0);
	} else {
		T.freq = 1000000000;
		T.offset_ns = 0;
	}
	declared_pairs(in, n);
	/* the trace environment is the whole trace's: a hostname only when one
	 * host wrote every input (each event says its own) */
	for (size_t i = 0; i < n; i++)
		if (in[i]->info.format != TL_FORMAT_NATIVE || strcmp(in[i]->info.host, in[0]->info.host))
			n = 0;
	snprintf(T.host, sizeof T.host, "%s", n ? in[0]->info.host : "");
	if (!(T.cls_of = calloc(65536, sizeof *T.cls_of)) ||
	    !(T.pair_of = calloc(65536, sizeof *T.pair_of)))
		abort();
	T.file = (size_t)-1;
	return 0;
}

/* Ends the packet under way: fills in its context and writes it. */
static void close_packet(void)
{
	struct stream *s = &T.s;
	if (!s->any || s->fd < 0)
		return;
	put_le(s->buf + HEADER_BYTES + 8, s->end, 8);
	put_le(s->buf + HEADER_BYTES + 16, (uint64_t)s->len * 8, 8);   /* content_size, bits */
	put_le(s->buf + HEADER_BYTES + 24, (uint64_t)s->len * 8, 8);   /* packet_size, bits */
	if (write_all(s->fd, s->buf, s->len))
		fail("a stream file");
	s->any = 0;
	s->len = 0;
}

static void open_packet(size_t file, uint64_t ts)
{
	struct stream *s = &T.s;
	memset(s->buf, 0, HEADER_BYTES + CONTEXT_BYTES);
	put_le(s->buf, CTF_MAGIC, 4);
	memcpy(s->buf + 4, T.uuid, 16);
	put_le(s->buf + 20, 0, 4);                      /* stream_id: the one stream class */
	put_le(s->buf + 24, file, 8);                   /* stream_instance_id: the input */
	put_le(s->buf + HEADER_BYTES, ts, 8);           /* timestamp_begin */
	s->len = HEADER_BYTES + CONTEXT_BYTES;
	s->begin = ts;
	s->any = 1;
}

/* Appends the NUL-terminated S (at most MAX bytes, a header's field) to
 * the identity of stream ST. */
static void put_id_string(struct stream *st, const char *s, size_t max)
{
	size_t n = strnlen(s, max - 1);
	memcpy(st->id + st->idlen, s, n);
	st->id[st->idlen + n] = '\0';
	st->idlen += n + 1;
}

/* The identity of IN's events: its writer's pid, process and host (a Snabb
 * file: the pid in its path, "snabb", and no host). */
static void identity(struct stream *st, const struct input *in)
{
	int native = in->info.format == TL_FORMAT_NATIVE;
	put_le(st->id, input_pid(in), 4);
	st->idlen = 4;
	put_id_string(st, native ? in->info.process : "snabb", sizeof in->info.process);
	put_id_string(st, native ? in->info.host : "", sizeof in->info.host);
}

static void free_pair_names(void)
{
	for (size_t i = 0; i < 65536; i++) {
		free(T.pair_of[i]);
		T.pair_of[i] = NULL;
	}
}

/* The name of the pair EV (MSGID of IN) begins or ends, as the Chrome and
 * Perfetto exports name its spans ("fwd.rx port=0", "app.push lookup"),
 * or "" when it is neither: made once per message id of the input. */
static const char *pair_name(const struct export *x, struct input *in, const tl_def *ev,
			     uint16_t msgid)
{
	if (!T.pair_of[msgid]) {
		char other[300], label[300], name[400] = "";
		int r = ev->name[0] == '?' ? 0 : export_pair_role(x, in, ev->name, other, sizeof other);
		if (r == 1)
			export_span_name(name, sizeof name, x, in, ev, other);
		if (r == 2) {
			export_span_label(label, sizeof label, x, in, other, ev->name);
			export_name(name, sizeof name, label, ev);
		}
		if (!(T.pair_of[msgid] = strdup(name)))
			abort();
	}
	return T.pair_of[msgid];
}

/* Starts the stream of input FILE. */
static void open_stream(size_t file, struct input *in)
{
	char name[64];
	close_packet();
	if (T.s.fd >= 0)
		close(T.s.fd);
	snprintf(name, sizeof name, "stream_%03zu", file);
	T.s.fd = create(name);
	T.s.last = 0;
	memset(T.cls_of, 0, 65536 * sizeof *T.cls_of);
	free_pair_names();
	T.file = file;
	T.in = in;
	identity(&T.s, in);
}

/* The _vtid of entry E: in a log several threads write, its thread's id;
 * else, as where the log does not know it (before format 1.4, Snabb's),
 * the process's, as a process's first thread has (dump names no thread
 * in a log of one either). */
static uint32_t vtid_of(const tl_entry *e)
{
	tl_thread th;
	if (tl_reader_threads(T.in->r) > 1 && tl_reader_thread(T.in->r, e->thread, &th) == TL_OK &&
	    th.tid)
		return th.tid;
	return input_pid(T.in);
}

/* The class of EV, made on first sight; its id. */
static uint32_t class_of(const tl_def *ev, uint16_t msgid)
{
	struct cls c;
	if (T.cls_of[msgid])
		return T.cls_of[msgid] - 1;
	memset(&c, 0, sizeof c);
	snprintf(c.name, sizeof c.name, "%s", ev->name);
	c.nargs = ev->nargs;
	for (unsigned i = 0; i < ev->nargs; i++)
		snprintf(c.args[i], sizeof c.args[i], "%s", ev->args[i]);
	for (size_t i = 0; i < T.ncls; i++)
		if (!memcmp(&T.cls[i], &c, sizeof c)) {
			T.cls_of[msgid] = (uint32_t)i + 1;
			return (uint32_t)i;
		}
	if (T.ncls == T.cap && !(T.cls = realloc(T.cls, (T.cap = T.cap ? 2 * T.cap : 64) * sizeof *T.cls)))
		abort();
	T.cls[T.ncls] = c;
	T.cls_of[msgid] = (uint32_t)++T.ncls;
	return (uint32_t)T.ncls - 1;
}

static void ctf_entry(const struct export *x, size_t file, struct input *in, const tl_def *ev,
		      const tl_entry *e, int64_t t)
{
	struct stream *s = &T.s;
	const char *app = strstr(ev->attrs, "app="), *pair;
	size_t applen = app ? strcspn(app + 4, " ") : 0, need, pairlen, attrslen;
	uint64_t ts;
	unsigned char *p;
	(void)t;
	if (T.failed)
		return;
	if (file != T.file)
		open_stream(file, in);
	if (s->fd < 0)
		return;
	pair = pair_name(x, in, ev, e->msgid);
	pairlen = strlen(pair);
	attrslen = strlen(ev->attrs);
	/* the clock value: raw TSC, or wall ns; never backwards within a stream */
	if (T.by_tsc || !x->wall)
		ts = e->tsc;
	else
		ts = (uint64_t)tl_wall_ns(&in->info, e->tsc);
	if (ts < s->last)
		ts = s->last;
	s->last = ts;
	need = 4 + 8 + s->idlen + 4 + 2 + 1 + applen + 1 + pairlen + 1 + attrslen + 1 +
	       8 * (size_t)ev->nargs;
	if (s->any && s->len + need > PACKET_BYTES)
		close_packet();
	if (!s->any)
		open_packet(file, ts);
	p = s->buf + s->len;
	put_le(p, class_of(ev, e->msgid), 4);
	put_le(p + 4, ts, 8);
	memcpy(p + 12, s->id, 4);   /* _vpid, _vtid, then _procname and _hostname */
	put_le(p + 16, vtid_of(e), 4);
	memcpy(p + 20, s->id + 4, s->idlen - 4);
	p += 16 + s->idlen;
	put_le(p, e->cpu, 2);
	p[2] = (unsigned char)e->numa;
	memcpy(p + 3, app ? app + 4 : "", applen);
	p[3 + applen] = '\0';
	p += 4 + applen;
	memcpy(p, pair, pairlen + 1);
	p += pairlen + 1;
	memcpy(p, ev->attrs, attrslen + 1);
	p += attrslen + 1;
	for (unsigned i = 0; i < ev->nargs; i++, p += 8) {
		uint64_t v = e->args[i];
		if (e->dargs >> i & 1) {
			double d;
			memcpy(&d, &e->args[i], 8);
			v = d >= 0 && d < 18446744073709551616.0 ? (uint64_t)d : 0;   /* Snabb: to integer */
		}
		put_le(p, v, 8);
	}
	s->len += need;
	s->end = ts;
}

/* A CTF identifier for argument NAME: letters, digits and _, not first a digit. */
static void ident(char *buf, size_t size, const char *name)
{
	size_t n = 0;
	if (name[0] >= '0' && name[0] <= '9')
		buf[n++] = '_';
	for (; *name && n + 1 < size; name++)
		buf[n++] = (char)((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') ||
					  (*name >= '0' && *name <= '9') ? *name : '_');
	buf[n] = '\0';
}

/* S as a TSDL string literal's contents: quotes and backslashes escaped,
 * control characters as '?' (a header's bytes are not trusted). */
static void put_literal(FILE *m, const char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == '\\')
			fprintf(m, "\\%c", *s);
		else
			fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, m);
}

static int write_metadata(void)
{
	char uuid[40], *text = NULL, arg[80];
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int fd, rc;
	if (!m)
		return -1;
	format_uuid(uuid, sizeof uuid, T.uuid);
	fprintf(m,
		"/* CTF 1.8 */\n\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"%s\";\n\tbyte_order = le;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t uuid[16];\n"
		"\t\tuint32_t stream_id;\n\t\tuint64_t stream_instance_id;\n\t};\n};\n\n"
		"env {\n",
		uuid);
	if (*T.host) {
		fputs("\thostname = \"", m);
		put_literal(m, T.host);
		fputs("\";\n", m);
	}
	if (*T.pairs) {
		fputs("\ttimeline_pairs = \"", m);
		put_literal(m, T.pairs);
		fputs("\";\n", m);
	}
	fputs("\ttracer_name = \"timeline\";\n};\n\n", m);
	fprintf(m,
		"clock {\n\tname = \"%s\";\n\tuuid = \"%s\";\n"
		"\tdescription = \"%s\";\n\tfreq = %" PRIu64 ";\n\toffset_s = %" PRId64 ";\n"
		"\toffset = %" PRId64 ";\n\tprecision = 0;\n\tabsolute = TRUE;\n};\n\n"
		"typealias integer { size = 64; align = 8; signed = false; map = clock.%s.value; } := "
		"uint64_clock_t;\n\n",
		T.by_tsc ? "tsc" : "wall", uuid,
		T.by_tsc ? "the TSC, anchored to the wall clock by the first log's header"
			 : "wall-clock nanoseconds since the epoch",
		T.freq, T.offset_ns / 1000000000,
		(int64_t)((double)(T.offset_ns % 1000000000) * (double)T.freq / 1e9),
		T.by_tsc ? "tsc" : "wall");
	fprintf(m,
		"stream {\n\tid = 0;\n\tpacket.context := struct {\n"
		"\t\tuint64_clock_t timestamp_begin;\n\t\tuint64_clock_t timestamp_end;\n"
		"\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n"
		"\t\tuint64_t events_discarded;\n\t};\n"
		"\tevent.header := struct {\n\t\tuint32_t id;\n\t\tuint64_clock_t timestamp;\n\t};\n"
		"\tevent.context := struct {\n\t\tint32_t _vpid;\n\t\tint32_t _vtid;\n"
		"\t\tstring _procname;\n"
		"\t\tstring _hostname;\n\t\tuint16_t cpu;\n\t\tuint8_t numa;\n"
		"\t\tstring app;\n\t\tstring pair;\n\t\tstring attrs;\n\t};\n};\n\n");
	for (size_t i = 0; i < T.ncls; i++) {
		fputs("event {\n\tname = \"", m);
		put_literal(m, T.cls[i].name);
		fprintf(m, "\";\n\tid = %zu;\n\tstream_id = 0;\n\tfields := struct {\n", i);
		for (unsigned k = 0; k < T.cls[i].nargs; k++) {
			ident(arg, sizeof arg, T.cls[i].args[k]);
			fprintf(m, "\t\tuint64_t %s;\n", arg);
		}
		fprintf(m, "\t};\n};\n\n");
	}
	if (fclose(m))
		return -1;
	fd = create("metadata");
	rc = fd < 0 || write_all(fd, text, len) ? -1 : 0;
	if (fd >= 0 && close(fd))
		rc = -1;
	free(text);
	return rc;
}

static int ctf_end(const struct export *x)
{
	(void)x;
	close_packet();
	if (T.s.fd >= 0 && close(T.s.fd))
		fail("a stream file");
	if (!T.failed && write_metadata())
		fail("metadata");
	if (T.dirfd >= 0)
		close(T.dirfd);
	free(T.cls);
	free(T.cls_of);
	if (T.pair_of)
		free_pair_names();
	free(T.pair_of);
	return T.failed ? -1 : 0;
}

const struct export_format export_ctf = {
	.name = "ctf",
	.dir = 1,
	.begin = ctf_begin,
	.entry = ctf_entry,
	.end = ctf_end,
};
