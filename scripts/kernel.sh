#!/bin/sh
#/ kernel.sh - time the kernel's own pfn scanner and LRU scanner on this
#/ machine, and set scan's model of the same memory beside them.
#/
#/ usage: sudo scripts/kernel.sh [-h] [-m SIZE] [-d DIR] [-o FILE.csv] [-k DIR]
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
#/  3. leaves SIZE of room for compaction (a file written a pageblock
#/     at a time, each block punched out but for its first page), then
#/     compacts the machine's memory (echo 1 >/proc/sys/vm/compact_memory:
#/     this moves pages of every process, as that file always does; again,
#/     up to 8 passes, while each ends a zone early somewhere new),
#/     timing compaction's migrate scanner: ns per pfn of the pfn
#/     scanner, isolate_migratepages_block() in mm/compaction.c, over the
#/     ranges where it isolated folios;
#/  4. replays the same memory in scan (--memmap-from, --access=isolate):
#/     Physical ns/page over the pfns the kernel's pfn scanner timed,
#/     ListLRU ns/folio over the working set's folios in their traced
#/     order.
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
#/   -k DIR       keep the traces and snapshots in DIR (made new)
#/   -h           this help
#/
#/ SCAN_TRACEFS names tracefs (default /sys/kernel/tracing, mounted if
#/ it is not).  Exit status: 0 done; 2 a usage error; 1 it cannot work
#/ here (not root, no tracefs, a tracepoint or kernel feature missing,
#/ no memory cgroup, kernel lockdown: one line, naming the kernel
#/ configuration), or fewer than 1,000 timed events for a scanner (what
#/ was measured is printed first); 128+N ended by signal N, after
#/ cleaning up.
set -eu
env=$(dirname "$0")/scan-env.sh	# usage, $scan, $awk, need_scan, fail
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"
awkdir=$(dirname "$env")

min_events=1000		# below this a median is not worth a line
mib=1048576

# ---- options ----------------------------------------------------------

# parse_size OPTION VALUE: VALUE in bytes (K, M, G: binary), whole 4 KiB
# pages, at least 64 MiB and at most 1 TiB.
parse_size() {
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
	bytes=$((n * u))
	if [ "$bytes" -lt $((64 * mib)) ] || [ "$bytes" -gt $((1024 * 1024 * mib)) ]; then
		usage_error "$1 '$2': give 64M to 1024G"
	fi
	[ $((bytes % 4096)) -eq 0 ] || usage_error "$1 '$2': not whole 4 KiB pages"
	echo "$bytes"
}

size="" base=/var/tmp csv="" keep=""
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-m) [ $# -ge 2 ] || usage_error "-m needs a SIZE"; size=$(parse_size -m "$2") || exit 2; shift ;;
	-d) [ -n "${2:-}" ] || usage_error "-d needs a directory"; base=$2; shift ;;
	-o) [ -n "${2:-}" ] || usage_error "-o needs a file"; csv=$2; shift ;;
	-k) [ -n "${2:-}" ] || usage_error "-k needs a directory"; keep=$2; shift ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
	shift
done

# ---- can it work here? -------------------------------------------------

[ "$(id -u)" -eq 0 ] || fail "needs root: it makes a memory cgroup and a trace instance and compacts memory"
lockdown=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/security/lockdown 2>/dev/null || true)
[ "$lockdown" != confidentiality ] ||
	fail "kernel lockdown (confidentiality) forbids tracing; boot without lockdown=confidentiality"
tracing=${SCAN_TRACEFS:-/sys/kernel/tracing}
if [ ! -d "$tracing/instances" ] && [ -z "${SCAN_TRACEFS:-}" ]; then
	mount -t tracefs nodev "$tracing" 2>/dev/null || true
fi
[ -d "$tracing/instances" ] || fail "no tracefs at $tracing (CONFIG_TRACING, CONFIG_FTRACE)"
for e in compaction/mm_compaction_isolate_migratepages compaction/mm_compaction_finished \
	 compaction/mm_compaction_begin compaction/mm_compaction_migratepages \
	 vmscan/mm_vmscan_lru_isolate vmscan/mm_vmscan_lru_shrink_inactive \
	 pagemap/mm_lru_insertion; do
	[ -d "$tracing/events/$e" ] || fail "this kernel has no ${e%%/*}:${e#*/} tracepoint$(
		case $e in compaction/*) echo " (CONFIG_COMPACTION)" ;; esac)"
done
[ -w /proc/sys/vm/compact_memory ] || fail "no /proc/sys/vm/compact_memory (CONFIG_COMPACTION)"
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
need_scan "$me"
need_math "$me"
if [ "$(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo 0x0000)" = 0x0000 ]; then
	lru_path="classic"
	lru_words="the classic LRU lists"
else
	lru_path="mglru"
	lru_words="MGLRU (lru_gen enabled: scan_folios())"
fi

[ -d "$base" ] || fail "-d $base: no such directory"
case $(stat -f -c %T "$base" 2>/dev/null) in
tmpfs | ramfs) fail "-d $base is on $(stat -f -c %T "$base"): its pages are not page cache that reclaim can drop; give a disk file system" ;;
esac
avail=$(($(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo) * 1024))
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
[ -z "$csv" ] || output_ok "$csv"
[ -z "$keep" ] || [ ! -e "$keep" ] || fail "-k $keep exists: give a new directory"
pages=$((size / 4096))
cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status)
block=$(sed -n 's/^Pages per block: *\([0-9]*\)/\1/p' /proc/pagetypeinfo 2>/dev/null || true)
block=${block:-512}

# ---- what it makes, and undoes however it ends -------------------------

cg="" inst="" work="" child=""
undo() {
	if [ -n "$child" ]; then
		kill "$child" 2>/dev/null || true
		wait "$child" 2>/dev/null || true
		child=""
	fi
	if [ -n "$inst" ]; then
		echo 0 >"$inst/tracing_on" 2>/dev/null || true
		echo >"$inst/set_event" 2>/dev/null || true
		rmdir "$inst" 2>/dev/null || true
	fi
	[ -z "$work" ] || rm -rf "$work"
	[ -z "$cg" ] || rmdir "$cg" 2>/dev/null || true
	[ -z "$tmp" ] || rm -rf "$tmp"
}
# shellcheck disable=SC2317 # from the traps
stopped() {	# stopped STATUS
	trap - EXIT INT TERM HUP
	undo
	echo "$me: interrupted; removed what it made" >&2
	exit "$1"
}
trap undo EXIT
trap 'stopped 130' INT
trap 'stopped 143' TERM
trap 'stopped 129' HUP
tmp=$(mktemp -d) || fail "cannot make a scratch directory"

# in_cgroup CMD...: CMD in the cgroup, on the one CPU, in the background
# so that a signal stops it at once; its pid is left in $ran.
in_cgroup() {
	# shellcheck disable=SC2016 # $$ is the child's
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" taskset -c "$cpu" "$@" &
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
		[ ! -d "$inst/events/$e" ] || echo "$v" >"$inst/events/$e/enable"
	done
}

# take NAME: the instance's buffer as NAME.txt (text) and NAME.raw (ns
# timestamps), then emptied.
take() {
	echo 0 >"$inst/tracing_on"
	cat "$inst/trace" >"$tmp/$1.txt"
	echo 1 >"$inst/options/raw"
	cat "$inst/trace" >"$tmp/$1.raw"
	echo 0 >"$inst/options/raw"
	echo >"$inst/trace"
	echo 1 >"$inst/tracing_on"
}

# snapshot DIR: /proc/kpageflags and /proc/kpagecgroup, saved.
snapshot() {
	mkdir "$tmp/$1"
	for f in kpageflags kpagecgroup; do
		cat "/proc/$f" >"$tmp/$1/$f" || fail "cannot save /proc/$f in $tmp"
	done
}

# shellcheck disable=SC2016 # an awk program
# working_set DIR INODE: the memcg's LRU folios in DIR's snapshot: "folios
# N order0 N large N lo PFN hi PFN" (bits of
# include/uapi/linux/kernel-page-flags.h: 5 LRU, 15 COMPOUND_HEAD,
# 16 COMPOUND_TAIL).
working_set() {
	od -An -v -t u8 -w8 "$tmp/$1/kpageflags" | $awk -v cgroups="$tmp/$1/kpagecgroup" -v ino="$2" '
	function bit(v, b) { return int(v / 2 ^ b) % 2 }
	BEGIN { cmd = "od -An -v -t u8 -w8 \"" cgroups "\"" }
	{
		pfn = NR - 1
		if ((cmd | getline cg) <= 0 || cg + 0 != ino)
			next
		v = $1 + 0
		if (!bit(v, 5) || bit(v, 16))
			next
		folios++
		if (bit(v, 15)) large++; else order0++
		if (lo == "") lo = pfn
		hi = pfn
	}
	END { printf "folios %d order0 %d large %d lo %s hi %s\n", folios, order0, large, lo + 0, hi + 0 }'
}

# shellcheck disable=SC2016 # an awk program
# model_csv CSV WALK COLUMN: a column of scan's CSV row for WALK.
model_csv() {
	$awk -F, -v walk="$2" -v name="$3" '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
	$1 == walk && c { print $c; exit }' "$1"
}

# ---- 1. the working set --------------------------------------------------

name=scan-kernel-$$
echo "$me: a $((size / mib)) MiB working set ($said) of order-0 page cache, in a memory cgroup v$cgv ($cgroot/$name) and a trace instance ($tracing/instances/$name); reclaims half of it, then compacts the machine's memory; on CPU $cpu, $lru_words" >&2
load_before=$(cut -d' ' -f1 /proc/loadavg)
work=$(mktemp -d "$base/scan-kernel.XXXXXX") || fail "cannot make a scratch directory in $base"
echo "$me: scratch files in $work" >&2
cg=$cgroot/$name
mkdir "$cg" || { cg=""; fail "cannot make the memory cgroup $cgroot/$name"; }
room=$((size + size / 2 + 64 * mib))
if [ "$cgv" = 2 ]; then
	echo "$room" >"$cg/memory.max"
else
	echo "$room" >"$cg/memory.limit_in_bytes"
fi
inst=$tracing/instances/$name
mkdir "$inst" 2>/dev/null || { inst=""; fail "cannot make the trace instance $tracing/instances/$name"; }
echo 4 >"$inst/buffer_size_kb"		# other CPUs: nothing of ours
kb=$((pages / 8 + 16384))		# twice a 64-byte insertion a page, and room
echo "$kb" >"$inst/per_cpu/cpu$cpu/buffer_size_kb" ||
	fail "the trace buffer cannot be $kb KiB on CPU $cpu"
echo 1 >"$inst/tracing_on"

events 1 pagemap/mm_lru_insertion sched/sched_switch
in_cgroup dd if=/dev/zero of="$work/working-set" bs=4096 count="$pages" conv=fsync status=none ||
	fail "cannot write the working set in $work"
events 0 pagemap/mm_lru_insertion
take insert
sed -n "s/.*-$ran  *\\[[0-9]*\\] .* mm_lru_insertion: .* pfn=\\(0x[0-9a-f]*\\) .*/\\1/p" "$tmp/insert.txt" >"$tmp/lru-order"
snapshot before
ino=$(stat -c %i "$cg")
# shellcheck disable=SC2046 # its words are the figures
set -- $(working_set before "$ino")
folios=$2 order0=$4 large=$6 lo=$8 hi=${10}
[ "$folios" -gt 0 ] || fail "no LRU folio of the working set in /proc/kpageflags"
[ "$large" -eq 0 ] ||
	fail "the working set came out in large folios ($large of $folios folios): per-folio figures need order 0"
echo "$me: the working set: $order0 order-0 folios on the LRU (kpageflags), pfns $lo to $hi" >&2

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
	in_cgroup sh -c 'echo "$1" >"$2/memory.reclaim"' sh "$((size / 2))" "$cg" 2>/dev/null || true
else
	# read over the limit: each charge reclaims from the cgroup alone
	used=$(cat "$cg/memory.usage_in_bytes")
	echo $((used + 16 * mib)) >"$cg/memory.limit_in_bytes"
	truncate -s $((size / 2 + 16 * mib)) "$work/pressure"
	in_cgroup cat "$work/pressure" >/dev/null || fail "cannot read $work/pressure in the cgroup"
	rm -f "$work/pressure"
fi
# shellcheck disable=SC2086
events 0 $reclaim_events
take reclaim

# ---- 3. the pfn scanner: compact the machine -----------------------------

# Room to migrate into.  The free scanner takes free pages only from
# pageblocks in use (suitable_migration_target() in mm/compaction.c
# refuses a block that starts with a free page of pageblock order), and
# compaction_alloc() must find a free page as large as each folio it
# moves.  So: a file of SIZE written a pageblock at a time, which the
# file system may hold in folios of pageblock order, then punched out
# but for the first page of each block, leaves a used page and free
# blocks of order 4 to 8 (and 0 to 3, in per-CPU lists) beside it.
command -v fallocate >/dev/null 2>&1 || fail "needs fallocate (util-linux) to make room for compaction"
[ "$cgv" = 2 ] || echo "$room" >"$cg/memory.limit_in_bytes"
blk=$((block * 4096))
in_cgroup dd if=/dev/zero of="$work/room" bs="$blk" count=$((size / blk)) status=none ||
	fail "cannot write $work/room"
i=0
while [ "$i" -lt $((size / blk)) ]; do
	fallocate -p -o $((i * blk + 4096)) -l $((blk - 4096)) "$work/room" ||
		fail "cannot punch holes in $work/room"
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
	in_cgroup sh -c 'echo 1 >/proc/sys/vm/compact_memory' || fail "cannot write /proc/sys/vm/compact_memory"
	pass=$((pass + 1))
	# shellcheck disable=SC2016 # an awk program
	end=$($awk '/ mm_compaction_end: / { e = $0 }
	END { if (e ~ /status=contended/) { sub(/.*migrate_pfn=/, "", e); sub(/ .*/, "", e); print e } }' "$inst/trace")
	if [ -z "$end" ] || [ "$end" = "$stop" ]; then
		break
	fi
	stop=$end
done
# shellcheck disable=SC2086
events 0 $compact_events sched/sched_switch
take compact
load_after=$(cut -d' ' -f1 /proc/loadavg)
# shellcheck disable=SC2016 # an awk program
lost=$($awk '/^overrun:/ { n += $2 } END { print n + 0 }' "$inst/per_cpu/cpu$cpu/stats")

# ---- the figures -----------------------------------------------------------

cat "$tmp/reclaim.txt" "$tmp/compact.txt" >"$tmp/all.txt"
cat "$tmp/reclaim.raw" "$tmp/compact.raw" >"$tmp/all.raw"
$awk -f "$awkdir/stats.awk" -f "$awkdir/kernel.awk" -v raw="$tmp/all.raw" "$tmp/all.txt" >"$tmp/figures" ||
	fail "cannot read the trace"
# shellcheck disable=SC2016 # an awk program
# fig KEY: a figure kernel.awk gave (0 when it gave none).
fig() { $awk -v k="$1" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }' "$tmp/figures"; }
# calc EXPR [FORMAT]: the value of an awk expression of figures.
calc() { $awk "BEGIN { printf \"${2:-%.2f}\", $1 }"; }

# The pfn scanner's figure: the median over the ranges where it isolated
# folios (memory mostly on the LRU, as the model's); where too few were
# timed, the time over the pfns of every timed range, whatever they held.
if [ "$(fig pfn_events)" -ge "$min_events" ]; then
	kind=took pfn=$(fig pfn_median) pfn_n=$(fig pfn_events) pfn_pfns=$(fig pfn_pfns)
	pfn_words="median over the ranges where it isolated folios; IQR $(calc "$(fig pfn_q1)")-$(calc "$(fig pfn_q3)")"
	share=$(calc "$(fig pfn_taken) / $(fig pfn_pfns)" %.6f)
else
	kind=all pfn=$(fig pfn_all_mean) pfn_n=$(fig pfn_all_events) pfn_pfns=$(fig pfn_all_pfns)
	pfn_words="time over pfns of every timed range: only $(fig pfn_events) isolated folios; per range median $(calc "$(fig pfn_all_median)"), IQR $(calc "$(fig pfn_all_q1)")-$(calc "$(fig pfn_all_q3)")"
	share=""
fi

# The model's memmap for the pfn scanner: those ranges, whole
# pageblocks, from the snapshot taken before compaction.
# shellcheck disable=SC2016 # an awk program
$awk -v b="$block" -v kind="$kind" '$1 == kind { print int($2 / b), int(($3 + b - 1) / b) }' "$tmp/figures" |
while read -r first end; do
	dd if="$tmp/after/kpageflags" bs=$((8 * block)) skip="$first" count=$((end - first)) 2>/dev/null
done >"$tmp/ranges"

# scan's model: ListLRU over the working set as it was, in its traced
# order; Physical over the pfns the kernel's pfn scanner timed.
model_lru="$scan --memmap-from=$tmp/before/kpageflags --memcg-from=$tmp/before/kpagecgroup --memcg=$ino --lru-order=$tmp/lru-order --pfns=$lo:$((hi - lo + 1)) --access=isolate --walks=list --format=csv -q"
model_pfn="$scan --memmap-from=$tmp/ranges --access=isolate --walks=list --format=csv -q"
# shellcheck disable=SC2086 # the commands are words
if ! $model_lru >"$tmp/model-lru.csv" 2>"$tmp/model.err" ||
	! $model_pfn >"$tmp/model-pfn.csv" 2>"$tmp/model.err"; then
	fail "scan's model failed: $(head -n 1 "$tmp/model.err")"
fi
if [ -n "$keep" ]; then
	mkdir "$keep" || fail "cannot make $keep"
	cp -r "$tmp"/. "$keep"/ || fail "cannot keep the traces in $keep"
fi
m_pfn=$(model_csv "$tmp/model-pfn.csv" physical ns_per_page)
m_lru=$(model_csv "$tmp/model-lru.csv" list ns_per_folio)
lru=$(fig lru_median) lru_n=$(fig lru_events)
lost=$(($(fig lost) + lost))

report() {
	echo "pfn scanner: $(calc "$pfn") ns/pfn ($pfn_words) over $pfn_n events, $pfn_pfns pfns (compaction's migrate scanner)"
	if [ "$lru_n" -ge "$min_events" ]; then
		echo "LRU scanner: $(calc "$lru") ns/folio (median; IQR $(calc "$(fig lru_q1)")-$(calc "$(fig lru_q3)")) over $lru_n batches, $(fig lru_folios) order-0 folios (reclaim's isolation from inactive_file, $lru_words)"
	else
		echo "LRU scanner: not measured: $lru_n full batches timed, $min_events wanted"
	fi
	if [ -n "$share" ] && [ "$lru_n" -ge "$min_events" ]; then
		x=$(calc "$lru * $share / $pfn" %f)
		mx=$(calc "$m_lru * $share / $m_pfn" %f)
		echo "Kernel: physical scan is $x faster than ListLRU"
		echo "  at $(calc "$share" %.4f) LRU folios a pfn, the share of the ranges timed"
		echo "model: Physical $(calc "$m_pfn") ns/page, ListLRU $(calc "$m_lru") ns/folio, ratio $(calc "$mx" %.3f) at the same share (scan --access=isolate, replayed)"
		echo "kernel/model: Physical $(calc "$pfn / $m_pfn"), ListLRU $(calc "$lru / $m_lru"), ratio $(calc "$x / $mx")"
	else
		echo "model: Physical $(calc "$m_pfn" %.3f) ns/page over the same pfns, ListLRU $(calc "$m_lru") ns/folio (scan --access=isolate, replayed)"
		echo "kernel/model: Physical $(calc "$pfn / $m_pfn"), ListLRU $(calc "$lru / $m_lru"); no kernel ratio without ranges of LRU folios"
	fi
	echo "working set $((size / mib)) MiB, memory cgroup v$cgv; load $load_before before, $load_after after ($(getconf _NPROCESSORS_ONLN) CPUs); $lost events lost"
}
report >"$tmp/out.txt"

# A row per figure, its columns named as scan's CSV names them where
# they mean the same.
row() {	# row SOURCE WALK LABEL TIMED NS_PER_PAGE NS_PER_FOLIO SPEEDUP
	echo "$1,$2,$3,$4,$5,$6,$7,$pfn_pfns,$share,$size,0:100,isolate,$kind,$lru_path,$cgv,$load_before,$load_after,$lost,$(model_csv "$tmp/model-lru.csv" list kernel),$(model_csv "$tmp/model-lru.csv" list host_id),$(model_csv "$tmp/model-lru.csv" list version)"
}
{
	echo "source,walk,label,timed,ns_per_page,ns_per_folio,speedup,pages,lru_fraction,memory_bytes,folios,access,ranges,lru_path,cgroup,load_before,load_after,lost,kernel,host_id,version"
	row kernel physical "Physical (kernel)" "$pfn_n" "$pfn" "" 1
	[ "$lru_n" -lt "$min_events" ] || row kernel list "ListLRU (kernel)" "$lru_n" "$lru" "$lru" "${x:-}"
	row model physical "Physical (model)" 1 "$m_pfn" "" 1
	row model list "ListLRU (model)" 1 "$m_lru" "$m_lru" "${mx:-}"
} >"$tmp/out.csv"
stdout_put "$tmp/out.txt"
[ -z "$csv" ] || output_put "$tmp/out.csv" "$csv"
if [ "$pfn_n" -lt "$min_events" ] || [ "$lru_n" -lt "$min_events" ]; then
	fail "too few timed events (see above)"
fi
if [ -z "$share" ] && [ "$(fig pfn_ended_early)" -gt 0 ]; then
	fail "no kernel ratio: compaction isolated folios in $(fig pfn_events) timed ranges, $min_events wanted; $(fig pfn_ended_early) of $pass passes ended early (status=contended: migrate_pages() found no free page as large as a folio to move), the last at pfn $(calc "$(fig pfn_stop)" 0x%x)"
fi
[ -n "$share" ] || fail "no kernel ratio: compaction isolated folios in $(fig pfn_events) timed ranges, $min_events wanted"
