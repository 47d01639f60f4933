#!/bin/sh
# The scripts against hostile names, values and limits: a check for each
# fault a probe found (code run from a file name, an endless wrap, a link
# planted beside an output, names read as awk assignments, control bytes
# passed on, numbers at the edge, outputs that hang or lie, limits,
# signals).  Each failed on the scripts before they were fixed.  A run
# of a script costs dozens of processes, so where several faults of one
# class can meet in one run (names, control bytes, the output file), the
# checks read that run.
. tests/lib.sh
case $SCAN in /*) ;; *) SCAN=$(pwd)/$SCAN ;; esac	# the checks run in other directories

"$SCAN" -c 0.01 -r 2 -s 1 --format=csv >"$tmp/a.csv" 2>/dev/null
kpageflags "$tmp/kpf" 96
esc=$(printf '\033')

# one_line STATUS: the last run_cmd exited STATUS with one line on stderr
one_line() {
	[ "$rc" -eq "$1" ] && nlines "$tmp/err" && [ "$count" -eq 1 ]
}
# exited STATUS REGEX [FILE]: the last run exited STATUS and FILE (its
# stderr) has a line matching REGEX
exited() {
	[ "$rc" -eq "$1" ] && grep -q -- "$2" "${3:-$tmp/err}"
}
# with_csv VALUE OUT FIELD...: a.csv with each FIELD set to VALUE in
# every row
with_csv() {
	val=$1 csv_out=$2
	shift 2
	awk -F, -v OFS=, -v fields="$*" -v val="$val" 'NR == 1 { for (i = 1; i <= NF; i++) if (index(" " fields " ", " " $i " ")) c[i] = 1; print; next }
	{ for (i in c) $i = val; print }' "$tmp/a.csv" >"$csv_out"
}

# --- code from a file name --------------------------------------------
# one name holds both: a command line built from it would run both
mkdir "$tmp/cwd"
kpc="kpc\$(touch PWNED)\`touch PWNED2\`"
cp "$tmp/kpf" "$tmp/cwd/$kpc"
(cd "$tmp/cwd" && sh "$OLDPWD/scripts/snapshot.sh" --summary "$tmp/kpf" "$kpc") >"$tmp/out" 2>"$tmp/err"
rc=$?
never_run() {
	[ "$rc" -eq 0 ] && [ ! -e "$tmp/cwd/PWNED" ] && [ ! -e "$tmp/cwd/PWNED2" ] &&
		grep -q '^memcg 32: 96 LRU folios' "$tmp/out"
}
check "snapshot --summary: a KPAGECGROUP named \$(...) or \`...\` is read, never run" never_run

# --- an endless wrap, and a path's control bytes in the block ----------
# one report run: a word of over 90 bytes, its file's name ESC [31m and
# a backspace
long=$tmp/$(printf 'd%.0s' 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0)/e${esc}[31m$(printf '\010')x
mkdir -p "${long%/*}"
cp "$tmp/kpf" "$long"
HANG_S=30 run_cmd scripts/report.sh -n 1 -r 2 "--memmap-from=$long"
check "report: a 90-byte --memmap-from path ends, exit 0" [ "$rc" -eq 0 ]
wrapped() {	# every line of 72 columns but one whose word is longer, kept whole
	[ "$rc" -eq 0 ] &&
		awk 'length($0) > 72 { w = 0; for (i = 1; i <= NF; i++) if (length($i) > 70) w = 1; if (!w) bad = 1 }
		END { exit bad }' "$tmp/out"
}
check "report: lines of 72 columns but where a word is longer, kept whole" wrapped
check "report: ESC and a backspace from a path are escaped in the block" exited 0 'e\\x1b\[31m\\x08x' "$tmp/out"
check "report: the block is plain text" plain "$tmp/out"

# --- a link planted beside an output ------------------------------------
# one sweep over a 0600 file, a link planted at its old temporary's
# name: the sweep waits on a FIFO until the link is there
echo precious >"$tmp/target"
printf 'old\n' >"$tmp/secret.csv"
chmod 600 "$tmp/secret.csv"
mkfifo "$tmp/go"
( read -r _ <"$tmp/go"; exec sh scripts/sweep.sh -o "$tmp/secret.csv" -r 1 0.01 ) >/dev/null 2>&1 &
pid=$!
ln -s "$tmp/target" "$tmp/secret.csv.tmp$pid"
echo >"$tmp/go"
wait "$pid"
not_followed() {
	read -r kept <"$tmp/target" && [ "$kept" = precious ] && [ -s "$tmp/secret.csv" ]
}
check "sweep -o: a link planted at OUT.tmp\$\$ is not followed" not_followed
mode_kept() {
	[ "$(stat -c %a "$tmp/secret.csv")" = 600 ] && grep -q '^walk,' "$tmp/secret.csv"
}
check "sweep -o over a 0600 file: the new file is 0600" mode_kept

# --- names misread --------------------------------------------------------
mkdir "$tmp/names"
tee "$tmp/names/b1.csv" "$tmp/names/c=2.csv" "$tmp/names/b3.csv" "$tmp/names/a1.csv" \
	"$tmp/names/a2.csv" "$tmp/names/a3.csv" "$tmp/names/x=y.csv" <"$tmp/a.csv" >/dev/null
(cd "$tmp/names" && sh "$OLDPWD/scripts/compare.sh" b1.csv c=2.csv b3.csv -- a1.csv a2.csv a3.csv) \
	>"$tmp/out" 2>"$tmp/err"
check "compare: c=2.csv is a file, not an awk assignment: 3 runs a side" \
	grep -q ' 3 runs).* 3 runs)' "$tmp/out"
(cd "$tmp/names" && timeout 10 sh "$OLDPWD/scripts/plot.sh" x=y.csv) </dev/null >"$tmp/out" 2>"$tmp/err"
rc=$?
check "plot: x=y.csv is read, not stdin" exited 0 '</svg>' "$tmp/out"
# one explain run, its file named with all of them: a space, a tab, | ;
# a backslash and b, a newline
name=$(printf 'k p\t|;\\bq\np')
cp "$tmp/kpf" "$tmp/names/$name"
HANG_S=60 run_cmd scripts/explain.sh -o "$tmp/ex.csv" "--memmap-from=$tmp/names/$name"
check "explain --memmap-from with a space, a tab, | and ;: one word, exit 0" [ "$rc" -eq 0 ]
check "explain --memmap-from with a newline: one word, exit 0" [ "$rc" -eq 0 ]
check "explain: a backslash and b stay two bytes in the CSV" grep -q 'k p\\x09|;\\bq' "$tmp/ex.csv"
touch "$tmp/names/zz1" "$tmp/names/zz2"
(cd "$tmp/names" && sh "$OLDPWD/scripts/sweep.sh" -s '*' 0.01) >/dev/null 2>"$tmp/err"
rc=$?
check "sweep -s '*': the star goes to scan, unglobbed" exited 2 "scan: -s '\\*'"
fake_yardstick "$tmp/naive"
(cd "$tmp/names" && sh "$OLDPWD/scripts/vs-yardstick.sh" -n 1 -c 0.01 -o '-s *' "$tmp/naive") >/dev/null 2>"$tmp/err"
rc=$?
unglobbed() {
	exited 2 "scan: -s '\\*'" && ! grep -q zz1 "$tmp/err"
}
check "vs-yardstick -o '-s *': the star goes to scan, unglobbed" unglobbed

# --- control bytes and bad bytes ------------------------------------------
# one chart, the bytes in all four fields: each check reads it
fields="label cpu kernel memmap_from"
# shellcheck disable=SC2086 # the fields, a word each
with_csv "x${esc}[31m$(printf '\010\377\302\233')y" "$tmp/ctl.csv" $fields
scripts/plot.sh "$tmp/ctl.csv" >"$tmp/ctl.svg" 2>/dev/null
xml_ok "$tmp/ctl.svg"
parsed=$?
plain "$tmp/ctl.svg"
was_plain=$?
for f in $fields; do
	check "plot: control bytes and bad UTF-8 in $f: an SVG that parses" [ "$parsed" -eq 0 ]
	check "plot: control bytes and bad UTF-8 in $f: plain text" [ "$was_plain" -eq 0 ]
done
with_csv "L${esc}[2J" "$tmp/ctl.csv" label
run_cmd scripts/sweep.sh --from="$tmp/ctl.csv"
check "sweep --from: a label's ESC escaped in the table" exited 0 'L\\x1b' "$tmp/out"
check "sweep --from: the table is plain text" plain "$tmp/out"
run_cmd scripts/plot.sh "$tmp/no${esc}such"
check "plot: a missing file's name escaped in its one line" exited 1 'no\\x1bsuch'
run_cmd scripts/kernel.sh --check -d "$tmp/no${esc}such"
kernel_d_named() {
	one_line 1 && grep -q 'no\\x1bsuch' "$tmp/err"
}
check "kernel --check: a missing -d's name escaped in its one line" kernel_d_named

# --- numbers at the edge --------------------------------------------------
with_csv 4.9e-324 "$tmp/tiny.csv" speedup
run_cmd scripts/plot.sh "$tmp/tiny.csv"
tiny_refused() {
	exited 1 'tiny.csv line 2: speedup' && [ ! -s "$tmp/out" ]
}
check "plot: a speedup of 4.9e-324 refused with the file and line" tiny_refused
with_csv 1e-300 "$tmp/lo.csv" speedup
with_csv 1e300 "$tmp/hi.csv" speedup
run_cmd scripts/compare.sh "$tmp/lo.csv" "$tmp/hi.csv"
no_inf() {
	exited 1 'lo.csv: row 3: speedup' && ! grep -q inf "$tmp/out"
}
check "compare: speedups of 1e-300 and 1e300 refused, no inf" no_inf

# --- plot's sort: a hang guard, never a speed -------------------------
awk -F, -v OFS=, 'NR == 1 { print; for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["walk"] == "list" { for (k = 20000; k >= 1; k--) { $c["pages"] = k; $c["memory_bytes"] = 4096 * k; print } }' \
	"$tmp/a.csv" >"$tmp/many.csv"	# descending: an insertion sort'"'"'s worst case
HANG_S=30 run_cmd scripts/plot.sh "$tmp/many.csv"
check "plot: 20,000 points of one walk drawn before the hang guard (insertion sort: hours)" \
	exited 0 '</svg>' "$tmp/out"

# --- outputs that hang or lie ---------------------------------------------
mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/fifo.out" &
reader=$!
HANG_S=30 run_cmd scripts/sweep.sh -o "$tmp/fifo" -r 1 0.01
kill "$reader" 2>/dev/null
wait "$reader" 2>/dev/null
through_fifo() {
	exited 0 '^walk,' "$tmp/fifo.out" && grep -q '^list,' "$tmp/fifo.out"
}
check "sweep -o FIFO: the reader gets the CSV, no test open's EOF first" through_fifo
for s in sweep plot report compare explain snapshot trace-lru vs-yardstick results kernel; do
	scripts/$s.sh -h >&- 2>"$tmp/err"
	rc=$?
	check "$s -h to a closed stdout: exit 1, one line" one_line 1
	scripts/$s.sh -h >/dev/full 2>"$tmp/err"
	rc=$?
	check "$s -h to a full stdout: exit 1, one line" one_line 1
done
TMPDIR=$tmp/none run_cmd scripts/plot.sh "$tmp/a.csv"
check "plot: TMPDIR that is not there named as such" exited 1 "TMPDIR ($tmp/none)"
# kernel.sh --check: its checks pass here (root, tracefs, a memory
# cgroup) or it stops at the first that fails, before TMPDIR
kernel_checks=""
sh scripts/kernel.sh --check >/dev/null 2>&1 && kernel_checks=1
tmpdir_named() {
	one_line 1 && grep -q "TMPDIR ($tmp/none)" "$tmp/err"
}
if [ -n "$kernel_checks" ]; then
	TMPDIR=$tmp/none run_cmd scripts/kernel.sh --check
	check "kernel --check: TMPDIR that is not there named as such, one line" tmpdir_named
else
	skip "kernel --check: TMPDIR that is not there" "kernel.sh cannot run here (not root, no tracefs or memory cgroup)"
fi
if [ "$(id -u)" -eq 0 ] && mkdir "$tmp/full" && mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null; then
	head -c 65536 /dev/zero >"$tmp/full/fill" 2>/dev/null
	full_tmpdir() {
		one_line 1 && grep -q "TMPDIR ($tmp/full)" "$tmp/err"
	}
	for s in plot compare report; do
		case $s in
		plot) set -- "$tmp/a.csv" ;;
		compare) set -- "$tmp/a.csv" "$tmp/a.csv" ;;
		report) set -- -n 1 -c 0.01 -r 1 ;;
		esac
		TMPDIR=$tmp/full run_cmd scripts/$s.sh "$@"
		check "$s: a full TMPDIR named, exit 1, one line" full_tmpdir
	done
	rm -f "$tmp/full/fill"
	# room for 3 pages: the sweep's CSV and chart, not the Markdown too
	head -c 53248 /dev/zero >"$tmp/full/fill" 2>/dev/null
	mkdir "$tmp/full/out"
	scripts/results.sh -q -o "$tmp/full/out" >/dev/null 2>"$tmp/err"
	# the refusal's reason once, as cat gave it, without "cat: ..."
	full_said() {
		tail -n 1 "$tmp/err" | grep -q '\.md: No space left on device$'
	}
	check "results on a full disk: the Markdown's line gives the reason once" full_said
	md_whole() {
		for md in "$tmp/full/out"/*.md; do
			[ ! -e "$md" ] || grep -q '^Every run of it is in' "$md" || return 1
		done
	}
	check "results on a full disk: its Markdown whole or not there" md_whole
	umount "$tmp/full"
else
	skip "scripts with a full TMPDIR or disk" "not root, or no tmpfs"
fi

# --- limits -----------------------------------------------------------
awk -F, -v OFS=, 'NR == 1 { print; for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["walk"] == "list" { for (k = 1; k <= 600; k++) { $c["pages"] = k; $c["memory_bytes"] = 4096 * k; print } }' \
	"$tmp/a.csv" >"$tmp/600.csv"
# shellcheck disable=SC3045 # dash, bash and BusyBox have ulimit -f
(ulimit -f 128 && exec sh scripts/plot.sh "$tmp/600.csv") >/dev/null 2>"$tmp/err"
rc=$?
check "plot under ulimit -f 128, a chart past it: exit 1 and a line, not SIGXFSZ" \
	exited 1 .
# shellcheck disable=SC3045
(ulimit -f 1 && exec sh scripts/sweep.sh -o "$tmp/xfsz.csv" -r 1 0.01) >/dev/null 2>"$tmp/err"
rc=$?
check "sweep under ulimit -f 1: exit 1, a line naming the limit, not SIGXFSZ" \
	exited 1 'File too large'
xfsz_named() {
	one_line 1 && grep -q 'TMPDIR.*File too large' "$tmp/err"
}
if [ -n "$kernel_checks" ]; then
	# shellcheck disable=SC3045
	(ulimit -f 1 && exec sh scripts/kernel.sh --check) >/dev/null 2>"$tmp/err"
	rc=$?
	check "kernel --check under ulimit -f 1: exit 1, one line naming TMPDIR and the limit, not SIGXFSZ" xfsz_named
else
	skip "kernel --check under ulimit -f 1" "kernel.sh cannot run here (not root, no tracefs or memory cgroup)"
fi

# --- signals before the work: the traps come first ----------------------
# mktemp made slow: a signal then lands before the old scripts' traps.
# The three start together and take the signal together.
mkdir "$tmp/slow"
printf '#!/bin/sh\nsleep 1\nexec %s "$@"\n' "$(command -v mktemp)" >"$tmp/slow/mktemp"
chmod +x "$tmp/slow/mktemp"
pids=""
for s in sweep explain results kernel; do
	case $s in
	sweep) set -- -r 1 0.01 ;;
	explain) set -- -c 0.01 ;;
	results) set -- -q -o "$tmp/res" ;;
	kernel) set -- --check -o "$tmp/kernel.csv" ;;	# -o: a mktemp, first
	esac
	PATH=$tmp/slow:$PATH sh scripts/$s.sh "$@" >/dev/null 2>"$tmp/err.$s" &
	pids="$pids $!"
done
sleep 0.3
# shellcheck disable=SC2086 # the pids, a word each
kill -TERM $pids
for s in sweep explain results kernel; do
	pid=${pids# }
	pid=${pid%% *}
	pids=${pids# "$pid"}
	wait "$pid"
	rc=$?
	check "$s: SIGTERM in its first moments: exit 143 and 'interrupted'" \
		exited 143 interrupted "$tmp/err.$s"
done

# --- a signal while a script says a line ------------------------------
# say_line ran awk inside a function given 2>/dev/null: a trap that ran
# there wrote "interrupted" to /dev/null (results.sh, SIGINT at 1.3 s,
# as it said a step).  The awk of its first step line made slow; SIGINT
# to the script alone while that awk runs; and SIGINT to its group at
# moments through its first blocks.
if env --default-signal=INT true 2>/dev/null && have setsid; then
	mkdir "$tmp/sayawk" "$tmp/say.tmp"
	# shellcheck disable=SC2016 # the fake awk's own variables
	printf '#!/bin/sh\ncase ${scan_text:-} in "results.sh: defaults"*) : >"%s"; sleep 2 ;; esac\nexec awk "$@"\n' \
		"$tmp/say.mark" >"$tmp/sayawk/awk"
	chmod +x "$tmp/sayawk/awk"
	TMPDIR="$tmp/say.tmp" AWK="$tmp/sayawk/awk" env --default-signal=INT \
		sh scripts/results.sh -q -o "$tmp/say.res" >/dev/null 2>"$tmp/say.err" &
	pid=$!
	i=0
	while [ ! -e "$tmp/say.mark" ] && [ "$i" -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	kill -s INT "$pid"
	wait "$pid"
	rc=$?
	check "results: SIGINT as it says a step: 130 and 'interrupted', TMPDIR empty" \
		sh -c "[ $rc -eq 130 ] && grep -q '^results.sh: interrupted\$' '$tmp/say.err' && [ -z \"\$(ls -A '$tmp/say.tmp')\" ]"
	for d in 0.5 1.3 2; do
		mkdir "$tmp/say.$d"
		TMPDIR="$tmp/say.$d" setsid env --default-signal=INT \
			sh scripts/results.sh -q -o "$tmp/say.res.$d" >/dev/null 2>"$tmp/say.err.$d" &
		pid=$!
		sleep "$d"
		env kill -s INT -- -"$pid" 2>/dev/null
		wait "$pid"
		rc=$?
		check "results: SIGINT to its group at $d s: 130 and 'interrupted', TMPDIR empty" \
			sh -c "[ $rc -eq 130 ] && grep -q '^results.sh: interrupted\$' '$tmp/say.err.$d' && [ -z \"\$(ls -A '$tmp/say.$d')\" ]"
	done
else
	skip "results: SIGINT as it says a step" "no env --default-signal or setsid"
fi
