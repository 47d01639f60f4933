#!/bin/sh
# The stack rule for the scripts: each runs under ulimit -s 16 (as scan
# does in t-edges) at a tiny size and does its work.  Their awk programs
# are files read with -f: a program in argv failed exec there (E2BIG,
# "Argument list too long"), and the tools they run bind their calls at
# start-up (LD_BIND_NOW), where sed and expr crashed when bound lazily.
#
# What no script can prevent: the kernel starts a process's stack up to
# 8 KiB below its top at random (x86-64's arch_align_stack), so a 16 KiB
# limit leaves 8 to 16; in the lower part dash deep in a function, or
# glibc's printf, or the dynamic linker binding a tool's calls, overran it
# (a script of a hundred processes, explain, in about 1 run in 6 on an
# AMD EPYC, Zen 5).  A run killed by a signal, or failed because a tool it
# ran was (dash's "Segmentation fault", or the script's "od exited 139"),
# is counted and shown, and the script tried again, up to STACK_TRIES
# (4) runs: the first that does its work ends the tries, one that fails
# on its own fails the check, and a script killed in every try is
# skipped (this machine could not make the check).  The environment is
# emptied but for PATH, SCAN and TMPDIR: it comes off the same 16 KiB
# (with the suite's own variables, results.sh was killed in 4 tries of 4).
. tests/lib.sh
case $SCAN in
*sanitize* | *qemu*)
	skip "the scripts under a 16 KiB stack" "the sanitizers need more; qemu's stack is the emulator's"
	exit 0 ;;
esac
case $SCAN in /*) ;; *) SCAN=$(pwd)/$SCAN ;; esac
tries=${STACK_TRIES:-4}
"$SCAN" -c 0.01 -r 2 -s 1 --format=csv >"$tmp/a.csv" 2>/dev/null
"$SCAN" -c 0.01 -r 1 -s 2 --format=csv >"$tmp/b.csv" 2>/dev/null
kpageflags "$tmp/kpf" 16
fake_yardstick "$tmp/naive"
scripts/report.sh -n 1 -c 0.01 -r 1 >"$tmp/block" 2>/dev/null

# stack SCRIPT MARK ARG...: SCRIPT under ulimit -s 16 until a run does
# its work, at most TRIES runs; its work is done when it exits $want (0
# unless set) and stdout (or stderr, for a mark that starts with 2:) has
# a line matching MARK.  0: done; 1: failed on its own; 2: killed in
# every try.
want=0
mkdir "$tmp/scratch"
stack() {
	script=$1 mark=$2
	shift 2
	done_runs=0 killed=0 own=""
	i=0
	while [ "$i" -lt "$tries" ] && [ "$done_runs" -eq 0 ] && [ -z "$own" ]; do
		i=$((i + 1))
		[ ! -e "$tmp/res" ] || rm -rf "$tmp/res"
		# shellcheck disable=SC3045 # dash, bash and BusyBox have ulimit -s
		# TMPDIR inside this test's own: what a run the platform kills
		# leaves (its scratch directory) goes when the test ends
		(ulimit -s 16 && exec env -i PATH="$PATH" SCAN="$SCAN" TMPDIR="$tmp/scratch" sh "scripts/$script.sh" "$@") >"$tmp/out" 2>"$tmp/err"
		rc=$?
		where=$tmp/out
		case $mark in 2:*) where=$tmp/err ;; esac
		if [ "$rc" -eq "$want" ] && grep -Eq -- "${mark#2:}" "$where"; then
			done_runs=$((done_runs + 1))
		elif [ "$rc" -ge 128 ] ||
		    grep -Eq 'Segmentation fault|exit(ed)? 1[3-5][0-9]' "$tmp/err"; then
			killed=$((killed + 1))	# it, or a tool it ran (dash or it says so)
		else
			own="exit $rc: $(sed -n 1p "$tmp/err" | tr -c ' -~' '?')"
		fi
	done
	[ "$killed" -eq 0 ] || echo "# $script: $killed of $i runs killed by a signal (the platform's, above)"
	[ -z "$own" ] || echo "# $script: $own"
	[ -z "$own" ] || return 1
	[ "$done_runs" -gt 0 ] || return 2
}

# under NAME SCRIPT MARK ARG...: the check, or a skip when every try was
# killed by the platform
under() {
	name=$1
	shift
	stack "$@"
	case $? in
	0) check "$name" true ;;
	1) check "$name" false ;;
	2) skip "$name" "every try killed by a signal (a 16 KiB stack, the platform's)" ;;
	esac
}

under "sweep under ulimit -s 16" sweep '^ +0\.01 ' -r 1 0.01
under "plot under ulimit -s 16" plot '</svg>' "$tmp/a.csv"
under "report under ulimit -s 16" report '^Physical scan is' -n 1 -c 0.01 -r 1
under "compare under ulimit -s 16" compare '^ListLRU ' "$tmp/a.csv" "$tmp/b.csv"
under "explain --kernel under ulimit -s 16" explain '^10 kernel \(measured\)' -c 0.01 --kernel=tests/kernel-ratio.csv
under "snapshot --summary under ulimit -s 16" snapshot '^pfns 16$' --summary "$tmp/kpf" "$tmp/kpf"
under "vs-yardstick under ulimit -s 16" vs-yardstick '^naive ' -n 1 -c 0.01 "$tmp/naive"
under "collect under ulimit -s 16" collect 'ListLRU' "$tmp/block"
under "results -q under ulimit -s 16" results '\.md$' -q -o "$tmp/res"
# kernel.sh: its help, a refusal, and (where it could run) --check's
# every check; never its work
under "kernel -h under ulimit -s 16" kernel '^usage: ' -h
want=1
under "kernel refusing a -d under ulimit -s 16" kernel '2:-d .*: no such directory$' --check -d "$tmp/none"
want=0
if sh scripts/kernel.sh --check >/dev/null 2>&1; then
	under "kernel --check under ulimit -s 16" kernel '2:--check: it can run here' --check
else
	skip "kernel --check under ulimit -s 16" "kernel.sh cannot run here (not root, no tracefs or memory cgroup)"
fi
if [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing/events/pagemap/mm_lru_insertion ]; then
	# a run the stack kills cannot remove its trace instance: the test does
	ls /sys/kernel/tracing/instances >"$tmp/before" 2>/dev/null
	under "trace-lru under ulimit -s 16" trace-lru '2:insertions in' -o "$tmp/lru" -b 1024 true
	for i in /sys/kernel/tracing/instances/scan-lru-*; do
		[ -d "$i" ] || continue
		grep -qx "${i##*/}" "$tmp/before" || kill -0 "${i##*-}" 2>/dev/null ||
			rmdir "$i"
	done
else
	under "trace-lru -h under ulimit -s 16" trace-lru '^usage: ' -h
fi

# The soft limit raised toward the hard one before the work: under
# ulimit -Ss 16 (the hard limit as it was) collect.sh died of SIGSEGV in
# about 1 run in 8 (dash waiting for a child, a signal's frame on the
# stack).  Its awk sees the raised limit; five runs do their work;
# under ulimit -s 16 (the hard limit too) a line says it cannot; the
# command trace-lru runs gets the user's own limit back.
# shellcheck disable=SC3045
hard=$(ulimit -H -s)
if [ "$hard" = unlimited ] || [ "$hard" -ge 8192 ]; then
	want_kb=8192
else
	want_kb=$hard
fi
mkdir "$tmp/stackawk"
# shellcheck disable=SC2016 # the wrapper's own $@
printf '#!/bin/sh\nulimit -s >>"%s"\nexec awk "$@"\n' "$tmp/awk.stack" >"$tmp/stackawk/awk"
chmod +x "$tmp/stackawk/awk"
# shellcheck disable=SC3045
(ulimit -Ss 16 && exec env -i PATH="$PATH" AWK="$tmp/stackawk/awk" sh scripts/collect.sh "$tmp/block") >/dev/null 2>&1
check "collect under ulimit -Ss 16: its awk runs with the soft limit raised ($want_kb KiB)" \
	sh -c "[ -s '$tmp/awk.stack' ] && ! grep -vqx '$want_kb' '$tmp/awk.stack'"
raised_ok=0
i=0
while [ "$i" -lt 5 ]; do
	i=$((i + 1))
	# shellcheck disable=SC3045
	(ulimit -Ss 16 && exec env -i PATH="$PATH" sh scripts/collect.sh "$tmp/block") >"$tmp/out" 2>"$tmp/err" &&
		grep -q ListLRU "$tmp/out" && [ ! -s "$tmp/err" ] && raised_ok=$((raised_ok + 1))
done
check "collect under ulimit -Ss 16: 5 runs of 5 do their work, nothing on stderr" [ "$raised_ok" -eq 5 ]
said=0
i=0
while [ "$i" -lt 4 ] && [ "$said" -eq 0 ]; do
	i=$((i + 1))
	# a command, not a ( ) subshell: dash 0.5.12 drops a subshell's own
	# redirections inside a { } group that has one, where the subshell
	# ends in exec (its stderr was never written: the check failed in CI)
	# shellcheck disable=SC2016 # the inner shell's
	{ sh -c 'ulimit -s 16 && exec env -i PATH="$1" sh scripts/collect.sh "$2"' sh "$PATH" "$tmp/block" >/dev/null 2>"$tmp/err"; } 2>/dev/null
	[ "$(grep -c '^collect.sh: the stack limit is 16 KiB and its hard limit keeps it there' "$tmp/err")" -eq 1 ] && said=1
done
check "collect under ulimit -s 16 (hard too): one line says the limit cannot be raised" [ "$said" -eq 1 ]
if [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing/events/pagemap/mm_lru_insertion ]; then
	# shellcheck disable=SC3045,SC2016
	(ulimit -Ss 64 && exec sh scripts/trace-lru.sh -o "$tmp/lru64" -b 1024 sh -c 'ulimit -s >"$0"' "$tmp/cmd.stack") >/dev/null 2>&1
	check "trace-lru under ulimit -Ss 64: COMMAND runs with the user's 64 KiB" \
		[ "$(cat "$tmp/cmd.stack" 2>/dev/null)" = 64 ]
else
	skip "trace-lru under ulimit -Ss 64: COMMAND's own limit" "not root, or no mm_lru_insertion tracepoint"
fi
