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
for f in scripts/kernel/*.sh; do	# scan-kernel's parts
	check "install: DATADIR/scan/kernel/${f##*/}" [ -f "$data/scan/kernel/${f##*/}" ]
done
# the installed scan-kernel reads its parts from DATADIR: its checks of
# the options come after them (for any user), and --check plans as the
# source tree's does where that can run here (root, tracefs, a memory cgroup)
(cd "$tmp" && SCAN="" "$pfx/bin/scan-kernel" --check -d "$tmp/none") >"$tmp/kernel" 2>&1
check "install: scan-kernel --check from elsewhere reads its parts, then refuses a -d not there" \
	sh -c "[ $? -eq 1 ] && [ \"\$(grep -c '' '$tmp/kernel')\" -eq 1 ] && grep -q '^scan-kernel: -d .*none: no such directory\$' '$tmp/kernel'"
if sh scripts/kernel.sh --check -m 64M >/dev/null 2>&1; then
	(cd "$tmp" && SCAN="" "$pfx/bin/scan-kernel" --check -m 64M) >"$tmp/kernel" 2>&1
	check "install: scan-kernel --check from elsewhere: exit 0, it can run here" \
		sh -c "[ $? -eq 0 ] && grep -q '^scan-kernel: --check: it can run here' '$tmp/kernel'"
	check "install: scan-kernel --check plans as scripts/kernel.sh does" \
		sh -c "sh scripts/kernel.sh --check -m 64M 2>&1 | sed 's/^kernel\.sh:/scan-kernel:/; s/scan-kernel-[0-9]*/scan-kernel-PID/g' >'$tmp/plan-tree' &&
			sed 's/scan-kernel-[0-9]*/scan-kernel-PID/g' '$tmp/kernel' | cmp -s - '$tmp/plan-tree'"
else
	skip "install: scan-kernel --check from elsewhere" "scripts/kernel.sh --check cannot run here (not root, no tracefs or memory cgroup)"
fi
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
	sh -c "[ -z \"\$(find '$pfx' '$data' -type f 2>/dev/null)\" ]"
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

# install says a line a group, never its shell loops; uninstall takes
# away the directories install made, where empty, and none that was
# there before (a bin/ holding another file stays, with the file)
make --no-print-directory install PREFIX="$tmp/p3" >"$tmp/install3.out" 2>&1
rc=$?
cp "$tmp/install3.out" "$tmp/err"	# shown where the check fails
check "install: a line a group, no shell loop echoed" \
	sh -c "[ $rc -eq 0 ] && grep -q '^install scan in $tmp/p3/bin\$' '$tmp/install3.out' &&
		grep -q '^install [0-9]* man pages in ' '$tmp/install3.out' &&
		! grep -Eq '(^| )(for|do|done|cp|chmod|sed|mkdir)( |;|\$)' '$tmp/install3.out' &&
		[ \$(wc -l <'$tmp/install3.out') -le 6 ]"
: >"$tmp/err"
make -s uninstall PREFIX="$tmp/p3" >/dev/null 2>&1
check "uninstall: the directories install made are gone, the prefix too" [ ! -e "$tmp/p3" ]
mkdir -p "$tmp/p4/bin"
echo other >"$tmp/p4/bin/other"
make -s install PREFIX="$tmp/p4" >/dev/null 2>&1 && make -s install PREFIX="$tmp/p4" >/dev/null 2>&1
make -s uninstall PREFIX="$tmp/p4" >/dev/null 2>&1
check "uninstall: a bin/ that was there stays with its other file; share/ goes" \
	sh -c "[ \"\$(cat '$tmp/p4/bin/other')\" = other ] && [ ! -e '$tmp/p4/share' ]"
