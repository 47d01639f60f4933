// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A shim for tests/t-scan-faults.sh (LD_PRELOAD): scans started together,
 * each of which checked the memory cgroup's room before another faulted
 * anything in.  The first madvise() that asks for a page size or to
 * populate (scan's, as it maps its memory after that check or faults it
 * in; not the C library's DONTNEED in free()) makes $HOLD_DIR/ready.PID
 * and waits, at most 20 s, until $HOLD_DIR/go exists.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int madvise(void *addr, size_t len, int advice);

static void hold(void)
{
	struct timespec ms = { 0, 1000000 };
	const char *dir = getenv("HOLD_DIR");
	char path[512];
	FILE *f;
	int i;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/ready.%ld", dir, (long)getpid());
	if ((f = fopen(path, "w")))
		fclose(f);
	snprintf(path, sizeof(path), "%s/go", dir);
	for (i = 0; i < 20000 && access(path, F_OK); i++)
		nanosleep(&ms, NULL);
}

/* Is this scan's advice: a page size, or populating a range? */
static int scans(int advice)
{
	return advice == MADV_HUGEPAGE || advice == MADV_NOHUGEPAGE
#ifdef MADV_POPULATE_WRITE
	       || advice == MADV_POPULATE_WRITE
#endif
	       ;
}

int madvise(void *addr, size_t len, int advice)
{
	static atomic_int held;

	if (scans(advice) && !atomic_exchange(&held, 1))
		hold();
	return syscall(SYS_madvise, addr, len, advice);
}
