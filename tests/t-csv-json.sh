#!/bin/sh
# scan's machine formats: --format=csv and --format=json, their columns
# and fields.  Tiny sizes; nothing here asserts a speed.
. tests/lib.sh

run -c 0.01 -r 2 -s 77 --format=csv
check "csv: exit 0" [ "$rc" -eq 0 ]
check "csv: header and a row per walk, documented columns" csv_ok "$tmp/out" 3
check "csv: the seed as given, on every row" \
	same "$(csv_col "$tmp/out" seed | sort -u)" 77
check "csv: the physical walk first, its speedup 1" same \
	"$(csv_first "$tmp/out" walk speedup speedup_min speedup_max)" "physical 1.000000 1.000000 1.000000 "
check "csv: nothing but data on stdout" sh -c "! grep -q 'faster than' '$tmp/out'"

run -c 0.01 -r 2 --format=csv -v --lru-fraction=0.5 --lists=2 --struct-page=32
check "csv -v: the text lines go to stderr" err_has '^Physical scan is [0-9.]+ faster than ListLRU$'
check "csv: knobs as columns" \
	same "$(csv_first "$tmp/out" lru_fraction lists struct_page)" "0.5 2 32 "

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
i = header.index("llc_bytes")
assert header[i:i + 3] == ["llc_bytes", "memcg", "cpu_vendor"] and d["llc_bytes"] >= 0, header[i:]
' "$tmp/json" "$tmp/out"
else
	skip "json: parses" "no python3"
	skip "csv and json: the same fields" "no python3"
fi

run -c 0.01 -r 1 --format=yaml
check "--format=yaml: usage error" [ "$rc" -eq 2 ]
