#!/bin/sh
# A signal in a script's first 30 ms (its preamble, scan-env.sh, then its
# first steps): SIGTERM at each millisecond ends sweep, results, explain
# and vs-yardstick with 143, and a "NAME: interrupted" line or nothing
# (killed before its traps were set), never a shell's error, and leaves
# nothing in TMPDIR.  scan-env.sh once set its traps before it defined
# say_line, which they call: exit 127, "say_line: not found", at 6-10 ms.
. tests/lib.sh
case $SCAN in /*) ;; *) SCAN=$(pwd)/$SCAN ;; esac
fake_yardstick "$tmp/naive"
mkdir "$tmp/t" "$tmp/o"
if ! sleep 0.001 2>/dev/null; then
	skip "a signal at each ms of a script's first 30" "sleep takes no fraction here"
	exit 0
fi

# one SCRIPT MS ARG...: the script, sent SIGTERM MS ms after its start;
# sets why to what went wrong, empty when nothing did
one() {
	script=$1 ms=$2
	shift 2
	TMPDIR=$tmp/t sh "scripts/$script.sh" "$@" >/dev/null 2>"$tmp/e" &
	pid=$!
	sleep "$(printf '0.%03d' "$ms")"
	kill -TERM "$pid" 2>/dev/null
	sent=$?
	wait "$pid" 2>/dev/null	# (no "Terminated" from this shell)
	rc=$?
	why=""
	if [ "$sent" -ne 0 ] && [ "$rc" -eq 0 ]; then
		return	# it ended before the signal
	fi
	[ "$rc" -eq 143 ] || { why="exit $rc"; return; }
	if grep -q 'not found\|: line [0-9]\|: [0-9]*: ' "$tmp/e"; then
		why="a shell's error: $(head -n 1 "$tmp/e")"
	elif [ -s "$tmp/e" ] && ! tail -n 1 "$tmp/e" | grep -q "^$script.sh: interrupted"; then
		why="no 'interrupted' last: $(tail -n 1 "$tmp/e")"
	fi
}

for s in sweep results explain vs-yardstick; do
	case $s in
	sweep) set -- -r 1 0.01 ;;
	results) set -- -q -o "$tmp/o/res" ;;
	explain) set -- -c 0.01 -n 1 ;;
	vs-yardstick) set -- -n 1 -c 0.01 "$tmp/naive" ;;
	esac
	bad=0
	ms=0
	while [ "$ms" -lt 30 ]; do
		one "$s" "$ms" "$@"
		if [ -n "$why" ]; then
			echo "# $s.sh, SIGTERM at $ms ms: $why"
			bad=$((bad + 1))
		fi
		ms=$((ms + 1))
	done
	check "$s.sh: SIGTERM at each of its first 30 ms: 143, no shell error" [ "$bad" -eq 0 ]
done
check "the scripts stopped so left nothing in TMPDIR" [ -z "$(ls -A "$tmp/t")" ]
