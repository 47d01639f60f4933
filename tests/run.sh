#!/bin/sh
# Run every tests/t-*.sh and count its "ok", "not ok" and skipped lines.
# Ends with "N passed, M failed, K skipped"; exits 1 if anything failed.
set -u
cd "$(dirname "$0")/.." || exit 1
passed=0
failed=0
skipped=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT INT TERM
for t in tests/t-*.sh; do
	echo "# $t"
	if ! sh "$t" >"$out" 2>&1; then
		echo "not ok - $t exited non-zero" >>"$out"
	fi
	cat "$out"
	s=$(grep -c '^ok .* # SKIP ' "$out")
	p=$(($(grep -c '^ok ' "$out") - s))
	f=$(grep -c '^not ok ' "$out")
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
