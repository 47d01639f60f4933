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
#/ figures.  Under the table, a line a walk and size: the smallest change
#/ these runs could see here, from the interval they measured ("changes
#/ under about 20% cannot be seen at 5 runs a side here"), and about how
#/ many runs a side would see 5% and 10%.  -v adds U, its p-value and the method (and with -n each
#/ scan command and its stderr).  Under the table, a footnote gives each
#/ warning scan gave (its code, from the CSVs' warnings column), most
#/ important first, with how many runs of each side gave it and, with
#/ -n, scan's line for it.  -n and -v may stand anywhere before the
#/ first --.
#/
#/ One run a side (two files of one run each): "one run a side: spread
#/ within the run only"; a change is marked noise when the runs'
#/ interquartile ranges over rounds overlap (min-max before 2.0).
#/ Exit 1, with one line naming the file and row, on a CSV without
#/ label, pages or speedup columns, a row of the wrong width or with a
#/ speedup that is not a positive number, two rows for one walk and size
#/ in a run, or no walk and size on both sides; exit 2 on bad usage.
set -eu
case $0 in */*) env=${0%/*}/scan-env.sh ;; *) env=./scan-env.sh ;; esac	# traps, $scan, run_awk, usage, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"
max_runs=200	# 200 a side is 40,000 ratios to sort per walk and size

verbose=0
runs="" runs_given=""
# compare.sh's own options, wherever they stand before the first --; the
# other words stay, in order, at the end of "$@".  A word after one of
# scan's short options that take a value is that value.
left=$# dashes="" value_of=""
while [ "$left" -gt 0 ]; do
	a=$1
	shift
	left=$((left - 1))
	if [ -n "$dashes$value_of" ]; then
		value_of=""
		set -- "$@" "$a"
		continue
	fi
	case $a in
	-h | --help) usage; exit 0 ;;
	-v) verbose=1 ;;
	-n) [ "$left" -gt 0 ] || usage_error "-n needs a number of runs"
		runs=$1 runs_given=1; shift; left=$((left - 1)) ;;
	-n*) runs=${a#-n} runs_given=1 ;;
	--) dashes=1; set -- "$@" "$a" ;;
	-[cmsrt]) value_of=$a; set -- "$@" "$a" ;;
	*) set -- "$@" "$a" ;;
	esac
done

# The arguments stay as they are, "$@": the --s part them into sections
# 0, 1 and 2, and a step takes the section it needs from them.
nsec=0
for arg; do
	[ "$arg" != -- ] || nsec=$((nsec + 1))
done
[ "$nsec" -le 2 ] || usage_error "more than two --"

# compare_files NBEFORE FILE...: the table, from the first NBEFORE files
# against the rest.  A name awk would read as an assignment or an option
# is given to it as ./NAME.
compare_files() {
	nb=$1
	shift
	k=$#
	while [ "$k" -gt 0 ]; do
		input_ok "$1"
		[ -s "$1" ] || fail "$1 is empty"
		operand "$1"
		shift
		set -- "$@" "$operand"
		k=$((k - 1))
	done
	wfile=${wfile:-} run_awk "stats compare" -F, -v nb="$nb" -v verbose="$verbose" \
	    -v max_runs="$max_runs" "$@"
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

# run_scan OUT SIDE SEED ARG...: one scan process of side SIDE (1 before,
# 2 after): the ARGs of section 0 and of section SIDE, each one word;
# side_line_SIDE, that side's command as a shell reads it.
run_scan() {
	out=$1 side=$2 seed=$3
	shift 3
	k=$# sec=0
	while [ "$k" -gt 0 ]; do
		if [ "$1" = -- ]; then
			sec=$((sec + 1))
		elif [ "$sec" -eq 0 ] || [ "$sec" -eq "$side" ]; then
			set -- "$@" "$1"
		fi
		shift
		k=$((k - 1))
	done
	command_line scan "$@"
	if [ "$side" -eq 1 ]; then side_line_1=$line; else side_line_2=$line; fi
	[ -z "$seed" ] || set -- "$@" -s "$seed"
	set -- "$@" --format=csv
	command_line "$scan" "$@"
	[ "$verbose" -eq 0 ] || say_line "compare.sh: $line"
	rc=0
	"$scan" "$@" >"$out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -ne 0 ]; then
		scratch_ok
		fail "$line failed: $(grep -m 1 . "$tmp/err" || echo "exit $rc, no message")"
	fi
	cat "$tmp/err" >>"$tmp/warnings"
	[ "$verbose" -eq 0 ] || run_awk plain-lines <"$tmp/err" >&2
}

# run_both ARG...: N runs a side, interleaved, then their table.
run_both() {
	whole -n "$runs"
	[ "$runs" -le "$max_runs" ] || usage_error "-n $runs: at most $max_runs"
	[ "$nsec" -eq 2 ] || usage_error "-n N needs [SCAN_OPTION...] -- [BEFORE_OPTION...] -- [AFTER_OPTION...]"
	for w; do
		case $w in
		--format* | -h | --help | -V | --version)
			usage_error "$w: compare.sh runs scan --format=csv itself" ;;
		esac
	done
	need_scan compare.sh
	: >"$tmp/warnings"
	given_seed=0
	has_seed "$@" && given_seed=1
	i=1
	seeds=""
	while [ "$i" -le "$runs" ]; do
		run_scan "$tmp/before.$i.csv" 1 "" "$@"
		seed=""
		[ "$given_seed" -eq 1 ] ||
			seed=$(column=seed run_awk first-row -F, "$tmp/before.$i.csv")
		run_scan "$tmp/after.$i.csv" 2 "$seed" "$@"
		seeds="$seeds${seeds:+ }$seed"
		i=$((i + 1))
	done
	printf 'before: %s\nafter:  %s\n' "$side_line_1" "$side_line_2" | run_awk plain-lines
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
	wfile=$tmp/warnings
	compare_files "$runs" "$@"
}

# files_both ARG...: BEFORE.csv... -- AFTER.csv..., or two files.
files_both() {
	if [ "$nsec" -eq 0 ]; then
		[ $# -eq 2 ] || usage_error "give BEFORE.csv AFTER.csv, or BEFORE.csv... -- AFTER.csv..."
		compare_files 1 "$@"
		return
	fi
	nb=0
	for arg; do
		[ "$arg" != -- ] || break
		nb=$((nb + 1))
	done
	if [ "$nb" -eq 0 ] || [ "$nb" -ge $(($# - 1)) ]; then
		usage_error "give BEFORE.csv AFTER.csv, BEFORE.csv... -- AFTER.csv..., or -n N"
	fi
	k=$#
	while [ "$k" -gt 0 ]; do	# the files, without the --
		[ "$1" = -- ] || set -- "$@" "$1"
		shift
		k=$((k - 1))
	done
	compare_files "$nb" "$@"
}

need_math compare.sh
scratch
warning_codes	# their order, for the footnote
# the table goes to stdout at the end, so a full or closed stdout is seen
if [ -n "$runs_given" ]; then
	run_both "$@" >"$tmp/stdout"
elif [ "$nsec" -le 1 ] && [ $# -gt 0 ]; then
	files_both "$@" >"$tmp/stdout"
else
	usage_error "give BEFORE.csv AFTER.csv, BEFORE.csv... -- AFTER.csv..., or -n N"
fi
stdout_put "$tmp/stdout"
