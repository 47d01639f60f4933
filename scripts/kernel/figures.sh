# shellcheck shell=sh disable=SC2034,SC2154 # kernel.sh sources this: its variables are shared
# kernel/figures.sh - the kernel's figures from the two traces, scan's
# model of the same memory beside them, and the report.  Sourced by
# kernel.sh, which calls figures_read, figures_model and figures_report
# once the scanners are done.
#
# Times scan's model (scan --access=isolate, on the CPU the kernel's
# work ran on): ListLRU over the working set's folios in their traced
# order (the snapshot "before"), Physical over the pfns the pfn scanner
# timed (the scanner's replay of them), and, for a scanner that times
# blocks or regions ("each" lines), each one replayed alone.  The
# kernel's own figures are kernel.awk's, from the events each scanner's
# file names.
# Leaves as it found: it reads the traces and snapshots in the scratch
# directory, and writes only there, to stdout, to -o's CSV (whole or not
# at all) and to -k's new directory.

# fig KEY: a figure kernel.awk gave (0 when it gave none): a whole number
# for the shell's tests.
fig() {
	fig=$(sed -n "s/^$1 //p" "$tmp/figures")
	echo "${fig:-0}"
}

# pageblocks_of FIRST END: the model's memmap of pfns [FIRST, END): whole
# pageblocks from the snapshot taken before the pfn scanner ran.
pageblocks_of() {
	ro_first=$(($1 / block)) ro_end=$((($2 + block - 1) / block))
	dd if="$tmp/after/kpageflags" bs=$((8 * block)) skip="$ro_first" count=$((ro_end - ro_first)) 2>/dev/null
}

# figures_read: the two traces through kernel.awk into $tmp/figures;
# $kind and $min_pfn from the scanner's kind.
figures_read() {
	cat "$tmp/reclaim.txt" "$tmp/pfn.txt" >"$tmp/all.txt" 2>/dev/null || tmp_fail "the trace"
	cat "$tmp/reclaim.raw" "$tmp/pfn.raw" >"$tmp/all.raw" 2>/dev/null || tmp_fail "the trace"
	raw=$tmp/all.raw scanner=$scanner block_folios=$tmp/block-folios damon_count=${pd_count:-} \
	    damon_marks=${pd_marks:-} damos_tried=${pd_tried:-} run_awk "$kernel_awk" "$tmp/all.txt" >"$tmp/figures" ||
		{ scratch_ok; fail "cannot read the trace"; }
	"${scanner}_kind"
}

# figures_model: scan's model: ListLRU over the working set as it was, in
# its traced order; Physical over the pfns the kernel's pfn scanner
# timed (the ranges of $kind).  On the CPU the kernel's work ran on: on
# this 2-vCPU guest the same replay read 15 ns/page on one CPU and 22 on
# the other, and a model that ran where it fell moved kernel/model by
# that much from run to run.
figures_model() {
	sed -n "s/^$kind //p" "$tmp/figures" |
	while read -r first end; do
		"${scanner}_replay" "$first" "$end" || exit 1
	done >"$tmp/ranges" || tmp_fail "the pfns to replay"
	[ -s "$tmp/ranges" ] || "${scanner}_none"
	if ! taskset -c "$cpu" "$scan" "--memmap-from=$tmp/before/kpageflags" "--memcg-from=$tmp/before/kpagecgroup" \
		    "--memcg=$ino" "--lru-order=$tmp/lru-order" "--pfns=$lo:$((hi - lo + 1))" \
		    --access=isolate --walks=list --format=csv -q >"$tmp/model-lru.csv" 2>"$tmp/model.err" ||
	    ! taskset -c "$cpu" "$scan" "--memmap-from=$tmp/ranges" --access=isolate --walks=list --format=csv -q \
		    >"$tmp/model-pfn.csv" 2>"$tmp/model.err"; then
		scratch_ok
		fail "scan's model failed: $(head -n 1 "$tmp/model.err")"
	fi
	figures_each
	if [ -n "$keep" ]; then
		mkdir -- "$keep" || fail "cannot make $keep"
		cp -r -- "$tmp"/. "$keep"/ || fail "cannot keep the traces in $keep"
	fi
}

# figures_each: kernel/model block by block (region by region), for a
# scanner that times them (kernel.awk's "each" lines): each replayed
# alone beside the kernel's ns/pfn over it ("START END KERNEL MODEL"
# lines in $tmp/each-model).  The kernel's median block against the
# model of all of them together set one block's fill of LRU folios
# against the mean of all fills, which moved kernel/model 1.6x between
# runs of few blocks; a block against itself does not.
figures_each() {
	: >"$tmp/each-model" || tmp_fail "the model of each block"
	sed -n 's/^each //p' "$tmp/figures" |
	while read -r first end k; do
		"${scanner}_replay" "$first" "$end" >"$tmp/one" || exit 1
		taskset -c "$cpu" "$scan" "--memmap-from=$tmp/one" --access=isolate --walks=list --format=csv -q \
			>"$tmp/one.csv" 2>"$tmp/model.err" || exit 2
		echo "$first $end $k $(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ns_per_page") c = i; next }
			$1 == "physical" && c { print $c }' "$tmp/one.csv")"
	done >"$tmp/each-model" || { scratch_ok; fail "scan's model of one block failed: $(head -n 1 "$tmp/model.err")"; }
	rm -f "$tmp/one" "$tmp/one.csv"
}

# figures_emulated: $emulated 1 where the kernel's CPU is emulated (its
# figures are the emulator's), else 0, and $emulated_how, what said so:
# SCAN_VM_ACCEL (tcg: emulated; kvm or any other: not), the documented
# way, set by scan-vm in its guest; else /proc/cpuinfo's model name
# where it names QEMU's TCG (its -cpu max says "QEMU TCG CPU").
figures_emulated() {
	emulated=0 emulated_how=""
	case ${SCAN_VM_ACCEL:-} in
	tcg) emulated=1 emulated_how="SCAN_VM_ACCEL=tcg" ;;
	?*) ;;
	*)
		fe_model=$(sed -n '/^model name/{s/^[^:]*: *//p;q;}' /proc/cpuinfo 2>/dev/null) || fe_model=""
		case $fe_model in
		*TCG*) emulated=1 emulated_how="/proc/cpuinfo: $fe_model" ;;
		esac ;;
	esac
}

# figures_report: the report on stdout and the CSV (kernel-report.awk),
# -o's CSV written (after the aging walk's rows, where it runs); then
# exit 1 where too few events were timed for a kernel ratio.
figures_report() {
	figures_emulated
	rc=0
	model_lru=$tmp/model-lru.csv model_pfn=$tmp/model-pfn.csv each_model=$tmp/each-model csv_out=$tmp/out.csv \
	    kind=$kind min_events=$min_events min_pfn=$min_pfn size=$size cgv=$cgv lru_path=$lru_path \
	    scanner=$scanner refused=${refused:-0} tried=${tried:-0} \
	    lru_words=$lru_words load_before=$load_before load_after=$load_after \
	    overrun=${overrun:-0} cpus=$(getconf _NPROCESSORS_ONLN) \
	    damon_count=${pd_count:-} damon_marks=${pd_marks:-} damos_tried=${pd_tried:-} \
	    damos_applied=${pd_applied:-} damos_sz_applied=${pd_sz_applied:-} \
	    emulated=$emulated emulated_how=$emulated_how \
	    run_awk "stats kernel-report" "$tmp/figures" >"$tmp/out.txt" || rc=$?
	[ "$rc" -ne 3 ] || fail "scan's model gave no Physical ns/page or ListLRU ns/folio: $(head -n 1 "$tmp/model-lru.csv")"
	[ "$rc" -eq 0 ] || tmp_fail "the report"
	stdout_put "$tmp/out.txt"
	# where the aging walk runs, the CSV waits for its rows (aging_csv)
	[ -z "$csv" ] || [ -n "$aging" ] || output_put "$tmp/out.csv" "$csv"
	[ -z "$aging" ] || aging_walk
	if [ "$kind" = took ]; then
		pfn_n=$(fig pfn_events)
	else
		pfn_n=$(fig pfn_all_events)
	fi
	if [ "$pfn_n" -lt "$min_pfn" ] || [ "$(fig lru_events)" -lt "$min_events" ]; then
		fail "too few timed events for a kernel ratio: the pfn scanner $pfn_n, $min_pfn wanted; the LRU scanner $(fig lru_events) batches, $min_events wanted"
	fi
}
