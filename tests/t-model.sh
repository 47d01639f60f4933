#!/bin/sh
# The model's knobs: each runs with exact self-checks, shows its value at
# -v, and shapes the memmap or the LRU order as documented.  Checks of a
# share use a fixed seed, so they cannot fail by chance.
. tests/lib.sh

lru_pages() { sed -n 's/^model: [0-9]* LRU folios of \([0-9]*\) pages.*/\1/p' "$tmp/out"; }
mean_run() { sed -n 's/^LRU order: runs of pfn-adjacent folios \([0-9.]*\) long.*/\1/p' "$tmp/out"; }

between() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }

run -c 0.01 -r 1 -vvv
check "default: every page an order-0 folio" [ "$(folios)" = 10000 ]
check "default: model line names the defaults" \
	out_has '^model: 10000 LRU folios of 10000 pages \(100\.0% of pfns\), locality 1$' \
		'^layout: other pages spread, folios 0:100, 64-byte struct page$'
check "default: work line names the defaults" \
	out_has '^work: access read, Physical reads every page$' '^lists: 1 thread, 1 list per thread$' '^rmap: none$'
check "default: LRU order is random (mean run about 1)" between "$(mean_run)" 1 1.01

run -c 0.01 -r 1 -vvv -s 1 --lru-fraction=0.5
check "--lru-fraction=0.5: runs" [ "$rc" -eq 0 ]
check "--lru-fraction=0.5: about half the pages on the LRU" between "$(lru_pages)" 4700 5300
check "--lru-fraction=0.5: totals exact" totals_exact

for layout in spread pageblock buddy; do
	run -c 0.1 -r 1 -vvv -s 1 --lru-fraction=0.3 --non-lru=$layout
	check "--non-lru=$layout: runs" [ "$rc" -eq 0 ]
	check "--non-lru=$layout: shown" out_has "other pages $layout,"
	check "--non-lru=$layout: about 30% on the LRU" between "$(lru_pages)" 24000 36000
	check "--non-lru=$layout: totals exact" totals_exact
done

run -c 0.01 -r 1 -vvv --folio-order=9
check "--folio-order=9: 19 folios of 512 pages in 10000 pfns" \
	[ "$(folios) $(lru_pages)" = "19 9728" ]
check "--folio-order=9: totals exact" totals_exact
run -c 0.01 -r 1 -vvv --folio-order=9 --phys=jump
check "--phys=jump: shown" out_has '^work: .*, Physical reads heads and jumps$'
check "--phys=jump: totals exact" totals_exact
run -c 0.01 -r 1 -vvv --folio-order=10 --lru-fraction=0.6 --non-lru=buddy --phys=jump
check "order 10 among buddy blocks, jumping: totals exact" totals_exact

run -c 0.1 -r 1 -vvv -s 1 --folios=0:50,4:25,9:25
check "--folios mix: shown" out_has 'folios 0:50,4:25,9:25,'
check "--folios mix: every page on the LRU but the tail end" between "$(lru_pages)" 99000 100000
check "--folios mix: about half the pages in order-0 folios" \
	between "$(folios)" 45000 60000
check "--folios mix: totals exact" totals_exact

run -c 0.01 -r 1 -vvv -s 1 --locality=64
check "--locality=64: shown" out_has 'locality 64$'
check "--locality=64: runs about 64 folios long" between "$(mean_run)" 45 90
check "--locality=64: totals exact" totals_exact
run -c 0.01 -r 1 -vvv --locality=1000000
check "--locality beyond the size: one run" between "$(mean_run)" 10000 10000

for access in read write atomic isolate; do
	run -c 0.01 -r 2 -vvv --access=$access --lru-fraction=0.7 --folio-order=2
	check "--access=$access: runs" [ "$rc" -eq 0 ]
	check "--access=$access: shown" out_has "access $access,"
	check "--access=$access: totals exact" totals_exact
done
run -c 0.01 -r 3 -vvv --access=isolate --builds=2
check "--access=isolate: the LRU is whole again for every walk and build" totals_exact

run -c 0.01 -r 1 -v
check "-v: break-even against ListLRU" \
	out_has '^break-even vs ListLRU: Physical (wins above [0-9.e+-]+% of pages on the LRU|loses even with every page on the LRU)$'
check "-v: break-even states its assumption" out_has '^\(if Physical.s cost per pfn and the LRU walks. per folio hold at any share\)$'
run -c 0.01 -r 1 -v --folio-order=9
check "-v: break-even when the physical walk always loses" \
	out_has '^break-even vs ArrayLRU: Physical loses even with every page on the LRU$'

bad "--lru-fraction=0" -c 0.01 --lru-fraction=0
bad "--lru-fraction=1.5" -c 0.01 --lru-fraction=1.5
bad "--lru-fraction=half" -c 0.01 --lru-fraction=half
bad "--non-lru=slab" -c 0.01 --non-lru=slab
bad "--folio-order=11" -c 0.01 --folio-order=11
bad "--folio-order=-1" -c 0.01 --folio-order=-1
bad "--folios=0:50" -c 0.01 --folios=0:50
bad "--folios=0:50,0:50" -c 0.01 --folios=0:50,0:50
bad "--folios=0" -c 0.01 --folios=0
bad "--folios=0:0,1:100" -c 0.01 --folios=0:0,1:100
bad "--folios=12:100" -c 0.01 --folios=12:100
bad "--folios=" -c 0.01 --folios=
bad "--folio-order and --folios" -c 0.01 --folio-order=2 --folios=0:100
bad "--phys=both" -c 0.01 --phys=both
bad "--locality=0.5" -c 0.01 --locality=0.5
bad "--locality=x" -c 0.01 --locality=x
bad "--access=sideways" -c 0.01 --access=sideways

# --memmap-from: a made-up kpageflags file, 16 pfns: an order-2 LRU
# folio (head 0, tails 1-3), order-0 LRU folios at 4 and 8, a free
# buddy head at 12 with three flagless pages after it (an order-2
# block), a slab page at 5, a hole at 6, flagless pages elsewhere
kpf="$tmp/kpageflags"
: >"$kpf"
for pfn in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
	case $pfn in
	0) printf '\040\200\000\000\000\000\000\000' ;;	# LRU | COMPOUND_HEAD
	1 | 2 | 3) printf '\040\000\001\000\000\000\000\000' ;;	# LRU | COMPOUND_TAIL
	4 | 8) printf '\040\000\000\000\000\000\000\000' ;;	# LRU
	5) printf '\200\000\000\000\000\000\000\000' ;;	# SLAB
	6) printf '\000\000\020\000\000\000\000\000' ;;	# NOPAGE
	12) printf '\000\004\000\000\000\000\000\000' ;;	# BUDDY
	*) printf '\000\000\000\000\000\000\000\000' ;;
	esac >>"$kpf"
done
run -r 1 -vvv -s 3 --memmap-from="$kpf"
check "--memmap-from: runs" [ "$rc" -eq 0 ]
check "--memmap-from: the file's LRU folios and pages" \
	out_has '^model: 3 LRU folios of 6 pages \(37\.5% of pfns\), locality 1$' '^layout: other pages and folios as replayed, '
check "--memmap-from: the composition as built" \
	out_has "^replayed: .*kpageflags pfns 0 to 15; LRU folios by order: 0:2 2:1; 1 free blocks \\(4 pages\\); 6 other pages\$"
check "--memmap-from: every walk sums the replayed folios" totals_exact
run -r 1 -v --memmap-from="$kpf" --pfns=4:8
check "--pfns: a window of the file" \
	out_has "^replayed: .* pfns 4 to 11; LRU folios by order: 0:2; 0 free blocks \\(0 pages\\); 6 other pages\$"
run -r 1 -v --memmap-from="$kpf" --kernel-like
check "--memmap-from with --kernel-like: the file keeps the layout" \
	sh -c "grep '^--kernel-like set:' '$tmp/out' | grep -qv 'lru-fraction\|non-lru\|folios='"
bad "--memmap-from with -c" -c 1 --memmap-from="$kpf"
bad "--memmap-from with --lru-fraction" --memmap-from="$kpf" --lru-fraction=0.5
bad "--memmap-from with --folio-order" --memmap-from="$kpf" --folio-order=2
bad "--pfns without --memmap-from" --pfns=0:4
bad "--pfns without a count" --memmap-from="$kpf" --pfns=4
head -c 7 "$kpf" >"$tmp/short"
run --memmap-from="$tmp/short"
check "--memmap-from: a file of part of an entry is refused" \
	sh -c "[ $rc -eq 1 ] && grep -q '7 bytes, not a whole number of 8-byte' '$tmp/err'"
run --memmap-from="$tmp/nonexistent"
check "--memmap-from: an unreadable file is refused" \
	sh -c "[ $rc -eq 1 ] && grep -q 'No such file' '$tmp/err'"
run --memmap-from="$kpf" --pfns=10:10
check "--pfns past the file's end is refused" \
	sh -c "[ $rc -eq 1 ] && grep -q 'has pfns 0 to 15' '$tmp/err'"

# BUDDY on every page of a free block, as a 6.18 kernel writes it: the
# same order-2 block
{ head -c 104 "$kpf"; for pfn in 13 14 15; do printf '\000\004\000\000\000\000\000\000'; done; } >"$tmp/kpf-buddy"
run -r 1 -v --memmap-from="$tmp/kpf-buddy"
check "--memmap-from: BUDDY on every free page, one block" \
	out_has "; 1 free blocks \\(4 pages\\); 6 other pages\$"

# --memcg: the same 16 pfns charged by a made-up kpagecgroup: the
# order-2 folio (0-3) and the folio at 8 to inode 7, the folio at 4 to 9
kcg="$tmp/kpagecgroup"
: >"$kcg"
for pfn in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
	case $pfn in
	0 | 1 | 2 | 3 | 8) printf '\007\000\000\000\000\000\000\000' ;;
	4) printf '\011\000\000\000\000\000\000\000' ;;
	*) printf '\000\000\000\000\000\000\000\000' ;;
	esac >>"$kcg"
done
run -r 1 -vvv -s 3 --memmap-from="$kpf" --memcg=7 --memcg-from="$kcg"
check "--memcg: runs" [ "$rc" -eq 0 ]
check "--memcg: the target's folios of all the file's" \
	out_has '^memcg: the target holds 2 of 3 LRU folios \(--memcg=7\)$'
check "--memcg: the composition as read, every memcg's" \
	out_has "LRU folios by order: 0:2 2:1; 1 free blocks \\(4 pages\\); 6 other pages\$"
check "--memcg: every walk sums the target's 2 folios (total 1)" \
	[ "$(grep -c '^total = 1$' "$tmp/out")" -eq 3 ]
run -r 1 -vvv --memmap-from="$kpf" --memcg=9 --memcg-from="$kcg" --access=isolate --lists=2
check "--memcg=9: one folio, total 0, isolated and relinked" \
	sh -c "grep -q '^memcg: the target holds 1 of 3 LRU folios' '$tmp/out' && [ \$(grep -c '^total = 0\$' '$tmp/out') -eq 3 ]"
run -r 1 -v --memmap-from="$kpf" --memcg=7 --memcg-from="$kcg" --pfns=4:8
check "--memcg with --pfns: the window's folios" \
	out_has '^memcg: the target holds 1 of 2 LRU folios \(--memcg=7\)'
run -r 1 --memmap-from="$kpf" --memcg=5 --memcg-from="$kcg"
check "--memcg of no folio: refused" \
	sh -c "[ $rc -eq 1 ] && grep -q '^scan: --memcg 5: no LRU folio of that memcg in pfns 0 to 15\$' '$tmp/err'"
head -c 64 "$kcg" >"$tmp/kcg-short"
run -r 1 --memmap-from="$kpf" --memcg=7 --memcg-from="$tmp/kcg-short"
check "--memcg-from of other pfns: refused" \
	sh -c "[ $rc -eq 1 ] && grep -q \"8 pfns, but '.*' has 16: not saved from the same pfns\" '$tmp/err'"
bad "--memcg without --memmap-from" -c 0.01 --memcg=7
bad "--memcg-from without --memcg" --memmap-from="$kpf" --memcg-from="$kcg"
bad "--memcg with a saved file and no --memcg-from" --memmap-from="$kpf" --memcg=7
bad "--memcg with --memcg-share" --memmap-from="$kpf" --memcg=7 --memcg-from="$kcg" --memcg-share=0.5
bad "--memcg=0" --memmap-from="$kpf" --memcg=0 --memcg-from="$kcg"
bad "--memcg-from=''" --memmap-from="$kpf" --memcg=7 --memcg-from=

# --lru-order: a made-up trace of the same 16 pfns: the folios at 0 (order
# 2) and 4 form a run of pfn-adjacent folios, 8 starts another; 4 is
# added twice and counts where it went in last; 5 (slab) and 100 (past
# the memmap) name no folio
printf '4\n# a comment\n\n0x0\n4\n8\n5\n100\n' >"$tmp/lru-order"
run -r 1 -vvv --memmap-from="$kpf" --lru-order="$tmp/lru-order"
check "--lru-order: runs" [ "$rc" -eq 0 ]
check "--lru-order: the trace's folios in order, by last insertion" \
	out_has '^traced: 3 of 3 folios in --lru-order.s order, in runs of 3\.00$' \
		'^traced: 6 insertions in the file, 1 of them of pfns not on these lists$'
check "--lru-order: the whole order has that run" \
	out_has '^LRU order: runs of pfn-adjacent folios 3\.00 long on average$'
check "--lru-order: every walk sums the folios" totals_exact
printf '8\n' >"$tmp/lru-one"
run -r 1 -v --memmap-from="$kpf" --lru-order="$tmp/lru-one" --kernel-like
check "--lru-order naming one folio: the others first" \
	out_has '^traced: 1 of 3 folios in '
printf '0x\n' >"$tmp/lru-bad"
run -r 1 --memmap-from="$kpf" --lru-order="$tmp/lru-bad"
check "--lru-order: a line that is not a pfn is refused, with its number" \
	sh -c "[ $rc -eq 1 ] && grep -q \"lru-bad' line 1: '0x' is not a pfn\" '$tmp/err'"
printf '5\n6\n' >"$tmp/lru-none"
run -r 1 --memmap-from="$kpf" --lru-order="$tmp/lru-none"
check "--lru-order naming no folio: refused" \
	sh -c "[ $rc -eq 1 ] && grep -q 'none of its 2 pfns heads an LRU folio' '$tmp/err'"
run -r 1 --memmap-from="$kpf" --lru-order="$tmp/nonexistent"
check "--lru-order: an unreadable file is refused" \
	sh -c "[ $rc -eq 1 ] && grep -q 'No such file' '$tmp/err'"
bad "--lru-order without --memmap-from" -c 0.01 --lru-order="$tmp/lru-order"

# --memcg-share: the target memcg holds a share of the LRU folios; the
# LRU walks visit its lists, the physical walk skips the others' folios
run -c 0.02 -s 9 -r 1 -vvv --memcg-share=0.25
check "--memcg-share: runs" [ "$rc" -eq 0 ]
check "--memcg-share: the target's share of the LRU folios" \
	sh -c "n=\$(sed -n 's/^memcg: the target holds \\([0-9]*\\) of 20000 LRU folios (--memcg-share=0.25).*/\\1/p' '$tmp/out');
		[ -n \"\$n\" ] && [ \$n -gt 4000 ] && [ \$n -lt 6000 ]"
check "--memcg-share: every walk sums the target's folios only" totals_exact
run -c 0.02 -s 9 -r 1 -vvv -t 2 --memcg-share=0.5 --access=isolate --lists=3 --phys=jump --folio-order=2
check "--memcg-share with threads, isolation, lists, large folios: checked" totals_exact
bad "--memcg-share=0" -c 0.01 --memcg-share=0
bad "--memcg-share=1.5" -c 0.01 --memcg-share=1.5
bad "--memcg-share with --struct-page=8" -c 0.01 --memcg-share=0.5 --struct-page=8
