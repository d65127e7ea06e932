/* create.c: where a log file goes and how it is created: 0700 directories,
 * a 0600 file, no symbolic link followed, space allocated before use, and
 * never over a log this process has open at the default path. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "create.h"
#include "error.h"
#include "format.h"
#include "proc.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* Is the directory open at FD safe to put a log in? OURS: we created it, so it
 * must belong to us and be closed to others; otherwise (a parent the caller
 * chose) it must not be writable by others unless it has the sticky bit. */
static int check_dir(int fd, const char *shown, int ours, tl_error *err)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return tl_fail(err, TL_E_SYS, errno, "%s", shown);
	if (ours && st.st_uid != geteuid())
		return tl_fail(err, TL_E_UNSAFE, 0, "%s: directory belongs to uid %u, not %u",
			       shown, (unsigned)st.st_uid, (unsigned)geteuid());
	if (ours && (st.st_mode & 022))
		return tl_fail(err, TL_E_UNSAFE, 0, "%s: directory is writable by others (mode %03o)",
			       shown, (unsigned)(st.st_mode & 0777));
	if (!ours && (st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
		return tl_fail(err, TL_E_UNSAFE, 0,
			       "%s: directory is world-writable without the sticky bit", shown);
	return TL_OK;
}

/* Opens (creating it 0700 if missing) directory NAME under DIRFD without
 * following a symbolic link. Returns the fd or a negative status. */
static int open_own_dir(int dirfd, const char *name, const char *shown, tl_error *err)
{
	struct stat st;
	int fd, rc;
	if (mkdirat(dirfd, name, 0700) != 0 && errno != EEXIST)
		return tl_fail(err, TL_E_SYS, errno, "%s: cannot create directory", shown);
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
			return tl_fail(err, TL_E_SYMLINK, 0,
				       "%s: is a symbolic link; refusing to follow it", shown);
		return tl_fail(err, TL_E_SYS, e, "%s", shown);
	}
	rc = check_dir(fd, shown, 1, err);
	if (rc != TL_OK) {
		close(fd);
		return rc;
	}
	return fd;
}

/* The length of directory DIR without its trailing slashes (0 for "/"), to
 * join it to a name without "//" ($TIMELINE_ROOT=/run/tl/ gives
 * /run/tl/<pid>, not /run/tl//<pid>). */
static int dir_len(const char *dir)
{
	size_t n = strlen(dir);
	while (n > 0 && dir[n - 1] == '/')
		n--;
	return (int)n;
}

/* Tries ROOT as the log root: ROOT and ROOT/<pid> are ours. */
static int try_root(const char *root, const char *name, char *buf, size_t size, tl_error *err)
{
	char pid[24], shown[PATH_MAX];
	int rootfd, pidfd, n;
	rootfd = open_own_dir(AT_FDCWD, root, root, err);
	if (rootfd < 0)
		return rootfd;
	snprintf(pid, sizeof pid, "%ld", (long)getpid());
	snprintf(shown, sizeof shown, "%.*s/%s", dir_len(root), root, pid);
	pidfd = open_own_dir(rootfd, pid, shown, err);
	close(rootfd);
	if (pidfd < 0)
		return pidfd;
	close(pidfd);
	n = snprintf(buf, size, "%s/%s.timeline", shown, name);
	if (n < 0 || (size_t)n >= size)
		return tl_fail(err, TL_E_INVAL, ENAMETOOLONG, "%s/%s.timeline", shown, name);
	return TL_OK;
}

/* A root we may fall back from: we may not write there, or it belongs to
 * someone else. A symbolic link is never passed over silently. */
static int permission_problem(const tl_error *err)
{
	return err->code == TL_E_UNSAFE ||
	       (err->code == TL_E_SYS &&
		(err->sys_errno == EACCES || err->sys_errno == EPERM || err->sys_errno == EROFS ||
		 err->sys_errno == ENOENT));
}

int tl_default_path(const char *log_name, char *buf, size_t size, tl_error *err)
{
	char root[PATH_MAX], name[96];
	const char *env = getenv("TIMELINE_ROOT");
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	tl_error e;
	int rc;

	/* the main thread's log is NAME, another thread's NAME-TID */
	if (gettid() == getpid())
		snprintf(name, sizeof name, "%s", log_name);
	else
		snprintf(name, sizeof name, "%s-%ld", log_name, (long)gettid());

	if (env && *env)
		return try_root(env, name, buf, size, err);
	rc = try_root("/var/run/timeline", name, buf, size, &e);
	if (rc == TL_OK || !permission_problem(&e))
		goto done;
	if (xdg && *xdg) {
		snprintf(root, sizeof root, "%.*s/timeline", dir_len(xdg), xdg);
		rc = try_root(root, name, buf, size, &e);
		if (rc == TL_OK || !permission_problem(&e))
			goto done;
	}
	snprintf(root, sizeof root, "/tmp/timeline-%u", (unsigned)geteuid());
	rc = try_root(root, name, buf, size, &e);
done:
	if (rc != TL_OK && err)
		*err = e;
	return rc;
}

int tl_check_not_ours(const char *path, tl_error *err)
{
	struct tl_header h;
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	ssize_t got;
	if (fd < 0)
		return TL_OK;   /* nothing there, or what tl_create_file() reports */
	got = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? pread(fd, &h, sizeof h, 0) : 0;
	close(fd);
	if (got != (ssize_t)sizeof h || h.magic != TL_MAGIC_0 || h.major != TL_MAJOR ||
	    h.minor < 1 || h.copy_of || h.pid != (uint32_t)getpid() ||
	    h.start_ticks != tl_start_ticks(h.pid, NULL))
		return TL_OK;   /* not a log, or one of a process gone that had our pid */
	return tl_fail(err, TL_E_EXISTS, 0,
		       "%s: this process has a log there already; pass another "
		       "tl_options.name, or a path, to open a second one",
		       path);
}

/* Splits PATH into its directory (opened, checked) and base name. */
static int open_parent(const char *path, const char **base, tl_error *err)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t n;
	int fd, rc;
	if (!slash) {
		*base = path;
		strcpy(dir, ".");
	} else {
		n = slash == path ? 1 : (size_t)(slash - path);
		if (n >= sizeof dir)
			return tl_fail(err, TL_E_INVAL, ENAMETOOLONG, "%s", path);
		memcpy(dir, path, n);
		dir[n] = '\0';
		*base = slash + 1;
	}
	if (!**base)
		return tl_fail(err, TL_E_INVAL, 0, "%s: path names a directory, not a file", path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return tl_fail(err, TL_E_SYS, errno, "%s", dir);
	rc = check_dir(fd, dir, 0, err);
	if (rc != TL_OK) {
		close(fd);
		return rc;
	}
	return fd;
}

/* Removes an old regular file of ours at BASE; refuses anything else. */
static int clear_old(int dirfd, const char *base, const char *path, tl_error *err)
{
	struct stat st;
	if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? TL_OK : tl_fail(err, TL_E_SYS, errno, "%s", path);
	if (S_ISLNK(st.st_mode))
		return tl_fail(err, TL_E_SYMLINK, 0, "%s: is a symbolic link; refusing to follow it",
			       path);
	if (!S_ISREG(st.st_mode))
		return tl_fail(err, TL_E_UNSAFE, 0, "%s: exists and is not a regular file", path);
	if (st.st_uid != geteuid())
		return tl_fail(err, TL_E_UNSAFE, 0, "%s: exists and belongs to uid %u", path,
			       (unsigned)st.st_uid);
	if (unlinkat(dirfd, base, 0) != 0)
		return tl_fail(err, TL_E_SYS, errno, "%s: cannot replace old log", path);
	return TL_OK;
}

int tl_allocate(int fd, uint64_t off, uint64_t bytes, const char *path, tl_error *err)
{
	struct rlimit rl;
	int e;
	if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    off + bytes > (uint64_t)rl.rlim_cur)
		return tl_fail(err, TL_E_FBIG, 0,
			       "%s: log needs %llu bytes but the file size limit is %llu", path,
			       (unsigned long long)(off + bytes), (unsigned long long)rl.rlim_cur);
	e = posix_fallocate(fd, (off_t)off, (off_t)bytes);
	if (e != 0)
		return tl_fail(err, TL_E_SYS, e, "%s: cannot allocate %llu bytes", path,
			       (unsigned long long)bytes);
	return TL_OK;
}

void tl_prefault(void *base, uint64_t bytes)
{
	long page = sysconf(_SC_PAGESIZE);
	/* the page tables in one call (Linux 5.14 on), rather than a fault a page */
	madvise(base, bytes, MADV_POPULATE_WRITE);
	/* then one store a page: under KVM the first touch of each page of a
	 * fresh mapping costs the guest about 5 us more, populated or not, and
	 * a logger's first lap over a ring paid it at every 64th entry (about
	 * 4x the later laps, bench/README.md, "The first lap") */
	for (uint64_t off = 0; off < bytes; off += (uint64_t)page)
		__atomic_store_n((volatile char *)base + off, 0, __ATOMIC_RELAXED);
}

int tl_create_file(const char *path, uint64_t bytes, tl_error *err)
{
	const char *base;
	int dirfd, fd, rc;

	dirfd = open_parent(path, &base, err);
	if (dirfd < 0)
		return dirfd;
	rc = clear_old(dirfd, base, path, err);
	if (rc != TL_OK)
		goto out;
	fd = openat(dirfd, base, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = tl_fail(err, errno == EEXIST ? TL_E_UNSAFE : TL_E_SYS, errno,
			     "%s: cannot create", path);
		goto out;
	}
	rc = tl_allocate(fd, 0, bytes, path, err);
	if (rc != TL_OK) {
		close(fd);
		unlinkat(dirfd, base, 0);
		goto out;
	}
	rc = fd;
out:
	close(dirfd);
	return rc;
}
