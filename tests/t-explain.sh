#!/bin/sh
# explain.sh: from the original's ratios to the kernel's, a step at a
# time: its table, CSV and SVG, one size for every step, the warnings
# carried, -n, its outputs and messages.  Tiny sizes; no speed asserted.
. tests/lib.sh

# explain: nine steps from --original to --kernel-like, then a replayed
# memmap (2048 order-0 LRU pfns) and a memcg target: a table, CSV, SVG
printf '\040\000\000\000\000\000\000\000%.0s' $(seq 1 2048) >"$tmp/kpf2048"
# the first 512 pfns charged to memcg inode 7, the rest to 8
{ printf '\007\000\000\000\000\000\000\000%.0s' $(seq 1 512)
  printf '\010\000\000\000\000\000\000\000%.0s' $(seq 1 1536); } >"$tmp/kcg2048"
scripts/explain.sh -n 2 -o "$tmp/explain.csv" -g "$tmp/explain.svg" \
	--memmap-from="$tmp/kpf2048" --memcg=7 --memcg-from="$tmp/kcg2048" >"$tmp/explain" 2>"$tmp/explain.err"
rc=$?
check "explain: exit 0" [ "$rc" -eq 0 ]
check "explain: a row per step, original first, kernel-like ninth" \
	sh -c "grep -Ec '^ ?[0-9]+ [A-Za-z0-9]' '$tmp/explain' | grep -qx 11 &&
		grep -q '^ 1 original ' '$tmp/explain' && grep -q '^ 9 rmap (kernel-like)[ !]' '$tmp/explain'"
check "explain --memmap-from: a tenth step, the real memmap" \
	grep -Eq '^10 real memmap +!? +[0-9.]+ x[0-9]' "$tmp/explain"
check "explain --memcg: a last step, the memcg target" \
	grep -Eq '^11 memcg target +!? +[0-9.]+ x[0-9]' "$tmp/explain"
check "explain --memcg: the step replays that memcg" \
	sh -c "grep '^11,' '$tmp/explain.csv' | head -n 1 | grep -q -- '--memcg=7 '"

check "explain: within 72 columns" sh -c "! awk 'length > 72' '$tmp/explain' | grep -q ."
# the change is x0.00-x9.99, or from x10 as the ratios are printed (x12.3,
# x140): at these sizes a cold cache may multiply a warm ratio tenfold
check "explain: each step's change from the last" \
	sh -c "grep '^ 2 ' '$tmp/explain' | grep -Eq ' x([0-9]\\.[0-9]{2}|[1-9][0-9]\\.[0-9]|[1-9][0-9]{2,}) '"
check "explain: the last step is --kernel-like's every value" \
	sh -c "grep '^9,' '$tmp/explain.csv' | head -n 1 | grep -q -- '--rmap=0.5:3'"
check "explain: CSV rows for each step's three walks, in each run" \
	sh -c "[ \$(grep -Ec '^[0-9]+,' '$tmp/explain.csv') -eq 66 ]"
if have python3; then
	check "explain: the SVG parses, a bar per step and walk" python3 -c '
import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
assert len(d.getElementsByTagName("title")) == 22
' "$tmp/explain.svg"
else
	skip "explain: the SVG parses" "no python3"
fi

check "explain --memmap-from without -c: every step at the file's 2048 pfns, said" \
	[ "$(grep -c '^scan explain: 2048 pages on ' "$tmp/explain")/$(csv_col "$tmp/explain.csv" pages | sort -u)" = "1/2048" ]
# where scan knows no LLC (qemu-user on a host without sysfs caches),
# nothing is cache-sized, and no such warning comes
run -c 0.01 -r 1 -v -q
if grep -q ' LLC 0 B (none)' "$tmp/out"; then
	skip "explain: a cache-sized table carries scan's warning, with its steps" "this scan knows no LLC"
else
	check "explain: a cache-sized table carries scan's warning, with its steps" \
		sh -c "grep -q '^! scan warned:' '$tmp/explain' && grep -Eq '^  - cache-sized \\(steps 1-11; the figures of step [0-9]+\\): memmap < 4x' '$tmp/explain' && grep -q '^ 1 original  *!' '$tmp/explain'"
fi
# shellcheck disable=SC2016
check "explain: the CSV carries scan's warnings column and the run" \
	awk -F, "$(cat scripts/lib.awk)"'NR == 1 { csv_header(); if (!csv_has("warnings") || !csv_has("run")) exit 1; next }
		csv_field("warnings") !~ /^([a-z-]+( [a-z-]+)*)?$/ || csv_field("run") !~ /^[12]$/ { exit 1 }' "$tmp/explain.csv"
check "explain: the machine in the SVG title" grep -q ">scan explain on .*$(uname -r)" "$tmp/explain.svg"

# fits SVG: every line of the heading (above the chart) fits the width, at
# 0.6 of its font size a character
fits() {
	awk '/<svg / { match($0, /width="[0-9]+"/); w = substr($0, RSTART + 7, RLENGTH - 8) }
	/<text x="[0-9.]+" y="[0-9.]+" text-anchor="middle" font-size="1[14]">/ {
		size = $0; sub(/.*font-size="/, "", size); size += 0
		t = $0; sub(/^[^>]*>/, "", t); sub(/<.*/, "", t)
		if (length(t) * 0.6 * size > w - 20) bad = 1
	}
	END { exit bad || !w }' "$1"
}
check "explain: the SVG's heading fits its width" fits "$tmp/explain.svg"
# a host whose CPU and identity make a long heading
long=$tmp/long
mkdir -p "$long/proc" "$long/sys/devices/system/cpu/cpu0/cache/index0"
printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\nmodel name\t: Intel(R) Xeon(R) Platinum 8480+ with an unusually long model name given by its firmware, 56 cores\nstepping\t: 8\n' >"$long/proc/cpuinfo"
printf '3\n' >"$long/sys/devices/system/cpu/cpu0/cache/index0/level"
printf '107520K\n' >"$long/sys/devices/system/cpu/cpu0/cache/index0/size"
SCAN_MACHINE_ROOT=$long scripts/explain.sh -c 0.01 -g "$tmp/long.svg" >/dev/null 2>&1
check "explain: a long title and machine line wrap, within the SVG" fits "$tmp/long.svg"
check "explain: ... the title in two lines" \
	[ "$(grep -c 'text-anchor="middle" font-size="14"' "$tmp/long.svg")" -eq 2 ]
scripts/explain.sh -c 4 --memmap-from="$tmp/kpf2048" >/dev/null 2>"$tmp/e"
check "explain: a -c that is not the replayed file's size: exit 2, said" \
	sh -c "[ $? -eq 2 ] && grep -q \"^explain.sh: -c 4 is not $tmp/kpf2048's size (2048 pfns)\" '$tmp/e'"

# -n 2 (the run above): processes interleaved, the replay first as it
# decides the size; their median and range; a run column
check "explain -n 2: interleaved (every step, then again)" \
	sh -c "sed -n 's/^explain.sh: step \\([0-9]*\\) of 11 done, run \\([12]\\) of 2/\\2:\\1/p' '$tmp/explain.err' | tr '\\n' ' ' | grep -qx '1:10 1:1 1:2 1:3 1:4 1:5 1:6 1:7 1:8 1:9 1:11 2:1 2:2 2:3 2:4 2:5 2:6 2:7 2:8 2:9 2:10 2:11 '"
check "explain -n 2: the range over runs, said" \
	sh -c "grep -q '^each ratio: the median of 2 runs' '$tmp/explain' && grep -q ' runs ' '$tmp/explain'"
check "explain -n 2: each step's rows twice, told apart by run" \
	[ "$(csv_col "$tmp/explain.csv" run | sort | uniq -c | awk '{ print $1 }' | tr '\n' ' ')" = "33 33 " ]
if have python3; then
	check "explain -n 2: a whisker a bar, the range over runs" python3 -c '
import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
assert len([p for p in d.getElementsByTagName("path") if p.getAttribute("d").startswith("M")]) >= 20
' "$tmp/explain.svg"
fi

# messages and outputs
SCAN=/nonexistent scripts/explain.sh >/dev/null 2>"$tmp/e"
check "SCAN=/nonexistent explain.sh: exit 1, a message that says something" \
	sh -c "[ $? -eq 1 ] && grep -q '^explain.sh: SCAN=/nonexistent is not a program that can run' '$tmp/e'"
printf '#!/bin/sh\nexit 3\n' >"$tmp/mute"
chmod +x "$tmp/mute"
SCAN="$tmp/mute" scripts/explain.sh >/dev/null 2>"$tmp/e"
check "a scan that says nothing: explain.sh still says what happened" \
	sh -c "[ $? -eq 1 ] && grep -q '^explain.sh: scan --kernel-like -v failed: it printed nothing (exit status 3)' '$tmp/e'"
mkdir "$tmp/dir"
printf '#!/bin/sh\ntouch %s/ran\nexec %s "$@"\n' "$tmp" "$SCAN" >"$tmp/marks"
chmod +x "$tmp/marks"
for o in -o -g; do
	SCAN="$tmp/marks" scripts/explain.sh "$o" "$tmp/dir" -c 0.002 >/dev/null 2>"$tmp/e"
	check "explain $o DIRECTORY: exit 1, a line, before any run" \
		sh -c "[ $? -eq 1 ] && [ \$(wc -l <'$tmp/e') -eq 1 ] && [ ! -e '$tmp/ran' ]"
	SCAN="$tmp/marks" scripts/explain.sh "$o" "$tmp/nodir/x" -c 0.002 >/dev/null 2>"$tmp/e"
	check "explain $o in no directory: exit 1, a line, before any run" \
		sh -c "[ $? -eq 1 ] && grep -q 'cannot write $tmp/nodir/x' '$tmp/e' && [ ! -e '$tmp/ran' ]"
done
if have setsid && env --default-signal=INT true 2>/dev/null; then
	printf '#!/bin/sh\ncase " $* " in *" --thp=system "*) sleep 30 ;; esac\nexec %s "$@"\n' "$SCAN" >"$tmp/stall"
	chmod +x "$tmp/stall"
	SCAN="$tmp/stall" setsid env --default-signal=INT,TERM sh scripts/explain.sh -c 0.002 \
		-o "$tmp/sig.csv" >/dev/null 2>"$tmp/sig.err" &
	pid=$!
	i=0
	until grep -q 'step 1 of' "$tmp/sig.err" 2>/dev/null || [ $i -ge 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	env kill -s INT -- -"$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	check "explain: SIGINT exits 130, says so, leaves no output or noise" \
		sh -c "[ $rc -eq 130 ] && grep -q '^explain.sh: interrupted' '$tmp/sig.err' && ! grep -q 'No such file' '$tmp/sig.err' && [ ! -e '$tmp/sig.csv' ] && ! ls '$tmp' | grep -q 'sig.csv.tmp'"
else
	skip "explain: signals" "no setsid or env --default-signal"
fi

# probes: usage errors in one line; a -c with a space is refused, not
# split into scan's words; garbage from SCAN is an error; a closed
# stdout exits 1
one_line() {	# one_line STATUS CMD...: STATUS, one line on stderr, no stdout
	want=$1
	shift
	"$@" >"$tmp/p.out" 2>"$tmp/p.err"
	[ $? -eq "$want" ] && [ ! -s "$tmp/p.out" ] && [ "$(wc -l <"$tmp/p.err")" -eq 1 ]
}
check "explain: -c without a value, one line" one_line 2 scripts/explain.sh -c
check "explain: -c ' 3' refused" one_line 2 scripts/explain.sh -c ' 3'
check "explain: -n of 20 digits, one line" one_line 2 scripts/explain.sh -c 0.01 -n 99999999999999999999
check "explain: -o '' refused" one_line 2 scripts/explain.sh -c 0.01 -o ''
check "explain: an option scan refuses, exit 2, one line" one_line 2 scripts/explain.sh -c 0.01 --bogus
printf '#!/bin/sh\necho garbage\n' >"$tmp/garbage-scan"
chmod +x "$tmp/garbage-scan"
check "explain: a SCAN printing no CSV, one line, exit 1" one_line 1 env SCAN="$tmp/garbage-scan" scripts/explain.sh -c 0.01
check "explain: stdout closed, exit 1" sh -c 'scripts/explain.sh -c 0.001 >&- 2>/dev/null; [ $? -eq 1 ]'

# --kernel=FILE.csv: scan-kernel's ratio as a last bar.  Two recorded
# CSVs of scan-kernel's: tests/kernel-noratio.csv, a real run (-m 512M,
# Linux 6.18, cgroup v1) where compaction isolated folios in too few
# timed ranges, so its speedup is empty; tests/kernel-ratio.csv, made by
# kernel-report.awk (kernel.sh's report) from the figures kernel.awk
# gives of tests/kernel-trace.txt, with its 1,000-event floor lowered to 1
# and scan -c 0.01 as the model: a sample of the format with a ratio,
# 1.577047, not a measurement.
# with_host CSV HOST OUT: CSV with its host_id set to HOST in every row
with_host() {
	awk -F, -v OFS=, -v h="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "host_id") c = i; print; next }
	{ $c = h; print }' "$1" >"$3"
}
host=$("$SCAN" -c 0.001 -r 1 --format=csv -q | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "host_id") c = i; next } { print $c; exit }')
with_host tests/kernel-ratio.csv "$host" "$tmp/k-here.csv"
run_cmd scripts/explain.sh -c 0.01 --kernel="$tmp/k-here.csv" -g "$tmp/k.svg"
check "explain --kernel: exit 0, a last row after step 9: the kernel's 1.58, x the step before" \
	sh -c "[ $rc -eq 0 ] && grep -Eq '^10 kernel \\(measured\\) +1\\.58 x[0-9.]+$' '$tmp/out'"
check "explain --kernel: its size and host under it, no other-host note" \
	sh -c "tr '\\n' ' ' <'$tmp/out' | grep -Eq 'from +$tmp/k-here.csv, +a +64 +MiB +working +set +on +host +$host' && ! grep -q 'another machine' '$tmp/out'"
check "explain --kernel: within 72 columns" sh -c "! awk 'length > 72' '$tmp/out' | grep -q ."
if have python3; then
	check "explain --kernel -g: the SVG parses; a last bar, the kernel's, ListLRU alone, named" python3 -c '
import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
t = [e.firstChild.data for e in d.getElementsByTagName("title")]
assert len(t) == 19 and t[-1] == "kernel (measured) ListLRU: 1.57705", t[-3:]
texts = [e.firstChild.data for e in d.getElementsByTagName("text") if e.firstChild]
assert "10 kernel (measured)" in texts
' "$tmp/k.svg"
else
	skip "explain --kernel -g: the SVG parses" "no python3"
fi
# another host (with control bytes in its name), and no ratio
with_host tests/kernel-noratio.csv "0bad$(printf '\033[2J')c0de" "$tmp/k-there.csv"
run_cmd scripts/explain.sh -c 0.01 --kernel="$tmp/k-there.csv" -g "$tmp/k2.svg"
check "explain --kernel, no ratio in the CSV: exit 0, no bar, a line says why" \
	sh -c "[ $rc -eq 0 ] && ! grep -q '^10 ' '$tmp/out' && tr '\\n' ' ' <'$tmp/out' | grep -Eq 'kernel \\(measured\\): +no +bar: +.*k-there.csv +gives +no +kernel +ratio: +its +speedup +is +empty: +too +few +timed +ranges'"
check "explain --kernel from another host: noted, the host escaped" \
	sh -c "tr '\\n' ' ' <'$tmp/out' | grep -Eq \"note: the kernel's ratio is another machine's: .* +comes +from +host +0bad\\\\\\\\x1b\\\\[2Jc0de, +this +run +is +on +host +$host\""
if have python3; then
	check "explain --kernel -g, no ratio: no kernel bar; the line under it says why and whose" python3 -c '
import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
assert len(d.getElementsByTagName("title")) == 18
texts = " ".join(e.firstChild.data for e in d.getElementsByTagName("text") if e.firstChild)
assert "no bar:" in texts and "another machine" in texts, texts[-300:]
' "$tmp/k2.svg"
fi
# refused before any run: exit 2 for no file, 1 for a file that is not
# scan-kernel's CSV, each in one line
rm -f "$tmp/ran"
check "explain --kernel= (empty): exit 2, one line" one_line 2 scripts/explain.sh -c 0.01 --kernel=
check "explain --kernel=- : exit 2, one line" one_line 2 scripts/explain.sh -c 0.01 --kernel=-
check "explain --kernel=missing: exit 1, one line, before any run" \
	one_line 1 env SCAN="$tmp/marks" scripts/explain.sh -c 0.01 --kernel="$tmp/nothere.csv"
check "explain --kernel=scan's own CSV: not scan-kernel's, exit 1, one line" \
	one_line 1 env SCAN="$tmp/marks" scripts/explain.sh -c 0.01 --kernel="$tmp/k.svg"
sed 's/,1\.577047,/,inf,/' tests/kernel-ratio.csv >"$tmp/k-inf.csv"
check "explain --kernel: a speedup of inf refused with the file and line" \
	sh -c "! env SCAN='$tmp/marks' scripts/explain.sh -c 0.01 --kernel='$tmp/k-inf.csv' 2>&1 >/dev/null | grep -v \"k-inf.csv line 3: speedup 'inf' is not a ratio\" | grep -q ."
{ cat tests/kernel-ratio.csv; awk 'BEGIN { for (i = 0; i < 2000; i++) print "kernel,physical,x,1,1,,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1" }'; } >"$tmp/k-big.csv"
check "explain --kernel: a CSV over 64 KiB refused, exit 1, one line" \
	one_line 1 env SCAN="$tmp/marks" scripts/explain.sh -c 0.01 --kernel="$tmp/k-big.csv"
check "explain --kernel refusals: no scan run" [ ! -e "$tmp/ran" ]

# --walk=pagetable: PageTable beside ListLRU, none at step 1 (the
# original had no such walk), then its knobs a step each, from scan's
# defaults to --kernel-like's values, each value's source under the table
scripts/explain.sh -c 0.01 --walk=pagetable -o "$tmp/pt.csv" -g "$tmp/pt.svg" >"$tmp/pt" 2>"$tmp/pt.err"
rc=$?
check "explain --walk=pagetable: exit 0, PT in place of Array" \
	sh -c "[ $rc -eq 0 ] && grep -Eq '^ +adds +List +step +range +PT +step +range\$' '$tmp/pt'"
check "explain --walk=pagetable: step 1 without a PageTable figure" \
	grep -Eq '^ 1 original +!? +[0-9.]+ +[0-9.]+-[0-9.]+ +-$' "$tmp/pt"
check "explain --walk=pagetable: its knobs' steps after the last step run" \
	sh -c "grep -Eq '^10 mapped share +!? +[0-9.]' '$tmp/pt' && grep -Eq '^11 young share +!? +[0-9.]' '$tmp/pt' && grep -Eq '^12 PTE adjacency +!? +[0-9.]' '$tmp/pt'"
# the values, as --kernel-like sets them (scan -v says)
preset=$("$SCAN" -c 0.001 -r 1 --kernel-like -v 2>&1 | sed -n 's/^--kernel-like set: //p')
for k in mapped young pte-adjacent; do
	v=$(printf '%s\n' "$preset" | tr ' ' '\n' | grep "^--$k=")
	check "explain --walk=pagetable: $v in its step's options and its source under the table" \
		sh -c "grep '^[0-9]*,' '$tmp/pt.csv' | grep -q -- ' $v ' && grep -Eq '^ +1[0-2] $v: [a-z]' '$tmp/pt'"
done
check "explain --walk=pagetable: each step on the one before (the last holds all three)" \
	sh -c "grep '^12,' '$tmp/pt.csv' | head -n 1 | grep -q -- '--mapped=0.5 --young=0.1 --pte-adjacent=0.875'"
check "explain --walk=pagetable: steps from 2 time PageTable, step 1 does not" \
	[ "$(grep -c '^1,[^,]*,[^,]*,pagetable,' "$tmp/pt.csv")/$(grep -c '^[0-9]*,[^,]*,[^,]*,pagetable,' "$tmp/pt.csv")" = "0/11" ]
check "explain --walk=pagetable: within 72 columns" sh -c "! awk 'length > 72' '$tmp/pt' | grep -q ."
if have python3; then
	check "explain --walk=pagetable -g: a bar a step and walk, none for step 1's PageTable; the sources under it" python3 -c '
import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
titles = [t.firstChild.data for t in d.getElementsByTagName("title")]
assert len(titles) == 23 and sum("PageTable" in t for t in titles) == 11, titles
texts = " ".join(e.firstChild.data for e in d.getElementsByTagName("text") if e.firstChild)
assert "--young=0.1:" in texts and ">ArrayLRU<" not in open(sys.argv[1]).read(), texts[-300:]
' "$tmp/pt.svg"
fi
check "explain --walk=other: exit 2, one line" one_line 2 scripts/explain.sh --walk=xarray
