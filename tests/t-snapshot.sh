#!/bin/sh
# snapshot.sh: saving /proc/kpageflags (and kpagecgroup) for replay, and
# --summary, the composition of such a file.
. tests/lib.sh

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
