#!/bin/sh
# make install and uninstall into a scratch prefix; the installed
# scripts find the installed scan from anywhere; the man page documents
# every option and lints clean.
. tests/lib.sh

pfx=$tmp/prefix
make -s install PREFIX="$pfx" >"$tmp/install.out" 2>&1
check "install: exit 0" [ $? -eq 0 ]
scripts=""
for f in scripts/*.sh; do	# every script but the one they source
	name=${f#scripts/}
	[ "$name" = scan-env.sh ] || scripts="$scripts bin/scan-${name%.sh}"
done
for f in bin/scan share/man/man1/scan.1 share/scan/lib.awk share/scan/scan-env.sh $scripts; do
	check "install: $f" [ -f "$pfx/$f" ]
done
# the block names scan, not its path: no ./scan in $tmp, so a block is
# the installed scan's
(cd "$tmp" && SCAN='' "$pfx/bin/scan-report" -n 1 -c 0.01 -r 1) >"$tmp/report" 2>&1
check "install: an installed script runs the installed scan from elsewhere" \
	grep -Eq '^\$ scan -c 0.01 -r 1 -s [0-9]+$' "$tmp/report"
(cd "$tmp" && "$pfx/bin/scan-plot" -h) >"$tmp/plot-help" 2>&1
check "install: an installed script prints its usage" \
	grep -q '^plot.sh - draw' "$tmp/plot-help"
make -s uninstall PREFIX="$pfx" >/dev/null 2>&1
check "uninstall: nothing left but empty directories" \
	sh -c "[ -z \"\$(find '$pfx' -type f)\" ]"

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
