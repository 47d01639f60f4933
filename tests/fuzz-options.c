// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fuzz-options.c - libFuzzer target for scan's command line: the input,
 * split at NUL bytes, is argv; parsing, the --kernel-like preset and the
 * checks across options must end in a clean result or a usage error,
 * never a crash, a hang or undefined behaviour.  Build: make fuzz.
 *
 * scan.c is included whole, with exit() turned into a jump back here so
 * that one input's usage error does not end the fuzzer.
 */
#define _GNU_SOURCE		/* as scan.c, whose includes come after ours */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jmp_buf fuzz_return;
static FILE *fuzz_null;		/* scan's output: help and errors would
				 * flood the log; the fuzzer's own stays */

static void fuzz_exit(int status)
{
	longjmp(fuzz_return, status + 1);
}

#define exit(status) fuzz_exit(status)
#define main scan_main
#undef stdout
#undef stderr
#define stdout fuzz_null
#define stderr fuzz_null
#define printf(...) fprintf(fuzz_null, __VA_ARGS__)
/* -h and -V close stdout (flush_results()); the sink must stay open */
#define fclose(f) ((f) == fuzz_null ? fflush(f) : fclose(f))
#include "../scan.c"
#undef fclose
#undef printf
#undef main
#undef exit

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS	32
#define MAX_ARG		256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf[MAX_ARGS][MAX_ARG];
	char *argv[MAX_ARGS + 2] = { "scan" };
	struct params p;
	int argc = 1;
	size_t i, len = 0;

	if (!fuzz_null && !(fuzz_null = fopen("/dev/null", "w")))
		abort();
	for (i = 0; i < size && argc <= MAX_ARGS; i++) {
		if (data[i] && len + 1 < MAX_ARG) {
			buf[argc - 1][len++] = data[i];
			continue;
		}
		buf[argc - 1][len] = 0;
		argv[argc] = buf[argc - 1];
		argc++;
		len = 0;
	}
	if (len && argc <= MAX_ARGS) {
		buf[argc - 1][len] = 0;
		argv[argc] = buf[argc - 1];
		argc++;
	}
	argv[argc] = NULL;
	if (setjmp(fuzz_return)) {
		/* a die() left its lock held: taken or not, it is ours */
		pthread_mutex_trylock(&dying);
		pthread_mutex_unlock(&dying);
		return 0;
	}
	parse_params(&p, argc, argv);
	return 0;
}
