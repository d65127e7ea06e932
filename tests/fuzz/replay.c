/* replay.c: runs a harness's LLVMFuzzerTestOneInput once on each file named
 * (or in each directory named), without libFuzzer: how `make fuzz-replay`
 * and CI replay the corpora and the regression inputs under gcc's ASan and
 * UBSan, in seconds. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fuzz.h"

static int one(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;
	uint8_t *buf;
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "replay: %s: cannot read\n", path);
		if (f)
			fclose(f);
		return 1;
	}
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int bad = 0, count = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *de;
		if (stat(argv[i], &st) || !S_ISDIR(st.st_mode)) {
			bad += one(argv[i]);
			count++;
			continue;
		}
		if (!(d = opendir(argv[i])))
			return 1;
		while ((de = readdir(d))) {
			char p[4096];
			if (de->d_name[0] == '.')
				continue;
			snprintf(p, sizeof p, "%s/%s", argv[i], de->d_name);
			bad += one(p);
			count++;
		}
		closedir(d);
	}
	printf("replay %s: %d inputs, %d unreadable\n", argv[0], count, bad);
	return bad ? 1 : 0;
}
