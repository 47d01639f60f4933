#!/bin/sh
# From a run to a mailing-list post: CSV and JSON, sweep, plot, report,
# compare.  Tiny sizes; nothing here asserts a speed.
. tests/lib.sh


run -c 0.01 -r 2 -s 77 --format=csv
check "csv: exit 0" [ "$rc" -eq 0 ]
check "csv: header and a row per walk, documented columns" csv_ok "$tmp/out" 3
check "csv: the seed as given" \
	sh -c "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"seed\") c = i } NR > 1 && \$c != 77 { exit 1 }' '$tmp/out'"
check "csv: the physical walk's speedup is 1" \
	sh -c "grep -q '^physical,Physical,.*,1\\.000000,1\\.000000,1\\.000000,' '$tmp/out'"
check "csv: nothing but data on stdout" sh -c "! grep -q 'faster than' '$tmp/out'"

run -c 0.01 -r 2 --format=csv -v --lru-fraction=0.5 --lists=2 --struct-page=32
check "csv -v: the text lines go to stderr" err_has '^Physical scan is [0-9.]+ faster than ListLRU$'
check "csv: knobs as columns" \
	sh -c "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i } NR == 2 { exit !(\$c[\"lru_fraction\"] == 0.5 && \$c[\"lists\"] == 2 && \$c[\"struct_page\"] == 32) }' '$tmp/out'"

run -c 0.01 -r 2 --format=json --walks=list,xarray
check "json: exit 0" [ "$rc" -eq 0 ]
if have python3; then
	check "json: parses, with run fields and a walks array" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["pages"] == 10000 and d["rounds"] == 2 and "kernel" in d and "cpu" in d
names = [w["walk"] for w in d["walks"]]
assert names == ["physical", "list", "xarray"], names
for w in d["walks"]:
    for k in ("median_s", "min_s", "max_s", "ns_per_page", "speedup", "timed"):
        assert k in w, k
    assert w["bound_ns"] > 0 and w["bound_ratio"] > 0, w
bounds = [w["bound"] for w in d["walks"]]
assert bounds == ["streaming read", "dependent chase", "independent random loads"], bounds
' "$tmp/out"
	cp "$tmp/out" "$tmp/json"
	run -c 0.01 -r 2 --format=csv --walks=list,xarray
	check "csv and json: the same fields" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
keys = set(d) - {"walks"} | set(d["walks"][0])
header = open(sys.argv[2]).readline().strip().split(",")
assert len(header) == len(set(header)) and set(header) == keys, keys ^ set(header)
assert header[-2:] == ["llc_bytes", "memcg"] and d["llc_bytes"] >= 0, header[-2:]
' "$tmp/json" "$tmp/out"
else
	skip "json: parses" "no python3"
	skip "csv and json: the same fields" "no python3"
fi

run -c 0.01 -r 1 --format=yaml
check "--format=yaml: usage error" [ "$rc" -eq 2 ]

# sweep: one CSV, a table, a skipped size
scripts/sweep.sh -o "$tmp/sweep.csv" -r 1 0.01 0.02 1000000 >"$tmp/table" 2>"$tmp/progress"
rc=$?
check "sweep: exit 0" [ "$rc" -eq 0 ]
check "sweep: one CSV with both sizes" csv_ok "$tmp/sweep.csv" 6
check "sweep: a table row per size that ran" \
	sh -c "grep -Ec '^ +0\\.0[12] +[0-9.]+ MiB +[0-9.]+ +[0-9.]+( +(caches|warned))?\$' '$tmp/table' | grep -qx 2"
check "sweep: progress with the time left" grep -q '^sweep: -c 0.02 (2 of 3), [0-9]* s so far, ' "$tmp/progress"
check "sweep: the size that does not fit is skipped" grep -q '^sweep: -c 1000000 skipped: ' "$tmp/progress"
check "sweep: says the largest size up front" \
	grep -q '^sweep: 3 sizes, the largest -c 1000000 (' "$tmp/progress"
# shellcheck disable=SC2016 # an awk program
check "sweep: the trust columns, on every row" \
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; if (!c["cache_sized"] || !c["memmap_over_llc"] || !c["warnings"]) exit 1; next }
		$c["cache_sized"] !~ /^[01]$/ || $c["warnings"] !~ /^[0-9]+$/ { exit 1 }' "$tmp/sweep.csv"
llc=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["llc_bytes"] + 0; exit }' "$tmp/sweep.csv")
if [ "${llc:-0}" -gt 1048576 ]; then
	check "sweep: a cache-sized memmap is flagged in the CSV and the table" \
		sh -c "grep -q 'caches\$' '$tmp/table' && awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \$c[\"cache_sized\"] != 1 { exit 1 }' '$tmp/sweep.csv'"
else
	skip "sweep: cache-sized flag" "scan saw no last-level cache size (llc_bytes)"
fi
scripts/sweep.sh -c 1 >/dev/null 2>&1
check "sweep: -c is refused" [ $? -eq 2 ]

# plot: valid SVG with the data drawn
scripts/plot.sh "$tmp/sweep.csv" >"$tmp/plot.svg"
check "plot: exit 0" [ $? -eq 0 ]
if have python3; then
	check "plot: valid XML" python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$tmp/plot.svg"
elif have xmllint; then
	check "plot: valid XML" xmllint --noout "$tmp/plot.svg"
else
	skip "plot: valid XML" "neither python3 nor xmllint"
fi
check "plot: a line per walk" [ "$(grep -c '<polyline' "$tmp/plot.svg")" -eq 2 ]
check "plot: a point per walk and size" [ "$(grep -c '<circle.*<title>' "$tmp/plot.svg")" -eq 4 ]
check "plot: legend" grep -q '>ListLRU</text>' "$tmp/plot.svg"
check "plot: axis labels" grep -q '>simulated memory (log scale)<' "$tmp/plot.svg"
check "plot: ratios on a log axis" grep -q '>times faster: Physical over each walk (log scale)<' "$tmp/plot.svg"
check "plot: the 1x line, marked" \
	sh -c "grep -q 'stroke-dasharray' '$tmp/plot.svg' && grep -q '>walk wins above<' '$tmp/plot.svg'"
check "plot: the machine in the title" grep -q "$(uname -r)" "$tmp/plot.svg"
check "plot: scan's version in the subtitle" grep -q ">scan $("$SCAN" -V | sed 's/^scan //'), memmap THP " "$tmp/plot.svg"
# ticks: the data's ends labelled, nothing outside them (10,000 and
# 20,000 pages: 39.1 and 78.1 MiB)
check "plot: the ends of the data labelled" \
	sh -c "grep -q '>39.1 MiB</text>' '$tmp/plot.svg' && grep -q '>78.1 MiB</text>' '$tmp/plot.svg'"
check "plot: no x tick outside the data" \
	sh -c "! grep -E '>(16|32|128|256) MiB</text>' '$tmp/plot.svg' | grep -q ."
# hollow where cache-sized, bars from the quartiles, in an edited copy
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	{ $c["cache_sized"] = $c["pages"] == 10000; $c["speedup_q1"] = $c["speedup"] * 0.9
	  $c["speedup_q3"] = $c["speedup"] * 1.1; print }' "$tmp/sweep.csv" >"$tmp/edited.csv"
scripts/plot.sh "$tmp/edited.csv" >"$tmp/edited.svg"
check "plot: cache-sized points hollow, with a legend entry" \
	sh -c "[ \$(grep -c '<circle[^>]*fill=\"white\".*<title>' '$tmp/edited.svg') -eq 2 ] && grep -q '>the LLC: cache-sized<' '$tmp/edited.svg'"
check "plot: a bar a point from the quartiles" \
	sh -c "[ \$(grep -c '<path d=\"M' '$tmp/edited.svg') -eq 4 ] && grep -q '>bars: quartiles over rounds<' '$tmp/edited.svg'"
# a narrow range of ratios (0.85 to 0.95, and the 1x line) still gets
# round ticks between its ends
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$c["walk"] != "physical" { $c["speedup"] = $c["pages"] == 10000 ? 0.85 : 0.95
	  $c["speedup_q1"] = $c["speedup_q3"] = $c["speedup"] } { print }' "$tmp/sweep.csv" >"$tmp/narrow.csv"
scripts/plot.sh "$tmp/narrow.csv" >"$tmp/narrow.svg"
check "plot: a narrow log range gets round ticks between its ends" \
	sh -c "grep -q 'text-anchor=\"end\">0.9</text>' '$tmp/narrow.svg' && grep -q 'text-anchor=\"end\">0.95</text>' '$tmp/narrow.svg'"
for f in 0.3 1; do
	"$SCAN" -c 0.01 -r 1 --format=csv --lists=2 --lru-fraction=$f 2>/dev/null
done | awk 'NR == 1 || !/^walk,/' >"$tmp/knob.csv"
scripts/plot.sh --x lru_fraction "$tmp/knob.csv" >"$tmp/knob.svg"
check "plot --x lru_fraction: a human axis label" grep -q '>share of pages on the LRU<' "$tmp/knob.svg"
check "plot --x lru_fraction: the shared options in the subtitle" grep -q '>options: --lists=2<' "$tmp/knob.svg"
scripts/plot.sh --x nosuchcolumn "$tmp/knob.csv" >/dev/null 2>&1
check "plot --x with a missing column: exit 1" [ $? -eq 1 ]
# an awk without math (Debian's BusyBox awk): a message, no half SVG
printf '#!/bin/sh\necho "awk: cmd. line:1: Math support is not compiled in" >&2\nexit 1\n' >"$tmp/nomath"
chmod +x "$tmp/nomath"
AWK="$tmp/nomath" scripts/plot.sh "$tmp/sweep.csv" >"$tmp/nomath.svg" 2>"$tmp/nomath.err"
check "plot under an awk without math: exit 1, a message, no output" \
	sh -c "[ $? -eq 1 ] && grep -q '^plot.sh: .* has no math' '$tmp/nomath.err' && [ ! -s '$tmp/nomath.svg' ]"
if have busybox && busybox awk 'BEGIN { }' 2>/dev/null; then
	AWK="busybox awk" scripts/plot.sh "$tmp/sweep.csv" >"$tmp/bb.svg" 2>"$tmp/bb.err"
	check "plot under BusyBox awk: a whole SVG or a clear error" \
		sh -c "grep -q '</svg>' '$tmp/bb.svg' || { grep -q 'has no math' '$tmp/bb.err' && [ ! -s '$tmp/bb.svg' ]; }"
else
	skip "plot under BusyBox awk" "no busybox"
fi

# report: a block for a mail
scripts/report.sh -c 0.01 -r 2 >"$tmp/report"
check "report: exit 0" [ $? -eq 0 ]
check "report: at most 72 columns" awk 'length > 72 { exit 1 }' "$tmp/report"
check "report: no tabs" sh -c "! grep -q '	' '$tmp/report'"
check "report: names this kernel release" grep -q "$(uname -r)" "$tmp/report"
check "report: the CPU" grep -q "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1 | cut -c1-20)" "$tmp/report"
check "report: the command, with the seed it used" \
	grep -Eq "^\\$ $SCAN -c 0.01 -r 2 -s [0-9]+\$" "$tmp/report"
check "report: no line breaks inside a parenthesis" \
	awk '{ o = gsub(/\(/, "("); c = gsub(/\)/, ")"); if (o != c) exit 1 }' "$tmp/report"
check "report: a warning in one line of the block" \
	sh -c "! grep '^warning: ' '$tmp/report' | awk 'length > 72' | grep -q ."
scripts/report.sh -c 0.01 -r 2 -s 7 >"$tmp/report7"
check "report: a given seed is not added again" grep -q '^\$ .* -s 7$' "$tmp/report7"
check "report: the original's two lines" \
	sh -c "grep -c '^Physical scan is [0-9.]* faster than [A-Za-z]*LRU\$' '$tmp/report' | grep -qx 2"
check "report: the spread" grep -q 'ListLRU [0-9.]* ([0-9.]* to [0-9.]*)' "$tmp/report"

# vs-yardstick: a stand-in yardstick, two scan runs interleaved with it
printf '#!/bin/sh\necho "setup 0.1"\necho "ratio 10 2"\n' >"$tmp/naive"
chmod +x "$tmp/naive"
scripts/vs-yardstick.sh -n 2 -c 0.01 -o '-r 1' -o '--original' "$tmp/naive" \
	>"$tmp/vs" 2>"$tmp/vs.err"
rc=$?
check "vs-yardstick: exit 0" [ "$rc" -eq 0 ]
check "vs-yardstick: the yardstick's ratios, two runs, a wall time" \
	grep -Eq '^naive +2 +10\.00 +10\.00-10\.00 +0\.0 +2\.000 +2\.000-2\.000 +0\.0 +[0-9]+\.[0-9]{2}$' "$tmp/vs"
check "vs-yardstick: a row per scan run, in order" \
	sh -c "awk 'NR > 2 { print \$1 }' '$tmp/vs' | tr '\n' ' ' | grep -qx 'scan:-r_1 scan:--original '"
check "vs-yardstick: -h prints the header block" \
	sh -c "scripts/vs-yardstick.sh -h | head -n 1 | grep -q '^vs-yardstick.sh - run the yardstick'"

# explain: nine steps from --original to --kernel-like, then a replayed
# memmap (2048 order-0 LRU pfns) and a memcg target: a table, CSV, SVG
printf '\040\000\000\000\000\000\000\000%.0s' $(seq 1 2048) >"$tmp/kpf2048"
# the first 512 pfns charged to memcg inode 7, the rest to 8
{ printf '\007\000\000\000\000\000\000\000%.0s' $(seq 1 512)
  printf '\010\000\000\000\000\000\000\000%.0s' $(seq 1 1536); } >"$tmp/kcg2048"
scripts/explain.sh -c 0.002048 -o "$tmp/explain.csv" -g "$tmp/explain.svg" \
	--memmap-from="$tmp/kpf2048" --memcg=7 --memcg-from="$tmp/kcg2048" >"$tmp/explain" 2>"$tmp/explain.err"
rc=$?
check "explain: exit 0" [ "$rc" -eq 0 ]
check "explain: a row per step, original first, kernel-like ninth" \
	sh -c "grep -Ec '^ ?[0-9]+ ' '$tmp/explain' | grep -qx 11 &&
		grep -q '^ 1 original ' '$tmp/explain' && grep -q '^ 9 rmap (kernel-like) ' '$tmp/explain'"
check "explain --memmap-from: a tenth step, the real memmap" \
	grep -Eq '^10 real memmap +[0-9.]+ x[0-9]' "$tmp/explain"
check "explain --memcg: a last step, the memcg target" \
	grep -Eq '^11 memcg target +[0-9.]+ x[0-9]' "$tmp/explain"
check "explain --memcg: the step replays that memcg" \
	sh -c "grep '^11,' '$tmp/explain.csv' | head -n 1 | grep -q -- '--memcg=7 '"

check "explain: within 72 columns" sh -c "! awk 'length > 72' '$tmp/explain' | grep -q ."
# the change is x0.00-x9.99, or from x10 as the ratios are printed (x12.3,
# x140): at these sizes a cold cache may multiply a warm ratio tenfold
check "explain: each step's change from the last" \
	sh -c "grep '^ 2 ' '$tmp/explain' | grep -Eq ' x([0-9]\\.[0-9]{2}|[1-9][0-9]\\.[0-9]|[1-9][0-9]{2,}) '"
check "explain: the last step is --kernel-like's every value" \
	sh -c "grep '^9,' '$tmp/explain.csv' | head -n 1 | grep -q -- '--rmap=0.5:3'"
check "explain: CSV rows for each step's three walks" \
	sh -c "[ \$(grep -Ec '^[0-9]+,' '$tmp/explain.csv') -eq 33 ]"
if have python3; then
	check "explain: the SVG parses, a bar per step and walk" python3 -c '
import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
assert len(d.getElementsByTagName("title")) == 22
' "$tmp/explain.svg"
else
	skip "explain: the SVG parses" "no python3"
fi

# snapshot --summary: the composition of a kpageflags file, here made up:
# an order-2 LRU folio (head, 3 tails), an order-0 one, a free buddy head,
# a slab page, a hole and a page with no flags
{
	printf '\040\200\000\000\000\000\000\000'
	printf '\040\000\001\000\000\000\000\000%.0s' 1 2 3	# three tails
	printf '\040\000\000\000\000\000\000\000\000\004\000\000\000\000\000\000'
	printf '\200\000\000\000\000\000\000\000\000\000\020\000\000\000\000\000'
	printf '\000\000\000\000\000\000\000\000'
} >"$tmp/kpf"
scripts/snapshot.sh --summary "$tmp/kpf" >"$tmp/comp" 2>&1
check "snapshot --summary: every pfn counted" grep -qx 'pfns 9' "$tmp/comp"
check "snapshot --summary: LRU folios and pages" \
	grep -q '^LRU: 2 folios, 5 pages ' "$tmp/comp"
check "snapshot --summary: folios by order" \
	sh -c "grep -q '^  order 0: 1 folios' '$tmp/comp' && grep -q '^  order 2: 1 folios' '$tmp/comp'"
check "snapshot --summary: free, slab, holes, other" \
	sh -c "grep -qx 'free (BUDDY pages): 1' '$tmp/comp' &&
		grep -qx 'slab: 1, page tables: 0, holes: 1, other: 1, tails off the LRU: 0' '$tmp/comp'"
# the same pfns' memcgs: the order-2 folio charged to inode 7, the
# order-0 one to 9, the rest to none
{
	printf '\007\000\000\000\000\000\000\000%.0s' 1 2 3 4
	printf '\011\000\000\000\000\000\000\000'
	printf '\000\000\000\000\000\000\000\000%.0s' 1 2 3 4
} >"$tmp/kcg"
scripts/snapshot.sh --summary "$tmp/kpf" "$tmp/kcg" >"$tmp/comp" 2>&1
check "snapshot --summary with kpagecgroup: LRU folios and pages by memcg" \
	sh -c "grep -qx 'memcg 7: 1 LRU folios, 4 pages' '$tmp/comp' && grep -qx 'memcg 9: 1 LRU folios, 1 pages' '$tmp/comp'"
# trace-lru: usage errors always; a short trace where root may trace
scripts/trace-lru.sh >/dev/null 2>&1
check "trace-lru: no command and no -s: usage, exit 2" [ $? -eq 2 ]
scripts/trace-lru.sh -s 1 true >/dev/null 2>&1
check "trace-lru: -s and a command: exit 2" [ $? -eq 2 ]
if [ "$(id -u)" -eq 0 ] && { [ -d /sys/kernel/tracing/events/pagemap/mm_lru_insertion ] ||
	{ mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null &&
	  [ -d /sys/kernel/tracing/events/pagemap/mm_lru_insertion ]; }; }; then
	scripts/trace-lru.sh -o "$tmp/lru" -b 1024 sh -c "head -c 4M /dev/zero >'$tmp/4m'" 2>"$tmp/lru.err"
	rc=$?
	check "trace-lru: a pfn a line and a count" \
		sh -c "[ $rc -eq 0 ] && [ -s '$tmp/lru' ] && ! grep -qv '^0x[0-9a-f]*\$' '$tmp/lru' &&
			grep -Eq '^trace-lru.sh: [0-9]+ insertions in .*, [0-9]+ dropped by the buffer\$' '$tmp/lru.err'"
	check "trace-lru: its trace instance is gone" \
		sh -c "! ls /sys/kernel/tracing/instances | grep -q '^scan-lru-'"
else
	skip "trace-lru: a live trace" "not root, or no mm_lru_insertion tracepoint"
fi
# the project's own yardstick, beside scan
if make -s yardstick >/dev/null 2>&1; then
	./yardstick 0.01 >"$tmp/yard"
	check "yardstick: setup and ratio lines" \
		sh -c "grep -Eq '^setup [0-9.]+\$' '$tmp/yard' && grep -Eq '^ratio [0-9.]+ [0-9.]+\$' '$tmp/yard'"
	scripts/vs-yardstick.sh -n 1 -c 0.01 ./yardstick >"$tmp/vs" 2>/dev/null
	check "vs-yardstick with the project's yardstick" grep -Eq '^naive +1 +[0-9.]+ ' "$tmp/vs"
else
	check "yardstick: builds" false
fi
