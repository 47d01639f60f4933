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
# each run takes a seeded sample of INJECT_CASES cases (default 24, about
# 20 s).  The seed changes from run to run, so runs together cover more;
# a failure prints INJECT_SEED=S, which reruns the same sample.
. tests/lib.sh
case $SCAN in /*) ;; *) SCAN=$(pwd)/$SCAN ;; esac	# the runs are in a scratch directory
top=$(pwd)
seed=${INJECT_SEED:-$(date +%s)}
cases=${INJECT_CASES:-24}

mkdir "$tmp/cwd"
"$SCAN" -c 0.01 -r 2 -s 1 --format=csv >"$tmp/good.csv" 2>/dev/null
kpageflags "$tmp/good.kpf" 64
fake_yardstick "$tmp/naive"
root=""
[ "$(id -u)" -eq 0 ] && [ -r /proc/kpageflags ] && root=1

# The slots: SCRIPT|KIND|ARGS, V standing for the value.  KIND says what
# the value names: csv or kpf, a file made with that name (most of the
# time, else missing); dir, a directory made so; out, an output that may
# be written; word, a value only; "slow" (seconds, not a fraction of
# one): sampled once at most.  Those that need root (a live snapshot) are
# left out without it.  kernel.sh runs with --check, which stops before
# its work (a page-cache working set, compaction of the machine).
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
explain|kpf slow|-o out.csv --memmap-from=V
explain|out slow|-g V --memmap-from=KPF
explain|word|-c V -n 1
explain|word slow|--memmap-from=KPF --memcg-share=V
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
results|word slow|-q -o res -n V
collect|csv|V
collect|out|-o V GOOD
kernel|word|--check -m V
kernel|dir|--check -d V
kernel|out|--check -o V
kernel|dir|--check -k V
kernel|word|--check V
EOF
[ -z "$root" ] || echo 'snapshot|out|-o V -p 0:16' >>"$tmp/slots"
nslots=$(grep -c '' "$tmp/slots")

# The cases: a slot and a value a line, "SLOT<TAB>VALUE-PIECES", from the
# seed.  A value is 1 to 3 pieces; a piece's name stands for its bytes
# (value() below), so that the plan itself is plain text.
awk -F'|' -v seed="$seed" -v cases="$cases" -v nslots="$nslots" '
{ slow[NR] = $2 ~ / slow$/ }
END {
	srand(seed)
	n = split("subst tick dquote squote semi pipe star eq space newline tab backslash dash long esc bs ctl bad c1 utf8 empty", piece, " ")
	for (c = 1; c <= cases; c++) {
		k = 1 + int(rand() * 3)
		v = ""
		for (j = 0; j < k; j++)
			v = v (j ? " " : "") piece[1 + int(rand() * n)]
		do s = 1 + int(rand() * nslots); while (slow[s] && used[s]++)
		printf "%d\t%s\t%d\n", s, v, rand() < 0.75
	}
}' "$tmp/slots" >"$tmp/plan"

# value PIECE...: the bytes; the canaries are files in the working
# directory, which every run shares
value() {
	v=x
	for p; do
		case $p in
		subst) v="$v\$(touch canary1)" ;;
		tick) v="$v\`touch canary2\`" ;;
		dquote) v="$v\"" ;;
		squote) v="$v'" ;;
		semi) v="$v;touch canary3;" ;;
		pipe) v="$v|touch canary4|" ;;
		star) v="$v*" ;;
		eq) v="a=$v=" ;;
		space) v="$v x" ;;
		newline) v="$v
x" ;;
		tab) v="$v	x" ;;
		backslash) v="$v\\b\\n\\" ;;
		dash) v="-$v" ;;
		long) v="$v$(printf '%0200d' 0)" ;;
		esc) v="$v$(printf '\033[31m')" ;;
		bs) v="$v$(printf '\010')" ;;
		ctl) v="$v$(printf '\001\177')" ;;
		bad) v="$v$(printf '\377\300\200')" ;;
		c1) v="$v$(printf '\302\233')" ;;
		utf8) v="$v$(printf '\303\251')" ;;
		empty) v="" ;;
		esac
	done
	printf '%s.' "$v"	# the dot keeps a trailing newline through $(...)
}


# one CASE: run it; print why it failed, nothing when it held
one() {
	slot=$1 pieces=$2 make=$3
	line=$(sed -n "${slot}p" "$tmp/slots")
	script=${line%%|*}
	kind=${line#*|}
	kind=${kind%%|*}
	kind=${kind% slow}
	args=${line##*|}
	# shellcheck disable=SC2086 # the pieces' names, a word each
	val=$(value $pieces)
	val=${val%.}
	rm -rf "$tmp/cwd"
	mkdir "$tmp/cwd" && cp "$tmp/good.csv" "$tmp/cwd/good.csv" && cp "$tmp/good.kpf" "$tmp/cwd/good.kpf"
	if [ "$make" -eq 1 ] && [ -n "$val" ]; then
		case $kind in
		csv) cp "$tmp/good.csv" "$tmp/cwd/$val" 2>/dev/null ;;
		kpf) cp "$tmp/good.kpf" "$tmp/cwd/$val" 2>/dev/null ;;
		dir) mkdir "$tmp/cwd/$val" 2>/dev/null ;;
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
	(cd "$tmp/cwd" && exec timeout 60 sh "$top/scripts/$script.sh" "$@") \
		>"$tmp/o" 2>"$tmp/e" </dev/null
	rc=$?
	for c in 1 2 3 4; do
		[ ! -e "$tmp/cwd/canary$c" ] || { echo "canary$c appeared"; return; }
	done
	case $rc in
	0 | 1) ;;
	2)
		if [ -s "$tmp/o" ] || [ "$(grep -c '' "$tmp/e")" -ne 1 ]; then
			echo "exit 2 without one line alone: $(sed -n 1p "$tmp/e" | tr -c ' -~' '?')"
			return
		fi ;;
	124) echo "still running after 60 s"; return ;;
	*) echo "exit $rc: $(sed -n 1p "$tmp/e" | tr -c ' -~' '?')"; return ;;
	esac
	plain "$tmp/o" || { echo "stdout holds a raw control byte or bad UTF-8"; return; }
	plain "$tmp/e" || { echo "stderr holds a raw control byte or bad UTF-8: $(grep -m 1 '[[:cntrl:]]' "$tmp/e" | tr -c ' -~' '?')"; return; }
	if [ "$kind" = out ] && [ -f "$tmp/cwd/$val" ] && ! plain "$tmp/cwd/$val"; then
		echo "its output file holds a raw control byte or bad UTF-8"
	fi
}

failed=0
while IFS='	' read -r slot pieces make; do
	why=$(one "$slot" "$pieces" "$make")
	if [ -n "$why" ]; then
		echo "# INJECT_SEED=$seed: $(sed -n "${slot}p" "$tmp/slots") with V = $pieces: $why"
		failed=$((failed + 1))
	fi
done <"$tmp/plan"
echo "# $cases cases, INJECT_SEED=$seed"
check "inject: $cases sampled cases: no canary, plain text out, exit 0, 1 or 2 in time" [ "$failed" -eq 0 ]
