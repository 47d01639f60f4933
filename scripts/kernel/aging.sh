# shellcheck shell=sh disable=SC2034,SC2154 # kernel.sh sources this: its variables are shared
# kernel/aging.sh - the third contender: MGLRU's aging walk, the page
# tables in virtual order (scan --walks=pagetable).  Sourced by
# kernel.sh: aging_plan says whether it can run here, aging_walk runs it
# after the two scanners.
#
# Times the aging walk forced by "+ MEMCG NODE GEN 1 1" written to
# /sys/kernel/debug/lru_gen, 5 times: the whole aging runs in the
# writer's write(2), timed by the kernel's clock inside it (the writer's
# syscalls:sys_enter_write to sys_exit_write in scan-kernel's trace
# instance, its time switched out taken off), or where the kernel has no
# syscall events (CONFIG_FTRACE_SYSCALLS) by dd's own clock around it,
# less the same clock's time for the same write to /dev/null; over the
# PTEs read and the young ones, counted in lru_gen_full before and after
# (lru-gen.awk, lru-aging.awk); scan's replay of the same PTEs and young
# share beside.
# Leaves as it found: each walk's memory cgroup (scan-kernel-PID-aging)
# and the scan --hold that holds its anonymous memory are gone when the
# walk is done, or however it ends (aging_undo, then undo); lru_gen's
# generations are the cgroup's own, removed with it; the syscall and
# sched_switch events of the instance off and unfiltered.
#
# Where the kernel has CONFIG_LRU_GEN, MGLRU on and its page-table walk
# on, after the two scanners: a working set of anonymous memory held by
# scan --hold (the power of two of pages in SIZE, at most 1 GiB, 262,144
# PTEs) in 4 KiB pages whatever the THP setting (MADV_NOHUGEPAGE: the
# walk reads a PMD, not 512 PTEs, where a huge page maps them; an awk
# that held it before got huge pages where THP is always on, and the
# walk read 1,437 PTEs of 16,384), in a memory cgroup of its own
# ($cgroot/$name-aging), a walk that clears the accessed bits its
# writing set, --young's share of its pages read, and an aging walk
# forced by "+ MEMCG_ID NODE_ID MAX_GEN 1 1" written to lru_gen (1 1:
# swappiness, so that anonymous PTEs are scanned without swap, and
# force_scan, every mm and table); the walk's PTE counts from
# lru_gen_full before and after, and no figure from a walk that read
# fewer PTEs than nine tenths of the pages held (lru-aging.awk).  Each
# walk has a fresh cgroup: an old one's full generations would make the
# write move the oldest one's folios too (inc_min_seq()), which is
# aging's work but not the walk's.  scan replays what the counts say the
# kernel walked: its PTEs read and the share of them young.
lru_gen=/sys/kernel/mm/lru_gen debugfs=${SCAN_DEBUGFS:-/sys/kernel/debug}
age_walks=5 age_cg="" age_pid="" aging="" age_csv_due="" age_clock=dd age_why_dd=""
age_events="syscalls/sys_enter_write syscalls/sys_exit_write sched/sched_switch"
aging_plan() {	# aging_plan: $aging set where it can run, and a line saying what it does, or why not
	if [ ! -r "$lru_gen/enabled" ]; then
		say_line "$me: MGLRU's page-table walk not timed: this kernel has no CONFIG_LRU_GEN"
		return
	fi
	read -r age_enabled <"$lru_gen/enabled" 2>/dev/null || age_enabled=0x0000
	age_why=""
	if [ $((age_enabled & 1)) -eq 0 ]; then
		age_why="MGLRU is off ($lru_gen/enabled is $age_enabled)"
	elif [ $((age_enabled & 2)) -eq 0 ]; then
		age_why="MGLRU's page-table walk is off ($lru_gen/enabled $age_enabled lacks 0x0002)"
	elif [ ! -r "$debugfs/lru_gen_full" ] || [ ! -w "$debugfs/lru_gen" ]; then
		age_why="no $debugfs/lru_gen_full (debugfs not mounted there?)"
	else
		aging_clock
		[ "$age_clock" = kernel ] || LC_ALL=C dd if=/dev/null of=/dev/null 2>&1 | grep -q 'copied, .* s' ||
			age_why="its dd prints no time (GNU coreutils' dd does), and $age_why_dd"
	fi
	if [ -n "$age_why" ]; then
		say_line "$me: MGLRU's page-table walk not timed: $age_why"
		return
	fi
	aging=1
	age_how="by the kernel's clock inside the write (sys_enter_write to sys_exit_write)"
	[ "$age_clock" = kernel ] || age_how="by dd's clock around the write: $age_why_dd"
	say_line "$me: then MGLRU's aging walk, $age_walks times: $(($(aging_pages) * 4096 / mib)) MiB of anonymous memory held by scan --hold in 4 KiB pages, in a memory cgroup of its own ($cgroot/$name-aging), ${young_share} of its pages read before each forced walk (--young), timed $age_how"
}
# aging_clock: $age_clock, kernel where the instance can trace the
# writer's write(2), else dd, and $age_why_dd, why not the kernel's
aging_clock() {
	age_clock=kernel age_why_dd=""
	for e in $age_events; do
		[ -d "$tracing/events/$e" ] || age_why_dd="this kernel has no ${e%%/*}:${e#*/} event$(
			[ "${e%%/*}" != syscalls ] || echo " (CONFIG_FTRACE_SYSCALLS)")"
	done
	[ -z "$unmounted" ] || age_why_dd="tracefs is not mounted at $tracing (a run mounts it and uses the kernel's clock where it has syscalls:sys_enter_write)"
	[ -z "$age_why_dd" ] || age_clock="dd"
}
aging_pages() {	# aging_pages: the working set in pages, the power of two of them in SIZE, 1 GiB at most
	ap=1
	while [ $((ap * 2 * 4096)) -le "$size" ] && [ "$ap" -lt 262144 ]; do ap=$((ap * 2)); done
	echo "$ap"
}
# aging_undo: the holder and its cgroup gone; the CSV, where it waited
# for the aging walk's rows, written without them (as it was before
# there were any: a walk that fails or is stopped loses no scanner's
# row), in a subshell, so that a failure to write it cannot end the
# cleanup; then the rest (undo)
# shellcheck disable=SC2317 # run by scan-env.sh's cleanup
aging_undo() {
	aging_stop
	[ -z "$age_csv_due" ] || (output_put "$tmp/out.csv" "$csv") || true
	age_csv_due=""
	undo
}
aging_stop() {	# aging_stop: the holder ended, its FIFOs closed, its cgroup removed
	exec 8<&- 9>&-
	if [ -n "$age_pid" ]; then
		kill "$age_pid" 2>/dev/null || true
		wait "$age_pid" 2>/dev/null || true
		age_pid=""
	fi
	age_tries=0
	while [ -n "$age_cg" ] && ! rmdir "$age_cg" 2>/dev/null && [ "$age_tries" -lt 50 ]; do
		sleep 0.1
		age_tries=$((age_tries + 1))
	done
	age_cg=""
}
# age_write GEN FILE: "+ MEMCG_ID NODE GEN 1 1" written to lru_gen by dd
# in one write, its stderr in $tmp/dd.err; with FILE, the write timed
# (age_timed), its time in FILE
age_write() {
	printf '+ %s %s %s 1 1\n' "$age_id" "$age_node" "$1" >"$tmp/age.cmd" || tmp_fail "the aging command"
	if [ -z "${2:-}" ]; then
		LC_ALL=C taskset -c "$cpu" dd if="$tmp/age.cmd" of="$debugfs/lru_gen" bs=4096 count=1 conv=notrunc 2>"$tmp/dd.err"
	else
		age_timed "$debugfs/lru_gen" "$2"
	fi
}
# age_timed TARGET FILE: $tmp/age.cmd written to TARGET by dd, pinned to
# $cpu, in one write, and that write's time in FILE: dd's stderr where
# $age_clock is dd, else step=clock's line from the trace of the
# writer's write(2) and its switches.  The writer is a shell that sets
# the events' filters to its own pid, turns them on and becomes dd
# (exec: the same pid), so that no other task's write is traced.
age_timed() {
	if [ "$age_clock" = dd ]; then
		LC_ALL=C taskset -c "$cpu" dd if="$tmp/age.cmd" of="$1" bs=4096 count=1 conv=notrunc 2>"$2" || return 1
		cp "$2" "$tmp/dd.err" || tmp_fail "dd's time"
		return 0
	fi
	put "" "$inst/trace"
	at_rc=0
	# shellcheck disable=SC2016 # the writer's $$
	LC_ALL=C taskset -c "$cpu" sh -c 'e=$1/events
		shift
		echo $$ &&
		echo "common_pid == $$" >"$e/syscalls/sys_enter_write/filter" &&
		echo "common_pid == $$" >"$e/syscalls/sys_exit_write/filter" &&
		echo "prev_pid == $$ || next_pid == $$" >"$e/sched/sched_switch/filter" &&
		echo 1 >"$e/sched/sched_switch/enable" &&
		echo 1 >"$e/syscalls/sys_exit_write/enable" &&
		echo 1 >"$e/syscalls/sys_enter_write/enable" &&
		exec "$@"' sh "$inst" dd if="$tmp/age.cmd" of="$1" bs=4096 count=1 conv=notrunc \
		>"$tmp/age.pid" 2>"$tmp/dd.err" || at_rc=1
	# shellcheck disable=SC2086 # a list of events
	events 0 $age_events
	take age-trace
	[ "$at_rc" -eq 0 ] || return 1
	read -r at_pid <"$tmp/age.pid" || tmp_fail "the writer's pid"
	run_awk "stats lru-aging" -v step=clock -v pid="$at_pid" -v count="$(wc -c <"$tmp/age.cmd")" \
		-v raw="$tmp/age-trace.raw" "$tmp/age-trace.txt" >"$2" || tmp_fail "the write's time"
}
# age_floor: the same clock's time for the same write to /dev/null, a
# "floor S" line (seconds) in $tmp/age.walks
age_floor() {
	age_timed /dev/null "$tmp/age.floor" || fail "cannot write to /dev/null: $(why "$tmp/dd.err")"
	awk '$1 == "clock" { printf "floor %.9f\n", $3 / 1e9 }
	    match($0, /copied, [0-9.eE+-]+ s/) { print "floor", substr($0, RSTART + 8, RLENGTH - 10) }' \
		"$tmp/age.floor" >>"$tmp/age.walks" || tmp_fail "the walks"
}
age_youngest() {	# age_youngest: the memcg's youngest generation on the node
	lru_gen_memcg=$age_id run_awk lru-gen "$debugfs/lru_gen_full" |
		awk -v n="$age_node" '$1 == "youngest" && $5 == n { print $7; exit }'
}
# aging_one N: walk N: a fresh cgroup and holder, the walk that clears
# the fill's accessed bits, the share touched, the timed walk; its line
# (lru-aging.awk) in $tmp/age.walks; where the holder did not start (its
# memory cannot be in base pages: no walk will be), a "none" line there
# instead, and $age_stop set.
aging_one() {
	age_cg=$cgroot/$name-aging
	mkdir "$age_cg" || fail "cannot make the memory cgroup $age_cg"
	rm -f "$tmp/age.in" "$tmp/age.out"
	mkfifo "$tmp/age.in" "$tmp/age.out" || tmp_fail "the holder's FIFOs"
	# (each FIFO's open waits for the other end: the holder opens its
	# stdin, then its stdout, and the shell opens them in that order)
	# shellcheck disable=SC2016 # $$ is the child's
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$age_cg" \
		taskset -c "$cpu" "$scan" --hold=$(($(aging_pages) * 4096)) \
		<"$tmp/age.in" >"$tmp/age.out" 2>"$tmp/cmd.err" &
	age_pid=$!
	exec 9>"$tmp/age.in" 8<"$tmp/age.out"
	age_word="" age_held=""
	read -r age_word age_held <&8 || true
	if [ "$age_word" != ready ]; then
		wait "$age_pid" 2>/dev/null || true
		echo "none its working set was not held: $(sed -n '$s/^scan: //p' "$tmp/cmd.err")" >>"$tmp/age.walks"
		aging_stop
		age_stop=1
		return
	fi
	age_huge=$(awk '$1 == "AnonHugePages:" { print $2; exit }' "/proc/$age_pid/smaps_rollup" 2>/dev/null) || true
	age_id=$(awk -v p="/${age_cg#"$cgroot"/}" '$1 == "memcg" && $3 == p { print $2; exit }' "$debugfs/lru_gen")
	[ -n "$age_id" ] || fail "no memcg $age_cg in $debugfs/lru_gen"
	age_gen=$(age_youngest)
	[ -n "$age_gen" ] || fail "no generation of memcg $age_id on node $age_node in $debugfs/lru_gen_full"
	age_write "$age_gen" ||
		fail "cannot write to $debugfs/lru_gen: $(why "$tmp/dd.err")"
	echo "touch $young_share" >&9 || fail "the aging walk's working set ended: $(why "$tmp/cmd.err")"
	read -r _ age_touched <&8 || fail "the aging walk's working set ended: $(why "$tmp/cmd.err")"
	cat "$debugfs/lru_gen_full" >"$tmp/age-$1.before.full" || tmp_fail "lru_gen_full"
	lru_gen_memcg=$age_id run_awk lru-gen "$tmp/age-$1.before.full" >"$tmp/age.before" || tmp_fail "lru_gen_full"
	age_gen=$(age_youngest)
	age_write "$age_gen" "$tmp/age.time" ||
		fail "cannot write to $debugfs/lru_gen: $(why "$tmp/dd.err")"
	cat "$debugfs/lru_gen_full" >"$tmp/age-$1.after.full" || tmp_fail "lru_gen_full"
	if [ "$age_clock" = kernel ]; then	# for -k
		mv "$tmp/age-trace.txt" "$tmp/age-$1.trace.txt" || tmp_fail "the trace"
		mv "$tmp/age-trace.raw" "$tmp/age-$1.trace.raw" || tmp_fail "the trace"
	fi
	lru_gen_memcg=$age_id run_awk lru-gen "$tmp/age-$1.after.full" >"$tmp/age.after" || tmp_fail "lru_gen_full"
	run_awk "stats lru-aging" -v step=walk -v node="$age_node" -v gen="$age_gen" -v touched="$age_touched" \
		-v held="$age_held" -v huge="${age_huge:--1}" \
		"$tmp/age.before" "$tmp/age.after" "$tmp/age.time" >>"$tmp/age.walks" || tmp_fail "a walk's counts"
	age_floor
	aging_stop
}
# aging_walk: the walks, scan's replay of the same pages and share beside
# them, the lines on stdout, and -o's CSV with the walk's rows after the
# scanners' (aging_csv)
aging_walk() {
	at_exit=aging_undo
	age_csv_due=$csv
	age_node=0
	for age_n in /sys/devices/system/cpu/cpu"$cpu"/node[0-9]*; do
		[ ! -e "$age_n" ] || age_node=${age_n##*node}
	done
	: >"$tmp/age.walks" || tmp_fail "the walks"
	age_i=1
	age_stop=""
	while [ "$age_i" -le "$age_walks" ] && [ -z "$age_stop" ]; do
		aging_one "$age_i"
		age_i=$((age_i + 1))
	done
	if [ "$age_clock" = kernel ]; then
		for e in $age_events; do put 0 "$inst/events/$e/filter"; done
	fi
	if [ -n "$keep" ]; then
		cp -- "$tmp"/age-[0-9]* "$tmp/age.walks" "$keep"/ || fail "cannot keep the aging walk's files in $keep"
	fi
	aging_model
	aging_report
	aging_csv
	at_exit=undo
}
# aging_model: scan's replay of what the walks read: $age_model_s (its
# PageTable median seconds), $age_access and $age_folios (its columns of
# those names), $age_ptes (its PTE tables), $age_young (its young
# folios), each empty where scan gave none; $line, its command
aging_model() {
	# the model: the PTEs a walk read (the median), the share of them
	# young, every table read: the forced walk's force_scan skips no
	# table by its PMD entry's accessed bit nor by the Bloom filter
	age_c=$(run_awk "stats lru-aging" -v step=replay "$tmp/age.walks")
	age_share=${age_c#* } age_c=${age_c% *}
	[ -n "$age_c" ] && [ "$age_share" != 0.0000 ] || age_share=$young_share age_c=$(awk -v p="$(aging_pages)" 'BEGIN { printf "%.6f", p / 1e6 }')
	set -- -c "$age_c" --walks=list,pagetable "--young=$age_share" --mapped=1 --nonleaf-young=off
	command_line scan "$@"
	age_model_s="" age_access="" age_folios="" age_ptes="" age_young=""
	"$scan" "$@" --format=csv -v >"$tmp/age.csv" 2>"$tmp/age.err" || return 0
	# median_s, access, folios: folios last, its items separated by spaces
	IFS=, read -r age_model_s age_access age_folios <<EOF || true
$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["walk"] == "pagetable" { print $c["median_s"] "," $c["access"] "," $c["folios"]; exit }' "$tmp/age.csv")
EOF
	age_ptes=$(sed -n 's/^pagetable: .*, \([0-9]*\) PTE tables .*/\1/p' "$tmp/age.err")
	age_young=$(sed -n 's/^pagetable: .*, \([0-9]*\) young in .*/\1/p' "$tmp/age.err")
}
# aging_report: the walks' figures and the model's on stdout; their rows
# of the CSV in $tmp/age-rows.csv (none where no walk gave a figure)
aging_report() {
	: >"$tmp/age-rows.csv" || tmp_fail "the aging walk's rows"
	run_awk "stats lru-aging" -v step=report -v node="$age_node" -v share="$young_share" \
		-v clock="$age_clock" -v clock_why="$age_why_dd" \
		-v bytes=$(($(aging_pages) * 4096)) \
		-v model_s="$age_model_s" -v model_ptes="$((${age_ptes:-0} * 512))" -v model_young="${age_young:-0}" \
		-v model_access="$age_access" -v model_folios="$age_folios" \
		-v csv_run="$tmp/out.csv" -v csv_out="$tmp/age-rows.csv" \
		-v command="$line" "$tmp/age.walks" >"$tmp/age.txt" || tmp_fail "the aging walk's report"
	stdout_put "$tmp/age.txt"
}
# aging_csv: -o's CSV, written once the walks are done: the scanners'
# rows, then the aging walk's (put together in a file of their own, so
# that a failure leaves the scanners' CSV whole for aging_undo)
aging_csv() {
	[ -n "$age_csv_due" ] || return 0
	cat "$tmp/out.csv" "$tmp/age-rows.csv" >"$tmp/out-aging.csv" || tmp_fail "the CSV"
	age_csv_due=""
	output_put "$tmp/out-aging.csv" "$csv"
}
