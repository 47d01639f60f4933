#!/bin/sh
# kernel.sh: the kernel's own scanners timed from a trace.  The parsing
# of a recorded excerpt into the figures a hand computation gives; the
# refusals; the cleanup after a signal, where root, tracefs and a memory
# cgroup allow it.
. tests/lib.sh
# kernel.awk and its pfn scanners' parsers, as kernel.sh reads them
# (its $kernel_awk): words for awk's command line
kawk="-f scripts/kernel.awk -f scripts/kernel-offline.awk"
kawk="$kawk -f scripts/kernel-compaction.awk -f scripts/kernel-damon.awk"

# kernel.trace (tests/kernel-trace.txt, with its raw twin .raw): 76
# events recorded on Linux 6.18 (x86-64, cgroup v1) by kernel.sh -k, a
# piece of reclaim and a piece of compaction, and 3 from another run
# where a zone's compaction ended early (mm_migrate_pages,
# mm_compaction_migratepages, mm_compaction_end status=contended at
# migrate_pfn=0x109840 = 1087552).  By hand, from the raw
# timestamps (ns):
#   LRU scanner: four batches of 32 follow an mm_vmscan_lru_shrink_inactive
#   directly: 350739-341902 = 8837, 385946-378191 = 7755,
#   404862-395394 = 9468, 424119-414400 = 9719 ns; over 32 folios
#   242.34, 276.16, 295.88, 303.72; median (276.15625 + 295.875) / 2 =
#   286.0156 (quartiles, interpolated: 267.70 and 297.84); 128 folios.
#   Left out: the batches after a reclaim call's start (event 2) or a
#   slab shrink (6, 14), and the partial batches of 1 and 3 (10, 22): 5.
#   pfn scanner: the two ranges that took folios follow
#   mm_compaction_finished: 112436-102497 = 9939 ns over 0x101c32-0x101c00
#   = 50 pfns, 198.78; 309761-270677 = 39084 ns over 0x101e00-0x101c32 =
#   462 pfns, 84.60; median 141.69, 512 pfns, 400 pages taken.  Of the
#   13 others, 12 are timed (one starts at 0x101400, not at 0x101200
#   where the one before ended: left out); the middle two of the 14
#   timed are 2114 and 2164 ns over 512 pfns: (4.1289 + 4.2266) / 2 =
#   4.1777.
figures() {	# figures AWK: the raw twin named in ENVIRON, as kernel.sh does
	# shellcheck disable=SC2086 # AWK may be a command and its argument
	raw=tests/kernel-trace.raw $1 -f scripts/lib.awk -f scripts/stats.awk $kawk \
		tests/kernel-trace.txt >"$tmp/figures" 2>"$tmp/err"
}
is() {	# is KEY VALUE: the figure, to 2 decimals
	got=$(awk -v k="$1" '$1 == k { printf "%.2f", $2 }' "$tmp/figures")
	[ "$got" = "$2" ] || { echo "#   $1: $got, want $2"; return 1; }
}
# the awks here, a line each, read on fd 3 by each loop below
awks=$(for a in awk mawk gawk "busybox awk"; do
	have "${a%% *}" || continue
	[ "$a" != "busybox awk" ] || busybox awk 'BEGIN { }' 2>/dev/null || continue
	echo "$a"
done)
while IFS= read -r a <&3; do
	check "kernel.awk ($a): reads the recorded excerpt" figures "$a"
	check "kernel.awk ($a): LRU scanner 286.02 ns/folio, 4 batches, 128 folios, 5 left out" \
		eval 'is lru_median 286.02 && is lru_events 4.00 && is lru_folios 128.00 &&
			is lru_left_out 5.00 && is lru_q1 267.70 && is lru_q3 297.84'
	check "kernel.awk ($a): pfn scanner 141.69 ns/pfn over 2 ranges that took 400 of 512 pfns" \
		eval 'is pfn_median 141.69 && is pfn_events 2.00 && is pfn_pfns 512.00 && is pfn_taken 400.00'
	check "kernel.awk ($a): every timed range: 14, median 4.18 ns/pfn, 1 left out" \
		eval 'is pfn_all_events 14.00 && is pfn_all_median 4.18 && is pfn_all_pfns 6656.00 &&
			is pfn_left_out 1.00'
	check "kernel.awk ($a): one zone's compaction ended early, at pfn 0x109840" \
		eval 'is pfn_ended_early 1.00 && is pfn_stop 1087552.00'
	check "kernel.awk ($a): the ranges that took folios, merged: 0x101c00 to 0x101e00" \
		grep -qx 'took 1055744 1056256' "$tmp/figures"
done 3<<EOF
$awks
EOF

# kernel-offline.trace (tests/kernel-offline.txt, .raw): 93 events
# recorded on Linux 6.18 (x86-64) by kernel.sh -k with --scanner=offline:
# two blocks taken offline (98304, 131072), the marker of one that
# refused (1048576: no event after it), and a third block made by hand
# from 131072's events (229376: its pids and pfns changed, and an R+
# switch-out of the task inserted 0.7 ms before mm_migrate_pages_start,
# back 0.1 ms later).  LRU folios from kernel-offline.folios.  By hand,
# from the raw timestamps (ns): the walk runs from the task's last
# wakeup after a sleep (a switch-in after a D switch-out) to
# mm_migrate_pages_start:
#   98304: 886532929817 - 886530050614 = 2879203 ns over 32768 pfns,
#   87.87 ns/pfn; over 27152 folios 106.04; the emptied block's walk
#   886638521446 - 886638375990 = 145456 ns, 4.44 ns/pfn; 27648 moved.
#   131072: 887296178934 - 887294943975 = 1234959 ns, 37.69 ns/pfn; over
#   16896 folios 73.09; floor 887333396403 - 887333281375 = 115028 ns,
#   3.51 ns/pfn; 32768 moved.
#   229376: preempted (prev_state=R+) inside its walk: left out.
# Medians of two: 62.78 ns/pfn (quartiles 50.23, 75.32), 89.57 ns/folio,
# floor 3.97; 65536 pfns, 44048 folios, 60416 pages moved.
offline_figures() {
	# shellcheck disable=SC2086 # AWK may be a command and its argument
	raw=tests/kernel-offline.raw scanner=offline block_folios=tests/kernel-offline.folios \
		$1 -f scripts/lib.awk -f scripts/stats.awk $kawk \
		tests/kernel-offline.txt >"$tmp/figures" 2>"$tmp/err"
}
while IFS= read -r a <&3; do
	check "kernel.awk offline ($a): reads the recorded excerpt" offline_figures "$a"
	check "kernel.awk offline ($a): 62.78 ns/pfn over 2 blocks, quartiles 50.23 and 75.32" \
		eval 'is pfn_events 2.00 && is pfn_median 62.78 && is pfn_q1 50.23 && is pfn_q3 75.32'
	check "kernel.awk offline ($a): 89.57 ns per LRU folio, 44048 folios over 65536 pfns" \
		eval 'is pfn_folio_median 89.57 && is pfn_taken 44048.00 && is pfn_pfns 65536.00'
	check "kernel.awk offline ($a): the emptied blocks' walk 3.97 ns/pfn, 60416 pages moved" \
		eval 'is pfn_floor_median 3.97 && is pfn_moved 60416.00'
	check "kernel.awk offline ($a): the preempted block left out, none empty" \
		eval 'is pfn_left_out 1.00 && is pfn_empty 0.00'
	check "kernel.awk offline ($a): the two blocks as one range to replay" \
		grep -qx 'took 98304 163840' "$tmp/figures"
	check "kernel.awk offline ($a): each block timed, its ns/pfn, in the order timed" \
		eval "sed -n 's/^each //p' '$tmp/figures' | awk '{ printf \"%s %s %.2f\\n\", \$1, \$2, \$3 }' |
			tr '\\n' ' ' | grep -qx '98304 131072 87.87 131072 163840 37.69 '"
done 3<<EOF
$awks
EOF

# report_from SCANNER VAR=VALUE...: reclaim's excerpt and SCANNER's
# (tests/kernel-SCANNER.*, or tests/kernel-$fixture.*) through kernel.awk, then kernel-report.awk
# with a model of 10.5 ns/page and 21 ns/folio, into $tmp/report and
# $tmp/out.csv; the VARs go to both (the two read different ones).
report_from() {
	sc=$1
	shift
	# shellcheck disable=SC2086 # $kawk: awk's -f words
	cat tests/kernel-trace.txt "tests/kernel-${fixture:-$sc}.txt" >"$tmp/both.txt" &&
	cat tests/kernel-trace.raw "tests/kernel-${fixture:-$sc}.raw" >"$tmp/both.raw" &&
	env raw="$tmp/both.raw" scanner="$sc" "$@" \
		awk -f scripts/lib.awk -f scripts/stats.awk $kawk "$tmp/both.txt" >"$tmp/figures" &&
	printf 'walk,ns_per_page,ns_per_folio,kernel,host_id,version\nphysical,10.5,,L,h,v\nlist,21,21,L,h,v\n' \
		>"$tmp/model.csv" &&
	env model_lru="$tmp/model.csv" model_pfn="$tmp/model.csv" csv_out="$tmp/out.csv" \
		kind=took min_events=1 min_pfn=1 size=536870912 cgv=1 lru_path=classic scanner="$sc" \
		lru_words=classic load_before=0.1 load_after=0.2 overrun=0 cpus=2 "$@" \
		awk -f scripts/lib.awk -f scripts/stats.awk -f scripts/kernel-report.awk "$tmp/figures" >"$tmp/report"
}

# The report from reclaim's batches and the offline blocks: the ratio is
# 286.0156 x 44048 / 65536 / 62.7771 = 3.06, its interval the LRU
# scanner's quartiles over the pfn scanner's: 267.7031 x 0.6721 /
# 75.3217 = 2.39 to 297.8359 x 0.6721 / 50.2325 = 3.99.
report_offline() {
	printf '98304 131072 87.8663 29.2888\n131072 163840 37.688 18.844\n' >"$tmp/each-model" &&
	report_from offline block_folios=tests/kernel-offline.folios each_model="$tmp/each-model" \
		refused=1 tried=4
}
check "kernel-report.awk offline: reads both excerpts" report_offline
check "kernel-report.awk offline: the ratio 3.1 (2.4 to 4.0) in the digits its interval supports, the scanner named" \
	grep -q '^Kernel: physical scan is 3.1 faster than ListLRU (2.4 to 4.0, .*pfn scanner: offline)$' "$tmp/report"
check "kernel-report.awk offline: 89.57 ns per LRU folio, the floor 3.97, 1 of 4 blocks refused" \
	eval "grep -q '89.57 ns per LRU folio isolated' '$tmp/report' && grep -q 'emptied: 3.97 ns/pfn' '$tmp/report' &&
		grep -q '1 of 4 blocks did not go offline' '$tmp/report'"
# kernel/model Physical: each block's own quotient, 87.8663 / 29.2888 = 3
# and 37.688 / 18.844 = 2, their median 2.50 (quartiles 2.25, 2.75);
# all together 62.7771 / 10.5 = 5.98.
check "kernel-report.awk offline: kernel/model Physical 2.50, the median of each block's own, 5.98 all together" \
	grep -q '^kernel/model: Physical 2.50 (median over 2 blocks, each replayed alone; IQR 2.25-2.75; all together 5.98), ListLRU 13.62, ratio ' "$tmp/report"
check "kernel-report.awk offline: the CSV's scanner column says offline on every row" \
	sh -c "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"scanner\") c = i; next }
		\$c != \"offline\" { bad = 1 } END { exit bad || !c || NR != 5 }' '$tmp/out.csv'"
# the kernel's physical row gives the ns per LRU folio isolated that
# stdout prints (89.57 above), in its ns_per_folio column
physical_folio() {	# physical_folio WANT: that cell of $tmp/out.csv, to 2 decimals, is WANT
	got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ns_per_folio") c = i; next }
		$1 == "kernel" && $2 == "physical" && c && $c != "" { printf "%.2f", $c }' "$tmp/out.csv")
	[ "$got" = "$1" ] || { echo "#   ns_per_folio '$got', want $1"; return 1; }
}
check "kernel-report.awk offline: the CSV's kernel physical row has ns_per_folio 89.57, as stdout" physical_folio 89.57
# The LRU scanner short of its batches: "not measured", and no
# kernel/model quotient for it (the Physical one stays).
check "kernel-report.awk: an LRU scanner not measured has no kernel/model figure" \
	eval "report_from offline block_folios=tests/kernel-offline.folios min_events=100000 refused=1 tried=4 &&
		grep -q '^LRU scanner: not measured: ' '$tmp/report' &&
		grep -q '^kernel/model: Physical [0-9.]*; no kernel ratio: too few LRU batches\$' '$tmp/report' &&
		! grep -q 'ListLRU (kernel)' '$tmp/out.csv'"

# kernel-damon.trace (tests/kernel-damon.txt, .raw): 23 events WRITTEN
# BY HAND, not recorded: the hosts this was written on run a kdamond of
# another's, which scan-kernel never touches, so it could not start its
# own.  Each line follows the event's print format in
# /sys/kernel/tracing/events/*/format on Linux 6.18 (damos_before_apply:
# "ctx_idx= scheme_idx= target_idx= nr_regions= START-END: NR_ACCESSES
# AGE", bytes), the raw twin "PID CPU NS type: ID".  kdamond.0-2301
# applies pageout to 4 regions of 4096 pfns (A from pfn 1048576, B, C,
# D), then walks them again emptied.  By hand:
#   A: before_apply 2000000000000, its first folio dropped 245760 ns
#   later (kswapd0's drop at 100000 is another task's): 60 ns/pfn;
#   reclaim_pages nr_scanned=3072: 80 ns/folio.  B: preempted (R+)
#   inside its walk: left out.  C: 204800 ns, 50 ns/pfn; 2560 folios,
#   80.  D: 286720 ns, 70 ns/pfn; 4096 folios, 70; 4000 reclaimed.
#   Medians: 60 ns/pfn (quartiles 55, 65), 80 ns/folio; 12288 pfns,
#   9728 folios, 9632 pages reclaimed.  Second pass: A to B 12288 ns, 3
#   ns/pfn; B to C 16384, 4; C to D 10240, 2.5: floor 3 (2.75, 3.5) over
#   3 regions; D ends in a sleep: left out (2 in all).  Ranges: A, and
#   C with D.
damon_figures() {
	# shellcheck disable=SC2086 # AWK may be a command and its argument
	raw=tests/kernel-damon.raw scanner=damon $1 -f scripts/lib.awk -f scripts/stats.awk \
		$kawk tests/kernel-damon.txt >"$tmp/figures" 2>"$tmp/err"
}
while IFS= read -r a <&3; do
	check "kernel.awk damon ($a): reads the hand-written excerpt" damon_figures "$a"
	check "kernel.awk damon ($a): 60 ns/pfn over 3 regions, quartiles 55 and 65" \
		eval 'is pfn_events 3.00 && is pfn_median 60.00 && is pfn_q1 55.00 && is pfn_q3 65.00'
	check "kernel.awk damon ($a): 80 ns per LRU folio, 9728 folios over 12288 pfns, 9632 reclaimed" \
		eval 'is pfn_folio_median 80.00 && is pfn_folio_q1 75.00 && is pfn_taken 9728.00 &&
			is pfn_pfns 12288.00 && is pfn_moved 9632.00'
	check "kernel.awk damon ($a): the emptied regions' walk 3 ns/pfn over 3, 2 left out" \
		eval 'is pfn_floor_median 3.00 && is pfn_floor_q1 2.75 && is pfn_floor_events 3.00 &&
			is pfn_left_out 2.00'
	check "kernel.awk damon ($a): each region timed: A, C, D" \
		eval "sed -n 's/^each //p' '$tmp/figures' | tr '\\n' ' ' |
			grep -qx '1048576 1052672 60 1056768 1060864 50 1060864 1064960 70 '"
	check "kernel.awk damon ($a): regions A, and C with D, to replay" \
		eval "grep -qx 'took 1048576 1052672' '$tmp/figures' && grep -qx 'took 1056768 1064960' '$tmp/figures'"
done 3<<EOF
$awks
EOF

# The report from reclaim's excerpt and DAMON's: 286.0156 x 9728 /
# 12288 / 60 = 3.77, from 267.7031 x 0.7917 / 65 = 3.26 to 297.8359 x
# 0.7917 / 55 = 4.29.
report_damon() {
	report_from damon refused=0 tried=8
}
check "kernel-report.awk damon: reads both excerpts" report_damon
check "kernel-report.awk damon: the ratio 3.8 (3.3 to 4.3), the scanner named" \
	grep -q '^Kernel: physical scan is 3.8 faster than ListLRU (3.3 to 4.3, .*pfn scanner: damon)$' "$tmp/report"
check "kernel-report.awk damon: 80 ns per LRU folio, the floor 3 over 3 regions, 8 tried" \
	eval "grep -q '80.00 ns per LRU folio isolated' '$tmp/report' && grep -q 'folios: 3.00 ns/pfn (median; IQR 2.75-3.50, 3 regions)' '$tmp/report' &&
		grep -q '8 regions tried, 2 left out' '$tmp/report' && grep -q \"DAMON's paddr walk\" '$tmp/report'"
check "kernel-report.awk damon: the CSV's scanner column says damon on every row" \
	sh -c "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"scanner\") c = i; next }
		\$c != \"damon\" { bad = 1 } END { exit bad || !c || NR != 5 }' '$tmp/out.csv'"
check "kernel-report.awk damon: the CSV's kernel physical row has ns_per_folio 80.00, as stdout" physical_folio 80.00
check "kernel-report.awk damon: a region's folios from reclaim_pages's nr_scanned, said" \
	grep -q "^  a region's folios: vmscan:mm_vmscan_reclaim_pages's nr_scanned\$" "$tmp/report"

# kernel-damon612.trace (tests/kernel-damon612.txt, .raw): an excerpt of
# a trace recorded by kernel.sh -k --scanner=damon -m 64M on Debian's
# Linux 6.12.118 under qemu (TCG, scan-vm), where DAMOS filters have no
# 'allow' and there is no vmscan:mm_vmscan_reclaim_pages: one memcg
# filter (matching=N), pageout's own young filter after it.  Kept: all
# 45 damos_before_apply of kdamond.0-264 (9 regions of 1024 pfns from
# pfn 40960, 5 passes), the first two of its sched_switch lines in each
# region, and of its filemap:mm_filemap_delete_from_page_cache lines in
# each region the first 3 and the last (72 of the run's 8192 drops, so
# that the per-folio figures are the excerpt's; the run's were 849 ns a
# folio, 8031 folios, DAMOS's stats 36 tried, 18 applied, 8192 pages,
# the trace's count over them the same).  By hand, from the raw ns:
#   pass 1 (each region's first: marks the cgroup's folios old, drops
#   the few already old): to its first drop, 993091, 241458, 226780,
#   255574, 230727, 227050, 226560, 243070, 4795321 ns over 1024 pfns:
#   median 235.80 ns/pfn (quartiles 221.73, 249.58); 35 drops kept.
#   pass 2 (takes them): 1078683, 852725, 938498, 771411, 837816,
#   1067502, 727117, 759859 (its R+ switch-out comes after its first
#   drop) and 210850 ns: median 818.18 ns/pfn (742.05, 916.50); 37
#   drops kept over 9216 pfns.
#   passes 3 to 5 (emptied): 24 regions to the next damos_before_apply,
#   median 73.07 ns/pfn; the last region of each ends in a sleep (an I
#   switch-out): 3 left out.
#   DAMOS's 36 tries: passes 1 to 4, 72 drops kept, 18 regions with any.
damon612_figures() {
	# shellcheck disable=SC2086 # AWK may be a command and its argument
	raw=tests/kernel-damon612.raw scanner=damon damon_count=deletes damon_marks=1 damos_tried=36 \
		$1 -f scripts/lib.awk -f scripts/stats.awk $kawk tests/kernel-damon612.txt >"$tmp/figures" 2>"$tmp/err"
}
while IFS= read -r a <&3; do
	check "kernel.awk damon 6.12 ($a): reads the recorded excerpt" damon612_figures "$a"
	check "kernel.awk damon 6.12 ($a): the second passes timed, 818.18 ns/pfn over 9 regions, quartiles 742.05 and 916.50" \
		eval 'is pfn_events 9.00 && is pfn_median 818.18 && is pfn_q1 742.05 && is pfn_q3 916.50 && is pfn_pfns 9216.00'
	check "kernel.awk damon 6.12 ($a): the first passes only mark folios old: timed apart, 235.80 ns/pfn over 9, 35 drops" \
		eval 'is pfn_mark_events 9.00 && is pfn_mark_median 235.80 && is pfn_mark_q1 221.73 && is pfn_mark_q3 249.58 &&
			is pfn_mark_taken 35.00'
	check "kernel.awk damon 6.12 ($a): a region's folios are the kdamond's drops: 37, 37 reclaimed" \
		eval 'is pfn_taken 37.00 && is pfn_moved 37.00'
	check "kernel.awk damon 6.12 ($a): the emptied regions' walk 73.07 ns/pfn over 24, 3 left out" \
		eval 'is pfn_floor_events 24.00 && is pfn_floor_median 73.07 && is pfn_left_out 3.00'
	check "kernel.awk damon 6.12 ($a): over DAMOS's 36 tries, 72 folios dropped by 18 regions" \
		eval 'is pfn_check_tries 36.00 && is pfn_check_folios 72.00 && is pfn_check_applied 18.00'
	check "kernel.awk damon 6.12 ($a): the 9 regions, their ns/pfn, one range to replay" \
		eval "[ \"\$(sed -n 's/^each //p' '$tmp/figures' | awk '{ printf \"%s-%s %.1f \", \$1, \$2, \$3 }')\" = \\
			'40960-41984 1053.4 41984-43008 832.7 43008-44032 916.5 44032-45056 753.3 45056-46080 818.2 46080-47104 1042.5 47104-48128 710.1 48128-49152 742.0 49152-50176 205.9 ' ] &&
			grep -qx 'took 40960 50176' '$tmp/figures'"
done 3<<EOF
$awks
EOF
# The report's DAMON lines: the first passes, the count used, and DAMOS's
# stats beside the trace's: as the excerpt's own count (agree), and as
# the run's (8192 pages: differ, the excerpt keeps 72 drops).
report_damon612() {	# report_damon612 PAGES: with DAMOS's stats of 36 tries, 18 applied, PAGES
	fixture=damon612 report_from damon refused=0 tried=36 damon_count=deletes damon_marks=1 damos_tried=36 \
		damos_applied=18 damos_sz_applied=$(($1 * 4096))
}
check "kernel-report.awk damon 6.12: reads both excerpts" report_damon612 72
check "kernel-report.awk damon 6.12: the first passes' line, timed apart, neither a figure nor the floor" \
	grep -q "^  first pass over each region: 235.80 ns/pfn (median; IQR 221.73-249.58, 9 regions), marking the cgroup's folios old (pageout's young filter: DAMOS filters here have no 'allow'), 35 folios isolated that were old already: neither a figure nor the floor\$" "$tmp/report"
check "kernel-report.awk damon 6.12: says a region's folios are the kdamond's drops" \
	grep -q "^  a region's folios: the kdamond's filemap:mm_filemap_delete_from_page_cache events (this kernel has no vmscan:mm_vmscan_reclaim_pages)\$" "$tmp/report"
check "kernel-report.awk damon 6.12: DAMOS's stats and the trace's count agree" \
	grep -q '^  DAMOS stats: 36 regions tried, 18 applied, 72 pages reclaimed; the trace: 36 regions, 18 that freed folios, 72 folios freed: they agree$' "$tmp/report"
check "kernel-report.awk damon 6.12: 9 regions timed, 24 floors, 36 tried" \
	eval "grep -q '^pfn scanner: 818.18 ns/pfn (median over DAMON.s regions; .* over 9 regions, 9216 pfns .*; 36 regions tried, 3 left out' '$tmp/report' &&
		grep -q 'folios: 73.07 ns/pfn (median; IQR .*, 24 regions), the walk.s floor' '$tmp/report'"
report_damon612 8192
check "kernel-report.awk damon 6.12: DAMOS's stats and the trace's count differ: said" \
	grep -q '^  DAMOS stats: 36 regions tried, 18 applied, 8192 pages reclaimed; the trace: 36 regions, 18 that freed folios, 72 folios freed: they differ$' "$tmp/report"
report_damon	# the scanners' CSV below: the hand-written excerpt's

# The aging walk's rows of the CSV: lru-aging.awk with csv_run (the
# scanners' CSV, damon's above) and csv_out, as kernel.sh's aging_report
# runs it, on the aging walk's fixture path (t-pagetable's): memcg 42's
# counts in tests/lru-gen-full.txt before a walk at generation 6 and in
# tests/lru-gen-aged.txt after it, both written by hand from the
# documented format (no host here has CONFIG_LRU_GEN), through
# lru-gen.awk and step=walk three times, with dd's times 198162, 150000
# and 250000 ns and dd's own 18, 20 and 22 us.  By hand: each walk read
# 131590 - 65536 = 66054 PTEs, 13150 - 6554 = 6596 of them young; less
# the median floor, 20000 ns, the walks took 178162, 130000 and 230000
# ns, whose median, 178162, is 2.6972 ns per PTE read and 27.0106 per
# young one; 6596 / 66054 = 0.099858 young.  The model: 253280 ns over
# 65536 PTEs and 6410 young folios, 3.8647 and 39.5133, 0.097809 young.
# The columns from scanner on are the scanners' CSV's first row's.
cp "$tmp/out.csv" "$tmp/scanners.csv"
awk -v memcg=42 -f scripts/lru-gen.awk tests/lru-gen-full.txt >"$tmp/gen-before"
awk -v memcg=42 -f scripts/lru-gen.awk tests/lru-gen-aged.txt >"$tmp/gen-after"
aging_walks() {	# aging_walks AWK: three walks' lines and dd's floors in $tmp/walks
	: >"$tmp/walks"
	for w in 0.000198162:1.8e-05 0.000150000:2.0e-05 0.000250000:2.2e-05; do
		printf '20 bytes copied, %s s, 101 kB/s\n' "${w%:*}" >"$tmp/dd"
		# shellcheck disable=SC2086 # AWK may be a command and its argument
		$1 -f scripts/lib.awk -f scripts/stats.awk -f scripts/lru-aging.awk -v step=walk -v node=0 -v gen=6 \
			-v touched=6554 "$tmp/gen-before" "$tmp/gen-after" "$tmp/dd" >>"$tmp/walks" || return 1
		echo "floor ${w#*:}" >>"$tmp/walks"
	done
}
aging_rows() {	# aging_rows AWK WALKS VAR=VALUE...: the report's rows in $tmp/rows
	a_awk=$1 a_walks=$2
	shift 2
	: >"$tmp/rows"
	# shellcheck disable=SC2086 # AWK may be a command and its argument
	$a_awk -f scripts/lib.awk -f scripts/stats.awk -f scripts/lru-aging.awk -v step=report -v node=0 \
		-v share=0.1 -v bytes=268435456 -v model_access=read -v model_folios=0:100 \
		-v csv_run="$tmp/scanners.csv" -v csv_out="$tmp/rows" "$@" "$a_walks" >"$tmp/report"
}
# the rows a hand computation gives, from the raw counts and times above
aging_want() {	# aging_want SOURCE TIMED NS PTES YOUNG: its row
	awk -v s="$1" -v n="$2" -v ns="$3" -v t="$4" -v y="$5" 'BEGIN {
		printf "%s,pagetable,PageTable (%s),%d,%.4f,%.4f,,%d,%.6f,268435456,0:100,read,,", s, s, n, ns / t, ns / y, t, y / t }'
	sed -n 2p "$tmp/scanners.csv" | cut -d, -f14-
}
check "the scanners' CSV: no aging rows, its 14th column the scanner" \
	eval "! grep -q ',pagetable,' '$tmp/scanners.csv' && [ \"\$(head -n 1 '$tmp/scanners.csv' | cut -d, -f14)\" = scanner ]"
aging_want kernel 3 $((198162 - 20000)) $((131590 - 65536)) $((13150 - 6554)) >"$tmp/want"
aging_want model 1 253280 65536 6410 >>"$tmp/want"
while IFS= read -r a <&3; do
	check "lru-aging.awk ($a): three walks from the lru_gen_full fixtures" aging_walks "$a"
	aging_rows "$a" "$tmp/walks" -v model_s=0.00025328 -v model_ptes=65536 -v model_young=6410
	check "lru-aging.awk ($a): the CSV's kernel and model rows of the aging walk, as a hand computation gives" \
		cmp -s "$tmp/want" "$tmp/rows"
	aging_rows "$a" "$tmp/walks" -v model_s=
	check "lru-aging.awk ($a): no model row where scan gave no figure" \
		eval "[ \"\$(cat '$tmp/rows')\" = \"\$(head -n 1 '$tmp/want')\" ]"
	aging_rows "$a" /dev/null
	check "lru-aging.awk ($a): no walk timed: no rows" eval "[ ! -s '$tmp/rows' ] && grep -q 'no figure' '$tmp/report'"
	grep -v '^floor' "$tmp/walks" >"$tmp/unfloored" && echo 'floor 1' >>"$tmp/unfloored"
	aging_rows "$a" "$tmp/unfloored"
	check "lru-aging.awk ($a): no walk over dd's own time: no rows" [ ! -s "$tmp/rows" ]
done 3<<EOF
$awks
EOF
# the readers (explain.sh and report.sh --kernel, through
# explain-kernel.awk): the same figures with the aging rows as without
cat "$tmp/scanners.csv" "$tmp/want" >"$tmp/with-aging.csv"
printf 'BEGIN { kernel_read(); print km_ratio "|" km_why "|" km_bytes "|" km_host "|" km_scanner "|" km_bad }\n' >"$tmp/km.awk"
km() {	# km CSV: what explain-kernel.awk reads of it
	kernel_csv=$1 kernel_name=k.csv awk -f scripts/lib.awk -f scripts/explain-kernel.awk -f "$tmp/km.awk"
}
check "explain-kernel.awk: the aging rows change nothing it reads" \
	eval "[ \"\$(km '$tmp/with-aging.csv')\" = \"\$(km '$tmp/scanners.csv')\" ] &&
		kernel_csv='$tmp/with-aging.csv' kernel_check=1 awk -f scripts/lib.awk -f scripts/explain-kernel.awk"

# The CSV's last columns: speedup_min and speedup_max, the Kernel:
# line's interval (3.26 to 4.29 above, 267.7031 x 0.7917 / 65 and
# 297.8359 x 0.7917 / 55) on the kernel's ListLRU row only, then
# emulated, 0 here on every row.
cell() {	# cell CSV SOURCE WALK COLUMN: that cell, as written
	awk -F, -v s="$2" -v w="$3" -v n="$4" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == s && $2 == w && (n in c) { print $c[n]; exit }' "$1"
}
check "kernel-report.awk: speedup_min, speedup_max and emulated are the CSV's last columns" \
	eval "head -n 1 '$tmp/scanners.csv' | grep -q ',version,speedup_min,speedup_max,emulated\$'"
check "kernel-report.awk: the kernel ListLRU row's speedup_min 3.26 and speedup_max 4.29, the Kernel: line's interval" \
	eval "[ \"\$(cell '$tmp/scanners.csv' kernel list speedup_min | awk '{ printf \"%.2f\", \$1 }')\" = 3.26 ] &&
		[ \"\$(cell '$tmp/scanners.csv' kernel list speedup_max | awk '{ printf \"%.2f\", \$1 }')\" = 4.29 ] &&
		[ -z \"\$(cell '$tmp/scanners.csv' kernel physical speedup_min)\" ]"
check "kernel-report.awk: not emulated: emulated 0 on every row, no emulated line" \
	eval "awk -F, 'NR > 1 && \$NF != 0 { bad = 1 } END { exit bad || NR != 5 }' '$tmp/scanners.csv' &&
		! grep -q emulated '$tmp/report'"
printf 'BEGIN { kernel_read(); print km_ratio "|" km_lo "|" km_hi "|" km_why "|" km_bad }\n' >"$tmp/km-lo.awk"
km_lo() {	# km_lo CSV: explain-kernel.awk's ratio, interval and why
	kernel_csv=$1 kernel_name=k.csv awk -f scripts/lib.awk -f scripts/explain-kernel.awk -f "$tmp/km-lo.awk" |
		awk -F'|' '{ printf "%.2f|%.2f|%.2f|%s|%s\n", $1, $2, $3, $4, $5 }'
}
check "explain-kernel.awk: reads the kernel's interval from speedup_min and speedup_max" \
	eval "[ \"\$(km_lo '$tmp/scanners.csv')\" = '3.77|3.26|4.29||' ]"
# The same run marked emulated (scan-vm's guest under TCG): one line
# first that says no figure is to be quoted, emulated 1 on every row,
# and explain-kernel.awk (report.sh --kernel, explain.sh) gives no ratio.
report_damon && cp "$tmp/report" "$tmp/report-damon"
report_emulated() {
	report_from damon refused=0 tried=8 emulated=1 "emulated_how=SCAN_VM_ACCEL=tcg"
}
check "kernel-report.awk emulated: reads both excerpts" report_emulated
check "kernel-report.awk emulated: its first line says no figure is to be quoted, the rest as before" \
	eval "[ \"\$(head -n 1 '$tmp/report')\" = \"emulated CPU (SCAN_VM_ACCEL=tcg): every figure of this run is the emulator's, none the kernel's or the memory's: quote none\" ] &&
		sed 1d '$tmp/report' | cmp -s - '$tmp/report-damon'"
check "kernel-report.awk emulated: emulated 1 on every row" \
	eval "awk -F, 'NR == 1 && \$NF != \"emulated\" || NR > 1 && \$NF != 1 { bad = 1 } END { exit bad || NR != 5 }' '$tmp/out.csv'"
check "explain-kernel.awk: an emulated run gives no ratio, and says why" \
	eval "[ \"\$(km_lo '$tmp/out.csv')\" = \"0.00|0.00|0.00|run on an emulated CPU, whose times are the emulator's|\" ] &&
		kernel_csv='$tmp/out.csv' kernel_check=1 awk -f scripts/lib.awk -f scripts/explain-kernel.awk"
check "compare.sh: scan-kernel's CSVs by name, an emulated side said in a line, none where neither is" \
	eval "scripts/compare.sh '$tmp/scanners.csv' -- '$tmp/out.csv' 2>&1 | tail -n 1 |
		grep -qx \"emulated CPU (scan-kernel's emulated column) on the after side: those times are the emulator's; quote none\" &&
		! scripts/compare.sh '$tmp/scanners.csv' -- '$tmp/scanners.csv' 2>&1 | grep -q emulated"
# Runs of one working set time other pfns each: compare.sh keys
# scan-kernel's rows by their working set, and takes the aging walk's
# rows (no ratio) for their times only.  Three runs a side, each's
# pages made different, a PageTable row with no speedup added to each.
kernel_runs() {	# kernel_runs SIDE: SIDE1.csv ... SIDE3.csv in $tmp/kab
	mkdir -p "$tmp/kab"
	for i in 1 2 3; do
		awk -F, -v OFS=, -v i="$i" 'NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; print; next }
			{ $col["pages"] = 500 + i; print }
			END { $col["source"] = "kernel"; $col["walk"] = "pagetable"; $col["label"] = "PageTable (kernel)"
				$col["speedup"] = ""; $col["ns_per_page"] = 90 + i; print }' \
			tests/kernel-ratio.csv >"$tmp/kab/$1$i.csv"
	done
}
kernel_runs a && kernel_runs b
check "compare.sh: scan-kernel's runs keyed by working set, 3 a side, the aging walk's row its times only" \
	eval "scripts/compare.sh '$tmp/kab/a1.csv' '$tmp/kab/a2.csv' '$tmp/kab/a3.csv' -- '$tmp/kab/b1.csv' '$tmp/kab/b2.csv' '$tmp/kab/b3.csv' >'$tmp/kab.out' 2>&1 &&
		grep -q '^ListLRU (kernel) 0.016384  1.58 (1.58-1.58, 3 runs)  1.58 (1.58-1.58, 3 runs) ' '$tmp/kab.out' &&
		grep -q '^Physical (kernel) 0.016384  142 (142-142, 3 runs) ' '$tmp/kab.out' &&
		grep -q '^PageTable (kernel) 0.016384  109 (109-109, 3 runs) ' '$tmp/kab.out'"
emulated_by() {	# emulated_by VALUE WANT: figures_emulated with SCAN_VM_ACCEL=VALUE gives WANT
	# shellcheck disable=SC2016 # the inner shell's
	got=$(SCAN_VM_ACCEL=$1 sh -c '. scripts/kernel/figures.sh && figures_emulated && echo "$emulated $emulated_how"')
	[ "$got" = "$2" ] || { echo "#   SCAN_VM_ACCEL=$1: '$got', want '$2'"; return 1; }
}
check "figures.sh: SCAN_VM_ACCEL=tcg is an emulated CPU, kvm is not" \
	eval "emulated_by tcg '1 SCAN_VM_ACCEL=tcg' && emulated_by kvm '0 '"

# kernel-set.awk: the working set's LRU folios (bit 5) of memcg 7, and
# with block_pfns, how many in each block: pfns 0 and 2 are, 3 is
# another memcg's, 1 is no folio; with no memcg named, every memcg's
# (3 folios, pfns 0 to 3: make_movable's and a block's count).
# Compaction gives no block_pfns: the same first line, exit 0, no
# blocks written (it once exited 1 there).
kernel_set() {	# kernel_set BLOCK_PFNS INO WANT: its first line is WANT
	printf '32\n0\n32\n32\n' >"$tmp/set-flags" && printf '7\n7\n7\n9\n' >"$tmp/set-cgroups" &&
	rm -f "$tmp/set-blocks" &&
	cgroups=$tmp/set-cgroups ino=$2 blocks_out=$tmp/set-blocks block_pfns=$1 \
		awk -f scripts/lib.awk -f scripts/kernel-set.awk <"$tmp/set-flags" >"$tmp/set" &&
	[ "$(cat "$tmp/set")" = "$3" ]
}
# shellcheck disable=SC2016 # eval's
check "kernel-set.awk: 2 folios of the memcg, one in each block of 2 pfns" \
	eval 'kernel_set 2 7 "2 2 0 0 2" && [ "$(sort "$tmp/set-blocks" | tr "\n" " ")" = "0 1 1 1 " ]'
check "kernel-set.awk with no memcg named: the LRU folios of every memcg, 3, pfns 0 to 3" \
	kernel_set 0 "" "3 3 0 0 3"
# shellcheck disable=SC2016 # eval's
check "kernel-set.awk without blocks (compaction): exit 0, no blocks file" \
	eval 'kernel_set 0 7 "2 2 0 0 2" && [ ! -e "$tmp/set-blocks" ]'

# a raw file that stops short is an error, not a shorter figure
head -n 40 tests/kernel-trace.raw >"$tmp/short.raw"
# shellcheck disable=SC2086 # $kawk: awk's -f words
raw=$tmp/short.raw awk -f scripts/lib.awk -f scripts/stats.awk $kawk \
	tests/kernel-trace.txt >"$tmp/figures" 2>"$tmp/err"
check "kernel.awk: a raw twin with fewer events: exit 1, says so" \
	sh -c "[ $? -eq 1 ] && grep -q 'fewer events' '$tmp/err'"

# usage errors come before anything else
ks=scripts/kernel.sh
for a in "-m abc" "-m 1M" "-m 4097" "-m 2048G" "-m 17179869185G" "-x" "-o" "-d"; do
	# shellcheck disable=SC2086 # a is a word list
	check "kernel.sh $a: usage error" refused 2 sh $ks $a
done
check "kernel.sh -h: the usage" sh -c "sh $ks -h | grep -q '^usage: sudo scripts/kernel.sh'"

# the options' values are checked first, root or not: one line, exit 1
mkdir "$tmp/kept"
check "kernel.sh -d a directory not there: exit 1, one line" refused 1 sh $ks --check -d "$tmp/none"
check "kernel.sh -d a directory not there: says so" err_has 'none: no such directory'
check "kernel.sh -o a directory: exit 1, one line" refused 1 sh $ks --check -o "$tmp"
check "kernel.sh -k a directory there: exit 1, one line" refused 1 sh $ks --check -k "$tmp/kept"
check "kernel.sh -k a directory there: says so" err_has 'kept exists: give a new directory'
check "kernel.sh -k in a directory not there: exit 1, one line" refused 1 sh $ks --check -k "$tmp/none/kept"

# not root: one line, exit 1
if [ "$(id -u)" -ne 0 ]; then
	check "kernel.sh as a user: exit 1, one line" refused 1 sh $ks
	check "kernel.sh as a user: says it needs root" err_has 'needs root'
elif have setpriv && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	check "kernel.sh as nobody: exit 1, one line" \
		refused 1 setpriv --reuid=65534 --regid=65534 --clear-groups sh $ks
	check "kernel.sh as nobody: says it needs root" err_has 'needs root'
else
	skip "kernel.sh as a user" "root here, and no setpriv to drop it"
fi

# no tracefs (SCAN_TRACEFS names a directory without one): as root only,
# since a user is refused first
if [ "$(id -u)" -eq 0 ]; then
	mkdir "$tmp/notrace"
	check "kernel.sh with no tracefs: exit 1, one line" \
		refused 1 env SCAN_TRACEFS="$tmp/notrace" sh $ks
	check "kernel.sh with no tracefs: names the config" err_has "no tracefs at .*notrace \\(CONFIG_TRACING"
else
	skip "kernel.sh with no tracefs" "not root: refused before tracefs is looked at"
fi

# --scanner=damon: DAMON's sysfs is only read until it makes a kdamond of
# its own, which it does only where nr_kdamonds reads 0.  SCAN_DAMON_SYSFS
# names a made-up one; each refusal is one line, exit 1, and leaves it as
# it was (every file's name and content).  As root only: a user is
# refused first.
damon_tree() {	# damon_tree DIR: every file under DIR with its content
	find "$1" -type f 2>/dev/null | sort | while read -r f; do
		printf '%s: %s\n' "$f" "$(cat "$f" 2>&1)"
	done
}
damon_refused() {	# damon_refused DIR: refused, DIR untouched
	damon_tree "$1" >"$tmp/damon-before"
	refused 1 env SCAN_DAMON_SYSFS="$1" sh $ks --check --scanner=damon -m 64M || return 1
	damon_tree "$1" >"$tmp/damon-after"
	cmp -s "$tmp/damon-before" "$tmp/damon-after" || { echo "#   $1 changed"; return 1; }
}
fake_damon() {	# fake_damon DIR NR STATE: a DAMON sysfs with NR kdamonds in STATE
	mkdir -p "$1/kdamonds" && echo "$2" >"$1/kdamonds/nr_kdamonds" || return 1
	i=0
	while [ "$i" -lt "$2" ]; do
		mkdir -p "$1/kdamonds/$i/contexts" && echo "$3" >"$1/kdamonds/$i/state" &&
			echo 0 >"$1/kdamonds/$i/contexts/nr_contexts" || return 1
		i=$((i + 1))
	done
}
if [ "$(id -u)" -eq 0 ]; then
	check "kernel.sh --scanner=damon, no DAMON sysfs: exit 1, one line" damon_refused "$tmp/nodamon"
	check "kernel.sh --scanner=damon, no DAMON sysfs: names the config" \
		err_has 'no DAMON sysfs at .*nodamon \(CONFIG_DAMON_SYSFS, CONFIG_DAMON_PADDR\)'
	fake_damon "$tmp/damon-on" 2 off && echo on >"$tmp/damon-on/kdamonds/1/state"
	check "kernel.sh --scanner=damon, another's kdamond on: exit 1, one line, nothing written" \
		damon_refused "$tmp/damon-on"
	check "kernel.sh --scanner=damon, another's kdamond on: says it is never touched" \
		err_has 'a kdamond that scan-kernel did not start is running \(kdamond 1\): it is never touched'
	fake_damon "$tmp/damon-off" 1 off
	check "kernel.sh --scanner=damon, another's kdamond set up, off: exit 1, one line, nothing written" \
		damon_refused "$tmp/damon-off"
	check "kernel.sh --scanner=damon, another's kdamond set up, off: says making its own would remove it" \
		err_has '1 kdamond\(s\) that scan-kernel did not make are set up, none on: making its own would remove them'
else
	skip "kernel.sh --scanner=damon refusals" "not root: refused before DAMON is looked at"
fi
# This machine's own DAMON, where a kdamond of another's is on: refused,
# by reading only (every file under it as it was).
live_damon=/sys/kernel/mm/damon/admin
live_on=""
for d in "$live_damon"/kdamonds/[0-9]*; do
	[ "$(cat "$d/state" 2>/dev/null)" != on ] || live_on=${d##*/}
done
if [ "$(id -u)" -ne 0 ] || [ -z "$live_on" ]; then
	skip "kernel.sh --scanner=damon with this machine's kdamond on" "not root, or no kdamond on here"
else
	check "kernel.sh --scanner=damon, this machine's kdamond $live_on on: exit 1, one line, $live_damon as it was" \
		damon_refused "$live_damon"
	check "kernel.sh --scanner=damon, this machine's kdamond on: names it, never touched" \
		err_has "is running \\(kdamond.* $live_on.*\\): it is never touched"
fi

# --check: every check, then a plan and exit 0; nothing made or
# measured (its cgroup and trace instance would be named after its pid).
# check_only: it ran, and nothing it names is there, no scratch left.
check_only() {
	mkdir "$tmp/tmpdir-check"
	TMPDIR=$tmp/tmpdir-check run_cmd sh $ks --check -m 64M
	[ "$rc" -eq 0 ] && [ ! -s "$tmp/out" ] && err_has '^kernel.sh: --check: it can run here' || return 1
	grep -o '(/[^)]*/scan-kernel-[0-9]*)' "$tmp/err" | tr -d '()' >"$tmp/named"
	[ "$(grep -c '' "$tmp/named")" -eq 2 ] || { echo "#   names no cgroup and trace instance"; return 1; }
	while read -r left; do
		[ ! -e "$left" ] || { echo "#   left $left"; return 1; }
	done <"$tmp/named"
	[ -z "$(find "$tmp/tmpdir-check" -mindepth 1)" ] || { echo "#   left a scratch directory"; return 1; }
}

# A signal midway: exit 128+N, and nothing of its own left behind.
# cgroup_dir: where its cgroup goes, or nothing where none can.
cgroup_dir() {
	if [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
		echo /sys/fs/cgroup
	elif [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
		echo /sys/fs/cgroup/memory
	fi
}
cgroot=$(cgroup_dir)
tracing=/sys/kernel/tracing
# tracefs there, or one kernel.sh can mount there (and unmounts after)
tracefs_here() {
	[ -d "$tracing/instances" ] || grep -qw tracefs /proc/filesystems 2>/dev/null
}
# blocks: each memory block's state and zones, to compare before and
# after (kernel.sh takes blocks offline and moves some to ZONE_MOVABLE).
blocks() {
	for b in /sys/devices/system/memory/memory[0-9]*; do
		[ -f "$b/state" ] || continue
		echo "${b##*/} $(cat "$b/state") $(cat "$b/valid_zones" 2>/dev/null)"
	done
}
# stop_midway SIGNAL STATUS: run it, wait for its trace instance, signal
# it, then look for what it made, and at the memory blocks.
stop_midway() {
	blocks >"$tmp/blocks-before"
	mkdir -p "$tmp/scratch-$1" "$tmp/tmpdir-$1"
	TMPDIR="$tmp/tmpdir-$1" env --default-signal=INT sh $ks -m 64M -d "$tmp/scratch-$1" \
		>"$tmp/out" 2>"$tmp/err" &
	pid=$!
	i=0
	while [ ! -d "$tracing/instances/scan-kernel-$pid" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -s "$1" "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" -eq "$2" ] || { echo "#   exit $rc, want $2"; return 1; }
	grep -q 'interrupted; removed what it made' "$tmp/err" || return 1
	for left in "$cgroot/scan-kernel-$pid" "$tracing/instances/scan-kernel-$pid"; do
		[ ! -e "$left" ] || { echo "#   left $left"; return 1; }
	done
	blocks >"$tmp/blocks-after"
	cmp -s "$tmp/blocks-before" "$tmp/blocks-after" ||
		{ diff "$tmp/blocks-before" "$tmp/blocks-after" | sed 's/^/#   blocks: /'; return 1; }
	find "$tmp/scratch-$1" "$tmp/tmpdir-$1" -mindepth 1 >"$tmp/left"
	[ ! -s "$tmp/left" ] || { sed 's/^/#   left /' "$tmp/left"; return 1; }
}
if [ "$(id -u)" -ne 0 ]; then
	skip "kernel.sh --check" "not root"
elif ! tracefs_here || [ -z "$cgroot" ] || [ ! -w /proc/sys/vm/compact_memory ] ||
    [ "$(stat -f -c %T /var/tmp)" = tmpfs ]; then
	skip "kernel.sh --check" "no tracefs at $tracing, no memory cgroup, no compaction, or /var/tmp on tmpfs"
else
	check "kernel.sh --check: exit 0 and its plan; no cgroup, trace instance or scratch made" check_only
	# where no kdamond is set up, --check --scanner=damon plans its own,
	# and still only reads DAMON's sysfs
	fake_damon "$tmp/damon-none" 0 off
	damon_tree "$tmp/damon-none" >"$tmp/damon-before"
	run_cmd env SCAN_DAMON_SYSFS="$tmp/damon-none" sh $ks --check --scanner=damon -m 64M
	# shellcheck disable=SC2016 # expanded by eval
	check "kernel.sh --check --scanner=damon, no kdamond set up: exit 0, plans a kdamond of its own" \
		eval '[ "$rc" -eq 0 ] && err_has "walks what is left of it with DAMON.s paddr operations \\(a kdamond of its own"'
	damon_tree "$tmp/damon-none" >"$tmp/damon-after"
	check "kernel.sh --check --scanner=damon: DAMON's sysfs as it was" cmp -s "$tmp/damon-before" "$tmp/damon-after"
fi
if [ "$(id -u)" -ne 0 ]; then
	skip "kernel.sh stopped midway" "not root"
elif ! tracefs_here || [ -z "$cgroot" ]; then
	skip "kernel.sh stopped midway" "no tracefs at $tracing or no memory cgroup"
elif [ "$(stat -f -c %T "$tmp")" = tmpfs ] || ! env --default-signal=INT true 2>/dev/null; then
	skip "kernel.sh stopped midway" "$tmp is on tmpfs, or env has no --default-signal"
else
	check "kernel.sh SIGTERM midway: exit 143, its cgroup, trace instance and files gone, blocks as before" stop_midway TERM 143
	check "kernel.sh SIGINT midway: exit 130, its cgroup, trace instance and files gone, blocks as before" stop_midway INT 130
fi
