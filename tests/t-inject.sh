#!/bin/sh
# A property test of the scripts' handling of names and values: every
# script, its options that take a value and its operands, fed values built
# from pieces an attacker or a careless paste brings ($(...), backticks,
# quotes, ; | * =, spaces, newlines, tabs, backslashes, a leading dash, a
# long word, control bytes, invalid UTF-8), a file of that name there or
# not.  Each run must leave no canary file (the pieces that would run code
# touch one), print no raw control byte and no invalid UTF-8 on stdout or
# stderr or into the file it writes, end within its time bound, and exit
# 0, 1 or 2 (2: one line on stderr, nothing on stdout).
#
# The product of scripts, slots and values is far too large to run whole:
# each run takes a seeded sample of INJECT_CASES cases (default 12), each
# a slot of its own, a value of its own.  The seed changes from run to
# run (the clock), so runs together cover the slots and values: a slot
# is missed by one run with a chance of 1 - 12/35, by ten with 1.5%.  A
# failure prints INJECT_SEED=S, which reruns the same sample.  A case is
# one script run and five processes of its own; the sample's cost is its
# scripts'.
. tests/lib.sh
case $SCAN in /*) ;; *) SCAN=$(pwd)/$SCAN ;; esac	# the runs are in a scratch directory
top=$(pwd)
seed=${INJECT_SEED:-$(date +%s)}
cases=${INJECT_CASES:-12}

# what every case's working directory starts with, copied by one cp
mkdir "$tmp/start"
"$SCAN" -c 0.01 -r 2 -s 1 --format=csv >"$tmp/start/good.csv" 2>/dev/null
kpageflags "$tmp/start/good.kpf" 64
fake_yardstick "$tmp/naive"
root=""
[ "$(id -u)" -eq 0 ] && [ -r /proc/kpageflags ] && root=1

# The slots: SCRIPT|KIND|ARGS, V standing for the value.  KIND says what
# the value names: csv or kpf, a file made with that name (most of the
# time, else missing); dir, a directory made so; out, an output that
# may be written; word, a value only.  Those that need root (a live
# snapshot) are left out without it.  kernel.sh runs with --check, which
# stops before its work (a page-cache working set, compaction of the
# machine).
cat >"$tmp/slots" <<'EOF'
sweep|csv|--from=V
sweep|out|-o V -r 1 0.01
sweep|word|-r 1 -s V 0.01
sweep|word|-r 1 V
sweep|word|-n V -r 1 0.01
sweep|word|-b V -r 1 0.01
plot|csv|V
plot|csv|-- V
plot|word|--x V GOOD
report|word|-n V -c 0.01 -r 1
report|word|-n 1 -c 0.01 -r 1 -s V
report|kpf|-n 1 -r 2 --memmap-from=V
compare|csv|V GOOD
compare|csv|GOOD -- V GOOD
compare|word|-n 3 -c 0.01 -r 1 -- -s V --
compare|word|-n V -c 0.01 -r 1 -- --
explain|kpf|-o out.csv --memmap-from=V
explain|out|-g V --memmap-from=KPF
explain|word|-c V -n 1
explain|word|--memmap-from=KPF --memcg-share=V
explain|csv|-c 0.01 --kernel=V
snapshot|kpf|--summary V
snapshot|kpf|--summary KPF V
snapshot|word|-p V
trace-lru|word|-b V true
trace-lru|word|-s V true
trace-lru|word|V
vs-yardstick|word|-n 1 -c 0.01 -o V NAIVE
vs-yardstick|word|-n 1 -c V NAIVE
vs-yardstick|word|-n 1 -c 0.01 NAIVE -s V
vs-yardstick|word|V
results|word|-c V -o res
results|word|-q -o res -n V
collect|csv|V
collect|out|-o V GOOD
kernel|word|--check -m V
kernel|dir|--check -d V
kernel|out|--check -o V
kernel|dir|--check -k V
kernel|word|--check V
EOF
[ -z "$root" ] || echo 'snapshot|out|-o V -p 0:16' >>"$tmp/slots"

# The cases, from the seed: a slot and a value a line,
# "SLOT<TAB>VALUE-PIECES<TAB>MAKE", the slot whole, no slot twice.  A
# value is 1 to 3 pieces; a piece's name stands for its bytes (lib.sh's
# inject_value()), so that the plan itself is plain text.
awk -v seed="$seed" -v cases="$cases" -v pieces="$inject_pieces" '
{ slot[NR] = $0 }
END {
	srand(seed)
	n = split(pieces, piece, " ")
	for (c = 1; c <= cases && c <= NR; c++) {
		s = c + int(rand() * (NR - c + 1))	# a shuffle, cut at cases
		t = slot[s]; slot[s] = slot[c]; slot[c] = t
		k = 1 + int(rand() * 3)
		v = ""
		for (j = 0; j < k; j++)
			v = v (j ? " " : "") piece[1 + int(rand() * n)]
		printf "%s\t%s\t%d\n", t, v, rand() < 0.75
	}
}' "$tmp/slots" >"$tmp/plan"

# first_line FILE: its first line, printable ASCII only
first_line() {
	IFS= read -r first <"$1" || :
	printf '%s' "$first" | tr -c ' -~' '?'
}

# one K SLOT PIECES MAKE: run case K in its own directory, $tmp/cK,
# where the canaries would appear; sets why to why it failed, empty when
# it held
one() {
	k=$1 line=$2 make=$4
	script=${line%%|*}
	kind=${line#*|}
	kind=${kind%%|*}
	args=${line##*|}
	# shellcheck disable=SC2086 # the pieces' names, a word each
	inject_value $3
	cwd=$tmp/c$k
	cp -R "$tmp/start" "$cwd"
	if [ "$make" -eq 1 ] && [ -n "$val" ]; then
		case $kind in
		csv) cp "$tmp/start/good.csv" "$cwd/$val" 2>/dev/null ;;
		kpf) cp "$tmp/start/good.kpf" "$cwd/$val" 2>/dev/null ;;
		dir) mkdir "$cwd/$val" 2>/dev/null ;;
		esac
	fi
	set --
	for a in $args; do
		case $a in
		V) set -- "$@" "$val" ;;
		--*=V) set -- "$@" "${a%V}$val" ;;
		GOOD) set -- "$@" good.csv ;;
		--*=KPF) set -- "$@" "${a%KPF}good.kpf" ;;
		KPF) set -- "$@" good.kpf ;;
		NAIVE) set -- "$@" "$tmp/naive" ;;
		*) set -- "$@" "$a" ;;
		esac
	done
	(cd "$cwd" && exec timeout 60 sh "$top/scripts/$script.sh" "$@") \
		>"$tmp/o" 2>"$tmp/e" </dev/null
	rc=$?
	why=""
	for c in 1 2 3 4; do
		[ ! -e "$cwd/canary$c" ] || { why="canary$c appeared"; return; }
	done
	case $rc in
	0 | 1) ;;
	2)
		nlines "$tmp/e"
		if [ -s "$tmp/o" ] || [ "$count" -ne 1 ]; then
			why="exit 2 without one line alone: $(first_line "$tmp/e")"
			return
		fi ;;
	124) why="still running after 60 s"; return ;;
	*) why="exit $rc: $(first_line "$tmp/e")"; return ;;
	esac
	written=""
	[ "$kind" != out ] || [ ! -f "$cwd/$val" ] || written=$cwd/$val
	plain "$tmp/o" "$tmp/e" ${written:+"$written"} && return
	# which of them (one grep for all three when they are plain)
	if ! plain "$tmp/o"; then
		why="stdout holds a raw control byte or bad UTF-8"
	elif ! plain "$tmp/e"; then
		why="stderr holds a raw control byte or bad UTF-8: $(grep -m 1 '[[:cntrl:]]' "$tmp/e" | tr -c ' -~' '?')"
	else
		why="its output file holds a raw control byte or bad UTF-8"
	fi
}

failed=0
k=0
while IFS='	' read -r line pieces make; do
	k=$((k + 1))
	one "$k" "$line" "$pieces" "$make"
	if [ -n "$why" ]; then
		echo "# INJECT_SEED=$seed: $line with V = $pieces: $why"
		failed=$((failed + 1))
	fi
done <"$tmp/plan"
echo "# $k cases, INJECT_SEED=$seed"
check "inject: $k sampled cases: no canary, plain text out, exit 0, 1 or 2 in time" [ "$failed" -eq 0 ]
