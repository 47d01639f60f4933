# scan-env.sh - sourced by the scripts: where scan and the shared awk are.
# shellcheck disable=SC2034 # sourced: the scripts read $scan and $awklib
# A script runs from the repository (scripts/x.sh) or installed
# (BINDIR/scan-x, with this file and human.awk in DATADIR/scan).
# $scan: SCAN if set, else scan beside the script, else scan on PATH,
# else ./scan.  $awklib: the text of human.awk, to put before a program.
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
for awklib in "$here/human.awk" "$here/../share/scan/human.awk"; do
	[ -r "$awklib" ] && break
done
awklib=$(cat "$awklib")
