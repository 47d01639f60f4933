#!/bin/sh
# Run every tests/t-*.sh and count its "ok", "not ok" and skipped lines.
# Ends with "N passed, M failed, K skipped"; exits 1 if anything failed.
#
# The files run in as many lanes as there are CPUs (at least 2, at most
# 4; TEST_LANES overrides), the slowest first, each lane taking the next
# file nobody has claimed (mkdir is the lock); their outputs are printed
# in name order once all are done.  Each file keeps its own scratch
# directory; what several files read (a build, a CSV) they share through
# lib.sh's fixture, made once in the suite's cache directory, $out/cache.
set -u
cd "$(dirname "$0")/.." || exit 1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
TEST_CACHE=$out/cache
mkdir "$TEST_CACHE" || exit 1
# the interpreter itself, so the files skip a shim's search (lib.sh)
TEST_PYTHON3=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || TEST_PYTHON3=
export TEST_CACHE TEST_PYTHON3
trap 'exit 130' INT
trap 'exit 143' TERM
lanes=${TEST_LANES:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
case $lanes in '' | *[!0-9]*) lanes=2 ;; esac
[ "$lanes" -ge 2 ] || lanes=2
[ "$lanes" -le 4 ] || lanes=4
# The longest files first, so that no lane starts one near the end:
# t-codegen compiles scan.c four times, t-docs runs every documented
# command, t-hardening builds scan.c without its Linux parts and
# t-compare runs compare.sh some sixty times.
first="tests/t-codegen.sh tests/t-docs.sh tests/t-hardening.sh tests/t-compare.sh"
queue=""
for t in $first; do
	[ -f "$t" ] && queue="$queue $t"
done
for t in tests/t-*.sh; do
	case " $first " in *" $t "*) ;; *) queue="$queue $t" ;; esac
done

lane() {
	for t in $queue; do
		name=${t#tests/}
		mkdir "$out/$name.claim" 2>/dev/null || continue
		if ! sh "$t" >"$out/$name" 2>&1; then
			echo "not ok - $t exited non-zero" >>"$out/$name"
		fi
	done
}
i=0
while [ "$i" -lt "$lanes" ]; do
	lane &
	i=$((i + 1))
done
wait

passed=0
failed=0
skipped=0
for t in tests/t-*.sh; do
	name=${t#tests/}
	echo "# $t"
	[ -f "$out/$name" ] || echo "not ok - $t did not run" >"$out/$name"
	cat "$out/$name"
	s=$(grep -c '^ok .* # SKIP ' "$out/$name")
	p=$(($(grep -c '^ok ' "$out/$name") - s))
	f=$(grep -c '^not ok ' "$out/$name")
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
