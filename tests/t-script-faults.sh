#!/bin/sh
# The scripts against hostile names, values and limits: a check for each
# fault a probe found (code run from a file name, an endless wrap, a link
# planted beside an output, names read as awk assignments, control bytes
# passed on, numbers at the edge, outputs that hang or lie, limits,
# signals).  Each failed on the scripts before they were fixed.
. tests/lib.sh
case $SCAN in /*) ;; *) SCAN=$(pwd)/$SCAN ;; esac	# the checks run in other directories

"$SCAN" -c 0.01 -r 2 -s 1 --format=csv >"$tmp/a.csv" 2>/dev/null
kpageflags "$tmp/kpf" 96
esc=$(printf '\033')

xml_ok() {	# xml_ok FILE: it parses, where a parser is here
	if have xmllint; then
		xmllint --noout "$1" 2>/dev/null
	else
		python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$1" 2>/dev/null
	fi
}
# one_line STATUS: the last run_cmd exited STATUS with one line on stderr
one_line() {
	[ "$rc" -eq "$1" ] && [ "$(grep -c '' "$tmp/err")" -eq 1 ]
}
# with_csv FIELD VALUE OUT: a.csv with FIELD set to VALUE in every row
with_csv() {
	awk -F, -v OFS=, -v f="$1" -v val="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == f) c = i; print; next }
	{ $c = val; print }' "$tmp/a.csv" >"$3"
}

# --- code from a file name --------------------------------------------
mkdir "$tmp/cwd"
cp "$tmp/kpf" "$tmp/cwd/kpc\$(touch PWNED)"
cp "$tmp/kpf" "$tmp/cwd/kpc\`touch PWNED2\`"
(cd "$tmp/cwd" && sh "$OLDPWD/scripts/snapshot.sh" --summary "$tmp/kpf" "kpc\$(touch PWNED)" &&
	sh "$OLDPWD/scripts/snapshot.sh" --summary "$tmp/kpf" "kpc\`touch PWNED2\`") >"$tmp/out" 2>"$tmp/err"
check "snapshot --summary: a KPAGECGROUP named \$(...) or \`...\` is read, never run" \
	sh -c "[ $? -eq 0 ] && [ ! -e '$tmp/cwd/PWNED' ] && [ ! -e '$tmp/cwd/PWNED2' ] && grep -q '^memcg 32: 96 LRU folios' '$tmp/out'"

# --- an endless wrap ----------------------------------------------------
long=$tmp/$(printf 'd%.0s' 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0)/kpageflags
mkdir -p "${long%/*}"
cp "$tmp/kpf" "$long"
HANG_S=30 run_cmd scripts/report.sh -n 1 -r 2 "--memmap-from=$long"
check "report: a 90-byte --memmap-from path ends, exit 0" [ "$rc" -eq 0 ]
wrapped() {	# every line of 72 columns but the command's (a \ ends them)
	[ "$rc" -eq 0 ] &&
		awk '!/^\$ / && !/\\$/ && length($0) > 72 { bad = 1 } END { exit bad }' "$tmp/out"
}
check "report: lines of 72 columns but the command's, which keeps the word whole" wrapped

# --- a link planted beside an output ------------------------------------
echo precious >"$tmp/target"
( sleep 1; exec sh scripts/sweep.sh -o "$tmp/sweep.csv" -r 1 0.01 ) >/dev/null 2>&1 &
pid=$!
ln -s "$tmp/target" "$tmp/sweep.csv.tmp$pid"
wait "$pid"
check "sweep -o: a link planted at OUT.tmp\$\$ is not followed" \
	sh -c "[ \"\$(cat '$tmp/target')\" = precious ] && [ -s '$tmp/sweep.csv' ]"
printf 'old\n' >"$tmp/secret.csv"
chmod 600 "$tmp/secret.csv"
scripts/sweep.sh -o "$tmp/secret.csv" -r 1 0.01 >/dev/null 2>&1
check "sweep -o over a 0600 file: the new file is 0600" \
	sh -c "[ \"\$(stat -c %a '$tmp/secret.csv')\" = 600 ] && grep -q '^walk,' '$tmp/secret.csv'"

# --- names misread --------------------------------------------------------
mkdir "$tmp/names"
for f in b1 c=2 b3 a1 a2 a3; do
	"$SCAN" -c 0.01 -r 2 --format=csv >"$tmp/names/$f.csv" 2>/dev/null
done
(cd "$tmp/names" && sh "$OLDPWD/scripts/compare.sh" b1.csv c=2.csv b3.csv -- a1.csv a2.csv a3.csv) \
	>"$tmp/out" 2>"$tmp/err"
check "compare: c=2.csv is a file, not an awk assignment: 3 runs a side" \
	sh -c "grep -q ' 3 runs).* 3 runs)' '$tmp/out'"
cp "$tmp/a.csv" "$tmp/names/x=y.csv"
(cd "$tmp/names" && timeout 10 sh "$OLDPWD/scripts/plot.sh" x=y.csv) </dev/null >"$tmp/out" 2>"$tmp/err"
check "plot: x=y.csv is read, not stdin" sh -c "[ $? -eq 0 ] && grep -q '</svg>' '$tmp/out'"
i=0
for name in "$(printf 'k p\t|;\\bq')" "$(printf 'k\np')"; do
	i=$((i + 1))
	cp "$tmp/kpf" "$tmp/names/$name"
	HANG_S=60 run_cmd scripts/explain.sh -o "$tmp/ex.$i.csv" "--memmap-from=$tmp/names/$name"
	check "explain --memmap-from='$(printf '%s' "$name" | tr '\t\n' 'TN')': one word, exit 0" [ "$rc" -eq 0 ]
done
check "explain: a backslash and b stay two bytes in the CSV" grep -q 'k p\\x09|;\\bq' "$tmp/ex.1.csv"
touch "$tmp/names/zz1" "$tmp/names/zz2"
(cd "$tmp/names" && sh "$OLDPWD/scripts/sweep.sh" -s '*' 0.01) >/dev/null 2>"$tmp/err"
check "sweep -s '*': the star goes to scan, unglobbed" \
	sh -c "[ $? -eq 2 ] && grep -q \"scan: -s '\\*'\" '$tmp/err'"
fake_yardstick "$tmp/naive"
(cd "$tmp/names" && sh "$OLDPWD/scripts/vs-yardstick.sh" -n 1 -c 0.01 -o '-s *' "$tmp/naive") >/dev/null 2>"$tmp/err"
check "vs-yardstick -o '-s *': the star goes to scan, unglobbed" \
	sh -c "[ $? -eq 2 ] && grep -q \"scan: -s '\\*'\" '$tmp/err' && ! grep -q zz1 '$tmp/err'"

# --- control bytes and bad bytes ------------------------------------------
for f in label cpu kernel memmap_from; do
	with_csv "$f" "x${esc}[31m$(printf '\010\377\302\233')y" "$tmp/ctl.csv"
	scripts/plot.sh "$tmp/ctl.csv" >"$tmp/ctl.svg" 2>/dev/null
	check "plot: control bytes and bad UTF-8 in $f: an SVG that parses" xml_ok "$tmp/ctl.svg"
	check "plot: control bytes and bad UTF-8 in $f: plain text" plain "$tmp/ctl.svg"
done
e=$tmp/e${esc}[31m$(printf '\010')x
cp "$tmp/kpf" "$e"
run_cmd scripts/report.sh -n 1 -r 2 "--memmap-from=$e"
check "report: ESC and a backspace from a path are escaped in the block" sh -c "[ $rc -eq 0 ] && grep -q 'e\\\\x1b\\[31m\\\\x08x' '$tmp/out'"
check "report: the block is plain text" plain "$tmp/out"
with_csv label "L${esc}[2J" "$tmp/ctl.csv"
run_cmd scripts/sweep.sh --from="$tmp/ctl.csv"
check "sweep --from: a label's ESC escaped in the table" sh -c "[ $rc -eq 0 ] && grep -q 'L\\\\x1b' '$tmp/out'"
check "sweep --from: the table is plain text" plain "$tmp/out"
run_cmd scripts/plot.sh "$tmp/no${esc}such"
check "plot: a missing file's name escaped in its one line" \
	sh -c "[ $rc -eq 1 ] && grep -q 'no\\\\x1bsuch' '$tmp/err'"
run_cmd scripts/kernel.sh --check -d "$tmp/no${esc}such"
check "kernel --check: a missing -d's name escaped in its one line" \
	sh -c "[ $rc -eq 1 ] && [ \$(grep -c '' '$tmp/err') -eq 1 ] && grep -q 'no\\\\x1bsuch' '$tmp/err'"

# --- numbers at the edge --------------------------------------------------
with_csv speedup 4.9e-324 "$tmp/tiny.csv"
run_cmd scripts/plot.sh "$tmp/tiny.csv"
check "plot: a speedup of 4.9e-324 refused with the file and line" \
	sh -c "[ $rc -eq 1 ] && grep -q 'tiny.csv line 2: speedup' '$tmp/err' && [ ! -s '$tmp/out' ]"
with_csv speedup 1e-300 "$tmp/lo.csv"
with_csv speedup 1e300 "$tmp/hi.csv"
run_cmd scripts/compare.sh "$tmp/lo.csv" "$tmp/hi.csv"
check "compare: speedups of 1e-300 and 1e300 refused, no inf" \
	sh -c "[ $rc -eq 1 ] && grep -q 'lo.csv: row 3: speedup' '$tmp/err' && ! grep -q inf '$tmp/out'"

# --- plot's sort: a hang guard, never a speed -------------------------
awk -F, -v OFS=, 'NR == 1 { print; for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["walk"] == "list" { for (k = 20000; k >= 1; k--) { $c["pages"] = k; $c["memory_bytes"] = 4096 * k; print } }' \
	"$tmp/a.csv" >"$tmp/many.csv"	# descending: an insertion sort'"'"'s worst case
HANG_S=30 run_cmd scripts/plot.sh "$tmp/many.csv"
check "plot: 20,000 points of one walk drawn before the hang guard (insertion sort: hours)" \
	sh -c "[ $rc -eq 0 ] && grep -q '</svg>' '$tmp/out'"

# --- outputs that hang or lie ---------------------------------------------
mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/fifo.out" &
reader=$!
HANG_S=30 run_cmd scripts/sweep.sh -o "$tmp/fifo" -r 1 0.01
kill "$reader" 2>/dev/null
wait "$reader" 2>/dev/null
check "sweep -o FIFO: the reader gets the CSV, no test open's EOF first" \
	sh -c "[ $rc -eq 0 ] && grep -q '^walk,' '$tmp/fifo.out' && grep -q '^list,' '$tmp/fifo.out'"
for s in sweep plot report compare explain snapshot trace-lru vs-yardstick results kernel; do
	scripts/$s.sh -h >&- 2>"$tmp/err"
	rc=$?
	check "$s -h to a closed stdout: exit 1, one line" one_line 1
	scripts/$s.sh -h >/dev/full 2>"$tmp/err"
	rc=$?
	check "$s -h to a full stdout: exit 1, one line" one_line 1
done
TMPDIR=$tmp/none run_cmd scripts/plot.sh "$tmp/a.csv"
check "plot: TMPDIR that is not there named as such" \
	sh -c "[ $rc -eq 1 ] && grep -q 'TMPDIR ($tmp/none)' '$tmp/err'"
# kernel.sh --check: its checks pass here (root, tracefs, a memory
# cgroup) or it stops at the first that fails, before TMPDIR
kernel_checks=""
sh scripts/kernel.sh --check >/dev/null 2>&1 && kernel_checks=1
if [ -n "$kernel_checks" ]; then
	TMPDIR=$tmp/none run_cmd scripts/kernel.sh --check
	check "kernel --check: TMPDIR that is not there named as such, one line" \
		sh -c "[ $rc -eq 1 ] && [ \$(grep -c '' '$tmp/err') -eq 1 ] && grep -q 'TMPDIR ($tmp/none)' '$tmp/err'"
else
	skip "kernel --check: TMPDIR that is not there" "kernel.sh cannot run here (not root, no tracefs or memory cgroup)"
fi
if [ "$(id -u)" -eq 0 ] && mkdir "$tmp/full" && mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null; then
	head -c 65536 /dev/zero >"$tmp/full/fill" 2>/dev/null
	for s in plot compare report; do
		case $s in
		plot) set -- "$tmp/a.csv" ;;
		compare) set -- "$tmp/a.csv" "$tmp/a.csv" ;;
		report) set -- -n 1 -c 0.01 -r 1 ;;
		esac
		TMPDIR=$tmp/full run_cmd scripts/$s.sh "$@"
		check "$s: a full TMPDIR named, exit 1, one line" \
			sh -c "[ $rc -eq 1 ] && [ \$(grep -c '' '$tmp/err') -eq 1 ] && grep -q 'TMPDIR ($tmp/full)' '$tmp/err'"
	done
	rm -f "$tmp/full/fill"
	# room for 3 pages: the sweep's CSV and chart, not the Markdown too
	head -c 53248 /dev/zero >"$tmp/full/fill" 2>/dev/null
	mkdir "$tmp/full/out"
	scripts/results.sh -q -o "$tmp/full/out" >/dev/null 2>&1
	md=$(ls "$tmp/full/out"/*.md 2>/dev/null)
	check "results on a full disk: its Markdown whole or not there" \
		sh -c "[ -z '$md' ] || grep -q '^Every run of it is in' '$md'"
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
	sh -c "[ $rc -eq 1 ] && [ -s '$tmp/err' ]"
# shellcheck disable=SC3045
(ulimit -f 1 && exec sh scripts/sweep.sh -o "$tmp/xfsz.csv" -r 1 0.01) >/dev/null 2>"$tmp/err"
rc=$?
check "sweep under ulimit -f 1: exit 1, a line naming the limit, not SIGXFSZ" \
	sh -c "[ $rc -eq 1 ] && grep -q 'File too large' '$tmp/err'"
if [ -n "$kernel_checks" ]; then
	# shellcheck disable=SC3045
	(ulimit -f 1 && exec sh scripts/kernel.sh --check) >/dev/null 2>"$tmp/err"
	rc=$?
	check "kernel --check under ulimit -f 1: exit 1, one line naming TMPDIR and the limit, not SIGXFSZ" \
		sh -c "[ $rc -eq 1 ] && [ \$(grep -c '' '$tmp/err') -eq 1 ] && grep -q 'TMPDIR.*File too large' '$tmp/err'"
else
	skip "kernel --check under ulimit -f 1" "kernel.sh cannot run here (not root, no tracefs or memory cgroup)"
fi

# --- signals before the work: the traps come first ----------------------
# mktemp made slow: a signal then lands before the old scripts' traps
mkdir "$tmp/slow"
printf '#!/bin/sh\nsleep 1\nexec %s "$@"\n' "$(command -v mktemp)" >"$tmp/slow/mktemp"
chmod +x "$tmp/slow/mktemp"
for s in sweep explain results kernel; do
	case $s in
	sweep) set -- -r 1 0.01 ;;
	explain) set -- -c 0.01 ;;
	results) set -- -q -o "$tmp/res" ;;
	kernel) set -- --check -o "$tmp/kernel.csv" ;;	# -o: a mktemp, first
	esac
	PATH=$tmp/slow:$PATH sh scripts/$s.sh "$@" >/dev/null 2>"$tmp/err" &
	pid=$!
	sleep 0.3
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	check "$s: SIGTERM in its first moments: exit 143 and 'interrupted'" \
		sh -c "[ $rc -eq 143 ] && grep -q 'interrupted' '$tmp/err'"
done
