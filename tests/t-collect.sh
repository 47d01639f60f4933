#!/bin/sh
# collect.sh: report blocks out of a thread, back into one table.  The
# thread in tests/mail/thread.mbox is made up: eleven posts from three
# machines (an AMD EPYC, two Xeons that print one name), their blocks
# made by report.sh from a stand-in scan with the identity fields.  Alice
# posts a block;
# Bob quotes it and posts two (one in a Markdown-style indent); Carol
# quotes Bob, so Alice's block is quoted twice and Bob's second block is
# rewrapped at 66 columns by her mailer (the pieces lose their "> ");
# Dave's mail is quoted-printable with his name encoded in the header;
# Erin's is multipart, her block base64 and reflowed at 60 columns, with
# an HTML part; Frank posts a block in the shape of a 2.0 that was never
# released (collect no longer reads it: its original lines are bare
# lines); Grace's block is cut off;
# Heidi posts the 2023 program's two lines; Ivan quotes the start of
# Alice's block and trims the rest ("[...]"); Bob runs his first Xeon
# again and Judy a host of Alice's kind, at the same size: one row each
# with Bob's and with Alice's.
. tests/lib.sh

# field CSV COL KEY VALUE: COL in the rows of CSV whose KEY is VALUE.
field() {
	awk -F, -v c="$2" -v k="$3" -v want="$4" '
	NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$h[k] == want { print $h[c] }' "$1"
}
t=$tmp/t.csv

scripts/collect.sh -o "$t" -g "$tmp/t.svg" tests/mail/thread.mbox >"$tmp/table" 2>"$tmp/cerr"
check "collect: a broken block is exit 1" [ $? -eq 1 ]
check "collect: the broken block named with its file, line and mail" \
	grep -q '^collect.sh: tests/mail/thread.mbox:270: broken block (mail 7, From Grace <grace@example.org>, Date 2026-12-07): missing .*a ratio line' "$tmp/cerr"
check "collect: nothing else on stderr (a trimmed quote is no broken block)" \
	[ "$(wc -l <"$tmp/cerr")" -eq 1 ]
check "collect: seven rows, one per machine and setup, a repeated block once" \
	[ "$(wc -l <"$t")" -eq 8 ]
check "collect: every row as many fields as the header" \
	awk -F, 'NR == 1 { nf = NF } NF != nf { exit 1 } END { exit NR < 2 }' "$t"
check "collect: Alice's block (quoted twice) and Judy's, one machine and setup" \
	same "$(field "$t" copies seed 2718281828) $(field "$t" blocks seed 2718281828)" "4 2"
check "collect: ... who posted them, not who quoted them" \
	same "$(field "$t" from seed 2718281828)" "Alice Example <alice@example.org>; Judy <judy@example.org>"
check "collect: ... and when first" same "$(field "$t" date seed 2718281828)" 2026-12-01
check "collect: ... the median of their ratios, the spread of all, the runs" \
	same "$(field "$t" ListLRU seed 2718281828) $(field "$t" ListLRU_min seed 2718281828) $(field "$t" ListLRU_max seed 2718281828) $(field "$t" runs seed 2718281828)" "47.9 46.9 49.3 6"
check "collect: Bob's two runs of one setup, one row" \
	same "$(field "$t" ListLRU seed 31415926) $(field "$t" ListLRU_min seed 31415926) $(field "$t" ListLRU_max seed 31415926) $(field "$t" blocks seed 31415926)" "24.7 23.4 25.6 2"
check "collect: the machine's identity" \
	same "$(field "$t" cpu_vendor seed 2718281828) $(field "$t" cpu_family seed 2718281828) $(field "$t" l2_from seed 2718281828) $(field "$t" stream_ns seed 2718281828)" "AuthenticAMD 25 cpuid 0.92"
check "collect: two Xeons of one name told apart" \
	same "$(field "$t" host_id seed 31415926) $(field "$t" llc_bytes seed 31415926) $(field "$t" host_id seed 27182) $(field "$t" llc_bytes seed 27182)" "5b1e0c77 110100480 9d03aa41 503316480"
check "collect: a rewrapped copy is the same block" same "$(field "$t" copies seed 27182)" 2
check "collect: a rewrapped warning read whole" \
	field "$t" warnings seed 27182 | grep -q 'the ratios measure caches (3 of 3 runs)$'
check "collect: quoted-printable, the From header decoded" \
	same "$(field "$t" from seed 1618)" "$(printf 'Dav\303\251 Mart <dave@example.net>')"
check "collect: ... the protocol" same "$(field "$t" protocol seed 1618)" --original
check "collect: base64 and reflowed" \
	same "$(field "$t" ListLRU seed 777) $(field "$t" ArrayLRU_max seed 777) $(field "$t" cache_sized seed 777)" "61.0 5.30 yes"
check "collect: a block in 2.0's shape, its original lines a bare row" \
	same "$(field "$t" shape ListLRU 119.948568) $(field "$t" pages ListLRU 119.948568)x" "bare x"
check "collect: bare original lines, a row of their own" \
	same "$(field "$t" ArrayLRU from 'Heidi <heidi@example.com>') $(field "$t" pages from 'Heidi <heidi@example.com>')" "2.900000 50000000"
check "collect: no HTML part read" sh -c "! grep -q 'in HTML' '$t'"
check "collect: another protocol grouped apart" \
	sh -c "[ '$(field "$t" group seed 1618)' != '$(field "$t" group seed 2718281828)' ]"
check "collect: a cache-sized memmap grouped apart" \
	sh -c "[ '$(field "$t" group seed 777)' != '$(field "$t" group seed 2718281828)' ]"
check "collect: one group for comparable rows" \
	same "$(field "$t" group seed 31415926)" "$(field "$t" group seed 2718281828)"
check "collect: the table, a heading per group" \
	grep -qx 'protocol --original, cache-sized memmap' "$tmp/table"
check "collect: the table, a row of two blocks posted four times" \
	grep -q '^  AMD EPYC 7B13 \[3fa2b1c0\], LLC 32 MiB  *-c 10  *47.9 (46.9-49.3, 6 runs) .*Alice.* 2 blocks, posted 4x$' "$tmp/table"

# the chart: a bar per figure, hollow where cache-sized, the 1x line
check "collect -g: an SVG" sh -c "head -n 1 '$tmp/t.svg' | grep -q '^<svg ' && tail -n 1 '$tmp/t.svg' | grep -qx '</svg>'"
check "collect -g: a bar per ratio" [ "$(grep -c '<title>' "$tmp/t.svg")" -eq 14 ]
check "collect -g: cache-sized rows hollow" [ "$(grep -c 'fill="none"' "$tmp/t.svg")" -eq 6 ]
check "collect -g: the 1x line" grep -q '>1x: as fast<' "$tmp/t.svg"
if have python3; then
	check "collect -g: the SVG parses" python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$tmp/t.svg"
else
	skip "collect -g: the SVG parses" "no python3"
fi
check "collect -g: a heading per group" \
	grep -q 'font-weight="bold">protocol --original, cache-sized memmap<' "$tmp/t.svg"

# the same thread as a maildir, and on stdin
mkdir -p "$tmp/md/cur" "$tmp/md/new" "$tmp/md/tmp"
# (named in the order of the mails, as a maildir's time stamps name them)
awk -v dir="$tmp/md/cur" '/^From / { f = sprintf("%s/%02d.mail", dir, ++n); next } { print > f }' tests/mail/thread.mbox
scripts/collect.sh "$tmp/md" >"$tmp/mdtable" 2>"$tmp/mderr"
check "collect: a maildir gives the same table" cmp -s "$tmp/table" "$tmp/mdtable"
check "collect: ... and names the broken mail" grep -q '/cur/07.mail:[0-9]*: broken block' "$tmp/mderr"
scripts/collect.sh <tests/mail/thread.mbox >"$tmp/intable" 2>/dev/null
check "collect: stdin gives the same table" cmp -s "$tmp/table" "$tmp/intable"

# Markdown files as docs/results/ holds them: blocks in ``` fences
mkdir -p "$tmp/results"
{ printf '# An EPYC\n\nSome prose.\n\n```\n'; cat tests/mail/block-amd.txt; printf '```\n\nMore prose.\n'; } >"$tmp/results/amd.md"
{ printf '# A Xeon\n\n```text\n'; cat tests/mail/block-xeon105.txt; printf '```\n'; } >"$tmp/results/xeon.md"
scripts/collect.sh -o "$tmp/md.csv" "$tmp/results" >/dev/null 2>"$tmp/err"
check "collect: a directory of Markdown files, exit 0" [ $? -eq 0 ]
check "collect: ... a row per fenced block" [ "$(wc -l <"$tmp/md.csv")" -eq 3 ]
scripts/collect.sh -o "$tmp/md2.csv" "$tmp/results/amd.md" "$tmp/results/xeon.md" >/dev/null 2>&1
check "collect: the files named one by one, the same rows" \
	same "$(csv_col "$tmp/md2.csv" ListLRU | sort)" "$(csv_col "$tmp/md.csv" ListLRU | sort)"

# a quote reflowed by a mailer: three lines of the block joined in one
awk 'NR % 3 == 1 && NR > 1 { print "" } { printf "%s%s", NR % 3 == 1 ? "" : " ", $0 } END { print "" }' \
	tests/mail/block-amd.txt | sed 's/^/> /' >"$tmp/joined.txt"
scripts/collect.sh -o "$tmp/j.csv" "$tmp/joined.txt" tests/mail/block-amd.txt >/dev/null 2>&1
check "collect: a reflowed quote, exit 0" [ $? -eq 0 ]
check "collect: ... the same block as the one it quotes" \
	same "$(csv_col "$tmp/j.csv" copies) $(csv_col "$tmp/j.csv" llc_bytes) $(csv_col "$tmp/j.csv" ArrayLRU_max)" "2 33554432 3.800"

# a block attached as a file, its type octet-stream
if have base64; then
	{
		printf 'From k@example.org Fri Dec 12 10:00:00 2026\nFrom: Kim <k@example.org>\n'
		printf 'Date: Fri, 12 Dec 2026 10:00:00 +0000\nContent-Type: multipart/mixed; boundary=BB\n\n'
		printf -- '--BB\nContent-Type: text/plain\n\nSee attached.\n--BB\n'
		printf 'Content-Type: application/octet-stream; name="xeon.txt"\n'
		printf 'Content-Disposition: attachment; filename="xeon.txt"\nContent-Transfer-Encoding: base64\n\n'
		base64 <tests/mail/block-xeon105.txt
		printf -- '--BB--\n'
	} >"$tmp/att.mbox"
	scripts/collect.sh -o "$tmp/a.csv" "$tmp/att.mbox" >/dev/null 2>&1
	check "collect: a block attached as a .txt file" \
		same "$(csv_col "$tmp/a.csv" host_id) $(csv_col "$tmp/a.csv" from)" "5b1e0c77 Kim <k@example.org>"
else
	skip "collect: a block attached as a .txt file" "no base64 to make the mail"
fi

# indents of no-break spaces, as an HTML mailer leaves them
sed "s/^  /$(printf '\302\240\302\240')/" tests/mail/block-amd.txt >"$tmp/nbsp.txt"
scripts/collect.sh -o "$tmp/n.csv" "$tmp/nbsp.txt" >/dev/null 2>&1
check "collect: indents of no-break spaces" same "$(csv_col "$tmp/n.csv" cpu_stepping)" 1

# the 2023 program's lines in prose, a size and a CPU named near them
cat >"$tmp/bare.txt" <<'MAIL'
On my Xeon E5-2650 v4 @ 2.20GHz with ./scan -c 50 I get Physical scan is 17.2 faster than ListLRU.

And on the Threadripper 3960X, -c 50:
Physical scan is 31.6 faster than ListLRU
Physical scan is 4.100000 faster than ArrayLRU

> Physical scan is 31.6 faster than ListLRU
> Physical scan is 4.100000 faster than ArrayLRU
MAIL
scripts/collect.sh -o "$tmp/b.csv" "$tmp/bare.txt" >"$tmp/out" 2>&1
check "collect: bare lines in prose, two rows, the quote once" [ "$(wc -l <"$tmp/b.csv")" -eq 3 ]
check "collect: ... each with its size and the CPU the mail names" \
	same "$(field "$tmp/b.csv" cpu_text ListLRU 17.2) $(field "$tmp/b.csv" pages ListLRU 17.2) $(field "$tmp/b.csv" cpu_text ListLRU 31.6) $(field "$tmp/b.csv" copies ListLRU 31.6)" \
	"Xeon E5-2650 v4 @ 2.20GHz 50000000 Threadripper 3960X 2"

# a run of three bare lines finds its size two lines above it; two
# original lines run together in a quote are one row, after a bare line
# of their own
cat >"$tmp/bare3.txt" <<'MAIL'
With ./scan -c 20 on an EPYC:

Physical scan is 40.1 faster than ListLRU
Physical scan is 3.1 faster than ArrayLRU
Physical scan is 1.1 faster than XArrayLRU

Physical scan is 47.65 faster than ListLRU
> ratio ArrayLRU: 2.990
> Physical scan is 24.100000 faster than ListLRU Physical scan is 2.990000 faster than ArrayLRU
MAIL
scripts/collect.sh -o "$tmp/b3.csv" "$tmp/bare3.txt" >/dev/null 2>&1
check "collect: three bare lines, their size from above" \
	same "$(field "$tmp/b3.csv" pages ListLRU 40.1) $(field "$tmp/b3.csv" cpu_text ListLRU 40.1)" "20000000 EPYC"
check "collect: ... two run together in a quote, one row" \
	same "$(field "$tmp/b3.csv" ArrayLRU ListLRU 24.100000)" 2.990000

# report.sh's block of two models read back: a row each, the
# kernel-like one under its own protocol, the kernel's ratio on both
scripts/report.sh -n 2 -c 0.01 -r 2 --kernel=tests/kernel-ratio.csv >"$tmp/block2" 2>/dev/null
scripts/collect.sh -o "$tmp/rt2.csv" "$tmp/block2" >"$tmp/rt2.table" 2>"$tmp/err"
check "collect: a block of two models, exit 0" [ $? -eq 0 ]
check "collect: ... a row each, the model asked for and --kernel-like" \
	same "$(csv_col "$tmp/rt2.csv" protocol | tr '\n' ' ')" "default --kernel-like "
check "collect: ... the kernel-like row's figure" \
	same "$(field "$tmp/rt2.csv" ListLRU protocol --kernel-like)" "$(sed -n 's/^kernel-like ratio ListLRU: \([0-9.]*\) .*/\1/p' "$tmp/block2")"
check "collect: ... its command with --kernel-like" \
	same "$(field "$tmp/rt2.csv" command protocol --kernel-like)" "$(sed -n 's/^\$ //p' "$tmp/block2") --kernel-like"
check "collect: ... the model asked for keeps its figure" \
	same "$(field "$tmp/rt2.csv" ListLRU protocol default)" "$(sed -n 's/^ratio ListLRU: \([0-9.]*\) .*/\1/p' "$tmp/block2")"
check "collect: ... the kernel's own ratio in both rows" \
	same "$(csv_col "$tmp/rt2.csv" kernel_ListLRU | tr '\n' ' ')" "1.58 1.58 "
check "collect: ... and in the table's flags, with its pfn scanner" \
	grep -q "kernel's own ListLRU 1.58 (compaction)" "$tmp/rt2.table"
check "collect: ... the pfn scanner in both rows' kernel_scanner" \
	same "$(csv_col "$tmp/rt2.csv" kernel_scanner | tr '\n' ' ')" "compaction compaction "

# report.sh's block of one model read back
scripts/report.sh -n 2 -c 0.01 -r 2 --one-model >"$tmp/block"
scripts/collect.sh -o "$tmp/rt.csv" "$tmp/block" >/dev/null 2>"$tmp/err"
check "collect: report.sh's block, exit 0" [ $? -eq 0 ]
check "collect: ... its figure" \
	same "$(csv_col "$tmp/rt.csv" ListLRU)" "$(sed -n 's/^ratio ListLRU: \([0-9.]*\) .*/\1/p' "$tmp/block")"
check "collect: ... its command and runs" \
	same "$(csv_col "$tmp/rt.csv" command) $(csv_col "$tmp/rt.csv" runs)" "$(sed -n 's/^\$ //p' "$tmp/block") 2"
check "collect: ... its kernel" same "$(csv_col "$tmp/rt.csv" kernel)" "$(sed -n 's/^kernel: \(.*\), THP .*/\1/p' "$tmp/block")"

# a ratio that is not a number: broken, the others kept
sed 's/^ratio ListLRU: 48.6/ratio ListLRU: 4x.6/' tests/mail/block-amd.txt >"$tmp/bad.txt"
scripts/collect.sh "$tmp/bad.txt" tests/mail/block-xeon105.txt >"$tmp/out" 2>"$tmp/err"
check "collect: a figure that is not a number is exit 1" [ $? -eq 1 ]
check "collect: ... named with its line" grep -q "bad.txt:13: broken block: not a line of the block: \"ratio ListLRU: 4x.6" "$tmp/err"
check "collect: ... the other block still in the table" grep -q '5b1e0c77' "$tmp/out"

# the 2023 thread, in a group of its own
scripts/collect.sh --with-2023 -o "$tmp/y.csv" tests/mail/block-amd.txt >/dev/null 2>&1
check "collect --with-2023: exit 0" [ $? -eq 0 ]
check "collect --with-2023: six rows of scan.c 1.1" [ "$(csv_col "$tmp/y.csv" shape | grep -cx 1.1)" -eq 6 ]
check "collect --with-2023: the post's figures" \
	same "$(field "$tmp/y.csv" ListLRU cpu 'Core i7-1165G7 @ 2.8 GHz') $(field "$tmp/y.csv" ArrayLRU cpu 'Core i7-1165G7 @ 2.8 GHz') $(field "$tmp/y.csv" pages cpu 'Core i7-1165G7 @ 2.8 GHz')" "37.96 3.85 10000000"
check "collect --with-2023: a group apart" \
	[ "$(csv_col "$tmp/y.csv" group | sort -u | wc -l)" -eq 2 ]

# errors
collect_fails() {
	want=$1
	shift
	scripts/collect.sh "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	[ $? -eq "$want" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]
}
check "collect: an unknown option is a usage error" collect_fails 2 --bogus
check "collect: -o with no file is a usage error" collect_fails 2 -o
check "collect: a file that is not there" collect_fails 1 "$tmp/none"
check "collect: no block at all" collect_fails 1 tests/lib.sh
check "collect: an -o that cannot be written" collect_fails 1 -o "$tmp/none/x.csv" tests/mail/block-amd.txt
check "collect: a device is refused, not read without end" collect_fails 1 /dev/zero
mkfifo "$tmp/fifo" 2>/dev/null &&
	check "collect: a FIFO is refused, not waited on" collect_fails 1 "$tmp/fifo"
cp tests/mail/block-amd.txt "$tmp/it's.txt"
scripts/collect.sh "$tmp/it's.txt" >/dev/null 2>&1
check "collect: a file name with a quote" [ $? -eq 0 ]

# a mail forwarded whole: the block is its author's
{
	printf 'From lee@example.org Sat Dec 13 10:00:00 2026\nFrom: Lee <lee@example.org>\n'
	printf 'Date: Sat, 13 Dec 2026 10:00:00 +0000\nContent-Type: multipart/mixed; boundary=BB\n\n'
	printf -- '--BB\nContent-Type: text/plain\n\nForwarded.\n--BB\nContent-Type: message/rfc822\n\n'
	printf 'From: Mo <mo@example.org>\nDate: Fri, 12 Dec 2026 08:00:00 +0000\nContent-Type: text/plain\n\n'
	cat tests/mail/block-xeon480.txt
	printf -- '--BB--\n'
} >"$tmp/fwd.mbox"
scripts/collect.sh -o "$tmp/f.csv" "$tmp/fwd.mbox" >/dev/null 2>&1
check "collect: a forwarded mail's block is its author's" \
	same "$(csv_col "$tmp/f.csv" from) $(csv_col "$tmp/f.csv" date)" "Mo <mo@example.org> 2026-12-12"

# a mail of HTML alone: said on stderr, not passed over in silence
{
	printf 'From pat@example.org Sat Dec 13 10:00:00 2026\nFrom: Pat <pat@example.org>\n'
	printf 'Date: Sat, 13 Dec 2026 10:00:00 +0000\nContent-Type: text/html\n\n<pre>...</pre>\n\n'
	cat tests/mail/block-amd.txt
} >"$tmp/html.mbox"
scripts/collect.sh "$tmp/html.mbox" >/dev/null 2>"$tmp/err"
check "collect: a mail of HTML alone is named on stderr" \
	grep -q "html.mbox:1: mail 1 (From Pat <pat@example.org>) has only HTML, not read" "$tmp/err"

# probes: -o '' a usage error; -o /dev/full an error that leaves the
# device be; a full stdout exits 1
one_line() {	# one_line STATUS CMD...: STATUS, one line on stderr, no stdout
	want=$1
	shift
	"$@" >"$tmp/p.out" 2>"$tmp/p.err"
	[ $? -eq "$want" ] && [ ! -s "$tmp/p.out" ] && [ "$(wc -l <"$tmp/p.err")" -eq 1 ]
}
check "collect: -o '' refused, one line" one_line 2 scripts/collect.sh -o '' tests/mail/block-amd.txt
scripts/collect.sh -o /dev/full tests/mail/block-amd.txt >/dev/null 2>&1
check "collect: -o /dev/full exits 1, the device stays" sh -c "[ $? -eq 1 ] && [ -c /dev/full ]"
check "collect: stdout full, exit 1" one_line 1 sh -c 'scripts/collect.sh tests/mail/block-amd.txt >/dev/full'

# --- what a mail or a name brings: control bytes, not UTF-8 ---------------
# An ESC in a From header, raw and as an encoded word, and in a cpu line
# with a byte that is no UTF-8: each written \xHH in the table and the
# CSV, which stay valid UTF-8; a Latin-1 word becomes UTF-8.
e=$(printf '\033')
ff=$(printf '\377')
{
	printf 'From eve@example.org Sun Dec 14 10:00:00 2026\nFrom: Eve %s[2J <eve@example.org>\n' "$e"
	printf 'Date: Sun, 14 Dec 2026 10:00:00 +0000\n\n'
	sed "s/^cpu: AMD EPYC 7B13$/cpu: AMD ${e}[31mEPYC$ff/" tests/mail/block-amd.txt
	printf '\nFrom eve@example.org Sun Dec 14 11:00:00 2026\nFrom: =?utf-8?Q?Ev=1B]0;pwned=07e?= <eve@example.org>\n'
	printf 'Date: Sun, 14 Dec 2026 11:00:00 +0000\n\n'
	cat tests/mail/block-xeon105.txt
	printf '\nFrom dave@example.net Sun Dec 14 12:00:00 2026\nFrom: =?iso-8859-1?Q?Dav=E9?= <dave@example.net>\n'
	printf 'Date: Sun, 14 Dec 2026 12:00:00 +0000\n\n'
	cat tests/mail/block-xeon480.txt
} >"$tmp/esc.mbox"
scripts/collect.sh -o "$tmp/esc.csv" "$tmp/esc.mbox" >"$tmp/esc.table" 2>&1
check "collect: control bytes in From and cpu, exit 0" [ $? -eq 0 ]
check "collect: ... no control byte in the table or the CSV" \
	sh -c "! LC_ALL=C grep -q '[[:cntrl:]]' '$tmp/esc.table' '$tmp/esc.csv'"
check "collect: ... written as \\xHH" \
	same "$(field "$tmp/esc.csv" cpu host_id 3fa2b1c0) $(field "$tmp/esc.csv" from host_id 3fa2b1c0)" \
	'AMD \x1b[31mEPYC\xff Eve \x1b[2J <eve@example.org>'
check "collect: ... in an encoded word too" \
	same "$(field "$tmp/esc.csv" from host_id 5b1e0c77)" 'Ev\x1b]0;pwned\x07e <eve@example.org>'
check "collect: ... a Latin-1 word as UTF-8" \
	same "$(field "$tmp/esc.csv" from host_id 9d03aa41)" "$(printf 'Dav\303\251 <dave@example.net>')"
if have iconv; then
	check "collect: ... the table and the CSV valid UTF-8" \
		sh -c "iconv -f UTF-8 -t UTF-8 '$tmp/esc.table' >/dev/null && iconv -f UTF-8 -t UTF-8 '$tmp/esc.csv' >/dev/null"
else
	skip "collect: ... the table and the CSV valid UTF-8" "no iconv"
fi

# Names with a backslash, a newline, an "=" (which awk would take as an
# assignment were it an operand), named and in a directory.
mkdir "$tmp/names"
cp tests/mail/block-amd.txt "$tmp/names/back\\slash.txt"
cp tests/mail/block-xeon105.txt "$tmp/names/new
line.txt"
cp tests/mail/block-xeon480.txt "$tmp/names/c=2.txt"
(cd "$tmp/names" && "$OLDPWD/scripts/collect.sh" -o ../names.csv 'back\slash.txt' 'new
line.txt' c=2.txt) >/dev/null 2>"$tmp/err"
check "collect: names with a backslash, a newline, an =, each read" \
	sh -c "[ $? -eq 0 ] && [ \$(wc -l <'$tmp/names.csv') -eq 4 ]"
check "collect: ... named in the source, a newline as \\x0a" \
	same "$(csv_col "$tmp/names.csv" source | sort | tr '\n' ' ')" 'back\slash.txt:1 c=2.txt:1 new\x0aline.txt:1 '
scripts/collect.sh -o "$tmp/names2.csv" "$tmp/names" >/dev/null 2>&1
check "collect: ... and in a directory" [ "$(wc -l <"$tmp/names2.csv")" -eq 4 ]
collect_fails 1 "$tmp/names/no
such"
check "collect: a missing name with a newline, one line" [ $? -eq 0 ]

# --- memory, stack and size bounds ----------------------------------------
# A block held, not a mail: 6 MB of prose before a block, in a directory,
# read in 32 MiB of address space (it took 10 times the mail).
# shellcheck disable=SC3045 # dash, bash and BusyBox have ulimit -v and -s
if (ulimit -v 32768) 2>/dev/null; then
	mkdir "$tmp/big"
	{
		printf 'From: Big <big@example.org>\nDate: Mon, 15 Dec 2026 10:00:00 +0000\n\n'
		awk 'BEGIN { for (i = 0; i < 150000; i++) print "Prose that holds no block at all, only words, line " i }'
		echo
		cat tests/mail/block-amd.txt
	} >"$tmp/big/one.mail"
	(ulimit -v 32768 && exec scripts/collect.sh -o "$tmp/big.csv" "$tmp/big") >/dev/null 2>"$tmp/err"
	check "collect: a 6 MB mail in 32 MiB of memory" \
		sh -c "[ $? -eq 0 ] && [ '$(field "$tmp/big.csv" from host_id 3fa2b1c0 2>/dev/null)' = 'Big <big@example.org>' ]"
else
	skip "collect: a 6 MB mail in 32 MiB of memory" "no ulimit -v"
fi
# A 64 KiB stack leaves 16 KiB for arguments and environment, less than
# collect-blocks.awk and lib.awk together (26 KiB): the awk programs
# must come from files.  The environment is emptied (env -i) and the
# stack held still (setarch -R): a CI's environment and ASLR (up to
# 8 KiB) ate the margin of the 16 KiB this ran in before, and dash
# waiting on a child overflowed it.  (gawk needs more stack; mawk runs.)
# shellcheck disable=SC3045
if have mawk && (ulimit -s 64) 2>/dev/null && setarch "$(uname -m)" -R true 2>/dev/null; then
	(ulimit -s 64 && exec env -i PATH="$PATH" AWK=mawk setarch "$(uname -m)" -R \
		scripts/collect.sh -o "$tmp/s.csv" -g "$tmp/s.svg" tests/mail/thread.mbox) >"$tmp/s.table" 2>/dev/null
	check "collect: under ulimit -s 64 and no environment, the same table, CSV and chart" \
		sh -c "[ $? -eq 1 ] && cmp -s '$tmp/table' '$tmp/s.table' && cmp -s '$t' '$tmp/s.csv' && cmp -s '$tmp/t.svg' '$tmp/s.svg'"
else
	skip "collect: under ulimit -s 64 and no environment, the same table, CSV and chart" "no mawk, ulimit -s or setarch -R"
fi
# A file over 1 GiB (sparse: nothing is read) is refused before the
# work; in a directory, named and left out, the others read.
mkdir "$tmp/hugedir"
if dd if=/dev/null of="$tmp/hugedir/huge.txt" bs=1 seek=1073741825 2>/dev/null; then
	check "collect: a file over 1 GiB refused, one line" collect_fails 1 "$tmp/hugedir/huge.txt"
	cp tests/mail/block-amd.txt "$tmp/hugedir/a.txt"
	run_cmd scripts/collect.sh -o "$tmp/huge.csv" "$tmp/hugedir"
	check "collect: ... in a directory, named unread, exit 1, the others read" \
		sh -c "[ $rc -eq 1 ] && grep -q 'huge.txt: more than 1073741824 bytes, not read$' '$tmp/err' && [ \$(wc -l <'$tmp/huge.csv') -eq 2 ]"
else
	skip "collect: a file over 1 GiB refused, one line" "no sparse file"
	skip "collect: ... in a directory, named unread, exit 1, the others read" "no sparse file"
fi
# What is not text (a NUL byte in its first 64 KiB: an image, an
# archive, /dev/zero) is named and passed over at once, the exit status as it was.
mkdir "$tmp/bin"
printf 'PNG\r\n\032\n\000\000\000\rIHDR\n' >"$tmp/bin/a.png"
cp tests/mail/block-amd.txt "$tmp/bin/b.txt"
run_cmd scripts/collect.sh -o "$tmp/bin.csv" "$tmp/bin"
check "collect: a file that is not text named, the others read, exit 0" \
	sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$tmp/err')\" = 'collect.sh: $tmp/bin/a.png: not text (a NUL byte in its first 64 KiB), not read' ] && [ \$(wc -l <'$tmp/bin.csv') -eq 2 ]"
run_cmd scripts/collect.sh </dev/zero
check "collect: stdin of /dev/zero passed over, no block, exit 1" \
	sh -c "[ $rc -eq 1 ] && grep -q '^collect.sh: stdin: not text' '$tmp/err' && [ \$(wc -l <'$tmp/err') -eq 2 ]"

# --- the awk stages lint clean --------------------------------------------
# gawk --lint --posix on every stage over the thread, --with-2023, the
# mails of control bytes and bare lines, and a message that names a file;
# each awk's warnings to a file of its own, so none interleave.  Left
# out: a reference to an unset value and a substr() clipped to its
# string (awk defines both, and the stages read a row's absent fields
# so), and lib.awk's functions these stages do not call.
lint_run() {
	AWK="sh $tmp/lint-awk" scripts/collect.sh "$@" >/dev/null 2>&1
	return 0
}
if have gawk; then
	mkdir "$tmp/lint"
	# shellcheck disable=SC2016 # the wrapper's own expansions
	printf '#!/bin/sh\nexec gawk --lint --posix "$@" 2>"$(mktemp "%s/awk.XXXXXX")"\n' "$tmp/lint" >"$tmp/lint-awk"
	lint_run -o "$tmp/l.csv" -g "$tmp/l.svg" tests/mail/thread.mbox
	lint_run --with-2023 "$tmp/esc.mbox" "$tmp/bare.txt"
	lint_run "$tmp/none"
	unused=$(sed -n 's/^function \([a-z_0-9]*\).*/\1/p' scripts/lib.awk | tr '\n' '|')
	cat "$tmp/lint"/awk.* | grep 'warning:' | grep -v 'uninitialized\|substr: ' |
		grep -Ev "function .(${unused%|}). defined but never called" >"$tmp/lint.out"
	check "collect: every awk stage lints clean (gawk --lint --posix)" \
		sh -c "[ ! -s '$tmp/lint.out' ] && [ \$(ls '$tmp/lint' | wc -l) -ge 10 ]"
	sed 's/^/#   /' "$tmp/lint.out"
else
	skip "collect: every awk stage lints clean (gawk --lint --posix)" "no gawk"
fi
