#!/bin/sh
# kernel.sh: the kernel's own scanners timed from a trace.  The parsing
# of a recorded excerpt into the figures a hand computation gives; the
# refusals; the cleanup after a signal, where root, tracefs and a memory
# cgroup allow it.
. tests/lib.sh

# kernel.trace (tests/kernel-trace.txt, with its raw twin .raw): 76
# events recorded on Linux 6.18 (x86-64, cgroup v1) by kernel.sh -k, a
# piece of reclaim and a piece of compaction, and 3 from another run
# where a zone's compaction ended early (mm_migrate_pages,
# mm_compaction_migratepages, mm_compaction_end status=contended at
# migrate_pfn=0x109840 = 1087552).  By hand, from the raw
# timestamps (ns):
#   LRU scanner: four batches of 32 follow an mm_vmscan_lru_shrink_inactive
#   directly: 350739-341902 = 8837, 385946-378191 = 7755,
#   404862-395394 = 9468, 424119-414400 = 9719 ns; over 32 folios
#   242.34, 276.16, 295.88, 303.72; median (276.15625 + 295.875) / 2 =
#   286.0156 (quartiles, interpolated: 267.70 and 297.84); 128 folios.
#   Left out: the batches after a reclaim call's start (event 2) or a
#   slab shrink (6, 14), and the partial batches of 1 and 3 (10, 22): 5.
#   pfn scanner: the two ranges that took folios follow
#   mm_compaction_finished: 112436-102497 = 9939 ns over 0x101c32-0x101c00
#   = 50 pfns, 198.78; 309761-270677 = 39084 ns over 0x101e00-0x101c32 =
#   462 pfns, 84.60; median 141.69, 512 pfns, 400 pages taken.  Of the
#   13 others, 12 are timed (one starts at 0x101400, not at 0x101200
#   where the one before ended: left out); the middle two of the 14
#   timed are 2114 and 2164 ns over 512 pfns: (4.1289 + 4.2266) / 2 =
#   4.1777.
figures() {	# figures AWK: the raw twin named in ENVIRON, as kernel.sh does
	# shellcheck disable=SC2086 # AWK may be a command and its argument
	raw=tests/kernel-trace.raw $1 -f scripts/lib.awk -f scripts/stats.awk -f scripts/kernel.awk \
		tests/kernel-trace.txt >"$tmp/figures" 2>"$tmp/err"
}
is() {	# is KEY VALUE: the figure, to 2 decimals
	got=$(awk -v k="$1" '$1 == k { printf "%.2f", $2 }' "$tmp/figures")
	[ "$got" = "$2" ] || { echo "#   $1: $got, want $2"; return 1; }
}
for a in awk mawk gawk "busybox awk"; do
	have "${a%% *}" || continue
	[ "$a" != "busybox awk" ] || busybox awk 'BEGIN { }' 2>/dev/null || continue
	check "kernel.awk ($a): reads the recorded excerpt" figures "$a"
	check "kernel.awk ($a): LRU scanner 286.02 ns/folio, 4 batches, 128 folios, 5 left out" \
		eval 'is lru_median 286.02 && is lru_events 4.00 && is lru_folios 128.00 &&
			is lru_left_out 5.00 && is lru_q1 267.70 && is lru_q3 297.84'
	check "kernel.awk ($a): pfn scanner 141.69 ns/pfn over 2 ranges that took 400 of 512 pfns" \
		eval 'is pfn_median 141.69 && is pfn_events 2.00 && is pfn_pfns 512.00 && is pfn_taken 400.00'
	check "kernel.awk ($a): every timed range: 14, median 4.18 ns/pfn, 1 left out" \
		eval 'is pfn_all_events 14.00 && is pfn_all_median 4.18 && is pfn_all_pfns 6656.00 &&
			is pfn_left_out 1.00'
	check "kernel.awk ($a): one zone's compaction ended early, at pfn 0x109840" \
		eval 'is pfn_ended_early 1.00 && is pfn_stop 1087552.00'
	check "kernel.awk ($a): the ranges that took folios, merged: 0x101c00 to 0x101e00" \
		grep -qx 'took 1055744 1056256' "$tmp/figures"
done

# a raw file that stops short is an error, not a shorter figure
head -n 40 tests/kernel-trace.raw >"$tmp/short.raw"
raw=$tmp/short.raw awk -f scripts/lib.awk -f scripts/stats.awk -f scripts/kernel.awk \
	tests/kernel-trace.txt >"$tmp/figures" 2>"$tmp/err"
check "kernel.awk: a raw twin with fewer events: exit 1, says so" \
	sh -c "[ $? -eq 1 ] && grep -q 'fewer events' '$tmp/err'"

# usage errors come before anything else
ks=scripts/kernel.sh
for a in "-m abc" "-m 1M" "-m 4097" "-m 2048G" "-m 17179869185G" "-x" "-o" "-d"; do
	# shellcheck disable=SC2086 # a is a word list
	check "kernel.sh $a: usage error" refused 2 sh $ks $a
done
check "kernel.sh -h: the usage" sh -c "sh $ks -h | grep -q '^usage: sudo scripts/kernel.sh'"

# the options' values are checked first, root or not: one line, exit 1
mkdir "$tmp/kept"
check "kernel.sh -d a directory not there: exit 1, one line" refused 1 sh $ks --check -d "$tmp/none"
check "kernel.sh -d a directory not there: says so" err_has 'none: no such directory'
check "kernel.sh -o a directory: exit 1, one line" refused 1 sh $ks --check -o "$tmp"
check "kernel.sh -k a directory there: exit 1, one line" refused 1 sh $ks --check -k "$tmp/kept"
check "kernel.sh -k a directory there: says so" err_has 'kept exists: give a new directory'
check "kernel.sh -k in a directory not there: exit 1, one line" refused 1 sh $ks --check -k "$tmp/none/kept"

# not root: one line, exit 1
if [ "$(id -u)" -ne 0 ]; then
	check "kernel.sh as a user: exit 1, one line" refused 1 sh $ks
	check "kernel.sh as a user: says it needs root" err_has 'needs root'
elif have setpriv && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	check "kernel.sh as nobody: exit 1, one line" \
		refused 1 setpriv --reuid=65534 --regid=65534 --clear-groups sh $ks
	check "kernel.sh as nobody: says it needs root" err_has 'needs root'
else
	skip "kernel.sh as a user" "root here, and no setpriv to drop it"
fi

# no tracefs (SCAN_TRACEFS names a directory without one): as root only,
# since a user is refused first
if [ "$(id -u)" -eq 0 ]; then
	mkdir "$tmp/notrace"
	check "kernel.sh with no tracefs: exit 1, one line" \
		refused 1 env SCAN_TRACEFS="$tmp/notrace" sh $ks
	check "kernel.sh with no tracefs: names the config" err_has "no tracefs at .*notrace \\(CONFIG_TRACING"
else
	skip "kernel.sh with no tracefs" "not root: refused before tracefs is looked at"
fi

# --check: every check, then a plan and exit 0; nothing made or
# measured (its cgroup and trace instance would be named after its pid).
# check_only: it ran, and nothing it names is there, no scratch left.
check_only() {
	mkdir "$tmp/tmpdir-check"
	TMPDIR=$tmp/tmpdir-check run_cmd sh $ks --check -m 64M
	[ "$rc" -eq 0 ] && [ ! -s "$tmp/out" ] && err_has '^kernel.sh: --check: it can run here' || return 1
	grep -o '(/[^)]*/scan-kernel-[0-9]*)' "$tmp/err" | tr -d '()' >"$tmp/named"
	[ "$(grep -c '' "$tmp/named")" -eq 2 ] || { echo "#   names no cgroup and trace instance"; return 1; }
	while read -r left; do
		[ ! -e "$left" ] || { echo "#   left $left"; return 1; }
	done <"$tmp/named"
	[ -z "$(find "$tmp/tmpdir-check" -mindepth 1)" ] || { echo "#   left a scratch directory"; return 1; }
}

# A signal midway: exit 128+N, and nothing of its own left behind.
# cgroup_dir: where its cgroup goes, or nothing where none can.
cgroup_dir() {
	if [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
		echo /sys/fs/cgroup
	elif [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
		echo /sys/fs/cgroup/memory
	fi
}
cgroot=$(cgroup_dir)
tracing=/sys/kernel/tracing
# stop_midway SIGNAL STATUS: run it, wait for its trace instance, signal
# it, then look for what it made.
stop_midway() {
	mkdir -p "$tmp/scratch-$1" "$tmp/tmpdir-$1"
	TMPDIR="$tmp/tmpdir-$1" env --default-signal=INT sh $ks -m 64M -d "$tmp/scratch-$1" \
		>"$tmp/out" 2>"$tmp/err" &
	pid=$!
	i=0
	while [ ! -d "$tracing/instances/scan-kernel-$pid" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -s "$1" "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" -eq "$2" ] || { echo "#   exit $rc, want $2"; return 1; }
	grep -q 'interrupted; removed what it made' "$tmp/err" || return 1
	for left in "$cgroot/scan-kernel-$pid" "$tracing/instances/scan-kernel-$pid"; do
		[ ! -e "$left" ] || { echo "#   left $left"; return 1; }
	done
	find "$tmp/scratch-$1" "$tmp/tmpdir-$1" -mindepth 1 >"$tmp/left"
	[ ! -s "$tmp/left" ] || { sed 's/^/#   left /' "$tmp/left"; return 1; }
}
if [ "$(id -u)" -ne 0 ]; then
	skip "kernel.sh --check" "not root"
elif [ ! -d "$tracing/instances" ] || [ -z "$cgroot" ] || [ ! -w /proc/sys/vm/compact_memory ] ||
    [ "$(stat -f -c %T /var/tmp)" = tmpfs ]; then
	skip "kernel.sh --check" "no tracefs at $tracing, no memory cgroup, no compaction, or /var/tmp on tmpfs"
else
	check "kernel.sh --check: exit 0 and its plan; no cgroup, trace instance or scratch made" check_only
fi
if [ "$(id -u)" -ne 0 ]; then
	skip "kernel.sh stopped midway" "not root"
elif [ ! -d "$tracing/instances" ] || [ -z "$cgroot" ]; then
	skip "kernel.sh stopped midway" "no tracefs at $tracing or no memory cgroup"
elif [ "$(stat -f -c %T "$tmp")" = tmpfs ] || ! env --default-signal=INT true 2>/dev/null; then
	skip "kernel.sh stopped midway" "$tmp is on tmpfs, or env has no --default-signal"
else
	check "kernel.sh SIGTERM midway: exit 143, its cgroup, trace instance and files gone" stop_midway TERM 143
	check "kernel.sh SIGINT midway: exit 130, its cgroup, trace instance and files gone" stop_midway INT 130
fi
