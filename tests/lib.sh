# shellcheck shell=sh
# Helpers for the tests: each t-*.sh sources this file, runs checks with
# check(), and prints TAP-like "ok N name" / "not ok N name" lines.

SCAN=${SCAN:-./scan}
export SCAN		# the scripts under test run the same binary
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0

# check NAME CMD...: one test line, ok when CMD succeeds.
check() {
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n $name"
	else
		echo "not ok $n $name"
		[ -s "$tmp/err" ] && sed 's/^/#   stderr: /' "$tmp/err" | head -n 3
	fi
	return 0
}

# run ARGS...: run scan, keeping stdout, stderr and the exit status.
run() {
	"$SCAN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# usage_error ARGS...: exit 2, nothing on stdout, one line on stderr.
usage_error() {
	run "$@"
	[ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] &&
		[ "$(wc -l <"$tmp/err")" -eq 1 ]
}

# out_has REGEX: stdout has a line matching the extended regex.
out_has() {
	grep -Eq -- "$1" "$tmp/out"
}

# err_has REGEX: stderr has a line matching the extended regex.
err_has() {
	grep -Eq -- "$1" "$tmp/err"
}

# lines N: stdout has exactly N lines.
lines() {
	[ "$(wc -l <"$tmp/out")" -eq "$1" ]
}

# folios: the number of LRU folios on the -v model line.
folios() {
	sed -n 's/^model: \([0-9]*\) LRU folios.*/\1/p' "$tmp/out"
}

# totals_exact [N]: N walks (default 3) printed total = n(n-1)/2 for the
# n folios on the LRU (-vvv).
totals_exact() {
	nr=$(folios)
	[ -n "$nr" ] || return 1
	want=$(awk -v n="$nr" 'BEGIN { printf "%.0f", n * (n - 1) / 2 }')
	[ "$(grep -c "^total = $want\$" "$tmp/out")" -eq "${1:-3}" ]
}
