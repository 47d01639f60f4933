#!/bin/sh
#/ report.sh - run scan N times, and N times more with --kernel-like at
#/ the same size, interleaved, and print a block ready to paste into a
#/ plain-text mail: the machine, the command, the size, the protocol, the
#/ model, each walk's ratio with its spread over the runs, the same for
#/ the kernel-like model (and the kernel's own ratio from scan-kernel's
#/ CSV), the warnings and the original's lines.  scan-collect reads such
#/ blocks back into a table.
#/
#/ usage: scripts/report.sh [-h] [-n N] [--one-model] [--kernel=FILE.csv]
#/                          [SCAN_OPTION...] [-- SCAN_OPTION...]
#/
#/   -n N   run scan as N processes a model, one after another, with one
#/          seed (default 3: a spread between processes, the smallest
#/          number with a middle; -n 1 is one run, its spread over rounds)
#/   --one-model
#/          only the model asked for, not --kernel-like beside it (so
#/          also with --kernel-like or --original, which rules it out)
#/   --kernel=FILE.csv
#/          the kernel's own ratio (ListLRU) from scan-kernel -o's CSV,
#/          with its working set and host, beside the models'
#/
#/ -n may come anywhere before a --; every other option goes to scan as
#/ it is, and all after a -- do.  Without -c, -m or --memmap-from, scan
#/ runs at -c auto, a size that is not cache-sized here (report.sh says
#/ which on stderr, and the block's command gives it as -c).  The block
#/ is at most 72 columns wide (but for a word longer than a line, kept
#/ whole) and has no tabs; its shape is in scan-report(1).  SCAN names
#/ the binary (default ./scan); the block's command says scan.  Exit
#/ status: 0 a block, 1 scan failed or printed no CSV of scan's (the
#/ reason on stderr), 2 a usage error.
set -eu
case $0 in */*) env=${0%/*}/scan-env.sh ;; *) env=./scan-env.sh ;; esac	# traps, $scan, run_awk, usage, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

runs=3 sized="" two=1 measured=""
# report.sh's own options, wherever they stand before a --; the rest
# stay words for scan, moved to the end of "$@" in order.  A word after
# one of scan's short options that take a value is that value.
left=$# after_dashes="" value_of=""
while [ "$left" -gt 0 ]; do
	a=$1
	shift
	left=$((left - 1))
	if [ -n "$value_of" ]; then
		value_of=""
		set -- "$@" "$a"
		continue
	fi
	case $a in -[cm]* | -[vq]*[cm]* | --memmap-from*) sized=1 ;; esac
	if [ -n "$after_dashes" ]; then
		set -- "$@" "$a"
		continue
	fi
	case $a in
	-h | --help) usage; exit 0 ;;
	-n) [ "$left" -gt 0 ] || usage_error "-n needs a number of runs"
		runs=$1; shift; left=$((left - 1)) ;;
	-n*) runs=${a#-n} ;;
	--one-model) two=0 ;;
	--kernel=?*) measured=${a#--kernel=} ;;
	--kernel=) usage_error "--kernel='': give scan-kernel's CSV (its -o)" ;;
	--) after_dashes=1 ;;
	-[cmsrt]) value_of=$a; set -- "$@" "$a" ;;
	*) set -- "$@" "$a" ;;
	esac
done
case $runs in	# two digits at most: 99
'' | *[!0-9]* | 0* | ???*) usage_error "-n '$runs': not a whole number of runs from 1 to 99" ;;
esac

for a; do	# (an if, not a case: the man page test reads case labels as options)
	[ "${a#--format}" = "$a" ] || usage_error "$a: report.sh prints its own block"
done
need_scan report.sh
need_math report.sh
scratch
# --kernel's CSV, copied (awk reads the copy) and checked before any run
kernel_csv=""
if [ -n "$measured" ]; then
	[ "$measured" != - ] || usage_error "--kernel=-: give a file, not stdin"
	input_ok "$measured"
	kernel_csv=$tmp/kernel.csv
	cp -- "$measured" "$kernel_csv" 2>/dev/null || { scratch_ok; fail "cannot read $measured"; }
	kernel_csv=$kernel_csv kernel_name=$measured kernel_check=1 kernel_who=report.sh \
	    run_awk explain-kernel </dev/null || exit 1
fi
# The kernel-like model beside the one asked for, unless that is it
# already or --original rules it out (scan refuses the two together).
if [ "$two" -eq 1 ]; then
	for a; do
		case $a in
		--kernel-like | --original)
			say_line "report.sh: $a given: one model in the block, not --kernel-like beside it"
			two=0 ;;
		esac
	done
fi
# No size given: the size scan names as not cache-sized here.
[ -n "$sized" ] || set -- -c auto "$@"

# run_scan K ARGS...: run K, the data in $tmp/csv.K, -v's lines on stderr
# in $tmp/text.K; a failing scan stops the report with its own message.
# (K is kl.N for the kernel-like model's run N.)
run_scan() {
	k=$1
	shift
	if [ -t 2 ] && { [ "$runs" -gt 1 ] || [ "$two" -eq 1 ]; }; then
		case $k in
		kl.*) echo "report.sh: run ${k#kl.} of $runs, --kernel-like" >&2 ;;
		*) echo "report.sh: run $k of $runs" >&2 ;;
		esac
	fi
	rc=0
	"$scan" "$@" --format=csv -v >"$tmp/csv.$k" 2>"$tmp/text.$k" || rc=$?
	if [ "$rc" -ne 0 ]; then
		# (an interrupt may have taken the scratch directory already)
		[ ! -r "$tmp/text.$k" ] || run_awk plain-lines "$tmp/text.$k" >&2
		if [ -r "$tmp/text.$k" ] && [ ! -s "$tmp/text.$k" ]; then
			scratch_ok
			say_line "report.sh: $scan exited $rc with no message"
		fi
		exit "$rc"
	fi
}

# scan_csv_ok FILE: FILE is a CSV of scan's, else a line saying why.
scan_csv_ok() {
	file=$scan run_awk report-check -F, "$1" >&2
}

run_scan 1 "$@"
scan_csv_ok "$tmp/csv.1"

# -c auto: the size scan chose, given as -c to the other runs and in the
# block's command, so that they rerun it anywhere.
if [ -z "$sized" ]; then
	auto=$(awk '/^-c auto is -c [0-9.]+: / { print $5; exit }' "$tmp/text.1" | tr -d :)
	[ -n "$auto" ] || fail "$scan -c auto did not say the size it chose"
	said=$(grep -m 1 '^-c auto is ' "$tmp/text.1")
	say_line "report.sh: no -c given: $said"
	shift 2
	set -- -c "$auto" "$@"
fi

# One seed for every run, so the block's command reruns each of them.
seeded=0
for a in "$@"; do
	case $a in -s*) seeded=1 ;; esac
done
seed=
if [ "$seeded" -eq 0 ]; then
	seed=$(column=seed run_awk first-row -F, "$tmp/csv.1")
	set -- "$@" -s "$seed"
fi
# The runs in turn, each model's run k beside the other's, so that a
# change in the machine over the minutes moves both alike.
# (run_scan sets k: the loop counts with i)
i=1
while [ "$i" -le "$runs" ]; do
	if [ "$i" -gt 1 ]; then
		run_scan "$i" "$@"
		scan_csv_ok "$tmp/csv.$i"
	fi
	if [ "$two" -eq 1 ]; then
		run_scan "kl.$i" "$@" --kernel-like
		scan_csv_ok "$tmp/csv.kl.$i"
	fi
	i=$((i + 1))
done

# The command as a shell reads it, naming scan (not where it lives here).
command_line scan "$@"
cmd=$line

# The protocol: the options that change what is measured, as given.  The
# size, seed, repetition, output and which walks are printed do not.
# (scan's options are quoted here: they are not report.sh's own.)
protocol=
while [ $# -gt 0 ]; do
	a=$1
	shift
	case $a in
	-[cmsrt])
		[ "$a" = -t ] && protocol="$protocol -t ${1:-}"
		[ $# -gt 0 ] && shift ;;
	-t?*) protocol="$protocol $a" ;;
	"-"[cmsr]?* | "-"[vqhV]* | "--format"* | "--walks"* | "--cpu"* | "--builds"*)
		case $a in --*=*) ;; --*) [ $# -gt 0 ] && shift ;; esac ;;
	--*=*) protocol="$protocol $a" ;;
	"--original" | "--kernel-like") protocol="$protocol $a" ;;
	--*)
		case ${1:-} in
		'' | -*) protocol="$protocol $a" ;;
		*) protocol="$protocol $a=$1"; shift ;;
		esac ;;
	esac
done
protocol=${protocol# }

# The runs' files for the awk below, then their warning lines (the codes
# come from the CSVs, their order from scan).
warning_codes
k=1
while [ "$k" -le "$runs" ]; do
	echo "csv $tmp/csv.$k"
	[ "$two" -eq 0 ] || echo "klcsv $tmp/csv.kl.$k"
	k=$((k + 1))
done >"$tmp/index"
# the model in words (scan's model line, to its first ";"), then each
# run's warning lines
for k in 1 kl.1; do
	[ -r "$tmp/text.$k" ] || continue
	awk -v key="${k%.1}" 'sub(/^scan: model: /, "") { sub(/;.*/, ""); print (key == "kl" ? "klmodel " : "model ") $0; exit }' "$tmp/text.$k"
done >>"$tmp/index"
k=1
while [ "$k" -le "$runs" ]; do
	awk '/^scan: warning: / { print "warn " $0 }' "$tmp/text.$k"
	k=$((k + 1))
done >>"$tmp/index"
k=1
while [ "$two" -eq 1 ] && [ "$k" -le "$runs" ]; do
	awk '/^scan: warning: / { print "klwarn " $0 }' "$tmp/text.kl.$k"
	k=$((k + 1))
done >>"$tmp/index"

cmd=$cmd protocol=$protocol kernel_csv=$kernel_csv kernel_name=$measured \
    run_awk "explain-kernel report" -v runs="$runs" "$tmp/index" \
	>"$tmp/block" || { scratch_ok; exit 1; }	# not a pipe: a failing awk must fail the script
tr '\t' ' ' <"$tmp/block" >"$tmp/untabbed" || { scratch_ok; exit 1; }
run_awk report-wrap "$tmp/untabbed" >"$tmp/wrapped" || { scratch_ok; exit 1; }
awk '{ sub(/ *$/, ""); print }' "$tmp/wrapped" >"$tmp/out" || { scratch_ok; exit 1; }
stdout_put "$tmp/out"
