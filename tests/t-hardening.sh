#!/bin/sh
# Hardening: random command lines, overflow, repeated options, Ctrl-C,
# and the portable build.  No input may crash or hang scan.
. tests/lib.sh

# The portable and 32-bit builds take seconds each: start them now, in
# the background, and check them below.
cc=${CC:-cc}
{
	"$cc" -std=gnu11 -Wall -Wextra -Werror -O2 -DSCAN_NO_LINUX -pthread \
		-o "$tmp/portable" scan.c 2>"$tmp/portable.err"
	echo $? >"$tmp/portable.rc"
} &
portable_build=$!
# A 32-bit C library is there when a program using the headers scan.c
# needs builds and links with -m32.
printf '#include <errno.h>\n#include <pthread.h>\n#include <stdio.h>\n#include <sys/mman.h>\nint main(void) { return 0; }\n' >"$tmp/m32.c"
"$cc" -m32 -pthread -o "$tmp/m32" "$tmp/m32.c" 2>/dev/null || rm -f "$tmp/m32"
if [ -x "$tmp/m32" ]; then
	{
		"$cc" -m32 -std=gnu11 -Wall -Wextra -Werror -O2 -pthread \
			-o "$tmp/scan32" scan.c 2>"$tmp/scan32.err"
		echo $? >"$tmp/scan32.rc"
	} &
	m32_build=$!
fi

# A few hundred command lines from real and bogus options, each behind a
# tiny size and one round, so none takes long on any host (the options
# may only replace them with other tiny sizes): the status is always 0, 1
# or 2, never a signal or a hang.
awk -v seed="${FUZZ_SEED:-20261202}" 'BEGIN {
	srand(seed)
	n = split("-c 0.01|-c 0.002|-c 0|-c -1|-c abc|-c 1x|-c 1e12|-c|-m 64K|-m 1M|-m 16E|-m 12Q|" \
		"-s 1|-s 0x1f|-s -3|-s abc|-r 1|-r 2|-r 0|-r 99|-t 1|-t 2|-t 0|-t 99|-v|-vv|-vvv|" \
		"--lists=3|--lists=0|--lists=99999|--chunk=32|--chunk=0|--folio-order=2|" \
		"--folio-order=11|--folios=0:50,9:50|--folios=0:50|--folios=3:100|" \
		"--lru-fraction=0.3|--lru-fraction=0|--lru-fraction=2|--non-lru=buddy|" \
		"--non-lru=pageblock|--non-lru=x|--locality=4|--locality=0.5|--phys=jump|" \
		"--phys=x|--access=isolate|--access=atomic|--access=write|--access=x|" \
		"--rmap=0.5:2|--rmap=1:16|--rmap=x|--struct-page=8|--struct-page=32|" \
		"--struct-page=7|--walks=xarray|--walks=list,array,xarray|--walks=x|" \
		"--format=csv|--format=json|--format=x|--kernel-like|--builds=2|--builds=0|" \
		"--thp=never|--thp=system|--thp=x|--cache=warm|--cpu=0|--cpu=999|" \
		"--bogus|-x|extra|--|-h|-V|--help=x", opt, "|")
	for (line = 1; line <= 240; line++) {
		k = 1 + int(rand() * 5)
		args = "-c 0.005 -r 1"
		for (j = 0; j < k; j++)
			args = args " " opt[1 + int(rand() * n)]
		print args
	}
}' >"$tmp/lines"

# They run in one shell under one timeout, 3 HANG_S for all 240 (each
# takes milliseconds; a timeout a line would double their cost): a line
# that ends otherwise is printed with its status and stderr; one that
# hangs stops them all, and is named.
limit=""
have timeout && limit="timeout $((HANG_S * 3))"
# shellcheck disable=SC2016,SC2086 # for that shell; limit is a command
$limit sh -c '
	while IFS= read -r args; do
		echo "$args" >"$1/line"
		# shellcheck disable=SC2086 # args is a list of options
		"$SCAN" $args >/dev/null 2>"$1/err"
		rc=$?
		case $rc in
		0 | 1 | 2) ;;
		*)
			echo "# $SCAN $args: exit $rc"
			sed "s/^/#   stderr: /" "$1/err" | head -n 3
			;;
		esac
	done <"$1/lines"' sh "$tmp" >"$tmp/random"
[ $? -ne 124 ] || echo "# $SCAN $(cat "$tmp/line"): hung" >>"$tmp/random"
cat "$tmp/random"
: >"$tmp/cmd"
: >"$tmp/err"
check "240 random command lines: exit 0, 1 or 2, no signal, no hang" [ ! -s "$tmp/random" ]

# Overflow and the limits of the machine: a message and exit 1 or 2,
# never a wrapped size.
for args in "-c 1e12" "-c 1e300" "-m 16E" "-m 17179869184G" \
	"-c 18446744073709551616" "-s 18446744073709551616" \
	"-r 99999999999999999999" "--chunk=4294967296" "--locality=1e309" \
	"-c 0.000000000000000000001"; do
	# shellcheck disable=SC2086
	run $args
	check "$args: refused (exit $rc) with a message" \
		sh -c "[ $rc -eq 1 -o $rc -eq 2 ] && [ -s '$tmp/err' ] && [ ! -s '$tmp/out' ]"
done

# Many repeated options: harmless, the last value wins.
many=$(awk 'BEGIN { for (i = 0; i < 500; i++) printf " -v"; for (i = 0; i < 200; i++) printf " -c 0.00%d", i % 9 + 1 }')
# shellcheck disable=SC2086
run $many -r 1
check "700 repeated options: runs" [ "$rc" -eq 0 ]
check "700 repeated options: the last -c wins" out_has '^Allocated memmap for 2000 pages'
run -r 1 -c 0.01 --lists=2 --lists=3 --lists=4 -v
check "repeated long options: the last wins" out_has '4 lists per thread'

# Ctrl-C and the other signals that end a run: exit 128 + signal, a
# line on stderr.  The four runs go at once; a hang would be caught by
# the timeout around each.
sigs="INT:130 TERM:143 HUP:129 QUIT:131"
for sig in $sigs; do
	timeout "$HANG_S" "$SCAN" -c 2 -r 64 >/dev/null 2>"$tmp/err.${sig%:*}" &
	echo $! >"$tmp/pid.${sig%:*}"
done
sleep 1
for sig in $sigs; do
	kill -s "${sig%:*}" "$(cat "$tmp/pid.${sig%:*}")"
done
for sig in $sigs; do
	signame=${sig%:*}
	wait "$(cat "$tmp/pid.$signame")"
	rc=$?
	echo "$SCAN -c 2 -r 64, then SIG$signame" >"$tmp/cmd"
	cp "$tmp/err.$signame" "$tmp/err"
	check "SIG$signame: exit ${sig#*:}" [ "$rc" -eq "${sig#*:}" ]
	check "SIG$signame: says so on stderr" err_has '^scan: interrupted$'
done

# The portable build: the Linux-only parts (affinity, /proc, smaps, THP
# and populate hints) compiled out.
wait "$portable_build"
if [ "$(cat "$tmp/portable.rc")" -eq 0 ] && [ ! -s "$tmp/portable.err" ]; then
	check "-DSCAN_NO_LINUX: builds without a warning" true
	SCAN="$tmp/portable" run -c 0.01 -r 2 -vvv
	check "-DSCAN_NO_LINUX: runs" [ "$rc" -eq 0 ]
	check "-DSCAN_NO_LINUX: huge-page share unknown" out_has 'unknown huge'
	check "-DSCAN_NO_LINUX: totals exact" out_has '^total = 49995000$'
	SCAN="$tmp/portable" run -c 0.01 -r 1 --cpu=0
	check "-DSCAN_NO_LINUX: --cpu says it is not supported" err_has 'not supported on this system'
else
	check "-DSCAN_NO_LINUX: builds without a warning" false
fi
if [ -x "$tmp/m32" ]; then
	wait "$m32_build"
	echo "$cc -m32 ... scan.c" >"$tmp/cmd"
	check "-m32: builds without a warning" \
		sh -c "[ \$(cat '$tmp/scan32.rc') -eq 0 ] && [ ! -s '$tmp/scan32.err' ]"
	if "$tmp/m32" 2>/dev/null; then
		SCAN="$tmp/scan32" run -c 0.01 -r 2 -vvv
		check "-m32: totals exact" out_has '^total = 49995000$'
	else
		skip "-m32: runs" "this kernel cannot run 32-bit programs"
	fi
else
	skip "-m32: builds" "no 32-bit C library (gcc-multilib)"
fi

# Nothing lost: results that cannot be written fail the run, with the
# reason, whatever the format; a closed stdout too.
for args in "-c 0.01 -r 1" "-c 0.01 -r 1 -vvv" "-c 0.01 -r 1 --format=json" \
	"-c 0.01 -r 1 --format=csv -v" "-h" "-V"; do
	echo "$SCAN $args >/dev/full" >"$tmp/cmd"
	if [ -w /dev/full ]; then
		# shellcheck disable=SC2086 # args is a list of options
		"$SCAN" $args >/dev/full 2>"$tmp/err"
		rc=$?
		check "$args >/dev/full: exit 1" [ "$rc" -eq 1 ]
		check "$args >/dev/full: says why" err_has '^scan: cannot write results: No space left on device$'
	else
		skip "$args >/dev/full" "no /dev/full"
	fi
	echo "$SCAN $args >&-" >"$tmp/cmd"
	# shellcheck disable=SC2086
	"$SCAN" $args >&- 2>"$tmp/err"
	rc=$?
	check "$args >&-: exit 1" [ "$rc" -eq 1 ]
	check "$args >&-: says why" err_has '^scan: cannot write results: '
done

# Guards that see the real limits: an rlimit refuses before mapping,
# naming itself; a small stack is enough (no large buffer on it).
# (ulimit -v and -s are not POSIX, but dash, bash and busybox have them.)
# shellcheck disable=SC3045
if ! (ulimit -v 60000 && ulimit -s 32) 2>/dev/null; then
	skip "ulimit -v and -s" "this sh has no ulimit -v or -s"
	exit 0
fi
echo "ulimit -v 60000; $SCAN -c 1" >"$tmp/cmd"
# shellcheck disable=SC3045
if ! (ulimit -v 60000 && "$SCAN" -V >/dev/null 2>&1); then
	skip "ulimit -v" "$SCAN cannot start in 60 MB of address space (an emulator?)"
else
	# shellcheck disable=SC3045
	(ulimit -v 60000 && "$SCAN" -c 1 >"$tmp/out" 2>"$tmp/err")
	rc=$?
	check "ulimit -v: exit 1" [ "$rc" -eq 1 ]
	check "ulimit -v: names the limit" err_has '^scan: -c 1 needs .* available \(RLIMIT_AS \(ulimit -v\) less what is mapped\)$'
fi
for args in "-c 0.01 -r 2 -vvv" "-c 0.01 -r 1 --format=json --kernel-like" \
	"-c 0.01 -r 1 -t 1 --lists=1000 --walks=list,array,xarray" "-c abc"; do
	echo "ulimit -s 32; $SCAN $args" >"$tmp/cmd"
	# shellcheck disable=SC2086,SC3045 # args is a list of options
	(ulimit -s 32 && "$SCAN" $args >"$tmp/out" 2>"$tmp/err")
	rc=$?
	check "ulimit -s 32, $args: no crash" [ "$rc" -le 2 ]
done
