#!/bin/sh
#/ compare.sh - is a change real?  Compare scan's speedups before and
#/ after, walk by walk and size by size, over several processes a side.
#/
#/ usage: scripts/compare.sh [-h] [-v] BEFORE.csv AFTER.csv
#/        scripts/compare.sh [-v] BEFORE.csv... -- AFTER.csv...
#/        scripts/compare.sh [-v] -n N [SCAN_OPTION...] -- [BEFORE_OPTION...] -- [AFTER_OPTION...]
#/
#/ A run is one scan process; its speedup is its median over rounds.
#/ CSVs come from scan --format=csv or sweep.sh -o; one CSV holds several
#/ runs when a run column tells them apart.  -n N runs scan itself, N
#/ times a side, interleaved before, after, before, after, with the
#/ SCAN_OPTIONs on both sides and each side's own after them (either may
#/ be empty).  Each pair shares a seed: scan picks the before run's and
#/ the after run reuses it, so both sides see the same N layouts (a -s
#/ in the options is used as given instead).
#/
#/ With 3 or more runs a side, a row gives each side's median over runs
#/ with its range, the change, and the verdict: "no change detected
#/ (95%: -2.1% to +1.8%)" when the interval holds 0, else the change with
#/ its interval.  The change is the Hodges-Lehmann shift of
#/ log(speedup): the median of the after/before ratios of every pair of
#/ runs.  Its interval is the exact Mann-Whitney one, order statistics of
#/ those ratios.  Why: it assumes no shape for the spread between
#/ processes (it depends on where each one's memory lands, and 5 runs
#/ show no shape), it is exact at 3 to 24 runs a side (then the normal
#/ approximation), with no resampling, and as a ratio it reads alike
#/ at every walk and size.  3 and 3 runs (or 3 and 4) cannot reach 95%:
#/ the interval is then the widest and says the confidence it has (90%,
#/ 94%).  Fewer than 3 runs a side: no verdict, said beside the
#/ figures.  -v adds U, its p-value and the method (and with -n each
#/ scan command and its stderr; else each kind of warning once).
#/
#/ One run a side (two files of one run each): "one run a side: spread
#/ within the run only"; a change is marked noise when the runs'
#/ interquartile ranges over rounds overlap (min-max before 2.0).
#/ Exit 1, with one line naming the file and row, on a CSV without
#/ label, pages or speedup columns, a row of the wrong width or with a
#/ speedup that is not a positive number, two rows for one walk and size
#/ in a run, or no walk and size on both sides; exit 2 on bad usage.
set -eu
env=$(dirname "$0")/scan-env.sh	# usage, $scan, $awk, $awklib, need_scan, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"
# the statistics live beside scan-env.sh, installed or not
statslib=$(cat "${env%/*}/stats.awk") || exit 1

max_runs=200	# 200 a side is 40,000 ratios to sort per walk and size

# quote ARG: ARG as one shell word, for eval.
quote() {
	printf "'%s' " "$(printf '%s\n' "$1" | sed "s/'/'\\\\''/g")"
}

verbose=0
runs="" runs_given=""
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-v) verbose=1 ;;
	-n) [ $# -ge 2 ] || usage_error "-n needs a number of runs (-h for help)"; runs=$2 runs_given=1; shift ;;
	-n*) runs=${1#-n} runs_given=1 ;;
	*) break ;;
	esac
	shift
done

# The arguments between the --s: section 0, 1, 2, each as quoted words.
sec0="" sec1="" sec2="" nsec=0
for arg; do
	if [ "$arg" = -- ]; then
		nsec=$((nsec + 1))
		[ $nsec -le 2 ] || { echo "compare.sh: more than two --" >&2; exit 2; }
		continue
	fi
	eval "sec$nsec=\"\$sec$nsec\$(quote \"\$arg\")\""
done

# compare_files NBEFORE FILE...: the table, from the first NBEFORE files
# against the rest.
compare_files() {
	nb=$1
	shift
	for f; do
		input_ok "$f"
		[ -s "$f" ] || { echo "compare.sh: $f is empty" >&2; exit 1; }
	done
	# $awk may be a command and its arguments; the program is awk's, not ours
	# shellcheck disable=SC2086,SC2016
	$awk -F, -v nb="$nb" -v verbose="$verbose" -v max_runs="$max_runs" \
	    "$awklib
$statslib"'
function fail(msg) {
	printf "compare.sh: %s\n", msg > "/dev/stderr"
	failed = 1
	exit 1
}
function is_number(s) {
	return s ~ /^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ && s + 0 < 1e300
}
function quoted(s) { return "\"" (length(s) > 20 ? substr(s, 1, 20) "..." : s) "\"" }
function size(pages) { return sprintf("%g", pages / 1e6) }

FNR == 1 {
	file++
	side = file <= nb ? 1 : 2
	sub(/\r$/, "")
	csv_header()
	header = $0
	nf = NF
	if (!csv_has("label") || !csv_has("pages") || !csv_has("speedup"))
		fail(FILENAME ": no " (csv_has("label") ? csv_has("pages") ? "speedup" : \
		    "pages" : "label") " column: not a CSV of scan --format=csv")
	# the spread within a run: quartiles over rounds since 2.0, else extremes
	spread_lo = csv_has("speedup_q1") && csv_has("speedup_q3") ? "speedup_q1" : "speedup_min"
	spread_hi = spread_lo == "speedup_q1" ? "speedup_q3" : "speedup_max"
	next
}
{ sub(/\r$/, "") }
$0 == "" { next }
$0 == header { fail(FILENAME ": row " FNR " repeats the header (two CSVs joined?)") }
NF != nf { fail(FILENAME ": row " FNR " has " NF " fields, the header " nf) }
{
	label = csv_field("label")
	pages = csv_field("pages")
	if (pages !~ /^[1-9][0-9]*$/)
		fail(FILENAME ": row " FNR ": pages " quoted(pages) " is not a positive whole number")
	if (label == "Physical")
		next
	if (label == "")
		fail(FILENAME ": row " FNR ": no label")
	speedup = csv_field("speedup")
	if (!is_number(speedup) || speedup + 0 <= 0)
		fail(FILENAME ": row " FNR ": speedup " quoted(speedup) " is not a positive number")
	run = csv_has("run") ? csv_field("run") : 1
	if (run !~ /^[1-9][0-9]*$/)
		fail(FILENAME ": row " FNR ": run " quoted(run) " is not a positive whole number")
	key = label SUBSEP pages
	if ((file, run, key) in seen)
		fail(FILENAME ": row " FNR " is a second row for " label " at -c " size(pages) \
		    (csv_has("run") ? " in run " run : ""))
	seen[file, run, key]
	if (!((side, file, run) in runs_seen)) {
		runs_seen[side, file, run]
		nruns[side]++
	}
	k = ++count[side, key]
	value[side, key, k] = speedup + 0
	lo = csv_field(spread_lo)
	hi = csv_field(spread_hi)
	if (lo != "" && !is_number(lo) || hi != "" && !is_number(hi))
		fail(FILENAME ": row " FNR ": " (lo != "" && !is_number(lo) ? spread_lo " " \
		    quoted(lo) : spread_hi " " quoted(hi)) " is not a number")
	if (lo != "" && hi != "") {
		spread[side, key, 1] = lo + 0
		spread[side, key, 2] = hi + 0
	}
	if (side == 1 && count[1, key] == 1)
		order[++nkeys] = key
}

function pct(v) { return sprintf("%+.1f%%", 100 * v) }

# one_run_table(): a run a side, the noise judged by the spread over rounds
function one_run_table(    i, key, part, b, a, noise, note) {
	print "one run a side: spread within the run only"
	printf "%-10s %10s %12s %12s %9s\n", "walk", "-c", "before", "after", "change"
	for (i = 1; i <= nkeys; i++) {
		key = order[i]
		if (!((2, key) in count))
			continue
		split(key, part, SUBSEP)
		b = value[1, key, 1]
		a = value[2, key, 1]
		if ((1, key, 1) in spread && (2, key, 1) in spread) {
			noise = spread[1, key, 1] <= spread[2, key, 2] && \
			    spread[2, key, 1] <= spread[1, key, 2]
			note = noise ? "  noise" : ""
		} else
			note = "  spread unknown"
		printf "%-10s %10s %12.3f %12.3f %+8.1f%%%s\n", part[1], size(part[2]),
		    b, a, 100 * (a / b - 1), note
	}
}

# side_figures(s, key, v): side s: its values sorted into v[], and its
# median with range and runs as text.
function side_figures(s, key, v,    k, n) {
	n = count[s, key]
	for (k = 1; k <= n; k++)
		v[k] = value[s, key, k]
	sort_numbers(v, n)
	return sprintf("%.2f (%.2f-%.2f, %d run%s)", median_of(v, n), v[1], v[n],
	    n, n == 1 ? "" : "s")
}

# verdict(b, m, a, n, r): the change and the verdict, from the speedups
# b[1..m] before and a[1..n] after, compared as logs.
function verdict(b, m, a, n, r,    lb, la, k, conf, interval) {
	for (k = 1; k <= m; k++)
		lb[k] = log(b[k])
	for (k = 1; k <= n; k++)
		la[k] = log(a[k])
	mw_compare(lb, m, la, n, r)
	r["change"] = pct(exp(r["est"]) - 1)
	if (m < 3 || n < 3)
		return "no verdict: fewer than 3 runs a side"
	conf = r["conf"] >= 0.95 ? 95 : int(100 * r["conf"])
	interval = "(" conf "%: " pct(exp(r["lo"]) - 1) " to " pct(exp(r["hi"]) - 1) ")"
	return (r["lo"] <= 0 && r["hi"] >= 0 ? "no change detected " : \
	    "change " r["change"] " ") interval \
	    (verbose ? sprintf("  U %g, p %.3g (%s)", r["u"], r["p"], r["method"]) : "")
}

# runs_table(): several runs a side: the figures, then the verdict; the
# columns as wide as their widest entry.
function runs_table(    i, key, part, m, n, b, a, r, rows, cell, w, fmt) {
	w[1] = length("before")
	w[2] = length("after")
	for (i = 1; i <= nkeys; i++) {
		key = order[i]
		if (!((2, key) in count))
			continue
		split(key, part, SUBSEP)
		m = count[1, key]
		n = count[2, key]
		if (m > max_runs || n > max_runs)
			fail("more than " max_runs " runs of " part[1] " at -c " size(part[2]) " on a side")
		rows++
		cell[rows, 1] = part[1]
		cell[rows, 2] = size(part[2])
		cell[rows, 3] = side_figures(1, key, b)
		cell[rows, 4] = side_figures(2, key, a)
		cell[rows, 6] = verdict(b, m, a, n, r)
		cell[rows, 5] = r["change"]
		w[1] = length(cell[rows, 3]) > w[1] ? length(cell[rows, 3]) : w[1]
		w[2] = length(cell[rows, 4]) > w[2] ? length(cell[rows, 4]) : w[2]
	}
	fmt = "%-10s %8s  %-" w[1] "s  %-" w[2] "s %7s  %s\n"
	printf fmt, "walk", "-c", "before", "after", "change", "verdict"
	for (i = 1; i <= rows; i++)
		printf fmt, cell[i, 1], cell[i, 2], cell[i, 3], cell[i, 4], cell[i, 5], cell[i, 6]
}

END {
	if (failed)
		exit 1
	for (i = 1; i <= nkeys; i++)
		common += (2, order[i]) in count
	if (!common)
		fail("no walk and size in both before and after")
	if (nruns[1] == 1 && nruns[2] == 1)
		one_run_table()
	else
		runs_table()
}' "$@"
}

# has_seed WORD...: one of them sets scan's seed (-s N, -sN, -vs N).
has_seed() {
	for w; do
		case $w in
		-s* | -[vq]*s*) return 0 ;;
		esac
	done
	return 1
}

# run_scan OUT.csv SIDE_OPTIONS SEED: one scan process of one side.
run_scan() {
	out=$1 seed=$3
	eval "set -- $sec0 $2"
	[ -z "$seed" ] || set -- "$@" -s "$seed"
	set -- "$@" --format=csv
	echo "$scan $*" >"$tmp/cmd"
	[ "$verbose" -eq 0 ] || echo "compare.sh: $scan $*" >&2
	rc=0
	"$scan" "$@" >"$out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "compare.sh: $(cat "$tmp/cmd") failed: $(grep -m 1 . "$tmp/err" || echo "exit $rc, no message")" >&2
		exit 1
	fi
	cat "$tmp/err" >>"$tmp/warnings"
	[ "$verbose" -eq 0 ] || cat "$tmp/err" >&2
}

# run_both: N runs a side, interleaved, then their table.
run_both() {
	whole -n "$runs"
	[ "$runs" -le "$max_runs" ] || usage_error "-n $runs: at most $max_runs"
	[ "$nsec" -eq 2 ] || usage_error "-n N needs [SCAN_OPTION...] -- [BEFORE_OPTION...] -- [AFTER_OPTION...] (-h for help)"
	eval "set -- $sec0 $sec1 $sec2"
	for w; do
		case $w in
		--format* | -h | --help | -V | --version)
			echo "compare.sh: $w: compare.sh runs scan --format=csv itself" >&2
			exit 2 ;;
		esac
	done
	need_scan compare.sh
	: >"$tmp/warnings"
	given_seed=0
	eval "has_seed $sec0 $sec1 $sec2" && given_seed=1
	i=1
	seeds=""
	while [ "$i" -le "$runs" ]; do
		run_scan "$tmp/before.$i.csv" "$sec1" ""
		seed=""
		[ "$given_seed" -eq 1 ] || seed=$($awk -F, "$awklib"'
			NR == 1 { csv_header(); next } { print csv_field("seed"); exit }' \
			"$tmp/before.$i.csv")
		run_scan "$tmp/after.$i.csv" "$sec2" "$seed"
		seeds="$seeds${seeds:+ }$seed"
		i=$((i + 1))
	done
	eval "set -- $sec0 $sec1"
	echo "before: scan $*"
	eval "set -- $sec0 $sec2"
	echo "after:  scan $*"
	if [ "$given_seed" -eq 1 ]; then
		echo "$runs runs a side, interleaved, seeds as given"
	else
		echo "$runs runs a side, interleaved, a seed a pair: $seeds"
	fi
	set --
	i=1
	while [ "$i" -le "$runs" ]; do
		set -- "$@" "$tmp/before.$i.csv"
		i=$((i + 1))
	done
	i=1
	while [ "$i" -le "$runs" ]; do
		set -- "$@" "$tmp/after.$i.csv"
		i=$((i + 1))
	done
	compare_files "$runs" "$@"
	[ "$verbose" -eq 1 ] || say_warnings $((2 * runs))
}

# say_warnings RUNS: each kind of line scan said (the same words, other
# figures) once, the first of them, with how many of the RUNS said it.
say_warnings() {
	# shellcheck disable=SC2086,SC2016 # $awk: a command; the program: awk's
	$awk -v runs="$1" '{
		kind = $0
		gsub(/[0-9][0-9.e+-]*/, "#", kind)
		if (!(kind in times)) {
			kinds++
			first[kinds] = $0
			kind_of[kinds] = kind
		}
		times[kind]++
	}
	END {
		for (k = 1; k <= kinds; k++)
			printf "compare.sh: %d of %d runs: %s\n", times[kind_of[k]], runs, first[k]
	}' "$tmp/warnings" >&2
}

need_math compare.sh
scratch
# the table goes to stdout at the end, so a full or closed stdout is seen
{
	if [ -n "$runs_given" ]; then
		run_both
	elif [ "$nsec" -eq 0 ] && [ -n "$sec0" ]; then
		eval "set -- $sec0"
		[ $# -eq 2 ] || usage_error "give BEFORE.csv AFTER.csv, or BEFORE.csv... -- AFTER.csv... (-h for help)"
		compare_files 1 "$@"
	elif [ "$nsec" -eq 1 ] && [ -n "$sec0" ] && [ -n "$sec1" ]; then
		eval "set -- $sec0"
		nb=$#
		eval "set -- $sec0 $sec1"
		compare_files "$nb" "$@"
	else
		usage_error "give BEFORE.csv AFTER.csv, BEFORE.csv... -- AFTER.csv..., or -n N (-h for help)"
	fi
} >"$tmp/stdout"
stdout_put "$tmp/stdout"
