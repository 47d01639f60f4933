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

# --hold=SIZE, scan-kernel's holder of the aging walk's working set:
# "ready PAGES", then "touched K" for each "touch F" on stdin (a byte of
# F of its pages, spread evenly: floor(F * PAGES) of them); a line that
# is not "touch F" is a usage error, exit 2, one line.
pages=$((1048576 / $(getconf PAGESIZE)))
hold() {	# hold: scan --hold=1M, its stdin $tmp/touch
	# shellcheck disable=SC2016 # the inner shell's
	run_cmd sh -c '"$1" --hold=1M <"$2"' sh "$SCAN" "$tmp/touch"
}
printf 'touch 0.1\ntouch 1\ntouch 0\n' >"$tmp/touch"
hold
check "--hold: ready, then a line for each touch" \
	eval "[ \$rc -eq 0 ] && [ \"\$(tr '\n' ' ' <'$tmp/out')\" = 'ready $pages touched $((pages / 10)) touched $pages touched 0 ' ]"
printf 'touch 0.5\nfree\n' >"$tmp/touch"
hold
check "--hold: a line that is not touch F: exit 2, one line" \
	eval "[ \$rc -eq 2 ] && [ \"\$(tr '\n' ' ' <'$tmp/out')\" = 'ready $pages touched $((pages / 2)) ' ] && nlines '$tmp/err' && [ \$count -eq 1 ] && grep -q \"^scan: --hold: a line 'free'\" '$tmp/err'"
printf 'touch 1.5\n' >"$tmp/touch"
hold
check "--hold: touch over 1: exit 2" eval "[ \$rc -eq 2 ] && grep -q 'give touch F, 0 <= F <= 1' '$tmp/err'"
bad "--hold=0" --hold=0
bad "--hold=1x" --hold=1x
# Where THP is always on (the guests of scan-vm), its memory is still in
# base pages: no AnonHugePages while it holds 64 MiB (32 huge pages).
if grep -q '\[always\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null && [ -r /proc/self/smaps_rollup ]; then
	rm -f "$tmp/in"
	mkfifo "$tmp/in"
	"$SCAN" --hold=64M <"$tmp/in" >"$tmp/out" &
	hold_pid=$!
	exec 9>"$tmp/in"
	i=0
	while ! grep -q ready "$tmp/out" && [ "$i" -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	huge=$(awk '$1 == "AnonHugePages:" { print $2 }' "/proc/$hold_pid/smaps_rollup")
	exec 9>&-
	wait "$hold_pid"
	check "--hold: no huge page where THP is always on" [ "$huge" = 0 ]
else
	skip "--hold: no huge page where THP is always on" "THP is not always on here"
fi

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
# a kernel before 6.12 printed a count it does not keep as a bare 0: a
# tier's line or the walk's line of bare zeros is not a generation
printf 'memcg 1 /\n node 0\n          3 10 20 30\n                     0          0          0          0          0          0          0\n                                   0           0           0           0\n' |
	awk -f scripts/lru-gen.awk >"$tmp/gen"
check "lru-gen.awk: bare zeros further in than a generation's number are not one" \
	grep -qx 'youngest memcg 1 node 0 gen 3' "$tmp/gen"

# lru-aging.awk, scan-kernel's timing of the aging walk where the kernel
# has CONFIG_LRU_GEN, on hand-written fixtures (these hosts have none):
# tests/lru-gen-aged.txt is tests/lru-gen-full.txt after a walk of memcg
# 42 at generation 6, written by hand from the same documented format
# (one history: the counts on the youngest generation, capitals, summed
# over the walks), and dd's line as GNU dd prints it.  Hand-computed:
# 131590 - 65536 = 66054 PTEs read, 13150 - 6554 = 6596 young, 198162 ns.
awk -v memcg=42 -f scripts/lru-gen.awk tests/lru-gen-full.txt >"$tmp/before"
awk -v memcg=42 -f scripts/lru-gen.awk tests/lru-gen-aged.txt >"$tmp/after"
printf '1+0 records in\n1+0 records out\n20 bytes copied, 0.000198162 s, 101 kB/s\n' >"$tmp/dd"
aging() {	# aging STEP ARG...: lru-aging.awk after lib.awk and stats.awk, as run_awk runs it
	a_step=$1
	shift
	awk -f scripts/lib.awk -f scripts/stats.awk -f scripts/lru-aging.awk -v step="$a_step" "$@"
}
aging walk -v node=0 -v gen=6 -v touched=6554 "$tmp/before" "$tmp/after" "$tmp/dd" >"$tmp/walk"
check "lru-aging.awk: one history: the youngest after less the youngest before, dd's time" \
	grep -qx 'walk leaf_total 66054 leaf_young 6596 ns 198162 touched 6554 held 0 switches 0' "$tmp/walk"
# a history a generation (CONFIG_LRU_GEN_STATS): generation 6's own
# line after the walk holds this walk's counts alone
printf 'memcg 42 node 0 gen 5 leaf_total 9 leaf_young 1 nonleaf_found 0 nonleaf_added 0\n' >"$tmp/sbefore"
printf 'memcg 42 node 0 gen 6 leaf_total 66054 leaf_young 6596 nonleaf_found 33 nonleaf_added 32\n' >"$tmp/safter"
aging walk -v node=0 -v gen=6 -v touched=6554 "$tmp/sbefore" "$tmp/safter" "$tmp/dd" >"$tmp/walk"
check "lru-aging.awk: a history a generation: generation gen's line after" \
	grep -qx 'walk leaf_total 66054 leaf_young 6596 ns 198162 touched 6554 held 0 switches 0' "$tmp/walk"
aging walk -v node=1 -v gen=6 -v touched=1 "$tmp/before" "$tmp/after" "$tmp/dd" >"$tmp/walk"
check "lru-aging.awk: another node's counts are not this one's" grep -q '^none lru_gen_full shows no walk counts' "$tmp/walk"
printf 'dd: error writing: Invalid argument\n' >"$tmp/dd.bad"
aging walk -v node=0 -v gen=6 -v touched=1 "$tmp/before" "$tmp/after" "$tmp/dd.bad" >"$tmp/walk"
check "lru-aging.awk: no time from dd, said" grep -q '^none dd printed no time' "$tmp/walk"
# the report: three walks of 3.0, 2.5 and 4.0 ns a PTE once dd's own
# 21 us (the median of the three floors) is taken off (30.04, 25, 40 a
# young one), a walk without counts, one under dd's floor; the model's
# 253280 ns over 65536 PTEs (3.865) and 6410 young folios (39.51)
{ echo 'walk leaf_total 66054 leaf_young 6596 ns 219162 touched 6554'
  echo 'floor 2.1e-05'
  echo 'walk leaf_total 40000 leaf_young 4000 ns 121000 touched 4000'
  echo 'floor 1.9e-05'
  echo 'none the walk read no PTE'
  echo 'walk leaf_total 50000 leaf_young 5000 ns 221000 touched 5000'
  echo 'floor 3.0e-05'
  echo 'walk leaf_total 50000 leaf_young 5000 ns 20000 touched 5000'; } >"$tmp/walks"
aging report -v node=0 -v share=0.1 -v bytes=268435456 -v model_s=0.00025328 \
	-v model_ptes=65536 -v model_young=6410 -v command='scan -c 0.065536 --young=0.1' "$tmp/walks" >"$tmp/report"
check "lru-aging.awk: the walks, the working set, the share" \
	grep -qx "MGLRU's aging walk: 4 walks of a 256 MiB anonymous working set in a memory cgroup of its own, node 0, 10% of its pages touched before each (5138 a walk)" "$tmp/report"
check "lru-aging.awk: the kernel's medians and quartiles a PTE read and a young PTE, dd's own time off" \
	grep -qx '  kernel: 51513 leaf PTEs read a walk, 5149 young (10%): 3 ns per PTE read (IQR 2.75-3.5), 30 ns per young PTE (IQR 27.5-35)' "$tmp/report"
check "lru-aging.awk: the walks left out said" \
	sh -c "grep -qx '  left out: 1 walk without counts: the walk read no PTE' '$tmp/report' && grep -qx \"  left out: 1 walk no longer than dd's own time, or with no young PTE\" '$tmp/report'"
check "lru-aging.awk: how it was timed, dd's own time" \
	grep -qx "  timed: dd's clock around its write to lru_gen (the aging runs in that write), 170 us a walk (median), less dd's own 21 us (the same write to /dev/null)" "$tmp/report"
check "lru-aging.awk: the model's figures and kernel/model" \
	sh -c "grep -qx '  model: 3.86 ns per PTE read, 39.5 ns per young folio (scan -c 0.065536 --young=0.1)' '$tmp/report' &&
		grep -qx '  kernel/model: 0.776 per PTE read, 0.76 per young' '$tmp/report'"
# the replay's size and share from the same walks: the median of
# 40000, 50000, 50000 and 66054 PTEs, and 20596 young of 206054
aging replay "$tmp/walks" >"$tmp/replay"
check "lru-aging.awk: the replay's -c (the median walk's PTEs) and young share" \
	grep -qx '0.050000 0.1000' "$tmp/replay"
aging replay /dev/null >"$tmp/replay"
check "lru-aging.awk: no walk, no replay" [ ! -s "$tmp/replay" ]
aging report -v node=0 /dev/null >"$tmp/report"
check "lru-aging.awk: no walk, one line" grep -qx "MGLRU's aging walk: no figure: no walk was timed" "$tmp/report"
# The kernel's clock (step=clock), on a trace of the writer's write(2)
# as the instance gives it (its text, and raw: "PID CPU NS" a line):
# pid 200 writes the command's 12 bytes from 100.000200 to 100.001200 s
# and is switched out for 100 us between: 900,000 ns.  Its writes before
# (the filters' and events' 2 and 4 bytes) and after (dd's lines on
# stderr) are not the walk's, nor are another task's lines.
printf '%s\n' '# tracer: nop' \
	'              sh-200     [000] .....   100.000100: sys_write -> 0x2' \
	'              sh-200     [000] .....   100.000150: sys_write(fd: 1, buf: 55d0, count: 4)' \
	'              sh-200     [000] .....   100.000160: sys_write -> 0x4' \
	'              dd-200     [000] .....   100.000200: sys_write(fd: 1, buf: 55d0, count: c)' \
	'              dd-200     [000] d..2.   100.000300: sched_switch: prev_comm=dd prev_pid=200 prev_prio=120 prev_state=R+ ==> next_comm=kworker/0:1 next_pid=30 next_prio=120' \
	'     kworker/0:1-30      [000] d..2.   100.000400: sched_switch: prev_comm=kworker/0:1 prev_pid=30 prev_prio=120 prev_state=I ==> next_comm=dd next_pid=200 next_prio=120' \
	'              dd-200     [000] .....   100.001200: sys_write -> 0xc' \
	'              dd-200     [000] .....   100.001300: sys_write(fd: 2, buf: 55d0, count: c)' \
	'              dd-200     [000] .....   100.001400: sys_write -> 0xc' >"$tmp/write.txt"
printf '%s\n' '# tracer: nop' '200 0 100000100000' '200 0 100000150000' '200 0 100000160000' \
	'200 0 100000200000' '200 0 100000300000 type: 300' '30 0 100000400000 type: 300' \
	'200 0 100001200000' '200 0 100001300000' '200 0 100001400000' >"$tmp/write.raw"
aging clock -v pid=200 -v count=12 -v raw="$tmp/write.raw" "$tmp/write.txt" >"$tmp/clock"
check "lru-aging.awk: the kernel's clock: enter to exit of the writer's write, its time switched out taken off" \
	grep -qx 'clock ns 900000 switches 1' "$tmp/clock"
aging clock -v pid=201 -v count=12 -v raw="$tmp/write.raw" "$tmp/write.txt" >"$tmp/clock"
check "lru-aging.awk: the kernel's clock: no write of that pid, said" grep -q '^none the trace holds no sys_enter_write of 12 bytes by pid 201' "$tmp/clock"
sed 6q "$tmp/write.txt" >"$tmp/cut.txt"
aging clock -v pid=200 -v count=12 -v raw="$tmp/write.raw" "$tmp/cut.txt" >"$tmp/clock"
check "lru-aging.awk: the kernel's clock: no exit after the write, said" grep -q '^none the trace holds no sys_exit_write' "$tmp/clock"
sed '6a\
CPU:0 [LOST 3 EVENTS]' "$tmp/write.txt" >"$tmp/lost.txt"
sed '6a\
CPU:0 [LOST 3 EVENTS]' "$tmp/write.raw" >"$tmp/lost.raw"
aging clock -v pid=200 -v count=12 -v raw="$tmp/lost.raw" "$tmp/lost.txt" >"$tmp/clock"
check "lru-aging.awk: the kernel's clock: events lost inside the write, said" grep -q '^none the trace lost events inside the write' "$tmp/clock"
# its line as step=walk's time, in place of dd's
echo 'clock ns 900000 switches 1' >"$tmp/clock"
aging walk -v node=0 -v gen=6 -v touched=6554 -v held=65536 -v huge=0 "$tmp/before" "$tmp/after" "$tmp/clock" >"$tmp/walk"
check "lru-aging.awk: a walk timed by the kernel's clock, the pages held" \
	grep -qx 'walk leaf_total 66054 leaf_young 6596 ns 900000 touched 6554 held 65536 switches 1' "$tmp/walk"
echo 'none the trace lost events inside the write' >"$tmp/clock"
aging walk -v node=0 -v gen=6 -v touched=6554 "$tmp/before" "$tmp/after" "$tmp/clock" >"$tmp/walk"
check "lru-aging.awk: a walk the kernel's clock did not time: its reason" grep -qx 'none the trace lost events inside the write' "$tmp/walk"
# the walk read fewer PTEs than nine tenths of the pages held: huge pages
aging walk -v node=0 -v gen=6 -v touched=6554 -v held=131072 -v huge=262144 "$tmp/before" "$tmp/after" "$tmp/dd" >"$tmp/walk"
check "lru-aging.awk: fewer PTEs read than pages held: no figure, THP said" \
	grep -qx 'none the walk read 66054 leaf PTEs for the 131072 pages held: 262144 kB of them in huge pages (THP), whose PMDs it reads instead' "$tmp/walk"
aging walk -v node=0 -v gen=6 -v touched=6554 -v held=73393 -v huge=0 "$tmp/before" "$tmp/after" "$tmp/dd" >"$tmp/walk"
check "lru-aging.awk: nine tenths of the pages held read: a figure" grep -q '^walk leaf_total 66054 ' "$tmp/walk"
# the report's line on its clock: the kernel's, with the switches; dd's,
# with why not the kernel's
{ echo 'walk leaf_total 66054 leaf_young 6596 ns 900000 touched 6554 held 65536 switches 2'
  echo 'floor 0.000003'
  echo 'walk leaf_total 66054 leaf_young 6596 ns 800000 touched 6554 held 65536 switches 0'
  echo 'floor 0.000005'; } >"$tmp/kwalks"
aging report -v node=0 -v share=0.1 -v bytes=268435456 -v clock=kernel "$tmp/kwalks" >"$tmp/report"
check "lru-aging.awk: timed by the kernel's clock, said, with the writer's switches" \
	grep -qx "  timed: the kernel's clock inside the write to lru_gen (the writer's sys_enter_write to sys_exit_write; the aging runs in that write), 850 us a walk (median), less 4 us for the same write to /dev/null; the writer switched out 2 times in 1 walk, that time taken off" "$tmp/report"
aging report -v node=0 -v share=0.1 -v bytes=268435456 -v clock=dd -v clock_why='this kernel has no syscalls:sys_enter_write event (CONFIG_FTRACE_SYSCALLS)' "$tmp/walks" >"$tmp/report"
check "lru-aging.awk: timed by dd's clock, and why not the kernel's" \
	grep -qx "  timed: dd's clock around its write to lru_gen (the aging runs in that write; not the kernel's clock: this kernel has no syscalls:sys_enter_write event (CONFIG_FTRACE_SYSCALLS)), 170 us a walk (median), less dd's own 21 us (the same write to /dev/null)" "$tmp/report"
{ echo 'none the walk read 1437 leaf PTEs for the 16384 pages held: 65536 kB of them in huge pages (THP), whose PMDs it reads instead'
  echo 'floor 0.005'; } >"$tmp/twalks"
aging report -v node=0 -v clock=kernel "$tmp/twalks" >"$tmp/report"
check "lru-aging.awk: every walk in huge pages: no figure, one line saying why" \
	grep -qx "MGLRU's aging walk: no figure: no walk was timed: the walk read 1437 leaf PTEs for the 16384 pages held: 65536 kB of them in huge pages (THP), whose PMDs it reads instead" "$tmp/report"
# Recorded live in scan-vm's guest (Debian's 6.12.118 under TCG, THP
# always, MGLRU 0x0007), lru_gen_full before and after a forced walk of
# a 64 MiB working set, 16384 pages held, a tenth touched:
# tests/lru-gen-thp-*.txt, memcg 2 at generation 4, held by the awk that
# held it before scan --hold (its heap in huge pages: AnonHugePages 63488
# kB): the walk read 2874 - 1437 = 1437 leaf PTEs, 716 - 613 = 103 young:
# no figure.  tests/lru-gen-base-*.txt, memcg 3 at generation 4, held by
# scan --hold: 33558 - 16779 = 16779 PTEs read, 18050 - 16402 = 1648
# young; tests/lru-gen-write.txt and .raw, the instance's trace of that
# walk's write: pid 314's 12 bytes (0xc) from 156182171956 to
# 156200174228 ns, 18002272 ns, not switched out (its writes before are
# the filters' and the events').
thp_walk() {	# thp_walk KIND MEMCG HELD HUGE TIME: step=walk on a recorded pair
	awk -v memcg="$2" -f scripts/lru-gen.awk "tests/lru-gen-$1-before.txt" >"$tmp/rbefore"
	awk -v memcg="$2" -f scripts/lru-gen.awk "tests/lru-gen-$1-after.txt" >"$tmp/rafter"
	aging walk -v node=0 -v gen=4 -v touched=1638 -v held="$3" -v huge="$4" "$tmp/rbefore" "$tmp/rafter" "$5" >"$tmp/walk"
}
aging clock -v pid=314 -v count=12 -v raw=tests/lru-gen-write.raw tests/lru-gen-write.txt >"$tmp/clock"
check "lru-aging.awk: the kernel's clock on a recorded write to lru_gen" grep -qx 'clock ns 18002272 switches 0' "$tmp/clock"
thp_walk thp 2 16384 63488 "$tmp/clock"
check "lru-aging.awk: a recorded walk of a working set in huge pages (THP always): no figure, why said" \
	grep -qx 'none the walk read 1437 leaf PTEs for the 16384 pages held: 63488 kB of them in huge pages (THP), whose PMDs it reads instead' "$tmp/walk"
thp_walk thp 2 16384 -1 "$tmp/clock"
check "lru-aging.awk: the same where the holder's AnonHugePages is unknown: no figure" \
	grep -qx 'none the walk read 1437 leaf PTEs for the 16384 pages held: most of them not in base pages (THP?)' "$tmp/walk"
thp_walk base 3 16384 0 "$tmp/clock"
check "lru-aging.awk: a recorded walk of scan --hold's base pages: its counts and the kernel's clock" \
	grep -qx 'walk leaf_total 16779 leaf_young 1648 ns 18002272 touched 1638 held 16384 switches 0' "$tmp/walk"
check "scan-kernel --young out of 0 to 1: exit 2, one line" \
	sh -c "sh scripts/kernel.sh --young=1.5 >/dev/null 2>'$tmp/e'; [ \$? -eq 2 ] && [ \$(wc -l <'$tmp/e') -eq 1 ] && grep -q -- '--young=1.5: give the share' '$tmp/e'"
