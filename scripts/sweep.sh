#!/bin/sh
#/ sweep.sh - run scan at several sizes, or at several young shares for
#/ the PageTable walk, keep every result in one CSV, and print a table
#/ of the ratios per size (or share).
#/
#/ usage: scripts/sweep.sh [-h] [-o FILE.csv] [-n N] [-b SECONDS]
#/                         [SCAN_OPTION...] [SIZE...]
#/        scripts/sweep.sh [-h] [-o FILE.csv] [-n N] [-b SECONDS] --axis=young
#/                         [-c SIZE] [SCAN_OPTION...] [SHARE...]
#/        scripts/sweep.sh [-h] [--axis=size|young] --from=FILE.csv
#/
#/ SIZE is scan's -c value, millions of pages.  Without sizes, a
#/ geometric series 0.1 0.2 0.5 1 2 5 10 ... within two budgets, said
#/ before the first run: memory (80 bytes a page: memmap, LRU array and
#/ slack, in half of the memory available now) and time (-b SECONDS,
#/ default 300: a size whose runs would end past it, at the pace so far,
#/ is not started).  -b also bounds a sweep of sizes given.  A size that
#/ does not fit is skipped (scan refuses it before allocating).  Options
#/ for scan go before the sizes: long ones as --name=value, short ones as
#/ -s 5 or -s5 (-c and -m are the sweep's).  -n N runs N processes a
#/ size, interleaved (every size once, then again), and the table gives
#/ their median and range; the CSV tells the processes apart by its run
#/ column (1..N).  Under the table, a footnote gives each warning scan
#/ gave (its code, from the CSV's warnings column), most important
#/ first, with the sizes that gave it and scan's line for it; a size's
#/ note names its codes (caches: cache-sized).  -o writes the CSV (scan
#/ --format=csv, one header, then the column run) to FILE, updated as
#/ each run finishes, so a stopped sweep keeps what ran; progress and the
#/ time left go to stderr.  --axis=young sweeps scan's --young (the share
#/ of mapped PTEs young, which the PageTable walk's cost follows) at one
#/ size instead: SHARE is a share from 0 to 1 (default 0.01 0.02 0.05
#/ 0.1 0.2 0.5 1, within -b's 300 s), -c SIZE the size of every run
#/ (default scan's, 1), and --walks=list,pagetable is added where the
#/ options name no walks (walks that leave out pagetable are refused);
#/ the table has a row a share.  --from=FILE.csv prints the table of an
#/ earlier sweep's CSV and runs nothing, a row a young share where the
#/ rows share one size and differ in young (--axis says which).  SCAN
#/ names the binary (default ./scan).
set -eu
case $0 in */*) env=${0%/*}/scan-env.sh ;; *) env=./scan-env.sh ;; esac	# traps, $scan, run_awk, usage, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

out="" sizes="" runs=1 budget="" from="" from_given=""
axis="" csize="" young_given="" walks=""	# --axis, its -c, scan's --young and --walks
need_arg() {	# need_arg OPTION COUNT: the option has its value
	[ "$2" -ge 2 ] || usage_error "$1 needs a value"
}
add_size() {	# add_size VALUE: a point of the axis, checked once the axis is known
	sizes="$sizes $1"
}
# size_ok SIZE: nine digits of millions at most, past any machine
size_ok() {
	decimal "$1" ||
		usage_error "size $1: not a positive number of millions of pages (scan's -c), under 1e9"
}
# share_ok SHARE: a young share, above 0 and at most 1, as scan takes it
share_ok() {
	if ! decimal "$1" || ! awk -v f="$1" 'BEGIN { exit !(f > 0 && f <= 1) }'; then
		usage_error "share $1: not a young share above 0 and at most 1 (scan's --young)"
	fi
}
# The options for scan stay words: each is moved to the end of "$@" as
# the loop meets it, so that "$@" holds them alone after it.
sizes_only=""	# after --, every argument is a size
left=$#
while [ "$left" -gt 0 ]; do
	a=$1
	shift
	left=$((left - 1))
	if [ -n "$sizes_only" ]; then
		add_size "$a"
		continue
	fi
	case $a in
	-h | --help) usage; exit 0 ;;
	-o) need_arg "$a" $((left + 1)); out=$1; shift; left=$((left - 1))
		[ -n "$out" ] || usage_error "-o '': give a file name" ;;
	-o*) out=${a#-o} ;;
	-n) need_arg "$a" $((left + 1)); whole -n "$1"; runs=$1; shift; left=$((left - 1)) ;;
	-b) need_arg "$a" $((left + 1)); whole -b "$1"; budget=$1; shift; left=$((left - 1)) ;;
	--from=*) from=${a#--from=} from_given=1
		[ -n "$from" ] || usage_error "--from='': give the CSV of a sweep" ;;
	--axis=size | --axis=young) axis=${a#--axis=} ;;
	--axis*) usage_error "$a: give --axis=size or --axis=young" ;;
	-c) need_arg "$a" $((left + 1)); csize=$1; shift; left=$((left - 1)) ;;
	-c?*) csize=${a#-c} ;;
	-m* | --format=*) usage_error "$a: the sweep sets the size and the format itself" ;;
	--young=*) young_given=$a; set -- "$@" "$a" ;;
	--walks=*) walks=${a#--walks=}; set -- "$@" "$a" ;;
	-[srt]) need_arg "$a" $((left + 1)); set -- "$@" "$a" "$1"; shift; left=$((left - 1)) ;;
	--) sizes_only=1 ;;
	-[0-9.]* | [!-]* | '') add_size "$a" ;;
	*) set -- "$@" "$a" ;;
	esac
done
if [ -n "$from_given" ] && { [ -n "$out$sizes$budget$csize" ] || [ $# -gt 0 ] || [ "$runs" -ne 1 ]; }; then
	usage_error "--from reads a CSV and runs nothing: give it alone (or with --axis)"
fi
# The axis: scan's -c (the sizes), or its --young at one size (the shares).
if [ "$axis" = young ]; then
	[ -z "$young_given" ] || usage_error "$young_given: --axis=young sets --young itself, a share a run"
	[ -z "$csize" ] || [ "$csize" = auto ] || size_ok "$csize"
	for v in $sizes; do share_ok "$v"; done
	case ,$walks, in
	,,) set -- "$@" --walks=list,pagetable ;;
	*,pagetable,*) ;;
	*) usage_error "--walks=$walks: --axis=young moves the PageTable walk alone; name pagetable among the walks" ;;
	esac
elif [ -z "$from_given" ]; then
	[ -z "$csize" ] || usage_error "-c${csize:+ $csize}: the sweep sets the size and the format itself"
	for v in $sizes; do size_ok "$v"; done
fi

# table CSV: a row per size (or young share), a column per walk compared
# (the median over the runs with their range when there are several);
# stops at the first row that is not a sweep's, naming it.  The CSV is
# read twice: the first time for the axis, where --axis did not say.
table() {
	operand "$1"
	csv=$1 wfile=${wfile:-} axis=$axis run_awk sweep -F, "$operand" "$operand"
}

if [ -n "$from" ]; then
	input_ok "$from"
	scratch
	warning_codes	# the footnote in scan's order, as after a sweep
	table "$from" >"$tmp/table" || exit 1
	stdout_put "$tmp/table"
	exit
fi

need_scan sweep.sh
[ -z "$out" ] || output_ok "$out"
scratch

# The options for scan, tried on one page first: a usage error in them is
# one line and exit 2 before any plan or progress is printed.
rc=0
"$scan" -c 0.000001 -r 1 "$@" --format=csv >/dev/null 2>"$tmp/err" || rc=$?
if [ "$rc" -eq 2 ]; then
	command_line "$@"
	usage_error "scan refused the options: $line: $(grep -m 1 . "$tmp/err" || echo 'exit 2, no message')"
fi

# The default series: 1-2-5 steps while 80 bytes a page fit in half of
# the memory available now (or of young shares, 0.01 to 1); the time
# budget is kept as the runs go.
if [ "$axis" = young ]; then
	csize=${csize:-1}
	if [ -z "$sizes" ]; then
		sizes="0.01 0.02 0.05 0.1 0.2 0.5 1"
		budget=${budget:-300}
		plan="the shares 0.01 to 1, within a ${budget} s budget (-b)"
	else
		plan="the shares given${budget:+, within a ${budget} s budget (-b)}"
	fi
elif [ -z "$sizes" ]; then
	avail=$(awk '/^MemAvailable:/ { printf "%.0f", $2 * 1024 }' /proc/meminfo 2>/dev/null)
	sizes=$(awk -v avail="${avail:-0}" 'BEGIN {
		for (e = 0.1; e < 1e6; e *= 10)
			for (i = 1; i <= 3; i++) {
				c = e * (i == 1 ? 1 : i == 2 ? 2 : 5)
				if (c > 0.1 && (avail <= 0 ? c > 10 : c * 1e6 * 80 > avail / 2))
					exit
				printf "%g ", c
			}
	}')
	budget=${budget:-300}
	if [ "${avail:-0}" -gt 0 ]; then
		room="half of the $(bytes=$avail run_awk human </dev/null) available"
	else
		room="-c 10 (no MemAvailable to go by)"
	fi
	plan="the sizes in $room, within a ${budget} s budget (-b)"
else
	plan="the sizes given${budget:+, within a ${budget} s budget (-b)}"
fi

count=0 largest=0
for size in $sizes; do
	count=$((count + 1))
	largest=$(awk -v a="$size" -v b="$largest" 'BEGIN { print (a + 0 > b + 0 ? a : b) }')
done
each="" a_point=size
[ "$axis" != young ] || a_point=share
[ "$runs" -eq 1 ] || each="; $runs runs a $a_point, interleaved"
# memmap_of SIZE: the memmap of -c SIZE at 64 bytes a page, in words
memmap_of() {
	bytes=$(awk -v c="$1" 'BEGIN { printf "%.0f", c * 1e6 * 64 }') run_awk human </dev/null
}
if [ "$axis" = young ]; then
	case $csize in
	auto) at="-c auto (the size scan picks)" ;;
	*) at="-c $csize ($(memmap_of "$csize") of memmap)" ;;
	esac
	echo "sweep: $count young share$([ "$count" -eq 1 ] || echo s) (--young), each at $at: $plan$each" >&2
else
	memmap=$(memmap_of "$largest")
	echo "sweep: $count sizes, the largest -c $largest ($memmap of memmap at 64 bytes a page): $plan$each" >&2
fi
# point VALUE: a run's name in the progress lines; weight VALUE: its
# share of the time, the size (a young sweep's runs are of one size)
point() {
	if [ "$axis" = young ]; then echo "--young=$1"; else echo "-c $1"; fi
}
weight() {
	if [ "$axis" = young ]; then echo 1; else echo "$1"; fi
}

# Seconds since the sweep began, to the millisecond where date has %N.
now_s() {
	t=$(date +%s.%N)
	case $t in *N*) t=$(date +%s) ;; esac
	echo "$t"
}
start=$(now_s)
clock() {
	awk -v t="$(now_s)" -v t0="$start" 'BEGIN { printf "%.3f", t - t0 }'
}

# The pace: seconds per million pages (a young sweep's: per run) over
# the runs so far (the runs' own sums, so one quick small run cannot
# swing it by much); from it the time a size's remaining runs take.
pace() {
	awk '{ t += $2; c += $1 } END { if (c > 0) printf "%.6f", t / c }' "$tmp/times"
}

rows() {	# rows RUN: this run's CSV rows, with the sweep's column; its warnings' lines
	want=$header what=$(point "$size") run_awk sweep-rows -F, -v OFS=, -v run="$1" \
	    "$tmp/run.csv" >"$tmp/rows.csv" || { scratch_ok; exit 1; }
	grep '^scan: warning: ' "$tmp/err" >>"$tmp/wlines" || true
	if [ -z "$header" ]; then
		header=$(awk 'NR == 1 { print; exit }' "$tmp/run.csv")
		cat "$tmp/rows.csv" >"$tmp/all.csv"
	else
		awk 'NR > 1' "$tmp/rows.csv" >>"$tmp/all.csv"
	fi
}

: >"$tmp/times"
: >"$tmp/all.csv"
: >"$tmp/wlines"
header=""
done_runs=0 skipped=0
run=1
todo=$sizes
while [ "$run" -le "$runs" ]; do
	ran=""
	i=0
	for size in $todo; do
		i=$((i + 1))
		now=$(clock)
		pace=$(pace)
		# time left: the pace times every size-run still to go
		left=$(awk -v p="$pace" -v todo="$todo" -v i="$i" -v more=$((runs - run)) -v each="$([ "$axis" != young ] || echo 1)" '
		BEGIN {
			if (p == "") { print "time left unknown"; exit }
			k = split(todo, s, " ")
			for (j = 1; j <= k; j++)
				t += (each ? 1 : s[j]) * p * ((j >= i) + more)
			printf "about %d s left", t + 0.5
		}')
		if [ -n "$budget" ] && [ "$run" -eq 1 ] && [ -n "$pace" ] &&
		    awk -v p="$pace" -v c="$(weight "$size")" -v n="$runs" -v now="$now" -v b="$budget" \
			'BEGIN { exit !(now * n + p * c * n > b) }'; then
			if [ "$axis" = young ]; then
				echo "sweep: --young=$size and the shares after it not started: at $pace s a run so far, they would end past the ${budget} s budget (-b)" >&2
			else
				echo "sweep: -c $size and above not started: at $pace s per -c 1 so far, they would end past the ${budget} s budget (-b)" >&2
			fi
			break
		fi
		of="$((done_runs + skipped + 1)) of $((count * runs))"
		[ "$runs" -eq 1 ] || of="$of, run $run"
		echo "sweep: $(point "$size") ($of), ${now%.*} s so far, $left" >&2
		rc=0
		if [ "$axis" = young ]; then
			"$scan" -c "$csize" --young="$size" "$@" --format=csv >"$tmp/run.csv" 2>"$tmp/err" || rc=$?
		else
			"$scan" -c "$size" "$@" --format=csv >"$tmp/run.csv" 2>"$tmp/err" || rc=$?
		fi
		case $rc in
		0)
			rows "$run"
			echo "$(weight "$size") $(awk -v a="$(clock)" -v b="$now" 'BEGIN { print a - b }')" >>"$tmp/times"
			ran="$ran $size"
			done_runs=$((done_runs + 1))
			if [ -n "$out" ]; then
				output_put "$tmp/all.csv" "$out"
				interrupt_note="$out keeps the $done_runs run$([ "$done_runs" -eq 1 ] || echo s) that finished"
			fi
			;;
		1)
			say_line "sweep: $(point "$size") skipped: $(awk 'sub(/^scan: /, "") { print; exit }' "$tmp/err")"
			skipped=$((skipped + runs - run + 1))
			;;
		*)
			awk 'NR <= 3' "$tmp/err" | run_awk plain-lines >&2
			[ -s "$tmp/err" ] || { scratch_ok; say_line "sweep.sh: scan $(point "$size") exited $rc with no message"; }
			[ -z "$out" ] || [ "$done_runs" -eq 0 ] ||
				say_line "sweep.sh: $out keeps the $done_runs run$([ "$done_runs" -eq 1 ] || echo s) that finished"
			exit "$rc"
			;;
		esac
	done
	[ -n "$ran" ] || break
	todo=$ran
	# shellcheck disable=SC2086 # count the words
	count=$(set -- $ran; echo $#) skipped=0
	run=$((run + 1))
done
[ -s "$tmp/all.csv" ] || fail "no $a_point ran"
warning_codes
wfile=$tmp/wlines table "$tmp/all.csv" >"$tmp/table" || exit 1
stdout_put "$tmp/table"
