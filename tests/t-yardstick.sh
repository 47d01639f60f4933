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

# the project's own yardstick, beside scan
if make -s yardstick >/dev/null 2>&1; then
	./yardstick 0.01 >"$tmp/yard"
	check "yardstick: setup and ratio lines" \
		sh -c "grep -Eq '^setup [0-9.]+\$' '$tmp/yard' && grep -Eq '^ratio [0-9.]+ [0-9.]+\$' '$tmp/yard'"
	scripts/vs-yardstick.sh -n 1 -c 0.01 ./yardstick >"$tmp/vs" 2>/dev/null
	check "vs-yardstick with the project's yardstick" grep -Eq '^naive +1 +[0-9.]+ ' "$tmp/vs"
else
	check "yardstick: builds" false
fi
