#!/bin/sh
# vs-yardstick.sh and the project's yardstick (docs/yardstick.c): the
# textbook 2023 method run beside scan.  Tiny sizes; no speed asserted.
. tests/lib.sh

# vs-yardstick: a stand-in yardstick, two scan runs interleaved with it
printf '#!/bin/sh\necho "setup 0.1"\necho "ratio 10 2"\n' >"$tmp/naive"
chmod +x "$tmp/naive"
scripts/vs-yardstick.sh -n 2 -c 0.01 -o '-r 1' -o '--original' "$tmp/naive" \
	>"$tmp/vs" 2>"$tmp/vs.err"
rc=$?
check "vs-yardstick: exit 0" [ "$rc" -eq 0 ]
check "vs-yardstick: the yardstick's ratios, two runs, a wall time" \
	grep -Eq '^naive +2 +10\.00 +10\.00-10\.00 +0\.0 +2\.000 +2\.000-2\.000 +0\.0 +[0-9]+\.[0-9]{2}$' "$tmp/vs"
check "vs-yardstick: a row per scan run, in order" \
	sh -c "awk 'NR > 2 { print \$1 }' '$tmp/vs' | tr '\n' ' ' | grep -qx 'scan:-r_1 scan:--original '"
check "vs-yardstick: -h prints the header block" \
	sh -c "scripts/vs-yardstick.sh -h | head -n 1 | grep -q '^vs-yardstick.sh - run the yardstick'"

# what cannot be right is refused before any run: one line, no table
vs=scripts/vs-yardstick.sh
check "vs-yardstick -n abc: usage error" refused 2 $vs -n abc "$tmp/naive"
check "vs-yardstick -n 0: usage error" refused 2 $vs -n 0 "$tmp/naive"
check "vs-yardstick -n 99999999999999999999: usage error" \
	refused 2 $vs -n 99999999999999999999 "$tmp/naive"
check "vs-yardstick -c abc: usage error" refused 2 $vs -c abc "$tmp/naive"
check "vs-yardstick -c 0: usage error" refused 2 $vs -c 0 "$tmp/naive"
check "vs-yardstick --bogus: usage error" refused 2 $vs --bogus "$tmp/naive"
check "vs-yardstick -n without a value: usage error" refused 2 $vs -n
check "vs-yardstick with no yardstick named: usage error" refused 2 $vs -n 1
check "vs-yardstick NAIVE --bogus: scan's refusal, exit 2, no table" \
	refused 2 $vs -n 1 -c 0.01 "$tmp/naive" --bogus
check "vs-yardstick NAIVE --bogus: the line quotes scan" \
	err_has "scan: unknown option '--bogus'"
# a yardstick missing, failing or silent: exit 1, never a table without it
check "vs-yardstick with a missing yardstick: exit 1" \
	refused 1 $vs -n 1 -c 0.01 "$tmp/no-such-naive"
check "vs-yardstick with a missing yardstick: says so" err_has 'no yardstick program at '
printf '#!/bin/sh\necho "naive: out of memory" >&2\nexit 1\n' >"$tmp/naive-fails"
printf '#!/bin/sh\necho "setup 0.1"\n' >"$tmp/naive-silent"
chmod +x "$tmp/naive-fails" "$tmp/naive-silent"
check "vs-yardstick with a failing yardstick: exit 1" \
	refused 1 $vs -n 1 -c 0.01 "$tmp/naive-fails"
check "vs-yardstick with a failing yardstick: its message" \
	err_has 'failed \(exit 1\): naive: out of memory$'
check "vs-yardstick with a yardstick that prints no ratios: exit 1" \
	refused 1 $vs -n 1 -c 0.01 "$tmp/naive-silent"

# the project's own yardstick, beside scan
if make -s yardstick >/dev/null 2>&1; then
	./yardstick 0.01 >"$tmp/yard"
	check "yardstick: setup and ratio lines" \
		sh -c "grep -Eq '^setup [0-9.]+\$' '$tmp/yard' && grep -Eq '^ratio [0-9.]+ [0-9.]+\$' '$tmp/yard'"
	scripts/vs-yardstick.sh -n 1 -c 0.01 ./yardstick >"$tmp/vs" 2>/dev/null
	check "vs-yardstick with the project's yardstick" grep -Eq '^naive +1 +[0-9.]+ ' "$tmp/vs"
	# a full stdout is exit 1 with a line, not awk's close error
	scripts/vs-yardstick.sh -n 1 -c 0.01 ./yardstick >/dev/full 2>"$tmp/p.err"
	check "vs-yardstick: stdout full, exit 1, said" \
		sh -c "[ $? -eq 1 ] && grep -q 'cannot write the output to stdout' '$tmp/p.err' && ! grep -q '^awk' '$tmp/p.err'"
else
	check "yardstick: builds" false
fi
