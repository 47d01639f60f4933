#!/bin/sh
#/ compare.sh - compare two of scan's CSV files walk by walk and size by
#/ size: both speedups and the change, marking changes that fall within
#/ the runs' own spread as noise.
#/
#/ usage: scripts/compare.sh [-h] BEFORE.csv AFTER.csv
#/
#/ A row for every walk and size found in both files.  A change is noise
#/ when the two runs' interquartile ranges over rounds (speedup_q1 to
#/ speedup_q3) overlap: the middle half of each run's rounds disagreed by
#/ more than the change (files from before 2.0 have no quartiles: their
#/ min-max ranges are used).  Two rows for one walk and size in a file,
#/ or no walk and size in both, is an error (exit 1).
set -eu
env=$(dirname "$0")/scan-env.sh	# usage, $scan, $awk, $awklib, need_scan, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

case ${1:-} in
-h | --help) usage; exit 0 ;;
esac
[ $# -eq 2 ] || { usage >&2; exit 2; }
for f in "$1" "$2"; do
	[ -r "$f" ] || { echo "compare.sh: cannot read $f" >&2; exit 1; }
done

awk -F, -v f1="$1" -v f2="$2" '
FNR == 1 {
	file++
	for (i = 1; i <= NF; i++)
		col[file, $i] = i
	# the rounds quartiles since 2.0; older files have only extremes
	iqr[file] = (file, "speedup_q1") in col && (file, "speedup_q3") in col
	next
}
{
	walk = $(col[file, "label"])
	if (walk == "Physical")
		next
	key = walk SUBSEP ($(col[file, "pages"]) / 1e6)
	if ((file, key) in speed) {
		printf "compare.sh: %s has two rows for %s at -c %g\n", file == 1 ? f1 : f2,
		    walk, $(col[file, "pages"]) / 1e6 > "/dev/stderr"
		bad = 1
		exit 1
	}
	speed[file, key] = $(col[file, "speedup"])
	lo[file, key] = $(col[file, iqr[file] ? "speedup_q1" : "speedup_min"])
	hi[file, key] = $(col[file, iqr[file] ? "speedup_q3" : "speedup_max"])
	if (file == 1)
		order[++n] = key
}
END {
	if (bad)
		exit 1
	for (i = 1; i <= n; i++)
		rows += (2, order[i]) in speed
	if (!rows) {
		print "compare.sh: no walk and size in both files" > "/dev/stderr"
		exit 1
	}
	printf "%-10s %10s %12s %12s %9s\n", "walk", "-c", "before", "after", "change"
	for (i = 1; i <= n; i++) {
		key = order[i]
		if (!((2, key) in speed))
			continue
		split(key, part, SUBSEP)
		b = speed[1, key]; a = speed[2, key]
		noise = lo[1, key] <= hi[2, key] && lo[2, key] <= hi[1, key]
		change = b > 0 ? 100 * (a / b - 1) : 0
		printf "%-10s %10g %12.3f %12.3f %+8.1f%%%s\n", part[1], part[2], b, a,
		    change, noise ? "  noise" : ""
	}
}' "$1" "$2"
