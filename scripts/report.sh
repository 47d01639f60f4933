#!/bin/sh
#/ report.sh - run scan N times, and N times more with --kernel-like at
#/ the same size, interleaved, and print a block ready to paste into a
#/ plain-text mail: the machine, the command, the size, the protocol, the
#/ model, each walk's ratio with its spread over the runs, the same for
#/ the kernel-like model (and the kernel's own ratio from scan-kernel's
#/ CSV), the warnings and the original's lines.  scan-collect reads such
#/ blocks back into a table.
#/
#/ usage: scripts/report.sh [-h] [-n N] [--one-model] [--brief]
#/                          [--kernel=FILE.csv | --kernel-run[=SIZE]]
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
#/   --kernel-run[=SIZE]
#/          as root: run scan-kernel first (-m SIZE; default its own),
#/          and set its ratio beside the models' as --kernel would
#/   --brief
#/          make run's output: one run of each model; on stdout the
#/          first run's two lines as scan prints them, on stderr scan's
#/          own lines as they come and then the "in short" lines alone
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

runs=3 runs_given="" sized="" two=1 measured="" kernel_run="" kernel_size="" brief=""
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
		runs=$1 runs_given=1; shift; left=$((left - 1)) ;;
	-n*) runs=${a#-n} runs_given=1 ;;
	--one-model) two=0 ;;
	--brief) brief=1 ;;
	--kernel=?*) measured=${a#--kernel=} ;;
	--kernel=) usage_error "--kernel='': give scan-kernel's CSV (its -o)" ;;
	--kernel-run) kernel_run=1 ;;
	--kernel-run=?*) kernel_run=1 kernel_size=${a#--kernel-run=} ;;
	--kernel-run=) usage_error "--kernel-run='': give scan-kernel's -m SIZE, or no =" ;;
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
[ -z "$measured" ] || [ -z "$kernel_run" ] ||
	usage_error "--kernel=$measured and --kernel-run: give one kernel figure"
if [ -n "$brief" ]; then
	[ -z "$runs_given" ] || usage_error "-n $runs with --brief: it runs each model once"
	runs=1
fi
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
# --kernel-run: scan-kernel, as root, before any run of scan; its CSV
# then stands for --kernel's, its stdout's interval for the one the CSV
# lacks (the two scanners' quartiles).  No CSV: the block says why.
kernel_failed="" kernel_lo="" kernel_hi=""
if [ -n "$kernel_run" ]; then
	[ "$(id -u)" -eq 0 ] ||
		fail "--kernel-run: scan-kernel needs root; run report.sh as root, or give --kernel=FILE.csv from sudo scan-kernel -o FILE.csv"
	kernel_sh=""
	for s in "$here/kernel.sh" "$here/scan-kernel"; do
		[ -r "$s" ] && { kernel_sh=$s; break; }
	done
	[ -n "$kernel_sh" ] || fail "--kernel-run: no kernel.sh (scan-kernel) beside $0"
	say_line "report.sh: scan-kernel${kernel_size:+ -m $kernel_size} first, as root (minutes)"
	rc=0
	if [ -n "$kernel_size" ]; then
		sh "$kernel_sh" -m "$kernel_size" -o "$tmp/kernel.csv" >"$tmp/kernel.out" 2>"$tmp/kernel.err" || rc=$?
	else
		sh "$kernel_sh" -o "$tmp/kernel.csv" >"$tmp/kernel.out" 2>"$tmp/kernel.err" || rc=$?
	fi
	[ "$rc" -ne 2 ] || { run_awk plain-lines "$tmp/kernel.err" >&2; exit 2; }
	if [ -s "$tmp/kernel.csv" ]; then
		measured="scan-kernel's CSV"
		kernel_csv=$tmp/kernel.csv
		kernel_csv=$kernel_csv kernel_name=$measured kernel_check=1 kernel_who=report.sh \
		    run_awk explain-kernel </dev/null || exit 1
		interval=$(awk '/^Kernel: physical scan is / && match($0, /\([0-9.]+ to [0-9.]+, /) {
			split(substr($0, RSTART + 1, RLENGTH - 3), v, " to "); print v[1], v[2]; exit }' "$tmp/kernel.out")
		kernel_lo=${interval% *} kernel_hi=${interval#* }
	else
		run_awk plain-lines "$tmp/kernel.err" >&2
		kernel_failed="scan-kernel exited $rc: $(grep -v '^scan-kernel: interrupted' "$tmp/kernel.err" | tail -n 1)"
		kernel_failed=${kernel_failed%: }
	fi
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
	if [ -t 2 ] && [ -z "$brief" ] && { [ "$runs" -gt 1 ] || [ "$two" -eq 1 ]; }; then
		case $k in
		kl.*) echo "report.sh: run ${k#kl.} of $runs, --kernel-like" >&2 ;;
		*) echo "report.sh: run $k of $runs" >&2 ;;
		esac
	fi
	rc=0
	if [ -n "$brief" ]; then
		# scan's lines as a plain run shows them, as they come: the
		# size -c auto chose, its progress, model and warnings (read
		# a line at a time: awk may wait for a block of its input)
		{ "$scan" "$@" --format=csv -v 2>&1 >"$tmp/csv.$k" || echo "$?" >"$tmp/rc.$k"; } |
			tee "$tmp/text.$k" | while IFS= read -r said; do
				case $said in
				"scan: round "*) ;;
				"-c auto is "* | "scan: "*) printf '%s\n' "$said" >&2 ;;
				esac
			done
		[ ! -r "$tmp/rc.$k" ] || rc=$(cat "$tmp/rc.$k")
	else
		"$scan" "$@" --format=csv -v >"$tmp/csv.$k" 2>"$tmp/text.$k" || rc=$?
	fi
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
# --brief: the first run's two lines, as scan printed them, at once
if [ -n "$brief" ]; then
	grep '^Physical scan is ' "$tmp/text.1" >"$tmp/lines" || fail "$scan printed no ratio lines"
	stdout_put "$tmp/lines"
fi

# -c auto: the size scan chose, given as -c to the other runs and in the
# block's command, so that they rerun it anywhere.
if [ -z "$sized" ]; then
	auto=$(awk '/^-c auto is -c [0-9.]+: / { print $5; exit }' "$tmp/text.1" | tr -d :)
	[ -n "$auto" ] || fail "$scan -c auto did not say the size it chose"
	said=$(grep -m 1 '^-c auto is ' "$tmp/text.1")
	[ -n "$brief" ] || say_line "report.sh: no -c given: $said"
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
		if [ -n "$brief" ]; then
			command_line scan "$@" --kernel-like
			say_line "report.sh: and the kernel-like model at that size: $line"
		fi
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
    kernel_lo=$kernel_lo kernel_hi=$kernel_hi kernel_failed=$kernel_failed brief=$brief \
    run_awk "explain-kernel report" -v runs="$runs" "$tmp/index" \
	>"$tmp/block" || { scratch_ok; exit 1; }	# not a pipe: a failing awk must fail the script
tr '\t' ' ' <"$tmp/block" >"$tmp/untabbed" || { scratch_ok; exit 1; }
run_awk report-wrap "$tmp/untabbed" >"$tmp/wrapped" || { scratch_ok; exit 1; }
awk '{ sub(/ *$/, ""); print }' "$tmp/wrapped" >"$tmp/out" || { scratch_ok; exit 1; }
if [ -n "$brief" ]; then
	cat "$tmp/out" >&2
else
	stdout_put "$tmp/out"
fi
