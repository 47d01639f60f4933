// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A shim for tests/t-scan-faults.sh (LD_PRELOAD): scans started together,
 * each of which checked the memory cgroup's room before another faulted
 * anything in.  The first madvise() (scan maps its memory after that
 * check, before faulting it in) makes $HOLD_DIR/ready.PID and waits, at
 * most 20 s, until $HOLD_DIR/go exists.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
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

int madvise(void *addr, size_t len, int advice)
{
	static atomic_int held;

	if (!atomic_exchange(&held, 1))
		hold();
	return syscall(SYS_madvise, addr, len, advice);
}
