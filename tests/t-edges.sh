#!/bin/sh
# scan's edges: numbers decided on their digits, files that never end,
# signals from the first instruction, the memory guard's cgroups, the
# --lru-order parser, live replays and a small stack.  Each check is a
# command from issue 23 that once went wrong.
# A hang here is a failure, and nothing in this file takes seconds.
HANG_S=${HANG_S:-30}
. tests/lib.sh

# flags: a memmap of 1000 order-0 LRU pfns in kpageflags format; kpf
# holds it saved.
flags() {
	awk 'BEGIN { for (i = 0; i < 1000; i++) printf "%c%c%c%c%c%c%c%c", 32, 0, 0, 0, 0, 0, 0, 0 }'
}
kpf=$tmp/kpageflags
flags >"$kpf"

# 1. The page count is decided on the digits, however many.
bad "-c 0.0099999999999999999999 (9999.99... pages)" -c 0.0099999999999999999999
check "-c 0.0099999999999999999999: says the exact pages" \
	err_has "9999\\.9999999999999999 pages, not a whole number"
bad "-m 4095.99999999999999999999 (under one page)" -m 4095.99999999999999999999
bad "-m 18446744073709551615 (not whole pages, so exit 2)" -m 18446744073709551615
check "-m 18446744073709551615: says why" err_has "pages of 4 KiB, not a whole number"
run -c 0.0100000000000000000000000 -r 1 -vvv -q
check "-c 0.01 with 25 zeros: 10,000 pages" out_has '^Allocated memmap for 10000 pages'
run -m 4096.00000000000000000000000000 -r 1 -vvv -q
check "-m 4096.000...: one page" out_has '^Allocated memmap for 1 pages'
run -m 0.0390625M -r 1 -vvv -q
check "-m 0.0390625M: 10 pages" out_has '^Allocated memmap for 10 pages'

# 2. Files that never end, or cannot be read twice, are refused at
# once; a sparse terabyte is sized, not read.
mkfifo "$tmp/fifo"
for f in /dev/zero /dev/urandom /dev/full "$tmp/fifo"; do
	[ -e "$f" ] || continue
	run --memmap-from="$f" -r 1
	check "--memmap-from=$f: exit 1, not a hang" [ "$rc" -eq 1 ]
	check "--memmap-from=$f: says it is not a file" err_has "^scan: --memmap-from '$f': .*not a (regular )?file"
done
for f in /dev/zero "$tmp/fifo"; do
	run --memmap-from="$kpf" --memcg=1 --memcg-from="$f" -r 1
	check "--memcg-from=$f: exit 1, not a hang" \
		sh -c "[ $rc -eq 1 ] && grep -q \"^scan: --memcg-from '$f': .*not a \" '$tmp/err'"
	run --memmap-from="$kpf" --lru-order="$f" -r 1
	check "--lru-order=$f: exit 1, not a hang" \
		sh -c "[ $rc -eq 1 ] && grep -q \"^scan: --lru-order '$f': .*not a \" '$tmp/err'"
done
if truncate -s 1T "$tmp/sparse" 2>/dev/null; then
	run --memmap-from="$tmp/sparse" -r 1
	check "a 1 TiB sparse file: refused for its size, not read" \
		sh -c "[ $rc -eq 1 ] && grep -q 'needs .* available' '$tmp/err'"
	rm -f "$tmp/sparse"
else
	skip "a 1 TiB sparse file" "this file system holds no sparse terabyte"
fi
echo "flags | $SCAN --memmap-from=/dev/stdin" >"$tmp/cmd"
flags | "$SCAN" --memmap-from=/dev/stdin -r 1 >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a pipe to --memmap-from: exit 1, saying it is a pipe" \
	sh -c "[ $rc -eq 1 ] && grep -q 'a pipe or FIFO, not a file' '$tmp/err'"
run --memmap-from=/dev/stdin -r 1 </dev/null
check "--memmap-from=/dev/stdin on /dev/null: says why" \
	sh -c "[ $rc -eq 1 ] && grep -q 'a character device, not a regular file' '$tmp/err'"
run --memmap-from="$kpf" -r 1 -v -q
check "a saved file still replays" out_has '^replayed: .* pfns 0 to 999; LRU folios by order: 0:1000;'

# 3. A signal that arrives before anything else (pending when scan
# starts, blocked by its parent) ends scan in its handler, before it
# reads its options: 128+N, the line, no core.
cc=${CC:-cc}
printf '%s\n' '#include <signal.h>' '#include <stdlib.h>' '#include <unistd.h>' \
	'int main(int argc, char **argv) {' \
	'	sigset_t set; int sig = atoi(argv[1]); (void)argc;' \
	'	sigemptyset(&set); sigaddset(&set, sig); sigprocmask(SIG_BLOCK, &set, 0);' \
	'	kill(getpid(), sig); execv(argv[2], argv + 2); return 127; }' >"$tmp/pending.c"
if "$cc" -o "$tmp/pending" "$tmp/pending.c" 2>/dev/null; then
	scan_path=$(cd "$(dirname "$SCAN")" && pwd)/$(basename "$SCAN")
	mkdir "$tmp/cwd"
	for sig in INT:2 TERM:15 HUP:1 QUIT:3; do
		signame=${sig%:*}
		num=${sig#*:}
		echo "SIG$signame pending at exec: $SCAN -c abc" >"$tmp/cmd"
		# shellcheck disable=SC3045 # not POSIX; where it fails, no core anyway
		(cd "$tmp/cwd" && ulimit -c unlimited 2>/dev/null
			"$tmp/pending" "$num" "$scan_path" -c abc) >"$tmp/out" 2>"$tmp/err"
		rc=$?
		check "SIG$signame before the options: exit $((128 + num))" [ "$rc" -eq $((128 + num)) ]
		check "SIG$signame before the options: 'scan: interrupted' alone" \
			sh -c "[ \"\$(cat '$tmp/err')\" = 'scan: interrupted' ]"
		check "SIG$signame: no core left" sh -c "[ -z \"\$(ls '$tmp/cwd')\" ]"
	done
else
	skip "signals before the options" "no C compiler for the helper"
fi

emulated=
case $SCAN in *qemu*) emulated=1 ;; esac	# .ci/run's arm64 build

# 4 and 5. The memory guard takes the tightest cgroup limit up the tree,
# and a limit it cannot read fails the run.  Root, with cgroup v1's
# memory controller mounted, can set this up.
memcg=$(sed -n 's/^[0-9]*:\([^:]*,\)\{0,1\}memory\(,[^:]*\)\{0,1\}:\(.*\)/\3/p' /proc/self/cgroup 2>/dev/null)
cgdir=/sys/fs/cgroup/memory${memcg%/}/scan-edges-$$
if [ "$(id -u)" -eq 0 ] && [ -n "$memcg" ] && mkdir "$cgdir" 2>/dev/null; then
	if mkdir "$cgdir/child" && echo 100M >"$cgdir/memory.limit_in_bytes"; then
		# in_child CMD...: run CMD in the child cgroup
		in_child() {
			sh -c 'echo $$ >"$0/child/cgroup.procs" && exec "$@"' "$cgdir" "$@"
		}
		echo "$SCAN -c 4 in a child without a limit of a 100M cgroup" >"$tmp/cmd"
		in_child "$SCAN" -c 4 -r 1 -q >"$tmp/out" 2>"$tmp/err"
		rc=$?
		check "a parent's 100M limit: -c 4 refused, exit 1" [ "$rc" -eq 1 ]
		check "a parent's 100M limit: names the cgroup's limit" \
			err_has "needs .* available \\(the memory cgroup's limit less its usage\\)"
		echo 100M >"$cgdir/child/memory.limit_in_bytes"
		# under qemu-user the emulator needs the descriptors, and
		# runs from a scratch directory nobody may enter
		if [ -n "$emulated" ]; then
			skip "ulimit -n 4 and an unreadable limit" "scan runs under qemu-user"
		else
			echo "$SCAN -c 4 under ulimit -n 4 in a 100M cgroup" >"$tmp/cmd"
			# (a descriptor the suite inherited closed first: flock's
			# lock on 3 left the loader none for libc, EMFILE)
			# shellcheck disable=SC2016 # expanded by that sh
			in_child sh -c 'exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; ulimit -n 4 && exec "$0" -c 4 -r 1 -q' "$SCAN" >"$tmp/out" 2>"$tmp/err"
			rc=$?
			check "ulimit -n 4: the limit is still read, -c 4 refused" \
				sh -c "[ $rc -eq 1 ] && grep -q 'memory cgroup' '$tmp/err'"
			if have setpriv; then
				mkdir "$tmp/pub"
				chmod 755 "$tmp" "$tmp/pub"
				cp "$SCAN" "$tmp/pub/scan"
				chmod 000 "$cgdir/child/memory.limit_in_bytes"
				echo "$SCAN -c 4 as nobody, memory.limit_in_bytes unreadable" >"$tmp/cmd"
				in_child setpriv --reuid=65534 --regid=65534 --clear-groups \
					"$tmp/pub/scan" -c 4 -r 1 -q >"$tmp/out" 2>"$tmp/err"
				rc=$?
				check "an unreadable limit: exit 1, not 'no limit'" [ "$rc" -eq 1 ]
				check "an unreadable limit: says which file and why" \
					err_has "^scan: cannot read .*/child/memory\\.limit_in_bytes, .*: Permission denied$"
			else
				skip "an unreadable limit file" "no setpriv to drop root"
			fi
		fi
	else
		skip "cgroup limits" "cannot make a limited child cgroup"
	fi
	rmdir "$cgdir/child" "$cgdir" 2>/dev/null
else
	skip "cgroup limits up the tree" "needs root and cgroup v1's memory controller"
fi

# 7. A comment of any length is one line; the line numbers stay right.
long=$(awk 'BEGIN { for (i = 0; i < 300; i++) printf "x" }')
printf '# %s\n5\n7\n' "$long" >"$tmp/order"
run --memmap-from="$kpf" --lru-order="$tmp/order" -r 1 -v -q
check "a 300-character comment: skipped whole" \
	out_has '^traced: 2 of 1000 folios' '^traced: 2 insertions in the file'
printf '# %s\n5\n7\nbad\n' "$long" >"$tmp/order"
run --memmap-from="$kpf" --lru-order="$tmp/order" -r 1
check "after a long comment, a bad line is refused with its own number" \
	sh -c "[ $rc -eq 1 ] && grep -q \"line 4: 'bad' is not a pfn\" '$tmp/err'"
printf '%0200d\n' 5 >"$tmp/order"
run --memmap-from="$kpf" --lru-order="$tmp/order" -r 1
check "a 200-digit pfn: refused on line 1" \
	sh -c "[ $rc -eq 1 ] && grep -q 'line 1: .* is not a pfn' '$tmp/err'"

# 8. The option refused beside --memmap-from is the one given.
for opt in --folios=0:100 --folio-order=2 --lru-fraction=0.5 --non-lru=buddy; do
	bad "--memmap-from with $opt" --memmap-from="$kpf" "$opt"
	check "--memmap-from with $opt: names it" err_has "decides what ${opt%%=*} sets"
done

# 9. A live replay leaves scan's own memory out, and -v counts it.
if [ -n "$emulated" ]; then
	skip "a live replay leaves scan's own pages out" "under qemu-user pagemap maps the emulator's memory"
elif [ -r /proc/kpageflags ] && head -c 8 /proc/kpageflags >/dev/null 2>&1; then
	run --memmap-from=/proc/kpageflags --struct-page=8 --walks=list -r 1 -v -q
	own=$(sed -n "s/^replayed: \\([0-9]*\\) of these pfns were scan's own memory.*/\\1/p" "$tmp/out")
	pfns=$(sed -n 's/^memmap .* for \([0-9]*\) pages.*/\1/p' "$tmp/out")
	# its memmap and LRU array alone are 16 bytes a pfn
	own_counted() {
		[ -n "$own" ] && [ -n "$pfns" ] && [ "$own" -ge $((pfns * 16 / 4096)) ]
	}
	check "a live replay: -v counts scan's own pfns, its memmap at least" own_counted
else
	skip "a live replay leaves scan's own pages out" "/proc/kpageflags is not readable here"
fi
run --memmap-from="$kpf" -r 1 -v -q
check "a saved file: no own pfns line" sh -c "! grep -q 'own memory' '$tmp/out'"

# 10. The smaller holes.
bad "--walks=list, (an empty name)" -c 0.01 --walks=list,
bad "--walks=,list" -c 0.01 --walks=,list
bad "--walks=list,,array" -c 0.01 --walks=list,,array
check "--walks=list,,array: says a comma is too many" err_has "an empty walk name"
bad "--folios=0:50,,9:50" -c 0.01 --folios=0:50,,9:50
run -c 0.01 -r 1 -q --walks=array,list -v
check "--walks=array,list still runs" out_has '^Array scan in' '^ListLRU scan in'
printf '5\000junk\n' >"$tmp/order"
run --memmap-from="$kpf" --lru-order="$tmp/order" -r 1
check "--lru-order '5\\0junk': refused, not pfn 5" \
	sh -c "[ $rc -eq 1 ] && grep -q 'line 1: a NUL byte after .5.: not a pfn' '$tmp/err'"
printf '5\r\n0x7\n\n# done\n' >"$tmp/order"
run --memmap-from="$kpf" --lru-order="$tmp/order" -r 1 -v -q
check "--lru-order: CRLF, hex, blank lines and comments still read" out_has '^traced: 2 of 1000 folios'
run -c 0.01 -r 1 --memcg-share=1e-300
check "--memcg-share=1e-300 with no folio in the target: says --memcg-share" \
	sh -c "[ $rc -eq 1 ] && grep -q 'raise --memcg-share' '$tmp/err' && ! grep -q lru-fraction '$tmp/err'"
awk 'BEGIN { for (i = 0; i < 1000; i++) printf "%c%c%c%c%c%c%c%c", 0, 0, 0, 0, 0, 0, 0, 0 }' >"$tmp/nolru"
run --memmap-from="$tmp/nolru" -r 1
check "a replay without LRU pages: says so, and --pfns, not --lru-fraction" \
	sh -c "[ $rc -eq 1 ] && grep -q 'no LRU page in pfns 0 to 999.*--pfns' '$tmp/err' &&
		! grep -q lru-fraction '$tmp/err'"
run -c 0.01 -s 7 --original -vvv
fp=$(fingerprint)
check "--original -vvv: prints the LRU fingerprint" same "$fp" "$fp"
check "--original -vvv: totals exact" totals_exact
run -c 0.01 -s 7 -r 1 -vvv -q
check "--original -vvv: the fingerprint of the same seed" same "$fp" "$(fingerprint)"
case $SCAN in
*sanitize*) skip "a 16 KiB stack" "the sanitizers need more" ;;
*qemu*) skip "a 16 KiB stack" "under qemu-user the stack limit is the emulator's" ;;
*)
	# The rule is scan's (scan.c, main): of the 16 KiB the kernel takes
	# the environment's strings and up to 8 KiB at random, and the
	# loader needs some 6 KiB of the rest before main.  So the runs get
	# an empty environment, set before the limit (env -i under it would
	# be one more program to load): under make's own, the loader died
	# in 9 of 300 runs, as it does for an empty C program, before
	# scan's first line (dmesg: in _dl_map_object_from_fd).
	stack_args() {	# stack_args K: the K-th set of options; want, its exit status
		want=0
		case $1 in
		1) args="-c 0.01 -r 1 -vvv" ;;
		2) args="-c 0.01 -r 1 --kernel-like --format=json -vv" ;;
		3) args="-c 0.01 -r 1 --lists=1000 --walks=list,array,xarray" ;;
		4) args="--memmap-from=$kpf -r 1 -vvv" ;;
		*) args="-c abc" want=2 ;;
		esac
	}
	# small_stack [setarch -R] ARGS...: scan under ulimit -s 16, its
	# environment PAD=$pad alone (the setarch -R is its own program,
	# started before the limit)
	small_stack() {
		# shellcheck disable=SC2016 # the inner shell's own expansions
		sh_args='ulimit -s 16 && exec "$0" "$@"'
		if [ "$1" = setarch ]; then
			shift 2
			setarch -R env -i PAD="$pad" sh -c "$sh_args" "$SCAN" "$@"
		else
			env -i PAD="$pad" sh -c "$sh_args" "$SCAN" "$@"
		fi
	}
	pad=""
	failed=0
	for _ in 1 2 3 4; do
		for k in 1 2 3 4 5; do
			stack_args "$k"
			# shellcheck disable=SC2086 # a list of options
			small_stack $args >/dev/null 2>&1
			[ $? -eq "$want" ] || failed=$((failed + 1))
		done
	done
	echo "20 runs under ulimit -s 16" >"$tmp/cmd"
	: >"$tmp/err"
	check "a 16 KiB stack (ulimit -s 16): 20 runs, each its usual exit status" [ "$failed" -eq 0 ]
	# The worst the kernel's offset can be, every time: no randomness
	# (setarch -R), 8 KiB of environment in its place.
	pad=$(printf '%08192d' 0)
	if setarch -R true 2>/dev/null; then
		failed=0
		for k in 1 2 3 4 5; do
			stack_args "$k"
			# shellcheck disable=SC2086 # a list of options
			small_stack setarch -R $args >/dev/null 2>&1
			[ $? -eq "$want" ] || failed=$((failed + 1))
		done
		check "a 16 KiB stack, the kernel's random 8 KiB at its worst: each its usual exit status" [ "$failed" -eq 0 ]
	else
		skip "a 16 KiB stack at the kernel's worst offset" "no setarch -R here"
	fi
	;;
esac
