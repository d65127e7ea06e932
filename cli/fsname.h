/* fsname.h: the file system a log lives on, as `info` and `ls` name it
 * (cli/fsname.c). */
#ifndef TL_FSNAME_H
#define TL_FSNAME_H
#include <stddef.h>

/* The file system of PATH into NAME (SIZE bytes): "tmpfs", "ext4", "xfs"
 * ..., "0x" and its magic number for one not named here, "?" when statfs(2)
 * fails. Returns 1 when it keeps files in memory (tmpfs, ramfs), else 0. */
int fs_name(const char *path, char *name, size_t size);
#endif
