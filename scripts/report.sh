#!/bin/sh
#/ report.sh - run scan and print a block ready to paste into a plain-text
#/ mail: the machine, the command, the original's two lines, the spread.
#/
#/ usage: scripts/report.sh [-h] [SCAN_OPTION...]
#/
#/ The options go to scan as they are (default: none, the original's run).
#/ The block is at most 72 columns wide and has no tabs.  SCAN names the
#/ binary (default ./scan).
set -eu

usage() {
	sed -n 's|^#/ \{0,1\}||p' "$0"
}

case ${1:-} in
-h | --help) usage; exit 0 ;;
esac

env=$(dirname "$0")/scan-env.sh	# $scan, $awklib
[ -r "$env" ] || env=$(dirname "$0")/../share/scan/scan-env.sh
# shellcheck source=scripts/scan-env.sh
. "$env"
[ -x "$scan" ] || { echo "report.sh: no $scan: run make first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# One run: the data on stdout, -v's lines (the original's among them) on
# stderr.
rc=0
"$scan" "$@" --format=csv -v >"$tmp/csv" 2>"$tmp/text" || rc=$?
if [ "$rc" -ne 0 ]; then
	cat "$tmp/text" >&2
	exit "$rc"
fi

{
	awk -F, -v cmd="$scan $*" "$awklib"'
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	NR == 2 {
		printf "scan %s on %s, %s CPUs, %s of RAM\n", $col["version"],
		    $col["cpu"], $col["cpus"], human($col["ram_bytes"], "%.1f")
		printf "kernel %s, THP %s (scan --thp=%s)\n", $col["kernel"],
		    $col["system_thp"], $col["thp"]
		printf "$ %s\n", cmd
	}
	{ row[NR] = $0 }
	END {
		n = NR
		for (r = 2; r <= n; r++) {
			split(row[r], f, ",")
			nsp = sprintf("%.2f ns/page", f[col["ns_per_page"]])
			if (f[col["walk"]] == "physical") {
				printf "%s pages (%s simulated), %d%% of the memmap in huge pages, %s rounds\n",
				    f[col["pages"]], human(f[col["memory_bytes"]], "%.1f"),
				    100 * f[col["huge_share"]], f[col["rounds"]]
				phys = "Physical " nsp
				continue
			}
			spread = spread sprintf("%s%s %.2f (%.2f to %.2f), %s", spread ? "; " : "",
			    f[col["label"]], f[col["speedup"]], f[col["speedup_min"]],
			    f[col["speedup_max"]], nsp)
		}
		printf "%s; per-walk ratio over rounds, median (range): %s\n", phys, spread
	}' "$tmp/csv"
	grep '^Physical scan is' "$tmp/text"
	grep '^scan: warning' "$tmp/text" || true
} >"$tmp/block"		# not a pipe: a failing awk must fail the script
tr '\t' ' ' <"$tmp/block" | fold -s -w 72 | sed 's/ *$//'
