#!/bin/sh
# The judge of a walk against its limit (check_bounds()), on made-up
# tries: tests/unit-bounds.c includes scan.c, sets a limit's fastest
# and slowest try and a walk's figure, and says which warning fired.
# A memory that drifted within a run (tries 0.8-1.25x their median)
# must warn of nothing the walk did inside that range.
. tests/lib.sh

if ! have "${CC:-cc}"; then
	skip "check_bounds() unit" "no C compiler"
	exit 0
fi
if ! "${CC:-cc}" -O0 -pthread -I. -o "$tmp/unit-bounds" tests/unit-bounds.c \
	2>"$tmp/cc.err"; then
	cp "$tmp/cc.err" "$tmp/err"
	check "check_bounds() unit builds" false
	exit 0
fi
"$tmp/unit-bounds" >"$tmp/unit.out" 2>"$tmp/err"
check "check_bounds() unit ran to its end" [ "$?" -eq 0 ]
nlines "$tmp/unit.out"
plan=$(sed -n '1s/^1\.\.//p' "$tmp/unit.out")
check "check_bounds() unit: a line a case of its plan" [ "$count" -eq "$((${plan:-0} + 1))" ]
sed 1d "$tmp/unit.out" >"$tmp/cases"
while IFS= read -r line; do
	case $line in
	"ok "*) check "judge: ${line#ok [0-9]* }" true ;;
	*) check "judge: ${line#not ok [0-9]* }" false ;;
	esac
done <"$tmp/cases"
