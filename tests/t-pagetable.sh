#!/bin/sh
# The PageTable walk (--walks=pagetable, MGLRU's aging): its lines, its
# self-check under the knobs, its limit of its own (the PTE stream and
# the young folios' updates) under them, its knobs' refusals, the unmapped page
# cache said on stderr, the LRU order it leaves alone; and lru-gen.awk,
# the parser of lru_gen_full, on a fixture.  Behaviour and format only.
. tests/lib.sh

model="-c 0.02 -r 2 -vvv -s 5 --lru-fraction=0.8 --folios=0:70,2:10,9:20"
# shellcheck disable=SC2086 # model is a list of options
run $model
base=$(fingerprint)
check "model builds" [ -n "$base" ]

# All mapped and young (the defaults): it visits every LRU folio, so its
# total is every walk's.
# shellcheck disable=SC2086
run $model --walks=list,pagetable
check "pagetable: runs" [ "$rc" -eq 0 ]
check "pagetable: same LRU order as without" same "$(fingerprint)" "$base"
check "pagetable: every folio young, totals exact" totals_exact 3
check "pagetable: ratio line" out_has '^Physical scan is [0-9]+\.[0-9]{6} faster than PageTable$'
check "pagetable: time line" out_has '^PageTable scan in [0-9]+\.[0-9]{6}s$'
check "pagetable: its tables" \
	out_has '^pagetable: 16 processes, [0-9]+ PMD tables, [0-9]+ PTE tables \([0-9]+ with a young PTE\), [0-9]+ PMD leaves, non-leaf accessed bit on$'
check "pagetable: mapped and young" \
	out_has '^pagetable: [0-9]+ of [0-9]+ LRU folios mapped \(--mapped=1\), [0-9]+ young in [0-9]+ young entries \(--young=1, --young-tables=1, --pte-adjacent=0\)$'
check "pagetable: its cost split" \
	out_has '^PageTable: [0-9]+ entries read, [0-9.]+ ns each at this core.s stream limit; [0-9]+ young folios, -?[0-9.]+ ns each beside$'
check "pagetable: break-even" out_has '^break-even of PageTable: '
check "pagetable: held against a limit of its own" out_has '^PageTable [0-9.]+ ns/folio, [0-9.]+x this core.s PTE stream and young updates \([0-9]+\.[0-9]{2}\)$'
check "pagetable: no LRU-share break-even of the others' kind" \
	sh -c "! grep -q '^break-even vs PageTable' '$tmp/out'"
check "pagetable: everything mapped, no note" sh -c "! grep -q 'note: PageTable' '$tmp/err'"

# A share young: its total is the young folios' ages, not every one's,
# and the self-check (and the re-marking after every walk) still holds.
for knobs in "--young=0.1" "--young=0.1 --young-tables=0.1" \
	"--young=0.3 --young-tables=0.5 --nonleaf-young=off" "--young=0" \
	"--mapped=0.3 --pte-adjacent=0.9" "--struct-page=8 --young=0.5" \
	"--struct-page=32 --young=0.5" "-t 2 --young=0.5" \
	"--access=isolate --young=0.2"; do
	# shellcheck disable=SC2086
	run $model --walks=pagetable,list $knobs
	check "$knobs: runs" [ "$rc" -eq 0 ]
	check "$knobs: same LRU order" same "$(fingerprint)" "$base"
	check "$knobs: the other walks' totals exact" totals_exact 2
	check "$knobs: its limit measured" out_has '^PageTable [0-9.]+ ns/folio, [0-9.]+x this core.s PTE stream and young updates \([0-9]+\.[0-9]{2}\)$'
done
# Knobs that change the model: the self-checks hold (exit 0).
for knobs in "--memcg-share=0.5" "--builds=2 --young=0.5" \
	"--folios=0:50,4:20,10:30 --young=0.5" "--lru-fraction=0.3 --non-lru=buddy"; do
	# shellcheck disable=SC2086
	run $model --walks=pagetable,list $knobs
	check "$knobs: runs" [ "$rc" -eq 0 ]
done
run -c 0.02 -r 1 -vvv -s 5 --walks=pagetable --young=0.1
check "--young=0.1: a total of its own" \
	sh -c "[ \$(grep -c '^total = ' '$tmp/out') -eq 2 ] && [ \$(grep '^total = ' '$tmp/out' | sort -u | wc -l) -eq 2 ]"

# What it cannot see, on stderr; -q keeps it quiet.
run -c 0.02 -r 1 -s 5 --walks=pagetable --mapped=0.5
check "--mapped=0.5: one line on stdout" lines 1
check "--mapped=0.5: the unmapped page cache said" \
	err_has '^scan: note: PageTable sees [0-9]+ of [0-9]+ LRU folios: [0-9]+ are unmapped page cache, '
run -c 0.02 -r 1 -s 5 -q --walks=pagetable --mapped=0.5
check "--mapped=0.5 -q: nothing on stderr" [ ! -s "$tmp/err" ]

# The knobs alone change nothing the other walks see.
# shellcheck disable=SC2086
run $model --mapped=0.2 --young=0.3 --young-tables=0.5 --pte-adjacent=0.5 --nonleaf-young=off
check "knobs without the walk: same LRU order" same "$(fingerprint)" "$base"
check "knobs without the walk: totals exact" totals_exact 3
check "knobs without the walk: no pagetable line" sh -c "! grep -q '^pagetable:' '$tmp/out'"

bad "--mapped=0" -c 0.01 --mapped=0
bad "--mapped=1.5" -c 0.01 --mapped=1.5
bad "--young=-0.1" -c 0.01 --young=-0.1
bad "--young-tables=0" -c 0.01 --young-tables=0
bad "--pte-adjacent=2" -c 0.01 --pte-adjacent=2
bad "--nonleaf-young=maybe" -c 0.01 --nonleaf-young=maybe

# Data formats: its row, its KTAP self-check with its own sums.
run -c 0.01 -r 1 -s 5 --walks=pagetable --young=0.5 --format=csv
check "csv: a pagetable row" out_has '^pagetable,PageTable,'
check "csv: its limit named" [ "$(walk_col "$tmp/out" pagetable bound)" = "PTE stream and young updates" ]
check "csv: its limit measured" \
	awk -v ns="$(walk_col "$tmp/out" pagetable bound_ns)" -v x="$(walk_col "$tmp/out" pagetable bound_ratio)" \
	'BEGIN { exit !(ns > 0 && x > 0) }'
run -c 0.01 -r 1 -s 5 --walks=pagetable --young=0.5 --format=ktap
check "ktap: its self-check" out_has '^ok [0-9]+ self-check pagetable$'
check "ktap: its own sums" sh -c "grep '^# PageTable: ' '$tmp/out' | grep -q 'summed [0-9]* over [0-9]* folios'"
check "-h: the walk listed" sh -c "'$SCAN' -h | grep -q '^  PageTable  *page tables in virtual order'"

# lru-gen.awk on tests/lru-gen-full.txt: a fixture written by hand from
# the documented format (lru_gen_seq_show_full() in mm/vmscan.c and
# Documentation/admin-guide/mm/multigen_lru.rst), not read from a
# kernel: these hosts have no CONFIG_LRU_GEN.  Two memcgs; the youngest
# generation of each holds the walk's counts (capital letters), the
# older ones none (x); tier lines (a number first) are not counts.
awk -f scripts/lru-gen.awk tests/lru-gen-full.txt >"$tmp/gen"
check "lru-gen.awk: a line per generation with counts" \
	sh -c "[ \$(grep -c '^memcg ' '$tmp/gen') -eq 2 ]"
check "lru-gen.awk: memcg 1's youngest generation" \
	grep -qx 'memcg 1 node 0 gen 2 leaf_total 262144 leaf_young 26214 nonleaf_found 130 nonleaf_added 64' "$tmp/gen"
check "lru-gen.awk: the total" \
	grep -qx 'total leaf_total 327680 leaf_young 32768 nonleaf_found 163 nonleaf_added 96' "$tmp/gen"
check "lru-gen.awk: each memcg's youngest generation, for lru_gen's aging" \
	sh -c "grep -qx 'youngest memcg 1 node 0 gen 2' '$tmp/gen' && grep -qx 'youngest memcg 42 node 0 gen 6' '$tmp/gen'"
awk -v memcg=42 -f scripts/lru-gen.awk tests/lru-gen-full.txt >"$tmp/gen"
check "lru-gen.awk: one memcg" \
	grep -qx 'total leaf_total 65536 leaf_young 6554 nonleaf_found 33 nonleaf_added 32' "$tmp/gen"
lru_gen_memcg=42 awk -f scripts/lib.awk -f scripts/lru-gen.awk tests/lru-gen-full.txt >"$tmp/gen"
check "lru-gen.awk: the memcg from the environment, after lib.awk (run_awk)" \
	grep -qx 'total leaf_total 65536 leaf_young 6554 nonleaf_found 33 nonleaf_added 32' "$tmp/gen"
printf 'memcg 1 /\n node 0\n 3 10 20 30\n' | awk -f scripts/lru-gen.awk >"$tmp/gen"
check "lru-gen.awk: no counts, a zero total" \
	grep -qx 'total leaf_total 0 leaf_young 0 nonleaf_found 0 nonleaf_added 0' "$tmp/gen"
