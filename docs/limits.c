/*
 * limits.c - this machine's memory limits, measured apart from scan
 *
 * scan holds each walk against a limit it measures itself (-vv prints
 * "0.98x this core's dependent chase (112.40)"; the CSV's bound_ns).
 * This program measures the same three quantities over a buffer of the
 * same size and page size, with code of its own, so that a limit scan
 * gets wrong shows:
 *
 *   stream  one word of every 64-byte line, in address order
 *           (the physical walk's limit), ns per line;
 *   chase   a dependent chase around one random cycle through every
 *           line (ListLRU's: each address comes from the load before),
 *           ns per hop;
 *   random  the lines of that cycle read in its order from an array of
 *           their addresses, each load independent of the others so the
 *           CPU overlaps them (ArrayLRU's), ns per line.
 *
 * Every try starts from memory: the lines it reads are flushed first
 * (clflush on x86, dc civac on arm64), as scan's default --cache=cold.
 * A try that lost over 5% of its wall to other work (preempted: its
 * wall outran its CPU time) is timed again, up to 3 times, as scan
 * times its walks and its limits.  The chase takes --hops hops (2^19,
 * as scan's) from a place of its own in each try.  It prints the median
 * of the tries and their range.
 *
 *   cc -O2 docs/limits.c -o limits      (or: make limits)
 *   ./limits -c 10                      as scan -c 10: 10,000,000 lines
 *   ./limits 1G --thp=never             a size in bytes (K, M, G suffixes)
 *   ./limits -c 10 --frames F           also write the page frame of each
 *                                       2 MiB of the buffer to F, sorted
 *
 * --frames tells which physical memory a run was given (as root: the
 * kernel shows others frame 0), so that runs which read apart can be
 * told apart by their memory or not: `comm -12 F1 F2 | wc -l` counts
 * the 2 MiB pages two runs shared.
 *
 * Depends on libc only.  SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define LINE		64		/* bytes of a cache line, of a struct page */
#define HUGE		(2UL << 20)	/* the buffer is aligned to a 2 MiB page */
#define DEF_TRIES	5
#define USAGE	"usage: limits [-c N | BYTES] [--thp=always|never|system] [-r TRIES] [--hops N] [--frames FILE]"
#define DEF_HOPS	(1UL << 19)	/* a chase's hops, as scan's */
#define LOST_SHARE	0.05		/* a try that lost more of its wall... */
#define RETIMES		3		/* ...is timed again, this many times */

struct options {
	size_t bytes;		/* the buffer: lines * LINE */
	const char *thp;	/* always, never or system */
	int tries;
	unsigned long hops;	/* dependent hops timed per chase try */
	const char *frames;	/* where to write the buffer's frames, or NULL */
};

/* The buffer, as lines: each line's first word points to the next line
 * of the random cycle; order[] holds the same cycle as an array. */
struct buffer {
	char *base;
	size_t lines;
	char **order;
};

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "limits: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	exit(2);
}

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double seconds(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

/* A whole positive number, with an optional K/M/G suffix (powers of 2). */
static size_t parse_bytes(const char *s)
{
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		die("not a size", s);
	if (*end == 'K' || *end == 'M' || *end == 'G')
		n <<= *end == 'K' ? 10 : *end == 'M' ? 20 : 30, end++;
	if (*end || n < 64 * LINE)
		die("not a size of at least 4096 bytes", s);
	return n;
}

/* -c N as scan: N million 64-byte struct pages. */
static size_t parse_count(const char *s)
{
	char *end;
	double c;

	errno = 0;
	c = strtod(s, &end);
	if (errno || end == s || *end || !(c >= 0.001 && c <= 1e4))
		die("-c takes a number from 0.001 to 10000", s);
	return (size_t)(c * 1e6 + 0.5) * LINE;
}

/* A whole number from 1 to max. */
static unsigned long parse_whole(const char *s, unsigned long max)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || n < 1 || n > max)
		die("not a whole number in range", s);
	return n;
}

static void parse(struct options *o, int argc, char **argv)
{
	int i;

	o->bytes = 0;
	o->thp = "always";
	o->tries = DEF_TRIES;
	o->hops = DEF_HOPS;
	o->frames = NULL;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-c") && i + 1 < argc)
			o->bytes = parse_count(argv[++i]);
		else if (!strcmp(a, "-r") && i + 1 < argc)
			o->tries = (int)parse_whole(argv[++i], 100);
		else if (!strcmp(a, "--hops") && i + 1 < argc)
			o->hops = parse_whole(argv[++i], 1UL << 40);
		else if (!strcmp(a, "--frames") && i + 1 < argc)
			o->frames = argv[++i];
		else if (!strncmp(a, "--thp=", 6))
			o->thp = a + 6;
		else if (!strcmp(a, "-h")) {
			puts(USAGE);
			exit(0);
		}
		else if (*a != '-')
			o->bytes = parse_bytes(a);
		else
			die("unknown option", a);
	}
	if (strcmp(o->thp, "always") && strcmp(o->thp, "never") && strcmp(o->thp, "system"))
		die("--thp takes always, never or system", o->thp);
	if (!o->bytes)
		o->bytes = parse_count("1");
}

/* A 64-bit generator (xorshift*), seeded from the clock: each run draws
 * its own cycle, as scan draws its own LRU order. */
static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static void map_buffer(struct buffer *b, const struct options *o)
{
	size_t len = o->bytes / LINE * LINE;
	char *map = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (map == MAP_FAILED) {
		perror("limits: mmap");
		exit(1);
	}
	b->base = (char *)(((uintptr_t)map + HUGE - 1) & ~(HUGE - 1));
	b->lines = len / LINE;
#ifdef MADV_HUGEPAGE
	if (!strcmp(o->thp, "always"))
		madvise(b->base, len, MADV_HUGEPAGE);
	if (!strcmp(o->thp, "never"))
		madvise(b->base, len, MADV_NOHUGEPAGE);
#endif
	memset(b->base, 0, len);	/* fault every page in now */
	b->order = malloc(b->lines * sizeof(*b->order));
	if (!b->order) {
		perror("limits: malloc");
		exit(1);
	}
}

/* One random cycle through every line (Sattolo's shuffle of the line
 * numbers), written as links and as an array in cycle order. */
static void make_cycle(struct buffer *b)
{
	size_t i, j, n = b->lines;

	for (i = 0; i < n; i++)
		b->order[i] = b->base + i * LINE;
	for (i = n - 1; i > 0; i--) {
		char *t;

		j = rng() % i;		/* j < i: one cycle, not many */
		t = b->order[i];
		b->order[i] = b->order[j];
		b->order[j] = t;
	}
	for (i = 0; i < n; i++)
		*(char **)b->order[i] = b->order[(i + 1) % n];
}

static void flush_range(const void *addr, size_t len)
{
	const char *p = addr, *end = p + len;

	for (; p < end; p += LINE) {
#if defined(__x86_64__) || defined(__i386__)
		__asm__ volatile("clflush %0" : : "m"(*p));
#elif defined(__aarch64__)
		__asm__ volatile("dc civac, %0" : : "r"(p) : "memory");
#else
		(void)p;
#endif
	}
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("mfence" : : : "memory");
#elif defined(__aarch64__)
	__asm__ volatile("dsb ish" : : : "memory");
#endif
}

/* Everything a try may read: the lines and the array of their addresses. */
static void flush(const struct buffer *b)
{
	flush_range(b->base, b->lines * LINE);
	flush_range(b->order, b->lines * sizeof(*b->order));
}

/* What each loop sums is printed, so no loop can be left out. */
static uintptr_t sink;

static double stream(const struct buffer *b)
{
	uintptr_t sum = 0;
	size_t i;

	for (i = 0; i < b->lines; i++)
		sum += *(volatile uintptr_t *)(b->base + i * LINE);
	sink += sum;
	return b->lines;
}

static double chase(const struct buffer *b, size_t from, unsigned long hops)
{
	char *p = b->order[from];
	unsigned long i;

	for (i = 0; i < hops; i++)
		p = *(char **)p;
	sink += (uintptr_t)p;
	return hops;
}

static double random_loads(const struct buffer *b)
{
	char *const *order = b->order;
	uintptr_t sum = 0;
	size_t i;

	for (i = 0; i < b->lines; i++)
		sum += *(volatile uintptr_t *)(order[i] + 8);
	sink += sum;
	return b->lines;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One try of a kind from a flushed buffer: its wall, in seconds, and
 * its loads; *lost is the wall it spent off the CPU. */
static double try_once(const struct buffer *b, const struct options *o,
		       int kind, double *loads, double *lost)
{
	unsigned long n = o->hops < b->lines ? o->hops : b->lines;
	size_t from = rng() % (b->lines - n + 1);
	double t, cpu;

	flush(b);
	cpu = clock_s(CLOCK_THREAD_CPUTIME_ID);
	t = seconds();
	if (kind == 0)
		*loads = stream(b);
	else if (kind == 1)
		*loads = chase(b, from, n);
	else
		*loads = random_loads(b);
	t = seconds() - t;
	*lost = t - (clock_s(CLOCK_THREAD_CPUTIME_ID) - cpu);
	return t;
}

/* Time one kind tries times from a flushed buffer; ns per load. */
static void measure(const char *name, const struct buffer *b,
		    const struct options *o, int kind)
{
	double ns[100], t, loads = 0, lost;
	int i, r, retimed = 0;

	for (i = 0; i < o->tries; i++) {
		for (r = 0; r <= RETIMES; r++) {
			t = try_once(b, o, kind, &loads, &lost);
			if (lost <= LOST_SHARE * t)
				break;
			retimed++;
		}
		ns[i] = t * 1e9 / loads;
	}
	qsort(ns, o->tries, sizeof(ns[0]), cmp);
	printf("%-7s %10.3f ns/%s  (%.3f to %.3f, %d tries, %.0f loads, %d retimed)\n", name,
	       o->tries % 2 ? ns[o->tries / 2] : (ns[o->tries / 2 - 1] + ns[o->tries / 2]) / 2,
	       kind == 1 ? "hop " : "line", ns[0], ns[o->tries - 1], o->tries, loads, retimed);
}

/* The share of the buffer in huge pages, from /proc/self/smaps. */
static double huge_share(const struct buffer *b)
{
	char line[256];
	unsigned long start, end, kb, huge = 0;
	int mine = 0;
	FILE *f = fopen("/proc/self/smaps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2)
			mine = start <= (uintptr_t)b->base && (uintptr_t)b->base < end;
		else if (mine && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
			huge += kb;
	}
	if (f)
		fclose(f);
	return huge * 1024.0 / (b->lines * LINE);
}

static int cmp_frame(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The page frame of the first 4 KiB of each 2 MiB of the buffer, from
 * /proc/self/pagemap (bits 0-54 of an entry whose bit 63 says present),
 * sorted, one a line, into o->frames. */
static void write_frames(const struct buffer *b, const struct options *o)
{
	size_t n = (b->lines * LINE + HUGE - 1) / HUGE, i;
	uint64_t *frame = malloc(n * sizeof(*frame)), entry;
	long page = sysconf(_SC_PAGESIZE);
	int fd = open("/proc/self/pagemap", O_RDONLY);
	FILE *out;

	if (!frame || fd < 0)
		die("cannot read /proc/self/pagemap", strerror(errno));
	for (i = 0; i < n; i++) {
		off_t at = (off_t)((uintptr_t)(b->base + i * HUGE) / page * sizeof(entry));

		if (pread(fd, &entry, sizeof(entry), at) != sizeof(entry))
			die("cannot read /proc/self/pagemap", strerror(errno));
		frame[i] = entry >> 63 ? entry & ((1ULL << 55) - 1) : 0;
	}
	close(fd);
	qsort(frame, n, sizeof(*frame), cmp_frame);
	out = fopen(o->frames, "w");
	if (!out)
		die(o->frames, strerror(errno));
	for (i = 0; i < n; i++)
		fprintf(out, "%llu\n", (unsigned long long)frame[i]);
	if (fclose(out))
		die(o->frames, strerror(errno));
	free(frame);
}

int main(int argc, char **argv)
{
	struct options o;
	struct buffer b;

	parse(&o, argc, argv);
	rng_state = ((uint64_t)(seconds() * 1e9) ^ (uint64_t)getpid() << 40) | 1;
	map_buffer(&b, &o);
	make_cycle(&b);
	if (o.frames)
		write_frames(&b, &o);
	printf("limits: %zu lines (%.1f MiB), --thp=%s, %.0f%% in huge pages\n",
	       b.lines, b.lines * (double)LINE / (1 << 20), o.thp, 100 * huge_share(&b));
	measure("stream", &b, &o, 0);
	measure("chase", &b, &o, 1);
	measure("random", &b, &o, 2);
	return sink == 42;	/* never: the sums must be used */
}
