#!/bin/sh
# Closer to reclaim: several lists, threads, rmap, descriptor sizes,
# the choice of walks, XArrayLRU and the --kernel-like preset.
. tests/lib.sh


# The same seed builds the same LRU order whatever the knobs that only
# change how it is stored or walked.
model="-c 0.02 -r 1 -vvv -s 11 --lru-fraction=0.7 --folios=0:60,3:40 --locality=3"
# shellcheck disable=SC2086 # model is a list of options
run $model
base=$(fingerprint)
check "model builds" [ -n "$base" ]
for knobs in "--struct-page=32" "--struct-page=8" "--lists=5 --chunk=3" \
	"--lists=8" "-t 2" "-t 2 --lists=3 --chunk=32" "--access=isolate" \
	"--rmap=0.3:2" "--walks=xarray,list,array"; do
	# shellcheck disable=SC2086
	run $model $knobs
	check "$knobs: runs" [ "$rc" -eq 0 ]
	check "$knobs: same LRU order as without" same "$(fingerprint)" "$base"
	case $knobs in
	--walks=*) check "$knobs: totals exact" totals_exact 4 ;;
	*) check "$knobs: totals exact" totals_exact ;;
	esac
done

run -c 0.01 -r 1 -v --lists=8 --chunk=32
check "--lists --chunk: shown" out_has '^lists: 1 thread, 8 lists per thread, taken 32 at a time$'
run -c 0.01 -r 1 -v -t 2
check "-t 2: shown" out_has '^lists: 2 threads, '
run -c 0.01 -r 2 -vvv -t 2 --access=isolate --lists=4 --struct-page=8
check "-t 2 isolating 8-byte descriptors: totals exact" totals_exact

run -c 0.02 -r 1 -v -s 1 --rmap=0.5:3
check "--rmap: shown with the mapped folios" \
	out_has '^rmap: 0\.5:3, [0-9]+ folios mapped, [0-9.]+ MiB pool$'
mapped=$(sed -n 's/^rmap: .*, \([0-9]*\) folios mapped.*/\1/p' "$tmp/out")
check "--rmap=0.5: about half the folios mapped" \
	awk -v x="$mapped" 'BEGIN { exit !(x > 9000 && x < 11000) }'

for size in 64 32 8; do
	run -c 0.01 -r 1 -v --struct-page=$size
	check "--struct-page=$size: shown" out_has ", $size-byte struct page\$"
done
run -c 0.01 -r 1 -v --struct-page=8
check "--struct-page=8: memmap is 8 bytes a page" out_has '^memmap 78\.1 KiB for 10000 pages'

run -c 0.01 -r 1 --walks=xarray,array
check "--walks: two ratio lines" lines 2
check "--walks: in the order given" \
	sh -c "sed -n 1p '$tmp/out' | grep -q 'faster than XArrayLRU\$' && sed -n 2p '$tmp/out' | grep -q 'faster than ArrayLRU\$'"
run -c 0.01 -r 1 --walks=ListLRU
check "--walks: printed names accepted" \
	sh -c "[ \$(wc -l <'$tmp/out') -eq 1 ] && grep -q 'faster than ListLRU\$' '$tmp/out'"
bad "--walks=list,physical (always the baseline)" -c 0.01 --walks=list,physical
check "--walks=list,physical: says the physical walk is the baseline" err_has 'always timed, as the baseline'
run -c 0.01 -r 1 -v --walks=list,xarray
check "--walks: XArray time line" out_has '^XArray scan in [0-9]+\.[0-9]{6}s$'

run -c 0.01 -r 1 -v --kernel-like
check "--kernel-like: says what it set" \
	out_has '^--kernel-like set: --memmap-thp=always --lru-fraction=0\.85 --non-lru=pageblock --folios=0:65,2:5,4:5,9:25 --locality=8 --access=isolate --lists=40 --chunk=32 --rmap=0\.5:3 --mapped=0\.5 --young=0\.1 --pte-adjacent=0\.875$'
check "--kernel-like: applied" \
	out_has '^work: access isolate, ' '^lists: .*, 40 lists per thread, taken 32 at a time$'
run -c 0.01 -r 1 -v --lists=4 --kernel-like --folio-order=2
check "--kernel-like: explicit options win" \
	out_has '^--kernel-like set: --memmap-thp=always --lru-fraction=0\.85 --non-lru=pageblock --locality=8 --access=isolate --chunk=32 --rmap=0\.5:3 --mapped=0\.5 --young=0\.1 --pte-adjacent=0\.875$'
check "--kernel-like: explicit values used" out_has 'folios 2:100,'
run -c 0.01 -r 1 -vvv --kernel-like
check "--kernel-like: totals exact" totals_exact

cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
run -c 0.01 -r 1 -t $((cpus + 1))
check "-t beyond the CPUs: exit 1" [ "$rc" -eq 1 ]
check "-t beyond the CPUs: says so" err_has "^scan: -t $((cpus + 1)): only"

bad "--lists=0" -c 0.01 --lists=0
bad "--lists=2000" -c 0.01 --lists=2000
bad "--chunk=0" -c 0.01 --chunk=0
bad "--rmap=0.5" -c 0.01 --rmap=0.5
bad "--rmap=2:1" -c 0.01 --rmap=2:1
bad "--rmap=0.5:0" -c 0.01 --rmap=0.5:0
bad "--rmap=0.5:17" -c 0.01 --rmap=0.5:17
bad "--rmap=:3" -c 0.01 --rmap=:3
bad "--struct-page=16" -c 0.01 --struct-page=16
bad "--walks=" -c 0.01 --walks=
bad "--walks=foo" -c 0.01 --walks=foo
bad "--walks=list,list" -c 0.01 --walks=list,list
bad "--walks=physical (nothing to compare)" -c 0.01 --walks=physical
bad "-t 0" -c 0.01 -t 0
bad "-t 65" -c 0.01 -t 65
bad "--cpu with -t 2" -c 0.01 --cpu=0 -t 2
bad "--kernel-like=yes" -c 0.01 --kernel-like=yes
