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
#/     memory (SIZE's power of two of pages, at most 1G) of which
#/     --young's share is read before "+ MEMCG NODE GEN 1 1" is written
#/     to /sys/kernel/debug/lru_gen (dd's clock around the write, less
#/     dd's own): ns per PTE read and per young PTE from lru_gen_full's
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
#/                scanner and takes about a minute (under load)
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
#/ configuration), or too few timed events for a figure (1,000 batches
#/ of the LRU scanner, 3 blocks of offline or regions of DAMON's, 1,000
#/ ranges of compaction:
#/ what was measured is printed first, then why there is no kernel
#/ ratio), or a memory block it could not put back as it was (named); 128+N ended by signal N, after cleaning
#/ up.  --check: 0 when it could run, else as above.
set -eu
case $0 in */*) env=${0%/*}/scan-env.sh ;; *) env=./scan-env.sh ;; esac	# traps, $scan, run_awk, usage, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

# What it makes, undone however it ends: scan-env.sh's traps, set as it
# was sourced, run undo first (at_exit), then remove the scratch directory.
# $offlined: a block it took offline, or was taking when it stopped;
# $movable: "BLOCK:ZONE" for each block it moved from its kernel zone
# ZONE to ZONE_MOVABLE (make_movable), put back as it ends.
# $damon: DAMON's kdamonds directory once it wrote nr_kdamonds there (its
# own kdamond 0, the only one), turned off and removed as it ends.
cg="" inst="" work="" child="" offlined="" movable="" mounted="" damon=""
memory=${SCAN_MEMORY_SYSFS:-/sys/devices/system/memory}
damon_sysfs=${SCAN_DAMON_SYSFS:-/sys/kernel/mm/damon/admin}
# shellcheck disable=SC2317 # run by scan-env.sh's cleanup
undo() {
	if [ -n "$child" ]; then
		kill "$child" 2>/dev/null || true
		wait "$child" 2>/dev/null || true
		child=""
	fi
	stuck=""
	damon_stuck=""
	damon_off || damon_stuck=$damon
	for undo_block in $offlined; do
		block_online "$undo_block" || stuck="$stuck memory$undo_block"
	done
	offlined=""
	if [ -n "$cg" ]; then
		# every process in it is one of ours: also one that a signal
		# caught between its start and child=$! (in_cgroup)
		undo_tries=0
		while ! rmdir "$cg" 2>/dev/null && [ "$undo_tries" -lt 50 ]; do
			while read -r undo_pid; do
				kill "$undo_pid" 2>/dev/null || true
			done 2>/dev/null <"$cg/cgroup.procs" || true
			sleep 0.1
			undo_tries=$((undo_tries + 1))
		done
		cg=""
	fi
	if [ -n "$inst" ]; then
		echo 0 2>/dev/null >"$inst/tracing_on" || true
		echo 2>/dev/null >"$inst/set_event" || true
		rmdir "$inst" 2>/dev/null || true
		inst=""
	fi
	# tracefs unmounted again where it mounted it (not if another holds it)
	[ -z "$mounted" ] || umount "$mounted" 2>/dev/null || true
	mounted=""
	[ -z "$work" ] || rm -rf "$work"
	work=""
	# the movable blocks last, once the working set's pages are freed
	for undo_block in $movable; do
		block_back "${undo_block%:*}" || stuck="$stuck memory${undo_block%:*}"
	done
	movable=""
	if [ -n "$stuck$damon_stuck" ]; then
		[ -z "$tmp" ] || rm -rf "$tmp"
		[ -z "$stuck" ] ||
			say_line "$me: memory block${stuck} not back as it was (online, in its zone): see $memory/memoryN/state and valid_zones"
		[ -z "$damon_stuck" ] ||
			say_line "$me: its own kdamond is still there: see $damon_stuck/0/state and $damon_stuck/nr_kdamonds"
		exit 1
	fi
}

# damon_off: its own kdamond off and removed (nr_kdamonds 0); false if it
# is still there.  Only where it wrote nr_kdamonds, and only while that
# reads 1: its own, made where it read 0.
damon_off() {
	[ -n "$damon" ] || return 0
	do_tries=0
	while [ "$(cat "$damon/0/state" 2>/dev/null)" = on ]; do
		[ "$do_tries" -lt 50 ] || return 1
		echo off 2>/dev/null >"$damon/0/state" || sleep 0.1
		do_tries=$((do_tries + 1))
	done
	if [ "$(cat "$damon/nr_kdamonds" 2>/dev/null)" = 1 ]; then
		echo 0 2>/dev/null >"$damon/nr_kdamonds" || return 1
	fi
	damon=""
}

# zone_of N: the zone memory block N had before make_movable moved it,
# nothing for a block it did not move.
zone_of() {
	for zo_block in $movable; do
		[ "${zo_block%:*}" != "$1" ] || { echo "${zo_block#*:}"; return; }
	done
}

# block_online N: memory block N online again, in the kernel zone it had
# where make_movable moved it (online_kernel); false if it stays
# offline.  The write is retried: onlining fails only for want of memory
# for its memmap, which a moment may free.
block_online() {
	[ "$(cat "$memory/memory$1/state" 2>/dev/null)" != online ] || return 0
	bo_how=online
	[ -z "$(zone_of "$1")" ] || bo_how=online_kernel
	bo_tries=0
	while [ "$(cat "$memory/memory$1/state" 2>/dev/null)" != online ]; do
		[ "$bo_tries" -lt 5 ] || return 1
		echo "$bo_how" 2>/dev/null >"$memory/memory$1/state" || sleep 0.2
		bo_tries=$((bo_tries + 1))
	done
	[ "$bo_how" = online ] || forget_movable "$1"
}

# forget_movable N: block N is back in its zone (or, if not, says so).
forget_movable() {
	fm_zone=$(zone_of "$1")
	fm_left=""
	for fm_block in $movable; do
		[ "${fm_block%:*}" = "$1" ] || fm_left="$fm_left $fm_block"
	done
	movable=$fm_left
	[ "$(cat "$memory/memory$1/valid_zones" 2>/dev/null)" = "$fm_zone" ]
}

# shellcheck disable=SC2317 # run by undo
# block_back N: a block make_movable moved, offline (its pages moved out;
# a page in flight may hold it a moment: retried) and online in its
# zone again; false if it is not.
block_back() {
	bb_tries=0
	while [ "$(cat "$memory/memory$1/state" 2>/dev/null)" = online ]; do
		[ "$bb_tries" -lt 5 ] || return 1
		# shellcheck disable=SC2016 # the inner shell's
		timeout 30 sh -c 'echo offline >"$1"' sh "$memory/memory$1/state" 2>/dev/null || sleep 0.2
		bb_tries=$((bb_tries + 1))
	done
	block_online "$1"
}
at_exit=undo
interrupt_note="removed what it made"

min_events=1000		# below this a median is not worth a line
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

size="" base=/var/tmp csv="" keep="" check="" scanner="" young_share=0.1
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--check) check=1 ;;
	-m) [ $# -ge 2 ] || usage_error "-m needs a SIZE"; size_of -m "$2"; shift ;;
	-d) [ -n "${2:-}" ] || usage_error "-d needs a directory"; base=$2; shift ;;
	-o) [ -n "${2:-}" ] || usage_error "-o needs a file"; csv=$2; shift ;;
	-k) [ -n "${2:-}" ] || usage_error "-k needs a directory"; keep=$2; shift ;;
	--scanner=offline | --scanner=compaction | --scanner=damon) scanner=${1#*=} ;;
	--scanner=* | --scanner) usage_error "$1: give --scanner=offline, compaction or damon" ;;
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

# proc_value FILE LABEL: the first word after LABEL that starts a line of
# FILE ("MemAvailable:   24166304 kB": 24166304), nothing where none
# does.  Read by the shell: sed's regular expressions overran a 16 KiB
# stack (ulimit -s 16), and a crash in $(...) would end the script silently.
proc_value() {
	pv=""
	while IFS= read -r pv_line; do
		case $pv_line in "$2"*) pv=${pv_line#"$2"}; break ;; esac
	done <"$1"
	while :; do
		case $pv in [[:blank:]]*) pv=${pv#?} ;; *) break ;; esac
	done
	echo "${pv%%[[:blank:]]*}"
}

[ -d "$base" ] || fail "-d $base: no such directory"
case $(stat -f -c %T -- "$base" 2>/dev/null) in
tmpfs | ramfs) fail "-d $base is on $(stat -f -c %T -- "$base"): its pages are not page cache that reclaim can drop; give a disk file system" ;;
esac
[ -w "$base" ] || fail "-d $base: cannot write there"
[ -z "$csv" ] || output_ok "$csv"
if [ -n "$keep" ]; then
	[ ! -e "$keep" ] || fail "-k $keep exists: give a new directory"
	dir_of "$keep"
	if [ ! -d "$out_dir" ] || [ ! -w "$out_dir" ]; then
		fail "-k $keep: its directory $out_dir is not there, or takes no new directory"
	fi
fi

[ "$(id -u)" -eq 0 ] || fail "needs root: it makes a memory cgroup and a trace instance and compacts memory"
lockdown=""
[ ! -r /sys/kernel/security/lockdown ] || read -r lockdown </sys/kernel/security/lockdown || true
case $lockdown in *"[confidentiality]"*) lockdown=confidentiality ;; esac
[ "$lockdown" != confidentiality ] ||
	fail "kernel lockdown (confidentiality) forbids tracing; boot without lockdown=confidentiality"
tracing=${SCAN_TRACEFS:-/sys/kernel/tracing}
unmounted=""
if [ ! -d "$tracing/instances" ] && [ -z "${SCAN_TRACEFS:-}" ]; then
	if [ -n "$check" ]; then
		unmounted=1
	else
		mount -t tracefs nodev "$tracing" 2>/dev/null && mounted=$tracing
	fi
fi

# The pfn scanner: memory-block offline where a block can go offline,
# else compaction; DAMON's when asked.  DAMON's sysfs is only read here:
# a kdamond of another's is never touched, and nr_kdamonds is written
# only where it reads 0 (a write removes every kdamond's directory, of a
# kdamond that is off too, and fails while one is on).
damon_running="" damon_count=""
[ ! -r "$damon_sysfs/kdamonds/nr_kdamonds" ] || read -r damon_count <"$damon_sysfs/kdamonds/nr_kdamonds" || true
for d in "$damon_sysfs"/kdamonds/[0-9]*; do
	[ "$(cat "$d/state" 2>/dev/null)" != on ] || damon_running="$damon_running ${d##*/}"
done
has_offline=""
for d in "$memory"/memory[0-9]*; do
	[ ! -r "$memory/block_size_bytes" ] || [ ! -f "$d/state" ] || has_offline=1
	break
done
case $scanner in
'') if [ -n "$has_offline" ]; then scanner=offline; else scanner=compaction; fi ;;
offline) [ -n "$has_offline" ] ||
	fail "--scanner=offline: no memory blocks at $memory (CONFIG_MEMORY_HOTPLUG, CONFIG_MEMORY_HOTREMOVE)" ;;
damon)
	[ -n "$damon_count" ] || fail "--scanner=damon: no DAMON sysfs at $damon_sysfs (CONFIG_DAMON_SYSFS, CONFIG_DAMON_PADDR)"
	[ -z "$damon_running" ] ||
		fail "--scanner=damon: a kdamond that scan-kernel did not start is running (kdamond$damon_running): it is never touched; use --scanner=offline or compaction"
	[ "$damon_count" = 0 ] ||
		fail "--scanner=damon: $damon_count kdamond(s) that scan-kernel did not make are set up, none on: making its own would remove them (nr_kdamonds); use --scanner=offline or compaction" ;;
esac
if [ "$scanner" = offline ]; then
	pfn_events="migrate/mm_migrate_pages_start migrate/mm_migrate_pages page_isolation/test_pages_isolated sched/sched_switch"
elif [ "$scanner" = damon ]; then
	pfn_events="damon/damos_before_apply filemap/mm_filemap_delete_from_page_cache vmscan/mm_vmscan_reclaim_pages sched/sched_switch"
else
	pfn_events="compaction/mm_compaction_isolate_migratepages compaction/mm_compaction_finished
		compaction/mm_compaction_begin compaction/mm_compaction_migratepages"
fi
if [ -z "$unmounted" ]; then
	[ -d "$tracing/instances" ] || fail "no tracefs at $tracing (CONFIG_TRACING, CONFIG_FTRACE)"
	for e in $pfn_events vmscan/mm_vmscan_lru_isolate vmscan/mm_vmscan_lru_shrink_inactive \
		 pagemap/mm_lru_insertion; do
		[ -d "$tracing/events/$e" ] || fail "this kernel has no ${e%%/*}:${e#*/} tracepoint$(
			case $e in compaction/*) echo " (CONFIG_COMPACTION)" ;;
			migrate/*) echo " (CONFIG_MIGRATION)" ;;
			page_isolation/*) echo " (CONFIG_MEMORY_ISOLATION)" ;;
			damon/*) echo " (CONFIG_DAMON)" ;; esac)"
	done
fi
[ "$scanner" != compaction ] || [ -w /proc/sys/vm/compact_memory ] ||
	fail "no /proc/sys/vm/compact_memory (CONFIG_COMPACTION)"
if [ ! -r /proc/kpageflags ] || [ ! -r /proc/kpagecgroup ]; then
	fail "no /proc/kpageflags and /proc/kpagecgroup (CONFIG_PROC_PAGE_MONITOR, CONFIG_MEMCG)"
fi
if [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
	cgroot=/sys/fs/cgroup cgv=2
	grep -qw memory "$cgroot/cgroup.subtree_control" ||
		fail "the memory controller is not enabled in $cgroot/cgroup.subtree_control"
elif [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
	cgroot=/sys/fs/cgroup/memory cgv=1
else
	fail "no memory cgroup: neither cgroup v2 with the memory controller at /sys/fs/cgroup nor v1 at /sys/fs/cgroup/memory (CONFIG_MEMCG)"
fi
command -v taskset >/dev/null 2>&1 || fail "needs taskset (util-linux) to keep the work on one CPU"
[ "$scanner" != compaction ] || command -v fallocate >/dev/null 2>&1 ||
	fail "needs fallocate (util-linux) to make room for compaction"
need_scan "$me"
need_math "$me"
if [ "$(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo 0x0000)" = 0x0000 ]; then
	lru_path="classic"
	lru_words="the classic LRU lists"
else
	lru_path="mglru"
	lru_words="MGLRU (lru_gen enabled: scan_folios())"
fi

avail=$(proc_value /proc/meminfo MemAvailable:)
case $avail in '' | *[!0-9]*) fail "cannot read MemAvailable in /proc/meminfo" ;; esac
avail=$((avail * 1024))
if [ -z "$size" ]; then
	size=$((avail / 8))
	size=$((size - size % (64 * mib)))
	[ "$size" -le $((1024 * mib)) ] || size=$((1024 * mib))
	[ "$size" -ge $((64 * mib)) ] || fail "MemAvailable is $((avail / mib)) MiB: too little for a 64 MiB working set"
	said="default: an eighth of MemAvailable, at most 1G"
else
	said="-m"
fi
[ "$size" -le $((avail / 4)) ] ||
	fail "-m $((size / mib))M is over a quarter of MemAvailable ($((avail / mib)) MiB): it would press on the rest of the machine"
pages=$((size / 4096))
cpu=$(proc_value /proc/self/status Cpus_allowed_list:)	# the shell's: the work's
cpu=${cpu%%[!0-9]*}
case $cpu in '' | *[!0-9]*) fail "cannot read the CPUs it may run on in /proc/self/status" ;; esac
block=""
[ ! -r /proc/pagetypeinfo ] || block=$(proc_value /proc/pagetypeinfo "Pages per block:")
case $block in '' | *[!0-9]* | 0*) block=512 ;; esac
block_pfns=0
# DAMON's walk uses the movable blocks too where there are any: its
# regions then hold the working set, not the whole machine around it
together=""
case $scanner in
offline) together=1 ;;
damon) [ -z "$has_offline" ] || together=1 ;;
esac
if [ -n "$together" ]; then
	read -r block_bytes 2>/dev/null <"$memory/block_size_bytes" || block_bytes=""
	case $block_bytes in
	'' | *[!0-9a-fA-F]*) fail "cannot read the memory block size in $memory/block_size_bytes" ;;
	esac
	block_pfns=$((0x$block_bytes / 4096))
fi
scratch

name=scan-kernel-$$
if [ "$scanner" = offline ]; then
	pfn_plan="takes up to $max_blocks memory blocks of $((block_pfns * 4096 / mib)) MiB that hold the most of it offline and back online, one at a time (moving every page in them)"
elif [ "$scanner" = damon ]; then
	pfn_plan="walks what is left of it with DAMON's paddr operations (a kdamond of its own, removed after: a DAMOS pageout scheme kept to the cgroup's folios, which it drops)"
else
	pfn_plan="compacts the machine's memory"
fi
say_line "$me: a $((size / mib)) MiB working set ($said) of order-0 page cache, in a memory cgroup v$cgv ($cgroot/$name) and a trace instance ($tracing/instances/$name); reclaims half of it, then $pfn_plan; on CPU $cpu, $lru_words"
[ -z "$damon_running" ] ||
	say_line "$me: DAMON's paddr walk not used: a kdamond that scan-kernel did not start is running (kdamond$damon_running), never touched"

# ---- the third contender: MGLRU's aging walk (scan --walks=pagetable) ----
#
# Where the kernel has CONFIG_LRU_GEN, MGLRU on and its page-table walk
# on, after the two scanners above: a working set of anonymous memory
# (an awk holding a string of it: the power of two of pages in SIZE, at
# most 1 GiB, 262,144 PTEs: a walk of some hundreds of microseconds, where
# dd's own cost was 150-220 us on a VM, taken off) in a memory cgroup of
# its own ($cgroot/$name-aging), a walk
# that clears the
# accessed bits its writing set, --young's share of its pages read, and
# an aging walk forced by "+ MEMCG_ID NODE_ID MAX_GEN 1 1" written to
# lru_gen (1 1: swappiness, so that anonymous PTEs are scanned without
# swap, and force_scan, every mm and table), timed by dd's own clock
# around its write (the aging runs in the writer's write(2)); the walk's
# PTE counts from lru_gen_full before and after (lru-gen.awk,
# lru-aging.awk).  Each walk has a fresh cgroup: an old one's full
# generations would make the write move the oldest one's folios too
# (inc_min_seq()), which is aging's work but not the walk's.  scan
# replays what the counts say the kernel walked: its PTEs read and the
# share of them young.
lru_gen=/sys/kernel/mm/lru_gen debugfs=${SCAN_DEBUGFS:-/sys/kernel/debug}
age_walks=5 age_cg="" age_pid="" aging="" age_csv_due=""
aging_plan() {	# aging_plan: $aging set where it can run, and a line saying what it does, or why not
	if [ ! -r "$lru_gen/enabled" ]; then
		say_line "$me: MGLRU's page-table walk not timed: this kernel has no CONFIG_LRU_GEN"
		return
	fi
	read -r age_enabled <"$lru_gen/enabled" 2>/dev/null || age_enabled=0x0000
	age_why=""
	if [ $((age_enabled & 1)) -eq 0 ]; then
		age_why="MGLRU is off ($lru_gen/enabled is $age_enabled)"
	elif [ $((age_enabled & 2)) -eq 0 ]; then
		age_why="MGLRU's page-table walk is off ($lru_gen/enabled $age_enabled lacks 0x0002)"
	elif [ ! -r "$debugfs/lru_gen_full" ] || [ ! -w "$debugfs/lru_gen" ]; then
		age_why="no $debugfs/lru_gen_full (debugfs not mounted there?)"
	elif ! LC_ALL=C dd if=/dev/null of=/dev/null 2>&1 | grep -q 'copied, .* s'; then
		age_why="its dd prints no time (GNU coreutils' dd does)"
	fi
	if [ -n "$age_why" ]; then
		say_line "$me: MGLRU's page-table walk not timed: $age_why"
		return
	fi
	aging=1
	say_line "$me: then MGLRU's aging walk, $age_walks times: $(($(aging_pages) * 4096 / mib)) MiB of anonymous memory in a memory cgroup of its own ($cgroot/$name-aging), ${young_share} of its pages read before each forced walk (--young)"
}
aging_pages() {	# aging_pages: the working set in pages, the power of two of them in SIZE, 1 GiB at most
	ap=1
	while [ $((ap * 2 * 4096)) -le "$size" ] && [ "$ap" -lt 262144 ]; do ap=$((ap * 2)); done
	echo "$ap"
}
# aging_undo: the holder and its cgroup gone; the CSV, where it waited
# for the aging walk's rows, written without them (as it was before
# there were any: a walk that fails or is stopped loses no scanner's
# row), in a subshell, so that a failure to write it cannot end the
# cleanup; then the rest (undo)
# shellcheck disable=SC2317 # run by scan-env.sh's cleanup
aging_undo() {
	aging_stop
	[ -z "$age_csv_due" ] || (output_put "$tmp/out.csv" "$csv") || true
	age_csv_due=""
	undo
}
aging_stop() {	# aging_stop: the holder ended, its FIFOs closed, its cgroup removed
	exec 8<&-
	if [ -n "$age_pid" ]; then
		kill "$age_pid" 2>/dev/null || true
		wait "$age_pid" 2>/dev/null || true
		age_pid=""
	fi
	age_tries=0
	while [ -n "$age_cg" ] && ! rmdir "$age_cg" 2>/dev/null && [ "$age_tries" -lt 50 ]; do
		sleep 0.1
		age_tries=$((age_tries + 1))
	done
	age_cg=""
}
# the holder: a string of the working set's bytes, written once; a line
# "touch F" written to the FIFO cmd reads a byte of F of its pages,
# spread evenly, and it answers "touched K" on stdout.  The FIFO is
# opened anew for each line: mawk reads a pipe until its buffer is full
# or the writer closes it, so a line is whole only at the writer's close.
age_holder='BEGIN {
	s = sprintf("%4096s", "")
	while (length(s) < bytes)
		s = s s
	pages = length(s) / 4096
	print "ready", pages
	fflush()
	while ((getline line < cmd) > 0) {
		close(cmd)
		if (split(line, w, " ") != 2 || w[1] != "touch")
			continue
		k = 0
		for (p = 0; p < pages; p++)
			if (int((p + 1) * w[2]) > int(p * w[2]))
				k += substr(s, p * 4096 + 1, 1) == " "
		print "touched", k
		fflush()
	}
}'
# age_write GEN FILE: "+ MEMCG_ID NODE GEN 1 1" written to lru_gen by dd,
# its stderr (its time) in FILE
age_write() {
	printf '+ %s %s %s 1 1\n' "$age_id" "$age_node" "$1" >"$tmp/age.cmd" || tmp_fail "the aging command"
	LC_ALL=C taskset -c "$cpu" dd if="$tmp/age.cmd" of="$debugfs/lru_gen" bs=4096 count=1 conv=notrunc 2>"$2"
}
age_youngest() {	# age_youngest: the memcg's youngest generation on the node
	lru_gen_memcg=$age_id run_awk lru-gen "$debugfs/lru_gen_full" |
		awk -v n="$age_node" '$1 == "youngest" && $5 == n { print $7; exit }'
}
# aging_one N: walk N: a fresh cgroup and holder, the walk that clears
# the fill's accessed bits, the share touched, the timed walk; its line
# (lru-aging.awk) in $tmp/age.walks
aging_one() {
	age_cg=$cgroot/$name-aging
	mkdir "$age_cg" || fail "cannot make the memory cgroup $age_cg"
	rm -f "$tmp/age.in" "$tmp/age.out"
	mkfifo "$tmp/age.in" "$tmp/age.out" || tmp_fail "the holder's FIFOs"
	# shellcheck disable=SC2016 # $$ is the child's
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$age_cg" \
		taskset -c "$cpu" env LC_ALL=C awk -v bytes=$(($(aging_pages) * 4096)) -v cmd="$tmp/age.in" "$age_holder" \
		</dev/null >"$tmp/age.out" 2>"$tmp/cmd.err" &
	age_pid=$!
	exec 8<"$tmp/age.out"
	age_word=""
	read -r age_word _ <&8 || true
	[ "$age_word" = ready ] || fail "the aging walk's working set did not start: $(why "$tmp/cmd.err")"
	age_id=$(awk -v p="/${age_cg#"$cgroot"/}" '$1 == "memcg" && $3 == p { print $2; exit }' "$debugfs/lru_gen")
	[ -n "$age_id" ] || fail "no memcg $age_cg in $debugfs/lru_gen"
	age_gen=$(age_youngest)
	[ -n "$age_gen" ] || fail "no generation of memcg $age_id on node $age_node in $debugfs/lru_gen_full"
	age_write "$age_gen" "$tmp/dd.err" ||
		fail "cannot write to $debugfs/lru_gen: $(why "$tmp/dd.err")"
	# (a FIFO's open waits for its reader: bounded, should the holder have died)
	# shellcheck disable=SC2016 # the inner shell's
	timeout 60 sh -c 'echo "$1" >"$2"' sh "touch $young_share" "$tmp/age.in" ||
		fail "the aging walk's working set ended: $(why "$tmp/cmd.err")"
	read -r _ age_touched <&8 || fail "the aging walk's working set ended: $(why "$tmp/cmd.err")"
	lru_gen_memcg=$age_id run_awk lru-gen "$debugfs/lru_gen_full" >"$tmp/age.before" || tmp_fail "lru_gen_full"
	age_gen=$(age_youngest)
	age_write "$age_gen" "$tmp/dd.err" ||
		fail "cannot write to $debugfs/lru_gen: $(why "$tmp/dd.err")"
	lru_gen_memcg=$age_id run_awk lru-gen "$debugfs/lru_gen_full" >"$tmp/age.after" || tmp_fail "lru_gen_full"
	run_awk "stats lru-aging" -v step=walk -v node="$age_node" -v gen="$age_gen" -v touched="$age_touched" \
		"$tmp/age.before" "$tmp/age.after" "$tmp/dd.err" >>"$tmp/age.walks" || tmp_fail "a walk's counts"
	LC_ALL=C dd if="$tmp/age.cmd" of=/dev/null bs=4096 count=1 2>&1 |
		sed -n 's/.*copied, \([0-9.e+-]*\) s.*/floor \1/p' >>"$tmp/age.walks"
	aging_stop
}
# aging_walk: the walks, scan's replay of the same pages and share beside
# them, the lines on stdout, and -o's CSV with the walk's rows after the
# scanners' (aging_csv)
aging_walk() {
	at_exit=aging_undo
	age_csv_due=$csv
	age_node=0
	for age_n in /sys/devices/system/cpu/cpu"$cpu"/node[0-9]*; do
		[ ! -e "$age_n" ] || age_node=${age_n##*node}
	done
	: >"$tmp/age.walks" || tmp_fail "the walks"
	age_i=1
	while [ "$age_i" -le "$age_walks" ]; do
		aging_one "$age_i"
		age_i=$((age_i + 1))
	done
	aging_model
	aging_report
	aging_csv
	at_exit=undo
}
# aging_model: scan's replay of what the walks read: $age_model_s (its
# PageTable median seconds), $age_access and $age_folios (its columns of
# those names), $age_ptes (its PTE tables), $age_young (its young
# folios), each empty where scan gave none; $line, its command
aging_model() {
	# the model: the PTEs a walk read (the median), the share of them
	# young, every table read: the forced walk's force_scan skips no
	# table by its PMD entry's accessed bit nor by the Bloom filter
	age_c=$(run_awk "stats lru-aging" -v step=replay "$tmp/age.walks")
	age_share=${age_c#* } age_c=${age_c% *}
	[ -n "$age_c" ] && [ "$age_share" != 0.0000 ] || age_share=$young_share age_c=$(awk -v p="$(aging_pages)" 'BEGIN { printf "%.6f", p / 1e6 }')
	set -- -c "$age_c" --walks=list,pagetable "--young=$age_share" --mapped=1 --nonleaf-young=off
	command_line scan "$@"
	age_model_s="" age_access="" age_folios="" age_ptes="" age_young=""
	"$scan" "$@" --format=csv -v >"$tmp/age.csv" 2>"$tmp/age.err" || return 0
	# median_s, access, folios: folios last, its items separated by spaces
	IFS=, read -r age_model_s age_access age_folios <<EOF || true
$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["walk"] == "pagetable" { print $c["median_s"] "," $c["access"] "," $c["folios"]; exit }' "$tmp/age.csv")
EOF
	age_ptes=$(sed -n 's/^pagetable: .*, \([0-9]*\) PTE tables .*/\1/p' "$tmp/age.err")
	age_young=$(sed -n 's/^pagetable: .*, \([0-9]*\) young in .*/\1/p' "$tmp/age.err")
}
# aging_report: the walks' figures and the model's on stdout; their rows
# of the CSV in $tmp/age-rows.csv (none where no walk gave a figure)
aging_report() {
	: >"$tmp/age-rows.csv" || tmp_fail "the aging walk's rows"
	run_awk "stats lru-aging" -v step=report -v node="$age_node" -v share="$young_share" \
		-v bytes=$(($(aging_pages) * 4096)) \
		-v model_s="$age_model_s" -v model_ptes="$((${age_ptes:-0} * 512))" -v model_young="${age_young:-0}" \
		-v model_access="$age_access" -v model_folios="$age_folios" \
		-v csv_run="$tmp/out.csv" -v csv_out="$tmp/age-rows.csv" \
		-v command="$line" "$tmp/age.walks" >"$tmp/age.txt" || tmp_fail "the aging walk's report"
	stdout_put "$tmp/age.txt"
}
# aging_csv: -o's CSV, written once the walks are done: the scanners'
# rows, then the aging walk's (put together in a file of their own, so
# that a failure leaves the scanners' CSV whole for aging_undo)
aging_csv() {
	[ -n "$age_csv_due" ] || return 0
	cat "$tmp/out.csv" "$tmp/age-rows.csv" >"$tmp/out-aging.csv" || tmp_fail "the CSV"
	age_csv_due=""
	output_put "$tmp/out-aging.csv" "$csv"
}
aging_plan
if [ -n "$check" ]; then
	[ -z "$unmounted" ] ||
		say_line "$me: tracefs is not mounted at $tracing: a run mounts it (its tracepoints are not checked here)"
	say_line "$me: --check: it can run here, its scratch files under $base; nothing made, nothing measured"
	exit 0
fi

# ---- helpers -------------------------------------------------------------

# put VALUE FILE: VALUE written to a file of tracefs or the cgroup's.
# (A redirection of a function or a { } group would hold for a trap that
# runs inside it, and take its message: the builtin's own only.)
put() {
	echo "$1" 2>/dev/null >"$2" || fail "cannot write $1 to $2"
}

# tmp_fail WHAT: stop, naming TMPDIR: a write into the scratch failed.
tmp_fail() {
	scratch_ok
	fail "cannot save $1 in TMPDIR (${TMPDIR:-/tmp})"
}

# why FILE: the reason in a tool's last line of errors, after its name.
why() {
	why_text=$(sed -n '$s/^.*: //p' "$1" 2>/dev/null)
	echo "${why_text:-no reason given}"
}

# in_cgroup CMD...: CMD in the cgroup, on the one CPU, in the background
# so that a signal stops it at once; its pid is left in $ran, its stdout
# dropped, its stderr in $tmp/cmd.err (why says why it failed).
in_cgroup() {
	# shellcheck disable=SC2016 # $$ is the child's
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" taskset -c "$cpu" "$@" \
		>/dev/null 2>"$tmp/cmd.err" &
	child=$!
	ran=$child
	wait "$child" || { child=""; return 1; }
	child=""
}

# events ON|OFF EVENT...: turn tracepoints of the instance on or off.
events() {
	v=$1
	shift
	for e in "$@"; do
		[ ! -d "$inst/events/$e" ] || put "$v" "$inst/events/$e/enable"
	done
}

# take NAME: the instance's buffer as NAME.txt (text) and NAME.raw (ns
# timestamps), then emptied.
take() {
	put 0 "$inst/tracing_on"
	cat "$inst/trace" >"$tmp/$1.txt" 2>/dev/null || tmp_fail "the trace"
	put 1 "$inst/options/raw"
	cat "$inst/trace" >"$tmp/$1.raw" 2>/dev/null || tmp_fail "the trace"
	put 0 "$inst/options/raw"
	put "" "$inst/trace"
	put 1 "$inst/tracing_on"
}

# snapshot DIR: /proc/kpageflags and /proc/kpagecgroup, saved.
snapshot() {
	mkdir "$tmp/$1" || tmp_fail "a snapshot"
	for f in kpageflags kpagecgroup; do
		cat "/proc/$f" >"$tmp/$1/$f" 2>/dev/null || tmp_fail "/proc/$f"
	done
}

# working_set DIR INODE: $folios, $order0, $large, $lo and $hi, the
# memcg's LRU folios in DIR's snapshot (kernel-set.awk), with the pfns'
# inodes in a file beside it, a line for each line of flags; and in
# DIR/blocks, "BLOCK FOLIOS" for each memory block that holds any.
working_set() {
	od -An -v -t u8 -w8 "$tmp/$1/kpagecgroup" | tr -d ' ' >"$tmp/cgroups" ||
		tmp_fail "the snapshot's memcgs"
	: >"$tmp/$1/blocks" || tmp_fail "the working set's blocks"
	od -An -v -t u8 -w8 "$tmp/$1/kpageflags" | cgroups=$tmp/cgroups ino=$2 \
	    blocks_out=$tmp/$1/blocks block_pfns=$block_pfns run_awk kernel-set >"$tmp/set" ||
		{ scratch_ok; fail "cannot read the snapshot in $tmp/$1"; }
	rm -f "$tmp/cgroups"
	read -r folios order0 large lo hi <"$tmp/set"
}

# fig KEY: a figure kernel.awk gave (0 when it gave none): a whole number
# for the shell's tests.
fig() {
	fig=$(sed -n "s/^$1 //p" "$tmp/figures")
	echo "${fig:-0}"
}

# make_movable: where the working set may be put in memory that can go
# offline.  One unmovable page (slab, a page table) makes a whole block
# refuse (EBUSY), and the kernel puts those where it likes: on a small
# machine, in most blocks that page cache can be in.  Page cache goes to
# ZONE_MOVABLE first, and nothing unmovable may be there; so blocks that
# hold no LRU folio and go offline now, whose valid_zones then offers
# Movable, come back online_movable, enough for the working set and two
# more (each "BLOCK:ZONE" in $movable, put back in ZONE as it ends).
# Where the kernel offers no Movable, the working set stays where the
# kernel puts it.  Sets $made.
make_movable() {
	made=0
	mm_want=$((size / (block_pfns * 4096) + 2))
	: >"$tmp/lru-blocks" || tmp_fail "the blocks that hold LRU folios"
	od -An -v -t u8 -w8 /proc/kpageflags |
		blocks_out=$tmp/lru-blocks block_pfns=$block_pfns run_awk kernel-set >/dev/null ||
		tmp_fail "the blocks that hold LRU folios"
	mm_tries=0
	# shellcheck disable=SC2012 # sysfs names: memoryN
	for mm_block in $(ls "$memory" | sed -n 's/^memory\([0-9][0-9]*\)$/\1/p' | sort -n); do
		mm_path=$memory/memory$mm_block
		if [ "$made" -ge "$mm_want" ] || [ "$mm_tries" -ge $((4 * mm_want)) ]; then
			break
		fi
		[ "$(cat "$mm_path/state" 2>/dev/null)" = online ] || continue
		mm_zone=$(cat "$mm_path/valid_zones" 2>/dev/null)
		case $mm_zone in DMA32 | Normal) ;; *) continue ;; esac
		! grep -q "^$mm_block " "$tmp/lru-blocks" || continue
		mm_tries=$((mm_tries + 1))
		offlined=$mm_block
		# shellcheck disable=SC2016 # the inner shell's
		timeout 30 sh -c 'echo offline >"$1"' sh "$mm_path/state" 2>/dev/null || { offlined=""; continue; }
		case " $(cat "$mm_path/valid_zones") " in
		*" Movable "*)
			movable="$movable $mm_block:$mm_zone"
			if echo online_movable 2>/dev/null >"$mm_path/state"; then
				offlined=""
				made=$((made + 1))
				continue
			fi ;;
		esac
		# not offered, or not taken: back in its zone
		block_online "$mm_block" ||
			fail "memory block memory$mm_block is not back as it was (online, in its zone): see $mm_path/state and valid_zones"
		offlined=""
	done
}

# ---- 1. the working set --------------------------------------------------

load_before=$(cut -d' ' -f1 /proc/loadavg)
work=$(mktemp -d "$base/scan-kernel.XXXXXX" 2>/dev/null) || fail "cannot make a scratch directory in $base"
say_line "$me: scratch files in $work"
cg=$cgroot/$name
mkdir "$cg" || { cg=""; fail "cannot make the memory cgroup $cgroot/$name"; }
room=$((size + size / 2 + 64 * mib))
if [ "$cgv" = 2 ]; then
	put "$room" "$cg/memory.max"
else
	put "$room" "$cg/memory.limit_in_bytes"
fi
inst=$tracing/instances/$name
mkdir "$inst" 2>/dev/null || { inst=""; fail "cannot make the trace instance $tracing/instances/$name"; }
put 4 "$inst/buffer_size_kb"		# other CPUs: nothing of ours
kb=$((pages / 8 + 16384))		# twice a 64-byte insertion a page, and room
echo "$kb" 2>/dev/null >"$inst/per_cpu/cpu$cpu/buffer_size_kb" ||
	fail "the trace buffer cannot be $kb KiB on CPU $cpu"
put 1 "$inst/tracing_on"

if [ -n "$together" ]; then
	make_movable
	if [ "$made" -gt 0 ] && [ "$scanner" = damon ]; then
		say_line "$me: $made memory blocks moved to ZONE_MOVABLE for the working set (page cache goes there first, so DAMON's regions hold it), put back as it ends"
	elif [ "$made" -gt 0 ]; then
		say_line "$me: $made memory blocks moved to ZONE_MOVABLE for the working set (nothing unmovable goes there, so they can go offline), put back as it ends"
	elif [ "$scanner" = offline ]; then
		say_line "$me: no memory block could be moved to ZONE_MOVABLE here: the working set goes where the kernel puts it, and a block with an unmovable page in it will refuse to go offline"
	fi
fi
events 1 pagemap/mm_lru_insertion sched/sched_switch
in_cgroup dd if=/dev/zero of="$work/working-set" bs=4096 count="$pages" conv=fsync status=none ||
	fail "cannot write the working set in $work: $(why "$tmp/cmd.err")"
events 0 pagemap/mm_lru_insertion
take insert
sed -n "s/.*-$ran  *\\[[0-9]*\\] .* mm_lru_insertion: .* pfn=\\(0x[0-9a-f]*\\) .*/\\1/p" "$tmp/insert.txt" >"$tmp/lru-order" ||
	tmp_fail "the LRU order"
snapshot before
ino=$(stat -c %i -- "$cg")
working_set before "$ino"
[ "$folios" -gt 0 ] || fail "no LRU folio of the working set in /proc/kpageflags"
[ "$large" -eq 0 ] ||
	fail "the working set came out in large folios ($large of $folios folios): per-folio figures need order 0"
say_line "$me: the working set: $order0 order-0 folios on the LRU (kpageflags), pfns $lo to $hi"

# ---- 2. the LRU scanner: reclaim half of it ------------------------------

reclaim_events="vmscan/mm_vmscan_lru_isolate vmscan/mm_vmscan_lru_shrink_inactive
	vmscan/mm_vmscan_lru_shrink_active vmscan/mm_vmscan_memcg_reclaim_begin
	vmscan/mm_vmscan_memcg_reclaim_end vmscan/mm_shrink_slab_start
	vmscan/mm_shrink_slab_end vmscan/mm_vmscan_throttled"
# shellcheck disable=SC2086 # a list of events
events 1 $reclaim_events
if [ "$cgv" = 2 ]; then
	# memory.reclaim stops short with EAGAIN when it cannot reach the
	# amount; what it did is in the trace
	# shellcheck disable=SC2016 # the inner shell's
	in_cgroup sh -c 'echo "$1" >"$2/memory.reclaim"' sh "$((size / 2))" "$cg" || true
else
	# read over the limit: each charge reclaims from the cgroup alone
	used=$(cat "$cg/memory.usage_in_bytes")
	put $((used + 16 * mib)) "$cg/memory.limit_in_bytes"
	truncate -s $((size / 2 + 16 * mib)) "$work/pressure" 2>"$tmp/cmd.err" ||
		fail "cannot make $work/pressure: $(why "$tmp/cmd.err")"
	in_cgroup cat "$work/pressure" ||
		fail "cannot read $work/pressure in the cgroup: $(why "$tmp/cmd.err")"
	rm -f "$work/pressure"
fi
# shellcheck disable=SC2086
events 0 $reclaim_events
take reclaim

# ---- 3. the pfn scanner ---------------------------------------------------

# pfn_compaction: compact the machine's memory, every pass traced.
pfn_compaction() {
	# Room to migrate into.  The free scanner takes free pages only from
	# pageblocks in use (suitable_migration_target() in mm/compaction.c
	# refuses a block that starts with a free page of pageblock order), and
	# compaction_alloc() must find a free page as large as each folio it
	# moves.  So: a file of SIZE written a pageblock at a time, which the
	# file system may hold in folios of pageblock order, then punched out
	# but for the first page of each block, leaves a used page and free
	# blocks of order 4 to 8 (and 0 to 3, in per-CPU lists) beside it.
	[ "$cgv" = 2 ] || put "$room" "$cg/memory.limit_in_bytes"
	blk=$((block * 4096))
	in_cgroup dd if=/dev/zero of="$work/room" bs="$blk" count=$((size / blk)) status=none ||
		fail "cannot write $work/room: $(why "$tmp/cmd.err")"
	i=0
	while [ "$i" -lt $((size / blk)) ]; do
		fallocate -p -o $((i * blk + 4096)) -l $((blk - 4096)) "$work/room" 2>"$tmp/cmd.err" ||
			fail "cannot punch holes in $work/room: $(why "$tmp/cmd.err")"
		i=$((i + 1))
	done
	snapshot after
	compact_events="compaction/mm_compaction_isolate_migratepages compaction/mm_compaction_finished
		compaction/mm_compaction_begin compaction/mm_compaction_end
		compaction/mm_compaction_migratepages compaction/mm_compaction_isolate_freepages migrate/mm_migrate_pages"
	# shellcheck disable=SC2086
	events 1 $compact_events
	# A pass ends a zone early (status=contended) where migrate_pages()
	# returns -ENOMEM: compaction_alloc() held free pages, none as large as
	# a large folio to move, and isolates no more while it holds any.  The
	# next pass starts again at the zone's start, holding other free pages
	# when it gets there; up to 8 passes, while each ends early elsewhere.
	pass=0 stop=""
	while [ "$pass" -lt 8 ]; do
		# shellcheck disable=SC2016 # the inner shell's
		in_cgroup sh -c 'echo 1 >/proc/sys/vm/compact_memory' ||
			fail "cannot write /proc/sys/vm/compact_memory: $(why "$tmp/cmd.err")"
		pass=$((pass + 1))
		end=$(grep ' mm_compaction_end: ' "$inst/trace" | tail -n 1)
		case $end in
		*status=contended*) end=${end#*migrate_pfn=} end=${end%% *} ;;
		*) end="" ;;
		esac
		if [ -z "$end" ] || [ "$end" = "$stop" ]; then
			break
		fi
		stop=$end
	done
	# shellcheck disable=SC2086
	events 0 $compact_events
}

# pfn_offline: the memory blocks that hold the most of the working set
# (the snapshot "after", taken after reclaim), each offline and online
# again in turn, each traced from the marker to the block's isolation
# test; each block's kpageflags saved just before, as the model's memmap
# and its LRU folios (block_folios).
pfn_offline() {
	# a block with a few of its folios (under 1 in 64 pfns) adds a walk
	# that says little of them
	while read -r b n; do
		[ "$n" -lt $((block_pfns / 64)) ] || echo "$b $n"
	done <"$tmp/after/blocks" | sort -k2,2nr -k1,1n | head -n "$max_blocks" >"$tmp/picked" ||
		tmp_fail "the blocks to offline"
	mkdir "$tmp/blocks" || tmp_fail "the blocks' snapshots"
	: >"$tmp/block-folios" || tmp_fail "the blocks' folios"
	refused=0 offline_tried=0
	# shellcheck disable=SC2086 # a list of events
	events 1 $pfn_events
	while read -r b _; do
		first=$((b * block_pfns))
		# not ours to take: a block someone else left offline
		[ "$(cat "$memory/memory$b/state" 2>/dev/null)" = online ] || continue
		dd if=/proc/kpageflags of="$tmp/blocks/$first" bs=$((8 * block_pfns)) skip="$b" count=1 2>/dev/null ||
			tmp_fail "a block's page flags"
		od -An -v -t u8 -w8 "$tmp/blocks/$first" | run_awk kernel-set >"$tmp/set" ||
			tmp_fail "a block's folios"
		read -r n _ <"$tmp/set"
		echo "$first $n" >>"$tmp/block-folios" || tmp_fail "a block's folios"
		offline_tried=$((offline_tried + 1))
		offlined=$b
		if ! offline_block "$b" "$first"; then
			refused=$((refused + 1))
			rm -f "$tmp/blocks/$first"
		fi
		block_online "$b" ||
			fail "memory block memory$b is not back as it was (online, in its zone): see $memory/memory$b/state and valid_zones"
		offlined=""
	done <"$tmp/picked"
	# shellcheck disable=SC2086
	events 0 $pfn_events
}

# offline_block N FIRST: memory block N offline, on the one CPU, after a
# marker the trace reads (kernel.awk); false if the kernel refused it.
# offline_pages() gives up on any signal, so a stop ends it at once; it
# is also given at most 30 s (a page that will not move: EBUSY later).
offline_block() {
	# shellcheck disable=SC2016 # the inner shell's
	taskset -c "$cpu" timeout 30 sh -c 'echo "scan-kernel offline $1" >"$2" && echo offline >"$3"' \
		sh "$2" "$inst/trace_marker" "$memory/memory$1/state" 2>"$tmp/cmd.err" &
	child=$!
	wait "$child" || { child=""; return 1; }
	child=""
}

# damon_regions: "FIRST END" pfns of each region for DAMON, in order, all
# of one size (so that DAMON merges none): where the working set is in
# memory blocks (make_movable), each quarter of the blocks that hold the
# most of what reclaim left (at least 1 pfn in 64, up to 8 blocks);
# elsewhere its span from lo to hi cut in up to 32 regions of 4 MiB or
# more.
damon_regions() {
	if [ "$block_pfns" -gt 0 ]; then
		while read -r dr_b dr_n; do
			[ "$dr_n" -lt $((block_pfns / 64)) ] || echo "$dr_b $dr_n"
		done <"$tmp/after/blocks" | sort -k2,2nr -k1,1n | head -n 8 | sort -n |
		while read -r dr_b _; do
			for dr_q in 0 1 2 3; do
				echo "$((dr_b * block_pfns + dr_q * block_pfns / 4)) $((dr_b * block_pfns + (dr_q + 1) * block_pfns / 4))"
			done
		done
		return
	fi
	dr_pfns=$((hi + 1 - lo))
	dr_k=$((dr_pfns / 1024))
	[ "$dr_k" -le 32 ] || dr_k=32
	dr_i=0
	while [ "$dr_i" -lt "$dr_k" ]; do
		dr_end=$((lo + (dr_i + 1) * (dr_pfns / dr_k)))
		[ "$dr_i" -lt $((dr_k - 1)) ] || dr_end=$((hi + 1))
		echo "$((lo + dr_i * (dr_pfns / dr_k))) $dr_end"
		dr_i=$((dr_i + 1))
	done
}

# pfn_damon: DAMON's paddr walk over what reclaim left of the working set
# (the snapshot "after"), by a kdamond of its own: a DAMOS pageout scheme
# on every region, whose damon_pa_pageout() (mm/damon/paddr.c) walks
# the region's pfns, stepping over each folio, and isolates each LRU
# folio (folio_isolate_lru(), one at a time) before reclaim_pages()
# drops them; of DAMON's actions it is the one that walks and isolates
# (lru_prio and lru_deprio move folios between lists without isolating,
# stat walks only where a filter asks, migrate_hot and migrate_cold need
# a second node).  Two memcg filters let the walk take only the cgroup's
# folios: every other folio is walked over and left as it was.
# damos_before_apply marks each region's start (kernel.awk).
pfn_damon() {
	damon_regions >"$tmp/regions" || tmp_fail "DAMON's regions"
	pd_regions=$(grep -c '' "$tmp/regions")
	[ "$pd_regions" -ge 3 ] || fail "--scanner=damon: the working set spans $((hi + 1 - lo)) pfns: too few for 3 regions of DAMON's"
	pd_kd=$damon_sysfs/kdamonds
	# read again just before: none of another's, since the check above
	[ "$(cat "$pd_kd/nr_kdamonds" 2>/dev/null)" = 0 ] ||
		fail "--scanner=damon: a kdamond that scan-kernel did not make appeared: never touched"
	damon=$pd_kd
	put 1 "$pd_kd/nr_kdamonds"
	put 1 "$pd_kd/0/contexts/nr_contexts"
	pd_ctx=$pd_kd/0/contexts/0
	grep -qw paddr "$pd_ctx/avail_operations" 2>/dev/null ||
		fail "--scanner=damon: DAMON has no physical address space operations here (CONFIG_DAMON_PADDR)"
	put paddr "$pd_ctx/operations"
	# a sample each 5 ms, a pass each 100 ms; exactly pd_regions regions:
	# DAMON splits none while they are over half the most, and merges
	# none past the total over the fewest
	put 5000 "$pd_ctx/monitoring_attrs/intervals/sample_us"
	put 100000 "$pd_ctx/monitoring_attrs/intervals/aggr_us"
	put "$pd_regions" "$pd_ctx/monitoring_attrs/nr_regions/min"
	put "$pd_regions" "$pd_ctx/monitoring_attrs/nr_regions/max"
	put 1 "$pd_ctx/targets/nr_targets"
	pd_t=$pd_ctx/targets/0/regions
	put "$pd_regions" "$pd_t/nr_regions"
	pd_i=0
	while read -r pd_first pd_end; do
		put $((pd_first * 4096)) "$pd_t/$pd_i/start"
		put $((pd_end * 4096)) "$pd_t/$pd_i/end"
		pd_i=$((pd_i + 1))
	done <"$tmp/regions"
	put 1 "$pd_ctx/schemes/nr_schemes"
	pd_s=$pd_ctx/schemes/0
	put pageout "$pd_s/action"
	# every region, every pass; no quota, no watermarks
	for pd_p in sz/min nr_accesses/min age/min; do put 0 "$pd_s/access_pattern/$pd_p"; done
	put 18446744073709551615 "$pd_s/access_pattern/sz/max"
	put 4294967295 "$pd_s/access_pattern/nr_accesses/max"
	put 4294967295 "$pd_s/access_pattern/age/max"
	put 0 "$pd_s/apply_interval_us"
	put 0 "$pd_s/quotas/ms"
	put 0 "$pd_s/quotas/bytes"
	put none "$pd_s/watermarks/metric"
	# the cgroup's folios allowed, every other refused: each folio is
	# settled by these two, never by the young filter pageout adds after
	put 2 "$pd_s/filters/nr_filters"
	[ -e "$pd_s/filters/0/allow" ] ||
		fail "--scanner=damon: DAMOS filters here have no 'allow' (Linux 6.14 or later): its walk could not be kept to the cgroup's folios"
	for pd_i in 0 1; do
		put memcg "$pd_s/filters/$pd_i/type"
		put "/$name" "$pd_s/filters/$pd_i/memcg_path"
	done
	put Y "$pd_s/filters/0/matching"
	put Y "$pd_s/filters/0/allow"
	put N "$pd_s/filters/1/matching"
	put N "$pd_s/filters/1/allow"
	# shellcheck disable=SC2086 # a list of events
	events 1 $pfn_events
	put on "$pd_kd/0/state"
	# on the traced CPU before its first pass, an aggregation (100 ms) on
	read -r pd_pid 2>/dev/null <"$pd_kd/0/pid" || pd_pid=""
	case $pd_pid in '' | *[!0-9]*) fail "--scanner=damon: cannot read its kdamond's pid in $pd_kd/0/pid" ;; esac
	taskset -p -c "$cpu" "$pd_pid" >/dev/null 2>"$tmp/cmd.err" ||
		fail "--scanner=damon: cannot keep its kdamond (pid $pd_pid) on CPU $cpu: $(why "$tmp/cmd.err")"
	# three passes: the first takes the cgroup's folios, the others walk
	# the emptied regions (the walk's floor); at most 30 s
	pd_tries=0
	while [ "$pd_tries" -lt 150 ]; do
		sleep 0.2
		put update_schemes_stats "$pd_kd/0/state"
		read -r pd_tried 2>/dev/null <"$pd_s/stats/nr_tried" || pd_tried=0
		[ "${pd_tried:-0}" -lt $((3 * pd_regions)) ] || break
		pd_tries=$((pd_tries + 1))
	done
	put off "$pd_kd/0/state"
	# shellcheck disable=SC2086
	events 0 $pfn_events
	damon_off || fail "--scanner=damon: its own kdamond is still there: see $pd_kd/0/state and $pd_kd/nr_kdamonds"
	damon_tried=${pd_tried:-0}
}

if [ "$scanner" = offline ] || [ "$scanner" = damon ]; then
	snapshot after
	working_set after "$ino"
	if [ "$scanner" = offline ]; then pfn_offline; else pfn_damon; fi
else
	pfn_compaction
fi
events 0 sched/sched_switch
take pfn
load_after=$(cut -d' ' -f1 /proc/loadavg)
overrun=$(sed -n 's/^overrun: *//p' "$inst/per_cpu/cpu$cpu/stats")

# ---- the figures -----------------------------------------------------------

cat "$tmp/reclaim.txt" "$tmp/pfn.txt" >"$tmp/all.txt" 2>/dev/null || tmp_fail "the trace"
cat "$tmp/reclaim.raw" "$tmp/pfn.raw" >"$tmp/all.raw" 2>/dev/null || tmp_fail "the trace"
raw=$tmp/all.raw scanner=$scanner block_folios=$tmp/block-folios run_awk "stats kernel" "$tmp/all.txt" >"$tmp/figures" ||
	{ scratch_ok; fail "cannot read the trace"; }

# The pfn scanner's figure: the median over the ranges where it isolated
# folios (memory mostly on the LRU, as the model's); where too few were
# timed, compaction's is the time over the pfns of every timed range,
# whatever they held.  Offline's events are blocks.
if [ "$scanner" = offline ] || [ "$scanner" = damon ]; then
	min_pfn=$min_blocks
else
	min_pfn=$min_events
fi
if [ "$(fig pfn_events)" -ge "$min_pfn" ] || [ "$scanner" != compaction ]; then
	kind=took
else
	kind=all
fi

# replay_of FIRST END: the model's memmap of pfns [FIRST, END) on stdout:
# offline's, each block in it as it was just before it went offline (a
# range of several blocks timed one after another holds each); else
# whole pageblocks from the snapshot taken before the pfn scanner ran.
replay_of() {
	if [ "$scanner" = offline ]; then
		ro_first=$1
		while [ "$ro_first" -lt "$2" ]; do
			cat "$tmp/blocks/$ro_first" || return 1
			ro_first=$((ro_first + block_pfns))
		done
		return
	fi
	ro_first=$(($1 / block)) ro_end=$((($2 + block - 1) / block))
	dd if="$tmp/after/kpageflags" bs=$((8 * block)) skip="$ro_first" count=$((ro_end - ro_first)) 2>/dev/null
}

# The model's memmap for the pfn scanner: those ranges.
sed -n "s/^$kind //p" "$tmp/figures" |
while read -r first end; do
	replay_of "$first" "$end" || exit 1
done >"$tmp/ranges" || tmp_fail "the pfns to replay"
if [ ! -s "$tmp/ranges" ]; then
	[ "$scanner" != compaction ] || fail "compaction timed no range: no pfns to replay"
	[ "$scanner" != damon ] ||
		fail "no kernel ratio: DAMON's walk isolated folios in no timed region: $damon_tried regions tried, $(fig pfn_left_out) left out (preempted, or a sleep or lost events inside), $(fig pfn_floor_events) with none of the cgroup's folios"
	fail "no kernel ratio: no memory block was timed offline: $refused of $offline_tried refused (EBUSY: unmovable pages in them, or CONFIG_MEMORY_HOTREMOVE off), $(fig pfn_left_out) preempted or with events lost, $(fig pfn_empty) with nothing to move"
fi

# scan's model: ListLRU over the working set as it was, in its traced
# order; Physical over the pfns the kernel's pfn scanner timed.  On the
# CPU the kernel's work ran on: on this 2-vCPU guest the same replay
# read 15 ns/page on one CPU and 22 on the other, and a model that ran
# where it fell moved kernel/model by that much from run to run.
if ! taskset -c "$cpu" "$scan" "--memmap-from=$tmp/before/kpageflags" "--memcg-from=$tmp/before/kpagecgroup" \
	    "--memcg=$ino" "--lru-order=$tmp/lru-order" "--pfns=$lo:$((hi - lo + 1))" \
	    --access=isolate --walks=list --format=csv -q >"$tmp/model-lru.csv" 2>"$tmp/model.err" ||
    ! taskset -c "$cpu" "$scan" "--memmap-from=$tmp/ranges" --access=isolate --walks=list --format=csv -q \
	    >"$tmp/model-pfn.csv" 2>"$tmp/model.err"; then
	scratch_ok
	fail "scan's model failed: $(head -n 1 "$tmp/model.err")"
fi
# Offline's and DAMON's kernel/model, block by block (region by region):
# each replayed alone beside the kernel's ns/pfn over it ("START END
# KERNEL MODEL" lines).  The kernel's median block against the model of
# all of them together set one block's fill of LRU folios against the
# mean of all fills, which moved kernel/model 1.6x between runs of few
# blocks; a block against itself does not.
: >"$tmp/each-model" || tmp_fail "the model of each block"
if [ "$scanner" != compaction ]; then
	sed -n 's/^each //p' "$tmp/figures" |
	while read -r first end k; do
		replay_of "$first" "$end" >"$tmp/one" || exit 1
		taskset -c "$cpu" "$scan" "--memmap-from=$tmp/one" --access=isolate --walks=list --format=csv -q \
			>"$tmp/one.csv" 2>"$tmp/model.err" || exit 2
		echo "$first $end $k $(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ns_per_page") c = i; next }
			$1 == "physical" && c { print $c }' "$tmp/one.csv")"
	done >"$tmp/each-model" || { scratch_ok; fail "scan's model of one block failed: $(head -n 1 "$tmp/model.err")"; }
	rm -f "$tmp/one" "$tmp/one.csv"
fi
if [ -n "$keep" ]; then
	mkdir -- "$keep" || fail "cannot make $keep"
	cp -r -- "$tmp"/. "$keep"/ || fail "cannot keep the traces in $keep"
fi

# The report and the CSV (kernel-report.awk).
rc=0
model_lru=$tmp/model-lru.csv model_pfn=$tmp/model-pfn.csv each_model=$tmp/each-model csv_out=$tmp/out.csv \
    kind=$kind min_events=$min_events min_pfn=$min_pfn size=$size cgv=$cgv lru_path=$lru_path \
    scanner=$scanner refused=${refused:-0} tried=${offline_tried:-${damon_tried:-0}} \
    lru_words=$lru_words load_before=$load_before load_after=$load_after \
    overrun=${overrun:-0} cpus=$(getconf _NPROCESSORS_ONLN) \
    run_awk "stats kernel-report" "$tmp/figures" >"$tmp/out.txt" || rc=$?
[ "$rc" -ne 3 ] || fail "scan's model gave no Physical ns/page or ListLRU ns/folio: $(head -n 1 "$tmp/model-lru.csv")"
[ "$rc" -eq 0 ] || tmp_fail "the report"
stdout_put "$tmp/out.txt"
# where the aging walk runs, the CSV waits for its rows (aging_csv)
[ -z "$csv" ] || [ -n "$aging" ] || output_put "$tmp/out.csv" "$csv"
[ -z "$aging" ] || aging_walk
if [ "$kind" = took ]; then
	pfn_n=$(fig pfn_events)
else
	pfn_n=$(fig pfn_all_events)
fi
if [ "$pfn_n" -lt "$min_pfn" ] || [ "$(fig lru_events)" -lt "$min_events" ]; then
	fail "too few timed events for a kernel ratio: the pfn scanner $pfn_n, $min_pfn wanted; the LRU scanner $(fig lru_events) batches, $min_events wanted"
fi
[ "$kind" = took ] && exit 0
if [ "$(fig pfn_ended_early)" -gt 0 ]; then
	fail "no kernel ratio: compaction isolated folios in $(fig pfn_events) of its timed ranges, $min_events wanted; $(fig pfn_ended_early) of $pass passes ended early (status=contended: migrate_pages() found no free page to move a folio to among those compaction held), the last at pfn $(printf '0x%x' "$(fig pfn_stop)")"
fi
fail "no kernel ratio: compaction isolated folios in $(fig pfn_events) of its timed ranges, $min_events wanted"
