#!/bin/sh
# Warnings as data: the warning table's codes in the CSV's and JSON's
# warnings column, the same causes as the lines on stderr, --strict's
# exit status, --expect, KTAP's shape, and -c auto's size.  A fake host
# with a 32 MiB LLC makes every tiny run cache-sized; no speed asserted.
. tests/lib.sh

# A host whose sysfs says L3 32 MiB (scan reads /proc and /sys under
# SCAN_MACHINE_ROOT, and asks neither CPUID nor getconf).
host=$tmp/host
c=$host/sys/devices/system/cpu/cpu0/cache
mkdir -p "$host/proc" "$c/index0"
printf 'processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Fake\n' >"$host/proc/cpuinfo"
printf '3\n' >"$c/index0/level"
printf 'Unified\n' >"$c/index0/type"
printf '32768K\n' >"$c/index0/size"
SCAN_MACHINE_ROOT=$host
export SCAN_MACHINE_ROOT

# The codes, in the table's order, from --fields' line for the column.
run --fields
codes=$(awk '$1 == "warnings" { sub(/.*first: /, ""); print }' "$tmp/out")
check "--fields: the warnings column lists its codes" [ -n "$codes" ]
echo "$codes" | tr ' ' '\n' >"$tmp/codes"
# scan.1's WARNINGS gives each code an entry (.TP, then .B CODE), in
# the table's order
sed -n '/^\.SH WARNINGS/,/^\.SH [^W]/p' scan.1 |
	awk 'tp && /^\.B / { print $2 } { tp = /^\.TP/ }' >"$tmp/page-codes"
check "scan.1's WARNINGS: an entry per code, in the table's order" \
	cmp -s "$tmp/codes" "$tmp/page-codes"

# stderr_codes: the codes of stderr's warning lines, in order.
stderr_codes() {
	sed -n 's/^scan: warning: \([a-z-]*\): .*/\1/p' "$tmp/err"
}

# known_codes FILE: every line of FILE is one of the codes.
known_codes() {
	awk 'NR == FNR { ok[$0] = 1; next } !($0 in ok) { exit 1 }' "$tmp/codes" "$1"
}

# in_table_order FILE: FILE's codes come in the table's order, once each.
in_table_order() {
	awk 'NR == FNR { at[$0] = NR; next } at[$0] <= last { exit 1 } { last = at[$0] }' "$tmp/codes" "$1"
}

# CSV: a row's codes are the run's and its walk's; together, stderr's.
run -c 0.01 -r 3 -s 1 --format=csv
check "csv: exit 0 with warnings" [ "$rc" -eq 0 ]
check "csv: the warnings column" sh -c "head -n 1 '$tmp/out' | tr , '\n' | grep -qx warnings"
csv_col "$tmp/out" warnings >"$tmp/cells"
tr ' ' '\n' <"$tmp/cells" | sed '/^$/d' >"$tmp/row-codes"
check "csv: each a code of the table" known_codes "$tmp/row-codes"
check "csv: cache-sized, the run's, on every row" \
	sh -c "[ \$(grep -c '^cache-sized' '$tmp/cells') -eq 3 ]"
stderr_codes >"$tmp/err-codes"
awk 'NR == FNR { seen[$0] = 1; next } $0 in seen' "$tmp/row-codes" "$tmp/codes" >"$tmp/csv-codes"
check "csv: the rows' codes, together, are stderr's lines' codes" cmp -s "$tmp/csv-codes" "$tmp/err-codes"
check "text: a line per cause, in the table's order" in_table_order "$tmp/err-codes"
check "text: every line under 120 columns (WARNING_COLUMNS)" sh -c "! awk 'length > 119' '$tmp/err' | grep -q ."

# JSON: the walks' codes, and the top-level warnings with their lines.
run -c 0.01 -r 3 -s 1 --format=json
sed -n 's/^    { "code": "\([a-z-]*\)", "text": ".*" },\{0,1\}$/\1/p' "$tmp/out" >"$tmp/json-codes"
stderr_codes >"$tmp/err-codes"
check "json: the warnings array's codes are stderr's" cmp -s "$tmp/json-codes" "$tmp/err-codes"
sed -n 's/^    { "code": "\([a-z-]*\)", "text": "\(.*\)" },\{0,1\}$/scan: warning: \1: \2/p' "$tmp/out" >"$tmp/json-lines"
grep '^scan: warning: ' "$tmp/err" >"$tmp/err-lines"
check "json: each text is its stderr line" cmp -s "$tmp/json-lines" "$tmp/err-lines"
check "json: a walk's warnings member" grep -q '^      "warnings": "cache-sized' "$tmp/out"
if have python3; then
	check "json: parses, and each walk's codes are the run's or its own" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
run = [w["code"] for w in d["warnings"]]
for walk in d["walks"]:
    codes = walk["warnings"].split()
    assert all(c in run for c in codes), (codes, run)
assert "cache-sized" in run
' "$tmp/out"
else
	skip "json: parses" "no python3"
fi

# KTAP: the version, a plan of every self-check and cause, each point in
# order, the fired causes not ok, and the totals adding up.
run -c 0.01 -r 3 -s 1 --format=ktap
cp "$tmp/out" "$tmp/ktap"
# ktap_ok FILE WALKS: FILE is KTAP version 1 with WALKS self-checks and a
# point per code, numbered from 1, and its totals count them.
ktap_ok() {
	awk -v walks="$2" -v ncodes="$(wc -l <"$tmp/codes")" '
	NR == 1 { if ($0 != "KTAP version 1") bad = "version line"; next }
	NR == 2 { if ($0 !~ /^1\.\.[0-9]+$/) bad = "plan"; plan = substr($0, 4) + 0; next }
	/^# Totals: / { totals = $0; next }
	/^# / { next }
	/^(not )?ok [0-9]+ / {
		k = $1 == "not" ? 3 : 2
		if ($k != ++points) bad = "numbering"
		name = $(k + 1) " " $(k + 2)
		if (points <= walks && $(k + 1) != "self-check") bad = "self-check first"
		if (points <= walks && $1 == "not") bad = "a self-check failed"
		if (points > walks && $(k + 1) != "warning") bad = "warnings after"
		if ($1 == "not") fail++
		else if ($0 ~ / # XFAIL/) xfail++
		else pass++
		next
	}
	{ bad = "line " NR ": " $0 }
	END {
		if (!bad && plan != walks + ncodes) bad = "plan " plan
		if (!bad && points != plan) bad = points " points"
		want = sprintf("# Totals: pass:%d fail:%d xfail:%d xpass:0 skip:0 error:0", pass, fail, xfail)
		if (!bad && totals != want) bad = "totals"
		if (bad) { print "# " bad; exit 1 }
	}' "$1"
}
check "ktap: exit 0 (no --strict)" [ "$rc" -eq 0 ]
check "ktap: version, plan, points in order, totals" ktap_ok "$tmp/ktap" 3
sed -n 's/^not ok [0-9]* warning \([a-z-]*\)$/\1/p' "$tmp/ktap" >"$tmp/ktap-codes"
stderr_codes >"$tmp/err-codes"
check "ktap: the not-ok causes are stderr's warnings" cmp -s "$tmp/ktap-codes" "$tmp/err-codes"
sed -n 's/^\(not \)\{0,1\}ok [0-9]* warning \([a-z-]*\).*/\2/p' "$tmp/ktap" >"$tmp/ktap-all"
check "ktap: a point for every code, in the table's order" cmp -s "$tmp/ktap-all" "$tmp/codes"
check "ktap: cache-sized not ok, its line before it" \
	sh -c "grep -B1 '^not ok [0-9]* warning cache-sized\$' '$tmp/ktap' | grep -q '^# cache-sized: memmap < 4x LLC 32.0 MiB (sysfs): '"
check "ktap: the original's lines as diagnostics" grep -q '^# Physical scan is [0-9.]* faster than ListLRU$' "$tmp/ktap"
run -c 0.01 -r 2 -s 1 --format=ktap --walks=list,array,xarray --expect=cache-sized,short-walk
check "ktap --expect: four walks' self-checks, the shape holds" ktap_ok "$tmp/out" 4
check "ktap --expect: an expected cause that fired is ok with XFAIL" \
	grep -q '^ok [0-9]* warning cache-sized # XFAIL' "$tmp/out"

# A run that dies leaves its plan unmet: the version and plan come first.
run -c 0.01 -r 1 --format=ktap --memmap-from=/dev/null
check "ktap: a run refused before its plan prints no points" sh -c "! grep -q '^ok' '$tmp/out'"

# --strict: 5 when a cause fires that --expect does not name; 0 when
# all that fired are expected; -q keeps the status and drops the lines.
run -c 0.01 -r 2 --strict
check "--strict: exit 5 on a warning" [ "$rc" -eq 5 ]
check "--strict: the results still printed" out_has '^Physical scan is [0-9.]+ faster than ListLRU$'
run -c 0.01 -r 2 --strict -q
check "--strict -q: exit 5, no lines" sh -c "[ $rc -eq 5 ] && [ ! -s '$tmp/err' ]"
all=$(tr '\n' , <"$tmp/codes")
run -c 0.01 -r 2 --strict --expect="${all%,}"
check "--strict --expect=every code: exit 0" [ "$rc" -eq 0 ]
run -c 0.01 -r 2 --expect=cache-sized
check "--expect without --strict: exit 0" [ "$rc" -eq 0 ]
run -c 0.01 --expect=cache-size
check "--expect of no code: a usage error naming it" \
	sh -c "[ $rc -eq 2 ] && [ ! -s '$tmp/out' ] && grep -q \"no warning 'cache-size'\" '$tmp/err'"

# -c auto: 4x the LLC (32 MiB: -c 2.1) is under the 2023 post's -c 10,
# which it takes; a limit on the address space stops it before setup,
# after it said the size.
run_auto() {
	echo "-c auto under ulimit -v 200000" >"$tmp/cmd"
	# shellcheck disable=SC3045 # dash, bash and BusyBox have ulimit -v
	(ulimit -v 200000 2>/dev/null && exec "$SCAN" "$@") >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
auto_checks="says the size and why on stdout|the size check names -c auto|a 480 MiB LLC: the size the warning would give, on stderr with csv"
case $SCAN in
*qemu* | *sanitize*)	# the emulator's JIT or ASan's shadow passes no ulimit -v
	IFS='|'
	for name in $auto_checks; do
		skip "-c auto: $name" "scan runs under qemu-user or a sanitizer"
	done
	unset IFS ;;
*)
	run_auto -c auto -r 1
	check "-c auto: says the size and why on stdout" \
		out_has "^-c auto is -c 10: a 610\\.4 MiB memmap, the 2023 post's, over 4x the LLC \\(32\\.0 MiB, sysfs\\)$"
	check "-c auto: the size check names -c auto" err_has '^scan: -c auto needs '
	mkdir -p "$tmp/big/proc" "$tmp/big/sys/devices/system/cpu/cpu0/cache/index0"
	cp "$host/proc/cpuinfo" "$tmp/big/proc/"
	b=$tmp/big/sys/devices/system/cpu/cpu0/cache/index0
	printf '3\n' >"$b/level"
	printf 'Unified\n' >"$b/type"
	printf '491520K\n' >"$b/size"
	SCAN_MACHINE_ROOT=$tmp/big run_auto -c auto -r 1 --format=csv
	check "-c auto: a 480 MiB LLC: the size the warning would give, on stderr with csv" \
		err_has "^-c auto is -c 32: a 1\\.9 GiB memmap, 4x the LLC \\(480\\.0 MiB, sysfs\\)$" ;;
esac
run -c auto -m 4M
check "-c auto with -m: a usage error" [ "$rc" -eq 2 ]
