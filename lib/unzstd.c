/* unzstd.c: opening a zstd-compressed copy of a log (what `timeline copy
 * --zstd` writes): decompressed into an unlinked temporary file, bounded by
 * the size the log's own header announces and by TL_MAX_DECOMPRESSED. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>
#include "error.h"
#include "reader.h"

#define IBUF (1 << 17)
#define OBUF (1 << 18)

/* What the decompression loop carries between blocks. */
struct unz {
	const char *name;
	unsigned char head[64];      /* the first bytes out: the log's header */
	size_t hlen;
	uint64_t total, limit;       /* bytes written, and the most allowed */
	int out;                     /* the temporary file, or -1 when only probing */
	int foreign;                 /* the content is not a log */
};

/* Takes N more decompressed bytes BUF: checks the header once it is whole,
 * the size against the limit, and writes them out. Returns TL_OK, or a
 * failure in ERR (TL_E_FORMAT with "compressed, but not a timeline log" for
 * another kind of content). */
static int take(struct unz *u, const unsigned char *buf, size_t n, tl_error *err)
{
	if (u->hlen < 64) {
		size_t k = n < 64 - u->hlen ? n : 64 - u->hlen;
		memcpy(u->head + u->hlen, buf, k);
		u->hlen += k;
		if (u->hlen == 64 && !(u->limit = tl_announced_bytes(u->head))) {
			u->foreign = 1;
			return tl_fail(err, TL_E_FORMAT, 0, "%s: compressed, but not a timeline log",
				       u->name);
		}
	}
	if (u->limit > TL_MAX_DECOMPRESSED)
		return tl_fail(err, TL_E_FORMAT, 0,
			       "%s: its header announces %llu bytes, over the %llu a compressed "
			       "input may hold", u->name, (unsigned long long)u->limit,
			       (unsigned long long)TL_MAX_DECOMPRESSED);
	if (u->total + n > u->limit)
		return tl_fail(err, TL_E_FORMAT, 0,
			       "%s: decompresses to more than the %llu bytes its header gives",
			       u->name, (unsigned long long)u->limit);
	if (u->out >= 0 && write(u->out, buf, n) != (ssize_t)n)
		return tl_fail(err, TL_E_SYS, errno, "%s: cannot decompress", u->name);
	u->total += n;
	return TL_OK;
}

/* Decompresses FD through U until the end, or (PROBE) until the header is
 * whole. Returns TL_OK or the failure in ERR. */
static int run(struct unz *u, ZSTD_DStream *z, int fd, int probe, unsigned char *ibuf,
	       unsigned char *obuf, tl_error *err)
{
	size_t rc = 1;
	for (;;) {
		ssize_t got = read(fd, ibuf, IBUF);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return tl_fail(err, TL_E_SYS, errno, "%s: read error", u->name);
		if (got == 0)
			break;
		ZSTD_inBuffer ib = { ibuf, (size_t)got, 0 };
		while (ib.pos < ib.size) {
			ZSTD_outBuffer ob = { obuf, OBUF, 0 };
			rc = ZSTD_decompressStream(z, &ob, &ib);
			if (ZSTD_isError(rc))
				return tl_fail(err, TL_E_FORMAT, 0, "%s: damaged zstd data: %s",
					       u->name, ZSTD_getErrorName(rc));
			if (take(u, obuf, ob.pos, err) != TL_OK)
				return err ? err->code : TL_E_FORMAT;
			if (probe && u->hlen == 64)
				return TL_OK;
		}
	}
	if (rc != 0)
		return tl_fail(err, TL_E_FORMAT, 0, "%s: truncated zstd data", u->name);
	if (u->hlen < 64) {
		u->foreign = 1;
		return tl_fail(err, TL_E_FORMAT, 0, "%s: compressed, but not a timeline log", u->name);
	}
	return TL_OK;
}

/* Decompresses from the start of FD; with PROBE only until the header is
 * known, without writing. Returns the temporary file's fd (PROBE: the
 * header's enum tl_format), or -1 with ERR filled and *FOREIGN set when the
 * content is not a log. */
static int unzstd(int fd, const char *name, int probe, int *foreign, tl_error *err)
{
	const char *tmp = getenv("TMPDIR");
	struct unz u = { .name = name, .limit = TL_MAX_DECOMPRESSED, .out = -1 };
	ZSTD_DStream *z = ZSTD_createDStream();
	unsigned char *ibuf = malloc(IBUF), *obuf = malloc(OBUF);
	int rc = TL_E_NOMEM;

	if (!z || !ibuf || !obuf) {
		tl_fail(err, TL_E_NOMEM, ENOMEM, "%s", name);
	} else if (!probe && (u.out = open(tmp && *tmp ? tmp : "/tmp",
					   O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) < 0) {
		rc = tl_fail(err, TL_E_SYS, errno, "%s: cannot make a temporary file", name);
	} else if (lseek(fd, 0, SEEK_SET) < 0) {
		rc = tl_fail(err, TL_E_SYS, errno, "%s: cannot seek", name);
	} else {
		ZSTD_initDStream(z);
		rc = run(&u, z, fd, probe, ibuf, obuf, err);
	}
	ZSTD_freeDStream(z);
	free(ibuf);
	free(obuf);
	*foreign = u.foreign;
	if (rc != TL_OK) {
		if (u.out >= 0)
			close(u.out);
		return -1;
	}
	if (probe) {   /* which format the header is of */
		uint64_t magic;
		memcpy(&magic, u.head, sizeof magic);
		return magic == TL_SNABB_MAGIC ? TL_FORMAT_SNABB : TL_FORMAT_NATIVE;
	}
	return u.out;
}

int tl_unzstd(int fd, const char *name, tl_error *err)
{
	int foreign;
	return unzstd(fd, name, 0, &foreign, err);
}

int tl_unzstd_probe(int fd)
{
	int foreign, format = unzstd(fd, "", 1, &foreign, NULL);
	if (format > 0)
		return format;
	return foreign ? 0 : -1;   /* a damaged or cut frame is still compressed */
}
