#!/bin/sh
# Run the tests/t-*.sh of a tier (below: make test's quick ones, by
# default) and count their "ok", "not ok" and skipped lines.  Ends with
# "N passed, M failed, K skipped"; exits 1 if anything failed.
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
# The files that take seconds each, longest first: compilations
# (t-codegen builds scan.c four times, t-hardening once more), every
# documented command (t-docs), charts and sweeps (t-explain, t-sweep),
# the scripts' fault, stack, property and comparison runs, and scan-vm's
# host side against a stand-in qemu (t-vm: a static scan and an
# initramfs built for each of its runs).  make test
# (TEST_TIER=quick) leaves them out, so that it ends in about 30 s on two
# CPUs; make test-slow runs only them, make test-full (TEST_TIER=all)
# everything, and CI runs make test and make test-slow.
slow="tests/t-docs.sh tests/t-explain.sh tests/t-codegen.sh \
tests/t-script-faults.sh tests/t-sweep.sh tests/t-collect.sh tests/t-compare.sh \
tests/t-hardening.sh tests/t-script-stack.sh tests/t-mutate.sh tests/t-manpages.sh \
tests/t-roundtrip.sh tests/t-signal-start.sh tests/t-vm.sh"
tier=${TEST_TIER:-quick}
queue=""
case $tier in
quick) ;;
slow | all) queue=$slow ;;
*) echo "run.sh: TEST_TIER=$tier: quick, slow or all" >&2; exit 2 ;;
esac
left=""
for t in tests/t-*.sh; do
	case " $slow " in
	*" $t "*) [ "$tier" != quick ] || left="$left ${t#tests/}" ;;
	*) [ "$tier" = slow ] || queue="$queue $t" ;;
	esac
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
	case " $queue " in *" $t "*) ;; *) continue ;; esac
	name=${t#tests/}
	echo "# $t"
	[ -f "$out/$name" ] || echo "not ok - $t did not run" >"$out/$name"
	# a log of text: a control byte a test printed (a NUL in a name, a
	# scan's bytes on stderr) written \xNN, as the scripts write them
	if ! LC_ALL=C awk -f scripts/lib.awk -f scripts/plain-lines.awk "$out/$name"; then
		echo "not ok - $t: its output could not be written as text" |
			tee -a "$out/$name"
	fi
	s=$(grep -c '^ok .* # SKIP ' "$out/$name")
	p=$(($(grep -c '^ok ' "$out/$name") - s))
	f=$(grep -c '^not ok ' "$out/$name")
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
done
[ -z "$left" ] || echo "# left to make test-slow (CI runs make test, then make test-slow):$left"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
