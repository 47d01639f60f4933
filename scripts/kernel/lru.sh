# shellcheck shell=sh disable=SC2034,SC2154 # kernel.sh sources this: its variables are shared
# kernel/lru.sh - the working set and the LRU scanner.  Sourced by
# kernel.sh.
#
# Writes the working set (SIZE of page cache in order-0 folios, in the
# cgroup, on the one CPU), tracing the order its folios enter the LRU
# (pagemap:mm_lru_insertion), and snapshots the memmap's flags; then
# squeezes the cgroup until half of it is reclaimed, tracing reclaim.
# Times (kernel.awk, from that trace) reclaim's isolation,
# isolate_lru_folios() in mm/vmscan.c: each batch from the
# vmscan:mm_vmscan_lru_shrink_inactive that ends the batch before it to
# its own vmscan:mm_vmscan_lru_isolate, over the folios it isolated.
# Leaves as it found: its files are in the scratch directory and its
# pages in the cgroup, both removed by undo (state.sh); the tracepoints
# are the instance's own.

# lru_here: $lru_path and $lru_words, the LRU this kernel reclaims from.
lru_here() {
	if [ "$(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo 0x0000)" = 0x0000 ]; then
		lru_path="classic"
		lru_words="the classic LRU lists"
	else
		lru_path="mglru"
		lru_words="MGLRU (lru_gen enabled: scan_folios())"
	fi
}

# lru_fill: the working set written in the cgroup, its LRU order traced
# into $tmp/lru-order, the snapshot "before", $ino (the cgroup's) and
# working_set's figures of it; stops where its folios are not order 0.
lru_fill() {
	events 1 pagemap/mm_lru_insertion sched/sched_switch
	in_cgroup dd if=/dev/zero of="$work/working-set" bs=4096 count="$pages" conv=fsync status=none ||
		fail "cannot write the working set in $work: $(why "$tmp/cmd.err")"
	events 0 pagemap/mm_lru_insertion
	take insert
	sed -n "s/.*-$ran  *\\[[0-9]*\\] .* mm_lru_insertion: .* pfn=\\(0x[0-9a-f]*\\) .*/\\1/p" "$tmp/insert.txt" >"$tmp/lru-order" ||
		tmp_fail "the LRU order"
	snapshot before
	ino=$(stat -c %i -- "$cg")
	working_set before "$ino"
	[ "$folios" -gt 0 ] || fail "no LRU folio of the working set in /proc/kpageflags"
	[ "$large" -eq 0 ] ||
		fail "the working set came out in large folios ($large of $folios folios): per-folio figures need order 0"
	say_line "$me: the working set: $order0 order-0 folios on the LRU (kpageflags), pfns $lo to $hi"
}

# lru_reclaim [NAME]: half the working set reclaimed from the cgroup,
# traced into $tmp/NAME.txt and .raw (NAME: reclaim).
lru_reclaim() {
	reclaim_events="vmscan/mm_vmscan_lru_isolate vmscan/mm_vmscan_lru_shrink_inactive
		vmscan/mm_vmscan_lru_shrink_active vmscan/mm_vmscan_memcg_reclaim_begin
		vmscan/mm_vmscan_memcg_reclaim_end vmscan/mm_shrink_slab_start
		vmscan/mm_shrink_slab_end vmscan/mm_vmscan_throttled"
	# shellcheck disable=SC2086 # a list of events
	events 1 $reclaim_events
	if [ "$cgv" = 2 ]; then
		# memory.reclaim stops short with EAGAIN when it cannot reach the
		# amount; what it did is in the trace
		# shellcheck disable=SC2016 # the inner shell's
		in_cgroup sh -c 'echo "$1" >"$2/memory.reclaim"' sh "$((size / 2))" "$cg" || true
	else
		# read over the limit: each charge reclaims from the cgroup alone
		used=$(cat "$cg/memory.usage_in_bytes")
		put $((used + 16 * mib)) "$cg/memory.limit_in_bytes"
		truncate -s $((size / 2 + 16 * mib)) "$work/pressure" 2>"$tmp/cmd.err" ||
			fail "cannot make $work/pressure: $(why "$tmp/cmd.err")"
		in_cgroup cat "$work/pressure" ||
			fail "cannot read $work/pressure in the cgroup: $(why "$tmp/cmd.err")"
		rm -f "$work/pressure"
	fi
	# shellcheck disable=SC2086
	events 0 $reclaim_events
	take "${1:-reclaim}"
}

# lru_batches: the LRU scanner's batches kernel.awk times in the reclaim
# traced so far.
lru_batches() {
	raw=$tmp/reclaim.raw scanner=lru run_awk "$kernel_awk" "$tmp/reclaim.txt" >"$tmp/lru-figures" ||
		{ scratch_ok; fail "cannot read the trace of reclaim"; }
	lb=$(sed -n 's/^lru_events //p' "$tmp/lru-figures")
	echo "${lb:-0}"
}

# lru_more: where the first fill gave fewer than $min_events batches of
# the LRU scanner (a small SIZE: half of 64 MiB is 256 batches of 32 at
# most, 128 of MGLRU's 64), the working set written afresh the same way
# and half reclaimed again, up to $max_fills fills in all, each fill's
# reclaim appended to $tmp/reclaim.txt and .raw.  After the pfn
# scanner, which walks what the first fill left; the model replays the
# first fill's LRU order (each fill is written alike, by one dd on the
# one CPU into the same cgroup).  $fills: how many.
lru_more() {
	fills=1
	lm_n=$(lru_batches)
	while [ "$lm_n" -lt "$min_events" ] && [ "$fills" -lt "$max_fills" ]; do
		rm -f "$work/working-set"
		in_cgroup dd if=/dev/zero of="$work/working-set" bs=4096 count="$pages" conv=fsync status=none ||
			fail "cannot write the working set again in $work: $(why "$tmp/cmd.err")"
		lru_reclaim more
		{ cat "$tmp/more.txt" >>"$tmp/reclaim.txt" && cat "$tmp/more.raw" >>"$tmp/reclaim.raw"; } 2>/dev/null ||
			tmp_fail "the trace of reclaim"
		rm -f "$tmp/more.txt" "$tmp/more.raw"
		fills=$((fills + 1))
		lm_n=$(lru_batches)
	done
	[ "$fills" -eq 1 ] ||
		say_line "$me: the LRU scanner timed over $fills fills of the working set, each written afresh and half reclaimed: $lm_n batches, $min_events wanted"
	[ "$lm_n" -ge "$min_events" ] ||
		say_line "$me: too few LRU batches at this size: -m $(lru_size_for "$lm_n") will do"
}

# lru_size_for BATCHES: the -m (64M steps) whose $max_fills fills would
# give $min_events batches at the rate these $fills fills of SIZE gave.
lru_size_for() {
	ls_m=$(((min_events * fills * (size / mib) + max_fills * $1 - 1) / (max_fills * ($1 > 0 ? $1 : 1))))
	ls_m=$(((ls_m + 63) / 64 * 64))
	[ "$ls_m" -gt $((size / mib)) ] || ls_m=$((size / mib + 64))
	echo "${ls_m}M"
}
