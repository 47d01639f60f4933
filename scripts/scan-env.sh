# scan-env.sh - sourced by the scripts: where scan and the shared awk are,
# and the steps every script takes.
# shellcheck disable=SC2034 # sourced: the scripts read $scan, $awk and $awklib
# A script runs from the repository (scripts/x.sh) or installed
# (BINDIR/scan-x, with this file and lib.awk in DATADIR/scan).
# $scan: SCAN if set, else scan beside the script, else scan on PATH,
# else ./scan.  $awklib: the text of lib.awk, to put before a program.
# $awk: AWK if set (a command, maybe with arguments: AWK='busybox awk'),
# else awk.  need_math NAME stops NAME with a message when that awk has
# no log() (Debian's BusyBox awk is built without).
here=$(dirname "$0")
if [ -n "${SCAN:-}" ]; then
	scan=$SCAN
elif [ -x "$here/scan" ]; then
	scan=$here/scan
elif command -v scan >/dev/null 2>&1; then
	scan=$(command -v scan)
else
	scan=./scan
fi
for awklib in "$here/lib.awk" "$(dirname "$0")/../share/scan/lib.awk"; do
	[ -r "$awklib" ] && break
done
awklib=$(cat "$awklib")
awk=${AWK:-awk}
need_math() {
	# shellcheck disable=SC2086 # $awk may be a command and its arguments
	command -v ${awk%% *} >/dev/null 2>&1 || {
		echo "$1: no awk: $awk not found" >&2
		exit 1
	}
	# shellcheck disable=SC2086
	$awk 'BEGIN { x = log(10); exit !(x > 2.3 && x < 2.31) }' 2>/dev/null || {
		echo "$1: $awk has no math (log, ^): use gawk or mawk, e.g. AWK=gawk" >&2
		exit 1
	}
}

# usage: the script's header block, the lines that start with #/.
usage() {
	sed -n 's|^#/ \{0,1\}||p' "$0"
}

# need_scan NAME: stop NAME unless $scan can run.
need_scan() {
	[ -x "$scan" ] || { echo "$1: no $scan: run make first" >&2; exit 1; }
}

# scratch: $tmp, a directory removed when the script ends.
scratch() {
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT INT TERM
}
