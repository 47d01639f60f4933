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
#/ -p saves a window of COUNT pfns from START (dd, 8 bytes a pfn), for a
#/ machine larger than the one that will replay it.  --summary prints the
#/ composition of saved files.  Reading the live files needs root.
set -eu
env=$(dirname "$0")/scan-env.sh	# usage, $scan, $awk, $awklib, need_scan, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

# composition FILE [CGROUPS]: one line per kind of pfn, from the 64-bit
# flags, then the top memcgs by LRU folios from CGROUPS (the same pfns'
# inodes: od prints both files alike, a line of one for a line of the
# other).  Bits (include/uapi/linux/kernel-page-flags.h): 5 LRU, 7 SLAB,
# 10 BUDDY, 15 COMPOUND_HEAD, 16 COMPOUND_TAIL, 20 NOPAGE, 26 PGTABLE.
composition() {
	od -An -v -t u8 "$1" | awk -v cgroups="${2:-}" '
	function bit(v, b) { return int(v / 2 ^ b) % 2 }
	BEGIN { cmd = "od -An -v -t u8 \"" cgroups "\"" }
	{
		if (cgroups != "" && (cmd | getline line) > 0)
			split(line, cg, " ")
		for (i = 1; i <= NF; i++) {
			v = $i + 0
			n++
			if (bit(v, 16)) {	# a tail: of the open LRU folio, or not
				if (inlru) { size++; lrupages++ } else offtails++
				continue
			}
			if (inlru)
				close_folio()
			if (bit(v, 20)) holes++
			else if (bit(v, 5)) { inlru = 1; size = 1; lrupages++; memcg = cg[i] + 0 }
			else if (bit(v, 10)) free++
			else if (bit(v, 7)) slab++
			else if (bit(v, 26)) pgtable++
			else other++
		}
	}
	function close_folio(    k) {
		for (k = 0; 2 ^ k < size; k++)
			;
		folios[k]++; nfolios++; inlru = 0
		if (cgroups != "") { infolios[memcg]++; inpages[memcg] += size }
	}
	END {
		if (inlru) close_folio()
		printf "pfns %d\n", n
		printf "LRU: %d folios, %d pages (%.2f%% of pfns)\n", nfolios, lrupages, n ? 100 * lrupages / n : 0
		for (k = 0; k <= 10; k++)
			if (folios[k])
				printf "  order %d: %d folios\n", k, folios[k]
		printf "free (BUDDY pages): %d\n", free
		printf "slab: %d, page tables: %d, holes: %d, other: %d, tails off the LRU: %d\n",
		    slab, pgtable, holes, other, offtails
		for (shown = 0; shown < 5; shown++) {	# the top five memcgs
			best = ""
			for (m in infolios)
				if (best == "" || infolios[m] > infolios[best])
					best = m
			if (best == "")
				break
			printf "memcg %d: %d LRU folios, %d pages\n", best, infolios[best], inpages[best]
			delete infolios[best]
		}
	}'
}

# cgroup_dirs: after each "memcg INODE:" line, the memory cgroup with
# that inode, where this machine has one (the live snapshot's).
cgroup_dirs() {
	while IFS= read -r line; do
		case $line in
		"memcg "*)
			ino=${line#memcg }
			ino=${ino%%:*}
			d=$(find /sys/fs/cgroup -maxdepth 6 -type d -inum "$ino" 2>/dev/null | head -n 1)
			[ -z "$d" ] || line="$line ($d)" ;;
		esac
		printf '%s\n' "$line"
	done
}

dir="" window=""
case ${1:-} in
-h | --help) usage; exit 0 ;;
--summary)
	[ $# -eq 2 ] || [ $# -eq 3 ] || { usage >&2; exit 2; }
	for f in "$2" "${3:-$2}"; do
		[ -r "$f" ] || { echo "snapshot.sh: cannot read $f" >&2; exit 1; }
	done
	composition "$2" "${3:-}"
	exit 0 ;;
esac
while [ $# -gt 0 ]; do
	case $1 in
	-o) [ $# -ge 2 ] || { usage >&2; exit 2; }; dir=$2; shift ;;
	-p) [ $# -ge 2 ] || { usage >&2; exit 2; }; window=$2; shift ;;
	*) usage >&2; exit 2 ;;
	esac
	shift
done
[ -r /proc/kpageflags ] || { echo "snapshot.sh: cannot read /proc/kpageflags (root?)" >&2; exit 1; }
dir=${dir:-snapshot-$(uname -n)-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$dir"

save() {	# save SRC DST: the whole file, or the -p window of it
	if [ -z "$window" ]; then
		cat "$1" >"$2"
		return
	fi
	start=${window%%:*} count=${window#*:}
	case $start$count in
	*[!0-9]*) echo "snapshot.sh: -p $window: not START:COUNT" >&2; exit 2 ;;
	esac
	dd if="$1" of="$2" bs=8 skip="$start" count="$count" 2>/dev/null
}
save /proc/kpageflags "$dir/kpageflags"
[ ! -r /proc/kpagecgroup ] || save /proc/kpagecgroup "$dir/kpagecgroup"
{
	echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "kernel $(uname -srm)"
	echo "cpu $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)"
	echo "ram_kib $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)"
	echo "thp $(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
	echo "pfns ${window:-all}"
} >"$dir/facts"
echo "snapshot.sh: saved $dir" >&2
cgroups=""
[ ! -r "$dir/kpagecgroup" ] || cgroups=$dir/kpagecgroup
composition "$dir/kpageflags" "$cgroups" | cgroup_dirs
