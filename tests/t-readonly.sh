#!/bin/sh
# A read-only output is refused: collect.sh -o, sweep.sh -o, explain.sh
# -o/-g and results.sh's files (before its runs) on a file of mode 444
# exit 1 with one line, nothing on stdout,
# and leave the file as it was, its bytes and its mode, as "echo >FILE"
# would be refused.  Root, whose writes the kernel never refuses, is
# refused too (scan-env.sh's out_writable: no write bit at all).  The
# rename into place once replaced such a file with exit 0.  A file this
# script made itself under umask 222 is still its to update.
. tests/lib.sh
case $SCAN in /*) ;; *) SCAN=$(pwd)/$SCAN ;; esac
printf 'scan 2.0\n' >"$tmp/block"	# any input: the output is checked first

# kept FILE: FILE still says KEEP and is mode 444
kept() {
	[ "$(cat "$1")" = KEEP ] && [ "$(stat -c %a "$1")" = 444 ]
}
# ro_refused CMD...: CMD exits 1, one line (permission denied), no stdout
ro_refused() {
	refused 1 "$@" && err_has 'permission denied'
}
# refused_ro WHAT CMD...: with $tmp/F read-only, CMD refused, F kept
refused_ro() {
	what=$1
	shift
	rm -f "$tmp/F"
	echo KEEP >"$tmp/F"
	chmod 444 "$tmp/F"
	check "$what: a read-only output refused, exit 1, one line" ro_refused "$@"
	check "$what: the read-only file is left as it was" kept "$tmp/F"
}
refused_ro "collect.sh -o" scripts/collect.sh -o "$tmp/F" "$tmp/block"
refused_ro "collect.sh -g" scripts/collect.sh -g "$tmp/F" "$tmp/block"
refused_ro "sweep.sh -o" scripts/sweep.sh -o "$tmp/F" -r 1 0.01
refused_ro "explain.sh -o" scripts/explain.sh -c 0.01 -n 1 -o "$tmp/F"
refused_ro "explain.sh -g" scripts/explain.sh -c 0.01 -n 1 -g "$tmp/F"

# results.sh checks its files before its runs: a read-only HOST-DATE.md
# is refused after the identity run, before any block's.  The scan here
# is a stand-in that logs each call and gives an identity of its own.
mkdir "$tmp/res"
printf '#!/bin/sh\necho "$*" >>"%s/calls"\nprintf '"'"'walk,cpu,cpu_family,cpu_model\\nphysical,Fake CPU,1,2\\n'"'"'\n' \
	"$tmp" >"$tmp/fake-scan"
chmod +x "$tmp/fake-scan"
ro_md=$tmp/res/fake-cpu-1-2-$(date -u +%Y-%m-%d).md
echo KEEP >"$ro_md"
chmod 444 "$ro_md"
SCAN=$tmp/fake-scan scripts/results.sh -q -o "$tmp/res" >"$tmp/res.out" 2>"$tmp/res.err"
check "results.sh: a read-only HOST-DATE.md refused, exit 1" test $? -eq 1
check "results.sh: refused before any run but the identity's" \
	test "$(grep -c '' "$tmp/calls")" -eq 1
# one_line_naming FILE: FILE is one line, the refusal of the .md
one_line_naming() {
	[ "$(grep -c '' "$1")" -eq 1 ] && grep -q 'fake-cpu-1-2-.*permission denied' "$1"
}
check "results.sh: one line, naming the file" one_line_naming "$tmp/res.err"
check "results.sh: the read-only file is left as it was" kept "$ro_md"

# a writable file is still replaced, its mode kept
echo OLD >"$tmp/W"
chmod 640 "$tmp/W"
scripts/sweep.sh -o "$tmp/W" -r 1 0.01 >/dev/null 2>&1
check "sweep.sh -o: a writable file replaced, its mode kept" \
	sh -c "head -n 1 '$tmp/W' | grep -q '^walk,' && [ \$(stat -c %a '$tmp/W') = 640 ]"
# under umask 222 the sweep's own file is mode 444 after its first size,
# and it goes on updating it (as root: a user's scratch directory is
# then read-only too, and the sweep stops before its first run)
if [ "$(id -u)" -eq 0 ]; then
	(umask 222 && scripts/sweep.sh -o "$tmp/U" -r 1 0.01 0.02 >/dev/null 2>&1)
	check "sweep.sh -o under umask 222: its own file updated, both sizes in it" \
		[ "$(csv_col "$tmp/U" run | wc -l)" -eq 6 ]
else
	skip "sweep.sh -o under umask 222" "not root: umask 222 leaves no scratch directory"
fi
