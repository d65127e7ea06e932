/* fsname.c: the file system a log lives on, by statfs(2)'s magic number:
 * in memory (tmpfs, as /run is on most systems) or on a disk, whose
 * write-back makes every store to the ring dearer (README.md, "Where logs
 * go"; bench/README.md, "Where a log lives"). */
#include <stdio.h>
#include <sys/vfs.h>
#include "fsname.h"

static const struct {
	unsigned long magic;
	const char *name;
	int memory;
} known[] = {
	{ 0x01021994, "tmpfs", 1 },   /* TMPFS_MAGIC */
	{ 0x858458f6, "ramfs", 1 },
	{ 0xef53, "ext4", 0 },        /* ext2, ext3 and ext4 share it */
	{ 0x58465342, "xfs", 0 },
	{ 0x9123683e, "btrfs", 0 },
	{ 0x2fc12fc1, "zfs", 0 },
	{ 0xf2f52010, "f2fs", 0 },
	{ 0x794c7630, "overlay", 0 },
	{ 0x6969, "nfs", 0 },
	{ 0x65735546, "fuse", 0 },
	{ 0x01021997, "9p", 0 },
	{ 0x73717368, "squashfs", 0 },
};

int fs_name(const char *path, char *name, size_t size)
{
	struct statfs s;
	if (statfs(path, &s) != 0) {
		snprintf(name, size, "?");
		return 0;
	}
	for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
		if ((unsigned long)s.f_type == known[k].magic) {
			snprintf(name, size, "%s", known[k].name);
			return known[k].memory;
		}
	snprintf(name, size, "0x%lx", (unsigned long)s.f_type);
	return 0;
}
