/* rate.c: `timeline rate`, the sampling rate of a log shown, or set while
 * its process runs, through a shared mapping of the header. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands.h"
#include "timeline.h"

static const char usage[] =
	"usage: timeline rate FILE [RATE]\n"
	"\n"
	"Shows the current sampling rate of a log, or sets it while the process\n"
	"runs. RATE is 1 to 9 (events of that rate and above are logged), 'off'\n"
	"(nothing is logged) or 'auto' (a new rate is drawn every breath).\n"
	"\n"
	"   -h, --help          show this help\n";

static const struct option options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

#define RATE_FIXED_OFFSET (TL_HDR_RATE_OFFSET + 1)

/* Parses RATE: 1..9, "off" (TL_RATE_OFF) or "auto" (TL_RATE_AUTO); -1 if bad. */
static int parse_rate(const char *s)
{
	if (!strcmp(s, "off"))
		return TL_RATE_OFF;
	if (!strcmp(s, "auto"))
		return TL_RATE_AUTO;
	if (s[0] >= '1' && s[0] <= '9' && !s[1])
		return s[0] - '0';
	return -1;
}

static void show(const char *path, const volatile uint8_t *h)
{
	unsigned rate = h[TL_HDR_RATE_OFFSET];
	if (rate == TL_RATE_OFF)
		printf("%s: off (nothing is logged)%s\n", path,
		       h[RATE_FIXED_OFFSET] ? "" : " until the next breath draws a rate");
	else
		printf("%s: %u, %s\n", path, rate,
		       h[RATE_FIXED_OFFSET] ? "fixed" : "drawn every breath");
}

/* Maps the first page of PATH, checked as one of our logs through the reader. */
static volatile uint8_t *map_header(const char *path, int writable)
{
	tl_error err;
	tl_reader *r = tl_reader_open(path, &err);
	void *p;
	int fd, fmt;
	if (!r) {
		cli_error("rate", "%s", err.msg);
		return NULL;
	}
	fmt = tl_reader_format(r);
	tl_reader_close(r);
	if (fmt != TL_FORMAT_NATIVE) {
		cli_error("rate", "%s: a Snabb log keeps its rate in the process, not the file", path);
		return NULL;
	}
	fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd < 0) {
		cli_error("rate", "%s: %s", path, strerror(errno));
		return NULL;
	}
	p = mmap(NULL, 4096, writable ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		cli_error("rate", "%s: cannot map: %s", path, strerror(errno));
		return NULL;
	}
	return p;
}

int cmd_rate(int argc, char **argv)
{
	volatile uint8_t *h;
	int c, rate = -1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return cli_finish("rate", EXIT_OK);
		}
		return cli_bad_option("rate", usage, argv, c);
	}
	if (argc - optind < 1 || argc - optind > 2)
		return cli_usage_error("rate", usage, argc == optind ? "missing log file"
								      : "too many arguments");
	if (argc - optind == 2 && (rate = parse_rate(argv[optind + 1])) < 0)
		return cli_usage_error("rate", usage, "RATE must be 1 to 9, off or auto");
	if (!(h = map_header(argv[optind], rate >= 0)))
		return EXIT_USAGE;
	if (rate == TL_RATE_AUTO) {
		__atomic_store_n(&h[RATE_FIXED_OFFSET], 0, __ATOMIC_SEQ_CST);
	} else if (rate > 0) {
		/* rate_fixed first, then the rate: what tl_breath() relies on */
		__atomic_store_n(&h[RATE_FIXED_OFFSET], 1, __ATOMIC_SEQ_CST);
		__atomic_store_n(&h[TL_HDR_RATE_OFFSET], (uint8_t)rate, __ATOMIC_SEQ_CST);
	}
	show(argv[optind], h);
	munmap((void *)h, 4096);
	return cli_finish("rate", EXIT_OK);
}
