#!/bin/sh
#/ kernel.sh - time the kernel's own pfn scanner and LRU scanner on this
#/ machine, and set scan's model of the same memory beside them.
#/
#/ usage: sudo scripts/kernel.sh [-h] [--check] [-m SIZE] [-d DIR] [-o FILE.csv]
#/                               [-k DIR] [--scanner=offline|compaction|damon]
#/                               [--young=F]
#/
#/ As root on a live kernel, in a memory cgroup and a trace instance of
#/ its own (scan-kernel-PID), it:
#/  1. writes a working set of SIZE of page cache in order-0 folios (a
#/     file written 4 KiB at a time, synced) in a scratch directory
#/     under DIR, tracing the order its folios enter the LRU, and checks
#/     their sizes in /proc/kpageflags;
#/  2. squeezes the cgroup until half the working set is reclaimed (v2:
#/     memory.reclaim; v1: a sparse file read inside the cgroup, over its
#/     limit), timing reclaim's isolation: ns per folio of the LRU
#/     scanner, isolate_lru_folios() in mm/vmscan.c;
#/  3. times a kernel pfn scanner over the working set's pfns, by
#/     default memory-block offline where the kernel has memory hotplug:
#/     it takes the memory blocks (128 MiB on x86-64) that hold the most
#/     of the working set offline one at a time and puts each back
#/     online (echo offline, then online, to memoryN/state: this MOVES
#/     EVERY PAGE IN THE BLOCK, of any process, elsewhere), timing
#/     offline_pages()'s walk and isolation of the block's LRU folios,
#/     migration apart: ns per pfn and per LRU folio, in
#/     mm/memory_hotplug.c; a block that refuses (EBUSY) is skipped and
#/     counted, and every block it took offline is online again however
#/     it ends.  --scanner=compaction instead leaves SIZE of room and
#/     compacts the machine's memory (echo 1 >/proc/sys/vm/compact_memory,
#/     which also moves pages of every process; up to 8 passes),
#/     timing isolate_migratepages_block() in mm/compaction.c over the
#/     ranges where it isolated folios; --scanner=damon instead makes a
#/     kdamond of its own whose DAMOS pageout scheme walks what reclaim
#/     left, region by region, and reclaims the cgroup's folios, timing
#/     damon_pa_pageout()'s walk and isolation in mm/damon/paddr.c;
#/  4. replays the same memory in scan (--memmap-from, --access=isolate):
#/     Physical ns/page over the pfns the kernel's pfn scanner timed,
#/     ListLRU ns/folio over the working set's folios in their traced
#/     order;
#/  5. where the kernel has CONFIG_LRU_GEN with MGLRU and its page-table
#/     walk on, and debugfs: times MGLRU's aging walk 5 times, each in a
#/     fresh memory cgroup (scan-kernel-PID-aging) holding anonymous
#/     memory in 4 KiB pages (scan --hold; SIZE's power of two of pages,
#/     at most 1G) of which --young's share is read before "+ MEMCG NODE
#/     GEN 1 1" is written to /sys/kernel/debug/lru_gen (the kernel's
#/     clock inside the write: its sys_enter_write to sys_exit_write; dd's
#/     around it where the kernel has no syscall events, less dd's own):
#/     ns per PTE read and per young PTE from lru_gen_full's
#/     counts, beside scan --walks=list,pagetable at the same PTEs and
#/     young share.  Elsewhere one line says why not (CONFIG_LRU_GEN).
#/ It prints each figure as a median with its interquartile range and
#/ event count, "Kernel: physical scan is X faster than ListLRU" (X = the
#/ LRU scanner's ns per folio times the LRU folios a pfn of the timed
#/ ranges, over the pfn scanner's ns per pfn), the model's, and the
#/ quotients kernel/model.  Only the cgroup is reclaimed from: SIZE
#/ must stay under a quarter of MemAvailable.  Everything it made is
#/ removed however it ends; it changes no global tracing setting.
#/
#/   -m SIZE      the working set, bytes with K, M or G (4 KiB pages;
#/                default an eighth of MemAvailable, at most 1G, in 64M
#/                steps; at least 64M); 1G gives about 3,000-5,000 events a
#/                scanner and takes about a minute (under load).  Where
#/                one fill gives the LRU scanner under 400 batches (64M:
#/                256 at most), it writes the working set afresh and
#/                reclaims half again, up to 16 fills.  Offline wants 3
#/                blocks holding what reclaim leaves: 512M gave them on
#/                a 2-vCPU host (256M gave 1).  A size too small says
#/                which -m will do, from how densely its half lay
#/   -d DIR       where the scratch directory goes (default /var/tmp): a
#/                disk file system, not tmpfs, with room for twice SIZE
#/   -o FILE.csv  the figures as CSV too, a row per scanner and model walk
#/                (and the aging walk's two, kernel and model, where it runs)
#/   -k DIR       keep the traces and snapshots in DIR (made new)
#/   --scanner=S  the kernel's pfn scanner: offline (memory-block offline,
#/                the default where memory blocks can go offline),
#/                compaction (the default elsewhere), damon (DAMON's
#/                paddr walk by a kdamond of its own, a DAMOS pageout
#/                scheme that reclaims the cgroup's folios; refused where
#/                a kdamond it did not make runs or is set up)
#/   --young=F    step 5's share of pages read before each walk (0.1)
#/   --check      check that it can work here with these options, say
#/                what it would do, and stop: nothing made but a scratch
#/                directory in TMPDIR, removed; tracefs not mounted
#/   -h           this help
#/
#/ SCAN_TRACEFS names tracefs (default /sys/kernel/tracing, mounted if
#/ it is not, and unmounted after).  Exit status: 0 done; 2 a usage error; 1 it cannot work
#/ here (not root, no tracefs, a tracepoint or kernel feature missing,
#/ no memory cgroup, kernel lockdown: one line, naming the kernel
#/ configuration), or too few timed events for a figure (400 batches
#/ of the LRU scanner, 3 blocks of offline or regions of DAMON's, 400
#/ ranges of compaction:
#/ what was measured is printed first, then why there is no kernel
#/ ratio), or a memory block it could not put back as it was (named); 128+N ended by signal N, after cleaning
#/ up.  --check: 0 when it could run, else as above.
#
# The harness: this file reads the options, has what the machine allows
# checked, asks each pfn scanner whether it can run here, runs the LRU
# scanner, the chosen pfn scanner and the aging walk, and prints the
# figures.  The rest is in kernel/ beside it (installed: DATADIR/scan/
# kernel), a file a subject, each opening with what it times, from
# which event to which, and what it leaves as it found:
#   here.sh      can it work here? (paths, root, tracefs, tracepoints,
#                a memory cgroup, tools, the size against MemAvailable)
#   state.sh     what it makes (cgroup, trace instance, scratch, memory
#                blocks offline or in ZONE_MOVABLE, kdamond) and undo
#   lru.sh       the working set and the LRU scanner (reclaim)
#   offline.sh, compaction.sh, damon.sh: the pfn scanners, one a file
#   aging.sh     MGLRU's aging walk
#   figures.sh   kernel.awk's figures, scan's model, the report and CSV
# and the trace's parsers beside it: kernel.awk (the two traces, the LRU
# scanner, the figures) with kernel-NAME.awk for each pfn scanner NAME.
#
# To add a pfn scanner NAME (then: -h, --check --scanner=NAME, make test
# and make test-slow, whose t-manpages holds the man page to -h):
#  1. kernel/NAME.sh, opening as offline.sh does (the shellcheck line,
#     what it times from which event to which, "Leaves as it found:").
#     No local variables in sh: prefix its own NAME_ or two letters (pd_
#     in damon.sh).  It may read $cpu, $block (pfns a pageblock), $size,
#     $pages, $cg, $ino, $inst, $tmp, $work, and use state.sh's put,
#     events, snapshot, working_set, in_cgroup, why, tmp_fail and fail.
#     kernel.sh calls, in this order:
#       NAME_why      every scanner, --check too: $why, why it cannot
#                     run here, empty where it can; only reads
#       NAME_events   its tracepoints (SYSTEM/EVENT), each checked in
#                     tracefs: $pfn_events (trace-marker lines need none)
#       NAME_check    what else it needs, once chosen (fail, naming
#                     the CONFIG_ or the tool); blocks_size sets
#                     $block_pfns where it uses memory blocks
#       NAME_plan     its words after "reclaims half of it, then"
#       NAME_note     a line after the plan, for every scanner, or none
#       NAME_prepare  before the working set is written: where it goes
#       NAME_run      the timed walk over what reclaim left: first
#                     "snapshot after" (NAME_replay's memmap), and
#                     "working_set after "$ino"" for $lo, $hi and
#                     $tmp/after/blocks; "events 1 $pfn_events", its work
#                     on $cpu alone (taskset -c "$cpu" or in_cgroup: the
#                     instance's buffer is on that CPU only), "events 0".
#                     sched/sched_switch is on throughout (lru_fill);
#                     kernel.sh then takes the trace (take pfn).  Sets
#                     $tried and $refused where it counts them; writes
#                     "FIRST FOLIOS" lines to $tmp/block-folios where
#                     kernel.awk needs each range's LRU folios; records
#                     whatever it changes for undo (state.sh)
#     and figures.sh then calls:
#       NAME_kind     $min_pfn (the fewest timed events for a figure:
#                     $min_events, or $min_blocks for blocks or regions)
#                     and $kind: took (a figure from the ranges where it
#                     isolated folios) or all (every range: no ratio)
#       NAME_replay FIRST END  on stdout, 8 bytes of kpageflags a pfn
#                     of [FIRST, END): pageblocks_of "$@" (the snapshot
#                     "after"), or copies of its own as offline's
#       NAME_none     fail: no range of $kind to replay, and why
#       NAME_no_ratio fail: why no ratio, only where NAME_kind says all
#  2. Here: NAME in $scanners, and in $scanners_auto where it may be
#     the default (the first there whose $why is empty runs); its
#     ". $parts/NAME.sh" below, with its shellcheck source= line; in the
#     help above, --scanner in the usage lines (80 columns; the man
#     page's SYNOPSIS in the same order), its --scanner entry, a
#     sentence in step 3 and its fewest events under exit status; a
#     CONFIG_ for its tracepoints' system (the case in kernel/here.sh's
#     here_kernel).  make install takes every kernel/*.sh.
#  3. kernel-NAME.awk (read after kernel.awk: $kernel_awk names one for
#     each of $scanners; make install takes every *.awk), opening as
#     kernel-offline.awk does: a flag from ENVIRON scanner in its BEGIN
#     (block_folios read for it too where it wrote them); its functions,
#     prefixed as its sh file's, per event: pfn_ns, pfns, pfn_taken and
#     covered("took") where it took folios, all_ns, all_pfns, all_time
#     and covered("all") for every timed one, pfn_left otherwise, "each"
#     where each is replayed alone.  kernel.awk: in the main rule its
#     branch before the generic tracing_mark_write and sched_switch
#     lines (offline's), its flag in compaction's "!offline && !damon";
#     its END lines; its keys in the header's Output.
#     kernel-report.awk: a 'kind == "took" && scanner == NAME' branch
#     (pfn_words, share, pfn_tail from ENVIRON tried and refused,
#     pfn_unit, and pfn_folio where it times folios: the CSV's
#     ns_per_folio), its scanner_words, the header's list.
#     explain-kernel.awk: its km_scanner_words.  Its CSV rows are then
#     the others', NAME in the scanner column.
#  4. Tests: tests/kernel-NAME.txt and .raw, line k of one the twin of
#     line k of the other (raw: an event "PID CPU NS type: ID", a marker
#     "PID CPU NS # ADDR TEXT"), and any file kernel-NAME.awk reads (as
#     kernel-offline.folios).  Record it (-k; or the same writes in a
#     scan-* trace instance of your own): a trace written by hand holds
#     only what its writer expected.  Its figures by hand in a comment;
#     in tests/t-kernel.sh kernel.awk under each awk (with $kawk, which
#     names kernel-NAME.awk too), then report_from NAME VAR=VALUE...;
#     its refusals (root only) through an override of what NAME_why
#     reads (as SCAN_DAMON_SYSFS).  scan-kernel.1: the SYNOPSIS,
#     --scanner, the CSV's scanner column; docs/model.md's list of the
#     kernel's pfn scanners.
set -eu
case $0 in */*) env=${0%/*}/scan-env.sh ;; *) env=./scan-env.sh ;; esac	# traps, $scan, run_awk, usage, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"
parts=$here/kernel
[ -r "$parts/state.sh" ] || parts=$(dirname "$0")/../share/scan/kernel
[ -r "$parts/state.sh" ] || fail "cannot read its parts (state.sh and the others) in $here/kernel or $parts"
# shellcheck source=scripts/kernel/state.sh
. "$parts/state.sh"
# shellcheck source=scripts/kernel/here.sh
. "$parts/here.sh"
# shellcheck source=scripts/kernel/lru.sh
. "$parts/lru.sh"
# shellcheck source=scripts/kernel/offline.sh
. "$parts/offline.sh"
# shellcheck source=scripts/kernel/compaction.sh
. "$parts/compaction.sh"
# shellcheck source=scripts/kernel/damon.sh
. "$parts/damon.sh"
# shellcheck source=scripts/kernel/aging.sh
. "$parts/aging.sh"
# shellcheck source=scripts/kernel/figures.sh
. "$parts/figures.sh"
at_exit=undo
interrupt_note="removed what it made"

scanners_auto="offline compaction"	# the default: the first that can run here
scanners="$scanners_auto damon"		# --scanner=NAME: any of these
kernel_awk="stats kernel"		# run_awk's: kernel.awk, then kernel-NAME.awk
for s in $scanners; do kernel_awk="$kernel_awk kernel-$s"; done
# The LRU scanner's batches wanted: over n of them the median lies, with
# 95% confidence, between the batches ranked n/2 -+ 0.98 sqrt(n), so
# 400 hold it between the 45th and 55th percentiles, a fifth of the IQR
# printed beside it (1,000 would hold it within the 47th-53rd).
min_events=400
max_fills=16		# the LRU scanner: fills of a small working set, at most
min_blocks=3		# offline: a median and a spread; only clean blocks go offline
max_blocks=16		# offline: the blocks tried, most of the working set first
mib=1048576

# ---- options ----------------------------------------------------------

# size_of OPTION VALUE: $size, VALUE in bytes (K, M, G: binary), whole
# 4 KiB pages, at least 64 MiB and at most 1 TiB.
size_of() {
	case $2 in
	[1-9]*[Kk]) n=${2%?} u=1024 ;;
	[1-9]*[Mm]) n=${2%?} u=$mib ;;
	[1-9]*[Gg]) n=${2%?} u=$((1024 * mib)) ;;
	[1-9]*) n=$2 u=1 ;;
	*) n=x ;;
	esac
	case $n in
	'' | *[!0-9]* | ?????????????*) usage_error "$1 '$2': give bytes with K, M or G (64M to 1024G)" ;;
	esac
	# compared before it is multiplied: 17179869185G would wrap to 1G
	if [ "$n" -gt $((1024 * 1024 * mib / u)) ] || [ $((n * u)) -lt $((64 * mib)) ]; then
		usage_error "$1 '$2': give 64M to 1024G"
	fi
	size=$((n * u))
	[ $((size % 4096)) -eq 0 ] || usage_error "$1 '$2': not whole 4 KiB pages"
}

# "offline, compaction or damon"
scanner_words=""
for s in $scanners; do scanner_words="${scanner_words:+$scanner_words, }$s"; done
scanner_words="${scanner_words%, *} or ${scanner_words##*, }"
size="" base=/var/tmp csv="" keep="" check="" scanner="" young_share=0.1
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--check) check=1 ;;
	-m) [ $# -ge 2 ] || usage_error "-m needs a SIZE"; size_of -m "$2"; shift ;;
	-d) [ -n "${2:-}" ] || usage_error "-d needs a directory"; base=$2; shift ;;
	-o) [ -n "${2:-}" ] || usage_error "-o needs a file"; csv=$2; shift ;;
	-k) [ -n "${2:-}" ] || usage_error "-k needs a directory"; keep=$2; shift ;;
	--scanner=* | --scanner) scanner=${1#--scanner}; scanner=${scanner#=}
		case " $scanners " in *" $scanner "*) ;; *) usage_error "$1: give --scanner=$scanner_words" ;; esac ;;
	--young=*) young_share=${1#--young=}
		if ! decimal "$young_share" || ! awk -v f="$young_share" 'BEGIN { exit !(f > 0 && f <= 1) }'; then
			usage_error "$1: give the share of the aging walk's pages to touch, above 0 and at most 1"
		fi ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
	shift
done
# a name that starts with a dash is a path, not a tool's option
case $base in -*) base=./$base ;; esac
case $keep in -*) keep=./$keep ;; esac

# ---- can it work here? -------------------------------------------------

here_access		# the options' paths, root, lockdown, tracefs (here.sh)

# The pfn scanner: the one asked for, else the first of $scanners_auto
# that can run here (offline where a memory block can go offline, else
# compaction).  Each scanner only reads the machine here.
auto=""
for s in $scanners; do
	"${s}_why"
	case " $scanners_auto " in *" $s "*) [ -n "$auto$why" ] || auto=$s ;; esac
	[ "$s" != "$scanner" ] || [ -z "$why" ] || fail "--scanner=$s: $why"
done
scanner=${scanner:-$auto}
pfn_events=$("${scanner}_events")
here_kernel		# its tracepoints, a memory cgroup, the tools, $size, $cpu
block_pfns=0		# a memory block's, where the scanner uses them (NAME_check)
"${scanner}_check"
scratch

name=scan-kernel-$$
say_line "$me: a $((size / mib)) MiB working set ($said) of order-0 page cache, in a memory cgroup v$cgv ($cgroot/$name) and a trace instance ($tracing/instances/$name); reclaims half of it, then $("${scanner}_plan"); on CPU $cpu, $lru_words"
for s in $scanners; do "${s}_note"; done
aging_plan
if [ -n "$check" ]; then
	[ -z "$unmounted" ] ||
		say_line "$me: tracefs is not mounted at $tracing: a run mounts it (its tracepoints are not checked here)"
	say_line "$me: --check: it can run here, its scratch files under $base; nothing made, nothing measured"
	exit 0
fi

# ---- the run ---------------------------------------------------------------

load_before=$(cut -d' ' -f1 /proc/loadavg)
state_make		# 1. the working set: its cgroup and trace instance,
"${scanner}_prepare"	#    where the pfn scanner needs it,
lru_fill		#    written, its LRU order traced
lru_reclaim		# 2. the LRU scanner: half of it reclaimed
"${scanner}_run"	# 3. the pfn scanner over what is left
events 0 sched/sched_switch
take pfn
lru_more		# 2 again, where the working set is small
load_after=$(cut -d' ' -f1 /proc/loadavg)
overrun=$(sed -n 's/^overrun: *//p' "$inst/per_cpu/cpu$cpu/stats")
figures_read		# the kernel's figures,
figures_model		# 4. scan's model of the same memory,
figures_report		#    the report; 5. the aging walk
[ "$kind" = took ] && exit 0
"${scanner}_no_ratio"
