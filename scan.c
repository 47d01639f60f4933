// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * scan - time physical versus LRU-order walks over a simulated memmap
 *
 * The kernel keeps one 64-byte struct page per 4 KiB page frame in the
 * memmap, and threads the folios that reclaim may evict onto LRU lists.
 * Reclaim can find candidates two ways: follow an LRU list (a chain of
 * dependent loads in effectively random physical order), or walk the
 * memmap by pfn (a sequential stream the prefetchers love).  This program
 * builds a memmap in user space, threads a random circular LRU through it
 * and times walks that each visit every LRU folio once:
 *
 *	Physical   the memmap in pfn order             (bandwidth-bound)
 *	ListLRU    follow lru.next around the list      (latency-bound)
 *	ArrayLRU   an array of folio pointers in LRU order (parallel misses)
 *	XArrayLRU  the same pointers in a 64-way radix tree (on request)
 *
 * It is the successor of scan.c 1.1 (Matthew Wilcox, 2023) and keeps its
 * command line and output lines by default; its options model what the
 * original left out (LRU share, folio sizes, LRU order, per-folio work,
 * several lists, threads, rmap walks, smaller descriptors).  scan.1
 * documents every option, docs/output.md every line and column.
 *
 * usage: scan [-c MILLIONS | -m SIZE] [-s SEED] [-r ROUNDS] [-t THREADS]
 *             [-v...] [--option=VALUE...]
 * build: cc -O2 scan.c -o scan
 */

/*
 * The file, in three parts, each opening with what it does and what it
 * keeps, and each section (a "==== Title ====" banner) with its subject;
 * every function is defined before its use or declared where it is used
 * first, and main() comes last:
 *
 * Part I, the measurement
 *   Defaults, each with its reason  the constants behind defaults and limits
 *   Data model                      struct page, folio, the knobs, the model
 *   Messages, exit, clocks          say/warn/die, the results buffer, now()
 *   Statistics and the PRNG         medians, quantiles, seeded xoshiro256**
 *   Memory regions                  mappings, THP, faulting in, sizes, RAM fit
 *   The synthetic layout            which pfn is which folio or other page
 *   Replay of a real memmap         kpageflags, kpagecgroup, trace, file sizes
 *   Build passes                    lay out, fault in, gather, on every CPU
 *   LRU order and links             shuffle, runs, lists, links, rmap, XArray
 *   A build                         build_model()
 *   The walk table                  walks[]: a walk's row, its regions
 *   The PageTable walk's tables     its page tables: built, expected, re-marked
 *   Per-folio work                  isolate, rmap walks, visit(), dispatch
 *   Walk kernels                    the Physical, List, Array, XArray walks
 *   Threads                         setup on every CPU, the team of walkers
 *   Cache state                     flushing lines before a cold walk
 *   Calibration                     bounds[]: this core's limits
 *   Counters                        counters[]: the CPU's count of a walk
 *   Timing a walk                   a timed walk, disturbances, retiming
 *   Rounds and their plan           rounds, repetitions, --original, measure()
 *   The self-check                  every walk's sum, the links, fingerprint
 * Part II, the request
 *   The option table                options[]: a knob's row
 *   Parsing values                  strict numbers, sizes, choices, mixes
 *   The command line                set_option(), setters, help, argv
 *   Presets and --original          --kernel-like, --original, the defaults
 *   Checks across options           check_params(), parse_params()
 * Part III, the answer
 *   The run summarized              each walk's figures, the machine, verdicts
 *   Text lines                      the original's lines, -v's, progress
 *   Warnings                        warnings[]: causes, checks, their lines
 *   The model in words              -v's model, replay, break-even, PageTable
 *   The field table                 fields[]: a CSV and JSON column's row
 *   CSV, JSON and KTAP              the columns written, --fields, KTAP
 *   The host: files and room        bounded machine files, memory limits
 *   The host: the LLC measured      a chase, where sysfs gives no caches
 *   The host: identity              CPUID, cpuinfo, caches, NUMA, host id
 *   Main                            signals, set-up, report, main()
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* sched_setaffinity, MAP_ANONYMOUS */
#endif
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <cpuid.h>		/* vendor, family, caches; see read_machine() */
#define SCAN_CPUID
#endif

/* The Linux-only parts (CPU affinity, /proc, smaps, THP and populate
 * hints) sit behind SCAN_LINUX, each with a portable fallback;
 * -DSCAN_NO_LINUX builds the fallbacks on Linux too, to test them. */
#if defined(__linux__) && !defined(SCAN_NO_LINUX)
#define SCAN_LINUX 1
#include <sched.h>
#endif
/* The counters (see Counters) use perf_event_open(2) through syscall(),
 * from the kernel's own header where the system has it. */
#if defined(SCAN_LINUX) && defined(__has_include)
#if __has_include(<linux/perf_event.h>) && __has_include(<sys/syscall.h>)
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#ifdef SYS_perf_event_open
#define SCAN_PERF 1
#endif
#endif
#endif
#include <signal.h>

#define SCAN_VERSION "2.0"

/* #### Part I: the measurement ########################################### */

/*
 * Part I, the measurement: scan.c 1.1 grown up.  It builds a memmap and
 * its LRU from a seed (the model), times each walk over it from a known
 * cache state, holds each walk against this core's limit for its loop,
 * and proves that every walk did its work.  It keeps:
 *
 *   1. A walk only walks: no allocation, timing, printing or page fault
 *      inside it, and no choice per folio that the kernel's loop would
 *      not make (tests/t-codegen.sh reads the machine code).
 *   2. Every timed walk returns the ages it summed and the folios it
 *      counted, and both must be the model's, or scan exits 1.
 *   3. The same seed and options build the same model, whatever the
 *      threads, CPUs or descriptor size: random streams belong to
 *      chunks of the memmap, not to threads.
 *   4. Every timed walk starts from the same cache state, and nothing
 *      untimed (flushing, relinking, calibrating) is in its time.
 */

/* ==== Defaults, each with its reason ==================================== */

/* -c counts millions of pages, as the original did: -c 10 is 10M pages. */
#define PAGES_PER_COUNT	1000000.0
/* The original's default: 1M pages, a 64 MB memmap simulating 3.8 GiB. */
#define DEF_NR_PAGES	1000000UL
/* -m counts simulated memory in base pages: 4 KiB on x86-64. */
#define SIM_PAGE_SIZE	4096.0
/* The memmap is mapped with PMD-sized pages when --thp=always asks. */
#define HUGE_PAGE_SIZE	(2UL << 20)
/* Today's struct page is 64 bytes, one cache line. */
#define DEF_DESC_SIZE	64
/* Below this many bytes setup runs on one thread: starting more costs
 * more than it saves. */
#define SETUP_PARALLEL_MIN	(64UL << 20)
#define MAX_THREADS	64
/* A thread's stack: its work lives in the model, not on its stack. */
#define THREAD_STACK	(256UL << 10)
/* stdout's buffer: more than the longest output (help, -vvv, JSON). */
#define RESULTS_BUF	(64UL << 10)
/* Setup faults in and lays out the memmap in chunks of this many pfns
 * (32 MiB of 64-byte descriptors); each chunk has its own random stream,
 * so the layout is the same whatever the threads and descriptor size. */
#define CHUNK_PFNS	(1UL << 19)
/* Prefetch distance for setup's random accesses: enough misses in flight
 * to cover memory latency without overrunning the miss buffers. */
#define PREFETCH_DIST	16
#define MAX_LISTS	1024
/* The rmap pool (anon_vma, VMAs, page tables) is sized like page tables,
 * an eighth of the memmap, and never below this: it must miss the caches. */
#define RMAP_POOL_MIN	(64UL << 20)
#define MAX_RMAP_HOPS	16
/* A round repeats each walk until it has taken about this share of the
 * slowest walk's time: short walks are noisy and cheap to repeat. */
#define REP_SHARE	0.15
#define MAX_REPS	32
/* Auto rounds: enough to fill this many seconds of wall (walks and the
 * untimed work around them), at least MIN_ROUNDS (a median needs more
 * than one), at most MAX_ROUNDS. */
#define ROUND_BUDGET_S	0.8
#define MIN_ROUNDS	2
#define MAX_ROUNDS	64
#define MAX_SAMPLES	(MAX_ROUNDS * MAX_REPS)
/* Tries of each limit, spread over the rounds (bound_tries_due()): a
 * median of up to five, as a short run's walks have, and of at least
 * two, one beside each of a large memmap's two rounds; the random loads
 * and the PageTable's, tries of milliseconds, at least three, a median
 * that one odd try does not move (the stream's, which read the whole
 * memmap, two: three took calibration past 5% of a -c 10 run). */
#define BOUND_TRIES	5
#define BOUND_MIN_TRIES	2
#define BOUND_MIN_CHEAP	3
/* A limit's tries together cost about this share of the walks they
 * bound (plan_bounds()): calibration is a small part of any run's wall,
 * and a walk repeated often is bounded more often. */
#define CAL_SHARE	0.03
/* A ratio whose rounds spread wider than this (interquartile range over
 * the median) is flagged: a careful reader would not sign it. */
#define SPREAD_WARN	0.10
/* The rounds --strict's remedy asks for at least: a few disturbed rounds
 * then fall outside a ratio's quartiles. */
#define STRICT_ROUNDS	16
/* A walk shorter than this many clock ticks is mostly clock. */
#define MIN_TICKS	1000.0
/* A timed walk that lost more than this share of its wall (and more
 * than LOST_MIN_S) to anything else, preemption, a stop, the host's
 * steal, is timed again, at most RETIMES times, while the retime is
 * less disturbed than the walk it replaced and all retiming stays within
 * RETIME_SHARE of the run's wall: on a busy CPU a walk of seconds is
 * nearly always preempted, and timing it again only doubles the run.
 * --original, which times each walk once, marks it disturbed instead. */
#define LOST_SHARE	0.05
#define LOST_MIN_S	20e-6
#define RETIMES		3
#define RETIME_SHARE	0.15
/* A run expected to take longer than this says so as it starts, and
 * -v shows the rounds of one expected to take a tenth of it (a tiny
 * run's 64 rounds are over before a reader looks).  tests/t-progress.sh
 * builds with -DSCAN_PROGRESS_S=0 to see both at a tiny size. */
#ifdef SCAN_PROGRESS_S
#define PROGRESS_S	(SCAN_PROGRESS_S)
#else
#define PROGRESS_S	10.0
#endif
/* The memmap should dwarf the last-level cache, or the caches skew the
 * ratios, either way (docs/method.md). */
#define LLC_FACTOR	4.0
/* -c auto's least: the size of the 2023 post's figures. */
#define AUTO_MIN_COUNT	10.0
/* --strict's status when a warning fires: none of 0, 1 (runtime), 2
 * (usage), 128 + N (signal N), nor kselftest's 3 (XPASS) and 4 (SKIP),
 * which a selftest runner would not read as a failure. */
#define EXIT_WARNED	5

/* ==== Data model ======================================================== */

/*
 *   memmap (descriptors in pfn order)          lru[] (LRU order, by age)
 *   +---------+---------+---------+---------+   +------+------+------+
 *   | pfn 0   | pfn 1   | pfn 2   | pfn 3   |   | age0 | age1 | age2 | ...
 *   | age 2   | age 0   | age 3   | age 1   |   +--|---+--|---+--|---+
 *   +---------+---------+---------+---------+      |      |      |
 *        ^  next/prev links form one cycle in age   \-> pfn 1, pfn 3, pfn 0
 *        order: 1 -> 3 -> 0 -> 2 -> 1 (the ListLRU walk follows them)
 *
 * With the model's knobs, not every pfn is an LRU folio: a large folio
 * is a head followed by tail pages, and pages off the LRU (slab, page
 * tables, free buddy blocks) sit between folios:
 *
 *   | folio o2 | tail | tail | tail | buddy o1 | (free) | other | folio o0 |
 *
 * A descriptor is 64 bytes (today's struct page), 32 (the first half, as
 * the memdesc plan shrinks it), or 8: one word that says what the pfn is
 * and points to a separately allocated folio holding the LRU links.
 */

/* What the walks use of a folio: the first 32 bytes of its struct page. */
struct folio {
	unsigned long flags;	/* PD_* type and order, PG_* bits */
	struct folio *next;	/* lru.next: the next folio in its list */
	struct folio *prev;	/* lru.prev: the previous folio */
	unsigned int age;	/* position in LRU order, 0 at the head */
	int refcount;		/* taken by --access=isolate */
} __attribute__((aligned(32)));	/* 32 bytes on 32-bit systems too */

/* Mirrors the 64-byte, cache-line-sized struct page of x86-64. */
struct page {
	struct folio folio;	/* flags, lru, age and refcount */
	unsigned long mapping;	/* the rest of the line: unused */
	unsigned long index;
	unsigned long private;
	unsigned long memcg_data;
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct folio) == 32, "the folio's half must be 32 bytes");
_Static_assert(sizeof(struct page) == 64, "struct page must be 64 bytes");

/* The first word of every descriptor: what the pfn is, and an order. */
#define PD_TYPE		3UL
#define PD_OTHER	0UL	/* not on the LRU: slab, kernel, tables */
#define PD_FOLIO	1UL	/* the head of an LRU folio */
#define PD_TAIL		2UL	/* any other page of a large folio */
#define PD_BUDDY	3UL	/* the head of a free buddy block */
#define PD_ORDER_SHIFT	2
#define PD_ORDER(w)	((int)((w) >> PD_ORDER_SHIFT) & 0xf)
/* In a folio's flags, above the type and order: */
#define PG_LRU		(1UL << 6)	/* on an LRU list */
#define PG_REFERENCED	(1UL << 7)	/* set or cleared by --access */
#define PG_MAPPED	(1UL << 8)	/* --rmap: reclaim walks its rmap */
/* bits 9-15: the memcg the folio is charged to, as the kernel's
 * memcg_data says; 0 is the one reclaim targets (--memcg-share) */
#define PG_MEMCG_SHIFT	9
#define PG_MEMCG	(0x7fUL << PG_MEMCG_SHIFT)
#define PG_LIST_SHIFT	16		/* bits 16-31: which LRU list */
#define PG_LIST(flags)	((unsigned int)((flags) >> PG_LIST_SHIFT) & 0xffff)
/* An 8-byte descriptor keeps the type and order in its low 6 bits and
 * the folio's address (64-byte aligned) in the rest. */
#define MEMDESC_SIZE	8
#define PD_FOLIO_PTR(w)	((struct folio *)(uintptr_t)((w) & ~63UL))
/* Largest folio or buddy block: order 10 (4 MiB) is MAX_PAGE_ORDER. */
#define MAX_ORDER	10
/* A pageblock, the unit the kernel groups allocations by: 2 MiB. */
#define PAGEBLOCK_ORDER	9

/* One slot of the LRU array: a pfn (or a run) during setup, then a
 * pointer.  64 bits even where pointers are 32, for packed runs. */
union lru_slot {
	uint64_t pfn;
	struct folio *folio;
};

/* A node of the XArrayLRU walk's radix tree, as the kernel's xa_node:
 * a header line (shift, offset, count, parent...) and 64 slots. */
#define XA_SHIFT	6
#define XA_SLOTS	(1UL << XA_SHIFT)
struct xa_node {
	unsigned char shift, offset, count, nr_values;
	struct xa_node *parent;
	void *array;
	void *private_list[2];
	unsigned long pad[3];
	void *slots[XA_SLOTS];
};

/*
 * The PageTable walk's page tables, as x86-64's: 8-byte entries, 512 to
 * a 4 KiB table, a PMD table above each process's PTE tables, in
 * virtual order (MGLRU's aging: walk_pmd_range(), walk_pte_range()):
 *
 *   PMD table  | none | table --+ | leaf: an order-9 folio | ...
 *                               v
 *   PTE table  | pfn P A | pfn P | none | pfn P A | ...  (virtual order)
 *                  |                        |
 *                  v   a young one's struct page, by pfn, in the memmap
 */
#define PT_ENTRIES	512
#define PT_PRESENT	(1ULL << 0)	/* _PAGE_PRESENT */
#define PT_ACCESSED	(1ULL << 5)	/* _PAGE_ACCESSED: the MMU sets it */
#define PT_PSE		(1ULL << 7)	/* _PAGE_PSE: the PMD entry maps 2 MiB */
#define PT_TOUCHED	(1ULL << 9)	/* a software bit: in the model's young
					 * set, which is re-marked after a walk */
#define PT_PFN_SHIFT	12
#define PT_ADDR		(~0xfffULL)	/* a non-leaf entry: its table */
/* A folio's MGLRU generation, as LRU_GEN_MASK holds it (gen + 1): the
 * walk sets a young folio's from OLD to NEW in its flags.  Bits 32-33
 * where a long has them; on 32-bit systems bits 29-30, the list
 * index's top (the kernel's field is 3 bits, where the config puts
 * it). */
#define PG_GEN_SHIFT	(ULONG_MAX > 0xffffffffUL ? 32 : 29)
#define PG_GEN		(3UL << PG_GEN_SHIFT)
#define PG_GEN_OLD	(1UL << PG_GEN_SHIFT)
#define PG_GEN_NEW	(2UL << PG_GEN_SHIFT)

/* What prepare_pagetable() built, and what the walk must find. */
struct pt_model {
	uint64_t *pmd;		/* the PMD tables, one after another */
	uint64_t *pte;		/* the first PTE table, the rest after it */
	unsigned long nr_pmd_tables;
	unsigned long nr_pte_tables; /* below them */
	unsigned long nr_leaf;	/* PMD entries that map a folio */
	unsigned long nr_mapped; /* LRU folios mapped */
	unsigned long nr_unmapped; /* LRU folios not (page cache) */
	unsigned long nr_ptes;	/* present PTEs */
	unsigned long nr_young_ptes; /* young PTEs and leaf PMDs */
	unsigned long nr_young_tables; /* PTE tables with a young PTE */
	unsigned long nr_young;	/* young folios: the walk visits these */
	unsigned long young_sum; /* and sums their ages to this */
	unsigned long zero_pfn;	/* the zero page's pfn (no PTE maps it) */
};

enum thp_mode { THP_SYSTEM, THP_ALWAYS, THP_NEVER };
static const char *const thp_names[] = {
	[THP_SYSTEM] = "system", [THP_ALWAYS] = "always", [THP_NEVER] = "never",
	[THP_NEVER + 1] = NULL
};

enum cache_mode { CACHE_COLD, CACHE_WARM };
static const char *const cache_names[] = {
	[CACHE_COLD] = "cold", [CACHE_WARM] = "warm", [CACHE_WARM + 1] = NULL
};

/* Where pages off the LRU sit (--non-lru). */
enum non_lru { NON_LRU_SPREAD, NON_LRU_PAGEBLOCK, NON_LRU_BUDDY };
static const char *const non_lru_names[] = {
	[NON_LRU_SPREAD] = "spread", [NON_LRU_PAGEBLOCK] = "pageblock",
	[NON_LRU_BUDDY] = "buddy", [NON_LRU_BUDDY + 1] = NULL
};

/* How the physical walk passes a large folio (--phys). */
enum phys_mode { PHYS_EVERY, PHYS_JUMP };
static const char *const phys_names[] = {
	[PHYS_EVERY] = "every", [PHYS_JUMP] = "jump", [PHYS_JUMP + 1] = NULL
};

/* What every walk does to each folio it visits (--access). */
enum access { ACCESS_READ, ACCESS_WRITE, ACCESS_ATOMIC, ACCESS_ISOLATE };
static const char *const access_names[] = {
	[ACCESS_READ] = "read", [ACCESS_WRITE] = "write", [ACCESS_ATOMIC] = "atomic",
	[ACCESS_ISOLATE] = "isolate", [ACCESS_ISOLATE + 1] = NULL
};

/* The memory's limits a walk is held against (try_bound()): streaming
 * reads for the physical walk, a dependent chase for ListLRU,
 * independent random loads for the pointer walks, and for the PageTable
 * walk a PTE stream with its young folios' updates. */
enum bound { BOUND_STREAM, BOUND_CHASE, BOUND_RANDOM, BOUND_PAGETABLE, NR_BOUNDS };

/* How results are written (--format). */
enum format { FORMAT_TEXT, FORMAT_CSV, FORMAT_JSON, FORMAT_KTAP };
static const char *const format_names[] = {
	[FORMAT_TEXT] = "text", [FORMAT_CSV] = "csv", [FORMAT_JSON] = "json",
	[FORMAT_KTAP] = "ktap", [FORMAT_KTAP + 1] = NULL
};

/* The descriptor sizes --struct-page accepts: today's struct page, the
 * 32-byte one of the memdesc plan, and the 8-byte memdesc. */
static const struct desc_kind {
	const char *name;
	int size;
} desc_kinds[] = { { "64", 64 }, { "32", 32 }, { "8", MEMDESC_SIZE } };

#define NR_WALKS_MAX	8

/* What the memmap holds and how its LRU is ordered. */
struct layout_knobs {
	unsigned long nr_pages;	/* pfns in the memmap */
	unsigned long seed;	/* seeds the layout and the LRU order */
	int desc_size;		/* bytes per page descriptor */
	double lru_fraction;	/* share of pages in LRU folios */
	enum non_lru non_lru;	/* where the other pages sit */
	double folio_share[MAX_ORDER + 1]; /* share of LRU pages per order */
	double locality;	/* mean run of pfn-adjacent folios */
	double memcg_share;	/* share of LRU folios in the target memcg */
	const char *memmap_from; /* --memmap-from: a kpageflags file */
	unsigned long pfn_start; /* --pfns: its first pfn replayed */
	unsigned long pfn_count; /* and how many; 0: to its end */
	unsigned long memcg;	/* --memcg: the target's inode, 0 if none */
	const char *memcg_from;	/* --memcg-from: its kpagecgroup file */
	const char *lru_order;	/* --lru-order: a trace's insertion order */
};

/* What every walk does per folio, and how it takes the lists: the model
 * holds a copy, so a walk reads only the model. */
struct work_knobs {
	enum phys_mode phys;	/* how the physical walk passes folios */
	enum access access;	/* per-folio work of every walk */
	int nr_lists;		/* LRU lists per thread's share */
	unsigned long chunk;	/* folios taken from a list per turn */
	double rmap_share;	/* share of folios that are mapped */
	int rmap_hops;		/* dependent misses per mapped folio */
	/* the PageTable walk's (the other walks never read them) */
	double pt_mapped;	/* share of LRU folios mapped by a PTE or PMD */
	double pt_young;	/* share of mapped PTEs young */
	double pt_young_tables;	/* share of PTE tables holding the young */
	double pt_adjacent;	/* next PTE maps the next mapped folio */
	int pt_nonleaf;		/* an old PMD entry skips its table */
};

/* How the walks are run and timed. */
struct run_knobs {
	int rounds;		/* -r; 0 picks by cost */
	int builds;		/* models built and timed in turn */
	int threads;		/* -t: walkers at once, each on its share */
	enum thp_mode thp;	/* how the memmap is backed */
	enum cache_mode cache;	/* cache state each timed walk starts from */
	int cpu;		/* --cpu; -1 leaves placement to the kernel */
	int walk[NR_WALKS_MAX];	/* the walks to time, baseline first */
	int nr_walks;
	int kernel_like;	/* --kernel-like: the preset fills the gaps */
	int original;		/* --original: the 2023 protocol */
};

/* Where the results go, and how much of them. */
struct output {
	int verbose;		/* -v count */
	int quiet;		/* -q: no warnings about the figures */
	int strict;		/* --strict: a warning is exit EXIT_WARNED */
	unsigned long expect;	/* --expect: warnings expected, by cause */
	enum format format;	/* --format: how results are written */
	FILE *text;		/* where the text lines go: stdout, or with
				 * csv and json, stderr if -v, else nowhere */
};

/* What the command line asked for, in its groups, and how it said it
 * (for messages, the preset and --original). */
struct params {
	struct layout_knobs layout;
	struct work_knobs work;
	struct run_knobs run;
	struct output out;
	const char *size_opt;	/* "-c" or "-m", whichever set nr_pages */
	const char *size_arg;	/* its value, for messages */
	int size_auto;		/* -c auto: scan picks the size (size_auto()) */
	char size_why[96];	/* and says why that size */
	const char *folio_opt;	/* the option that set folio_share */
	char preset[512];	/* what --kernel-like set, for -v */
	unsigned long long given; /* options on the command line, by index */
};

/* An anonymous mapping with PROT_NONE guards, so it stays one VMA. */
struct region {
	void *addr;		/* usable start, HUGE_PAGE_SIZE aligned */
	size_t len;		/* usable bytes */
	void *map;		/* the whole reservation, guards included */
	size_t map_len;
	size_t used;		/* what the built model uses: each timed
				 * walk starts with it flushed */
};

/*
 * The model's memory, each part in a region of its own: the memmap, the
 * LRU array, the folios of 8-byte descriptors, the rmap pool, then one
 * for each walk that brings a structure of its own (walk w's is
 * R_WALK + w; see the walk table).  The fit check, the refusal message,
 * mapping, eviction and freeing are loops over them.
 */
enum region_id { R_MEMMAP, R_ARRAY, R_FOLIOS, R_RMAP, R_WALK,
		 NR_REGIONS = R_WALK + NR_WALKS_MAX };

/* The simulated memmap and its LRU: everything a walk may read. */
struct lru_model {
	char *descs;		/* the memmap: nr_pages descriptors */
	size_t desc_size;	/* bytes per descriptor: 64, 32 or 8 */
	struct page *folios;	/* with 8-byte descriptors: the folios */
	union lru_slot *lru;	/* LRU order: lru[age].folio */
	unsigned long nr_pages;	/* pfns in the memmap */
	unsigned long nr_lru;	/* folios on the LRU */
	unsigned long lru_pages; /* pages in those folios */
	unsigned long nr_mapped; /* folios with PG_MAPPED */
	unsigned long nr_others; /* LRU folios of other memcgs (not walked) */
	int live;		/* replayed the live /proc/kpageflags */
	long nr_own;		/* its pfns that were scan's own memory,
				 * replayed as free; -1 if unknown */
	struct trace_fit {	/* --lru-order: how the trace met the model */
		unsigned long lines;	/* insertions the file holds */
		unsigned long ordered;	/* folios it put in order */
		unsigned long off_lru;	/* its pfns in the window, no folio here */
		unsigned long runs;	/* runs of them adjacent in pfn order */
	} trace;
	int nr_shares;		/* -t: the walks split into this many shares */
	int original;		/* --original: built on one thread, and */
	struct folio *list_from; /* ListLRU walked from pfn 0's folio */
	struct work_knobs work;	/* copied from the parameters, so a walk
				 * reads only the model */
	atomic_int *locks;	/* per-list lru_lock: isolating with -t */
	struct list_cursor *cursors; /* walk_list's place in each list */
	uint32_t *rmap;		/* --rmap: the pool of random hops */
	unsigned long rmap_mask; /* its entries - 1, a power of two */
	struct xa_node *xa_root; /* XArrayLRU's tree, when it is walked */
	int xa_height;		/* levels, 1 when the root is a leaf */
	int clflushopt;		/* the CPU has it: evict() uses it */
	struct region region[NR_REGIONS]; /* backing of all of it */
	char **bound_lines;	/* the lines the chase and random bounds read */
	double bound_s[NR_BOUNDS][BOUND_TRIES]; /* the tries of each */
	unsigned long bound_len[NR_BOUNDS]; /* loads a try of each makes */
	unsigned long bound_young; /* of the PageTable's, its young updates */
	int bound_want[NR_BOUNDS]; /* tries of each the run takes */
	int bound_tries[NR_BOUNDS]; /* of each, taken so far */
	int bound_kept[NR_BOUNDS]; /* of those, kept disturbed */
	double bound_pace[NR_BOUNDS]; /* seconds a load at the first try */
	double bound_ns[NR_BOUNDS]; /* this core's limits: their medians */
	double bound_lo[NR_BOUNDS], bound_hi[NR_BOUNDS]; /* fastest and
				 * slowest try, over the median */
	double calibrate_s;	/* what measuring them cost */
	double start_s;		/* now() as setup began */
	double retime_s;	/* wall spent timing walks and tries again */
	int retimes_clean;	/* retimes that came back undisturbed */
	int retimes_futile;	/* and those no cleaner than what they replaced */
	double walk_start_s;	/* now() as the first round began */
	double expect_s;	/* the run's wall, as expect_run() saw it */
	struct pt_model pt;	/* the PageTable walk's, when it is walked */
};

/* Where walk_list is in one list: kept in the model, one per list of
 * every share, so a thousand lists cost a walker no stack. */
struct list_cursor {
	struct folio *folio;	/* the next folio to visit */
	unsigned long left;	/* folios still to visit */
};

/* What a walk proves it did: the ages it summed, the folios it counted,
 * and where its rmap hops ended (so they cannot be optimised away). */
struct walk_result {
	unsigned long sum;
	unsigned long visits;
	unsigned long sink;
};

/* The events counted around each timed walk: their rows are in Counters. */
enum counter_id { C_LLC_MISSES, C_DTLB_MISSES, C_INSTRUCTIONS, C_CYCLES,
		  C_PAGE_FAULTS, C_CONTEXT_SWITCHES, NR_COUNTERS };

/* What the counters saw over a walk's timed samples (one sample, or
 * all of them summed). */
struct walk_counts {
	double value[NR_COUNTERS];	/* counts, scaled where shared */
	int samples[NR_COUNTERS];	/* samples whose count is known */
	double enabled, running;	/* ns the hardware events were on,
					 * and of that, counting */
	int error[NR_COUNTERS];		/* why one is not counted: an errno,
					 * COUNTER_UNBUILT; 0: counted */
};

/* Every timing of one walk in a run. */
struct walk_stats {
	double sample[MAX_SAMPLES];	/* seconds, in the order taken */
	int nr_samples;
	double round_time[MAX_ROUNDS];	/* median of each round's samples */
	double ratio[MAX_ROUNDS];	/* round_time over the baseline's */
	int reps;			/* timed walks per round */
	double flush_s, relink_s;	/* untimed work around its walks */
	double first_untimed;		/* of its first walk, for the plan */
	int retimed;			/* walks timed again: disturbed */
	int preempted;			/* of those, with a context switch */
	int stolen;			/* or by the host's steal */
	int disturbed;			/* kept disturbed: no clean walk */
	int kept_alike;			/* of those, its retime no cleaner */
	int kept_budget;		/* or retiming's RETIME_SHARE spent */
	double lost_share;		/* --original: of its one walk's wall */
	const char *lost_to;		/* --original: to what, if known */
	struct walk_counts counts;	/* the counters, over its samples */
};

/* ==== Messages, exit, clocks ============================================ */

/* How scan speaks: results on stdout, from one buffer checked before
 * exit; each error and warning one line on stderr; and its clocks. */

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

/*
 * The bytes of the printable character at s: 1 for printable ASCII, 2
 * to 4 for valid UTF-8 (RFC 3629: no overlong form, no surrogate,
 * nothing past U+10FFFF) that is no C1 control; 0 for a control (C0,
 * DEL, C1) and for a byte that starts no valid sequence.  The scripts'
 * utf8_length() (scripts/lib.awk) keeps the same rule.
 */
static int utf8_length(const unsigned char *s)
{
	unsigned char lo, hi;
	int len, k;

	if (*s >= ' ' && *s < 0x7f)
		return 1;
	if (*s < 0xc2 || *s > 0xf4)
		return 0;
	len = *s < 0xe0 ? 2 : *s < 0xf0 ? 3 : 4;
	lo = *s == 0xe0 ? 0xa0 : *s == 0xf0 ? 0x90 : *s == 0xc2 ? 0xa0 : 0x80; /* C2 80-9F: C1 */
	hi = *s == 0xed ? 0x9f : *s == 0xf4 ? 0x8f : 0xbf;
	for (k = 1; k < len; k++, lo = 0x80, hi = 0xbf)
		if (s[k] < lo || s[k] > hi)	/* the NUL ends it here too */
			return 0;
	return len;
}

/* The character at *s as printable text in out (5 bytes): its own bytes,
 * or \xNN for a byte that starts none or is one of esc; *s moves past
 * what it took. */
static void plain_unit(const unsigned char **s, const char *esc, char *out)
{
	int len = utf8_length(*s);

	if (len && !(len == 1 && strchr(esc, **s))) {
		memcpy(out, *s, len);
		out[len] = 0;
	} else {
		snprintf(out, 5, "\\x%02x", **s);
		len = 1;
	}
	*s += len;
}

/* s to f as one line of printable text: what is no printable character,
 * and each byte of esc, is written \xNN.  Every text scan writes that it
 * did not make itself (a message's values, a path, the machine's names)
 * goes out this way or as put_json() writes it. */
static void put_plain(FILE *f, const char *s, const char *esc)
{
	const unsigned char *c = (const unsigned char *)s;
	char unit[5];

	while (*c) {
		plain_unit(&c, esc, unit);
		fputs(unit, f);
	}
}

/* The same into out, size bytes: cut where the next character (or its
 * \xNN) would not fit. */
static void plain_copy(const char *s, char *out, size_t size)
{
	const unsigned char *c = (const unsigned char *)s;
	size_t len = 0, n;
	char unit[5];

	while (*c) {
		plain_unit(&c, "", unit);
		n = strlen(unit);
		if (len + n >= size)
			break;
		memcpy(out + len, unit, n);
		len += n;
	}
	out[len] = 0;
}

/* "scan: " and the message on stderr, on one line, as put_plain() writes
 * it (a newline in -c $'1\n' is \x0a), whole: two threads' lines never
 * mix. */
static void say(const char *prefix, const char *suffix, const char *fmt,
		va_list ap)
{
	/* off the stack, whichever thread says it */
	static _Thread_local char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	flockfile(stderr);
	fprintf(stderr, "scan: %s", prefix);
	put_plain(stderr, msg, "");
	fputs(suffix, stderr);
	funlockfile(stderr);
}

/*
 * A runtime failure: exit 1.  The first to fail says it and exits; a
 * thread failing with it (every reader of a file that shrank) waits here
 * for that exit, so one line is said.  (File scope: the fuzz target,
 * whose exit() returns, lets it go.)
 */
static pthread_mutex_t dying = PTHREAD_MUTEX_INITIALIZER;

static PRINTF(1, 2) void die(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&dying);
	fflush(stdout);		/* what came before it, if it can */
	va_start(ap, fmt);
	say("", "\n", fmt, ap);
	va_end(ap);
	exit(1);
}

/* A usage error: one line on stderr, nothing on stdout, exit 2. */
static PRINTF(1, 2) void die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", " (scan -h for help)\n", fmt, ap);
	va_end(ap);
	exit(2);
}

/*
 * Results are written only here, from a buffer that holds a whole run's
 * (see read_params()), so a failed write is seen with its errno: results
 * lost to a full disk or a closed stream fail the run, exit 1, instead
 * of vanishing.  close too before exit.
 */
static void flush_results(int close)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout) && (!close || fclose(stdout) == 0))
		return;
	fprintf(stderr, "scan: cannot write results: %s\n",
		errno ? strerror(errno) : "write error");
	exit(1);
}

static PRINTF(1, 2) void warn(const char *fmt, ...)
{
	va_list ap;

	flush_results(0);	/* a warning follows the lines it is about */
	va_start(ap, fmt);
	say("warning: ", "\n", fmt, ap);
	va_end(ap);
}

/* A line beside the results that is no warning: what they measured. */
static PRINTF(1, 2) void note(const char *fmt, ...)
{
	va_list ap;

	flush_results(0);	/* after the lines it is about, as a warning */
	va_start(ap, fmt);
	say("", "\n", fmt, ap);
	va_end(ap);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Online CPUs, or 1 where the system cannot say. */
static long online_cpus(void)
{
#ifdef _SC_NPROCESSORS_ONLN
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n > 0)
		return n;
#endif
	return 1;
}

/* What a thread does while it spins, waiting for another. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("pause");
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
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

/* A decimal field, empty when unknown (CSV's empty, JSON's null). */
static const char *known(int v, char *buf, size_t len)
{
	if (v < 0)
		*buf = 0;
	else
		snprintf(buf, len, "%d", v);
	return buf;
}

/* ==== Statistics and the PRNG =========================================== */

/* Medians, quartiles and ranges (a figure is never a lone mean), and the
 * seeded PRNG that every random choice of a build draws from. */

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
	double *sorted = malloc(n * sizeof(*v));	/* up to 16 KiB: off the stack */
	struct summary s;

	if (!sorted)
		die("out of memory");
	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	s.median = quantile(sorted, n, 0.5);
	s.min = sorted[0];
	s.max = sorted[n - 1];
	s.q1 = quantile(sorted, n, 0.25);
	s.q3 = quantile(sorted, n, 0.75);
	free(sorted);
	return s;
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

/* ==== Memory regions ==================================================== */

/*
 * The model's memory: each part in a region of its own (struct region),
 * mapped between guards with the page size --memmap-thp asks for, faulted in
 * by setup, never by a timed walk, and refused whole, before anything is
 * mapped, when it cannot fit (check_fits()).
 */

static uintptr_t round_up(uintptr_t x, uintptr_t to)
{
	return (x + to - 1) / to * to;
}

/* In Warnings: madvise() refused ADVICE, for WHY. */
static void warn_thp_refused(const char *advice, const char *why);

/*
 * Map len bytes aligned to a huge page, between two PROT_NONE guards so
 * the kernel cannot merge it with a neighbour (smaps then describes it
 * alone), and ask for the page size --memmap-thp chose.  Pages are not
 * touched.
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
#if defined(SCAN_LINUX) && defined(MADV_HUGEPAGE)
	if (thp == THP_ALWAYS && madvise(r->addr, len, MADV_HUGEPAGE))
		warn_thp_refused("MADV_HUGEPAGE", strerror(errno));
	if (thp == THP_NEVER && madvise(r->addr, len, MADV_NOHUGEPAGE))
		warn_thp_refused("MADV_NOHUGEPAGE", strerror(errno));
#else
	if (thp != THP_SYSTEM)
		warn_thp_refused(thp == THP_ALWAYS ? "MADV_HUGEPAGE" : "MADV_NOHUGEPAGE",
				 "not on this system");
#endif
}

static void unmap_region(struct region *r)
{
	if (r->map)
		munmap(r->map, r->map_len);
	memset(r, 0, sizeof(*r));
}

/*
 * Faulting in under a memory cgroup's limit.  check_fits() saw the room
 * before anything was used; another process in the cgroup (a second
 * scan started with this one) may take it since, and the kernel's OOM
 * killer would then end one of them without a word.  So where a memory
 * cgroup limits scan, its room is read again each FAULT_STEP bytes
 * faulted in: it must still hold what is left to fault and FAULT_MARGIN
 * more, or scan stops, exit 1, saying why.
 */
#define FAULT_STEP	(4UL << 20)
/* What others may fault between two readings, and scan's own small
 * allocations beside its regions (check_fits() kept 16 MiB for them). */
#define FAULT_MARGIN	(16UL << 20)

static double cgroup_room(void);	/* in The host: files and room */

static struct {
	int on;			/* a memory cgroup's limit applies to scan */
	double left;		/* bytes still to fault in, as check_fits() planned */
	atomic_ulong since;	/* bytes faulted in since the room was read */
	pthread_mutex_t lock;	/* one thread reads the room at a time */
} room_watch = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Count bytes that are about to be faulted in; read the room again
 * after each FAULT_STEP of them. */
static void watch_room(size_t bytes)
{
	char b[3][32];
	double room, left;

	if (!room_watch.on || atomic_fetch_add(&room_watch.since, bytes) + bytes < FAULT_STEP)
		return;
	pthread_mutex_lock(&room_watch.lock);
	if (atomic_load(&room_watch.since) >= FAULT_STEP) {
		room_watch.left -= atomic_exchange(&room_watch.since, 0);
		left = room_watch.left > 0 ? room_watch.left : 0;
		room = cgroup_room();
		if (room >= 0 && room < left + FAULT_MARGIN)
			die("only %s left in the memory cgroup, for the %s scan has still to fault in and %s to spare: something else in it took the room there was at the start; stopped before the OOM killer would",
			    human(room, b[0], 32), human(left, b[1], 32), human(FAULT_MARGIN, b[2], 32));
	}
	pthread_mutex_unlock(&room_watch.lock);
}

/*
 * Fault bytes [start, end) of a region in, a FAULT_STEP at a time.  The
 * kernel can populate a range in one call (Linux 5.14), which saves a
 * trap per 4 KiB page; elsewhere, touch one byte per page.
 */
static void fault_in(struct region *r, size_t start, size_t end)
{
	size_t page = sysconf(_SC_PAGESIZE), stop;
	volatile char *p = r->addr;

	if (end > r->len)
		end = r->len;
	for (; start < end; start = stop) {
		stop = end - start > FAULT_STEP ? start + FAULT_STEP : end;
		watch_room(stop - start);
#if defined(SCAN_LINUX) && defined(MADV_POPULATE_WRITE)
		if (!madvise((char *)r->addr + start, stop - start, MADV_POPULATE_WRITE))
			continue;
#endif
		for (; start < stop; start += page)
			p[start] = 0;
	}
}

/*
 * Fault the first len bytes of a region in one page at a time, in a
 * random order drawn from seed: which physical page backs which address
 * follows the order of the faults.  scan.c 1.1 calloc()ed its memmap and
 * first touched it while writing the links in LRU order, which meets
 * its pages in a random order; a memmap faulted in address order is
 * physically contiguous where that one was scattered.
 */
static void fault_in_shuffled(struct region *r, size_t len, uint64_t seed)
{
	size_t page = sysconf(_SC_PAGESIZE), n, i, j, t, *order;
	volatile char *p = r->addr;
	struct rng rng;

	if (len > r->len)
		len = r->len;
	n = (len + page - 1) / page;
	order = malloc(n * sizeof(*order));
	if (!order && n)
		die("out of memory for the order of %zu page faults", n);
	rng_seed(&rng, seed);
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n; i > 1; i--) {
		j = rng_below(&rng, i);
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	for (i = 0; i < n; i++) {
		watch_room(page);
		p[order[i] * page] = 0;
	}
	free(order);
}

/*
 * Share of the region backed by huge pages, read back from the kernel's
 * smaps; -1 when the system cannot tell.
 */
static double huge_share(const struct region *r)
{
	double share = -1;
#ifdef SCAN_LINUX
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

/* Entries of the rmap pool: a power of two, an eighth of the memmap's
 * 64-byte descriptors in bytes, at least RMAP_POOL_MIN. */
static unsigned long rmap_entries(unsigned long nr_pages)
{
	double bytes = (double)nr_pages * sizeof(struct page) / 8;
	unsigned long n = RMAP_POOL_MIN / sizeof(uint32_t);

	while (n * sizeof(uint32_t) < bytes && n < (1UL << 31))
		n *= 2;
	return n;
}

/* Folios the layout is expected to make: a share of each order's pages. */
static double expected_folios(const struct params *p)
{
	double n = 0;
	int k;

	for (k = 0; k <= MAX_ORDER; k++)
		n += p->layout.lru_fraction * p->layout.folio_share[k] / (1UL << k);
	return n * p->layout.nr_pages;
}

/* Bytes of region r: as the layout is expected to fill it (folios and
 * tree nodes with 5% to spare), or in the worst case, which is what is
 * mapped; 0 when the run does not use it.  After the walk table. */
static double region_bytes(const struct params *p, int r, int worst);
static const char *region_name(int r);
static void prepare_walks(struct lru_model *m, const struct params *p,
			  struct rng *rng, int fault);

static double base_region_bytes(const struct params *p, int r, int worst)
{
	double n = p->layout.nr_pages;
	double folios = worst ? n : 1.05 * expected_folios(p);

	switch (r) {
	case R_MEMMAP:
		return n * p->layout.desc_size;
	case R_ARRAY:
		return n * sizeof(union lru_slot);
	case R_FOLIOS:
		return p->layout.desc_size == MEMDESC_SIZE ? folios * sizeof(struct page) : 0;
	case R_RMAP:
		return p->work.rmap_share > 0 ?
		       (double)rmap_entries(p->layout.nr_pages) * sizeof(uint32_t) : 0;
	}
	return 0;
}

/* What may still be allocated, and which limit says so. */
struct mem_limit {
	double bytes;		/* < 0: no such limit here */
	const char *name;
};

/* mem_available() is in The host: files and room, has_clflushopt() in
 * Cache state. */
static struct mem_limit mem_available(void);
static int has_clflushopt(void);

static void refuse_size(const struct params *p, double need,
			const struct mem_limit *avail)
{
	char b[3][32], parts[320] = "";
	size_t used = 0;
	int r;

	for (r = 0; r < NR_REGIONS; r++)
		if (region_bytes(p, r, 0) > 0)
			used += snprintf(parts + used, sizeof(parts) - used, "%s%s %s",
					 r ? " + " : "", region_name(r),
					 human(region_bytes(p, r, 0), b[0], 32));
	die("%s %s needs %s (%s), only %s available (%s)",
	    p->size_opt, p->size_arg, human(need, b[1], 32), parts,
	    human(avail->bytes, b[2], 32), avail->name);
}

/* Refuse, before allocating anything, a size this machine cannot hold. */
static void check_fits(const struct params *p)
{
	struct mem_limit avail = mem_available();
	double need = MAX_THREADS * THREAD_STACK + (16UL << 20); /* the rest */
	int r;

	for (r = 0; r < NR_REGIONS; r++)	/* each with its two guards */
		if (region_bytes(p, r, 0) > 0) {
			need += region_bytes(p, r, 0) + 2 * HUGE_PAGE_SIZE;
			room_watch.left += region_bytes(p, r, 0);
		}
	if (avail.bytes >= 0 && need > avail.bytes)
		refuse_size(p, need, &avail);
	room_watch.on = cgroup_room() >= 0;
	if (p->layout.nr_pages > UINT32_MAX)
		die("%s %s is %lu pages; a folio's age, its LRU position, has 32 bits, so at most %lu",
		    p->size_opt, p->size_arg, p->layout.nr_pages, (unsigned long)UINT32_MAX);
}

static void map_model(struct lru_model *m, const struct params *p)
{
	int r;

	memset(m, 0, sizeof(*m));
	m->nr_pages = p->layout.nr_pages;
	m->desc_size = p->layout.desc_size;
	m->nr_shares = p->run.threads;
	m->original = p->run.original;
	m->work = p->work;
	m->clflushopt = has_clflushopt();
	/* Mappings are sized for the worst case; only what the layout
	 * uses is ever faulted in. */
	for (r = 0; r < NR_REGIONS; r++)
		if (region_bytes(p, r, 1) > 0)
			map_region(&m->region[r], region_bytes(p, r, 1), p->run.thp);
	if (m->region[R_RMAP].addr)
		m->rmap_mask = rmap_entries(m->nr_pages) - 1;
	m->cursors = calloc((size_t)p->run.threads * p->work.nr_lists, sizeof(*m->cursors));
	if (!m->cursors)
		die("out of memory for the list cursors");
	if (p->work.access == ACCESS_ISOLATE && p->run.threads > 1) {
		m->locks = calloc((size_t)p->run.threads * p->work.nr_lists, sizeof(*m->locks));
		if (!m->locks)
			die("out of memory for the list locks");
	}
	m->descs = m->region[R_MEMMAP].addr;
	m->lru = m->region[R_ARRAY].addr;
	m->folios = m->region[R_FOLIOS].addr;
	m->rmap = m->region[R_RMAP].addr;
}

static void free_model(struct lru_model *m)
{
	int r;

	free(m->locks);
	free(m->cursors);
	for (r = 0; r < NR_REGIONS; r++)
		unmap_region(&m->region[r]);
}

/* ==== The synthetic layout ============================================== */

/*
 * A build lays the memmap out (which pfns are LRU folios of which order,
 * tail pages, free buddy blocks or other pages), puts the LRU folios in
 * a random order, and links them.  The first build also faults the
 * memory in, which on a large memmap costs more than all the rest (page
 * zeroing and, in a VM, the host's own faults).
 *
 *   fault + lay out     chunks of the memmap, on every CPU
 *   gather              LRU heads in pfn order into the LRU array
 *   (8-byte descs)      give each head a folio, in pfn order
 *   order               shuffle folios (or runs of them) in place
 *   point, link         pfn -> folio, then ages and links, on every CPU
 *
 * Nothing per page is allocated beyond the memmap, the LRU array and
 * (with 8-byte descriptors) the folios.
 */

/* The seed of build b: the user's for the first, derived for the rest. */
static uint64_t build_seed(unsigned long seed, int b)
{
	uint64_t x = seed + (uint64_t)b * 0x2545f4914f6cdd1dULL;

	return b ? splitmix64(&x) : seed;
}

/* Uniform in [0, 1). */
static double rng_unit(struct rng *rng)
{
	return (rng_next(rng) >> 11) * 0x1.0p-53;
}

/* The first word of pfn's descriptor. */
static inline unsigned long *desc_word(const struct lru_model *m,
				       unsigned long pfn)
{
	return (unsigned long *)(m->descs + pfn * m->desc_size);
}

/* The folio whose head is pfn. */
static inline struct folio *pfn_folio(const struct lru_model *m,
				      unsigned long pfn)
{
	if (m->desc_size == MEMDESC_SIZE)
		return PD_FOLIO_PTR(*desc_word(m, pfn));
	return (struct folio *)desc_word(m, pfn);
}

/* A kind of naturally aligned block the layout places. */
struct kind {
	unsigned long type;	/* PD_FOLIO, PD_OTHER or PD_BUDDY */
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
	double mapped;			/* share of folios with PG_MAPPED */
	double memcg;			/* share of folios in the target memcg */
};

static void add_kind(struct layout *lay, unsigned long type, int order,
		     double share)
{
	struct kind *k = &lay->kind[lay->nr_kinds++];
	int o;

	k->type = type;
	k->order = order;
	k->share = share;
	if (order > lay->top)
		lay->top = order;
	for (o = order; o <= MAX_ORDER; o++)
		lay->upto[o] += share;
}

static void plan_layout(struct layout *lay, const struct params *p)
{
	double other = 1 - p->layout.lru_fraction;
	int k;

	memset(lay, 0, sizeof(*lay));
	lay->mapped = p->work.rmap_share;
	lay->memcg = p->layout.memcg_share;
	for (k = 0; k <= MAX_ORDER; k++)
		if (p->layout.folio_share[k] > 0)
			add_kind(lay, PD_FOLIO, k, p->layout.lru_fraction * p->layout.folio_share[k]);
	if (other <= 0)
		return;
	switch (p->layout.non_lru) {
	case NON_LRU_SPREAD:
		add_kind(lay, PD_OTHER, 0, other);
		break;
	case NON_LRU_PAGEBLOCK:
		add_kind(lay, PD_OTHER, PAGEBLOCK_ORDER, other);
		break;
	case NON_LRU_BUDDY:	/* free pages spread evenly over the orders */
		for (k = 0; k <= MAX_ORDER; k++)
			add_kind(lay, PD_BUDDY, k, other / (MAX_ORDER + 1));
		break;
	}
}

/* Where a chunk's layout puts LRU heads, and what it has put. */
struct cursor {
	struct rng mapped_rng;	/* draws PG_MAPPED, apart from the layout's */
	struct rng memcg_rng;	/* draws the memcg, apart from both */
	unsigned long others;	/* LRU folios of other memcgs */
	union lru_slot *slot;	/* the next free slot */
	unsigned long heads;	/* LRU folios laid out */
	unsigned long pages;	/* pages in them */
	unsigned long mapped;	/* folios with PG_MAPPED */
};

/*
 * Write a block of kind k at pfn: its head's word says what it is and
 * its order, tails say they are tails.  An LRU head goes to the cursor,
 * unless it is charged to another memcg than the target (other_memcg);
 * with 8-byte descriptors its folio comes later (make_folios()).
 */
static void put_block(struct lru_model *m, const struct layout *lay,
		      const struct kind *k, unsigned long pfn, struct cursor *cur,
		      int other_memcg)
{
	unsigned long i, nr = 1UL << k->order;
	unsigned long head = k->type | (unsigned long)k->order << PD_ORDER_SHIFT;

	for (i = 1; i < nr; i++)
		*desc_word(m, pfn + i) = k->type == PD_FOLIO ? PD_TAIL : PD_OTHER;
	if (k->type == PD_FOLIO && other_memcg) {
		/* on another memcg's LRU: not on the target's lists, and
		 * the physical walk must read it to skip it */
		head |= PG_LRU | 1UL << PG_MEMCG_SHIFT;
		cur->others++;
	} else if (k->type == PD_FOLIO) {
		head |= PG_LRU;
		if (lay->mapped > 0 && rng_unit(&cur->mapped_rng) < lay->mapped) {
			head |= PG_MAPPED;
			cur->mapped++;
		}
		cur->slot++->pfn = pfn;
		cur->heads++;
		cur->pages += nr;
	}
	*desc_word(m, pfn) = head;
}

/* Lay out the order-k block at pfn, splitting it as the layout says. */
static void place(struct lru_model *m, const struct layout *lay,
		  struct rng *rng, unsigned long pfn, int k, struct cursor *cur)
{
	static const struct kind other_page = { PD_OTHER, 0, 0 };
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
				/* --memcg-share: a folio's memcg, drawn */
				put_block(m, lay, &lay->kind[i], pfn, cur,
					  lay->kind[i].type == PD_FOLIO && lay->memcg < 1 &&
					  rng_unit(&cur->memcg_rng) >= lay->memcg);
				return;
			}
			x -= lay->kind[i].share;
		}
	}
	if (k == 0) {		/* a page no kind fits, at the memmap's end */
		put_block(m, lay, &other_page, pfn, cur, 0);
		return;
	}
	place(m, lay, rng, pfn, k - 1, cur);
	place(m, lay, rng, pfn + (1UL << (k - 1)), k - 1, cur);
}

/* One build's shared state. */
struct build {
	struct lru_model *m;
	const struct layout *lay;
	uint64_t seed;
	int fault;			/* fault the memory in first */
	atomic_size_t next_chunk;	/* the next chunk to fault or lay out */
	struct cursor *chunk;		/* what each chunk laid out */
	int replay;			/* --memmap-from's file, or -1 */
	int cgroup;			/* --memcg-from's file, or -1 */
	unsigned long memcg;		/* --memcg: the target's inode */
	unsigned long pfn_start;	/* the file's pfn of the memmap's pfn 0 */
	unsigned char *own;		/* live replay: a bit per pfn, set for
					 * scan's own pages (own_pfns()) */
};

static size_t nr_chunks(const struct lru_model *m)
{
	return (m->nr_pages + CHUNK_PFNS - 1) / CHUNK_PFNS;
}

/* ==== Replay of a real memmap =========================================== */

/*
 * Replay: --memmap-from lays the memmap out as a /proc/kpageflags file
 * (live or saved) says, --memcg with --memcg-from takes one memcg's
 * folios as the walked LRU, and --lru-order orders them as a trace of
 * mm_lru_insertion did (scripts/trace-lru.sh).  docs/replay.md.
 */

/*
 * --memmap-from: the bits of /proc/kpageflags a layout needs
 * (include/uapi/linux/kernel-page-flags.h).
 */
#define KPF_LRU			(1ULL << 5)
#define KPF_BUDDY		(1ULL << 10)
#define KPF_COMPOUND_TAIL	(1ULL << 16)

/* Entries [start, start + n) of a kpageflags-format file, malloc()ed. */
static uint64_t *read_pfns(int fd, const char *opt, unsigned long start,
			   unsigned long n)
{
	uint64_t *v = malloc(n * sizeof(*v));
	ssize_t got;

	if (!v)
		die("out of memory for %s", opt);
	got = pread(fd, v, n * sizeof(*v), (off_t)(start * sizeof(*v)));
	if (got != (ssize_t)(n * sizeof(*v)))
		die("%s: cannot read pfns %lu to %lu: %s", opt, start, start + n - 1,
		    got < 0 ? strerror(errno) : "the file is shorter than when it was sized");
	return v;
}

#ifdef SCAN_LINUX
/* The pagemap bits own_pfns() reads (Documentation/admin-guide/mm/pagemap.rst). */
#define PM_PRESENT	(1ULL << 63)
#define PM_FILE		(1ULL << 61)	/* a file page or shared: not scan's alone */
#define PM_PFN		((1ULL << 55) - 1)

/* Mark in own the pfns of [start, start + n) that back this process's
 * private pages in [lo, hi); returns how many it found, -1 if pagemap
 * shows no pfns (it does only with CAP_SYS_ADMIN). */
static long own_range(int pagemap, unsigned long lo, unsigned long hi,
		      unsigned long start, unsigned long n, unsigned char *own)
{
	uint64_t e[64], pfn;	/* 512 bytes at a time, on the stack */
	unsigned long page = sysconf(_SC_PAGESIZE), va, k, nr;
	long found = 0;
	ssize_t got;

	for (va = lo; va < hi; va += nr * page) {
		nr = (hi - va) / page < ARRAY_SIZE(e) ? (hi - va) / page : ARRAY_SIZE(e);
		got = pread(pagemap, e, nr * sizeof(*e), (off_t)(va / page * sizeof(*e)));
		if (got < (ssize_t)sizeof(*e))
			return found;	/* [vsyscall] and the like */
		nr = got / sizeof(*e);
		for (k = 0; k < nr; k++) {
			if ((e[k] & (PM_PRESENT | PM_FILE)) != PM_PRESENT)
				continue;
			pfn = e[k] & PM_PFN;
			if (!pfn)
				return -1;
			if (pfn >= start && pfn - start < n) {
				own[(pfn - start) / 8] |= 1 << ((pfn - start) % 8);
				found++;
			}
		}
	}
	return found;
}

/*
 * A live replay reads scan's own pages too: its memmap, faulted in just
 * before, would be read as the machine's LRU folios.  Mark the pfns of
 * scan's private pages in own (a bit per pfn of the window), from
 * /proc/self/maps and /proc/self/pagemap; they were free before scan
 * took them.  Guards hold no pages, and a mapping larger than RAM is a
 * reservation (a sanitizer's shadow), too long to read a page at a time.
 * Returns how many, or -1 if pagemap does not say.
 */
static long own_pfns(unsigned long start, unsigned long n, unsigned char *own)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	int pagemap = open("/proc/self/pagemap", O_RDONLY);
	double ram = (double)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE);
	unsigned long lo, hi;
	long found = 0, got;
	char perms[8];
	int c = '\n';

	while (maps && pagemap >= 0 && found >= 0 && c != EOF) {
		if (fscanf(maps, "%lx-%lx %7s", &lo, &hi, perms) == 3 &&
		    strncmp(perms, "---", 3) && hi - lo <= ram) {
			got = own_range(pagemap, lo, hi, start, n, own);
			found = got < 0 ? -1 : found + got;
		}
		while ((c = getc(maps)) != EOF && c != '\n')
			;	/* the rest of the line */
	}
	if (maps)
		fclose(maps);
	if (pagemap >= 0)
		close(pagemap);
	return maps && pagemap >= 0 ? found : -1;
}
#else
static long own_pfns(unsigned long start, unsigned long n, unsigned char *own)
{
	(void)start;
	(void)n;
	(void)own;
	return -1;
}
#endif

/* Is fd the live /proc/kpageflags? */
static int is_live(int fd)
{
	struct stat st, live;

	return !fstat(fd, &st) && !stat("/proc/kpageflags", &live) &&
	       st.st_dev == live.st_dev && st.st_ino == live.st_ino;
}

/*
 * Lay out pfns [pfn, end) as the file says.  An LRU page that is not a
 * tail heads a folio of the tails after it (its order the largest power
 * of two that fits them and its alignment; tails beyond become other
 * pages).  A BUDDY page heads a free block, whose order the file does
 * not give: the largest aligned block, up to MAX_ORDER, whose other
 * pages carry no flag but BUDDY (a 6.18 kernel marks every free page
 * BUDDY, older ones the head only; the allocator merges free buddies,
 * so the largest such block is the allocator's).  Everything else (slab,
 * page tables, reserved, holes, tails of what is not on the LRU) is an
 * other page.  Folios and blocks are naturally aligned, so none crosses
 * a chunk.  With --memcg, a folio whose head kpagecgroup gives another
 * inode is another memcg's.
 */
static void replay_chunk(struct lru_model *m, const struct build *b,
			 unsigned long pfn, unsigned long end, struct cursor *cur)
{
	unsigned long n = end - pfn, i, size;
	uint64_t *flags = read_pfns(b->replay, "--memmap-from", b->pfn_start + pfn, n);
	uint64_t *cgroup = b->cgroup < 0 ? NULL :
			   read_pfns(b->cgroup, "--memcg-from", b->pfn_start + pfn, n);
	struct kind k = { PD_OTHER, 0, 0 };

	for (i = 0; b->own && i < n; i++)	/* free before scan took it */
		if (b->own[(pfn + i) / 8] >> ((pfn + i) % 8) & 1)
			flags[i] = KPF_BUDDY;
	for (i = 0; i < n; i += 1UL << k.order) {
		k.type = PD_OTHER;
		k.order = 0;
		if ((flags[i] & (KPF_LRU | KPF_COMPOUND_TAIL)) == KPF_LRU) {
			for (size = 1; i + size < n && size < (1UL << MAX_ORDER) &&
				       (flags[i + size] & KPF_COMPOUND_TAIL); size++)
				;
			k.type = PD_FOLIO;
		} else if (flags[i] & KPF_BUDDY) {
			for (size = 1; i + size < n && size < (1UL << MAX_ORDER) &&
				       !(flags[i + size] & ~KPF_BUDDY); size++)
				;
			k.type = PD_BUDDY;
		} else {
			size = 1;
		}
		while ((2UL << k.order) <= size && !((pfn + i) & ((2UL << k.order) - 1)))
			k.order++;
		put_block(m, b->lay, &k, pfn + i, cur,
			  k.type == PD_FOLIO && cgroup && cgroup[i] != b->memcg);
	}
	free(flags);
	free(cgroup);
}

static int open_file(const char *opt, const char *path, struct stat *st);

/* A --lru-order line's bytes at most: a pfn takes 18 ("0x" and 16 hex
 * digits), a comment may say more; a file without newlines (a sparse
 * file, /proc/self/pagemap saved) is refused in its first 4 KiB. */
#define TRACE_LINE_MAX	4096

/*
 * The next line of f into line (len bytes, NUL-terminated), without
 * its newline: its length, or -1 at the end; *nul if it holds a NUL
 * byte.  At most *left more bytes are read (the file's size when it was
 * opened), and of a line TRACE_LINE_MAX + 1, which the caller refuses.
 * A longer line than len keeps its start, so a long pfn is refused at
 * its own line number and shown.
 */
static long trace_line(FILE *f, char *line, size_t len, int *nul, off_t *left)
{
	size_t n = 0;
	int c = EOF;

	*nul = 0;
	while (*left > 0 && n <= TRACE_LINE_MAX && (c = getc_unlocked(f)) != EOF) {
		--*left;
		if (c == '\n')
			break;
		if (n + 1 < len)
			line[n] = c;
		*nul |= !c;
		n++;
	}
	if (c != '\n' && !n)
		return -1;
	line[n + 1 < len ? n : len - 1] = 0;
	return n;
}

/* One pfn of a --lru-order line of n bytes: hex (0x, as the trace
 * prints it) or decimal digits; blank lines and # comments give 0 and
 * no pfn.  A NUL byte is junk: "5\0junk" is not pfn 5. */
static int trace_pfn(const char *path, unsigned long line_no, char *line,
		     size_t n, int nul, unsigned long *pfn)
{
	char *end;

	if (n && strlen(line) == n && line[n - 1] == '\r')
		line[--n] = 0;
	if (!n || line[0] == '#')
		return 0;
	if (nul)
		die("--lru-order '%s' line %lu: a NUL byte after '%.40s': not a pfn", path, line_no, line);
	errno = 0;
	*pfn = strtoul(line, &end, !strncmp(line, "0x", 2) ? 16 : 10);
	if (line[0] < '0' || line[0] > '9' || *end || errno || (size_t)(end - line) != n)
		die("--lru-order '%s' line %lu: '%.40s%s' is not a pfn", path, line_no, line,
		    strlen(line) < n ? "..." : "");
	return 1;
}

/*
 * The trace's pfns inside the memmap's window, as model pfns, in the
 * file's order; the file's insertions counted in *lines.  Read as far as
 * its size when opened, as --memmap-from is, and never past a line of
 * TRACE_LINE_MAX: /proc/self/pagemap never ends, and a sparse terabyte
 * would be read whole looking for a newline.
 */
static unsigned long *read_trace(const char *path, const struct layout_knobs *lay,
				 unsigned long nr_pages, unsigned long *nr, unsigned long *lines)
{
	struct stat st;
	FILE *f = fdopen(open_file("--lru-order", path, &st), "r");
	unsigned long *pfns = NULL, cap = 0, pfn, line_no = 0;
	char line[128];
	off_t left = st.st_size;
	long len;
	int nul;

	if (!f)
		die("--lru-order '%s': %s", path, strerror(errno));
	flockfile(f);	/* for getc_unlocked() */
	if (!left && getc_unlocked(f) != EOF)
		die("--lru-order '%s': says it is empty but is not, as a /proc or /sys file does: not a saved trace", path);
	*nr = *lines = 0;
	while ((len = trace_line(f, line, sizeof(line), &nul, &left)) >= 0) {
		if (len > TRACE_LINE_MAX && nul)
			die("--lru-order '%s' line %lu: over %d bytes, NUL bytes among them: a binary or sparse file, not a trace of pfns",
			    path, line_no + 1, TRACE_LINE_MAX);
		if (len > TRACE_LINE_MAX)
			die("--lru-order '%s' line %lu: over %d bytes ('%.40s...'): not a trace of pfns",
			    path, line_no + 1, TRACE_LINE_MAX, line);
		if (!trace_pfn(path, ++line_no, line, len, nul, &pfn))
			continue;
		++*lines;
		if (pfn < lay->pfn_start || pfn - lay->pfn_start >= nr_pages)
			continue;
		if (*nr == UINT32_MAX - 2)
			die("--lru-order '%s': over %u pfns in the memmap's window", path, UINT32_MAX - 2);
		if (*nr == cap) {
			cap = cap ? 2 * cap : 4096;
			pfns = realloc(pfns, cap * sizeof(*pfns));
			if (!pfns)
				die("out of memory for --lru-order");
		}
		pfns[(*nr)++] = pfn - lay->pfn_start;
	}
	if (ferror(f))
		die("--lru-order '%s': %s", path, strerror(errno));
	if (getc_unlocked(f) != EOF)
		die("--lru-order '%s': it grew while it was read: give a finished trace", path);
	funlockfile(f);
	fclose(f);
	return pfns;
}

/* The pfn of the first LRU folio after the folio at pfn, or nr_pages. */
static unsigned long next_lru_pfn(const struct lru_model *m, unsigned long pfn)
{
	pfn += 1UL << PD_ORDER(*desc_word(m, pfn));
	while (pfn < m->nr_pages && (*desc_word(m, pfn) & PD_TYPE) != PD_FOLIO)
		pfn++;
	return pfn;
}

/*
 * --lru-order: the order a trace of mm_lru_insertion gave, for the
 * folios whose head pfn it names.  The walks go from the LRU's tail,
 * the oldest: folios the trace never names were added before it began,
 * so they come first, in the order the seed gave; then the named ones
 * by their last insertion (a folio added again, after isolation or
 * rotation, counts where it went in last).  rank[pfn] is 0 for no LRU
 * folio, 1 for one the trace does not name, i + 2 for the i-th pfn.
 */
static void order_from_trace(struct lru_model *m, const struct layout_knobs *lay)
{
	unsigned long nr, lines, i, k, pos = 0;
	unsigned long *pfns = read_trace(lay->lru_order, lay, m->nr_pages, &nr, &lines);
	uint32_t *rank = calloc(m->nr_pages, sizeof(*rank));

	if (!rank)
		die("out of memory for --lru-order");
	memset(&m->trace, 0, sizeof(m->trace));
	m->trace.lines = lines;
	for (k = 0; k < m->nr_lru; k++)
		rank[m->lru[k].pfn] = 1;
	for (i = 0; i < nr; i++)
		if (rank[pfns[i]])
			rank[pfns[i]] = i + 2;
		else
			m->trace.off_lru++;
	for (k = 0; k < m->nr_lru; k++)	/* the unnamed, in their order */
		if (rank[m->lru[k].pfn] == 1)
			m->lru[pos++].pfn = m->lru[k].pfn;
	for (i = 0; i < nr; i++)	/* the named, by last insertion */
		if (rank[pfns[i]] == i + 2) {
			if (!m->trace.ordered || pfns[i] != next_lru_pfn(m, m->lru[pos - 1].pfn))
				m->trace.runs++;
			m->lru[pos++].pfn = pfns[i];
			m->trace.ordered++;
		}
	free(rank);
	free(pfns);
	if (!m->trace.ordered)
		die("--lru-order '%s': none of its %lu pfns heads an LRU folio of the memmap",
		    lay->lru_order, m->trace.lines);
}

/* What a file that is not a regular one is, for the refusal. */
static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a pipe or FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	return "not a file";
}

/*
 * Open a file that a replay reads (--memmap-from, --memcg-from,
 * --lru-order): a regular file only, since /dev/zero never ends and a
 * pipe cannot be read again at an offset.  O_NONBLOCK, so a FIFO with no
 * writer cannot hang open(); the live /proc files are regular files.
 */
static int open_file(const char *opt, const char *path, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	if (fd < 0 || fstat(fd, st))
		die("%s '%s': %s", opt, path, strerror(errno));
	if (S_ISFIFO(st->st_mode))
		die("%s '%s': a pipe or FIFO, not a file: save what it gives to a file, and give that", opt, path);
	if (!S_ISREG(st->st_mode))
		die("%s '%s': %s, not a regular file", opt, path, file_kind(st->st_mode));
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

/*
 * The bytes of a file that says it is empty, as the live /proc files
 * do: found by reading 8 bytes at a time where its end may be, halving
 * the range each time, so a file of any length costs some 60 reads.
 */
static unsigned long long probe_size(int fd, const char *opt, const char *path)
{
	/* entries [0, lo) are there, entry hi is not: hi * 8 fits off_t */
	uint64_t lo = 0, hi = (uint64_t)1 << (sizeof(off_t) * CHAR_BIT - 5), mid;
	char entry[8];
	ssize_t got;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		got = pread(fd, entry, sizeof(entry), (off_t)(mid * sizeof(entry)));
		if (got < 0)
			die("%s '%s': %s", opt, path, strerror(errno));
		if (got > 0 && got < (ssize_t)sizeof(entry))
			return mid * sizeof(entry) + got;	/* a part entry */
		if (got)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo * sizeof(entry);
}

/* The pfns of a kpageflags-format file: 8 bytes each.  Its size, or
 * where it says 0 (the live /proc files), probe_size(): never read to
 * its end, which may be a terabyte away. */
static unsigned long file_pfns(const char *opt, const char *path)
{
	struct stat st;
	int fd = open_file(opt, path, &st);
	unsigned long long bytes = st.st_size ? (unsigned long long)st.st_size :
				   probe_size(fd, opt, path);

	close(fd);
	if (!bytes || bytes % 8)
		die("%s '%s': %llu bytes, not a whole number of 8-byte pfn entries", opt, path, bytes);
	return bytes / 8;
}

/* --memmap-from sets the size: the file's pfns, or the --pfns window. */
static void size_from_file(struct params *p)
{
	unsigned long total = file_pfns("--memmap-from", p->layout.memmap_from);
	unsigned long start = p->layout.pfn_start, count = p->layout.pfn_count, cgroups;

	if (start >= total || (count && count > total - start))
		die("--pfns %lu:%lu: '%s' has pfns 0 to %lu", start, count,
		    p->layout.memmap_from, total - 1);
	p->layout.nr_pages = count ? count : total - start;
	p->size_opt = "--memmap-from";
	p->size_arg = p->layout.memmap_from;
	if (!p->layout.memcg)
		return;
	/* a pair: the live files, or two saved from the same pfns */
	if (!p->layout.memcg_from)
		p->layout.memcg_from = "/proc/kpagecgroup";
	cgroups = file_pfns("--memcg-from", p->layout.memcg_from);
	if (cgroups != total)
		die("--memcg-from '%s': %lu pfns, but '%s' has %lu: not saved from the same pfns",
		    p->layout.memcg_from, cgroups, p->layout.memmap_from, total);
}

/* ==== Build passes ====================================================== */

/* The passes of a build that share their work among the CPUs, each
 * thread over a part, with the same result whatever the threads. */

/* Defined in Threads: setup's work on every CPU. */
static void run_parallel(void (*fn)(void *arg, int i, int nr), void *arg,
			 int nr);
static int setup_threads(const struct lru_model *m);

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
	unsigned long pfn, end, unit = 1UL << b->lay->top;
	struct cursor *cur;
	struct rng rng;
	size_t c;

	(void)i;
	(void)nr;
	while ((c = atomic_fetch_add(&b->next_chunk, 1)) < nr_chunks(m)) {
		pfn = c * CHUNK_PFNS;
		end = pfn + CHUNK_PFNS < m->nr_pages ? pfn + CHUNK_PFNS : m->nr_pages;
		if (b->fault) {
			fault_in(&m->region[R_ARRAY], pfn * sizeof(union lru_slot), end * sizeof(union lru_slot));
			fault_in(&m->region[R_MEMMAP], pfn * m->desc_size, end * m->desc_size);
		}
		rng_seed(&rng, b->seed ^ (0x9e3779b97f4a7c15ULL * (c + 1)));
		cur = &b->chunk[c];
		memset(cur, 0, sizeof(*cur));
		rng_seed(&cur->mapped_rng, b->seed ^ (0x6a09e667f3bcc909ULL * (c + 1)));
		rng_seed(&cur->memcg_rng, b->seed ^ (0x3c6ef372fe94f82bULL * (c + 1)));
		cur->slot = &m->lru[pfn];
		if (b->replay >= 0)
			replay_chunk(m, b, pfn, end, cur);
		else
			for (; pfn < end; pfn += unit)
				place(m, b->lay, &rng, pfn, b->lay->top, cur);
	}
}

/* Move each chunk's heads down so the LRU array lists them all. */
static void gather_heads(struct build *b)
{
	struct lru_model *m = b->m;
	size_t c;

	m->nr_lru = m->lru_pages = m->nr_mapped = m->nr_others = 0;
	for (c = 0; c < nr_chunks(m); c++) {
		memmove(&m->lru[m->nr_lru], &m->lru[c * CHUNK_PFNS],
			b->chunk[c].heads * sizeof(*m->lru));
		m->nr_lru += b->chunk[c].heads;
		m->lru_pages += b->chunk[c].pages;
		m->nr_mapped += b->chunk[c].mapped;
		m->nr_others += b->chunk[c].others;
	}
}

/* Part i of nr of [0, n): the range a thread takes of a split loop. */
static void split(unsigned long n, int i, int nr, unsigned long *start,
		  unsigned long *end)
{
	*start = (uint64_t)n * i / nr;
	*end = (uint64_t)n * (i + 1) / nr;
}

/* Fault in part i of nr of a region's first len bytes. */
struct fault_job {
	struct region *r;
	size_t len;
};

static void fault_part(void *arg, int i, int nr)
{
	struct fault_job *job = arg;
	unsigned long start, end;

	split(job->len, i, nr, &start, &end);
	fault_in(job->r, start, end);
}

/*
 * With 8-byte descriptors, give the i-th LRU head (in pfn order) the
 * i-th folio, as a memdesc allocator fed by fresh memory would: its
 * type, order and PG_MAPPED move into the folio, and the descriptor
 * keeps its type and order and points to it.
 */
static void make_folios_part(void *arg, int i, int nr)
{
	struct lru_model *m = arg;
	unsigned long k, start, end, *word;
	struct folio *folio;

	split(m->nr_lru, i, nr, &start, &end);
	for (k = start; k < end; k++) {
		word = desc_word(m, m->lru[k].pfn);
		folio = &m->folios[k].folio;
		folio->flags = *word & (63 | PG_LRU | PG_MAPPED);
		m->folios[k].index = m->lru[k].pfn;
		*word = (*word & 63) | (uintptr_t)folio;
	}
}

static void make_folios(struct lru_model *m, int fault)
{
	struct fault_job job = { &m->region[R_FOLIOS], m->nr_lru * sizeof(struct page) };
	int nr = setup_threads(m);

	if (fault)
		run_parallel(fault_part, &job, nr);
	run_parallel(make_folios_part, m, nr);
}

/* ==== LRU order and links =============================================== */

/* The LRU's order (a shuffle, runs of pfn-adjacent folios, or a trace's),
 * its lists and links, and the structures some walks read beside it. */

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

/* Where order_runs() keeps the i-th head's pfn: an age no walk reads yet
 * (the i-th descriptor's, or with 8-byte descriptors the i-th folio's). */
static unsigned int *run_scratch(const struct lru_model *m, unsigned long i)
{
	if (m->desc_size == MEMDESC_SIZE)
		return &m->folios[i].folio.age;
	return &((struct folio *)desc_word(m, i))->age;
}

/*
 * LRU order with locality: cut the folios (in pfn order) into runs of
 * mean length L, shuffle the runs, and lay them end to end.  The pfns
 * wait in ages not yet written while the LRU array holds the runs; run
 * r is expanded to the array's positions past all runs before it, which
 * never overwrites a run still to be read.
 */
static void order_runs(struct lru_model *m, struct rng *rng, double locality)
{
	unsigned long n = m->nr_lru, k, r, nr_runs = 0, pos, start, len;

	for (k = 0; k < n; k++)
		*run_scratch(m, k) = m->lru[k].pfn;
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
			m->lru[pos + k].pfn = *run_scratch(m, start + k);
	}
}

/* Turn the pfns in LRU positions [start, end) into folio pointers. */
static void point_part(void *arg, int i, int nr)
{
	struct lru_model *m = arg;
	unsigned long k, start, end;

	split(m->nr_lru, i, nr, &start, &end);
	for (k = start; k < end; k++)
		m->lru[k].folio = pfn_folio(m, m->lru[k].pfn);
}

/*
 * Lists.  LRU positions split into -t shares, one per walking thread;
 * a share's folios are dealt to its lists in chunks, round robin:
 *
 *   positions  0 1 2 | 3 4 5 | 6 7 8 | 9 ...     (chunk 3, 2 lists)
 *   list       0 0 0 | 1 1 1 | 0 0 0 | 1 ...
 *
 * so walking the lists in turn, a chunk from each, visits the positions
 * in order: ListLRU and ArrayLRU see the same order.  With one list the
 * whole share is one chunk.
 */
static void share_range(const struct lru_model *m, int t, unsigned long *start,
			unsigned long *end)
{
	split(m->nr_lru, t, m->nr_shares, start, end);
}

static unsigned long share_chunk(const struct lru_model *m, unsigned long len)
{
	return m->work.nr_lists > 1 ? m->work.chunk : (len ? len : 1);
}

/* Folios in list j of a share of len positions. */
static unsigned long list_len(const struct lru_model *m, unsigned long len,
			      int j)
{
	unsigned long chunk = share_chunk(m, len);
	unsigned long chunks = (len + chunk - 1) / chunk, n;

	if ((unsigned long)j >= chunks)
		return 0;
	n = ((chunks - 1 - j) / m->work.nr_lists + 1) * chunk;
	if ((chunks - 1) % m->work.nr_lists == (unsigned long)j)
		n -= chunks * chunk - len;
	return n;
}

/* The position after k in k's list, in the share [start, end). */
static unsigned long list_next(const struct lru_model *m, unsigned long start,
			       unsigned long end, unsigned long k)
{
	unsigned long len = end - start, i = k - start;
	unsigned long chunk = share_chunk(m, len);

	if ((i + 1) % chunk && i + 1 < len)
		return k + 1;
	i = (i / chunk + m->work.nr_lists) * chunk;
	if (i < len)
		return start + i;
	return start + (k - start) / chunk % m->work.nr_lists * chunk;
}

/* The list of position k, numbered across all shares. */
static unsigned int list_of(const struct lru_model *m, unsigned long start,
			    unsigned long end, int t, unsigned long k)
{
	return t * m->work.nr_lists + (k - start) / share_chunk(m, end - start) % m->work.nr_lists;
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
	unsigned long start, end, s0, s1, k, lo, hi;
	struct folio *folio, *next;
	int t;

	split(m->nr_lru, i, nr, &start, &end);
	for (t = 0; t < m->nr_shares; t++) {
		share_range(m, t, &s0, &s1);
		lo = s0 > start ? s0 : start;
		hi = s1 < end ? s1 : end;
		for (k = lo; k < hi; k++) {
			if (k + PREFETCH_DIST < hi)
				PREFETCH_W(lru[k + PREFETCH_DIST].folio);
			folio = lru[k].folio;
			next = lru[list_next(m, s0, s1, k)].folio;
			folio->flags &= ~(0xffffUL << PG_LIST_SHIFT);
			folio->flags |= PG_LRU | PG_REFERENCED |
					(unsigned long)list_of(m, s0, s1, t, k) << PG_LIST_SHIFT;
			folio->age = k;
			folio->refcount = 0;
			folio->next = next;
			next->prev = folio;
		}
	}
}

static void link_lru(struct lru_model *m)
{
	run_parallel(link_part, m, setup_threads(m));
}

/*
 * The rmap pool: random indices into itself, so each hop of a mapped
 * folio's rmap walk is a dependent miss, as following anon_vma, VMA and
 * page table pointers is.  Filled in blocks with streams of their own,
 * so the pool is the same whatever the number of CPUs.
 */
static void rmap_part(void *arg, int i, int nr)
{
	struct lru_model *m = arg;
	unsigned long entries = m->rmap_mask + 1, first, last, b, k, end;
	struct rng rng;

	split((entries + CHUNK_PFNS - 1) / CHUNK_PFNS, i, nr, &first, &last);
	for (b = first; b < last; b++) {
		k = b * CHUNK_PFNS;
		end = k + CHUNK_PFNS < entries ? k + CHUNK_PFNS : entries;
		fault_in(&m->region[R_RMAP], k * sizeof(*m->rmap), end * sizeof(*m->rmap));
		rng_seed(&rng, 0x726d6170ULL ^ b);
		for (; k < end; k++)
			m->rmap[k] = rng_next(&rng) & m->rmap_mask;
	}
}

/* Levels of a 64-way tree over n entries, and nodes on all levels. */
static int xa_height(unsigned long n, unsigned long *nodes)
{
	int height = 1;

	*nodes = 0;
	for (;;) {
		n = (n + XA_SLOTS - 1) / XA_SLOTS;
		*nodes += n;
		if (n <= 1)
			return height;
		height++;
	}
}

/*
 * Build XArrayLRU's tree over the LRU array: leaves hold the folio
 * pointers in LRU order, 64 to a node, and every node sits at a random
 * place in a pool, as slab-allocated xa_nodes do.
 */
static void build_xarray(struct lru_model *m, struct xa_node *pool,
			 unsigned long nodes, struct rng *rng)
{
	unsigned long count = m->nr_lru, width, k, i, e, tmp;
	unsigned long first = 0, below = 0;
	struct xa_node *node, *child;
	uint32_t *place;
	int h;

	place = malloc(nodes * sizeof(*place));
	if (!place)
		die("out of memory for the XArrayLRU tree");
	for (k = 0; k < nodes; k++)
		place[k] = k;
	for (k = nodes - 1; k > 0; k--) {
		i = rng_below(rng, k + 1);
		tmp = place[k];
		place[k] = place[i];
		place[i] = tmp;
	}
	for (h = 0; h < m->xa_height; h++) {
		width = (count + XA_SLOTS - 1) / XA_SLOTS;
		for (k = 0; k < width; k++) {
			node = &pool[place[first + k]];
			memset(node, 0, sizeof(*node));
			node->shift = h * XA_SHIFT;
			node->count = count - k * XA_SLOTS < XA_SLOTS ?
				      count - k * XA_SLOTS : XA_SLOTS;
			for (i = 0; i < node->count; i++) {
				e = k * XA_SLOTS + i;
				if (!h) {
					node->slots[i] = m->lru[e].folio;
					continue;
				}
				child = &pool[place[below + e]];
				child->parent = node;
				child->offset = i;
				node->slots[i] = child;
			}
		}
		below = first;
		first += width;
		count = width;
	}
	m->xa_root = &pool[place[below]];
	free(place);
}

/* ==== A build =========================================================== */

/* build_model(): one model from a seed, every pass in turn; the first
 * build faults the memory in.  Its helpers first. */

/* A live replay: fault the memmap and LRU array in first, so the pages
 * they take are scan's own before the flags are read, and find them. */
static void find_own(struct lru_model *m, struct build *b, int nr)
{
	struct fault_job memmap = { &m->region[R_MEMMAP], m->nr_pages * m->desc_size };
	struct fault_job array = { &m->region[R_ARRAY], m->nr_pages * sizeof(union lru_slot) };

	if (b->fault) {
		run_parallel(fault_part, &memmap, nr);
		run_parallel(fault_part, &array, nr);
		b->fault = 0;
	}
	b->own = calloc(m->nr_pages / 8 + 1, 1);
	if (!b->own)
		die("out of memory");
	m->live = 1;
	m->nr_own = own_pfns(b->pfn_start, m->nr_pages, b->own);
}

/*
 * Where --original's ListLRU starts: where scan.c 1.1's did, at
 * memmap[0], pfn 0's folio, which has a random place in LRU order, not
 * the head.  Where the caches hold much of the memmap this can count:
 * the array walk leaves LRU order's last folios there, a chase from the
 * head evicts them before it comes to them, one from a random place
 * may meet some of them first.  NULL (from the head) where pfn 0 is no
 * folio on the walked LRU, or with -t.
 */
static struct folio *original_list_from(const struct lru_model *m)
{
	struct folio *folio;

	if (!m->original || m->nr_shares > 1 || (*desc_word(m, 0) & PD_TYPE) != PD_FOLIO)
		return NULL;
	folio = pfn_folio(m, 0);
	if (folio->age >= m->nr_lru || m->lru[folio->age].folio != folio)
		return NULL;
	return folio;
}

/*
 * --original: fault the memory in the order scan.c 1.1 did, before the
 * layout touches it: the LRU array in address order (its first loop
 * filled it), then the memmap's pages in a random order (its links).
 * A stream of its own, so the model does not depend on it.
 */
static void fault_as_original(struct lru_model *m, uint64_t seed)
{
	fault_in(&m->region[R_ARRAY], 0, m->nr_pages * sizeof(union lru_slot));
	fault_in_shuffled(&m->region[R_MEMMAP], m->nr_pages * m->desc_size,
			  seed ^ 0xa54ff53a5f1d36f1ULL);
}

/* Build the model of seed; fault the memory in first if asked. */
static void build_model(struct lru_model *m, const struct params *p,
			uint64_t seed, int fault)
{
	int nr = setup_threads(m);
	/* off the stack; main builds one model at a time */
	static struct layout lay;
	static struct stat st;
	struct build b = { .m = m, .lay = &lay, .seed = seed, .fault = fault,
			   .replay = -1, .cgroup = -1, .memcg = p->layout.memcg,
			   .pfn_start = p->layout.pfn_start };
	struct rng rng;

	plan_layout(&lay, p);
	if (p->layout.memmap_from)
		b.replay = open_file("--memmap-from", p->layout.memmap_from, &st);
	if (p->layout.memcg)
		b.cgroup = open_file("--memcg-from", p->layout.memcg_from, &st);
	b.chunk = calloc(nr_chunks(m), sizeof(*b.chunk));
	if (!b.chunk)
		die("out of memory");
	if (b.replay >= 0 && is_live(b.replay))
		find_own(m, &b, nr);
	if (fault && m->original) {	/* and the layout faults nothing */
		fault_as_original(m, seed);
		b.fault = 0;
	}
	atomic_init(&b.next_chunk, 0);
	run_parallel(layout_part, &b, nr);
	gather_heads(&b);
	free(b.chunk);
	free(b.own);
	if (b.replay >= 0)
		close(b.replay);
	if (b.cgroup >= 0)
		close(b.cgroup);
	if (!m->nr_lru && p->layout.memcg)
		die("--memcg %lu: no LRU folio of that memcg in pfns %lu to %lu", p->layout.memcg,
		    p->layout.pfn_start, p->layout.pfn_start + m->nr_pages - 1);
	if (!m->nr_lru && m->nr_others)
		die("--memcg-share %g: none of the %lu LRU folios fell in the target memcg: raise --memcg-share or the size",
		    p->layout.memcg_share, m->nr_others);
	if (!m->nr_lru && p->layout.memmap_from)
		die("--memmap-from '%s': no LRU page in pfns %lu to %lu: give a window with some (--pfns)",
		    p->layout.memmap_from, p->layout.pfn_start, p->layout.pfn_start + m->nr_pages - 1);
	if (!m->nr_lru)
		die("the layout put no folio on the LRU: raise --lru-fraction or the size");
	if (m->desc_size == MEMDESC_SIZE)
		make_folios(m, fault);
	rng_seed(&rng, seed);
	if (p->layout.locality > 1)
		order_runs(m, &rng, p->layout.locality);
	else
		shuffle(m->lru, m->nr_lru, &rng);
	if (p->layout.lru_order)
		order_from_trace(m, &p->layout);
	run_parallel(point_part, m, nr);
	link_lru(m);
	m->list_from = original_list_from(m);
	if (fault && m->rmap)
		run_parallel(rmap_part, m, nr);
	m->region[R_MEMMAP].used = m->nr_pages * m->desc_size;
	m->region[R_ARRAY].used = m->nr_lru * sizeof(*m->lru);
	if (m->folios)
		m->region[R_FOLIOS].used = m->nr_lru * sizeof(struct page);
	if (m->rmap)
		m->region[R_RMAP].used = (m->rmap_mask + 1) * sizeof(*m->rmap);
	prepare_walks(m, p, &rng, fault);
}

/* ==== The walk table ==================================================== */

/*
 * The walk table.  The first entry is the baseline every ratio divides
 * by.  label names the walk in the ratio lines ("faster than %s"),
 * time_label in the time lines ("%s scan in"), as the original printed
 * them.  To add a walk:
 *
 *   1. write its kernel in Walk kernels (below: it needs Per-folio
 *      work's visit()), walk_NAME(m, share): a template taking the
 *      per-folio work as constants (see WITH_WORK) and summing ages and
 *      folios over its share, as the others do; declare it with the
 *      others beside the table;
 *   2. if it reads a structure of its own, write bytes (what the
 *      structure takes, expected and worst case) and prepare (build it
 *      in its region, after the LRU is linked); the region is mapped,
 *      counted by the fit check, named in the refusal, flushed before
 *      each timed walk and freed for you;
 *   3. add its row here, with the limit try_bound() measures (at most
 *      NR_WALKS_MAX rows);
 *   4. name it in scan.1 (DESCRIPTION and --walks), README's table of
 *      walks, docs/output.md (the walk and bound columns) and a section
 *      of docs/model.md: no test holds those to the table.
 *
 * Usage, --walks, timing, the self-check, the bounds and every output
 * line read the table; tests/t-codegen.sh finds walk_* kernels by name.
 */
struct walk {
	const char *name;	/* short name for --walks and scripts */
	const char *label;	/* in "Physical scan is %f faster than %s" */
	const char *time_label;	/* in "%s scan in %fs" */
	struct walk_result (*fn)(const struct lru_model *m, int share);
	const char *help;	/* one line for usage */
	int original_turn;	/* --original times it in this turn, from 1,
				 * as scan.c 1.1 did; 0: not the original's */
	enum bound bound;	/* the limit its loop is held against */
	int at_bound;		/* at the defaults its loop is that bound's
				 * loads and no more: off it, a warning */
	/* a structure of its own, in region R_WALK + its index */
	const char *region_name; /* in the refusal message */
	double (*bytes)(const struct params *p, int worst);
	void (*prepare)(struct lru_model *m, struct region *r,
			struct rng *rng, int fault);
	/* a walk that visits some of the folios: what it must return, and
	 * its untimed work after each timed walk (re-marking, checks) */
	struct walk_result (*expect)(const struct lru_model *m);
	void (*after)(struct lru_model *m);
};

/* The kernels and the XArray's structure, defined below the table. */
static struct walk_result walk_physical(const struct lru_model *m, int share);
static struct walk_result walk_list(const struct lru_model *m, int share);
static struct walk_result walk_array(const struct lru_model *m, int share);
static struct walk_result walk_xarray(const struct lru_model *m, int share);
static double xarray_bytes(const struct params *p, int worst);
static void prepare_xarray(struct lru_model *m, struct region *r,
			   struct rng *rng, int fault);
static struct walk_result walk_pagetable(const struct lru_model *m, int share);
static double pagetable_bytes(const struct params *p, int worst);
static void prepare_pagetable(struct lru_model *m, struct region *r,
			      struct rng *rng, int fault);
static struct walk_result pagetable_expect(const struct lru_model *m);
static void pagetable_remark(struct lru_model *m);

static const struct walk walks[] = {
	{ "physical", "Physical", "Physical", walk_physical,
	  "every descriptor in pfn order", .original_turn = 1,
	  .bound = BOUND_STREAM, .at_bound = 1 },
	{ "list", "ListLRU", "ListLRU", walk_list,
	  "follow lru.next around each list", .original_turn = 3,
	  .bound = BOUND_CHASE, .at_bound = 1 },
	{ "array", "ArrayLRU", "Array", walk_array,
	  "folio pointers in LRU order", .original_turn = 2,
	  .bound = BOUND_RANDOM, .at_bound = 1 },
	{ "xarray", "XArrayLRU", "XArray", walk_xarray,
	  "the same pointers in a 64-way radix tree", .bound = BOUND_RANDOM,
	  .region_name = "XArray nodes", .bytes = xarray_bytes,
	  .prepare = prepare_xarray },
	/* MGLRU's aging: only young PTEs lead to a struct page, so it
	 * visits the young folios, not every one (pagetable_expect()) */
	{ "pagetable", "PageTable", "PageTable", walk_pagetable,
	  "page tables in virtual order, young PTEs' folios (MGLRU aging)",
	  .bound = BOUND_PAGETABLE, .at_bound = 1, .region_name = "page tables",
	  .bytes = pagetable_bytes, .prepare = prepare_pagetable,
	  .expect = pagetable_expect, .after = pagetable_remark },
};

#define NR_WALKS	((int)ARRAY_SIZE(walks))
_Static_assert(ARRAY_SIZE(walks) <= NR_WALKS_MAX, "a region per walk");

static int walk_timed(const struct params *p, int w)
{
	int s;

	for (s = 0; s < p->run.nr_walks; s++)
		if (p->run.walk[s] == w)
			return 1;
	return 0;
}

static double region_bytes(const struct params *p, int r, int worst)
{
	int w = r - R_WALK;

	if (r < R_WALK)
		return base_region_bytes(p, r, worst);
	return w < NR_WALKS && walks[w].bytes && walk_timed(p, w) ?
	       walks[w].bytes(p, worst) : 0;
}

static const char *region_name(int r)
{
	static const char *const base[R_WALK] = {
		[R_MEMMAP] = "memmap", [R_ARRAY] = "LRU array",
		[R_FOLIOS] = "folios", [R_RMAP] = "rmap pool",
	};

	return r < R_WALK ? base[r] : walks[r - R_WALK].region_name;
}

/* Build what each timed walk needs beyond the LRU, in the order timed. */
static void prepare_walks(struct lru_model *m, const struct params *p,
			  struct rng *rng, int fault)
{
	int s, w;

	for (s = 0; s < p->run.nr_walks; s++) {
		w = p->run.walk[s];
		if (walks[w].prepare)
			walks[w].prepare(m, &m->region[R_WALK + w], rng, fault);
	}
}

/* The tree's nodes, for a tree over the folios expected, or over every
 * pfn (the worst case). */
static double xarray_bytes(const struct params *p, int worst)
{
	unsigned long nodes;

	xa_height(worst ? p->layout.nr_pages : 1.05 * expected_folios(p) + 1, &nodes);
	return (double)nodes * sizeof(struct xa_node);
}

/* Build the tree in region r, after the LRU is linked. */
static void prepare_xarray(struct lru_model *m, struct region *r,
			   struct rng *rng, int fault)
{
	struct fault_job job = { r, 0 };
	unsigned long nodes;

	m->xa_height = xa_height(m->nr_lru, &nodes);
	r->used = job.len = nodes * sizeof(struct xa_node);
	if (fault)
		run_parallel(fault_part, &job, setup_threads(m));
	build_xarray(m, r->addr, nodes, rng);
}

/* ==== The PageTable walk's tables ======================================= */

/*
 * The PageTable walk's page tables.  The mapped folios (--mapped of the
 * walked LRU folios, drawn in pfn order) go into virtual order in runs:
 * a PTE maps the next mapped folio in pfn order with the chance
 * --pte-adjacent, else a run ends, and the runs are shuffled.  The
 * order is cut into PT_PROCS processes, each starting a PMD table of
 * its own.  A folio of order 9 or more is a PMD leaf (order 10 two
 * leaves; the kernel's walk meets none so large on x86-64, where THP
 * and the page cache stop at order 9 and hugetlb VMAs are skipped,
 * should_skip_vma()); a smaller one takes
 * 2^order PTEs, aligned as mTHP's addresses are, so none crosses a PTE
 * table.  --young-tables of the PTE tables hold the young folios, each
 * young there with the chance --young over --young-tables; a young
 * folio's PTEs all have the accessed bit, and so does its table's PMD
 * entry, as the MMU sets it in the entries it walks through.
 */
#define PT_PROCS	16	/* processes: PMD tables enough for -t's shares */

/* PMD tables, at most, over pte PTE tables and n pages' leaves: each
 * process may leave one partly filled. */
static double pagetable_pmd_tables(double pte, double n)
{
	return (pte + n / PT_ENTRIES) / PT_ENTRIES + PT_PROCS + 1;
}

/* The tables for n mapped pages: waste is PTE slots per page, 1.1 as
 * expected, 3 at worst (alignment can double the slots, and each leaf
 * may close a PTE table early). */
static double pagetable_bytes(const struct params *p, int worst)
{
	double n = p->layout.nr_pages, waste = 3, pte;

	if (!worst) {
		n *= p->layout.lru_fraction * p->work.pt_mapped;
		waste = 1.1;
	}
	pte = waste * n / PT_ENTRIES + PT_PROCS + 1;
	return (pte + pagetable_pmd_tables(3.0 * p->layout.nr_pages / PT_ENTRIES + PT_PROCS + 1,
					   p->layout.nr_pages) + 1) * 4096;
}

/* Where the builder is: the next free table, the current PMD table and
 * entry, the current PTE table, and whether its folios may be young. */
struct pt_cursor {
	struct lru_model *m;
	struct region *r;
	char *next;		/* the next free PTE table */
	uint64_t *pmd;		/* the current PMD table */
	unsigned long pmd_i;	/* its next free entry */
	uint64_t *pte;		/* the current PTE table, NULL if closed */
	unsigned long pte_i;
	uint64_t *pte_pmd;	/* the PMD entry that points to it */
	int hot;		/* its folios may be young */
	struct rng rng;
};

static uint64_t *pt_table(struct pt_cursor *c, char **at)
{
	char *t = *at;

	if (t + 4096 > (char *)c->r->addr + c->r->len)
		die("self-check failed: the page tables outgrew their region");
	*at = t + 4096;
	memset(t, 0, 4096);
	return (uint64_t *)t;
}

/* The next PMD entry, in a new PMD table if this one is full (or a
 * process starts one); align: entries a leaf needs, aligned. */
static uint64_t *pt_pmd_entry(struct pt_cursor *c, unsigned long align)
{
	struct pt_model *pt = &c->m->pt;
	char *at;

	c->pmd_i = (c->pmd_i + align - 1) & ~(align - 1);
	if (!c->pmd || c->pmd_i + align > PT_ENTRIES) {
		at = (char *)(pt->pmd + pt->nr_pmd_tables * PT_ENTRIES);
		c->pmd = pt_table(c, &at);
		pt->nr_pmd_tables++;
		c->pmd_i = 0;
	}
	return &c->pmd[c->pmd_i];
}

/* The folio at head pfn is young: count it, and its ages. */
static void pt_young_folio(struct pt_model *pt, const struct folio *folio)
{
	pt->nr_young++;
	pt->young_sum += folio->age;
}

/* Point a large folio's tails at their head, as compound_head does
 * (in lru.next's place); an 8-byte descriptor points to the folio. */
static void pt_tails(struct lru_model *m, unsigned long pfn, int order,
		     struct folio *folio)
{
	unsigned long i;

	for (i = 1; i < 1UL << order; i++) {
		unsigned long *word = desc_word(m, pfn + i);

		if (m->desc_size == MEMDESC_SIZE)
			*word = PD_TAIL | (uintptr_t)folio;
		else
			((struct folio *)word)->next =
				(struct folio *)((uintptr_t)folio | 1);
	}
}

/* Map the folio at head pfn at the cursor. */
static void pt_map(struct pt_cursor *c, unsigned long pfn)
{
	struct lru_model *m = c->m;
	struct pt_model *pt = &m->pt;
	const struct work_knobs *w = &m->work;
	int order = PD_ORDER(*desc_word(m, pfn));
	struct folio *folio = pfn_folio(m, pfn);
	unsigned long n = 1UL << order, i;
	uint64_t young = 0, *e;

	folio->flags = (folio->flags & ~PG_GEN) | PG_GEN_OLD;
	pt_tails(m, pfn, order, folio);
	if (order >= PAGEBLOCK_ORDER) {		/* PMD leaves */
		c->pte = NULL;
		if (rng_unit(&c->rng) < w->pt_young)
			young = PT_ACCESSED | PT_TOUCHED;
		e = pt_pmd_entry(c, n / PT_ENTRIES);
		for (i = 0; i < n / PT_ENTRIES; i++)
			e[i] = (uint64_t)(pfn + i * PT_ENTRIES) << PT_PFN_SHIFT |
			       PT_PRESENT | PT_PSE | young;
		c->pmd_i += n / PT_ENTRIES;
		pt->nr_leaf += n / PT_ENTRIES;
		pt->nr_young_ptes += young ? n / PT_ENTRIES : 0;
		if (young)
			pt_young_folio(pt, folio);
		return;
	}
	c->pte_i = (c->pte_i + n - 1) & ~(n - 1);
	if (!c->pte || c->pte_i + n > PT_ENTRIES) {
		c->pte_pmd = pt_pmd_entry(c, 1);
		c->pte = pt_table(c, &c->next);
		*c->pte_pmd = (uintptr_t)c->pte | PT_PRESENT;
		c->pmd_i++;
		c->pte_i = 0;
		c->hot = rng_unit(&c->rng) < w->pt_young_tables;
		pt->nr_pte_tables++;
	}
	if (c->hot && rng_unit(&c->rng) * w->pt_young_tables < w->pt_young)
		young = PT_ACCESSED | PT_TOUCHED;
	for (i = 0; i < n; i++)
		c->pte[c->pte_i++] = (uint64_t)(pfn + i) << PT_PFN_SHIFT |
				     PT_PRESENT | young;
	pt->nr_ptes += n;
	if (!young)
		return;
	if (!(*c->pte_pmd & PT_TOUCHED))
		pt->nr_young_tables++;
	*c->pte_pmd |= PT_ACCESSED | PT_TOUCHED;
	pt->nr_young_ptes += n;
	pt_young_folio(pt, folio);
}

/* The walked LRU folios' head pfns in pfn order, each mapped with the
 * chance --mapped; *nr says how many. */
static unsigned long *pt_mapped_pfns(struct lru_model *m, struct rng *rng,
				     unsigned long *nr)
{
	unsigned long *pfns = malloc((m->nr_lru + 1) * sizeof(*pfns));
	unsigned long pfn, w;

	if (!pfns)
		die("out of memory for the page tables");
	*nr = 0;
	for (pfn = 0; pfn < m->nr_pages; pfn += 1UL << PD_ORDER(w)) {
		w = *desc_word(m, pfn);
		if ((w & PD_TYPE) == PD_FOLIO &&
		    (pfn_folio(m, pfn)->flags & (PG_LRU | PG_MEMCG)) == PG_LRU &&
		    rng_unit(rng) < m->work.pt_mapped)
			pfns[(*nr)++] = pfn;
	}
	return pfns;
}

/* Virtual order: runs of pfn order, cut with the chance 1 - adjacent,
 * in a shuffled order. */
static unsigned long *pt_virtual_order(const unsigned long *pfns,
				       unsigned long nr, double adjacent,
				       struct rng *rng)
{
	unsigned long *start = malloc((nr + 1) * sizeof(*start));
	unsigned long *order = malloc((nr + 1) * sizeof(*order));
	unsigned char *cut = calloc(nr + 1, 1);
	unsigned long runs = 0, i, j, k, t, out = 0;

	if (!start || !order || !cut)
		die("out of memory for the page tables");
	for (i = 0; i < nr; i++)
		if (!i || rng_unit(rng) >= adjacent) {
			start[runs++] = i;
			cut[i] = 1;
		}
	cut[nr] = 1;
	for (i = runs; i > 1; i--) {	/* Fisher-Yates */
		j = rng_below(rng, i);
		t = start[i - 1];
		start[i - 1] = start[j];
		start[j] = t;
	}
	for (k = 0; k < runs; k++) {
		i = start[k];
		do
			order[out++] = pfns[i++];
		while (!cut[i]);
	}
	free(start);
	free(cut);
	return order;
}

/* Build the page tables in region r, after the LRU is linked: PMD
 * tables first (room for the most there can be), PTE tables after. */
static void prepare_pagetable(struct lru_model *m, struct region *r,
			      struct rng *rng, int fault)
{
	struct pt_model *pt = &m->pt;
	struct pt_cursor c = { m, r, NULL, NULL, 0, NULL, 0, NULL, 0, *rng };
	unsigned long *pfns, *order, nr, i, proc;
	double pmd_room = pagetable_pmd_tables(3.0 * m->nr_pages / PT_ENTRIES + PT_PROCS + 1,
					       m->nr_pages) + 1;

	(void)fault;	/* written in order here: every table faults in */
	c.rng.s[0] ^= 0x9e3779b97f4a7c15ULL;	/* a stream of its own */
	memset(pt, 0, sizeof(*pt));
	pt->zero_pfn = m->nr_pages;	/* past the memmap: no PTE maps it */
	pt->pmd = r->addr;
	c.next = (char *)r->addr + (size_t)pmd_room * 4096;
	pt->pte = (uint64_t *)c.next;
	pfns = pt_mapped_pfns(m, &c.rng, &nr);
	order = pt_virtual_order(pfns, nr, m->work.pt_adjacent, &c.rng);
	pt->nr_mapped = nr;
	pt->nr_unmapped = m->nr_lru - nr;
	for (proc = 0; proc < PT_PROCS; proc++) {
		unsigned long start, end;

		split(nr, proc, PT_PROCS, &start, &end);
		c.pmd = NULL;	/* a process starts its own PMD table */
		c.pte = NULL;
		for (i = start; i < end; i++)
			pt_map(&c, order[i]);
	}
	if (pt->nr_pmd_tables > pmd_room)
		die("self-check failed: the PMD tables outgrew their room");
	free(pfns);
	free(order);
	r->used = c.next - (char *)r->addr;
}

/* What the PageTable walk must return: the young folios, summed. */
static struct walk_result pagetable_expect(const struct lru_model *m)
{
	struct walk_result r = { m->pt.young_sum, m->pt.nr_young, 0 };

	return r;
}

/* Entries the walk reads: every PMD entry of its tables, and every PTE
 * of the tables it does not skip. */
static double pagetable_reads(const struct lru_model *m)
{
	const struct pt_model *pt = &m->pt;
	unsigned long tables = m->work.pt_nonleaf ? pt->nr_young_tables : pt->nr_pte_tables;

	return (double)(pt->nr_pmd_tables + tables) * PT_ENTRIES;
}

/* Re-mark one entry the model holds young after a walk: the walk must
 * have cleared its accessed bit; the workload touches it again. */
static void pt_remark_entry(uint64_t *e)
{
	if (*e & PT_ACCESSED)
		die("self-check failed: PageTable left a young entry young");
	*e |= PT_ACCESSED;
}

/* A young folio's generation after a walk: the walk must have moved it
 * to NEW; it goes back to OLD, as if aging had moved on since. */
static unsigned long pt_remark_folio(const struct lru_model *m, uint64_t e)
{
	unsigned long pfn = e >> PT_PFN_SHIFT;
	struct folio *folio;

	if ((*desc_word(m, pfn) & PD_TYPE) != PD_FOLIO)
		return 0;	/* a tail: its head's entry counts */
	folio = pfn_folio(m, pfn);
	if ((folio->flags & PG_GEN) != PG_GEN_NEW)
		die("self-check failed: PageTable did not update a young folio's generation");
	folio->flags = (folio->flags & ~PG_GEN) | PG_GEN_OLD;
	return 1;
}

/*
 * After each timed walk, untimed: check that every young entry was
 * cleared and every young folio moved to the new generation, once; then
 * the workload touches the same pages again (the accessed bits are set
 * again, the folios are back in the older generation), so that every
 * timed walk finds the same young set.
 */
static void pagetable_remark(struct lru_model *m)
{
	struct pt_model *pt = &m->pt;
	unsigned long t, i, j, folios = 0;
	uint64_t *pmd, *pte;

	for (t = 0; t < pt->nr_pmd_tables; t++) {
		pmd = pt->pmd + t * PT_ENTRIES;
		for (i = 0; i < PT_ENTRIES; i++) {
			if (!(pmd[i] & PT_TOUCHED))
				continue;
			if (pmd[i] & PT_PSE) {
				pt_remark_entry(&pmd[i]);
				folios += pt_remark_folio(m, pmd[i]);
				continue;
			}
			pmd[i] |= PT_ACCESSED;	/* cleared or not (--nonleaf-young) */
			pte = (uint64_t *)(uintptr_t)(pmd[i] & PT_ADDR);
			for (j = 0; j < PT_ENTRIES; j++)
				if (pte[j] & PT_TOUCHED) {
					pt_remark_entry(&pte[j]);
					folios += pt_remark_folio(m, pte[j]);
				}
		}
	}
	if (folios != pt->nr_young)
		die("self-check failed: PageTable moved %lu young folios, expected %lu",
		    folios, pt->nr_young);
}

/* ==== Per-folio work ==================================================== */

/*
 * A walk only walks its share (all of it unless -t): it reads what the
 * kernel's loop would read, does the per-folio work --access and --rmap
 * ask for, sums the ages and counts the folios, and returns both for the
 * self-check.  No allocation, timing or printing.
 *
 * The reference: the original's three loops (scan.c 1.1, 2023), as it
 * timed them, in this order:
 *
 *	for (i = 0; i < count; i++)
 *		total += memmap[i].age;
 *
 *	for (i = 0; i < count; i++)
 *		total += lru_array[i]->age;
 *
 *	do {
 *		total += page->age;
 *		page = page->next;
 *	} while (page != memmap);
 *
 * The per-folio work is a compile-time parameter of each walk's
 * template, chosen once per walk, so that at the default knobs the
 * kernels (walk_physical_plain, walk_array_plain, walk_list_plain) are
 * these loops in machine code.  tests/t-codegen.sh checks that they
 * hold no dispatch.  Where the model puts a pfn off the LRU, the
 * physical walk tests each page's type and PG_lru, as a pfn scanner
 * must.
 */

static void list_init(struct folio *head)
{
	head->next = head;
	head->prev = head;
}

/*
 * What reclaim's isolation does to a folio (isolate_lru_folios()): an
 * atomic get on the refcount, an atomic test-and-clear of PG_lru, and a
 * list_move to a private list, which writes both LRU neighbours.  With
 * -t, walkers may reach folios of one list from different threads, so
 * each isolation holds its list's lock, as the kernel holds lru_lock
 * (per folio here, where reclaim holds it per batch).  The LRU is
 * relinked, untimed, after the walk.
 */
static inline void isolate(const struct lru_model *m, struct folio *folio,
			   struct folio *dst)
{
	atomic_int *lock = m->locks ? &m->locks[PG_LIST(folio->flags)] : NULL;
	struct folio *prev, *next;

	if (lock)
		while (atomic_exchange_explicit(lock, 1, memory_order_acquire))
			cpu_relax();
	prev = folio->prev;
	next = folio->next;
#ifdef __GNUC__
	__atomic_fetch_add(&folio->refcount, 1, __ATOMIC_SEQ_CST);
	__atomic_fetch_and(&folio->flags, ~PG_LRU, __ATOMIC_SEQ_CST);
#else
	folio->refcount++;
	folio->flags &= ~PG_LRU;
#endif
	prev->next = next;
	next->prev = prev;
	if (lock)
		atomic_store_explicit(lock, 0, memory_order_release);
	folio->next = dst->next;
	folio->prev = dst;
	dst->next->prev = folio;
	dst->next = folio;
}

/* A mapped folio's rmap walk: dependent misses through the pool, from a
 * place that depends on the folio. */
static inline unsigned long rmap_walk(const struct lru_model *m,
				      const struct folio *folio)
{
	unsigned long idx = ((uint64_t)folio->age * 0x9e3779b97f4a7c15ULL >> 24) &
			    m->rmap_mask;
	int hop;

	for (hop = 0; hop < m->work.rmap_hops; hop++)
		idx = m->rmap[idx];
	return idx;
}

/*
 * Every walk's visit to a folio: the --rmap and --access work, and the
 * age to sum.  access and rmap are constants in every caller (see
 * WITH_WORK), so the compiler keeps only the work asked for: at the
 * defaults a visit is the load of the age.  Walks keep their sums in
 * locals, which stay in registers; a sum kept in the returned struct
 * would go through memory each time.
 */
static inline unsigned long visit(const struct lru_model *m,
				  struct folio *folio, enum access access,
				  int rmap, struct folio *isolated,
				  unsigned long *sink)
{
	unsigned long age = folio->age;

	if (rmap && (folio->flags & PG_MAPPED))
		*sink += rmap_walk(m, folio);
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
		isolate(m, folio, isolated);
		break;
	}
	return age;
}

/*
 * Call a walk template with the model's per-folio work as constants:
 * one choice per walk, none per folio.  The template's last two
 * parameters are access and rmap.  Both macros are expressions (the
 * caller returns their value), so no control flow hides in them.
 */
#define WITH_RMAP(m, template, access, ...)				\
	((m)->rmap ? template(__VA_ARGS__, access, 1) :			\
		     template(__VA_ARGS__, access, 0))
#define WITH_WORK(m, template, ...)					\
	((m)->work.access == ACCESS_READ ?				\
		WITH_RMAP(m, template, ACCESS_READ, __VA_ARGS__) :	\
	 (m)->work.access == ACCESS_WRITE ?				\
		WITH_RMAP(m, template, ACCESS_WRITE, __VA_ARGS__) :	\
	 (m)->work.access == ACCESS_ATOMIC ?				\
		WITH_RMAP(m, template, ACCESS_ATOMIC, __VA_ARGS__) :	\
		WITH_RMAP(m, template, ACCESS_ISOLATE, __VA_ARGS__))

/* The defaults' work, which the *_plain kernels are built for. */
static int plain_work(const struct lru_model *m)
{
	return m->work.access == ACCESS_READ && !m->rmap;
}

/* A walk's result from its locals. */
static struct walk_result result(unsigned long sum, unsigned long visits,
				 unsigned long sink)
{
	struct walk_result r = { sum, visits, sink };

	return r;
}

/* ==== Walk kernels ====================================================== */

/* A kernel per walk: a template over the per-folio work (see WITH_WORK)
 * and, at the defaults, the original's loop itself (walk_*_plain). */

/*
 * Every pfn of the share in order, as a pfn scanner must: read the
 * descriptor, visit LRU folios, skip a free buddy block after reading
 * its head, up to its pageblock's end (compaction does), and pass a
 * large folio either page by page (tails are not LRU folios) or, with
 * jump, in one step by its order, which makes the next address wait for
 * this load.  An 8-byte descriptor leads to its folio, which holds
 * PG_lru.
 */
static ALWAYS_INLINE struct walk_result physical(const struct lru_model *m,
						 int share, int jump,
						 size_t size,
						 enum access access, int rmap)
{
	unsigned long sum = 0, visits = 0, sink = 0, pfn, end, w;
	char *descs = m->descs;
	struct folio isolated;

	list_init(&isolated);
	split(m->nr_pages, share, m->nr_shares, &pfn, &end);
	for (; pfn < end; pfn++) {
		unsigned long *word = (unsigned long *)(descs + pfn * size);

		OPAQUE(word);
		w = *word;
		/* The common case in one test: each test waits for its
		 * load, and the fewer in flight, the more misses the CPU
		 * keeps going (docs/method.md, Honest loops). */
		if (size != MEMDESC_SIZE &&
		    (w & (PD_TYPE | PG_LRU | PG_MEMCG)) == (PD_FOLIO | PG_LRU)) {
			sum += visit(m, (struct folio *)word, access, rmap,
				     &isolated, &sink);
			visits++;
			if (jump)
				pfn += (1UL << PD_ORDER(w)) - 1;
			continue;
		}
		if ((w & PD_TYPE) == PD_FOLIO) {
			struct folio *folio = size == MEMDESC_SIZE ?
					      PD_FOLIO_PTR(w) : (struct folio *)word;

			if (((size == MEMDESC_SIZE ? folio->flags : w) &
			     (PG_LRU | PG_MEMCG)) == PG_LRU) {
				sum += visit(m, folio, access, rmap, &isolated,
					     &sink);
				visits++;
			}
			if (jump)
				pfn += (1UL << PD_ORDER(w)) - 1;
		} else if ((w & PD_TYPE) == PD_BUDDY) {
			/* no further than its pageblock: the rest of a block
			 * above pageblock order carries no buddy mark and is
			 * read page by page (isolate_migratepages_block()
			 * stops at the pageblock's end) */
			pfn += (1UL << (PD_ORDER(w) < PAGEBLOCK_ORDER ?
					PD_ORDER(w) : PAGEBLOCK_ORDER)) - 1;
		}
	}
	return result(sum, visits, sink);
}

/*
 * The original's physical loop, for the original's model: when every
 * pfn is an order-0 LRU folio there is nothing to skip, and the test a
 * pfn scanner makes would always pass.  Its cost is real (each test
 * waits for its load, and fewer misses stay in flight), so it is
 * modelled where it decides something: with any pfn off the LRU,
 * physical() tests every page.
 */
static NOINLINE struct walk_result walk_physical_plain(const struct lru_model *m,
						       int share)
{
	unsigned long sum = 0, start, pfn, end;
	char *descs = m->descs;

	split(m->nr_pages, share, m->nr_shares, &start, &end);
	for (pfn = start; pfn < end; pfn++) {
		struct folio *folio = (struct folio *)(descs + pfn * sizeof(struct page));

		OPAQUE(folio);
		sum += folio->age;
	}
	return result(sum, end - start, 0);
}

/* One loop per descriptor size, mode and work, so each is as tight as
 * the kernel's would be: reading every page keeps pfn++ free of the
 * loaded word (a jump in the same loop invites the compiler to make
 * every step wait for the load), and the stride is a constant. */
static NOINLINE struct walk_result walk_physical(const struct lru_model *m,
						 int share)
{
	int jump = m->work.phys == PHYS_JUMP;

	if (m->desc_size == sizeof(struct page) && m->nr_lru == m->nr_pages &&
	    plain_work(m))
		return walk_physical_plain(m, share);
	switch (m->desc_size) {
	case 32:
		return jump ? WITH_WORK(m, physical, m, share, 1, 32) :
			      WITH_WORK(m, physical, m, share, 0, 32);
	case MEMDESC_SIZE:
		return jump ? WITH_WORK(m, physical, m, share, 1, MEMDESC_SIZE) :
			      WITH_WORK(m, physical, m, share, 0, MEMDESC_SIZE);
	default:
		return jump ? WITH_WORK(m, physical, m, share, 1, 64) :
			      WITH_WORK(m, physical, m, share, 0, 64);
	}
}

/*
 * Follow lru.next through the share's lists, a chunk from each in turn
 * (reclaim takes SWAP_CLUSTER_MAX from each list); with one folio per
 * turn the chases are independent and the CPU overlaps them.  next is
 * read before the visit, as list_for_each_entry_safe() does, so
 * isolation may unlink the folio.
 */
static ALWAYS_INLINE struct walk_result lists(const struct lru_model *m,
					      int share, enum access access,
					      int rmap)
{
	unsigned long sum = 0, visits = 0, sink = 0, start, end, chunk, n, i;
	struct list_cursor *cur = m->cursors + (size_t)share * m->work.nr_lists;
	struct folio *folio, *next, isolated;
	int j, busy;

	list_init(&isolated);
	share_range(m, share, &start, &end);
	chunk = share_chunk(m, end - start);
	for (j = 0; j < m->work.nr_lists; j++) {
		cur[j].left = list_len(m, end - start, j);
		folio = cur[j].left ? m->lru[start + j * chunk].folio : NULL;
		OPAQUE(folio);		/* no gathers here either */
		cur[j].folio = folio;
	}
	do {
		busy = 0;
		for (j = 0; j < m->work.nr_lists; j++) {
			n = cur[j].left < chunk ? cur[j].left : chunk;
			folio = cur[j].folio;
			for (i = 0; i < n; i++) {
				next = folio->next;
				sum += visit(m, folio, access, rmap, &isolated,
					     &sink);
				folio = next;
			}
			cur[j].folio = folio;
			cur[j].left -= n;
			visits += n;
			busy |= cur[j].left != 0;
		}
	} while (busy);
	return result(sum, visits, sink);
}

/* The original's list loop: one chase from the share's first folio. */
static NOINLINE struct walk_result walk_list_plain(const struct lru_model *m,
						   int share)
{
	unsigned long sum = 0, start, end, i;
	struct folio *folio;

	share_range(m, share, &start, &end);
	folio = start < end ? m->lru[start].folio : NULL;
	if (m->list_from)	/* --original: see original_list_from() */
		folio = m->list_from;
	OPAQUE(folio);
	for (i = start; i < end; i++) {
		sum += folio->age;
		folio = folio->next;
	}
	return result(sum, end - start, 0);
}

static NOINLINE struct walk_result walk_list(const struct lru_model *m,
					     int share)
{
	if (m->work.nr_lists == 1 && plain_work(m))
		return walk_list_plain(m, share);
	return WITH_WORK(m, lists, m, share);
}

/* Folio pointers in LRU order: independent loads, many misses in flight. */
static ALWAYS_INLINE struct walk_result array(const struct lru_model *m,
					      int share, enum access access,
					      int rmap)
{
	unsigned long sum = 0, visits = 0, sink = 0, k, end;
	union lru_slot *lru = m->lru;
	struct folio isolated;

	list_init(&isolated);
	share_range(m, share, &k, &end);
	for (; k < end; k++) {
		struct folio *folio = lru[k].folio;

		OPAQUE(folio);
		sum += visit(m, folio, access, rmap, &isolated, &sink);
		visits++;
	}
	return result(sum, visits, sink);
}

/* The original's array loop. */
static NOINLINE struct walk_result walk_array_plain(const struct lru_model *m,
						    int share)
{
	return array(m, share, ACCESS_READ, 0);
}

static NOINLINE struct walk_result walk_array(const struct lru_model *m,
					      int share)
{
	if (plain_work(m))
		return walk_array_plain(m, share);
	return WITH_WORK(m, array, m, share);
}

/* The same pointers in the radix tree: down from the root to each leaf
 * (the upper levels stay in cache), then along its 64 slots. */
static ALWAYS_INLINE struct walk_result xarray(const struct lru_model *m,
					       int share, enum access access,
					       int rmap)
{
	unsigned long sum = 0, visits = 0, sink = 0, k, end, last;
	struct folio isolated;
	int level;

	list_init(&isolated);
	share_range(m, share, &k, &end);
	while (k < end) {
		const struct xa_node *node = m->xa_root;

		for (level = m->xa_height - 1; level > 0; level--)
			node = node->slots[(k >> (XA_SHIFT * level)) & (XA_SLOTS - 1)];
		last = (k | (XA_SLOTS - 1)) + 1;
		if (last > end)
			last = end;
		for (; k < last; k++) {
			struct folio *folio = node->slots[k & (XA_SLOTS - 1)];

			OPAQUE(folio);
			sum += visit(m, folio, access, rmap, &isolated, &sink);
			visits++;
		}
	}
	return result(sum, visits, sink);
}

static NOINLINE struct walk_result walk_xarray(const struct lru_model *m,
					       int share)
{
	return WITH_WORK(m, xarray, m, share);
}

/*
 * MGLRU's aging walk (mm/vmscan.c: walk_pmd_range(), walk_pte_range(),
 * get_pte_pfn(), get_pfn_folio(), walk_update_folio()) over the share's
 * PMD tables, in virtual order.  Per PMD entry: none, skip; a leaf (a
 * PMD-mapped folio) is one entry; else, where the MMU sets the accessed
 * bit in non-leaf entries (x86) and --nonleaf-young is on, an old entry
 * skips its PTE table whole, a young one is cleared.  Per PTE: present,
 * not the zero page, young; then the folio by pfn (a struct page line
 * in no particular order; a tail's compound_head leads to its head),
 * its LRU flag and memcg checked, the accessed bit cleared by a locked
 * and, and the generation updated once per run of PTEs of one folio,
 * with a cmpxchg on its flags as folio_update_gen() does.  It sums the
 * ages and counts the young folios; --access and --rmap are reclaim's
 * work, not aging's.
 */
static ALWAYS_INLINE struct folio *pt_folio(const struct lru_model *m,
					    unsigned long pfn, size_t size)
{
	unsigned long *word = (unsigned long *)(m->descs + pfn * size);
	unsigned long w = *word;

	if (size == MEMDESC_SIZE)
		return PD_FOLIO_PTR(w);
	if ((w & PD_TYPE) == PD_TAIL)
		return (struct folio *)((uintptr_t)((struct folio *)word)->next & ~1UL);
	return (struct folio *)word;
}

/* ptep_test_and_clear_young() on x86: the accessed bit cleared by a
 * locked bit-clear (test_and_clear_bit()), an entry's line written
 * atomically, as the kernel must: the MMU may set bits in it meanwhile. */
static ALWAYS_INLINE void pt_clear_young(uint64_t *entry)
{
#ifdef __GNUC__
	__atomic_fetch_and(entry, ~PT_ACCESSED, __ATOMIC_SEQ_CST);
#else
	*entry &= ~PT_ACCESSED;
#endif
}

/* folio_update_gen(): the new generation into the folio's flags (no
 * list move: the kernel's eviction moves it, sort_folio()). */
static ALWAYS_INLINE void pt_update_gen(struct folio *folio)
{
	unsigned long old = folio->flags;
#ifdef __GNUC__
	while (!__atomic_compare_exchange_n(&folio->flags, &old,
					    (old & ~PG_GEN) | PG_GEN_NEW, 0,
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		;
#else
	folio->flags = (old & ~PG_GEN) | PG_GEN_NEW;
#endif
}

/* One young entry's folio: checked, its entry cleared, and, if it is
 * not the folio of the entry before, its generation updated. */
#define PT_YOUNG(m, e, entry, size, last, sum, visits)			\
	do {								\
		struct folio *folio_ = pt_folio(m, (e) >> PT_PFN_SHIFT, size); \
									\
		if ((folio_->flags & (PG_LRU | PG_MEMCG)) != PG_LRU)	\
			break;						\
		pt_clear_young(entry);					\
		if (folio_ != (last)) {					\
			(last) = folio_;				\
			pt_update_gen(folio_);				\
			(sum) += folio_->age;				\
			(visits)++;					\
		}							\
	} while (0)

static ALWAYS_INLINE struct walk_result pagetable(const struct lru_model *m,
						  int share, size_t size,
						  int nonleaf)
{
	unsigned long sum = 0, visits = 0, t, end, i, j;
	const unsigned long zero_pfn = m->pt.zero_pfn;
	struct folio *last;
	uint64_t *pmd, *pte, e;

	split(m->pt.nr_pmd_tables, share, m->nr_shares, &t, &end);
	for (; t < end; t++) {
		pmd = m->pt.pmd + t * PT_ENTRIES;
		last = NULL;
		for (i = 0; i < PT_ENTRIES; i++) {
			e = pmd[i];
			if (!(e & PT_PRESENT))
				continue;
			if (e & PT_PSE) {
				if (e & PT_ACCESSED)
					PT_YOUNG(m, e, &pmd[i], size, last, sum, visits);
				continue;
			}
			if (nonleaf) {
				if (!(e & PT_ACCESSED))
					continue;
				pt_clear_young(&pmd[i]);
			}
			pte = (uint64_t *)(uintptr_t)(e & PT_ADDR);
			OPAQUE(pte);
			last = NULL;
			for (j = 0; j < PT_ENTRIES; j++) {
				e = pte[j];
				if (!(e & PT_PRESENT) || !(e & PT_ACCESSED) ||
				    e >> PT_PFN_SHIFT == zero_pfn)
					continue;
				PT_YOUNG(m, e, &pte[j], size, last, sum, visits);
			}
			last = NULL;
		}
	}
	return result(sum, visits, 0);
}

/* One loop per descriptor size and non-leaf mode: no choice per entry. */
static NOINLINE struct walk_result walk_pagetable(const struct lru_model *m,
						  int share)
{
	int nonleaf = m->work.pt_nonleaf;

	switch (m->desc_size) {
	case 32:
		return nonleaf ? pagetable(m, share, 32, 1) : pagetable(m, share, 32, 0);
	case MEMDESC_SIZE:
		return nonleaf ? pagetable(m, share, MEMDESC_SIZE, 1) :
				 pagetable(m, share, MEMDESC_SIZE, 0);
	default:
		return nonleaf ? pagetable(m, share, 64, 1) : pagetable(m, share, 64, 0);
	}
}

/* ==== Threads =========================================================== */

/*
 * Threads, for two jobs.  Setup shares large, memory-bound work among
 * every CPU (run_parallel()), each thread with a part whose result does
 * not depend on which thread took it.  With -t, a team of walkers, one
 * to a CPU, walks the shares at once (team_walk()); they are pinned
 * only after setup.  What threads work on lives in the model, so their
 * stacks are small (THREAD_STACK).
 */

struct job {
	void (*fn)(void *arg, int i, int nr);
	void *arg;
	int i, nr;
	pthread_t tid;
	int started;		/* its thread started */
};

static void *job_main(void *p)
{
	struct job *job = p;

	job->fn(job->arg, job->i, job->nr);
	return NULL;
}

/* Start a thread with a small stack (THREAD_STACK): what threads work
 * on lives in the model, and 64 default stacks would be 512 MiB of the
 * address space the memory check counts.  Returns pthread_create's. */
static int start_thread(pthread_t *tid, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	int err;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, THREAD_STACK);
	err = pthread_create(tid, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return err;
}

/* Run fn(arg, i, nr) for i = 0..nr-1 at once; the caller runs i = 0.  A
 * thread that cannot start has its part run by the caller instead. */
static void run_parallel(void (*fn)(void *arg, int i, int nr), void *arg,
			 int nr)
{
	/* on the heap: 64 jobs are 3 KiB */
	struct job *job = calloc(nr, sizeof(*job));
	int i;

	if (!job)
		die("out of memory");
	for (i = 0; i < nr; i++) {
		job[i] = (struct job){ .fn = fn, .arg = arg, .i = i, .nr = nr };
		if (i)
			job[i].started = !start_thread(&job[i].tid, job_main, &job[i]);
	}
	for (i = 0; i < nr; i++)
		if (!job[i].started)
			fn(arg, i, nr);
	for (i = 1; i < nr; i++)
		if (job[i].started)
			pthread_join(job[i].tid, NULL);
	free(job);
}

/*
 * Threads for setting up m: one below SETUP_PARALLEL_MIN of memmap, and
 * one for --original, as scan.c 1.1 built its model on the thread that
 * then walks it (so which CPU faulted the pages in, and which caches
 * setup leaves warm, are the original's).
 */
static int setup_threads(const struct lru_model *m)
{
	long cpus = online_cpus();

	if (m->original || m->nr_pages * sizeof(struct page) < SETUP_PARALLEL_MIN || cpus < 2)
		return 1;
	return cpus > MAX_THREADS ? MAX_THREADS : (int)cpus;
}

/*
 * --cpu and -t: refuse, before any work, CPUs this process may not run
 * on; pin only after setup, which shares its work among all CPUs.  With
 * -t T the walkers take the first T CPUs the process may use, one each.
 */
static int allowed_cpus(int *cpus, int max)
{
	int nr = 0;
#ifdef SCAN_LINUX
	cpu_set_t set;
	int c;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("cannot read this process's CPUs: %s", strerror(errno));
	for (c = 0; c < CPU_SETSIZE && nr < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[nr++] = c;
#else
	long n = online_cpus();

	for (; nr < n && nr < max; nr++)
		cpus[nr] = -1;
#endif
	return nr;
}

static void plan_cpus(const struct params *p, int *cpu)
{
	int cpus[MAX_THREADS], nr = allowed_cpus(cpus, MAX_THREADS), i, t;

	for (t = 0; t < p->run.threads; t++)
		cpu[t] = -1;
#ifndef SCAN_LINUX
	if (p->run.cpu >= 0)
		die("--cpu %d: pinning to a CPU is not supported on this system", p->run.cpu);
#endif
	if (p->run.cpu >= 0) {
		for (i = 0; i < nr && cpus[i] != p->run.cpu; i++)
			;
		if (i == nr)
			die("--cpu %d: not a CPU this process may run on (see nproc)", p->run.cpu);
		cpu[0] = p->run.cpu;
	}
	if (p->run.threads > nr)
		die("-t %d: only %d CPU%s to run on; walkers must not share one", p->run.threads, nr, nr > 1 ? "s" : "");
	for (t = 0; p->run.threads > 1 && t < p->run.threads; t++)
		cpu[t] = cpus[t];
}

static void pin_cpu(int cpu)
{
	if (cpu < 0)
		return;
#ifdef SCAN_LINUX
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("cannot run on CPU %d: %s", cpu, strerror(errno));
#endif
}

/*
 * Walkers: with -t T, T threads walk their shares at once.  Between
 * walks they wait spinning, so a walk's time runs from the release to
 * the last walker's finish, without a wake-up latency in it.
 */
struct team;

struct member {
	struct team *team;
	int share;
};

struct team {
	const struct lru_model *m;
	int nr;				/* walkers, the caller included */
	int cpu[MAX_THREADS];		/* where each runs, -1 anywhere */
	pthread_t tid[MAX_THREADS];
	struct member member[MAX_THREADS];
	struct walk_result (*fn)(const struct lru_model *m, int share);
	struct walk_result result[MAX_THREADS];
	atomic_uint go;			/* bumped to start a walk */
	atomic_uint done;		/* walkers through with it */
	atomic_int quit;
	struct counters *counters;	/* the caller's (see Counters); NULL:
					 * nothing is counted */
};

static void *member_main(void *arg)
{
	struct member *me = arg;
	struct team *team = me->team;
	unsigned int seen = 0;

	pin_cpu(team->cpu[me->share]);
	for (;;) {
		while (atomic_load(&team->go) == seen) {
			if (atomic_load(&team->quit))
				return NULL;
			cpu_relax();
		}
		seen++;
		team->result[me->share] = team->fn(team->m, me->share);
		atomic_fetch_add(&team->done, 1);
	}
}

static void start_team(struct team *team, const struct lru_model *m,
		       const struct params *p)
{
	int i, err;

	memset(team, 0, sizeof(*team));
	team->m = m;
	team->nr = p->run.threads;
	plan_cpus(p, team->cpu);
	pin_cpu(team->cpu[0]);
	for (i = 1; i < team->nr; i++) {
		team->member[i].team = team;
		team->member[i].share = i;
		if ((err = start_thread(&team->tid[i], member_main, &team->member[i])))
			die("cannot start walker %d: %s", i, strerror(err));
	}
}

static void stop_team(struct team *team)
{
	int i;

	atomic_store(&team->quit, 1);
	for (i = 1; i < team->nr; i++)
		pthread_join(team->tid[i], NULL);
}

/* Run fn on every share at once; the caller walks share 0. */
static struct walk_result team_walk(struct team *team,
				    struct walk_result (*fn)(const struct lru_model *m, int share))
{
	struct walk_result sum = { 0, 0, 0 };
	int i;

	team->fn = fn;
	atomic_store(&team->done, 0);
	atomic_fetch_add(&team->go, 1);
	team->result[0] = fn(team->m, 0);
	while (atomic_load(&team->done) < (unsigned int)team->nr - 1)
		cpu_relax();
	for (i = 0; i < team->nr; i++) {
		sum.sum += team->result[i].sum;
		sum.visits += team->result[i].visits;
		sum.sink += team->result[i].sink;
	}
	return sum;
}

/* ==== Cache state ======================================================= */

/*
 * Evict the model from every cache level, so each timed walk starts
 * from memory, as reclaim does on a large machine.  Flushing by address
 * needs no buffer of its own.  On x86, clflush is ordered against every
 * other clflush, which makes it many times slower than clflushopt, so
 * clflushopt (then one sfence) is used where CPUID has it; arm64 cleans
 * and invalidates with dc civac.  Where no flush instruction exists,
 * reading a buffer larger than the caches is the fallback.
 *
 * flush_line() flushes one line, unordered; flush_fence() orders the lot.
 */
static inline void flush_line(const void *p, int opt)
{
#if defined(__x86_64__) || defined(__i386__)
	if (opt)	/* clflushopt's encoding, for assemblers that lack its name */
		__asm__ volatile(".byte 0x66; clflush %0" : "+m"(*(volatile char *)p));
	else
		__asm__ volatile("clflush %0" : "+m"(*(volatile char *)p));
#elif defined(__aarch64__)
	(void)opt;
	__asm__ volatile("dc civac, %0" : : "r"(p) : "memory");
#else
	(void)p;
	(void)opt;
#endif
}

/* Wait for the flushes; where there is no flush instruction, evict
 * everything by reading the buffer. */
static void flush_fence(int opt)
{
#if defined(__x86_64__) || defined(__i386__)
	if (opt)
		__asm__ volatile("sfence" : : : "memory");
	else
		__asm__ volatile("mfence" : : : "memory");
#elif defined(__aarch64__)
	(void)opt;
	__asm__ volatile("dsb ish" : : : "memory");
#else
	static volatile unsigned long *buf;
	static size_t words = (256UL << 20) / sizeof(long);
	unsigned long sum = 0;
	size_t i;

	(void)opt;
	if (!buf)
		buf = calloc(words, sizeof(long));
	if (!buf)
		die("cannot allocate the cache eviction buffer");
	for (i = 0; i < words; i += 8)
		sum += buf[i];
	buf[0] = sum;
#endif
}

static void flush_range(const void *addr, size_t len, int opt)
{
	const char *p = addr, *end = p + len;

	for (; p < end; p += 64)
		flush_line(p, opt);
	flush_fence(opt);
}

static void evict(const struct lru_model *m)
{
	int r;

	for (r = 0; r < NR_REGIONS; r++)
		if (m->region[r].used)
			flush_range(m->region[r].addr, m->region[r].used, m->clflushopt);
}

#if defined(__x86_64__) || defined(__i386__)
/* CPUID leaf 7, subleaf 0: EBX bit 23 is CLFLUSHOPT. */
static int has_clflushopt(void)
{
	unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;

	__asm__ volatile("cpuid" : "=a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx) : "a"(0), "c"(0));
	if (eax < 7)
		return 0;
	__asm__ volatile("cpuid" : "=a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx) : "a"(7), "c"(0));
	return ebx >> 23 & 1;
}
#else
static int has_clflushopt(void)
{
	return 0;
}
#endif

/* ==== Calibration ======================================================= */

/*
 * Calibration: this core's limits, each a loop that does nothing but
 * the loads a walk's kernel must make, timed over the memmap itself (its
 * size, page size and placement), from the walks' cache state and
 * through the team, so that -t measures every walker at once:
 *
 *   stream  one word per 64-byte line of the whole memmap in address
 *           order (the physical walk's limit);
 *   chase   a dependent chase through BOUND_LINES lines drawn at random
 *           from the whole memmap (ListLRU's): each address waits for
 *           the load before it;
 *   random  independent loads of the same lines, their addresses read
 *           from an array in that order, as ArrayLRU reads its own;
 *   pagetable  the PageTable walk's, where it is walked: the PTE tables
 *           read as a stream (a load per line of eight entries), and
 *           among them, in the walk's proportions (pt_try_young()),
 *           the young folios' struct page lines, each read and updated
 *           by a compare-and-swap as folio_update_gen() updates its
 *           flags: a locked update waits for its line, and loads alone
 *           read a fifth of the walk's time (docs/method.md).
 *
 * A limit costs in proportion to what it bounds (plan_bounds()): its
 * tries together read about CAL_SHARE of the loads its walks make, in
 * BOUND_MIN_TRIES to BOUND_TRIES tries of up to BOUND_LINES loads (the
 * stream always reads the whole memmap).  The tries are spread over the
 * rounds (bound_tries_due()), each right before the first walk it bounds
 * in its round and timed as a walk is, again while disturbed
 * (try_bound()): a VM's neighbours move a limit and its walk together
 * within seconds, and a try kept preempted beside walks timed again
 * until clean reads slow (docs/method.md).  A walk's row names its limit
 * (.bound); docs/limits.c measures the same three apart from scan.
 */
struct bound_spec {
	const char *name;	/* in "%.2fx this core's %s" */
	struct walk_result (*fn)(const struct lru_model *m, int share);
	int least;		/* tries at least: BOUND_MIN_TRIES or,
				 * for tries of milliseconds, BOUND_MIN_CHEAP */
	int cheap;		/* the first try, taken before any walk,
				 * only times the expectation
				 * (bound_first_done()) */
};

static struct walk_result bound_stream(const struct lru_model *m, int share);
static struct walk_result bound_chase(const struct lru_model *m, int share);
static struct walk_result bound_random(const struct lru_model *m, int share);
static struct walk_result bound_pagetable(const struct lru_model *m, int share);

static const struct bound_spec bounds[NR_BOUNDS] = {
	[BOUND_STREAM] = { "streaming read", bound_stream, BOUND_MIN_TRIES, .cheap = 0 },
	[BOUND_CHASE] = { "dependent chase", bound_chase, BOUND_MIN_TRIES, .cheap = 0 },
	[BOUND_RANDOM] = { "independent random loads", bound_random, BOUND_MIN_CHEAP,
			   .cheap = 1 },
	[BOUND_PAGETABLE] = { "PTE stream and young updates", bound_pagetable,
			      BOUND_MIN_CHEAP, .cheap = 1 },
};

#define BOUND_WARN	0.15	/* off the bound by more: a warning */
/* Lines the chase and the random loads read at most: 32 MiB, enough
 * that the chase pays what a list walk over a large memmap pays per hop
 * (docs/method.md gives the sizes tried); and at least, where their
 * walks are short: fewer are mostly the flush and the clock. */
#define BOUND_LINES	(1UL << 19)
#define BOUND_MIN_LINES	(1UL << 14)
/* The random loads read at least this many lines where the memmap holds
 * eight times as many, however cheap their walks: a try of 300,000 read
 * fast, the walk 1.19x the tries right before and after it, one of 2^19
 * 1.06x, 2^20 1.05x (median of 8 walks, host 25013b1b, -c 10); a try of
 * 2^19 takes under 10 ms there, and 2^20 took calibration past 5% of a
 * -c 10 run (docs/method.md). */
#define BOUND_RANDOM_LINES BOUND_LINES

/* Always 0; read at run time, so the chase cannot be proved independent. */
static volatile unsigned long bound_zero;

/*
 * scramble() is a bijection of [0, 2^bits): multiplying by an odd
 * number and xor-shifting right are each one-to-one there.  Walking its
 * cycle until a value falls below nr keeps it one-to-one on [0, nr), so
 * the lines it gives are distinct: each is a miss, as each folio of an
 * LRU walk is.
 */
static uint64_t scramble(uint64_t x, uint64_t mask, int shift)
{
	x = (x * 0x9e3779b97f4a7c15ULL) & mask;
	x ^= x >> shift;
	x = (x * 0xbf58476d1ce4e5b9ULL) & mask;
	return x ^ (x >> shift);
}

static unsigned long memmap_lines(const struct lru_model *m)
{
	return m->nr_pages * m->desc_size / 64;
}

/* The PageTable walk's loads, as its limit counts them: a line of the
 * entries it reads (eight to a line), and a young folio each; 0 where
 * it is not walked. */
static double pt_walk_loads(const struct lru_model *m)
{
	return pagetable_reads(m) / 8 + m->pt.nr_young;
}

/* Of len loads of a PageTable try, the young folios' updates: as many
 * as the walk makes beside its lines of entries. */
static unsigned long pt_try_young(const struct lru_model *m, unsigned long len)
{
	double all = pt_walk_loads(m);

	return all > 0 ? (unsigned long)(len * (m->pt.nr_young / all)) : 0;
}

/* Loads a PageTable try may make: no more than the walk's, its young
 * updates no more than BOUND_LINES distinct lines, its stream no more
 * than the PTE tables' lines.  Not inlined: its arithmetic in doubles
 * stays out of bound_*, which tests/t-codegen.sh reads as kernels. */
static NOINLINE unsigned long pt_loads_max(const struct lru_model *m)
{
	double all = pt_walk_loads(m), most = all;
	double young = m->pt.nr_young, lines = all - young;
	double random = memmap_lines(m) < BOUND_LINES ? memmap_lines(m) : BOUND_LINES;
	double stream = (double)m->pt.nr_pte_tables * PT_ENTRIES / 8;

	if (young > 0 && random * all / young < most)
		most = random * all / young;
	if (lines > 0 && stream * all / lines < most)
		most = stream * all / lines;
	return (unsigned long)most;
}

/* Loads a try of bound b may make: a stream reads every line. */
static unsigned long bound_loads_max(const struct lru_model *m, enum bound b)
{
	unsigned long lines = memmap_lines(m);

	if (b == BOUND_PAGETABLE)
		return pt_loads_max(m);
	if (b == BOUND_STREAM || lines < BOUND_LINES)
		return lines;
	return BOUND_LINES;
}

/* Loads a try of bound b makes: as plan_bounds() chose. */
static unsigned long bound_loads(const struct lru_model *m, enum bound b)
{
	return m->bound_len[b] ? m->bound_len[b] : bound_loads_max(m, b);
}

/* Loads walk w makes in one timed walk: a line a page in pfn order, a
 * folio a load in LRU order (its rmap hops and any work beyond only make
 * it dearer, and its limit's share larger than CAL_SHARE). */
static double walk_loads(const struct lru_model *m, int w)
{
	if (walks[w].bound == BOUND_PAGETABLE)
		return pt_walk_loads(m);
	return walks[w].bound == BOUND_STREAM ? memmap_lines(m) : m->nr_lru;
}

/* Loads all the run's walks bounded by b make, `rounds` rounds of their
 * repetitions (reps NULL: one a round); a limit no walk is held against
 * (the machine line prints it) as if the first LRU walk were, but the
 * PageTable walk's, which only its walk needs. */
static double bounded_loads(const struct lru_model *m, const struct params *p,
			    const struct walk_stats *stats, int rounds, enum bound b)
{
	double loads = 0;
	int s;

	for (s = 0; s < p->run.nr_walks; s++)
		if (walks[p->run.walk[s]].bound == b)
			loads += walk_loads(m, p->run.walk[s]) * (stats ? stats[s].reps : 1);
	if (!loads && b == BOUND_PAGETABLE)
		return 0;
	return rounds * (loads ? loads : (double)m->nr_lru);
}

/* Tries of bound b that fit CAL_SHARE of `loads`, each of len loads. */
static int bound_tries_fit(enum bound b, double loads, unsigned long len)
{
	double n = len ? CAL_SHARE * loads / len : BOUND_TRIES;
	int least = bounds[b].least;

	return n < least ? least : n > BOUND_TRIES ? BOUND_TRIES : (int)n;
}

/*
 * What each limit's tries read and how many there are, so the tries
 * together cost about CAL_SHARE of the walks they bound: as many tries
 * as fit, bounds[].least (BOUND_MIN_TRIES or BOUND_MIN_CHEAP) to
 * BOUND_TRIES; where even two of the longest do not fit (walks of under
 * 17 million folios at two rounds), the chase's and the random loads'
 * tries are shorter, not fewer.  Before the plan (stats NULL) rounds is
 * the least the run takes and sets the length; after it, the rounds and
 * repetitions planned set the count.
 */
static void plan_bounds(struct lru_model *m, const struct params *p,
			const struct walk_stats *stats, int rounds)
{
	unsigned long most, len;
	double loads;
	int b;

	for (b = 0; b < NR_BOUNDS; b++) {
		loads = bounded_loads(m, p, stats, rounds, b);
		if (!loads) {		/* no walk needs it: no tries */
			m->bound_want[b] = 0;
			continue;
		}
		if (!stats) {
			most = bound_loads_max(m, b);
			len = (unsigned long)(CAL_SHARE * loads / BOUND_MIN_TRIES);
			if (b == BOUND_STREAM || len > most)
				len = most;
			if (len < BOUND_MIN_LINES)
				len = most < BOUND_MIN_LINES ? most : BOUND_MIN_LINES;
			if (b == BOUND_RANDOM && memmap_lines(m) >= 8 * BOUND_RANDOM_LINES)
				len = BOUND_RANDOM_LINES < most ? BOUND_RANDOM_LINES : most;
			m->bound_len[b] = len;
		}
		if (b == BOUND_PAGETABLE && !stats)	/* later builds' alike */
			m->bound_young = pt_try_young(m, m->bound_len[b]);
		m->bound_want[b] = bound_tries_fit(b, loads, m->bound_len[b]);
	}
}

/* The chase's, the random loads' and the young updates' lines, drawn
 * once, untimed. */
static void draw_bound_lines(struct lru_model *m)
{
	unsigned long nr = memmap_lines(m), k, n = bound_loads(m, BOUND_CHASE);

	if (bound_loads(m, BOUND_RANDOM) > n)
		n = bound_loads(m, BOUND_RANDOM);
	if (m->bound_young > n)
		n = m->bound_young;
	uint64_t mask = 1, x;
	int bits = 1;

	if (!n)			/* under one line: nothing to read */
		return;
	while (mask < nr - 1) {
		mask = mask << 1 | 1;
		bits++;
	}
	m->bound_lines = malloc(n * sizeof(*m->bound_lines));
	if (!m->bound_lines)
		die("out of memory for the calibration's %lu lines", n);
	for (k = 0; k < n; k++) {
		x = k;
		do
			x = scramble(x, mask, (bits + 1) / 2);
		while (x >= nr);
		m->bound_lines[k] = m->descs + x * 64;
	}
}

static NOINLINE struct walk_result bound_stream(const struct lru_model *m,
						int share)
{
	unsigned long sum = 0, start, k, end;
	char *descs = m->descs;

	split(memmap_lines(m), share, m->nr_shares, &start, &end);
	for (k = start; k < end; k++) {
		unsigned long *word = (unsigned long *)(descs + k * 64);

		OPAQUE(word);
		sum += *word;
	}
	return result(sum, end - start, 0);
}

static NOINLINE struct walk_result bound_chase(const struct lru_model *m,
					       int share)
{
	unsigned long sum = 0, dep = 0, zero = bound_zero, start, k, end;
	char *const *line = m->bound_lines;

	split(bound_loads(m, BOUND_CHASE), share, m->nr_shares, &start, &end);
	for (k = start; k < end; k++) {
		/* dep is always 0, but the compiler and the CPU must wait
		 * for the load to know it */
		unsigned long w = *(unsigned long *)(line[k] + dep);

		sum += w;
		dep = w & zero;
	}
	return result(sum, end - start, 0);
}

static NOINLINE struct walk_result bound_random(const struct lru_model *m,
						int share)
{
	unsigned long sum = 0, start, k, end;
	char *const *line = m->bound_lines;

	split(bound_loads(m, BOUND_RANDOM), share, m->nr_shares, &start, &end);
	for (k = start; k < end; k++) {
		unsigned long *word = (unsigned long *)line[k];

		OPAQUE(word);
		sum += *word;
	}
	return result(sum, end - start, 0);
}

/* A young folio's update, as the PageTable walk's limit makes it: its
 * flags read, then swapped for themselves with a locked compare-and-swap
 * (the model is left as it was). */
static ALWAYS_INLINE unsigned long bound_update(unsigned long *word)
{
	unsigned long old = *word;

#ifdef __GNUC__
	__atomic_compare_exchange_n(word, &old, old, 0, __ATOMIC_SEQ_CST,
				    __ATOMIC_RELAXED);
#else
	*(volatile unsigned long *)word = old;
#endif
	return old;
}

/* A young PTE's clear, as the PageTable walk's limit makes it: a locked
 * and of the stream's line with all ones (the tables are left as they
 * were). */
static ALWAYS_INLINE void bound_clear(unsigned long *word)
{
#ifdef __GNUC__
	__atomic_fetch_and(word, ~0UL, __ATOMIC_SEQ_CST);
#else
	*(volatile unsigned long *)word = *word;
#endif
}

/* The PTE tables as a stream, a load per line, and among the lines the
 * young folios' updates, spread evenly as the walk's are on average:
 * each its PTE's clear on the line just read, then its folio's flags. */
static NOINLINE struct walk_result bound_pagetable(const struct lru_model *m,
						   int share)
{
	unsigned long young = m->bound_young, sum = 0, start, k, end, due, j;
	unsigned long lines = bound_loads(m, BOUND_PAGETABLE) - young;
	char *const *line = m->bound_lines;
	char *pte = (char *)m->pt.pte;

	split(lines, share, m->nr_shares, &start, &end);
	j = lines ? (uint64_t)start * young / lines : 0;
	for (k = start; k < end; k++) {
		unsigned long *word = (unsigned long *)(pte + k * 64);

		OPAQUE(word);
		sum += *word;
		for (due = (uint64_t)(k + 1) * young / lines; j < due; j++) {
			bound_clear(word);
			sum += bound_update((unsigned long *)line[j]);
		}
	}
	return result(sum, end - start, 0);
}

/* Flush what bound b will read, and only that: the memmap may be many
 * times the lines the chase reads. */
static void flush_bound(const struct lru_model *m, enum bound b)
{
	unsigned long k, n = bound_loads(m, b);

	if (b == BOUND_STREAM) {
		flush_range(m->descs, n * 64, m->clflushopt);
		return;
	}
	if (b == BOUND_PAGETABLE) {
		flush_range(m->pt.pte, (n - m->bound_young) * 64, m->clflushopt);
		n = m->bound_young;
	}
	for (k = 0; k < n; k++)
		flush_line(m->bound_lines[k], m->clflushopt);
	flush_range(m->bound_lines, n * sizeof(*m->bound_lines), m->clflushopt);
}

/* Tries of limit b to take in round `round` of `rounds`: its wanted
 * tries spread evenly over the rounds, the first in the first round, so
 * a run of fewer rounds than tries takes the rest back to back.
 * `planned`: rounds is known; the first round of auto rounds, before
 * plan_rounds(), takes one where it has none (the chase keeps the one
 * before the walks). */
static int bound_tries_due(const struct lru_model *m, enum bound b, int round,
			   int rounds, int planned)
{
	int want = m->bound_want[b], by;

	if (!planned)
		return !m->bound_tries[b];
	/* taken by the end of this round: want * (round + 1) / rounds, up */
	by = rounds > 0 ? (want * (round + 1) + rounds - 1) / rounds : want;
	if (by > want)
		by = want;
	return by > m->bound_tries[b] ? by - m->bound_tries[b] : 0;
}

/* The limits from their tries: ns per page for the stream (the
 * memmap's bytes per page), ns per load for the chase and the random
 * loads, and the PageTable walk's per LRU folio, as its walk is read:
 * the walk's loads at its tries' pace. */
static void calibrate_done(struct lru_model *m)
{
	int b;

	for (b = 0; b < NR_BOUNDS && m->bound_lines; b++) {
		struct summary t;

		if (!m->bound_tries[b] || !bound_loads(m, b))
			continue;	/* no walk needed it */
		t = summarize(m->bound_s[b], m->bound_tries[b]);
		m->bound_ns[b] = t.median * 1e9 / bound_loads(m, b);
		m->bound_lo[b] = t.median > 0 ? t.min / t.median : 1;
		m->bound_hi[b] = t.median > 0 ? t.max / t.median : 1;
		if (b == BOUND_STREAM)
			m->bound_ns[b] *= m->desc_size / 64.0;
		if (b == BOUND_PAGETABLE)
			m->bound_ns[b] *= pt_walk_loads(m) / m->nr_lru;
	}
	free(m->bound_lines);
	m->bound_lines = NULL;
}

/* ==== Counters ========================================================== */

/*
 * Counters: what a timed walk cost the CPU by its own count, where the
 * kernel lets a process count its own events (perf_event_open(2): no
 * tool, and no privilege up to perf_event_paranoid 2).  The thread that
 * times the walks counts, so with -t the counts are the calling
 * walker's, over its share.  They start just before a walk's timed
 * interval and stop just after it (timed_once()): the flush and the
 * relink are not counted, the interval holds no system call of theirs,
 * and beside the walk they take in two clock reads and two reads of the
 * thread's CPU time.  Hardware events count user space only.  Where an
 * event cannot be counted its errno is kept, and -vv says why.
 *
 * The counter table: a row per event, in enum counter_id's order.  The
 * hardware events are the kernel's generic ones, which each CPU's driver
 * maps to an event of its own (docs/method.md says which); they form one
 * group, which the PMU may share with other users: then it counts part
 * of the time and its counts are scaled.  The software events form a
 * group of their own and count everywhere, so the path is tested on
 * machines without a PMU.  To add an event: its id in enum counter_id
 * (Data model), its row here, its column as the field table's recipe
 * says (a getter calling counted()); then scan.1's COUNTERS, the event
 * in docs/method.md, and for a hardware event tests/t-counters.sh's
 * list of them and the "those four" of counted_share's meaning.
 */
#define COUNTER_UNBUILT	(-1)	/* built without perf_event_open */
#define COUNTER_IDLE	(-2)	/* open, but it never counted */

#ifdef SCAN_PERF
#define EVENT(type, config, kernel)	type, config, kernel
#define CACHE_READ_MISS(cache)	((cache) | PERF_COUNT_HW_CACHE_OP_READ << 8 | \
				 PERF_COUNT_HW_CACHE_RESULT_MISS << 16)
#else
#define EVENT(type, config, kernel)	/* nothing to open */
#endif
/* A seam for tests/t-counters.sh: built with -DSCAN_SOFT_PMU, the
 * hardware rows count the task's clock instead, so that a machine
 * without a PMU runs their path (group, slots, rates, columns). */
#ifdef SCAN_SOFT_PMU
#define HW_EVENT(type, config)	EVENT(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0)
#else
#define HW_EVENT(type, config)	EVENT(type, config, 0)
#endif

static const struct counter_spec {
	const char *name;	/* in the -vv lines */
	int hardware;		/* the PMU's, a rate per page or folio; the
				 * others are totals over the samples */
#ifdef SCAN_PERF
	uint32_t type;		/* perf_event_attr's type and config */
	uint64_t config;
	int kernel;		/* counted in the kernel too: a context
				 * switch happens there */
#endif
} counters[NR_COUNTERS] = {
	[C_LLC_MISSES] = { "LLC misses", 1,
		HW_EVENT(PERF_TYPE_HW_CACHE, CACHE_READ_MISS(PERF_COUNT_HW_CACHE_LL)) },
	[C_DTLB_MISSES] = { "dTLB misses", 1,
		HW_EVENT(PERF_TYPE_HW_CACHE, CACHE_READ_MISS(PERF_COUNT_HW_CACHE_DTLB)) },
	[C_INSTRUCTIONS] = { "instructions", 1,
		HW_EVENT(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS) },
	[C_CYCLES] = { "cycles", 1, HW_EVENT(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES) },
	[C_PAGE_FAULTS] = { "page faults", 0,
		EVENT(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0) },
	[C_CONTEXT_SWITCHES] = { "context switches", 0,
		EVENT(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 1) },
};

enum counter_group { HW_GROUP, SW_GROUP, NR_GROUPS };

/* A group's read (PERF_FORMAT_GROUP): how many, the ns it was enabled
 * and running, then a count per member. */
#define READ_WORDS	(3 + NR_COUNTERS)

/* The calling walker's counters. */
struct counters {
	int leader[NR_GROUPS];		/* the fd that starts its group; -1 */
	int members[NR_GROUPS];		/* events open in it */
	int slot[NR_COUNTERS];		/* an event's place in its group */
	int error[NR_COUNTERS];		/* why it is not open; 0: open */
	uint64_t last[NR_GROUPS][READ_WORDS]; /* each group's last read */
	struct walk_counts walk;	/* the last timed walk's counts */
};

#ifdef SCAN_PERF
static enum counter_group counter_group(int i)
{
	return counters[i].hardware ? HW_GROUP : SW_GROUP;
}

/* Open event i into its group, disabled; 0, or why not (an errno). */
static int counter_open(struct counters *c, int i)
{
	const struct counter_spec *e = &counters[i];
	enum counter_group g = counter_group(i);
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = e->type;
	attr.config = e->config;
	attr.disabled = c->leader[g] < 0;	/* the leader starts them all */
	attr.exclude_kernel = !e->kernel;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, c->leader[g], 0UL);
	if (fd < 0)
		return errno ? errno : EINVAL;
	if (c->leader[g] < 0)
		c->leader[g] = (int)fd;
	c->slot[i] = c->members[g]++;
	return 0;
}

/* Start counting: just before a walk's timed interval. */
static void counters_on(const struct counters *c)
{
	int g;

	for (g = NR_GROUPS - 1; c && g >= 0; g--)
		if (c->leader[g] >= 0)
			ioctl(c->leader[g], PERF_EVENT_IOC_ENABLE, 0);
}

/* Group g's counts since its last read into c->walk, scaled by the
 * share of the time it counted; none where it never counted. */
static void counters_take(struct counters *c, enum counter_group g,
			  const uint64_t *now)
{
	double enabled = now[1] - c->last[g][1], running = now[2] - c->last[g][2];
	int i;

	for (i = 0; i < NR_COUNTERS && running > 0; i++) {
		if (c->error[i] || counter_group(i) != g)
			continue;
		c->walk.value[i] = (now[3 + c->slot[i]] - c->last[g][3 + c->slot[i]]) *
				   enabled / running;
		c->walk.samples[i] = 1;
	}
	if (g == HW_GROUP) {
		c->walk.enabled = enabled;
		c->walk.running = running;
	}
	memcpy(c->last[g], now, sizeof(c->last[g]));
}

/* Stop counting, just after the timed interval, and read the walk's
 * counts into c->walk. */
static void counters_off(struct counters *c)
{
	uint64_t now[READ_WORDS];
	ssize_t want;
	int g;

	if (!c)
		return;
	for (g = 0; g < NR_GROUPS; g++)
		if (c->leader[g] >= 0)
			ioctl(c->leader[g], PERF_EVENT_IOC_DISABLE, 0);
	memset(&c->walk, 0, sizeof(c->walk));
	for (g = 0; g < NR_GROUPS; g++) {
		want = (3 + c->members[g]) * sizeof(uint64_t);
		if (c->leader[g] >= 0 && read(c->leader[g], now, sizeof(now)) == want)
			counters_take(c, g, now);
	}
}
#else	/* nothing to open, start or stop */
static int counter_open(struct counters *c, int i)
{
	(void)c;
	(void)i;
	return COUNTER_UNBUILT;
}

static void counters_on(const struct counters *c)
{
	(void)c;
}

static void counters_off(struct counters *c)
{
	(void)c;
}
#endif

/* The calling walker's counters, opened now, if the output shows them
 * (-vv, CSV, JSON); NULL: nothing is counted.  They close with the
 * process. */
static struct counters *counters_open(const struct params *p)
{
	static struct counters c;
	int g, i;

	if (p->out.verbose < 2 && p->out.format == FORMAT_TEXT)
		return NULL;
	for (g = 0; g < NR_GROUPS; g++)
		c.leader[g] = -1;
	for (i = 0; i < NR_COUNTERS; i++)
		c.error[i] = counter_open(&c, i);
	return &c;
}

/* The last timed walk was kept as a sample: add its counts to its
 * walk's, with why any event was not counted. */
static void counters_keep(const struct counters *c, struct walk_counts *sum)
{
	int i;

	for (i = 0; c && i < NR_COUNTERS; i++) {
		sum->value[i] += c->walk.value[i];
		sum->samples[i] += c->walk.samples[i];
		sum->error[i] = c->error[i];
	}
	if (c) {
		sum->enabled += c->walk.enabled;
		sum->running += c->walk.running;
	}
}

/*
 * A seam for tests/t-counters.sh: built with -DSCAN_FAULT_IN_WALK='"list"',
 * scan faults in a page it has just mapped as its timing of that walk
 * starts, so the page-fault counter has one fault to count in each of
 * its samples.  Normal builds take no fault there.
 */
#ifdef SCAN_FAULT_IN_WALK
static void fault_seam(const char *name)
{
	volatile char *page;

	if (strcmp(name, SCAN_FAULT_IN_WALK))
		return;
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		die("the fault seam: mmap: %s", strerror(errno));
	page[0] = 1;
	munmap((void *)page, 4096);
}
#define FAULT_SEAM(name)	fault_seam(name)
#else
#define FAULT_SEAM(name)	((void)(name))
#endif

/* ==== Timing a walk ===================================================== */

/*
 * Timing a walk: a walk timed from the chosen cache state, timed again
 * while it lost its CPU (time_walk()), and a limit's try timed as a
 * walk is (try_bound()).
 */

/* Defined in The self-check. */
static void check_result(const struct lru_model *m, int w,
			 struct walk_result got);

/* CPU time of the calling thread, and its involuntary context switches
 * (preemption) and voluntary ones (a walk never sleeps: a stop). */
static double thread_cpu(long *switches, long *sleeps)
{
	struct timespec ts = { 0, 0 };
#if defined(SCAN_LINUX) && defined(RUSAGE_THREAD)
	struct rusage ru;
	int failed = getrusage(RUSAGE_THREAD, &ru);

	*switches = failed ? 0 : ru.ru_nivcsw;
	*sleeps = failed ? 0 : ru.ru_nvcsw;
#else
	*switches = *sleeps = 0;
#endif
#ifdef CLOCK_THREAD_CPUTIME_ID
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return -1;
	return ts.tv_sec + ts.tv_nsec / 1e9;
#else
	return -1;
#endif
}

/* The host's steal from this CPU so far, in seconds: the eighth value
 * of /proc/stat's cpuN line; -1 where there is none.  It counts in
 * ticks of 1/CLK_TCK, so a walk may show one tick it did not lose. */
static double cpu_steal(int cpu)
{
	char line[256], name[16];
	unsigned long long v[8];
	FILE *f = fopen("/proc/stat", "r");
	double s = -1;

	snprintf(name, sizeof(name), "cpu%d ", cpu);
	while (f && s < 0 && fgets(line, sizeof(line), f))
		if (!strncmp(line, name, strlen(name)) &&
		    sscanf(line + strlen(name), "%llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8)
			s = (double)v[7] / sysconf(_SC_CLK_TCK);
	if (f)
		fclose(f);
	return s;
}

/* The CPU the calling thread runs on, or -1. */
static int this_cpu(void)
{
#ifdef SCAN_LINUX
	return sched_getcpu();
#else
	return -1;
#endif
}

/* What a timed walk lost of its wall to anything else. */
struct disturbance {
	double lost;		/* wall off its CPU, in seconds */
	double stolen;		/* of it, what /proc/stat says the host took */
	long switches;		/* involuntary context switches */
	long sleeps;		/* voluntary ones: stopped (SIGSTOP) */
};

/*
 * A seam for tests/t-original.sh: built with -DSCAN_STOP_IN_WALK='"list"',
 * scan stops itself (SIGSTOP) as its timing of that walk starts, so the
 * test disturbs the walk without racing it.  Normal builds never stop.
 */
#ifdef SCAN_STOP_IN_WALK
#define STOP_SEAM(name)	((void)(strcmp(name, SCAN_STOP_IN_WALK) || raise(SIGSTOP)))
#else
#define STOP_SEAM(name)	((void)(name))
#endif

/* Run fn through the team once, timed; *d says what the calling thread
 * lost of that wall, and to what. */
static double timed_call(struct team *team, const char *name,
			 struct walk_result (*fn)(const struct lru_model *m, int share),
			 struct walk_result *res, struct disturbance *d)
{
	struct walk_result got;
	double t, t1, cpu, steal;
	long n0, n1 = 0, v0, v1 = 0;
	int core = this_cpu();

	steal = cpu_steal(core);
	counters_on(team->counters);	/* their calls outside the times */
	cpu = thread_cpu(&n0, &v0);
	t1 = now();
	STOP_SEAM(name);
	FAULT_SEAM(name);
	got = team_walk(team, fn);
	t = now() - t1;
	cpu = cpu < 0 ? t : thread_cpu(&n1, &v1) - cpu;
	counters_off(team->counters);
	*res = got;	/* after the clock: its first store faults *res in */
	d->lost = t - cpu;
	d->switches = n1 - n0;
	d->sleeps = v1 - v0;
	/* Where the kernel does not take steal out of thread CPU time
	 * (no PARAVIRT_TIME_ACCOUNTING), /proc/stat still shows it; beyond
	 * the one tick that rounding may add, it was lost. */
	d->stolen = steal < 0 ? 0 : cpu_steal(core) - steal - 1.0 / sysconf(_SC_CLK_TCK);
	if (d->stolen > d->lost)
		d->lost = d->stolen;
	return t;
}

/* Walk w once from the chosen cache state, check its result and relink
 * the LRU (untimed) if the walk isolated its folios.  The untimed work
 * is timed too: the planner budgets the run's wall, not its walks.
 * *d says what the walking thread lost of its wall, and to what. */
static double timed_once(struct lru_model *m, struct team *team, int w,
			enum cache_mode cache, struct walk_result *res,
			struct walk_stats *st, struct disturbance *d)
{
	double t0, t, untimed = 0;

	if (cache == CACHE_COLD) {	/* warm: no flush, and 0 seconds */
		t0 = now();
		evict(m);
		untimed = now() - t0;
		st->flush_s += untimed;
	}
	t = timed_call(team, walks[w].name, walks[w].fn, res, d);
	check_result(m, w, *res);
	if (m->work.access == ACCESS_ISOLATE) {
		t0 = now();
		link_lru(m);
		st->relink_s += now() - t0;
		untimed += now() - t0;
	}
	if (walks[w].after) {	/* counted as relinking */
		t0 = now();
		walks[w].after(m);
		st->relink_s += now() - t0;
		untimed += now() - t0;
	}
	if (!st->nr_samples)
		st->first_untimed = untimed;
	return t;
}

/* The walk lost too much of its wall to trust its time. */
static int disturbed(const struct disturbance *d, double t)
{
	return d->lost > LOST_SHARE * t && d->lost > LOST_MIN_S;
}

/* What took a disturbed walk's CPU, as far as the counters tell. */
static const char *lost_to(const struct disturbance *d)
{
	if (d->sleeps > 0)
		return "stopped";
	if (d->switches > 0)
		return "preempted";
	if (d->stolen >= d->lost)
		return "the host's steal";
	return "off the CPU";
}

/* Why a disturbed walk or try is not timed again. */
enum retime_stop { RETIME_GO, RETIME_CAP, RETIME_ALIKE, RETIME_BUDGET, RETIME_CLEAN };

/*
 * Whether to time again a walk or try that just lost `lost` of its wall
 * to other work, after `tries` retimes, the one before losing `before`
 * of its own (the share), `cost` the wall of timing it once more: not
 * after RETIMES; not when the retime was no cleaner than what it
 * replaced, nor at all once the run's retimes have more often been so
 * than clean (a busy CPU takes its share of every walk); not when
 * retiming would pass RETIME_SHARE of the run's wall so far, that
 * retime in it.
 */
static enum retime_stop retime_stop(const struct lru_model *m, int tries,
				    double lost, double before, double cost)
{
	if (tries == RETIMES)
		return RETIME_CAP;
	if (tries && lost >= before)
		return RETIME_ALIKE;
	if (!tries && m->retimes_futile >= 2 && m->retimes_futile > m->retimes_clean)
		return RETIME_ALIKE;
	if (m->retime_s + cost > RETIME_SHARE * (now() - m->start_s + cost))
		return RETIME_BUDGET;
	return RETIME_GO;
}

/* The least disturbed timing of a walk or try so far, and the share of
 * its wall it lost (shares are <= 1: 2 is none yet). */
struct retiming {
	double before;
	double kept;
};

/* What the timing t, begun at t0 after `tries` retimes, says of its
 * retiming (time_walk(), try_bound()): RETIME_CLEAN, or retime_stop()'s
 * verdict; the run's retiming tallies and *rt kept up to date. */
static enum retime_stop retime_after(struct lru_model *m, struct retiming *rt,
				     int tries, double t, double t0,
				     const struct disturbance *d)
{
	enum retime_stop why;
	double share;

	if (tries)
		m->retime_s += now() - t0;
	if (!disturbed(d, t)) {
		m->retimes_clean += tries > 0;
		return RETIME_CLEAN;
	}
	share = d->lost < t ? d->lost / t : 1;
	if (share < rt->before)
		rt->kept = t;
	why = retime_stop(m, tries, share, rt->before, now() - t0);
	m->retimes_futile += tries && why == RETIME_ALIKE;
	rt->before = share < rt->before ? share : rt->before;
	return why;
}

/* Time walk w, again while something else took its CPU and retiming
 * is worth it (retime_stop()): a stopped or preempted walk would print
 * a wrong figure.  Kept disturbed, the least disturbed timing counts. */
static double time_walk(struct lru_model *m, struct team *team, int w,
			enum cache_mode cache, struct walk_result *res,
			struct walk_stats *st)
{
	struct disturbance d;
	struct retiming rt = { 2, 0 };
	enum retime_stop why;
	double t, t0;
	int tries;

	for (tries = 0;; tries++) {
		t0 = now();
		t = timed_once(m, team, w, cache, res, st, &d);
		why = retime_after(m, &rt, tries, t, t0, &d);
		if (why == RETIME_CLEAN)
			return t;
		if (why != RETIME_GO) {
			st->disturbed++;
			st->kept_alike += why == RETIME_ALIKE;
			st->kept_budget += why == RETIME_BUDGET;
			return rt.kept;
		}
		st->retimed++;
		st->preempted += d.switches > 0;
		st->stolen += !d.switches && d.stolen >= d.lost;
	}
}

/* One try of bound b from the walks' cache state, timed again while
 * disturbed, as time_walk() times a walk: a try kept preempted beside
 * walks timed until clean made the limit read slow. */
static void try_bound(struct lru_model *m, struct team *team, enum bound b,
		      enum cache_mode cache)
{
	struct disturbance d;
	struct walk_result res;
	struct retiming rt = { 2, 0 };
	double start = now(), t, t0;
	enum retime_stop why;
	int retimes;

	if (!m->bound_want[b] || !bound_loads(m, b) || m->bound_tries[b] == BOUND_TRIES)
		return;
	for (retimes = 0;; retimes++) {
		t0 = now();
		if (cache == CACHE_COLD)
			flush_bound(m, b);
		t = timed_call(team, bounds[b].name, bounds[b].fn, &res, &d);
		why = retime_after(m, &rt, retimes, t, t0, &d);
		if (why == RETIME_CLEAN)
			break;
		if (why != RETIME_GO) {
			m->bound_kept[b]++;
			t = rt.kept;
			break;
		}
	}
	m->bound_s[b][m->bound_tries[b]++] = t;
	m->calibrate_s += now() - start;
}

/* ==== Rounds and their plan ============================================= */

/*
 * Rounds: the walks interleaved within rounds (run_round()), the rounds
 * planned by cost (plan_rounds()), or the 2023 protocol
 * (original_round()); the limits' first tries and what the run expects
 * before any walk; measure() runs it all.
 */

/* Defined in The self-check. */
static void check_build(const struct lru_model *m, const struct params *p, int b);

/*
 * One round: every chosen walk, each repeated stats[s].reps times, the
 * repetitions interleaved so each walk's samples spread evenly over the
 * round: the physical walk is timed before and after the long list walk,
 * so the machine's drift during it cancels out of their ratio.  Which
 * walk goes first rotates from round to round.
 */
static void run_round(struct lru_model *m, struct team *team,
		      const struct params *p, struct walk_stats *stats,
		      int round, const int *tries, struct walk_result *last)
{
	int first[NR_WALKS_MAX], done[NR_WALKS_MAX] = { 0 };
	int tried[NR_BOUNDS] = { 0 };
	int i, s, b, next, total = 0;

	for (s = 0; s < p->run.nr_walks; s++) {
		first[s] = stats[s].nr_samples;
		total += stats[s].reps;
	}
	while (total--) {
		/* the walk furthest behind its share of the round */
		for (next = -1, i = 0; i < p->run.nr_walks; i++) {
			s = (round + i) % p->run.nr_walks;
			if (done[s] < stats[s].reps &&
			    (next < 0 || (done[s] + 0.5) * stats[next].reps <
					 (done[next] + 0.5) * stats[s].reps))
				next = s;
		}
		b = walks[p->run.walk[next]].bound;
		for (i = 0; m->bound_lines && !tried[b] && i < tries[b]; i++)
			try_bound(m, team, b, p->run.cache);
		tried[b] = 1;
		stats[next].sample[stats[next].nr_samples] =
			time_walk(m, team, p->run.walk[next], p->run.cache, &last[next], &stats[next]);
		counters_keep(team->counters, &stats[next].counts);
		stats[next].nr_samples++;
		done[next]++;
	}
	/* the limits no walk of the run is held against: the machine
	 * line prints them all */
	for (b = 0; m->bound_lines && b < NR_BOUNDS; b++)
		for (i = 0; !tried[b] && i < tries[b]; i++)
			try_bound(m, team, b, p->run.cache);
	for (s = 0; s < p->run.nr_walks; s++)
		stats[s].round_time[round] =
			summarize(&stats[s].sample[first[s]], stats[s].reps).median;
	for (s = 0; s < p->run.nr_walks; s++)
		stats[s].ratio[round] = stats[s].round_time[round] /
					stats[0].round_time[round];
}

/*
 * Choose repetitions and rounds from the first round's costs: repeat
 * the cheap walks (a short physical walk is noisy and cheap) until each
 * takes about REP_SHARE of the slowest, and run as many rounds as fit
 * ROUND_BUDGET_S of wall, within [MIN_ROUNDS, MAX_ROUNDS].  The wall
 * counts each walk's untimed work (flushing, relinking) beside it, so a
 * walk of microseconds behind a flush of megabytes is not repeated a
 * thousand times; repetitions shrink first, so MIN_ROUNDS fit the budget.
 */
static int plan_rounds(struct walk_stats *stats, int nr_walks, int builds)
{
	double slowest = 0, round = 0, fit, planned;
	int s, rounds;

	for (s = 0; s < nr_walks; s++)
		if (stats[s].round_time[0] > slowest)
			slowest = stats[s].round_time[0];
	for (s = 0; s < nr_walks; s++) {
		double t = stats[s].round_time[0];
		double reps = t > 0 ? REP_SHARE * slowest / t : MAX_REPS;

		stats[s].reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : (int)reps;
		round += stats[s].reps * (t + stats[s].first_untimed);
	}
	fit = ROUND_BUDGET_S / (MIN_ROUNDS * builds);
	if (round > fit) {
		planned = round;
		for (s = 0, round = 0; s < nr_walks; s++) {
			double t = stats[s].round_time[0] + stats[s].first_untimed;
			int reps = (int)(stats[s].reps * fit / planned);

			stats[s].reps = reps < 1 ? 1 : reps;
			round += stats[s].reps * t;
		}
	}
	rounds = round > 0 ? (int)(ROUND_BUDGET_S / round / builds) : MAX_ROUNDS;
	if (rounds < MIN_ROUNDS)
		rounds = MIN_ROUNDS;
	if (rounds * builds > MAX_ROUNDS)
		rounds = MAX_ROUNDS / builds;
	return rounds < 1 ? 1 : rounds;
}

/* The i-th walk to time and print: with --original in the original's
 * order (each row's .original_turn), else in the table's. */
static int timing_order(const struct run_knobs *run, int i)
{
	int s;

	for (s = 0; run->original && s < run->nr_walks; s++)
		if (walks[run->walk[s]].original_turn == i + 1)
			return s;
	return i;
}

/*
 * The 2023 protocol (--original): right after setup, each walk timed
 * once in the original's order (the walk table's .original_turn), from
 * the cache state setup left, never timed again; the self-check stays,
 * and a walk that lost its CPU is marked disturbed (check_disturbed()
 * says so).
 */
static int original_round(struct lru_model *m, struct team *team,
			  const struct params *p, struct walk_stats *stats,
			  struct walk_result *last)
{
	struct disturbance d;
	double t;
	int i, s;

	for (i = 0; i < p->run.nr_walks; i++) {
		s = timing_order(&p->run, i);
		t = timed_once(m, team, p->run.walk[s], CACHE_WARM, &last[s], &stats[s], &d);
		counters_keep(team->counters, &stats[s].counts);
		stats[s].sample[0] = stats[s].round_time[0] = t;
		stats[s].nr_samples = 1;
		if (disturbed(&d, t)) {
			stats[s].disturbed = 1;
			stats[s].lost_share = d.lost < t ? d.lost / t : 1;
			stats[s].lost_to = lost_to(&d);
		}
	}
	for (s = 0; s < p->run.nr_walks; s++)
		stats[s].ratio[0] = stats[s].round_time[0] / stats[0].round_time[0];
	return 1;
}

/* Defined in Text lines. */
static void print_expected(const struct lru_model *m, const struct params *p,
			   int rounds, double left);
static void print_round_done(const struct lru_model *m, const struct params *p,
			     int round, int rounds);

/*
 * The first tries, before any walk, time what the run expects
 * (bound_pace); a cheap limit's then leave its median, and its tries
 * are taken beside the walks it bounds, as the chase's others are.  A
 * try right after setup read faster than those beside the walks:
 * ArrayLRU read 1.08x its limit in the median at -c 10 with it, where
 * the chase's are too dear to take one more (docs/method.md), and the
 * stream's first, over the whole memmap, is what the chase's first
 * follows: after a stream of 2^18 lines instead, a -c 32 run expected
 * twice its wall.  The random loads' first reads at most BOUND_LINES / 2
 * lines: ArrayLRU is a small part of what the run expects.
 */
static void bound_first_tries(struct lru_model *m, struct team *team,
			      enum cache_mode cache)
{
	unsigned long len[NR_BOUNDS];
	int b;

	for (b = 0; m->bound_lines && b < NR_BOUNDS; b++) {
		len[b] = m->bound_len[b];
		if (b == BOUND_RANDOM && len[b] > BOUND_LINES / 2)
			m->bound_len[b] = BOUND_LINES / 2;
		try_bound(m, team, b, cache);
		if (m->bound_tries[b])
			m->bound_pace[b] = m->bound_s[b][0] / bound_loads(m, b);
		m->bound_len[b] = len[b];
	}
}

static void bound_first_done(struct lru_model *m)
{
	int b;

	for (b = 0; b < NR_BOUNDS; b++)
		if (bounds[b].cheap) {
			m->bound_tries[b] = 0;
			m->bound_kept[b] = 0;
		}
}

/* Seconds a timed walk of w should take at its limit's first try. */
static double walk_expected(const struct lru_model *m, int w)
{
	return m->bound_pace[walks[w].bound] * walk_loads(m, w);
}

/*
 * The run's plan from its limits' first tries, before any walk: each
 * walk as long as its limit says, the rounds and repetitions as
 * plan_rounds() would choose from such a round, the tries still to take
 * and the models still to build (as long as the first).  Sets *rounds;
 * returns the seconds left.
 */
static double expect_run(const struct lru_model *m, const struct params *p,
			 struct walk_stats *stats, int *rounds)
{
	double round = 0, left = 0, setup = now() - m->start_s;
	int s, b, n = p->run.builds;

	for (s = 0; s < p->run.nr_walks; s++) {
		stats[s].round_time[0] = walk_expected(m, p->run.walk[s]);
		stats[s].first_untimed = 0;
	}
	*rounds = p->run.rounds ? p->run.rounds : plan_rounds(stats, p->run.nr_walks, n);
	for (s = 0; s < p->run.nr_walks; s++) {
		round += (p->run.rounds ? 1 : stats[s].reps) * stats[s].round_time[0];
		stats[s].reps = 1;	/* the first round times each once */
	}
	for (b = 0; b < NR_BOUNDS; b++)	/* a cheap first try leaves */
		left += (m->bound_want[b] - (bounds[b].cheap ? 0 : m->bound_tries[b])) *
			m->bound_pace[b] * bound_loads(m, b);
	return left + *rounds * n * round + (n - 1) * setup;
}

/* Build, time and check every model; returns the rounds taken. */
static int measure(struct lru_model *m, struct team *team,
		   const struct params *p, struct walk_stats *stats,
		   struct walk_result *last)
{
	int b, r, s, rounds = p->run.rounds ? p->run.rounds : 1, nr_rounds = 0;
	int tries[NR_BOUNDS], planned;

	team->counters = counters_open(p);
	for (s = 0; s < p->run.nr_walks; s++)
		stats[s].reps = 1;
	if (p->run.original) {
		nr_rounds = original_round(m, team, p, stats, last);
		if (p->out.verbose >= 3)	/* after: its walks time setup's caches */
			check_build(m, p, 0);
		return nr_rounds;
	}
	plan_bounds(m, p, NULL, (p->run.rounds ? p->run.rounds : MIN_ROUNDS) * p->run.builds);
	draw_bound_lines(m);
	/* the first round's tries, before its walks: what the run expects */
	bound_first_tries(m, team, p->run.cache);
	if (m->bound_lines) {
		double left = expect_run(m, p, stats, &r);

		m->expect_s = now() - m->start_s + left;
		print_expected(m, p, r, left);
	}
	bound_first_done(m);
	m->walk_start_s = now();
	for (b = 0; b < p->run.builds; b++) {
		if (b)
			build_model(m, p, build_seed(p->layout.seed, b), 0);
		if (p->out.verbose >= 3)
			check_build(m, p, b);
		for (r = 0; r < rounds && nr_rounds < MAX_ROUNDS; r++) {
			planned = p->run.rounds || nr_rounds;
			for (s = 0; s < NR_BOUNDS; s++)
				tries[s] = bound_tries_due(m, s, nr_rounds,
							   rounds * p->run.builds, planned);
			run_round(m, team, p, stats, nr_rounds++, tries, last);
			if (nr_rounds == 1 && !p->run.rounds) {
				rounds = plan_rounds(stats, p->run.nr_walks, p->run.builds);
				plan_bounds(m, p, stats, rounds * p->run.builds);
			}
			print_round_done(m, p, nr_rounds, rounds * p->run.builds);
		}
	}
	calibrate_done(m);
	return nr_rounds;
}

/* ==== The self-check ==================================================== */

/* As STREAM checks its own: every timed walk must return the sum of the
 * ages and the count of the folios the model holds, and -vvv checks every
 * link and prints the LRU's fingerprint.  A failure is exit 1. */

/* What every walk must return: the ages 0..n-1 summed, n folios counted.
 * Computed so it wraps exactly as the walks' unsigned long sums do. */
static struct walk_result expected_result(const struct lru_model *m)
{
	unsigned long n = m->nr_lru;
	struct walk_result r = { 0, 0, 0 };

	r.sum = n % 2 ? n * ((n - 1) / 2) : (n / 2) * (n - 1);
	r.visits = n;
	return r;
}

static void check_result(const struct lru_model *m, int w,
			 struct walk_result got)
{
	struct walk_result want = walks[w].expect ? walks[w].expect(m) :
				  expected_result(m);

	if (got.sum != want.sum || got.visits != want.visits)
		die("self-check failed: %s summed %lu over %lu folios, expected %lu over %lu",
		    walks[w].label, got.sum, got.visits, want.sum, want.visits);
}

/* The pfn of a folio's head. */
static unsigned long folio_pfn(const struct lru_model *m,
			       const struct folio *folio)
{
	if (m->desc_size == MEMDESC_SIZE)
		return ((const struct page *)folio)->index;
	return ((const char *)folio - m->descs) / m->desc_size;
}

/* What check_lru() found. */
struct lru_check {
	int ok;			/* every link, age and flag as it must be */
	uint64_t fingerprint;	/* of the head pfns in LRU order */
	double mean_run;	/* folios per run of pfn-adjacent folios */
};

/*
 * Go through the LRU in order, checking every link (each folio's next is
 * the next position of its list, and that one's prev points back), age
 * and flag; hash the head pfns; and count where LRU order steps to the
 * next LRU folio in pfn order.
 */
static struct lru_check check_lru(const struct lru_model *m)
{
	struct lru_check c = { 1, 0xcbf29ce484222325ULL, 0 }; /* FNV-1a basis */
	unsigned long s0, s1, k, pfn, runs = 1;
	const struct folio *folio, *next;
	int t;

	for (t = 0; t < m->nr_shares; t++) {
		share_range(m, t, &s0, &s1);
		for (k = s0; k < s1; k++) {
			folio = m->lru[k].folio;
			next = m->lru[list_next(m, s0, s1, k)].folio;
			if (folio->age != k || folio->next != next ||
			    next->prev != folio || !(folio->flags & PG_LRU)) {
				c.ok = 0;
				return c;
			}
			pfn = folio_pfn(m, folio);
			c.fingerprint = (c.fingerprint ^ pfn) * 0x100000001b3ULL;
			if (k + 1 < m->nr_lru &&
			    folio_pfn(m, m->lru[k + 1].folio) != next_lru_pfn(m, pfn))
				runs++;
		}
	}
	c.mean_run = (double)m->nr_lru / runs;
	return c;
}

/* -vvv: check build b's links, and print its fingerprint. */
static void check_build(const struct lru_model *m, const struct params *p, int b)
{
	struct lru_check c = check_lru(m);

	if (!c.ok)
		die("self-check failed: the LRU links of build %d are inconsistent", b);
	fprintf(p->out.text, "LRU fingerprint %016llx (links checked)\n",
		(unsigned long long)c.fingerprint);
	fprintf(p->out.text, "LRU order: runs of pfn-adjacent folios %.2f long on average\n",
		c.mean_run);
}

/* #### Part II: the request ############################################## */

/*
 * Part II, the request: the command line into struct params.  The option
 * table is the only list of options; parse_params() the one way in (main
 * and tests/fuzz-options.c).  It keeps: a bad value, or options that
 * contradict each other, is one line on stderr and exit 2, before
 * anything is allocated; an option given wins over the preset; nothing
 * is rounded silently.
 */

/* ==== The option table ================================================== */

/*
 * The option table: one row per option.  Parsing, the defaults, the
 * usage text, the knobs' CSV and JSON columns, the preset, plain_knobs()
 * and the checks of --original and --memmap-from all read it, and
 * tests/fuzz-options.c feeds it.  .field is the option's knob: options
 * that set the same field (-c and -m, --folio-order and --folios) are
 * one knob, so the preset and --original can tell what the command line
 * set.  A typed row's .def is its default (the only one); its help gets
 * "(default ...)" from it when .show_def says so.  To add a knob:
 *
 *   1. its field in the group it belongs to: layout_knobs (what the
 *      memmap holds), work_knobs (what a walk does: the model copies
 *      them, so walks read m->work) or run_knobs (how the run goes);
 *   2. its row here: kind, field, limits, default, help, and what it
 *      is: .csv its column (and its KNOB row at the end of the field
 *      table, as its recipe says), .model if off its default the walks
 *      measure code (plain_knobs()), .kernel_like its preset value,
 *      .file_decides if a --memmap-from file sets it, .original_fixes
 *      if --original rules it out;
 *   3. its use, where the layout, a walk or the run needs it;
 *   4. its line in scan.1 (tests/t-knobs.sh holds every option -h lists
 *      to scan.1, and every column to an option), its column's line in
 *      docs/output.md, and its kernel reference in docs/model.md.
 *
 * A -v line about it or a check across options (check_params()) only
 * where a reader needs one.
 */

/* How an option's value reaches its field of struct params. */
enum opt_kind {
	OPT_CUSTOM,	/* .set reads it: the grammar needs its own code */
	OPT_FLAG,	/* no value: the int field becomes 1 */
	OPT_INT,	/* a whole number in [lo, hi], into an int */
	OPT_ULONG,	/* the same into an unsigned long (.hex: 0x too) */
	OPT_REAL,	/* a decimal in [min, max] (.above: not min itself) */
	OPT_CHOICE,	/* one of .names, its index into an int-sized enum */
	OPT_FILE,	/* a path, not empty, into a const char * */
};

_Static_assert(sizeof(enum access) == sizeof(int) && sizeof(enum thp_mode) == sizeof(int),
	       "OPT_CHOICE writes enums as int");

/* A custom row's reader, or -h's, -V's and --fields' printer. */
typedef void option_setter(struct params *p, const char *opt, const char *arg);

struct option_spec {
	char short_name;	/* 0 for a long option only */
	const char *long_name;	/* NULL for a short option only */
	const char *metavar;	/* NULL if it takes no value */
	enum opt_kind kind;
	size_t field;		/* offsetof(struct params, its field) */
	unsigned long lo, hi;	/* OPT_INT, OPT_ULONG */
	double min, max;	/* OPT_REAL */
	int above, hex, show_def;
	const char *const *names; /* OPT_CHOICE */
	double def;		/* a typed row's default */
	option_setter *set;	/* OPT_CUSTOM */
	const char *help;
	size_t size;		/* sizeof its field */
	const char *csv;	/* its CSV and JSON column, if it has one */
	int model;		/* off its default, the walks measure code */
	const char *kernel_like; /* its --kernel-like value, if the preset sets it */
	int file_decides;	/* a --memmap-from file decides it */
	int original_fixes;	/* --original fixes it: never with --original */
};

#define FIELD(f)	.field = offsetof(struct params, f), \
			.size = sizeof(((struct params *)0)->f)
#define NO_FIELD	.field = (size_t)-1
#define CUSTOM(f, fn)	.kind = OPT_CUSTOM, FIELD(f), .set = fn
#define FLAG(f)		.kind = OPT_FLAG, FIELD(f)
#define INT(f, l, h, d)	.kind = OPT_INT, FIELD(f), .lo = l, .hi = h, .def = d
#define ULONG(f, l, h, d) .kind = OPT_ULONG, FIELD(f), .lo = l, .hi = h, .def = d
#define REAL(f, l, h, d) .kind = OPT_REAL, FIELD(f), .min = l, .max = h, .def = d
#define CHOICE(f, n, d)	.kind = OPT_CHOICE, FIELD(f), .names = n, .def = d
#define FILE_NAME(f)	.kind = OPT_FILE, FIELD(f)

/* The custom rows' readers, defined below the table; --fields' in CSV,
 * JSON and KTAP. */
static option_setter set_count, set_verbose, set_folios, set_rmap, set_struct_page,
	set_walks, set_pfns, set_expect, show_help, show_version, show_fields, run_hold;

/* --nonleaf-young: off, or on where the MMU sets non-leaf accessed
 * bits (arch_has_hw_nonleaf_pmd_young()). */
static const char *const pt_nonleaf_names[] = { "off", "on", NULL };

static const struct option_spec options[] = {
	{ 'c', NULL, "N|auto", CUSTOM(layout.nr_pages, set_count),
	  .help = "N million pages (default 1); auto: not cache-sized" },
	{ 'm', NULL, "SIZE", CUSTOM(layout.nr_pages, set_count),
	  .help = "memory to simulate in 4 KiB pages (64M, 40G)" },
	{ 's', NULL, "SEED", ULONG(layout.seed, 0, ULONG_MAX, 0), .hex = 1, .csv = "seed",
	  .help = "seed of the layout and LRU order (default: clock)" },
	{ 'r', NULL, "N", INT(run.rounds, 1, MAX_ROUNDS, 0),	/* 0: by cost */
	  .help = "time each walk N times (default: by cost)" },
	{ 't', NULL, "N", INT(run.threads, 1, MAX_THREADS, 1), .show_def = 1,
	  .csv = "threads", .model = 1,
	  .help = "N threads walk their own shares at once" },
	{ 'v', NULL, NULL, CUSTOM(out.verbose, set_verbose),
	  .help = "more detail: -v, -vv, -vvv" },
	{ 'q', NULL, NULL, FLAG(out.quiet),
	  .help = "no warnings about the figures (errors stay)" },
	/* CI gates on it: a status no other outcome has (docs/output.md) */
	{ 0, "strict", NULL, FLAG(out.strict),
	  .help = "exit 5 if a warning fires that --expect does not name" },
	{ 0, "expect", "CODE,...", CUSTOM(out.expect, set_expect),
	  .help = "warnings expected (a smoke run's cache-sized): no fail" },
	{ 0, "walks", "NAME,...", CUSTOM(run.walk, set_walks), .original_fixes = 1,
	  .help = "walks to compare with the physical one, in order" },
	{ 0, "format", "text|csv|json|ktap", CHOICE(out.format, format_names, FORMAT_TEXT),
	  .help = "results as the original's lines (default), data or KTAP" },
	/* the kernel maps its memmap with 2 MiB pages (vmemmap PMDs on
	 * x86-64); system is the original's chance */
	{ 0, "memmap-thp", "always|never|system", CHOICE(run.thp, thp_names, THP_ALWAYS),
	  .csv = "thp", .original_fixes = 1,
	  .kernel_like = "always",	/* the vmemmap's PMD mapping */
	  .help = "the memmap's pages: 2 MiB (default), 4 KiB, or any" },
	/* its first name, kept: it reads as the system's THP for user memory */
	{ 0, "thp", "always|never|system", CHOICE(run.thp, thp_names, THP_ALWAYS),
	  .original_fixes = 1, .help = "the old name of --memmap-thp" },
	{ 0, "cache", "cold|warm", CHOICE(run.cache, cache_names, CACHE_COLD),
	  .csv = "cache", .original_fixes = 1,
	  .help = "flush caches before each walk (default) or not" },
	{ 0, "cpu", "N", INT(run.cpu, 0, 65535, -1),	/* -1: the kernel places it */
	  .help = "run on CPU N only" },
	{ 0, "builds", "N", INT(run.builds, 1, MAX_ROUNDS, 1), .show_def = 1,
	  .csv = "builds", .original_fixes = 1,
	  .help = "build and time N models in turn" },
	{ 0, "lru-fraction", "F", REAL(layout.lru_fraction, 0, 1, 1), .above = 1, .show_def = 1,
	  .csv = "lru_fraction", .model = 1, .file_decides = 1,
	  .kernel_like = "0.85",	/* reclaim runs near the watermarks */
	  .help = "share of pages on the LRU, 0 < F <= 1" },
	{ 0, "non-lru", "spread|pageblock|buddy", CHOICE(layout.non_lru, non_lru_names, NON_LRU_SPREAD),
	  .csv = "non_lru", .file_decides = 1,
	  .kernel_like = "pageblock",	/* grouped by migratetype */
	  .show_def = 1, .help = "where the other pages sit" },
	{ 0, "folio-order", "K", CUSTOM(layout.folio_share, set_folios),
	  .model = 1, .file_decides = 1,
	  .help = "LRU folios of 2^K pages, K = 0..10 (default 0)" },
	{ 0, "folios", "ORDER:PCT,...", CUSTOM(layout.folio_share, set_folios),
	  .csv = "folios", .model = 1, .file_decides = 1,
	  .kernel_like = "0:65,2:5,4:5,9:25", /* anon order 0, mTHP, file THP */
	  .help = "a mix of folio orders by share of LRU pages" },
	{ 0, "phys", "every|jump", CHOICE(work.phys, phys_names, PHYS_EVERY),
	  .csv = "phys", .model = 1,
	  .help = "physical walk reads every page (default) or jumps" },
	{ 0, "locality", "L", REAL(layout.locality, 1, MAX_RUN, 1), .show_def = 1,
	  .csv = "locality", .model = 1,
	  .kernel_like = "8",		/* pcp batches, after some churn */
	  .help = "mean run of pfn-adjacent LRU folios" },
	{ 0, "access", "read|write|atomic|isolate", CHOICE(work.access, access_names, ACCESS_READ),
	  .csv = "access", .model = 1,
	  .kernel_like = "isolate",	/* isolate_lru_folios() */
	  .show_def = 1, .help = "work per folio in every walk" },
	/* one list, as the original; K lists are walked in turn, one folio
	 * from each unless --chunk says more */
	{ 0, "lists", "K", INT(work.nr_lists, 1, MAX_LISTS, 1), .show_def = 1,
	  .csv = "lists", .model = 1,
	  .kernel_like = "40",		/* 4 evictable lists x 10 memcgs */
	  .help = "LRU lists per thread, walked in turn" },
	{ 0, "chunk", "N", ULONG(work.chunk, 1, UINT32_MAX, 1), .show_def = 1,
	  .csv = "chunk",
	  .kernel_like = "32",		/* SWAP_CLUSTER_MAX */
	  .help = "folios taken from each list per turn" },
	{ 0, "rmap", "SHARE:HOPS", CUSTOM(work.rmap_share, set_rmap),
	  .csv = "rmap_share", .model = 1,
	  .kernel_like = "0.5:3",	/* anon_vma/VMA/PTE for mapped folios */
	  .help = "mapped folios cost HOPS dependent misses each" },
	{ 0, "struct-page", "64|32|8", CUSTOM(layout.desc_size, set_struct_page),
	  .csv = "struct_page", .model = 1,
	  .help = "bytes per page descriptor (default 64)" },
	{ 0, "memcg-share", "F", REAL(layout.memcg_share, 0, 1, 1), .above = 1,
	  .csv = "memcg_share",
	  .help = "share of LRU folios in the memcg reclaim targets" },
	{ 0, "memmap-from", "FILE", FILE_NAME(layout.memmap_from), .csv = "memmap_from",
	  .help = "lay the memmap out as a kpageflags file says" },
	{ 0, "pfns", "START:COUNT", CUSTOM(layout.pfn_start, set_pfns),
	  .help = "replay COUNT pfns of it from START" },
	{ 0, "memcg", "INODE", ULONG(layout.memcg, 1, ULONG_MAX, 0), .csv = "memcg",
	  .help = "reclaim targets the replayed memcg of that inode" },
	{ 0, "memcg-from", "FILE", FILE_NAME(layout.memcg_from),
	  .help = "its kpagecgroup (default /proc/kpagecgroup)" },
	{ 0, "lru-order", "FILE", FILE_NAME(layout.lru_order),
	  .help = "LRU order of the pfns a trace-lru.sh FILE names" },
	{ 0, "kernel-like", NULL, FLAG(run.kernel_like), .csv = "kernel_like",
	  .original_fixes = 1,
	  .help = "realistic values for every knob not given" },
	{ 0, "original", NULL, FLAG(run.original), .csv = "original",
	  .help = "the 2023 protocol: walks once, no flush, system THP" },
	/* the PageTable walk's (--walks=pagetable); docs/model.md */
	{ 0, "mapped", "F", REAL(work.pt_mapped, 0, 1, 1), .above = 1, .show_def = 1,
	  .csv = "mapped", .kernel_like = "0.5",	/* as --rmap's mapped half */
	  .help = "PageTable: share of LRU folios in page tables" },
	{ 0, "young", "F", REAL(work.pt_young, 0, 1, 1), .show_def = 1,
	  .csv = "young", .kernel_like = "0.1",	/* a working set's hot tenth */
	  .help = "PageTable: share of mapped PTEs young" },
	{ 0, "young-tables", "F", REAL(work.pt_young_tables, 0, 1, 1), .above = 1,
	  .show_def = 1, .csv = "young_tables",
	  .help = "PageTable: share of PTE tables holding the young" },
	{ 0, "pte-adjacent", "F", REAL(work.pt_adjacent, 0, 1, 0), .show_def = 1,
	  .csv = "pte_adjacent", .kernel_like = "0.875",	/* --locality 8's runs */
	  .help = "PageTable: chance a PTE maps the next mapped pfn" },
	{ 0, "nonleaf-young", "on|off", CHOICE(work.pt_nonleaf, pt_nonleaf_names, 1),
	  .show_def = 1, .csv = "nonleaf_young",
	  .help = "PageTable: an old PMD entry skips its table (x86)" },
	/* scan-kernel's aging walk: its working set, 4 KiB pages whatever THP */
	{ 0, "hold", "SIZE", .kind = OPT_CUSTOM, NO_FIELD, .set = run_hold,
	  .help = "no walk: hold SIZE in base pages, touch on stdin" },
	{ 0, "fields", NULL, .kind = OPT_CUSTOM, NO_FIELD, .set = show_fields,
	  .help = "list the CSV and JSON columns and exit" },
	{ 'h', "help", NULL, .kind = OPT_CUSTOM, NO_FIELD, .set = show_help,
	  .help = "print this help and exit" },
	{ 'V', "version", NULL, .kind = OPT_CUSTOM, NO_FIELD, .set = show_version,
	  .help = "print the version and exit" },
};

/* ==== Parsing values ==================================================== */

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

/*
 * A decimal number kept exactly, as its digits: digit[0..len), most
 * significant first and no leading or trailing zero, times 10^exp.  -c
 * and -m work out their page counts on it, never on a double, which
 * takes -c 0.0099999999999999999999 for 10,000 pages.  Room for the 63
 * characters parse_decimal() lets through, times a unit up to 2^60 (19
 * more digits), divided by 4096 (12 more).
 */
struct decimal {
	unsigned char digit[128];
	int len;
	long exp;
};

/* Drop trailing zeros into the exponent, and leading ones. */
static void decimal_trim(struct decimal *d)
{
	int lead = 0;

	while (lead < d->len && !d->digit[lead])
		lead++;
	memmove(d->digit, d->digit + lead, d->len - lead);
	d->len -= lead;
	while (d->len && !d->digit[d->len - 1]) {
		d->len--;
		d->exp++;
	}
	if (!d->len)
		d->exp = 0;
}

/* The number at the start of s, as parse_decimal() took it. */
static void decimal_parse(const char *s, struct decimal *d)
{
	const char *p;
	long point = 0, e = 0;

	d->len = 0;
	d->exp = 0;
	for (p = s; (*p >= '0' && *p <= '9') || *p == '.'; p++) {
		if (*p == '.') {
			point = 1;
			continue;
		}
		d->exp -= point;
		if (d->len || *p != '0')
			d->digit[d->len++] = *p - '0';
	}
	if (*p == 'e' || *p == 'E')	/* bounded: strtod() took it */
		e = strtol(p + 1, NULL, 10);
	d->exp += e < -9999 ? -9999 : e > 9999 ? 9999 : e;
	decimal_trim(d);
}

/* d times f, f at most UINT64_MAX / 10 so no step overflows. */
static void decimal_mul(struct decimal *d, uint64_t f)
{
	uint64_t carry = 0;
	int i;

	for (i = d->len; i-- > 0;) {
		carry += d->digit[i] * f;
		d->digit[i] = carry % 10;
		carry /= 10;
	}
	for (; carry; carry /= 10) {
		memmove(d->digit + 1, d->digit, d->len++);
		d->digit[0] = carry % 10;
	}
	decimal_trim(d);
}

/* d divided by f = 2^a 5^b, exactly: the quotient's decimals end after
 * max(a, b) more digits. */
static void decimal_div(struct decimal *d, uint64_t f)
{
	uint64_t g, rem = 0;
	int i;

	for (g = f; g > 1 && d->len; g /= g % 10 ? (g % 2 ? 5 : 2) : 10) {
		d->digit[d->len++] = 0;
		d->exp--;
	}
	for (i = 0; i < d->len; i++) {
		rem = rem * 10 + d->digit[i];
		d->digit[i] = rem / f;
		rem %= f;
	}
	decimal_trim(d);
}

/* Is d a whole number?  Its value in *v, UINT64_MAX if it does not fit. */
static int decimal_whole(const struct decimal *d, uint64_t *v)
{
	long i;

	*v = 0;
	if (d->exp < 0)
		return 0;
	for (i = 0; i < d->len + d->exp; i++) {
		unsigned digit = i < d->len ? d->digit[i] : 0;

		if (*v > (UINT64_MAX - digit) / 10) {
			*v = UINT64_MAX;
			break;
		}
		*v = *v * 10 + digit;
	}
	return 1;
}

/* d in plain decimals ("9999.9999999999999999"), cut after 24 of them
 * ("..."); in %g (approx) if it is whole or tiny. */
static const char *decimal_text(const struct decimal *d, double approx,
				char *buf, size_t len)
{
	long point = d->len + d->exp, i, n = 0;

	if (d->exp >= 0 || point < -8 || len < 64) {
		snprintf(buf, len, "%.10g", approx);
		return buf;
	}
	if (point <= 0)
		buf[n++] = '0';
	for (i = 0; i < point; i++)	/* at most 20: the caller's limit */
		buf[n++] = '0' + d->digit[i];
	buf[n++] = '.';
	for (i = point; i < d->len && i < point + 24; i++)
		buf[n++] = i < 0 ? '0' : '0' + d->digit[i];
	if (i < d->len)
		n += snprintf(buf + n, len - n, "...");
	buf[n] = 0;
	return buf;
}

/* A count of pages must be a whole number from 1 up to what we address:
 * s times mul/div, worked out on its digits. */
static unsigned long whole_pages(const char *opt, const char *s, double pages,
				 const char *unit, uint64_t mul, uint64_t div)
{
	/* Two arrays of nr_pages entries must fit in size_t. */
	uint64_t limit = SIZE_MAX / (sizeof(struct page) + 8), n;
	struct decimal d;
	char text[64];

	if (pages <= 0)
		die_usage("%s '%s': must be more than 0", opt, s);
	if (pages > (double)limit)
		die_usage("%s '%s': %.3g pages is more than this system can address", opt, s, pages);
	decimal_parse(s, &d);
	decimal_mul(&d, mul);
	decimal_div(&d, div);
	if (!decimal_whole(&d, &n))
		die_usage("%s '%s': %s pages%s, not a whole number", opt, s,
			  decimal_text(&d, pages, text, sizeof(text)), unit);
	if (n > limit)
		die_usage("%s '%s': %.3g pages is more than this system can address", opt, s, pages);
	return n;
}

/* -c: millions of pages, decimals allowed (-c 0.01 is 10,000 pages). */
static unsigned long parse_count(const char *opt, const char *s)
{
	const char *end;
	double v = parse_decimal(opt, s, &end);

	if (*end)
		die_usage("%s '%s': trailing '%s' after the number", opt, s, end);
	return whole_pages(opt, s, v * PAGES_PER_COUNT, "", PAGES_PER_COUNT, 1);
}

/* -m: simulated memory in bytes with a binary suffix (K M G T P E). */
static unsigned long parse_size(const char *opt, const char *s)
{
	static const char suffixes[] = "KMGTPE";
	const char *end;
	double v = parse_decimal(opt, s, &end);
	double bytes = v;
	uint64_t unit = 1;
	const char *u;

	if (*end) {
		u = strchr(suffixes, *end >= 'a' ? *end - 'a' + 'A' : *end);
		if (!u || end[1])
			die_usage("%s '%s': unknown size suffix '%s' (use K, M, G, T, P or E)", opt, s, end);
		for (; u >= suffixes; u--) {
			bytes *= 1024;
			unit *= 1024;
		}
	}
	return whole_pages(opt, s, bytes / SIM_PAGE_SIZE, " of 4 KiB", unit, SIM_PAGE_SIZE);
}

/* A decimal integer in [min, max]; with hex, 0x and hex digits too (the
 * seed, which people copy from hashes). */
static unsigned long parse_number(const char *opt, const char *s,
				  unsigned long min, unsigned long max, int hex)
{
	int base = hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
	const char *digits = base == 16 ? s + 2 : s;
	const char *set = base == 16 ? "0123456789abcdefABCDEF" : "0123456789";
	unsigned long long v;

	if (!*digits || digits[strspn(digits, set)])
		die_usage("%s '%s': not a whole number", opt, s);
	errno = 0;
	v = strtoull(digits, NULL, base);
	if (errno == ERANGE || v > max || v < min)
		die_usage("%s '%s': must be from %lu to %lu", opt, s, min, max);
	return v;
}

static unsigned long parse_ulong(const char *opt, const char *s,
				 unsigned long min, unsigned long max)
{
	return parse_number(opt, s, min, max, 0);
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
		die_usage("%s '%s': must be from %.10g to %.10g", opt, s, min, max);
	return v;
}

/* The next item of the comma-separated list at *rest, cut in place;
 * NULL after the last.  Unlike strtok(), an empty item ("a,,b", "a,")
 * is one, so the caller can refuse it. */
static char *list_item(char **rest)
{
	char *item = *rest, *comma = item ? strchr(item, ',') : NULL;

	*rest = comma ? comma + 1 : NULL;
	if (comma)
		*comma = 0;
	return item;
}

/* ORDER:PERCENT,... : the share of LRU pages in folios of each order. */
static void parse_folios(const char *opt, const char *s, double *share)
{
	char buf[256], order[320], percent[320], *item, *rest = buf, *colon;
	double total = 0;
	int k;

	if (strlen(s) >= sizeof(buf))
		die_usage("%s '%.20s...': too long", opt, s);
	strcpy(buf, s);
	/* errors in one item quote the whole value, then the item */
	snprintf(order, sizeof(order), "%s '%s': order", opt, s);
	snprintf(percent, sizeof(percent), "%s '%s': percentage", opt, s);
	memset(share, 0, (MAX_ORDER + 1) * sizeof(*share));
	while ((item = list_item(&rest))) {
		if (!*item)
			die_usage("%s '%s': an empty item: a comma too many", opt, s);
		colon = strchr(item, ':');
		if (!colon)
			die_usage("%s '%s': '%s' is not ORDER:PERCENT", opt, s, item);
		*colon = 0;
		k = parse_ulong(order, item, 0, MAX_ORDER);
		if (share[k] > 0)
			die_usage("%s '%s': order %d given twice", opt, s, k);
		share[k] = parse_real(percent, colon + 1, 0, 100) / 100;
		if (share[k] <= 0)
			die_usage("%s '%s': order %d needs a share above 0", opt, s, k);
		total += share[k];
	}
	if (total < 1 - 1e-9 || total > 1 + 1e-9)
		die_usage("%s '%s': the percentages add up to %g, not 100", opt, s, 100 * total);
	for (k = 0; k <= MAX_ORDER; k++)
		share[k] /= total;
}

/* ==== The command line ================================================== */

/* Each argument to its option's row, whose value set_option() reads
 * into struct params (a custom row's own setter for its grammar). */

/* Read one option's value into its field. */
static void set_option(struct params *p, const struct option_spec *o,
		       const char *opt, const char *arg)
{
	void *field;
	double v;

	if (o->kind == OPT_CUSTOM) {	/* its field may be NO_FIELD */
		o->set(p, opt, arg);
		return;
	}
	field = (char *)p + o->field;
	switch (o->kind) {
	case OPT_CUSTOM:
		break;
	case OPT_FLAG:
		*(int *)field = 1;
		break;
	case OPT_INT:
		*(int *)field = parse_number(opt, arg, o->lo, o->hi, 0);
		break;
	case OPT_ULONG:
		*(unsigned long *)field = parse_number(opt, arg, o->lo, o->hi, o->hex);
		break;
	case OPT_REAL:
		v = parse_real(opt, arg, o->min, o->max);
		if (o->above && v <= o->min)
			die_usage("%s '%s': must be more than %.10g", opt, arg, o->min);
		*(double *)field = v;
		break;
	case OPT_CHOICE:
		*(int *)field = parse_choice(opt, arg, o->names);
		break;
	case OPT_FILE:
		if (!*arg)
			die_usage("%s '': needs a file", opt);
		*(const char **)field = arg;
		break;
	}
}

/* Every typed row's default into its field. */
static void set_defaults(struct params *p)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(options); i++) {
		const struct option_spec *o = &options[i];
		void *field;

		if (o->kind == OPT_CUSTOM || o->kind == OPT_FLAG || o->kind == OPT_FILE)
			continue;	/* these start as the literals say */
		field = (char *)p + o->field;
		if (o->kind == OPT_INT || o->kind == OPT_CHOICE)
			*(int *)field = (int)o->def;
		else if (o->kind == OPT_ULONG)
			*(unsigned long *)field = (unsigned long)o->def;
		else if (o->kind == OPT_REAL)
			*(double *)field = o->def;
	}
}

/* A typed row's default as help prints it. */
static const char *default_text(const struct option_spec *o, char *buf, size_t len)
{
	if (o->kind == OPT_CHOICE)
		return o->names[(int)o->def];
	snprintf(buf, len, "%.10g", o->def);
	return buf;
}

/* Which options were given is a bit mask in struct params. */
_Static_assert(ARRAY_SIZE(options) <= 64, "params.given has a bit per option");

/* -c and -m: the last of them wins, but not both; -c auto is resolved
 * once the other options are known (size_auto()). */
static void set_count(struct params *p, const char *opt, const char *arg)
{
	const char *name = opt[1] == 'c' ? "-c" : "-m";

	if (p->size_opt && strcmp(p->size_opt, name))
		die_usage("%s '%s': -c and -m both give the size; use one", opt, arg);
	p->size_auto = opt[1] == 'c' && !strcmp(arg, "auto");
	if (!p->size_auto)
		p->layout.nr_pages = opt[1] == 'c' ? parse_count(opt, arg) : parse_size(opt, arg);
	p->size_opt = name;
	p->size_arg = arg;
}

static void set_verbose(struct params *p, const char *opt, const char *arg)
{
	(void)opt;
	(void)arg;
	p->out.verbose++;
}

/* --folio-order=K and --folios=MIX both set the mix, so not both. */
static void set_folios(struct params *p, const char *opt, const char *arg)
{
	if (p->folio_opt && strcmp(p->folio_opt, opt))
		die_usage("%s '%s': --folio-order and --folios both give the folio sizes; use one", opt, arg);
	p->folio_opt = !strcmp(opt, "--folios") ? "--folios" : "--folio-order";
	if (!strcmp(opt, "--folios")) {
		parse_folios(opt, arg, p->layout.folio_share);
		return;
	}
	memset(p->layout.folio_share, 0, sizeof(p->layout.folio_share));
	p->layout.folio_share[parse_ulong(opt, arg, 0, MAX_ORDER)] = 1;
}

/* A:B values: A into left (len bytes), B returned; form names the
 * grammar in the error. */
static const char *split_pair(const char *opt, const char *arg, char *left,
			      size_t len, const char *form)
{
	const char *colon = strchr(arg, ':');

	if (!colon || (size_t)(colon - arg) >= len)
		die_usage("%s '%s': not %s", opt, arg, form);
	memcpy(left, arg, colon - arg);
	left[colon - arg] = 0;
	return colon + 1;
}

/* --rmap=M:J: a share M of folios is mapped, each costing J hops. */
static void set_rmap(struct params *p, const char *opt, const char *arg)
{
	char share[64], what[128];
	const char *hops = split_pair(opt, arg, share, sizeof(share), "SHARE:HOPS (e.g. 0.5:3)");

	/* errors in one part quote the whole value, then the part */
	snprintf(what, sizeof(what), "%s '%s': share", opt, arg);
	p->work.rmap_share = parse_real(what, share, 0, 1);
	snprintf(what, sizeof(what), "%s '%s': hops", opt, arg);
	p->work.rmap_hops = parse_ulong(what, hops, 1, MAX_RMAP_HOPS);
}

static void set_struct_page(struct params *p, const char *opt, const char *arg)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(desc_kinds); i++)
		if (!strcmp(arg, desc_kinds[i].name)) {
			p->layout.desc_size = desc_kinds[i].size;
			return;
		}
	die_usage("%s '%s': must be one of %s|%s|%s", opt, arg, desc_kinds[0].name,
		  desc_kinds[1].name, desc_kinds[2].name);
}

/* --walks=NAME,...: the walks to time, by short or printed name; the
 * physical walk is always the baseline, first. */
static void set_walks(struct params *p, const char *opt, const char *arg)
{
	char buf[256], *name, *rest = buf;
	int w, s;

	if (strlen(arg) >= sizeof(buf))
		die_usage("%s '%.20s...': too long", opt, arg);
	strcpy(buf, arg);
	p->run.walk[0] = 0;
	p->run.nr_walks = 1;
	while (*arg && (name = list_item(&rest))) {
		if (!*name)
			die_usage("%s '%s': an empty walk name: a comma too many", opt, arg);
		for (w = 0; w < NR_WALKS; w++)
			if (!strcmp(name, walks[w].name) || !strcmp(name, walks[w].label))
				break;
		if (w == NR_WALKS)
			die_usage("%s '%s': no walk named '%s'", opt, arg, name);
		if (!w)
			die_usage("%s '%s': the physical walk is always timed, as the baseline; name only the walks to compare with it", opt, arg);
		for (s = 0; s < p->run.nr_walks; s++)
			if (p->run.walk[s] == w)
				die_usage("%s '%s': '%s' given twice", opt, arg, name);
		p->run.walk[p->run.nr_walks++] = w;
	}
	if (p->run.nr_walks < 2)
		die_usage("%s '%s': name at least one walk to compare with the physical one", opt, arg);
}

/* In Warnings: the cause a warning code names, or -1. */
static int warning_by_code(const char *code);

/* --expect=CODE,...: warnings a run expects (a smoke run at a tiny size
 * is cache-sized): KTAP marks them XFAIL, and --strict lets them pass. */
static void set_expect(struct params *p, const char *opt, const char *arg)
{
	char buf[256], *code, *rest = buf;
	int cause;

	if (strlen(arg) >= sizeof(buf))
		die_usage("%s '%.20s...': too long", opt, arg);
	strcpy(buf, arg);
	p->out.expect = 0;
	while ((code = list_item(&rest))) {
		cause = warning_by_code(code);
		if (cause < 0)
			die_usage("%s '%s': no warning '%s' (scan --fields lists them)", opt, arg, code);
		p->out.expect |= 1UL << cause;
	}
}

/* --pfns=START:COUNT: a window of the --memmap-from file. */
static void set_pfns(struct params *p, const char *opt, const char *arg)
{
	char start[32], what[128];
	const char *count = split_pair(opt, arg, start, sizeof(start), "START:COUNT (e.g. 0:1048576)");

	snprintf(what, sizeof(what), "%s '%s': start", opt, arg);
	p->layout.pfn_start = parse_ulong(what, start, 0, ULONG_MAX);
	snprintf(what, sizeof(what), "%s '%s': count", opt, arg);
	p->layout.pfn_count = parse_ulong(what, count, 1, UINT32_MAX);
}

static void show_version(struct params *p, const char *opt, const char *arg)
{
	(void)p;
	(void)opt;
	(void)arg;
	printf("scan %s\n", SCAN_VERSION);
	flush_results(1);
	exit(0);
}

/*
 * --hold=SIZE: no walk.  Holds SIZE of anonymous memory in base pages
 * (MADV_NOHUGEPAGE: MGLRU's aging walk reads a leaf PTE a page, where a
 * huge page gives it one PMD that it does not count), each page written
 * once, and prints "ready PAGES"; then for each line "touch F" on stdin
 * reads a byte of F of its pages, spread evenly (page p where
 * floor((p + 1)F) > floor(pF)), and prints "touched K".  Ends at stdin's
 * end.  scan-kernel holds its aging walk's working set so.  Acts when it
 * is met, as -V does: what follows it is not read.
 */
static void run_hold(struct params *p, const char *opt, const char *arg)
{
	size_t page = sysconf(_SC_PAGESIZE);
	size_t len = parse_size(opt, arg) * SIM_PAGE_SIZE, nr = len / page, i, k;
	char line[64], *base, *nl;
	volatile char *mem;
	const char *end;
	double f;

	(void)p;
	base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		die("%s=%s: cannot map %zu bytes: %s", opt, arg, len, strerror(errno));
#if defined(SCAN_LINUX) && defined(MADV_NOHUGEPAGE)
	/* EINVAL: a kernel without THP, whose pages are all base pages */
	if (madvise(base, len, MADV_NOHUGEPAGE) && errno != EINVAL)
		die("%s=%s: cannot keep it in base pages: madvise(MADV_NOHUGEPAGE): %s", opt, arg, strerror(errno));
#endif
	mem = base;
	for (i = 0; i < nr; i++)
		mem[i * page] = 1;
	printf("ready %zu\n", nr);
	flush_results(0);
	while (fgets(line, sizeof(line), stdin)) {
		if ((nl = strchr(line, '\n')))
			*nl = '\0';
		if (strncmp(line, "touch ", 6))
			die_usage("%s: a line '%s' on stdin: give touch F, 0 <= F <= 1", opt, line);
		f = parse_decimal(opt, line + 6, &end);
		if (*end || f > 1)
			die_usage("%s: a line '%s' on stdin: give touch F, 0 <= F <= 1", opt, line);
		for (i = k = 0; i < nr; i++)
			if ((size_t)((i + 1) * f) > (size_t)(i * f))
				k += mem[i * page] == 1;
		printf("touched %zu\n", k);
		flush_results(0);
	}
	flush_results(1);
	exit(0);
}

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
		char left[64], help[128], def[32];

		if (o->short_name && o->long_name)
			snprintf(left, sizeof(left), "-%c, --%s", o->short_name, o->long_name);
		else if (o->short_name)
			snprintf(left, sizeof(left), "-%c %s", o->short_name, o->metavar ? o->metavar : "");
		else if (o->metavar)
			snprintf(left, sizeof(left), "--%s=%s", o->long_name, o->metavar);
		else
			snprintf(left, sizeof(left), "--%s", o->long_name);
		if (o->show_def)
			snprintf(help, sizeof(help), "%s (default %s)", o->help,
				 default_text(o, def, sizeof(def)));
		else
			snprintf(help, sizeof(help), "%s", o->help);
		if (strlen(left) > 26)
			printf("  %s\n  %-26s %s\n", left, "", help);
		else
			printf("  %-26s %s\n", left, help);
	}
	printf("\nwalks (the first is the baseline):\n");
	for (w = 0; w < NR_WALKS; w++)
		printf("  %-26s %s\n", walks[w].label, walks[w].help);
	flush_results(1);
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

/* Apply option o, and remember it was given. */
static void apply(struct params *p, const struct option_spec *o,
		  const char *opt, const char *arg)
{
	p->given |= 1ULL << (o - options);
	set_option(p, o, opt, arg);
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
		apply(p, o, opt, NULL);
		return 1;
	}
	if (eq) {
		apply(p, o, opt, eq + 1);
		return 1;
	}
	if (!argv[1])
		die_usage("%s needs a value", opt);
	apply(p, o, opt, argv[1]);
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
			apply(p, o, opt, NULL);
			continue;
		}
		if (c[1]) {
			apply(p, o, opt, c + 1);
			return 1;
		}
		if (!argv[1])
			die_usage("%s needs a value", opt);
		apply(p, o, opt, argv[1]);
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

/* ==== Presets and --original ============================================ */

/* What the command line left alone: --kernel-like's values, --original's
 * protocol, and the defaults every run starts from. */

/* Was o's knob set on the command line, by o or by another option of
 * the same field? */
static int knob_given(const struct params *p, const struct option_spec *o)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(options); i++)
		if ((p->given >> i & 1) && options[i].field == o->field)
			return 1;
	return 0;
}

/*
 * --kernel-like: realistic values for the model's knobs (each row's
 * .kernel_like), each from how the kernel and real machines behave
 * (README.md gives the sources).  Fill the knobs the command line left
 * alone, and those a --memmap-from file does not decide; with -v, say
 * which.  Options given on the command line win, wherever they stand.
 */
static void apply_preset(struct params *p, char *shown, size_t len)
{
	unsigned long long given = p->given;
	size_t i, used = 0;

	shown[0] = 0;
	for (i = 0; i < ARRAY_SIZE(options); i++) {
		const struct option_spec *o = &options[i];
		char opt[64];

		if (!o->kernel_like || knob_given(p, o) ||
		    (p->layout.memmap_from && o->file_decides))
			continue;
		snprintf(opt, sizeof(opt), "--%s", o->long_name);
		set_option(p, o, opt, o->kernel_like);
		used += snprintf(shown + used, len > used ? len - used : 0,
				 " %s=%s", opt, o->kernel_like);
	}
	p->given = given;
}

/* --original: as scan.c 1.1 ran (see original_round()): the memmap
 * backed as the system backs it, caches as setup left them, one round. */
static void apply_original(struct params *p)
{
	p->run.thp = THP_SYSTEM;
	p->run.cache = CACHE_WARM;
	p->run.rounds = 1;
}

static unsigned long clock_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (unsigned long)ts.tv_sec * 1000000000UL + ts.tv_nsec + getpid();
}

/* The original's run: every knob as it is when no option says otherwise. */
static void default_params(struct params *p)
{
	/* what the option table's typed rows do not hold: the original's
	 * model is every page an order-0 LRU folio in one list, read once
	 * by each of its three walks */
	static const struct params defaults = {
		.layout = { .nr_pages = DEF_NR_PAGES, .desc_size = DEF_DESC_SIZE,
			    .folio_share = { 1 } },
		.run = { .walk = { 0, 1, 2 }, .nr_walks = 3 },
	};

	*p = defaults;
	set_defaults(p);
	p->layout.seed = clock_seed();
}

/* ==== Checks across options ============================================= */

/* Does --original fix what o sets: is o, or another name of its field,
 * a row that --original fixes? */
static int original_fixes(const struct option_spec *o)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(options); i++)
		if (options[i].original_fixes && options[i].field == o->field)
			return 1;
	return 0;
}

/* Checks across options, once all are known. */
static void check_params(const struct params *p)
{
	size_t i;

	if (p->run.original && p->run.rounds)
		die_usage("--original times each walk once, as the original did: drop -r");
	/* the option as the user typed it: --thp is --memmap-thp's old name */
	for (i = 0; p->run.original && i < ARRAY_SIZE(options); i++)
		if ((p->given >> i & 1) && original_fixes(&options[i]))
			die_usage("--original runs the 2023 protocol, which fixes what %s%s sets: drop one",
				  options[i].long_name ? "--" : "-",
				  options[i].long_name ? options[i].long_name : (char[]){ options[i].short_name, 0 });
	for (i = 0; p->layout.memmap_from && i < ARRAY_SIZE(options); i++)
		if (options[i].file_decides && (p->given >> i & 1))	/* the one given */
			die_usage("--memmap-from decides what --%s sets: drop one",
				  options[i].long_name);
	if (p->layout.memmap_from && p->size_opt)
		die_usage("--memmap-from decides the size (%s %s): drop %s, or take a window with --pfns",
			  p->size_opt, p->size_arg, p->size_opt);
	if (p->layout.memcg && !p->layout.memmap_from)
		die_usage("--memcg %lu: picks a memcg of a replayed memmap: give --memmap-from, or use --memcg-share",
			  p->layout.memcg);
	if (p->layout.lru_order && !p->layout.memmap_from)
		die_usage("--lru-order orders the pfns of a replayed memmap: give --memmap-from too");
	if (p->layout.memcg_from && !p->layout.memcg)
		die_usage("--memcg-from names the memcgs of --memcg's memmap: give --memcg=INODE too");
	if (p->layout.memcg && !p->layout.memcg_from &&
	    strcmp(p->layout.memmap_from, "/proc/kpageflags"))
		die_usage("--memcg with a saved --memmap-from: give its kpagecgroup with --memcg-from=FILE");
	if (p->layout.memcg && p->layout.memcg_share < 1)
		die_usage("--memcg and --memcg-share both choose the target memcg: use one");
	if ((p->layout.memcg || p->layout.memcg_share < 1) && p->layout.desc_size == MEMDESC_SIZE)
		die_usage("%s with --struct-page=8: folios of other memcgs would need folios of their own; not in this release",
			  p->layout.memcg ? "--memcg" : "--memcg-share");
	if (!p->layout.memmap_from && p->layout.pfn_count)
		die_usage("--pfns takes a window of --memmap-from's file: give the file too");
	if (p->run.rounds * p->run.builds > MAX_ROUNDS)
		die_usage("-r %d with --builds=%d: at most %d rounds in all", p->run.rounds, p->run.builds, MAX_ROUNDS);
	if (p->run.cpu >= 0 && p->run.threads > 1)
		die_usage("--cpu %d with -t %d: --cpu pins one walker; -t places its walkers itself", p->run.cpu, p->run.threads);
}

/* In Warnings, and The host: identity: */
static double round_up_2(double x);
static double host_llc(const char **from);

/*
 * -c auto: the smallest size whose memmap is not cache-sized (at least
 * LLC_FACTOR times the last-level cache, the size the cache-sized
 * warning advises), or the 2023 post's -c 10 where that is larger or no
 * LLC size is known: a figure worth quoting on the machine at hand.
 */
static void size_auto(struct params *p)
{
	const char *from;
	double llc = host_llc(&from), per_page, count;
	char b[32];

	p->layout.nr_pages = DEF_NR_PAGES;	/* a probe: bytes per page */
	per_page = (region_bytes(p, R_MEMMAP, 0) + region_bytes(p, R_FOLIOS, 0)) / DEF_NR_PAGES;
	count = llc > 0 ? round_up_2(LLC_FACTOR * llc / per_page / PAGES_PER_COUNT) : 0;
	if (count > AUTO_MIN_COUNT)
		snprintf(p->size_why, sizeof(p->size_why), "%.0fx the LLC (%s, %s)",
			 LLC_FACTOR, human(llc, b, sizeof(b)), from);
	else if (llc > 0)
		snprintf(p->size_why, sizeof(p->size_why), "the 2023 post's, over %.0fx the LLC (%s, %s)",
			 LLC_FACTOR, human(llc, b, sizeof(b)), from);
	else
		snprintf(p->size_why, sizeof(p->size_why), "the 2023 post's: no LLC size known");
	if (count < AUTO_MIN_COUNT)
		count = AUTO_MIN_COUNT;
	p->layout.nr_pages = (unsigned long)(count * PAGES_PER_COUNT + 0.5);
}

/* The command line into *p: defaults, options, the preset, the checks
 * across options.  main and tests/fuzz-options.c both enter here. */
static void parse_params(struct params *p, int argc, char **argv)
{
	default_params(p);
	parse_options(p, argc, argv);
	if (p->run.kernel_like)
		apply_preset(p, p->preset, sizeof(p->preset));
	check_params(p);
	if (p->run.original)
		apply_original(p);
	if (p->layout.memmap_from)
		size_from_file(p);
	if (!p->size_opt) {
		p->size_opt = "-c";
		p->size_arg = "1";
	}
	if (p->size_auto)
		size_auto(p);
}

/* #### Part III: the answer ############################################## */

/*
 * Part III, the answer: what the run found, as the original's lines and
 * -v's detail, or as data (CSV, JSON) from the field table, with the
 * warnings that say which figure cannot be trusted.  It keeps: results
 * on stdout, through one buffer checked before exit (flush_results()),
 * and warnings on stderr; the original's lines and the columns as they
 * were, new ones after them.  The host's files, room and identity,
 * which only the answer and the size check read, come last but main().
 */

/* ==== The run summarized ================================================ */

/* One walk's results, summarized once after the rounds: every printer
 * reads these, none sorts a sample again. */
struct walk_report {
	const struct walk *walk;	/* its row of the walk table */
	const struct walk_stats *st;
	struct summary time;		/* over its timed walks, seconds */
	struct summary ratio;		/* over rounds: its time / the baseline's */
	double walk_ns;			/* per page (physical) or folio, as its bound */
	double bound_ns, bound_x;	/* the bound, and walk_ns over it (0: none) */
};

struct reports {
	int nr, rounds;			/* walks, rounds */
	struct walk_report walk[NR_WALKS_MAX];
};

static void build_reports(struct reports *r, const struct lru_model *m,
			  const struct params *p, const struct walk_stats *stats,
			  int nr_rounds)
{
	int s;

	r->nr = p->run.nr_walks;
	r->rounds = nr_rounds;
	for (s = 0; s < r->nr; s++) {
		struct walk_report *w = &r->walk[s];
		enum bound b;

		w->walk = &walks[p->run.walk[s]];
		w->st = &stats[s];
		w->time = summarize(stats[s].sample, stats[s].nr_samples);
		w->ratio = summarize(stats[s].ratio, nr_rounds);
		b = w->walk->bound;
		w->walk_ns = w->time.median * 1e9 / (b == BOUND_STREAM ? m->nr_pages : m->nr_lru);
		w->bound_ns = m->bound_ns[b];
		w->bound_x = w->bound_ns > 0 ? w->walk_ns / w->bound_ns : 0;
	}
}

/*
 * What the run was on: enough to tell apart two hosts that a CPU's name
 * alone does not (VMs of one model name may differ in their caches, and
 * so in their ratios: docs/method.md), and where each figure came from.
 *
 *   vendor, family, model, stepping: CPUID leaves 0 and 1 on x86, else
 *       /proc/cpuinfo (arm64: the implementer, variant, part, revision);
 *   hypervisor: CPUID leaf 0x40000000's signature, /sys/hypervisor/type,
 *       then cpuinfo's hypervisor flag ("unknown": one, but whose?);
 *   caches: sysfs, then CPUID, then getconf, each size from the first
 *       that has it.  sysfs is the kernel's cacheinfo, which lscpu
 *       prints, built from CPUID leaf 4 (Intel) or 0x8000001D (AMD) or
 *       the firmware's tables (arm64), for one CPU's view.  getconf is
 *       the C library's guess: glibc reads AMD's leaf 0x80000006, the
 *       whole package's L3, where a core reaches only its CCX's.
 *
 * SCAN_MACHINE_ROOT=DIR reads the /proc and /sys files below under DIR
 * and leaves CPUID and getconf out: the tests fake hosts with it.
 */
struct machine {
	char cpu[128];		/* model name, as /proc/cpuinfo says */
	char vendor[32];	/* CPUID's vendor id; arm64: the implementer */
	int family, model, stepping; /* < 0: unknown */
	char hypervisor[32];	/* its vendor, "unknown" or "none" */
	long cpus;		/* online CPUs */
	int numa_nodes;		/* online, 1 where sysfs does not say */
	double memory;		/* bytes of RAM */
	char kernel[200];	/* uname: system, release, machine */
	char thp[32];		/* the system's THP policy, or unknown */
	double l2, llc;		/* bytes of L2 (per core) and LLC, 0 if unknown */
	const char *l2_from, *llc_from; /* sysfs, cpuid, getconf, measured
				 * (the LLC only: llc_probe()) or none */
	double llc_claim;	/* the LLC sysfs, CPUID or getconf give, 0 if none */
	const char *claim_from;	/* sysfs, cpuid, getconf or none */
	double stream_ns, chase_ns; /* this run's limits, 0: not measured */
	char host_id[9];	/* a hash of the fields above but the limits */
};

/* The bytes of descriptors the walks read: the memmap, and with 8-byte
 * descriptors their folios. */
static double memmap_bytes(const struct lru_model *m)
{
	return m->region[R_MEMMAP].used + m->region[R_FOLIOS].used;
}

/* Is the memmap under LLC_FACTOR times the last-level cache, so that the
 * caches skew the ratios?  -1 where no LLC size is known. */
static int cache_sized(const struct lru_model *m, const struct machine *mc)
{
	if (mc->llc <= 0)
		return -1;
	return memmap_bytes(m) < LLC_FACTOR * mc->llc;
}

/* The folio mix as ORDER:PERCENT,... */
static const char *folio_mix(const struct params *p, char *buf, size_t len)
{
	size_t used = 0;
	int k;

	buf[0] = 0;
	for (k = 0; k <= MAX_ORDER && used < len; k++)
		if (p->layout.folio_share[k] > 0)
			used += snprintf(buf + used, len - used, "%s%d:%g",
					 used ? "," : "", k, 100 * p->layout.folio_share[k]);
	return buf;
}

/* Pages (the physical walk) or folios that the counting walker visits
 * in one walk: the first share. */
static double counted_units(const struct lru_model *m, const struct walk *walk)
{
	unsigned long n = walk->bound == BOUND_STREAM ? m->nr_pages : m->nr_lru;
	unsigned long start, end;

	split(n, 0, m->nr_shares, &start, &end);
	return end - start;
}

/* Event i over walk w's samples: a hardware one per page or folio a
 * walk, a software one their total; NAN where it was not counted. */
static double counted(const struct lru_model *m, const struct walk_report *w, int i)
{
	const struct walk_counts *c = &w->st->counts;
	double units = counted_units(m, w->walk);

	if (!c->samples[i] || (counters[i].hardware && !units))
		return NAN;
	return counters[i].hardware ? c->value[i] / c->samples[i] / units : c->value[i];
}

/* ==== Text lines ======================================================== */

/*
 * The original's lines keep their text: two ratio lines by default, the
 * time lines with -v, the setup lines and totals with -vvv; each -v
 * adds lines beside them, never changes them.  The warnings (next
 * section) say on stderr which printed figure cannot be trusted, and
 * what clears it.
 */

/* Decimals that show the spread lo to hi in two digits, or three
 * significant digits where there is none: a median 20% uncertain is not
 * given to six decimals (scripts/report.awk's digits() does the same). */
static int spread_decimals(double median, double lo, double hi)
{
	double x = hi > lo ? hi - lo : median;
	int d = hi > lo ? 1 : 2, e = 0;	/* x in [10^e, 10^(e+1)) */

	if (!(x > 0) || isinf(x))
		return 2;
	for (; x >= 10 && e < 30; e++)
		x /= 10;
	for (; x < 1 && e > -30; e--)
		x *= 10;
	d -= e;
	return d < 0 ? 0 : d > 6 ? 6 : d;
}

static void print_walk_line(const struct output *out, const struct walk_report *w,
			    struct walk_result last)
{
	fprintf(out->text, "%s scan in %fs\n", w->walk->time_label, w->time.median);
	if (out->verbose >= 3)
		fprintf(out->text, "total = %lu\n", last.sum);
}

/* -v: the machine in one line, its host id first (see make_host_id());
 * its names as put_plain() writes them: a CPU's name is anybody's bytes. */
static void print_machine(const struct output *out, const struct machine *raw)
{
	static struct machine shown;	/* off the stack */
	const struct machine *mc = &shown;
	char f[12], m[12], s[12], l2[32], llc[32], claim[32], from[64], ram[32], limits[96];

	shown = *raw;
	plain_copy(raw->cpu, shown.cpu, sizeof(shown.cpu));
	plain_copy(raw->vendor, shown.vendor, sizeof(shown.vendor));
	plain_copy(raw->hypervisor, shown.hypervisor, sizeof(shown.hypervisor));
	plain_copy(raw->kernel, shown.kernel, sizeof(shown.kernel));
	plain_copy(raw->thp, shown.thp, sizeof(shown.thp));

	if (mc->stream_ns > 0)
		snprintf(limits, sizeof(limits), "stream %.2f ns/line, chase %.1f ns/hop",
			 mc->stream_ns, mc->chase_ns);
	else
		snprintf(limits, sizeof(limits), "limits not measured");
	/* a measured LLC has the claim it overrode beside it */
	if (strcmp(mc->llc_from, mc->claim_from) && mc->llc_claim > 0)
		snprintf(from, sizeof(from), "%s; %s %s", mc->llc_from, mc->claim_from,
			 human(mc->llc_claim, claim, 32));
	else
		snprintf(from, sizeof(from), "%s", mc->llc_from);
	fprintf(out->text, "machine: host %s, %s family %s model %s stepping %s, %s, hypervisor %s, "
		"L2 %s (%s), LLC %s (%s), %d NUMA node%s, %s RAM, %s, THP %s; %s\n",
		mc->host_id, mc->vendor, *known(mc->family, f, 12) ? f : "?",
		*known(mc->model, m, 12) ? m : "?", *known(mc->stepping, s, 12) ? s : "?",
		mc->cpu, mc->hypervisor, human(mc->l2, l2, 32), mc->l2_from,
		human(mc->llc, llc, 32), from, mc->numa_nodes,
		mc->numa_nodes == 1 ? "" : "s", human(mc->memory, ram, 32), mc->kernel,
		mc->thp, limits);
}

static void print_plan(const struct output *out, const struct run_knobs *run,
		       const struct reports *r)
{
	int s;

	if (run->original) {
		fprintf(out->text, "the original's protocol (scan.c 1.1, 2023): each walk timed once\n"
			"right after setup (");
		for (s = 0; s < r->nr; s++)
			fprintf(out->text, "%s%s", s ? ", " : "",
				r->walk[timing_order(run, s)].walk->time_label);
		fprintf(out->text, "), caches as setup left them,\nTHP as the system sets it\n");
		return;
	}

	fprintf(out->text, "%d round%s over %d model%s, cache %s before each walk\ntimed walks per round:",
		r->rounds, r->rounds > 1 ? "s" : "", run->builds, run->builds > 1 ? "s" : "",
		run->cache == CACHE_COLD ? "flushed" : "left warm");
	for (s = 0; s < r->nr; s++)
		fprintf(out->text, " %s %d", r->walk[s].walk->time_label, r->walk[s].st->reps);
	fprintf(out->text, "\n");
}

/* Progress on stderr (stdout's lines stay as they are; -q silences
 * it): a run expected to take over PROGRESS_S says so as its walks
 * start, with its size, rounds and the time it expects in all. */
static void print_expected(const struct lru_model *m, const struct params *p,
			   int rounds, double left)
{
	double setup = now() - m->start_s;
	char b[32];

	if (p->out.quiet || setup + left <= PROGRESS_S)
		return;

	fprintf(stderr, "scan: %lu pages, a %s memmap, %d round%s%s: expect about %.*f s in all, setup %.1f s of it\n",
		m->nr_pages, human(memmap_bytes(m), b, sizeof(b)), rounds * p->run.builds,
		rounds * p->run.builds > 1 ? "s" : "", p->run.builds > 1 ? " over its models" : "",
		setup + left < 10 ? 1 : 0, setup + left, setup);
}

/* -v: each round as it ends, with the time the rest should take. */
static void print_round_done(const struct lru_model *m, const struct params *p,
			     int round, int rounds)
{
	double in = now() - m->start_s, walking = now() - m->walk_start_s;

	if (p->out.quiet || p->out.verbose < 1 || m->expect_s <= PROGRESS_S / 10)
		return;
	if (round < rounds)
		fprintf(stderr, "scan: round %d of %d done at %.1f s, about %.1f s to go\n",
			round, rounds, in, walking / round * (rounds - round));
	else
		fprintf(stderr, "scan: round %d of %d done at %.1f s\n", round, rounds, in);
}

static void print_spread(const struct output *out, const struct run_knobs *run,
			 const struct lru_model *m, const struct reports *r)
{
	int retimed = 0, preempted = 0, stolen = 0, disturbed = 0, s;
	double flush = 0, relink = 0;

	for (s = 0; s < r->nr; s++) {
		const struct walk_report *w = &r->walk[s];

		int per_page = w->walk->bound == BOUND_STREAM;	/* as its bound */
		double ns = w->time.median * 1e9 / (per_page ? m->nr_pages : m->nr_lru);
		int d = spread_decimals(w->time.median, w->time.min, w->time.max);
		int dns = spread_decimals(ns, ns * w->time.min / w->time.median,
					  ns * w->time.max / w->time.median);

		fprintf(out->text, "%s: %d walks, median %.*fs (%.*fs to %.*fs), %.*f ns/%s\n",
			w->walk->time_label, w->st->nr_samples, d, w->time.median,
			d, w->time.min, d, w->time.max, dns, ns, per_page ? "page" : "folio");
	}
	for (s = 0; s < r->nr; s++) {
		const struct walk_report *w = &r->walk[s];

		if (w->bound_x > 0)
			fprintf(out->text, "%s %.2f ns/%s, %.2fx this core's %s (%.2f)\n",
				w->walk->label, w->walk_ns,
				w->walk->bound == BOUND_STREAM ? "page" : "folio", w->bound_x,
				bounds[w->walk->bound].name, w->bound_ns);
		flush += w->st->flush_s;
		relink += w->st->relink_s;
		retimed += w->st->retimed;
		preempted += w->st->preempted;
		stolen += w->st->stolen;
		disturbed += w->st->disturbed;
	}
	fprintf(out->text, "untimed work: flushing %.3fs (%s), relinking %.3fs, calibrating %.3fs\n",
		flush, run->cache == CACHE_COLD ? m->clflushopt ? "clflushopt" : "by address" : "none, --cache=warm",
		relink, m->calibrate_s);
	fprintf(out->text, "interference: %d walk%s retimed (%d preempted, %d stolen, %d off the CPU), %d kept disturbed\n",
		retimed, retimed == 1 ? "" : "s", preempted, stolen,
		retimed - preempted - stolen, disturbed);
	for (s = 1; s < r->nr; s++) {
		const struct summary *q = &r->walk[s].ratio;
		int d = spread_decimals(q->median, q->min, q->max);

		fprintf(out->text, "%s/%s ratio: median %.*f, range %.*f to %.*f over %d round%s\n",
			r->walk[s].walk->label, r->walk[0].walk->label, d, q->median,
			d, q->min, d, q->max, r->rounds, r->rounds > 1 ? "s" : "");
	}
}

/* -vv: walk w's counts, where any were counted: the hardware events a
 * page or folio, the software ones in all its walks. */
static void print_walk_counts(const struct output *out, const struct lru_model *m,
			      const struct walk_report *w)
{
	const struct walk_counts *c = &w->st->counts;
	char hw[256] = "", sw[128] = "";
	size_t nh = 0, ns = 0;
	double v;
	int i;

	for (i = 0; i < NR_COUNTERS; i++) {
		if (isnan(v = counted(m, w, i)))
			continue;
		if (counters[i].hardware)
			nh += snprintf(hw + nh, sizeof(hw) - nh, "%s%.*f %s", nh ? ", " : "",
				       v >= 100 ? 0 : v >= 1 ? 2 : 4, v, counters[i].name);
		else
			ns += snprintf(sw + ns, sizeof(sw) - ns, "%s%s %.0f", ns ? ", " : "",
				       counters[i].name, v);
	}
	if (!nh && !ns)
		return;
	fprintf(out->text, "%s counted: %s%s%s%s over %d walk%s", w->walk->label, hw,
		!nh ? "" : w->walk->bound == BOUND_STREAM ? " a page" : " a folio",
		nh && ns ? "; " : "", sw, w->st->nr_samples, w->st->nr_samples == 1 ? "" : "s");
	if (c->running > 0 && c->running < c->enabled)
		fprintf(out->text, "; the PMU counted %.0f%% of the time, scaled",
			100 * c->running / c->enabled);
	if (m->nr_shares > 1)
		fprintf(out->text, " (the calling walker's, over its share: 1 of %d)", m->nr_shares);
	fprintf(out->text, "\n");
}

/* Why an event was not counted: its errno, and what that means here. */
static const char *counter_why(int err, char *buf, size_t len)
{
	char level[16] = "unknown";
	FILE *f;

	switch (err) {
	case COUNTER_UNBUILT:
		return "this scan was built without perf_event_open (not Linux, or no <linux/perf_event.h>)";
	case COUNTER_IDLE:
		return "the PMU never had room for them (other users held its counters)";
	case ENOENT:
		return "ENOENT, no such event here: no PMU (as in most VMs), or one this CPU's driver does not map (AMD's LLC)";
	case EOPNOTSUPP:
		return "EOPNOTSUPP, this CPU's PMU cannot count it so";
	case ENOSYS:
		return "ENOSYS, no perf_event_open in this kernel or emulator (qemu-user)";
	case EACCES:
	case EPERM:
		if ((f = fopen("/proc/sys/kernel/perf_event_paranoid", "r"))) {
			if (!fgets(level, sizeof(level), f))
				snprintf(level, sizeof(level), "unknown");
			level[strcspn(level, "\n")] = 0;
			fclose(f);
		}
		snprintf(buf, len, "%s, refused: kernel.perf_event_paranoid is %s (2 lets a process count its own user space, 1 the kernel too), or a seccomp filter (containers)",
			 err == EACCES ? "EACCES" : "EPERM", level);
		return buf;
	}
	snprintf(buf, len, "%s", strerror(err));
	return buf;
}

/* -vv: in one line, the events that were not counted, and why, where
 * the counts would be. */
static void print_uncounted(const struct output *out, const struct reports *r)
{
	int why[NR_COUNTERS], i, j, s, more = 0;
	char buf[256];

	for (i = 0; i < NR_COUNTERS; i++) {
		why[i] = r->walk[0].st->counts.error[i];
		for (s = 0; !why[i] && s < r->nr && !r->walk[s].st->counts.samples[i]; s++)
			;
		if (!why[i] && s == r->nr)
			why[i] = COUNTER_IDLE;
	}
	for (i = 0; i < NR_COUNTERS; i++) {
		for (j = 0; j < i && why[j] != why[i]; j++)
			;
		if (!why[i] || j < i)	/* counted, or said with an event before */
			continue;
		fprintf(out->text, "%s", more++ ? "; " : "counters: ");
		for (j = i; j < NR_COUNTERS; j++)
			if (why[j] == why[i])
				fprintf(out->text, "%s%s", j > i ? ", " : "", counters[j].name);
		fprintf(out->text, " not counted: %s", counter_why(why[i], buf, sizeof(buf)));
	}
	if (more)
		fprintf(out->text, "\n");
}

static void print_ratios(const struct output *out, const struct reports *r)
{
	int s;

	for (s = 1; s < r->nr; s++)
		fprintf(out->text, "%s scan is %f faster than %s\n", r->walk[0].walk->label,
			r->walk[s].ratio.median, r->walk[s].walk->label);
}

/* ==== Warnings ========================================================== */

/*
 * The warning table: one row per cause that keeps a printed figure from
 * being trusted, most important first, the order its lines come in.  A
 * row's code is stable: the CSV's and JSON's warnings column, KTAP's
 * test points, --expect and the scripts name it.  Its text is a printf
 * format of two strings, the items (each walk's figure, or the run's)
 * and the remedy: it says what the cause does to which figure and the
 * one thing that clears it, so that "scan: warning: CODE: TEXT" stays
 * under 120 columns.  A cause that fires for several walks is one line,
 * its items worst first (or the worst and "and N more walks", where they
 * would not fit).  To add a cause:
 *
 *   1. its enum and its row, placed by importance, with a new code;
 *   2. its check in check_warnings(), or where it shows, by warning_fire()
 *      (from Part I through a wrapper declared there, as
 *      warn_thp_refused());
 *   3. its code in the warnings column's meaning (the field table), in
 *      the same place; its row in docs/output.md's table of warnings and
 *      its entry in scan.1's WARNINGS.
 */
enum warning_cause {
	W_CACHE_SIZED, W_SHORT_WALK, W_DISTURBED, W_THP_SHORT, W_THP_REFUSED,
	W_CODE_BOUND, W_NOISY, W_LIMIT_BEATEN, NR_WARNINGS
};

struct warning_spec {
	const char *code;	/* stable: the data, KTAP and scripts name it */
	const char *text;	/* %s the items, %s the remedy */
	int low_is_worse;	/* items ordered lowest first */
};

static const struct warning_spec warnings[NR_WARNINGS] = {
	/* the memmap under LLC_FACTOR times the last-level cache */
	[W_CACHE_SIZED] = { "cache-sized", "memmap < 4x LLC %s: caches skew the ratios; %s", 0 },
	/* a walk's median under MIN_TICKS ticks of the clock */
	[W_SHORT_WALK] = { "short-walk", "%s < 1000 clock ticks, coarse times; %s", 1 },
	/* half a walk's timed walks or more lost over LOST_SHARE even when
	 * retimed, so its median may be one of them; the item says why
	 * retiming stopped (retime_stop()) */
	[W_DISTURBED] = { "disturbed", "%s; %s", 0 },
	/* --memmap-thp=always, and under half the memmap in huge pages */
	[W_THP_SHORT] = { "thp-short", "%s of memmap in 2 MiB pages: LRU ratios pay TLB misses; %s", 1 },
	/* madvise() refused the page size --memmap-thp asked for */
	[W_THP_REFUSED] = { "thp-refused", "madvise: %s: the memmap's page size is the system's%s", 0 },
	/* at the original's knobs, a walk over 1 + BOUND_WARN times its
	 * limit's slowest try */
	[W_CODE_BOUND] = { "code-bound", "%s its limit: the ratio may time code; %s", 0 },
	/* a ratio's interquartile range over rounds over SPREAD_WARN of its median */
	[W_NOISY] = { "noisy", "ratios vary over rounds, IQR %s; %s", 0 },
	/* at the original's knobs, a walk under 1 - BOUND_WARN times its
	 * limit's fastest try */
	[W_LIMIT_BEATEN] = { "limit-beaten", "%s its limit: the limit (-vv) failed, not the ratios%s", 1 },
};

#define WARNING_COLUMNS	119	/* "scan: warning: CODE: TEXT" at most */

/* One cause fired: for a walk (its place in the run's walks) or the run. */
struct warning_item {
	int cause;
	int walk;		/* -1: the run's */
	double worse;		/* orders a cause's items */
	char item[72];		/* the walk and its figure, or the run's */
	char fix[48];		/* the remedy */
};

static struct warning_item fired[NR_WARNINGS * (NR_WALKS_MAX + 1)];
static int nr_fired;

static int warning_by_code(const char *code)
{
	int c;

	for (c = 0; c < NR_WARNINGS; c++)
		if (!strcmp(code, warnings[c].code))
			return c;
	return -1;
}

/* Cause c fired for walk (or -1, the run), its figure worse; an item
 * said already is not said again. */
static PRINTF(5, 6) void warning_fire(int cause, int walk, double worse,
				      const char *fix, const char *fmt, ...)
{
	struct warning_item *w = &fired[nr_fired];
	va_list ap;
	int i;

	if (nr_fired == (int)ARRAY_SIZE(fired))
		return;
	w->cause = cause;
	w->walk = walk;
	w->worse = worse;
	snprintf(w->fix, sizeof(w->fix), "%s", fix);
	va_start(ap, fmt);
	vsnprintf(w->item, sizeof(w->item), fmt, ap);
	va_end(ap);
	for (i = 0; i < nr_fired; i++)
		if (fired[i].cause == cause && !strcmp(fired[i].item, w->item))
			return;
	nr_fired++;
}

static void warn_thp_refused(const char *advice, const char *why)
{
	warning_fire(W_THP_REFUSED, -1, 0, "", "%s %s", advice, why);
}

/* Did cause c fire, for the run or for walk s (-1: for any)? */
static int warning_fired(int c, int s)
{
	int i;

	for (i = 0; i < nr_fired; i++)
		if (fired[i].cause == c && (s < 0 || fired[i].walk < 0 || fired[i].walk == s))
			return 1;
	return 0;
}

/* Did a warning fire that --expect did not name? */
static int warned_unexpected(const struct output *out)
{
	int c;

	for (c = 0; c < NR_WARNINGS; c++)
		if (warning_fired(c, -1) && !(out->expect >> c & 1))
			return 1;
	return 0;
}

/* The item of cause c at rank k (0: the worst), or NULL. */
static const struct warning_item *warning_rank(int c, int k)
{
	int i, j, above;

	for (i = 0; i < nr_fired; i++) {
		if (fired[i].cause != c)
			continue;
		for (above = 0, j = 0; j < nr_fired; j++) {
			double a = fired[j].worse, b = fired[i].worse;

			if (j == i || fired[j].cause != c)
				continue;
			if (warnings[c].low_is_worse ? a < b || (a == b && j < i) :
						       a > b || (a == b && j < i))
				above++;
		}
		if (above == k)
			return &fired[i];
	}
	return NULL;
}

/* Cause c's line, without "scan: warning: ": its code, then its text
 * with the items joined, worst first; too many for a line, the count
 * and the worst. */
static const char *warning_line(int c, char *line, size_t len)
{
	const struct warning_item *w;
	char items[256] = "";
	size_t used = 0;
	int k;

	for (k = 0; (w = warning_rank(c, k)); k++)
		used += snprintf(items + used, used < sizeof(items) ? sizeof(items) - used : 0,
				 "%s%s", k ? ", " : "", w->item);
	w = warning_rank(c, 0);
	snprintf(line, len, "%s: ", warnings[c].code);
	snprintf(line + strlen(line), len - strlen(line), warnings[c].text, items, w->fix);
	if (k > 1 && strlen(line) + strlen("scan: warning: ") > WARNING_COLUMNS) {
		snprintf(items, sizeof(items), "%s and %d more walk%s", w->item, k - 1,
			 k > 2 ? "s" : "");
		snprintf(line, len, "%s: ", warnings[c].code);
		snprintf(line + strlen(line), len - strlen(line), warnings[c].text, items, w->fix);
	}
	return line;
}

/* The codes that fired for walk s's row (and the run's), in the table's
 * order, separated by spaces: the warnings column. */
static const char *warning_codes(int s, char *buf, size_t len)
{
	size_t used = 0;
	int c;

	buf[0] = 0;
	for (c = 0; c < NR_WARNINGS; c++)
		if (warning_fired(c, s))
			used += snprintf(buf + used, used < len ? len - used : 0, "%s%s",
					 used ? " " : "", warnings[c].code);
	return buf;
}

/* The original's model and work (every row marked .model at its
 * default): where each walk should run at its bound, and the code, not
 * the memory, is measured if it does not. */
static int plain_knobs(const struct params *p)
{
	struct params def;
	size_t i;

	default_params(&def);
	for (i = 0; i < ARRAY_SIZE(options); i++) {
		const struct option_spec *o = &options[i];

		if (o->model && memcmp((const char *)p + o->field,
				       (const char *)&def + o->field, o->size))
			return 0;
	}
	return 1;
}

/* The remedy of a figure other work disturbed: a rerun when idle.  For
 * --strict, which fails on it, what lets it pass: an idle machine, and
 * where rounds help (a ratio's quartiles, a walk against its limit's
 * tries), the rounds that put a few disturbed ones in the minority. */
static const char *rerun_fix(const struct params *p, const struct reports *r,
			     int rounds_help)
{
	static char fix[48];
	int more = 4 * r->rounds < STRICT_ROUNDS ? STRICT_ROUNDS : 4 * r->rounds;

	if (!p->out.strict || p->run.original)
		return "rerun when idle";
	if (!rounds_help || r->rounds >= STRICT_ROUNDS)
		return "to pass --strict: an idle machine";
	snprintf(fix, sizeof(fix), "to pass --strict: -r %d on an idle machine",
		 more > MAX_ROUNDS ? MAX_ROUNDS : more);
	return fix;
}

/* A walk slower than its bound measures the code, not the memory; one
 * faster beat a limit measured beside it in every round, so that limit
 * was no limit while it ran.  Each is judged against every try of its
 * limit, not their median: a VM's memory drifts by a quarter within a
 * run, and a walk between the fastest and the slowest try ran at a
 * speed the memory had (docs/method.md). */
static void check_bounds(const struct lru_model *m, const struct params *p,
			 const struct reports *r)
{
	int s;

	for (s = 0; s < r->nr; s++) {
		const struct walk_report *w = &r->walk[s];
		enum bound b = w->walk->bound;

		/* a walk or a limit kept disturbed is not judged:
		 * check_disturbed() says why the walk's figure is not clean,
		 * and a limit's tries that lost their CPU read slow */
		if (!w->walk->at_bound || !w->bound_x || w->st->disturbed ||
		    2 * m->bound_kept[b] >= m->bound_tries[b])
			continue;
		/* nor against tries of under half BOUND_LINES (short walks'):
		 * a short chase reads fast (docs/method.md) */
		if (b != BOUND_STREAM && m->bound_len[b] && m->bound_len[b] < BOUND_LINES / 2)
			continue;
		if (w->bound_x > (1 + BOUND_WARN) * m->bound_hi[b])
			warning_fire(W_CODE_BOUND, s, w->bound_x, rerun_fix(p, r, 1),
				     "%s %.2fx", w->walk->label, w->bound_x);
		else if (w->bound_x < (1 - BOUND_WARN) * m->bound_lo[b])
			warning_fire(W_LIMIT_BEATEN, s, w->bound_x, "",
				     "%s %.2fx", w->walk->label, w->bound_x);
	}
}

/* x rounded up to two significant digits: advice, not a measurement. */
static double round_up_2(double x)
{
	double scale = 1, n;

	while (x / scale >= 100)
		scale *= 10;
	while (x / scale < 10)
		scale /= 10;
	n = (double)(unsigned long long)(x / scale);
	return (n < x / scale ? n + 1 : n) * scale;
}

/* The size option that makes the run `times` as large, as the remedy:
 * in the option that set the size.  A replayed memmap is as large as
 * its file: no option makes it larger. */
static const char *larger_size(const struct lru_model *m, const struct params *p,
			       double times, char *fix, size_t len)
{
	double pages = m->nr_pages * times;
	double gib = pages * SIM_PAGE_SIZE / (1 << 30);

	if (p->layout.memmap_from)
		snprintf(fix, len, "replay a larger memmap");
	else if (!strcmp(p->size_opt, "-m") && gib >= 1)
		snprintf(fix, len, "use -m %.0fG", round_up_2(gib));
	else if (!strcmp(p->size_opt, "-m"))
		snprintf(fix, len, "use -m %.0fM", round_up_2(gib * 1024));
	else
		snprintf(fix, len, "use -c %g", round_up_2(pages / PAGES_PER_COUNT));
	return fix;
}

/* The memmap under LLC_FACTOR times the last-level cache: where the LLC
 * figure came from too (sysfs and getconf can differ tenfold). */
static void check_cache_sized(const struct lru_model *m, const struct params *p,
			      const struct machine *mc)
{
	char b[32], fix[48];

	if (cache_sized(m, mc) != 1)
		return;
	larger_size(m, p, LLC_FACTOR * mc->llc / memmap_bytes(m), fix, sizeof(fix));
	warning_fire(W_CACHE_SIZED, -1, 0, fix, "%s (%s)", human(mc->llc, b, 32), mc->llc_from);
}

/* Which of a walk's walks were kept disturbed, in words: "in both
 * walks", "in 3 of 4 walks". */
static const char *disturbed_count(const struct walk_stats *st, char *buf, size_t len)
{
	int n = st->disturbed, of = st->nr_samples;

	if (of == 1)
		snprintf(buf, len, "in its one walk");
	else if (n == of)
		snprintf(buf, len, n == 2 ? "in both walks" : "in all %d walks", n);
	else
		snprintf(buf, len, "in %d of %d walks", n, of);
	return buf;
}

/* Why retiming left most of them disturbed (retime_stop()). */
static const char *disturbed_why(const struct walk_stats *st, char *buf, size_t len)
{
	int cap = st->disturbed - st->kept_alike - st->kept_budget;

	if (st->kept_budget >= st->kept_alike && st->kept_budget >= cap)
		snprintf(buf, len, "retiming's %.0f%% spent", 100 * RETIME_SHARE);
	else if (st->kept_alike >= cap)
		snprintf(buf, len, "retimes no cleaner");
	else
		snprintf(buf, len, "retimed %d times", RETIMES);
	return buf;
}

/* A walk whose median may be a disturbed one: half its timed walks or
 * more kept disturbed after retiming, or --original's one walk.  The
 * line says in words how many, and why retiming stopped. */
static void check_disturbed(const struct params *p, const struct reports *r)
{
	char count[32], why[32];
	const char *fix;
	int s;

	for (s = 0; s < r->nr; s++) {
		const struct walk_report *w = &r->walk[s];

		if (!w->st->disturbed || 2 * w->st->disturbed < w->st->nr_samples)
			continue;
		if (p->run.original) {
			warning_fire(W_DISTURBED, s, w->st->lost_share, "rerun it",
				     "%s's one walk lost %.0f%% to other work: its ratio is unsure",
				     w->walk->label, 100 * w->st->lost_share);
			continue;
		}
		fix = rerun_fix(p, r, 0);
		disturbed_count(w->st, count, sizeof(count));
		disturbed_why(w->st, why, sizeof(why));
		/* "scan: warning: disturbed: " ITEM "; " FIX */
		if (26 + strlen(w->walk->label) + strlen(count) + strlen(why) + 32 +
		    strlen(fix) > WARNING_COLUMNS)
			snprintf(why, sizeof(why), "retiming stopped");
		warning_fire(W_DISTURBED, s, (double)w->st->disturbed / w->st->nr_samples,
			     fix, "%s lost >%.0f%% %s to other work (%s)", w->walk->label,
			     100 * LOST_SHARE, count, why);
	}
}

/* Walks under MIN_TICKS of the clock, and ratios spread wide. */
static void check_times(const struct lru_model *m, const struct params *p,
			const struct reports *r)
{
	double tick = clock_tick(), t;
	char fix[48];
	int s;

	for (s = 0; s < r->nr; s++) {
		t = r->walk[s].time.median;
		if (t < MIN_TICKS * tick)
			warning_fire(W_SHORT_WALK, s, t, larger_size(m, p, MIN_TICKS * tick / t, fix, sizeof(fix)),
				     "%s %.3g us", r->walk[s].walk->label, t * 1e6);
	}
	for (s = 1; s < r->nr && r->rounds > 1; s++) {
		const struct summary *q = &r->walk[s].ratio;
		double spread = (q->q3 - q->q1) / q->median;

		if (spread > SPREAD_WARN)
			warning_fire(W_NOISY, s, spread, rerun_fix(p, r, 1), "%s %.0f%%",
				     r->walk[s].walk->label, 100 * spread);
	}
}

/* --memmap-thp=always, and under half the memmap (of 4 huge pages or
 * more) in huge pages. */
static void check_thp(const struct lru_model *m, const struct params *p)
{
	double share = huge_share(&m->region[R_MEMMAP]);

	if (p->run.thp == THP_ALWAYS && share >= 0 && share < 0.5 &&
	    m->region[R_MEMMAP].len >= 4 * HUGE_PAGE_SIZE)
		warning_fire(W_THP_SHORT, -1, share, "set THP to madvise",
			     "%.0f%%", 100 * share);
}

/* Every cause the run shows, fired for its walks or for the run. */
static void check_warnings(const struct lru_model *m, const struct params *p,
			   const struct machine *mc, const struct reports *r)
{
	check_cache_sized(m, p, mc);
	check_times(m, p, r);
	check_disturbed(p, r);
	check_thp(m, p);
	if (cache_sized(m, mc) == 0 && plain_knobs(p))	/* the limits are DRAM's */
		check_bounds(m, p, r);
}

/* Each cause that fired, one line, most important first. */
static void print_warnings(void)
{
	char line[256];
	int c;

	for (c = 0; c < NR_WARNINGS; c++)
		if (warning_fired(c, -1))
			warn("%s", warning_line(c, line, sizeof(line)));
}

/* ==== The model in words ================================================ */

/*
 * -v's account of what was modelled: the memmap's pages and folios, the
 * replayed file, the model's knobs in words (as the stderr model line
 * and report.sh's block carry them), the break-even lines, and the
 * PageTable walk's tables, cost split and what it cannot see.
 */

static void print_memmap(const struct lru_model *m, const struct params *p)
{
	double share = huge_share(&m->region[R_MEMMAP]);
	char b1[32], b2[32], hp[32] = "unknown";

	if (share >= 0)
		snprintf(hp, sizeof(hp), "%.0f%%", 100 * share);
	fprintf(p->out.text, "memmap %s for %lu pages, %s simulated, %s huge (--memmap-thp=%s)\n",
		human((double)m->nr_pages * m->desc_size, b1, 32), m->nr_pages,
		human(m->nr_pages * SIM_PAGE_SIZE, b2, 32), hp, thp_names[p->run.thp]);
}

/* A replayed memmap as built: its folios by order, its free blocks and
 * its other pages, from the descriptors themselves. */
static void print_replay(const struct lru_model *m, const struct params *p)
{
	unsigned long by_order[MAX_ORDER + 1] = { 0 }, blocks = 0, free = 0, other = 0;
	unsigned long pfn, w;
	int k;

	for (pfn = 0; pfn < m->nr_pages; pfn++) {
		w = *desc_word(m, pfn);
		if (m->desc_size == MEMDESC_SIZE && (w & PD_TYPE) == PD_FOLIO)
			w = PD_FOLIO_PTR(w)->flags;
		if ((w & PD_TYPE) == PD_FOLIO)
			by_order[PD_ORDER(w)]++;
		else if ((w & PD_TYPE) == PD_BUDDY) {
			blocks++;
			free += 1UL << PD_ORDER(w);
		} else if ((w & PD_TYPE) == PD_OTHER)
			other++;
	}
	fputs("replayed: ", p->out.text);
	put_plain(p->out.text, p->layout.memmap_from, "");
	fprintf(p->out.text, " pfns %lu to %lu; LRU folios by order:",
		p->layout.pfn_start, p->layout.pfn_start + m->nr_pages - 1);
	for (k = 0; k <= MAX_ORDER; k++)
		if (by_order[k])
			fprintf(p->out.text, " %d:%lu", k, by_order[k]);
	fprintf(p->out.text, "; %lu free blocks (%lu pages); %lu other pages\n",
		blocks, free, other - (free - blocks));
	if (m->live && m->nr_own >= 0)
		fprintf(p->out.text, "replayed: %ld of these pfns were scan's own memory (its memmap among them), replayed as free\n",
			m->nr_own);
	else if (m->live)
		fprintf(p->out.text, "replayed: scan's own pages count as the machine's: /proc/self/pagemap gives no pfns\n");
}

static void print_model(const struct lru_model *m, const struct params *p)
{
	char mix[192], folios[128], pool[32], rmap[96] = "none", lists[64] = "";
	char memcg[48];

	if (m->rmap)
		snprintf(rmap, sizeof(rmap), "%g:%d, %lu folios mapped, %s pool",
			 p->work.rmap_share, p->work.rmap_hops, m->nr_mapped,
			 human((m->rmap_mask + 1.0) * sizeof(*m->rmap), pool, 32));
	if (p->layout.memmap_from)
		snprintf(mix, sizeof(mix), "other pages and folios as replayed");
	else
		snprintf(mix, sizeof(mix), "other pages %s, folios %s", non_lru_names[p->layout.non_lru],
			 folio_mix(p, folios, sizeof(folios)));
	fprintf(p->out.text, "model: %lu LRU folios of %lu pages (%.1f%% of pfns), locality %g\n"
		"layout: %s, %d-byte struct page\n",
		m->nr_lru, m->lru_pages, 100.0 * m->lru_pages / m->nr_pages,
		p->layout.locality, mix, p->layout.desc_size);
	if (p->layout.memmap_from)
		print_replay(m, p);
	if (p->layout.memcg)
		snprintf(memcg, sizeof(memcg), "--memcg=%lu", p->layout.memcg);
	else
		snprintf(memcg, sizeof(memcg), "--memcg-share=%g", p->layout.memcg_share);
	if (p->layout.memcg || p->layout.memcg_share < 1)
		fprintf(p->out.text, "memcg: the target holds %lu of %lu LRU folios (%s)\n",
			m->nr_lru, m->nr_lru + m->nr_others, memcg);
	if (p->layout.lru_order)
		fprintf(p->out.text, "traced: %lu of %lu folios in --lru-order's order, in runs of %.2f\n"
			"traced: %lu insertions in the file, %lu of them of pfns not on these lists\n",
			m->trace.ordered, m->nr_lru, (double)m->trace.ordered / m->trace.runs,
			m->trace.lines, m->trace.off_lru);
	if (p->work.nr_lists > 1)
		snprintf(lists, sizeof(lists), ", taken %lu at a time", p->work.chunk);
	fprintf(p->out.text, "work: access %s, Physical reads %s\nlists: %d thread%s, %d list%s per thread%s\nrmap: %s\n",
		access_names[p->work.access],
		p->work.phys == PHYS_JUMP ? "heads and jumps" : "every page",
		p->run.threads, p->run.threads > 1 ? "s" : "", p->work.nr_lists,
		p->work.nr_lists > 1 ? "s" : "", lists, rmap);
}

/*
 * Below what LRU share does the physical walk stop winning?  Its cost
 * follows the pfns it covers, an LRU walk's the folios on the LRU, so at
 * share s an LRU walk would take (s / this share) of its time.
 */
static void print_break_even(const struct output *out, const struct lru_model *m,
			     const struct reports *r)
{
	double share = (double)m->lru_pages / m->nr_pages, even;
	int s;

	for (s = 1; s < r->nr; s++) {
		if (r->walk[s].walk->expect)	/* see print_pagetable_even() */
			continue;
		even = share / r->walk[s].ratio.median;
		if (even < 1)
			fprintf(out->text, "break-even vs %s: Physical wins above %.3g%% of pages on the LRU\n",
				r->walk[s].walk->label, 100 * even);
		else
			fprintf(out->text, "break-even vs %s: Physical loses even with every page on the LRU\n",
				r->walk[s].walk->label);
	}
	fprintf(out->text, "(if Physical's cost per pfn and the LRU walks' per folio hold at any share)\n");
}

/* append_item(buf, len, &used, fmt, ...): one more item of a line, after a
 * comma where one went before. */
static PRINTF(4, 5) void append_item(char *buf, size_t len, size_t *used,
				     const char *fmt, ...)
{
	va_list ap;

	if (*used >= len)
		return;
	if (*used)
		*used += snprintf(buf + *used, len - *used, ", ");
	va_start(ap, fmt);
	if (*used < len)
		*used += vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
}

/* The model in words, knob by knob where the options moved it off the
 * original's: every pfn an order-0 LRU folio, in random order, read
 * once by each walk. */
static const char *model_words(const struct params *p, char *buf, size_t len)
{
	const struct layout_knobs *l = &p->layout;
	const struct work_knobs *w = &p->work;
	static char mix[128];	/* off the stack (see main()) */
	size_t used = 0;

	buf[0] = 0;
	if (l->memmap_from)
		append_item(buf, len, &used, "a replayed memmap's LRU folios");
	else if (l->lru_fraction >= 1 && l->folio_share[0] >= 1)
		append_item(buf, len, &used, "every pfn an LRU folio");
	else if (l->lru_fraction >= 1)
		append_item(buf, len, &used, "every pfn on the LRU");
	else
		append_item(buf, len, &used, "%g%% of pfns on the LRU", 100 * l->lru_fraction);
	if (!l->memmap_from && l->folio_share[0] < 1)
		append_item(buf, len, &used, "folios by order and %% of LRU pages %s",
			    folio_mix(p, mix, sizeof(mix)));
	if (l->lru_order)
		append_item(buf, len, &used, "traced LRU order");
	else if (l->locality > 1)
		append_item(buf, len, &used, "LRU order in runs of %g adjacent folios", l->locality);
	else
		append_item(buf, len, &used, "random order");
	if (l->memcg || l->memcg_share < 1)
		append_item(buf, len, &used, "one memcg's folios");
	if (w->access == ACCESS_READ && !w->rmap_share && w->nr_lists == 1)
		append_item(buf, len, &used, "no per-folio work");
	if (w->access != ACCESS_READ)
		append_item(buf, len, &used, "%s each folio", access_names[w->access]);
	if (w->rmap_share)
		append_item(buf, len, &used, "rmap %g:%d", w->rmap_share, w->rmap_hops);
	if (w->nr_lists > 1)
		append_item(buf, len, &used, "%d lists, %lu folios a turn", w->nr_lists, w->chunk);
	if (w->phys == PHYS_JUMP)
		append_item(buf, len, &used, "Physical jumps over folios");
	if (l->desc_size != DEF_DESC_SIZE)
		append_item(buf, len, &used, "%d-byte struct page", l->desc_size);
	if (p->run.threads > 1)
		append_item(buf, len, &used, "%d threads", p->run.threads);
	if (p->run.original)
		append_item(buf, len, &used, "the 2023 protocol");
	return buf;
}

/* One line on stderr beside the original's two: the model their figures
 * come from, and where the kernel-like figure and the kernel's own are
 * to be had, so that a line pasted alone is not read as the kernel's. */
static void print_model_note(const struct params *p)
{
	static char words[512];	/* off the stack */

	model_words(p, words, sizeof(words));
	if (p->run.kernel_like)
		note("model: --kernel-like (%s); the original's: drop --kernel-like; the kernel's own: scan-kernel",
		     words);
	else if (p->run.original)
		note("model: %s; kernel-like figure: --kernel-like without --original; the kernel's own: scan-kernel",
		     words);
	else
		note("model: %s; kernel-like figure: --kernel-like; the kernel's own: scan-kernel", words);
}

/*
 * The PageTable walk's lines.  What it saw (-v), the unmapped page
 * cache it cannot see (stderr: a reclaimer must still find those on
 * the LRU), and where it breaks even.  Its time is split into PTE reads
 * at this core's stream limit (8 entries to a line) and the rest, per
 * young folio; at another young share the young part scales with it
 * (the tables read held fixed), at another LRU share both parts do,
 * where Physical's time follows the pfns and ListLRU's the LRU's
 * folios (docs/model.md, The page-table walk).
 */
static int pagetable_report(const struct reports *r)
{
	int s;

	for (s = 0; s < r->nr; s++)
		if (r->walk[s].walk->fn == walk_pagetable)
			return s;
	return -1;
}

static void print_pagetable_model(const struct lru_model *m, const struct params *p)
{
	const struct pt_model *pt = &m->pt;
	const struct work_knobs *w = &p->work;

	if (!pt->pmd)
		return;
	fprintf(p->out.text, "pagetable: %d processes, %lu PMD tables, %lu PTE tables (%lu with a young PTE), %lu PMD leaves, non-leaf accessed bit %s\n",
		PT_PROCS, pt->nr_pmd_tables, pt->nr_pte_tables, pt->nr_young_tables,
		pt->nr_leaf, pt_nonleaf_names[w->pt_nonleaf]);
	fprintf(p->out.text, "pagetable: %lu of %lu LRU folios mapped (--mapped=%g), %lu young in %lu young entries (--young=%g, --young-tables=%g, --pte-adjacent=%g)\n",
		pt->nr_mapped, m->nr_lru, w->pt_mapped, pt->nr_young, pt->nr_young_ptes,
		w->pt_young, w->pt_young_tables, w->pt_adjacent);
}

/* The young share at which PageTable takes time t, from its parts. */
static double pagetable_even(double t, double fixed, double young, double y)
{
	return young > 0 ? y * (t - fixed) / young : INFINITY;
}

static void print_pagetable_even(const struct output *out, const struct lru_model *m,
				 const struct reports *r)
{
	int s = pagetable_report(r), l;
	const struct walk_report *pw;
	double per_pte, fixed, young, y = m->work.pt_young, even, share;

	if (s < 0)
		return;
	pw = &r->walk[s];
	per_pte = m->bound_ns[BOUND_STREAM] * 64 / m->desc_size / 8;
	fixed = per_pte * pagetable_reads(m);
	young = pw->time.median * 1e9 - fixed;
	fprintf(out->text, "PageTable: %.0f entries read, %.2f ns each at this core's stream limit; %lu young folios, %.2f ns each beside\n",
		pagetable_reads(m), per_pte, m->pt.nr_young,
		m->pt.nr_young ? young / m->pt.nr_young : 0);
	if (per_pte <= 0 || young <= 0 || !m->pt.nr_young) {
		fprintf(out->text, "break-even of PageTable: not known (no stream limit, or no time beside its reads)\n");
		return;
	}
	share = (double)m->lru_pages / m->nr_pages;
	even = pagetable_even(r->walk[0].time.median * 1e9, fixed, young, y);
	if (even >= 1)
		fprintf(out->text, "break-even of PageTable: it beats Physical at any young share at %.3g%% of pages on the LRU\n",
			100 * share);
	else if (even > 0 && share / pw->ratio.median < 1)
		fprintf(out->text, "break-even of PageTable: it beats Physical below %.3g%% young PTEs at %.3g%% of pages on the LRU, and below %.3g%% on the LRU at %.3g%% young\n",
			100 * even, 100 * share, 100 * share / pw->ratio.median, 100 * y);
	else if (even > 0)
		fprintf(out->text, "break-even of PageTable: it beats Physical below %.3g%% young PTEs at %.3g%% of pages on the LRU, and at any LRU share at %.3g%% young\n",
			100 * even, 100 * share, 100 * y);
	else
		fprintf(out->text, "break-even of PageTable: Physical wins at any young share (reading the PTEs alone takes longer)\n");
	for (l = 1; l < r->nr; l++) {
		if (r->walk[l].walk->fn != walk_list)
			continue;
		even = pagetable_even(r->walk[l].time.median * 1e9, fixed, young, y);
		if (even >= 1)
			fprintf(out->text, "break-even of PageTable: it beats ListLRU at any young share, at any LRU share (both follow it)\n");
		else
			fprintf(out->text, "break-even of PageTable: it beats ListLRU below %.3g%% young PTEs, at any LRU share (both follow it)\n",
				100 * (even > 0 ? even : 0));
	}
}

/* The LRU folios the page tables do not map: said on stderr. */
static void print_pagetable_unmapped(const struct lru_model *m, const struct params *p)
{
	if (!m->pt.pmd || !m->pt.nr_unmapped || p->out.quiet)
		return;
	fprintf(stderr, "scan: note: PageTable sees %lu of %lu LRU folios: %lu are unmapped page cache, which no page table leads to and a reclaimer must still find on the LRU\n",
		m->pt.nr_mapped, m->nr_lru, m->pt.nr_unmapped);
}

/* ==== The field table =================================================== */

/*
 * The field table: one row per column of --format=csv and json, in
 * column order.  CSV writes the names, then a row per walk; JSON one
 * object of the columns that are not a walk's, then a "walks" array of
 * each walk's own; scan --fields lists every name with its scope and
 * meaning.  Scripts read the columns by name, other readers by place,
 * so none moves.  To add a column:
 *
 *   1. write its getter below the table, and name it in the list of
 *      getters just above the table: a number (NAN when unknown,
 *      written empty, JSON's null) or a text (any bytes: CSV writes a
 *      comma, quote, backslash, control or byte of no UTF-8 in it as
 *      \xNN, so it needs no quoting, and JSON escapes it as JSON must);
 *   2. add its row at the end: name, scope, meaning, then NUMBER(its
 *      printf format, getter) or TEXT(getter);
 *   3. its line in docs/output.md's table of columns, in this order
 *      (tests/t-knobs.sh holds the two to one order).
 *
 * A knob's column comes from its row of the option table: .csv names
 * it, and its value and meaning come from that row.  Its place is a
 * KNOB(the field of struct params) row here, at the end as any column's;
 * a knob of a custom grammar (OPT_CUSTOM) needs KNOB_AS(the field, its
 * getter, its meaning) instead, or a CSV run dies on an internal error.
 * (A .csv knob with no row here would follow the table's columns in the
 * option table's order, and move when another is added: give each its
 * row.)
 */
enum field_scope { SCOPE_RUN, SCOPE_MACHINE, SCOPE_KNOB, SCOPE_WALK };
static const char *const scope_names[] = {
	[SCOPE_RUN] = "run", [SCOPE_MACHINE] = "machine",
	[SCOPE_KNOB] = "knob", [SCOPE_WALK] = "walk",
};

/* What a getter reads: the run, and the walk whose row it is writing
 * (JSON's top-level columns are read in the first walk's row). */
struct answer {
	const struct lru_model *m;
	const struct params *p;
	const struct machine *mc;
	const struct reports *r;
	const struct walk_report *w;
};

typedef double field_number(const struct answer *a);
typedef const char *field_text(const struct answer *a);

struct field {
	const char *name;	/* NULL: a KNOB row, named by its option */
	enum field_scope scope;	/* a walk's own, or the run's (JSON) */
	const char *meaning;	/* one line for --fields */
	const char *format;	/* a number's printf format */
	field_number *number;	/* its value, NAN if unknown */
	field_text *text;	/* or its text */
	size_t knob;		/* a KNOB row: offsetof(struct params, it) */
};

#define NUMBER(fmt, fn)	.format = fmt, .number = fn
#define TEXT(fn)	.text = fn
#define KNOB(f)		{ .scope = SCOPE_KNOB, .knob = offsetof(struct params, f) }
#define KNOB_AS(f, value, what) { .scope = SCOPE_KNOB, \
			  .knob = offsetof(struct params, f), value, .meaning = what }

static field_text get_walk, get_label, get_bound, get_folios, get_cpu,
	get_kernel, get_system_thp, get_version, get_cpu_vendor,
	get_hypervisor, get_l2_from, get_llc_from, get_host_id;
static field_number get_timed, get_median_s, get_min_s, get_max_s,
	get_ns_per_page, get_ns_per_folio, get_speedup, get_speedup_min,
	get_speedup_max, get_bound_ns, get_bound_ratio, get_retimed,
	get_disturbed, get_pages, get_memory_bytes, get_rounds, get_lru_folios,
	get_lru_pages, get_rmap_share, get_rmap_hops, get_struct_page,
	get_huge_share, get_cpus, get_ram_bytes, get_speedup_q1,
	get_speedup_q3, get_llc_bytes, get_cpu_family, get_cpu_model,
	get_cpu_stepping, get_l2_bytes, get_numa_nodes, get_stream_ns,
	get_chase_ns, get_memmap_bytes, get_memmap_over_llc, get_cache_sized,
	get_llc_misses, get_dtlb_misses, get_instructions, get_cycles,
	get_counted_share, get_page_faults, get_context_switches;
static field_text get_warnings;

static const struct field fields[] = {
	/* 2.0's columns */
	{ "walk", SCOPE_WALK, "its short name, as --walks takes it", TEXT(get_walk) },
	{ "label", SCOPE_WALK, "its name in the ratio lines", TEXT(get_label) },
	{ "timed", SCOPE_WALK, "walks timed (rounds x repetitions)",
	  NUMBER("%.0f", get_timed) },
	{ "median_s", SCOPE_WALK, "median time of a walk, s", NUMBER("%.9f", get_median_s) },
	{ "min_s", SCOPE_WALK, "fastest walk, s", NUMBER("%.9f", get_min_s) },
	{ "max_s", SCOPE_WALK, "slowest walk, s", NUMBER("%.9f", get_max_s) },
	{ "ns_per_page", SCOPE_WALK, "median time per pfn of the memmap, ns",
	  NUMBER("%.4f", get_ns_per_page) },
	{ "ns_per_folio", SCOPE_WALK, "median time per LRU folio, ns",
	  NUMBER("%.4f", get_ns_per_folio) },
	{ "speedup", SCOPE_WALK, "median over rounds of its time / the physical walk's",
	  NUMBER("%.6f", get_speedup) },
	{ "speedup_min", SCOPE_WALK, "smallest of those ratios",
	  NUMBER("%.6f", get_speedup_min) },
	{ "speedup_max", SCOPE_WALK, "largest of those ratios",
	  NUMBER("%.6f", get_speedup_max) },
	{ "bound", SCOPE_WALK, "the limit it is held against", TEXT(get_bound) },
	{ "bound_ns", SCOPE_WALK, "that limit: ns per page (stream), per LRU folio (PageTable's), per load (others); 0: none",
	  NUMBER("%.4f", get_bound_ns) },
	{ "bound_ratio", SCOPE_WALK, "its ns per page or folio over the limit",
	  NUMBER("%.4f", get_bound_ratio) },
	{ "retimed", SCOPE_WALK, "walks timed again: they lost their CPU",
	  NUMBER("%.0f", get_retimed) },
	{ "disturbed", SCOPE_WALK, "walks still disturbed after retiming",
	  NUMBER("%.0f", get_disturbed) },
	{ "pages", SCOPE_RUN, "pfns in the memmap", NUMBER("%.0f", get_pages) },
	{ "memory_bytes", SCOPE_RUN, "memory simulated, 4 KiB a pfn",
	  NUMBER("%.0f", get_memory_bytes) },
	KNOB(layout.seed),
	{ "rounds", SCOPE_RUN, "rounds timed", NUMBER("%.0f", get_rounds) },
	KNOB(run.builds),
	{ "lru_folios", SCOPE_RUN, "folios the layout put on the walked LRU",
	  NUMBER("%.0f", get_lru_folios) },
	{ "lru_pages", SCOPE_RUN, "pages in those folios", NUMBER("%.0f", get_lru_pages) },
	KNOB(layout.lru_fraction),
	KNOB(layout.non_lru),
	KNOB_AS(layout.folio_share, TEXT(get_folios),
		"--folios: the folio mix, ORDER:PCT items separated by spaces"),
	KNOB(work.phys),
	KNOB(layout.locality),
	KNOB(work.access),
	KNOB(work.nr_lists),
	KNOB(work.chunk),
	KNOB(run.threads),
	KNOB_AS(work.rmap_share, NUMBER("%g", get_rmap_share),
		"--rmap: the share of folios mapped"),
	{ "rmap_hops", SCOPE_KNOB, "--rmap: dependent misses per mapped folio",
	  NUMBER("%.0f", get_rmap_hops) },
	KNOB_AS(layout.desc_size, NUMBER("%.0f", get_struct_page), NULL),
	KNOB(run.thp),
	{ "huge_share", SCOPE_RUN, "share of the memmap in huge pages, from smaps; -1: unknown",
	  NUMBER("%.3f", get_huge_share) },
	KNOB(run.cache),
	KNOB(run.kernel_like),
	KNOB(run.original),
	{ "cpu", SCOPE_MACHINE, "the CPU's model name", TEXT(get_cpu) },
	{ "cpus", SCOPE_MACHINE, "online CPUs", NUMBER("%.0f", get_cpus) },
	{ "ram_bytes", SCOPE_MACHINE, "RAM", NUMBER("%.0f", get_ram_bytes) },
	{ "kernel", SCOPE_MACHINE, "uname: system, release, machine", TEXT(get_kernel) },
	{ "system_thp", SCOPE_MACHINE, "the system's THP policy", TEXT(get_system_thp) },
	{ "version", SCOPE_RUN, "scan's version", TEXT(get_version) },
	/* added since, each at the end */
	KNOB(layout.memmap_from),
	KNOB(layout.memcg_share),
	{ "speedup_q1", SCOPE_WALK, "first quartile of its ratios over rounds",
	  NUMBER("%.6f", get_speedup_q1) },
	{ "speedup_q3", SCOPE_WALK, "third quartile of its ratios over rounds",
	  NUMBER("%.6f", get_speedup_q3) },
	{ "llc_bytes", SCOPE_MACHINE, "the last-level cache; 0: unknown",
	  NUMBER("%.0f", get_llc_bytes) },
	KNOB(layout.memcg),
	{ "cpu_vendor", SCOPE_MACHINE, "CPUID's vendor id, or arm64's implementer",
	  TEXT(get_cpu_vendor) },
	{ "cpu_family", SCOPE_MACHINE, "CPU family (arm64: variant)",
	  NUMBER("%.0f", get_cpu_family) },
	{ "cpu_model", SCOPE_MACHINE, "CPU model (arm64: part)", NUMBER("%.0f", get_cpu_model) },
	{ "cpu_stepping", SCOPE_MACHINE, "CPU stepping (arm64: revision)",
	  NUMBER("%.0f", get_cpu_stepping) },
	{ "hypervisor", SCOPE_MACHINE, "the hypervisor's vendor, unknown or none",
	  TEXT(get_hypervisor) },
	{ "l2_bytes", SCOPE_MACHINE, "the L2 cache of a core; 0: unknown",
	  NUMBER("%.0f", get_l2_bytes) },
	{ "l2_from", SCOPE_MACHINE, "where its size came from: sysfs, cpuid, getconf, none",
	  TEXT(get_l2_from) },
	{ "llc_from", SCOPE_MACHINE, "where the LLC's size came from", TEXT(get_llc_from) },
	{ "numa_nodes", SCOPE_MACHINE, "NUMA nodes online", NUMBER("%.0f", get_numa_nodes) },
	{ "stream_ns", SCOPE_MACHINE, "this run's streaming read, ns per 64-byte line",
	  NUMBER("%.4f", get_stream_ns) },
	{ "chase_ns", SCOPE_MACHINE, "this run's dependent chase, ns per hop",
	  NUMBER("%.4f", get_chase_ns) },
	{ "host_id", SCOPE_MACHINE, "a hash of the machine's identity", TEXT(get_host_id) },
	{ "memmap_bytes", SCOPE_RUN, "what the walks' descriptors take: the memmap, and 8-byte descriptors' folios",
	  NUMBER("%.0f", get_memmap_bytes) },
	{ "memmap_over_llc", SCOPE_RUN, "memmap_bytes over llc_bytes; empty: no LLC known",
	  NUMBER("%.4g", get_memmap_over_llc) },
	{ "cache_sized", SCOPE_RUN, "1: memmap_bytes under 4x llc_bytes (from llc_from), so the caches skew the ratios; 0: not; empty: no LLC known",
	  NUMBER("%.0f", get_cache_sized) },
	{ "llc_misses", SCOPE_WALK, "last-level cache read misses per page (physical) or folio, as the calling walker counted them; empty: not counted (-vv says why)",
	  NUMBER("%.4f", get_llc_misses) },
	{ "dtlb_misses", SCOPE_WALK, "dTLB read misses per page or folio, likewise",
	  NUMBER("%.4f", get_dtlb_misses) },
	{ "instructions", SCOPE_WALK, "instructions per page or folio, likewise",
	  NUMBER("%.4f", get_instructions) },
	{ "cycles", SCOPE_WALK, "CPU cycles per page or folio, likewise", NUMBER("%.4f", get_cycles) },
	{ "counted_share", SCOPE_WALK, "share of its walks' time those four counted (time running / enabled): under 1 the PMU was shared and they are scaled",
	  NUMBER("%.4f", get_counted_share) },
	{ "page_faults", SCOPE_WALK, "page faults the calling walker took in its timed walks, all of them: a walk takes none",
	  NUMBER("%.0f", get_page_faults) },
	{ "context_switches", SCOPE_WALK, "context switches in them, likewise",
	  NUMBER("%.0f", get_context_switches) },
	/* the warning table's codes, in its order (tests/t-warnings.sh) */
	{ "warnings", SCOPE_WALK, "warnings fired for the run or this walk, spaces between, most important first: cache-sized short-walk disturbed thp-short thp-refused code-bound noisy limit-beaten",
	  TEXT(get_warnings) },
	/* the PageTable walk's knobs */
	KNOB(work.pt_mapped),
	KNOB(work.pt_young),
	KNOB(work.pt_young_tables),
	KNOB(work.pt_adjacent),
	KNOB(work.pt_nonleaf),
};

#define NR_FIELDS	((int)ARRAY_SIZE(fields))
#define FIELD_MAX	160	/* a cell's bytes, as 2.0 wrote them: longer is cut */

/* The getters, in the table's order; a text lives at least until the
 * next getter's call. */
static const char *get_walk(const struct answer *a) { return a->w->walk->name; }
static const char *get_label(const struct answer *a) { return a->w->walk->label; }
static double get_timed(const struct answer *a) { return a->w->st->nr_samples; }
static double get_median_s(const struct answer *a) { return a->w->time.median; }
static double get_min_s(const struct answer *a) { return a->w->time.min; }
static double get_max_s(const struct answer *a) { return a->w->time.max; }
static double get_ns_per_page(const struct answer *a) { return a->w->time.median * 1e9 / a->m->nr_pages; }
static double get_ns_per_folio(const struct answer *a) { return a->w->time.median * 1e9 / a->m->nr_lru; }
static double get_speedup(const struct answer *a) { return a->w->ratio.median; }
static double get_speedup_min(const struct answer *a) { return a->w->ratio.min; }
static double get_speedup_max(const struct answer *a) { return a->w->ratio.max; }
static const char *get_bound(const struct answer *a) { return bounds[a->w->walk->bound].name; }
static double get_bound_ns(const struct answer *a) { return a->w->bound_ns; }
static double get_bound_ratio(const struct answer *a) { return a->w->bound_x; }
static double get_retimed(const struct answer *a) { return a->w->st->retimed; }
static double get_disturbed(const struct answer *a) { return a->w->st->disturbed; }
static double get_pages(const struct answer *a) { return a->m->nr_pages; }
static double get_memory_bytes(const struct answer *a) { return a->m->nr_pages * SIM_PAGE_SIZE; }
static double get_rounds(const struct answer *a) { return a->r->rounds; }
static double get_lru_folios(const struct answer *a) { return a->m->nr_lru; }
static double get_lru_pages(const struct answer *a) { return a->m->lru_pages; }
static double get_rmap_share(const struct answer *a) { return a->p->work.rmap_share; }
static double get_rmap_hops(const struct answer *a) { return a->p->work.rmap_hops; }
static double get_struct_page(const struct answer *a) { return a->p->layout.desc_size; }
static double get_huge_share(const struct answer *a) { return huge_share(&a->m->region[R_MEMMAP]); }
static const char *get_cpu(const struct answer *a) { return a->mc->cpu; }
static double get_cpus(const struct answer *a) { return a->mc->cpus; }
static double get_ram_bytes(const struct answer *a) { return a->mc->memory; }
static const char *get_kernel(const struct answer *a) { return a->mc->kernel; }
static const char *get_system_thp(const struct answer *a) { return a->mc->thp; }
static const char *get_version(const struct answer *a) { (void)a; return SCAN_VERSION; }
static double get_speedup_q1(const struct answer *a) { return a->w->ratio.q1; }
static double get_speedup_q3(const struct answer *a) { return a->w->ratio.q3; }
static double get_llc_bytes(const struct answer *a) { return a->mc->llc; }
static const char *get_cpu_vendor(const struct answer *a) { return a->mc->vendor; }
static double get_cpu_family(const struct answer *a) { return a->mc->family < 0 ? NAN : a->mc->family; }
static double get_cpu_model(const struct answer *a) { return a->mc->model < 0 ? NAN : a->mc->model; }
static double get_cpu_stepping(const struct answer *a) { return a->mc->stepping < 0 ? NAN : a->mc->stepping; }
static const char *get_hypervisor(const struct answer *a) { return a->mc->hypervisor; }
static double get_l2_bytes(const struct answer *a) { return a->mc->l2; }
static const char *get_l2_from(const struct answer *a) { return a->mc->l2_from; }
static const char *get_llc_from(const struct answer *a) { return a->mc->llc_from; }
static double get_numa_nodes(const struct answer *a) { return a->mc->numa_nodes; }
static double get_stream_ns(const struct answer *a) { return a->mc->stream_ns > 0 ? a->mc->stream_ns : NAN; }
static double get_chase_ns(const struct answer *a) { return a->mc->chase_ns > 0 ? a->mc->chase_ns : NAN; }
static const char *get_host_id(const struct answer *a) { return a->mc->host_id; }
static double get_memmap_bytes(const struct answer *a) { return memmap_bytes(a->m); }
static double get_llc_misses(const struct answer *a) { return counted(a->m, a->w, C_LLC_MISSES); }
static double get_dtlb_misses(const struct answer *a) { return counted(a->m, a->w, C_DTLB_MISSES); }
static double get_instructions(const struct answer *a) { return counted(a->m, a->w, C_INSTRUCTIONS); }
static double get_cycles(const struct answer *a) { return counted(a->m, a->w, C_CYCLES); }
static double get_page_faults(const struct answer *a) { return counted(a->m, a->w, C_PAGE_FAULTS); }
static double get_context_switches(const struct answer *a) { return counted(a->m, a->w, C_CONTEXT_SWITCHES); }

/* The mix with its items separated by spaces, as 2.0 wrote the column. */
static const char *get_folios(const struct answer *a)
{
	static char mix[128];
	char *c;

	for (c = (char *)folio_mix(a->p, mix, sizeof(mix)); (c = strchr(c, ',')); )
		*c = ' ';
	return mix;
}

static double get_memmap_over_llc(const struct answer *a)
{
	return a->mc->llc > 0 ? memmap_bytes(a->m) / a->mc->llc : NAN;
}

static double get_counted_share(const struct answer *a)
{
	const struct walk_counts *c = &a->w->st->counts;

	return c->enabled > 0 && c->running > 0 ? c->running / c->enabled : NAN;
}

static double get_cache_sized(const struct answer *a)
{
	int sized = cache_sized(a->m, a->mc);

	return sized < 0 ? NAN : sized;
}

static const char *get_warnings(const struct answer *a)
{
	static char codes[FIELD_MAX];

	return warning_codes((int)(a->w - a->r->walk), codes, sizeof(codes));
}

/* ==== CSV, JSON and KTAP ================================================ */

/*
 * The answer as data: the field table's columns written as CSV (a header,
 * a row per walk) or JSON (the run's, then each walk's, then the
 * warnings), --fields, and --format=ktap's test points.
 */

/* The option row a knob's column comes from: the first that sets its
 * field and names a column. */
static const struct option_spec *knob_option(size_t field)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(options); i++)
		if (options[i].field == field && options[i].csv)
			return &options[i];
	die("internal error: a KNOB row of the field table names no option's column");
	return NULL;
}

/* Does a KNOB row of the table place the column of option o? */
static int knob_placed(const struct option_spec *o)
{
	int i;

	for (i = 0; i < NR_FIELDS; i++)
		if (!fields[i].name && fields[i].knob == o->field)
			return 1;
	return 0;
}

/* Column i, NULL past the last: the table's rows, then a row for each
 * knob whose column the table does not place. */
static const struct field *column(int i)
{
	static struct field later[ARRAY_SIZE(options)];
	static int nr_later = -1;
	size_t o;

	if (nr_later < 0)
		for (nr_later = 0, o = 0; o < ARRAY_SIZE(options); o++)
			if (options[o].csv && knob_option(options[o].field) == &options[o] &&
			    !knob_placed(&options[o]))
				later[nr_later++] = (struct field){ .scope = SCOPE_KNOB,
								    .knob = options[o].field };
	if (i < NR_FIELDS)
		return &fields[i];
	return i - NR_FIELDS < nr_later ? &later[i - NR_FIELDS] : NULL;
}

static const char *field_name(const struct field *f)
{
	return f->name ? f->name : knob_option(f->knob)->csv;
}

/* A column's one line for --fields: a knob's says its option. */
static const char *field_meaning(const struct field *f, char *buf, size_t len)
{
	const struct option_spec *o;

	if (f->meaning)
		return f->meaning;
	o = knob_option(f->knob);
	if (o->long_name)
		snprintf(buf, len, "--%s: %s", o->long_name, o->help);
	else
		snprintf(buf, len, "-%c: %s", o->short_name, o->help);
	return buf;
}

/* A typed knob's value, as its option row says; *quoted for a name. */
static const char *knob_text(const struct option_spec *o, const struct params *p,
			     char *buf, size_t len, int *quoted)
{
	const void *field = (const char *)p + o->field;

	*quoted = o->kind == OPT_CHOICE || o->kind == OPT_FILE;
	switch (o->kind) {
	case OPT_FLAG:
	case OPT_INT:
		snprintf(buf, len, "%d", *(const int *)field);
		break;
	case OPT_ULONG:
		snprintf(buf, len, "%lu", *(const unsigned long *)field);
		break;
	case OPT_REAL:
		snprintf(buf, len, "%g", *(const double *)field);
		break;
	case OPT_CHOICE:
		return o->names[*(const int *)field];
	case OPT_FILE:
		return *(const char *const *)field ? *(const char *const *)field : "";
	case OPT_CUSTOM:	/* its KNOB_AS row gives a getter */
		die("internal error: --%s's column needs a getter in the field table",
		    o->long_name);
	}
	return buf;
}

/*
 * Column f's value in a's row, in buf (FIELD_MAX bytes, as the longest
 * column wants; a longer text is cut at a character's start); *quoted
 * if it is a text, which put_csv() and put_json() escape.
 */
static const char *cell(const struct field *f, const struct answer *a,
			char *buf, int *quoted)
{
	const char *text;
	size_t n;
	double v;

	*quoted = f->text != NULL;
	if (f->number) {
		v = f->number(a);
		if (isnan(v))
			*buf = 0;
		else
			snprintf(buf, FIELD_MAX, f->format, v);
		return buf;
	}
	text = f->text ? f->text(a) : knob_text(knob_option(f->knob), a->p, buf, FIELD_MAX, quoted);
	if (text != buf && (n = snprintf(buf, FIELD_MAX, "%s", text)) >= FIELD_MAX)
		for (n = FIELD_MAX - 1; n && (text[n] & 0xc0) == 0x80; n--)
			buf[n - 1] = 0;	/* text[n] continues a character */
	return buf;
}

/* A CSV cell: a text as printable text with no comma or quote in it,
 * and no backslash but its \xNN, so a reader can undo it. */
static void put_csv(const char *cell, int quoted)
{
	if (quoted)
		put_plain(stdout, cell, ",\"\\");
	else
		fputs(cell, stdout);
}

/* One character of a JSON string (see put_json()); returns the bytes of
 * c it took. */
static int put_json_char(const unsigned char *c)
{
	int len = utf8_length(c);

	if (*c == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f) {	/* C1 */
		printf("\\u%04x", c[1]);
		return 2;
	}
	if (*c < ' ' || *c == 0x7f)
		printf("\\u%04x", *c);
	else if (!len)
		printf("\\\\x%02x", *c);
	else if (*c == '"' || *c == '\\')
		printf("\\%c", *c);
	else
		fwrite(c, 1, len, stdout);
	return len ? len : 1;
}

/*
 * A JSON value: a number, null, or a string of valid UTF-8 with what
 * RFC 8259 asks escaped (a quote, a backslash; a control, C1 included,
 * as \u00XX); a byte of no UTF-8 is the text \xNN, as scan's other
 * lines write it (in JSON "\\xNN"), not a character that would hide it.
 */
static void put_json(const char *cell, int quoted)
{
	const unsigned char *c = (const unsigned char *)cell;

	if (!quoted) {
		fputs(*cell ? cell : "null", stdout);
		return;
	}
	putchar('"');
	while (*c)
		c += put_json_char(c);
	putchar('"');
}

/* A header, then a row per walk. */
static void print_csv(struct answer *a)
{
	char buf[FIELD_MAX];
	const struct field *f;
	int i, s, quoted;

	for (i = 0; (f = column(i)); i++)
		printf("%s%s", i ? "," : "", field_name(f));
	printf("\n");
	for (s = 0; s < a->r->nr; s++) {
		a->w = &a->r->walk[s];
		for (i = 0; (f = column(i)); i++) {
			if (i)
				putchar(',');
			cell(f, a, buf, &quoted);
			put_csv(buf, quoted);
		}
		printf("\n");
	}
}

/* The columns of a's row that are a walk's (walk 1) or the run's (walk
 * 0) as JSON members; the last without a comma unless more follow. */
static void print_json_members(const struct answer *a, int walk,
			       const char *indent, int more)
{
	char buf[FIELD_MAX];
	const struct field *f;
	int i, last = -1, quoted;

	for (i = 0; (f = column(i)); i++)
		if ((f->scope == SCOPE_WALK) == walk)
			last = i;
	for (i = 0; (f = column(i)); i++) {
		if ((f->scope == SCOPE_WALK) != walk)
			continue;
		printf("%s\"%s\": ", indent, field_name(f));
		cell(f, a, buf, &quoted);
		put_json(buf, quoted);
		printf("%s\n", more || i < last ? "," : "");
	}
}

/* JSON's "warnings": each cause that fired, its code and its line. */
static void print_json_warnings(void)
{
	char line[256];
	int c, n = 0;

	printf("  \"warnings\": [");
	for (c = 0; c < NR_WARNINGS; c++) {
		if (!warning_fired(c, -1))
			continue;
		warning_line(c, line, sizeof(line));
		printf("%s\n    { \"code\": \"%s\", \"text\": ", n++ ? "," : "", warnings[c].code);
		put_json(line + strlen(warnings[c].code) + 2, 1);
		printf(" }");
	}
	printf("%s]\n", n ? "\n  " : "");
}

/* The run's columns, read in the first walk's row, then each walk's,
 * then each warning that fired, its code and its line. */
static void print_json(struct answer *a)
{
	int s;

	printf("{\n");
	a->w = &a->r->walk[0];
	print_json_members(a, 0, "  ", 1);
	printf("  \"walks\": [\n");
	for (s = 0; s < a->r->nr; s++) {
		a->w = &a->r->walk[s];
		printf("    {\n");
		print_json_members(a, 1, "      ", 0);
		printf("    }%s\n", s + 1 < a->r->nr ? "," : "");
	}
	printf("  ],\n");
	print_json_warnings();
	printf("}\n");
}

/*
 * --format=ktap, the kernel's selftest format: the version and the plan
 * before the run, so that a run that dies (a failed self-check is exit
 * 1) leaves its plan unmet, which a KTAP reader counts as a failure;
 * then a test point per walk's self-check and one per warning cause,
 * each cause "not ok" when it fired (ok with an XFAIL directive when
 * --expect named it), and the figures as diagnostic lines.
 */
static void print_ktap_plan(const struct params *p)
{
	printf("KTAP version 1\n1..%d\n", p->run.nr_walks + NR_WARNINGS);
}

static void print_ktap(const struct answer *a)
{
	const struct lru_model *m = a->m;
	struct walk_result sum = expected_result(m);
	int s, c, n = 0, fail = 0, xfail = 0;
	char b1[32], b2[32], line[256];

	printf("# scan %s %s %s: %lu pages, %s simulated, memmap %s, seed %lu, host %s\n",
	       SCAN_VERSION, a->p->size_opt, a->p->size_arg, m->nr_pages,
	       human(m->nr_pages * SIM_PAGE_SIZE, b1, 32), human(memmap_bytes(m), b2, 32),
	       a->p->layout.seed, a->mc->host_id);
	for (s = 0; s < a->r->nr; s++) {
		const struct walk_report *w = &a->r->walk[s];

		struct walk_result want = w->walk->expect ? w->walk->expect(m) : sum;

		printf("# %s: median %.*f s, %.2f ns/%s over %d timed walks; summed %lu over %lu folios, as the model\n",
		       w->walk->label, spread_decimals(w->time.median, w->time.min, w->time.max),
		       w->time.median, w->walk_ns,
		       w->walk->bound == BOUND_STREAM ? "page" : "folio", w->st->nr_samples,
		       want.sum, want.visits);
		if (s) {
			int d = spread_decimals(w->ratio.median, w->ratio.min, w->ratio.max);

			printf("# %s ratio: median %.*f, IQR %.*f-%.*f over %d rounds\n",
			       w->walk->label, d, w->ratio.median, d, w->ratio.q1, d, w->ratio.q3,
			       a->r->rounds);
		}
		printf("ok %d self-check %s\n", ++n, w->walk->name);
	}
	for (c = 0; c < NR_WARNINGS; c++) {
		if (!warning_fired(c, -1)) {
			printf("ok %d warning %s\n", ++n, warnings[c].code);
			continue;
		}
		printf("# %s\n", warning_line(c, line, sizeof(line)));
		if (a->p->out.expect >> c & 1) {
			printf("ok %d warning %s # XFAIL --expect names it\n", ++n, warnings[c].code);
			xfail++;
		} else {
			printf("not ok %d warning %s\n", ++n, warnings[c].code);
			fail++;
		}
	}
	for (s = 1; s < a->r->nr; s++)
		printf("# %s scan is %f faster than %s\n", a->r->walk[0].walk->label,
		       a->r->walk[s].ratio.median, a->r->walk[s].walk->label);
	printf("# Totals: pass:%d fail:%d xfail:%d xpass:0 skip:0 error:0\n",
	       n - fail - xfail, fail, xfail);
}

static void print_results(const struct lru_model *m, const struct params *p,
			  const struct machine *mc, const struct reports *r)
{
	struct answer a = { m, p, mc, r, NULL };

	if (p->out.format == FORMAT_JSON)
		print_json(&a);
	else if (p->out.format == FORMAT_KTAP)
		print_ktap(&a);
	else
		print_csv(&a);
}

/* --fields: every column's name, scope and meaning, in column order. */
static void show_fields(struct params *p, const char *opt, const char *arg)
{
	char buf[256];
	const struct field *f;
	int i;

	(void)p;
	(void)opt;
	(void)arg;
	for (i = 0; (f = column(i)); i++)
		printf("%-16s %-8s %s\n", field_name(f), scope_names[f->scope],
		       field_meaning(f, buf, sizeof(buf)));
	flush_results(1);
	exit(0);
}

/* ==== The host: files and room ========================================== */

/*
 * The host, first of two sections at the end of the file (their
 * functions are declared where Part I uses them): the files that say
 * what the machine is, read within bounds, and what may still be
 * allocated (RAM, the memory cgroups v1 and v2 up each hierarchy, the
 * rlimits), for check_fits().
 */

/*
 * The files that say what the machine is (/proc/cpuinfo, meminfo, the
 * sysfs caches; under SCAN_MACHINE_ROOT a test's) are read within the
 * replay files' bounds: a regular file only, opened without blocking,
 * read as far as its size when opened and in lines of at most
 * TRACE_LINE_MAX (trace_line()).  A /proc or /sys file says it is
 * empty, so it is read to MACHINE_FILE_MAX.  Unlike a replay, which
 * the user named, such a file is skipped, not refused: the identity is
 * best effort, and a field it would give says unknown.  cpuinfo linked
 * to /dev/zero grew scan past 875 MB, and a FIFO there blocked it.
 */
#define MACHINE_FILE_MAX	(16 << 20)	/* cpuinfo of 8,192 CPUs, 2 KiB each */

/* A machine file opened, *left the bytes it may give; NULL to skip it. */
static FILE *machine_open(const char *path, off_t *left)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	struct stat st;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "r"))) {
		close(fd);
		return NULL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	*left = st.st_size > 0 && st.st_size < MACHINE_FILE_MAX ? st.st_size : MACHINE_FILE_MAX;
	flockfile(f);	/* for trace_line()'s getc_unlocked() */
	return f;
}

/* Its next line into line (len bytes), as trace_line(); -1 at its end
 * or at a line too long for a machine file, where reading stops. */
static long machine_next(FILE *f, char *line, size_t len, off_t *left)
{
	int nul;
	long n = trace_line(f, line, len, &nul, left);

	return n > TRACE_LINE_MAX ? -1 : n;
}

static void machine_close(FILE *f)
{
	if (f) {
		funlockfile(f);
		fclose(f);
	}
}

/* The first line of file that starts with key, after its colon. */
static int read_key(const char *file, const char *key, char *out, size_t len)
{
	char line[512], *v;
	off_t left;
	FILE *f = machine_open(file, &left);
	int found = 0;

	while (f && !found && machine_next(f, line, sizeof(line), &left) >= 0) {
		if (strncmp(line, key, strlen(key)) || !(v = strchr(line, ':')))
			continue;
		for (v++; *v == ' ' || *v == '\t'; v++)
			;
		snprintf(out, len, "%s", v);
		found = 1;
	}
	machine_close(f);
	return found;
}

/*
 * A number in a cgroup file of its own: 1, with *v (-1 for "max"), or 0
 * if there is no such file (no such limit here).  A file that is there
 * but cannot be read ends the run: the limit it holds may be the one
 * that binds, and counting it as none gets scan OOM-killed.
 */
static int read_limit(const char *file, double *v)
{
	char line[64];
	FILE *f = fopen(file, "r");

	*v = -1;
	if (!f && (errno == ENOENT || errno == ENOTDIR))
		return 0;
	if (f)
		errno = 0;
	if (!f || !fgets(line, sizeof(line), f))
		die("cannot read %s, a memory limit scan must respect: %s", file,
		    errno ? strerror(errno) : "it is empty");
	fclose(f);
	if (line[0] >= '0' && line[0] <= '9')
		*v = atof(line);
	return 1;
}

/* The room one cgroup's limit leaves, < 0 if it sets none: its
 * directory is path[0..len), and its files are named after it. */
static double room_at(char *path, size_t len, size_t size,
		      const char *limit_file, const char *usage_file)
{
	double limit, usage;

	snprintf(path + len, size - len, "/%s", limit_file);
	/* v1 says "no limit" with a huge number, v2 with "max" */
	if (!read_limit(path, &limit) || limit < 0 || limit >= 0x1p60)
		limit = -1;
	snprintf(path + len, size - len, "/%s", usage_file);
	if (limit >= 0 && (!read_limit(path, &usage) || usage < 0))
		usage = 0;
	path[len] = 0;
	return limit < 0 ? -1 : limit > usage ? limit - usage : 0;
}

/* The tightest room from a cgroup up to the root of its hierarchy: a
 * parent's limit binds its children too (v2, and v1's use_hierarchy). */
static double hierarchy_room(const char *root, const char *cgroup,
			     const char *limit_file, const char *usage_file)
{
	char path[768];
	size_t base = strlen(root), len;
	double best = -1, room;

	len = snprintf(path, sizeof(path), "%s%s", root, strcmp(cgroup, "/") ? cgroup : "");
	if (len + 32 > sizeof(path))
		die("cannot read the memory limits of cgroup %s: its path is too long", cgroup);
	for (;;) {
		room = room_at(path, len, sizeof(path), limit_file, usage_file);
		if (room >= 0 && (best < 0 || room < best))
			best = room;
		if (len <= base)
			return best;
		while (len > base && path[len] != '/')
			len--;
		path[len] = 0;
	}
}

/* What the memory cgroups leave: v2 memory.max less memory.current, or
 * v1 memory.limit_in_bytes less memory.usage_in_bytes, the tightest up
 * each hierarchy.  /proc/self/cgroup is read whole, on the heap, and
 * closed first, so one free descriptor (ulimit -n 4) is enough. */
static double cgroup_room(void)
{
	const size_t size = 8192;
	char *buf = malloc(size), *line, *save, *dir;
	FILE *f = fopen("/proc/self/cgroup", "r");
	double room, best = -1;
	size_t len = 0;

	if (!f && errno == ENOENT) {
		free(buf);
		return -1;	/* no cgroups here */
	}
	if (f && buf)
		len = fread(buf, 1, size - 1, f);
	if (!f || !buf || ferror(f))
		die("cannot read /proc/self/cgroup, which says what limits memory: %s", strerror(errno));
	fclose(f);
	buf[len] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!(dir = strchr(line, ':')) || !(dir = strchr(dir + 1, ':')))
			continue;
		room = -1;
		if (!strncmp(line, "0::", 3))
			room = hierarchy_room("/sys/fs/cgroup", dir + 1, "memory.max", "memory.current");
		else if (strstr(line, ":memory:") || strstr(line, ",memory:") ||
			 strstr(line, ":memory,"))
			room = hierarchy_room("/sys/fs/cgroup/memory", dir + 1,
					      "memory.limit_in_bytes", "memory.usage_in_bytes");
		if (room >= 0 && (best < 0 || room < best))
			best = room;
	}
	free(buf);
	return best;
}

/* An rlimit less what this process has already mapped (kB in status). */
static double rlimit_room(int resource, const char *status_key)
{
	struct rlimit rl;
	char kb[64];
	double used = 0;

	if (getrlimit(resource, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return -1;
	if (read_key("/proc/self/status", status_key, kb, sizeof(kb)))
		used = atof(kb) * 1024;
	return (double)rl.rlim_cur > used ? (double)rl.rlim_cur - used : 0;
}

static void tighter(struct mem_limit *best, double bytes, const char *name)
{
	if (bytes >= 0 && (best->bytes < 0 || bytes < best->bytes)) {
		best->bytes = bytes;
		best->name = name;
	}
}

/* The smallest of every limit that applies: RAM, the memory cgroup, the
 * address space and data rlimits. */
static struct mem_limit mem_available(void)
{
	struct mem_limit best = { -1, "" };
	char kb[64];

	if (read_key("/proc/meminfo", "MemAvailable", kb, sizeof(kb)))
		tighter(&best, atof(kb) * 1024, "MemAvailable");
#ifdef _SC_AVPHYS_PAGES
	else
		tighter(&best, (double)sysconf(_SC_AVPHYS_PAGES) * sysconf(_SC_PAGESIZE), "free memory");
#endif
	tighter(&best, cgroup_room(), "the memory cgroup's limit less its usage");
	tighter(&best, rlimit_room(RLIMIT_AS, "VmSize"), "RLIMIT_AS (ulimit -v) less what is mapped");
#ifdef RLIMIT_DATA
	tighter(&best, rlimit_room(RLIMIT_DATA, "VmData"), "RLIMIT_DATA (ulimit -d) less what is used");
#endif
	return best;
}

/* ==== The host: the LLC measured ======================================== */

/*
 * The LLC a vCPU reaches, measured where sysfs gives no cache topology
 * to check CPUID's claim against: a VM's CPUID, and so getconf, may
 * pass on the socket's L3 (508 MiB on an EPYC bhyve guest whose core
 * complex has 32 MiB).  As lmbench's lat_mem_rd does, a dependent chase
 * over growing footprints, PROBE_STEP apart from twice the L2: a read
 * of the whole footprint leaves in the caches what they keep of it, then
 * PROBE_REPS chases of PROBE_HOPS loads at its lines, PROBE_GROUP at
 * random from each of random 4 KiB pages (a VM's nested page walk on
 * every page then weighs a sixteenth), each timed in chunks of
 * PROBE_CHUNK whose median is kept (a preemption spoils a chunk, not the
 * figure); their median is the footprint's latency.  The same chase from flushed
 * lines is memory's.  The LLC is the footprint where the latency passes
 * half way from the cache's (at twice the L2) to memory's, between the
 * two footprints that bracket it, the crossing confirmed by the next
 * footprint and by the first past it measured again.  It costs 0.15 to
 * 0.4 s on a busy 2-vCPU guest (docs/method.md), once a process.
 */
#define PROBE_HOPS	4096
#define PROBE_CHUNK	256
#define PROBE_GROUP	16		/* lines a page: 1/4 of its 64 */
#define PROBE_REPS	3
#define PROBE_SEARCHES	3		/* the LLC: their median */
#define PROBE_STEP	1.189207115	/* 2^(1/4): four footprints an octave */
#define PROBE_MAX	(256UL << 20)	/* beyond: no figure */
#define PROBE_BUDGET_S	1.5		/* then searches give no figure */
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
#define CAN_FLUSH	1		/* flush_line() flushes */
#else
#define CAN_FLUSH	0
#endif

struct llc_probe {
	char *map, *base;	/* the mapping; base 2 MiB aligned in it */
	size_t map_len, touched; /* bytes mapped; written from base (faulted in) */
	char *line[PROBE_HOPS];	/* the chase's lines, in its order */
	struct rng rng;
	int opt;		/* clflushopt, for the flushed chase */
	double start;		/* now() when the first search began */
};

static volatile unsigned long probe_sink;	/* keeps the loads */

/* PROBE_HOPS lines of the first bytes of the buffer. */
static void probe_draw(struct llc_probe *pr, size_t bytes)
{
	unsigned char idx[64], t;
	char *page;
	int k, j, r;

	for (k = 0; k < PROBE_HOPS; k += PROBE_GROUP) {
		page = pr->base + rng_below(&pr->rng, bytes / 4096) * 4096;
		for (j = 0; j < 64; j++)
			idx[j] = j;
		for (j = 0; j < PROBE_GROUP; j++) {	/* distinct, in random order */
			r = j + rng_below(&pr->rng, 64 - j);
			t = idx[j];
			idx[j] = idx[r];
			idx[r] = t;
			pr->line[k + j] = page + idx[j] * 64;
		}
	}
}

/* One word of each line of the first bytes, in address order. */
static NOINLINE unsigned long probe_fill(const char *p, size_t bytes)
{
	unsigned long sum = 0;
	size_t i;

	for (i = 0; i < bytes; i += 64) {
		const unsigned long *word = (const unsigned long *)(p + i);

		OPAQUE(word);
		sum += *word;
	}
	return sum;
}

/* The chase: ns per hop, the median of its chunks. */
static NOINLINE double probe_chase(char *const *line)
{
	double t[PROBE_HOPS / PROBE_CHUNK], start;
	unsigned long sum = 0, dep = 0, zero = bound_zero;
	int c, k;

	for (c = 0; c < PROBE_HOPS / PROBE_CHUNK; c++) {
		start = now();
		for (k = c * PROBE_CHUNK; k < (c + 1) * PROBE_CHUNK; k++) {
			/* the buffer holds zeros: dep is 0, known only
			 * once the load is done */
			unsigned long w = *(const unsigned long *)(line[k] + dep);

			sum += w;
			dep = w & zero;
		}
		t[c] = (now() - start) * 1e9 / PROBE_CHUNK;
	}
	probe_sink += sum;
	qsort(t, ARRAY_SIZE(t), sizeof(*t), cmp_double);
	return t[ARRAY_SIZE(t) / 2];
}

/* A footprint's latency, ns per hop: from the caches, or flushed. */
static double probe_latency(struct llc_probe *pr, size_t bytes, int flushed)
{
	double v[PROBE_REPS];
	int r, k;

	if (bytes > pr->touched) {	/* fault it in, untimed */
		memset(pr->base + pr->touched, 0, bytes - pr->touched);
		pr->touched = bytes;
	}
	if (!flushed)	/* once: a chase's 256 KiB of lines barely move it */
		probe_sink += probe_fill(pr->base, bytes);
	for (r = 0; r < PROBE_REPS; r++) {
		probe_draw(pr, bytes);
		if (flushed) {
			for (k = 0; k < PROBE_HOPS; k++)
				flush_line(pr->line[k], pr->opt);
			flush_fence(pr->opt);
		}
		v[r] = probe_chase(pr->line);
	}
	qsort(v, PROBE_REPS, sizeof(*v), cmp_double);
	return v[PROBE_REPS / 2];
}

/* Where the latency passes half way, searched up to cap bytes; 0 where
 * it does not (or the caches are no faster than memory). */
static double probe_knee(struct llc_probe *pr, size_t first, size_t cap)
{
	double cache = probe_latency(pr, first, 0), memory = probe_latency(pr, first, 1);
	double half, lat, low_lat, high_lat = 0, again;
	double size = first;
	size_t bytes, low = first, high = 0;

	if (memory < 2 * cache)		/* a burst, or no cache to find: again */
		cache = probe_latency(pr, first, 0);
	if (memory < 2 * cache)
		return 0;
	half = (cache + memory) / 2;
	low_lat = cache;
	for (;;) {
		size *= PROBE_STEP;
		bytes = (size_t)size / 4096 * 4096;
		if (bytes > cap || now() - pr->start > PROBE_BUDGET_S)
			return 0;
		lat = probe_latency(pr, bytes, 0);
		if (lat < half) {
			low = bytes;
			low_lat = lat;
			high = 0;
		} else if (!high) {
			high = bytes;
			high_lat = lat;
		} else if ((again = probe_latency(pr, high, 0)) >= half) {
			break;
		} else {	/* a neighbour's burst put two in a row there */
			low = high;
			low_lat = again;
			high = bytes;
			high_lat = lat;
		}
	}
	return low + (high - low) * (half - low_lat) / (high_lat - low_lat);
}

/*
 * The chase's LLC, once a process (read_machine() runs twice): the
 * median of PROBE_SEARCHES searches, where most find one; 0 where they
 * find none below half the claim (the claim stands) or PROBE_MAX, or
 * where no flush instruction gives memory's latency.
 */
static double llc_probe(double l2, double claim)
{
	static struct llc_probe pr;	/* 32 KiB of lines: off the stack */
	static double found = -1;
	struct mem_limit avail;
	/* the first footprint past a plausible L2, in the LLC */
	size_t first = l2 >= (512 << 10) && l2 <= (8 << 20) ? 2 * (size_t)l2 : 1 << 20;
	size_t cap = claim > 0 && claim / 2 < PROBE_MAX ? (size_t)(claim / 2) : PROBE_MAX;
	double knee[PROBE_SEARCHES];
	int i, n = 0;

	if (found >= 0)
		return found;
	found = 0;
	if (!CAN_FLUSH)
		return found;
	avail = mem_available();
	if (avail.bytes >= 0 && avail.bytes / 4 < cap)
		cap = (size_t)(avail.bytes / 4);
	if (cap <= first)
		return found;
	pr.map_len = cap + HUGE_PAGE_SIZE;
	pr.map = mmap(NULL, pr.map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pr.map == MAP_FAILED)
		return found;
	pr.base = (char *)round_up((uintptr_t)pr.map, HUGE_PAGE_SIZE);
#if defined(SCAN_LINUX) && defined(MADV_HUGEPAGE)
	madvise(pr.base, cap, MADV_HUGEPAGE);	/* TLB misses would blur it */
#endif
	pr.opt = has_clflushopt();
	rng_seed(&pr.rng, 0x11c);
	pr.start = now();
	for (i = 0; i < PROBE_SEARCHES; i++)
		if ((knee[n] = probe_knee(&pr, first, cap)) > 0)
			n++;
	munmap(pr.map, pr.map_len);
	qsort(knee, n, sizeof(*knee), cmp_double);
	if (n > PROBE_SEARCHES / 2)
		found = quantile(knee, n, 0.5);
	return found;
}

/* ==== The host: identity ================================================ */

/*
 * What the run was on (struct machine: CPU identity from CPUID or
 * /proc/cpuinfo, the hypervisor, caches from sysfs, CPUID or getconf,
 * NUMA nodes, RAM, kernel, THP), for the machine line, its columns and
 * the cache-sized verdict.
 */

/* Room for a machine file's path: the root is a test's temporary
 * directory. */
#define MACHINE_PATH	512

/* A machine file's path, under SCAN_MACHINE_ROOT when that is set, in
 * one static buffer, off the stack: each caller opens it at once, and
 * one thread reads the machine. */
static const char *machine_file(const char *path)
{
	static char buf[MACHINE_PATH];
	const char *root = getenv("SCAN_MACHINE_ROOT");

	snprintf(buf, sizeof(buf), "%s%s", root ? root : "", path);
	return buf;
}

static int faked_machine(void)
{
	return getenv("SCAN_MACHINE_ROOT") != NULL;
}

/* The first line of a machine file (after the root), without its newline. */
static int machine_line(const char *path, char *out, size_t len)
{
	off_t left;
	FILE *f = machine_open(machine_file(path), &left);
	int found = f && machine_next(f, out, len, &left) >= 0;

	machine_close(f);
	return found;
}

/*
 * /proc/cpuinfo's first value for exactly key (so "model" is not "model
 * name"), on the heap (a flags line runs to 2 KiB); NULL if none.  The
 * caller frees it.
 */
static char *cpuinfo_value(const char *key)
{
	char *line = malloc(TRACE_LINE_MAX + 1), *v = NULL;
	size_t n = strlen(key);
	off_t left;
	FILE *f = line ? machine_open(machine_file("/proc/cpuinfo"), &left) : NULL;

	while (f && !v && machine_next(f, line, TRACE_LINE_MAX + 1, &left) >= 0) {
		if (strncmp(line, key, n) || line[n + strspn(line + n, " \t")] != ':')
			continue;
		for (v = strchr(line, ':') + 1; *v == ' ' || *v == '\t'; v++)
			;
		memmove(line, v, strlen(v) + 1);
		v = line;
	}
	machine_close(f);
	if (!v)
		free(line);
	return v;
}

static int cpuinfo(const char *key, char *out, size_t len)
{
	char *v = cpuinfo_value(key);

	if (v)
		snprintf(out, len, "%s", v);
	free(v);
	return v != NULL;
}

/* A cpuinfo number (decimal, or 0x hex as arm64 writes them); -1 if none. */
static int cpuinfo_number(const char *key)
{
	char text[64], *end;
	long v;

	if (!cpuinfo(key, text, sizeof(text)))
		return -1;
	v = strtol(text, &end, 0);
	return end > text && v >= 0 && v <= INT_MAX ? (int)v : -1;
}

#ifdef SCAN_CPUID
/* One CPUID leaf, if this CPU has it (and the machine is not faked). */
static int cpuid(unsigned int leaf, unsigned int sub, unsigned int r[4])
{
	if (faked_machine() || (unsigned int)__get_cpuid_max(leaf & 0xc0000000, NULL) < leaf)
		return 0;
	__cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
	return 1;
}
#else
static int cpuid(unsigned int leaf, unsigned int sub, unsigned int r[4])
{
	(void)leaf;
	(void)sub;
	(void)r;
	return 0;
}
#endif

/* Leaf 0x40000000's 12-byte signature, by the name lscpu gives it. */
static void hypervisor_name(const char *sig, char *out, size_t len)
{
	static const char *const names[][2] = {
		{ "KVMKVMKVM", "KVM" }, { "Linux KVM Hv", "KVM" },
		{ "Microsoft Hv", "Microsoft" }, { "VMwareVMware", "VMware" },
		{ "XenVMMXenVMM", "Xen" }, { "TCGTCGTCGTCG", "TCG" },
		{ "bhyve bhyve ", "bhyve" }, { "ACRNACRNACRN", "ACRN" },
		{ " lrpepyh  vr", "Parallels" }, { "VBoxVBoxVBox", "VirtualBox" },
	};
	size_t i;
	char *c;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(sig, names[i][0])) {
			snprintf(out, len, "%s", names[i][1]);
			return;
		}
	snprintf(out, len, "%s", sig);
	for (c = out; *c; c++)
		if (*c <= ' ' || *c > '~')
			*c = '_';
}

/* Vendor, family, model, stepping and hypervisor from CPUID; 0 if none. */
static int cpuid_identity(struct machine *mc)
{
	unsigned int r[4], base;
	char sig[13];

	if (!cpuid(0, 0, r))
		return 0;
	memcpy(mc->vendor, &r[1], 4);
	memcpy(mc->vendor + 4, &r[3], 4);
	memcpy(mc->vendor + 8, &r[2], 4);
	mc->vendor[12] = 0;
	if (!cpuid(1, 0, r))
		return 1;
	/* the extended family counts only from base family 15, the
	 * extended model from 6 and 15 (Intel SDM, AMD APM) */
	base = r[0] >> 8 & 0xf;
	mc->family = base + (base == 0xf ? (r[0] >> 20 & 0xff) : 0);
	mc->model = (r[0] >> 4 & 0xf) |
		    (base == 6 || base == 0xf ? (r[0] >> 16 & 0xf) << 4 : 0);
	mc->stepping = r[0] & 0xf;
	if (!(r[2] >> 31))		/* no hypervisor says it is there */
		return 1;
	snprintf(mc->hypervisor, sizeof(mc->hypervisor), "unknown");
	if (cpuid(0x40000000, 0, r)) {
		memcpy(sig, &r[1], 4);
		memcpy(sig + 4, &r[2], 4);
		memcpy(sig + 8, &r[3], 4);
		sig[12] = 0;
		if (*sig)
			hypervisor_name(sig, mc->hypervisor, sizeof(mc->hypervisor));
	}
	return 1;
}

/* Whether word is one of the blank-separated words of list. */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *w;

	for (w = strstr(list, word); w; w = strstr(w + 1, word))
		if ((w == list || w[-1] == ' ' || w[-1] == '\t') &&
		    (w[n] == 0 || w[n] == ' ' || w[n] == '\t'))
			return 1;
	return 0;
}

/* The same from /proc/cpuinfo: x86's names, or arm64's MIDR fields. */
static void cpuinfo_identity(struct machine *mc)
{
	char *flags;

	if (cpuinfo("vendor_id", mc->vendor, sizeof(mc->vendor))) {
		mc->family = cpuinfo_number("cpu family");
		mc->model = cpuinfo_number("model");
		mc->stepping = cpuinfo_number("stepping");
	} else if (cpuinfo("CPU implementer", mc->vendor, sizeof(mc->vendor))) {
		mc->family = cpuinfo_number("CPU variant");
		mc->model = cpuinfo_number("CPU part");
		mc->stepping = cpuinfo_number("CPU revision");
	}
	flags = cpuinfo_value("flags");
	if (!*mc->hypervisor && flags && has_word(flags, "hypervisor"))
		snprintf(mc->hypervisor, sizeof(mc->hypervisor), "unknown");
	free(flags);
}

static void read_identity(struct machine *mc)
{
	char text[64];

	snprintf(mc->vendor, sizeof(mc->vendor), "unknown");
	mc->family = mc->model = mc->stepping = -1;
	*mc->hypervisor = 0;
	if (!cpuid_identity(mc))
		cpuinfo_identity(mc);
	/* Xen says its name here, where CPUID may say only that it is there */
	if ((!*mc->hypervisor || !strcmp(mc->hypervisor, "unknown")) &&
	    machine_line("/sys/hypervisor/type", text, sizeof(text)) && *text)
		snprintf(mc->hypervisor, sizeof(mc->hypervisor), "%.31s", text);
	if (!*mc->hypervisor)
		snprintf(mc->hypervisor, sizeof(mc->hypervisor), "none");
}

/* L2 and the highest level sysfs lists for CPU 0 ("32768K"). */
static void sysfs_caches(double *l2, double *llc)
{
	char path[96], text[32];
	int i, level, top = 0;
	double size;

	for (i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (!machine_line(path, text, sizeof(text)))
			break;
		level = atoi(text);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		if (machine_line(path, text, sizeof(text)) && !strcmp(text, "Instruction"))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (!machine_line(path, text, sizeof(text)) || (size = atof(text)) <= 0)
			continue;
		size *= strchr(text, 'M') ? 1 << 20 : strchr(text, 'K') ? 1 << 10 : 1;
		if (level == 2)
			*l2 = size;
		if (level > top) {
			*llc = size;
			top = level;
		}
	}
}

/* The same from CPUID's cache leaves: 4 on Intel, 0x8000001D on AMD and
 * Hygon where they have it (topology extensions). */
static void cpuid_caches(const struct machine *mc, double *l2, double *llc)
{
	unsigned int leaf = 4, r[4], i, level, top = 0;
	double size;

	if (!strcmp(mc->vendor, "AuthenticAMD") || !strcmp(mc->vendor, "HygonGenuine")) {
		if (!cpuid(0x80000001, 0, r) || !(r[2] >> 22 & 1))
			return;
		leaf = 0x8000001d;
	} else if (strcmp(mc->vendor, "GenuineIntel")) {
		return;
	}
	for (i = 0; i < 16 && cpuid(leaf, i, r) && (r[0] & 0x1f); i++) {
		if ((r[0] & 0x1f) == 2)		/* instructions */
			continue;
		level = r[0] >> 5 & 7;
		/* ways * partitions * line size * sets */
		size = ((r[1] >> 22) + 1.0) * ((r[1] >> 12 & 0x3ff) + 1) *
		       ((r[1] & 0xfff) + 1) * (r[2] + 1.0);
		if (level == 2)
			*l2 = size;
		if (level > top) {
			*llc = size;
			top = level;
		}
	}
}

static void getconf_caches(double *l2, double *llc)
{
	if (faked_machine())
		return;
#ifdef _SC_LEVEL2_CACHE_SIZE
	if (sysconf(_SC_LEVEL2_CACHE_SIZE) > 0)
		*l2 = *llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
#ifdef _SC_LEVEL3_CACHE_SIZE
	if (sysconf(_SC_LEVEL3_CACHE_SIZE) > 0)
		*llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
}

/* SCAN_LLC_PROBE=off: the claim stands unmeasured.  The test suite sets
 * it, whose thousand tiny runs would each pay the chase's 0.15-0.4 s. */
static int llc_probe_off(void)
{
	const char *v = getenv("SCAN_LLC_PROBE");

	return v && strcmp(v, "off") == 0;
}

/* L2 and LLC, each from the first source that has it; where sysfs has
 * no LLC, a chase's that finds it under half the claim. */
static void read_caches(struct machine *mc)
{
	static const char *const from[] = { "sysfs", "cpuid", "getconf" };
	double l2[3] = { 0 }, llc[3] = { 0 }, measured;
	int i;

	sysfs_caches(&l2[0], &llc[0]);
	cpuid_caches(mc, &l2[1], &llc[1]);
	getconf_caches(&l2[2], &llc[2]);
	mc->l2 = mc->llc = 0;
	mc->l2_from = mc->llc_from = "none";
	for (i = 2; i >= 0; i--) {
		if (l2[i] > 0) {
			mc->l2 = l2[i];
			mc->l2_from = from[i];
		}
		if (llc[i] > 0) {
			mc->llc = llc[i];
			mc->llc_from = from[i];
		}
	}
	mc->llc_claim = mc->llc;
	mc->claim_from = mc->llc_from;
	if (llc[0] > 0 || llc_probe_off())
		return;
	measured = llc_probe(mc->l2, mc->llc);
	if (measured > 0 && (mc->llc <= 0 || measured < mc->llc / 2)) {
		mc->llc = measured;
		mc->llc_from = "measured";
	}
}

/* Nodes in sysfs's online list ("0-3,8"); 1 where it does not say. */
static int numa_nodes(void)
{
	char text[256], *s = text, *end;
	long first, last;
	int n = 0;

	if (!machine_line("/sys/devices/system/node/online", text, sizeof(text)))
		return 1;
	for (;;) {
		first = last = strtol(s, &end, 10);
		if (end == s)
			break;
		if (*end == '-')
			last = strtol(end + 1, &end, 10);
		if (last >= first)
			n += last - first + 1;
		if (*end != ',')
			break;
		s = end + 1;
	}
	return n > 0 ? n : 1;
}

/* 32-bit FNV-1a: short, stable, and nothing a reader must trust. */
static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The static fields hashed, RAM to the nearest GiB (the kernel's share
 * moves by megabytes from boot to boot); never the measured limits, nor
 * a measured LLC (the claim instead). */
static void make_host_id(struct machine *mc)
{
	char text[512], f[12], m[12], s[12];

	snprintf(text, sizeof(text), "%s|%s|%s|%s|%s|%s|%.0f|%.0f|%d|%.0f",
		 mc->vendor, known(mc->family, f, sizeof(f)),
		 known(mc->model, m, sizeof(m)), known(mc->stepping, s, sizeof(s)),
		 mc->cpu, mc->hypervisor, mc->l2, mc->llc_claim, mc->numa_nodes,
		 mc->memory / (1 << 30));
	snprintf(mc->host_id, sizeof(mc->host_id), "%08x", (unsigned int)fnv1a(text));
}

/* Everything but the limits, which the run measures (try_bound()). */
static void read_machine(struct machine *mc)
{
	static struct utsname u;	/* 390 bytes: off the stack */
	char mem[128], *l, *r;

	if (!cpuinfo("model name", mc->cpu, sizeof(mc->cpu)) &&
	    !cpuinfo("Hardware", mc->cpu, sizeof(mc->cpu)))
		snprintf(mc->cpu, sizeof(mc->cpu), "unknown");
	read_identity(mc);
	read_caches(mc);
	mc->cpus = online_cpus();
	mc->numa_nodes = numa_nodes();
	mc->memory = read_key(machine_file("/proc/meminfo"), "MemTotal",
			      mem, sizeof(mem)) ? atof(mem) * 1024 : 0;
	if (uname(&u) == 0)
		snprintf(mc->kernel, sizeof(mc->kernel), "%.60s %.80s %.40s",
			 u.sysname, u.release, u.machine);
	else
		snprintf(mc->kernel, sizeof(mc->kernel), "unknown");
	snprintf(mc->thp, sizeof(mc->thp), "unknown");
	if (machine_line("/sys/kernel/mm/transparent_hugepage/enabled", mem, sizeof(mem)) &&
	    (l = strchr(mem, '[')) && (r = strchr(l, ']')))
		snprintf(mc->thp, sizeof(mc->thp), "%.*s", (int)(r - l - 1), l + 1);
	mc->stream_ns = mc->chase_ns = 0;
	make_host_id(mc);
}

/* The last-level cache the verdicts use, and where its size came from
 * (for -c auto, before the run). */
static double host_llc(const char **from)
{
	static struct machine mc;	/* off the stack */

	read_machine(&mc);
	*from = mc.llc_from;
	return mc.llc;
}

/* ==== Main ============================================================== */

/*
 * Ctrl-C, Ctrl-\, a hangup or a kill at any time, sizing a replay file
 * included: say so and leave at once with the shell's status for the
 * signal, and no core.  Nothing is left behind: every mapping goes with
 * the process, and scan writes no files.  On Linux it leaves by the
 * system call itself: the sanitizers wrap _exit() in their leak check,
 * which is not safe in a handler (a SIGINT inside malloc() hung the
 * ASan build of the suite, waiting on the allocator's lock).
 */
static void on_signal(int sig)
{
	static const char msg[] = "scan: interrupted\n";
	ssize_t ignored = write(STDERR_FILENO, msg, sizeof(msg) - 1);

	(void)ignored;
#ifdef SYS_exit_group
	syscall(SYS_exit_group, 128 + sig);
#endif
	_exit(128 + sig);
}

/* First thing in main; a parent may have blocked them, so unblock.  A
 * write past ulimit -f is then a write that fails (EFBIG), said as
 * such by flush_results(), not a silent death by SIGXFSZ.  The handler
 * runs on a stack of its own: a signal's frame holds the registers'
 * state (3 KiB with AVX-512, 11 with AMX), and on the 16 KiB stack,
 * below the report's 4 KiB, it would overflow what the kernel's random
 * offset leaves (see the stack rule in main). */
static void catch_signals(void)
{
	static char alt_stack[64 << 10];	/* off the stack, as the rule wants */
	stack_t ss = { .ss_sp = alt_stack, .ss_size = sizeof(alt_stack) };
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGXFSZ, &sa, NULL);
	if (!sigaltstack(&ss, NULL))
		sa.sa_flags = SA_ONSTACK;
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);	/* the terminal went away */
	sigaction(SIGQUIT, &sa, NULL);	/* Ctrl-\: no core dump wanted */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/* -c auto's size and why, before the size check and a run that may be
 * long. */
static void print_size_auto(const struct params *p)
{
	char b[32];

	fprintf(p->out.text, "-c auto is -c %g: a %s memmap, %s\n",
		p->layout.nr_pages / PAGES_PER_COUNT,
		human(region_bytes(p, R_MEMMAP, 0) + region_bytes(p, R_FOLIOS, 0), b, 32),
		p->size_why);
	flush_results(0);
}

static void read_params(struct params *p, int argc, char **argv)
{
	/* Big enough for every line a run prints: see flush_results().
	 * Static, since stdio uses it until the very end. */
	static char results_buf[RESULTS_BUF];
	int cpu[MAX_THREADS];

	setvbuf(stdout, results_buf, _IOFBF, sizeof(results_buf));
	/* A buffered stderr, flushed at each newline: unbuffered, glibc
	 * formats each message in 8 KiB of stack (see ulimit -s). */
	setvbuf(stderr, NULL, _IOLBF, BUFSIZ);
	parse_params(p, argc, argv);
	plan_cpus(p, cpu);	/* refuse CPUs we may not use, before setup */
	p->out.text = p->out.format == FORMAT_TEXT ? stdout : stderr;
	if (p->size_auto)
		print_size_auto(p);
}

/* Map, fault in, lay out, order and link the model, and say so. */
static void set_up(struct lru_model *m, const struct params *p)
{
	double start = now();

	map_model(m, p);
	m->start_s = start;
	if (p->out.verbose >= 3)
		fprintf(p->out.text, "Allocated memmap for %lu pages in %fs\n", m->nr_pages, now() - start);
	if (p->out.verbose >= 2)
		fprintf(p->out.text, "random seed %lu\n", p->layout.seed);
	build_model(m, p, p->layout.seed, 1);
	if (p->out.verbose >= 3)
		fprintf(p->out.text, "Created shuffled list in %fs\n", now() - start);
	if (p->out.format == FORMAT_KTAP)
		print_ktap_plan(p);
	if (p->out.verbose < 1)
		return;
	if (p->run.kernel_like)
		fprintf(p->out.text, "--kernel-like set:%s\n", *p->preset ? p->preset : " nothing (every knob given)");
	print_memmap(m, p);
	print_model(m, p);
	print_pagetable_model(m, p);
	flush_results(0);	/* the setup lines now, before a long run */
}

/* Every line the run prints after its walks, and its warnings. */
static void report(const struct lru_model *m, const struct params *p,
		   const struct walk_stats *stats,
		   const struct walk_result *last, int nr_rounds)
{
	const struct output *out = &p->out;
	static struct reports r;	/* 2 KiB: off the stack */
	static struct machine mc;	/* half a KiB, likewise */
	int i, s;

	build_reports(&r, m, p, stats, nr_rounds);
	read_machine(&mc);
	mc.stream_ns = m->bound_ns[BOUND_STREAM] * 64 / m->desc_size;
	mc.chase_ns = m->bound_ns[BOUND_CHASE];
	if (out->verbose >= 1) {
		print_machine(out, &mc);
		print_plan(out, &p->run, &r);
		for (i = 0; i < r.nr; i++) {
			s = timing_order(&p->run, i);
			print_walk_line(out, &r.walk[s], last[s]);
		}
	}
	if (out->verbose >= 2) {
		print_spread(out, &p->run, m, &r);
		for (s = 0; s < r.nr; s++)
			print_walk_counts(out, m, &r.walk[s]);
		print_uncounted(out, &r);
	}
	if (out->verbose >= 1)
		print_break_even(out, m, &r);
	if (out->verbose >= 1)
		print_pagetable_even(out, m, &r);
	check_warnings(m, p, &mc, &r);
	if (out->format == FORMAT_TEXT || out->verbose)
		print_ratios(out, &r);
	if (out->format != FORMAT_TEXT)
		print_results(m, p, &mc, &r);
	if (!out->quiet && (out->format == FORMAT_TEXT || out->verbose))
		print_model_note(p);	/* with the text lines, wherever they go */
	if (!out->quiet)
		print_warnings();
	print_pagetable_unmapped(m, p);
}

int main(int argc, char **argv)
{
	/*
	 * The stack rule: scan runs on a stack of 16 KiB (ulimit -s 16;
	 * tests/t-edges.sh holds it there), so what is larger than a few
	 * hundred bytes is static, as here, or on the heap, threads get
	 * THREAD_STACK and signals their own.  Of the 16 KiB the kernel
	 * takes the environment's strings and, at random, up to 8 KiB more
	 * (x86-64's arch_align_stack()); the dynamic loader, mapping libc
	 * before main, needs some 6 KiB of the rest, scan below main 4.
	 * So with a few KiB of environment any program, scan or "true",
	 * may die in the loader now and then: the crashes make test met.
	 */
	static struct walk_stats stats[NR_WALKS_MAX];
	static struct walk_result last[NR_WALKS_MAX];
	static struct lru_model m;
	static struct params p;
	static struct team team;
	int nr_rounds;

	catch_signals();
	read_params(&p, argc, argv);
	check_fits(&p);			/* exit 1 before allocating */
	set_up(&m, &p);
	start_team(&team, &m, &p);	/* setup used every CPU; now pin */
	nr_rounds = measure(&m, &team, &p, stats, last);
	stop_team(&team);
	report(&m, &p, stats, last, nr_rounds);
	free_model(&m);
	flush_results(1);
	return p.out.strict && warned_unexpected(&p.out) ? EXIT_WARNED : 0;
}
