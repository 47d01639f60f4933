#!/bin/sh
#/ report.sh - run scan N times and print a block ready to paste into a
#/ plain-text mail: the machine, the command, the size, the protocol, each
#/ walk's ratio with its spread over the runs, the warnings and the
#/ original's lines.  scan-collect reads such blocks back into a table.
#/
#/ usage: scripts/report.sh [-h] [-n N] [SCAN_OPTION...]
#/
#/   -n N   run scan as N processes, one after another, with one seed
#/          (default 3: a spread between processes, the smallest number
#/          with a middle; -n 1 is one run, its spread over rounds)
#/
#/ The options go to scan as they are (default: none, the original's run).
#/ The block is at most 72 columns wide and has no tabs; its shape is in
#/ scan-report(1).  SCAN names the binary (default ./scan); the block's
#/ command says scan.  Exit status: 0 a block, 1 scan failed or printed no
#/ CSV of scan's (the reason on stderr), 2 a usage error.
set -eu
env=$(dirname "$0")/scan-env.sh	# usage, $scan, $awk, $awklib, need_scan, scratch
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"

runs=3
case ${1:-} in
-h | --help) usage; exit 0 ;;
-n)
	[ $# -ge 2 ] || { echo "report.sh: -n needs a number of runs" >&2; exit 2; }
	runs=$2
	shift 2
	;;
-n*) runs=${1#-n}; shift ;;
esac
case $runs in
'' | *[!0-9]* | 0* | ???*)
	echo "report.sh: -n $runs: not a whole number of runs from 1 to 99" >&2
	exit 2 ;;
esac
[ "$runs" -le 99 ] || {
	echo "report.sh: -n $runs: not a whole number of runs from 1 to 99" >&2
	exit 2
}

for a; do	# (an if, not a case: the man page test reads case labels as options)
	[ "${a#--format}" = "$a" ] || usage_error "$a: report.sh prints its own block (-h for help)"
done
need_scan report.sh
need_math report.sh
scratch

# run_scan K ARGS...: run K, the data in $tmp/csv.K, -v's lines on stderr
# in $tmp/text.K; a failing scan stops the report with its own message.
run_scan() {
	k=$1
	shift
	[ -t 2 ] && [ "$runs" -gt 1 ] && echo "report.sh: run $k of $runs" >&2
	rc=0
	"$scan" "$@" --format=csv -v >"$tmp/csv.$k" 2>"$tmp/text.$k" || rc=$?
	if [ "$rc" -ne 0 ]; then
		# (an interrupt may have taken the scratch directory already)
		[ ! -r "$tmp/text.$k" ] || cat "$tmp/text.$k" >&2
		[ ! -r "$tmp/text.$k" ] || [ -s "$tmp/text.$k" ] ||
			echo "report.sh: $scan exited $rc with no message" >&2
		exit "$rc"
	fi
}

# scan_csv_ok FILE: FILE is a CSV of scan's, else a line saying why.
scan_csv_ok() {
	# shellcheck disable=SC2086 # $awk may be a command and its arguments
	$awk -F, -v file="$scan" "$awklib"'
	NR == 1 {
		csv_header()
		nf = NF
		split("walk label pages speedup speedup_min speedup_max ns_per_page", need, " ")
		for (i = 1; i <= 7; i++)
			if (!csv_has(need[i])) {
				printf "report.sh: %s printed no CSV of scan'\''s (no %s column in its --format=csv)\n", file, need[i]
				exit 1
			}
		next
	}
	NF != nf {
		printf "report.sh: %s printed a CSV whose row %d has %d fields, its header %d\n", file, NR, NF, nf
		exit 1
	}
	{
		for (i = 3; i <= 7; i++)
			if (csv_field(need[i]) !~ /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/) {
				printf "report.sh: %s printed a CSV with %s \"%s\" in row %d\n", file, need[i], csv_field(need[i]), NR
				exit 1
			}
	}
	END { if (NR < 2) { printf "report.sh: %s printed no CSV rows\n", file; exit 1 } }' "$1" >&2
}

run_scan 1 "$@"
scan_csv_ok "$tmp/csv.1"

# One seed for every run, so the block's command reruns each of them.
seeded=0
for a in "$@"; do
	case $a in -s*) seeded=1 ;; esac
done
seed=
if [ "$seeded" -eq 0 ]; then
	seed=$(awk -F, "$awklib"'NR == 1 { csv_header() } NR == 2 { print csv_field("seed") }' "$tmp/csv.1")
	set -- "$@" -s "$seed"
fi
k=2
while [ "$k" -le "$runs" ]; do
	run_scan "$k" "$@"
	scan_csv_ok "$tmp/csv.$k"
	k=$((k + 1))
done

# The command as a shell reads it, naming scan (not where it lives here).
cmd=scan
for a in "$@"; do
	case $a in
	*[!A-Za-z0-9_.,:=/+%@-]*) a="'$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'" ;;
	esac
	cmd="$cmd $a"
done

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

# The runs' files for the awk below, then their warnings, each up to its
# advice (after a semicolon).
k=1
while [ "$k" -le "$runs" ]; do
	echo "csv $tmp/csv.$k"
	k=$((k + 1))
done >"$tmp/index"
k=1
while [ "$k" -le "$runs" ]; do
	sed -n "s/^scan: warning: \([^;]*\).*/warn $k \1/p" "$tmp/text.$k"
	k=$((k + 1))
done >>"$tmp/index"

# shellcheck disable=SC2086 # $awk may be a command and its arguments
# shellcheck disable=SC2016 # an awk program
$awk -v cmd="$cmd" -v protocol="$protocol" -v runs="$runs" "$awklib"'
function known(v) { return v == "" ? "unknown" : v }
function size_of(v) { return v == "" || v == 0 ? "unknown" : human(v, "%.1f") }
function from(v) { return v == "" ? "unknown" : v }

# The median of the n values v[1..n].
function median(v, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}

# Decimals that show the spread lo-hi in two digits (three significant
# digits when there is no spread), so 48.5 (48.0-49.3).
function digits(m, lo, hi,    d) {
	if (hi > lo)
		d = 1 - floor(lg(hi - lo))
	else
		d = m > 0 ? 2 - floor(lg(m)) : 2
	return d < 0 ? 0 : d > 6 ? 6 : d
}

# "m unit (lo-hi, N runs)", or over rounds for one run.
function spread(m, lo, hi, unit,    d, over) {
	d = digits(m, lo, hi)
	over = runs > 1 ? runs " runs" : rounds (rounds == 1 ? " round" : " rounds") ", 1 run"
	return sprintf("%." d "f%s (%." d "f-%." d "f, %s)", m, unit, lo, hi, over)
}
function plural(n, word) { return n " " word (n == 1 ? "" : "s") }

# Each run: the first row for the machine, every row for its walk.
function read_csv(file, k,    line, n, fs) {
	n = 0
	fs = FS
	FS = ","
	while ((getline line < file) > 0) {
		$0 = line
		if (++n == 1) {
			csv_header()
			continue
		}
		if (k == 1 && n == 2)
			keep_machine()
		w = csv_field("walk")
		if (!(w in label)) {
			order[++walks] = w
			label[w] = csv_field("label")
		}
		m[w, k] = csv_field("speedup")
		mn[w, k] = csv_field("speedup_min")
		mx[w, k] = csv_field("speedup_max")
		ns[w, k] = csv_field(w == "physical" ? "ns_per_page" : "ns_per_folio")
		# the spread of the time over rounds, for one run
		if (csv_field("median_s") > 0) {
			nslo[w, k] = ns[w, k] * csv_field("min_s") / csv_field("median_s")
			nshi[w, k] = ns[w, k] * csv_field("max_s") / csv_field("median_s")
		} else {
			nslo[w, k] = nshi[w, k] = ns[w, k]
		}
		if (csv_has("stream_ns"))
			stream[k] = csv_field("stream_ns")
		if (csv_has("chase_ns"))
			chase[k] = csv_field("chase_ns")
	}
	close(file)
	FS = fs
}

function keep_machine(    f, i, n) {
	n = split("version cpu cpu_vendor cpu_family cpu_model cpu_stepping hypervisor host_id cpus numa_nodes ram_bytes l2_bytes l2_from llc_bytes llc_from kernel system_thp pages memory_bytes struct_page huge_share rounds cache thp cache_sized", f, " ")
	for (i = 1; i <= n; i++)
		id[f[i]] = csv_field(f[i])
	if (id["struct_page"] == "")
		id["struct_page"] = 64
}

$1 == "csv" { read_csv($2, NR) }
$1 == "warn" {
	# one line a warning, however many runs gave it (figures aside)
	text = $0
	sub(/^warn [0-9]+ /, "", text)
	key = text
	gsub(/[0-9.]+/, "#", key)
	if (!(key in seen))
		wtext[++warns] = text
	seen[key]++
	wkey[warns] = key
}

# Median over the runs of one walk column.
function over_runs(a, w,    k, v) {
	for (k = 1; k <= runs; k++)
		v[k] = a[w, k]
	return median(v, runs)
}
function lowest(a, w,    k, v) {
	v = a[w, 1]
	for (k = 2; k <= runs; k++)
		if (a[w, k] < v) v = a[w, k]
	return v
}
function highest(a, w,    k, v) {
	v = a[w, 1]
	for (k = 2; k <= runs; k++)
		if (a[w, k] > v) v = a[w, k]
	return v
}

function print_machine(    memmap, sized, t) {
	printf "scan %s report (block 2): %s of one command\n", known(id["version"]),
	    plural(runs, "run")
	printf "cpu: %s\n", known(id["cpu"])
	printf "machine: host %s, vendor %s, family %s, model %s, stepping %s, hypervisor %s, %s CPUs, %s, RAM %s\n",
	    known(id["host_id"]), known(id["cpu_vendor"]), known(id["cpu_family"]),
	    known(id["cpu_model"]), known(id["cpu_stepping"]), known(id["hypervisor"]),
	    known(id["cpus"]), id["numa_nodes"] == "" ? "unknown NUMA nodes" : plural(id["numa_nodes"], "NUMA node"), size_of(id["ram_bytes"])
	printf "caches: L2 %s (%s), LLC %s (%s)\n", size_of(id["l2_bytes"]), from(id["l2_from"]),
	    size_of(id["llc_bytes"]), from(id["llc_from"])
	printf "kernel: %s, THP %s\n", known(id["kernel"]), known(id["system_thp"])
	printf "memory: stream %s ns/line, chase %s ns/hop\n",
	    known((1 in stream) ? three_digits(over_runs_1(stream)) : ""),
	    known((1 in chase) ? three_digits(over_runs_1(chase)) : "")
	printf "$ %s\n", cmd
	memmap = id["pages"] * id["struct_page"]
	if (id["cache_sized"] == "")	# the verdict scan gives; empty: no LLC known
		sized = "cache-sized unknown"
	else if (id["cache_sized"] == 1)
		sized = "cache-sized"
	else
		sized = "not cache-sized"
	printf "size: %s pages, %s simulated, memmap %s\n", id["pages"],
	    human(id["memory_bytes"], "%.1f"), human(memmap, "%.1f")
	printf "memmap: %d-byte struct page, %d%% in huge pages, %s\n", id["struct_page"],
	    100 * id["huge_share"], sized
	printf "protocol: %s (%s a run, cache %s, --thp=%s)\n",
	    protocol == "" ? "default" : protocol, plural(rounds, "round"),
	    known(id["cache"]), known(id["thp"])
}
# three_digits(v): a measured figure to three digits, never in
# e-notation (1.90, 112, 1234); "" stays "".
function three_digits(v) {
	if (v == "")
		return ""
	return v >= 100 ? sprintf("%.0f", v) : sprintf("%.3g", v)
}
function over_runs_1(a,    k, v) {
	for (k = 1; k <= runs; k++)
		v[k] = a[k]
	return median(v, runs)
}

function print_walks(    i, w, r, lo, hi) {
	for (i = 1; i <= walks; i++) {
		w = order[i]
		r = over_runs(m, w)
		lo = runs > 1 ? lowest(m, w) : mn[w, 1]
		hi = runs > 1 ? highest(m, w) : mx[w, 1]
		if (w == "physical") {
			r = over_runs(ns, w)
			lo = runs > 1 ? lowest(ns, w) : nslo[w, 1]
			hi = runs > 1 ? highest(ns, w) : nshi[w, 1]
			printf "physical: %s\n", spread(r, lo, hi, " ns/page")
			continue
		}
		printf "ratio %s: %s, %.2f ns/folio", label[w], spread(r, lo, hi, ""), over_runs(ns, w)
		# the plain reading of a ratio below 1
		if (r < 1 && r > 0)
			printf ";\n  the physical walk is %.2fx slower than %s", 1 / r, label[w]
		printf "\n"
	}
}

END {
	rounds = id["rounds"]
	print_machine()
	print_walks()
	for (i = 1; i <= warns; i++)
		printf "warning: %s%s\n", wtext[i],
		    (runs > 1 ? sprintf(" (%d of %d runs)", seen[wkey[i]], runs) : "")
	# the original lines, as scan prints them, for the median run
	for (i = 1; i <= walks; i++)
		if (order[i] != "physical")
			printf "Physical scan is %f faster than %s\n", over_runs(m, order[i]), label[order[i]]
}' "$tmp/index" >"$tmp/block"	# not a pipe: a failing awk must fail the script

# Wrap at 72 columns between words, never inside a parenthesis: a line
# breaks after the last comma outside one in its second half, else at the
# last space outside one, and goes on indented by two.  The command breaks
# with a backslash, so it can still be pasted into a shell.
tr '\t' ' ' <"$tmp/block" | awk '
{
	line = $0
	cmd = substr(line, 1, 2) == "$ "
	while (length(line) > 72) {
		cut = comma = depth = 0
		for (i = 1; i <= length(line) && i <= 73 - 2 * cmd; i++) {
			ch = substr(line, i, 1)
			if (ch == "(") depth++
			else if (ch == ")") depth--
			else if (ch == " " && depth == 0) {
				cut = i
				if (substr(line, i - 1, 1) == "," && i > 36)
					comma = i
			}
		}
		if (comma)
			cut = comma
		if (!cut)
			break
		print substr(line, 1, cut - 1) (cmd ? " \\" : "")
		line = "  " substr(line, cut + 1)
	}
	print line
}' | sed 's/ *$//' >"$tmp/out"
stdout_put "$tmp/out"
