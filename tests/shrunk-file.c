// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A shim for tests/t-scan-faults.sh (LD_PRELOAD): a --memmap-from file
 * that shrank after scan sized it, read by every setup thread at once.
 * Each pread() of more than 8 bytes finds the file's end (replay reads a
 * chunk of pfns at a time; sizing a file reads 8), so every thread
 * fails; exit() takes a fifth of a second, so a second thread that
 * fails meanwhile is seen, as it was when a file was truncated under a
 * replay on a loaded machine.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

ssize_t pread(int fd, void *buf, size_t n, off_t off);
ssize_t pread64(int fd, void *buf, size_t n, off_t off);

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	return n <= 8 ? syscall(SYS_pread64, fd, buf, n, off) : 0;
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	return pread(fd, buf, n, off);
}

void exit(int status)
{
	struct timespec fifth = { 0, 200000000 };

	nanosleep(&fifth, NULL);
	fflush(NULL);
	_exit(status);
}
