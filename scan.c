// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * scan - time physical versus LRU-order walks over a simulated memmap
 *
 * The kernel keeps one 64-byte struct page per 4 KiB page frame in the
 * memmap, and threads the pages that reclaim may evict onto LRU lists.
 * Reclaim can find candidates two ways: follow the LRU list (a chain of
 * dependent loads in effectively random physical order), or walk the
 * memmap by pfn (a sequential stream the prefetchers love).  This program
 * builds a memmap in user space, threads a random circular LRU through it
 * and times three walks that each read every page's age:
 *
 *	Physical  pages[0..n) in pfn order            (bandwidth-bound)
 *	ListLRU   follow lru.next around the list     (latency-bound)
 *	ArrayLRU  an array of page pointers in LRU order (parallel misses)
 *
 * It is the successor of scan.c 1.1 (Matthew Wilcox, 2023) and keeps its
 * command line and output lines; what it adds is documented in README.md.
 *
 * usage: scan [-c MILLIONS | -m SIZE] [-s SEED] [-r ROUNDS] [-v...] [options]
 * build: cc -O2 scan.c -o scan
 */

#define _GNU_SOURCE		/* sched_setaffinity, MAP_ANONYMOUS */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#ifdef __linux__
#include <sched.h>
#endif

#define SCAN_VERSION "2.0"

/*
 * Defaults, each with its reason
 */

/* -c counts millions of pages, as the original did: -c 10 is 10M pages. */
#define PAGES_PER_COUNT	1000000.0
/* The original's default: 1M pages, a 64 MB memmap simulating 3.8 GiB. */
#define DEF_NR_PAGES	1000000UL
/* -m counts simulated memory in base pages: 4 KiB on x86-64. */
#define SIM_PAGE_SIZE	4096.0
/* The memmap is mapped with PMD-sized pages when --thp=always asks. */
#define HUGE_PAGE_SIZE	(2UL << 20)
/* The kernel maps its memmap with 2 MiB pages (vmemmap PMDs on x86-64),
 * so the simulated one asks for them too; --thp=system is the original's
 * chance, whatever the system policy gives. */
#define DEF_THP		THP_ALWAYS
/* Below this many bytes setup runs on one thread: starting more costs
 * more than it saves. */
#define SETUP_PARALLEL_MIN	(64UL << 20)
#define MAX_THREADS	64
/* Threads fault a large memmap in, in chunks of this many bytes. */
#define FAULT_CHUNK	(32UL << 20)
/* Prefetch distance for setup's random accesses: enough misses in flight
 * to cover memory latency without overrunning the miss buffers. */
#define PREFETCH_DIST	16
/* A round repeats each walk until it has taken about this share of the
 * slowest walk's time: short walks are noisy and cheap to repeat. */
#define REP_SHARE	0.15
#define MAX_REPS	32
/* Auto rounds: enough to fill this many seconds of walking, at least
 * MIN_ROUNDS (a median needs more than one), at most MAX_ROUNDS. */
#define ROUND_BUDGET_S	1.0
#define MIN_ROUNDS	2
#define MAX_ROUNDS	64
#define MAX_SAMPLES	(MAX_ROUNDS * MAX_REPS)
#define MAX_BUILDS	100000
/* A ratio whose rounds spread wider than this (interquartile range over
 * the median) is flagged: a careful reader would not sign it. */
#define SPREAD_WARN	0.10
/* A walk shorter than this many clock ticks is mostly clock. */
#define MIN_TICKS	1000.0
/* The memmap should dwarf the last-level cache, or the walks time caches. */
#define LLC_FACTOR	4.0

/*
 * Data model
 *
 *   pages[] (the memmap, in pfn order)         lru[] (LRU order, by age)
 *   +---------+---------+---------+---------+   +------+------+------+
 *   | pfn 0   | pfn 1   | pfn 2   | pfn 3   |   | age0 | age1 | age2 | ...
 *   | age 2   | age 0   | age 3   | age 1   |   +--|---+--|---+--|---+
 *   +---------+---------+---------+---------+      |      |      |
 *        ^  next/prev links form one cycle in age   \-> pfn 1, pfn 3, pfn 0
 *        order: 1 -> 3 -> 0 -> 2 -> 1 (the ListLRU walk follows them)
 *
 * With the model's knobs, not every pfn is an LRU entry: a large folio
 * is a head page followed by tail pages, and pages off the LRU (slab,
 * page tables, free buddy blocks) sit between folios:
 *
 *   | head o2 | tail | tail | tail | free o1 | (free) | page | head o0 |
 *     PG_LRU                         PG_BUDDY           -      PG_LRU
 */

/*
 * Mirrors the 64-byte, cache-line-sized struct page of x86-64.  Every
 * field a walk touches is in the first word or three, as in the kernel:
 * flags, the lru links, and the word holding the refcount.
 */
struct page {
	unsigned long flags;	/* PG_* bits below, and an order */
	struct page *next;	/* lru.next: the next folio in LRU order */
	struct page *prev;	/* lru.prev: the previous folio */
	unsigned int age;	/* position in LRU order, 0 at the head */
	int refcount;		/* taken by --access=isolate */
	unsigned long mapping;	/* the rest of the 64 bytes: unused */
	unsigned long index;	/* setup's scratch while ordering runs */
	unsigned long private;
	unsigned long memcg_data;
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct page) == 64, "struct page must be 64 bytes");

/* Page flags: what a physical walk visits, skips, or may jump over. */
#define PG_LRU		(1UL << 0)	/* a folio head on the LRU */
#define PG_HEAD		(1UL << 1)	/* first page of a large folio */
#define PG_TAIL		(1UL << 2)	/* any other page of a large folio */
#define PG_BUDDY	(1UL << 3)	/* first page of a free buddy block */
#define PG_REFERENCED	(1UL << 4)	/* set or cleared by --access */
#define PG_ORDER_SHIFT	8		/* order of a folio or buddy block */
#define PG_ORDER(flags)	((int)((flags) >> PG_ORDER_SHIFT) & 0xf)
/* Largest folio or buddy block: order 10 (4 MiB) is MAX_PAGE_ORDER. */
#define MAX_ORDER	10
/* A pageblock, the unit the kernel groups allocations by: 2 MiB. */
#define PAGEBLOCK_ORDER	9

/* One slot of the LRU array: a pfn (or a run) during setup, then a
 * pointer.  64 bits even where pointers are 32, for packed runs. */
union lru_slot {
	uint64_t pfn;
	struct page *page;
};

enum thp_mode { THP_SYSTEM, THP_ALWAYS, THP_NEVER };
static const char *const thp_names[] = { "system", "always", "never", NULL };

enum cache_mode { CACHE_COLD, CACHE_WARM };
static const char *const cache_names[] = { "cold", "warm", NULL };

/* Where pages off the LRU sit (--non-lru). */
enum non_lru { NON_LRU_SPREAD, NON_LRU_PAGEBLOCK, NON_LRU_BUDDY };
static const char *const non_lru_names[] = { "spread", "pageblock", "buddy",
					     NULL };

/* How the physical walk passes a large folio (--phys). */
enum phys_mode { PHYS_EVERY, PHYS_JUMP };
static const char *const phys_names[] = { "every", "jump", NULL };

/* What every walk does to each folio it visits (--access). */
enum access { ACCESS_READ, ACCESS_WRITE, ACCESS_ATOMIC, ACCESS_ISOLATE };
static const char *const access_names[] = { "read", "write", "atomic",
					    "isolate", NULL };

/* What the command line asked for. */
struct params {
	unsigned long nr_pages;	/* pfns in the memmap */
	const char *size_opt;	/* "-c" or "-m", whichever set nr_pages */
	const char *size_arg;	/* its value, for messages */
	unsigned long seed;	/* seeds the layout and the LRU order */
	int verbose;		/* -v count */
	int rounds;		/* -r; 0 picks by cost */
	int builds;		/* models built and timed in turn */
	enum thp_mode thp;	/* how the memmap is backed */
	enum cache_mode cache;	/* cache state each timed walk starts from */
	int cpu;		/* --cpu; -1 leaves placement to the kernel */
	double lru_fraction;	/* share of pages in LRU folios */
	enum non_lru non_lru;	/* where the other pages sit */
	double folio_share[MAX_ORDER + 1]; /* share of LRU pages per order */
	const char *folio_opt;	/* the option that set folio_share */
	enum phys_mode phys;	/* how the physical walk passes folios */
	double locality;	/* mean run of pfn-consecutive folios */
	enum access access;	/* per-folio work of every walk */
};

/* An anonymous mapping with PROT_NONE guards, so it stays one VMA. */
struct region {
	void *addr;		/* usable start, HUGE_PAGE_SIZE aligned */
	size_t len;		/* usable bytes */
	void *map;		/* the whole reservation, guards included */
	size_t map_len;
};

/* The simulated memmap and its LRU: everything a walk may read. */
struct lru_model {
	struct page *pages;	/* the memmap, indexed by pfn */
	union lru_slot *lru;	/* LRU order: lru[age].page */
	unsigned long nr_pages;	/* pfns in the memmap */
	unsigned long nr_lru;	/* folios on the LRU */
	unsigned long lru_pages; /* pages in those folios */
	struct page *head;	/* the LRU's first folio (age 0) */
	enum phys_mode phys;	/* copied from the parameters the walks */
	enum access access;	/* need, so a walk reads only the model */
	struct region memmap;	/* backing of pages[] */
	struct region array;	/* backing of lru[] */
};

/* What a walk proves it did: the ages it summed and the folios it counted. */
struct walk_result {
	unsigned long sum;
	unsigned long visits;
};

/* Every timing of one walk in a run. */
struct walk_stats {
	double sample[MAX_SAMPLES];	/* seconds, in the order taken */
	int nr_samples;
	double round_time[MAX_ROUNDS];	/* median of each round's samples */
	double ratio[MAX_ROUNDS];	/* round_time over the baseline's */
	int reps;			/* timed walks per round */
};

/*
 * Helpers
 */

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#ifdef __GNUC__
#define NOINLINE	__attribute__((noinline))
#define ALWAYS_INLINE	inline __attribute__((always_inline))
#define PRINTF(f, a)	__attribute__((format(printf, f, a)))
/* Hide a pointer from the optimiser, so a walk stays one scalar load per
 * page: no vector loads, no gathers, nothing the kernel's loop wouldn't do. */
#define OPAQUE(x)	__asm__("" : "+r"(x))
#define PREFETCH_W(p)	__builtin_prefetch((p), 1)
#else
#define NOINLINE
#define ALWAYS_INLINE	inline
#define PRINTF(f, a)
#define OPAQUE(x)	((void)0)
#define PREFETCH_W(p)	((void)0)
#endif

static PRINTF(1, 2) void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("scan: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* A usage error: one line on stderr, nothing on stdout, exit 2. */
static PRINTF(1, 2) void die_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("scan: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (scan -h for help)\n", stderr);
	exit(2);
}

static PRINTF(1, 2) void warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("scan: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Bytes as a short human figure in binary units: "610.4 MiB". */
static const char *human(double bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB",
					    "PiB", "EiB" };
	size_t u = 0;

	while (bytes >= 1024 && u + 1 < ARRAY_SIZE(unit)) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
	return buf;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of n sorted values, interpolating between neighbours. */
static double quantile(const double *sorted, int n, double q)
{
	double pos = q * (n - 1);
	int i = (int)pos;

	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (pos - i) * (sorted[i + 1] - sorted[i]);
}

/* Order statistics of n > 0 values; the values keep their order. */
struct summary {
	double median, min, max;
	double q1, q3;		/* quartiles */
};

static struct summary summarize(const double *v, int n)
{
	double sorted[MAX_SAMPLES];
	struct summary s;

	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	s.median = quantile(sorted, n, 0.5);
	s.min = sorted[0];
	s.max = sorted[n - 1];
	s.q1 = quantile(sorted, n, 0.25);
	s.q3 = quantile(sorted, n, 0.75);
	return s;
}

/*
 * Threads: setup shares large, memory-bound work among the CPUs.
 */

struct job {
	void (*fn)(void *arg, int i, int nr);
	void *arg;
	int i, nr;
};

static void *job_main(void *p)
{
	struct job *job = p;

	job->fn(job->arg, job->i, job->nr);
	return NULL;
}

/* Run fn(arg, i, nr) for i = 0..nr-1 at once; the caller runs i = 0.  A
 * thread that cannot start has its part run by the caller instead. */
static void run_parallel(void (*fn)(void *arg, int i, int nr), void *arg,
			 int nr)
{
	pthread_t tid[MAX_THREADS];
	struct job job[MAX_THREADS];
	int started[MAX_THREADS] = { 0 };
	int i;

	for (i = 0; i < nr; i++) {
		job[i] = (struct job){ .fn = fn, .arg = arg, .i = i, .nr = nr };
		if (i)
			started[i] = !pthread_create(&tid[i], NULL, job_main, &job[i]);
	}
	for (i = 0; i < nr; i++)
		if (!started[i])
			fn(arg, i, nr);
	for (i = 1; i < nr; i++)
		if (started[i])
			pthread_join(tid[i], NULL);
}

/* Threads for setup work on len bytes: one below SETUP_PARALLEL_MIN. */
static int setup_threads(size_t len)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (len < SETUP_PARALLEL_MIN || cpus < 2)
		return 1;
	return cpus > MAX_THREADS ? MAX_THREADS : (int)cpus;
}

/*
 * Small seeded PRNG: xoshiro256** seeded through splitmix64, with
 * Lemire's unbiased multiply-shift for bounded integers (no division on
 * the fast path, no modulo bias at any n).
 */

struct rng {
	uint64_t s[4];
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void rng_seed(struct rng *rng, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(struct rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* Uniform in [0, bound), bound > 0. */
static uint64_t rng_below(struct rng *rng, uint64_t bound)
{
#ifdef __SIZEOF_INT128__
	unsigned __int128 m = (unsigned __int128)rng_next(rng) * bound;
	uint64_t low = (uint64_t)m;

	if (low < bound) {
		uint64_t threshold = -bound % bound;

		while (low < threshold) {
			m = (unsigned __int128)rng_next(rng) * bound;
			low = (uint64_t)m;
		}
	}
	return m >> 64;
#else
	uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
	uint64_t x;

	do
		x = rng_next(rng);
	while (x >= limit);
	return x % bound;
#endif
}

/*
 * Strict number parsing: no sign, no trailing junk, no overflow, no NaN
 * or infinity, no silent rounding.  One parse_* per kind of argument.
 */

/*
 * A plain decimal like "10", "0.01" or "2e6"; *end points past it.  The
 * grammar is checked here rather than left to strtod(), which would also
 * take signs, spaces, hex, "inf" and "nan".
 */
static double parse_decimal(const char *opt, const char *s, const char **end)
{
	static const char digits[] = "0123456789";
	const char *p = s;
	size_t whole = strspn(p, digits), frac = 0;
	char buf[64];
	double v;

	p += whole;
	if (*p == '.') {
		frac = strspn(p + 1, digits);
		p += 1 + frac;
	}
	if (!whole && !frac)
		die_usage("%s '%s': not a positive number", opt, s);
	if (*p == 'e' || *p == 'E') {
		/* an exponent only if digits follow: "1E" is one exbibyte */
		const char *q = p + 1 + (p[1] == '+' || p[1] == '-');
		size_t exp = strspn(q, digits);

		if (exp)
			p = q + exp;
	}
	if ((size_t)(p - s) >= sizeof(buf))
		die_usage("%s '%s': too many digits", opt, s);
	memcpy(buf, s, p - s);
	buf[p - s] = 0;
	errno = 0;
	v = strtod(buf, NULL);
	if (errno == ERANGE)
		die_usage("%s '%s': out of range", opt, s);
	*end = p;
	return v;
}

/* A count of pages must be a whole number from 1 up to what we address. */
static unsigned long whole_pages(const char *opt, const char *s, double pages,
				 const char *unit)
{
	/* Two arrays of nr_pages entries must fit in size_t. */
	double limit = (double)(SIZE_MAX / (sizeof(struct page) + 8));
	double rounded, off;

	if (pages <= 0)
		die_usage("%s '%s': must be more than 0", opt, s);
	if (pages > limit)
		die_usage("%s '%s': %.3g pages is more than this system can address", opt, s, pages);
	rounded = (double)(unsigned long)(pages + 0.5);
	off = pages > rounded ? pages - rounded : rounded - pages;
	if (off > 1e-6 * pages || rounded < 1)
		die_usage("%s '%s': %.10g pages%s, not a whole number", opt, s, pages, unit);
	return (unsigned long)rounded;
}

/* -c: millions of pages, decimals allowed (-c 0.01 is 10,000 pages). */
static unsigned long parse_count(const char *opt, const char *s)
{
	const char *end;
	double v = parse_decimal(opt, s, &end);

	if (*end)
		die_usage("%s '%s': trailing '%s' after the number", opt, s, end);
	return whole_pages(opt, s, v * PAGES_PER_COUNT, "");
}

/* -m: simulated memory in bytes with a binary suffix (K M G T P E). */
static unsigned long parse_size(const char *opt, const char *s)
{
	static const char suffixes[] = "KMGTPE";
	const char *end;
	double v = parse_decimal(opt, s, &end);
	double bytes = v;
	const char *u;

	if (*end) {
		u = strchr(suffixes, *end >= 'a' ? *end - 'a' + 'A' : *end);
		if (!u || end[1])
			die_usage("%s '%s': unknown size suffix '%s' (use K, M, G, T, P or E)", opt, s, end);
		for (; u >= suffixes; u--)
			bytes *= 1024;
	}
	return whole_pages(opt, s, bytes / SIM_PAGE_SIZE, " of 4 KiB");
}

/* A decimal (or 0x hex) integer in [min, max]. */
static unsigned long parse_ulong(const char *opt, const char *s,
				 unsigned long min, unsigned long max)
{
	int base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
	const char *digits = base == 16 ? s + 2 : s;
	unsigned long long v;
	char *end;

	if (!*digits || !strchr("0123456789abcdefABCDEF", *digits) ||
	    (base == 10 && !strchr("0123456789", *digits)))
		die_usage("%s '%s': not a whole number", opt, s);
	errno = 0;
	v = strtoull(digits, &end, base);
	if (*end)
		die_usage("%s '%s': not a whole number", opt, s);
	if (errno == ERANGE || v > max || v < min)
		die_usage("%s '%s': must be from %lu to %lu", opt, s, min, max);
	return v;
}

/* One of a NULL-terminated list of names; returns its index. */
static int parse_choice(const char *opt, const char *s,
			const char *const *names)
{
	char list[128] = "";
	int i;

	for (i = 0; names[i]; i++) {
		if (!strcmp(s, names[i]))
			return i;
		strcat(list, i ? "|" : "");
		strcat(list, names[i]);
	}
	die_usage("%s '%s': must be one of %s", opt, s, list);
	return -1;
}

/* A plain decimal with nothing after it, in [min, max]. */
static double parse_real(const char *opt, const char *s, double min,
			 double max)
{
	const char *end;
	double v = parse_decimal(opt, s, &end);

	if (*end)
		die_usage("%s '%s': trailing '%s' after the number", opt, s, end);
	if (v < min || v > max)
		die_usage("%s '%s': must be from %g to %g", opt, s, min, max);
	return v;
}

/* ORDER:PERCENT,... : the share of LRU pages in folios of each order. */
static void parse_folios(const char *opt, const char *s, double *share)
{
	char buf[256], *item, *save, *colon;
	double total = 0;
	int k;

	if (strlen(s) >= sizeof(buf))
		die_usage("%s '%.20s...': too long", opt, s);
	strcpy(buf, s);
	memset(share, 0, (MAX_ORDER + 1) * sizeof(*share));
	for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		colon = strchr(item, ':');
		if (!colon)
			die_usage("%s '%s': '%s' is not ORDER:PERCENT", opt, s, item);
		*colon = 0;
		k = parse_ulong(opt, item, 0, MAX_ORDER);
		if (share[k] > 0)
			die_usage("%s '%s': order %d given twice", opt, s, k);
		share[k] = parse_real(opt, colon + 1, 0, 100) / 100;
		if (share[k] <= 0)
			die_usage("%s '%s': order %d needs a share above 0", opt, s, k);
		total += share[k];
	}
	if (total < 1 - 1e-9 || total > 1 + 1e-9)
		die_usage("%s '%s': the percentages add up to %g, not 100", opt, s, 100 * total);
	for (k = 0; k <= MAX_ORDER; k++)
		share[k] /= total;
}

/*
 * Memory: mappings, huge pages, fitting in RAM
 */

/* Bytes of RAM the kernel says it can give us; 0 if it cannot say. */
static double mem_available(void)
{
	double kb = 0;
#ifdef __linux__
	char line[256];
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	if (kb > 0)
		return kb * 1024;
#endif
#ifdef _SC_AVPHYS_PAGES
	return (double)sysconf(_SC_AVPHYS_PAGES) * sysconf(_SC_PAGESIZE);
#else
	return 0;
#endif
}

/* Refuse, before allocating anything, a size this machine cannot hold. */
static void check_fits(const struct params *p)
{
	double memmap = (double)p->nr_pages * sizeof(struct page);
	double array = (double)p->nr_pages * sizeof(union lru_slot);
	double avail = mem_available();
	char need_s[32], memmap_s[32], array_s[32], avail_s[32];

	if (avail > 0 && memmap + array > avail)
		die("%s %s needs %s (memmap %s + LRU array %s), only %s available",
		    p->size_opt, p->size_arg, human(memmap + array, need_s, 32),
		    human(memmap, memmap_s, 32), human(array, array_s, 32),
		    human(avail, avail_s, 32));
}

static uintptr_t round_up(uintptr_t x, uintptr_t to)
{
	return (x + to - 1) / to * to;
}

/*
 * Map len bytes aligned to a huge page, between two PROT_NONE guards so
 * the kernel cannot merge it with a neighbour (smaps then describes it
 * alone), and ask for the page size --thp chose.  Pages are not touched.
 */
static void map_region(struct region *r, size_t len, enum thp_mode thp)
{
	uintptr_t page = sysconf(_SC_PAGESIZE);
	uintptr_t start, end, map_end;

	len = round_up(len ? len : 1, page);
	r->map_len = len + 2 * HUGE_PAGE_SIZE;
	r->map = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r->map == MAP_FAILED)
		die("cannot map %zu bytes: %s", r->map_len, strerror(errno));
	start = round_up((uintptr_t)r->map + page, HUGE_PAGE_SIZE);
	end = start + len;
	map_end = (uintptr_t)r->map + r->map_len;
	mprotect(r->map, start - (uintptr_t)r->map, PROT_NONE);
	mprotect((void *)end, map_end - end, PROT_NONE);
	r->addr = (void *)start;
	r->len = len;
#ifdef MADV_HUGEPAGE
	if (thp == THP_ALWAYS && madvise(r->addr, len, MADV_HUGEPAGE))
		warn("madvise(MADV_HUGEPAGE): %s", strerror(errno));
	if (thp == THP_NEVER && madvise(r->addr, len, MADV_NOHUGEPAGE))
		warn("madvise(MADV_NOHUGEPAGE): %s", strerror(errno));
#else
	if (thp != THP_SYSTEM)
		warn("--thp=%s: this system has no madvise(MADV_HUGEPAGE)", thp_names[thp]);
#endif
}

static void unmap_region(struct region *r)
{
	if (r->map)
		munmap(r->map, r->map_len);
	memset(r, 0, sizeof(*r));
}

/*
 * Fault bytes [start, end) of a region in.  The kernel can populate a
 * range in one call (Linux 5.14), which saves a trap per 4 KiB page;
 * elsewhere, touch one byte per page.
 */
static void fault_in(struct region *r, size_t start, size_t end)
{
	size_t page = sysconf(_SC_PAGESIZE);
	volatile char *p = r->addr;

	if (end > r->len)
		end = r->len;
	if (start >= end)
		return;
#ifdef MADV_POPULATE_WRITE
	if (!madvise((char *)r->addr + start, end - start, MADV_POPULATE_WRITE))
		return;
#endif
	for (; start < end; start += page)
		p[start] = 0;
}

/*
 * Share of the region backed by huge pages, read back from the kernel's
 * smaps; -1 when the system cannot tell.
 */
static double huge_share(const struct region *r)
{
	double share = -1;
#ifdef __linux__
	char line[512];
	unsigned long start, end, kb;
	int mine = 0;
	FILE *f = fopen("/proc/self/smaps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2 && strchr(line, '-') < strchr(line, ' '))
			mine = start == (uintptr_t)r->addr;
		else if (mine && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
			share = kb * 1024.0 / r->len;
	}
	if (f)
		fclose(f);
#else
	(void)r;
#endif
	return share;
}

/*
 * Building the model
 *
 * A build lays the memmap out (which pfns are LRU folios of which order,
 * tail pages, free buddy blocks or other pages), puts the LRU folios in
 * a random order, and links them.  The first build also faults the
 * memory in, which on a large memmap costs more than all the rest (page
 * zeroing and, in a VM, the host's own faults).
 *
 *   fault + lay out     chunks of the memmap, on every CPU
 *   gather              LRU heads in pfn order into the LRU array
 *   order               shuffle folios (or runs of them) in place
 *   point, link         pfn -> pointer, then ages and links, on every CPU
 *
 * Nothing is allocated beyond the memmap and the LRU array.
 */

/* The seed of build b: the user's for the first, derived for the rest. */
static uint64_t build_seed(unsigned long seed, int b)
{
	uint64_t x = seed + (uint64_t)b * 0x2545f4914f6cdd1dULL;

	return b ? splitmix64(&x) : seed;
}

/* A kind of naturally aligned block the layout places. */
enum kind_what { KIND_FOLIO, KIND_OTHER, KIND_BUDDY };

struct kind {
	enum kind_what what;	/* an LRU folio, other pages, a free block */
	int order;		/* the block is 2^order pages */
	double share;		/* expected share of all pages */
};

/*
 * The layout splits the memmap like the buddy allocator does: a block of
 * order k becomes one of the kinds of that order, or splits into two
 * halves of order k-1.  Choosing a kind of order k with probability
 * share / (share of every kind of order <= k) gives each kind its share
 * of pages in expectation, with every block naturally aligned.
 */
struct layout {
	struct kind kind[2 * (MAX_ORDER + 1)];
	int nr_kinds;
	int top;			/* largest order of any kind */
	double upto[MAX_ORDER + 1];	/* share of the kinds of order <= k */
};

static void add_kind(struct layout *lay, enum kind_what what, int order,
		     double share)
{
	struct kind *k = &lay->kind[lay->nr_kinds++];
	int o;

	k->what = what;
	k->order = order;
	k->share = share;
	if (order > lay->top)
		lay->top = order;
	for (o = order; o <= MAX_ORDER; o++)
		lay->upto[o] += share;
}

static void plan_layout(struct layout *lay, const struct params *p)
{
	double other = 1 - p->lru_fraction;
	int k;

	memset(lay, 0, sizeof(*lay));
	for (k = 0; k <= MAX_ORDER; k++)
		if (p->folio_share[k] > 0)
			add_kind(lay, KIND_FOLIO, k, p->lru_fraction * p->folio_share[k]);
	if (other <= 0)
		return;
	switch (p->non_lru) {
	case NON_LRU_SPREAD:
		add_kind(lay, KIND_OTHER, 0, other);
		break;
	case NON_LRU_PAGEBLOCK:
		add_kind(lay, KIND_OTHER, PAGEBLOCK_ORDER, other);
		break;
	case NON_LRU_BUDDY:	/* free pages spread evenly over the orders */
		for (k = 0; k <= MAX_ORDER; k++)
			add_kind(lay, KIND_BUDDY, k, other / (MAX_ORDER + 1));
		break;
	}
}

/* Where a chunk's layout puts LRU heads, and what it has put. */
struct cursor {
	union lru_slot *slot;	/* the next free slot */
	unsigned long heads;	/* LRU folios laid out */
	unsigned long pages;	/* pages in them */
};

/* One build's shared state. */
struct build {
	struct lru_model *m;
	const struct layout *lay;
	uint64_t seed;
	int fault;			/* fault the memory in first */
	atomic_size_t next_chunk;	/* the next chunk to fault or lay out */
	struct cursor *chunk;		/* what each chunk laid out */
};

/* Pfns per chunk: a chunk of memmap is FAULT_CHUNK bytes. */
#define CHUNK_PFNS	(FAULT_CHUNK / sizeof(struct page))

/* Write a block of kind k at pfn; an LRU head goes to the cursor. */
static void put_block(struct lru_model *m, const struct kind *k,
		      unsigned long pfn, struct cursor *cur)
{
	unsigned long i, nr = 1UL << k->order;
	unsigned long order = (unsigned long)k->order << PG_ORDER_SHIFT;

	for (i = 1; i < nr; i++)
		m->pages[pfn + i].flags = k->what == KIND_FOLIO ? PG_TAIL : 0;
	switch (k->what) {
	case KIND_FOLIO:
		m->pages[pfn].flags = PG_LRU | (nr > 1 ? PG_HEAD : 0) | order;
		cur->slot++->pfn = pfn;
		cur->heads++;
		cur->pages += nr;
		break;
	case KIND_OTHER:
		m->pages[pfn].flags = 0;
		break;
	case KIND_BUDDY:
		m->pages[pfn].flags = PG_BUDDY | order;
		break;
	}
}

/* Uniform in [0, 1). */
static double rng_unit(struct rng *rng)
{
	return (rng_next(rng) >> 11) * 0x1.0p-53;
}

/* Lay out the order-k block at pfn, splitting it as the layout says. */
static void place(struct lru_model *m, const struct layout *lay,
		  struct rng *rng, unsigned long pfn, int k, struct cursor *cur)
{
	static const struct kind other_page = { KIND_OTHER, 0, 0 };
	double x;
	int i;

	if (pfn >= m->nr_pages)
		return;
	if (pfn + (1UL << k) <= m->nr_pages && lay->upto[k] > 0) {
		x = lay->nr_kinds == 1 ? 0 : rng_unit(rng) * lay->upto[k];
		for (i = 0; i < lay->nr_kinds; i++) {
			if (lay->kind[i].order != k)
				continue;
			if (x < lay->kind[i].share) {
				put_block(m, &lay->kind[i], pfn, cur);
				return;
			}
			x -= lay->kind[i].share;
		}
	}
	if (k == 0) {		/* a page no kind fits, at the memmap's end */
		put_block(m, &other_page, pfn, cur);
		return;
	}
	place(m, lay, rng, pfn, k - 1, cur);
	place(m, lay, rng, pfn + (1UL << (k - 1)), k - 1, cur);
}

/*
 * Fault chunks in (on the first build) and lay them out, each with a
 * random stream of its own so the layout does not depend on which
 * thread took which chunk.  A chunk's LRU heads go, in pfn order, to the
 * LRU array from its first pfn's slot on; gather_heads() closes the gaps.
 */
static void layout_part(void *arg, int i, int nr)
{
	struct build *b = arg;
	struct lru_model *m = b->m;
	size_t c, nr_chunks = (m->nr_pages + CHUNK_PFNS - 1) / CHUNK_PFNS;
	unsigned long pfn, end, unit = 1UL << b->lay->top;
	struct cursor *cur;
	struct rng rng;

	(void)i;
	(void)nr;
	while ((c = atomic_fetch_add(&b->next_chunk, 1)) < nr_chunks) {
		pfn = c * CHUNK_PFNS;
		end = pfn + CHUNK_PFNS < m->nr_pages ? pfn + CHUNK_PFNS : m->nr_pages;
		if (b->fault) {
			fault_in(&m->array, pfn * sizeof(union lru_slot), end * sizeof(union lru_slot));
			fault_in(&m->memmap, pfn * sizeof(struct page), end * sizeof(struct page));
		}
		rng_seed(&rng, b->seed ^ (0x9e3779b97f4a7c15ULL * (c + 1)));
		cur = &b->chunk[c];
		cur->slot = &m->lru[pfn];
		for (; pfn < end; pfn += unit)
			place(m, b->lay, &rng, pfn, b->lay->top, cur);
	}
}

/* Move each chunk's heads down so the LRU array lists them all. */
static void gather_heads(struct build *b)
{
	struct lru_model *m = b->m;
	size_t c, nr_chunks = (m->nr_pages + CHUNK_PFNS - 1) / CHUNK_PFNS;

	m->nr_lru = 0;
	m->lru_pages = 0;
	for (c = 0; c < nr_chunks; c++) {
		memmove(&m->lru[m->nr_lru], &m->lru[c * CHUNK_PFNS],
			b->chunk[c].heads * sizeof(*m->lru));
		m->nr_lru += b->chunk[c].heads;
		m->lru_pages += b->chunk[c].pages;
	}
}

/*
 * Fisher-Yates from the top.  The partner of slot i is drawn
 * PREFETCH_DIST steps early and its line prefetched, so the random
 * accesses overlap instead of stalling one after another; the draws keep
 * the plain algorithm's order, so the result depends only on the seed.
 */
static void shuffle(union lru_slot *slot, unsigned long n, struct rng *rng)
{
	unsigned long ahead[PREFETCH_DIST];
	unsigned long i, k, j;
	uint64_t tmp;

	if (n < 2)
		return;
	for (k = n - 1; k > 0 && n - 1 - k < PREFETCH_DIST; k--) {
		ahead[k % PREFETCH_DIST] = rng_below(rng, k + 1);
		PREFETCH_W(&slot[ahead[k % PREFETCH_DIST]]);
	}
	for (i = n - 1; i > 0; i--) {
		j = ahead[i % PREFETCH_DIST];
		if (i > PREFETCH_DIST) {
			k = i - PREFETCH_DIST;
			ahead[k % PREFETCH_DIST] = rng_below(rng, k + 1);
			PREFETCH_W(&slot[ahead[k % PREFETCH_DIST]]);
		}
		tmp = slot[i].pfn;
		slot[i].pfn = slot[j].pfn;
		slot[j].pfn = tmp;
	}
}

/* A run packed in one slot: its first folio's index and its length. */
#define RUN_LEN_SHIFT	40
#define MAX_RUN		((1UL << 23) - 1)

/* A run length with mean L: geometric, each folio ending the run with
 * probability 1/L (drawn folio by folio, so no logarithms). */
static unsigned long run_length(struct rng *rng, double locality,
				unsigned long left)
{
	uint64_t stop = (uint64_t)(0x1.0p64 / locality);
	unsigned long len = 1;

	while (len < left && len < MAX_RUN && rng_next(rng) >= stop)
		len++;
	return len;
}

/*
 * LRU order with locality: cut the folios (in pfn order) into runs of
 * mean length L, shuffle the runs, and lay them end to end.  The pfns
 * wait in the memmap's unused index field while the LRU array holds the
 * runs; run r is expanded to the array's positions past all runs before
 * it, which never overwrites a run still to be read.
 */
static void order_runs(struct lru_model *m, struct rng *rng, double locality)
{
	unsigned long n = m->nr_lru, k, r, nr_runs = 0, pos, start, len;

	for (k = 0; k < n; k++)
		m->pages[k].index = m->lru[k].pfn;
	for (k = 0; k < n; k += len) {
		len = run_length(rng, locality, n - k);
		m->lru[nr_runs++].pfn = k | (uint64_t)(len - 1) << RUN_LEN_SHIFT;
	}
	shuffle(m->lru, nr_runs, rng);
	pos = n;
	for (r = nr_runs; r-- > 0;) {
		start = m->lru[r].pfn & ((1ULL << RUN_LEN_SHIFT) - 1);
		len = (m->lru[r].pfn >> RUN_LEN_SHIFT) + 1;
		pos -= len;
		for (k = 0; k < len; k++)
			m->lru[pos + k].pfn = m->pages[start + k].index;
	}
}

/* Part i of nr of [0, n): the range a thread takes of a split loop. */
static void split(unsigned long n, int i, int nr, unsigned long *start,
		  unsigned long *end)
{
	*start = (uint64_t)n * i / nr;
	*end = (uint64_t)n * (i + 1) / nr;
}

/* Turn the pfns in LRU positions [start, end) into page pointers. */
static void point_part(void *arg, int i, int nr)
{
	struct lru_model *m = arg;
	unsigned long k, start, end;

	split(m->nr_lru, i, nr, &start, &end);
	for (k = start; k < end; k++)
		m->lru[k].page = &m->pages[m->lru[k].pfn];
}

/*
 * Give each folio in LRU positions [start, end) its age, links and
 * flags.  Folios are visited in random order, so the one PREFETCH_DIST
 * positions ahead is prefetched for writing.  Threads write disjoint
 * folios, and a folio's prev is the only field written by the thread of
 * its predecessor.  This also restores the LRU after --access=isolate.
 */
static void link_part(void *arg, int i, int nr)
{
	struct lru_model *m = arg;
	union lru_slot *lru = m->lru;
	unsigned long n = m->nr_lru, k, start, end;
	struct page *folio, *next;

	split(n, i, nr, &start, &end);
	for (k = start; k < end; k++) {
		if (k + PREFETCH_DIST < end)
			PREFETCH_W(lru[k + PREFETCH_DIST].page);
		folio = lru[k].page;
		next = lru[k + 1 < n ? k + 1 : 0].page;
		folio->flags |= PG_LRU | PG_REFERENCED;
		folio->age = k;
		folio->refcount = 0;
		folio->next = next;
		next->prev = folio;
	}
}

static void link_lru(struct lru_model *m)
{
	run_parallel(link_part, m, setup_threads(m->memmap.len));
	m->head = m->nr_lru ? m->lru[0].page : NULL;
}

/* Build the model of seed; fault the memory in first if asked. */
static void build_model(struct lru_model *m, const struct params *p,
			uint64_t seed, int fault)
{
	size_t nr_chunks = (m->nr_pages + CHUNK_PFNS - 1) / CHUNK_PFNS;
	int nr = setup_threads(m->memmap.len);
	struct layout lay;
	struct build b = { .m = m, .lay = &lay, .seed = seed, .fault = fault };
	struct rng rng;

	plan_layout(&lay, p);
	b.chunk = calloc(nr_chunks, sizeof(*b.chunk));
	if (!b.chunk)
		die("out of memory");
	atomic_init(&b.next_chunk, 0);
	run_parallel(layout_part, &b, nr);
	gather_heads(&b);
	free(b.chunk);
	if (!m->nr_lru)
		die("the layout put no folio on the LRU: raise --lru-fraction or the size");
	rng_seed(&rng, seed);
	if (p->locality > 1)
		order_runs(m, &rng, p->locality);
	else
		shuffle(m->lru, m->nr_lru, &rng);
	run_parallel(point_part, m, nr);
	link_lru(m);
}

static void map_model(struct lru_model *m, const struct params *p)
{
	memset(m, 0, sizeof(*m));
	m->nr_pages = p->nr_pages;
	m->phys = p->phys;
	m->access = p->access;
	map_region(&m->memmap, m->nr_pages * sizeof(struct page), p->thp);
	map_region(&m->array, m->nr_pages * sizeof(union lru_slot), p->thp);
	m->pages = m->memmap.addr;
	m->lru = m->array.addr;
}

static void free_model(struct lru_model *m)
{
	unmap_region(&m->memmap);
	unmap_region(&m->array);
}

/* The pfn of the first LRU folio after the folio at pfn, or nr_pages. */
static unsigned long next_lru_pfn(const struct lru_model *m, unsigned long pfn)
{
	pfn += 1UL << PG_ORDER(m->pages[pfn].flags);
	while (pfn < m->nr_pages && !(m->pages[pfn].flags & PG_LRU))
		pfn++;
	return pfn;
}

/* What check_lru() found. */
struct lru_check {
	int ok;			/* every link, age and flag as it must be */
	uint64_t fingerprint;	/* of the head pfns from head to tail */
	double mean_run;	/* folios per run of pfn-adjacent folios */
};

/*
 * Walk the LRU once, checking every link (next and prev agree, ages
 * count up, every folio flagged as on the LRU), hashing the order, and
 * counting where LRU order steps to the next LRU folio in pfn order.
 */
static struct lru_check check_lru(const struct lru_model *m)
{
	struct lru_check c = { 1, 0xcbf29ce484222325ULL, 0 }; /* FNV-1a basis */
	const struct page *folio = m->head;
	unsigned long k, pfn, runs = 1;

	for (k = 0; k < m->nr_lru; k++) {
		pfn = folio - m->pages;
		if (folio->age != k || folio->next->prev != folio ||
		    !(folio->flags & PG_LRU) ||
		    (k + 1 < m->nr_lru) != (folio->next != m->head)) {
			c.ok = 0;
			return c;
		}
		c.fingerprint = (c.fingerprint ^ pfn) * 0x100000001b3ULL;
		if (k + 1 < m->nr_lru &&
		    folio->next != &m->pages[next_lru_pfn(m, pfn)])
			runs++;
		folio = folio->next;
	}
	c.mean_run = (double)m->nr_lru / runs;
	return c;
}

/*
 * Walks
 *
 * A walk only walks: it reads what the kernel's loop would read, does
 * the per-folio work --access asks for, sums the ages and counts the
 * folios, and returns both for the self-check.  No allocation, timing or
 * printing.
 */

static void list_init(struct page *head)
{
	head->next = head;
	head->prev = head;
}

/*
 * What reclaim's isolation does to a folio (isolate_lru_folios()): an
 * atomic get on the refcount, an atomic test-and-clear of PG_lru, and a
 * list_move to a private list, which writes both LRU neighbours.  The
 * LRU is relinked, untimed, after the walk.
 */
static inline void isolate(struct page *folio, struct page *dst)
{
	struct page *prev = folio->prev, *next = folio->next;

#ifdef __GNUC__
	__atomic_fetch_add(&folio->refcount, 1, __ATOMIC_SEQ_CST);
	__atomic_fetch_and(&folio->flags, ~PG_LRU, __ATOMIC_SEQ_CST);
#else
	folio->refcount++;
	folio->flags &= ~PG_LRU;
#endif
	prev->next = next;
	next->prev = prev;
	folio->next = dst->next;
	folio->prev = dst;
	dst->next->prev = folio;
	dst->next = folio;
}

/* Every walk's visit to a folio: count it, then do the --access work. */
static inline void visit(struct page *folio, enum access access,
			 struct walk_result *r, struct page *isolated)
{
	r->sum += folio->age;
	r->visits++;
	switch (access) {
	case ACCESS_READ:
		break;
	case ACCESS_WRITE:		/* a plain store, as folio_mark_accessed() */
		folio->flags |= PG_REFERENCED;
		break;
	case ACCESS_ATOMIC:		/* lock-prefixed, as test_and_clear_bit() */
#ifdef __GNUC__
		__atomic_fetch_and(&folio->flags, ~PG_REFERENCED, __ATOMIC_SEQ_CST);
#else
		folio->flags &= ~PG_REFERENCED;
#endif
		break;
	case ACCESS_ISOLATE:
		isolate(folio, isolated);
		break;
	}
}

/*
 * Every pfn in order, as a pfn scanner must: read the flags, visit LRU
 * folios, skip a free buddy block after reading its head (compaction
 * does), and pass a large folio either page by page (its tails are not
 * on the LRU) or, with --phys=jump, in one jump by its order, which makes
 * the next address depend on this load.
 */
static ALWAYS_INLINE struct walk_result physical(const struct lru_model *m,
						 int jump)
{
	struct walk_result r = { 0, 0 };
	enum access access = m->access;
	unsigned long pfn, flags;
	struct page isolated;

	list_init(&isolated);
	for (pfn = 0; pfn < m->nr_pages; pfn++) {
		struct page *page = &m->pages[pfn];

		OPAQUE(page);
		flags = page->flags;
		if (flags & PG_LRU) {
			visit(page, access, &r, &isolated);
			if (jump)
				pfn += (1UL << PG_ORDER(flags)) - 1;
		} else if (flags & PG_BUDDY) {
			pfn += (1UL << PG_ORDER(flags)) - 1;
		}
	}
	return r;
}

/* Two loops, so reading every page keeps pfn++ free of the loaded flags
 * (a jump in the same loop invites the compiler to make every step wait
 * for the load). */
static NOINLINE struct walk_result walk_physical(const struct lru_model *m)
{
	return m->phys == PHYS_JUMP ? physical(m, 1) : physical(m, 0);
}

/* Follow lru.next from the head, reading next before the visit, as
 * list_for_each_entry_safe() does, so isolation may unlink the folio. */
static NOINLINE struct walk_result walk_list(const struct lru_model *m)
{
	struct walk_result r = { 0, 0 };
	enum access access = m->access;
	struct page *folio = m->head, *next, isolated;
	unsigned long k;

	list_init(&isolated);
	for (k = 0; k < m->nr_lru; k++) {
		next = folio->next;
		visit(folio, access, &r, &isolated);
		folio = next;
	}
	return r;
}

/* Folio pointers in LRU order: independent loads, many misses in flight. */
static NOINLINE struct walk_result walk_array(const struct lru_model *m)
{
	struct walk_result r = { 0, 0 };
	enum access access = m->access;
	struct page isolated;
	unsigned long k;

	list_init(&isolated);
	for (k = 0; k < m->nr_lru; k++) {
		struct page *folio = m->lru[k].page;

		OPAQUE(folio);
		visit(folio, access, &r, &isolated);
	}
	return r;
}

/*
 * The walk table.  The first entry is the baseline every ratio divides
 * by.  To add a walk, write its function above and add one line here:
 * usage, timing, the self-check and the output lines all read the table.
 * label names the walk in the ratio lines ("faster than %s"), time_label
 * in the time lines ("%s scan in"), as the original printed them.
 */
struct walk {
	const char *name;	/* short name for options and scripts */
	const char *label;	/* in "Physical scan is %f faster than %s" */
	const char *time_label;	/* in "%s scan in %fs" */
	struct walk_result (*fn)(const struct lru_model *m);
	const char *help;	/* one line for usage */
};

static const struct walk walks[] = {
	{ "physical", "Physical", "Physical", walk_physical,
	  "every struct page in pfn order" },
	{ "list", "ListLRU", "ListLRU", walk_list,
	  "follow lru.next around the list" },
	{ "array", "ArrayLRU", "Array", walk_array,
	  "page pointers in LRU order" },
};

#define NR_WALKS	((int)ARRAY_SIZE(walks))

/*
 * Timing, statistics, self-check
 */

/* The smallest step CLOCK_MONOTONIC shows: clock_getres() may flatter. */
static double clock_tick(void)
{
	double best = 1, t0, t1;
	int i;

	for (i = 0; i < 100; i++) {
		t0 = now();
		while ((t1 = now()) == t0)
			;
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	return best;
}

/*
 * Evict the memmap and the LRU array from every cache level, so each
 * timed walk starts from memory, as reclaim does on a large machine.
 * Flushing by address needs no buffer of its own; where no flush
 * instruction exists, reading a buffer twice the LLC is the fallback.
 */
static void flush_range(const void *addr, size_t len)
{
#if defined(__x86_64__) || defined(__i386__)
	const char *p = addr, *end = p + len;

	for (; p < end; p += 64)
		__asm__ volatile("clflush %0" : : "m"(*p));
	__asm__ volatile("mfence" : : : "memory");
#elif defined(__aarch64__)
	const char *p = addr, *end = p + len;

	for (; p < end; p += 64)
		__asm__ volatile("dc civac, %0" : : "r"(p) : "memory");
	__asm__ volatile("dsb ish" : : : "memory");
#else
	static volatile unsigned long *buf;
	static size_t words = (256UL << 20) / sizeof(long);
	unsigned long sum = 0;
	size_t i;

	(void)addr;
	(void)len;
	if (!buf)
		buf = calloc(words, sizeof(long));
	if (!buf)
		die("cannot allocate the cache eviction buffer");
	for (i = 0; i < words; i += 8)
		sum += buf[i];
	buf[0] = sum;
#endif
}

static void evict(const struct lru_model *m, enum cache_mode cache)
{
	if (cache != CACHE_COLD)
		return;
	flush_range(m->memmap.addr, m->memmap.len);
	flush_range(m->array.addr, m->array.len);
}

/* What every walk must return: the ages 0..n-1 summed, n folios counted.
 * Computed so it wraps exactly as the walks' unsigned long sums do. */
static struct walk_result expected_result(const struct lru_model *m)
{
	unsigned long n = m->nr_lru;
	struct walk_result r;

	r.sum = n % 2 ? n * ((n - 1) / 2) : (n / 2) * (n - 1);
	r.visits = n;
	return r;
}

static void check_result(const struct lru_model *m, int w,
			 struct walk_result got)
{
	struct walk_result want = expected_result(m);

	if (got.sum != want.sum || got.visits != want.visits)
		die("self-check failed: %s summed %lu over %lu pages, expected %lu over %lu",
		    walks[w].label, got.sum, got.visits, want.sum, want.visits);
}

/* Time walk w once from the chosen cache state and check its result;
 * relink the LRU (untimed) if the walk isolated its folios. */
static double time_walk(struct lru_model *m, int w, enum cache_mode cache,
			struct walk_result *res)
{
	double t0, t;

	evict(m, cache);
	t0 = now();
	*res = walks[w].fn(m);
	t = now() - t0;
	check_result(m, w, *res);
	if (m->access == ACCESS_ISOLATE)
		link_lru(m);
	return t;
}

/*
 * One round: every walk in turn, starting with walk (round % NR_WALKS)
 * so that no walk always follows the same one; each walk repeated
 * stats[w].reps times.  A round's ratio compares walks timed seconds
 * apart, so the machine's slow drift cancels out of it.
 */
static void run_round(struct lru_model *m, const struct params *p,
		      struct walk_stats *stats, int round,
		      struct walk_result *last)
{
	int i, w, rep;

	for (i = 0; i < NR_WALKS; i++) {
		struct walk_stats *s;
		int first;

		w = (round + i) % NR_WALKS;
		s = &stats[w];
		first = s->nr_samples;
		for (rep = 0; rep < s->reps; rep++)
			s->sample[s->nr_samples++] = time_walk(m, w, p->cache, &last[w]);
		s->round_time[round] = summarize(&s->sample[first], s->reps).median;
	}
	for (w = 0; w < NR_WALKS; w++)
		stats[w].ratio[round] = stats[w].round_time[round] /
					stats[0].round_time[round];
}

/*
 * Choose repetitions and rounds from the first round's costs: repeat
 * the cheap walks (a 20 ms physical walk is noisy and cheap) until each
 * takes about REP_SHARE of the slowest, and run as many rounds as fit
 * ROUND_BUDGET_S, within [MIN_ROUNDS, MAX_ROUNDS].
 */
static int plan_rounds(struct walk_stats *stats, int builds)
{
	double slowest = 0, round = 0;
	int w, rounds;

	for (w = 0; w < NR_WALKS; w++)
		if (stats[w].round_time[0] > slowest)
			slowest = stats[w].round_time[0];
	for (w = 0; w < NR_WALKS; w++) {
		double t = stats[w].round_time[0];
		double reps = t > 0 ? REP_SHARE * slowest / t : MAX_REPS;

		stats[w].reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : (int)reps;
		round += stats[w].reps * t;
	}
	rounds = round > 0 ? (int)(ROUND_BUDGET_S / round / builds) : MAX_ROUNDS;
	if (rounds < MIN_ROUNDS)
		rounds = MIN_ROUNDS;
	if (rounds * builds > MAX_ROUNDS)
		rounds = MAX_ROUNDS / builds;
	return rounds < 1 ? 1 : rounds;
}

/*
 * Reporting
 */

static void print_walk_line(const struct walk_stats *s, int w, int verbose,
			    struct walk_result last)
{
	printf("%s scan in %fs\n", walks[w].time_label,
	       summarize(s->sample, s->nr_samples).median);
	if (verbose >= 3)
		printf("total = %lu\n", last.sum);
}

static void print_plan(const struct params *p, const struct walk_stats *stats,
		       int nr_rounds)
{
	int w;

	printf("%d round%s over %d model%s, cache %s before each walk, timed walks per round:",
	       nr_rounds, nr_rounds > 1 ? "s" : "", p->builds, p->builds > 1 ? "s" : "",
	       p->cache == CACHE_COLD ? "flushed" : "left warm");
	for (w = 0; w < NR_WALKS; w++)
		printf(" %s %d", walks[w].time_label, stats[w].reps);
	printf("\n");
}

static void print_spread(const struct lru_model *m,
			 const struct walk_stats *stats, int nr_rounds)
{
	struct summary t, r;
	int w;

	for (w = 0; w < NR_WALKS; w++) {
		t = summarize(stats[w].sample, stats[w].nr_samples);
		printf("%s: %d timed walks, median %.6fs, min %.6fs, max %.6fs, %.2f ns/page, %.2f ns/folio\n",
		       walks[w].time_label, stats[w].nr_samples, t.median,
		       t.min, t.max, t.median * 1e9 / m->nr_pages,
		       t.median * 1e9 / m->nr_lru);
	}
	for (w = 1; w < NR_WALKS; w++) {
		r = summarize(stats[w].ratio, nr_rounds);
		printf("%s/%s ratio: median %.3f, range %.3f to %.3f over %d round%s\n",
		       walks[w].label, walks[0].label, r.median, r.min, r.max,
		       nr_rounds, nr_rounds > 1 ? "s" : "");
	}
}

static void print_ratios(const struct walk_stats *stats, int nr_rounds)
{
	int w;

	for (w = 1; w < NR_WALKS; w++)
		printf("Physical scan is %f faster than %s\n",
		       summarize(stats[w].ratio, nr_rounds).median,
		       walks[w].label);
}

/* Last-level cache size in bytes, as the system reports it; 0 if unknown. */
static double llc_size(void)
{
#ifdef _SC_LEVEL3_CACHE_SIZE
	long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);

	if (l3 > 0)
		return l3;
#endif
#ifdef _SC_LEVEL2_CACHE_SIZE
	if (sysconf(_SC_LEVEL2_CACHE_SIZE) > 0)
		return sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
	return 0;
}

/* Say on stderr, with the remedy, when a printed figure cannot be trusted. */
static void warn_untrusted(const struct lru_model *m,
			   const struct walk_stats *stats, int nr_rounds)
{
	double tick = clock_tick(), llc = llc_size(), bytes = m->memmap.len;
	struct summary t, r;
	char b1[32], b2[32];
	int w;

	for (w = 0; w < NR_WALKS; w++) {
		t = summarize(stats[w].sample, stats[w].nr_samples);
		if (t.median < MIN_TICKS * tick)
			warn("%s walk takes %.3g s, under %.0f clock ticks of %.3g s: its time is mostly clock; use a larger -c",
			     walks[w].label, t.median, MIN_TICKS, tick);
	}
	if (llc > 0 && bytes < LLC_FACTOR * llc)
		warn("memmap (%s) is not %.0fx the last-level cache (%s): the ratios measure caches, not memory; use a larger -c",
		     human(bytes, b1, 32), LLC_FACTOR, human(llc, b2, 32));
	for (w = 1; w < NR_WALKS && nr_rounds > 1; w++) {
		r = summarize(stats[w].ratio, nr_rounds);
		if (r.q3 - r.q1 > SPREAD_WARN * r.median)
			warn("%s ratio spreads %.0f%% between rounds (quartiles %.3f and %.3f): the machine is noisy; rerun with more rounds (-r) or on a quieter machine",
			     walks[w].label, 100 * (r.q3 - r.q1) / r.median, r.q1, r.q3);
	}
}

static void print_memmap(const struct lru_model *m, const struct params *p)
{
	double share = huge_share(&m->memmap);
	char b1[32], b2[32], hp[32] = "unknown";

	if (share >= 0)
		snprintf(hp, sizeof(hp), "%.0f%%", 100 * share);
	printf("memmap %s for %lu pages (%s simulated), %s in huge pages (--thp=%s)\n",
	       human(m->memmap.len, b1, 32), m->nr_pages,
	       human(m->nr_pages * SIM_PAGE_SIZE, b2, 32), hp, thp_names[p->thp]);
	if (p->thp == THP_ALWAYS && share >= 0 && share < 0.5 &&
	    m->memmap.len >= 4 * HUGE_PAGE_SIZE)
		warn("--thp=always, but only %.0f%% of the memmap is in huge pages: see /sys/kernel/mm/transparent_hugepage/enabled", 100 * share);
}

/* The folio mix as ORDER:PERCENT,... */
static const char *folio_mix(const struct params *p, char *buf, size_t len)
{
	size_t used = 0;
	int k;

	buf[0] = 0;
	for (k = 0; k <= MAX_ORDER && used < len; k++)
		if (p->folio_share[k] > 0)
			used += snprintf(buf + used, len - used, "%s%d:%g",
					 used ? "," : "", k, 100 * p->folio_share[k]);
	return buf;
}

static void print_model(const struct lru_model *m, const struct params *p)
{
	char mix[128];

	printf("model: %lu LRU folios of %lu pages (%.1f%% of pfns), other pages %s, folios %s, locality %g, access %s, physical walk reads %s\n",
	       m->nr_lru, m->lru_pages, 100.0 * m->lru_pages / m->nr_pages,
	       non_lru_names[p->non_lru], folio_mix(p, mix, sizeof(mix)),
	       p->locality, access_names[p->access],
	       p->phys == PHYS_JUMP ? "heads and jumps" : "every page");
}

/*
 * Below what LRU share does the physical walk stop winning?  Its cost
 * follows the pfns it covers, an LRU walk's the folios on the LRU, so at
 * share s an LRU walk would take (s / this share) of its time.
 */
static void print_break_even(const struct lru_model *m,
			     const struct walk_stats *stats, int nr_rounds)
{
	double share = (double)m->lru_pages / m->nr_pages, even;
	int w;

	for (w = 1; w < NR_WALKS; w++) {
		even = share / summarize(stats[w].ratio, nr_rounds).median;
		if (even < 1)
			printf("break-even against %s: the physical walk wins while more than %.3g%% of pages are on the LRU\n",
			       walks[w].label, 100 * even);
		else
			printf("break-even against %s: the physical walk loses even with every page on the LRU\n",
			       walks[w].label);
	}
	printf("(assuming the physical walk costs the same per pfn, and each LRU walk the same per folio, at any LRU share)\n");
}

/*
 * Options, usage, main
 */

/* -c and -m: the last of them wins, but not both. */
static void set_count(struct params *p, const char *opt, const char *arg)
{
	const char *name = opt[1] == 'c' ? "-c" : "-m";

	if (p->size_opt && strcmp(p->size_opt, name))
		die_usage("%s '%s': -c and -m both give the size; use one", opt, arg);
	p->nr_pages = opt[1] == 'c' ? parse_count(opt, arg) : parse_size(opt, arg);
	p->size_opt = name;
	p->size_arg = arg;
}

static void set_seed(struct params *p, const char *opt, const char *arg)
{
	p->seed = parse_ulong(opt, arg, 0, ULONG_MAX);
}

static void set_verbose(struct params *p, const char *opt, const char *arg)
{
	(void)opt;
	(void)arg;
	p->verbose++;
}

static void set_rounds(struct params *p, const char *opt, const char *arg)
{
	p->rounds = parse_ulong(opt, arg, 1, MAX_ROUNDS);
}

static void set_builds(struct params *p, const char *opt, const char *arg)
{
	p->builds = parse_ulong(opt, arg, 1, MAX_BUILDS);
}

static void set_thp(struct params *p, const char *opt, const char *arg)
{
	p->thp = parse_choice(opt, arg, thp_names);
}

static void set_cache(struct params *p, const char *opt, const char *arg)
{
	p->cache = parse_choice(opt, arg, cache_names);
}

static void set_cpu(struct params *p, const char *opt, const char *arg)
{
	p->cpu = parse_ulong(opt, arg, 0, 65535);
}

static void set_lru_fraction(struct params *p, const char *opt, const char *arg)
{
	p->lru_fraction = parse_real(opt, arg, 0, 1);
	if (p->lru_fraction <= 0)
		die_usage("%s '%s': must be more than 0", opt, arg);
}

static void set_non_lru(struct params *p, const char *opt, const char *arg)
{
	p->non_lru = parse_choice(opt, arg, non_lru_names);
}

/* --folio-order=K and --folios=MIX both set the mix, so not both. */
static void set_folios(struct params *p, const char *opt, const char *arg)
{
	if (p->folio_opt && strcmp(p->folio_opt, opt))
		die_usage("%s '%s': --folio-order and --folios both give the folio sizes; use one", opt, arg);
	p->folio_opt = !strcmp(opt, "--folios") ? "--folios" : "--folio-order";
	if (!strcmp(opt, "--folios")) {
		parse_folios(opt, arg, p->folio_share);
		return;
	}
	memset(p->folio_share, 0, sizeof(p->folio_share));
	p->folio_share[parse_ulong(opt, arg, 0, MAX_ORDER)] = 1;
}

static void set_phys(struct params *p, const char *opt, const char *arg)
{
	p->phys = parse_choice(opt, arg, phys_names);
}

static void set_locality(struct params *p, const char *opt, const char *arg)
{
	p->locality = parse_real(opt, arg, 1, MAX_RUN);
}

static void set_access(struct params *p, const char *opt, const char *arg)
{
	p->access = parse_choice(opt, arg, access_names);
}

static void show_help(struct params *p, const char *opt, const char *arg);

static void show_version(struct params *p, const char *opt, const char *arg)
{
	(void)p;
	(void)opt;
	(void)arg;
	printf("scan %s\n", SCAN_VERSION);
	exit(0);
}

/* The option table: the parser and the usage text both read it. */
struct option_spec {
	char short_name;	/* 0 for a long option only */
	const char *long_name;	/* NULL for a short option only */
	const char *metavar;	/* NULL if it takes no value */
	void (*set)(struct params *p, const char *opt, const char *arg);
	const char *help;
};

static const struct option_spec options[] = {
	{ 'c', NULL, "N", set_count,
	  "N million pages (decimals allowed; default 1)" },
	{ 'm', NULL, "SIZE", set_count,
	  "memory to simulate in 4 KiB pages (64M, 40G)" },
	{ 's', NULL, "SEED", set_seed,
	  "seed of the LRU order (default: the clock)" },
	{ 'r', NULL, "N", set_rounds,
	  "time each walk N times (default: by cost)" },
	{ 'v', NULL, NULL, set_verbose,
	  "more detail: -v, -vv, -vvv" },
	{ 0, "thp", "always|never|system", set_thp,
	  "2 MiB memmap pages (default), 4 KiB, or any" },
	{ 0, "cache", "cold|warm", set_cache,
	  "flush caches before each walk (default) or not" },
	{ 0, "cpu", "N", set_cpu,
	  "run on CPU N only" },
	{ 0, "builds", "N", set_builds,
	  "build and time N models in turn (default 1)" },
	{ 0, "lru-fraction", "F", set_lru_fraction,
	  "share of pages on the LRU, 0 < F <= 1 (default 1)" },
	{ 0, "non-lru", "spread|pageblock|buddy", set_non_lru,
	  "where the other pages sit (default spread)" },
	{ 0, "folio-order", "K", set_folios,
	  "LRU folios of 2^K pages, K = 0..10 (default 0)" },
	{ 0, "folios", "ORDER:PCT,...", set_folios,
	  "a mix of folio orders by share of LRU pages" },
	{ 0, "phys", "every|jump", set_phys,
	  "physical walk reads every page (default) or jumps" },
	{ 0, "locality", "L", set_locality,
	  "mean run of pfn-adjacent folios in LRU order (1)" },
	{ 0, "access", "read|write|atomic|isolate", set_access,
	  "work per folio in every walk (default read)" },
	{ 'h', "help", NULL, show_help,
	  "print this help and exit" },
	{ 'V', "version", NULL, show_version,
	  "print the version and exit" },
};

static void show_help(struct params *p, const char *opt, const char *arg)
{
	size_t i;
	int w;

	(void)p;
	(void)opt;
	(void)arg;
	printf("usage: scan [options]\n\n"
	       "Time walks over a simulated memmap of 64-byte struct pages and print how\n"
	       "much faster the physical (pfn order) walk is than each LRU-order walk.\n\n"
	       "options:\n");
	for (i = 0; i < ARRAY_SIZE(options); i++) {
		const struct option_spec *o = &options[i];
		char left[64];

		if (o->short_name && o->long_name)
			snprintf(left, sizeof(left), "-%c, --%s", o->short_name, o->long_name);
		else if (o->short_name)
			snprintf(left, sizeof(left), "-%c %s", o->short_name, o->metavar ? o->metavar : "");
		else
			snprintf(left, sizeof(left), "--%s=%s", o->long_name, o->metavar);
		if (strlen(left) > 26)
			printf("  %s\n  %-26s %s\n", left, "", o->help);
		else
			printf("  %-26s %s\n", left, o->help);
	}
	printf("\nwalks (the first is the baseline):\n");
	for (w = 0; w < NR_WALKS; w++)
		printf("  %-26s %s\n", walks[w].label, walks[w].help);
	exit(0);
}

static const struct option_spec *find_short(char c)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(options); i++)
		if (options[i].short_name == c)
			return &options[i];
	return NULL;
}

static const struct option_spec *find_long(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(options); i++)
		if (options[i].long_name && strlen(options[i].long_name) == len &&
		    !strncmp(options[i].long_name, name, len))
			return &options[i];
	return NULL;
}

/* "--name=value" or "--name value"; returns how many arguments it used. */
static int parse_long(struct params *p, char **argv)
{
	const char *name = argv[0] + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct option_spec *o = find_long(name, len);
	char opt[64];

	snprintf(opt, sizeof(opt), "--%.*s", (int)len, name);
	if (!o)
		die_usage("unknown option '%s'", opt);
	if (!o->metavar) {
		if (eq)
			die_usage("%s takes no value", opt);
		o->set(p, opt, NULL);
		return 1;
	}
	if (eq) {
		o->set(p, opt, eq + 1);
		return 1;
	}
	if (!argv[1])
		die_usage("%s needs a value", opt);
	o->set(p, opt, argv[1]);
	return 2;
}

/* A cluster of short options, "-vvv" or "-c10" or "-c 10". */
static int parse_short(struct params *p, char **argv)
{
	const char *c;

	for (c = argv[0] + 1; *c; c++) {
		const struct option_spec *o = find_short(*c);
		char opt[3] = { '-', *c, 0 };

		if (!o)
			die_usage("unknown option '-%c'", *c);
		if (!o->metavar) {
			o->set(p, opt, NULL);
			continue;
		}
		if (c[1]) {
			o->set(p, opt, c + 1);
			return 1;
		}
		if (!argv[1])
			die_usage("%s needs a value", opt);
		o->set(p, opt, argv[1]);
		return 2;
	}
	return 1;
}

static void parse_options(struct params *p, int argc, char **argv)
{
	int i = 1;

	while (i < argc) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1])
			break;
		i += a[1] == '-' ? parse_long(p, &argv[i]) : parse_short(p, &argv[i]);
	}
	if (i < argc)
		die_usage("unexpected argument '%s'", argv[i]);
}

/*
 * --cpu: refuse, before any work, a CPU this process may not run on; pin
 * to it only after setup, which shares its work among all CPUs.
 */
static void check_cpu(int cpu)
{
	if (cpu < 0)
		return;
#ifdef __linux__
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("--cpu %d: cannot read this process's CPUs: %s", cpu, strerror(errno));
	if (cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &set))
		die("--cpu %d: not a CPU this process may run on (see nproc)", cpu);
#else
	die("--cpu %d: pinning to a CPU is not supported on this system", cpu);
#endif
}

static void pin_cpu(int cpu)
{
	if (cpu < 0)
		return;
#ifdef __linux__
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("--cpu %d: cannot run there: %s", cpu, strerror(errno));
#endif
}

static unsigned long clock_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (unsigned long)ts.tv_sec * 1000000000UL + ts.tv_nsec + getpid();
}

/* Build, time and check every LRU order; returns the rounds taken. */
static int measure(struct lru_model *m, const struct params *p,
		   struct walk_stats *stats, struct walk_result *last)
{
	int b, r, w, rounds = p->rounds ? p->rounds : 1, nr_rounds = 0;

	for (w = 0; w < NR_WALKS; w++)
		stats[w].reps = 1;
	for (b = 0; b < p->builds; b++) {
		if (b)
			build_model(m, p, build_seed(p->seed, b), 0);
		if (p->verbose >= 3) {
			struct lru_check c = check_lru(m);

			if (!c.ok)
				die("self-check failed: the LRU links of build %d are inconsistent", b);
			printf("LRU fingerprint %016llx (links checked)\n",
			       (unsigned long long)c.fingerprint);
			printf("LRU order: runs of pfn-adjacent folios %.2f long on average\n",
			       c.mean_run);
		}
		for (r = 0; r < rounds && nr_rounds < MAX_ROUNDS; r++) {
			run_round(m, p, stats, nr_rounds++, last);
			if (nr_rounds == 1 && !p->rounds)
				rounds = plan_rounds(stats, p->builds);
		}
	}
	return nr_rounds;
}

int main(int argc, char **argv)
{
	struct params p = {
		.nr_pages = DEF_NR_PAGES, .seed = clock_seed(), .builds = 1,
		.thp = DEF_THP, .cpu = -1,
		/* the original's model: every page an order-0 LRU folio, in
		 * random order, read once by every walk */
		.lru_fraction = 1, .folio_share = { 1 }, .locality = 1,
	};
	static struct walk_stats stats[NR_WALKS];
	struct walk_result last[NR_WALKS];
	struct lru_model m;
	double start;
	int w, nr_rounds;

	parse_options(&p, argc, argv);
	if (p.rounds * p.builds > MAX_ROUNDS)
		die_usage("-r %d with --builds=%d: at most %d rounds in all", p.rounds, p.builds, MAX_ROUNDS);
	if (!p.size_opt) {
		p.size_opt = "-c";
		p.size_arg = "1";
	}
	check_fits(&p);
	check_cpu(p.cpu);
	setvbuf(stdout, NULL, _IOLBF, 0);

	start = now();
	map_model(&m, &p);
	if (p.verbose >= 3)
		printf("Allocated memmap for %lu pages in %fs\n", m.nr_pages, now() - start);
	if (p.verbose >= 2)
		printf("random seed %lu\n", p.seed);
	build_model(&m, &p, p.seed, 1);
	if (p.verbose >= 3)
		printf("Created shuffled list in %fs\n", now() - start);
	if (p.verbose >= 1) {
		print_memmap(&m, &p);
		print_model(&m, &p);
	}
	pin_cpu(p.cpu);		/* setup used every CPU; the walks use one */

	nr_rounds = measure(&m, &p, stats, last);

	if (p.verbose >= 1)
		print_plan(&p, stats, nr_rounds);
	if (p.verbose >= 1)
		for (w = 0; w < NR_WALKS; w++)
			print_walk_line(&stats[w], w, p.verbose, last[w]);
	if (p.verbose >= 2)
		print_spread(&m, stats, nr_rounds);
	if (p.verbose >= 1)
		print_break_even(&m, stats, nr_rounds);
	print_ratios(stats, nr_rounds);
	warn_untrusted(&m, stats, nr_rounds);
	free_model(&m);
	return 0;
}
