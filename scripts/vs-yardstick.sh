#!/bin/sh
# vs-yardstick.sh - run the yardstick and scan in turn, and compare the
# spread of their ratios and their wall times.
#
# usage: scripts/vs-yardstick.sh [-h] [-n RUNS] [-c SIZE] NAIVE [SCAN_OPTION...]
#
# NAIVE is the yardstick binary (cc -O2 ../shared/yardstick/naive.c -o naive).
# Runs NAIVE SIZE and ./scan -c SIZE, alternately, RUNS times each
# (default 8, SIZE 4), then prints for each program and ratio the
# median, the coefficient of variation (CV) over runs, and the median
# wall time.  Extra arguments go to scan.
set -eu

usage() {
	sed -n '2,12s/^# \{0,1\}//p' "$0"
}

runs=8
size=4
while getopts hn:c: opt; do
	case $opt in
	h) usage; exit 0 ;;
	n) runs=$OPTARG ;;
	c) size=$OPTARG ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { usage >&2; exit 2; }
naive=$1
shift
scan=${SCAN:-./scan}
log=$(mktemp)
trap 'rm -f "$log"' EXIT INT TERM

i=1
while [ "$i" -le "$runs" ]; do
	t0=$(date +%s.%N)
	out=$("$naive" "$size")
	t1=$(date +%s.%N)
	printf '%s\n' "$out" | awk -v t="$t0" -v u="$t1" \
		'/^ratio/ { print "naive", $2, $3, u - t }' >>"$log"
	t0=$(date +%s.%N)
	out=$("$scan" -c "$size" "$@" 2>/dev/null)
	t1=$(date +%s.%N)
	printf '%s\n' "$out" | awk -v t="$t0" -v u="$t1" '
		/faster than ListLRU$/ { l = $4 }
		/faster than ArrayLRU$/ { a = $4 }
		END { print "scan", l, a, u - t }' >>"$log"
	tail -n 2 "$log" >&2
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
	k = ++n[$1]
	list[$1, k] = $2; array[$1, k] = $3; wall[$1, k] = $4
}
END {
	printf "%-6s %5s %10s %7s %10s %7s %9s\n", "prog", "runs",
	    "ListLRU", "CV%", "ArrayLRU", "CV%", "wall_s"
	for (p in n) {
		for (i = 1; i <= n[p]; i++) {
			l[i] = list[p, i]; a[i] = array[p, i]; w[i] = wall[p, i]
		}
		lc = cv(l, n[p]); ac = cv(a, n[p])
		printf "%-6s %5d %10.2f %7.1f %10.3f %7.1f %9.2f\n", p, n[p],
		    median(l, n[p]), lc, median(a, n[p]), ac, median(w, n[p])
	}
}' "$log"
