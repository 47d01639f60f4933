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
set -eu
env=$(dirname "$0")/scan-env.sh	# usage, $scan, $awk, $awklib, need_scan, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

runs=8
size=4
scratch
configs=$tmp/configs log=$tmp/log
: >"$configs"
: >"$log"
while getopts hn:c:o: opt; do
	case $opt in
	h) usage; exit 0 ;;
	n) runs=$OPTARG ;;
	c) size=$OPTARG ;;
	o) printf '%s\n' "$OPTARG" >>"$configs" ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { usage >&2; exit 2; }
naive=$1
shift
[ -s "$configs" ] || printf '%s\n' "$*" >>"$configs"

# wall OUT CMD...: run CMD, its stdout into OUT and its stderr dropped,
# and print its wall time in seconds (POSIX time -p, 10 ms steps).
wall() {
	wall_out=$1
	shift
	{ time -p sh -c 'o=$1; shift; exec "$@" >"$o" 2>/dev/null' sh "$wall_out" "$@"; } \
		2>&1 >/dev/null | awk '$1 == "real" { print $2 }'
}

i=1
while [ "$i" -le "$runs" ]; do
	w=$(wall "$tmp/out" "$naive" "$size")
	awk -v w="$w" '/^ratio/ { print "naive", $2, $3, w }' "$tmp/out" >>"$log"
	while IFS= read -r opts; do
		# shellcheck disable=SC2086 # opts is a word list
		w=$(wall "$tmp/out" "$scan" -c "$size" $opts)
		awk -v w="$w" -v o="${opts:-defaults}" '
			/faster than ListLRU$/ { l = $4 }
			/faster than ArrayLRU$/ { a = $4 }
			END { gsub(/ /, "_", o); print "scan:" o, l, a, w }' "$tmp/out" >>"$log"
	done <"$configs"
	echo "round $i of $runs done" >&2
	i=$((i + 1))
done

awk '
function median(v, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function cv(v, n,    i, m, s) {
	for (i = 1; i <= n; i++)
		m += v[i]
	m /= n
	for (i = 1; i <= n; i++)
		s += (v[i] - m) ^ 2
	return n > 1 ? 100 * sqrt(s / (n - 1)) / m : 0
}
{
	if (!($1 in n))
		order[++progs] = $1
	k = ++n[$1]
	list[$1, k] = $2; array[$1, k] = $3; wall[$1, k] = $4
}
END {
	printf "%-34s %4s %7s %15s %5s %7s %13s %5s %7s\n", "prog", "runs",
	    "ListLRU", "range", "CV%", "ArrayLRU", "range", "CV%", "wall_s"
	for (q = 1; q <= progs; q++) {
		p = order[q]
		for (i = 1; i <= n[p]; i++) {
			l[i] = list[p, i]; a[i] = array[p, i]; w[i] = wall[p, i]
		}
		lc = cv(l, n[p]); ac = cv(a, n[p])
		lm = median(l, n[p]); lo = l[1]; lh = l[n[p]]
		am = median(a, n[p]); ao = a[1]; ah = a[n[p]]
		printf "%-34s %4d %7.2f %7.2f-%-7.2f %5.1f %7.3f %6.3f-%-6.3f %5.1f %7.2f\n",
		    p, n[p], lm, lo, lh, lc, am, ao, ah, ac, median(w, n[p])
	}
}' "$log"
