#!/bin/sh
# Output lines: the original's two ratio lines, and each verbose level.
. tests/lib.sh

ratio='^Physical scan is [0-9]+\.[0-9]{6} faster than'

run -c 0.01 -r 2
check "default run exits 0" [ "$rc" -eq 0 ]
check "default prints exactly two lines" lines 2
check "first line: faster than ListLRU" \
	sh -c "sed -n 1p '$tmp/out' | grep -Eq '$ratio ListLRU\$'"
check "second line: faster than ArrayLRU" \
	sh -c "sed -n 2p '$tmp/out' | grep -Eq '$ratio ArrayLRU\$'"

# Beside the two lines, on stderr: the model they come from, and where
# the kernel-like figure and the kernel's own are.
model='^scan: model: every pfn an LRU folio, random order, no per-folio work; kernel-like figure: --kernel-like; the kernel.s own: scan-kernel$'
check "default: stderr names the original's model and the others" err_has "$model"
check "default: one model line" sh -c "[ \$(grep -c '^scan: model: ' '$tmp/err') -eq 1 ]"
run -c 0.01 -r 2 --kernel-like
check "--kernel-like: the model line says so and names its knobs" \
	err_has "^scan: model: --kernel-like \\(85% of pfns on the LRU, .*isolate each folio, rmap 0\\.5:3, 40 lists, 32 folios a turn\\); the original's: drop --kernel-like; the kernel's own: scan-kernel$"
run -c 0.01 -r 2 --lru-fraction=0.5 --folio-order=2 --locality=4 --access=write -t 1 --struct-page=32
check "knobs: the model line names each" \
	err_has '^scan: model: 50% of pfns on the LRU, folios by order and % of LRU pages 2:100, LRU order in runs of 4 adjacent folios, write each folio, 32-byte struct page; '
run -c 0.01 -r 2 -q
check "-q: no model line" sh -c "! grep -q '^scan: model:' '$tmp/err'"
run -c 0.01 -r 2 --format=csv
check "--format=csv: no model line" sh -c "! grep -q '^scan: model:' '$tmp/err'"
run -c 0.01 -r 2 --format=csv -v
check "--format=csv -v: the model line with the text lines on stderr" err_has "$model"

# Summaries give the digits their spread supports: two digits of the
# spread, never six decimals of a ratio spread over a range.
run -c 0.01 -r 4 -vv --format=ktap
check "-vv and KTAP: a ratio's digits follow its spread" sh -c "! grep -E 'ListLRU.* ratio: median [0-9]+\\.[0-9]{3}' '$tmp/out' '$tmp/err' && grep -Eq '^ListLRU/Physical ratio: median [0-9.]+, range' '$tmp/err'"

run -c 0.01 -r 2 -v
check "-v exits 0" [ "$rc" -eq 0 ]
check "-v: Physical scan in" out_has '^Physical scan in [0-9]+\.[0-9]{6}s$'
check "-v: Array scan in" out_has '^Array scan in [0-9]+\.[0-9]{6}s$'
check "-v: ListLRU scan in" out_has '^ListLRU scan in [0-9]+\.[0-9]{6}s$'
check "-v: memmap size and huge-page share" \
	out_has '^memmap .* for 10000 pages, 39\.1 MiB simulated, ([0-9]+%|unknown) huge'
check "-v: rounds line" out_has '^2 rounds over 1 model, cache flushed before each walk'
check "-v: no seed line yet" sh -c "! grep -q '^random seed' '$tmp/out'"
check "-v: ratio lines last" \
	sh -c "tail -n 2 '$tmp/out' | grep -Ec '$ratio' | grep -qx 2"

run -c 0.01 -r 2 -vv -s 42
check "-vv: random seed" out_has '^random seed 42$'
check "-vv: spread per walk" \
	out_has '^ListLRU: 2 walks, median [0-9.]+s \([0-9.]+s to [0-9.]+s\), [0-9.]+ ns/folio$' \
		'^Physical: 2 walks, median [0-9.]+s \([0-9.]+s to [0-9.]+s\), [0-9.]+ ns/page$'
check "-vv: spread per ratio" \
	out_has '^ListLRU/Physical ratio: median [0-9.]+, range [0-9.]+ to [0-9.]+ over 2 rounds$'
check "-vv: untimed work" out_has '^untimed work: flushing [0-9.]+s \((clflushopt|by address)\), relinking [0-9.]+s, calibrating [0-9.]+s$'
check "-vv: Physical against the streaming read" \
	out_has '^Physical [0-9.]+ ns/page, [0-9.]+x this core.s streaming read \([0-9]+\.[0-9]{2}\)$'
check "-vv: ListLRU against the dependent chase" \
	out_has '^ListLRU [0-9.]+ ns/folio, [0-9.]+x this core.s dependent chase \([0-9]+\.[0-9]{2}\)$'
check "-vv: ArrayLRU against independent random loads" \
	out_has '^ArrayLRU [0-9.]+ ns/folio, [0-9.]+x this core.s independent random loads \([0-9]+\.[0-9]{2}\)$'
check "-vv: interference" out_has '^interference: [0-9]+ walks? retimed \([0-9]+ preempted, [0-9]+ stolen, [0-9]+ off the CPU\), [0-9]+ kept disturbed$'
check "-vv: no setup lines yet" sh -c "! grep -q '^Allocated memmap' '$tmp/out'"

run -c 0.01 -r 2 -vvv -s 42
check "-vvv: allocation line" \
	out_has '^Allocated memmap for 10000 pages in [0-9]+\.[0-9]{6}s$'
check "-vvv: setup line" out_has '^Created shuffled list in [0-9]+\.[0-9]{6}s$'
check "-vvv: a total after each walk" \
	sh -c "grep -A1 ' scan in ' '$tmp/out' | grep -c '^total = ' | grep -qx 3"
check "-vvv: every total is n(n-1)/2" \
	sh -c "grep '^total = ' '$tmp/out' | sort -u | grep -qx 'total = 49995000'"
check "-vvv: links checked" \
	out_has '^LRU fingerprint [0-9a-f]{16} \(links checked\)$'
check "-vvv: setup lines in the original's order" \
	sh -c "grep -E '^(Allocated|random seed|Created)' '$tmp/out' | cut -c1-6 | tr '\n' ' ' | grep -qx 'Alloca random Create '"

run -c 0.000001 -r 1 -vvv
check "one page: runs" [ "$rc" -eq 0 ]
check "one page: total 0" out_has '^total = 0$'

run -c 0.01 -r 2 -vvv --thp=never --cache=warm
check "--thp=never --cache=warm: runs" [ "$rc" -eq 0 ]
check "--thp=never: reported" out_has ' huge \(--memmap-thp=never\)$'
check "--cache=warm: reported" out_has 'cache left warm'

run -c 0.01 -r 1 --thp=system -v
check "--thp=system: reported" out_has ' huge \(--memmap-thp=system\)$'

run -c 0.01 -r 1 --cpu=0
check "--cpu=0 runs" [ "$rc" -eq 0 ]

# --original: the 2023 protocol, its lines in its order
run -c 0.01 -s 5 --original -vvv
check "--original: exit 0" [ "$rc" -eq 0 ]
check "--original -v: says it is the original's protocol" \
	out_has "^the original's protocol \\(scan.c 1.1, 2023\\): each walk timed once"
check "--original: time lines in the original's order" \
	sh -c "grep ' scan in ' '$tmp/out' | cut -d' ' -f1 | tr '\n' ' ' | grep -qx 'Physical Array ListLRU '"
check "--original: each walk once, checked" \
	sh -c "grep -c '^total = 49995000\$' '$tmp/out' | grep -qx 3"
check "--original: the system's THP policy" out_has '\(--memmap-thp=system\)$'
check "--original: nothing flushed, nothing calibrated" \
	out_has '^untimed work: flushing 0\.000s \(none, --cache=warm\), relinking 0\.000s, calibrating 0\.000s$'
check "--original: no bounds without calibration" sh -c "! grep -q \"this core's\" '$tmp/out'"
check "--original: ends with the two ratio lines" \
	sh -c "tail -n 2 '$tmp/out' | grep -Ec '^Physical scan is [0-9.]+ faster than (ListLRU|ArrayLRU)\$' | grep -qx 2"

# warnings: one line each, under 120 columns, in words; -q silences them
run -c 0.01 -r 3 --walks=list,array,xarray
check "warnings: each under 120 columns" sh -c "! awk '/^scan: warning: / && length > 119' '$tmp/err' | grep -q ."
check "warnings: no (+N), N/M or 'too' to decode" \
	sh -c "! grep -E '\\(\\+[0-9]|[0-9]/[0-9]| too[;,]' '$tmp/err'"
run -c 0.01 -r 3 -q
check "-q: no warning on stderr" [ ! -s "$tmp/err" ]
check "-q: the results stay" out_has '^Physical scan is [0-9.]+ faster than ListLRU$'
run -c 0.001 -r 64
check "warnings: no -r advice at the most rounds" sh -c "! grep -q -- '-r' '$tmp/err'"
