#!/bin/sh
#/ compare.sh - compare two of scan's CSV files walk by walk and size by
#/ size: both speedups and the change, marking changes that fall within
#/ the runs' own spread as noise.
#/
#/ usage: scripts/compare.sh [-h] BEFORE.csv AFTER.csv
#/
#/ A row for every walk and size found in both files.  A change is noise
#/ when the two runs' ranges over rounds (speedup_min to speedup_max)
#/ overlap: each run's own rounds disagreed by more than the change.
set -eu

usage() {
	sed -n 's|^#/ \{0,1\}||p' "$0"
}

case ${1:-} in
-h | --help) usage; exit 0 ;;
esac
[ $# -eq 2 ] || { usage >&2; exit 2; }
for f in "$1" "$2"; do
	[ -r "$f" ] || { echo "compare.sh: cannot read $f" >&2; exit 1; }
done

awk -F, '
FNR == 1 {
	file++
	for (i = 1; i <= NF; i++)
		col[file, $i] = i
	next
}
{
	walk = $(col[file, "label"])
	if (walk == "Physical")
		next
	key = walk SUBSEP ($(col[file, "pages"]) / 1e6)
	speed[file, key] = $(col[file, "speedup"])
	lo[file, key] = $(col[file, "speedup_min"])
	hi[file, key] = $(col[file, "speedup_max"])
	if (file == 1 && !(key in seen)) {
		seen[key] = 1
		order[++n] = key
	}
}
END {
	printf "%-10s %10s %12s %12s %9s\n", "walk", "-c", "before", "after", "change"
	for (i = 1; i <= n; i++) {
		key = order[i]
		after = 2 SUBSEP key
		if (!(after in speed))
			continue
		split(key, part, SUBSEP)
		b = speed[1, key]; a = speed[2, key]
		noise = lo[1, key] <= hi[2, key] && lo[2, key] <= hi[1, key]
		change = b > 0 ? 100 * (a / b - 1) : 0
		printf "%-10s %10g %12.3f %12.3f %+8.1f%%%s\n", part[1], part[2], b, a,
		    change, noise ? "  noise" : ""
		rows++
	}
	if (!rows) {
		print "compare.sh: no walk and size in both files" > "/dev/stderr"
		exit 1
	}
}' "$1" "$2"
