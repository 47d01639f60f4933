#!/bin/sh
#/ sweep.sh - run ./scan at several sizes, keep every result in one CSV,
#/ and print a table of the ratios per size.
#/
#/ usage: scripts/sweep.sh [-h] [-o FILE.csv] [SCAN_OPTION...] [SIZE...]
#/
#/ SIZE is scan's -c value, millions of pages.  Without sizes, a
#/ geometric series 0.1 0.2 0.5 1 2 5 10 ... up to what fits in this
#/ machine's memory.  A size that does not fit is skipped (scan refuses it
#/ before allocating).  Options for scan go before the sizes: long ones as
#/ --name=value, short ones as -s 5 or -s5 (-c and -m are the sweep's).
#/ -o writes the CSV (scan --format=csv, one header) to FILE; progress and
#/ the time left go to stderr.  SCAN names the binary (default ./scan).
set -eu
env=$(dirname "$0")/scan-env.sh	# usage, $scan, $awk, $awklib, need_scan, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

out=""
opts=""
sizes=""
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-o) [ $# -ge 2 ] || { usage >&2; exit 2; }; out=$2; shift ;;
	-o*) out=${1#-o} ;;
	-c* | -m* | --format=*)
		echo "sweep.sh: $1: the sweep sets the size and the format itself" >&2
		exit 2 ;;
	-[srt]) [ $# -ge 2 ] || { usage >&2; exit 2; }; opts="$opts $1 $2"; shift ;;
	-*) opts="$opts $1" ;;
	*) sizes="$sizes $1" ;;
	esac
	shift
done

need_scan sweep.sh
scratch

# The default series: 1-2-5 steps while 80 bytes a page (memmap, array
# and some slack) fit in the memory available now.
if [ -z "$sizes" ]; then
	avail=$(awk '/^MemAvailable:/ { print $2 * 1024 }' /proc/meminfo 2>/dev/null)
	sizes=$(awk -v avail="${avail:-0}" 'BEGIN {
		for (e = 0.1; e < 1e6; e *= 10)
			for (i = 1; i <= 3; i++) {
				c = e * (i == 1 ? 1 : i == 2 ? 2 : 5)
				if (avail > 0 && c * 1e6 * 80 > avail)
					exit
				printf "%g ", c
			}
	}')
fi

n=0
for size in $sizes; do
	n=$((n + 1))
	largest=$size
done
echo "sweep: $n sizes, the largest -c $largest ($(awk -v c="$largest" "$awklib"'
	BEGIN { print human(c * 1e6 * 64, "%.1f") }') of memmap at 64 bytes a page)" >&2
i=0
start=$(date +%s)
: >"$tmp/times"
for size in $sizes; do
	i=$((i + 1))
	now=$(date +%s)
	# time left: a + b * size fitted to the runs so far (b alone after
	# one run), summed over the sizes still to run
	left=$(awk -v sizes="$sizes" -v i="$i" '
		{ n++; x += $1; y += $2; xx += $1 * $1; xy += $1 * $2 }
		END {
			k = split(sizes, s, " ")
			if (!n) { printf "time left unknown"; exit }
			b = n > 1 && n * xx - x * x > 0 ? (n * xy - x * y) / (n * xx - x * x) : y / x
			a = n > 1 ? (y - b * x) / n : 0
			for (j = i; j <= k; j++)
				todo += a + b * s[j]
			printf "about %d s left", (todo > 0 ? todo + 0.5 : 0)
		}' "$tmp/times")
	echo "sweep: -c $size ($i of $n), $((now - start)) s so far, $left" >&2
	rc=0
	# shellcheck disable=SC2086 # opts is a list of options
	"$scan" -c "$size" $opts --format=csv >"$tmp/run.csv" 2>"$tmp/err" || rc=$?
	case $rc in
	0)
		# scan's trust warnings become columns: the memmap over the
		# LLC scan saw (llc_bytes), a flag when it is under 4x, and
		# how many warnings
		warned=$(grep -c '^scan: warning' "$tmp/err" || true)
		head=1
		[ ! -s "$tmp/all.csv" ] || head=0
		awk -F, -v OFS=, -v warned="$warned" -v head="$head" '
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
				if (head) print $0, "memmap_over_llc", "cache_sized", "warnings"; next }
			{ llc = $c["llc_bytes"]; r = llc > 0 ? $c["pages"] * $c["struct_page"] / llc : 0
			  print $0, sprintf("%.2f", r), (llc > 0 && r < 4 ? 1 : 0), warned }' \
			"$tmp/run.csv" >"$tmp/rows.csv"
		cat "$tmp/rows.csv" >>"$tmp/all.csv"
		echo "$size $(($(date +%s) - now))" >>"$tmp/times"
		;;
	1)
		echo "sweep: -c $size skipped: $(sed -n 's/^scan: //p' "$tmp/err" | head -n 1)" >&2
		;;
	*)
		cat "$tmp/err" >&2
		exit "$rc"
		;;
	esac
done
[ -s "$tmp/all.csv" ] || { echo "sweep: no size ran" >&2; exit 1; }
[ -z "$out" ] || cp "$tmp/all.csv" "$out"

# The table: one row per size, one column per walk compared.
awk -F, "$awklib"'
NR == 1 {
	for (i = 1; i <= NF; i++)
		col[$i] = i
	next
}
{
	size = $col["pages"] / 1e6
	if (!(size in seen)) {
		seen[size] = 1
		order[++nsizes] = size
		mem[size] = $col["memory_bytes"]
	}
	if ($col["walk"] == "physical")
		next
	if (!($col["label"] in known)) {
		known[$col["label"]] = 1
		label[++nlabels] = $col["label"]
	}
	ratio[size, $col["label"]] = $col["speedup"]
	note[size] = $col["cache_sized"] ? "caches" : $col["warnings"] > 0 ? "warned" : ""
}
END {
	printf "%10s %12s", "-c", "memory"
	for (l = 1; l <= nlabels; l++)
		printf " %14s", "vs " label[l]
	printf "\n"
	for (s = 1; s <= nsizes; s++) {
		size = order[s]
		printf "%10g %12s", size, human(mem[size], "%8.1f")
		for (l = 1; l <= nlabels; l++)
			printf " %14.3f", ratio[size, label[l]]
		printf "%s\n", note[size] ? "  " note[size] : ""
		cached += note[size] == "caches"
	}
	if (cached)
		print "caches: the memmap is under 4x the last-level cache; the ratios measure caches"
}' "$tmp/all.csv"
