#!/bin/sh
# report.sh: the block for a mail, its documented shape (scan-report(1)),
# -n N runs and the spread over them.  Tiny sizes; no speed asserted.
. tests/lib.sh

# keyed BLOCK: every line of the block starts with a key of its shape or
# goes on from the line above, indented by two.
keyed() {
	awk 'NR == 1 { if ($0 !~ /^scan [0-9.]+ report, format 4: (1 model, [0-9]+ runs?|2 models, [0-9]+ runs? each), [0-9.]+ [KMGTP]iB simulated$/) exit 1; next }
	!/^(in short|cpu|machine|caches|kernel|memory|size|memmap|protocol|model|physical|between runs|kernel.s own|warning): / &&
	!/^kernel-like (model|physical|between runs): / && !/^kernel-like ratio [A-Za-z]+: / &&
	!/^\$ scan / && !/^ratio [A-Za-z]+: / && !/^Physical scan is / && !/^  [^ ]/ { exit 1 }' "$1"
}

# joined BLOCK: its lines with their continuations joined on.
joined() {
	awk '/^  / { line = line " " substr($0, 3); next }
	NR > 1 { print line } { line = $0 } END { print line }' "$1"
}

# in_order BLOCK KEY...: the keys start lines in this order.
in_order() {
	f=$1
	shift
	for k in "$@"; do
		echo "$k"
	done >"$tmp/keys"
	awk 'NR == FNR { want[++n] = $0; next }
	i < n && index($0, want[i + 1]) == 1 { i++ }
	END { exit i != n }' "$tmp/keys" "$f"
}

# report: a block for a mail (--one-model: the model asked for alone)
scripts/report.sh -n 1 -c 0.01 -r 2 --one-model >"$tmp/report"
check "report: exit 0" [ $? -eq 0 ]
check "report: at most 72 columns" awk 'length > 72 { exit 1 }' "$tmp/report"
check "report: no tabs" sh -c "! grep -q '	' '$tmp/report'"
check "report: names this kernel release" grep -q "$(uname -r)" "$tmp/report"
check "report: the CPU" grep -q "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1 | cut -c1-20)" "$tmp/report"
check "report: the command names scan, with the seed it used" \
	grep -Eq '^\$ scan -c 0.01 -r 2 -s [0-9]+$' "$tmp/report"
check "report: no line breaks inside a parenthesis" \
	awk '{ o = gsub(/\(/, "("); c = gsub(/\)/, ")"); if (o != c) exit 1 }' "$tmp/report"
joined "$tmp/report" >"$tmp/reportj"
check "report: a warning a line, its scan code first, with what clears it" \
	sh -c "{ grep -q 'cache-sized unknown\$' '$tmp/reportj' ||
		grep -Eq '^warning: cache-sized: memmap < 4x LLC .*; use -c [0-9.]+\$' '$tmp/reportj'; } &&
	! grep '^warning: ' '$tmp/reportj' | grep -Evq '^warning: [a-z-]+(: |\$)'"
scripts/report.sh -n 1 -c 0.01 -r 2 -s 7 --one-model >"$tmp/report7"
check "report: a given seed is not added again" grep -q '^\$ .* -s 7$' "$tmp/report7"
check "report: the original's two lines" \
	sh -c "grep -c '^Physical scan is [0-9]*\\.[0-9]\\{6\\} faster than [A-Za-z]*LRU\$' '$tmp/report' | grep -qx 2"
check "report: the spread over rounds of one run" \
	grep -Eq '^ratio ListLRU: [0-9.]+ \([0-9.]+-[0-9.]+, 2 rounds, 1 run\), [0-9.]+ ns/folio$' "$tmp/report"

# the shape: keyed lines in a fixed order
check "report: every line keyed or a continuation" keyed "$tmp/report"
check "report: the keys in their order" in_order "$tmp/report" "scan " "in short:" cpu: \
	machine: caches: kernel: memory: '$ scan' size: memmap: protocol: model: \
	physical: "ratio ListLRU:" "ratio ArrayLRU:" "between runs:" "Physical scan is"
check "report: the first line names the block's format as a version" \
	grep -q '^scan [0-9.]* report, format 4: 1 model, 1 run, ' "$tmp/report"
check "report: the model in scan's words" \
	grep -qx 'model: every pfn an LRU folio, random order, no per-folio work' "$tmp/report"
check "report --one-model: no kernel-like line" sh -c "! grep -q '^kernel-like' '$tmp/report'"
check "report -n 1: the spread between processes not measured, said so" \
	grep -q '^between runs: not measured, one process (-n 1)' "$tmp/report"
check "report: what this scan does not say is unknown" \
	grep -Eq '^machine: host [0-9a-f]{8}|^machine: host unknown' "$tmp/report"
check "report: the default protocol" \
	grep -q '^protocol: default (2 rounds a run, cache cold, --memmap-thp=always)$' "$tmp/report"
check "report: the size and the memmap" \
	grep -Eq '^size: 10000 pages, 39.1 MiB simulated, memmap 625.0 KiB$' "$tmp/report"
check "report: cache-sized said" grep -Eq '^memmap: 64-byte struct page, [0-9]+% in huge pages, (cache-sized|cache-sized unknown)$' "$tmp/report"
scripts/report.sh -n 1 -c 0.01 --original -s 3 >"$tmp/orig" 2>/dev/null
check "report: the 2023 protocol" \
	grep -q '^protocol: --original (1 round a run, cache warm' "$tmp/orig"
scripts/report.sh -n 1 -c 0.01 -r 2 --kernel-like --thp never -s 3 --walks=list >"$tmp/kl" 2>/dev/null
joined "$tmp/kl" >"$tmp/klj"
check "report: the protocol as given, a value after its option joined" \
	grep -q '^protocol: --kernel-like --thp=never (2 rounds a run' "$tmp/klj"

# -n: runs as processes, one seed, the spread between them
scripts/report.sh -n 2 -c 0.01 -r 2 >"$tmp/n2"
check "report -n 2: the spread over 2 runs" \
	grep -Eq '^ratio ArrayLRU: [0-9.]+ \([0-9.]+-[0-9.]+, 2 runs\)' "$tmp/n2"
check "report -n 2: the first line says 2 models, 2 runs each, and the memory simulated" \
	grep -q '^scan .* 2 models, 2 runs each, 39.1 MiB simulated$' "$tmp/n2"
check "report -n 2: every line keyed or a continuation" keyed "$tmp/n2"
check "report -n 2: the model asked for, then the kernel-like one, in one block" \
	in_order "$tmp/n2" "scan " '$ scan' protocol: model: physical: "ratio ListLRU:" \
	"ratio ArrayLRU:" "between runs:" "kernel-like model:" "kernel-like physical:" \
	"kernel-like ratio ListLRU:" "kernel-like ratio ArrayLRU:" "kernel-like between runs:" \
	"Physical scan is"
joined "$tmp/n2" >"$tmp/n2j"
check "report -n 2: the kernel-like ratios with their spread over 2 runs" \
	grep -Eq '^kernel-like ratio ListLRU: [0-9.]+ \([0-9.]+-[0-9.]+, 2 runs\), [0-9.]+ ns/folio' "$tmp/n2j"
check "report -n 2: the spread between processes, measured" \
	grep -Eq '^between runs: ListLRU [-+][0-9.]+% to [-+][0-9.]+%,' "$tmp/n2"
check "report -n 2: the original's lines of the model asked for only" \
	sh -c "[ \$(grep -c '^Physical scan is ' '$tmp/n2') -eq 2 ]"
check "report -n 2: one seed in the command" grep -Eq '^\$ scan -c 0.01 -r 2 -s [0-9]+$' "$tmp/n2"
check "report -n 2: a warning once, with how many runs gave it" \
	sh -c "grep -q '^warning: ' '$tmp/n2j' &&
	! grep '^warning: ' '$tmp/n2j' | grep -Eqv '(of 2 runs|kernel-like: [0-9] of 2( runs)?)\)\$' &&
	! grep '^warning: ' '$tmp/n2j' | sed 's/[0-9.]*//g' | sort | uniq -d | grep -q ."
# report.sh's -n anywhere before a --, among scan's options
scripts/report.sh -c 0.01 -r 2 -n 1 -s 7 >"$tmp/late-n"
check "report: -n after scan's options" \
	sh -c "grep -q '^scan .* 2 models, 1 run each, ' '$tmp/late-n' && grep -q '^\$ scan -c 0.01 -r 2 -s 7\$' '$tmp/late-n'"
check "report: -n after -- goes to scan (which refuses it)" \
	refused 2 scripts/report.sh -c 0.01 -r 2 -- -n 1

# No size given: scan's -c auto, said on stderr, given as -c in the block
cat >"$tmp/auto-scan" <<AUTO
#!/bin/sh
[ "\$1 \$2" = "-c auto" ] && echo "-c auto is -c 10: a 610.4 MiB memmap, the 2023 post's, over 4x the LLC (32.0 MiB, sysfs)" >&2
cat "$tmp/auto.csv"
AUTO
chmod +x "$tmp/auto-scan"
./scan -c 0.01 -r 2 -s 9 --format=csv >"$tmp/auto.csv" 2>/dev/null
SCAN=$tmp/auto-scan scripts/report.sh -n 2 -s 9 >"$tmp/auto" 2>"$tmp/auto.err"
check "report without -c: scan's -c auto, said on stderr" \
	grep -q '^report.sh: no -c given: -c auto is -c 10: a 610.4 MiB memmap' "$tmp/auto.err"
check "report without -c: the block's command gives the size as -c" grep -q '^\$ scan -c 10 -s 9$' "$tmp/auto"

bad_n() {
	scripts/report.sh "$@" >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]
}
for v in 0 abc 100 -1 ''; do
	check "report -n '$v': a usage error" bad_n -n "$v" -c 0.01
done

one_line_early() {	# one_line_early STATUS CMD...: as one_line (below)
	want=$1
	shift
	"$@" >"$tmp/p.out" 2>"$tmp/p.err"
	[ $? -eq "$want" ] && [ ! -s "$tmp/p.out" ] && [ "$(wc -l <"$tmp/p.err")" -eq 1 ]
}

# A stand-in scan that prints the CSV of a real run with its ListLRU
# speedup taken in turn from $tmp/figures, -v's lines on stderr.
run -c 0.01 -r 2 -s 5 --format=csv
cp "$tmp/out" "$tmp/real.csv"
cat >"$tmp/fake" <<FAKE
#!/bin/sh
k=\$(cat "$tmp/k" 2>/dev/null || echo 0)
k=\$((k + 1))
echo "\$k" >"$tmp/k"
v=\$(sed -n "\${k}p" "$tmp/figures")
awk -F, -v OFS=, -v v="\$v" 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i }
NR > 1 && \$c["walk"] == "list" { \$c["speedup"] = v; \$c["speedup_min"] = v; \$c["speedup_max"] = v }
{ print }' "$tmp/real.csv"
echo "Physical scan is \$v faster than ListLRU" >&2
FAKE
chmod +x "$tmp/fake"
printf '%s\n' 49.3 48.0 48.5 >"$tmp/figures"
SCAN=$tmp/fake scripts/report.sh -c 10 --one-model >"$tmp/fake3"
check "report -n 3 (the default): digits that match the spread" \
	grep -q '^ratio ListLRU: 48.5 (48.0-49.3, 3 runs), ' "$tmp/fake3"
check "report: the original's line for the median run" \
	grep -qx 'Physical scan is 48.500000 faster than ListLRU' "$tmp/fake3"
printf '%s\n' 0.755709 >"$tmp/figures"
rm -f "$tmp/k"
SCAN=$tmp/fake scripts/report.sh -n 1 -c 10 --one-model >"$tmp/slow"
check "report: a ratio below 1 read plainly, on a line of its own" \
	grep -qx '  the physical walk is 1.32x slower than ListLRU' "$tmp/slow"
check "report: the original's line below 1 verbatim" \
	grep -qx 'Physical scan is 0.755709 faster than ListLRU' "$tmp/slow"

# The two models interleaved at one size and seed: a scan that logs
# its arguments.
printf '#!/bin/sh\necho "$*" >>"%s"\nexec ./scan "$@"\n' "$tmp/args" >"$tmp/logged"
chmod +x "$tmp/logged"
SCAN=$tmp/logged scripts/report.sh -n 2 -c 0.01 -r 1 -s 4 >"$tmp/two" 2>/dev/null
check "report: the runs interleaved, each kernel-like one at the same size and seed" \
	sh -c "grep -v -- --fields '$tmp/args' | sed 's/ --format=csv -v//' | tr '\n' '|' | grep -qx -- '-c 0.01 -r 1 -s 4|-c 0.01 -r 1 -s 4 --kernel-like|-c 0.01 -r 1 -s 4|-c 0.01 -r 1 -s 4 --kernel-like|'"
joined "$tmp/two" >"$tmp/twoj"
check "report: the kernel-like model in scan's words" \
	grep -q '^kernel-like model: 85% of pfns on the LRU, .*, isolate each folio, rmap 0.5:3, 40 lists, 32 folios a turn$' "$tmp/twoj"
scripts/report.sh -n 1 -c 0.01 -r 1 --kernel-like >"$tmp/klone" 2>"$tmp/klone.err"
check "report --kernel-like: one model, said on stderr" \
	sh -c "grep -q '^report.sh: --kernel-like given: one model in the block' '$tmp/klone.err' && ! grep -q '^kernel-like ' '$tmp/klone'"
# the kernel's own ratio, from scan-kernel's CSV, with or without its
# scanner column (a CSV from before that column had compaction's)
scripts/report.sh -n 1 -c 0.01 -r 1 --kernel=tests/kernel-ratio.csv >"$tmp/kr" 2>/dev/null
joined "$tmp/kr" >"$tmp/krj"
check "report --kernel: the kernel's ratio, its working set and host" \
	grep -Eq "^kernel's own: ratio ListLRU 1\.58 \(its CSV gives no interval\), scan-kernel: compaction as the pfn scanner, 64\.0 MiB working set, (this host|host 168833b5, not this one)$" "$tmp/krj"
check "report --kernel: in short, the kernel's own beside the two models, each read plainly" \
	sh -c "grep -Eq '^  default model  [0-9.]+ \([0-9.]+-[0-9.]+\): the physical walk is [0-9.]+x (faster|slower)$' '$tmp/kr' &&
		grep -Eq '^  kernel-like    [0-9.]+ \([0-9.]+-[0-9.]+\): the physical walk is [0-9.]+x (faster|slower)$' '$tmp/kr' &&
		grep -qx '  kernel.s own   1.58: the physical walk is 1.58x faster' '$tmp/kr'"
check "report: in short, ratio ListLRU defined where it first appears" \
	sh -c "grep -n 'ratio ListLRU' '$tmp/kr' | head -n 1 | grep -q '^2:in short: ratio ListLRU is the ListLRU walk.s time over the physical\$'"
awk -F, -v OFS=, '{ print $0, NR == 1 ? "scanner" : "compaction" }' tests/kernel-ratio.csv >"$tmp/scanner.csv"
scripts/report.sh -n 1 -c 0.01 -r 1 --one-model --kernel="$tmp/scanner.csv" >"$tmp/ks" 2>/dev/null
joined "$tmp/ks" >"$tmp/ksj"
check "report --kernel: a CSV with a scanner column names the pfn scanner" \
	grep -q "^kernel's own: ratio ListLRU 1.58 (its CSV gives no interval), scan-kernel: compaction as the pfn scanner, " "$tmp/ksj"
# offline's scanner words made the longest line (90 columns); a ratio
# under 1 with its interval (speedup_min and speedup_max, where a CSV
# has them) gets its interval and plain reading, as a model's does
awk -F, -v OFS=, 'NR == 1 { print $0, "scanner", "speedup_min", "speedup_max"; next }
	{ if ($1 == "kernel" && $2 == "list") $7 = "0.400000"; print $0, "offline", "0.35", "0.46" }' \
	tests/kernel-ratio.csv >"$tmp/offline.csv"
scripts/report.sh -n 1 -c 0.01 -r 1 --kernel="$tmp/offline.csv" >"$tmp/ko" 2>/dev/null
joined "$tmp/ko" >"$tmp/koj"
check "report --kernel: every line within 72 columns" awk 'length > 72 { exit 1 }' "$tmp/ko"
check "report --kernel: the kernel's ratio below 1, its interval and reading, as the kernel-like lines" \
	grep -Eqx "kernel's own: ratio ListLRU 0\.40 \(0\.35-0\.46, quartiles\), scan-kernel: memory-block offline as the pfn scanner, 64\.0 MiB working set, (this host|host 168833b5, not this one); the physical walk is 2\.50x slower than ListLRU" "$tmp/koj"
check "report --kernel: in short, the kernel's interval and reading" \
	grep -qx "  kernel's own   0.40 (0.35-0.46): the physical walk is 2.50x slower" "$tmp/ko"
check "report --kernel: memory-block offline named as the pfn scanner, and read back by collect" \
	sh -c "scripts/collect.sh '$tmp/ko' | grep -q 'kernel.s own ListLRU 0.40 (memory-block offline)'"
scripts/report.sh -n 1 -c 0.01 -r 1 --kernel=tests/kernel-noratio.csv >"$tmp/kn" 2>/dev/null
joined "$tmp/kn" >"$tmp/knj"
check "report --kernel: no ratio in the CSV, said why" grep -q "^kernel's own: no ratio: .*; scan-kernel: " "$tmp/knj"
check "report --kernel: in short, no ratio said why" grep -q "^  kernel's own   no ratio: its speedup is empty" "$tmp/kn"
check "report --kernel: no ratio, the block still read back by collect" \
	sh -c "scripts/collect.sh '$tmp/kn' >/dev/null"
check "report: no kernel figure, in short says so" \
	grep -qx "  kernel's own   not measured; \`scan-kernel\` as root measures it" "$tmp/report"
check "report --kernel: not scan-kernel's CSV, exit 1 with one line" one_line_early 1 \
	scripts/report.sh -n 1 -c 0.01 --kernel=tests/run.sh
check "report: --kernel and --kernel-run together refused" one_line_early 2 \
	scripts/report.sh -n 1 -c 0.01 --kernel=tests/kernel-ratio.csv --kernel-run
# --kernel-run, as root, with a stand-in scan-kernel beside a copy of the
# scripts: its CSV and its stdout's interval; one that fails is named
mkdir "$tmp/bin"
cp scripts/*.sh scripts/*.awk "$tmp/bin/"
awk -F, -v OFS=, '{ print $0, NR == 1 ? "scanner" : "offline" }' tests/kernel-ratio.csv >"$tmp/bin/k.csv"
cat >"$tmp/bin/kernel.sh" <<EOF
#!/bin/sh
[ "\$1" = -m ] && { echo "-m \$2" >"$tmp/bin/k.args"; shift 2; }
[ "\$1" = -o ] || exit 2
[ -z "\${KFAIL:-}" ] || { echo "scan-kernel: too few LRU batches (144, 1000 wanted)" >&2; exit 1; }
cp "$tmp/bin/k.csv" "\$2"
echo "Kernel: physical scan is 1.58 faster than ListLRU (1.21 to 1.93, from the two scanners' interquartile ranges; pfn scanner: offline)"
EOF
if [ "$(id -u)" -eq 0 ]; then
	SCAN=$PWD/scan sh "$tmp/bin/report.sh" -n 1 -c 0.01 -r 1 --kernel-run=64M >"$tmp/krun" 2>"$tmp/krun.err"
	joined "$tmp/krun" >"$tmp/krunj"
	check "report --kernel-run: scan-kernel's figure with the interval from its stdout, -m passed" \
		sh -c "grep -qx '  kernel.s own   1.58 (1.21-1.93): the physical walk is 1.58x faster' '$tmp/krun' &&
			grep -q '^kernel.s own: ratio ListLRU 1.58 (1.21-1.93, quartiles), scan-kernel: memory-block offline' '$tmp/krunj' &&
			grep -qx -- '-m 64M' '$tmp/bin/k.args'"
	KFAIL=1 SCAN=$PWD/scan sh "$tmp/bin/report.sh" -n 1 -c 0.01 -r 1 --kernel-run >"$tmp/kfail" 2>"$tmp/kfail.err"
	rc=$?
	check "report --kernel-run: scan-kernel failing, the block says why" \
		sh -c "[ $rc -eq 0 ] && tr '\n' ' ' <'$tmp/kfail' |
			grep -Eq '  kernel.s own   not measured: scan-kernel exited 1: scan-kernel: too +few LRU batches \(144, 1000 wanted\)'"
else
	check "report --kernel-run: not root, exit 1 with one line" one_line_early 1 \
		scripts/report.sh -n 1 -c 0.01 --kernel-run
fi

# --brief (make run): stdout is the first run's two lines as scan prints
# them; stderr scan's lines, then in short alone
scripts/report.sh --brief -c 0.01 -r 1 -s 3 >"$tmp/brief" 2>"$tmp/brief.err"
rc=$?
check "report --brief: exit 0, stdout the original's two lines" \
	sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^Physical scan is [0-9]*\.[0-9]\{6\} faster than [A-Za-z]*LRU\$' '$tmp/brief') -eq 2 ] &&
		[ \$(wc -l <'$tmp/brief') -eq 2 ]"
check "report --brief: stderr has scan's model lines, both models, then in short" \
	sh -c "grep -q '^scan: model: every pfn an LRU folio' '$tmp/brief.err' &&
		grep -q '^scan: model: --kernel-like (' '$tmp/brief.err' &&
		grep -q '^report.sh: and the kernel-like model at that size: scan -c 0.01 -r 1 -s 3 --kernel-like\$' '$tmp/brief.err' &&
		grep -q '^in short: ratio ListLRU is ' '$tmp/brief.err' &&
		grep -qx '  kernel.s own   not measured; \`scan-kernel\` as root measures it' '$tmp/brief.err' &&
		! grep -q '^cpu: ' '$tmp/brief.err'"
check "report --brief: none of scan's -v lines on stderr" sh -c "! grep -q '^memmap ' '$tmp/brief.err'"
check "report --brief with -n refused" one_line_early 2 scripts/report.sh --brief -n 2 -c 0.01

# another program's CSV: exit 1 and a line that says why
printf '#!/bin/sh\necho "name,value"\necho "x,1"\n' >"$tmp/other"
chmod +x "$tmp/other"
SCAN=$tmp/other scripts/report.sh -n 1 >"$tmp/out" 2>"$tmp/err"
check "report: another program's CSV is exit 1" [ $? -eq 1 ]
check "report: ... with a line saying why" grep -q "^report.sh: .*other printed no CSV of scan's (no walk column" "$tmp/err"

# a CSV of scan's gone wrong: a ragged row, text in a figure
for mangle in 's/^list,/list,extra,/' 's/^list,ListLRU,\([^,]*\),/list,ListLRU,\1,abc,/'; do
	sed "$mangle" "$tmp/real.csv" >"$tmp/mangled.csv"
	printf '#!/bin/sh\ncat "%s"\n' "$tmp/mangled.csv" >"$tmp/mangled"
	chmod +x "$tmp/mangled"
	SCAN=$tmp/mangled scripts/report.sh -n 1 >"$tmp/out" 2>"$tmp/err"
	check "report: a mangled CSV ($mangle) is exit 1 with one line" \
		sh -c "[ $? -eq 1 ] && [ ! -s '$tmp/out' ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'row 3' '$tmp/err'"
done

# probes: -n of 20 digits, --format, a silent failing SCAN and a full
# stdout, each with its one line
one_line() {	# one_line STATUS CMD...: STATUS, one line on stderr, no stdout
	want=$1
	shift
	"$@" >"$tmp/p.out" 2>"$tmp/p.err"
	[ $? -eq "$want" ] && [ ! -s "$tmp/p.out" ] && [ "$(wc -l <"$tmp/p.err")" -eq 1 ]
}
check "report: -n of 20 digits, one line, no shell error" one_line 2 scripts/report.sh -n 99999999999999999999 -c 0.01
check "report: --format refused" one_line 2 scripts/report.sh -n 1 -c 0.01 --format=json
printf '#!/bin/sh\nexit 2\n' >"$tmp/mute-scan"
chmod +x "$tmp/mute-scan"
check "report: a SCAN failing silently is named" one_line 2 env SCAN="$tmp/mute-scan" scripts/report.sh -n 1
check "report: stdout full, exit 1" one_line 1 sh -c 'scripts/report.sh -n 1 -c 0.01 -r 1 >/dev/full'

# a block read back whatever its path's length (t-roundtrip, slow tier,
# takes 1 to 200 characters): at 55 the protocol's path once left
# "protocol:" alone on its line, and a path longer than a line was cut
for len in 55 120; do
	d=$tmp/$(printf '%0*d' "$((len - ${#tmp} - 5))" 0)
	mkdir -p "$d"
	kpageflags "$d/kpf" 64
	scripts/report.sh -n 1 -r 1 "--memmap-from=$d/kpf" >"$tmp/rt.block" 2>/dev/null
	scripts/collect.sh -o "$tmp/rt.csv" "$tmp/rt.block" >/dev/null 2>"$tmp/err"
	check "report: a block with a $len-character path reads back, the path whole" \
		grep -q ",--memmap-from=$d/kpf," "$tmp/rt.csv"
done
