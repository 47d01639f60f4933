#!/bin/sh
# scan itself against hostile names, files and limits: a check for each
# fault of scan.c a probe found (a path's bad bytes in JSON, CSV and
# text; a CPU name's escapes; --lru-order read without bounds; ulimit -f;
# two scans in one memory cgroup; threads failing together).  Each failed
# on scan before it was fixed.  Tiny sizes; no speed is asserted.
. tests/lib.sh
case $SCAN in /*) ;; *) SCAN=$(pwd)/$SCAN ;; esac
# under qemu-user (.ci/run's arm64 build) a preloaded shim loads into
# the emulator, not scan, and the emulator's own memory is charged to
# the memory cgroup: the checks with a shim are skipped there
emulated=""
case $SCAN in *qemu*) emulated=1 ;; esac

kpageflags "$tmp/kpf" 96
esc=$(printf '\033')
e_acute=$(printf '\303\251')

# ended N [FILE...]: the last run exited N, and each FILE is plain text.
ended() {
	[ "$rc" -eq "$1" ] || return 1
	shift
	for f in "$@"; do
		plain "$f" || return 1
	done
}
# holds FILE TEXT: a line of FILE holds TEXT.
holds() {
	grep -qF -- "$2" "$1"
}
# one_line N: the last run exited N with one line on stderr, plain text.
one_line() {
	[ "$rc" -eq "$1" ] && [ "$(grep -c '' "$tmp/err")" -eq 1 ] && plain "$tmp/err"
}

# --- a path's bytes in JSON, CSV and text lines -------------------------
# ESC, a C1 control (U+0085), bytes of no UTF-8, a comma, a quote, a
# backslash and a good character, in a --memmap-from path.
bad=$tmp/k$(printf '\377\376%s[31m,"\\\302\205' "$esc")$e_acute
cp "$tmp/kpf" "$bad"

# json_path FILE: FILE's memmap_from as Python's ascii() writes it; FILE
# must be JSON in strict UTF-8.
json_path() {
	python3 -c 'import json, sys; print(ascii(json.load(open(sys.argv[1], encoding="utf-8"))["memmap_from"]))' "$1"
}

run "--memmap-from=$bad" -r 2 --format=json
cp "$tmp/out" "$tmp/bad.json"
check "json: a path of control and bad bytes: exit 0, plain text" ended 0 "$tmp/bad.json"
if have python3; then
	check "json: valid; controls as \\u00XX, bad bytes as the text \\xNN, the rest kept" \
		same "$(json_path "$tmp/bad.json")" "'$tmp/k\\\\xff\\\\xfe\\x1b[31m,\"\\\\\\x85\\xe9'"
else
	skip "json: valid; controls as \\u00XX, bad bytes as the text \\xNN" "no python3 to parse JSON"
fi

run "--memmap-from=$bad" -r 2 --format=csv -v
cp "$tmp/out" "$tmp/bad.csv"
check "csv: exit 0, plain text" ended 0 "$tmp/bad.csv"
check "csv: the header and 3 rows of as many fields" csv_ok "$tmp/bad.csv" 3
check "csv: a byte of no printable UTF-8, a comma, a quote, a backslash as \\xNN" \
	same "$(csv_col "$tmp/bad.csv" memmap_from | sort -u)" \
	"$tmp/k\\xff\\xfe\\x1b[31m\\x2c\\x22\\x5c\\xc2\\x85$e_acute"
grep -a '^replayed: ' "$tmp/err" >"$tmp/replayed"
check "-v: the replayed line is plain text" ended 0 "$tmp/replayed"
check "-v: the replayed line's path as messages write it" \
	holds "$tmp/replayed" "replayed: $tmp/k\\xff\\xfe\\x1b[31m,\"\\\\xc2\\x85$e_acute pfns 0 to 95"

run -c "$(printf '1\377\302\205%s' "$esc")"
check "a message: one plain line, exit 2" one_line 2
check "a message: a value's bad bytes and controls as \\xNN" holds "$tmp/err" "1\\xff\\xc2\\x85\\x1b"

# --- the machine's names --------------------------------------------------
# A host faked by SCAN_MACHINE_ROOT whose CPU says escapes, a C1 control
# and a byte of no UTF-8 in its model name, vendor and hypervisor.
host=$tmp/host
mkdir -p "$host/proc" "$host/sys/hypervisor"
printf 'processor\t: 0\nvendor_id\t: Evil%s[2J\nmodel name\t: Evil%s]0;owned\a CPU \377 \302\205 %s\nflags\t\t: fpu hypervisor\n' \
	"$esc" "$esc" "$e_acute" >"$host/proc/cpuinfo"
printf 'xen%s[1m\n' "$esc" >"$host/sys/hypervisor/type"
SCAN_MACHINE_ROOT=$host run -c 0.01 -r 2 -v --format=csv
grep -a '^machine: ' "$tmp/err" >"$tmp/machine"
check "-v: the machine line of a CPU named with escapes is plain text" \
	ended 0 "$tmp/machine" "$tmp/out"
check "-v: its names as messages write them" \
	holds "$tmp/machine" "Evil\\x1b[2J family ? model ? stepping ?, Evil\\x1b]0;owned\\x07 CPU \\xff \\xc2\\x85 $e_acute, hypervisor xen\\x1b[1m," 
check "csv: the same names" \
	same "$(csv_col "$tmp/out" cpu | sort -u)" "Evil\\x1b]0;owned\\x07 CPU \\xff \\xc2\\x85 $e_acute"
if have python3; then
	SCAN_MACHINE_ROOT=$host run -c 0.01 -r 2 --format=json
	check "json: the names' controls as \\u00XX, bad bytes as the text \\xNN" \
		same "$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1], encoding="utf-8")); print(ascii([d["cpu"], d["cpu_vendor"], d["hypervisor"]]))' "$tmp/out")" \
		"['Evil\\x1b]0;owned\\x07 CPU \\\\xff \\x85 \\xe9', 'Evil\\x1b[2J', 'xen\\x1b[1m']"
else
	skip "json: the names' controls as \\u00XX, bad bytes as the text \\xNN" "no python3 to parse JSON"
fi

# --- --lru-order read with bounds ---------------------------------------
# A file is read to its size when opened, a line to 4 KiB: a sparse
# terabyte and /proc/self/pagemap (which never ends) each ran past 25 s.
# quick SECONDS ARGS...: scan refused ARGS with one line, exit 1, within
# SECONDS (a hang is cut off there).
quick() {
	t=$1
	shift
	HANG_S=$t run "$@"
	one_line 1
}
truncate -s 1T "$tmp/tera.txt" 2>/dev/null || dd if=/dev/zero of="$tmp/tera.txt" bs=1 count=0 seek=1099511627776 2>/dev/null
if [ -f "$tmp/tera.txt" ]; then
	check "--lru-order: a sparse terabyte refused at once, one line, exit 1" \
		quick 10 "--memmap-from=$tmp/kpf" "--lru-order=$tmp/tera.txt"
	check "--lru-order: ... at its first line, for NUL bytes" \
		holds "$tmp/err" "line 1: over 4096 bytes, NUL bytes among them"
else
	skip "--lru-order: a sparse terabyte refused at once" "this file system holds no sparse terabyte"
fi
if [ -r /proc/self/pagemap ]; then
	check "--lru-order=/proc/self/pagemap refused at once, one line, exit 1" \
		quick 10 "--memmap-from=$tmp/kpf" --lru-order=/proc/self/pagemap
	check "--lru-order=/proc/self/pagemap: ... as a file that says it is empty" \
		holds "$tmp/err" "says it is empty but is not"
else
	skip "--lru-order=/proc/self/pagemap refused at once" "no /proc/self/pagemap here"
fi
{ printf '0x5\n#'; awk 'BEGIN { while (n++ < 5000) printf "x" }'; printf '\n6\n'; } >"$tmp/long.txt"
check "--lru-order: a line over 4 KiB (a comment too) refused, one line, exit 1" \
	quick 10 "--memmap-from=$tmp/kpf" "--lru-order=$tmp/long.txt"
check "--lru-order: ... with its number and start" holds "$tmp/err" "line 2: over 4096 bytes ('#xxx"
printf '0x5\n# a comment\n\n6\r\n' >"$tmp/short.txt"
run "--memmap-from=$tmp/kpf" "--lru-order=$tmp/short.txt" -r 2 -v
check "--lru-order: a short trace with a comment, a blank line and a CRLF still read" \
	holds "$tmp/out" "traced: 2 insertions in the file, 0 of them of pfns not on these lists"

# --- ulimit -f --------------------------------------------------------------
# limited BLOCKS ARGS...: scan under ulimit -f BLOCKS, stdout to a file and
# stderr through a pipe, which the limit does not cover.
limited() {
	b=$1
	shift
	echo "ulimit -f $b; scan $* >FILE" >"$tmp/cmd"
	{ (ulimit -f "$b" && exec "$SCAN" "$@" >"$tmp/limited" 2>&3); echo "$?" >"$tmp/rc"; } 3>&1 |
		cat >"$tmp/err"
	rc=$(cat "$tmp/rc")
}
limited 0 -c 0.01 -r 2
check "ulimit -f 0: one line, exit 1 (was SIGXFSZ, 153)" one_line 1
check "ulimit -f 0: results that cannot be written" \
	same "$(cat "$tmp/err")" "scan: cannot write results: File too large"
limited 1 -c 0.01 -r 2 -vvv --format=json
check "ulimit -f 1: JSON cut by the limit: exit 1, -vvv's lines" ended 1 "$tmp/err"
check "ulimit -f 1: then the write's line" \
	same "$(tail -n 1 "$tmp/err")" "scan: cannot write results: File too large"

# --- two scans in one memory cgroup --------------------------------------
# tests/hold-faults.c, preloaded, holds each scan after its check of the
# room until both have made it, as when two start together: in a 128 MiB
# memory cgroup of our own, two scans that each fit alone.  One was
# OOM-killed (137); now each reads the room again while faulting in, and
# one that finds it gone stops with a line, exit 1.
cg=""
trap 'if [ -n "$cg" ]; then rmdir "$cg" 2>/dev/null; fi; rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# memcg_new: $cg, a new memory cgroup (v2, else v1) of 128 MiB and no
# swap; status 1, and $why, where that cannot be done.
memcg_new() {
	why="not root"
	[ "$(id -u)" -eq 0 ] || return 1
	why="no memory cgroup to make one in"
	if grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
		cg=/sys/fs/cgroup/scan-faults-$$
		mkdir "$cg" && echo 128M >"$cg/memory.max" || return 1
		[ ! -f "$cg/memory.swap.max" ] || echo 0 >"$cg/memory.swap.max"
	elif [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
		cg=/sys/fs/cgroup/memory/scan-faults-$$
		mkdir "$cg" && echo 128M >"$cg/memory.limit_in_bytes" || return 1
		[ ! -f "$cg/memory.memsw.limit_in_bytes" ] || echo 128M >"$cg/memory.memsw.limit_in_bytes"
	else
		return 1
	fi
}
# held ERR ARGS...: scan ARGS in $cg under the shim, stderr to ERR; $!
held() {
	e=$1
	shift
	LD_PRELOAD=$tmp/hold.so HOLD_DIR=$tmp/hold ASAN_OPTIONS=verify_asan_link_order=0 \
		sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$SCAN" "$@" >/dev/null 2>"$e" &
}
# stopped_ok STATUS ERR: exit 0, or exit 1 with ERR one line saying the room went
stopped_ok() {
	[ "$1" -eq 0 ] ||
		{ [ "$1" -eq 1 ] && [ "$(grep -c '' "$2")" -eq 1 ] &&
			grep -q "^scan: only .* left in the memory cgroup, for the .* scan has still to fault in" "$2"; }
}
# pair_ok: neither killed, one stopped at least (both cannot fit)
pair_ok() {
	[ $((s1 + s2)) -ge 1 ] && stopped_ok "$s1" "$tmp/cg1.err" && stopped_ok "$s2" "$tmp/cg2.err"
}
name="two scans in one 128 MiB memory cgroup: none OOM-killed; one stops, exit 1, saying why"
if ! have "${CC:-cc}"; then
	skip "$name" "no C compiler (${CC:-cc}) to build the shim"
elif [ -n "$emulated" ]; then
	skip "$name" "scan runs under qemu-user: the shim would hold the emulator"
elif ! "${CC:-cc}" -shared -fPIC -o "$tmp/hold.so" tests/hold-faults.c 2>"$tmp/err"; then
	check "the shim builds" false
elif ! memcg_new; then
	skip "$name" "$why"
else
	mkdir "$tmp/hold"
	held "$tmp/cg1.err" -c 1 --original -q
	p1=$!
	held "$tmp/cg2.err" -c 1 --original -q
	p2=$!
	k=0
	while [ "$k" -lt 100 ] && [ "$(find "$tmp/hold" -name 'ready.*' | wc -l)" -lt 2 ]; do
		sleep 0.1
		k=$((k + 1))
	done
	: >"$tmp/hold/go"
	wait "$p1"
	s1=$?
	wait "$p2"
	s2=$?
	echo "scan -c 1 --original twice, in $cg: exit $s1 and $s2" >"$tmp/cmd"
	cat "$tmp/cg1.err" "$tmp/cg2.err" >"$tmp/err"
	check "$name" pair_ok
	rmdir "$cg" && cg=""
fi

# --- threads failing together ---------------------------------------------
# tests/shrunk-file.c, preloaded: a --memmap-from file shrunk after it was
# sized, so that both setup threads fail reading it, and an exit that
# takes its time, so the second is seen: one line, not two.
truncate -s 16M "$tmp/sparse.kpf" 2>/dev/null || dd if=/dev/zero of="$tmp/sparse.kpf" bs=1 count=0 seek=16777216 2>/dev/null
if ! have "${CC:-cc}"; then
	skip "a file shrunk under two threads: one line" "no C compiler (${CC:-cc}) to build the shim"
elif [ "$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)" -lt 2 ]; then
	skip "a file shrunk under two threads: one line" "one CPU: setup runs on one thread"
elif [ -n "$emulated" ]; then
	skip "a file shrunk under two threads: one line" "scan runs under qemu-user: the shim would load into the emulator"
elif ! "${CC:-cc}" -shared -fPIC -o "$tmp/shrunk.so" tests/shrunk-file.c 2>"$tmp/err"; then
	check "the shim builds" false
else
	ok=0
	for _ in 1 2 3; do
		LD_PRELOAD=$tmp/shrunk.so ASAN_OPTIONS=verify_asan_link_order=0 run "--memmap-from=$tmp/sparse.kpf" -r 1
		one_line 1 && grep -q "^scan: --memmap-from: cannot read pfns [0-9]* to [0-9]*: the file is shorter than when it was sized$" "$tmp/err" &&
			ok=$((ok + 1))
	done
	check "a file shrunk under two threads: one line, exit 1 (3 of 3 runs)" [ "$ok" -eq 3 ]
fi
