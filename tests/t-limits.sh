#!/bin/sh
# docs/limits.c, the control the limits are checked against: it builds
# with the project's warnings, prints its three figures in its format
# at a tiny size, writes one frame a 2 MiB page with --frames (0 where
# the kernel hides them: not root, qemu-user), and refuses bad input
# in one line with exit 2.
. tests/lib.sh

if ! have "${CC:-cc}"; then
	skip "docs/limits.c" "no C compiler"
	exit 0
fi
if ! "${CC:-cc}" -std=gnu11 -Wall -Wextra -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Werror -O2 -o "$tmp/limits" docs/limits.c 2>"$tmp/err"; then
	check "docs/limits.c builds without a warning" false
	exit 0
fi
check "docs/limits.c builds without a warning" true

"$tmp/limits" 4M -r 3 --hops 1000 --frames "$tmp/frames" >"$tmp/out" 2>"$tmp/err"
check "limits 4M ran" [ "$?" -eq 0 ]
check "limits: its header names the size and the page size" \
	grep -Eq '^limits: 65536 lines \(4\.0 MiB\), --thp=always, [0-9]+% in huge pages$' "$tmp/out"
for kind in "stream ns/line" "chase ns/hop" "random ns/line"; do
	name=${kind% *}
	unit=${kind#* }
	check "limits: a $name line, median and range of 3 tries" \
		grep -Eq "^$name +[0-9]+\.[0-9]{3} $unit +\([0-9.]+ to [0-9.]+, 3 tries, [0-9]+ loads, [0-9]+ retimed\)$" "$tmp/out"
done
check "limits: the chase took --hops hops" grep -q '^chase .* 1000 loads' "$tmp/out"
nlines "$tmp/frames"
check "limits --frames: a frame each 2 MiB of 4 MiB" [ "$count" -eq 2 ]
# shellcheck disable=SC2016 # $1 is the inner shell's
check "limits --frames: whole numbers, sorted" \
	sh -c 'grep -Evq "^[0-9]+$" "$1" && exit 1; sort -n -c "$1"' sh "$tmp/frames"

# each bad input: exit 2, one line on stderr naming it, nothing run
for args in "-c 0" "-c x" "1K" "-r 0" "--hops 0" "--thp=often" "--bogus" \
	"4M --frames $tmp/no/such/dir/f"; do
	# shellcheck disable=SC2086 # the words are the arguments
	"$tmp/limits" $args >"$tmp/out" 2>"$tmp/err"
	status=$?
	nlines "$tmp/err"
	refused=false
	[ "$status" -eq 2 ] && [ "$count" -eq 1 ] && [ ! -s "$tmp/out" ] && refused=true
	check "limits $args: exit 2, one line, nothing run" $refused
done
