#!/bin/sh
#/ sweep.sh - run scan at several sizes, keep every result in one CSV,
#/ and print a table of the ratios per size.
#/
#/ usage: scripts/sweep.sh [-h] [-o FILE.csv] [-n N] [-b SECONDS]
#/                         [SCAN_OPTION...] [SIZE...]
#/        scripts/sweep.sh [-h] --from=FILE.csv
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
#/ column (1..N).  -o writes the CSV (scan --format=csv, one header, then
#/ the columns run and warnings) to FILE, updated as each run finishes,
#/ so a stopped sweep keeps what ran; progress and the time left go to
#/ stderr.  --from=FILE.csv prints the table of an earlier sweep's CSV
#/ and runs nothing.  SCAN names the binary (default ./scan).
set -eu
env=$(dirname "$0")/scan-env.sh	# usage, $scan, $awk, $awklib, need_scan, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

out="" opts="" sizes="" runs=1 budget="" from="" from_given=""
need_arg() {	# need_arg OPTION COUNT: the option has its value
	[ "$2" -ge 2 ] || usage_error "$1 needs a value (-h for help)"
}
add_size() {	# add_size SIZE: nine digits of millions at most, past any machine
	{ echo "$1" | grep -Eq '^([0-9]{1,9}(\.[0-9]*)?|\.[0-9]+)$' && echo "$1" | grep -q '[1-9]'; } ||
		usage_error "size $1: not a positive number of millions of pages (scan's -c), under 1e9"
	sizes="$sizes $1"
}
sizes_only=""	# after --, every argument is a size
while [ $# -gt 0 ]; do
	if [ -n "$sizes_only" ]; then
		add_size "$1"
		shift
		continue
	fi
	case $1 in
	-h | --help) usage; exit 0 ;;
	-o) need_arg "$1" $#; out=$2; shift; [ -n "$out" ] || usage_error "-o '': give a file name" ;;
	-o*) out=${1#-o} ;;
	-n) need_arg "$1" $#; whole -n "$2"; runs=$2; shift ;;
	-b) need_arg "$1" $#; whole -b "$2"; budget=$2; shift ;;
	--from=*) from=${1#--from=} from_given=1
		[ -n "$from" ] || usage_error "--from='': give the CSV of a sweep" ;;
	-c* | -m* | --format=*)
		echo "sweep.sh: $1: the sweep sets the size and the format itself" >&2
		exit 2 ;;
	-[srt]) need_arg "$1" $#; opts="$opts $1 $2"; shift ;;
	--) sizes_only=1 ;;
	-[0-9.]* | [!-]* | '') add_size "$1" ;;
	*) opts="$opts $1" ;;
	esac
	shift
done
if [ -n "$from_given" ] && { [ -n "$out$opts$sizes$budget" ] || [ "$runs" -ne 1 ]; }; then
	usage_error "--from reads a CSV and runs nothing: give it alone"
fi

# table CSV: a row per size, a column per walk compared (the median over
# the runs with their range when there are several); stops at the first
# row that is not a sweep's, naming it.
table() {
	awk -F, -v csv="$1" "$awklib"'
	function fail(msg) {
		printf "sweep.sh: %s line %d: %s\n", csv, FNR, msg > "/dev/stderr"
		bad = 1
		exit 1
	}
	function number(name,    v) {
		v = csv_field(name)
		if (v !~ /^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ || !(v + 0 < 1e300))
			fail(name " is \"" substr(v, 1, 24) "\", not a number from 0")
		return v + 0
	}
	function median(k, m,    v, i, j, t) {	# of ratio[k, 1..m]; lo, hi too
		for (i = 1; i <= m; i++)
			v[i] = ratio[k, i]
		for (i = 2; i <= m; i++)
			for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
				t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
			}
		lo = v[1]; hi = v[m]
		return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
	}
	FNR == 1 {
		csv_header()
		nf = NF
		n = split("walk label pages memory_bytes speedup", need, " ")
		for (i = 1; i <= n; i++)
			if (!csv_has(need[i])) {
				printf "sweep.sh: %s has no column %s: not scan'"'"'s CSV\n", csv, need[i] > "/dev/stderr"
				bad = 1
				exit 1
			}
		next
	}
	csv_field("walk") == "walk" { fail("the header again (two CSVs joined with cat? keep one header)") }
	NF != nf { fail(NF " fields where the header has " nf) }
	{
		pages = number("pages"); speedup = number("speedup"); memory = number("memory_bytes")
		if (!(pages > 0)) fail("pages is 0")
		if (!(speedup > 0)) fail("speedup is 0: not a ratio")
		if (csv_field("label") == "") fail("an empty label")
		size = pages / 1e6
		if (!(size in seen)) {
			seen[size] = 1
			order[++nsizes] = size
			mem[size] = memory
		}
	}
	csv_field("walk") == "physical" { next }
	{
		l = csv_field("label")
		if (!(l in known)) {
			known[l] = 1
			label[++nlabels] = l
		}
		k = ++nratio[size, l]
		ratio[size SUBSEP l, k] = speedup
		runs = k > runs ? k : runs
		if (csv_field("cache_sized") == 1)
			note[size] = "caches"
		else if (csv_field("warnings") > 0 && note[size] == "")
			note[size] = "warned"
	}
	END {
		if (bad)
			exit 1
		if (!nlabels) {
			printf "sweep.sh: %s holds no walk to compare\n", csv > "/dev/stderr"
			exit 1
		}
		wide = runs > 1 ? 26 : 14
		printf "%10s %12s", "-c", "memory"
		for (l = 1; l <= nlabels; l++)
			printf " %" wide "s", "vs " label[l]
		printf "\n"
		for (s = 1; s <= nsizes; s++) {
			size = order[s]
			printf "%10g %12s", size, human(mem[size], "%8.1f")
			for (l = 1; l <= nlabels; l++) {
				m = nratio[size, label[l]]
				if (!m)
					printf " %" wide "s", "-"
				else if (runs == 1)
					printf " %14.3f", ratio[size SUBSEP label[l], 1]
				else {
					v = median(size SUBSEP label[l], m)
					printf " %" wide "s", sprintf("%.3f (%.3f-%.3f, %d)", v, lo, hi, m)
				}
			}
			printf "%s\n", note[size] ? "  " note[size] : ""
			cached += note[size] == "caches"
		}
		if (runs > 1)
			print "each: the median over the runs (processes), their range and number"
		if (cached)
			print "caches: the memmap is under 4x the last-level cache; the ratios measure caches"
	}' "$1"
}

if [ -n "$from" ]; then
	input_ok "$from"
	scratch
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
# shellcheck disable=SC2086 # opts is a list of options
"$scan" -c 0.000001 -r 1 $opts --format=csv >/dev/null 2>"$tmp/err" || rc=$?
if [ "$rc" -eq 2 ]; then
	usage_error "scan refused the options:$opts: $(grep -m 1 . "$tmp/err" || echo 'exit 2, no message')"
fi

# The default series: 1-2-5 steps while 80 bytes a page fit in half of
# the memory available now; the time budget is kept as the runs go.
if [ -z "$sizes" ]; then
	avail=$(awk '/^MemAvailable:/ { print $2 * 1024 }' /proc/meminfo 2>/dev/null)
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
	room=$(awk -v a="${avail:-0}" "$awklib"'BEGIN { print (a > 0 ? "half of the " human(a, "%.1f") " available" : "-c 10 (no MemAvailable to go by)") }')
	plan="the sizes in $room, within a ${budget} s budget (-b)"
else
	plan="the sizes given${budget:+, within a ${budget} s budget (-b)}"
fi

count=0 largest=0
for size in $sizes; do
	count=$((count + 1))
	largest=$(awk -v a="$size" -v b="$largest" 'BEGIN { print (a + 0 > b + 0 ? a : b) }')
done
each=""
[ "$runs" -eq 1 ] || each="; $runs runs a size, interleaved"
echo "sweep: $count sizes, the largest -c $largest ($(awk -v c="$largest" "$awklib"'
	BEGIN { print human(c * 1e6 * 64, "%.1f") }') of memmap at 64 bytes a page): $plan$each" >&2

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

# The pace: seconds per million pages over the runs so far (the runs'
# own sums, so one quick small run cannot swing it by much); from it the
# time a size's remaining runs take.
pace() {
	awk '{ t += $2; c += $1 } END { if (c > 0) printf "%.6f", t / c }' "$tmp/times"
}

rows() {	# rows RUN: this run's CSV rows, with the sweep's columns
	warned=$(grep -c '^scan: warning' "$tmp/err" || true)
	awk -F, -v OFS=, -v run="$1" -v warned="$warned" -v want="$header" \
	    -v what="$size" "$awklib"'
	function fail(msg) {
		print "sweep.sh: -c " what ": " msg > "/dev/stderr"
		bad = 1
		exit 1
	}
	FNR == 1 {
		csv_header()
		nf = NF
		if (!csv_has("walk") || !csv_has("speedup") || !csv_has("pages") || !csv_has("struct_page"))
			fail("scan printed no scan CSV (its header: " substr($0, 1, 40) ")")
		if (want != "" && $0 != want)
			fail("scan printed another CSV header than the runs before")
		print $0, "run", "warnings"
		next
	}
	NF != nf || csv_field("pages") !~ /^[0-9]+$/ || csv_field("speedup") !~ /^[0-9.]+$/ {
		fail("line " FNR " of what scan printed is not a row of its CSV")
	}
	{ print $0, run, warned }	# the row scan gave, its verdicts included
	END { if (!bad && FNR < 2) fail("scan printed no rows") }' "$tmp/run.csv" >"$tmp/rows.csv" || exit 1
	if [ -z "$header" ]; then
		header=$(head -n 1 "$tmp/run.csv")
		cat "$tmp/rows.csv" >"$tmp/all.csv"
	else
		sed 1d "$tmp/rows.csv" >>"$tmp/all.csv"
	fi
}

: >"$tmp/times"
: >"$tmp/all.csv"
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
		left=$(awk -v p="$pace" -v todo="$todo" -v i="$i" -v more=$((runs - run)) '
		BEGIN {
			if (p == "") { print "time left unknown"; exit }
			k = split(todo, s, " ")
			for (j = 1; j <= k; j++)
				t += s[j] * p * ((j >= i) + more)
			printf "about %d s left", t + 0.5
		}')
		if [ -n "$budget" ] && [ "$run" -eq 1 ] && [ -n "$pace" ] &&
		    awk -v p="$pace" -v c="$size" -v n="$runs" -v now="$now" -v b="$budget" \
			'BEGIN { exit !(now * n + p * c * n > b) }'; then
			echo "sweep: -c $size and above not started: at $pace s per -c 1 so far, they would end past the ${budget} s budget (-b)" >&2
			break
		fi
		of="$((done_runs + skipped + 1)) of $((count * runs))"
		[ "$runs" -eq 1 ] || of="$of, run $run"
		echo "sweep: -c $size ($of), ${now%.*} s so far, $left" >&2
		rc=0
		# shellcheck disable=SC2086 # opts is a list of options
		"$scan" -c "$size" $opts --format=csv >"$tmp/run.csv" 2>"$tmp/err" || rc=$?
		case $rc in
		0)
			rows "$run"
			echo "$size $(awk -v a="$(clock)" -v b="$now" 'BEGIN { print a - b }')" >>"$tmp/times"
			ran="$ran $size"
			done_runs=$((done_runs + 1))
			if [ -n "$out" ]; then
				output_put "$tmp/all.csv" "$out"
				interrupt_note="$out keeps the $done_runs run$([ "$done_runs" -eq 1 ] || echo s) that finished"
			fi
			;;
		1)
			echo "sweep: -c $size skipped: $(sed -n 's/^scan: //p' "$tmp/err" | head -n 1)" >&2
			skipped=$((skipped + runs - run + 1))
			;;
		*)
			sed -n '1,3p' "$tmp/err" >&2
			[ -s "$tmp/err" ] || echo "sweep.sh: scan -c $size exited $rc with no message" >&2
			[ -z "$out" ] || [ "$done_runs" -eq 0 ] ||
				echo "sweep.sh: $out keeps the $done_runs run$([ "$done_runs" -eq 1 ] || echo s) that finished" >&2
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
[ -s "$tmp/all.csv" ] || { echo "sweep.sh: no size ran" >&2; exit 1; }
table "$tmp/all.csv" >"$tmp/table" || exit 1
stdout_put "$tmp/table"
