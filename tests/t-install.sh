#!/bin/sh
# make install and uninstall into a scratch prefix; the installed
# scripts find the installed scan from anywhere; the man page documents
# every option and lints clean.
. tests/lib.sh

# DATADIR apart from PREFIX: the installed scripts must look there
pfx=$tmp/prefix
data=$tmp/data
make -s install PREFIX="$pfx" DATADIR="$data" >"$tmp/install.out" 2>&1
check "install: exit 0" [ $? -eq 0 ]
scripts=""
for f in scripts/*.sh; do	# every script but the one they source and the guest's init
	name=${f#scripts/}
	case $name in scan-env.sh | vm-init.sh) ;; *) scripts="$scripts bin/scan-${name%.sh}" ;; esac
done
pages=""
for f in scripts/scan-*.1; do
	[ -f "$f" ] && pages="$pages share/man/man1/${f#scripts/}"
done
for f in bin/scan share/man/man1/scan.1 $scripts $pages; do
	check "install: $f" [ -f "$pfx/$f" ]
done
for f in lib.awk scan-env.sh vm-init.sh thread-2023.txt; do
	check "install: DATADIR/scan/$f" [ -f "$data/scan/$f" ]
done
(cd "$tmp" && "$pfx/bin/scan-collect" --with-2023 </dev/null) >"$tmp/thread" 2>&1
check "install: scan-collect --with-2023 finds the installed 2023 figures" \
	grep -q '1\.1' "$tmp/thread"
for f in $scripts; do
	(cd "$tmp" && "$pfx/$f" -h) >"$tmp/help" 2>&1
	check "install: $f -h runs from elsewhere, with DATADIR apart" \
		sh -c "[ $? -eq 0 ] && [ -s '$tmp/help' ] && ! grep -q 'cannot open' '$tmp/help'"
done
# the block names scan, not its path: no ./scan in $tmp, so a block is
# the installed scan's
(cd "$tmp" && SCAN='' "$pfx/bin/scan-report" -n 1 -c 0.01 -r 1) >"$tmp/report" 2>&1
check "install: an installed script runs the installed scan from elsewhere" \
	grep -Eq '^\$ scan -c 0.01 -r 1 -s [0-9]+$' "$tmp/report"
(cd "$tmp" && "$pfx/bin/scan-plot" -h) >"$tmp/plot-help" 2>&1
check "install: an installed script prints its usage" \
	grep -q '^plot.sh - draw' "$tmp/plot-help"
# scan-compare finds stats.awk where make put it (DATADIR): one run a
# side in each of r1.csv to r8.csv
for r in 1:40.1 2:41.3 3:39.8 6:40.5 7:41.9 8:40.2; do
	printf 'walk,label,pages,speedup\nlist,ListLRU,1000000,%s\n' "${r#*:}" >"$tmp/r${r%:*}.csv"
done
(cd "$tmp" && "$pfx/bin/scan-compare" r1.csv r2.csv r3.csv -- r6.csv r7.csv r8.csv) \
	>"$tmp/installed" 2>&1
check "installed: scan-compare gives its verdict" grep -q 'no change detected (90%: ' "$tmp/installed"
make -s uninstall PREFIX="$pfx" DATADIR="$data" >/dev/null 2>&1
check "uninstall: nothing left but empty directories" \
	sh -c "[ -z \"\$(find '$pfx' '$data' -type f)\" ]"
# a DATADIR the installed scripts could not name unquoted: refused first
make -s install PREFIX="$tmp/p2" DATADIR="$tmp/a b" >"$tmp/install.out" 2>&1
check "install: a DATADIR with a space is refused, with one line, nothing made" \
	sh -c "[ $? -ne 0 ] && grep -q '^make install: DATADIR=' '$tmp/install.out' && [ ! -e '$tmp/p2' ]"

# the man page: every option of -h, and clean under groff's warnings
./scan -h | sed -n 's/^  \(-[a-zA-Z-]*\).*/\1/p; s/^  -[a-zA-Z], \(--[a-z-]*\).*/\1/p' |
	sed 's/=.*//' | sort -u >"$tmp/opts"
missing=""
while read -r o; do
	esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
	grep -q -- "$esc" scan.1 || missing="$missing $o"
done <"$tmp/opts"
check "scan.1: documents every option of -h" [ -z "$missing" ]
[ -z "$missing" ] || echo "#   missing:$missing"
check "scan.1: names the exit statuses" \
	sh -c "grep -q '^\\.SH EXIT STATUS' scan.1 && grep -q '^\\.B 2\$' scan.1"
if have groff; then
	groff -man -ww -z scan.1 >"$tmp/lint" 2>&1
	check "scan.1: groff -man -ww finds nothing" [ ! -s "$tmp/lint" ]
else
	skip "scan.1: lint" "no groff"
fi
