# shellcheck shell=sh disable=SC2034,SC2154 # kernel.sh sources this: its variables are shared
# kernel/aging.sh - the third contender: MGLRU's aging walk, the page
# tables in virtual order (scan --walks=pagetable).  Sourced by
# kernel.sh: aging_plan says whether it can run here, aging_walk runs it
# after the two scanners.
#
# Times the aging walk forced by "+ MEMCG NODE GEN 1 1" written to
# /sys/kernel/debug/lru_gen, 5 times: from the start to the end of dd's
# write(2) (the walk runs in the writer; dd's own clock, less dd's own
# time writing the same to /dev/null), over the PTEs read and the young
# ones, counted in lru_gen_full before and after (lru-gen.awk,
# lru-aging.awk); scan's replay of the same PTEs and young share beside.
# Leaves as it found: each walk's memory cgroup (scan-kernel-PID-aging)
# and the awk that holds its anonymous memory are gone when the walk is
# done, or however it ends (aging_undo, then undo); lru_gen's
# generations are the cgroup's own, removed with it.
#
# Where the kernel has CONFIG_LRU_GEN, MGLRU on and its page-table walk
# on, after the two scanners: a working set of anonymous memory
# (an awk holding a string of it: the power of two of pages in SIZE, at
# most 1 GiB, 262,144 PTEs: a walk of some hundreds of microseconds, where
# dd's own cost was 150-220 us on a VM, taken off) in a memory cgroup of
# its own ($cgroot/$name-aging), a walk that clears the accessed bits
# its writing set, --young's share of its pages read, and
# an aging walk forced by "+ MEMCG_ID NODE_ID MAX_GEN 1 1" written to
# lru_gen (1 1: swappiness, so that anonymous PTEs are scanned without
# swap, and force_scan, every mm and table), timed by dd's own clock
# around its write (the aging runs in the writer's write(2)); the walk's
# PTE counts from lru_gen_full before and after (lru-gen.awk,
# lru-aging.awk).  Each walk has a fresh cgroup: an old one's full
# generations would make the write move the oldest one's folios too
# (inc_min_seq()), which is aging's work but not the walk's.  scan
# replays what the counts say the kernel walked: its PTEs read and the
# share of them young.
lru_gen=/sys/kernel/mm/lru_gen debugfs=${SCAN_DEBUGFS:-/sys/kernel/debug}
age_walks=5 age_cg="" age_pid="" aging="" age_csv_due=""
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
	elif ! LC_ALL=C dd if=/dev/null of=/dev/null 2>&1 | grep -q 'copied, .* s'; then
		age_why="its dd prints no time (GNU coreutils' dd does)"
	fi
	if [ -n "$age_why" ]; then
		say_line "$me: MGLRU's page-table walk not timed: $age_why"
		return
	fi
	aging=1
	say_line "$me: then MGLRU's aging walk, $age_walks times: $(($(aging_pages) * 4096 / mib)) MiB of anonymous memory in a memory cgroup of its own ($cgroot/$name-aging), ${young_share} of its pages read before each forced walk (--young)"
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
	exec 8<&-
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
# the holder: a string of the working set's bytes, written once; a line
# "touch F" written to the FIFO cmd reads a byte of F of its pages,
# spread evenly, and it answers "touched K" on stdout.  The FIFO is
# opened anew for each line: mawk reads a pipe until its buffer is full
# or the writer closes it, so a line is whole only at the writer's close.
age_holder='BEGIN {
	s = sprintf("%4096s", "")
	while (length(s) < bytes)
		s = s s
	pages = length(s) / 4096
	print "ready", pages
	fflush()
	while ((getline line < cmd) > 0) {
		close(cmd)
		if (split(line, w, " ") != 2 || w[1] != "touch")
			continue
		k = 0
		for (p = 0; p < pages; p++)
			if (int((p + 1) * w[2]) > int(p * w[2]))
				k += substr(s, p * 4096 + 1, 1) == " "
		print "touched", k
		fflush()
	}
}'
# age_write GEN FILE: "+ MEMCG_ID NODE GEN 1 1" written to lru_gen by dd,
# its stderr (its time) in FILE
age_write() {
	printf '+ %s %s %s 1 1\n' "$age_id" "$age_node" "$1" >"$tmp/age.cmd" || tmp_fail "the aging command"
	LC_ALL=C taskset -c "$cpu" dd if="$tmp/age.cmd" of="$debugfs/lru_gen" bs=4096 count=1 conv=notrunc 2>"$2"
}
age_youngest() {	# age_youngest: the memcg's youngest generation on the node
	lru_gen_memcg=$age_id run_awk lru-gen "$debugfs/lru_gen_full" |
		awk -v n="$age_node" '$1 == "youngest" && $5 == n { print $7; exit }'
}
# aging_one N: walk N: a fresh cgroup and holder, the walk that clears
# the fill's accessed bits, the share touched, the timed walk; its line
# (lru-aging.awk) in $tmp/age.walks
aging_one() {
	age_cg=$cgroot/$name-aging
	mkdir "$age_cg" || fail "cannot make the memory cgroup $age_cg"
	rm -f "$tmp/age.in" "$tmp/age.out"
	mkfifo "$tmp/age.in" "$tmp/age.out" || tmp_fail "the holder's FIFOs"
	# shellcheck disable=SC2016 # $$ is the child's
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$age_cg" \
		taskset -c "$cpu" env LC_ALL=C awk -v bytes=$(($(aging_pages) * 4096)) -v cmd="$tmp/age.in" "$age_holder" \
		</dev/null >"$tmp/age.out" 2>"$tmp/cmd.err" &
	age_pid=$!
	exec 8<"$tmp/age.out"
	age_word=""
	read -r age_word _ <&8 || true
	[ "$age_word" = ready ] || fail "the aging walk's working set did not start: $(why "$tmp/cmd.err")"
	age_id=$(awk -v p="/${age_cg#"$cgroot"/}" '$1 == "memcg" && $3 == p { print $2; exit }' "$debugfs/lru_gen")
	[ -n "$age_id" ] || fail "no memcg $age_cg in $debugfs/lru_gen"
	age_gen=$(age_youngest)
	[ -n "$age_gen" ] || fail "no generation of memcg $age_id on node $age_node in $debugfs/lru_gen_full"
	age_write "$age_gen" "$tmp/dd.err" ||
		fail "cannot write to $debugfs/lru_gen: $(why "$tmp/dd.err")"
	# (a FIFO's open waits for its reader: bounded, should the holder have died)
	# shellcheck disable=SC2016 # the inner shell's
	timeout 60 sh -c 'echo "$1" >"$2"' sh "touch $young_share" "$tmp/age.in" ||
		fail "the aging walk's working set ended: $(why "$tmp/cmd.err")"
	read -r _ age_touched <&8 || fail "the aging walk's working set ended: $(why "$tmp/cmd.err")"
	lru_gen_memcg=$age_id run_awk lru-gen "$debugfs/lru_gen_full" >"$tmp/age.before" || tmp_fail "lru_gen_full"
	age_gen=$(age_youngest)
	age_write "$age_gen" "$tmp/dd.err" ||
		fail "cannot write to $debugfs/lru_gen: $(why "$tmp/dd.err")"
	lru_gen_memcg=$age_id run_awk lru-gen "$debugfs/lru_gen_full" >"$tmp/age.after" || tmp_fail "lru_gen_full"
	run_awk "stats lru-aging" -v step=walk -v node="$age_node" -v gen="$age_gen" -v touched="$age_touched" \
		"$tmp/age.before" "$tmp/age.after" "$tmp/dd.err" >>"$tmp/age.walks" || tmp_fail "a walk's counts"
	LC_ALL=C dd if="$tmp/age.cmd" of=/dev/null bs=4096 count=1 2>&1 |
		sed -n 's/.*copied, \([0-9.e+-]*\) s.*/floor \1/p' >>"$tmp/age.walks"
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
	while [ "$age_i" -le "$age_walks" ]; do
		aging_one "$age_i"
		age_i=$((age_i + 1))
	done
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
