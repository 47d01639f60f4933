#!/bin/sh
# sweep.sh: a CSV and a table over sizes; its budgets, -n, --from, its
# output file, signals; scan-env.sh's usage and need_scan as every script
# has them.  Tiny sizes; nothing here asserts a speed.
. tests/lib.sh

# sweep: one CSV, a table, a skipped size
scripts/sweep.sh -o "$tmp/sweep.csv" -r 1 0.01 0.02 1000000 >"$tmp/table" 2>"$tmp/progress"
rc=$?
check "sweep: exit 0" [ "$rc" -eq 0 ]
check "sweep: one CSV with both sizes" csv_ok "$tmp/sweep.csv" 6
check "sweep: a table row per size that ran" \
	sh -c "grep -Ec '^ +0\\.0[12] +[0-9.]+ MiB +[0-9.]+ +[0-9.]+( +[a-z][a-z -]*)?\$' '$tmp/table' | grep -qx 2"
check "sweep: progress with the time left" grep -q '^sweep: -c 0.02 (2 of 3), [0-9]* s so far, about [0-9]* s left' "$tmp/progress"
check "sweep: the size that does not fit is skipped" grep -q '^sweep: -c 1000000 skipped: ' "$tmp/progress"
check "sweep: says the largest size up front" \
	grep -q '^sweep: 3 sizes, the largest -c 1000000 (' "$tmp/progress"
# shellcheck disable=SC2016 # an awk program
check "sweep: the trust columns and the run, on every row" \
	awk -F, "$(cat scripts/lib.awk)"'NR == 1 { csv_header(); if (!csv_has("cache_sized") || !csv_has("memmap_over_llc") || !csv_has("warnings") || !csv_has("run")) exit 1; next }
		csv_field("cache_sized") !~ /^[01]?$/ || csv_field("warnings") !~ /^([a-z-]+( [a-z-]+)*)?$/ || csv_field("run") != 1 { exit 1 }' "$tmp/sweep.csv"
llc=$(csv_col "$tmp/sweep.csv" llc_bytes | head -n 1)
if [ "${llc:-0}" -gt 1048576 ]; then
	check "sweep: a cache-sized memmap is flagged in the CSV and the table" \
		[ "$(grep -Ec '  caches( [a-z-]+)*$' "$tmp/table")/$(csv_col "$tmp/sweep.csv" cache_sized | sort -u)" = "2/1" ]
else
	skip "sweep: cache-sized flag" "scan saw no last-level cache size (llc_bytes)"
fi
# the footnote: a line per code the CSV's warnings column holds
sed '1,/^scan warned/d' "$tmp/table" | awk '{ print $1 }' | sort >"$tmp/foot"
csv_col "$tmp/sweep.csv" warnings | tr ' ' '\n' | sed '/^$/d' | sort -u >"$tmp/codes"
check "sweep: a footnote line per code of the warnings column" cmp -s "$tmp/foot" "$tmp/codes"
scripts/sweep.sh -c 1 >/dev/null 2>&1
check "sweep: -c is refused" [ $? -eq 2 ]
scripts/sweep.sh 0.01 abc >/dev/null 2>"$tmp/e"
check "sweep: a size that is not a number: exit 2 before any run" \
	sh -c "[ $? -eq 2 ] && grep -q '^sweep.sh: size abc: ' '$tmp/e'"
scripts/sweep.sh --from="$tmp/sweep.csv" >"$tmp/again"
# (the footnote's codes alike; scan's lines only where it ran)
check "sweep --from: the same table from the CSV" \
	sh -c "cut -d: -f1 '$tmp/table' >'$tmp/t1' && cut -d: -f1 '$tmp/again' >'$tmp/t2' && cmp -s '$tmp/t1' '$tmp/t2'"

# -n: processes interleaved, the CSV's run column, median and range
scripts/sweep.sh -n 3 -o "$tmp/n3.csv" -r 1 0.01 0.02 >"$tmp/n3" 2>"$tmp/n3.err"
rc=$?
check "sweep -n 3: exit 0, three runs a size in the CSV" \
	[ "$rc $(csv_col "$tmp/n3.csv" run | sort | uniq -c | awk '{ print $1 }' | tr '\n' ' ')" = "0 6 6 6 " ]
check "sweep -n 3: interleaved, every size once and then again" \
	sh -c "grep '^sweep: -c' '$tmp/n3.err' | sed 's/ (.*//' | tr '\n' ' ' | grep -qx 'sweep: -c 0.01 sweep: -c 0.02 sweep: -c 0.01 sweep: -c 0.02 sweep: -c 0.01 sweep: -c 0.02 '"
check "sweep -n 3: the median and the range over runs" \
	grep -Eq '^ +0\.01 +[0-9.]+ MiB +[0-9.]+ \([0-9.]+-[0-9.]+, 3\) ' "$tmp/n3"
check "sweep -n 0: usage error" sh -c "scripts/sweep.sh -n 0 0.01 >/dev/null 2>&1; [ \$? -eq 2 ]"
# a code the second size gave in the first run and the first size only
# later: the footnote names the sizes in the table's order
# shellcheck disable=SC2016 # an awk program
awk -F, -v OFS=, "$(cat scripts/lib.awk)"'NR == 1 { csv_header(); print; next }
	{ run = csv_field("run"); pages = csv_field("pages")
	  $csv_col["warnings"] = (run == 1 && pages == 20000) || (run == 2 && pages == 10000) ? "noisy" : ""; print }' \
	"$tmp/n3.csv" >"$tmp/late.csv"
check "sweep: the footnote's sizes in the table's order, not the runs'" \
	sh -c "scripts/sweep.sh --from='$tmp/late.csv' | grep -qx '  noisy at 0.01, 0.02'"

# budgets: the default series says its memory and time budget before a
# run; -b stops a sweep before a size that would end past it
printf '#!/bin/sh\necho "scan: refused here" >&2\nexit 1\n' >"$tmp/refuses"
chmod +x "$tmp/refuses"
SCAN="$tmp/refuses" scripts/sweep.sh >/dev/null 2>"$tmp/plan"
check "sweep: defaults within half the memory available and a time budget, said first" \
	sh -c "head -n 1 '$tmp/plan' | grep -Eq '^sweep: [0-9]+ sizes, the largest -c [0-9.]+ .*(half of the [0-9.]+ [KMGT]iB available|-c 10 \\(no MemAvailable).*, within a 300 s budget \\(-b\\)'"
check "sweep: nothing ran: exit 1, said" \
	sh -c "SCAN='$tmp/refuses' scripts/sweep.sh 0.01 >/dev/null 2>'$tmp/e'; [ \$? -eq 1 ] && grep -q '^sweep.sh: no size ran' '$tmp/e'"
# (0.6 s for -c 0.01 is 60 s for -c 1: -c 0.02 would end past 1 s)
printf '#!/bin/sh\nsleep 0.6\nexec %s "$@"\n' "$SCAN" >"$tmp/slow"
chmod +x "$tmp/slow"
SCAN="$tmp/slow" scripts/sweep.sh -b 1 -r 1 0.01 0.02 0.05 >"$tmp/b" 2>"$tmp/b.err"
check "sweep -b: stops before a size past the budget, says so" \
	sh -c "grep -q '^sweep: -c 0.02 and above not started: .* past the 1 s budget (-b)' '$tmp/b.err' && grep -Eq '^ +0\\.01 ' '$tmp/b' && ! grep -Eq '^ +0\\.0[25] ' '$tmp/b'"

# the output file: checked before any run, whole or untouched
mkdir "$tmp/dir"
printf '#!/bin/sh\ntouch %s/ran\nexec %s "$@"\n' "$tmp" "$SCAN" >"$tmp/marks"
chmod +x "$tmp/marks"
SCAN="$tmp/marks" scripts/sweep.sh -o "$tmp/dir" 0.01 >/dev/null 2>"$tmp/e"
check "sweep -o DIRECTORY: exit 1, a line, no run" \
	sh -c "[ $? -eq 1 ] && [ \$(wc -l <'$tmp/e') -eq 1 ] && grep -q 'is a directory' '$tmp/e' && [ ! -e '$tmp/ran' ] && [ ! -e '$tmp/dir/all.csv' ]"
SCAN="$tmp/marks" scripts/sweep.sh -o "$tmp/nodir/x.csv" 0.01 >/dev/null 2>"$tmp/e"
check "sweep -o in no directory: exit 1, a line, no run" \
	sh -c "[ $? -eq 1 ] && [ \$(wc -l <'$tmp/e') -eq 1 ] && grep -q 'cannot write $tmp/nodir/x.csv' '$tmp/e' && [ ! -e '$tmp/ran' ]"
if [ "$(id -u)" -eq 0 ] && mkdir "$tmp/full" && mount -t tmpfs -o size=4k tmpfs "$tmp/full" 2>/dev/null; then
	# one 4 KiB page holds the first size's rows, not a second copy
	scripts/sweep.sh -o "$tmp/full/s.csv" -r 1 0.01 0.02 0.03 >/dev/null 2>"$tmp/e"
	rc=$?
	check "sweep -o on a full disk: exit 1, a line, no temporary left" \
		sh -c "[ $rc -eq 1 ] && grep -q 'cannot write $tmp/full/s.csv' '$tmp/e' && [ \$(ls '$tmp/full' | grep -vc '^s.csv\$') -eq 0 ]"
	check "sweep -o on a full disk: the file holds whole runs" \
		sh -c "[ \$(wc -l <'$tmp/full/s.csv') -eq 4 ] && tail -n 1 '$tmp/full/s.csv' | grep -q ',[0-9.e-]*,[01]\{0,1\},[a-z -]*,1\$'"
	umount "$tmp/full"
else
	skip "sweep -o on a full disk" "not root, or no tmpfs mount"
fi

# output_put (scan-env.sh) alone: a copy that does not fit leaves the old
# file as it was and no temporary
if [ "$(id -u)" -eq 0 ] && mkdir "$tmp/full2" && mount -t tmpfs -o size=4k tmpfs "$tmp/full2" 2>/dev/null; then
	echo old >"$tmp/full2/out"
	head -c 20000 /dev/zero >"$tmp/big"
	sh -c '. scripts/scan-env.sh; output_put "$1" "$2"' scripts/x.sh "$tmp/big" "$tmp/full2/out" 2>"$tmp/e"
	check "output_put on a full disk: exit 1, the old file kept, no temporary" \
		sh -c "[ $? -eq 1 ] && grep -qx old '$tmp/full2/out' && [ \$(ls '$tmp/full2' | wc -l) -eq 1 ] && grep -q '^x.sh: cannot write $tmp/full2/out' '$tmp/e'"
	umount "$tmp/full2"
else
	skip "output_put on a full disk" "not root, or no tmpfs mount"
fi

# another program's CSV from SCAN: exit 1 and a line, not a table
printf '#!/bin/sh\necho a,b,c\necho 1,2,3\n' >"$tmp/other"
chmod +x "$tmp/other"
SCAN="$tmp/other" scripts/sweep.sh 0.01 >"$tmp/o" 2>"$tmp/e"
check "sweep: SCAN printing another CSV: exit 1, a line, no table" \
	sh -c "[ $? -eq 1 ] && [ ! -s '$tmp/o' ] && grep -q '^sweep.sh: -c 0.01: scan printed no scan CSV' '$tmp/e'"

# signals: 130 / 143, no noise, the finished rows kept and said (a scan
# that sleeps at the second size, to be stopped there)
if have setsid && env --default-signal=INT true 2>/dev/null; then
	printf '#!/bin/sh\ncase " $* " in *" 0.02 "*) sleep 30 ;; esac\nexec %s "$@"\n' "$SCAN" >"$tmp/stall"
	chmod +x "$tmp/stall"
	for sig in INT:130 TERM:143; do
		rm -f "$tmp/sig.csv" "$tmp/sig.err"
		SCAN="$tmp/stall" setsid env --default-signal=INT,TERM sh scripts/sweep.sh \
			-o "$tmp/sig.csv" -r 1 0.01 0.02 >/dev/null 2>"$tmp/sig.err" &
		pid=$!
		i=0
		until grep -q '(2 of 2)' "$tmp/sig.err" 2>/dev/null || [ $i -ge 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		env kill -s "${sig%:*}" -- -"$pid" 2>/dev/null	# the group, as Ctrl-C does
		wait "$pid"
		rc=$?
		check "sweep: SIG${sig%:*} exits ${sig#*:}" [ "$rc" -eq "${sig#*:}" ]
		check "sweep: SIG${sig%:*}: no scratch-file noise, says what it kept" \
			sh -c "! grep -q 'No such file' '$tmp/sig.err' && grep -q '^sweep.sh: interrupted; $tmp/sig.csv keeps the 1 run that finished' '$tmp/sig.err'"
		check "sweep: SIG${sig%:*}: the finished size's rows kept" csv_ok "$tmp/sig.csv" 3
	done
else
	skip "sweep: signals" "no setsid or env --default-signal"
fi

# usage and need_scan (scan-env.sh, for every script): the name it was
# run as, where scan is found, where it looked
scripts/sweep.sh -h >"$tmp/h"
check "sweep -h: the source tree's name, and which scan" \
	sh -c "grep -q '^usage: scripts/sweep.sh \\[-h\\]' '$tmp/h' && tail -n 1 '$tmp/h' | grep -q '^scan: '"
mkdir -p "$tmp/inst/bin" "$tmp/inst/share/scan"
cp scripts/sweep.sh "$tmp/inst/bin/scan-sweep"
cp scripts/explain.sh "$tmp/inst/bin/scan-explain"
cp scripts/scan-env.sh scripts/*.awk "$tmp/inst/share/scan/"
cp "$SCAN" "$tmp/inst/bin/scan"
(unset SCAN; "$tmp/inst/bin/scan-sweep" -h) >"$tmp/h"
check "installed scan-sweep -h: its installed name, no scripts/ path" \
	sh -c "grep -q '^usage: scan-sweep \\[-h\\]' '$tmp/h' && ! grep -q 'scripts/' '$tmp/h' && ! grep -q 'default ./scan' '$tmp/h'"
check "installed scan-sweep -h: a second synopsis keeps the indent of usage:" \
	grep -q '^       scan-sweep \[-h\] \[--axis=size|young\] --from=FILE.csv$' "$tmp/h"
check "installed scan-sweep -h: the scan beside it" \
	grep -qx "scan: $tmp/inst/bin/scan (beside scan-sweep)" "$tmp/h"
(unset SCAN; "$tmp/inst/bin/scan-explain" -h) >"$tmp/h"
check "installed scan-explain -h: how it finds scan, not 'default ./scan'" \
	sh -c "! grep -q 'default ./scan' '$tmp/h' && grep -q '(default: scan beside this script' '$tmp/h'"
check "installed scan-explain -h: the synopsis's second line still under its options" \
	sh -c "sed -n '/^usage: scan-explain/{n;p;}' '$tmp/h' | grep -q '^                    \\[--walk=array|pagetable\\] \\[--kernel=FILE.csv\\]\$'"
here=$(pwd)
(unset SCAN; cd "$tmp" && sh "$here/scripts/sweep.sh" -r 1 0.01) >/dev/null 2>"$tmp/e"
check "source-tree sweep from another directory finds the built scan" \
	sh -c "[ $? -eq 0 ] && ! grep -q 'run make first' '$tmp/e'"
rm "$tmp/inst/bin/scan"
(unset SCAN; PATH=/usr/bin:/bin; cd "$tmp" && "$tmp/inst/bin/scan-sweep" 0.01) >/dev/null 2>"$tmp/e"
check "no scan anywhere: exit 1, one line saying where it looked" \
	sh -c "[ $? -eq 1 ] && [ \$(wc -l <'$tmp/e') -eq 1 ] && grep -q \"^sweep.sh: no scan: looked beside scan-sweep ($tmp/inst/bin/scan), .*on PATH and in $tmp\" '$tmp/e'"
SCAN=/nonexistent scripts/sweep.sh 0.01 >/dev/null 2>"$tmp/e"
check "SCAN=/nonexistent: exit 1, the line names it" \
	sh -c "[ $? -eq 1 ] && grep -q '^sweep.sh: SCAN=/nonexistent is not a program that can run' '$tmp/e'"
# report.sh shares scratch(): a signal ends it as it ends sweep
if have setsid && env --default-signal=INT true 2>/dev/null; then
	rm -f "$tmp/sig.err"
	SCAN="$tmp/stall" setsid env --default-signal=INT,TERM sh scripts/report.sh \
		-c 0.02 -r 1 >/dev/null 2>"$tmp/sig.err" &
	pid=$!
	sleep 0.5
	env kill -s TERM -- -"$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	check "report.sh: SIGTERM exits 143, says so, no scratch-file noise" \
		sh -c "[ $rc -eq 143 ] && grep -q '^report.sh: interrupted' '$tmp/sig.err' && ! grep -q 'No such file' '$tmp/sig.err'"
fi

# probes: usage errors in one line before any plan; FIFOs and devices
# refused; a full stdout or -o /dev/full exits 1 and leaves /dev/full be
one_line() {	# one_line STATUS CMD...: STATUS, one line on stderr, no stdout
	want=$1
	shift
	"$@" >"$tmp/p.out" 2>"$tmp/p.err"
	[ $? -eq "$want" ] && [ ! -s "$tmp/p.out" ] && [ "$(wc -l <"$tmp/p.err")" -eq 1 ]
}
check "sweep: -n without a value, one line" one_line 2 scripts/sweep.sh -n
check "sweep: -n of 20 digits, one line" one_line 2 scripts/sweep.sh -n 99999999999999999999 0.01
check "sweep: a size of 20 digits, one line" one_line 2 scripts/sweep.sh 99999999999999999999
check "sweep: a negative size, one line" one_line 2 scripts/sweep.sh -1
check "sweep: an option scan refuses, one line" one_line 2 scripts/sweep.sh --bogus 0.01
check "sweep: --from= empty is refused, not a default sweep" one_line 2 timeout 10 scripts/sweep.sh --from=
check "sweep: --from with a size is refused" one_line 2 scripts/sweep.sh --from="$tmp/sweep.csv" 0.01
mkfifo "$tmp/p.fifo"
check "sweep: --from a FIFO refused, no hang" one_line 1 timeout 10 scripts/sweep.sh --from="$tmp/p.fifo"
# shellcheck disable=SC2016 # $1 is the inner shell's
check "sweep: stdout full, exit 1" sh -c 'scripts/sweep.sh --from="$1" >/dev/full 2>/dev/null; [ $? -eq 1 ]' sh "$tmp/sweep.csv"
scripts/sweep.sh -o /dev/full -r 1 0.01 >/dev/null 2>&1
check "sweep: -o /dev/full exits 1, the device stays" sh -c "[ $? -eq 1 ] && [ -c /dev/full ]"
check "sweep: size 0 refused by the sweep, one line" one_line 2 scripts/sweep.sh 0
awk -F, -v OFS=, "$(cat scripts/lib.awk)"'NR == 1 { csv_header(); print; next }
	{ $csv_col["speedup"] = 0; print }' "$tmp/sweep.csv" >"$tmp/p.zero.csv"
check "sweep --from: a speedup of 0 refused, naming the line" \
	sh -c "scripts/sweep.sh --from='$tmp/p.zero.csv' >/dev/null 2>'$tmp/p.err'; [ \$? -eq 1 ] && grep -q 'line 2: speedup is 0' '$tmp/p.err'"

# --axis=young: scan's --young swept at one size, the PageTable walk
# added, a row a share; the CSV's young column is the axis, and --from
# reads such a CSV back as a young sweep
scripts/sweep.sh --axis=young -c 0.01 -r 1 -o "$tmp/young.csv" 0.05 0.5 1 >"$tmp/young" 2>"$tmp/young.err"
rc=$?
check "sweep --axis=young: exit 0, the plan says the shares and the size" \
	sh -c "[ $rc -eq 0 ] && head -n 1 '$tmp/young.err' | grep -q '^sweep: 3 young shares (--young), each at -c 0.01 ('"
check "sweep --axis=young: progress names each share" \
	sh -c "grep '^sweep: --young=' '$tmp/young.err' | sed 's/ (.*//' | tr '\\n' ' ' | grep -qx 'sweep: --young=0.05 sweep: --young=0.5 sweep: --young=1 '"
check "sweep --axis=young: every run at the one size, each share once, a PageTable row each" \
	[ "$(csv_col "$tmp/young.csv" pages | sort -u)/$(csv_col "$tmp/young.csv" young | sort -u | tr '\n' ' ')/$(csv_col "$tmp/young.csv" walk | grep -c '^pagetable$')" = "10000/0.05 0.5 1 /3" ]
check "sweep --axis=young: a header young, a column a walk compared" \
	grep -Eq '^ +young +memory +vs ListLRU +vs PageTable$' "$tmp/young"
check "sweep --axis=young: a row a share" \
	sh -c "grep -Ec '^ +(0\\.05|0\\.5|1) +[0-9.]+ [KM]iB +[0-9.]+ +[0-9.]+( +[a-z][a-z -]*)?\$' '$tmp/young' | grep -qx 3"
check "sweep --axis=young: the footnote names shares, not sizes" \
	sh -c "! grep -q '^scan warned' '$tmp/young' || grep -q '^scan warned (the young shares, --young, that gave each):' '$tmp/young'"
scripts/sweep.sh --from="$tmp/young.csv" >"$tmp/young.again"
check "sweep --from: a young sweep's CSV read back a row a share" \
	sh -c "cut -d: -f1 '$tmp/young' >'$tmp/y1' && cut -d: -f1 '$tmp/young.again' >'$tmp/y2' && cmp -s '$tmp/y1' '$tmp/y2'"
# --from's footnote in scan's order of warnings, as a sweep's: rows that
# give noisy and cache-sized apart set no order of their own
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "warnings") c = i; print; next }
	{ $c = NR == 2 ? "noisy" : "cache-sized"; print }' "$tmp/young.csv" >"$tmp/apart.csv"
check "sweep --from: the footnote in scan's order, cache-sized before noisy" \
	sh -c "scripts/sweep.sh --from='$tmp/apart.csv' | sed -n 's/^  \([a-z-]*\) at .*/\1/p' | tr '\\n' ' ' | grep -qx 'cache-sized noisy '"
check "sweep --axis=size --from: the same CSV as one size" \
	sh -c "scripts/sweep.sh --axis=size --from='$tmp/young.csv' | grep -Eq '^ +0\\.01 +[0-9.]+ [KM]iB .*\\(.*, 3\\)'"
check "sweep --from: a size sweep with the young column stays a size sweep" \
	sh -c "scripts/sweep.sh --from='$tmp/sweep.csv' | grep -Eq '^ +-c +memory '"
# the walks: added where none are named, refused where pagetable is left out
printf '#!/bin/sh\necho "$*" >>%s/args\nexec %s "$@"\n' "$tmp" "$SCAN" >"$tmp/args.sh"
chmod +x "$tmp/args.sh"
SCAN="$tmp/args.sh" scripts/sweep.sh --axis=young -c 0.01 -r 1 1 >/dev/null 2>&1
check "sweep --axis=young: --walks=list,pagetable where none are named" \
	grep -q -- '^-c 0.01 --young=1 .*--walks=list,pagetable' "$tmp/args"
check "sweep --axis=young: walks without pagetable refused, one line" \
	one_line 2 scripts/sweep.sh --axis=young --walks=list,array 0.1
check "sweep --axis=young: a --young of the user's refused, one line" \
	one_line 2 scripts/sweep.sh --axis=young --young=0.2 0.1
check "sweep --axis=young: a share over 1, one line" one_line 2 scripts/sweep.sh --axis=young 1.5
check "sweep --axis=young: a share of 0, one line" one_line 2 scripts/sweep.sh --axis=young 0
check "sweep --axis=young: -c that is not a size, one line" one_line 2 scripts/sweep.sh --axis=young -c x 0.1
check "sweep --axis=other: one line" one_line 2 scripts/sweep.sh --axis=locality 1
check "sweep: -c without --axis=young still refused, one line" one_line 2 scripts/sweep.sh -c 1 0.01
