#!/bin/sh
#/ explain.sh - the way from the original's ratios to the kernel's, one
#/ knob at a time.
#/
#/ usage: scripts/explain.sh [-h] [-c N] [-n N] [-o FILE.csv] [-g FILE.svg]
#/                           [--walk=array|pagetable] [--kernel=FILE.csv]
#/                           [SCAN_OPTION...]
#/
#/ Runs scan once per step, each step adding one thing to the last:
#/
#/   1 original            --original, the 2023 protocol
#/   2 rounds/cold cache   scan's protocol (--memmap-thp=system)
#/   3 2 MiB memmap        the defaults
#/   4 LRU share/layout    + --lru-fraction and --non-lru
#/   5 folio mix           + --folios
#/   6 locality            + --locality
#/   7 lists/chunks        + --lists and --chunk
#/   8 isolate             + --access
#/   9 rmap (kernel-like)  + --rmap: every --kernel-like value
#/  10 real memmap         with --memmap-from=FILE: the file's layout
#/                         with the preset's LRU order and work
#/  11 memcg target        with --memcg-share=F: + a memcg holding F of
#/                         the LRU folios, as memcg limit reclaim sees it;
#/                         or with --memcg=INODE [--memcg-from=FILE] and
#/                         --memmap-from, that memcg of the file
#/  12 kernel (measured)   the kernel's own ratio, ListLRU only, with its
#/                         working set and host, from scan-kernel -o's
#/                         --kernel=FILE.csv; not a run of scan
#/
#/ --walk=pagetable sets MGLRU's page-table walk beside ListLRU in place
#/ of ArrayLRU (every step from 2 runs --walks=list,pagetable; the
#/ original had no such walk, so step 1 has none), and after the last
#/ step run adds its knobs, each from scan's default to --kernel-like's
#/ value, a line under the table giving the value's source:
#/
#/     mapped share      + --mapped (default 1: every LRU folio mapped)
#/     young share       + --young (default 1: every mapped PTE young)
#/     PTE adjacency     + --pte-adjacent (default 0)
#/
#/ The values are --kernel-like's, read from scan itself (-v).  Prints a
#/ table within 72 columns: both ratios, their range over rounds and the
#/ change from the step before; a ! after a step's name marks scan's
#/ warnings (the codes in its CSV's warnings column), a footnote under
#/ the table gives each, most important first, with its steps and scan's
#/ line.  Where scan counted them (a CPU whose PMU it may use), a second
#/ table gives each step's LLC/dTLB read misses a page or folio (- for
#/ one not counted).  -c is scan's size
#/ (default 4); with --memmap-from, every step runs the file's size
#/ (its pfns, or --pfns's count), and a -c that differs is refused.
#/ -n N runs N processes a step, interleaved (every step once, then
#/ again): the table gives their median and range, the CSV a run column
#/ (1..N).  -o keeps every step's CSV rows (a step column first, run
#/ last); -g draws an SVG waterfall of the ListLRU and
#/ ArrayLRU (or PageTable) ratios, log axis, 1x marked, the machine in
#/ its title.  Both
#/ are checked before the first run and written whole or not at all.
#/ Further options go to every step, after explain.sh's own (e.g. -s 5,
#/ -t 2; not those --original refuses, such as -r).  --memcg=INODE needs
#/ --memmap-from (scan says why when it refuses a step).  --kernel's last
#/ step (numbered after the last step run) is read from the CSV's row
#/ source=kernel, walk=list, column speedup; where that is empty, there
#/ is no bar, and a line says why; a CSV from another host than this
#/ run's is noted.  SCAN names the binary (default ./scan).
set -eu
case $0 in */*) env=${0%/*}/scan-env.sh ;; *) env=./scan-env.sh ;; esac	# traps, $scan, run_awk, usage, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

size=4 sized="" runs=1 csv="" svg="" file="" second=array	# second: the walk beside ListLRU
memcg_share="" memcg_ino="" memcg_from=""	# each a whole --memcg... word
measured=""	# --kernel's FILE.csv
need_arg() {	# need_arg OPTION COUNT: the option has its value
	[ "$2" -ge 2 ] || usage_error "$1 needs a value"
}
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-c) need_arg "$1" $#
		decimal "$2" || usage_error "-c '$2': give a positive decimal, millions of pages (e.g. 0.5)"
		size=$2 sized=1; shift ;;
	-n) need_arg "$1" $#; whole -n "$2"; runs=$2; shift ;;
	-o) need_arg "$1" $#; csv=$2; shift; [ -n "$csv" ] || usage_error "-o '': give a file name" ;;
	-g) need_arg "$1" $#; svg=$2; shift; [ -n "$svg" ] || usage_error "-g '': give a file name" ;;
	--memmap-from=?*) file=${1#--memmap-from=} ;;
	--memcg-share=?*) memcg_share=$1 ;;
	--memcg=?*) memcg_ino=$1 ;;
	--memcg-from=?*) memcg_from=$1 ;;
	--kernel=?*) measured=${1#--kernel=} ;;
	--kernel=) usage_error "--kernel='': give scan-kernel's CSV (its -o)" ;;
	--walk=array | --walk=pagetable) second=${1#--walk=} ;;
	--walk*) usage_error "$1: give --walk=array or --walk=pagetable" ;;
	*) break ;;
	esac
	shift
done
memcg=$memcg_share$memcg_ino$memcg_from
need_scan explain.sh
[ -z "$svg" ] || need_math explain.sh	# before the runs, not after
[ -z "$csv" ] || output_ok "$csv"
[ -z "$svg" ] || output_ok "$svg"
if [ -n "$measured" ]; then
	[ "$measured" != - ] || usage_error "--kernel=-: give a file, not stdin"
	input_ok "$measured"
	[ "$(file_bytes "$measured")" -le 65536 ] ||
		fail "cannot read $measured: over 64 KiB, not scan-kernel's CSV (five to seven lines)"
fi
scratch
# --kernel's CSV: copied (awk reads the copy, so no name of the user's is
# special to it), checked before the runs
kernel_csv=""
if [ -n "$measured" ]; then
	kernel_csv=$tmp/kernel.csv
	cp -- "$measured" "$kernel_csv" 2>/dev/null || { scratch_ok; fail "cannot read $measured"; }
	kernel_csv=$kernel_csv kernel_name=$measured kernel_check=1 run_awk explain-kernel </dev/null ||
		exit 1
fi

# said FILE: what a failed scan said, or that it said nothing
said() {
	line=$(grep -m 1 '^scan: ' "$1" || grep -m 1 . "$1" || true)
	[ -n "$line" ] || scratch_ok
	echo "${line:-it printed nothing (exit status $rc)}"
}

# --kernel-like's values, as scan applies them
rc=0
"$scan" -c 0.001 -r 1 --kernel-like -v "$@" >"$tmp/preset" 2>&1 || rc=$?
# exit 2 there is scan refusing the options given: a usage error here too
[ "$rc" -ne 2 ] || usage_error "scan refused the options: $(said "$tmp/preset")"
[ "$rc" -eq 0 ] || fail "scan --kernel-like -v failed: $(said "$tmp/preset")"
preset=$(awk 'sub(/^--kernel-like set: /, "")' "$tmp/preset")
knob() {	# knob NAME...: the preset's --NAME=VALUE words (scan's own)
	set -f
	for name in "$@"; do
		for word in $preset; do
			case $word in --"$name"=*) printf ' %s' "$word" ;; esac
		done
	done
	set +f
}

# The steps, a line each: number|name|the preset's words|what it adds
# of the user's (file: --memmap-from=FILE; memcg: the --memcg options).
# The user's values are never in this file: they stay words.
steps="$tmp/steps"
: >"$tmp/sources"	# --walk=pagetable: STEP|--KNOB=VALUE|its source
{
	echo "1|original|--original|"
	echo "2|rounds/cold cache|--memmap-thp=system|"
	echo "3|2 MiB memmap||"
	# steps 4-9: the preset's knobs, a group at a time, each on the last
	opts="" n=3
	while IFS='|' read -r name knobs; do
		n=$((n + 1))
		# shellcheck disable=SC2086 # knobs is a list of names
		opts="$opts$(knob $knobs)"
		echo "$n|$name|$opts|"
	done <<-'EOF'
	LRU share/layout|lru-fraction non-lru
	folio mix|folios
	locality|locality
	lists/chunks|lists chunk
	isolate|access
	rmap (kernel-like)|rmap
	EOF
	last="$opts|"
	if [ -n "$file" ]; then
		last="$(knob locality lists chunk access rmap)|file"
		echo "10|real memmap|$last"
	fi
	n=$((n + 1))
	[ -z "$file" ] || n=$((n + 1))
	if [ -n "$memcg" ]; then
		echo "$n|memcg target|$last memcg"
		last="$last memcg" n=$((n + 1))
	fi
	# --walk=pagetable: its knobs, a step each, on the last step run
	if [ "$second" = pagetable ]; then
		pt_knobs=${last%%|*} pt_uses=${last#*|}
		while IFS='|' read -r name knobs source; do
			# shellcheck disable=SC2086 # knobs is a list of names
			pt_knobs="$pt_knobs$(knob $knobs)"
			echo "$n|$name|$pt_knobs|$pt_uses"
			# shellcheck disable=SC2086 # knobs is a list of names
			echo "$n|$(knob $knobs)|$source" >>"$tmp/sources"
			n=$((n + 1))
		done <<-'EOF'
		mapped share|mapped|anonymous and mapped file folios against unmapped page cache, the same half as --rmap's; an assumption, not a measurement
		young share|young|a hot tenth of the mapped memory between two aging walks; an assumption, no published figure (lru_gen_full's young and total PTE counts measure it: scan-kernel reads them where the kernel has CONFIG_LRU_GEN)
		PTE adjacency|pte-adjacent|runs of 8 pfn-adjacent folios in virtual order, as --locality=8 in LRU order: one process's faults take a per-CPU batch of pages in pfn order
		EOF
	fi
} >"$steps"
nsteps=$(grep -c . "$steps")

step() {	# step N NAME KNOBS USES RUN [SCAN_OPTION...]: run scan, keep its rows
	n=$1 name=$2 knobs=$3 uses=$4 run=$5
	shift 5
	# the step's own words after "$@", then "$@" (the user's) moved last
	k=$#
	case $uses in *file*) ;; *) set -- "$@" -c "$size" ;; esac	# a replay: the file's size
	set -f
	# shellcheck disable=SC2086 # scan's own words, never globbed
	set -- "$@" $knobs
	set +f
	case $uses in *file*) set -- "$@" "--memmap-from=$file" ;; esac
	case $uses in *memcg*)
		for m in "$memcg_share" "$memcg_ino" "$memcg_from"; do
			[ -z "$m" ] || set -- "$@" "$m"
		done ;;
	esac
	# the original fixes its walks; every other step times PageTable too
	[ "$second" != pagetable ] || [ "$n" -eq 1 ] || set -- "$@" --walks=list,pagetable
	set -- "$@" --format=csv
	while [ "$k" -gt 0 ]; do
		set -- "$@" "$1"
		shift
		k=$((k - 1))
	done
	with=$knobs
	[ "$second" != pagetable ] || [ "$n" -eq 1 ] || with="$with --walks=list,pagetable"
	case $uses in *file*) with="$with --memmap-from=$file" ;; esac
	case $uses in *memcg*) with="$with $memcg_share $memcg_ino $memcg_from" ;; esac
	rc=0
	"$scan" "$@" >"$tmp/run" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 0 ] || fail "step $n ($name): $(said "$tmp/err")"
	awk -v n="$n" '/^scan: warning: / { print n "|" $0 }' "$tmp/err" >>"$tmp/warnings"
	head=$tmp/head opts=$with run_awk explain-step -F, -v OFS=, -v n="$n" \
	    -v name="$name" -v run="$run" \
	    "$tmp/run" >"$tmp/step.$n.$run" || { scratch_ok; exit 1; }
	if [ "$runs" -eq 1 ]; then
		echo "explain.sh: step $n of $nsteps done" >&2
	else
		echo "explain.sh: step $n of $nsteps done, run $run of $runs" >&2
	fi
}

: >"$tmp/warnings"
if [ -n "$file" ]; then	# the replay first: its pfns are every step's size
	IFS='|' read -r n name knobs uses <<-EOF
	$(grep '^10|' "$steps")
	EOF
	step 10 "$name" "$knobs" "$uses" 1 "$@"
	pages=$(column=pages run_awk first-row -F, "$tmp/run")
	if [ -n "$sized" ] && ! awk -v c="$size" -v p="$pages" 'BEGIN { exit !(c * 1e6 == p) }'; then
		say_line "explain.sh: -c $size is not $file's size ($pages pfns): drop -c, every step runs the file's"
		exit 2
	fi
	size=$(awk -v p="$pages" 'BEGIN { printf "%.6f", p / 1e6 }')
fi
run=1
while [ "$run" -le "$runs" ]; do
	while IFS='|' read -r n name knobs uses; do
		if [ "$run" -eq 1 ] && [ "$n" -eq 10 ] && [ -n "$file" ]; then
			continue	# ran first
		fi
		step "$n" "$name" "$knobs" "$uses" "$run" "$@" </dev/null
	done <"$steps"
	run=$((run + 1))
done
{
	cat "$tmp/head"
	n=1
	while [ "$n" -le "$nsteps" ]; do
		run=1
		while [ "$run" -le "$runs" ]; do
			cat "$tmp/step.$n.$run"
			run=$((run + 1))
		done
		n=$((n + 1))
	done
} >"$tmp/all.csv" || { scratch_ok; exit 1; }
[ -z "$csv" ] || output_put "$tmp/all.csv" "$csv"

warning_codes
second=$second sources=$tmp/sources \
kernel_csv=$kernel_csv kernel_name=$measured wfile=$tmp/warnings \
    run_awk "explain-gather explain-kernel explain-table" -F, \
	"$tmp/all.csv" >"$tmp/table.raw" || { scratch_ok; exit 1; }
awk '{ sub(/ *$/, ""); print }' "$tmp/table.raw" >"$tmp/table" || { scratch_ok; exit 1; }
stdout_put "$tmp/table"

[ -z "$svg" ] || second=$second sources=$tmp/sources kernel_csv=$kernel_csv kernel_name=$measured \
    run_awk "explain-gather explain-kernel explain-chart" -F, "$tmp/all.csv" \
	>"$tmp/chart.svg" || { scratch_ok; exit 1; }
[ -z "$svg" ] || output_put "$tmp/chart.svg" "$svg"
