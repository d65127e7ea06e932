/* linked.c: the program the install suite (check_install.c) builds against
 * libtimeline in each way the README gives: it logs one entry to a log at
 * argv[1], reads it back, and says which file tl_open() was loaded from. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <timeline.h>

int main(int argc, char **argv)
{
	tl_options o = { .entries = 16, .strings_bytes = 4096, .name = "linked" };
	char where[PATH_MAX];
	tl_error err;
	tl_log *log;
	tl_reader *r;
	tl_entry e;
	uint16_t id;
	Dl_info dl;
	if (argc != 2) {
		fprintf(stderr, "usage: linked LOG\n");
		return 2;
	}
	if (!(log = tl_open(argv[1], &o, &err)) ||
	    tl_intern(log, "1,9|linked.hello: n\nOne entry.", &id, &err) != TL_OK) {
		fprintf(stderr, "linked: %s\n", err.msg);
		return 1;
	}
	tl_append(log, id, 42, 0, 0, 0, 0, 0);
	tl_close(log);
	if (!(r = tl_reader_open(argv[1], &err))) {
		fprintf(stderr, "linked: %s\n", err.msg);
		return 1;
	}
	while (tl_reader_next(r, &e))
		printf("%s n=%llu\n", tl_reader_def(r, e.msgid)->name, (unsigned long long)e.args[0]);
	tl_reader_close(r);
	/* the shared library (its real name), or this program for the static one */
	if (!dladdr((void *)tl_open, &dl) || !realpath(dl.dli_fname, where))
		return 1;
	printf("tl_open from %s\n", where);
	return 0;
}
