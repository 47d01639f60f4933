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

# the CSV the compare checks below read (sweep's own: t-sweep.sh)
scripts/sweep.sh -o "$tmp/sweep.csv" -r 1 0.01 0.02 >/dev/null 2>&1

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

# compare: a row per walk and size, noise marked
scripts/compare.sh "$tmp/sweep.csv" "$tmp/sweep.csv" >"$tmp/cmp"
check "compare: exit 0" [ $? -eq 0 ]
check "compare: a row per walk and size" [ "$(grep -c '%' "$tmp/cmp")" -eq 4 ]
check "compare: identical runs are noise" [ "$(grep -c '+0.0%  noise$' "$tmp/cmp")" -eq 4 ]
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$c["walk"] == "list" { $c["speedup"] *= 2; $c["speedup_min"] *= 2; $c["speedup_max"] *= 2
		$c["speedup_q1"] *= 2; $c["speedup_q3"] *= 2 } { print }' \
	"$tmp/sweep.csv" >"$tmp/doubled.csv"
scripts/compare.sh "$tmp/sweep.csv" "$tmp/doubled.csv" >"$tmp/cmp2"
check "compare: a real change is not noise" grep -q '^ListLRU .*+100.0%$' "$tmp/cmp2"
# extremes that overlap, middle halves that do not: a change, not noise
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$c["walk"] == "list" { $c["speedup"] = 13; $c["speedup_q1"] = 12.5; $c["speedup_q3"] = 13.5
		$c["speedup_min"] = 1; $c["speedup_max"] = 100 } { print }' "$tmp/sweep.csv" >"$tmp/a.csv"
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$c["walk"] == "list" { $c["speedup"] = 10; $c["speedup_q1"] = 9.5; $c["speedup_q3"] = 10.5
		$c["speedup_min"] = 1; $c["speedup_max"] = 100 } { print }' "$tmp/sweep.csv" >"$tmp/b.csv"
scripts/compare.sh "$tmp/a.csv" "$tmp/b.csv" >"$tmp/cmp3"
check "compare: noise is decided by the quartiles, not the extremes" \
	sh -c "grep '^ListLRU' '$tmp/cmp3' | grep -v noise | grep -q -- '-23.1%'"
{ cat "$tmp/sweep.csv"; tail -n 1 "$tmp/sweep.csv"; } >"$tmp/dup.csv"
scripts/compare.sh "$tmp/dup.csv" "$tmp/sweep.csv" >"$tmp/cmp4" 2>"$tmp/cmp4.err"
rc=$?
check "compare: two rows for one walk and size are an error naming them" \
	sh -c "[ $rc -eq 1 ] && grep -Eq 'dup.csv has two rows for [A-Za-z]+LRU at -c 0.0[12]\$' '$tmp/cmp4.err'"
head -n 1 "$tmp/sweep.csv" >"$tmp/empty.csv"
scripts/compare.sh "$tmp/sweep.csv" "$tmp/empty.csv" >"$tmp/cmp5" 2>"$tmp/cmp5.err"
rc=$?
check "compare: nothing in common is exit 1 and no table" \
	sh -c "[ $rc -eq 1 ] && [ ! -s '$tmp/cmp5' ] && grep -q 'no walk and size in both' '$tmp/cmp5.err'"

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
