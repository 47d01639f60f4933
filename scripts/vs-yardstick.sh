#!/bin/sh
#/ vs-yardstick.sh - run the yardstick and scan in turn, and compare the
#/ spread of their ratios and their wall times.
#/
#/ usage: scripts/vs-yardstick.sh [-h] [-n RUNS] [-c SIZE] [-o OPTIONS]...
#/                                NAIVE [SCAN_OPTION...]
#/
#/ NAIVE is the yardstick binary: make yardstick (docs/yardstick.c).
#/ Runs NAIVE SIZE and ./scan -c SIZE, alternately, RUNS times each
#/ (default 8, SIZE 4), then prints for each program and ratio the
#/ median, the range and the coefficient of variation (CV) over runs,
#/ and the median wall time.  Extra arguments go to scan.  Each -o adds
#/ a scan run with those options (one word list, '' for the defaults);
#/ every run of a round takes its turn: NAIVE, then each scan in order.
#/
#/   -n RUNS     runs of each program, 1 to 999999 (default 8)
#/   -c SIZE     millions of pages, a positive decimal (default 4)
#/   -o OPTIONS  a scan run with these options; repeatable
#/   -h          this help
#/
#/ Exit status: 0 with the table; 2 for a usage error, here or in the
#/ options scan was given; 1 when NAIVE is missing, or a run fails or
#/ prints no ratios (its first line of stderr is quoted).
set -eu
case $0 in */*) env=${0%/*}/scan-env.sh ;; *) env=./scan-env.sh ;; esac	# traps, $scan, run_awk, usage, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

runs=8
size=4
scratch
configs=$tmp/configs log=$tmp/log
: >"$configs"
: >"$log"
while getopts :hn:c:o: opt; do
	case $opt in
	h) usage; exit 0 ;;
	n) runs=$OPTARG ;;
	c) size=$OPTARG ;;
	o) { printf '%s' "$OPTARG" | tr '\n' ' '; echo; } >>"$configs" ;;	# a line each
	:) usage_error "-$OPTARG needs a value" ;;
	*) usage_error "unknown option -$OPTARG (scan's own options go after NAIVE)" ;;
	esac
done
shift $((OPTIND - 1))
# six digits at most: a shell's arithmetic never overflows on it
case $runs in
''|*[!0-9]*|0*|???????*) usage_error "-n '$runs': give a whole number of runs, 1 to 999999" ;;
esac
# both programs take SIZE as a plain decimal of millions of pages
case $size in
*[!0-9.]* | *.*.* | *[1-9]*[!0-9.]*) usage_error "-c '$size': give a positive decimal, millions of pages (e.g. 0.5)" ;;
*[1-9]*) ;;
*) usage_error "-c '$size': give a positive decimal, millions of pages (e.g. 0.5)" ;;
esac
[ $# -ge 1 ] || usage_error "no yardstick given: make yardstick, then $me ./yardstick"
naive=$1
shift
case $naive in
*/*) [ -f "$naive" ] && [ -x "$naive" ] ;;
*) command -v "$naive" >/dev/null 2>&1 ;;
esac || fail "no yardstick program at $naive (make yardstick builds ./yardstick)"
need_scan "$me"
[ -s "$configs" ] || printf '%s\n' "$*" >>"$configs"

# wall OUT CMD...: run CMD, its stdout into OUT, its stderr into OUT.err
# and its exit status into OUT.rc, and print its wall time in seconds
# (POSIX time -p, 10 ms steps).
wall() {
	wall_out=$1
	shift
	{ time -p sh -c 'o=$1; shift; "$@" >"$o" 2>"$o.err"; echo $? >"$o.rc"' \
		sh "$wall_out" "$@"; } 2>&1 >/dev/null | awk '$1 == "real" { print $2 }'
}

# failed WHAT: stop after a run that exited non-zero or printed no ratios,
# with its first line of stderr.  A program that called its arguments a
# usage error (exit 2) makes this one too: they came from this command.
failed() {
	status=$(cat "$tmp/out.rc")
	if [ "$status" -eq 0 ]; then
		fail "$1 printed no ratios"
	fi
	say_line "$me: $1 failed (exit $status): $(grep -m 1 . "$tmp/out.err" || echo 'no message')"
	[ "$status" -eq 2 ] && exit 2
	exit 1
}

# naive_row WALL, scan_row WALL OPTS: the last run's row for the log, or
# status 1 when it exited non-zero or printed no positive ratios.
naive_row() {
	[ "$(cat "$tmp/out.rc")" -eq 0 ] || return 1
	awk -v w="$1" '$1 == "ratio" && $2 + 0 > 0 && $3 + 0 > 0 { r = $2 " " $3 }
		END { if (r == "") exit 1; print "naive", r, w }' "$tmp/out"
}
scan_row() {
	[ "$(cat "$tmp/out.rc")" -eq 0 ] || return 1
	opts=${2:-defaults} run_awk vs-yardstick-row -v w="$1" "$tmp/out"
}

i=1
while [ "$i" -le "$runs" ]; do
	w=$(wall "$tmp/out" "$naive" "$size")
	naive_row "$w" >>"$log" || failed "$naive $size"
	while IFS= read -r opts; do
		set -f	# a word list, split at blanks, never globbed
		# shellcheck disable=SC2086
		w=$(wall "$tmp/out" "$scan" -c "$size" $opts)
		set +f
		scan_row "$w" "$opts" >>"$log" || failed "scan -c $size${opts:+ $opts}"
	done <"$configs"
	echo "round $i of $runs done" >&2
	i=$((i + 1))
done

run_awk vs-yardstick "$log" >"$tmp/table" || { scratch_ok; exit 1; }
stdout_put "$tmp/table"
