#!/bin/sh
# contrib/mmtests, without mmtests: parse-results on a recorded run and
# on this scan's CSV, install-into.sh into a stand-in tree, shellcheck.
# tests/mmtests/ is the logs directory of a real run through mmtests'
# run-mmtests.sh (config-workload-scan at -c 0.1, 3 iterations): runs
# "default" and "kernel-like", scan-RUN-ITERATION.csv and commands.log.
. tests/lib.sh

pack=contrib/mmtests/shellpack_src/src/scan
rec=tests/mmtests
tab=$(printf '\t')

# lines_ok FILE METRICS RUNS ROWS: ROWS lines of six tab-separated
# fields: a metric of METRICS, a run of RUNS, "_", an iteration, a
# positive number, "R"; no metric, run and iteration twice.
lines_ok() {
	awk -F "$tab" -v metrics=" $2 " -v runs=" $3 " -v rows="$4" '
	function no(why) { print "# line " NR ": " why ": " $0; bad = 1 }
	NF != 6 { no(NF " fields"); next }
	index(metrics, " " $1 " ") == 0 { no("metric " $1) }
	index(runs, " " $2 " ") == 0 { no("run " $2) }
	$3 != "_" { no("factorB " $3) }
	$4 !~ /^[1-9][0-9]*$/ { no("interval " $4) }
	$5 !~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ || $5 + 0 <= 0 { no("value " $5) }
	$6 != "R" { no("extra " $6) }
	seen[$1 " " $2 " " $4]++ { no("twice") }
	END { exit bad || NR != rows }' "$1"
}

# cell CSV LABEL COLUMN: COLUMN of the row of CSV whose label is LABEL,
# both found by name in the header.
cell() {
	awk -F, -v label="$2" -v name="$3" '
	NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$h["label"] == label { print $h[name] }' "$1"
}

# quiet STATUS: the command before exited 0 with nothing on stderr.
quiet() {
	[ "$1" -eq 0 ] && [ ! -s "$tmp/err" ]
}

# refused_saying STATUS REGEX CMD...: CMD exits STATUS with nothing on
# stdout and one line on stderr, which matches REGEX.
refused_saying() {
	want=$1 re=$2
	shift 2
	refused "$want" "$@" && err_has "$re"
}

# value FILE METRIC RUN ITERATION: that line's value in parse output.
value() {
	awk -F "$tab" -v m="$2" -v r="$3" -v i="$4" \
		'$1 == m && $2 == r && $4 == i { print $5 }' "$1"
}

"$pack/parse-results" "$rec" >"$tmp/ratio" 2>"$tmp/err"
check "parse-results: a recorded run, exit 0, nothing on stderr" quiet $?
check "parse-results: 2 LRU walks x 2 runs x 3 iterations, each line in mmtests' format" \
	lines_ok "$tmp/ratio" "ListLRU ArrayLRU" "default kernel-like" 12
check "parse-results: the value is the CSV's speedup of that walk" \
	same "$(value "$tmp/ratio" ListLRU default 2) $(value "$tmp/ratio" ArrayLRU kernel-like 3)" \
	"$(cell "$rec/scan-default-2.csv" ListLRU speedup) $(cell "$rec/scan-kernel-like-3.csv" ArrayLRU speedup)"
check "parse-results: sorted by metric, run, iteration" \
	sort -c -t "$tab" -k1,1 -k2,2 -k4,4n "$tmp/ratio"

"$pack/parse-results-ns" "$rec" >"$tmp/ns" 2>"$tmp/err"
check "parse-results-ns: a recorded run, exit 0, nothing on stderr" quiet $?
check "parse-results-ns: 3 walks x 2 runs x 3 iterations, each line in mmtests' format" \
	lines_ok "$tmp/ns" "Physical ListLRU ArrayLRU" "default kernel-like" 18
check "parse-results-ns: ns per page for Physical, per folio for an LRU walk" \
	same "$(value "$tmp/ns" Physical kernel-like 1) $(value "$tmp/ns" ListLRU kernel-like 1)" \
	"$(cell "$rec/scan-kernel-like-1.csv" Physical ns_per_page) $(cell "$rec/scan-kernel-like-1.csv" ListLRU ns_per_folio)"
check "parse-results-ns: kernel-like folios make per page and per folio differ" \
	[ "$(cell "$rec/scan-kernel-like-1.csv" ListLRU ns_per_folio)" != \
		"$(cell "$rec/scan-kernel-like-1.csv" ListLRU ns_per_page)" ]

# The same CSVs with their columns in reverse order read the same.
mkdir "$tmp/rev"
for f in "$rec"/scan-*.csv; do
	awk -F, -v OFS=, '{ for (i = NF; i > 1; i--) printf "%s,", $i; print $1 }' "$f" \
		>"$tmp/rev/${f##*/}"
done
"$pack/parse-results" "$tmp/rev" >"$tmp/rev.ratio"
"$pack/parse-results-ns" "$tmp/rev" >"$tmp/rev.ns"
check "parse-results: columns read by name, not by position" \
	cmp -s "$tmp/ratio" "$tmp/rev.ratio"
check "parse-results-ns: columns read by name, not by position" \
	cmp -s "$tmp/ns" "$tmp/rev.ns"

# A CSV without a column it reads is an error that names the column.
mkdir "$tmp/cut"
cut -d, -f1-8 "$rec/scan-default-1.csv" >"$tmp/cut/scan-default-1.csv"
check "parse-results: a missing column: exit 1, one line naming it" \
	refused_saying 1 'no column speedup' "$pack/parse-results" "$tmp/cut"
mkdir "$tmp/none"
check "parse-results: no CSV: exit 1, one line" \
	refused_saying 1 'no scan-NAME-ITERATION.csv' "$pack/parse-results" "$tmp/none"

# This scan's CSV, not only the recorded one, reads the same way.
mkdir "$tmp/live"
"$SCAN" -c 0.01 -r 2 -q --format=csv >"$tmp/live/scan-now-1.csv" 2>"$tmp/err"
"$pack/parse-results" "$tmp/live" >"$tmp/live.ratio"
"$pack/parse-results-ns" "$tmp/live" >"$tmp/live.ns"
check "parse-results: this scan's CSV" \
	lines_ok "$tmp/live.ratio" "ListLRU ArrayLRU" now 2
check "parse-results-ns: this scan's CSV" \
	lines_ok "$tmp/live.ns" "Physical ListLRU ArrayLRU" now 3

# install-into.sh into a stand-in mmtests tree.
mm=$tmp/mmtests
mkdir -p "$mm/shellpack_src/src" "$mm/drivers" "$mm/configs"
: >"$mm/run-mmtests.sh"
run_cmd contrib/mmtests/install-into.sh "$mm"
check "install-into.sh: exit 0" [ "$rc" -eq 0 ]
version=$(sed -n 's/^#define SCAN_VERSION "\(.*\)"$/\1/p' scan.c)-$(cksum <scan.c | cut -d ' ' -f 1)
ipack=$mm/shellpack_src/src/scan
check "install-into.sh: scan.c beside the install script" cmp -s scan.c "$ipack/scan.c"
for f in scan-bench scan-install; do
	check "install-into.sh: $f's version is scan's and scan.c's checksum" \
		grep -q "^###SHELLPACK preamble $f $version\$" "$ipack/$f"
done
for f in drivers/driver-scan.sh configs/config-workload-scan \
	shellpack_src/src/scan/shellpack.yaml shellpack_src/src/scan/shellpack-ns.yaml; do
	check "install-into.sh: $f in place" cmp -s "contrib/mmtests/$f" "$mm/$f"
done
"$ipack/parse-results-ns" "$rec" >"$tmp/inst.ns"
check "install-into.sh: the installed parse-results-ns runs as the ns report" \
	cmp -s "$tmp/ns" "$tmp/inst.ns"
check "install-into.sh: not an mmtests tree: exit 1, one line" \
	refused 1 contrib/mmtests/install-into.sh "$tmp/none"
check "install-into.sh: no MMTESTS_DIR: exit 2, one line" \
	refused 2 contrib/mmtests/install-into.sh

if have shellcheck; then
	check "shellcheck: contrib/mmtests's sh files" \
		shellcheck -s sh contrib/mmtests/install-into.sh "$pack/parse-results" \
		contrib/mmtests/drivers/driver-scan.sh
	check "shellcheck: its bash files (mmtests' shellpacks and config)" \
		shellcheck -s bash "$pack/scan-bench" "$pack/scan-install" \
		contrib/mmtests/configs/config-workload-scan
else
	skip "shellcheck: contrib/mmtests's sh files" "no shellcheck"
	skip "shellcheck: its bash files (mmtests' shellpacks and config)" "no shellcheck"
fi

# The README: every run it names has a "-" (mmtests heads a column with
# the name cut at its first "-", and a name without one loses its last
# letter), and the Debian packages its reports need.
readme=contrib/mmtests/README.md
# shellcheck disable=SC2016 # an awk program
check "README: each run-mmtests.sh run name has a '-'" awk '
	{ for (i = 1; i < NF; i++) if ($i ~ /^(configs\/config-workload-scan|--baseline|--compare)$/) { n++; if ($(i + 1) !~ /-/) bad = 1 } }
	END { exit bad || !n }' "$readme"
check "README: the Debian packages mmtests' reports need" \
	grep -q 'apt-get install libyaml-pp-perl libfile-which-perl r-base-core$' "$readme"
