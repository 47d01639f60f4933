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

# what cannot be right is refused: one line, and no directory made
snap=scripts/snapshot.sh
mkdir "$tmp/cwd"
for p in abc 1: 1 :5 0:0 01:5 1:1234567890123456; do
	check "snapshot -p $p: usage error" refused 2 $snap -o "$tmp/snap-bad" -p "$p"
done
(cd "$tmp/cwd" && sh "$OLDPWD/$snap" -p abc) 2>/dev/null
check "snapshot -p abc: no directory left behind" \
	sh -c "[ ! -e '$tmp/snap-bad' ] && [ -z \"\$(ls '$tmp/cwd')\" ]"
check "snapshot --bogus: usage error" refused 2 $snap --bogus
check "snapshot --summary with no file: usage error" refused 2 $snap --summary
head -c 7 "$tmp/kpf" >"$tmp/kpf7"
check "snapshot --summary: 7 bytes are no pfn, exit 1" refused 1 $snap --summary "$tmp/kpf7"
: >"$tmp/kpf0"
check "snapshot --summary: an empty file, exit 1" refused 1 $snap --summary "$tmp/kpf0"
head -c 64 "$tmp/kcg" >"$tmp/kcg-short"
check "snapshot --summary: a kpagecgroup shorter than its kpageflags, exit 1" \
	refused 1 $snap --summary "$tmp/kpf" "$tmp/kcg-short"
check "snapshot --summary: says which pfns differ" err_has 'holds 8 pfns and .* 9: not the same pfns$'
check "snapshot --summary /dev/zero: refused, not read forever" \
	refused 1 $snap --summary /dev/zero

# a live snapshot, where root may read /proc/kpageflags
if [ "$(id -u)" -eq 0 ] && [ -r /proc/kpageflags ] && head -c 8 /proc/kpageflags >/dev/null 2>&1; then
	run_cmd $snap -o "$tmp/live" -p 0:16
	check "snapshot -p 0:16: exit 0, 16 pfns saved, the facts" \
		sh -c "[ $rc -eq 0 ] && [ \$(wc -c <'$tmp/live/kpageflags') -eq 128 ] &&
			grep -qx 'pfns 0:16' '$tmp/live/facts'"
	check "snapshot -p 0:16: its composition counts 16 pfns" out_has '^pfns 16$'
	check "snapshot: nothing beside DIR" sh -c "[ -z \"\$(ls -d '$tmp/live'.* 2>/dev/null)\" ]"
	check "snapshot -o an existing DIR: exit 1, DIR untouched" \
		sh -c "! sh $snap -o '$tmp/live' -p 0:1 2>/dev/null &&
			[ \$(wc -c <'$tmp/live/kpageflags') -eq 128 ]"
	check "snapshot -p 99999999999:10: pfns this machine lacks, exit 1" \
		refused 1 $snap -o "$tmp/beyond" -p 99999999999:10
	check "snapshot -p beyond the end: no directory left" \
		sh -c "[ -z \"\$(ls -d '$tmp/beyond'* 2>/dev/null)\" ]"
	# a full disk: a 64 KiB tmpfs takes the facts but not the whole file
	mkdir "$tmp/full"
	if mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null; then
		check "snapshot -o on a full disk: exit 1, one line" refused 1 $snap -o "$tmp/full/s"
		check "snapshot -o on a full disk: says why" err_has 'No space left on device'
		check "snapshot -o on a full disk: nothing left on it" \
			sh -c "[ -z \"\$(ls -A '$tmp/full')\" ]"
		umount "$tmp/full"
	else
		skip "snapshot on a full disk" "cannot mount a tmpfs"
	fi
else
	skip "snapshot: a live snapshot" "not root, or no /proc/kpageflags"
fi

# probes: a huge sparse file is refused at once, not read for hours; a
# full or closed stdout exits 1 with a line, not the shell's printf error
head -c 80 /dev/zero >"$tmp/p.k80"
scripts/snapshot.sh --summary "$tmp/p.k80" >/dev/full 2>"$tmp/p.err"
check "snapshot --summary: stdout full, exit 1, one line" \
	sh -c "[ $? -eq 1 ] && [ \$(wc -l <'$tmp/p.err') -eq 1 ] && grep -q 'cannot write the summary' '$tmp/p.err'"
if truncate -s 1T "$tmp/p.sparse" 2>/dev/null; then
	timeout 10 scripts/snapshot.sh --summary "$tmp/p.sparse" >/dev/null 2>"$tmp/p.err"
	check "snapshot --summary: a 1 TiB sparse file refused at once" \
		sh -c "[ $? -eq 1 ] && grep -q 'over the 16 GiB' '$tmp/p.err'"
	rm -f "$tmp/p.sparse"
else
	skip "snapshot --summary: a 1 TiB sparse file refused at once" "no sparse files here"
fi
