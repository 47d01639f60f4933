#!/bin/sh
#/ snapshot.sh - save what a physical scanner would see on this machine:
#/ /proc/kpageflags and /proc/kpagecgroup, with the machine's facts.
#/
#/ usage: sudo scripts/snapshot.sh [-h] [-o DIR] [-p START:COUNT]
#/        scripts/snapshot.sh --summary KPAGEFLAGS [KPAGECGROUP]
#/
#/ Writes DIR (default snapshot-HOST-DATE) with kpageflags, kpagecgroup
#/ (when readable) and facts (kernel, RAM, THP policy, date, CPU), then
#/ prints the composition of the pfns saved: LRU folios by order (a
#/ COMPOUND_HEAD and the COMPOUND_TAIL pages after it), LRU pages, free
#/ pages (BUDDY: a 6.18 kernel marks every page of a free block, older
#/ ones its head), slab, page tables, holes (NOPAGE) and the rest; with
#/ kpagecgroup, the memcgs holding the most LRU folios, by inode (the
#/ value for scan --memcg=INODE) and, live, their cgroup directory.
#/
#/   -o DIR           the directory to make (it must not exist yet); it
#/                    appears whole or not at all
#/   -p START:COUNT   save COUNT pfns from pfn START (dd, 8 bytes a pfn),
#/                    for a machine larger than the one that will replay
#/                    it; every one of them must exist here
#/   --summary KPAGEFLAGS [KPAGECGROUP]
#/                    print the composition of saved files (regular files
#/                    of whole 8-byte pfns, the same pfns in both)
#/   -h               this help
#/
#/ Reading the live files needs root.  Exit status: 0 done; 2 a usage
#/ error (one line); 1 anything else, with DIR not left behind.
set -eu
case $0 in */*) env=${0%/*}/scan-env.sh ;; *) env=./scan-env.sh ;; esac	# traps, $scan, run_awk, usage, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

# composition FILE [CGROUPS]: one line per kind of pfn, from the 64-bit
# flags, then the top memcgs by LRU folios from CGROUPS (the same pfns'
# inodes: od prints both files alike, a line of one for a line of the
# other).  Bits (include/uapi/linux/kernel-page-flags.h): 5 LRU, 7 SLAB,
# 10 BUDDY, 15 COMPOUND_HEAD, 16 COMPOUND_TAIL, 20 NOPAGE, 26 PGTABLE.
composition() {
	operand "$1"
	flags=$operand cgroups=""
	if [ -n "${2:-}" ]; then
		operand "$2"
		cgroups=$tmp/cgroups
		rm -f "$cgroups"
		mkfifo "$cgroups" || fail "cannot make a FIFO in TMPDIR (${TMPDIR:-/tmp})"
		od -An -v -t u8 "$operand" >"$cgroups" &
		od_cgroups=$!
	fi
	rm -f "$tmp/flags"
	mkfifo "$tmp/flags" || fail "cannot make a FIFO in TMPDIR (${TMPDIR:-/tmp})"
	od -An -v -t u8 "$flags" >"$tmp/flags" &
	od_flags=$!
	rc=0
	cgroups=$cgroups run_awk snapshot "$tmp/flags" || rc=$?
	if [ "$rc" -ne 0 ]; then	# an od left waiting for its reader
		kill "$od_flags" 2>/dev/null
		[ -z "$cgroups" ] || kill "$od_cgroups" 2>/dev/null
	fi
	# od's status, not only awk's: a crashed od is a summary cut short
	wait "$od_flags" || fail "cannot read $1 (od exited $?)"
	[ -z "$cgroups" ] || wait "$od_cgroups" || fail "cannot read $2 (od exited $?)"
	[ "$rc" -eq 0 ] || fail "cannot summarize $1 (awk exited $rc)"
}

# cgroup_dirs: after each "memcg INODE:" line, the memory cgroup with
# that inode, where this machine has one (the live snapshot's).
cgroup_dirs() {
	while IFS= read -r line; do
		case $line in
		"memcg "*)
			ino=${line#memcg }
			ino=${ino%%:*}
			d=$(find /sys/fs/cgroup -maxdepth 6 -type d -inum "$ino" 2>/dev/null | awk 'NR == 1')
			[ -z "$d" ] || line="$line ($d)" ;;
		esac
		printf '%s\n' "$line"
	done
}



# pfn_file FILE: the pfns in FILE, a regular file of whole 8-byte
# entries (/dev/zero or a FIFO would never end; 7 bytes is no pfn).
pfn_file() {
	if [ ! -f "$1" ] || [ ! -r "$1" ]; then
		fail "cannot read $1 (not a readable regular file)"
	fi
	bytes=$(file_bytes "$1")
	[ "$bytes" -gt 0 ] || fail "$1 is empty: no pfns"
	[ $((bytes % 8)) -eq 0 ] || fail "$1 is $bytes bytes, not a whole number of 8-byte pfns"
	# 16 GiB is an 8 TiB machine's pfns; more is no kpageflags (a sparse
	# file?) and would take hours to read
	[ "$bytes" -le 17179869184 ] || fail "$1 is $bytes bytes, over the 16 GiB of an 8 TiB machine's pfns"
	echo $((bytes / 8))
}

# say FILE: FILE on stdout as plain text, or a line and exit 1 when stdout
# is closed or full.
say() {
	run_awk plain-lines "$1" >"$tmp/out" || { scratch_ok; exit 1; }
	stdout_put "$tmp/out" "the summary"
}

# summary KPAGEFLAGS [KPAGECGROUP]: the composition of saved files.
summary() {
	nr=$(pfn_file "$1") || exit 1
	if [ -n "${2:-}" ]; then
		nr_cg=$(pfn_file "$2") || exit 1
		[ "$nr_cg" -eq "$nr" ] ||
			fail "$2 holds $nr_cg pfns and $1 $nr: not the same pfns"
	fi
	composition "$1" "${2:-}"
}

# parse_window START:COUNT: sets start and count, or a usage error.
# Up to 15 digits each, no leading zeros: dd reads them as decimal and
# START * 8 stays well inside 64 bits.
parse_window() {
	start=${1%%:*} count=${1#*:}
	case $1 in *:*) ;; *) count="" ;; esac
	for v in "$start" "$count"; do
		case $v in
		'' | *[!0-9]* | 0?* | ????????????????*)
			usage_error "-p '$1': give START:COUNT, whole numbers of pfns up to 15 digits" ;;
		esac
	done
	[ "$count" -gt 0 ] || usage_error "-p '$1': COUNT must be at least 1"
}

dir="" window=""
case ${1:-} in
--summary)
	[ $# -eq 2 ] || [ $# -eq 3 ] || usage_error "--summary takes KPAGEFLAGS [KPAGECGROUP]"
	scratch
	summary "$2" "${3:-}" >"$tmp/summary"
	say "$tmp/summary"
	exit 0 ;;
esac
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-o) [ -n "${2:-}" ] || usage_error "-o needs a directory"; dir=$2; shift ;;
	-p) [ $# -ge 2 ] || usage_error "-p needs START:COUNT"; parse_window "$2"; window=$2; shift ;;
	--summary) usage_error "--summary comes first, alone" ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
	shift
done
[ -r /proc/kpageflags ] || fail "cannot read /proc/kpageflags (root?)"
dir=${dir:-snapshot-$(uname -n)-$(date +%Y%m%d-%H%M%S)}
dir=${dir%/}
[ ! -e "$dir" ] || fail "$dir exists: give a new directory"

# The work goes into a directory beside DIR, renamed to DIR once whole;
# any stop before that removes it.  Making it is the check that DIR can
# be written, before anything is read.
scratch
case $dir in -*) dir=./$dir ;; esac	# no option to mkdir and mv
part=$(mktemp -d "$dir.XXXXXX" 2>/dev/null) ||
	fail "cannot make $dir (is $(dirname -- "$dir") there and writable?)"
remove_part() {
	[ -z "$part" ] || rm -rf "$part"
}
at_exit=remove_part

# save SRC DST: the whole file, or the -p window of it, all of it there.
save() {
	if [ -z "$window" ]; then
		why=$(cat "$1" 2>&1 >"$2") || fail "cannot save $1 in $dir: $why"
		return
	fi
	why=$(dd if="$1" of="$2" bs=8 skip="$start" count="$count" 2>&1) ||
		fail "cannot save $1 in $dir: $(printf '%s\n' "$why" | grep -v records | awk 'NR == 1')"
	got=$(($(file_bytes "$2") / 8))
	[ "$got" -eq "$count" ] ||
		fail "-p $window: $1 has $got of those pfns on this machine, not $count"
}
save /proc/kpageflags "$part/kpageflags"
[ ! -r /proc/kpagecgroup ] || save /proc/kpagecgroup "$part/kpagecgroup"
why=$({
	echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "kernel $(uname -srm)"
	echo "cpu $(awk 'sub(/^model name[^:]*: /, "") { print; exit }' /proc/cpuinfo)"
	echo "ram_kib $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)"
	echo "thp $(awk 'match($0, /\[[a-z]*\]/) { print substr($0, RSTART + 1, RLENGTH - 2) }' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
	echo "pfns ${window:-all}"
} 2>&1 >"$part/facts") || fail "cannot save the facts in $dir: $why"
[ ! -e "$dir" ] || fail "$dir exists: give a new directory"
mv -- "$part" "$dir" 2>/dev/null || fail "cannot rename $part to $dir"
part=""
say_line "$me: saved $dir"
cgroups=""
[ ! -r "$dir/kpagecgroup" ] || cgroups=$dir/kpagecgroup
composition "$dir/kpageflags" "$cgroups" | cgroup_dirs >"$tmp/summary"
say "$tmp/summary"
